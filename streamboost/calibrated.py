"""Any River classifier, calibrated online, with minimum-expected-cost decisions."""

from __future__ import annotations

import collections
import functools
import typing

import numpy as np
from river import base, compose

from .boosting import OzaBoostClassifier
from .calibration import Calibrator
from .calibration.base import check_score
from .checkpoint import Checkpointable
from .decision import (
    BinaryLabels,
    Costs,
    CostSensitiveMixin,
    _no_costs,
    labelled,
    validate_costs,
)
from .reward import calibrated, calibrated_many
from .scores import (
    Model,
    PrequentialScore,
    ScoredFrame,
    booster,
    calibrator_for,
    check_model,
    learns_bools,
    positive_score,
    positive_scores,
)
from .validation import (
    cell,
    check_dataframe,
    check_features,
    check_int,
    check_keywords,
    check_weight,
    matrix,
    non_numeric,
    one_line,
    per_row,
    records,
    row_keywords,
    row_weights,
)

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["CalibratedClassifier"]

_LEARN_WITHOUT_COSTS = "the model and its calibrator learn without costs"


class CalibratedPredictions:
    """The predictions of a wrapper that calibrates its model's scores (`CalibratedClassifier`,
    `BanditCalibratedClassifier`), of one example or of a frame: for a frame, checked first,
    the model scores every row (by minibatch when it learns by minibatch, `scores.ScoredFrame`,
    kept for a `learn_many` of the same frame; else row by row), the calibrator maps the
    scores. The wrapper has `_wrapped_model`, `_calibrator`, `_labels`, `_score_key`, `_scorer`
    (a `scores.PrequentialScore`) and `CostSensitiveMixin`'s `_frame_thresholds`."""

    # the wrapper's (see above)
    _calibrator: Calibrator
    _labels: BinaryLabels
    _score_key: typing.Hashable
    _scorer: PrequentialScore
    if typing.TYPE_CHECKING:
        @property
        def _wrapped_model(self) -> Model: ...

        def _frame_thresholds(self, caller: str, c_fp, c_fn, X: pd.DataFrame, kwargs: dict
                              ) -> float | np.ndarray: ...

    @property
    def _multiclass(self) -> bool:
        return False

    @property
    def calibrator_(self) -> Calibrator:
        """The calibrator being trained."""
        return self._calibrator

    def predict_proba_one(self, x: dict, **kwargs) -> dict[typing.Hashable, float]:
        if kwargs:
            self._no_keywords("predict_proba_one", kwargs)
        score = self._scorer.predict(x)  # learn_one reuses it in a prequential loop
        return self._labels.proba(calibrated(self._calibrator, score))

    def score_one(self, x: dict, **kwargs) -> float:
        """The model's own P(positive | x), not calibrated: the score to keep with a decision
        whose label comes late, for `CalibratedClassifier.learn_one(x, y, score=...)`. Right
        after `predict_proba_one(x)` it is that call's score, not computed again.

        Examples
        --------
        >>> from river import datasets, linear_model
        >>> from streamboost import CalibratedClassifier
        >>> model = CalibratedClassifier(linear_model.LogisticRegression())
        >>> (x, y), (later, _) = datasets.Phishing().take(2)
        >>> p = model.predict_proba_one(x)  # decided; the label will come later
        >>> served = model.score_one(x)     # kept with the decision
        >>> model.predict_proba_one(later)  # another example meanwhile
        {False: 0.5, True: 0.5}
        >>> model.learn_one(x, y, score=served)  # the label: the calibrator learns `served`
        >>> model.calibrator_.n_seen, model.model.weights != {}
        (1, True)

        """
        if kwargs:
            self._no_keywords("score_one", kwargs)
        return self._scorer.score(x)

    @property
    def _minibatch(self) -> bool:
        """Whether the model learns and scores by minibatch (`learns_frames`)."""
        return learns_frames(self._wrapped_model)

    def _unit_test_skips(self) -> set[str]:
        # the model's own learn_many is not its learn_one loop (as River says of its own)
        return {"check_learn_many_matches_learn_one"} if self._minibatch else set()

    def _check_kwargs(self, kwargs: dict, method: str = "learn_one",
                      rows: int | None = None) -> None:
        """Keyword arguments that the model's `method` will be passed, checked before anything
        changes (a minibatch started, a number drawn): a sample weight, one per row for a
        frame of `rows` (`validation.check_weight`), and names the model takes
        (`validation.check_keywords`; an `OzaBoostClassifier`'s own rule); no cost (`_no_costs`)
        nor, for the controller, a served score (`CalibratedClassifier`'s own keyword)."""
        _no_costs(self, method, kwargs, _LEARN_WITHOUT_COSTS)
        if "score" in kwargs:
            raise TypeError(
                f"{type(self).__name__}.{method} got score={one_line(kwargs['score'])}: a "
                "served score is CalibratedClassifier's (learn_one(x, y, score=...)); the "
                "controller learns and rewards the scores it computes")
        model = self._wrapped_model
        if (oza := booster(model)) is not None:
            oza._check_kwargs(kwargs, method, rows)
            return
        check_weight(kwargs, rows)
        check_keywords(model, method, kwargs)

    def _takes(self, kwargs: dict, method: str, rows: int) -> bool:
        """Whether the model's `method` takes these checked-to-be keyword arguments for a frame
        of `rows` rows (`_check_kwargs`): False where it does not take one of their names; a
        bad weight still raises."""
        try:
            self._check_kwargs(kwargs, method, rows)
        except TypeError:
            return False
        return True

    def _no_keywords(self, method: str, kwargs: dict) -> None:
        """Refuse the keyword arguments of a prediction, which reach nothing: a misspelt cost
        (`predict_one(x, c_FP=10)`) would otherwise decide at the default costs, silently."""
        if kwargs:
            raise TypeError(
                f"{type(self).__name__}.{method} takes no keyword argument "
                f"{next(iter(kwargs))!r} (predict_one and predict_many take the costs c_fp and "
                f"c_fn; nothing else is passed to the model)"
            )

    def predict_proba_many(self, X: pd.DataFrame, **kwargs) -> pd.DataFrame:
        """The calibrated probabilities of every row of `X`: `predict_proba_one`'s, scored
        with the model's `predict_proba_many` when it has one."""
        import pandas as pd

        check_dataframe(X, "predict_proba_many")
        self._no_keywords("predict_proba_many", kwargs)
        p = calibrated_many(self._calibrator, self._frame_scores(X))
        labels = self._labels
        if labels.negative is None:
            columns, p = [labels.pos_label], p[:, None]
        else:
            columns, p = [labels.negative, labels.pos_label], np.column_stack((1.0 - p, p))
        # one array, not a dict of columns: a third of the frame's cost
        return pd.DataFrame(p, index=X.index, columns=_columns(tuple(columns)), copy=False)

    def predict_many(
        self, X: pd.DataFrame, *, c_fp: float | Costs | None = None,
        c_fn: float | Costs | None = None, **kwargs
    ) -> pd.Series:
        """The minimum-expected-cost label of every row of `X`: `predict_one`'s, costs per call
        (a number, or one per row: `decision.cost_thresholds`) or from `set_costs`."""
        import pandas as pd

        check_dataframe(X, "predict_many")
        self._no_keywords("predict_many", kwargs)
        threshold = self._frame_thresholds("predict_many", c_fp, c_fn, X, {})
        p = calibrated_many(self._calibrator, self._frame_scores(X))
        labels = self._labels
        return pd.Series(labelled(p > threshold, labels.pos_label, labels.negative),
                         index=X.index, dtype=object)

    def _frame_scores(self, X: pd.DataFrame) -> np.ndarray:
        """The model's score of every row of `X`, the frame checked first: at once where the
        model scores it (`scores_at_once`), else row by row."""
        at_once, values = scores_at_once(self._wrapped_model, X)
        if at_once:
            return self._score_frame(X, values).scores
        return np.array([positive_score(self._wrapped_model, x, self._score_key)
                         for x in records(X)], dtype=float)

    def _score_frame(self, X: pd.DataFrame, values: np.ndarray | None) -> ScoredFrame:
        """`X`, checked (`values`: its `check_frame`), scored by the minibatch model as it
        stands: the scores of a prediction on that very frame, unchanged, with nothing learned
        since (a prequential loop predicts a minibatch, then learns it:
        `PrequentialScore.kept_frame`), else scored now, and kept."""
        if values is None:  # columns of text: scored anew (the cache compares numbers)
            try:
                return ScoredFrame(self._wrapped_model, X, self._score_key)
            except (TypeError, ValueError) as error:
                error.add_note(f"streamboost: {type(self._wrapped_model).__name__} raised "
                               f"scoring a frame whose column(s) {non_numeric(X)} are not "
                               "numbers (a model that cannot take them needs a pipeline that "
                               "encodes them first); nothing learned")
                raise
        scorer = self._scorer
        scored = scorer.kept_frame(X, values)
        if scored is None:
            scored = ScoredFrame(self._wrapped_model, X, self._score_key, values)
            scorer.keep_frame(X, values, scored)
        return scored


