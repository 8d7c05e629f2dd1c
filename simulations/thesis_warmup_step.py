"""The thesis protocol's online calibration under the warm-up and Platt's step, two by two.

``thesis_protocol.py`` with the thesis's members (100 univariate logistic regressions, scored by
their vote), the policies ``both``, ``every-3`` and ``discounted-ucb``, run four times: the
controller's warm-up (its first 2 minibatches of 16) training only, as until 0.8.51, or
calibrating too, the library's since 0.8.52; and Platt's step ``gamma=1``, the name's until
0.8.52, or the one the name picks for a booster's vote since 0.8.53 (0.1). Each cell is the
mean over the 18 datasets of the area under the Brier curve (21 thesis cost ratios) on the
held-out 25 %, after one epoch (30 repetitions) and after three (the first 10); "better on"
counts the datasets where the library's defaults (bottom right) score lower than the cell.

    python simulations/thesis_warmup_step.py --data-dir ../shared/data

About 13 minutes on 2 cores (750 s in 0.8.54).
"""

from __future__ import annotations

import argparse
import time
import typing
from pathlib import Path

import thesis_protocol as protocol
from reporting import table_head, table_row, write_report

HERE = Path(__file__).resolve().parent
POLICIES = ("both", "every-3", "discounted-ucb")
# (label, warmup_arm, gamma): None is the library's
CELLS = (
    ("warm-up trains, gamma 1 (until 0.8.51)", "train", 1.0),
    ("warm-up calibrates too, gamma 1 (0.8.52)", None, 1.0),
    ("warm-up trains, gamma by name (0.1)", "train", None),
    ("warm-up calibrates too, gamma by name (the defaults since 0.8.53)", None, None),
)


def means(rows: typing.Sequence[dict], passes: int) -> dict:
    """{(policy): {dataset: mean area}} over the repetitions scored after ``passes`` epochs."""
    areas: dict = {}
    for row in rows:
        if row["passes"] == passes:
            areas.setdefault(row["method"], {}).setdefault(row["dataset"], []).append(
                row["brier_curve"])
    return {m: {d: sum(v) / len(v) for d, v in by.items()} for m, by in areas.items()}


def report(results: dict, passes: int) -> str:
    """A table per epoch count: a row per cell, a column per policy (mean area, and the
    datasets where the defaults' cell is better)."""
    defaults = results[CELLS[-1][0]]
    lines = []
    for epochs in sorted({1, passes}):
        lines += [f"After {epochs} epoch{'s' if epochs > 1 else ''}:", "",
                  *table_head("setting", *POLICIES)]
        base = means(defaults, epochs)
        for label, *_ in CELLS:
            cell = means(results[label], epochs)
            values = []
            for policy in POLICIES:
                mean = sum(cell[policy].values()) / len(cell[policy])
                better = sum(base[policy][d] < a for d, a in cell[policy].items())
                values.append(f"{mean:.4f} ({better} of {len(cell[policy])})")
            lines.append(table_row(label, *values))
        lines.append("")
    return "\n".join(lines)


def main(argv: typing.Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--passes-reps", type=int, default=10)
    parser.add_argument("--datasets", nargs="+", choices=list(protocol.THESIS_TABLE_8_1),
                        default=list(protocol.THESIS_TABLE_8_1))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir", type=Path, default=protocol.default_data_dir())
    parser.add_argument("--out", type=Path, default=HERE / "thesis_warmup_step.md")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = {
        label: protocol.run(
            args.datasets, args.reps, jobs=args.jobs, methods=POLICIES, passes=3,
            passes_reps=args.passes_reps, n_models=100, members="univariate",
            warmup_arm=warmup_arm, gamma=gamma, data_dir=args.data_dir)
        for label, warmup_arm, gamma in CELLS
    }
    text = (report(results, 3) + f"\n{len(args.datasets)} datasets, {args.reps} repetitions "
            f"(3 epochs: the first {args.passes_reps}); {time.perf_counter() - start:.0f} s.")
    write_report(args.out, "The thesis protocol's calibration: warm-up and step",
                 "thesis_warmup_step.py", None if argv is None else list(argv), text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
