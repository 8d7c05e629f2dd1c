"""streamboost: cost-sensitive learning from data streams.

Online (Oza) boosting, an online Platt calibrator, minimum-expected-cost decisions and a bandit
that decides, minibatch by minibatch, whether to train the booster or its calibrator.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
