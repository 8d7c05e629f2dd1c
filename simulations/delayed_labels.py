"""Labels that arrive late: what calibrating online keeps when each label comes `delay`
examples after its prediction (fraud: a chargeback weeks after the payment).

River's `evaluate.progressive_val_score(..., delay=d)` predicts each example as it arrives and
hands its label to `learn_one` d examples later. `CalibratedClassifier` then scores the example
again as it learns it (its kept score is of the last example predicted, not of this one): its
calibrator learns the model's current score of the example, still out of sample, since the
model learns the label only after it. The other choice, `served`: the calibrator learns the
score the model gave when the example was predicted (the score a production system logs and
joins with the label: `score_one(x)` then, `learn_one(x, y, score=...)` with the label, 0.8.46),
from a model as many labels behind as the ones it is applied to. For each base model
(River's logistic regression, `lr`, and Oza-LR, 10 boosted logistic regressions; after a
`StandardScaler` on numeric streams), stream (the 7 of `calibrate_any_model.py`, first 20,000
rows), delay and seed: the prequential Brier score and log-loss of the raw model, of
`CalibratedClassifier` with Platt, isotonic and EWA (the four calibrators mixed), and of
Platt and EWA learning the served scores, each its own run; per model and delay, the means
over the streams and the streams on which each calibrated model beats the raw one. A delay
as long as the stream leaves nothing learned: such cells are shown, not counted.

    python simulations/delayed_labels.py --data-dir ../shared/data

About 3 minutes on 2 cores. Writes `simulations/delayed_labels.md`.
"""

from __future__ import annotations

import collections
import statistics
import sys

from reporting import grid_main, named, table_head, table_row
from river import evaluate, metrics

from streamboost import CalibratedClassifier, datasets
from streamboost.experiments.models import encoding, make_model, pipeline
from streamboost.metrics import BrierScore

MODELS = ("lr", "oza-lr")
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
DELAYS = (0, 100, 1_000, 5_000)
CALIBRATORS = ("platt", "isotonic", "ewa")
SERVED = ("platt", "ewa")
VARIANTS = ("raw", *(f"+{name}" for name in CALIBRATORS),
            *(f"+{name} served" for name in SERVED))
MAX_ROWS = 20_000


def model_for(model_name: str, variant: str, dataset: str, seed: int):
    """A fresh `model_name` (10 members for a booster), alone (`"raw"`) or in
    `CalibratedClassifier` with the variant's calibrator, after the stream's scaler."""
    model = make_model(model_name, 10, seed)
    if variant != "raw":
        model = CalibratedClassifier(model, named(variant.removeprefix("+"), model))
    return pipeline(model, dataset)


def served(model_name: str, calibrator: str, dataset: str, seed: int, rows: list,
           delay: int) -> tuple[float, float]:
    """(Brier score, log-loss) of `model_name` in `CalibratedClassifier` with `calibrator`,
    each example's score kept as it is decided (`score_one`) and given back with its label,
    `delay` examples later, as `progressive_val_score` hands labels over
    (`learn_one(x, y, score=...)`): the calibrator learns the score served."""
    model = model_for(model_name, f"+{calibrator}", dataset, seed)
    brier, log_loss = BrierScore(), metrics.LogLoss()
    kept: collections.deque = collections.deque()
    for i, (x, y) in enumerate(rows):
        if delay and i >= delay:
            old, label = rows[i - delay]
            model.learn_one(old, label, score=kept.popleft())
        p = model.predict_proba_one(x)
        brier.update(y, p)
        log_loss.update(y, p)
        if delay:
            kept.append(model.score_one(x))
        else:
            model.learn_one(x, y)
    return brier.get(), log_loss.get()


