"""Tests of BanditCalibratedClassifier: routing, the identity start, the paired reward, policies."""

from __future__ import annotations

import functools
import itertools
import math
import pickle
import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from river import base as rbase
from river import checks, compose, datasets, drift, forest, linear_model, preprocessing, tree

from streamboost import (
    BanditCalibratedClassifier,
    OnlinePlattCalibrator,
    OzaBoostClassifier,
    bandits,
    validation,
)
from streamboost.reward import (
    LOSSES,
    MAPPINGS,
    ROLLBACKS,
    PairedReward,
    calibrated,
    held_out,
    mean_losses,
)


def phishing(n: int = 600) -> list[tuple[dict, bool]]:
    """River's Phishing, standard-scaled once up front so members see stable inputs."""
    rows = list(datasets.Phishing().take(n))
    scaler = preprocessing.StandardScaler()
    for x, _ in rows:
        scaler.learn_one(x)
    return [(scaler.transform_one(x), y) for x, y in rows]


def booster(seed: int = 3) -> OzaBoostClassifier:
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=5, seed=seed)


@pytest.mark.parametrize("params", list(BanditCalibratedClassifier._unit_test_params()))
def test_river_estimator_checks(params):
    checks.check_estimator(BanditCalibratedClassifier(**params))


def test_never_calibrate_gives_exactly_the_raw_booster():
    model = BanditCalibratedClassifier(model=booster(), policy="never", batch_size=8)
    raw = booster()
    for x, y in phishing(400):
        assert model.predict_proba_one(x) == raw.predict_proba_one(x)
        model.learn_one(x, y)
        raw.learn_one(x, y)
    assert model.calibrator_.n_seen == 0
    assert model.arm_counts == {"train": 50, "calibrate": 0, "both": 0}


def test_every_n_routes_whole_minibatches_to_the_calibrator():
    model = BanditCalibratedClassifier(model=booster(), policy="every-4", batch_size=5, warmup=0)
    for x, y in phishing(80):
        model.learn_one(x, y)
    # 16 minibatches; rounds 4, 8, 12, 16 calibrate: 4 x 5 examples.
    assert model.arm_counts == {"train": 12, "calibrate": 4, "both": 0}
    assert model.calibrator_.n_seen == 20
    assert [r["arm"] for r in model.trace][:8] == ["train"] * 3 + ["calibrate"] + ["train"] * 3 + [
        "calibrate"
    ]


def test_warmup_trains_whatever_the_policy():
    model = BanditCalibratedClassifier(model=booster(), policy="always", batch_size=4, warmup=3,
                                       warmup_arm="train")
    for x, y in phishing(20):
        model.learn_one(x, y)
    assert model.arm_counts == {"train": 3, "calibrate": 2, "both": 0}
    assert model.calibrator_.n_seen == 8
    assert [r["reward"] for r in model.trace][:4] == [None] * 4  # no reward before batch 4 ends


@pytest.mark.parametrize(("policy", "arms", "route"), [
    ("always", ("train", "calibrate", "both"), "both"),
    ("both", ("train", "calibrate", "both"), "both"),
    ("every-4", ("train", "calibrate", "both"), "both"),
    ("discounted-ucb", ("train", "calibrate", "both"), "both"),
    ("never", ("train", "calibrate", "both"), "train"),  # its calibrator never learns
    ("discounted-ucb", ("train", "calibrate"), "train"),  # "both" is no arm
    ("discounted-ucb", ("calibrate", "both"), "both"),  # no "train" arm: "both" must train
])
def test_the_default_warm_up_calibrates_too_unless_the_policy_never_does(policy, arms, route):
    # 0.8.52: a warm-up serving the raw score while the calibrator waits cost the default model
    # on 7 of 7 streams (simulations/warmup.md); "never" keeps its calibrator untouched
    model = BanditCalibratedClassifier(model=booster(), policy=policy, arms=arms, batch_size=4,
                                       warmup=3, seed=0)
    for x, y in phishing(12):  # the warm-up
        model.learn_one(x, y)
    assert [r["arm"] for r in model.trace] == [route] * 3
    assert model.calibrator_.n_seen == (12 if route == "both" else 0)
    assert model.warmup_arm is None  # the parameter as given: clone() keeps the rule
    assert model.clone()._warmup_arm == route


@pytest.mark.parametrize("many", [False, True])
def test_a_warm_up_that_calibrates_too_under_a_bandit_and_both(many):
    # warmup_arm="both" (0.8.47): the warm-up trains the model and its calibrator learns every
    # prequential score; the bandit starts choosing after it, the rounds as before (none in the
    # warm-up); under the schedule "both" the warm-up then changes nothing (CalibratedClassifier)
    from streamboost import CalibratedClassifier

    data = phishing(200)

    def learn(model, rows):
        if many:
            model.learn_many(pd.DataFrame([x for x, _ in rows]), pd.Series([y for _, y in rows]))
        else:
            for x, y in rows:
                model.learn_one(x, y)

    bandit, default = (BanditCalibratedClassifier(model=booster(), policy="discounted-ucb",
                                                  batch_size=8, warmup=5, seed=2, warmup_arm=arm)
                       for arm in ("both", "train"))
    for model in (bandit, default):
        learn(model, data[:40])  # the warm-up
    assert bandit.calibrator_.n_seen == 40 and default.calibrator_.n_seen == 0
    assert bandit.arm_counts == {"train": 0, "calibrate": 0, "both": 5}
    assert bandit.model_.score_one(data[0][0]) == default.model_.score_one(data[0][0])
    assert all(r["reward"] is None for r in bandit.trace)
    learn(bandit, data[40:])
    assert sum(bandit.arm_counts.values()) == 25 and bandit.policy_.n_rounds > 0
    schedule = BanditCalibratedClassifier(model=booster(), policy="both", batch_size=8,
                                          warmup=5, warmup_arm="both")
    wrapper = CalibratedClassifier(booster())
    for x, y in data:
        assert schedule.predict_proba_one(x) == wrapper.predict_proba_one(x)
        schedule.learn_one(x, y)
        wrapper.learn_one(x, y)


def test_a_warm_up_arm_is_checked_before_anything():
    with pytest.raises(ValueError, match=r"warmup_arm must be None, 'train' or 'both'.*"
                                         r"'calibrate'"):
        BanditCalibratedClassifier(warmup_arm="calibrate")
    with pytest.raises(ValueError, match=r"warmup_arm='both' is not one of the arms \('train', "
                                         r"'calibrate'\)"):
        BanditCalibratedClassifier(policy="ucb1", arms=("train", "calibrate"), warmup_arm="both")
    # without a "train" arm the warm-up is "both" whatever warmup_arm says (it must train)
    for warmup_arm in (None, "train", "both"):
        model = BanditCalibratedClassifier(policy="ucb1", arms=("calibrate", "both"),
                                           warmup_arm=warmup_arm)
        assert model.current_arm == "both"


@pytest.mark.parametrize("policy", ["ucb1", "discounted-ucb", "every-2", "always", "both"])
@pytest.mark.parametrize("many", [False, True])
def test_without_a_train_arm_the_warmup_runs_both(policy, many):
    """Arms calibrate / both (whether the model learns at all): the warm-up, which must train,
    runs `"both"`, and the counts and the trace name only the arms (it raised KeyError)."""
    data = phishing(40)
    arms = ("both", "calibrate") if policy == "every-2" else ("calibrate", "both")  # its order
    model = BanditCalibratedClassifier(model=booster(), policy=policy, arms=arms, batch_size=4,
                                       warmup=3, seed=1)
    assert model.current_arm == "both"
    for part in (data[:12], data[12:]):  # the warm-up, then the rest
        if many:
            model.learn_many(pd.DataFrame([x for x, _ in part]), pd.Series([y for _, y in part]))
        else:
            for x, y in part:
                model.learn_one(x, y)
        if part is data[:12]:  # the warm-up trained the model and calibrated its scores
            alone = booster()
            for x, y in part:
                alone.learn_one(x, y)
            assert model.model_.score_one(data[0][0]) == alone.score_one(data[0][0])
            assert model.calibrator_.n_seen == 12
    assert set(model.arm_counts) == {"calibrate", "both"}
    assert sum(model.arm_counts.values()) == model.n_batches == 10
    assert [r["arm"] for r in model.trace][:3] == ["both"] * 3


def test_both_calibrates_on_the_score_before_the_booster_learns():
    data = phishing(300)
    model = BanditCalibratedClassifier(model=booster(), policy="both", batch_size=10, warmup=0)
    # The controller's default calibrator for a 5-member vote score (Gupta & Ramdas's step
    # beside a vote since 0.8.53, `scores.named_step`).
    raw, calibrator = booster(), OnlinePlattCalibrator(gamma=0.1, eps=0.5 / 6)
    for x, y in data:
        score = raw.score_one(x)
        expected = calibrator.predict_one(score) if calibrator.n_seen else score
        assert model.predict_proba_one(x)[True] == pytest.approx(expected, abs=1e-12)
        model.learn_one(x, y)
        calibrator.learn_one(score, y)
        raw.learn_one(x, y)
    assert model.arm_counts["both"] == 30
    assert model.calibrator_.n_seen == 300


class AlwaysTrain(bandits.Constant):
    uses_rewards = True  # measure the rewards that "never" would skip


def rewarded_rounds(n: int, **params) -> tuple[BanditCalibratedClassifier, list[dict]]:
    """A controller trained on `n` phishing examples, and its minibatches that earned a reward."""
    model = BanditCalibratedClassifier(model=booster(), **params)
    for x, y in phishing(n):
        model.learn_one(x, y)
    return model, [r for r in model.trace if r["rewards"] is not None]


def log_loss(p: float, y: bool) -> float:
    p = min(max(p, 1e-15), 1 - 1e-15)
    return -math.log(p if y else 1 - p)


def test_rewards_are_the_paired_improvements_on_the_next_minibatch_for_every_arm():
    """Replicate every arm's improvement by hand while the booster trains: snapshots at each
    minibatch start, and a calibrator that learns minibatch t from the booster's prequential
    scores; on minibatch t + 1, doing nothing (booster t, raw score: the live calibrator never
    learns) against "train" (booster t + 1), "calibrate" (booster t, that calibrator) and
    "both" (booster t + 1, that calibrator)."""
    data = phishing(200)
    size = 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=0,
        reward_examples=size,
    )
    raw = booster()
    snapshots, calibrators = [], []
    for i, (x, y) in enumerate(data):
        if i % size == 0:
            snapshots.append(pickle.loads(pickle.dumps(raw)))
            calibrators.append(model.calibrator_.clone())
        calibrators[-1].learn_one(raw.score_one(x), y)
        model.learn_one(x, y)
        raw.learn_one(x, y)

    rounds = [r for r in model.trace if r["improvements"] is not None]
    assert len(rounds) == len(data) // size - 1
    assert_train_rounds(rounds, data, size, snapshots, calibrators)
    assert all(r["improvement"] == r["improvements"]["train"] for r in rounds)


def assert_train_rounds(rounds, data, size, boosters, calibrators):
    """Each "train" round t, scored on minibatch t + 1: doing nothing (booster t, raw score)
    against "train" (booster t + 1), "calibrate" (booster t, calibrator t) and "both" (booster
    t + 1, calibrator t)."""
    for t, record in enumerate(rounds):
        batch = data[(t + 1) * size : (t + 2) * size]
        before, after, calibrator = boosters[t], boosters[t + 1], calibrators[t]
        models = {
            "train": lambda x, a=after: a.score_one(x),
            "calibrate": lambda x, b=before, c=calibrator: c.predict_one(b.score_one(x)),
            "both": lambda x, a=after, c=calibrator: c.predict_one(a.score_one(x)),
        }
        assert set(record["improvements"]) == set(models)
        for arm, predict in models.items():
            expected = (
                sum(log_loss(before.score_one(x), y) - log_loss(predict(x), y) for x, y in batch)
                / size
            )
            assert record["improvements"][arm] == pytest.approx(expected, abs=1e-12), arm


def calibrated_score(c, b, x) -> float:
    """Calibrator `c` of booster `b`'s score of `x`, as the controller predicts it (an
    untrained calibrator passes the score)."""
    return c.predict_one(b.score_one(x)) if c.n_seen else b.score_one(x)


def assert_four_models(record, batch, b0, b1, c0, c1):
    """Each arm's improvement in `record` on `batch`, by hand: the pair (calibrator, booster)
    of the arm against (`c0`, `b0`), calibrator `c1` and booster `b1` being what the
    action left."""
    models = {"train": (c0, b1), "calibrate": (c1, b0), "both": (c1, b1)}
    for arm, (c, b) in models.items():
        expected = sum(
            log_loss(calibrated_score(c0, b0, x), y) - log_loss(calibrated_score(c, b, x), y)
            for x, y in batch
        ) / len(batch)
        assert record["improvements"][arm] == pytest.approx(expected, abs=1e-12), arm


class TrainThenCalibrate(AlwaysTrain):
    def _reset(self) -> None:
        self.selected = 0

    def _select(self) -> int:
        self.selected += 1
        return 0 if self.selected % 2 else 1  # "train", then "calibrate", in turn


def test_a_train_round_scored_on_a_calibrating_minibatch_pairs_the_copy_with_the_live_model():
    """A "train" minibatch t scored on a "calibrate" minibatch t + 1, where the model stands
    still and its live scores are the "after" (no copy is taken then): by hand, the booster at
    t and t + 1, the live calibrator as t began and a shadow that learned t's scores."""
    data = phishing(240)
    size = 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=TrainThenCalibrate(n_arms=3), batch_size=size, warmup=0,
        reward_examples=size,
    )
    raw, live = booster(), model.calibrator_.clone()
    boosters, before, shadows = [], [], []
    for i, (x, y) in enumerate(data):
        t = i // size
        if i % size == 0:
            boosters.append(pickle.loads(pickle.dumps(raw)))
            before.append(pickle.loads(pickle.dumps(live)))
            shadows.append(pickle.loads(pickle.dumps(live)))
        score = raw.score_one(x)
        if t % 2 == 0:  # "train": the shadow learns what the calibrator would have
            shadows[-1].learn_one(score, y)
        else:
            live.learn_one(score, y)
        model.learn_one(x, y)
        if t % 2 == 0:
            raw.learn_one(x, y)

    rounds = [r for r in model.trace if r["rewarded_arm"] == "train"]
    assert len(rounds) == len(data) // size // 2
    for record in rounds:
        t = record["rewarded_batch"]
        batch = data[(t + 1) * size : (t + 2) * size]
        b0, b1, c0, c1 = boosters[t], boosters[t + 1], before[t], shadows[t]
        assert (c0.n_seen > 0) == (t > 0)  # the live calibrator learned minibatches t - 1, ...
        assert_four_models(record, batch, b0, b1, c0, c1)
    assert any(abs(r["improvements"]["train"]) > 1e-4 for r in rounds)


