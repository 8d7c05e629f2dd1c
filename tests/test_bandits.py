"""Unit tests of streamboost.bandits: interface, validation, seeding, memory, formulas."""

from __future__ import annotations

import math
import pickle
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamboost import bandits
from streamboost.bandits.kl_ucb import bernoulli_kl, kl_upper_bound

NAMES = sorted(bandits.POLICIES)


def same_floats(a, b):
    """Equal to the last bit, nan equal to nan."""
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b, strict=True))


def _feed(policy, pairs):
    for arm, reward in pairs:
        policy.update(arm, reward)
    return policy


def _run(policy, n_rounds, seed=0):
    rng = random.Random(seed + 1000)
    arms = []
    for _ in range(n_rounds):
        arm = policy.select()
        arms.append(arm)
        policy.update(arm, float(rng.random() < (0.4, 0.6, 0.5)[arm]))
    return arms


# ---------------------------------------------------------------------- interface


def test_registry_names_match_the_api():
    assert set(bandits.POLICIES) == {
        "ucb1", "ucb-improved", "kl-ucb", "gaussian-thompson", "beta-thompson",
        "discounted-ucb", "sliding-window-ucb", "discounted-thompson",
        "discounted-gaussian-thompson", "epsilon-greedy", "exp3", "every-nth", "constant",
        "random", "glr-kl-ucb", "fewa", "rising-ucb", "discounted-kl-ucb",
        "sliding-window-kl-ucb", "sliding-window-thompson", "discounted-ucb-improved",
        "sliding-window-ucb-improved",
    }  # fmt: skip
    for name, cls in bandits.POLICIES.items():
        policy = bandits.make(name, n_arms=3, seed=1)
        assert type(policy) is cls and policy.n_arms == 3 and policy.seed == 1


def test_make_rejects_unknown_names_listing_valid_ones():
    with pytest.raises(ValueError, match=r"'ucb2'.*'beta-thompson'.*'ucb1'"):
        bandits.make("ucb2", n_arms=2)


def test_make_passes_parameters():
    assert bandits.make("constant", n_arms=3, arm=2).select() == 2
    assert bandits.make("discounted-ucb", n_arms=2, gamma=0.9).gamma == 0.9


def test_reward_ranges():
    bounded = {"ucb1", "ucb-improved", "kl-ucb", "beta-thompson", "discounted-ucb",
               "sliding-window-ucb", "discounted-thompson", "exp3", "glr-kl-ucb",
               "fewa", "rising-ucb", "discounted-kl-ucb", "sliding-window-kl-ucb",
               "sliding-window-thompson", "discounted-ucb-improved",
               "sliding-window-ucb-improved"}  # fmt: skip
    for name, cls in bandits.POLICIES.items():
        assert cls.reward_range == ((0.0, 1.0) if name in bounded else None), name


@pytest.mark.parametrize("name", NAMES)
def test_read_only_state(name):
    policy = bandits.make(name, n_arms=2, seed=0)
    _run(policy, 50)
    assert policy.n_rounds == 50 and sum(policy.counts) == 50
    assert len(policy.means) == 2
    for attribute in ("counts", "means", "n_rounds"):
        with pytest.raises(AttributeError):
            setattr(policy, attribute, 0)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_pulls_and_reset_and_clone_replay(name):
    a, b = bandits.make(name, n_arms=3, seed=7), bandits.make(name, n_arms=3, seed=7)
    first = _run(a, 400)
    assert first == _run(b, 400)
    a.reset()
    assert a.n_rounds == 0 and a.counts == (0, 0, 0)
    assert _run(a, 400) == first
    assert _run(b.clone(), 400) == first


@pytest.mark.parametrize("name", NAMES)
def test_selecting_again_before_an_update_matches_an_index_computed_afresh(name):
    # A controller measuring one minibatch in `reward_every` selects several times per update:
    # what a policy keeps of its index between updates must give the pulls, and the tie-break
    # draws, of an index computed afresh at every select (0/1 rewards make ties common).
    kept, fresh = bandits.make(name, n_arms=3, seed=3), bandits.make(name, n_arms=3, seed=3)
    rng = random.Random(5)
    for round_ in range(300):
        for _ in range(1 + round_ % 4):
            fresh._memo = None
            arm = kept.select()
            assert arm == fresh.select(), round_
        rewards = {a: float(rng.random() < (0.3, 0.6, 0.5)[a]) for a in range(3)}
        for policy in (kept, fresh):
            if policy.side_observations and round_ % 3:
                policy.update_round(rewards)
            else:
                policy.update(arm, rewards[arm])
    kept.reset()
    fresh = bandits.make(name, n_arms=3, seed=3)
    assert [kept.select() for _ in range(3)] == [fresh.select() for _ in range(3)]


@pytest.mark.parametrize("name", ["discounted-ucb", "fewa", "kl-ucb"])
def test_a_pickle_keeps_no_index_and_the_copy_selects_alike(name):
    policy = bandits.make(name, n_arms=3, seed=2)
    _run(policy, 50)
    policy.select()
    assert policy._memo is not None
    copy = pickle.loads(pickle.dumps(policy))
    assert copy._memo is None and policy._memo is not None
    assert _run(copy, 100, seed=4) == _run(policy, 100, seed=4)


