"""Checkpoints that say what they are: atomic, versioned, checksummed pickles.

A checkpoint file is one line of magic, one line of JSON header (format, the streamboost version
that wrote it, the layout of its pickled state `STATE`, River's version, the class, the
payload's length and sha256), then the pickle. `save` writes a temporary file beside the
target, flushes it to disk and renames it over the target, so a crash never leaves a partial
file where a good one was. `load` refuses, with a ValueError saying which, a file that is not a
checkpoint, one whose pickled state another release laid out differently (another `STATE`, or
another River version, whose objects it holds: an old pickle may load and fail at the first
`learn_one`), and one whose bytes changed (any flipped byte fails the checksum). A checkpoint
written by another streamboost release of the same `STATE` and River loads, as a Java object
of the same `serialVersionUID` does in MOA: an upgrade that changes no state keeps the models
a stream has trained. Plain `pickle` keeps working for those who want it; it checks none of
this.

What a checkpoint holds is read back attribute by attribute, so it learns as fast as one never
saved (`streamboost.state`: pickle's own rule leaves an object whose every attribute access is
slower): a `Checkpointable` object by its `__setstate__`, a plain object in it (a River model,
the nodes of its trees) by `state.inline_dumps`. Writing one reads the `__dict__` of every
object saved, which slows those objects in CPython (docs/reliability.md), so `save` renews
the models in what it saved as a frozen snapshot does (`scores.snapshot`): each model, each
step of a pipeline and the model inside our wrappers (`CalibratedClassifier`,
`BanditCalibratedClassifier`, `CostSensitiveClassifier`) stays the object it was, and learns
on with fresh objects in place of what it held (a tree's nodes, an ensemble's members). Hold
the model, not its insides. The renewal loads each model back from its pickle before the file
is written: a model that would not load back makes `save` raise and leaves the file as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import typing
from pathlib import Path

from .atomic import written
from .state import InlineState, inline_dumps

__all__ = ["Checkpointable", "load", "save"]

MAGIC = b"streamboost checkpoint\n"
FORMAT = 2  # 1 (until 0.8.57): the streamboost version alone decided
# The layout of the state streamboost's objects pickle: bumped with any change to it (an
# attribute added, removed, renamed or given another meaning); tests/test_checkpoint_state.py
# holds the attribute names to tests/checkpoint_state.json, so a change of names fails there
# until this is bumped.
STATE = 2  # 2 (0.8.61): GLRKLUCB's forced-exploration clock is its n_rounds, no `_round`


def _river_version() -> str:
    import river

    return river.__version__


def _version() -> str:
    from . import __version__

    return __version__


def save(obj: typing.Any, path: str | os.PathLike) -> Path:
    """Write `obj` to `path` as a checkpoint, atomically; return the path.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from streamboost import OnlinePlattCalibrator, checkpoint
    >>> cal = OnlinePlattCalibrator()
    >>> cal.learn_one(0.8, True)
    >>> path = checkpoint.save(cal, pathlib.Path(tempfile.mkdtemp()) / "cal.ckpt")
    >>> checkpoint.load(path).A == cal.A
    True

    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; expected a file path")
    payload = inline_dumps(obj)
    header = {
        "format": FORMAT,
        "version": _version(),
        "state": STATE,
        "river": _river_version(),
        "class": f"{type(obj).__module__}.{type(obj).__qualname__}",
        "bytes": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    data = MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload
    try:
        # before writing: a model that does not load back from its pickle fails here, and the
        # file at `path` (an earlier good checkpoint, say) is left as it was
        _renew(obj)
    except Exception as error:
        error.add_note(f"streamboost: copying the model in {type(obj).__name__} through its "
                       f"pickle (the round trip a checkpoint's load makes) raised; nothing was "
                       f"written to {path}")
        raise
    with written(path) as tmp:
        tmp.write_bytes(data)
    return path


def _renew(obj: typing.Any) -> None:
    """Trade what the models in `obj` hold for fresh copies, as `scores.snapshot` does, keeping
    the models themselves: our calibrating wrappers train the user's model in place. Any other
    model is renewed whole (an ensemble's members are its own, a wrapper's prototype unused)."""
    from river import base, compose

    from .calibrated import CalibratedClassifier
    from .controller import BanditCalibratedClassifier
    from .decision import CostSensitiveClassifier
    from .scores import replan, snapshot

    if isinstance(obj, compose.Pipeline):
        for step in obj.steps.values():
            _renew(step)
        replan(obj)  # its plan refers to what the steps held (a union's pipelines)
    elif isinstance(obj, CalibratedClassifier | BanditCalibratedClassifier
                    | CostSensitiveClassifier):
        _renew(obj._wrapped_model)
    elif isinstance(obj, base.Estimator):
        snapshot(obj)  # the copy, which keeps the slowed objects, is dropped


def load(path: str | os.PathLike, cls: type | None = None) -> typing.Any:
    """Read a checkpoint written by `save` with a streamboost of this `STATE` and this River
    version, checking it first.

    `cls`, if given, is the class the object must be an instance of (TypeError otherwise).
    """
    if cls is not None and not isinstance(cls, type):
        raise TypeError(f"cls must be a class the checkpoint's object is an instance of, got "
                        f"{cls!r}")
    path = Path(path)
    data = path.read_bytes()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path} is not a streamboost checkpoint (no header); expected a file "
                         "written by streamboost's save()")
    line, sep, payload = data[len(MAGIC):].partition(b"\n")
    try:
        header = json.loads(line)
        form, version = header["format"], header["version"]
        expected = (header["bytes"], header["sha256"], header["class"])
        layout = (header["state"], header["river"]) if form == FORMAT else None
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path}: the checkpoint's header is corrupted") from None
    here = (STATE, _river_version())
    if form == 1:  # until 0.8.57, which recorded no layout: never this release's
        raise ValueError(
            f"{path} was written by streamboost {version}, whose checkpoints did not record "
            f"their state's layout; this is streamboost {_version()}: load it with that "
            f"version (or retrain)")
    if layout is None:  # another format
        raise ValueError(f"{path}: checkpoint format {form!r}; expected {FORMAT}")
    if layout != here:
        raise ValueError(
            f"{path} was written by streamboost {version} (state {layout[0]}) with River "
            f"{layout[1]}; this is streamboost {_version()} (state {STATE}) with River "
            f"{here[1]}, whose pickled objects may differ: load it with those versions (or "
            f"retrain)")
    if not sep or len(payload) != expected[0] or hashlib.sha256(payload).hexdigest() != expected[1]:
        raise ValueError(f"{path}: the checkpoint is corrupted (its checksum does not match)")
    obj = pickle.loads(payload)
    if f"{type(obj).__module__}.{type(obj).__qualname__}" != expected[2]:
        raise ValueError(f"{path}: the checkpoint's header is corrupted (class {expected[2]!r})")
    if cls is not None and not isinstance(obj, cls):
        raise TypeError(f"{path} holds a {type(obj).__name__}, expected a {cls.__name__}")
    return obj


class Checkpointable(InlineState):
    """`save(path)` and `cls.load(path)` for a model, calibrator or policy (see the module).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from river import linear_model
    >>> from streamboost import OzaBoostClassifier
    >>> model = OzaBoostClassifier(linear_model.LogisticRegression(), seed=1)
    >>> model.learn_one({"x": 1.0}, True)
    >>> path = model.save(pathlib.Path(tempfile.mkdtemp()) / "model.ckpt")
    >>> OzaBoostClassifier.load(path).predict_proba_one({"x": 1.0}) == model.predict_proba_one(
    ...     {"x": 1.0})
    True

    """

    def save(self, path: str | os.PathLike) -> Path:
        """Write this object to `path` as a checkpoint (atomic, versioned, checksummed)."""
        return save(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike) -> typing.Self:
        """Read a checkpoint of this class written by `save`."""
        return load(path, cls)
