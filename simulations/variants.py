"""Cost-sensitive boosting variants online against AdaMEC, raw and calibrated (thesis Ch. 3-7).

Each variant of `streamboost.variants` boosts 10 logistic regressions (Oza) with the training
costs c_FP = 1, c_FN = 5 and decides by the sign of its vote (p > 1/2), as the thesis runs
them; AdaMEC is the plain booster deciding at the cost threshold 1/6, raw and with the online
Platt calibrator beside it ("both"). Prequential realised cost per example (a false negative
costs 5, a false positive 1) and Brier score, mean of 3 seeds, on the first 10,000 rows of
each stream (scaled).

    python simulations/variants.py --data-dir ../shared/data

It prints the table of `simulations/variants.md`, which it rewrites (about 2 minutes).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

from river import linear_model, preprocessing

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets, metrics
from streamboost.variants import VARIANTS

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "phishing", "spambase")
C_FP, C_FN = 1.0, 5.0


def run(name: str, method: str, seed: int, data_dir: str | None) -> tuple[float, float]:
    """(realised cost per example, Brier score) of one method on one stream."""
    if method.startswith("adamec"):
        booster = OzaBoostClassifier(linear_model.LogisticRegression(), seed=seed)
        threshold = C_FP / (C_FP + C_FN)
    else:
        booster = OzaBoostClassifier(
            linear_model.LogisticRegression(), seed=seed, variant=method, c_fp=C_FP, c_fn=C_FN
        )
        threshold = 0.5  # the thesis's variants decide by the sign of their vote
    model = booster
    if method == "adamec, calibrated":
        model = CalibratedClassifier(booster)
    model = preprocessing.StandardScaler() | model
    brier = metrics.BrierScore()
    realised = 0.0
    rows = itertools.islice(datasets.stream(name, seed=seed, data_dir=data_dir), 10_000)
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
    args = parser.parse_args(argv)
    import joblib

    methods = ["adamec", "adamec, calibrated", *(v for v in VARIANTS if v != "adamec")]
    jobs = list(itertools.product(DATASETS, methods, range(args.seeds)))
    results = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(run)(name, method, seed, args.data_dir) for name, method, seed in jobs
    )
    table: dict = {}
    for (name, method, _), (cost, brier) in zip(jobs, results, strict=True):
        table.setdefault(method, {}).setdefault(name, []).append((cost, brier))
    lines = [
        f"Realised cost per example at c_FN / c_FP = 5 (Brier score), mean of {args.seeds} "
        "seeds, first 10,000 rows; lower is better.",
        "",
        "| method | " + " | ".join(DATASETS) + " |",
        "|---|" + "---:|" * len(DATASETS),
    ]
    for method in methods:
        cells = []
        for name in DATASETS:
            runs = table[method][name]
            cost = statistics.mean(c for c, _ in runs)
            brier = statistics.mean(b for _, b in runs)
            cells.append(f"{cost:.4f} ({brier:.4f})")
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    text = "\n".join(lines)
    command = "python simulations/variants.py " + " ".join(sys.argv[1:] if argv is None else argv)
    (HERE / "variants.md").write_text(
        f"# Cost-sensitive variants online\n\n`{command.strip()}`\n\n{text}\n"
    )
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
