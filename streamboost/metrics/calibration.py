r"""Expected calibration error of the positive-class probability, with reliability-diagram data."""

from __future__ import annotations

import math

from .base import BinnedProbabilityMetric

__all__ = ["ExpectedCalibrationError"]


class ExpectedCalibrationError(BinnedProbabilityMetric):
    r"""Expected calibration error (ECE) of P(positive) over equal-width bins.

    $$ECE = \sum_b \frac{n_b}{N} \left| \bar y_b - \bar p_b \right|$$

    with $n_b$ the weight, $\bar p_b$ the mean forecast and $\bar y_b$ the positive frequency of
    bin $b$ (Naeini, Cooper & Hauskrecht 2015). This is the calibration of the positive-class
    probability, the quantity that the cost rule $p > c$ thresholds, not the "top-label"
    confidence of Guo et al. (2017); the two differ for binary problems because a top-label
    bin mixes forecasts $p$ and $1 - p$. `max_calibration_error()` is the MCE, the largest
    bin gap. `reliability_diagram()` gives the points of the reliability curve (the same as
    scikit-learn's `calibration_curve`).

    Parameters
    ----------
    n_bins
        Number of equal-width bins on [0, 1].
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.ExpectedCalibrationError(n_bins=2)
    >>> for y, p in [(True, 0.9), (True, 0.7), (False, 0.6), (False, 0.1), (True, 0.2)]:
    ...     metric.update(y, p)
    >>> metric  # (|2 - 2.2| + |1 - 0.3|) / 5
    ExpectedCalibrationError: 0.18
    >>> metric.reliability_diagram()["fraction_positive"]
    [0.5, 0.666...]

    References
    ----------
    - Naeini, M. P., Cooper, G. F. & Hauskrecht, M. (2015). Obtaining well calibrated
      probabilities using Bayesian binning. AAAI.
    - Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On calibration of modern neural
      networks. ICML.

    """

    def get(self) -> float:
        n = self.n
        if n <= 0.0:
            return 0.0
        return math.fsum(abs(sy - sp) for _, _, sp, sy, _, _ in self._bins()) / n

    def max_calibration_error(self) -> float:
        """The largest gap |positive frequency - mean forecast| over the non-empty bins."""
        return max((abs(sy - sp) / w for _, w, sp, sy, _, _ in self._bins()), default=0.0)
