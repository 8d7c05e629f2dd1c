"""benchmarks/pipeline_scaler.py: a scaler before a wrapper, and learning during predict."""

from __future__ import annotations

import itertools

from river import compose

from streamboost import datasets
from streamboost.scores import PrequentialScore
from tests.simulation_loader import load, run_script

scaler = load("pipeline_scaler", "benchmark_pipeline_scaler", folder="benchmarks")


def test_only_the_wrapper_after_a_scaler_learning_after_it_scores_each_example_twice():
    lines = run_script("benchmarks", "pipeline_scaler", "--rows", "200", "--repeats", "1")
    assert lines[0].endswith("phishing, 200 rows, median of 1")
    twice = {line[:64].strip(): float(line.split()[-2]) for line in lines[2:]}
    assert list(twice) == list(scaler.CONFIGS)
    assert twice.pop("CalibratedClassifier after the scaler") > 0.9
    assert set(twice.values()) == {0.0}


def test_every_example_but_the_first_is_scored_again_behind_a_scaler_learning_first():
    # River's pipeline hands learn_one x scaled anew; the first example, before the scaler
    # has seen anything, maps to the same dict either way
    rows = list(itertools.islice(datasets.stream("phishing"), 200))
    assert scaler.run("CalibratedClassifier after the scaler", rows)[1] == 199 / 200
    assert scaler.run("the scaler inside CalibratedClassifier", rows)[1] == 0.0


def test_learning_during_predict_is_a_context_and_the_counter_restores_the_scorer():
    model, context = scaler.make("CalibratedClassifier after the scaler, learning during predict")
    assert type(context) is type(compose.learn_during_predict())
    fresh = PrequentialScore._fresh
    with scaler.Rescored() as rescored:
        model.learn_one({"a": 1.0}, True)  # nothing predicted: scored in learn_one
    assert rescored.count == 1 and PrequentialScore._fresh is fresh
