"""What every array engine shares: features mapped to columns as they appear, and the protocol
the booster drives (score, then for each member a vote after k steps, then one commit)."""

from __future__ import annotations

import abc
import contextlib
import itertools
import math
import numbers
import operator
import random
import typing

import numpy as np

from ..kernels import compiled
from ..state import InlineState, copy_attributes, get_state, new_from, slot_names
from ..validation import matrix, plain_floats

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["ArrayMembers", "soft_score", "soft_scores"]

# `rows`'s common case in C (streamboost.kernels), and its case of rows that hold only some of
# the known features (one-hot indicators), with `vector`'s; None: numpy's conversion (no
# kernels, or a module built before these kernels)
_FILL_ROWS = getattr(compiled, "fill_rows", None)
_FILL_COLUMNS = getattr(compiled, "fill_columns", None)
# `copy`'s loop in C; the twin for a module built before this kernel (the same copies)
_COPY = getattr(compiled, "copy_attributes", copy_attributes)
_NONE = type(None)


class ArrayMembers(InlineState, abc.ABC):
    """The members of a booster held as arrays, one row per member and one column per feature.

    A feature dict becomes a dense vector over the columns seen so far; a new key gets a new
    column, whose parameters start at the member kind's initial value (River's convention: a new
    feature starts at weight 0). Columns grow by doubling, so memory is bounded by the number of
    features seen and appending stays O(1) amortised.

    The booster calls, for each example: `begin(x, target)` (vectorised work on every member
    before it learns; it returns their current votes), then `vote_after(i, k)` for each member
    that draws k >= 1 (O(1) Python: member i's vote after it learns x k times), then `commit()`
    (every member's update in one vectorised step). `votes(x, alphas)` scores without learning.
    """

    #: A constant put before the features (the linear members' intercept column), or None.
    lead: float | None = None
    #: The attributes that scoring (`rows`, `frame`, `vector`, `votes`, `batch_votes`,
    #: `batch_scores`) reads, which a `copy` takes (with no cached example or frame columns);
    #: None: all of them.
    _scoring: tuple[str, ...] | None = None

    # attributes, not a __dict__ (streamboost.state: attribute access stays fast after a copy)
    __slots__ = ("_columns", "_frame_columns", "_keys", "_width", "_x", "changed", "n_models")

    def __init__(self, n_models: int):
        self.n_models = n_models
        self.changed = False  # learned since the last `export`
        self._columns: dict = {}
        self._keys: list = []
        self._width = 0
        self._frame_columns: tuple = _no_frame_columns()  # `frame`'s last columns, positions
        self._x: dict | None = None  # a copy of the last example scored, None once it learns

    # ------------------------------------------------------------------ features

    def vector(self, x: dict) -> np.ndarray:
        """`x` as a dense float vector over the known columns (new keys appended, without any
        change when a value is not a number), preceded by `lead` unless it is None."""
        keys = self._keys
        lead = self.lead
        offset = lead is not None
        if len(x) == len(keys) and list(x) == keys:  # the usual case: same features, same order
            values = itertools.chain((lead,), x.values()) if offset else x.values()
            return floats(x, values, len(keys) + offset)
        if _FILL_COLUMNS is not None and type(x) is dict:  # known keys, numbers: in C
            xv = np.zeros(len(keys) + offset)
            if offset:
                xv[0] = lead
            if _FILL_COLUMNS([x], self._columns, xv, offset, True):
                return xv
        for value in x.values():
            if not isinstance(value, numbers.Real):
                raise _not_numeric(x)
        for key in x:
            if key not in self._columns:
                self._add_column(key)
        xv = np.zeros(len(keys) + offset)
        if offset:
            xv[0] = lead
        columns = self._columns
        for key, value in x.items():
            xv[columns[key] + offset] = value
        return xv

    def rows(self, xs: list[dict]) -> np.ndarray:
        """The checked dicts `xs` as a float matrix, each row as `vector` makes it (new keys
        appended; a row is 0 in the columns added after it, as an absent key)."""
        keys = self._keys
        offset = self.lead is not None
        if _FILL_ROWS is not None and type(xs) is list:  # every value a finite float, in C
            table = np.empty((len(xs), len(keys) + offset))
            if offset:
                table[:, 0] = self.lead
            if _FILL_ROWS(xs, keys, table):
                return table
            if _FILL_COLUMNS is not None:  # some features absent from some rows: 0 there
                table[:, offset:] = 0.0
                if _FILL_COLUMNS(xs, self._columns, table, offset, True):
                    return table
        if len(keys) > 1 and all(len(x) == len(keys) for x in xs):  # the usual case
            pick = operator.itemgetter(*keys)
            table = np.empty((len(xs), len(keys) + offset))
            if offset:
                table[:, 0] = self.lead
            with contextlib.suppress(KeyError, TypeError, ValueError):  # else `vector` names it
                picked = [pick(x) for x in xs]
                # numpy would parse a str ('2' -> 2.0); `vector` refuses it
                if not any(str in map(type, values) for values in picked):
                    table[:, offset:] = picked
                    if np.isfinite(table).all():
                        return table
        vectors = [self.vector(x) for x in xs]
        width = len(keys) + offset
        out = np.zeros((len(vectors), width))
        for row, v in zip(out, vectors, strict=True):
            row[: len(v)] = v
        return out

    def frame(self, X: pd.DataFrame, values: np.ndarray | None = None) -> np.ndarray:
        """The frame `X` as a float matrix over the known columns (new columns appended after
        the whole frame is checked, `validation.matrix`; `values`: that matrix of `X`, if the
        caller has checked it already), a missing cell as 0 like an absent key, preceded by a
        column of `lead` unless it is None."""
        if values is None:
            values = matrix(X)
        lead = self.lead
        offset = lead is not None
        positions = self._positions(X.columns)
        out = np.zeros((len(values), len(self._keys) + offset))
        if offset:
            out[:, 0] = lead
        out[:, positions] = values
        if np.isnan(values).any():
            np.nan_to_num(out, copy=False, nan=0.0)
        return out

    def _positions(self, columns) -> slice | list[int]:
        # A stream's minibatches share their columns: map them once (a slice when they are the
        # known columns in order), again only when the columns or the known keys change.
        cached, width, positions = self._frame_columns
        if width == len(self._keys) and columns is cached:
            return positions
        if width == len(self._keys) and columns.equals(cached):
            # kept: predicting a frame then learning it compares its columns once (~4 us)
            self._frame_columns = (columns, width, positions)
            return positions
        for key in columns:
            if key not in self._columns:
                self._add_column(key)
        offset = self.lead is not None
        positions = [self._columns[key] + offset for key in columns]
        if positions == list(range(offset, offset + len(positions))):
            positions = slice(offset, offset + len(positions))
        self._frame_columns = (columns, len(self._keys), positions)
        return positions

    def can_borrow(self, other: ArrayMembers) -> bool:
        """Whether `other` (a later copy of these members) makes a matrix of some examples
        that, cut to this copy's columns, is this copy's matrix of them: columns are only
        appended, and a feature this copy never saw has weight 0 here."""
        return other._keys[: len(self._keys)] == self._keys

    def __getstate__(self) -> dict:
        # a pickle keeps no cache of the last frame's columns (a pandas Index)
        return {**get_state(self, slot_names(type(self))), "_frame_columns": _no_frame_columns()}

    def copy(self) -> ArrayMembers:
        """An independent copy for scoring (the booster's frozen snapshots), which does not
        learn: the attributes scoring reads (`_scoring`; None: the whole pickled state), arrays
        and containers copied, without a pickle's round trip (a tenth of its cost) and without
        reading this object's `__dict__` (it has none: `streamboost.state`)."""
        if self._scoring is None:
            state = {**self.__getstate__(), "_x": None, "_frame_columns": _no_frame_columns()}
            return new_from(type(self), state)
        new = object.__new__(type(self))  # `new_from`, without building a dict of the state
        _COPY(self, new, self._scoring)
        new._x = None
        new._frame_columns = _no_frame_columns()
        return new

    def _add_column(self, key) -> None:
        self._columns[key] = len(self._keys)
        self._keys.append(key)
        if len(self._keys) > self._width:
            self._width = max(8, 2 * self._width)
            self._grow(self._width)

    def _grow(self, width: int) -> None:
        """Widen the parameter arrays to `width` columns, new ones at their initial value (an
        engine that places its columns itself overrides `_add_column` instead)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the booster's protocol

    def knows(self, x: dict) -> bool:
        """Whether `x` equals the last example scored (so it was checked), learned since."""
        return self._x is not None and (x is self._x or x == self._x)

    @abc.abstractmethod
    def votes(self, x: dict, alphas: list[float] | None = None) -> list[bool]:
        """Every member's vote (True for the positive class) on `x`, learning nothing (the
        vote weights `alphas` are not needed: one vectorised step scores every member)."""

    @abc.abstractmethod
    def begin(self, x: dict, target: bool, w: float = 1.0) -> list[bool]:
        """Start learning `x` (`target` True for the positive class): every member's vote on `x`
        before it learns, checking `x` before any change; `w`: the example's sample weight (a
        checked float >= 0)."""

    @abc.abstractmethod
    def vote_after(self, i: int, k: int) -> bool:
        """Member `i`'s vote on the current example after learning it `k` >= 1 times; the update
        itself waits for `commit`."""

    @abc.abstractmethod
    def commit(self) -> None:
        """Apply every member's update for the current example."""

    def boost(self, target: bool, sc: list[float], sw: list[float],
              rng: random.Random) -> bool:
        """Run the booster's Oza loop over the members in compiled code (`streamboost.kernels`),
        updating `sc` and `sw` as it does; False, doing nothing, where no kernel does it."""
        return False

    #: Whether `batch_votes` and `learn_batch` exist (else the booster loops over the rows).
    minibatch: bool = False

    @abc.abstractmethod
    def soft_score(self, x: dict, alphas: list[float]) -> float:
        """The booster's `score="soft"` of `x` (`soft_score` of the members' probabilities),
        learning nothing; the members' votes on `x` are kept for `begin`, as `votes` keeps
        them."""

    def batch_soft_scores(self, X: np.ndarray, alphas: list[float]) -> np.ndarray:
        """`soft_score` of each row of `X` (from `frame` or `rows`): the same floats."""
        raise NotImplementedError

    def batch_votes(self, X: np.ndarray) -> np.ndarray:
        """Every member's votes on the rows of `X` (from `frame`), shape (rows, members)."""
        raise NotImplementedError

    def batch_scores(self, X: np.ndarray, alphas: list[float], total: float,
                     logistic: bool) -> np.ndarray | None:
        """The booster's score of each row of `X` in one compiled pass (`boosting.table_scores`:
        vote weights `alphas`, their sum `total`, the logistic score or the vote), or None where
        `table_scores` computes them from `batch_votes` in numpy (the same floats)."""
        return None

    def learn_batch(self, i: int, X: np.ndarray, ks: np.ndarray, targets: np.ndarray,
                    w: np.ndarray | None = None) -> np.ndarray:
        """Member `i` learns the rows of `X`, row b `ks[b]` times (`targets[b]` True for the
        positive class) with sample weight `w[b]` (None: 1); its votes on every row afterwards."""
        raise NotImplementedError

    def learn_frame(self, X: np.ndarray, targets: np.ndarray, w: np.ndarray | None,
                    generator: np.random.Generator, sc: list[float], sw: list[float]) -> bool:
        """The booster's minibatch rule (`OzaBoostClassifier._learn_table`: each member in turn
        draws from `generator`, learns the rows and passes the lambdas on; `sc`, `sw` updated)
        in one compiled call; False, doing nothing, where no kernel does it."""
        return False

    @abc.abstractmethod
    def export(self, members: list) -> None:
        """Write the learned state into the River members (for `booster.models`)."""


