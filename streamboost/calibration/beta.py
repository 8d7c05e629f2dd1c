r"""Beta calibration, online: three parameters, monotone, the identity at the start."""

from __future__ import annotations

import math
import typing

import numpy as np
from scipy import optimize
from scipy.special import expit, log_expit

from .. import kernels
from ..validation import is_real
from .base import (
    Calibrator,
    check_forgetting,
    check_label,
    check_positive,
    check_score,
    check_step,
)

__all__ = ["OnlineBetaCalibrator", "beta_fit"]

_START = (1.0, 1.0, 0.0)  # a = b = 1, c = 0: logit(p) = logit(s), the identity


def _check_eps(eps) -> float:
    if not is_real(eps) or not 0.0 < eps < 0.5:
        raise ValueError(f"eps must be a real in (0, 0.5), got {eps!r}")
    return float(eps)


def _solve3(h: list[float], g: tuple[float, float, float]) -> tuple[float, float, float]:
    """H^{-1} g for the symmetric positive definite H = [[h0, h1, h2], [h1, h3, h4], [h2, h4,
    h5]], by cofactors (no numpy on the per-example path)."""
    a, b, c, d, e, f = h
    k0 = d * f - e * e
    k1 = c * e - b * f
    k2 = b * e - c * d
    k3 = a * f - c * c
    k4 = b * c - a * e
    k5 = a * d - b * b
    det = a * k0 + b * k1 + c * k2
    x, y, z = g
    return (
        (k0 * x + k1 * y + k2 * z) / det,
        (k1 * x + k3 * y + k4 * z) / det,
        (k2 * x + k4 * y + k5 * z) / det,
    )


def _project_orthant(
    theta: tuple[float, float, float], h: list[float]
) -> tuple[float, float, float]:
    """The point of {a >= 0, b >= 0} nearest to theta in the H-norm (exact: the best feasible
    point over the four sets of active constraints)."""
    a, b, c = theta
    if a >= 0.0 and b >= 0.0:
        return theta
    h00, h01, h02, h11, h12, h22 = h
    best, best_dist = (0.0, 0.0, c), math.inf
    # Free coordinates are moved to minimise the H-distance given the fixed ones.
    candidates = []
    # a = 0, (b, c) free: [[h11, h12], [h12, h22]] (db, dc) = -(h01, h02) da.
    da = -a
    det = h11 * h22 - h12 * h12
    db = -(h22 * h01 - h12 * h02) * da / det
    dc = -(h11 * h02 - h12 * h01) * da / det
    candidates.append((0.0, b + db, c + dc))
    # b = 0, (a, c) free.
    db = -b
    det = h00 * h22 - h02 * h02
    da = -(h22 * h01 - h02 * h12) * db / det
    dc = -(h00 * h12 - h02 * h01) * db / det
    candidates.append((a + da, 0.0, c + dc))
    # a = b = 0, c free.
    da, db = -a, -b
    candidates.append((0.0, 0.0, c - (h02 * da + h12 * db) / h22))
    for x in candidates:
        if x[0] < 0.0 or x[1] < 0.0:
            continue
        d = (x[0] - a, x[1] - b, x[2] - c)
        dist = (
            h00 * d[0] * d[0]
            + h11 * d[1] * d[1]
            + h22 * d[2] * d[2]
            + 2.0 * (h01 * d[0] * d[1] + h02 * d[0] * d[2] + h12 * d[1] * d[2])
        )
        if dist < best_dist:
            best, best_dist = x, dist
    return best


