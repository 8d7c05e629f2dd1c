"""Any binary River classifier as a scorer: its P(positive), checked, and frozen copies of it."""

from __future__ import annotations

import collections
import pickle
import random
import sys
import typing

import numpy as np
from river import base, compose, linear_model, optim, preprocessing
from scipy.special import expit

from . import kernels
from .boosting import OzaBoostClassifier, table_scores
from .decision import positive_proba
from .members import ArrayMembers
from .state import InlineState, dict_only, get_state, inline_dumps, set_state, slot_names
from .validation import check_features, one_line
from .weak import DecisionStump, UnivariateLogisticRegression

if typing.TYPE_CHECKING:
    import pandas as pd

    from .calibration import Calibrator

__all__ = [
    "FrozenLogistic",
    "FrozenScorer",
    "Model",
    "PrequentialScore",
    "ScalerMap",
    "ScoredFrame",
    "booster",
    "calibrator_for",
    "check_model",
    "final_step",
    "frame_scores",
    "learns_bools",
    "named_step",
    "positive_score",
    "positive_scores",
    "snapshot",
]

#: What the wrappers take as a model: a River classifier, or a pipeline ending in one (River
#: types a pipeline apart from its steps).
Model: typing.TypeAlias = base.Classifier | compose.Pipeline

# `ArrayMembers.rows`'s kernels: a list of dicts of the same keys into a float table, and of
# dicts of some of the keys (None: none)
_FILL_ROWS = getattr(kernels.compiled, "fill_rows", None)
_FILL_COLUMNS = getattr(kernels.compiled, "fill_columns", None)
# the models beside which Platt's and beta's calibrators take Newton-sized steps by name (and
# the members whose probabilities, averaged by a soft booster, call for them)
_LOGISTIC = (linear_model.LogisticRegression, UnivariateLogisticRegression)
_SMOOTH = (*_LOGISTIC, DecisionStump)


def booster(model: base.Estimator) -> OzaBoostClassifier | None:
    """`model` if it is an `OzaBoostClassifier` itself, else None.

    River's `isinstance` also says True for a pipeline that *ends* in one (its metaclass looks at
    the last step), but a pipeline has none of the booster's attributes, and its steps must
    transform `x` first: it is scored through its own `predict_proba_one`. `final_step` reaches
    the booster inside.

    Examples
    --------
    >>> from river import linear_model, preprocessing
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import booster, final_step
    >>> oza = OzaBoostClassifier(linear_model.LogisticRegression())
    >>> model = preprocessing.StandardScaler() | oza
    >>> isinstance(model, OzaBoostClassifier), booster(model), booster(final_step(model)) is oza
    (True, None, True)

    """
    # `type(...) is` first: the scorers ask this once per example. Not isinstance, which a
    # pipeline ending in a booster passes (as the example shows), so mypy is told the type.
    return model if type(model) is OzaBoostClassifier or issubclass(  # type: ignore[return-value]
        type(model), OzaBoostClassifier) else None


def final_step(model: base.Estimator) -> base.Estimator:
    """The estimator at the end of `model`: its last step if a pipeline (nested ones too).

    Examples
    --------
    >>> from river import compose, linear_model, preprocessing
    >>> from streamboost.scores import final_step
    >>> inner = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    >>> type(final_step(compose.Pipeline(preprocessing.MinMaxScaler(), inner))).__name__
    'LogisticRegression'

    """
    while hasattr(model, "_last_step"):
        model = model._last_step
    return model


def check_model(model: typing.Any, pos_label: typing.Hashable = True, name: str = "model") -> None:
    """Raise TypeError unless `model` is a River classifier (a pipeline ending in one counts)
    with `predict_proba_one`; ValueError if it is an `OzaBoostClassifier` with another
    positive label.

    Examples
    --------
    >>> from river import linear_model, preprocessing
    >>> from streamboost.scores import check_model
    >>> check_model(preprocessing.StandardScaler() | linear_model.LogisticRegression())
    >>> check_model(linear_model.LinearRegression())
    Traceback (most recent call last):
    ...
    TypeError: model must be a River classifier with predict_proba_one, got LinearRegression ...

    """
    if not isinstance(model, base.Classifier) or not hasattr(model, "predict_proba_one"):
        raise TypeError(
            f"{name} must be a River classifier with predict_proba_one, got "
            f"{type(model).__name__} ({one_line(model)})"
        )
    final = final_step(model)
    default = base.Classifier.predict_proba_one
    if getattr(type(final), "predict_proba_one", default) is default:
        # River's default raises NotImplementedError, with no message, at the first score
        raise TypeError(
            f"{name} must give probabilities, and {type(final).__name__} has no "
            "predict_proba_one (River's VotingClassifier, OneVsOneClassifier and "
            "OutputCodeClassifier only vote): calibrating and deciding by costs need "
            "P(positive | x)")
    last = booster(final)
    if last is not None and last.pos_label != pos_label:
        raise ValueError(
            f"the booster's pos_label={last.pos_label!r} differs from pos_label={pos_label!r}"
        )


