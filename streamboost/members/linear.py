"""River `LogisticRegression` members as one weight matrix: Oza boosting's exact fast path."""

from __future__ import annotations

import math
import random

import numpy as np
from river import base, linear_model, optim, utils
from scipy.special import expit

from .. import kernels
from ..poisson import KNUTH_MAX_RATE
from .base import ArrayMembers, soft_score

__all__ = ["LinearMembers"]

# Below this |margin| a member's vote is decided by River's own arithmetic (sigmoid, then
# p > 1 - p), not by the sign: there rounding decides, and numpy's exp may differ by an ulp.
_TIE_BAND = 1e-9
_NO_BATCH = (None, None, None, None, None)
# `batch_scores` in C (streamboost.kernels); None: `boosting.table_scores` in numpy (no kernels,
# or a module built before this kernel)
_VOTE_SCORES = getattr(kernels.compiled, "vote_scores", None)
# `score="soft"` in C (the same floats; the twins for a module built before these kernels)
_SOFT_SCORE = getattr(kernels.compiled, "soft_score", soft_score)
_LINEAR_SOFT_SCORES = getattr(kernels.compiled, "linear_soft_scores", None)


def _river_vote(margin: float) -> bool:
    """`LogisticRegression.predict_one` from the margin: True iff p > 1 - p, as River decides
    (its dict lists False first, so a tie is False)."""
    p = utils.math.sigmoid(margin)
    return p > 1.0 - p


def _margins(weights: np.ndarray, xa: np.ndarray) -> tuple[list[float], list[bool], float]:
    """Every member's margin on the vector `xa` (intercept first) and River's vote of it, and
    xa's squared length: each a running sum from the first column (numpy's cumsum, which adds
    in order, so the compiled `linear_margins` gives the same floats; a matrix product's order
    is the BLAS library's)."""
    margins = np.cumsum(weights[:, : len(xa)] * xa, axis=1)[:, -1].tolist()
    votes = [m > 0.0 if (m > _TIE_BAND or m < -_TIE_BAND) else _river_vote(m) for m in margins]
    return margins, votes, float(np.cumsum(xa * xa)[-1])


def _vote_array(margins: np.ndarray) -> np.ndarray:
    """`_river_vote` of every margin: the sign, and River's arithmetic in the tie band."""
    votes = margins > 0.0
    distance = np.abs(margins)
    if distance.size and distance.min() <= _TIE_BAND:
        for index in map(tuple, np.argwhere(distance <= _TIE_BAND)):
            votes[index] = _river_vote(float(margins[index]))
    return votes


