"""Weak learners (`streamboost.weak`) and their array engines: hand-worked updates, the
choice of feature, bad input refused before any change, and boosters of 100 weak members whose
every prediction equals the reference path's on real streams."""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pytest
from river import checks, datasets, preprocessing
from test_members import electricity, twins

from streamboost import OzaBoostClassifier, validation
from streamboost.boosting import SCORES
from streamboost.members import RiverMembers, StumpMembers, UnivariateMembers, engine_for
from streamboost.poisson import poisson
from streamboost.weak import DecisionStump, UnivariateLogisticRegression

KINDS = [UnivariateLogisticRegression, DecisionStump]


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


@pytest.mark.parametrize("kind", KINDS)
def test_check_estimator(kind):
    checks.check_estimator(kind())


@pytest.mark.parametrize("kind", KINDS)
def test_ties_empty_examples_and_weight_zero(kind):
    model = kind()
    assert model.feature is None  # no feature seen, none chosen
    model.learn_one({"b": 1.0, "a": 1.0}, True)  # b seen first; both candidates score alike
    assert model._score[0] == model._score[1] and model.feature == "a"
    assert model.predict_proba_one({}) == {False: 0.5, True: 0.5}  # no feature to choose
    before = pickle.dumps(model)
    model.learn_one({"a": 5.0, "b": -1.0}, False, w=0.0)  # a weight of 0: taken, learns nothing
    assert pickle.dumps(model) == before


def test_univariate_logistic_regression_by_hand():
    model = UnivariateLogisticRegression(lr=0.1)
    model.learn_one({"a": 1.0, "b": 2.0}, True)
    # both candidates had margin 0 (vote False, wrong: score -1), gradient 1/2 - 1 = -1/2,
    # step 0.1 * -1/2: a = 0.05, b = 0.1, both intercepts 0.05
    assert model._score.tolist() == [-1.0, -1.0]
    assert model._params["coef"].tolist() == pytest.approx([0.05, 0.1])
    assert model._params["bias"].tolist() == pytest.approx([0.05, 0.05])
    # on a tie the feature whose name sorts first decides, in any order of x
    assert model.predict_proba_one({"b": 2.0, "a": 1.0})[True] == pytest.approx(sigmoid(0.1))
    assert model.predict_proba_one({"b": 2.0})[True] == pytest.approx(sigmoid(0.25))
    model.learn_one({"a": -2.0, "b": 1.0}, True, w=2.0)  # a: margin -0.05, wrong; b: right
    assert model._score.tolist() == [-3.0, 1.0]
    assert model.feature == "b"
    # b's step: g = sigmoid(0.15) - 1, coef 0.1 - 2 * 0.1 * g, bias 0.05 - 2 * 0.1 * g
    g = sigmoid(0.15) - 1.0
    coef, bias = 0.1 - 0.2 * g, 0.05 - 0.2 * g
    assert model.predict_proba_one({"a": 9.0, "b": -1.0})[True] == pytest.approx(
        sigmoid(bias - coef)
    )


def test_decision_stump_by_hand():
    model = DecisionStump()
    assert model.predict_proba_one({"a": 1.0}) == {False: 0.5, True: 0.5}
    model.learn_one({"a": 1.0}, True)
    assert model.predict_one({"a": 100.0}) is True  # one class seen: it votes that class
    model.learn_one({"a": 3.0}, False)
    # means 1 (positive) and 3 (negative): split at 2, positive below it
    assert [model.predict_one({"a": v}) for v in (1.5, 2.0, 2.5)] == [True, False, False]
    assert model._params["n_pos"].tolist() == [1.0]
    model.learn_one({"a": 5.0}, True, w=3.0)  # positive mean (1 + 15) / 4 = 4: split at 3.5
    assert [model.predict_one({"a": v}) for v in (3.4, 3.6)] == [False, True]
    # scores: -1 (no class seen: votes False), -1 (only positives: True), -3 (5 is above the
    # split at 2, on the negative side: wrong, weight 3)
    assert model._score.tolist() == [-5.0]
    hits = (model._params["n_pos"] + model._params["n_neg"] + model._score) / 2
    p = max(0.5, (hits[0] + 0.5) / (5.0 + 1.0))
    assert model.predict_proba_one({"a": 4.0})[True] == pytest.approx(p)