def calibrator_for(calibrator: str | Calibrator, model: Model,
                   gamma: float | None = None) -> Calibrator:
    """A fresh calibrator for `model`'s scores: `calibrator` (a name or a `Calibrator`) through
    `calibration.resolve`, told how many members vote when the model is an Oza booster with the
    vote score (its scores are vote fractions, clipped accordingly) and, by name, Platt's and
    beta's step `gamma` (None: `named_step(model)`).

    Examples
    --------
    >>> from river import linear_model, tree
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import calibrator_for
    >>> calibrator_for("platt", OzaBoostClassifier(linear_model.LogisticRegression())).eps
    0.045454545454545456
    >>> calibrator_for("platt", linear_model.LogisticRegression()).eps
    0.001
    >>> calibrator_for("platt", tree.HoeffdingTreeClassifier()).gamma
    0.1

    """
    from .calibration import resolve

    last = booster(final_step(model))  # a pipeline's booster scores the same votes
    votes = last.n_models if last is not None and last.score == "vote" else None
    return resolve(calibrator, vote_members=votes,
                   gamma=named_step(model) if gamma is None else gamma)


def named_step(model: Model) -> float:
    """The Online Newton Step parameter `gamma` that Platt's and beta's calibrators take by name
    beside `model`: 1 (Newton-sized steps) where its score is a logistic regression's or an
    average of smooth members' probabilities (an `OzaBoostClassifier` scored `"soft"` over
    logistic regressions, univariate ones or decision stumps; River's ensembles of logistic
    regressions, such as its `AdaBoostClassifier`), whose scores sit near 1/2 and need a map far
    from the identity; Gupta & Ramdas's 0.1 (ONS step 1/gamma from H0 = I/gamma^2, as in
    `OnlinePlattCalibrator`) beside any other model: a booster's vote, trees, forests, boosted
    trees, naive Bayes.

    Measured in simulations/platt_step.md (docs/calibration.md).

    Examples
    --------
    >>> from river import forest, linear_model, preprocessing
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import named_step
    >>> named_step(preprocessing.StandardScaler() | linear_model.LogisticRegression())
    1.0
    >>> named_step(OzaBoostClassifier(linear_model.LogisticRegression(), score="soft"))
    1.0
    >>> named_step(OzaBoostClassifier(linear_model.LogisticRegression()))  # the vote
    0.1
    >>> named_step(forest.ARFClassifier())
    0.1

    """
    last = final_step(model)
    oza = booster(last)
    if oza is not None:
        return 1.0 if oza.score == "soft" and isinstance(final_step(oza.model), _SMOOTH) else 0.1
    while isinstance(last, base.WrapperEnsemble):  # River's ensembles average their members'
        last = final_step(last.model)
    return 1.0 if isinstance(last, _LOGISTIC) else 0.1


def learns_bools(model: Model) -> bool:
    """Whether `model` must learn the labels as bools (True for the positive class).

    River's binary-only classifiers (`_multiclass` False: `LogisticRegression`, River's
    `AdaBoostClassifier` of them, pipelines ending in one) read any truthy label as True, so a
    stream labelled `"phish"`/`"legit"` would teach them one class; they learn
    `y == pos_label` and their P(True) is the score. Multiclass-capable models (trees, forests)
    learn the labels as they are. `OzaBoostClassifier` has labels of its own and learns them.

    Examples
    --------
    >>> from river import linear_model, tree
    >>> from streamboost.scores import learns_bools
    >>> learns_bools(linear_model.LogisticRegression())
    True
    >>> learns_bools(tree.HoeffdingTreeClassifier())
    False

    """
    return booster(final_step(model)) is None and not getattr(model, "_multiclass", True)


def positive_score(model: Model, x: dict, pos_label: typing.Hashable) -> float:
    """The model's P(pos_label | x), in [0, 1], for an `x` the caller has checked
    (`validation.check_features`).

    `OzaBoostClassifier` gives its thesis score directly; any other classifier's
    `predict_proba_one` is read with `decision.positive_proba`. An empty dict (a model that has
    seen no label yet, such as an untrained Hoeffding tree) is 1/2; a dict with more than two
    labels raises ValueError: the stream must be binary.

    Examples
    --------
    >>> from river import tree
    >>> from streamboost.scores import positive_score
    >>> model = tree.HoeffdingTreeClassifier()
    >>> positive_score(model, {"x": 1.0}, True)
    0.5
    >>> model.learn_one({"x": 1.0}, False)
    >>> positive_score(model, {"x": 1.0}, True)
    0.0

    """
    if (oza := booster(model)) is not None:
        return oza._score_one(x)
    return _proba_score(model, x, pos_label)


def _proba_score(model: Model, x: dict, pos_label: typing.Hashable) -> float:
    """`positive_score` of a model that is not an `OzaBoostClassifier`."""
    proba = model.predict_proba_one(x)
    if not proba:
        return 0.5
    try:
        return positive_proba(proba, pos_label)
    except ValueError as error:  # say whose output it was, and of what
        error.add_note(f"streamboost: {type(model).__name__}.predict_proba_one returned "
                       f"{proba!r} for x = {x!r}")
        raise


