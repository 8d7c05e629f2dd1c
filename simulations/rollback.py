"""What rolling the model back without a copy (`rollback="defer"` or `"holdout"`) costs in quality.

A bandit's reward compares the model before and after a measured minibatch. `rollback="copy"`
freezes a copy of the model (for trees a pickle, which also slows the live tree: docs/
controller.md). `"defer"` copies nothing, but the model learns a measured minibatch only once
the next one is scored, so it predicts one minibatch behind there, and the calibrator learns
the scores of a model that stood still through the minibatch. `"holdout"` copies nothing
either: it scores a measured minibatch's round on its own first 4 of 32 examples (the default
until 0.8.54; 1 since), which nothing learns until the minibatch ends, so only those examples
are learned late. A copy scoring as few examples of the next minibatch is the control: it
differs from the holdout in how it rolls back, not in how much evidence a round has.

For each base model (`ht`, `oza-ht`, `arf`, or any of `streamboost.experiments.models` named
with `--models`, as `lr oza-lr` for `rollback_linear.md`), stream (the
7 of `slides_part2.py`, first 20,000 rows), seed and reward budget (one minibatch in 1, 16 or 64
measured): discounted UCB over train / calibrate / both (Platt calibrator, counterfactual
rewards) with each rollback and the control, and `"both"` for reference, all through
`streamboost.experiments` (the cells `streamboost compare --rollback` runs). Prequential Brier
score, the share of minibatches on `"both"`, and run time (two runs at a time on 2 cores: a
rough figure; the benchmarks time them properly).

    python simulations/rollback.py --data-dir ../shared/data

About 25 minutes on 2 cores with `--models ht oza-ht`, about two hours with ARF (the
default); finished runs are kept in `simulations/.cache/rollback/` (a rerun skips them).
Writes `simulations/rollback.md`.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

from reporting import NAMED_GAMMA, table_head, table_row

from streamboost.experiments import Cell, run_grid
from streamboost.reward import ROLLBACKS

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "rollback"
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("ht", "oza-ht", "arf")
EVERY = (1, 16, 64)


#: the examples `"holdout"` scored in a 32-example minibatch by default until 0.8.54, as the
#: reports were measured (since then 1: simulations/holdout_sample.md); a copy scoring as few
#: is the control
HELD = 4


def cells(models, datasets, seeds, every, max_rows: int, data_dir: str | None) -> list[Cell]:
    """`"both"`, then discounted UCB with each budget and rollback, and with a copy scoring only
    `HELD` examples where one minibatch in N > 1 is measured (the control: it differs from
    `"holdout"` in how it rolls back, not in its sample), per model x stream x seed."""
    out = []
    for model, dataset, seed in itertools.product(models, datasets, seeds):
        common = {"model": model, "seed": seed, "max_rows": max_rows, "data_dir": data_dir,
                  "calibrator_gamma": NAMED_GAMMA}
        out.append(Cell(dataset, "both", **common))
        out += [Cell(dataset, "discounted-ucb", reward_every=n, rollback=rollback,
                     reward_examples=HELD if rollback == "holdout" else None, **common)
                for n, rollback in itertools.product(every, ROLLBACKS)]
        out += [Cell(dataset, "discounted-ucb", reward_every=n, rollback="copy",
                     reward_examples=HELD, **common)
                for n in every if n > 1]
    return out


def _others(n: int) -> list[str]:
    """The rollbacks compared with the copy at one minibatch in `n`."""
    return [*ROLLBACKS[1:], *([f"copy/{HELD}"] if n > 1 else [])]


def _variant(row: dict) -> str:
    if row["policy"] == "both":
        return "both"
    rollback = row["rollback"]
    if rollback == "copy" and row.get("reward_examples") not in (None, ""):
        rollback = f"copy/{int(row['reward_examples'])}"
    return f"{rollback} {row['reward_every']}"


def summarise(rows: list[dict]) -> dict:
    """Per (model, stream, variant): the seeds' mean Brier score, share of "both" minibatches
    and run time; variants are "both" and "<rollback> <reward_every>"."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["model"], row["dataset"], _variant(row)), []).append(row)
    return {
        key: {
            "brier": statistics.fmean(r["brier"] for r in group),
            "both": statistics.fmean(r.get("batches_both", 0) / r["n_batches"] for r in group),
            "seconds": statistics.fmean(r["seconds"] for r in group),
        }
        for key, group in groups.items()
    }