@pytest.mark.parametrize("kind", KINDS)
def test_the_learner_finds_the_informative_feature(kind):
    rng = random.Random(0)
    model = kind()
    right = 0
    for n in range(2_000):
        x = {"noise": rng.gauss(0, 1), "signal": rng.gauss(0, 1), "more noise": rng.random()}
        y = x["signal"] + 0.3 * rng.gauss(0, 1) > 0.0
        right += n >= 1_000 and model.predict_one(x) == y
        model.learn_one(x, y)
    assert model.feature == "signal"
    assert right > 0.85 * 1_000


@pytest.mark.parametrize("kind", KINDS)
def test_an_absent_feature_is_left_as_it_was(kind):
    model = kind()
    model.learn_one({"a": 1.0, "b": 2.0}, True)
    model.learn_one({"a": -1.0, "b": 0.5}, False)
    b_before = {name: values[1] for name, values in model._params.items()}
    score_before = model._score[1]
    model.learn_one({"a": 2.0}, True, w=4.0)
    assert {name: values[1] for name, values in model._params.items()} == b_before
    assert model._score[1] == score_before


@pytest.mark.parametrize("kind", KINDS)
def test_bad_input_is_refused_before_any_change(kind):
    model = kind()
    model.learn_one({"a": 1.0}, True)
    before = pickle.dumps(model)
    for label, shown in [("yes", "'yes'"), (2, "2"), (-1, "-1")]:  # an int other than 0 or 1
        with pytest.raises(ValueError, match=f"label {shown} is not binary"):
            model.learn_one({"a": 1.0, "new": 2.0}, label)
    with pytest.raises(ValueError, match="w must be a finite number >= 0, got nan"):
        model.learn_one({"a": 1.0, "new": 2.0}, True, w=float("nan"))
    with pytest.raises(ValueError, match="feature 'new' is inf"):
        model.learn_one({"a": 1.0, "new": math.inf}, True)
    with pytest.raises(TypeError, match="feature 'colour' is 'red'; a weak learner takes numbers"):
        model.learn_one({"a": 1.0, "colour": "red"}, True)
    # numpy read None as nan (a NaN parameter, for good) and '2' as 2.0, before 0.8.34
    for x in ({"a": None}, {"a": "2"}, {"b": 1.0, "a": None}):
        for call in (model.predict_proba_one, lambda x: model.learn_one(x, True)):
            with pytest.raises(TypeError, match=f"^feature 'a' is {x['a']!r}; a weak learner"):
                call(x)
    assert pickle.dumps(model) == before
    with pytest.raises(ValueError, match="lr must be a finite number > 0"):
        UnivariateLogisticRegression(lr=0.0)


@pytest.mark.parametrize("draws", ["auto", "repeat"])
def test_the_reference_path_gives_a_weak_member_its_draw_as_one_weight(draws):
    # MOA's OzaBoost convention by default: k draws are one example of weight k, not k calls
    booster = OzaBoostClassifier(UnivariateLogisticRegression(), 1, engine="reference", draws=draws)
    members = booster._members
    members.begin({"a": 1.0}, True)
    members.vote_after(0, 3)
    alone = UnivariateLogisticRegression()
    if draws == "auto":
        alone.learn_one({"a": 1.0}, True, w=3.0)
    else:
        for _ in range(3):
            alone.learn_one({"a": 1.0}, True)
    learned = members.members[0]
    assert {name: v.tolist() for name, v in learned._params.items()} == {
        name: v.tolist() for name, v in alone._params.items()
    }
    # checked once with weight 3, or three times: wrong at first, then right twice
    assert learned._score.tolist() == ([-3.0] if draws == "auto" else [1.0])


