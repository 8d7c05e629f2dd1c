"""Tests of streamboost.scores: the model's P(positive) and frozen snapshots."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from river import compose, datasets, ensemble, forest, linear_model, optim, preprocessing, tree

from streamboost import OzaBoostClassifier, scores
from streamboost.scores import (
    FrozenLogistic,
    FrozenScorer,
    ScalerMap,
    positive_score,
    snapshot,
)
from streamboost.weak import DecisionStump, UnivariateLogisticRegression

ROWS = list(datasets.Phishing()) * 3  # 3,750 examples


@pytest.mark.parametrize("score", ["vote", "logistic"])
@pytest.mark.parametrize("weak_rule", ["stop", "skip"])
def test_a_snapshot_scores_as_the_booster_did(score, weak_rule):
    booster = OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=10, score=score, weak_rule=weak_rule, seed=3
    )
    checked = 0
    for i, (x, y) in enumerate(ROWS[:3000]):
        if i % 500 == 0:
            later = ROWS[i : i + 1000]
            frozen = snapshot(booster)
            assert [frozen.score_one(z) for z, _ in later] == [
                booster.score_one(z) for z, _ in later
            ]
            checked += len(later)
        booster.learn_one(x, y)
    assert checked == 6000


def test_snapshot_copies_any_model():
    for model in (
        OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=0),
        OzaBoostClassifier(tree.HoeffdingTreeClassifier(), n_models=2, seed=0),
        OzaBoostClassifier(linear_model.LogisticRegression(loss=optim.losses.Hinge()), seed=0),
        linear_model.LogisticRegression(),
    ):
        copy = snapshot(model)
        assert type(copy) is type(model) and copy is not model


def test_a_snapshot_lends_its_random_generators_and_scores_alike():
    # River's Gaussian estimators (a tree's numeric splitters) each hold a random.Random that
    # only `sample` uses: the copy shares the live model's instead of copying 2.5 KB of state
    model = tree.HoeffdingTreeClassifier(grace_period=50)
    for x, y in ROWS[:1500]:
        model.learn_one(x, y)
    generators = [g for g in _objects(model) if type(g) is random.Random]
    states = [g.getstate() for g in generators]
    copy = snapshot(model)
    copied = [g for g in _objects(copy) if type(g) is random.Random]
    assert model.n_leaves > 1 and len(generators) > 10
    assert {id(g) for g in copied} == {id(g) for g in generators}
    assert [g.getstate() for g in generators] == states  # lent, not drawn from
    assert [g for g in _objects(model) if type(g) is random.Random] == generators
    xs = [x for x, _ in ROWS[1500:1700]]
    assert [copy.predict_proba_one(x) for x in xs] == [model.predict_proba_one(x) for x in xs]
    assert not snapshot.__globals__["_LENT"]  # nothing is kept once the copy is made


@pytest.mark.parametrize("make", [
    lambda: forest.ARFClassifier(n_models=3, seed=7),
    lambda: OzaBoostClassifier(tree.HoeffdingTreeClassifier(), n_models=3, seed=7),
], ids=["arf", "oza-ht"])
def test_the_live_model_learns_on_with_the_copys_objects_as_if_never_copied(make):
    # ARF and the booster draw random numbers to learn: a trade that restarted or swapped a
    # generator, or left the live model a mix of old and new objects, would change what it
    # predicts
    copied, alone = make(), make()
    frozen = []
    for i, (x, y) in enumerate(ROWS[:2000]):
        if i % 250 == 100:
            before = copied.data
            later = [x for x, _ in ROWS[i : i + 50]]
            frozen.append((snapshot(copied), later, [copied.predict_proba_one(x) for x in later]))
            assert copied.data is not before and frozen[-1][0].data is before  # traded
        assert copied.predict_proba_one(x) == alone.predict_proba_one(x)
        copied.learn_one(x, y)
        alone.learn_one(x, y)
    for copy, later, then in frozen:  # each copy still scores as the model did when taken
        assert [copy.predict_proba_one(x) for x in later] == then
        assert then != [copied.predict_proba_one(x) for x in later]


def test_a_pipelines_steps_stay_the_users_objects():
    scaler, model = preprocessing.StandardScaler(), tree.HoeffdingTreeClassifier(grace_period=20)
    pipeline = scaler | model
    for x, y in ROWS[:300]:
        pipeline.learn_one(x, y)
    root = model._root
    frozen = snapshot(pipeline)
    assert list(pipeline.steps.values()) == [scaler, model] and model._root is not root
    assert frozen["HoeffdingTreeClassifier"]._root is root
    assert frozen["HoeffdingTreeClassifier"] is not model
    for x, y in ROWS[300:600]:
        pipeline.learn_one(x, y)
    assert model.n_leaves > 1 and model._root is not root  # the user's tree learned on
    assert scaler.counts == pipeline["StandardScaler"].counts
    assert frozen["StandardScaler"].counts != scaler.counts


class _Remembers(linear_model.LogisticRegression):
    """A model that holds a reference to itself, or to another step of its pipeline."""


class _Forgets(linear_model.LogisticRegression):
    """A model whose pickle leaves out an attribute."""

    def __getstate__(self):
        return {k: v for k, v in vars(self).items() if k != "_y_name"}


def test_nothing_is_traded_where_a_part_refers_to_a_part():
    itself, other, forgets = _Remembers(), _Remembers(), _Forgets()
    itself.me = itself
    pipeline = preprocessing.StandardScaler() | other
    other.scaler = pipeline["StandardScaler"]
    for model in (itself, pipeline, forgets):
        model.learn_one({"a": 1.0}, True)
        weights = [part._weights for part in _parts(model) if hasattr(part, "_weights")]
        frozen = snapshot(model)
        assert [part._weights for part in _parts(model) if hasattr(part, "_weights")] == weights
        assert all(w is v for w, v in zip(weights, [
            part._weights for part in _parts(model) if hasattr(part, "_weights")], strict=True))
        model.learn_one({"a": 1.0}, False)  # the copy is still independent
        assert frozen.predict_proba_one({"a": 1.0}) != model.predict_proba_one({"a": 1.0})
    assert itself.me is itself and other.scaler is pipeline["StandardScaler"]


def test_a_pipeline_with_a_union_learns_on_as_one_never_copied(tmp_path):
    # River 0.26's pipeline caches a plan that refers to a union's own pipelines: once a
    # snapshot or a checkpoint traded the union's state, the live pipeline learned into the
    # copy's scaler and scored with its own, which stood still
    from streamboost import CalibratedClassifier, checkpoint

    def make():
        return ((compose.Select("c") | preprocessing.OneHotEncoder())
                + (compose.Select("a") | preprocessing.StandardScaler())
                | linear_model.LogisticRegression())

    rng = random.Random(0)
    rows = [({"a": rng.gauss(0, 1), "c": rng.choice("xyz")}, rng.random() < 0.5)
            for _ in range(400)]
    for copy in (snapshot, lambda m: checkpoint.load(checkpoint.save(m, tmp_path / "m.ckpt"))):
        for wrap in (lambda m: m, CalibratedClassifier):
            model, reference = wrap(make()), wrap(make())
            for x, y in rows[:200]:
                model.learn_one(x, y)
                reference.learn_one(x, y)
            frozen = copy(model)
            at_copy = [reference.predict_proba_one(x) for x, _ in rows]
            for x, y in rows[200:]:
                model.learn_one(x, y)
                reference.learn_one(x, y)
            assert [model.predict_proba_one(x) for x, _ in rows] == [
                reference.predict_proba_one(x) for x, _ in rows]
            if copy is snapshot:
                assert [frozen.predict_proba_one(x) for x, _ in rows] == at_copy


def _parts(model) -> list:
    return list(model.steps.values()) if hasattr(model, "steps") else [model]


def _objects(root) -> list:
    """Every object reachable from `root` through attributes, dicts, lists and tuples."""
    seen, stack, found = set(), [root], []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, type(None))):
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            stack.extend(obj)
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            stack.extend(vars(obj).values())
    return found


def test_a_frozen_copy_does_not_follow_the_booster():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=1)
    for x, y in ROWS[:200]:
        booster.learn_one(x, y)
    frozen = snapshot(booster)
    before = [frozen.score_one(x) for x, _ in ROWS[200:400]]
    for x, y in ROWS[200:1200]:
        booster.learn_one(x, y)
    assert [frozen.score_one(x) for x, _ in ROWS[200:400]] == before
    assert [positive_score(booster, x, True) for x, _ in ROWS[200:400]] != before
    untrained = snapshot(OzaBoostClassifier(linear_model.LogisticRegression()))
    assert untrained.score_one({"a": 1.0}) == 0.5


MEMBERS = {
    "linear": linear_model.LogisticRegression(),
    "univariate": UnivariateLogisticRegression(),
    "stump": DecisionStump(),
}


@pytest.mark.parametrize("score", ["vote", "logistic"])
@pytest.mark.parametrize("kind", sorted(MEMBERS))
def test_a_frozen_scorer_scores_as_a_snapshot_and_ignores_later_learning(kind, score):
    booster = OzaBoostClassifier(MEMBERS[kind], n_models=8, score=score, seed=5)
    for x, y in ROWS[:600]:
        booster.learn_one(x, y)
    frozen, pickled = FrozenScorer(booster, True), snapshot(booster)
    # every array engine has a minibatch path: copied as arrays, not pickled
    assert frozen.model is None
    assert booster._members.minibatch
    river_members = OzaBoostClassifier(MEMBERS[kind], n_models=8, engine="reference")
    assert FrozenScorer(river_members, True).model is not None
    later = [x for x, _ in ROWS[600:1100]]
    expected = [positive_score(pickled, x, True) for x in later]
    for x, y in ROWS[600:1600]:
        booster.learn_one(x, y)
    assert frozen.scores(later).tolist() == pytest.approx(expected, rel=1e-12, abs=1e-12)
    # a later copy lends its matrix: the same scores as building it again
    newer = FrozenScorer(booster, True)
    newer.scores(later)
    assert frozen.scores(later, like=newer).tolist() == frozen.scores(list(later)).tolist()
    assert newer.scores(later).tolist() != frozen.scores(later).tolist()


def test_a_frozen_scorer_of_a_features_subset_borrows_only_its_columns():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    for i in range(50):
        booster.learn_one({"a": i % 3 - 1.0}, i % 2 == 0)
    old = FrozenScorer(booster, True)
    old_copy = snapshot(booster)
    for i in range(50):
        booster.learn_one({"a": 1.0, "b": i % 5 - 2.0}, i % 3 == 0)
    new = FrozenScorer(booster, True)
    xs = [{"a": 1.0, "b": 2.0}, {"a": -1.0, "b": -2.0}]
    new.scores(xs)
    assert old.scores(xs, like=new).tolist() == pytest.approx(
        [old_copy.score_one(x) for x in xs], abs=1e-12)


def test_a_frozen_scorer_of_any_other_model_is_a_snapshot():
    model = preprocessing.MinMaxScaler() | linear_model.LogisticRegression()
    for x, y in ROWS[:300]:
        model.learn_one(x, y)
    frozen = FrozenScorer(model, True)
    xs = [x for x, _ in ROWS[300:400]]
    expected = [positive_score(model, x, True) for x in xs]
    for x, y in ROWS[300:600]:
        model.learn_one(x, y)
    assert frozen.model is not None and frozen._linear is None
    assert frozen.scores(xs).tolist() == expected


@pytest.mark.parametrize(("params", "cut_offs"), [
    ({"optimizer": optim.SGD(0.01)}, False),
    # rate 50: logits far beyond River's cut-offs at +/-30, where its sigmoid is exactly 0 or 1
    ({"optimizer": optim.SGD(50.0)}, True),
    # `supports` takes any optimiser and penalty: only the weights and intercept are read
    ({"optimizer": optim.Adam()}, False),
    ({"l1": 0.01}, False),
    ({"l2": 0.01, "optimizer": optim.AdaGrad()}, False),
])
def test_a_frozen_logistic_regression_scores_as_the_model_did(params, cut_offs):
    model = linear_model.LogisticRegression(**params)
    checked = cut = 0
    for i, (x, y) in enumerate(ROWS[:3000]):
        if i % 500 == 0:
            frozen = FrozenScorer(model, True)
            assert frozen.model is None and isinstance(frozen._linear, FrozenLogistic)
            later = [z for z, _ in ROWS[i : i + 300]]
            expected = [positive_score(model, z, True) for z in later]
            got = frozen.scores(later).tolist()
            assert got == pytest.approx(expected, rel=0.0, abs=1e-12)
            assert [g for g, e in zip(got, expected, strict=True) if e in (0.0, 1.0)] == [
                e for e in expected if e in (0.0, 1.0)]
            checked += len(later)
            cut += sum(e in (0.0, 1.0) for e in expected)
        model.learn_one(x, y)
    assert checked == 1800 and (cut > 500 if cut_offs else cut == 0)


@pytest.mark.parametrize("with_std", [True, False])
def test_a_frozen_scaled_logistic_regression_scores_as_the_pipeline_did(with_std):
    # phishing's features, and a constant one (variance 0: River's scaler maps it to 0) that
    # some rows lack (a feature absent is absent after the scaler too)
    rows = [({**x, "constant": 2.0} if i % 3 else x, y) for i, (x, y) in enumerate(ROWS[:3000])]
    model = preprocessing.StandardScaler(with_std=with_std) | linear_model.LogisticRegression()
    checked = 0
    for i, (x, y) in enumerate(rows):
        if i % 500 == 0:
            frozen = FrozenScorer(model, True)
            assert frozen.model is None and frozen._linear.scaler is not None
            assert (frozen._linear.scaler.scale is not None) == with_std
            later = [z for z, _ in rows[i : i + 300]]
            expected = [positive_score(model, z, True) for z in later]
            assert frozen.scores(later).tolist() == pytest.approx(expected, rel=0.0, abs=1e-12)
            checked += len(later)
        model.learn_one(x, y)
    assert checked == 1800
    scaler = model["StandardScaler"]
    assert scaler.means["constant"] == 2.0 and (not with_std or scaler.vars["constant"] == 0.0)


@pytest.mark.parametrize("with_std", [True, False])
@pytest.mark.parametrize("kind", sorted(MEMBERS))
def test_a_frozen_scaled_booster_scores_as_the_pipeline_did(kind, with_std):
    # phishing with a constant feature (variance 0) that some rows lack, and a feature the
    # booster meets only after the copy (it counts nothing to the copy)
    rows = [({**x, "constant": 2.0} if i % 3 else x, y) for i, (x, y) in enumerate(ROWS[:1600])]
    model = preprocessing.StandardScaler(with_std=with_std) | OzaBoostClassifier(
        MEMBERS[kind], n_models=8, seed=5)
    for x, y in rows[:600]:
        model.learn_one(x, y)
    frozen = FrozenScorer(model, True)
    assert frozen.model is None and frozen._scaler is not None
    later = [x for x, _ in rows[600:1100]] + [{**rows[0][0], "new": 3.0}]
    expected = [positive_score(model, x, True) for x in later]
    for x, y in rows[600:1600]:
        model.learn_one({**x, "new": 1.0} if y else x, y)
    assert frozen.scores(later).tolist() == pytest.approx(expected, rel=0.0, abs=1e-12)
    # a later copy lends its matrix (the examples as they are): the same scores
    newer = FrozenScorer(model, True)
    newer.scores(later)
    kept = newer._table[1].copy()
    assert frozen.scores(later, like=newer).tolist() == frozen.scores(list(later)).tolist()
    assert np.array_equal(newer._table[1], kept, equal_nan=True)  # not mapped in place
    assert newer.scores(later).tolist() != frozen.scores(later).tolist()
    held = frozen._members  # a booster's frame has no NaN marks: a scaled copy takes none
    frozen.lend(later, np.zeros((len(later), len(held._keys) + (held.lead is not None))))
    assert frozen.scores(later).tolist() == pytest.approx(expected, rel=0.0, abs=1e-12)


def test_only_a_pipeline_of_one_plain_scaler_and_a_model_is_frozen_with_it():
    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
    for steps, frozen in [
        ((preprocessing.StandardScaler(), booster), True),
        ((booster,), True),
        ((preprocessing.StandardScaler(window_size=5), booster), False),
        ((preprocessing.MinMaxScaler(), booster), False),
        ((preprocessing.StandardScaler(), preprocessing.StandardScaler(), booster), False),
    ]:
        model = compose.Pipeline(*steps)
        model.learn_one({"a": 1.0}, True)
        assert (FrozenScorer(model, True).model is None) == frozen


def test_a_frozen_scaled_logistic_regression_reads_any_dict_of_numbers_alike(monkeypatch):
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    for x, y in [({"a": 1.0, "b": 2.0, "c": 4.0}, True), ({"a": -1.0, "b": 0.5, "c": 4.0},
                                                           False)] * 30:
        model.learn_one(x, y)
    frozen = FrozenLogistic(model)
    xs = [
        {"a": 1.0, "b": 2.0, "c": 4.0},  # the usual row: the kernel's
        {"c": 1.0, "b": 2.0, "a": 1.0},  # other order; "c" has variance 0: mapped to 0
        {"a": 1, "b": True, "c": 4},  # ints and a bool
        {"a": 0.5},  # features missing: they count 0, not the scaler's map of 0
        {"a": 0.5, "b": 1.0, "c": 4.0, "d": 9.0},  # a feature without a weight: 0
        {},
    ]
    expected = [positive_score(model, x, True) for x in xs]
    # an absent feature is not a 0 that the scaler maps
    assert positive_score(model, {"a": 0.5, "b": 0.0, "c": 0.0}, True) != expected[3]
    assert frozen.scores(xs).tolist() == pytest.approx(expected, rel=0.0, abs=1e-15)
    monkeypatch.setattr(scores, "_FILL_ROWS", None)  # a module built without the kernel
    assert frozen.scores(xs).tolist() == pytest.approx(expected, rel=0.0, abs=1e-15)
    untrained = FrozenLogistic(preprocessing.StandardScaler() | linear_model.LogisticRegression())
    assert untrained.scores(xs).tolist() == [0.5] * len(xs)


def test_a_frozen_logistic_regression_reads_any_dict_of_numbers_alike(monkeypatch):
    model = linear_model.LogisticRegression()
    for x, y in [({"a": 1.0, "b": 2.0}, True), ({"a": -1.0, "b": 0.5}, False)] * 30:
        model.learn_one(x, y)
    frozen = FrozenLogistic(model)
    xs = [
        {"a": 1.0, "b": 2.0},  # the usual row: the kernel's
        {"b": 2.0, "a": 1.0},  # other order
        {"a": 1, "b": True},  # ints and a bool
        {"a": 0.5},  # a feature missing: 0
        {"a": 0.5, "b": 1.0, "c": 9.0},  # a feature without a weight: 0
        {},
    ]
    expected = [positive_score(model, x, True) for x in xs]
    assert frozen.scores(xs).tolist() == pytest.approx(expected, rel=0.0, abs=1e-15)
    monkeypatch.setattr(scores, "_FILL_ROWS", None)  # a module built without the kernel
    assert frozen.scores(xs).tolist() == pytest.approx(expected, rel=0.0, abs=1e-15)
    assert frozen.scores([]).tolist() == []
    untrained = FrozenLogistic(linear_model.LogisticRegression())
    assert untrained.scores(xs).tolist() == [0.5] * len(xs)


def test_only_a_plain_logistic_regression_scored_for_true_is_frozen_as_weights():
    def lr(**params):
        model = linear_model.LogisticRegression(**params)
        model.learn_one({"a": 1.0}, True)
        return model

    class Custom(linear_model.LogisticRegression):
        pass

    assert FrozenLogistic.supports(lr(optimizer=optim.Adam(), l2=0.1))
    assert FrozenLogistic.supports(lr(loss=optim.losses.Hinge()))  # its mean is the sigmoid too
    assert not FrozenLogistic.supports(lr(initializer=optim.initializers.Normal(seed=0)))
    assert not FrozenLogistic.supports(Custom())
    # after at most one standard scaler with a running (not a windowed) mean and variance
    assert FrozenLogistic.supports(preprocessing.StandardScaler() | lr())
    assert FrozenLogistic.supports(preprocessing.StandardScaler(with_std=False) | lr())
    assert FrozenLogistic.supports(compose.Pipeline(lr()))
    assert not FrozenLogistic.supports(preprocessing.StandardScaler(window_size=10) | lr())
    assert not FrozenLogistic.supports(preprocessing.MinMaxScaler() | lr())
    assert not FrozenLogistic.supports(
        preprocessing.StandardScaler() | preprocessing.StandardScaler() | lr())
    assert not FrozenLogistic.supports(preprocessing.StandardScaler() | Custom())
    assert not FrozenLogistic.supports(
        preprocessing.StandardScaler() | OzaBoostClassifier(lr(), n_models=2, seed=0))
    assert FrozenScorer(lr(), True)._linear is not None
    with pytest.raises(TypeError, match="got HoeffdingTreeClassifier"):
        FrozenLogistic(tree.HoeffdingTreeClassifier())
    with pytest.raises(TypeError, match="got Custom"):
        FrozenLogistic(Custom())
    assert FrozenScorer(lr(), "yes").model is not None  # a score of another label: a snapshot


def test_a_pipeline_ending_in_a_booster_is_scored_through_the_pipeline():
    # River's isinstance says True for a pipeline whose last step is a booster; it has no
    # _score_one, pos_label or n_models of its own (both wrappers used to fail on it).
    from river import preprocessing

    from streamboost import BanditCalibratedClassifier, CalibratedClassifier
    from streamboost.scores import calibrator_for, check_model, learns_bools

    def piped(**kwargs):
        return preprocessing.StandardScaler() | OzaBoostClassifier(
            linear_model.LogisticRegression(), n_models=4, seed=0, **kwargs)

    model = piped(pos_label="phish", neg_label="legit")
    assert not learns_bools(model)  # the booster learns the labels as they are
    # the vote of 4 members is clipped to 1/(2 (4 + 1)) from 0 and 1, as the booster's own
    assert calibrator_for("platt", model).eps == calibrator_for("platt", model[-1]).eps == 0.1
    with pytest.raises(ValueError, match="pos_label='phish' differs from pos_label=True"):
        check_model(model, True)
    rows = [(x, "phish" if y else "legit") for x, y in ROWS[:300]]
    for x, y in rows:
        model.learn_one(x, y)
    x = rows[0][0]
    assert positive_score(model, x, "phish") == model.predict_proba_one(x)["phish"]
    assert FrozenScorer(model, "phish").scores([x]).tolist() == [positive_score(model, x, "phish")]
    for wrapper in (CalibratedClassifier(piped(), calibrator="beta"),
                    BanditCalibratedClassifier(piped(), policy="ucb1", batch_size=8, seed=0)):
        for x, y in ROWS[:200]:
            assert 0.0 <= wrapper.predict_proba_one(x)[True] <= 1.0
            wrapper.learn_one(x, y)
        assert wrapper.calibrator_.n_seen > 0


@pytest.mark.parametrize("members", ["river", "booster", "weak booster"])
@pytest.mark.parametrize("wrapper", ["calibrated", "controller"])
def test_an_x_changed_between_predict_and_learn_is_scored_afresh(wrapper, members):
    # The wrappers keep predict_proba_one's score for learn_one of the same x; an x changed in
    # place in between must not learn the stale score (an identity check would). A booster with
    # array members shares its own copy of x with the wrapper: the same must hold.
    from streamboost import BanditCalibratedClassifier, CalibratedClassifier

    def make():
        model = {
            "river": linear_model.LogisticRegression,
            "booster": lambda: OzaBoostClassifier(linear_model.LogisticRegression(), seed=0),
            "weak booster": lambda: OzaBoostClassifier(UnivariateLogisticRegression(), seed=0),
        }[members]()
        if wrapper == "calibrated":
            return CalibratedClassifier(model)
        return BanditCalibratedClassifier(model=model, policy="both", batch_size=4)

    kept, fresh = make(), make()
    for i in range(60):
        x = {"a": float(i % 7) - 3.0}
        kept.predict_proba_one(x)
        fresh.predict_proba_one({"a": 0.0})
        x["a"] = -x["a"]  # the caller reuses its dict
        kept.learn_one(x, i % 3 == 0)
        fresh.learn_one(x, i % 3 == 0)
    assert kept.calibrator_._theta == fresh.calibrator_._theta


def test_a_boosters_copy_of_x_is_shared_and_what_happens_in_between_is_noticed():
    # With array members the scorer keeps the booster's own copy of x rather than a second
    # one and hands it back for learning (the booster then knows it by identity); a score is
    # reused only while that copy is still the one scored: another x scored, or x learned, in
    # between means scoring afresh (a copy of its own would reuse the stale score).
    from streamboost.scores import PrequentialScore

    booster = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=5, seed=0)
    for x, y in ROWS[:300]:
        booster.learn_one(x, y)
    scorer = PrequentialScore(booster, True)
    x, other = dict(ROWS[300][0]), ROWS[301][0]
    score = scorer.predict(x)
    assert scorer._x is booster._members._x and scorer._x is not x
    taken, learned = scorer.take(dict(x))
    assert taken == score and learned is booster._members._x and booster._members.knows(learned)
    scorer.predict(x)
    booster.predict_proba_one(other)
    taken, learned = scorer.take(x)
    assert (taken, learned) == (positive_score(booster, x, True), x) and learned is x
    scorer.predict(x)
    booster.learn_one(x, not ROWS[300][1])
    taken, learned = scorer.take(x)
    assert taken == positive_score(booster, x, True) != score and learned is x


def test_a_prequential_score_is_taken_once_and_not_pickled():
    from streamboost.scores import PrequentialScore

    model = linear_model.LogisticRegression()
    model.learn_one({"a": 1.0}, True)
    scorer = PrequentialScore(model, True)
    x = {"a": 2.0}
    score = scorer.predict(x)
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy._x is None and copy.model.weights == model.weights
    assert scorer.take(x)[0] == score and scorer._x is None  # taken: a second learn scores afresh
    model.learn_one(x, False)
    assert scorer.take(x)[0] == positive_score(model, x, True) < score


@pytest.mark.parametrize("scaled", [False, True])
def test_an_earlier_logistic_copy_borrows_a_later_ones_matrix_only_with_the_same_keys(scaled):
    model = linear_model.LogisticRegression()
    if scaled:  # each copy maps the borrowed matrix by its own scaler, leaving it as it was
        model = preprocessing.StandardScaler() | model
    for x, y in ROWS[:200]:
        model.learn_one(x, y)
    old = FrozenScorer(model, True)
    for x, y in ROWS[200:400]:
        model.learn_one(x, y)
    new = FrozenScorer(model, True)
    assert old._linear.keys == new._linear.keys  # phishing's features, all met by row 200
    xs = [x for x, _ in ROWS[400:432]]
    new.scores(xs)
    lent = old.scores(xs, like=new)
    assert old._table[0] is None  # it borrowed: no matrix of its own
    assert lent.tolist() == FrozenLogistic.scores(old._linear, xs).tolist()
    assert new._table[1].tolist() == new._linear.rows(xs).tolist()
    model.learn_one({**ROWS[432][0], "a new feature": 1.0}, True)
    newer = FrozenScorer(model, True)  # one key more: its matrix does not fit `new`
    newer.scores(xs)
    own = new._table[1]
    assert new.scores(xs, like=newer).tolist() == FrozenLogistic.scores(new._linear, xs).tolist()
    assert new._table[0] is xs and new._table[1] is not own  # made its own again


class _Frames(linear_model.LogisticRegression):
    """A minibatch model whose probability frame is given: what River's models return while
    they know one class only, or with a gap."""

    def __init__(self, frame=None):
        super().__init__()
        self.frame = frame

    def predict_proba_many(self, X):
        return self.frame


def test_frame_scores_read_an_unusual_frame_row_by_row_as_positive_proba_does():
    import pandas as pd

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    # only the negative label known: certain of it, so P(positive) = 0
    only_negative = pd.DataFrame({False: [1.0, 1.0, 1.0]})
    assert scores.frame_scores(_Frames(only_negative), X, True)[0].tolist() == [0.0, 0.0, 0.0]
    # a gap (NaN) in the positive column: that row reads its other cell, a row with none 1/2
    nan = float("nan")
    gaps = pd.DataFrame({False: [0.25, 1.0, nan], True: [0.75, nan, nan]})
    assert scores.frame_scores(_Frames(gaps), X, True)[0].tolist() == [0.75, 0.0, 0.5]
    # a positive column outside [0, 1] is refused, naming the value
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\], got 1.5"):
        scores.frame_scores(_Frames(pd.DataFrame({False: [0.0] * 3, True: [0.5, 1.5, 0.5]})), X,
                            True)
    # a frame of another length than X's is a broken model, not a frame to read
    with pytest.raises(ValueError, match=r"_Frames\.predict_proba_many gave 2 rows for a "
                                         r"frame of 3"):
        scores.frame_scores(_Frames(pd.DataFrame({False: [0.5] * 2, True: [0.5] * 2})), X, True)


_KEYS = ("a", "b", "c", "d")
_ROW = st.dictionaries(st.sampled_from(_KEYS), st.one_of(
    st.floats(-1e3, 1e3, allow_nan=False), st.integers(-5, 5), st.just(2.0)), max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_ROW, st.booleans()), min_size=1, max_size=40),
       st.lists(_ROW, min_size=1, max_size=8), st.booleans(), st.booleans())
def test_a_frozen_scaled_model_scores_any_rows_as_the_pipeline(learned, later, with_std,
                                                               boosted):
    # any subset of the features in any order, ints among the floats, constant values: the
    # frozen copy's scores are the pipeline's own, before it learns on
    final = (OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
             if boosted else linear_model.LogisticRegression())
    model = preprocessing.StandardScaler(with_std=with_std) | final
    for x, y in learned:
        model.learn_one(x, y)
    frozen = FrozenScorer(model, True)
    assert frozen.model is None
    expected = [positive_score(model, x, True) for x in later]
    for x, y in learned:
        model.learn_one(x, not y)
    assert frozen.scores(later).tolist() == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_a_scaler_map_refuses_what_it_cannot_freeze_and_a_frozen_scorer_snapshots_it():
    with pytest.raises(TypeError, match="freezes River's StandardScaler: got MinMaxScaler"):
        ScalerMap(preprocessing.MinMaxScaler(), ["a"])
    with pytest.raises(ValueError, match="window_size=5; expected None"):
        ScalerMap(preprocessing.StandardScaler(window_size=5), ["a"])
    # a variance a hair below 0, as River's learn_many can leave on a constant column: River's
    # map of that feature is complex (it raises for an example that has it, not for others)
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    for x, y in [({"a": 1.0, "b": 2.0}, True), ({"a": -1.0, "b": 2.5}, False)] * 10:
        model.learn_one(x, y)
    model["StandardScaler"].vars["b"] = -3.3e-16
    with pytest.raises(ValueError, match=r"feature 'b' has variance -3\.3e-16; expected >= 0"):
        ScalerMap(model["StandardScaler"], ["a", "b"])
    frozen = FrozenScorer(model, True)
    assert frozen.model is not None  # a snapshot: River's behaviour, whatever it is
    xs = [{"a": 1.0}, {"a": -0.5}]
    assert frozen.scores(xs).tolist() == [positive_score(model, x, True) for x in xs]
    booster = preprocessing.StandardScaler() | OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=2, seed=0)
    booster.learn_one({"a": 1.0}, True)
    booster["StandardScaler"].vars["a"] = -1e-18
    assert FrozenScorer(booster, True).model is not None


def test_frozen_by_pickle_says_which_copies_are_pickles():
    # the controller pickles a model to check it can be copied only where its copy is a
    # pickle (reward.resolve_rollback); a wrong answer either slows an array model for good
    # or lets an unpicklable one fail at its first measured round
    lr = linear_model.LogisticRegression
    oza = OzaBoostClassifier(lr(), n_models=2, seed=0)
    stumps = OzaBoostClassifier(DecisionStump(), n_models=2, seed=0)
    trees = OzaBoostClassifier(tree.HoeffdingTreeClassifier(), n_models=2, seed=0)
    models = [lr(), oza, preprocessing.StandardScaler() | lr(),
              preprocessing.StandardScaler() | oza.clone(), stumps, trees,
              preprocessing.MinMaxScaler() | lr(), tree.HoeffdingTreeClassifier(),
              compose.Pipeline(preprocessing.StandardScaler(), preprocessing.MinMaxScaler(),
                               lr())]
    for model in models:
        for x, y in [({"a": 1.0}, True), ({"a": -1.0}, False)] * 5:
            model.learn_one(x, y)
        for key in (True, "yes"):
            assert scores.frozen_by_pickle(model, key) == (
                FrozenScorer(model, key).model is not None), (model, key)
    assert [scores.frozen_by_pickle(m, True) for m in models] == [
        False, False, False, False, False, True, True, True, True]


@pytest.mark.parametrize(
    ("model", "gamma"),
    [
        (linear_model.LogisticRegression(), 1.0),
        (preprocessing.StandardScaler() | linear_model.LogisticRegression(), 1.0),
        (OzaBoostClassifier(linear_model.LogisticRegression(), score="soft"), 1.0),
        (OzaBoostClassifier(UnivariateLogisticRegression(), n_models=3, score="soft"), 1.0),
        (OzaBoostClassifier(DecisionStump(), n_models=3, score="soft"), 1.0),
        (preprocessing.StandardScaler() | OzaBoostClassifier(
            preprocessing.StandardScaler() | linear_model.LogisticRegression(), score="soft"),
         1.0),
        (ensemble.AdaBoostClassifier(linear_model.LogisticRegression(), n_models=2), 1.0),
        (OzaBoostClassifier(linear_model.LogisticRegression()), 0.1),  # the vote
        (OzaBoostClassifier(UnivariateLogisticRegression(), score="logistic"), 0.1),
        (OzaBoostClassifier(DecisionStump()), 0.1),
        (tree.HoeffdingTreeClassifier(), 0.1),
        (forest.ARFClassifier(n_models=2), 0.1),
        (OzaBoostClassifier(tree.HoeffdingTreeClassifier(), score="soft"), 0.1),
        (ensemble.BaggingClassifier(tree.HoeffdingTreeClassifier(), n_models=2), 0.1),
    ],
)
def test_by_name_platt_and_beta_step_by_the_model(model, gamma):
    # simulations/platt_step.md: Newton-sized steps beside a logistic regression and an average
    # of smooth members' probabilities, Gupta & Ramdas's 0.1 beside any other model
    from streamboost import BanditCalibratedClassifier, CalibratedClassifier
    from streamboost.calibration import OnlinePlattCalibrator
    from streamboost.scores import calibrator_for, named_step

    assert named_step(model) == gamma
    for name in ("platt", "beta"):
        assert calibrator_for(name, model).gamma == gamma
        assert CalibratedClassifier(model, name).calibrator_.gamma == gamma
        assert calibrator_for(name, model, gamma=0.5).gamma == 0.5  # given, it is kept
    bandit = BanditCalibratedClassifier(model, calibrator="ewa", seed=0)
    assert [c.gamma for c in bandit.calibrator_.calibrators[:2]] == [gamma, gamma]
    assert calibrator_for("isotonic", model)._get_params() == calibrator_for(
        "isotonic", model, gamma=0.5)._get_params()  # no step to set
    given = OnlinePlattCalibrator(gamma=0.3)
    assert calibrator_for(given, model).gamma == 0.3  # an object is cloned as it is
