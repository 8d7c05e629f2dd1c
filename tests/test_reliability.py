"""Bad input, refused before anything changes: a catalogue over the booster, calibrators,
controller, wrappers, decisions, metrics, policies, readers and CLI; properties that hold after
any input; interrupting a grid."""

from __future__ import annotations

import collections
import contextlib
import decimal
import fractions
import gzip
import itertools
import math
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from river import datasets, forest, linear_model, preprocessing

from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    CostSensitiveClassifier,
    OzaBoostClassifier,
    bandits,
    calibration,
    decision,
    kernels,
    metrics,
    validation,
)
from streamboost.cli import main
from streamboost.datasets import CSVTable
from streamboost.datasets import stream as streamboost_stream
from streamboost.validation import LIMIT, FiniteFeatures, check_dataframe, check_features

ROWS = list(datasets.Phishing().take(400))
X0 = dict(ROWS[0][0])
NAN, INF = float("nan"), float("inf")


def with_value(value, key="empty_server_form_handler"):
    return {**X0, key: value}


# ---------------------------------------------------------------- the objects, trained a little


def booster():
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1)


def controller():
    # batch_size 7: after 49 examples the next learn_one starts a minibatch (a policy select)
    return BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-thompson", batch_size=7,
        warmup=1, seed=3,
    )


def deferring():
    # every minibatch measured, rolled back by holding: after 49 examples a minibatch's
    # training examples wait for the next one
    return BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=7,
        warmup=1, rollback="defer", seed=3,
    )


def holding_out():
    # every minibatch measured on its first 4 examples: after 49 examples, 4 of minibatch 4's
    # are held out of learning until it ends
    return BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=10,
        warmup=1, rollback="holdout", reward_examples=4, seed=3,
    )


def wrapper():
    return CalibratedClassifier(linear_model.LogisticRegression(), calibrator="isotonic")


def reference_booster():
    # River members, which take keyword arguments (a sample weight)
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, engine="reference",
                              seed=1)


def soft_booster():
    # scored from River members' probabilities, whose votes it keeps for learning
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, engine="reference",
                              score="soft", seed=1)


def cost_sensitive():
    # the decision wrapper, which before 0.8.34 passed a NaN feature or weight to its model
    return CostSensitiveClassifier(linear_model.LogisticRegression(), c_fp=1.0, c_fn=4.0)


def cost_sensitive_forest():
    # a model that takes any keyword (`**kwargs`): before 0.8.49 it took a cost silently
    return CostSensitiveClassifier(forest.ARFClassifier(n_models=2, seed=1), c_fn=4.0)


MODELS = {"booster": booster, "reference booster": reference_booster, "controller": controller,
          "deferring": deferring, "holding out": holding_out, "wrapper": wrapper,
          "cost-sensitive": cost_sensitive, "soft booster": soft_booster}
# beside them, cases of its own only (it takes any keyword, and River's forest its features)
WRAPPED = {**MODELS, "cost-sensitive forest": cost_sensitive_forest}


def trained(kind: str):
    if kind in WRAPPED:
        model = WRAPPED[kind]()
        for x, y in ROWS[:49]:
            model.predict_proba_one(x)
            model.learn_one(x, y)
        return model
    if kind in calibration.CALIBRATORS:
        cal = calibration.make(kind)
        cal.learn_many([0.2, 0.4, 0.7, 0.9], [False, False, True, True])
        return cal
    if kind in ("brier", "ece", "cost", "curve"):
        metric = {"brier": metrics.BrierScore, "ece": metrics.ExpectedCalibrationError,
                  "cost": lambda: metrics.ExpectedCost(1.0, 4.0), "curve": metrics.BrierCurve}[kind]()
        for y, p in [(True, 0.8), (False, 0.3)]:
            metric.update(y, p)
        return metric
    policy = bandits.make(kind, n_arms=3, seed=5)
    for _ in range(6):
        policy.update(policy.select(), 0.5)
    return policy


def follow_up(kind: str, obj) -> list:
    """What the object does next: 100 steps, recorded (compared with an untouched twin's)."""
    rng = random.Random(11)
    out = []
    if kind in WRAPPED:
        for x, y in ROWS[100:200]:
            out.append(obj.predict_proba_one(x))
            obj.learn_one(x, y)
    elif kind in calibration.CALIBRATORS:
        for _ in range(100):
            s = rng.random()
            out.append(obj.predict_one(s))
            obj.learn_one(s, rng.random() < s)
    elif kind in ("brier", "ece", "cost", "curve"):
        for _ in range(100):
            obj.update(rng.random() < 0.5, rng.random())
            out.append(obj.get())
    else:
        for _ in range(100):
            arm = obj.select()
            out.append(arm)
            obj.update(arm, rng.random())
    return out


# ---------------------------------------------------------------- the catalogue

