"""Tests of streamboost.scores: the model's P(positive) and frozen snapshots."""

from __future__ import annotations

import pytest
from river import datasets, linear_model, optim, tree

from streamboost import OzaBoostClassifier
from streamboost.scores import positive_score, snapshot

ROWS = list(datasets.Phishing()) * 3  # 3,750 examples


@pytest.mark.parametrize("score", ["vote", "logistic"])
@pytest.mark.parametrize("weak_rule", ["stop", "skip"])
def test_a_snapshot_scores_as_the_booster_did(score, weak_rule):
    booster = OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=10, score=score, weak_rule=weak_rule, seed=3
    )
    checked = 0
    for i, (x, y) in enumerate(ROWS[:3000]):
        if i % 500 == 0:
            later = ROWS[i : i + 1000]
            frozen = snapshot(booster)
            assert [frozen.score_one(z) for z, _ in later] == [
                booster.score_one(z) for z, _ in later
            ]
            checked += len(later)
        booster.learn_one(x, y)
    assert checked == 6000


def test_snapshot_copies_any_model():
    for model in (
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0),
        OzaBoostClassifier(tree.HoeffdingTreeClassifier(), n_models=2, seed=0),
        OzaBoostClassifier(linear_model.LogisticRegression(loss=optim.losses.Hinge()), seed=0),
        linear_model.LogisticRegression(),
    ):
        copy = snapshot(model)
        assert type(copy) is type(model) and copy is not model


def test_a_frozen_copy_does_not_follow_the_booster():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=1)
    for x, y in ROWS[:200]:
        booster.learn_one(x, y)
    frozen = snapshot(booster)
    before = [frozen.score_one(x) for x, _ in ROWS[200:400]]
    for x, y in ROWS[200:1200]:
        booster.learn_one(x, y)
    assert [frozen.score_one(x) for x, _ in ROWS[200:400]] == before
    assert [positive_score(booster, x, True) for x, _ in ROWS[200:400]] != before
    untrained = snapshot(OzaBoostClassifier(linear_model.LogisticRegression()))
    assert untrained.score_one({"a": 1.0}) == 0.5
