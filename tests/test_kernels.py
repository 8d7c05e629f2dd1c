"""The compiled kernels (`streamboost.kernels`) against their Python twins: the same results,
bit for bit, on real streams, and the same refusals."""

from __future__ import annotations

import contextlib
import importlib
import itertools
import math
import os
import random
import sys
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from river import linear_model, optim

from streamboost import OzaBoostClassifier, kernels
from streamboost.datasets import stream
from streamboost.members.weak import best_candidates
from streamboost.poisson import KNUTH_MAX_RATE, poisson
from streamboost.scores import _rows as frozen_rows
from streamboost.weak import DecisionStump, UnivariateLogisticRegression
from tests.calibrators import calibrator_state

COMPILED = kernels.compiled
needs_kernels = pytest.mark.skipif(COMPILED is None, reason="the C kernels are not built")


def test_the_kernels_are_built():
    if os.environ.get("STREAMBOOST_KERNELS") == "0":
        pytest.skip("kernels switched off by STREAMBOOST_KERNELS=0")
    assert COMPILED is not None, (
        "streamboost/_kernels.c was not built (no C compiler at install?): the boosters run "
        "their Python twins, correct but several times slower"
    )


def test_streamboost_kernels_0_switches_the_kernels_off(monkeypatch):
    monkeypatch.setenv("STREAMBOOST_KERNELS", "0")
    assert kernels._load() is None
    monkeypatch.setenv("STREAMBOOST_KERNELS", "1")
    try:
        built = importlib.import_module("streamboost._kernels")
    except ImportError:  # no C compiler at install
        built = None
    assert kernels._load() is built


def phishing(n: int) -> list:
    return list(itertools.islice(stream("phishing"), n))


def lacking(rows: list, every: int, empty: int) -> list:
    """`rows` with row i's j-th feature dropped where (i + j) % `every` is 0, and every
    `empty`-th row left with none."""
    return [({k: v for j, (k, v) in enumerate(x.items()) if (i + j) % every} if i % empty else {},
             y) for i, (x, y) in enumerate(rows)]


def both_ways(make, replay) -> tuple:
    """`replay(make())` with the kernels, then with the Python twins."""
    out = []
    for compiled in (COMPILED, None):
        with mock.patch.object(kernels, "compiled", compiled):
            out.append(replay(make()))
    return tuple(out)


def prequential(rows, learned=lambda model: [(m.weights, m.intercept) for m in model.models],
                weights=None):
    """A replay of `rows` (learned with sample `weights`, None: none) that returns every score,
    the lambdas and vote weights, and what the members learned (`learned(model)`)."""

    def replay(model):
        scores = []
        for i, (x, y) in enumerate(rows):
            scores.append(model.predict_proba_one(x).get(True, 0.0))
            if weights is None:
                model.learn_one(x, y)
            else:
                model.learn_one(x, y, w=weights[i % len(weights)])
        state = (model._lambda_sc, model._lambda_sw, model.alphas)
        return scores, state, learned(model)

    return replay


@needs_kernels
@pytest.mark.parametrize(
    "params",
    [
        {"draws": "repeat"},
        {"draws": "weight", "score": "logistic", "weak_rule": "skip"},
        {"n_models": 30, "seed": 5},  # rates far above 10: PTRS draws, called back
        {"draws": "repeat", "clip": 0.05},  # a clip most steps' gradients exceed
    ],
)
def test_learn_one_with_kernels_is_the_python_loop_bit_for_bit(params):
    rows = phishing(3_000)
    settings = {"n_models": 10, "seed": 2, **params}
    clip = settings.pop("clip", None)

    def make(clip_gradient=1e12):  # River's default
        member = linear_model.LogisticRegression(clip_gradient=clip_gradient)
        return OzaBoostClassifier(member, **settings)

    compiled, python = both_ways(lambda: make(clip or 1e12), prequential(rows))
    assert compiled == python
    if clip is not None:  # the clip reached the members
        assert compiled != both_ways(make, prequential(rows))[0]


@needs_kernels
def test_learn_one_with_kernels_is_the_python_loop_bit_for_bit_at_large_margins():
    # River's Log.gradient switches formula at margins of +/-18: features ten times phishing's
    # put the members' margins on both sides of it, and between 17 and 18
    rows = [({k: 10.0 * v for k, v in x.items()}, y) for x, y in phishing(1_000)]

    def make():
        return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=5, seed=3)

    margins = []

    def learned(model):
        margins.extend(abs(m._raw_dot_one(x)) for m in model.models for x, _ in rows)
        return [(m.weights, m.intercept) for m in model.models]

    compiled, python = both_ways(make, prequential(rows, learned=learned))
    assert compiled == python
    assert any(17.0 < m <= 18.0 for m in margins) and max(margins) > 18.0


@needs_kernels
@pytest.mark.parametrize("draws", ["repeat", "weight"])
def test_weighted_learn_one_with_kernels_is_the_python_loop_bit_for_bit(draws):
    rows = phishing(2_000)

    def make():
        return OzaBoostClassifier(linear_model.LogisticRegression(), seed=6, draws=draws)

    weights = [0.0, 0.25, 3.0, 1.0, 7.5]
    compiled, python = both_ways(make, prequential(rows, weights=weights))
    assert compiled == python
    assert compiled != both_ways(make, prequential(rows))[0]  # the weights reached the members


@needs_kernels
def test_the_compiled_sampler_draws_what_poisson_draws():
    # both branches (Knuth below 10, PTRS above, with its rare lgamma test) and the edges
    rates = [0.0, 1e-3, 0.5, 1.0, 3.7, 9.999, 10.0, 10.5, 33.0, 480.0, 1.2e4, 3.7e6]
    ours, theirs = random.Random(11), random.Random(11)
    for _ in range(3_000):
        for rate in rates:
            assert COMPILED.poisson(rate, ours, KNUTH_MAX_RATE) == poisson(rate, theirs)
    assert ours.random() == theirs.random()  # the same number of uniforms used


class _Fixed(random.Random):
    def random(self):  # an override: the kernels must call it, not draw from the state
        return 0.999


@needs_kernels
def test_uniforms_drawn_in_place_are_random_randoms_and_leave_its_state():
    # CPython's random.Random is drawn from in place (the layout was confirmed at import: a
    # check that fails would silently cost every booster its speed, so it is asserted here)
    if sys.implementation.name != "cpython" or not getattr(sys, "_is_gil_enabled", lambda: True)():
        pytest.skip("another Python, or a free-threaded build: each uniform is Python's call")
    assert COMPILED.draws_in_place(random.Random(3))
    assert COMPILED.draws_in_place(type("Plain", (random.Random,), {})(3))  # no override
    # across refills of the 624-word state, with both Poisson branches: the same draws, the
    # same state afterwards (another generator's draws interleaved change nothing)
    ours, theirs, other = random.Random(5), random.Random(5), random.Random(6)
    for rate in [0.7, 3.0, 25.0, 4.5e5] * 400:
        assert COMPILED.poisson(rate, ours, KNUTH_MAX_RATE) == poisson(rate, theirs)
        COMPILED.poisson(rate, other, KNUTH_MAX_RATE)
    assert ours.getstate() == theirs.getstate()


@needs_kernels
def test_a_generator_whose_random_is_overridden_is_called_not_drawn_in_place():
    fixed = _Fixed(1)
    instance = random.Random(1)
    instance.random = lambda: 0.999  # on the instance
    for rng in (fixed, instance):
        assert not COMPILED.draws_in_place(rng)
        state = rng.getstate()
        # Knuth's draw with p = 0.999 every time: k = 0 iff 0.999 <= e^-rate
        assert COMPILED.poisson(0.0005, rng, KNUTH_MAX_RATE) == 0
        assert COMPILED.poisson(2.0, rng, KNUTH_MAX_RATE) > 100  # only the override's uniforms
        assert rng.getstate() == state  # its own state untouched


@needs_kernels
@pytest.mark.parametrize("member", [DecisionStump(), UnivariateLogisticRegression()])
def test_weak_members_learn_one_with_kernels_is_the_python_loop_bit_for_bit(member):
    # 100 members: most draw with rates far above 10; features come and go (a row with none
    # of them: every vote after learning is False)
    rows = phishing(1_500)
    keys = list(rows[0][0])
    thinned = lacking(rows, 7, 5)
    rows = [thinned[i] if i % 3 == 0 else row for i, row in enumerate(rows)]
    assert any(not x for x, _ in rows) and len(keys) > 1

    def make():
        return OzaBoostClassifier(member, n_models=100, seed=9)

    learned = prequential(
        rows, lambda model: (model._members._params.tolist(), model._members._score.tolist()))
    compiled, python = both_ways(make, learned)
    assert compiled == python
    assert max(compiled[1][0]) > 1e3  # the large rates were drawn


def minibatches(rows, size, weights=None):
    frame = pd.DataFrame([x for x, _ in rows])
    labels = pd.Series([y for _, y in rows])

    def replay(model):
        scores = []
        for start in range(0, len(frame), size):
            X, y = frame.iloc[start : start + size], labels.iloc[start : start + size]
            scores.extend(model.predict_proba_many(X)[True].tolist())
            if weights is None:
                model.learn_many(X, y)
            else:  # a sample weight per row, cycled
                model.learn_many(X, y, w=[weights[(start + b) % len(weights)]
                                          for b in range(len(X))])
        held = model._members  # what the members learned, not only how they vote
        learned = held.weights if hasattr(held, "weights") else held._params
        steps = getattr(held, "steps", None)  # a linear member's steps: its optimizer's count
        return scores, (model._lambda_sc, model._lambda_sw), model._generator.random(), \
            learned.tolist(), steps

    return replay


@needs_kernels
@pytest.mark.parametrize(
    ("member", "size", "weights"),
    [
        (linear_model.LogisticRegression(), 64, None),
        (linear_model.LogisticRegression(), 1, None),
        (linear_model.LogisticRegression(), 32, [0.0, 0.5, 1.0, 3.0]),
        (linear_model.LogisticRegression(intercept_lr=0.5), 64, None),  # its own rate
        (linear_model.LogisticRegression(clip_gradient=0.05), 64, None),  # both sides clipped
        # the classes' own weights, and frames not a multiple of the kernel's four rows
        (linear_model.LogisticRegression(loss=optim.losses.Log(weight_pos=3.0, weight_neg=0.5)),
         7, [0.5, 2.0]),
        (linear_model.LogisticRegression(), 3, None),
        (DecisionStump(), 128, None),
        (DecisionStump(), 7, [0.5, 2.0, 1.0]),  # weights that are not whole numbers
        (DecisionStump(), 32, "sparse"),  # rows that lack features: NaN cells
        (DecisionStump(), 32, "one column"),  # numpy sums one column pairwise: the twin's
        (UnivariateLogisticRegression(), 256, None),
        (UnivariateLogisticRegression(), 32, None),
        (UnivariateLogisticRegression(lr=0.7), 7, [0.5, 2.0, 1.0]),
        (UnivariateLogisticRegression(), 32, "sparse"),
        (UnivariateLogisticRegression(), 32, "one column"),
    ],
)
def test_learn_many_with_kernels_is_the_numpy_path_bit_for_bit(member, size, weights):
    rows = phishing(2_000)
    if weights == "sparse":
        rows, weights = lacking(rows, 5, 7), None
    elif weights == "one column":
        rows, weights = [({"only": x["URL_Length"]}, y) for x, y in rows], None

    def make():
        return OzaBoostClassifier(member, n_models=20, seed=4)

    compiled, python = both_ways(make, minibatches(rows, size, weights))
    # scores, lambdas, the generator left in the same state, and what the members learned
    assert compiled == python


