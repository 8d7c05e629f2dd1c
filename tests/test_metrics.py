"""Tests of streamboost.metrics against hand computations, numpy and scikit-learn."""

from __future__ import annotations

import copy
import itertools
import math
import pickle

import numpy as np
import pytest
from river import datasets, evaluate, linear_model, preprocessing, utils
from river import metrics as river_metrics
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from streamboost import metrics
from streamboost.decision import cost_threshold

ALL = [
    metrics.BrierScore,
    metrics.ExpectedCost,
    metrics.BrierCurve,
    metrics.BrierDecomposition,
    metrics.ExpectedCalibrationError,
    metrics.SmoothECE,
]


def _sample(n=3000, prior=0.5, seed=0, quantise=False):
    """Labels and imperfectly calibrated probabilities from a seeded generator."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    score = rng.normal(size=n) + 1.5 * y
    p = 1.0 / (1.0 + np.exp(-1.7 * (score - 0.6)))
    if quantise:  # many values exactly on bin edges and thresholds
        p = np.round(p * 20) / 20
    return y, p


def _fill(metric, y, p, w=None):
    for i, (yt, pp) in enumerate(zip(y, p, strict=True)):
        metric.update(bool(yt), float(pp), 1.0 if w is None else float(w[i]))
    return metric


# ---------------------------------------------------------------- common behaviour


@pytest.mark.parametrize("cls", ALL)
def test_river_flags(cls):
    m = cls()
    assert m.requires_labels is False
    assert m.bigger_is_better is False
    assert m.works_with(linear_model.LogisticRegression())
    assert not m.works_with(linear_model.LinearRegression())
    assert isinstance(m, river_metrics.base.BinaryMetric)
    assert m.get() == 0.0  # empty metric, River's convention


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize(
    ("y_pred", "error", "match"),
    [
        (math.nan, ValueError, "nan"),
        (1.5, ValueError, "1.5"),
        ({True: -0.2, False: 1.2}, ValueError, r"-0\.2"),
        ({"a": 0.1, "b": 0.2, True: 0.7}, ValueError, "binary"),
        (True, TypeError, "predict_proba_one"),
        ("0.3", TypeError, "0.3"),
    ],
)
def test_bad_probabilities_raise_before_any_change(cls, y_pred, error, match):
    m = _fill(cls(), [True, False, True], [0.8, 0.3, 0.55])
    before = pickle.dumps(m)
    with pytest.raises(error, match=match):
        m.update(True, y_pred)
    with pytest.raises(ValueError, match="weight"):
        m.update(True, 0.5, -1.0)
    assert pickle.dumps(m) == before


@pytest.mark.parametrize("cls", ALL)
def test_dict_float_and_labels_agree(cls):
    y, p = _sample(300, seed=1)
    as_float = _fill(cls(), y, p)
    as_dict = cls()
    as_ints = cls(pos_label=1)
    as_strings = cls(pos_label="yes")
    for yt, pp in zip(y, p, strict=True):
        as_dict.update(bool(yt), {False: 1 - pp, True: float(pp)})
        as_ints.update(int(yt), {0: 1 - pp, 1: float(pp)})
        as_strings.update("yes" if yt else "no", {"no": 1 - pp, "yes": float(pp)})
    assert as_dict.get() == pytest.approx(as_float.get(), abs=1e-12)
    assert as_ints.get() == pytest.approx(as_float.get(), abs=1e-12)
    assert as_strings.get() == pytest.approx(as_float.get(), abs=1e-12)
    # one name for the positive label, as in the models; River's name reads it
    assert (as_strings.pos_label, as_strings.pos_val, as_strings.clone().pos_label) == ("yes",) * 3


@pytest.mark.parametrize("cls", ALL)
def test_missing_positive_key_means_zero(cls):
    a, b = cls(), cls()
    for m, pred_neg, pred_pos in ((a, {}, {True: 1.0}), (b, 0.0, 1.0)):
        m.update(True, pred_neg)
        m.update(False, pred_neg)
        m.update(True, pred_pos)
    a.update(False, {False: 1.0})
    b.update(False, 0.0)
    assert a.get() == b.get()


@pytest.mark.parametrize("cls", ALL)
def test_weights_equal_repetition_and_revert_undoes(cls):
    y, p = _sample(200, seed=2)
    w = np.random.default_rng(3).integers(1, 4, size=len(y))
    weighted = _fill(cls(), y, p, w)
    repeated = _fill(cls(), np.repeat(y, w), np.repeat(p, w))
    assert weighted.get() == pytest.approx(repeated.get(), abs=1e-12)
    m = _fill(cls(), y[:150], p[:150])
    extra = copy.deepcopy(m)
    _fill(extra, y[150:], p[150:])
    for yt, pp in zip(y[150:], p[150:], strict=True):
        extra.revert(bool(yt), float(pp))
    assert extra.get() == pytest.approx(m.get(), abs=1e-12)


@pytest.mark.parametrize("cls", ALL)
def test_a_refused_revert_leaves_the_metric_as_it_was(cls):
    # a revert of weight never added is refused; its label must not become the metric's
    # negative label either (the check came after the label was learned, until 0.8.39)
    metric = cls(pos_label="spam")
    metric.update("spam", 0.8)
    before = pickle.dumps(metric)
    with pytest.raises(ValueError, match=r"cannot revert weight 2\.0"):
        metric.revert("ham", 0.3, w=2.0)
    assert pickle.dumps(metric) == before
    metric.update("ham", 0.3)  # accepted: now it is the negative label
    assert pickle.dumps(metric) != before


@pytest.mark.parametrize("cls", ALL)
def test_memory_does_not_grow_with_the_stream(cls):
    y, p = _sample(2000, seed=4)
    short = _fill(cls(), y[:50], p[:50])
    long = _fill(cls(), y, p)
    assert len(pickle.dumps(long)) <= len(pickle.dumps(short)) + 64


def test_progressive_val_score_and_combination_with_river_metrics():
    def run(metric):
        model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
        return evaluate.progressive_val_score(datasets.Phishing(), model, metric)

    combo = run(
        river_metrics.LogLoss()
        + metrics.BrierScore()
        + metrics.ExpectedCost(c_fp=1.0, c_fn=4.0)
        + metrics.BrierCurve()
        + metrics.BrierDecomposition()
        + metrics.ExpectedCalibrationError()
    )
    alone = [
        run(m)
        for m in (
            metrics.BrierScore(),
            metrics.ExpectedCost(c_fp=1.0, c_fn=4.0),
            metrics.BrierCurve(),
            metrics.BrierDecomposition(),
            metrics.ExpectedCalibrationError(),
        )
    ]
    # Inside a combination the metrics still get probabilities and threshold them themselves.
    for inside, single in zip(combo[1:], alone, strict=True):
        assert inside.get() == pytest.approx(single.get(), abs=1e-12)
    # A reference run by hand: prequential predict_proba_one then learn_one.
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    ys, ps = [], []
    for x, y in datasets.Phishing():
        ps.append(model.predict_proba_one(x).get(True, 0.0))
        ys.append(y)
        model.learn_one(x, y)
    ys, ps = np.array(ys), np.array(ps)
    assert alone[0].get() == pytest.approx(brier_score_loss(ys, ps), abs=1e-12)
    decisions = ps > 0.2
    cost = (np.sum(decisions & ~ys) * 1.0 + np.sum(~decisions & ys) * 4.0) / len(ys)
    assert alone[1].get() == pytest.approx(cost, abs=1e-12)
    # A label metric inside a River combination gets argmax labels: that is why ExpectedCost
    # takes probabilities (recall at threshold 0.2 is higher than argmax recall).
    assert alone[1].confusion()["tp"] > np.sum((ps > 0.5) & ys)


# ---------------------------------------------------------------- BrierScore


def test_brier_by_hand_and_sklearn():
    m = _fill(metrics.BrierScore(), [True, False, True, False], [0.9, 0.2, 0.4, 0.0])
    assert m.get() == pytest.approx((0.01 + 0.04 + 0.36 + 0.0) / 4)
    y, p = _sample(1000, seed=5)
    w = np.random.default_rng(6).random(len(y))
    assert _fill(metrics.BrierScore(), y, p).get() == pytest.approx(brier_score_loss(y, p))
    assert _fill(metrics.BrierScore(), y, p, w).get() == pytest.approx(
        brier_score_loss(y, p, sample_weight=w)
    )


# ---------------------------------------------------------------- ExpectedCost


def test_expected_cost_by_hand_and_strict_threshold():
    m = metrics.ExpectedCost(c_fp=2.0, c_fn=3.0)  # threshold 0.4
    assert m.threshold == pytest.approx(0.4)
    data = [(True, 0.4), (True, 0.41), (False, 0.41), (False, 0.4), (False, 0.9), (True, 0.0)]
    _fill(m, *zip(*data, strict=True))
    # p = 0.4 is not above the threshold: FN for the first positive, TN for the negative.
    assert m.confusion() == {"tp": 1.0, "fp": 2.0, "tn": 1.0, "fn": 2.0}
    assert m.get() == pytest.approx((2 * 2.0 + 2 * 3.0) / 6)
    # Thesis Q = FNR (1 - z) + FPR z with z from Eq. 2.7 at the observed prior 1/2.
    z = 2.0 * 0.5 / (2.0 * 0.5 + 3.0 * 0.5)
    assert m.normalised_cost() == pytest.approx((2 / 3) * (1 - z) + (2 / 3) * z)
    with pytest.raises(ValueError, match="c_fn"):
        metrics.ExpectedCost(c_fp=1.0, c_fn=0.0)


def test_expected_cost_matches_numpy_and_normalised_q():
    y, p = _sample(2000, prior=0.3, seed=7)
    for c_fp, c_fn in [(1.0, 1.0), (1.0, 10.0), (5.0, 1.0)]:
        m = _fill(metrics.ExpectedCost(c_fp=c_fp, c_fn=c_fn), y, p)
        d = p > cost_threshold(c_fp, c_fn)
        fp, fn = np.sum(d & ~y), np.sum(~d & y)
        assert m.get() == pytest.approx((c_fp * fp + c_fn * fn) / len(y))
        pi_pos = y.mean()
        z = (1 - pi_pos) * c_fp / ((1 - pi_pos) * c_fp + pi_pos * c_fn)
        q = fn / y.sum() * (1 - z) + fp / (~y).sum() * z
        assert m.normalised_cost() == pytest.approx(q)


# ---------------------------------------------------------------- BrierCurve


def test_thesis_cost_ratios():
    r = metrics.THESIS_COST_RATIOS
    assert len(r) == 21 and r[0] == 100 and r[10] == 1 and r[-1] == pytest.approx(0.01)
    assert all(a > b for a, b in itertools.pairwise(r))
    assert all(x * y == pytest.approx(1.0) for x, y in zip(r, reversed(r), strict=True))
    pts = metrics.BrierCurve().curve()
    assert len(pts) == 23 and pts[0].c == 0.0 and pts[-1].c == 1.0
    assert pts[1].c == pytest.approx(1 / 101) and pts[11].c == 0.5
    assert pts[1].cost_ratio == pytest.approx(100.0) and pts[0].cost_ratio == math.inf


def _q_reference(y, p, c):
    """HO-F-F Q(c) = 2 {c pi_- FPR(c) + (1 - c) pi_+ FNR(c)} with numpy."""
    fp = np.sum((p > c) & ~y) / len(y)
    fn = np.sum((p <= c) & y) / len(y)
    return 2 * (c * fp + (1 - c) * fn)


@pytest.mark.parametrize("quantise", [False, True])
def test_curve_points_match_numpy(quantise):
    y, p = _sample(1500, prior=0.35, seed=8, quantise=quantise)
    m = _fill(metrics.BrierCurve(), y, p)
    for pt in m.curve():
        assert pt.q == pytest.approx(_q_reference(y, p, pt.c), abs=1e-12)
    qs = [pt.q for pt in m.curve()]
    cs = [pt.c for pt in m.curve()]
    assert m.get() == pytest.approx(np.trapezoid(qs, cs), abs=1e-12)


@pytest.mark.parametrize("prior", [0.5, 0.15])
def test_area_on_dense_uniform_grid_equals_brier_score(prior):
    y, p = _sample(2000, prior=prior, seed=9)
    k = 4000
    grid = tuple((k - i) / i for i in range(1, k))  # c = i / k, i = 1 .. k - 1
    m = _fill(metrics.BrierCurve(cost_ratios=grid), y, p)
    assert [pt.c for pt in m.curve()] == pytest.approx([i / k for i in range(k + 1)], abs=1e-15)
    # Trapezoid error: each of the N jumps of Q is smeared over one grid step of width 1/k.
    assert m.get() == pytest.approx(brier_score_loss(y, p), abs=2 / k)


def test_area_on_thesis_points_approximates_brier_score():
    y, p = _sample(3000, prior=0.5, seed=10)
    m = _fill(metrics.BrierCurve(), y, p)
    bs = brier_score_loss(y, p)
    assert m.get() == pytest.approx(bs, abs=0.01)
    assert m.get() != pytest.approx(bs, abs=1e-6)  # only approximately


def test_z_convention_with_trivial_classifiers_balanced():
    # Thesis formulas: z (= c) is the FP share; all-positive Q(z) = z, all-negative Q(z) = 1 - z.
    ys = [True, False] * 50
    pos = _fill(metrics.BrierCurve(), ys, [1.0] * 100)
    neg = _fill(metrics.BrierCurve(), ys, [0.0] * 100)
    for pt in pos.curve()[:-1]:  # at c = 1 (free false negatives) nothing is positive
        assert pt.q == pytest.approx(pt.c)
    assert pos.curve()[-1].q == 0.0
    for pt in neg.curve():
        assert pt.q == pytest.approx(1 - pt.c)
    lines = pos.reference_lines()
    assert lines["all_positive"] == pytest.approx(lines["c"])
    assert lines["all_negative"] == pytest.approx([1 - c for c in lines["c"]])
    # Areas: 1/2 each on the dense-enough thesis grid's exact linear pieces.
    assert pos.get() == pytest.approx(0.5, abs=0.01) and neg.get() == pytest.approx(0.5)
    # Envelope of the two diagonals: the "always the expensive class" classifier, BS 0.25.
    env = [min(a, b) for a, b in zip(lines["all_positive"], lines["all_negative"], strict=True)]
    assert np.trapezoid(env, lines["c"]) == pytest.approx(0.25, abs=1e-12)


def test_trivial_classifiers_follow_reference_lines_with_imbalance():
    ys = [True] * 20 + [False] * 80
    pos = _fill(metrics.BrierCurve(), ys, [1.0] * 100)
    neg = _fill(metrics.BrierCurve(), ys, [0.0] * 100)
    lines = neg.reference_lines()
    assert [pt.q for pt in neg.curve()] == pytest.approx(lines["all_negative"])
    assert [pt.q for pt in pos.curve()][:-1] == pytest.approx(lines["all_positive"][:-1])
    assert lines["all_negative"][0] == pytest.approx(2 * 0.2)  # 2 pi_+ at c = 0


def test_bad_cost_ratios():
    for bad in ([], (1.0, 0.0), (math.inf,), (-2.0,)):
        with pytest.raises(ValueError):
            metrics.BrierCurve(cost_ratios=bad)
    with pytest.raises(TypeError):
        metrics.BrierCurve(cost_ratios="1,2")


# ---------------------------------------------------------------- binned metrics


def _bins_numpy(y, p, n_bins):
    ids = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p)
    return [(y[ids == b].astype(float), p[ids == b]) for b in range(n_bins) if np.any(ids == b)]


@pytest.mark.parametrize(("n_bins", "quantise"), [(10, False), (10, True), (3, False), (1, False)])
def test_decomposition_identity_and_terms_against_numpy(n_bins, quantise):
    y, p = _sample(2500, prior=0.4, seed=11, quantise=quantise)
    c = _fill(metrics.BrierDecomposition(n_bins=n_bins), y, p).components()
    n = len(y)
    bins = _bins_numpy(y, p, n_bins)
    cal = sum(len(yb) * (pb.mean() - yb.mean()) ** 2 for yb, pb in bins) / n
    ref = sum(len(yb) * yb.mean() * (1 - yb.mean()) for yb, pb in bins) / n
    wbv = sum(np.sum((pb - pb.mean()) ** 2) for yb, pb in bins) / n
    wbc = sum(np.sum((pb - pb.mean()) * (yb - yb.mean())) for yb, pb in bins) / n
    res = sum(len(yb) * (yb.mean() - y.mean()) ** 2 for yb, pb in bins) / n
    bs = brier_score_loss(y, p)
    assert c["brier"] == pytest.approx(bs, abs=1e-12)
    assert c["calibration"] == pytest.approx(cal, abs=1e-12)
    assert c["refinement"] == pytest.approx(ref, abs=1e-12)
    assert c["within_bin"] == pytest.approx(wbv - 2 * wbc, abs=1e-12)
    assert c["resolution"] == pytest.approx(res, abs=1e-12)
    assert c["uncertainty"] == pytest.approx(y.mean() * (1 - y.mean()), abs=1e-12)
    # The identities, exact up to round-off.
    assert c["calibration"] + c["refinement"] + c["within_bin"] == pytest.approx(bs, abs=1e-12)
    assert c["refinement"] == pytest.approx(c["uncertainty"] - c["resolution"], abs=1e-12)


def test_decomposition_without_within_bin_term_when_bins_hold_one_value():
    # Murphy's setting: forecasts take one value per bin, so the within-bin term vanishes.
    y, p = _sample(1000, seed=12)
    p = (np.floor(p * 10) + 0.5) / 10  # bin centres
    c = _fill(metrics.BrierDecomposition(n_bins=10), y, p).components()
    assert c["within_bin"] == pytest.approx(0.0, abs=1e-12)
    assert c["calibration"] + c["refinement"] == pytest.approx(brier_score_loss(y, p))


def test_decomposition_prints_its_three_terms():
    # River prints a metric by its repr (progressive_val_score): the terms, not get() alone
    metric = metrics.BrierDecomposition()
    for y, p in [(False, 0.15), (True, 0.85), (False, 0.72)]:  # one forecast per bin
        metric.update(y, p)
    # calibration (0.15^2 + 0.15^2 + 0.72^2) / 3; nothing else with one value per bin
    assert repr(metric) == ("BrierDecomposition: calibration 0.187800, refinement 0.000000, "
                            "within-bin 0.000000")
    metric.update(True, 0.75)  # 0.72 and 0.75 share a bin of one positive and one negative
    c = metric.components()
    assert repr(metric) == (f"BrierDecomposition: calibration {c['calibration']:.6f}, "
                            f"refinement {c['refinement']:.6f}, within-bin {c['within_bin']:.6f}")
    assert c["refinement"] == pytest.approx(0.5 * 0.5 * 2 / 4)


def test_recalibration_removes_calibration_loss_not_refinement():
    y, p = _sample(3000, seed=13)
    p = (np.floor(p * 10) + 0.5) / 10
    raw = _fill(metrics.BrierDecomposition(), y, p)
    # Replace each forecast by its bin's observed frequency: perfect calibration per bin.
    freq = {b: y[p == b].mean() for b in np.unique(p)}
    fixed = _fill(metrics.BrierDecomposition(), y, np.array([freq[v] for v in p]))
    assert raw.get() > 1e-3
    assert fixed.get() == pytest.approx(0.0, abs=1e-12)
    # What is left is the refinement loss of the original forecasts (Murphy 1973).
    assert fixed.components()["brier"] == pytest.approx(raw.components()["refinement"], abs=1e-12)


@pytest.mark.parametrize("quantise", [False, True])
def test_ece_and_reliability_diagram_against_sklearn(quantise):
    y, p = _sample(2000, prior=0.3, seed=14, quantise=quantise)
    m = _fill(metrics.ExpectedCalibrationError(n_bins=10), y, p)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10, strategy="uniform")
    diagram = m.reliability_diagram()
    assert diagram["fraction_positive"] == pytest.approx(prob_true, abs=1e-12)
    assert diagram["mean_predicted"] == pytest.approx(prob_pred, abs=1e-12)
    bins = _bins_numpy(y, p, 10)
    assert diagram["weight"] == [float(len(yb)) for yb, _ in bins]
    ece = sum(len(yb) * abs(yb.mean() - pb.mean()) for yb, pb in bins) / len(y)
    assert m.get() == pytest.approx(ece, abs=1e-12)
    assert m.max_calibration_error() == pytest.approx(np.max(np.abs(prob_true - prob_pred)))


def test_ece_by_hand_and_bin_edges():
    m = metrics.ExpectedCalibrationError(n_bins=4)
    # 0.25 lies on an edge and belongs to the lower bin, as in scikit-learn; 0 and 1 are kept.
    _fill(m, [True, False, False, True], [0.25, 0.25, 0.0, 1.0])
    d = m.reliability_diagram()
    assert d["bin_lower"] == [0.0, 0.75] and d["bin_upper"] == [0.25, 1.0]
    assert d["weight"] == [3.0, 1.0]
    # Bin 1: mean p 1/6, frequency 1/3; bin 4: 1 vs 1.
    assert m.get() == pytest.approx(3 / 4 * (1 / 3 - 1 / 6))
    with pytest.raises(ValueError, match="n_bins"):
        metrics.ExpectedCalibrationError(n_bins=0)


def _smooth_ece_direct(y, p, sigma: float) -> float:
    """smECE at `sigma` from its definition: every point's reflected Gaussian, no grid for the
    data, the integral over t by the trapezoid rule on 4,001 points."""
    t = np.linspace(0.0, 1.0, 4_001)[:, None]
    residual = p - y
    total = np.zeros(len(t))
    for start in range(0, len(p), 500):  # in chunks: a (4,001 x 500) matrix at a time
        f, r = p[start : start + 500], residual[start : start + 500]
        kernel = sum(
            np.exp(-((t - c) ** 2) / (2 * sigma**2)) for c in (f, -f, 2.0 - f)
        ) / (np.sqrt(2 * np.pi) * sigma)
        total += kernel @ r
    return float(np.trapezoid(np.abs(total / len(p)), t[:, 0]))


@pytest.mark.parametrize("seed", [0, 1])
def test_smooth_ece_follows_its_definition_and_reads_at_the_fixed_point(seed):
    y, p = _sample(2000, prior=0.3, seed=seed)
    m = _fill(metrics.SmoothECE(), y, p)
    for sigma in (0.03, 0.1, 0.3):
        assert m._at(sigma) == pytest.approx(_smooth_ece_direct(y, p, sigma), abs=1e-3)
    sigma = m.bandwidth  # the fixed point smECE_sigma = sigma, to 2^-10
    assert m._at(sigma) < sigma <= m._at(sigma - 2**-10) + 2**-10
    assert m.get() == m._at(sigma)
    # Calibrated forecasts score near 0; the same forecasts, distorted, score more.
    rng = np.random.default_rng(seed)
    fair = rng.random(5000)
    calibrated = _fill(metrics.SmoothECE(), rng.random(5000) < fair, fair)
    distorted = _fill(metrics.SmoothECE(), rng.random(5000) < fair, fair**3)
    assert calibrated.get() < 0.03 < 0.15 < distorted.get()
    with pytest.raises(ValueError, match="n_points must be an int >= 3, got 2"):
        metrics.SmoothECE(n_points=2)


def test_smooth_ece_reads_a_perfect_calibration_at_its_smallest_bandwidth():
    # every residual cancels (p = 1/2, half positive): smECE is 0 at every bandwidth, and the
    # search stops at 2^-9, above the 1e-3 the grid cannot resolve (2^-10 would be below it)
    m = _fill(metrics.SmoothECE(), np.arange(1000) % 2 == 0, np.full(1000, 0.5))
    assert m.bandwidth == 2**-9 and m.get() == 0.0


@pytest.mark.parametrize("cls", ALL)
def test_rolling_window_uses_revert(cls):
    y, p = _sample(300, seed=15)
    rolling = utils.Rolling(cls, window_size=50)
    for yt, pp in zip(y, p, strict=True):
        rolling.update(bool(yt), float(pp))
    assert rolling.get() == pytest.approx(_fill(cls(), y[-50:], p[-50:]).get(), abs=1e-12)


@pytest.mark.parametrize(("c_fp", "c_fn"), [(1.0, 1.0), (1.0, 5.0), (4.0, 1.0)])
def test_gmean_and_kappa_match_scikit_learn_at_the_cost_threshold(c_fp, c_fn):
    from sklearn.metrics import cohen_kappa_score, recall_score

    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.2
    p = np.clip(0.6 * y + rng.normal(0.2, 0.2, 500), 0.0, 1.0)
    w = rng.uniform(0.5, 2.0, 500)
    decisions = p > c_fp / (c_fp + c_fn)
    gmean, kappa = metrics.GMean(c_fp, c_fn), metrics.CohenKappa(c_fp, c_fn)
    for yi, pi, wi in zip(y.tolist(), p.tolist(), w.tolist(), strict=True):
        gmean.update(yi, pi, w=wi)
        kappa.update(yi, pi, w=wi)
    tpr = recall_score(y, decisions, sample_weight=w)
    tnr = recall_score(~y, ~decisions, sample_weight=w)
    assert gmean.get() == pytest.approx(np.sqrt(tpr * tnr), rel=1e-12)
    assert kappa.get() == pytest.approx(cohen_kappa_score(y, decisions, sample_weight=w), rel=1e-9)
    assert gmean.bigger_is_better and kappa.bigger_is_better
    # revert undoes an update exactly
    before = kappa.get()
    kappa.update(True, 0.01, w=3.0)
    kappa.revert(True, 0.01, w=3.0)
    assert kappa.get() == pytest.approx(before, rel=1e-12)


def test_gmean_is_zero_when_a_class_is_never_recognised():
    metric = metrics.GMean()
    for y in (True, False, True, False):
        metric.update(y, 0.1)  # always negative
    assert metric.get() == 0.0
    assert metrics.CohenKappa().get() == 0.0


def test_kappa_is_zero_when_neither_the_decisions_nor_the_labels_vary():
    # p_e = 1: kappa is 0/0, and the docstring's rule says 0 (no agreement beyond chance shown)
    kappa = metrics.CohenKappa()
    for _ in range(3):
        kappa.update(True, 0.9)  # positive, decided positive
    assert kappa.get() == 0.0
    kappa.update(False, 0.1)  # one negative decided negative: perfect agreement, p_e < 1
    assert kappa.get() == 1.0


def test_gmean_counts_a_class_not_seen_yet_as_recalled():
    # only positives so far: TNR is 1 (the docstring's rule), so the G-mean is sqrt(TPR)
    metric = metrics.GMean()
    for p in (0.9, 0.8, 0.3, 0.2):
        metric.update(True, p)
    assert metric.get() == pytest.approx(math.sqrt(0.5), abs=1e-15)
    metric = metrics.GMean(c_fp=1.0, c_fn=4.0)  # threshold 0.2: 0.3 is decided positive
    for p in (0.3, 0.1):
        metric.update(False, p)
    assert metric.get() == pytest.approx(math.sqrt(0.5), abs=1e-15)


def test_gmean_after_reverts_that_leave_a_rounding_residue_is_a_number():
    # 0.3 - 0.1 - 0.2 leaves -2.8e-17 true positives: the TPR a hair below 0, not a sqrt error
    metric = metrics.GMean()
    metric.update(True, 0.9, w=0.3)
    metric.revert(True, 0.9, w=0.1)
    metric.revert(True, 0.9, w=0.2)
    metric.update(True, 0.1)  # a missed positive
    metric.update(False, 0.1)  # a recognised negative
    assert metric.confusion()["tp"] < 0.0
    assert metric.get() == 0.0


def test_an_empty_brier_curves_reference_lines_take_balanced_classes():
    lines = metrics.BrierCurve().reference_lines()
    assert lines["all_positive"] == pytest.approx(lines["c"])
    assert lines["all_negative"] == pytest.approx([1 - c for c in lines["c"]])


def test_binarized_gives_river_metrics_the_booleans_they_expect():
    from river import metrics as river_metrics

    pairs = [("phish", 0.9), ("legit", 0.2), ("phish", 0.4), ("legit", 0.6), ("phish", 0.8)]
    for make in (river_metrics.LogLoss, river_metrics.ROCAUC, river_metrics.Accuracy):
        wrapped, reference = metrics.Binarized(make(), pos_label="phish"), make()
        for y, p in pairs:
            wrapped.update(y, {"phish": p, "legit": 1 - p})
            if reference.requires_labels:
                reference.update(y == "phish", p > 0.5)
            else:
                reference.update(y == "phish", {True: p, False: 1 - p})
        assert wrapped.get() == reference.get()
    with pytest.raises(ValueError, match="label 'spam' is neither pos_label='phish'"):
        wrapped.update("spam", 0.5)
    with pytest.raises(TypeError, match="metric must be a River classification metric"):
        metrics.Binarized("LogLoss")
    # a regression metric has no `requires_labels`: refused here, not at its first update,
    # alone or among others
    with pytest.raises(TypeError, match=r"classification metric .*got MAE"):
        metrics.Binarized(river_metrics.MAE())
    with pytest.raises(TypeError, match=r"classification metric .*got LogLoss: .*MAE"):
        metrics.Binarized(river_metrics.base.Metrics([river_metrics.LogLoss(),
                                                      river_metrics.MAE()]))


def test_binarized_takes_several_metrics_and_hands_each_what_it_alone_would_get():
    from river import metrics as river_metrics

    pairs = [("phish", 0.9), ("legit", 0.2), ("phish", 0.3), ("legit", 0.6), ("phish", 0.7)]
    several = metrics.Binarized(river_metrics.LogLoss() + river_metrics.ROCAUC(),
                                pos_label="phish")
    alone = [metrics.Binarized(river_metrics.LogLoss(), pos_label="phish"),
             metrics.Binarized(river_metrics.ROCAUC(), pos_label="phish")]
    for y, p in pairs:
        for metric in (several, *alone):
            metric.update(y, {"phish": p, "legit": 1 - p})
    assert several.get() == [metric.get() for metric in alone]



def test_binarized_reverts_so_a_rolling_window_scores_only_its_last_examples():
    # River's utils.Rolling reverts what leaves the window: the window of 3 scores as a fresh
    # metric given those 3 pairs, with string labels, probabilities and decisions alike
    from river import metrics as river_metrics

    pairs = [("phish", 0.9), ("legit", 0.2), ("phish", 0.4), ("legit", 0.6), ("phish", 0.8),
             ("legit", 0.1), ("phish", 0.3)]
    for make in (river_metrics.LogLoss, river_metrics.Accuracy):
        rolling = utils.Rolling(metrics.Binarized, window_size=3, metric=make(),
                                pos_label="phish")
        assert rolling.bigger_is_better == make().bigger_is_better
        for i, (y, p) in enumerate(pairs):
            rolling.update(y, {"phish": p, "legit": 1 - p})
            fresh = metrics.Binarized(make(), pos_label="phish")
            for y_, p_ in pairs[max(0, i - 2) : i + 1]:
                fresh.update(y_, {"phish": p_, "legit": 1 - p_})
            assert rolling.get() == pytest.approx(fresh.get(), abs=1e-12), (make, i)

def test_binarized_label_metrics_score_the_models_decisions_not_an_argmax():
    # River's F1(pos_val="yes") reads its counts under "yes" after counting booleans: 0 %
    from river import datasets as river_datasets
    from river import evaluate, linear_model, preprocessing
    from river import metrics as river_metrics

    from streamboost import CalibratedClassifier

    def model(pos_label):
        return preprocessing.StandardScaler() | CalibratedClassifier(
            linear_model.LogisticRegression(), pos_label=pos_label, c_fn=3.0)

    def words():
        return ((x, "yes" if y else "no") for x, y in river_datasets.Phishing())

    river_f1 = evaluate.progressive_val_score(river_datasets.Phishing(), model(True),
                                              river_metrics.F1())
    assert evaluate.progressive_val_score(words(), model("yes"),
                                          river_metrics.F1(pos_val="yes")).get() == 0.0
    ours = metrics.Binarized(river_metrics.F1(), pos_label="yes")
    assert ours.requires_labels  # so predict_one decides, at the cost threshold 1/4
    assert evaluate.progressive_val_score(words(), model("yes"), ours).get() == river_f1.get()
    # combined with a probability metric, River hands every metric probabilities
    both = (metrics.Binarized(river_metrics.ROCAUC(), pos_label="yes")
            + metrics.Binarized(river_metrics.F1(), pos_label="yes"))
    assert isinstance(both, river_metrics.base.Metrics) and not both.requires_labels
    evaluate.progressive_val_score(words(), model("yes"), both)
    assert 0.5 < both[0].get() < 1.0 and 0.5 < both[1].get() < 1.0
    with pytest.raises(ValueError, match="label 'maybe' is neither pos_label='yes'"):
        ours.update("yes", "maybe")  # a third label as a decision


@pytest.mark.parametrize("pos_label", [True, "yes"])
def test_binarized_counts_no_prediction_as_no_positive_decision_as_river_does(pos_label):
    # an untrained River model's predict_one is None: River's F1 counts it as a decision that
    # is not the positive class; Binarized does so whether or not the negative label is known
    # yet (0.8.50 took it as negative before, refused it as a third label after), and a
    # missing true label is refused (0.8.51)
    from river import metrics as river_metrics

    negative = not pos_label if pos_label is True else "no"
    ours = metrics.Binarized(river_metrics.Recall(), pos_label=pos_label)
    river = river_metrics.Recall()
    for y, decided in [(pos_label, None), (negative, pos_label), (pos_label, None),
                       (pos_label, pos_label), (negative, None)]:
        ours.update(y, decided)
        river.update(y == pos_label, None if decided is None else decided == pos_label)
    assert ours.get() == river.get() == 1 / 3
    with pytest.raises(ValueError, match="label None is missing; Binarized takes labelled"):
        ours.update(None, pos_label)


def _example_costs():
    from hypothesis import strategies as st

    cost = st.floats(min_value=0.01, max_value=1000.0)
    # no subnormal weight: 5e-324 * 1.5 rounds to 1e-323, so a sum of such products has no
    # relative precision, and the direct computation's ratio would be as wrong as any
    weight = st.floats(0.0, 10.0, allow_subnormal=False)
    example = st.tuples(st.booleans(), st.floats(0.0, 1.0), weight,
                        st.one_of(st.none(), st.tuples(cost, cost)))
    return st.lists(example, max_size=40), st.tuples(cost, cost)


def test_expected_cost_charges_each_example_its_own_costs_at_its_own_threshold():
    """Example-dependent costs (a missed fraud costs its amount): the metric's mean cost and
    normalised cost equal a direct computation, each example decided at its own threshold."""
    from hypothesis import given, settings

    examples, defaults = _example_costs()

    @settings(deadline=None)  # as every property here: a slow machine is no failure
    @given(examples, defaults)
    def check(rows, default):
        metric = metrics.ExpectedCost(*default)
        kappa = metrics.CohenKappa(*default)
        charged = scale = n = 0.0
        confusion = dict.fromkeys(("tp", "fp", "tn", "fn"), 0.0)
        for positive, p, w, own in rows:
            c_fp, c_fn = own or default
            kwargs = {} if own is None else {"c_fp": c_fp, "c_fn": c_fn}
            metric.update(positive, p, w=w, **kwargs)
            kappa.update(positive, p, w=w, **kwargs)
            decided = p > cost_threshold(c_fp, c_fn)
            confusion[("t" if decided == positive else "f") + ("p" if decided else "n")] += w
            charged += w * (c_fn if positive else c_fp) * (decided != positive)
            scale += w * (c_fn if positive else c_fp)
            n += w
        assert metric.confusion() == pytest.approx(confusion, rel=1e-12, abs=1e-12)
        assert kappa.confusion() == metric.confusion()
        assert metric.get() == pytest.approx(charged / n if n else 0.0, rel=1e-9, abs=1e-9)
        assert metric.normalised_cost() == pytest.approx(charged / scale if scale else 0.0,
                                                         rel=1e-9, abs=1e-9)

    check()


def test_expected_cost_without_own_costs_is_the_same_floats_as_before():
    """The examples without costs of their own are counted at the metric's costs, as before
    0.8.38: (c_FP FP + c_FN FN) / N, to the last bit."""
    from hypothesis import given, settings

    examples, defaults = _example_costs()

    @settings(deadline=None)  # as every property here: a slow machine is no failure
    @given(examples, defaults)
    def check(rows, default):
        c_fp, c_fn = default
        metric = metrics.ExpectedCost(c_fp, c_fn)
        for positive, p, w, _ in rows:
            metric.update(positive, p, w=w)
        tp, fp, tn, fn = (metric.confusion()[k] for k in ("tp", "fp", "tn", "fn"))
        n = tp + fp + tn + fn
        assert metric.get() == ((c_fp * fp + c_fn * fn) / n if n > 0.0 else 0.0)
        scale = c_fp * (fp + tn) + c_fn * (tp + fn)
        assert metric.normalised_cost() == ((c_fp * fp + c_fn * fn) / scale
                                            if scale > 0.0 else 0.0)

    check()


def test_an_examples_own_costs_are_checked_before_anything_changes_and_revert_with_it():
    metric = metrics.ExpectedCost(c_fp=1.0, c_fn=5.0)
    metric.update(True, 0.1, c_fn=50.0)  # threshold 1/51: decided positive, no cost
    metric.update(False, 0.3, c_fp=0.5, c_fn=0.5)  # threshold 1/2: right
    metric.update(True, 0.1)  # threshold 1/6: a false negative at the metric's c_FN
    assert metric.confusion() == {"tp": 1.0, "fp": 0.0, "tn": 1.0, "fn": 1.0}
    assert metric.get() == 5.0 / 3
    before = pickle.dumps(metric)
    for bad in ({"c_fn": 0.0}, {"c_fp": -1.0}, {"c_fp": math.nan}, {"c_fn": True}):
        with pytest.raises((ValueError, TypeError), match=r"c_fp|c_fn"):
            metric.update(True, 0.5, **bad)
        with pytest.raises((ValueError, TypeError), match=r"c_fp|c_fn"):
            metric.revert(True, 0.1, **bad)
    assert pickle.dumps(metric) == before
    metric.revert(True, 0.1, c_fn=50.0)
    assert metric.confusion() == {"tp": 0.0, "fp": 0.0, "tn": 1.0, "fn": 1.0}
    assert metric.get() == 5.0 / 2
    # River's rolling window keeps each update's keywords for its revert
    rolling = utils.Rolling(metrics.ExpectedCost, window_size=2, c_fp=1.0, c_fn=1.0)
    for positive, p, c_fn in ((True, 0.2, 9.0), (True, 0.2, 1.0), (True, 0.2, 1.0)):
        rolling.update(positive, p, c_fn=c_fn)
    assert rolling.get() == 1.0  # the first (threshold 0.1: right) left; two misses at 1
