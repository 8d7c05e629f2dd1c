"""Figures: helper arithmetic, the files a grid produces, and the missing-matplotlib message."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from streamboost.experiments import figures, make_grid, run_grid

pytest.importorskip("matplotlib")


def test_cliques_are_maximal_runs_within_the_critical_difference():
    assert figures._cliques([1.0, 1.5, 2.9, 3.2, 6.0], 1.5) == [(0, 1), (1, 2), (2, 3)]
    assert figures._cliques([1.0, 2.0, 3.0], 5.0) == [(0, 2)]
    assert figures._cliques([1.0, 3.0, 5.0], 1.0) == []


def test_rolling_mean_and_seed_averaging():
    values = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    assert figures._rolling(values, 2).tolist() == [1.0, 0.5, 0.5, 1.0, 0.5]
    assert figures._mean_rows([[1, 2, 3], [3, 4]]).tolist() == [2.0, 3.0]


def test_reliability_pooling_weights_bins_by_count():
    a = {
        "bin_lower": [0.0, 0.5],
        "bin_upper": [0.5, 1.0],
        "mean_predicted": [0.2, 0.7],
        "fraction_positive": [0.1, 0.8],
        "weight": [10.0, 30.0],
    }
    b = {"bin_lower": [0.5], "bin_upper": [1.0], "mean_predicted": [0.9],
         "fraction_positive": [1.0], "weight": [10.0]}  # fmt: skip
    pooled = figures._pool_reliability([a, b])
    assert pooled["weight"] == [10.0, 40.0]
    assert pooled["mean_predicted"] == pytest.approx([0.2, (0.7 * 30 + 0.9 * 10) / 40])
    assert pooled["fraction_positive"] == pytest.approx([0.1, (0.8 * 30 + 10) / 40])


def test_grid_figures_writes_every_figure_per_dataset_and_cost_ratio(tmp_path):
    cells = make_grid(["phishing"], ["never", "ucb1"], cost_ratios=[1, 5], seeds=[0, 1],
                      max_rows=200, batch_size=16)  # fmt: skip
    run = run_grid(cells, n_jobs=1)
    paths = figures.grid_figures(run.records, tmp_path)
    names = sorted(p.name for p in paths)
    expected = sorted(
        f"{fig}_phishing_cr{ratio}.{ext}"
        for fig in ("brier_curve", "prequential", "reliability", "allocation", "reward", "arms",
                    "regret")
        for ratio in (1, 5)
        for ext in ("png", "svg")
    )
    assert names == expected
    for path in paths:
        head = path.read_bytes()[:8]
        assert head.startswith(b"\x89PNG") if path.suffix == ".png" else b"<?xml" in head


def test_a_grid_of_schedules_has_no_regret_figure(tmp_path):
    run = run_grid(make_grid(["phishing"], ["never", "every-4"], max_rows=200, batch_size=16,
                             seeds=[0]), n_jobs=1)  # fmt: skip
    names = {p.name.split("_")[0] for p in figures.grid_figures(run.records, tmp_path)}
    assert "allocation" in names and "regret" not in names


def test_the_regret_figure_draws_each_policys_mean_regret():
    fig = figures.regret_over_time({"ucb1": ([32, 64, 96], [0.0, 0.1, 0.15]),
                                    "discounted-ucb": ([32, 64, 96], [0.0, -0.05, 0.02])})
    ax = fig.axes[0]
    lines = {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()}
    assert lines["ucb1"] == [0.0, 0.1, 0.15] and lines["discounted-ucb"] == [0.0, -0.05, 0.02]


def test_brier_curve_figure_draws_the_curves_and_both_reference_lines():
    c = [0.0, 0.25, 0.5, 0.75, 1.0]
    fig = figures.brier_curves(
        {"a": (c, [0, 0.1, 0.2, 0.1, 0]), "b": (c, [0, 0.2, 0.3, 0.2, 0])},
        {"c": c, "all_positive": c, "all_negative": [1 - z for z in c]},
        title="t",
    )
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert labels == ["all positive", "all negative", "a", "b"]
    assert list(fig.axes[0].get_lines()[1].get_ydata()) == [1.0, 0.75, 0.5, 0.25, 0.0]


def test_critical_difference_diagram_marks_groups():
    fig = figures.critical_difference_diagram({"a": 1.2, "b": 1.8, "c": 3.0}, 1.0)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "CD = 1.00" in texts and "a (1.20) " in texts and " c (3.00)" in texts
    # 24 policies: every other rank is labelled, the last instead of its neighbour 23
    many = figures.critical_difference_diagram({f"p{i}": i + 1.0 for i in range(24)}, 8.0)
    labels = [t.get_text() for t in many.axes[0].texts if t.get_text().isdigit()]
    assert labels == [str(r) for r in range(1, 22, 2)] + ["24"]
    few = figures.critical_difference_diagram({f"p{i}": i + 1.0 for i in range(12)}, 3.0)
    assert [t.get_text() for t in few.axes[0].texts if t.get_text().isdigit()] == [
        str(r) for r in range(1, 13)]
    red = [c for c in fig.axes[0].collections if c.get_linewidth()[0] == 3.0]
    assert len(red) == 1  # a-b joined; c apart
    with pytest.raises(ValueError, match="at least 2 policies, got 1"):
        figures.critical_difference_diagram({"a": 1.0}, 1.0)


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r'pip install "streamboost\[plots\]"'):
        figures.allocation_over_time({})


def test_arm_shares_stack_each_policys_arms_in_its_own_panel():
    x = [32, 64, 96]
    fig = figures.arm_shares(
        {
            "two arms": (x, {"train": [1.0, 0.5, 0.0], "calibrate": [0.0, 0.5, 1.0]}),
            "three arms": (x, {"train": [1.0, 0.0, 0.0], "calibrate": [0.0, 0.0, 0.0],
                               "both": [0.0, 1.0, 1.0]}),
        },
        title="t",
    )  # fmt: skip
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["two arms", "three arms"]
    assert [len(ax.collections) for ax in visible] == [2, 3]  # one stacked band per arm
    legend = [text.get_text() for text in fig.legends[0].get_texts()]
    assert legend == ["train", "calibrate", "both"]
    assert visible[0].get_ylim() == (0.0, 1.0)


def test_the_reward_figure_measures_each_policys_excess_over_its_own_no_change():
    # a bounded policy's "no change" pays 1/2, one that takes any real 0 (streamboost.reward)
    assert figures.no_change_reward("discounted-ucb") == 0.5
    assert figures.no_change_reward("gaussian-thompson") == 0.0
    assert figures.no_change_reward("every-4") == 0.5  # a schedule: paid nothing anyway
    x = [32, 64, 96]
    fig = figures.cumulative_reward(
        {"ucb1": (x, [0.5, 1.1, 1.6]), "gaussian-thompson": (x, [0.2, -0.1, 0.3])},
        no_change={"ucb1": 0.5, "gaussian-thompson": 0.0})
    lower = {line.get_label(): list(line.get_ydata()) for line in fig.axes[1].get_lines()}
    assert lower["ucb1"] == pytest.approx([0.0, 0.1, 0.1])
    assert lower["gaussian-thompson"] == pytest.approx([0.2, -0.1, 0.3])
