"""Soak: a million drifting examples through the controller; memory stays flat, nothing non-finite.

The stream is synthetic and drifts: two Gaussian features whose class boundary rotates slowly,
with a prior shift and an abrupt concept switch every 250,000 examples, plus a NaN or infinite
value in one example of 1,000 (refused with a ValueError, as `streamboost.validation` promises:
the soak counts the refusals and carries on). The controller (discounted UCB, counterfactual
rewards, default model) predicts then learns each example. At 10k, 100k and 1M examples it
reports the process's resident memory, the pickled size of the model, the prequential Brier
score of the last 10,000 examples and whether any probability or model parameter is non-finite.

    python benchmarks/soak.py                 # 1,000,000 examples, about 3 minutes
    python benchmarks/soak.py --n 100000
"""

from __future__ import annotations

import argparse
import collections
import math
import pickle
import random
import resource
import time

from streamboost import BanditCalibratedClassifier


def stream(n: int, seed: int = 0):
    rng = random.Random(seed)
    for i in range(n):
        angle = 2 * math.pi * i / 400_000 + (math.pi if (i // 250_000) % 2 else 0.0)
        prior = 0.5 + 0.3 * math.sin(2 * math.pi * i / 300_000)
        y = rng.random() < prior
        centre = 1.0 if y else -1.0
        a, b = rng.gauss(centre, 1.0), rng.gauss(0.0, 1.0)
        x = {"u": a * math.cos(angle) - b * math.sin(angle),
             "v": a * math.sin(angle) + b * math.cos(angle)}
        if i % 1000 == 999:
            x["u"] = rng.choice([float("nan"), float("inf"), -float("inf")])
        yield x, y


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def finite_state(model) -> bool:
    members = model.model_.models
    weights = [w for m in members for w in m.weights.values()] + [m.intercept for m in members]
    cal = model.calibrator_
    return all(math.isfinite(v) for v in [*weights, cal.A, cal.B])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    args = parser.parse_args()
    model = BanditCalibratedClassifier(policy="discounted-ucb", seed=0)
    checkpoints = {10_000, 100_000, 1_000_000, args.n}
    refused = non_finite = 0
    window: collections.deque = collections.deque(maxlen=10_000)
    start = time.perf_counter()
    print(f"{'examples':>10}{'RSS MiB':>10}{'pickle KiB':>12}{'Brier (last 10k)':>18}"
          f"{'refused':>9}{'all finite':>12}{'seconds':>9}")
    for i, (x, y) in enumerate(stream(args.n), start=1):
        try:
            p = model.predict_proba_one(x)[True]
            model.learn_one(x, y)
        except ValueError:
            refused += 1
        else:
            non_finite += not math.isfinite(p)
            window.append((p - y) ** 2)
        if i in checkpoints:
            size = len(pickle.dumps(model)) / 1024
            finite = non_finite == 0 and finite_state(model)
            print(f"{i:>10,}{rss_mib():>10.1f}{size:>12.1f}{sum(window) / len(window):>18.4f}"
                  f"{refused:>9,}{finite!s:>12}{time.perf_counter() - start:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
