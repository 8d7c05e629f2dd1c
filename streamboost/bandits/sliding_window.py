"""Sliding-window policies: UCB and KL-UCB (Garivier & Moulines, 2011), Thompson sampling
(Trovò et al., 2020), UCB-Improved."""

from __future__ import annotations

import collections
import math

from ..validation import check_int
from .base import Policy, _check_positive, _ratios, _slide
from .kl_ucb import _check_c, _exploration, _kl_indices
from .thompson import _beta_draw
from .ucb_improved import UCBImproved

__all__ = ["SlidingWindowKLUCB", "SlidingWindowThompson", "SlidingWindowUCB",
           "SlidingWindowUCBImproved"]


class _Windowed(Policy):
    """A policy on the last `window` rounds only: a ring buffer of the rounds' (arm, reward)
    pairs (one per round, or one per observed arm of a round with side observations) and each
    arm's count and sum within it, so memory is O(window K) and a round costs O(K). An index
    policy pulls an arm absent from the window first, lowest index first; subclasses set
    `window` and give `upper_bounds`, or select their own way (`SlidingWindowThompson`)."""

    window: int

    def _reset(self) -> None:
        self._history: collections.deque = collections.deque()
        self._wn = [0] * self.n_arms
        self._ws = [0.0] * self.n_arms

    @property
    def window_counts(self) -> tuple[int, ...]:
        """Pulls of each arm within the window, $N_t(\\tau, i)$."""
        return tuple(self._wn)

    @property
    def means(self) -> tuple[float, ...]:
        return _ratios(self._ws, self._wn)

    def _select(self) -> int:
        return self._index_select(self._wn)

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        _slide(self._history, self._wn, self._ws, self.window, observed)


class SlidingWindowUCB(_Windowed):
    r"""Sliding-window UCB (SW-UCB): UCB on the last $\tau$ rounds only.

    With $N_t(\tau, i)$ the number of pulls of arm $i$ among the last $\tau$ rounds and
    $\bar X_t(\tau, i)$ their average reward, pull (Garivier & Moulines 2011, Section 4)

    $$\arg\max_i \bar X_t(\tau, i) + B \sqrt{\frac{\xi \log \min(t, \tau)}{N_t(\tau, i)}},$$

    with $B = 1$ (rewards in $[0, 1]$), $\xi > 1/2$ and $t$ the rounds so far. Arms with no
    pull inside the window are pulled first, lowest index first. The window is a ring buffer
    of the last $\tau$ rounds' (arm, reward) pairs with per-arm counts and sums: memory
    $O(\tau K)$, each step $O(K)$. Defaults $\tau = 500$ (`DiscountedUCB`'s memory) and
    $\xi = 0.6$. The worse arm keeps a share of pulls in a stationary problem, and an arm
    rested after a long run keeps its stale mean in the window for up to $\tau$ rounds
    (docs/bandits.md). `means` are the window means (`nan` for an arm absent from the window);
    `window_counts` the $N_t(\tau, i)$.

    Parameters
    ----------
    n_arms, window, xi
        Number of arms; window length $\tau$ in rounds; exploration constant $\xi > 1/2$.
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.SlidingWindowUCB(n_arms=2, window=3, seed=0)
    >>> for arm, reward in [(0, 1.0), (1, 0.0), (1, 0.5), (1, 1.0)]:
    ...     policy.update(arm, reward)
    >>> policy.window_counts, policy.means
    ((0, 3), (nan, 0.5))
    >>> policy.select()  # arm 0 has left the window
    0

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188. arXiv:0805.3415.

    """

    def __init__(
        self, n_arms: int = 2, window: int = 500, xi: float = 0.6, seed: int | None = None
    ):
        self.window = check_int("window", window, 1)
        _check_positive("xi", xi)
        self.xi = xi
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's window index (`inf` for an arm absent from the window)."""
        t = min(self._n_rounds, self.window)
        scale = self.xi * math.log(t) if t else 0.0  # B = 1
        return tuple([  # a list first: faster than a generator
            s / n + math.sqrt(scale / n) if n else math.inf
            for s, n in zip(self._ws, self._wn, strict=True)
        ])


