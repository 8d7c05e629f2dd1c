"""GLR-klUCB: kl-UCB that restarts an arm when a change detector fires (Besson et al. 2022)."""

from __future__ import annotations

import math

import numpy as np

from ..validation import check_int
from .base import Policy, _check_open_unit, _ratios
from .kl_ucb import kl_upper_bound
from .recent import RecentRewards

__all__ = ["GLRKLUCB", "bernoulli_glr"]

_EDGE = 1e-12  # means are kept this far inside (0, 1), where kl is finite


def bernoulli_glr(rewards: np.ndarray, step: int = 1) -> float:
    r"""The Bernoulli generalized likelihood ratio statistic of a change in `rewards`:

    $$\max_{s} \; s\,\mathrm{kl}(\hat\mu_{1:s}, \hat\mu_{1:n}) +
    (n - s)\,\mathrm{kl}(\hat\mu_{s+1:n}, \hat\mu_{1:n})$$

    over the split points $s = $ `step`, 2 `step`, ... $< n$ (Besson et al. 2022, Eq. 3), with
    $\mathrm{kl}$ the Bernoulli divergence; rewards in $[0, 1]$.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.bandits.glr_kl_ucb import bernoulli_glr
    >>> round(bernoulli_glr(np.array([1.0] * 4 + [0.0] * 4)), 4)  # 8 ln 2: a clean change
    5.5452
    >>> bernoulli_glr(np.array([0.5] * 8))
    0.0

    """
    n = len(rewards)
    s = np.arange(step, n, step)
    if not len(s):
        return 0.0
    sums = np.cumsum(rewards)
    mean = min(max(sums[-1] / n, _EDGE), 1.0 - _EDGE)
    before = np.clip(sums[s - 1] / s, _EDGE, 1.0 - _EDGE)
    after = np.clip((sums[-1] - sums[s - 1]) / (n - s), _EDGE, 1.0 - _EDGE)
    statistic = s * _kl(before, mean) + (n - s) * _kl(after, mean)
    return float(max(statistic.max(), 0.0))


def _kl(p: np.ndarray, q: float) -> np.ndarray:
    return p * np.log(p / q) + (1.0 - p) * np.log((1.0 - p) / (1.0 - q))


class GLRKLUCB(Policy):
    r"""GLR-klUCB with local restarts: kl-UCB on each arm's rewards since its last change.

    Each round is either a forced exploration (with $\alpha$ the exploration share, round
    $t$ pulls arm $t \bmod \lfloor K/\alpha \rfloor$ when that is $< K$; $t$ counts every round,
    as in the paper: a restart resets its arm, which then has the largest index, not this clock)
    or pulls the arm of largest kl-UCB index on the rewards observed since the arm's last
    restart, $n_j\,\mathrm{kl}(\bar x_j, q) \le \ln t_j$, $t_j$ the rounds since that restart.
    After each observation the arm's Bernoulli GLR statistic (`bernoulli_glr`) is compared
    with $\beta(n, \delta) = \ln(3 n^{3/2} / \delta)$, the threshold the paper uses in its
    experiments; above it, the arm forgets its past (Besson, Kaufmann, Maillard & Seznec 2022,
    Algorithm 1 and Section 6). Rewards lie in $[0, 1]$.

    Two choices keep it O(1) in memory and cheap: the detector looks at the arm's last `window`
    rewards (the paper keeps all since the restart), and it runs every `check_every`
    observations over split points `check_every` apart (the paper's down-sampling, Section 7).
    `restarts` counts the detections per arm.

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the generator that breaks ties.
    alpha, delta
        Share of forced exploration rounds, in (0, 1); confidence of the change detector, in
        (0, 1): smaller, fewer false alarms.
    window, check_every
        Rewards per arm the detector looks at; observations between two tests of an arm, and
        the split points' spacing.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.GLRKLUCB(n_arms=2, seed=0)
    >>> for _ in range(200):
    ...     policy.update_round({0: 1.0, 1: 0.0})
    >>> for _ in range(60):
    ...     policy.update_round({0: 0.0, 1: 1.0})  # the arms swap
    >>> policy.restarts, policy.select()
    ((1, 1), 1)

    References
    ----------
    Besson, L., Kaufmann, E., Maillard, O.-A. and Seznec, J. (2022). Efficient change-point
    detection for tackling piecewise-stationary bandits. JMLR 23(77), 1-40.

    """

    def __init__(
        self,
        n_arms: int = 2,
        alpha: float = 0.05,
        delta: float = 0.01,
        window: int = 1000,
        check_every: int = 10,
        seed: int | None = None,
    ):
        _check_open_unit("alpha", alpha)
        _check_open_unit("delta", delta)
        self.window = check_int("window", window, 2)
        self.check_every = check_int("check_every", check_every, 1)
        self.alpha = alpha
        self.delta = delta
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._since = [0] * self.n_arms  # rounds since each arm's restart
        self._s = [0.0] * self.n_arms  # reward sums since each arm's restart
        self._recent = RecentRewards(self.n_arms, self.window)  # counts since the restart too
        self._restarts = [0] * self.n_arms

    @property
    def restarts(self) -> tuple[int, ...]:
        """How many times each arm's change detector fired."""
        return tuple(self._restarts)

    @property
    def means(self) -> tuple[float, ...]:
        """Each arm's mean reward since its last restart (`nan` without data)."""
        counts = map(self._recent.count, range(self.n_arms))
        return _ratios(self._s, counts)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's kl-UCB index on its rewards since its restart (`inf` without data)."""
        return tuple([  # a list first: faster than a generator
            kl_upper_bound(s / n, math.log(max(t, 1)) / n) if n else math.inf
            for s, n, t in zip(
                self._s, map(self._recent.count, range(self.n_arms)), self._since, strict=True
            )
        ])

    def _select(self) -> int:
        period = int(self.n_arms / self.alpha)
        forced = self.n_rounds % period  # the forced exploration's clock, Algorithm 1's t
        if forced < self.n_arms:
            return forced
        return self._index_select([self._recent.count(a) for a in range(self.n_arms)])

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        for arm in range(self.n_arms):
            self._since[arm] += 1
        recent = self._recent
        for arm, reward in observed:
            self._s[arm] += reward
            recent.append(arm, reward)
            if recent.count(arm) % self.check_every == 0:
                threshold = math.log(3.0 * recent.kept(arm) ** 1.5 / self.delta)
                if bernoulli_glr(recent.history(arm), self.check_every) > threshold:
                    self._restart(arm)

    def _restart(self, arm: int) -> None:
        self._restarts[arm] += 1
        self._since[arm] = 0
        self._s[arm] = 0.0
        self._recent.clear(arm)
