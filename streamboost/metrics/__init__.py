"""River-compatible metrics of probability estimates and cost-sensitive decisions.

All take probabilities (`requires_labels = False`): `y_pred` is River's dict
`{label: probability}` or a float P(positive), and `pos_label` selects the positive label. They
work in `river.evaluate.progressive_val_score` and in River `metrics.Metrics` combinations, keep
O(1) or O(bins) memory, and support sample weights and `revert`.
"""

from __future__ import annotations

from . import base
from .brier import BrierDecomposition, BrierScore
from .brier_curve import THESIS_COST_RATIOS, BrierCurve, BrierCurvePoint
from .calibration import ExpectedCalibrationError, SmoothECE
from .cost import DecisionMetric, ExpectedCost
from .imbalance import CohenKappa, GMean
from .river import Binarized

__all__ = [
    "THESIS_COST_RATIOS",
    "Binarized",
    "BrierCurve",
    "BrierCurvePoint",
    "BrierDecomposition",
    "BrierScore",
    "CohenKappa",
    "DecisionMetric",
    "ExpectedCalibrationError",
    "ExpectedCost",
    "GMean",
    "SmoothECE",
    "base",
]
