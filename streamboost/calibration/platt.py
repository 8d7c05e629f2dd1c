r"""Online Platt scaling: a two-parameter sigmoid fitted to a stream of (score, label) pairs.

Platt (1999) maps a classifier's score to a probability with

$$\hat p(y=1 \mid s) = \frac{1}{1 + \exp(A\,u + B)},$$

where $u$ is either the score itself (the thesis's Algorithm 2, $u = s \in [0, 1]$) or its
logit (Gupta & Ramdas 2023, $u = \text{logit}(s)$, so that $A=-1, B=0$ is the identity map).
`OnlinePlattCalibrator` fits $(A, B)$ one example at a time in O(1) time and memory;
`platt_fit` is the batch reference (scipy) for the same objectives and targets.

References
----------
- Platt, J. (1999). Probabilistic outputs for support vector machines and comparisons to
  regularized likelihood methods. Advances in Large Margin Classifiers, 61-74.
- Gupta, C. & Ramdas, A. (2023). Online Platt scaling with calibeating. ICML.
  arXiv:2305.00070.
- Hazan, E., Agarwal, A. & Kale, S. (2007). Logarithmic regret algorithms for online convex
  optimization. Machine Learning 69, 169-192 (Online Newton Step, Algorithm 2).
- Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
  Manchester. Algorithm 2 (Platt-calibrated AdaMEC), Section 7.3.2.

"""

from __future__ import annotations

import math
import typing

import numpy as np
from scipy import optimize
from scipy.special import expit, log_expit

from .. import kernels
from ..state import get_state, set_state
from ..validation import check_bool, is_real
from .base import Calibrator, check_forgetting, check_label, check_score, check_step

__all__ = ["OnlinePlattCalibrator", "platt_fit"]

OBJECTIVES = ("log", "squared")
FEATURES = ("logit", "score")

# Start of the feature="score" map: the Platt map the calibrator converges to when the score is
# already calibrated and uniform on [0, 1] (labels ~ Bernoulli(s)), i.e. the sigmoid in s closest
# to the identity in the objective's own sense. By symmetry B = -A/2. Computed with scipy
# (brentq on the stationarity condition, quad integrals); tests/test_calibration.py recomputes it.
_SCORE_START_SLOPE = {"log": 5.199363816628645, "squared": 4.924273008385402}

# Gauss-Newton's initial curvature for objective="squared": weak (J = p(1-p)(u, 1) has
# |J|^2 <= 1/16 (u^2 + 1), so the prior weighs as a handful of examples) and it bounds every step
# by 1/(2 sqrt(_SQUARED_H0)) per unit residual.
_SQUARED_H0 = 1.0


