"""Cost of each online calibrator per example (predict_one + learn_one), against River.

The reference is River's `linear_model.LogisticRegression` doing the same job on a one-feature
dict {"u": logit(score)} (`predict_proba_one` + `learn_one`), the cheapest River model that could
stand in for a calibrator. Both see the same pre-generated stream of (score, label) pairs drawn
from a known sigmoid; each configuration runs `--repeats` times, interleaved, and the median
microseconds per example and the ratio River / streamboost are printed, with the median time of
one `copy()` of the calibrator after the stream (the controller's reward copies it once or
twice a measured minibatch) and of `predict_many` on 256 scores, per score (frames, and the
reward's sample).

    python benchmarks/calibrator_overhead.py                 # 200,000 examples, 5 repeats
    python benchmarks/calibrator_overhead.py -n 20000 --repeats 1   # quick look
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np
from river import linear_model

from streamboost.calibration import OnlinePlattCalibrator, make


def make_stream(n: int, seed: int) -> list[tuple[float, bool]]:
    rng = random.Random(seed)
    stream = []
    for _ in range(n):
        s = rng.uniform(0.01, 0.99)
        p = 1.0 / (1.0 + math.exp(-(0.5 * math.log(s / (1.0 - s)) - 0.3)))
        stream.append((s, rng.random() < p))
    return stream


def time_calibrator(cal, stream) -> float:
    predict, learn = cal.predict_one, cal.learn_one
    start = time.perf_counter()
    for s, y in stream:
        predict(s)
        learn(s, y)
    return (time.perf_counter() - start) / len(stream) * 1e6


def time_many(cal, scores, calls: int = 500) -> float:
    """Microseconds per score of `predict_many` on an array of scores (a frame's, by minibatch;
    the controller's reward scores a round's sample this way)."""
    start = time.perf_counter()
    for _ in range(calls):
        cal.predict_many(scores)
    return (time.perf_counter() - start) / (calls * len(scores)) * 1e6


def time_copy(cal, copies: int = 2_000) -> float:
    """Microseconds per `copy()` of a calibrator that has learned a stream (the controller's
    reward copies its calibrator once or twice per measured minibatch)."""
    cal.predict_one(0.5)  # pooled blocks cached, as in a prequential loop
    start = time.perf_counter()
    for _ in range(copies):
        cal.copy()
    return (time.perf_counter() - start) / copies * 1e6


def time_river(model, stream) -> float:
    # The logit is computed in the loop too, as the calibrator computes it internally.
    start = time.perf_counter()
    for s, y in stream:
        x = {"u": math.log(s) - math.log1p(-s)}
        model.predict_proba_one(x)
        model.learn_one(x, y)
    return (time.perf_counter() - start) / len(stream) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000, help="examples (default 200,000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs each (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    stream = make_stream(args.n, args.seed)
    configs = {
        "OnlinePlattCalibrator log (ONS), no forgetting": lambda: OnlinePlattCalibrator(),
        "OnlinePlattCalibrator log, forgetting=0.999": lambda: OnlinePlattCalibrator(
            forgetting=0.999
        ),
        "OnlinePlattCalibrator squared (Gauss-Newton)": lambda: OnlinePlattCalibrator(
            objective="squared"
        ),
        "OnlineBetaCalibrator": lambda: make("beta"),
        "OnlineIsotonicCalibrator (50 bins)": lambda: make("isotonic"),
        "OnlineIsotonicCalibrator, forgetting=0.999": lambda: make("isotonic", forgetting=0.999),
        "HistogramCalibrator (10 bins)": lambda: make("histogram"),
        "EWACalibrator (the four above, averaged)": lambda: make("ewa"),
    }
    runs: dict[str, list[float]] = {name: [] for name in [*configs, "river"]}
    copies: dict[str, list[float]] = {name: [] for name in configs}
    many: dict[str, list[float]] = {name: [] for name in configs}
    frame = np.array([s for s, _ in stream[:256]])
    for _ in range(args.repeats):
        for name, build in configs.items():
            cal = build()
            runs[name].append(time_calibrator(cal, stream))
            copies[name].append(time_copy(cal))
            many[name].append(time_many(cal, frame))
        runs["river"].append(time_river(linear_model.LogisticRegression(), stream))

    river_us = statistics.median(runs["river"])
    print(f"{args.n:,} (score, label) pairs, median of {args.repeats} runs, predict + learn; "
          "then one copy(), and predict_many of 256 scores (us per score)")
    print(f"{'model':<50}{'us/example':>11}{'river / it':>12}{'copy us':>9}{'many us':>9}")
    for name in configs:
        us = statistics.median(runs[name])
        print(f"{name:<50}{us:>11.2f}{river_us / us:>12.2f}{statistics.median(copies[name]):>9.2f}"
              f"{statistics.median(many[name]):>9.3f}")
    print(f"{'river LogisticRegression({u: logit(s)})':<50}{river_us:>11.2f}{1.0:>12.2f}")


if __name__ == "__main__":
    main()
