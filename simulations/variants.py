"""Cost-sensitive boosting variants online against AdaMEC, raw and calibrated (thesis Ch. 3-7).

Each variant of `streamboost.variants` boosts 10 logistic regressions (Oza) with the training
costs c_FP = 1, c_FN = 5 and decides by the sign of its vote (p > 1/2), as the thesis runs
them; AdaMEC is the plain booster deciding at the cost threshold 1/6, raw and with the online
Platt calibrator beside it ("both"). Prequential realised cost per example (a false negative
costs 5, a false positive 1) and Brier score, mean of 3 seeds, on the first 10,000 rows of
each stream (scaled).

    python simulations/variants.py --data-dir ../shared/data

It prints the table of `simulations/variants.md`, which it rewrites (about a minute). The
thesis's own setting, its 18 UCI datasets balanced and shuffled, with 100 univariate logistic
regressions (about 10 minutes), goes to `simulations/variants_thesis.md`:

    python simulations/variants.py --data-dir ../shared/data --thesis
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

from reporting import named, table_head, table_row, write_report
from river import linear_model

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets, metrics
from streamboost.experiments.models import pipeline
from streamboost.experiments.statistics import compare
from streamboost.variants import VARIANTS
from streamboost.weak import UnivariateLogisticRegression

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "phishing", "spambase")
THESIS_DATASETS = tuple(n for n in datasets.REGISTRY if datasets.REGISTRY[n].thesis_instances)
C_FP, C_FN = 1.0, 5.0


def run(
    name: str, method: str, seed: int, data_dir: str | None, thesis: bool = False
) -> tuple[float, float]:
    """(realised cost per example, Brier score) of one method on one stream."""
    member = UnivariateLogisticRegression() if thesis else linear_model.LogisticRegression()
    n_models = 100 if thesis else 10
    if method.startswith("adamec"):
        booster = OzaBoostClassifier(member, n_models, seed=seed)
        threshold = C_FP / (C_FP + C_FN)
    else:
        booster = OzaBoostClassifier(
            member, n_models, seed=seed, variant=method, c_fp=C_FP, c_fn=C_FN
        )
        threshold = 0.5  # the thesis's variants decide by the sign of their vote
    model = booster
    if method == "adamec, calibrated":
        model = CalibratedClassifier(booster, named("platt", booster))
    model = pipeline(model, name)  # no scaler on one-hot indicators
    brier = metrics.BrierScore()
    realised = 0.0
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, balance=thesis, encode="onehot",
                             drop_ambiguous=thesis)  # fmt: skip
    rows = itertools.islice(stream, 10_000)
    n = 0
    for x, y in rows:
        p = model.predict_proba_one(x).get(True, 0.5)
        brier.update(y, p)
        decided = p > threshold
        realised += C_FN if (y and not decided) else (C_FP if (decided and not y) else 0.0)
        model.learn_one(x, y)
        n += 1
    return realised / n, brier.get()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--thesis", action="store_true",
                        help="the thesis's 18 datasets (balanced), 100 univariate members")
    args = parser.parse_args(argv)
    import joblib

    names = THESIS_DATASETS if args.thesis else DATASETS
    methods = ["adamec", "adamec, calibrated", *(v for v in VARIANTS if v != "adamec")]
    jobs = list(itertools.product(names, methods, range(args.seeds)))
    results = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(run)(name, method, seed, args.data_dir, args.thesis)
        for name, method, seed in jobs
    )
    table: dict = {}
    for (name, method, _), (cost, brier) in zip(jobs, results, strict=True):
        table.setdefault(name, {}).setdefault(method, []).append((cost, brier))
    setting = ("the thesis's 18 datasets balanced, 100 univariate logistic regressions"
               if args.thesis else "10 logistic regressions")
    lines = [
        f"Realised cost per example at c_FN / c_FP = 5 (Brier score), mean of {args.seeds} "
        f"seeds, first 10,000 rows, {setting}; lower is better.",
        "",
        *table_head("dataset", *methods),
    ]
    for name in names:
        cells = []
        for method in methods:
            runs = table[name][method]
            cost = statistics.mean(c for c, _ in runs)
            brier = statistics.mean(b for _, b in runs)
            cells.append(f"{cost:.4f} ({brier:.4f})")
        lines.append(table_row(name, *cells))
    rows = [
        {"dataset": name, "policy": method, "seed": seed, "cost_ratio": C_FN, "status": "ok",
         "cost": cost}
        for (name, method, seed), (cost, _) in zip(jobs, results, strict=True)
    ]
    try:
        lines += ["", "```", compare(rows, "cost").format(), "```"]
    except ValueError as error:
        lines += ["", f"No ranking: {error}"]
    out = HERE / ("variants_thesis.md" if args.thesis else "variants.md")
    write_report(out, "Cost-sensitive variants online", "variants.py", argv, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
