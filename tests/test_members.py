"""The booster's members as arrays (`streamboost.members`): the same predictions as River's
members asked one at a time, on real streams, whatever the features do."""

from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pandas as pd
import pytest
from river import datasets, forest, linear_model, optim, tree

from streamboost import OzaBoostClassifier, validation
from streamboost.datasets import stream
from streamboost.members import LinearMembers, RiverMembers, engine_for
from streamboost.poisson import poisson
from streamboost.weak import DecisionStump, UnivariateLogisticRegression
from tests.shared_data import require


def electricity(n: int) -> list:
    return list(itertools.islice(stream("electricity", data_dir=require("electricity.csv.gz")), n))


def twins(member, **params) -> tuple[OzaBoostClassifier, OzaBoostClassifier]:
    """The same booster on the reference path and on the arrays."""
    params = {"n_models": 10, "seed": 7, **params}
    reference = OzaBoostClassifier(member, engine="reference", **params)
    vectorised = OzaBoostClassifier(member, engine="vectorised", **params)
    assert isinstance(reference._members, RiverMembers)
    assert not isinstance(vectorised._members, RiverMembers)
    return reference, vectorised


def replay_equal(reference, vectorised, rows) -> int:
    """Score then learn every row with both; return the number of rows (all must agree)."""
    for n, (x, y) in enumerate(rows):
        assert vectorised.predict_proba_one(x) == reference.predict_proba_one(x), n
        reference.learn_one(x, y)
        vectorised.learn_one(x, y)
    assert vectorised._lambda_sc == reference._lambda_sc
    assert vectorised._lambda_sw == reference._lambda_sw
    return len(rows)


