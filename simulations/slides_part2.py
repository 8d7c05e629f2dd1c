"""The experiment of the slides, Part II: when should online boosting train, and when calibrate?

Policies, each deciding per minibatch of 32 examples (10 logistic-regression members, Oza
boosting, online Platt calibrator), evaluated prequentially on real streams over 5 seeds:

* the uncalibrated booster ("never") and the naive schedules "every-N", N = 2, 4, 8, 14;
* the bandits of the slides and their discounted / sliding-window versions, choosing between
  the two arms of the slides, train or calibrate (the forced split);
* "both" (every example trains the booster, and the calibrator learns its out-of-sample score)
  and the same bandits when they may also choose "both" (labelled "[3 arms]");
* an ablation: UCB1 and discounted UCB scoring only the arm they took, as before the
  controller measured counterfactual rewards (labelled "[no counterfactual]").

Run from the repository root (about 10 minutes on 2 cores, each stream capped at its first
20,000 rows; finished cells are cached in
`simulations/.cache/` and skipped on a re-run):

    python simulations/slides_part2.py --data-dir ../shared/data --max-rows 20000 \
        --out simulations/slides_part2_affine
    python simulations/slides_part2.py --data-dir ../shared/data --max-rows 20000 \
        --reward-map logistic

It writes `<out>/results.csv` (one row per run), the figures `<out>/*.png`, and the tables of
`<out>/report.md`. The first command is the controller's reward since 0.4 (an affine map of the
improvements); the second, the logistic squash it had before, into `simulations/slides_part2/`.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

from reporting import NAMED_GAMMA, table_head, table_row

from streamboost.evaluate import RunResult
from streamboost.experiments import figures, make_grid, run_grid
from streamboost.experiments.execution import write_table
from streamboost.experiments.statistics import compare
from streamboost.reward import MAPPINGS

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
EVERY_N = tuple(f"every-{n}" for n in (2, 4, 8, 14))
BANDITS = (
    "ucb1",
    "kl-ucb",
    "gaussian-thompson",
    "discounted-ucb",
    "sliding-window-ucb",
    "discounted-thompson",
    "discounted-gaussian-thompson",
)
TWO_ARMS = ("train", "calibrate")
THREE_ARMS = ("train", "calibrate", "both")
ABLATION = ("ucb1", "discounted-ucb")  # also run with counterfactual=False
DISCOUNTED = ("discounted-ucb", "sliding-window-ucb", "discounted-thompson",
              "discounted-gaussian-thompson")
UNDISCOUNTED = ("ucb1", "kl-ucb", "gaussian-thompson")
COST_RATIOS = (0.1, 1.0, 10.0)  # c_FN / c_FP for the expected-cost table
IN_FIGURES = ("never", "both", "every-4", "every-14", "ucb1", "discounted-ucb",
              "ucb1 [3 arms]", "discounted-ucb [3 arms]", "discounted-thompson [3 arms]")


def label(config: dict) -> str:
    """A policy's name in the tables: bandits with the "both" arm are marked "[3 arms]", those
    that score only the arm they took "[no counterfactual]"."""
    policy = config["policy"]
    if tuple(config["arms"]) == THREE_ARMS and policy not in ("both", "never"):
        policy = f"{policy} [3 arms]"
    if not config.get("counterfactual", True):
        policy = f"{policy} [no counterfactual]"
    return policy


def cells(seeds, data_dir, max_rows, reward_map="affine"):
    settings = {"data_dir": data_dir, "max_rows": max_rows, "seeds": seeds,
                "reward_map": reward_map, "calibrator_gamma": NAMED_GAMMA}
    grid = make_grid(DATASETS, ("never", *EVERY_N, *BANDITS), arms=TWO_ARMS, **settings)
    grid += make_grid(DATASETS, ("both", *BANDITS), arms=THREE_ARMS, **settings)
    for arms in (TWO_ARMS, THREE_ARMS):
        grid += make_grid(DATASETS, ABLATION, arms=arms, counterfactual=False, **settings)
    return grid


def table(rows, datasets, policies, value, fmt="{:.4f}") -> list[str]:
    """A Markdown table: policies x datasets, mean over seeds of `value(row)`."""
    lines = table_head("policy", *datasets)
    for policy in policies:
        cells_ = []
        for dataset in datasets:
            values = [value(r) for r in rows if r["policy"] == policy and r["dataset"] == dataset]
            cells_.append(fmt.format(statistics.fmean(values)) if values else "")
        lines.append(table_row(policy, *cells_))
    return lines


def report(rows, results, datasets) -> str:
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    brier = {(d, p): statistics.fmean(r["brier"] for r in rows
                                      if r["dataset"] == d and r["policy"] == p)
             for d in datasets for p in policies}
    out = ["## Prequential Brier score (mean over seeds; lower is better)", ""]
    out += table(rows, datasets, policies, lambda r: r["brier"])
    out += ["", "## Prequential log-loss", ""]
    out += table(rows, datasets, policies, lambda r: r["log_loss"])
    out += ["", "## Share of minibatches in which the calibrator learned", ""]
    out += table(rows, datasets, policies, lambda r: r["calibrate_fraction"], "{:.2f}")

    comparison = compare(rows, "brier")
    out += ["", "## Ranking (Brier score, 95% intervals over seeds, Friedman / Nemenyi)", "",
            "```", comparison.format(), "```"]

    out += ["", "## The issue's four claims, checked", ""]
    every = {d: sorted(brier[d, p] for p in EVERY_N) for d in datasets}
    calibrated = [p for p in policies if p != "never"]
    beats = {p: [d for d in datasets if brier[d, p] < brier[d, "never"]] for p in calibrated}
    out.append("1. Calibrated variants that beat the uncalibrated booster on Brier score, per "
               "policy (datasets where it does):")
    out += [f"   - {p}: {len(beats[p])}/{len(datasets)} ({', '.join(beats[p]) or 'none'})"
            for p in calibrated]
    out.append("2. Discounted / sliding-window bandits against the every-N schedules "
               "(best N in hindsight, and the median N):")
    for p in [*DISCOUNTED, *(f"{p} [3 arms]" for p in DISCOUNTED)]:
        within = [d for d in datasets if brier[d, p] <= 1.01 * every[d][0]]
        over_median = [d for d in datasets if brier[d, p] < statistics.median(every[d])]
        out.append(f"   - {p}: within 1% of the best every-N on {len(within)}/{len(datasets)}; "
                   f"beats the median every-N on {len(over_median)}/{len(datasets)} "
                   f"({', '.join(over_median) or 'none'})")
    out.append("3. Allocation over time (share of minibatches in which the calibrator learned, "
               "first and last tenth of each stream; share of the last tenth on its most "
               "chosen arm, the collapse; means over datasets and seeds):")
    bandits = [*UNDISCOUNTED, *DISCOUNTED]
    for p in [*bandits, *(f"{p} [3 arms]" for p in bandits)]:
        first, last, top = _allocation_ends(results, p)
        out.append(f"   - {p}: calibrating, first tenth {first:.2f}, last tenth {last:.2f}; "
                   f"most chosen arm in the last tenth {top:.2f}")
    out.append("4. Realised cost per example against the uncalibrated booster with threshold "
               "1/2 (mean over datasets and seeds; lower is better):")
    out += ["", *table_head("policy", *(f"c_FN/c_FP = {c:g}" for c in COST_RATIOS))]
    never = [r for key, r in results.items() if key[1] == "never"]
    out.append(table_row("never, threshold 1/2", *(
        f"{statistics.fmean(r.cost_at_half(1.0, c) for r in never):.4f}" for c in COST_RATIOS)))
    for p in policies:
        runs = [r for key, r in results.items() if key[1] == p]
        out.append(table_row(f"{p}, threshold c", *(
            f"{statistics.fmean(r.cost_at_threshold(c) for r in runs):.4f}" for c in COST_RATIOS)))
    return "\n".join(out) + "\n"


def _allocation_ends(results, policy) -> tuple[float, float, float]:
    firsts, lasts, tops = [], [], []
    for (_, p, _), result in results.items():
        if p != policy or not result.trace:
            continue
        arms = [row["arm"] for row in result.trace]
        calibrating = [arm in ("calibrate", "both") for arm in arms]
        tenth = max(1, len(arms) // 10)
        firsts.append(sum(calibrating[:tenth]) / tenth)
        lasts.append(sum(calibrating[-tenth:]) / tenth)
        tops.append(max(arms[-tenth:].count(arm) for arm in set(arms[-tenth:])) / tenth)
    if not firsts:
        return (math.nan,) * 3
    return statistics.fmean(firsts), statistics.fmean(lasts), statistics.fmean(tops)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None, help="where the shared datasets are")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per cell (5)")
    parser.add_argument("--max-rows", type=int, default=None, help="cap each stream (all)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--out", type=Path, default=HERE / "slides_part2")
    parser.add_argument("--reward-map", choices=MAPPINGS, default="affine",
                        help="how the bandits' improvements become rewards (affine)")
    args = parser.parse_args(argv)

    grid = cells(range(args.seeds), args.data_dir, args.max_rows, args.reward_map)
    run = run_grid(grid, HERE / ".cache" / "slides_part2", n_jobs=args.jobs, progress=True)
    if run.failed:
        for record in run.failed:
            print("FAILED", record["config"]["dataset"], record["config"]["policy"],
                  (record["error"] or "").strip().splitlines()[-1], file=sys.stderr)
    rows, results, records = [], {}, []
    for record, row in zip(run.records, run.rows(), strict=True):
        if record["status"] != "ok":
            continue
        name = label(record["config"])
        row["policy"] = name
        rows.append(row)
        results[row["dataset"], name, row["seed"]] = RunResult(**record["result"])
        if name in IN_FIGURES:
            records.append({**record, "config": {**record["config"], "policy": name}})
    args.out.mkdir(parents=True, exist_ok=True)
    write_table(rows, args.out / "results.csv")
    datasets = [d for d in DATASETS if any(r["dataset"] == d for r in rows)]
    text = report(rows, results, datasets)
    (args.out / "report.md").write_text(text)
    for path in figures.grid_figures(records, args.out):
        if path.suffix == ".svg":  # the committed report keeps the PNGs only
            path.unlink()
    print(text)
    print(f"{run.n_run} cells run, {run.n_cached} from the cache, {len(run.failed)} failed")
    return 1 if run.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
