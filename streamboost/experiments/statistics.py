r"""Comparing policies over datasets: mean ranks, Friedman test, Nemenyi critical difference.

The procedure is Demšar's (2006) for comparing k methods over N datasets: rank the methods on
each dataset (1 = best, ties share the mean rank), average the ranks, test the null hypothesis
that all methods are equivalent with Friedman's test (and its Iman-Davenport F form, which
Demšar recommends as less conservative), and, post hoc, call two methods different when their
mean ranks differ by at least the Nemenyi critical difference

$$CD = q_\alpha \sqrt{\frac{k (k + 1)}{6 N}}, \qquad
q_\alpha = \frac{q_{\text{range}}(1 - \alpha; k, \infty)}{\sqrt 2}$$

with $q_{\text{range}}$ the studentized range distribution (Demšar 2006, Section 3.2.2,
Table 5). Datasets are the blocks: they must be independent, so seeds and cost ratios of one
dataset are averaged into one value per (dataset, policy) before ranking (see
`docs/experiments.md`).

References
----------
- Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
  1-30 (Eqs. for chi2_F and F_F in Section 3.2.2; Table 5 for q_alpha).
- Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in the
  analysis of variance. JASA 32, 675-701.
- Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the Friedman
  statistic. Communications in Statistics 9, 571-595.

"""

from __future__ import annotations

import dataclasses
import math
import typing

import numpy as np
from scipy import stats

from ..validation import check_int, is_real

if typing.TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "Comparison",
    "FriedmanResult",
    "compare",
    "friedman_test",
    "mean_confidence_interval",
    "nemenyi_critical_difference",
    "nemenyi_q",
    "rank_scores",
]


def _check_alpha(alpha: float) -> float:
    if not is_real(alpha) or not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    return float(alpha)


def _check_scores(scores) -> np.ndarray:
    array = np.asarray(scores, dtype=float)
    if array.ndim != 2:
        raise ValueError(
            f"scores must be a 2-D array (datasets x methods), got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError("scores must be finite; found NaN or infinity")
    return array


def rank_scores(scores: npt.ArrayLike, *, bigger_is_better: bool = False) -> np.ndarray:
    """Rank the methods (columns) within each dataset (row): 1 is the best, ties share ranks.

    Examples
    --------
    >>> from streamboost.experiments.statistics import rank_scores
    >>> rank_scores([[0.1, 0.3, 0.2], [0.5, 0.4, 0.4]])
    array([[1. , 3. , 2. ],
           [3. , 1.5, 1.5]])
    >>> rank_scores([[0.9, 0.7, 0.8]], bigger_is_better=True)
    array([[1., 3., 2.]])

    """
    array = _check_scores(scores)
    return stats.rankdata(-array if bigger_is_better else array, axis=1)


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value q_alpha of the Nemenyi test for k methods (Demšar 2006, Table 5a).

    Examples
    --------
    >>> from streamboost.experiments.statistics import nemenyi_q
    >>> round(nemenyi_q(4), 3), round(nemenyi_q(10, alpha=0.10), 3)
    (2.569, 2.92)

    """
    k = check_int("the number of methods k", k, 2)
    alpha = _check_alpha(alpha)
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / math.sqrt(2.0))


def nemenyi_critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference of mean ranks, CD = q_alpha sqrt(k (k + 1) / (6 N)).

    Examples
    --------
    Demšar's (2006) example: four methods on fourteen datasets.

    >>> from streamboost.experiments.statistics import nemenyi_critical_difference
    >>> round(nemenyi_critical_difference(4, 14), 3)
    1.254

    """
    n = check_int("the number of datasets n", n, 1)
    return nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6.0 * n))


