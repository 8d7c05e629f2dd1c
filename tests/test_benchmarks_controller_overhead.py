"""benchmarks/controller_overhead.py: the controller's cost timed in several processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types

import pytest

from tests.simulation_loader import ROOT, load, run_script

overhead = load("controller_overhead", "benchmark_controller_overhead", folder="benchmarks")


def test_processes_report_the_median_of_each_process_ratio_and_their_range(monkeypatch, capsys):
    ratios = iter([0.8, 1.0, 0.9])  # one process each
    calls = []

    def fake_run(command, env, **kwargs):
        calls.append((command, env["PYTHONHASHSEED"]))
        ratio = next(ratios)
        result = {"lr": {"model alone": [100.0, 1.0, 0, 0.0, 0.2, None],
                         "both": [100.0 * ratio, ratio, 0, 0.0, 0.1,
                                  {"arms": {"both": 3}, "rounds": None, "batches": 3,
                                   "drifts": 0}]}}
        return types.SimpleNamespace(stdout=f"header\ncolumns\n{json.dumps(result)}\n")

    monkeypatch.setattr(overhead.subprocess, "run", fake_run)
    overhead.processes(types.SimpleNamespace(processes=3), ["--models", "lr", "--processes", "3"])
    out = capsys.readouterr().out
    assert out.startswith("3 processes (hash seeds 1-3), each: header\n")
    # the median process's ratio (0.9), the range over the three, the speeds' median
    assert "lr            both                                   90      0.90   0.80-1.00" in out
    assert "both 100%" in out
    assert [seed for _, seed in calls] == ["1", "2", "3"]
    # each child times in its own process once, and answers in JSON
    assert all(command[-3:] == ["--processes", "1", "--json"] for command, _ in calls)


@pytest.mark.slow
def test_a_run_in_two_processes_end_to_end():
    lines = run_script("benchmarks", "controller_overhead", "--dataset", "phishing", "--rows",
                       "300", "--models", "lr", "--repeats", "1", "--configs", "both",
                       "--processes", "2")
    assert lines[0].startswith("2 processes (hash seeds 1-2), each: phishing, first 300 rows")
    alone, both = lines[2].split(), lines[3].split()
    assert alone[:2] == ["lr", "model"] and alone[4:6] == ["1.00", "1.00-1.00"]
    low, high = map(float, both[4].split("-"))
    assert both[1] == "both" and low <= float(both[3]) <= high


def test_a_bandits_row_says_how_many_minibatches_it_measured():
    rows = overhead.load_rows("phishing", None, 640)
    thinned = overhead.make("lr", "D-UCB, reward_every=64, no restart", {})
    overhead.run(thinned, rows, None)
    # 20 minibatches, 10 of warm-up: the 10 after it are all within reward_start (64), and
    # each is scored on the next, so the last one's round is still open
    assert overhead.describe(overhead.summary(thinned)).endswith("; 9/20 measured, 0 changes")
    both = overhead.make("lr", "both", {})
    overhead.run(both, rows, None)
    assert "measured" not in overhead.describe(overhead.summary(both))
    assert overhead.summary(overhead.make("lr", overhead.ALONE, {})) is None


def test_every_wrapper_is_built_with_the_calibrator_asked_for():
    from streamboost.calibration import EWACalibrator, OnlinePlattCalibrator

    for config in ("CalibratedClassifier", "both", "D-UCB, defaults"):
        wrapped = overhead.make("lr", config, {}, "ewa")
        assert isinstance(wrapped.calibrator_, EWACalibrator), config
        assert isinstance(overhead.make("lr", config, {}).calibrator_, OnlinePlattCalibrator)
    assert overhead.make("lr", overhead.ALONE, {}, "ewa").__class__.__name__ == (
        "LogisticRegression")


@pytest.mark.slow
def test_weighted_frames_weigh_every_models_rows_and_need_frames():
    command = [sys.executable, str(ROOT / "benchmarks" / "controller_overhead.py"), "--dataset",
               "phishing", "--rows", "320", "--models", "oza-lr", "--repeats", "1",
               "--configs", "both"]
    runs = {}
    for flags in (["--many", "16"], ["--many", "16", "--weighted"]):
        done = subprocess.run(command + flags, capture_output=True, text=True, check=True)
        lines = done.stdout.splitlines()
        runs[len(flags)] = lines
    assert runs[3][0].startswith("by weighted frames of 16 rows, phishing")
    assert runs[2][0].startswith("by frames of 16 rows, phishing")
    # the weights reach the model alone and the wrapped one: other Brier scores
    briers = {n: [re.findall(r"\d\.\d{4}\b", line)[0] for line in lines[2:4]]
              for n, lines in runs.items()}
    assert briers[2][0] != briers[3][0] and briers[2][1] != briers[3][1]
    refused = subprocess.run([*command, "--weighted"], capture_output=True, text=True)
    assert refused.returncode == 2 and "--weighted weighs the rows of frames" in refused.stderr


def test_every_run_gets_new_frames_of_the_same_rows():
    # pandas keeps what it learned of a frame's columns (is_unique) on the frame: frames replayed
    # from an earlier run would hide from later runs a cost every new frame of a stream pays
    rows = [({"a": float(i), "b": -float(i)}, i % 2 == 0) for i in range(5)]
    first, second = (overhead.make_frames(rows, 2, [1.0, 2.0, 3.0, 4.0, 5.0]) for _ in range(2))
    assert [len(X) for X, _, _ in first] == [2, 2, 1]
    for (X, y, kwargs), (again, y_again, kwargs_again) in zip(first, second, strict=True):
        assert X is not again and X.columns is not again.columns
        assert X.equals(again) and y.equals(y_again) and kwargs == kwargs_again
    assert first[2][0].to_dict("records") == [rows[4][0]] and first[1][2] == {"w": [3.0, 4.0]}
    assert overhead.make_frames(rows, 2)[0][2] == {}


def test_by_hand_is_the_calibrated_classifiers_work_without_its_bookkeeping():
    # the floor a wrapper's own cost is measured from must compute what the wrapper computes:
    # every probability equal, for our booster (scored directly) and a River model
    rows = overhead.load_rows("phishing", None, 300)
    for name in ("oza-lr", "lr", "ht"):
        by_hand = overhead.make(name, overhead.BY_HAND, {}, "beta")
        wrapper = overhead.make(name, "CalibratedClassifier", {}, "beta")
        for x, y in rows:
            assert by_hand.predict_proba_one(x) == wrapper.predict_proba_one(x), name
            by_hand.learn_one(x, y)
            wrapper.learn_one(x, y)
        assert overhead.summary(by_hand) is None


@pytest.mark.slow
def test_by_hand_runs_one_example_at_a_time_only():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "controller_overhead.py"), "--rows", "64",
         "--models", "lr", "--many", "32", "--configs", "by hand"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2 and "'by hand' runs one example at a time" in done.stderr
    # left out of the default configurations by frames, which run
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "controller_overhead.py"), "--dataset",
         "phishing", "--rows", "64", "--models", "lr", "--many", "32", "--repeats", "1"],
        capture_output=True, text=True, check=True,
    )
    assert "by hand" not in done.stdout and "CalibratedClassifier" in done.stdout


def test_score_sets_every_boosters_score_and_leaves_the_other_models_alone():
    # the library's default model is scored soft; the benchmark's boosters by their own rule,
    # the vote, unless --score says otherwise
    assert overhead.make("oza-lr", overhead.ALONE, {}).score == "vote"
    for name, config in (("oza-lr", overhead.ALONE), ("oza-lr", overhead.BY_HAND),
                         ("oza-lr", "both"), ("oza-ht", "D-UCB, defaults")):
        built = overhead.make(name, config, {}, "platt", "soft")
        model = built if config == overhead.ALONE else built.model  # the wrappers' `model`
        assert model.score == "soft", (name, config)
    scaled = overhead.make("scaled-oza-lr", "both", {}, "platt", "soft")  # wraps scaler | booster
    assert list(scaled.model.steps.values())[-1].score == "soft"
    piped = overhead.make("piped-oza-lr", "both", {}, "platt", "soft")  # scaler | wrapper
    assert list(piped.steps.values())[-1].model.score == "soft"
    # a model with its own probabilities is built as it is
    assert overhead.make("lr", "both", {}, "platt", "soft").model.__class__.__name__ == (
        "LogisticRegression")
    lines = run_script("benchmarks", "controller_overhead", "--dataset", "phishing", "--rows",
                       "64", "--models", "oza-lr", "--configs", "both", "--repeats", "1",
                       "--score", "soft")
    assert "boosters scored soft" in lines[0]


def test_piped_models_put_the_scaler_before_the_model_and_before_each_wrapper():
    from river import preprocessing

    from streamboost import BanditCalibratedClassifier

    rows = overhead.load_rows("phishing", None, 320)
    alone = overhead.make("piped-oza-lr", overhead.ALONE, {})
    bandit = overhead.make("piped-oza-lr", "D-UCB, defaults", {})
    for piped in (alone, bandit):
        assert type(next(iter(piped.steps.values()))) is preprocessing.StandardScaler
    assert type(list(bandit.steps.values())[-1]) is BanditCalibratedClassifier
    # the wrapper's model is the model alone, not a pipeline with its own scaler
    assert type(list(bandit.steps.values())[-1].model).__name__ == "OzaBoostClassifier"
    reference = preprocessing.StandardScaler() | overhead.make("oza-lr", overhead.ALONE, {})
    for x, y in rows[:100]:
        assert alone.predict_proba_one(x) == reference.predict_proba_one(x)
        alone.learn_one(x, y)
        reference.learn_one(x, y)
    overhead.run(bandit, rows, None)  # the controller is found behind the scaler
    assert "measured" in overhead.describe(overhead.summary(bandit))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "controller_overhead.py"), "--rows", "64",
         "--models", "piped-lr", "--configs", "by hand"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2 and "is not a River estimator to put after a scaler" in done.stderr
