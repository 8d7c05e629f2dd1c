"""Prequential runs: test-then-train order, metrics against hand computation, trace, controller."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import random

import pytest
from river import base, linear_model, preprocessing

from streamboost import evaluate, metrics
from streamboost.boosting import OzaBoostClassifier
from streamboost.controller import BanditCalibratedClassifier
from tests.test_controller import FlagAt


def _stream(n: int, seed: int = 0) -> list[tuple[dict, bool]]:
    """A noisy linear problem: y = (x0 + 0.5 x1 + noise > 0)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        x = {"a": rng.gauss(0, 1), "b": rng.gauss(0, 1)}
        rows.append((x, x["a"] + 0.5 * x["b"] + rng.gauss(0, 0.7) > 0))
    return rows


class _Memoriser(base.Classifier):
    """P(positive) = 1 for an x learned as positive, 0 learned as negative, 0.5 unseen."""

    def __init__(self):
        self.seen = {}

    def learn_one(self, x, y):
        self.seen[tuple(sorted(x.items()))] = y

    def predict_proba_one(self, x):
        y = self.seen.get(tuple(sorted(x.items())))
        p = 0.5 if y is None else float(y)
        return {False: 1.0 - p, True: p}


def test_every_prediction_comes_before_learning_the_example():
    # Unique examples: a memoriser never knows the one it is asked about, so p is always 0.5.
    result = evaluate.prequential(_Memoriser(), _stream(200))
    assert result.brier == pytest.approx(0.25)
    assert result.log_loss == pytest.approx(math.log(2))
    # A repeated stream: the second pass is predicted perfectly.
    twice = evaluate.prequential(_Memoriser(), _stream(100) * 2)
    assert twice.brier == pytest.approx(0.25 / 2)


def test_metrics_equal_a_hand_computed_loop():
    data = _stream(300)
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    reference = copy.deepcopy(model)
    result = evaluate.prequential(model, data, c_fp=1.0, c_fn=4.0)
    ps, ys = [], []
    for x, y in data:
        ps.append(reference.predict_proba_one(x)[True])
        ys.append(y)
        reference.learn_one(x, y)
    n = len(data)
    assert result.n == n
    assert result.brier == pytest.approx(sum((p - y) ** 2 for p, y in zip(ps, ys, strict=True)) / n)
    assert result.log_loss == pytest.approx(
        -sum(math.log(p if y else 1 - p) for p, y in zip(ps, ys, strict=True)) / n
    )
    # decisions: positive iff p > 1 / (1 + 4)
    cost = (
        sum(1.0 * (p > 0.2 and not y) + 4.0 * (p <= 0.2 and y) for p, y in zip(ps, ys, strict=True))
        / n
    )
    assert result.expected_cost == pytest.approx(cost)
    curve = metrics.BrierCurve()
    for p, y in zip(ps, ys, strict=True):
        curve.update(y, p)
    assert result.brier_curve_area == pytest.approx(curve.get())
    assert [pt["q"] for pt in result.brier_curve] == pytest.approx([pt.q for pt in curve.curve()])
    assert [pt["all_positive"] for pt in result.brier_curve] == pytest.approx(
        curve.reference_lines()["all_positive"]
    )


def test_final_window_describes_only_the_last_predictions():
    data = _stream(400)
    model = linear_model.LogisticRegression()
    reference = copy.deepcopy(model)
    result = evaluate.prequential(model, data, final_window=100, n_bins=5)
    tail = metrics.ExpectedCalibrationError(n_bins=5)
    whole = metrics.ExpectedCalibrationError(n_bins=5)
    for i, (x, y) in enumerate(data):
        p = reference.predict_proba_one(x)[True]
        whole.update(y, p)
        if i >= 300:
            tail.update(y, p)
        reference.learn_one(x, y)
    assert result.final_ece == pytest.approx(tail.get())
    assert result.ece == pytest.approx(whole.get())
    assert sum(result.reliability["weight"]) == 100
    expected = tail.reliability_diagram()
    for key, values in expected.items():
        assert result.reliability[key] == pytest.approx(values)


