"""streamboost: cost-sensitive learning from data streams.

Online (Oza) boosting, an online Platt calibrator, minimum-expected-cost decisions and a bandit
that decides, minibatch by minibatch, whether to train the booster or its calibrator.
"""

from __future__ import annotations

from .boosting import OzaBoostClassifier

__version__ = "0.1.0"

__all__ = ["OzaBoostClassifier", "__version__"]