class SlidingWindowKLUCB(_Windowed):
    r"""Sliding-window KL-UCB (SW-KL-UCB): KL-UCB's index on the last $\tau$ rounds only.

    `SlidingWindowUCB`'s window statistics with KL-UCB's index in place of the padding
    (Garivier & Cappé 2011, Eq. (3)): pull $\arg\max_i u_t(\tau, i)$ with

    $$u_t(\tau, i) = \max\left\{q \in [\bar X_t(\tau, i), 1] :
        N_t(\tau, i)\, \mathrm{kl}(\bar X_t(\tau, i), q) \le
        \ln \min(t, \tau) + c \ln\ln \min(t, \tau)\right\},$$

    $\mathrm{kl}$ the Bernoulli divergence (`kl_ucb.kl_upper_bound`). Neither paper states
    this combination; we take SW-UCB's $\min(t, \tau)$ in the logarithm (Garivier & Moulines
    2011, Section 4), as SMPyBandits' `SWklUCB` does; the $\ln\ln$ term is used where it is
    positive. An arm absent from the window is pulled first, lowest index first. Defaults as
    `SlidingWindowUCB` ($\tau = 500$) and `KLUCB` ($c = 0$). Memory is $O(\tau K)$; `means`
    and `window_counts` as in `SlidingWindowUCB`.

    Parameters
    ----------
    n_arms
        Number of arms.
    window
        Window length $\tau$ in rounds.
    c
        Weight of the $\ln\ln \min(t, \tau)$ term.
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.SlidingWindowKLUCB(n_arms=2, window=3, seed=0)
    >>> for arm, reward in [(0, 1.0), (1, 0.2), (0, 0.6), (1, 0.4)]:
    ...     policy.update(arm, reward)
    >>> policy.window_counts, [round(u, 3) for u in policy.upper_bounds]
    ((1, 2), [0.988, 0.789])

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188. Garivier, A. and Cappé, O. (2011). The KL-UCB
    algorithm for bounded stochastic bandits and beyond. COLT, JMLR W&CP 19, 359-376.

    """

    def __init__(self, n_arms: int = 2, window: int = 500, c: float = 0.0,
                 seed: int | None = None):  # fmt: skip
        self.window = check_int("window", window, 1)
        self.c = _check_c(c)
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's index $u_t(\\tau, i)$ (`inf` for an arm absent from the window)."""
        level = _exploration(min(self._n_rounds, self.window), self.c)
        return _kl_indices(self._ws, self._wn, level)


class SlidingWindowThompson(_Windowed):
    r"""Sliding-window Thompson sampling (SW-TS) with Beta posteriors.

    Each round draws, for every arm $i$, $\theta_i \sim \mathrm{Beta}(\alpha_0 + S_t(\tau, i),
    \beta_0 + F_t(\tau, i))$ and pulls $\arg\max_i \theta_i$ (ties at random), where
    $S_t(\tau, i)$ and $F_t(\tau, i)$ count arm $i$'s successes and failures among the last
    $\tau$ rounds (Trovò, Paladino, Restelli & Gatti 2020, Algorithm 1). The paper's rewards
    are Bernoulli; a reward $r \in [0, 1]$ is first made a success with probability $r$
    (Agrawal & Goyal 2012, as `BetaThompson`), and the window keeps that trial, so what leaves
    it is exactly what was counted. An arm absent from the window samples its prior, so it is
    tried again. Default $\tau = 500$, the memory of `SlidingWindowUCB` and `DiscountedUCB`;
    memory is $O(\tau K)$. `means` are the posterior means $(\alpha_0 + S)/(\alpha_0 + \beta_0
    + S + F)$; `window_counts` are $S + F$.

    Parameters
    ----------
    n_arms
        Number of arms.
    window
        Window length $\tau$ in rounds.
    prior_alpha
        Prior successes $\alpha_0$.
    prior_beta
        Prior failures $\beta_0$.
    seed
        Seed of the generator used for the Bernoulli trials and the draws.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.SlidingWindowThompson(n_arms=2, window=3, seed=0)
    >>> for arm, reward in [(0, 1.0), (1, 0.0), (1, 1.0), (1, 1.0)]:
    ...     policy.update(arm, reward)
    >>> policy.window_counts, policy.means  # arm 0 has left the window: its prior's mean
    ((0, 3), (0.5, 0.6))

    References
    ----------
    Trovò, F., Paladino, S., Restelli, M. and Gatti, N. (2020). Sliding-window Thompson
    sampling for non-stationary settings. JAIR 68, 311-364. Agrawal, S. and Goyal, N. (2012).
    Analysis of Thompson sampling for the multi-armed bandit problem. COLT, 39.1-39.26.

    """

    def __init__(self, n_arms: int = 2, window: int = 500, prior_alpha: float = 1.0,
                 prior_beta: float = 1.0, seed: int | None = None):  # fmt: skip
        self.window = check_int("window", window, 1)
        _check_positive("prior_alpha", prior_alpha)
        _check_positive("prior_beta", prior_beta)
        self.prior_alpha = prior_alpha
        self.prior_beta = prior_beta
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def means(self) -> tuple[float, ...]:
        a0, b0 = self.prior_alpha, self.prior_beta
        return tuple((a0 + s) / (a0 + b0 + n) for s, n in zip(self._ws, self._wn, strict=True))

    def _select(self) -> int:
        failures = [n - s for s, n in zip(self._ws, self._wn, strict=True)]
        return _beta_draw(self._ws, failures, self.prior_alpha, self.prior_beta, self._rng)

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        trial = self._rng.random
        super()._update_round([(arm, 1.0 if trial() < r else 0.0) for arm, r in observed])


