"""How long a minibatch spent on training, or on calibrating, keeps paying: what a one-step
reward misses in the forced split.

The forced split (`drift.py`, `forced_split_bonus.py`) spends each minibatch on the model or on
its calibrator, and a bandit judges the choice by the next minibatch's loss (the counterfactual
reward of `streamboost.reward`). This experiment follows the choice further. At checkpoints of
a stream (stationary, or with a label flip or prior shift at 60 % as in `drift.py`) played with
a base schedule (`never`: train always; `every-4` and `every-2`: calibrate one minibatch in
four, in two), the state (scaler, Oza boosting of 10 logistic regressions, online Platt
calibrator) is forked twice: one fork trains on minibatch t, the other calibrates on it; both
then go on with the base schedule for `--horizon` minibatches, prequentially, and the gap
between their log-losses is recorded minibatch by minibatch (positive: training at t was worth
more). The one-step view is the gap on minibatch t + 1; the total is the gap summed over the
horizon. Reported per stream: the mean one-step gap, the mean totals over 8 and 64
minibatches, and how often the one-step gap has the sign of the 64-minibatch total (how often
the next minibatch picks the arm that the longer run favours). The forks draw the same random
numbers after t (the calibrating fork takes the training fork's generator state), and a control
measures the noise: a third fork trains on t like the second but draws one extra random
number, so its gaps are what a different random future alone makes (the booster's Poisson
draws).

    python simulations/persistence.py --data-dir ../shared/data --seeds 5

It writes `simulations/persistence.md` (about 9 minutes on 2 cores; `--drifts none` a third).
"""

from __future__ import annotations

import argparse
import copy
import itertools
import sys
from pathlib import Path

import drift  # the stream length of the forced-split tables, and the grid runner
import numpy as np
from river import preprocessing

from streamboost import datasets
from streamboost.calibration import OnlinePlattCalibrator
from streamboost.experiments.models import make_model
from streamboost.reward import calibrated, mean_losses

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
BASES = ("never", "every-4", "every-2")
BATCH = 32
WARMUP = 10  # minibatches that train whatever the base schedule (the controller's default)
EVERY = 20  # minibatches between checkpoints


class Learner:
    """The forced split's state: a scaler (numeric streams), the booster and its calibrator."""

    def __init__(self, name: str, seed: int):
        numeric = not datasets.REGISTRY[name].categorical
        self.scaler = preprocessing.StandardScaler() if numeric else None
        self.model = make_model("oza-lr", 10, seed)
        self.calibrator = OnlinePlattCalibrator()

    def play(self, rows: list, calibrate: bool) -> float:
        """One minibatch, prequentially: its mean log-loss, then what `calibrate` says learns."""
        ps, ys = [], []
        for x, y in rows:
            if self.scaler is not None:
                self.scaler.learn_one(x)
                x = self.scaler.transform_one(x)
            score = self.model.score_one(x)
            ps.append(calibrated(self.calibrator, score))  # the raw score until it has learned
            ys.append(bool(y))
            if calibrate:
                self.calibrator.learn_one(score, y)
            else:
                self.model.learn_one(x, y)
        return mean_losses("log-likelihood", np.array([ps]), ys)[0]


def calibrates(base: str, batch: int) -> bool:
    """Whether the base schedule calibrates on minibatch `batch`."""
    if base == "never" or batch < WARMUP:
        return False
    return (batch - WARMUP) % int(base.removeprefix("every-")) == 0


