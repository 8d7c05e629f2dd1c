"""Tests of checkpoints: round trips of every model, calibrator and policy, atomic writes, other
versions and corrupted bytes refused, and a resume in a fresh process that is bit-identical."""

from __future__ import annotations

import gc
import json
import os
import pickle
import random
import re
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from river import datasets, forest, linear_model, preprocessing, tree

import streamboost
from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    CostSensitiveClassifier,
    OzaBoostClassifier,
    bandits,
    calibration,
    checkpoint,
)

ROWS = list(datasets.Phishing().take(400))


def trained_models():
    models = {
        "oza": OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1),
        "calibrated": CalibratedClassifier(tree.HoeffdingTreeClassifier(), calibrator="beta"),
        "controller": BanditCalibratedClassifier(
            model=linear_model.LogisticRegression(), policy="discounted-ucb", batch_size=8,
            warmup=1, seed=2,
        ),
        "cost-sensitive": CostSensitiveClassifier(linear_model.LogisticRegression()),
        # saved while a minibatch's training examples wait for a reward to be scored
        "deferring": BanditCalibratedClassifier(
            model=tree.HoeffdingTreeClassifier(), policy="discounted-ucb", batch_size=8,
            warmup=1, rollback="defer", seed=2,
        ),
        # saved while a minibatch's first examples are held out of learning until it ends
        "holding out": BanditCalibratedClassifier(
            model=tree.HoeffdingTreeClassifier(), policy="discounted-ucb", batch_size=8,
            warmup=1, rollback="holdout", reward_examples=6, seed=2,
        ),
    }
    for model in models.values():
        for x, y in ROWS[:300]:
            model.learn_one(x, y)
    return models


@pytest.mark.parametrize("name", ["oza", "calibrated", "controller", "cost-sensitive",
                                  "deferring", "holding out"])
def test_models_round_trip_and_keep_learning_identically(name, tmp_path):
    model = trained_models()[name]
    path = model.save(tmp_path / "model.ckpt")
    loaded = type(model).load(path)
    if name == "deferring":
        assert loaded._held or loaded._waiting  # what waits is saved with it
    if name == "holding out":
        assert loaded._held_out and loaded._meter.recording
    for x, y in ROWS[300:]:
        assert loaded.predict_proba_one(x) == model.predict_proba_one(x)
        loaded.learn_one(x, y)
        model.learn_one(x, y)


@pytest.mark.parametrize("name", sorted(calibration.CALIBRATORS))
def test_calibrators_round_trip(name, tmp_path):
    cal = calibration.make(name)
    cal.learn_many([0.1, 0.7, 0.9], [False, True, True])
    loaded = calibration.CALIBRATORS[name].load(cal.save(tmp_path / "c.ckpt"))
    assert pickle.dumps(loaded) == pickle.dumps(cal)


@pytest.mark.parametrize("name", ["ucb1", "discounted-thompson", "exp3", "kl-ucb"])
def test_policies_round_trip_with_their_random_state(name, tmp_path):
    policy = bandits.make(name, n_arms=3, seed=4)
    for _ in range(20):
        policy.update(policy.select(), random.random())
    loaded = bandits.base.Policy.load(policy.save(tmp_path / "p.ckpt"))
    assert [loaded.select() for _ in range(30)] == [policy.select() for _ in range(30)]


def test_load_checks_the_class(tmp_path):
    path = calibration.OnlinePlattCalibrator().save(tmp_path / "c.ckpt")
    with pytest.raises(TypeError, match="holds a OnlinePlattCalibrator, expected a Oza"):
        OzaBoostClassifier.load(path)
    for cls in ("OzaBoostClassifier", OzaBoostClassifier(linear_model.LogisticRegression())):
        with pytest.raises(TypeError, match="cls must be a class the checkpoint's object is"):
            checkpoint.load(path, cls=cls)


def test_a_failed_save_leaves_the_previous_checkpoint_and_no_temporary_file(
    tmp_path, monkeypatch
):
    model = trained_models()["oza"]
    path = model.save(tmp_path / "model.ckpt")
    good = path.read_bytes()

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    model.learn_one(*ROWS[0])
    with pytest.raises(OSError, match="disk full"):
        model.save(path)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.ckpt"]


class _Unloadable(linear_model.LogisticRegression):
    """A model that pickles but does not load back (as one whose `__setstate__` needs what the
    loading process lacks)."""

    def __setstate__(self, state):
        raise RuntimeError("cannot load here")


