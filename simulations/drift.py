"""Drift injected into real streams: can a bandit beat every fixed schedule at train or calibrate?

The forced split of the slides (arms train and calibrate, no "both"): after a drift the best
share of calibrating minibatches changes, which a fixed every-N schedule cannot follow and a
bandit could. Oza boosting of 10 logistic regressions with the online Platt calibrator behind a
scaler, prequential Brier score on the first 20,000 rows of electricity, weather and phishing,
3 seeds, with one drift injected by `streamboost.datasets` at 60 % of each stream:

* `flip`: the labels are inverted from there on (`LabelFlip`, real concept drift);
* `prior`: the positive share moves from 1/2 to 1/10 over the next 10 % of the stream
  (`PriorShift`, the calibration changes, the concept does not).

A second table asks the same of the calibrator's forgetting rate (issue 14's "calibrator
choice as arms"): the booster learns every example and the online Platt calibrator beside it
learns its prequential score ("both", `CalibratedClassifier`) with forgetting 1, 0.999 or
0.99, against `EWACalibrator` over those three (every calibrator sees every score, so the
choice is made with expert advice rather than a bandit), the same EWA with its losses
discounted by 0.99 per example (`tracking`: its weights follow the rate that did best over the
last hundred or so examples), the same EWA with a fixed share of 0.001 (after each example
0.1 % of the weight is spread evenly: a mixture over sequences of rates, Herbster & Warmuth
1998) or with the decreasing share 1/(t + 1) after example t (`EWACalibrator`'s default), and
`"ewa"` (the four calibrators, no forgetting, its default share). With
`--calibrators-only` that table runs alone, with a stationary row (no drift) per stream too:

    python simulations/drift.py --data-dir ../shared/data --calibrators-only --seeds 5 \
        --datasets electricity weather phishing spambase krvskp mushroom waveform

`--calibrator-kinds` asks it of the calibrator itself: Platt, beta, isotonic and histogram
binning (by name, as the wrappers resolve them) against `"ewa"` over the four (with its default
decreasing share), the same EWA with the fixed share of 0.001 (the default of 0.8.4) and
without a share, Vovk's mixture (simulations/drift_calibrator_kinds.md).

Run from the repository root (about 5 minutes on 2 cores):

    python simulations/drift.py --data-dir ../shared/data

It prints the table of `simulations/drift.md`, which it rewrites.

With `--train-budget SHARE` it runs a third experiment instead (issue 14's compute budget and
drift together): at most SHARE of the minibatches after the warm-up may train (`train_budget`;
one the budget cannot pay for calibrates), arms train / calibrate / both, so a policy that
calibrates while the stream is stationary saves training for after a drift. `both` and `never`
spend the budget as soon as it allows; the table says how much of it the bandits spent.
`save-then-spend` is an oracle told where the drift is (not a policy a user can run): before
it, it trains on only 80 % of the budget's share, and after it on every minibatch the saved
budget pays for; it measures what timing the budget could win. `both + reserve` and
`discounted-ucb + reserve` are what a user can run instead: `budget_reserve=0.05` holds 5 % of
the budget back until River's ADWIN, fed the model's prequential 0/1 error, flags a change,
spends it, and saves anew from there. `both + loss timing` and `discounted-ucb + loss timing`
(`budget_timing="loss"`, 0.8.19) time the spending by the model's loss instead of a detector: a
minibatch the budget can pay for trains only after one whose mean Brier loss ranks in the top
budget's share of the 64 before it, or when more than 4 minibatches' worth lies unspent.

    python simulations/drift.py --data-dir ../shared/data --train-budget 0.25 \
        --out simulations/drift_budget.md

`--datasets` also takes River's generators `agrawal`, `hyperplane`, `rbf` and `sea` (20,000
rows, a new stream per seed, scaled): long streams held out from every choice made on the real
ones, where `--drifts` may add `switch` to `flip` and `prior` (`ConceptSwitch` to another
concept of the same generator at 60 %):

    python simulations/drift.py --datasets agrawal hyperplane rbf sea \
        --drifts flip prior switch --seeds 5 --train-budget 0.25 \
        --out simulations/drift_budget_synthetic.md
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import math
import statistics
import sys
import typing
from pathlib import Path

from reporting import (
    WARMUP_ARM,
    held_as_measured,
    mean_and_error,
    named,
    run_grid,
    table_head,
    table_row,
    write_report,
)
from river import preprocessing
from river.datasets import synth

from streamboost import (
    BanditCalibratedClassifier,
    CalibratedClassifier,
    bandits,
    datasets,
    evaluate,
)
from streamboost.calibration import EWACalibrator, OnlinePlattCalibrator, resolve
from streamboost.datasets.drift import ConceptSwitch, LabelFlip, PriorShift
from streamboost.experiments.models import encoding, make_model, pipeline

HERE = Path(__file__).resolve().parent
DATASETS = ("electricity", "weather", "phishing")
POLICIES = ("never", "every-2", "every-4", "every-8", "discounted-ucb", "sliding-window-ucb",
            "glr-kl-ucb", "fewa", "rising-ucb")
SCHEDULES = ("never", "every-2", "every-4", "every-8")
MAX_ROWS = 20_000
BUDGET_FIXED = ("both", "never")
BUDGET_POLICIES = (*BUDGET_FIXED, "discounted-ucb", "sliding-window-ucb", "glr-kl-ucb", "fewa")
RESERVE = 0.05  # budget_reserve: chosen on seed 0 of the 7 streams (0.2 tried first), see report
RESERVED = tuple(f"{p} + reserve" for p in ("both", "discounted-ucb"))
TIMED = tuple(f"{p} + loss timing" for p in ("both", "discounted-ucb"))  # budget_timing="loss"
# what each of those columns does, for the report's sentences
CHOSEN_ONLINE = {
    **dict.fromkeys(RESERVED, f"a reserve of {100 * RESERVE:g} % of the budget, `budget_reserve`, "
                              "spent once the model's error changes"),
    **dict.fromkeys(TIMED, "`budget_timing=\"loss\"`: a minibatch trains after one whose loss "
                           "ranks in the top budget's share of the 64 before it"),
}
ORACLE = "save-then-spend"
# River's generators, binary, a new stream per seed: long streams held out from every choice
# made on the 7 real ones (scaled, as their features are not; MAX_ROWS rows each)
GENERATORS = ("agrawal", "hyperplane", "rbf", "sea")
DRIFTS = ("flip", "prior", "switch")  # "switch": generators only
BATCH, WARMUP = 32, 10  # the controller's defaults


class SaveThenSpend(bandits.Policy):
    """An oracle told the minibatch of the drift: before it `"both"` (arm 2) on `save` times the
    budget's share of the minibatches, `"calibrate"` (arm 1) on the rest; from it on `"both"`,
    which the controller's budget turns into `"calibrate"` once the saved share is spent."""

    reward_range = None
    uses_rewards = False

    def __init__(self, n_arms: int = 3, budget: float = 0.25, drift_batch: int = 0,
                 save: float = 0.8, seed: int | None = None):
        self.budget, self.drift_batch, self.save = budget, drift_batch, save
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._selected = self._trained = 0

    def _select(self) -> int:
        self._selected += 1
        before = WARMUP + self._selected - 1 < self.drift_batch
        if before and self._trained + 1 > self.save * self.budget * self._selected:
            return 1
        self._trained += 1
        return 2

    def _update_round(self, observed) -> None:
        pass