@needs_kernels
@pytest.mark.parametrize("sparse", [False, True])
def test_a_soft_stump_boosters_minibatches_are_the_numpy_paths_bit_for_bit(sparse):
    # the members' probabilities of a frame (`score="soft"`), compiled and by numpy
    rows = phishing(1_000)
    if sparse:  # rows lacking features, and some with none (probability 1/2)
        rows = lacking(rows, 4, 9)

    def make():
        return OzaBoostClassifier(DecisionStump(), n_models=30, seed=6, score="soft")

    compiled, python = both_ways(make, minibatches(rows, 32))
    assert compiled == python
    assert len(set(compiled[0])) > 100  # scores that differ, not a constant


@needs_kernels
def test_poisson_fill_draws_what_generator_poisson_draws():
    lam = np.array([0.0, 0.3, 1.0, 2.5, 9.99, 10.0, 57.0, 3e4, 1e9])
    ours, theirs = np.random.default_rng(8), np.random.default_rng(8)
    ks = np.empty(len(lam), dtype=np.int64)
    for _ in range(200):
        COMPILED.poisson_fill(ours.bit_generator.capsule, lam, ks)
        assert ks.tolist() == theirs.poisson(lam).tolist()


@needs_kernels
@pytest.mark.parametrize("bad", [-1.0, math.nan, 1e19])
def test_poisson_fill_refuses_a_bad_rate_before_drawing(bad):
    rng = np.random.default_rng(3)
    ks = np.zeros(3, dtype=np.int64)
    with pytest.raises(ValueError, match=r"lam must be in \[0, 9.2e18\]"):
        COMPILED.poisson_fill(rng.bit_generator.capsule, np.array([1.0, bad, 2.0]), ks)
    assert ks.tolist() == [0, 0, 0]
    assert rng.random() == np.random.default_rng(3).random()  # nothing was drawn


@needs_kernels
def test_the_kernels_refuse_mismatched_arguments():
    with pytest.raises(TypeError, match="sw must be a list of 2 items"):
        COMPILED.oza_alphas([1.0, 2.0], [1.0], True)
    with pytest.raises(TypeError, match="targets must be a 1-d array of format '\\?'"):
        COMPILED.oza_batch(np.ones(3, bool), np.ones(2, bool), np.ones(3), 0.0, 0.0)
    X, weights = np.ones((2, 3)), np.zeros((2, 4))

    def learn(**changed):
        state = {"sc": [0.0, 0.0], "sw": [0.0, 0.0], "steps": [0, 0]}
        generator = np.random.default_rng(1)  # alive while its capsule is read
        arguments = {"bitgen": generator.bit_generator.capsule, "X": X,
                     "targets": np.array([True, False]), "w": None, "weights": weights,
                     "weight_pos": 1.0, "weight_neg": 1.0, "clip": 1.0, "lr": 0.1, "ratio": 1.0,
                     **state, **changed}
        COMPILED.oza_linear_frame(*arguments.values())
        return arguments

    for bad, message in [({"targets": np.ones(2)}, "targets must be a 1-d array of format"),
                         ({"targets": np.ones(3, dtype=bool)}, "targets must be a 1-d array"),
                         ({"w": np.ones(3)}, "w must be a 1-d array of format 'd'"),
                         ({"weights": np.zeros((2, 2))}, "do not fit each other"),
                         ({"X": np.ones((0, 3)), "targets": np.ones(0, dtype=bool)},
                          "do not fit each other"),
                         ({"sc": [0.0]}, "sc must be a list of 2 items"),
                         ({"steps": [0, "1"]}, "cannot be interpreted as an integer"),
                         ({"sw": [0.0, None]}, "must be real number")]:
        with pytest.raises(TypeError, match=message):
            learn(**bad)
        assert not weights.any()  # nothing learned
    frozen = np.zeros((2, 4))
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="do not fit each other"):
        learn(weights=frozen)
    done = learn()  # both members learn the two rows (the first member from lambdas of 1)
    first = np.count_nonzero(np.random.default_rng(1).poisson(np.ones(2)))
    assert done["steps"][0] == first and not weights[:, 3].any() and weights[:, :3].any()
    assert done["sc"][0] + done["sw"][0] == 2.0 and done["sc"][1] + done["sw"][1] > 0.0


@needs_kernels
@pytest.mark.parametrize(("member", "kernel"), [(linear_model.LogisticRegression(),
                                                 "oza_linear_frame"),
                                                (DecisionStump(), "oza_stump_frame"),
                                                (UnivariateLogisticRegression(),
                                                 "oza_univariate_frame")])
def test_a_boosters_minibatch_is_one_compiled_call_for_every_member(member, kernel):
    rows = phishing(256)
    X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([y for _, y in rows])
    model = OzaBoostClassifier(member, n_models=5, seed=2)
    # neither the members' own step nor the per-member draws and update are called
    with mock.patch.object(type(model._members), "learn_batch", side_effect=AssertionError), \
            mock.patch.object(kernels, "compiled", mock.Mock(wraps=COMPILED)) as spy:
        model.learn_many(X, y, w=0.5)
    assert [c[0] for c in spy.method_calls] == [kernel]
    held = model._members
    if kernel == "oza_linear_frame":
        assert all(steps > 0 for steps in held.steps)
        return
    assert not held._integral  # a weight of 1/2: the exact choice from then on
    if kernel == "oza_stump_frame":
        assert (held._params[:2].sum(axis=2) > 0).all()  # every member learned both classes
    else:  # every member moved its candidates' coefficients and biases
        assert (abs(held._params).sum(axis=2) > 0).all()


@needs_kernels
def test_the_stump_kernels_refuse_mismatched_arguments_before_any_change():
    X, score, params = np.ones((3, 2)), np.zeros((2, 4)), np.zeros((4, 2, 4))

    def learn(**changed):
        generator = np.random.default_rng(1)  # alive while its capsule is read
        arguments = {"bitgen": generator.bit_generator.capsule, "X": X,
                     "targets": np.array([True, False, True]), "w": None, "score": score,
                     "params": params, "sc": [0.0, 0.0], "sw": [0.0, 0.0], **changed}
        COMPILED.oza_stump_frame(*arguments.values())

    for bad, message in [({"X": np.ones((3, 1))}, "do not fit each other"),  # one column
                         ({"score": np.zeros((2, 1))}, "do not fit each other"),
                         ({"params": np.zeros((4, 3, 4))}, "do not fit each other"),
                         ({"params": np.zeros((3, 2, 4))}, "params must be a float64 array"),
                         ({"w": np.ones(2)}, "w must be a 1-d array of format 'd'"),
                         ({"sw": [0.0]}, "sw must be a list of 2 items"),
                         ({"sc": [0.0, "a"]}, "must be real number")]:
        with pytest.raises(TypeError, match=message):
            learn(**bad)
        assert not score.any() and not params.any()  # nothing learned
    learn()  # the first member's class weights, on each column, are its draws at lambdas of 1
    drawn = np.random.default_rng(1).poisson(np.ones(3)).sum()
    assert (params[0, 0, :2] + params[1, 0, :2]).tolist() == [drawn, drawn]
    assert not params[:, :, 2:].any() and not score[:, 2:].any()  # beyond the table's width

    def votes(out, probabilities=None, table=X):
        COMPILED.stump_frame_votes(score, params, table, out, probabilities)

    for bad in [{"out": np.empty((3, 3), dtype=bool)}, {"out": np.empty((3, 2))},
                {"out": np.empty((3, 2), dtype=bool), "table": np.ones((3, 5))}]:
        with pytest.raises(TypeError, match="do not fit each other"):
            votes(**bad)
    with pytest.raises(TypeError, match="probabilities must be a float64 array"):
        votes(np.empty((3, 2), dtype=bool), np.empty((2, 3)))


@needs_kernels
def test_the_univariate_kernel_refuses_mismatched_arguments_before_any_change():
    X, score, params = np.ones((3, 2)), np.zeros((2, 4)), np.zeros((2, 2, 4))
    grads = np.full((2, 3, 2), 0.5)

    def learn(**changed):
        generator = np.random.default_rng(1)  # alive while its capsule is read
        arguments = {"bitgen": generator.bit_generator.capsule, "X": X,
                     "targets": np.array([True, False, True]), "w": None, "score": score,
                     "params": params, "sc": [0.0, 0.0], "sw": [0.0, 0.0], "gradients": grads,
                     "lr": 0.1, **changed}
        COMPILED.oza_univariate_frame(*arguments.values())

    for bad, message in [({"X": np.ones((3, 1))}, "do not fit each other"),  # one column
                         ({"gradients": np.zeros((2, 3, 3))}, "do not fit each other"),
                         ({"gradients": np.zeros((3, 3, 2))}, "do not fit each other"),
                         ({"gradients": np.zeros((2, 2, 2))}, "do not fit each other"),
                         ({"gradients": np.zeros((2, 3))}, "gradients must be a float64 array"),
                         ({"params": np.zeros((4, 2, 4))}, "params must be a float64 array"),
                         ({"score": np.zeros((2, 1))}, "do not fit each other"),
                         ({"lr": "0.1"}, "must be real number"),
                         ({"w": np.ones(2)}, "w must be a 1-d array of format 'd'"),
                         ({"sw": [0.0]}, "sw must be a list of 2 items")]:
        with pytest.raises(TypeError, match=message):
            learn(**bad)
        assert not score.any() and not params.any()  # nothing learned
    learn()
    # the first member, at lambdas of 1, every cell present: each candidate votes negative
    # before its step (a margin of 0), and moves by its draws times lr x gradient, row by row
    k = np.random.default_rng(1).poisson(np.ones(3)).tolist()
    step = [kb * (0.1 * 0.5) for kb in k]
    assert score[0, :2].tolist() == [-k[0] + k[1] - k[2]] * 2
    assert params[:, 0, :2].tolist() == [[0.0 - (step[0] + step[1] + step[2])] * 2] * 2
    assert not params[:, :, 2:].any() and not score[:, 2:].any()  # beyond the table's width


@needs_kernels
def test_a_univariate_minibatch_whose_gradients_exceed_the_cap_is_the_twins(monkeypatch):
    from streamboost.members import weak as weak_members

    rows = phishing(64)
    X, y = pd.DataFrame([x for x, _ in rows]), pd.Series([y for _, y in rows])
    called = []
    for cap in (5 * X.size, 5 * X.size - 1):  # 5 members' gradients of every cell
        monkeypatch.setattr(weak_members, "_GRADIENT_CELLS", cap)
        model = OzaBoostClassifier(UnivariateLogisticRegression(), n_models=5, seed=2)
        with mock.patch.object(kernels, "compiled", mock.Mock(wraps=COMPILED)) as spy:
            model.learn_many(X, y)
        called.append("oza_univariate_frame" in [c[0] for c in spy.method_calls])
    assert called == [True, False]


@needs_kernels
def test_vote_weights_and_scores_are_the_python_twins():
    rng = random.Random(0)
    model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=12)
    for trial in range(500):
        model._lambda_sc = [rng.choice([0.0, rng.uniform(0, 50)]) for _ in range(12)]
        model._lambda_sw = [rng.choice([0.0, rng.uniform(0, 50)]) for _ in range(12)]
        model.weak_rule = "stop" if trial % 2 else "skip"
        model.score = "vote" if trial % 3 else "logistic"
        votes = [rng.choice([True, False, None]) for _ in range(12)]
        results = []
        for compiled in (COMPILED, None):
            with (
                mock.patch.object(kernels, "compiled", compiled),
                mock.patch.object(type(model._members), "votes",  # slots: patch the class
                                  lambda self, x, alphas, votes=votes: votes),
            ):
                model._alphas = None
                results.append((model.alphas, model._score_one({"a": 1.0})))
        assert results[0] == results[1]


@needs_kernels
def test_best_candidates_is_the_numpy_search_with_ties_and_one_sided_rows():
    rng = np.random.default_rng(6)
    for _ in range(300):
        members, features = rng.integers(1, 6), rng.integers(1, 9)
        scores = rng.integers(-3, 4, (members, features)).astype(float)  # many ties
        right = rng.random((members, features)) < rng.choice([0.0, 0.5, 1.0])
        view = np.asfortranarray(scores)  # strided input is read in place
        assert COMPILED.best_candidates(view, right) == best_candidates(scores, right)