class PrequentialScore(InlineState):
    """A model's P(positive | x) computed once per prequential step, for the wrappers.

    `predict` checks `x` (`validation.check_features`), scores it with `positive_score` and keeps
    a copy of `x` with its score; `take`, when the wrapper then learns an equal `x`, returns that
    score instead of scoring `x` again (a copy, so an `x` the caller changed in between is scored
    afresh), and the dict for the model to learn. An `OzaBoostClassifier` is asked for its score
    directly; one with array members keeps its own copy of the `x` it scored last, which is
    shared rather than copied again, and `take` hands that very copy to the model, whose own
    "is this the x I scored?" check is then an identity test: one copy and one comparison of
    `x` per prequential step, not two and three. By minibatch, `keep_frame` keeps the last
    frame scored (`ScoredFrame`) with its values' bytes, and `kept_frame` hands it back for the
    same frame object with equal columns and the same bytes; `take` and `forget` drop it (the
    model learns).

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.scores import PrequentialScore
    >>> model = linear_model.LogisticRegression()
    >>> model.learn_one({"a": 1.0}, True)
    >>> scorer = PrequentialScore(model, True)
    >>> x = {"a": 2.0}
    >>> scorer.predict(x) == scorer.take(x)[0]  # the same score, computed once
    True
    >>> scorer.take({"a": float("nan")})
    Traceback (most recent call last):
    ...
    ValueError: feature 'a' is nan; expected a finite number within +/-1e+150 (leave a missing ...

    """

    __slots__ = ("_direct", "_frame", "_score", "_shared", "_x", "model", "pos_label")

    def __init__(self, model: Model, pos_label: typing.Hashable):
        self.model: typing.Any = model  # a booster is asked for its own score
        self.pos_label = pos_label
        oza = booster(model)
        self._direct = oza is not None
        self._shared = oza is not None and isinstance(oza._members, ArrayMembers)
        self._x: dict | None = None  # the last x predict scored, and its score
        self._score = 0.5
        self._frame: tuple | None = None  # (X, its columns, a copy of its values, ScoredFrame)

    def predict(self, x: dict) -> float:
        """The score of `x`, checked first; kept for a `take` of the same `x`."""
        check_features(x)  # `_fresh`, inlined: every prequential step comes here
        if self._direct:
            score = self.model._score_one(x)
        else:
            score = _proba_score(self.model, x, self.pos_label)
        # a copy: the caller may change x before learning it (array members have just made one)
        self._x = self.model._members._x if self._shared else dict(x)
        self._score = score
        return score

    def score(self, x: dict) -> float:
        """`predict`'s score of `x` if it just scored an equal `x`, nothing learned since, else
        `predict(x)`: a score asked for twice is computed once."""
        last = self._x
        if last is not None and (x is last or x == last):
            return self._score
        return self.predict(x)

    def take(self, x: dict) -> tuple[float, dict]:
        """The score of `x` for learning it and the dict to learn: `predict`'s score if it just
        scored an equal `x` (with array members: while their copy is still the one of that score,
        nothing learned or scored in between; the dict is then that copy), else `x` checked and
        scored now (a bad model output raises); the dict is `x` otherwise."""
        last, self._x = self._x, None
        self._frame = None  # the model is about to learn
        if last is not None and last == x:
            if not self._shared:
                return self._score, x
            if last is self.model._members._x:
                return self._score, last
        return self._fresh(x), x

    def _fresh(self, x: dict) -> float:
        check_features(x)
        if self._direct:
            return self.model._score_one(x)
        # not `positive_score`: whether the model is a booster was asked once, in __init__
        return _proba_score(self.model, x, self.pos_label)

    def forget(self) -> None:
        """Drop the kept scores (the model learned since: a minibatch)."""
        self._x = self._frame = None

    def keep_frame(self, X: pd.DataFrame, values: np.ndarray, scored: ScoredFrame) -> None:
        """Keep `scored`, the score of frame `X` whose checked values are `values`."""
        self._frame = (X, X.columns, values.tobytes(), scored)

    def kept_frame(self, X: pd.DataFrame, values: np.ndarray) -> ScoredFrame | None:
        """The kept `ScoredFrame` if `X` is its frame, with its columns and `values` still,
        byte for byte, else None. Equal bytes are equal values (a missing cell's NaN too); a
        value changed to an equal one of other bytes (0.0 to -0.0, a NaN to another NaN) is
        scored again, to the same scores: comparing bytes costs a tenth of numpy's
        `array_equal(..., equal_nan=True)` or less."""
        kept = self._frame
        if kept is None or kept[0] is not X:
            return None
        _, columns, kept_values, scored = kept
        if scored.widened() or not (X.columns is columns or X.columns.equals(columns)):
            return None
        return scored if values.tobytes() == kept_values else None

    def __getstate__(self) -> dict:
        # a checkpoint keeps no x and no frame
        names = slot_names(type(self))  # type: ignore[arg-type]  # mypy: a class is not Hashable
        return {**get_state(self, names), "_x": None, "_frame": None}


