"""simulations/platt_step.py: Platt's step by name against smaller ones, beside one model."""

from __future__ import annotations

import pytest
from river import compose

from streamboost import CalibratedClassifier, datasets
from streamboost.calibration import OnlineBetaCalibrator, OnlinePlattCalibrator
from streamboost.metrics import BrierScore
from streamboost.scores import positive_score
from tests.simulation_loader import load, prequential

platt_step = load("platt_step")


@pytest.mark.parametrize("model_name", ["ht", platt_step.SOFT])
def test_each_step_is_calibrated_classifier_with_that_platt(model_name, monkeypatch):
    # one pass serves every calibrator: each variant must score as the wrapper alone does,
    # each with the name's eps and its own gamma (no
    # scaler: River's pipeline updates one before the next step learns, so a wrapper behind it
    # learns the score of x scaled anew)
    monkeypatch.setattr(platt_step, "HEAD", 200)
    monkeypatch.setattr(platt_step, "pipeline", lambda model, dataset: compose.Pipeline(model))
    encode = "onehot" if model_name == platt_step.SOFT else None
    rows = list(datasets.stream("phishing", seed=1, encode=encode))[:500]
    result = platt_step.run(model_name, "phishing", 1, None, max_rows=500)
    assert set(result) == {"rows", "extreme", *platt_step.VARIANTS} and result["rows"] == 500

    def wrapped(calibrator):
        return CalibratedClassifier(platt_step.model_named(model_name, 1), calibrator)

    eps = {"ht": 1e-3, platt_step.SOFT: 1e-3}[model_name]  # neither scores by the vote
    cases = {"platt gamma 1": OnlinePlattCalibrator(gamma=1.0, eps=eps),
             "platt gamma 0.1": OnlinePlattCalibrator(gamma=0.1, eps=eps),
             "beta gamma 1": OnlineBetaCalibrator(gamma=1.0, eps=eps),
             "beta gamma 0.1": OnlineBetaCalibrator(gamma=0.1, eps=eps)}
    # and by name, the step `scores.named_step` takes beside the model
    named = {"ht": "platt gamma 0.1", platt_step.SOFT: "platt gamma 1"}[model_name]
    assert result[named][0] == pytest.approx(prequential(wrapped("platt"), rows)[0], rel=1e-12)
    for variant, calibrator in cases.items():
        assert result[variant][0] == pytest.approx(prequential(wrapped(calibrator), rows)[0],
                                                   rel=1e-12), variant
        assert result[variant][1] == pytest.approx(
            prequential(wrapped(calibrator), rows[:200])[0], rel=1e-12), variant
    raw, brier, extreme = platt_step.model_named(model_name, 1), BrierScore(), 0
    for x, y in rows:  # the raw score as the wrappers read it (an empty dict: 1/2)
        score = positive_score(raw, x, True)
        brier.update(y, score)
        extreme += score in (0.0, 1.0)
        raw.learn_one(x, y)
    assert result["raw"][0] == pytest.approx(brier.get(), rel=1e-12)
    assert result["extreme"] == extreme / 500
    assert result["platt gamma 0.3"] != result["platt gamma 1"] != result["platt gamma 0.1"]
    assert result["beta gamma 1"] != result["beta gamma 0.1"]
    # a young Hoeffding tree scores some examples 0 or 1 exactly; averaged probabilities never
    assert (result["extreme"] > 0.0) == (model_name == "ht")


def test_the_report_counts_the_streams_where_a_smaller_step_wins():
    def result(named, small):
        return {"rows": 100, "extreme": 0.25, "raw": (0.3, 0.4),
                "platt gamma 1": (named, named), "platt gamma 0.3": (named, small),
                "platt gamma 0.1": (small, named), "beta gamma 1": (small, small),
                "beta gamma 0.1": (named, named)}

    results = {("ht", "a"): [result(0.10, 0.08)] * 2, ("ht", "b"): [result(0.20, 0.21)] * 2}
    text = platt_step.report(results, ["ht"], ["a", "b"], 2)
    assert ("| a | 0.3000 (0.4000) | 0.1000 (0.1000) | 0.1000 (0.0800) | 0.0800 (0.1000) "
            "| 0.0800 (0.0800) | 0.1000 (0.1000) | 25.0% |") in text
    # platt 0.3 ties over the run (a win is strictly lower) and wins on a over the head;
    # platt 0.1 wins on a over the run and ties over the head; beta's smaller step, against
    # beta's name, wins on b and loses on a, both over the run and over the head
    assert "| ht | platt gamma 0.3 | 0.1500 | 0.1500 | 0/2 | 0.1500 | 0.1450 | 1/2 |" in text
    assert "| ht | platt gamma 0.1 | 0.1500 | 0.1450 | 1/2 | 0.1500 | 0.1500 | 0/2 |" in text
    assert "| ht | beta gamma 0.1 | 0.1450 | 0.1500 | 1/2 | 0.1450 | 0.1500 | 1/2 |" in text
