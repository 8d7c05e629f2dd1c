"""Measuring one minibatch in N when the stream drifts: what thinned rewards cost after a change.

A bandit's reward costs a round per measured minibatch (a frozen copy of the model, or held-out
examples), so the controller measures each of the first `reward_start` minibatches after the
warm-up and then one in `reward_every`. On stationary streams that keeps the quality of
measuring every minibatch (`rollback_linear.md`, `rollback.md`), but a drift late in a stream
asks the policy to change its mind when its rounds have become rare: after a change at 60 % of
20,000 rows, one in 64 leaves it about four rounds.

Since 0.8.17 a change that a drift detector flags on the model's prequential error restarts the
dense measuring (`reward_restart`); `no restart` is 0.8.16's thinning.

For each base model (`oza-lr`: Oza boosting of 10 logistic regressions, `ht`: a Hoeffding tree;
`--models`), stream (the 7 of `slides_part2.py`, first 20,000 rows), drift (`none`, or the
`flip` and `prior` of `drift.py` at 60 %) and seed: discounted UCB over train / calibrate /
both (Platt, counterfactual rewards, `rollback="auto"`) measuring one minibatch in 1, 16 or 64
after the first 64, with and without the restart, against `"both"`. Prequential Brier score and
the share of minibatches on `"both"`, mean over seeds.

    python simulations/thinned_drift.py --data-dir ../shared/data --seeds 3

About 12 minutes on 2 cores. Writes `simulations/thinned_drift.md`.
"""

from __future__ import annotations

import itertools
import statistics
import sys

from drift import drift
from reporting import WARMUP_ARM, grid_main, held_as_measured, named, table_head, table_row

from streamboost import BanditCalibratedClassifier, datasets, evaluate
from streamboost.experiments.models import encoding, make_model, pipeline

DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("oza-lr", "ht")
DRIFTS = ("none", "flip", "prior")
EVERY = (1, 16, 64)
MAX_ROWS = 20_000
LABELS = ("both", *(f"every {n}" for n in EVERY), *(f"every {n}, no restart" for n in EVERY[1:]))


def run(model: str, name: str, kind: str, label: str, seed: int,
        data_dir: str | None) -> tuple[float, float]:
    """The prequential Brier score of one configuration `label` on one drifted stream, and the
    share of its minibatches on `"both"`."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, drift=drift(kind, length), data_dir=data_dir,
                             encode=encoding(model))
    params = ({"policy": "both"} if label == "both"
              else {"policy": "discounted-ucb", "reward_every": int(label.split()[1].rstrip(",")),
                    "reward_restart": not label.endswith("no restart")})
    base = make_model(model, 10, seed)
    wrapper = BanditCalibratedClassifier(model=base, **held_as_measured(
        base, calibrator=named("platt", base), seed=seed, warmup_arm=WARMUP_ARM, **params))
    brier = evaluate.prequential(pipeline(wrapper, name), itertools.islice(stream, length)).brier
    return brier, wrapper.arm_counts["both"] / wrapper.n_batches


def report(results: dict, models, names, seeds: int) -> str:
    """Per model: a row per (stream, drift), the mean Brier of each label, and how far each
    thinned budget is from measuring every minibatch; a summary line per model and budget."""
    thinned = [label for label in LABELS if label not in ("both", "every 1")]
    lines = [f"Prequential Brier score, mean of {seeds} seed(s) (first {MAX_ROWS:,} rows; "
             "drift at 60 %); in brackets the share of minibatches on `both`; `vs 1`: a "
             "thinned budget against measuring every minibatch (`every 1`)."]
    for model in models:
        lines += ["", f"### {model}", "",
                  *table_head("stream", "drift", *LABELS,
                              *(f"{label.removeprefix('every ')} vs 1" for label in thinned),
                              left=2)]
        gaps: dict = {label: {kind: [] for kind in DRIFTS} for label in thinned}
        for name, kind in itertools.product(names, DRIFTS):
            cells, means = [], {}
            for label in LABELS:
                runs = results[(model, name, kind, label)]
                means[label] = statistics.fmean(b for b, _ in runs)
                share = statistics.fmean(s for _, s in runs)
                cells.append(f"{means[label]:.4f} ({share:.2f})")
            for label in thinned:
                gap = means[label] / means["every 1"] - 1.0
                gaps[label][kind].append(gap)
                cells.append(f"{100 * gap:+.2f} %")
            lines.append(table_row(name, kind, *cells))
        lines.append("")
        for label in thinned:
            parts = [f"{kind}: mean {100 * statistics.fmean(g):+.2f} %, worst "
                     f"{100 * max(g):+.2f} %" for kind, g in gaps[label].items()]
            lines.append(f"- `{label}` against `every 1`: " + "; ".join(parts) + ".")
    return "\n".join(lines)


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "thinned_drift.py", "Thinned rewards on drifting streams",
                     (MODELS, DATASETS, 3), (DRIFTS, LABELS), run, report)


if __name__ == "__main__":
    sys.exit(main())
