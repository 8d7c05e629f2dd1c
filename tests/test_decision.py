"""Tests of streamboost.decision: cost threshold, skew, prior shift, cost-sensitive wrapper."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest
from river import base, checks, datasets, linear_model, preprocessing, tree

from streamboost import OzaBoostClassifier
from streamboost.decision import (
    BinaryLabels,
    CostSensitiveClassifier,
    CostSensitiveMixin,
    correct_prior_shift,
    cost_ratio,
    cost_threshold,
    cost_thresholds,
    decide,
    deployment_skew,
    positive_proba,
    skew,
    skew_change,
    validate_costs,
)

BAD_COSTS = [0.0, -1.0, math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("bad", BAD_COSTS)
def test_bad_costs_are_rejected_naming_the_value(bad):
    for c_fp, c_fn, name in ((bad, 1.0, "c_fp"), (1.0, bad, "c_fn")):
        with pytest.raises(ValueError, match=name):
            validate_costs(c_fp, c_fn)
        with pytest.raises(ValueError, match=name):
            cost_threshold(c_fp, c_fn)
        with pytest.raises(ValueError, match=name):
            decide(0.5, c_fp, c_fn)


def test_an_int_beyond_any_float_is_a_cost_out_of_range():
    for call in (lambda: validate_costs(1, 10**400), lambda: cost_threshold(10**400, 1),
                 lambda: cost_thresholds(1.0, 10**400)):
        with pytest.raises(ValueError, match="401 digits, beyond any float"):
            call()


def test_non_numeric_costs_are_type_errors():
    with pytest.raises(TypeError, match="c_fn"):
        cost_threshold(1.0, "2")
    with pytest.raises(TypeError, match="c_fp"):
        cost_threshold(True, 1.0)


def test_threshold_and_ratio_by_hand():
    assert cost_threshold(1, 1) == 0.5
    assert cost_threshold(1, 4) == pytest.approx(0.2)
    assert cost_threshold(3, 1) == pytest.approx(0.75)
    # Only the ratio matters (Eq. 2.4): scaling both costs leaves the threshold unchanged.
    assert cost_threshold(7, 28) == pytest.approx(cost_threshold(1, 4))
    assert cost_ratio(2, 10) == 5.0


def test_decision_is_strict_at_the_threshold():
    assert decide(0.2000001, 1, 4) is True
    assert decide(0.2, 1, 4) is False
    assert decide(0.5, 1, 1) is False
    assert decide(1.0, 1e6, 1) is True  # c < 1 for finite costs, so p = 1 is positive
    assert decide(0.0, 1, 1e6) is False
    with pytest.raises(ValueError, match="p_pos"):
        decide(1.2, 1, 1)


def test_decision_minimises_expected_cost():
    for p in [i / 20 for i in range(21)]:
        for c_fp, c_fn in [(1, 1), (1, 9), (9, 1), (2.5, 0.5)]:
            cost_pos, cost_neg = (1 - p) * c_fp, p * c_fn
            if abs(cost_pos - cost_neg) > 1e-9:  # ties are a coin flip
                assert decide(p, c_fp, c_fn) == (cost_pos < cost_neg)


def test_skew_convention_and_balanced_equality():
    # Balanced classes: z equals the cost threshold c (thesis Ch. 2).
    for c_fp, c_fn in [(1, 1), (1, 4), (5, 2)]:
        assert skew(c_fp, c_fn, 0.5) == pytest.approx(cost_threshold(c_fp, c_fn))
    # z is the false-positive share: costlier FPs or more negatives raise it.
    assert skew(4, 1, 0.5) > 0.5
    assert skew(1, 1, 0.1) > 0.5
    assert skew(1, 4, 0.2) == pytest.approx(0.5)  # pi_- c_fp = 0.8 = pi_+ c_fn
    assert skew(1, 1, 0.0) == 1.0 and skew(1, 1, 1.0) == 0.0
    for bad in (-0.1, 1.1, math.nan):
        with pytest.raises(ValueError, match="pos_prior"):
            skew(1, 1, bad)


def test_prior_shift_footnote_9_and_eq_8_1():
    assert deployment_skew(0.5, 0.2) == pytest.approx(0.2)
    assert deployment_skew(0.2, 0.5) == pytest.approx(0.2)
    # By hand: 0.3 * 0.6 / (0.3 * 0.6 + 0.7 * 0.4) = 0.18 / 0.46.
    assert deployment_skew(0.3, 0.6) == pytest.approx(0.18 / 0.46)
    for z_tr, z_dep in [(0.3, 0.9), (0.8, 0.1), (0.5, 0.5)]:
        assert deployment_skew(z_tr, skew_change(z_tr, z_dep)) == pytest.approx(z_dep)
    # Eq. 8.1 by hand: 0.8 * 0.6 / (0.8 * 0.6 + 0.2 * 0.4) = 0.48 / 0.56.
    assert correct_prior_shift(0.6, 0.2) == pytest.approx(0.48 / 0.56)
    assert correct_prior_shift(0.0, 0.3) == 0.0 and correct_prior_shift(1.0, 0.3) == 1.0
    # Thresholding the corrected estimate at 1/2 = thresholding the raw one at z' (Eq. 7.5).
    for p in [i / 40 for i in range(1, 40)]:
        for z in (0.1, 0.25, 0.6, 0.9):
            if abs(p - z) > 1e-9:
                assert (correct_prior_shift(p, z) > 0.5) == (p > z)
    with pytest.raises(ValueError, match="z_change"):
        correct_prior_shift(0.5, 0.0)
    with pytest.raises(ValueError, match="z_train"):
        deployment_skew(1.0, 0.5)


def test_labels_that_are_equal_are_one_label():
    from streamboost.decision import BinaryLabels

    for pos, neg in [(1, True), (1, 1.0), ("spam", "".join(["sp", "am"]))]:  # equal, not `is`
        with pytest.raises(ValueError, match="pos_label and neg_label must differ"):
            BinaryLabels(pos, neg)


def test_positive_proba_rules():
    assert positive_proba({False: 0.3, True: 0.7}) == 0.7
    assert positive_proba({0: 0.3, 1: 0.7}) == 0.7  # the int 1 matches True
    assert positive_proba({}) == 0.0
    assert positive_proba({False: 1.0}) == 0.0
    assert positive_proba({True: 1.0}) == 1.0
    assert positive_proba(1.0 + 1e-12) == 1.0  # round-off is clipped
    # within 1e-9 of [0, 1] is round-off, clipped; beyond it, a model's error
    assert positive_proba({True: -9e-10, False: 1.0}) == 0.0
    assert positive_proba(1.0 + 9e-10) == 1.0
    for beyond in (1.0 + 2e-9, -2e-9):
        with pytest.raises(ValueError, match="must lie in"):
            positive_proba({True: beyond, False: 1.0 - beyond})
    with pytest.raises(ValueError, match="binary"):
        positive_proba({"a": 0.2, "b": 0.3, True: 0.5})
    with pytest.raises(ValueError, match="not among"):
        positive_proba({"a": 0.2, "b": 0.8})
    # one other label: certain, a model that knows one class; less than certain, a key mismatch
    assert positive_proba({False: 1.0 - 1e-12}) == 0.0
    with pytest.raises(ValueError, match=r"not among the predicted labels \['True'\] \(with "
                                         r"probability 0\.9\)"):
        positive_proba({"True": 0.9})
    with pytest.raises(ValueError, match="nan"):
        positive_proba(math.nan)
    with pytest.raises(ValueError, match=r"-0\.1"):
        positive_proba({True: -0.1, False: 1.1})
    with pytest.raises(TypeError, match="label"):
        positive_proba(True)
    with pytest.raises(TypeError):
        positive_proba("0.5")


class _Fixed(base.Classifier):
    """A classifier whose probability dict is set by hand."""

    def __init__(self, proba=None):
        self.proba = proba

    def learn_one(self, x, y, **kwargs):
        pass

    def predict_proba_one(self, x, **kwargs):
        return dict(self.proba or {})


def test_wrapper_predicts_by_cost_and_per_call_override_is_not_sticky():
    model = CostSensitiveClassifier(_Fixed({False: 0.7, True: 0.3}))
    assert model.predict_one({}) is False
    assert model.predict_one({}, c_fp=1.0, c_fn=4.0) is True  # 0.3 > 0.2
    assert model.predict_one({}, c_fn=2.5) is True  # 0.3 > 1/3.5
    assert model.predict_one({}, c_fn=2.0) is False  # 0.3 < 1/3
    assert model.predict_one({}) is False  # override did not stick
    model.set_costs(1.0, 3.0)
    assert model.c_fp == 1.0 and model.c_fn == 3.0 and model.threshold == 0.25
    assert model.predict_one({}) is True


def test_a_probability_equal_to_the_threshold_is_decided_negative():
    # positive iff p > c_FP / (c_FP + c_FN), strictly (thesis Eq. 2.8)
    assert CostSensitiveClassifier(_Fixed({False: 0.5, True: 0.5})).predict_one({}) is False
    model = CostSensitiveClassifier(_Fixed({False: 0.75, True: 0.25}), c_fp=1.0, c_fn=3.0)
    assert model.threshold == 0.25 and model.predict_one({}) is False
    assert model.predict_one({}, c_fn=3.5) is True


def test_a_misspelt_cost_is_refused_and_other_keywords_reach_the_model():
    # a model that takes any keyword (River's forests) would ignore c_FP and decide at 1:1
    seen = []

    class Forwarding(_Fixed):
        def predict_proba_one(self, x, **kwargs):
            seen.append(kwargs)
            return super().predict_proba_one(x)

    model = CostSensitiveClassifier(Forwarding({False: 0.7, True: 0.3}))
    for key in ("c_FP", "cfn", "C_Fn"):
        with pytest.raises(TypeError, match=rf"^predict_one got {key}=10\.0: the costs are the "
                                            r"keywords c_fp and c_fn$"):
            model.predict_one({}, **{key: 10.0})
    assert seen == []
    assert model.predict_one({}, c_fn=10.0, temperature=2) is True
    assert seen == [{"temperature": 2}]


def test_set_costs_validates_before_changing_anything():
    model = CostSensitiveClassifier(_Fixed({False: 0.7, True: 0.3}), c_fp=2.0, c_fn=3.0)
    with pytest.raises(ValueError, match="c_fn"):
        model.set_costs(5.0, -1.0)
    assert (model.c_fp, model.c_fn) == (2.0, 3.0)
    with pytest.raises(ValueError, match="c_fp"):
        model.predict_one({}, c_fp=math.nan)
    with pytest.raises(ValueError, match="c_fp"):
        CostSensitiveClassifier(_Fixed(), c_fp=0.0)
    with pytest.raises(TypeError, match="Classifier"):
        CostSensitiveClassifier(linear_model.LinearRegression())


def test_negative_label_resolution():
    # Other key of the dict.
    spam = CostSensitiveClassifier(_Fixed({"spam": 0.1, "ham": 0.9}), pos_label="spam")
    assert spam.predict_one({}) == "ham"
    assert spam.predict_one({}, c_fp=1.0, c_fn=100.0) == "spam"
    # One-keyed or empty dict: the negative label learned, else not pos_label, else None.
    fixed = _Fixed({"spam": 0.0})
    spam = CostSensitiveClassifier(fixed, pos_label="spam")
    assert spam.predict_one({}) is None
    spam.learn_one({}, "ham")
    assert spam.predict_one({}) == "ham"
    assert CostSensitiveClassifier(_Fixed({})).predict_one({}) is False
    # Explicit neg_label wins.
    explicit = CostSensitiveClassifier(_Fixed({}), pos_label="spam", neg_label="ok")
    assert explicit.predict_one({}) == "ok"
    with pytest.raises(ValueError, match="differ"):
        CostSensitiveClassifier(_Fixed(), pos_label=1, neg_label=1)


def test_wrapper_is_binary_and_rejects_before_learning():
    inner = tree.HoeffdingTreeClassifier()
    model = CostSensitiveClassifier(inner, pos_label="a")
    model.learn_one({"x": 1.0}, "a")
    model.learn_one({"x": 2.0}, "b")
    with pytest.raises(ValueError, match="binary"):
        model.learn_one({"x": 3.0}, "c")
    assert inner.predict_proba_one({"x": 3.0}).keys() == {"a", "b"}  # "c" never reached it
    multi = CostSensitiveClassifier(_Fixed({"a": 0.2, "b": 0.3, "c": 0.5}), pos_label="a")
    with pytest.raises(ValueError, match="binary"):
        multi.predict_one({})



@pytest.mark.parametrize("bad", [
    ({"x": math.nan}, {}, "feature 'x' is nan"),
    ({"x": -math.inf}, {}, "feature 'x' is -inf"),
    ({"x": 1e200}, {}, "feature 'x' is 1e\\+200"),
    ({"x": 1.0}, {"w": math.nan}, "w"),
    ({"x": 1.0}, {"w": math.inf}, "w"),
    ({"x": 1.0}, {"w": -1.0}, "w"),
])
def test_a_bad_feature_or_weight_is_refused_before_the_model_learns(bad):
    """It reached the wrapped model, whose weights became NaN for good (every later
    probability NaN)."""
    x, kwargs, message = bad
    model = CostSensitiveClassifier(linear_model.LogisticRegression())
    model.learn_one({"x": 1.0}, True)
    before = model.classifier.weights.copy(), model.classifier.intercept
    with pytest.raises(ValueError, match=message):
        model.learn_one(x, False, **kwargs)
    assert (model.classifier.weights, model.classifier.intercept) == before
    assert model._labels.negative is False  # inferred from a bool pos_label, not learned
    with pytest.raises(ValueError, match="feature 'x'"):
        model.predict_proba_one({"x": math.nan})
    assert not math.isnan(model.predict_proba_one({"x": 2.0})[True])


def test_a_keyword_the_model_does_not_take_is_refused_and_names_no_negative():
    model = CostSensitiveClassifier(tree.HoeffdingTreeClassifier(), pos_label="a")
    with pytest.raises(TypeError, match="takes no keyword argument 'weight'"):
        model.learn_one({"x": 1.0}, "b", weight=2.0)
    assert model._labels.negative is None  # the refused example's label was not learned
    model.learn_one({"x": 1.0}, "c")
    assert model._labels.negative == "c"


class _FramesFixed(_Fixed, base.MiniBatchClassifier):
    """`_Fixed` that learns frames (and refuses a label it is told to)."""

    refused = None

    def learn_one(self, x, y, **kwargs):
        if y == self.refused:
            raise ValueError(f"the model refuses {y!r}")

    def learn_many(self, X, y, **kwargs):
        pass


def test_a_frame_names_the_negative_by_its_first_other_label():
    model = CostSensitiveClassifier(_FramesFixed({"spam": 0.0}), pos_label="spam")
    model.learn_many(pd.DataFrame({"x": [1.0, 2.0, 3.0]}), pd.Series(["spam", "ham", "spam"]))
    assert model.predict_one({"x": 1.0}) == "ham"


def test_a_label_the_model_refuses_names_no_negative():
    inner = _FramesFixed({"spam": 0.0})
    inner.refused = "ham"
    model = CostSensitiveClassifier(inner, pos_label="spam")
    with pytest.raises(ValueError, match="refuses 'ham'"):
        model.learn_one({"x": 1.0}, "ham")
    model.learn_one({"x": 1.0}, "eggs")  # the first other label the model learned
    assert model.predict_one({"x": 1.0}) == "eggs"


def test_wrapper_delegates_probabilities_and_learning():
    inner = linear_model.LogisticRegression()
    model = CostSensitiveClassifier(inner.clone())
    stream = list(datasets.Phishing().take(200))
    for x, y in stream:
        model.learn_one(x, y)
        inner.learn_one(x, y)
    for x, _ in stream[:20]:
        assert model.predict_proba_one(x) == inner.predict_proba_one(x)
        assert model.predict_one(x) == inner.predict_one(x)  # equal costs: threshold 1/2


def test_costs_shift_decisions_monotonically_without_retraining():
    model = CostSensitiveClassifier(
        preprocessing.StandardScaler() | linear_model.LogisticRegression()
    )
    stream = list(datasets.Phishing().take(600))
    for x, y in stream[:400]:
        model.learn_one(x, y)
    xs = [x for x, _ in stream[400:]]
    probas = [model.predict_proba_one(x)[True] for x in xs]
    counts = []
    for ratio in (0.01, 0.2, 1.0, 5.0, 100.0):
        labels = [model.predict_one(x, c_fp=1.0, c_fn=ratio) for x in xs]
        assert labels == [p > 1 / (1 + ratio) for p in probas]
        counts.append(sum(labels))
    assert counts == sorted(counts) and counts[0] < counts[-1]


@pytest.mark.parametrize("params", list(CostSensitiveClassifier._unit_test_params()))
def test_check_estimator(params):
    checks.check_estimator(CostSensitiveClassifier(**params))


def test_mixin_serves_a_host_class():
    class Host(CostSensitiveMixin, base.Classifier):
        def __init__(self, p=0.4, c_fp=1.0, c_fn=1.0):
            self.p, self.c_fp, self.c_fn = p, c_fp, c_fn
            self.pos_label, self.neg_label = 1, 0

        def learn_one(self, x, y):
            pass

        def predict_proba_one(self, x, scale=1.0):
            return {0: 1 - self.p * scale, 1: self.p * scale}

    host = Host()
    assert host.predict_one({}) == 0
    assert host.predict_one({}, c_fn=2.0) == 1
    assert host.predict_one({}, c_fn=2.0, scale=0.5) == 0  # kwargs reach predict_proba_one
    X = pd.DataFrame({"a": [1.0, 2.0]})
    assert host.predict_many(X, c_fn=2.0).tolist() == [1, 1]
    assert host.predict_many(X, c_fn=2.0, scale=0.5).tolist() == [0, 0]  # on every row
    host.set_costs(1, 2)
    assert host.predict_one({}) == 1
    assert isinstance(host.c_fp, float)
    # One implementation serves both (no copy-paste twins).
    assert CostSensitiveClassifier.predict_one is Host.predict_one is CostSensitiveMixin.predict_one


class _Probas(dict):
    """A dict that is not exactly a dict: positive_proba takes its general path."""


@pytest.mark.parametrize("labels", [(False, True), (0, 1), ("ham", "spam"), (True, "x")])
def test_the_fast_path_of_positive_proba_answers_as_the_general_one(labels):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(deadline=None)  # as every property here: a slow machine is no failure
    @given(st.floats(0.0, 1.0), st.sampled_from((*labels, "absent")))
    def check(p, pos_label):
        y_pred = {labels[0]: 1.0 - p, labels[1]: p}
        try:
            expected = positive_proba(_Probas(y_pred), pos_label)
        except ValueError as error:
            with pytest.raises(ValueError, match=re.escape(str(error))):
                positive_proba(y_pred, pos_label)
            return
        answer = positive_proba(y_pred, pos_label)
        assert answer == expected and type(answer) is float

    check()


class _Incomparable:
    """A label hashed as True whose comparisons raise TypeError (as pd.NA's can)."""

    def __hash__(self):
        return hash(True)

    def __eq__(self, other):
        raise TypeError("no comparison")


@pytest.mark.parametrize("known", [(True, None), (True, False), ("spam", "ham"), (1, 0),
                                   ("spam", None)])
def test_check_many_answers_from_the_known_labels_as_judging_them_one_by_one(known):
    # 0.8.62: a minibatch whose labels are all known is answered from `known`, without judging
    # each label; it must answer (or refuse) exactly as judging them in order does
    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st

    pool = (True, False, 1, 0, 1.0, np.True_, np.int64(0), "spam", "ham", 2, None, math.nan,
            pd.NA, _Incomparable())

    @settings(deadline=None)
    @given(st.lists(st.sampled_from(pool), min_size=1, max_size=6),
           st.sampled_from([list, pd.Series, np.array]))
    def check(labels, kind):
        owner = BinaryLabels(*known)
        y = kind(labels) if kind is not np.array else np.array(labels, dtype=object)
        judge, positive = BinaryLabels(*known), {}
        try:
            for label in dict.fromkeys(y.tolist() if kind is not list else labels):
                positive[label] = judge.is_positive(label)
                judge.learn(label)
        except (TypeError, ValueError) as error:
            with pytest.raises(type(error), match=re.escape(str(error))):
                owner.check_many(y, len(labels))
            return
        answer = owner.check_many(y, len(labels))
        assert answer[1] == positive and list(answer[1]) == list(positive)
        assert [type(v) for v in answer[1].values()] == [bool] * len(positive)
        assert answer[0] == list(labels) and owner.negative == BinaryLabels(*known).negative

    check()


def test_predict_many_is_predict_one_row_by_row_and_checks_the_frame_first():
    import pandas as pd
    from river import naive_bayes

    model = CostSensitiveClassifier(naive_bayes.GaussianNB(), pos_label="yes")
    for i in range(20):
        model.learn_one({"a": 1.0 + i / 10}, "no")
        model.learn_one({"a": -1.0 - i / 10}, "yes")
    X = pd.DataFrame({"a": [1.0, -2.0, 0.05, 0.3]}, index=["r", "s", "t", "u"])
    for costs in ({}, {"c_fn": 100.0}, {"c_fp": 100.0}, {"c_fp": 2.0, "c_fn": 3.0}):
        decided = model.predict_many(X, **costs)
        assert list(decided.index) == ["r", "s", "t", "u"]
        assert decided.tolist() == [model.predict_one(x, **costs) for x in X.to_dict("records")]
    assert model.predict_many(X, c_fn=100.0).tolist() != model.predict_many(X).tolist()
    scored = []
    model.classifier.predict_proba_one = lambda x: scored.append(x) or {"yes": 1.0}
    for bad, error in [({"X": X.assign(a=[1.0, float("inf"), 0.0, 0.0])}, "row 's', column 'a'"),
                       ({"X": X, "c_FN": 3.0}, "the costs are the keywords"),
                       ({"X": X, "c_fp": -1.0}, "c_fp must be finite and > 0")]:
        with pytest.raises((TypeError, ValueError), match=error):
            model.predict_many(**bad)
    assert scored == []  # nothing scored before the frame and costs were checked


def test_cost_thresholds_are_cost_thresholds_one_by_one_to_the_last_bit():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    costs = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False)

    @settings(deadline=None)  # as every property here: a slow machine is no failure
    @given(st.lists(st.tuples(costs, costs), min_size=1, max_size=20), costs)
    def check(pairs, scalar):
        fps, fns = [fp for fp, _ in pairs], [fn for _, fn in pairs]
        assert cost_thresholds(fps, fns).tolist() == [cost_threshold(*pair) for pair in pairs]
        # a number stands for every example, on either side
        assert cost_thresholds(scalar, fns).tolist() == [cost_threshold(scalar, fn) for fn in fns]
        assert cost_thresholds(fps, scalar).tolist() == [cost_threshold(fp, scalar) for fp in fps]

    check()


