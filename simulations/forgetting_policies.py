"""The forgetting policies in the controller: discounted and sliding-window UCB, KL-UCB,
Thompson sampling and UCB-Improved, choosing among train / calibrate / both.

`docs/bandits.md` measures the policies on simulated bandits, where KL-UCB's index and
Thompson sampling pull the better arm more often than UCB's padding. This asks whether that
carries over to the controller's rounds: for each base model (`oza-lr`: Oza boosting of 10
logistic regressions; `--models`), stream (the 7 of `slides_part2.py`, first 20,000 rows) and
seed, the controller with each forgetting policy over three arms (Platt, counterfactual
rewards, every minibatch measured, the defaults), against `"both"`, which measures nothing.
Prequential Brier score and the share of minibatches on `"both"`, mean over seeds, each
policy's mean rank over the streams, and its regret against the best fixed arm in hindsight
(`evaluate.regret_curve`, in reward units: what the policy's own objective says of its
choices).

    python simulations/forgetting_policies.py --data-dir ../shared/data --seeds 5

About 2 minutes on 2 cores. Writes `simulations/forgetting_policies.md`.
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
# each UCB-padding policy, then its KL-UCB, Thompson and UCB-Improved counterparts
POLICIES = ("both", "discounted-ucb", "discounted-kl-ucb", "discounted-thompson",
            "discounted-ucb-improved", "sliding-window-ucb", "sliding-window-kl-ucb",
            "sliding-window-thompson", "sliding-window-ucb-improved")
COUNTERPARTS = {"discounted-kl-ucb": "discounted-ucb", "discounted-thompson": "discounted-ucb",
                "discounted-ucb-improved": "discounted-ucb",
                "sliding-window-kl-ucb": "sliding-window-ucb",
                "sliding-window-thompson": "sliding-window-ucb",
                "sliding-window-ucb-improved": "sliding-window-ucb"}
MAX_ROWS = 20_000


def run(model: str, name: str, policy: str, seed: int,
        data_dir: str | None) -> tuple[float, float, float | None]:
    """The prequential Brier score of the controller with `policy` on one stream, the share
    of its minibatches on `"both"`, and its regret (None for `"both"`, which measures
    nothing)."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode=encoding(model))
    base = make_model(model, 10, seed)
    wrapper = BanditCalibratedClassifier(model=base, calibrator=named("platt", base),
                                         policy=policy, seed=seed, warmup_arm=WARMUP_ARM)
    result = evaluate.prequential(pipeline(wrapper, name), itertools.islice(stream, length))
    return result.brier, wrapper.arm_counts["both"] / wrapper.n_batches, result.regret


def ranks(values: list[float]) -> list[float]:
    """Each value's rank among `values`, 1 the lowest, ties sharing their mean rank."""
    order = sorted(values)
    return [order.index(v) + (order.count(v) + 1) / 2 for v in values]


def report(results: dict, models, names, seeds: int) -> str:
    """Per model: a row per stream of each policy's mean Brier score (in brackets its share of
    minibatches on `"both"`), the mean over streams and the mean rank; then each KL-UCB and
    Thompson policy against the UCB policy that forgets alike."""
    lines = [f"Prequential Brier score, mean of {seeds} seed(s) (first {MAX_ROWS:,} rows), three "
             "arms; in brackets the share of minibatches on `both`. Rank: among the "
             f"{len(POLICIES)} columns on each stream (1 the lowest Brier score), mean over "
             "the streams."]
    for model in models:
        rows, brier = brier_table(results, model, names, POLICIES)
        lines += ["", f"### {model}", "", *rows]
        rank_sum = dict.fromkeys(POLICIES, 0.0)
        for name in names:
            for policy, rank in zip(POLICIES, ranks([brier[name, p] for p in POLICIES]),
                                    strict=True):
                rank_sum[policy] += rank
        lines.append(table_row("mean", *(
            f"{statistics.fmean(brier[n, p] for n in names):.4f}" for p in POLICIES)))
        lines.append(table_row("rank", *(f"{rank_sum[p] / len(names):.2f}" for p in POLICIES)))
        bandits = POLICIES[1:]
        lines += ["", "Regret at the end of the run against the best fixed arm in hindsight, over "
                  "the rounds that measured every arm, mean over seeds (rewards in [0, 1], 1/2 = "
                  "no change):", "", *table_head("stream", *bandits)]
        for name in names:
            lines.append(table_row(name, *(
                f"{statistics.fmean(r for _, _, r in results[(model, name, p)]):.3f}"
                for p in bandits)))
        lines.append("")
        for policy, reference in COUNTERPARTS.items():
            gaps = [brier[n, policy] / brier[n, reference] - 1.0 for n in names]
            lower = sum(gap < 0.0 for gap in gaps)
            lines.append(f"- `{policy}` against `{reference}`: lower Brier score on {lower} of "
                         f"{len(names)} streams, mean {100 * statistics.fmean(gaps):+.2f} %, "
                         f"from {100 * min(gaps):+.2f} % to {100 * max(gaps):+.2f} %.")
    return "\n".join(lines)


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "forgetting_policies.py", "Forgetting policies in the "
                     "controller", (MODELS, DATASETS, 5), (POLICIES,), run, report)


if __name__ == "__main__":
    sys.exit(main())
