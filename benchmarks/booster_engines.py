"""The booster's engines against River's AdaBoostClassifier, measured in one process.

* exact path: `OzaBoostClassifier` with array members (engine "auto") and with River members
  (engine "reference") against River's `AdaBoostClassifier`, 10 logistic regressions,
  prequential (predict_proba_one, then learn_one), a draw k learned as k calls (River's rule)
  or as one call of weight k (`draws="weight"`, MOA's), and scored from the members'
  probabilities (`score="soft"`); the runs alternate, medians are printed;
* minibatch path: `predict_proba_many` then `learn_many` per minibatch of B rows, with its
  prequential Brier score at that B (B = 1 is the exact path with draws as weights, other
  draws: compare its Brier with the "arrays, weight" row);
* weak members (the thesis's setting): 100 univariate logistic regressions or 100 decision
  stumps on the array engine, timed in the same alternation against River's AdaBoost with 10
  logistic regressions, also with every example of sample weight w = 1/3 (0.8.46: a weight
  that is not a whole number, after which each member's vote is chosen from its rounded
  scores), scored from their probabilities (`score="soft"`), and on the reference path over
  the first `--weak-reference-rows`;
  their Brier score raw and calibrated online (`CalibratedClassifier`, Platt), since a vote of
  100 weak members is a distorted probability (thesis Chapter 7); and by minibatch
  (`--weak-batches`), raw and calibrated ("+Platt": `CalibratedClassifier.learn_many`) and
  scored from their probabilities ("soft"), against the same River figure;
* scaling: the array engine's time per example and pickled size against n_models and the
  number of examples (electricity replayed), to show linear time and flat memory.

    python benchmarks/booster_engines.py --data-dir ../shared/data
    python benchmarks/booster_engines.py --data-dir ../shared/data --repeats 1 --lengths 10000
    python benchmarks/booster_engines.py --data-dir ../shared/data --minibatch-only \
        --batches 32 256 --weak-batches 32 256
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import platform
import statistics
import time

import numpy as np
import pandas as pd
import river
from river import ensemble, linear_model

import streamboost
from streamboost import CalibratedClassifier, OzaBoostClassifier
from streamboost.datasets import stream
from streamboost.weak import DecisionStump, UnivariateLogisticRegression

WEAK = {"100 univariate LR": UnivariateLogisticRegression, "100 stumps": DecisionStump}


def exact(model, rows, **kwargs) -> tuple[float, float]:
    """Examples per second and prequential Brier score, one example at a time (`kwargs`: the
    `learn_one` keywords, a sample weight)."""
    brier = 0.0
    start = time.perf_counter()
    for x, y in rows:
        brier += (model.predict_proba_one(x).get(True, 0.5) - y) ** 2
        model.learn_one(x, y, **kwargs)
    return len(rows) / (time.perf_counter() - start), brier / len(rows)


def minibatch(model, batches, n_rows: int) -> tuple[float, float]:
    """Examples per second and prequential Brier score, one minibatch at a time."""
    brier = 0.0
    start = time.perf_counter()
    for X, y in batches:
        p = model.predict_proba_many(X)[True].to_numpy()
        brier += float(((p - y.to_numpy()) ** 2).sum())
        model.learn_many(X, y)
    return n_rows / (time.perf_counter() - start), brier / n_rows


def booster(n_models: int = 10, engine: str = "auto", draws: str = "auto",
            score: str = "vote") -> OzaBoostClassifier:
    return OzaBoostClassifier(
        linear_model.LogisticRegression(), n_models=n_models, seed=42, engine=engine,
        draws=draws, score=score,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 16, 256, 1024])
    parser.add_argument("--weak-reference-rows", type=int, default=2_000)
    parser.add_argument("--weak-batches", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--lengths", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--minibatch-only", action="store_true",
                        help="only River's AdaBoost (one example at a time) and the "
                             "boosters by minibatch (--batches, --weak-batches): no scaling")
    args = parser.parse_args()
    print(f"streamboost {streamboost.__version__}, river {river.__version__}, numpy "
          f"{np.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"median of {args.repeats} alternating runs")

    for name in ("electricity", "phishing"):
        rows = list(itertools.islice(stream(name, data_dir=args.data_dir), args.rows))
        runs = {"river AdaBoost": [], "reference": [], "arrays": [], "reference, weight": [],
                "arrays, weight": [], "arrays, soft score": [], **{k: [] for k in WEAK},
                **{f"{k}, w=1/3": [] for k in WEAK}, **{f"{k}, soft score": [] for k in WEAK}}
        if args.minibatch_only:
            runs = {"river AdaBoost": []}
        for _ in range(args.repeats):
            runs["river AdaBoost"].append(exact(ensemble.AdaBoostClassifier(
                linear_model.LogisticRegression(), n_models=10, seed=42), rows))
            if args.minibatch_only:
                continue
            runs["reference"].append(exact(booster(engine="reference"), rows))
            runs["arrays"].append(exact(booster(), rows))
            runs["reference, weight"].append(exact(booster(engine="reference", draws="weight"),
                                                   rows))
            runs["arrays, weight"].append(exact(booster(draws="weight"), rows))
            runs["arrays, soft score"].append(exact(booster(score="soft"), rows))
            for label, kind in WEAK.items():
                runs[label].append(exact(OzaBoostClassifier(kind(), 100, seed=42), rows))
                runs[f"{label}, w=1/3"].append(exact(OzaBoostClassifier(kind(), 100, seed=42),
                                                     rows, w=1 / 3))
                runs[f"{label}, soft score"].append(exact(
                    OzaBoostClassifier(kind(), 100, seed=42, score="soft"), rows))
        river_eps = statistics.median(r[0] for r in runs["river AdaBoost"])
        print(f"\n{name}, {len(rows):,} rows, 10 logistic regressions, one example at a time"
              f"{' (River), then by minibatch' if args.minibatch_only else ''}")
        print(f"{'':<32}{'ex/s':>10}{'vs River':>10}{'Brier':>9}")
        for label, result in runs.items():
            eps = statistics.median(r[0] for r in result)
            print(f"{label:<32}{eps:>10,.0f}{eps / river_eps:>10.2f}{result[0][1]:>9.4f}")
        head = rows[: args.weak_reference_rows]
        one_by_one = {} if args.minibatch_only else WEAK  # the weak members' rows one at a time
        for label, kind in one_by_one.items():
            reference = exact(OzaBoostClassifier(kind(), 100, seed=42, engine="reference"), head)
            print(f"{label + ', reference':<32}{reference[0]:>10,.0f}"
                  f"{reference[0] / river_eps:>10.2f}   (first {len(head):,} rows)")
        for label, kind in one_by_one.items():
            calibrated = CalibratedClassifier(OzaBoostClassifier(kind(), 100, seed=42))
            print(f"{label + ', calibrated':<52}{exact(calibrated, rows)[1]:>9.4f}")
        X = pd.DataFrame([x for x, _ in rows])
        y = pd.Series([t for _, t in rows])
        sizes = [("minibatch", size, booster, "") for size in args.batches] + [
            (label, size, lambda k=kind, w=wrap, s=score: w(
                OzaBoostClassifier(k(), 100, seed=42, score=s)), suffix)
            for label, kind in WEAK.items()
            for suffix, wrap, score in (("", lambda m: m, "vote"),
                                        (" +Platt", CalibratedClassifier, "vote"),
                                        (" soft", lambda m: m, "soft"))
            for size in args.weak_batches
        ]
        for label, size, make, suffix in sizes:
            batches = [(X.iloc[s : s + size], y.iloc[s : s + size]) for s in range(0, len(X), size)]
            result = [minibatch(make(), batches, len(X)) for _ in range(args.repeats)]
            eps = statistics.median(r[0] for r in result)
            print(f"{f'{label} B={size}{suffix}':<32}{eps:>10,.0f}{eps / river_eps:>10.2f}"
                  f"{result[0][1]:>9.4f}")

    if args.minibatch_only:
        return
    print("\nscaling, electricity replayed, arrays, one example at a time")
    print(f"{'n_models':>9}{'examples':>11}{'us/example':>12}{'pickled KiB':>13}")
    base = list(itertools.islice(stream("electricity", data_dir=args.data_dir), 45_312))
    for n_models in (1, 10, 100):
        for length in args.lengths:
            if n_models == 100 and length > 100_000:
                continue  # 100 members x 10^6 examples: about 20 min on this machine
            model = booster(n_models=n_models)
            rows = itertools.islice(itertools.cycle(base), length)
            start = time.perf_counter()
            for x, t in rows:
                model.predict_proba_one(x)
                model.learn_one(x, t)
            us = (time.perf_counter() - start) / length * 1e6
            size = len(pickle.dumps(model)) / 1024
            print(f"{n_models:>9}{length:>11,}{us:>12.1f}{size:>13.1f}")


if __name__ == "__main__":
    main()
