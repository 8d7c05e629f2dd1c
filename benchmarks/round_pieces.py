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

`--in-run` counts the same work where it happens: discounted UCB (three arms, defaults) over
Oza-LR learns the first 3,000 rows of `--dataset`, then each listed method (`IN_RUN`) is counted
with what it calls, in its own process, over the next 2,000 rows, and printed per round (a
measured minibatch of 32): where a round's instructions go, bookkeeping and deallocation
included, which the isolated pieces leave out.

    python benchmarks/round_pieces.py --data-dir ../shared/data --in-run

`--bound` asks what the rounds' scoring could save at most: discounted UCB over Oza-LR on the
first 5,000 rows is counted whole as it is and with every round's improvements handed to it
ready-made (recorded in a native run first, so the policy takes the same decisions), against
the model alone. The second run is what a round scored in no instructions at all would keep.

    python benchmarks/round_pieces.py --data-dir ../shared/data --bound

`--timed MODEL` times the same places instead of counting them, for any model of
`controller_overhead.py` (a tree's rounds are held out, `rollback="auto"`): discounted UCB at
its defaults learns `--rows` rows of `--dataset` prequentially, with `time.perf_counter` around
each call of `PLACES`' methods and of the model's own (`predict_proba_one`, a booster's
`_score_one`, `learn_one`), printed in microseconds a call and an example, against the model
alone timed the same way (the timers' own cost is in every figure, alike for both). No valgrind.

    python benchmarks/round_pieces.py --data-dir ../shared/data --timed ht

`--timeit` times the isolated pieces instead of counting them (each the best of 7 runs of
`--calls` calls, no valgrind) and adds them up: one of each is what a measured minibatch of
discounted UCB with three arms, whose action trains, calls at least (a frozen copy and a
calibrator copy as it starts, the record, both copies' scores, the pair, the losses, the map,
the update, the next select). Their sum is the floor of a round with its pieces as they are
and no controller's bookkeeping around them, in microseconds a round and an example.

    python benchmarks/round_pieces.py --data-dir ../shared/data --timeit
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import timeit

import callgrind
import numpy as np
from controller_overhead import load_rows, make

from streamboost import BanditCalibratedClassifier, __version__, bandits
from streamboost.calibration import OnlinePlattCalibrator
from streamboost.cli import _positive_int
from streamboost.reward import PairedReward, mean_losses
from streamboost.scores import FrozenScorer

PIECES = ("select", "update_round", "copy", "pair", "mean_losses", "rewards", "observe",
          "frozen_copy", "frozen_scores")
# the controller's methods around a round, and what they call, by the name printed: `--timed`
# times them all; `--in-run` counts those an Oza-LR run calls (its rounds are copies, not held out)
PLACES = {
    "minibatch start": (BanditCalibratedClassifier, "_start_batch"),
    "  select": (bandits.base.Policy, "select"),
    "  meter.begin": (PairedReward, "begin"),
    "    frozen copy": (FrozenScorer, "__init__"),
    "minibatch close": (BanditCalibratedClassifier, "_close_round"),
    "  meter.observe": (PairedReward, "observe"),
    "  held examples scored": (BanditCalibratedClassifier, "_score_held_out"),
    "  held examples routed": (BanditCalibratedClassifier, "_route_held_out"),
    "  meter.end": (PairedReward, "end"),
    "    improvements": (PairedReward, "_improvements"),
    "      frozen scores": (FrozenScorer, "scores"),
    "    rewards": (PairedReward, "_rewards"),
    "  update_round": (bandits.base.Policy, "update_round"),
    "shadow (every example)": (PairedReward, "shadow"),
}
IN_RUN = {name: place for name, place in PLACES.items() if "held" not in name}
MODEL_CALLS = ("predict_proba_one", "_score_one", "learn_one")


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


def timed_pieces(dataset: str, data_dir: str | None, calls: int, batch_size: int = 32
                 ) -> str:
    """`--timeit`: each of `PIECES` timed on its state (the best of 7 runs of `calls` calls,
    less a call of nothing), and their sum, a round's pieces back to back, per round and per
    example of a minibatch of `batch_size`; a table in microseconds."""

    def best(call) -> float:
        return min(timeit.repeat(call, number=calls, repeat=7)) / calls * 1e6

    empty = best(piece("nothing", dataset, data_dir))
    lines = [f"each piece the best of 7 runs of {calls:,} calls ({dataset}), less a call of "
             f"nothing ({empty:.2f} us); streamboost {__version__}",
             f"{'':<16}{'us a call':>10}"]
    total = 0.0
    for name in PIECES:
        spent = max(best(piece(name, dataset, data_dir)) - empty, 0.0)
        total += spent
        lines.append(f"{name:<16}{spent:>10.2f}")
    lines.append(f"{'one of each':<16}{total:>10.2f}  ({total / batch_size:.3f} us an example "
                 f"of a minibatch of {batch_size})")
    return "\n".join(lines)


def in_run(name: str, dataset: str, data_dir: str | None, rows: int = 5_000,
           warm: int = 3_000) -> int:
    """Discounted UCB over Oza-LR on the first `rows` of `dataset`, the method `name` of
    `IN_RUN` run inside `callgrind.loop` after the first `warm` rows (counted: it and what it
    calls); the number of minibatches run meanwhile."""
    data = load_rows(dataset, data_dir, rows)
    model = make("oza-lr", "D-UCB, defaults", {})
    for x, y in data[:warm]:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    owner, method = IN_RUN[name]
    inner = owner.__dict__[method]

    def counted(*args, **kwargs):
        out = []
        callgrind.loop(lambda: out.append(inner(*args, **kwargs)), [()])
        return out[0]

    setattr(owner, method, counted)
    start = model.n_batches
    try:
        for x, y in data[warm:]:
            model.predict_proba_one(x)
            model.learn_one(x, y)
    finally:
        setattr(owner, method, inner)
    return model.n_batches - start


def _timer(function, totals: dict, name: str):
    """`function` with its calls' time and count added to `totals[name]`."""
    clock = time.perf_counter

    def timed_call(*args, **kwargs):
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            total = totals.setdefault(name, [0.0, 0])
            total[0] += clock() - start
            total[1] += 1

    return timed_call


def timed(model_name: str, dataset: str, data_dir: str | None, rows: int) -> str:
    """`--timed`: the model alone, then discounted UCB at its defaults over it, each learning
    `rows` rows prequentially with its model's own calls (`MODEL_CALLS`) and, for the
    controller, `PLACES`' methods timed (those it calls); a table in microseconds."""
    data = load_rows(dataset, data_dir, rows)
    lines = [f"{model_name}, {dataset}, first {len(data):,} rows, discounted UCB at its "
             f"defaults; time.perf_counter around each call; streamboost {__version__}",
             f"{'':<28}{'calls':>8}{'us a call':>11}{'us an example':>15}"]
    for config in ("model alone", "D-UCB, defaults"):
        wrapper = make(model_name, config, {})
        model = wrapper if config == "model alone" else wrapper.model_
        totals: dict = {}
        for name in MODEL_CALLS:  # on the instance: the controller calls it there
            if hasattr(model, name):
                setattr(model, name, _timer(getattr(model, name), totals, f"model.{name}"))
        patched = [(owner, method, owner.__dict__[method]) for owner, method in PLACES.values()]
        if config != "model alone":
            for (owner, method, inner), label in zip(patched, PLACES, strict=True):
                setattr(owner, method, _timer(inner, totals, label))
        try:
            start = time.perf_counter()
            for x, y in data:
                wrapper.predict_proba_one(x)
                wrapper.learn_one(x, y)
            elapsed = time.perf_counter() - start
        finally:
            for owner, method, inner in patched:
                setattr(owner, method, inner)
        lines.append(f"{config}: {elapsed / len(data) * 1e6:.2f} us an example in all")
        for label in (*PLACES, *(f"model.{name}" for name in MODEL_CALLS)):
            if label in totals:
                seconds, calls = totals[label]
                lines.append(f"{label:<28}{calls:>8,}{seconds / calls * 1e6:>11.2f}"
                             f"{seconds / len(data) * 1e6:>15.3f}")
    return "\n".join(lines)

def bound_run(mode: str, dataset: str, data_dir: str | None, recorded: str,
              rows: int = 5_000) -> dict:
    """Discounted UCB over Oza-LR (or, `mode` "model", the model alone) on the first `rows` of
    `dataset`, inside `callgrind.loop`. "record" writes every round's improvements to the
    file `recorded`; "replay" reads them back in place of scoring each round (the same
    decisions, the scoring free); "real" scores as usual. Its arm counts."""
    data = load_rows(dataset, data_dir, rows)
    model = make("oza-lr", "model alone" if mode == "model" else "D-UCB, defaults", {})
    improvements = PairedReward._improvements
    if mode == "replay":
        with open(recorded) as file:
            ready = iter(json.load(file))
        PairedReward._improvements = lambda self, r, held_scores: next(ready)
    elif mode == "record":
        seen: list = []
        PairedReward._improvements = lambda self, r, held_scores: seen.append(
            improvements(self, r, held_scores)) or seen[-1]

    def step(x, y):
        model.predict_proba_one(x)
        model.learn_one(x, y)

    try:
        callgrind.loop(step, data)
    finally:
        PairedReward._improvements = improvements
    if mode == "record":
        with open(recorded, "w") as file:
            json.dump(seen, file)  # floats round-trip exactly
    return dict(getattr(model, "arm_counts", {}))


def bound(dataset: str, data_dir: str | None) -> None:
    """`--bound`: the instructions of the model alone, of discounted UCB as it is and with its
    rounds' improvements ready-made, each in its own process under callgrind."""
    print(f"discounted UCB over Oza-LR, first 5,000 rows of {dataset}, instructions counted by "
          f"callgrind against the model alone's; streamboost {__version__}")
    argv = [__file__, "--dataset", dataset] + (["--data-dir", data_dir] if data_dir else [])
    with tempfile.NamedTemporaryFile(suffix=".json") as recorded:
        arms = bound_run("record", dataset, data_dir, recorded.name)
        counts = {}
        for mode in ("model", "real", "replay"):
            counts[mode], out = callgrind.count([*argv, "--recorded", recorded.name,
                                                 "--child-bound", mode])
            assert mode == "model" or json.loads(out) == arms, (mode, out, arms)
    print(f"arms {arms}")
    for mode, label in (("real", "as it is"), ("replay", "rounds scored for free")):
        print(f"{label:<24}{counts['model'] / counts[mode]:>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--pieces", nargs="+", default=list(PIECES), choices=PIECES)
    parser.add_argument("--calls", type=_positive_int, default=2_000)
    parser.add_argument("--in-run", action="store_true", help="count IN_RUN's methods in a run")
    parser.add_argument("--bound", action="store_true",
                        help="what rounds scored for free would keep of the model's speed")
    parser.add_argument("--timed", default=None, metavar="MODEL",
                        help="time a run's round pieces for MODEL (no valgrind)")
    parser.add_argument("--rows", type=_positive_int, default=20_000, help="rows of --timed's run")
    parser.add_argument("--timeit", action="store_true",
                        help="time the pieces and add them up (no valgrind)")
    parser.add_argument("--child-bound", default=None, choices=("model", "real", "replay"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--recorded", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--child", default=None, choices=(*PIECES, "nothing"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--child-in-run", default=None, choices=IN_RUN, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        callgrind.loop(piece(args.child, args.dataset, args.data_dir), [()] * args.calls)
        return
    if args.child_in_run:
        print(in_run(args.child_in_run, args.dataset, args.data_dir))
        return
    if args.child_bound:
        print(json.dumps(bound_run(args.child_bound, args.dataset, args.data_dir,
                                   args.recorded)))
        return
    if args.timed:
        print(timed(args.timed, args.dataset, args.data_dir, args.rows))
        return
    if args.timeit:
        print(timed_pieces(args.dataset, args.data_dir, args.calls))
        return
    if not callgrind.available():
        sys.exit("round_pieces.py counts with valgrind's callgrind: install valgrind")
    if args.bound:
        bound(args.dataset, args.data_dir)
        return
    if args.in_run:
        print(f"instructions per minibatch of discounted UCB over Oza-LR, counted by callgrind "
              f"in a run ({args.dataset}, rows 3,000-5,000); streamboost {__version__}")
        argv = [__file__, "--dataset", args.dataset]
        argv += ["--data-dir", args.data_dir] if args.data_dir else []
        for name in IN_RUN:
            instructions, out = callgrind.count([*argv, "--child-in-run", name])
            print(f"{name:<22}{instructions / int(out):>10,.0f}")
        return
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
