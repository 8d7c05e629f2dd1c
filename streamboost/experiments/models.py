"""The base models a grid, the CLI and the simulations can name: River classifiers and boosters.

Examples
--------
>>> from streamboost.experiments.models import MODELS, make_model
>>> sorted(MODELS)
['arf', 'ht', 'lr', 'oza-ht', 'oza-lr', 'oza-stump', 'oza-ulr']
>>> make_model("oza-ht", n_models=3, seed=1).n_models
3
>>> make_model("oza-stump", n_models=100).model
DecisionStump ()
>>> make_model("oza-lr", score="soft").score
'soft'

"""

from __future__ import annotations

import typing

from river import base, compose, forest, linear_model, preprocessing, tree

from .. import datasets, weak
from ..boosting import SCORES, OzaBoostClassifier
from ..validation import did_you_mean

__all__ = ["MODELS", "check_model_name", "check_score", "encoding", "make_model", "pipeline"]

#: What each name builds; `n_models` sizes the ensembles, `seed` seeds their randomness.
MODELS: dict[str, str] = {
    "oza-lr": "OzaBoostClassifier(LogisticRegression(), n_models, seed): the default",
    "oza-ht": "OzaBoostClassifier(HoeffdingTreeClassifier(), n_models, seed)",
    # the thesis's weak learners (Nikolaou 2016 boosts 100 of them)
    "oza-stump": "OzaBoostClassifier(weak.DecisionStump(), n_models, seed)",
    "oza-ulr": "OzaBoostClassifier(weak.UnivariateLogisticRegression(), n_models, seed)",
    "lr": "linear_model.LogisticRegression()",
    "ht": "tree.HoeffdingTreeClassifier()",
    "arf": "forest.ARFClassifier(n_models, seed)",
}

_BUILDERS: dict[str, typing.Callable[[int, int | None, dict], base.Classifier]] = {
    "oza-lr": lambda n, seed, score: OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=n, seed=seed, **score
    ),
    "oza-ht": lambda n, seed, score: OzaBoostClassifier(
        tree.HoeffdingTreeClassifier(), n_models=n, seed=seed, **score
    ),
    "oza-stump": lambda n, seed, score: OzaBoostClassifier(
        weak.DecisionStump(), n_models=n, seed=seed, **score
    ),
    "oza-ulr": lambda n, seed, score: OzaBoostClassifier(
        weak.UnivariateLogisticRegression(), n_models=n, seed=seed, **score
    ),
    "lr": lambda n, seed, score: linear_model.LogisticRegression(),
    "ht": lambda n, seed, score: tree.HoeffdingTreeClassifier(),
    "arf": lambda n, seed, score: forest.ARFClassifier(n_models=n, seed=seed),
}
# the models whose score `make_model` sets (`OzaBoostClassifier(score=...)`)
_BOOSTERS = ("oza-lr", "oza-ht", "oza-stump", "oza-ulr")


# The models that need categorical features one-hot encoded: River's trees split on categories
# given as strings (nominal splitters), and never on one-hot dicts, which leave an absent
# indicator out, so a tree sees every indicator as 1 (on one-hot mushroom a Hoeffding tree keeps
# one leaf and scores 0.25, chance). The weak learners take numbers only: an indicator present
# is a candidate voting its examples' class, as in simulations/thesis_protocol.py.
_ONE_HOT = ("oza-lr", "lr", "oza-stump", "oza-ulr")


def encoding(name: str) -> str | None:
    """How `datasets.stream` encodes categorical features for the model `name`: `"onehot"` for
    the linear models and the weak learners, None (the categories as strings) for the trees.

    Examples
    --------
    >>> from streamboost.experiments.models import encoding
    >>> encoding("oza-lr"), encoding("ht")
    ('onehot', None)

    """
    return "onehot" if check_model_name(name) in _ONE_HOT else None


def check_model_name(name: str) -> str:
    """Return `name` if it is a key of `MODELS`, else raise ValueError naming them."""
    if not isinstance(name, str) or name not in MODELS:
        raise ValueError(f"unknown model {name!r}{did_you_mean(name, MODELS)}; expected one of "
                         f"{', '.join(sorted(MODELS))}")
    return name


def check_score(name: str, score: str | None) -> None:
    """Raise ValueError unless `name` is a key of `MODELS` and `score` None (the model's own)
    or, for a booster, one of `OzaBoostClassifier`'s scores.

    Examples
    --------
    >>> from streamboost.experiments.models import check_score
    >>> check_score("oza-ht", "soft")
    >>> check_score("arf", "soft")
    Traceback (most recent call last):
    ...
    ValueError: score='soft' sets a booster's score (oza-lr, oza-ht, ...); 'arf' has its own ...

    """
    check_model_name(name)
    if score is None:
        return
    if name not in _BOOSTERS:
        raise ValueError(f"score={score!r} sets a booster's score ({', '.join(_BOOSTERS)}); "
                         f"{name!r} has its own probabilities")
    if score not in SCORES:
        raise ValueError(f"score must be one of {SCORES} or None, got {score!r}")


def make_model(name: str, n_models: int = 10, seed: int | None = None,
               score: str | None = None) -> base.Classifier:
    """A fresh, untrained model called `name` (see `MODELS`); `score`: a booster's
    (`OzaBoostClassifier(score=...)`; None: its default, the vote)."""
    check_score(name, score)
    return _BUILDERS[name](n_models, seed, {} if score is None else {"score": score})


def pipeline(model: base.Estimator, dataset: str,
             cost_feature: typing.Hashable | None = None) -> compose.Pipeline:
    """`StandardScaler() | model` for a numeric dataset of the registry, else `model` alone (in
    a pipeline); `cost_feature`, a column read raw for each example's cost, scaled for the model.

    A categorical dataset reaches a linear model one-hot encoded by `datasets.stream`
    (`encoding`), and River's scaler sees an indicator only when it is 1 (an absent key is not a
    0 to it), so it learns mean 1, variance 0 and maps every indicator to 0: the model would see
    no features at all and score 0.25, chance, on mushroom. Indicators are on a unit scale
    already; a tree gets the categories as strings. A CSV file is left unscaled here:
    `datasets.stream(..., scale=True)` scales its numeric columns, but for `cost_feature`
    (`unscaled`), which a scaler of its own scales here, after the cost has been read.

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.experiments.models import pipeline
    >>> list(pipeline(linear_model.LogisticRegression(), "phishing").steps)
    ['StandardScaler', 'LogisticRegression']
    >>> list(pipeline(linear_model.LogisticRegression(), "mushroom").steps)
    ['LogisticRegression']
    >>> model = pipeline(linear_model.LogisticRegression(), "fraud.csv", "amount")
    >>> for x in ({"amount": 100.0, "hour": 0.5}, {"amount": 300.0, "hour": -0.5}):
    ...     model.learn_one(x, True)
    >>> sorted(model.transform_one({"amount": 300.0, "hour": -0.5}).items())
    [('amount', 1.0), ('hour', -0.5)]

    """
    spec = datasets.REGISTRY.get(dataset)
    if spec is None or spec.categorical:
        if cost_feature is None:
            return compose.Pipeline(model)
        own = compose.Select(cost_feature) | preprocessing.StandardScaler()
        return compose.TransformerUnion(own, compose.Discard(cost_feature)) | model
    return preprocessing.StandardScaler() | model
