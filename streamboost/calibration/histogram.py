r"""Histogram binning, online: the positive rate of each score bin, kept monotone."""

from __future__ import annotations

import numbers

from .base import Calibrator, check_forgetting, check_positive, pool_adjacent_violators

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
    its bin's pooled estimate: a step function.

    **Forgetting.** With $\lambda$ < 1 every count is discounted by $\lambda$ per example, an
    effective memory of $1/(1-\lambda)$ examples; the prior is not discounted. An update costs
    O(1) (one bin changes); the pooling, O(`n_bins`), runs at the next prediction.

    Parameters
    ----------
    n_bins
        Number of equal-width score bins.
    forgetting
        Discount factor $\lambda \in (0, 1]$ of the counts; 1 means none.
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

    def __init__(self, n_bins: int = 10, forgetting: float = 1.0, prior: float = 1.0):
        if isinstance(n_bins, bool) or not isinstance(n_bins, numbers.Integral) or n_bins < 1:
            raise ValueError(f"n_bins must be an integer >= 1, got {n_bins!r}")
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
        self._fit: list[float] | None = None  # pooled estimates; None: stale
        self._n_seen = 0

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"n_bins": 3, "forgetting": 0.9, "prior": 0.0}

    def _bin(self, score: float) -> int:
        return min(int(score * self.n_bins), self.n_bins - 1)

    def _learn(self, score: float, positive: bool) -> None:
        j, w = self._bin(score), self._weight
        self._n[j] += w
        if positive:
            self._pos[j] += w
        self._score_sum[j] += w * score
        if self.forgetting < 1.0:
            self._weight = w / self.forgetting
            if self._weight > _RESCALE_AT:
                self._rescale()
        self._fit = None

    def _rescale(self) -> None:
        factor = 1.0 / (self.forgetting * self._weight)  # to effective weights, newest = 1
        for counts in (self._n, self._pos, self._score_sum):
            counts[:] = [c * factor for c in counts]
        self._weight = 1.0 / self.forgetting

    def _bins(self) -> tuple[list[float], list[float], list[float], list[int]]:
        """Each bin's positive rate, weight and mean score (prior included), for the bins with
        any weight, and their indices."""
        factor = 1.0 / (self.forgetting * self._weight)  # newest example: weight 1
        prior = self.prior
        rates, weights, means, used = [], [], [], []
        for j, centre in enumerate(self._centres):
            n = self._n[j] * factor + prior
            if n <= 0.0:
                continue
            rates.append((self._pos[j] * factor + prior * centre) / n)
            weights.append(n)
            means.append((self._score_sum[j] * factor + prior * centre) / n)
            used.append(j)
        return rates, weights, means, used

    def _fitted(self):
        if self._fit is None:
            self._fit = self._refit()
        return self._fit

    def _refit(self) -> list[float]:
        """The pooled estimate of every bin (an empty bin takes its lower neighbour's)."""
        rates, weights, _, used = self._bins()
        fitted = pool_adjacent_violators(rates, weights)
        fit = [0.0] * self.n_bins
        value = fitted[0] if fitted else 0.0
        k = 0
        for j in range(self.n_bins):
            if k < len(used) and used[k] == j:
                value = fitted[k]
                k += 1
            fit[j] = value
        return fit

    def _predict(self, score: float) -> float:
        if self._n_seen == 0 and self.prior == 0.0:
            return score  # nothing learned and no prior: pass the score through
        return self._fitted()[self._bin(score)]