def test_the_engines_are_chosen_for_the_weak_learners():
    assert engine_for(UnivariateLogisticRegression()) is UnivariateMembers
    assert engine_for(DecisionStump()) is StumpMembers
    assert isinstance(OzaBoostClassifier(DecisionStump())._members, StumpMembers)
    # k calls are not what the array engines compute: the reference path takes them
    assert isinstance(OzaBoostClassifier(DecisionStump(), draws="repeat")._members, RiverMembers)
    with pytest.raises(TypeError, match=r"no array engine for DecisionStump.* draws repeated"):
        OzaBoostClassifier(DecisionStump(), engine="vectorised", draws="repeat")
    # nor can an engine be built for them by hand
    for engine, weak in ((StumpMembers, DecisionStump()),
                         (UnivariateMembers, UnivariateLogisticRegression())):
        with pytest.raises(ValueError, match=f"^{engine.__name__} learns a draw k as one "
                                             "example of weight k$"):
            engine(weak, 2, weighted=False)


def weak_state(member, keys) -> list:
    """A member's state over `keys` (a feature it never learned is a fresh candidate: 0)."""
    index = member._index
    return [member._score[index[k]] if k in index else 0.0 for k in keys] + [
        values[index[k]] if k in index else 0.0
        for values in member._params.values()
        for k in keys
    ]


def assert_members_equal(reference, vectorised, keys) -> None:
    for ours, theirs in zip(vectorised.models, reference.models, strict=True):
        assert weak_state(ours, keys) == weak_state(theirs, keys)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_100_weak_members_on_electricity_give_the_reference_predictions(kind):
    # The score is read when predicting only (the members learn alike under any), so one run
    # checks the three: row n under SCORES[n % 3] (a run per score took 3x as long)
    rows = electricity(1_500)
    reference, vectorised = twins(kind(), n_models=100)
    for n, (x, y) in enumerate(rows):
        reference.score = vectorised.score = SCORES[n % len(SCORES)]
        assert vectorised.predict_proba_one(x) == reference.predict_proba_one(x), n
        reference.learn_one(x, y)
        vectorised.learn_one(x, y)
    assert vectorised._lambda_sc == reference._lambda_sc
    assert_members_equal(reference, vectorised, rows[0][0])
    # the switch took: the three scores of the last row differ
    scores = set()
    for score in SCORES:
        reference.score = score
        scores.add(reference.predict_proba_one(rows[-1][0])[True])
    assert len(scores) == len(SCORES)


@pytest.mark.parametrize("kind", KINDS)
def test_weak_members_on_phishing_after_scaling_give_the_reference_predictions(kind):
    reference, vectorised = (
        preprocessing.StandardScaler() | booster
        for booster in twins(kind(), n_models=30, weak_rule="skip")
    )
    for n, (x, y) in enumerate(datasets.Phishing()):
        assert vectorised.predict_proba_one(x) == reference.predict_proba_one(x), n
        reference.learn_one(x, y)
        vectorised.learn_one(x, y)


@pytest.mark.parametrize("kind", KINDS)
def test_features_that_come_and_go_in_any_order_give_the_reference_predictions(kind):
    # x's order changes from row to row; ties between candidates must not depend on it
    rng = random.Random(4)
    rows = []
    for _ in range(1_500):
        keys = rng.sample(range(12), rng.randint(0, 12))
        x = {f"f{j}": float(rng.randint(-2, 2)) for j in keys}  # small integers: many ties
        rows.append((x, x.get("f0", 0.0) + x.get("f5", 0.0) > 0.0))
    reference, vectorised = twins(kind(), n_models=20)
    for n, (x, y) in enumerate(rows):
        assert vectorised.predict_proba_one(x) == reference.predict_proba_one(x), n
        reference.learn_one(x, y)
        vectorised.learn_one(x, y)
    assert_members_equal(reference, vectorised, [f"f{j}" for j in range(12)])


def _frame(rows):
    pd = pytest.importorskip("pandas")
    return pd.DataFrame([x for x, _ in rows]), pd.Series([y for _, y in rows])


def _with_gaps(rows, seed=0):
    """The rows with a tenth of their keys dropped at random: absent features."""
    rng = random.Random(seed)
    return [({k: v for k, v in x.items() if rng.random() > 0.1}, y) for x, y in rows]


