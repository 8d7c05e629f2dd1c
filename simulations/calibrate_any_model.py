"""Calibrating the River model you have: raw vs calibrated vs a bandit, for five base models.

For each stream (the 7 of `slides_part2.py`, first 20,000 rows), seed and base model
(`lr`, `ht`, `arf`, `oza-lr`, `oza-ht`; see `streamboost.experiments.models`), evaluated
prequentially:

* one pass in which the model learns every example and each of the five calibrators (Platt,
  beta, isotonic, histogram, and EWA mixing those four) learns the model's prequential score
  before the model learns the example: the raw model and `CalibratedClassifier(model,
  calibrator)` for every calibrator at once (the model's training does not depend on the
  calibrator, so one pass serves all six;
  tests/test_calibrated.py shows the wrapper equals the controller's "both");
* one pass of `BanditCalibratedClassifier(model, policy="discounted-ucb")` (Platt calibrator,
  three arms, counterfactual rewards, every example of the next minibatch scored), measuring
  the reward of every minibatch for `lr` and `oza-lr` and, for the tree models, of each of the
  first 64 minibatches and then one in 32, and the 64 after each change ADWIN flags in the
  model's error (`REWARD_EVERY`, `REWARD_START`; since 0.8.16, before which one in 32 was
  measured from the start, with copies; the restart since 0.8.17): with copies, a snapshot of
  a grown tree costs hundreds of examples' learning, and measured every minibatch D-UCB ran at
  0.055x of `oza-ht` alone (electricity, 300 s a run); the trees now hold out
  (`rollback="auto"`). Its warm-up is the controller's default, which calibrates too since
  0.8.52 (0.8.53; this report's runs until then trained only in the warm-up).

Per variant: Brier score, log-loss, realised cost per example at c_FN:c_FP = 1:10, 1:1, 10:1
(the cheaper error costs 1), and throughput relative to the model alone (the model's own time
in the first pass; a calibrator's time is added to it). Every variant's time is its own calls
only, summed example by example, without the metrics' updates (until 0.8.40 the bandit's
included them, five metrics an example, which understated it most beside the fastest models).

    python simulations/calibrate_any_model.py --data-dir ../shared/data

About 20 minutes on 2 cores. Finished tasks are cached in `simulations/.cache/any_model/` (by
version); writes `simulations/calibrate_any_model/results.csv` and `report.md`.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import time
from pathlib import Path

from reporting import table_head, table_row
from river import metrics

from streamboost import BanditCalibratedClassifier, __version__, datasets
from streamboost.calibration import CALIBRATORS
from streamboost.experiments.models import encoding, make_model, pipeline
from streamboost.metrics import BrierScore, ExpectedCost
from streamboost.scores import calibrator_for, positive_score

HERE = Path(__file__).resolve().parent
OUT = HERE / "calibrate_any_model"
CACHE = HERE / ".cache" / "any_model"
DATASETS = ("electricity", "weather", "phishing", "spambase", "krvskp", "mushroom", "waveform")
MODELS = ("lr", "ht", "arf", "oza-lr", "oza-ht")
COSTS = {"1:10": (10.0, 1.0), "1:1": (1.0, 1.0), "10:1": (1.0, 10.0)}  # c_FN:c_FP -> (c_fp, c_fn)
REWARD_EVERY = {"lr": 1, "oza-lr": 1, "ht": 32, "oza-ht": 32, "arf": 32}
REWARD_START = 64  # measured minibatches before thinning to one in REWARD_EVERY
VARIANTS = ("raw", *(f"+{name}" for name in CALIBRATORS), "D-UCB")


class Scores:
    """Brier, log-loss and the three realised costs of one variant."""

    def __init__(self):
        self.brier, self.log_loss = BrierScore(), metrics.LogLoss()
        self.costs = {k: ExpectedCost(c_fp=c_fp, c_fn=c_fn) for k, (c_fp, c_fn) in COSTS.items()}
        self.seconds = 0.0

    def update(self, y: bool, p: float) -> None:
        self.brier.update(y, p)
        self.log_loss.update(y, {True: p, False: 1.0 - p})
        for metric in self.costs.values():
            metric.update(y, p)

    def row(self) -> dict:
        return {"brier": self.brier.get(), "log_loss": self.log_loss.get(), "seconds": self.seconds,
                **{f"cost {k}": m.get() for k, m in self.costs.items()}}


def task(dataset: str, model_name: str, seed: int, data_dir: str | None, max_rows: int) -> list:
    encode = encoding(model_name)  # the trees get categories as strings, which they split on
    rows = list(datasets.stream(dataset, seed=seed, encode=encode, data_dir=data_dir))[:max_rows]
    clock = time.perf_counter
    # Pass 1: the raw model, every calibrator beside it on the same prequential scores.
    model = pipeline(make_model(model_name, 10, seed), dataset)
    base = make_model(model_name, 10, seed)
    calibrators = {f"+{n}": calibrator_for(n, base) for n in CALIBRATORS}
    scores = {v: Scores() for v in ("raw", *calibrators)}
    for x, y in rows:
        t = clock()
        s = positive_score(model, x, True)  # the stream's labels are bools
        model.learn_one(x, y)
        scores["raw"].seconds += clock() - t
        scores["raw"].update(y, s)
        for name, cal in calibrators.items():
            t = clock()
            p = cal.predict_one(s) if cal.n_seen else s
            cal.learn_one(s, y)
            scores[name].seconds += clock() - t
            scores[name].update(y, p)
    for name in calibrators:
        scores[name].seconds += scores["raw"].seconds
    # Pass 2: the bandit.
    bandit = pipeline(BanditCalibratedClassifier(model=make_model(model_name, 10, seed),
                                               policy="discounted-ucb", seed=seed,
                                               reward_every=REWARD_EVERY[model_name],
                                               reward_start=REWARD_START), dataset)
    scores["D-UCB"] = bandit_scores = Scores()
    for x, y in rows:  # timed as the raw model is: its calls, not the metrics' updates
        t = clock()
        p = bandit.predict_proba_one(x)[True]
        bandit.learn_one(x, y)
        bandit_scores.seconds += clock() - t
        bandit_scores.update(y, p)
    controller = list(bandit.steps.values())[-1]
    arms = controller.arm_counts
    out = []
    for variant, sc in scores.items():
        row = {"dataset": dataset, "model": model_name, "seed": seed, "variant": variant,
               "n": len(rows), **sc.row(),
               "speed": scores["raw"].seconds / sc.seconds if sc.seconds else math.nan}
        if variant == "D-UCB":
            row.update({f"share {a}": n / sum(arms.values()) for a, n in arms.items()})
        out.append(row)
    return out


def cached(args) -> list:
    dataset, model_name, seed, data_dir, max_rows = args
    every = REWARD_EVERY[model_name]
    nominal = datasets.REGISTRY[dataset].categorical and encoding(model_name) is None
    start = f"-start{REWARD_START}-restart" if every > 1 else ""  # 0.8.17 restarts
    # the version in the name: a task cached by another release is run again
    path = CACHE / (f"{dataset}-{model_name}-{seed}-{max_rows}-every{every}{start}"
                    + ("-nominal" if nominal else "") + f"-{__version__}.json")
    if path.exists():
        return json.loads(path.read_text())
    rows = task(dataset, model_name, seed, data_dir, max_rows)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(rows))
    tmp.replace(path)
    return rows


def mean(rows, dataset, model, variant, field):
    values = [r[field] for r in rows if (r["dataset"], r["model"], r["variant"]) ==
              (dataset, model, variant)]
    return statistics.fmean(values) if values else math.nan


def report(rows: list[dict], seeds: int, max_rows: int) -> str:
    lines = [
        "# Calibrating the River model you have",
        "",
        f"Command: `python simulations/calibrate_any_model.py --data-dir ../shared/data` "
        f"({len(DATASETS)} streams, first {max_rows:,} rows, {seeds} seeds; prequential; "
        "means over seeds). `raw` is the model alone; `+platt`, `+beta`, `+isotonic`, "
        "`+histogram` and `+ewa` (`EWACalibrator`, the four mixed by expert advice) are "
        "`CalibratedClassifier(model, calibrator)` (every example calibrates "
        "on the prequential score, then trains); `D-UCB` is `BanditCalibratedClassifier(model, "
        "policy=\"discounted-ucb\")` with the Platt calibrator, measuring the reward of every "
        "minibatch for `lr` and `oza-lr`, and for `ht`, `arf` and `oza-ht` of each of the first "
        "64 minibatches, then one in 32, and of the 64 after each change ADWIN flags in the "
        "model's error (`reward_every=32`, `reward_start=64`, `reward_restart`; the rounds held "
        "out: `rollback=\"auto\"`; a grown tree's copy costs hundreds of examples' learning). "
        "Models: `lr` River's "
        "`LogisticRegression`, `ht` `HoeffdingTreeClassifier`, `arf` `ARFClassifier(10)`, "
        "`oza-lr` / `oza-ht` our `OzaBoostClassifier` of 10 of them. The categorical streams "
        "(krvskp, mushroom) reach the linear models one-hot encoded and the trees as strings "
        "(River's trees never split on sparse one-hot dicts, where an indicator is only ever "
        "1). Streams: "
        "electricity and weather in their order, the others shuffled by the seed (so `lr` and "
        "`ht` give the same result for every seed on the first two).",
        "",
    ]
    models = [m for m in MODELS if any(r["model"] == m for r in rows)]
    for metric, title in (("brier", "Brier score"), ("log_loss", "Log-loss")):
        lines += [f"## {title} (lower is better)", ""]
        lines += table_head("stream", "model", *VARIANTS, left=2)
        for d in DATASETS:
            for m in models:
                vals = [mean(rows, d, m, v, metric) for v in VARIANTS]
                best = min(v for v in vals if not math.isnan(v))
                cells = [("**%.4f**" if v == best else "%.4f") % v for v in vals]
                lines.append(table_row(d, m, *cells))
        lines.append("")
    # Claims.
    lines += ["## Does calibration beat the raw model?", ""]
    lines += ["Streams (of 7) on which each calibrated variant has a lower mean Brier score than "
              "the raw model:", "", *table_head("model", *VARIANTS[1:])]
    for m in models:
        wins = [sum(mean(rows, d, m, v, "brier") < mean(rows, d, m, "raw", "brier")
                    for d in DATASETS) for v in VARIANTS[1:]]
        lines.append(table_row(m, *(f"{w}/7" for w in wins)))
    lines += ["", "Best calibrated model against best raw River model (lr, ht, arf) per stream "
              "(Brier):", "", *table_head("stream", "best raw River model", "best calibrated",
                                          "verdict", left=4)]
    for d in DATASETS:
        raw = min((mean(rows, d, m, "raw", "brier"), m) for m in models if m in ("lr", "ht", "arf"))
        cal = min((mean(rows, d, m, v, "brier"), f"{m} {v}") for m in models for v in VARIANTS[1:])
        verdict = "calibrated wins" if cal[0] < raw[0] else "raw wins"
        lines.append(table_row(d, f"{raw[1]} {raw[0]:.4f}", f"{cal[1]} {cal[0]:.4f}", verdict))
    # Costs.
    lines += ["", "## Realised cost per example (cheaper error = 1), mean over the 7 streams", "",
              *table_head("model", "variant", *(f"c_FN:c_FP {k}" for k in COSTS), left=2)]
    for m in models:
        for v in VARIANTS:
            vals = [statistics.fmean(mean(rows, d, m, v, f"cost {k}") for d in DATASETS)
                    for k in COSTS]
            lines.append(table_row(m, v, *(f"{c:.4f}" for c in vals)))
    # Speed and the bandit's arms.
    lines += ["", "## Throughput relative to the model alone, and the bandit's arms", "",
              "Mean over streams and seeds of (model's time) / (variant's time), each the time "
              "of its own calls without the metrics' updates; measured in the same process, two "
              "tasks running at once on 2 cores. Each cell is one timing, so a bandit's ratio "
              "moves by up to 0.3 between runs and a mean of ratios runs high: "
              "`benchmarks/controller_overhead.py --models piped-oza-lr piped-lr` times the "
              "same pipelines in one process, repeated.",
              "",
              *table_head("model", *VARIANTS[1:], "D-UCB arms (train / calibrate / both)")]
    for m in models:
        speeds = [statistics.fmean(mean(rows, d, m, v, "speed") for d in DATASETS)
                  for v in VARIANTS[1:]]
        shares = [statistics.fmean(mean(rows, d, m, "D-UCB", f"share {a}") for d in DATASETS)
                  for a in ("train", "calibrate", "both")]
        lines.append(table_row(m, *(f"{s:.2f}x" for s in speeds),
                               " / ".join(f"{100 * s:.0f}%" for s in shares)))
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--max-rows", type=int, default=20_000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in DATASETS:  # fail before the grid, not in every task
        datasets.load(name, data_dir=args.data_dir)
    tasks = [(d, m, s, args.data_dir, args.max_rows) for m in reversed(args.models)
             for d in DATASETS for s in range(args.seeds)]
    from joblib import Parallel, delayed

    results = Parallel(n_jobs=args.n_jobs, verbose=5)(delayed(cached)(t) for t in tasks)
    rows = [r for rs in results for r in rs]
    with open(OUT / "results.csv", "w", newline="") as f:
        fields = list(dict.fromkeys(k for r in rows for k in r))
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    (OUT / "report.md").write_text(report(rows, args.seeds, args.max_rows))
    print((OUT / "report.md").read_text())


if __name__ == "__main__":
    main()
