"""What a simulation does with its report: the command that made it, above the text; and the
grid of runs a report is made from; its tables' rows; calibrators beside one model's scores.

    from reporting import table_head, table_row, write_report
    text = "\n".join([*table_head("stream", "Brier"), table_row("phishing", f"{0.0557:.4f}")])
    write_report(out, "A title", "script.py", argv, text)
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import typing
from pathlib import Path

from streamboost import BanditCalibratedClassifier
from streamboost.reward import calibrated
from streamboost.scores import calibrator_for

# The controller's warm-up as the reports were measured, pinned so that each script still makes
# its report: until 0.8.52 the warm-up trained the model only; since then it calibrates too by
# default (`warmup_arm=None`), which simulations/warmup.md measures.
WARMUP_ARM = "train"

# Platt's and beta's step by name as the reports were measured: until 0.8.52 it was
# Newton-sized (gamma=1) beside every model; since 0.8.53 it is Gupta & Ramdas's 0.1 beside any
# model but a logistic regression or an average of smooth members' probabilities (the soft
# default booster): `scores.named_step`, which simulations/platt_step.md measures.
NAMED_GAMMA = 1.0


# the controller's default model: Oza boosting of 10 logistic regressions scored soft
SOFT = "oza-lr-soft"


def model_named(name: str, seed: int):
    """A fresh `experiments.models` model `name` (10 members for an ensemble), seeded; a
    booster's name ending in `-soft` (`SOFT`, `oza-ht-soft`) scores by its members'
    probabilities."""
    from streamboost.experiments.models import make_model

    if name.endswith("-soft"):
        return make_model(name.removesuffix("-soft"), 10, seed, "soft")
    return make_model(name, 10, seed)


def encoding_of(name: str) -> str | None:
    """How `datasets.stream` encodes categorical features for the model `name` (a `-soft`
    booster as its model)."""
    from streamboost.experiments.models import encoding

    return encoding(name.removesuffix("-soft"))


def named(calibrator: str, model):
    """The calibrator called `calibrator` for `model`, its step pinned to `NAMED_GAMMA`."""
    return calibrator_for(calibrator, model, gamma=NAMED_GAMMA)


def held_as_measured(model, **params) -> dict:
    """`params` of a `BanditCalibratedClassifier` of `model`, with a held-out round's default
    sample pinned to the one the reports were measured with: an eighth of the minibatch (4 of
    32) until 0.8.54, one in 32 since (simulations/holdout_sample.md)."""
    if (params.get("reward_examples") is None
            and BanditCalibratedClassifier(model=model, **params).rollback_ == "holdout"):
        return {**params, "reward_examples": max(1, params.get("batch_size", 32) // 8)}
    return params


def beside(calibrators: dict, score: float, y: bool) -> dict:
    """`"raw"`: a model's prequential `score`, then each calibrator's probability of it (by
    name, in order), each calibrator learning (`score`, `y`) after its prediction: calibrators
    beside one model, on its scores out of sample (`CalibratedClassifier`'s, one pass for
    all)."""
    probabilities = {"raw": score}
    for name, calibrator in calibrators.items():
        probabilities[name] = calibrated(calibrator, score)
        calibrator.learn_one(score, y)
    return probabilities


def write_report(out: Path, title: str, script: str, argv: list[str] | None, text: str) -> None:
    """Write `# title`, the command (`python simulations/<script>` and `argv`, or the process's
    own arguments when `argv` is None) and `text` to `out`, and print `text`."""
    args = sys.argv[1:] if argv is None else argv
    command = " ".join(["python simulations/" + script, *args])
    out.write_text(f"# {title}\n\n`{command}`\n\n{text}\n")
    print(text)


def table_row(*cells: object) -> str:
    """One row of a Markdown table: `| a | b | c |`."""
    return "| " + " | ".join(map(str, cells)) + " |"


def table_head(*labels: object, left: int = 1) -> list[str]:
    """A Markdown table's header row and its rule: the first `left` columns aligned left (names),
    the others right (numbers)."""
    return [table_row(*labels), "|" + "---|" * left + "---:|" * (len(labels) - left)]


def mean_and_error(values: typing.Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and its standard error (the sample standard deviation over the
    square root of their number), the values taken as independent."""
    return statistics.mean(values), statistics.stdev(values) / math.sqrt(len(values))


