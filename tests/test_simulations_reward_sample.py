"""simulations/reward_sample.py: a round scored on fewer examples of the next minibatch."""

from __future__ import annotations

from streamboost import datasets
from tests.simulation_loader import load, spy_on

sample = load("reward_sample")


def test_a_run_builds_the_controller_its_label_names(monkeypatch):
    built = spy_on(monkeypatch, sample, "BanditCalibratedClassifier")
    monkeypatch.setattr(sample, "MAX_ROWS", 320)
    for label in sample.LABELS:
        brier, train, both = sample.run("lr", "phishing", label, 0, None)
        assert 0.0 < brier < 1.0 and 0.0 <= train <= 1.0 and 0.0 <= both <= 1.0
        assert train + both <= 1.0
    policies = [(p["policy"], p.get("reward_examples")) for p in built]
    assert policies == [("both", None), ("discounted-ucb", 32), ("discounted-ucb", 16),
                        ("discounted-ucb", 8), ("discounted-ucb", 4)]
    assert datasets.REGISTRY["phishing"].n_rows > 320  # the cap applied, not the stream's end
    # the library's settings (since 0.8.55): Platt by name, its step and warm-up the defaults
    assert all(p["calibrator"] == "platt" and "warmup_arm" not in p for p in built)


def test_the_report_compares_each_smaller_sample_with_all_32():
    results = {}
    for name, brier in (("a", 0.10), ("b", 0.20)):
        for i, label in enumerate(sample.LABELS):
            # every smaller sample 2 % worse than all 32 on stream a, equal on b; on a, one
            # seed of the smallest sample trains on every minibatch
            value = brier * (1.02 if name == "a" and i > 1 else 1.0)
            train = 1.0 if name == "a" and label == "4 examples" else 0.1
            results[("lr", name, label)] = [(value, train, 0.5), (value, 0.1, 0.7)]
    text = sample.report(results, ["lr"], ["a", "b"], 2)
    assert "| a | 0.1000 (0.10 / 0.60) | 0.1000 (0.10 / 0.60) | 0.1020 (0.10 / 0.60) |" in text
    assert text.count("+2.00 % |") == 3  # a's row: 3 smaller samples
    assert ("- `16 examples` against `32 examples`: mean +1.00 %, worst +2.00 % (a), within 1 % "
            "on 1 of 2; runs with 90 % or more of their minibatches on `train` alone: 0 of 4 "
            "(32 examples: 0).") in text
    assert "on `train` alone: 1 of 4 (32 examples: 0)." in text