@pytest.mark.parametrize("kind", KINDS)
def test_a_minibatch_of_one_row_is_learn_one(kind):
    # Same draws, one row per minibatch, keys missing at random: every prediction, lambda sum
    # and member state equal learn_one's bit for bit (one row's batch step is its own step).
    rows = _with_gaps(electricity(600))
    exact = OzaBoostClassifier(kind(), n_models=30, seed=3)
    batched = exact.clone()
    rng = batched._rng
    for n, (x, y) in enumerate(rows):
        assert batched.predict_proba_one(x) == exact.predict_proba_one(x), n
        exact.learn_one(x, y)
        table = batched._members.frame(_frame([(x, y)])[0])
        batched._learn_table(table, np.array([y]), lambda lam: np.array([poisson(lam[0], rng)]))
    assert batched._lambda_sc == exact._lambda_sc
    assert_members_equal(exact, batched, rows[0][0])


@pytest.mark.parametrize("kind", KINDS)
def test_predict_proba_many_equals_predict_proba_one_with_absent_features(kind):
    rows = _with_gaps(electricity(1_200), seed=1)
    booster = OzaBoostClassifier(kind(), n_models=40, seed=2)
    for x, y in rows[:700]:
        booster.learn_one(x, y)
    X, _ = _frame(rows[700:])
    X["new"] = 0.5  # a feature never seen: a fresh candidate of score 0, which may win
    X.iloc[3] = float("nan")  # a row with no feature: every member votes False
    many = booster.predict_proba_many(X)
    pd = pytest.importorskip("pandas")
    one = pd.DataFrame([booster.predict_proba_one(x) for x in validation.records(X)],
                       index=X.index)
    assert many.equals(one)  # the same floats
    assert booster.predict_proba_one({})[True] == 0.0 or booster.alphas == [0.0] * 40


@pytest.mark.parametrize("kind", KINDS)
def test_the_batch_step_adds_each_rows_step_at_the_same_parameters(kind):
    model = kind()
    rng = np.random.default_rng(5)
    params = {name: rng.normal(size=3) for name in model._fields}
    if kind is DecisionStump:
        params["n_pos"], params["n_neg"] = rng.random(3) * 4, rng.random(3) * 4
    X = rng.normal(size=(4, 3))
    targets = np.array([True, False, False, True])
    w = rng.integers(0, 4, size=(4, 3)).astype(float)
    batch = model._candidate_learn_batch(params, X, targets, w)
    for name in model._fields:
        steps = [
            model._candidate_learn(params, X[b], bool(targets[b]), w[b]).get(name, params[name])
            - params[name]
            for b in range(4)
        ]
        np.testing.assert_allclose(batch[name], params[name] + np.sum(steps, axis=0),
                                   rtol=1e-12, atol=1e-12)
    one = model._candidate_learn_batch(params, X[:1], targets[:1], w[:1])
    alone = model._candidate_learn(params, X[0], True, w[0])
    for name in alone:
        assert one[name].tolist() == alone[name].tolist()  # bit for bit


@pytest.mark.parametrize("kind", KINDS)
def test_minibatch_boosting_of_weak_members_beats_one_member_is_seeded_and_resumes(kind):
    rows = list(datasets.Phishing())
    batches = [_frame(rows[s : s + 64]) for s in range(0, len(rows), 64)]

    def brier(model, batches):
        total = 0.0
        for X, y in batches:
            p = model.predict_proba_many(X)[True].to_numpy()
            total += float(((p - y.to_numpy()) ** 2).sum())
            model.learn_many(X, y)
        return total / sum(len(X) for X, _ in batches)

    hundred = OzaBoostClassifier(kind(), n_models=100, seed=1)
    first = brier(hundred, batches[:10])
    resumed = pickle.loads(pickle.dumps(hundred))
    rest = brier(hundred, batches[10:])
    assert brier(resumed, batches[10:]) == rest
    again = OzaBoostClassifier(kind(), n_models=100, seed=1)
    assert brier(again, batches) == pytest.approx((first * 640 + rest * 610) / 1_250, rel=1e-12)
    one = brier(OzaBoostClassifier(kind(), n_models=1, seed=1), batches)
    assert (first * 640 + rest * 610) / 1_250 < one - 0.005


