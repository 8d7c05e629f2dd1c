"""Drift injected into real streams: can a bandit beat every fixed schedule at train or calibrate?

The forced split of the slides (arms train and calibrate, no "both"): after a drift the best
share of calibrating minibatches changes, which a fixed every-N schedule cannot follow and a
bandit could. Oza boosting of 10 logistic regressions with the online Platt calibrator behind a
scaler, prequential Brier score on the first 20,000 rows of electricity, weather and phishing,
3 seeds, with one drift injected by `streamboost.datasets` at 60 % of each stream:

* `flip`: the labels are inverted from there on (`LabelFlip`, real concept drift);
* `prior`: the positive share moves from 1/2 to 1/10 over the next 10 % of the stream
  (`PriorShift`, the calibration changes, the concept does not).

Run from the repository root (about 90 seconds on 2 cores):

    python simulations/drift.py --data-dir ../shared/data

It prints the table of `simulations/drift.md`, which it rewrites.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

from river import preprocessing

from streamboost import BanditCalibratedClassifier, datasets, evaluate
from streamboost.datasets.drift import LabelFlip, PriorShift
from streamboost.experiments.models import make_model

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing")
POLICIES = ("never", "every-2", "every-4", "every-8", "discounted-ucb", "sliding-window-ucb",
            "glr-kl-ucb", "fewa")
SCHEDULES = ("never", "every-2", "every-4", "every-8")
MAX_ROWS = 20_000


def drift(kind: str, length: int):
    at = int(0.6 * length)
    if kind == "flip":
        return LabelFlip(position=at)
    return PriorShift([(at, 0.5), (at + length // 10, 0.1)])


def run(name: str, kind: str, policy: str, seed: int, data_dir: str | None) -> float:
    """The prequential Brier score of one policy on one drifted stream."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, drift=drift(kind, length), data_dir=data_dir)
    controller = BanditCalibratedClassifier(
        model=make_model("oza-lr", 10, seed), policy=policy, arms=("train", "calibrate"),
        seed=seed,
    )
    model = preprocessing.StandardScaler() | controller
    return evaluate.prequential(model, itertools.islice(stream, length)).brier


def report(scores: dict, seeds: int) -> str:
    lines = [
        f"Prequential Brier score, mean of {seeds} seeds (lower is better); arms train and "
        "calibrate; best fixed schedule and best bandit per stream in the last two columns.",
        "",
        "| stream, drift | " + " | ".join(POLICIES) + " | best schedule | best bandit |",
        "|---|" + "---:|" * (len(POLICIES) + 2),
    ]
    wins = 0
    for (name, kind), by_policy in scores.items():
        means = {p: statistics.mean(v) for p, v in by_policy.items()}
        schedule = min(SCHEDULES, key=means.get)
        bandit = min((p for p in POLICIES if p not in SCHEDULES), key=means.get)
        wins += means[bandit] < means[schedule]
        cells = " | ".join(f"{means[p]:.4f}" for p in POLICIES)
        lines.append(f"| {name}, {kind} | {cells} | {schedule} | {bandit} |")
    lines += ["", f"A bandit beats the best fixed schedule on {wins} of {len(scores)} "
              "(stream, drift) pairs."]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=HERE / "drift.md")
    args = parser.parse_args(argv)
    import joblib

    jobs = list(itertools.product(DATASETS, ("flip", "prior"), POLICIES, range(args.seeds)))
    results = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(run)(name, kind, policy, seed, args.data_dir)
        for name, kind, policy, seed in jobs
    )
    scores: dict = {}
    for (name, kind, policy, _), brier in zip(jobs, results, strict=True):
        scores.setdefault((name, kind), {}).setdefault(policy, []).append(brier)
    text = report(scores, args.seeds)
    command = "python simulations/drift.py " + " ".join(sys.argv[1:] if argv is None else argv)
    args.out.write_text(f"# Drift and the forced split\n\n`{command.strip()}`\n\n{text}\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
