"""The thesis's setting online: boost 100 weak learners, then calibrate their vote.

On the bundled `phishing` stream (11,055 sites, positive = phishing), `OzaBoostClassifier`
boosts 100 decision stumps or 100 univariate logistic regressions (`streamboost.weak`, each
looking at the one feature it has found best so far). The boosted vote is a distorted
probability (Nikolaou 2016, Chapter 7); `CalibratedClassifier` puts an online Platt
calibrator beside the same booster, or beside one scored from its members' own probabilities
(`score="soft"`, "calib., soft").
Printed, prequentially: Brier score, log-loss and the realised cost per site when a missed
phishing site costs 5 and a false alarm 1 (decision: phishing iff p > 1/6); one example at a
time, then by minibatch of 256 rows (`predict_proba_many` then `learn_many`: the fast way to
boost weak members, needs pandas).

Run it (offline, about 10 seconds, same output every run):

    python examples/boost_weak_learners.py
"""

from __future__ import annotations

from river import evaluate, metrics

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets
from streamboost import metrics as sb_metrics
from streamboost.weak import DecisionStump, UnivariateLogisticRegression

C_FP, C_FN = 1.0, 5.0
WEAK = {"100 stumps": DecisionStump, "100 univariate LR": UnivariateLogisticRegression}


def metrics_() -> metrics.base.Metrics:
    return sb_metrics.BrierScore() + metrics.LogLoss() + sb_metrics.ExpectedCost(C_FP, C_FN)


def score(model) -> tuple[float, float, float]:
    combo = metrics_()
    evaluate.progressive_val_score(datasets.stream("phishing"), model, combo)
    return combo[0].get(), combo[1].get(), combo[2].get()


def score_by_minibatch(model, size: int = 256) -> tuple[float, float, float]:
    import pandas as pd

    rows = list(datasets.stream("phishing"))
    combo = metrics_()
    for start in range(0, len(rows), size):
        X = pd.DataFrame([x for x, _ in rows[start : start + size]])
        y = pd.Series([label for _, label in rows[start : start + size]])
        for label, proba in zip(y, model.predict_proba_many(X).to_dict("records"), strict=True):
            combo.update(label, proba)  # scored before the model learns the minibatch
        model.learn_many(X, y)
    return combo[0].get(), combo[1].get(), combo[2].get()


def main() -> dict:
    results = {}
    print(f"phishing, prequential; cost per site with c_FP={C_FP:g}, c_FN={C_FN:g}")
    print(f"{'members':<20}{'':<14}{'Brier':>8}{'log-loss':>10}{'cost':>8}")
    for name, kind in WEAK.items():
        boosted = OzaBoostClassifier(kind(), n_models=100, seed=1)
        variants = {
            "raw": boosted,
            "calibrated": CalibratedClassifier(boosted.clone(), c_fp=C_FP, c_fn=C_FN),
            "calib., soft": CalibratedClassifier(boosted.clone({"score": "soft"}), c_fp=C_FP,
                                                 c_fn=C_FN),
        }
        variants["raw, B=256"] = boosted.clone()
        variants["calib., B=256"] = variants["calibrated"].clone()
        for variant, model in variants.items():
            scorer = score_by_minibatch if variant.endswith("B=256") else score
            results[name, variant] = scorer(model)
            brier, log_loss, cost = results[name, variant]
            print(f"{name:<20}{variant:<14}{brier:>8.4f}{log_loss:>10.4f}{cost:>8.4f}")
    return results


if __name__ == "__main__":
    main()
