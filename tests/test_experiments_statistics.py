"""Statistics of policy comparisons against Demšar (2006) and hand-worked values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from streamboost.experiments import statistics

# Demšar (2006), Table 6: ranks of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf (AUC) on 14 datasets.
DEMSAR_RANKS = np.array(
    [
        [4, 3, 2, 1],
        [1, 2, 3, 4],
        [4, 1, 2, 3],
        [4, 1, 3, 2],
        [4, 2, 3, 1],
        [1, 2.5, 4, 2.5],
        [3, 2, 4, 1],
        [2.5, 2.5, 4, 1],
        [4, 3, 2, 1],
        [2.5, 2.5, 2.5, 2.5],
        [4, 2, 1, 3],
        [3, 2, 4, 1],
        [4, 1, 2, 3],
        [3, 1, 4, 2],
    ]
)


def test_demsar_example_mean_ranks_statistic_and_f():
    result = statistics.friedman_test(DEMSAR_RANKS, tie_correction=False)
    # Demšar: mean ranks 3.143, 1.964/2.000, 2.893; chi2_F = 9.28; F_F = 3.69.
    assert np.round(result.mean_ranks, 3).tolist() == [3.143, 1.964, 2.893, 2.0]
    assert result.statistic == pytest.approx(9.2786, abs=1e-4)
    assert result.iman_davenport == pytest.approx(3.69, abs=5e-3)
    # F_F is compared with F(3, 39); Demšar's critical value at alpha = 0.05 is 2.85.
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=5e-3)
    assert result.iman_davenport_pvalue < 0.05


def test_demsar_example_with_tie_correction_is_scipy():
    # Ties: iris (2), lung cancer (2), mushroom (4): sum t^3 - t = 6 + 6 + 60 = 72.
    correction = 1 - 72 / (14 * 4 * (4**2 - 1))
    result = statistics.friedman_test(DEMSAR_RANKS)
    assert result.statistic == pytest.approx(9.2786 / correction, abs=1e-3)
    assert result.statistic == pytest.approx(stats.friedmanchisquare(*DEMSAR_RANKS.T).statistic)
    assert result.iman_davenport == pytest.approx(
        13 * result.statistic / (14 * 3 - result.statistic)
    )


def test_without_ties_both_forms_agree_and_match_the_formula():
    rng = np.random.default_rng(0)
    scores = rng.random((9, 5))
    a = statistics.friedman_test(scores)
    b = statistics.friedman_test(scores, tie_correction=False)
    assert a.statistic == pytest.approx(b.statistic)
    ranks = stats.rankdata(scores, axis=1)
    r = ranks.mean(axis=0)
    expected = 12 * 9 / (5 * 6) * (np.sum(r**2) - 5 * 36 / 4)
    assert a.statistic == pytest.approx(expected)
    assert a.pvalue == pytest.approx(stats.chi2.sf(expected, 4))


def test_direction_bigger_is_better_reverses_ranks():
    scores = [[0.9, 0.5, 0.7], [0.8, 0.6, 0.7]]
    assert statistics.rank_scores(scores).tolist() == [[3, 1, 2], [3, 1, 2]]
    assert statistics.rank_scores(scores, bigger_is_better=True).tolist() == [
        [1, 3, 2],
        [1, 3, 2],
    ]
    result = statistics.friedman_test(scores, bigger_is_better=True)
    assert result.mean_ranks == (1.0, 3.0, 2.0)


def test_perfect_agreement_and_complete_ties():
    agree = statistics.friedman_test([[1, 2, 3]] * 4)
    assert agree.statistic == pytest.approx(8.0)  # N (k - 1)
    assert agree.iman_davenport == math.inf and agree.iman_davenport_pvalue == 0.0
    tied = statistics.friedman_test([[1, 1, 1]] * 4)
    assert (tied.statistic, tied.pvalue) == (0.0, 1.0)
    assert tied.mean_ranks == (2.0, 2.0, 2.0)


@pytest.mark.parametrize(
    ("k", "alpha", "q"),
    # Demšar (2006), Table 5(a) (alpha = 0.05) and 5(b) (alpha = 0.10).
    [(2, 0.05, 1.960), (3, 0.05, 2.343), (5, 0.05, 2.728), (6, 0.05, 2.850),
     (10, 0.05, 3.164), (2, 0.10, 1.645), (6, 0.10, 2.589), (10, 0.10, 2.920)],
)  # fmt: skip
def test_nemenyi_q_matches_demsar_table(k, alpha, q):
    assert statistics.nemenyi_q(k, alpha) == pytest.approx(q, abs=1e-3)


def test_nemenyi_cd_demsar_example_and_scaling():
    assert statistics.nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=5e-3)
    # CD shrinks as 1 / sqrt(N).
    ratio = statistics.nemenyi_critical_difference(6, 4) / statistics.nemenyi_critical_difference(
        6, 16
    )
    assert ratio == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: statistics.nemenyi_q(1), "k must be an int >= 2, got 1"),
        (lambda: statistics.nemenyi_q(3, alpha=1.5), "alpha must be a number in"),
        (lambda: statistics.nemenyi_critical_difference(3, 0), "n must be an int >= 1, got 0"),
        (lambda: statistics.friedman_test([[1, 2], [2, 1]]), "3 methods, got 2 x 2"),
        (lambda: statistics.friedman_test([1, 2, 3]), "2-D array"),
        (lambda: statistics.friedman_test([[1, 2, np.nan]] * 3), "finite"),
        (lambda: statistics.mean_confidence_interval([]), "non-empty"),
        (lambda: statistics.mean_confidence_interval([1.0], 1.0), "confidence"),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_confidence_interval_by_hand():
    values = [0.2, 0.4, 0.3, 0.5]
    mean, low, high = statistics.mean_confidence_interval(values)
    sd = np.std(values, ddof=1)
    half = 3.182446305 * sd / 2  # t(0.975, 3) = 3.1824
    assert (mean, low, high) == pytest.approx((0.35, 0.35 - half, 0.35 + half))
    single = statistics.mean_confidence_interval([0.3])
    assert single[0] == 0.3 and math.isnan(single[1]) and math.isnan(single[2])


def _rows(table, seeds=(0, 1, 2), ratios=(1.0,)):
    """Rows for {dataset: {policy: base}}; each seed adds seed / 1000, each ratio ratio / 100."""
    return [
        {"dataset": d, "policy": p, "seed": s, "cost_ratio": r, "status": "ok",
         "brier": base + s / 1000 + r / 100}
        for d, by_policy in table.items()
        for p, base in by_policy.items()
        for s in seeds
        for r in ratios
    ]  # fmt: skip


def test_compare_ranks_blocks_by_dataset_and_averages_seeds_and_ratios():
    table = {
        "d1": {"a": 0.10, "b": 0.20, "c": 0.30},
        "d2": {"a": 0.20, "b": 0.10, "c": 0.30},
        "d3": {"a": 0.10, "b": 0.30, "c": 0.20},
    }
    rows = _rows(table, ratios=(1.0, 10.0))
    result = statistics.compare(rows, "brier")
    assert result.datasets == ("d1", "d2", "d3")  # cost ratios do not multiply the blocks
    assert result.mean_ranks == pytest.approx({"a": 4 / 3, "b": 2.0, "c": 8 / 3})
    assert result.policies == ("a", "b", "c")
    mean, low, high = result.cells["d1", "a"]
    # per seed: mean over ratios = 0.10 + s/1000 + 0.055; seeds 0, 1, 2
    assert mean == pytest.approx(0.156)
    assert (high - low) / 2 == pytest.approx(stats.t.ppf(0.975, 2) * 0.001 / math.sqrt(3))
    assert result.friedman is not None and result.friedman.n_datasets == 3
    assert result.critical_difference == pytest.approx(statistics.nemenyi_critical_difference(3, 3))
    text = result.format()
    assert text.splitlines()[2].split()[:3] == ["1", "a", "1.33"]
    assert "Iman-Davenport F = " in text


def test_compare_says_the_policies_differ_when_iman_davenport_rejects():
    # 9 datasets, a < b < c on 8 of them: rank sums 10, 17, 27 give Friedman's chi2 = 146/9,
    # Iman-Davenport's F = 8 chi2 / (18 - chi2) = 73 on (2, 16) degrees of freedom
    table = {f"d{i}": {"a": 0.1, "b": 0.2, "c": 0.3} for i in range(8)}
    table["d8"] = {"a": 0.2, "b": 0.1, "c": 0.3}
    result = statistics.compare(_rows(table), "brier")
    assert result.friedman is not None
    assert result.friedman.statistic == pytest.approx(146 / 9)
    assert result.friedman.iman_davenport == pytest.approx(73.0)
    cd = statistics.nemenyi_critical_difference(3, 9)
    p = stats.f.sf(73.0, 2, 16)
    assert result.format().splitlines()[-1] == (
        f"Iman-Davenport F = 73.000 (df 2, 16), p = {p:.4g}: the policies differ; Nemenyi CD = "
        f"{cd:.3f} (alpha = 0.05): mean ranks further apart than CD are significantly different.")


def test_compare_orders_policies_of_equal_rank_as_they_first_appear():
    table = {"d1": {"zeta": 0.1, "beta": 0.2, "alpha": 0.3},
             "d2": {"zeta": 0.2, "beta": 0.1, "alpha": 0.3}}
    result = statistics.compare(_rows(table), "brier")
    assert result.mean_ranks["zeta"] == result.mean_ranks["beta"] == 1.5
    assert result.policies == ("zeta", "beta", "alpha")


def test_compare_skips_failed_cells_and_reports_incomplete_datasets():
    table = {"d1": {"a": 0.1, "b": 0.2, "c": 0.3}, "d2": {"a": 0.3, "b": 0.2, "c": 0.1}}
    rows = _rows(table)
    for row in rows:
        if row["dataset"] == "d2" and row["policy"] == "b":
            row["status"] = "failed"
            row["brier"] = None
    result = statistics.compare(rows, "brier")
    assert result.datasets == ("d1",)
    assert result.incomplete == ("d2",)
    assert result.friedman is None  # one dataset left
    assert "Left out" in result.format() and "No test: ranking needs" in result.format()
    assert {d for d, _ in result.cells} == {d for d, _ in result.n_seeds} == {"d1"}


def test_compare_labels_its_intervals_with_their_confidence():
    rows = _rows({"d1": {"a": 0.1, "b": 0.2}, "d2": {"a": 0.3, "b": 0.2}})
    wide, narrow = (statistics.compare(rows, "brier", confidence=c) for c in (0.99, 0.8))
    assert "mean ± 99% CI" in wide.format() and "mean ± 80% CI" in narrow.format()
    assert wide.confidence == 0.99


def test_compare_bigger_is_better_and_missing_metric():
    rows = _rows({"d1": {"a": 0.1, "b": 0.2, "c": 0.3}, "d2": {"a": 0.2, "b": 0.3, "c": 0.1}})
    result = statistics.compare(rows, "brier", bigger_is_better=True)
    assert result.policies[0] == "b"
    # Friedman's test ranks as the table does: its mean ranks are the table's, in row order
    assert result.friedman is not None
    assert result.friedman.mean_ranks == tuple(result.mean_ranks[p] for p in ("a", "b", "c"))
    with pytest.raises(KeyError, match="no column 'auc'"):
        statistics.compare(rows, "auc")
