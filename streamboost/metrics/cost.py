r"""Realised cost of minimum-expected-cost decisions taken from probabilities."""

from __future__ import annotations

import typing

from ..decision import cost_threshold
from .base import ProbabilityMetric

__all__ = ["DecisionMetric", "ExpectedCost"]


class DecisionMetric(ProbabilityMetric):
    """A metric of the minimum-expected-cost decisions $\\hat p > c_{FP} / (c_{FP} + c_{FN})$.

    Each probability is turned into the decision a cost-sensitive `predict_one` takes (thesis
    Eq. 2.8, strict inequality) and counted in a weighted confusion matrix; subclasses say what
    to make of it (`ExpectedCost`, `GMean`, `CohenKappa`). Thresholding here, rather than
    receiving labels, is what keeps these metrics right inside a River `metrics.Metrics`
    combination, where label metrics get the argmax (threshold 1/2).

    Parameters
    ----------
    c_fp
        Cost of a false positive (finite, > 0).
    c_fn
        Cost of a false negative (finite, > 0).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.GMean(c_fp=1.0, c_fn=4.0)  # a DecisionMetric, threshold 0.2
    >>> metric.update(True, 0.3)
    >>> metric.confusion()
    {'tp': 1.0, 'fp': 0.0, 'tn': 0.0, 'fn': 0.0}

    """

    def __init__(self, c_fp: float = 1.0, c_fn: float = 1.0, pos_label: typing.Hashable = True):
        self._threshold = cost_threshold(c_fp, c_fn)
        super().__init__(pos_label=pos_label)
        self.c_fp = c_fp
        self.c_fn = c_fn
        self._tp = self._fp = self._tn = self._fn = 0.0

    @property
    def threshold(self) -> float:
        """The decision threshold c_FP / (c_FP + c_FN)."""
        return self._threshold

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        if p > self._threshold:
            if positive:
                self._tp += w
            else:
                self._fp += w
        elif positive:
            self._fn += w
        else:
            self._tn += w

    def confusion(self) -> dict[str, float]:
        """Weighted counts of true/false positives/negatives of the thresholded decisions."""
        return {"tp": self._tp, "fp": self._fp, "tn": self._tn, "fn": self._fn}


class ExpectedCost(DecisionMetric):
    r"""Mean cost per example of the decisions $\hat p > c_{FP} / (c_{FP} + c_{FN})$.

    Each probability is turned into the minimum-expected-cost decision (thesis Eq. 2.8, strict
    inequality) and charged $c_{FP}$ for a false positive, $c_{FN}$ for a false negative and
    nothing when correct (Eq. 2.3): `get()` is $(c_{FP} FP + c_{FN} FN) / N$, the empirical
    risk of Eq. 2.5. The metric takes *probabilities* and thresholds them itself: inside a
    River `metrics.Metrics` combination, label metrics receive the argmax of the probabilities,
    not the cost-sensitive decision, so a label-based cost metric would silently be wrong there.

    `normalised_cost()` divides by $c_{FP} \cdot Neg + c_{FN} \cdot Pos$, the sum of the costs of
    the all-positive and all-negative classifiers; it equals the thesis's normalised loss
    $Q = FNR \cdot (1 - z) + FPR \cdot z$ (§2.4) at skew $z$ = `skew(c_fp, c_fn, pi_+)` with the
    observed prior. `confusion()` returns the weighted TP / FP / TN / FN.

    Parameters
    ----------
    c_fp
        Cost of a false positive (finite, > 0).
    c_fn
        Cost of a false negative (finite, > 0).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.ExpectedCost(c_fp=1.0, c_fn=4.0)  # threshold 0.2
    >>> for y, p in [(True, 0.3), (False, 0.3), (True, 0.2), (False, 0.1)]:
    ...     metric.update(y, p)
    >>> metric.confusion()
    {'tp': 1.0, 'fp': 1.0, 'tn': 1.0, 'fn': 1.0}
    >>> metric  # (1 * 1 + 4 * 1) / 4
    ExpectedCost: 1.25
    >>> metric.normalised_cost()  # 5 / (1 * 2 + 4 * 2)
    0.5

    It combines with River's metrics, thresholding at its own costs:

    >>> from river import metrics as river_metrics
    >>> combo = river_metrics.LogLoss() + metrics.ExpectedCost(c_fp=1.0, c_fn=4.0)
    >>> combo.update(True, {False: 0.7, True: 0.3})
    >>> combo[1].get()
    0.0

    References
    ----------
    - Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, Eqs. 2.3,
      2.5, 2.8 and §2.4.
    - Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI.

    """

    _fmt = ".6f"

    def _total_cost(self) -> float:
        return self.c_fp * self._fp + self.c_fn * self._fn

    def get(self) -> float:
        n = self._tp + self._fp + self._tn + self._fn
        return self._total_cost() / n if n > 0.0 else 0.0

    def normalised_cost(self) -> float:
        """Cost relative to c_FP * Neg + c_FN * Pos, in [0, 1]: the thesis's Q(z)."""
        scale = self.c_fp * (self._fp + self._tn) + self.c_fn * (self._tp + self._fn)
        return self._total_cost() / scale if scale > 0.0 else 0.0
