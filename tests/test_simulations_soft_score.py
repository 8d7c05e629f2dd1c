"""simulations/soft_score.py: the booster's three scores, raw and calibrated."""

from __future__ import annotations

import pytest

from streamboost import CalibratedClassifier, datasets
from streamboost.experiments.models import encoding, pipeline
from tests.shared_data import require
from tests.simulation_loader import load, prequential

soft = load("soft_score")


def test_a_calibrated_variant_is_the_calibrated_classifier_beside_the_same_booster():
    # the run's "+platt" and "+isotonic" are CalibratedClassifier's prequential scores (on a
    # stream without a scaler: River's pipeline updates a scaler before the step after it
    # learns, so a wrapper behind one learns the score of x scaled anew)
    data_dir = str(require("mushroom.csv.gz"))
    result = soft.run("oza-lr", "mushroom", "soft", 1, data_dir, max_rows=400)
    assert set(result) == {"seconds", *soft.VARIANTS} and result["seconds"] > 0.0
    rows = list(datasets.stream("mushroom", seed=1, encode=encoding("oza-lr"),
                                data_dir=data_dir))[:400]
    for name in ("platt", "isotonic"):
        model = pipeline(CalibratedClassifier(soft.booster("oza-lr", "soft", 1), name),
                         "mushroom")
        assert result[f"+{name}"] == pytest.approx(prequential(model, rows), rel=1e-12)
    assert result["+platt"][0] < result["raw"][0]  # the soft score is far from calibrated


def test_the_thesis_weak_learners_are_boosted_by_the_hundred_and_score_soft():
    from streamboost.weak import UnivariateLogisticRegression

    booster = soft.booster("oza-ulr", "soft", 0)
    assert booster.n_models == 100 and type(booster.model) is UnivariateLogisticRegression
    assert soft.booster("oza-lr", "vote", 0).n_models == 10
    result = soft.run("oza-stump", "phishing", "soft", 0, None, max_rows=400)
    assert result["+platt"][0] < result["raw"][0]  # 100 stumps' probabilities lean to 1/2


def test_the_scores_differ_but_not_what_the_booster_learns():
    runs = {score: soft.run("oza-lr", "phishing", score, 0, None, max_rows=300)
            for score in soft.SCORES}
    assert len({r["raw"] for r in runs.values()}) == 3


def test_the_report_bolds_each_rows_best_and_counts_the_soft_scores_wins():
    def result(brier):
        return {"seconds": 1.0, **{v: (brier + i / 100, 0.5) for i, v in enumerate(soft.VARIANTS)}}

    results = {}
    for name, vote, soft_brier in (("a", 0.10, 0.08), ("b", 0.10, 0.12)):
        results[("oza-lr", name, "vote")] = [result(vote)] * 2
        results[("oza-lr", name, "logistic")] = [result(vote + 0.05)] * 2
        results[("oza-lr", name, "soft")] = [result(soft_brier)] * 2
    text = soft.report(results, ["oza-lr"], ["a", "b"], 2)
    assert "| a | 0.1000 | 0.1100 |" in text and "| **0.0800** | 0.0900 |" in text
    assert "| b | **0.1000** |" in text
    # the means over the two streams: vote raw 0.10, soft raw (0.08 + 0.12) / 2
    assert "| oza-lr | Brier score | **0.1000** | 0.1100 |" in text  # tied: both bold
    assert "| **0.1000** | 0.1100 | 0.1200 | 0.1300 |\n" in text  # soft's four, the last columns
    # soft wins on a (0.08 < 0.10), loses on b, for every variant: +0 % raw on average
    assert "| oza-lr | 1/2 | 1/2 | 1/2 | 1/2 | raw -0.0 %" in text or \
        "| oza-lr | 1/2 | 1/2 | 1/2 | 1/2 | raw +0.0 %" in text
    assert "1.00x, 1.00x |" in text
