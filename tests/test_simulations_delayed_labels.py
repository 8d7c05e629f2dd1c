"""simulations/delayed_labels.py: calibrating online when labels arrive late."""

from __future__ import annotations

import pytest
from river import metrics

from streamboost import CalibratedClassifier, datasets
from streamboost.experiments.models import encoding, make_model, pipeline
from tests.shared_data import require
from tests.simulation_loader import load, prequential

delayed = load("delayed_labels")


def test_a_run_predicts_each_example_on_arrival_and_learns_it_delay_examples_later():
    # the run's numbers are those of a loop that predicts example i, then learns example
    # i - delay: River's progressive_val_score(delay=...), which the run calls
    rows = list(datasets.stream("phishing", seed=1))[:400]
    result = delayed.run("lr", "phishing", 25, 1, None, max_rows=400)
    assert set(result) == {"rows", *delayed.VARIANTS}
    for variant in ("raw", "+platt"):
        model = delayed.model_for("lr", variant, "phishing", 1)
        assert result[variant] == pytest.approx(prequential(model, rows, 25), rel=1e-12)
    on_time = delayed.run("lr", "phishing", 0, 1, None, max_rows=400)
    assert on_time["+platt"] != result["+platt"]  # the delay reaches the run


def test_a_served_score_is_the_one_predicted_and_on_time_it_is_the_wrappers():
    # with labels on time, the score served is the one the wrapper's calibrator learns (on a
    # stream with no scaler in front: River's pipeline would update it before the wrapper
    # learns, and the wrapper scores x anew); late, the served calibrator learns older scores
    data_dir = str(require("mushroom.csv.gz"))
    rows = list(datasets.stream("mushroom", seed=2, encode=encoding("lr"),
                                data_dir=data_dir))[:500]
    wrapper = CalibratedClassifier(make_model("lr", 10, 2), "platt")
    on_time = delayed.served("lr", "platt", "mushroom", 2, rows, 0)
    assert on_time == pytest.approx(prequential(wrapper, rows), rel=1e-12)
    result = delayed.run("lr", "mushroom", 50, 2, data_dir, max_rows=500)
    assert result["rows"] == 500
    assert result["+platt served"] == delayed.served("lr", "platt", "mushroom", 2, rows, 50)
    assert result["+platt served"] != result["+platt"] != on_time


def served_by_hand(model_name, calibrator, dataset, seed, rows, delay):
    """The served variant without the wrapper: the model in the stream's pipeline, the
    calibrator the script makes (its step pinned, `reporting.named`), each example's score kept
    until its label comes."""
    from streamboost.metrics import BrierScore
    from streamboost.reward import calibrated
    from streamboost.scores import calibrator_for, positive_score

    model = pipeline(make_model(model_name, 10, seed), dataset)
    cal = calibrator_for(calibrator, make_model(model_name, 10, seed), gamma=1.0)
    brier, log_loss, waiting = BrierScore(), metrics.LogLoss(), []
    for i, (x, y) in enumerate(rows):
        if i >= delay:
            old, label, score = waiting[i - delay]
            cal.learn_one(score, label)
            model.learn_one(old, label)
        score = positive_score(model, x, True)
        p = calibrated(cal, score)
        brier.update(y, {True: p, False: 1.0 - p})
        log_loss.update(y, {True: p, False: 1.0 - p})
        waiting.append((x, y, score))
    return brier.get(), log_loss.get()


@pytest.mark.parametrize(("model", "calibrator"), [("oza-lr", "ewa"), ("lr", "platt")])
def test_the_served_variant_is_the_wrappers_served_score_and_the_loop_by_hand(model,
                                                                             calibrator):
    # CalibratedClassifier's score_one / learn_one(score=...) behind the stream's scaler gives
    # the same numbers as the calibrator fed the kept scores by hand
    rows = list(datasets.stream("weather", seed=0))[:1500]
    assert delayed.served(model, calibrator, "weather", 0, rows, 100) == pytest.approx(
        served_by_hand(model, calibrator, "weather", 0, rows, 100), rel=1e-12)


def test_the_report_bolds_each_rows_best_and_counts_the_calibrated_wins():
    def result(raw, platt):
        return {"rows": 1000, "raw": (raw, 0.5), "+platt": (platt, 0.4),
                "+isotonic": (raw, 0.6), "+ewa": (platt + 0.01, 0.45),
                "+platt served": (platt, 0.4), "+ewa served": (raw + 0.01, 0.5)}

    results = {("lr", "a", 0): [result(0.10, 0.08)] * 2,
               ("lr", "a", 100): [result(0.10, 0.12)] * 2,
               ("lr", "b", 0): [result(0.20, 0.18)] * 2,
               ("lr", "b", 100): [result(0.20, 0.195)] * 2}
    text = delayed.report(results, ["lr"], ["a", "b"], 2)
    assert "| a | 100 | **0.1000** | 0.1200 | **0.1000** | 0.1300 | 0.1200 | 0.1100 |" in text
    assert "| b | 0 | 0.2000 | **0.1800** | 0.2000 | 0.1900 | **0.1800** | 0.2100 |" in text
    # means over a and b; +platt beats raw on both at delay 0, on b alone at 100; isotonic
    # ties raw (a win is strictly lower), ewa (platt + 0.01) loses on b at 100
    assert "| lr | 0 | 2 | 0.1500 | 0.1300 | 0.1500 | 0.1400 | 0.1300 | 0.1600 | 0.5000 | " \
           "0.4000 | 0.6000 | 0.4500 | 0.4000 | 0.5000 | 2/2 | 0/2 | 2/2 | 2/2 | 0/2 |" in text
    assert "| lr | 100 | 2 | 0.1500 | 0.1575 | 0.1500 | 0.1675 | 0.1575 | 0.1600 |" in text
    # a delay as long as the stream: shown, marked, left out of the means
    results[("lr", "b", 1000)] = [{**result(0.25, 0.25), "rows": 1000}] * 2
    results[("lr", "a", 1000)] = [{**result(0.20, 0.10), "rows": 1500}] * 2
    text = delayed.report(results, ["lr"], ["a", "b"], 2)
    assert "| b | 1,000 (no label before the end) | **0.2500** |" in text
    assert "| lr | 1,000 | 1 | 0.2000 | 0.1000 |" in text and "| 1/1 | 0/1 |" in text
