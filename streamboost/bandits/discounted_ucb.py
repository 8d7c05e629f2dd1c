"""Discounted UCB, KL-UCB and UCB-Improved (Garivier & Moulines, 2011)."""

from __future__ import annotations

import math

from .base import Policy, _check_open_unit, _check_positive, _discount, _ratios
from .kl_ucb import _check_c, _exploration, _kl_indices
from .ucb_improved import UCBImproved

__all__ = ["DiscountedKLUCB", "DiscountedUCB", "DiscountedUCBImproved"]


class _Discounted(Policy):
    """An index policy on discounted counts $N_t(\\gamma, i)$ and sums, every arm discounted
    every round (pulled or not); an arm whose count is 0 is pulled first. Subclasses set
    `gamma` and give `upper_bounds`."""

    gamma: float

    def _reset(self) -> None:
        self._dn = [0.0] * self.n_arms
        self._ds = [0.0] * self.n_arms

    @property
    def discounted_counts(self) -> tuple[float, ...]:
        """The discounted pull counts $N_t(\\gamma, i)$."""
        return tuple(self._dn)

    @property
    def means(self) -> tuple[float, ...]:
        return _ratios(self._ds, self._dn)

    def _select(self) -> int:
        return self._index_select(self._dn)

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        _discount(self._dn, self._ds, self.gamma, observed)


class DiscountedUCB(_Discounted):
    r"""Discounted UCB (D-UCB): UCB on exponentially discounted counts and means.

    With discount $\gamma$, after round $t$ (Garivier & Moulines 2011, Section 2):

    $$N_t(\gamma, i) = \sum_{s \le t} \gamma^{t-s} \mathbb 1\{I_s = i\},\quad
      \bar X_t(\gamma, i) = \frac{1}{N_t(\gamma, i)}
        \sum_{s \le t} \gamma^{t-s} X_s \mathbb 1\{I_s = i\},\quad
      n_t(\gamma) = \sum_i N_t(\gamma, i),$$

    and the policy pulls $\arg\max_i \bar X_t(\gamma, i) + c_t(\gamma, i)$ with the padding
    $c_t(\gamma, i) = 2B \sqrt{\xi \log n_t(\gamma) / N_t(\gamma, i)}$,
    $B = 1$ the reward bound (rewards in $[0, 1]$) and $\xi > 1/2$. Every arm is discounted
    every round, pulled or not, so a neglected arm's padding grows again; an arm of zero
    discounted count is pulled first, lowest index first; $\log n_t(\gamma)$ is floored at 0.
    Defaults $\xi = 0.6$ and $\gamma = 0.998$ (memory 500 rounds): the paper's tuning (Section
    3) for about one breakpoint per 16,000 rounds. Forgetting explores for ever, so regret
    grows linearly in a stationary problem (measured, and the constants against SMPyBandits':
    docs/bandits.md). `means` and `discounted_counts` are $\bar X_t(\gamma, i)$ (`nan` while
    $N_t(\gamma, i) = 0$) and $N_t(\gamma, i)$. Memory is $O(K)$.

    Parameters
    ----------
    n_arms, gamma, xi
        Number of arms; discount $\gamma \in (0, 1)$; exploration constant $\xi > 1/2$.
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.DiscountedUCB(n_arms=2, gamma=0.9, seed=0)
    >>> for arm, reward in [(0, 1.0), (1, 0.0), (0, 1.0)]:
    ...     policy.update(arm, reward)
    >>> [round(n, 3) for n in policy.discounted_counts]
    [1.81, 0.9]
    >>> policy.select()
    0

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188. arXiv:0805.3415.

    """

    def __init__(
        self, n_arms: int = 2, gamma: float = 0.998, xi: float = 0.6, seed: int | None = None
    ):
        _check_open_unit("gamma", gamma)
        _check_positive("xi", xi)
        self.gamma = gamma
        self.xi = xi
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's index $\\bar X_t(\\gamma, i) + c_t(\\gamma, i)$ (`inf` while $N_t = 0$)."""
        dn = self._dn
        total = sum(dn)
        scale = 4.0 * self.xi * max(math.log(total), 0.0) if total else 0.0  # (2B)^2 xi log n
        return tuple([  # a list first: faster than a generator
            s / n + math.sqrt(scale / n) if n else math.inf
            for s, n in zip(self._ds, dn, strict=True)
        ])