MODEL_CASES = [
    ("nan feature", lambda m: m.learn_one(with_value(NAN), True), ValueError, r"is nan; expected a finite number"),
    ("inf feature", lambda m: m.learn_one(with_value(INF), False), ValueError, r"is inf; expected a finite"),
    ("-inf feature", lambda m: m.learn_one(with_value(-INF), True), ValueError, r"is -inf; expected"),
    ("absurd feature", lambda m: m.learn_one(with_value(1e300), True), ValueError, r"is 1e\+300; expected a finite number within \+/-1e\+150"),
    ("huge int feature", lambda m: m.learn_one(with_value(10**400), True), ValueError, r"expected a finite number"),
    ("third label", lambda m: m.learn_one(X0, "maybe"), ValueError, r"label 'maybe' is neither pos_label=True"),
    ("None label", lambda m: m.learn_one(X0, None), ValueError, r"label None is missing; \w+ takes labelled examples only"),
    ("label 2", lambda m: m.learn_one(X0, 2), ValueError, r"label 2 is neither"),
    ("unhashable label", lambda m: m.learn_one(X0, [True]), TypeError, r"^label \[True\] is unhashable \(list\): \w+ takes class labels"),
    ("x not a dict", lambda m: m.learn_one([1.0, 2.0], True), TypeError, r"x must be a dict of features, got list"),
    ("predict on nan", lambda m: m.predict_proba_one(with_value(NAN)), ValueError, r"is nan; expected"),
    ("predict_one on inf", lambda m: m.predict_one(with_value(INF)), ValueError, r"is inf; expected"),
    # a keyword the model does not take: refused before a minibatch starts or a number is drawn
    ("unknown keyword", lambda m: m.learn_one(X0, True, weight=2.0), TypeError, r"LogisticRegression\.learn_one takes no keyword argument 'weight' \(it takes: w\)|vectorised members take a sample weight w only, got \['weight'\]"),
]
# None is no number: numpy read it as nan, which made every array member's weight NaN (before
# 0.8.34); River's linear models refuse it themselves (River members: their own business, as a
# string is, so not the reference booster's case)
NONE_CASES = [
    ("None feature", lambda m: m.learn_one(with_value(None), True), TypeError, r"is None; expected a number \(leave a missing value out of the dict\)$|^VectorDict values must be real numbers$"),
]
COST_CASES = [
    ("predict_one bad costs", lambda m: m.predict_one(X0, c_fp=-1.0), ValueError, r"c_fp must be finite and > 0, got -1.0"),
    ("set_costs nan", lambda m: m.set_costs(c_fp=NAN, c_fn=1.0), ValueError, r"c_fp must be finite and > 0, got nan"),
    # a misspelt cost reached nothing and the decision was taken at the default costs
    ("predict_one misspelt cost", lambda m: m.predict_one(X0, c_FP=10.0), TypeError, r"^predict_one got c_FP=10\.0: the costs are the keywords c_fp and c_fn$"),
    ("predict_one other keyword", lambda m: m.predict_one(X0, temperature=2.0), TypeError, r"\.predict_proba_one takes no keyword argument 'temperature' \(predict_one and predict_many take the costs c_fp and c_fn"),
    ("predict_many misspelt cost", lambda m: m.predict_many(pd.DataFrame([X0]), cfn=10.0), TypeError, r"\.predict_many takes no keyword argument 'cfn'"),
    ("predict_proba_many keyword", lambda m: m.predict_proba_many(pd.DataFrame([X0]), c_fp=2.0), TypeError, r"\.predict_proba_many takes no keyword argument 'c_fp'"),
    ("score_one keyword", lambda m: m.score_one(X0, w=2.0), TypeError, r"^\w+\.score_one takes no keyword argument 'w'"),
]
# the wrappers that learn without costs: a cost given to learn is a mistake (the decisions take
# them), refused before a model that takes any keyword swallows it
LEARNING_COST_CASES = [
    ("a cost to learn_one", lambda m: m.learn_one(X0, True, c_fn=5.0), TypeError, r"\.learn_one got c_fn=5\.0: the model (and its calibrator learn|learns) without costs; the decisions take them"),
    ("a cost per row to learn_many", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, False]), c_fp=pd.Series([1.0, 2.0])), TypeError, r"\.learn_many got c_fp=0 1\.0 1 2\.0 dtype: float64: the model"),
]
# the decision wrapper hands a prediction's keywords to its model: a cost is refused (a
# probability takes none), a keyword the model does not take is named
PROBABILITY_CASES = [
    ("a cost to predict_proba_one", lambda m: m.predict_proba_one(X0, c_fn=5.0), TypeError, r"^CostSensitiveClassifier\.predict_proba_one got c_fn=5\.0: a probability takes no costs"),
    ("a keyword the model's predict_proba_one does not take", lambda m: m.predict_proba_one(X0, temperature=2.0), TypeError, r"^LogisticRegression\.predict_proba_one takes no keyword argument 'temperature'"),
]
FRAME_CASES = [
    ("frame with inf", lambda m: m.learn_many(pd.DataFrame([X0, with_value(INF)]), pd.Series([True, False])), ValueError, r"row 1, column 'empty_server_form_handler' is inf"),
    ("frame with a third label", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, "x"])), ValueError, r"label 'x' is neither"),
    ("frame with an unhashable label", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, [False]])), TypeError, r"^label \[False\] is unhashable \(list\)"),
    ("frame and labels differ", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True])), ValueError, r"X has 2 rows but y has 1 labels"),
    ("frame with a nan weight", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, False]), w=NAN), ValueError, r"sample weight w must be a finite number >= 0, or one per row \(2 of them\), got nan|^sample weight w must be a finite number >= 0, got nan"),
    ("frame with a bad weight of a row", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, False]), w=pd.Series([1.0, -2.0])), ValueError, r"sample weight w must hold a finite number >= 0 per row; row 1's is -2.0"),
    ("frame with too few weights", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, False]), w=[1.0]), ValueError, r"sample weight w must hold one weight per row: 2 rows, got 1 weights"),
    ("frame with an unknown keyword", lambda m: m.learn_many(pd.DataFrame([X0, X0]), pd.Series([True, False]), weight=2.0), TypeError, r"LogisticRegression\.learn_(one|many) takes no keyword argument 'weight'|vectorised members take a sample weight w only, got \['weight'\]"),
]
CALIBRATOR_CASES = [
    ("nan score", lambda c: c.learn_one(NAN, True), ValueError, r"score must be a finite real in \[0, 1\], got nan"),
    ("score above 1", lambda c: c.learn_one(1.5, True), ValueError, r"got 1.5"),
    ("negative score", lambda c: c.learn_one(-0.1, False), ValueError, r"got -0.1"),
    ("string score", lambda c: c.learn_one("0.5", True), ValueError, r"got '0.5' \(str\)"),
    ("label 2", lambda c: c.learn_one(0.5, 2), ValueError, r"y must be a bool or 0/1, got 2"),
    ("a bad pair in a batch", lambda c: c.learn_many([0.3, INF], [True, False]), ValueError, r"got inf"),
]
METRIC_CASES = [
    ("y_true None", lambda m: m.update(None, 0.5), ValueError, r"label None is missing; \w+ takes labelled examples only"),
    ("y_true 2", lambda m: m.update(2, 0.5), ValueError, r"label 2 is neither"),
    ("y_true 'True'", lambda m: m.update("True", 0.5), ValueError, r"label 'True' is neither"),
    ("string-keyed proba", lambda m: m.update(True, {"True": 0.9}), ValueError, r"positive label True is not among the predicted labels \['True'\]"),
    ("proba above 1", lambda m: m.update(True, 1.5), ValueError, r"must lie in \[0, 1\], got 1.5"),
    ("nan proba", lambda m: m.update(False, NAN), ValueError, r"got nan"),
    ("negative weight", lambda m: m.update(True, 0.5, w=-1.0), ValueError, r"the weight w must be a finite number in \[0, 1e\+150\], got -1.0"),
    ("weight 1e300", lambda m: m.update(True, 0.5, w=1e300), ValueError, r"got 1e\+300"),
    ("revert never added", lambda m: m.revert(True, 0.5, w=10.0), ValueError, r"cannot revert weight 10.0: only 2.0 was added"),
]
POLICY_CASES = [
    ("arm out of range", lambda p: p.update(3, 0.5), ValueError, r"arm must be an int in \[0, 2\], got 3"),
    ("negative arm", lambda p: p.update(-1, 0.5), ValueError, r"got -1"),
    ("nan reward", lambda p: p.update(0, NAN), ValueError, r"reward must be .*got nan"),
    ("inf reward", lambda p: p.update(1, INF), ValueError, r"got inf"),
    ("string reward", lambda p: p.update(0, "1"), ValueError, r"reward must be a real number, got '1' \(str\)"),
    ("round with a bad reward", lambda p: p.update_round({0: 0.5, 1: NAN}), ValueError, r"got nan|the pulled arm only"),
]
GAUSSIAN_CASES = [
    ("reward 1e300", lambda p: p.update(0, 1e300), ValueError, r"reward must be finite \(within \+/-1e150\), got 1e\+300"),
]

