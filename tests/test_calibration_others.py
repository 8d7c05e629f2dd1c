"""Tests of the beta, isotonic and histogram calibrators, and of what every calibrator promises:
a monotone map after any training, validation before any change, the registry."""

from __future__ import annotations

import copy
import gc
import itertools
import math
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import betaln, expit
from sklearn.isotonic import IsotonicRegression

from streamboost.calibration import (
    CALIBRATORS,
    HistogramCalibrator,
    OnlineBetaCalibrator,
    OnlineIsotonicCalibrator,
    OnlinePlattCalibrator,
    beta_fit,
    make,
    pool_adjacent_violators,
)
from tests.calibrators import calibrator_state

GRID = np.linspace(0.0, 1.0, 201).tolist()


def non_decreasing(values) -> bool:
    return all(b >= a - 1e-12 for a, b in itertools.pairwise(values))


# ---------------------------------------------------------------- every calibrator


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(CALIBRATORS)),
    pairs=st.lists(
        st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=0, max_size=80
    ),
    one_class=st.sampled_from([None, True, False]),
)
def test_every_calibrator_stays_monotone_and_in_the_unit_interval(name, pairs, one_class):
    cal = make(name)
    for s, y in pairs:
        cal.learn_one(s, y)
    if one_class is not None:  # then a stretch of one class at the highest / lowest scores
        for s in (0.99, 0.9, 0.8, 0.2, 0.1) * 10:
            cal.learn_one(s, one_class)
    probas = [cal.predict_one(s) for s in GRID]
    assert all(0.0 <= p <= 1.0 and math.isfinite(p) for p in probas)
    assert non_decreasing(probas), name
    assert cal.predict_many(GRID).tolist() == probas  # each score's predict_one, to the bit


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_memory_does_not_grow_with_the_stream(name):
    """O(1) memory an example: the whole state (its pickle) after 80,000 pairs is within 5 % of
    its size after 20,000 (counts past 65,535 take four bytes, and the ensemble's pickle shares
    fewer equal floats: about 3 % for `"ewa"`); a calibrator that kept its scores would grow
    fourfold."""
    cal, rng, sizes = make(name), random.Random(0), []
    for _ in range(2):
        for _ in range(20_000 if not sizes else 60_000):
            score = rng.random()
            cal.learn_one(score, rng.random() < score)
        sizes.append(len(pickle.dumps(cal)))
    assert sizes[1] <= sizes[0] * 1.05, sizes


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_three_negatives_at_a_high_score_do_not_reverse_the_map(name):
    # The reversal seen in the Platt calibrator before it was constrained: after three negatives
    # at s = 0.8, p(0.2) came out above p(0.8).
    cal = make(name)
    for _ in range(3):
        cal.learn_one(0.8, False)
    assert cal.predict_one(0.2) <= cal.predict_one(0.8)


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
@pytest.mark.parametrize(
    ("score", "y"), [(float("nan"), True), (1.5, True), (-0.1, False), ("0.5", True),
                     (True, True), (0.5, 2), (0.5, "yes"), (float("inf"), False)],
)
def test_bad_input_is_refused_before_any_change(name, score, y):
    cal = make(name)
    cal.learn_many([0.3, 0.7], [False, True])
    before = pickle.dumps(cal)
    with pytest.raises(ValueError, match=r"must be"):
        cal.learn_one(score, y)
    with pytest.raises(ValueError, match=r"must be"):
        cal.learn_many([0.4, score], [True, y])  # the good first pair is not learned either
    assert pickle.dumps(cal) == before


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
@pytest.mark.parametrize(("scores", "named"), [([0.3, None], "None at position 1"),
                                               (np.array([0.2, 0.4, np.nan]), "nan at position 2"),
                                               ((0.5, 1.5), "1.5 at position 1"),
                                               # a numpy scalar by its value, not its repr
                                               ([0.3, np.float32(1.5)], "1.5 at position 1")])
