"""Prequential (test-then-train) evaluation of a probabilistic classifier on a stream.

Each example is first predicted (`predict_proba_one`), the prediction scored, and only then
learned (`learn_one`): every score is out-of-sample, and the whole stream is both training and
test data (Dawid 1984; Gama, Sebastião & Rodrigues 2013). `prequential` accumulates the
streamboost metrics and a per-minibatch trace; when the model is, or ends in, a
`BanditCalibratedClassifier` the trace also records which arm each minibatch went to and the
reward the policy received.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import math
import time
import typing

from river import base, compose
from river import metrics as river_metrics

from . import metrics
from .controller import BanditCalibratedClassifier
from .decision import positive_proba, validate_costs
from .scores import final_step
from .validation import check_bool, check_int, is_real

__all__ = ["RunResult", "find_controller", "prequential", "regret_curve"]

# One row per minibatch is enough to draw any curve along the stream and stays small (a 45k
# example stream at batch size 32 gives 1.4k rows).
_CALIBRATING_ARMS = frozenset({"calibrate", "both"})


def find_controller(model: base.Estimator) -> BanditCalibratedClassifier | None:
    """The `BanditCalibratedClassifier` that is `model` or the last step of its pipeline (of a
    pipeline nested in it too).

    Examples
    --------
    >>> from river import linear_model, preprocessing
    >>> from streamboost import evaluate
    >>> from streamboost.controller import BanditCalibratedClassifier
    >>> model = preprocessing.StandardScaler() | BanditCalibratedClassifier(seed=0)
    >>> type(evaluate.find_controller(model)).__name__
    'BanditCalibratedClassifier'
    >>> evaluate.find_controller(linear_model.LogisticRegression()) is None
    True

    """
    last = final_step(model)  # River's isinstance would take a nested pipeline for its end
    return last if isinstance(last, BanditCalibratedClassifier) else None


@dataclasses.dataclass
class RunResult:
    """What a prequential run measured: final metrics, allocation and the per-minibatch trace.

    Attributes
    ----------
    n, seconds
        Examples seen; the run's wall-clock duration.
    c_fp, c_fn, c_fn_feature
        The costs of the decisions `expected_cost` scores; the feature whose value times `c_fn`
        was each example's own cost of a false negative (`prequential`'s), or None.
    brier, log_loss
        Prequential Brier score and log-loss (River's `LogLoss`, clipped at 1e-15).
    expected_cost, normalised_cost
        Mean cost of the decisions "positive iff p > c_fp / (c_fp + c_fn)"; that cost divided
        by c_fp * negatives + c_fn * positives (each example's own c_fn with `c_fn_feature`).
    confusion_at_half
        TP, FP, TN, FN of the cost-blind decisions "positive iff p > 1/2" (`cost_at_half`).
    ece, final_ece, reliability
        Expected calibration error of every prediction, and of the last `final_window` (each
        made before its example was learned); the latter's reliability-diagram data.
    brier_curve, brier_curve_area
        The prequential Brier curve's points, dicts {"cost_ratio", "c", "q"} with the reference
        lines "all_positive" and "all_negative"; their trapezoidal area.
    arm_counts, n_batches, cumulative_reward
        With a controller: minibatches per arm (else None), minibatches finished (else 0) and
        the sum of its policy's rewards.
    n_drifts, n_rounds
        Changes the controller's drift detector flagged, else None; the rounds its policy
        learned from (what a bandit's speed depends on), None for a schedule.
    trace
        One dict per row: "n", "brier" and "log_loss" (cumulative), and with a controller
        "batch", "arm", "rewarded_arm", "reward" of the minibatch just finished and "rewards",
        every arm's reward measured in that round (None where no round was scored).

    """

    n: int
    c_fp: float
    c_fn: float
    brier: float
    log_loss: float
    expected_cost: float
    normalised_cost: float
    ece: float
    final_ece: float
    reliability: dict[str, list[float]]
    brier_curve: list[dict[str, float]]
    brier_curve_area: float
    arm_counts: dict[str, int] | None
    n_batches: int
    cumulative_reward: float
    trace: list[dict[str, typing.Any]]
    seconds: float
    confusion_at_half: dict[str, float] | None = None
    n_drifts: int | None = None
    n_rounds: int | None = None
    c_fn_feature: typing.Hashable | None = None

    def cost_at_half(self, c_fp: float, c_fn: float) -> float:
        """Mean cost per example, under costs (c_fp, c_fn), of the decisions "p > 1/2"."""
        validate_costs(c_fp, c_fn)
        if self.confusion_at_half is None:
            raise ValueError("this result has no confusion_at_half (made by an older version)")
        counts = self.confusion_at_half
        return (c_fp * counts["fp"] + c_fn * counts["fn"]) / self.n

    def cost_at_threshold(self, cost_ratio: float) -> float:
        """Mean cost per example under c_FP = 1, c_FN = `cost_ratio` of the decisions
        "p > c_FP / (c_FP + c_FN)", read off the Brier curve: (1 + ratio) * Q(c) / 2."""
        for point in self.brier_curve:
            if math.isclose(point["cost_ratio"], cost_ratio):
                return (1.0 + cost_ratio) * point["q"] / 2.0
        ratios = [point["cost_ratio"] for point in self.brier_curve]
        raise ValueError(f"cost_ratio {cost_ratio!r} is not on the Brier curve; have {ratios}")

    @property
    def calibrate_fraction(self) -> float:
        """Share of minibatches in which the calibrator learned (arms "calibrate" and "both");
        NaN without a controller."""
        if not self.arm_counts:
            return math.nan
        total = sum(self.arm_counts.values())
        spent = sum(v for k, v in self.arm_counts.items() if k in _CALIBRATING_ARMS)
        return spent / total if total else math.nan

    @property
    def regret(self) -> float | None:
        """The policy's regret at the end of the run against the best fixed arm in hindsight,
        over the rounds that measured every arm (`regret_curve`); None for a schedule, or a
        run with no such round."""
        curve, rounds = _regrets(self.trace)
        return curve[-1] if rounds else None

    def summary(self) -> dict[str, float | int]:
        """The scalar results, one flat dict (a row of a results table)."""
        row: dict[str, float | int] = {
            "n": self.n,
            "brier": self.brier,
            "log_loss": self.log_loss,
            "expected_cost": self.expected_cost,
            "normalised_cost": self.normalised_cost,
            "ece": self.ece,
            "final_ece": self.final_ece,
            "brier_curve_area": self.brier_curve_area,
            "n_batches": self.n_batches,
            "calibrate_fraction": self.calibrate_fraction,
            "cumulative_reward": self.cumulative_reward,
            "seconds": self.seconds,
        }
        for arm, count in sorted((self.arm_counts or {}).items()):
            row[f"batches_{arm}"] = count
        if self.n_drifts is not None:
            row["n_drifts"] = self.n_drifts
        if self.n_rounds is not None:
            row["n_rounds"] = self.n_rounds
        regret = self.regret
        if regret is not None:
            row["regret"] = regret
        return row

    def to_dict(self) -> dict[str, typing.Any]:
        """A JSON-ready dict; `RunResult(**d)` restores the result."""
        return dataclasses.asdict(self)


def regret_curve(trace: typing.Sequence[typing.Mapping[str, typing.Any]]) -> list[float]:
    r"""A controller's regret after each row of a `prequential` trace, against the best fixed
    arm in hindsight.

    Over the rounds that measured every arm's reward (a round whose action trained the model
    scores all the arms, `counterfactual`; one that scored only the arm taken says nothing of
    the others), with $a_t$ the arm taken in round $t$ and $r_t(a)$ arm $a$'s reward,

    $$R_T = \max_a \sum_{t \le T} r_t(a) - \sum_{t \le T} r_t(a_t),$$

    the weak regret of Auer, Cesa-Bianchi, Freund & Schapire (2002), here on full-information
    rounds (Mannor & Shamir 2011). It is in the policy's reward units and measured on the
    noisy rewards themselves, so a policy that follows the best arm keeps it near 0 and one
    that explores for nothing lets it grow linearly; below 0 the policy beat every fixed arm
    (it can follow a change). It judges the choices by the policy's own one-step reward, not
    the model: a round whose arm did not train is left out (its other arms are unknown), and
    where the arms' rewards differ by a fraction of their noise every policy's regret stays
    small, whatever its Brier score (simulations/forgetting_policies.md). 0 before the first
    such round; a trace without rewards (a schedule's, or one made before 0.8.32) gives zeros.

    Examples
    --------
    >>> from streamboost.evaluate import regret_curve
    >>> rewards = [{"train": 0.4, "both": 0.6}, {"both": 0.9}, {"train": 0.5, "both": 0.7}]
    >>> trace = [{"rewarded_arm": arm, "rewards": r}
    ...          for arm, r in zip(["train", "both", "train"], rewards)]
    >>> [round(r, 3) for r in regret_curve(trace)]  # the second round measured one arm
    [0.2, 0.2, 0.4]

    """
    return _regrets(trace)[0]


def _regrets(trace: typing.Sequence[typing.Mapping[str, typing.Any]]) -> tuple[list[float], int]:
    """`regret_curve`, and the number of rounds that measured every arm."""
    arms: set = set()
    for row in trace:
        arms.update(row.get("rewards") or ())
    totals = dict.fromkeys(arms, 0.0)
    taken = regret = 0.0
    curve, rounds = [], 0
    for row in trace:
        rewards = row.get("rewards")
        if rewards and len(rewards) == len(arms):
            for arm, reward in rewards.items():
                totals[arm] += reward
            taken += rewards[row["rewarded_arm"]]
            regret = max(totals.values()) - taken
            rounds += 1
        curve.append(regret)
    return curve, rounds


def prequential(
    model: base.Classifier | compose.Pipeline,
    stream: typing.Iterable[tuple[dict, typing.Hashable]],
    *,
    c_fp: float = 1.0,
    c_fn: float = 1.0,
    c_fn_feature: typing.Hashable | None = None,
    pos_label: typing.Hashable = True,
    cost_ratios: tuple[float, ...] = metrics.THESIS_COST_RATIOS,
    n_bins: int = 10,
    final_window: int = 1000,
    trace_every: int | None = None,
    max_rows: int | None = None,
    progress: bool = False,
    total: int | None = None,
) -> RunResult:
    """Test-then-train `model` on `stream` and return the metrics and the trace.

    Parameters
    ----------
    model
        A River binary classifier with `predict_proba_one` and `learn_one` (typically a
        `BanditCalibratedClassifier`, alone or ending a pipeline), trained in place.
    stream, pos_label
        Pairs `(x, y)`; `y == pos_label` is a positive.
    c_fp, c_fn
        Costs of a false positive / false negative for `expected_cost`.
    c_fn_feature
        A feature whose value times `c_fn` is each example's own cost of a false negative (a
        transaction's amount), deciding and charging it (`metrics.ExpectedCost`); every
        example must have it, finite and > 0, checked before it is scored. None: `c_fn`. A
        controller learns each example with its costs (its realised-cost reward reads them).
    cost_ratios, n_bins, final_window
        The Brier curve's cost ratios c_FN / c_FP (default: the thesis's 21); bins of the
        calibration error; how many last predictions `final_ece` and `reliability` describe.
    trace_every
        Without a controller, a trace row every `trace_every` examples (default 32); with a
        controller there is one row per finished minibatch and this must be None.
    max_rows, progress, total
        Stop after this many examples (None: all); a tqdm bar (the `progress` extra) and the
        stream's length for it.

    Examples
    --------
    >>> from river import datasets, linear_model, preprocessing
    >>> from streamboost import evaluate
    >>> model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
    >>> result = evaluate.prequential(model, datasets.Phishing(), c_fp=1.0, c_fn=10.0)
    >>> result.n, len(result.trace), result.trace[0]["n"]
    (1250, 39, 32)
    >>> round(result.brier, 4), round(result.log_loss, 4), round(result.expected_cost, 4)
    (0.0973, 0.3301, 0.4264)

    References
    ----------
    - Dawid, A. P. (1984). Present position and potential developments: some personal views.
      Statistical theory, the prequential approach. JRSS A 147(2), 278-292.
    - Gama, J., Sebastião, R. & Rodrigues, P. P. (2013). On evaluating stream learning
      algorithms. Machine Learning 90(3), 317-346.

    """
    validate_costs(c_fp, c_fn)
    progress = check_bool("progress", progress)
    final_window = check_int("final_window", final_window, 1)
    max_rows = check_int("max_rows", max_rows, 1, none=True)
    total = check_int("total", total, 1, none=True)
    controller = find_controller(model)
    # River declares no keyword for a classifier's learn_one; a pipeline passes them on
    learner: typing.Any = model
    if controller is not None and trace_every is not None:
        raise ValueError(
            f"trace_every={trace_every!r} cannot be used with a BanditCalibratedClassifier: "
            "its trace has one row per minibatch"
        )
    trace_every = check_int("trace_every", trace_every, 1, none=True)
    every = 32 if trace_every is None else trace_every

    brier = metrics.BrierScore()
    log_loss = river_metrics.LogLoss()
    cost = metrics.ExpectedCost(c_fp=c_fp, c_fn=c_fn)
    argmax_cost = metrics.ExpectedCost(c_fp=1.0, c_fn=1.0)
    curve = metrics.BrierCurve(cost_ratios=cost_ratios)
    ece = metrics.ExpectedCalibrationError(n_bins=n_bins)
    recent: collections.deque[tuple[bool, float]] = collections.deque(maxlen=final_window)

    if max_rows is not None:
        stream = itertools.islice(stream, max_rows)
        total = max_rows if total is None else min(total, max_rows)
    bar = _progress_bar(total) if progress else None
    trace: list[dict[str, typing.Any]] = []
    cumulative_reward = 0.0
    n_batches = 0
    n = 0
    start = time.perf_counter()
    try:
        for x, y in stream:
            own_c_fn = None if c_fn_feature is None else _own_c_fn(x, c_fn_feature, c_fn, n)
            p = positive_proba(model.predict_proba_one(x), pos_label)
            positive = y == pos_label
            for metric in (brier, argmax_cost, curve, ece):
                metric.update(positive, p)
            if own_c_fn is None:
                cost.update(positive, p)
            else:
                cost.update(positive, p, c_fn=own_c_fn)
            log_loss.update(positive, p)
            recent.append((positive, p))
            if own_c_fn is None or controller is None:
                learner.learn_one(x, y)
            else:  # what its realised-cost reward charges (a pipeline passes them on)
                learner.learn_one(x, y, c_fp=c_fp, c_fn=own_c_fn)
            n += 1
            if controller is not None:
                if controller.n_batches > n_batches:
                    n_batches = controller.n_batches
                    batch = controller.last_batch
                    assert batch is not None  # a minibatch has ended
                    if batch["reward"] is not None:
                        cumulative_reward += batch["reward"]
                    trace.append(
                        {
                            "n": n,
                            "brier": brier.get(),
                            "log_loss": log_loss.get(),
                            "batch": batch["batch"],
                            "arm": batch["arm"],
                            "rewarded_arm": batch["rewarded_arm"],
                            "reward": batch["reward"],
                            "rewards": batch["rewards"],
                        }
                    )
            elif n % every == 0:
                trace.append({"n": n, "brier": brier.get(), "log_loss": log_loss.get()})
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    if n == 0:
        raise ValueError("the stream is empty: nothing to evaluate")

    final = metrics.ExpectedCalibrationError(n_bins=n_bins)
    for positive, p in recent:
        final.update(positive, p)
    reference = curve.reference_lines()
    points = [
        {
            "cost_ratio": point.cost_ratio,
            "c": point.c,
            "q": point.q,
            "all_positive": all_pos,
            "all_negative": all_neg,
        }
        for point, all_pos, all_neg in zip(
            curve.curve(), reference["all_positive"], reference["all_negative"], strict=True
        )
    ]
    return RunResult(
        n=n,
        c_fp=float(c_fp),
        c_fn=float(c_fn),
        brier=brier.get(),
        log_loss=log_loss.get(),
        expected_cost=cost.get(),
        normalised_cost=cost.normalised_cost(),
        ece=ece.get(),
        final_ece=final.get(),
        reliability=final.reliability_diagram(),
        brier_curve=points,
        brier_curve_area=curve.get(),
        arm_counts=dict(controller.arm_counts) if controller is not None else None,
        n_batches=n_batches,
        cumulative_reward=cumulative_reward,
        trace=trace,
        seconds=seconds,
        confusion_at_half=dict(argmax_cost.confusion()),
        n_drifts=controller.n_drifts
        if controller is not None and controller.drift_detector_ is not None else None,
        n_rounds=controller.policy_.n_rounds
        if controller is not None and controller.policy_.uses_rewards else None,
        c_fn_feature=c_fn_feature,
    )


def _own_c_fn(x: dict, feature: typing.Hashable, c_fn: float, n: int) -> float:
    """Example `n`'s own cost of a false negative: `c_fn` times its value of `feature`,
    checked as every cost is (`decision.validate_costs`)."""
    value = x.get(feature)
    try:
        if not is_real(value):
            raise TypeError(f"got {type(value).__name__}")
        return validate_costs(1.0, c_fn * float(value))[1]
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"example {n} has {feature!r} = {value!r}; c_fn_feature needs a "
                         f"number there whose product with c_fn = {c_fn!r} is finite and > 0 "
                         f"({error})") from None


def _progress_bar(total: int | None, unit: str = "ex"):
    """A tqdm progress bar, or None without the `progress` extra: a core install runs every
    default command, the extras only add. Off when the output is not a terminal (a log file
    or a pipe would keep the bar's first frame in front of the results)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit=unit, mininterval=0.5, leave=False, disable=None)