CATALOGUE = (
    [(kind, *case) for kind in MODELS for case in MODEL_CASES]
    + [(kind, *case) for kind in MODELS if kind not in ("reference booster", "soft booster")
       for case in NONE_CASES]
    + [(kind, *case) for kind in ("controller", "deferring", "holding out", "wrapper")
       for case in COST_CASES]
    + [(kind, *case) for kind in ("wrapper", "cost-sensitive", "cost-sensitive forest")
       for case in LEARNING_COST_CASES]
    + [("cost-sensitive", *case) for case in PROBABILITY_CASES]
    + [("cost-sensitive forest", *PROBABILITY_CASES[0])]
    + [(kind, *case) for kind in ("booster", "reference booster", "soft booster", "controller",
                                  "deferring", "holding out", "wrapper") for case in FRAME_CASES]
    + [(kind, *case) for kind in sorted(calibration.CALIBRATORS) for case in CALIBRATOR_CASES]
    + [(kind, *case) for kind in ("brier", "ece", "cost", "curve") for case in METRIC_CASES]
    + [(kind, *case) for kind in ("ucb1", "discounted-thompson", "exp3", "sliding-window-ucb")
       for case in POLICY_CASES]
    + [("gaussian-thompson", *case) for case in GAUSSIAN_CASES]
)


@pytest.mark.parametrize(
    ("kind", "name", "call", "error", "message"),
    CATALOGUE,
    ids=[f"{c[0]}: {c[1]}" for c in CATALOGUE],
)
def test_bad_input_is_refused_and_changes_nothing(kind, name, call, error, message):
    obj = trained(kind)
    twin = pickle.loads(pickle.dumps(obj))
    before = pickle.dumps(obj)
    with pytest.raises(error, match=message):
        call(obj)
    assert pickle.dumps(obj) == before
    assert follow_up(kind, obj) == follow_up(kind, twin)


def test_the_catalogue_is_large():
    assert len(CATALOGUE) >= 60


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: decision.cost_threshold(0.0, 1.0), ValueError, r"c_fp must be finite and > 0, got 0.0"),
        (lambda: decision.cost_threshold(1.0, INF), ValueError, r"c_fn must be finite and > 0, got inf"),
        (lambda: decision.cost_threshold("1", 1.0), TypeError, r"c_fp must be a real number, got '1' \(str\)"),
        (lambda: decision.decide(1.5, 1.0, 1.0), ValueError, r"p_pos must lie in \[0, 1\], got 1.5"),
        (lambda: decision.decide(NAN, 1.0, 1.0), ValueError, r"got nan"),
        (lambda: bandits.GaussianThompson(noise_std=1e-200), ValueError, r"noise_std must be a finite number > 0 \(in \[1e-150, 1e150\]\), got 1e-200"),
        (lambda: calibration.OnlinePlattCalibrator(gamma=1e-200), ValueError, r"gamma must be in \[1e-8, 1e8\], got 1e-200"),
        (lambda: calibration.OnlinePlattCalibrator(gamma=1e300), ValueError, r"got 1e\+300"),
        (lambda: BanditCalibratedClassifier(calibrator=42), TypeError, r"calibrator must be a name .* got 42 \(int\)"),
        (lambda: CalibratedClassifier(linear_model.LinearRegression()), TypeError, r"model must be a River classifier"),
    ],
)
def test_bad_parameters_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _typo_calls():
    from streamboost import datasets as sb_datasets
    from streamboost.datasets.files import _spec
    from streamboost.experiments.grid import Cell, check_dataset, check_policy
    from streamboost.experiments.models import check_model_name

    return [  # (call with a name, what it should suggest or None)
        (lambda n: BanditCalibratedClassifier(policy=n), {"discounted_ucb": "discounted-ucb",
                                                          "Every-7": "every-N", "ucbb1": "ucb1",
                                                          "optimal": None}),
        (lambda n: bandits.make(n, n_arms=2), {"KL_UCB": "kl-ucb", "bandit": None}),
        (lambda n: check_policy(n), {"Sliding Window UCB": "sliding-window-ucb"}),
        (lambda n: calibration.make(n), {"isotonik": "isotonic", "sigmoid": None}),
        (lambda n: BanditCalibratedClassifier(calibrator=n), {"Platt": "platt"}),
        (lambda n: Cell("phishing", "never", calibrator=n), {"histogramm": "histogram"}),
        (lambda n: Cell("phishing", "never", model=n), {"OZA-HT": "oza-ht"}),
        (lambda n: sb_datasets.stream(n), {"electricty": "electricity", "nowhere": None}),
        (lambda n: check_dataset(n), {"Phishing": "phishing"}),
        (lambda n: _spec(n), {"spam_base": "spambase"}),
        (lambda n: check_model_name(n), {"ozalr": "oza-lr", "svm": None}),
    ]


@pytest.mark.parametrize("index", range(11))
def test_a_mistyped_name_is_answered_with_the_name_meant(index):
    call, names = _typo_calls()[index]
    for name, meant in names.items():
        with pytest.raises((ValueError, KeyError, FileNotFoundError)) as caught:
            call(name)
        text = str(caught.value)
        assert repr(name) in text
        assert (f"(did you mean {meant!r}?)" in text) if meant else ("did you mean" not in text)


# ---------------------------------------------------------------- readers and the CLI


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"a,target\n1,yes\ninf,no\n", r"line 3: column 'a' holds 'inf'; expected a finite number"),
        (b"a,target\n1,yes\n1e400,no\n", r"holds '1e400'"),
        (b"a,target\n\xff\xfe,yes\n", r"bad.csv: cannot be read as CSV text \(UnicodeDecodeError"),
        # mtime=0 and an id: a gzip header holds the time it was written, which pytest 8.0 (our
        # oldest) wrote into the test's id, and pytest-xdist's workers must collect the same
        # tests (a second apart, they did not: "Different tests were collected")
        pytest.param(gzip.compress(b"a,target\n" + b"".join(b"%d,yes\n" % i for i in range(20000)),
                                   mtime=0)[:3000],
                     r"cannot be read as CSV text \(EOFError", id="truncated-gzip"),
        (b"a,b\n1,2\n", r"label column 'target' not found"),
        (b"a,target\n1,yes,3\n", r"line 2: 3 fields, expected 2"),
    ],
)
def test_bad_files_are_named(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        list(CSVTable(path, numeric=True))


def test_nan_cells_are_missing_values(tmp_path):
    path = tmp_path / "ok.csv"
    path.write_text("a,b,target\nnan,1,yes\n2,NaN,no\n")
    assert list(CSVTable(path)) == [({"b": 1.0}, "yes"), ({"a": 2.0}, "no")]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--dataset", "phishing", "--policy", "every-0"],
         "policy 'every-0': N must be a whole number >= 1"),
        (["run", "--calibrator", "sigmoid"], "invalid choice: 'sigmoid'"),
        (["run", "--model", "svm"], "invalid choice: 'svm'"),
        (["run", "--dataset", "nope"], "unknown dataset 'nope'"),
        (["run", "--c-fn", "nan"], "expected a finite number > 0"),
    ],
)
def test_cli_refuses_bad_flags(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_refuses_an_output_that_is_a_file_or_a_trace_that_is_a_directory(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert main(["compare", "--out", str(tmp_path / "file"), "--no-progress"]) == 2
    assert "is a file; expected a directory" in capsys.readouterr().err
    run = ["run", "--dataset", "phishing", "--trace", str(tmp_path), "--max-rows", "50"]
    assert main([*run, "--no-progress"]) == 2
    assert "is a directory; expected a CSV file path" in capsys.readouterr().err


# ---------------------------------------------------------------- properties

FEATURE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-10, 10),
    st.sampled_from([1e300, -1e300, 0.0]),
)


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(
        st.one_of(FEATURE, st.integers(-(10**200), 10**200), st.booleans(), st.just("red")),
        max_size=8,
    )
)
def test_check_features_refuses_exactly_the_bad_values_and_names_the_first(values):
    x = {f"f{i}": v for i, v in enumerate(values)}
    bad = [
        key for key, v in x.items()
        if not isinstance(v, str | bool) and not (math.isfinite(v) and abs(v) <= LIMIT)
    ]
    _assert_checked(x, bad[0] if bad else None)