def seeds_parser(description: str, seeds: int, out: Path) -> argparse.ArgumentParser:
    """The options every grid over seeds takes: `--data-dir`, `--seeds`, `--jobs` (processes)
    and `--out`, with these defaults."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=seeds)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=out)
    return parser


def grid_parser(description: str, models: typing.Sequence[str], names: typing.Sequence[str],
                seeds: int, out: Path) -> argparse.ArgumentParser:
    """`seeds_parser`'s options and a grid's over models and streams: `--models`,
    `--datasets`, with these defaults."""
    from streamboost import datasets

    parser = seeds_parser(description, seeds, out)
    parser.add_argument("--models", nargs="+", default=list(models))
    parser.add_argument("--datasets", nargs="+", default=list(names),
                        choices=sorted(datasets.REGISTRY))
    return parser


def run_grid(run: typing.Callable, jobs: list[tuple], data_dir: str | None,
             n_jobs: int, *extra) -> dict:
    """`run(*job, data_dir, *extra)` for every job, on `n_jobs` processes (joblib), each result
    listed under its job without the last item (the seed), in the jobs' order."""
    import joblib

    runs = joblib.Parallel(n_jobs=n_jobs)(joblib.delayed(run)(*job, data_dir, *extra)
                                          for job in jobs)
    results: dict = {}
    for (*key, _), result in zip(jobs, runs, strict=True):
        results.setdefault(tuple(key), []).append(result)
    return results


def grid_main(argv: list[str] | None, doc: str, script: str, title: str,
              defaults: tuple[typing.Sequence[str], typing.Sequence[str], int],
              axes: typing.Sequence[typing.Sequence], run: typing.Callable,
              report: typing.Callable) -> int:
    """The `main` of a grid over models, streams, `axes` and seeds: the options
    (`grid_parser`, with `defaults` = (models, streams, seeds), the first line of `doc` as the
    description, the report `simulations/<script's stem>.md` by default), `run` for every
    (model, stream, *axes, seed) (`run_grid`), and the text of `report(results, models,
    streams, seeds)` written under `title` (`write_report`)."""
    models, names, seeds = defaults
    out = Path(__file__).resolve().parent / script.replace(".py", ".md")
    args = grid_parser(doc.splitlines()[0], models, names, seeds, out).parse_args(argv)
    jobs = list(itertools.product(args.models, args.datasets, *axes, range(args.seeds)))
    results = run_grid(run, jobs, args.data_dir, args.jobs)
    text = report(results, args.models, args.datasets, args.seeds)
    write_report(args.out, title, script, argv, text)
    return 0


def brier_table(results: dict, model: str, names: typing.Sequence[str],
                policies: typing.Sequence[str]) -> tuple[list[str], dict]:
    """A Markdown table of one model's runs, a row per stream and a column per policy: the mean
    over seeds of each run's Brier score (its first item) and, in brackets, of its share (its
    second item); and those mean Brier scores by (stream, policy). `results` maps (model,
    stream, policy) to the runs' tuples."""
    lines, brier = table_head("stream", *policies), {}
    for name in names:
        cells = []
        for policy in policies:
            runs = results[(model, name, policy)]
            brier[name, policy] = statistics.fmean(run[0] for run in runs)
            share = statistics.fmean(run[1] for run in runs)
            cells.append(f"{brier[name, policy]:.4f} ({share:.2f})")
        lines.append(table_row(name, *cells))
    return lines, brier

