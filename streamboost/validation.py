"""One policy for bad feature values, applied before anything learns.

* In a feature dict (`learn_one`, `predict_proba_one`, `predict_one`): a NaN, an infinity or a
  number beyond +/-1e150 is refused with a ValueError naming the feature, before any state
  changes. River's convention for a missing value in a dict is an absent key; a NaN there is
  almost always an upstream bug (a 0/0), and accepting it turned every member weight into NaN
  for good while the bounded vote kept the probabilities finite, so nothing flagged it.
  Magnitudes above 1e150 are refused because one SGD step on one of them squares it past the
  largest float.
* In a frame (`learn_many`, `predict_many`): NaN is pandas' only way to write a missing cell,
  so a NaN cell is a missing value and its key is left out of that row (as the dataset readers
  do with empty cells); infinities and magnitudes beyond 1e150 are refused, naming the row and
  column, before any row is learned.
* Non-numeric values (strings of nominal features, None) pass: they are the model's business.
  Our booster's array members and the weak learners take numbers only and refuse them, naming
  the feature (numpy would read None as nan and parse '2' as 2.0).

`FiniteFeatures` applies the dict policy as the first step of a River pipeline, so that a bad
value is refused before a preprocessing step (e.g. `StandardScaler`, whose running variance one
1e300 makes infinite for good) has learned it.
"""

from __future__ import annotations

import collections
import collections.abc
import difflib
import functools
import inspect
import numbers
import sys
import typing

import numpy as np
from river import base

from .kernels import compiled

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "LIMIT", "FiniteFeatures", "LazyRecords", "cell", "check_bool", "check_dataframe",
    "check_distinct", "check_features", "check_int", "check_keywords", "check_seed",
    "check_weight", "did_you_mean", "is_real", "lazy_records", "matrix", "non_numeric",
    "one_line", "per_row", "plain_floats", "records", "row_keywords", "row_weights",
]

#: The largest magnitude a numeric feature may have.
LIMIT = 1e150
_LOW = -LIMIT
# every value a float within the limit, in C (streamboost.kernels), and `check_features`'s fast
# path, every value a float or a small int within it (one-hot indicators are ints); None: the
# Python loop only (no kernels, or a module built before these kernels)
_FLOATS_WITHIN = getattr(compiled, "floats_within", None)
_NUMBERS_WITHIN = getattr(compiled, "numbers_within", None)


def _bad(value) -> bool:
    """Whether `value` is a number that the policy refuses (NaN, inf, beyond LIMIT): anything
    with a float value, which the array members would take (a `Decimal` too, not a
    `numbers.Real`); a string or a bool is not a number here (River's trees split on them)."""
    t = type(value)
    if t is float or t is int:
        return not -LIMIT <= value <= LIMIT  # NaN fails both comparisons
    if t is bool or not hasattr(t, "__float__"):
        return False
    try:
        return not -LIMIT <= float(value) <= LIMIT
    except (OverflowError, ValueError):  # too large for a float; a signalling NaN
        return True
    except TypeError:  # a float it cannot give (numpy's dates and durations): no number, as a str
        return False


def plain_floats(x: dict) -> bool:
    """Whether every value of the dict `x` is a float within +/-`LIMIT`, by the compiled test;
    False without it. A fast path only: False says nothing, the caller checks by type.

    Examples
    --------
    >>> from streamboost import kernels
    >>> from streamboost.validation import plain_floats
    >>> plain_floats({"a": 1.0}) == (kernels.compiled is not None), plain_floats({"a": None})
    (True, False)

    """
    return _FLOATS_WITHIN is not None and _FLOATS_WITHIN(x, LIMIT)


def check_features(x: dict) -> dict:
    """Return `x` unchanged if no numeric value is NaN, infinite or beyond +/-1e150; otherwise
    raise ValueError naming the first bad feature.

    Examples
    --------
    >>> from streamboost.validation import check_features
    >>> check_features({"a": 1.0, "colour": "red"})
    {'a': 1.0, 'colour': 'red'}
    >>> check_features({"a": 1.0, "b": float("nan")})
    Traceback (most recent call last):
    ...
    ValueError: feature 'b' is nan; expected a finite number within +/-1e+150 (leave a missing ...

    """
    if _NUMBERS_WITHIN is not None and _NUMBERS_WITHIN(x, LIMIT):  # the loop below's fast path
        return x
    if not isinstance(x, dict):
        raise TypeError(f"x must be a dict of features, got {type(x).__name__}: {x!r:.80}")
    for value in x.values():  # every example passes here: values only, the common case inlined
        if type(value) is float and _LOW <= value <= LIMIT:
            continue
        if _bad(value):
            for key, value in x.items():  # the first bad feature, named
                if _bad(value):
                    raise ValueError(
                        f"feature {key!r} is {value!r}; expected a finite number within "
                        f"+/-{LIMIT:g} (leave a missing value out of the dict)"
                    )
    return x


