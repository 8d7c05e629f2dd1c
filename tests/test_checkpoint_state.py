"""The layout of what streamboost's objects pickle, held to tests/checkpoint_state.json.

A checkpoint loads in any streamboost release of the same `checkpoint.STATE` (and River
version), so a change to what an object pickles must bump `STATE`, or a model saved by the
release before would load and fail at its first `learn_one`. This test walks what every public
class pickles (`__reduce_ex__`, as `pickle` does) after it has worked: each configuration of
its `_unit_test_params` after a short stream, and controllers, boosters and wrappers stopped in
the middle of a measured round, with examples waiting or held out; for each streamboost class
met on the way (River's objects are covered by River's version), the names of its pickled
attributes. Those must be the ones recorded for this `STATE`.

After a change of names, bump `checkpoint.STATE`, then rewrite the file:

    python tests/test_checkpoint_state.py --write

which refuses to overwrite the names of a `STATE` already recorded. A change of an attribute's
meaning under the same name is not seen here: bump `STATE` for it by hand.
"""

from __future__ import annotations

import collections
import json
import pickle
import sys
import types
from pathlib import Path

import pandas as pd
from river import datasets, linear_model, preprocessing, tree

from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    CostSensitiveClassifier,
    OzaBoostClassifier,
    checkpoint,
    weak,
)

RECORDED = Path(__file__).with_name("checkpoint_state.json")
ROWS = list(datasets.Phishing().take(80))


def _mid_round() -> list:
    """Objects stopped where they hold the most: a round being measured, examples waiting."""
    X = pd.DataFrame([x for x, _ in ROWS[:40]])
    y = pd.Series([label for _, label in ROWS[:40]])
    objects = []
    for model in (None, linear_model.LogisticRegression(), tree.HoeffdingTreeClassifier()):
        for rollback in ("copy", "defer", "holdout"):
            controller = BanditCalibratedClassifier(
                model=None if model is None else model.clone(), policy="discounted-ucb",
                batch_size=8, warmup=1, rollback=rollback, reward_examples=2, seed=0)
            for x, label in ROWS[:45]:
                controller.predict_proba_one(x)
                controller.learn_one(x, label)
            objects.append(controller)
    for rollback in ("copy", "defer"):  # by frames: their rows kept, a frame waiting
        by_frames = BanditCalibratedClassifier(
            model=preprocessing.StandardScaler() | OzaBoostClassifier(
                linear_model.LogisticRegression(), n_models=3, seed=0),
            policy="discounted-ucb", batch_size=8, warmup=1, rollback=rollback, seed=0)
        by_frames.learn_many(X.iloc[:36], y.iloc[:36])
        objects.append(by_frames)
    budget = BanditCalibratedClassifier(policy="discounted-ucb", batch_size=8, warmup=1,
                                        train_budget=0.5, budget_reserve=0.2, seed=0)
    budget.learn_many(X, y)
    objects.append(budget)
    for members in (linear_model.LogisticRegression(), tree.HoeffdingTreeClassifier(),
                    weak.DecisionStump(), weak.UnivariateLogisticRegression()):
        booster = OzaBoostClassifier(members, n_models=3, seed=0)
        booster.learn_many(X, y)
        objects.append(booster)
    variant = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0,
                                 variant="adac2", c_fn=2.0)
    windowed = CalibratedClassifier(linear_model.LogisticRegression(), window=16)
    costly = CostSensitiveClassifier(linear_model.LogisticRegression(), c_fn=3.0)
    for model in (variant, windowed, costly):
        for x, label in ROWS[:45]:
            model.learn_one(x, label)
        objects.append(model)
    return objects


def objects() -> list:
    from tests.test_parameters import CONCRETE, _use, configurations

    found = []
    for cls in CONCRETE:
        for params in configurations(cls):
            obj = cls(**params)
            _use(obj)
            found.append(obj)
    return found + _mid_round()


def layout(roots: list) -> dict[str, list[str]]:
    """streamboost's classes met in what `roots` pickle, each with its pickled attributes, and
    under `<references>` the classes and functions of streamboost pickled by name."""
    names: dict[str, set] = collections.defaultdict(set)
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, list | tuple | set | frozenset | collections.deque):
            kind = type(value)
            if hasattr(kind, "_fields") and kind.__module__.startswith("streamboost"):
                names[f"{kind.__module__}.{kind.__qualname__}"].update(kind._fields)
            stack.extend(value)
            continue
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
            continue
        kind = type(value)
        if isinstance(value, type | types.FunctionType | types.BuiltinFunctionType):
            module = getattr(value, "__module__", None) or ""
            if module.startswith("streamboost"):  # pickled by name: a rename breaks the load
                names["<references>"].add(f"{module}.{value.__qualname__}")
            continue
        if not kind.__module__.startswith("streamboost"):
            continue  # River's, numpy's, ...: their versions say what they pickle
        reduced = value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        key = f"{kind.__module__}.{kind.__qualname__}"
        names[key]  # a class that pickles no attribute is recorded too
        stack.extend(a for a in reduced[1] if a is not kind)  # what rebuilds it, but its class
        state = reduced[2] if len(reduced) > 2 else None
        for part in state if isinstance(state, tuple) else (state,):
            if isinstance(part, dict):  # __dict__, or the slots' values
                names[key].update(map(str, part))
                stack.extend(part.values())
            elif part is not None:
                names[key].add(f"<{type(part).__name__}>")
                stack.append(part)
    return {key: sorted(found) for key, found in sorted(names.items())}


def test_what_is_pickled_is_the_layout_recorded_for_this_state():
    recorded = json.loads(RECORDED.read_text())
    assert recorded["state"] == checkpoint.STATE, (
        f"checkpoint.STATE is {checkpoint.STATE}, {RECORDED.name} records state "
        f"{recorded['state']}: rewrite it (python tests/test_checkpoint_state.py --write)")
    now = layout(objects())
    changed = sorted(key for key in now.keys() | recorded["classes"].keys()
                     if now.get(key) != recorded["classes"].get(key))
    assert not changed, (
        f"what these classes pickle differs from state {checkpoint.STATE}'s layout: {changed}; "
        f"bump checkpoint.STATE, then python tests/test_checkpoint_state.py --write")


def test_the_walk_finds_the_attributes_of_nested_objects():
    # a wrong walk (no recursion, slots missed) would record too little to see a change
    found = layout(_mid_round()[:1])
    controller = found["streamboost.controller.BanditCalibratedClassifier"]
    assert {"_meter", "_policy", "_scorer", "_model", "arm_counts"} <= set(controller)
    assert "streamboost.reward.PairedReward" in found  # an attribute's object
    assert "streamboost.scores.FrozenScorer" in found  # inside the round being measured
    assert "model" in found["streamboost.scores.PrequentialScore"]  # __slots__


def main() -> None:
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {sys.argv[0]} --write")
    now = {"state": checkpoint.STATE, "classes": layout(objects())}
    if RECORDED.exists():
        recorded = json.loads(RECORDED.read_text())
        if recorded["state"] == checkpoint.STATE and recorded["classes"] != now["classes"]:
            sys.exit(f"state {checkpoint.STATE} is recorded with other names: bump "
                     f"checkpoint.STATE first (a checkpoint of the old names would load)")
    RECORDED.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    print(f"{RECORDED}: state {checkpoint.STATE}, {len(now['classes'])} classes")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parents[1]))  # `tests` importable as a package
    main()