def positive_scores(model: Model, xs: typing.Sequence[dict],
                    pos_label: typing.Hashable) -> list:
    """`positive_score` of each checked example of `xs`: one matrix product for an
    `OzaBoostClassifier` whose members are arrays with a minibatch path (`table_scores`, equal
    to its scores one by one), else example by example.

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import positive_score, positive_scores
    >>> booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    >>> xs = [{"a": 1.0}, {"a": -1.0}] * 20
    >>> for x, y in zip(xs, [True, False] * 20):
    ...     booster.learn_one(x, y)
    >>> positive_scores(booster, xs, True) == [positive_score(booster, x, True) for x in xs]
    True

    """
    oza = booster(model)
    if oza is not None and xs:
        held = oza._members
        if held.minibatch:
            table = held.rows(_listed(xs))
            return table_scores(held, table, oza._vote_weights(), oza.score).tolist()
    return [positive_score(model, x, pos_label) for x in xs]


class ScoredFrame:
    """A frame, scored by a minibatch model as it stands, for the model to learn next.

    The wrappers' minibatch step scores a frame (the prequential scores their calibrator
    learns), then the model learns the same frame. An `OzaBoostClassifier` with array members
    scores the matrix of the frame (`ArrayMembers.frame`, which checks every cell) and learns
    that matrix: the frame is checked and converted once, not twice. Any other minibatch model
    scores with `frame_scores` and learns with its `learn_many`; the caller checks the frame.
    `table` is the booster's matrix (`ArrayMembers.frame`: its known columns), else None;
    `values`, the frame's `validation.matrix` if the caller checked it already.

    Examples
    --------
    >>> import pandas as pd
    >>> from river import linear_model
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import ScoredFrame
    >>> model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    >>> X = pd.DataFrame({"a": [1.0, -1.0] * 4})
    >>> scored = ScoredFrame(model, X, True)
    >>> scored.scores.tolist()  # nothing learned yet
    [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    >>> scored.learn([True, False] * 4)
    >>> model.score_one({"a": 1.0}) > 0.5 > model.score_one({"a": -1.0})
    True

    """

    __slots__ = ("frame", "model", "scores", "table")

    def __init__(self, model: Model, X: pd.DataFrame,
                 pos_label: typing.Hashable, values: np.ndarray | None = None):
        self.model: typing.Any = model  # a booster's table is learned by its `_learn_many`
        self.frame = X
        oza = booster(model)
        self.table: np.ndarray | None
        if oza is not None and oza._members.minibatch:
            # a bad cell raises, before any change (`values`: X's checked `matrix`, if made)
            self.table = oza._members.frame(X, values)
            self.scores = oza._score_table(self.table)
        else:
            self.table = None
            # a model the wrappers hand frames (`calibrated.learns_frames`)
            self.scores = frame_scores(model, X, pos_label)[0]  # type: ignore[arg-type]

    def widened(self) -> bool:
        """Whether the booster has met a feature since it made `table` (a `predict_proba_one`
        in between): the table no longer has its columns, so the frame must be scored again."""
        if self.table is None:
            return False
        held = self.model._members
        return self.table.shape[1] != len(held._keys) + (held.lead is not None)

    def learn(self, y: typing.Sequence, start: int = 0, weights: np.ndarray | None = None,
              **kwargs) -> None:
        """The model learns the rows of the frame from `start` on, labelled `y` (one label per
        row learned, as the model learns them), with their sample `weights` if any (checked
        floats, in row order: a booster reads them so, another model gets a Series on the
        rows' index, which River aligns); keyword arguments go to its `learn_many`."""
        X = self.frame.iloc[start:] if start else self.frame
        if self.table is not None:  # an array booster: the matrix it scored, not X again
            if weights is not None:
                kwargs["w"] = weights
            self.model._learn_many(X, y, self.table[start:], **kwargs)
            return
        import pandas as pd

        if weights is not None:
            kwargs["w"] = pd.Series(weights, index=X.index)
        self.model.learn_many(X, pd.Series(y, index=X.index), **kwargs)


def frame_scores(model: base.MiniBatchClassifier | compose.Pipeline, X: pd.DataFrame,
                 pos_label: typing.Hashable) -> tuple[np.ndarray, typing.Sequence]:
    """`positive_score` of each row of the checked frame `X` from one call of the model, and
    the labels its probabilities name (as `predict_one` reads a negative label from them): our
    booster's `score_many` and known labels, without a frame of probabilities; else the
    `pos_label` column of the model's `predict_proba_many` (row by row through
    `decision.positive_proba` where that column is missing or out of [0, 1]) and its columns.

    Examples
    --------
    >>> import pandas as pd
    >>> from river import linear_model
    >>> from streamboost.scores import frame_scores
    >>> model = linear_model.LogisticRegression()
    >>> model.learn_many(pd.DataFrame({"a": [1.0, -1.0]}), pd.Series([True, False]))
    >>> scores, labels = frame_scores(model, pd.DataFrame({"a": [2.0, -2.0]}), True)
    >>> scores.round(3).tolist(), list(labels)
    ([0.502, 0.498], [False, True])

    """
    if (oza := booster(model)) is not None:
        return oza.score_many(X), tuple(oza._labels.proba(0.5))  # its frame's columns
    proba = model.predict_proba_many(X)
    if len(proba) != len(X):
        raise ValueError(f"{type(model).__name__}.predict_proba_many gave {len(proba)} rows "
                         f"for a frame of {len(X)}")
    return positive_column(proba, pos_label), proba.columns


