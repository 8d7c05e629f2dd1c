"""Behaviour of streamboost.bandits policies on simulated bandits (5 seeds, 10,000 rounds)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from streamboost import bandits

SEEDS = range(5)
N_ROUNDS = 10_000
STATIONARY = bandits.BernoulliArms((0.4, 0.6))
DEGRADE = bandits.PiecewiseBernoulli(((0.7, 0.5), (0.3, 0.5)), change_points=(5000,))
SWAP = bandits.PiecewiseBernoulli(((0.3, 0.7), (0.7, 0.3)), change_points=(5000,))
RESTED = bandits.DiminishingReturns(initial=(0.8, 0.4), decay=0.01, recovery=0.01)
NON_STATIONARY = ["discounted-ucb", "sliding-window-ucb", "discounted-thompson",
                  "discounted-gaussian-thompson", "discounted-kl-ucb", "sliding-window-kl-ucb",
                  "sliding-window-thompson", "sliding-window-ucb-improved",
                  "discounted-ucb-improved"]  # fmt: skip
# the best share of pulls a forgetting policy reaches on the stationary problem (docs/bandits.md)
CEILING = {"sliding-window-thompson": 0.97}
# and the least (a discounted count never reaches what it counts: UCB-Improved's phases, which
# need every active arm's count at a target, end late; docs/bandits.md)
FLOOR = {"discounted-ucb-improved": 0.7}
DISCOUNTED = ["discounted-ucb", "discounted-thompson", "discounted-gaussian-thompson"]


def _runs(name, environment, **params):
    return [
        bandits.simulate(bandits.make(name, 2, seed=s, **params), environment, N_ROUNDS, seed=s)
        for s in SEEDS
    ]


def _post_change_share(name, environment, arm):
    return np.mean([r.share(arm, 6000, 10_000) for r in _runs(name, environment)])


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("ucb1", {}),
        ("ucb-improved", {"horizon": N_ROUNDS}),
        ("kl-ucb", {}),
        ("gaussian-thompson", {}),
        ("beta-thompson", {}),
    ],
)
def test_stationary_policies_find_the_better_arm_with_sublinear_regret(name, params):
    runs = _runs(name, STATIONARY, **params)
    assert np.mean([r.optimal.mean() for r in runs]) >= 0.85
    regret_1k = np.mean([r.cumulative_regret[999] for r in runs])
    regret_10k = np.mean([r.cumulative_regret[-1] for r in runs])
    assert regret_10k < 5 * regret_1k  # linear regret would give 10x


def test_ucb_improved_doubling_trick_costs_a_bounded_factor():
    known = _runs("ucb-improved", STATIONARY, horizon=N_ROUNDS)
    doubling = _runs("ucb-improved", STATIONARY)
    regret_known = np.mean([r.cumulative_regret[-1] for r in known])
    regret_doubling = np.mean([r.cumulative_regret[-1] for r in doubling])
    # Measured about 4x (docs/bandits.md): every epoch re-explores from scratch.
    assert regret_known < regret_doubling < 6 * regret_known
    assert np.mean([r.optimal.mean() for r in doubling]) >= 0.7
    assert regret_doubling < 0.6 * 0.2 * N_ROUNDS / 2  # far below uniform play


@pytest.mark.parametrize(("name", "floor"), [("epsilon-greedy", 0.85), ("exp3", 0.85)])
def test_other_policies_on_the_stationary_problem(name, floor):
    assert np.mean([r.optimal.mean() for r in _runs(name, STATIONARY)]) >= floor


@pytest.mark.parametrize("name", NON_STATIONARY)
def test_forgetting_policies_keep_exploring_in_a_stationary_problem(name):
    runs = _runs(name, STATIONARY)
    share = np.mean([r.optimal.mean() for r in runs])
    assert FLOOR.get(name, 0.75) <= share < CEILING.get(name, 0.95)  # forgetting costs pulls
    late = np.mean([r.share(0, 8001, 10_000) for r in runs])
    assert late > 0.03  # the worse arm is still tried late in the run


@pytest.mark.parametrize("name", NON_STATIONARY)
def test_forgetting_policies_follow_a_degrading_best_arm(name):
    ucb1 = _post_change_share("ucb1", DEGRADE, arm=1)
    share = _post_change_share(name, DEGRADE, arm=1)
    assert share > 0.7
    assert share > ucb1 + 0.2


def test_ucb_improved_forgetting_beats_restarting_at_equal_memory():
    # the decision of SlidingWindowUCBImproved: the window replaces clearing at each restart
    for environment, arm in ((STATIONARY, 1), (DEGRADE, 1), (SWAP, 0)):
        shares = [np.mean([r.share(arm, 6000, 10_000) for r in _runs(name, environment, **p)])
                  for name, p in (("ucb-improved", {"horizon": 1000}),
                                  ("sliding-window-ucb-improved", {"window": 1000}))]
        assert shares[1] > shares[0] + 0.03, environment


def test_ucb1_stays_on_a_degraded_arm_but_follows_a_swap():
    # After 5,000 rounds on arm A (0.7), UCB1 has little data on B and A's mean decays slowly.
    assert _post_change_share("ucb1", DEGRADE, arm=1) < 0.55
    # A swap is different: the neglected arm has few samples and a large bonus.
    assert _post_change_share("ucb1", SWAP, arm=0) > 0.95


@pytest.mark.parametrize("name", NON_STATIONARY)
def test_forgetting_policies_follow_a_swap(name):
    assert _post_change_share(name, SWAP, arm=0) > 0.8


@pytest.mark.parametrize("name", DISCOUNTED)
def test_discounted_policies_keep_alternating_under_diminishing_returns(name):
    runs = _runs(name, RESTED)
    for r in runs:
        late = r.arms[5000:]
        assert 0.3 < late.mean() < 0.7  # both arms keep being pulled
        assert np.count_nonzero(np.diff(late)) > 500  # in short turns, not long stretches
    regret = np.mean([r.cumulative_regret[-1] for r in runs])
    regret_ucb1 = np.mean([r.cumulative_regret[-1] for r in _runs("ucb1", RESTED)])
    assert regret < 0.8 * regret_ucb1


def test_simulation_result_and_reproducibility():
    a = bandits.simulate(bandits.BetaThompson(seed=3), RESTED, 500, seed=4)
    b = bandits.simulate(bandits.BetaThompson(seed=3), RESTED, 500, seed=4)
    np.testing.assert_array_equal(a.arms, b.arms)
    np.testing.assert_array_equal(a.rewards, b.rewards)
    assert a.arms.dtype == np.int64 and a.rewards.shape == (500,)
    assert a.counts.sum() == 500 and np.all(a.regret >= 0)
    np.testing.assert_allclose(a.cumulative_regret[-1], a.regret.sum())
    c = bandits.simulate(bandits.BetaThompson(seed=3), RESTED, 500, seed=5)
    assert not np.array_equal(a.rewards, c.rewards)


def test_simulate_checks_its_input():
    with pytest.raises(ValueError, match="the policy has 3 arms but the environment has 2"):
        bandits.simulate(bandits.UCB1(n_arms=3), STATIONARY, 10)
    with pytest.raises(TypeError, match="policy must be"):
        bandits.simulate("ucb1", STATIONARY, 10)
    with pytest.raises(ValueError, match="n_rounds must be an int >= 0"):
        bandits.simulate(bandits.UCB1(), STATIONARY, -1)


def test_environments():
    assert DEGRADE.expected_rewards(4999) == (0.7, 0.5)
    assert DEGRADE.expected_rewards(5000) == (0.3, 0.5)
    env = bandits.DiminishingReturns(initial=(0.5, 0.5), decay=0.1, recovery=0.1)
    rng = np.random.default_rng(0)
    for _ in range(50):
        env.pull(0, 1, rng)
    values = env.expected_rewards(51)
    assert values[0] == pytest.approx(0.1 + 0.4 * 0.9**50)
    assert values[1] == pytest.approx(0.9 - 0.4 * 0.9**50)
    env.reset()
    assert env.expected_rewards(1) == (0.5, 0.5)
    with pytest.raises(ValueError, match="change_points must be increasing"):
        bandits.PiecewiseBernoulli(((0.1, 0.2), (0.3, 0.4)), change_points=(5, 9))
    with pytest.raises(ValueError, match="every segment must have the same number of arms"):
        bandits.PiecewiseBernoulli(((0.1, 0.2), (0.1, 0.2, 0.3)), change_points=(5,))
    with pytest.raises(TypeError, match=r"environment must be a bandits Environment, got "
                                        r"\(0\.4, 0\.6\)"):
        bandits.simulate(bandits.UCB1(n_arms=2), (0.4, 0.6), 10)  # the means, not arms
    with pytest.raises(ValueError, match="means must be a non-empty sequence"):
        bandits.BernoulliArms((0.5, 1.5))
    # a rising arm climbs with its own pulls only; reset starts it over
    rising = bandits.RisingArms(start=(0.2, 0.3), ceiling=(0.8, 0.4), rate=(0.1, 1.0))
    for _ in range(30):
        rising.pull(0, 1, random.Random(0))
    assert rising.expected_rewards(31) == pytest.approx((0.8 - 0.6 * math.exp(-3.0), 0.3))
    rising.reset()
    assert rising.expected_rewards(1) == pytest.approx((0.2, 0.3))
    with pytest.raises(ValueError, match="one value per arm"):
        bandits.RisingArms(start=(0.1, 0.2), ceiling=(0.9,), rate=(0.1, 0.1))
    with pytest.raises(ValueError, match="each start must not exceed its ceiling"):
        bandits.RisingArms(start=(0.5, 0.9), ceiling=(0.6, 0.8), rate=(0.1, 0.1))
    with pytest.raises(ValueError, match="each rate must be a finite number > 0"):
        bandits.RisingArms(rate=(0.1, 0.0))


@pytest.mark.parametrize(("environment", "arm", "changed"), [(DEGRADE, 1, (1, 0)),
                                                             (SWAP, 0, (1, 1))])  # fmt: skip
def test_glr_kl_ucb_restarts_the_changed_arms_once_and_follows_the_change(
    environment, arm, changed
):
    runs, restarts = [], []
    for s in SEEDS:
        policy = bandits.make("glr-kl-ucb", 2, seed=s)
        runs.append(bandits.simulate(policy, environment, N_ROUNDS, seed=s))
        restarts.append(policy.restarts)
    assert restarts == [changed] * len(SEEDS)  # the arms whose mean moved, once each
    share = np.mean([r.share(arm, 6000, 10_000) for r in runs])
    assert share > 0.95
    assert share > _post_change_share("discounted-ucb", environment, arm) + 0.05


def test_glr_kl_ucb_raises_no_false_alarm_on_a_stationary_problem():
    policies = [bandits.make("glr-kl-ucb", 2, seed=s) for s in SEEDS]
    runs = [
        bandits.simulate(p, STATIONARY, N_ROUNDS, seed=s)
        for s, p in zip(SEEDS, policies, strict=True)
    ]
    assert all(p.restarts == (0, 0) for p in policies)
    # forced exploration (alpha = 5 %, half of it on the worse arm) is what it costs
    assert 0.95 < np.mean([r.optimal.mean() for r in runs]) < 0.99


def test_the_glr_statistic_is_the_best_split_of_the_likelihood():
    from streamboost.bandits.glr_kl_ucb import bernoulli_glr
    from streamboost.bandits.kl_ucb import bernoulli_kl

    rng = np.random.default_rng(0)
    rewards = np.concatenate([rng.random(37) * 0.6, rng.random(23) * 0.6 + 0.4])
    n, mean = len(rewards), rewards.mean()

    def split(s: int) -> float:
        return s * bernoulli_kl(rewards[:s].mean(), mean) + (n - s) * bernoulli_kl(
            rewards[s:].mean(), mean
        )

    assert bernoulli_glr(rewards) == pytest.approx(max(map(split, range(1, n))), rel=1e-9)
    assert bernoulli_glr(rewards, step=3) == pytest.approx(
        max(map(split, range(3, n, 3))), rel=1e-9
    )
    with pytest.raises(ValueError, match="delta must be a number in"):
        bandits.GLRKLUCB(delta=0.0)


def test_glr_kl_ucb_restarts_an_arm_iff_its_statistic_passes_the_papers_threshold():
    # Besson et al. (2022), Section 6: restart when GLR > ln(3 n^{3/2} / delta), n the arm's
    # rewards since its restart, tested every `check_every` observations; its index solves
    # n kl(mean, q) = ln t, t the rounds since the restart. Restated here, round by round, on
    # a mild change (0.4 -> 0.7) that leaves some tests between ln(3 n / delta) and the
    # threshold (where a threshold of the wrong power would already restart).
    from streamboost.bandits.glr_kl_ucb import bernoulli_glr
    from streamboost.bandits.kl_ucb import bernoulli_kl

    rng = random.Random(4)
    policy, delta, every = bandits.GLRKLUCB(n_arms=2, seed=0), 0.01, 10
    history, since, restarts, between = [[], []], [0, 0], [0, 0], 0
    for t in range(3000):
        p = 0.4 if t < 1000 else 0.7
        rewards = {0: float(rng.random() < p), 1: float(rng.random() < 0.5)}
        policy.update_round(rewards)
        for arm, reward in rewards.items():
            since[arm] += 1
            history[arm].append(reward)
            n = len(history[arm])
            if n % every == 0:
                statistic = bernoulli_glr(np.array(history[arm]), every)
                threshold = math.log(3.0 * n**1.5 / delta)
                between += math.log(3.0 * n / delta) < statistic <= threshold
                if statistic > threshold:
                    history[arm], since[arm], restarts[arm] = [], 0, restarts[arm] + 1
        assert policy.restarts == tuple(restarts), t
        for arm in (0, 1):
            n = len(history[arm])
            if n and 0.0 < np.mean(history[arm]) < 1.0:
                q = policy.upper_bounds[arm]
                assert n * bernoulli_kl(np.mean(history[arm]), q) == pytest.approx(
                    math.log(max(since[arm], 1)), rel=1e-6), t
    assert restarts[0] >= 1 and between > 0


def _fewa_reference(histories: list[list[float]], t: int, alpha: float, sigma: float) -> int:
    """Seznec et al. (2019), Algorithm 1, written plainly: windows h = 1, 2, ...; the first
    surviving arm with fewer than h rewards is pulled; an arm whose last-h average trails the
    best survivor's by more than 2 c(h), c(h) = sqrt(2 sigma^2 alpha ln t / h), is dropped."""
    alive, h = list(range(len(histories))), 1
    while True:
        for arm in alive:
            if len(histories[arm]) < h:
                return arm
        averages = {arm: sum(histories[arm][-h:]) / h for arm in alive}
        width = 2.0 * math.sqrt(2.0 * sigma**2 * alpha * math.log(t) / h)
        best = max(averages.values())
        alive = [arm for arm in alive if best - averages[arm] <= width]
        h += 1