def test_a_model_that_would_not_load_back_fails_the_save_before_the_file_is_touched(tmp_path):
    path = tmp_path / "model.ckpt"
    CalibratedClassifier(linear_model.LogisticRegression()).save(path)
    good = path.read_bytes()
    model = CalibratedClassifier(_Unloadable())
    twin = CalibratedClassifier(linear_model.LogisticRegression())
    for x, y in ROWS[:20]:
        model.learn_one(x, y)
        twin.learn_one(x, y)
    with pytest.raises(RuntimeError, match="cannot load here") as raised:
        model.save(path)
    assert "nothing was written to" in "".join(raised.value.__notes__)
    assert path.read_bytes() == good  # the earlier checkpoint, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.ckpt"]
    for x, y in ROWS[20:40]:  # the failed save left the model as it was
        assert model.predict_proba_one(x) == twin.predict_proba_one(x)
        model.learn_one(x, y)
        twin.learn_one(x, y)


def test_another_release_of_the_same_state_loads(tmp_path, monkeypatch):
    # an upgrade that changes no pickled state keeps a checkpoint: the version is only named
    model = trained_models()["oza"]
    path = model.save(tmp_path / "model.ckpt")
    monkeypatch.setattr(checkpoint, "_version", lambda: "9.9.9")
    loaded = checkpoint.load(path, OzaBoostClassifier)
    for x, y in ROWS[300:340]:
        assert loaded.predict_proba_one(x) == model.predict_proba_one(x)
        loaded.learn_one(x, y)
        model.learn_one(x, y)


@pytest.mark.parametrize("changed", ["STATE", "_river_version"])
def test_another_state_or_river_is_refused_by_name(tmp_path, monkeypatch, changed):
    path = calibration.OnlinePlattCalibrator().save(tmp_path / "c.ckpt")
    state, river_version = checkpoint.STATE, checkpoint._river_version()
    if changed == "STATE":
        monkeypatch.setattr(checkpoint, "STATE", state + 1)
    else:
        monkeypatch.setattr(checkpoint, "_river_version", lambda: "0.99.0")
    version = streamboost.__version__
    message = (f"by streamboost {version} (state {state}) with River {river_version}; this is "
               f"streamboost {version} (state {checkpoint.STATE}) with River "
               f"{checkpoint._river_version()}, whose pickled objects may differ")
    with pytest.raises(ValueError, match=re.escape(message)):
        checkpoint.load(path)


def test_a_checkpoint_of_the_first_format_is_refused_by_its_version(tmp_path):
    # until 0.8.57 the header held no layout: the version that wrote it is named
    path = calibration.OnlinePlattCalibrator().save(tmp_path / "c.ckpt")
    line, payload = path.read_bytes()[len(checkpoint.MAGIC):].split(b"\n", 1)
    header = {k: v for k, v in json.loads(line).items() if k not in ("state", "river")}
    old = json.dumps({**header, "format": 1, "version": "0.8.57"}).encode()
    path.write_bytes(checkpoint.MAGIC + old + b"\n" + payload)
    with pytest.raises(ValueError, match=r"by streamboost 0\.8\.57, whose checkpoints did not "
                                         r"record their state's layout"):
        checkpoint.load(path)


def test_every_flipped_byte_is_refused(tmp_path):
    model = trained_models()["oza"]
    data = model.save(tmp_path / "model.ckpt").read_bytes()
    rng = random.Random(0)
    positions = rng.sample(range(len(data)), 200)
    for i in positions:
        flipped = bytearray(data)
        flipped[i] ^= 1 << rng.randrange(8)
        (tmp_path / "bad.ckpt").write_bytes(bytes(flipped))
        with pytest.raises(ValueError, match=r"not a streamboost checkpoint|corrupted|format|by"):
            checkpoint.load(tmp_path / "bad.ckpt")