@needs_kernels
def test_stump_votes_are_the_stumps_numpy_rule():
    rng = np.random.default_rng(12)
    for _ in range(200):
        members, features = rng.integers(1, 7), rng.integers(1, 9)
        counts = rng.choice([0.0, 1.0, 2.5], (2, members, features))  # empty classes too
        sums = rng.integers(-2, 3, (2, members, features)) * counts  # equal means too
        params = np.concatenate([counts, sums])
        xv = rng.integers(-2, 3, features).astype(float)
        votes = np.empty((members, features), dtype=bool)
        # a strided view, as the members pass their columns
        COMPILED.stump_votes(np.swapaxes(np.swapaxes(params, 1, 2).copy(), 1, 2), xv, votes)
        named = dict(zip(DecisionStump._fields, params, strict=True))
        assert (votes == DecisionStump._candidate_votes(named, xv)).all()


PLATT_SETTINGS = [
    {},  # the defaults: log-loss, logit feature, smoothed targets
    {"gamma": 1.0, "eps": 1 / 22},  # what calibration.resolve builds for a booster
    {"objective": "squared", "feature": "score", "smooth_targets": False},
    {"forgetting": 0.99, "gamma": 0.5},
    {"radius": 1.5},  # a small ball: the projections onto it and onto A <= 0
]


@needs_kernels
@pytest.mark.parametrize("params", PLATT_SETTINGS)
def test_platt_learn_and_predict_are_the_python_twins_bit_for_bit(params):
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.calibration.platt import (
        _project_ball,
        platt_learn,
        platt_predict,
        platt_predict_many,
        platt_predict_pair,
    )

    cal = OnlinePlattCalibrator(**params)
    theta, consts = list(cal._theta), cal._consts
    rng = random.Random(7)
    eps = cal.eps  # the clip's own ends, where the feature is the constant, not the logit
    # scores from the clipped ends to the middle, a stretch of one class, then a drift
    pairs = [(rng.choice([0.0, 1.0, 1e-9, 1 - 1e-9, eps, 1 - eps, rng.random()]),
              rng.random() < 0.7) for _ in range(400)]
    pairs += [(rng.random(), True) for _ in range(100)]
    pairs += [(s, rng.random() > s) for s in (rng.random() for _ in range(500))]
    calls = []

    def project(*args):  # _project_ball, counted
        calls.append(args)
        return _project_ball(*args)

    grid = np.array([0.0, 1e-300, 1e-9, eps, *np.linspace(0.0, 1.0, 61), 1 - eps, 1 - 1e-9, 1.0])
    flat = 0
    for step, (score, positive) in enumerate(pairs):
        assert COMPILED.platt_predict(cal._theta, consts, score) == platt_predict(
            theta, consts, score)
        if step % 50 == 0:  # the map of an array: each score's, with the kernel and the twin
            outs = np.empty(len(grid)), np.empty(len(grid))
            COMPILED.platt_predict_many(cal._theta, consts, grid, outs[0])
            platt_predict_many(theta, consts, grid, outs[1])
            one = [platt_predict(theta, consts, g) for g in grid.tolist()]
            assert outs[0].tolist() == outs[1].tolist() == one
            other = [theta[0] * 0.5, theta[1] + 0.25, *theta[2:]]  # a second map, one feature
            pairs = [np.empty((2, len(grid))) for _ in range(2)]
            COMPILED.platt_predict_pair(theta, other, consts, grid, *pairs[0])
            platt_predict_pair(theta, other, consts, grid, *pairs[1])
            assert pairs[0].tolist() == pairs[1].tolist()
            assert pairs[0][0].tolist() == one
            assert pairs[0][1].tolist() == [platt_predict(other, consts, g) for g in grid.tolist()]
        COMPILED.platt_learn(cal._theta, consts, score, positive, project)
        platt_learn(theta, consts, score, positive, project)
        assert cal._theta == theta  # every float, bit for bit
        flat += theta[0] == 0.0  # projected onto A <= 0
    assert all(math.isfinite(v) for v in theta)
    if params.get("radius") == 1.5:
        assert len(calls) > 10 and flat > 10  # both projections ran, in C and in Python
        assert calls[::2] == calls[1::2]  # with the same arguments


@needs_kernels
@pytest.mark.parametrize("params", PLATT_SETTINGS)
def test_platt_learn_many_is_platt_learn_pair_by_pair_bit_for_bit(params):
    """The compiled `platt_learn_many` (a minibatch's pairs in one call, theta read and written
    once), its twin and `platt_learn` one pair at a time: the same floats after every batch,
    the ball's projection called back in the same order."""
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.calibration.platt import _project_ball, platt_learn_many

    cal = OnlinePlattCalibrator(**params)
    consts = cal._consts
    states = [list(cal._theta) for _ in range(3)]
    calls = [[], [], []]
    pairs = calibrator_pairs(seed=3)
    for start in range(0, len(pairs), 37):  # batches of every remainder, one of one pair
        batch = pairs[start : start + 37]
        scores, positives = [s for s, _ in batch], [p for _, p in batch]

        def counted(k):
            return lambda *args: (calls[k].append(args), _project_ball(*args))[1]

        COMPILED.platt_learn_many(states[0], consts, scores, positives, counted(0))
        platt_learn_many(states[1], consts, scores, positives, counted(1))
        for score, positive in batch:
            COMPILED.platt_learn(states[2], consts, score, positive, counted(2))
        assert states[0] == states[1] == states[2]  # every float, bit for bit
    assert calls[0] == calls[1] == calls[2]
    if params.get("radius") == 1.5:
        assert calls[0]  # the small ball's projection ran, called back from the batch too
    COMPILED.platt_learn_many(states[0], consts, [], [], _project_ball)  # no pair: no change
    assert states[0] == states[2]


@needs_kernels
@pytest.mark.parametrize("params", [{}, {"forgetting": 0.99, "gamma": 0.5, "eps": 1e-6},
                                    {"radius": 1.5}])
def test_beta_learn_many_is_beta_learn_pair_by_pair_bit_for_bit(params):
    """As Platt's: the compiled `beta_learn_many`, its twin and `beta_learn` pair by pair give
    the same (a, b, c) and curvature after every batch; a pair that cannot be read leaves the
    curvature as it was."""
    from streamboost.calibration import OnlineBetaCalibrator
    from streamboost.calibration.beta import beta_learn_many

    cal = OnlineBetaCalibrator(**params)
    consts = cal._consts
    thetas, curvatures = [cal._theta] * 3, [list(cal._c) for _ in range(3)]
    pairs = calibrator_pairs(seed=4)
    for start in range(0, len(pairs), 37):
        batch = pairs[start : start + 37]
        scores, positives = [s for s, _ in batch], [p for _, p in batch]
        thetas[0] = COMPILED.beta_learn_many(thetas[0], curvatures[0], consts, scores, positives)
        thetas[1] = beta_learn_many(thetas[1], curvatures[1], consts, scores, positives)
        for score, positive in batch:
            thetas[2] = COMPILED.beta_learn(thetas[2], curvatures[2], consts, score, positive)
        assert thetas[0] == thetas[1] == thetas[2]
        assert curvatures[0] == curvatures[1] == curvatures[2]
    before = list(curvatures[0])
    with pytest.raises(TypeError):
        COMPILED.beta_learn_many(thetas[0], curvatures[0], consts, [0.5, "x"], [True, True])
    with pytest.raises(TypeError, match="scores and positives must be lists of one length"):
        COMPILED.beta_learn_many(thetas[0], curvatures[0], consts, [0.5], [True, False])
    assert curvatures[0] == before


@needs_kernels
def test_beta_predict_many_is_beta_predict_score_by_score_bit_for_bit():
    """The map of an array, compiled and its twin, is each score's `beta_predict`: numpy's
    log, which it replaced, differs from the C library's in the last bit for some scores."""
    from streamboost.calibration import OnlineBetaCalibrator
    from streamboost.calibration.beta import beta_predict, beta_predict_many

    cal = OnlineBetaCalibrator(gamma=0.1)
    grid = np.array([0.0, 1e-300, 1e-9, *np.random.default_rng(3).random(2_000), 1 - 1e-9, 1.0])
    for start, (score, positive) in enumerate(calibrator_pairs(seed=5)):
        cal.learn_one(score, positive)
        if start % 100 == 0:
            outs = np.empty(len(grid)), np.empty(len(grid))
            COMPILED.beta_predict_many(cal._theta, cal._consts, grid, outs[0])
            beta_predict_many(cal._theta, cal._consts, grid, outs[1])
            one = [beta_predict(cal._theta, cal._consts, g) for g in grid.tolist()]
            assert outs[0].tolist() == outs[1].tolist() == one
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd'"):
        COMPILED.beta_predict_many(cal._theta, cal._consts, grid, np.empty(3))


@needs_kernels
def test_platt_learn_many_refuses_columns_of_two_lengths_and_leaves_theta():
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.calibration.platt import _project_ball

    cal = OnlinePlattCalibrator()
    cal.learn_many([0.2, 0.9], [False, True])
    before = list(cal._theta)
    for scores, positives in [([0.5, 0.6], [True]), ((0.5,), [True]), ([0.5], (True,))]:
        with pytest.raises(TypeError, match="scores and positives must be lists of one length"):
            COMPILED.platt_learn_many(cal._theta, cal._consts, scores, positives, _project_ball)
    with pytest.raises(TypeError):  # a pair that is not a number: nothing is written
        COMPILED.platt_learn_many(cal._theta, cal._consts, [0.5, "x"], [True, True],
                                  _project_ball)
    assert cal._theta == before


@needs_kernels
def test_platt_kernels_refuse_a_malformed_state():
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.calibration.platt import _project_ball

    cal = OnlinePlattCalibrator()
    with pytest.raises(TypeError, match="theta must be a list of 7 items"):
        COMPILED.platt_learn(cal._theta[:6], cal._consts, 0.5, True, _project_ball)
    with pytest.raises(TypeError, match="consts must be a tuple of 10 items"):
        COMPILED.platt_predict(cal._theta, cal._consts[:9], 0.5)
    with pytest.raises(TypeError, match="takes 5 arguments"):
        COMPILED.platt_learn(cal._theta, cal._consts, 0.5, True)
    out = np.zeros(2)
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd'"):
        COMPILED.platt_predict_many(cal._theta, cal._consts, np.array([0.5, 0.7]), np.empty(3))
    with pytest.raises(TypeError, match="scores must be a 1-d array of format 'd'"):
        COMPILED.platt_predict_many(cal._theta, cal._consts, np.array([0, 1]), out)
    assert cal._theta == [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] and out.tolist() == [0.0, 0.0]



