"""`Policy.update_round`: rounds with side observations (Mannor & Shamir 2011)."""

from __future__ import annotations

import collections.abc
import math
import pickle

import numpy as np
import pytest

from streamboost import bandits
from tests.test_bandits import same_floats

NAMES = sorted(bandits.POLICIES)
SIDE = [n for n in NAMES if bandits.POLICIES[n].side_observations]
# Policies without a clock: a round of several arms leaves the same estimates as separate updates.
CLOCKED = {"discounted-ucb", "discounted-thompson", "discounted-gaussian-thompson",
           "sliding-window-ucb", "ucb-improved", "discounted-kl-ucb", "sliding-window-kl-ucb",
           "sliding-window-thompson", "discounted-ucb-improved",
           "sliding-window-ucb-improved"}  # fmt: skip
PLAIN = [n for n in SIDE if n not in CLOCKED]


class Pairs(collections.abc.Mapping):
    """A mapping that may name an arm twice, e.g. as 1 and numpy.int64(1)."""

    def __init__(self, pairs):
        self.pairs = pairs

    def __getitem__(self, key):
        return next(r for a, r in self.pairs if a is key)

    def __iter__(self):
        return iter(a for a, _ in self.pairs)

    def __len__(self):
        return len(self.pairs)


def state(policy):
    return pickle.dumps(vars(policy))


def test_only_exp3_refuses_side_observations():
    assert set(NAMES) - set(SIDE) == {"exp3"}


@pytest.mark.parametrize("name", SIDE)
def test_a_round_counts_every_observed_arm_and_one_round(name):
    policy = bandits.make(name, n_arms=3, seed=0)
    policy.update_round({0: 0.75, 1: 0.25})
    policy.update_round({np.int64(1): 1.0})
    assert policy.counts == (1, 2, 0) and policy.n_rounds == 2
    if name in PLAIN:
        twin = bandits.make(name, n_arms=3, seed=0)
        for arm, reward in [(0, 0.75), (1, 0.25), (1, 1.0)]:
            twin.update(arm, reward)
        assert twin.counts == policy.counts and twin.n_rounds == 3
        assert same_floats(policy.means, twin.means)


def test_discounted_ucb_discounts_once_per_round():
    policy = bandits.DiscountedUCB(n_arms=2, gamma=0.5)
    policy.update_round({0: 1.0, 1: 0.0})
    policy.update_round({0: 1.0})
    assert policy.discounted_counts == (1.5, 0.5) and policy.means == (1.0, 0.0)
    twin = bandits.DiscountedUCB(n_arms=2, gamma=0.5)
    for arm, reward in [(0, 1.0), (1, 0.0), (0, 1.0)]:
        twin.update(arm, reward)
    assert twin.discounted_counts == (1.25, 0.5)


@pytest.mark.parametrize("cls", [bandits.DiscountedThompson, bandits.DiscountedGaussianThompson])
def test_discounted_thompson_discounts_once_per_round(cls):
    policy = cls(n_arms=2, gamma=0.5, seed=0)
    policy.update_round({0: 1.0, 1: 0.25})
    assert policy.discounted_counts == (1.0, 1.0)
    policy.update_round({1: 0.5})
    assert policy.discounted_counts == (0.5, 1.5)
    twin = cls(n_arms=2, gamma=0.5, seed=0)
    twin.update(0, 1.0)
    twin.update(1, 0.25)
    assert twin.discounted_counts == (0.5, 1.0)


def test_sliding_window_holds_whole_rounds():
    policy = bandits.SlidingWindowUCB(n_arms=3, window=2)
    policy.update_round({0: 1.0, 1: 0.0})
    policy.update_round({1: 1.0})
    assert policy.window_counts == (1, 2, 0) and policy.means[:2] == (1.0, 0.5)
    policy.update_round({2: 0.5})  # the whole first round leaves the window
    assert policy.window_counts == (0, 1, 1) and same_floats(policy.means, (math.nan, 1.0, 0.5))
    assert policy.counts == (1, 2, 1) and policy.n_rounds == 3