def test_an_index_is_computed_once_per_update():
    computed = []

    class Counted(bandits.DiscountedUCB):
        @property
        def upper_bounds(self):
            computed.append(self.n_rounds)
            return super().upper_bounds

    policy = _feed(Counted(n_arms=2, seed=0), [(0, 0.2), (1, 0.7)])
    for _ in range(5):
        assert policy.select() == 1
    policy.update(1, 0.0)
    policy.select(), policy.select()
    assert computed == [2, 3]


@pytest.mark.parametrize("name", ["ucb1", "beta-thompson", "exp3", "discounted-thompson", "random"])
def test_different_seeds_differ(name):
    runs = {tuple(_run(bandits.make(name, n_arms=2, seed=s), 300)) for s in range(4)}
    assert len(runs) > 1


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("arm", "reward", "message"),
    [
        (2, 0.5, "arm must be an int in \\[0, 1\\], got 2"),
        (-1, 0.5, "got -1"),
        (1.0, 0.5, "got 1.0 \\(float\\)"),
        (True, 0.5, "got True"),
        ("0", 0.5, "got '0'"),
        (0, math.nan, "reward must be .*got nan"),
        (0, math.inf, "reward must be .*got inf"),
        (0, "1", "reward must be a real number, got '1'"),
    ],
)
def test_bad_input_raises_before_any_change(name, arm, reward, message):
    policy = bandits.make(name, n_arms=2, seed=3)
    _run(policy, 20)
    twin = pickle.loads(pickle.dumps(policy))
    with pytest.raises(ValueError, match=message):
        policy.update(arm, reward)
    assert policy.counts == twin.counts and policy.n_rounds == twin.n_rounds
    assert _run(policy, 50) == _run(twin, 50)  # generator and statistics untouched


@pytest.mark.parametrize("name", [n for n, c in bandits.POLICIES.items() if c.reward_range])
@pytest.mark.parametrize("reward", [-0.01, 1.5])
def test_bounded_policies_reject_rewards_outside_range(name, reward):
    policy = bandits.make(name, n_arms=2, seed=0)
    with pytest.raises(ValueError, match=f"reward must be in \\[0.0, 1.0\\].*got {reward}"):
        policy.update(0, reward)
    assert policy.n_rounds == 0


def test_unbounded_policies_accept_any_finite_reward():
    for name in ("gaussian-thompson", "epsilon-greedy", "constant"):
        policy = bandits.make(name, n_arms=2, seed=0)
        policy.update(1, -250.0)
        policy.update(0, 1e6)
        assert policy.n_rounds == 2


def test_numpy_scalars_are_accepted():
    np = pytest.importorskip("numpy")
    policy = bandits.UCB1(n_arms=2)
    policy.update(np.int64(1), np.float32(0.5))
    assert policy.counts == (0, 1) and policy.means[1] == 0.5


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: bandits.UCB1(n_arms=0), "n_arms must be an int >= 1, got 0"),
        (lambda: bandits.DiscountedUCB(gamma=1.0), "gamma must be a number in \\(0, 1\\)"),
        (lambda: bandits.DiscountedThompson(gamma=0.0), "gamma must be a number in \\(0, 1\\]"),
        (lambda: bandits.SlidingWindowUCB(window=0), "window must be an int >= 1, got 0"),
        (lambda: bandits.UCBImproved(horizon=0), "horizon must be an int >= 1, got 0"),
        (lambda: bandits.SlidingWindowUCBImproved(window=0), "window must be an int >= 1, got 0"),
        (lambda: bandits.DiscountedUCBImproved(gamma=1.0), "gamma must be a number in \\(0, 1\\)"),
        (lambda: bandits.KLUCB(c=-1), "c must be a finite number >= 0, got -1"),
        (lambda: bandits.DiscountedKLUCB(gamma=1.0), "gamma must be a number in \\(0, 1\\)"),
        (lambda: bandits.DiscountedKLUCB(c=math.nan), "c must be a finite number >= 0, got nan"),
        (lambda: bandits.SlidingWindowKLUCB(window=0), "window must be an int >= 1, got 0"),
        (lambda: bandits.SlidingWindowKLUCB(c=True), "c must be a finite number >= 0, got True"),
        (lambda: bandits.SlidingWindowThompson(window=2.0), "window must be an int >= 1"),
        (lambda: bandits.SlidingWindowThompson(prior_beta=0), "prior_beta must be"),
        (lambda: bandits.GaussianThompson(noise_std=0), "noise_std must be a finite number > 0"),
        (lambda: bandits.EpsilonGreedy(epsilon=0), "epsilon must be a number in \\(0, 1\\]"),
        (lambda: bandits.Exp3(gamma=2), "gamma must be a number in \\(0, 1\\]"),
        (lambda: bandits.EveryNth(n_arms=1), "n_arms must be an int >= 2, got 1"),
        (lambda: bandits.EveryNth(n=0), "n must be an int >= 1, got 0"),
        (lambda: bandits.Constant(n_arms=2, arm=2), "arm must be in \\[0, 1\\] .*got 2"),
        (lambda: bandits.RisingUCB(epsilon=0.6), "epsilon must be a number in \\(0, 0.5\\]"),
        (lambda: bandits.RisingUCB(window=1), "window must be an int >= 2, got 1"),
    ],
)
def test_bad_parameters(factory, message):
    with pytest.raises(ValueError, match=message):
        factory()