def test_a_kernels_module_built_before_the_calibrator_kernels_falls_back_to_the_twins():
    # an editable install whose _kernels.so predates a kernel (platt_learn, floats_within, the
    # other calibrators') must still import, check features and calibrate
    # (a fresh interpreter: the stale module has to be in place before streamboost is imported)
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import sys, types
        sys.modules["streamboost._kernels"] = types.ModuleType("streamboost._kernels")
        from streamboost.calibration import platt
        assert platt._LEARN is platt.platt_learn and platt._PREDICT is platt.platt_predict
        assert platt._LEARN_MANY is platt.platt_learn_many
        assert platt._PREDICT_MANY is platt.platt_predict_many
        assert platt._PREDICT_PAIR is platt.platt_predict_pair
        from streamboost import reward
        assert reward._MEAN_LOSSES is reward.loss_means
        from streamboost import validation
        assert validation._FLOATS_WITHIN is None
        validation.check_features({"a": 1.0})
        from streamboost.members import base, linear
        assert base._FILL_ROWS is None and linear._VOTE_SCORES is None
        assert base._FILL_COLUMNS is None and validation._NUMBERS_WITHIN is None
        from streamboost import scores
        assert scores._FILL_COLUMNS is None
        from streamboost.state import copy_attributes
        assert base._COPY is copy_attributes
        from streamboost.calibration import base as pav, beta, ewa, histogram, isotonic
        assert (beta._LEARN, beta._PREDICT) == (beta.beta_learn, beta.beta_predict)
        assert beta._LEARN_MANY is beta.beta_learn_many
        assert beta._PREDICT_MANY is beta.beta_predict_many
        assert pav._UPDATE is pav.pav_update and histogram._POOL is histogram.histogram_pool
        assert pav._SHARE is pav.share_attributes
        assert histogram._PREDICT is histogram.histogram_predict
        assert histogram._PREDICT_MANY is histogram.histogram_predict_many
        assert isotonic._PREDICT is isotonic.isotonic_predict
        assert isotonic._PREDICT_MANY is isotonic.isotonic_predict_many
        assert (ewa._LEARN, ewa._PREDICT) == (ewa.ewa_learn, ewa.ewa_predict)
        cal = platt.OnlinePlattCalibrator()
        cal.learn_one(0.8, True)
        assert cal.copy()._theta == cal._theta
        mixed = ewa.EWACalibrator()
        mixed.learn_many([0.8, 0.3, 0.6], [True, False, True])
        import numpy as np
        means = reward.mean_losses("brier", np.array([[0.5, 1.0]]), [True, True])
        print(cal.n_seen, 0.0 < cal.predict_one(0.8) < 1.0, mixed.n_seen, means)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "True", "3", "[0.125]"]


def _members_with_columns(keys):
    """Logistic-regression members that know `keys` as their columns, in that order."""
    model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0)
    model.learn_one(dict.fromkeys(keys, 0.5), True)
    return model._members


ROWS_CASES = {
    "floats": [{"a": 1.5, "b": -2.0, "c": 0.0}, {"a": 1e-300, "b": 3.0, "c": -0.0}],
    "another key order": [{"c": 1.0, "a": 2.0, "b": 3.0}, {"b": 4.0, "c": 5.0, "a": 6.0}],
    "ints and bools": [{"a": 1, "b": True, "c": 2.5}, {"a": -3, "b": False, "c": 0.5}],
    "a key missing": [{"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 1.0, "b": 2.0}],
    "a key unknown": [{"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 1.0, "b": 2.0, "d": 3.0}],
    "an extra key": [{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}],
    "numpy floats": [{"a": np.float64(1.25), "b": 2.0, "c": 3.0}],
    "no rows": [],
    # one-hot indicators: each row names a few of the known keys, as ints
    "some keys, ints": [{"a": 1, "c": 1}, {"b": 1}, {}, {"c": -(2**53) - 1, "a": 2**53 + 1}],
    "some keys, floats": [{"c": 0.5, "a": -0.0}, {"b": 1e300}],
    "some keys, a bool": [{"a": 1}, {"b": True}],
    "some keys, one unknown": [{"a": 1}, {"d": 1, "b": 2}],
}


ONE_COLUMN_CASES = {  # numpy's conversion takes `vector`'s branch for a single column
    "one column": [{"a": 1.5}, {"a": -0.0}],
    "one column, a key unknown": [{"a": 1.5}, {"b": 2.0}],
}


@needs_kernels
@pytest.mark.parametrize("case", [*ROWS_CASES, *ONE_COLUMN_CASES])
def test_fill_rows_makes_the_rows_numpy_makes(case):
    # ArrayMembers.rows with the kernel, and with numpy's conversion: the same table, and the
    # same columns added for a key the members did not know
    tables = []
    keys, rows = ((["a"], ONE_COLUMN_CASES[case]) if case in ONE_COLUMN_CASES
                  else (["a", "b", "c"], ROWS_CASES[case]))
    for fill in (COMPILED.fill_rows, None):
        held = _members_with_columns(keys)
        with mock.patch("streamboost.members.base._FILL_ROWS", fill):
            table = held.rows([dict(x) for x in rows])
        tables.append((table, list(held._keys)))
    (fast, keys), (slow, slow_keys) = tables
    assert keys == slow_keys
    assert fast.shape == slow.shape and fast.dtype == slow.dtype
    assert np.array_equal(fast, slow) and np.array_equal(np.signbit(fast), np.signbit(slow))


@needs_kernels
@pytest.mark.parametrize("case", ROWS_CASES)
def test_a_vector_of_some_keys_is_the_one_python_makes(case):
    # ArrayMembers.vector with fill_columns and without: the same vectors, the same columns
    made = []
    for fill in (COMPILED.fill_columns, None):
        held = _members_with_columns(["a", "b", "c"])
        with mock.patch("streamboost.members.base._FILL_COLUMNS", fill):
            vectors = [held.vector(dict(x)) for x in ROWS_CASES[case]]
        made.append((vectors, list(held._keys)))
    (fast, keys), (slow, slow_keys) = made
    assert keys == slow_keys and len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
        assert np.array_equal(np.signbit(a), np.signbit(b))


@needs_kernels
@pytest.mark.parametrize("absent", [0.0, np.nan])
@pytest.mark.parametrize("case", ROWS_CASES)
def test_a_frozen_copys_rows_of_some_keys_are_the_ones_python_makes(case, absent):
    # scores._rows (a frozen logistic regression's, or a booster's before a scaler) with the
    # kernels and without: a key it does not know is left out, an absent one is `absent`
    rows = [dict(x) for x in ROWS_CASES[case]]
    tables = []
    for fill in (COMPILED.fill_columns, None):
        with mock.patch("streamboost.scores._FILL_COLUMNS", fill):
            tables.append(frozen_rows(rows, ["a", "b", "c"], 1.0, absent))
    fast, slow = tables
    assert fast.shape == slow.shape and np.array_equal(fast, slow, equal_nan=True)
    assert np.array_equal(np.signbit(fast), np.signbit(slow))


_KEYS = ["a", "b", "c", "d", "e"]
_VALUES = st.one_of(
    st.integers(-(2**60), 2**60),  # beyond 2**53 a double rounds them: Python's conversion
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
)


@needs_kernels
@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=5), max_size=6),
       known=st.integers(1, 5))
def test_sparse_rows_of_any_numbers_are_the_ones_python_makes(rows, known):
    # members that know the first `known` keys: their vectors and matrix of `rows` (keys they
    # do not know yet added in order), and a frozen copy's matrix over those keys, with the
    # kernels and without, are the same floats
    made = []
    for fill in (COMPILED.fill_columns, None):
        held = _members_with_columns(_KEYS[:known])
        with (mock.patch("streamboost.members.base._FILL_COLUMNS", fill),
              mock.patch("streamboost.scores._FILL_COLUMNS", fill)):
            frozen = frozen_rows([dict(x) for x in rows], _KEYS[:known], None, np.nan)
            vectors = [held.vector(dict(x)) for x in rows]
            table = held.rows([dict(x) for x in rows])
        made.append((frozen, vectors, table, list(held._keys)))
    (frozen, vectors, table, keys), (frozen_py, vectors_py, table_py, keys_py) = made
    assert keys == keys_py
    assert np.array_equal(frozen, frozen_py, equal_nan=True)
    assert np.array_equal(table, table_py)
    assert np.array_equal(np.signbit(table), np.signbit(table_py))
    for a, b in zip(vectors, vectors_py, strict=True):
        assert np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))


_WEIGHTS = st.floats(-1e3, 1e3, allow_nan=False)
_MODERATE = st.one_of(st.integers(-(2**60), 2**60), st.floats(-1e150, 1e150), st.booleans())


@needs_kernels
@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.dictionaries(st.sampled_from(_KEYS), _MODERATE, max_size=5),
                     min_size=1, max_size=6),
       known=st.integers(1, 5), spare=st.integers(0, 3), data=st.data())
def test_linear_margins_are_the_numpy_running_sums_bit_for_bit(rows, known, spare, data):
    # LinearMembers.votes with the kernel and with its numpy twin (`_margins` of `vector`), on
    # members that know the first `known` keys and hold `spare` unused columns: the same
    # vector, margins, votes and squared length, and the same keys added
    width = known + 1 + spare
    weights = np.array(data.draw(st.lists(_WEIGHTS, min_size=3 * width, max_size=3 * width)))
    made = []
    for compiled in (COMPILED, None):
        held = _members_with_columns(_KEYS[:known])
        held.n_models = 3
        held.weights = weights.reshape(3, width).copy()
        held._width = width - 1  # columns for features: a new key beyond them grows the array
        seen = []
        with mock.patch.object(kernels, "compiled", compiled):
            for x in rows:
                held._x = None
                votes = list(held.votes(dict(x)))
                seen.append((held._xa, held._margins, votes, held._norm))
        made.append((seen, list(held._keys), held.weights))
    (fast, keys, grown), (slow, slow_keys, grown_py) = made
    assert keys == slow_keys and np.array_equal(grown, grown_py)
    for (xa, margins, votes, norm), (xa_py, margins_py, votes_py, norm_py) in zip(
            fast, slow, strict=True):
        assert np.array_equal(xa, xa_py) and np.array_equal(np.signbit(xa), np.signbit(xa_py))
        assert np.array_equal(margins, margins_py) and votes == votes_py
        assert np.array_equal(np.signbit(margins), np.signbit(margins_py))
        assert norm == norm_py


@needs_kernels
@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 4), length=st.integers(1, 5), spare=st.integers(0, 2),
       ratio=st.sampled_from([1.0, 0.5, 3.0]), data=st.data())
def test_linear_commit_is_numpys_outer_update_bit_for_bit(n, length, spare, ratio, data):
    # LinearMembers.commit with the kernel and with numpy's outer product: the same weights,
    # the spare columns untouched
    weights = np.array(data.draw(st.lists(_WEIGHTS, min_size=n * (length + spare),
                                          max_size=n * (length + spare)))).reshape(n, -1)
    moves = data.draw(st.lists(st.floats(-10.0, 10.0), min_size=n, max_size=n))
    xa = np.array([1.0, *data.draw(st.lists(st.floats(-1e3, 1e3), min_size=length - 1,
                                            max_size=length - 1))])
    fast = weights.copy()
    COMPILED.linear_commit(fast, moves, xa, ratio)
    along = xa.copy()
    along[0] = ratio
    slow = weights.copy()
    slow[:, :length] -= np.multiply.outer(moves, along)
    assert np.array_equal(fast, slow) and np.array_equal(np.signbit(fast), np.signbit(slow))


@needs_kernels
def test_linear_margins_leaves_what_it_cannot_take_to_python():
    held = _members_with_columns(["a", "b"])
    keys, columns, weights = held._keys, held._columns, held.weights
    for x in ({"a": 1.0, "z": 2.0}, {"a": "1"}, {"a": None}, {"a": True}, {"a": 10**400},
              {"a": np.float32(1.0)}):
        assert COMPILED.linear_margins(x, keys, columns, weights, np.empty(3)) is None
    margins, votes, norm = COMPILED.linear_margins({"b": 2, "a": 0.5}, keys, columns, weights,
                                                   xa := np.empty(3))
    assert xa.tolist() == [1.0, 0.5, 2.0] and norm == 5.25 and len(margins) == len(votes) == 2
    with pytest.raises(TypeError, match="xa must be a 1-d array"):
        COMPILED.linear_margins({"a": 1.0}, keys, columns, weights, np.empty(2))
    with pytest.raises(TypeError, match="x and columns must be dicts"):
        COMPILED.linear_margins([("a", 1.0)], keys, columns, weights, np.empty(3))
    with pytest.raises(TypeError, match="weights must have a column per key"):
        COMPILED.linear_margins({"a": 1.0}, keys, columns, np.zeros((2, 2)), np.empty(3))
    with pytest.raises(TypeError, match="moves must be a list of 2 items"):
        COMPILED.linear_commit(np.zeros((2, 3)), [0.1], np.ones(3), 1.0)
    unchanged = np.zeros((2, 3))
    with pytest.raises(TypeError, match="must be real number"):
        COMPILED.linear_commit(unchanged, [0.1, "0.2"], np.ones(3), 1.0)
    assert not unchanged.any()  # the first member's move was not applied either
    frozen = np.zeros((2, 3))
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="weights must be writable"):
        COMPILED.linear_commit(frozen, [0.1, 0.2], np.ones(3), 1.0)
    with pytest.raises(TypeError, match="weights must be writable, as wide as xa"):
        COMPILED.linear_commit(np.zeros((2, 2)), [0.1, 0.2], np.ones(3), 1.0)


