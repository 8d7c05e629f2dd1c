"""streamboost: cost-sensitive learning from data streams.

Online (Oza) boosting, an online Platt calibrator, minimum-expected-cost decisions and a bandit
that decides, minibatch by minibatch, whether to train the booster or its calibrator.
"""

from __future__ import annotations

from . import bandits, datasets, decision, metrics
from .boosting import OzaBoostClassifier
from .calibration import OnlinePlattCalibrator
from .controller import BanditCalibratedClassifier
from .decision import CostSensitiveClassifier, CostSensitiveMixin

__version__ = "0.1.0"

__all__ = [
    "BanditCalibratedClassifier",
    "CostSensitiveClassifier",
    "CostSensitiveMixin",
    "OnlinePlattCalibrator",
    "OzaBoostClassifier",
    "__version__",
    "bandits",
    "datasets",
    "decision",
    "metrics",
]