def _sigmoid(z: float) -> float:
    # Branch on the sign so exp never overflows.
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _check_params(feature: str, objective: str, eps: float) -> None:
    if feature not in FEATURES:
        raise ValueError(f"feature must be one of {FEATURES}, got {feature!r}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    if not is_real(eps) or not 0.0 < eps < 0.5:
        raise ValueError(f"eps must be a real in (0, 0.5), got {eps!r}")


def _start(feature: str, objective: str) -> tuple[float, float]:
    if feature == "logit":
        return -1.0, 0.0
    a = _SCORE_START_SLOPE[objective]
    return -a, a / 2.0


# `_project_ball`'s signature: (A, B, h11, h12, h22, radius) -> the projected (A, B)
_Projection = typing.Callable[[float, float, float, float, float, float], tuple[float, float]]


def _project_ball(
    A: float, B: float, h11: float, h12: float, h22: float, radius: float
) -> tuple[float, float]:
    """Project (A, B) onto {|theta| <= radius} in the norm of H = [[h11, h12], [h12, h22]].

    The ONS projection (Hazan et al. 2007): argmin (x - theta)' H (x - theta) s.t. |x| <= radius.
    In H's eigenbasis the minimiser is x_i = l_i t_i / (l_i + mu) with mu >= 0 the root of
    |x(mu)| = radius, which is decreasing in mu; it is found by bisection (only called outside
    the ball, which a well-specified stream rarely reaches).
    """
    norm = math.hypot(A, B)
    if norm <= radius:
        return A, B
    phi = 0.5 * math.atan2(2.0 * h12, h11 - h22)
    c, s = math.cos(phi), math.sin(phi)
    half_trace, r = 0.5 * (h11 + h22), math.hypot(0.5 * (h11 - h22), h12)
    l1, l2 = half_trace + r, max(half_trace - r, 0.0)
    t1, t2 = c * A + s * B, -s * A + c * B

    def shrunk(mu: float) -> tuple[float, float]:
        return l1 * t1 / (l1 + mu), l2 * t2 / (l2 + mu)

    lo, hi = 0.0, l1 * norm / radius  # |x(hi)| <= l1 |theta| / hi = radius
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if math.hypot(*shrunk(mid)) > radius:
            lo = mid
        else:
            hi = mid
    x1, x2 = shrunk(hi)
    A, B = c * x1 - s * x2, s * x1 + c * x2
    # Round-off may leave |x| a few ulps above the radius.
    scale = min(1.0, radius / math.hypot(A, B))
    return A * scale, B * scale


class OnlinePlattCalibrator(Calibrator):
    r"""Platt scaling fitted online, in O(1) time and memory per example.

    $$\hat p(y=1 \mid s) = \sigma(-(A\,u + B)) = \frac{1}{1 + \exp(A\,u + B)}$$

    (Platt 1999; thesis Algorithm 2), $u$ the logit of $s$ clipped to $[\epsilon, 1-\epsilon]$
    (`feature="logit"`, Gupta & Ramdas 2023: their $a, b$ are $-A, -B$) or $u = s$ (the thesis).

    Platt's smoothed targets use the class counts so far. `objective="log"` fits the log-loss
    by the Online Newton Step (Hazan et al. 2007, Alg. 2; Gupta & Ramdas 2023, Alg. 1),
    `"squared"` the thesis's least squares by recursive Gauss-Newton (Ljung & Söderström 1983).
    Each step is projected onto $\|\theta\| \le$ `radius` and $A \le 0$, so the map never
    decreases in the score, also after one class's stretch (in full: docs/calibration.md).

    Parameters
    ----------
    objective, feature, forgetting
        `"log"` or `"squared"`; `"logit"` (identity start) or `"score"`; the discount
        $\lambda \in (0, 1]$ of the curvature and counts (1: none).
    gamma, radius, eps, smooth_targets
        ONS step $1/\gamma$, $H_0 = I/\gamma^2$ (`"log"`); the ball $\theta = (A, B)$ stays in;
        scores clipped to $[\epsilon, 1-\epsilon]$; Platt's targets (True) or the labels.

    Examples
    --------
    >>> import math, random
    >>> from streamboost.calibration import OnlinePlattCalibrator
    >>> cal = OnlinePlattCalibrator()
    >>> round(cal.predict_one(0.9), 12)  # identity before any learning (to rounding)
    0.9
    >>> rng = random.Random(7)  # an over-confident score: truth A = -0.5, B = 0.3
    >>> scores = [rng.uniform(0.01, 0.99) for _ in range(5000)]
    >>> truth = lambda s: 1 / (1 + math.exp(0.3 - 0.5 * math.log(s / (1 - s))))
    >>> cal.learn_many(scores, [rng.random() < truth(s) for s in scores])
    >>> round(cal.A, 2), round(cal.B, 2), round(cal.predict_one(0.9), 2), round(truth(0.9), 2)
    (-0.59, 0.41, 0.71, 0.69)

    References
    ----------
    - Platt (1999), Probabilistic outputs for support vector machines.
    - Gupta & Ramdas (2023), Online Platt scaling with calibeating, ICML.
    - Hazan, Agarwal & Kale (2007), Logarithmic regret algorithms for online convex
      optimization, Machine Learning 69; Nikolaou (2016), PhD thesis, Algorithm 2; Ljung &
      Söderström (1983), Theory and Practice of Recursive Identification, MIT Press.

    """

    _ATTRIBUTES = (
        "objective", "feature", "forgetting", "gamma", "radius", "eps", "smooth_targets",
        "_theta", "_consts", "_n_seen"
    )

    def __init__(
        self,
        objective: str = "log",
        feature: str = "logit",
        forgetting: float = 1.0,
        gamma: float = 0.1,
        radius: float = 100.0,
        eps: float = 1e-6,
        smooth_targets: bool = True,
    ):
        _check_params(feature, objective, eps)
        for name, value in (("forgetting", forgetting), ("radius", radius)):
            if not is_real(value):
                raise ValueError(f"{name} must be a real number, got {value!r}")
        check_forgetting(forgetting)
        check_step("gamma", gamma)
        start = _start(feature, objective)
        if not (math.isfinite(radius) and radius > math.hypot(*start)):
            raise ValueError(
                f"radius must be finite and contain the start {start} "
                f"(> {math.hypot(*start):.4g}), got {radius!r}"
            )
        smooth_targets = check_bool("smooth_targets", smooth_targets)

        self.objective = objective
        self.feature = feature
        self.forgetting = forgetting
        self.gamma = gamma
        self.radius = radius
        self.eps = eps
        self.smooth_targets = smooth_targets

        if objective == "log":
            h0, step = 1.0 / gamma**2, 1.0 / gamma
        else:
            h0, step = _SQUARED_H0, 1.0
        # The state (A, B, the discounted curvature C, the discounted class counts) and the
        # constants of an update, as flat sequences of floats: what the compiled twin reads.
        self._theta = [*start, 0.0, 0.0, 0.0, 0.0, 0.0]
        self._consts = (
            float(forgetting), smooth_targets, objective == "log", h0, step, radius * radius,
            float(radius), float(eps), math.log((1.0 - eps) / eps), feature == "logit",
        )
        self._n_seen = 0

    @property
    def A(self) -> float:
        """Slope of Platt's map p = 1/(1 + exp(A u + B)) (negative = increasing in u)."""
        return self._theta[_A_]

    @property
    def B(self) -> float:
        """Intercept of Platt's map p = 1/(1 + exp(A u + B))."""
        return self._theta[_B_]

    @property
    def n_pos(self) -> float:
        """Positives learned so far (discounted when `forgetting` < 1), N+ of the targets."""
        return self._theta[_NPOS]

    @property
    def n_neg(self) -> float:
        """Negatives learned so far (discounted when `forgetting` < 1), N- of the targets."""
        return self._theta[_NNEG]

    def fit(self, scores: typing.Iterable[float], ys: typing.Iterable[typing.Any]) -> None:
        """Forget what was learned, then fit (A, B) to the pairs by `platt_fit` (the same
        objective, feature, targets and eps); all are validated first. The state is then what
        this calibrator's own updates would leave at that fit: the class counts and the
        curvature (each discounted by `forgetting` in the pairs' order), so learning goes on
        from there. A fit that decreases in the score (A > 0, scores that anti-rank) becomes
        the constant map of the targets' mean, and (A, B) stays within `radius`: the
        invariants of `learn_one`."""
        scores, ys = list(scores), list(ys)
        fresh = self.clone()
        fresh.learn_many(scores, ys)  # validates the pairs; its state is replaced below
        if not scores:
            set_state(self, get_state(fresh, self._ATTRIBUTES))
            return
        u = np.array([fresh._feature(check_score(v)) for v in scores], dtype=float)
        positive = np.array([check_label(v) for v in ys], dtype=bool)
        A, B = platt_fit(
            scores, ys, feature=self.feature, objective=self.objective,
            smooth_targets=self.smooth_targets, eps=self.eps,
        )
        lam = self.forgetting
        decay = lam ** np.arange(len(u) - 1, -1, -1, dtype=float)  # newest pair weighs 1
        n_pos, n_neg = float(decay @ positive), float(decay @ ~positive)
        if self.smooth_targets:
            target = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
        else:
            target = positive.astype(float)
        if A > 0.0:
            mean = min(max(float(target.mean()), self.eps), 1.0 - self.eps)
            A, B = 0.0, math.log((1.0 - mean) / mean)
        norm = math.hypot(A, B)
        if norm > self.radius:
            A, B = A * self.radius / norm, B * self.radius / norm
        p = expit(-(A * u + B))
        w = target - p if self.objective == "log" else p * (1.0 - p)
        ww = decay * w * w
        curvature = float(ww @ (u * u)), float(ww @ u), float(ww.sum())
        fresh._theta = [float(A), float(B), *curvature, n_pos, n_neg]
        set_state(self, get_state(fresh, self._ATTRIBUTES))

    def copy(self) -> OnlinePlattCalibrator:
        return self._copy_changing(("_theta",))  # the one attribute that learns in place

    def _feature(self, s: float) -> float:
        return _feature(s, self._consts)

    def _predict(self, score: float) -> float:
        return _PREDICT(self._theta, self._consts, score)

    def _predict_many(self, s: np.ndarray) -> np.ndarray:
        # `_predict` of each score, in one compiled loop: the same floats as one by one
        out = np.empty(len(s))
        _PREDICT_MANY(self._theta, self._consts, np.ascontiguousarray(s, dtype=float), out)
        return out

    def _predict_pair(self, other: Calibrator, s: np.ndarray) -> np.ndarray:
        if type(other) is not type(self) or not (
            other._consts is self._consts or other._consts == self._consts
        ):
            return super()._predict_pair(other, s)
        # both maps into the rows of one array (the controller's reward scores a round so),
        # each score's feature once: the two share their constants (a copy does)
        out = np.empty((2, len(s)))
        _PREDICT_PAIR(self._theta, other._theta, self._consts, s, out[0], out[1])
        return out

    def _update(self, score: float, positive: bool) -> None:
        # the base's `_learn` and count in one call: every example of a wrapper comes here
        _LEARN(self._theta, self._consts, score, positive, _project_ball)
        self._n_seen += 1

    def _update_many(self, scores: list[float], positives: list[bool]) -> None:
        _LEARN_MANY(self._theta, self._consts, scores, positives, _project_ball)
        self._n_seen += len(scores)


# Indices of OnlinePlattCalibrator._theta and ._consts.
_A_, _B_, _C11, _C12, _C22, _NPOS, _NNEG = range(7)
_LAM, _SMOOTH, _LOG, _H0, _STEP, _RADIUS_SQ, _RADIUS, _EPS, _LOGIT_MAX, _LOGIT = range(10)


def _feature(s: float, consts: tuple) -> float:
    """u: the logit of the score clipped to [eps, 1 - eps], or the score itself."""
    if not consts[_LOGIT]:
        return s
    eps = consts[_EPS]
    if s <= eps:
        return -consts[_LOGIT_MAX]
    if s >= 1.0 - eps:
        return consts[_LOGIT_MAX]
    return math.log(s) - math.log1p(-s)


def platt_predict(theta: list, consts: tuple, score: float) -> float:
    """Platt's map of a checked score; the twin of the compiled `platt_predict`."""
    return _sigmoid(-(theta[_A_] * _feature(score, consts) + theta[_B_]))


def platt_predict_many(theta: list, consts: tuple, scores: np.ndarray, out: np.ndarray) -> None:
    """`platt_predict` of each checked score of a float array, into `out`; the twin of the
    compiled `platt_predict_many`."""
    out[:] = [platt_predict(theta, consts, s) for s in scores.tolist()]


def platt_predict_pair(theta: list, other: list, consts: tuple, scores: np.ndarray,
                       out: np.ndarray, other_out: np.ndarray) -> None:
    """`platt_predict_many` of two states `theta` and `other` of the same constants, into
    `out` and `other_out`; the twin of the compiled `platt_predict_pair`."""
    platt_predict_many(theta, consts, scores, out)
    platt_predict_many(other, consts, scores, other_out)


def platt_learn(theta: list, consts: tuple, score: float, positive: bool,
                project: _Projection) -> None:
    """One update of `theta` in place by a checked (score, label): the twin of the compiled
    `platt_learn`, the same operations in the same order (`project` is `_project_ball`)."""
    u = _feature(score, consts)
    lam = consts[_LAM]
    A, B, c11, c12, c22, n_pos, n_neg = theta
    n_pos *= lam
    n_neg *= lam
    if positive:
        n_pos += 1.0
        target = (n_pos + 1.0) / (n_pos + 2.0) if consts[_SMOOTH] else 1.0
    else:
        n_neg += 1.0
        target = 1.0 / (n_neg + 2.0) if consts[_SMOOTH] else 0.0

    p = _sigmoid(-(A * u + B))
    # Both losses have gradient  grad = r (u, 1)  and curvature  w^2 (u, 1)(u, 1)'.
    if consts[_LOG]:
        # log-loss: grad = (y' - p)(u, 1); ONS's curvature is grad grad'.
        r = w = target - p
    else:
        # (p - y')^2 / 2: grad = (y' - p) p (1 - p) (u, 1); Gauss-Newton's is J J'.
        w = p * (1.0 - p)
        r = (target - p) * w
    ww = w * w
    c11 = lam * c11 + ww * u * u
    c12 = lam * c12 + ww * u
    c22 = lam * c22 + ww
    h0, radius = consts[_H0], consts[_RADIUS]
    h11, h12, h22 = h0 + c11, c12, h0 + c22
    det = h11 * h22 - h12 * h12
    k = consts[_STEP] * r / det  # H^{-1} (r u, r) = r/det (h22 u - h12, h11 - h12 u)
    A -= k * (h22 * u - h12)
    B -= k * (h11 - h12 * u)
    norm_sq = A * A + B * B
    if norm_sq > consts[_RADIUS_SQ]:
        A, B = project(A, B, h11, h12, h22, radius)
    if A > 0.0:
        # A decreasing map (more score, less probability) is never a calibration of a
        # classifier's score: project onto A <= 0 in the H-norm, where B absorbs what it
        # can of A's step; the map is then at worst constant.
        B = min(max(B + h12 * A / h22, -radius), radius)
        A = 0.0
    theta[:] = A, B, c11, c12, c22, n_pos, n_neg


def platt_learn_many(theta: list, consts: tuple, scores: list, positives: list,
                     project: _Projection) -> None:
    """`platt_learn` by each checked (score, label) of two lists in order: the twin of the
    compiled `platt_learn_many`, which reads and writes `theta` once."""
    for score, positive in zip(scores, positives, strict=True):
        platt_learn(theta, consts, score, positive, project)


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_LEARN = getattr(kernels.compiled, "platt_learn", platt_learn)
_LEARN_MANY = getattr(kernels.compiled, "platt_learn_many", platt_learn_many)
_PREDICT = getattr(kernels.compiled, "platt_predict", platt_predict)
_PREDICT_MANY = getattr(kernels.compiled, "platt_predict_many", platt_predict_many)
_PREDICT_PAIR = getattr(kernels.compiled, "platt_predict_pair", platt_predict_pair)


def platt_fit(
    scores: typing.Iterable[float],
    labels: typing.Iterable[typing.Any],
    *,
    feature: str = "logit",
    objective: str = "log",
    smooth_targets: bool = True,
    eps: float = 1e-6,
) -> tuple[float, float]:
    r"""Batch Platt fit (A, B) with scipy, the reference for `OnlinePlattCalibrator`.

    Minimises $\sum_i \ell(\hat p_i, y'_i)$ with $\hat p_i = 1/(1 + \exp(A u_i + B))$, $u_i$ as
    in `OnlinePlattCalibrator` (same `feature` and `eps`), $\ell$ the log-loss
    (`objective="log"`, Platt's maximum likelihood) or $\tfrac12(\hat p - y')^2$
    (`objective="squared"`, thesis Algorithm 2), and targets $y'$ Platt's smoothed
    $(N_+ + 1)/(N_+ + 2)$ and $1/(N_- + 2)$ from the counts of the whole sample (as Platt and
    scikit-learn) or the raw labels. `scipy.optimize.minimize` (BFGS, analytic gradient) starts
    from the online calibrator's start.

    Parameters
    ----------
    scores
        Scores in [0, 1].
    labels
        Bools or 0/1, same length.
    feature, objective, smooth_targets, eps
        As in `OnlinePlattCalibrator`.

    Examples
    --------
    >>> from streamboost.calibration import platt_fit
    >>> A, B = platt_fit([0.2, 0.4, 0.6, 0.8] * 25, [0, 1, 0, 1] * 25)
    >>> round(A, 3), round(B + 0.0, 3)
    (-1.044, 0.0)

    """
    _check_params(feature, objective, eps)
    scores, labels = list(scores), list(labels)
    if len(scores) != len(labels):
        raise ValueError(f"scores and labels differ in length: {len(scores)} != {len(labels)}")
    if not scores:
        raise ValueError("platt_fit needs at least one (score, label) pair, got none")
    s = np.array([check_score(v) for v in scores])
    y = np.array([check_label(v) for v in labels])
    if feature == "logit":
        c = np.clip(s, eps, 1.0 - eps)
        u = np.log(c) - np.log1p(-c)
    else:
        u = s
    n_pos = float(y.sum())
    n_neg = len(y) - n_pos
    if smooth_targets:
        t = np.where(y, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    else:
        t = y.astype(float)
    scale = 1.0 / len(u)  # mean loss keeps gtol meaningful at any sample size

    def loss_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = -(theta[0] * u + theta[1])  # p = sigmoid(z)
        p = expit(z)
        if objective == "log":
            loss = -(t * log_expit(z) + (1.0 - t) * log_expit(-z)).sum()
            r = t - p
        else:
            loss = 0.5 * ((p - t) ** 2).sum()
            r = (t - p) * p * (1.0 - p)
        return scale * loss, scale * np.array([(r * u).sum(), r.sum()])

    res = optimize.minimize(
        loss_and_grad,
        np.array(_start(feature, objective)),
        jac=True,
        method="BFGS",
        options={"gtol": 1e-10, "maxiter": 10_000},
    )
    return float(res.x[0]), float(res.x[1])
