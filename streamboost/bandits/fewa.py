"""FEWA: filtering on expanding window averages, for rotting bandits (Seznec et al. 2019)."""

from __future__ import annotations

import math

import numpy as np

from .base import _first_unpulled
from .recent import RecentRewardsPolicy

__all__ = ["FEWA"]


class FEWA(RecentRewardsPolicy):
    r"""FEWA for rotting (rested, decaying) arms: trust each arm's most recent rewards first.

    A rested arm's value falls as it is pulled (a calibration's benefit as the model moves on,
    a model's as it is trained). At round $t$, with $\delta_t = t^{-\alpha}$ and
    $c(h) = \sqrt{2 \sigma^2 \log(1/\delta_t) / h}$, FEWA filters the arms on the averages
    $\hat\mu_i^h$ of their last $h$ rewards for $h = 1, 2, \ldots$: arm $i$ stays while
    $\max_j \hat\mu_j^h - \hat\mu_i^h \le 2 c(h)$; the first surviving arm with only $h$
    rewards is pulled (Seznec, Locatelli, Carpentier, Lazaric & Valko 2019, Algorithm 1). Short
    windows see the current values, long ones are needed to separate close arms, and an arm's
    old rewards never mask its decay. Ties are broken by the lowest index, as in the paper.

    Rewards lie in $[0, 1]$ ($\sigma = 1/2$ bounds their sub-Gaussian scale). Each arm keeps
    its last `window` rewards (a ring buffer allocated once, so memory stays flat; the paper
    keeps all of them), so windows longer than that are not considered.

    Parameters
    ----------
    n_arms, window, sigma
        Number of arms; rewards kept per arm; sub-Gaussian scale of the rewards.
    alpha
        Exponent of the confidence $\delta_t = t^{-\alpha}$ (its analysis needs large values; its
        experiments use 0.06, the default: wider windows separate arms too slowly).
    seed
        Seed of the policy's generator (unused: FEWA is deterministic).

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.FEWA(n_arms=2)
    >>> for _ in range(30):
    ...     policy.update_round({0: 0.9, 1: 0.6})
    >>> for _ in range(10):
    ...     policy.update_round({0: 0.2, 1: 0.6})  # arm 0 rots
    >>> policy.select()
    1

    References
    ----------
    Seznec, J., Locatelli, A., Carpentier, A., Lazaric, A. and Valko, M. (2019). Rotting bandits
    are no harder than stochastic ones. AISTATS, PMLR 89, 2564-2572.

    """

    def __init__(
        self,
        n_arms: int = 2,
        alpha: float = 0.06,
        sigma: float = 0.5,
        window: int = 1000,
        seed: int | None = None,
    ):
        super().__init__(n_arms, alpha, sigma, window, seed)

    def _select(self) -> int:
        # deterministic: the filter's choice changes only when the policy learns
        if self._memo is None:
            self._memo = self._filter()
        return self._memo

    def _filter(self) -> int:
        kept = [self._recent.kept(a) for a in range(self.n_arms)]
        arm = _first_unpulled(kept)
        if arm >= 0:
            return arm
        scale = 2.0 * self.sigma**2 * self.alpha * math.log(self._n_rounds + 1)
        filled = np.array(kept)
        depth = int(filled.max())
        averages = np.full((self.n_arms, depth), -np.inf)  # row i: its last-h averages
        for i, n in enumerate(kept):
            newest_first = self._recent.history(i)[::-1]
            averages[i, :n] = np.cumsum(newest_first) / np.arange(1, n + 1)
        widths = 2.0 * np.sqrt(scale / np.arange(1, depth + 1))  # 2 c(h)
        alive = np.ones(self.n_arms, dtype=bool)
        h = 1  # the next window
        while True:
            short = np.flatnonzero(alive & (filled < h))
            if short.size:  # a surviving arm without h rewards: pull it
                return int(short[0])
            # the windows every surviving arm can fill, all at once, up to the first filtering
            last = int(filled[alive].min())
            survivors = np.flatnonzero(alive)
            block = averages[survivors, h - 1 : last]
            out = block.max(axis=0) - block > widths[h - 1 : last]
            hits = np.flatnonzero(out.any(axis=0))
            if not hits.size:
                h = last + 1
                continue
            alive[survivors[out[:, hits[0]]]] = False
            h += int(hits[0]) + 1
