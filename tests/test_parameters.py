"""Every public class, every parameter: a wrong value is refused when the object is built, or
the object works with it; and so for the stream, prequential and simulation functions.

The reliability catalogue (tests/test_reliability.py) lists bad inputs one by one; this sweep
covers every constructor parameter of every public estimator, calibrator, policy, metric and
weak learner, found from the modules' `__all__`, so a parameter added without a check is caught,
and every keyword parameter of `datasets.stream`, `evaluate.prequential`, the bandit
environments and `bandits.simulate`. A value is wrong in kind (a River regressor, transformer,
regression metric, drift detector where something else is meant, a calibrator or a policy out of
place) or in value (a string, NaN, infinity, -1, a list, an object, ...). What must not happen:
a value accepted when the object is built that makes it fail later, with any error, or give a
non-finite number. (`metrics.Binarized` took a regression metric and failed at its first update,
with an AttributeError, until 0.8.57.) Labels are exempt: `pos_label` and `neg_label` take any
hashable, and a label the stream never shows is named when it meets the stream's.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import math
import warnings

import pytest
from river import datasets, drift, linear_model, preprocessing
from river import metrics as river_metrics

import streamboost
from streamboost import bandits, calibration, evaluate, metrics, weak
from streamboost import datasets as streams

LABELS = {"pos_label", "neg_label"}  # any hashable (see the module docstring)

WRONG = {
    "a regressor": linear_model.LinearRegression(),
    "a transformer": preprocessing.StandardScaler(),
    "a regression metric": river_metrics.MAE(),
    "metrics, one for regression": river_metrics.base.Metrics([river_metrics.LogLoss(),
                                                                river_metrics.MAE()]),
    "a drift detector": drift.ADWIN(),
    "a calibrator": calibration.OnlinePlattCalibrator(),
    "a policy": bandits.UCB1(),
    "a string": "x",
    "nan": math.nan,
    "infinity": math.inf,
    "-1": -1,
    "0": 0,
    "True": True,
    "0.5": 0.5,
    "a list": [1],
    "an object": object(),
}

ROWS = list(datasets.Phishing().take(80))


def _public(module, base: type) -> list[type]:
    found = (getattr(module, name) for name in module.__all__)
    return [c for c in found if inspect.isclass(c) and issubclass(c, base) and c is not base]


CLASSES = [
    streamboost.BanditCalibratedClassifier, streamboost.CalibratedClassifier,
    streamboost.CostSensitiveClassifier, streamboost.OzaBoostClassifier,
    *_public(calibration, calibration.Calibrator), *_public(bandits, bandits.Policy),
    *_public(metrics, river_metrics.base.Metric), *_public(weak, weak.WeakLearner),
]


def configurations(cls: type) -> list[dict]:
    """Parameters that build a working object: its unit-test params, or none."""
    if cls is metrics.Binarized:
        return [{"metric": river_metrics.ROCAUC()}]
    if "_unit_test_params" in vars(cls):
        return list(cls._unit_test_params())
    return [{}]


def _base_params(cls: type) -> dict:
    """The first of `configurations`."""
    return configurations(cls)[0]


# the classes that can be built (`metrics.DecisionMetric` is abstract)
CONCRETE = [cls for cls in CLASSES if not inspect.isabstract(cls)]


def _use(obj) -> list[float]:
    """Run `obj` a little, as its kind is used; the numbers it gives."""
    if isinstance(obj, calibration.Calibrator):
        for i in range(60):
            obj.learn_one(i / 60, i % 3 == 0)
        return [obj.predict_one(s) for s in (0.0, 0.3, 1.0)]
    if isinstance(obj, bandits.Policy):
        low, high = obj.reward_range or (0.0, 1.0)
        arms = []
        for t in range(40):
            arms.append(obj.select())
            obj.update(arms[-1], low + (high - low) * (t * 7 % 10) / 10)
        return [float(arm) for arm in arms]
    if isinstance(obj, river_metrics.base.Metric):
        for i, (_, y) in enumerate(ROWS[:40]):
            p = (i % 10) / 10
            obj.update(y, {True: p, False: 1.0 - p})
        value = obj.get()
        return [value] if isinstance(value, float) else []
    out = []
    for x, y in ROWS:
        out.extend(obj.predict_proba_one(x).values())
        obj.learn_one(x, y)
    return out


def _warm(classes: list[type]) -> None:
    """One working instance of each class, used, built as this module is imported (before any
    test runs). CPython 3.11 stops growing a class's shared attribute keys once some thirty of
    its instances exist (`dk_usable`): had the sweep's refused instances, which set no
    attribute, come first, every later instance of the class would hold a dict of its own,
    slower and pickled differently, and tests that run after the sweep (pytest-xdist's order:
    test_kernels.py's inline attributes, test_checkpoint.py's round trips) would fail."""
    for cls in classes:
        _use(cls(**_base_params(cls)))


_warm(CONCRETE)

CASES = [
    pytest.param(cls, name, tag, id=f"{cls.__name__}-{name}-{tag}")
    for cls in CLASSES
    for name in inspect.signature(cls).parameters
    if name not in LABELS
    for tag in WRONG
]


def test_the_sweep_covers_every_kind():
    names = {cls.__name__ for cls in CLASSES}
    assert {"CalibratedClassifier", "OnlineIsotonicCalibrator", "DiscountedUCB", "Binarized",
            "DecisionStump"} <= names
    assert len(CASES) > 1000


@pytest.mark.parametrize(("cls", "name", "tag"), CASES)
def test_a_wrong_parameter_is_refused_when_built_or_works(cls, name, tag):
    params = {**_base_params(cls), name: WRONG[tag]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            obj = cls(**params)
        except (ValueError, TypeError):
            return  # refused when built
        numbers = _use(obj)  # accepted: it must work
    assert all(math.isfinite(v) for v in numbers), numbers


def _stream(**params) -> list:
    return list(itertools.islice(streams.stream("phishing", **params), 50))


def _prequential(**params) -> evaluate.RunResult:
    return evaluate.prequential(linear_model.LogisticRegression(), ROWS, **params)


def _environment(cls: type):
    def run(**params) -> bandits.SimulationResult:
        return bandits.simulate(bandits.UCB1(n_arms=cls().n_arms), cls(**params), 50, seed=1)
    return run


def _simulate(**params) -> bandits.SimulationResult:
    return bandits.simulate(bandits.UCB1(), bandits.BernoulliArms(),
                            **{"n_rounds": 50, "seed": 1, **params})


ENVIRONMENTS = [bandits.BernoulliArms, bandits.PiecewiseBernoulli, bandits.DiminishingReturns,
                bandits.RisingArms]
FUNCTIONS = [  # (name, the call, its parameters swept)
    ("stream", _stream, [p for p in inspect.signature(streams.stream).parameters
                         if p != "source"]),
    ("prequential", _prequential, [p for p in inspect.signature(evaluate.prequential).parameters
                                   if p not in {"model", "stream", "pos_label"}]),
    *((cls.__name__, _environment(cls), list(inspect.signature(cls).parameters))
      for cls in ENVIRONMENTS),
    ("simulate", _simulate, ["n_rounds", "seed"]),
]
CALLS = [
    pytest.param(call, name, tag, id=f"{label}-{name}-{tag}")
    for label, call, names in FUNCTIONS
    for name in names
    for tag in WRONG
]


@pytest.mark.parametrize(("call", "name", "tag"), CALLS)
def test_a_wrong_argument_is_refused_or_works(call, name, tag):
    # refused (ValueError, TypeError), or it runs: any other error fails here
    with warnings.catch_warnings(), contextlib.suppress(ValueError, TypeError):
        warnings.simplefilter("ignore")
        call(**{name: WRONG[tag]})