def test_a_bad_score_to_predict_is_named_as_given_and_where(name, scores, named):
    """numpy makes a None nan: `predict_many`'s message named nan (as `np.float64(nan)`), not
    None, and not where it was (`learn_many` checks pair by pair, naming the pair)."""
    calibrator = make(name)
    calibrator.learn_many([0.2, 0.4, 0.7, 0.9], [False, False, True, True])
    before = calibrator_state(calibrator)
    message = f"^score must be a finite real in \\[0, 1\\], got {named}$"
    with pytest.raises(ValueError, match=message):
        calibrator.predict_many(scores)
    assert calibrator_state(calibrator) == before


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_learn_many_is_learn_one_pair_by_pair_bit_for_bit(name):
    """A minibatch of pairs (`learn_many`, the wrappers' `_update_many`; Platt's in one
    compiled call) leaves every calibrator's state, every float of it, where `learn_one` pair
    by pair does."""
    rng = np.random.default_rng(5)
    scores = np.concatenate([rng.random(300), [0.0, 1.0, 1e-12, 1 - 1e-12], rng.random(200)])
    labels = np.concatenate([rng.random(304) < scores[:304], np.ones(200, bool)])  # then one class
    many, one = make(name), make(name)
    for start in range(0, len(scores), 64):
        batch = slice(start, start + 64)
        many.learn_many(scores[batch].tolist(), labels[batch].tolist())
        for s, y in zip(scores[batch].tolist(), labels[batch].tolist(), strict=True):
            one.learn_one(s, y)
        assert calibrator_state(many) == calibrator_state(one)
    assert many.n_seen == one.n_seen == len(scores)


def test_make_names_each_calibrator_and_refuses_others():
    for name, cls in CALIBRATORS.items():
        assert type(make(name)) is cls
    with pytest.raises(ValueError, match="unknown calibrator 'sigmoid'"):
        make("sigmoid")
    with pytest.raises(ValueError, match="unknown calibrator 42"):
        make(42)


@pytest.mark.parametrize(
    ("cls", "params", "message"),
    [
        (HistogramCalibrator, {"n_bins": 0}, "n_bins must be an int >= 1, got 0"),
        (HistogramCalibrator, {"n_bins": 2.5}, "n_bins must be an int >= 1, got 2.5"),
        (HistogramCalibrator, {"n_bins": 100_001},
         r"n_bins must be at most 100000 \(bounded memory\), got 100001"),
        (HistogramCalibrator, {"forgetting": 0.0}, r"forgetting must be in \(0, 1\], got 0.0"),
        (HistogramCalibrator, {"prior": -1.0}, "prior must be finite and >= 0, got -1.0"),
        (OnlineIsotonicCalibrator, {"prior": float("nan")}, "prior must be finite"),
        (OnlineBetaCalibrator, {"gamma": 1e-200}, r"gamma must be in \[1e-8, 1e8\]"),
        (OnlineBetaCalibrator, {"eps": 0.5}, r"eps must be a real in \(0, 0.5\)"),
        (OnlineBetaCalibrator, {"radius": 1.0}, "radius must contain the start"),
        (OnlineBetaCalibrator, {"forgetting": float("nan")}, "forgetting must be in"),
        # not numbers at all, bools included, are named as such
        (HistogramCalibrator, {"forgetting": "0.9"}, "forgetting must be a real number in "
                                                     r"\(0, 1\], got '0.9'"),
        (OnlineBetaCalibrator, {"forgetting": True}, "forgetting must be a real number"),
        (OnlineBetaCalibrator, {"gamma": "1"}, "gamma must be a real number, got '1'"),
        (OnlineBetaCalibrator, {"radius": None}, "radius must be a real number, got None"),
    ],
)
def test_bad_parameters_are_named(cls, params, message):
    with pytest.raises(ValueError, match=message):
        cls(**params)


@pytest.mark.parametrize("gamma", [True, "1", float("nan"), float("inf"), -1.0, 0.0, 5e-9,
                                   1.1e8])