def test_a_seed_that_is_no_integer_is_a_type_error_and_a_numpy_one_an_int():
    """A seed is an int or None (a TypeError otherwise, as Python's random.Random raises, since
    0.8.49; a ValueError before); numpy's integers are ints, kept as Python's (random.Random
    refuses numpy's), so the same seed gives the same policy either way."""
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"^seed must be an int or None, got 1\.5$"):
        bandits.UCB1(n_arms=2, seed=1.5)
    numpy_seeded = bandits.DiscountedThompson(n_arms=np.int64(3), seed=np.int64(7))
    assert type(numpy_seeded.seed) is int and type(numpy_seeded.n_arms) is int
    seeded = bandits.DiscountedThompson(n_arms=3, seed=7)
    picks = []
    for policy in (numpy_seeded, seeded):
        arms = []
        for t in range(50):
            arms.append(policy.select())
            policy.update(arms[-1], (t % 3) / 2)
        picks.append(arms)
    assert picks[0] == picks[1]


@pytest.mark.parametrize("name", NAMES)
def test_memory_does_not_grow_with_the_stream(name):
    policy = bandits.make(name, n_arms=2, seed=0)
    _run(policy, 2_000)
    small = len(pickle.dumps(policy))
    _run(policy, 20_000, seed=1)
    assert len(pickle.dumps(policy)) <= small + 64


def test_ties_are_broken_at_random_with_the_policy_generator():
    # Two arms with identical statistics: the choice must vary with the seed, not always be 0.
    firsts = set()
    for seed in range(20):
        policy = _feed(bandits.UCB1(n_arms=2, seed=seed), [(0, 0.5), (1, 0.5)])
        firsts.add(policy.select())
    assert firsts == {0, 1}


@pytest.mark.parametrize(
    "name", ["ucb1", "kl-ucb", "discounted-ucb", "sliding-window-ucb", "rising-ucb",
             "discounted-kl-ucb", "sliding-window-kl-ucb"]
)
def test_index_policies_pull_unpulled_arms_first_lowest_index_first(name):
    policy = bandits.make(name, n_arms=3, seed=0)
    order = []
    for _ in range(3):
        order.append(policy.select())
        policy.update(order[-1], 1.0)
    assert order == [0, 1, 2]
    policy = _feed(bandits.make(name, n_arms=3, seed=0), [(1, 1.0)])
    assert policy.select() == 0


# ---------------------------------------------------------------------- formulas


def _ucb1_state():
    # Arm 0: 10 pulls averaging 0.8; arm 1: 2 pulls averaging 0.05; n = 12.
    return [(0, 1.0)] * 8 + [(0, 0.0)] * 2 + [(1, 0.1), (1, 0.0)]


def test_ucb1_index_by_hand():
    policy = _feed(bandits.UCB1(n_arms=2, seed=0), _ucb1_state())
    bounds = policy.upper_bounds
    assert bounds[0] == pytest.approx(0.8 + math.sqrt(2 * math.log(12) / 10))  # 1.5049
    assert bounds[1] == pytest.approx(0.05 + math.sqrt(2 * math.log(12) / 2))  # 1.6264
    # Without the factor 2 (sqrt(ln n / n_j)) arm 0 would win: the state tells them apart.
    assert policy.select() == 1


def _bisect_kl(p, level):
    lo, hi = p, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if mid < 1 and bernoulli_kl(p, mid) <= level:
            lo = mid
        else:
            hi = mid
    return lo


@pytest.mark.parametrize("p", [0.0, 1e-6, 0.05, 0.5, 0.93, 1 - 1e-9, 1.0])
@pytest.mark.parametrize("level", [1e-6, 0.01, 0.3, 2.0, 30.0])
def test_kl_upper_bound_matches_bisection(p, level):
    assert kl_upper_bound(p, level) == pytest.approx(_bisect_kl(p, level), abs=1e-7)


def test_kl_ucb_index_by_hand():
    policy = _feed(bandits.KLUCB(n_arms=2, seed=0), _ucb1_state())
    level = math.log(12)
    expected = (_bisect_kl(0.8, level / 10), _bisect_kl(0.05, level / 2))
    assert policy.upper_bounds == pytest.approx(expected, abs=1e-7)
    assert policy.select() == (0 if expected[0] > expected[1] else 1)
    with_c = _feed(bandits.KLUCB(n_arms=2, c=3.0), _ucb1_state())
    level_c = level + 3 * math.log(level)
    assert with_c.upper_bounds[0] == pytest.approx(_bisect_kl(0.8, level_c / 10), abs=1e-7)
    # ln ln t is used once it is positive (t >= 3): at t = 2, c changes nothing
    early = [bandits.KLUCB(n_arms=2, c=c) for c in (0.0, 3.0)]
    for policy in early:
        policy.update(0, 0.8)
        policy.update(1, 0.3)
    assert early[0].upper_bounds == early[1].upper_bounds