def _assert_checked(x: dict, first_bad: str | None) -> None:
    """`check_features(x)` passes `x` if `first_bad` is None, else raises naming that feature:
    with the compiled fast path (when built) and with the Python loop alone."""
    for fast in {validation._NUMBERS_WITHIN, None}:
        with mock.patch.object(validation, "_NUMBERS_WITHIN", fast):
            if first_bad is None:
                assert check_features(x) is x
                continue
            with pytest.raises(ValueError, match=f"^feature '{first_bad}' is "):
                check_features(x)


def test_a_decimal_nan_never_reaches_a_weight():
    # the array members turn any value with a float value into one: the check must see it too
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    for i in range(20):
        booster.learn_one({"a": float(i % 2)}, bool(i % 2))
    before = pickle.dumps(booster)
    for value in (decimal.Decimal("nan"), decimal.Decimal("-inf")):
        with pytest.raises(ValueError, match=r"^feature 'a' is Decimal\("):
            booster.learn_one({"a": value}, True)
        with pytest.raises(ValueError, match=r"^feature 'a' is Decimal\("):
            booster.predict_proba_one({"a": value})
    assert pickle.dumps(booster) == before


@pytest.mark.parametrize("make", [
    lambda: CalibratedClassifier(linear_model.LogisticRegression()),
    lambda: BanditCalibratedClassifier(model=linear_model.LogisticRegression(), seed=0),
    lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2,
                               engine="reference", seed=0),
    lambda: CostSensitiveClassifier(linear_model.LogisticRegression()),
])
def test_a_bad_sample_weight_is_refused_before_the_model_learns_it(make):
    # River's models take w as it comes: a NaN weight made every weight NaN
    model = make()
    model.learn_one({"a": 1.0}, True, w=2.0)
    model.learn_one({"a": -1.0}, False, w=np.float32(0.5))  # any finite number >= 0
    before = pickle.dumps(model)
    for w in (float("nan"), float("inf"), -1.0, "2", True, None):
        with pytest.raises(ValueError, match=rf"^sample weight w must be a finite number >= 0, "
                                             rf"got {re.escape(repr(w))}$"):
            model.learn_one({"a": 1.0}, True, w=w)
    assert pickle.dumps(model) == before


def _records_by_to_dict(X: pd.DataFrame) -> list[dict]:
    """`validation.records`' general path: pandas' `to_dict`, cell by cell."""
    rows = []
    for index, row in zip(X.index, X.to_dict(orient="records"), strict=True):
        x = {}
        for key, value in row.items():
            if value == value:
                if not -LIMIT <= value <= LIMIT:
                    raise ValueError(f"row {index!r}, column {key!r} is {value!r}")
                x[key] = value
        rows.append(x)
    return rows


@pytest.mark.parametrize(
    ("value", "bad"),
    [
        (np.float32(2.5), False),
        (np.float32("inf"), True),
        (np.int64(7), False),
        (fractions.Fraction(1, 3), False),
        (fractions.Fraction(10**400), True),  # float() overflows: refused, not an error
        (np.float64("nan"), True),  # a float subclass
        # not a numbers.Real, but the array members would take its float value
        (decimal.Decimal("1.5"), False),
        (decimal.Decimal("nan"), True),
        (decimal.Decimal("sNaN"), True),  # float() refuses it: refused here too, not an error
        (decimal.Decimal("1e400"), True),
        (np.str_("1.5"), False),  # text, as a str: left to the model
        # numpy's dates and durations have a __float__ that raises TypeError: no number, left
        # to the model as a pandas Timestamp is (0.8.50 let float()'s TypeError out, unnamed)
        (np.datetime64("2020-01-01"), False),
        (np.datetime64("NaT", "ns"), False),
        (np.timedelta64(5, "s"), False),
    ],
)
def test_check_features_judges_other_number_types_by_their_float_value(value, bad):
    _assert_checked({"a": 1.0, "b": value}, "b" if bad else None)


def test_records_of_a_mixed_frame_keep_each_cell_as_it_is_and_name_the_first_bad_number():
    # not one float array (a column of strings): the rows go through pandas' own dicts
    X = pd.DataFrame({"colour": ["red", "blue", "green"], "n": [1, 2, 3],
                      "v": [0.5, float("nan"), 2.0]}, index=["r1", "r2", "r3"])
    rows = validation.records(X)
    assert rows == [{"colour": "red", "n": 1, "v": 0.5}, {"colour": "blue", "n": 2},
                    {"colour": "green", "n": 3, "v": 2.0}]
    assert type(rows[0]["n"]) is int  # as pandas gives it, not made a float
    X.loc["r3", "v"] = float("-inf")
    with pytest.raises(ValueError, match=r"^row 'r3', column 'v' is -inf; expected a finite"):
        validation.records(X)


def test_a_nullable_columns_missing_cells_are_missing_values_as_nan_cells_are():
    # pandas' nullable columns (Int64, Float64, boolean, string) hand their pd.NA out as None,
    # a text column its missing cell as None, a date column NaT: left out, as a NaN cell is
    # (0.8.50 kept None in the row, so River's logistic regression raised its own TypeError
    # scoring a frame with a missing Int64 cell, where a float NaN cell was scored absent)
    X = pd.DataFrame({"i": pd.array([1, None, 3], dtype="Int64"),
                      "f": pd.array([1.5, 2.5, None], dtype="Float64"),
                      "b": pd.array([None, True, False], dtype="boolean"),
                      "s": pd.array(["x", None, "z"], dtype="string"),
                      "o": pd.Series(["x", "y", None], dtype=object),
                      "t": [pd.Timestamp("2020"), pd.NaT, pd.Timestamp("2021")]})
    assert validation.records(X) == [
        {"i": 1, "f": 1.5, "s": "x", "o": "x", "t": pd.Timestamp("2020")},
        {"f": 2.5, "b": True, "o": "y"},
        {"i": 3, "b": False, "s": "z", "t": pd.Timestamp("2021")}]
    # the numbers alone: scored as the float frame with NaN where the nullable one has NA
    numbers = X[["i", "f", "b"]]
    floats = pd.DataFrame({"i": [1.0, math.nan, 3.0], "f": [1.5, 2.5, math.nan],
                           "b": [math.nan, 1.0, 0.0]})
    model = CalibratedClassifier(linear_model.LogisticRegression())
    for x, y in [({"i": 1.0, "f": -1.0, "b": 1.0}, True), ({"i": -2.0, "f": 0.5}, False)] * 5:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    got = model.predict_proba_many(numbers)
    assert got.to_numpy().tolist() == model.predict_proba_many(floats).to_numpy().tolist()
    assert len(set(got[True])) == 3