def test_one_check_refuses_a_step_for_platt_beta_and_a_grid_cell(gamma):
    # Platt's, beta's and experiments.Cell's step go through calibration.base.check_step
    # (0.8.54; Cell and each calibrator had a copy of the range before)
    from streamboost.experiments.grid import Cell

    error = r"must be a real number, got" if isinstance(gamma, bool | str) else (
        r"must be in \[1e-8, 1e8\], got")
    for build in (OnlinePlattCalibrator, OnlineBetaCalibrator):
        with pytest.raises(ValueError, match=r"^gamma " + error):
            build(gamma=gamma)
    with pytest.raises((TypeError, ValueError), match=r"^calibrator_gamma "):
        Cell(dataset="phishing", policy="both", calibrator_gamma=gamma)
    for gamma in (1e-8, 0.1, 1, 1e8):  # the ends included, an int taken
        assert OnlinePlattCalibrator(gamma=gamma).gamma == OnlineBetaCalibrator(gamma=gamma).gamma


# ---------------------------------------------------------------- pooling


def test_pool_adjacent_violators_matches_scikit_learn():
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(1, 30))
        values, weights = rng.random(n), rng.random(n) + 0.01
        expected = IsotonicRegression().fit(np.arange(n), values, sample_weight=weights)
        np.testing.assert_allclose(
            pool_adjacent_violators(values.tolist(), weights.tolist()),
            expected.predict(np.arange(n)),
            rtol=0,
            atol=1e-12,
        )


# ---------------------------------------------------------------- isotonic


@pytest.mark.parametrize("n_bins", [10, 37])
def test_isotonic_on_bin_grid_scores_is_batch_isotonic_regression(n_bins):
    """With one score value per bin and no prior, the online fit is scikit-learn's."""
    rng = np.random.default_rng(n_bins)
    values = (np.arange(n_bins) + rng.uniform(0.05, 0.95, n_bins)) / n_bins
    scores = rng.choice(values, size=3000)
    labels = rng.random(3000) < expit(6.0 * (scores - 0.5)) * 0.8 + 0.1 * (scores > 0.7)
    cal = OnlineIsotonicCalibrator(n_bins=n_bins, prior=0.0)
    cal.learn_many(scores.tolist(), labels.tolist())
    reference = IsotonicRegression(out_of_bounds="clip").fit(scores, labels)
    queries = np.linspace(0.0, 1.0, 401)
    np.testing.assert_allclose(
        [cal.predict_one(q) for q in queries], reference.predict(queries), rtol=0, atol=1e-12
    )


def test_isotonic_on_continuous_scores_is_within_the_bin_resolution():
    rng = np.random.default_rng(0)
    scores = rng.random(20_000)
    labels = rng.random(20_000) < scores**2
    cal = OnlineIsotonicCalibrator(n_bins=50, prior=0.0)
    cal.learn_many(scores.tolist(), labels.tolist())
    reference = IsotonicRegression(out_of_bounds="clip").fit(scores, labels)
    queries = np.linspace(0.02, 0.98, 97)
    online = np.array([cal.predict_one(q) for q in queries])
    assert np.max(np.abs(online - reference.predict(queries))) < 0.08
    assert np.max(np.abs(online - queries**2)) < 0.05  # and both find the true map


def test_isotonic_and_histogram_start_near_the_identity():
    iso, hist = OnlineIsotonicCalibrator(n_bins=10), HistogramCalibrator(n_bins=10)
    for s in (0.05, 0.2, 0.55, 0.95):
        assert iso.predict_one(s) == pytest.approx(s)
        assert hist.predict_one(s) == pytest.approx(math.floor(s * 10) / 10 + 0.05)


# ---------------------------------------------------------------- histogram


