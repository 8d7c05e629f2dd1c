"""What each piece of a bandit's reward round costs, in instructions per call (callgrind).

A measured minibatch of the controller (`BanditCalibratedClassifier`) runs, besides its
examples: the policy's `select` and `update_round`, a copy of the calibrator, a frozen copy of
the model (`FrozenScorer`) that scores the round's sample, the two calibrators' probabilities
of the sample (`_predict_pair`), their mean losses (`reward.mean_losses`), the reward map
(`_rewards`) and the meter's record of the minibatch (`observe`). Each piece is called
`--calls` times on realistic state (discounted UCB after 50 rounds; Platt after 500 pairs;
Oza boosting of 10 logistic regressions after 2,900 rows of `--dataset`, scoring the next 32)
inside `callgrind.loop`, in its own process under valgrind, and its instructions per call are
printed: which piece is worth making cheaper (`controller_overhead.py --callgrind` counts
whole runs).

    python benchmarks/round_pieces.py --data-dir ../shared/data
    python benchmarks/round_pieces.py --data-dir ../shared/data --pieces copy pair
"""

from __future__ import annotations

import argparse
import random
import sys

import callgrind
import numpy as np
from controller_overhead import load_rows, make

from streamboost import __version__, bandits
from streamboost.calibration import OnlinePlattCalibrator
from streamboost.reward import PairedReward, mean_losses
from streamboost.scores import FrozenScorer

PIECES = ("select", "update_round", "copy", "pair", "mean_losses", "rewards", "observe",
          "frozen_copy", "frozen_scores")


def piece(name: str, dataset: str, data_dir: str | None):
    """A call of the piece `name` on its state, as a function of no arguments."""
    rng = random.Random(0)
    policy = bandits.DiscountedUCB(n_arms=3, seed=0)
    for _ in range(50):
        policy.update_round({0: 0.5, 1: 0.49, 2: 0.51})
    cal = OnlinePlattCalibrator()
    for _ in range(500):
        s = rng.random()
        cal.learn_one(s, rng.random() < s)
    after = cal.copy()
    for _ in range(32):
        s = rng.random()
        after.learn_one(s, rng.random() < s * s)
    xs = [{} for _ in range(32)]
    score_list = [rng.random() for _ in range(32)]
    positives = [rng.random() < 0.4 for _ in range(32)]
    scores = np.array(score_list)
    probabilities = np.array([scores, 1.0 - scores])  # two rows, as a round of two arms
    meter = PairedReward("log-likelihood", smoothing=0.05, sample=range(32), model_free=True)
    meter.begin(True, 1, ("train", "both"), (0, 1), model=None, calibrator=cal)
    meter.end((0.0, 1.0))  # the round measured on the next minibatch, which observe records
    meter.begin(True, None, ("train", "both"), (), model=None, calibrator=cal)

    def observe():
        meter._round.scores.clear()
        meter._round.positives.clear()
        meter.observe(xs, score_list, positives)

    def rewards():
        meter._rewards([0.0, 0.001, -0.002], (0.0, 1.0))

    if name in ("frozen_copy", "frozen_scores"):
        rows = load_rows(dataset, data_dir, 2_932)
        model = make("oza-lr", "model alone", {})
        for x, y in rows[:2_900]:
            model.learn_one(x, y)
        xs = [dict(x) for x, _ in rows[2_900:]]
        before, later = FrozenScorer(model, True), FrozenScorer(model, True)

        def frozen_scores():  # the round's two copies: the later one converts, lends its table
            later._table = (None, None)
            later.scores(xs)
            before.scores(xs, like=later)

        return {"frozen_copy": lambda: FrozenScorer(model, True),
                "frozen_scores": frozen_scores}[name]
    return {
        "nothing": lambda: None,
        "select": lambda: (setattr(policy, "_memo", None), policy.select()),
        "update_round": lambda: policy.update_round({0: 0.5, 1: 0.49, 2: 0.51}),
        "copy": cal.copy,
        "pair": lambda: cal._predict_pair(after, scores),
        "mean_losses": lambda: mean_losses("log-likelihood", probabilities, positives),
        "rewards": rewards,
        "observe": observe,
    }[name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--pieces", nargs="+", default=list(PIECES), choices=PIECES)
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--child", default=None, choices=(*PIECES, "nothing"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        callgrind.loop(piece(args.child, args.dataset, args.data_dir), [()] * args.calls)
        return
    if not callgrind.available():
        sys.exit("round_pieces.py counts with valgrind's callgrind: install valgrind")
    print(f"instructions per call, counted by callgrind ({args.calls:,} calls each, "
          f"{args.dataset}); streamboost {__version__}")
    argv = [__file__, "--calls", str(args.calls), "--dataset", args.dataset]
    argv += ["--data-dir", args.data_dir] if args.data_dir else []
    empty, _ = callgrind.count([*argv, "--child", "nothing"])  # the loop and a call of nothing
    for name in args.pieces:
        instructions, _ = callgrind.count([*argv, "--child", name])
        print(f"{name:<16}{(instructions - empty) / args.calls:>10,.0f}")


if __name__ == "__main__":
    main()
