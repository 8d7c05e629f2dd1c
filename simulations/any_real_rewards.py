"""The policies that take any real reward in the controller: Gaussian Thompson sampling,
discounted or not, and epsilon-greedy, choosing among train / calibrate / both.

A policy with a reward range gets a round's improvement mapped affinely into it, by the loss's
largest possible improvement; a policy that takes any real (`reward_range` None) gets the
improvement over the running RMS of the earlier rounds' improvements (`streamboost.reward`).
This asks what that does in the controller: for each base model (`oza-lr`: Oza boosting of 10
logistic regressions; `--models`), stream (the 7 of `slides_part2.py`, first 20,000 rows) and
seed, the controller with each such policy over three arms (Platt, counterfactual rewards,
every minibatch measured, the defaults), against discounted UCB and `"both"`. Prequential Brier
score and the share of minibatches on `"calibrate"` (which the model does not learn), mean over
seeds; the runs that spent nine tenths of their minibatches or more on `"calibrate"`; and the
lowest reward each policy was given in a run, mean over seeds.

    python simulations/any_real_rewards.py --data-dir ../shared/data --seeds 5

About 2 minutes on 2 cores. Writes `simulations/any_real_rewards.md`.
"""

from __future__ import annotations

import itertools
import statistics
import sys

from reporting import WARMUP_ARM, brier_table, grid_main, named, table_head, table_row

from streamboost import BanditCalibratedClassifier, datasets, evaluate
from streamboost.experiments.models import encoding, make_model, pipeline

DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("oza-lr",)
POLICIES = ("both", "discounted-ucb", "gaussian-thompson", "discounted-gaussian-thompson",
            "epsilon-greedy")
ANY_REAL = POLICIES[2:]  # reward_range None: rewards over the running RMS
LOCKED = 0.9  # a run that spent this share of its minibatches on "calibrate", or more
MAX_ROWS = 20_000


def run(model: str, name: str, policy: str, seed: int,
        data_dir: str | None) -> tuple[float, float, float | None]:
    """The prequential Brier score of the controller with `policy` on one stream, the share of
    its minibatches on `"calibrate"`, and the lowest reward its policy was given (None for
    `"both"`, which measures nothing)."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode=encoding(model))
    base = make_model(model, 10, seed)
    wrapper = BanditCalibratedClassifier(model=base, calibrator=named("platt", base),
                                         policy=policy, seed=seed, trace_size=length,
                                         warmup_arm=WARMUP_ARM)
    result = evaluate.prequential(pipeline(wrapper, name), itertools.islice(stream, length))
    rewards = [r for batch in wrapper.trace if batch.get("rewards")
               for r in batch["rewards"].values()]
    lowest = min(rewards) if rewards else None
    return result.brier, wrapper.arm_counts["calibrate"] / wrapper.n_batches, lowest


def report(results: dict, models, names, seeds: int) -> str:
    """Per model: a row per stream of each policy's mean Brier score (in brackets its share of
    minibatches on `"calibrate"`) and the mean over streams; the runs locked on `"calibrate"`;
    a row per stream of the lowest reward of each policy that takes any real."""
    lines = [f"Prequential Brier score, mean of {seeds} seed(s) (first {MAX_ROWS:,} rows), three "
             "arms; in brackets the share of minibatches on `calibrate`, which the model does "
             "not learn."]
    for model in models:
        rows, brier = brier_table(results, model, names, POLICIES)
        lines += ["", f"### {model}", "", *rows]
        lines.append(table_row("mean", *(
            f"{statistics.fmean(brier[n, p] for n in names):.4f}" for p in POLICIES)))
        lines += ["", "Lowest reward given in a run (in units of the running RMS of the earlier "
                  "rounds' improvements), mean over seeds:", "", *table_head("stream", *ANY_REAL)]
        for name in names:
            lines.append(table_row(name, *(
                f"{statistics.fmean(low for _, _, low in results[(model, name, p)]):.1f}"
                for p in ANY_REAL)))
        lines.append("")
        for policy in POLICIES[1:]:
            locked = [(name, seed) for name in names
                      for seed, (_, share, _) in enumerate(results[(model, name, policy)])
                      if share >= LOCKED]
            where = ", ".join(f"{name} (seed {seed})" for name, seed in locked) or "none"
            lines.append(f"- `{policy}`: {len(locked)} of {len(names) * seeds} runs spent "
                         f"{LOCKED:.0%} of their minibatches or more on `calibrate`: {where}.")
    return "\n".join(lines)


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "any_real_rewards.py", "Policies that take any real reward "
                     "in the controller", (MODELS, DATASETS, 5), (POLICIES,), run, report)


if __name__ == "__main__":
    sys.exit(main())