@pytest.mark.parametrize("bad", BAD_COSTS)
def test_cost_thresholds_name_the_first_bad_cost_by_its_position(bad):
    with pytest.raises(ValueError, match=re.escape(f"c_fn[2] must be finite and > 0, got {bad!r}")):
        cost_thresholds(1.0, [1.0, 2.0, bad, bad])
    with pytest.raises(ValueError, match=re.escape("c_fp[0]")):
        cost_thresholds([bad], 1.0)
    with pytest.raises(ValueError, match="for 2 and 3 examples"):
        cost_thresholds([1.0, 2.0], [1.0, 2.0, 3.0])
    for wrong in ([True, False], [[1.0]], ["1"], [1.0, None]):
        with pytest.raises(TypeError, match="one-dimensional sequence of real numbers"):
            cost_thresholds(1.0, wrong)


def test_predict_many_takes_a_cost_per_row_checked_before_any_row_is_scored():
    import numpy as np
    import pandas as pd

    rows = list(datasets.Phishing())[:300]
    model = CostSensitiveClassifier(linear_model.LogisticRegression())
    for x, y in rows[:200]:
        model.learn_one(x, y)
    X = pd.DataFrame([x for x, _ in rows[200:]], index=range(1000, 1100))
    amounts = np.geomspace(0.01, 100.0, len(X))  # e.g. what missing each fraud would cost
    expected = [model.predict_one(x, c_fp=2.0, c_fn=a) for x, a in zip(X.to_dict("records"),
                                                                       amounts, strict=True)]
    assert len(set(expected)) == 2  # the costs move decisions both ways
    for c_fn in (amounts, list(amounts), pd.Series(amounts, index=X.index)):
        assert model.predict_many(X, c_fp=2.0, c_fn=c_fn).tolist() == expected
    # per-row c_fp against the model's own c_fn
    per_fp = [model.predict_one(x, c_fp=1.0 / a) for x, a in zip(X.to_dict("records"), amounts,
                                                                  strict=True)]
    assert model.predict_many(X, c_fp=1.0 / amounts).tolist() == per_fp

    scored = []
    model.predict_proba_one = lambda x, **kwargs: scored.append(x) or {True: 0.5, False: 0.5}
    for c_fn, error, match in (
        (amounts[:-1], ValueError, "given for 99 rows; X has 100"),
        (pd.Series(amounts), ValueError, "a Series whose index is not X's"),
        ([*amounts[:-1], -1.0], ValueError, re.escape("c_fn[99] must be finite and > 0")),
        (np.ones((100, 1)), TypeError, "shape"),
    ):
        with pytest.raises(error, match=match):
            model.predict_many(X, c_fn=c_fn)
    assert scored == []