def soft_score(alphas: list[float], values: list, margins: bool = False) -> float:
    """The booster's `score="soft"`: the members' probabilities of the positive class averaged
    with their vote weights `alphas`, each sum in member order; a member with alpha 0 or no
    probability (None: it knows no class yet) abstains, and the score is 0.5 when all do.
    `margins`: the values are logistic regressions' margins, each mapped by River's sigmoid
    (0 below -30, 1 above 30) first. The twin of the compiled `soft_score`.

    Examples
    --------
    >>> from streamboost.members.base import soft_score
    >>> round(soft_score([1.0, 3.0, 0.0], [0.2, 0.6, 0.9]), 12)
    0.5
    >>> soft_score([0.0, 2.0], [0.9, None]), soft_score([1.0, 1.0], [0.0, 40.0], margins=True)
    (0.5, 0.75)

    """
    total = 0.0
    positive = 0.0
    for alpha, value in zip(alphas, values, strict=True):
        if alpha == 0.0 or value is None:
            continue
        if margins:  # River's utils.math.sigmoid, LogisticRegression's P(True)
            value = (0.0 if value < -30.0 else 1.0 if value > 30.0
                     else 1.0 / (1.0 + math.exp(-value)))
        total += alpha
        positive += alpha * value
    return positive / total if total != 0.0 else 0.5


