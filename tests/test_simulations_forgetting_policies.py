"""simulations/forgetting_policies.py: the forgetting policies in the controller."""

from __future__ import annotations

from streamboost import bandits, datasets
from tests.simulation_loader import load, spy_on

forgetting = load("forgetting_policies")


def test_a_run_builds_the_controller_with_the_policy_it_names(monkeypatch):
    built = spy_on(monkeypatch, forgetting, "BanditCalibratedClassifier")
    monkeypatch.setattr(forgetting, "MAX_ROWS", 640)  # past the warm-up
    for policy in forgetting.POLICIES:
        brier, both, regret = forgetting.run("oza-lr", "phishing", policy, 0, None)
        assert 0.0 < brier < 1.0 and 0.0 <= both <= 1.0
        assert (regret is None) == (policy == "both")
    assert [p["policy"] for p in built] == list(forgetting.POLICIES)
    assert all(p["seed"] == 0 and "arms" not in p for p in built)  # the three default arms
    assert set(forgetting.POLICIES) - {"both"} <= set(bandits.POLICIES)
    assert datasets.REGISTRY["phishing"].n_rows > 640  # the cap applied, not the stream's end


def test_ranks_share_ties():
    assert forgetting.ranks([0.3, 0.1, 0.3, 0.2]) == [3.5, 1.0, 3.5, 2.0]


def test_the_report_ranks_the_policies_and_compares_each_with_its_ucb_counterpart():
    results = {}
    for name, base in (("a", 0.10), ("b", 0.20)):
        for i, policy in enumerate(forgetting.POLICIES):
            # each policy 1 % worse than the one before it; on b, discounted KL-UCB 0.5 %
            # better than discounted UCB instead
            value = base * (1.0 + 0.01 * i)
            if name == "b" and policy == "discounted-kl-ucb":
                value = base * 1.01 * 0.995
            regret = None if policy == "both" else 0.1 * i
            results[("oza-lr", name, policy)] = [(value, 0.9, regret), (value, 0.7, regret)]
    text = forgetting.report(results, ["oza-lr"], ["a", "b"], 2)
    assert "| a | 0.1000 (0.80) | 0.1010 (0.80) | 0.1020 (0.80) |" in text
    assert "| rank | 1.00 | 2.50 | 2.50 | 4.00 | 5.00 | 6.00 | 7.00 | 8.00 | 9.00 |" in text
    assert "| a | 0.100 | 0.200 | 0.300 | 0.400 | 0.500 | 0.600 | 0.700 | 0.800 |" in text
    assert ("- `discounted-kl-ucb` against `discounted-ucb`: lower Brier score on 1 of 2 "
            "streams, mean +0.25 %, from -0.50 % to +0.99 %.") in text
    assert ("- `sliding-window-thompson` against `sliding-window-ucb`: lower Brier score on 0 "
            "of 2 streams") in text