@pytest.mark.parametrize("make", [
    linear_model.LogisticRegression,
    lambda: preprocessing.StandardScaler() | linear_model.LogisticRegression(),
    lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=4, seed=1),
], ids=["lr", "pipeline", "oza-lr"])
def test_predict_many_of_a_frame_model_is_one_predict_proba_many_deciding_as_predict_one(make):
    import numpy as np

    rows = list(datasets.Phishing())[:400]
    model = CostSensitiveClassifier(make(), pos_label=1)  # the int 1 matches True
    for x, y in rows[:250]:
        model.learn_one(x, y)
    X = pd.DataFrame([x for x, _ in rows[250:]], index=range(500, 650))
    records = X.to_dict("records")
    amounts = np.geomspace(0.05, 20.0, len(X))
    classifier, calls = model.classifier, []
    one, many = classifier.predict_proba_one, classifier.predict_proba_many
    classifier.predict_proba_one = lambda x: calls.append("one") or one(x)
    classifier.predict_proba_many = lambda X: calls.append("many") or many(X)
    # our booster's scores, without the probability frame around them
    frame_call = ["scores"] if isinstance(classifier, OzaBoostClassifier) else ["many"]
    if frame_call == ["scores"]:
        scores = classifier.score_many
        classifier.score_many = lambda X: calls.append("scores") or scores(X)
    seen = []
    for costs in ({}, {"c_fn": 10.0}, {"c_fp": 10.0}, {"c_fp": 2.0, "c_fn": amounts}):
        calls.clear()
        decided = model.predict_many(X, **costs)
        assert calls == frame_call  # one call for the frame, none row by row
        per_row = [{k: v[i] if k == "c_fn" and len(costs) == 2 else v for k, v in costs.items()}
                   for i in range(len(X))]
        expected = [model.predict_one(x, **c) for x, c in zip(records, per_row, strict=True)]
        assert decided.tolist() == expected and list(decided.index) == list(X.index)
        seen.append(tuple(expected))
    assert len(set(seen)) == 4 and {True, False} <= set().union(*seen)  # the costs decide
    pd.testing.assert_frame_equal(model.predict_proba_many(X), many(X))
    # a missing cell is an absent feature, as row by row: a River model, which cannot take it
    # in a frame, decides the frame row by row; our booster takes it
    gap = X.astype(float)
    gap.iloc[3, 0] = np.nan
    calls.clear()
    decided = model.predict_many(gap, c_fn=amounts)
    assert calls == (frame_call if isinstance(model.classifier, OzaBoostClassifier)
                     else ["one"] * len(X))
    rows = [{k: v for k, v in x.items() if v == v} for x in gap.to_dict("records")]
    assert X.columns[0] not in rows[3]
    assert decided.tolist() == [model.predict_one(x, c_fn=a) for x, a in zip(rows, amounts,
                                                                            strict=True)]
    calls.clear()
    for bad, error in [({"X": X.assign(**{X.columns[0]: [np.inf] + [0.0] * (len(X) - 1)})},
                        f"row 500, column {X.columns[0]!r}"),
                       ({"X": X, "c_fp": -1.0}, "c_fp must be finite and > 0"),
                       ({"X": X, "c_fn": amounts[:-1]}, "given for 149 rows")]:
        with pytest.raises(ValueError, match=re.escape(error)):
            model.predict_many(**bad)
    assert calls == []  # nothing scored before the frame and the costs were checked