@needs_kernels
def test_weak_commit_refuses_what_does_not_fit_before_any_change():
    m, p = 3, 2
    right = np.ones((m, p), dtype=bool)
    score, params = np.zeros((m, 4)), np.zeros((4, m, 4))

    def commit(**changed):
        arguments = {"stump": True, "target": True, "ks": [1, 0, 2], "right": right,
                     "scores_x": np.zeros((m, p)), "score": score, "params_x": np.ones((4, m, p)),
                     "params": params, "cols": [0, 3], "xv": np.ones(p), "gradients": None,
                     "lr": 0.0, **changed}
        COMPILED.weak_commit(*arguments.values())

    for bad, error, message in [
        ({"ks": [1, 0, "2"]}, TypeError, "must be real number, not str"),
        ({"cols": [0, 4]}, ValueError, "cols names a column outside score"),
        ({"cols": [0]}, TypeError, "cols must be a list of 2 items"),
        ({"scores_x": np.zeros((m, p + 1))}, TypeError, "do not fit each other"),
        ({"right": np.ones((m, p))}, TypeError, "right must be a 2-d bool array"),
        ({"stump": False}, TypeError, "univariate members need their gradients"),
        ({"stump": False, "gradients": np.zeros(m)}, TypeError, "gradients must be a float64"),
    ]:
        with pytest.raises(error, match=message):
            commit(**bad)
        assert not score.any() and not params.any()  # nothing written
    commit()
    assert score[:, [0, 3]].tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    assert params[0][:, 3].tolist() == [2.0, 1.0, 3.0] and not params[1].any()
    commit(ks=[0.5, 0, 2.0 / 3.0])  # a draw times a sample weight (0.8.46)
    assert score[:, 0].tolist() == [0.5, 0.0, 2.0 / 3.0]
    assert params[0][:, 3].tolist() == [1.5, 1.0, 1.0 + 2.0 / 3.0]


@needs_kernels
def test_fill_columns_writes_only_what_it_can_take():
    columns = {"a": 0, "b": 1}
    table = np.full((2, 3), 7.0)
    assert COMPILED.fill_columns([{"b": 1}, {"a": 2.5}], columns, table, 1, True) is True
    assert table.tolist() == [[7.0, 7.0, 1.0], [7.0, 2.5, 7.0]]  # the rest as it was
    for row in ({"z": 1.0}, {"a": "1"}, {"a": float("inf")}, {"a": 10**400}, {"a": None}):
        assert COMPILED.fill_columns([row], columns, np.zeros(3), 1, True) is False
    assert COMPILED.fill_columns([{"z": 1.0, "a": 3}], columns, table[:1], 1, False) is True
    assert table[0].tolist() == [7.0, 3.0, 1.0]  # an unknown key skipped, not strict
    with pytest.raises(TypeError, match="xs must be a list and columns a dict"):
        COMPILED.fill_columns(({"a": 1.0},), columns, np.zeros(3), 1, True)
    with pytest.raises(TypeError, match="len\\(xs\\) rows"):
        COMPILED.fill_columns([{"a": 1.0}] * 2, columns, np.zeros(3), 1, True)
    with pytest.raises(TypeError, match="float64"):
        COMPILED.fill_columns([{"a": 1.0}], columns, np.zeros(3, dtype=np.float32), 1, True)
    with pytest.raises(TypeError, match="float64 array"):
        COMPILED.fill_columns([{"a": 1.0}], columns, np.zeros(()), 0, True)  # no rows at all
    with pytest.raises(TypeError, match="offset an int >= 0"):
        COMPILED.fill_columns([{"a": 1.0}], columns, np.zeros(3), -1, True)


@needs_kernels
@pytest.mark.parametrize("value", [float("nan"), float("inf"), "2.0", None])
def test_fill_rows_leaves_a_value_it_cannot_take_to_python(value):
    keys = ["a", "b"]
    table = np.zeros((2, 3))
    assert COMPILED.fill_rows([{"a": 1.0, "b": 2.0}, {"a": value, "b": 2.0}], keys, table) is False
    assert COMPILED.fill_rows([{"a": 1.0, "b": 2.0}] * 2, keys, table) is True
    assert table[:, 1:].tolist() == [[1.0, 2.0], [1.0, 2.0]] and table[:, 0].tolist() == [0, 0]


@needs_kernels
def test_fill_rows_reads_keys_by_identity_or_by_lookup_alike():
    # a row whose keys are the very objects of `keys`, in order, is read in one pass; equal
    # keys that are other objects, or another order, or a value it cannot take midway, by lookup
    keys = ["price", "demand", "period"]
    other = ["".join(["pri", "ce"]), "".join(["dem", "and"]), "".join(["per", "iod"])]
    assert other == keys and other[0] is not keys[0]
    rows = [dict(zip(keys, (1.5, -2.0, 0.25), strict=True)),
            dict(zip(other, (3.0, 4.0, -0.0), strict=True)),
            dict(zip(keys[::-1], (5.0, 6.0, 7.0), strict=True))]
    table = np.full((3, 4), 9.0)
    assert COMPILED.fill_rows(rows, keys, table) is True
    assert table[:, 1:].tolist() == [[1.5, -2.0, 0.25], [3.0, 4.0, -0.0], [7.0, 6.0, 5.0]]
    assert np.signbit(table[1, 3]) and table[:, 0].tolist() == [9.0] * 3  # the lead untouched
    bad = [dict(zip(keys, (1.0, 2, 3.0), strict=True))]  # an int midway: Python's to convert
    assert COMPILED.fill_rows(bad, keys, np.zeros((1, 3))) is False


def test_fill_rows_refuses_mismatched_arguments():
    if COMPILED is None:
        pytest.skip("the C kernels are not built")
    with pytest.raises(TypeError, match="xs and keys must be lists"):
        COMPILED.fill_rows(({"a": 1.0},), ["a"], np.zeros((1, 1)))
    with pytest.raises(TypeError, match="len\\(xs\\) rows and at least len\\(keys\\) columns"):
        COMPILED.fill_rows([{"a": 1.0}], ["a", "b"], np.zeros((1, 1)))
    with pytest.raises(TypeError, match="float64 array"):
        COMPILED.fill_rows([{"a": 1.0}], ["a"], np.zeros((1, 1), dtype=np.float32))
    with pytest.raises(TypeError, match="unhashable"):
        COMPILED.fill_rows([{"a": 1.0}], [["a"]], np.zeros((1, 1)))


def _random_members(rng: np.random.Generator, n_models: int, width: int):
    """Logistic-regression members with random weights over `width` columns (and intercepts)."""
    held = _members_with_columns([f"x{j}" for j in range(width)])
    held.n_models = n_models
    held.weights = rng.normal(size=(n_models, width + 1))
    return held


def _table_scores_both_ways(held, table, alphas, score):
    """`table_scores` with the `vote_scores` kernel, then with numpy's votes and running sum."""
    from streamboost.boosting import table_scores

    out = []
    for vote_scores in (COMPILED.vote_scores, None):
        with mock.patch("streamboost.members.linear._VOTE_SCORES", vote_scores):
            out.append(table_scores(held, table, alphas, score))
    return out


@needs_kernels
@pytest.mark.parametrize("score", ["vote", "logistic"])
def test_vote_scores_are_numpys_table_scores_bit_for_bit(score):
    # random members, rows and vote weights: zero, negative and huge weights too (a negative
    # alpha times a negative vote is -0.0 in numpy's sum; the kernel must add the same floats)
    rng = np.random.default_rng(11)
    for trial in range(300):
        n_models, width, rows = (int(rng.integers(1, 15)), int(rng.integers(1, 6)),
                                 int(rng.integers(0, 40)))
        held = _random_members(rng, n_models, width)
        spread = 10 ** rng.uniform(-3, 3)
        table = np.hstack([np.ones((rows, 1)), rng.normal(size=(rows, width)) * spread])
        alphas = [float(rng.choice([0.0, -0.0, rng.uniform(-2, 2), rng.uniform(0, 50), 1e300]))
                  for _ in range(n_models)]
        if sum(alphas) == 0.0:
            continue
        fast, slow = _table_scores_both_ways(held, table, alphas, score)
        assert fast.dtype == slow.dtype and fast.shape == slow.shape == (rows,)
        assert np.array_equal(fast, slow, equal_nan=True), trial
        assert np.array_equal(np.signbit(fast), np.signbit(slow)), trial


@needs_kernels
def test_vote_scores_leaves_rivers_ties_to_python():
    # a margin within the tie band is decided by River's arithmetic, in Python: the kernel says
    # so, and table_scores gives numpy's answer (a margin of exactly 0 votes negative)
    held = _random_members(np.random.default_rng(0), 2, 1)
    held.weights = np.array([[0.0, 1.0], [1.0, 1.0]])  # member 0's margin on x = 0 is 0
    table = np.array([[1.0, 0.0], [1.0, 2.0]])
    out = np.empty(2)
    margins = table @ held.weights.T
    assert COMPILED.vote_scores(margins, [1.0, 3.0], 4.0, False, 1e-9, out) is False
    assert COMPILED.vote_scores(margins[1:], [1.0, 3.0], 4.0, False, 1e-9, out[1:]) is True
    fast, slow = _table_scores_both_ways(held, table, [1.0, 3.0], "vote")
    assert fast.tolist() == slow.tolist() == [0.75, 1.0]


@needs_kernels
def test_a_frozen_boosters_scores_are_the_same_with_and_without_vote_scores():
    # a booster trained on a real stream: its frozen copy scores the next rows alike both ways,
    # and as the live booster scores them one by one (to rounding)
    from streamboost.scores import FrozenScorer

    rows = phishing(2_000)
    for score in ("vote", "logistic"):
        model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=3,
                                   score=score)
        for x, y in rows[:1_500]:
            model.learn_one(x, y)
        xs = [x for x, _ in rows[1_500:]]
        results = []
        for vote_scores in (COMPILED.vote_scores, None):
            with mock.patch("streamboost.members.linear._VOTE_SCORES", vote_scores):
                results.append(FrozenScorer(model, True).scores(xs))
        assert np.array_equal(results[0], results[1])
        one_by_one = [model.predict_proba_one(x)[True] for x in xs]
        assert np.allclose(results[0], one_by_one, rtol=0, atol=1e-12)


def test_vote_scores_refuses_mismatched_arguments():
    if COMPILED is None:
        pytest.skip("the C kernels are not built")
    margins, out = np.zeros((2, 3)), np.empty(2)
    with pytest.raises(TypeError, match="alphas must be a list of 3 items"):
        COMPILED.vote_scores(margins, [1.0, 2.0], 3.0, False, 1e-9, out)
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd'"):
        COMPILED.vote_scores(margins, [1.0] * 3, 3.0, False, 1e-9, np.empty(3))
    with pytest.raises(TypeError, match="margins must be a 2-d float64 array"):
        COMPILED.vote_scores(np.zeros(3), [1.0] * 3, 3.0, False, 1e-9, out)
    with pytest.raises(TypeError):
        COMPILED.vote_scores(margins, [1.0, "a", 2.0], 3.0, False, 1e-9, out)


