"""Tests of CalibratedClassifier and of the controller on any River classifier: River's checks,
equality with the controller's "both", labels, errors, every arm and policy on every model."""

from __future__ import annotations

import math
import pickle
import re

import pandas as pd
import pytest
from river import (
    base,
    checks,
    compose,
    datasets,
    ensemble,
    evaluate,
    forest,
    linear_model,
    metrics,
    naive_bayes,
    preprocessing,
    tree,
)

from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    CostSensitiveClassifier,
    OzaBoostClassifier,
)
from streamboost.calibration import CALIBRATORS
from streamboost.metrics import BrierScore

ROWS = list(datasets.Phishing())


def models():
    """The base models of the issue: a pipeline, River's own learners and boosters, ours."""
    return {
        "pipeline": preprocessing.StandardScaler() | linear_model.LogisticRegression(),
        "lr": linear_model.LogisticRegression(),
        "ht": tree.HoeffdingTreeClassifier(),
        "arf": forest.ARFClassifier(n_models=3, seed=1),
        "river-adaboost": ensemble.AdaBoostClassifier(linear_model.LogisticRegression(), seed=1),
        "oza": OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1),
    }


@pytest.mark.parametrize("params", list(CalibratedClassifier._unit_test_params()))
def test_river_estimator_checks(params):
    checks.check_estimator(CalibratedClassifier(**params))


@pytest.mark.parametrize("calibrator", sorted(CALIBRATORS))
@pytest.mark.parametrize("name", ["pipeline", "ht", "oza"])
def test_calibrated_classifier_is_the_controller_with_both(calibrator, name):
    wrapper = CalibratedClassifier(models()[name], calibrator=calibrator)
    controller = BanditCalibratedClassifier(
        model=models()[name], calibrator=calibrator, policy="both", warmup=0, batch_size=7
    )
    for x, y in ROWS[:500]:
        assert wrapper.predict_proba_one(x) == controller.predict_proba_one(x)
        wrapper.learn_one(x, y)
        controller.learn_one(x, y)
    assert wrapper.calibrator_.n_seen == controller.calibrator_.n_seen == 500


def test_calibration_improves_a_plain_logistic_regression():
    raw = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    calibrated = preprocessing.StandardScaler() | CalibratedClassifier(
        linear_model.LogisticRegression()
    )
    scores = [
        evaluate.progressive_val_score(datasets.Phishing(), m, metrics.LogLoss()).get()
        for m in (raw, calibrated)
    ]
    assert scores[1] < scores[0] - 0.02


def test_the_calibrator_learns_the_score_from_before_the_model_learns():
    model = linear_model.LogisticRegression()
    wrapper = CalibratedClassifier(linear_model.LogisticRegression(), calibrator="histogram")
    reference = CALIBRATORS["histogram"]()
    for x, y in ROWS[:300]:
        reference.learn_one(model.predict_proba_one(x)[True], y)  # score before learning
        model.learn_one(x, y)
        wrapper.learn_one(x, y)  # no predict first: the score is computed in learn_one
    assert pickle.dumps(wrapper.calibrator_) == pickle.dumps(reference)


def test_string_labels_with_the_negative_inferred():
    stream = [(x, "phish" if y else "legit") for x, y in ROWS[:400]]
    model = preprocessing.StandardScaler() | CalibratedClassifier(
        linear_model.LogisticRegression(), pos_label="phish", c_fp=1.0, c_fn=3.0
    )
    for x, y in stream:
        model.learn_one(x, y)
    proba = model.predict_proba_one(stream[0][0])
    assert set(proba) == {"phish", "legit"} and sum(proba.values()) == pytest.approx(1.0)
    assert {model.predict_one(x) for x, _ in stream} == {"phish", "legit"}
    controller = BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), pos_label="phish", policy="discounted-ucb",
        batch_size=8, warmup=1, seed=0,
    )
    for x, y in stream:
        controller.learn_one(x, y)
    assert set(controller.predict_proba_one(stream[0][0])) == {"phish", "legit"}
    assert controller.predict_one(stream[0][0], c_fp=1e9, c_fn=1.0) == "legit"


@pytest.mark.parametrize("make", [
    lambda: CalibratedClassifier(linear_model.LogisticRegression(), pos_label="a"),
    lambda: BanditCalibratedClassifier(model=linear_model.LogisticRegression(), pos_label="a"),
    lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, pos_label="a"),
], ids=["calibrated", "controller", "booster"])
def test_a_label_met_with_a_refused_x_does_not_name_the_negative(make):
    # the learners compare the two labels themselves and record a new one only once x has
    # been checked: an example refused for its x leaves the negative label unknown
    model = make()
    x = ROWS[0][0]
    model.learn_one(x, "a")
    with pytest.raises(ValueError, match="is nan"):
        model.learn_one({**x, "extra": float("nan")}, "b")
    model.learn_one(x, "c")  # the stream's first other label, so the negative
    assert set(model.predict_proba_one(x)) == {"a", "c"}
    with pytest.raises(ValueError, match="label 'b' is neither"):
        model.learn_one(x, "b")


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
def test_a_frame_before_the_negative_label_is_known_has_the_positive_column_only(cls):
    # as predict_proba_one's dict: no column for a label the stream has not shown, the
    # positive one each row's own probability; the negative's column comes with its label
    model = cls(model=linear_model.LogisticRegression(), pos_label="a")
    rows = [x for x, _ in ROWS[:5]]
    for x in rows[:3]:
        model.learn_one(x, "a")
    proba = model.predict_proba_many(pd.DataFrame(rows))
    assert list(proba.columns) == ["a"]
    assert proba["a"].tolist() == [model.predict_proba_one(x)["a"] for x in rows]
    assert [model.predict_proba_one(x) for x in rows] == [{"a": p} for p in proba["a"]]
    model.learn_one(rows[3], "b")
    proba = model.predict_proba_many(pd.DataFrame(rows))
    assert list(proba.columns) == ["b", "a"]
    assert proba.to_dict("records") == [model.predict_proba_one(x) for x in rows]


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
def test_a_third_label_is_refused_and_changes_nothing(cls):
    model = cls(model=linear_model.LogisticRegression(), pos_label="a")
    for x, _ in ROWS[:40]:
        model.learn_one(x, "a")
        model.learn_one(x, "b")
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="label 'c' is neither pos_label='a' nor the negative"):
        model.learn_one(ROWS[0][0], "c")
    assert pickle.dumps(model) == before