@pytest.mark.parametrize("neg_label", [None, "legit"])
def test_predict_many_over_our_booster_names_the_negative_as_predict_one_does(neg_label):
    # the booster's scores carry no labels: the negative is the booster's once it has seen
    # one, until then the wrapper's (given, or none: a bool's other value only)
    rows = [(x, "phish" if y else "legit") for x, y in list(datasets.Phishing())[:300]]
    X = pd.DataFrame([x for x, _ in rows[200:]])
    model = CostSensitiveClassifier(OzaBoostClassifier(linear_model.LogisticRegression(),
                                                       n_models=3, seed=1, pos_label="phish"),
                                    pos_label="phish", neg_label=neg_label, c_fn=3.0)
    for x, _ in rows[:20]:
        model.learn_one(x, "phish")  # no negative seen yet
    assert model.predict_many(X).tolist() == [model.predict_one(x)
                                              for x in X.to_dict("records")]
    for x, y in rows[:200]:
        model.learn_one(x, y)
    decided = model.predict_many(X, c_fn=[1.0, 20.0] * 50)
    assert set(decided) == {"phish", "legit"}
    assert decided.tolist() == [model.predict_one(x, c_fn=c) for x, c in
                                zip(X.to_dict("records"), [1.0, 20.0] * 50, strict=True)]
    # a booster that learned both labels before it was wrapped: the wrapper knows no negative
    trained = model.classifier.clone(include_attributes=True)
    fresh = CostSensitiveClassifier(trained, pos_label="phish", c_fn=3.0)
    assert set(fresh.predict_many(X)) == {"phish", "legit"}
    assert fresh.predict_many(X).tolist() == [fresh.predict_one(x) for x in
                                              X.to_dict("records")]