def test_a_both_minibatch_scores_every_arm_against_the_live_calibrator():
    """The action "both": the calibrator that learned minibatch t is the live one, so the four
    models on minibatch t + 1 are (booster t or t + 1) x (calibrator t or t + 1), both replayed
    by hand with a booster and a calibrator that learn every example, the calibrator first."""
    data = phishing(200)
    size = 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=2), batch_size=size, warmup=0,
        reward_examples=size,
    )
    raw, calibrator = booster(), model.calibrator_.clone()
    boosters, calibrators = [], []
    for i, (x, y) in enumerate(data):
        if i % size == 0:
            boosters.append(pickle.loads(pickle.dumps(raw)))
            calibrators.append(pickle.loads(pickle.dumps(calibrator)))
        calibrator.learn_one(raw.score_one(x), y)
        model.learn_one(x, y)
        raw.learn_one(x, y)

    rounds = [r for r in model.trace if r["improvements"] is not None]
    assert len(rounds) == len(data) // size - 1 and rounds[0]["rewarded_arm"] == "both"
    for t, record in enumerate(rounds):
        batch = data[(t + 1) * size : (t + 2) * size]
        b0, b1, c0, c1 = boosters[t], boosters[t + 1], calibrators[t], calibrators[t + 1]
        assert_four_models(record, batch, b0, b1, c0, c1)


def test_without_counterfactuals_only_the_action_is_scored():
    model, rounds = rewarded_rounds(
        400, policy="ucb1", batch_size=10, warmup=2, counterfactual=False, seed=1
    )
    assert rounds and all(list(r["rewards"]) == [r["rewarded_arm"]] for r in rounds)
    assert sum(model.policy_.counts) == model.policy_.n_rounds == len(rounds)


def test_a_calibrate_minibatch_reveals_only_its_own_reward():
    model, rounds = rewarded_rounds(
        300, policy=_MeasuredEveryOther(n_arms=3), batch_size=10, warmup=0
    )
    observed = {r["rewarded_arm"]: set(r["rewards"]) for r in rounds}
    assert observed == {"train": {"train", "calibrate", "both"}, "calibrate": {"calibrate"}}
    counts = model.policy_.counts  # train, calibrate, both: the calibrate arm is seen every round
    assert counts[1] == model.policy_.n_rounds == len(rounds) and counts[0] == counts[2]


class _MeasuredEveryOther(bandits.EveryNth):
    uses_rewards = True

    def __init__(self, n_arms: int = 3, seed: int | None = None):
        super().__init__(n_arms=n_arms, n=2, seed=seed)


def test_policies_without_side_observations_get_the_pulled_arm_only():
    _, rounds = rewarded_rounds(300, policy="exp3", batch_size=10, warmup=1, seed=0)
    assert rounds and all(len(r["rewards"]) == 1 for r in rounds)


def test_counterfactual_calibrator_never_reaches_the_predictions():
    """The copy of the calibrator that learns "train" minibatches is only scored, never used."""
    models = [
        BanditCalibratedClassifier(
            model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=10, warmup=0,
            counterfactual=flag,
        )
        for flag in (True, False)
    ]  # fmt: skip
    raw = booster()
    for x, y in phishing(300):
        probas = {m.predict_proba_one(x)[True] for m in models}
        assert probas == {raw.score_one(x)}
        for m in models:
            m.learn_one(x, y)
        raw.learn_one(x, y)
    assert models[0].calibrator_.n_seen == 0


def test_the_logistic_map_standardises_by_the_running_rms_then_squashes():
    def logistic(z):
        return 1 / (1 + math.exp(-z))

    def meter():
        return PairedReward("log-likelihood", smoothing=0.5, sample=(0,), mapping="logistic")

    bounded, unit = meter(), (0.0, 1.0)
    assert bounded._rewards([0.02], unit) == pytest.approx([logistic(1)])  # scale^2 = 4e-4
    # scale^2 = (4e-4 + 36e-4) / 2 = 2e-3, z = -0.06 / sqrt(2e-3)
    assert bounded._rewards([-0.06], unit) == pytest.approx([logistic(-0.06 / math.sqrt(2e-3))])
    assert bounded._rewards([0.0], unit) == [0.5]
    # A round of several arms: one scale (the round's mean square) for all, so they compare.
    assert meter()._rewards([0.03, -0.01, 0.0], unit) == pytest.approx(
        [logistic(0.03 / math.sqrt(1e-3 / 3)), logistic(-0.01 / math.sqrt(1e-3 / 3)), 0.5]
    )
    assert meter()._rewards([0.02], (-1.0, 3.0)) == pytest.approx([-1.0 + 4.0 * logistic(1)])


def test_the_affine_map_uses_the_losss_bound_or_the_earlier_rounds_scale():
    brier = PairedReward("brier", smoothing=0.5, sample=(0,))
    assert brier._rewards([0.02, -0.5, 1.0], (0.0, 1.0)) == pytest.approx([0.51, 0.25, 1.0])
    assert brier._rewards([0.02], (-1.0, 3.0)) == pytest.approx([1.04])
    # clipped into the range (past the bound by rounding, or a NaN: the range's low end)
    assert brier._rewards([1.0 + 1e-9, -1.0 - 1e-9, math.nan], (0.0, 1.0)) == [1.0, 0.0, 0.0]
    bound = -math.log(1e-15)  # the log-loss of a probability clipped at 1e-15
    log = PairedReward("log-likelihood", smoothing=0.5, sample=(0,))
    assert log._rewards([-bound, bound], (0.0, 1.0)) == [0.0, 1.0]
    # any real accepted (Gaussian Thompson): over the RMS of the rounds before this one
    gaussian = BanditCalibratedClassifier(policy="gaussian-thompson")
    assert gaussian.policy_.reward_range is None
    free = PairedReward("brier", smoothing=0.5, sample=(0,))
    assert free._rewards([0.02], None) == pytest.approx([1.0])  # the first round: its own RMS
    assert free._rewards([0.5], None) == pytest.approx([0.5 / 0.02])  # not shrunk by itself
    with pytest.raises(ValueError, match=r"reward_map must be one of .*got 'squash'"):
        BanditCalibratedClassifier(reward_map="squash")


def test_the_running_scale_weighs_the_newest_round_by_the_smoothing():
    # smoothing w = 1/4 (w and 1 - w differ): scale^2 = 4e-4 after the first round, then
    # 3/4 * 4e-4 + 1/4 * 36e-4 = 1.2e-3 after the second, 3/4 * 1.2e-3 + 0 = 9e-4 after a third
    # of no change
    w = 0.25
    logistic = PairedReward("log-likelihood", smoothing=w, sample=(0,), mapping="logistic")
    free = PairedReward("log-likelihood", smoothing=w, sample=(0,))
    for meter in (logistic, free):
        for d in (0.02, -0.06, 0.0):
            meter._rewards([d], None if meter is free else (0.0, 1.0))
        assert meter.scale == pytest.approx(9e-4, rel=1e-12)
    # a map over any real divides by the scale of the rounds before: sqrt(9e-4) = 0.03
    assert free._rewards([0.06], None) == pytest.approx([2.0], rel=1e-12)
    # the logistic map, by the scale with this round: 3/4 * 9e-4 + 1/4 * 36e-4 = 1.575e-3
    z = 0.06 / math.sqrt(1.575e-3)
    assert logistic._rewards([0.06], (0.0, 1.0)) == pytest.approx([1 / (1 + math.exp(-z))])


def _heavy_tailed_rounds(n: int, seed: int) -> list[list[float]]:
    # What the intrusion streams showed: training gains a steady +0.059 per example; calibrating
    # loses a little on most minibatches and wins big on a few, +0.087 on average.
    rng = random.Random(seed)
    rounds = []
    for _ in range(n):
        calibrate = 1.65 if rng.random() < 0.06 else -0.013
        rounds.append([0.059 + rng.gauss(0.0, 0.01), calibrate + rng.gauss(0.0, 0.002)])
    return rounds


@pytest.mark.parametrize("policy", ["ucb1", "discounted-ucb", "kl-ucb", "gaussian-thompson"])
def test_the_affine_map_ranks_arms_by_their_mean_gain_on_heavy_tailed_gains(policy):
    rounds = _heavy_tailed_rounds(3_000, seed=5)
    gains = [sum(r[a] for r in rounds) / len(rounds) for a in (0, 1)]
    assert gains[1] > gains[0] + 0.02  # calibrating gains more on average
    rewards = {}
    for mapping in MAPPINGS:
        meter = PairedReward("log-likelihood", smoothing=0.05, sample=(0,), mapping=mapping)
        bandit = bandits.POLICIES[policy](n_arms=2, seed=0)
        for improvements in rounds:
            bandit.update_round(dict(enumerate(meter._rewards(improvements, bandit.reward_range))))
        rewards[mapping] = bandit.means
    # the logistic squash ranks training first (the failure it had on intrusion streams) ...
    assert rewards["logistic"][0] > rewards["logistic"][1]
    # ... the affine map keeps the order of the mean gains
    assert rewards["affine"][1] > rewards["affine"][0]


def test_rewards_stay_inside_the_policys_range():
    model, rounds = rewarded_rounds(600, policy="ucb1", batch_size=10, warmup=2, seed=1)
    low, high = model.policy_.reward_range
    assert rounds and all(low <= v <= high for r in rounds for v in r["rewards"].values())
    assert all(r["reward"] == r["rewards"][r["rewarded_arm"]] for r in rounds)
    assert all(r["improvement"] == r["improvements"][r["rewarded_arm"]] for r in rounds)
    # some rounds took an arm other than the first, whose improvement differs from it
    assert any(r["rewarded_arm"] != next(iter(r["improvements"]))
               and len(set(r["improvements"].values())) > 1 for r in rounds)
    assert sum(model.policy_.counts) == sum(len(r["rewards"]) for r in rounds)
    assert model.policy_.n_rounds == len(rounds)


def test_policy_instances_must_match_the_arms():
    with pytest.raises(ValueError, match="n_arms=2 but the controller has 3 arms"):
        BanditCalibratedClassifier(
            policy=bandits.UCB1(n_arms=2), arms=("train", "calibrate", "both")
        )
    model = BanditCalibratedClassifier(
        model=booster(),
        policy=bandits.DiscountedThompson(n_arms=3, seed=0),
        arms=("train", "calibrate", "both"),
        batch_size=10,
        warmup=1,
    )
    for x, y in phishing(300):
        model.learn_one(x, y)
    assert set(model.arm_counts) == {"train", "calibrate", "both"}
    assert sum(model.arm_counts.values()) == 30


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"policy": "sometimes"}, "unknown policy 'sometimes'"),
        ({"policy": "every-x"}, "every-N"),
        ({"batch_size": 0}, "batch_size must be an int >= 1, got 0"),
        ({"reward_start": -1}, "reward_start must be an int >= 0, got -1"),
        ({"reward_start": 2.5}, "reward_start must be an int >= 0, got 2.5"),
        ({"c_fp": -1.0}, "-1.0"),
        ({"reward": "accuracy"}, "reward must be one of"),
        *(({"reward_smoothing": bad}, rf"reward_smoothing must be in \(0, 1\], got {bad!r}")
          for bad in (0.0, 1.5, True, "0.1", float("nan"))),
        ({"arms": ("train", "train")}, "distinct"),
        ({"arms": ("both",)}, r"2 or 3 distinct names"),
        ({"policy": "every-4", "arms": ("calibrate", "train")},
         r"'every-4' needs 'calibrate' as arm 1"),
        ({"policy": "never", "arms": ("calibrate", "both")},
         r"policy 'never' needs the 'train' arm, got arms=\('calibrate', 'both'\)"),
        ({"rollback": "undo"},
         r"rollback must be 'auto' or one of \('copy', 'defer', 'holdout'\), got 'undo'"),
        ({"rollback": "holdout", "batch_size": 1}, r"batch_size must be >= 2, got 1"),
        ({"rollback": "holdout", "batch_size": 8, "reward_examples": 8},
         r"reward_examples must be < batch_size \(8\), got 8"),
        (
            {
                "model": OzaBoostClassifier(
                    linear_model.LogisticRegression(), pos_label="UP", neg_label="DOWN"
                )
            },
            "pos_label",
        ),
    ],
)
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        BanditCalibratedClassifier(**params)


def test_a_reward_smoothing_of_any_real_type_in_range_is_taken():
    for good in (1, 0.05, np.float32(0.5)):
        assert BanditCalibratedClassifier(reward_smoothing=good).reward_smoothing == good


