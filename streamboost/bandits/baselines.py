"""Baseline policies that ignore rewards: every n-th, constant, uniformly random."""

from __future__ import annotations

from ..validation import check_int
from .base import Policy

__all__ = ["Constant", "EveryNth", "Random"]


class EveryNth(Policy):
    r"""Pull arm 1 on every $n$-th round and arm 0 on all others.

    Rounds are counted from 1 as arms are selected: selections $n, 2n, 3n, \dots$ pull arm 1.
    The schedule counts selections, not updates, so it holds when rewards arrive late (the
    controller rewards a minibatch's action one minibatch later). In the controller this is
    "calibrate every $n$-th minibatch, train otherwise". Rewards are ignored (any finite reward
    is accepted).

    Parameters
    ----------
    n_arms
        Number of arms (at least 2; arms above 1 are never pulled).
    n
        Period $n \ge 1$ ($n = 1$ pulls arm 1 every round).
    seed
        Unused (no randomness); kept for the common interface.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.EveryNth(n_arms=2, n=3)
    >>> arms = []
    >>> for _ in range(7):
    ...     arms.append(policy.select())
    ...     policy.update(arms[-1], 0.0)
    >>> arms
    [0, 0, 1, 0, 0, 1, 0]

    """

    reward_range = None
    uses_rewards = False

    def __init__(self, n_arms: int = 2, n: int = 2, seed: int | None = None):
        check_int("n_arms", n_arms, 2)
        self.n = check_int("n", n, 1)
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._n_selected = 0

    def _select(self) -> int:
        self._n_selected += 1
        return 1 if self._n_selected % self.n == 0 else 0


class Constant(Policy):
    """Always pull the same arm. Rewards are ignored (any finite reward is accepted).

    Parameters
    ----------
    n_arms
        Number of arms.
    arm
        The arm to pull, in `0 .. n_arms - 1`.
    seed
        Unused (no randomness); kept for the common interface.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.Constant(n_arms=3, arm=2)
    >>> policy.select()
    2

    """

    reward_range = None
    uses_rewards = False

    def __init__(self, n_arms: int = 2, arm: int = 0, seed: int | None = None):
        n_arms = check_int("n_arms", n_arms, 1)
        arm = check_int("arm", arm, 0)
        if arm >= n_arms:
            raise ValueError(f"arm must be in [0, {n_arms - 1}] for n_arms={n_arms}, got {arm!r}")
        self.arm = arm
        super().__init__(n_arms=n_arms, seed=seed)

    def _select(self) -> int:
        return self.arm


class Random(Policy):
    """Pull an arm drawn uniformly at random. Rewards are ignored (any finite reward accepted).

    Parameters
    ----------
    n_arms
        Number of arms.
    seed
        Seed of the generator used for the draws.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.Random(n_arms=2, seed=0)
    >>> arms = [policy.select() for _ in range(1000)]
    >>> 400 < sum(arms) < 600
    True

    """

    reward_range = None
    uses_rewards = False

    def _select(self) -> int:
        return self._rng.randrange(self.n_arms)
