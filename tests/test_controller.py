"""Tests of BanditCalibratedClassifier: routing, the identity start, the paired reward, policies."""

from __future__ import annotations

import math
import pickle

import pandas as pd
import pytest
from river import checks, datasets, linear_model, preprocessing

from streamboost import (
    BanditCalibratedClassifier,
    OnlinePlattCalibrator,
    OzaBoostClassifier,
    bandits,
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
    model = BanditCalibratedClassifier(booster=booster(), policy="never", batch_size=8)
    raw = booster()
    for x, y in phishing(400):
        assert model.predict_proba_one(x) == raw.predict_proba_one(x)
        model.learn_one(x, y)
        raw.learn_one(x, y)
    assert model.calibrator_.n_seen == 0
    assert model.arm_counts == {"train": 50, "calibrate": 0, "both": 0}


def test_every_n_routes_whole_minibatches_to_the_calibrator():
    model = BanditCalibratedClassifier(
        booster=booster(), policy="every-4", batch_size=5, warmup=0
    )
    for x, y in phishing(80):
        model.learn_one(x, y)
    # 16 minibatches; rounds 4, 8, 12, 16 calibrate: 4 x 5 examples.
    assert model.arm_counts == {"train": 12, "calibrate": 4, "both": 0}
    assert model.calibrator_.n_seen == 20
    assert [r["arm"] for r in model.trace][:8] == ["train"] * 3 + ["calibrate"] + ["train"] * 3 + [
        "calibrate"
    ]


def test_warmup_trains_whatever_the_policy():
    model = BanditCalibratedClassifier(booster=booster(), policy="always", batch_size=4, warmup=3)
    for x, y in phishing(20):
        model.learn_one(x, y)
    assert model.arm_counts == {"train": 3, "calibrate": 2, "both": 0}
    assert model.calibrator_.n_seen == 8
    assert [r["reward"] for r in model.trace][:4] == [None] * 4  # no reward before batch 4 ends


def test_both_calibrates_on_the_score_before_the_booster_learns():
    data = phishing(300)
    model = BanditCalibratedClassifier(booster=booster(), policy="both", batch_size=10, warmup=0)
    # The controller's default calibrator for a 5-member vote score.
    raw, calibrator = booster(), OnlinePlattCalibrator(gamma=1.0, eps=0.5 / 6)
    for x, y in data:
        score = raw.score_one(x)
        expected = calibrator.predict_one(score) if calibrator.n_seen else score
        assert model.predict_proba_one(x)[True] == pytest.approx(expected, abs=1e-12)
        model.learn_one(x, y)
        calibrator.learn_one(score, y)
        raw.learn_one(x, y)
    assert model.arm_counts["both"] == 30
    assert model.calibrator_.n_seen == 300


def test_train_reward_is_the_paired_improvement_on_the_next_minibatch():
    """Replicate the reward of 'never' by hand: snapshots at each minibatch start, the loss of
    the older one minus the loss of the newer one on the next minibatch's examples."""
    data = phishing(200)
    size = 20

    class AlwaysTrain(bandits.Constant):
        uses_rewards = True  # measure the rewards that "never" would skip

    model = BanditCalibratedClassifier(
        booster=booster(), policy=AlwaysTrain(n_arms=3, arm=0), batch_size=size, warmup=0
    )
    raw = booster()
    snapshots = []
    for i, (x, y) in enumerate(data):
        if i % size == 0:
            snapshots.append(pickle.loads(pickle.dumps(raw)))
        model.learn_one(x, y)
        raw.learn_one(x, y)

    def log_loss(p, y):
        p = min(max(p, 1e-15), 1 - 1e-15)
        return -math.log(p if y else 1 - p)

    improvements = [r["improvement"] for r in model.trace if r["improvement"] is not None]
    assert len(improvements) == len(data) // size - 1
    for t, improvement in enumerate(improvements):
        batch = data[(t + 1) * size : (t + 2) * size]
        expected = sum(
            log_loss(snapshots[t].score_one(x), y) - log_loss(snapshots[t + 1].score_one(x), y)
            for x, y in batch
        ) / size
        assert improvement == pytest.approx(expected, abs=1e-12)


def test_rewards_are_standardised_by_the_running_rms_then_mapped_to_the_policys_range():
    bounded = BanditCalibratedClassifier(policy="ucb1", reward_smoothing=0.5)
    assert bounded._reward(0.02) == pytest.approx(1 / (1 + math.exp(-1)))  # scale^2 = 4e-4
    # scale^2 = (4e-4 + 36e-4) / 2 = 2e-3, z = -0.06 / sqrt(2e-3)
    assert bounded._reward(-0.06) == pytest.approx(1 / (1 + math.exp(0.06 / math.sqrt(2e-3))))
    assert bounded._reward(0.0) == 0.5
    gaussian = BanditCalibratedClassifier(policy="gaussian-thompson", reward_smoothing=0.5)
    assert gaussian.policy_.reward_range is None
    assert gaussian._reward(0.02) == pytest.approx(1.0)  # unbounded policies get z itself
    assert gaussian._reward(-0.06) == pytest.approx(-0.06 / math.sqrt(2e-3))


def test_rewards_stay_inside_the_policys_range():
    model = BanditCalibratedClassifier(
        booster=booster(), policy="ucb1", batch_size=10, warmup=2, seed=1
    )
    for x, y in phishing(600):
        model.learn_one(x, y)
    rewards = [r["reward"] for r in model.trace if r["reward"] is not None]
    low, high = model.policy_.reward_range
    assert rewards and all(low <= r <= high for r in rewards)
    assert sum(model.policy_.counts) == len(rewards)


def test_policy_instances_must_match_the_arms():
    with pytest.raises(ValueError, match="n_arms=2 but the controller has 3 arms"):
        BanditCalibratedClassifier(
            policy=bandits.UCB1(n_arms=2), arms=("train", "calibrate", "both")
        )
    model = BanditCalibratedClassifier(
        booster=booster(),
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
        ({"batch_size": 0}, "batch_size must be an integer >= 1, got 0"),
        ({"c_fp": -1.0}, "-1.0"),
        ({"reward": "accuracy"}, "reward must be one of"),
        ({"arms": ("train", "train")}, "distinct"),
        ({"booster": OzaBoostClassifier(linear_model.LogisticRegression(), pos_label="UP",
                                        neg_label="DOWN")}, "labels"),
    ],
)
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        BanditCalibratedClassifier(**params)


def test_a_rejected_label_leaves_the_model_unchanged():
    model = BanditCalibratedClassifier(booster=booster(), batch_size=4, warmup=0, seed=0)
    for x, y in phishing(10):
        model.learn_one(x, y)
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="'maybe' is neither"):
        model.learn_one({"a": 1.0}, "maybe")
    with pytest.raises(ValueError, match="neither"):
        model.learn_many(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([True, 3]))
    assert pickle.dumps(model) == before


def test_costs_move_decisions_without_retraining():
    model = BanditCalibratedClassifier(booster=booster(), policy="both", batch_size=10, warmup=0)
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
    model = BanditCalibratedClassifier(booster=booster(), policy="every-3", batch_size=5, warmup=1)
    for x, y in phishing(100):
        model.predict_proba_one(x)
        model.learn_one(x, y)
        assert model._booster_start is None and model._pending is None
    assert all(r["reward"] is None for r in model.trace)


def test_trace_is_bounded():
    model = BanditCalibratedClassifier(booster=booster(), batch_size=2, trace_size=5, warmup=0)
    for x, y in phishing(100):
        model.learn_one(x, y)
    assert model.n_batches == 50
    assert len(model.trace) == 5
    assert model.last_batch is model.trace[-1]
