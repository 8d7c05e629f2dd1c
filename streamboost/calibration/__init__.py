"""Online calibrators: monotone maps from a classifier's score to a probability, learned online.

Each takes a score in [0, 1] (for example P(positive) from any River classifier) and a label,
in O(1) time and memory per example, and is chosen by name with `make`:

* `"platt"`: `OnlinePlattCalibrator`, a sigmoid in logit(score), 2 parameters (Platt 1999;
  Gupta & Ramdas 2023);
* `"beta"`: `OnlineBetaCalibrator`, 3 parameters, also fits asymmetric distortions
  (Kull, Silva Filho & Flach 2017);
* `"isotonic"`: `OnlineIsotonicCalibrator`, any monotone map, over a fixed grid of score bins
  with forgetting;
* `"histogram"`: `HistogramCalibrator`, histogram binning (Zadrozny & Elkan 2001) kept monotone;
* `"ewa"`: `EWACalibrator`, all four at once, averaged with weights that follow their log-loss
  and a share of the weight spread evenly, 1/(t + 1) after pair t (Vovk 1990; Herbster &
  Warmuth 1998): the calibrator chosen online.

References
----------
- Platt, J. (1999). Probabilistic outputs for support vector machines.
- Gupta, C. & Ramdas, A. (2023). Online Platt scaling with calibeating. ICML.
- Kull, M., Silva Filho, T. & Flach, P. (2017). Beta calibration: a well-founded and easily
  implemented improvement on logistic calibration for binary classifiers. AISTATS.
- Vovk, V. (1990). Aggregating strategies. COLT.
- Zadrozny, B. & Elkan, C. (2001). Obtaining calibrated probability estimates from decision
  trees and naive Bayesian classifiers. ICML.

"""

from __future__ import annotations

import typing

from ..validation import did_you_mean, one_line
from .base import Calibrator, pool_adjacent_violators
from .beta import OnlineBetaCalibrator, beta_fit
from .ewa import EWACalibrator
from .histogram import HistogramCalibrator
from .isotonic import OnlineIsotonicCalibrator
from .platt import OnlinePlattCalibrator, platt_fit

__all__ = [
    "CALIBRATORS",
    "STEPPED",
    "Calibrator",
    "EWACalibrator",
    "HistogramCalibrator",
    "OnlineBetaCalibrator",
    "OnlineIsotonicCalibrator",
    "OnlinePlattCalibrator",
    "beta_fit",
    "make",
    "platt_fit",
    "pool_adjacent_violators",
    "resolve",
]

#: The calibrators by name, as `make`, the controller's and the CLI's `calibrator` accept them.
CALIBRATORS: dict[str, type[Calibrator]] = {
    "platt": OnlinePlattCalibrator,
    "beta": OnlineBetaCalibrator,
    "isotonic": OnlineIsotonicCalibrator,
    "histogram": HistogramCalibrator,
    "ewa": EWACalibrator,
}

#: The names whose Online Newton Step `resolve`'s `gamma` sets ("ewa" through its Platt and
#: beta).
STEPPED = ("platt", "beta", "ewa")


def make(name: str, **params: typing.Any) -> Calibrator:
    """Build the calibrator called `name` (a key of `CALIBRATORS`) with `params`.

    Examples
    --------
    >>> from streamboost.calibration import make
    >>> make("beta")
    OnlineBetaCalibrator (...)
    >>> make("sigmoid")
    Traceback (most recent call last):
    ...
    ValueError: unknown calibrator 'sigmoid'; expected one of beta, ewa, histogram, isotonic, platt

    """
    if not isinstance(name, str) or name not in CALIBRATORS:
        raise ValueError(
            f"unknown calibrator {name!r}{did_you_mean(name, CALIBRATORS)}; expected one of "
            f"{', '.join(sorted(CALIBRATORS))}"
        )
    return CALIBRATORS[name](**params)


def resolve(calibrator: str | Calibrator, vote_members: int | None = None,
            gamma: float = 1.0) -> Calibrator:
    """A fresh calibrator from a name of `CALIBRATORS` or a clone of a calibrator object, as the
    controller and `CalibratedClassifier` take it.

    By name, the ONS calibrators take the step `gamma` (1: Newton-sized; the wrappers choose it
    for their model, `scores.named_step`) and clip scores to $[\\epsilon, 1 - \\epsilon]$ with
    $\\epsilon = 1/(2(M + 1))$ for the vote score of $M$ boosted members (the add-one-half
    estimate of a vote fraction: unanimous votes are not 14 logits out) and $10^{-3}$ otherwise
    (see docs/calibration.md for the measurements behind both); `"ewa"` averages the four
    calibrators resolved so.

    Examples
    --------
    >>> from streamboost.calibration import resolve
    >>> resolve("platt", vote_members=10).eps
    0.045454545454545456
    >>> resolve("ewa", gamma=0.1).calibrators[1].gamma
    0.1
    >>> resolve(42)
    Traceback (most recent call last):
    ...
    TypeError: calibrator must be a name (beta, ewa, histogram, isotonic, platt) or a ...

    """
    if calibrator == "ewa":
        named = ("platt", "beta", "isotonic", "histogram")
        return EWACalibrator(calibrators=tuple(resolve(n, vote_members, gamma) for n in named))
    if isinstance(calibrator, str):
        eps = 0.5 / (vote_members + 1) if vote_members else 1e-3
        params = {"gamma": gamma, "eps": eps} if calibrator in STEPPED else {}
        return make(calibrator, **params)
    if not isinstance(calibrator, Calibrator):
        raise TypeError(
            f"calibrator must be a name ({', '.join(sorted(CALIBRATORS))}) or a "
            f"streamboost.calibration.Calibrator, got {one_line(calibrator)} "
            f"({type(calibrator).__name__})"
        )
    return calibrator.clone()
