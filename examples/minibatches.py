"""Learn by minibatch: the controller fed frames of 32 rows (`learn_many`).

A stream that arrives in minibatches (a table per hour, a batch per request) is predicted
with `predict_proba_many` and then learned with `learn_many`, frame after frame (test, then
train, by minibatch). With a model that learns by minibatch (the default booster, River's
`LogisticRegression`) every controller minibatch a frame holds whole is learned by minibatch:
one choice of the policy, the calibrator learns the frame's scores in order, the model learns
the frame with its own minibatch rule, and a frame just predicted is not scored again. On the
bundled `phishing` stream (scaled once up front, as a fitted preprocessing step would) this
prints the prequential Brier score and the arms' minibatches of the raw booster ("never"),
"both" and discounted UCB (three arms, every minibatch measured), by frames and example by example
(`learn_one`: the same controllers, the booster learning each example). What it costs in
speed: docs/controller.md, "Minibatches".

Run it (offline, a few seconds, same output every run):

    python examples/minibatches.py
"""

from __future__ import annotations

import typing

import pandas as pd
from river import preprocessing

from streamboost import BanditCalibratedClassifier, datasets, metrics

POLICIES: dict[str, dict[str, typing.Any]] = {
    "never": {"policy": "never"},
    "both": {"policy": "both"},
    "discounted-ucb": {"policy": "discounted-ucb"},
}
SIZE = 32


def main() -> dict:
    rows = list(datasets.stream("phishing"))
    scaler = preprocessing.StandardScaler()
    for x, _ in rows:
        scaler.learn_one(x)
    rows = [(scaler.transform_one(x), y) for x, y in rows]
    frames = [
        (pd.DataFrame([x for x, _ in rows[i : i + SIZE]]),
         pd.Series([y for _, y in rows[i : i + SIZE]]))
        for i in range(0, len(rows), SIZE)
    ]
    print(f"phishing, {len(rows):,} examples, minibatches of {SIZE}, seed 0")
    print(f"{'policy':<16}{'learned':<10}{'Brier':>8}{'train':>8}{'calibrate':>11}{'both':>7}")
    results = {}
    for name, params in POLICIES.items():
        for learned in ("by frame", "one by one"):
            model = BanditCalibratedClassifier(batch_size=SIZE, seed=0, **params)
            brier = metrics.BrierScore()
            if learned == "by frame":
                for X, y in frames:
                    for label, p in zip(y, model.predict_proba_many(X)[True], strict=True):
                        brier.update(label, {True: p, False: 1.0 - p})
                    model.learn_many(X, y)
            else:
                for x, y in rows:
                    brier.update(y, model.predict_proba_one(x))
                    model.learn_one(x, y)
            counts = model.arm_counts
            print(f"{name:<16}{learned:<10}{brier.get():>8.4f}{counts.get('train', 0):>8}"
                  f"{counts.get('calibrate', 0):>11}{counts.get('both', 0):>7}")
            results[name, learned] = {"brier": brier.get(), "arm_counts": dict(counts),
                                      "n_batches": model.n_batches}
    return results


if __name__ == "__main__":
    main()
