"""Calibrate the River model you already have, in one line, and decide with costs.

On the first 8,000 days of the bundled `weather` stream (positive = rain), three River models a
user might already run: a logistic regression pipeline, a Hoeffding tree and an adaptive random
forest (of 3 trees, to keep the run short). Each is evaluated prequentially as it is and
wrapped in `CalibratedClassifier` with each of the four online calibrators, and with `"ewa"`,
which runs all four and averages them with weights that follow their log-loss as the best one
changes (so you need not choose). Printed: Brier score, log-loss and the realised cost per day
when a missed rainy day costs 5 and a false alarm 1 (decision: rain iff p > 1/6).

Run it (offline, well under a minute, same output every run):

    python examples/calibrate_your_model.py
"""

from __future__ import annotations

import itertools
import typing

from river import base, compose, evaluate, forest, linear_model, metrics, preprocessing, tree

from streamboost import CalibratedClassifier, datasets
from streamboost import metrics as sb_metrics

C_FP, C_FN = 1.0, 5.0
N_DAYS = 8_000
# a River classifier, or a pipeline ending in one: what CalibratedClassifier wraps
MODELS: dict[str, typing.Callable[[], base.Classifier | compose.Pipeline]] = {
    "logistic regression": lambda: preprocessing.StandardScaler()
    | linear_model.LogisticRegression(),
    "Hoeffding tree": lambda: tree.HoeffdingTreeClassifier(),
    "adaptive random forest": lambda: forest.ARFClassifier(n_models=3, seed=1),
}
CALIBRATORS = ("platt", "beta", "isotonic", "histogram", "ewa")


def score(model) -> tuple[float, float, float]:
    combo = (
        sb_metrics.BrierScore()
        + metrics.LogLoss()
        + sb_metrics.ExpectedCost(c_fp=C_FP, c_fn=C_FN)
    )
    stream = itertools.islice(datasets.stream("weather"), N_DAYS)
    evaluate.progressive_val_score(stream, model, combo)
    return combo[0].get(), combo[1].get(), combo[2].get()


def main() -> dict:
    results = {}
    print(f"weather, prequential; cost per day with c_FP={C_FP:g}, c_FN={C_FN:g}")
    print(f"{'model':<24}{'calibrator':<12}{'Brier':>8}{'log-loss':>10}{'cost':>8}")
    for name, make in MODELS.items():
        # The model as it is, then the same model wrapped: one line.
        variants = {"none": make()} | {
            c: CalibratedClassifier(make(), calibrator=c, c_fp=C_FP, c_fn=C_FN)
            for c in CALIBRATORS
        }
        for calibrator, model in variants.items():
            results[name, calibrator] = score(model)
            brier, log_loss, cost = results[name, calibrator]
            print(f"{name:<24}{calibrator:<12}{brier:>8.4f}{log_loss:>10.4f}{cost:>8.4f}")
    return results


if __name__ == "__main__":
    main()