def assert_weights_close(reference, vectorised) -> None:
    for ours, theirs in zip(vectorised.models, reference.models, strict=True):
        assert ours.optimizer.n_iterations == theirs.optimizer.n_iterations
        assert ours.intercept == pytest.approx(theirs.intercept, rel=1e-9, abs=1e-12)
        for key, w in theirs.weights.items():
            assert ours.weights.get(key, 0.0) == pytest.approx(w, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("score, draws", [("vote", "repeat"), ("logistic", "repeat"),
                                          ("vote", "weight")])
def test_every_prediction_on_electricity_equals_the_reference(score, draws):
    reference, vectorised = twins(linear_model.LogisticRegression(), score=score, draws=draws)
    assert replay_equal(reference, vectorised, electricity(5_000)) == 5_000
    assert_weights_close(reference, vectorised)


def test_every_prediction_on_phishing_equals_the_reference_with_skip_and_other_rates():
    member = linear_model.LogisticRegression(
        optimizer=optim.SGD(0.05), intercept_lr=0.2, clip_gradient=0.3,
        loss=optim.losses.Log(weight_pos=2.0, weight_neg=0.5),
    )
    reference, vectorised = twins(member, weak_rule="skip", n_models=7)
    assert replay_equal(reference, vectorised, list(datasets.Phishing())) == 1_250
    assert_weights_close(reference, vectorised)


def test_features_that_come_and_go_in_any_order_give_the_reference_predictions():
    # 20 features (the arrays widen past their first 8 columns), each row a random subset in a
    # random order: new keys join mid-stream, absent ones count as 0 as in River.
    rng = random.Random(3)
    rows = []
    for _ in range(2_000):
        keys = rng.sample(range(20), rng.randint(1, 20))
        x = {f"f{j}": rng.gauss(0.0, 1.0) for j in keys}
        rows.append((x, x.get("f0", 0.0) + x.get("f5", 0.0) > 0.3))
    reference, vectorised = twins(linear_model.LogisticRegression(), n_models=5)
    replay_equal(reference, vectorised, rows)
    assert_weights_close(reference, vectorised)
    assert vectorised._members.weights.shape[1] <= 2 * 20 + 1  # memory: the features seen


def test_engine_choice_is_explicit():
    assert engine_for(linear_model.LogisticRegression()) is LinearMembers
    auto = OzaBoostClassifier(linear_model.LogisticRegression())
    assert isinstance(auto._members, LinearMembers)
    for member in (
        tree.HoeffdingTreeClassifier(),
        linear_model.LogisticRegression(l2=0.01),
        linear_model.LogisticRegression(optimizer=optim.Adam()),
    ):
        assert isinstance(OzaBoostClassifier(member)._members, RiverMembers)
        with pytest.raises(TypeError, match="no array engine"):
            OzaBoostClassifier(member, engine="vectorised")
    with pytest.raises(ValueError, match="engine must be one of"):
        OzaBoostClassifier(linear_model.LogisticRegression(), engine="fast")


@pytest.mark.parametrize(
    "member", [linear_model.LogisticRegression(), DecisionStump(), UnivariateLogisticRegression()]
)
def test_a_rejected_example_changes_nothing_in_the_arrays(member):
    booster = OzaBoostClassifier(member, n_models=4, seed=1)
    for x, y in itertools.islice(datasets.Phishing(), 50):
        booster.learn_one(x, y)
    booster.predict_proba_one(x)  # the vote weights' cache is filled, as a prediction leaves it
    before = pickle.dumps(booster)
    with pytest.raises(TypeError, match="feature 'colour' is 'red'; the vectorised members"):
        booster.learn_one({"colour": "red", "new": 1.0}, True)
    # every array engine takes a sample weight, checked, and no other keyword (since 0.8.46
    # the weak learners' too)
    with pytest.raises(TypeError, match=r"take a sample weight w only, got \['weight'\]"):
        booster.learn_one(x, True, weight=2.0)
    with pytest.raises(ValueError, match="sample weight w must be a finite number >= 0"):
        booster.learn_one(x, True, w=float("nan"))
    with pytest.raises(ValueError, match="feature 'a' is nan"):
        booster.learn_one({"a": float("nan")}, True)
    # a number written as a str, in the known key order (numpy alone would parse it) or not
    known = next(iter(datasets.Phishing()))[0]
    for x in ({**known, next(iter(known)): "2"}, {"new": "2", **known}):
        for call in (booster.predict_proba_one, lambda x: booster.learn_one(x, True),
                     lambda x: booster._members.rows([x, x])):
            with pytest.raises(TypeError, match="is '2'; the vectorised members take numbers"):
                call(x)
    # None, which numpy reads as nan (every member's weight became NaN before 0.8.34)
    first = next(iter(known))
    for x in ({**known, first: None}, {"new": None, **known}):
        for call in (booster.predict_proba_one, lambda x: booster.learn_one(x, True),
                     lambda x: booster._members.rows([known, x])):
            bad = first if x[first] is None else "new"
            with pytest.raises(TypeError, match=f"^feature '{bad}' is None; expected a number"):
                call(x)
    assert pickle.dumps(booster) == before


def test_models_show_the_learned_members_and_a_pickle_resumes_exactly():
    rows = list(datasets.Phishing())
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=5)
    for x, y in rows[:600]:
        booster.learn_one(x, y)
    member = booster.models[0]
    assert member.weights and all(np.isfinite(list(member.weights.values())))
    assert member.optimizer.n_iterations > 0
    resumed = pickle.loads(pickle.dumps(booster))
    for x, y in rows[600:]:
        assert resumed.predict_proba_one(x) == booster.predict_proba_one(x)
        booster.learn_one(x, y)
        resumed.learn_one(x, y)
    assert np.array_equal(resumed._members.weights, booster._members.weights)