FORGETTING = (1.0, 0.999, 0.99)
TRACKING = 0.99  # the tracking EWA's discount of its losses (chosen before the 7-stream run)
SHARE = 0.001  # the fixed-share EWA's share (chosen the same way, before its 7-stream run)
EWAS = ("ewa over the three", "ewa over the three, tracking", "ewa over the three, fixed share",
        "ewa over the three, decreasing share")
CALIBRATORS = (*(f"platt, forgetting {f:g}" for f in FORGETTING), *EWAS, "ewa")
CALIBRATOR_DRIFTS = ("none", "flip", "prior")  # the calibrator tables': stationary too
KINDS = ("platt", "beta", "isotonic", "histogram")  # the calibrators by name, as resolved
# over the four kinds: Vovk's mixture, with the fixed share SHARE, or by name (its default)
KIND_EWAS = ("ewa, no share", "ewa, fixed share", "ewa")
# the share of "ewa" by name: EWACalibrator's default, read rather than restated
DEFAULT_SHARE = inspect.signature(EWACalibrator).parameters["share"].default


def calibrator(label: str):
    """The calibrator called `label`: Platt as `calibration.resolve` builds it for the vote of
    10 members (gamma 1, scores clipped at 1/22), with a forgetting rate, or an EWA over the
    three rates: with every loss kept (Vovk's mixture), discounted by `TRACKING` (its weights
    follow the rate that did best over the last hundred or so examples), or with a fixed share
    `SHARE` or the decreasing one (Herbster & Warmuth's mixture over sequences of rates); or one
    of `KINDS` by name, or an EWA over the four kinds (`"ewa"` by name, with its default share,
    with `SHARE`, or without a share)."""
    if label in KINDS or label == "ewa":
        return label  # resolved by name for the booster's votes
    if label in KIND_EWAS:
        return EWACalibrator(calibrators=tuple(resolve(k, vote_members=10) for k in KINDS),
                             share=0.0 if label == KIND_EWAS[0] else SHARE)
    platts = [OnlinePlattCalibrator(gamma=1.0, eps=1 / 22, forgetting=f) for f in FORGETTING]
    if label in EWAS:
        return EWACalibrator(calibrators=tuple(platts),
                             forgetting=TRACKING if label == EWAS[1] else 1.0,
                             share={EWAS[2]: SHARE, EWAS[3]: "decreasing"}.get(label, 0.0))
    return platts[CALIBRATORS.index(label)]


