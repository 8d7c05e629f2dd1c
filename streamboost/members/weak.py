"""Weak members (`streamboost.weak`) as arrays: one row per member, one column per feature."""

from __future__ import annotations

import bisect
import random
import typing

import numpy as np
from river import base

from .. import kernels
from ..poisson import KNUTH_MAX_RATE
from ..validation import matrix
from ..weak import DecisionStump, UnivariateLogisticRegression, WeakLearner
from ..weak.stump import stump_vote
from ..weak.univariate import gradients
from .base import ArrayMembers, floats, soft_score, soft_scores

# `score="soft"` in C (the same floats; the twin for a module built before this kernel)
_SOFT_SCORE = getattr(kernels.compiled, "soft_score", soft_score)
# one example's soft score from its chosen candidates (None: numpy's arithmetic, `soft_score`'s
# own below, the same floats); the kernel reads numpy's argmax as int64, intp on 64-bit builds
_WEAK_SOFT = (getattr(kernels.compiled, "weak_soft", None)
              if np.dtype(np.intp).itemsize == 8 else None)

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["StumpMembers", "UnivariateMembers", "WeakMembers"]

_NO_BATCH = (None, None, None, None)
# the most gradients (members x rows x columns) a minibatch's one compiled call reads at once:
# 16 MiB of them (100 members, 256 rows of 80 features)
_GRADIENT_CELLS = 1 << 21


def best_candidates(scores: np.ndarray, right: np.ndarray) -> tuple[list, list, list]:
    """For each member (row): its first highest-scoring candidate among those right on x and
    among those wrong, and the threshold 2k must exceed for the right one to win after weight
    k (`kernels.compiled.best_candidates` is its twin).

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.members.weak import best_candidates
    >>> scores = np.array([[3.0, 1.0, 3.0]])  # one member, three candidates
    >>> right = np.array([[False, True, True]])  # the candidates right on x
    >>> best_candidates(scores, right)  # tied with the wrong one, which comes first: 2k > 0
    ([0.0], [2], [0])

    """
    right_scores = np.where(right, scores, -np.inf)
    wrong_scores = np.where(right, -np.inf, scores)
    best_right = right_scores.argmax(axis=1)
    best_wrong = wrong_scores.argmax(axis=1)
    rows = np.arange(len(scores))
    gap = wrong_scores[rows, best_wrong] - right_scores[rows, best_right]
    # The right candidate wins after weight k iff S_r + k > S_w - k, i.e. 2k > gap, or
    # 2k = gap and it comes first; both sides are integers, so shift the tie by 1/2.
    switch = gap - 0.5 * (best_right < best_wrong)
    return switch.tolist(), best_right.tolist(), best_wrong.tolist()


