r"""Choosing the calibrator online: an exponentially weighted average of several."""

from __future__ import annotations

import math

import numpy as np

from .. import kernels
from .base import Calibrator, check_forgetting, check_positive

__all__ = ["EWACalibrator"]

_DEFAULT = ("platt", "beta", "isotonic", "histogram")
_FLOOR = 1e-300  # a probability of exactly 0 or 1 would make its log-loss infinite


class EWACalibrator(Calibrator):
    r"""The exponentially weighted average of several calibrators, weighted by their log-loss.

    Every calibrator learns every (score, label) pair: prediction with expert advice, not a
    bandit. Before learning a pair, calibrator $k$'s log-loss joins $L_k \leftarrow \lambda L_k
    - \log p_k(y)$; the prediction is $\sum_k w_k p_k(s)$, $w_k \propto e^{-\eta L_k}$. After
    pair $t$ a share $\alpha_t$ of the weight is spread evenly, $w_k \leftarrow (1 - \alpha_t)
    w_k + \alpha_t / K$ (Herbster & Warmuth 1998; $L_k \leftarrow -\ln(w_k)/\eta$). With
    $\eta = \lambda = 1$ this is the Bayesian mixture over sequences of calibrators: its log-loss
    exceeds that of any sequence with $m$ switches over $n$ pairs by at most $\ln K$ plus
    $\ln(K/\alpha_t)$ per switch and $\ln\frac{1}{1 - \alpha_t}$ per other step; by
    $\ln K + \ln n + m \ln(Kn)$ with the default $\alpha_t = 1/(t + 1)$, by $\ln K$ against the
    best single calibrator with $\alpha = 0$ (Vovk's mixture). Tested, as the monotone map.

    Parameters
    ----------
    calibrators
        Names of `calibration.CALIBRATORS` (built with `forgetting`) or `Calibrator` objects
        (cloned, used as they are); at least one.
    forgetting
        $\lambda \in (0, 1]$: the discount of the losses and of the named calibrators' counts.
    learning_rate
        $\eta > 0$; 1 is the Bayesian mixture, larger values follow the leader more closely.
    share
        `"decreasing"` ($\alpha_t = 1/(t + 1)$, no parameter) or a fixed $\alpha \in [0, 1)$.

    Examples
    --------
    >>> from streamboost.calibration import EWACalibrator
    >>> cal = EWACalibrator(calibrators=("platt", "isotonic"))
    >>> cal.learn_many([0.9, 0.8, 0.3, 0.2] * 50, [False, True, False, False] * 50)
    >>> [round(w, 3) for w in cal.weights]  # isotonic fits the two plateaus
    [0.02, 0.98]
    >>> round(cal.predict_one(0.85), 3)
    0.534

    References
    ----------
    - Vovk, V. (1990). Aggregating strategies. COLT.
    - Herbster, M. & Warmuth, M. K. (1998). Tracking the best expert. Machine Learning 32.
    - Cesa-Bianchi, N., Gaillard, P., Lugosi, G. & Stoltz, G. (2012). Mirror descent meets
      fixed share (and feels no regret). NeurIPS 25 (shares that vary with time).

    """

    _ATTRIBUTES = (
        "calibrators", "forgetting", "learning_rate", "share", "_members", "_losses",
        "_weights", "_last", "_n_seen"
    )

    def __init__(
        self,
        calibrators: tuple = _DEFAULT,
        forgetting: float = 1.0,
        learning_rate: float = 1.0,
        share: float | str = "decreasing",
    ):
        from . import make  # the registry imports this module

        check_forgetting(forgetting)
        check_positive("learning_rate", learning_rate)
        if isinstance(share, str):
            if share != "decreasing":
                raise ValueError(f"share must be a number in [0, 1) or 'decreasing', got {share!r}")
        elif check_positive("share", share, zero=True) >= 1.0:
            raise ValueError(f"share must be in [0, 1), got {share!r}")
        if isinstance(calibrators, str) or not isinstance(calibrators, tuple | list):
            raise TypeError(
                f"calibrators must be a tuple of names or Calibrators, got {calibrators!r}"
            )
        if not calibrators:
            raise ValueError("calibrators must name at least one calibrator, got ()")
        members = []
        for c in calibrators:
            if isinstance(c, str):
                members.append(make(c, forgetting=forgetting))
            elif isinstance(c, Calibrator):
                members.append(c.clone())
            else:
                raise TypeError(f"calibrators must be names or Calibrators, got {c!r}")
        self.calibrators = calibrators
        self.forgetting = forgetting
        self.learning_rate = learning_rate
        self.share = share
        self._members = members
        self._losses = [0.0] * len(members)
        self._weights = [1.0 / len(members)] * len(members)
        # The members' predictions at the last score predicted, which a prequential learn of
        # the same score reuses (the members have not changed in between).
        self._last: tuple[float, list[float]] | None = None
        self._n_seen = 0

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"calibrators": ("platt", "histogram"), "forgetting": 0.99, "learning_rate": 2.0}
        yield {"calibrators": ("platt", "isotonic"), "share": 0.01}
        yield {"calibrators": ("beta", "histogram"), "share": "decreasing"}

    @property
    def weights(self) -> list[float]:
        """Each calibrator's weight in the average (they sum to 1)."""
        return list(self._weights)

    @property
    def members(self) -> list[Calibrator]:
        """The calibrators averaged, as they have learned (read them; they learn through this
        calibrator only)."""
        return list(self._members)

    def copy(self) -> EWACalibrator:
        new = self._copy_changing(("_losses", "_weights"))  # updated in place by `ewa_learn`
        new._members = [member.copy() for member in self._members]
        return new

    def _member_predictions(self, score: float) -> list[float]:
        if self._last is None or self._last[0] != score:
            self._last = (score, [m._predict(score) for m in self._members])
        return self._last[1]

    def _update(self, score: float, positive: bool) -> None:
        # the base's `_learn` and count in one call: every example of a wrapper comes here
        share = self.share  # after pair t = n_seen + 1 (None: no share; a str: "decreasing")
        alpha = (1.0 / (self._n_seen + 2) if isinstance(share, str) else share) if share else None
        _LEARN(self._losses, self._weights, self._member_predictions(score), positive,
               self.forgetting, self.learning_rate, alpha)
        self._last = None
        for member in self._members:
            member._update(score, positive)  # checked: this one's own input
        self._n_seen += 1

    def _predict(self, score: float) -> float:
        return _PREDICT(self._weights, self._member_predictions(score))

    def _predict_many(self, scores: np.ndarray) -> np.ndarray:
        # added in member order from 0, as `ewa_predict` adds one score's (a matrix product
        # adds in BLAS's order): each score's `_predict`, to the last bit
        total = np.zeros(len(scores))
        for weight, member in zip(self._weights, self._members, strict=True):
            total += weight * member._predict_many(scores)
        return np.clip(total, 0.0, 1.0)