def run(model_name: str, dataset: str, delay: int, seed: int, data_dir: str | None,
        max_rows: int = MAX_ROWS) -> dict:
    """Each variant's (Brier score, log-loss) over the stream with labels `delay` late, and
    the stream's length (`"rows"`)."""
    rows = list(datasets.stream(dataset, seed=seed, encode=encoding(model_name),
                                data_dir=data_dir))[:max_rows]
    result: dict = {"rows": len(rows)}
    for variant in VARIANTS:
        if variant.endswith(" served"):
            name = variant.removeprefix("+").removesuffix(" served")
            result[variant] = served(model_name, name, dataset, seed, rows, delay)
            continue
        brier, log_loss = BrierScore(), metrics.LogLoss()
        evaluate.progressive_val_score(rows, model_for(model_name, variant, dataset, seed),
                                       brier + log_loss, delay=delay or None)
        result[variant] = (brier.get(), log_loss.get())
    return result


def _mean(results: dict, key: tuple, variant: str, which: int) -> float:
    return statistics.fmean(r[variant][which] for r in results[key])


def report(results: dict, models: list[str], names: list[str], seeds: int) -> str:
    """Per model, a Brier table (a row per stream and delay, the lowest of a row in bold; a
    delay as long as the stream, which leaves nothing learned, marked); then, per model and
    delay, over the streams longer than the delay: the mean Brier score and log-loss of each
    variant and the streams on which each calibrated variant's Brier score beats the raw."""
    delays = sorted({key[2] for key in results})
    lines = [f"Prequential, first {MAX_ROWS:,} rows, mean over {seeds} seeds; lower is better. "
             "`raw` is the model alone, `+name` `CalibratedClassifier(model, name)`, whose "
             "calibrator learns the model's score of an example as its label arrives; `served`: "
             "the calibrator learns the score the example had when predicted. A label reaches "
             "`learn_one` `delay` examples after its prediction.", ""]
    for model in models:
        lines += [f"## {model}: Brier score", "",
                  *table_head("stream", "delay", *VARIANTS, left=2)]
        for name in names:
            for delay in delays:
                values = [_mean(results, (model, name, delay), v, 0) for v in VARIANTS]
                note = ("" if _learns(results, (model, name, delay))
                        else " (no label before the end)")
                lines.append(table_row(name, f"{delay:,}{note}", *(
                    f"**{x:.4f}**" if x == min(values) else f"{x:.4f}" for x in values)))
        lines.append("")
    lines += ["## Mean over the streams longer than the delay", "",
              *table_head("model", "delay", "streams", *(f"Brier {v}" for v in VARIANTS),
                          *(f"log-loss {v}" for v in VARIANTS),
                          *(f"{v} beats raw" for v in VARIANTS[1:]), left=2)]
    for model in models:
        for delay in delays:
            kept = [n for n in names if _learns(results, (model, n, delay))]
            if not kept:
                continue
            brier = [statistics.fmean(_mean(results, (model, n, delay), v, 0) for n in kept)
                     for v in VARIANTS]
            log_loss = [statistics.fmean(_mean(results, (model, n, delay), v, 1)
                                         for n in kept) for v in VARIANTS]
            wins = [sum(_mean(results, (model, n, delay), v, 0)
                        < _mean(results, (model, n, delay), "raw", 0) for n in kept)
                    for v in VARIANTS[1:]]
            lines.append(table_row(model, f"{delay:,}", len(kept),
                                   *(f"{x:.4f}" for x in brier),
                                   *(f"{x:.4f}" for x in log_loss),
                                   *(f"{w}/{len(kept)}" for w in wins)))
    return "\n".join(lines)


def _learns(results: dict, key: tuple) -> bool:
    """Whether any label of the stream arrives before its end (the stream outlasts the delay)."""
    return results[key][0]["rows"] > key[2]


def main(argv: list[str] | None = None) -> int:
    return grid_main(argv, __doc__, "delayed_labels.py", "Labels that arrive late",
                     (MODELS, DATASETS, 3), [DELAYS], run, report)


if __name__ == "__main__":
    sys.exit(main())
