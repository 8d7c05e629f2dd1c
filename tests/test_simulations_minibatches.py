"""simulations/minibatches.py: the three ways to run a stream, and how the report counts."""

from __future__ import annotations

import argparse

import pandas as pd
import pytest
from simulation_loader import load

sim = load("minibatches")


@pytest.fixture(scope="module")
def phishing():
    rows = sim.rows_of("phishing", "oza-lr", 320, 0, None)  # bundled
    frames = [(pd.DataFrame([x for x, _ in rows[i : i + sim.SIZE]]).fillna(0.0),
               pd.Series([y for _, y in rows[i : i + sim.SIZE]]))
              for i in range(0, len(rows), sim.SIZE)]
    return rows, frames


@pytest.mark.parametrize("way", sim.WAYS)
def test_every_way_is_seeded_and_scores_the_whole_stream(phishing, way):
    rows, frames = phishing
    first = sim.run(rows, frames, "oza-lr", "both", 0, way)
    again = sim.run(rows, frames, "oza-lr", "both", 0, way)
    assert first[0] == again[0] and 0.0 < first[0] < 0.25 and first[1] > 0


def test_the_ways_of_running_frames_differ_only_in_the_learning_rule(phishing):
    """"never" with River's logistic regression: learning a frame's rows one by one is
    `learn_one`'s rule, learning it with `learn_many` one SGD step, so the two differ; the
    examples' way predicts before every row is learned, unlike either."""
    rows, frames = phishing
    scores = {way: sim.run(rows, frames, "lr", "never", 0, way)[0] for way in sim.WAYS}
    assert len(set(scores.values())) == 3
    assert scores["frames, learn_many"] > scores["frames, learn_one"]


def test_the_summary_counts_the_streams_where_learn_many_is_worse():
    args = argparse.Namespace(seeds=1, rows=100)
    results = {}
    for name, (one, many) in {"electricity": (0.20, 0.10), "weather": (0.10, 0.30)}.items():
        for way, brier in zip(sim.WAYS, (0.05, one, many), strict=True):
            results[name, "oza-lr", "both", 0, way] = (brier, 100.0 if way == "examples" else 50.0)
    text = sim.report(results, args)
    assert "| oza-lr | both | 0.0500 | 0.1500 | 0.2000 | 1 of 2 | 0.50x | 0.50x |" in text


def test_the_report_names_the_command(tmp_path, capsys):
    from reporting import write_report

    out = tmp_path / "r.md"
    write_report(out, "A title", "minibatches.py", ["--seeds", "1"], "| a |")
    command = "`python simulations/minibatches.py --seeds 1`"
    assert out.read_text() == f"# A title\n\n{command}\n\n| a |\n"
    assert capsys.readouterr().out == "| a |\n"