def test_histogram_is_the_batch_positive_rate_per_bin_when_already_ordered():
    rng = np.random.default_rng(1)
    scores = rng.random(5000)
    labels = rng.random(5000) < scores
    cal = HistogramCalibrator(n_bins=10, prior=2.0)
    cal.learn_many(scores.tolist(), labels.tolist())
    bins = np.minimum((scores * 10).astype(int), 9)
    for j in range(10):
        inside = bins == j
        expected = (labels[inside].sum() + 2.0 * (j + 0.5) / 10) / (inside.sum() + 2.0)
        assert cal.predict_one((j + 0.5) / 10) == pytest.approx(expected, abs=1e-12)


def test_without_a_prior_an_empty_bin_takes_its_lower_neighbours_rate():
    # bins 2 (all negative) and 7 (all positive) of 10 have examples; the others are empty: up
    # to bin 6 they read bin 2's rate, from bin 7 on bin 7's, and below bin 2 (no lower
    # neighbour) the lowest bin's; by one score and by an array alike
    cal = HistogramCalibrator(n_bins=10, prior=0.0)
    cal.learn_many([0.25, 0.22, 0.75, 0.71], [False, False, True, True])
    centres = [(j + 0.5) / 10 for j in range(10)]
    expected = [0.0] * 7 + [1.0] * 3
    assert [cal.predict_one(c) for c in centres] == expected
    assert cal._predict_many(np.array(centres)).tolist() == expected


@pytest.mark.parametrize("cls", [HistogramCalibrator, OnlineIsotonicCalibrator])
def test_forgetting_equals_explicit_discounting_also_across_a_rescale(cls):
    """Stored counts grow by 1/forgetting per example and are rescaled before they overflow;
    the estimates equal counts discounted explicitly at every step."""
    lam, n_bins = 0.5, 4  # 1/0.5^k passes the rescale point after ~330 examples
    rng = np.random.default_rng(2)
    scores, labels = rng.random(1000), rng.random(1000) < 0.5
    cal = cls(n_bins=n_bins, forgetting=lam, prior=0.0)
    n, pos, ssum = np.zeros(n_bins), np.zeros(n_bins), np.zeros(n_bins)
    for s, y in zip(scores, labels, strict=True):
        cal.learn_one(float(s), bool(y))
        n, pos, ssum = n * lam, pos * lam, ssum * lam
        j = min(int(s * n_bins), n_bins - 1)
        n[j] += 1
        pos[j] += y
        ssum[j] += s
    used = n > 0
    fitted = pool_adjacent_violators((pos[used] / n[used]).tolist(), n[used].tolist())
    if cls is HistogramCalibrator:
        expected = [fitted[int(np.sum(used[: j + 1])) - 1] for j in range(n_bins)]
        got = [cal.predict_one((j + 0.5) / n_bins) for j in range(n_bins)]
    else:
        xs = ssum[used] / n[used]
        expected = np.interp(GRID, xs, fitted).tolist()
        got = [cal.predict_one(g) for g in GRID]
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
    assert cal._weight < 1e101


@pytest.mark.parametrize("name", ["histogram", "isotonic", "beta", "platt"])
def test_forgetting_follows_a_drift(name):
    params = {"forgetting": 0.99}
    cal = make(name, **params)
    rng = np.random.default_rng(4)
    for flip in (False, True):  # calibrated, then every positive rate moved to 1 - 0.8 s
        for s in rng.random(3000):
            p = 1.0 - 0.8 * s if flip else s
            cal.learn_one(float(s), bool(rng.random() < max(p, 0.5 * s)))
    # After the drift the rate is max(1 - 0.8 s, s / 2): 0.9 at s = 0.125, 0.5 at s = 0.875.
    # A monotone map cannot follow it, but it must give up the old slope (old: 0.125 vs 0.875).
    assert cal.predict_one(0.875) - cal.predict_one(0.125) < 0.3


# ---------------------------------------------------------------- beta


