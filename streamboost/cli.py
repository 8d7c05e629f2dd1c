"""The `streamboost` command: `run` one prequential run, `compare` policies on a grid, list
`datasets`.

Every sub-command has `--help` with examples; see `docs/cli.md`.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import functools
import inspect
import json
import math
import os
import platform
import sys
import time
import typing
from pathlib import Path

from . import __version__, bandits, datasets
from .arms import ARMS
from .atomic import written
from .boosting import SCORES
from .budget import BUDGET_TIMINGS
from .calibration import CALIBRATORS
from .controller import REWARDS, BanditCalibratedClassifier
from .datasets.stream import class_sizes
from .evaluate import RunResult
from .experiments import (
    BACKENDS,
    DEFAULT_GRID,
    Cell,
    CellStore,
    check_dataset,
    check_policy,
    compare,
    figures,
    make_grid,
    run_grid,
    write_table,
)
from .experiments.execution import result_rows
from .experiments.models import MODELS
from .reward import MAPPINGS, ROLLBACKS, held_out, no_change
from .validation import did_you_mean

__all__ = ["main"]

#: Metrics `compare` can rank by (all: lower is better).
RANK_METRICS: tuple[str, ...] = (
    "brier",
    "log_loss",
    "expected_cost",
    "normalised_cost",
    "ece",
    "final_ece",
    "brier_curve_area",
)

_RUN_EXAMPLES = """\
examples:
  streamboost run --dataset electricity --policy discounted-ucb --batch-size 32 \\
      --c-fn 10 --c-fp 1
  streamboost run --dataset phishing --policy every-4 --max-rows 2000 --trace trace.csv
  streamboost run --dataset weather --policy ucb1 --arms train calibrate   # forced split
  streamboost run --dataset weather --policy never --seed 3 --no-progress
"""

_COMPARE_EXAMPLES = """\
examples:
  streamboost compare                      # the default grid on the bundled data (~1 min)
  streamboost compare --datasets electricity weather --policies never every-4 ucb1 \\
      discounted-ucb --cost-ratios 1 10 --seeds 5 --max-rows all --out results/
  streamboost compare --backend dask                            # a local Dask cluster
  streamboost compare --backend dask --scheduler tcp://10.0.0.5:8786   # an existing one
  streamboost compare --metric expected_cost --format parquet --out results/

Finished cells are kept in OUT/cells/ and skipped when the same command runs again, so an
interrupted grid resumes where it stopped; failed cells are reported and retried next time.
"""

_TOP_EXAMPLES = """\
examples:
  streamboost datasets
  streamboost run --dataset phishing --policy ucb1
  streamboost compare