def ewa_learn(losses: list[float], weights: list[float], predictions: list[float],
              positive: bool, forgetting: float, learning_rate: float, alpha: float | None
              ) -> None:
    """The members' discounted log-losses and the weights after a pair, `losses` and `weights`
    in place, from the members' `predictions` of its score (before they learn it); `alpha`:
    the share (None: none). The twin of the compiled `ewa_learn`, the same operations in the
    same order (its sum is `math.fsum`'s, correctly rounded: the same float)."""
    log = math.log
    for k, p in enumerate(predictions):
        losses[k] = forgetting * losses[k] - log(max(p if positive else 1.0 - p, _FLOOR))
    best = min(losses)  # shifted, so that the best weight is exp(0) = 1
    raw = [math.exp(-learning_rate * (loss - best)) for loss in losses]
    total = math.fsum(raw)
    weights[:] = [w / total for w in raw]
    if alpha is not None:  # the losses become the ones that give the shared weights
        k = len(raw)
        weights[:] = [(1.0 - alpha) * w + alpha / k for w in weights]
        losses[:] = [-log(w) / learning_rate for w in weights]


def ewa_predict(weights: list[float], predictions: list[float]) -> float:
    """The weighted average of the members' predictions, in [0, 1]; the twin of the compiled
    `ewa_predict`."""
    p = 0.0
    for w, q in zip(weights, predictions, strict=True):  # the kernel's order: Python 3.12's
        p += w * q  # sum() of floats compensates its rounding, so it differs in the last bit
    return min(max(p, 0.0), 1.0)  # rounding cannot leave [0, 1]


# The twins also serve a compiled module built before these kernels (an editable install not
# rebuilt since): the same results, slower.
_LEARN = getattr(kernels.compiled, "ewa_learn", ewa_learn)
_PREDICT = getattr(kernels.compiled, "ewa_predict", ewa_predict)
