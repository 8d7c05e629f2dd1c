"""The `streamboost` command, in-process through `main(argv)` and once as the console script."""

from __future__ import annotations

import csv
import gzip
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from river import preprocessing

from streamboost import BanditCalibratedClassifier, __version__, bandits, datasets
from streamboost.cli import _describe, _parser, main
from streamboost.experiments import Cell, make_grid, run_grid
from streamboost.metrics import BrierScore

TINY = ["--max-rows", "200", "--no-progress"]


@pytest.mark.parametrize("command", [[], ["run"], ["compare"], ["datasets"]])
def test_every_command_has_help_with_examples(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "streamboost" in out


@pytest.mark.parametrize(("argv", "meant"), [
    (["run", "--dataset", "phishing", "--calibrator", "isotonik"], "isotonic"),
    (["run", "--dataset", "phishing", "--model", "ozalr"], "oza-lr"),
    (["run", "--dataset", "phishing", "--rollback", "Hold_out"], "holdout"),
    (["compare", "--metric", "Brier"], "brier"),
    (["Compare"], "compare"),
    (["run", "--dataset", "phishing", "--calibrator", "sigmoid"], None),
])
def test_a_mistyped_choice_is_answered_with_the_choice_meant(argv, meant, capsys):
    """argparse's own "invalid choice" (of an option's choices or of a command) adds the
    choice meant, as the library's errors do, and nothing for a name far from all of them."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err
    assert (f"(did you mean {meant!r}?)" in err) if meant else ("did you mean" not in err)


def test_run_prints_the_metrics_and_writes_the_trace(tmp_path, capsys):
    trace = tmp_path / "trace.csv"
    status = main(["run", "--dataset", "phishing", "--policy", "every-2", "--c-fn", "10",
                   "--batch-size", "20", "--trace", str(trace), *TINY])  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    # the library's default model, scored soft; Platt's step by the model (`scores.named_step`)
    assert ("phishing (first 200 examples), model oza-lr (score soft), calibrator platt "
            "(gamma 1), policy every-2") in out
    assert "c_FN = 10" in out
    for label in ("Brier score", "log-loss", "expected cost", "allocation", "p > 0.09091"):
        assert label in out
    # 10 minibatches: the warm-up trains, then every-2 calibrates every second one
    assert "of 10 minibatches" in out
    with trace.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["n"]) for r in rows] == list(range(20, 201, 20))
    assert {"brier", "log_loss", "arm", "reward"} <= set(rows[0])
    assert "cumulative reward" not in out  # a schedule measures no reward


def test_run_at_its_defaults_is_the_librarys_default_controller(tmp_path):
    # since 0.8.56 the CLI's model is BanditCalibratedClassifier()'s (the booster scored soft)
    # and so is its warm-up (calibrating too): a run's Brier score is the library's, bit for bit
    trace = tmp_path / "trace.csv"
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--max-rows",
                 "640", "--trace", str(trace), "--no-progress"]) == 0
    with trace.open() as f:
        cli = float(list(csv.DictReader(f))[-1]["brier"])
    model = preprocessing.StandardScaler() | BanditCalibratedClassifier(policy="discounted-ucb",
                                                                        seed=0)
    brier = BrierScore()
    for x, y in itertools.islice(datasets.stream("phishing", seed=0), 640):
        brier.update(y, model.predict_proba_one(x))
        model.learn_one(x, y)
    assert cli == brier.get()
    # the recorded grids' settings, given: another run
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--max-rows",
                 "640", "--trace", str(trace), "--no-progress", "--score", "vote",
                 "--warmup-arm", "train"]) == 0
    with trace.open() as f:
        assert float(list(csv.DictReader(f))[-1]["brier"]) != cli


@pytest.mark.parametrize(("policy", "scale"), [
    ("discounted-ucb", "each in [0, 1], 0.5 = no change"),
    ("gaussian-thompson", "each a round's improvement over the running RMS, 0 = no change"),
])
def test_run_says_what_a_policys_rewards_mean(policy, scale, capsys):
    assert main(["run", "--dataset", "phishing", "--policy", policy, *TINY]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines()
                if "cumulative reward" in line)
    assert line.endswith(f"(sum of the policy's rewards, {scale})")


def test_run_reads_a_csv_by_its_address(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("STREAMBOOST_CACHE", str(tmp_path / "cache"))
    url = datasets.fetch("phishing").as_uri()  # file://...; http(s) is tested in test_datasets
    assert main(["run", "--dataset", url, "--policy", "never", *TINY]) == 0
    assert f"{url} (first 200 examples)" in capsys.readouterr().out
    assert len(list((tmp_path / "cache" / "urls").iterdir())) == 1
    assert main(["run", "--dataset", url + ".missing", *TINY]) == 2
    assert "error: could not download file:" in capsys.readouterr().err


def test_run_with_a_train_budget(capsys):
    assert main(["run", "--dataset", "phishing", "--policy", "both", "--train-budget", "0.25",
                 "--batch-size", "20", "--max-rows", "1000", "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "changes flagged" not in out  # no reserve, no detector
    assert "rounds measured" not in out  # a schedule measures nothing
    assert not any(line.strip().startswith("regret") for line in out.splitlines())  # nor regrets
    allocation = next(line for line in out.splitlines() if "allocation" in line)
    # 50 minibatches: 10 of warm-up, which train and calibrate ("both", the library's warm-up),
    # then one in four of the other 40 may train
    assert "train 0 (0.0%), calibrate 30 (60.0%), both 20 (40.0%) of 50" in allocation
    with pytest.raises(SystemExit):
        main(["run", "--dataset", "phishing", "--train-budget", "0"])
    assert "expected a share in (0, 1], got '0'" in capsys.readouterr().err


def test_run_with_a_budget_reserve(capsys):
    # half the budget held back: no change flagged in 1,000 phishing rows, so half of it trains
    assert main(["run", "--dataset", "phishing", "--policy", "both", "--train-budget", "0.25",
                 "--budget-reserve", "0.5", "--batch-size", "20", "--max-rows", "1000",
                 "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    allocation = next(line for line in out if "allocation" in line)
    assert "train 0 (0.0%), calibrate 35 (70.0%), both 15 (30.0%) of 50" in allocation
    assert next(line for line in out if "changes flagged" in line).split()[2] == "0"
    assert next(line for line in out if "train budget" in line).endswith(
        "spent evenly; 50% of it held for a change")
    for bad in ("1", "-0.1", "x"):
        with pytest.raises(SystemExit):
            main(["run", "--dataset", "phishing", "--train-budget", "0.5", "--budget-reserve", bad])
        assert f"expected a share in [0, 1), got '{bad}'" in capsys.readouterr().err
    assert main(["run", "--dataset", "phishing", "--budget-reserve", "0.1", "--max-rows", "100",
                 "--no-progress"]) == 2  # fmt: skip
    assert "set train_budget" in capsys.readouterr().err


def test_run_with_the_budget_timed_by_the_loss(capsys):
    run = ["run", "--dataset", "phishing", "--policy", "both", "--train-budget", "0.25",
           "--batch-size", "20", "--max-rows", "1000", "--no-progress"]
    allocations, budgets = [], []
    for timing in ("even", "loss"):
        assert main([*run, "--budget-timing", timing]) == 0
        out = capsys.readouterr().out.splitlines()
        allocations.append(next(line for line in out if "allocation" in line))
        budgets.append(next(line for line in out if "train budget" in line).split("  ")[-1].strip())
    # evenly, one in four of the 40 minibatches after the warm-up trains; timed by the loss,
    # fewer on 1,000 rows (up to 4 minibatches' worth waits for a high loss)
    assert "train 0 (0.0%), calibrate 30 (60.0%), both 20 (40.0%) of 50" in allocations[0]
    both = int(allocations[1].split("both ")[1].split()[0]) - 10  # less the warm-up's
    assert 6 <= both < 10
    assert budgets == [
        "25% of the minibatches after the warm-up, spent evenly",
        "25% of the minibatches after the warm-up, spent after the minibatches whose loss "
        "ranks highest (--budget-timing loss)"]
    assert main(["run", "--dataset", "phishing", "--budget-timing", "loss", "--max-rows", "100",
                 "--no-progress"]) == 2  # fmt: skip
    assert "set train_budget" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*run, "--budget-timing", "late"])
    assert "invalid choice: 'late'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="budget_timing must be one of"):
        Cell("phishing", "both", train_budget=0.25, budget_timing="late")


def test_the_reward_budget_reaches_the_controller(tmp_path, capsys):
    trace = tmp_path / "trace.csv"
    run = ["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--reward-every", "4",
           "--reward-start", "6", "--reward-examples", "8", "--batch-size", "20",
           "--max-rows", "1000", "--no-progress", "--trace", str(trace)]
    assert main(run) == 0
    out = capsys.readouterr().out
    assert ("policy discounted-ucb (reward: one minibatch in 4 after the first 6 and the 6 after "
            "each change flagged, 8 examples scored)") in out
    assert "changes flagged" in out  # the detector that restarts the dense measuring
    assert main([*run, "--no-reward-restart"]) == 0
    out = capsys.readouterr().out
    assert ("policy discounted-ucb (reward: one minibatch in 4 after the first 6, 8 examples "
            "scored)") in out
    assert "changes flagged" not in out
    regret = next(line for line in out.splitlines() if line.strip().startswith("regret"))
    assert "against the best fixed arm in hindsight" in regret
    with trace.open() as f:
        rows = list(csv.DictReader(f))
    # each arm's reward in its own column: all three where a training round was scored
    assert {"reward_train", "reward_calibrate", "reward_both"} <= set(rows[0])
    assert any(r["reward_train"] and r["reward_both"] for r in rows)
    assert all(not r["reward"] or r[f"reward_{r['rewarded_arm']}"] == r["reward"] for r in rows)
    rewarded = [int(r["batch"]) for r in rows if r["reward"]]
    # after the 10 warm-up minibatches, each of 6 is measured, then one in four, each scored
    # on the next one
    assert rewarded == [*range(11, 17), *range(17, 50, 4)]
    rounds = next(line for line in out.splitlines() if "rounds measured" in line)
    assert f"{len(rewarded)} of 50 minibatches" in rounds
    for flag, value in [("--reward-every", "0"), ("--reward-start", "-1")]:
        with pytest.raises(SystemExit):
            main(["run", "--dataset", "phishing", flag, value])
        assert flag in capsys.readouterr().err


def test_the_boosters_score_reaches_the_model_and_the_results_not_river_s_model(tmp_path,
                                                                                capsys):
    out = tmp_path / "grid"
    # with "never" and "both", compare also runs River's logistic regression, which has no score
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "--score",
                 "soft", "--max-rows", "300", "--seeds", "1", "--out", str(out),
                 "--no-progress", "--n-jobs", "1", "--no-figures"]) == 0  # fmt: skip
    config = json.loads((out / "config.json").read_text())
    assert config["grid"]["score"] == "soft" and config["grid"]["calibrator_gamma"] is None
    with (out / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["score"] for r in rows] == ["soft", "soft"]
    assert "River LR, Brier score" in capsys.readouterr().out
    assert main(["run", "--dataset", "phishing", "--score", "logistic", *TINY]) == 0
    assert "model oza-lr (score logistic), calibrator platt (gamma 0.1)" in capsys.readouterr().out
    assert main(["run", "--dataset", "phishing", "--score", "soft", "--calibrator", "beta",
                 *TINY]) == 0  # fmt: skip
    assert "model oza-lr (score soft), calibrator beta (gamma 1)" in capsys.readouterr().out
    assert main(["run", "--dataset", "phishing", "--calibrator-gamma", "0.5", *TINY]) == 0
    assert "calibrator platt (gamma 0.5)" in capsys.readouterr().out
    assert main(["run", "--dataset", "phishing", "--calibrator", "isotonic", *TINY]) == 0
    assert "calibrator isotonic, policy" in capsys.readouterr().out  # no step to show
    assert main(["run", "--dataset", "phishing", "--model", "arf", "--score", "soft",
                 *TINY]) == 2  # fmt: skip
    assert ("score='soft' sets a booster's score (oza-lr, oza-ht, oza-stump, oza-ulr); 'arf' "
            "has its own") in capsys.readouterr().err


@pytest.mark.parametrize("model", ["oza-stump", "oza-ulr"])
def test_the_thesis_weak_learners_are_models_of_run_and_compare(model, tmp_path, capsys):
    # the thesis's boosted weak learners (0.8.46): raw, 20 of them are far from calibrated,
    # and the controller's "both" calibrates them
    out = tmp_path / "grid"
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "--model",
                 model, "--n-models", "20", "--max-rows", "2000", "--seeds", "1", "--out",
                 str(out), "--no-progress", "--n-jobs", "1", "--no-figures"]) == 0  # fmt: skip
    with (out / "results.csv").open() as f:
        brier = {r["policy"]: float(r["brier"]) for r in csv.DictReader(f)}
    assert brier["both"] < 0.85 * brier["never"]
    assert main(["run", "--dataset", "phishing", "--model", model, "--n-models", "5",
                 *TINY]) == 0  # fmt: skip
    assert f"model {model}, calibrator platt (gamma 0.1)" in capsys.readouterr().out


def test_the_rollback_reaches_the_controller_and_the_results(tmp_path, capsys):
    out = tmp_path / "grid"
    assert main(["compare", "--datasets", "phishing", "--policies", "discounted-ucb",
                 "--rollback", "defer", "--reward-every", "4", "--max-rows", "600", "--seeds",
                 "1", "--out", str(out), "--no-progress", "--n-jobs", "1"]) == 0  # fmt: skip
    config = json.loads((out / "config.json").read_text())
    assert config["grid"]["rollback"] == "defer" and config["grid"]["reward_every"] == 4
    with (out / "results.csv").open() as f:
        assert [r["rollback"] for r in csv.DictReader(f)] == ["defer"]
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--rollback",
                 "defer", "--max-rows", "300", "--no-progress"]) == 0  # fmt: skip
    assert "policy discounted-ucb (rollback: defer)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["run", "--dataset", "phishing", "--rollback", "undo"])
    assert "--rollback: invalid choice: 'undo'" in capsys.readouterr().err


def test_holdout_is_run_with_its_sample_named_and_an_impossible_sample_refused(capsys):
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--rollback",
                 "holdout", "--max-rows", "300", "--no-progress"]) == 0  # fmt: skip
    assert ("(reward: every minibatch, the first example scored) (rollback: holdout)"
            in capsys.readouterr().out)
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--rollback",
                 "holdout", "--reward-examples", "4", "--max-rows", "300", "--no-progress"]) == 0
    assert ("(reward: every minibatch, the first 4 examples scored) (rollback: holdout)"
            in capsys.readouterr().out)
    assert main(["run", "--dataset", "phishing", "--rollback", "holdout", "--reward-examples",
                 "32", "--max-rows", "100", "--no-progress"]) == 2  # fmt: skip
    assert "reward_examples must be < batch_size (32), got 32" in capsys.readouterr().err


@pytest.mark.parametrize(("model", "said"), [("ht", " (rollback: holdout by auto)"), ("lr", "")])
def test_the_rollback_auto_chose_is_named(model, said, capsys):
    assert main(["run", "--dataset", "phishing", "--model", model, "--policy", "discounted-ucb",
                 "--max-rows", "200", "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "policy discounted-ucb" + (
        " (reward: every minibatch, the first example scored)" + said if said else ", "
    ) in out


def test_run_is_reproducible_from_the_seed(capsys):
    outputs = []
    for _ in range(2):
        main(["run", "--dataset", "weather", "--policy", "ucb1", "--seed", "4", *TINY])
        outputs.append(
            [line for line in capsys.readouterr().out.splitlines() if "time" not in line]
        )
    assert outputs[0] == outputs[1]


def test_arms_reach_the_controller(capsys):
    main(["run", "--dataset", "weather", "--policy", "ucb1", "--arms", "train", "calibrate",
          "--batch-size", "20", "--max-rows", "300", "--no-progress"])  # fmt: skip
    allocation = next(line for line in capsys.readouterr().out.splitlines() if "allocation" in line)
    assert "train" in allocation and "calibrate" in allocation and "both" not in allocation


def test_the_warm_up_arm_reaches_the_controller_and_the_results(tmp_path, capsys):
    # --warmup-arm (0.8.47): the warm-up's 10 minibatches calibrate too ("both", the default
    # since 0.8.56, as the library's) or train only, which the allocation names, and compare's
    # results and stored config carry it; a bad one is refused
    lines = []
    for flag in (["--warmup-arm", "train"], [], ["--warmup-arm", "both"]):
        main(["run", "--dataset", "weather", "--policy", "discounted-ucb", "--batch-size", "20",
              "--max-rows", "400", "--no-progress", *flag])  # fmt: skip
        out = capsys.readouterr().out
        lines.append([line for line in out.splitlines() if "allocation" in line
                      or "Brier score" in line])
    assert lines[0] != lines[1] == lines[2]  # the calibrator learned the warm-up's 200
    out = tmp_path / "out"
    assert main(["compare", "--datasets", "weather", "--policies", "both", "--seeds", "1",
                 "--warmup-arm", "both", "--out", str(out), "--no-figures", *TINY]) == 0
    with open(out / "results.csv", newline="") as handle:
        assert [row["warmup_arm"] for row in csv.DictReader(handle)] == ["both"]
    assert json.loads((out / "config.json").read_text())["grid"]["warmup_arm"] == "both"
    capsys.readouterr()
    assert main(["run", "--dataset", "weather", "--arms", "train", "calibrate",
                 "--policy", "ucb1", "--warmup-arm", "both", *TINY]) == 2
    assert "warmup_arm='both' is not one of the arms" in capsys.readouterr().err


def test_no_counterfactual_reaches_the_controller(capsys):
    """UCB1 must try every arm it has no reward for: without counterfactual rewards that means
    pulling "calibrate" and "both" once each; with them, one training minibatch scores all."""
    allocations = []
    for flag in ([], ["--no-counterfactual"]):
        main(["run", "--dataset", "weather", "--policy", "ucb1", "--batch-size", "20",
              "--max-rows", "300", "--no-progress", *flag])  # fmt: skip
        out = capsys.readouterr().out
        allocations.append([line for line in out.splitlines() if "allocation" in line])
    assert allocations[0] != allocations[1]


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["run", "--dataset", "nope"], ["'nope'", "phishing", "weather"]),
        (["run", "--dataset", "phishing", "--policy", "sometimes"],
         ["'sometimes'", "never", "every-<N>", "discounted-thompson"]),
        (["run", "--dataset", "phishing", "--c-fn", "-3"], ["'-3'", "> 0"]),
        (["compare", "--metric", "accuracy"], ["'accuracy'", "brier", "log_loss"]),
        (["compare", "--backend", "spark"], ["'spark'", "joblib", "dask"]),
        (["compare", "--max-rows", "lots"], ["'lots'", "'all'"]),
        (["compare", "--policies", "never", "every-0"], ["'every-0'", "N must be"]),
        (["compare", "--calibrator-gamma", "nan"], ["--calibrator-gamma", "'nan'"]),
    ],
)  # fmt: skip
def test_bad_arguments_name_the_value_and_the_accepted_ones(argv, needles, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    for needle in needles:
        assert needle in err


@pytest.mark.parametrize("written", ["all", "ALL", "All"])
def test_max_rows_all_in_any_case_reads_the_whole_stream(written):
    assert _parser().parse_args(["compare", "--max-rows", written]).max_rows is None
    assert _parser().parse_args(["compare", "--max-rows", "7"]).max_rows == 7


def test_inconsistent_options_are_errors_not_tracebacks(capsys):
    assert main(["compare", "--scheduler", "tcp://h:1", "--no-figures", *TINY]) == 2
    assert "--scheduler tcp://h:1 needs --backend dask" in capsys.readouterr().err
    # checked before any run starts
    assert main(["compare", "--alpha", "1.5", "--no-figures", *TINY]) == 2
    assert "--alpha must be in (0, 1), got 1.5" in capsys.readouterr().err
    assert main(["compare", "--n-jobs", "0", "--no-figures", *TINY]) == 2
    assert "--n-jobs must be a non-zero integer" in capsys.readouterr().err
    for bad in ("-1", "x"):  # argparse's own exit, naming the value
        with pytest.raises(SystemExit):
            main(["run", "--dataset", "phishing", "--reward-start", bad, *TINY])
        assert f"expected an integer >= 0, got '{bad}'" in capsys.readouterr().err


@pytest.mark.slow
def test_compare_writes_results_config_figures_and_resumes(tmp_path, capsys):
    out = tmp_path / "res"
    argv = ["compare", "--datasets", "phishing", "weather", "--policies", "never", "every-2",
            "ucb1", "--seeds", "2", "--batch-size", "20", "--n-jobs", "1", "--out", str(out),
            *TINY]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 dataset(s) x 3 policies x 1 cost ratio(s) x 2 seed(s) = 12 runs" in text
    assert "first 200 examples of each stream" in text
    assert "12 runs ok (0 from earlier runs), 0 failed" in text
    assert "Policies ranked by brier" in text and "No test: with 2 datasets and 3 policies" in text
    table = [line.split() for line in text.splitlines() if line[:2] in ("1 ", "2 ", "3 ")]
    assert sorted(row[1] for row in table) == ["every-2", "never", "ucb1"]
    with (out / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and {r["version"] for r in rows} == {__version__}
    assert {r["status"] for r in rows} == {"ok"}
    config = json.loads((out / "config.json").read_text())
    assert config["grid"]["seeds"] == [0, 1] and config["version"] == __version__
    assert config["command"][:2] == ["streamboost", "compare"]
    figures = {p.name for p in (out / "figures").iterdir()}
    assert {"critical_difference_brier.png", "brier_curve_weather_cr1.svg"} <= figures

    assert main(argv) == 0
    assert "12 runs ok (12 from earlier runs)" in capsys.readouterr().out


def test_compare_checks_its_data_before_any_run(tmp_path, capsys):
    bad = tmp_path / "data"
    bad.mkdir()
    (bad / "phishing.csv.gz").write_bytes(b"corrupt")
    status = main(["compare", "--datasets", "phishing", "--policies", "never", "both",
                   "--seeds", "1", "--data-dir", str(bad), "--out", str(tmp_path / "out"),
                   "--no-figures", *TINY])  # fmt: skip
    assert status == 2
    assert "phishing.csv.gz has sha256" in capsys.readouterr().err
    assert not (tmp_path / "out" / "cells").exists()  # nothing ran
    status = main(["compare", "--datasets", "electricity", "--policies", "never",
                   "--data-dir", str(tmp_path), "--out", str(tmp_path / "out")])  # fmt: skip
    assert status == 2
    assert "electricity not found (files electricity.csv.gz); pass --data-dir" in (
        capsys.readouterr().err
    )


def test_compare_reports_a_failed_run_and_returns_1(tmp_path, capsys, monkeypatch):
    from streamboost.experiments import grid

    def fail(self, **kwargs):
        raise RuntimeError(f"boom in {self.policy}")

    monkeypatch.setattr(grid.Cell, "run", fail)
    status = main(["compare", "--datasets", "phishing", "--policies", "never", "both", "ucb1",
                   "--seeds", "1", "--n-jobs", "1", "--out", str(tmp_path / "out"),
                   "--no-figures", *TINY])  # fmt: skip
    assert status == 1
    captured = capsys.readouterr()
    assert captured.err.count("FAILED phishing") == 3 and "boom in ucb1" in captured.err
    assert "0 runs ok (0 from earlier runs), 3 failed" in captured.out
    assert "No ranking" in captured.out


def test_compare_on_a_new_dask_local_cluster(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    argv = [
        "compare",
        "--datasets",
        "phishing",
        "--policies",
        "never",
        "both",
        "--seeds",
        "1",
        "--backend",
        "dask",
        "--n-jobs",
        "1",
        "--no-figures",
        "--out",
        str(tmp_path),
        *TINY,
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "backend dask" in out and "2 runs ok" in out


def test_datasets_lists_the_registry(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == datasets.describe_registry().strip()
    assert "phishing" in out and "weather" in out


@pytest.mark.slow
def test_console_script_entry_point(tmp_path):
    script = Path(sys.executable).with_name("streamboost")
    if not script.exists():
        pytest.skip("the console script is not installed (pip install -e .)")
    done = subprocess.run(
        [str(script), "run", "--dataset", "phishing", "--policy", "never", *TINY],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Brier score" in done.stdout
    version = subprocess.run([str(script), "--version"], capture_output=True, text=True,
                             check=False)  # fmt: skip
    assert version.stdout.strip() == f"streamboost {__version__}"


@pytest.mark.slow
def test_python_dash_m_runs_the_same_command():
    done = subprocess.run([sys.executable, "-m", "streamboost", "run", "--dataset", "phishing",
                           "--policy", "nonsense"], capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
    assert done.returncode == 2 and "nonsense" in done.stderr
    version = subprocess.run([sys.executable, "-m", "streamboost", "--version"],
                             capture_output=True, text=True, check=False)  # fmt: skip
    assert version.returncode == 0 and version.stdout.strip() == f"streamboost {__version__}"


def test_compare_without_matplotlib_prints_the_table_and_skips_figures(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    argv = ["compare", "--datasets", "phishing", "--policies", "never", "both", "ucb1",
            "--seeds", "1", "--n-jobs", "1", "--out", str(tmp_path), *TINY]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Policies ranked by brier" in out
    assert 'figures: skipped (figures need matplotlib: pip install "streamboost[plots]")' in out
    assert not (tmp_path / "figures").exists()


def test_a_core_install_runs_the_default_commands(tmp_path, monkeypatch, capsys):
    """Without the progress and parallel extras (tqdm, joblib), run and compare still work:
    no progress bar, and the grid's cells run one after the other."""
    monkeypatch.setitem(sys.modules, "tqdm", None)  # importing them now raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    monkeypatch.setitem(sys.modules, "joblib", None)
    assert main(["run", "--dataset", "phishing", "--max-rows", "400"]) == 0
    assert "Brier" in capsys.readouterr().out
    argv = ["compare", "--datasets", "phishing", "--policies", "never", "both", "--seeds", "1",
            "--max-rows", "400", "--no-figures", "--n-jobs", "2", "--out", str(tmp_path)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "running the 2 cells one after the other" in captured.err
    assert "2 runs ok" in captured.out


def test_a_second_grid_in_the_same_folder_adds_to_the_results(tmp_path, capsys):
    common = ["--datasets", "phishing", "--seeds", "1", "--n-jobs", "1", "--out", str(tmp_path),
              "--no-figures", *TINY]
    assert main(["compare", "--policies", "never", "both", *common]) == 0
    assert main(["compare", "--policies", "never", "every-2", *common]) == 0
    out = capsys.readouterr().out
    assert "(3 rows: this grid's 2 and 1 from earlier grids" in out
    with open(tmp_path / "results.csv") as f:
        assert sorted(row["policy"] for row in csv.DictReader(f)) == ["both", "every-2", "never"]


def write_own_csv(path, n=1500, seed=0):
    import gzip
    import random

    rng = random.Random(seed)
    with gzip.open(path, "wt") as f:
        f.write("amount,country,label\n")
        for _ in range(n):
            fraud = rng.random() < 0.2
            amount = rng.gauss(300 if fraud else 100, 60)
            country = rng.choice(["fr", "de"] if fraud else ["fr", "de", "uk", "es"])
            f.write(f"{amount:.2f},{country},{'fraud' if fraud else 'ok'}\n")
    return path


def test_run_and_compare_take_a_csv_file_of_the_users(tmp_path, capsys):
    own = str(write_own_csv(tmp_path / "payments.csv.gz"))
    assert main(["run", "--dataset", own, "--target", "label", "--c-fn", "10",
                 "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "positive class: 'fraud'" in out  # the minority class
    brier = float(next(line for line in out.splitlines() if "Brier score" in line).split()[-1])
    assert brier < 0.1  # the amount separates the classes: far better than the prior's 0.16
    assert main(["run", "--dataset", own, "--target", "label", "--pos-label", "ok",
                 "--no-progress", "--max-rows", "300"]) == 0  # fmt: skip
    assert "positive class: 'ok'" in capsys.readouterr().out
    other = str(write_own_csv(tmp_path / "other.csv.gz", seed=1))
    assert main(["compare", "--datasets", own, other, "--target", "label", "--policies",
                 "never", "both", "--seeds", "2", "--n-jobs", "1", "--no-figures",
                 "--no-progress", "--out", str(tmp_path / "out")]) == 0  # fmt: skip
    assert "8 runs ok" in capsys.readouterr().out


def test_rare_positives_replayed_by_run_and_compare(tmp_path, capsys):
    assert main(["run", "--dataset", "phishing", "--positive-prior", "0.05", "--c-fn", "20",
                 "--no-progress"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    # phishing: 4,898 positives ('-1') and 6,157 negatives, all kept; 324 = 0.05 x 6157 / 0.95
    assert ("undersampled to a share of positives of 0.05 (--positive-prior): 324 positive and "
            "6157 negative examples kept, in order") in out
    assert "examples           6481" in out
    assert main(["run", "--dataset", "phishing", "--positive-prior", "1", "--no-progress"]) == 2
    assert "positive_prior must be in (0, 1), got 1.0" in capsys.readouterr().err
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "--seeds",
                 "1", "--positive-prior", "0.05", "--max-rows", "500", "--n-jobs", "1",
                 "--no-figures", "--no-progress", "--out", str(tmp_path)]) == 0  # fmt: skip
    assert "undersampled to a share of positives of 0.05" in capsys.readouterr().out
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["grid"]["positive_prior"] == 0.05
    with open(tmp_path / "results.csv") as f:
        assert {row["positive_prior"] for row in csv.DictReader(f)} == {"0.05"}


def test_a_cost_per_example_from_a_column_of_the_data(tmp_path, capsys):
    own = tmp_path / "payments.csv"
    with gzip.open(write_own_csv(tmp_path / "signed.csv.gz"), "rt") as f:
        header, *rows = f.read().splitlines()
    # an amount is a cost: > 0 (the generator draws a few below 0, kept for the error below)
    own.write_text("\n".join([header, *(row.lstrip("-") for row in rows)]) + "\n")
    common = ["run", "--dataset", str(own), "--target", "label", "--no-progress"]
    assert main([*common, "--c-fn-feature", "amount", "--c-fn", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "c_FN = 0.05 x amount, seed 0" in out
    assert "c_FN = 0.05 x amount is the cost of missing one" in out
    assert "decide positive iff p > c_FP / (c_FP + c_FN x amount), each example's own" in out
    cell = Cell(str(own), "both", cost_ratio=0.05, target="label", c_fn_feature="amount",
                warmup_arm=None, score="soft")  # the CLI's defaults, the library's
    expected = float(next(line for line in out.splitlines() if "expected cost" in line).split()[2])
    assert expected == round(cell.run().expected_cost, 4)
    assert main([*common, "--c-fn", "5"]) == 0  # the average cost, one threshold: not the same
    assert f"expected cost      {expected:.4f}" not in capsys.readouterr().out
    # compare: every cell charges each example its own cost
    assert main(["compare", "--datasets", str(own), "--target", "label", "--c-fn-feature",
                 "amount", "--policies", "never", "both", "--seeds", "1", "--n-jobs", "1",
                 "--no-figures", "--no-progress", "--out", str(tmp_path / "out")]) == 0
    assert "2 runs ok" in capsys.readouterr().out
    configs = [json.loads(p.read_text())["config"] for p in (tmp_path / "out" / "cells").iterdir()]
    assert [c["c_fn_feature"] for c in configs] == ["amount", "amount"]
    with (tmp_path / "out" / "results.csv").open() as f:
        assert [row["c_fn_feature"] for row in csv.DictReader(f)] == ["amount", "amount"]
    # refused before anything runs: a column no example has, or not a number
    for column, said in (("amout", "no such column (did you mean 'amount'?) (columns: amount, "
                                   "country)"),
                         ("country", "its first example has 'uk' (columns: amount, country)")):
        assert main([*common, "--c-fn-feature", column]) == 2
        captured = capsys.readouterr()
        assert f"--c-fn-feature {column!r} must name a numeric column of {own}: {said}" in (
            captured.err)
        assert "Brier" not in captured.out
    # a bandit rewarded by the realised cost charges each example its own cost too
    bandit = [*common, "--policy", "discounted-ucb", "--reward", "expected-cost", "--trace"]
    assert main([*bandit, str(tmp_path / "own.csv"), "--c-fn-feature", "amount"]) == 0
    assert main([*bandit, str(tmp_path / "one.csv"), "--c-fn", "5"]) == 0
    capsys.readouterr()
    rewards = [[row["reward"] for row in csv.DictReader((tmp_path / name).open())]
               for name in ("own.csv", "one.csv")]
    assert rewards[0] != rewards[1] and any(rewards[0])
    # an amount that cannot be a cost stops the run at that example, before it is scored
    signed = str(tmp_path / "signed.csv.gz")
    assert main(["run", "--dataset", signed, "--target", "label", "--no-progress",
                 "--c-fn-feature", "amount"]) == 2
    assert "c_fn_feature needs a number there whose product with c_fn = 1.0 is finite and > 0" in (
        capsys.readouterr().err)


def test_run_names_the_classes_and_refuses_a_positive_label_no_example_has(tmp_path, capsys):
    three = tmp_path / "three.csv"
    three.write_text("a,target\n" + "".join(f"{i % 7},{c}\n" for i, c in enumerate("xyyzzz" * 20)))
    assert main(["run", "--dataset", str(three), "--no-progress"]) == 0
    assert ("positive class: 'x' (20 of 120 examples; c_FN = 1 is the cost of missing one); "
            "negative: the other 2 classes together, 'z' (60), 'y' (40)\n"
            in capsys.readouterr().out)
    assert main(["run", "--dataset", str(three), "--pos-label", "z", "--no-progress"]) == 0
    assert "positive class: 'z' (60 of 120 examples" in capsys.readouterr().out
    assert main(["run", "--dataset", "phishing", "--max-rows", "64", "--no-progress"]) == 0
    assert "negative: '1' (6157)\n" in capsys.readouterr().out
    assert main(["compare", "--datasets", str(three), "phishing", "--policies", "never", "both",
                 "--seeds", "1", "--max-rows", "64", "--no-figures", "--no-progress",
                 "--out", str(tmp_path / "grid")]) == 0  # fmt: skip
    assert (f"positive class: {three} 'x' (against the other 2 classes together), "
            "phishing '-1'\n" in capsys.readouterr().out)
    # a typo in --pos-label made every example negative, silently; now nothing runs
    out = tmp_path / "out"
    for command in (["run", "--dataset", str(three)],
                    ["compare", "--datasets", str(three), str(three), "--out", str(out)]):
        assert main([*command, "--pos-label", "w", "--no-progress"]) == 2
        captured = capsys.readouterr()
        assert f"positive='w' is not a class of {str(three)!r}: ['x', 'y', 'z']" in captured.err
        assert "Brier" not in captured.out
    assert not out.exists()


def test_a_dataset_that_is_neither_registered_nor_a_file(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--dataset", "nowhere.csv"])
    assert "neither a registered name" in capsys.readouterr().err
    assert main(["run", "--dataset", "phishing", "--pos-label", "maybe"]) == 2
    assert "pos_label 'maybe' is not a class of 'phishing'" in capsys.readouterr().err


def test_run_warns_when_its_examples_end_within_the_warm_up(capsys):
    assert main(["run", "--dataset", "phishing", "--policy", "discounted-ucb", "--max-rows",
                 "320", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "the run's 320 examples are within the controller's warm-up (320 examples" in err
    assert "the policy (discounted-ucb) never chooses an arm" in err
    # one minibatch past the warm-up, or a smaller warm-up in examples: no warning
    assert main(["run", "--dataset", "phishing", "--max-rows", "321", "--no-progress"]) == 0
    assert main(["run", "--dataset", "phishing", "--max-rows", "300", "--batch-size", "16",
                 "--no-progress"]) == 0
    assert "warm-up" not in capsys.readouterr().err


def test_compare_warns_within_the_warm_up_and_says_what_each_policy_is(tmp_path, capsys):
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "every-4",
                 "--seeds", "1", "--max-rows", "300", "--no-figures", "--no-progress",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    captured = capsys.readouterr()
    assert "within the controller's warm-up (320 examples" in captured.err
    assert "  never: the model alone, never calibrated" in captured.out
    assert "  every-4: calibrate every 4-th minibatch" in captured.out


def test_compare_says_what_calibrating_buys(tmp_path, capsys):
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "--seeds",
                 "2", "--max-rows", "1500", "--no-figures", "--no-progress", "--n-jobs", "1",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    lines = {line.split("  ")[1].strip(): line.split()[-3:] for line in out.splitlines()
             if line.startswith("  ") and "->" in line}  # fmt: skip
    with (tmp_path / "results.csv").open() as f:
        rows = list(csv.DictReader(f))

    def mean(policy, column):
        values = [float(r[column]) for r in rows if r["policy"] == policy]
        return sum(values) / len(values)

    raw, _, calibrated = lines["Brier score"]
    assert float(raw) == pytest.approx(mean("never", "brier"), abs=1e-4)
    assert float(calibrated) == pytest.approx(mean("both", "brier"), abs=1e-4)
    raw, _, calibrated = lines["log-loss"]
    assert float(calibrated) < float(raw)  # the raw soft score is under-confident
    assert {"cost per example at c_FN:c_FP = 1:10", "cost per example at c_FN:c_FP = 10:1"} <= set(
        lines
    )
    # a plain River logistic regression beside it, on the same streams (not stored as runs)
    assert len(rows) == 4 and {r["model"] for r in rows} == {"oza-lr"}
    cells = make_grid(["phishing"], ["never", "both"], seeds=[0, 1], model="lr", max_rows=1500,
                      warmup_arm=None)
    river = {"never": [], "both": []}
    for record in run_grid(cells, None, n_jobs=1).records:
        river[record["config"]["policy"]].append(record["result"]["brier"])
    raw, _, calibrated = lines["River LR, Brier score"]
    assert float(raw) == pytest.approx(sum(river["never"]) / 2, abs=1e-4)
    assert float(calibrated) == pytest.approx(sum(river["both"]) / 2, abs=1e-4)
    assert float(raw) != pytest.approx(mean("never", "brier"), abs=1e-3)  # not our booster
    assert sum(label.startswith("River LR, ") for label in lines) == 5


def test_the_headlines_costs_count_the_cheaper_error_as_one(tmp_path, capsys):
    # the runs' own expected costs, at c_FP = 1 and c_FN = the ratio, are prequential decisions;
    # the headline reads its costs off the Brier curves, in units of the cheaper error
    assert main(["compare", "--datasets", "phishing", "--policies", "never", "both", "--seeds",
                 "1", "--max-rows", "800", "--cost-ratios", "0.1", "10", "--no-figures",
                 "--no-progress", "--n-jobs", "1", "--out", str(tmp_path)]) == 0  # fmt: skip
    lines = {line.split("  ")[1].strip(): line.split() for line in capsys.readouterr().out
             .splitlines() if line.startswith("  ") and "->" in line}  # fmt: skip
    with (tmp_path / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    for label, ratio, unit in [("1:10", "0.1", 0.1), ("10:1", "10.0", 1.0)]:
        raw, _, calibrated = lines[f"cost per example at c_FN:c_FP = {label}"][-3:]
        own = {r["policy"]: float(r["expected_cost"]) / unit for r in rows
               if r["cost_ratio"] == ratio}
        assert (float(raw), float(calibrated)) == pytest.approx(
            (own["never"], own["both"]), abs=1e-4)


def test_a_run_logged_to_a_file_has_no_progress_bar(tmp_path):
    # the bar is for terminals: in a log its first frame stood in front of the results
    pytest.importorskip("tqdm")
    log = tmp_path / "run.log"
    with log.open("w") as out:
        status = subprocess.run(
            [sys.executable, "-m", "streamboost", "run", "--dataset", "phishing", "--max-rows",
             "300"], stdout=out, stderr=subprocess.STDOUT, check=False,
        ).returncode
    text = log.read_text()
    assert status == 0 and "examples" in text
    assert "ex/s" not in text and "%|" not in text


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--c-fn", "abc", "expected a finite number > 0, got 'abc'"),
    ("--batch-size", "ten", "expected an integer >= 1, got 'ten'"),
])
def test_a_word_where_a_number_goes_is_named(option, value, said, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--dataset", "phishing", option, value])
    assert exit_info.value.code == 2
    assert said in capsys.readouterr().err


def test_ctrl_c_in_a_command_exits_130_without_a_traceback(monkeypatch, capsys):
    import streamboost.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_datasets", interrupted)
    assert main(["datasets"]) == 130
    assert capsys.readouterr().err == "\nstreamboost: interrupted\n"


def test_a_reader_gone_away_ends_the_command_quietly(monkeypatch, capsys):
    import streamboost.cli as cli

    def piped(args):  # as `streamboost datasets | head` when head has read enough
        raise BrokenPipeError

    monkeypatch.setattr(cli, "_datasets", piped)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # main points it at os.devnull: put back
    assert main(["datasets"]) == 0
    assert capsys.readouterr().err == ""


def test_every_policy_has_its_own_line_in_the_legend():
    lines = {name: _describe(name) for name in (*bandits.POLICIES, "never", "both", "every-4")}
    assert len(set(lines.values())) == len(lines)  # no generic fallback shared by several
    assert all("$" not in line and "\\" not in line for line in lines.values())  # plain text
    assert lines["every-nth"].startswith("bandit: Pull arm 1 on every n-th round")  # not N = nth
    assert lines["sliding-window-ucb-improved"].endswith("the last tau rounds' statistics")
    assert lines["every-4"] == "calibrate every 4-th minibatch, train the others"



def test_the_legends_both_is_what_a_grid_runs_the_controller_after_its_warm_up():
    # "both" in the CLI's grid is CalibratedClassifier: since 0.8.56 its warm-up calibrates too,
    # as the library's; with --warmup-arm train (the recorded grids', `Cell`'s default) the
    # warm-up serves the raw score while the model trains alone, CalibratedClassifier's rule
    # after it only, and the legend says so and how long the warm-up is
    from streamboost import CalibratedClassifier
    from streamboost.experiments.models import make_model, pipeline

    assert _describe("both") == ("every example calibrates on its prequential score, then "
                                 "trains the model (CalibratedClassifier's rule)")
    assert _describe("both", "train").startswith(
        "after the warm-up (10 minibatches that train only), each example calibrates")
    cells = {arm: Cell("phishing", "both", seed=1, max_rows=500, warmup_arm=arm)
             for arm in (None, "train")}
    rows = list(cells[None].stream())[:500]
    models = {"CLI": cells[None].pipeline(), "recorded": cells["train"].pipeline(),
              "CalibratedClassifier": pipeline(CalibratedClassifier(
                  make_model("oza-lr", 10, 1)), "phishing")}
    brier = {}
    for name, model in models.items():
        metric = BrierScore()
        for x, y in rows:
            metric.update(y, model.predict_proba_one(x))
            model.learn_one(x, y)
        brier[name] = metric.get()
    assert brier["CLI"] == brier["CalibratedClassifier"] != brier["recorded"]


def test_a_target_for_registered_datasets_alone_is_refused(capsys):
    # --target names a CSV file's label column: given with registered datasets only, it would
    # be ignored silently (0.8.32 ran phishing with --target nosuch)
    assert main(["run", "--dataset", "phishing", "--target", "nosuch", *TINY]) == 2
    assert "--target 'nosuch' names the label column of a CSV file" in capsys.readouterr().err
    assert main(["run", "--dataset", "phishing", "--target", "target", *TINY]) == 0  # default


def test_a_target_beside_a_registered_dataset_names_the_csv_files_label(tmp_path, capsys):
    own = str(write_own_csv(tmp_path / "payments.csv.gz", n=300))
    assert main(["compare", "--datasets", "phishing", own, "--target", "label", "--policies",
                 "never", "--seeds", "1", "--n-jobs", "1", "--no-figures", "--out",
                 str(tmp_path / "out"), *TINY]) == 0  # fmt: skip
    assert "2 runs ok" in capsys.readouterr().out


def test_compare_over_river_lr_runs_no_second_river_lr(tmp_path, capsys):
    # the grid is the plain River model already: the comparison beside it would repeat it
    assert main(["compare", "--datasets", "phishing", "--model", "lr", "--policies", "never",
                 "both", "--seeds", "1", "--n-jobs", "1", "--no-figures", "--out",
                 str(tmp_path), *TINY]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "What calibrating buys here" in out and "River LR, " not in out


def test_a_calibrator_step_needs_a_calibrator_that_takes_one(capsys):
    # --calibrator-gamma sets Platt's and beta's (and EWA's members') step; given with isotonic
    # it would change nothing, so the run is refused before it starts
    for command in (["run", "--dataset", "phishing", *TINY], ["compare", "--no-progress"]):
        assert main([*command, "--calibrator", "isotonic", "--calibrator-gamma", "1"]) == 2
        assert ("calibrator_gamma sets the step of platt, beta, ewa; calibrator 'isotonic' has "
                "none") in capsys.readouterr().err
        # a step out of the calibrators' range, refused by the run's configuration
        assert main([*command, "--calibrator-gamma", "1e9"]) == 2
        assert ("calibrator_gamma must be in [1e-8, 1e8], got 1000000000.0"
                in capsys.readouterr().err)