def test_discounted_kl_ucb_by_hand():
    pairs = [(0, 1.0), (0, 1.0), (0, 0.0), (1, 0.5)]
    policy = _feed(bandits.DiscountedKLUCB(n_arms=2, gamma=0.9, seed=0), pairs)
    n0, s0 = 0.9**3 + 0.9**2 + 0.9, 0.9**3 + 0.9**2  # as in the D-UCB test
    assert policy.discounted_counts == pytest.approx((n0, 1.0))
    level = math.log(n0 + 1.0)  # ln n_t(gamma), not ln t = ln 4
    expected = (_bisect_kl(s0 / n0, level / n0), _bisect_kl(0.5, level))
    assert policy.upper_bounds == pytest.approx(expected, abs=1e-7)
    assert policy.select() == (0 if expected[0] > expected[1] else 1)
    with_c = _feed(bandits.DiscountedKLUCB(n_arms=2, gamma=0.9, c=3.0), pairs)
    level_c = level + 3 * math.log(level)  # n_t(gamma) = 3.44 > e: the ln ln term counts
    assert with_c.upper_bounds[1] == pytest.approx(_bisect_kl(0.5, level_c), abs=1e-7)


def test_kl_ucb_windowed_or_barely_discounted_is_kl_ucb():
    # A window longer than the run keeps every pull: SW-KL-UCB is KL-UCB, pull for pull.
    kl = bandits.KLUCB(n_arms=3, c=1.0, seed=4)
    window = bandits.SlidingWindowKLUCB(n_arms=3, window=2000, c=1.0, seed=4)
    assert _run(window, 1500) == _run(kl, 1500)
    assert window.upper_bounds == kl.upper_bounds
    # A discount of 1 - 1e-12 keeps the counts, and n_t(gamma) = t, to about 1e-9 (fed the
    # same pulls: exact ties, which KL-UCB breaks at random, are near-ties once discounted).
    rng = random.Random(7)
    pairs = [(a, float(rng.random() < 0.5)) for a in rng.choices(range(3), k=1500)]
    reference = _feed(bandits.KLUCB(n_arms=3, c=1.0), pairs)
    discounted = _feed(bandits.DiscountedKLUCB(n_arms=3, gamma=1 - 1e-12, c=1.0), pairs)
    assert discounted.upper_bounds == pytest.approx(reference.upper_bounds, abs=1e-8)


@pytest.mark.parametrize(
    ("ucb", "kl"), [("discounted-ucb", "discounted-kl-ucb"),
                    ("sliding-window-ucb", "sliding-window-kl-ucb")]
)
def test_kl_index_chooses_what_ucb_chooses_when_every_arm_is_observed(ucb, kl):
    # Rounds that observe every arm (the controller's counterfactual rounds) give every arm the
    # same count, and both indices grow with the mean at a common count: the same arm every
    # round (simulations/forgetting_policies.md). With bandit feedback the counts differ, and
    # so do the choices.
    rng = random.Random(3)
    rounds = [{a: rng.random() * (0.4, 0.5, 0.45)[a] / 0.5 for a in range(3)} for _ in range(800)]
    pairs = [make(n_arms=3, gamma=0.99) if "discounted" in ucb else make(n_arms=3, window=100)
             for make in (bandits.POLICIES[ucb], bandits.POLICIES[kl])]  # fmt: skip
    full = [[], []]
    for rewards in rounds:
        for policy, chosen in zip(pairs, full, strict=True):
            chosen.append(policy.select())
            policy.update_round(rewards)
    assert full[0] == full[1] and len(set(full[0])) > 1
    pairs = [bandits.make(name, n_arms=3, seed=0) for name in (ucb, kl)]
    assert _run(pairs[0], 800) != _run(pairs[1], 800)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.dictionaries(st.integers(0, 2), st.floats(0.0, 1.0), min_size=1), max_size=40),
    st.integers(1, 8),
    st.floats(0.5, 0.99),
)
def test_windowed_and_discounted_statistics_are_their_definitions(rounds, window, gamma):
    # Any rounds, with any side observations: the running statistics are the sums over the
    # last `window` rounds, or discounted by gamma^(t - s), and each KL index lies in
    # [mean, 1] (optimism).
    windowed = bandits.SlidingWindowKLUCB(n_arms=3, window=window)
    discounted = bandits.DiscountedKLUCB(n_arms=3, gamma=gamma)
    # UCB-Improved's forgetting variants: the same statistics, whatever their epochs (short
    # here: `window` or round(1 / (1 - gamma)) rounds) and eliminations, never cleared
    improved = (bandits.SlidingWindowUCBImproved(n_arms=3, window=window),
                bandits.DiscountedUCBImproved(n_arms=3, gamma=gamma))
    for rewards in rounds:
        for policy in (windowed, discounted, *improved):
            policy.update_round(rewards)
    assert improved[0].window_counts == windowed.window_counts
    assert improved[1].discounted_counts == discounted.discounted_counts
    for policy, sibling in zip(improved, (windowed, discounted), strict=True):
        assert same_floats(policy.means, sibling.means)
    t = len(rounds)
    for arm in range(3):
        kept = [r[arm] for r in rounds[-window:] if arm in r]
        assert windowed.window_counts[arm] == len(kept)
        weights = [gamma ** (t - 1 - s) for s, r in enumerate(rounds) if arm in r]
        weighted = sum(w * r[arm] for w, r in zip(weights, (r for r in rounds if arm in r),
                                                   strict=True))  # fmt: skip
        assert discounted.discounted_counts[arm] == pytest.approx(sum(weights), abs=1e-12)
        for policy, n, total in ((windowed, len(kept), sum(kept)),
                                 (discounted, sum(weights), weighted)):  # fmt: skip
            if n:
                mean = policy.means[arm]
                assert mean == pytest.approx(total / n, abs=1e-9)
                assert mean - 1e-9 <= policy.upper_bounds[arm] <= 1.0
            else:
                assert math.isnan(policy.means[arm]) and policy.upper_bounds[arm] == math.inf


