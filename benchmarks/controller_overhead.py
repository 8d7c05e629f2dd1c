"""What the controller costs on top of the raw booster, measured in the same run.

Each example is predicted (`predict_proba_one`) then learned (`learn_one`). The raw booster is
`OzaBoostClassifier(LogisticRegression(), n_models=10)`; each controller wraps the same booster
and differs only in its policy. Costs beyond the booster: scoring with the snapshot boosters of
the paired reward (one or two extra scores per example while the booster trains), the booster
snapshot at each training minibatch, the calibrator, the counterfactual rewards (a shadow
calibrator and four calibrated probabilities per example; compared with
`counterfactual=False`), and the policy.

    python benchmarks/controller_overhead.py              # Phishing x4, 3 repeats
"""

from __future__ import annotations

import argparse
import statistics
import time

from river import datasets, linear_model, preprocessing

from streamboost import BanditCalibratedClassifier, OzaBoostClassifier

CONTROLLERS = {
    "never": {"policy": "never"},
    "both": {"policy": "both"},
    "every-4": {"policy": "every-4"},
    "discounted-ucb": {"policy": "discounted-ucb"},
    "discounted-ucb, counterfactual=False": {"policy": "discounted-ucb", "counterfactual": False},
}


def booster() -> OzaBoostClassifier:
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=42)


def throughput(model, stream) -> float:
    start = time.perf_counter()
    for x, y in stream:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    return len(stream) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replays", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    # Scale once up front so every model sees the same inputs and no scaler is timed.
    scaler = preprocessing.StandardScaler()
    rows = list(datasets.Phishing())
    for x, _ in rows:
        scaler.learn_one(x)
    stream = [(scaler.transform_one(x), y) for x, y in rows] * args.replays

    makers = {"raw booster": booster} | {
        f"controller, {name}": (
            lambda params=params: BanditCalibratedClassifier(booster=booster(), seed=42, **params)
        )
        for name, params in CONTROLLERS.items()
    }
    runs = {name: [] for name in makers}
    for _ in range(args.repeats):  # interleaved, so load changes hit every model alike
        for name, make in makers.items():
            runs[name].append(throughput(make(), stream))
    base = statistics.median(runs["raw booster"])
    print(f"Phishing x{args.replays} = {len(stream):,} examples, median of {args.repeats} runs")
    print(f"{'model':<45}{'ex/s':>10}{'vs raw booster':>16}")
    for name, values in runs.items():
        eps = statistics.median(values)
        print(f"{name:<45}{eps:>10,.0f}{eps / base:>16.2f}")


if __name__ == "__main__":
    main()
