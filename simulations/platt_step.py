"""Platt's and beta's step by name against Gupta & Ramdas's: Newton-sized or ten times that.

The two calibrators fitted by Online Newton Step take a step `gamma`: 1 is Newton-sized
(initial curvature H0 = I, step 1), `OnlinePlattCalibrator`'s own default is Gupta & Ramdas's
0.1 (H0 = 100 I, step 10). By name (`calibrator="platt"` or `"beta"`) the step was 1 beside
every model until 0.8.52; since 0.8.53, by this report, it is 1 beside logistic regressions
and ensembles of them and 0.1 beside any other model (`scores.named_step`). This asks what
each step costs for each base model when the calibrator learns every prequential score
(`CalibratedClassifier`, or the controller's `"both"`), where a young model's first scores are
far from calibrated.

For each base model (`lr`, `ht`, `arf`, `oza-lr`, `oza-ht`, `oza-stump`, `oza-ulr` of
`streamboost.experiments.models`, 10 members for an ensemble, and the thesis's 100 for the
weak learners, `-100`; the boosters also scored by their members' probabilities, `-soft`,
`oza-lr-soft` the controller's default model; and River's `GaussianNB` (`gnb`),
`HoeffdingAdaptiveTreeClassifier` (`hat`) and its `AdaBoostClassifier` and `BaggingClassifier`
of 10 logistic regressions, `ada-lr` and `bag-lr`), stream (the 7 of `calibrate_any_model.py`,
first 20,000 rows) and seed, one prequential pass: the model learns every example, and beside
it calibrators learn its prequential score before it learns the example (the model's training
does not depend on them, so one pass serves all; without a scaler, or within River's
`compose.learn_during_predict()`, each is `CalibratedClassifier`'s result: a pipeline
otherwise updates its scaler before the wrapper learns): Platt with `gamma` 1, 0.3 and 0.1,
beta with 1 and 0.1, each with the name's `eps`. Per variant: the Brier score over the run and
over its first 2,000 examples; per model, the share of its scores that are 0 or 1 exactly.

    python simulations/platt_step.py --data-dir ../shared/data

About 8 minutes on 2 cores. Writes `simulations/platt_step.md`.
"""

from __future__ import annotations

import statistics
import sys

from reporting import SOFT, beside, encoding_of, grid_main, model_named, table_head, table_row
from river import ensemble, linear_model, naive_bayes, tree

from streamboost import datasets
from streamboost.experiments.models import make_model, pipeline
from streamboost.metrics import BrierScore
from streamboost.scores import calibrator_for, named_step, positive_score

# River's models that `experiments.models` does not name, and how a categorical stream reaches
# them: one-hot for all but the tree, which splits on the categories as strings
OTHERS = {
    "gnb": (lambda seed: naive_bayes.GaussianNB(), "onehot"),
    "hat": (lambda seed: tree.HoeffdingAdaptiveTreeClassifier(seed=seed), None),
    "ada-lr": (lambda seed: ensemble.AdaBoostClassifier(
        linear_model.LogisticRegression(), n_models=10, seed=seed), "onehot"),
    "bag-lr": (lambda seed: ensemble.BaggingClassifier(
        linear_model.LogisticRegression(), n_models=10, seed=seed), "onehot"),
    # the thesis's 100 weak learners, by their vote and by their probabilities
    **{f"{name}-100{soft}": (lambda seed, name=name, soft=soft: make_model(
        name, 100, seed, soft.removeprefix("-") or None), "onehot")
       for name in ("oza-stump", "oza-ulr") for soft in ("", "-soft")},
}
MODELS = ("lr", "ht", "arf", "oza-lr", "oza-ht", SOFT, "oza-ht-soft", "oza-stump",
          "oza-stump-soft", "oza-ulr", "oza-ulr-soft", *OTHERS)
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
# each calibrator's steps, the name's first
STEPS = {"platt": (1.0, 0.3, 0.1), "beta": (1.0, 0.1)}
VARIANTS = ("raw", *(f"{name} gamma {g:g}" for name, steps in STEPS.items() for g in steps))
MAX_ROWS = 20_000
HEAD = 2_000  # the first examples, scored apart


