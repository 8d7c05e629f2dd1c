"""River's own metrics on streams with any labels: an adapter that hands them booleans."""

from __future__ import annotations

import typing

from river import metrics

from ..decision import BinaryLabels, positive_proba

__all__ = ["Binarized"]


class Binarized(metrics.base.Metric):
    """A River binary metric fed `y == pos_label` and `{True: p, False: 1 - p}`.

    River's probability metrics (`LogLoss`, `ROCAUC`, ...) read `y_pred[True]` and take any
    truthy `y_true` as positive: on a stream labelled `"phish"` / `"legit"` they silently report
    nonsense (LogLoss 34.5 on four well-predicted examples, ROCAUC 0 %). This adapter turns each
    label into a bool and each prediction into P(positive) (`decision.positive_proba`), refusing
    a third label before the wrapped metric changes.

    Parameters
    ----------
    metric
        A River binary metric (e.g. `metrics.ROCAUC()`, `metrics.LogLoss()`).
    pos_label
        The positive label.

    Examples
    --------
    >>> from river import metrics as river_metrics
    >>> from streamboost.metrics import Binarized
    >>> auc = Binarized(river_metrics.ROCAUC(), pos_label="phish")
    >>> for y, p in [("phish", 0.9), ("legit", 0.2), ("phish", 0.7), ("legit", 0.4)]:
    ...     auc.update(y, {"phish": p, "legit": 1 - p})
    >>> auc
    Binarized(ROCAUC): 100.00%

    """

    def __init__(self, metric: metrics.base.Metric, pos_label: typing.Hashable = True):
        if not isinstance(metric, metrics.base.Metric):
            raise TypeError(f"metric must be a River metric, got {metric!r}")
        self.metric = metric
        self.pos_label = pos_label
        self._labels = BinaryLabels(pos_label, owner="Binarized")

    def _convert(self, y_true, y_pred) -> tuple[bool, typing.Any]:
        positive = self._labels.is_positive(y_true)
        p = positive_proba(y_pred, self.pos_label)
        self._labels.learn(y_true)
        if self.metric.requires_labels:
            return positive, p > 0.5
        return positive, {True: p, False: 1.0 - p}

    def update(self, y_true, y_pred, w: float = 1.0) -> None:
        self.metric.update(*self._convert(y_true, y_pred), w)

    def revert(self, y_true, y_pred, w: float = 1.0) -> None:
        self.metric.revert(*self._convert(y_true, y_pred), w)

    def get(self) -> float:
        return self.metric.get()

    @property
    def bigger_is_better(self) -> bool:
        return self.metric.bigger_is_better

    @property
    def requires_labels(self) -> bool:
        return False

    def works_with(self, model) -> bool:
        return self.metric.works_with(model)

    def __repr__(self) -> str:
        text = repr(self.metric)
        name = type(self.metric).__name__
        return f"Binarized({name}): {text.split(': ', 1)[-1]}"