def generator(name: str, seed: int, n: int, switched: bool = False):
    """`n` examples of River's generator `name` for `seed`, labels True for class 1; with
    `switched`, of the concept a "switch" moves it to: another of the same family, on examples
    of its own (Agrawal's function 2 instead of 0, a new hyperplane, new RBF centroids, SEA's
    threshold 9.5 instead of 8)."""
    seed += 1000 * switched
    if name == "agrawal":
        source = synth.Agrawal(classification_function=2 if switched else 0, perturbation=0.05,
                               seed=seed)  # fmt: skip
    elif name == "hyperplane":
        source = synth.Hyperplane(seed=seed, n_features=10, noise_percentage=0.05)
    elif name == "rbf":
        source = synth.RandomRBF(seed_model=seed, seed_sample=seed, n_classes=2, n_features=10)
    else:
        source = synth.SEA(variant=3 if switched else 0, noise=0.1, seed=seed)
    # bool labels: the positive is class 1 in both concepts (stream would take each minority)
    return ((x, y == 1) for x, y in source.take(n))


def drift(kind: str, length: int, name: str = "", seed: int = 0):
    """The drift `kind` ("flip", "prior", "switch": to `generator(name, seed, switched=True)`,
    or "none": no drift) at 60 % of the stream."""
    if kind == "none":
        return None
    at = int(0.6 * length)
    if kind == "flip":
        return LabelFlip(position=at)
    if kind == "switch":
        if name not in GENERATORS:
            raise ValueError(f"a switch needs one of River's generators {GENERATORS}, got {name!r}")
        return ConceptSwitch(to=generator(name, seed, length, switched=True), position=at)
    return PriorShift([(at, 0.5), (at + length // 10, 0.1)])


def run(name: str, kind: str, policy: str, seed: int, data_dir: str | None,
        budget: float | None = None, model: str = "oza-lr") -> tuple[float, float]:
    """The prequential Brier score of one policy (or, named in CALIBRATORS, one calibrator
    beside the booster with "both") on one drifted stream, and the share of its minibatches
    that trained the booster. With a `budget`, the policy has the three arms and at most that
    share of the minibatches after the warm-up may train. `model`: the base model's name
    (`streamboost.experiments.models`; Oza boosting of 10 logistic regressions)."""
    if name in GENERATORS:
        length, source = MAX_ROWS, generator(name, seed, MAX_ROWS)
    else:
        length, source = min(MAX_ROWS, datasets.REGISTRY[name].n_rows), name
    stream = datasets.stream(source, seed=seed, drift=drift(kind, length, name, seed),
                             data_dir=data_dir, encode=encoding(model))  # linear: 0/1 columns
    base = make_model(model, 10, seed)
    if policy in CALIBRATORS or policy in KIND_EWAS + KINDS:
        chosen = calibrator(policy)
        wrapper = CalibratedClassifier(
            base, named(chosen, base) if isinstance(chosen, str) else chosen)
    elif budget is not None:
        reserve = RESERVE if policy in RESERVED else 0.0
        timing = "loss" if policy in TIMED else "even"
        policy = policy.removesuffix(" + reserve").removesuffix(" + loss timing")
        if policy == ORACLE:
            policy = SaveThenSpend(budget=budget, drift_batch=int(0.6 * length) // BATCH)
        wrapper = BanditCalibratedClassifier(model=base, **held_as_measured(
            base, policy=policy, calibrator=named("platt", base), batch_size=BATCH,
            warmup=WARMUP, train_budget=budget, budget_reserve=reserve, budget_timing=timing,
            seed=seed, warmup_arm=WARMUP_ARM))
    else:
        wrapper = BanditCalibratedClassifier(model=base, **held_as_measured(
            base, policy=policy, calibrator=named("platt", base), arms=("train", "calibrate"),
            seed=seed))
    learner = (preprocessing.StandardScaler() | wrapper if name in GENERATORS
               else pipeline(wrapper, name))  # no scaler on one-hot indicators (mushroom, krvskp)
    brier = evaluate.prequential(learner, itertools.islice(stream, length)).brier
    counts = getattr(wrapper, "arm_counts", {"both": 1})
    return brier, 1.0 - counts.get("calibrate", 0) / sum(counts.values())


def _head(caption: str, columns: typing.Sequence[str]) -> list[str]:
    """A table's caption and header, one row per (stream, drift)."""
    return [caption, "", *table_head("stream, drift", *columns)]


def _means(by_label: dict) -> dict:
    return {label: statistics.mean(values) for label, values in by_label.items()}


def report(scores: dict, seeds: int, both: dict | None = None) -> str:
    """The forced split's table; with `both` ((stream, drift) -> the Brier scores of `both`),
    the best bandit is also held against the best fixed policy, schedules and `both`."""
    lines = _head(
        f"Prequential Brier score, mean of {seeds} seeds (lower is better); arms train and "
        "calibrate; best fixed schedule and best bandit per stream in the last two columns.",
        [*POLICIES, "best schedule", "best bandit"],
    )
    wins, fixed_wins, worst = 0, 0, -math.inf
    for (name, kind), by_policy in scores.items():
        means = _means(by_policy)
        schedule = min(SCHEDULES, key=means.get)
        bandit = min((p for p in POLICIES if p not in SCHEDULES), key=means.get)
        wins += means[bandit] < means[schedule]
        if both is not None:
            fixed = min(means[schedule], statistics.mean(both[name, kind]))
            fixed_wins += means[bandit] < fixed
            worst = max(worst, means[bandit] / fixed - 1.0)
        lines.append(table_row(f"{name}, {kind}", *(f"{means[p]:.4f}" for p in POLICIES),
                               schedule, bandit))
    lines += ["", f"A bandit beats the best fixed schedule on {wins} of {len(scores)} "
              "(stream, drift) pairs."]
    if both is not None:
        lines[-1] += (
            f" Against the best fixed policy, the schedules and `both` (every minibatch trains "
            f"and calibrates; Platt without forgetting, second table), the best bandit wins on "
            f"{fixed_wins} of {len(scores)} pairs and is at worst {100 * worst:+.2f} % off it."
        )
    return "\n".join(lines)


def calibrator_report(scores: dict, seeds: int,
                      fixed: typing.Sequence[str] = CALIBRATORS[: len(FORGETTING)],
                      mixtures: typing.Sequence[str] = EWAS) -> str:
    """A calibrator table: each of the `mixtures` against the best of the `fixed` calibrators
    chosen in hindsight, per (stream, drift): the forgetting rates by default."""
    labels = [*fixed, *(c for c in next(iter(scores.values())) if c not in fixed)]
    rates = tuple(fixed) == CALIBRATORS[: len(FORGETTING)]
    what = ("the three rates", "forgetting rate") if rates else (f"the {len(fixed)} calibrators",
                                                                  "calibrator")
    how = (f"`tracking` discounts the EWA's losses by {TRACKING:g} per example; `fixed share` "
           f"shares {SHARE:g} of the weight out evenly after each example, `decreasing share` "
           "1/(t + 1) after example t." if rates else
           "`ewa, no share` weights the calibrators by their log-loss (Vovk's mixture); `ewa, "
           f"fixed share` also shares {SHARE:g} of the weight out evenly after each example, "
           f"`ewa` (by name) its default share, {DEFAULT_SHARE!r}: 1/(t + 1) after example t.")
    lines = _head(
        f"The {what[1]} chosen online: prequential Brier score, mean of {seeds} seeds, "
        "`both` (the booster learns every example, the calibrator its prequential score); "
        + how,
        [*labels, "best fixed", *(f"{e} vs best fixed" for e in mixtures)],
    )
    wins, worst = dict.fromkeys(mixtures, 0), dict.fromkeys(mixtures, 0.0)
    for (name, kind), by_label in scores.items():
        means = _means(by_label)
        best = min(fixed, key=means.get)
        gaps = []
        for ewa in mixtures:
            ratio = means[ewa] / means[best]
            wins[ewa] += ratio < 1.0
            worst[ewa] = max(worst[ewa], ratio)
            gaps.append(f"{100 * (ratio - 1):+.2f} %")
        lines.append(table_row(f"{name}, {kind}", *(f"{means[c]:.4f}" for c in labels), best,
                               *gaps))
    lines.append("")
    for ewa in mixtures:
        lines.append(f"`{ewa}` beats the best of {what[0]} chosen in hindsight on "
                     f"{wins[ewa]} of {len(scores)} (stream, drift) pairs; at worst it is "
                     f"{100 * (worst[ewa] - 1):+.2f} % off it.")
    return "\n".join(lines)


def budget_report(scores: dict, shares: dict, seeds: int, budget: float) -> str:
    """The budget's table: every policy's Brier score, the best fixed policy (`both`,
    `never`) against the best bandit, and the share of minibatches the bandits trained."""
    lines = _head(
        f"Prequential Brier score, mean of {seeds} seeds (lower is better); at most "
        f"{100 * budget:g} % of the minibatches after the warm-up train; arms train, calibrate "
        "and both.",
        [*BUDGET_POLICIES, *CHOSEN_ONLINE, ORACLE, "best bandit vs best fixed",
         *(f"{p} vs best fixed" for p in CHOSEN_ONLINE), "oracle vs best fixed"],
    )
    wins, worst, oracle_wins, gains = 0, -math.inf, 0, []
    chosen = {p: [] for p in CHOSEN_ONLINE}  # each one's excess over the best fixed, by pair
    paired = {p: [] for p in CHOSEN_ONLINE}  # (pair, mean and standard error of the seeds' excess)
    for key, by_policy in scores.items():
        means = _means(by_policy)
        best = min(BUDGET_FIXED, key=means.get)
        fixed = means[best]
        for p in CHOSEN_ONLINE if seeds > 1 else ():
            excess = [v / w - 1.0 for v, w in zip(by_policy[p], by_policy[best], strict=True)]
            paired[p].append((key, *mean_and_error(excess)))
        bandit = min(means[p] for p in BUDGET_POLICIES if p not in BUDGET_FIXED)
        wins += bandit < fixed
        worst = max(worst, bandit / fixed - 1.0)
        oracle_wins += means[ORACLE] < fixed
        gains.append(means[ORACLE] / fixed - 1.0)
        for p in CHOSEN_ONLINE:
            chosen[p].append(means[p] / fixed - 1.0)
        lines.append(table_row(
            f"{key[0]}, {key[1]}",
            *(f"{means[p]:.4f}" for p in (*BUDGET_POLICIES, *CHOSEN_ONLINE, ORACLE)),
            *(f"{100 * (v / fixed - 1):+.2f} %"
              for v in (bandit, *(means[p] for p in CHOSEN_ONLINE))),
            f"{100 * gains[-1]:+.2f} %",
        ))
    # training spent by each bandit, as a share of what `both` spent on the same stream
    spent = [statistics.mean(values) / statistics.mean(shares[name, kind, "both"])
             for (name, kind, policy), values in shares.items()
             if policy not in (*BUDGET_FIXED, *CHOSEN_ONLINE, ORACLE)]
    saved = ("they spent the budget as soon as it allowed, as `both` does, instead of saving it "
             "for a drift" if min(spent) > 0.99 else "some saved part of it")
    lines += ["", f"The best bandit beats the best fixed policy on {wins} of {len(scores)} "
              f"(stream, drift) pairs; at worst it is {100 * worst:+.2f} % off it. The bandits "
              f"trained on {100 * min(spent):.1f}-{100 * max(spent):.1f} % as many minibatches "
              f"as `both`: {saved}. The oracle that knows where the drift is (`{ORACLE}`) beats "
              f"the best fixed policy on {oracle_wins} of {len(scores)} pairs "
              f"({100 * min(gains):+.2f} to {100 * max(gains):+.2f} %): what timing the budget "
              f"could win."]
    for p, excess in chosen.items():
        lines += ["", (
            f"`{p}` ({CHOSEN_ONLINE[p]}) beats the best fixed policy on "
            f"{sum(e < 0 for e in excess)} of {len(excess)} pairs ({100 * min(excess):+.2f} to "
            f"{100 * max(excess):+.2f} %).") + _significance(paired[p])]
    return "\n".join(lines)


def _significance(paired: list) -> str:
    """Which of a policy's excesses over the best fixed policy, paired by seed (the same
    stream and drift), the seeds' noise can explain: a sentence, empty with one seed."""
    if not paired:
        return ""
    above = [f"{name}, {kind}" for (name, kind), mean, se in paired if mean > 2 * se]
    below = sum(mean < -2 * se for _, mean, se in paired)
    (name, kind), mean, se = max(paired, key=lambda item: item[1])
    return (f" Paired by seed with the best fixed policy, its excess is more than two standard "
            f"errors above 0 on {len(above)} of {len(paired)} pairs"
            f"{' (' + '; '.join(above) + ')' if above else ''} and below 0 on {below}; its "
            f"largest, {name}, {kind}: {100 * mean:+.2f} % (standard error {100 * se:.2f} %).")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        choices=sorted([*datasets.REGISTRY, *GENERATORS]),
                        help="default: %(default)s; agrawal, hyperplane, rbf and sea are River's "
                             "generators (20,000 rows, a new stream per seed)")
    parser.add_argument("--drifts", nargs="+", default=["flip", "prior"], choices=DRIFTS,
                        help="the budget's and the forced split's drifts (default: %(default)s; "
                             "switch: to another concept of the same generator)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="default: simulations/drift.md, or drift_budget.md with a budget")
    table = parser.add_mutually_exclusive_group()  # one table a run
    table.add_argument("--train-budget", type=float, default=None, metavar="SHARE",
                       help="run the compute budget's table instead (see above)")
    table.add_argument("--calibrators-only", action="store_true",
                       help="run the forgetting rate's table alone, with a stationary row per "
                            "stream too (default out: simulations/drift_calibrators.md)")
    table.add_argument("--calibrator-kinds", action="store_true",
                       help="run the same table over the four calibrators instead of the rates "
                            "(default out: simulations/drift_calibrator_kinds.md)")
    args = parser.parse_args(argv)
    if "switch" in args.drifts and not set(args.datasets) <= set(GENERATORS):
        parser.error(f"--drifts switch needs --datasets among River's generators {GENERATORS}")
    if args.train_budget is not None:
        scores, shares = _grid(args, args.drifts, (*BUDGET_POLICIES, *CHOSEN_ONLINE, ORACLE),
                               args.train_budget)  # fmt: skip
        text = budget_report(scores, shares, args.seeds, args.train_budget)
        title, default = "Drift under a compute budget", "drift_budget.md"
    elif args.calibrators_only:
        calibrators, _ = _grid(args, CALIBRATOR_DRIFTS, CALIBRATORS)
        text = calibrator_report(calibrators, args.seeds)
        title, default = "The calibrator's forgetting rate, chosen online", "drift_calibrators.md"
    elif args.calibrator_kinds:
        kinds, _ = _grid(args, CALIBRATOR_DRIFTS, (*KINDS, *KIND_EWAS))
        text = calibrator_report(kinds, args.seeds, KINDS, KIND_EWAS)
        title, default = "The calibrator chosen online", "drift_calibrator_kinds.md"
    else:
        both_tables, _ = _grid(args, args.drifts, POLICIES + CALIBRATORS)
        scores = {key: {p: by[p] for p in POLICIES} for key, by in both_tables.items()}
        calibrators = {key: {c: by[c] for c in CALIBRATORS} for key, by in both_tables.items()}
        both = {key: by_label["platt, forgetting 1"] for key, by_label in calibrators.items()}
        text = (report(scores, args.seeds, both) + "\n\n"
                + calibrator_report(calibrators, args.seeds))
        title, default = "Drift and the forced split", "drift.md"
    write_report(args.out or HERE / default, title, "drift.py", argv, text)
    return 0


def _grid(args, kinds: typing.Sequence[str], labels: typing.Sequence[str],
          budget: float | None = None) -> tuple[dict, dict]:
    """`run` for every stream, drift kind, label and seed: the Brier scores as (stream, kind) ->
    label -> [one per seed], and the training shares as (stream, kind, label) -> [one per
    seed]."""
    scores: dict = {}
    shares: dict = {}
    for (name, kind, label), results in grid(run, args, kinds, labels, budget).items():
        scores.setdefault((name, kind), {})[label] = [brier for brier, _ in results]
        shares[(name, kind, label)] = [share for _, share in results]
    return scores, shares


def grid(run_one: typing.Callable, args, kinds: typing.Sequence[str],
         labels: typing.Sequence[str], *extra) -> dict:
    """`run_one(name, kind, label, seed, args.data_dir, *extra)` for every stream of
    `args.datasets`, drift kind, label and seed below `args.seeds`, `args.jobs` at a time: the
    results as (stream, kind, label) -> [one per seed] (`reporting.run_grid`)."""
    jobs = list(itertools.product(args.datasets, kinds, labels, range(args.seeds)))
    return run_grid(run_one, jobs, args.data_dir, args.jobs, *extra)


if __name__ == "__main__":
    sys.exit(main())