def run(model_name: str, dataset: str, seed: int, data_dir: str | None,
        max_rows: int = MAX_ROWS) -> dict:
    """Each variant's (Brier score over the run, over its first `HEAD` examples), the share of
    the model's scores that are 0 or 1, and the stream's length (`"rows"`)."""
    encode = OTHERS[model_name][1] if model_name in OTHERS else encoding_of(model_name)
    rows = list(datasets.stream(dataset, seed=seed, encode=encode, data_dir=data_dir))[:max_rows]
    model = base_model(model_name, seed)
    calibrators = {f"{name} gamma {g:g}": calibrator_for(name, model, gamma=g)  # the name's eps
                   for name, steps in STEPS.items() for g in steps}
    model = pipeline(model, dataset)
    whole = {v: BrierScore() for v in VARIANTS}
    head = {v: BrierScore() for v in VARIANTS}
    extreme = 0
    for i, (x, y) in enumerate(rows):
        s = positive_score(model, x, True)  # the stream's labels are bools
        extreme += s in (0.0, 1.0)
        for variant, p in beside(calibrators, s, y).items():
            whole[variant].update(y, p)
            if i < HEAD:
                head[variant].update(y, p)
        model.learn_one(x, y)
    return {"rows": len(rows), "extreme": extreme / len(rows),
            **{v: (whole[v].get(), head[v].get()) for v in VARIANTS}}


def base_model(name: str, seed: int):
    """A fresh model `name`: one of `OTHERS`, or of `experiments.models` (`model_named`)."""
    return OTHERS[name][0](seed) if name in OTHERS else model_named(name, seed)


def _mean(results: dict, key: tuple, variant: str, which: int) -> float:
    return statistics.fmean(r[variant][which] for r in results[key])


def report(results: dict, models: list[str], names: list[str], seeds: int) -> str:
    """Per model, a table of each stream's mean Brier score by variant (in brackets over the
    first `HEAD` examples) with the share of exact 0/1 scores; then per model the means over
    the streams and the streams on which each smaller step beats Newton's."""
    lines = [f"Prequential Brier score, first {MAX_ROWS:,} rows, mean over {seeds} seeds; in "
             f"brackets, over the first {HEAD:,} examples; lower is better. `raw` is the model "
             "alone; `platt gamma g` is `CalibratedClassifier(model, OnlinePlattCalibrator("
             "gamma=g))` with the name's `eps`, `beta gamma g` the same with "
             "`OnlineBetaCalibrator`; under each model's title, the step its name takes since "
             "0.8.53 (`scores.named_step`). `0/1 scores`: the share of the model's prequential "
             "scores that are exactly 0 or 1.", ""]
    for model in models:
        step = named_step(base_model(model, 0))
        lines += [f"## {model}", "", f"By name: `gamma {step:g}`.", "",
                  *table_head("stream", *VARIANTS, "0/1 scores")]
        for name in names:
            key = (model, name)
            lines.append(table_row(name, *(
                f"{_mean(results, key, v, 0):.4f} ({_mean(results, key, v, 1):.4f})"
                for v in VARIANTS), f"{statistics.fmean(r['extreme'] for r in results[key]):.1%}"))
        lines.append("")
    lines += ["## Mean over the streams", "",
              "Each smaller step against Newton's (`gamma 1`) of the same calibrator, its "
              "wins counted where its Brier score is lower.", "",
              *table_head("model", "step", "gamma 1", "other", "other wins (run)",
                          f"first {HEAD:,}: gamma 1", f"first {HEAD:,}: other",
                          f"other wins (first {HEAD:,})", left=2)]
    smaller = [(f"{name} gamma 1", f"{name} gamma {g:g}")
               for name, steps in STEPS.items() for g in steps[1:]]
    for model in models:
        for first, variant in smaller:
            cells = []
            for which in (0, 1):
                named, other = ([_mean(results, (model, n), v, which) for n in names]
                                for v in (first, variant))
                wins = sum(o < d for o, d in zip(other, named, strict=True))
                cells += [f"{statistics.fmean(named):.4f}", f"{statistics.fmean(other):.4f}",
                          f"{wins}/{len(names)}"]
            lines.append(table_row(model, variant, *cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return grid_main(argv, __doc__, "platt_step.py",
                     "Platt's and beta's step: Newton-sized or ten times",
                     (MODELS, DATASETS, 3), [], run, report)


if __name__ == "__main__":
    sys.exit(main())
