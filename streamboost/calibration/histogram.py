r"""Histogram binning, online: the positive rate of each score bin, kept monotone."""

from __future__ import annotations

import bisect

import numpy as np

from .. import kernels
from ..validation import check_int
from .base import _UPDATE as _update
from .base import Blocks, Calibrator, check_forgetting, check_positive

__all__ = ["HistogramCalibrator"]

# Stored counts are in units that grow by 1/forgetting per example (so an update touches one
# bin, not all); they are brought back to scale before they could overflow.
_RESCALE_AT = 1e100


class HistogramCalibrator(Calibrator):
    r"""Histogram binning (Zadrozny & Elkan 2001) learned online, monotone in the score.

    The score range [0, 1] is cut into `n_bins` equal-width bins. Bin $j$ keeps discounted
    counts of the examples that fell in it, $n_j$ and $n^+_j$, plus a prior of `prior`
    pseudo-examples at its centre $c_j$ whose positive rate is $c_j$ (so an untrained
    calibrator answers the bin centre). Its estimate is

    $$\hat p_j = \frac{n^+_j + \text{prior}\cdot c_j}{n_j + \text{prior}},$$

    and where these estimates are out of order (a higher bin with a lower rate, which batch
    histogram binning allows) they are pooled by Pool Adjacent Violators with weights
    $n_j + \text{prior}$, so the map is non-decreasing in the score. A score's probability is
    its bin's pooled estimate: a step function. With $\lambda$ < 1 every count (not the prior)
    is discounted by $\lambda$ per example. An update costs O(1); the pooling runs at the next
    prediction, around the changed bin's block with a prior and no forgetting, else over all
    bins (O(`n_bins`)).

    Parameters
    ----------
    n_bins, forgetting
        Number of equal-width score bins; discount $\lambda \in (0, 1]$ of the counts (1: none).
    prior
        Pseudo-examples per bin at its centre (>= 0; 0 gives batch histogram binning, an empty
        bin then taking its lower neighbour's value).

    Examples
    --------
    >>> from streamboost.calibration import HistogramCalibrator
    >>> cal = HistogramCalibrator(n_bins=5)
    >>> cal.predict_one(0.95)  # the bin centre before learning
    0.9
    >>> cal.learn_many([0.95] * 9, [True] * 3 + [False] * 6)
    >>> round(cal.predict_one(0.95), 3)  # (3 + 0.9) / (9 + 1) = 0.39, below its neighbours
    0.425
    >>> cal.predict_one(0.5) == cal.predict_one(0.7) == cal.predict_one(0.95)  # pooled
    True

    References
    ----------
    - Zadrozny, B. & Elkan, C. (2001). Obtaining calibrated probability estimates from decision
      trees and naive Bayesian classifiers. ICML.
    - Ayer, M. et al. (1955). An empirical distribution function for sampling with incomplete
      information. Ann. Math. Statist. 26 (Pool Adjacent Violators).

    """

    _ATTRIBUTES = (
        "n_bins", "forgetting", "prior", "_centres", "_n", "_pos", "_score_sum",
        "_weight", "_blocks", "_rates", "_weights", "_means", "_used", "_changed",
        "_n_seen"
    )

    def __init__(self, n_bins: int = 10, forgetting: float = 1.0, prior: float = 1.0):
        n_bins = check_int("n_bins", n_bins, 1)
        if n_bins > 100_000:
            raise ValueError(f"n_bins must be at most 100000 (bounded memory), got {n_bins!r}")
        check_forgetting(forgetting)
        check_positive("prior", prior, zero=True)
        self.n_bins = n_bins
        self.forgetting = forgetting
        self.prior = prior
        self._centres = [(j + 0.5) / n_bins for j in range(n_bins)]
        self._n = [0.0] * n_bins  # stored (scaled) counts
        self._pos = [0.0] * n_bins
        self._score_sum = [0.0] * n_bins
        self._weight = 1.0  # stored weight of the next example
        # The pooling (PAV blocks) over the bins with weight, each bin's rate, weight and mean
        # score, and the one bin changed since (None: none); _blocks None: pool from scratch.
        self._blocks: Blocks | None = None
        self._rates: list[float] = []
        self._weights: list[float] = []
        self._means: list[float] = []
        self._used: list[int] | None = None
        self._changed: int | None = None
        self._n_seen = 0

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"n_bins": 3, "forgetting": 0.9, "prior": 0.0}

    def copy(self) -> HistogramCalibrator:
        # what learning changes in place (the bin centres and `_used` never are)
        return self._copy_changing(
            ("_n", "_pos", "_score_sum", "_rates", "_weights", "_means", "_blocks"))

    def _update(self, score: float, positive: bool) -> None:
        # the base's `_learn` and count in one call: every example of a wrapper comes here
        j, w = _bin(score, self.n_bins), self._weight
        self._n[j] += w
        if positive:
            self._pos[j] += w
        self._score_sum[j] += w * score
        self._n_seen += 1
        if self.forgetting < 1.0:
            self._weight = w / self.forgetting
            if self._weight > _RESCALE_AT:
                self._rescale()
            self._blocks = None  # every count changed: pooled from scratch at the next prediction
        elif self._blocks is not None and self.prior > 0.0 and self._changed in (None, j):
            # every bin has weight (a prior) and one bin changed: the pooling is updated around
            # that bin at the next prediction, not redone
            n, centre, prior = self._n[j] + self.prior, self._centres[j], self.prior
            self._rates[j] = (self._pos[j] + prior * centre) / n
            self._weights[j] = n
            self._means[j] = (self._score_sum[j] + prior * centre) / n
            self._changed = j
        else:
            self._blocks = None

    def _rescale(self) -> None:
        factor = 1.0 / (self.forgetting * self._weight)  # to effective weights, newest = 1
        for counts in (self._n, self._pos, self._score_sum):
            counts[:] = [c * factor for c in counts]
        self._weight = 1.0 / self.forgetting

    def _fitted(self) -> Blocks:
        """The pooled blocks over the bins with any weight (`self._used`; None: all bins)."""
        if self._blocks is None:
            factor = 1.0 / (self.forgetting * self._weight)  # newest example: weight 1
            rates, weights, means, used, *blocks = _POOL(
                self._n, self._pos, self._score_sum, self._centres, factor, self.prior)
            self._rates, self._weights, self._means = rates, weights, means
            self._used = None if len(used) == self.n_bins else used
            self._blocks = Blocks(*blocks)
        elif self._changed is not None:  # `Blocks.update`, without the method call
            blocks = self._blocks
            _update(blocks.starts, blocks.sums, blocks.weights, self._changed, self._rates,
                    self._weights)
        self._changed = None
        return self._blocks

    def _map(self) -> Blocks | None:
        """The pooled blocks the map reads, or None while it passes scores through (nothing
        learned and no prior, or no bin with weight yet)."""
        if self._n_seen == 0 and self.prior == 0.0:
            return None
        blocks = self._fitted()
        return blocks if self._rates else None

    def _predict(self, score: float) -> float:
        blocks = self._map()
        if blocks is None:
            return score
        return _PREDICT(blocks.starts, blocks.sums, blocks.weights, self._used, self.n_bins,
                        score)

    def _predict_many(self, scores: np.ndarray) -> np.ndarray:
        # `_predict` of each score, in one compiled loop (isotonic: its own, `_map_many`)
        blocks = self._map()
        if blocks is None:
            return np.array(scores, dtype=float)
        out = np.empty(len(scores))
        self._map_many(blocks, np.ascontiguousarray(scores, dtype=float), out)
        return out

    def _map_many(self, blocks: Blocks, scores: np.ndarray, out: np.ndarray) -> None:
        _PREDICT_MANY(blocks.starts, blocks.sums, blocks.weights, self._used, self.n_bins,
                      scores, out)