def test_sliding_window_kl_ucb_forgets_what_leaves_the_window():
    policy = _feed(bandits.SlidingWindowKLUCB(n_arms=2, window=4, seed=0),
                   [(0, 1.0), (1, 0.0), (0, 0.0), (1, 1.0), (1, 1.0)])  # fmt: skip
    # Window = last 4 rounds: (1, 0), (0, 0), (1, 1), (1, 1); ln min(5, 4).
    assert policy.window_counts == (1, 3) and policy.means == pytest.approx((0.0, 2 / 3))
    level = math.log(4)
    assert policy.upper_bounds == pytest.approx(
        (_bisect_kl(0.0, level), _bisect_kl(2 / 3, level / 3)), abs=1e-7
    )


def test_sliding_window_thompson_is_beta_thompson_while_the_window_holds_every_round():
    # The same Bernoulli trials and Beta draws from the same generator: the same pulls.
    for seed in range(3):
        runs = [bandits.simulate(policy, bandits.BernoulliArms((0.3, 0.5, 0.6)), 2000, seed=seed)
                for policy in (bandits.BetaThompson(n_arms=3, seed=seed),
                               bandits.SlidingWindowThompson(n_arms=3, window=2000, seed=seed))]
        assert list(runs[0].arms) == list(runs[1].arms)  # fmt: skip


def test_sliding_window_thompson_keeps_the_trials_it_counted():
    policy = bandits.SlidingWindowThompson(n_arms=2, window=50, seed=1)
    for _ in range(4000):
        policy.update(0, 0.3)
    # Bernoulli trials of mean 0.3 (not "any positive reward is a success"), 50 of them
    assert policy.window_counts == (50, 0)
    assert 0.1 < policy.means[0] < 0.5 and policy.means[1] == 0.5
    for _ in range(50):
        policy.update(1, 0.7)
    # Arm 0's trials left the window exactly as they were counted: its prior again, exactly.
    assert policy.window_counts == (0, 50) and policy._ws[0] == 0.0
    assert policy.means[0] == 0.5
    # and, absent from the window, arm 0 is sampled from its prior: tried again
    assert 0 in {policy.select() for _ in range(200)}


def _pulls(policy, n: int) -> list[int]:
    """The arms `policy` pulls in `n` rounds, arm 0 paying 0.6 and arm 1 0.4 every time."""
    arms = []
    for _ in range(n):
        arms.append(policy.select())
        policy.update(arms[-1], 0.6 if arms[-1] == 0 else 0.4)
    return arms


def test_ucb_improved_phases_by_hand():
    policy = bandits.UCBImproved(n_arms=2, horizon=100, seed=0)
    # Phase 0: n_0 = ceil(2 ln(100)) = 10 pulls each, fewest pulls first, then lowest index.
    assert _pulls(policy, 20) == [0, 1] * 10
    # Width sqrt(ln 100 / 20) = 0.48 > gap / 2: both survive; phase 1 needs
    # n_1 = ceil(2 ln(25) / (1/4)) = 26 pulls each.
    assert policy.active_arms == (0, 1) and policy.phase == 1
    for _ in range(31):
        policy.update(policy.select(), 0.6 if policy.select() == 0 else 0.4)
    assert policy.counts == (26, 25) and policy.phase == 1
    policy.update(1, 0.4)
    # Width sqrt(ln 25 / 52) = 0.25 > 0.1: still both; phase 2 (the last, floor(0.5 log2(100/e))).
    assert policy.phase == 2 and policy.active_arms == (0, 1)


def test_ucb_improved_exploits_after_its_last_phase():
    # T = 43: phases 0 and 1 only (floor(0.5 log2(43 / e)) = 1), n_0 = 8 and n_1 =
    # ceil(2 ln(43 / 4) / (1 / 4)) = 19 pulls each; the gap 0.2 is narrower than both widths,
    # so both arms survive, and after the last phase the better mean is pulled to the end
    policy = bandits.UCBImproved(n_arms=2, horizon=43, seed=0)
    assert _pulls(policy, 42) == [0, 1] * 19 + [0] * 4
    assert policy.phase == 2 and policy.active_arms == (0, 1)


def test_ucb_improved_eliminates_and_restarts_after_the_horizon():
    policy = bandits.UCBImproved(n_arms=2, horizon=100, seed=0)
    for _ in range(20):
        arm = policy.select()
        policy.update(arm, 1.0 if arm == 0 else 0.0)
    # Width 0.48: 0 + 0.48 < 1 - 0.48, arm 1 is eliminated after phase 0.
    assert policy.active_arms == (0,)
    assert all(policy.select() == 0 for _ in range(5))
    for _ in range(80):
        policy.update(policy.select(), 1.0)
    assert policy.epoch == 1 and policy.active_arms == (0, 1) and policy.n_rounds == 100
    assert math.isnan(policy.means[0])  # epoch statistics were cleared


