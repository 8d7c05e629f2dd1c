"""Figures of prequential runs and policy comparisons (matplotlib, the `plots` extra).

Each plotting function takes plain data (dicts of lists, numbers) and returns a matplotlib
`Figure`; `save` writes it as PNG and SVG. `grid_figures` draws every figure of a grid from
its cell records, averaging the seeds of each (dataset, cost ratio, policy).
Figures are built with `matplotlib.figure.Figure`, not `pyplot`, so no global state is
touched and nothing needs a display.
"""

from __future__ import annotations

import math
import os
import re
import typing
from pathlib import Path

import numpy as np

from .. import bandits
from ..atomic import written
from ..evaluate import regret_curve
from ..reward import no_change

if typing.TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "allocation_over_time",
    "arm_shares",
    "brier_curves",
    "critical_difference_diagram",
    "cumulative_reward",
    "grid_figures",
    "prequential_curves",
    "regret_over_time",
    "reliability_diagram",
    "save",
]

#: A curve's values: a list or an array of floats.
Values = typing.Sequence[float] | np.ndarray
#: Curves by label, each as (x, y).
Series = typing.Mapping[str, tuple[Values, Values]]


def _two_rows(fig: Figure, **kwargs: typing.Any) -> tuple[Axes, Axes]:
    """Two axes stacked, sharing x: `fig.subplots(2, 1)` as an array whatever matplotlib's
    stubs say it returns (3.8's: one Axes or an array)."""
    top, bottom = fig.subplots(2, 1, sharex=True, squeeze=False, **kwargs)[:, 0]
    return top, bottom


def _figure(*args, **kwargs) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError as error:
        raise ImportError('figures need matplotlib: pip install "streamboost[plots]"') from error
    return Figure(*args, layout="constrained", **kwargs)