def test_predict_proba_many_of_a_row_model_gathers_its_rows():
    model = CostSensitiveClassifier(tree.HoeffdingTreeClassifier(grace_period=20))
    X = pd.DataFrame({"a": [0.5, -0.5, 2.0]}, index=["u", "v", "w"])
    assert model.predict_proba_many(X).shape == (3, 0)  # an untrained tree knows no label
    for i in range(60):
        model.learn_one({"a": i / 30 - 1.0}, i % 3 == 0)
    proba = model.predict_proba_many(X)
    assert list(proba.index) == ["u", "v", "w"]
    assert proba.to_dict("records") == [model.predict_proba_one(x) for x in X.to_dict("records")]


def test_labelled_decisions_keep_each_label_whole():
    import numpy as np

    from streamboost.decision import labelled

    positive = np.array([True, False, True])
    for pos, neg in [(True, False), ("fraud", None), (("a", 1), ("b", 2)), (1, 0)]:
        decided = labelled(positive, pos, neg)
        assert decided.dtype == object and decided.tolist() == [pos, neg, pos]
    assert labelled(np.array([], dtype=bool), 1, 0).tolist() == []


def test_predict_many_decides_any_frame_as_predict_one_row_by_row():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    model = CostSensitiveClassifier(linear_model.LogisticRegression(), c_fp=1.0, c_fn=3.0)
    for x, y in list(datasets.Phishing())[:1000]:
        model.learn_one(x, y)
    columns = list(next(iter(datasets.Phishing()))[0])
    cell, cost = st.floats(-5.0, 5.0), st.floats(0.01, 100.0)

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.lists(cell, min_size=len(columns), max_size=len(columns)), max_size=8),
           st.one_of(cost, st.lists(cost, min_size=8, max_size=8)),
           st.one_of(st.none(), st.tuples(st.integers(0, 7), st.sampled_from(columns))))
    def check(cells, c_fn, gap):
        X = pd.DataFrame(cells, columns=columns, dtype=float)
        if gap is not None and gap[0] < len(X):  # a missing cell: decided row by row
            X.loc[gap[0], gap[1]] = float("nan")
        c_fn = c_fn[:len(X)] if isinstance(c_fn, list) else c_fn
        costs = c_fn if isinstance(c_fn, list) else [c_fn] * len(X)
        rows = [{k: v for k, v in x.items() if v == v} for x in X.to_dict("records")]
        expected = [model.predict_one(x, c_fn=c) for x, c in zip(rows, costs, strict=True)]
        assert model.predict_many(X, c_fn=c_fn).tolist() == expected
        p = [model.predict_proba_one(x)[True] for x in rows]
        assert model.predict_proba_many(X)[True].tolist() == pytest.approx(p, rel=0, abs=1e-12)

    check()
    untrained = CostSensitiveClassifier(linear_model.LogisticRegression())  # p = 1/2 exactly
    X = pd.DataFrame({"a": [1.0, -1.0]})
    assert untrained.predict_many(X).tolist() == [False, False]  # strictly above the threshold
    assert untrained.predict_many(X, c_fp=0.99).tolist() == [True, True]


