"""Run a policy on a simulated bandit problem and record what happened."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from ..validation import check_int, one_line
from .base import Policy
from .environments import Environment

__all__ = ["SimulationResult", "simulate"]


@dataclasses.dataclass(frozen=True)
class SimulationResult:
    """What a policy did, round by round (index 0 is round 1).

    Attributes
    ----------
    arms
        The arm pulled each round.
    rewards
        The reward received each round.
    regret
        Pseudo-regret of each round: the largest expected reward of that round minus the pulled
        arm's expected reward. For a rested environment this is the gap to the best arm *in the
        current state* (a greedy oracle), not to an optimal schedule.
    optimal
        Whether the pulled arm had the largest expected reward that round.
    n_arms
        Number of arms.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.bandits import SimulationResult
    >>> result = SimulationResult(
    ...     arms=np.array([0, 1, 1, 1]), rewards=np.array([0.0, 1.0, 0.0, 1.0]),
    ...     regret=np.array([0.2, 0.0, 0.0, 0.0]), optimal=np.array([False, True, True, True]),
    ...     n_arms=3,
    ... )
    >>> result.counts, result.cumulative_regret
    (array([1, 3, 0]), array([0.2, 0.2, 0.2, 0.2]))
    >>> result.share(1), result.share(1, start=2, stop=3)  # rounds 1..4, then rounds 2..3
    (0.75, 1.0)

    """

    arms: np.ndarray
    rewards: np.ndarray
    regret: np.ndarray
    optimal: np.ndarray
    n_arms: int

    @property
    def cumulative_regret(self) -> np.ndarray:
        """Regret summed over rounds 1..t, for each t."""
        return np.cumsum(self.regret)

    @property
    def counts(self) -> np.ndarray:
        """Number of pulls of each arm."""
        return np.bincount(self.arms, minlength=self.n_arms)

    def share(self, arm: int, start: int = 1, stop: int | None = None) -> float:
        """Fraction of rounds `start..stop` (from 1, inclusive) in which `arm` was pulled."""
        return float(np.mean(self.arms[start - 1 : stop] == arm))


def simulate(
    policy: Policy, environment: Environment, n_rounds: int, seed: int | None = None
) -> SimulationResult:
    """Play `n_rounds` rounds of `policy` against `environment`.

    The environment is reset first and draws its rewards from a generator derived from `seed`
    (never the same stream as a policy's `random.Random(seed)`, so both may share a seed); the
    policy keeps its own generator and learns in place (pass `policy.clone()` to keep the
    original, or call `policy.reset()` between runs), so its final state can be inspected.

    Parameters
    ----------
    policy
        The policy; its `n_arms` must match the environment's.
    environment
        The simulated problem.
    n_rounds
        Number of rounds.
    seed
        Seed of the rewards' generator.

    Examples
    --------
    >>> from streamboost import bandits
    >>> result = bandits.simulate(
    ...     bandits.UCB1(n_arms=2, seed=0), bandits.BernoulliArms((0.4, 0.6)), 2000, seed=1
    ... )
    >>> result.share(arm=1) > 0.8, bool(result.cumulative_regret[-1] < 80)
    (True, True)

    """
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a streamboost.bandits Policy, got {one_line(policy)}")
    if not isinstance(environment, Environment):
        raise TypeError(f"environment must be a bandits Environment, got {environment!r}")
    check_int("n_rounds", n_rounds, 0)
    if policy.n_arms != environment.n_arms:
        raise ValueError(
            f"the policy has {policy.n_arms} arms but the environment has {environment.n_arms}"
        )
    # A policy seeded with the same number owns random.Random(seed); drawing the rewards from
    # that very stream would correlate them with the policy's own draws (for Exp3, a pull of
    # arm 0 would then mostly pay 1). The string seed gives an unrelated, reproducible stream.
    rng = random.Random(None if seed is None else f"streamboost.bandits.simulate:{seed}")
    environment.reset()
    arms = np.empty(n_rounds, dtype=np.int64)
    rewards = np.empty(n_rounds)
    regret = np.empty(n_rounds)
    optimal = np.empty(n_rounds, dtype=bool)
    expected_rewards, pull = environment.expected_rewards, environment.pull
    select, update = policy.select, policy.update
    for i in range(n_rounds):
        t = i + 1
        expected = expected_rewards(t)
        best = max(expected)
        arm = select()
        reward = pull(arm, t, rng)
        update(arm, reward)
        arms[i] = arm
        rewards[i] = reward
        regret[i] = best - expected[arm]
        optimal[i] = expected[arm] == best
    return SimulationResult(
        arms=arms, rewards=rewards, regret=regret, optimal=optimal, n_arms=environment.n_arms
    )
