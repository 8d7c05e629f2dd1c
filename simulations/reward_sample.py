"""Scoring a round on fewer examples (`reward_examples`): what a smaller sample costs in quality.

A bandit's round is scored on the minibatch after it: every example of it by default, or
`reward_examples` of them, spread evenly. A frozen copy's scoring, the calibrators' maps and
the losses grow with the sample, so a smaller one is cheaper (`benchmarks/README.md`), but a
round then rests on less evidence. docs/controller.md measured this before 0.4, with the
logistic reward map: with 8 or 4 examples the bandit settled on `"train"` alone on phishing.
This measures it again with the affine map (the default since 0.4) and the other defaults
since (`reward_start`, `rollback="auto"`; since 0.8.55 the warm-up that calibrates too and
Platt's step by the model).

For each base model (`oza-lr`: Oza boosting of 10 logistic regressions, `lr`: River's logistic
regression; `--models`), stream (the 7 of `slides_part2.py`, first 20,000 rows) and seed:
discounted UCB over train / calibrate / both (Platt, counterfactual rewards, measuring every
minibatch) scoring each round on 32 (all), 16, 8 or 4 examples of the next minibatch, against
`"both"`. Prequential Brier score and the shares of minibatches on `"train"` alone and on
`"both"`, mean over seeds.

    python simulations/reward_sample.py --data-dir ../shared/data --seeds 5

About 5 minutes on 2 cores. Writes `simulations/reward_sample.md`.
"""

from __future__ import annotations

import itertools
import statistics
import sys

from reporting import grid_main, table_head, table_row

from streamboost import BanditCalibratedClassifier, datasets, evaluate
from streamboost.experiments.models import encoding, make_model, pipeline

DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("oza-lr", "lr")
SAMPLES = (32, 16, 8, 4)
MAX_ROWS = 20_000
LABELS = ("both", *(f"{n} examples" for n in SAMPLES))


def run(model: str, name: str, label: str, seed: int,
        data_dir: str | None) -> tuple[float, float, float]:
    """The prequential Brier score of one configuration `label` on one stream, and the shares
    of its minibatches on `"train"` and on `"both"`. `label`: `"both"`, `"<n> examples"`
    (`reward_examples` n, the rollback `"auto"` picks) or `"<n> held out"` (`rollback=
    "holdout"` scoring its first n)."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode=encoding(model))
    params = ({"policy": "both"} if label == "both"
              else {"policy": "discounted-ucb", "reward_examples": int(label.split()[0])})
    if label.endswith("held out"):
        params["rollback"] = "holdout"
    base = make_model(model, 10, seed)
    # the library's settings: Platt's step by the model, a warm-up that calibrates too
    wrapper = BanditCalibratedClassifier(model=base, calibrator="platt", seed=seed, **params)
    brier = evaluate.prequential(pipeline(wrapper, name), itertools.islice(stream, length)).brier
    counts, n = wrapper.arm_counts, wrapper.n_batches
    return brier, counts["train"] / n, counts["both"] / n


def report(results: dict, models, names, seeds: int,
           labels: tuple[str, ...] = LABELS) -> str:
    """Per model: a row per stream, the mean Brier score of each of `labels` (shares of
    `"train"` and `"both"` in brackets) and how far each other sample is from the reference,
    `labels[1]` (after `"both"`); a summary line per sample."""
    reference = labels[1]
    ref = reference.split()[0]
    others = list(labels[2:])
    lines = [f"Prequential Brier score, mean of {seeds} seed(s) (first {MAX_ROWS:,} rows); in "
             "brackets the shares of minibatches on `train` alone and on `both`; "
             f"`vs {ref}`: another sample against `{reference}`."]
    for model in models:
        lines += ["", f"### {model}", "",
                  *table_head("stream", *labels,
                              *(f"{label.split()[0]} vs {ref}" for label in others))]
        gaps: dict = {label: [] for label in others}
        stuck: dict = {label: 0 for label in labels[1:]}  # runs spent (nearly) all on "train"
        for name in names:
            cells, means = [], {}
            for label in labels:
                runs = results[(model, name, label)]
                means[label] = statistics.fmean(b for b, _, _ in runs)
                train = statistics.fmean(t for _, t, _ in runs)
                both = statistics.fmean(s for _, _, s in runs)
                if label in stuck:
                    stuck[label] += sum(t >= 0.9 for _, t, _ in runs)
                cells.append(f"{means[label]:.4f} ({train:.2f} / {both:.2f})")
            for label in others:
                gap = means[label] / means[reference] - 1.0
                gaps[label].append((gap, name))
                cells.append(f"{100 * gap:+.2f} %")
            lines.append(table_row(name, *cells))
        lines.append("")
        for label in others:
            worst, where = max(gaps[label])
            within = sum(gap <= 0.01 for gap, _ in gaps[label])
            mean = statistics.fmean(gap for gap, _ in gaps[label])
            lines.append(
                f"- `{label}` against `{reference}`: mean {100 * mean:+.2f} %, "
                f"worst {100 * worst:+.2f} % ({where}), within 1 % on {within} of {len(names)}; "
                f"runs with 90 % or more of their minibatches on `train` alone: "
                f"{stuck[label]} of {len(names) * seeds} ({reference}: {stuck[reference]}).")
    return "\n".join(lines)


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "reward_sample.py", "A round scored on fewer examples",
                     (MODELS, DATASETS, 5), (LABELS,), run, report)


if __name__ == "__main__":
    sys.exit(main())
