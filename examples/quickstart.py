"""Quickstart: a calibrated online booster that decides with costs, on a stream.

Shows, on the bundled `phishing` stream (11,055 websites, positive = phishing):

1. the River loop by hand: `predict_proba_one` (calibrated P(phishing)), `predict_one` (the
   minimum-expected-cost label for c_FP = 1, c_FN = 5: positive iff p > 1/6), then `learn_one`;
2. the same model evaluated by `river.evaluate.progressive_val_score` with streamboost metrics.

Run it (offline, a few seconds, same output every run):

    python examples/quickstart.py
"""

from __future__ import annotations

from river import evaluate, preprocessing

from streamboost import BanditCalibratedClassifier, datasets, metrics

C_FP, C_FN = 1.0, 5.0  # a missed phishing site costs five times a false alarm


def make_model():
    # A pipeline, as in River: the scaler feeds the booster's logistic-regression members.
    return preprocessing.StandardScaler() | BanditCalibratedClassifier(
        c_fp=C_FP, c_fn=C_FN, seed=42
    )


def main() -> dict:
    model = make_model()
    cost = metrics.ExpectedCost(c_fp=C_FP, c_fn=C_FN)
    n_flagged = 0
    print(f"1. Test-then-train by hand (c_FP={C_FP:g}, c_FN={C_FN:g}, threshold 1/6)")
    for i, (x, y) in enumerate(datasets.stream("phishing")):
        p = model.predict_proba_one(x)[True]  # calibrated P(phishing | x)
        label = model.predict_one(x)  # positive iff p > c_FP / (c_FP + c_FN)
        n_flagged += label
        cost.update(y, p)
        if i % 2500 == 0:
            print(f"   example {i:>6,}: p={p:.3f} -> predict {label!s:<5} (truth {y})")
        model.learn_one(x, y)
    counts = ", ".join(f"{k.upper()}={v:,.0f}" for k, v in cost.confusion().items())
    print(f"   flagged {n_flagged:,} sites as phishing")
    print(f"   realised cost per example: {cost.get():.4f} ({counts})")

    # ExpectedCost thresholds the probabilities itself: in a River `metrics.Metrics`
    # combination a label metric would receive the argmax (threshold 0.5), not our decision.
    print("\n2. river.evaluate.progressive_val_score, a fresh model")
    combo = metrics.BrierScore() + metrics.ExpectedCost(c_fp=C_FP, c_fn=C_FN)
    evaluate.progressive_val_score(datasets.stream("phishing"), make_model(), combo)
    print("   " + str(combo).replace("\n", ", "))
    return {
        "brier": combo[0].get(),
        "cost": combo[1].get(),
        "loop_cost": cost.get(),
        "loop_confusion": cost.confusion(),
        "loop_flagged": n_flagged,
    }


if __name__ == "__main__":
    main()
