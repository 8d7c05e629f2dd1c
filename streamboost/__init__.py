"""streamboost: cost-sensitive learning from data streams.

Online calibration of any River classifier (Platt, beta, isotonic, histogram binning), online
(Oza) boosting, minimum-expected-cost decisions, and a bandit that decides, minibatch by
minibatch, whether to train the model or its calibrator.
"""

from __future__ import annotations

from . import bandits, calibration, checkpoint, datasets, decision, metrics
from .boosting import OzaBoostClassifier
from .calibrated import CalibratedClassifier
from .calibration import OnlinePlattCalibrator
from .controller import BanditCalibratedClassifier
from .decision import CostSensitiveClassifier, CostSensitiveMixin

__version__ = "0.8.67"

__all__ = [
    "BanditCalibratedClassifier",
    "CalibratedClassifier",
    "CostSensitiveClassifier",
    "CostSensitiveMixin",
    "OnlinePlattCalibrator",
    "OzaBoostClassifier",
    "__version__",
    "bandits",
    "calibration",
    "checkpoint",
    "datasets",
    "decision",
    "metrics",
]
