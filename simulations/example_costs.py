"""A cost per applicant on German credit: decided and measured example by example.

German credit (UCI Statlog, the registry's `credit`: its numeric file, 1,000 applicants, 300
bad, the positive class) comes with a cost matrix: granting credit to a bad applicant costs
5, refusing a good one 1. What a bad loan loses grows with the loan, so here the 5 is scaled
by the applicant's credit amount over the file's mean (column `a4`, the amount in hundreds of
DM): c_FN,i = 5 a4_i / mean(a4), c_FP = 1, the UCI matrix on average. Three decision rules
read the same prequential probabilities p_i = P(bad | x_i):

* per applicant: refuse iff p_i > c_FP / (c_FP + c_FN,i) (Elkan 2001; what
  `predict_many(X, c_fn=...)` decides, `decision.cost_thresholds`);
* the average costs: refuse iff p_i > 1/6, the UCI matrix's threshold;
* the argmax: refuse iff p_i > 1/2;

each charged every applicant's own costs (`metrics.ExpectedCost.update(y, p, c_fn=c_FN,i)`
for the first, which the script checks against the same sum by hand). Models (`--models`):
River's logistic regression (after a `StandardScaler`) and ARF, raw and calibrated online
(`CalibratedClassifier`, Platt or isotonic), learning the applicants one by one in a seeded
random order (`--seeds`). The realised cost per applicant, mean and standard error over seeds,
beside refusing everyone and granting everyone.

    python simulations/example_costs.py --data-dir ../shared/data --seeds 10

About a minute on 2 cores. Writes `simulations/example_costs.md`.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
from reporting import (
    mean_and_error,
    named,
    run_grid,
    seeds_parser,
    table_head,
    table_row,
    write_report,
)

from streamboost import CalibratedClassifier, datasets, metrics
from streamboost.decision import cost_threshold, cost_thresholds, positive_proba
from streamboost.experiments.models import make_model, pipeline

DATASET = "credit"
C_FP, C_FN = 1.0, 5.0  # the UCI cost matrix: refusing a good applicant, granting a bad one
MODELS = ("lr", "lr+platt", "lr+isotonic", "arf", "arf+platt", "arf+isotonic")
RULES = {  # name -> the threshold of each applicant, from its own c_FN
    "per applicant": lambda c_fn: cost_thresholds(C_FP, c_fn),
    "average costs (1/6)": lambda c_fn: np.full(len(c_fn), cost_threshold(C_FP, C_FN)),
    "argmax (1/2)": lambda c_fn: np.full(len(c_fn), 0.5),
}


def applicants(seed: int, data_dir: str | None, max_rows: int | None = None,
               passes: int = 1) -> list[tuple]:
    """The applicants in the seed's order (`passes` shuffles of them), with their own c_FN
    (the amount over the mean)."""
    rows = list(datasets.stream(DATASET, seed=seed, passes=passes, data_dir=data_dir))[:max_rows]
    mean = statistics.fmean(x["a4"] for x, _ in datasets.stream(DATASET, data_dir=data_dir))
    return [(x, y, C_FN * x["a4"] / mean) for x, y in rows]


def model_for(name: str, seed: int):
    """`name` of `MODELS`: the base model, alone or calibrated online by the named calibrator."""
    base, _, calibrator = name.partition("+")
    model = make_model(base, 10, seed)
    return pipeline(CalibratedClassifier(model, named(calibrator, model)) if calibrator else model,
                    DATASET)


def realised(thresholds: np.ndarray, p: np.ndarray, bad: np.ndarray, c_fn: np.ndarray) -> float:
    """Cost per applicant of refusing where p > the threshold: c_FP for each good applicant
    refused, the applicant's c_FN for each bad one granted."""
    refused = p > thresholds
    return float((C_FP * (refused & ~bad) + c_fn * (~refused & bad)).mean())


def run(name: str, seed: int, data_dir: str | None, max_rows: int | None = None) -> dict:
    """One prequential pass: the realised cost of each rule, and of refusing and granting all."""
    model, metric = model_for(name, seed), metrics.ExpectedCost(c_fp=C_FP, c_fn=C_FN)
    p, bad, c_fn = [], [], []
    for x, y, cost in applicants(seed, data_dir, max_rows):
        proba = model.predict_proba_one(x)
        metric.update(y, proba, c_fn=cost)
        p.append(positive_proba(proba))  # {} (nothing learned yet): 0, as the metric reads it
        bad.append(y)
        c_fn.append(cost)
        model.learn_one(x, y)
    p, bad, c_fn = np.array(p), np.array(bad), np.array(c_fn)
    costs = {rule: realised(thresholds(c_fn), p, bad, c_fn) for rule, thresholds in RULES.items()}
    if not np.isclose(costs["per applicant"], metric.get(), rtol=1e-12, atol=0.0):
        raise AssertionError(f"the metric's {metric.get()} != {costs['per applicant']} by hand")
    costs["refuse all"] = realised(np.full(len(p), -1.0), p, bad, c_fn)
    costs["grant all"] = realised(np.full(len(p), 1.0), p, bad, c_fn)
    return costs


def report(results: dict, models: list[str], seeds: int) -> str:
    """The realised costs, a row per model and a column per rule (mean ± standard error over
    seeds; the lowest of a row in bold), and the two references."""
    lines = [f"Realised cost per applicant (c_FP = {C_FP:g}, c_FN = {C_FN:g} x amount / mean "
             f"amount; mean ± standard error over {seeds} seeds; lower is better).", "",
             *table_head("model", *RULES)]
    for name in models:
        runs = results[(name,)]
        cells = {rule: mean_and_error([r[rule] for r in runs]) for rule in RULES}
        best = min(cells, key=lambda rule: cells[rule][0])
        lines.append(table_row(name, *(
            f"**{m:.4f}** ± {e:.4f}" if rule == best else f"{m:.4f} ± {e:.4f}"
            for rule, (m, e) in cells.items())))
    runs = results[(models[0],)]
    lines += ["", f"Refusing everyone: {runs[0]['refuse all']:.4f}; granting everyone: "
                  f"{runs[0]['grant all']:.4f} (the same applicants in every order).", ""]
    mean = {(name, rule): statistics.fmean(r[rule] for r in results[(name,)])
            for name in models for rule in RULES}
    change = [100.0 * (mean[name, "per applicant"] / mean[name, "average costs (1/6)"] - 1.0)
              for name in models]
    lines.append(f"- Each applicant at its own threshold against one threshold from the average "
                 f"costs: {min(change):+.1f} % to {max(change):+.1f} % of realised cost.")
    for name in models:
        base = name.partition("+")[0]
        if base != name and base in models:
            gain = 100.0 * (mean[name, "per applicant"] / mean[base, "per applicant"] - 1.0)
            lines.append(f"- {name} against {base} raw, each applicant at its own threshold: "
                         f"{gain:+.1f} %.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    out = Path(__file__).resolve().parent / "example_costs.md"
    parser = seeds_parser(__doc__.splitlines()[0], 10, out)
    parser.add_argument("--models", nargs="+", default=list(MODELS))
    args = parser.parse_args(argv)
    jobs = [(name, seed) for name in args.models for seed in range(args.seeds)]
    results = run_grid(run, jobs, args.data_dir, args.jobs)
    write_report(args.out, "A cost per applicant on German credit", "example_costs.py", argv,
                 report(results, args.models, args.seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
