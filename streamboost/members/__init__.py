"""The members of a booster: River objects (the reference path) or arrays (the fast paths).

`resolve(engine, model, n_models, members, weighted)` picks how `OzaBoostClassifier` holds its
members (`weighted`: whether a member learns a Poisson draw k as one example of weight k):

* `"reference"`: `RiverMembers`, each member a River object asked one at a time;
* `"vectorised"`: the array engine of the member's kind, a TypeError if it has none;
* `"auto"` (the booster's default): the array engine when one supports the member (and the
  booster's `draws`), else the reference path.

Array engines: `LinearMembers` (River's `LogisticRegression` with plain SGD, either draws),
`UnivariateMembers` and `StumpMembers` (the weak learners of `streamboost.weak`, draws as
weights); each has a minibatch path (`learn_batch`, `batch_votes`). Any other member (trees,
forests, pipelines, naive Bayes...) takes the reference path.
"""

from __future__ import annotations

import typing

if typing.TYPE_CHECKING:
    from river import base as river_base

from ..validation import one_line
from .base import ArrayMembers
from .linear import LinearMembers
from .river import RiverMembers
from .weak import StumpMembers, UnivariateMembers, WeakMembers

__all__ = [
    "ENGINES",
    "ArrayMembers",
    "LinearMembers",
    "RiverMembers",
    "StumpMembers",
    "UnivariateMembers",
    "asks_weight",
    "engine_for",
    "resolve",
]

ENGINES = ("auto", "vectorised", "reference")

# what `resolve` builds as `kind(model, n_models, weighted)`
_Engine = type[LinearMembers] | type[WeakMembers]
_ARRAY_ENGINES: tuple[_Engine, ...] = (LinearMembers, UnivariateMembers, StumpMembers)


def asks_weight(model: river_base.Classifier) -> bool:
    """Whether `model` asks to learn a draw k as one example of weight k (`oza_weight`, as the
    weak learners of `streamboost.weak` do): the booster's `draws="auto"`."""
    return bool(getattr(model, "oza_weight", False))


def engine_for(model: river_base.Classifier,
               weighted: bool | None = None) -> _Engine | None:
    """The array engine that reproduces members cloned from `model`, learning a draw k as k
    calls or (`weighted`) as one call with weight k, or None. `weighted=None` is the booster's
    `draws="auto"`: as the model asks (`oza_weight`).

    Examples
    --------
    >>> from river import linear_model, tree
    >>> from streamboost.members import engine_for
    >>> engine_for(linear_model.LogisticRegression()).__name__
    'LinearMembers'
    >>> engine_for(tree.HoeffdingTreeClassifier()) is None
    True
    >>> from streamboost.weak import DecisionStump
    >>> engine_for(DecisionStump(), weighted=False) is None  # it learns a draw as a weight
    True

    """
    if weighted is None:
        weighted = asks_weight(model)
    return next(
        (engine for engine in _ARRAY_ENGINES if engine.supports(model, weighted)), None
    )


def resolve(
    engine: str, model: river_base.Classifier, n_models: int, members: list, weighted: bool = False
) -> ArrayMembers | RiverMembers:
    """How a booster of `n_models` clones of `model` holds them (see the module docstring)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    kind = engine_for(model, weighted) if engine != "reference" else None
    if kind is None:
        if engine == "vectorised":
            names = ", ".join(e.__name__ for e in _ARRAY_ENGINES)
            raise TypeError(
                f"engine='vectorised' has no array engine for {one_line(model)} with draws "
                f"{'as weights' if weighted else 'repeated'} (engines: {names}); "
                "use engine='auto' or 'reference'"
            )
        return RiverMembers(members, weighted)
    return kind(model, n_models, weighted)  # type: ignore[arg-type]  # `supports(model)` held
