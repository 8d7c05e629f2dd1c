"""simulations/any_real_rewards.py: the policies that take any real reward in the controller."""

from __future__ import annotations

from streamboost import bandits
from tests.simulation_loader import load, spy_on

any_real = load("any_real_rewards")


def test_a_run_builds_the_controller_with_the_policy_it_names_and_reads_its_rewards(monkeypatch):
    built = spy_on(monkeypatch, any_real, "BanditCalibratedClassifier")
    monkeypatch.setattr(any_real, "MAX_ROWS", 640)  # past the warm-up
    for policy in any_real.POLICIES:
        brier, calibrate, lowest = any_real.run("oza-lr", "phishing", policy, 0, None)
        assert 0.0 < brier < 1.0 and 0.0 <= calibrate <= 1.0
        assert (lowest is None) == (policy == "both")
        if policy == "discounted-ucb":  # an affine map into [0, 1]
            assert 0.0 <= lowest <= 1.0
    assert [p["policy"] for p in built] == list(any_real.POLICIES)
    assert all(p["seed"] == 0 and p["trace_size"] == 640 and "arms" not in p for p in built)
    # the script's premise: exactly these take any real, the comparison does not
    assert [p for p in any_real.POLICIES[1:]
            if bandits.make(p, n_arms=3).reward_range is None] == list(any_real.ANY_REAL)


def test_the_report_shows_briers_calibrate_shares_lowest_rewards_and_locked_runs():
    results = {}
    for name, base in (("a", 0.10), ("b", 0.20)):
        for i, policy in enumerate(any_real.POLICIES):
            low = None if policy == "both" else -float(i)
            # gaussian-thompson locked on calibrate on b's second seed only
            locked = name == "b" and policy == "gaussian-thompson"
            results[("oza-lr", name, policy)] = [(base * (1 + 0.01 * i), 0.2, low),
                                                 (base * (1 + 0.03 * i), 0.95 if locked else 0.4,
                                                  low)]
    text = any_real.report(results, ["oza-lr"], ["a", "b"], 2)
    assert "| a | 0.1000 (0.30) | 0.1020 (0.30) | 0.1040 (0.30) |" in text
    assert "| b | 0.2000 (0.30) | 0.2040 (0.30) | 0.2080 (0.57) |" in text
    assert "| mean | 0.1500 | 0.1530 | 0.1560 | 0.1590 | 0.1620 |" in text
    assert "| a | -2.0 | -3.0 | -4.0 |" in text
    assert ("- `gaussian-thompson`: 1 of 4 runs spent 90% of their minibatches or more on "
            "`calibrate`: b (seed 1).") in text
    assert "- `discounted-ucb`: 0 of 4 runs spent 90% of their minibatches or more" in text
