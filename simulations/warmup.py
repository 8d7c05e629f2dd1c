"""What the controller's warm-up costs: `warmup` minibatches that train the model while the
calibrator waits, under the schedule `"both"` and under discounted UCB.

`BanditCalibratedClassifier(warmup=10)` routes its first 10 minibatches (320 examples) to
`"train"` or `"both"` whatever the policy, so that a bandit does not judge its arms on an
untrained model. Until 0.8.52 the warm-up trained the model only (`warmup_arm="train"`): the
calibrator learned nothing and the raw score was served. Since then, by this report, it
calibrates too by default (`warmup_arm=None`: `"both"` unless the policy never calibrates).
For the schedule `"both"` there is nothing to judge: with `warmup=0` (or a warm-up that
calibrates) it is `CalibratedClassifier`, whose calibrator learns from the first example. For
each base model (River's logistic regression, `lr`; Oza-LR, 10 boosted logistic regressions
scored by their vote, `oza-lr`; and `oza-lr-soft`, the same scored by their probabilities,
the controller's default model since 0.8.51; River's Hoeffding tree, `ht`, and adaptive
random forest of 10 trees, `arf`; after a `StandardScaler` on numeric streams),
stream (the 7 of `calibrate_any_model.py`, first 20,000 rows) and seed: the prequential Brier
score of the raw model and of the controller with `"both"` and with discounted UCB, each with
a warm-up of 10 minibatches that train only and with none, and of discounted UCB whose
warm-up calibrates too (`warmup_arm="both"`), over the whole run and over its first 2,000
examples (where a warm-up's 320 weigh most).

    python simulations/warmup.py --data-dir ../shared/data

About 25 minutes on 2 cores. Writes `simulations/warmup.md`.
"""

from __future__ import annotations

import statistics
import sys

from reporting import (
    SOFT,
    encoding_of,
    grid_main,
    held_as_measured,
    model_named,
    named,
    table_head,
    table_row,
)

from streamboost import BanditCalibratedClassifier, datasets
from streamboost.experiments.models import pipeline
from streamboost.metrics import BrierScore

MODELS = ("lr", "oza-lr", SOFT, "ht", "arf")
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
POLICIES = ("both", "discounted-ucb")
WARMUPS = (10, 0)
VARIANTS = ("raw", *(f"{p}, warmup {w}" for p in POLICIES for w in WARMUPS),
            "discounted-ucb, warm-up both")
MAX_ROWS = 20_000
HEAD = 2_000  # the first examples, scored apart


def model_for(model_name: str, variant: str, dataset: str, seed: int):
    """A fresh `model_name` (10 members for a booster), alone (`"raw"`) or in the controller
    with the variant's policy and warm-up, after the stream's scaler."""
    model = model_named(model_name, seed)
    if variant.endswith("warm-up both"):
        model = BanditCalibratedClassifier(model=model, **held_as_measured(
            model, policy="discounted-ucb", calibrator=named("platt", model), warmup_arm="both",
            seed=seed))
    elif variant != "raw":
        policy, warmup = variant.split(", warmup ")
        model = BanditCalibratedClassifier(model=model, **held_as_measured(
            model, policy=policy, warmup=int(warmup), calibrator=named("platt", model),
            warmup_arm="train", seed=seed))
    return pipeline(model, dataset)


def run(model_name: str, dataset: str, seed: int, data_dir: str | None,
        max_rows: int = MAX_ROWS) -> dict:
    """Each variant's prequential Brier score over the stream and over its first `HEAD`
    examples, and the stream's length (`"rows"`)."""
    encode = encoding_of(model_name)
    rows = list(datasets.stream(dataset, seed=seed, encode=encode,
                                data_dir=data_dir))[:max_rows]
    result: dict = {"rows": len(rows)}
    for variant in VARIANTS:
        model = model_for(model_name, variant, dataset, seed)
        whole, head = BrierScore(), BrierScore()
        for i, (x, y) in enumerate(rows):
            p = model.predict_proba_one(x)
            whole.update(y, p)
            if i < HEAD:
                head.update(y, p)
            model.learn_one(x, y)
        result[variant] = (whole.get(), head.get())
    return result


def _mean(results: dict, key: tuple, variant: str, which: int) -> float:
    return statistics.fmean(r[variant][which] for r in results[key])


def report(results: dict, models: list[str], names: list[str], seeds: int) -> str:
    """Per model, a table of each stream's mean Brier score by variant, over the run and (in
    brackets) over its first `HEAD` examples; then, per model and policy, the means over the
    streams and the streams on which `warmup=0` (for discounted UCB also a warm-up that
    calibrates) beats the default warm-up."""
    lines = [f"Prequential Brier score, first {MAX_ROWS:,} rows, mean over {seeds} seeds; in "
             f"brackets, over the first {HEAD:,} examples; lower is better. `raw` is the model "
             "alone; the others `BanditCalibratedClassifier(model, policy=..., warmup=...)`, "
             "batch size 32 (a warm-up of 10 minibatches is 320 examples); `warmup 10` trains "
             "only (`warmup_arm=\"train\"`, the default until 0.8.52), `warm-up both` "
             "calibrates too (the default since).", ""]
    for model in models:
        lines += [f"## {model}", "", *table_head("stream", *VARIANTS)]
        for name in names:
            lines.append(table_row(name, *(
                f"{_mean(results, (model, name), v, 0):.4f} "
                f"({_mean(results, (model, name), v, 1):.4f})" for v in VARIANTS)))
        lines.append("")
    lines += ["## Mean over the streams", "",
              "Each row: the warm-up of 10 minibatches that train only (the default until "
              "0.8.52) against another warm-up, the second's wins counted where its Brier score "
              "is lower; for the schedule `both`, `warmup 0` is what a warm-up that calibrates "
              "too does (the default since).", "",
              *table_head("model", "policy", "against", "train only", "other",
                          "other wins (run)", f"first {HEAD:,}: train only",
                          f"first {HEAD:,}: other", f"other wins (first {HEAD:,})", left=3)]
    others = [(p, f"{p}, warmup 0", "warmup 0") for p in POLICIES]
    others.append(("discounted-ucb", "discounted-ucb, warm-up both", "warm-up both"))
    for model in models:
        for policy, other, label in others:
            cells = []
            for which in (0, 1):
                default, changed = (
                    [_mean(results, (model, n), v, which) for n in names]
                    for v in (f"{policy}, warmup 10", other))
                wins = sum(c < d for c, d in zip(changed, default, strict=True))
                cells += [f"{statistics.fmean(default):.4f}", f"{statistics.fmean(changed):.4f}",
                          f"{wins}/{len(names)}"]
            lines.append(table_row(model, policy, label, *cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return grid_main(argv, __doc__, "warmup.py", "What the warm-up costs",
                     (MODELS, DATASETS, 3), [], run, report)


if __name__ == "__main__":
    sys.exit(main())
