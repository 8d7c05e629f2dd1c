"""simulations/budget_timing.py: a compute budget timed by the loss, model by model."""

from __future__ import annotations

from tests.simulation_loader import load

timing = load("budget_timing")
drift = load("drift")


def test_a_run_times_the_budget_for_the_model_it_is_given(monkeypatch):
    monkeypatch.setattr(drift, "MAX_ROWS", 1600)  # 50 minibatches of 32: the flip at 960
    controllers, encodings = [], []
    make_controller, stream = drift.BanditCalibratedClassifier, drift.datasets.stream

    def spy_controller(**params):
        controllers.append(params)
        return make_controller(**params)

    def spy_stream(*args, **kwargs):
        encodings.append(kwargs["encode"])
        return stream(*args, **kwargs)

    monkeypatch.setattr(drift, "BanditCalibratedClassifier", spy_controller)
    monkeypatch.setattr(drift.datasets, "stream", spy_stream)
    runs = {label: drift.run("phishing", "flip", label, 0, None, 0.25, "ht")
            for label in ("both", "both + loss timing")}
    assert [type(p["model"]).__name__ for p in controllers] == ["HoeffdingTreeClassifier"] * 2
    assert [p["budget_timing"] for p in controllers] == ["even", "loss"]
    assert [p["policy"] for p in controllers] == ["both", "both"]
    assert encodings == [None, None]  # a tree gets the categories as they are
    assert all(0.0 < brier < 0.5 for brier, _ in runs.values())
    # both spend no more than the budget (with the 10 warm-up minibatches of the 50)
    assert all(share <= (10 + 0.25 * 40) / 50 for _, share in runs.values())
    drift.run("phishing", "flip", "both", 0, None, 0.25)  # Oza-LR by default, one-hot
    assert encodings[-1] == "onehot"


def test_the_report_compares_each_model_with_its_best_fixed_policy():
    scores = {}
    for model in ("oza-lr", "ht"):
        for kind in timing.DRIFTS:
            scores[model, "a", kind, "both"] = [0.20, 0.20]
            scores[model, "a", kind, "never"] = [0.25, 0.25]
            scores[model, "a", kind, "both + reserve"] = [0.19, 0.21]
            gain = 0.9 if model == "oza-lr" else 1.1
            scores[model, "a", kind, "both + loss timing"] = [0.20 * gain, 0.20 * gain]
    text = timing.report(scores, ["oza-lr", "ht"], ["a"], 2)
    assert "### oza-lr" in text and "### ht" in text
    assert "| a, flip | 0.2000 | 0.2500 | 0.2000 | 0.1800 | +0.00 % | -10.00 % |" in text
    assert "| a, prior | 0.2000 | 0.2500 | 0.2000 | 0.2200 | +0.00 % | +10.00 % |" in text
    ht = text[text.index("### ht"):]
    assert "`both + loss timing` beats the best fixed policy on 0 of 3 pairs (+10.00 to " \
           "+10.00 %)." in ht
    # the reserve's seeds disagree (-5 %, +5 %): no excess two standard errors from 0
    assert "above 0 on 0 of 3 pairs and below 0 on 0" in ht
    assert "| a, none | 0.2000 |" in ht  # a stationary row too
