"""Changing costs: one model serves two cost matrices, without retraining.

Training is cost-blind; costs only set the threshold c_FP / (c_FP + c_FN) that the calibrated
probability must exceed for a positive decision (thesis Eq. 2.8). One model learns the bundled
`phishing` stream test-then-train (11,055 websites, positive = phishing); before it learns each
example it serves it twice, with c_FN/c_FP = 1 (threshold 0.5) and with c_FN/c_FP = 10
(threshold 1/11: a missed phishing site costs ten false alarms). Each decision rule is then
charged under both cost matrices: the rule tuned to a matrix costs least under that matrix.
"Always phishing" is the trivial rule to beat when false negatives are expensive.

Costs can also be set once with `model.set_costs(c_fp, c_fn)`; here they are passed per call.

Run it (offline, a few seconds, same output every run):

    python examples/changing_costs.py
"""

from __future__ import annotations

from river import preprocessing

from streamboost import BanditCalibratedClassifier, datasets

RATIOS = (1.0, 10.0)  # c_FN / c_FP, with c_FP = 1


def main() -> dict:
    model = preprocessing.StandardScaler() | BanditCalibratedClassifier(seed=7)
    rules: dict[str, float | None] = {f"c_FN/c_FP={r:g} (p > {1 / (1 + r):.3f})": r
                                      for r in RATIOS}
    rules["always phishing"] = None
    counts = {rule: {"predicted": 0, "FP": 0, "FN": 0} for rule in rules}
    n = 0
    for x, y in datasets.stream("phishing"):
        n += 1
        for rule, ratio in rules.items():
            # Same model state, same probability, different costs: only the threshold moves.
            decision = True if ratio is None else model.predict_one(x, c_fp=1.0, c_fn=ratio)
            counts[rule]["predicted"] += decision
            counts[rule]["FP"] += decision and not y
            counts[rule]["FN"] += y and not decision
        model.learn_one(x, y)

    print(f"phishing, {n:,} examples, test-then-train; one model, decided at two costs")
    print("(cost = realised cost per example, c_FP = 1)")
    charged = "".join(f"{f'cost @ c_FN={r:g}':>16}" for r in RATIOS)
    print(f"{'decision rule':<26}{'predicted pos':>14}{'FP':>7}{'FN':>7}{charged}")
    results = {}
    for rule, c in counts.items():
        # Realised cost of this rule's decisions under each matrix (c_FP = 1, c_FN = s).
        costs = {s: (c["FP"] + s * c["FN"]) / n for s in RATIOS}
        cells = "".join(f"{costs[s]:>16.4f}" for s in RATIOS)
        print(f"{rule:<26}{c['predicted']:>14,}{c['FP']:>7,}{c['FN']:>7,}{cells}")
        results[rules[rule]] = {**c, "n": n, "cost": costs}
    return results


if __name__ == "__main__":
    main()
