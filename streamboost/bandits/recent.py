"""Each arm's most recent rewards, in fixed memory: what the change-aware policies look at."""

from __future__ import annotations

import numpy as np

from ..validation import check_int
from .base import Policy, _check_positive

__all__ = ["RecentRewards", "RecentRewardsPolicy"]


class RecentRewards:
    """The last `window` rewards of each of `n_arms` arms, a ring buffer allocated once.

    `count(arm)` is the number of rewards appended since the arm was last cleared (it may exceed
    `window`; only the last `window` are kept), and `history(arm)` returns those kept, oldest
    first. Memory does not grow with the stream, so a policy's pickle stays the same size.

    Examples
    --------
    >>> from streamboost.bandits.recent import RecentRewards
    >>> recent = RecentRewards(n_arms=2, window=3)
    >>> for reward in (0.1, 0.2, 0.3, 0.4):
    ...     recent.append(0, reward)
    >>> recent.count(0), recent.history(0).tolist(), recent.history(1).tolist()
    (4, [0.2, 0.3, 0.4], [])
    >>> recent.clear(0)
    >>> recent.count(0), recent.history(0).tolist()
    (0, [])

    """

    def __init__(self, n_arms: int, window: int):
        self.window = window
        self._ring = np.zeros((n_arms, window))
        self._count = [0] * n_arms

    def append(self, arm: int, reward: float) -> None:
        self._ring[arm, self._count[arm] % self.window] = reward
        self._count[arm] += 1

    def clear(self, arm: int) -> None:
        self._count[arm] = 0

    def count(self, arm: int) -> int:
        return self._count[arm]

    def kept(self, arm: int) -> int:
        """How many of the arm's rewards are held: `min(count, window)`."""
        return min(self._count[arm], self.window)

    def history(self, arm: int) -> np.ndarray:
        """The arm's kept rewards, oldest first."""
        ring, n = self._ring[arm], self._count[arm]
        if n <= self.window:
            return ring[:n]
        start = n % self.window  # the oldest entry
        return np.concatenate((ring[start:], ring[:start]))


class RecentRewardsPolicy(Policy):
    """A policy that judges each arm by its last `window` rewards (`self._recent`), with a
    confidence exponent `alpha` and a sub-Gaussian scale `sigma`: FEWA and R-ed-UCB."""

    def __init__(
        self, n_arms: int, alpha: float, sigma: float, window: int, seed: int | None,
        min_window: int = 1,
    ):  # fmt: skip
        _check_positive("alpha", alpha)
        _check_positive("sigma", sigma)
        self.window = check_int("window", window, min_window)
        self.alpha = alpha
        self.sigma = sigma
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._recent = RecentRewards(self.n_arms, self.window)

    def _update(self, arm: int, reward: float) -> None:
        self._recent.append(arm, reward)