@pytest.mark.parametrize("name", ["counterfactual", "reward_restart"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_a_flag_that_is_no_bool_is_a_type_error(name, value):
    # an int is refused too: 1 for True is a count passed where a flag was meant
    with pytest.raises(TypeError, match=f"^{name} must be True or False, got {value!r}$"):
        BanditCalibratedClassifier(**{name: value})


def test_a_rejected_label_leaves_the_model_unchanged():
    model = BanditCalibratedClassifier(model=booster(), batch_size=4, warmup=0, seed=0)
    for x, y in phishing(10):
        model.learn_one(x, y)
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="'maybe' is neither"):
        model.learn_one({"a": 1.0}, "maybe")
    with pytest.raises(ValueError, match="neither"):
        model.learn_many(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([True, 3]))
    assert pickle.dumps(model) == before


def test_costs_move_decisions_without_retraining():
    model = BanditCalibratedClassifier(model=booster(), policy="both", batch_size=10, warmup=0)
    data = phishing(400)
    for x, y in data:
        model.learn_one(x, y)
    xs = [x for x, _ in data]
    positives = {
        ratio: sum(model.predict_one(x, c_fp=1.0, c_fn=ratio) for x in xs)
        for ratio in (0.1, 1.0, 10.0)
    }
    assert positives[0.1] < positives[1.0] < positives[10.0]
    model.set_costs(c_fp=1.0, c_fn=10.0)
    assert sum(model.predict_one(x) for x in xs) == positives[10.0]


def test_schedules_measure_no_reward_and_keep_no_snapshot():
    model = BanditCalibratedClassifier(model=booster(), policy="every-3", batch_size=5, warmup=1)
    for x, y in phishing(100):
        model.predict_proba_one(x)
        model.learn_one(x, y)
        assert model._meter._model_start is None and model._meter._round is None
    assert all(r["reward"] is None for r in model.trace)


def test_trace_is_bounded():
    model = BanditCalibratedClassifier(model=booster(), batch_size=2, trace_size=5, warmup=0)
    for x, y in phishing(100):
        model.learn_one(x, y)
    assert model.n_batches == 50
    assert len(model.trace) == 5
    assert model.last_batch is model.trace[-1]


@pytest.mark.parametrize("policy", ["discounted-ucb", "sliding-window-ucb", "both"])
def test_memory_stays_flat_as_the_stream_grows(policy):
    """The whole state (booster, calibrator, snapshots, policy, bounded trace) has a fixed size:
    its pickle after 3,750 examples is no bigger than after 1,250, give or take a few floats."""
    model = BanditCalibratedClassifier(
        model=booster(), policy=policy, batch_size=2, trace_size=20, warmup=1, seed=0
    )
    data = phishing(1250)
    sizes = []
    for _ in range(3):
        for x, y in data:
            model.predict_proba_one(x)
            model.learn_one(x, y)
        sizes.append(len(pickle.dumps(model)))
    assert model.n_batches == 1875
    assert model.policy_.n_rounds > 500 or not model.policy_.uses_rewards  # past SW-UCB's window
    assert sizes[2] <= sizes[0] * 1.02, sizes


def frame(chunk: list[tuple[dict, bool]]) -> tuple[pd.DataFrame, pd.Series]:
    return pd.DataFrame([x for x, _ in chunk]), pd.Series([y for _, y in chunk])


def test_learn_many_is_a_learn_one_loop_for_a_model_without_minibatches():
    """A model that does not learn by minibatch (a Hoeffding tree) learns a frame row by row:
    same arms, same rewards, same probabilities as examples one by one (a bandit with
    counterfactual rewards, so every path is used)."""
    data = phishing(400)
    params = {"policy": "discounted-ucb", "batch_size": 16, "warmup": 2, "seed": 5}
    one, many = (BanditCalibratedClassifier(model=tree.HoeffdingTreeClassifier(), **params)
                 for _ in range(2))
    for x, y in data:
        one.learn_one(x, y)
    for start in range(0, len(data), 50):  # chunks that do not align with the minibatches
        many.learn_many(*frame(data[start : start + 50]))
    assert one.arm_counts == many.arm_counts and list(one.trace) == list(many.trace)
    assert sum(r["rewards"] is not None and len(r["rewards"]) == 3 for r in one.trace) > 5
    p = many.predict_proba_many(frame(data[:20])[0])[True].tolist()
    assert p == pytest.approx([one.predict_proba_one(x)[True] for x, _ in data[:20]], abs=1e-15)


@pytest.mark.parametrize("make", [booster, linear_model.LogisticRegression])
def test_learn_many_with_both_is_the_calibrated_classifiers(make):
    """By minibatch, `"both"` is `CalibratedClassifier.learn_many` on each minibatch: the
    calibrator learns the scores of the model as the minibatch began, then the model learns
    the frame with its own `learn_many` (bit for bit)."""
    from streamboost import CalibratedClassifier

    data = phishing(320)
    model = BanditCalibratedClassifier(model=make(), policy="both", batch_size=16, warmup=0)
    reference = CalibratedClassifier(make())
    for start in range(0, len(data), 64):  # four minibatches a frame
        model.learn_many(*frame(data[start : start + 64]))
        for at in range(start, start + 64, 16):
            reference.learn_many(*frame(data[at : at + 16]))
    X = frame(data[:40])[0]
    assert model.n_batches == 20 and model.arm_counts["both"] == 20
    assert model.predict_proba_many(X).equals(reference.predict_proba_many(X))
    assert model.predict_many(X, c_fn=3.0).equals(reference.predict_many(X, c_fn=3.0))


def test_rewards_by_minibatch_are_the_paired_improvements_on_the_next_minibatch():
    """As `learn_one`'s rounds (`assert_train_rounds`), with the scores of the booster as each
    minibatch began and a booster that learns each minibatch with `learn_many`."""
    from streamboost.scores import frame_scores

    data, size = phishing(200), 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=0,
        reward_examples=size,
    )
    raw, snapshots, calibrators = booster(), [], []
    for start in range(0, len(data), size):
        X, y = frame(data[start : start + size])
        snapshots.append(pickle.loads(pickle.dumps(raw)))
        calibrators.append(model.calibrator_.clone())
        calibrators[-1].learn_many(frame_scores(raw, X, True)[0].tolist(), y.tolist())
        model.learn_many(X, y)
        raw.learn_many(X, y)
    rounds = [r for r in model.trace if r["improvements"] is not None]
    assert len(rounds) == len(data) // size - 1
    assert_train_rounds(rounds, data, size, snapshots, calibrators)


@pytest.mark.parametrize("examples", [None, 5])
@pytest.mark.parametrize("weak", [False, True])
def test_rounds_by_minibatch_score_the_frames_matrix_as_the_dicts(weak, examples, monkeypatch):
    """By minibatch the frozen copies score a round from the matrix the booster made of the
    frame (`PairedReward.lend`), converting no dict (the recorded rows are `LazyRecords`): the
    rewards equal, bit for bit, those of the same controller converting the recorded dicts;
    with a feature that appears mid-stream, and with decision stumps, whose missing cells stay
    missing; scoring every row or a sample of 5 (picked from the frame unconverted)."""
    from streamboost.weak import DecisionStump

    data = phishing(480)
    for i, (x, _) in enumerate(data):
        if i >= 200:
            x["late"] = float(i % 7)  # a column the first frames do not have
        if weak and i % 5 == 0:
            del x[next(iter(x))]  # a missing cell
    frames = [frame(data[i : i + 16]) for i in range(0, len(data), 16)]

    def run(lending: bool) -> list:
        member = DecisionStump() if weak else linear_model.LogisticRegression()
        # Newton-sized steps (the name's beside a vote until 0.8.53): this run then spends
        # minibatches on "calibrate", whose lending is checked below
        model = BanditCalibratedClassifier(
            model=OzaBoostClassifier(member, n_models=5, seed=3), policy="discounted-ucb",
            calibrator=OnlinePlattCalibrator(gamma=1.0, eps=0.5 / 6), batch_size=16, warmup=1,
            reward_examples=examples, seed=0)
        with monkeypatch.context() as patch:
            if not lending:
                patch.setattr(PairedReward, "lend", lambda self, table: None)
            converted, kind = [], type(model.model_._members)  # weak members have their own
            rows = kind.rows
            patch.setattr(kind, "rows", lambda self, xs: (converted.append(len(xs)),
                                                          rows(self, xs))[1])
            made, dicts = [], validation._dicts  # the recorded rows made into dicts
            patch.setattr(validation, "_dicts", lambda keys, values: (made.append(len(values)),
                                                                      dicts(keys, values))[1])
            for X, y in frames:
                model.predict_proba_many(X)
                model.learn_many(X, y)
        rounds = [r["improvements"] for r in model.trace if r["improvements"]]
        # the dicts are made only where they are read (once for two copies)
        assert 0 < len(made) <= len(converted) or made == converted == []
        return rounds, converted, model.arm_counts

    lent, converted_lending, arms = run(True)
    dicts, converted, _ = run(False)
    assert lent == dicts and len(lent) > 20 and arms["train"] + arms["both"] > 20
    # lending, no dict is converted (a minibatch that calibrates lends its matrix to the
    # round's earlier copy) but once with stumps: their copy from before the late column
    # cannot score a matrix that has it (linear members read a prefix of its columns)
    assert arms["calibrate"] > 0
    assert len(converted_lending) == (1 if weak else 0) < len(converted)


def test_a_frozen_copy_refuses_a_table_of_other_columns():
    from streamboost.scores import FrozenScorer, ScoredFrame

    model = booster()
    X = frame(phishing(8))[0]
    scored = ScoredFrame(model, X, True)
    model.learn_one({**phishing(9)[8][0], "new": 1.0}, True)  # a key met in between
    copy = FrozenScorer(model, True)
    xs = X.to_dict("records")
    copy.lend(xs, scored.table)
    assert copy._table[0] is not xs  # refused: the copy has a column the table lacks
    assert copy.scores(xs).tolist() == pytest.approx([model.score_one(x) for x in xs])


class Spy(OzaBoostClassifier):
    """A booster that records every example it learns, one by one or by minibatch."""

    def learn_one(self, x, y, **kwargs):
        self.seen.append(tuple(x.values()))
        super().learn_one(x, y, **kwargs)

    def _learn_many(self, X, y, table, **kwargs):  # learn_many's and `ScoredFrame`'s way in
        self.sizes.append(len(X))
        self.seen.extend(map(tuple, X.to_numpy().tolist()))
        super()._learn_many(X, y, table, **kwargs)