def save(figure: Figure, stem: str | os.PathLike) -> list[Path]:
    """Write `figure` to `<stem>.png` (150 dpi) and `<stem>.svg`; return both paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_name(stem.name + suffix) for suffix in (".png", ".svg")]
    for path in paths:
        with written(path) as tmp:
            figure.savefig(tmp, dpi=150, format=path.suffix[1:])
    return paths


def _lines(ax, series: Series, *, legend: bool = True, **kwargs) -> None:
    for label, (x, y) in series.items():
        ax.plot(x, y, label=label, linewidth=1.4, **kwargs)
    if legend and len(series) > 0:
        # Outside the axes: with six policies an inside legend hides some of the lines.
        ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(alpha=0.3)


def _zoom(ax, series: Series, skip: float = 0.1) -> None:
    """Fit the y-axis to the values after the first `skip` share of the stream, where
    prequential means have settled (the first examples' losses would flatten the rest)."""
    tails = [np.asarray(y)[int(len(y) * skip) :] for _, y in series.values() if len(y)]
    tails = [t for t in tails if t.size]
    if tails:
        low = min(float(t.min()) for t in tails)
        high = max(float(t.max()) for t in tails)
        margin = 0.05 * (high - low) or 0.05 * abs(high) or 0.05
        ax.set_ylim(low - margin, high + margin)


def brier_curves(
    curves: Series,
    reference: typing.Mapping[str, Values],
    *,
    title: str = "Brier curves",
) -> Figure:
    """Brier curves Q(z) per policy, with the all-positive and all-negative lines.

    The y-axis ends at twice the highest curve point (or where the reference lines end), so
    that the differences between good models stay visible; the lines are then clipped.

    Parameters
    ----------
    curves
        Policy -> (z, Q(z)), z = c_FP / (c_FP + c_FN) the cost proportion.
    reference
        `{"c": z, "all_positive": Q, "all_negative": Q}` (`BrierCurve.reference_lines()`).
    title
        The title.

    """
    fig = _figure(figsize=(8.0, 5.0))
    ax = fig.add_subplot()
    ax.plot(
        reference["c"],
        reference["all_positive"],
        color="0.55",
        linestyle="--",
        linewidth=1.0,
        label="all positive",
    )
    ax.plot(
        reference["c"],
        reference["all_negative"],
        color="0.55",
        linestyle=":",
        linewidth=1.0,
        label="all negative",
    )
    _lines(ax, curves, marker=".", markersize=4)
    ax.set_xlim(0.0, 1.0)
    # Zoomed on the curves (twice their peak): at full height good models hug the axis.
    peak = max((max(q, default=0.0) for _, q in curves.values()), default=0.0)
    top = max(reference["all_positive"][-1], reference["all_negative"][0])
    ax.set_ylim(0.0, min(top, 2.0 * peak) if peak > 0.0 else None)
    ax.set_xlabel("z = c_FP / (c_FP + c_FN)  (cost proportion of false positives)")
    ax.set_ylabel("loss Q(z)")
    fig.suptitle(title)
    return fig


def allocation_over_time(series: Series, *, title: str = "Allocation over time") -> Figure:
    """Fraction of minibatches spent calibrating along the stream, per policy.

    `series`: policy -> (examples seen, fraction of recent minibatches that calibrated).
    """
    fig = _figure(figsize=(8.0, 4.0))
    ax = fig.add_subplot()
    _lines(ax, series, drawstyle="steps-post")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("examples seen")
    ax.set_ylabel("share of minibatches calibrating\n(arm calibrate or both)")
    fig.suptitle(title)
    return fig


ARM_COLOURS = {"train": "tab:blue", "calibrate": "tab:orange", "both": "tab:green"}


def arm_shares(
    shares: typing.Mapping[
        str, tuple[Values, typing.Mapping[str, Values]]
    ],
    *,
    title: str = "Arms over time",
) -> Figure:
    """Share of minibatches given to each arm along the stream, one panel per policy.

    `shares`: policy -> (examples seen, arm -> share of recent minibatches on that arm), the
    shares of each point summing to 1. Stacked, so a policy that collapses onto one arm shows
    as one colour filling its panel.

    Examples
    --------
    >>> from streamboost.experiments import figures
    >>> fig = figures.arm_shares({
    ...     "ucb1": ([32, 64], {"train": [1.0, 0.0], "both": [0.0, 1.0]}),
    ...     "never": ([32, 64], {"train": [1.0, 1.0]}),
    ... })
    >>> [ax.get_title() for ax in fig.axes if ax.get_visible()]
    ['ucb1', 'never']
    >>> [text.get_text() for text in fig.legends[0].get_texts()]
    ['train', 'both']

    """
    n = len(shares)
    columns = min(n, 3)
    rows = max(1, math.ceil(n / columns)) if n else 1
    fig = _figure(figsize=(3.6 * max(columns, 1), 2.4 * rows + 0.6))
    axes = fig.subplots(rows, max(columns, 1), sharex=True, sharey=True, squeeze=False)
    for ax, (policy, (x, by_arm)) in zip(axes.flat, shares.items(), strict=False):
        arms = list(by_arm)
        ax.stackplot(
            x,
            *(by_arm[arm] for arm in arms),
            labels=arms,
            colors=[ARM_COLOURS.get(arm) for arm in arms],
            step="post",
        )
        ax.set_title(policy, fontsize="small")
        ax.set_ylim(0.0, 1.0)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("examples seen")
    for ax in axes[:, 0]:
        ax.set_ylabel("share of minibatches")
    if n:  # the legend of the panel with the most arms covers them all
        widest = max(list(axes.flat)[:n], key=lambda ax: len(ax.collections))
        handles, labels = widest.get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), frameon=False)
    fig.suptitle(title)
    return fig


def prequential_curves(
    brier: Series, log_loss: Series, *, title: str = "Prequential error"
) -> Figure:
    """Prequential Brier score and log-loss along the stream, per policy (two panels).

    Each series: policy -> (examples seen, prequential metric up to there). The y-axes are
    fitted to the last 90 % of the stream; the first examples' larger losses are cut off.
    """
    fig = _figure(figsize=(8.0, 6.0))
    top, bottom = _two_rows(fig)
    _lines(top, brier)
    _zoom(top, brier)
    top.set_ylabel("prequential Brier score")
    _lines(bottom, log_loss, legend=False)
    _zoom(bottom, log_loss)
    bottom.set_ylabel("prequential log-loss")
    bottom.set_xlabel("examples seen (y-axes fitted to the last 90%)")
    fig.suptitle(title)
    return fig


