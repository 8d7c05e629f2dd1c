"""The members of a booster: River objects (the reference path) or arrays (the fast paths).

`resolve(engine, model, n_models, members)` picks how `OzaBoostClassifier` holds its members:

* `"reference"`: `RiverMembers`, each member a River object asked one at a time;
* `"vectorised"`: the array engine of the member's kind, a TypeError if it has none;
* `"auto"` (the booster's default): the array engine when one supports the member, else the
  reference path.

Array engines: `LinearMembers` (River's `LogisticRegression` with plain SGD), `UnivariateMembers`
and `StumpMembers` (the weak learners of `streamboost.weak`). Any other member (trees, forests,
pipelines, naive Bayes...) takes the reference path.
"""

from __future__ import annotations

from .base import ArrayMembers
from .linear import LinearMembers
from .river import RiverMembers
from .weak import StumpMembers, UnivariateMembers

__all__ = [
    "ENGINES",
    "ArrayMembers",
    "LinearMembers",
    "RiverMembers",
    "StumpMembers",
    "UnivariateMembers",
    "engine_for",
    "resolve",
]

ENGINES = ("auto", "vectorised", "reference")

_ARRAY_ENGINES: tuple[type[ArrayMembers], ...] = (LinearMembers, UnivariateMembers, StumpMembers)


def engine_for(model) -> type[ArrayMembers] | None:
    """The array engine that reproduces members cloned from `model`, or None.

    Examples
    --------
    >>> from river import linear_model, tree
    >>> from streamboost.members import engine_for
    >>> engine_for(linear_model.LogisticRegression()).__name__
    'LinearMembers'
    >>> engine_for(tree.HoeffdingTreeClassifier()) is None
    True

    """
    return next((engine for engine in _ARRAY_ENGINES if engine.supports(model)), None)


def resolve(engine: str, model, n_models: int, members: list) -> ArrayMembers | RiverMembers:
    """How a booster of `n_models` clones of `model` holds them (see the module docstring)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    kind = engine_for(model) if engine != "reference" else None
    if kind is None:
        if engine == "vectorised":
            names = ", ".join(e.__name__ for e in _ARRAY_ENGINES)
            raise TypeError(
                f"engine='vectorised' has no array engine for {model!r:.60} (engines: {names}); "
                "use engine='auto' or 'reference'"
            )
        return RiverMembers(members)
    return kind(model, n_models)
