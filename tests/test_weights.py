"""Sample weights and other keyword arguments through the wrappers and the booster: what reaches
the model, row by row or as one frame (their refusal is in test_reliability's catalogue)."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from river import datasets, linear_model, tree

from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    OzaBoostClassifier,
)
from streamboost.validation import check_keywords, check_weight, row_keywords
from streamboost.weak import DecisionStump, UnivariateLogisticRegression

ROWS = list(datasets.Phishing().take(120))
X = pd.DataFrame([x for x, _ in ROWS[60:90]], index=range(100, 130))
Y = pd.Series([y for _, y in ROWS[60:90]], index=X.index)
WEIGHTS = [0.5 + (i % 4) for i in range(len(X))]
WEIGHTS[3] = 0.0  # a row that counts for nothing is allowed


def warmed(make):
    model = make()
    for x, y in ROWS[:60]:
        model.learn_one(x, y)
    return model


def after(model) -> list:
    """What the model predicts next, and goes on learning."""
    out = []
    for x, y in ROWS[90:]:
        out.append(model.predict_proba_one(x))
        model.learn_one(x, y)
    return out


class WeightedOneByOne(linear_model.LogisticRegression):
    """A minibatch model whose `learn_many` takes no weight (its `learn_one` does)."""

    def learn_many(self, X, y):
        super().learn_many(X, y)


ROW_BY_ROW = {
    "wrapper of a tree": lambda: CalibratedClassifier(tree.HoeffdingTreeClassifier(grace_period=5)),
    "controller of a model whose learn_many takes no weight": lambda: BanditCalibratedClassifier(
        model=WeightedOneByOne(), policy="discounted-ucb", batch_size=7, warmup=1, seed=2),
    "wrapper of a model whose learn_many takes no weight": lambda: CalibratedClassifier(
        WeightedOneByOne()),
    "controller of a tree": lambda: BanditCalibratedClassifier(
        model=tree.HoeffdingTreeClassifier(grace_period=5), policy="discounted-ucb",
        batch_size=7, warmup=1, seed=2),
    "booster of River members": lambda: OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=3, engine="reference", seed=1),
}


@pytest.mark.parametrize("name", ROW_BY_ROW)
@pytest.mark.parametrize("weights", [WEIGHTS, np.array(WEIGHTS), pd.Series(WEIGHTS)])
def test_a_weight_per_row_is_each_rows_learn_one_weight(name, weights):
    # a learn_many that learns row by row hands row i its own weight, by position (the
    # Series' index 0..29 is not the frame's 100..129)
    by_frame, by_row = warmed(ROW_BY_ROW[name]), warmed(ROW_BY_ROW[name])
    by_frame.learn_many(X, Y, w=weights)
    for (_, x), y, w in zip(X.iterrows(), Y, WEIGHTS, strict=True):
        by_row.learn_one(x.to_dict(), y, w=w)
    assert after(by_frame) == after(by_row)
    uniform = warmed(ROW_BY_ROW[name])
    uniform.learn_many(X, Y, w=2.0)
    assert after(uniform) != after(warmed(ROW_BY_ROW[name]))  # the weights reach the model


MINIBATCH_CONTROLLERS = {
    rollback: lambda rollback=rollback: BanditCalibratedClassifier(
        model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=7, warmup=1,
        rollback=rollback, reward_examples=3 if rollback == "holdout" else None, seed=2)
    for rollback in ("copy", "defer", "holdout")
}


@pytest.mark.parametrize("rollback", MINIBATCH_CONTROLLERS)
@pytest.mark.parametrize("weights", [WEIGHTS, np.array(WEIGHTS), pd.Series(WEIGHTS)])
def test_a_controllers_weighted_frame_is_learned_by_minibatch_with_each_rows_weight(
    rollback, weights, monkeypatch
):
    """A controller whose model learns by minibatch learns a weighted frame's whole
    minibatches with the model's `learn_many` and their rows' weights, in row order (the
    Series' index 0..29 is not the frame's 100..129), the rows around them one by one with
    their own: as the same stream cut at the minibatches' boundaries."""
    seen = []
    learn_many = linear_model.LogisticRegression.learn_many
    monkeypatch.setattr(linear_model.LogisticRegression, "learn_many",
                        lambda self, X, y, w=1.0: (seen.append(np.asarray(w).tolist()),
                                                   learn_many(self, X, y, w))[1])
    make = MINIBATCH_CONTROLLERS[rollback]
    by_frame, by_parts = warmed(make), warmed(make)
    by_frame.learn_many(X, Y, w=weights)
    by_frame.flush()  # "defer": the last minibatch's frame waits until now
    whole = seen[:]
    start = (7 - by_parts._in_batch) % 7  # the first boundary in X
    for i in range(start):
        by_parts.learn_one(X.iloc[i].to_dict(), Y.iloc[i], w=WEIGHTS[i])
    for at in range(start, start + 21, 7):
        by_parts.learn_many(X.iloc[at : at + 7], Y.iloc[at : at + 7], w=WEIGHTS[at : at + 7])
    for i in range(start + 21, len(X)):
        by_parts.learn_one(X.iloc[i].to_dict(), Y.iloc[i], w=WEIGHTS[i])
    by_parts.flush()
    assert list(by_frame.trace) == list(by_parts.trace)
    assert after(by_frame) == after(by_parts)
    # each whole minibatch by minibatch: all its rows and their weights (but those held out)
    held = 3 if rollback == "holdout" else 0
    trained = [k for k in range(3) if by_parts.trace[9 + k]["arm"] != "calibrate"]
    assert trained and whole[: len(trained)] == [
        WEIGHTS[start + 7 * k + held : start + 7 * k + 7] for k in trained]
    uniform = warmed(make)
    uniform.learn_many(X, Y, w=2.0)
    assert after(uniform) != after(warmed(make))  # the weights reach the model


