"""What the property tests of the wrappers' call sequences share (test_controller_sequences.py,
test_calibrated_sequences.py): a stretch of rows learned prequentially, one at a time or as one
frame."""

from __future__ import annotations

import pandas as pd


def prequential(model, rows: list, frame: bool) -> list[float]:
    """Each row of `rows` predicted, then learned: one at a time (`predict_proba_one`,
    `learn_one`) or all as one frame (`predict_proba_many`, `learn_many`); the probabilities of
    the positive label True, in order."""
    if not frame:
        seen = []
        for x, y in rows:
            seen.append(model.predict_proba_one(x)[True])
            model.learn_one(x, y)
        return seen
    X = pd.DataFrame([x for x, _ in rows])
    y = pd.Series([y for _, y in rows])
    seen = list(model.predict_proba_many(X)[True])
    model.learn_many(X, y)
    return seen