@contextlib.contextmanager
def python_soft_scores():
    """The soft score's kernels replaced by their Python twins (bound at import)."""
    from streamboost.members import base, linear

    with mock.patch.multiple(linear, _SOFT_SCORE=base.soft_score, _LINEAR_SOFT_SCORES=None):
        yield


@needs_kernels
def test_the_soft_score_kernels_are_the_python_twins_bit_for_bit():
    # random vote weights (zero, negative, huge), probabilities and margins (past River's
    # +/-30 cut, on it, NaN-free), members that abstain (None), and tables of random members
    from streamboost.members.base import soft_score

    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(0, 12))
        alphas = [float(rng.choice([0.0, -0.0, rng.uniform(-2, 2), rng.uniform(0, 50), 1e300]))
                  for _ in range(n)]
        probabilities = [None if rng.random() < 0.2 else float(rng.random()) for _ in range(n)]
        margins = [None if rng.random() < 0.2 else float(rng.choice(
            [rng.normal() * 10 ** rng.uniform(-3, 2), 30.0, -30.0, 30.000001])) for _ in range(n)]
        for values, are_margins in ((probabilities, False), (margins, True)):
            fast = COMPILED.soft_score(alphas, values, are_margins)
            slow = soft_score(alphas, values, are_margins)
            assert fast == slow or (math.isnan(fast) and math.isnan(slow)), trial
        width, rows = int(rng.integers(1, 6)), int(rng.integers(0, 40))
        held = _random_members(rng, max(n, 1), width)
        alphas = alphas or [1.0]
        table = np.hstack([np.ones((rows, 1)),
                           rng.normal(size=(rows, width)) * 10 ** rng.uniform(-3, 2)])
        fast = held.batch_soft_scores(table, alphas)
        with python_soft_scores():
            slow = held.batch_soft_scores(table, alphas)
        assert np.array_equal(fast, slow, equal_nan=True), trial
        # one row at a time, with the members' own margins (`_margins`, summed in order)
        from streamboost.members.linear import _margins

        by_row = [soft_score(alphas, _margins(held.weights, row)[0], True) for row in table]
        assert np.array_equal(fast, np.array(by_row, dtype=float), equal_nan=True), trial



@needs_kernels
@pytest.mark.parametrize("kind", [DecisionStump, UnivariateLogisticRegression])
def test_the_weak_members_soft_score_kernel_is_their_numpy_arithmetic_bit_for_bit(kind):
    # `weak_soft` (0.8.47) against WeakMembers.soft_score's numpy path, on members trained
    # with weights that are not whole (rounded scores), then pushed to the extremes: margins
    # past e^700 both ways and on -700, stumps with no count, vote weights of zero; x with all
    # the features in order (the members' columns read in place) and with some, reordered
    # (a copy of them)
    from streamboost.members import weak

    rows = phishing(400)
    booster = OzaBoostClassifier(kind(), n_models=12, seed=3, score="soft")
    for i, (x, y) in enumerate(rows):
        booster.learn_one(x, y, w=1 / 3 if i % 4 else 2.0)
    held = booster._members
    params = held._params
    if kind is UnivariateLogisticRegression:
        params[0, :3] = [[1e6], [-1e6], [0.0]]  # coef, then the bias below: m = -700 exactly
        params[1, 2] = -700.0
    else:
        params[:2, :2] = held._score[:2] = 0.0  # no example seen: 1/2
    rng = np.random.default_rng(8)
    keys = list(rows[0][0])
    alphas = [0.0, 1.5, 0.0, *rng.uniform(0.1, 3.0, 9).tolist()]
    assert len(alphas) == held.n_models
    compared = 0
    for i, (x, _) in enumerate(rows[:120]):
        if i % 2:
            x = {k: x[k] for k in rng.permutation(keys)[: rng.integers(1, len(keys) + 1)]}
        for weights in (alphas, list(booster._vote_weights())):
            held._x = None  # scored afresh each time
            fast = held.soft_score(x, weights)
            held._x = None
            with mock.patch.object(weak, "_WEAK_SOFT", None):
                slow = held.soft_score(x, weights)
            assert fast == slow, (i, x)
            compared += 1
    assert compared == 240
    # by hand: a margin of exactly -700 gives 0 (the twin's cut), -699 its sigmoid; a stump
    # that saw 2 positives and 1 negative, its score 1, is right with 2.5 / 4 = 0.625
    one = np.zeros((2, 1, 1))
    for bias, expected in ((-700.0, 0.0), (-699.0, 1.0 / (1.0 + math.exp(699.0)))):
        one[1, 0, 0] = bias
        assert COMPILED.weak_soft(True, one, np.zeros((1, 1)), np.zeros(1, dtype=np.int64),
                                  np.array([3.0]), [False], [2.0]) == expected
    stumps = np.array([[[2.0], [2.0]], [[1.0], [1.0]], [[0.0], [0.0]], [[0.0], [0.0]]])
    assert COMPILED.weak_soft(False, stumps, np.ones((2, 1)), np.zeros(2, dtype=np.int64),
                              np.array([0.5]), [False, True], [1.0, 3.0]) == (
        (1.0 * 0.375 + 3.0 * 0.625) / 4.0)
    held._x = None
    held.votes(rows[0][0])
    chosen = held._chosen.copy()
    chosen[0] = len(keys)
    with pytest.raises(IndexError, match=rf"chosen\[0\] = {len(keys)} is not a feature"):
        COMPILED.weak_soft(False, held._params_x, held._scores_x, chosen, held._xv,
                           held._before, alphas)
    with pytest.raises(TypeError, match="alphas must be a list of 12 items"):
        COMPILED.weak_soft(False, held._params_x, held._scores_x, held._chosen, held._xv,
                           held._before, alphas[1:])
    with pytest.raises(TypeError, match="scores must be a float64 array of 2 dims"):
        COMPILED.weak_soft(False, held._params_x, held._scores_x[:, 1:], held._chosen,
                           held._xv, held._before, alphas)

@needs_kernels
def test_the_weak_sigmoids_kernel_is_math_exps_loop_bit_for_bit():
    # `weak_sigmoids` (0.8.51), UnivariateLogisticRegression._probabilities in C, against its
    # Python loop on margins spread over the whole range, the cut at -700 on either side, the
    # overflows of e^-m both ways, signed zeros and NaN (cut to 0, as `m > -700` is False)
    from streamboost.weak import univariate

    rng = np.random.default_rng(5)
    margins = np.concatenate([
        rng.normal(0.0, 3.0, 2_000), rng.uniform(-800.0, 800.0, 2_000),
        [-700.0, np.nextafter(-700.0, 0.0), -699.0, -701.0, -745.0, 709.0, 745.0, 1e308,
         -1e308, 0.0, -0.0, 36.7, -36.7, np.inf, -np.inf, np.nan]])
    out = np.empty(len(margins))
    COMPILED.weak_sigmoids(margins, out)
    twin = [1.0 / (1.0 + math.exp(-m)) if m > -700.0 else 0.0 for m in margins.tolist()]
    assert out.tobytes() == np.array(twin).tobytes()
    assert out[-1] == 0.0 and out[margins == -700.0].tolist() == [0.0]  # NaN, the cut
    # through the learner, on a matrix (a minibatch's members x rows), F-ordered too
    learner = UnivariateLogisticRegression()
    params = {"coef": rng.normal(0.0, 40.0, (7, 5)), "bias": rng.normal(0.0, 40.0, (7, 5))}
    xv = np.asfortranarray(rng.normal(0.0, 3.0, (7, 5)))
    fast = learner._probabilities(params, xv, None, None)
    with mock.patch.object(univariate, "_SIGMOIDS", None):
        slow = learner._probabilities(params, xv, None, None)
    assert fast.shape == (7, 5) and fast.tobytes() == slow.tobytes()
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd' and the"):
        COMPILED.weak_sigmoids(margins, np.empty(3))
    with pytest.raises(TypeError, match="margins must be a 1-d array of format 'd'"):
        COMPILED.weak_sigmoids(np.ones(len(out), dtype=np.float32), out)


@given(st.lists(st.sampled_from([0.0, 0.0, 0.5, 1.0, 2.75, 1e-300, 1e300, -0.0, 3.0]),
                min_size=1, max_size=9),
       st.integers(1, 7), st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None)
def test_soft_scores_is_soft_score_of_each_row_bit_for_bit(alphas, rows, seed):
    # the weak members' minibatch soft scores (0.8.51): numpy's running sums against the
    # loop one row at a time, with alphas of 0 that skip a NaN, signed zeros and every alpha 0
    from streamboost.members.base import soft_score, soft_scores

    rng = np.random.default_rng(seed)
    p = rng.choice([0.0, -0.0, 0.5, 1.0, 1e-310, rng.uniform()], size=(rows, len(alphas)))
    p[:, [a == 0.0 for a in alphas]] = np.nan  # what a member of alpha 0 says is never read
    fast = soft_scores(alphas, p)
    slow = np.array([soft_score(alphas, row) for row in p.tolist()])
    assert fast.tobytes() == slow.tobytes()


@needs_kernels
@pytest.mark.parametrize("kind", [DecisionStump, UnivariateLogisticRegression])
def test_weak_boosters_minibatch_soft_scores_are_the_same_with_and_without_kernels(kind):
    # end to end (0.8.51): 100 weak members' soft scores of each frame, predicted then learned,
    # with `weak_sigmoids` and numpy's running sums against the Python loops they replace
    from streamboost.members import base, weak
    from streamboost.weak import univariate

    rows = phishing(1_200)
    X = pd.DataFrame([x for x, _ in rows])
    y = pd.Series([t for _, t in rows])

    def loop(alphas, probabilities):
        return np.array([base.soft_score(alphas, row) for row in probabilities.tolist()])

    results = []
    for patches in ((), ((univariate, "_SIGMOIDS", None), (weak, "soft_scores", loop))):
        with contextlib.ExitStack() as stack:
            for target, name, value in patches:
                stack.enter_context(mock.patch.object(target, name, value))
            model = OzaBoostClassifier(kind(), n_models=100, seed=7, score="soft")
            scores = []
            for start in range(0, len(X), 100):
                frame = X.iloc[start:start + 100]
                scores.extend(model.score_many(frame).tolist())
                model.learn_many(frame, y.iloc[start:start + 100])
            results.append(np.array(scores))
    assert results[0].tobytes() == results[1].tobytes()
    assert len(np.unique(results[0])) > 100  # scores that differ, not a constant


def test_the_soft_score_kernels_refuse_mismatched_arguments():
    if COMPILED is None:
        pytest.skip("the C kernels are not built")
    with pytest.raises(TypeError, match="values must be a list of 2 items"):
        COMPILED.soft_score([1.0, 2.0], [0.5], False)
    with pytest.raises(TypeError, match="alphas must be a list"):
        COMPILED.soft_score((1.0,), [0.5], False)
    table, weights, out = np.ones((2, 3)), np.zeros((4, 3)), np.empty(2)
    with pytest.raises(TypeError, match="alphas must be a list of 4 items"):
        COMPILED.linear_soft_scores(table, weights, [1.0], out)
    with pytest.raises(TypeError, match="weights must be a float64 array of 2 dims"):
        COMPILED.linear_soft_scores(table, np.zeros((4, 2)), [1.0] * 4, out)
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd'"):
        COMPILED.linear_soft_scores(table, weights, [1.0] * 4, np.empty(3))