def _bin(score: float, n_bins: int) -> int:
    """The bin of a score in [0, 1] among `n_bins` equal-width ones."""
    j = int(score * n_bins)
    return j if j < n_bins else n_bins - 1  # a score of 1 is in the last bin


def histogram_pool(counts: list[float], positives: list[float], score_sums: list[float],
                   centres: list[float], factor: float, prior: float) -> tuple[list, ...]:
    """Every bin with weight's rate, weight and mean score (the stored counts times `factor`,
    plus `prior` pseudo-examples at the bin's centre), the bins' indices, and the Pool
    Adjacent Violators blocks over those rates (`Blocks`' starts, sums and weights), from
    scratch; the twin of the compiled `histogram_pool`."""
    rates, weights, means, used = [], [], [], []
    for j, centre in enumerate(centres):
        n = counts[j] * factor + prior
        if n <= 0.0:
            continue
        rates.append((positives[j] * factor + prior * centre) / n)
        weights.append(n)
        means.append((score_sums[j] * factor + prior * centre) / n)
        used.append(j)
    blocks = Blocks([], [], [])
    blocks.extend(rates, weights, 0)
    return rates, weights, means, used, blocks.starts, blocks.sums, blocks.weights


def histogram_predict(starts: list[int], sums: list[float], weights: list[float],
                      used: list[int] | None, n_bins: int, score: float) -> float:
    """The pooled rate (`Blocks`' lists) of the bin of `score` among `n_bins`, an empty bin
    taking its lower neighbour's (`used`: the bins with weight, in order; None: every bin);
    the twin of the compiled `histogram_predict`."""
    j = _bin(score, n_bins)
    if used is not None:
        j = max(bisect.bisect_right(used, j) - 1, 0)
    return Blocks(starts, sums, weights).value(j)


def histogram_predict_many(starts: list[int], sums: list[float], weights: list[float],
                           used: list[int] | None, n_bins: int, scores: np.ndarray,
                           out: np.ndarray) -> None:
    """`histogram_predict` of each score of a float array, into `out`; the twin of the compiled
    `histogram_predict_many`."""
    out[:] = [histogram_predict(starts, sums, weights, used, n_bins, s) for s in scores.tolist()]


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_POOL = getattr(kernels.compiled, "histogram_pool", histogram_pool)
_PREDICT = getattr(kernels.compiled, "histogram_predict", histogram_predict)
_PREDICT_MANY = getattr(kernels.compiled, "histogram_predict_many", histogram_predict_many)
