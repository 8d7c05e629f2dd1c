"""The booster's score: the thesis's votes against its members' probabilities, raw and calibrated.

`OzaBoostClassifier(score=...)` turns its members into one score three ways: `"vote"` (the
default; thesis Eq. 7.6, the vote weights of the members voting positive), `"logistic"` (Eq.
7.7, the logistic of the weighted vote margin) and, since 0.8.45, `"soft"` (the members'
probabilities averaged with the same vote weights, as MOA's `OzaBoost` and River's
`AdaBoostClassifier` combine them). What the members learn is the same under all three
(tests/test_boosting.py), so the scores are compared on the same members. For each base
model (`oza-lr`, `oza-ht`: 10 logistic regressions or Hoeffding trees; `--models oza-stump
oza-ulr`: 100 of the thesis's weak learners, whose array engine scores `"soft"` since
0.8.46), score, stream (the 7
of `calibrate_any_model.py`, first 20,000 rows, electricity and weather in their order, the
others shuffled by the seed) and seed, evaluated prequentially: the raw score, and
`CalibratedClassifier(booster, calibrator)` for Platt, isotonic and EWA (the four
calibrators mixed) beside it on the same prequential scores (the booster's training does not
depend on its calibrator). Per variant: Brier score and log-loss, mean over seeds; and the
booster's own time (scoring and learning) under each score, against `"vote"`.

    python simulations/soft_score.py --data-dir ../shared/data
    python simulations/soft_score.py --data-dir ../shared/data --models oza-stump oza-ulr \
        --out simulations/soft_score_weak.md

About 6 minutes on 2 cores each. Writes `simulations/soft_score.md` (or `--out`).
"""

from __future__ import annotations

import statistics
import sys
import time

from reporting import beside, grid_main, named, table_head, table_row
from river import metrics

from streamboost import OzaBoostClassifier, datasets
from streamboost.experiments.models import encoding, make_model, pipeline
from streamboost.metrics import BrierScore
from streamboost.scores import positive_score

MODELS = ("oza-lr", "oza-ht")
# members per booster: the thesis boosts 100 weak learners
N_MODELS = {"oza-lr": 10, "oza-ht": 10, "oza-stump": 100, "oza-ulr": 100}
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
SCORES = ("vote", "logistic", "soft")
CALIBRATORS = ("platt", "isotonic", "ewa")
VARIANTS = ("raw", *(f"+{name}" for name in CALIBRATORS))
MAX_ROWS = 20_000


def booster(model_name: str, score: str, seed: int) -> OzaBoostClassifier:
    """`model_name`'s booster (`N_MODELS` members) scoring by `score`."""
    return make_model(model_name, N_MODELS[model_name], seed, score)


def run(model_name: str, dataset: str, score: str, seed: int, data_dir: str | None,
        max_rows: int = MAX_ROWS) -> dict:
    """One prequential pass: each variant's (Brier score, log-loss), and the booster's seconds."""
    rows = list(datasets.stream(dataset, seed=seed, encode=encoding(model_name),
                                data_dir=data_dir))[:max_rows]
    oza = booster(model_name, score, seed)
    model = pipeline(oza, dataset)
    calibrators = {f"+{name}": named(name, oza) for name in CALIBRATORS}
    brier = {v: BrierScore() for v in VARIANTS}
    log_loss = {v: metrics.LogLoss() for v in VARIANTS}
    seconds = 0.0
    for x, y in rows:
        start = time.perf_counter()
        s = positive_score(model, x, True)  # the stream's labels are bools
        model.learn_one(x, y)
        seconds += time.perf_counter() - start
        for variant, p in beside(calibrators, s, y).items():
            brier[variant].update(y, p)
            log_loss[variant].update(y, {True: p, False: 1.0 - p})
    return {"seconds": seconds,
            **{v: (brier[v].get(), log_loss[v].get()) for v in VARIANTS}}


def _mean(results: dict, key: tuple, variant: str, which: int) -> float:
    return statistics.fmean(r[variant][which] for r in results[key])


def report(results: dict, models: list[str], names: list[str], seeds: int) -> str:
    """A Brier and a log-loss table per model (a row per stream, a column per score and
    variant, the lowest of a row in bold), their means over the streams, the streams on which
    `"soft"` beats `"vote"` for each variant, and the booster's time under each score against
    `"vote"`."""
    columns = [(score, variant) for score in SCORES for variant in VARIANTS]
    lines = [f"Prequential, first {MAX_ROWS:,} rows, mean over {seeds} seeds; lower is better. "
             "`raw` is the booster's score, `+name` `CalibratedClassifier(booster, name)`.", ""]
    for model in models:
        for which, title in ((0, "Brier score"), (1, "log-loss")):
            lines += [f"## {model}: {title}", "",
                      *table_head("stream", *(f"{s} {v}" for s, v in columns))]
            for name in names:
                values = [_mean(results, (model, name, s), v, which) for s, v in columns]
                best = min(values)
                lines.append(table_row(name, *(f"**{x:.4f}**" if x == best else f"{x:.4f}"
                                               for x in values)))
            lines.append("")
    lines += ["## Mean over the streams", "", *table_head("model", "metric",
                                                        *(f"{s} {v}" for s, v in columns), left=2)]
    for model in models:
        for which, title in ((0, "Brier score"), (1, "log-loss")):
            values = [statistics.fmean(_mean(results, (model, n, s), v, which) for n in names)
                      for s, v in columns]
            lines.append(table_row(model, title, *(f"**{x:.4f}**" if x == min(values)
                                                   else f"{x:.4f}" for x in values)))
    lines += ["", "## `soft` against `vote`", "",
              *table_head("model", *(f"streams `soft` {v} wins (Brier)" for v in VARIANTS),
                          "mean Brier change", "booster's time, `logistic` / `soft`")]
    for model in models:
        wins, changes = [], []
        for variant in VARIANTS:
            pairs = [(_mean(results, (model, n, "soft"), variant, 0),
                      _mean(results, (model, n, "vote"), variant, 0)) for n in names]
            wins.append(f"{sum(soft < vote for soft, vote in pairs)}/{len(names)}")
            change = 100.0 * (statistics.fmean(s / v for s, v in pairs) - 1.0)
            changes.append(f"{variant} {change:+.1f} %")
        time_of = {s: sum(r["seconds"] for n in names for r in results[(model, n, s)])
                   for s in SCORES}
        lines.append(table_row(model, *wins, ", ".join(changes),
                               f"{time_of['logistic'] / time_of['vote']:.2f}x, "
                               f"{time_of['soft'] / time_of['vote']:.2f}x"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return grid_main(argv, __doc__, "soft_score.py",
                     "The booster's score: votes or members' probabilities",
                     (MODELS, DATASETS, 5), [SCORES], run, report)


if __name__ == "__main__":
    sys.exit(main())
