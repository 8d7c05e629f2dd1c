"""Drift injected into real streams: can a bandit beat every fixed schedule at train or calibrate?

The forced split of the slides (arms train and calibrate, no "both"): after a drift the best
share of calibrating minibatches changes, which a fixed every-N schedule cannot follow and a
bandit could. Oza boosting of 10 logistic regressions with the online Platt calibrator behind a
scaler, prequential Brier score on the first 20,000 rows of electricity, weather and phishing,
3 seeds, with one drift injected by `streamboost.datasets` at 60 % of each stream:

* `flip`: the labels are inverted from there on (`LabelFlip`, real concept drift);
* `prior`: the positive share moves from 1/2 to 1/10 over the next 10 % of the stream
  (`PriorShift`, the calibration changes, the concept does not).

A second table asks the same of the calibrator's forgetting rate (issue 14's "calibrator
choice as arms"): the booster learns every example and the online Platt calibrator beside it
learns its prequential score ("both", `CalibratedClassifier`) with forgetting 1, 0.999 or
0.99, against `EWACalibrator` over those three (every calibrator sees every score, so the
choice is made with expert advice rather than a bandit) and against `"ewa"` (the four
calibrators, no forgetting).

Run from the repository root (about 5 minutes on 2 cores):

    python simulations/drift.py --data-dir ../shared/data

It prints the table of `simulations/drift.md`, which it rewrites.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import typing
from pathlib import Path

from river import preprocessing

from streamboost import BanditCalibratedClassifier, CalibratedClassifier, datasets, evaluate
from streamboost.calibration import EWACalibrator, OnlinePlattCalibrator
from streamboost.datasets.drift import LabelFlip, PriorShift
from streamboost.experiments.models import make_model

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing")
POLICIES = ("never", "every-2", "every-4", "every-8", "discounted-ucb", "sliding-window-ucb",
            "glr-kl-ucb", "fewa", "rising-ucb")
SCHEDULES = ("never", "every-2", "every-4", "every-8")
MAX_ROWS = 20_000
FORGETTING = (1.0, 0.999, 0.99)
CALIBRATORS = (*(f"platt, forgetting {f:g}" for f in FORGETTING), "ewa over the three", "ewa")


def calibrator(label: str):
    """The calibrator called `label`: Platt as `calibration.resolve` builds it for the vote of
    10 members (gamma 1, scores clipped at 1/22), with a forgetting rate, or an EWA."""
    platts = [OnlinePlattCalibrator(gamma=1.0, eps=1 / 22, forgetting=f) for f in FORGETTING]
    if label == "ewa":
        return "ewa"
    if label == "ewa over the three":
        return EWACalibrator(calibrators=tuple(platts))
    return platts[CALIBRATORS.index(label)]


def drift(kind: str, length: int):
    at = int(0.6 * length)
    if kind == "flip":
        return LabelFlip(position=at)
    return PriorShift([(at, 0.5), (at + length // 10, 0.1)])


def run(name: str, kind: str, policy: str, seed: int, data_dir: str | None) -> float:
    """The prequential Brier score of one policy (or, named in CALIBRATORS, one calibrator
    beside the booster with "both") on one drifted stream."""
    length = min(MAX_ROWS, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, drift=drift(kind, length), data_dir=data_dir,
                             encode="onehot")  # categorical features become 0/1 columns
    if policy in CALIBRATORS:
        wrapper = CalibratedClassifier(make_model("oza-lr", 10, seed), calibrator(policy))
    else:
        wrapper = BanditCalibratedClassifier(
            model=make_model("oza-lr", 10, seed), policy=policy, arms=("train", "calibrate"),
            seed=seed,
        )
    model = preprocessing.StandardScaler() | wrapper
    return evaluate.prequential(model, itertools.islice(stream, length)).brier


def _head(caption: str, columns: typing.Sequence[str]) -> list[str]:
    """A table's caption and header, one row per (stream, drift)."""
    return [caption, "", "| stream, drift | " + " | ".join(columns) + " |",
            "|---|" + "---:|" * len(columns)]  # fmt: skip