def cumulative_reward(series: Series, *, title: str = "Cumulative reward",
                      no_change: dict[str, float] | None = None) -> Figure:
    """Cumulative reward received by each policy along the stream (two panels).

    `series`: policy -> (examples seen, sum of rewards so far, 0 before the first reward).
    `no_change`: policy -> the reward of a round that changed nothing (default 1/2: the middle
    of a policy's range [0, 1]; 0 for a policy that takes any real, whose rewards are
    improvements over their running RMS; `no_change_reward`). Every line grows by about that
    much per minibatch; the lower panel shows the cumulative excess over it per rewarded
    minibatch, where policies differ.
    """
    fig = _figure(figsize=(8.0, 6.0))
    top, bottom = _two_rows(fig)
    _lines(top, series)
    top.set_ylabel("cumulative reward")
    excess = {}
    for label, (x, y) in series.items():
        steps = np.diff(np.insert(np.asarray(y, dtype=float), 0, 0.0))
        # Minibatches before the first reward (warm-up) add nothing.
        centre = (no_change or {}).get(label, 0.5)
        excess[label] = (x, np.cumsum(np.where(steps != 0.0, steps - centre, 0.0)))
    _lines(bottom, excess, legend=False)
    bottom.axhline(0.0, color="0.55", linewidth=1.0, linestyle="--")
    bottom.set_ylabel("cumulative (reward - no change)")
    bottom.set_xlabel("examples seen")
    fig.suptitle(title)
    return fig


def no_change_reward(policy: str) -> float:
    """The reward a round that changed nothing pays `policy` (a grid's policy name):
    `reward.no_change` of a bandit's reward range, 1/2 for a schedule (paid nothing)."""
    cls = bandits.POLICIES.get(policy)
    return 0.5 if cls is None else no_change(cls.reward_range)


def regret_over_time(series: Series, *, title: str = "Regret") -> Figure:
    """Each policy's regret along the stream against the best fixed arm in hindsight, over the
    rounds that measured every arm (`streamboost.evaluate.regret_curve`).

    `series`: policy -> (examples seen, regret so far). A line that stays near 0 follows the
    best arm; one that grows linearly spends minibatches on arms that pay less; below 0 the
    policy beat every fixed arm.
    """
    fig = _figure(figsize=(8.0, 4.0))
    ax = fig.add_subplot()
    _lines(ax, series)
    ax.axhline(0.0, color="0.55", linewidth=1.0, linestyle="--")
    ax.set_xlabel("examples seen")
    ax.set_ylabel("regret against the best fixed arm\n(sum of rewards)")
    fig.suptitle(title)
    return fig


def reliability_diagram(
    data: typing.Mapping[str, typing.Mapping[str, typing.Sequence[float]]],
    *,
    title: str = "Reliability diagram",
) -> Figure:
    """Observed frequency of positives against mean predicted probability, per policy.

    `data`: policy -> `ExpectedCalibrationError.reliability_diagram()` dict (keys
    `mean_predicted`, `fraction_positive`, `weight`, `bin_lower`, `bin_upper`). The lower
    panel shows how the predictions spread over the bins.
    """
    fig = _figure(figsize=(8.0, 6.5))
    top, bottom = _two_rows(fig, height_ratios=(3, 1))
    top.plot(
        [0, 1], [0, 1], color="0.55", linestyle="--", linewidth=1.0, label="perfectly calibrated"
    )
    _lines(
        top,
        {k: (v["mean_predicted"], v["fraction_positive"]) for k, v in data.items()},
        marker="o",
        markersize=3,
    )
    top.set_xlim(0.0, 1.0)
    top.set_ylim(0.0, 1.0)
    top.set_ylabel("fraction of positives")
    fig.suptitle(title)
    for label, v in data.items():
        total = sum(v["weight"]) or 1.0
        centres = [(lo + hi) / 2 for lo, hi in zip(v["bin_lower"], v["bin_upper"], strict=True)]
        bottom.plot(
            centres, [w / total for w in v["weight"]], marker=".", linewidth=1.0, label=label
        )
    bottom.set_xlabel("mean predicted probability of the positive class")
    bottom.set_ylabel("share of predictions")
    bottom.grid(alpha=0.3)
    return fig