MISSING = [None, math.nan, pd.NA, pd.NaT]
UNHASHABLE = [[1], {"a": 1}, ("a", [1])]


def refusal(label, owner: str) -> tuple[type, str]:
    """The exception type and message a learner named `owner` refuses a bad label with."""
    if type(label) in (list, dict, tuple):
        return TypeError, (rf"^label {re.escape(repr(label))} is unhashable "
                           rf"\({type(label).__name__}\): {owner} takes class labels")
    return ValueError, rf"^label {re.escape(repr(label))} is missing; {owner} takes labelled"


@pytest.mark.parametrize("make", [
    lambda pos: CalibratedClassifier(linear_model.LogisticRegression(), pos_label=pos),
    lambda pos: BanditCalibratedClassifier(model=linear_model.LogisticRegression(),
                                           batch_size=4, pos_label=pos, seed=0),
    lambda pos: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0,
                                   pos_label=pos),
    lambda pos: CostSensitiveClassifier(tree.HoeffdingTreeClassifier(), pos_label=pos),
    lambda pos: BrierScore(pos_label=pos),
], ids=["calibrated", "controller", "booster", "cost-sensitive", "metric"])
@pytest.mark.parametrize("pos", [True, "fraud"])
@pytest.mark.parametrize("label", MISSING + UNHASHABLE, ids=repr)
def test_a_missing_or_unhashable_label_is_refused_and_changes_nothing(make, pos, label):
    # None, NaN, NaT and pd.NA are no class (0.8.51): before, with string labels and the
    # negative not yet seen, a NaN became the negative label (the real one was then refused as
    # a third) and a None was learned as a negative; pd.NA raised pandas' "boolean value of NA
    # is ambiguous". A list raised Python's bare "unhashable type" (0.8.54; the decision
    # wrapper called it a third label). One at a time and in a frame, before anything changes
    x = ROWS[0][0]
    other = not pos if pos is True else "ok"
    for learned in ([], [pos]):  # the negative unknown, then a stream that began
        model = make(pos)
        learn = model.update if isinstance(model, BrierScore) else model.learn_one
        for y in learned:
            learn(*((y, 0.5) if isinstance(model, BrierScore) else (x, y)))
        before = pickle.dumps(model)
        error, message = refusal(label, type(model).__name__)
        with pytest.raises(error, match=message):
            learn(*((label, 0.5) if isinstance(model, BrierScore) else (x, label)))
        assert pickle.dumps(model) == before
        if hasattr(model, "learn_many"):
            X = pd.DataFrame([x, x])
            with pytest.raises(error, match=message):
                model.learn_many(X, pd.Series([pos, label], dtype=object))
            assert pickle.dumps(model) == before
        learn(*((other, 0.5) if isinstance(model, BrierScore) else (x, other)))  # still binary


@pytest.mark.parametrize(("make", "negative"), [
    (lambda **kw: CalibratedClassifier(linear_model.LogisticRegression(), **kw), True),
    (lambda **kw: BanditCalibratedClassifier(**kw), True),
    (lambda **kw: OzaBoostClassifier(linear_model.LogisticRegression(), **kw), True),
    (lambda **kw: CostSensitiveClassifier(linear_model.LogisticRegression(), **kw), True),
    (lambda **kw: BrierScore(**kw), False),  # a metric takes the positive label only
], ids=["calibrated", "controller", "booster", "cost-sensitive", "metric"])
def test_a_missing_or_unhashable_class_label_is_refused_when_built(make, negative):
    # 0.8.51: pos_label=None made the missing label the positive class, a NaN one matched no
    # label, a list failed later as a dict key; neg_label=None still infers the negative
    for label in MISSING:
        with pytest.raises(ValueError, match=rf"^pos_label must be a class label, got "
                                             rf"{re.escape(repr(label))}, a missing value"):
            make(pos_label=label)
    with pytest.raises(TypeError, match=r"^pos_label must be a label \(hashable\), got \[1\]"):
        make(pos_label=[1])
    if negative:
        for label in MISSING[1:]:
            with pytest.raises(ValueError, match=r"^neg_label must be a class label, got .*, a "
                                                 r"missing value \(neg_label=None infers"):
                make(pos_label="a", neg_label=label)
        assert make(pos_label="a", neg_label=None).neg_label is None


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
@pytest.mark.parametrize(
    "model",
    [linear_model.LinearRegression(), preprocessing.StandardScaler(), 42, "lr"],
    ids=["regressor", "transformer", "int", "str"],
)
def test_a_model_that_is_not_a_classifier_is_a_type_error(cls, model):
    with pytest.raises(TypeError, match="model must be a River classifier with predict_proba_one"):
        cls(model=model)


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier,
                                 CostSensitiveClassifier])
def test_a_classifier_that_only_votes_is_refused_when_wrapped(cls):
    # River's default predict_proba_one raised a bare NotImplementedError at the first score
    from river import multiclass

    for model, name in [
        (ensemble.VotingClassifier([linear_model.LogisticRegression(),
                                    tree.HoeffdingTreeClassifier()]), "VotingClassifier"),
        (preprocessing.StandardScaler() | multiclass.OneVsOneClassifier(
            linear_model.LogisticRegression()), "OneVsOneClassifier"),
    ]:
        with pytest.raises(TypeError, match=f"must give probabilities, and {name} has no "
                                            "predict_proba_one"):
            cls(model)


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
def test_a_bad_calibrator_is_named(cls):
    with pytest.raises(TypeError, match=r"calibrator must be a name .* got 42"):
        cls(model=linear_model.LogisticRegression(), calibrator=42)
    with pytest.raises(ValueError, match="unknown calibrator 'sigmoid'"):
        cls(model=linear_model.LogisticRegression(), calibrator="sigmoid")


def test_a_multiclass_model_output_is_refused():
    """A model that predicts three labels (here a tree fed a third class behind the
    controller's back) cannot give P(positive) of a binary stream."""
    inner = tree.HoeffdingTreeClassifier()
    for x, y in ROWS[:50]:
        inner.learn_one(x, {True: "a", False: "b"}[y])
    inner.learn_one(ROWS[0][0], "c")
    model = CalibratedClassifier(inner, pos_label="a")
    with pytest.raises(ValueError, match="expected a binary prediction, got 3 labels"):
        model.predict_proba_one(ROWS[0][0])