def check_weight(kwargs: dict, rows: int | None = None) -> dict:
    """Return the keyword arguments of a `learn_one` unchanged if their sample weight `w`, when
    there is one (River's `learn_one(x, y, w=...)`), is a finite number >= 0; otherwise raise
    ValueError naming it, before the model could learn a NaN or a negative step. For a
    `learn_many` of `rows` rows, `w` may also hold one such weight per row, in row order (a
    list, an array or a pandas Series, as River's `learn_many(X, y, w=...)` takes).

    Examples
    --------
    >>> from streamboost.validation import check_weight
    >>> check_weight({"w": 2.0})
    {'w': 2.0}
    >>> check_weight({"w": float("nan")})
    Traceback (most recent call last):
    ...
    ValueError: sample weight w must be a finite number >= 0, got nan
    >>> check_weight({"w": [1.0, -2.0]}, rows=2)
    Traceback (most recent call last):
    ...
    ValueError: sample weight w must hold a finite number >= 0 per row; row 1's is -2.0

    """
    if "w" not in kwargs:
        return kwargs
    w = kwargs["w"]
    if rows is None or not per_row(w):
        if not _weight(w):
            per = f", or one per row ({rows} of them)" if rows is not None else ""
            raise ValueError(f"sample weight w must be a finite number >= 0{per}, got "
                             f"{one_line(w)}")
        return kwargs
    if len(w) != rows:
        raise ValueError(f"sample weight w must hold one weight per row: {rows} rows, got "
                         f"{len(w)} weights")
    values = w.to_numpy() if hasattr(w, "to_numpy") else w
    if (isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "fiu"
            and ((np.abs(values) <= LIMIT) & (values >= 0)).all()):  # numpy checks; NaN fails
        return kwargs
    # positions, not a Series' index labels; an array's items as Python's (their reprs)
    listed = values.tolist() if isinstance(values, np.ndarray) and values.ndim == 1 else list(w)
    for row, value in enumerate(listed):
        if not _weight(value):
            raise ValueError(f"sample weight w must hold a finite number >= 0 per row; row "
                             f"{row}'s is {one_line(value)}")
    return kwargs


def _weight(w) -> bool:
    """Whether `w` is one sample weight: a finite number >= 0 (not a bool, not an array)."""
    t = type(w)
    return (t is not bool and hasattr(t, "__float__") and getattr(w, "ndim", 0) == 0
            and not _bad(w) and w >= 0)


def per_row(w: typing.Any) -> bool:
    """Whether a sample weight holds one weight per row (a list, a 1-D array, a pandas Series)
    rather than one for every row.

    Examples
    --------
    >>> from streamboost.validation import per_row
    >>> per_row([1.0, 2.0]), per_row(2.0), per_row("12")
    (True, False, False)

    """
    return (hasattr(w, "__len__") and not isinstance(w, str | bytes | dict)
            and getattr(w, "ndim", 1) != 0)


def row_weights(kwargs: dict, rows: int) -> np.ndarray:
    """The checked sample weight `w` of a `learn_many` of `rows` rows (`check_weight`) as one
    float per row, in row order, in an array of its own.

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.validation import row_weights
    >>> row_weights({"w": pd.Series([1, 3], index=[7, 5])}, 2), row_weights({"w": 2.0}, 2)
    (array([1., 3.]), array([2., 2.]))

    """
    w = kwargs["w"]
    if not per_row(w):
        return np.full(rows, float(w))
    return np.array(w.to_numpy() if hasattr(w, "to_numpy") else list(w), dtype=float)


def row_keywords(kwargs: dict, rows: int) -> list[dict]:
    """The keyword arguments of each of `rows` rows, for a `learn_many` that learns them one by
    one: a weight per row (`check_weight`) split into the rows' own `w`, anything else shared.

    Examples
    --------
    >>> from streamboost.validation import row_keywords
    >>> row_keywords({"w": [1.0, 3.0]}, 2), row_keywords({"w": 2.0}, 2)
    ([{'w': 1.0}, {'w': 3.0}], [{'w': 2.0}, {'w': 2.0}])

    """
    if not per_row(kwargs.get("w")):
        return [kwargs] * rows
    return [{**kwargs, "w": value} for value in row_weights(kwargs, rows).tolist()]