def test_beta_online_follows_the_batch_fit():
    rng = np.random.default_rng(5)
    s = rng.uniform(0.01, 0.99, 5000)
    y = rng.random(5000) < expit(2.0 * np.log(s) - 0.5 * np.log1p(-s) + 0.3)
    cal = OnlineBetaCalibrator()
    cal.learn_many(s.tolist(), y.tolist())
    # The three features are nearly collinear, so the coefficients are weakly identified; the
    # maps agree closely (measured: 0.016 at most).
    a, b, c = beta_fit(s, y)
    q = np.linspace(0.01, 0.99, 99)
    batch = expit(a * np.log(q) - b * np.log1p(-q) + c)
    assert np.max(np.abs(cal.predict_many(q) - batch)) < 0.025


def test_beta_fit_refuses_unpaired_or_no_pairs_by_name():
    with pytest.raises(ValueError, match=r"scores and labels differ in length: 2 != 1"):
        beta_fit([0.2, 0.3], [True])
    with pytest.raises(ValueError, match="beta_fit needs at least one"):
        beta_fit([], [])


@pytest.mark.parametrize("theta", [(1.0, 1.0, -800.0), (-1.0, -1.0, 800.0), (0.0, 0.0, -746.0),
                                   (3.0, 0.5, 2.0)])
def test_beta_map_is_scipys_expit_also_where_the_exponential_overflows(theta):
    # math.exp overflows past a margin of -709 where C's exp gives inf: the Python twin must
    # give scipy's (and the kernel's) 0.0 there, not raise
    from streamboost.calibration.beta import _EPS, _PREDICT, beta_predict

    consts = OnlineBetaCalibrator()._consts
    eps = consts[_EPS]  # the scores' clip
    for s in [0.0, 1e-300, 0.3, 0.5, 0.9, 1.0]:
        c = min(max(s, eps), 1.0 - eps)
        margin = theta[0] * math.log(c) + theta[1] * -math.log1p(-c) + theta[2]
        assert beta_predict(theta, consts, s) == _PREDICT(theta, consts, s) == expit(margin)


def test_beta_recovers_the_closed_form_of_beta_distributed_scores():
    """Kull et al. 2017, Section 3: scores Beta(a1, b1) for positives and Beta(a0, b0) for
    negatives give exactly logit p = (a1 - a0) ln s - (b0 - b1)(-ln(1 - s))... i.e. the beta map
    with a = a1 - a0, b = b0 - b1, c = ln B(a0, b0) - ln B(a1, b1) + ln(pi / (1 - pi))."""
    a1, b1, a0, b0, pi = 4.0, 2.0, 2.0, 3.0, 0.4
    a, b = a1 - a0, b0 - b1
    c = betaln(a0, b0) - betaln(a1, b1) + math.log(pi / (1 - pi))
    rng = np.random.default_rng(6)
    n = 20_000
    y = rng.random(n) < pi
    s = np.where(y, rng.beta(a1, b1, n), rng.beta(a0, b0, n))
    batch = beta_fit(s, y)
    cal = OnlineBetaCalibrator()
    cal.learn_many(s.tolist(), y.tolist())
    for fitted in (batch, cal.coefficients):
        np.testing.assert_allclose(fitted, (a, b, c), atol=0.15)
    # The map itself, over the bulk of the scores.
    q = np.linspace(0.05, 0.95, 19)
    truth = expit(a * np.log(q) - b * np.log1p(-q) + c)
    assert np.max(np.abs(cal.predict_many(q) - truth)) < 0.02


def test_beta_starts_at_the_identity_and_stays_in_its_constraints():
    cal = OnlineBetaCalibrator()
    for s in (0.01, 0.3, 0.5, 0.99):
        assert cal.predict_one(s) == pytest.approx(s, abs=1e-12)
    for _ in range(500):  # labels against the score: a, b are held at 0 (a constant map)
        cal.learn_one(0.95, False)
        cal.learn_one(0.05, True)
    a, b, _ = cal.coefficients
    assert a >= 0.0 and b >= 0.0
    assert math.hypot(*cal.coefficients) <= cal.radius + 1e-9


