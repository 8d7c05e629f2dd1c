"""Base classes of the probability metrics: input parsing, validation, weights, revert, bins."""

from __future__ import annotations

import abc
import bisect
import math
import typing

import numpy
from river import metrics

from ..decision import BinaryLabels, positive_proba
from ..validation import LIMIT, check_int, is_real

__all__ = ["BinnedProbabilityMetric", "ProbabilityMetric"]


class ProbabilityMetric(metrics.base.BinaryMetric):
    """A binary metric fed probabilities: `update(y_true, y_pred, w=1.0)` and `revert`.

    `y_pred` is a dict `{label: probability}` (River's `predict_proba_one`) or a float
    P(positive); see `streamboost.decision.positive_proba` for the exact rules. `y_true` is
    positive iff it equals `pos_label`; the negative label is `not pos_label` for a bool, else the
    first other label seen, and any third label (None, 2 or "True" when `pos_label` is True) is
    refused. Weights are finite, in [0, 1e150]. Every input is validated before any state
    changes, so a rejected update leaves the metric untouched, and a `revert` that would take
    the total weight below zero (an example never added) is refused too. Subclasses keep
    weighted sums only and implement `_accumulate(positive, p, w)`; `revert` is the same call
    with `-w`.

    Parameters
    ----------
    pos_label
        The positive label, named as in streamboost's models (River's metrics call it
        `pos_val`, which reads it here too); the int 1 also matches True.

    Examples
    --------
    `BrierScore` is a `ProbabilityMetric`:

    >>> from streamboost import metrics
    >>> metric = metrics.BrierScore(pos_label="spam")
    >>> metric.update("spam", {"spam": 0.9, "ham": 0.1})
    >>> metric.update("ham", 0.2, w=3.0)
    >>> metric.get()  # (0.1 ** 2 + 3 * 0.2 ** 2) / 4
    0.0325
    >>> metric.update("ham", 1.5)
    Traceback (most recent call last):
    ...
    ValueError: the positive-class probability must lie in [0, 1], got 1.5
    >>> metric.revert("ham", 0.2, w=3.0)
    >>> round(metric.get(), 12)
    0.01

    """

    _fmt = ".6f"

    def __init__(self, pos_label: typing.Hashable = True):
        # No confusion matrix: these metrics threshold or bin probabilities themselves.
        self.pos_label = pos_label
        self._labels = BinaryLabels(pos_label, owner=type(self).__name__)
        self._total = 0.0  # total weight, so a revert of more than was added is refused

    @property
    def pos_val(self) -> typing.Hashable:
        """`pos_label` under the name River's binary metrics give it (read-only)."""
        return self.pos_label

    @property
    def bigger_is_better(self) -> bool:
        return False

    @property
    def requires_labels(self) -> bool:
        return False

    @abc.abstractmethod
    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        """Add (w > 0) or remove (w < 0) one weighted observation."""

    def _parse(self, y_true, y_pred, w) -> tuple[bool, float, float]:
        # the usual weight, a float in range, passes without the ABC's isinstance (every example)
        usual = type(w) is float and 0.0 <= w <= LIMIT
        if not usual and (not is_real(w)
                          or not 0.0 <= w <= LIMIT):
            raise ValueError(f"the weight w must be a finite number in [0, {LIMIT:g}], got {w!r}")
        positive = self._labels.is_positive(y_true)
        p = positive_proba(y_pred, self.pos_label)
        return positive, p, float(w)

    def update(self, y_true: typing.Hashable, y_pred: dict | float | None,
               w: float = 1.0) -> None:
        self._observe(y_true, y_pred, w, False, self._accumulate)

    def revert(self, y_true: typing.Hashable, y_pred: dict | float | None,
               w: float = 1.0) -> None:
        self._observe(y_true, y_pred, w, True, self._accumulate)

    def _observe(self, y_true, y_pred, w, reverting: bool, accumulate: typing.Callable,
                 *args) -> None:
        """Add (`update`) or remove (`revert`) one example, checked first, with
        `accumulate(positive, p, w, *args)` (`-w` to remove); removing more weight than was
        added is refused before anything changes."""
        positive, p, w = self._parse(y_true, y_pred, w)
        if reverting:
            if w > self._total * (1.0 + 1e-12):
                raise ValueError(
                    f"cannot revert weight {w!r}: only {self._total!r} was added (an example "
                    "that was never added cannot be reverted)"
                )
            w = -w
        self._labels.learn(y_true)  # once the example is accepted: a refused one names nothing
        self._total += w
        accumulate(positive, p, w, *args)