def test_a_weight_per_row_reaches_a_minibatch_models_learn_many_in_row_order():
    wrapper = warmed(lambda: CalibratedClassifier(linear_model.LogisticRegression()))
    alone = linear_model.LogisticRegression()
    for x, y in ROWS[:60]:
        alone.learn_one(x, y)
    wrapper.learn_many(X, Y, w=pd.Series(WEIGHTS))  # index 0..29: taken by position
    alone.learn_many(X, Y, w=pd.Series(WEIGHTS, index=X.index))
    assert wrapper.model.weights == alone.weights
    assert wrapper.model.intercept == alone.intercept


@pytest.mark.parametrize("make", [
    lambda: CalibratedClassifier(OzaBoostClassifier(linear_model.LogisticRegression(), seed=0)),
    lambda: BanditCalibratedClassifier(seed=0),
])
def test_a_wrapped_array_booster_learns_a_weight_and_refuses_other_keywords_first(make):
    # the default model's logistic regressions take a sample weight (since 0.8.26); the
    # wrapper asks the booster before scoring x, so anything else changes nothing
    model = warmed(make)
    before = pickle.dumps(model)
    for call in (lambda: model.learn_one(*ROWS[70], sample_weight=2.0),
                 lambda: model.learn_many(X, Y, weight=WEIGHTS)):
        with pytest.raises(TypeError, match=r"vectorised members take a sample weight w only"):
            call()
        assert pickle.dumps(model) == before
    weighted, plain = warmed(make), warmed(make)
    weighted.learn_many(X, Y, w=WEIGHTS)
    plain.learn_many(X, Y)
    assert after(weighted) != after(plain)


def test_a_wrapper_hands_a_frames_weights_to_the_booster_in_row_order():
    # the wrapper learns the frame by minibatch: its booster learns what a booster alone
    # learns from the same frame and weights (a Series' index is not read)
    def booster():
        return OzaBoostClassifier(linear_model.LogisticRegression(), seed=0)

    wrapper, alone = warmed(lambda: CalibratedClassifier(booster())), warmed(booster)
    wrapper.learn_many(X, Y, w=pd.Series(WEIGHTS))
    alone.learn_many(X, Y, w=WEIGHTS)
    assert np.array_equal(wrapper.model._members.weights, alone._members.weights)
    assert wrapper.model._lambda_sc == alone._lambda_sc


