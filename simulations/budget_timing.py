"""Which models a compute budget timed by the loss suits: Oza-LR, River's LR, a Hoeffding tree.

`budget_timing="loss"` (0.8.19) spends a `train_budget` after the minibatches whose mean
prequential Brier loss ranks in the budget's top share of the 64 before them
(docs/controller.md, "A compute budget"). It was measured with Oza boosting of 10 logistic
regressions (`simulations/drift_budget*.md`); this report asks the same of other base models
(`--models`, names of `streamboost.experiments.models`; a tree gets the categories as strings).
For each model, stream (the 7 shared ones, first 20,000 rows), drift (none, a label flip or a
prior shift at 60 %, as `drift.py` injects them) and seed, at most 25 % of the minibatches after the
warm-up train, arms train / calibrate / both: `"both"` and `"never"` spending evenly (the fixed
policies), `"both"` with the 5 % reserve spent on ADWIN's flag (`budget_reserve`), and `"both"`
timed by the loss. Each is compared with the best fixed policy, as `drift.py` does.

    python simulations/budget_timing.py --data-dir ../shared/data --seeds 3

About 5 minutes on 2 cores. Writes `simulations/budget_timing.md`.
"""

from __future__ import annotations

import itertools
import sys

from drift import _significance, run
from reporting import grid_main, mean_and_error, table_head, table_row
from thinned_drift import DATASETS

MODELS = ("oza-lr", "lr", "ht")
DRIFTS = ("none", "flip", "prior")
FIXED = ("both", "never")
CHOSEN = ("both + reserve", "both + loss timing")
BUDGET = 0.25


def brier(model: str, name: str, kind: str, label: str, seed: int,
          data_dir: str | None) -> float:
    """`drift.run`'s prequential Brier score of `label` under the budget, with `model`."""
    return run(name, kind, label, seed, data_dir, BUDGET, model)[0]


def report(scores: dict, models: list[str], names: list[str], seeds: int) -> str:
    """Per model: each (stream, drift)'s Brier scores and the chosen policies' excess over the
    best fixed one, then their wins, worst excess and paired significance."""
    lines = [f"Prequential Brier score, mean of {seeds} seeds (lower is better); at most "
             f"{100 * BUDGET:g} % of the minibatches after the warm-up train; arms train, "
             "calibrate and both.", ""]
    for model in models:
        lines += [f"### {model}", "",
                  *table_head("stream, drift", *FIXED, *CHOSEN,
                              *(f"{p} vs best fixed" for p in CHOSEN))]
        excess = {p: [] for p in CHOSEN}
        paired = {p: [] for p in CHOSEN}
        for name, kind in itertools.product(names, DRIFTS):
            by_label = {p: scores[model, name, kind, p] for p in (*FIXED, *CHOSEN)}
            means = {p: sum(v) / len(v) for p, v in by_label.items()}
            best = min(FIXED, key=means.get)
            for p in CHOSEN:
                excess[p].append(means[p] / means[best] - 1.0)
                if seeds > 1:
                    ratios = [v / w - 1.0 for v, w in zip(by_label[p], by_label[best],
                                                           strict=True)]
                    paired[p].append(((name, kind), *mean_and_error(ratios)))
            lines.append(table_row(f"{name}, {kind}",
                                   *(f"{means[p]:.4f}" for p in (*FIXED, *CHOSEN)),
                                   *(f"{100 * excess[p][-1]:+.2f} %" for p in CHOSEN)))
        lines.append("")
        for p in CHOSEN:
            worst = max(excess[p])
            lines.append(f"`{p}` beats the best fixed policy on {sum(e < 0 for e in excess[p])} "
                         f"of {len(excess[p])} pairs ({100 * min(excess[p]):+.2f} to "
                         f"{100 * worst:+.2f} %)." + _significance(paired[p]))
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    return grid_main(argv, __doc__, "budget_timing.py", "A compute budget timed by the loss, by "
                     "model", (MODELS, DATASETS, 3), (DRIFTS, (*FIXED, *CHOSEN)), brier, report)


if __name__ == "__main__":
    sys.exit(main())
