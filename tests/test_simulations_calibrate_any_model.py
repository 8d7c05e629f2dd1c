"""simulations/calibrate_any_model.py: the README's headline, raw vs calibrated vs a bandit."""

from __future__ import annotations

import pytest
from river import compose

from streamboost import CalibratedClassifier, datasets
from streamboost.calibration import CALIBRATORS
from streamboost.experiments.models import encoding, make_model
from streamboost.metrics import BrierScore
from tests.simulation_loader import load

any_model = load("calibrate_any_model")


def test_each_calibrated_variant_scores_as_the_wrapper_on_the_same_model(monkeypatch):
    # pass 1 calibrates beside one model; each variant must be CalibratedClassifier's result
    monkeypatch.setattr(any_model, "pipeline", lambda model, dataset: compose.Pipeline(model))
    rows = {r["variant"]: r for r in any_model.task("phishing", "lr", 0, None, 300)}
    assert list(rows) == list(any_model.VARIANTS)
    stream = list(datasets.stream("phishing", seed=0, encode=encoding("lr")))[:300]
    for name in CALIBRATORS:
        wrapper, brier = CalibratedClassifier(make_model("lr", 10, 0), name), BrierScore()
        for x, y in stream:
            brier.update(y, wrapper.predict_proba_one(x))
            wrapper.learn_one(x, y)
        assert rows[f"+{name}"]["brier"] == pytest.approx(brier.get(), abs=1e-12)
    assert rows["raw"]["brier"] != rows["+platt"]["brier"]
    shares = [rows["D-UCB"][f"share {a}"] for a in ("train", "calibrate", "both")]
    assert sum(shares) == pytest.approx(1.0)


def _rows() -> list[dict]:
    """Every stream, two models, every variant: the calibrated variants better than raw but on
    weather, where `+platt` is worse; costs and speeds made up."""
    rows = []
    for d in any_model.DATASETS:
        for m, base in (("lr", 0.2), ("arf", 0.1)):
            for i, v in enumerate(any_model.VARIANTS):
                brier = base if v == "raw" else base * (1.0 - 0.01 * i)
                if d == "weather" and v == "+platt":
                    brier = base * 1.1
                row = {"dataset": d, "model": m, "seed": 0, "variant": v, "brier": brier,
                       "log_loss": 5 * brier, "speed": 1.0 / (1 + i),
                       **{f"cost {k}": brier for k in any_model.COSTS}}
                if v == "D-UCB":
                    row.update({"share train": 0.25, "share calibrate": 0.0, "share both": 0.75})
                rows.append(row)
    return rows


def test_the_report_marks_each_rows_best_and_counts_the_wins_over_raw():
    text = any_model.report(_rows(), 1, 300)
    # D-UCB, the last variant, is the best of every row (1 - 0.06 of raw)
    assert ("| weather | lr | 0.2000 | 0.2200 | 0.1960 | 0.1940 | 0.1920 | 0.1900 | **0.1880** |"
            in text)
    assert "| arf | 6/7 | 7/7 | 7/7 | 7/7 | 7/7 | 7/7 |" in text  # +platt loses weather
    assert "| electricity | arf 0.1000 | arf D-UCB 0.0940 | calibrated wins |" in text
    assert "| lr | 0.50x | 0.33x | 0.25x | 0.20x | 0.17x | 0.14x | 25% / 0% / 75% |" in text
    assert "|---|---|---:|---:|---:|---:|---:|---:|---:|" in text  # the numbers right-aligned
