"""The base models a grid, the CLI and the simulations can name: River classifiers and boosters.

Examples
--------
>>> from streamboost.experiments.models import MODELS, make_model
>>> sorted(MODELS)
['arf', 'ht', 'lr', 'oza-ht', 'oza-lr']
>>> make_model("oza-ht", n_models=3, seed=1).n_models
3

"""

from __future__ import annotations

import typing

from river import base, forest, linear_model, tree

from ..boosting import OzaBoostClassifier

__all__ = ["MODELS", "check_model_name", "make_model"]

#: What each name builds; `n_models` sizes the ensembles, `seed` seeds their randomness.
MODELS: dict[str, str] = {
    "oza-lr": "OzaBoostClassifier(LogisticRegression(), n_models, seed): the default",
    "oza-ht": "OzaBoostClassifier(HoeffdingTreeClassifier(), n_models, seed)",
    "lr": "linear_model.LogisticRegression()",
    "ht": "tree.HoeffdingTreeClassifier()",
    "arf": "forest.ARFClassifier(n_models, seed)",
}

_BUILDERS: dict[str, typing.Callable[[int, int | None], base.Classifier]] = {
    "oza-lr": lambda n, seed: OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=n, seed=seed
    ),
    "oza-ht": lambda n, seed: OzaBoostClassifier(
        tree.HoeffdingTreeClassifier(), n_models=n, seed=seed
    ),
    "lr": lambda n, seed: linear_model.LogisticRegression(),
    "ht": lambda n, seed: tree.HoeffdingTreeClassifier(),
    "arf": lambda n, seed: forest.ARFClassifier(n_models=n, seed=seed),
}


def check_model_name(name: str) -> str:
    """Return `name` if it is a key of `MODELS`, else raise ValueError naming them."""
    if not isinstance(name, str) or name not in MODELS:
        raise ValueError(f"unknown model {name!r}; expected one of {', '.join(sorted(MODELS))}")
    return name


def make_model(name: str, n_models: int = 10, seed: int | None = None) -> base.Classifier:
    """A fresh, untrained model called `name` (see `MODELS`)."""
    return _BUILDERS[check_model_name(name)](n_models, seed)
