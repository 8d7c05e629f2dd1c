r"""The Brier curve: normalised cost-sensitive loss over operating conditions, and its area."""

from __future__ import annotations

import bisect
import itertools
import math
import typing

from ..decision import cost_threshold
from ..validation import is_real
from .base import ProbabilityMetric

__all__ = ["THESIS_COST_RATIOS", "BrierCurve", "BrierCurvePoint"]

#: The 21 cost ratios c_FN / c_FP of the thesis's experiments (Nikolaou 2016, §8.1).
THESIS_COST_RATIOS: tuple[float, ...] = (
    100.0, 50.0, 25.0, 20.0, 15.0, 10.0, 5.0, 2.5, 2.0, 1.5, 1.0,
    1 / 1.5, 1 / 2, 1 / 2.5, 1 / 5, 1 / 10, 1 / 15, 1 / 20, 1 / 25, 1 / 50, 1 / 100,
)  # fmt: skip


class BrierCurvePoint(typing.NamedTuple):
    """One point of a Brier curve: the cost ratio c_FN/c_FP, the cost proportion c and Q(c).

    Examples
    --------
    >>> from streamboost import metrics
    >>> curve = metrics.BrierCurve(cost_ratios=(3.0,))  # c = 1 / (1 + 3)
    >>> curve.update(True, 0.2)  # a false negative at c = 0.25
    >>> curve.update(False, 0.1)
    >>> curve.curve()[1]  # Q = 2 (0.25 * 0 + 0.75 * 1) / 2
    BrierCurvePoint(cost_ratio=3.0, c=0.25, q=0.75)
    >>> [(pt.cost_ratio, pt.c) for pt in curve.curve()]  # with the end points c = 0 and 1
    [(inf, 0.0), (3.0, 0.25), (0.0, 1.0)]

    """

    cost_ratio: float
    c: float
    q: float


class BrierCurve(ProbabilityMetric):
    r"""Brier curve over cost proportions, its points and its area (≈ the Brier score).

    For an operating condition with cost proportion $c = c_{FP} / (c_{FP} + c_{FN})$ the
    decision threshold is set to $c$ (the "probabilistic threshold choice", i.e. the Bayes rule
    of thesis Eq. 2.8) and the loss is

    $$Q(c) = 2 \left\{ c \, \pi_- \, FPR(c) + (1 - c) \, \pi_+ \, FNR(c) \right\}
           = \frac{2}{N} \left\{ c \cdot FP(c) + (1 - c) \cdot FN(c) \right\}$$

    (Hernández-Orallo, Flach & Ferri 2011). Per example, $\int_0^1$ of this loss is the
    squared error, so the area under $Q$ is the Brier score for any class priors; on balanced
    data $Q$ is the thesis's $Q(z)$ (§2.4) with $z = c$, the false positives' share of the
    costs (the thesis's prose swaps the two trivial classifiers' lines: docs/metrics.md).
    `curve()` evaluates $Q$ at $c = 1 / (1 + c_r)$ for the cost ratios $c_r = c_{FN}/c_{FP}$
    (by default the thesis's 21) and at $c = 0, 1$; `get()` is the trapezoidal area, the Brier
    score on a dense grid. Memory: the class weights per interval between two points.

    Parameters
    ----------
    cost_ratios
        The cost ratios c_FN / c_FP at which to evaluate Q (finite, > 0).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> curve = metrics.BrierCurve(cost_ratios=(3.0, 1.0, 1 / 3))  # c = 0.25, 0.5, 0.75
    >>> for y, p in [(True, 0.9), (True, 0.4), (False, 0.6), (False, 0.1)]:
    ...     curve.update(y, p)
    >>> [(pt.c, pt.q) for pt in curve.curve()]
    [(0.0, 0.0), (0.25, 0.125), (0.5, 0.5), (0.75, 0.125), (1.0, 0.0)]
    >>> curve.get()  # trapezoid over 5 points; the Brier score is 0.185
    0.1875

    References
    ----------
    - Hernández-Orallo, J., Flach, P. & Ferri, C. (2011). Brier curves: a new cost-based
      visualisation of classifier performance. ICML.
    - Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, §2.4 and
      §8.1 (the 21 cost ratios, footnote 3).

    """

    def __init__(
        self,
        cost_ratios: tuple[float, ...] = THESIS_COST_RATIOS,
        pos_label: typing.Hashable = True,
    ):
        if isinstance(cost_ratios, str | bytes) or not isinstance(cost_ratios, typing.Iterable):
            raise TypeError(f"cost_ratios must be a sequence of numbers, got {cost_ratios!r}")
        ratios = tuple(cost_ratios)
        if not ratios:
            raise ValueError("cost_ratios must not be empty")
        for r in ratios:
            if not is_real(r):
                raise TypeError(f"cost ratios must be real numbers, got {r!r}")
            if not (math.isfinite(r) and r > 0):
                raise ValueError(f"cost ratios c_FN/c_FP must be finite and > 0, got {r!r}")
        super().__init__(pos_label=pos_label)
        self.cost_ratios = cost_ratios
        self._thresholds = sorted({0.0, 1.0, *(cost_threshold(1.0, r) for r in ratios)})
        # _pos[k], _neg[k]: weight of examples with exactly k thresholds below their p, i.e.
        # decided positive at thresholds 0..k-1 and negative from threshold k on.
        self._pos = [0.0] * (len(self._thresholds) + 1)
        self._neg = [0.0] * (len(self._thresholds) + 1)

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        k = bisect.bisect_left(self._thresholds, p)
        if positive:
            self._pos[k] += w
        else:
            self._neg[k] += w

    def _priors(self) -> tuple[float, float, float]:
        n_pos, n_neg = math.fsum(self._pos), math.fsum(self._neg)
        return n_pos, n_neg, n_pos + n_neg

    def curve(self) -> list[BrierCurvePoint]:
        """The points (cost ratio, c, Q(c)) in increasing c, end points c = 0 and 1 included."""
        _, n_neg, n = self._priors()
        points = []
        false_neg, false_pos = 0.0, n_neg
        for j, c in enumerate(self._thresholds):
            false_neg += self._pos[j]  # positives with p <= c
            false_pos -= self._neg[j]  # negatives with p > c remain
            q = 2.0 * (c * false_pos + (1.0 - c) * false_neg) / n if n > 0.0 else 0.0
            ratio = math.inf if c == 0.0 else (1.0 - c) / c
            points.append(BrierCurvePoint(ratio, c, q))
        return points

    def get(self) -> float:
        pts = self.curve()
        return math.fsum((b.c - a.c) * (a.q + b.q) / 2.0 for a, b in itertools.pairwise(pts))

    def reference_lines(self) -> dict[str, list[float]]:
        """Q of the all-positive (2 c pi_-) and all-negative (2 (1 - c) pi_+) classifiers at the
        curve's points, with the observed priors, under the key `c` for the x-axis."""
        n_pos, n_neg, n = self._priors()
        pi_pos, pi_neg = (n_pos / n, n_neg / n) if n > 0.0 else (0.5, 0.5)
        cs = list(self._thresholds)
        return {
            "c": cs,
            "all_positive": [2.0 * c * pi_neg for c in cs],
            "all_negative": [2.0 * (1.0 - c) * pi_pos for c in cs],
        }
