"""simulations/thinned_drift.py: thinned rewards, with and without the restart, under drift."""

from __future__ import annotations

from streamboost import datasets
from tests.simulation_loader import load, spy_on

thinned = load("thinned_drift")


def test_a_run_builds_the_controller_its_label_names(monkeypatch):
    built = spy_on(monkeypatch, thinned, "BanditCalibratedClassifier")
    monkeypatch.setattr(thinned, "MAX_ROWS", 400)
    for label in thinned.LABELS:
        brier, share = thinned.run("oza-lr", "phishing", "flip", label, 0, None)
        assert 0.0 < brier < 1.0 and 0.0 <= share <= 1.0
    policies = [(p["policy"], p.get("reward_every"), p.get("reward_restart")) for p in built]
    assert policies == [("both", None, None), ("discounted-ucb", 1, True),
                        ("discounted-ucb", 16, True), ("discounted-ucb", 64, True),
                        ("discounted-ucb", 16, False), ("discounted-ucb", 64, False)]
    assert datasets.REGISTRY["phishing"].n_rows > 400  # the cap applied, not the stream's end


def test_the_report_compares_each_thinned_budget_with_every_minibatch():
    labels = thinned.LABELS
    results = {}
    for name, brier in (("a", 0.10), ("b", 0.20)):
        for kind in thinned.DRIFTS:
            for i, label in enumerate(labels):
                # every thinned label 1 % worse than `every 1` on stream a, equal on b
                value = brier * (1.01 if name == "a" and i > 1 else 1.0)
                results[("ht", name, kind, label)] = [(value, 0.5), (value, 0.7)]
    text = thinned.report(results, ["ht"], ["a", "b"], 2)
    assert "| a | flip | 0.1000 (0.60) | 0.1000 (0.60) | 0.1010 (0.60) |" in text
    assert text.count("+1.00 % |") == 3 * 4  # a's rows: 3 drifts x 4 thinned labels
    assert ("- `every 64, no restart` against `every 1`: none: mean +0.50 %, worst +1.00 %; "
            "flip: mean +0.50 %, worst +1.00 %") in text