@pytest.mark.parametrize("rollback", ROLLBACKS)
@pytest.mark.parametrize("width", [16, 40, 53])
def test_learn_many_never_loses_or_repeats_an_example(rollback, width):
    """Frames of any width: the minibatches a frame holds whole are learned by minibatch, the
    rows around them one by one; once flushed the booster has learned each example of every
    minibatch that trains exactly once, and the calibrator those of every minibatch that
    calibrates; the minibatches fall where a `learn_one` loop puts them."""
    data, size = phishing(400), 16
    spy = Spy(linear_model.LogisticRegression(), n_models=5, seed=3)
    spy.seen, spy.sizes = [], []
    model = BanditCalibratedClassifier(
        model=spy, policy=MeasuredRandom(n_arms=3, seed=1), batch_size=size, warmup=1,
        rollback=rollback,
    )
    for start in range(0, len(data), width):
        model.learn_many(*frame(data[start : start + width]))
        assert (model.n_batches, model._in_batch) == divmod(min(start + width, len(data)), size)
    model.flush()
    arms = [r["arm"] for r in model.trace]
    trained = [tuple(x.values()) for i, (x, _) in enumerate(data) if arms[i // size] != "calibrate"]
    assert sorted(spy.seen) == sorted(trained)
    assert model.calibrator_.n_seen == sum(arms[i // size] != "train" for i in range(len(data)))
    whole = sum(
        (k * size) // width == (k * size + size - 1) // width for k in range(len(data) // size)
        if arms[k] != "calibrate")
    held = held_out(size, None) if rollback == "holdout" else 0  # learned one by one, last
    assert set(spy.sizes) <= {size, size - held}
    assert len(spy.sizes) == whole > 0


@pytest.mark.parametrize("weighted", [False, True])
def test_a_waiting_frame_is_a_copy_and_survives_a_checkpoint(weighted):
    """Rollback "defer" by minibatch: a frame that waits is learned as it was passed, even if
    the caller refills it meanwhile, with its rows' weights, and a pickled controller holding
    it goes on exactly as the one that was not pickled."""
    data, size = phishing(320), 16
    params = {"policy": MeasuredRandom(n_arms=3, seed=12), "batch_size": size, "warmup": 1,
              "rollback": "defer"}
    refilled, kept, plain = (BanditCalibratedClassifier(model=booster(), **params)
                             for _ in range(3))
    weights = {"w": [0.5 + i % 3 for i in range(size)]} if weighted else {}
    buffer = frame(data[:size])[0]
    for start in range(0, 160, size):
        X, y = frame(data[start : start + size])
        buffer.iloc[:, :] = X.to_numpy()  # one frame object, refilled for every minibatch
        refilled.learn_many(buffer, y, **weights)
        kept.learn_many(X, y, **weights)
        plain.learn_many(X, y)
    assert kept._waiting or kept._held  # a frame waits
    resumed = pickle.loads(pickle.dumps(kept))
    for start in range(160, len(data), size):
        for model in (refilled, kept, resumed, plain):
            model.learn_many(*frame(data[start : start + size]))
    X = frame(data[:40])[0]
    for model in (refilled, resumed):
        assert model.predict_proba_many(X).equals(kept.predict_proba_many(X))
        assert list(model.trace) == list(kept.trace)
    assert plain.predict_proba_many(X).equals(kept.predict_proba_many(X)) is not weighted


@pytest.mark.parametrize("make", [booster, linear_model.LogisticRegression])
def test_a_rejected_frame_changes_nothing(make):
    """A bad cell anywhere in a frame, even in a minibatch after whole ones, is refused before
    any row is learned or any arm drawn; so is a missing one for a model whose minibatch
    methods cannot take it (River's logistic regression)."""
    model = BanditCalibratedClassifier(model=make(), policy="discounted-ucb", batch_size=8,
                                       warmup=1, seed=0)
    model.learn_many(*frame(phishing(21)))
    before = pickle.dumps(model)
    X, y = frame(phishing(60)[21:])
    X.iloc[-1, 0] = float("inf")
    with pytest.raises(ValueError, match=r"row 38, column .* is inf"):
        model.learn_many(X, y)
    if make is linear_model.LogisticRegression:
        X.iloc[-1, 0] = float("nan")
        with pytest.raises(ValueError, match=r"row 38, column .* is missing \(NaN\)"):
            model.learn_many(X, y)
    assert pickle.dumps(model) == before
    model.learn_many(*frame(phishing(24)[21:]))  # at a boundary: a frame of one minibatch
    before = pickle.dumps(model)
    X, y = frame(phishing(32)[24:])
    X.iloc[-1, 0] = float("inf")
    with pytest.raises(ValueError, match=r"row 7, column .* is inf"):
        model.learn_many(X, y)
    assert pickle.dumps(model) == before


def test_arms_that_all_train_need_no_model_copy_and_compare_calibrators():
    """With arms train and both, the model is never copied; "train" earns exactly no
    improvement and "both" the calibrator's improvement on the live model's scores, replayed by
    hand."""
    data = phishing(200)
    size = 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=2, arm=0), arms=("train", "both"),
        batch_size=size, warmup=0,
    )
    raw = booster()
    calibrators, scores = [], []
    for i, (x, y) in enumerate(data):
        if i % size == 0:
            calibrators.append(model.calibrator_.clone())
        s = raw.score_one(x)
        scores.append(s)
        calibrators[-1].learn_one(s, y)
        model.learn_one(x, y)
        assert model._meter._model_start is None
        raw.learn_one(x, y)
    rounds = [r for r in model.trace if r["improvements"] is not None]
    assert len(rounds) == len(data) // size - 1
    for t, record in enumerate(rounds):
        batch = range((t + 1) * size, (t + 2) * size)
        calibrator = calibrators[t]
        both = sum(
            log_loss(scores[i], data[i][1])
            - log_loss(calibrator.predict_one(scores[i]), data[i][1])
            for i in batch
        ) / size
        assert record["improvements"]["train"] == 0.0
        assert record["improvements"]["both"] == pytest.approx(both, abs=1e-12)


@pytest.mark.parametrize("policy", ["both", "discounted-ucb", "glr-kl-ucb"])
def test_a_train_budget_caps_the_share_of_training_minibatches(policy):
    model = BanditCalibratedClassifier(
        policy=policy, batch_size=10, warmup=3, train_budget=0.3, seed=2
    )
    for x, y in list(datasets.Phishing())[:1000]:
        model.learn_one(x, y)
    arms = [r["arm"] for r in model.trace]
    assert arms[:3] == ["both"] * 3  # the warm-up (which calibrates too) is not counted
    trained = 0
    for n, arm in enumerate(arms[3:], start=1):
        trained += arm != "calibrate"
        assert trained <= 0.3 * n  # at every point of the stream
    if policy == "both":  # a schedule spends all of it, in evenly spaced minibatches
        assert trained == int(0.3 * len(arms[3:]))
        assert arms[3:13] == ["calibrate"] * 3 + ["both"] + ["calibrate"] * 2 + ["both"] + [
            "calibrate"] * 2 + ["both"]  # fmt: skip


def test_a_full_budget_changes_nothing_and_a_bad_one_is_refused():
    rows = list(datasets.Phishing())[:600]
    free = BanditCalibratedClassifier(policy="discounted-ucb", batch_size=8, warmup=2, seed=1)
    full = BanditCalibratedClassifier(
        policy="discounted-ucb", batch_size=8, warmup=2, seed=1, train_budget=1.0
    )
    for x, y in rows:
        assert free.predict_proba_one(x) == full.predict_proba_one(x)
        free.learn_one(x, y)
        full.learn_one(x, y)
    for bad in (0.0, 1.5, True, float("nan")):
        with pytest.raises(ValueError, match="train_budget must be None or in"):
            BanditCalibratedClassifier(train_budget=bad)
    with pytest.raises(ValueError, match="train_budget needs the 'calibrate' arm"):
        BanditCalibratedClassifier(policy="ucb1", arms=("train", "both"), train_budget=0.5)


@pytest.mark.parametrize("name", LOSSES)
def test_mean_losses_are_the_per_example_definitions_summed_exactly(name):
    rng = np.random.default_rng(0)
    n = 504
    p = np.concatenate([rng.random((3, n - 4)), [[0.0, 1.0, 0.25, 0.25]] * 3], axis=1)
    p[1, :50] = 1e-17  # clipped by the log-loss
    positive = np.concatenate([rng.random(n - 4) < 0.3, [True, False, True, False]]).tolist()
    threshold = np.concatenate([rng.random(n - 4), [0.5, 0.5, 0.25, 0.25]]).tolist()

    def loss(q, y, t):
        if name == "brier":
            return (q - y) ** 2
        if name == "log-likelihood":
            q = min(max(q, 1e-15), 1 - 1e-15)
            return -math.log(q if y else 1 - q)
        return 0.0 if (q > t) == y else (1 - t if y else t)  # c_FN or c_FP over their sum

    expected = [math.fsum(map(loss, row, positive, threshold)) / n for row in p.tolist()]
    got = mean_losses(name, p, positive, threshold if name == "expected-cost" else None)
    assert got == expected  # each example's loss, summed correctly rounded
    assert mean_losses(name, p[:, -4:], positive[-4:], threshold[-4:])[0] == pytest.approx(
        {"brier": (1 + 1 + 0.5625 + 0.0625) / 4,
         "log-likelihood": (-math.log(1e-15) - math.log(1 - (1 - 1e-15)) - math.log(0.25)
                            - math.log(0.75)) / 4,  # p = 1 is clipped to 1 - 1e-15 first
         "expected-cost": (0.5 + 0.5 + 0.75) / 4}[name], rel=1e-15)


def test_mean_losses_names_a_bad_loss_or_a_missing_threshold():
    p = np.array([[0.5, 0.7]])
    with pytest.raises(ValueError, match=r"loss must be one of .*got 'hinge'"):
        mean_losses("hinge", p, [True, False])
    with pytest.raises(ValueError, match="the expected cost needs each example's threshold"):
        mean_losses("expected-cost", p, [True, False])


def test_a_model_already_trained_keeps_what_it_learned():
    # "Calibrate the model you have": the controller used to clone its model, silently starting
    # a trained one over; it learns in place now, as CalibratedClassifier always did
    rows = list(itertools.islice(datasets.Phishing(), 300))
    trained = linear_model.LogisticRegression()
    for x, y in rows:
        trained.learn_one(x, y)
    x = rows[0][0]
    before = trained.predict_proba_one(x)[True]
    controller = BanditCalibratedClassifier(model=trained, policy="ucb1", seed=0)
    assert controller.model_ is trained
    assert controller.predict_proba_one(x)[True] == before != 0.5  # nothing calibrated yet
    controller.learn_one(x, rows[0][1])
    assert trained.predict_proba_one(x)[True] != before  # the model itself learned
    assert controller.clone().model_.predict_proba_one(x)[True] == 0.5  # a clone starts afresh


def test_a_huge_minibatch_costs_no_memory_up_front():
    # the reward's sample of a minibatch was a set of batch_size positions (10**7 of them: over
    # 500 MB before the first example; a billion exhausted the machine)
    import tracemalloc

    tracemalloc.start()
    controller = BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=10**7,
        warmup=0, seed=0,
    )
    for i in range(20):
        controller.learn_one({"a": float(i % 3)}, i % 2 == 0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10_000_000 and controller.n_batches == 0


# ------------------------------------------------------- rollback="defer": holding back, no copy


def test_defer_scores_the_states_a_copy_freezes_with_the_model_one_minibatch_behind():
    """Every minibatch measured and training: the booster learns minibatch t at the end of
    t + 1, so it predicts one minibatch behind. Replicated with an undeferred booster's states at
    each minibatch start (state j has learned minibatches 0..j-1): round t compares state t and
    state t + 1 on minibatch t + 1, as a copy would, and the calibrator learns minibatch t's
    scores from state t - 1, the model the controller ran then."""
    data, size = phishing(200), 20
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=0,
        reward_examples=size, rollback="defer",
    )
    raw, states = booster(), []
    for i, (x, y) in enumerate(data):
        if i % size == 0:
            states.append(pickle.loads(pickle.dumps(raw)))
        raw.learn_one(x, y)
    states.append(raw)
    n = len(data) // size
    calibrators = [model.calibrator_.clone() for _ in range(n)]
    for i, (x, y) in enumerate(data):
        running = states[max(i // size - 1, 0)]
        calibrators[i // size].learn_one(running.score_one(x), y)
        # the "train" arm: the live calibrator never learns, predictions are the lagging model's
        assert model.predict_proba_one(x)[True] == pytest.approx(running.score_one(x), abs=1e-12)
        model.learn_one(x, y)

    rounds = [r for r in model.trace if r["improvements"] is not None]
    assert len(rounds) == n - 1
    assert_train_rounds(rounds, data, size, states, calibrators)
    probe = [x for x, _ in data[:20]]
    held = [model.model_.score_one(x) for x in probe]
    assert held == pytest.approx([states[n - 1].score_one(x) for x in probe], abs=1e-12)
    model.flush()  # the last minibatch, held for a round the stream never scores
    assert [model.model_.score_one(x) for x in probe] == pytest.approx(
        [raw.score_one(x) for x in probe], abs=1e-12)


def test_defer_holds_back_only_a_measured_minibatch_until_the_next_ends():
    data, size = phishing(400), 10
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=2,
        reward_every=4, reward_start=0, rollback="defer",
    )
    raw, learned, probe = booster(), 0, [x for x, _ in data[:10]]
    for i, (x, y) in enumerate(data):
        model.learn_one(x, y)
        if (i + 1) % size:
            continue
        k = i // size  # the minibatch that just ended
        measured = k >= 2 and (k - 2) % 4 == 0
        for x_, y_ in data[learned : (k + (not measured)) * size]:
            raw.learn_one(x_, y_)
        learned = (k + (not measured)) * size
        assert [model.model_.score_one(p) for p in probe] == pytest.approx(
            [raw.score_one(p) for p in probe], abs=1e-12), k
    rewarded = [r["rewarded_batch"] for r in model.trace if r["rewards"] is not None]
    assert rewarded == list(range(2, 39, 4))


@pytest.mark.parametrize(("rollback", "rounds"), [("defer", 28), ("holdout", 29)])
def test_rolling_back_without_a_copy_never_copies_the_model(monkeypatch, rollback, rounds):
    import streamboost.reward

    def refuse(*args, **kwargs):
        raise AssertionError("the model was copied")

    monkeypatch.setattr(streamboost.reward, "FrozenScorer", refuse)
    rows = list(datasets.Phishing().take(300))

    def controller(rollback):
        return BanditCalibratedClassifier(
            model=tree.HoeffdingTreeClassifier(), policy="discounted-ucb", batch_size=10,
            warmup=1, rollback=rollback, seed=0,
        )

    model = controller(rollback)
    for x, y in rows:
        model.learn_one(x, y)
    # 29 measured minibatches after the warm-up; "defer" scores the last on one never seen
    assert sum(r["rewards"] is not None for r in model.trace) == rounds
    model = controller("copy")
    with pytest.raises(AssertionError, match="copied"):  # what "copy" does, refused
        for x, y in rows:
            model.learn_one(x, y)


@pytest.mark.parametrize(
    ("params", "rollback"),
    [({"policy": "every-3"}, "defer"), ({"policy": "both"}, "defer"),
     ({"policy": "discounted-ucb", "arms": ("train", "both")}, "defer"),  # model-free rewards
     ({"policy": "every-3"}, "holdout"), ({"policy": "both"}, "holdout")],
)
def test_rolling_back_changes_nothing_where_nothing_is_copied(params, rollback):
    _learn_alike([BanditCalibratedClassifier(model=booster(), batch_size=8, warmup=2, seed=1,
                                             rollback=rollback_, **params)
                  for rollback_ in ("copy", rollback)])


def _learn_alike(twins: list) -> None:
    """Both of `twins` predict every example alike and record the same rounds."""
    for x, y in phishing(400):
        assert len({m.predict_proba_one(x)[True] for m in twins}) == 1
        for m in twins:
            m.learn_one(x, y)
    assert list(twins[0].trace) == list(twins[1].trace)


def test_flush_teaches_what_waits_and_measuring_resumes():
    data = phishing(400)
    model = BanditCalibratedClassifier(model=booster(), policy=AlwaysTrain(n_arms=3, arm=2),
                                       batch_size=10, warmup=1, rollback="defer")
    raw = booster()
    for x, y in data[:205]:  # halfway through a minibatch whose examples wait
        model.learn_one(x, y)
        raw.learn_one(x, y)
    assert model._held and model._waiting and len(model._seen[0]) == 5
    model.flush()
    assert not model._held and not model._waiting and not model._meter.recording
    assert model._seen == ([], [], [], None, None)  # the examples of the dropped round are let go
    probe = [x for x, _ in data[:10]]
    assert [model.model_.score_one(p) for p in probe] == pytest.approx(
        [raw.score_one(p) for p in probe], abs=1e-12)
    for x, y in data[205:]:
        model.learn_one(x, y)
    assert model.trace[-1]["rewards"] is not None  # rounds measured again


def test_flush_changes_nothing_when_nothing_waits():
    twins = [BanditCalibratedClassifier(model=booster(), policy="discounted-ucb", batch_size=10,
                                        warmup=1, seed=2) for _ in range(2)]
    for i, (x, y) in enumerate(phishing(300)):
        if i == 155:
            twins[1].flush()  # rollback="copy" holds nothing: the round in progress is kept
        for m in twins:
            m.learn_one(x, y)
    assert list(twins[0].trace) == list(twins[1].trace)


@pytest.mark.parametrize("make", [booster, linear_model.LogisticRegression])
def test_a_score_kept_before_a_flush_is_not_reused_after_it(make):
    """`predict_proba_one(x)`, then `flush()` (the model learns what waited), then
    `learn_one(x)`: the calibrator learns the model's score of `x` after the flush, as for a
    controller that did not predict first; for any model, not only for our booster, whose
    members notice that they learned."""
    data = phishing(100)
    twins = [BanditCalibratedClassifier(model=make(), policy=MeasuredRandom(n_arms=3, seed=12),
                                        batch_size=8, warmup=1, rollback="defer")
             for _ in range(2)]
    for m in twins:
        for x, y in data[:44]:  # the last minibatches' training waits
            m.learn_one(x, y)
    x, y = data[44]
    twins[0].predict_proba_one(x)
    for m in twins:
        waiting = len(m._held) + len(m._waiting)
        m.flush()
        m.learn_one(x, y)
    assert waiting > 0 and twins[0].current_arm != "train"
    assert twins[0].calibrator_._theta == twins[1].calibrator_._theta


class MeasuredRandom(bandits.Random):
    uses_rewards = True  # measured like a bandit, arms drawn whatever the rewards


@settings(max_examples=25, deadline=None)
@given(
    batch_size=st.integers(1, 6), reward_every=st.integers(1, 4), warmup=st.integers(0, 3),
    n=st.integers(0, 90), flush_at=st.integers(0, 90), seed=st.integers(0, 10**6),
)
def test_defer_never_loses_repeats_or_reorders_a_training_example(
    batch_size, reward_every, warmup, n, flush_at, seed
):
    """Whatever the minibatches, budget, warm-up and arms, once flushed the deferring
    controller's booster equals one that learned the examples of every minibatch that trained,
    in stream order."""
    data = phishing(90)[:n]
    model = BanditCalibratedClassifier(
        model=booster(), policy=MeasuredRandom(n_arms=3, seed=seed), batch_size=batch_size,
        warmup=warmup, reward_every=reward_every, rollback="defer",
    )
    arms = []  # the arm of each example's minibatch
    for i, (x, y) in enumerate(data):
        if i == flush_at:
            model.flush()
        model.learn_one(x, y)
        arms.append(model.current_arm)  # the arm stays the minibatch's until the next starts
    model.flush()
    raw = booster()
    for (x, y), arm in zip(data, arms, strict=True):
        if arm != "calibrate":
            raw.learn_one(x, y)
    # Oza's counts record every example learned, with its Poisson draws; the weight matrices
    # may differ in width (scoring an example registers its features), so compare their scores
    assert list(model.model_._lambda_sc) == list(raw._lambda_sc)
    assert list(model.model_._lambda_sw) == list(raw._lambda_sw)
    probe = [x for x, _ in phishing(90)[::9]]
    assert [model.model_.score_one(p) for p in probe] == pytest.approx(
        [raw.score_one(p) for p in probe], abs=1e-12)
    assert not model._held and not model._waiting


# -------------------------------------------- rollback="holdout": scored on its own first examples


@pytest.mark.parametrize(
    ("arms", "taken"),
    [(("train", "calibrate", "both"), "train"),  # calibrate and both: a shadow calibrator's
     (("train", "calibrate", "both"), "both"),
     (("train", "both"), "both")],  # model-free: the model's part left out, never rescored
)
def test_holdout_scores_each_round_on_its_first_examples_learned_last(arms, taken):
    """Each minibatch is measured on its first `held` examples, which nothing learns until it
    ends: their prequential scores are the "before"; the booster that learned the rest, and the
    calibrator that learned their scores, the "after". Then the held examples are routed as if
    they had come last, with the scores the model gave them as the minibatch ended (whether
    or not the round needed them). Replayed by hand, prediction by prediction and round by
    round."""
    data, size, held = phishing(200), 20, 5
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=len(arms), arm=arms.index(taken)),
        arms=arms, batch_size=size, warmup=0, reward_examples=held, rollback="holdout",
    )
    arm = 2 if taken == "both" else 0
    raw, live = booster(), model.calibrator_.clone()
    for t in range(len(data) // size):
        batch = data[t * size : (t + 1) * size]
        head, rest = batch[:held], batch[held:]
        before = [raw.score_one(x) for x, _ in head]
        expected = [calibrated(live, s) for s in before]
        cal_before = pickle.loads(pickle.dumps(live))
        cal_after = live if arm == 2 else pickle.loads(pickle.dumps(live))  # "train": a shadow
        for x, y in rest:
            s = raw.score_one(x)
            expected.append(calibrated(live, s))
            cal_after.learn_one(s, y)
            raw.learn_one(x, y)
        end = [raw.score_one(x) for x, _ in head]  # the model as the minibatch ends
        after = end if len(arms) == 3 else before
        pairs = {"train": (cal_before, after), "calibrate": (cal_after, before),
                 "both": (cal_after, after)}
        pairs = {name: pairs[name] for name in arms}
        gains = {name: sum(log_loss(calibrated(cal_before, b), y) - log_loss(calibrated(c, s), y)
                           for b, s, (_, y) in zip(before, scores, head, strict=True)) / held
                 for name, (c, scores) in pairs.items()}
        for (x, y), s in zip(head, end, strict=True):  # learned last, with the round's scores
            if arm == 2:
                live.learn_one(s, y)
            raw.learn_one(x, y)
        got = []
        for x, y in batch:
            got.append(model.predict_proba_one(x)[True])
            model.learn_one(x, y)
        assert got == pytest.approx(expected, abs=1e-12)
        record = model.trace[-1]
        assert record["rewarded_batch"] == record["batch"] == t
        assert record["improvements"] == pytest.approx(gains, abs=1e-12)


def test_holdout_lags_only_the_held_examples_within_their_minibatch():
    data, size = phishing(300), 10
    model = BanditCalibratedClassifier(
        model=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=2,
        reward_every=4, reward_start=0, reward_examples=3, rollback="holdout",
    )
    raw, probe = booster(), [x for x, _ in data[:10]]
    for k in range(len(data) // size):
        batch = data[k * size : (k + 1) * size]
        measured = k >= 2 and (k - 2) % 4 == 0
        for x, y in batch[3:] + batch[:3] if measured else batch:
            raw.learn_one(x, y)
        for x, y in batch:
            model.learn_one(x, y)
        assert [model.model_.score_one(p) for p in probe] == pytest.approx(
            [raw.score_one(p) for p in probe], abs=1e-12), k
        assert not model._held_out
    rewarded = [r["rewarded_batch"] for r in model.trace if r["rewards"] is not None]
    assert rewarded == list(range(2, 30, 4))


class CountingTree(tree.HoeffdingTreeClassifier):
    """A Hoeffding tree that counts the examples it scores."""

    n_scored = 0

    def predict_proba_one(self, x, **kwargs):
        self.n_scored += 1
        return super().predict_proba_one(x, **kwargs)


@pytest.mark.parametrize(
    ("arms", "taken", "rescored"),
    [(("train", "calibrate", "both"), "train", True),
     (("train", "calibrate", "both"), "calibrate", True),
     (("train", "calibrate", "both"), "both", True),
     (("train", "both"), "train", False),  # model-free: neither the round nor "train" needs them
     (("train", "both"), "both", True)],  # the calibrator learns them
)
def test_holdout_scores_each_held_example_once_more(arms, taken, rescored):
    """A measured minibatch costs the model one more scoring per held example (the round's
    "after", which then routes it: before 0.8.15 each was scored again as it was routed), on top
    of the prequential one, and none where nothing needs it."""
    data, size, held = phishing(200), 20, 5
    model = BanditCalibratedClassifier(
        model=CountingTree(), policy=AlwaysTrain(n_arms=len(arms), arm=arms.index(taken)),
        arms=arms, batch_size=size, warmup=0, reward_examples=held, rollback="holdout",
    )
    for x, y in data:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    assert model.model_.n_scored == len(data) + rescored * held * len(data) // size
    assert model.calibrator_.n_seen == (0 if taken == "train" else len(data))


@settings(max_examples=25, deadline=None)
@given(
    batch_size=st.integers(2, 6), reward_every=st.integers(1, 4), warmup=st.integers(0, 3),
    reward_start=st.integers(0, 4), reward_examples=st.integers(1, 5), n=st.integers(0, 90),
    flush_at=st.integers(0, 90), seed=st.integers(0, 10**6),
)
def test_holdout_never_loses_or_repeats_an_example(
    batch_size, reward_every, warmup, reward_start, reward_examples, n, flush_at, seed
):
    """Whatever the minibatches, warm-up, sample and arms, the holding-out controller's booster
    equals one that learned every training minibatch's examples with the held ones moved to
    where the minibatch ends (or `flush` is called), and its calibrator learned every example
    of the minibatches that calibrate."""
    reward_examples = min(reward_examples, batch_size - 1)
    data = phishing(90)[:n]
    model = BanditCalibratedClassifier(
        model=booster(), policy=MeasuredRandom(n_arms=3, seed=seed), batch_size=batch_size,
        warmup=warmup, reward_every=reward_every, reward_start=reward_start,
        reward_examples=reward_examples, rollback="holdout", reward_restart=False,
    )
    order, pending, calibrated_ = [], [], 0
    for i, (x, y) in enumerate(data):
        if i == flush_at:
            model.flush()
            order, pending = order + pending, []
        model.learn_one(x, y)
        arm, (k, position) = model.current_arm, divmod(i, batch_size)
        after = k - warmup  # each of the first reward_start measured, then one in reward_every
        measured = after >= 0 and (after < reward_start
                                   or (after - reward_start) % reward_every == 0)
        calibrated_ += arm != "train"
        example = [(x, y)] if arm != "calibrate" else []
        flushed = i - position < flush_at <= i  # since this minibatch began: its round dropped
        if measured and position < reward_examples and not flushed:
            pending += example  # held until the minibatch ends or a flush
        else:
            order += example
        if position == batch_size - 1:
            order, pending = order + pending, []
    model.flush()
    order += pending
    raw = booster()
    for x, y in order:
        raw.learn_one(x, y)
    assert list(model.model_._lambda_sc) == list(raw._lambda_sc)
    probe = [x for x, _ in phishing(90)[::9]]
    assert [model.model_.score_one(p) for p in probe] == pytest.approx(
        [raw.score_one(p) for p in probe], abs=1e-12)
    assert model.calibrator_.n_seen == calibrated_
    assert not model._held_out


class FlagAt(rbase.DriftDetector):
    """A detector that flags a change at its `at`-th update and keeps what it is fed."""

    def __init__(self, at: int = 0):
        super().__init__()
        self.at = at
        self.seen: list[float] = []

    def update(self, x):
        self.seen.append(x)
        self._drift_detected = len(self.seen) == self.at


def test_a_budget_reserve_saves_until_a_change_then_spends_the_saving():
    budget, reserve, size, warmup, at = 0.3, 0.5, 10, 3, 705  # the flag: in minibatch 70
    model = BanditCalibratedClassifier(
        policy="both", batch_size=size, warmup=warmup, train_budget=budget,
        budget_reserve=reserve, drift_detector=FlagAt(at), seed=2,
    )
    for x, y in phishing(1250):
        model.learn_one(x, y)
    arms = [r["arm"] for r in model.trace][warmup:]
    flagged = (at - 1) // size - warmup  # the minibatch (after the warm-up) holding the flag
    trained = 0
    for n, arm in enumerate(arms, start=1):
        trained += arm != "calibrate"
        assert trained <= budget * n  # the budget holds at every point
        if n <= flagged + 1:  # saving: at most the reserve's complement of the budget
            assert trained <= (1 - reserve) * budget * n
    assert model.n_drifts == 1
    saved = int((1 - reserve) * budget * (flagged + 1))
    assert arms[: flagged + 1].count("both") == saved  # a schedule trains all it may
    # from the next minibatch on, every one trains until the budget's own pace is met ...
    first = flagged + 1
    met = next(i for i in range(first, len(arms)) if saved + (i - first) + 1 > budget * (i + 1))
    assert met - first > 5 and met + 5 <= len(arms)
    assert arms[first:met] == ["both"] * (met - first)
    # ... then it saves again from there, at half the pace: no gap while the whole stream's
    # pace catches up (that would leave the model untrained for about as long again)
    for j in range(met, len(arms)):
        assert arms[met + 1 : j + 1].count("both") == int((1 - reserve) * budget * (j - met))
    assert arms[met + 1 :].count("both") >= 5


def test_the_detector_is_fed_the_models_prequential_error():
    model = BanditCalibratedClassifier(
        batch_size=8, warmup=2, train_budget=0.5, budget_reserve=0.25, drift_detector=FlagAt(),
        seed=1,
    )
    expected = []
    for x, y in phishing(300):
        score = model.model_.predict_proba_one(x).get(True, 0.5)
        expected.append(float((score > 0.5) != y))
        model.learn_one(x, y)
    assert model._detector.seen == expected
    assert 0 < sum(expected) < len(expected)
    assert model.drift_detector.seen == []  # the controller's detector is a clone
    # a binary detector (River's DDM) takes the same errors, as bools
    binary = BanditCalibratedClassifier(
        batch_size=8, warmup=2, train_budget=0.5, budget_reserve=0.25,
        drift_detector=drift.binary.DDM(), seed=1,
    )
    reference, flags = drift.binary.DDM(), 0
    for i, (x, y) in enumerate(phishing(1250)):
        y = y if i < 800 else not y  # the labels flip
        error = (binary.model_.predict_proba_one(x).get(True, 0.5) > 0.5) != y
        binary.learn_one(x, y)
        reference.update(error)
        flags += reference.drift_detected
    assert binary.n_drifts == flags > 0  # the label flip is flagged, as DDM alone flags it


def test_a_budget_reserve_by_minibatch_watches_every_row():
    rows = phishing(320)
    model = BanditCalibratedClassifier(
        batch_size=32, warmup=1, train_budget=0.5, budget_reserve=0.5,
        drift_detector=FlagAt(100), seed=1,
    )
    for i in range(0, len(rows), 32):
        X = pd.DataFrame([x for x, _ in rows[i : i + 32]])
        model.learn_many(X, pd.Series([y for _, y in rows[i : i + 32]]))
    assert len(model._detector.seen) == len(rows) and model.n_drifts == 1
    # saving, one minibatch in four after the warm-up may train (the 4th); the flag, in the
    # 3rd, lets the 5th and 6th train too (the budget's pace, 1/2, is met), then it saves again
    assert [r["arm"] for r in model.trace] == [
        "both", "calibrate", "calibrate", "calibrate", "both", "both", "both", "calibrate",
        "calibrate", "calibrate"]  # fmt: skip


def _measured_batches(model) -> list[int]:
    return [r["rewarded_batch"] for r in model.trace if r["reward"] is not None]


@pytest.mark.parametrize("at", [203, 300, 601])  # flags in minibatches 25, 37 and 75
def test_a_flagged_change_restarts_the_dense_measuring(at):
    size, warmup, start, every = 8, 2, 4, 8
    make = functools.partial(
        BanditCalibratedClassifier, model=linear_model.LogisticRegression(), policy="ucb1",
        batch_size=size, warmup=warmup, reward_every=every, reward_start=start, seed=0,
    )
    model, plain = make(drift_detector=FlagAt(at)), make(reward_restart=False)
    for x, y in phishing(800):
        model.learn_one(x, y)
        plain.learn_one(x, y)
    assert plain.drift_detector_ is None and model.n_drifts == 1
    flagged = (at - 1) // size  # the minibatch whose example flagged; dense from the next one
    dense = set(range(warmup, warmup + start)) | set(range(flagged + 1, flagged + 1 + start))
    # one in `every` from the end of the last dense stretch
    end = flagged + 1 + start
    thinned = {k for k in range(warmup + start, 99) if (k - warmup - start) % every == 0}
    expected = sorted(dense | {k for k in thinned if k < flagged + 1}
                      | set(range(end, 99, every)))
    assert _measured_batches(model) == [k for k in expected if k < model.n_batches - 1]
    first = set(range(warmup, warmup + start))
    assert _measured_batches(plain) == [k for k in sorted(first | thinned)
                                        if k < plain.n_batches - 1]


def test_a_restart_in_progress_survives_a_checkpoint(tmp_path):
    # saved in the dense stretch a flag opened, the loaded twin measures what the unsaved one
    # does, and flags again where it does (the detector's state travels too)
    make = functools.partial(
        BanditCalibratedClassifier, model=linear_model.LogisticRegression(), policy="ucb1",
        batch_size=8, warmup=2, reward_every=8, reward_start=4, seed=0,
    )
    rows = phishing(800)
    kept, saved = make(drift_detector=FlagAt(203)), make(drift_detector=FlagAt(203))
    for x, y in rows[:216]:  # the flag, in minibatch 25, opened minibatches 26-29; now in 27
        kept.learn_one(x, y)
        saved.learn_one(x, y)
    assert saved.n_drifts == 1 and saved._measures(27 - 2)
    resumed = BanditCalibratedClassifier.load(saved.save(tmp_path / "c.ckpt"))
    for x, y in rows[216:]:
        kept.learn_one(x, y)
        resumed.learn_one(x, y)
    assert _measured_batches(resumed) == _measured_batches(kept)
    assert resumed.policy_.n_rounds == kept.policy_.n_rounds and resumed.n_drifts == 1


def test_a_restart_needs_thinned_rewards_and_reads_the_detector_given():
    lr = linear_model.LogisticRegression
    thinned = BanditCalibratedClassifier(model=lr(), policy="discounted-ucb", reward_every=16)
    assert isinstance(thinned.drift_detector_, drift.ADWIN)  # the default detector
    for params in ({"reward_every": 1}, {"reward_every": 16, "reward_start": 0},
                   {"reward_every": 16, "reward_restart": False}, {"policy": "every-4"}):
        params = {"policy": "discounted-ucb", **params}
        model = BanditCalibratedClassifier(model=lr(), **params)
        assert model.drift_detector_ is None, params
        with pytest.raises(ValueError, match="drift_detector serves budget_reserve > 0, or "
                                             "reward_restart"):
            BanditCalibratedClassifier(model=lr(), drift_detector=FlagAt(), **params)
    ddm = BanditCalibratedClassifier(model=lr(), policy="discounted-ucb", reward_every=16,
                                     drift_detector=drift.binary.DDM())
    assert isinstance(ddm.drift_detector_, drift.binary.DDM)
    with pytest.raises(TypeError, match="reward_restart must be True or False, got 1"):
        BanditCalibratedClassifier(reward_restart=1)


def test_a_label_flip_restarts_the_dense_measuring_with_the_default_detector():
    # phishing replayed 6 times, its labels inverted from example 4,000: ADWIN on a Hoeffding
    # tree's prequential error flags it (a tree unlearns slowly), and the next 64 minibatches
    # are measured where one in 64 would measure one or two
    rows = [(x, y if i < 4000 else not y) for i, (x, y) in enumerate(phishing(1250) * 6)]
    measured = {}
    for restart in (True, False):
        model = BanditCalibratedClassifier(model=tree.HoeffdingTreeClassifier(),
                                           policy="discounted-ucb", reward_every=64,
                                           reward_restart=restart, seed=1)
        for x, y in rows:
            model.learn_one(x, y)
        measured[restart] = [k for k in _measured_batches(model) if k >= 4000 // 32]
        assert (model.n_drifts >= 1) if restart else model.drift_detector_ is None
    assert len(measured[False]) <= 2 and len(measured[True]) >= 64


def test_a_budget_reserve_is_checked_and_survives_a_pickle():
    with pytest.raises(ValueError, match="set train_budget"):
        BanditCalibratedClassifier(budget_reserve=0.1)
    for bad in (-0.1, 1.0, True, float("nan"), "0.1"):
        with pytest.raises(ValueError, match="budget_reserve must be a number in"):
            BanditCalibratedClassifier(train_budget=0.5, budget_reserve=bad)
    with pytest.raises(TypeError, match="drift_detector must be a River drift detector"):
        BanditCalibratedClassifier(train_budget=0.5, budget_reserve=0.1, drift_detector="adwin")
    with pytest.raises(ValueError, match="drift_detector serves budget_reserve > 0"):
        BanditCalibratedClassifier(train_budget=0.5, drift_detector=FlagAt())
    model = BanditCalibratedClassifier(batch_size=8, warmup=2, train_budget=0.3,
                                       budget_reserve=0.2, seed=3)  # fmt: skip
    _goes_on_alike_after_a_pickle(model, phishing(400), 150)


def _goes_on_alike_after_a_pickle(model, rows, at: int) -> list[str]:
    """Learn `rows[:at]`, pickle `model`, and check the copy predicts and routes as `model`
    does over the rest; the arms played."""
    for x, y in rows[:at]:
        model.learn_one(x, y)
    twin = pickle.loads(pickle.dumps(model))
    for x, y in rows[at:]:
        assert twin.predict_proba_one(x) == model.predict_proba_one(x)
        model.learn_one(x, y)
        twin.learn_one(x, y)
    arms = [r["arm"] for r in model.trace]
    assert [r["arm"] for r in twin.trace] == arms
    return arms


def test_a_rejected_example_feeds_the_detector_nothing():
    model = BanditCalibratedClassifier(
        batch_size=4, warmup=1, train_budget=0.5, budget_reserve=0.5, drift_detector=FlagAt(),
        seed=0,
    )
    rows = phishing(20)
    _rejects_a_nan_and_a_third_label(model, rows)
    assert len(model._detector.seen) == 10
    frame = pd.DataFrame([x for x, _ in rows[10:18]])
    frame.iloc[5, 2] = float("inf")
    with pytest.raises(ValueError):
        model.learn_many(frame, pd.Series([y for _, y in rows[10:18]]))
    assert len(model._detector.seen) == 10


def _vote_booster() -> OzaBoostClassifier:
    """The controller's default model until 0.8.51, whose score is the members' vote."""
    return OzaBoostClassifier(linear_model.LogisticRegression(), seed=1)


def _timed_run(rows, budget=0.25, size=8, warmup=2, flip_at=None):
    """A `budget_timing="loss"` controller ("both") over `rows` (labels flipped from `flip_at`),
    and each minibatch's mean Brier loss of the model's prequential score, read from the model
    before the controller learns each example."""
    # the booster's vote, the score the budget's timing was measured with (simulations/): the
    # default model's soft score ranks the minibatches with flatter losses
    model = BanditCalibratedClassifier(model=_vote_booster(), policy="both", batch_size=size,
                                       warmup=warmup, train_budget=budget,
                                       budget_timing="loss", seed=1)
    losses, current = [], []
    for i, (x, y) in enumerate(rows):
        y = y if flip_at is None or i < flip_at else not y
        score = model.model_.predict_proba_one(x).get(True, 0.5)
        current.append((score - y) ** 2)
        model.learn_one(x, y)
        if len(current) == size:
            losses.append(sum(current) / size)
            current = []
    return model, losses


def test_loss_timing_trains_after_the_minibatches_whose_loss_ranks_highest():
    budget, size, warmup = 0.25, 8, 2
    model, losses = _timed_run(phishing(1250), budget, size, warmup)
    arms = [r["arm"] for r in model.trace]
    assert arms[:warmup] == ["both"] * warmup  # the warm-up calibrates too (0.8.52)
    # the documented rule, restated: after the warm-up, minibatch k trains iff the budget can
    # pay and (fewer than 8 ranked losses, or more than 4 minibatches' budget unspent, or the
    # loss of minibatch k - 1 is at least the (1 - budget) quantile of the 64 before it)
    trained, by_loss, by_slack, saved = 0, 0, 0, 0
    for k in range(warmup, len(arms)):
        n = k - warmup + 1
        unspent = budget * n - trained
        ranked = losses[max(warmup, k - 1 - 64) : k - 1]  # the warm-up's losses are not ranked
        if trained + 1 > budget * n:
            expected = "calibrate"
        elif len(ranked) < 8 or unspent > 4:
            expected, by_slack = "both", by_slack + (len(ranked) >= 8)
        else:
            high = losses[k - 1] >= sorted(ranked)[int((1 - budget) * len(ranked))]
            expected = "both" if high else "calibrate"
            by_loss += high
            saved += not high
        assert arms[k] == expected, k
        trained += expected == "both"
        assert trained <= budget * n  # the budget holds at every point
    assert by_loss > 10 and by_slack > 0 and saved > 10  # every branch decided some minibatches
    # the trained minibatches follow higher losses than those the budget could have paid for
    after = [losses[k - 1] for k in range(warmup + 9, len(arms)) if arms[k] == "both"]
    skipped = [losses[k - 1] for k in range(warmup + 9, len(arms)) if arms[k] == "calibrate"]
    assert np.mean(after) > 1.2 * np.mean(skipped)


class _Half(rbase.Classifier):
    """A classifier that learns nothing and says 1/2: every minibatch's Brier loss is 1/4."""

    def learn_one(self, x, y):
        pass

    def predict_proba_one(self, x):
        return {False: 0.5, True: 0.5}


def test_loss_timing_trains_on_a_loss_equal_to_the_quantile():
    # "at least the quantile": where every minibatch's loss ties, each one the budget can pay
    # for trains, as even timing has it, rather than waiting for the slack
    arms = {}
    for timing in ("even", "loss"):
        model = BanditCalibratedClassifier(model=_Half(), policy="both", batch_size=8, warmup=2,
                                           train_budget=0.25, budget_timing=timing, seed=1)
        for x, y in phishing(800):
            model.learn_one(x, y)
        arms[timing] = [r["arm"] for r in model.trace]
    assert arms["loss"] == arms["even"]
    assert arms["loss"][12:].count("both") == 22  # a quarter of the 88 after the first 12


def test_loss_timing_spends_what_it_saved_once_the_loss_rises():
    budget, size, warmup, flip = 0.25, 8, 2, 800
    model, losses = _timed_run(phishing(1250), budget, size, warmup, flip_at=flip)
    arms = [r["arm"] for r in model.trace]
    trained = np.cumsum([a != "calibrate" for a in arms[warmup:]])  # after k + 1 minibatches
    first = flip // size + 1  # the first minibatch chosen after one holding flipped labels
    assert losses[first - 1] > 2 * np.mean(losses[first - 20 : first - 1])
    before = first - warmup - 1  # index of the minibatch before it, after the warm-up
    assert budget * (before + 1) - trained[before] > 0.5  # something was saved for it
    # the flip's losses rank highest: the saving is spent at once, minibatches in a row, which
    # an even pace of one in four never trains
    assert arms[first : first + 2] == ["both"] * 2
    even = BanditCalibratedClassifier(model=_vote_booster(), policy="both", batch_size=size,
                                      warmup=warmup, train_budget=budget, seed=1)
    for i, (x, y) in enumerate(phishing(1250)):
        even.learn_one(x, y if i < flip else not y)
    paced = "".join("b" if r["arm"] == "both" else "c" for r in even.trace)[warmup:]
    assert "bb" not in paced and paced.count("b") >= trained[-1]


def test_loss_timing_with_a_reserve_keeps_both_caps():
    budget, reserve, size, warmup, at = 0.3, 0.5, 8, 2, 705  # the flag: in minibatch 88
    model = BanditCalibratedClassifier(
        policy="both", batch_size=size, warmup=warmup, train_budget=budget,
        budget_reserve=reserve, budget_timing="loss", drift_detector=FlagAt(at), seed=2,
    )
    for x, y in phishing(1250):
        model.learn_one(x, y)
    arms = [r["arm"] for r in model.trace][warmup:]
    flagged = (at - 1) // size - warmup
    trained = 0
    for n, arm in enumerate(arms, start=1):
        trained += arm != "calibrate"
        assert trained <= budget * n  # the budget holds at every point
        if n <= flagged + 1:  # saving: the reserve's cap, which the timing spends within
            assert trained <= (1 - reserve) * budget * n
    assert model.n_drifts == 1
    # after the flag the saving is spent, within the timing: more than the budget's pace
    assert arms[flagged + 1 :].count("both") > budget * (len(arms) - flagged - 1)


def test_loss_timing_by_minibatch_ranks_the_frames_scores():
    rows, size = phishing(640), 32
    model = BanditCalibratedClassifier(policy="both", batch_size=size, warmup=1,
                                       train_budget=0.5, budget_timing="loss", seed=1)
    expected = []
    for i in range(0, len(rows), size):
        X = pd.DataFrame([x for x, _ in rows[i : i + size]])
        y = [yi for _, yi in rows[i : i + size]]
        scores = model.model_.predict_proba_many(X)[True].tolist()
        total = 0.0
        for score, label in zip(scores, y, strict=True):  # in order, on every Python version
            total += (score - label) ** 2
        expected.append(total / size)
        model.learn_many(X, pd.Series(y))
    # the last minibatch's loss is ranked when the next one begins; the warm-up's never
    assert list(model._budget.losses) == expected[1:-1]


def test_loss_timing_is_checked_and_survives_a_pickle():
    for bad in ("losses", "LOSS", None, 1):
        with pytest.raises(ValueError, match=r"budget_timing must be one of \('even', 'loss'\)"):
            BanditCalibratedClassifier(train_budget=0.5, budget_timing=bad)
    with pytest.raises(ValueError, match="budget_timing='loss' times the spending of a "
                                         "train_budget: set train_budget"):
        BanditCalibratedClassifier(budget_timing="loss")
    model = BanditCalibratedClassifier(batch_size=8, warmup=2, train_budget=0.3,
                                       budget_timing="loss", seed=3)
    # pickled mid-minibatch: its loss so far travels too
    assert "calibrate" in _goes_on_alike_after_a_pickle(model, phishing(600), 301)


def test_a_rejected_example_adds_no_loss():
    model = BanditCalibratedClassifier(batch_size=4, warmup=1, train_budget=0.5,
                                       budget_timing="loss", seed=0)
    state = _rejects_a_nan_and_a_third_label(
        model, phishing(20), lambda: (list(model._budget.losses), model._budget.loss_sum))
    assert state[0] == state[1] and state[0][1] > 0  # two examples into the third minibatch


def _rejects_a_nan_and_a_third_label(model, rows, state=lambda: None) -> tuple:
    """Learn `rows[:10]`, then check `model` rejects the 11th with a NaN feature and with a
    third label; `state()` read before and after the rejections."""
    for x, y in rows[:10]:
        model.learn_one(x, y)
    before = state()
    x = dict(rows[10][0])
    x[next(iter(x))] = float("nan")
    with pytest.raises(ValueError, match="is nan"):
        model.learn_one(x, True)
    with pytest.raises(ValueError, match="neither pos_label"):
        model.learn_one(rows[10][0], "maybe")
    return before, state()


def _tree() -> tree.HoeffdingTreeClassifier:
    return tree.HoeffdingTreeClassifier(grace_period=20, delta=0.01)  # splits within 300 rows


@pytest.mark.parametrize(
    ("model", "params", "expected"),
    [
        (_tree, {}, "holdout"),
        (lambda: forest.ARFClassifier(n_models=2, seed=1), {}, "holdout"),
        (lambda: OzaBoostClassifier(_tree(), n_models=2, seed=1), {}, "holdout"),  # its members
        (lambda: preprocessing.StandardScaler() | _tree(), {}, "holdout"),
        (_tree, {"reward_every": 16}, "holdout"),  # the first 64 minibatches are all measured
        (_tree, {"reward_every": 16, "reward_start": 0}, "copy"),  # copies 16 times rarer
        (_tree, {"batch_size": 1}, "copy"),  # nothing to hold out from
        (_tree, {"reward_examples": 32}, "copy"),  # the whole minibatch asked for
        (_tree, {"arms": ("train", "both")}, "copy"),  # model-free: nothing is copied anyway
        (_tree, {"rollback": "copy"}, "copy"),
        (linear_model.LogisticRegression, {}, "copy"),
        (booster, {}, "copy"),  # an array booster copies in the time of a few examples
        (lambda: None, {}, "copy"),  # the default booster
    ],
)
def test_auto_rollback_holds_out_where_a_copy_costs_far_more_than_a_minibatch(
    model, params, expected
):
    controller = BanditCalibratedClassifier(model=model(), policy="discounted-ucb", **params)
    assert controller.rollback == params.get("rollback", "auto")
    assert controller.rollback_ == expected


def _summed(x: dict) -> dict:
    return {"s": sum(v for v in x.values())}


def test_a_model_that_cannot_be_copied_is_held_out_or_deferred_never_copied():
    # copies pickle the model: a lambda in a pipeline failed at the first measured round
    def unpicklable():
        return compose.FuncTransformer(lambda x: _summed(x)) | linear_model.LogisticRegression()

    for params, expected in [({}, "holdout"), ({"reward_every": 16, "reward_start": 0}, "holdout"),
                             ({"batch_size": 1}, "defer"), ({"arms": ("train", "both")}, "copy")]:
        controller = BanditCalibratedClassifier(model=unpicklable(), policy="discounted-ucb",
                                                warmup=2, batch_size=params.pop("batch_size", 8),
                                                seed=1, **params)
        assert controller.rollback_ == expected
        for x, y in datasets.Phishing().take(200):
            controller.learn_one(x, y)
        assert controller.policy_.n_rounds > 0
    with pytest.raises(ValueError, match=r"rollback='copy' freezes copies of the model, and "
                                         r"Pipeline cannot be copied \(.*lambda"):
        BanditCalibratedClassifier(model=unpicklable(), policy="discounted-ucb", rollback="copy")
    named = compose.FuncTransformer(_summed) | linear_model.LogisticRegression()
    assert BanditCalibratedClassifier(model=named, policy="discounted-ucb").rollback_ == "copy"


@pytest.mark.parametrize("policy", ["both", "never", "every-4"])
def test_auto_rollback_of_a_schedule_names_no_holdout(policy):
    """A schedule measures nothing, so `"auto"` holds nothing out (nor copies anything)."""
    controller = BanditCalibratedClassifier(model=_tree(), policy=policy)
    assert controller.rollback_ == "copy"
    assert controller._meter.sample == range(32)


@pytest.mark.parametrize(("model", "stands_for"),
                         [(_tree, "holdout"), (linear_model.LogisticRegression, "copy")])
def test_auto_rollback_is_exactly_the_rollback_it_stands_for(model, stands_for):
    twins = [BanditCalibratedClassifier(model=model(), policy="discounted-ucb", batch_size=8,
                                        warmup=2, rollback=rollback, seed=1)
             for rollback in ("auto", stands_for)]
    _learn_alike(twins)
    assert any(record["rewards"] for record in twins[0].trace)  # rounds were measured


@settings(max_examples=60, deadline=None)
@given(batch_size=st.integers(1, 40), reward_examples=st.none() | st.integers(1, 50),
       reward_every=st.integers(1, 3), reward_start=st.integers(0, 2), tree_model=st.booleans(),
       arms=st.sampled_from([("train", "calibrate", "both"), ("train", "both")]))
def test_auto_rollback_never_picks_a_holdout_that_cannot_be(batch_size, reward_examples,
                                                            reward_every, reward_start,
                                                            tree_model, arms):
    controller = BanditCalibratedClassifier(
        model=_tree() if tree_model else linear_model.LogisticRegression(),
        policy="discounted-ucb", batch_size=batch_size, reward_examples=reward_examples,
        reward_every=reward_every, reward_start=reward_start, arms=arms,
    )  # an impossible holdout would raise here
    expected = (tree_model and (reward_every == 1 or reward_start > 0) and "calibrate" in arms
                and batch_size >= 2 and (reward_examples is None or reward_examples < batch_size))
    assert controller.rollback_ == ("holdout" if expected else "copy")


@pytest.mark.parametrize("kind", ["booster", "river"])
def test_a_caller_that_refills_its_dict_after_learning_changes_no_reward(kind):
    # The reward scores recorded examples at the next minibatch's end: it keeps its own copy of
    # a caller's dict (with array members, the scorer's copy, which no one changes).
    def make():
        model = booster() if kind == "booster" else linear_model.LogisticRegression()
        return BanditCalibratedClassifier(model=model, policy="discounted-ucb", batch_size=8,
                                          seed=0)

    fresh, refilled = make(), make()
    buffer: dict = {}
    for x, y in phishing(400):
        fresh.predict_proba_one(x)
        fresh.learn_one(x, y)
        buffer.clear()
        buffer.update(x)  # one dict object, refilled for every example
        refilled.predict_proba_one(buffer)
        refilled.learn_one(buffer, y)
        for key in buffer:
            buffer[key] = 1e3  # the caller reuses it before the round is scored
    assert refilled.n_batches == 50 and list(refilled.trace) == list(fresh.trace)
    assert any(r["rewards"] for r in fresh.trace)


@pytest.mark.parametrize(("sample", "n", "kept"), [
    ({0, 2, 5, 7}, 10, [0, 2, 5, 7]),  # reward_examples spread over the minibatch
    (range(3), 10, [0, 1, 2]),  # a prefix ("holdout", or a sample of the first examples)
    (range(10), 10, list(range(10))),  # every example
    (range(2, 9, 3), 10, [2, 5, 8]),  # any other range, by position
    # a minibatch shorter than the sample's reach (a frame's last rows): the positions in it
    ({0, 2, 5, 7}, 6, [0, 2, 5]),
    (range(2, 9, 3), 6, [2, 5]),
])
def test_the_meter_records_the_sampled_positions_with_each_examples_costs(sample, n, kept):
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.decision import cost_threshold

    calibrator = OnlinePlattCalibrator()
    meter = PairedReward("expected-cost", 0.05, sample, model_free=True)
    names = ("train", "both")
    meter.begin(True, 1, names, (0, 1), model=None, calibrator=calibrator)
    meter.end((0.0, 1.0))  # minibatch 0 measured: its round is scored on the next
    meter.begin(True, None, names, (), model=None, calibrator=calibrator)
    meter.observe([{"i": i} for i in range(n)], [i / 10 for i in range(n)],
                  [i % 2 == 0 for i in range(n)],
                  [cost_threshold(1.0 + i, 2.0) for i in range(n)],
                  [(3.0 + i) / 2 for i in range(n)])
    r = meter._round
    assert r.scores == [i / 10 for i in kept] and r.positives == [i % 2 == 0 for i in kept]
    assert r.thresholds == [cost_threshold(1.0 + i, 2.0) for i in kept]  # c_FP / (c_FP + c_FN)
    assert r.thresholds[0] == pytest.approx((1.0 + kept[0]) / (3.0 + kept[0]))
    assert r.stakes == [(3.0 + i) / 2 for i in kept]
    assert r.rows == []  # model-free: no model scores the examples again
    with pytest.raises(ValueError, match="cost threshold"):  # the realised cost needs them
        meter.observe([{}], [0.5], [True])
    with pytest.raises(ValueError, match="got 1 xs, 2 scores, 2 positives, 2 thresholds and "
                                         "no stakes"):
        meter.observe([{}], [0.5, 0.6], [True, False], [0.5, 0.5])
    with pytest.raises(ValueError, match="2 thresholds and 1 stakes"):
        meter.observe([{}, {}], [0.5, 0.6], [True, False], [0.5, 0.5], [1.0])
    assert len(r.scores) == len(kept)  # nothing recorded


_FROZEN_MODELS = {
    "logistic regression": linear_model.LogisticRegression,
    "scaler and logistic regression": lambda: (preprocessing.StandardScaler()
                                               | linear_model.LogisticRegression()),
    "scaler and booster": lambda: preprocessing.StandardScaler() | OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=3, seed=0),
}


@pytest.mark.parametrize("by_frames", [False, True])
@pytest.mark.parametrize("kind", sorted(_FROZEN_MODELS))
def test_a_frozen_models_rounds_are_the_snapshots_to_rounding(monkeypatch, kind, by_frames):
    # River's logistic regression is frozen as its weights (`scores.FrozenLogistic`), not
    # pickled, and after a scaler so is it or a booster (`scores.ScalerMap`): the rounds'
    # improvements must be the snapshot's to rounding, the arms the same, one at a time and
    # by frames (a frame's rows reach the frozen copy as dicts made when read)
    from streamboost import scores

    rows = list(itertools.islice(datasets.Phishing(), 1200))
    X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([label for _, label in rows])
    frozen = []  # whether each scoring copy was arrays (else a pickled snapshot)
    real = scores.FrozenScorer.scores
    monkeypatch.setattr(scores.FrozenScorer, "scores", lambda self, xs, like=None: (
        frozen.append(self.model is None) or real(self, xs, like)))

    def run() -> list[tuple]:
        model = BanditCalibratedClassifier(
            model=_FROZEN_MODELS[kind](), policy="discounted-ucb", batch_size=16, warmup=2,
            rollback="copy", seed=1)
        if by_frames:
            for at in range(0, len(X), 16):
                model.predict_proba_many(X.iloc[at : at + 16])
                model.learn_many(X.iloc[at : at + 16], y.iloc[at : at + 16])
        else:
            for x, label in rows:
                model.predict_proba_one(x)
                model.learn_one(x, label)
        return [(r["arm"], r.get("improvements")) for r in model.trace]

    as_arrays = run()
    assert len(frozen) > 60 and all(frozen)
    monkeypatch.setattr(scores, "_scaled", lambda model: (None, None))  # no frozen form
    frozen.clear()
    as_snapshots = run()
    assert len(frozen) > 60 and not any(frozen)
    assert [arm for arm, _ in as_arrays] == [arm for arm, _ in as_snapshots]
    rounds = [(a, b) for (_, a), (_, b) in zip(as_arrays, as_snapshots, strict=True) if a]
    assert len(rounds) > 60 and all(set(a) == set(b) == {"train", "calibrate", "both"}
                                    for a, b in rounds if len(a) == 3)
    for a, b in rounds:
        assert a.keys() == b.keys()
        assert [a[k] for k in a] == pytest.approx([b[k] for k in b], rel=0.0, abs=1e-12)


@pytest.mark.parametrize("kind", sorted(_FROZEN_MODELS))
def test_a_round_frozen_as_arrays_survives_a_checkpoint(tmp_path, kind):
    rows = list(itertools.islice(datasets.Phishing(), 600))
    model = BanditCalibratedClassifier(model=_FROZEN_MODELS[kind](), policy="discounted-ucb",
                                       batch_size=16, warmup=1, seed=1)
    for x, y in rows[:300]:
        model.learn_one(x, y)
    from streamboost import checkpoint

    cut = 300
    while model._meter._round is None or model._meter._round.model_before is None:
        model.learn_one(*rows[cut])  # on to a round whose model was copied
        cut += 1
    frozen = model._meter._round.model_before  # mid-round
    assert frozen.model is None and (kind == "logistic regression") == (
        frozen._scaler is None and (frozen._linear is None or frozen._linear.scaler is None))
    checkpoint.save(model, tmp_path / "model.ckpt")
    loaded = checkpoint.load(tmp_path / "model.ckpt")
    for x, y in rows[cut:]:
        assert loaded.predict_proba_one(x) == model.predict_proba_one(x)
        model.learn_one(x, y)
        loaded.learn_one(x, y)
    assert loaded.trace == model.trace and len(model.trace) == 600 // 16


@pytest.mark.parametrize("reward", ["expected-cost", "brier"])
@pytest.mark.parametrize("by_frames", [False, True])
def test_the_meter_gets_each_examples_cost_threshold_only_for_the_realised_cost(
        reward, by_frames, monkeypatch):
    seen = []
    real = PairedReward.observe
    monkeypatch.setattr(PairedReward, "observe", lambda self, xs, scores, positives,
                        thresholds=None, stakes=None: (
                            seen.append((len(xs), thresholds, stakes)),
                            real(self, xs, scores, positives, thresholds, stakes))[1])
    data = phishing(160)
    model = BanditCalibratedClassifier(model=linear_model.LogisticRegression(),
                                       policy="discounted-ucb", batch_size=16, warmup=1,
                                       reward=reward, c_fp=1.0, c_fn=3.0, seed=0)
    if by_frames:
        for i in range(0, len(data), 16):
            model.learn_many(*frame(data[i : i + 16]))
    else:
        for x, y in data:
            model.learn_one(x, y)
    assert len(seen) == 8  # minibatches 2-9 score the rounds of 1-8 (0 is the warm-up)
    for n, thresholds, stakes in seen:
        assert thresholds == ([0.25] * n if reward == "expected-cost" else None)
        assert stakes == ([2.0] * n if reward == "expected-cost" else None)  # (c_FP + c_FN) / 2


@pytest.mark.parametrize("policy", sorted(bandits.POLICIES))
def test_every_registered_policy_drives_the_controller(policy):
    # by its registry name, each bandit chooses, is rewarded within its range (or finitely, for
    # a policy that takes any real) and learns every measured round; a pickle mid-stream goes
    # on with the same predictions and arms
    model = BanditCalibratedClassifier(model=booster(), policy=policy, batch_size=8, warmup=2,
                                       seed=0)
    arms = _goes_on_alike_after_a_pickle(model, phishing(300), 157)
    assert sum(model.arm_counts.values()) == model.n_batches == len(arms) == 37
    rewarded = [r for r in model.trace if r["rewards"] is not None]
    bounds = model.policy_.reward_range
    if not model.policy_.uses_rewards:
        assert not rewarded and model.policy_.n_rounds == 0
        return
    assert model.policy_.n_rounds == len(rewarded) >= 30
    values = [v for r in rewarded for v in r["rewards"].values()]
    assert all(math.isfinite(v) and (bounds is None or bounds[0] <= v <= bounds[1])
               for v in values)


def test_the_registered_every_nth_is_the_bandit_of_that_name():
    # "every-nth" names a registered bandit (n = 2: arm 1 on every second selection), not the
    # schedule every-N with N = "nth", which 0.8.32 refused
    traces = {}
    for policy in ("every-nth", "every-2"):
        model = BanditCalibratedClassifier(model=booster(), policy=policy, batch_size=8,
                                           warmup=2, seed=0)
        for x, y in phishing(160):
            model.learn_one(x, y)
        traces[policy] = [r["arm"] for r in model.trace]
        assert type(model.policy_) is bandits.EveryNth and model.policy_.n == 2
    assert traces["every-nth"] == traces["every-2"] and "calibrate" in traces["every-2"]
    two = BanditCalibratedClassifier(policy="every-nth", arms=("train", "both"), seed=0)
    assert two.policy_.n_arms == 2  # the bandit's arm 1 is whatever the arms make it


@pytest.mark.parametrize("rollback", ["copy", "defer", "holdout"])
@pytest.mark.parametrize("arms", [("train", "calibrate", "both"), ("train", "both")])
def test_the_meters_kept_keeps_rows_is_always_the_one_its_rounds_give(rollback, arms):
    """`PairedReward.keeps_rows` is stored (read every example) rather than derived: after every
    step it equals what the rounds in progress give (`_keeping`), one by one and by frames, so
    a caller's dict is copied exactly when a frozen or deferred model will score it."""
    model = BanditCalibratedClassifier(model=linear_model.LogisticRegression(),
                                       policy="discounted-ucb", batch_size=8, warmup=1, seed=0,
                                       rollback=rollback, arms=arms, reward_every=3,
                                       reward_start=4)
    meter, data = model._meter, phishing(400)
    seen = set()
    for x, y in data[:300]:
        model.learn_one(x, y)
        assert meter.keeps_rows == meter._keeping()
        seen.add(meter.keeps_rows)
    frame = pd.DataFrame([x for x, _ in data[300:]])
    labels = pd.Series([y for _, y in data[300:]])
    for start in range(0, 100, 12):  # frames that end mid-minibatch
        model.learn_many(frame.iloc[start:start + 12], labels.iloc[start:start + 12])
        assert meter.keeps_rows == meter._keeping()
    assert seen == ({False} if arms == ("train", "both") or rollback == "holdout"
                    else {False, True})


def _costly(reward: str = "expected-cost", model=None, **params) -> BanditCalibratedClassifier:
    """A bandit rewarded by the realised cost, measuring every minibatch (counterfactual)."""
    return BanditCalibratedClassifier(model=booster() if model is None else model,
                                      policy="discounted-ucb", batch_size=8, warmup=1,
                                      reward=reward, c_fp=2.0, c_fn=1.0, seed=0, **params)


def _amounts(n: int) -> list[float]:
    return [0.5 + (i * 7919) % 97 for i in range(n)]


def _recorded(monkeypatch) -> list:
    """The cost columns (thresholds, stakes) of each minibatch the meter records."""
    seen, real = [], PairedReward.observe

    def observe(self, xs, scores, positives, thresholds=None, stakes=None):
        seen.append((thresholds, stakes))
        real(self, xs, scores, positives, thresholds, stakes)

    monkeypatch.setattr(PairedReward, "observe", observe)
    return seen


def test_costs_given_to_learn_one_are_what_the_realised_cost_reward_charges(monkeypatch):
    from streamboost.decision import cost_threshold

    data, amounts = phishing(200), _amounts(200)
    seen = _recorded(monkeypatch)
    model = _costly()
    for i, (x, y) in enumerate(data):
        model.learn_one(x, y, c_fn=amounts[i])  # c_fp: the controller's, 2
    # minibatch 0 is the warm-up; 1 is measured first, on minibatch 2 (examples 16-23)
    assert len(seen) == 200 // 8 - 2
    for at, (thresholds, stakes) in zip(range(16, 200, 8), seen, strict=True):
        assert thresholds == [cost_threshold(2.0, a) for a in amounts[at : at + 8]]
        assert stakes == [(2.0 + a) / 2 for a in amounts[at : at + 8]]
    # each example's own costs move the rewards; equal costs given per example move nothing
    plain, same = _costly(), _costly()
    for x, y in data:
        plain.learn_one(x, y)
        same.learn_one(x, y, c_fp=2.0, c_fn=1.0)
    assert [r["rewards"] for r in same.trace] == [r["rewards"] for r in plain.trace]
    assert [r["rewards"] for r in model.trace] != [r["rewards"] for r in plain.trace]


def test_a_rounds_realised_cost_weighs_each_example_by_what_is_at_stake():
    # two examples: a missed positive whose c_FN is 99 (c_FP 1) and a false alarm at c_FP 1,
    # c_FN 1; the realised cost over the total at stake is (99 + 1) / (100 + 2)
    p = np.array([[0.001, 0.9]])
    thresholds, stakes = [1 / (1 + 99.0), 0.5], [50.0, 1.0]
    assert mean_losses("expected-cost", p, [True, False], thresholds, stakes) == [
        pytest.approx(100 / 102, rel=1e-12)]
    # each example over its own total (what no stakes give): a missed fortune counts as a false
    # alarm on a trifle does
    assert mean_losses("expected-cost", p, [True, False], thresholds) == [
        pytest.approx((0.99 + 0.5) / 2, rel=1e-12)]
    # equal stakes weigh nothing: the same floats as none
    rows = np.array([[0.1, 0.7, 0.4], [0.6, 0.2, 0.9]])
    t = [0.3, 0.5, 0.8]
    assert mean_losses("expected-cost", rows, [True, False, True], t, [7.0] * 3) == (
        mean_losses("expected-cost", rows, [True, False, True], t))
    with pytest.raises(ValueError, match="stakes weigh the realised cost of each example"):
        mean_losses("brier", rows, [True, False, True], None, [1.0, 2.0, 3.0])


_COST = st.floats(1e-3, 1e6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_COST, _COST, st.floats(0.0, 1.0), st.booleans(), st.floats(0, 1)),
                min_size=1, max_size=40))
def test_a_rounds_realised_cost_is_its_cost_over_its_total_at_stake(examples):
    # straight from the costs: what each decision (positive iff p > c_FP / (c_FP + c_FN))
    # costs, over the sum of every example's c_FP + c_FN, for two rows of probabilities
    from streamboost.decision import cost_threshold

    c_fp, c_fn, p, positives, q = (list(column) for column in zip(*examples, strict=True))
    thresholds = [cost_threshold(a, b) for a, b in zip(c_fp, c_fn, strict=True)]
    stakes = [0.5 * a + 0.5 * b for a, b in zip(c_fp, c_fn, strict=True)]
    got = mean_losses("expected-cost", np.array([p, q]), positives, thresholds, stakes)
    total = math.fsum(a + b for a, b in zip(c_fp, c_fn, strict=True))
    for row, value in zip((p, q), got, strict=True):
        cost = math.fsum(
            (b if positive else a) if (pi > t) != positive else 0.0
            for a, b, pi, positive, t in zip(c_fp, c_fn, row, positives, thresholds, strict=True))
        assert value == pytest.approx(cost / total, rel=1e-9, abs=1e-12)
        assert 0.0 <= value <= 1.0


@pytest.mark.parametrize(("costs", "error", "match"), [
    ({"c_fn": 0.0}, ValueError, "c_fn must be finite and > 0, got 0.0"),
    ({"c_fp": float("nan")}, ValueError, "c_fp must be finite and > 0, got nan"),
    ({"c_fn": "5"}, TypeError, "c_fn must be a real number, got '5'"),
    ({"c_FN": 5.0}, TypeError, "learn_one got c_FN=5.0: the costs are the keywords c_fp and"),
])
def test_a_bad_cost_is_refused_before_anything_learns(costs, error, match):
    model = _costly()
    data = phishing(100)
    for x, y in data[:77]:
        model.learn_one(x, y, c_fn=3.0)
    before = pickle.dumps(model)
    with pytest.raises(error, match=match):
        model.learn_one(*data[77], **costs)
    assert pickle.dumps(model) == before


def test_learn_one_keeps_the_costs_from_the_model():
    got = []

    class Spy(linear_model.LogisticRegression):
        def learn_one(self, x, y, w=1.0):  # a cost would be a TypeError here
            got.append(w)
            super().learn_one(x, y, w)

    model = _costly(model=Spy())
    for x, y in phishing(40):
        model.learn_one(x, y, c_fp=3.0, c_fn=7.0, w=2.0)
    assert got and set(got) == {2.0}  # what the model took ("calibrate" minibatches: none)


@pytest.mark.parametrize("make", [booster, linear_model.LogisticRegression,
                                  tree.HoeffdingTreeClassifier],
                         ids=["booster", "river-lr", "tree"])
@pytest.mark.parametrize("size", [8, 12])
def test_learn_many_takes_a_cost_per_row_as_learn_one_does(make, size, monkeypatch):
    data, amounts = phishing(240), _amounts(240)
    seen = _recorded(monkeypatch)
    by_rows, by_frames = _costly(model=make()), _costly(model=make())
    for i, (x, y) in enumerate(data):
        by_rows.learn_one(x, y, c_fn=amounts[i])
    rows = list(seen)
    seen.clear()
    for i in range(0, len(data), size):
        X, y = frame(data[i : i + size])
        costs = pd.Series(amounts[i : i + size], index=X.index)  # a Series on X's index
        by_frames.learn_many(X, y, c_fp=2.0, c_fn=costs)
    # the same costs, row by row, in every minibatch recorded (held out, the tree's own too)
    assert seen == rows and len(rows) == 240 // 8 - (1 if make is tree.HoeffdingTreeClassifier
                                                      else 2)
    if make is tree.HoeffdingTreeClassifier:  # no minibatches: a learn_one loop, exactly
        assert [r["rewards"] for r in by_frames.trace] == [r["rewards"] for r in by_rows.trace]
    X, y = frame(data[:8])
    with pytest.raises(ValueError, match=r"c_fn\[2\] must be finite and > 0, got -1.0"):
        by_frames.learn_many(X, y, c_fn=[1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="the costs are given for 3 rows; X has 8"):
        by_frames.learn_many(X, y, c_fn=[1.0, 2.0, 3.0])


def test_the_default_model_is_a_soft_scored_booster_of_ten_logistic_regressions():
    # 0.8.51: the members' probabilities (score="soft"), the better score beside a calibrator;
    # the same predictions as that booster passed explicitly, and not the vote's
    rows = phishing(600)
    runs = []
    for model in (None,
                  OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=4,
                                     score="soft"),
                  OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=4)):
        controller = BanditCalibratedClassifier(model=model, policy="both", seed=4)
        probabilities = []
        for x, y in rows:
            probabilities.append(controller.predict_proba_one(x)[True])
            controller.learn_one(x, y)
        runs.append(probabilities)
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    assert BanditCalibratedClassifier().model_.score == "soft"


def test_a_frame_learned_as_a_minibatch_is_scored_afresh_after():
    # as CalibratedClassifier's (tests/test_calibrated.py): the kept scores go with the learning
    rows = phishing(64)
    X = pd.DataFrame([x for x, _ in rows])
    model = BanditCalibratedClassifier(model=booster(), policy="discounted-ucb", batch_size=64,
                                       warmup=0, seed=0)
    model.learn_many(X, pd.Series([y for _, y in rows]))
    assert model.predict_proba_many(X).equals(model.predict_proba_many(X.copy()))