@pytest.mark.parametrize(("alpha", "sigma"), [(0.06, 0.5), (1.0, 0.5), (4.0, 0.25)])
def test_fewa_pulls_the_arm_algorithm_1_pulls(alpha, sigma):
    # delta_t = t^-alpha at the round about to be played, t = rounds so far + 1; rewards that
    # rot at random rates, observed for random subsets of the arms
    rng = random.Random(7)
    policy, histories = bandits.FEWA(n_arms=3, alpha=alpha, sigma=sigma), [[], [], []]
    values = [0.9, 0.7, 0.5]
    for t in range(1, 400):
        assert policy.select() == _fewa_reference(histories, t, alpha, sigma), t
        observed = {arm: min(max(values[arm] + rng.gauss(0.0, 0.1), 0.0), 1.0)
                    for arm in range(3) if rng.random() < 0.6} or {0: values[0]}
        for arm, reward in observed.items():
            histories[arm].append(reward)
            values[arm] *= 1.0 - 0.01 * (arm + 1) * rng.random()
        policy.update_round(observed)


def test_fewa_filters_at_its_width_at_the_round_about_to_be_played():
    # one reward each, then round t = 2: 2 c(1) = 2 sqrt(2 sigma^2 alpha ln 2) = 0.2884 at the
    # defaults (sigma 1/2, alpha 0.06); arm 0 trailing by more is dropped and arm 1 pulled
    for gap, pulled in [(0.30, 1), (0.28, 0)]:
        policy = bandits.FEWA(n_arms=2)
        policy.update_round({0: 1.0 - gap, 1: 1.0})
        assert policy.select() == pulled, gap


