r"""What the imbalanced-stream literature reports, of cost-sensitive decisions: G-mean, kappa."""

from __future__ import annotations

import math

from .cost import DecisionMetric

__all__ = ["CohenKappa", "GMean"]


class GMean(DecisionMetric):
    r"""Geometric mean of the recalls of the two classes, $\sqrt{TPR \cdot TNR}$.

    The imbalanced-stream literature's usual summary (Kubat & Matwin 1997; Wang, Minku & Yao
    2015): 0 as soon as one class is never recognised, whatever the other's share. Decisions are
    the minimum-expected-cost ones at $c_{FP} / (c_{FP} + c_{FN})$ (`DecisionMetric`), so the
    metric follows the costs; with equal costs it is the G-mean at threshold 1/2. A class not
    seen yet contributes a recall of 1 (so the first examples do not read as 0).

    Parameters
    ----------
    c_fp, c_fn
        Costs of a false positive and of a false negative (finite, > 0).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.GMean()
    >>> for y, p in [(True, 0.9), (True, 0.3), (False, 0.2), (False, 0.1)]:
    ...     metric.update(y, p)
    >>> round(metric.get(), 4)  # sqrt(1/2 * 1)
    0.7071

    References
    ----------
    - Kubat, M. & Matwin, S. (1997). Addressing the curse of imbalanced training sets:
      one-sided selection. ICML.
    - Wang, S., Minku, L. L. & Yao, X. (2015). Resampling-based ensemble methods for online
      class imbalance learning. IEEE TKDE 27(5).

    """

    _fmt = ".4f"

    @property
    def bigger_is_better(self) -> bool:
        return True

    def get(self) -> float:
        positives, negatives = self._tp + self._fn, self._tn + self._fp
        tpr = self._tp / positives if positives > 0.0 else 1.0
        tnr = self._tn / negatives if negatives > 0.0 else 1.0
        return math.sqrt(max(tpr, 0.0) * max(tnr, 0.0))


class CohenKappa(DecisionMetric):
    r"""Cohen's kappa of the decisions: agreement with the labels beyond chance.

    $\kappa = (p_o - p_e) / (1 - p_e)$ with $p_o$ the weighted accuracy and $p_e$ the agreement
    expected from the marginal rates of decisions and labels (Cohen 1960); MOA and River report
    it for streams (Bifet et al. 2015 use it against a classifier that predicts the majority).
    Decisions as in `DecisionMetric`. 0 when the decisions and the labels do not vary
    ($p_e = 1$).

    Parameters
    ----------
    c_fp, c_fn
        Costs of a false positive and of a false negative (finite, > 0).
    pos_label
        The positive label.

    Examples
    --------
    >>> from streamboost import metrics
    >>> metric = metrics.CohenKappa()
    >>> for y, p in [(True, 0.9), (True, 0.3), (False, 0.2), (False, 0.1)]:
    ...     metric.update(y, p)
    >>> metric.get()  # p_o = 3/4, p_e = 1/2
    0.5

    References
    ----------
    - Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
      Psychological Measurement 20(1).
    - Bifet, A. et al. (2015). Efficient online evaluation of big data stream classifiers. KDD.

    """

    _fmt = ".4f"

    @property
    def bigger_is_better(self) -> bool:
        return True

    def get(self) -> float:
        tp, fp, tn, fn = self._tp, self._fp, self._tn, self._fn
        n = tp + fp + tn + fn
        if n <= 0.0:
            return 0.0
        observed = (tp + tn) / n
        expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / (n * n)
        return (observed - expected) / (1.0 - expected) if expected < 1.0 else 0.0
