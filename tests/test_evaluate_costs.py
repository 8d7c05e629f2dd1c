"""RunResult's realised costs at any cost ratio: argmax decisions and cost-threshold decisions."""

from __future__ import annotations

import dataclasses

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
    with pytest.raises(ValueError, match=r"c_fn must be finite and > 0, got 0\.0"):
        result.cost_at_half(1.0, 0.0)
    # a result stored by a version before confusion_at_half says so, not a KeyError
    older = dataclasses.replace(result, confusion_at_half=None)
    with pytest.raises(ValueError, match="no confusion_at_half"):
        older.cost_at_half(1.0, 10.0)


def _with_amounts(n: int) -> list[tuple[dict, bool]]:
    """Phishing's first `n` examples, each with an "amount" (what missing it would cost)."""
    return [({**x, "amount": 0.5 + (i * 7919) % 97}, y)
            for i, (x, y) in enumerate(datasets.Phishing().take(n))]


def test_an_examples_own_false_negative_cost_is_read_from_its_feature():
    rows = _with_amounts(400)
    model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    result = evaluate.prequential(model, rows, c_fp=3.0, c_fn=0.25, c_fn_feature="amount")
    replay = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    cost = metrics.ExpectedCost(c_fp=3.0, c_fn=0.25)
    for x, y in rows:
        cost.update(y, replay.predict_proba_one(x), c_fn=0.25 * x["amount"])
        replay.learn_one(x, y)
    assert result.expected_cost == cost.get() and result.normalised_cost == cost.normalised_cost()
    assert result.c_fn_feature == "amount"
    assert evaluate.RunResult(**result.to_dict()) == result
    # the costs move the decisions: one c_FN for every example charges differently
    plain = evaluate.prequential(preprocessing.StandardScaler() | linear_model.LogisticRegression(),
                                 rows, c_fp=3.0, c_fn=0.25)
    assert plain.expected_cost != result.expected_cost and plain.c_fn_feature is None


def test_a_bandit_learns_each_example_with_its_own_costs():
    from streamboost import BanditCalibratedClassifier

    def bandit():
        return preprocessing.StandardScaler() | BanditCalibratedClassifier(
            policy="discounted-ucb", reward="expected-cost", batch_size=8, seed=0)

    rows = _with_amounts(300)
    result = evaluate.prequential(model := bandit(), rows, c_fp=2.0, c_fn=0.25,
                                  c_fn_feature="amount")
    replay = bandit()  # by hand: each example learned with the costs it was decided at
    for x, y in rows:
        replay.predict_proba_one(x)
        replay.learn_one(x, y, c_fp=2.0, c_fn=0.25 * x["amount"])
    rewards = [r["rewards"] for r in result.trace]
    assert rewards == [r["rewards"] for r in replay["BanditCalibratedClassifier"].trace]
    assert any(rewards) and model["BanditCalibratedClassifier"].n_batches == 300 // 8
    plain = evaluate.prequential(bandit(), rows, c_fp=2.0, c_fn=0.25)
    assert [r["rewards"] for r in plain.trace] != rewards
    # a model that takes no costs is not given them
    lr = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    assert evaluate.prequential(lr, rows, c_fn_feature="amount").n == 300


@pytest.mark.parametrize("bad", [None, 0.0, -2.0, float("nan"), "12", True,
                                 pytest.param(10**400, id="int-beyond-floats")])
def test_an_example_without_a_usable_cost_stops_the_run_before_it_is_scored(bad):
    rows = _with_amounts(10)
    x = dict(rows[6][0])
    x.pop("amount") if bad is None else x.update(amount=bad)
    rows[6] = (x, rows[6][1])
    learned = []

    class Spy(linear_model.LogisticRegression):
        def learn_one(self, x, y, w=1.0):
            learned.append(x)
            super().learn_one(x, y, w)

    with pytest.raises(ValueError, match="example 6 has 'amount'"):
        evaluate.prequential(Spy(), rows, c_fn_feature="amount")
    assert len(learned) == 6  # examples 0-5; the sixth was neither scored nor learned