class WeakMembers(ArrayMembers):
    r"""`n_models` weak learners of one kind as arrays: each candidate parameter and the scores
    form (members x features) matrices, so one set of array operations checks and updates every
    candidate of every member, with the learner's own arithmetic (`WeakLearner`).

    Member $i$'s vote after learning $x$ with weight $k$ needs no array work. Its candidates
    present in $x$ split into those right on $x$, whose scores all rise by $k$, and those
    wrong, whose scores all fall by $k$; the best of each group does not depend on $k$, so
    `begin` finds both and `vote_after` compares $S_r + k$ with $S_w - k$, then updates the
    winner alone, in scalars. Scores are sums of integer draws, so these comparisons are exact.
    A sample weight $w$ (`begin`'s `w`: weight $k w$, MOA's) that is not a whole number makes
    them sums of floats, whose rounding can tie two scores that differed: from then on, the
    member's scores are updated as the learner updates them and the first of the highest
    chosen, O(features), as it chooses.
    The columns are kept sorted by the features' `repr`, the learner's order for ties, so that
    the first of the highest scores in a row is the learner's choice.

    By minibatch (`learn_batch`), a member's candidates are checked on every row at its current
    parameters, then take one step that adds every row's change
    (`WeakLearner._candidate_learn_batch`); a table holds NaN where a row lacks a feature. A
    member's probability (the booster's `score="soft"`) is its chosen candidate's
    (`WeakLearner._probabilities`, every member at once), 1/2 on an x with no feature.
    """

    kind: type[WeakLearner]
    minibatch = True
    # the univariate regressions' (`UnivariateMembers`): their `lr`, `_move` and gradients
    _model: typing.Any
    _gradients: np.ndarray
    _switch: list[int]
    _best: list
    __slots__ = (
        "_batch",
        "_before",
        "_best",
        "_candidates",
        "_chosen",
        "_cols",
        "_fields",
        "_gradients",
        "_integral",
        "_ks",
        "_layout",
        "_model",
        "_names",
        "_params",
        "_params_x",
        "_right",
        "_score",
        "_scores_x",
        "_switch",
        "_target",
        "_w",
        "_xs",
        "_xv",
    )

    def __init__(self, model: WeakLearner, n_models: int, weighted: bool = True):
        if not weighted:
            raise ValueError(f"{type(self).__name__} learns a draw k as one example of weight k")
        super().__init__(n_models)
        self._model = model
        self._fields = model._fields
        # member x column, and field x member x column (a column per feature met)
        self._score: np.ndarray = np.zeros((n_models, 0))
        self._params: np.ndarray = np.zeros((len(self._fields), n_models, 0))
        self._names: list[str] = []  # repr of each column's feature, sorted
        self._layout: tuple = (None, None, None)  # x's keys, their order by column, the columns
        self._before: list[bool] = []
        self._batch: tuple = _NO_BATCH  # the last minibatch's table and what is derived from it
        self._w = 1.0  # the current example's sample weight
        self._integral = True  # every score a whole number: `vote_after`'s comparisons exact

    @classmethod
    def supports(cls, model: base.Classifier, weighted: bool = True) -> bool:
        return type(model) is cls.kind and weighted  # O(1) votes need a draw as one weight

    def _add_column(self, key) -> None:
        # inserted at its place in the learner's tie order; O(members x features), but a
        # feature is new only once
        name = repr(key)
        position = bisect.bisect(self._names, name)
        self._names.insert(position, name)
        self._keys.insert(position, key)
        self._columns = {key: j for j, key in enumerate(self._keys)}
        self._score = np.insert(self._score, position, 0.0, axis=1)
        self._params = np.insert(self._params, position, 0.0, axis=2)

    def _present(self, x: dict) -> tuple[np.ndarray, slice | np.ndarray]:
        """`x`'s values sorted by column, and their columns."""
        xv = floats(x, x.values(), len(x))
        keys = tuple(x)
        if keys != self._layout[0]:  # new features, or another order than the last example's
            for key in keys:
                if key not in self._columns:
                    self._add_column(key)
            cols = [self._columns[key] for key in keys]
            order = sorted(range(len(cols)), key=cols.__getitem__)
            ordered = [cols[j] for j in order]
            whole = ordered == list(range(len(self._keys)))
            self._layout = (keys, np.array(order, dtype=int), slice(None) if whole else ordered)
        _, order, cols = self._layout
        return xv[order], cols

    def votes(self, x: dict, alphas: list[float] | None = None) -> list[bool]:
        if x is self._x or x == self._x:  # a prequential loop scores, then learns, one x
            return self._before
        xv, cols = self._present(x)
        self._x = dict(x)
        self._xv, self._cols = xv, cols
        if not len(xv):
            self._before = [False] * self.n_models
            return self._before
        params = self._params[:, :, cols]
        self._params_x = params
        self._candidates = self._candidate_votes(params, xv)
        self._scores_x = scores = self._score[:, cols]
        self._chosen = scores.argmax(axis=1)  # the first of the highest: the learner's tie order
        self._before = self._candidates[np.arange(self.n_models), self._chosen].tolist()
        return self._before

    def soft_score(self, x: dict, alphas: list[float]) -> float:
        votes = self.votes(x)  # kept for `begin`
        if not len(self._xv):  # no candidate: every member's probability is 1/2
            return _SOFT_SCORE(alphas, [0.5] * self.n_models, False)
        if _WEAK_SOFT is not None:  # the chosen candidates' probabilities and their mean, in C
            return _WEAK_SOFT(self.kind is UnivariateLogisticRegression, self._params_x,
                              self._scores_x, self._chosen, self._xv, votes, alphas)
        members, best = np.arange(self.n_models), self._chosen
        chosen = {name: values[members, best]
                  for name, values in zip(self._fields, self._params_x, strict=True)}
        probabilities = self._model._probabilities(
            chosen, self._xv[best], np.array(votes), self._scores_x[members, best])
        return _SOFT_SCORE(alphas, probabilities.tolist(), False)

    def _candidate_votes(self, params: np.ndarray, xv: np.ndarray) -> np.ndarray:
        """Every candidate's vote on x's values `xv` (params: field x member x feature)."""
        return self.kind._candidate_votes(dict(zip(self._fields, params, strict=True)), xv)

    def begin(self, x: dict, target: bool, w: float = 1.0) -> list[bool]:
        before = self.votes(x)
        self._target = target
        self._w = w
        if w != 1.0 and self._integral and not float(w).is_integer():
            self._integral = False
        self._ks: list[float] = [0] * self.n_models  # k, or k w with a weight
        if not len(self._xv):
            return before
        right = self._candidates == target
        self._right = right
        search = best_candidates if kernels.compiled is None else kernels.compiled.best_candidates
        self._switch, *self._best = search(self._scores_x, right)
        self._xs = self._xv.tolist()
        self._prepare()
        return before

    def vote_after(self, i: int, k: float) -> bool:
        if self._w != 1.0:  # one step of weight k w (the River members' `w=k * w`)
            k = k * self._w
        self._ks[i] = k
        if not len(self._xv):
            return False
        if not self._integral:  # the scores as `commit` will leave them, and the first highest
            f = int((self._scores_x[i] + k * np.where(self._right[i], 1.0, -1.0)).argmax())
            return self._vote_after(i, f, k)
        best = self._best[0] if 2 * k > self._switch[i] else self._best[1]
        return self._vote_after(i, best[i], k)

    def boost(self, target: bool, sc: list[float], sw: list[float],
              rng: random.Random) -> bool:
        if kernels.compiled is None:
            return False
        # the booster's loop with vote_after's arithmetic, in C (streamboost/_kernels.c); with
        # no feature of x known, every vote after learning is False; with scores that are not
        # all whole numbers, the scores and hits for vote_after's exact choice
        stump = self.kind is DecisionStump
        exact: tuple = (None, None)
        if len(self._xv):
            gradients = None if stump else self._gradients
            candidates = (self._switch, *self._best, self._xs, self._params_x, gradients)
            if not self._integral:
                exact = (self._scores_x, self._right)
        else:
            candidates = (None, None, None, [], None, None)
        kernels.compiled.oza_weak(
            stump, self._before, target, sc, sw, self._ks, rng, KNUTH_MAX_RATE, *candidates,
            0.0 if stump else self._model.lr, self._w, *exact,
        )
        return True

    def _prepare(self) -> None:
        """Array work on every candidate that the update needs (after `begin` set x)."""

    def _vote_after(self, i: int, f: int, k: float) -> bool:
        """Member i's candidate at position f (of x's values by column) votes after learning
        x with weight k."""
        raise NotImplementedError

    def commit(self) -> None:
        self._x = None  # the parameters move: what was computed on x goes stale
        if not len(self._xv) or not any(self._ks):
            return
        cols = self._cols
        if kernels.compiled is not None:  # the same floats, in place, without numpy's calls
            stump = self.kind is DecisionStump
            kernels.compiled.weak_commit(
                stump, self._target, self._ks, self._right, self._scores_x, self._score,
                self._params_x, self._params, None if type(cols) is slice else cols, self._xv,
                None if stump else self._gradients, 0.0 if stump else self._model.lr)
            self.changed = True
            return
        weights = np.array(self._ks, dtype=float)[:, None]
        self._score[:, cols] = self._scores_x + weights * np.where(self._right, 1.0, -1.0)
        learned = self._learn(dict(zip(self._fields, self._params_x, strict=True)), weights)
        for name, values in learned.items():
            self._params[self._fields.index(name)][:, cols] = values
        self.changed = True

    def _learn(self, params: dict, weights: np.ndarray) -> dict:
        return self._model._candidate_learn(params, self._xv, self._target, weights)

    # ------------------------------------------------------------------ minibatches
    # A table has one column per known feature, NaN where a row lacks the feature: an absent
    # key, whose candidate neither votes nor learns (where `ArrayMembers` puts 0, a weight's
    # neutral value, a weak learner would find a fresh candidate).

    def frame(self, X: pd.DataFrame, values: np.ndarray | None = None) -> np.ndarray:
        if values is None:
            values = matrix(X)  # checked before any column is added
        positions = self._positions(X.columns)
        out = np.full((len(values), len(self._keys)), np.nan)
        out[:, positions] = values
        return out

    def rows(self, xs: list[dict]) -> np.ndarray:
        parsed = [floats(x, x.values(), len(x)) for x in xs]  # every value checked first
        for x in xs:
            for key in x:
                if key not in self._columns:
                    self._add_column(key)
        out = np.full((len(xs), len(self._keys)), np.nan)
        columns = self._columns
        for row, x, values in zip(out, xs, parsed, strict=True):
            row[[columns[key] for key in x]] = values
        return out

    def can_borrow(self, other: ArrayMembers) -> bool:
        # a feature this copy never saw would have a fresh candidate, which may win the vote
        return other._keys == self._keys

    def _parts(self, X: np.ndarray) -> tuple:
        """X's cells present, X with 0 in the absent ones, and each row's weight mask (cached
        for the minibatch, which every member learns in turn)."""
        if self._batch[0] is not X:
            present = ~np.isnan(X)
            self._batch = (X, present, np.where(present, X, 0.0), present.any(axis=1))
        return self._batch[1:]

    def _chosen_votes(self, scores: np.ndarray, params: np.ndarray, X: np.ndarray,
                      soft: bool = False) -> np.ndarray:
        """The votes on the rows of table `X` of members with these scores (members x
        columns) and parameters (field x members x columns): each row's chosen candidate is the
        first of the highest scores among the features present in it, as `votes` chooses.
        `soft`: the chosen candidates' probabilities instead (1/2 on a row with no feature)."""
        present, xs, some = self._parts(X)
        width = X.shape[1]
        scores = scores[:, :width]
        if present.all():  # every row has every feature: one choice per member
            best = np.broadcast_to(scores.argmax(axis=1), (len(X), len(scores)))
        else:
            best = np.where(present[:, None, :], scores, -np.inf).argmax(axis=2)
        members = np.arange(len(scores))
        chosen = {
            name: values[members, best] for name, values in zip(self._fields, params, strict=True)
        }
        values = np.take_along_axis(xs, best, axis=1)
        votes = self.kind._candidate_votes(chosen, values)
        votes &= some[:, None]  # a row with no feature: no candidate, the vote is False
        if not soft:
            return votes
        probabilities = self._model._probabilities(chosen, values, votes, scores[members, best])
        probabilities[~some] = 0.5
        return probabilities

    def batch_votes(self, X: np.ndarray) -> np.ndarray:
        return self._chosen_votes(self._score, self._params[:, :, : X.shape[1]], X)

    def batch_soft_scores(self, X: np.ndarray, alphas: list[float]) -> np.ndarray:
        probabilities = self._chosen_votes(self._score, self._params[:, :, : X.shape[1]], X,
                                           soft=True)
        return soft_scores(alphas, probabilities)

    def learn_batch(self, i: int, X: np.ndarray, ks: np.ndarray, targets: np.ndarray,
                    w: np.ndarray | None = None) -> np.ndarray:
        # Every candidate's vote on each row at the member's current parameters moves its score
        # by +-k_b w_b; then one step on the minibatch (`WeakLearner._candidate_learn_batch`).
        present, xs, _ = self._parts(X)
        width = X.shape[1]
        self._weigh(w)
        weights = np.where(present, (ks if w is None else ks * w)[:, None].astype(float), 0.0)
        params = dict(zip(self._fields, self._params[:, i, :width], strict=True))
        right = self.kind._candidate_votes(params, xs) == targets[:, None]
        score = self._score[i, :width] + (weights * np.where(right, 1.0, -1.0)).sum(axis=0)
        learned = self._model._candidate_learn_batch(params, xs, targets, weights)
        self._score[i, :width] = score
        for name, values in learned.items():
            self._params[self._fields.index(name), i, :width] = values
        self._x = None
        self.changed = True
        return self._chosen_votes(score[None], self._params[:, i : i + 1, :width], X)[:, 0]

    def _weigh(self, w: np.ndarray | None) -> None:
        """Note a minibatch's sample weights `w` (None: 1): one that is not a whole number makes
        `vote_after`'s comparisons inexact from then on."""
        if w is not None and self._integral and not np.all(w == np.floor(w)):
            self._integral = False

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "_batch": _NO_BATCH}

    def export(self, members: list) -> None:
        width = len(self._keys)
        for i, member in enumerate(members):
            member._index = dict(self._columns)
            member._score = self._score[i, :width].copy()
            member._params = {
                name: values[i, :width].copy()
                for name, values in zip(self._fields, self._params, strict=True)
            }