@pytest.mark.parametrize("member", [linear_model.LogisticRegression, DecisionStump])
def test_array_members_predictions_refuse_a_weight_by_name(member):
    """A weight weighs what is learned: before 0.8.49 an array booster's predict_proba_one
    passed `w` to its members' votes (an internal TypeError), and predict_proba_many ignored it."""
    model = warmed(lambda: OzaBoostClassifier(member(), n_models=3, seed=0))
    before = pickle.dumps(model)
    for call in (lambda: model.predict_proba_one(ROWS[70][0], w=2.0),
                 lambda: model.predict_one(ROWS[70][0], w=2.0),
                 lambda: model.predict_proba_many(X, w=1.0),
                 lambda: model.predict_many(X, w=1.0)):
        with pytest.raises(TypeError, match=r"^the vectorised members' predictions take no "
                                            r"keyword argument, got \['w'\]; use engine="):
            call()
    assert pickle.dumps(model) == before


def test_weak_members_refuse_a_bad_weight_before_the_wrapper_changes():
    model = warmed(lambda: CalibratedClassifier(OzaBoostClassifier(DecisionStump(), seed=0)))
    before = pickle.dumps(model)
    with pytest.raises(TypeError, match=r"vectorised members take a sample weight w only, got "
                                        r"\['weight'\]; use engine='reference'"):
        model.learn_many(X, Y, weight=2.0)
    with pytest.raises(ValueError, match="sample weight w must be a finite number >= 0"):
        model.learn_one(*ROWS[70], w=-1.0)
    assert pickle.dumps(model) == before
    model.learn_many(X, Y, w=WEIGHTS)
    assert pickle.dumps(model) != before


def weak_run(engine: str, kind, weights: list, **params) -> tuple:
    """A booster of 12 weak members over phishing's first rows, learned with `weights`: its
    prequential probabilities, members' errors and candidates' scores and parameters."""
    booster = OzaBoostClassifier(kind(), n_models=12, seed=5, engine=engine, **params)
    scores = []
    for (x, y), w in zip(PHISHING, weights, strict=True):
        scores.append(booster.predict_proba_one(x))
        booster.learn_one(x, y, w=w)
    members = [{key: (m._score[j], *(v[j] for v in m._params.values()))
                for key, j in m._index.items()} for m in booster.models]
    return scores, booster.epsilons, members


PHISHING = list(datasets.Phishing().take(1500))


@pytest.mark.parametrize("kind", [DecisionStump, UnivariateLogisticRegression])
@pytest.mark.parametrize(("weights", "params"), [
    ((1.0, 2.0, 0.0, 3.0), {}),  # whole weights: the scores stay whole numbers
    ((1.0, 1 / 3, 0.5, 2.5, 0.0, 1.0, 7.1), {}),  # a third: the scores' sums round
    ((1.0, 1 / 3, 2.0), {"variant": "cgada", "c_fn": 3.0}),
])
def test_weak_members_learn_a_weight_as_river_weak_members_do(kind, weights, params):
    # one step of weight k w (their draws are weights): every probability, error, score and
    # parameter equal to the River members' to the last bit, also once a weight that is not a
    # whole number has made the candidates' scores sums of rounded floats, where the arrays'
    # shortcut (compare the best right and wrong candidates' scores, +-k) could tie them wrongly
    ws = [weights[i % len(weights)] for i in range(len(PHISHING))]
    arrays = weak_run("vectorised", kind, ws, **params)
    assert arrays == weak_run("reference", kind, ws, **params)
    assert arrays[2] != weak_run("vectorised", kind, [1.0] * len(ws), **params)[2]


def test_weak_members_learn_a_frames_weights_by_minibatch():
    # a stump's candidates count and sum their rows' weights k w: from nothing, one frame of
    # weight 2 gives exactly twice the counts and sums of the same frame (the same draws) of
    # weight 1, and the same votes; weight 1 is no weight
    def learned(**kwargs):
        booster = OzaBoostClassifier(DecisionStump(), n_models=5, seed=3)
        booster.learn_many(X, Y, **kwargs)
        return booster._members._params.copy(), booster._members._score.copy()

    plain, (twice, twice_score) = learned(), learned(w=2.0)
    assert np.array_equal(learned(w=1.0)[0], plain[0])
    assert np.array_equal(twice, 2.0 * plain[0]) and np.array_equal(twice_score, 2 * plain[1])
    assert plain[0].any()
    per_row = learned(w=WEIGHTS)[0]
    assert not np.array_equal(per_row, plain[0])