def test_draws_as_weights_are_one_call_with_weight_k():
    calls = []

    class Counting(tree.HoeffdingTreeClassifier):
        def learn_one(self, x, y, *, w=1.0):
            calls.append(w)
            super().learn_one(x, y, w=w)

    for draws, expected in (("weight", [3]), ("repeat", [1.0, 1.0, 1.0])):
        calls.clear()
        booster = OzaBoostClassifier(Counting(), n_models=1, draws=draws)
        booster._members.begin({"a": 1.0}, True)
        booster._members.vote_after(0, 3)
        assert calls == expected
    with pytest.raises(TypeError, match=r"ARFClassifier\.learn_one does not"):
        OzaBoostClassifier(forest.ARFClassifier(), draws="weight")
    with pytest.raises(ValueError, match=r"draws must be one of .* got 'calls'"):
        OzaBoostClassifier(linear_model.LogisticRegression(), draws="calls")


def test_a_margin_at_zero_votes_as_river_does():
    # An untrained member has margin 0: River's p = 1/2 ties and predict_one says False.
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0)
    assert booster._members.votes({"a": 1.0}) == [False, False]
    assert linear_model.LogisticRegression().predict_one({"a": 1.0}) is False


# ---------------------------------------------------------------------- minibatches


def frames(rows, size):
    import pandas as pd

    for start in range(0, len(rows), size):
        chunk = rows[start : start + size]
        yield pd.DataFrame([x for x, _ in chunk]), pd.Series([y for _, y in chunk])


def prequential_brier(model, rows, size) -> float:
    total = 0.0
    for X, y in frames(rows, size):
        p = model.predict_proba_many(X)[True].to_numpy()
        total += float(((p - y.to_numpy()) ** 2).sum())
        model.learn_many(X, y)
    return total / len(rows)


@pytest.mark.parametrize("score", ["vote", "logistic"])
def test_predict_proba_many_equals_predict_proba_one_row_by_row(score):
    import pandas as pd

    booster = OzaBoostClassifier(linear_model.LogisticRegression(), score=score, seed=2)
    rows = list(datasets.Phishing())
    for x, y in rows[:700]:
        booster.learn_one(x, y)
    X = pd.DataFrame([x for x, _ in rows[700:]])
    X.iloc[::7, 2] = float("nan")  # a missing cell is an absent key
    many = booster.predict_proba_many(X)
    one = pd.DataFrame([booster.predict_proba_one(x) for x in validation.records(X)], index=X.index)
    assert list(many.columns) == [False, True]
    assert many.equals(one)  # the same floats, not merely close


def test_one_row_drawn_k_times_is_rivers_learn_one_with_weight_k():
    import pandas as pd

    member = linear_model.LogisticRegression()
    booster = OzaBoostClassifier(member, n_models=1, seed=0)
    x = {"a": 0.7, "b": -1.2}
    table = booster._members.frame(pd.DataFrame([x]))
    booster._learn_table(table, np.array([True]), lambda lam: np.array([3]))
    member.learn_one(x, True, w=3.0)
    assert booster.models[0].weights == pytest.approx(member.weights, rel=1e-12)
    assert booster.models[0].intercept == pytest.approx(member.intercept, rel=1e-12)


@pytest.mark.parametrize("score", ["vote", "logistic"])
def test_a_minibatch_of_one_row_is_learn_one_with_draws_as_weights(score):
    # Same draws (the exact path's generator), one row per minibatch: every prediction equals
    # learn_one's to rounding (the step's gradient is scipy's expit, River's exp there).
    exact = OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=10, score=score, seed=3, draws="weight"
    )
    batched = exact.clone()
    rng = batched._rng
    held = batched._members
    gaps = []
    for x, y in electricity(3_000):
        p = exact.predict_proba_one(x)[True]
        gaps.append(abs(batched.predict_proba_one(x)[True] - p))
        exact.learn_one(x, y)
        table = held.frame(_one_row(x))
        batched._learn_table(table, np.array([y]), lambda lam: np.array([poisson(lam[0], rng)]))
    assert max(gaps) < 1e-9
    assert batched._lambda_sc == pytest.approx(exact._lambda_sc, rel=1e-12)
    assert batched._lambda_sw == pytest.approx(exact._lambda_sw, rel=1e-12)