def test_each_damaged_header_field_is_refused_with_its_own_message(tmp_path):
    data = calibration.OnlinePlattCalibrator().save(tmp_path / "c.ckpt").read_bytes()
    line, payload = data[len(checkpoint.MAGIC):].split(b"\n", 1)
    header = json.loads(line)

    def load_with(new_line: bytes) -> None:
        (tmp_path / "bad.ckpt").write_bytes(checkpoint.MAGIC + new_line + b"\n" + payload)
        checkpoint.load(tmp_path / "bad.ckpt")

    with pytest.raises(ValueError, match=r"the checkpoint's header is corrupted$"):
        load_with(line[:-1])  # not JSON
    with pytest.raises(ValueError, match=r"the checkpoint's header is corrupted$"):
        load_with(json.dumps({k: v for k, v in header.items() if k != "sha256"}).encode())
    with pytest.raises(ValueError, match=rf"checkpoint format 99; expected {checkpoint.FORMAT}"):
        load_with(json.dumps({**header, "format": 99}).encode())
    # the payload's checksum holds, the class it names does not: refused after unpickling
    with pytest.raises(ValueError, match=r"header is corrupted \(class 'x\.Y'\)"):
        load_with(json.dumps({**header, "class": "x.Y"}).encode())
    moved = "x." + header["class"].rsplit(".", 1)[1]  # the class's name in another module
    with pytest.raises(ValueError, match="header is corrupted"):
        load_with(json.dumps({**header, "class": moved}).encode())
    load_with(json.dumps(header).encode())  # the same header rewritten loads


def test_a_plain_pickle_or_a_directory_is_refused(tmp_path):
    (tmp_path / "raw.pkl").write_bytes(pickle.dumps(calibration.OnlinePlattCalibrator()))
    with pytest.raises(ValueError, match="is not a streamboost checkpoint"):
        checkpoint.load(tmp_path / "raw.pkl")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        checkpoint.save(1, tmp_path)
    model = _tree()
    for x, y in ROWS[:300]:
        model.learn_one(x, y)
    root = model._root
    with pytest.raises(IsADirectoryError, match="is a directory"):
        checkpoint.save(model, tmp_path)
    assert model._root is root  # refused before the save renewed what the model holds
    header = json.loads((calibration.OnlinePlattCalibrator().save(tmp_path / "c")).read_bytes()
                        .split(b"\n")[1])
    assert set(header) == {"format", "version", "state", "river", "class", "bytes", "sha256"}


def _tree():
    return tree.HoeffdingTreeClassifier(grace_period=20, delta=0.01)  # splits within 300 rows


def saved_on():
    """Models that a checkpoint's save renews: a tree, a forest (random draws), a pipeline,
    and models inside our wrappers (a cost-sensitive tree, a booster of trees, the default
    booster, a deferring controller, whose waiting examples and round hold the live model)."""
    return {
        "tree": _tree(),
        "forest": CalibratedClassifier(forest.ARFClassifier(n_models=3, seed=1)),
        "pipeline": preprocessing.StandardScaler() | CalibratedClassifier(_tree()),
        # a union's pipelines: the pipeline's cached plan refers to what they hold
        "union": (preprocessing.StandardScaler() + preprocessing.MinMaxScaler())
        | CalibratedClassifier(_tree()),
        "cost-sensitive": CostSensitiveClassifier(_tree(), c_fp=1.0, c_fn=4.0),
        "booster of trees": BanditCalibratedClassifier(
            model=OzaBoostClassifier(_tree(), n_models=3, seed=1),
            policy="discounted-ucb", batch_size=8, warmup=1, seed=2,
        ),
        "default booster": BanditCalibratedClassifier(
            policy="discounted-ucb", batch_size=8, warmup=1, seed=2),
        "deferring": BanditCalibratedClassifier(
            model=_tree(), policy="discounted-ucb",
            batch_size=8, warmup=1, rollback="defer", seed=2,
        ),
    }


def _held(model) -> list:
    """What a user holds: the model, a pipeline's steps, the model inside a wrapper."""
    steps = list(model.steps.values()) if hasattr(model, "steps") else [model]
    return steps + [getattr(step, "_wrapped_model", step) for step in steps]