@pytest.mark.parametrize("name", sorted(models()))
@pytest.mark.parametrize("policy", ["discounted-ucb", "every-3", "both"])
def test_every_model_works_with_every_arm_and_a_reward(name, policy):
    controller = BanditCalibratedClassifier(
        model=models()[name], policy=policy, batch_size=10, warmup=2, seed=1,
        reward_examples=5,
    )
    brier = BrierScore()
    for x, y in ROWS[:600]:
        p = controller.predict_proba_one(x)
        assert set(p) == {False, True} and 0.0 <= p[True] <= 1.0
        brier.update(y, p)
        controller.learn_one(x, y)
    assert brier.get() < 0.25
    assert sum(controller.arm_counts.values()) == controller.n_batches == 60
    if policy == "discounted-ucb":
        rounds = [r for r in controller.trace if r["rewards"] is not None]
        assert len(rounds) >= 40
        assert all(set(r["rewards"]) <= {"train", "calibrate", "both"} for r in rounds)
        assert len({r["rewarded_arm"] for r in rounds}) >= 2 or len(rounds[0]["rewards"]) == 3


@pytest.mark.parametrize(("start", "measured"), [
    (0, list(range(2, 39, 3))),  # 2, 5, 8, ... after the warm-up of 2, each on the next one
    (4, [2, 3, 4, 5, *range(6, 39, 3)]),  # the first 4 after the warm-up, then one in 3
    (64, list(range(2, 39))),  # still within the first 64: every one
])
def test_reward_every_measures_one_minibatch_in_n_after_the_first_reward_start(start, measured):
    controller = BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="ucb1", batch_size=5, warmup=2,
        reward_every=3, reward_start=start, reward_restart=False, seed=0,
    )
    for x, y in ROWS[:200]:
        controller.learn_one(x, y)
    rewarded = [r["rewarded_batch"] for r in controller.trace if r["reward"] is not None]
    assert rewarded == measured
    assert controller.policy_.n_rounds == len(rewarded)


def test_reward_examples_score_an_evenly_spread_sample():
    controller = BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="ucb1", batch_size=10, reward_examples=4
    )
    assert sorted(controller._meter.sample) == [0, 2, 5, 7]
    full = BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="ucb1", batch_size=4, reward_examples=9
    )
    assert sorted(full._meter.sample) == [0, 1, 2, 3]


def test_pipelines_and_progressive_val_score_with_any_model():
    for model in (tree.HoeffdingTreeClassifier(), forest.ARFClassifier(n_models=2, seed=0)):
        pipeline = compose.Pipeline(
            preprocessing.StandardScaler(), CalibratedClassifier(model, calibrator="isotonic")
        )
        result = evaluate.progressive_val_score(datasets.Phishing(), pipeline, metrics.LogLoss())
        assert 0.0 < result.get() < 0.6


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
def test_an_unusable_model_output_is_refused_in_learn_one_with_nothing_changed(cls):
    """The score is computed before anything changes: a model that predicts three labels makes
    learn_one raise, and neither the labels, the calibrator nor a policy has moved."""
    model = cls(model=tree.HoeffdingTreeClassifier(), pos_label="a")
    inner = model.model_ if cls is BanditCalibratedClassifier else model.model  # (a clone)
    for x, y in ROWS[:50]:
        inner.learn_one(x, {True: "a", False: "b"}[y])
    inner.learn_one(ROWS[0][0], "c")  # behind the wrapper's back
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="expected a binary prediction, got 3 labels"):
        model.learn_one(ROWS[1][0], "b")
    assert pickle.dumps(model) == before


def test_recalibrate_fits_the_current_models_scores_of_the_last_window():
    from streamboost.calibration import platt_fit

    model = CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression(),
                                                    n_models=3, seed=1), window=50)
    for x, y in ROWS[:300]:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    window = ROWS[250:300]
    scores = [model.model.score_one(x) for x, _ in window]
    model.recalibrate()
    fit = platt_fit(scores, [y for _, y in window], eps=model.calibrator_.eps)
    assert fit == (model.calibrator_.A, model.calibrator_.B)
    assert model.calibrator_.n_seen == 50


def test_the_window_stays_bounded_and_recalibrate_keeps_its_size():
    model = CalibratedClassifier(linear_model.LogisticRegression(), window=40)
    for n, (x, y) in enumerate(ROWS[:260], start=1):
        model.learn_one(x, y)
        assert len(model._recent) == min(n, 40)
        if n in (25, 200):
            model.recalibrate()
            assert model.calibrator_.n_seen == min(n, 40)
    assert model.calibrator_.n_seen == 40 + 60  # the refit's 40, then the online updates


@pytest.mark.parametrize("model", [linear_model.LogisticRegression(),
                                   OzaBoostClassifier(linear_model.LogisticRegression(),
                                                      n_models=3, seed=1)])
def test_by_frames_the_window_keeps_every_row_as_one_by_one_does(model):
    # frames of 7 rows (a model that learns by minibatch learns each frame whole): the window
    # holds the same last 30 examples, which recalibrating refits to
    pd = pytest.importorskip("pandas")
    one, many = (CalibratedClassifier(model.clone(), window=30) for _ in range(2))
    rows = ROWS[:100]
    for x, y in rows:
        one.learn_one(x, y)
    for i in range(0, len(rows), 7):
        chunk = rows[i : i + 7]
        many.learn_many(pd.DataFrame([x for x, _ in chunk]), pd.Series([y for _, y in chunk]))
    assert list(many._recent) == list(one._recent) == [(x, y) for x, y in rows[-30:]]
    many.recalibrate()
    assert many.calibrator_.n_seen == 30


def test_window_parameters_are_checked():
    lr = linear_model.LogisticRegression()
    for bad in (0, -3, 2.5, True, "10"):
        expected = f"window must be None or an int >= 1, got {bad!r}"
        with pytest.raises(ValueError, match=expected):
            CalibratedClassifier(lr, window=bad)
    with pytest.raises(ValueError, match="recalibrate needs the examples to refit on"):
        CalibratedClassifier(lr).recalibrate()
    model = CalibratedClassifier(lr, window=5)
    model.recalibrate()  # nothing learned yet: nothing to do
    assert model.calibrator_.n_seen == 0