class UnivariateMembers(WeakMembers):
    """`UnivariateLogisticRegression` members as arrays."""

    kind = UnivariateLogisticRegression
    __slots__ = ()

    def learn_frame(self, X: np.ndarray, targets: np.ndarray, w: np.ndarray | None,
                    generator: np.random.Generator, sc: list[float], sw: list[float]) -> bool:
        # one column: numpy sums a minibatch's rows pairwise, the kernel in row order; and the
        # kernel reads every member's gradients at once, so a minibatch too large for them in
        # memory stays with the twin, whose numpy calls its size amortises
        members, width = len(self._score), X.shape[1]
        if kernels.compiled is None or width < 2 or members * X.size > _GRADIENT_CELLS:
            return False
        _, xs, _ = self._parts(X)
        coef, bias = self._params[0, :, :width], self._params[1, :, :width]
        # numpy's exp, as the twin's steps take it (`_candidate_learn_batch`): a member's
        # gradients depend on its own parameters only, which no other member's step changes
        margins = np.multiply(coef[:, None, :], xs)
        np.add(margins, bias[:, None, :], out=margins)
        g = gradients(margins, targets[:, None], out=margins)
        self._weigh(w)
        self.changed = True
        self._x = None
        kernels.compiled.oza_univariate_frame(
            generator.bit_generator.capsule, X, targets,
            None if w is None else np.ascontiguousarray(w), self._score, self._params, sc, sw,
            g, self._model.lr)
        return True

    def _prepare(self) -> None:
        coef, bias = self._params_x
        self._gradients = gradients(coef * self._xv + bias, self._target)

    def _vote_after(self, i: int, f: int, k: float) -> bool:
        # the learner's step (`_move`) on one candidate, in the same order of operations
        params, x = self._params_x, self._xs[f]
        step = k * (self._model.lr * self._gradients.item(i, f))
        return (params.item(0, i, f) - step * x) * x + (params.item(1, i, f) - step) > 0.0

    def _learn(self, params: dict, weights: np.ndarray) -> dict:
        return self._model._move(params, self._xv, self._gradients, weights)