def soft_scores(alphas: list[float], probabilities: np.ndarray) -> np.ndarray:
    """`soft_score` of each row of `probabilities` (rows x members, none abstaining by None),
    in numpy with the same floats: each row's sum of alpha * p is a running sum in member
    order (`np.cumsum`, not `sum`'s pairwise order), a member of alpha 0 adds an exact 0.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.members.base import soft_score, soft_scores
    >>> p = np.array([[0.2, 0.6, 0.9], [0.1, 0.3, float("nan")]])
    >>> soft_scores([1.0, 3.0, 0.0], p).tolist() == [soft_score([1.0, 3.0, 0.0], list(r))
    ...                                               for r in p.tolist()]
    True

    """
    weights = np.asarray(alphas, dtype=float)
    total = 0.0
    for alpha in alphas:  # soft_score's order; an alpha of 0 adds nothing
        total += alpha
    if total == 0.0:
        return np.full(len(probabilities), 0.5)
    products = probabilities * weights
    products[:, weights == 0.0] = 0.0  # skipped, as the loop skips them (a NaN p included)
    # `0.0 +`: the loop's first sum, which turns a -0.0 into 0.0
    return (0.0 + np.cumsum(products, axis=1)[:, -1]) / total


def floats(x: dict, values: typing.Iterable, count: int) -> np.ndarray:
    """`values` (of `x`, `count` of them) as a float array, or the TypeError naming `x`'s first
    value that is not a number. A str or None is refused although numpy would take it ('2' ->
    2.0, None -> nan, which made every member's weight NaN): the reference path's River members
    refuse them too."""
    if not plain_floats(x):  # else floats only, none of them a str or None
        kinds = set(map(type, x.values()))
        if str in kinds or _NONE in kinds:
            raise _not_numeric(x)
    try:
        return np.fromiter(values, dtype=float, count=count)
    except (TypeError, ValueError) as error:
        raise _not_numeric(x) from error


def _not_numeric(x: dict) -> TypeError:
    bad = next(
        (key for key, value in x.items() if not isinstance(value, numbers.Real)), None
    )
    if bad is not None and x[bad] is None:
        return TypeError(f"feature {bad!r} is None; expected a number (leave a missing value "
                         "out of the dict)")
    return TypeError(
        f"feature {bad!r} is {x.get(bad)!r}; the vectorised members take numbers only (encode "
        "nominal features first, or use engine='reference')"
    )


def _no_frame_columns() -> tuple:
    """`ArrayMembers.frame`'s cache when it has seen no frame (a fresh list each time)."""
    return (None, -1, [])
