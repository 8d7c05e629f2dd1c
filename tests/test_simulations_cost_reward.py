"""simulations/cost_reward.py: a bandit rewarded by each applicant's own realised cost."""

from __future__ import annotations

import pytest

from tests.shared_data import require
from tests.simulation_loader import load

sim = load("cost_reward")


@pytest.fixture(scope="module")
def data_dir() -> str:
    return str(require("credit.csv.gz"))


def test_the_applicants_are_replayed_in_seeded_shuffles_with_their_own_c_fn(data_dir):
    rows = sim.applicants(0, data_dir, passes=2)
    assert len(rows) == 2000 and sum(y for _, y, _ in rows) == 600
    first, second = rows[:1000], rows[1000:]
    assert sorted(x["a4"] for x, _, _ in first) == sorted(x["a4"] for x, _, _ in second)
    assert [x for x, _, _ in first] != [x for x, _, _ in second]  # reshuffled
    assert sum(c for _, _, c in first) / 1000 == pytest.approx(5.0)  # the UCI 5 on average
    assert [c for _, _, c in rows] != [c for _, _, c in sim.applicants(1, data_dir, passes=2)]


def test_only_the_own_costs_reward_is_given_the_costs_and_it_moves_the_arms(data_dir):
    runs = {name: sim.run(name, 0, data_dir, 2) for name in sim.POLICIES}
    for result in runs.values():
        assert sum(result[arm] for arm in sim.ARMS) == pytest.approx(1.0)
        assert 0.0 < result["cost"] < 2.0
    assert runs["both"]["both"] > 0.6 and runs["both"]["calibrate"] == 0.0
    # the same seed, applicants and order: only the reward's costs differ
    own, one = runs["cost, own costs"], runs["cost, one threshold"]
    assert (own["train"], own["both"]) != (one["train"], one["both"])


def test_the_report_bolds_the_cheapest_and_pairs_the_rewards_by_seed():
    def result(cost, train=0.1, both=0.9):
        return {"cost": cost, "train": train, "calibrate": 0.0, "both": both}

    results = {("both",): [result(0.50), result(0.52)],
               ("log-likelihood",): [result(0.51), result(0.55)],
               ("cost, one threshold",): [result(0.54), result(0.54)],
               ("cost, own costs",): [result(0.53, 0.3, 0.7), result(0.53, 0.5, 0.5)]}
    text = sim.report(results, 2, 10)
    assert "| both | **0.5100** ± 0.0100 | 10 % | 0 % | 90 % |" in text
    assert "| cost, own costs | 0.5300 ± 0.0000 | 40 % | 0 % | 60 % |" in text
    assert "cost, own costs against cost, one threshold, paired by seed: -0.0100 ± 0.0000" in text
    assert "both against cost, own costs, paired by seed: -0.0200 ± 0.0100" in text
