"""KL-UCB for Bernoulli rewards (Garivier & Cappé, 2011)."""

from __future__ import annotations

import math

from ..validation import is_real
from .base import Policy

__all__ = ["KLUCB", "bernoulli_kl", "kl_upper_bound"]

_EDGE = 1e-15  # q is kept below 1 - _EDGE, where kl(p, q) is still finite


def bernoulli_kl(p: float, q: float) -> float:
    r"""Kullback-Leibler divergence $\mathrm{kl}(p, q)$ of Bernoulli($p$) from Bernoulli($q$).

    $p \log(p/q) + (1-p) \log((1-p)/(1-q))$, with $0 \log 0 = 0$.

    Examples
    --------
    >>> from streamboost.bandits.kl_ucb import bernoulli_kl
    >>> round(bernoulli_kl(0.5, 0.75), 6)
    0.143841
    >>> bernoulli_kl(0.3, 0.3)
    0.0

    """
    out = 0.0
    if p > 0.0:
        out += p * math.log(p / q)
    if p < 1.0:
        out += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return out


def _exploration(t: float, c: float) -> float:
    r"""KL-UCB's exploration level $\ln t + c \ln\ln t$ after $t$ pulls (a count, or a
    discounted or windowed one), $\ln t$ floored at 0 and the $\ln\ln t$ term used where it
    is positive ($t > e$; Garivier & Cappé 2011, Eq. (3))."""
    level = math.log(t) if t > 1.0 else 0.0
    if c and level > 1.0:
        level += c * math.log(level)
    return level


def _kl_indices(sums, counts, level: float) -> tuple[float, ...]:
    """Each arm's KL upper bound at exploration `level` from its reward sum and its (possibly
    discounted or windowed) count: `kl_upper_bound(sum / count, level / count)`, `inf` for an
    arm whose count is 0."""
    return tuple([  # a list first: faster than a generator
        kl_upper_bound(s / n, level / n) if n else math.inf
        for s, n in zip(sums, counts, strict=True)
    ])


def _check_c(c) -> float:
    r"""`c`, the weight of the $\ln\ln t$ term, if it is a finite number >= 0."""
    if not is_real(c) or not (math.isfinite(c) and c >= 0):
        raise ValueError(f"c must be a finite number >= 0, got {c!r}")
    return c


def kl_upper_bound(p: float, level: float, tol: float = 1e-12) -> float:
    r"""Largest $q \in [p, 1]$ with $\mathrm{kl}(p, q) \le \text{level}$.

    Solved by Newton's method from the right, starting at Pinsker's bound
    $p + \sqrt{\text{level}/2}$ (which satisfies $\mathrm{kl} \ge$ level). $\mathrm{kl}(p, \cdot)$
    is convex and increasing on $[p, 1)$, so the iterates decrease monotonically to the root;
    it stops once $\mathrm{kl}(p, q) - \text{level} \le$ `tol`. For $p = 0$ the root has the
    closed form $1 - e^{-\text{level}}$.

    Examples
    --------
    >>> from streamboost.bandits.kl_ucb import bernoulli_kl, kl_upper_bound
    >>> q = kl_upper_bound(0.5, 0.1)
    >>> round(q, 6), round(bernoulli_kl(0.5, q), 9)
    (0.712879, 0.1)

    """
    if level <= 0.0 or p >= 1.0:
        return min(max(p, 0.0), 1.0)
    if p <= 0.0:
        return -math.expm1(-level)
    q = p + math.sqrt(0.5 * level)
    if q >= 1.0 - _EDGE:
        q = 1.0 - _EDGE
        if bernoulli_kl(p, q) <= level:
            return 1.0
    log_p, log_1p = math.log(p), math.log(1.0 - p)
    for _ in range(100):
        # Near q = 1 the slope is huge and the steps tiny, so stop on the value, not the step.
        f = p * (log_p - math.log(q)) + (1.0 - p) * (log_1p - math.log(1.0 - q)) - level
        if f <= tol:
            break
        q -= f * q * (1.0 - q) / (q - p)
    return q


class KLUCB(Policy):
    r"""KL-UCB with the Bernoulli divergence: optimistic in the Kullback-Leibler sense.

    After each arm has been pulled once (lowest index first), pull the arm maximising

    $$u_j = \max\left\{q \in [\bar x_j, 1] :
        n_j \, \mathrm{kl}(\bar x_j, q) \le \ln t + c \ln\ln t\right\},$$

    with $\mathrm{kl}$ the Bernoulli KL divergence, $\bar x_j$ the average reward of arm $j$,
    $n_j$ its pull count and $t$ the number of pulls so far (Garivier & Cappé 2011, Eq. (3) and
    Fig. 1; the $\ln\ln t$ term is used once $t \ge 3$, where it is positive). The upper bound is
    found by Newton's method (`kl_upper_bound`). Ties are broken at random.

    Rewards must lie in $[0, 1]$: the Bernoulli divergence bounds any $[0, 1]$ reward
    distribution with the same mean (paper, Section 2), so non-binary rewards are used as they
    are. The paper proves its regret bound for $c = 3$ but recommends $c = 0$ in practice,
    which is the default.

    Parameters
    ----------
    n_arms
        Number of arms.
    c
        Weight of the $\ln \ln t$ term (default 0, as recommended by the paper's experiments).
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> import random
    >>> from streamboost import bandits
    >>> policy = bandits.KLUCB(n_arms=2, seed=0)
    >>> env = random.Random(1)
    >>> for _ in range(1000):
    ...     arm = policy.select()
    ...     policy.update(arm, float(env.random() < (0.4, 0.6)[arm]))
    >>> policy.counts[1] > policy.counts[0]
    True

    References
    ----------
    Garivier, A. and Cappé, O. (2011). The KL-UCB algorithm for bounded stochastic bandits and
    beyond. COLT, JMLR W&CP 19, 359-376.

    """

    def __init__(self, n_arms: int = 2, c: float = 0.0, seed: int | None = None):
        self.c = _check_c(c)
        super().__init__(n_arms=n_arms, seed=seed)

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's KL upper confidence bound $u_j$ (`inf` for an arm never pulled)."""
        return _kl_indices(self._sums, self._counts, _exploration(self._n_rounds, self.c))

    def _select(self) -> int:
        return self._index_select(self._counts)