def positive_column(proba: pd.DataFrame, pos_label: typing.Hashable) -> np.ndarray:
    """P(`pos_label`) of each row of a `predict_proba_many` frame: its `pos_label` column, or
    row by row through `decision.positive_proba` (which checks each) where that column is
    missing or out of [0, 1]; a missing cell is an absent label, as in River's dicts, and a
    row without any, 0.5.

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.scores import positive_column
    >>> positive_column(pd.DataFrame({False: [0.2, 0.9], True: [0.8, 0.1]}), True).tolist()
    [0.8, 0.1]
    >>> positive_column(pd.DataFrame({False: [1.0, float("nan")]}), True).tolist()
    [0.0, 0.5]

    """
    if pos_label in proba.columns and len(proba.columns) <= 2:  # the usual frame
        p = proba[pos_label].to_numpy(dtype=float)
        if ((p >= -1e-9) & (p <= 1.0 + 1e-9)).all():  # NaN fails too
            return np.clip(p, 0.0, 1.0)
    rows = proba.to_dict(orient="records")
    return np.array(
        [positive_proba({k: v for k, v in row.items() if v == v} or 0.5, pos_label)
         for row in rows],
        dtype=float,
    )


def snapshot(model: base.Estimator) -> base.Estimator:
    """A frozen, independent copy of `model` with its learned state, for scoring.

    A pickle round trip (the fastest deep copy of River models) that lends the copy the
    model's `random.Random` generators instead of copying their states (River's Gaussian
    estimators, the numeric splitters of its trees, each hold one that only `sample` uses:
    their states were most of a grown tree's pickle). The copy only scores, and River's models
    draw nothing to predict. Reading an object's state for a pickle slows every later access
    to its attributes on CPython (docs/reliability.md), so the two then trade what they hold:
    the model, and each step of a pipeline, stay the objects they were and learn on with the
    copy's fresh objects; the copy keeps the ones they held. Where something a part holds
    refers to a part or to the whole, the trade would leave that reference on the wrong side:
    nothing is traded. An `OzaBoostClassifier` with array members (`streamboost.members`) is
    copied as arrays (`FrozenScorer`).

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.scores import snapshot
    >>> model = linear_model.LogisticRegression()
    >>> model.learn_one({"x": 1.0}, True)
    >>> weights = model.weights
    >>> frozen = snapshot(model)
    >>> model.learn_one({"x": 1.0}, False)
    >>> frozen.weights == weights, frozen.weights == model.weights, model.weights is weights
    (True, False, False)

    """
    lent: list[int] = []
    try:
        copy = pickle.loads(inline_dumps(model, {random.Random: lambda g: _lend(g, lent)}))
    finally:
        for key in lent:
            _LENT.pop(key, None)
    if _tradable(model, copy):
        for live, fresh in zip(_parts(model), _parts(copy), strict=True):
            old = dict(vars(live))
            set_state(live, vars(fresh))
            set_state(fresh, old)
        for pipeline in (model, copy):
            replan(pipeline)
    return copy


def replan(model: base.Estimator) -> None:
    """Drop a River pipeline's cached plan, which refers to what its steps hold (a union's
    pipelines), left on the other side by a trade: River rebuilds it from the steps when next
    used, as it does when a step is added (River 0.26's `Pipeline._plan`)."""
    if isinstance(model, compose.Pipeline) and getattr(model, "_plan", None) is not None:
        model._plan = None


def _parts(model) -> list:
    """What a user may hold of `model`: itself, or its pipeline's steps."""
    return list(model.steps.values()) if isinstance(model, compose.Pipeline) else [model]


# the reference counts below are CPython's up to 3.13 (3.14 may borrow references it counted)
_COUNTED = sys.implementation.name == "cpython" and sys.version_info < (3, 14)


def _tradable(model, copy) -> bool:
    """Whether `model`'s parts and their copies in `copy` can trade what they hold: each holds
    all of it in its `__dict__`, under the same names, and nothing a part holds refers to a
    part or the whole (the trade would leave such a reference on the other side)."""
    if not _COUNTED:
        return False
    pairs = list(zip(_parts(model), _parts(copy), strict=True))
    if not all(type(fresh) is type(live) and dict_only(type(live))  # type: ignore[arg-type]
               and vars(fresh).keys() == vars(live).keys() for live, fresh in pairs):  # fmt: skip
        return False
    # The references to the copy, and to each of its steps, that are not from what a part
    # holds: snapshot's name, this function's, `pairs`, and getrefcount's argument; for a
    # step, the pipeline's own (its steps, their caches), `pairs`, the loop's name, the argument.
    if not isinstance(copy, compose.Pipeline):
        return sys.getrefcount(copy) == 4
    if sys.getrefcount(copy) != 3:
        return False
    own = collections.Counter(map(id, _shallow(vars(copy).values())))
    return all(sys.getrefcount(step) == own[id(step)] + 3 for _, step in pairs)


