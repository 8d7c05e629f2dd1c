r"""Isotonic regression, online, over a fixed grid of score bins."""

from __future__ import annotations

import bisect

import numpy as np

from .. import kernels
from .base import Blocks
from .histogram import HistogramCalibrator

__all__ = ["OnlineIsotonicCalibrator"]


class OnlineIsotonicCalibrator(HistogramCalibrator):
    r"""Isotonic regression of the label on the score, learned online in bounded memory.

    Batch isotonic calibration (Zadrozny & Elkan 2002) fits the non-decreasing map that
    minimises the squared error, by Pool Adjacent Violators over the sorted scores, and
    interpolates linearly between the fitted points (as scikit-learn's `IsotonicRegression`);
    its memory grows with the stream. Here the scores are summarised in `n_bins` equal-width
    bins, each keeping discounted counts $n_j$, $n^+_j$ and the sum of its scores (plus `prior`
    pseudo-examples at its centre $c_j$ labelled $c_j$, so an untrained calibrator is the
    identity between the first and last centre). PAV runs over the bins' positive rates with
    weights $n_j + \text{prior}$, and a score's probability is interpolated linearly between
    the points (mean score of bin $j$, pooled rate of bin $j$); beyond the outer points it is
    constant. When every score of a bin is the same value and `prior=0`, this *is* batch
    isotonic regression (tested against scikit-learn); otherwise it is its binned
    approximation, exact up to the bin width. Memory is O(`n_bins`); an update is O(1), the
    pooling O(`n_bins`) at the next prediction. `forgetting` discounts old examples as in
    `HistogramCalibrator`, so the map tracks drift.

    Parameters
    ----------
    n_bins
        Number of equal-width score bins (the map's resolution).
    forgetting
        Discount factor $\lambda \in (0, 1]$ of the counts; 1 means none.
    prior
        Pseudo-examples per bin at its centre (>= 0; 0 for plain isotonic regression).

    Examples
    --------
    >>> from streamboost.calibration import OnlineIsotonicCalibrator
    >>> cal = OnlineIsotonicCalibrator(n_bins=4, prior=0.0)
    >>> cal.learn_many([0.1, 0.3, 0.6, 0.6, 0.9], [False, True, False, False, True])
    >>> [round(cal.predict_one(s), 3) for s in (0.1, 0.3, 0.45, 0.6, 0.9)]
    [0.0, 0.333, 0.333, 0.333, 1.0]

    References
    ----------
    - Zadrozny, B. & Elkan, C. (2002). Transforming classifier scores into accurate multiclass
      probability estimates. KDD.
    - Ayer, M. et al. (1955). An empirical distribution function for sampling with incomplete
      information. Ann. Math. Statist. 26 (Pool Adjacent Violators).

    """

    def __init__(self, n_bins: int = 50, forgetting: float = 1.0, prior: float = 1.0):
        super().__init__(n_bins=n_bins, forgetting=forgetting, prior=prior)

    def _predict(self, score: float) -> float:
        blocks = self._map()
        if blocks is None:
            return score
        return _PREDICT(blocks.starts, blocks.sums, blocks.weights, self._means, score)

    def _map_many(self, blocks: Blocks, scores: np.ndarray, out: np.ndarray) -> None:
        _PREDICT_MANY(blocks.starts, blocks.sums, blocks.weights, self._means, scores, out)


def isotonic_predict(starts: list[int], sums: list[float], weights: list[float],
                     means: list[float], score: float) -> float:
    """The pooled rates of the blocks (`Blocks`' lists) interpolated linearly at `score`
    between the bins' mean scores `means` (constant beyond the outer ones); the twin of the
    compiled `isotonic_predict`."""
    blocks = Blocks(starts, sums, weights)
    i = bisect.bisect_right(means, score)
    if i == 0:
        return blocks.value(0)
    if i == len(means):
        return blocks.value(len(means) - 1)
    # bisect_right: x0 <= score < x1, so x1 > x0
    x0, x1 = means[i - 1], means[i]
    y0, y1 = blocks.value(i - 1), blocks.value(i)
    return y0 + (y1 - y0) * (score - x0) / (x1 - x0)


def isotonic_predict_many(starts: list[int], sums: list[float], weights: list[float],
                          means: list[float], scores: np.ndarray, out: np.ndarray) -> None:
    """`isotonic_predict` of each score of a float array, into `out`; the twin of the compiled
    `isotonic_predict_many`."""
    out[:] = [isotonic_predict(starts, sums, weights, means, s) for s in scores.tolist()]


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_PREDICT = getattr(kernels.compiled, "isotonic_predict", isotonic_predict)
_PREDICT_MANY = getattr(kernels.compiled, "isotonic_predict_many", isotonic_predict_many)