def _served(score: typing.Any, rows: int) -> np.ndarray:
    """A frame's served scores (`learn_many(score=...)`), checked as `learn_one`'s are, each
    (a bool or a str is not a score, though numpy would read one): `rows` reals in [0, 1], a
    Series read by position."""
    values = score.tolist() if hasattr(score, "tolist") else score
    if isinstance(values, str) or not isinstance(values, typing.Sequence) or (
            len(values) != rows):
        count = (len(values) if isinstance(values, typing.Sized) and not isinstance(values, str)
                 else f"{values!r}, not a sequence")
        raise ValueError(f"score must give one served score per row: {rows}, got {count}")
    checked = []
    for i, value in enumerate(values):
        try:
            checked.append(check_score(value))
        except ValueError as error:
            raise ValueError(f"{error} at position {i}") from None
    return np.array(checked, dtype=float)


def check_frame(model: Model, X: pd.DataFrame) -> np.ndarray | None:
    """`X` checked before a wrapper's minibatch `model` scores or learns it (`frame_values`),
    a missing cell refused where the model's minibatch methods cannot take it (ours can):
    its values, or None where it has columns of text."""
    values, numeric = frame_values(model, X)
    if booster(model) is None and np.isnan(numeric).any():
        row, column = np.argwhere(np.isnan(numeric))[0]
        X = X.drop(columns=non_numeric(X)) if values is None else X
        raise ValueError(
            f"{cell(X.index[row], X.columns[column])} is missing (NaN); "
            f"{type(model).__name__}'s minibatch methods take no missing values: fill them, "
            "or learn row by row with learn_one (a missing key is an absent feature)"
        )
    return values


