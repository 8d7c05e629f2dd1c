"""simulations/warmup.py: what the controller's warm-up costs."""

from __future__ import annotations

import pytest

from streamboost import BanditCalibratedClassifier, CalibratedClassifier, datasets
from streamboost.calibration import OnlinePlattCalibrator
from streamboost.experiments.models import make_model, pipeline
from tests.simulation_loader import load, prequential

warmup = load("warmup")


def test_a_run_scores_each_variant_prequentially_and_its_head_apart(monkeypatch):
    monkeypatch.setattr(warmup, "HEAD", 250)
    rows = list(datasets.stream("phishing", seed=1))[:600]
    result = warmup.run("lr", "phishing", 1, None, max_rows=600)
    assert set(result) == {"rows", *warmup.VARIANTS} and result["rows"] == 600
    for variant in ("raw", "both, warmup 10", "discounted-ucb, warmup 0",
                    "discounted-ucb, warm-up both"):
        model = warmup.model_for("lr", variant, "phishing", 1)
        assert result[variant][0] == pytest.approx(prequential(model, rows)[0], rel=1e-12)
        head = warmup.model_for("lr", variant, "phishing", 1)
        assert result[variant][1] == pytest.approx(prequential(head, rows[:250])[0],
                                                   rel=1e-12)
    # the warm-up reaches the controller: 320 examples served raw change the score, and so
    # does a warm-up that calibrates
    assert result["both, warmup 10"] != result["both, warmup 0"]
    assert result["discounted-ucb, warm-up both"] != result["discounted-ucb, warmup 10"]
    assert warmup.model_for("lr", "discounted-ucb, warm-up both", "phishing", 1)[
        "BanditCalibratedClassifier"].warmup_arm == "both"


def test_both_without_a_warm_up_is_calibrated_classifier():
    # what the report's "both, warmup 0" stands for: the calibrator learns from the first
    # example, as CalibratedClassifier's does (Platt's step pinned to the report's, 1)
    rows = list(datasets.stream("phishing", seed=2))[:800]
    result = warmup.run("oza-lr", "phishing", 2, None, max_rows=800)
    booster = make_model("oza-lr", 10, 2)
    wrapper = pipeline(CalibratedClassifier(booster, OnlinePlattCalibrator(gamma=1.0, eps=1 / 22)),
                       "phishing")
    assert result["both, warmup 0"][0] == pytest.approx(prequential(wrapper, rows)[0],
                                                        rel=1e-12)


def test_the_report_counts_the_streams_where_another_warm_up_wins():
    def result(ten, zero):
        return {"rows": 20_000, "raw": (0.3, 0.4),
                "both, warmup 10": (ten, ten + 0.1), "both, warmup 0": (zero, zero + 0.05),
                "discounted-ucb, warmup 10": (ten, ten), "discounted-ucb, warmup 0": (ten, ten),
                "discounted-ucb, warm-up both": (zero, ten)}

    results = {("lr", "a"): [result(0.10, 0.08)] * 2, ("lr", "b"): [result(0.20, 0.21)] * 2}
    text = warmup.report(results, ["lr"], ["a", "b"], 2)
    assert ("| a | 0.3000 (0.4000) | 0.1000 (0.2000) | 0.0800 (0.1300) | 0.1000 (0.1000) "
            "| 0.1000 (0.1000) | 0.0800 (0.1000) |") in text
    # both: warmup 0 wins on a over the run (0.08 < 0.10) and not on b; over the head, on
    # both (0.13 < 0.20, 0.26 < 0.30); D-UCB's warmup 0 ties everywhere (a win is strictly
    # lower); its calibrating warm-up wins on a over the run, ties over the head
    assert "| lr | both | warmup 0 | 0.1500 | 0.1450 | 1/2 | 0.2500 | 0.1950 | 2/2 |" in text
    assert ("| lr | discounted-ucb | warmup 0 | 0.1500 | 0.1500 | 0/2 | 0.1500 | 0.1500 "
            "| 0/2 |") in text
    assert ("| lr | discounted-ucb | warm-up both | 0.1500 | 0.1450 | 1/2 | 0.1500 | 0.1500 "
            "| 0/2 |") in text


def test_the_soft_model_is_the_controllers_default_and_the_old_warm_up_is_pinned():
    # "oza-lr-soft" is what BanditCalibratedClassifier() builds; "warmup 10" is the warm-up
    # that trains only (the default until 0.8.52), which the report compares against
    both = warmup.model_for(warmup.SOFT, "both, warmup 10", "phishing", 4)[
        "BanditCalibratedClassifier"]
    default = BanditCalibratedClassifier(seed=4)
    assert both.warmup_arm == "train" and default.warmup_arm is None
    assert both.model.score == "soft" == default._model.score
    assert both.model.n_models == default._model.n_models == 10
    assert warmup.model_for("lr", "discounted-ucb, warm-up both", "phishing", 4)[
        "BanditCalibratedClassifier"]._warmup_arm == "both"