def _one_row(x: dict):
    import pandas as pd

    return pd.DataFrame([x])


def test_running_sums_are_the_per_row_lambda_updates(monkeypatch):
    # Members whose votes after learning are given: the minibatch's lambda sums must equal
    # Oza's per-row loop over the same votes.
    rng = np.random.default_rng(4)
    votes = rng.random((6, 40)) < 0.6  # member x row
    targets = rng.random(40) < 0.5
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=6, seed=0)
    booster._lambda_sc = [0.5, 0.0, 2.0, 0.0, 1.0, 3.0]
    booster._lambda_sw = [0.5, 0.0, 1.0, 0.0, 0.0, 0.0]
    sc, sw = list(booster._lambda_sc), list(booster._lambda_sw)
    # the members have slots, not a __dict__: the method is replaced on their class
    monkeypatch.setattr(type(booster._members), "learn_batch",
                        lambda self, i, X, ks, t, w: votes[i])
    booster._learn_table(np.zeros((40, 1)), targets, lambda lam: np.zeros(len(lam), int))
    for b in range(40):
        lam = 1.0
        for i in range(6):
            if votes[i, b] == targets[b]:
                sc[i] += lam
                lam *= (sc[i] + sw[i]) / (2.0 * sc[i])
            else:
                sw[i] += lam
                lam *= (sc[i] + sw[i]) / (2.0 * sw[i])
    assert booster._lambda_sc == sc
    assert booster._lambda_sw == sw


def test_minibatch_boosting_beats_one_member_and_is_seeded():
    rows = list(datasets.Phishing())
    ten = prequential_brier(
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=1), rows, 64
    )
    again = prequential_brier(
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=1), rows, 64
    )
    one = prequential_brier(
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=1, seed=1), rows, 64
    )
    assert ten == again
    assert ten < one - 0.02


def test_a_rejected_minibatch_changes_nothing():
    import pandas as pd

    booster = OzaBoostClassifier(linear_model.LogisticRegression(), seed=1)
    booster.learn_many(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([True, False]))
    before = pickle.dumps(booster)
    with pytest.raises(ValueError, match="neither"):
        booster.learn_many(pd.DataFrame({"a": [1.0, 2.0], "new": 1.0}), pd.Series([True, 2]))
    with pytest.raises(ValueError, match="row 1, column 'new' is inf"):
        booster.learn_many(
            pd.DataFrame({"a": [1.0, 2.0], "new": [1.0, np.inf]}), pd.Series([True, False])
        )
    with pytest.raises(TypeError, match="column 'colour' has dtype"):
        booster.learn_many(pd.DataFrame({"colour": ["red", "blue"]}), pd.Series([True, False]))
    with pytest.raises(ValueError, match="2 rows but y has 1"):
        booster.learn_many(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([True]))
    assert pickle.dumps(booster) == before


@pytest.mark.parametrize("draws", ["repeat", "weight"])
def test_a_copy_of_the_arrays_is_independent_and_rows_stack_vectors(draws):
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=5, draws=draws,
                                 seed=2)
    rows = list(datasets.Phishing())
    for x, y in rows[:300]:
        booster.learn_one(x, y)
    held = booster._members
    copy = held.copy()
    xs = [x for x, _ in rows[300:500]]
    table = held.rows(xs)
    assert table.tolist() == np.array([held.vector(x) for x in xs]).tolist()
    before = copy.batch_votes(copy.rows(xs)).tolist()
    assert before == held.batch_votes(table).tolist()
    one_by_one = [list(copy.votes(x)) for x in xs[:20]]
    assert one_by_one == before[:20]
    import pandas as pd

    frame = pd.DataFrame(xs[:20])  # a frame scores as its rows do
    assert copy.batch_votes(copy.frame(frame)).tolist() == before[:20]
    for x, y in rows[300:800]:
        booster.learn_one(x, y)
    assert copy.batch_votes(copy.rows(xs)).tolist() == before
    assert held.batch_votes(held.rows(xs)).tolist() != before
    # a key only the copy meets widens the copy alone, and one only the booster meets the booster
    keys = list(held._keys)
    copy.rows([{**xs[0], "only the copy": 1.0}])
    booster.learn_one({**xs[0], "only the booster": 1.0}, True)
    assert copy._keys == [*keys, "only the copy"] and held._keys == [*keys, "only the booster"]
    assert copy.batch_votes(copy.rows(xs)).tolist() == before


