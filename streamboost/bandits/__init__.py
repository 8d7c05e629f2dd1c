"""Multi-armed bandit policies, stationary and non-stationary, with a small simulator.

Every policy has the same interface: `arm = policy.select()`, then
`policy.update(arm, reward)`, or `policy.update_round({arm: reward, ...})` for a round in which
the rewards of arms not pulled were observed too (side observations); `reset()`, `clone()`, and
read-only `n_arms`, `counts`, `means`, `n_rounds`. The class attribute `reward_range` is the
reward interval a policy assumes (`None`: any finite reward). `make(name, n_arms, seed)`
builds a policy from its registry name.

Examples
--------
>>> from streamboost import bandits
>>> policy = bandits.make("discounted-ucb", n_arms=2, seed=0)
>>> result = bandits.simulate(policy, bandits.BernoulliArms((0.4, 0.6)), 1000, seed=0)
>>> policy.counts[1] > policy.counts[0]
True

"""

from __future__ import annotations

import typing

from ..validation import did_you_mean
from .base import Policy
from .baselines import Constant, EveryNth, Random
from .discounted_thompson import DiscountedGaussianThompson, DiscountedThompson
from .discounted_ucb import DiscountedKLUCB, DiscountedUCB, DiscountedUCBImproved
from .environments import (
    BernoulliArms,
    DiminishingReturns,
    Environment,
    PiecewiseBernoulli,
    RisingArms,
)
from .epsilon_greedy import EpsilonGreedy
from .exp3 import Exp3
from .fewa import FEWA
from .glr_kl_ucb import GLRKLUCB
from .kl_ucb import KLUCB
from .rising import RisingUCB
from .simulate import SimulationResult, simulate
from .sliding_window import (
    SlidingWindowKLUCB,
    SlidingWindowThompson,
    SlidingWindowUCB,
    SlidingWindowUCBImproved,
)
from .thompson import BetaThompson, GaussianThompson
from .ucb import UCB1
from .ucb_improved import UCBImproved

__all__ = [
    "FEWA",
    "GLRKLUCB",
    "KLUCB",
    "POLICIES",
    "UCB1",
    "BernoulliArms",
    "BetaThompson",
    "Constant",
    "DiminishingReturns",
    "DiscountedGaussianThompson",
    "DiscountedKLUCB",
    "DiscountedThompson",
    "DiscountedUCB",
    "DiscountedUCBImproved",
    "Environment",
    "EpsilonGreedy",
    "EveryNth",
    "Exp3",
    "GaussianThompson",
    "PiecewiseBernoulli",
    "Policy",
    "Random",
    "RisingArms",
    "RisingUCB",
    "SimulationResult",
    "SlidingWindowKLUCB",
    "SlidingWindowThompson",
    "SlidingWindowUCB",
    "SlidingWindowUCBImproved",
    "UCBImproved",
    "make",
    "simulate",
]

POLICIES: dict[str, type[Policy]] = {
    "ucb1": UCB1,
    "ucb-improved": UCBImproved,
    "kl-ucb": KLUCB,
    "gaussian-thompson": GaussianThompson,
    "beta-thompson": BetaThompson,
    "discounted-ucb": DiscountedUCB,
    "discounted-kl-ucb": DiscountedKLUCB,
    "discounted-ucb-improved": DiscountedUCBImproved,
    "sliding-window-ucb": SlidingWindowUCB,
    "sliding-window-kl-ucb": SlidingWindowKLUCB,
    "sliding-window-ucb-improved": SlidingWindowUCBImproved,
    "sliding-window-thompson": SlidingWindowThompson,
    "glr-kl-ucb": GLRKLUCB,
    "fewa": FEWA,
    "rising-ucb": RisingUCB,
    "discounted-thompson": DiscountedThompson,
    "discounted-gaussian-thompson": DiscountedGaussianThompson,
    "epsilon-greedy": EpsilonGreedy,
    "exp3": Exp3,
    "every-nth": EveryNth,
    "constant": Constant,
    "random": Random,
}


def make(name: str, n_arms: int, seed: int | None = None, **params: typing.Any) -> Policy:
    """Build the policy registered as `name` in `POLICIES`.

    Parameters
    ----------
    name
        Registry name, e.g. "ucb1" or "discounted-thompson".
    n_arms
        Number of arms.
    seed
        Seed of the policy's generator.
    params
        Further parameters of the policy's class.

    Examples
    --------
    >>> from streamboost import bandits
    >>> bandits.make("every-nth", n_arms=2, n=4)
    EveryNth (
      n_arms=2
      n=4
      seed=None
    )
    >>> bandits.make("ucb2", n_arms=2)
    Traceback (most recent call last):
    ...
    ValueError: unknown policy 'ucb2' (did you mean 'ucb1'?); expected one of ['beta-thompson', ...]

    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; expected one of "
                         f"{sorted(POLICIES)}")
    return POLICIES[name](n_arms=n_arms, seed=seed, **params)