def _shallow(values) -> typing.Iterator:
    """Everything in `values` and, recursively, in the tuples, lists, sets and dicts among
    them (keys and values), not looking inside any other object."""
    for value in values:
        yield value
        if isinstance(value, dict):
            yield from _shallow(value.keys())
            yield from _shallow(value.values())
        elif isinstance(value, (tuple, list, set, frozenset)):
            yield from _shallow(value)


_LENT: dict[int, random.Random] = {}  # the generators a snapshot in progress lends its copy


def _lend(generator: random.Random, lent: list[int]) -> tuple:
    _LENT[id(generator)] = generator
    lent.append(id(generator))
    return _borrowed, (id(generator),)


def _borrowed(key: int) -> random.Random:
    return _LENT[key]


class FrozenLogistic:
    r"""A River `LogisticRegression` frozen as its weights, scoring a list of examples at once.

    River's logistic regression predicts $P(\text{True} \mid x) = \sigma(w \cdot x + b)$
    (`BinaryLoss.mean_func`: exactly 0 below a logit of -30 and 1 above 30). A frozen copy
    needs nothing else: $w$ as an array over the weights' keys and $b$. A list of examples is
    then scored with one product and the sigmoid, where a `snapshot` pickles the whole model
    and calls `predict_proba_one` per example. A feature the model holds no weight for counts
    0, as in River's `VectorDict.dot`. After a `StandardScaler` in a pipeline (River's most
    common one) the scaler is frozen too (`ScalerMap`). Scores equal River's to rounding (the
    product adds the terms in another order, scipy's `expit` is not `math.exp`; the tests
    bound both).
    Supported (`supports`): `LogisticRegression` itself, with a loss whose mean function is
    the sigmoid and zero initial weights (River's defaults), whatever it learned with, alone
    or in a pipeline after at most one `StandardScaler` without a `window_size`.

    Examples
    --------
    >>> from river import linear_model, preprocessing
    >>> from streamboost.scores import FrozenLogistic
    >>> model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    >>> for x, y in [({"a": 1.0}, True), ({"a": -1.0}, False)] * 20:
    ...     model.learn_one(x, y)
    >>> xs = [{"a": 1.0}, {"a": -1.0, "b": 5.0}]  # "b": no weight, counts 0
    >>> before = [round(model.predict_proba_one(x)[True], 4) for x in xs]
    >>> frozen = FrozenLogistic(model)
    >>> model.learn_one({"a": 1.0}, False)  # the copy stays as it was
    >>> frozen.scores(xs).round(4).tolist(), before
    ([0.5449, 0.4551], [0.5449, 0.4551])

    """

    __slots__ = ("intercept", "keys", "scaler", "weights")

    def __init__(self, model: Model):
        if not self.supports(model):
            raise TypeError(
                f"FrozenLogistic freezes River's LogisticRegression with a sigmoid loss and zero "
                f"initial weights, alone or after a StandardScaler (see `supports`), got "
                f"{type(model).__name__} ({one_line(model)}); FrozenScorer copies any model")
        scaler, regression = _scaled(model)
        weights = regression._weights.to_dict()
        self.keys = list(weights)
        self.weights = np.fromiter(weights.values(), float, len(weights))
        self.intercept = float(regression.intercept)
        self.scaler = None if scaler is None else ScalerMap(scaler, self.keys)

    @staticmethod
    def supports(model: base.Estimator) -> bool:
        """Whether `model` is a logistic regression, alone or after a standard scaler in a
        pipeline, whose scores this class reproduces.

        Examples
        --------
        >>> from river import linear_model, optim, preprocessing
        >>> from streamboost.scores import FrozenLogistic
        >>> FrozenLogistic.supports(linear_model.LogisticRegression(optimizer=optim.Adam()))
        True
        >>> lr = linear_model.LogisticRegression()
        >>> FrozenLogistic.supports(preprocessing.StandardScaler() | lr)
        True
        >>> FrozenLogistic.supports(preprocessing.MinMaxScaler() | lr)  # a snapshot copies it
        False

        """
        regression = _scaled(model)[1]
        return (type(regression) is linear_model.LogisticRegression
                and type(regression.loss).mean_func is optim.losses.BinaryLoss.mean_func
                and type(regression.initializer) is optim.initializers.Zeros)

    def rows(self, xs: list[dict]) -> np.ndarray:
        """The examples `xs` (checked dicts of numbers) as a float matrix over `keys`, a
        feature absent from an example 0, or NaN before a scaler (`ScalerMap`)."""
        return _rows(xs, self.keys, None, 0.0 if self.scaler is None else np.nan)

    def scores(self, xs: typing.Sequence[dict], table: np.ndarray | None = None) -> np.ndarray:
        """P(True | x) of each example of `xs`, as the model was; `table`: `rows(xs)`, made
        already (by a copy with the same `keys`; it is not changed)."""
        table = self.rows(_listed(xs)) if table is None else table
        if self.scaler is not None:
            table = self.scaler(table)
        logits = table @ self.weights
        logits += self.intercept
        p = expit(logits)  # River's 1 / (1 + exp(-z)), to rounding, without overflow
        z = logits.tolist()
        if max(z, default=0.0) > 30.0 or min(z, default=0.0) < -30.0:
            p[logits > 30.0] = 1.0  # River's cut-offs (`utils.math.sigmoid`), rarely reached
            p[logits < -30.0] = 0.0
        return p


