"""simulations/myopic_reward.py: what the one-step reward sees of calibrating."""

from __future__ import annotations

import math

import pytest

from tests.simulation_loader import load

myopic = load("myopic_reward")


def test_a_bandits_run_returns_each_three_arm_rounds_paired_differences(monkeypatch):
    monkeypatch.setattr(myopic, "MAX_ROWS", 640)  # 20 minibatches of 32
    bandit = myopic.run("oza-lr", "phishing", "discounted-ucb", 0, None)
    assert 0.0 < bandit["brier"] < 1.0 and 0.0 <= bandit["both"] <= 1.0
    train, calibrate = bandit["differences"]["train"], bandit["differences"]["calibrate"]
    # after the warm-up, a round scored on each later minibatch that followed a training one
    assert 5 <= len(train) == len(calibrate) < 20
    schedule = myopic.run("oza-lr", "phishing", "both", 0, None)
    # a schedule measures nothing; its 10 warm-up minibatches of the 20 train
    assert schedule["both"] == 0.5 and schedule["differences"] == {"train": [], "calibrate": []}


def test_paired_gives_the_mean_its_standard_error_and_their_ratio():
    mean, error, t = myopic.paired([1.0, 2.0, 3.0, 6.0])
    assert mean == 3.0
    assert error == pytest.approx(math.sqrt(14.0 / 3.0) / 2.0)  # s.d. sqrt(14/3), 4 rounds
    assert t == pytest.approx(mean / error)
    assert math.isnan(myopic.paired([0.5, 0.5])[2])


def test_the_report_says_where_the_rounds_cannot_tell_the_arms_apart():
    def runs(brier, differences):
        return [{"brier": brier, "both": 0.5, "differences": differences}] * 2

    noise = {"train": [0.01, -0.012, 0.011, -0.009], "calibrate": [0.1, 0.11, 0.09, 0.1]}
    clear = {"train": [0.1, 0.11, 0.09, 0.1], "calibrate": [0.1, 0.11, 0.09, 0.1]}
    wrong = {"train": [-0.1, -0.11, -0.09, -0.1], "calibrate": [0.0, 0.01, -0.01, 0.0]}
    results = {}
    for name, differences in (("a", noise), ("b", clear), ("c", wrong)):
        results[("ht", name, "both")] = runs(0.10, {"train": [], "calibrate": []})
        results[("ht", name, "never")] = runs(0.12, {"train": [], "calibrate": []})
        results[("ht", name, "discounted-ucb")] = runs(0.105, differences)
    text = myopic.report(results, ["ht"], ["a", "b", "c"], 2)
    assert "| a | 0.1000 | +20.0 % | +5.00 % | 0.50 | 8 |" in text
    assert ("- ht, a calibrator update (both - train) against never calibrating (`never` "
            "against `both`, in brackets): within two standard errors of 0 on 1 of 3 streams "
            "(a (+20.0 %)); below on 1 (c (+20.0 %)); above on 1 (b (+20.0 %)).") in text