@pytest.mark.parametrize("make", [
    lambda: CalibratedClassifier(linear_model.LogisticRegression()),
    lambda: BanditCalibratedClassifier(model=linear_model.LogisticRegression(), batch_size=2),
    lambda: CostSensitiveClassifier(linear_model.LogisticRegression()),
])
def test_a_bad_cell_of_a_frame_with_integer_labels_is_named_as_the_user_wrote_them(make):
    """An integer index's or columns' labels are numpy scalars to pandas (`X.index[i]`): an error
    says `row 20`, not `row np.int64(20)`, for an infinite cell (every wrapper) and a missing
    one (refused by a model whose minibatch methods take none)."""
    y = pd.Series([True, False, True], index=[10, 20, 30])
    infinite = pd.DataFrame({"a": [1.0, math.inf, 3.0]}, index=y.index)
    missing = pd.DataFrame(np.array([[1.0, 2.0], [3.0, math.nan], [5.0, 6.0]]),
                           index=y.index, columns=pd.Index([7, 8]))
    for X, said in ((infinite, "row 20, column 'a' is inf"),
                    (missing, "row 20, column 8 is missing (NaN)")):
        model = make()
        before = pickle.dumps(model)
        with pytest.raises(ValueError, match=rf"^{re.escape(said)}"):
            model.learn_many(X, y)
        assert pickle.dumps(model) == before


@settings(max_examples=200, deadline=None)
@given(
    cells=st.lists(st.lists(st.one_of(FEATURE, st.just(float("nan"))), min_size=3, max_size=3),
                   max_size=6),
)
def test_records_of_a_float_frame_are_to_dicts_and_name_the_same_first_bad_cell(cells):
    X = pd.DataFrame(cells, columns=["a", 2, "c"], index=[f"r{i}" for i in range(len(cells))],
                     dtype=float)
    try:
        expected = _records_by_to_dict(X)
    except ValueError as error:
        with pytest.raises(ValueError, match=f"^{re.escape(str(error))}; expected"):
            validation.records(X)
        return
    got = validation.records(X)
    assert got == expected
    assert all(type(v) is float for x in got for v in x.values())


@settings(max_examples=100, deadline=None)
@given(
    cells=st.lists(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(float("nan"))),
                            min_size=3, max_size=3), max_size=6),
    cut=st.integers(0, 6),
)
def test_lazy_records_are_the_records_of_the_frame_as_it_was(cells, cut):
    """`lazy_records` of a checked float frame: `records`' dicts (NaN cells left out, Python
    floats), whole, sliced, taken by position or one by one, made when read from the values as
    they were when it was called (the controller records a frame its caller may refill); other
    frames: `records` now."""
    X = pd.DataFrame(cells, columns=["a", 2, "c"], dtype=float)
    expected = validation.records(X)
    lazy = validation.lazy_records(X)
    X.iloc[:, :] = 7.0  # refilled in place before anything is read
    assert type(lazy) is validation.LazyRecords and len(lazy) == len(expected)
    assert list(lazy[:cut]) == expected[:cut] and list(lazy[cut:]) == expected[cut:]
    assert [lazy[i] for i in range(len(expected))] == list(lazy) == expected
    picked = list(range(len(expected)))[::2]  # a round's sample, by position
    assert type(lazy.take(picked)) is validation.LazyRecords
    assert list(lazy.take(picked)) == [expected[i] for i in picked]
    assert all(type(v) is float for x in lazy for v in x.values())
    mixed = pd.DataFrame({"colour": ["red"] * (cut + 1), "v": [1.0] * (cut + 1)})
    assert validation.lazy_records(mixed) == validation.records(mixed)


@pytest.mark.skipif(kernels.compiled is None, reason="the compiled kernels are not built")
@pytest.mark.parametrize(
    ("x", "expected"),
    [
        ({}, True),
        ({"a": 1.0, "b": -LIMIT, "c": LIMIT}, True),
        ({"a": 1.0, "b": math.nextafter(LIMIT, math.inf)}, False),
        ({"a": math.nan}, False),
        ({"a": -math.inf}, False),
        ({"a": 1}, False),  # an int: Python looks closer (it passes there)
        ({"a": np.float64(1.0)}, False),  # a float subclass: likewise
        ({"a": "red"}, False),
        (collections.OrderedDict(a=1.0), False),  # a dict subclass: likewise
        ([1.0], False),
        ({"a": 1.0, "b": None}, False),
    ],
)
def test_the_compiled_fast_path_answers_true_only_for_plain_floats_within_the_limit(x, expected):
    assert kernels.compiled.floats_within(x, LIMIT) is expected
    assert validation.plain_floats(x) is expected  # the members' and weak learners' fast path
    with mock.patch.object(validation, "_FLOATS_WITHIN", None):
        assert validation.plain_floats(x) is False  # no compiled test: the check by type


@pytest.mark.skipif(kernels.compiled is None, reason="the compiled kernels are not built")
@pytest.mark.parametrize(
    ("x", "expected"),
    [
        ({"a": 1, "b": 0, "c": -7, "d": 2.5}, True),  # one-hot indicators, counts: ints
        ({"a": 2**53, "b": -(2**53)}, True),  # a double holds them exactly
        ({"a": 2**53 + 1}, False),  # it would round this one: Python compares the int itself
        ({"a": 10**200}, False),  # beyond the limit (and a double)
        ({"a": True}, False),  # a bool is not a number here: Python's (it passes there)
        ({"a": 1, "b": math.nan}, False),
        ({"a": 1.0, "b": math.nextafter(LIMIT, math.inf)}, False),
        ({"a": np.int64(1)}, False),  # not an exact int: Python looks closer
    ],
)
def test_check_features_fast_path_takes_small_ints_as_well(x, expected):
    assert kernels.compiled.numbers_within(x, LIMIT) is expected
    assert kernels.compiled.numbers_within({"a": 2**53}, 1e15) is False  # the limit compared
    beyond = [k for k, v in x.items() if type(v) in (float, int) and not abs(v) <= LIMIT]
    _assert_checked(x, beyond[0] if beyond else None)


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(sorted(MODELS)),
    values=st.lists(st.tuples(FEATURE, st.booleans()), min_size=1, max_size=60),
)
def test_probabilities_stay_finite_in_the_unit_interval_whatever_is_fed(kind, values):
    model = MODELS[kind]()
    for v, y in values:
        x = {"a": v, "b": 1.0}
        with contextlib.suppress(ValueError):
            model.learn_one(x, y)
        p = model.predict_proba_one({"a": 0.5, "b": 1.0})[True]
        assert math.isfinite(p) and 0.0 <= p <= 1.0