class ScalerMap:
    r"""River's `StandardScaler` frozen over a list of keys, mapping a matrix's columns.

    River maps each feature present in an example as $(x_j - \mu_j)/\sqrt{v_j}$, or 0 where
    $v_j = 0$ (a division by infinity here), or as $x_j - \mu_j$ without `with_std`, with its
    running means and variances; a feature absent from the example stays absent. The matrix
    marks an absent feature NaN, which the map makes 0: what it adds to a dot product.

    Examples
    --------
    >>> import numpy as np
    >>> from river import preprocessing
    >>> from streamboost.scores import ScalerMap
    >>> scaler = preprocessing.StandardScaler()
    >>> for x in [{"a": 1.0, "b": 5.0}, {"a": 3.0, "b": 5.0}]:
    ...     scaler.learn_one(x)
    >>> frozen = ScalerMap(scaler, ["a", "b"])
    >>> frozen(np.array([[3.0, 7.0], [np.nan, 7.0]])).tolist(), scaler.transform_one({"a": 3.0})
    ([[1.0, 0.0], [0.0, 0.0]], {'a': 1.0})

    """

    __slots__ = ("scale", "shift")

    def __init__(self, scaler: preprocessing.StandardScaler, keys: list):
        refusal = _unfrozen(scaler)
        if refusal is not None:
            raise (ValueError if type(scaler) is preprocessing.StandardScaler else TypeError)(
                f"ScalerMap freezes River's StandardScaler: {refusal}")
        # `.get`: the scaler's defaultdicts would grow on a lookup
        self.shift = np.array([scaler.means.get(key, 0.0) for key in keys])
        self.scale = None
        if scaler.with_std:
            variances = (scaler.vars.get(key, 0.0) for key in keys)
            self.scale = np.array([v**0.5 if v else np.inf for v in variances])

    def __call__(self, table: np.ndarray, start: int = 0) -> np.ndarray:
        """A mapped copy of `table`, its columns from `start` on (the keys'), the others as
        they are (a booster's intercept column)."""
        mapped = table.copy()
        part = mapped[:, start:]
        part -= self.shift
        if self.scale is not None:
            part /= self.scale
        absent = np.isnan(part)
        if absent.any():
            part[absent] = 0.0
        return mapped


def _scaled(model) -> tuple:
    """`(scaler, last)`: `model` itself as `last`, with no scaler (None), or a pipeline's last
    step after at most one scaler that `ScalerMap` freezes (`_unfrozen`); `(None, None)` for
    any other pipeline (it has no frozen form: a `snapshot`)."""
    if type(model) is not compose.Pipeline:
        return None, model
    *steps, last = model.steps.values()
    if not steps:
        return None, last
    if len(steps) == 1 and _unfrozen(steps[0]) is None:
        return steps[0], last
    return None, None


def frozen_by_pickle(model: Model, pos_label: typing.Hashable) -> bool:
    """Whether `FrozenScorer`'s copy of `model` is a pickle (`snapshot`), not its arrays: only
    then need it pickle. (A pickle reads the model's state, which slows its attribute reads for
    good on CPython: docs/reliability.md.)

    Examples
    --------
    >>> from river import linear_model, naive_bayes
    >>> from streamboost.scores import frozen_by_pickle
    >>> frozen_by_pickle(linear_model.LogisticRegression(), True)
    False
    >>> frozen_by_pickle(naive_bayes.GaussianNB(), True)
    True

    """
    return not (_array_booster(_scaled(model)[1])
                or (pos_label is True and FrozenLogistic.supports(model)))


def _array_booster(model) -> bool:
    """Whether `model` is an `OzaBoostClassifier` whose members are arrays with a minibatch
    path (`FrozenScorer` copies those)."""
    return booster(model) is not None and model._members.minibatch


def _unfrozen(scaler) -> str | None:
    """Why `ScalerMap` cannot freeze `scaler`, or None: it must be a `StandardScaler` without a
    `window_size` (whose means are objects), and no variance below 0 (River's batch update can
    leave one by rounding; River's map of that feature is then complex, which a snapshot
    reproduces, raising only for an example that has the feature)."""
    if type(scaler) is not preprocessing.StandardScaler:
        return f"got {type(scaler).__name__} ({one_line(scaler)})"
    if getattr(scaler, "window_size", None) is not None:
        return f"got one with window_size={scaler.window_size!r}; expected None"
    if scaler.with_std and min(scaler.vars.values(), default=0.0) < 0.0:  # rarely: named
        key, v = next((k, v) for k, v in scaler.vars.items() if v < 0.0)
        return f"feature {key!r} has variance {v!r}; expected >= 0 (its map would be complex)"
    return None