def test_glr_kl_ucb_forces_exploration_on_the_rounds_clock_through_a_restart():
    # Besson et al. (2022), Algorithm 1: round t pulls arm t mod floor(K / alpha) when that is
    # < K, local restarts or not; a restart resets its arm (whose index is then infinite), not
    # the clock. So the round after arm 1's restart pulls arm 1, unless the clock forces one.
    policy = bandits.GLRKLUCB(n_arms=2, seed=0)
    period, after = int(2 / policy.alpha), None
    for t, rewards in enumerate([{0: 1.0, 1: 0.0}] * 200 + [{0: 1.0, 1: 1.0}] * 200):
        restarted = sum(policy.restarts)  # arm 1 changes at round 200
        if t % period < 2:
            assert policy.select() == t % period, t
        policy.update_round(rewards)
        if sum(policy.restarts) > restarted and (t + 1) % period >= 2:
            assert policy.select() == 1, t + 1  # where a clock reset would force arm 0
            after = t + 1
    assert policy.restarts == (0, 1) and after is not None and 200 < after < 400


@pytest.mark.slow
def test_fewa_follows_a_rotting_arm_at_once_and_settles_on_a_stationary_problem():
    # FEWA compares the arms on their most recent rewards first, so a decayed arm's past does
    # not keep it chosen (Seznec et al. 2019): after both arms swap or one degrades it pulls
    # the new best arm almost always, and with stationary arms it finds the better one.
    for environment, arm in ((DEGRADE, 1), (SWAP, 0)):
        assert _post_change_share("fewa", environment, arm) > 0.97
    assert np.mean([r.optimal.mean() for r in _runs("fewa", STATIONARY)]) > 0.97