@settings(max_examples=200, deadline=None)
@given(
    p=st.floats(0.0, 1.0),
    c=st.floats(1e-300, 1e300),
    lower=st.floats(1e-300, 1e300),
    higher=st.floats(1e-300, 1e300),
)
def test_decisions_are_monotone_in_each_cost(p, c, lower, higher):
    lower, higher = sorted((lower, higher))
    # A dearer false positive never makes a positive decision more likely, a dearer false
    # negative never less likely.
    assert decision.decide(p, higher, c) <= decision.decide(p, lower, c)
    assert decision.decide(p, c, lower) <= decision.decide(p, c, higher)
    assert decision.cost_threshold(c, c) == 0.5


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(bandits.POLICIES)),
    rewards=st.lists(
        st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(0, 1)), max_size=40
    ),
)
def test_every_policy_picks_an_arm_in_range_after_any_rewards(name, rewards):
    policy = bandits.make(name, n_arms=3, seed=0)
    for r in rewards:
        arm = policy.select()
        assert 0 <= arm < 3
        with contextlib.suppress(ValueError):
            policy.update(arm, r)
    assert 0 <= policy.select() < 3


def test_a_pipeline_headed_by_finite_features_refuses_before_the_scaler_learns():
    model = FiniteFeatures() | preprocessing.StandardScaler() | CalibratedClassifier(
        linear_model.LogisticRegression()
    )
    for x, y in ROWS[:20]:
        model.learn_one(x, y)
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="is 1e\\+300"):
        model.learn_one(with_value(1e300), True)
    assert pickle.dumps(model) == before


# ---------------------------------------------------------------- interrupting a grid

# 90 runs, far more than the test waits for (it interrupts after the first result file)
GRID = ["compare", "--datasets", "phishing", "--policies", "never", "both", "every-2",
        "--seeds", "30", "--max-rows", "6000", "--n-jobs", "2", "--no-figures", "--no-progress"]


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _sigint_as_a_shell_leaves_it() -> None:
    # A child inherits an ignored or blocked SIGINT; in the full suite something before this
    # test left it so (the grid then ignored Ctrl-C and exited 0), while a shell always starts
    # a command with the default
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_grid(out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "streamboost.cli", *GRID, "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_sigint_as_a_shell_leaves_it,
    )


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_says_what_was_kept_and_leaves_no_temporary_files(tmp_path):
    process = start_grid(tmp_path)
    wait_for(lambda: len(list((tmp_path / "cells").glob("*.json"))) >= 1)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, (process.returncode, err[-2000:])
    assert "of 90 runs kept" in err and "run the same command to resume" in err
    assert "Traceback" not in err
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc")
def test_workers_die_with_a_killed_grid(tmp_path):
    process = start_grid(tmp_path)
    wait_for(lambda: len(list((tmp_path / "cells").glob("*.json"))) >= 1)
    workers = children(process.pid)
    assert workers
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    wait_for(lambda: not any(alive(pid) for pid in workers), timeout=20)


@pytest.mark.parametrize("call", [
    lambda: OzaBoostClassifier(linear_model.LinearRegression()),
    lambda: CalibratedClassifier(linear_model.LinearRegression()),
    lambda: CalibratedClassifier(linear_model.LogisticRegression(),
                                 calibrator=linear_model.LogisticRegression()),
    lambda: BanditCalibratedClassifier(policy=linear_model.LogisticRegression()),
])
def test_a_wrong_estimator_is_named_on_one_line(call):
    # River's reprs span many lines; cut at 60 characters they broke a message mid-way
    with pytest.raises(TypeError) as error:
        call()
    assert "\n" not in str(error.value)


# ---------------------------------------------------------------- a model that raises


class Failing(linear_model.LogisticRegression):
    """A logistic regression that raises while `failing` names what it is asked to do."""

    failing: frozenset = frozenset()

    def _fail(self, call: str) -> None:
        if call in Failing.failing:
            raise RuntimeError(f"the model's {call} failed")

    def predict_proba_one(self, x, **kwargs):
        self._fail("score")
        return super().predict_proba_one(x, **kwargs)

    def predict_proba_many(self, X):
        self._fail("score")
        return super().predict_proba_many(X)

    def learn_one(self, x, y, **kwargs):
        self._fail("learn")
        return super().learn_one(x, y, **kwargs)

    def learn_many(self, X, y):
        self._fail("learn")
        return super().learn_many(X, y)


@pytest.fixture
def failing():
    yield Failing
    Failing.failing = frozenset()


def bools(rows):
    return [(x, y is True) for x, y in rows]  # phishing's labels are already bools


@pytest.mark.parametrize("rollback", ["copy", "defer", "holdout"])
@pytest.mark.parametrize("fails", ["score", "learn"])
def test_a_model_that_raises_as_a_minibatch_ends_does_not_leave_it_open(failing, rollback, fails):
    # Until 0.8.16 the minibatch stayed open: its count passed batch_size, no later minibatch
    # ended, the policy never learned again.
    # the warm-up that trains only: the arms this test's minibatch 7 was chosen on
    model = BanditCalibratedClassifier(model=Failing(), policy="discounted-ucb", batch_size=8,
                                       warmup=1, warmup_arm="train", rollback=rollback, seed=0)
    rows = bools(ROWS)
    for x, y in rows[:63]:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    x, y = rows[63]  # the last of minibatch 7, scored before the model fails
    model.predict_proba_one(x)
    failing.failing = frozenset({fails})
    with pytest.raises(RuntimeError, match=f"the model's {fails} failed") as error:
        model.learn_one(x, y)
    failing.failing = frozenset()
    assert model.n_batches == 8 and model._in_batch == 0
    # the example itself raised (copies score the round: nothing else fails), or the round did
    noted = any("streamboost: the model raised" in note
                for note in getattr(error.value, "__notes__", []))
    assert noted != (fails == "learn" and rollback == "copy")
    if noted:  # the round is dropped, unrewarded, and nothing waits on it
        assert not (model._held or model._waiting or model._held_out or model._meter.recording)
        assert model.trace[-1]["batch"] == 7 and model.trace[-1]["reward"] is None
    for x, y in rows[64:160]:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    assert model.n_batches == 20 and model._in_batch == 0
    assert sum(record["reward"] is not None for record in list(model.trace)[8:]) >= 10


def test_a_model_that_raises_in_a_frame_still_ends_its_minibatch(failing):
    model = BanditCalibratedClassifier(model=Failing(), policy="discounted-ucb", batch_size=8,
                                       warmup=1, seed=0)
    frame = pd.DataFrame([x for x, _ in ROWS[:80]])
    labels = pd.Series([y for _, y in ROWS[:80]])
    model.learn_many(frame[:40], labels[:40])
    failing.failing = frozenset({"learn"})
    with pytest.raises(RuntimeError, match="learn failed"):
        model.learn_many(frame[40:48], labels[40:48])
    failing.failing = frozenset()
    assert model.n_batches == 6 and model._in_batch == 0
    model.learn_many(frame[48:], labels[48:])
    assert model.n_batches == 10


