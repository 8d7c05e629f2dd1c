"""simulations/holdout_sample.py: how many examples a held-out round scores."""

from __future__ import annotations

from tests.simulation_loader import load, spy_on

holdout = load("holdout_sample")


def test_a_run_holds_out_the_sample_its_label_names(monkeypatch):
    sample = holdout.reward_sample
    built = spy_on(monkeypatch, sample, "BanditCalibratedClassifier")
    monkeypatch.setattr(sample, "MAX_ROWS", 160)
    for label in holdout.LABELS:
        brier, train, both = sample.run("ht", "phishing", label, 0, None)
        assert 0.0 < brier < 1.0 and train + both <= 1.0
    assert [(p["policy"], p.get("rollback"), p.get("reward_examples")) for p in built] == [
        ("both", None, None), ("discounted-ucb", "holdout", 4), ("discounted-ucb", "holdout", 2),
        ("discounted-ucb", "holdout", 1)]


def test_the_report_compares_each_sample_with_the_default_four():
    results = {}
    for name, brier in (("a", 0.10), ("b", 0.20)):
        for label in holdout.LABELS:
            # on stream a, one held example scores 3 % worse than the default 4, 2 scores 1 %
            # better; the others equal
            value = brier * {"1 held out": 1.03, "2 held out": 0.99}.get(label, 1.0) \
                if name == "a" else brier
            results[("ht", name, label)] = [(value, 0.1, 0.8)]
    text = holdout.report(results, ["ht"], ["a", "b"], 1)
    assert "| stream | both | 4 held out | 2 held out | 1 held out | 2 vs 4 | 1 vs 4 |" in text
    assert "| a | 0.1000 (0.10 / 0.80) | 0.1000 (0.10 / 0.80) | 0.0990 (0.10 / 0.80) |" in text
    assert "| -1.00 % | +3.00 % |" in text
    assert ("- `1 held out` against `4 held out`: mean +1.50 %, worst +3.00 % (a), within 1 % on "
            "1 of 2;") in text
    assert "- `2 held out` against `4 held out`: mean -0.50 %, worst +0.00 % (b)" in text
