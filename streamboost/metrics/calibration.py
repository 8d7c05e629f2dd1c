r"""Calibration errors of the positive-class probability: binned (ECE) and smooth (smECE)."""

from __future__ import annotations

import math
import typing

import numpy as np
from scipy import signal

from ..validation import check_int
from .base import BinnedProbabilityMetric, ProbabilityMetric

__all__ = ["ExpectedCalibrationError", "SmoothECE"]


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


class SmoothECE(ProbabilityMetric):
    r"""Smooth ECE of P(positive) (Blasiok & Nakkiran 2023): the ECE of kernel-smoothed residuals.

    $$\text{smECE}_\sigma = \int_0^1 \Big| \frac{1}{N} \sum_i K_\sigma(t, p_i)\,(p_i - y_i)
    \Big|\, dt$$

    with $K_\sigma$ the Gaussian kernel reflected at 0 and 1 (their Eq. 4), at the bandwidth
    $\sigma^*$ where $\text{smECE}_{\sigma} = \sigma$ (their Theorem 9; found by bisection to
    $2^{-10}$ as in their package `relplot`, whose kernel is cut at $\pm 1/2$; here it reaches
    $\pm 1$; a bandwidth under $10^{-3}$, finer than a grid can resolve, is never taken, so
    $\sigma^* \ge 2^{-9}$). Unlike binned ECE it is continuous in the
    forecasts and needs no bin count. Memory is O(`n_points`): each residual is split between
    the two nearest points of a uniform grid on [0, 1] (linear interpolation, as `relplot`
    does), so an update is O(1) and `get` convolves the grid (a few milliseconds); the grid
    limits the resolution to bandwidths above about `20 / n_points` (0.01 by default).

    Parameters
    ----------
    n_points
        Points of the grid on [0, 1] (an int >= 3).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.SmoothECE()
    >>> for y, p in [(True, 0.9), (True, 0.7), (False, 0.6), (False, 0.1), (True, 0.2)] * 20:
    ...     metric.update(y, p)
    >>> round(metric.get(), 3), round(metric.bandwidth, 3)
    (0.162, 0.162)

    References
    ----------
    - Blasiok, J. & Nakkiran, P. (2023). Smooth ECE: principled reliability diagrams via kernel
      smoothing. ICLR 2024 (arXiv:2309.12236).

    """

    _fmt = ".6f"

    def __init__(self, n_points: int = 2001, pos_label: typing.Hashable = True):
        n_points = check_int("n_points", n_points, 3)
        super().__init__(pos_label=pos_label)
        self.n_points = n_points
        self._mass = np.zeros(n_points)  # weighted residuals p - y, split onto the grid

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        position = p * (self.n_points - 1)
        left = min(int(position), self.n_points - 2)
        share = position - left
        residual = w * (p - positive)
        self._mass[left] += (1.0 - share) * residual
        self._mass[left + 1] += share * residual

    def _at(self, sigma: float) -> float:
        """smECE at bandwidth `sigma`: the grid's residuals convolved with the reflected kernel."""
        m = self.n_points
        offsets = np.linspace(-1.0, 1.0, 2 * m - 1)  # the kernel on [-1, 1], the grid's spacing
        kernel = np.exp(-(offsets**2) / (2.0 * sigma * sigma)) / (math.sqrt(2 * math.pi) * sigma)
        mass = self._mass / self._total
        # the grid on [-1, 2]: mirrored at 0 and at 1, so the kernel is reflected at both ends
        mirrored = np.concatenate((mass[:0:-1], mass, mass[-2::-1]))
        smoothed = signal.fftconvolve(mirrored, kernel, mode="valid")  # t on the grid of [0, 1]
        return float(np.abs(smoothed).sum()) / m

    @property
    def bandwidth(self) -> float:
        """The bandwidth sigma* at which smECE is read (1 if smECE_1 > 1)."""
        if self._total <= 0.0 or self._at(1.0) > 1.0:
            return 1.0
        high, low = 1.0, 0.0  # smECE_sigma < sigma at high, >= at low
        for _ in range(10):
            middle = (high + low) / 2.0
            if middle < 1e-3 or middle < self._at(middle):
                low = middle
            else:
                high = middle
        return high

    def get(self) -> float:
        if self._total <= 0.0:
            return 0.0
        return self._at(self.bandwidth)