def test_trace_rows_without_a_controller():
    result = evaluate.prequential(linear_model.LogisticRegression(), _stream(100), trace_every=25)
    assert [row["n"] for row in result.trace] == [25, 50, 75, 100]
    assert result.trace[-1]["brier"] == pytest.approx(result.brier)
    assert set(result.trace[0]) == {"n", "brier", "log_loss"}
    assert result.arm_counts is None and result.n_batches == 0
    assert math.isnan(result.calibrate_fraction)


def test_max_rows_stops_the_stream_and_rejects_bad_values():
    data = iter(_stream(100))
    result = evaluate.prequential(linear_model.LogisticRegression(), data, max_rows=40)
    assert result.n == 40
    assert len(list(data)) == 60  # no example consumed beyond max_rows


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"c_fp": 0.0}, ValueError, "c_fp"),
        ({"max_rows": 0}, ValueError, "max_rows must be None or an int >= 1, got 0"),
        ({"final_window": 0}, ValueError, "final_window must be an int >= 1, got 0"),
        ({"trace_every": 2.5}, ValueError, "trace_every must be None or an int >= 1, got 2.5"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        evaluate.prequential(linear_model.LogisticRegression(), _stream(10), **kwargs)


def test_empty_stream_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        evaluate.prequential(linear_model.LogisticRegression(), [])


def _controller_model(policy: str = "ucb1", seed: int = 1, batch_size: int = 16):
    return preprocessing.StandardScaler() | BanditCalibratedClassifier(
        model=OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=seed),
        policy=policy,
        batch_size=batch_size,
        warmup=2,
        seed=seed,
    )


def test_controller_trace_has_one_row_per_minibatch():
    model = _controller_model()
    result = evaluate.prequential(model, _stream(330))
    controller = evaluate.find_controller(model)
    assert controller is model["BanditCalibratedClassifier"]
    assert result.n_batches == controller.n_batches == 330 // 16
    assert len(result.trace) == result.n_batches
    assert [row["n"] for row in result.trace] == [16 * (i + 1) for i in range(result.n_batches)]
    assert [row["batch"] for row in result.trace] == [
        row["batch"] for row in itertools.islice(controller.trace, 0, None)
    ][-len(result.trace) :]
    arms = [row["arm"] for row in result.trace]
    assert {arm: arms.count(arm) for arm in set(arms)} == {
        k: v for k, v in controller.arm_counts.items() if v
    }
    assert result.arm_counts == controller.arm_counts
    rewards = [row["reward"] for row in result.trace if row["reward"] is not None]
    assert rewards  # after the warm-up the policy is rewarded
    assert result.cumulative_reward == pytest.approx(sum(rewards))
    calibrating = sum(arm in ("calibrate", "both") for arm in arms)
    assert result.calibrate_fraction == pytest.approx(calibrating / len(arms))
    summary = result.summary()
    assert summary["batches_train"] == controller.arm_counts["train"]


def test_controller_alone_or_in_a_pipeline_and_trace_every_conflict():
    bare = BanditCalibratedClassifier(policy="never", batch_size=8, seed=0)
    result = evaluate.prequential(bare, _stream(64))
    assert result.n_batches == 8 and result.calibrate_fraction == 0.0
    short = evaluate.prequential(BanditCalibratedClassifier(batch_size=8, seed=0), _stream(5))
    assert short.n_batches == 0 and math.isnan(short.calibrate_fraction)  # no minibatch ended
    with pytest.raises(ValueError, match="trace_every=8 cannot be used"):
        evaluate.prequential(_controller_model(), _stream(10), trace_every=8)
    # a pipeline nested in a pipeline: River's isinstance takes the inner one for the controller
    from river import compose, preprocessing

    inner = compose.Pipeline(preprocessing.StandardScaler(), bare.clone())
    nested = compose.Pipeline(preprocessing.MinMaxScaler(), inner)
    assert evaluate.find_controller(nested) is inner["BanditCalibratedClassifier"]
    assert evaluate.prequential(nested, _stream(64)).n_batches == 8


def test_same_seed_same_result_and_json_round_trip():
    a = evaluate.prequential(_controller_model(seed=3), _stream(200))
    b = evaluate.prequential(_controller_model(seed=3), _stream(200))
    a.seconds = b.seconds = 0.0
    assert a == b
    restored = evaluate.RunResult(**json.loads(json.dumps(a.to_dict())))
    assert restored == a