def test_a_rejected_example_does_not_enter_the_window():
    model = CalibratedClassifier(linear_model.LogisticRegression(), window=10)
    for x, y in ROWS[:20]:
        model.learn_one(x, y)
    before = pickle.dumps(model)
    with pytest.raises(ValueError):
        model.learn_one({**ROWS[0][0], "bad": float("inf")}, True)
    assert pickle.dumps(model) == before


# ---------------------------------------------------------------------- minibatches


def _frames(rows, size):
    pd = pytest.importorskip("pandas")
    for start in range(0, len(rows), size):
        chunk = rows[start : start + size]
        yield pd.DataFrame([x for x, _ in chunk]), pd.Series([y for _, y in chunk])


@pytest.mark.parametrize("make", [
    lambda m: CalibratedClassifier(m),
    lambda m: BanditCalibratedClassifier(model=m, policy="discounted-ucb", batch_size=8,
                                         warmup=1, seed=0),
])
@pytest.mark.parametrize("model", [
    linear_model.LogisticRegression,
    lambda: preprocessing.StandardScaler() | linear_model.LogisticRegression(),
    lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0),
])
def test_an_empty_frame_learns_nothing(make, model):
    """`CalibratedClassifier` passed it to River's logistic regression, which divided by its
    length (ZeroDivisionError), and to a scaler, whose means would have become NaN."""
    X, y = next(_frames(ROWS[:40], 40))
    wrapper = make(model())
    wrapper.learn_many(X, y)
    before = pickle.dumps(wrapper)
    wrapper.learn_many(X.iloc[:0], y.iloc[:0])
    assert pickle.dumps(wrapper) == before
    assert wrapper.predict_proba_many(X.iloc[:0]).shape == (0, 2)


