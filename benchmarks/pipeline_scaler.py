"""A scaler before a wrapper in a River pipeline: what scoring each example twice costs.

River's `Pipeline.learn_one` has an unsupervised step (a `StandardScaler`) learn `x` before it
transforms `x` for the next step. So a wrapper after the scaler (`StandardScaler() |
CalibratedClassifier(model)`, as README writes it) is handed, in `learn_one`, `x` scaled with
statistics that include `x`, not the dict it scored in `predict_proba_one`: it scores `x`
again, and its calibrator learns that second score. Under River's
`compose.learn_during_predict()` the scaler learns in `predict_proba_one` instead, `learn_one`
gets the very dict that was scored, and the wrapper's score is reused. Each configuration
predicts then learns the first `--rows` rows of `--dataset` (as they come, unscaled):

* the model alone after the scaler, as River runs it and learning during predict;
* `CalibratedClassifier` after the scaler, the same two ways;
* the scaler inside the wrapper (`CalibratedClassifier(StandardScaler() | model)`).

Printed: microseconds an example (runs alternate, every other repeat in reverse; the median),
the share of examples the wrapper scored twice (`scores.PrequentialScore`'s fresh scores in
`learn_one`), the Brier score, and with `--callgrind` the instructions an example, counted by
valgrind in a child process per configuration (`callgrind.py`; steady to 0.01 %).

    python benchmarks/pipeline_scaler.py
    python benchmarks/pipeline_scaler.py --dataset phishing --rows 3000 --callgrind
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import platform
import statistics
import sys
import time

import callgrind
import river
from river import compose, linear_model, preprocessing

from streamboost import CalibratedClassifier, OzaBoostClassifier, __version__, datasets
from streamboost.metrics import BrierScore
from streamboost.scores import PrequentialScore

CONFIGS = {
    "model alone": (lambda model: preprocessing.StandardScaler() | model, False),
    "model alone, learning during predict":
        (lambda model: preprocessing.StandardScaler() | model, True),
    "CalibratedClassifier after the scaler":
        (lambda model: preprocessing.StandardScaler() | CalibratedClassifier(model), False),
    "CalibratedClassifier after the scaler, learning during predict":
        (lambda model: preprocessing.StandardScaler() | CalibratedClassifier(model), True),
    "the scaler inside CalibratedClassifier":
        (lambda model: CalibratedClassifier(preprocessing.StandardScaler() | model), False),
}


def make(config: str):
    """A fresh pipeline for `config` over Oza boosting of 10 logistic regressions, and the
    context it runs in."""
    build, during = CONFIGS[config]
    model = build(OzaBoostClassifier(linear_model.LogisticRegression(), seed=1))
    return model, compose.learn_during_predict() if during else contextlib.nullcontext()


class Rescored:
    """Counts the scores a `PrequentialScore` computes again in `take` (its `_fresh`)."""

    def __init__(self):
        self.count = 0

    def __enter__(self):
        fresh = PrequentialScore._fresh

        def counted(scorer, x):
            self.count += 1
            return fresh(scorer, x)

        self._fresh, PrequentialScore._fresh = fresh, counted
        return self

    def __exit__(self, *exc):
        PrequentialScore._fresh = self._fresh


def run(config: str, rows: list) -> tuple[float, float, float]:
    """Seconds an example, the share scored again, and the Brier score of one prequential
    pass."""
    model, context = make(config)
    brier = BrierScore()
    with Rescored() as rescored, context:
        start = time.perf_counter()
        for x, y in rows:
            brier.update(y, model.predict_proba_one(x))
            model.learn_one(x, y)
        seconds = time.perf_counter() - start
    return seconds / len(rows), rescored.count / len(rows), brier.get()


def child(args) -> None:
    """The loop that `--callgrind` counts: one configuration, its steps only."""
    rows = list(itertools.islice(datasets.stream(args.dataset), args.rows))
    model, context = make(args.child)

    def step(x, y):
        model.predict_proba_one(x)
        model.learn_one(x, y)

    with context:
        callgrind.loop(step, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="phishing")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rows", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--child", choices=sorted(CONFIGS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args)
    rows = list(itertools.islice(datasets.stream(args.dataset, data_dir=args.data_dir),
                                 args.rows))
    print(f"streamboost {__version__}, river {river.__version__}, Python "
          f"{platform.python_version()}; {args.dataset}, {len(rows):,} rows, median of "
          f"{args.repeats}")
    results: dict[str, list] = {config: [] for config in CONFIGS}
    for repeat in range(args.repeats):
        for config in (list(CONFIGS) if repeat % 2 == 0 else list(CONFIGS)[::-1]):
            results[config].append(run(config, rows))
    counted = {}
    if args.callgrind:
        if not callgrind.available():
            sys.exit("--callgrind needs valgrind on the PATH")
        counted = {config: callgrind.count([__file__, "--dataset", args.dataset, "--rows",
                                            str(len(rows)), "--child", config])[0] / len(rows)
                   for config in CONFIGS}
    print(f"{'':<64}{'us/ex':>8}{'scored twice':>14}{'Brier':>8}"
          + (f"{'instr/ex':>11}" if counted else ""))
    for config, runs in results.items():
        us = statistics.median(r[0] for r in runs) * 1e6
        line = f"{config:<64}{us:>8.2f}{runs[0][1]:>14.2f}{runs[0][2]:>8.4f}"
        print(line + (f"{counted[config]:>11,.0f}" if counted else ""))


if __name__ == "__main__":
    main()