def test_a_budget_reserves_changes_are_reported():
    model = BanditCalibratedClassifier(policy="both", batch_size=8, train_budget=0.5,
                                       budget_reserve=0.2, drift_detector=FlagAt(150), seed=0)
    result = evaluate.prequential(model, _stream(300))
    assert result.n_drifts == model.n_drifts == 1
    assert result.summary()["n_drifts"] == result.n_drifts
    assert evaluate.RunResult(**json.loads(json.dumps(result.to_dict()))) == result
    plain = evaluate.prequential(_controller_model(), _stream(100))
    assert plain.n_drifts is None and "n_drifts" not in plain.summary()


def test_the_rounds_a_bandit_measured_are_reported():
    # one minibatch in 4 after the first 3 (no restart): the rounds the policy learned from
    model = BanditCalibratedClassifier(policy="discounted-ucb", batch_size=8, warmup=2,
                                       reward_every=4, reward_start=3, reward_restart=False,
                                       seed=0)
    result = evaluate.prequential(model, _stream(400))
    scored = [r for r in result.trace if r.get("reward") is not None]
    assert result.n_rounds == model.policy_.n_rounds == len(scored) > 0
    assert result.n_rounds < result.n_batches - model.warmup  # thinned: fewer than minibatches
    assert result.summary()["n_rounds"] == result.n_rounds
    assert evaluate.RunResult(**json.loads(json.dumps(result.to_dict()))) == result
    schedule = evaluate.prequential(
        BanditCalibratedClassifier(policy="every-2", batch_size=8, seed=0), _stream(100))
    assert schedule.n_rounds is None and "n_rounds" not in schedule.summary()


def test_regret_against_the_best_fixed_arm_by_hand():
    def row(arm, **rewards):
        return {"rewarded_arm": arm, "rewards": rewards or None}

    trace = [
        row(None),  # the warm-up: nothing scored
        row("train", train=0.50, calibrate=0.40, both=0.70),  # both best: 0.70 - 0.50
        row("calibrate", calibrate=0.90),  # one arm measured: says nothing of the others
        row("both", train=0.60, calibrate=0.50, both=0.55),  # both 1.25 best; taken 1.05
        row("train", train=0.90, calibrate=0.10, both=0.20),  # train 2.00 best; taken 1.95
    ]
    assert evaluate.regret_curve(trace) == pytest.approx([0.0, 0.2, 0.2, 0.2, 0.05])
    # following the best arm of each round beats every fixed arm: a negative regret
    swap = [row("train", train=1.0, both=0.0), row("both", train=0.0, both=1.0)]
    assert evaluate.regret_curve(swap) == pytest.approx([0.0, -1.0])
    # an arm taken at a reward of 0 is counted as such, not as no round
    assert evaluate.regret_curve([row("train", train=0.0, both=0.4)]) == pytest.approx([0.4])
    assert evaluate.regret_curve([{"n": 32, "brier": 0.2}]) == [0.0]  # no controller


def test_a_bandits_regret_is_reported_and_a_schedules_is_not():
    model = BanditCalibratedClassifier(policy="discounted-ucb", batch_size=8, warmup=2,
                                       seed=0, trace_size=1000)  # fmt: skip
    result = evaluate.prequential(model, _stream(600))
    assert [row["rewards"] for row in result.trace] == [r["rewards"] for r in model.trace]
    # recomputed from the controller's own record: the rounds that scored all three arms
    full = [r for r in model.trace if r["rewards"] and len(r["rewards"]) == 3]
    assert 0 < len(full) < model.n_batches
    best = max(sum(r["rewards"][arm] for r in full) for arm in ("train", "calibrate", "both"))
    taken = sum(r["rewards"][r["rewarded_arm"]] for r in full)
    assert result.regret == pytest.approx(best - taken) and result.regret != 0.0
    assert result.summary()["regret"] == result.regret
    assert evaluate.RunResult(**json.loads(json.dumps(result.to_dict()))).regret == result.regret
    schedule = evaluate.prequential(
        BanditCalibratedClassifier(policy="every-2", batch_size=8, seed=0), _stream(100))
    assert schedule.regret is None and "regret" not in schedule.summary()
    # a result stored before 0.8.32 has no rewards in its trace: no regret, not an error
    older = dataclasses.replace(result, trace=[
        {k: v for k, v in row.items() if k != "rewards"} for row in result.trace])
    assert older.regret is None