def test_beta_is_held_in_its_ball_where_the_labels_push_it_out():
    # scores that separate the classes perfectly grow a and b without bound
    cal = OnlineBetaCalibrator(radius=2.0)
    for _ in range(2_000):
        cal.learn_one(0.9, True)
        cal.learn_one(0.1, False)
    assert math.hypot(*cal.coefficients) == pytest.approx(2.0, abs=1e-9)
    assert min(cal.coefficients[:2]) >= 0.0


def test_beta_projection_is_the_nearest_point_of_the_orthant_in_the_h_norm():
    """`_project_orthant` (the twin of the compiled step's projection) against scipy's bounded
    minimiser of the same strictly convex quadratic, on random curvatures and points."""
    from scipy.optimize import minimize

    from streamboost.calibration.beta import _project_orthant

    rng = np.random.default_rng(3)
    for _ in range(200):
        g = rng.normal(size=(3, 3))
        h = g @ g.T + 0.1 * np.eye(3)
        theta = rng.normal(scale=3.0, size=3)
        theta[rng.integers(2)] = -rng.uniform(0.1, 5.0)  # a or b negative (or both, by chance)

        def distance(x, theta=theta, h=h):
            d = x - theta
            return d @ h @ d, 2.0 * h @ d

        best = minimize(distance, np.maximum(theta, 0.0), jac=True, method="L-BFGS-B",
                        bounds=[(0.0, None), (0.0, None), (None, None)],
                        options={"ftol": 1e-15, "gtol": 1e-12})
        ours = _project_orthant(tuple(theta), [h[0, 0], h[0, 1], h[0, 2], h[1, 1], h[1, 2],
                                               h[2, 2]])
        assert min(ours[:2]) >= 0.0
        assert ours == pytest.approx(best.x, abs=1e-6)


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_with_forgetting_every_calibrator_recovers_from_a_long_one_class_stretch(name):
    """100,000 negatives, then calibrated scores: with forgetting 0.999 (a memory of about 1,000
    examples) the map is back near the identity within 20,000 examples. Without forgetting a
    calibrator estimates the map of the whole history, which the stretch dominates."""
    rng = np.random.default_rng(8)
    cal = make(name, forgetting=0.999)
    for s in rng.random(100_000).tolist():
        cal.learn_one(s, False)
    assert cal.predict_one(0.9) < 0.2
    scores = rng.random(20_000)
    cal.learn_many(scores.tolist(), (rng.random(20_000) < scores).tolist())
    assert abs(cal.predict_one(0.5) - 0.5) < 0.1
    assert cal.predict_one(0.9) > 0.75 and cal.predict_one(0.1) < 0.25


@settings(max_examples=60, deadline=None)
@given(
    cls=st.sampled_from([HistogramCalibrator, OnlineIsotonicCalibrator]),
    n_bins=st.integers(1, 30),
    pairs=st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), max_size=120),
    every=st.integers(1, 4),
)
def test_incremental_pooling_equals_pooling_from_scratch(cls, n_bins, pairs, every):
    """With a prior and no forgetting, the pooling is updated around the changed bin; it must
    give what pooling every bin from scratch gives, whether predictions come after every update
    or after several."""
    cal, reference = cls(n_bins=n_bins), cls(n_bins=n_bins)
    for i, (s, y) in enumerate(pairs):
        cal.learn_one(s, y)
        reference.learn_one(s, y)
        if i % every == 0:
            reference._blocks = None  # force a full pooling
            for q in (0.0, s, 0.37, 1.0):
                assert cal.predict_one(q) == pytest.approx(reference.predict_one(q), abs=1e-12)


