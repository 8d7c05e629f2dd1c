"""What every online calibrator shares: its interface, input checks, and isotonic pooling."""

from __future__ import annotations

import bisect
import copy
import math
import numbers
import typing

import numpy as np
from river import base

from .. import kernels
from ..checkpoint import Checkpointable
from ..state import get_state, new_from, set_state
from ..validation import is_real

__all__ = ["Calibrator", "pool_adjacent_violators"]


def check_score(score: typing.Any) -> float:
    """`score` as a float in [0, 1]; anything else (NaN, inf, a bool, a string) raises."""
    if type(score) is float and 0.0 <= score <= 1.0:  # fast path, the common case
        return score
    if isinstance(score, bool | np.bool_) or not isinstance(score, numbers.Real):
        raise ValueError(
            f"score must be a real number in [0, 1], got {score!r} ({type(score).__name__})"
        )
    s = float(score)
    if not 0.0 <= s <= 1.0:  # also rejects NaN
        raise ValueError(f"score must be a finite real in [0, 1], got {score!r}")
    return s


def check_label(y: typing.Any) -> bool:
    """`y` as a bool: True/False, 1/0 (numpy's too); anything else raises."""
    if y is True or y is False:  # fast path, the common case
        return y
    if isinstance(y, bool | np.bool_):
        return bool(y)
    if isinstance(y, numbers.Integral) and y in (0, 1):
        return bool(y)
    raise ValueError(f"y must be a bool or 0/1, got {y!r} ({type(y).__name__})")


def check_scores(scores: typing.Iterable[float]) -> np.ndarray:
    """An array-like of scores as a 1-D float array, every value checked to lie in [0, 1]."""
    s = np.asarray(scores, dtype=float).ravel()
    inside = (s >= 0.0) & (s <= 1.0)  # NaN fails both
    if not inside.all():
        # the first bad value as it was given: numpy made a None nan
        first = int(np.flatnonzero(~inside)[0])
        value = np.asarray(scores, dtype=object).ravel()[first]
        if isinstance(value, np.generic):
            value = value.item()
        raise ValueError(f"score must be a finite real in [0, 1], got {value!r} at position "
                         f"{first}")
    return s


def check_forgetting(forgetting: typing.Any) -> float:
    if not is_real(forgetting):
        raise ValueError(f"forgetting must be a real number in (0, 1], got {forgetting!r}")
    if not 0.0 < forgetting <= 1.0:  # also rejects NaN
        raise ValueError(f"forgetting must be in (0, 1], got {forgetting!r}")
    return float(forgetting)


def check_step(name: str, gamma: typing.Any) -> float:
    """An Online Newton Step parameter (Platt's, beta's `gamma`), a real number in [1e-8, 1e8]:
    the start H0 = 1/gamma^2 must stay finite (NaN is refused)."""
    if not is_real(gamma):
        raise ValueError(f"{name} must be a real number, got {gamma!r}")
    if not 1e-8 <= gamma <= 1e8:
        raise ValueError(f"{name} must be in [1e-8, 1e8], got {gamma!r}")
    return float(gamma)


def check_positive(name: str, value: typing.Any, *, zero: bool = False) -> float:
    if not is_real(value):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    ok = value >= 0.0 if zero else value > 0.0
    if not (math.isfinite(value) and ok):
        raise ValueError(f"{name} must be finite and {'>=' if zero else '>'} 0, got {value!r}")
    return float(value)


