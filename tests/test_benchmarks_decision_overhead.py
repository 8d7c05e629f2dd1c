"""benchmarks/decision_overhead.py: what a cost-sensitive decision costs over the model's own."""

from __future__ import annotations

from tests.simulation_loader import load, run_script

overhead = load("decision_overhead", "benchmark_decision_overhead", folder="benchmarks")


def test_every_configuration_is_timed_against_the_model_alone_end_to_end():
    lines = run_script("benchmarks", "decision_overhead", "--dataset", "phishing", "--train",
                       "200", "--rows", "300", "--frame", "64", "--models", "lr", "--repeats", "1")
    assert lines[0].startswith("phishing, 300 rows decided after 200 learned, costs 1:4")
    rows = [line.split() for line in lines[2:]]
    assert [(r[1], " ".join(r[2:-2])) for r in rows] == [
        ("model", "alone one"),
        ("CostSensitiveClassifier", "one"), ("CostSensitiveClassifier", "one, costs"),
        ("CostSensitiveClassifier", "many (64)"),
        ("CalibratedClassifier", "one"), ("CalibratedClassifier", "one, costs"),
        ("CalibratedClassifier", "many (64)"),
    ]
    assert rows[0][-1] == "1.00" and all(float(r[-2]) > 0 for r in rows)


def test_a_wrapper_learns_the_training_rows_with_its_model():
    rows = [({"a": float(i % 7) - 3.0}, i % 7 > 3) for i in range(60)]
    wrapped = overhead.trained("lr", "CalibratedClassifier", rows)
    alone = overhead.trained("lr", None, rows)
    assert wrapped.calibrator_.n_seen == 60
    assert wrapped.model.weights == alone.weights  # the same model, learned the same rows