def scores_at_once(model: Model, X: pd.DataFrame) -> tuple[bool, np.ndarray | None]:
    """Whether a wrapper's prediction scores the frame `X` with one call of `model` (checked
    first: `frame_values`), and its values: where the model scores frames (`learns_frames`) and
    no cell is missing that it cannot take. Our booster takes them; a River model's minibatch
    methods do not, and row by row a missing cell is an absent feature: the same predictions
    (a frame with one is refused only where it would be learned: `check_frame`).

    Examples
    --------
    >>> import pandas as pd
    >>> from river import linear_model, tree
    >>> from streamboost.calibrated import scores_at_once
    >>> X = pd.DataFrame({"a": [1.0, 2.0]})
    >>> [scores_at_once(m, X)[0] for m in (linear_model.LogisticRegression(),
    ...                                    tree.HoeffdingTreeClassifier())]
    [True, False]
    >>> scores_at_once(linear_model.LogisticRegression(), X.assign(a=[1.0, None]))[0]
    False

    """
    if not learns_frames(model):
        return False, None
    values, numeric = frame_values(model, X)
    if booster(model) is not None:
        return True, values
    text = values is None and X[non_numeric(X)].isna().to_numpy().any()
    return not (text or np.isnan(numeric).any()), values


def frame_values(model: Model, X: pd.DataFrame) -> tuple[np.ndarray | None,
                                                                    np.ndarray]:
    """`X`'s values and those of its numeric columns (`validation.matrix`: a bad cell raises,
    naming its row and column; a missing one is NaN). A River model may take columns that are
    not numbers (a pipeline that encodes them, as River's own `learn_many` does): for it such
    a frame's values are None, its numeric columns checked; the others are its business, as
    a str is in `learn_one`. Our booster's members take numbers only (TypeError naming the
    column)."""
    try:
        values = matrix(X)
    except TypeError:
        if booster(model) is not None:
            raise
        return None, matrix(X.drop(columns=non_numeric(X)))
    return values, values


