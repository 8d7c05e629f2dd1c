"""Frames or examples: what learning by minibatch (`learn_many`) does to quality and speed.

For the booster of 10 logistic regressions and River's `LogisticRegression`, each wrapped in
`BanditCalibratedClassifier` with the policies "never" (the raw model), "both" and discounted
UCB (three arms, every minibatch measured), on the 7 shared streams (the first 20,000 rows),
three ways to run test-then-train (seed s orders a dataset without a natural order and seeds
the booster and the policy): one example at a time (`predict_proba_one`, `learn_one`);
frames of 32 rows predicted at once (`predict_proba_many`) and then learned row by row
(`learn_one` on each row: what 0.8.9's `learn_many` did); and frames learned with `learn_many`
(0.8.10: every minibatch learned by the model's minibatch rule). Predicting a frame before any
of its rows is learned is the frames' protocol, whichever way they are learned; the second
and third columns differ only in the learning rule. Rows are standard-scaled once up front,
identically for every way (no scaler in the loop, none timed); an absent one-hot indicator is
a 0 in a frame. Reported: the mean prequential Brier score over the seeds, and the examples per
second of each way of running frames relative to one example at a time (same process, the
runs of a stream and seed back to back).

    python simulations/minibatches.py --data-dir ../shared/data --seeds 3

It writes `simulations/minibatches.md` (about 3 minutes on 1 core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import pandas as pd
from reporting import WARMUP_ARM, named, table_head, table_row, write_report
from river import preprocessing

from streamboost import BanditCalibratedClassifier, datasets
from streamboost.experiments.models import encoding, make_model
from streamboost.metrics import BrierScore

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("oza-lr", "lr")
POLICIES = ("never", "both", "discounted-ucb")
SIZE = 32


def rows_of(name: str, model: str, n: int, seed: int, data_dir: str | None) -> list[tuple]:
    """The first `n` rows of stream `name` (a dataset without a natural order shuffled with
    `seed`), encoded for `model` and scaled once (numeric)."""
    rows = list(datasets.stream(name, seed=seed, data_dir=data_dir, encode=encoding(model)))[:n]
    if datasets.REGISTRY[name].categorical:  # one-hot indicators: on a unit scale already
        return rows
    scaler = preprocessing.StandardScaler()
    for x, _ in rows:
        scaler.learn_one(x)
    return [(scaler.transform_one(x), y) for x, y in rows]


WAYS = ("examples", "frames, learn_one", "frames, learn_many")


def run(rows, frames, model: str, policy: str, seed: int, way: str) -> tuple[float, float]:
    """The prequential Brier score and the examples per second of one run."""
    base = make_model(model, 10, seed)
    wrapper = BanditCalibratedClassifier(model=base, calibrator=named("platt", base),
                                         policy=policy, batch_size=SIZE, seed=seed,
                                         warmup_arm=WARMUP_ARM)
    brier = BrierScore()
    start = time.perf_counter()
    if way == "examples":
        for x, y in rows:
            brier.update(y, wrapper.predict_proba_one(x))
            wrapper.learn_one(x, y)
        return brier.get(), len(rows) / (time.perf_counter() - start)
    kept = []
    for i, (X, y) in enumerate(frames):
        kept.append(wrapper.predict_proba_many(X)[True].to_numpy())
        if way == "frames, learn_many":
            wrapper.learn_many(X, y)
        else:
            for x, label in rows[i * SIZE : (i + 1) * SIZE]:
                wrapper.learn_one(x, label)
    speed = len(rows) / (time.perf_counter() - start)
    for (_, y), p in zip(frames, kept, strict=True):
        for label, q in zip(y, p.tolist(), strict=True):
            brier.update(label, {True: q, False: 1.0 - q})
    return brier.get(), speed


def grid(args) -> dict:
    results = {}
    for name in args.datasets:
        for model in MODELS:
            for seed in range(args.seeds):
                rows = rows_of(name, model, args.rows, seed, args.data_dir)
                frames = [(pd.DataFrame([x for x, _ in rows[i : i + SIZE]]).fillna(0.0),
                           pd.Series([y for _, y in rows[i : i + SIZE]]))
                          for i in range(0, len(rows), SIZE)]
                for policy in POLICIES:
                    for way in WAYS:
                        results[name, model, policy, seed, way] = run(
                            rows, frames, model, policy, seed, way)
            print(f"{name} {model} done", file=sys.stderr)
    return results


def report(results: dict, args) -> str:
    keys = sorted({k[:3] for k in results},
                  key=lambda k: (MODELS.index(k[1]), POLICIES.index(k[2]), k[0]))
    lines = [f"Mean over {args.seeds} seeds, the first {args.rows:,} rows, frames of {SIZE}: "
             "prequential Brier score of each way, and the speed of each way of running frames "
             "relative to one example at a time.", "",
             *table_head("model", "policy", "stream", "examples", "frames, learn_one",
                         "frames, learn_many", "speed, learn_one", "speed, learn_many", left=3)]
    summary = {}
    for name, model, policy in keys:
        runs = {way: [results[name, model, policy, s, way] for s in range(args.seeds)]
                for way in WAYS}
        brier = [statistics.mean(r[0] for r in runs[way]) for way in WAYS]
        speed = [statistics.mean(r[1] / o[1] for r, o in zip(runs[way], runs[WAYS[0]],
                                                              strict=True))
                 for way in WAYS[1:]]
        lines.append(table_row(model, policy, name, *(f"{b:.4f}" for b in brier),
                               *(f"{v:.2f}x" for v in speed)))
        summary.setdefault((model, policy), []).append((*brier, *speed))
    lines += ["", "Over the streams: the mean of each column; `worse` counts the streams where "
              "learning the frames with `learn_many` gave a higher Brier score than learning "
              "their rows one by one.", "",
              *table_head("model", "policy", "examples", "frames, learn_one",
                          "frames, learn_many", "worse", "speed, learn_one", "speed, learn_many",
                          left=2)]
    for (model, policy), cells in summary.items():
        means = [statistics.mean(c[i] for c in cells) for i in range(5)]
        worse = sum(c[2] > c[1] for c in cells)
        lines.append(table_row(model, policy, *(f"{m:.4f}" for m in means[:3]),
                               f"{worse} of {len(cells)}", *(f"{m:.2f}x" for m in means[3:])))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        choices=sorted(datasets.REGISTRY))
    parser.add_argument("--out", type=Path, default=HERE / "minibatches.md")
    args = parser.parse_args(argv)
    write_report(args.out, "Frames or examples: learning by minibatch", "minibatches.py", argv,
                 report(grid(args), args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
