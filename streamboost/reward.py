r"""The controller's reward: what an action did to the loss, paired on the next minibatch.

The action of minibatch $t$ is scored on (a sample of) minibatch $t + 1$: the model and
calibrator as they stand after $t$ against the same pair with the component(s) the action
changed rolled back to their state at the start of $t$. Both predict the same examples, so
batch-to-batch noise cancels out of the difference

$$\Delta_t = \frac{1}{|S_{t+1}|} \sum_{i \in S_{t+1}} \ell(\text{before}_t, x_i, y_i) -
\ell(\text{after}_t, x_i, y_i),$$

with $\ell$ the log-loss, the squared error or the realised cost divided by
$c_{FP} + c_{FN}$. Where costs differ by example (given to `learn_one`), the realised cost's
mean is weighed by each example's $c_{FP} + c_{FN}$: the sample's realised cost over its
total, so that a round ranks the arms by what the run is charged, within $[-1, 1]$ still
(dividing each example by its own total would make a missed large fraud cost little more than
a missed small one). A minibatch that trains the model also reveals what `"calibrate"` and
`"both"` would have earned (a shadow calibrator learns the same prequential scores):
counterfactual rewards, one round with side observations (Mannor & Shamir 2011).

**From improvements to rewards** (`mapping`). A policy ranks arms by their mean reward, so the
map must keep the order of the arms' mean improvements, also when gains are heavy-tailed (a
calibrator's few large wins among many small losses). Only an affine map does for every
distribution, so `"affine"` (the default) is one:

* a policy with a reward range $[a, b]$ gets $a + (b - a)(1 + \Delta / B)/2$, with $B$ the
  largest possible $|\Delta|$ of the loss (`LOSS_BOUNDS`: 1 for the squared error and the
  normalised cost, $-\log 10^{-15}$ for the log-loss): always inside the range, exactly;
* a policy that takes any real (Gaussian Thompson, epsilon-greedy) gets $\Delta / \sigma$,
  with $\sigma$ the running root-mean-square improvement of the *earlier* rounds (so a round's
  own outlier does not shrink its own reward), which suits their unit-scale defaults.

The rewards of a bounded policy then differ by a small fraction of the range; that costs little
exploration when a training minibatch scores every arm (their counts grow together), and more
when only the arm taken is scored: in the forced split, where a calibrating minibatch scores
only itself, the UCB bonus rather than the reward decides (simulations/forced_split_bonus.md).
`"logistic"` is the map before version 0.4: $\Delta$ over the running RMS (this round
included), squashed by the logistic function into the range. It separates arms sooner but can
rank them against their mean gains (tested); it is kept to reproduce earlier reports.

When every arm trains the model (arms `"train"` and `"both"`, no `"calibrate"`), the model's part
of each arm's improvement is the same for all of them, so it is left out (`model_free`): the
arms are compared on the live model's scores with the calibrator before and after, and the model
is never copied. Copies are what make rewards expensive (a grown tree's pickle costs hundreds of
examples' learning); the arms' order is unchanged, since a term common to all arms of a round
shifts every one of their rewards alike.

**Rolling back without a copy** (`rollback="defer"`). Instead of copying the model as it stood,
the controller can hold back what it learns: the examples of a measured training minibatch $t$
are learned at the end of minibatch $t + 1$, after the live model, still as it was before $t$,
has scored $t + 1$ (its prequential scores, computed anyway, are the "before"); having learned
them, it scores the sample again (the "after"). Both are the states a copy would have frozen, so
the model's part of each improvement is the copy's. The model lags one minibatch on measured
rounds and the one after: its prequential scores there, and so what the calibrator learns, come
from a model that stands still through the minibatch instead of learning as it goes.

**Scoring a round on its own minibatch** (`rollback="holdout"`). The first $k$ examples of a
measured minibatch $t$ are held out of every learner as they come, their prequential scores
(the model and calibrator as $t$ began) recorded as the "before". The rest of $t$ is routed by
the arm as usual; when $t$ ends, the model scores the $k$ examples again (the "after": it has
learned $t$ but them), the round is scored, and the $k$ examples are routed last with those
scores (still prequential: the model has not learned them; since 0.8.15, which saves scoring
them a third time). So $S_{t+1}$ above becomes the head of $t$, no copy is made,
only $k$ examples are learned late (within their minibatch), and a round's reward arrives when
its minibatch ends. The head precedes what the model learned in time, where the copy's sample
follows it; on a stationary stream both estimate the same improvement.

**Which rollback** (`rollback="auto"`, the default since 0.8.14; `resolve_rollback`): the
holdout where a copy costs far more than the minibatch it measures (a River tree or forest,
measuring every minibatch, or the first `reward_start` of them; what each costs and scores:
docs/controller.md), the copy everywhere else.

**Measuring less** (`reward_every`, `reward_start`): after the first `reward_start`
minibatches, each measured, one in `reward_every` is. Measured rounds are what a policy learns
from, and between them its choice stands, so thinning from the start let the first, noisy
rounds decide for long stretches; measured densely first, a thinned bandit scores as one
measured throughout (the figures: docs/controller.md, simulations/rollback.md).
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import typing

import numpy as np

from . import kernels
from .scores import FrozenScorer, Model, frozen_by_pickle, positive_scores
from .state import InlineState
from .validation import LazyRecords

if typing.TYPE_CHECKING:
    from .calibration import Calibrator

__all__ = ["LOSSES", "LOSS_BOUNDS", "MAPPINGS", "ROLLBACKS", "PairedReward", "check_rollback",
           "held_out", "mean_losses", "no_change", "resolve_rollback", "squash"]

LOSSES = ("log-likelihood", "brier", "expected-cost")
_LOSS_INDEX = {name: i for i, name in enumerate(LOSSES)}  # as the kernel `loss_means` takes it
MAPPINGS = ("affine", "logistic")
ROLLBACKS = ("copy", "defer", "holdout")

# Probabilities are clipped this far from 0 and 1 before taking logs, as River's LogLoss does.
_LOG_EPS = 1e-15

#: The largest possible per-example loss, hence the largest |improvement| of a round.
LOSS_BOUNDS = {"log-likelihood": -math.log(_LOG_EPS), "brier": 1.0, "expected-cost": 1.0}


def mean_losses(name: str, probabilities: np.ndarray, positives: list[bool],
                thresholds: list[float] | None = None,
                stakes: list[float] | None = None) -> list[float]:
    """The mean loss `name` of each row of `probabilities` (a 2-D float array, one column per
    example) for examples of classes `positives`; the realised cost also needs each example's
    threshold c_FP / (c_FP + c_FN). The log-loss clips p to [1e-15, 1 - 1e-15], as River's
    LogLoss does. Each example's loss is taken with the C library's `log` (as `math.log`:
    numpy's vectorised one differs from it in the last bit on some machines) and a row's sum
    is `math.fsum`'s, correctly rounded, so the compiled kernel gives the same floats.
    `stakes` (costs per example, the realised cost only): each example's c_FP + c_FN (or any
    multiple of them), by which its normalised cost is weighed, so that a row's mean is its
    realised cost over its examples' total c_FP + c_FN; equal stakes weigh nothing.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.reward import mean_losses
    >>> p = np.array([[0.9, 0.2], [0.5, 0.5]])
    >>> [round(v, 3) for v in mean_losses("brier", p, [True, True])]
    [0.325, 0.25]
    >>> mean_losses("expected-cost", p, [True, True], [0.5, 0.5])  # positive iff p > 0.5
    [0.25, 0.5]
    >>> mean_losses("expected-cost", p, [True, True], [0.5, 0.5], stakes=[1.0, 3.0])
    [0.375, 0.5]

    """
    if name not in _LOSS_INDEX:
        raise ValueError(f"loss must be one of {LOSSES}, got {name!r}")
    if name == "expected-cost" and thresholds is None:
        raise ValueError("the expected cost needs each example's threshold: pass thresholds")
    if stakes is not None and name != "expected-cost":
        raise ValueError(f"stakes weigh the realised cost of each example; {name!r} reads none")
    return _means(name, probabilities, positives, thresholds, stakes)


def _means(name: str, probabilities: np.ndarray, positives: list[bool],
           thresholds: list[float] | None, stakes: list[float] | None) -> list[float]:
    """`mean_losses` of checked arguments: weighed only where the stakes differ (equal ones
    leave the compiled kernel's floats)."""
    if stakes and thresholds is not None and min(stakes) != max(stakes):
        return _weighed_costs(probabilities, positives, thresholds, stakes)
    return _MEAN_LOSSES(_LOSS_INDEX[name], probabilities, positives, thresholds or None)


def _weighed_costs(probabilities: np.ndarray, positives: list[bool], thresholds: list[float],
                   stakes: list[float]) -> list[float]:
    """Each row's realised cost over its examples' total stake, sum(w_i l_i) / sum(w_i), with
    l_i an example's normalised cost (`_loss`) and w_i its stake over the largest (no sum can
    overflow)."""
    top = max(stakes)
    w = [stake / top for stake in stakes]
    total = math.fsum(w)
    return [math.fsum(wi * _loss(2, p, positive, t) for wi, p, positive, t
                      in zip(w, row, positives, thresholds, strict=True)) / total
            for row in probabilities.tolist()]


def _loss(loss: int, p: float, positive: bool, threshold: float) -> float:
    """One example's loss: `LOSSES[loss]` of probability `p` (the kernel's `example_loss`)."""
    if loss == 0:
        p = min(max(p, _LOG_EPS), 1.0 - _LOG_EPS)
        return -math.log(p if positive else 1.0 - p)
    if loss == 1:
        d = p - positive
        return d * d
    return (1.0 - threshold if positive else threshold) if (p > threshold) != positive else 0.0


def loss_means(loss: int, probabilities: np.ndarray, positives: list[bool],
               thresholds: list[float] | None) -> list[float]:
    """`mean_losses` with the loss's index in `LOSSES`; the twin of the compiled
    `loss_means`."""
    n = len(positives)
    if loss == 2 and thresholds is None:  # the kernel's error
        raise TypeError(f"thresholds must be a list of {n} items")
    t = thresholds if thresholds is not None and loss == 2 else [0.0] * n
    return [math.fsum(map(_loss, [loss] * n, row, positives, t)) / n
            for row in probabilities.tolist()]


# The twin also serves a compiled module built before this kernel: the same floats, slower.
_MEAN_LOSSES = getattr(kernels.compiled, "loss_means", loss_means)


def resolve_rollback(rollback: str, model: Model, batch_size: int,
                     reward_examples: int | None, reward_every: int, model_free: bool,
                     measures: bool = True, *, reward_start: int,
                     score_key: typing.Hashable = True) -> str:
    """The rollback a controller uses: `rollback` itself, or for `"auto"`, `"holdout"` for a
    model that grows with the stream (a River tree or forest, alone, in a pipeline or as a
    booster's members: its pickle costs hundreds of examples' learning) when a bandit measures
    every minibatch (`reward_every` 1) or the first `reward_start` of them, and `"copy"`
    otherwise (an array booster or a linear model copies in the time of a few examples;
    measuring one minibatch in N from the start, copies are N times rarer and score more
    examples than a holdout). A model whose copy is a pickle (`scores.frozen_by_pickle`, for its
    `score_key`) and that cannot be pickled (a lambda in a `FuncTransformer`) is held out
    always, or deferred where the holdout cannot be; with `"copy"` it raises ValueError.
    Nothing is copied when the arms are model-free or the policy `measures` no reward (a
    schedule), nor held out where the holdout cannot be (`batch_size` 1, `reward_examples` >=
    `batch_size`). `reward_start` has no default: the controller's (64) decides the rule, so a
    caller states it. A rollback that `check_rollback` refuses raises ValueError.

    Examples
    --------
    >>> from river import linear_model, tree
    >>> from streamboost.reward import resolve_rollback
    >>> ht, lr = tree.HoeffdingTreeClassifier(), linear_model.LogisticRegression()
    >>> [resolve_rollback("auto", m, 32, None, every, False, reward_start=start)
    ...  for m, every, start in [(ht, 1, 0), (ht, 16, 64), (ht, 16, 0), (lr, 1, 0)]]
    ['holdout', 'holdout', 'copy', 'copy']

    """
    check_rollback(rollback, batch_size, reward_examples)
    copies = measures and not model_free
    can_hold = batch_size >= 2 and (reward_examples is None or reward_examples < batch_size)
    # only a copy that is a pickle must pickle; pickling the live model to find out would
    # slow it for good (docs/reliability.md)
    pickles = copies and frozen_by_pickle(model, score_key)
    if rollback == "copy" and pickles and (error := _unpicklable(model)) is not None:
        raise ValueError(
            f"rollback='copy' freezes copies of the model, and {type(model).__name__} cannot "
            f"be copied ({error}): use rollback='holdout' or 'defer', which copy nothing, or a "
            "model that pickles (a named function where a lambda is)")
    if rollback != "auto":
        return rollback
    grows = _grows(model) and (reward_every == 1 or reward_start > 0) and can_hold
    if copies and (grows or (pickles and _unpicklable(model) is not None)):
        return "holdout" if can_hold else "defer"
    return "copy"


def check_rollback(rollback: str, batch_size: int, reward_examples: int | None) -> None:
    """Raise ValueError unless `rollback` is `"auto"` or one of `ROLLBACKS`, and, for
    `"holdout"`, unless the minibatch leaves examples to learn from (`held_out`).

    Examples
    --------
    >>> from streamboost.reward import check_rollback
    >>> check_rollback("holdout", 1, None)
    Traceback (most recent call last):
    ...
    ValueError: rollback='holdout' scores a minibatch's first examples and learns from ...

    """
    if rollback not in ("auto", *ROLLBACKS):
        raise ValueError(f"rollback must be 'auto' or one of {ROLLBACKS}, got {rollback!r}")
    if rollback == "holdout":
        held_out(batch_size, reward_examples)


def _unpicklable(model) -> str | None:
    """Why `model` cannot be copied (pickled, as `scores.snapshot` copies it), or None."""
    try:
        pickle.dumps(model)
    except Exception as error:  # what pickle raises varies: PicklingError, AttributeError, ...
        return f"{type(error).__name__}: {error}"
    return None


def _grows(model) -> bool:
    """Whether `model` is, or holds as steps or members, a River tree or forest."""
    from river import base, compose

    if isinstance(model, compose.Pipeline):
        return any(_grows(step) for step in model.steps.values())
    if isinstance(model, base.Wrapper):  # a booster's or a bagging's members copy this one
        return _grows(model._wrapped_model)
    return type(model).__module__.startswith(("river.tree.", "river.forest."))


def held_out(batch_size: int, reward_examples: int | None) -> int:
    """How many first examples of a measured minibatch `rollback="holdout"` scores:
    `reward_examples`, by default one in 32, at least one (each is learned late and costs the
    model a prediction more; over 7 streams 1 of 32 scored as well as 4 on average, and better
    on the autocorrelated one: docs/controller.md); the rest must be at least one example to
    learn from (ValueError otherwise).

    Examples
    --------
    >>> from streamboost.reward import held_out
    >>> held_out(32, None), held_out(128, None), held_out(32, 8), held_out(2, None)
    (1, 4, 8, 1)

    """
    if batch_size < 2:
        raise ValueError(
            f"rollback='holdout' scores a minibatch's first examples and learns from the others, "
            f"so batch_size must be >= 2, got {batch_size!r}")
    if reward_examples is None:
        return max(1, batch_size // 32)
    if reward_examples >= batch_size:
        raise ValueError(
            f"rollback='holdout' needs examples left to learn from: reward_examples must be < "
            f"batch_size ({batch_size}), got {reward_examples!r}")
    return reward_examples


def no_change(reward_range: tuple[float, float] | None) -> float:
    """The reward of a round whose improvement is 0, for a policy of `reward_range`: its middle
    (either map), or 0 for a policy that takes any real (an improvement over the running RMS).

    Examples
    --------
    >>> from streamboost.reward import no_change
    >>> no_change((0.0, 1.0)), no_change(None)
    (0.5, 0.0)

    """
    if reward_range is None:
        return 0.0
    low, high = reward_range
    return low + (high - low) * 0.5


def squash(z: float, low: float, high: float) -> float:
    """$a + (b - a)/(1 + e^{-z})$: no change (z = 0) maps to the middle of [low, high].

    Examples
    --------
    >>> from streamboost.reward import squash
    >>> squash(0.0, 0.0, 1.0), round(squash(2.0, -1.0, 1.0), 4)
    (0.5, 0.7616)

    """
    s = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
    return low + (high - low) * s


# arm -> (whether its calibrator is the one after the action, whether its model is)
_CELLS = {"train": (0, 1), "calibrate": (1, 0), "both": (1, 1)}


def calibrated(calibrator: Calibrator, score: float) -> float:
    """The calibrator's probability of a model's score (a float in [0, 1], unchecked), or the
    score itself while the calibrator has learned nothing."""
    return calibrator._predict(score) if calibrator._n_seen else score


def calibrated_many(calibrator: Calibrator, scores: np.ndarray) -> np.ndarray:
    """`calibrated` of each score of a float array in [0, 1] (unchecked: the model's)."""
    return calibrator._predict_many(scores) if calibrator.n_seen else scores


@dataclasses.dataclass
class _Round:
    """A measured action, being scored on the minibatch after it."""

    arm: int  # the action taken
    arms: tuple[int, ...]  # the arms scored: the action and its counterfactuals
    names: tuple[str, ...]  # their names
    model_before: FrozenScorer | None  # the model before the action (None: it did not train)
    # rollback "defer" or "holdout": the live model, which did not learn the action's examples
    # ("defer") or the scored ones ("holdout") before their scores were recorded, so those are
    # the "before" and it scores the "after" at the round's end ("holdout": the controller
    # does, `end`'s `held_scores`; None: not held)
    held_by: typing.Any
    calibrator_before: typing.Any
    # None: the live calibrator as the next minibatch began ("holdout": the one that learns)
    calibrator_after: typing.Any
    # the scored examples of the next minibatch: copies (when a frozen model scores them; by
    # minibatch, `validation.LazyRecords`), the live model's scores, the classes, the cost
    # thresholds (for the realised cost)
    rows: typing.Sequence[dict] = dataclasses.field(default_factory=list)
    scores: list = dataclasses.field(default_factory=list)
    positives: list = dataclasses.field(default_factory=list)
    thresholds: list = dataclasses.field(default_factory=list)
    stakes: list = dataclasses.field(default_factory=list)  # where costs differ by example


class PairedReward(InlineState):
    """Measures the controller's rewards: snapshots, paired losses, the reward scale.

    The controller calls `begin` as a minibatch starts that is measured or scores a round
    (`recording`), `shadow` where a `"train"` minibatch's calibrator would have learned,
    `observe` with a `recording` minibatch's examples (scored before anything learned them) as
    it ends, and `end` as any minibatch ends, which returns the rewards of the round scored on
    it. `end` scores the whole sample at once (one matrix product per frozen array booster).

    Parameters
    ----------
    loss, mapping, smoothing
        One of `LOSSES`; `"affine"` or `"logistic"`; the newest round's weight in the scale.
    sample
        In-minibatch positions of the examples that score a round (a `range` is kept as is).
    model_free
        Every arm trains the model: leave its common part out and never copy it.
    rollback
        One of `ROLLBACKS`. `"defer"`: `holding` says the minibatch's training examples wait
        until the `end` that scores the next. `"holdout"` (`holds_out`): a round is scored on
        its own minibatch's first examples (`sample` a prefix), kept from every learner
        until `end`, which takes the live model's scores of them (the "after").
    score_key
        The label whose probability is the model's score (`scores.positive_score`).

    Examples
    --------
    Arms train and both (model-free): minibatch 0 trains and calibrates, minibatch 1 scores it.

    >>> from streamboost.calibration import OnlinePlattCalibrator
    >>> from streamboost.reward import PairedReward
    >>> calibrator = OnlinePlattCalibrator(gamma=1.0)
    >>> meter = PairedReward("brier", smoothing=0.05, sample=(0, 1), model_free=True)
    >>> names = ("train", "both")
    >>> meter.begin(True, 1, names, (0, 1), model=None, calibrator=calibrator)
    >>> for s, y in [(0.9, False), (0.8, False), (0.9, False), (0.7, False)]:
    ...     calibrator.learn_one(s, y)  # the "both" action: the calibrator learns
    >>> meter.end((0.0, 1.0)) is None  # nothing was being scored yet
    True
    >>> meter.begin(True, None, names, (), model=None, calibrator=calibrator)
    >>> meter.observe([{}, {}], [0.9, 0.8], [False, False])
    >>> arm, arms, scored, improvements, rewards = meter.end((0.0, 1.0))
    >>> scored, improvements[0], improvements[1] > 0, rewards[1] > 0.5
    (('train', 'both'), 0.0, True, True)

    """

    def __init__(
        self,
        loss: str,
        smoothing: float,
        sample: typing.Collection[int],
        model_free: bool = False,
        mapping: str = "affine",
        score_key: typing.Hashable = True,
        rollback: str = "copy",
    ):
        self.loss = loss
        self.mapping = mapping
        self.smoothing = smoothing
        # a range (every position) stays one: its size is the minibatch's, whatever that is;
        # other positions are kept in order, to pick a minibatch's rows by position
        self.sample = sample if isinstance(sample, range) else tuple(sorted(set(sample)))
        self.model_free = model_free
        self.rollback = rollback
        self.score_key = score_key
        self.holding = False  # whether this minibatch's training examples wait ("defer")
        # "holdout": a recording minibatch's sampled examples wait for its end
        self.holds_out = rollback == "holdout"
        self.scale = 0.0  # running mean of squared improvements
        self._round: _Round | None = None  # being scored on the current minibatch
        # `_round is not None`, kept as an attribute: the controller asks it every example
        self.recording = False  # whether `observe` records this minibatch's examples
        self._next: _Round | None = None  # the current minibatch's own action
        self._model_start: FrozenScorer | None = None  # the model as this minibatch began
        self._calibrator_start: Calibrator | None = None
        self._shadow: Calibrator | None = None
        # the pairs a measured `"train"` minibatch's shadow calibrator learns, in order, in one
        # call as the minibatch ends (`_settle`): scores, then classes
        self._shadowed: tuple[list, list] = ([], [])
        # whether `observe` keeps the examples themselves (a frozen or deferred model scores
        # them), not only their scores: their dicts must not change until the minibatch ends;
        # set as the rounds change (`_keeping`), read every example
        self.keeps_rows = False

    def begin(self, trains: bool, arm: int | None, names: tuple[str, ...],
              measured: tuple[int, ...], model: Model | None,
              calibrator: Calibrator) -> None:
        """A minibatch starts: `trains` says whether its action trains the model, `arm` is the
        action if this minibatch's reward is measured (else None), `measured` the arms its
        round will score."""
        if self.holds_out:
            self._begin_own(arm, names, measured, model, calibrator)
            return
        scoring = self._round is not None
        # Frozen copies of what the current action changes: the model as this minibatch began
        # is the "before" of its own round and the "after" of the round scored on it.
        copy = trains and (arm is not None or scoring) and not self.model_free
        # deferring, the live model stands still through the minibatch instead of being copied
        self.holding = copy and self.rollback == "defer"
        frozen = copy and not self.holding
        self._model_start = None
        if frozen:
            assert model is not None  # a minibatch that trains the model has one
            self._model_start = FrozenScorer(model, self.score_key)
        self._calibrator_start = calibrator.copy() if arm is not None or scoring else None
        self._shadow = None
        self._next = None
        if arm is None:
            self.keeps_rows = self._keeping()
            return
        if names[arm] == "train" and len(measured) > 1:
            self._shadow = calibrator.copy()
        self._next = _Round(
            arm=arm,
            arms=measured,
            names=tuple(names[a] for a in measured),
            model_before=self._model_start if trains else None,
            held_by=model if self.holding else None,
            calibrator_before=self._calibrator_start,
            calibrator_after=None,
        )
        self.keeps_rows = self._keeping()

    def _begin_own(self, arm: int | None, names: tuple[str, ...], measured: tuple[int, ...],
                   model, calibrator) -> None:
        """Rollback "holdout": the minibatch's own round, scored on its first examples, which
        nothing learns until `end` (their prequential scores are the "before"; the live model
        and calibrator, or the shadow, at the end are the "after")."""
        if arm is None:
            return
        self._shadow = (calibrator.copy() if names[arm] == "train" and len(measured) > 1
                        else None)
        self._round = _Round(
            arm=arm,
            arms=measured,
            names=tuple(names[a] for a in measured),
            model_before=None,
            held_by=None if self.model_free else model,
            calibrator_before=calibrator.copy(),
            calibrator_after=calibrator if self._shadow is None else self._shadow,
        )
        self.recording = True
        self.keeps_rows = self._keeping()

    def observe(self, xs: typing.Sequence[dict], scores: list[float], positives: list[bool],
                thresholds: list[float] | None = None,
                stakes: list[float] | None = None) -> None:
        """Record the current minibatch's examples for the round being measured on it, once
        the minibatch has seen them all, as columns in order: each `x` (a copy that no one
        changes: a frozen or deferred model scores it at the minibatch's end), its `score` by
        the live model before anything learned it, whether it is positive and, for the realised
        cost, its cost threshold c_FP / (c_FP + c_FN) (`decision.cost_threshold`) and, where
        costs differ by example, its stake (`mean_losses`)."""
        if thresholds is None and self.loss == "expected-cost":
            raise ValueError("the realised cost needs each example's cost threshold (thresholds)")
        n = len(scores)
        if (len(xs) != n or len(positives) != n
                or any(c is not None and len(c) != n for c in (thresholds, stakes))):
            raise ValueError(
                f"observe takes columns of one length; got {len(xs)} xs, {n} scores, "
                f"{len(positives)} positives, "
                f"{'no' if thresholds is None else len(thresholds)} thresholds and "
                f"{'no' if stakes is None else len(stakes)} stakes")
        r = self._round
        if r is None:
            return
        picked = self._picked(n)
        if type(picked) is slice:  # the usual sample: a prefix, or every example
            xs, scores, positives = xs[picked], scores[picked], positives[picked]
            thresholds = thresholds[picked] if thresholds is not None else None
            stakes = stakes[picked] if stakes is not None else None
        else:  # picked by position: a frame's rows stay unconverted (`LazyRecords.take`)
            xs = xs.take(picked) if type(xs) is LazyRecords else [xs[p] for p in picked]
            scores = [scores[p] for p in picked]
            positives = [positives[p] for p in picked]
            thresholds = None if thresholds is None else [thresholds[p] for p in picked]
            stakes = None if stakes is None else [stakes[p] for p in picked]
        if not scores:
            return
        if self.keeps_rows:
            if not r.rows and type(xs) is not list:
                r.rows = xs  # kept as it is (`validation.LazyRecords`: dicts made if read)
            else:
                r.rows = [*r.rows, *xs]
        r.scores.extend(scores)
        r.positives.extend(positives)
        if self.loss == "expected-cost" and thresholds is not None:  # (checked above)
            r.thresholds.extend(thresholds)
            if stakes is not None:
                r.stakes.extend(stakes)

    def _keeping(self) -> bool:
        """`keeps_rows`, from the round being scored on the current minibatch."""
        r = self._round
        return r is not None and (
            r.model_before is not None or self._model_start is not None
            or (r.held_by is not None and not self.holds_out))

    def lend(self, table: np.ndarray) -> None:
        """By minibatch, after `observe` has recorded a whole minibatch: `table`, the live
        booster's matrix of it as the minibatch began (`scores.ScoredFrame.table`), is lent to
        the copy of the model taken then (or, on a minibatch that does not train and took none,
        to the round's copy from before its action), which scores the round's sample from it
        (and lends it on to the earlier copy) rather than converting the recorded dicts."""
        r = self._round
        if r is None or not r.rows:
            return
        # this minibatch's copy, or else (it does not train) the one of the round's action
        copy = self._model_start if self._model_start is not None else r.model_before
        if copy is not None:
            copy.lend(r.rows, table[self._picked(len(table))])

    def _picked(self, n: int) -> slice | typing.Sequence[int]:
        """The sample within a minibatch of `n` examples, in order: a slice for the usual
        prefix (or every example), else its positions."""
        sample = self.sample
        if type(sample) is range:  # cut, never listed (it may span a huge minibatch)
            if sample.start == 0 and sample.step == 1:
                return slice(sample.stop)
            return range(sample.start, min(sample.stop, n), sample.step)
        return [p for p in sample if p < n]  # a list: numpy reads a tuple as one index per axis

    def shadow(self, score: float, positive: bool) -> None:
        """What the calibrator would have learned, on a measured `"train"` minibatch: a checked
        score and class, kept and learned with the minibatch's others as it ends (`end`), in
        order (one compiled call, the same floats as one by one)."""
        if self._shadow is not None:
            scores, positives = self._shadowed
            scores.append(score)
            positives.append(positive)

    def shadow_many(self, scores: list[float], positives: list[bool]) -> None:
        """`shadow` of a minibatch's checked scores and classes, in order."""
        if self._shadow is not None:
            self._shadowed[0].extend(scores)
            self._shadowed[1].extend(positives)

    def _settle(self, shadow: Calibrator) -> None:
        """The `shadow` calibrator learns the pairs `shadow()` kept, before anything reads it."""
        scores, positives = self._shadowed
        if scores:
            shadow._update_many(scores, positives)
            self._shadowed = ([], [])

    def end(self, reward_range: tuple[float, float] | None,
            held_scores: list[float] | None = None) -> tuple | None:
        """Close the minibatch: the scored round as (arm, arms, names, improvements, rewards),
        or None; the minibatch's own action becomes the round scored next. `held_scores`
        ("holdout"): the live model's scores of the held examples, as the minibatch ends."""
        if (shadow := self._shadow) is not None:
            self._settle(shadow)
        r, result = self._round, None
        if r is not None and r.scores:
            improvements = self._improvements(r, held_scores)
            result = (r.arm, r.arms, r.names, improvements, self._rewards(improvements,
                                                                          reward_range))
        if self.holds_out:  # the round was this minibatch's own
            self.drop()
            return result
        if self._next is not None:
            self._next.calibrator_after = self._shadow  # None: the live one, as it will be
        self._round, self._next, self._shadow = self._next, None, None
        self._model_start = self._calibrator_start = None  # kept by the new round if needed
        self.recording = self._round is not None
        self.holding = False
        self.keeps_rows = self._keeping()
        return result

    @property
    def holds_round(self) -> bool:
        """Whether the round being scored next waits for the examples its action trained on
        (rollback "defer"): the model must not learn them until that round's `end`."""
        return self._round is not None and self._round.held_by is not None

    def drop(self) -> None:
        """Forget the rounds in progress (none is scored), as if no minibatch had been measured."""
        self._round = self._next = self._shadow = None
        self._model_start = self._calibrator_start = None
        self._shadowed = ([], [])
        self.recording = self.holding = self.keeps_rows = False

    def _improvements(self, r: _Round, held_scores: list[float] | None) -> list[float]:
        """Each scored arm's mean loss improvement over the round's sample: the model and
        calibrator before the action against the arm's pair (the live model's scores serve
        where no frozen copy is needed)."""
        if r.held_by is not None:  # the live scores were the before; it has learned the action
            if not self.holds_out:
                held_scores = positive_scores(r.held_by, r.rows, self.score_key)
            scores = np.array((r.scores, held_scores), dtype=float)
        else:
            # this minibatch trains: the model as it began (else the live model's scores)
            after = (self._model_start.scores(r.rows) if self._model_start is not None
                     else np.fromiter(r.scores, float, len(r.scores)))
            scores = after[None] if r.model_before is None else np.array(
                (r.model_before.scores(r.rows, like=self._model_start), after))
        cal_before = r.calibrator_before
        cal_after = r.calibrator_after if r.calibrator_after is not None else self._calibrator_start
        assert cal_after is not None  # a measured round copied the calibrator as it began
        # every (calibrator, model) pair's mean loss in one pass: rows = calibrator before and
        # after, columns = model before and after (one column when no model was copied)
        k = len(scores)
        flat = scores.ravel()
        if cal_before._n_seen and cal_after._n_seen:
            probabilities = cal_before._predict_pair(cal_after, flat)
        else:
            probabilities = np.array([calibrated_many(c, flat) for c in (cal_before, cal_after)])
        means = _means(self.loss, probabilities.reshape(2 * k, -1), r.positives,
                       r.thresholds, r.stakes)
        # each arm's pair: row i * k (the calibrator before, after), column j * (k - 1) (the
        # model before, after; the one column when it was not copied)
        cells = [_CELLS[name] for name in r.names]
        return [means[0] - means[i * k + j * (k - 1)] for i, j in cells]

    def _rewards(self, improvements: list[float], reward_range) -> list[float]:
        """The round's improvements as rewards for a policy of range `reward_range` (None: any
        real), by `mapping`; the running scale learns the round afterwards (before, for
        `"logistic"`)."""
        square = 0.0
        for d in improvements:  # sum's own order, without a comprehension's frame
            square += d * d
        square /= len(improvements)
        w = self.smoothing
        earlier = self.scale
        self.scale = square if earlier == 0.0 else (1.0 - w) * earlier + w * square
        if self.mapping == "logistic":
            root = math.sqrt(self.scale)
            low, high = reward_range or (0.0, 1.0)
            return [squash(d / root if root > 0.0 else 0.0, low, high) for d in improvements]
        if reward_range is None:
            root = math.sqrt(earlier if earlier > 0.0 else self.scale)
            return [d / root if root > 0.0 else 0.0 for d in improvements]
        low, high = reward_range
        bound = 2.0 * LOSS_BOUNDS[self.loss]
        rewards = []
        for d in improvements:  # clipped as min(high, max(low, r)), without the calls; NaN: low
            r = low + (high - low) * (0.5 + d / bound)
            rewards.append(low if not r >= low else high if r > high else r)
        return rewards