@needs_kernels
def test_a_soft_boosters_scores_and_rounds_are_the_same_with_and_without_its_kernels():
    # end to end on a real stream: one example and a frame at a time, a bandit's rounds (its
    # frozen copies score each round's table) and every prediction, equal to the last bit
    rows = phishing(1_500)
    xs = pd.DataFrame([x for x, _ in rows[1_000:]])
    results = []
    for patch in (contextlib.nullcontext, python_soft_scores):
        with patch():
            model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=6, seed=4,
                                       score="soft")
            scores = []
            for x, y in rows[:1_000]:
                scores.append(model.score_one(x))
                model.learn_one(x, y)
            frame = model.score_many(xs)
            assert frame.tolist() == [model.score_one(x) for x in xs.to_dict("records")]
            results.append((scores, frame.tolist(), replay_bandit(
                rows, {"n_models": 6, "seed": 4, "score": "soft"}, "rewards", seed=4)))
    assert results[0] == results[1]
    assert sum(rewards is not None for _, rewards in results[0][2][1]) > 50


def replay_bandit(rows: list, booster: dict, field: str, **params) -> tuple[list, list]:
    """Every prediction of discounted UCB over boosted logistic regressions (`booster`'s
    parameters) on `rows`, and each minibatch's (arm, `field` of its trace)."""
    from streamboost import BanditCalibratedClassifier

    model = BanditCalibratedClassifier(
        model=OzaBoostClassifier(linear_model.LogisticRegression(), **booster),
        policy="discounted-ucb", batch_size=16, trace_size=200, **params)
    predictions = []
    for x, y in rows:
        predictions.append(model.predict_proba_one(x))
        model.learn_one(x, y)
    return predictions, [(r["arm"], r[field]) for r in model.trace]


@needs_kernels
@pytest.mark.parametrize("score", ["vote", "logistic"])
@pytest.mark.parametrize("rollback", ["copy", "defer"])
def test_a_bandits_rounds_are_the_same_with_and_without_vote_scores(score, rollback):
    # end to end: every reward a bandit over boosted logistic regressions measures (its frozen
    # copies score each round's table), and every prediction, equal to the last bit both ways
    rows = phishing(1_500)
    results = []
    for vote_scores in (COMPILED.vote_scores, None):
        with mock.patch("streamboost.members.linear._VOTE_SCORES", vote_scores):
            results.append(replay_bandit(rows, {"n_models": 6, "seed": 4, "score": score},
                                         "rewards", rollback=rollback, seed=4))
    (fast, fast_trace), (slow, slow_trace) = results
    assert fast == slow
    assert fast_trace == slow_trace
    assert sum(rewards is not None for _, rewards in fast_trace) > 50  # rounds were scored


# ---------------------------------------------------------------- the other calibrators

@contextlib.contextmanager
def python_calibrators():
    """Every calibrator kernel replaced by its Python twin (the dispatchers are bound at
    import, so the names themselves are patched)."""
    from streamboost.calibration import base, beta, ewa, histogram, isotonic, platt

    with (
        mock.patch.multiple(platt, _LEARN=platt.platt_learn,
                            _LEARN_MANY=platt.platt_learn_many, _PREDICT=platt.platt_predict,
                            _PREDICT_MANY=platt.platt_predict_many,
                            _PREDICT_PAIR=platt.platt_predict_pair),
        mock.patch.multiple(beta, _LEARN=beta.beta_learn, _LEARN_MANY=beta.beta_learn_many,
                            _PREDICT=beta.beta_predict, _PREDICT_MANY=beta.beta_predict_many),
        mock.patch.multiple(base, _UPDATE=base.pav_update, _SHARE=base.share_attributes),
        mock.patch.multiple(histogram, _update=base.pav_update, _POOL=histogram.histogram_pool,
                            _PREDICT=histogram.histogram_predict,
                            _PREDICT_MANY=histogram.histogram_predict_many),
        mock.patch.multiple(isotonic, _PREDICT=isotonic.isotonic_predict,
                            _PREDICT_MANY=isotonic.isotonic_predict_many),
        mock.patch.multiple(ewa, _LEARN=ewa.ewa_learn, _PREDICT=ewa.ewa_predict),
    ):
        yield


def calibrator_pairs(seed: int) -> list[tuple[float, bool]]:
    """Labels with, then against the scores (a decreasing map, which beta refuses), the
    clipped ends and exact 0 and 1, a stretch of one class, then the scores of a model
    learning phishing (a real stream)."""
    rng = random.Random(seed)
    pairs = [(s, rng.random() < s) for s in (rng.random() for _ in range(50))]
    pairs += [(s, rng.random() > s) for s in (rng.random() for _ in range(1_000))]
    pairs += [(rng.choice([0.0, 1.0, 1e-9, 1 - 1e-9, 0.5, rng.random()]), rng.random() < 0.6)
              for _ in range(400)]
    pairs += [(rng.random(), True) for _ in range(200)]
    model = linear_model.LogisticRegression()
    for x, y in phishing(1_500):
        pairs.append((model.predict_proba_one(x).get(True, 0.5), bool(y)))
        model.learn_one(x, y)
    return pairs


CALIBRATOR_KERNEL_SETTINGS = [
    ("platt", {}),
    ("beta", {}),
    ("beta", {"forgetting": 0.99, "gamma": 0.5, "eps": 1e-6}),
    ("beta", {"radius": 1.5}),  # a small ball: the orthant's projection and the ball's scaling
    ("histogram", {}),
    ("histogram", {"n_bins": 3, "forgetting": 0.9, "prior": 0.0}),
    ("histogram", {"n_bins": 50, "forgetting": 0.999}),
    ("isotonic", {}),
    ("isotonic", {"prior": 0.0}),  # empty bins: the pooled positions skip them
    ("isotonic", {"forgetting": 0.99, "n_bins": 200}),
    ("ewa", {}),
    ("ewa", {"forgetting": 0.99, "share": 0.01, "learning_rate": 2.0}),
    ("ewa", {"calibrators": ("platt", "isotonic"), "share": 0.0}),
]


@needs_kernels
@pytest.mark.parametrize(("name", "params"), CALIBRATOR_KERNEL_SETTINGS)
def test_calibrators_with_kernels_are_their_python_twins_bit_for_bit(name, params):
    from streamboost.calibration import beta, make

    assert beta._LEARN is COMPILED.beta_learn  # the kernels are what runs by default
    pairs = calibrator_pairs(seed=len(params))

    def replay():
        cal = make(name, **params)
        predictions, states = [], set()
        for score, positive in pairs:
            predictions.append(cal.predict_one(score))
            cal.learn_one(score, positive)
            if name == "beta":  # which of a, b are 0, and whether (a, b, c) is on the ball
                a, b, c = cal.coefficients
                states.add((a == 0.0, b == 0.0, math.hypot(a, b, c) > 1.5 - 1e-9))
        grid = cal.predict_many(np.linspace(0.0, 1.0, 101)).tolist()
        return predictions, grid, calibrator_state(cal), states

    compiled = replay()
    with python_calibrators():
        twins = replay()
    assert compiled[:3] == twins[:3]  # every prediction and the whole state, bit for bit
    if params.get("radius") == 1.5:  # a or b projected onto 0, and steps scaled onto the ball
        assert {a or b for a, b, _ in compiled[3]} == {True, False}
        assert {ball for _, _, ball in compiled[3]} == {True, False}


def _left_to_right(values: list[float]) -> float:
    """Floats added one by one (Python 3.12's sum() compensates its rounding, 3.11's does
    not)."""
    total = 0.0
    for v in values:
        total += v
    return total


@needs_kernels
def test_ewa_sums_its_weights_as_math_fsum_does():
    from streamboost.calibration.ewa import ewa_learn

    # weights 1 and three of 1.1e-16: a left-to-right sum rounds each away, fsum does not
    tiny = 1.1e-16
    gap = -math.log(tiny)
    raw = [1.0, tiny, tiny, tiny]
    assert _left_to_right(raw) != math.fsum(raw)  # so the test tells the two sums apart
    results = []
    for learn in (COMPILED.ewa_learn, ewa_learn):
        losses, weights = [0.0, gap, gap, gap], [0.25] * 4
        learn(losses, weights, [0.5] * 4, True, 1.0, 1.0, None)
        results.append((losses, weights))
    assert results[0] == results[1]
    rng = random.Random(3)
    for _ in range(2_000):  # members from 1 to 40 (past the kernel's stack arrays)
        k = rng.randint(1, 40)
        losses = [rng.choice([0.0, rng.expovariate(0.1), rng.uniform(0, 700)]) for _ in range(k)]
        predictions = [rng.choice([0.0, 1.0, 1e-310, rng.random()]) for _ in range(k)]
        args = (predictions, rng.random() < 0.5, rng.choice([1.0, 0.9]),
                rng.choice([1.0, 0.5, 3.0]), rng.choice([None, 0.01, 1.0 / rng.randint(2, 99)]))
        outs = []
        for learn in (COMPILED.ewa_learn, ewa_learn):
            state = (list(losses), [1.0 / k] * k)
            learn(*state, *args)
            outs.append(state)
        assert outs[0] == outs[1]
        assert all(math.isfinite(v) for v in outs[0][0] + outs[0][1])


@needs_kernels
def test_pav_update_is_blocks_update_bit_for_bit():
    from streamboost.calibration.base import Blocks, pav_update

    rng = random.Random(5)
    for _ in range(3_000):
        n = rng.randint(1, 80)
        values = [rng.random() for _ in range(n)]
        weights = [rng.uniform(0.5, 3.0) for _ in range(n)]
        blocks = Blocks([], [], [])
        blocks.extend(values, weights, 0)
        compiled = [blocks.starts.copy(), blocks.sums.copy(), blocks.weights.copy()]
        twin = [blocks.starts.copy(), blocks.sums.copy(), blocks.weights.copy()]
        for _ in range(6):  # a value up, down or nudged, a weight grown: pools and splits
            position = rng.randrange(n)
            values[position] = rng.choice([rng.random(), values[position] + 1e-3, 0.0, 1.0])
            weights[position] += rng.random()
            COMPILED.pav_update(*compiled, position, values, weights)
            pav_update(*twin, position, values, weights)
            assert compiled == twin
        # and the blocks are the fit from scratch's (PAV's answer does not depend on the path)
        fresh = Blocks([], [], [])
        fresh.extend(values, weights, 0)
        assert compiled[0] == fresh.starts
        assert np.allclose(Blocks(*compiled).expand(n), fresh.expand(n), rtol=1e-12)


@needs_kernels
def test_the_calibrator_kernels_refuse_a_malformed_state():
    from streamboost.calibration import OnlineBetaCalibrator

    cal = OnlineBetaCalibrator()
    with pytest.raises(TypeError, match="theta must be a tuple of 3 items"):
        COMPILED.beta_learn([1.0, 1.0, 0.0], cal._c, cal._consts, 0.5, True)
    with pytest.raises(TypeError, match="curvature must be a list of 6 items"):
        COMPILED.beta_learn(cal._theta, cal._c[:5], cal._consts, 0.5, True)
    with pytest.raises(TypeError, match="consts must be a tuple of 5 items"):
        COMPILED.beta_predict(cal._theta, cal._consts[:4], 0.5)
    with pytest.raises(TypeError, match="sums must be a list of 2 items"):
        COMPILED.pav_update([0, 1], [0.5], [1.0, 1.0], 0, [0.5, 0.5], [1.0, 1.0])
    with pytest.raises(ValueError, match="the blocks do not cover the values"):
        COMPILED.pav_update([0, 5], [0.5, 0.5], [1.0, 1.0], 0, [0.5, 0.5], [1.0, 1.0])
    with pytest.raises(TypeError, match="counts must be a list of 2 items"):
        COMPILED.histogram_pool([0.0], [0.0, 0.0], [0.0, 0.0], [0.25, 0.75], 1.0, 1.0)
    with pytest.raises(TypeError, match="used a list or None"):
        COMPILED.histogram_predict([0], [0.5], [1.0], (0,), 1, 0.5)
    with pytest.raises(ValueError, match="no block holds the position"):
        COMPILED.histogram_predict([0], [], [], None, 1, 0.5)
    scores, out = np.array([0.5, 0.7]), np.empty(2)
    with pytest.raises(TypeError, match="out must be a 1-d array of format 'd'"):
        COMPILED.histogram_predict_many([0], [0.5], [1.0], None, 1, scores, np.empty(3))
    with pytest.raises(TypeError, match="scores must be a 1-d array of format 'd'"):
        COMPILED.isotonic_predict_many([0], [0.5], [1.0], [0.5], scores.astype(int), out)
    with pytest.raises(TypeError, match="means must be lists, means non-empty"):
        COMPILED.isotonic_predict([0], [0.5], [1.0], [], 0.5)
    with pytest.raises(TypeError, match="predictions must be a list of 2 items"):
        COMPILED.ewa_learn([0.0, 0.0], [0.5, 0.5], [0.5], True, 1.0, 1.0, None)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        COMPILED.ewa_predict([0.5])
    assert cal._c == [0.0] * 6 and cal._theta == (1.0, 1.0, 0.0)  # nothing changed


