"""simulations/rollback.py: what rolling back without a copy costs, against a copy."""

from __future__ import annotations

import pytest

from tests.simulation_loader import load

rollback = load("rollback")


def test_the_grid_pairs_every_budget_with_every_rollback_and_a_both_reference():
    cells = rollback.cells(["ht"], ["phishing"], [0, 1], [1, 64], 500, None)
    assert len(cells) == 2 * (1 + 2 * 3 + 1)
    first = cells[:8]
    assert [c.policy for c in first] == ["both"] + ["discounted-ucb"] * 7
    # the holdout's sample is given explicitly; the control, a copy scoring as few examples
    assert [(c.reward_every, c.rollback, c.reward_examples) for c in first[1:]] == [
        (1, "copy", None), (1, "defer", None), (1, "holdout", 4), (64, "copy", None),
        (64, "defer", None), (64, "holdout", 4), (64, "copy", 4)]
    assert {c.seed for c in cells[8:]} == {1} and {c.model for c in cells} == {"ht"}


def row(dataset, policy, brier, *, every=1, rollback_="copy", both=0, seconds=1.0,
        examples=None):
    return {"model": "ht", "dataset": dataset, "policy": policy, "reward_every": every,
            "rollback": rollback_, "brier": brier, "n_batches": 10, "batches_both": both,
            "seconds": seconds, "reward_examples": examples}


def test_the_summary_and_report_on_hand_made_rows():
    rows = []
    for dataset, copy, defer, holdout in (("a", 0.10, 0.1005, 0.12), ("b", 0.20, 0.23, 0.20)):
        rows += [row(dataset, "both", copy - 0.01),
                 row(dataset, "discounted-ucb", copy, both=8, seconds=3.0),
                 row(dataset, "discounted-ucb", copy + 0.02, both=6, seconds=5.0),  # seed 2
                 row(dataset, "discounted-ucb", defer, rollback_="defer", both=2),
                 row(dataset, "discounted-ucb", defer, rollback_="defer", both=2),
                 row(dataset, "discounted-ucb", holdout, rollback_="holdout", both=5, seconds=2.0)]
    summary = rollback.summarise(rows)
    assert summary[("ht", "b", "copy 1")] == pytest.approx(
        {"brier": 0.21, "both": 0.7, "seconds": 4.0})
    assert summary[("ht", "a", "defer 1")]["brier"] == pytest.approx(0.1005)
    text = rollback.report(summary, ["ht"], ["a", "b"], [1], "cmd")
    # mean copy (0.11 + 0.21) / 2, defer (0.1005 + 0.23) / 2; a is within 1 % (better), b not
    assert ("| ht | 1 | defer | 0.1653 | 0.1600 | 0.1400 | 1 of 2 | +9.5 % (b) | 0.20 (0.70) "
            "| 4.00 |" in text)
    # holdout (0.12 + 0.20) / 2: b within 1 % (better), a 0.12 / 0.11 - 1; twice as fast
    assert ("| ht | 1 | holdout | 0.1600 | 0.1600 | 0.1400 | 1 of 2 | +9.1 % (a) | 0.50 (0.70) "
            "| 2.00 |" in text)
    assert "| ht | b | 0.1900 | 0.2100 | 0.2300 | 0.2000 |" in text


def test_the_control_is_compared_with_the_full_copy_where_n_is_over_one():
    rows = []
    for dataset in ("a", "b"):
        rows += [row(dataset, "both", 0.1)]
        rows += [row(dataset, "discounted-ucb", 0.1, every=n, rollback_=r)
                 for n in (1, 16) for r in ("copy", "defer", "holdout")]
        rows.append(row(dataset, "discounted-ucb", 0.105, every=16, examples=4))
    summary = rollback.summarise(rows)
    assert summary[("ht", "a", "copy/4 16")]["brier"] == pytest.approx(0.105)
    assert summary[("ht", "a", "copy 16")]["brier"] == pytest.approx(0.1)
    text = rollback.report(summary, ["ht"], ["a", "b"], [1, 16], "cmd")
    assert "| ht | 16 | copy/4 | 0.1050 | 0.1000 | 0.1000 | 0 of 2 | +5.0 % (a) |" in text
    assert "| ht | 1 | copy/4 |" not in text
    assert "| copy 1 | defer 1 | holdout 1 | copy 16 | defer 16 | holdout 16 | copy/4 16 |" in text
