"""A model and its calibrator on one stream; a policy picks which one learns each minibatch."""

from __future__ import annotations

import collections
import typing

import numpy as np
from river import base, compose, drift

from . import bandits
from .arms import check_warmup_arm, resolve_arms, resolve_policy, warmup_route
from .boosting import OzaBoostClassifier
from .budget import TrainBudget, check_budget
from .calibrated import CalibratedPredictions, check_frame
from .calibration import Calibrator
from .checkpoint import Checkpointable
from .decision import (
    BinaryLabels,
    Costs,
    CostSensitiveMixin,
    _no_misspelt_costs,
    _per_row,
    cost_threshold,
    validate_costs,
)
from .reward import (
    LOSSES,
    MAPPINGS,
    PairedReward,
    check_rollback,
    held_out,
    resolve_rollback,
)
from .scores import (
    PrequentialScore,
    calibrator_for,
    check_model,
    learns_bools,
    positive_scores,
)
from .validation import (
    check_bool,
    check_dataframe,
    check_int,
    check_seed,
    is_real,
    lazy_records,
    records,
    row_keywords,
    row_weights,
)

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["BanditCalibratedClassifier"]

REWARDS = LOSSES


# (ignored for mypy: labels are any hashable, River declares bool | str | int)
class BanditCalibratedClassifier(  # type: ignore[misc]
    CalibratedPredictions, Checkpointable, CostSensitiveMixin, base.Wrapper,
    base.MiniBatchClassifier,
):
    r"""Any River classifier calibrated online, a policy deciding per minibatch what learns.

    With no separate calibration set online, each minibatch is spent on the model (`"train"`),
    its calibrator (`"calibrate"`: it learns the model's score $s(x)$ = P(positive | x)) or both
    (`"both"`: the calibrator learns $s(x)$, then the model x) [^1]. `predict_one` is positive
    iff the calibrated $s(x) > c_{FP}/(c_{FP} + c_{FN})$ (Eq. 2.8). A bandit's reward scores
    each arm [^3] on the next minibatch against the action rolled back (docs/controller.md).

    Parameters
    ----------
    model, calibrator, policy
        Any binary River classifier, trained in place (default: Oza boosting [^2] of 10 LRs,
        `score="soft"`); a `calibration.CALIBRATORS` name or a `Calibrator`; a `streamboost.bandits`
        name or instance, or `"never"`, `"every-N"`, `"always"`, `"both"`.
    batch_size, warmup, warmup_arm, trace_size, seed
        Examples per minibatch; minibatches that train the model whatever the policy (and
        calibrate: `"both"`, but under `"never"`); those in `trace`; the policy's, model's seed.
    c_fp, c_fn, pos_label, neg_label
        Costs of a false positive and a false negative; the labels (`neg_label`: inferred).
    reward, reward_map, reward_smoothing, counterfactual, arms
        The reward's loss, map and running scale; whether arms not taken are scored; the arms.
    reward_examples, reward_every, reward_start, reward_restart, rollback
        What a reward costs: examples scored, minibatches measured, how the model rolls back.
    train_budget, budget_reserve, budget_timing, drift_detector
        A compute budget: the largest share of minibatches that train (`budget`).

    Examples
    --------
    >>> from river import datasets, evaluate, linear_model, metrics, preprocessing
    >>> from streamboost import BanditCalibratedClassifier
    >>> model = preprocessing.StandardScaler() | BanditCalibratedClassifier(
    ...     model=linear_model.LogisticRegression(), policy="discounted-ucb", seed=1)
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.LogLoss())
    LogLoss: ...
    >>> x, _ = next(iter(datasets.Phishing()))  # costs change without retraining
    >>> model.predict_one(x, c_fp=1.0, c_fn=1e6), model.predict_one(x, c_fp=1e6, c_fn=1.0)
    (True, False)

    References
    ----------
    [^1]: Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis (Eq. 2.8).
    [^2]: Oza, N. C. (2005). Online bagging and boosting. IEEE SMC.
    [^3]: Mannor, S. and Shamir, O. (2011). From bandits to experts. NeurIPS 24.

    """

    def __init__(
        self,
        model: base.Classifier | compose.Pipeline | None = None,
        calibrator: str | Calibrator = "platt",
        policy: str | bandits.base.Policy = "both",
        batch_size: int = 32,
        c_fp: float = 1.0,
        c_fn: float = 1.0,
        reward: str = "log-likelihood",
        counterfactual: bool = True,
        arms: tuple[str, ...] = ("train", "calibrate", "both"),
        warmup: int = 10,
        warmup_arm: str | None = None,
        train_budget: float | None = None,
        budget_reserve: float = 0.0,
        budget_timing: str = "even",
        drift_detector: base.DriftDetector | base.BinaryDriftDetector | None = None,
        reward_smoothing: float = 0.05,
        reward_map: str = "affine",
        reward_examples: int | None = None,
        reward_every: int = 1,
        reward_start: int = 64,
        reward_restart: bool = True,
        rollback: str = "auto",
        trace_size: int = 1000,
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable | None = None,
        seed: int | None = None,
    ):
        batch_size = check_int("batch_size", batch_size, 1)
        warmup = check_int("warmup", warmup, 0)
        trace_size = check_int("trace_size", trace_size, 1)
        reward_examples = check_int("reward_examples", reward_examples, 1, none=True)
        reward_every = check_int("reward_every", reward_every, 1)
        reward_start = check_int("reward_start", reward_start, 0)
        seed = check_seed(seed)
        c_fp, c_fn = validate_costs(c_fp, c_fn)  # as floats: set_costs stores them so too
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        counterfactual = check_bool("counterfactual", counterfactual)
        reward_restart = check_bool("reward_restart", reward_restart)
        if not (is_real(reward_smoothing) and 0.0 < reward_smoothing <= 1.0):
            raise ValueError(f"reward_smoothing must be in (0, 1], got {reward_smoothing!r}")
        check_budget(train_budget, budget_reserve, budget_timing)
        if reward_map not in MAPPINGS:
            raise ValueError(f"reward_map must be one of {MAPPINGS}, got {reward_map!r}")
        check_rollback(rollback, batch_size, reward_examples)
        labels = BinaryLabels(pos_label, neg_label, owner="BanditCalibratedClassifier")
        if model is not None:
            check_model(model, pos_label)
        self.model = model
        self.calibrator = calibrator
        self.policy = policy
        self.batch_size = batch_size
        self.c_fp = c_fp
        self.c_fn = c_fn
        self.reward = reward
        self.counterfactual = counterfactual
        self.arms = arms
        self.warmup = warmup
        self.warmup_arm = warmup_arm
        self.train_budget = train_budget
        self.budget_reserve = budget_reserve
        self.budget_timing = budget_timing
        self.drift_detector = drift_detector
        self.reward_smoothing = reward_smoothing
        self.reward_map = reward_map
        self.reward_examples = reward_examples
        self.reward_every = reward_every
        self.reward_start = reward_start
        self.reward_restart = reward_restart
        self.rollback = rollback
        self.trace_size = trace_size
        self.pos_label = pos_label
        self.neg_label = neg_label
        self.seed = seed

        self._arms = resolve_arms(arms, policy)
        check_warmup_arm(warmup_arm, self._arms)
        if train_budget is not None and "calibrate" not in self._arms:
            raise ValueError(
                f"train_budget needs the 'calibrate' arm (what a minibatch the budget cannot "
                f"pay for does), got arms={self._arms!r}"
            )
        self._policy = resolve_policy(policy, self._arms, seed)
        restarts = self._restarts
        _check_drift_settings(budget_reserve, drift_detector, restarts)
        # The model learns in place, as in CalibratedClassifier: one a user has already
        # trained keeps what it learned (a clone would start it over, silently).
        self._model = (
            model
            if model is not None
            else OzaBoostClassifier(  # beside a calibrator, the members' probabilities
                _default_member(), pos_label=pos_label, neg_label=neg_label, seed=seed,
                score="soft",
            )
        )
        self._calibrator = calibrator_for(calibrator, self._model)
        self._labels = labels
        # What the model learns and which key of its probabilities is the score.
        self._bools = learns_bools(self._model)
        self._score_key = True if self._bools else pos_label
        model_free = "calibrate" not in self._arms  # every arm trains: the model is left out
        rollback = resolve_rollback(rollback, self._model, batch_size, reward_examples,
                                    reward_every, model_free, self._policy.uses_rewards,
                                    reward_start=reward_start, score_key=self._score_key)
        sample: typing.Collection[int]
        if rollback == "holdout":  # a round is scored on its minibatch's first examples
            sample = range(held_out(batch_size, reward_examples))
        else:
            m = batch_size if reward_examples is None else min(reward_examples, batch_size)
            sample = range(m) if m == batch_size else {k * batch_size // m for k in range(m)}
        self._meter = PairedReward(
            reward,
            reward_smoothing,
            sample,
            model_free=model_free,
            mapping=reward_map,
            score_key=self._score_key,
            rollback=rollback,
        )
        # rollback "defer": training examples that wait, as (x, label, kwargs), or frames
        # learned by minibatch, as (X, y, None): those of the round scored on the current
        # minibatch, and the current minibatch's own
        self._held: list[tuple] = []
        self._waiting: list[tuple] = []
        # rollback "holdout": the current minibatch's scored examples, as (x, y, positive, kwargs)
        self._held_out: list[tuple] = []
        # the current minibatch's examples for the meter, while it is recording, as columns
        # (`_columns`): x, score, positive and, for the realised cost, the cost threshold
        self._seen = self._columns()

        self.arm_counts: dict[str, int] = dict.fromkeys(self._arms, 0)
        self.n_batches = 0
        self.n_drifts = 0
        # the detector (budget_reserve, reward_restart) and the compute budget, if any
        self._detector = None if not (budget_reserve or restarts) else (
            drift.ADWIN() if drift_detector is None else drift_detector.clone())
        self._budget = (None if train_budget is None
                        else TrainBudget(train_budget, budget_reserve, budget_timing))
        self._dense_end = reward_start  # minibatches after the warm-up measured densely: below
        self.trace: collections.deque = collections.deque(maxlen=trace_size)
        self.last_batch: dict | None = None
        self._arm: int | None = None  # arm of the current minibatch (None: warm-up)
        self._route = self._warmup_arm  # its name (set with _arm; read every example)
        self._in_batch = 0
        self._scorer = PrequentialScore(self._model, self._score_key)

    @classmethod
    def _unit_test_params(cls):
        yield {"policy": "ucb1", "batch_size": 8, "warmup": 2}
        yield {"policy": "both", "batch_size": 16, "reward": "brier", "warmup": 0}
        yield {"policy": "every-2", "batch_size": 5, "reward": "expected-cost", "c_fn": 4.0}
        yield {"policy": "both", "batch_size": 4, "warmup": 1, "train_budget": 0.5,
               "budget_timing": "loss"}
        yield {"policy": "discounted-ucb", "batch_size": 4, "warmup": 1, "counterfactual": False}
        yield {"policy": "discounted-ucb", "batch_size": 4, "warmup": 2, "warmup_arm": "both"}
        yield {"policy": "kl-ucb", "batch_size": 6, "warmup": 1, "calibrator": "isotonic",
               "reward_every": 2, "reward_start": 3, "reward_examples": 3}
        yield {"policy": "discounted-ucb", "batch_size": 4, "warmup": 1, "rollback": "defer"}
        yield {"policy": "discounted-ucb", "batch_size": 4, "warmup": 1, "rollback": "holdout",
               "reward_examples": 2}
        yield {"batch_size": 4, "warmup": 1, "train_budget": 0.5, "budget_reserve": 0.2}

    @property
    def _wrapped_model(self) -> base.Classifier | compose.Pipeline:
        return self._model

    @property
    def model_(self) -> base.Classifier | compose.Pipeline:
        """The model being trained: `model` itself, or the default booster. With
        `rollback="defer"` it may not have learned the last minibatch or two yet, with
        `"holdout"` the first examples of the minibatch in progress (`flush`)."""
        return self._model

    @property
    def rollback_(self) -> str:
        """The rollback in use: `rollback`, or what `"auto"` stands for
        (`streamboost.reward.resolve_rollback`)."""
        return self._meter.rollback

    @property
    def _restarts(self) -> bool:
        """Whether a flagged change restarts the dense measuring: thinned rewards measure densely
        again (a policy measured one minibatch in N would otherwise meet a drift with a round
        every N minibatches)."""
        return (self.reward_restart and self.reward_every > 1 and self.reward_start > 0
                and self._policy.uses_rewards)

    @property
    def drift_detector_(self) -> base.DriftDetector | base.BinaryDriftDetector | None:
        """The drift detector in use (`budget_reserve`, `reward_restart`), or None."""
        return self._detector

    @property
    def policy_(self) -> bandits.base.Policy:
        """The policy choosing the arms."""
        return self._policy

    @property
    def _warmup_arm(self) -> str:
        """The warm-up's route (`arms.warmup_route`): `warmup_arm` as given; for None, `"both"`
        where it is an arm and the policy ever calibrates, else `"train"`; `"both"` whenever the
        arms leave `"train"` out, so that `arm_counts` and `trace` name only the arms."""
        return warmup_route(self.warmup_arm, self._arms, self._policy)

    @property
    def current_arm(self) -> str:
        """The arm of the minibatch in progress (or about to start)."""
        return self._route

    # ------------------------------------------------------------------ learning

    def learn_one(self, x: dict, y: base.typing.ClfTarget, *, c_fp: float | None = None,
                  c_fn: float | None = None, **kwargs) -> None:
        """Learn `(x, y)` as the minibatch's arm routes it; `c_fp`, `c_fn`: this example's own
        costs, which only the realised-cost reward reads (the model and the calibrator learn
        without costs); `kwargs` go to the model (a sample weight `w`)."""
        # Everything is checked before a policy selects or anything learns (an x just scored by
        # predict_proba_one was checked there).
        if kwargs:
            _no_misspelt_costs("learn_one", kwargs)
            self._check_kwargs(kwargs)
        costs = (None if c_fp is None and c_fn is None else validate_costs(
            self.c_fp if c_fp is None else c_fp, self.c_fn if c_fn is None else c_fn))
        labels = self._labels
        # any label but the known two (a third, a missing one) is judged, and a bad one
        # refused, by `is_positive`
        try:
            positive = labels.known[y]
        except (KeyError, TypeError):  # a label not known (or unhashable): judged
            positive = labels.is_positive(y)
        # a bad x or model output raises; `taken`: x, or the scorer's copy of it
        score, taken = self._scorer.take(x)
        if labels.negative is None:  # until it is known, the first other label names it
            labels.learn(y)
        if self._in_batch == 0:
            self._start_batch()
        if (detector := self._detector) is not None:
            self._watch(detector, score, positive)
        if self._budget is not None and self._budget.losses is not None:
            self._budget.loss_sum += (score - positive) ** 2
        # measure: the previous action (or, "holdout", this one), on this example's score
        # before anything learns it; the meter records the minibatch's examples as it ends
        meter = self._meter
        if meter.recording:
            held = meter.holds_out and self._in_batch in meter.sample
            if taken is x and (held or meter.keeps_rows):
                taken = dict(x)  # the caller's, kept past this call: it may refill it
            xs, scores, positives, thresholds, stakes = self._seen
            xs.append(taken)
            scores.append(score)
            positives.append(positive)
            if thresholds is not None and stakes is not None:  # the realised cost's
                a, b = (self.c_fp, self.c_fn) if costs is None else costs
                thresholds.append(cost_threshold(a, b))
                stakes.append(_stake(a, b))
            if held:  # "holdout": only these, learned at the end
                self._held_out.append((taken, y, positive, kwargs))
                self._next_example()
                return
        try:
            if self._route == "both" and not meter.holding:
                # `_route_one`'s usual route (every minibatch of "both"), without the call, nor
                # an empty **kwargs (~0.1 us a call)
                if kwargs:
                    self._model.learn_one(taken, positive if self._bools else y, **kwargs)
                else:
                    self._model.learn_one(taken, positive if self._bools else y)
                self._calibrator._update(score, positive)
            else:
                self._route_one(taken, y, score, positive, kwargs)
        finally:  # a model that raises: the example still counts (the meter has seen it)
            self._in_batch += 1
            if self._in_batch == self.batch_size:
                self._end_batch()

    def _route_one(self, x: dict, y, score: float, positive: bool, kwargs: dict) -> None:
        """Route a checked example of prequential score `score` by the minibatch's arm."""
        arm, meter = self._route, self._meter
        if arm != "calibrate":  # the model first: one that raises leaves the calibrator as it was
            label = positive if self._bools else y
            if meter.holding:  # rollback "defer": the model stands still until a reward is scored
                self._waiting.append((dict(x), label, kwargs))
            elif kwargs:
                self._model.learn_one(x, label, **kwargs)
            else:
                self._model.learn_one(x, label)
        if arm == "train":
            meter.shadow(score, positive)
        else:
            self._calibrator._update(score, positive)

    def _next_example(self) -> None:
        self._in_batch += 1
        if self._in_batch == self.batch_size:
            self._end_batch()

    def _start_batch(self) -> None:
        budget = self._budget
        if budget is not None:  # the warm-up's losses, a fresh model's, are not ranked
            budget.close(self.batch_size, ranked=self.n_batches > self.warmup)
        self._arm = None if self.n_batches < self.warmup else self._policy.select()
        if budget is not None and self._arm is not None and self._arms[self._arm] != "calibrate":
            # minibatches after the warm-up so far (this one too), and those of them that trained
            # (arm_counts counts the warm-up as `_warmup_arm`, never "calibrate")
            after = self.n_batches - self.warmup + 1
            trained = self.n_batches - self.arm_counts.get("calibrate", 0) - self.warmup
            if not budget.pays(after, trained):
                self._arm = self._arms.index("calibrate")
        self._route = self._warmup_arm if self._arm is None else self._arms[self._arm]
        if not self._policy.uses_rewards:  # a schedule: nothing to measure
            return
        measured = self._arm is not None and self._measures(self.n_batches - self.warmup)
        if not measured and not self._meter.recording:
            return  # nothing measured on this minibatch, nor from it
        arm = self._arm if measured else None
        self._meter.begin(
            trains=self._route != "calibrate",
            arm=arm,
            names=self._arms,
            measured=self._measured(arm) if arm is not None else (),
            model=self._model,
            calibrator=self._calibrator,
        )

    def _measures(self, k: int) -> bool:
        """Whether the `k`-th minibatch after the warm-up is measured: each of the first
        `reward_start` (and of the `reward_start` after a flagged change, `reward_restart`),
        then one in `reward_every`."""
        end = self._dense_end
        return k < end or (k - end) % self.reward_every == 0

    def _watch(self, detector: base.DriftDetector | base.BinaryDriftDetector, score: float,
               positive: bool) -> None:
        """Feed the drift `detector` the model's error on a checked example; a change it flags
        releases the budget's reserve and, `reward_restart`, has the `reward_start` minibatches
        after the current one all measured."""
        detector.update((score > 0.5) != positive)  # a bool: any River detector takes it
        if detector.drift_detected:
            self.n_drifts += 1
            if self._budget is not None:
                self._budget.spend()
            if self._restarts:
                after = self.n_batches - self.warmup + 1  # the next minibatch, after the warm-up
                self._dense_end = max(self._dense_end, after + self.reward_start)

    def _measured(self, arm: int) -> tuple[int, ...]:
        """The arms whose reward the action `arm` lets this controller measure: all of them when
        the model was snapshot (counterfactual), else the action's own."""
        policy = self._policy
        if self.counterfactual and policy.side_observations and self._arms[arm] != "calibrate":
            return tuple(range(len(self._arms)))
        return (arm,)

    def _columns(self) -> tuple[list, list, list, list | None, list | None]:
        """Empty columns for the examples of a minibatch that the meter records (x, score,
        positive, and the two `_cost_columns`): lists are cheaper to fill and to hand over
        than a tuple per example."""
        return [], [], [], *self._cost_columns()

    def _cost_columns(self, costs: tuple[list, list] | None = None
                      ) -> tuple[list, list] | tuple[None, None]:
        """Where the reward is the realised cost (no other reads them), the examples' cost
        thresholds and stakes (`reward.mean_losses`): empty, or of the costs per example
        `(c_fp, c_fn)`, each a list of checked costs; else None, None."""
        if self.reward != "expected-cost":
            return None, None
        if costs is None:
            return [], []
        return ([cost_threshold(a, b) for a, b in zip(*costs, strict=True)],
                [_stake(a, b) for a, b in zip(*costs, strict=True)])

    def _end_batch(self) -> None:
        record = _EMPTY_RECORD.copy()
        record["batch"] = self.n_batches
        record["arm"] = self._route
        try:
            self._close_round(record)
        except Exception as error:
            # a model that raised here must not leave the minibatch open (no later one would
            # end): its round goes unrewarded and what waited on it is not learned
            lost = self._abandon()
            error.add_note(
                f"streamboost: the model raised as minibatch {self.n_batches} ended; its reward "
                f"round is dropped and {lost} example(s) still waiting on it were not learned; "
                f"the controller goes on with the next minibatch"
            )
            raise
        finally:
            self.arm_counts[self._route] += 1
            self.n_batches += 1
            self._in_batch = 0
            self.trace.append(record)
            self.last_batch = record

    def _close_round(self, record: dict) -> None:
        """The minibatch's end: learn what waited for it, score the round measured on it (route
        -> measure -> update) and record it in `record`."""
        if self._seen[0]:
            self._meter.observe(*self._seen)
            self._seen = self._columns()
        if self._held:  # the round scored on this minibatch is scored after the model learns them
            self._learn(self._held)
        # rollback "holdout": the round's "after"
        held_scores = self._score_held_out() if self._held_out else None
        scored = (self._meter.end(self._policy.reward_range, held_scores)
                  if self._policy.uses_rewards else None)
        if held_scores is not None:  # the round is scored; its examples come last
            self._route_held_out(held_scores)
        if self._waiting:  # they wait on if this minibatch's own round is scored next
            if self._meter.holds_round:
                self._held, self._waiting = self._waiting, []
            else:
                self._learn(self._waiting)
        if scored is not None:  # update: the policy learns the round scored on this minibatch
            arm, arms, names, improvements, rewards = scored
            self._policy.update_round(dict(zip(arms, rewards, strict=True)))
            taken = arms.index(arm)
            record.update(
                rewarded_batch=self.n_batches - (not self._meter.holds_out),
                rewarded_arm=self._arms[arm],
                improvement=improvements[taken],
                reward=rewards[taken],
                improvements=dict(zip(names, improvements, strict=True)),
                rewards=dict(zip(names, rewards, strict=True)),
            )

    def _abandon(self) -> int:
        """Drop the rounds being measured and the examples waiting on them (after the model
        raised); how many examples were dropped."""
        lost = sum(len(entry.X) if type(entry) is _Frame else 1  # a frame, or one example
                   for entry in self._held + self._waiting)
        lost += len(self._held_out)
        self._held, self._waiting, self._held_out, self._seen = [], [], [], self._columns()
        self._meter.drop()
        self._scorer.forget()
        return lost

    def _learn(self, examples: list[tuple]) -> None:
        """Have the model learn `examples`, each removed from the list once learned (a model
        that raises leaves the rest there)."""
        model = self._model
        try:
            while examples:
                x, label, kwargs = examples[0]
                if type(examples[0]) is _Frame:  # a frame that waited (`_learn_minibatch`)
                    model.learn_many(  # type: ignore[union-attr]  # a model that learns frames
                        x, label, **kwargs)
                else:
                    model.learn_one(x, label, **kwargs)
                del examples[0]
        finally:
            self._scorer.forget()

    def _score_held_out(self) -> list[float]:
        """Rollback "holdout": the model's scores of the examples held out of this minibatch
        (some are), as it ends. A `"train"` minibatch of model-free arms needs none (its
        round leaves the model out, and `"train"` routes without a score): zeros."""
        if self._route == "train" and self._meter.model_free:
            return [0.0] * len(self._held_out)
        return positive_scores(self._model, [x for x, *_ in self._held_out], self._score_key)

    def _route_held_out(self, scores: list[float]) -> None:
        """Rollback "holdout": route the examples the round was scored on, as if they had come
        last in the minibatch, with their `scores` as it ended (prequential: the model has not
        learned them; the calibrator learns what the round scored, with no third scoring)."""
        held = self._held_out
        for score in scores:  # each removed once routed (a model that raises leaves the rest)
            x, y, positive, kwargs = held[0]
            self._route_one(x, y, score, positive, kwargs)
            del held[0]

    def flush(self) -> None:
        """Have the model learn the examples that `rollback="defer"` holds back, now (at the end
        of a stream, before using or saving `model_` alone), and route those that `"holdout"`
        holds by the minibatch's arm; the rewards being measured are dropped. Nothing to do
        with `rollback="copy"`.

        Examples
        --------
        >>> from river import datasets, linear_model
        >>> from streamboost import BanditCalibratedClassifier
        >>> model = BanditCalibratedClassifier(
        ...     model=linear_model.LogisticRegression(), policy="discounted-ucb",
        ...     batch_size=8, warmup=0, rollback="defer", seed=1,
        ... )
        >>> for x, y in datasets.Phishing().take(100):  # the last 12 examples wait
        ...     model.learn_one(x, y)
        >>> weights = dict(model.model_.weights)
        >>> model.flush()
        >>> model.model_.weights != weights, len(model.trace)
        (True, 12)

        """
        if not (self._held or self._waiting or self._held_out):
            return
        self._meter.drop()
        self._seen = self._columns()  # recorded for a round now dropped
        try:
            self._learn(self._held)
            self._learn(self._waiting)
            if self._held_out:
                self._route_held_out(self._score_held_out())
        except Exception as error:
            lost = self._abandon()
            error.add_note(f"streamboost: the model raised in flush(); {lost} example(s) still "
                           f"waiting were not learned")
            raise
        self._scorer.forget()  # the model learned: a score kept by predict_proba_one is stale

    def learn_many(self, X: pd.DataFrame, y: pd.Series, *, c_fp: float | Costs | None = None,
                   c_fn: float | Costs | None = None, **kwargs) -> None:
        """Learn a frame; every label, cell, cost and keyword argument is checked before
        anything changes (a sample weight `w`: one for every row, or one per row; the costs
        `c_fp`, `c_fn` as `learn_one`'s, a number or one per row as `predict_many`'s).
        Minibatch boundaries fall every `batch_size` examples whatever the size of `X`. With a
        model that learns by minibatch (`CalibratedPredictions._minibatch`) and no keyword
        argument but a weight `w` its `learn_many` takes, each minibatch that `X` holds whole
        is learned by minibatch (`_learn_minibatch`, with its rows' weights and costs); the
        rows before the first boundary and after the last are `learn_one`'s, as every row is
        with other keywords."""
        check_dataframe(X, "learn_many")
        labels, positive = self._labels.check_many(y, len(X))
        minibatch = self._minibatch
        weighted = minibatch and kwargs.keys() == {"w"}
        if kwargs:
            _no_misspelt_costs("learn_many", kwargs)
            self._check_kwargs(kwargs, rows=len(X))
        costs = self._frame_costs(c_fp, c_fn, X)
        # the whole minibatches go to the model's learn_many if it takes `w`, else row by row
        weighted = weighted and self._takes(kwargs, "learn_many", len(X))
        if not minibatch or (kwargs and not weighted):
            for i, (x, keywords) in enumerate(zip(records(X), row_keywords(kwargs, len(X)),
                                                  strict=True)):
                self.learn_one(x, labels[i], **_own(costs, i), **keywords)
            return
        size, n = self.batch_size, len(X)
        weights = row_weights(kwargs, n) if weighted else None
        if n == size and self._in_batch == 0:
            # scoring it checks it, changing nothing
            self._learn_minibatch(X, labels, positive, weights, costs)
            return
        check_frame(self._model, X)
        start = min(n, (size - self._in_batch) % size)  # the first minibatch boundary in X
        whole = start + (n - start) // size * size
        # the rows around the whole minibatches, one by one (a missing cell: an absent key)
        rows = records(X) if start or whole < n else []
        per_row = row_keywords(kwargs, n) if rows else []
        for i in range(start):
            self.learn_one(rows[i], labels[i], **_own(costs, i), **per_row[i])
        for at in range(start, whole, size):
            self._learn_minibatch(
                X.iloc[at : at + size], labels[at : at + size], positive,
                None if weights is None else weights[at : at + size],
                None if costs is None else (costs[0][at : at + size], costs[1][at : at + size]))
        for i in range(whole, n):
            self.learn_one(rows[i], labels[i], **_own(costs, i), **per_row[i])

    def _frame_costs(self, c_fp, c_fn, X: pd.DataFrame) -> tuple[list, list] | None:
        """`learn_many`'s costs as two lists of checked floats, one per row of `X` (None where
        neither is given), checked as `predict_many`'s are."""
        if c_fp is None and c_fn is None:
            return None
        self._frame_thresholds("learn_many", c_fp, c_fn, X, {})  # every cost checked
        n = len(X)
        return tuple(  # type: ignore[return-value]
            [float(default if value is None else value)] * n if not _per_row(value)
            else np.asarray(value, dtype=float).tolist()
            for value, default in ((c_fp, self.c_fp), (c_fn, self.c_fn)))

    def _learn_minibatch(self, X: pd.DataFrame, labels: list, positive: dict,
                         weights: np.ndarray | None = None,
                         costs: tuple[list, list] | None = None) -> None:
        """A whole checked minibatch, by minibatch: the model scores every row as the minibatch
        begins (the prequential scores the calibrator learns and the reward records), then the
        arm routes them: the calibrator learns the scores in order, the model the frame with
        its own `learn_many` (and the rows' sample `weights`, if any). Rollback "holdout" holds
        the first rows out and routes them last, one by one; "defer" has them wait as
        `learn_one` does."""
        import pandas as pd

        scored = self._score_frame(X, check_frame(self._model, X))
        scores = scored.scores.tolist()
        targets = list(map(positive.__getitem__, labels))
        for label in positive:  # in order: the first other label names the negative
            self._labels.learn(label)
        self._start_batch()
        if (detector := self._detector) is not None:
            for score, target in zip(scores, targets, strict=True):
                self._watch(detector, score, target)
        budget = self._budget
        if budget is not None and budget.losses is not None:
            # one by one, as learn_one adds them: the same float on every Python (3.12's sum()
            # of floats compensates its rounding)
            for score, target in zip(scores, targets, strict=True):
                budget.loss_sum += (score - target) ** 2
        meter = self._meter
        held = 0
        if meter.recording:
            # the rows as dicts, made only if read: a frozen booster scores `scored.table`
            rows = lazy_records(X)
            n = len(rows)
            meter.observe(rows, scores, targets, *self._cost_columns(
                costs or ([self.c_fp] * n, [self.c_fn] * n)))
            if scored.table is not None:
                meter.lend(scored.table)
            if meter.holds_out:  # the sample is a prefix: learned when the round is scored
                held = len(meter.sample)
                self._held_out.extend(
                    (x, label, target, {} if weights is None else {"w": float(weights[i])})
                    for i, (x, label, target) in enumerate(zip(rows[:held], labels[:held],
                                                               targets[:held], strict=True)))
        scores, targets, labels = scores[held:], targets[held:], labels[held:]
        try:
            if self._route != "calibrate":  # the model first, as `_route_one`
                y = targets if self._bools else labels
                if meter.holding:  # rollback "defer" (nothing held out): the frame waits, a copy
                    # (the caller may refill its frame meanwhile, as `learn_one` keeps a copy)
                    waits = {} if weights is None else {"w": pd.Series(weights, index=X.index)}
                    self._waiting.append(_Frame(X.copy(), pd.Series(y, index=X.index), waits))
                else:
                    scored.learn(y, held, None if weights is None else weights[held:])
            if self._route == "train":
                meter.shadow_many(scores, targets)
            else:  # the model's scores: checked, in [0, 1]
                self._calibrator._update_many(scores, targets)
        finally:  # a model that raises: the minibatch still ends, as in `learn_one`
            self._scorer.forget()  # the frame's kept scores are stale once the model learns
            self._in_batch = self.batch_size - 1
            self._next_example()


class _Frame(typing.NamedTuple):
    """A minibatch's frame waiting for the model (rollback "defer"), with its labels and the
    keyword arguments of its `learn_many` (the rows' weights)."""

    X: pd.DataFrame
    y: pd.Series
    kwargs: dict


_EMPTY_RECORD = dict.fromkeys(("batch", "arm", "rewarded_batch", "rewarded_arm", "improvement",
                               "reward", "improvements", "rewards"))


def _check_drift_settings(reserve, detector, restarts: bool) -> None:
    """The drift detector, which serves the budget's reserve or the restarts."""
    if detector is not None:
        if not isinstance(detector, base.DriftDetector | base.BinaryDriftDetector):
            raise TypeError(
                f"drift_detector must be a River drift detector (river.base.DriftDetector or "
                f"BinaryDriftDetector), got {type(detector).__name__}: {detector!r:.80}"
            )
        if not reserve and not restarts:
            raise ValueError(
                "drift_detector serves budget_reserve > 0, or reward_restart with a bandit "
                "measuring one minibatch in reward_every > 1 after reward_start > 0; neither "
                "is set, so nothing would read it"
            )


def _own(costs: tuple[list, list] | None, i: int) -> dict:
    """Row `i`'s costs from `learn_many`'s columns, as `learn_one`'s keywords ({}: none)."""
    return {} if costs is None else {"c_fp": costs[0][i], "c_fn": costs[1][i]}


def _stake(c_fp: float, c_fn: float) -> float:
    """What an example's decision puts at stake, (c_FP + c_FN) / 2: the realised cost weighs
    each example by it (`reward.mean_losses`); halved, two finite costs never sum to inf."""
    return 0.5 * c_fp + 0.5 * c_fn


def _default_member() -> base.Classifier:
    from river import linear_model

    return linear_model.LogisticRegression()
