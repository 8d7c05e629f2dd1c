"""The exponentially weighted average of calibrators (`calibration.EWACalibrator`): its regret
bound, that its weight goes to the calibrator that fits, and its checks."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamboost.calibration import Calibrator, EWACalibrator, make, resolve

NAMES = ("platt", "beta", "isotonic", "histogram")


def log_loss(p: float, y: bool) -> float:
    return -math.log(p if y else 1.0 - p)


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=1, max_size=150),
    flip=st.booleans(),
)
def test_the_mixture_loses_at_most_ln_k_more_than_the_best_calibrator(pairs, flip):
    # Vovk's bound for the log-loss with eta = 1, on any sequence (here also adversarial ones:
    # labels against the score when flip is set), against calibrators run on their own.
    cal, alone = EWACalibrator(share=0.0), [make(n) for n in NAMES]
    mixture, experts = 0.0, [0.0] * len(NAMES)
    for s, y in pairs:
        y = y if not flip else s < 0.5
        mixture += log_loss(cal.predict_one(s), y)
        for k, expert in enumerate(alone):
            experts[k] += log_loss(expert.predict_one(s), y)
            expert.learn_one(s, y)
        cal.learn_one(s, y)
    assert mixture <= min(experts) + math.log(len(NAMES)) + 1e-9
    assert [m.n_seen for m in cal.members] == [len(pairs)] * len(NAMES)


def test_the_weight_goes_to_the_calibrator_whose_shape_fits():
    # P(y | s) is a step at s = 0.6 (no sigmoid in logit(s) fits it): the binned calibrators win
    rng = random.Random(3)
    cal = EWACalibrator()
    for _ in range(3000):
        s = rng.random()
        cal.learn_one(s, rng.random() < (0.9 if s > 0.6 else 0.1))
    weights = dict(zip(NAMES, cal.weights, strict=True))
    assert weights["isotonic"] + weights["histogram"] > 0.99
    assert sum(cal.weights) == pytest.approx(1.0)
    # and P(y | s) = s: the identity, which Platt's and beta's maps contain exactly
    cal = EWACalibrator(calibrators=("platt", "histogram"))
    for _ in range(3000):
        s = rng.random()
        cal.learn_one(s, rng.random() < s)
    assert cal.weights[0] > 0.9


def test_the_prediction_is_the_weighted_average_of_the_members():
    rng = random.Random(5)
    cal = EWACalibrator(learning_rate=3.0, forgetting=0.99)
    for _ in range(200):
        s = rng.random()
        cal.learn_one(s, rng.random() < s * s)
    for s in (0.0, 0.2, 0.55, 1.0):
        expected = sum(w * m.predict_one(s) for w, m in zip(cal.weights, cal.members, strict=True))
        assert cal.predict_one(s) == pytest.approx(expected, abs=1e-15)
    assert cal.predict_many([0.2, 0.55]) == pytest.approx(
        [cal.predict_one(0.2), cal.predict_one(0.55)], abs=1e-12
    )


def test_by_name_the_members_are_resolved_as_the_controller_resolves_them():
    cal = resolve("ewa", vote_members=10)
    platt = resolve("platt", vote_members=10)
    assert type(cal) is EWACalibrator
    assert cal.members[0].eps == platt.eps and cal.members[0].gamma == platt.gamma
    given_object = make("histogram", n_bins=3)
    mixed = EWACalibrator(calibrators=(given_object, "platt"))
    assert mixed.members[0].n_bins == 3 and mixed.members[0] is not given_object


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"calibrators": ()}, ValueError, r"at least one calibrator, got \(\)"),
        ({"calibrators": "platt"}, TypeError, "a tuple of names or Calibrators, got 'platt'"),
        ({"calibrators": ("platt", 42)}, TypeError, "names or Calibrators, got 42"),
        ({"calibrators": ("sigmoid",)}, ValueError, "unknown calibrator 'sigmoid'"),
        ({"learning_rate": 0.0}, ValueError, "learning_rate must be finite and > 0, got 0.0"),
        ({"forgetting": 1.5}, ValueError, r"forgetting must be in \(0, 1\], got 1.5"),
        ({"share": 1.0}, ValueError, r"share must be in \[0, 1\), got 1.0"),
        ({"share": -0.1}, ValueError, "share must be finite and >= 0, got -0.1"),
        ({"share": float("nan")}, ValueError, "share must be finite and >= 0, got nan"),
        ({"share": "1/t"}, ValueError, r"share must be a number in \[0, 1\) or 'decreasing', "
                                       "got '1/t'"),
    ],
)
def test_bad_parameters_are_named(params, error, message):
    with pytest.raises(error, match=message):
        EWACalibrator(**params)


def test_a_calibrator_at_exactly_zero_does_not_make_the_weights_nan():
    # histogram binning without a prior answers 0 in a bin of negatives; a positive there has
    # an infinite log-loss, which is floored so that the weights stay finite
    cal = EWACalibrator(calibrators=(make("histogram", prior=0.0), "platt"))
    cal.learn_many([0.1] * 5, [False] * 5)
    cal.learn_one(0.1, True)
    # histogram's posterior weight is ~1e-300: what it keeps is the share after pair 6, 1/7
    # spread over 2 calibrators
    assert np.isfinite(cal.weights).all() and cal.weights[0] == pytest.approx(1 / 14)


class Constant(Calibrator):
    """A calibrator that answers `p` whatever it learns (an expert with known predictions)."""

    _ATTRIBUTES = ("p", "_n_seen")

    def __init__(self, p: float = 0.5):
        self.p = p

    def _learn(self, score, positive):
        pass

    def _predict(self, score):
        return self.p


def test_fixed_share_on_a_hand_worked_example():
    # experts 0.8 and 0.4, alpha = 0.1, eta = 1. y = True: the posterior is 0.5 * 0.8 : 0.5 * 0.4
    # = 2/3 : 1/3, shared: 0.9 * 2/3 + 0.05 = 0.65 and 0.35, so the next prediction is
    # 0.65 * 0.8 + 0.35 * 0.4 = 0.66. y = False: 0.65 * 0.2 : 0.35 * 0.6 = 13/34 : 21/34, shared.
    cal = EWACalibrator(calibrators=(Constant(0.8), Constant(0.4)), share=0.1)
    cal.learn_one(0.5, True)
    assert cal.weights == pytest.approx([0.65, 0.35], abs=1e-15)
    assert cal.predict_one(0.5) == pytest.approx(0.66, abs=1e-15)
    cal.learn_one(0.5, False)
    assert cal.weights == pytest.approx([0.9 * 13 / 34 + 0.05, 0.9 * 21 / 34 + 0.05], abs=1e-15)


def test_the_decreasing_share_on_a_hand_worked_example():
    # as above with alpha = 1/(t + 1) after pair t: 1/2 after the first, 1/3 after the second.
    # y = True: 2/3 : 1/3, shared 1/2 * 2/3 + 1/4 = 7/12 and 5/12; y = False: 7/12 * 0.2 :
    # 5/12 * 0.6 = 7/22 : 15/22, shared 2/3 * 7/22 + 1/6 = 25/66 and 41/66.
    cal = EWACalibrator(calibrators=(Constant(0.8), Constant(0.4)), share="decreasing")
    cal.learn_one(0.5, True)
    assert cal.weights == pytest.approx([7 / 12, 5 / 12], abs=1e-15)
    cal.learn_one(0.5, False)
    assert cal.weights == pytest.approx([25 / 66, 41 / 66], abs=1e-15)


def test_fixed_share_follows_a_switch_that_the_mixture_does_not():
    # expert 0 is right for 500 pairs, then expert 1: the mixture needs about 500 pairs to come
    # back, the shared weights a handful
    experts = (Constant(0.9), Constant(0.1))
    shared = EWACalibrator(calibrators=experts, share=0.01)
    mixture = EWACalibrator(calibrators=experts, share=0.0)
    for y in [True] * 500 + [False] * 10:
        shared.learn_one(0.5, y)
        mixture.learn_one(0.5, y)
    assert shared.weights[1] > 0.99 and mixture.weights[1] < 1e-100


@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=2, max_size=120),
    flip_at=st.integers(0, 120),
    share=st.sampled_from([0.001, 0.05, 0.3, "decreasing"]),
)
def test_a_share_loses_at_most_its_bound_to_any_sequence_with_one_switch(
    pairs, flip_at, share
):
    # Herbster & Warmuth's bound for the log-loss, eta = 1: against every sequence of
    # calibrators with m <= 1 switches, ln K + the sum of ln(K / alpha_t) over the switches and
    # ln(1 / (1 - alpha_t)) over the other steps, alpha_t the share after pair t (constant, or
    # 1/(t + 1): ln K + ln n without a switch). The labels turn against the scores from
    # `flip_at` on, so the best calibrator may change.
    cal, alone = EWACalibrator(share=share), [make(n) for n in NAMES]
    k, n = len(NAMES), len(pairs)
    mixture, steps = 0.0, []
    for t, (s, y) in enumerate(pairs):
        y = y if t < flip_at else s < 0.5
        mixture += log_loss(min(max(cal.predict_one(s), 1e-300), 1 - 1e-16), y)
        steps.append([log_loss(min(max(e.predict_one(s), 1e-300), 1 - 1e-16), y) for e in alone])
        for expert in alone:
            expert.learn_one(s, y)
        cal.learn_one(s, y)
    prefix = np.vstack([np.zeros(k), np.cumsum(steps, axis=0)])  # prefix[t, i]: first t pairs
    no_switch = prefix[n].min()

    def one_switch(t: int) -> float:  # the best sequence switching after pair t
        return min(prefix[t, i] + prefix[n, j] - prefix[t, j]
                   for i in range(k) for j in range(k) if i != j)

    alphas = [1.0 / (t + 1) if share == "decreasing" else share for t in range(1, n)]
    stays = [math.log(1.0 / (1.0 - a)) for a in alphas]  # stays[t - 1]: after pair t
    assert mixture <= no_switch + math.log(k) + sum(stays) + 1e-9
    if share == "decreasing":
        assert math.log(k) + sum(stays) == pytest.approx(math.log(k * n))
    assert mixture <= min(
        one_switch(t) + math.log(k) + sum(stays) - stays[t - 1] + math.log(k / alphas[t - 1])
        for t in range(1, n)
    ) + 1e-9
