"""What a cost-sensitive decision costs over the model's own `predict_one`, in the same process.

Each model (`streamboost.experiments.models`: `lr`, River's logistic regression; `oza-lr`,
our booster) learns the first `--train` rows of `--dataset` (pre-scaled, as in
`controller_overhead.py`), alone and inside each wrapper, which learns them too (a calibrator
learns its scores). Then each decides the next `--rows` rows, timed: the model alone
(`predict_one`, River's argmax), `CostSensitiveClassifier` and `CalibratedClassifier` at their
own costs and with a cost passed on the call (`c_fn=`), and `predict_many` of `--frame`-row
frames with a cost per row. Runs alternate (every other repeat in reverse order) and the
median time per example is printed with its ratio to the model alone's `predict_one`.

    python benchmarks/decision_overhead.py --data-dir ../shared/data
    python benchmarks/decision_overhead.py --models lr --rows 2000 --repeats 3
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np
import pandas as pd
import river
from controller_overhead import load_rows

from streamboost import CalibratedClassifier, CostSensitiveClassifier, __version__
from streamboost.experiments.models import make_model

ALONE = "model alone"
C_FP, C_FN = 1.0, 4.0
WRAPPERS = {
    "CostSensitiveClassifier": lambda model: CostSensitiveClassifier(model, c_fp=C_FP, c_fn=C_FN),
    "CalibratedClassifier": lambda model: CalibratedClassifier(model, c_fp=C_FP, c_fn=C_FN),
}


def decide_one(model, xs: list[dict], costs: bool) -> float:
    """Seconds to decide each of `xs` with `predict_one` (`costs`: with a cost on the call)."""
    start = time.perf_counter()
    if costs:
        for x in xs:
            model.predict_one(x, c_fn=C_FN)
    else:
        for x in xs:
            model.predict_one(x)
    return time.perf_counter() - start


def decide_many(model, frames: list[pd.DataFrame]) -> float:
    """Seconds to decide every frame with `predict_many`, a cost per row."""
    start = time.perf_counter()
    for X in frames:
        model.predict_many(X, c_fn=np.linspace(1.0, 10.0, len(X)))
    return time.perf_counter() - start


def trained(name: str, wrapper: str | None, rows: list[tuple[dict, object]]):
    """A fresh model `name` (seed 0), wrapped by `wrapper` (None: alone), that learned `rows`."""
    model = make_model(name, 10, 0)
    if wrapper is not None:
        model = WRAPPERS[wrapper](model)
    for x, y in rows:
        model.learn_one(x, y)
    return model


def measure(name: str, train: list, xs: list[dict], frames: list, repeats: int) -> dict:
    """Each configuration's median seconds per example over `repeats` alternating runs."""
    runs = {(ALONE, False): (None, "one")}
    for wrapper in WRAPPERS:
        runs[(wrapper, False)] = (wrapper, "one")
        runs[(wrapper, True)] = (wrapper, "one, costs")
        runs[(wrapper, "many")] = (wrapper, "many")
    models = {key: trained(name, wrapper, train) for key, (wrapper, _) in runs.items()}
    times: dict = {key: [] for key in runs}
    n = len(xs)
    for repeat in range(repeats):
        order = list(runs) if repeat % 2 == 0 else list(runs)[::-1]
        for key in order:
            model, (_, how) = models[key], runs[key]
            seconds = (decide_many(model, frames) if how == "many"
                       else decide_one(model, xs, how == "one, costs"))
            times[key].append(seconds / n)
    return {key: (runs[key][1], statistics.median(values)) for key, values in times.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--models", nargs="+", default=["lr", "oza-lr"])
    parser.add_argument("--train", type=int, default=5000)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--frame", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rows = load_rows(args.dataset, args.data_dir, args.train + args.rows)
    train, xs = rows[: args.train], [x for x, _ in rows[args.train :]]
    frames = [pd.DataFrame(xs[i : i + args.frame]) for i in range(0, len(xs), args.frame)]
    print(f"{args.dataset}, {len(xs):,} rows decided after {len(train):,} learned, costs "
          f"{C_FP:g}:{C_FN:g}, median of {args.repeats} alternating runs; streamboost "
          f"{__version__}, river {river.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}")
    print(f"{'model':<8}{'configuration':<26}{'call':<12}{'us/ex':>8}{'vs model':>10}")
    for name in args.models:
        result = measure(name, train, xs, frames, args.repeats)
        alone = result[(ALONE, False)][1]
        for (config, _), (how, seconds) in result.items():
            how = how if how != "many" else f"many ({args.frame})"
            print(f"{name:<8}{config:<26}{how:<12}{seconds * 1e6:>8.2f}"
                  f"{alone / seconds:>10.2f}")


if __name__ == "__main__":
    main()