class BinnedProbabilityMetric(ProbabilityMetric):
    """A probability metric over `n_bins` equal-width bins of P(positive) on [0, 1].

    Per bin it keeps the weighted sufficient statistics W = sum w, Sp = sum w p,
    Sy = sum w y, Spp = sum w p^2 and Spy = sum w p y (y = 1 for a positive), so memory is
    O(n_bins) whatever the stream length. Bins are those of scikit-learn's
    `calibration_curve(strategy="uniform")`: edges `numpy.linspace(0, 1, n_bins + 1)`,
    intervals closed on the right except the first, which also holds 0.

    Parameters
    ----------
    n_bins
        Number of bins (int >= 1).
    pos_label
        The positive label.

    Examples
    --------
    `ExpectedCalibrationError` is a `BinnedProbabilityMetric`; 0.25 and 0.5 lie on edges, so
    they fall in the bin on their left:

    >>> from streamboost import metrics
    >>> metric = metrics.ExpectedCalibrationError(n_bins=4)
    >>> for y, p in [(True, 0.0), (False, 0.25), (True, 0.5), (False, 0.8)]:
    ...     metric.update(y, p)
    >>> diagram = metric.reliability_diagram()
    >>> diagram["bin_lower"], diagram["mean_predicted"], diagram["weight"]
    ([0.0, 0.25, 0.75], [0.125, 0.5, 0.8], [2.0, 1.0, 1.0])
    >>> metric.revert(False, 0.8)
    >>> metric.n, metric.reliability_diagram()["bin_upper"]
    (3.0, [0.25, 0.5])

    """

    def __init__(self, n_bins: int = 10, pos_label: typing.Hashable = True):
        n_bins = check_int("n_bins", n_bins, 1)
        super().__init__(pos_label=pos_label)
        self.n_bins = n_bins
        # numpy's floats (3 * 0.1, not 3 / 10), so values on an edge bin as in scikit-learn.
        self._edges = numpy.linspace(0.0, 1.0, n_bins + 1).tolist()
        self._inner_edges = self._edges[1:-1]
        self._w = [0.0] * n_bins
        self._sp = [0.0] * n_bins
        self._sy = [0.0] * n_bins
        self._spp = [0.0] * n_bins
        self._spy = [0.0] * n_bins

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        b = bisect.bisect_left(self._inner_edges, p)
        self._w[b] += w
        self._sp[b] += w * p
        self._spp[b] += w * p * p
        if positive:
            self._sy[b] += w
            self._spy[b] += w * p

    def _bins(self) -> typing.Iterator[tuple[int, float, float, float, float, float]]:
        """(index, W, Sp, Sy, Spp, Spy) of every non-empty bin."""
        for b in range(self.n_bins):
            if self._w[b] > 0.0:
                yield b, self._w[b], self._sp[b], self._sy[b], self._spp[b], self._spy[b]

    @property
    def n(self) -> float:
        """Total weight seen (the number of examples when unweighted)."""
        return math.fsum(self._w)

    def reliability_diagram(self) -> dict[str, list[float]]:
        """Reliability-diagram data over the non-empty bins.

        Returns a dict of equal-length lists: `bin_lower`, `bin_upper` (the bin's edges),
        `mean_predicted` (mean P(positive) in the bin), `fraction_positive` (observed frequency
        of the positive class) and `weight` (total weight in the bin). `fraction_positive` and
        `mean_predicted` equal scikit-learn's `calibration_curve(y, p, n_bins=n_bins)` output
        `(prob_true, prob_pred)`.
        """
        keys = ("bin_lower", "bin_upper", "mean_predicted", "fraction_positive", "weight")
        out: dict[str, list[float]] = {k: [] for k in keys}
        for b, w, sp, sy, _, _ in self._bins():
            out["bin_lower"].append(self._edges[b])
            out["bin_upper"].append(self._edges[b + 1])
            out["mean_predicted"].append(sp / w)
            out["fraction_positive"].append(sy / w)
            out["weight"].append(w)
        return out