def test_a_window_longer_than_the_run_is_ucb_improved():
    for seed in range(3):
        windowed = bandits.SlidingWindowUCBImproved(n_arms=3, window=5000, seed=seed)
        assert _run(windowed, 3000, seed) == _run(
            bandits.UCBImproved(n_arms=3, horizon=5000, seed=seed), 3000, seed)


def test_forgetting_ucb_improved_settles_a_new_epoch_on_what_it_remembers():
    # Arm 0 always pays 1, arm 1 never; epochs of 40 rounds (phase 0: n_0 = ceil(2 ln 40) = 8).
    def late_pulls_of_arm_1(policy):
        arms = []
        for _ in range(60):
            arms.append(policy.select())
            policy.update(arms[-1], float(arms[-1] == 0))
        assert policy.epoch == 1 and policy.active_arms == (0,)
        return arms[40:].count(1)

    # UCB-Improved starts over: arm 1 earns its n_0 pulls again
    assert late_pulls_of_arm_1(bandits.UCBImproved(n_arms=2, horizon=40, seed=0)) == 8
    # the window still holds its 8 pulls from the last epoch: eliminated without a pull
    assert late_pulls_of_arm_1(bandits.SlidingWindowUCBImproved(n_arms=2, window=40, seed=0)) == 0
    # its discounted count has decayed below n_0: it earns back part of it
    assert 0 < late_pulls_of_arm_1(
        bandits.DiscountedUCBImproved(n_arms=2, gamma=0.975, seed=0)) < 8


@pytest.mark.parametrize("make", [
    lambda: bandits.UCBImproved(n_arms=3, horizon=1000, seed=0),
    lambda: bandits.SlidingWindowUCBImproved(n_arms=3, seed=0),
    lambda: bandits.DiscountedUCBImproved(n_arms=3, seed=0),
])
def test_ucb_improved_exploits_within_a_phase_when_every_arm_is_observed(make):
    # Side observations count every arm every round (the controller's training rounds): the
    # phase's arms stay tied, so the pull goes to the best mean, not to the lowest index.
    policy, pulls = make(), []
    for _ in range(200):
        pulls.append(policy.select())
        policy.update_round({0: 0.45, 1: 0.55, 2: 0.5})
    assert policy.active_arms == (0, 1, 2)  # gaps too small to eliminate anything yet
    assert pulls[0] == 0 and pulls[1:] == [1] * 199


def test_ucb_improved_doubling_epochs():
    policy = bandits.UCBImproved(n_arms=2, initial_horizon=8, seed=0)
    epochs = []
    for _ in range(8 + 16 + 32):
        policy.update(policy.select(), 0.5)
        epochs.append(policy.epoch)
    assert epochs.index(1) == 7 and epochs.index(2) == 23 and epochs[-1] == 3


def test_gaussian_thompson_posterior_by_hand():
    policy = _feed(bandits.GaussianThompson(n_arms=2, seed=0), [(0, 1.0), (0, 0.5)])
    # Prior N(0, 1), noise sd 1: precision 1 + 2 = 3, mean (0 + 1.5) / 3.
    assert policy.means == pytest.approx((0.5, 0.0))
    assert policy.posterior_stds == pytest.approx((1 / math.sqrt(3), 1.0))
    custom = _feed(
        bandits.GaussianThompson(n_arms=1, prior_mean=0.5, prior_std=0.5, noise_std=0.25),
        [(0, 1.0)],
    )
    # precision 4 + 16 = 20, mean (0.5 * 4 + 1.0 * 16) / 20 = 0.9.
    assert custom.means[0] == pytest.approx(0.9)
    assert custom.posterior_stds[0] == pytest.approx(20**-0.5)


def test_gaussian_thompson_samples_the_posterior_of_the_mean():
    # Both arms alternate rewards 0 and 1 (data sd 0.5) around means 0.55 and 0.5, 1000 pulls
    # each. Posterior draws of the mean have sd ~ 1/sqrt(1001): arm 0 wins with probability
    # Phi(0.05 / sqrt(2 / 1001)) = 0.87. Drawing from the data spread (sd 0.5, River's
    # Gaussian) would give Phi(0.05 / sqrt(0.5)) = 0.53.
    policy = bandits.GaussianThompson(n_arms=2, seed=0)
    for i in range(1000):
        policy.update(0, 1.0 if i % 20 < 11 else 0.0)
        policy.update(1, float(i % 2))
    mean_gap = policy.means[0] - policy.means[1]
    sd = math.hypot(*policy.posterior_stds)
    expected = statistics.NormalDist().cdf(mean_gap / sd)
    assert expected == pytest.approx(0.87, abs=0.01)
    share = sum(policy.select() == 0 for _ in range(20_000)) / 20_000
    assert share == pytest.approx(expected, abs=0.015)


