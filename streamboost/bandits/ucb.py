"""UCB1 (Auer, Cesa-Bianchi & Fischer, 2002)."""

from __future__ import annotations

import math

from .base import Policy

__all__ = ["UCB1"]


class UCB1(Policy):
    r"""UCB1: pull the arm with the highest upper confidence bound on its mean.

    After each arm has been pulled once (lowest index first), pull

    $$\arg\max_j \; \bar x_j + \sqrt{\frac{2 \ln n}{n_j}},$$

    where $\bar x_j$ is the average reward of arm $j$, $n_j$ its number of pulls and $n$ the
    number of pulls so far (Auer et al. 2002, Fig. 1). With side observations
    (`update_round`), $n_j$ counts every observation of arm $j$ and $n$ the rounds, so the sum
    of the $n_j$ exceeds $n$; $\ln n$ stays the round count, as in UCB with side observations
    (Caron, Kveton, Lelarge & Bhagat 2012, UCB-N). Ties are broken at random. Rewards must
    lie in $[0, 1]$; the expected regret after $n$ rounds is at most
    $8 \sum_{i: \Delta_i > 0} \ln n / \Delta_i + (1 + \pi^2/3) \sum_j \Delta_j$ (Theorem 1).

    UCB1 assumes stationary rewards: after a long run its bonus shrinks like
    $\sqrt{\ln n / n_j}$, so it follows a change of the best arm slowly (see
    `DiscountedUCB` and `SlidingWindowUCB`).

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the generator that breaks ties.

    Examples
    --------
    >>> import random
    >>> from streamboost import bandits
    >>> policy = bandits.UCB1(n_arms=2, seed=0)
    >>> env = random.Random(1)
    >>> for _ in range(1000):
    ...     arm = policy.select()
    ...     policy.update(arm, float(env.random() < (0.4, 0.6)[arm]))
    >>> policy.counts[1] > policy.counts[0]
    True

    References
    ----------
    Auer, P., Cesa-Bianchi, N. and Fischer, P. (2002). Finite-time analysis of the multiarmed
    bandit problem. Machine Learning, 47(2-3), 235-256. Caron, S., Kveton, B., Lelarge, M.
    and Bhagat, S. (2012). Leveraging side observations in stochastic bandits. UAI 2012.

    """

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's index $\\bar x_j + \\sqrt{2 \\ln n / n_j}$ (`inf` for an arm never pulled)."""
        n = self._n_rounds
        return tuple([  # a list first: faster than a generator
            s / c + math.sqrt(2.0 * math.log(n) / c) if c else math.inf
            for s, c in zip(self._sums, self._counts, strict=True)
        ])

    def _select(self) -> int:
        return self._index_select(self._counts)
