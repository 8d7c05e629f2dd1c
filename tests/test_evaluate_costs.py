"""RunResult's realised costs at any cost ratio: argmax decisions and cost-threshold decisions."""

from __future__ import annotations

import pytest
from river import datasets, linear_model, preprocessing

from streamboost import evaluate, metrics


def test_costs_at_half_and_at_the_threshold_match_direct_metrics():
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    result = evaluate.prequential(model, datasets.Phishing().take(600))
    # Replay the same predictions into ExpectedCost metrics directly.
    replay = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    half = metrics.ExpectedCost(c_fp=1.0, c_fn=10.0)
    shifted = {ratio: metrics.ExpectedCost(c_fp=1.0, c_fn=ratio) for ratio in (0.1, 1.0, 10.0)}
    for x, y in datasets.Phishing().take(600):
        p = replay.predict_proba_one(x).get(True, 0.0)
        half.update(y, 1.0 if p > 0.5 else 0.0)  # argmax decision, scored under 1:10
        for metric in shifted.values():
            metric.update(y, p)
        replay.learn_one(x, y)
    assert result.cost_at_half(1.0, 10.0) == pytest.approx(half.get())
    for ratio, metric in shifted.items():
        assert result.cost_at_threshold(ratio) == pytest.approx(metric.get())
    with pytest.raises(ValueError, match="not on the Brier curve"):
        result.cost_at_threshold(3.0)
