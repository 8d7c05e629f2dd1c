r"""Realised cost of minimum-expected-cost decisions taken from probabilities."""

from __future__ import annotations

import typing

from ..decision import cost_threshold, validate_costs
from .base import ProbabilityMetric

__all__ = ["DecisionMetric", "ExpectedCost"]


class DecisionMetric(ProbabilityMetric):
    """A metric of the minimum-expected-cost decisions $\\hat p > c_{FP} / (c_{FP} + c_{FN})$.

    Each probability is turned into the decision a cost-sensitive `predict_one` takes (thesis
    Eq. 2.8, strict inequality) and counted in a weighted confusion matrix; subclasses say what
    to make of it (`ExpectedCost`, `GMean`, `CohenKappa`). Thresholding here, rather than
    receiving labels, is what keeps these metrics right inside a River `metrics.Metrics`
    combination, where label metrics get the argmax (threshold 1/2). `update` and `revert`
    also take one example's own costs, `c_fp=` and `c_fn=` (example-dependent costs, Elkan
    2001: its decision at its own threshold, charged its own costs); the metric's are the
    default.

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

    def update(self, y_true: typing.Hashable, y_pred: dict | float | None, w: float = 1.0, *,
               c_fp: float | None = None, c_fn: float | None = None) -> None:
        self._observe(y_true, y_pred, w, False, self._decide, self._example(c_fp, c_fn))

    def revert(self, y_true: typing.Hashable, y_pred: dict | float | None, w: float = 1.0, *,
               c_fp: float | None = None, c_fn: float | None = None) -> None:
        """Remove an example `update` added, with the costs it was added with."""
        self._observe(y_true, y_pred, w, True, self._decide, self._example(c_fp, c_fn))

    def _example(self, c_fp: float | None, c_fn: float | None) -> tuple | None:
        """An example's own (threshold, c_fp, c_fn), checked; None: the metric's costs."""
        if c_fp is None and c_fn is None:
            return None
        costs = validate_costs(self.c_fp if c_fp is None else c_fp,
                               self.c_fn if c_fn is None else c_fn)
        return (cost_threshold(*costs), *costs)

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        self._decide(positive, p, w, None)

    def _decide(self, positive: bool, p: float, w: float, example: tuple | None) -> None:
        """Count the decision on one example (`example`: its own threshold and costs)."""
        decided = p > (self._threshold if example is None else example[0])
        if decided:
            if positive:
                self._tp += w
            else:
                self._fp += w
        elif positive:
            self._fn += w
        else:
            self._tn += w
        if example is not None:
            self._charge(positive, decided, w, example[1], example[2])

    def _charge(self, positive: bool, decided: bool, w: float, c_fp: float, c_fn: float
                ) -> None:
        """What an example with its own costs adds besides the counts (`ExpectedCost`)."""

    def confusion(self) -> dict[str, float]:
        """Weighted counts of true/false positives/negatives of the thresholded decisions."""
        return {"tp": self._tp, "fp": self._fp, "tn": self._tn, "fn": self._fn}


class ExpectedCost(DecisionMetric):
    r"""Mean cost per example of the decisions $\hat p > c_{FP} / (c_{FP} + c_{FN})$.

    Each probability is turned into the minimum-expected-cost decision (thesis Eq. 2.8, strict
    inequality) and charged $c_{FP}$ for a false positive, $c_{FN}$ for a false negative and
    nothing when correct (Eq. 2.3): `get()` is $(c_{FP} FP + c_{FN} FN) / N$, the empirical
    risk of Eq. 2.5. It takes *probabilities*, so in a River combination it still decides by
    the costs (River's label metrics get the argmax). `normalised_cost()` divides by
    $c_{FP} Neg + c_{FN} Pos$: the thesis's $Q = FNR (1 - z) + FPR z$ (§2.4) at the observed
    skew. `confusion()` is the weighted TP / FP / TN / FN. An `update` may take the example's
    own costs (`c_fp=`, `c_fn=`: a missed fraud costs its amount; docs/metrics.md).

    Parameters
    ----------
    c_fp, c_fn, pos_label
        Costs of a false positive and of a false negative (finite, > 0); the positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.ExpectedCost(c_fp=1.0, c_fn=4.0)  # threshold 0.2
    >>> for y, p in [(True, 0.3), (False, 0.3), (True, 0.2), (False, 0.1)]:
    ...     metric.update(y, p)
    >>> metric.confusion(), metric.get()  # (1 * 1 + 4 * 1) / 4
    ({'tp': 1.0, 'fp': 1.0, 'tn': 1.0, 'fn': 1.0}, 1.25)
    >>> metric.normalised_cost()  # 5 / (1 * 2 + 4 * 2)
    0.5
    >>> fraud = metrics.ExpectedCost(c_fp=1.0, c_fn=1.0)
    >>> fraud.update(True, 0.3, c_fn=99.0)  # threshold 0.01: flagged, no cost
    >>> fraud.update(True, 0.3)  # threshold 0.5: missed, c_FN = 1
    >>> fraud.get()
    0.5
    >>> from river import metrics as river_metrics
    >>> combo = river_metrics.LogLoss() + metrics.ExpectedCost(c_fp=1.0, c_fn=4.0)
    >>> combo.update(True, {False: 0.7, True: 0.3})
    >>> combo[1].get()
    0.0

    References
    ----------
    - Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis (§2.4).
    - Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI.

    """

    _fmt = ".6f"

    def __init__(self, c_fp: float = 1.0, c_fn: float = 1.0, pos_label: typing.Hashable = True):
        super().__init__(c_fp=c_fp, c_fn=c_fn, pos_label=pos_label)
        # the examples with their own costs: what they were charged, what wrong decisions on
        # all of them would have cost, and their false-positive, false-negative, negative and
        # positive weights (the other examples are counted at the metric's costs)
        self._own = [0.0] * 6

    def _charge(self, positive: bool, decided: bool, w: float, c_fp: float, c_fn: float
                ) -> None:
        own = self._own
        cost = w * (c_fn if positive else c_fp)
        if decided != positive:
            own[0] += cost
            own[3 if positive else 2] += w
        own[1] += cost
        own[5 if positive else 4] += w

    def _total_cost(self) -> float:
        charged, _, fp, fn, _, _ = self._own
        return self.c_fp * (self._fp - fp) + self.c_fn * (self._fn - fn) + charged

    def get(self) -> float:
        n = self._tp + self._fp + self._tn + self._fn
        return self._total_cost() / n if n > 0.0 else 0.0

    def normalised_cost(self) -> float:
        """Cost relative to c_FP * Neg + c_FN * Pos (each example's own costs where it had
        them), in [0, 1]: the thesis's Q(z)."""
        _, scale, _, _, negatives, positives = self._own
        scale += (self.c_fp * (self._fp + self._tn - negatives)
                  + self.c_fn * (self._tp + self._fn - positives))
        return self._total_cost() / scale if scale > 0.0 else 0.0