@pytest.mark.parametrize("name", list(saved_on()))
def test_a_model_saved_mid_stream_learns_on_as_if_never_saved(name, tmp_path):
    model, twin = saved_on()[name], saved_on()[name]
    held = _held(model)
    for i, (x, y) in enumerate(ROWS):
        if i % 61 == 60:  # between a prediction and the learning of its example, too
            checkpoint.save(model, tmp_path / "model.ckpt")
        assert model.predict_proba_one(x) == twin.predict_proba_one(x)
        if i % 61 == 30:
            checkpoint.save(model, tmp_path / "model.ckpt")
        model.learn_one(x, y)
        twin.learn_one(x, y)
    assert all(a is b for a, b in zip(_held(model), held, strict=True))
    assert checkpoint.load(tmp_path / "model.ckpt").predict_proba_one(ROWS[0][0]) is not None


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's object layout")
@pytest.mark.parametrize("kind", ["tree", "booster of trees"])
def test_a_saved_tree_learns_on_with_its_attributes_inline(kind, tmp_path):
    inner = _tree() if kind == "tree" else OzaBoostClassifier(_tree(), n_models=2, seed=1)
    model = preprocessing.StandardScaler() | CalibratedClassifier(inner)
    for x, y in ROWS[:300]:
        model.learn_one(x, y)
    trees = [inner] if kind == "tree" else list(inner)  # a booster's members are its own
    roots, leaves = [t._root for t in trees], [leaf for t in trees for leaf in _leaves(t)]
    checkpoint.save(model, tmp_path / "model.ckpt")
    assert model["CalibratedClassifier"].model is inner
    renewed = [inner] if kind == "tree" else list(inner)
    assert all(t._root is not root for t, root in zip(renewed, roots, strict=True))
    assert all(len(_leaves(t)) > 1 for t in renewed)
    for leaf in (leaf for t in renewed for leaf in _leaves(t)):
        assert not _dict_materialised(leaf, "splitters")
        for splitter in leaf.splitters.values():
            assert not _dict_materialised(splitter, "_att_dist_per_class")
    # what the save read: the pickle materialised it (and the loop above would catch it)
    assert all(_dict_materialised(leaf, "splitters") for leaf in leaves)


def test_resume_in_a_fresh_process_is_bit_identical(tmp_path):
    """Train 4,321 of 6,000 examples, checkpoint, resume in another interpreter: every later
    probability equals the uninterrupted run's, to the last bit."""
    script = textwrap.dedent(
        """
        import sys
        from river import datasets, linear_model, preprocessing
        from streamboost import BanditCalibratedClassifier, checkpoint
        rows = list(datasets.Phishing().take(1250)) * 5
        mode, path = sys.argv[1], sys.argv[2]
        if mode == "resume":
            model = checkpoint.load(path)
            start = 4321
        else:
            model = preprocessing.StandardScaler() | BanditCalibratedClassifier(
                policy="discounted-thompson", batch_size=16, seed=3)
            start = 0
        for i, (x, y) in enumerate(rows[start:], start=start):
            if mode == "full" and i == 4321:
                checkpoint.save(model, path)
            if i >= 4321:
                print(repr(model.predict_proba_one(x)[True]))
            model.learn_one(x, y)
        """
    )
    path = str(tmp_path / "pipeline.ckpt")
    run = [sys.executable, "-c", script]
    full = subprocess.run([*run, "full", path], capture_output=True, text=True, check=True)
    resumed = subprocess.run([*run, "resume", path], capture_output=True, text=True, check=True)
    assert full.stdout == resumed.stdout
    assert len(full.stdout.splitlines()) == 6250 - 4321


def _dict_materialised(obj, attribute: str) -> bool:
    """Whether CPython keeps `obj`'s attributes in a dict (one holding `attribute`) rather than
    inline: what makes its attribute access slower (streamboost.state). Reading
    `obj.__dict__` would itself materialise it, so the referents are inspected instead."""
    return any(isinstance(r, dict) and attribute in r for r in gc.get_referents(obj))


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's object layout")
def test_what_is_loaded_or_copied_keeps_its_attributes_inline(tmp_path):
    from streamboost.scores import FrozenScorer

    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    for i in range(40):
        booster.learn_one({"a": float(i % 5)}, i % 2 == 0)
    assert not _dict_materialised(booster, "_members")  # before 0.8.2 it was from __init__ on
    FrozenScorer(booster, True)  # the controller's frozen copy
    assert not _dict_materialised(booster, "_members")
    assert not hasattr(booster._members, "__dict__")  # slots: nothing to materialise
    copied = booster._members.copy()
    assert copied.weights is not booster._members.weights
    np.testing.assert_array_equal(copied.weights, booster._members.weights)

    controller = BanditCalibratedClassifier(model=booster, seed=0)
    loaded = checkpoint.load(checkpoint.save(controller, tmp_path / "c.ckpt"))
    # (the controller itself has more than the 30 attributes CPython 3.11 keeps inline)
    for obj, attribute in ((loaded._meter, "scale"), (loaded.model_, "_members"),
                           (loaded.calibrator_, "_theta")):
        assert not _dict_materialised(obj, attribute)
    assert loaded.predict_proba_one({"a": 2.0}) == controller.predict_proba_one({"a": 2.0})
    calibrator = loaded.calibrator_
    frozen = calibrator.copy()  # what the controller does once a minibatch
    assert not _dict_materialised(calibrator, "_theta")
    assert frozen._theta == calibrator._theta and frozen._theta is not calibrator._theta
    assert vars(frozen) == vars(calibrator)  # every attribute (vars materialises: last)
    # pickle's own rule materialises: what the test above would catch
    assert _dict_materialised(pickle.loads(pickle.dumps(_Plain())), "value")


