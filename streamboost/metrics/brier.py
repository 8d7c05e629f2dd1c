r"""The Brier score and its calibration / refinement decomposition."""

from __future__ import annotations

import math
import typing

from .base import BinnedProbabilityMetric, ProbabilityMetric

__all__ = ["BrierDecomposition", "BrierScore"]


class BrierScore(ProbabilityMetric):
    r"""Brier score of the positive-class probability.

    $$BS = \frac{\sum_i w_i (\hat p_i - y_i)^2}{\sum_i w_i}, \qquad y_i \in \{0, 1\}$$

    (Brier 1950; thesis §2.4). It is the area under the Brier curve (Hernández-Orallo, Flach &
    Ferri 2011), see `BrierCurve`. Lower is better; 0.25 is the score of the constant 1/2.

    Parameters
    ----------
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.BrierScore()
    >>> for y, p in [(True, 0.9), (False, {False: 0.8, True: 0.2}), (True, 0.4)]:
    ...     metric.update(y, p)
    >>> metric  # (0.01 + 0.04 + 0.36) / 3
    BrierScore: 0.136667

    It takes probabilities, so River's evaluation asks the model for `predict_proba_one`:

    >>> from river import datasets, evaluate, linear_model, preprocessing
    >>> model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.BrierScore())
    BrierScore: 0.09...

    References
    ----------
    - Brier, G. W. (1950). Verification of forecasts expressed in terms of probability. Monthly
      Weather Review 78(1), 1-3.

    """

    def __init__(self, pos_label: typing.Hashable = True):
        super().__init__(pos_label=pos_label)
        self._w = 0.0
        self._sse = 0.0

    def _accumulate(self, positive: bool, p: float, w: float) -> None:
        self._w += w
        self._sse += w * (p - positive) ** 2

    def get(self) -> float:
        return self._sse / self._w if self._w > 0.0 else 0.0


class BrierDecomposition(BinnedProbabilityMetric):
    r"""Calibration / refinement decomposition of the Brier score over probability bins.

    With the forecasts grouped into `n_bins` equal-width bins $b$ holding weight $n_b$ (of
    $N$), mean forecast $\bar p_b$ and positive frequency $\bar y_b$, expanding
    $(p - y)^2 = ((p - \bar p_b) + (\bar p_b - \bar y_b) + (\bar y_b - y))^2$ bin by bin gives
    the identity

    $$BS = \underbrace{\frac1N \sum_b n_b (\bar p_b - \bar y_b)^2}_{\text{calibration}}
    + \underbrace{\frac1N \sum_b n_b \bar y_b (1 - \bar y_b)}_{\text{refinement}}
    + \underbrace{\frac1N \sum_b \sum_{i \in b}
      \left[(p_i - \bar p_b)^2 - 2 (p_i - \bar p_b)(y_i - \bar y_b)\right]}_{\text{within-bin}}$$

    Calibration and refinement are Murphy's (1973) reliability and uncertainty minus
    resolution, exact only when a bin holds one forecast value; the within-bin term
    (Stephenson, Coelho & Jolliffe 2008) makes the identity exact for continuous forecasts.
    Each term has its own formula over per-bin sums, so their sum matching the Brier score is
    a check, not a definition. `get()` is the calibration loss (what recalibration can remove;
    thesis §8.2); every term is in `components()`.

    Parameters
    ----------
    n_bins, pos_label
        Equal-width bins on [0, 1] (scikit-learn's `calibration_curve`'s); the positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.BrierDecomposition(n_bins=2)
    >>> for y, p in [(True, 0.9), (True, 0.7), (False, 0.6), (False, 0.1), (True, 0.2)]:
    ...     metric.update(y, p)
    >>> c = metric.components()
    >>> round(c["brier"], 6), round(c["calibration"], 6), round(c["refinement"], 6)
    (0.222, 0.051667, 0.233333)
    >>> round(c["calibration"] + c["refinement"] + c["within_bin"], 6)
    0.222

    References
    ----------
    - Murphy, A. H. (1973). A new vector partition of the probability score. J. Appl. Meteor.
    - Stephenson, D. B., Coelho, C. A. S. & Jolliffe, I. T. (2008). Two extra components in the
      Brier score decomposition. Weather and Forecasting 23(4), 752-757.
    - Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, §2.4, §8.2.

    """

    def get(self) -> float:
        return self.components()["calibration"]

    def components(self) -> dict[str, float]:
        """The decomposition: `brier`, `calibration`, `refinement`, `within_bin`, and Murphy's
        `resolution` and `uncertainty` (refinement = uncertainty - resolution)."""
        n = self.n
        if n <= 0.0:
            return dict.fromkeys(
                ("brier", "calibration", "refinement", "within_bin", "resolution", "uncertainty"),
                0.0,
            )
        base_rate = math.fsum(self._sy) / n
        brier, calibration, refinement, within, resolution = [], [], [], [], []
        for _, w, sp, sy, spp, spy in self._bins():
            p_bar, y_bar = sp / w, sy / w
            brier.append(spp - 2.0 * spy + sy)
            calibration.append(w * (p_bar - y_bar) ** 2)
            refinement.append(w * y_bar * (1.0 - y_bar))
            within.append((spp - sp * p_bar) - 2.0 * (spy - sp * y_bar))
            resolution.append(w * (y_bar - base_rate) ** 2)
        return {
            "brier": math.fsum(brier) / n,
            "calibration": math.fsum(calibration) / n,
            "refinement": math.fsum(refinement) / n,
            "within_bin": math.fsum(within) / n,
            "resolution": math.fsum(resolution) / n,
            "uncertainty": base_rate * (1.0 - base_rate),
        }

    def __repr__(self) -> str:
        c = self.components()
        return (
            f"{type(self).__name__}: calibration {c['calibration']:{self._fmt}}, "
            f"refinement {c['refinement']:{self._fmt}}, within-bin {c['within_bin']:{self._fmt}}"
        )
