"""A cost per example: a missed fraud costs its amount, a false alarm the same review time.

A seeded stream of 20,000 card payments is made here (no file needed): each has an amount, an
hour and a merchant category, and is a fraud with a probability that grows at night, with
some merchants and with the amount. A calibrated River logistic regression learns it
test-then-train; before it learns each payment, three rules decide on the same probability p:

* its own costs: flag iff p > c_FP / (c_FP + amount) (Elkan 2001), `predict_one(x, c_fn=...)`;
* the average costs: one threshold from the mean amount, as a single cost matrix would give;
* the argmax: flag iff p > 1/2, as a cost-blind label metric assumes.

Each rule is charged what its mistakes cost (for its own costs, as `metrics.ExpectedCost`
charges an example's own c_FN per update). Deciding each payment at its own threshold costs
least: a large payment is flagged at a lower probability, a small one left alone.

Run it (offline, a few seconds, same output every run):

    python examples/cost_per_example.py
"""

from __future__ import annotations

import math
import random

from river import linear_model, preprocessing

from streamboost import CalibratedClassifier, metrics

REVIEW = 5.0  # what a false alarm costs: the review of a flagged payment


def payments(n: int = 20_000, seed: int = 3):
    """(x, is_fraud, amount): a seeded stream of card payments."""
    rng = random.Random(seed)
    for _ in range(n):
        amount = round(rng.lognormvariate(3.5, 1.2), 2)
        hour = rng.randrange(24)
        merchant = rng.choice(["grocery", "fuel", "online", "travel"])
        z = (-5.0 + 1.5 * (hour < 6) + {"online": 1.2, "travel": 0.8}.get(merchant, 0.0)
             + 0.4 * math.log(amount))
        fraud = rng.random() < 1.0 / (1.0 + math.exp(-z))
        x = {"log_amount": math.log(amount), "night": float(hour < 6),
             f"merchant_{merchant}": 1.0}
        yield x, fraud, amount


def main() -> dict:
    model = preprocessing.StandardScaler() | CalibratedClassifier(
        linear_model.LogisticRegression(), calibrator="isotonic", c_fp=REVIEW, c_fn=REVIEW)
    stream = list(payments())
    mean_amount = sum(amount for _, _, amount in stream) / len(stream)
    rules = {
        "own costs": lambda amount: REVIEW / (REVIEW + amount),
        "average costs": lambda amount: REVIEW / (REVIEW + mean_amount),
        "argmax (1/2)": lambda amount: 0.5,
    }
    cost = dict.fromkeys(rules, 0.0)
    flagged = dict.fromkeys(rules, 0)
    metric = metrics.ExpectedCost(c_fp=REVIEW, c_fn=REVIEW)  # charges each its own c_FN
    for x, fraud, amount in stream:
        p = model.predict_proba_one(x)[True]
        for rule, threshold in rules.items():
            flag = p > threshold(amount)
            flagged[rule] += flag
            cost[rule] += REVIEW if flag and not fraud else amount if fraud and not flag else 0.0
        metric.update(fraud, p, c_fn=amount)  # decides at c_FP / (c_FP + amount) itself
        assert model.predict_one(x, c_fn=amount) == (p > rules["own costs"](amount))
        model.learn_one(x, fraud)
    assert math.isclose(metric.get(), cost["own costs"] / len(stream), rel_tol=1e-9)

    frauds = sum(fraud for _, fraud, _ in stream)
    print(f"{len(stream):,} payments, {frauds:,} frauds; a false alarm costs {REVIEW:g}, a "
          f"missed fraud its amount (mean {mean_amount:.2f})")
    print(f"{'decision rule':<16}{'flagged':>9}{'cost per payment':>18}")
    results = {}
    for rule in rules:
        per_payment = cost[rule] / len(stream)
        print(f"{rule:<16}{flagged[rule]:>9,}{per_payment:>18.4f}")
        results[rule] = {"flagged": flagged[rule], "cost": per_payment}
    return results


if __name__ == "__main__":
    main()