class _Plain:
    def __init__(self):
        self.value = 1.0


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's object layout")
@pytest.mark.parametrize("rollback", ["auto", "copy"])
def test_a_bandit_copying_arrays_leaves_its_model_inline_from_the_start(rollback):
    # 0.8.35 pickled the model when the controller was made, to find whether a copy of it
    # could be made: Oza-LR then learned about 5 % slower for the whole stream, though its
    # copies are arrays and never a pickle
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    lr = linear_model.LogisticRegression()
    for model, attribute in ((booster, "_members"), (lr, "_weights")):
        controller = BanditCalibratedClassifier(model=model, policy="discounted-ucb",
                                                rollback=rollback, batch_size=4, warmup=1,
                                                seed=0)
        for i in range(40):  # rounds measured: frozen copies made and scored
            x = {"a": float(i % 5)}
            controller.predict_proba_one(x)
            controller.learn_one(x, i % 2 == 0)
        assert controller.policy_.n_rounds > 0 and controller.rollback_ == "copy"
        assert not _dict_materialised(model, attribute)


def _leaves(model) -> list:
    return [node for node in model._root.iter_dfs() if not hasattr(node, "children")]


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's object layout")
def test_a_river_tree_read_back_keeps_its_attributes_inline_and_learns_alike(tmp_path):
    from streamboost.scores import snapshot

    model = _tree()
    controller = BanditCalibratedClassifier(model=model, seed=0)
    for x, y in ROWS[:300]:
        controller.learn_one(x, y)
    loaded = checkpoint.load(checkpoint.save(controller, tmp_path / "tree.ckpt"))
    frozen = snapshot(model)  # the reward's frozen copy: the live tree learns on with its copies
    assert frozen._root is not model._root and frozen.n_leaves == model.n_leaves
    for copy in (loaded.model_, model):  # a checkpoint's, the live tree after a snapshot
        assert len(_leaves(copy)) == len(_leaves(model)) > 1
        for leaf in _leaves(copy):
            assert not _dict_materialised(leaf, "splitters")
            for splitter in leaf.splitters.values():
                assert not _dict_materialised(splitter, "_att_dist_per_class")
    assert not _dict_materialised(loaded.model_, "_root")
    # pickle's own rule would have given every one a dict: what the loop above would catch
    assert all(_dict_materialised(leaf, "splitters")
               for leaf in _leaves(pickle.loads(pickle.dumps(model))))
    for x, y in ROWS[300:]:
        assert loaded.predict_proba_one(x) == controller.predict_proba_one(x)
        loaded.learn_one(x, y)
        controller.learn_one(x, y)


class _Slotted:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is _Slotted and other.value == self.value


class _Listed(list):
    def __init__(self, *args):
        super().__init__(*args)
        self.tag = "listed"


class _Reduced:
    def __init__(self, value):
        self.value = value

    def __reduce__(self):
        return _Reduced, (self.value * 2,)  # a reduction of its own is kept as it is


class _Cycle:
    def __init__(self):
        self.me = self
        self.items = [self, _Plain()]


def test_inline_dumps_reads_back_what_pickle_does():
    from streamboost.state import inline_dumps

    data = {"slotted": _Slotted(3), "listed": _Listed([1, 2]), "reduced": _Reduced(2),
            "class": _Plain, "cycle": _Cycle(), "plain": _Plain(), "numbers": np.arange(3.0)}
    back = pickle.loads(inline_dumps(data))
    assert back["slotted"] == _Slotted(3)
    assert back["listed"] == [1, 2] and back["listed"].tag == "listed"
    assert back["reduced"].value == 4  # its __reduce__ ran, as pickle's own rule runs it
    assert back["class"] is _Plain
    cycle = back["cycle"]
    assert cycle.me is cycle and cycle.items[0] is cycle and cycle.items[1].value == 1.0
    assert back["plain"].value == 1.0 and not _dict_materialised(back["plain"], "value")
    np.testing.assert_array_equal(back["numbers"], data["numbers"])


