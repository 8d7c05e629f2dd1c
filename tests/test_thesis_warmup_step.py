"""Tests for simulations/thesis_warmup_step.py: its cells are thesis_protocol's runs with each
warm-up and step, and its table counts the datasets the defaults win."""

from __future__ import annotations

import sys

from simulation_loader import load

from tests.shared_data import require

ws = load("thesis_warmup_step")


def _rows(method: str, passes: int, areas: dict) -> list[dict]:
    return [{"method": method, "passes": passes, "dataset": d, "brier_curve": a}
            for d, values in areas.items() for a in values]


def test_the_table_is_each_cell_s_mean_and_where_the_defaults_score_lower():
    def cell(shift: float) -> list[dict]:
        rows = []
        for policy in ws.POLICIES:
            rows += _rows(policy, 1, {"a": [0.1 + shift, 0.3 + shift], "b": [0.4 - shift]})
        return rows

    results = {label: cell(0.01 * k) for k, (label, *_) in enumerate(ws.CELLS)}
    text = ws.report(results, 1)
    lines = [line for line in text.splitlines() if line.startswith("| warm-up")]
    assert len(lines) == len(ws.CELLS)
    # the defaults' cell (shift 0.03): "a" mean 0.23, "b" 0.37, so 0.30; the first cell's "a"
    # (0.2) is lower than theirs and its "b" (0.4) higher: the defaults win 1 of 2
    assert lines[0].endswith("| 0.3000 (1 of 2) | 0.3000 (1 of 2) | 0.3000 (1 of 2) |")
    assert lines[-1].endswith("| 0.3000 (0 of 2) | 0.3000 (0 of 2) | 0.3000 (0 of 2) |")
    assert "After 1 epoch:" in text and "After 3" not in text


def test_each_cell_runs_the_protocol_with_its_warm_up_and_step(tmp_path, monkeypatch):
    data_dir = require("parkinsons.csv.gz")
    tp = sys.modules["thesis_protocol"]
    calls = []
    real = tp.run

    def run(names, reps, **options):
        calls.append((options["warmup_arm"], options["gamma"]))
        return real(names, reps, **{**options, "n_models": 2})  # 2 members: a quick test

    monkeypatch.setattr(tp, "run", run)
    out = tmp_path / "report.md"
    assert ws.main(["--reps", "1", "--passes-reps", "1", "--datasets", "parkinsons",
                    "--jobs", "1", "--data-dir", str(data_dir), "--out", str(out)]) == 0
    assert calls == [("train", 1.0), (None, 1.0), ("train", None), (None, None)]
    text = out.read_text()
    assert text.startswith("# The thesis protocol's calibration: warm-up and step\n")
    assert text.count("| warm-up") == 2 * len(ws.CELLS)  # after 1 epoch and after 3
    defaults = real(["parkinsons"], 1, methods=["both"], passes=1, n_models=2,
                    members="univariate", data_dir=data_dir)
    both = ws.means(defaults, 1)["both"]["parkinsons"]
    assert f"(the defaults since 0.8.53) | {both:.4f} (0 of 1) |" in text
