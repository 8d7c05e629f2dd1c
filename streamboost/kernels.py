"""Compiled twins of Oza boosting's hot loops, used when they are built.

`streamboost/_kernels.c`, built at install as an optional extension (setup.py), does in C what
the Python loops do, the same floating-point operations in the same order and the same random
draws, so results are identical either way (the tests run both on real streams). With no C
compiler at install, or with the environment variable `STREAMBOOST_KERNELS=0` when streamboost
is imported, `compiled` is None and the Python loops run.

* `oza_linear`: `OzaBoostClassifier.learn_one`'s member loop over logistic-regression members
  (`members.LinearMembers.boost`).

Examples
--------
>>> from streamboost import kernels
>>> kernels.compiled is None or callable(kernels.compiled.oza_linear)
True

"""

from __future__ import annotations

import os
import types

__all__ = ["compiled"]


def _load() -> types.ModuleType | None:
    if os.environ.get("STREAMBOOST_KERNELS", "1") == "0":
        return None
    try:
        from . import _kernels
    except ImportError:
        return None
    return _kernels


compiled = _load()
