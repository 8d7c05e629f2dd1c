"""MOA's cost-sensitive online boosting as a peer: OnlineAdaC2 (Wang & Pineau 2016) beside ours.

Both sides boost 10 Hoeffding trees with a false negative costing 5 and a false positive 1,
prequentially on the first 10,000 rows of electricity, phishing and spambase, 3 seeds:

* `moa OnlineAdaC2`: MOA's `meta.imbalanced.OnlineAdaC2` through CapyMOA, base learner
  `trees.HoeffdingTree`, costs 1 and 0.2 (MOA caps them at 1), ADWIN disabled (`-d`); it
  decides by the class with the larger vote.
* `moa OnlineAdaC2 + ADWIN`: the same with its default drift detector.
* `adac2`: `OzaBoostClassifier(HoeffdingTreeClassifier(), variant="adac2", c_fn=5)`, deciding
  by the sign of its vote, as the thesis runs the variants.
* `adamec, calibrated`: the plain booster with the online Platt calibrator beside it
  ("both"), deciding at the cost threshold 1/6.

Realised cost per example (lower is better) and seconds per run. MOA's OnlineCSB2 is not run:
through CapyMOA it exits the Python process ("Can not access instrumentation environment":
it measures its own memory with MOA's SizeOf agent, which the JVM CapyMOA starts does not load),
and with the agent loaded it did not finish 3,000 examples in 5 minutes.

Needs the optional `capymoa` package and a Java runtime (`pip install capymoa`; not in CI).
From the repository root (about 5 minutes on 2 cores):

    python simulations/moa_peers.py --data-dir ../shared/data

writes ``simulations/moa_peers.md``.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

from reporting import named, table_head, table_row, write_report
from river import tree

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "phishing", "spambase")
C_FP, C_FN = 1.0, 5.0
ROWS = 10_000
OURS = ("adac2", "adamec, calibrated")
MOA = {"moa OnlineAdaC2": "-d", "moa OnlineAdaC2 + ADWIN": ""}


def cost(y: bool, decided: bool) -> float:
    """The realised cost of deciding `decided` on an example of class `y`."""
    if y and not decided:
        return C_FN
    return C_FP if decided and not y else 0.0


def rows(name: str, seed: int, data_dir) -> list[tuple[dict, bool]]:
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode="onehot")
    return list(itertools.islice(stream, ROWS))


def run_ours(name: str, method: str, seed: int, data_dir) -> tuple[float, float]:
    """(realised cost per example, seconds) of one of our boosters on one stream."""
    data = rows(name, seed, data_dir)
    if method == "adac2":
        model = OzaBoostClassifier(tree.HoeffdingTreeClassifier(), 10, seed=seed, variant="adac2",
                                   c_fp=C_FP, c_fn=C_FN)  # fmt: skip
        threshold = 0.5
    else:
        booster = OzaBoostClassifier(tree.HoeffdingTreeClassifier(), 10, seed=seed)
        model = CalibratedClassifier(booster, named("platt", booster))
        threshold = C_FP / (C_FP + C_FN)
    start, total = time.perf_counter(), 0.0
    for x, y in data:
        total += cost(y, model.predict_proba_one(x).get(True, 0.5) > threshold)
        model.learn_one(x, y)
    return total / len(data), time.perf_counter() - start


def run_moa(name: str, method: str, seed: int, data_dir) -> tuple[float, float]:
    """(realised cost per example, seconds) of MOA's OnlineAdaC2 on one stream."""
    import numpy as np
    from capymoa.base import MOAClassifier
    from capymoa.core import Instance, LabeledInstance
    from capymoa.stream import Schema
    from jpype import JClass

    data = rows(name, seed, data_dir)
    keys = list(dict.fromkeys(k for x, _ in data for k in x))  # every feature, in order
    schema = Schema.from_custom(features=[*keys, "class"], target="class",
                                categories={"class": ["0", "1"]}, name=name)  # fmt: skip
    learner = MOAClassifier(
        moa_learner=JClass("moa.classifiers.meta.imbalanced.OnlineAdaC2")(),
        schema=schema,
        CLI=f"-l trees.HoeffdingTree -s 10 -p 1.0 -n {C_FP / C_FN} {MOA[method]}",
        random_seed=seed,
    )
    start, total = time.perf_counter(), 0.0
    for x, y in data:
        values = np.array([x.get(k, 0.0) for k in keys], dtype=float)
        total += cost(y, learner.predict(Instance.from_array(schema, values)) == 1)
        learner.train(LabeledInstance.from_array(schema, values, int(y)))
    return total / len(data), time.perf_counter() - start


def report(results: dict, seeds: int) -> str:
    methods = [*MOA, *OURS]
    lines = [
        f"Realised cost per example at c_FN / c_FP = 5 (seconds per run), mean of {seeds} "
        f"seeds, first {ROWS:,} rows, 10 Hoeffding trees; lower is better.",
        "",
        *table_head("dataset", *methods),
    ]
    for name in DATASETS:
        cells = []
        for method in methods:
            runs = results[name, method]
            cells.append(f"{statistics.mean(c for c, _ in runs):.4f} "
                         f"({statistics.mean(s for _, s in runs):.0f} s)")  # fmt: skip
        lines.append(table_row(name, *cells))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        import capymoa  # noqa: F401
    except ImportError:
        print("moa_peers needs CapyMOA and a Java runtime: pip install capymoa", file=sys.stderr)
        return 1
    import joblib

    ours = list(itertools.product(DATASETS, OURS, range(args.seeds)))
    timed = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(run_ours)(name, method, seed, args.data_dir) for name, method, seed in ours
    )
    theirs = list(itertools.product(DATASETS, MOA, range(args.seeds)))
    timed += [run_moa(name, method, seed, args.data_dir) for name, method, seed in theirs]
    results: dict = {}
    for (name, method, _), outcome in zip(ours + theirs, timed, strict=True):
        results.setdefault((name, method), []).append(outcome)
    write_report(HERE / "moa_peers.md", "MOA's OnlineAdaC2 as a peer", "moa_peers.py", argv,
                 report(results, args.seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
