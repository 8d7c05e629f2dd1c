"""simulations/drift.py: where the drift goes and how the table picks its winners."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load():
    spec = importlib.util.spec_from_file_location("drift_sim", ROOT / "simulations" / "drift.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sim = _load()


def test_the_drift_starts_at_60_percent_of_the_stream():
    assert sim.drift("flip", 10_000).position == 6_000
    assert sim.drift("prior", 10_000).schedule == ((6_000, 0.5), (7_000, 0.1))


def test_the_table_names_the_best_schedule_and_bandit_and_counts_bandit_wins():
    def scores(best_schedule: float, best_bandit: float) -> dict:
        values = {p: [0.2, 0.2] for p in sim.POLICIES}
        values["every-4"] = [best_schedule] * 2
        values["glr-kl-ucb"] = [best_bandit] * 2
        return values

    text = sim.report({("a", "flip"): scores(0.10, 0.11), ("b", "prior"): scores(0.10, 0.09)}, 2)
    assert "| a, flip |" in text and text.count("| every-4 | glr-kl-ucb |") == 2
    assert "A bandit beats the best fixed schedule on 1 of 2" in text
    # held against `both` too: it beats the bandit on a, is beaten by it on b
    both = {("a", "flip"): [0.09, 0.09], ("b", "prior"): [0.099, 0.099]}
    text = sim.report({("a", "flip"): scores(0.10, 0.11), ("b", "prior"): scores(0.10, 0.09)}, 2,
                      both)  # fmt: skip
    assert "the best bandit wins on 1 of 2 pairs and is at worst +22.22 % off it" in text


def test_the_calibrator_table_compares_ewa_with_the_best_fixed_forgetting_rate():
    def scores(ewa: float) -> dict:
        values = {c: [0.2] for c in sim.CALIBRATORS}
        values["platt, forgetting 0.999"] = [0.1]
        values["ewa over the three"] = [ewa]
        return values

    text = sim.calibrator_report({("a", "flip"): scores(0.099), ("b", "prior"): scores(0.102)}, 1)
    assert "| platt, forgetting 0.999 | -1.00 % |" in text
    assert "| platt, forgetting 0.999 | +2.00 % |" in text
    assert "on 1 of 2 (stream, drift) pairs; at worst it is +2.00 % off it" in text
    # the calibrators themselves: Platt as resolve() builds it for 10 votes, with forgetting
    fast = sim.calibrator("platt, forgetting 0.99")
    assert (fast.forgetting, fast.gamma, fast.eps) == (0.99, 1.0, 1 / 22)
    mixed = sim.calibrator("ewa over the three")
    assert [m.forgetting for m in mixed.members] == list(sim.FORGETTING)
