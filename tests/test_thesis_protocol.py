"""Tests for simulations/thesis_protocol.py: splits, seeding, intervals, report."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
from simulation_loader import load

from tests.shared_data import SHARED, require

tp = load("thesis_protocol")


@pytest.fixture(scope="module")
def data_dir() -> Path:
    return require("parkinsons.csv.gz")


def _rows(n_pos: int, n_neg: int, seed: int = 0) -> list[tuple[dict, bool]]:
    rows = [({"i": i}, i < n_pos) for i in range(n_pos + n_neg)]
    random.Random(seed).shuffle(rows)
    return rows


def _count(rows) -> tuple[int, int]:
    return sum(y for _, y in rows), sum(not y for _, y in rows)


# --- splits ------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "held"), [(40, 10), (81, 20), (3, 1), (762, 190)])
def test_stratified_split_is_exactly_balanced_and_keeps_order(n, held):
    rows = _rows(n, n)
    rest, test = tp.stratified_split(rows, 0.25)
    assert _count(test) == (held, held)
    assert _count(rest) == (n - held, n - held)
    # a partition of the rows, each part in the original order, held = first of each class
    position = {id(r[0]): k for k, r in enumerate(rows)}
    for part in (rest, test):
        assert [position[id(x)] for x, _ in part] == sorted(position[id(x)] for x, _ in part)
    assert sorted(position[id(x)] for x, _ in rest + test) == list(range(2 * n))
    first_pos = [x for x, y in rows if y][:held]
    assert [x for x, y in test if y] == first_pos


def test_stratified_split_rejects_bad_fraction():
    for bad in (0.0, 1.0, -0.2, 1.5):
        with pytest.raises(ValueError, match="fraction"):
            tp.stratified_split(_rows(4, 4), bad)


def test_real_split_sizes_match_the_thesis_protocol(data_dir):
    rows = tp.balanced_rows("parkinsons", 0, data_dir)
    assert len(rows) == 96  # Table B.1: 2 x 48
    assert _count(rows) == (48, 48)
    train, test = tp.stratified_split(rows, tp.TEST_FRACTION)
    assert _count(train) == (36, 36) and _count(test) == (12, 12)
    # thesis split of the training part: 2/3 to boost, 1/3 to calibrate, both balanced
    fit, calibration = tp.stratified_split(train, tp.CALIBRATION_FRACTION)
    assert _count(fit) == (24, 24) and _count(calibration) == (12, 12)
    # splice: the 15 ambiguous rows are dropped, as in Table B.1 (1524 = 2 x 762)
    assert len(tp.balanced_rows("splice", 0, data_dir)) == 1524


def test_balanced_rows_depend_on_the_seed_only(data_dir):
    a = tp.balanced_rows("survival", 3, data_dir)
    assert a == tp.balanced_rows("survival", 3, data_dir)
    assert a != tp.balanced_rows("survival", 4, data_dir)


def test_epochs_first_pass_in_given_order_then_seeded_reshuffles():
    rows = _rows(10, 10)
    passes = [list(e) for e in tp.epochs(rows, 3, seed=5)]
    assert passes[0] == rows
    assert passes[1] != rows and sorted(map(id, passes[1])) == sorted(map(id, rows))
    assert passes[2] != passes[1]
    again = [list(e) for e in tp.epochs(rows, 3, seed=5)]
    assert again == passes
    assert [list(e) for e in tp.epochs(rows, 3, seed=6)][1] != passes[1]


def test_checkpoints():
    assert tp.checkpoints(1) == (1,)
    assert tp.checkpoints(3) == (1, 3)
    for bad in (0, 2.0, True):
        with pytest.raises(ValueError, match="passes"):
            tp.checkpoints(bad)


# --- runs --------------------------------------------------------------------------------


def test_repetition_is_reproducible_from_its_seed(data_dir):
    options = {"passes": 2, "n_models": 2, "data_dir": data_dir}
    a = tp.run_repetition("parkinsons", 0, **options)
    b = tp.run_repetition("parkinsons", 0, **options)
    c = tp.run_repetition("parkinsons", 1, **options)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in a]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in b]
    assert [r["brier"] for r in a] != [r["brier"] for r in c]
    assert {(r["method"], r["passes"]) for r in a} == {(m, p) for m in tp.METHODS for p in (1, 2)}
    for r in a:
        assert (r["n_train"], r["n_test"]) == (72, 24)
        assert 0.0 <= r["brier"] <= 1.0 and 0.0 <= r["brier_curve"] <= 1.0
    share = {r["method"]: r["calibrated_share"] for r in a if r["passes"] == 1}
    # 72 examples = 4 full minibatches of 16 by the end of epoch 1; the first 2 are the
    # warm-up, which calibrates too (the library's, since 0.8.53)
    assert share["never"] == 0.0 and share["both"] == 1.0
    assert share["every-3"] == 0.5  # the warm-up's 2; every third after it: not yet reached
    assert share["thesis-split"] == pytest.approx(24 / 72)


def test_never_is_the_controller_with_policy_never(data_dir):
    rows = tp.balanced_rows("survival", 2, data_dir)
    train, test = tp.stratified_split(rows, 0.25)
    options = {"seed": 2, "n_models": 3, "batch_size": 16, "warmup": 2}
    (fast,) = tp.run_online("never", train, test, passes=1, **options)
    model = tp.online_model("never", **options)
    for x, y in train:
        model.learn_one(x, y)
    reference = tp.score_holdout(lambda x: model.predict_proba_one(x)[True], test)
    assert (fast["brier_curve"], fast["brier"]) == reference
    assert fast["calibrated_share"] == 0.0


def test_only_the_first_repetitions_go_beyond_one_epoch(data_dir):
    options = {"passes": 2, "passes_reps": 1, "n_models": 2, "data_dir": data_dir}
    options["methods"] = ["never", "thesis-split"]
    assert {r["passes"] for r in tp.run_repetition("parkinsons", 0, **options)} == {1, 2}
    assert {r["passes"] for r in tp.run_repetition("parkinsons", 1, **options)} == {1}


def test_one_hot_datasets_are_learned(data_dir):
    # Standard-scaling sparse one-hot dicts maps every indicator to 0 (River's scaler never sees
    # the zeros), which leaves a constant p = 1/2 (area 0.25). Congress is easy (thesis: 0.034).
    for row in tp.run_repetition("congress", 0, passes=1, n_models=2, data_dir=data_dir):
        assert row["brier_curve"] < 0.15, row


@pytest.mark.parametrize("members", ["univariate", "stump"])
def test_the_thesis_weak_members_are_boosted_and_recorded(data_dir, members):
    options = {"passes": 1, "n_models": 20, "data_dir": data_dir, "members": members}
    options["methods"] = ["never", "both"]
    rows = tp.run_repetition("wdbc", 0, **options)
    assert {r["members"] for r in rows} == {members}
    area = {r["method"]: r["brier_curve"] for r in rows}
    # wdbc is easy (thesis Cal. AdaMEC 0.054); a vote of weak members is distorted and
    # calibration repairs it
    assert area["both"] < area["never"] < 0.25
    model = tp.booster(0, 3, members)
    assert type(model.model) is tp.MEMBERS[members][1]
    with pytest.raises(ValueError, match="unknown members 'tree'"):
        tp.run_repetition("wdbc", 0, members="tree", data_dir=data_dir)


def test_scoring_the_holdout_does_not_learn(data_dir):
    rows = tp.balanced_rows("survival", 0, data_dir)
    train, test = tp.stratified_split(rows, 0.25)
    model = tp.online_model("every-3", seed=0, n_models=2, batch_size=16, warmup=2)
    for x, y in train:
        model.learn_one(x, y)
    controller = model["BanditCalibratedClassifier"]
    state = (
        controller.n_batches,
        controller.calibrator_.n_seen,
        dict(model["StandardScaler"].counts),
    )

    def predict(x):
        return model.predict_proba_one(x)[True]

    first = tp.score_holdout(predict, test)
    assert tp.score_holdout(predict, test) == first
    assert state == (
        controller.n_batches,
        controller.calibrator_.n_seen,
        dict(model["StandardScaler"].counts),
    )


def test_unknown_method_is_rejected_before_running(data_dir):
    with pytest.raises(ValueError, match="unknown methods"):
        tp.run_repetition("parkinsons", 0, methods=["sometimes"], data_dir=data_dir)


# --- statistics and report ---------------------------------------------------------------


def _row(dataset, method, rep, value, passes=1):
    return {
        "dataset": dataset,
        "method": method,
        "passes": passes,
        "rep": rep,
        "n_train": 72,
        "n_test": 24,
        "brier_curve": value,
        "brier": value + 0.01,
        "calibrated_share": 0.25,
        "seconds": 1.0,
        "n_models": 2,
        "batch_size": 16,
        "warmup": 2,
    }


def test_interval_matches_a_hand_worked_example():
    # values 0.1, 0.2, 0.3: mean 0.2, sd 0.1, sem 0.1/sqrt(3) = 0.057735;
    # t(0.975, df=2) = 4.302653 (t table), half-width 0.248414
    rows = [_row("sonar", "both", k, v) for k, v in enumerate((0.1, 0.2, 0.3))]
    (entry,) = tp.summarise(rows)
    assert entry["brier_curve"] == pytest.approx(0.2)
    assert entry["brier_curve_low"] == pytest.approx(0.2 - 0.248414, abs=1e-6)
    assert entry["brier_curve_high"] == pytest.approx(0.2 + 0.248414, abs=1e-6)
    assert entry["brier_curve_high"] - entry["brier"] == pytest.approx(0.248414 - 0.01, abs=1e-6)
    assert (entry["n"], entry["n_train"], entry["n_test"]) == (3, 72, 24)
    # 30 repetitions with sd 1: half-width t(0.975, 29) / sqrt(30) = 2.045230 / 5.477226
    values = [(-1.0) ** k * math.sqrt(29 / 30) for k in range(30)]  # mean 0, sd 1
    (entry,) = tp.summarise([_row("sonar", "both", k, v) for k, v in enumerate(values)])
    assert entry["brier_curve_high"] == pytest.approx(0.373406, abs=1e-6)


def test_report_has_a_row_for_every_dataset_and_keeps_hand_written_text(tmp_path):
    rows = [
        _row(name, method, rep, 0.1 + 0.01 * i + 0.001 * rep + (0.05 if method == "never" else 0))
        for i, name in enumerate(tp.THESIS_TABLE_8_1)
        for method in tp.METHODS
        for rep in range(2)
    ]
    summary = tp.summarise(rows)
    meta = {
        "command": "python simulations/thesis_protocol.py --quick",
        "wall_seconds": 12.3,
        "jobs": 2,
        "n_models": 2,
        "batch_size": 16,
        "warmup": 2,
    }
    path = tmp_path / "report.md"
    path.write_text(f"# Title\n\nintro\n\n{tp.BEGIN}\nold table\n{tp.END}\n\n## Discussion\nkept\n")
    tp.write_report(summary, path, meta)
    text = path.read_text()
    assert text.startswith("# Title\n\nintro\n") and text.endswith("## Discussion\nkept\n")
    assert "old table" not in text and meta["command"] in text
    table_rows = [line for line in text.splitlines() if line.startswith("| ")]
    for name, (adamec, cal) in tp.THESIS_TABLE_8_1.items():
        (line,) = [r for r in table_rows if r.startswith(f"| {name} |")]
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1] == "72/24" and cells[2:4] == [f"{adamec:.4f}", f"{cal:.4f}"]
        assert len(cells) == 4 + len(tp.METHODS)
        # the worst method is never bold; a best one is
        assert not cells[4].startswith("**") and any(c.startswith("**") for c in cells[5:])
    assert sum(r.startswith("| mean |") for r in table_rows) == 1
    # only one epoch count in the rows -> one table; intervals of 2 reps are shown as "±"
    assert text.count("### ") == 1 and " ± " in text


def test_csv_round_trip(tmp_path):
    rows = [_row("heart", "never", 0, 0.123456789), _row("heart", "both", 1, 0.2, passes=3)]
    path = tmp_path / "results" / "r.csv"
    tp.write_csv(rows, path)
    back = tp.read_csv(path)
    assert [r["method"] for r in back] == ["never", "both"]
    assert back[0]["brier_curve"] == pytest.approx(0.123457, abs=1e-9)
    assert back[1]["passes"] == 3 and isinstance(back[1]["rep"], int)


def test_thesis_numbers_match_the_digest():
    digest = SHARED.parent / "notes" / "seeds-digest.md"  # beside the shared datasets
    if not digest.is_file():
        pytest.skip(f"{digest} not found")
    text = digest.read_text()
    section = text[text.index("| Dataset | CSAda | AdaMEC |") :]
    for name, (adamec, cal) in tp.THESIS_TABLE_8_1.items():
        line = re.search(rf"^\| {name} \|(.*)$", section, re.MULTILINE).group(1)
        cells = [c.strip().strip("*") for c in line.split("|")]
        assert (float(cells[1]), float(cells[4])) == (adamec, cal), name


def test_quick_command_end_to_end(tmp_path, data_dir):
    out = tmp_path / "report.md"
    argv = [
        "--quick",
        "--jobs",
        "1",
        "--n-models",
        "2",
        "--out",
        str(out),
        "--data-dir",
        str(data_dir),
    ]
    assert tp.main(argv) == 0
    rows = tp.read_csv(tmp_path / "results" / "report.csv")
    assert len(rows) == 2 * len(tp.METHODS) * 2 * 2  # datasets x methods x epochs x reps
    text = out.read_text()
    for name in tp.QUICK["datasets"]:
        assert text.count(f"| {name} |") == 2  # one table per scored epoch count
    # rebuilding from the CSV gives the same tables
    again = tmp_path / "again.md"
    tp.main(["--from-csv", str(tmp_path / "results" / "report.csv"), "--out", str(again)])
    tables = [
        [line for line in p.read_text().splitlines() if line.startswith("|")] for p in (out, again)
    ]
    assert tables[0] == tables[1]


def test_the_warm_up_and_platt_s_step_are_the_library_s_unless_set(data_dir, tmp_path):
    default = tp.online_model("both", seed=0, n_models=2, batch_size=16, warmup=2)
    controller = default["BanditCalibratedClassifier"]
    # the library's: a warm-up that calibrates too, and the step by name beside a vote
    assert controller.warmup_arm is None and controller.calibrator_.gamma == 0.1
    pinned = tp.online_model("both", seed=0, n_models=2, batch_size=16, warmup=2,
                             warmup_arm="train", gamma=1.0)["BanditCalibratedClassifier"]
    assert pinned.warmup_arm == "train" and pinned.calibrator_.gamma == 1.0
    options = {"passes": 1, "n_models": 2, "methods": ["both", "window-refit"],
               "data_dir": data_dir}
    rows = tp.run_repetition("parkinsons", 0, warmup_arm="train", gamma=1.0, **options)
    both = next(r for r in rows if r["method"] == "both")
    # 72 examples, 4 minibatches: the 2 of the warm-up train only
    assert both["calibrated_share"] == 0.5
    assert {(r["warmup_arm"], r["calibrator_gamma"]) for r in rows} == {("train", 1.0)}
    assert [r["brier_curve"] for r in rows] != [
        r["brier_curve"] for r in tp.run_repetition("parkinsons", 0, **options)]
    tp.write_csv(rows, tmp_path / "rows.csv")
    again = tp.read_csv(tmp_path / "rows.csv")
    assert [(r["warmup_arm"], r["calibrator_gamma"]) for r in again] == [("train", 1.0)] * 2
    out = tmp_path / "report.md"
    assert tp.main(["--from-csv", str(tmp_path / "rows.csv"), "--out", str(out)]) == 0
    assert "the first 2 train only (the warm-up); Platt's step 1.0;" in out.read_text()
    tp.write_csv(tp.run_repetition("parkinsons", 0, **options), tmp_path / "defaults.csv")
    assert tp.main(["--from-csv", str(tmp_path / "defaults.csv"), "--out", str(out)]) == 0
    assert ("the first 2 train and calibrate (the warm-up); Platt's step by name;"
            in out.read_text())


@pytest.mark.parametrize("gamma", ["0", "-1", "nan", "1e9"])
def test_a_step_out_of_the_calibrator_s_range_is_refused_before_any_run(gamma, capsys):
    with pytest.raises(SystemExit):
        tp.parse_args(["--calibrator-gamma", gamma])
    assert "--calibrator-gamma: gamma must be in [1e-8, 1e8], got" in capsys.readouterr().err