def trained(name: str, n: int, seed: int):
    """The calibrator `name` after `n` pairs whose scores are calibrated (P(y | s) = s)."""
    rng = random.Random(seed)
    cal = make(name)
    for _ in range(n):
        s = rng.random()
        cal.learn_one(s, rng.random() < s)
    return cal


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_a_copy_predicts_as_the_original_did_and_learns_on_its_own(name):
    cal = trained(name, 400, seed=4)
    grid = [i / 50 for i in range(51)]
    cal.predict_many(grid)  # pooled blocks cached, if the calibrator keeps any
    frozen = cal.copy()
    expected = cal.predict_many(grid).tolist()
    assert frozen.predict_many(grid).tolist() == expected
    assert frozen.n_seen == cal.n_seen == 400
    for _ in range(300):
        cal.learn_one(0.9, False)  # the original moves far...
    assert frozen.predict_many(grid).tolist() == expected  # ...the copy does not
    assert cal.predict_one(0.9) < expected[45]
    frozen.learn_one(0.1, True)
    assert frozen.predict_one(0.1) > expected[5] and cal.n_seen == 700


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_a_pair_predicts_each_calibrators_floats(name):
    # The reward scores a round with the calibrator before and after it: `_predict_pair` may
    # share their work or their array but must give each one's `_predict_many`, bit for bit.
    scores = np.array([0.0, 1e-9, 0.25, 0.5, 0.75, 1.0 - 1e-9, 1.0, *np.linspace(0, 1, 57)])
    before = trained(name, 300, seed=6)
    after = before.copy()
    for s in np.linspace(0.05, 0.95, 40).tolist():
        after.learn_one(s, s < 0.3)  # a different map
    pair = before._predict_pair(after, scores)
    assert pair.shape == (2, len(scores))
    assert pair[0].tolist() == before._predict_many(scores).tolist()
    assert pair[1].tolist() == after._predict_many(scores).tolist()
    assert pair[0].tolist() != pair[1].tolist()


def test_a_platt_pair_of_other_features_predicts_each_its_own():
    scores = np.linspace(0.0, 1.0, 33)
    pairs = [(OnlinePlattCalibrator(), OnlinePlattCalibrator(feature="score")),
             (OnlinePlattCalibrator(eps=1e-3), OnlinePlattCalibrator()),
             (OnlinePlattCalibrator(), make("beta"))]
    for before, after in pairs:
        for s in np.linspace(0.05, 0.95, 30).tolist():
            before.learn_one(s, s > 0.4)
            after.learn_one(s, s > 0.6)
        pair = before._predict_pair(after, scores)
        assert pair[0].tolist() == before._predict_many(scores).tolist()
        assert pair[1].tolist() == after._predict_many(scores).tolist()


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_each_calibrators_copy_is_the_bases_and_shares_nothing_that_learns(name):
    # The controller copies its calibrator on every measured minibatch: each calibrator's own
    # copy shares what never changes in place and must equal the base's generic copy.
    from streamboost.calibration.base import Calibrator

    cal = trained(name, 200, seed=7)
    cal.predict_one(0.5)  # pooled blocks cached, if the calibrator keeps any
    fast, generic = cal.copy(), Calibrator.copy(cal)
    assert type(fast) is type(cal) and type(cal).copy is not Calibrator.copy
    assert calibrator_state(fast) == calibrator_state(generic)
    before = copy.deepcopy(calibrator_state(cal))  # not the lists themselves
    rng = random.Random(8)
    for _ in range(300):  # the copy learns a different map, predicting as it goes
        s = rng.random()
        fast.predict_one(s)
        fast.learn_one(s, rng.random() > s)
    assert calibrator_state(cal) == before  # the original's state, untouched
    assert calibrator_state(fast) != before


@pytest.mark.parametrize("name", ["histogram", "isotonic", "beta", "ewa"])
def test_fit_forgets_and_replays_the_batch_through_a_fresh_calibrator(name):
    rng = random.Random(5)
    scores = [rng.random() for _ in range(200)]
    labels = [rng.random() < s for s in scores]
    cal = make(name)
    cal.learn_many([0.9] * 50, [False] * 50)  # something to forget
    cal.fit(scores, labels)
    fresh = make(name)
    fresh.learn_many(scores, labels)
    grid = [i / 20 for i in range(21)]
    assert [cal.predict_one(s) for s in grid] == [fresh.predict_one(s) for s in grid]
    assert cal.n_seen == 200
    with pytest.raises(ValueError):
        cal.fit([0.5, float("nan")], [True, False])
    assert [cal.predict_one(s) for s in grid] == [fresh.predict_one(s) for s in grid]