def test_fewa_trusts_the_recent_rewards_where_ucb1_trusts_the_average():
    fewa, ucb1 = bandits.FEWA(n_arms=2), bandits.UCB1(n_arms=2, seed=0)
    for policy in (fewa, ucb1):
        for reward in [0.9] * 30 + [0.2] * 10:  # arm 0 rots; its average (0.725) still leads
            policy.update_round({0: reward, 1: 0.6})
    assert (fewa.select(), ucb1.select()) == (1, 0)


def test_rising_ucb_finds_the_arm_that_rises_highest_where_averaging_policies_do_not():
    # Arm 0 rises fast to 0.6, arm 1 slowly from 0.1 to 0.9 (RisingArms defaults): arm 1 is
    # the best over 5,000 rounds, but its early rewards keep its average low, so policies that
    # average all past rewards stay on arm 0 (Metelli et al. 2022)
    rising = bandits.RisingArms()

    def play(name):
        runs = [bandits.simulate(bandits.make(name, 2, seed=s), rising, 5000, seed=s)
                for s in SEEDS]  # fmt: skip
        shares = [r.share(1, 2500, 5000) for r in runs]
        return np.mean([r.rewards.sum() for r in runs]), np.mean(shares)

    reward, share = play("rising-ucb")
    assert share > 0.7
    for name in ("ucb1", "kl-ucb", "beta-thompson"):
        other_reward, other_share = play(name)
        assert other_share < 0.05 and reward > 1.2 * other_reward
