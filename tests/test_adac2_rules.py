"""simulations/adac2_rules.py: the replica of MOA's OnlineAdaC2 rule and its switches."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from simulation_loader import load

from streamboost import datasets

ROOT = Path(__file__).resolve().parents[1]
sim = load("adac2_rules")

DATA = list(itertools.islice(datasets.stream("phishing", seed=0, encode="onehot"), 400))


@pytest.mark.slow
def test_each_switch_changes_the_rule_and_a_seed_fixes_it():
    costs = {name: sim.replica(DATA, 0, *switches) for name, switches in sim.RULES.items()}
    assert len(set(costs.values())) == len(costs)  # every switch matters on this stream
    assert all(0.0 <= c <= sim.C_FN for c in costs.values())
    assert sim.replica(DATA, 0, *sim.RULES["MOA's rule"]) == costs["MOA's rule"]
    assert sim.replica(DATA, 1, *sim.RULES["MOA's rule"]) != costs["MOA's rule"]


def test_a_task_runs_its_rule_on_the_seeded_stream(monkeypatch):
    monkeypatch.setattr(sim, "ROWS", len(DATA))
    assert sim.task("phishing", "MOA's rule", 0, None) == sim.replica(DATA, 0, True, True, False)


def test_the_report_has_a_row_per_dataset_and_a_column_per_rule():
    results = {(name, m): [0.1, 0.3] for name in ("phishing", "electricity")
               for m in [*sim.RULES, "ours"]}
    text = sim.report(results, 2)
    assert text.index("| electricity |") < text.index("| phishing |")
    assert "| phishing | 0.2000 | 0.2000 | 0.2000 | 0.2000 | 0.2000 |" in text
    assert 'streamboost `variant="adac2"`' in text and "mean of 2 seeds" in text