def learns_frames(model: Model) -> bool:
    """Whether the wrappers hand `model` whole frames: a River `MiniBatchClassifier` (a
    pipeline claims to be one when its last step is), each step of a pipeline mapping a frame
    too (River's anomaly filters have no `transform_many`), and not one of River's naive Bayes
    models, whose `learn_many` names each class by its text (River 0.26: True becomes the
    class 'True', in `predict_proba_one` too). The others learn a frame row by row.

    Examples
    --------
    >>> from river import anomaly, linear_model, naive_bayes, preprocessing
    >>> from streamboost.calibrated import learns_frames
    >>> lr = linear_model.LogisticRegression
    >>> flagged = anomaly.QuantileFilter(anomaly.HalfSpaceTrees(), q=0.9)
    >>> [learns_frames(m) for m in (preprocessing.StandardScaler() | lr(),
    ...                             naive_bayes.BernoulliNB(), flagged | lr())]
    [True, False, False]

    """
    if isinstance(model, compose.Pipeline):
        *transformers, last = model.steps.values()
        return all(map(_maps_frames, transformers)) and learns_frames(last)
    return (isinstance(model, base.MiniBatchClassifier)
            and not type(model).__module__.startswith("river.naive_bayes"))


def _maps_frames(step) -> bool:
    """Whether a pipeline's transformer maps a frame (`transform_many`), its parts too."""
    if isinstance(step, compose.Pipeline):
        return all(map(_maps_frames, step.steps.values()))
    if isinstance(step, compose.TransformerUnion):
        return all(map(_maps_frames, step.transformers.values()))
    return hasattr(step, "transform_many")


@functools.lru_cache(maxsize=32)
def _columns(labels: tuple) -> pd.Index:
    """The (immutable) columns of a frame of probabilities: building an Index costs as much as
    the frame."""
    import pandas as pd

    return pd.Index(labels)