def test_rows_of_ragged_dicts_are_zero_where_a_key_is_absent():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0)
    booster.learn_one({"a": 1.0, "b": 2.0}, True)
    held = booster._members
    table = held.rows([{"a": 3.0, "b": 4.0}, {"b": 5.0}, {"c": 6.0, "a": 7.0}])
    lead = [1.0] if held.lead is not None else []
    assert table.tolist() == [[*lead, 3.0, 4.0, 0.0], [*lead, 0.0, 5.0, 0.0],
                              [*lead, 7.0, 0.0, 6.0]]
    with pytest.raises((TypeError, ValueError), match="'x'"):
        held.rows([{"a": 1.0, "b": "x"}])


def test_river_members_soft_score_reads_a_missing_positive_class_as_zero():
    # a tree that has seen negatives only says {False: 1.0}: P(True) is 0, as River reads it
    booster = OzaBoostClassifier(tree.HoeffdingTreeClassifier(), n_models=3, score="soft",
                                 seed=0)
    for _ in range(20):
        booster.learn_one({"a": 1.0}, False)
    assert booster.models[0].predict_proba_one({"a": 1.0}) == {False: 1.0}
    assert booster.score_one({"a": 1.0}) == 0.0


@pytest.mark.parametrize(("member", "score"), [
    (lambda: tree.HoeffdingTreeClassifier(grace_period=20), "vote"),  # RiverMembers
    (lambda: tree.HoeffdingTreeClassifier(grace_period=20), "soft"),
    (DecisionStump, "vote"),  # WeakMembers
    (linear_model.LogisticRegression, "vote"),  # LinearMembers
])
def test_members_keep_a_scores_votes_only_for_the_x_it_scored(member, score):
    """The votes read as x is scored serve the learning of the same x only: not of another x,
    nor of the scored dict changed in place by the caller in between."""
    rows = list(datasets.Phishing().take(400))
    scored, fresh = (OzaBoostClassifier(member(), n_models=5, score=score, seed=1)
                     for _ in range(2))
    for i, (x, y) in enumerate(rows):
        other = dict(rows[i - 1][0])
        if i % 2:
            scored.predict_proba_one(other)  # then learns x
        else:
            scored.predict_proba_one(other)
            other.clear()
            other.update(x)  # the scored dict, refilled with x
            x = other
        scored.learn_one(x, y)
        fresh.learn_one(x, y)
        # not fresh's predictions: scoring it would keep votes too (one stale path for both)
        assert scored.alphas == fresh.alphas, i
    x = rows[0][0]
    assert scored.predict_proba_one(x) == fresh.predict_proba_one(x)


@pytest.mark.parametrize("member", [linear_model.LogisticRegression, DecisionStump])
def test_a_minibatch_drops_what_array_members_kept_of_the_last_x_scored(member):
    # x scored (its margins or candidate scores kept for learning it next), then a minibatch
    # learned: the members moved, so x is scored afresh (the soft score reads every margin)
    rows = list(datasets.Phishing().take(64))
    X = pd.DataFrame([x for x, _ in rows])
    y = pd.Series([y for _, y in rows])
    scored, fresh = (OzaBoostClassifier(member(), n_models=3, seed=3, score="soft")
                     for _ in range(2))
    x = rows[10][0]
    scored.predict_proba_one(x)
    for booster in (scored, fresh):
        booster.learn_many(X, y)
    assert scored.predict_proba_one(x) == fresh.predict_proba_one(x)