def critical_difference_diagram(
    mean_ranks: typing.Mapping[str, float],
    critical_difference: float,
    *,
    title: str = "Critical difference diagram",
) -> Figure:
    """Demšar's (2006) critical-difference diagram: the mean-rank axis (1 = best, on the
    left), one label per policy, a bar joining every maximal group whose mean ranks differ by
    less than the critical difference, and the CD itself drawn above the axis."""
    k = len(mean_ranks)
    if k < 2:
        raise ValueError(f"a critical-difference diagram needs at least 2 policies, got {k}")
    order = sorted(mean_ranks, key=mean_ranks.__getitem__)
    half = math.ceil(k / 2)
    groups = _cliques([mean_ranks[p] for p in order], critical_difference)
    bars = 0.15 + 0.12 * len(groups)  # room under the axis for the group bars
    bottom = bars + 0.4 * half
    fig = _figure(figsize=(7.0, 1.0 + 0.6 * (bottom + 1.6)))
    ax = fig.add_subplot()
    ax.set_xlim(0.5, max(k, 1 + critical_difference) + 0.5)
    ax.set_ylim(-(bottom + 0.2), 1.6)
    ax.axis("off")
    ax.hlines(0.0, 1, k, color="black", linewidth=1.0)
    # past a dozen ranks, labelling every one runs them together: every step-th, the last
    # one moved to k (it is less than a step away)
    labelled = list(range(1, k + 1, math.ceil(k / 12)))
    labelled[-1] = k
    for r in range(1, k + 1):
        ax.vlines(r, 0.0, 0.12, color="black", linewidth=1.0)
        if r in labelled:
            ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize="small")
    ax.hlines(1.15, 1, 1 + critical_difference, color="black", linewidth=1.5)
    ax.vlines([1, 1 + critical_difference], 1.05, 1.25, color="black", linewidth=1.0)
    ax.text(
        1 + critical_difference / 2,
        1.3,
        f"CD = {critical_difference:.2f}",
        ha="center",
        va="bottom",
        fontsize="small",
    )
    for i, policy in enumerate(order):
        rank = mean_ranks[policy]
        left = i < half
        depth = -(bars + 0.4 * (i + 1 if left else k - i))
        end = 0.6 if left else k + 0.4
        ax.plot([rank, rank, end], [0.0, depth, depth], color="black", linewidth=0.8)
        ax.text(
            end,
            depth,
            f"{policy} ({rank:.2f}) " if left else f" {policy} ({rank:.2f})",
            ha="right" if left else "left",
            va="center",
            fontsize="small",
        )
    for j, (lo, hi) in enumerate(groups):
        y = -0.15 - 0.12 * j
        ax.hlines(
            y,
            mean_ranks[order[lo]] - 0.03,
            mean_ranks[order[hi]] + 0.03,
            color="tab:red",
            linewidth=3.0,
        )
    fig.suptitle(title)
    return fig


def _cliques(sorted_ranks: typing.Sequence[float], cd: float) -> list[tuple[int, int]]:
    """Maximal runs (first, last index) of sorted mean ranks spanning less than `cd`."""
    runs: list[tuple[int, int]] = []
    for i in range(len(sorted_ranks)):
        j = i
        while j + 1 < len(sorted_ranks) and sorted_ranks[j + 1] - sorted_ranks[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in runs):
            runs.append((i, j))
    return runs


# ---------------------------------------------------------------------------------------------
# From grid records to figures


def _mean_rows(arrays: list[list[float]]) -> np.ndarray:
    """Element-wise mean of equal-position sequences, truncated to the shortest."""
    length = min(len(a) for a in arrays)
    return np.mean([a[:length] for a in arrays], axis=0)


def _rolling(values: np.ndarray, window: int) -> np.ndarray:
    """Mean of the last `window` values at each position (fewer at the start)."""
    sums = np.cumsum(np.insert(values, 0, 0.0))
    idx = np.arange(1, len(values) + 1)
    return (sums[idx] - sums[np.maximum(idx - window, 0)]) / np.minimum(idx, window)