@pytest.mark.parametrize("wrapper", [
    lambda: CalibratedClassifier(Failing()),
    lambda: BanditCalibratedClassifier(model=Failing(), policy="both", batch_size=8, warmup=0),
    # the forced split: a measured "train" minibatch's shadow calibrator learns too
    lambda: BanditCalibratedClassifier(model=Failing(), policy="discounted-ucb", batch_size=8,
                                       warmup=0, arms=("train", "calibrate"), seed=0),
])
def test_a_model_that_raises_while_learning_leaves_the_calibrator_as_it_was(failing, wrapper):
    model = wrapper()
    rows = iter(bools(ROWS))
    for x, y in itertools.islice(rows, 50):
        model.learn_one(x, y)
    meter = getattr(model, "_meter", None)
    measures = meter is not None and model.policy_.uses_rewards
    while measures and meter._shadow is None:  # into a measured "train" minibatch
        model.learn_one(*next(rows))
    def shadow():  # the shadow calibrator, and the pairs it learns as the minibatch ends
        return meter and (meter._shadow, meter._shadowed)

    before = pickle.dumps((model._calibrator, shadow()))
    failing.failing = frozenset({"learn"})
    with pytest.raises(RuntimeError, match="learn failed"):
        model.learn_one(*next(rows))
    assert pickle.dumps((model._calibrator, shadow())) == before
    if meter is None:  # by frames (the controller's minibatches end: another test)
        frame = pd.DataFrame([x for x, _ in ROWS[51:59]])
        with pytest.raises(RuntimeError, match="learn failed"):
            model.learn_many(frame, pd.Series([y for _, y in ROWS[51:59]]))
        assert pickle.dumps((model._calibrator, None)) == before


@pytest.mark.parametrize("rollback", ["defer", "holdout"])
def test_flush_with_a_model_that_raises_drops_what_waited(failing, rollback):
    model = BanditCalibratedClassifier(model=Failing(), policy="discounted-ucb", batch_size=8,
                                       warmup=0, rollback=rollback, seed=0)
    for x, y in bools(ROWS)[:100]:  # 12 rows into a minibatch: some wait, some are held out
        model.learn_one(x, y)
    waiting = len(model._held) + len(model._waiting) + len(model._held_out)  # one example each
    assert waiting
    failing.failing = frozenset({"learn", "score"})
    with pytest.raises(RuntimeError, match="failed") as error:
        model.flush()
    assert f"{waiting} example(s) still waiting were not learned" in error.value.__notes__[0]
    assert not (model._held or model._waiting or model._held_out)
    failing.failing = frozenset()
    model.flush()  # nothing left to do


@pytest.mark.parametrize("make", [
    lambda n: BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=n(8),
        warmup=n(1), trace_size=n(50), reward_examples=n(4), reward_every=n(2),
        reward_start=n(3), seed=n(5)),
    lambda n: BanditCalibratedClassifier(policy="kl-ucb", batch_size=n(8), seed=n(3)),
    lambda n: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=n(3), seed=n(2)),
    lambda n: CalibratedClassifier(linear_model.LogisticRegression(), window=n(30)),
    lambda n: bandits.SlidingWindowThompson(n_arms=n(3), window=n(20), seed=n(4)),
])
def test_numpy_integers_are_integers_everywhere(make):
    """A grid's parameters often come from numpy (`np.arange`, a frame's column): every integer
    parameter and seed takes numpy's integers (refused, or a crash in Python's random.Random,
    before 0.8.49), kept as Python's, to the same results as Python's."""
    python, numpy = make(int), make(np.int64)
    params = {k: v for k, v in vars(numpy).items() if not k.startswith("_")}
    assert not [k for k, v in params.items() if isinstance(v, np.generic)]
    if isinstance(python, bandits.base.Policy):
        picks = []
        for policy in (python, numpy):
            arms = []
            for t in range(30):
                arms.append(policy.select())
                policy.update(arms[-1], t % 2)
            picks.append((arms, policy.means))
        assert picks[0] == picks[1]
        return
    seen = []
    for model in (python, numpy):
        probabilities = []
        for x, y in ROWS[:200]:
            probabilities.append(model.predict_proba_one(x))
            model.learn_one(x, y)
        seen.append(probabilities)
    assert seen[0] == seen[1]


def test_numpy_bools_are_bools_everywhere():
    """A frame's column or a numpy comparison hands out `np.True_`: every flag takes it, kept as
    Python's bool (the controller refused it before 0.8.50, a stream and a grid as a TypeError,
    Platt as a ValueError), to the same results as Python's; an int is no flag anywhere."""
    from streamboost import datasets as sb_datasets
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.experiments.grid import Cell

    def bandit(flag):
        return BanditCalibratedClassifier(
            model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=8,
            warmup=1, reward_every=2, reward_start=3, counterfactual=flag(False),
            reward_restart=flag(False), seed=1)

    seen = []
    for model in (bandit(bool), bandit(np.bool_)):
        assert type(model.counterfactual) is bool and type(model.reward_restart) is bool
        probabilities = []
        for x, y in ROWS[:200]:
            probabilities.append(model.predict_proba_one(x))
            model.learn_one(x, y)
        seen.append((probabilities, model.arm_counts))
    assert seen[0] == seen[1]
    platt = OnlinePlattCalibrator(smooth_targets=np.False_)
    assert platt.smooth_targets is False
    flags = dict(balance=True, scale=True, drop_ambiguous=True, shuffle=True)
    rows = list(sb_datasets.stream("phishing", seed=1, **{k: np.bool_(v) for k, v in flags.items()}))
    assert rows == list(sb_datasets.stream("phishing", seed=1, **flags))
    cell = Cell("phishing", "ucb1", seed=0,
                counterfactual=np.True_, reward_restart=np.False_)
    assert cell == Cell("phishing", "ucb1", seed=0,
                        counterfactual=True, reward_restart=False)
    assert cell.key() == Cell("phishing", "ucb1", seed=0,
                              counterfactual=True, reward_restart=False).key()
    # the display and download flags too (0.8.51: read as truthy before)
    assert type(sb_datasets.load("weather", raw_labels=np.True_).raw_labels) is bool
    assert sb_datasets.fetch("weather", download=np.False_, progress=np.False_).is_file()
    from streamboost.evaluate import prequential

    assert prequential(CalibratedClassifier(linear_model.LogisticRegression()), ROWS[:50],
                       progress=np.False_).n == 50
    for refuse in (lambda: OnlinePlattCalibrator(smooth_targets=1),
                   lambda: sb_datasets.stream("phishing", balance=1),
                   lambda: sb_datasets.stream("phishing", shuffle=0),
                   lambda: Cell("phishing", "ucb1", seed=0,
                                counterfactual=1),
                   lambda: sb_datasets.load("weather", raw_labels=1),
                   lambda: sb_datasets.fetch("weather", download=1),
                   lambda: sb_datasets.fetch_url("file:///nowhere.csv", progress=0),
                   lambda: prequential(CalibratedClassifier(linear_model.LogisticRegression()),
                                       ROWS[:5], progress=1)):
        with pytest.raises(TypeError, match=r"must be (None, )?True or False, got [01]$"):
            refuse()