def test_learn_many_is_the_model_s_own_or_learn_one_row_by_row_checked_first():
    import copy

    import numpy as np

    rows = list(datasets.Phishing())[:300]
    X = pd.DataFrame([x for x, _ in rows], index=range(100, 400))
    y = pd.Series([label for _, label in rows], index=X.index)
    w = np.linspace(0.5, 2.0, len(X))
    # a frame model: its own learn_many, the weights per row in row order
    model = CostSensitiveClassifier(linear_model.LogisticRegression())
    alone = linear_model.LogisticRegression()
    for start in range(0, 300, 50):
        part = slice(start, start + 50)
        model.learn_many(X.iloc[part], y.iloc[part], w=w[part])
        alone.learn_many(X.iloc[part], y.iloc[part], w=pd.Series(w[part], index=X.index[part]))
    assert model.classifier.weights == alone.weights
    assert model.predict_many(X).tolist() == [alone.predict_proba_one(x)[True] > 0.5
                                              for x in X.to_dict("records")]
    # refused before anything is learned: a third label, a bad cell, a bad weight, a keyword
    before = copy.deepcopy(model.classifier.weights)
    for X_bad, y_bad, kwargs, error in [
        (X, y.where(y.index != 150, "maybe"), {}, "label 'maybe' is neither"),
        (X.assign(**{X.columns[1]: [np.inf] + [0.0] * 299}), y, {}, "row 100, column"),
        (X, y, {"w": [1.0] * 299 + [np.nan]}, "w"),
        (X, y, {"weight": 2.0}, "takes no keyword argument 'weight'"),
    ]:
        with pytest.raises((TypeError, ValueError), match=re.escape(error)):
            model.learn_many(X_bad, y_bad, **kwargs)
        assert model.classifier.weights == before
    # a missing cell: refused where the model learns frames (it would switch how the whole
    # frame is learned), left out of its row where the model learns rows
    gap = X.astype(float)
    gap.iloc[7, 2] = np.nan
    with pytest.raises(ValueError, match=re.escape(f"row 107, column {X.columns[2]!r} is "
                                                   "missing (NaN)")):
        model.learn_many(gap, y)
    assert model.classifier.weights == before
    for make, frame in [(lambda: tree.HoeffdingTreeClassifier(grace_period=50), X),
                        (lambda: tree.HoeffdingTreeClassifier(grace_period=50), gap)]:
        by_frame, by_row = CostSensitiveClassifier(make()), CostSensitiveClassifier(make())
        by_frame.learn_many(frame, y)
        for x, label in zip(frame.to_dict("records"), y, strict=True):
            by_row.learn_one({k: v for k, v in x.items() if v == v}, label)
        assert ([by_frame.predict_proba_one(x) for x in X.to_dict("records")]
                == [by_row.predict_proba_one(x) for x in X.to_dict("records")])
