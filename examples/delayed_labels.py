"""Labels that arrive late: calibrate the score you served, when the label comes.

A fraud label comes with the chargeback, long after the payment was decided. Here each
example of the bundled `phishing` and `weather` streams is predicted as it arrives and its
label comes `DELAY` examples later. Three ways with the same boosted logistic regressions
(after a scaler), each prequential:

* raw: the booster alone (River's `progressive_val_score(..., delay=DELAY)`);
* re-scored: `CalibratedClassifier`, whose calibrator learns the booster's score of the
  example when its label arrives (the same call, nothing else to do);
* served: the score the booster gave when the example was decided is kept with it (as a
  production system logs it: `score_one(x)`), and the calibrator learns that one when the
  label arrives (`learn_one(x, y, score=...)`).

Printed: Brier score and log-loss. With the label late, the calibrator is applied to scores of
a booster that lacks the last `DELAY` labels: the served scores are such scores, the re-scored
ones are not (docs/controller.md, "Labels that arrive late").

Run it (offline, about 5 seconds, same output every run):

    python examples/delayed_labels.py
"""

from __future__ import annotations

import collections

from river import evaluate, linear_model, metrics, preprocessing

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets
from streamboost.metrics import BrierScore

DELAY = 100


def booster() -> OzaBoostClassifier:
    return OzaBoostClassifier(linear_model.LogisticRegression(), n_models=10, seed=1)


def river_run(name: str, model) -> tuple[float, float]:
    """Brier score and log-loss of `model` with each label DELAY examples late."""
    brier, log_loss = BrierScore(), metrics.LogLoss()
    evaluate.progressive_val_score(datasets.stream(name), model, brier + log_loss, delay=DELAY)
    return brier.get(), log_loss.get()


def served_run(name: str) -> tuple[float, float]:
    """The same with the calibrator learning the score each example was served."""
    model = preprocessing.StandardScaler() | CalibratedClassifier(booster(), "ewa")
    # (x, y, served score): the log, joined with the label later
    pending: collections.deque[tuple[dict, bool, float]] = collections.deque()
    brier, log_loss = BrierScore(), metrics.LogLoss()
    for x, y in datasets.stream(name):
        if len(pending) == DELAY:  # the label of the example DELAY ago arrives
            old, label, served = pending.popleft()
            model.learn_one(old, label, score=served)  # the calibrator learns the served score
        p = model.predict_proba_one(x)  # the decision's probability
        brier.update(y, p)
        log_loss.update(y, p)
        pending.append((x, y, model.score_one(x)))  # the model's own score, kept with it
    return brier.get(), log_loss.get()


def main() -> dict:
    results = {}
    print(f"each label {DELAY} examples late; boosted logistic regressions, EWA calibrator")
    print(f"{'stream':<12}{'':<12}{'Brier':>8}{'log-loss':>10}")
    for name in ("phishing", "weather"):
        results[name, "raw"] = river_run(name, preprocessing.StandardScaler() | booster())
        results[name, "re-scored"] = river_run(
            name, preprocessing.StandardScaler() | CalibratedClassifier(booster(), "ewa"))
        results[name, "served"] = served_run(name)
        for way in ("raw", "re-scored", "served"):
            brier, log_loss = results[name, way]
            print(f"{name:<12}{way:<12}{brier:>8.4f}{log_loss:>10.4f}")
    return results


if __name__ == "__main__":
    main()
