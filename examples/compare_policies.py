"""Compare policies: who learns each minibatch, the booster or its calibrator?

`BanditCalibratedClassifier` cuts the stream into minibatches of 32 examples; a policy decides
per minibatch whether it trains the booster ("train"), the calibrator ("calibrate") or both
("both"). On the bundled `phishing` stream (11,055 websites, positive = phishing) this runs
each policy test-then-train with the same seed and prints its prequential Brier score, its
realised cost at c_FN/c_FP = 5 and how many minibatches went to each arm (`arm_counts`; the
first 10, the warm-up, train whatever the policy, and calibrate too but under "never"):

- "never": the raw booster, never calibrated;
- "every-4": calibrate every 4th minibatch (a fixed schedule);
- "discounted-ucb": a bandit (discounted UCB) learning the allocation from the paired
  log-likelihood improvement of each arm on the next minibatch (counterfactual: a training
  minibatch scores all three arms); any name in `streamboost.bandits.POLICIES` works, e.g.
  "sliding-window-ucb";
- "both": every minibatch trains both (the default).

Run it (offline, under 10 seconds, same output every run):

    python examples/compare_policies.py
"""

from __future__ import annotations

from river import evaluate, preprocessing

from streamboost import BanditCalibratedClassifier, datasets, metrics

POLICIES = ("never", "every-4", "discounted-ucb", "both")
ARMS = ("train", "calibrate", "both")


def main() -> dict:
    print("phishing, 11,055 examples, minibatches of 32, seed 0")
    print(f"{'policy':<21}{'Brier':>8}{'cost @ 5:1':>11}" + "".join(f"{a:>10}" for a in ARMS))
    results = {}
    for policy in POLICIES:
        controller = BanditCalibratedClassifier(policy=policy, batch_size=32, arms=ARMS, seed=0)
        model = preprocessing.StandardScaler() | controller
        scores = metrics.BrierScore() + metrics.ExpectedCost(c_fp=1.0, c_fn=5.0)
        evaluate.progressive_val_score(datasets.stream("phishing"), model, scores)
        brier, cost = scores[0].get(), scores[1].get()
        counts = "".join(f"{controller.arm_counts[a]:>10}" for a in ARMS)
        print(f"{policy:<21}{brier:>8.4f}{cost:>11.4f}{counts}")
        results[policy] = {
            "brier": brier,
            "cost": cost,
            "arm_counts": dict(controller.arm_counts),
            "n_batches": controller.n_batches,
            "warmup": controller.warmup,
        }
    return results


if __name__ == "__main__":
    main()
