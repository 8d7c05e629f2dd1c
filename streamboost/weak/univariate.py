"""Logistic regression on one feature, the feature chosen online: the thesis's weak learner."""

from __future__ import annotations

import math

import numpy as np

from .. import kernels
from ..validation import is_real
from .base import WeakLearner

__all__ = ["UnivariateLogisticRegression", "gradients"]

# `_probabilities` in C (the same floats; None: the Python loop, the twin)
_SIGMOIDS = getattr(kernels.compiled, "weak_sigmoids", None)


def gradients(margins: np.ndarray, target: bool | np.ndarray,
              out: np.ndarray | None = None) -> np.ndarray:
    """The log loss's derivative in the margin, sigma(margin) - y, elementwise, computed as
    1 / (1 + exp(-margin)) - y; `target` a bool or an array of them that broadcasts into
    `margins`' shape; `out`: where to write it (it may be `margins`), else a new array.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.weak.univariate import gradients
    >>> margins = np.array([[0.0, 800.0], [-800.0, 0.0]])
    >>> gradients(margins, np.array([[True], [False]]), out=margins) is margins
    True
    >>> margins.tolist()
    [[-0.5, 0.0], [0.0, 0.5]]

    """
    # one array, each step in place: a minibatch's gradients for every member at once are
    # large enough that each temporary's allocation would cost as much as its arithmetic
    g = np.negative(margins, out=np.empty(np.shape(margins)) if out is None else out)
    with np.errstate(over="ignore"):  # exp(-margin) = inf gives sigma = 0, as it should
        np.exp(g, out=g)
    np.add(g, 1.0, out=g)
    np.divide(1.0, g, out=g)
    return np.subtract(g, target, out=g, dtype=float)


class UnivariateLogisticRegression(WeakLearner):
    r"""A logistic regression on the one feature it finds best so far (see `WeakLearner`).

    Candidate $f$ is $p_f(x) = \sigma(a_f x_f + b_f)$, learned by SGD on the log loss: an
    example of weight $w$ moves $a_f$ by $-\eta w g x_f$ and $b_f$ by $-\eta w g$, with
    $g = \sigma(a_f x_f + b_f) - y$; parameters start at 0. It votes positive iff
    $a_f x_f + b_f > 0$. The thesis boosts 100 of these, fitted to convergence on the weighted
    sample (Section 8.1); online, each sees an example once, weighted, so scale the features
    (e.g. `preprocessing.StandardScaler`) for one rate to suit them all.

    Parameters
    ----------
    lr
        The SGD learning rate $\eta$.

    Examples
    --------
    >>> from river import datasets, evaluate, metrics, preprocessing
    >>> from streamboost.weak import UnivariateLogisticRegression

    >>> model = preprocessing.StandardScaler() | UnivariateLogisticRegression()
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    Accuracy: 87.20%
    >>> model["UnivariateLogisticRegression"].feature
    'empty_server_form_handler'

    References
    ----------
    [^1]: Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis,
        University of Manchester (Section 8.1: univariate logistic regressions, M = 100).

    """

    _fields = ("coef", "bias")

    def __init__(self, lr: float = 0.1):
        if not (is_real(lr) and 0 < lr < math.inf):
            raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
        super().__init__()
        self.lr = lr

    @staticmethod
    def _candidate_votes(params: dict, xv: np.ndarray) -> np.ndarray:
        return params["coef"] * xv + params["bias"] > 0.0

    def _candidate_learn(self, params: dict, xv: np.ndarray, target: bool, w) -> dict:
        return self._move(params, xv, gradients(params["coef"] * xv + params["bias"], target), w)

    def _candidate_learn_batch(
        self, params: dict, X: np.ndarray, targets: np.ndarray, w: np.ndarray
    ) -> dict:
        coef, bias = params["coef"], params["bias"]
        step = w * (self.lr * gradients(coef * X + bias, targets[:, None]))  # as `_move`
        return {"coef": coef - (step * X).sum(axis=0), "bias": bias - step.sum(axis=0)}

    def _move(self, params: dict, xv: np.ndarray, g: np.ndarray, w) -> dict:
        """The parameters after one step of weight `w` along the gradients `g`."""
        step = w * (self.lr * g)
        return {"coef": params["coef"] - step * xv, "bias": params["bias"] - step}

    def _probabilities(self, params: dict, xv: np.ndarray, votes: np.ndarray,
                       scores: np.ndarray) -> np.ndarray:
        margins = params["coef"] * xv + params["bias"]
        # math.exp's, item by item (numpy's exp may differ from it in the last bit): the
        # kernel calls the C library's exp, which math.exp is
        if _SIGMOIDS is not None:
            out = np.empty(margins.size)
            _SIGMOIDS(np.ascontiguousarray(margins, dtype=float).ravel(), out)
            return out.reshape(margins.shape)
        return np.array([1.0 / (1.0 + math.exp(-m)) if m > -700.0 else 0.0
                         for m in margins.ravel().tolist()]).reshape(margins.shape)