# (ignored for mypy: labels are any hashable, River declares bool | str | int)
class CalibratedClassifier(  # type: ignore[misc]
    CalibratedPredictions, Checkpointable, CostSensitiveMixin, base.Wrapper,
    base.MiniBatchClassifier,
):
    r"""Calibrate any binary River classifier online; decide with costs.

    Each example is used twice: the calibrator learns the model's score
    $s(x) = \hat P(\text{positive} \mid x)$ computed *before* the model sees it (out of
    sample, so no calibration set is held out), then the model learns it. `predict_proba_one` is the
    calibrated probability (the raw score until the calibrator has learned); `predict_one` is
    positive iff it exceeds $c_{FP} / (c_{FP} + c_{FN})$ (thesis Eq. 2.8), costs per call or
    from `set_costs`. It equals `BanditCalibratedClassifier(policy="both")` without the
    minibatches (tested). `learn_many` learns a frame by minibatch, every score out of sample;
    `recalibrate()` refits to the last `window` examples (docs/calibration.md); a label that
    comes late can bring the score served (`score_one`, `learn_one(x, y, score=...)`).

    Parameters
    ----------
    model, calibrator
        A binary River classifier with `predict_proba_one` (a pipeline too); a
        `calibration.CALIBRATORS` name or a `Calibrator`.
    c_fp, c_fn, pos_label, neg_label
        Costs of a false positive and of a false negative; the labels (`neg_label=None`:
        `not pos_label` for a bool, else the stream's other label).
    window
        None, or how many recent examples (as this wrapper receives them) `recalibrate` refits on.

    Examples
    --------
    >>> from river import datasets, evaluate, linear_model, metrics, preprocessing
    >>> from streamboost import CalibratedClassifier
    >>> raw = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    >>> model = preprocessing.StandardScaler() | CalibratedClassifier(
    ...     linear_model.LogisticRegression(), calibrator="platt", c_fp=1.0, c_fn=5.0
    ... )
    >>> evaluate.progressive_val_score(datasets.Phishing(), raw, metrics.LogLoss())
    LogLoss: 0.3301...
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.LogLoss())
    LogLoss: 0.2838...
    >>> x, _ = next(iter(datasets.Phishing()))
    >>> model.predict_one(x), model.predict_one(x, c_fp=1e6, c_fn=1.0)
    (True, False)

    References
    ----------
    [^1]: Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis (Eq. 2.8).
    [^2]: Gupta, C. & Ramdas, A. (2023). Online Platt scaling with calibeating. ICML.

    """

    def __init__(
        self,
        model: base.Classifier | compose.Pipeline,
        calibrator: str | Calibrator = "platt",
        c_fp: float = 1.0,
        c_fn: float = 1.0,
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable | None = None,
        window: int | None = None,
    ):
        check_model(model, pos_label)
        c_fp, c_fn = validate_costs(c_fp, c_fn)  # as floats: set_costs stores them so too
        window = check_int("window", window, 1, none=True)
        self._labels = BinaryLabels(pos_label, neg_label, owner="CalibratedClassifier")
        self.model = model
        self.calibrator = calibrator
        self.c_fp = c_fp
        self.c_fn = c_fn
        self.pos_label = pos_label
        self.neg_label = neg_label
        self.window = window
        self._calibrator = calibrator_for(calibrator, model)
        self._recent: collections.deque | None = (
            collections.deque(maxlen=window) if window is not None else None
        )
        # What the model learns and which key of its probabilities is the score.
        self._bools = learns_bools(model)
        self._score_key = True if self._bools else pos_label
        self._scorer = PrequentialScore(model, self._score_key)

    @classmethod
    def _unit_test_params(cls):
        from river import linear_model, tree

        yield {"model": linear_model.LogisticRegression()}
        yield {"model": tree.HoeffdingTreeClassifier(), "calibrator": "isotonic", "c_fn": 3.0}
        yield {"model": linear_model.LogisticRegression(), "calibrator": "beta"}
        yield {"model": linear_model.LogisticRegression(), "window": 20}
        from .weak import DecisionStump  # a booster learning by minibatch

        yield {"model": OzaBoostClassifier(DecisionStump(), n_models=5, seed=1),
               "calibrator": "histogram"}

    @property
    def _wrapped_model(self) -> base.Classifier | compose.Pipeline:
        return self.model

    def learn_one(self, x: dict, y: base.typing.ClfTarget, *, score: float | None = None,
                  **kwargs) -> None:
        """Learn `(x, y)`: the calibrator learns the model's score of `x`, then the model learns
        it. `score`: for a label that comes late, the score `x` was served when it was decided
        (`score_one`), which the calibrator learns instead (docs/controller.md, "Labels that
        arrive late"). `kwargs` go to the model (a sample weight `w`)."""
        if kwargs:
            self._check_kwargs(kwargs)
        labels = self._labels
        # checked, and x scored, before anything changes: any label but the known two (a
        # third, a missing one) is judged, and a bad one refused, by `is_positive`
        try:
            positive = labels.known[y]
        except (KeyError, TypeError):  # a label not known (or unhashable): judged
            positive = labels.is_positive(y)
        if score is None:
            score, x = self._scorer.take(x)  # x: a checked copy (the model may learn it as is)
        else:  # served: checked, as x is, and the model about to learn
            score = check_score(score)
            check_features(x)
            self._scorer.forget()
        # the model first: one that raises leaves the calibrator and the labels as they were
        if kwargs:
            self.model.learn_one(x, positive if self._bools else y, **kwargs)
        else:  # not an empty **kwargs: the call would cost ~0.1 us more
            self.model.learn_one(x, positive if self._bools else y)
        if labels.negative is None:  # until it is known, the first other label learned names it
            labels.learn(y)
        self._calibrator._update(score, positive)
        if self._recent is not None:
            self._recent.append((dict(x), positive))

    def learn_many(self, X: pd.DataFrame, y: pd.Series, *, score: typing.Any = None,
                   **kwargs) -> None:
        """Learn a minibatch (see **Minibatches** above); every label, cell and keyword argument
        is checked (a sample weight `w`: one for every row, or one per row, in row order), and
        every row scored, before the calibrator or the model learns anything. `score`: the
        rows' served scores (one per row, in row order; `learn_one`'s), for the calibrator."""
        check_dataframe(X, "learn_many")
        labels, positive = self._labels.check_many(y, len(X))
        served = None if score is None else _served(score, len(X))
        by_frame = self._minibatch
        if kwargs:
            _no_costs(self, "learn_many", kwargs, _LEARN_WITHOUT_COSTS)
            # a learn_many that does not take them: row by row, if the model's learn_one does
            by_frame = by_frame and self._takes(kwargs, "learn_many", len(X))
            if not by_frame:
                self._check_kwargs(kwargs, "learn_one", len(X))
        if not by_frame:
            scores = [None] * len(X) if served is None else served.tolist()
            for x, label, keywords, s in zip(records(X), labels, row_keywords(kwargs, len(X)),
                                             scores, strict=True):
                self.learn_one(x, label, score=s, **keywords)
            return
        if len(X) == 0:  # checked, nothing to learn: River's linear models divide by its length
            return
        scored = self._score_frame(X, check_frame(self._wrapped_model, X))
        targets = list(map(positive.__getitem__, labels))
        weights = None
        if per_row(kwargs.get("w")):  # one weight per row, in row order
            weights = row_weights(kwargs, len(X))
            kwargs = {k: v for k, v in kwargs.items() if k != "w"}
        try:
            scored.learn(targets if self._bools else labels, 0, weights, **kwargs)
        finally:
            self._scorer.forget()
        for label in positive:  # once learned, in order: the first other label names the negative
            self._labels.learn(label)
        # the model's scores, checked in [0, 1] (`frame_scores`), or the served ones, and bools
        scores = scored.scores if served is None else served
        self._calibrator._update_many(scores.tolist(), targets)
        if self._recent is not None:
            self._recent.extend(zip(records(X), targets, strict=True))

    def recalibrate(self) -> None:
        """Refit the calibrator to the current model's scores of the last `window` examples
        (`Calibrator.fit`); nothing to do before the first example."""
        if self._recent is None:
            raise ValueError("recalibrate needs the examples to refit on: set window=")
        if self._recent:
            xs = [x for x, _ in self._recent]
            scores = positive_scores(self.model, xs, self._score_key)
            self._calibrator.fit(scores, [positive for _, positive in self._recent])