def test_a_wrapped_booster_of_river_members_checks_their_learn_one_before_the_wrapper_changes():
    # the booster learns a frame row by row: its members' learn_one is what takes the keywords
    # (a tree has no learn_many whose signature could be asked)
    model = warmed(lambda: CalibratedClassifier(OzaBoostClassifier(
        tree.HoeffdingTreeClassifier(), n_models=2, engine="reference", seed=0)))
    before = pickle.dumps(model)
    with pytest.raises(TypeError, match=r"^HoeffdingTreeClassifier\.learn_one takes no keyword "
                                        r"argument 'sample_weight'"):
        model.learn_many(X, Y, sample_weight=WEIGHTS)
    assert pickle.dumps(model) == before
    model.learn_many(X, Y, w=WEIGHTS)  # its learn_one's own keyword, a weight per row


def test_check_weight_takes_one_weight_per_row_only_for_a_frame():
    assert check_weight({"w": [1.0, 0.0]}, rows=2) == {"w": [1.0, 0.0]}
    with pytest.raises(ValueError, match=r"^sample weight w must be a finite number >= 0, got "
                                         r"\[1\.0, 0\.0\]$"):
        check_weight({"w": [1.0, 0.0]})
    for bad, message in [
        ([1.0, float("inf")], r"row 1's is inf"),
        ([True, 1.0], r"row 0's is True"),
        (["1", 1.0], r"row 0's is '1'"),
        ("11", r"or one per row \(2 of them\), got '11'"),
        ({0: 1.0, 1: 1.0}, r"got \{0: 1\.0, 1: 1\.0\}"),
        (np.ones((2, 1)), r"row 0's is array\(\[1\.\]\)"),
        (np.array([1.0, np.nan]), r"row 1's is nan"),  # arrays of numbers: numpy checks them
        (pd.Series([2.0, -1.0], index=[5, 6]), r"row 1's is -1\.0"),
        (np.array([0.5, 1e151]), r"row 1's is 1e\+151"),
        (np.array([True, False]), r"row 0's is True"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_weight({"w": bad}, rows=2)
    for good in (np.array([0, 3]), pd.Series([0.5, 2.0], index=[9, 8]), np.zeros(2)):
        assert check_weight({"w": good}, rows=2)["w"] is good


def test_row_keywords_split_a_weight_per_row_and_share_the_rest():
    assert row_keywords({"w": np.array([1.0, 2.0]), "t": 1}, 2) == [{"w": 1.0, "t": 1},
                                                                    {"w": 2.0, "t": 1}]
    assert row_keywords({"t": 1}, 2) == [{"t": 1}, {"t": 1}]


def test_check_keywords_reads_the_models_signature():
    lr = linear_model.LogisticRegression()
    assert check_keywords(lr, "learn_many", {"w": pd.Series([1.0])}) is not None
    with pytest.raises(TypeError, match=r"^HoeffdingTreeClassifier\.learn_one takes no keyword "
                                        r"argument 'sample_weight' \(it takes: w\)$"):
        check_keywords(tree.HoeffdingTreeClassifier(), "learn_one", {"sample_weight": 1.0})
    # **kwargs (a pipeline's params, a forest's): any name, left to the model
    pipeline = lr.clone() | lr.clone()
    assert check_keywords(pipeline, "learn_one", {"anything": 1}) == {"anything": 1}


def test_the_calibrator_learns_each_example_once_whatever_its_weight():
    # docs/controller.md, "Sample weights": the weight is the model's; the calibrator learns
    # each prequential score once, mapping the scores to the stream's own frequencies
    wrapper = CalibratedClassifier(linear_model.LogisticRegression())
    alone = wrapper.calibrator_.clone()  # its settings, nothing learned
    for x, y in ROWS:
        alone.learn_one(wrapper.model.predict_proba_one(x)[True], y)  # the score before
        wrapper.learn_one(x, y, w=10.0 if y else 1.0)
    grid = [i / 20 for i in range(21)]
    assert [wrapper.calibrator_.predict_one(s) for s in grid] == [alone.predict_one(s)
                                                                  for s in grid]
    unweighted = CalibratedClassifier(linear_model.LogisticRegression())
    for x, y in ROWS:
        unweighted.learn_one(x, y)
    assert unweighted.model.weights != wrapper.model.weights  # the model did take the weights


def weighted_run(engine: str, draws: str, rows: list, weights: list, **params) -> tuple:
    """A booster's prequential scores over `rows` learned with `weights`, its members' errors
    (from Oza's lambda sums, or a variant's) and its members' parameters."""
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=5, seed=4,
                                 engine=engine, draws=draws, **params)
    scores = []
    for (x, y), w in zip(rows, weights, strict=True):
        scores.append(booster.predict_proba_one(x)[True])
        booster.learn_one(x, y, w=w)
    members = [(dict(m.weights), m.intercept) for m in booster.models]
    return scores, booster.epsilons, members


@pytest.mark.parametrize(("draws", "params"), [
    ("repeat", {}), ("weight", {}), ("repeat", {"variant": "adac2", "c_fn": 4.0}),
])
def test_array_members_learn_a_weight_as_river_members_do(draws, params):
    # k steps of weight w (River's AdaBoost) or one of weight k w (MOA's OzaBoost): the array
    # engine's scores and lambdas are the River members', their parameters equal to rounding
    rows = list(datasets.Phishing())
    weights = [(0.0, 0.5, 1, 2.0, 3.25)[i % 5] for i in range(len(rows))]  # an int too
    arrays = weighted_run("vectorised", draws, rows, weights, **params)
    river = weighted_run("reference", draws, rows, weights, **params)
    assert arrays[:2] == river[:2]
    for (wa, ia), (wr, ir) in zip(arrays[2], river[2], strict=True):
        assert ia == pytest.approx(ir, rel=1e-12, abs=1e-12)
        assert wa == pytest.approx(wr, rel=1e-12, abs=1e-12)
    unweighted = weighted_run("vectorised", draws, rows, [1.0] * len(rows), **params)
    assert arrays[0] != unweighted[0]
    assert unweighted == weighted_run("vectorised", draws, rows, [1] * len(rows), **params)


@pytest.mark.parametrize("engine", ["vectorised", "reference"])
def test_a_zero_weight_moves_no_member_but_counts_in_their_errors(engine):
    # The decision (docs/boosting.md): the weight reaches the members' learning, and the
    # example's boosting weight lambda starts at 1 whatever w, as in MOA and River
    booster = warmed(lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4,
                                                seed=0, engine=engine))
    members = [(dict(m.weights), m.intercept) for m in booster.models]
    sums = sum(booster._lambda_sc) + sum(booster._lambda_sw)
    booster.learn_one(*ROWS[60], w=0.0)
    assert [(dict(m.weights), m.intercept) for m in booster.models] == members
    assert sum(booster._lambda_sc) + sum(booster._lambda_sw) > sums