# ---------------------------------------------------------------- saved at any point


TWIN_MODELS = {
    "booster": lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=1),
    "logistic regression": linear_model.LogisticRegression,
    "tree": lambda: tree.HoeffdingTreeClassifier(grace_period=20),
}
CALLS = st.lists(st.one_of(
    st.tuples(st.sampled_from(["one", "many", "weighted"]), st.integers(1, 40), st.booleans()),
    st.tuples(st.sampled_from(["flush", "save"]), st.just(0), st.just(False)),
    st.tuples(st.just("costs"), st.integers(1, 5), st.just(False)),
), min_size=1, max_size=20)


def _bookkeeping(model: BanditCalibratedClassifier, learned: int) -> None:
    assert 0 <= model._in_batch < model.batch_size
    assert model.n_batches * model.batch_size + model._in_batch == learned
    assert sum(model.arm_counts.values()) == model.n_batches


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(
    model=st.sampled_from(sorted(TWIN_MODELS)),
    rollback=st.sampled_from(["auto", "copy", "defer", "holdout"]),
    policy=st.sampled_from(["discounted-ucb", "both", "discounted-thompson", "kl-ucb", "exp3",
                            "glr-kl-ucb", "fewa", "epsilon-greedy"]),
    batch_size=st.integers(2, 9),
    warmup=st.integers(0, 2),
    arms=st.sampled_from([("train", "calibrate", "both"), ("train", "both"),
                          ("train", "calibrate"), ("calibrate", "both")]),
    reward_every=st.sampled_from([1, 2]),
    calls=CALLS,
)
def test_a_controller_saved_at_any_point_goes_on_as_one_never_saved(
    tmp_path, model, rollback, policy, batch_size, warmup, arms, reward_every, calls
):
    # a twin learns the same stream by the same calls (one by one or by frames, weighted or
    # not, flushes, new costs) and is saved and loaded at random points, mid-minibatch and
    # with examples waiting or held out included: it must predict, choose and record exactly
    # as the other
    params = dict(policy=policy, batch_size=batch_size, warmup=warmup, arms=arms, seed=3,
                  rollback=rollback, reward_every=reward_every)
    kept = BanditCalibratedClassifier(model=TWIN_MODELS[model](), **params)
    saved = BanditCalibratedClassifier(model=TWIN_MODELS[model](), **params)
    at = 0
    for call, n, predict in calls:
        if call in ("one", "many", "weighted"):
            rows = ROWS[at : at + n]
            X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([y for _, y in rows])
            # a frame of weighted rows (a weight per row, by position): whole minibatches of
            # a minibatch model learn them by minibatch, a deferred frame waits with them
            weights = ({"w": [0.5 + (at + i) % 3 for i in range(len(rows))]}
                       if call == "weighted" else {})
            at += len(rows)
            probabilities = []
            for twin in (kept, saved):
                if call != "one":
                    probabilities.append(twin.predict_proba_many(X)[True].tolist() if predict
                                         else None)
                    twin.learn_many(X, y, **weights)
                else:
                    probabilities.append([twin.predict_proba_one(x)[True] for x, _ in rows]
                                         if predict else None)
                    for x, label in rows:
                        twin.learn_one(x, label)
            assert probabilities[0] == probabilities[1]
        elif call == "save":
            saved = checkpoint.load(checkpoint.save(saved, tmp_path / "twin.ckpt"))
        elif call == "flush":
            kept.flush()
            saved.flush()
        else:
            kept.set_costs(c_fp=1.0, c_fn=float(n))
            saved.set_costs(c_fp=1.0, c_fn=float(n))
        for twin in (kept, saved):
            _bookkeeping(twin, at)
        assert list(saved.trace) == list(kept.trace)
    for x, _ in ROWS[at : at + 20]:
        assert saved.predict_proba_one(x) == kept.predict_proba_one(x)
        assert saved.predict_one(x) == kept.predict_one(x)
