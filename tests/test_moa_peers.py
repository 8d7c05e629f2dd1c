"""Tests for simulations/moa_peers.py: the cost accounting, our side on a short stream, and
MOA's OnlineAdaC2 where CapyMOA and a Java runtime are installed (optional, not in CI)."""

from __future__ import annotations

import pytest
from shared_data import SHARED as DATA
from shared_data import require
from simulation_loader import load

peers = load("moa_peers")


def test_a_missed_positive_costs_five_a_false_alarm_one():
    assert [peers.cost(y, d) for y, d in ((1, 0), (0, 1), (1, 1), (0, 0))] == [5.0, 1.0, 0, 0]


@pytest.fixture
def short(monkeypatch):
    require("phishing.csv.gz")
    monkeypatch.setattr(peers, "ROWS", 400)


def _never_positive() -> float:
    """The cost per example of never deciding positive: better than that is learning."""
    rows = peers.rows("phishing", 0, DATA)
    return peers.C_FN * sum(y for _, y in rows) / len(rows)


@pytest.mark.parametrize("method", peers.OURS)
def test_our_boosters_run_and_repeat_with_the_seed(short, method):
    realised, _ = peers.run_ours("phishing", method, 0, DATA)
    assert 0.0 < realised < _never_positive()
    assert peers.run_ours("phishing", method, 0, DATA)[0] == realised


def test_moa_online_adac2_runs_and_repeats_with_the_seed(short):
    pytest.importorskip("capymoa")
    realised, _ = peers.run_moa("phishing", "moa OnlineAdaC2", 0, DATA)
    assert 0.0 < realised < _never_positive()
    assert peers.run_moa("phishing", "moa OnlineAdaC2", 0, DATA)[0] == realised