@dataclasses.dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test of k methods over N datasets.

    `statistic` is Friedman's chi2_F (with scipy's correction for ties), `pvalue` its
    chi-square p-value with k - 1 degrees of freedom; `iman_davenport` is
    F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F) with its F(k - 1, (k - 1)(N - 1)) p-value.

    Examples
    --------
    >>> from streamboost.experiments.statistics import friedman_test
    >>> scores = [[0.1, 0.2, 0.3], [0.1, 0.3, 0.2], [0.1, 0.2, 0.3], [0.2, 0.1, 0.3]]
    >>> result = friedman_test(scores)
    >>> result.n_datasets, result.n_methods, result.mean_ranks, round(result.statistic, 3)
    (4, 3, (1.25, 2.0, 2.75), 4.5)
    >>> round(result.iman_davenport, 3), round(result.iman_davenport_pvalue, 3)  # 3 * 4.5 / 3.5
    (3.857, 0.084)

    """

    mean_ranks: tuple[float, ...]
    n_datasets: int
    n_methods: int
    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float


def friedman_test(
    scores: npt.ArrayLike, *, bigger_is_better: bool = False, tie_correction: bool = True
) -> FriedmanResult:
    """Friedman's test on a datasets x methods score matrix (Demšar 2006, Section 3.2.2).

    With `tie_correction` (the default) chi2_F is scipy's `friedmanchisquare`, which divides
    Demšar's statistic by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over groups of t tied methods
    (exact for tied ranks; policies that act alike tie often). Without it, chi2_F is
    Demšar's formula 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4] on the mean ranks
    R_j, which reproduces the paper's worked example. Both agree when nothing ties.

    Examples
    --------
    >>> from streamboost.experiments.statistics import friedman_test
    >>> result = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    >>> result.mean_ranks
    (1.25, 2.0, 2.75)
    >>> round(result.statistic, 3), round(result.pvalue, 3)
    (4.5, 0.105)

    """
    array = _check_scores(scores)
    n, k = array.shape
    if n < 2 or k < 3:
        raise ValueError(f"Friedman's test needs at least 2 datasets and 3 methods, got {n} x {k}")
    ranks = rank_scores(array, bigger_is_better=bigger_is_better)
    mean_ranks = ranks.mean(axis=0)
    if not tie_correction:
        chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4.0)
        chi2 = float(max(chi2, 0.0))
        p = float(stats.chi2.sf(chi2, k - 1))
    elif np.all(ranks == ranks[:, :1]):
        # Every dataset ties every method: no evidence of any difference (scipy divides 0/0).
        chi2, p = 0.0, 1.0
    else:
        # Ranked on the oriented scores so that scipy sees the same ties as rank_scores.
        result = stats.friedmanchisquare(*ranks.T)
        chi2, p = float(result.statistic), float(result.pvalue)
    denominator = n * (k - 1) - chi2
    if denominator <= 0.0:  # all datasets rank the methods identically: F_F is unbounded
        f_f, f_p = math.inf, 0.0
    else:
        f_f = (n - 1) * chi2 / denominator
        f_p = float(stats.f.sf(f_f, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(tuple(float(r) for r in mean_ranks), n, k, chi2, p, f_f, f_p)


def mean_confidence_interval(
    values: typing.Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """Mean and Student-t confidence interval (mean, low, high); NaN bounds for one value.

    Examples
    --------
    >>> from streamboost.experiments.statistics import mean_confidence_interval
    >>> mean, low, high = mean_confidence_interval([1.0, 2.0, 3.0])
    >>> mean, round(low, 4), round(high, 4)  # 2 -/+ t(0.975, 2) * 1 / sqrt(3)
    (2.0, -0.4841, 4.4841)

    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"values must be a non-empty 1-D sequence, got shape {array.shape}")
    mean = float(array.mean())
    if array.size == 1:
        return mean, math.nan, math.nan
    half = float(stats.t.ppf(0.5 + confidence / 2.0, array.size - 1) * stats.sem(array))
    return mean, mean - half, mean + half