class LinearMembers(ArrayMembers):
    r"""`n_models` River logistic regressions (plain SGD, log loss) as one weight matrix.

    One pass over the example's vector gives every member's margin (`linear_margins`).
    Learning $x$ $k$ times is River's `learn_one` repeated: each step takes
    $g_j = \ell'(m_j)$ (clipped, River's `Log.gradient`)
    and moves the weights by $-\eta g_j x$ and the intercept by $-\eta_0 g_j$, so the margin on
    $x$ moves to $m_{j+1} = m_j - g_j (\eta \lVert x \rVert^2 + \eta_0)$: the post-training vote
    needs no dot product, and the weights take the $k$ steps at once, $-\eta x \sum_j g_j$.
    With `weighted`, a draw is one step of weight $k$, $g_0 = \ell'(m_0) k$ clipped (River's
    `learn_one(x, y, w=k)`); a sample weight $w$ multiplies every $g_j$ before the clip
    (`w=k w`, or $k$ steps of `w=w`).
    This is River's arithmetic, reassociated: weights agree to rounding, and the votes (hence
    the booster's predictions) are equal to the reference path's, which the tests check on
    every example of real streams. Supported: `LogisticRegression` with `optim.SGD` at a
    constant rate, `Log` loss, no L1/L2 penalty, zero initial weights, a constant intercept
    rate (River's defaults, any rates and clipping).

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.members.linear import LinearMembers
    >>> LinearMembers.supports(linear_model.LogisticRegression())
    True
    >>> LinearMembers.supports(linear_model.LogisticRegression(l2=0.1))
    False

    """

    lead = 1.0  # column 0 holds the intercepts
    minibatch = True
    # a frozen copy needs the columns and the weights, not the learning state (most of the
    # attributes)
    _scoring = ("_columns", "_keys", "_width", "n_models", "weights")
    _norm: float  # |[ratio, x]|^2 of the x scored last
    __slots__ = (
        "_batch",
        "_clip",
        "_intercept_lr",
        "_lr",
        "_margins",
        "_moves",
        "_norm",
        "_ratio",
        "_step",
        "_trained",
        "_votes",
        "_weight_neg",
        "_weight_pos",
        "_xa",
        "steps",
        "weighted",
        "weights",
    )

    def __init__(
        self, model: linear_model.LogisticRegression, n_models: int, weighted: bool = False
    ):
        super().__init__(n_models)
        self.weighted = weighted
        self._lr = float(model.optimizer.learning_rate)
        self._intercept_lr = float(model.intercept_lr.learning_rate)
        self._clip = model.clip_gradient
        self._weight_pos = model.loss.weight_pos
        self._weight_neg = model.loss.weight_neg
        # Column 0 holds the intercepts: x is scored as [1, x] and moved along
        # [intercept_lr / lr, x] (the same vector at River's default rates), so one product
        # scores and one update learns.
        self._ratio = self._intercept_lr / self._lr
        self.weights = np.zeros((n_models, 1))
        self.weights[:, 0] = float(model.intercept_init)
        self.steps = [0] * n_models
        self._margins: list[float] = []
        self._votes: list[bool] = []
        self._batch: tuple = _NO_BATCH  # learn_batch's minibatch, its rows signed once

    @staticmethod
    def supports(model: base.Classifier, weighted: bool = False) -> bool:
        """Whether `model` is a logistic regression this class reproduces (either way of
        learning a draw)."""
        return (
            type(model) is linear_model.LogisticRegression
            and type(model.optimizer) is optim.SGD
            and type(model.optimizer.lr) is optim.schedulers.Constant
            and type(model.intercept_lr) is optim.schedulers.Constant
            and type(model.loss) is optim.losses.Log
            and type(model.initializer) is optim.initializers.Zeros
            and model.l1 == 0
            and model.l2 == 0
        )

    def _grow(self, width: int) -> None:
        grown = np.zeros((self.n_models, width + 1))
        grown[:, : self.weights.shape[1]] = self.weights
        self.weights = grown

    def votes(self, x: dict, alphas: list[float] | None = None) -> list[bool]:
        if x is not self._x and x != self._x:  # a prequential loop scores, then learns, one x
            compiled = kernels.compiled
            done = None
            if compiled is not None and type(x) is dict:  # known keys, numbers: in C
                xa = np.empty(len(self._keys) + 1)
                done = compiled.linear_margins(x, self._keys, self._columns, self.weights, xa)
            if done is None:
                xa = self.vector(x)
                done = _margins(self.weights, xa)
            self._margins, self._votes, self._norm = done
            self._xa = xa
            self._x = dict(x)
        return self._votes

    def begin(self, x: dict, target: bool, w: float = 1.0) -> list[bool]:
        votes = self.votes(x)
        # River's Log.gradient for a bool label (the sign of y, the loss's class weight), its
        # clip, how far a unit gradient moves the margin on x, and the sample weight that
        # multiplies each gradient before the clip (River's `learn_one(x, y, w)`)
        self._step = (
            1 if target else -1,
            self._weight_pos if target else self._weight_neg,
            self._clip,
            self._lr * (self._norm - 1.0) + self._intercept_lr,
            w,
        )
        self._moves = [0.0] * self.n_models  # each member's move along x: lr * sum of g
        self._trained = False
        return votes

    def vote_after(self, i: int, k: int) -> bool:
        m = self._margins[i]
        sign, weight, clip, curvature, w = self._step
        # k steps of weight w (River's AdaBoost), or one of weight k w (MOA's OzaBoost; River's
        # learn_one with that w)
        w = k * w if self.weighted else w
        total = 0.0
        for _ in range(1 if self.weighted else k):
            z = m * sign
            if z > 18.0:
                g = weight * math.exp(-z) * -sign
            elif z < -18.0:
                g = weight * -sign
            else:
                g = weight * -sign / (math.exp(z) + 1.0)
            g *= w
            if g > clip or g < -clip:
                g = clip if g > 0.0 else -clip
            total += g
            m -= g * curvature
        self._moves[i] = self._lr * total
        self.steps[i] += 1 if self.weighted else k
        self._trained = True
        return m > 0.0 if (m > _TIE_BAND or m < -_TIE_BAND) else _river_vote(m)

    def boost(self, target: bool, sc: list[float], sw: list[float],
              rng: random.Random) -> bool:
        if kernels.compiled is None:
            return False
        # the booster's loop with vote_after's arithmetic, in C (streamboost/_kernels.c)
        self._trained = kernels.compiled.oza_linear(
            self._margins, self._votes, target, self._step, self._lr, self.weighted,
            sc, sw, self._moves, self.steps, rng, KNUTH_MAX_RATE,
        )
        return True

    def commit(self) -> None:
        self._x = None  # the weights move: the cached margins go stale
        if not self._trained:
            return
        if kernels.compiled is not None:  # the same floats, without numpy's calls
            kernels.compiled.linear_commit(self.weights, self._moves, self._xa, self._ratio)
        else:
            along = self._xa.copy()
            along[0] = self._ratio  # the intercepts move at their own rate (1 where it is lr)
            self.weights[:, : len(along)] -= np.multiply.outer(self._moves, along)
        self.changed = True

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "_batch": _NO_BATCH}  # nor the last minibatch

    def batch_votes(self, X: np.ndarray) -> np.ndarray:
        return _vote_array(X @ self.weights[:, : X.shape[1]].T)

    def batch_scores(self, X: np.ndarray, alphas: list[float], total: float,
                     logistic: bool) -> np.ndarray | None:
        if _VOTE_SCORES is None or type(alphas) is not list:
            return None
        scores = np.empty(len(X))
        margins = X @ self.weights[:, : X.shape[1]].T  # as `batch_votes` makes them
        return scores if _VOTE_SCORES(margins, alphas, total, logistic, _TIE_BAND, scores) else None

    def soft_score(self, x: dict, alphas: list[float]) -> float:
        self.votes(x)  # the margins, kept for `begin`
        return _SOFT_SCORE(alphas, self._margins, True)

    def batch_soft_scores(self, X: np.ndarray, alphas: list[float]) -> np.ndarray:
        weights = self.weights[:, : X.shape[1]]
        if _LINEAR_SOFT_SCORES is not None and type(alphas) is list:
            scores = np.empty(len(X))
            _LINEAR_SOFT_SCORES(X, weights, alphas, scores)
            return scores
        # each margin summed over the columns in order, as `votes` sums it (not a matrix
        # product, whose order is BLAS's): the same floats as one row at a time
        margins = np.cumsum(X[:, None, :] * weights[None, :, :], axis=2)[:, :, -1]
        return np.array([soft_score(alphas, row, True) for row in margins.tolist()])

    def learn_batch(self, i: int, X: np.ndarray, ks: np.ndarray, targets: np.ndarray,
                    w: np.ndarray | None = None) -> np.ndarray:
        # One step along the gradients of every row, row b weighted by its draw k_b and its
        # sample weight w_b, all taken at the member's current weights (on one row: River's
        # learn_one with w = k w_b). The gradient is River's Log.gradient, -y c / (1 + e^{y m})
        # for the class weight c, with scipy's expit in place of River's branches beyond
        # |y m| > 18 (a relative 1.5e-8 there).
        batch_x, batch_targets, batch_w, rows, scale = self._batch
        if X is not batch_x or targets is not batch_targets or w is not batch_w:  # once a batch
            rows = X * np.where(targets, -1.0, 1.0)[:, None]  # row b times -y_b
            scale = np.where(targets, -self._weight_pos, self._weight_neg)  # -y c
            if w is not None:
                scale *= w
            self._batch = (X, targets, w, rows, scale)
        self.changed = True
        self._x = None
        # each sum in a fixed order (a cumsum, where a matrix product's is BLAS's), the
        # kernel's: a row's margin over the columns, a column's step over the rows
        w = self.weights[i, : X.shape[1]]
        g = expit(np.cumsum(rows * w, axis=1)[:, -1])
        g *= scale
        g *= ks
        np.minimum(g, self._clip, out=g)
        np.maximum(g, -self._clip, out=g)
        g *= self._lr
        step = np.cumsum(g[:, None] * X, axis=0)[-1]
        if self._ratio != 1.0:
            step[0] *= self._ratio  # the intercept moves at its own rate
        w -= step
        self.steps[i] += int(np.count_nonzero(ks))
        return _vote_array(np.cumsum(X * w, axis=1)[:, -1])

    def learn_frame(self, X: np.ndarray, targets: np.ndarray, w: np.ndarray | None,
                    generator: np.random.Generator, sc: list[float], sw: list[float]) -> bool:
        if kernels.compiled is None:
            return False
        self.changed = True
        self._x = None
        # `learn_batch` and the lambdas' update of every member, the same arithmetic, in C, in
        # place (a broadcast weight made contiguous: the kernel reads each row's)
        kernels.compiled.oza_linear_frame(
            generator.bit_generator.capsule, X, targets,
            None if w is None else np.ascontiguousarray(w), self.weights, self._weight_pos,
            self._weight_neg, self._clip, self._lr, self._ratio, sc, sw, self.steps)
        return True

    def export(self, members: list) -> None:
        keys = self._keys
        for member, row, steps in zip(members, self.weights.tolist(), self.steps, strict=True):
            member._weights = utils.VectorDict(dict(zip(keys, row[1:], strict=False)))
            member.intercept = row[0]
            member.optimizer.n_iterations = steps