@pytest.mark.parametrize("calibrator", ["platt", "beta"])
@pytest.mark.parametrize("name", ["lr", "oza", "ht"])
def test_predict_many_equals_predict_one_row_by_row(name, calibrator):
    pd = pytest.importorskip("pandas")
    model = CalibratedClassifier(models()[name], calibrator=calibrator, c_fn=4.0)
    for x, y in ROWS[:600]:
        model.learn_one(x, y)
    X = pd.DataFrame([x for x, _ in ROWS[600:900]])
    one = pd.DataFrame([model.predict_proba_one(x) for x, _ in ROWS[600:900]], index=X.index)
    many = model.predict_proba_many(X)
    assert list(many.columns) == [False, True]
    # the booster's scores are its own, bit for bit; River's matrix product rounds differently
    tolerance = 0.0 if name != "lr" else 1e-12
    assert (many - one).abs().to_numpy().max() <= tolerance
    for costs in ({}, {"c_fp": 9.0, "c_fn": 1.0}):
        decisions = model.predict_many(X, **costs)
        expected = [model.predict_one(x, **costs) for x, _ in ROWS[600:900]]
        assert decisions.tolist() == expected
    # costs whose threshold splits the frame's decisions: between two of its probabilities
    # (the vote of 5 members takes few values, so the median may be many rows' own)
    values = sorted(set(many[True].tolist()))
    middle = (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    assert len(set(model.predict_many(X, c_fp=middle, c_fn=1.0 - middle))) == 2
    # a cost per row: each row decided at its own threshold
    c_fn = [0.05 + 20.0 * (i % 7) for i in range(len(X))]
    expected = [model.predict_one(x, c_fn=c) for (x, _), c in zip(ROWS[600:900], c_fn,
                                                                  strict=True)]
    assert model.predict_many(X, c_fn=c_fn).tolist() == expected
    assert model.predict_many(X, c_fn=pd.Series(c_fn, index=X.index)).tolist() == expected
    before = pickle.dumps(model)
    for bad in (-1.0, [1.0] * (len(X) - 1), [*c_fn[:-1], float("nan")]):
        with pytest.raises(ValueError, match=r"c_fn|rows"):
            model.predict_many(X, c_fn=bad)
    with pytest.raises(ValueError, match="c_fp"):
        model.predict_many(X, c_fp=-1.0)
    assert pickle.dumps(model) == before


@pytest.mark.parametrize("make", [
    lambda: CalibratedClassifier(linear_model.LogisticRegression(), neg_label=False),
    lambda: BanditCalibratedClassifier(model=linear_model.LogisticRegression(),
                                       neg_label=False, seed=0),
])
def test_a_probability_at_the_threshold_decides_negative(make):
    # Eq. 2.8 is strict, positive iff p > c: a fresh logistic regression scores 0.5 and an
    # unfitted calibrator passes it on, exactly the threshold at equal costs, by row and by frame
    model = make()
    X = pd.DataFrame([x for x, _ in ROWS[:5]])
    assert model.predict_proba_many(X)[True].tolist() == [0.5] * 5
    assert [model.predict_one(x) for x, _ in ROWS[:5]] == [False] * 5
    assert model.predict_many(X).tolist() == [False] * 5
    # just below it, the same probability decides positive
    assert model.predict_many(X, c_fp=0.999, c_fn=1.0).tolist() == [True] * 5
    assert model.predict_one(ROWS[0][0], c_fp=0.999, c_fn=1.0) is True


def test_a_minibatch_scores_every_row_before_the_model_learns_it():
    # River's LogisticRegression learns a one-row frame as learn_one does: one row per
    # minibatch must then be learn_one's rule (a calibrator learning scores taken after the
    # model learned would drift apart at once)
    batched = CalibratedClassifier(linear_model.LogisticRegression(), calibrator="platt")
    looped = CalibratedClassifier(linear_model.LogisticRegression(), calibrator="platt")
    for (X, y), (x, label) in zip(_frames(ROWS[:400], 1), ROWS[:400], strict=True):
        batched.learn_many(X, y)
        looped.learn_one(x, label)
    probe = ROWS[500][0]
    assert batched.predict_proba_one(probe)[True] == pytest.approx(
        looped.predict_proba_one(probe)[True], rel=1e-9
    )
    assert batched.calibrator_.n_seen == looped.calibrator_.n_seen == 400


def _wrappers(name: str) -> list:
    """A `CalibratedClassifier` and a controller running "both" by minibatches of 40 rows."""
    return [CalibratedClassifier(models()[name]),
            BanditCalibratedClassifier(model=models()[name], policy="both", batch_size=40,
                                       warmup=0)]


@pytest.mark.parametrize("name", ["lr", "oza"])
def test_a_minibatch_predicted_then_learned_is_scored_once(name, monkeypatch):
    """A prequential loop by minibatch (`predict_proba_many`, then `learn_many` of the same
    frame) scores the frame once, and learns exactly what scoring it afresh learns; a frame
    changed in place in between, or a model that learned in between, is scored afresh."""
    from streamboost import scores

    frames = list(_frames(ROWS[:400], 40))
    built, original = [], scores.ScoredFrame.__init__

    def counted(self, *args):
        built.append(args[1])
        original(self, *args)

    monkeypatch.setattr(scores.ScoredFrame, "__init__", counted)
    for kept, fresh in zip(_wrappers(name), _wrappers(name), strict=True):
        for X, y in frames:
            kept.predict_proba_many(X)
            kept.learn_many(X, y)
            fresh.learn_many(X.copy(), y)  # another object: scored again
        probe = frames[0][0]
        assert kept.predict_proba_many(probe).equals(fresh.predict_proba_many(probe))
    assert len(built) == 2 * (2 * len(frames) + 2)  # each frame once by each wrapper
    # changed in place, or the model learned since: the kept scores are not used
    for wrapper, other in zip(_wrappers(name), _wrappers(name), strict=True):
        for X, y in frames[2:6]:  # trained: the scores depend on the values
            wrapper.learn_many(X, y)
            other.learn_many(X, y)
        X, y = frames[0]
        X, changed = X.copy(), X.copy()
        wrapper.predict_proba_many(X)
        X.iloc[0, 0] += 1.0
        changed.iloc[0, 0] += 1.0
        wrapper.learn_many(X, y)
        other.learn_many(changed, y)
        wrapper.predict_proba_many(X)
        wrapper.learn_one(*ROWS[450])
        other.learn_one(*ROWS[450])
        wrapper.learn_many(X, y)
        other.learn_many(X.copy(), y)
        probe = frames[1][0]
        assert wrapper.predict_proba_many(probe).equals(other.predict_proba_many(probe))


@pytest.mark.parametrize("wrapper", [0, 1])
def test_a_kept_frame_is_compared_byte_for_byte(wrapper, monkeypatch):
    """A frame predicted, then learned, is scored once also with missing cells (NaN: the same
    bytes); a cell changed to an equal value of other bytes (0.0 to -0.0) is scored again, and
    learns what the unchanged frame learns."""
    from streamboost import scores

    built, original = [], scores.ScoredFrame.__init__

    def counted(self, *args):
        built.append(args[1])
        original(self, *args)

    monkeypatch.setattr(scores.ScoredFrame, "__init__", counted)
    frames = list(_frames(ROWS[:160], 40))
    model, twin = _wrappers("oza")[wrapper], _wrappers("oza")[wrapper]
    for i, (X, y) in enumerate(frames):
        X = X.copy()
        X.iloc[1, 0] = float("nan")  # a missing cell: the booster takes it
        X.iloc[2, 1] = 0.0
        changed = i % 2 == 1
        model.predict_proba_many(X)
        twin.predict_proba_many(X.copy())
        if changed:
            X.iloc[2, 1] = -0.0  # equal, other bytes
        del built[:]
        model.learn_many(X, y)
        assert len(built) == changed  # scored again only where the bytes changed
        twin.learn_many(X.copy(), y)
    probe = frames[0][0]
    assert model.predict_proba_many(probe).equals(twin.predict_proba_many(probe))


@pytest.mark.parametrize("bandit", [False, True])
def test_a_frame_is_scored_again_after_the_booster_met_a_new_feature(bandit):
    """`predict_proba_many(X)`, then a `predict_proba_one` with a feature the booster has not
    met (its members gain a column), then `learn_many(X)`: the kept matrix lacks that column,
    so the frame is scored again, and the wrapper goes on exactly as one that never kept it
    (with decision stumps, whose fresh candidate for the new feature changes the vote, reusing
    the kept matrix would not)."""
    from streamboost.weak import DecisionStump

    def make():
        model = OzaBoostClassifier(DecisionStump(), n_models=20, seed=1)
        if bandit:
            return BanditCalibratedClassifier(model=model, policy="both", batch_size=40,
                                              warmup=0)
        return CalibratedClassifier(model)

    frames = list(_frames(ROWS[:200], 40))
    kept, fresh = make(), make()
    for X, y in frames[:3]:
        for model in (kept, fresh):
            model.learn_many(X, y)
    X, y = frames[3]
    kept.predict_proba_many(X)
    new = {**ROWS[300][0], "never seen": 1.0}
    for model in (kept, fresh):
        model.predict_proba_one(new)
    assert kept._scorer._frame[3].widened()
    kept.learn_many(X, y)
    fresh.learn_many(X.copy(), y)
    probe = frames[4][0]
    assert kept.predict_proba_many(probe).equals(fresh.predict_proba_many(probe))


def test_score_many_is_score_one_row_by_row():
    pd = pytest.importorskip("pandas")
    for engine in ("auto", "reference"):
        model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1,
                                   engine=engine)
        for x, y in ROWS[:300]:
            model.learn_one(x, y)
        xs = [x for x, _ in ROWS[300:340]]
        expected = [model.score_one(x) for x in xs]
        assert model.score_many(pd.DataFrame(xs)).tolist() == pytest.approx(expected, abs=1e-12)


def test_calibration_repairs_100_stumps_learning_by_minibatch():
    # the thesis's setting by minibatch: the vote of 100 stumps is a distorted probability
    import itertools

    from streamboost.datasets import stream
    from streamboost.weak import DecisionStump

    rows = list(itertools.islice(stream("phishing"), 4_000))  # bundled

    def brier(model):
        total = 0.0
        for X, y in _frames(rows, 64):
            p = model.predict_proba_many(X)[True].to_numpy()
            total += float(((p - y.to_numpy()) ** 2).sum())
            model.learn_many(X, y)
        return total / len(rows)

    raw = brier(OzaBoostClassifier(DecisionStump(), 100, seed=1))
    calibrated = brier(CalibratedClassifier(OzaBoostClassifier(DecisionStump(), 100, seed=1)))
    assert calibrated < 0.6 * raw  # 0.134 -> 0.064


