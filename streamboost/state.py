"""An object's state read and written attribute by attribute, never through its `__dict__`.

CPython 3.11 keeps a plain object's attributes in an array inside the object and reads them by
specialised fast paths. The first read of the object's `__dict__` (by `vars`, `copy.copy`, a
pickle, or `obj.__dict__` itself) turns that array into a dict, and every later attribute
access of that object takes a slower path for the rest of its life. An object unpickled by
the default rule is born that way (one born with more than 30 attributes has a dict too, at a
much smaller cost). On a hot path that costs: one frozen copy of the booster's members made
their every later example slower (the controller made one at its first measured reward; the
figures: `docs/reliability.md`).

So the objects of the hot path keep out of their own `__dict__`: the array members declare
`__slots__` (no dict at all), what copies or pickles an object goes through `get_state`,
`set_state` and `new_from` with the names of its attributes, which a class lists once, and
`InlineState` reads a pickle back attribute by attribute.

Examples
--------
>>> from streamboost.state import get_state, new_from, set_state, slot_names
>>> class Point:
...     __slots__ = ("x", "ys")
...     def __init__(self, x, ys):
...         self.x, self.ys = x, ys
>>> p = Point(1.0, [2.0])
>>> q = new_from(Point, get_state(p, slot_names(Point)))
>>> q.ys.append(3.0)
>>> p.ys, q.ys, get_state(q, ("x", "ys", "z"))
([2.0], [2.0, 3.0], {'x': 1.0, 'ys': [2.0, 3.0]})
>>> r = object.__new__(Point)
>>> set_state(r, {"x": 5.0, "ys": []})
>>> r.x
5.0

An object read back from a pickle by `InlineState` (every calibrator is one) keeps its
attributes inline; `gc.get_referents` shows no dict of them:

>>> import gc, pickle
>>> from streamboost.calibration import OnlinePlattCalibrator
>>> cal = pickle.loads(pickle.dumps(OnlinePlattCalibrator()))
>>> cal.n_seen, any(isinstance(r, dict) for r in gc.get_referents(cal))
(0, False)

"""

from __future__ import annotations

import copyreg
import functools
import io
import pickle
import typing

import numpy as np

_T = typing.TypeVar("_T")

__all__ = [
    "InlineState",
    "dict_only",
    "get_state",
    "inline_dumps",
    "new_from",
    "one_level",
    "set_state",
    "slot_names",
]

_MISSING = object()


@functools.cache
def slot_names(cls: type) -> tuple[str, ...]:
    """Every slot `cls` and its bases declare, base classes first."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in klass.__dict__.get("__slots__", ()):
            if name not in names:
                names.append(name)
    return tuple(names)


def get_state(obj: object, names: typing.Iterable[str]) -> dict:
    """`obj`'s attributes `names` as a dict (those it does not have are left out)."""
    state = {}
    for name in names:
        value = getattr(obj, name, _MISSING)
        if value is not _MISSING:
            state[name] = value
    return state


def set_state(obj: object, state: typing.Mapping[str, typing.Any]) -> None:
    """Set `obj`'s attributes from `state`, one by one (what `__setstate__` should do)."""
    for name, value in state.items():
        object.__setattr__(obj, name, value)


def one_level(value: typing.Any) -> typing.Any:
    """A copy of `value` one level deep if it is a numpy array, a list or a dict; else `value`."""
    return value.copy() if isinstance(value, (np.ndarray, list, dict)) else value


def copy_attributes(source: object, target: object, names: tuple[str, ...]) -> None:
    """`object.__setattr__(target, name, one_level(getattr(source, name)))` for each of
    `names`, in order: the twin of the compiled `copy_attributes`.

    >>> import types
    >>> from streamboost.state import copy_attributes
    >>> source, target = types.SimpleNamespace(keys=["a"], n=3), types.SimpleNamespace()
    >>> copy_attributes(source, target, ("keys", "n"))
    >>> target.keys == source.keys, target.keys is source.keys, target.n
    (True, False, 3)

    """
    for name in names:
        object.__setattr__(target, name, one_level(getattr(source, name)))


def new_from(cls: type[_T], state: typing.Mapping[str, typing.Any],
             copied: typing.Callable = one_level) -> _T:
    """A new object of class `cls` (its `__init__` not called) with the attributes of `state`,
    each passed through `copied`; by default numpy arrays, lists and dicts are copied one level
    deep and everything else is shared."""
    new = object.__new__(cls)
    for name, value in state.items():
        object.__setattr__(new, name, copied(value))
    return new


def inline_dumps(obj: object, dispatch_table: dict | None = None) -> bytes:
    """`pickle.dumps(obj)` (highest protocol), except that every *plain* object in it (a Python
    class pickled by the default rule: no `__slots__`, no reduction or state methods of its own,
    no built-in base but `object`, such as River's estimators and the nodes and splitters of its
    trees) is read back attribute by attribute (`set_state`), so it keeps them inline where
    `pickle.loads` would give it a dict (tests/test_checkpoint.py checks the layout on CPython
    3.11; docs/reliability.md). `dispatch_table` adds reductions by type.

    >>> import pickle
    >>> from river import stats
    >>> mean = stats.Mean()
    >>> mean.update(2.0)
    >>> inline = pickle.loads(inline_dumps(mean))
    >>> inline.get(), inline.n, inline is mean
    (2.0, 1.0, False)

    """
    buffer = io.BytesIO()
    pickler = _InlinePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    if dispatch_table is not None:
        pickler.dispatch_table = {**copyreg.dispatch_table, **dispatch_table}
    pickler.dump(obj)
    return buffer.getvalue()


class _InlinePickler(pickle.Pickler):
    def reducer_override(self, obj):
        cls = type(obj)
        # (ignored for mypy: a class is not Hashable to it)
        state = getattr(obj, "__dict__", None) if _plain(cls) else None  # type: ignore[arg-type]
        if state is None:  # (an extension type with no dict: pickle's own rule, or its error)
            return NotImplemented
        # what the default rule makes of it (copyreg.__reduce_ex__), read back by set_state
        return (copyreg.__newobj__,  # type: ignore[attr-defined]  # in copyreg, not in its stub
                (cls,), state, None, None, set_state)


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


@functools.cache
def dict_only(cls: type) -> bool:
    """Whether instances of `cls` hold all their state in their `__dict__`: a Python class
    with no built-in base but `object` (no list items) and no `__slots__`."""
    mro = cls.__mro__
    return (
        mro[-1] is object
        and all(k.__flags__ & _HEAP_TYPE for k in mro[:-1])
        and not any(k.__dict__.get("__slots__") for k in mro)
    )


@functools.cache
def _plain(cls: type) -> bool:
    """Whether instances of `cls` are pickled by the default rule, state = their `__dict__`."""
    return (
        not issubclass(cls, type)  # a class is pickled by name
        and dict_only(cls)  # type: ignore[arg-type]  # mypy: a class is not Hashable
        and cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and getattr(cls, "__getstate__", None) is getattr(object, "__getstate__", None)
        and not hasattr(cls, "__setstate__")
        and not hasattr(cls, "__getnewargs_ex__")
        and not hasattr(cls, "__getnewargs__")
    )


class InlineState:
    """A mixin whose `__setstate__` sets the pickled attributes one by one (`set_state`), so an
    object read back keeps them inline; pickle's own rule would not."""

    __slots__ = ()

    def __setstate__(self, state: dict) -> None:
        set_state(self, state)