@dataclasses.dataclass(frozen=True)
class Comparison:
    """Policies compared on one metric over datasets.

    Attributes
    ----------
    metric, bigger_is_better
        The column compared; its direction.
    policies, datasets, incomplete
        The policies, best mean rank first; the datasets used as blocks (where every policy
        has a result); those left out because some policy has no successful run there.
    mean_ranks
        Policy -> mean rank over `datasets`.
    cells, n_seeds, confidence
        (dataset, policy) -> (mean, low, high) over seeds (each seed first averaged over cost
        ratios; a Student-t interval at `confidence`), and -> its number of seeds.
    friedman, critical_difference, alpha
        The Friedman test (None with fewer than 2 datasets or 3 policies); the Nemenyi CD at
        significance level `alpha` (None with fewer than 2 policies).

    Examples
    --------
    >>> from streamboost.experiments import compare
    >>> rows = [
    ...     {"dataset": d, "policy": p, "seed": s, "cost_ratio": 1.0, "status": "ok",
    ...      "brier": b + 0.02 * s}
    ...     for d, p, b in [("a", "x", 0.1), ("a", "y", 0.2), ("b", "x", 0.3), ("b", "y", 0.4),
    ...                     ("c", "x", 0.5)]
    ...     for s in (0, 1)
    ... ]
    >>> comparison = compare(rows, "brier")
    >>> comparison.policies, comparison.datasets, comparison.incomplete, comparison.mean_ranks
    (('x', 'y'), ('a', 'b'), ('c',), {'x': 1.0, 'y': 2.0})
    >>> print("\\n".join(comparison.format().splitlines()[1:4]))  # mean ± CI half-width
    rank  policy  mean rank  a                b
    1     x       1.00       0.1100 ± 0.1271  0.3100 ± 0.1271
    2     y       2.00       0.2100 ± 0.1271  0.4100 ± 0.1271

    """

    metric: str
    bigger_is_better: bool
    policies: tuple[str, ...]
    datasets: tuple[str, ...]
    mean_ranks: dict[str, float]
    cells: dict[tuple[str, str], tuple[float, float, float]]
    n_seeds: dict[tuple[str, str], int]
    friedman: FriedmanResult | None
    critical_difference: float | None
    alpha: float
    incomplete: tuple[str, ...]
    confidence: float = 0.95

    def _verdict(self) -> str:
        """One statistics story (Demsar 2006): the Iman-Davenport test, then Nemenyi's critical
        difference if it finds a difference; no test at all when none could succeed."""
        n, k, cd = len(self.datasets), len(self.policies), self.critical_difference
        if self.friedman is None or cd is None:
            return (
                f"No test: ranking needs at least 2 datasets and 3 policies (have {n} and {k}); "
                "the table is descriptive."
            )
        if cd >= k - 1:
            # Mean ranks lie in [1, k]: no difference can reach CD, so no test can succeed.
            return (
                f"No test: with {n} datasets and {k} policies, Nemenyi's critical difference "
                f"(CD = {cd:.3f} at alpha = {self.alpha}) exceeds the largest possible "
                f"difference of mean ranks ({k - 1}); the table is descriptive, add datasets "
                "to test it."
            )
        f = self.friedman
        test = (
            f"Iman-Davenport F = {f.iman_davenport:.3f} (df {k - 1}, {(k - 1) * (n - 1)}), "
            f"p = {f.iman_davenport_pvalue:.4g}"
        )
        if f.iman_davenport_pvalue >= self.alpha:
            return f"{test}: no difference between the policies at alpha = {self.alpha}."
        return (
            f"{test}: the policies differ; Nemenyi CD = {cd:.3f} (alpha = {self.alpha}): mean "
            "ranks further apart than CD are significantly different."
        )

    def format(self) -> str:
        """The ranked table and the test results as plain text."""
        direction = "higher" if self.bigger_is_better else "lower"
        header = ["rank", "policy", "mean rank", *self.datasets]
        rows = []
        for i, policy in enumerate(self.policies, start=1):
            row = [str(i), policy, f"{self.mean_ranks[policy]:.2f}"]
            for dataset in self.datasets:
                mean, low, high = self.cells[dataset, policy]
                half = (high - low) / 2.0
                row.append(f"{mean:.4f}" if math.isnan(half) else f"{mean:.4f} ± {half:.4f}")
            rows.append(row)
        widths = [max(len(r[j]) for r in [header, *rows]) for j in range(len(header))]
        lines = [
            f"Policies ranked by {self.metric} ({direction} is better) over "
            f"{len(self.datasets)} dataset(s); per dataset: mean ± {self.confidence:.0%} CI "
            "over seeds",
            "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip(),
        ]
        lines += [
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        lines.append(self._verdict())
        if self.incomplete:
            lines.append("Left out (a policy has no successful run): " + ", ".join(self.incomplete))
        return "\n".join(lines)


def compare(
    rows: typing.Iterable[typing.Mapping[str, typing.Any]],
    metric: str,
    *,
    bigger_is_better: bool = False,
    alpha: float = 0.05,
    confidence: float = 0.95,
) -> Comparison:
    """Compare policies on `metric` from per-run result rows (one dict per grid cell).

    Rows need the keys `dataset`, `policy`, `seed`, `cost_ratio`, `status` and `metric`; rows
    whose status is not `"ok"` are ignored. Per (dataset, policy) the metric is averaged over
    cost ratios within each seed, then summarised over seeds (mean and t interval); the
    per-seed means' average is ranked per dataset.

    Examples
    --------
    >>> from streamboost.experiments.statistics import compare
    >>> rows = [
    ...     {"dataset": d, "policy": p, "seed": s, "cost_ratio": 1.0, "status": "ok",
    ...      "brier": b + 0.01 * s}
    ...     for d, scores in {"a": (0.1, 0.2, 0.3), "b": (0.2, 0.1, 0.3)}.items()
    ...     for p, b in zip(("x", "y", "z"), scores)
    ...     for s in (0, 1)
    ... ]
    >>> result = compare(rows, "brier")
    >>> result.policies, result.mean_ranks["z"]
    (('x', 'y', 'z'), 3.0)

    """
    alpha = _check_alpha(alpha)
    per_seed: dict[tuple[str, str], dict[typing.Hashable, list[float]]] = {}
    datasets: list[str] = []
    policies: list[str] = []
    for row in rows:
        if row.get("status") != "ok":
            continue
        value = row.get(metric)
        if value is None:
            raise KeyError(f"result rows have no column {metric!r}")
        dataset, policy = row["dataset"], row["policy"]
        if dataset not in datasets:
            datasets.append(dataset)
        if policy not in policies:
            policies.append(policy)
        per_seed.setdefault((dataset, policy), {}).setdefault(row["seed"], []).append(float(value))
    complete = [d for d in datasets if all((d, p) in per_seed for p in policies)]
    incomplete = tuple(d for d in datasets if d not in complete)
    cells, n_seeds = {}, {}
    for key, seeds in per_seed.items():
        seed_means = [float(np.mean(v)) for v in seeds.values()]
        cells[key] = mean_confidence_interval(seed_means, confidence)
        n_seeds[key] = len(seed_means)
    if not complete:
        raise ValueError(f"no dataset has a successful run of every policy {policies}")
    scores = np.array([[cells[d, p][0] for p in policies] for d in complete])
    ranks = rank_scores(scores, bigger_is_better=bigger_is_better).mean(axis=0)
    mean_ranks = dict(zip(policies, (float(r) for r in ranks), strict=True))
    order = tuple(sorted(policies, key=lambda p: (mean_ranks[p], policies.index(p))))
    k, n = len(policies), len(complete)
    friedman = (
        friedman_test(scores, bigger_is_better=bigger_is_better) if n >= 2 and k >= 3 else None
    )
    cd = nemenyi_critical_difference(k, n, alpha) if k >= 2 else None
    return Comparison(
        metric=metric,
        bigger_is_better=bigger_is_better,
        policies=order,
        datasets=tuple(complete),
        mean_ranks=mean_ranks,
        cells={key: cells[key] for key in cells if key[0] in complete},
        n_seeds={key: n_seeds[key] for key in n_seeds if key[0] in complete},
        friedman=friedman,
        critical_difference=cd,
        alpha=alpha,
        incomplete=incomplete,
        confidence=confidence,
    )