# ---------------------------------------------------------------- the reward's losses

@needs_kernels
def test_loss_means_are_the_python_twins_bit_for_bit():
    from streamboost.reward import loss_means

    rng = random.Random(11)
    for _ in range(1_000):  # rounds of 1 to 130 examples, 1 to 6 (calibrator, model) pairs
        n, rows = rng.randint(1, 130), rng.randint(1, 6)
        p = np.array([[rng.choice([0.0, 1.0, 1e-17, 1 - 1e-16, 0.5, rng.random()])
                       for _ in range(n)] for _ in range(rows)])
        positives = [rng.random() < 0.4 for _ in range(n)]
        thresholds = [rng.choice([0.5, rng.random()]) for _ in range(n)]
        for loss in range(3):
            t = thresholds if loss == 2 else None
            assert COMPILED.loss_means(loss, p, positives, t) == loss_means(loss, p, positives, t)
            assert COMPILED.loss_means(loss, p[::-1, ::2], positives[::2], t and t[::2]) == (
                loss_means(loss, p[::-1, ::2], positives[::2], t and t[::2]))  # strided
    # the realised cost without thresholds: the same error from both
    for means in (COMPILED.loss_means, loss_means):
        with pytest.raises(TypeError, match="thresholds must be a list of 2 items"):
            means(2, np.array([[0.2, 0.7]]), [True, False], None)


@needs_kernels
def test_loss_means_sum_as_math_fsum_does():
    from streamboost.reward import loss_means

    # squared errors 1 and three of 1.1e-16: a left-to-right sum rounds each away, fsum does not
    p = np.array([[1.0, *[math.sqrt(1.1e-16)] * 3]])
    squares = [1.0, *[v * v for v in p[0, 1:].tolist()]]
    assert _left_to_right(squares) != math.fsum(squares) and np.sum(squares) != math.fsum(squares)
    positives = [False] * 4
    expected = [math.fsum(squares) / 4]
    assert COMPILED.loss_means(1, p, positives, None) == loss_means(1, p, positives, None) == (
        expected)


@needs_kernels
def test_loss_means_refuses_malformed_arguments():
    p, positives = np.array([[0.5, 0.7]]), [True, False]
    with pytest.raises(ValueError, match="loss must be 0, 1 or 2, got 3"):
        COMPILED.loss_means(3, p, positives, None)
    with pytest.raises(TypeError, match="probabilities must be a float64 array of 2 dims"):
        COMPILED.loss_means(0, p[0], positives, None)
    with pytest.raises(ValueError, match="probabilities must have a column"):
        COMPILED.loss_means(0, np.empty((2, 0)), [], None)
    with pytest.raises(TypeError, match="positives must be a list of 2 items"):
        COMPILED.loss_means(0, p, positives[:1], None)
    with pytest.raises(TypeError, match="thresholds must be a list of 2 items"):
        COMPILED.loss_means(2, p, positives, None)


@needs_kernels
@pytest.mark.parametrize("reward", ["log-likelihood", "brier", "expected-cost"])
def test_a_bandits_rounds_are_the_same_with_the_reward_kernels_and_their_twins(reward):
    # end to end: every reward of a bandit whose calibrator is Platt (the pair's map of the
    # round's scores) and every prediction, equal to the last bit with the kernels and without
    from streamboost import reward as reward_module

    rows = phishing(1_500)

    def replay():
        return replay_bandit(rows, {"n_models": 4, "seed": 2}, "improvements", reward=reward,
                             c_fn=3.0, seed=2)

    compiled = replay()
    with python_calibrators(), mock.patch.object(reward_module, "_MEAN_LOSSES",
                                                 reward_module.loss_means):
        twins = replay()
    assert compiled == twins
    assert sum(improvements is not None for _, improvements in compiled[1]) > 50


@needs_kernels
def test_share_attributes_is_the_python_loop_and_keeps_attributes_inline():
    import gc

    from streamboost.calibration import make
    from streamboost.calibration.base import share_attributes

    for name in ("platt", "ewa"):
        cal = make(name)
        cal.learn_many([0.2, 0.9, 0.6], [False, True, True])
        names = cal._ATTRIBUTES
        copies = [object.__new__(type(cal)) for _ in range(2)]
        COMPILED.share_attributes(cal, copies[0], names)
        share_attributes(cal, copies[1], names)
        for copy in copies:  # the same objects, by name; no __dict__ made on either side
            assert all(getattr(copy, n) is getattr(cal, n) for n in names)
            assert not any(isinstance(r, dict) and "_n_seen" in r
                           for obj in (cal, copy) for r in gc.get_referents(obj))
    target = object.__new__(type(cal))
    with pytest.raises(TypeError, match="names must be a tuple of str"):
        COMPILED.share_attributes(cal, target, list(names))
    with pytest.raises(TypeError, match="names must be a tuple of str"):
        COMPILED.share_attributes(cal, target, ("_n_seen", 3))
    with pytest.raises(AttributeError, match="no_such"):
        COMPILED.share_attributes(cal, target, ("no_such",))


class _Holder:
    __slots__ = ("array", "items", "number", "ordered", "sublist", "table", "text", "view")


class _List(list):
    pass


@needs_kernels
def test_copy_attributes_copies_one_level_as_the_python_loop_does():
    import collections

    from streamboost.state import copy_attributes, one_level

    source = _Holder()
    source.array, source.items, source.table = np.arange(4.0), [1.0, [2.0]], {"a": [1.0]}
    source.ordered = collections.OrderedDict(b=2.0)
    source.sublist, source.view, source.number = _List([3.0]), np.zeros((3, 3))[:, :2], 5.0
    source.text = "kept"
    names = _Holder.__slots__
    copies = [_Holder(), _Holder()]
    COMPILED.copy_attributes(source, copies[0], names)
    copy_attributes(source, copies[1], names)
    for copy in copies:
        for name in names:
            value, copied = getattr(source, name), getattr(copy, name)
            expected = one_level(value)
            assert type(copied) is type(expected), name  # OrderedDict stays one; _List: list
            if isinstance(value, np.ndarray):
                assert np.array_equal(copied, value) and copied.flags.c_contiguous
                assert not np.shares_memory(copied, value)
            else:
                assert copied == value, name
            # containers are new, one level deep; numbers and strings are shared
            assert (copied is value) == (name in ("number", "text")), name
        assert copy.items[1] is source.items[1] and copy.table["a"] is source.table["a"]
    target = _Holder()
    with pytest.raises(TypeError, match="names must be a tuple of str"):
        COMPILED.copy_attributes(source, target, list(names))
    with pytest.raises(TypeError, match="names must be a tuple of str"):
        COMPILED.copy_attributes(source, target, ("array", 3))
    with pytest.raises(AttributeError, match="no_such"):
        COMPILED.copy_attributes(source, target, ("items", "no_such"))
    assert target.items == source.items  # set in order until the missing one


def test_a_frozen_copy_of_linear_members_is_independent_and_scores_alike():
    # ArrayMembers.copy (the kernel or its twin): the copy's columns and weights are its own
    from streamboost.members import base
    from streamboost.state import copy_attributes

    rows = phishing(300)
    model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=1)
    for x, y in rows[:200]:
        model.learn_one(x, y)
    held = model._members
    xs = [x for x, _ in rows[200:]]
    kernels = [copy_attributes] + ([COMPILED.copy_attributes] if COMPILED else [])
    for kernel in kernels:
        with mock.patch.object(base, "_COPY", kernel):
            copy = held.copy()
        assert copy._x is None and copy._keys == held._keys
        table = held.rows(xs)
        assert np.array_equal(copy.rows(xs), table)
        assert np.array_equal(copy.batch_votes(table), held.batch_votes(table))
        assert copy._keys is not held._keys and copy._columns is not held._columns
        assert not np.shares_memory(copy.weights, held.weights)
        before = held.weights.copy()
        copy.weights += 1.0
        copy._add_column("new")
        assert np.array_equal(held.weights, before) and "new" not in held._columns


@needs_kernels
def test_ewa_predict_adds_in_the_kernels_order_whatever_sum_does(monkeypatch):
    # Python 3.12's sum() of floats compensates its rounding, 3.11's does not: a twin written
    # with sum() matched its kernel on 3.11 and not on 3.13 (EWA's prediction, last bit).
    # Here sum() is made to round as 3.12's does, on any Python.
    import builtins

    from streamboost.calibration import ewa

    monkeypatch.setattr(builtins, "sum", lambda values, start=0: start + math.fsum(values))
    rng = random.Random(0)
    differs = 0
    for _ in range(300):
        k = rng.randint(2, 12)
        raw = [rng.random() for _ in range(k)]
        weights = [w / math.fsum(raw) for w in raw]
        predictions = [rng.random() for _ in range(k)]
        naive = 0.0
        for w, q in zip(weights, predictions, strict=True):
            naive += w * q
        differs += naive != math.fsum(w * q for w, q in zip(weights, predictions, strict=True))
        assert ewa.ewa_predict(weights, predictions) == COMPILED.ewa_predict(weights, predictions)
    assert differs > 10  # rounding that the two sums settle differently was met


@needs_kernels
@pytest.mark.parametrize("kind", [DecisionStump, UnivariateLogisticRegression])
def test_the_weak_loop_takes_a_weight_and_checks_its_exact_choice_before_any_change(kind):
    # since 0.8.46: a draw k learns with weight k w, and once a weight that is not a whole
    # number has made the scores rounded sums, the loop picks each member's candidate from the
    # scores themselves (the twin's exact choice): the same draws, votes and lambdas as the
    # Python loop, and a misshapen `right` raises before anything changes
    rows = phishing(400)
    runs = []
    for patch in (contextlib.nullcontext, lambda: mock.patch.object(kernels, "compiled", None)):
        with patch():
            booster = OzaBoostClassifier(kind(), n_models=20, seed=3)
            for i, (x, y) in enumerate(rows):
                booster.learn_one(x, y, w=(1.0, 1 / 3, 2.0, 0.5)[i % 4])
            runs.append((booster._lambda_sc, booster._lambda_sw, booster._members._score.tolist()))
    assert runs[0] == runs[1]
    held = booster._members
    assert not held._integral
    x, y = rows[0]
    before = held.begin(x, y, w=0.25)
    sc, sw, ks = list(booster._lambda_sc), list(booster._lambda_sw), list(held._ks)
    stump = kind is DecisionStump
    with pytest.raises(TypeError, match="right must be a bool array the shape of scores"):
        COMPILED.oza_weak(stump, before, y, sc, sw, ks, random.Random(0), KNUTH_MAX_RATE,
                          held._switch, *held._best, held._xs, held._params_x,
                          None if stump else held._gradients, 0.0 if stump else held._model.lr,
                          0.25, held._scores_x, held._right[:, 1:])
    assert (sc, sw, ks) == (booster._lambda_sc, booster._lambda_sw, held._ks)