def check_keywords(model: base.Estimator, method: str, kwargs: dict) -> dict:
    """Return `kwargs` unchanged if `model.<method>` (its `learn_one` or `learn_many`) takes
    every one of them by name, or takes any (`**kwargs`, as River's pipelines and forests do);
    otherwise raise TypeError naming the first it does not take, before a wrapper has started
    a minibatch or drawn a number for an example that its model would refuse.

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.validation import check_keywords
    >>> check_keywords(linear_model.LogisticRegression(), "learn_one", {"w": 2.0})
    {'w': 2.0}
    >>> check_keywords(linear_model.LogisticRegression(), "learn_one", {"weight": 2.0})
    Traceback (most recent call last):
    ...
    TypeError: LogisticRegression.learn_one takes no keyword argument 'weight' (it takes: w)

    """
    taken = _keywords(type(model), method)
    if taken is None:
        return kwargs
    for name in kwargs:
        if name not in taken:
            raise TypeError(f"{type(model).__name__}.{method} takes no keyword argument "
                            f"{name!r} (it takes: {', '.join(sorted(taken)) or 'none'})")
    return kwargs


@functools.cache
def _keywords(cls: type, method: str) -> frozenset | None:
    """The names `cls.<method>` takes as keywords beyond x/X and y, or None: any name (a
    `**kwargs`, or a signature that cannot be read)."""
    try:
        parameters = inspect.signature(getattr(cls, method)).parameters.values()
    except (AttributeError, TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return frozenset(p.name for p in parameters
                     if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                     and p.name not in ("self", "x", "X", "y"))


def is_real(value: object) -> typing.TypeGuard[float]:
    """Whether `value` is a real number, Python's or numpy's, and not a bool. It takes any object,
    so a parameter declared `float` keeps its type where this refuses what a caller passed
    anyway (an `isinstance(x, numbers.Real)` test on a `float` reads to type checkers as always
    false: they would take the rest of the function for unreachable); where it holds, they read
    `value` as a float.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import is_real
    >>> is_real(0.5), is_real(np.float32(0.5)), is_real(True), is_real("0.5")
    (True, True, False, False)

    """
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@typing.overload
def check_int(name: str, value: object, minimum: int) -> int: ...
@typing.overload
def check_int(name: str, value: object, minimum: int, *, none: bool) -> int | None: ...
def check_int(name: str, value: object, minimum: int, *, none: bool = False) -> int | None:
    """`value` as an int if it is an integer >= `minimum`, Python's or numpy's (a grid's
    `np.arange` or a frame's column hands out numpy integers), not a bool, or None where `none`
    allows it; else ValueError naming `name`.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import check_int
    >>> check_int("batch_size", np.int64(32), 1)
    32
    >>> check_int("batch_size", 0.5, 1)
    Traceback (most recent call last):
    ...
    ValueError: batch_size must be an int >= 1, got 0.5

    """
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        allowed = "None or an int" if none else "an int"
        raise ValueError(f"{name} must be {allowed} >= {minimum}, got {_shown(value)}")
    return int(value)


@typing.overload
def check_bool(name: str, value: object) -> bool: ...
@typing.overload
def check_bool(name: str, value: object, *, none: bool) -> bool | None: ...
def check_bool(name: str, value: object, *, none: bool = False) -> bool | None:
    """`value` as Python's bool if it is a bool, Python's or numpy's (a frame's column and
    numpy's comparisons hand out `np.True_`), or None where `none` allows it; else TypeError
    naming `name` (an int, even 0 or 1, is no bool: a flag passed where a count was meant).

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import check_bool
    >>> check_bool("counterfactual", np.True_)
    True
    >>> check_bool("counterfactual", 1)
    Traceback (most recent call last):
    ...
    TypeError: counterfactual must be True or False, got 1

    """
    if value is None and none:
        return None
    if not isinstance(value, bool | np.bool_):
        allowed = "None, True or False" if none else "True or False"
        raise TypeError(f"{name} must be {allowed}, got {_shown(value)}")
    return bool(value)


def check_seed(seed: object) -> int | None:
    """`seed` as an int, or None: an integer, Python's or numpy's (Python's `random.Random`
    refuses numpy's), not a bool, else TypeError; and >= 0, else ValueError (numpy's
    generators, which a seed also starts, take no negative seed).

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import check_seed
    >>> check_seed(np.int64(3)), check_seed(None)
    (3, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None or an int >= 0 (numpy's generators take no negative seed), ...

    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int or None, got {_shown(seed)}")
    if seed < 0:
        raise ValueError("seed must be None or an int >= 0 (numpy's generators take no negative "
                         f"seed), got {_shown(seed)}")
    return int(seed)


def _shown(value: object) -> str:
    """`value`'s repr for an error, on one line (`one_line`), a numpy scalar as Python's (`20`,
    not `np.int64(20)`)."""
    return one_line(value.item() if isinstance(value, np.generic) else value)


def one_line(obj: object, width: int = 60) -> str:
    """`repr(obj)` on one line (River's reprs of estimators span several), cut at `width`
    characters: for error messages.

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.validation import one_line
    >>> one_line(linear_model.LinearRegression(), 40)
    'LinearRegression ( optimizer=SGD ( lr=Co'

    """
    return " ".join(repr(obj).split())[:width]


def did_you_mean(name: object, choices: typing.Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the one of `choices` (those that are str) that `name` most
    likely meant, else `""`: for error messages. Case, `_` for `-` and spaces are forgiven,
    then a typo (`difflib`'s ratio of at least 0.75).

    Examples
    --------
    >>> from streamboost.validation import did_you_mean
    >>> choices = ["discounted-ucb", "ucb1", "electricity"]
    >>> did_you_mean("Discounted_UCB", choices), did_you_mean("electricty", choices)
    (" (did you mean 'discounted-ucb'?)", " (did you mean 'electricity'?)")
    >>> did_you_mean("thompson", choices)
    ''

    """
    if not isinstance(name, str):
        return ""
    written = {_loose(c): c for c in choices if isinstance(c, str)}
    close = difflib.get_close_matches(_loose(name), list(written), n=1, cutoff=0.75)
    return f" (did you mean {written[close[0]]!r}?)" if close else ""


def _loose(name: str) -> str:
    return "-".join(name.lower().replace("_", "-").split())


def records(X: pd.DataFrame) -> list[dict]:
    """The rows of a frame as feature dicts, missing cells left out (NaN, and the None that a
    nullable column's `pd.NA` or a text column's missing cell becomes, NaT); an infinite or
    absurd number anywhere raises ValueError naming its row and column, before any row is used.
    A frame numpy reads as one float array (float columns, ints beside them too) gives floats.

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.validation import records
    >>> records(pd.DataFrame({"a": [1.0, float("nan")], "b": [2.0, 3.0]}))
    [{'a': 1.0, 'b': 2.0}, {'b': 3.0}]
    >>> records(pd.DataFrame({"a": pd.array([1, None], dtype="Int64"), "b": ["x", None]}))
    [{'a': 1, 'b': 'x'}, {}]
    >>> records(pd.DataFrame({"a": [1.0, float("inf")]}, index=["r1", "r2"]))
    Traceback (most recent call last):
    ...
    ValueError: row 'r2', column 'a' is inf; expected a finite number within +/-1e+150 ...

    """
    values = X.to_numpy()
    if values.dtype == float:  # one float array: the rows straight from it
        return _float_records(X, values)
    rows = []
    for index, row in zip(X.index, X.to_dict(orient="records"), strict=True):
        x = {}
        for key, value in row.items():
            if value is None or value != value:  # a missing cell: None, NaN, NaT
                continue
            if _bad(value):
                raise _bad_cell(index, key, value)
            x[key] = value
        rows.append(x)
    return rows


def _float_records(X: pd.DataFrame, values: np.ndarray) -> list[dict]:
    """`records` of a frame of float columns, `values` its array: the same dicts (Python
    floats, NaN cells left out, the first bad cell in row order named) without pandas'
    `to_dict`, which costs ten times the rest."""
    bad = np.abs(values) > LIMIT  # inf too; NaN compares False
    if bad.any():
        row, column = map(int, np.argwhere(bad)[0])
        raise _bad_cell(X.index[row], X.columns[column], float(values[row, column]))
    return _dicts(X.columns.tolist(), values)


def _dicts(keys: list, values: np.ndarray) -> list[dict]:
    """The rows of float array `values` as dicts over `keys`, NaN cells left out."""
    if np.isnan(values).any():
        return [{k: v for k, v in zip(keys, row, strict=True) if v == v}
                for row in values.tolist()]
    return [dict(zip(keys, row, strict=True)) for row in values.tolist()]


def lazy_records(X: pd.DataFrame) -> typing.Sequence[dict]:
    """`records` of a frame already checked (`matrix`), made only when read if its cells are
    floats (`LazyRecords`), else now.

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.validation import lazy_records
    >>> X = pd.DataFrame({"a": [1.0, float("nan")], "b": [2.0, 3.0]})
    >>> rows = lazy_records(X)
    >>> X.loc[0, "a"] = 9.0  # the caller refills its frame: the rows are the frame as it was
    >>> list(rows), rows[1:][0]
    ([{'a': 1.0, 'b': 2.0}, {'b': 3.0}], {'b': 3.0})

    """
    values = X.to_numpy()
    if values.dtype != float:
        return records(X)
    return LazyRecords(X.columns, values.copy())


class LazyRecords(collections.abc.Sequence):
    """The rows of a checked float matrix as `records` makes them, converted when first read
    (a slice is converted on its own). The controller records a measured minibatch's rows for
    its reward, which mostly scores the booster's matrix of them instead (`PairedReward.lend`)
    and never reads the dicts; it owns `values`, a copy, since the caller may refill its frame.
    `keys`: the columns, a list or a pandas Index (immutable; listed when read, which can cost
    more than the rest for pandas' string columns).

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import LazyRecords
    >>> rows = LazyRecords(["a", "b"], np.array([[1.0, 2.0], [np.nan, 3.0], [4.0, 5.0]]))
    >>> len(rows), rows[1], list(rows[1:])
    (3, {'b': 3.0}, [{'b': 3.0}, {'a': 4.0, 'b': 5.0}])
    >>> list(rows.take([0, 2]))
    [{'a': 1.0, 'b': 2.0}, {'a': 4.0, 'b': 5.0}]

    """

    __slots__ = ("_keys", "_rows", "_values")

    def __init__(self, keys: list | np.ndarray, values: np.ndarray):
        self._keys = keys
        self._values = values
        self._rows: list[dict] | None = None

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return LazyRecords(self._keys, self._values[i])
        return self._list()[i]

    def __iter__(self) -> typing.Iterator[dict]:
        return iter(self._list())

    def take(self, positions: typing.Sequence[int]) -> LazyRecords:
        """The rows at `positions` (a list or a range of valid positions, in their order),
        still converted only when read: a round's sample of a frame."""
        return LazyRecords(self._keys, self._values[positions])

    def _list(self) -> list[dict]:
        if self._rows is None:
            keys = self._keys
            self._rows = _dicts(keys if isinstance(keys, list) else keys.tolist(), self._values)
        return self._rows


def _bad_cell(index, key, value) -> ValueError:
    return ValueError(
        f"{cell(index, key)} is {value!r}; expected a finite number "
        f"within +/-{LIMIT:g} or NaN for a missing value"
    )


def cell(index: typing.Hashable, key: typing.Hashable) -> str:
    """A frame's cell named in an error, its labels as the user wrote them: numpy's scalars
    (an integer index's labels, `X.index[i]`) as Python's, not their repr `np.int64(20)`.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import cell
    >>> cell(np.int64(20), "a"), cell("r2", np.int64(8))
    ("row 20, column 'a'", "row 'r2', column 8")

    """
    return f"row {_shown(index)}, column {_shown(key)}"


def matrix(X: pd.DataFrame) -> np.ndarray:
    """The frame as a float matrix with NaN for missing cells, under the frame policy of
    `records` (an infinite or absurd number raises ValueError naming its row and column; a
    non-numeric column raises TypeError naming it).

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.validation import matrix
    >>> matrix(pd.DataFrame({"a": [1.0, float("nan")], "b": [2, 3]}))
    array([[ 1.,  2.],
           [nan,  3.]])

    """
    values = X.to_numpy()
    if values.dtype.kind not in "biuf":  # mixed, object or extension dtypes: look per column
        if text := non_numeric(X):
            raise TypeError(f"column {text[0]!r} has dtype {X.dtypes[text[0]]}; expected numbers")
        values = X.to_numpy(dtype=float)
    elif values.dtype != float:
        values = values.astype(float)
    bad = np.abs(values) > LIMIT  # NaN compares False: missing cells pass
    if bad.any():
        row, col = map(int, np.argwhere(bad)[0])
        value = X.iat[row, col]
        raise _bad_cell(X.index[row], X.columns[col], getattr(value, "item", lambda: value)())
    return values


def check_distinct(names: typing.Iterable, where: str) -> None:
    """Raise ValueError if `names` (a header, a frame's columns) holds a name twice: a row as a
    dict keeps the last of them and drops the others (a second label column would be read as
    features). `where` names what holds them.

    Examples
    --------
    >>> from streamboost.validation import check_distinct
    >>> check_distinct(["a", "b", "a"], "the header")
    Traceback (most recent call last):
    ...
    ValueError: the header names column(s) 'a' more than once; expected distinct column names

    """
    repeated = [name for name, n in collections.Counter(names).items() if n > 1]
    if repeated:
        raise ValueError(f"{where} names column(s) {', '.join(map(repr, repeated))} more than "
                         "once; expected distinct column names")


def check_dataframe(X: typing.Any, method: str) -> None:
    """Raise TypeError unless `X`, handed to `method` (`learn_many`, `predict_proba_many`,
    ...), is a pandas DataFrame, as River's minibatch methods take it, and ValueError if it
    names a column twice (`check_distinct`: as a dict, a row would keep one of them).

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.validation import check_dataframe
    >>> check_dataframe(np.ones((2, 3)), "learn_many")
    Traceback (most recent call last):
    ...
    TypeError: learn_many takes X as a pandas DataFrame (River's minibatch methods do), got ...

    """
    pd = sys.modules.get("pandas")  # a frame is pandas', so pandas is imported if X is one
    if pd is None or not isinstance(X, pd.DataFrame):
        raise TypeError(f"{method} takes X as a pandas DataFrame (River's minibatch methods do), "
                        f"got {type(X).__name__}: one example at a time is a dict "
                        "(`learn_one`), a matrix is pd.DataFrame(matrix, columns=names)")
    global _unique_columns
    columns = X.columns
    # pandas 3's text columns build a hash table for `is_unique` (~20 us a new frame, a fifth
    # of a booster's minibatch of 32); comparing with the last columns found distinct, ~4 us
    if columns is _unique_columns:
        return
    if not (columns.equals(_unique_columns) or columns.is_unique):
        check_distinct(columns, "X")
    _unique_columns = columns


# The columns of the last frame `check_dataframe` found distinct (an Index, immutable): a frame
# with equal columns has distinct ones. Threads may race on it; any Index it holds is distinct.
_unique_columns: typing.Any = None


def non_numeric(X: pd.DataFrame) -> list:
    """The columns of `X` whose dtype holds neither numbers nor bools (text, categories,
    dates): those `matrix` refuses.

    Examples
    --------
    >>> import pandas as pd
    >>> from streamboost.validation import non_numeric
    >>> non_numeric(pd.DataFrame({"a": [1.0], "b": ["x"], "c": [True], "d": [2]}))
    ['b']

    """
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return [key for key, dtype in X.dtypes.items()
            if not (is_numeric_dtype(dtype) or is_bool_dtype(dtype))]


class FiniteFeatures(base.Transformer):
    """Refuse NaN, infinite or absurd feature values at the head of a pipeline.

    River's `Pipeline.learn_one` lets each transformer learn `x` before the next step sees it,
    so a classifier at the end that refuses a bad value comes too late for a `StandardScaler`
    before it. Put this step first: it passes `x` through unchanged, or raises ValueError
    (see `check_features`) before any step has learned anything. A bad *label* is only seen by
    the classifier, after the transformers before it have learned `x`: a pipeline cannot
    promise that a rejected label changes nothing, a classifier alone does.

    Examples
    --------
    >>> from river import linear_model, preprocessing
    >>> from streamboost.validation import FiniteFeatures
    >>> model = FiniteFeatures() | preprocessing.StandardScaler()
    >>> model |= linear_model.LogisticRegression()
    >>> model.learn_one({"a": 1.0}, True)
    >>> model.learn_one({"a": 1e300}, False)
    Traceback (most recent call last):
    ...
    ValueError: feature 'a' is 1e+300; expected a finite number within +/-1e+150 ...
    >>> model["StandardScaler"].counts["a"]  # the scaler never saw it
    1

    """

    def learn_one(self, x: dict) -> None:
        check_features(x)

    def transform_one(self, x: dict) -> dict:
        return check_features(x)