"""


def _policy(value: str) -> str:
    try:
        return check_policy(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _dataset(value: str) -> str:
    try:
        return check_dataset(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive_float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {value!r}")
    return number


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value!r}")
    return number


def _non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value!r}")
    return number


def _number(value: str) -> float:
    """`value` as a float, or NaN, which every range check below refuses."""
    try:
        return float(value)
    except ValueError:
        return math.nan


def _reserve(value: str) -> float:
    number = _number(value)
    if not 0.0 <= number < 1.0:
        raise argparse.ArgumentTypeError(f"expected a share in [0, 1), got {value!r}")
    return number


def _budget(value: str) -> float:
    number = _number(value)
    if not 0.0 < number <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share in (0, 1], got {value!r}")
    return number


def _max_rows(value: str) -> int | None:
    if value.lower() == "all":
        return None
    try:
        return _positive_int(value)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected an integer >= 1 or 'all', got {value!r}"
        ) from None


def _add_model_options(parser: argparse.ArgumentParser, *, max_rows_default: int | None) -> None:
    parser.add_argument(
        "--batch-size", type=_positive_int, default=32, help="examples per minibatch (32)"
    )
    parser.add_argument(
        "--target",
        default="target",
        help="the label column, for a dataset given as a CSV file (target)",
    )
    parser.add_argument(
        "--pos-label",
        default=None,
        help="the positive class as written in the data (default: the registry's; for a CSV "
        "file the minority class)",
    )
    parser.add_argument(
        "--c-fn-feature",
        default=None,
        metavar="COLUMN",
        help="a numeric column whose value times the false-negative cost is each example's "
        "own (a transaction's amount): each example is decided at c_FP / (c_FP + c_FN x "
        "value) and charged its own cost; read as the data has it, scaled for the model",
    )
    parser.add_argument(
        "--model",
        choices=sorted(MODELS),
        default="oza-lr",
        help="the base model: oza-lr / oza-ht (Oza boosting of logistic regressions / "
        "Hoeffding trees), oza-stump / oza-ulr (of the thesis's weak learners: decision "
        "stumps / univariate logistic regressions; the thesis boosts 100 of them: "
        "--n-models 100), lr, ht, arf (River's own) (oza-lr)",
    )
    parser.add_argument(
        "--calibrator",
        choices=sorted(CALIBRATORS),
        default="platt",
        help="the online calibrator (platt)",
    )
    parser.add_argument(
        "--calibrator-gamma",
        type=_positive_float,  # its range: `Cell`'s check, the calibrators' own
        default=None,
        help="Platt's and beta's (and ewa's) Online Newton Step parameter, in [1e-8, 1e8] (by "
        "the model: 1 beside lr and a booster scored soft over logistic regressions or stumps, "
        "0.1 beside the others, the boosters' vote included)",
    )
    parser.add_argument(
        "--score",
        choices=SCORES,
        default=None,
        help="the booster's score (the oza- models): vote (the members' weighted votes, thesis "
        "Eq. 7.6), logistic (Eq. 7.7) or soft (their probabilities averaged with the same "
        "weights; better calibrated, worse raw: docs/boosting.md); default: soft for oza-lr, "
        "as the library's default model (BanditCalibratedClassifier()) scores, vote for the "
        "other boosters, their own default",
    )
    parser.add_argument(
        "--n-models",
        type=_positive_int,
        default=10,
        help="members of the ensemble models: the oza- models, arf (10)",
    )
    parser.add_argument(
        "--reward",
        choices=REWARDS,
        default="log-likelihood",
        help="the controller's reward (log-likelihood)",
    )
    parser.add_argument(
        "--train-budget",
        type=_budget,
        default=None,
        metavar="SHARE",
        help="a compute budget: at most this share (0-1] of the minibatches after the warm-up "
        "train the model; the others calibrate (none)",
    )
    parser.add_argument(
        "--budget-reserve",
        type=_reserve,
        default=0.0,
        metavar="SHARE",
        help="with --train-budget: the share [0-1) of it held back until a drift detector "
        "(ADWIN) flags a change in the model's error, then spent (0)",
    )
    parser.add_argument(
        "--budget-timing",
        choices=BUDGET_TIMINGS,
        default="even",
        help="with --train-budget: train whenever the budget can pay (even), or only after a "
        "minibatch whose loss ranks in the budget's top share of the last 64 (loss) (even)",
    )
    parser.add_argument(
        "--reward-examples",
        type=_positive_int,
        default=None,
        metavar="N",
        help="the reward's budget: score N examples of the minibatch after a measured one "
        "(all)",
    )
    parser.add_argument(
        "--reward-every",
        type=_positive_int,
        default=1,
        metavar="N",
        help="the reward's budget: measure one minibatch in N, N times fewer rounds to pay for "
        "(what each costs and scores: docs/controller.md; trees and forests hold their rounds "
        "out, --rollback auto) (1)",
    )
    parser.add_argument(
        "--reward-start",
        type=_non_negative_int,
        default=64,
        metavar="N",
        help="with --reward-every: measure each of the first N minibatches after the warm-up "
        "before thinning, so that the first rounds do not decide alone, and the N after each "
        "change a drift detector flags (64)",
    )
    parser.add_argument(
        "--no-reward-restart",
        dest="reward_restart",
        action="store_false",
        help="with --reward-every: do not measure densely again after a change (no drift "
        "detector runs)",
    )
    parser.add_argument(
        "--warmup-arm",
        choices=("train", "both"),
        default=None,
        help=f"what the controller's warm-up (its first {_WARMUP} minibatches, whatever the "
        "policy) does: train the model, or both, the calibrator learning too, so that a bandit "
        "starts with a calibrator that has learned (docs/choosing.md); default: the library's, "
        "both, but train under never",
    )
    parser.add_argument(
        "--rollback",
        choices=("auto", *ROLLBACKS),
        default="auto",
        help="how the reward rolls the model back: copy it; defer a measured minibatch's "
        "training until the next one is scored (for ht and arf, not oza-ht); hold out the "
        "first --reward-examples of a measured minibatch (1 in 32) until it ends; or auto: "
        "holdout for ht, arf and oza-ht when a bandit measures every minibatch, else copy "
        "(auto)",
    )
    parser.add_argument(
        "--reward-map",
        choices=MAPPINGS,
        default="affine",
        help="how improvements become rewards: affine (keeps the order of the arms' mean "
        "gains) or logistic (before 0.4) (affine)",
    )
    parser.add_argument(
        "--arms",
        nargs="+",
        choices=ARMS,
        default=list(ARMS),
        metavar="ARM",
        help="the controller's arms, 2 or 3 of train, calibrate, both (all three); "
        "--arms train calibrate is the forced split of the thesis",
    )
    parser.add_argument(
        "--no-counterfactual",
        dest="counterfactual",
        action="store_false",
        help="score only the arm a bandit took, not the arms it did not take",
    )
    shown = "all" if max_rows_default is None else max_rows_default
    parser.add_argument(
        "--max-rows",
        type=_max_rows,
        default=max_rows_default,
        metavar="N|all",
        help=f"evaluate only the first N examples of each stream ({shown})",
    )
    parser.add_argument(
        "--positive-prior",
        type=float,
        default=None,
        metavar="Q",
        help="replay each stream with this share of positives, in (0, 1), undersampling the "
        "class in excess in order: rare positives (fraud, alarms) from a balanced benchmark "
        "(as the data has it)",
    )
    parser.add_argument(
        "--data-dir", default=None, help="directory searched first for dataset files"
    )
    parser.add_argument("--no-progress", action="store_true", help="do not show a progress bar")


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusal of a choice (`--calibrator isotonik`, a command
    `rnu`) adds the one meant, as the library's own errors do (`validation.did_you_mean`;
    argparse itself only can from Python 3.14). Its subcommands' parsers are of this class."""

    def _check_value(self, action: argparse.Action, value: typing.Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as error:
            hint = did_you_mean(value, action.choices or ())
            if not hint:
                raise
            raise argparse.ArgumentError(action, f"{error.message}{hint}") from None


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="streamboost",
        description="Replay datasets as streams and compare the policies that split each "
        "minibatch between training the model (a booster by default, --model) and "
        "calibrating it.",
        epilog=_TOP_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"streamboost {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = commands.add_parser(
        "run",
        help="one prequential run",
        description="Test-then-train one BanditCalibratedClassifier on one dataset and "
        "print its Brier score, log-loss, expected cost and train/calibrate allocation.",
        epilog=_RUN_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument(
        "--dataset",
        type=_dataset,
        required=True,
        help="a registered dataset (streamboost datasets), a CSV file or an http(s) address "
        "of one, gzipped or not, "
        "with a label column (--target)",
    )
    run.add_argument(
        "--policy",
        type=_policy,
        default="both",
        help="bandit policy or baseline (both, the controller's default)",
    )
    run.add_argument("--c-fp", type=_positive_float, default=1.0, help="false-positive cost (1)")
    run.add_argument("--c-fn", type=_positive_float, default=1.0, help="false-negative cost (1)")
    run.add_argument("--seed", type=_non_negative_int, default=0, help="random seed (0)")
    run.add_argument(
        "--trace",
        type=Path,
        default=None,
        metavar="FILE.csv",
        help="write the per-minibatch "
        "trace (position, prequential Brier / log-loss, arm, reward) to this CSV file",
    )
    _add_model_options(run, max_rows_default=None)

    grid = commands.add_parser(
        "compare",
        help="compare policies on a grid of runs",
        description="Run every dataset x policy x cost ratio x seed, in parallel, and rank "
        "the policies (mean rank per dataset, Friedman test, Nemenyi critical difference). "
        "Writes the per-run results, the configuration and the figures to --out. Without "
        "arguments it runs a small default grid on the bundled data.",
        epilog=_COMPARE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    grid.add_argument(
        "--datasets",
        type=_dataset,
        nargs="+",
        default=list(DEFAULT_GRID["datasets"]),
        metavar="NAME|FILE.csv",
        help=f"registered datasets or CSV files ({' '.join(DEFAULT_GRID['datasets'])})",
    )
    grid.add_argument(
        "--policies",
        type=_policy,
        nargs="+",
        default=list(DEFAULT_GRID["policies"]),
        metavar="NAME",
        help=f"policies ({' '.join(DEFAULT_GRID['policies'])})",
    )
    grid.add_argument(
        "--cost-ratios",
        type=_positive_float,
        nargs="+",
        default=list(DEFAULT_GRID["cost_ratios"]),
        metavar="R",
        help="cost ratios c_FN/c_FP; c_FP = 1 "
        f"({' '.join(f'{r:g}' for r in DEFAULT_GRID['cost_ratios'])})",
    )
    grid.add_argument(
        "--seeds",
        type=_positive_int,
        default=len(DEFAULT_GRID["seeds"]),
        metavar="N",
        help=f"number of seeds, 0..N-1 ({len(DEFAULT_GRID['seeds'])})",
    )
    grid.add_argument(
        "--out", type=Path, default=Path("results"), help="results directory (results/)"
    )
    grid.add_argument(
        "--metric", choices=RANK_METRICS, default="brier", help="metric to rank by (brier)"
    )
    grid.add_argument(
        "--alpha", type=float, default=0.05, help="significance level of the tests (0.05)"
    )
    grid.add_argument(
        "--format", choices=("csv", "parquet"), default="csv", help="results file format (csv)"
    )
    grid.add_argument("--backend", choices=BACKENDS, default="joblib", help="joblib or dask")
    grid.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="an existing Dask scheduler (with --backend dask; default: a new LocalCluster)",
    )
    grid.add_argument(
        "--n-jobs",
        type=int,
        default=None,
        help="parallel workers (default: one per CPU)",
    )
    grid.add_argument("--no-figures", action="store_true", help="do not draw figures")
    _add_model_options(grid, max_rows_default=DEFAULT_GRID["max_rows"])

    listing = commands.add_parser(
        "datasets",
        help="list the registered datasets",
        description="List the registered datasets: size, positive class, time order and "
        "where each file would be read from.",
        epilog="examples:\n  streamboost datasets\n  streamboost datasets --data-dir ~/data\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    listing.add_argument("--data-dir", default=None, help="directory searched first")
    return parser


def _fmt(value: float) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _check_data(names: typing.Sequence[str], data_dir: str | None,
                target: str = "target", pos_label: str | None = None,
                cost_feature: str | None = None) -> None:
    """Every dataset's file is found before any run starts (else one error naming them all),
    a `--target` other than the default names the label column of a CSV among them, a
    `--pos-label` is a class of each CSV file (a registered dataset's `Cell` checks), and a
    `--c-fn-feature` is a number in each dataset's first example (a later example without
    one stops its run there: `evaluate.prequential`)."""
    if target != "target" and all(name in datasets.REGISTRY for name in names):
        raise ValueError(
            f"--target {target!r} names the label column of a CSV file; the registered "
            f"dataset(s) {', '.join(map(repr, names))} have their own label: leave --target "
            "out, or pass the CSV file's path")
    missing = []
    for name in names:
        if name not in datasets.REGISTRY:  # a CSV file path (found by check_dataset) or address
            if datasets.files.is_url(name):
                datasets.fetch_url(name)  # once, before the runs: they read the cached copy
            if pos_label is not None and (datasets.files.is_url(name) or Path(name).is_file()):
                datasets.positive_label(name, positive=pos_label, target=target)
            continue
        try:
            datasets.load(name, data_dir=data_dir)
        except FileNotFoundError:
            missing.append(name)
    if missing:
        files = ", ".join(datasets.REGISTRY[name].filename for name in missing)
        raise ValueError(
            f"dataset(s) {', '.join(missing)} not found (files {files}); pass --data-dir DIR "
            "with a folder that holds them, or set STREAMBOOST_DATA (`streamboost datasets` "
            "lists what is where)"
        )
    for name in names if cost_feature is not None else ():
        source: dict[str, typing.Any] = (
            {"data_dir": data_dir} if name in datasets.REGISTRY
            else {"target": target, "positive": pos_label})
        x, _ = next(iter(datasets.stream(name, **source)), ({}, None))
        value = x.get(cost_feature)
        if isinstance(value, bool) or not isinstance(value, int | float):
            found = ("no such column" if value is None and cost_feature not in x
                     else f"its first example has {value!r}")
            raise ValueError(
                f"--c-fn-feature {cost_feature!r} must name a numeric column of {name}: "
                f"{found}{did_you_mean(cost_feature, x) if cost_feature not in x else ''} "
                f"(columns: {', '.join(map(str, x))})")


_HEADLINE_RATIOS = (0.1, 1.0, 10.0)  # c_FN / c_FP


def _headline(
    records: typing.Sequence[dict[str, typing.Any]],
    river: typing.Sequence[dict[str, typing.Any]] = (),
) -> str:
    """What calibrating buys: "both" against the raw model "never", on probabilities and on
    decisions at three cost ratios (mean over the grid's datasets and seeds), and the same for a
    plain River logistic regression run on the same streams (`river`); "" if the grid lacks
    either policy."""

    def results(chosen) -> dict[str, list[RunResult]]:
        found: dict[str, list[RunResult]] = {"never": [], "both": []}
        for record in chosen:
            policy = record["config"]["policy"]
            if record["status"] == "ok" and policy in found:
                found[policy].append(RunResult(**record["result"]))
        return found

    def cost(r: RunResult, ratio: float) -> float:
        return r.cost_at_threshold(ratio) / min(1.0, ratio)  # the cheaper error costs 1

    measures: list[tuple[str, typing.Callable[[RunResult], float]]] = [
        ("Brier score", lambda r: r.brier), ("log-loss", lambda r: r.log_loss)]
    for ratio in _HEADLINE_RATIOS:
        label = f"cost per example at c_FN:c_FP = {ratio:g}:1" if ratio >= 1 else (
            f"cost per example at c_FN:c_FP = 1:{1 / ratio:g}")
        measures.append((label, functools.partial(cost, ratio=ratio)))

    def block(found: dict[str, list[RunResult]], prefix: str) -> list[str]:
        def mean(policy: str, value: typing.Callable[[RunResult], float]) -> float:
            return sum(value(r) for r in found[policy]) / len(found[policy])

        return [f"  {prefix + name:<48}{mean('never', value):.4f} -> {mean('both', value):.4f}"
                for name, value in measures]

    ours = results(records)
    if not all(ours.values()):
        return ""
    lines = ["What calibrating buys here (both against the raw model, never; mean over "
             "datasets and seeds):", *block(ours, "")]
    theirs = results(river)
    if all(theirs.values()):
        lines += ["A plain River model on the same streams and seeds, raw -> calibrated "
                  "(StandardScaler | LogisticRegression, CalibratedClassifier):",
                  *block(theirs, "River LR, ")]
    return "\n".join(lines)


def _river_baseline(args: argparse.Namespace, cells: typing.Sequence) -> list[dict]:
    """Records of a plain River logistic regression, raw and calibrated ("both"), on the grid's
    datasets, cost ratios and seeds (a few seconds; not stored with the grid's runs)."""
    if args.model == "lr" or not {"never", "both"} <= set(args.policies):
        return []  # the grid itself is the River model, or has no raw/calibrated pair
    baseline = make_grid(
        args.datasets, ["never", "both"], cost_ratios=args.cost_ratios,
        seeds=range(args.seeds), **{**_settings(cells[0]), "model": "lr", "score": None},
    )
    print("Running a plain River logistic regression on the same streams, for comparison...")
    return run_grid(baseline, None, backend="joblib", n_jobs=args.n_jobs, progress=False).records


def _settings(cell) -> dict[str, typing.Any]:
    """The fields a grid's cells share (all but dataset, policy, cost ratio and seed)."""
    shared = dataclasses.asdict(cell)
    for name in ("dataset", "policy", "cost_ratio", "seed"):
        shared.pop(name)
    shared["arms"] = tuple(shared["arms"])
    return shared


# the controller's warm-up in minibatches, as the runs use it: read from the signature (not by
# building a controller)
_WARMUP = inspect.signature(BanditCalibratedClassifier).parameters["warmup"].default

_BOTH = "calibrates on its prequential score, then trains the model (CalibratedClassifier's rule)"
_POLICY_LINES = {
    "never": "the model alone, never calibrated (the raw baseline)",
    "both": f"every example {_BOTH}",
    "always": "after the warm-up only the calibrator learns",
    "ucb1": "bandit, UCB1 (Auer et al. 2002) over the arms",
    "discounted-ucb": "bandit, discounted UCB (Garivier & Moulines 2011): forgets old rewards",
    "sliding-window-ucb": "bandit, UCB over a window of recent rounds",
    "discounted-thompson": "bandit, discounted Thompson sampling (Raj & Kalyani 2017): draws "
    "from each arm's posterior, so it keeps exploring",
}


def _describe(policy: str, warmup_arm: str | None = None) -> str:
    """One line on what a policy does, for the comparison's legend: its own line, else for a
    bandit the first line of its class's docstring, as plain text; `"both"` says so when its
    warm-up (`warmup_arm`) trains only."""
    if policy == "both" and warmup_arm == "train":
        return f"after the warm-up ({_WARMUP} minibatches that train only), each example {_BOTH}"
    if policy in _POLICY_LINES:
        return _POLICY_LINES[policy]
    if policy in bandits.POLICIES:  # "every-nth" too: the bandit, not a schedule
        summary = (bandits.POLICIES[policy].__doc__ or "").strip().splitlines()[0]
        for tex, text in (("$", ""), ("\\varepsilon", "epsilon"), ("\\tau", "tau")):
            summary = summary.replace(tex, text)
        return f"bandit: {summary.rstrip('.')}"
    return f"calibrate every {policy.removeprefix('every-')}-th minibatch, train the others"


class _Interrupted(Exception):
    """Ctrl-C during a command, with what was kept."""


def _run(args: argparse.Namespace) -> int:
    if args.trace is not None and Path(args.trace).is_dir():
        raise ValueError(f"--trace {args.trace} is a directory; expected a CSV file path")
    _check_data([args.dataset], args.data_dir, args.target, args.pos_label, args.c_fn_feature)
    cell = Cell(
        args.dataset,
        args.policy,
        cost_ratio=args.c_fn / args.c_fp,
        c_fp=args.c_fp,
        batch_size=args.batch_size,
        n_models=args.n_models,
        max_rows=args.max_rows,
        reward=args.reward,
        reward_map=args.reward_map,
        train_budget=args.train_budget,
        budget_reserve=args.budget_reserve,
        budget_timing=args.budget_timing,
        reward_examples=args.reward_examples,
        reward_every=args.reward_every,
        reward_start=args.reward_start,
        reward_restart=args.reward_restart,
        warmup_arm=args.warmup_arm,
        rollback=args.rollback,
        counterfactual=args.counterfactual,
        arms=tuple(args.arms),
        seed=args.seed,
        data_dir=args.data_dir,
        model=args.model,
        calibrator=args.calibrator,
        calibrator_gamma=args.calibrator_gamma,
        score=args.score,
        target=args.target,
        pos_label=args.pos_label,
        c_fn_feature=args.c_fn_feature,
        positive_prior=args.positive_prior,
    )
    rows = "all examples" if cell.max_rows is None else f"first {cell.max_rows} examples"
    n = cell.reward_examples
    controller = list(cell.pipeline().steps.values())[-1]
    rollback = controller.rollback_  # what "auto" stands for
    step = getattr(controller.calibrator_, "gamma", None)  # Platt's and beta's, by the model
    if rollback == "holdout":
        n = held_out(cell.batch_size, n)
        scored = "the first example" if n == 1 else f"the first {n} examples"
    else:
        scored = "all examples" if n is None else f"{n} example{'s' if n > 1 else ''}"
    every = ("every minibatch" if cell.reward_every == 1
             else f"one minibatch in {cell.reward_every}"
             + (f" after the first {cell.reward_start}" if cell.reward_start else "")
             + (f" and the {cell.reward_start} after each change flagged"
                if cell.reward_start and cell.reward_restart else ""))
    budget = "" if cell.reward_every == 1 and n is None else (
        f" (reward: {every}, {scored} scored)"
    )
    if rollback != "copy":
        budget += f" (rollback: {rollback}{' by auto' if cell.rollback == 'auto' else ''})"
    # each example's own c_FN, with --c-fn-feature
    c_fn = f"{cell.c_fn:g}" + ("" if cell.c_fn_feature is None else f" x {cell.c_fn_feature}")
    print(
        f"streamboost {__version__}: {cell.dataset} ({rows}), model {cell.model}"
        f"{'' if cell.score is None else f' (score {cell.score})'}, calibrator "
        f"{cell.calibrator}{'' if step is None else f' (gamma {step:g})'}, policy "
        f"{cell.policy}{budget}, "
        f"batch size {cell.batch_size}, c_FP = {cell.c_fp:g}, c_FN = {c_fn}, seed {cell.seed}"
    )
    positive = cell.pos_label  # checked by `_check_data` (a file) or `Cell` (registered)
    if positive is None:
        positive = datasets.positive_label(cell.dataset, target=cell.target,
                                           data_dir=cell.data_dir)
    counts = datasets.class_counts(cell.dataset, target=cell.target, data_dir=cell.data_dir)
    print(_classes(positive, counts, c_fn))
    n = sum(counts.values())
    if cell.positive_prior is not None:
        kept = class_sizes(counts[positive], n - counts[positive], False, cell.positive_prior)
        n = sum(kept)
        print(f"undersampled to a share of positives of {cell.positive_prior:g} "
              f"(--positive-prior): {kept[0]} positive and {kept[1]} negative examples kept, in "
              f"order")
    n = n if cell.max_rows is None else min(cell.max_rows, n)
    _warn_within_warm_up(f"the run's {n} examples are", n, cell.batch_size,
                         f"the policy ({cell.policy}) never chooses an arm")
    result = cell.run(progress=not args.no_progress)
    decided = (f"p > {cell.c_fp / (cell.c_fp + cell.c_fn):.4g}" if cell.c_fn_feature is None
               else f"p > c_FP / (c_FP + c_FN x {cell.c_fn_feature}), each example's own")
    lines = [
        ("examples", str(result.n)),
        ("Brier score", _fmt(result.brier)),
        ("log-loss", _fmt(result.log_loss)),
        (
            "expected cost",
            f"{result.expected_cost:.4f} per example (decide positive iff {decided}); "
            f"normalised {result.normalised_cost:.4f}",
        ),
        (
            "calibration error",
            f"{result.ece:.4f} (ECE, all); {result.final_ece:.4f} (last 1000 predictions)",
        ),
        (
            "Brier curve area",
            f"{_fmt(result.brier_curve_area)} (the thesis's summary: normalised cost averaged "
            "over 21 cost proportions, each decided at its own threshold)",
        ),
    ]
    arms = result.arm_counts or {}
    total = sum(arms.values())
    allocation = (
        ", ".join(f"{arm} {count} ({count / total:.1%})" for arm, count in arms.items())
        if total
        else "no finished minibatch"
    )
    lines.append(("allocation", f"{allocation} of {total} minibatches"))
    if cell.train_budget is not None:
        spent = ("evenly" if cell.budget_timing == "even" else
                 "after the minibatches whose loss ranks highest (--budget-timing loss)")
        held = (f"; {cell.budget_reserve:.0%} of it held for a change" if cell.budget_reserve
                else "")
        lines.append(("train budget", f"{cell.train_budget:.0%} of the minibatches after the "
                      f"warm-up, spent {spent}{held}"))
    if result.n_rounds is not None:
        lines.append(("rounds measured", f"{result.n_rounds} of {total} minibatches (what the "
                      "policy learned from; each one's scoring is what a bandit costs)"))
    if result.n_drifts is not None:
        lines.append(("changes flagged", f"{result.n_drifts} (by the drift detector on the "
                      "model's prequential error)"))
    if result.n_rounds is not None:  # a schedule measures no reward
        lines.append(("cumulative reward", f"{_fmt(result.cumulative_reward)} (sum of the "
                      f"policy's rewards, {_reward_scale(cell.policy)})"))
    if result.regret is not None:
        lines.append(("regret", f"{_fmt(result.regret)} (against the best fixed arm in hindsight, "
                      "over the rounds that measured every arm)"))
    lines.append(("time", f"{result.seconds:.1f} s"))
    width = max(len(k) for k, _ in lines)
    for key, value in lines:
        print(f"  {key.ljust(width)}  {value}")
    if args.trace is not None:
        write_table(_flat_trace(result.trace), args.trace)
        print(f"trace: {args.trace} ({len(result.trace)} rows)")
    return 0


def _classes(positive: typing.Hashable, counts: dict, c_fn: str) -> str:
    """The run's classes as its summary names them: the positive one, what it costs to miss,
    and the rest, which are negative together when there are more than one (one-vs-rest)."""
    others = [(label, n) for label, n in sorted(counts.items(), key=lambda item: -item[1])
              if label != positive]
    negatives = ", ".join(f"{label!r} ({n})" for label, n in others)
    rest = ("; no other class: every example is positive" if not others else
            f"; negative: {negatives}" if len(others) == 1 else
            f"; negative: the other {len(others)} classes together, {negatives}")
    return (f"positive class: {positive!r} ({counts[positive]} of {sum(counts.values())} "
            f"examples; c_FN = {c_fn} is the cost of missing one){rest}")


def _warn_within_warm_up(what: str, n: int, batch_size: int, consequence: str) -> None:
    """Warn on standard error when a run of `n` examples ends within the controller's warm-up
    (`what` names them), where every minibatch trains the model whatever the policy."""
    warmup = _WARMUP * batch_size
    if n <= warmup:
        print(f"Warning: {what} within the controller's warm-up ({warmup} examples, every "
              f"minibatch trains): {consequence}", file=sys.stderr)


def _positive_of(name: str, pos_label: str | None, target: str, data_dir: str | None) -> str:
    """`name`'s positive class as `compare` names it, and how many classes it stands against
    when the others are negative together (one-vs-rest)."""
    spec = datasets.REGISTRY.get(name)
    classes = (spec.classes if spec is not None
               else datasets.class_counts(name, target=target, data_dir=data_dir))
    positive = datasets.positive_label(name, positive=pos_label, target=target,
                                       data_dir=data_dir)
    rest = f" (against the other {len(classes) - 1} classes together)" if len(classes) > 2 else ""
    return f"{name} {positive!r}{rest}"


def _reward_scale(policy: str) -> str:
    """What a reward of `policy` (a bandit's name) means, for the run's summary."""
    bounds = bandits.POLICIES[policy].reward_range
    if bounds is None:  # streamboost.reward: improvements over their running RMS
        return "each a round's improvement over the running RMS, 0 = no change"
    return f"each in [{bounds[0]:g}, {bounds[1]:g}], {no_change(bounds):g} = no change"


def _flat_trace(trace: list[dict[str, typing.Any]]) -> list[dict[str, typing.Any]]:
    """The trace's rows for a CSV: each arm's reward measured in a round in its own column,
    `reward_<arm>`, in place of the row's dict of them."""
    rows = []
    for row in trace:
        flat = {key: value for key, value in row.items() if key != "rewards"}
        for arm, reward in (row.get("rewards") or {}).items():
            flat[f"reward_{arm}"] = reward
        rows.append(flat)
    return rows


def _compare(args: argparse.Namespace) -> int:
    if args.scheduler is not None and args.backend != "dask":
        raise ValueError(f"--scheduler {args.scheduler} needs --backend dask")
    if not 0.0 < args.alpha < 1.0:
        raise ValueError(f"--alpha must be in (0, 1), got {args.alpha}")
    if args.n_jobs == 0:
        raise ValueError("--n-jobs must be a non-zero integer (negative: CPUs + 1 + n_jobs)")
    # the cells' shared fields, as the grid takes them and as config.json records them
    settings = {
        "batch_size": args.batch_size,
        "n_models": args.n_models,
        "max_rows": args.max_rows,
        "reward": args.reward,
        "reward_map": args.reward_map,
        "train_budget": args.train_budget,
        "budget_reserve": args.budget_reserve,
        "budget_timing": args.budget_timing,
        "reward_examples": args.reward_examples,
        "reward_every": args.reward_every,
        "reward_start": args.reward_start,
        "reward_restart": args.reward_restart,
        "warmup_arm": args.warmup_arm,
        "rollback": args.rollback,
        "counterfactual": args.counterfactual,
        "arms": list(args.arms),
        "data_dir": args.data_dir,
        "model": args.model,
        "calibrator": args.calibrator,
        "calibrator_gamma": args.calibrator_gamma,
        "score": args.score,
        "target": args.target,
        "pos_label": args.pos_label,
        "c_fn_feature": args.c_fn_feature,
        "positive_prior": args.positive_prior,
    }
    cells = make_grid(
        args.datasets, args.policies, cost_ratios=args.cost_ratios, seeds=range(args.seeds),
        **settings,
    )
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; expected a directory for the results")
    _check_data(args.datasets, args.data_dir, args.target, args.pos_label, args.c_fn_feature)
    rows_note = (
        "whole streams"
        if args.max_rows is None
        else f"first {args.max_rows} examples of each stream (--max-rows all for whole streams)"
    ) + ("" if args.positive_prior is None
         else f", undersampled to a share of positives of {args.positive_prior:g}")
    print(
        f"streamboost {__version__}: {len(args.datasets)} dataset(s) x "
        f"{len(args.policies)} policies x {len(args.cost_ratios)} cost ratio(s) x "
        f"{args.seeds} seed(s) = {len(cells)} runs; {rows_note}"
    )
    print(
        f"backend {args.backend}"
        + (f" at {args.scheduler}" if args.scheduler else "")
        + f"; results in {out}/"
    )
    print("positive class: " + ", ".join(
        _positive_of(name, args.pos_label, args.target, args.data_dir) for name in args.datasets))
    if args.max_rows is not None:
        _warn_within_warm_up(f"--max-rows {args.max_rows} is", args.max_rows, args.batch_size,
                             "every policy is the same model, so their ranking is noise")

    def report(record: dict[str, typing.Any]) -> None:
        if record["status"] != "ok":
            c = record["config"]
            last = (record["error"] or "").strip().splitlines()[-1:]
            print(
                f"FAILED {c['dataset']} / {c['policy']} / cost ratio {c['cost_ratio']:g} / "
                f"seed {c['seed']}: {' '.join(last)} (traceback in "
                f"{out / 'cells' / (record['key'] + '.json')})",
                file=sys.stderr,
            )

    start = time.perf_counter()
    try:
        grid = run_grid(
            cells,
            out,
            backend=args.backend,
            n_jobs=args.n_jobs,
            scheduler=args.scheduler,
            progress=not args.no_progress,
            on_record=report,
        )
    except KeyboardInterrupt:
        store = CellStore(out / "cells")
        done = sum(store.load(c.key(), c.config()) is not None for c in cells)
        raise _Interrupted(
            f"interrupted; {done} of {len(cells)} runs kept in {out / 'cells'}; run the same "
            "command to resume"
        ) from None
    elapsed = time.perf_counter() - start
    rows = grid.rows()
    n_failed = len(grid.failed)
    print(
        f"{len(rows) - n_failed} runs ok ({grid.n_cached} from earlier runs), "
        f"{n_failed} failed, in {elapsed:.1f} s"
    )
    # The table keeps every run stored in this folder, earlier grids' too (merged, not
    # overwritten); the ranking below is this grid's.
    kept = result_rows(CellStore(out / "cells").records())
    results = write_table(kept, out / f"results.{args.format}")
    config = {
        "version": __version__,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": ["streamboost", *sys.argv[1:]] if args.argv is None else args.argv,
        "python": platform.python_version(),
        "grid": {
            "datasets": args.datasets,
            "policies": args.policies,
            "cost_ratios": args.cost_ratios,
            "seeds": list(range(args.seeds)),
            **settings,
        },
        "metric": args.metric,
        "alpha": args.alpha,
        "backend": args.backend,
        "runs": len(rows),
        "failed": n_failed,
        "seconds": elapsed,
    }
    with written(out / "config.json") as tmp:
        tmp.write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    print()
    comparison = None
    try:
        comparison = compare(rows, args.metric, alpha=args.alpha)
    except ValueError as error:
        print(f"No ranking: {error}")
    else:
        print(comparison.format())
        print()
        for policy in comparison.policies:
            print(f"  {policy}: {_describe(policy, args.warmup_arm)}")
    headline = _headline(grid.records, _river_baseline(args, cells))
    if headline:
        print()
        print(headline)
    print()
    earlier = len(kept) - len(rows)
    merged = f": this grid's {len(rows)} and {earlier} from earlier grids in {out}"
    print(
        f"results: {results} ({len(kept)} rows{merged if earlier else ''}), "
        f"configuration: {out / 'config.json'}"
    )
    if args.no_figures:
        print("figures: skipped (--no-figures)")
    else:
        print("figures: drawing ...", flush=True)
        try:
            paths = figures.grid_figures(grid.records, out / "figures")
            if comparison is not None and comparison.critical_difference is not None:
                paths += figures.save(
                    figures.critical_difference_diagram(
                        comparison.mean_ranks,
                        comparison.critical_difference,
                        title=f"Mean rank by {args.metric} over {len(comparison.datasets)} "
                        f"dataset(s), Nemenyi CD at alpha = {args.alpha}",
                    ),
                    out / "figures" / f"critical_difference_{args.metric}",
                )
        except ImportError as error:
            print(f"figures: skipped ({error})")
        else:
            print(f"figures: {len(paths)} files in {out / 'figures'}/")
    return 1 if n_failed else 0


def _datasets(args: argparse.Namespace) -> int:
    print(datasets.describe_registry(data_dir=args.data_dir))
    return 0


def main(argv: typing.Sequence[str] | None = None) -> int:
    """Entry point of the `streamboost` console script; returns the exit status.

    Bad arguments exit with status 2 and a message naming the bad value and the accepted
    ones (argparse); errors found later (a missing data file, an inconsistent option) print
    `streamboost: error: ...` and return 2; `compare` returns 1 when some run failed.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = None if argv is None else ["streamboost", *argv]
    if getattr(args, "model", None) == "oza-lr" and args.score is None:
        args.score = "soft"  # the library's default model, BanditCalibratedClassifier()'s
    handlers = {"run": _run, "compare": _compare, "datasets": _datasets}
    try:
        return handlers[args.command](args)
    except BrokenPipeError:  # first: it is a ConnectionError, which the next clause reports
        # The reader went away (e.g. `| head`): stop quietly, and keep Python from printing a
        # second error when it flushes stdout at exit.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except (
        ValueError, FileNotFoundError, ConnectionError, ImportError, IsADirectoryError
    ) as error:
        print(f"streamboost: error: {error}", file=sys.stderr)
        return 2
    except _Interrupted as message:
        print(f"\nstreamboost: {message}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\nstreamboost: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
