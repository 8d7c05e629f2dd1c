"""Tests for simulations/variants_protocol.py: the Brier-curve area from per-ratio decisions,
and one variant's run on a real dataset."""

from __future__ import annotations

import random

import pytest
from shared_data import require
from simulation_loader import load

from streamboost.decision import cost_threshold
from streamboost.metrics import BrierCurve
from streamboost.metrics.brier_curve import THESIS_COST_RATIOS

vp = load("variants_protocol")


def test_q_and_the_area_by_hand():
    # c = 1/4: one false negative (weight 3/4) and one false positive (1/4) among 4 examples
    decisions = [(True, False), (True, True), (False, True), (False, False)]
    assert vp.q_value(0.25, decisions) == pytest.approx(2 * (0.25 + 0.75) / 4)
    # Q = 0.5 at c = 1/2 only: a triangle of height 0.5 over [0, 1]
    assert vp.area({0.5: 0.5}) == pytest.approx(0.25)
    # the end points are Q = 0 whatever is passed for the inner points
    assert vp.area({0.25: 0.2, 0.75: 0.2}) == pytest.approx(0.25 * 0.1 + 0.5 * 0.2 + 0.25 * 0.1)


def test_per_ratio_decisions_at_p_above_c_give_the_brier_curve_area():
    # AdaMEC's area is the Brier curve's: one model, the threshold moved to each c
    rng = random.Random(0)
    pairs = [(rng.random() < 0.5, rng.uniform(0.01, 0.99)) for _ in range(300)]
    curve = BrierCurve()
    for y, p in pairs:
        curve.update(y, p)
    points = {}
    for ratio in THESIS_COST_RATIOS:
        c = cost_threshold(1.0, ratio)
        points[c] = vp.q_value(c, [(y, p > c) for y, p in pairs])
    assert vp.area(points) == pytest.approx(curve.get(), abs=1e-12)


def test_only_finished_repetitions_are_reported():
    rows = [{"dataset": d, "method": m, "rep": r} for d in "ab" for m in "xy" for r in (0, 1)]
    rows.pop()  # repetition 1 lacks (b, y)
    assert {r["rep"] for r in vp.complete(rows)} == {0}


def test_a_variant_run_gives_raw_and_calibrated_areas(tmp_path):
    data_dir = require("parkinsons.csv.gz")
    raw, calibrated = vp.run_variant("parkinsons", 0, "adac2", n_models=5, data_dir=data_dir)
    assert (raw["method"], calibrated["method"]) == ("adac2", "adac2, calibrated")
    for row in (raw, calibrated):
        assert 0.0 < row["area"] < 0.5  # better than the all-wrong, worse than perfect
        assert 0.0 <= row["members"] <= 5
    assert raw["area"] != calibrated["area"]
    # same seed, same result
    again = vp.run_variant("parkinsons", 0, "adac2", n_models=5, data_dir=data_dir)
    assert [r["area"] for r in again] == [raw["area"], calibrated["area"]]


def test_the_verdict_names_what_ranks_significantly_apart_from_calibrated_adamec():
    ranks = {"adamec, calibrated": 5.0, "asymada, calibrated": 3.0, "adacost": 12.0}
    held = vp.verdict(ranks, critical_difference=4.0)
    assert held.startswith("Does the thesis's conclusion hold online? **Yes")
    assert "best asymada, calibrated, 3.00" in held
    assert held.endswith("worse than calibrated AdaMEC: adacost.")
    broken = vp.verdict(ranks, critical_difference=1.5)
    assert "**No: asymada, calibrated rank significantly better" in broken


def test_a_run_keeps_the_rows_it_finished_and_runs_only_the_rest(tmp_path, monkeypatch):
    calls = []

    def fake(name, rep, variant, n_models, data_dir):
        calls.append((name, rep, variant))
        common = {"dataset": name, "rep": rep, "members": 1.0, "seconds": 2.0, "n_models": n_models}
        return [{**common, "method": variant, "area": 0.2},
                {**common, "method": f"{variant}, calibrated", "area": 0.1}]  # fmt: skip

    monkeypatch.setattr(vp, "run_variant", fake)
    out = tmp_path / "rows.csv"
    vp.run(["parkinsons"], 1, 5, 1, out, None, variants=("adac2",))
    first = vp.read_csv(out)
    rows = vp.run(["parkinsons"], 2, 5, 1, out, None, variants=("adac2", "csada"))
    assert calls == [("parkinsons", 0, "adac2"), ("parkinsons", 0, "csada"),
                     ("parkinsons", 1, "adac2"), ("parkinsons", 1, "csada")]  # fmt: skip
    again = vp.read_csv(out)
    assert again[:2] == first and len(again) == len(rows) == 8
    with pytest.raises(ValueError, match="another n_models than 10"):
        vp.run(["parkinsons"], 1, 10, 1, out, None)
    assert vp.read_csv(out) == again  # refused before the file is touched