@pytest.mark.parametrize("cls", [bandits.GaussianThompson, bandits.DiscountedGaussianThompson])
def test_gaussian_thompson_draws_around_the_prior_mean_where_data_are_few(cls):
    # arm 1 has no data: its draws come from the prior N(0.9, 0.1^2); arm 0's posterior mean
    # is (0.9 * 100 + 0.2 * 1000) / 1100 = 0.26 after 1000 rewards of 0.2 (0.33 discounted,
    # its count capped near 1 / (1 - gamma) = 500), so arm 1 wins nearly always (drawing
    # around 0 instead of the prior mean, it would never win)
    policy = cls(n_arms=2, prior_mean=0.9, prior_std=0.1, seed=0)
    for _ in range(1000):
        policy.update(0, 0.2)
    assert policy.means[1] == pytest.approx(0.9) and policy.means[0] < 0.35
    assert sum(policy.select() == 1 for _ in range(1000)) > 990


def test_beta_thompson_bernoulli_trick():
    policy = bandits.BetaThompson(n_arms=2, seed=0)
    for _ in range(4000):
        policy.update(0, 0.3)
    # A success with probability 0.3, not "any positive reward is a success" (which gives ~1).
    assert policy.means[0] == pytest.approx(0.3, abs=0.02)
    exact = _feed(bandits.BetaThompson(n_arms=2, prior_alpha=2, prior_beta=3), [(1, 1.0), (1, 0)])
    assert exact.means == pytest.approx((2 / 5, 3 / 7))


def test_discounted_thompson_discounts_every_arm():
    policy = _feed(
        bandits.DiscountedThompson(n_arms=2, gamma=0.5, seed=0), [(0, 1.0), (1, 0.25), (1, 1.0)]
    )
    # Arm 0 was pulled once, two rounds ago: S_0 = 0.5^2 = 0.25 (SMPyBandits keeps it at 1).
    assert policy.discounted_counts == pytest.approx((0.25, 0.5 * 1.0 + 1.0))
    # Arm 1: S = 0.5 * 0.25 + 1 = 1.125, F = 0.5 * 0.75 + 0 = 0.375.
    assert policy.means == pytest.approx(((0.25 + 1) / (0.25 + 2), (1.125 + 1) / (1.5 + 2)))


def test_discounted_gaussian_thompson_by_hand():
    policy = _feed(
        bandits.DiscountedGaussianThompson(n_arms=2, gamma=0.5, seed=0), [(0, 1.0), (1, 0.5)]
    )
    assert policy.discounted_counts == pytest.approx((0.5, 1.0))
    # Arm 0: n = 0.5, S = 0.5 -> precision 1.5, mean 0.5 / 1.5.
    assert policy.means == pytest.approx((1 / 3, 0.25))
    assert policy.posterior_stds[0] == pytest.approx(1.5**-0.5)
    undiscounted = _feed(bandits.DiscountedGaussianThompson(n_arms=2, gamma=1.0), [(0, 1.0)] * 3)
    reference = _feed(bandits.GaussianThompson(n_arms=2), [(0, 1.0)] * 3)
    assert undiscounted.means == reference.means


def test_discounted_ucb_by_hand():
    policy = _feed(
        bandits.DiscountedUCB(n_arms=2, gamma=0.9, xi=0.6, seed=0),
        [(0, 1.0), (0, 1.0), (0, 0.0), (1, 0.5)],
    )
    n0 = 0.9**3 + 0.9**2 + 0.9  # 2.439
    s0 = 0.9**3 + 0.9**2  # 1.539
    assert policy.discounted_counts == pytest.approx((n0, 1.0))
    assert policy.means == pytest.approx((s0 / n0, 0.5))
    log_n = math.log(n0 + 1.0)
    expected = (s0 / n0 + 2 * math.sqrt(0.6 * log_n / n0), 0.5 + 2 * math.sqrt(0.6 * log_n))
    assert policy.upper_bounds == pytest.approx(expected)
    assert policy.select() == 1


def test_discounted_ucb_padding_regrows_for_a_neglected_arm():
    policy = _feed(bandits.DiscountedUCB(n_arms=2, gamma=0.99), [(0, 0.0)] * 50 + [(1, 1.0)])
    for _ in range(200):
        policy.update(1, 1.0)
    # Arm 0 paid 0 and arm 1 paid 1, yet arm 0's shrinking count makes it worth a retry.
    assert policy.discounted_counts[0] < 0.15 * 50
    assert policy.select() == 0


def test_sliding_window_ucb_by_hand():
    policy = _feed(
        bandits.SlidingWindowUCB(n_arms=2, window=4, xi=0.6, seed=0),
        [(0, 1.0), (1, 0.0), (0, 0.0), (1, 1.0), (1, 1.0)],
    )
    # Window = last 4 rounds: (1, 0), (0, 0), (1, 1), (1, 1).
    assert policy.window_counts == (1, 3)
    assert policy.means == pytest.approx((0.0, 2 / 3))
    log_t = math.log(min(5, 4))
    assert policy.upper_bounds == pytest.approx(
        (math.sqrt(0.6 * log_t), 2 / 3 + math.sqrt(0.6 * log_t / 3))
    )
    assert policy.counts == (2, 3)  # lifetime counts are kept separately