class Calibrator(Checkpointable, base.Base):
    """A map from a classifier's score in [0, 1] to P(y = 1 | score), learned online.

    Subclasses implement `_learn(score, positive)` (or `_update`, which also counts it) and
    `_predict(score)` (and may vectorise `_predict_many(scores)`) on checked inputs, which the
    wrappers call directly with their model's scores; this base validates every input before
    any state changes, counts the examples learned, and provides `learn_many` /
    `predict_many` and `copy`. Every calibrator's map is non-decreasing in the score after any
    sequence of updates (a higher score never means a lower probability), which the tests check
    by property. Names for the registry: `streamboost.calibration.CALIBRATORS`.

    Examples
    --------
    >>> from streamboost.calibration import Calibrator, make
    >>> cal = make("histogram", n_bins=4)
    >>> isinstance(cal, Calibrator), cal.predict_one(0.3), cal.n_seen
    (True, 0.375, 0)
    >>> cal.learn_many([0.3, 0.35, 0.9], [False, False, True])
    >>> cal.n_seen, cal.predict_one(0.3) < cal.predict_one(0.9)
    (3, True)

    """

    _n_seen: int = 0

    #: Every attribute of an instance, for `copy` and `fit`, which read and write them by name:
    #: never through `__dict__`, so the calibrator keeps its fast attribute access
    #: (`streamboost.state`); each subclass lists its own.
    _ATTRIBUTES: tuple[str, ...] = ()

    @property
    def n_seen(self) -> int:
        """Number of (score, label) pairs learned."""
        return self._n_seen

    def _learn(self, score: float, positive: bool) -> None:
        raise NotImplementedError

    def _predict(self, score: float) -> float:
        raise NotImplementedError

    def learn_one(self, score: float, y: base.typing.ClfTarget) -> None:
        """Learn one (score, label) pair; `y` True/1 means positive."""
        self._update(check_score(score), check_label(y))

    def _update(self, score: float, positive: bool) -> None:
        # a checked pair: a float in [0, 1] and a bool (the wrappers' scores and labels)
        self._learn(score, positive)
        self._n_seen += 1

    def _update_many(self, scores: list[float], positives: list[bool]) -> None:
        # `_update` of each checked pair in order (a wrapper's minibatch); a calibrator with a
        # compiled update loops in C, to the same floats
        for score, positive in zip(scores, positives, strict=True):
            self._update(score, positive)

    def learn_many(self, scores: typing.Iterable[float],
                   ys: typing.Iterable[base.typing.ClfTarget]) -> None:
        """Learn pairs in order; all are validated before the first update."""
        scores, ys = list(scores), list(ys)
        if len(scores) != len(ys):
            raise ValueError(f"scores and ys differ in length: {len(scores)} != {len(ys)}")
        checked, positives = [], []
        for s, y in zip(scores, ys, strict=True):  # pair by pair: the first bad one is named
            checked.append(check_score(s))
            positives.append(check_label(y))
        self._update_many(checked, positives)

    def fit(self, scores: typing.Iterable[float],
            ys: typing.Iterable[base.typing.ClfTarget]) -> None:
        """Forget what was learned, then fit the pairs (`scores`, `ys`) as one batch (the
        wrappers' `recalibrate`); all are validated first, so a bad pair changes nothing.

        This base replays them in order through a fresh copy (`learn_many`): the batch fit for
        the counting calibrators (histogram binning, isotonic without forgetting), one online
        pass for the others. `OnlinePlattCalibrator` fits them by maximum likelihood."""
        fresh = self.clone()
        fresh.learn_many(scores, ys)
        set_state(self, get_state(fresh, self._ATTRIBUTES))

    def predict_one(self, score: float) -> float:
        """P(y = 1 | score) under the current map."""
        return self._predict(check_score(score))

    def copy(self) -> typing.Self:
        """An independent copy of the calibrator as it stands (the controller's frozen
        calibrators): its lists of numbers copied, calibrators in it copied, any other mutable
        state deep-copied; a fraction of a pickle's round trip."""
        return new_from(type(self), get_state(self, self._ATTRIBUTES), _copied)

    def _copy_changing(self, changing: tuple[str, ...]) -> typing.Self:
        """`copy` for a calibrator whose attributes `changing` are the only ones that change
        in place as it learns: each is copied by its own `copy()` (a list, `Blocks`), every
        other attribute is shared. The controller copies its calibrator on every measured
        minibatch; the generic copy's checks cost most of a histogram's or an ensemble's."""
        new = object.__new__(type(self))
        _SHARE(self, new, self._ATTRIBUTES)  # not through __dict__, which would materialise it
        for name in changing:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(new, name, value.copy())
        return new

    def predict_many(self, scores: typing.Iterable[float]) -> np.ndarray:
        """P(y = 1 | score) for an array-like of scores."""
        return self._predict_many(check_scores(scores))

    def _predict_many(self, scores: np.ndarray) -> np.ndarray:
        # checked scores (a float array in [0, 1]); subclasses vectorise it
        return np.array([self._predict(s) for s in scores.tolist()], dtype=float)

    def _predict_pair(self, other: Calibrator, scores: np.ndarray) -> np.ndarray:
        """`_predict_many` of this calibrator and of `other` (two that have learned) of a
        contiguous float array of scores, as the rows of one array: the controller's reward
        scores a round with two calibrators.
        Subclasses may share the work the two do alike; the floats must stay the same."""
        return np.array((self._predict_many(scores), other._predict_many(scores)))


_NUMBERS = (float, int, bool)


def _copied(value):
    if type(value) in _NUMBERS or value is None or type(value) is str:
        return value
    if type(value) in (list, tuple) and all(type(v) in _NUMBERS for v in value):
        return value.copy() if type(value) is list else value
    if type(value) in (list, tuple) and all(isinstance(v, Calibrator) for v in value):
        return type(value)(v.copy() for v in value)  # an ensemble's members, each by name
    return copy.deepcopy(value)


def pool_adjacent_violators(values: list[float], weights: list[float]) -> list[float]:
    r"""The weighted least-squares non-decreasing fit to `values`: Pool Adjacent Violators.

    Minimises $\sum_i w_i (f_i - v_i)^2$ subject to $f_1 \le \dots \le f_n$ (Ayer et al. 1955;
    Barlow et al. 1972): scanning left to right, a value below the pooled block before it is
    merged into that block (weighted mean) until the sequence is non-decreasing. O(n).

    Examples
    --------
    >>> from streamboost.calibration import pool_adjacent_violators
    >>> pool_adjacent_violators([0.1, 0.5, 0.3, 0.9], [1.0, 1.0, 3.0, 1.0])
    [0.1, 0.35, 0.35, 0.9]

    """
    blocks = Blocks([], [], [])
    blocks.extend(values, weights, 0)
    return blocks.expand(len(values))


