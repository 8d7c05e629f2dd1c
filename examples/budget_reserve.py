"""A budget that waits for a change: `train_budget` with `budget_reserve` or `budget_timing`.

When training is expensive and may run on only a quarter of the minibatches (`train_budget=0.25`:
the others calibrate, which is cheap), *when* to train matters after a change that makes the
model wrong. `budget_reserve=0.05` holds 5 % of the budget back until a drift detector (River's
ADWIN, fed the model's prequential errors) flags a change, then trains on every minibatch the
saving pays for, and saves anew from there. On the bundled `phishing` stream (scaled once up front)
with its labels flipped at 60 % (`streamboost.datasets.LabelFlip`), this prints the prequential
Brier score, the share of minibatches that trained and the changes flagged, for `"both"` without a
budget, with the budget, and with the budget and the reserve, and discounted UCB with the budget
and the reserve. Where no change comes, a reserve costs a little (docs/controller.md, "A compute
budget"). The last row times the budget by the model's loss instead, with no detector
(`budget_timing="loss"`): a minibatch trains after one whose loss ranks among the highest
quarter of the 64 before it, so a change that makes the model wrong is trained on at once.

Run it (offline, a few seconds, same output every run):

    python examples/budget_reserve.py
"""

from __future__ import annotations

import typing

from river import preprocessing

from streamboost import BanditCalibratedClassifier, datasets, metrics
from streamboost.datasets.drift import LabelFlip

SETTINGS: dict[str, dict[str, typing.Any]] = {
    "both, no budget": {"policy": "both"},
    "both, budget": {"policy": "both", "train_budget": 0.25},
    "both, budget + reserve": {"policy": "both", "train_budget": 0.25, "budget_reserve": 0.05},
    "D-UCB, budget + reserve": {"policy": "discounted-ucb", "train_budget": 0.25,
                                "budget_reserve": 0.05},
    "both, budget timed by loss": {"policy": "both", "train_budget": 0.25,
                                   "budget_timing": "loss"},
}


def main() -> dict:
    n = datasets.REGISTRY["phishing"].n_rows
    rows = list(datasets.stream("phishing", drift=LabelFlip(position=int(0.6 * n))))
    scaler = preprocessing.StandardScaler()
    for x, _ in rows:
        scaler.learn_one(x)
    rows = [(scaler.transform_one(x), y) for x, y in rows]
    print(f"phishing, {n:,} examples, labels flipped from example {int(0.6 * n):,}, seed 0")
    print(f"{'setting':<28}{'Brier':>8}{'trained':>9}{'changes':>9}")
    results = {}
    for name, params in SETTINGS.items():
        model = BanditCalibratedClassifier(seed=0, **params)
        brier = metrics.BrierScore()
        for x, y in rows:
            brier.update(y, model.predict_proba_one(x))
            model.learn_one(x, y)
        trained = 1.0 - model.arm_counts["calibrate"] / model.n_batches
        changes = model.n_drifts if "budget_reserve" in params else None  # else no detector
        results[name] = {"brier": brier.get(), "trained": trained, "changes": changes}
        shown = "-" if changes is None else str(changes)
        print(f"{name:<28}{brier.get():>8.4f}{trained:>9.1%}{shown:>9}")
    return results


if __name__ == "__main__":
    main()