def report(summary: dict, models, datasets, every, command: str) -> str:
    """The markdown report: per model, budget and rollback without a copy, that rollback
    against the copy over the streams, then the per-stream Brier scores."""
    lines = [
        "# Rolling the model back without a copy: what it costs",
        "",
        "Discounted UCB (train / calibrate / both, Platt, counterfactual rewards), prequential",
        "Brier score, mean over seeds; `copy N`, `defer N`, `holdout N`: `rollback`, one",
        f"minibatch in N measured (`holdout` scores its first {HELD} of 32); `copy/{HELD} N`: a",
        f"copy scoring as few examples as `holdout` ({HELD} of the next minibatch). Generated by:",
        "",
        f"    {command}",
        "",
        "| model | N | rollback | mean Brier | copy | both | within 1 % of copy | worst "
        "(/ copy - 1) | share of `both` (copy) | run time copy / this |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    rows = [(m, n, r) for m, n in itertools.product(models, every) for r in _others(n)]
    for model, n, rollback in rows:
        copy = [summary[(model, d, f"copy {n}")] for d in datasets]
        this = [summary[(model, d, f"{rollback} {n}")] for d in datasets]
        both = [summary[(model, d, "both")] for d in datasets]
        gaps = [b["brier"] / a["brier"] - 1.0 for a, b in zip(copy, this, strict=True)]
        worst = max(range(len(gaps)), key=gaps.__getitem__)
        lines.append(
            f"| {model} | {n} | {rollback} | {statistics.fmean(c['brier'] for c in this):.4f} "
            f"| {statistics.fmean(c['brier'] for c in copy):.4f} "
            f"| {statistics.fmean(c['brier'] for c in both):.4f} "
            f"| {sum(g <= 0.01 for g in gaps)} of {len(gaps)} "
            f"| {100 * gaps[worst]:+.1f} % ({datasets[worst]}) "
            f"| {statistics.fmean(c['both'] for c in this):.2f} "
            f"({statistics.fmean(c['both'] for c in copy):.2f}) "
            f"| {sum(c['seconds'] for c in copy) / sum(c['seconds'] for c in this):.2f} |"
        )
    variants = [f"{r} {n}" for n in every for r in ("copy", *_others(n))]
    lines += ["", "Per stream (Brier):", "",
              *table_head("model", "stream", "both", *variants, left=3 + len(variants))]
    for model, dataset in itertools.product(models, datasets):
        cellsv = [summary[(model, dataset, v)]["brier"] for v in ("both", *variants)]
        lines.append(table_row(model, dataset, *(f"{b:.4f}" for b in cellsv)))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--models", nargs="+", default=list(MODELS))
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--every", nargs="+", type=int, default=list(EVERY))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--max-rows", type=int, default=20_000)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path, default=HERE / "rollback.md")
    args = parser.parse_args(argv)
    grid = cells(args.models, args.datasets, range(args.seeds), args.every, args.max_rows,
                 args.data_dir)
    run = run_grid(grid, args.cache, n_jobs=args.n_jobs)
    if run.failed:
        raise SystemExit(f"{len(run.failed)} runs failed: {run.failed[:3]}")
    command = " ".join(["python simulations/rollback.py", *(sys.argv[1:] if argv is None
                                                            else argv)])
    text = report(summarise(run.rows()), args.models, args.datasets, args.every, command)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