class DiscountedKLUCB(_Discounted):
    r"""Discounted KL-UCB (D-KL-UCB): KL-UCB's index on discounted counts and means.

    `DiscountedUCB`'s statistics (every arm discounted by $\gamma$ every round, pulled or not)
    with KL-UCB's index in place of the padding (Garivier & Cappé 2011, Eq. (3)): pull
    $\arg\max_i u_t(\gamma, i)$ with

    $$u_t(\gamma, i) = \max\left\{q \in [\bar X_t(\gamma, i), 1] :
        N_t(\gamma, i)\, \mathrm{kl}(\bar X_t(\gamma, i), q) \le
        \ln n_t(\gamma) + c \ln\ln n_t(\gamma)\right\},$$

    $\mathrm{kl}$ the Bernoulli divergence (`kl_ucb.kl_upper_bound`). Neither paper states
    this combination; we take D-UCB's substitution of the discounted total $n_t(\gamma)$ for
    the number of rounds $t$ in the logarithm (Garivier & Moulines 2011, Section 2), as
    SMPyBandits' `DiscountedklUCB` does. $\ln n_t(\gamma)$ is floored at 0 and the
    $\ln\ln$ term is used where it is positive. An arm whose discounted count is zero is
    pulled first, lowest index first. Defaults as `DiscountedUCB` ($\gamma = 0.998$) and
    `KLUCB` ($c = 0$). Memory is $O(K)$; `means` and `discounted_counts` as in `DiscountedUCB`.

    Parameters
    ----------
    n_arms, gamma, c
        Number of arms; discount $\gamma \in (0, 1)$; weight of the $\ln\ln n_t(\gamma)$ term.
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.DiscountedKLUCB(n_arms=2, gamma=0.9, seed=0)
    >>> for arm, reward in [(0, 0.8), (1, 0.2), (0, 0.8), (1, 0.5)]:
    ...     policy.update(arm, reward)
    >>> [round(m, 3) for m in policy.means], [round(u, 3) for u in policy.upper_bounds]
    ([0.8, 0.366], [0.998, 0.869])
    >>> policy.select()
    0

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188. Garivier, A. and Cappé, O. (2011). The KL-UCB
    algorithm for bounded stochastic bandits and beyond. COLT, JMLR W&CP 19, 359-376.

    """

    def __init__(
        self, n_arms: int = 2, gamma: float = 0.998, c: float = 0.0, seed: int | None = None
    ):
        _check_open_unit("gamma", gamma)
        self.gamma = gamma
        self.c = _check_c(c)
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's index $u_t(\\gamma, i)$ (`inf` while $N_t(\\gamma, i) = 0$)."""
        return _kl_indices(self._ds, self._dn, _exploration(sum(self._dn), self.c))


class DiscountedUCBImproved(UCBImproved):
    r"""Discounted UCB-Improved: UCB-Improved's phases on discounted statistics.

    `UCBImproved` in epochs of $T = \mathrm{round}(1/(1-\gamma))$ rounds (the discount's
    memory) whose phases read D-UCB's discounted counts $N_t(\gamma, i)$ and means
    $\bar X_t(\gamma, i)$, every arm discounted every round (Garivier & Moulines 2011,
    Section 2), not the epoch's own: phase $m$ ends once every active arm has
    $N_t(\gamma, i) \ge n_m = \lceil 2 \ln(T \tilde\Delta_m^2) / \tilde\Delta_m^2 \rceil$, and
    an arm is eliminated if $\bar X_t(\gamma, i) + w_m < \max_j (\bar X_t(\gamma, j) - w_m)$,
    $w_m = \sqrt{\ln(T \tilde\Delta_m^2) / (2 n_m)}$ (Auer & Ortner 2010, Fig. 1).

    Neither paper states the combination. Decided, as `SlidingWindowUCBImproved`:
    **forgetting replaces clearing** at each epoch's restart; old evidence weighs little, so
    an arm eliminated long ago earns part of its counts again. A discounted count stays below
    the pulls it counts: a phase whose target the arms cannot reach runs to the epoch's end,
    as one too long for the horizon does in UCB-Improved. Default $\gamma = 0.999$ (memory
    1,000), for `SlidingWindowUCBImproved`'s reason. Memory is $O(K)$; `means` and
    `discounted_counts` as in `DiscountedUCB`.

    Parameters
    ----------
    n_arms
        Number of arms.
    gamma
        Discount factor $\gamma \in (0, 1)$; the epoch lasts $\mathrm{round}(1/(1-\gamma))$
        rounds.
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.DiscountedUCBImproved(n_arms=2, gamma=0.975, seed=0)  # epochs of 40
    >>> for _ in range(60):  # arm 0 always pays 1, arm 1 never
    ...     arm = policy.select()
    ...     policy.update(arm, float(arm == 0))
    >>> policy.counts, policy.epoch, policy.active_arms  # arm 1: 11 pulls, then 3 more at 40
    ((46, 14), 1, (0,))

    References
    ----------
    Auer, P. and Ortner, R. (2010). UCB revisited: improved regret bounds for the stochastic
    multi-armed bandit problem. Periodica Mathematica Hungarica 61, 55-65. Garivier, A. and
    Moulines, E. (2011). On upper-confidence bound policies for switching bandit problems. ALT.

    """

    def __init__(self, n_arms: int = 2, gamma: float = 0.999, seed: int | None = None):
        _check_open_unit("gamma", gamma)
        self.gamma = gamma
        super().__init__(n_arms=n_arms, horizon=max(1, round(1.0 / (1.0 - gamma))), seed=seed)

    @property
    def discounted_counts(self) -> tuple[float, ...]:
        """The discounted pull counts $N_t(\\gamma, i)$."""
        return tuple(self._epoch_counts)

    def _epoch_statistics(self) -> None:
        if self._epoch == 0:  # kept from one epoch to the next: the discount forgets
            self._epoch_counts = [0.0] * self.n_arms
            self._epoch_sums = [0.0] * self.n_arms

    def _observe(self, observed: list[tuple[int, float]]) -> None:
        _discount(self._epoch_counts, self._epoch_sums, self.gamma, observed)