def _pool_reliability(diagrams: list[typing.Mapping[str, list[float]]]) -> dict[str, list]:
    """Reliability data of several runs pooled bin by bin (weighted by bin counts)."""
    bins: dict[tuple[float, float], list[float]] = {}
    for d in diagrams:
        for lo, hi, p, y, w in zip(
            d["bin_lower"],
            d["bin_upper"],
            d["mean_predicted"],
            d["fraction_positive"],
            d["weight"],
            strict=True,
        ):
            acc = bins.setdefault((lo, hi), [0.0, 0.0, 0.0])
            acc[0] += w * p
            acc[1] += w * y
            acc[2] += w
    keys = sorted(bins)
    return {
        "bin_lower": [k[0] for k in keys],
        "bin_upper": [k[1] for k in keys],
        "mean_predicted": [bins[k][0] / bins[k][2] for k in keys],
        "fraction_positive": [bins[k][1] / bins[k][2] for k in keys],
        "weight": [bins[k][2] for k in keys],
    }


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def grid_figures(
    records: typing.Iterable[typing.Mapping[str, typing.Any]],
    out: str | os.PathLike,
    *,
    allocation_window: int = 20,
) -> list[Path]:
    """Draw the figures of every (dataset, cost ratio) of a grid into `out`; return the paths.

    Per (dataset, cost ratio) and policy the successful cells' seeds are averaged: Brier curve
    points, prequential traces (position by position), the calibrating share of minibatches
    and each arm's share of minibatches (both then a rolling mean over `allocation_window`
    minibatches), the cumulative reward, the regret of each bandit against the best fixed arm
    (`regret_over_time`), and the reliability data of the final window pooled bin by bin.
    Files are
    `<figure>_<dataset>_cr<ratio>.png|svg`.
    """
    groups: dict[tuple[str, float], dict[str, list]] = {}
    for record in records:
        if record["status"] != "ok":
            continue
        config = record["config"]
        groups.setdefault((config["dataset"], config["cost_ratio"]), {}).setdefault(
            config["policy"], []
        ).append(record["result"])
    paths: list[Path] = []
    out = Path(out)
    for (dataset, ratio), by_policy in sorted(groups.items()):
        where = f"{dataset}, cost ratio c_FN/c_FP = {ratio:g}"
        suffix = f"{_slug(dataset)}_cr{ratio:g}"
        curves, brier, log_loss, alloc, arms, reward, reliability = {}, {}, {}, {}, {}, {}, {}
        regret, unchanged = {}, {}  # unchanged: each policy's reward of no change
        window = sum(next(iter(by_policy.values()))[0]["reliability"]["weight"])
        reference: dict[str, Values] | None = None
        for policy, results in by_policy.items():
            n_seeds = len(results)
            label = policy if n_seeds == 1 else f"{policy} (mean of {n_seeds})"
            points = results[0]["brier_curve"]
            curves[label] = (
                [pt["c"] for pt in points],
                _mean_rows([[pt["q"] for pt in r["brier_curve"]] for r in results]),
            )
            if reference is None:
                reference = {
                    "c": [pt["c"] for pt in points],
                    "all_positive": _mean_rows(
                        [[pt["all_positive"] for pt in r["brier_curve"]] for r in results]
                    ),
                    "all_negative": _mean_rows(
                        [[pt["all_negative"] for pt in r["brier_curve"]] for r in results]
                    ),
                }
            traces = [r["trace"] for r in results]
            if min(len(t) for t in traces) == 0:
                continue
            x = _mean_rows([[row["n"] for row in t] for t in traces])
            brier[label] = (x, _mean_rows([[row["brier"] for row in t] for t in traces]))
            log_loss[label] = (x, _mean_rows([[row["log_loss"] for row in t] for t in traces]))
            reliability[label] = _pool_reliability([r["reliability"] for r in results])
            if "arm" in traces[0][0]:
                calibrating = _mean_rows(
                    [[float(row["arm"] in ("calibrate", "both")) for row in t] for t in traces]
                )
                alloc[label] = (x, _rolling(calibrating, allocation_window))
                taken = {row["arm"] for t in traces for row in t}
                arms[label] = (
                    x,
                    {
                        arm: _rolling(
                            _mean_rows([[float(row["arm"] == arm) for row in t] for t in traces]),
                            allocation_window,
                        )
                        for arm in ("train", "calibrate", "both")
                        if arm in taken
                    },
                )
                rewards = [np.cumsum([row["reward"] or 0.0 for row in t]).tolist() for t in traces]
                reward[label] = (x, _mean_rows(rewards))
                unchanged[label] = no_change_reward(policy)
                if any(row.get("rewards") for t in traces for row in t):  # a bandit's
                    regret[label] = (x, _mean_rows([regret_curve(t) for t in traces]))
        assert reference is not None  # a policy's results were read
        figures = {
            "brier_curve": brier_curves(curves, reference, title=f"Brier curves: {where}"),
            "prequential": prequential_curves(
                brier, log_loss, title=f"Prequential Brier score and log-loss: {where}"
            ),
            "reliability": reliability_diagram(
                reliability,
                title=f"Reliability of the last {window:.0f} predictions of each run: {where}",
            ),
        }
        if alloc:
            figures["allocation"] = allocation_over_time(
                alloc, title=f"Minibatches spent calibrating (rolling {allocation_window}): {where}"
            )
            figures["reward"] = cumulative_reward(reward, title=f"Cumulative reward: {where}",
                                                  no_change=unchanged)
            figures["arms"] = arm_shares(
                arms, title=f"Minibatches per arm (rolling {allocation_window}): {where}"
            )
        if regret:
            figures["regret"] = regret_over_time(
                regret, title=f"Regret against the best fixed arm in hindsight: {where}"
            )
        for name, figure in figures.items():
            paths += save(figure, out / f"{name}_{suffix}")
    return paths