@pytest.mark.parametrize("make", [
    lambda **costs: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1,
                                       variant="adac2", **costs),
    lambda **costs: CalibratedClassifier(linear_model.LogisticRegression(), **costs),
    lambda **costs: CostSensitiveClassifier(linear_model.LogisticRegression(), **costs),
    lambda **costs: BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=8,
        warmup=1, reward="expected-cost", seed=1, **costs),
])
def test_costs_are_kept_as_python_floats(make):
    """Costs given as numpy's float32 or integers, or as ints, are kept as Python's floats, as
    `set_costs` keeps them (the constructors kept them as given before 0.8.50: a float32 in the
    parameters, the repr and a checkpoint), with the decisions of the same costs as floats."""
    given, floats = make(c_fp=np.float32(1.5), c_fn=np.int64(3)), make(c_fp=1.5, c_fn=3.0)
    assert (type(given.c_fp), type(given.c_fn)) == (float, float)
    assert (given.c_fp, given.c_fn) == (1.5, 3.0) and repr(given) == repr(floats)
    decisions = []
    for model in (given, floats):
        seen = []
        for x, y in ROWS[:120]:
            seen.append((model.predict_proba_one(x), model.predict_one(x)))
            model.learn_one(x, y)
        decisions.append(seen)
    assert decisions[0] == decisions[1]


def test_a_stream_takes_numpy_integers_for_its_seed_and_passes():
    from streamboost import datasets as sb_datasets

    rows = list(sb_datasets.stream("phishing", seed=np.int64(4), passes=np.int64(2)))
    assert rows == list(sb_datasets.stream("phishing", seed=4, passes=2))
    with pytest.raises(TypeError, match=r"^seed must be an int or None, got 2\.5$"):
        sb_datasets.stream("phishing", seed=2.5)


FRAME_LEARNERS = {
    "booster": lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0),
    "calibrated": lambda: CalibratedClassifier(linear_model.LogisticRegression()),
    "controller": lambda: BanditCalibratedClassifier(batch_size=2, seed=0),
    "cost-sensitive": lambda: CostSensitiveClassifier(linear_model.LogisticRegression()),
}


@pytest.mark.parametrize("make", FRAME_LEARNERS.values(), ids=FRAME_LEARNERS.keys())
def test_a_frame_that_is_no_dataframe_and_labels_that_are_no_sequence_are_refused_by_name(make):
    # 0.8.51: a matrix, a Series or a list of dicts handed to a minibatch method raised
    # AttributeError ('numpy.ndarray' object has no attribute 'to_numpy'); a y that is a frame
    # was read as its column names ("X has 3 rows but y has 1 labels"), a str as its letters;
    # a column named twice was the model's business (pandas' DuplicateError, or our booster
    # learning two columns of one name where a dict has one); all before anything changes
    X = pd.DataFrame({"a": [1.0, -1.0, 0.5], "b": [0.0, 1.0, -2.0]})
    y = pd.Series([True, False, True])
    model = make()
    model.learn_many(X, y)
    before = pickle.dumps(model)
    for method in ("learn_many", "predict_proba_many", "predict_many"):
        for frame in (X.to_numpy(), X["a"], X.to_dict("records")):
            args = (frame, y) if method == "learn_many" else (frame,)
            with pytest.raises(TypeError, match=rf"^{method} takes X as a pandas DataFrame "
                                                rf"\(River's minibatch methods do\), got "
                                                rf"{type(frame).__name__}: "):
                getattr(model, method)(*args)
        twice = pd.DataFrame(X.to_numpy(), columns=["a", "a"])
        args = (twice, y) if method == "learn_many" else (twice,)
        with pytest.raises(ValueError, match=r"^X names column\(s\) 'a' more than once"):
            getattr(model, method)(*args)
    for labels in ("abc", y.to_frame(), y.to_numpy()[:, None], {0: True}):
        with pytest.raises(TypeError, match=rf"^y must hold one label per row \(a Series, a "
                                            rf"list or a 1-d array\), got {type(labels).__name__}"):
            model.learn_many(X, labels)
    assert pickle.dumps(model) == before
    model.learn_many(X, y.tolist())  # a list of labels, and a 1-d array, are taken
    model.learn_many(X, y.to_numpy())


def test_a_frame_naming_a_column_twice_is_refused_whatever_frames_came_before():
    # 0.8.62: a frame whose columns equal those of the last frame found distinct is taken
    # without pandas' is_unique (a hash table of the names, ~20 us a frame on pandas 3); a
    # duplicate must never pass for a distinct frame of the same width, nor twice
    distinct = pd.DataFrame({"a": [1.0], "b": [2.0]})
    twice = pd.DataFrame([[1.0, 2.0]], columns=["a", "a"])
    check_dataframe(distinct, "learn_many")
    for _ in range(2):
        with pytest.raises(ValueError, match=r"^X names column\(s\) 'a' more than once"):
            check_dataframe(twice, "learn_many")
    for columns in (["a", "b"], ["b", "a"], ["a", "b"]):  # new frames, equal or not
        check_dataframe(pd.DataFrame([[1.0, 2.0]], columns=columns), "learn_many")
    with pytest.raises(ValueError, match=r"^X names column\(s\) 'b' more than once"):
        check_dataframe(pd.DataFrame([[1.0, 2.0, 3.0]], columns=["b", "a", "b"]), "learn_many")


@pytest.mark.parametrize("make", [
    lambda seed: BanditCalibratedClassifier(seed=seed),
    lambda seed: OzaBoostClassifier(linear_model.LogisticRegression(), seed=seed),
    lambda seed: bandits.make("beta-thompson", n_arms=3, seed=seed),
    lambda seed: streamboost_stream("phishing", seed=seed),
], ids=["controller", "booster", "policy", "stream"])
def test_a_negative_seed_is_refused_when_built(make):
    # 0.8.51: Python's random.Random takes -1, numpy's default_rng does not: a booster or a
    # controller seeded -1 learned one example at a time and raised numpy's bare "expected
    # non-negative integer" at its first learn_many
    with pytest.raises(ValueError, match=r"^seed must be None or an int >= 0 \(numpy's "
                                         r"generators take no negative seed\), got -1$"):
        make(-1)
    with pytest.raises(ValueError, match=r"got -3$"):
        make(np.int64(-3))
    make(0)


def test_a_seeded_booster_learns_a_frame_from_seed_0():
    X = pd.DataFrame({"a": [1.0, -1.0] * 8})
    y = pd.Series([True, False] * 8)
    for seed in (0, 2**40):
        model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=seed)
        model.learn_many(X, y)
        assert model.predict_proba_many(X).shape == (16, 2)
