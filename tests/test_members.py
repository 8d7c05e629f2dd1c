"""The booster's members as arrays (`streamboost.members`): the same predictions as River's
members asked one at a time, on real streams, whatever the features do."""

from __future__ import annotations

import itertools
import os
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from river import datasets, linear_model, optim, tree

from streamboost import OzaBoostClassifier
from streamboost.datasets import stream
from streamboost.members import LinearMembers, RiverMembers, engine_for


def _shared() -> Path:
    env = os.environ.get("STREAMBOOST_SHARED_DATA")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"
    if not (path / "electricity.csv.gz").is_file():
        pytest.skip(f"shared datasets not found at {path} (set STREAMBOOST_SHARED_DATA)")
    return path


def electricity(n: int) -> list:
    return list(itertools.islice(stream("electricity", data_dir=_shared()), n))


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


@pytest.mark.parametrize("score", ["vote", "logistic"])
def test_every_prediction_on_electricity_equals_the_reference(score):
    reference, vectorised = twins(linear_model.LogisticRegression(), score=score)
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


def test_a_rejected_example_changes_nothing_in_the_arrays():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=1)
    for x, y in itertools.islice(datasets.Phishing(), 50):
        booster.learn_one(x, y)
    before = pickle.dumps(booster)
    with pytest.raises(TypeError, match="feature 'colour' is 'red'; the vectorised members"):
        booster.learn_one({"colour": "red", "new": 1.0}, True)
    with pytest.raises(TypeError, match="take no keyword arguments"):
        booster.learn_one({"a": 1.0}, True, w=2.0)
    with pytest.raises(ValueError, match="feature 'a' is nan"):
        booster.learn_one({"a": float("nan")}, True)
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


def test_a_margin_at_zero_votes_as_river_does():
    # An untrained member has margin 0: River's p = 1/2 ties and predict_one says False.
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0)
    assert booster._members.votes({"a": 1.0}) == [False, False]
    assert linear_model.LogisticRegression().predict_one({"a": 1.0}) is False