def test_ucb_improved_counts_a_round_once_towards_its_epoch():
    policy = bandits.UCBImproved(n_arms=2, horizon=2)
    policy.update_round({0: 1.0, 1: 0.0})
    assert policy.epoch == 0 and policy.means == (1.0, 0.0)
    policy.update_round({0: 1.0})  # the epoch of 2 rounds ends: restart
    assert policy.epoch == 1 and same_floats(policy.means, (math.nan, math.nan))


def test_exp3_accepts_one_arm_per_round_only():
    policy, twin = bandits.Exp3(n_arms=3, seed=0), bandits.Exp3(n_arms=3, seed=0)
    policy.update_round({1: 1.0})
    twin.update(1, 1.0)
    assert policy.probabilities == twin.probabilities and policy.n_rounds == 1
    before = state(policy)
    with pytest.raises(ValueError, match=r"Exp3.*arms \[2, 0\]"):
        policy.update_round({2: 0.5, 0: 0.5})
    assert state(policy) == before


BAD = [{}, None, [(0, 0.5)], {3: 0.5}, {-1: 0.5}, {True: 0.5}, {"0": 0.5}, {1.0: 0.5},
       {0: math.nan}, {0: math.inf}, {0: "0.5"}, {0: 0.5, 3: 0.5}, {0: 0.5, 1: -math.inf},
       Pairs([(1, 0.5), (np.int64(1), 0.5)]), "out-of-range"]  # fmt: skip
CASES = [
    pytest.param(name, bad, id=f"{name}-{i}")
    for name in NAMES
    for i, bad in enumerate(BAD)
    # a reward outside the range means nothing to the policies that accept any finite reward
    if bad != "out-of-range" or bandits.POLICIES[name].reward_range is not None
]
# Mixed key types: Exp3's multi-arm message must not sort them (a TypeError, not ValueError).
CASES += [pytest.param(name, {0: 0.5, "x": 0.5}, id=f"{name}-mixed-keys") for name in NAMES]


@pytest.mark.parametrize(("name", "bad"), CASES)
def test_invalid_rounds_raise_before_any_state_change(name, bad):
    policy = bandits.make(name, n_arms=3, seed=0)
    if bad == "out-of-range":
        bad = {0: 0.5, 1: policy.reward_range[1] + 0.5}
    policy.update_round({0: 1.0})
    policy.update_round({1: 0.0})
    before = state(policy)
    with pytest.raises(ValueError):
        policy.update_round(bad)
    assert state(policy) == before and policy.n_rounds == 2


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_pulls(name):
    def run():
        policy = bandits.make(name, n_arms=3, seed=7)
        arms = []
        for t in range(60):
            arms.append(policy.select())
            other = (arms[-1] + 1) % 3
            rewards = {arms[-1]: (t % 5) / 4, other: (t % 3) / 2}
            policy.update_round(rewards if policy.side_observations else {arms[-1]: 0.5})
        return arms, state(policy)

    assert run() == run()


@pytest.mark.parametrize("name", SIDE)
def test_a_plain_round_learns_what_the_checked_round_learns(name):
    # update_round takes a dict of int arms and float rewards within range as it is (the
    # controller's every round); numpy numbers or another mapping are checked and converted one
    # by one: both must leave the same state, and the plain path still refuses what is not
    plain, checked = (bandits.make(name, n_arms=3, seed=2) for _ in range(2))
    high = plain.reward_range[1] if plain.reward_range else 1.0
    for t in range(40):
        rewards = {t % 3: high * (t % 7) / 6, (t + 1) % 3: high * (t % 4) / 3}
        plain.update_round(rewards)
        checked.update_round(Pairs([(np.int64(a), np.float64(r)) for a, r in rewards.items()]))
        assert state(plain) == state(checked)
        assert plain.select() == checked.select()
    before = state(plain)
    for bad in ({0: math.nan}, {3: 0.5}, {-1: 0.5}, {0: math.inf}):
        with pytest.raises(ValueError):
            plain.update_round(bad)
    assert state(plain) == before