class Blocks:
    """The blocks of a Pool Adjacent Violators fit: block k starts at position `starts[k]` and
    holds the weighted sum `sums[k]` of its values and their total weight `weights[k]` (its
    fitted value is `sums[k] / weights[k]`).

    `extend` continues the left-to-right scan with more positions; `update` re-fits after the
    value of one position changed, in O(size of its block + merges) rather than O(n): the
    blocks left of the changed one are exactly the scan's stack at that point (a block, once
    the scan has passed it and it is final, never merges again), and blocks to the right are
    pushed whole until one stays on its own, after which nothing further can change.

    Examples
    --------
    >>> from streamboost.calibration.base import Blocks
    >>> values, weights = [0.1, 0.5, 0.3, 0.9], [1.0, 1.0, 3.0, 1.0]
    >>> blocks = Blocks([], [], [])
    >>> blocks.extend(values, weights, 0)
    >>> blocks.starts, blocks.expand(4)
    ([0, 1, 3], [0.1, 0.35, 0.35, 0.9])
    >>> values[2] = 0.7  # one position changes: re-pooled around it only
    >>> blocks.update(2, values, weights)
    >>> blocks.starts, [round(v, 12) for v in blocks.expand(4)]
    ([0, 1, 2, 3], [0.1, 0.5, 0.7, 0.9])

    """

    __slots__ = ("starts", "sums", "weights")

    def __init__(self, starts: list[int], sums: list[float], weights: list[float]):
        self.starts, self.sums, self.weights = starts, sums, weights

    def copy(self) -> Blocks:
        """An independent copy (the lists hold numbers only)."""
        return Blocks(self.starts.copy(), self.sums.copy(), self.weights.copy())

    def __deepcopy__(self, memo) -> Blocks:
        return self.copy()

    def _push(self, start: int, total: float, weight: float) -> bool:
        """Push a block and pool while the order is violated; whether it was pooled."""
        starts, sums, weights = self.starts, self.sums, self.weights
        starts.append(start)
        sums.append(total)
        weights.append(weight)
        pooled = False
        # mean(k-1) > mean(k), compared without dividing (weights are positive)
        while len(sums) > 1 and sums[-2] * weights[-1] > sums[-1] * weights[-2]:
            total, weight = sums.pop(), weights.pop()
            starts.pop()
            sums[-1] += total
            weights[-1] += weight
            pooled = True
        return pooled

    def extend(self, values: list[float], weights: list[float], first: int) -> None:
        """Scan further positions `first`, `first + 1`, ... with these values and weights."""
        for i, (v, w) in enumerate(zip(values, weights, strict=True), start=first):
            self._push(i, v * w, w)

    def update(self, position: int, values: list[float], weights: list[float]) -> None:
        """Re-fit after the value or weight of `position` changed (`values` and `weights` are
        every position's current ones)."""
        _UPDATE(self.starts, self.sums, self.weights, position, values, weights)

    def value(self, position: int) -> float:
        """The fitted value at `position`."""
        k = bisect.bisect_right(self.starts, position) - 1
        return self.sums[k] / self.weights[k]

    def expand(self, n: int) -> list[float]:
        """The fitted value of every position."""
        bounds = [*self.starts[1:], n]
        fitted: list[float] = []
        for start, end, total, weight in zip(self.starts, bounds, self.sums, self.weights,
                                             strict=True):
            fitted.extend([total / weight] * (end - start))
        return fitted


def pav_update(starts: list[int], sums: list[float], weights: list[float], position: int,
               values: list[float], value_weights: list[float]) -> None:
    """`Blocks.update` on the blocks' three lists, in place: the twin of the compiled
    `pav_update`, the same operations in the same order."""
    blocks = Blocks(starts, sums, weights)
    k = bisect.bisect_right(starts, position) - 1
    start = starts[k]
    end = starts[k + 1] if k + 1 < len(starts) else len(values)
    old = (starts[k + 1 :], sums[k + 1 :], weights[k + 1 :])
    del starts[k:], sums[k:], weights[k:]
    blocks.extend(values[start:end], value_weights[start:end], start)
    for b, (first, total, weight) in enumerate(zip(*old, strict=True)):
        if not blocks._push(first, total, weight):
            starts += old[0][b + 1 :]
            sums += old[1][b + 1 :]
            weights += old[2][b + 1 :]
            break


def share_attributes(source: object, target: object, names: tuple[str, ...]) -> None:
    """`object.__setattr__(target, name, getattr(source, name))` for each of `names`, in
    order: the twin of the compiled `share_attributes`.

    >>> import types
    >>> from streamboost.calibration.base import share_attributes
    >>> source, target = types.SimpleNamespace(keys=["a"]), types.SimpleNamespace()
    >>> share_attributes(source, target, ("keys",))
    >>> target.keys is source.keys
    True

    """
    for name in names:
        object.__setattr__(target, name, getattr(source, name))


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_UPDATE = getattr(kernels.compiled, "pav_update", pav_update)
_SHARE = getattr(kernels.compiled, "share_attributes", share_attributes)
