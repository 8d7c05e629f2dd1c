"""What the controller costs on top of the model alone, measured in the same run, for any model.

Each example is predicted (`predict_proba_one`) then learned (`learn_one`), on pre-scaled rows
(no scaler is timed but a model's own). For each base model (`streamboost.experiments.models`,
or `scaled-lr`, `scaled-oza-lr`: `lr`, `oza-lr` after a `StandardScaler`), the model alone is
timed against `CalibratedClassifier` and `"by hand"` (`ByHand`: the same model and calibrator
wired with none of a wrapper's bookkeeping, the floor a wrapper's own cost is measured from),
and against controllers that wrap the same model: `"both"` (a
schedule: the calibrator learns every prequential score) and discounted UCB measuring its
reward with different budgets (`reward_examples` scored per minibatch, one minibatch in
`reward_every` measured after the first `reward_start`, 64 by default since 0.8.16), or with
the arms train / both only, whose rewards need no copy of the model, or rolling the model back
by holding a measured minibatch's examples instead of copying it (`rollback="defer"`), or by
scoring its round on its own first examples, learned last (`"holdout"`); and two costlier
policies (KL-UCB's bisections, FEWA's filter over each arm's last rewards) measuring one
minibatch in 64. Runs are interleaved, every other repeat in reverse order, so load changes hit
every configuration alike; the median speed and the median of each repeat's ratio to the model
alone are reported, with the Brier score and the bandit's arm shares (and, for a bandit, the
minibatches it measured of all and the changes its drift detector flagged), so what a cheaper
reward costs in quality shows too. `--instructions` adds the instructions each example costs,
counted by the CPU (`instructions.py`: steady to about 0.1 % where the timed ratios move by
hundredths), and their ratio to the model alone's. `--many B` runs the same comparison by
frames of B rows (`predict_proba_many`, then `learn_many`; the controller's minibatches are
then B rows too): a minibatch model (our booster, River's logistic regression) learns each
frame with its own `learn_many`, alone or wrapped. Each run gets frames built afresh (untimed),
as a stream delivers them: pandas caches what it learns of a frame's columns (`is_unique`), so
frames replayed from an earlier run would hide that cost from all but the first run.
`--score S` scores the boosters by S (`soft`: as `BanditCalibratedClassifier()`'s default
model; default: their own, the vote). `--callgrind` counts instructions where the CPU gives no
counter: each configuration runs once, in its own process under valgrind's
callgrind, counted inside the prequential loop only (`callgrind.py`; repeatable to about
0.03 %, no timing). `--processes N` repeats the whole timed comparison in N fresh processes, one
after another (hash seeds 1..N), and reports the median over them of each process's ratio, with
the range: within one process the interleaved repeats agree, but the same code's ratio moves by
several hundredths from one process to the next (its memory layout, as pyperf's workers
assume), so one process's median is one draw of that spread.

    python benchmarks/controller_overhead.py --data-dir ../shared/data
    python benchmarks/controller_overhead.py --models ht arf --rows 5000 --repeats 3
    python benchmarks/controller_overhead.py --models oza-lr lr --many 32
    python benchmarks/controller_overhead.py --models scaled-lr scaled-oza-lr --configs both
    python benchmarks/controller_overhead.py --models piped-oza-lr --configs both "D-UCB, defaults"
    python benchmarks/controller_overhead.py --models oza-lr --rows 5000 --callgrind
    python benchmarks/controller_overhead.py --models oza-lr --processes 8 --configs both
    python benchmarks/controller_overhead.py --models oza-lr --score soft --configs both
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import callgrind
import river
from instructions import InstructionCounter
from river import compose, preprocessing

from streamboost import BanditCalibratedClassifier, CalibratedClassifier, __version__, datasets
from streamboost.boosting import SCORES
from streamboost.calibration import CALIBRATORS
from streamboost.experiments.models import _BOOSTERS, MODELS, make_model
from streamboost.metrics import BrierScore
from streamboost.reward import calibrated
from streamboost.scores import _proba_score, booster, calibrator_for
from streamboost.validation import check_features

ALONE = "model alone"
# `base_model`'s pipelines, not among the CLI's models: name -> the model after the scaler
SCALED = {"scaled-lr": "lr", "scaled-oza-lr": "oza-lr"}
# the scaler before the wrapper, as README writes it (`StandardScaler() | CalibratedClassifier(
# model)`), and before the model alone: name -> the model
PIPED = {"piped-lr": "lr", "piped-oza-lr": "oza-lr"}
BY_HAND = "by hand"
CONFIGS = {
    BY_HAND: None,  # `ByHand`: the wrappers' work without their bookkeeping (one at a time)
    "CalibratedClassifier": None,  # the wrapper without a controller ("both", tested equal)
    "both": {"policy": "both"},
    "D-UCB, all 32 examples": {"policy": "discounted-ucb", "reward_examples": 32},
    "D-UCB, 16 examples": {"policy": "discounted-ucb", "reward_examples": 16},
    "D-UCB, 8 examples": {"policy": "discounted-ucb", "reward_examples": 8},
    "D-UCB, 4 examples": {"policy": "discounted-ucb", "reward_examples": 4},
    "D-UCB, 2 examples": {"policy": "discounted-ucb", "reward_examples": 2},
    "D-UCB, 1 example": {"policy": "discounted-ucb", "reward_examples": 1},
    "D-UCB, defaults": {"policy": "discounted-ucb"},
    # the policy picks every minibatch's arm, no round is measured: what the rounds cost
    "D-UCB, nothing measured": {"policy": "discounted-ucb", "reward_every": 10**6,
                                "reward_start": 0, "reward_restart": False},
    "D-UCB, reward_every=4": {"policy": "discounted-ucb", "reward_every": 4},
    "D-UCB, reward_every=16": {"policy": "discounted-ucb", "reward_every": 16},
    "D-UCB, reward_every=64": {"policy": "discounted-ucb", "reward_every": 64},
    "D-UCB, reward_every=16, no restart": {"policy": "discounted-ucb", "reward_every": 16,
                                           "reward_restart": False},
    "D-UCB, reward_every=64, no restart": {"policy": "discounted-ucb", "reward_every": 64,
                                           "reward_restart": False},
    "D-UCB, arms train/both": {"policy": "discounted-ucb", "arms": ("train", "both")},
    "D-UCB, defer": {"policy": "discounted-ucb", "rollback": "defer"},
    "D-UCB, reward_every=16, defer": {"policy": "discounted-ucb", "reward_every": 16,
                                      "rollback": "defer"},
    "D-UCB, reward_every=64, defer": {"policy": "discounted-ucb", "reward_every": 64,
                                      "rollback": "defer"},
    "D-UCB, holdout": {"policy": "discounted-ucb", "rollback": "holdout"},
    "D-UCB, reward_every=16, holdout": {"policy": "discounted-ucb", "reward_every": 16,
                                        "rollback": "holdout"},
    "D-UCB, reward_every=64, holdout": {"policy": "discounted-ucb", "reward_every": 64,
                                        "rollback": "holdout"},
    # a round's cost is nearly fixed, so its share per example falls with the minibatch's size
    "D-UCB, batch_size=64": {"policy": "discounted-ucb", "batch_size": 64},
    "D-UCB, batch_size=128": {"policy": "discounted-ucb", "batch_size": 128},
    "both, batch_size=128": {"policy": "both", "batch_size": 128},
    "KL-UCB, reward_every=64": {"policy": "kl-ucb", "reward_every": 64},
    "FEWA, reward_every=64": {"policy": "fewa", "reward_every": 64},
}


class ByHand:
    """`CalibratedClassifier`'s work wired by hand, without its bookkeeping: the floor from
    which a wrapper's own cost is measured. Each example is checked and scored once and the
    score calibrated; then the model learns the example and the calibrator its score. No label
    is checked or inferred (the rows' labels are bools, True positive) and nothing checks that
    the x learned is the x just scored (this loop's x always is), which the wrappers must."""

    def __init__(self, model, calibrator: str):
        self.model = model
        self.calibrator = calibrator_for(calibrator, model)
        self._score = model._score_one if booster(model) is not None else self._proba
        self._last = 0.5

    def _proba(self, x: dict) -> float:
        return _proba_score(self.model, x, True)  # the wrappers' score of a River model

    def predict_proba_one(self, x: dict) -> dict:
        self._last = score = self._score(check_features(x))
        p = calibrated(self.calibrator, score)
        return {False: 1.0 - p, True: p}

    def learn_one(self, x: dict, y: bool) -> None:
        self.model.learn_one(x, y)
        self.calibrator._update(self._last, y)


def run(model, rows, counter: InstructionCounter | None) -> tuple[float, float, float]:
    """Examples per second, the Brier score, and instructions per example (0: not counted)."""
    brier = BrierScore()
    start = time.perf_counter()
    with counter or contextlib.nullcontext():
        for x, y in rows:
            brier.update(y, model.predict_proba_one(x))
            model.learn_one(x, y)
    speed = len(rows) / (time.perf_counter() - start)
    return speed, brier.get(), counter.count / len(rows) if counter else 0.0


def run_many(model, frames) -> tuple[float, float, float]:
    """`run` by frames (`(X, y, keyword arguments of learn_many)`): examples per second and the
    Brier score (no instruction count; the metric learns the kept probabilities after the
    clock stops, so only the models are timed: by frames the ratios are the models' own, one
    at a time they include the metric's cost)."""
    kept = []
    start = time.perf_counter()
    for X, y, kwargs in frames:
        kept.append(model.predict_proba_many(X))
        model.learn_many(X, y, **kwargs)
    speed = sum(len(X) for X, _, _ in frames) / (time.perf_counter() - start)
    brier = BrierScore()
    for (_, y, _), proba in zip(frames, kept, strict=True):
        for label, p in zip(y, proba.to_dict("records"), strict=True):
            brier.update(label, p)
    return speed, brier.get(), 0.0


def make_frames(rows, size: int, weights=None) -> list[tuple]:
    """`rows` as new frames of `size` rows, each `(X, y, keyword arguments of learn_many)`
    (`weights`: one sample weight per row, else none)."""
    import pandas as pd

    return [(pd.DataFrame([x for x, _ in rows[i : i + size]]),
             pd.Series([y for _, y in rows[i : i + size]]),
             {} if weights is None else {"w": weights[i : i + size]})
            for i in range(0, len(rows), size)]


def load_rows(dataset: str, data_dir: str | None, n: int) -> list[tuple[dict, object]]:
    """The first `n` rows of `dataset`, pre-scaled (no scaler is timed or counted)."""
    # seeded: a dataset without a natural order is shuffled the same way in every run
    rows = list(datasets.stream(dataset, seed=0, data_dir=data_dir, encode="onehot"))[:n]
    if not datasets.REGISTRY[dataset].categorical:
        scaler = preprocessing.StandardScaler()
        for x, _ in rows:
            scaler.learn_one(x)
        rows = [(scaler.transform_one(x), y) for x, y in rows]
    return rows


def base_model(name: str, score: str | None = None):
    """A fresh model `name` (seed 0): one of `experiments.models.MODELS`, or one of `SCALED`,
    that model after a `StandardScaler` in a pipeline, River's most common form (the rows are
    pre-scaled all the same: its scaler learns and maps each row as a user's would). `score`:
    a booster's (None: its own, the vote); the other models have their own probabilities."""
    inner = SCALED.get(name, name)
    model = make_model(inner, 10, 0, score if inner in _BOOSTERS else None)
    return preprocessing.StandardScaler() | model if name in SCALED else model


def make(name: str, config: str, batch: dict, calibrator: str = "platt",
         score: str | None = None):
    """A fresh model `name` (seed 0, a booster scored by `score`), alone or wrapped by
    `config` with `calibrator`; for one of `PIPED`, that model and that wrapper after a
    `StandardScaler`."""
    if name in PIPED:
        return preprocessing.StandardScaler() | make(PIPED[name], config, batch, calibrator,
                                                     score)
    model = base_model(name, score)
    if config == ALONE:
        return model
    if config == BY_HAND:
        return ByHand(model, calibrator)
    params = CONFIGS[config]
    if params is None:
        return CalibratedClassifier(model, calibrator)
    # a configuration's own batch size overrides the frames' (`--many`)
    return BanditCalibratedClassifier(model=model, calibrator=calibrator,
                                      seed=0, **{**batch, **params})


def summary(model) -> dict | None:
    """What a controller did (None for a model alone): its arm counts and, for a bandit, the
    rounds it measured, of its minibatches, and the changes its drift detector flagged."""
    if isinstance(model, compose.Pipeline):  # `PIPED`: the wrapper after the scaler
        model = list(model.steps.values())[-1]
    if not isinstance(model, BanditCalibratedClassifier):
        return None
    rounds = model.policy_.n_rounds if model.policy_.uses_rewards else None
    return {"arms": model.arm_counts, "rounds": rounds, "batches": model.n_batches,
            "drifts": model.n_drifts}


def describe(done: dict | None) -> str:
    """`summary`'s record as the table's last cell: arm shares, then rounds and changes."""
    if not done:
        return ""
    arms = done["arms"]
    total = sum(arms.values())
    if not total:  # fewer rows than one minibatch
        return "no minibatch completed"
    text = " ".join(f"{a} {100 * n / total:.0f}%" for a, n in arms.items())
    if done["rounds"] is not None:
        text += f"; {done['rounds']}/{done['batches']} measured, {done['drifts']} changes"
    return text


def child(args) -> None:
    """Under callgrind: one model's prequential loop inside `callgrind.loop`, then its Brier
    score and arm counts as JSON."""
    name, config = args.child
    rows = load_rows(args.dataset, args.data_dir, args.rows)
    model, brier = make(name, config, {}, args.calibrator, args.score), BrierScore()

    def step(x, y):
        brier.update(y, model.predict_proba_one(x))
        model.learn_one(x, y)

    callgrind.loop(step, rows)
    print(json.dumps({"brier": brier.get(), "done": summary(model)}))


def count_instructions(args) -> None:
    """`--callgrind`: every configuration's instructions per example, each in its own process
    under callgrind (two at a time), against the model alone's."""
    print(f"{args.dataset}, first {args.rows:,} rows, calibrator {args.calibrator}, "
          f"instructions counted by callgrind; "
          f"streamboost {__version__}, river {river.__version__}, Python "
          f"{platform.python_version()}, {platform.machine()}")
    print(f"{'model':<14}{'configuration':<32}{'instr/ex':>12}{'vs model':>10}{'Brier':>9}  arms")
    for name in args.models:
        configs = [ALONE, *args.configs]
        argv = [__file__, "--dataset", args.dataset, "--rows", str(args.rows),
                "--calibrator", args.calibrator]
        argv += ["--data-dir", args.data_dir] if args.data_dir else []
        argv += ["--score", args.score] if args.score else []
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(callgrind.count,
                                    [[*argv, "--child", name, c] for c in configs]))  # fmt: skip
        alone = results[0][0]
        for config, (instructions, out) in zip(configs, results, strict=True):
            result = json.loads(out)
            print(f"{name:<14}{config:<32}{instructions / args.rows:>12,.0f}"
                  f"{alone / instructions:>10.3f}{result['brier']:>9.4f}  "
                  f"{describe(result['done'])}")


def measure(args, rows, frames, batch: dict, counter) -> dict:
    """Each model alone and wrapped by each configuration, `args.repeats` times interleaved:
    model -> configuration -> (median speed, median of each repeat's ratio to the model alone,
    instructions per example, their ratio to the model alone's (0: not counted), Brier score,
    arm counts). `frames`: None (one example at a time), or what makes each run's frames."""
    results: dict = {}
    for name in args.models:
        makers = {config: lambda name=name, config=config: make(name, config, batch,
                                                                 args.calibrator, args.score)
                  for config in [ALONE, *args.configs]}
        speeds = {config: [] for config in makers}
        counts = {config: [] for config in makers}
        scored = {}
        for repeat in range(args.repeats):
            # every other repeat runs backwards: a slow start or end of the cycle (warm-up,
            # a neighbour's load) does not always fall on the same configurations
            order = list(makers) if repeat % 2 == 0 else list(makers)[::-1]
            for config in order:
                model = makers[config]()
                speed, brier, count = (run_many(model, frames()) if frames else
                                       run(model, rows, counter))
                speeds[config].append(speed)
                counts[config].append(count)
                scored[config] = (brier, summary(model))
        results[name] = {}
        for config, values in speeds.items():
            # the ratio to the model alone of the same repeat, then the median over repeats
            ratio = statistics.median(
                v / alone for v, alone in zip(values, speeds[ALONE], strict=True)
            )
            count = statistics.median(counts[config])
            counted = statistics.median(counts[ALONE]) / count if count else 0.0
            results[name][config] = (statistics.median(values), ratio, count, counted,
                                     *scored[config])  # fmt: skip
    return results


def show(name: str, config: str, result: tuple, counted: bool, spread: str = "") -> None:
    """One row of the table: a configuration's speed, ratio (`spread`: their range over
    processes), instructions, Brier score and arm shares."""
    speed, ratio, count, count_ratio, brier, done = result
    cells = f"{count:>12,.0f}{count_ratio:>10.3f}" if counted else ""
    print(f"{name:<14}{config:<32}{speed:>9,.0f}{ratio:>10.2f}{spread}{cells}{brier:>9.4f}  "
          f"{describe(done)}")


def processes(args, argv: list[str]) -> None:
    """`--processes N`: the timed comparison of the options `argv` in N fresh processes, one
    after another (hash seeds 1..N), each process's medians reported by their median, and the
    ratios' range."""
    runs = []
    for seed in range(1, args.processes + 1):
        # argparse keeps an option's last value: each child times in its own process only
        done = subprocess.run([sys.executable, __file__, *argv, "--processes", "1", "--json"],
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)})  # fmt: skip
        lines = done.stdout.splitlines()
        if not runs:
            print(f"{args.processes} processes (hash seeds 1-{args.processes}), each: {lines[0]}")
        runs.append(json.loads(lines[-1]))
    print(f"{'model':<14}{'configuration':<32}{'ex/s':>9}{'vs model':>10}{'range':>13}"
          f"{'Brier':>9}  arms")
    for name, configs in runs[0].items():
        for config, first in configs.items():
            speeds, ratios = zip(*((r[name][config][0], r[name][config][1]) for r in runs),
                                 strict=True)  # fmt: skip
            result = (statistics.median(speeds), statistics.median(ratios), 0, 0.0, *first[4:])
            show(name, config, result, False, f"{min(ratios):>7.2f}-{max(ratios):<5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--models", nargs="+", default=list(MODELS),
                        choices=sorted([*MODELS, *SCALED, *PIPED]),
                        help=f"the base models (default: all but {', '.join([*SCALED, *PIPED])})")
    parser.add_argument("--configs", nargs="+", default=None, choices=list(CONFIGS),
                        help=f"default: all ('{BY_HAND}' only one example at a time)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--calibrator", default="platt", choices=CALIBRATORS,
                        help="the wrappers' calibrator (default platt)")
    parser.add_argument("--score", default=None, choices=SCORES,
                        help="the boosters' score (default: their own, the vote; soft is "
                        "BanditCalibratedClassifier()'s default model's)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions per example (Linux)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind's callgrind instead of timing "
                             "(where the CPU gives no counter; slow: use --rows 2000)")
    parser.add_argument("--many", type=int, default=None, metavar="B",
                        help="by frames of B rows (learn_many, predict_proba_many)")
    parser.add_argument("--weighted", action="store_true",
                        help="with --many: every row a sample weight, uniform in [0.5, 2] "
                             "(seed 0), the model alone's too")
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="time in N fresh processes, one after another, and report the "
                             "median of their ratios and the range")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.many is not None and (args.many < 2 or args.instructions or args.callgrind):
        parser.error("--many needs B >= 2, and counts no instructions")
    if args.configs is None:
        args.configs = [c for c in CONFIGS if args.many is None or c != BY_HAND]
    elif args.many is not None and BY_HAND in args.configs:
        parser.error(f"'{BY_HAND}' runs one example at a time: leave it out with --many")
    if BY_HAND in args.configs and PIPED.keys() & set(args.models):
        parser.error(f"'{BY_HAND}' is not a River estimator to put after a scaler: leave it out "
                     f"with {', '.join(PIPED)}")
    if args.weighted and args.many is None:
        parser.error("--weighted weighs the rows of frames: give --many")
    if args.many is not None and (SCALED.keys() | PIPED.keys()) & set(args.models):
        # River 0.26.1's batch variance can come out a hair below 0 on a constant column (the
        # pipeline alone raises then: a complex standard deviation)
        parser.error(f"{', '.join([*SCALED, *PIPED])} run one example at a time: River's "
                     "StandardScaler."
                     "transform_many raises after its learn_many on electricity")
    if args.processes < 1 or (args.processes > 1 and (args.instructions or args.callgrind)):
        parser.error("--processes needs N >= 1, and times (no instruction counts)")
    if args.processes > 1:
        processes(args, sys.argv[1:])
        return
    if args.callgrind:
        if not callgrind.available():
            parser.error("--callgrind needs valgrind on the PATH")
        count_instructions(args)
        return
    counter = InstructionCounter.open() if args.instructions else None
    if args.instructions and counter is None:
        parser.error("--instructions: this machine gives no instruction counter (try --callgrind)")
    rows = load_rows(args.dataset, args.data_dir, args.rows)
    frames = None
    if args.many:
        import numpy as np

        weights = np.random.default_rng(0).uniform(0.5, 2.0, len(rows)) if args.weighted else None
        frames = functools.partial(make_frames, rows, args.many, weights)
    batch = {} if args.many is None else {"batch_size": args.many}
    print(
        (f"by {'weighted ' if args.weighted else ''}frames of {args.many} rows, "
         if args.many else "") +
        f"{args.dataset}, first {len(rows):,} rows, calibrator {args.calibrator}"
        f"{f', boosters scored {args.score}' if args.score else ''}, median of "
        f"{args.repeats} interleaved runs "
        f"(alternating order); streamboost {__version__}, river {river.__version__}, Python "
        f"{platform.python_version()}, {platform.machine()}"
    )
    counted = f"{'instr/ex':>12}{'vs model':>10}" if counter else ""
    print(f"{'model':<14}{'configuration':<32}{'ex/s':>9}{'vs model':>10}{counted}{'Brier':>9}"
          "  arms")
    results = measure(args, rows, frames, batch, counter)
    if args.json:
        print(json.dumps(results))
        return
    for name, configs in results.items():
        for config, result in configs.items():
            show(name, config, result, counter is not None)


if __name__ == "__main__":
    main()
