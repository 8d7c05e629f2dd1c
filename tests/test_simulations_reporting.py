"""simulations/reporting.py: the grid every report script runs, and its report."""

from __future__ import annotations

from tests.simulation_loader import load

reporting = load("reporting")


def test_grid_main_runs_every_model_stream_axis_and_seed_and_writes_the_report(tmp_path):
    def run(model, name, arm, seed, data_dir):
        return f"{model}/{name}/{arm}/{seed}/{data_dir}"

    def report(results, models, names, seeds):
        rows = [f"{key}: {' '.join(values)}" for key, values in results.items()]
        return "\n".join([f"{models} {names} {seeds}", *rows])

    out = tmp_path / "grid.md"
    argv = ["--models", "m1", "m2", "--datasets", "phishing", "--seeds", "2", "--jobs", "1",
            "--data-dir", "D", "--out", str(out)]
    doc = "A grid.\n\nMore words."
    assert reporting.grid_main(argv, doc, "grid.py", "The title", (("m0",), ("weather",), 5),
                               (("a", "b"),), run, report) == 0
    text = out.read_text()
    assert text.startswith("# The title\n\n`python simulations/grid.py --models m1 m2 ")
    # the results grouped by (model, stream, arm), one per seed, in the jobs' order
    assert "['m1', 'm2'] ['phishing'] 2\n" in text
    assert "('m1', 'phishing', 'a'): m1/phishing/a/0/D m1/phishing/a/1/D\n" in text
    assert "('m2', 'phishing', 'b'): m2/phishing/b/0/D m2/phishing/b/1/D\n" in text
    assert text.count("/D") == 8


def test_grid_main_defaults_name_the_report_after_the_script(monkeypatch):
    seen = {}

    def write(out, title, script, argv, text):
        seen.update(out=out, script=script)

    monkeypatch.setattr(reporting, "write_report", write)
    reporting.grid_main(["--jobs", "1"], "Doc.", "grid.py", "T", (("m",), ("phishing",), 1),
                        (), lambda *job: 1.0, lambda results, *_: str(results))
    assert seen["out"] == reporting.Path(reporting.__file__).resolve().parent / "grid.md"
    assert seen["script"] == "grid.py"


def test_table_head_aligns_the_name_columns_left_and_the_numbers_right():
    assert reporting.table_head("stream", "drift", "both", "D-UCB", left=2) == [
        "| stream | drift | both | D-UCB |",
        "|---|---|---:|---:|",
    ]
    assert reporting.table_head("policy", "phishing")[1] == "|---|---:|"  # one name column
    assert reporting.table_head("a", "b", left=2)[1] == "|---|---|"  # every column a name


def test_table_row_joins_its_cells_as_text():
    assert reporting.table_row("phishing", "0.0557", 3) == "| phishing | 0.0557 | 3 |"


def test_brier_table_averages_each_policys_runs_per_stream():
    results = {("m", "a", "p"): [(0.1, 0.5, None), (0.3, 1.0, None)],
               ("m", "a", "q"): [(0.2, 0.0, -1.0)],
               ("m", "b", "p"): [(0.4, 0.25)], ("m", "b", "q"): [(0.5, 0.75)]}
    rows, brier = reporting.brier_table(results, "m", ["a", "b"], ["p", "q"])
    assert rows == ["| stream | p | q |", "|---|---:|---:|",
                    "| a | 0.2000 (0.75) | 0.2000 (0.00) |",
                    "| b | 0.4000 (0.25) | 0.5000 (0.75) |"]
    assert brier == {("a", "p"): 0.2, ("a", "q"): 0.2, ("b", "p"): 0.4, ("b", "q"): 0.5}


def test_calibrators_beside_a_model_predict_its_score_before_they_learn_it():
    from streamboost.calibration import OnlinePlattCalibrator

    calibrators = {"+a": OnlinePlattCalibrator(), "+b": OnlinePlattCalibrator(gamma=1.0)}
    twins = {name: cal.clone() for name, cal in calibrators.items()}
    first = reporting.beside(calibrators, 0.9, False)
    assert first == {"raw": 0.9, "+a": 0.9, "+b": 0.9}  # nothing learned yet: the identity
    second = reporting.beside(calibrators, 0.9, False)
    assert list(second) == ["raw", "+a", "+b"] and second["raw"] == 0.9
    for name, twin in twins.items():  # each learned (0.9, False) once, after predicting
        twin.learn_one(0.9, False)
        assert second[name] == twin.predict_one(0.9) < 0.9
        assert calibrators[name].n_seen == 2
    assert second["+a"] != second["+b"]


def test_a_soft_name_is_the_booster_scored_by_its_members_probabilities():
    from river import linear_model, tree

    soft = reporting.model_named(reporting.SOFT, 2)  # the controller's default model
    assert soft.score == "soft" and soft.n_models == 10 and soft.seed == 2
    assert type(soft.model) is linear_model.LogisticRegression
    trees = reporting.model_named("oza-ht-soft", 2)
    assert trees.score == "soft" and type(trees.model) is tree.HoeffdingTreeClassifier
    assert reporting.model_named("oza-lr", 2).score == "vote"
    assert type(reporting.model_named("ht", 2)) is tree.HoeffdingTreeClassifier
    assert reporting.encoding_of(reporting.SOFT) == reporting.encoding_of("oza-lr") == "onehot"
    assert reporting.encoding_of("oza-ht-soft") is None  # trees split on categories


def test_a_held_out_round_keeps_the_sample_the_reports_were_measured_with():
    from river import linear_model, tree

    ht, lr = tree.HoeffdingTreeClassifier(), linear_model.LogisticRegression()
    ucb = {"policy": "discounted-ucb", "seed": 1}
    # a tree held out: an eighth of the minibatch, as until 0.8.54 (the library holds out 1)
    assert reporting.held_as_measured(ht, **ucb) == {**ucb, "reward_examples": 4}
    assert reporting.held_as_measured(ht, batch_size=16, **ucb)["reward_examples"] == 2
    # a sample given, a copy, or no reward at all: the parameters as they were
    for model, params in [(ht, {**ucb, "reward_examples": 8}), (lr, ucb),
                          (ht, {"policy": "both"}), (ht, {**ucb, "rollback": "copy"})]:
        assert reporting.held_as_measured(model, **params) == params