def test_exp3_probabilities_by_hand():
    policy = _feed(bandits.Exp3(n_arms=2, gamma=0.2, seed=0), [(1, 0.5)])
    # log w_1 = 0.2 * (0.5 / 0.5) / 2 = 0.1.
    w = math.exp(0.1)
    expected = (0.8 / (1 + w) + 0.1, 0.8 * w / (1 + w) + 0.1)
    assert policy.probabilities == pytest.approx(expected)
    policy.update(1, 1.0)  # importance weight 1 / p_1
    log_w1 = 0.1 + 0.2 * (1.0 / expected[1]) / 2
    w = math.exp(log_w1)
    assert policy.probabilities[1] == pytest.approx(0.8 * w / (1 + w) + 0.1)


def test_exp3_keeps_exploring_and_stays_finite():
    policy = bandits.Exp3(n_arms=3, gamma=0.3, seed=0)
    for _ in range(50_000):
        policy.update(0, 1.0)
    assert min(policy.probabilities) >= 0.1 - 1e-12
    assert sum(policy.probabilities) == pytest.approx(1.0)
    assert sum(policy.select() != 0 for _ in range(3000)) == pytest.approx(600, abs=80)


def test_epsilon_greedy_explores_at_rate_epsilon():
    policy = _feed(bandits.EpsilonGreedy(n_arms=2, epsilon=0.2, seed=0), [(0, 1.0), (1, 0.0)])
    picks = [policy.select() for _ in range(10_000)]
    assert picks.count(1) / len(picks) == pytest.approx(0.1, abs=0.01)


def test_every_nth_counts_rounds_from_one():
    policy = bandits.EveryNth(n_arms=3, n=4)
    arms = []
    for _ in range(12):
        arms.append(policy.select())
        policy.update(arms[-1], 0.0)
    assert [t for t, a in enumerate(arms, start=1) if a == 1] == [4, 8, 12]
    assert set(arms) == {0, 1}
    always = bandits.EveryNth(n=1)
    assert always.select() == 1
    # Selections are counted, not updates: a reward arriving one round late keeps the schedule.
    delayed = bandits.EveryNth(n_arms=2, n=3)
    arms = [delayed.select(), delayed.select()]
    for _ in range(7):
        delayed.update(arms[-2], 0.0)
        arms.append(delayed.select())
    assert arms == [0, 0, 1, 0, 0, 1, 0, 0, 1]
    delayed.reset()
    assert [delayed.select() for _ in range(3)] == [0, 0, 1]


def test_constant_and_random():
    policy = bandits.Constant(n_arms=3, arm=1)
    assert {policy.select() for _ in range(10)} == {1}
    draws = [bandits.Random(n_arms=3, seed=0).select() for _ in range(3)]
    assert len(set(draws)) == 1  # same seed, same first draw
    policy = bandits.Random(n_arms=3, seed=0)
    counts = [0, 0, 0]
    for _ in range(3000):
        counts[policy.select()] += 1
    assert min(counts) > 900


def test_rising_ucb_index_by_hand():
    # Metelli et al. (2022), rested R-ed-UCB: with N = 8 rewards and epsilon = 1/4, h = 2;
    # the last window (pulls 7, 8) and the one before (5, 6) give the slopes projected to t
    policy = bandits.RisingUCB(n_arms=2, seed=0)
    rewards = [0.1, 0.2, 0.2, 0.3, 0.3, 0.5, 0.4, 0.9]
    for r in rewards:
        policy.update_round({0: r, 1: 0.5})
    t = 9
    manual = sum(rewards[i - 1] + (t - i) * (rewards[i - 1] - rewards[i - 3]) / 2 for i in (7, 8))
    assert policy.projections[0] == pytest.approx(manual / 2)
    assert policy.projections[1] == pytest.approx(0.5)  # a flat arm projects to its value
    bonus = 0.1 * (t - 8 + 2 - 1) * math.sqrt(10 * 4 * math.log(t) / 2**3)
    assert policy.upper_bounds == pytest.approx((manual / 2 + bonus, 0.5 + bonus))
    assert policy.select() == 0  # projected 0.8 against 0.5
    # an arm pulled less gets the larger bonus: t - N grows, h shrinks
    policy = _feed(bandits.RisingUCB(n_arms=2, seed=0), [(0, 0.6)] * 8 + [(1, 0.5)] * 4)
    t = 13
    bounds = [0.6 + 0.1 * (t - 8 + 2 - 1) * math.sqrt(40 * math.log(t) / 2**3),
              0.5 + 0.1 * (t - 4 + 1 - 1) * math.sqrt(40 * math.log(t) / 1**3)]  # fmt: skip
    assert policy.upper_bounds == pytest.approx(bounds) and policy.select() == 1
    # fewer than 1 / epsilon rewards: h = 0, pulled first, lowest index first
    fresh = _feed(bandits.RisingUCB(n_arms=3, seed=0), [(0, 1.0)] * 4 + [(2, 0.0)])
    assert fresh.projections[1:] == (None, None) and fresh.select() == 1


@pytest.mark.parametrize("h", [1, 3, 10])
def test_rising_ucb_projects_a_linear_curve_exactly(h):
    # X_l = a + b l: every term X_l + (t - l)(X_l - X_{l-h}) / h is a + b t
    policy = bandits.RisingUCB(n_arms=1, epsilon=0.5, seed=0)
    a, b = 0.05, 0.02
    for pull in range(1, 2 * h + 1):
        policy.update(0, a + b * pull)
    assert policy.projections[0] == pytest.approx(a + b * (2 * h + 1), abs=1e-12)