def booster_by_minibatch(w=None):
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=3)
    for start in range(0, 90, 30):
        frame = pd.DataFrame([x for x, _ in ROWS[start : start + 30]])
        labels = pd.Series([y for _, y in ROWS[start : start + 30]])
        if w is None:
            booster.learn_many(frame, labels)
        else:
            booster.learn_many(frame, labels, w=w)
    return booster._members.weights.copy(), list(booster._lambda_sc)


def test_a_booster_learns_a_frames_weights_by_minibatch():
    # one weight for every row is that weight per row; a Series by position; weight 1 is no
    # weight, bit for bit; weight 0 moves no member
    plain = booster_by_minibatch()
    assert np.array_equal(booster_by_minibatch(1.0)[0], plain[0])
    twice = booster_by_minibatch(2.0)
    assert not np.array_equal(twice[0], plain[0])
    assert np.array_equal(booster_by_minibatch([2.0] * 30)[0], twice[0])
    per_row = booster_by_minibatch(WEIGHTS)
    assert np.array_equal(booster_by_minibatch(pd.Series(WEIGHTS, index=range(7, 37)))[0],
                          per_row[0])
    assert not np.array_equal(per_row[0], twice[0])
    nothing = booster_by_minibatch(0.0)
    assert not nothing[0][:, 1:].any()  # the features' weights never moved from 0