class StumpMembers(WeakMembers):
    """`DecisionStump` members as arrays."""

    kind = DecisionStump
    __slots__ = ()

    def _candidate_votes(self, params: np.ndarray, xv: np.ndarray) -> np.ndarray:
        if kernels.compiled is None:
            return super()._candidate_votes(params, xv)
        votes = np.empty(params.shape[1:], dtype=bool)  # the same rule, stump_vote, in C
        kernels.compiled.stump_votes(params, xv, votes)
        return votes

    def batch_votes(self, X: np.ndarray) -> np.ndarray:
        if kernels.compiled is None or not X.shape[1]:
            return super().batch_votes(X)
        votes = np.empty((len(X), self.n_models), dtype=bool)  # `_chosen_votes`' rule, in C
        kernels.compiled.stump_frame_votes(self._score, self._params, X, votes, None)
        return votes

    def batch_soft_scores(self, X: np.ndarray, alphas: list[float]) -> np.ndarray:
        if kernels.compiled is None or not X.shape[1]:
            return super().batch_soft_scores(X, alphas)
        votes = np.empty((len(X), self.n_models), dtype=bool)  # `_chosen_votes(soft=True)`
        probabilities = np.empty((len(X), self.n_models))
        kernels.compiled.stump_frame_votes(self._score, self._params, X, votes, probabilities)
        return soft_scores(alphas, probabilities)

    def learn_frame(self, X: np.ndarray, targets: np.ndarray, w: np.ndarray | None,
                    generator: np.random.Generator, sc: list[float], sw: list[float]) -> bool:
        # one column: numpy sums the rows of a minibatch pairwise, the kernel in row order
        if kernels.compiled is None or X.shape[1] < 2:
            return False
        self._weigh(w)
        self.changed = True
        self._x = None
        # `learn_batch`, `_chosen_votes` and the lambdas' update of every member, the same
        # arithmetic, in C, in place (a broadcast weight made contiguous)
        kernels.compiled.oza_stump_frame(
            generator.bit_generator.capsule, X, targets,
            None if w is None else np.ascontiguousarray(w), self._score, self._params, sc, sw)
        return True

    def _vote_after(self, i: int, f: int, k: float) -> bool:
        params, x = self._params_x, self._xs[f]
        n_pos, n_neg = params.item(0, i, f), params.item(1, i, f)
        s_pos, s_neg = params.item(2, i, f), params.item(3, i, f)
        if self._target:
            return stump_vote(n_pos + k, n_neg, s_pos + k * x, s_neg, x)
        return stump_vote(n_pos, n_neg + k, s_pos, s_neg + k * x, x)