def run(name: str, kind: str, base: str, seed: int, data_dir: str | None, horizon: int,
        max_rows: int) -> dict[str, list[list[float]]]:
    """For each checkpoint of one stream (with the drift `kind` of `drift.py`), the gaps
    (calibrate-fork loss minus train-fork loss) on the `horizon` minibatches after the forked
    one (`"gaps"`), and the control's (a fork that trained too, one random draw apart:
    `"nulls"`)."""
    if base not in BASES:
        raise ValueError(f"base must be one of {BASES}, got {base!r}")
    length = min(max_rows, datasets.REGISTRY[name].n_rows)
    stream = datasets.stream(name, seed=seed, drift=drift.drift(kind, length),
                             data_dir=data_dir, encode="onehot")  # fmt: skip
    rows = list(itertools.islice(stream, length))
    batches = [rows[i:i + BATCH] for i in range(0, len(rows) - BATCH + 1, BATCH)]
    learner = Learner(name, seed)
    gaps, nulls = [], []
    for t, batch in enumerate(batches[: len(batches) - horizon - 1]):
        if t >= WARMUP and (t - WARMUP) % EVERY == 0:
            trained, calibrated = copy.deepcopy(learner), copy.deepcopy(learner)
            trained.play(batch, calibrate=False)
            calibrated.play(batch, calibrate=True)
            calibrated.model._rng.setstate(trained.model._rng.getstate())  # common draws
            control = copy.deepcopy(trained)
            control.model._rng.random()
            gap, null = [], []
            for k in range(t + 1, t + 1 + horizon):
                schedule = calibrates(base, k)
                loss = trained.play(batches[k], schedule)
                gap.append(calibrated.play(batches[k], schedule) - loss)
                null.append(control.play(batches[k], schedule) - loss)
            gaps.append(gap)
            nulls.append(null)
        learner.play(batch, calibrates(base, t))
    return {"gaps": gaps, "nulls": nulls}


def summary(gaps: list[list[float]]) -> dict:
    """Mean one-step gap, mean totals over 8 and all minibatches, the totals' standard
    deviation, and the share of checkpoints whose one-step gap has the sign of the total."""
    gaps = np.array(gaps)
    total = gaps.sum(axis=1)
    return {
        "one step": float(gaps[:, 0].mean()),
        "8 steps": float(gaps[:, :8].sum(axis=1).mean()),
        "total": float(total.mean()),
        "sd": float(total.std()),
        "agree": float((np.sign(gaps[:, 0]) == np.sign(total)).mean()),
        "checkpoints": len(gaps),
    }


def report(results: dict, horizon: int, seeds: int) -> str:
    """The table (checkpoints pooled over seeds) and what it says."""
    lines = [
        "# How long a minibatch's training or calibration keeps paying (forced split)",
        "",
        f"Command: `python simulations/persistence.py --data-dir ../shared/data --seeds {seeds}"
        f" --horizon {horizon}`. Gap = log-loss of the fork that calibrated on minibatch t minus "
        "that of the fork that trained on it, per minibatch after t (positive: training was "
        f"worth more); mean over checkpoints (one every {EVERY} minibatches after the "
        f"{WARMUP} of the warm-up), pooled over {seeds} seeds. `agree`: share of checkpoints "
        f"whose one-step gap has the sign of the {horizon}-minibatch total. `sd`: the totals' "
        "standard deviation over the checkpoints. `control`: the same for a fork that also "
        "trained on t, one random draw apart (the noise of a different random future).",
        "",
        f"| stream | drift | base | one step | 8 steps | {horizon} steps | sd | agree | "
        "control sd | control agree | checkpoints |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (name, kind, base), per_seed in results.items():
        s = summary([g for r in per_seed for g in r["gaps"]])
        c = summary([g for r in per_seed for g in r["nulls"]])
        lines.append(
            f"| {name} | {kind} | {base} | {s['one step']:+.4f} | {s['8 steps']:+.4f} | "
            f"{s['total']:+.4f} | {s['sd']:.4f} | {s['agree']:.2f} | {c['sd']:.4f} | "
            f"{c['agree']:.2f} | {s['checkpoints']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--bases", nargs="+", default=list(BASES), choices=BASES)
    parser.add_argument("--drifts", nargs="+", default=list(drift.CALIBRATOR_DRIFTS),
                        choices=drift.CALIBRATOR_DRIFTS)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--horizon", type=int, default=64)
    parser.add_argument("--max-rows", type=int, default=drift.MAX_ROWS)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--out", default=str(HERE / "persistence.md"))
    args = parser.parse_args(argv)
    results = drift.grid(run, args, args.drifts, args.bases, args.horizon, args.max_rows)
    text = report(results, args.horizon, args.seeds)
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