def test_a_rejected_minibatch_changes_nothing():
    pd = pytest.importorskip("pandas")
    model = CalibratedClassifier(linear_model.LogisticRegression(), pos_label="yes",
                                 window=10)
    model.learn_many(pd.DataFrame({"a": [1.0, -1.0]}), pd.Series(["yes", "no"]))
    before = pickle.dumps(model)
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="label 'maybe' is neither"):
        model.learn_many(X, pd.Series(["yes", "no", "maybe"]))
    with pytest.raises(ValueError, match="3 rows but y has 2"):
        model.learn_many(X, pd.Series(["yes", "no"]))
    with pytest.raises(ValueError, match="row 1, column 'a' is inf"):
        model.learn_many(pd.DataFrame({"a": [1.0, float("inf")]}), pd.Series(["yes", "no"]))
    with pytest.raises(ValueError, match=r"row 0, column 'b' is missing \(NaN\); Logistic"):
        model.learn_many(pd.DataFrame({"a": [1.0, 2.0], "b": [float("nan"), 1.0]}),
                         pd.Series(["yes", "no"]))
    assert pickle.dumps(model) == before
    # the booster takes a missing cell as an absent feature, as learn_one takes a missing key
    booster = CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression(), seed=1))
    booster.learn_many(pd.DataFrame({"a": [1.0, 2.0], "b": [float("nan"), 1.0]}),
                       pd.Series([True, False]))
    assert booster.calibrator_.n_seen == 2


@pytest.mark.parametrize("cls", [CalibratedClassifier, BanditCalibratedClassifier])
def test_a_frame_with_a_missing_cell_is_predicted_row_by_row_and_refused_to_learn(cls):
    """River's logistic regression takes no NaN in a frame: predictions, the same either way,
    go row by row (the cell an absent feature, as learn_one takes a missing key); learning
    the frame by rows would change how all of it is learned, so learn_many refuses it."""
    pd = pytest.importorskip("pandas")
    model = cls(linear_model.LogisticRegression())
    X = pd.DataFrame([x for x, _ in ROWS[:64]])
    model.learn_many(X, pd.Series([y for _, y in ROWS[:64]]))
    gap = pd.DataFrame([x for x, _ in ROWS[64:96]], index=range(64, 96), dtype=float)
    gap.iloc[5, 2] = float("nan")
    rows = [{k: v for k, v in x.items() if v == v} for x in gap.to_dict("records")]
    proba = model.predict_proba_many(gap)
    assert proba[True].tolist() == [model.predict_proba_one(x)[True] for x in rows]
    assert model.predict_many(gap, c_fn=3.0).tolist() == [model.predict_one(x, c_fn=3.0)
                                                          for x in rows]
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match=rf"row 69, column {gap.columns[2]!r} is missing"):
        model.learn_many(gap, pd.Series([y for _, y in ROWS[64:96]], index=gap.index))
    assert pickle.dumps(model) == before


@pytest.mark.parametrize("key", ["c_fn", "c_fp", "cFN"])
def test_a_cost_given_to_the_calibrated_model_as_it_learns_is_refused(key):
    # a forest takes **kwargs, so the cost would vanish into it: the wrapper learns without
    # costs (the decisions take them), and says so before anything learns
    pd = pytest.importorskip("pandas")
    model = CalibratedClassifier(forest.ARFClassifier(n_models=3, seed=1))
    for x, y in ROWS[:50]:
        model.learn_one(x, y)
    before = pickle.dumps(model)
    x, y = ROWS[50]
    with pytest.raises(TypeError, match=rf"CalibratedClassifier.learn_one got {key}=5.0: the "
                                        "model and its calibrator learn without costs"):
        model.learn_one(x, y, **{key: 5.0})
    with pytest.raises(TypeError, match=rf"learn_many got {key}=\[5.0\]: the model"):
        model.learn_many(pd.DataFrame([x]), pd.Series([y]), **{key: [5.0]})
    assert pickle.dumps(model) == before


def test_a_frame_with_text_columns_goes_to_a_pipeline_that_encodes_them():
    # River's own pipeline learns such a frame; the wrappers refused it (dtype str)
    import pandas as pd

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0] * 8, "c": ["x", "y", "x", "z"] * 8})
    y = pd.Series([True, False, True, False] * 8)

    def encoded():
        return ((compose.Select("c") | preprocessing.OneHotEncoder()) + compose.Select("a")
                | linear_model.LogisticRegression())

    reference, calibrated = encoded(), CalibratedClassifier(encoded())
    controller = BanditCalibratedClassifier(encoded(), policy="discounted-ucb", batch_size=16,
                                            warmup=1, seed=1)
    for start in (0, 16):
        for model in (reference, calibrated, controller):
            model.learn_many(X.iloc[start:start + 16], y.iloc[start:start + 16])
    assert controller.n_batches == 2 and controller.model["LogisticRegression"].weights
    # the model learned the frames with its own learn_many, as River's pipeline alone
    assert (calibrated.model["LogisticRegression"].weights
            == reference["LogisticRegression"].weights)
    assert calibrated._calibrator.n_seen == 32
    X.loc[3, "a"] = float("inf")  # the numeric columns are still checked
    with pytest.raises(ValueError, match="row 3, column 'a' is inf"):
        calibrated.learn_many(X, y)
    X.loc[3, "a"] = 4.0
    # a model that cannot take text: its own error, with a note, and nothing learned
    for model in (CalibratedClassifier(linear_model.LogisticRegression()),
                  BanditCalibratedClassifier(linear_model.LogisticRegression(), seed=0)):
        with pytest.raises(ValueError) as raised:
            model.learn_many(X, y)
        assert "scoring a frame whose column(s) ['c'] are not numbers" in raised.value.__notes__[0]
        assert model.model.weights == {} and model._calibrator.n_seen == 0
    with pytest.raises(TypeError, match="column 'c' has dtype"):  # our booster: numbers only
        CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression())).learn_many(
            X, y)


