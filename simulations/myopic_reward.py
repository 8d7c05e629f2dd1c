"""What a bandit's one-step reward sees of calibrating, against what calibrating is worth.

A round's reward is the improvement, on the next minibatch, of the arm's model and calibrator
over the pair as they stood before (`streamboost.reward`). With counterfactual rewards a
training minibatch scores all three arms on the same examples, so a round's `both - train` is
the paired effect of one calibrator update, and `both - calibrate` that of one model update.
This report sets the mean of each over the rounds beside its standard error, and beside what
the whole sequence of updates is worth: the Brier score of `"never"` (the model alone, never
calibrated) against `"both"` (every update), and of discounted UCB, which chooses on those
rounds.

For each base model (`oza-lr`: Oza boosting of 10 logistic regressions, `ht`: a Hoeffding
tree; `--models`), stream (the 7 of `slides_part2.py`, first 20,000 rows) and seed:
`"both"`, `"never"` and discounted UCB with its defaults (three arms, Platt, the log-loss
reward, counterfactual, every minibatch measured; a tree's rounds held out). The standard
error treats a run's rounds as independent; they are not quite (the model and calibrator move
slowly), so it is a lower bound.

    python simulations/myopic_reward.py --data-dir ../shared/data --seeds 5

About 2 minutes on 2 cores. Writes `simulations/myopic_reward.md`.
"""

from __future__ import annotations

import itertools
import math
import statistics
import sys

from reporting import WARMUP_ARM, grid_main, mean_and_error, named, table_head, table_row
from thinned_drift import DATASETS, MAX_ROWS, MODELS

from streamboost import BanditCalibratedClassifier, datasets, evaluate
from streamboost.experiments.models import encoding, make_model, pipeline

POLICIES = ("both", "never", "discounted-ucb")
PAIRS = ("train", "calibrate")  # both - train: one calibrator update; both - calibrate: one model's


def run(model: str, name: str, policy: str, seed: int, data_dir: str | None) -> dict:
    """One run's prequential Brier score, share of minibatches on `"both"`, and (a bandit) the
    paired differences both - train and both - calibrate of its three-arm rounds."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode=encoding(model))
    base = make_model(model, 10, seed)
    wrapper = BanditCalibratedClassifier(model=base, calibrator=named("platt", base),
                                         policy=policy, seed=seed, trace_size=length,
                                         warmup_arm=WARMUP_ARM)
    brier = evaluate.prequential(pipeline(wrapper, name), itertools.islice(stream, length)).brier
    rounds = [r["improvements"] for r in wrapper.trace
              if r["improvements"] is not None and len(r["improvements"]) == 3]
    return {"brier": brier, "both": wrapper.arm_counts["both"] / wrapper.n_batches,
            "differences": {arm: [r["both"] - r[arm] for r in rounds] for arm in PAIRS}}


def paired(differences: list[float]) -> tuple[float, float, float]:
    """Mean, standard error (rounds taken as independent) and their ratio t."""
    mean, error = mean_and_error(differences)
    return mean, error, mean / error if error > 0.0 else math.nan


def report(results: dict, models, names, seeds: int) -> str:
    """Per model, a row per stream: what the whole sequence of calibrator updates is worth
    (`never` against `both`), the bandit against `both`, and each one-step paired difference
    with its standard error; a summary line per model."""
    lines = [f"Mean of {seeds} seed(s), first {MAX_ROWS:,} rows. `never` and `D-UCB`: Brier "
             "score relative to `both`; `on both`: the bandit's share of minibatches on "
             "`both`; `both - train` and `both - calibrate`: a round's paired log-loss "
             "improvement of `both` over the other arm (one calibrator update, one model "
             "update), mean over every three-arm round of every seed, its standard error and "
             "their ratio t (|t| < 2: the rounds cannot tell the arms apart)."]
    for model in models:
        lines += ["", f"### {model}", "",
                  *table_head("stream", "`both`", "`never`", "D-UCB", "on both", "rounds",
                              "both - train", "t", "both - calibrate", "t")]
        blind, against, seen = [], [], []
        for name in names:
            runs = {p: results[(model, name, p)] for p in POLICIES}
            brier = {p: statistics.fmean(r["brier"] for r in runs[p]) for p in POLICIES}
            share = statistics.fmean(r["both"] for r in runs["discounted-ucb"])
            cells = [f"{brier['both']:.4f}",
                     f"{100 * (brier['never'] / brier['both'] - 1):+.1f} %",
                     f"{100 * (brier['discounted-ucb'] / brier['both'] - 1):+.2f} %",
                     f"{share:.2f}"]
            stats = {}
            for arm in PAIRS:
                pooled = [d for r in runs["discounted-ucb"] for d in r["differences"][arm]]
                stats[arm] = paired(pooled)
            cells.append(str(len(pooled)))
            for arm in PAIRS:
                mean, error, t = stats[arm]
                cells += [f"{mean:+.1e} ({error:.1e})", f"{t:+.1f}"]
            lines.append(table_row(name, *cells))
            worth = f"{name} ({100 * (brier['never'] / brier['both'] - 1):+.1f} %)"
            t = stats["train"][2]
            (blind if abs(t) < 2.0 else against if t <= -2.0 else seen).append(worth)
        lines += ["", f"- {model}, a calibrator update (both - train) against never "
                  "calibrating (`never` against `both`, in brackets): within two standard "
                  f"errors of 0 on {len(blind)} of {len(names)} streams ({_listed(blind)}); "
                  f"below on {len(against)} ({_listed(against)}); above on {len(seen)} "
                  f"({_listed(seen)})."]
    return "\n".join(lines)


def _listed(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "myopic_reward.py", "What the one-step reward sees of "
                     "calibrating", (MODELS, DATASETS, 5), (POLICIES,), run, report)


if __name__ == "__main__":
    sys.exit(main())