def test_a_frozen_copy_of_weak_members_lends_its_table_only_with_the_same_features():
    from streamboost.scores import FrozenScorer, positive_score, snapshot

    booster = OzaBoostClassifier(DecisionStump(), n_models=3, seed=0)
    for y in [True, False] * 2 + [True]:  # the vote on "a" is wrong every time: its score
        booster.learn_one({"a": 1.0}, y)  # falls below a fresh candidate's 0, and it votes True
    earlier, was = FrozenScorer(booster, True), snapshot(booster)
    booster.learn_one({"a": 1.0, "z": 2.0}, False)
    later = FrozenScorer(booster, True)
    xs = [{"a": 1.0, "z": 2.0}, {"a": 1.0, "z": -2.0}]
    later.scores(xs)
    expected = [positive_score(was, x, True) for x in xs]
    assert earlier.scores(xs, like=later).tolist() == expected
    # the table cut to the earlier columns would drop "z", whose fresh candidate wins there
    cut = later._table[1][:, :1]
    from streamboost.boosting import table_scores

    held = earlier._members
    assert table_scores(held, cut, earlier._alphas, "vote").tolist() != expected


def test_calibration_repairs_the_vote_of_100_stumps():
    # thesis Chapter 7: a boosted vote is a distorted probability, and calibration repairs it
    from streamboost import CalibratedClassifier

    briers = []
    for model in (
        OzaBoostClassifier(DecisionStump(), 100, seed=1),
        CalibratedClassifier(OzaBoostClassifier(DecisionStump(), 100, seed=1)),
    ):
        loss = 0.0
        for x, y in datasets.Phishing():
            loss += (model.predict_proba_one(x).get(True, 0.5) - y) ** 2
            model.learn_one(x, y)
        briers.append(loss / 1_250)
    assert briers[1] < 0.9 * briers[0]


@pytest.mark.parametrize("member", [DecisionStump(), UnivariateLogisticRegression()])
def test_an_empty_first_example_leaves_the_arrays_consistent(member):
    # the layout cache once took an empty x for the known layout, and the next example failed
    vectorised = OzaBoostClassifier(member, n_models=3, seed=1)
    reference = OzaBoostClassifier(member, n_models=3, seed=1, engine="reference")
    rows = [({}, True), ({"b": 2.0}, False), ({}, False), ({"a": 1.0, "b": -1.0}, True)] * 5
    for x, y in rows:
        assert vectorised.predict_proba_one(x) == reference.predict_proba_one(x)
        vectorised.learn_one(x, y)
        reference.learn_one(x, y)


def test_a_stump_gives_its_negative_side_one_minus_its_vote_accuracy():
    # DecisionStump's docstring: the probability of its vote is its Krichevsky-Trofimov
    # accuracy, so the class it votes against gets the rest, on either side of the split
    stump = DecisionStump()
    for _ in range(20):
        stump.learn_one({"x": 1.0}, True)
        stump.learn_one({"x": 0.0}, False)
    above, below = stump.predict_proba_one({"x": 0.9}), stump.predict_proba_one({"x": 0.1})
    # missed: the first example (nothing seen, votes negative), the second (only positives
    # seen); hit: the other 38 of 40, so (38 + 1/2) / (40 + 1)
    assert above[True] == pytest.approx(38.5 / 41, abs=1e-15)
    assert below[True] == 1.0 - above[True] and below[False] == above[True]


def test_gradients_in_place_are_the_log_loss_derivative_to_the_last_bit():
    # 0.8.62: computed in one array (`out`, which may be the margins) where it made a temporary
    # a step; the floats must be those of 1 / (1 + exp(-margin)) - y, overflow included
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp

    from streamboost.weak.univariate import gradients

    @settings(deadline=None)
    @given(hnp.arrays(float, hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
                      elements=st.floats(-1e3, 1e3)), st.booleans(), st.booleans())
    def check(margins, positive, per_row):
        target = (np.arange(margins.shape[0]) % 2 == 0).reshape(-1, *[1] * (margins.ndim - 1)) \
            if per_row else positive
        with np.errstate(over="ignore"):
            expected = np.subtract(1.0 / (1.0 + np.exp(-margins)), target, dtype=float)
        kept = margins.copy()
        assert np.array_equal(gradients(margins, target), expected)
        assert np.array_equal(margins, kept)  # a new array: the margins left alone
        assert gradients(margins, target, out=margins) is margins
        assert np.array_equal(margins, expected)

    check()
    # margins of whole numbers are floats' (each step in place would refuse to cast back)
    assert gradients(np.array([0, 800]), True).tolist() == [-0.5, 0.0]