def test_a_pipeline_with_an_anomaly_filter_learns_a_frame_row_by_row():
    # River's pipeline says it learns by minibatch when its last step does, but a
    # QuantileFilter has no transform_many: learn_many raised AttributeError
    import pandas as pd
    from river import anomaly

    rows = list(datasets.Phishing().take(160))
    X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([label for _, label in rows])

    def filtered():
        return (anomaly.QuantileFilter(anomaly.HalfSpaceTrees(seed=1), q=0.98)
                | linear_model.LogisticRegression())

    for make in (lambda: CalibratedClassifier(filtered()),
                 lambda: BanditCalibratedClassifier(filtered(), policy="discounted-ucb",
                                                    seed=1)):
        by_frames, by_rows = make(), make()
        for start in range(0, 160, 32):
            by_frames.learn_many(X.iloc[start:start + 32], y.iloc[start:start + 32])
        for x, label in rows:
            by_rows.learn_one(x, label)
        assert (by_frames.predict_proba_many(X).to_numpy()
                == by_rows.predict_proba_many(X).to_numpy()).all()


def test_river_naive_bayes_learns_a_frame_row_by_row_keeping_its_classes():
    # River 0.26's BernoulliNB.learn_many names the class True 'True', in predict_proba_one
    # too: by frames the wrappers found no positive class (ValueError, or a dropped round)
    import pandas as pd

    rows = list(datasets.Phishing().take(320))
    X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([label for _, label in rows])
    for make in (lambda: CalibratedClassifier(naive_bayes.BernoulliNB()),
                 lambda: BanditCalibratedClassifier(naive_bayes.BernoulliNB(),
                                                    policy="discounted-ucb", seed=1)):
        by_frames, by_rows = make(), make()
        for start in range(0, 288, 32):
            by_frames.learn_many(X.iloc[start:start + 32], y.iloc[start:start + 32])
        for x, label in rows[:288]:
            by_rows.learn_one(x, label)
        for x, _ in rows[288:]:
            assert by_frames.predict_proba_one(x) == by_rows.predict_proba_one(x)
        assert set(by_frames.predict_proba_one(rows[300][0])) == {False, True}
        assert (by_frames.predict_proba_many(X.iloc[288:]).to_numpy()
                == [[p[False], p[True]] for p in map(by_rows.predict_proba_one,
                                                     X.iloc[288:].to_dict("records"))]).all()


@pytest.mark.parametrize("delay", [1, 10])
def test_a_late_label_calibrates_the_models_score_of_its_own_example_as_it_learns_it(
        delay, monkeypatch):
    # labels that arrive late (River's progressive_val_score(delay=...)): the score the wrapper
    # kept is of the last example predicted, not of the one now learned, which is scored again
    # by the model as it is (still out of sample: the model learns it after)
    model = CalibratedClassifier(linear_model.LogisticRegression())
    learned = []
    update = type(model.calibrator_)._update
    monkeypatch.setattr(type(model.calibrator_), "_update",
                        lambda self, score, positive: learned.append(score) or update(
                            self, score, positive))
    rows, differ = ROWS[:300], 0
    for i, (x, _) in enumerate(rows):
        kept = model.predict_proba_one(x)  # the wrapper keeps x's score
        if i >= delay:
            late, label = rows[i - delay]
            expected = model.model.predict_proba_one(late)[True]
            differ += expected != model.model.predict_proba_one(x)[True]
            model.learn_one(late, label)
            assert learned[-1] == expected
            assert model.predict_proba_one(x) != kept  # the model learned: x scores anew
    assert len(learned) == len(rows) - delay and differ > 250


def served_scores(model, rows, delay):
    """Predict each row as it comes, keep the score it was served (`score_one`), and learn it
    `delay` rows later with that score; the calibrated probabilities."""
    probabilities, kept = [], []
    for i, (x, _) in enumerate(rows):
        if i >= delay:
            late, label = rows[i - delay]
            model.learn_one(late, label, score=kept[i - delay])
        probabilities.append(model.predict_proba_one(x))
        kept.append(model.score_one(x))
    return probabilities


def test_a_served_score_drops_the_score_kept_of_the_same_x():
    # x scored, learned with a served score, then learned again without one: the model moved,
    # so the calibrator learns x's score afresh, not the one kept from before
    x, y = ROWS[0]
    model, twin = (CalibratedClassifier(linear_model.LogisticRegression()) for _ in range(2))
    model.predict_proba_one(x)
    for wrapper in (model, twin):
        wrapper.learn_one(x, y, score=0.3)
        wrapper.learn_one(x, y)
    assert (model.calibrator_.A, model.calibrator_.B) == (twin.calibrator_.A, twin.calibrator_.B)


def test_a_served_score_is_what_the_calibrator_learns_and_the_model_learns_as_ever():
    # learn_one(x, y, score=s): the calibrator learns s, the model learns (x, y) as it would
    rows = ROWS[:400]
    served = CalibratedClassifier(linear_model.LogisticRegression(), "beta")
    by_hand = linear_model.LogisticRegression()
    calibrator = served.calibrator_.clone()
    out = served_scores(served, rows, 10)
    expected = []
    kept = []
    for i, (x, _) in enumerate(rows):
        if i >= 10:
            calibrator.learn_one(kept[i - 10], rows[i - 10][1])
            by_hand.learn_one(*rows[i - 10])
        score = by_hand.predict_proba_one(x)[True]
        p = calibrator.predict_one(score) if calibrator.n_seen else score
        expected.append({False: 1.0 - p, True: p})
        kept.append(score)
    assert out == expected
    assert served.model.weights == by_hand.weights
    rescored = CalibratedClassifier(linear_model.LogisticRegression(), "beta")
    for i, (x, _) in enumerate(rows):  # the default: the calibrator learns x's score now
        if i >= 10:
            rescored.learn_one(*rows[i - 10])
        rescored.predict_proba_one(x)
    assert rescored.model.weights == by_hand.weights
    assert rescored.calibrator_.predict_one(0.3) != served.calibrator_.predict_one(0.3)


