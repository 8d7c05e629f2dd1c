"""simulations/example_costs.py: a cost per applicant on German credit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.shared_data import require
from tests.simulation_loader import load

costs = load("example_costs")


@pytest.fixture(scope="module")
def data_dir() -> str:
    return str(require("credit.csv.gz"))


def test_each_applicants_c_fn_is_the_uci_five_scaled_by_its_amount(data_dir):
    rows = costs.applicants(0, data_dir)
    assert len(rows) == 1000 and sum(y for _, y, _ in rows) == 300  # 300 bad: positive
    c_fn = np.array([c for _, _, c in rows])
    assert c_fn.mean() == pytest.approx(5.0)  # the UCI matrix on average
    amounts = np.array([x["a4"] for x, _, _ in rows])
    np.testing.assert_allclose(c_fn, 5.0 * amounts / amounts.mean())
    assert [x for x, _, _ in costs.applicants(1, data_dir)] != [x for x, _, _ in rows]  # seeded


def test_realised_charges_refused_good_ones_c_fp_and_granted_bad_ones_their_c_fn():
    p = np.array([0.9, 0.9, 0.1, 0.1])
    bad = np.array([True, False, True, False])
    c_fn = np.array([4.0, 8.0, 12.0, 16.0])
    # refused: the first two (one good: c_FP = 1); granted: the last two (one bad: 12)
    assert costs.realised(np.full(4, 0.5), p, bad, c_fn) == (1.0 + 12.0) / 4
    # everyone refused: both good ones cost c_FP
    assert costs.realised(np.full(4, -1.0), p, bad, c_fn) == 2.0 / 4


def test_a_run_charges_the_per_applicant_rule_as_the_metric_does(data_dir):
    # `run` raises if the metric's realised cost and the one by hand differ
    result = costs.run("lr+platt", 0, data_dir, max_rows=300)
    assert set(result) == {*costs.RULES, "refuse all", "grant all"}
    assert all(0.0 <= value < 10.0 for value in result.values())
    # calibrated, deciding each applicant at its own threshold is the cheapest rule here
    assert result["per applicant"] < min(result["average costs (1/6)"], result["argmax (1/2)"])


def test_the_report_bolds_each_models_cheapest_rule_and_sums_up_the_changes():
    def run(per_applicant, average, argmax):
        return {"per applicant": per_applicant, "average costs (1/6)": average,
                "argmax (1/2)": argmax, "refuse all": 0.7, "grant all": 1.8}

    results = {("lr",): [run(0.5, 0.6, 0.9), run(0.5, 0.6, 0.7)],
               ("lr+platt",): [run(0.45, 0.5, 0.4), run(0.45, 0.5, 0.4)]}
    text = costs.report(results, ["lr", "lr+platt"], 2)
    assert "| lr | **0.5000** ± 0.0000 | 0.6000 ± 0.0000 | 0.8000 ± 0.1000 |" in text
    assert "| lr+platt | 0.4500 ± 0.0000 | 0.5000 ± 0.0000 | **0.4000** ± 0.0000 |" in text
    assert "Refusing everyone: 0.7000; granting everyone: 1.8000" in text
    assert "-16.7 % to -10.0 % of realised cost" in text  # 0.5 / 0.6 and 0.45 / 0.5
    assert "lr+platt against lr raw, each applicant at its own threshold: -10.0 %" in text
