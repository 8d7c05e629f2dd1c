"""What the weak learners share: one candidate per feature, the feature chosen online."""

from __future__ import annotations

import abc
import math
import numbers
import typing

import numpy as np
from river import base

from ..validation import check_features, is_real, plain_floats

__all__ = ["WeakLearner"]


class WeakLearner(base.Classifier):
    r"""A binary classifier that looks at one feature, the one it has found best so far.

    It keeps one candidate model per feature. Each example of weight $w$ is learned by the
    candidate of every feature present in it (an absent feature's candidate is left as it was):
    first the candidate's vote on the example is checked and its score $S_f$ moves by $+w$ if
    right and $-w$ if wrong, then the candidate learns. The learner votes with the candidate of
    highest score among the features present in `x`; a feature never seen has a fresh candidate
    and score 0. Ties go to the feature whose `repr` sorts first, so that the order of the keys
    in `x` does not matter.

    $S_f$ is the weighted count of prequential hits minus misses: an online analogue of batch
    boosting's weak learner, which fits one model per feature on the weighted sample and keeps
    the one of least weighted training error (thesis Section 8.1, univariate logistic
    regressions). When every feature is present in every example the candidates have seen the
    same weight $n$, and the highest $S_f = n - 2 \epsilon_f$ is the least prequential error
    $\epsilon_f$; with sparse features a candidate must earn its lead, instead of winning on a
    lucky first example.

    **Weights.** `oza_weight` is True: `OzaBoostClassifier` passes a draw $k$ as one example of
    weight $k$ (MOA's `OzaBoost`) rather than $k$ calls (River's `AdaBoostClassifier`). A
    subclass gives its candidates' parameters (`_fields`), their votes (`_candidate_votes`),
    their update on one example and on a minibatch (`_candidate_learn`,
    `_candidate_learn_batch`) and their probabilities (`_probabilities`), written for arrays of
    any shape so that `streamboost.members` applies the same arithmetic to a whole booster at
    once.

    Labels are booleans (or 0 and 1), as for River's `LogisticRegression`.

    Examples
    --------
    >>> from streamboost.weak import DecisionStump
    >>> model = DecisionStump()
    >>> for x, y in [({"a": 1.0, "b": 0.0}, True), ({"a": -1.0, "b": 0.0}, False)] * 5:
    ...     model.learn_one(x, y)
    >>> model.feature, model.predict_one({"b": 0.0, "a": 2.0})
    ('a', True)

    """

    oza_weight = True

    #: The names of a candidate's parameters, each held as an array with one item per feature.
    _fields: tuple[str, ...] = ()

    def __init__(self):
        self._index: dict = {}  # feature -> column
        self._score: np.ndarray = np.zeros(0)  # (not a fixed shape: a column per feature)
        self._params: dict[str, np.ndarray] = {name: np.zeros(0) for name in self._fields}

    @staticmethod
    @abc.abstractmethod
    def _candidate_votes(params: dict, xv: np.ndarray) -> np.ndarray:
        """Each candidate's vote (True = positive) on its feature's values `xv`."""

    @abc.abstractmethod
    def _candidate_learn(self, params: dict, xv: np.ndarray, target: bool, w) -> dict:
        """The candidates' parameters after learning `xv` (label `target`) with weight `w`."""

    @abc.abstractmethod
    def _candidate_learn_batch(
        self, params: dict, X: np.ndarray, targets: np.ndarray, w: np.ndarray
    ) -> dict:
        """The candidates' parameters (one per column of `X`) after learning the rows of `X`
        (labels `targets`, row b of column f with weight `w[b, f]`), every row's change taken
        at the same parameters and added up: Oza boosting by minibatch. On one row it is
        `_candidate_learn`'s arithmetic exactly, so a minibatch of one is `learn_one`."""

    @abc.abstractmethod
    def _probabilities(self, params: dict, xv: np.ndarray, votes: np.ndarray,
                       scores: np.ndarray) -> np.ndarray:
        """P(positive) given by each chosen candidate: its parameters, its feature's value, its
        vote and its score, each an array of the same shape (the booster's array engine asks
        for every member at once, this learner for one)."""

    # a weak learner learns the booster's bool targets, and predicts without keywords
    def learn_one(self, x: dict, y: bool, w: float = 1.0) -> None:  # type: ignore[override]
        target = _target(y)
        if not is_real(w) or not 0.0 <= w < math.inf:
            raise ValueError(f"w must be a finite number >= 0, got {w!r}")
        xv = self._values(check_features(x))  # refuses a bad x before any change
        for key in x:
            if key not in self._index:
                self._index[key] = len(self._score)
                self._score = np.append(self._score, 0.0)
                for name, values in self._params.items():
                    self._params[name] = np.append(values, 0.0)
        if not x:
            return
        cols = np.array([self._index[key] for key in x])
        params = {name: values[cols] for name, values in self._params.items()}
        right = self._candidate_votes(params, xv) == target
        self._score[cols] = self._score[cols] + float(w) * np.where(right, 1.0, -1.0)
        for name, values in self._candidate_learn(params, xv, target, float(w)).items():
            self._params[name][cols] = values

    def _choose(self, x: dict) -> tuple[dict, np.ndarray, bool, np.ndarray] | None:
        """The chosen candidate on `x`: its parameters, value, vote and score, all but the vote
        arrays of one item (None if x = {})."""
        xv = self._values(check_features(x))
        if not x:
            return None
        keys = list(x)
        cols = [self._index.get(key) for key in keys]
        scores = [0.0 if col is None else float(self._score[col]) for col in cols]
        best = min(range(len(keys)), key=lambda j: (-scores[j], repr(keys[j])))
        col = cols[best]
        params = {
            name: np.array([0.0 if col is None else values[col]])
            for name, values in self._params.items()
        }
        vote = bool(self._candidate_votes(params, xv[best : best + 1])[0])
        return params, xv[best : best + 1], vote, np.array([scores[best]])

    def predict_one(self, x: dict) -> bool:  # type: ignore[override]
        chosen = self._choose(x)
        return False if chosen is None else chosen[2]

    def predict_proba_one(self, x: dict) -> dict[bool, float]:  # type: ignore[override]
        chosen = self._choose(x)
        if chosen is None:
            return {False: 0.5, True: 0.5}
        params, xv, vote, score = chosen
        p = float(self._probabilities(params, xv, np.array([vote]), score)[0])
        return {False: 1.0 - p, True: p}

    @staticmethod
    def _values(x: dict) -> np.ndarray:
        # checked first: numpy would read None as nan and parse a str ('2' -> 2.0)
        if not plain_floats(x):
            bad = next((k for k, v in x.items() if not isinstance(v, numbers.Real)), None)
            if bad is not None:
                raise TypeError(
                    f"feature {bad!r} is {x[bad]!r}; a weak learner takes numbers only (encode "
                    "nominal features first, e.g. with preprocessing.OneHotEncoder, and leave a "
                    "missing value out of the dict)"
                )
        return np.fromiter(x.values(), dtype=float, count=len(x))

    @property
    def feature(self) -> typing.Hashable | None:
        """The feature of highest score (None before any example): the one it would choose
        on an example with every feature."""
        if not self._index:
            return None
        return min(self._index, key=lambda key: (-self._score[self._index[key]], repr(key)))


def _target(y) -> bool:
    if isinstance(y, (bool, np.bool_, numbers.Integral)) and y in (0, 1):
        return bool(y)
    raise ValueError(f"label {y!r} is not binary; a weak learner takes True/False (or 1/0)")
