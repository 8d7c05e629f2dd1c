"""River's own metrics on streams with any labels: an adapter that hands them booleans."""

from __future__ import annotations

import typing

from river import base, metrics

from ..decision import BinaryLabels, positive_proba
from ..validation import one_line

__all__ = ["Binarized"]


class Binarized(metrics.base.Metric):
    """A River binary metric fed `y == pos_label`, and `{True: p, False: 1 - p}` or a decision.

    River's probability metrics (`LogLoss`, `ROCAUC`, ...) read `y_pred[True]` and take any
    truthy `y_true` as positive; its label metrics (`F1`, `Precision`, ...) given
    `pos_val="phish"` compare labels with it, then read their counts under `"phish"`, where
    there are none. On a stream labelled `"phish"` / `"legit"` both silently report nonsense
    (LogLoss 34.5 on four well-predicted examples, ROCAUC 0 %, F1 0 % of a model whose F1 is
    88 %). This adapter turns each label into a bool, refusing a third label before the
    wrapped metric changes. A probability metric gets P(positive) (`decision.positive_proba`);
    a label metric gets the model's decision (`predict_one`: its cost threshold), or `p > 1/2`
    where it is handed probabilities (a `metrics.Metrics` mixing both kinds hands every metric
    River's argmax).

    Parameters
    ----------
    metric
        A River binary metric (e.g. `metrics.ROCAUC()`, `metrics.F1()`), or several
        (`metrics.LogLoss() + metrics.F1()`).
    pos_label
        The positive label.

    Examples
    --------
    >>> from river import metrics as river_metrics
    >>> from streamboost.metrics import Binarized
    >>> auc = Binarized(river_metrics.ROCAUC(), pos_label="phish")
    >>> f1 = Binarized(river_metrics.F1(), pos_label="phish")
    >>> for y, p, decided in [("phish", 0.9, "phish"), ("legit", 0.2, "legit"),
    ...                       ("phish", 0.3, "phish"), ("legit", 0.4, "phish")]:
    ...     auc.update(y, {"phish": p, "legit": 1 - p})
    ...     f1.update(y, decided)  # what a cost-sensitive predict_one decided
    >>> auc, f1
    (Binarized(ROCAUC): 75.00%, Binarized(F1): 80.00%)

    """

    def __init__(self, metric: metrics.base.ClassificationMetric | metrics.base.Metrics,
                 pos_label: typing.Hashable = True):
        # a regression metric has no `requires_labels`: it would fail at the first update
        if not _classification(metric):
            raise TypeError(f"metric must be a River classification metric (such as "
                            f"metrics.ROCAUC() or metrics.F1()), or several of them "
                            f"(metrics.LogLoss() + metrics.F1()), got {one_line(metric)}")
        self.metric = metric
        self.pos_label = pos_label
        self._labels = BinaryLabels(pos_label, owner="Binarized")

    def _convert(self, y_true, y_pred) -> tuple[bool, typing.Any]:
        positive = self._labels.is_positive(y_true)
        decision: bool | None  # None: the metric reads probabilities
        if self.metric.requires_labels and not isinstance(y_pred, dict):
            # a label: a third one raises; None, River's "no prediction" (an untrained tree's
            # `predict_one`), decides no positive, as River's own metrics count it
            decision = y_pred is not None and self._labels.is_positive(y_pred)
        else:
            p = positive_proba(y_pred, self.pos_label)
            decision = None if not self.metric.requires_labels else p > 0.5
        self._labels.learn(y_true)
        return positive, ({True: p, False: 1.0 - p} if decision is None else decision)

    def update(self, y_true: typing.Hashable, y_pred: typing.Any, w: float = 1.0) -> None:
        self.metric.update(*self._convert(y_true, y_pred), w)

    def revert(self, y_true: typing.Hashable, y_pred: typing.Any, w: float = 1.0) -> None:
        self.metric.revert(*self._convert(y_true, y_pred), w)

    def get(self) -> float:
        return self.metric.get()

    @property
    def bigger_is_better(self) -> bool:
        return self.metric.bigger_is_better

    @property
    def requires_labels(self) -> bool:
        return self.metric.requires_labels

    def works_with(self, model: base.Estimator) -> bool:
        return self.metric.works_with(model)

    def __add__(self, other: metrics.base.Metric) -> metrics.base.Metrics:
        return metrics.base.Metrics([self, other])

    def __repr__(self) -> str:
        text = repr(self.metric)
        name = type(self.metric).__name__
        return f"Binarized({name}): {text.split(': ', 1)[-1]}"


def _classification(metric: object) -> bool:
    """Whether `metric` is a River classification metric, or a `Metrics` of them only."""
    if isinstance(metric, metrics.base.Metrics):
        return all(map(_classification, metric))
    return isinstance(metric, metrics.base.ClassificationMetric)
