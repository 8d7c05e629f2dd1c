"""Helpers for the calibrators' tests: a calibrator's whole state, comparable with `==`."""

from __future__ import annotations

from streamboost.calibration import Calibrator
from streamboost.calibration.base import Blocks


def calibrator_state(cal: Calibrator) -> dict:
    """Every attribute of a calibrator (`_ATTRIBUTES`), its PAV blocks as their lists and an
    ensemble's members as their own states."""

    def plain(value):
        if isinstance(value, Blocks):
            return (value.starts, value.sums, value.weights)
        if isinstance(value, list) and value and isinstance(value[0], Calibrator):
            return [calibrator_state(member) for member in value]
        return value

    return {name: plain(getattr(cal, name)) for name in cal._ATTRIBUTES}