def test_score_one_is_the_models_score_computed_once_after_a_prediction():
    class Counting(linear_model.LogisticRegression):
        calls = 0

        def predict_proba_one(self, x):
            Counting.calls += 1
            return super().predict_proba_one(x)

    model = CalibratedClassifier(Counting())
    for x, y in ROWS[:50]:
        model.learn_one(x, y)
    x = ROWS[50][0]
    Counting.calls = 0
    model.predict_proba_one(x)
    assert model.score_one(dict(x)) == model.model.predict_proba_one(x)[True]
    assert Counting.calls == 2  # the prediction, and the check above: score_one reused it
    # another x, or the same dict changed since, is scored afresh (not the kept score)
    other, changed = ROWS[51][0], {**x, next(iter(x)): x[next(iter(x))] + 1.0}
    for fresh in (other, changed):
        model.predict_proba_one(x)
        assert model.score_one(fresh) == model.model.predict_proba_one(fresh)[True]
        assert model.score_one(fresh) != model.score_one(x)
    pipe = preprocessing.StandardScaler() | CalibratedClassifier(linear_model.LogisticRegression())
    for x, y in ROWS[:50]:
        pipe.learn_one(x, y, score=0.25)  # River's pipeline hands score to the wrapper
    assert pipe["CalibratedClassifier"].calibrator_.n_seen == 50
    assert 0.0 < pipe.score_one(ROWS[50][0]) < 1.0


@pytest.mark.parametrize("bad", [float("nan"), 1.5, -0.1, True, "0.3", None])
def test_a_bad_served_score_is_refused_before_anything_learns(bad):
    model = CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression(), seed=1))
    for x, y in ROWS[:40]:
        model.learn_one(x, y)
    before = pickle.dumps(model)
    frame = pd.DataFrame([x for x, _ in ROWS[40:44]])
    labels = pd.Series([y for _, y in ROWS[40:44]])
    if bad is not None:
        with pytest.raises(ValueError, match="score must be a"):
            model.learn_one(*ROWS[40], score=bad)
        assert pickle.dumps(model) == before
        with pytest.raises(ValueError, match="score must be a"):
            model.learn_many(frame, labels, score=[0.1, bad, 0.2, 0.3])
        assert pickle.dumps(model) == before
    with pytest.raises(ValueError, match="one served score per row: 4, got 3"):
        model.learn_many(frame, labels, score=[0.1, 0.2, 0.3])
    assert pickle.dumps(model) == before


@pytest.mark.parametrize("make", [
    lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1),  # frames
    lambda: tree.HoeffdingTreeClassifier(),  # row by row
])
def test_a_frames_served_scores_are_what_its_calibrator_learns(make):
    wrapper, alone = CalibratedClassifier(make(), "platt"), make()
    calibrator = wrapper.calibrator_.clone()
    frame = pd.DataFrame([x for x, _ in ROWS[:64]])
    labels = pd.Series([y for _, y in ROWS[:64]])
    served = [0.5 + 0.4 * math.sin(i) for i in range(64)]
    wrapper.learn_many(frame, pd.Series(labels), score=pd.Series(served, index=range(7, 71)))
    if isinstance(alone, OzaBoostClassifier):
        alone.learn_many(frame, labels)
    else:
        for x, y in ROWS[:64]:
            alone.learn_one(x, y)
    for s, y in zip(served, labels, strict=True):
        calibrator.learn_one(s, y)
    grid = [i / 10 for i in range(11)]
    assert [wrapper.calibrator_.predict_one(s) for s in grid] == [calibrator.predict_one(s)
                                                                  for s in grid]
    x = ROWS[70][0]
    assert wrapper.score_one(x) == alone.predict_proba_one(x)[True]


def test_the_controller_refuses_a_served_score_before_anything_changes():
    model = BanditCalibratedClassifier(policy="discounted-ucb", batch_size=8, warmup=1, seed=1)
    for x, y in ROWS[:40]:
        model.learn_one(x, y)
    before = pickle.dumps(model)
    frame = pd.DataFrame([x for x, _ in ROWS[40:44]])
    labels = pd.Series([y for _, y in ROWS[40:44]])
    for call in (lambda: model.learn_one(*ROWS[40], score=0.3),
                 lambda: model.learn_many(frame, labels, score=[0.3] * 4)):
        with pytest.raises(TypeError, match=r"a served score is CalibratedClassifier's"):
            call()
        assert pickle.dumps(model) == before
    assert model.score_one(ROWS[40][0]) == model.model_.score_one(ROWS[40][0])


def test_a_frame_learned_is_scored_afresh_after():
    # the frame's scores are kept from its minibatch step for the model to learn; once it has,
    # they are stale: the same frame is scored as a copy of it is
    X = pd.DataFrame([x for x, _ in ROWS[:64]])
    model = CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression(),
                                                    n_models=3, seed=3))
    model.learn_many(X, pd.Series([y for _, y in ROWS[:64]]))
    assert model.predict_proba_many(X).equals(model.predict_proba_many(X.copy()))


class _Refuses(base.MiniBatchClassifier):
    """A multiclass-capable model that raises on one label, one by one or in a frame."""

    _multiclass = True

    def __init__(self, refused: str = "ham"):
        self.refused = refused

    def learn_one(self, x, y, **kwargs):
        if y == self.refused:
            raise ValueError(f"the model refuses {y!r}")

    def learn_many(self, X, y, **kwargs):
        if (y == self.refused).any():
            raise ValueError(f"the model refuses {self.refused!r}")

    def predict_proba_one(self, x, **kwargs):
        return {"spam": 0.2, "ham": 0.8}

    def predict_proba_many(self, X):
        return pd.DataFrame({"spam": [0.2] * len(X), "ham": [0.8] * len(X)}, index=X.index)


def test_a_label_the_model_refuses_names_no_negative():
    """As `CostSensitiveClassifier`: the model raised, so the calibrator and the labels are as
    they were; the first other label the model learns names the negative."""
    X = pd.DataFrame({"x": [1.0, 2.0]})
    one, frames = (CalibratedClassifier(_Refuses(), pos_label="spam") for _ in range(2))
    with pytest.raises(ValueError, match="refuses 'ham'"):
        one.learn_one({"x": 1.0}, "ham")
    with pytest.raises(ValueError, match="refuses 'ham'"):
        frames.learn_many(X, pd.Series(["ham", "spam"]))
    one.learn_one({"x": 1.0}, "eggs")
    frames.learn_many(X, pd.Series(["spam", "eggs"]))
    assert one.predict_one({"x": 1.0}) == frames.predict_one({"x": 1.0}) == "eggs"