def _means(by_label: dict) -> dict:
    return {label: statistics.mean(values) for label, values in by_label.items()}


def report(scores: dict, seeds: int, both: dict | None = None) -> str:
    """The forced split's table; with `both` ((stream, drift) -> the Brier scores of `both`),
    the best bandit is also held against the best fixed policy, schedules and `both`."""
    lines = _head(
        f"Prequential Brier score, mean of {seeds} seeds (lower is better); arms train and "
        "calibrate; best fixed schedule and best bandit per stream in the last two columns.",
        [*POLICIES, "best schedule", "best bandit"],
    )
    wins, fixed_wins, worst = 0, 0, -math.inf
    for (name, kind), by_policy in scores.items():
        means = _means(by_policy)
        schedule = min(SCHEDULES, key=means.get)
        bandit = min((p for p in POLICIES if p not in SCHEDULES), key=means.get)
        wins += means[bandit] < means[schedule]
        if both is not None:
            fixed = min(means[schedule], statistics.mean(both[name, kind]))
            fixed_wins += means[bandit] < fixed
            worst = max(worst, means[bandit] / fixed - 1.0)
        cells = " | ".join(f"{means[p]:.4f}" for p in POLICIES)
        lines.append(f"| {name}, {kind} | {cells} | {schedule} | {bandit} |")
    lines += ["", f"A bandit beats the best fixed schedule on {wins} of {len(scores)} "
              "(stream, drift) pairs."]
    if both is not None:
        lines[-1] += (
            f" Against the best fixed policy, the schedules and `both` (every minibatch trains "
            f"and calibrates; Platt without forgetting, second table), the best bandit wins on "
            f"{fixed_wins} of {len(scores)} pairs and is at worst {100 * worst:+.2f} % off it."
        )
    return "\n".join(lines)


def calibrator_report(scores: dict, seeds: int) -> str:
    fixed = CALIBRATORS[: len(FORGETTING)]
    lines = _head(
        f"The forgetting rate chosen online: prequential Brier score, mean of {seeds} seeds, "
        "`both` (the booster learns every example, the calibrator its prequential score).",
        [*CALIBRATORS, "best fixed", "EWA over the three vs best fixed"],
    )
    wins, worst = 0, 0.0
    for (name, kind), by_label in scores.items():
        means = _means(by_label)
        best = min(fixed, key=means.get)
        ratio = means["ewa over the three"] / means[best]
        wins += ratio < 1.0
        worst = max(worst, ratio)
        cells = " | ".join(f"{means[c]:.4f}" for c in CALIBRATORS)
        lines.append(f"| {name}, {kind} | {cells} | {best} | {100 * (ratio - 1):+.2f} % |")
    lines += ["", f"EWA over the three forgetting rates beats the best of them chosen in hindsight "
              f"on {wins} of {len(scores)} (stream, drift) pairs; at worst it is "
              f"{100 * (worst - 1):+.2f} % off it."]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        choices=sorted(datasets.REGISTRY), help="default: %(default)s")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=HERE / "drift.md")
    args = parser.parse_args(argv)
    import joblib

    jobs = list(itertools.product(args.datasets, ("flip", "prior"), POLICIES + CALIBRATORS,
                                  range(args.seeds)))  # fmt: skip
    results = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(run)(name, kind, policy, seed, args.data_dir)
        for name, kind, policy, seed in jobs
    )
    scores: dict = {}
    calibrators: dict = {}
    for (name, kind, policy, _), brier in zip(jobs, results, strict=True):
        table = calibrators if policy in CALIBRATORS else scores
        table.setdefault((name, kind), {}).setdefault(policy, []).append(brier)
    both = {key: by_label["platt, forgetting 1"] for key, by_label in calibrators.items()}
    text = report(scores, args.seeds, both) + "\n\n" + calibrator_report(calibrators, args.seeds)
    command = "python simulations/drift.py " + " ".join(sys.argv[1:] if argv is None else argv)
    args.out.write_text(f"# Drift and the forced split\n\n`{command.strip()}`\n\n{text}\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