@pytest.mark.parametrize("name", sorted(CALIBRATORS))
def test_copy_and_fit_go_by_the_listed_attributes_and_keep_the_original_inline(name):
    # The controller copies its calibrator once a measured minibatch: by `_ATTRIBUTES`, not
    # through `__dict__`, which would slow the live calibrator for good (streamboost.state).
    cal = trained(name, 200, seed=5)
    cal.predict_one(0.5)
    frozen = cal.copy()
    assert not any(isinstance(r, dict) and "_n_seen" in r for r in gc.get_referents(cal))
    refit = make(name)
    refit.fit([0.2, 0.7, 0.9], [False, True, True])
    assert refit.n_seen == 3
    # every attribute listed, no more (vars() materialises: only now)
    assert set(vars(frozen)) == set(vars(cal)) == set(type(cal)._ATTRIBUTES)
    assert set(vars(refit)) == set(type(refit)._ATTRIBUTES)


@pytest.mark.parametrize(("name", "params"), [
    ("histogram", {}), ("histogram", {"n_bins": 7, "prior": 0.0}),
    ("histogram", {"n_bins": 50, "forgetting": 0.99}),
    ("isotonic", {}), ("isotonic", {"prior": 0.0}), ("isotonic", {"n_bins": 9, "forgetting": 0.9}),
])
def test_the_binned_calibrators_predict_many_is_their_predict_of_each_score(name, params):
    # one compiled loop over the array: each score's own `_predict`, bit for bit
    cal = make(name, **params)
    rng = random.Random(11)
    probes = [0.0, 1.0, 1e-12, 1 - 1e-12, 0.5, *(j / 7 for j in range(8)),
              *(j / 50 for j in range(51))]  # bin edges
    for step in range(600):
        if step in (0, 3, 40, 599):  # untrained, a few examples (empty bins), then many
            cal.predict_one(0.5)  # pooled now: `_means` are the map's points
            scores = np.array(probes + [rng.random() for _ in range(100)]
                              + cal._means)  # a point's own score: a tie in the search
            expected = [cal._predict(s) for s in scores.tolist()]
            assert cal._predict_many(scores).tolist() == expected
            assert cal._predict_many(scores[::2]).tolist() == expected[::2]  # a strided view
        s = rng.random() ** 2
        cal.learn_one(s, rng.random() < s)


@pytest.mark.parametrize(("name", "params"), [
    *((name, {"gamma": gamma}) for name in ("platt", "beta") for gamma in (1.0, 0.1)),
    ("ewa", {}), ("ewa", {"share": 0.0, "learning_rate": 4.0}), ("isotonic", {}),
    ("histogram", {}),
])
def test_every_calibrators_predict_many_is_its_predict_of_each_score(name, params):
    # a frame's probabilities must be its rows' one by one (`CalibratedClassifier`'s
    # predict_proba_many): numpy's log differs from the C library's in the last bit for some
    # scores, which beta's map took until 0.8.53, and a matrix product adds in BLAS's order,
    # which EWA's average took until 0.8.60
    cal = make(name, **params)
    rng = random.Random(5)
    scores = np.array([0.0, 1.0, 1e-12, 1 - 1e-12, *(rng.random() for _ in range(3_000))])
    for step in range(400):
        if step in (0, 50, 399):
            expected = [cal._predict(s) for s in scores.tolist()]
            assert cal._predict_many(scores).tolist() == expected
            assert cal._predict_many(scores[::3]).tolist() == expected[::3]  # a strided view
        s = rng.random()
        cal.learn_one(s, rng.random() < s ** 0.5)