class OnlineBetaCalibrator(Calibrator):
    r"""Beta calibration (Kull, Silva Filho & Flach 2017) fitted online by Online Newton Step.

    $$\hat p(y = 1 \mid s) = \sigma\big(a \ln s - b \ln(1 - s) + c\big), \quad a, b \ge 0,$$

    with $s$ clipped to $[\epsilon, 1 - \epsilon]$. It is logistic regression on the features
    $\phi = (\ln s, -\ln(1 - s), 1)$ (Kull et al., Eq. 4, the "abm" family); $a = b$ is Platt
    scaling on $\text{logit}(s)$, and $a \ne b$ also corrects a distortion that differs near 0
    and near 1 (a score over-confident for one class only): the likelihood ratio of
    class-conditional beta-distributed scores (their Section 3); $a, b \ge 0$ keeps it monotone.

    **Online fit**: the log-loss by the Online Newton Step (Hazan et al. 2007) as Gupta & Ramdas
    (2023) do for Platt scaling ("online beta scaling"): with $g_t = (\hat p_t - y_t)\,\phi_t$,
    $C_t = \lambda C_{t-1} + g_t g_t^\top$, $H_t = I/\gamma^2 + C_t$ and
    $\theta_{t+1} = \Pi_{H_t}(\theta_t - \tfrac{1}{\gamma} H_t^{-1} g_t)$, where $\Pi_{H_t}$
    projects onto $a, b \ge 0$ in the $H_t$-norm (exact), then scales into the ball of radius
    `radius`. It starts at $a = b = 1$, $c = 0$: the identity map, so calibration must be
    earned. Labels are used as they are (Kull et al. fit raw labels, not Platt's targets).

    Parameters
    ----------
    forgetting, gamma
        Discount $\lambda \in (0, 1]$ of the curvature (1: none); ONS step $1/\gamma$ and
        $H_0 = I/\gamma^2$ (1: Newton-sized steps; by name, `scores.named_step`'s).
    radius, eps
        The ball $(a, b, c)$ stays in; scores are clipped to $[\epsilon, 1 - \epsilon]$.

    Examples
    --------
    >>> from streamboost.calibration import OnlineBetaCalibrator
    >>> cal = OnlineBetaCalibrator()
    >>> cal.predict_one(0.8)  # the identity before learning
    0.8
    >>> cal.learn_many([0.9, 0.8, 0.95, 0.7] * 50, [True, False, True, False] * 50)
    >>> cal.predict_one(0.7) < 0.7 and cal.predict_one(0.95) > cal.predict_one(0.9)
    True

    References
    ----------
    - Kull, M., Silva Filho, T. M. & Flach, P. (2017). Beta calibration: a well-founded and
      easily implemented improvement on logistic calibration for binary classifiers. AISTATS.
    - Gupta, C. & Ramdas, A. (2023). Online Platt scaling with calibeating. ICML.
    - Hazan, E., Agarwal, A. & Kale, S. (2007). Logarithmic regret algorithms for online convex
      optimization. Machine Learning 69.

    """

    _ATTRIBUTES = (
        "forgetting", "gamma", "radius", "eps", "_theta", "_c", "_consts", "_n_seen"
    )

    def __init__(
        self,
        forgetting: float = 1.0,
        gamma: float = 1.0,
        radius: float = 100.0,
        eps: float = 1e-3,
    ):
        check_forgetting(forgetting)
        check_step("gamma", gamma)
        check_positive("radius", radius)
        if radius <= math.hypot(*_START):
            raise ValueError(f"radius must contain the start {_START} (> 1.415), got {radius!r}")
        _check_eps(eps)
        self.forgetting = forgetting
        self.gamma = gamma
        self.radius = radius
        self.eps = eps
        self._theta = _START
        self._c = [0.0] * 6  # discounted curvature, upper triangle row by row
        # what an update reads besides the state, in `beta_learn`'s order
        self._consts = (float(eps), float(forgetting), 1.0 / gamma**2, 1.0 / gamma,
                        float(radius))
        self._n_seen = 0

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"forgetting": 0.99, "gamma": 0.5, "eps": 1e-6}

    @property
    def coefficients(self) -> tuple[float, float, float]:
        """(a, b, c) of $\\sigma(a \\ln s - b \\ln(1 - s) + c)$."""
        return self._theta

    def copy(self) -> OnlineBetaCalibrator:
        return self._copy_changing(("_c",))  # theta is a tuple, replaced at each step

    def _predict(self, score: float) -> float:
        return _PREDICT(self._theta, self._consts, score)

    def _predict_many(self, scores: np.ndarray) -> np.ndarray:
        # `_predict` of each score in one loop: numpy's log may differ from the C library's
        # in the last bit, and a frame's probabilities must be its rows' one by one
        out = np.empty(len(scores))
        _PREDICT_MANY(self._theta, self._consts, np.ascontiguousarray(scores, dtype=float), out)
        return out

    def _update(self, score: float, positive: bool) -> None:
        # the base's `_learn` and count in one call: every example of a wrapper comes here
        self._theta = _LEARN(self._theta, self._c, self._consts, score, positive)
        self._n_seen += 1

    def _update_many(self, scores: list[float], positives: list[bool]) -> None:
        self._theta = _LEARN_MANY(self._theta, self._c, self._consts, scores, positives)
        self._n_seen += len(scores)


# Indices of OnlineBetaCalibrator._consts.
_EPS, _LAM, _H0, _STEP, _RADIUS = range(5)


def _expit(z: float) -> float:
    """scipy's `expit` of a float, $1 / (1 + e^{-z})$ (the same float: tested), without the
    cost of a ufunc call."""
    try:
        return 1.0 / (1.0 + math.exp(-z))
    except OverflowError:  # e^{-z} is inf, and 1 / inf is 0 in C (scipy's arithmetic)
        return 0.0


def _features(s: float, eps: float) -> tuple[float, float]:
    """$(\\ln s, -\\ln(1 - s))$ of the score clipped to $[\\epsilon, 1 - \\epsilon]$."""
    s = min(max(s, eps), 1.0 - eps)
    return math.log(s), -math.log1p(-s)