def _rows(xs: list[dict], keys: list, lead: float | None, absent: float) -> np.ndarray:
    """The examples `xs` (checked dicts of numbers) as a float matrix over `keys`, after a
    column of `lead` unless it is None; a feature absent from an example is `absent`."""
    offset = lead is not None
    table = np.empty((len(xs), offset + len(keys)))
    if offset:
        table[:, 0] = lead
    if xs and keys and not (_FILL_ROWS is not None and _FILL_ROWS(xs, keys, table)):
        if _FILL_COLUMNS is not None:  # some keys absent (one-hot indicators): in C
            table[:, offset:] = absent
            if _FILL_COLUMNS(xs, {key: j for j, key in enumerate(keys)}, table, offset, False):
                return table
        table[:, offset:] = [[x.get(key, absent) for key in keys] for x in xs]
    return table


def _listed(xs: typing.Sequence[dict]) -> list[dict]:
    """`xs` as a list, for the conversions that take one (a `validation.LazyRecords` makes
    its dicts here, when they are read)."""
    return xs if type(xs) is list else list(xs)


class FrozenScorer:
    """A frozen copy of `model` that scores lists of examples: P(`pos_label` | x) of each.

    The controller's reward scores a minibatch's sample with the model as it stood earlier. An
    `OzaBoostClassifier` whose members are arrays with a minibatch path
    (`streamboost.members`) is copied as its members' arrays and vote weights, and scores a
    list with one matrix product (a tenth of a pickle's copy, a fraction of a score per
    example); a River `LogisticRegression` as its weights (`FrozenLogistic`, scored P(True):
    the controller's score of a model that learns bools). Either may follow one
    `StandardScaler` in a pipeline, frozen as its means and variances (`ScalerMap`). Any
    other model is a `snapshot`, scored example by example. Scores equal `positive_score`'s
    on the model as it was (to rounding, which the tests bound).

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost import OzaBoostClassifier
    >>> from streamboost.scores import FrozenScorer
    >>> booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    >>> for x, y in [({"a": 1.0}, True), ({"a": -1.0}, False)] * 20:
    ...     booster.learn_one(x, y)
    >>> frozen = FrozenScorer(booster, True)
    >>> booster.learn_one({"a": 1.0}, False)
    >>> frozen.scores([{"a": 1.0}, {"a": -1.0}]).round(3).tolist()
    [1.0, 0.0]

    """

    def __init__(self, model: Model, pos_label: typing.Hashable):
        self.pos_label = pos_label
        scaler, last = _scaled(model)
        self._table: tuple = (None, None)  # the last examples scored, and their matrix
        self._members: ArrayMembers | None = None
        self._linear: FrozenLogistic | None = None
        self.model: typing.Any = None  # a snapshot of any other model
        self._scaler: ScalerMap | None = None
        if _array_booster(last):
            self._members = last._members.copy()
            self._alphas = list(last._vote_weights())
            self._score = last.score
            if scaler is not None:  # a scaler's matrix marks a feature absent NaN
                self._scaler = ScalerMap(scaler, self._members._keys)
        elif pos_label is True and FrozenLogistic.supports(model):
            self._linear = FrozenLogistic(model)
        else:
            self.model = snapshot(model)

    def scores(self, xs: typing.Sequence[dict], like: FrozenScorer | None = None
               ) -> np.ndarray:
        """The frozen model's P(positive) of each checked example of `xs`. `like`, a later copy
        of the same model that scored `xs` last, lends its matrix of them where it fits: a
        booster's columns extend this copy's (`ArrayMembers.can_borrow`), a logistic
        regression's keys are this copy's."""
        linear = self._linear
        if linear is not None:
            if (like is not None and like._table[0] is xs and like._linear is not None
                    and like._linear.keys == linear.keys):
                return linear.scores(xs, like._table[1])  # the later copy's matrix of xs
            table = linear.rows(_listed(xs))
            self._table = (xs, table)
            return linear.scores(xs, table)
        if self.model is not None:
            return np.array([positive_score(self.model, x, self.pos_label) for x in xs],
                            dtype=float)
        held = self._members
        assert held is not None  # an array booster's copy
        offset = held.lead is not None
        scaler = self._scaler
        if (like is not None and like._table[0] is xs and like._members is not None
                and held.can_borrow(like._members)):
            table = like._table[1][:, : len(held._keys) + offset]
        elif self._table[0] is xs:  # lent
            table = self._table[1]
        else:
            table = (held.rows(_listed(xs)) if scaler is None
                     else _rows(_listed(xs), held._keys, held.lead, np.nan))
            self._table = (xs, table)
        if scaler is not None:
            table = scaler(table, offset)
        return table_scores(held, table, self._alphas, self._score)

    def lend(self, xs: typing.Sequence[dict], table: np.ndarray) -> None:
        """Score `xs` from `table`, the matrix of them that the booster this copy was taken
        from made as it stood then (`ScoredFrame.table`: the same columns), instead of
        converting the dicts again (a later `scores(xs)`, or an earlier copy's `like`)."""
        held = self._members
        if held is None or self._scaler is not None:  # it scores from the dicts
            return
        # columns are only appended: the same width is the same columns (a key the booster met
        # in between, in a `predict_proba_one`, would widen this copy and not the table)
        if table.shape[1] == len(held._keys) + (held.lead is not None):
            self._table = (xs, table)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_table": (None, None)}  # a checkpoint keeps no examples
