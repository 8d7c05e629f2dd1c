"""Tests for simulations/calibration_lag.py: its raw column is the bare booster's (the wrapper
leaves the booster's training alone), every column is an area, and the report is written."""

from __future__ import annotations

import math
import sys

from shared_data import SHARED as DATA
from shared_data import needs_shared
from simulation_loader import load

lag = load("calibration_lag")


@needs_shared
def test_raw_is_the_bare_booster_and_every_column_is_an_area(tmp_path):
    out = lag.run_dataset("parkinsons", 0, DATA)
    assert list(out) == ["raw", "both", *(f"lag {k}" for k in lag.LAGS)]
    assert all(0.0 < v <= 0.5 and math.isfinite(v) for v in out.values())
    tp = sys.modules["thesis_protocol"]
    rows = tp.balanced_rows("parkinsons", 0, DATA)
    train, test = tp.stratified_split(rows, tp.TEST_FRACTION)
    bare = tp.run_online("never", train, test, seed=0, passes=1, n_models=lag.N_MODELS,
                         batch_size=16, warmup=2, scale=True, members="univariate")
    assert out["raw"] == bare[0]["brier_curve"]
    assert lag.main(["--reps", "1", "--datasets", "parkinsons", "--data-dir", str(DATA),
                     "--no-streams", "--out", str(tmp_path / "lag.md")]) == 0
    text = (tmp_path / "lag.md").read_text()
    assert "| parkinsons |" in text and "| mean |" in text


@needs_shared
def test_a_window_alone_changes_no_prediction_and_refits_do(monkeypatch):
    from river import linear_model, preprocessing

    from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets
    from streamboost.calibration import OnlinePlattCalibrator

    monkeypatch.setattr(lag, "ROWS", 400)
    # the script's calibrator: Platt by name, whose step beside a booster's vote is 0.1
    # (since 0.8.53; the report was re-run with it in 0.8.54)
    plain = preprocessing.StandardScaler() | CalibratedClassifier(
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=1),
        OnlinePlattCalibrator(gamma=0.1, eps=0.5 / 11),
    )
    total = 0.0
    for n, (x, y) in enumerate(datasets.stream("phishing", data_dir=DATA), start=1):
        total += (plain.predict_proba_one(x)[True] - y) ** 2
        plain.learn_one(x, y)
        if n == 400:
            break
    assert lag.prequential("phishing", "lr", None, DATA) == total / 400
    assert lag.prequential("phishing", "lr", 16, DATA) != total / 400


@needs_shared
def test_the_rates_are_recorded_per_member_and_the_first_is_always_one():
    lines = lag.rate_table(DATA, name="parkinsons", last=50)
    first = lines[2].split("|")
    assert [cell.strip() for cell in first[1:5]] == ["1", "1.00", "1.0", "1"]
    assert len(lines) == 6