def beta_predict(theta: tuple, consts: tuple, score: float) -> float:
    """The beta map of a checked score; the twin of the compiled `beta_predict`."""
    u, v = _features(score, consts[_EPS])
    a, b, c = theta
    return _expit(a * u + b * v + c)


def beta_predict_many(theta: tuple, consts: tuple, scores: np.ndarray, out: np.ndarray) -> None:
    """`beta_predict` of each checked score of a float array, into `out`; the twin of the
    compiled `beta_predict_many`."""
    out[:] = [beta_predict(theta, consts, s) for s in scores.tolist()]


def beta_learn(theta: tuple, curvature: list, consts: tuple, score: float, positive: bool
               ) -> tuple:
    """One Online Newton Step from `theta` by a checked (score, label): the new (a, b, c),
    `curvature` updated in place; the twin of the compiled `beta_learn`, the same operations
    in the same order."""
    u, v = _features(score, consts[_EPS])
    a, b, c = theta
    r = _expit(a * u + b * v + c) - (1.0 if positive else 0.0)
    g = (r * u, r * v, r)
    lam, cc = consts[_LAM], curvature
    outer = (g[0] * g[0], g[0] * g[1], g[0] * g[2], g[1] * g[1], g[1] * g[2], g[2] * g[2])
    for i in range(6):
        cc[i] = lam * cc[i] + outer[i]
    h0 = consts[_H0]
    h = [cc[0] + h0, cc[1], cc[2], cc[3] + h0, cc[4], cc[5] + h0]
    step = _solve3(h, g)
    k = consts[_STEP]
    theta = _project_orthant((a - k * step[0], b - k * step[1], c - k * step[2]), h)
    norm = math.sqrt(theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2])
    radius = consts[_RADIUS]
    if norm > radius:  # scaling keeps a, b >= 0
        theta = (theta[0] * radius / norm, theta[1] * radius / norm, theta[2] * radius / norm)
    return theta


def beta_learn_many(theta: tuple, curvature: list, consts: tuple, scores: list,
                    positives: list) -> tuple:
    """`beta_learn` by each checked (score, label) of two lists in order: the last theta;
    the twin of the compiled `beta_learn_many`, which writes `curvature` once."""
    for score, positive in zip(scores, positives, strict=True):
        theta = beta_learn(theta, curvature, consts, score, positive)
    return theta


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_LEARN = getattr(kernels.compiled, "beta_learn", beta_learn)
_LEARN_MANY = getattr(kernels.compiled, "beta_learn_many", beta_learn_many)
_PREDICT = getattr(kernels.compiled, "beta_predict", beta_predict)
_PREDICT_MANY = getattr(kernels.compiled, "beta_predict_many", beta_predict_many)


def beta_fit(scores: typing.Iterable[float], labels: typing.Iterable[typing.Any], *,
             eps: float = 1e-3) -> tuple[float, float, float]:
    r"""Batch beta calibration (a, b, c) by maximum likelihood with $a, b \ge 0$ (scipy).

    The reference for `OnlineBetaCalibrator`: minimises the mean log-loss of
    $\sigma(a \ln s - b \ln(1-s) + c)$ with L-BFGS-B and the bounds $a, b \ge 0$, from the
    identity $(1, 1, 0)$; Kull et al. instead refit without a feature whose coefficient comes
    out negative, which reaches the same constrained optimum.

    Examples
    --------
    >>> from streamboost.calibration import beta_fit
    >>> a, b, c = beta_fit([0.2, 0.4, 0.6, 0.8] * 25, [0, 1, 0, 1] * 25)
    >>> round(a, 2), round(b, 2), round(c, 2) + 0.0  # + 0.0: no -0.0
    (1.1, 1.1, 0.0)

    """
    _check_eps(eps)
    scores, labels = list(scores), list(labels)
    if len(scores) != len(labels):
        raise ValueError(f"scores and labels differ in length: {len(scores)} != {len(labels)}")
    if not scores:
        raise ValueError("beta_fit needs at least one (score, label) pair, got none")
    s = np.clip(np.array([check_score(v) for v in scores]), eps, 1.0 - eps)
    y = np.array([check_label(v) for v in labels], dtype=float)
    phi = np.column_stack([np.log(s), -np.log1p(-s), np.ones_like(s)])

    def loss_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = phi @ theta
        loss = -(y * log_expit(z) + (1.0 - y) * log_expit(-z)).mean()
        return float(loss), phi.T @ (expit(z) - y) / len(y)

    res = optimize.minimize(
        loss_and_grad,
        np.array(_START),
        jac=True,
        method="L-BFGS-B",
        bounds=[(0.0, None), (0.0, None), (None, None)],
        options={"gtol": 1e-10, "ftol": 1e-15, "maxiter": 10_000},
    )
    return float(res.x[0]), float(res.x[1]), float(res.x[2])
