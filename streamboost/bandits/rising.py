"""R-ed-UCB: optimistic projection of each arm's learning curve, for rising bandits."""

from __future__ import annotations

import math

import numpy as np

from .base import _argmax, _check_open_unit
from .recent import RecentRewardsPolicy

__all__ = ["RisingUCB"]


class RisingUCB(RecentRewardsPolicy):
    r"""R-ed-UCB for rested rising arms: pull the arm whose learning curve, projected, is best.

    A rested rising arm pays more the more it is pulled (a model's gain from training while it
    learns). With arm $i$ pulled $N$ times, rewards $X_1 .. X_N$ and window
    $h = \lfloor \epsilon N \rfloor$, its index at round $t$ extrapolates the slope between its
    last two windows of $h$ rewards to round $t$, plus a bonus (Metelli, Trovò, Pirola &
    Restelli 2022, R-ed-UCB, the rested setting; constants as in the authors' code):

    $$\hat\mu_i(t) = \frac1h \sum_{l=N-h+1}^{N} \Big(X_l + (t - l)\frac{X_l - X_{l-h}}{h}\Big),
    \qquad \beta_i(t) = \sigma\,(t - N + h - 1)\sqrt{\frac{10 \log(1/\delta_t)}{h^3}},$$

    $\delta_t = t^{-\alpha}$. The projection is exact for a linear curve. Arms with $h = 0$
    (fewer than $1/\epsilon$ rewards) are pulled first, the least pulled first, lowest index
    first among equals; ties between indices are broken at random. Each arm keeps its last
    `window` rewards (the paper keeps all), so $h$ is at most `window // 2` and memory stays
    flat.

    Parameters
    ----------
    n_arms, window, seed
        Number of arms; rewards kept per arm; seed of the tie-breaking generator.
    epsilon
        Share of an arm's pulls in each window, in (0, 1/2].
    alpha, sigma
        Exponent of the confidence $\delta_t = t^{-\alpha}$ and sub-Gaussian scale of the
        rewards (the authors' code: 4 and 0.1).

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.RisingUCB(n_arms=2, seed=0)
    >>> for n in range(40):  # arm 0 flat at 0.6, arm 1 rising from 0.2 by 0.01 per pull
    ...     policy.update_round({0: 0.6, 1: 0.2 + 0.01 * n})
    >>> policy.select(), round(policy.projections[1], 2)  # the line at round 41
    (1, 0.6)

    References
    ----------
    Metelli, A. M., Trovò, F., Pirola, M. and Restelli, M. (2022). Stochastic rising bandits.
    ICML, PMLR 162, 15421-15457.

    """

    def __init__(
        self,
        n_arms: int = 2,
        epsilon: float = 0.25,
        alpha: float = 4.0,
        sigma: float = 0.1,
        window: int = 1000,
        seed: int | None = None,
    ):
        _check_open_unit("epsilon", epsilon)
        if epsilon > 0.5:
            raise ValueError(f"epsilon must be a number in (0, 0.5], got {epsilon!r}")
        self.epsilon = epsilon
        super().__init__(n_arms, alpha, sigma, window, seed, min_window=2)

    def _width(self, arm: int) -> int:
        return min(int(self.epsilon * self._recent.count(arm)), self.window // 2)

    @property
    def projections(self) -> tuple[float | None, ...]:
        """Each arm's projected reward $\\hat\\mu_i(t)$ at the next round (None while h = 0)."""
        t = self._n_rounds + 1
        values: list[float | None] = []
        for arm in range(self.n_arms):
            h, n = self._width(arm), self._recent.count(arm)
            if not h:
                values.append(None)
                continue
            last = self._recent.history(arm)[-2 * h :]
            new, old = last[h:], last[:h]
            pulls = np.arange(n - h + 1, n + 1)  # l = N - h + 1 .. N
            values.append(float(np.mean(new + (t - pulls) * (new - old) / h)))
        return tuple(values)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's index $\\hat\\mu_i(t) + \\beta_i(t)$ at the next round (`inf` while h = 0)."""
        t = self._n_rounds + 1
        log_inv_delta = self.alpha * math.log(t)
        bounds = []
        for arm, value in enumerate(self.projections):
            h, n = self._width(arm), self._recent.count(arm)
            if value is None:
                bounds.append(math.inf)
                continue
            bonus = self.sigma * (t - n + h - 1) * math.sqrt(10.0 * log_inv_delta / h**3)
            bounds.append(value + bonus)
        return tuple(bounds)

    def _select(self) -> int:
        bounds = self._indices()
        warming = [arm for arm, bound in enumerate(bounds) if bound == math.inf]
        if warming:  # round robin until every arm has a window: the least pulled, lowest index
            return min(warming, key=self._recent.count)
        return _argmax(list(bounds), self._rng)
