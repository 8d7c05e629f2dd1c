"""simulations/forced_split_bonus.py: what a run records and how the report counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from simulation_loader import load

ROOT = Path(__file__).resolve().parents[1]


sim = load("forced_split_bonus")


def _result(brier: float, calibrate: float, **gains) -> dict:
    return {"brier": brier, "calibrate": calibrate, **gains}


def test_a_run_records_the_arms_gains_and_the_final_gaps(monkeypatch):
    monkeypatch.setattr(sim.drift, "MAX_ROWS", 800)  # 25 minibatches of the bundled phishing
    result = sim.run("phishing", "prior", "d-ucb, xi 0.6", 0, None)
    assert 0.0 < result["brier"] < 0.25 and 0.0 <= result["calibrate"] < 1.0
    assert {"gain_train", "gain_calibrate", "mean_gap", "bonus_gap"} <= set(result)
    assert sim.run("phishing", "prior", "never", 0, None)["calibrate"] == 0.0
    small = sim.run("phishing", "prior", "d-ucb, xi 1e-06", 0, None)
    assert "mean_gap" not in small  # the gaps are read from the default xi only


def test_the_report_counts_collapses_bonus_decisions_and_wins():
    def pair(gain_train, gain_calibrate, share, mean_gap, bonus_gap, small):
        results = {c: [_result(0.1, 0.1)] for c in sim.CONFIGS}
        results["every-8"] = [_result(0.09, 0.12)]  # the best schedule
        results["d-ucb, xi 0.6"] = [_result(0.095, share, gain_train=gain_train,
                                            gain_calibrate=gain_calibrate, mean_gap=mean_gap,
                                            bonus_gap=bonus_gap)]  # fmt: skip
        results["d-ucb, xi 0.0001"] = [_result(small, 0.1)]
        return results

    results = {}
    for key, values in {
        ("phishing", "none"): pair(0.01, 0.02, 0.01, 1e-4, -3e-3, 0.089),  # collapsed, bonus
        ("weather", "prior"): pair(0.03, 0.02, 0.01, -1e-4, 5e-5, 0.091),  # train gains more
    }.items():
        for config, runs in values.items():
            results[(*key, config)] = runs
    text = sim.report(results, 1)
    assert "| phishing, none | 0.1000 (10 %) | 0.1000 (10 %) | 0.0900 (12 %) |" in text
    assert "larger mean counterfactual gain on 1 of 2" in text
    assert "on 1 of those discounted UCB (xi = 0.6) still calibrated" in text
    assert "bonus gap was larger than the mean gap on 1 of 2" in text
    assert "1 of 2 with xi = 0.0001, 0 of 2 with xi = 1e-06" in text


@pytest.mark.parametrize("config", ["every-2", "d-ucb, xi 1"])
def test_an_unknown_configuration_is_refused(config):
    with pytest.raises(ValueError, match=f"config must be one of .*got '{config}'"):
        sim.run("phishing", "none", config, 0, None)


def test_the_script_writes_its_report(monkeypatch, tmp_path):
    monkeypatch.setattr(sim.drift, "MAX_ROWS", 400)  # one process: the patch reaches every run
    out = tmp_path / "report.md"
    assert sim.main(["--datasets", "phishing", "--seeds", "1", "--jobs", "1", "--out",
                     str(out)]) == 0  # fmt: skip
    text = out.read_text()
    for kind in sim.DRIFTS:
        assert f"| phishing, {kind} |" in text
    assert "--datasets phishing --seeds 1" in text