class SlidingWindowUCBImproved(UCBImproved):
    r"""Sliding-window UCB-Improved: UCB-Improved's phases on the last $\tau$ rounds' statistics.

    `UCBImproved` in epochs of $T = \tau$ rounds whose phases read each arm's pulls
    $N_t(\tau, i)$ and mean $\bar X_t(\tau, i)$ among the last $\tau$ rounds (as
    `SlidingWindowUCB` does), not the epoch's own: phase $m$ ends once every active arm has
    $N_t(\tau, i) \ge n_m = \lceil 2 \ln(\tau \tilde\Delta_m^2) / \tilde\Delta_m^2 \rceil$,
    and an arm is eliminated if $\bar X_t(\tau, i) + w_m < \max_j (\bar X_t(\tau, j) - w_m)$,
    $w_m = \sqrt{\ln(\tau \tilde\Delta_m^2) / (2 n_m)}$ (Auer & Ortner 2010, Fig. 1, with
    SW-UCB's window, Garivier & Moulines 2011, Section 4, as its horizon).

    Neither paper states the combination. Decided: **forgetting replaces clearing.** A new
    epoch (UCB-Improved's restart, where eliminated arms come back) keeps the window, so the
    phases its counts already pass are settled at once and a still-worse arm is eliminated
    again without a pull, where UCB-Improved explores it from scratch (docs/bandits.md). With
    $\tau$ longer than the run it is `UCBImproved(horizon=tau)`, pull for pull. Default
    $\tau = 1000$, twice SW-UCB's: with 500 rounds, two arms cannot both reach the $n_3 = 263$
    pulls that separate means 0.2 apart. Memory is $O(\tau K)$; `means` and `window_counts` as
    in `SlidingWindowUCB`.

    Parameters
    ----------
    n_arms, window, seed
        Number of arms; window length $\tau$ in rounds, also the epoch's; the ties' seed.

    Examples
    --------
    >>> from streamboost import bandits
    >>> def pulls(policy):  # 60 rounds: arm 0 always pays 1, arm 1 never
    ...     for _ in range(60):
    ...         arm = policy.select()
    ...         policy.update(arm, float(arm == 0))
    ...     return policy.counts
    >>> pulls(bandits.SlidingWindowUCBImproved(n_arms=2, window=40, seed=0))  # epoch 0 only
    (52, 8)
    >>> pulls(bandits.UCBImproved(n_arms=2, horizon=40, seed=0))  # explored again in epoch 1
    (44, 16)

    References
    ----------
    Auer, P. and Ortner, R. (2010). UCB revisited: improved regret bounds for the stochastic
    multi-armed bandit problem. Periodica Mathematica Hungarica 61. Garivier, A. and Moulines, E.
    (2011). On upper-confidence bound policies for switching bandit problems. ALT.

    """

    def __init__(self, n_arms: int = 2, window: int = 1000, seed: int | None = None):
        self.window = check_int("window", window, 1)
        super().__init__(n_arms=n_arms, horizon=window, seed=seed)

    @property
    def window_counts(self) -> tuple[int, ...]:
        """Pulls of each arm within the window, $N_t(\\tau, i)$."""
        return tuple(self._epoch_counts)

    def _epoch_statistics(self) -> None:
        if self._epoch == 0:  # kept from one epoch to the next: the window forgets
            self._history: collections.deque = collections.deque()
            self._epoch_counts = [0] * self.n_arms
            self._epoch_sums = [0.0] * self.n_arms

    def _observe(self, observed: list[tuple[int, float]]) -> None:
        _slide(self._history, self._epoch_counts, self._epoch_sums, self.window, observed)
