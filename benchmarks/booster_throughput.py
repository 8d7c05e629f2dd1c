"""Throughput of OzaBoostClassifier against River's AdaBoostClassifier, same members, same run.

Each example is predicted (`predict_proba_one`) then learned (`learn_one`), as in a prequential
evaluation. The stream is River's Phishing (1,250 rows) replayed R times, materialised first so
that parsing is not timed. Each configuration runs `--repeats` times, alternating the two
libraries; the median examples per second and the ratio streamboost / River are printed.

    python benchmarks/booster_throughput.py            # R = 10, 3 repeats
    python benchmarks/booster_throughput.py --replays 2 --repeats 1   # quick look
"""

from __future__ import annotations

import argparse
import statistics
import time

from river import datasets, ensemble, linear_model, metrics, tree

from streamboost import OzaBoostClassifier

MEMBERS = {
    "HoeffdingTree": tree.HoeffdingTreeClassifier,
    "LogisticRegression": linear_model.LogisticRegression,
}


def run(model, stream) -> tuple[float, float]:
    """Examples per second and prequential log-loss of `model` on `stream`."""
    log_loss = metrics.LogLoss()
    start = time.perf_counter()
    for x, y in stream:
        log_loss.update(y, model.predict_proba_one(x))
        model.learn_one(x, y)
    return len(stream) / (time.perf_counter() - start), log_loss.get()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replays", type=int, default=10, help="passes over Phishing (default 10)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per model (default 3)")
    parser.add_argument("--n-models", type=int, default=10)
    args = parser.parse_args()

    stream = list(datasets.Phishing()) * args.replays
    print(f"Phishing x{args.replays} = {len(stream):,} examples, n_models={args.n_models}, "
          f"median of {args.repeats} runs")
    print(f"{'members':<20}{'river ex/s':>12}{'streamboost ex/s':>18}{'ratio':>8}"
          f"{'river logloss':>15}{'sb logloss':>12}")
    for name, member in MEMBERS.items():
        river_runs, ours_runs = [], []
        for _ in range(args.repeats):
            river_runs.append(run(ensemble.AdaBoostClassifier(
                member(), n_models=args.n_models, seed=42), stream))
            ours_runs.append(run(OzaBoostClassifier(
                member(), n_models=args.n_models, seed=42), stream))
        river_eps = statistics.median(r[0] for r in river_runs)
        ours_eps = statistics.median(r[0] for r in ours_runs)
        print(f"{name:<20}{river_eps:>12,.0f}{ours_eps:>18,.0f}{ours_eps / river_eps:>8.2f}"
              f"{river_runs[0][1]:>15.4f}{ours_runs[0][1]:>12.4f}")


if __name__ == "__main__":
    main()
