"""A booster and its calibrator on one stream; a bandit picks which one learns each minibatch."""

from __future__ import annotations

import collections
import copy
import dataclasses
import math
import pickle
import typing

from river import base

from . import bandits
from .boosting import OzaBoostClassifier, _records
from .calibration import OnlinePlattCalibrator
from .decision import CostSensitiveMixin, cost_threshold, validate_costs

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["BanditCalibratedClassifier"]

ARMS = ("train", "calibrate", "both")
REWARDS = ("log-likelihood", "brier", "expected-cost")

# Probabilities are clipped this far from 0 and 1 before taking logs, as River's LogLoss does.
_LOG_EPS = 1e-15


class BanditCalibratedClassifier(CostSensitiveMixin, base.MiniBatchClassifier):
    r"""Online boosting calibrated online, a bandit deciding per minibatch what learns.

    Online there is no separate calibration set: each minibatch is spent either on training the
    booster or on calibrating it (Nikolaou 2016, Section 9; slides Part II). This classifier cuts
    the stream into minibatches of `batch_size` examples; when a minibatch *starts*, the policy
    picks an arm, and each example is routed to the chosen component *as it arrives* (so learning
    is never delayed):

    * `"train"`: the booster learns the example;
    * `"calibrate"`: the calibrator learns the booster's score of the example with its label;
    * `"both"` (optional third arm): the calibrator learns the booster's score, computed *before*
      the booster learns the example, then the booster learns it. A prequential score is
      out-of-sample, so online nothing forces the split.

    **Prediction.** `predict_proba_one` is the calibrator applied to the booster's score
    $s(x)$. While the calibrator has learned nothing, the raw score is returned: so with the
    never-calibrate policy the probabilities are exactly the booster's, and the default
    calibrator (Platt scaling on $\text{logit}(s)$, starting at the identity) only departs from
    them once it has learned. `predict_one` returns the minimum-expected-cost label: positive
    iff $p > c_{FP} / (c_{FP} + c_{FN})$ (thesis Eq. 2.8). Costs can be passed per call
    (`predict_one(x, c_fp=1, c_fn=10)`) or changed with `set_costs`, without retraining.

    **Reward** ("increase in overall model likelihood after the action", slides Part II). The
    action of minibatch $t$ is scored on minibatch $t + 1$, on fresh examples, by a *paired*
    comparison: the model as it stands after minibatch $t$ against the same model with the
    component(s) that action changed rolled back to their state at the start of $t$. Both
    predict every example of minibatch $t + 1$, so batch-to-batch noise (a hard minibatch, an
    autocorrelated stretch) cancels out of the difference:

    $$\Delta_t = \frac{1}{|b_{t+1}|} \sum_{i \in b_{t+1}} \ell(\text{before}_t, x_i, y_i) -
    \ell(\text{after}_t, x_i, y_i)$$

    with $\ell$ the log-loss (`reward="log-likelihood"`), the squared error (`"brier"`) or the
    realised cost at the current costs divided by $c_{FP} + c_{FN}$ (`"expected-cost"`).
    Rolling back the calibrator costs two floats; rolling back the booster needs a copy of it at
    the start of each training minibatch (a pickle round trip: about 0.1 ms for ten logistic
    regressions, tens of ms for ten grown Hoeffding trees). The reward of minibatch $t$ reaches
    the policy when minibatch $t+1$ ends, one decision late; examples are never held back.
    Schedules that ignore rewards (`"never"`, `"every-N"`, `"always"`, `"both"`; a policy with
    `uses_rewards = False`) skip this measurement, so they cost little more than the booster
    (`benchmarks/controller_overhead.py`).

    **Counterfactual rewards** (`counterfactual=True`, the default). A training minibatch
    snapshots the booster anyway, and the calibrator is two floats, so the controller can also
    measure what the arms it did *not* take would have earned on the same next minibatch: during
    a `"train"` minibatch a copy of the calibrator learns the examples all the same (from the
    same prequential scores), and on minibatch $t + 1$ the four models (booster before / after)
    x (calibrator before / after) are scored, giving the improvement of `"train"`,
    `"calibrate"` and `"both"` over doing nothing, paired on the same examples. The policy
    receives them together, as one round with side observations (`Policy.update_round`;
    Mannor & Shamir 2011). A `"calibrate"` minibatch reveals only its own reward (what training
    would have done needs a trained copy of the booster). The counterfactual `"calibrate"`
    calibrator learns the scores of the booster as it trains rather than of a frozen one, an
    approximation of one minibatch of booster drift. Why: the arms' difference is a quarter of
    the per-minibatch noise, so a policy that sees one arm per round must explore for longer
    than the stream lasts; with every arm observed on most rounds, exploring the calibrate arm
    costs nothing. Measured on 7 streams, 5 seeds (`simulations/slides_part2.py`): UCB1 with
    two arms calibrates 1-27% of the minibatches instead of 37-52%; discounted UCB with three
    arms goes from a mean Brier rank of 13.7 to 3.4 among 24 policies, within 1% of the best
    every-N schedule on all 7 streams; Thompson samplers gain less (their posterior samples
    keep switching between arms whose means differ by less than their spread). Policies that
    cannot use side observations (`side_observations = False`, e.g. `Exp3`) get the pulled
    arm's reward only.

    **Reward scale.** Improvements are small, heavy-tailed and shrink as the model learns. Each
    round's improvements are divided by a running root-mean-square scale $\sigma_t = (\text{EWMA
    of } \Delta^2)^{1/2}$ (weight `reward_smoothing` on the newest round's mean square), giving
    $z = \Delta / \sigma_t$ with typical size 1 (the mean is *not* subtracted: it is the
    signal; one scale for all arms, so their rewards stay comparable). Every policy then receives
    $a + (b - a) / (1 + e^{-z})$, with $[a, b]$ its `reward_range`, or $[0, 1]$ for the policies
    that accept any real reward (epsilon-greedy, and the Gaussian Thompson samplers, whose
    default unit-variance noise model is Agrawal & Goyal's choice for $[0, 1]$ rewards): no
    change maps to the middle of the range. The squashing is deliberate: the train arm's
    $|z|$ exceeds 3 on 1.5-4% of the minibatches of electricity, weather and phishing (UCB1,
    three arms, seed 0), ten times the Gaussian rate, and a Gaussian sampler fed raw $z$ locked
    onto the calibrate arm after a few such outliers (discounted Gaussian Thompson,
    electricity, three arms, seeds 0 and 1: Brier 0.109 with raw $z$, 0.076 squashed).

    **Defaults, and what was measured.** Online nothing forces the split: `"both"` calibrates
    on out-of-sample scores at no cost to the booster, and its prequential Brier score had the
    best mean rank of the 24 policies tried on 7 real streams (see `simulations/`). So
    the default arms include `"both"` and the default policy is `"both"`; the bandits are one
    argument away (`policy="discounted-ucb"`, the best of them, mostly choosing `"both"`).
    The default calibrator is
    `OnlinePlattCalibrator(gamma=1.0, eps=0.5 / (n_models + 1))`: a Newton-sized step (the
    paper's `gamma=0.1` overshoots on minibatches of autocorrelated examples), and vote scores
    of exactly 0 or 1 (all members agree) clipped to the add-one-half estimate of a vote
    fraction instead of $10^{-6}$, which would put them 14 logits out and flatten the fitted
    slope (measured: `"both"` on electricity, Brier 0.0633 with `eps=1e-6`, 0.0571 with 0.045).

    Parameters
    ----------
    booster
        The booster; by default `OzaBoostClassifier(LogisticRegression(), n_models=10)` seeded
        with `seed`. Its `pos_label` / `neg_label` must equal this classifier's.
    calibrator
        The calibrator, with `learn_one(score, y)`, `predict_one(score)` and `n_seen`; by default
        `OnlinePlattCalibrator(gamma=1.0, eps=0.5 / (n_models + 1))` (log-loss, online Newton
        step, identity start; see above).
    policy
        A name from `streamboost.bandits.POLICIES`, built with `n_arms=len(arms)` and `seed`, or
        one of the baselines `"never"` (always train: the raw booster), `"every-N"` (calibrate
        every N-th minibatch, e.g. `"every-4"`), `"always"` (calibrate every minibatch after the
        warm-up), `"both"` (every minibatch trains both; adds the `"both"` arm if missing), or a
        `streamboost.bandits` policy instance whose `n_arms` equals the number of arms.
    batch_size
        Examples per minibatch.
    c_fp
        Cost of a false positive.
    c_fn
        Cost of a false negative.
    reward
        `"log-likelihood"`, `"brier"` or `"expected-cost"`.
    counterfactual
        Measure, on every minibatch that trains the booster, the rewards of all the arms, not only
        the one taken (see above). Has no effect on schedules that ignore rewards.
    arms
        The actions, in policy arm order: two or three of `"train"`, `"calibrate"`, `"both"`.
    warmup
        Minibatches at the start of the stream that train the booster whatever the policy
        (there is nothing to calibrate yet); the policy neither chooses nor learns during them.
    reward_smoothing
        Weight of the newest $\Delta^2$ in the running reward scale, in (0, 1].
    trace_size
        How many recent minibatches `trace` keeps.
    pos_label
        The positive label.
    neg_label
        The negative label.
    seed
        Seeds the policy when it is built from a name, and the default booster.

    Attributes
    ----------
    arm_counts
        Minibatches each arm was chosen for (warm-up included, as `"train"`).
    n_batches
        Finished minibatches.
    trace
        The last `trace_size` finished minibatches, as dicts (see `last_batch`).
    last_batch
        The minibatch that finished last: `{"batch", "arm", "rewarded_batch", "rewarded_arm",
        "improvement", "reward", "improvements", "rewards"}`; the reward is that of the
        *previous* minibatch's action, measured on this one (None during warm-up and for the
        first minibatch); `"improvements"` and `"rewards"` map each arm measured that round (the
        action and its counterfactuals) to its loss improvement and to the reward the policy
        received for it.

    Examples
    --------
    >>> from river import datasets, evaluate, linear_model, metrics, preprocessing
    >>> from streamboost import BanditCalibratedClassifier, OzaBoostClassifier
    >>> from streamboost.metrics import BrierScore

    >>> model = preprocessing.StandardScaler() | BanditCalibratedClassifier(
    ...     booster=OzaBoostClassifier(linear_model.LogisticRegression(), seed=1),
    ...     policy="discounted-ucb", batch_size=32, seed=1,
    ... )
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, BrierScore())
    BrierScore: ...
    >>> controller = model["BanditCalibratedClassifier"]
    >>> sorted(controller.arm_counts)
    ['both', 'calibrate', 'train']
    >>> sum(controller.arm_counts.values()) == controller.n_batches
    True

    Decisions follow the costs, without retraining:

    >>> x, _ = next(iter(datasets.Phishing()))
    >>> p = model.predict_proba_one(x)[True]
    >>> model.predict_one(x, c_fp=1.0, c_fn=1e6), model.predict_one(x, c_fp=1e6, c_fn=1.0)
    (True, False)

    References
    ----------
    [^1]: Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis,
        University of Manchester (Eq. 2.8, Algorithm 2, Section 9 "online learning").
    [^2]: Nikolaou, N. Boosting for probability estimation & cost-sensitive learning, slides,
        Part II "Calibrating online boosting".
    [^3]: Oza, N. C. (2005). Online bagging and boosting. IEEE SMC.
    [^4]: Mannor, S. and Shamir, O. (2011). From bandits to experts: on the value of
        side-observations. NeurIPS 24.

    """

    def __init__(
        self,
        booster: OzaBoostClassifier | None = None,
        calibrator: OnlinePlattCalibrator | None = None,
        policy: str | bandits.base.Policy = "both",
        batch_size: int = 32,
        c_fp: float = 1.0,
        c_fn: float = 1.0,
        reward: str = "log-likelihood",
        counterfactual: bool = True,
        arms: tuple[str, ...] = ("train", "calibrate", "both"),
        warmup: int = 10,
        reward_smoothing: float = 0.05,
        trace_size: int = 1000,
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable = False,
        seed: int | None = None,
    ):
        _check_int("batch_size", batch_size, 1)
        _check_int("warmup", warmup, 0)
        _check_int("trace_size", trace_size, 1)
        validate_costs(c_fp, c_fn)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if not isinstance(counterfactual, bool):
            raise ValueError(f"counterfactual must be True or False, got {counterfactual!r}")
        if not isinstance(reward_smoothing, int | float) or not 0.0 < reward_smoothing <= 1.0:
            raise ValueError(f"reward_smoothing must be in (0, 1], got {reward_smoothing!r}")
        if pos_label == neg_label:
            raise ValueError(
                f"pos_label and neg_label must differ, got {pos_label!r} and {neg_label!r}"
            )
        if booster is not None and (
            booster.pos_label != pos_label or booster.neg_label != neg_label
        ):
            raise ValueError(
                f"the booster's labels (pos_label={booster.pos_label!r}, "
                f"neg_label={booster.neg_label!r}) differ from pos_label={pos_label!r}, "
                f"neg_label={neg_label!r}"
            )
        self.booster = booster
        self.calibrator = calibrator
        self.policy = policy
        self.batch_size = batch_size
        self.c_fp = c_fp
        self.c_fn = c_fn
        self.reward = reward
        self.counterfactual = counterfactual
        self.arms = arms
        self.warmup = warmup
        self.reward_smoothing = reward_smoothing
        self.trace_size = trace_size
        self.pos_label = pos_label
        self.neg_label = neg_label
        self.seed = seed

        self._arms = _resolve_arms(arms, policy)
        self._policy = _resolve_policy(policy, self._arms, seed)
        self._booster = (
            booster.clone()
            if booster is not None
            else OzaBoostClassifier(
                _default_member(), pos_label=pos_label, neg_label=neg_label, seed=seed
            )
        )
        self._calibrator = (
            calibrator.clone()
            if calibrator is not None
            else OnlinePlattCalibrator(gamma=1.0, eps=0.5 / (self._booster.n_models + 1))
        )

        self.arm_counts: dict[str, int] = dict.fromkeys(self._arms, 0)
        self.n_batches = 0
        self.trace: collections.deque = collections.deque(maxlen=trace_size)
        self.last_batch: dict | None = None
        self._arm: int | None = None  # arm of the current minibatch (None: warm-up)
        self._in_batch = 0
        # Evaluation of the previous minibatch's action on the current one:
        # (arm, booster before it, calibrator before it, summed loss difference).
        self._pending: _Pending | None = None
        self._booster_start: OzaBoostClassifier | None = None  # booster as the minibatch began
        self._calibrator_start: typing.Any = None  # calibrator as the minibatch began
        # On a "train" minibatch, a copy of the calibrator that learns it all the same, so the
        # rewards "calibrate" and "both" would have earned can be measured (counterfactual).
        self._shadow: typing.Any = None
        self._scale = 0.0
        self._scored: tuple[dict, float] | None = None  # last x scored by predict_proba_one

    @classmethod
    def _unit_test_params(cls):
        yield {"policy": "ucb1", "batch_size": 8, "warmup": 2}
        yield {"policy": "both", "batch_size": 16, "reward": "brier", "warmup": 0}
        yield {"policy": "every-2", "batch_size": 5, "reward": "expected-cost", "c_fn": 4.0}
        yield {"policy": "discounted-ucb", "batch_size": 4, "warmup": 1, "counterfactual": False}

    @property
    def _multiclass(self) -> bool:
        return False

    @property
    def booster_(self) -> OzaBoostClassifier:
        """The booster being trained (a clone of `booster`)."""
        return self._booster

    @property
    def calibrator_(self):
        """The calibrator being trained (a clone of `calibrator`)."""
        return self._calibrator

    @property
    def policy_(self) -> bandits.base.Policy:
        """The policy choosing the arms."""
        return self._policy

    @property
    def current_arm(self) -> str:
        """The arm of the minibatch in progress (or about to start)."""
        return "train" if self._arm is None else self._arms[self._arm]

    # ------------------------------------------------------------------ prediction

    def _calibrated(self, calibrator, score: float) -> float:
        # Fallback: an untrained calibrator passes the raw score through unchanged.
        return calibrator.predict_one(score) if calibrator.n_seen else score

    def predict_proba_one(self, x: dict, **kwargs) -> dict[typing.Hashable, float]:
        score = self._booster.score_one(x)
        # learn_one needs the same score right after, in a prequential loop (a copy of x: the
        # model must not alias its input).
        self._scored = (dict(x), score)
        p = self._calibrated(self._calibrator, score)
        return {self.neg_label: 1.0 - p, self.pos_label: p}

    def predict_proba_many(self, X: pd.DataFrame, **kwargs) -> pd.DataFrame:
        import pandas as pd

        probas = [self.predict_proba_one(x) for x in _records(X)]
        return pd.DataFrame(probas, index=X.index, columns=[self.neg_label, self.pos_label])

    def predict_many(self, X: pd.DataFrame, **kwargs) -> pd.Series:
        import pandas as pd

        return pd.Series(
            [self.predict_one(x, **kwargs) for x in _records(X)], index=X.index, dtype=object
        )

    # ------------------------------------------------------------------ learning

    def _loss(self, p: float, positive: bool) -> float:
        if self.reward == "log-likelihood":
            p = min(max(p, _LOG_EPS), 1.0 - _LOG_EPS)
            return -math.log(p if positive else 1.0 - p)
        if self.reward == "brier":
            return (p - positive) ** 2
        if (p > cost_threshold(self.c_fp, self.c_fn)) == positive:
            return 0.0
        return (self.c_fn if positive else self.c_fp) / (self.c_fp + self.c_fn)

    def _start_batch(self) -> None:
        if self.n_batches < self.warmup:
            self._arm = None
        else:
            self._arm = self._policy.select()
        if not self._policy.uses_rewards:  # a schedule: no reward to measure, no snapshots
            self._booster_start = self._calibrator_start = self._shadow = None
            return
        arm = self.current_arm
        # Snapshots of what this minibatch's action changes, for its paired reward (a warm-up
        # minibatch, arm None, earns none, and no evaluation is pending during warm-up).
        self._booster_start = (
            pickle.loads(pickle.dumps(self._booster))
            if self._arm is not None and arm in ("train", "both")
            else None
        )
        self._calibrator_start = copy.deepcopy(self._calibrator)
        self._shadow = (
            copy.deepcopy(self._calibrator)
            if arm == "train" and self._arm is not None and len(self._measured(self._arm)) > 1
            else None
        )

    def _measured(self, arm: int) -> tuple[int, ...]:
        """The arms whose reward the action `arm` lets this controller measure."""
        policy = self._policy
        if self.counterfactual and policy.side_observations and self._arms[arm] != "calibrate":
            return tuple(range(len(self._arms)))  # the booster was snapshot: every arm
        return (arm,)

    def _is_positive(self, y) -> bool:
        """Whether `y` is the positive label; a label that is neither raises ValueError."""
        if y == self.pos_label:
            return True
        if y == self.neg_label:
            return False
        raise ValueError(
            f"label {y!r} is neither pos_label={self.pos_label!r} nor "
            f"neg_label={self.neg_label!r}: BanditCalibratedClassifier is binary"
        )

    def learn_one(self, x: dict, y: base.typing.ClfTarget, **kwargs) -> None:
        positive = self._is_positive(y)
        if self._in_batch == 0:
            self._start_batch()
        scored, self._scored = self._scored, None
        score = scored[1] if scored is not None and scored[0] == x else self._booster.score_one(x)

        if self._pending is not None:
            self._accumulate(x, score, positive)

        arm = self.current_arm
        if arm in ("calibrate", "both"):
            self._calibrator.learn_one(score, positive)
        elif self._shadow is not None:
            self._shadow.learn_one(score, positive)
        if arm in ("train", "both"):
            self._booster.learn_one(x, y, **kwargs)

        self._in_batch += 1
        if self._in_batch == self.batch_size:
            self._end_batch()

    def _accumulate(self, x: dict, score: float, positive: bool) -> None:
        """Add one example of this minibatch to the paired evaluation of the previous action."""
        pending = self._pending
        # The booster after the previous action: as this minibatch began (the live one unless
        # this minibatch trains it); before it, its snapshot (None: the action did not train).
        after = self._booster_start.score_one(x) if self._booster_start is not None else score
        before = pending.booster.score_one(x) if pending.booster is not None else after
        calibrated = pending.calibrator  # the calibrator after the previous action
        if calibrated is None:
            calibrated = self._calibrator_start
        loss, uncalibrated = self._loss, pending.calibrator_before
        baseline = loss(self._calibrated(uncalibrated, before), positive)
        totals = pending.totals
        for i, arm in enumerate(pending.arms):
            name = self._arms[arm]
            s = after if name != "calibrate" else before
            calibrator = calibrated if name != "train" else uncalibrated
            totals[i] += baseline - loss(self._calibrated(calibrator, s), positive)

    def _end_batch(self) -> None:
        record = {
            "batch": self.n_batches,
            "arm": self.current_arm,
            "rewarded_batch": None,
            "rewarded_arm": None,
            "improvement": None,
            "reward": None,
            "improvements": None,
            "rewards": None,
        }
        pending = self._pending
        if pending is not None:
            improvements = [total / self._in_batch for total in pending.totals]
            rewards = self._rewards(improvements)
            self._policy.update_round(dict(zip(pending.arms, rewards, strict=True)))
            taken = pending.arms.index(pending.arm)
            names = [self._arms[a] for a in pending.arms]
            record.update(
                rewarded_batch=self.n_batches - 1,
                rewarded_arm=self._arms[pending.arm],
                improvement=improvements[taken],
                reward=rewards[taken],
                improvements=dict(zip(names, improvements, strict=True)),
                rewards=dict(zip(names, rewards, strict=True)),
            )
        # This minibatch's action is evaluated on the next one (not during warm-up).
        if self._arm is None or not self._policy.uses_rewards:
            self._pending = None
        else:
            arms = self._measured(self._arm)
            self._pending = _Pending(
                arm=self._arm,
                arms=arms,
                booster=self._booster_start,
                calibrator_before=self._calibrator_start,
                # None: the live calibrator, which learned this minibatch.
                calibrator=self._shadow,
                totals=[0.0] * len(arms),
            )
        self._shadow = None
        self.arm_counts[self.current_arm] += 1
        self.n_batches += 1
        self._in_batch = 0
        self.trace.append(record)
        self.last_batch = record

    def _rewards(self, improvements: list[float]) -> list[float]:
        """Standardise one round's improvements by the running RMS scale and squash them into
        the policy's range (see the class docstring)."""
        square = sum(d * d for d in improvements) / len(improvements)
        self._scale = (
            square
            if self._scale == 0.0
            else (1.0 - self.reward_smoothing) * self._scale + self.reward_smoothing * square
        )
        root = math.sqrt(self._scale)
        low, high = self._policy.reward_range or (0.0, 1.0)
        rewards = []
        for improvement in improvements:
            z = improvement / root if root > 0.0 else 0.0
            squashed = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
            rewards.append(low + (high - low) * squashed)
        return rewards

    def learn_many(self, X: pd.DataFrame, y: pd.Series, **kwargs) -> None:
        """Learn a minibatch: the same as a `learn_one` loop, so minibatch boundaries fall every
        `batch_size` examples whatever the size of `X` (pass `batch_size` rows to align them).
        Every label is checked before any example is learned."""
        rows = _records(X)
        labels = list(y)
        if len(rows) != len(labels):
            raise ValueError(f"X has {len(rows)} rows but y has {len(labels)} labels")
        for label in labels:  # every label checked before any example is learned
            self._is_positive(label)
        for x, label in zip(rows, labels, strict=True):
            self.learn_one(x, label, **kwargs)


@dataclasses.dataclass
class _Pending:
    """The previous minibatch's action, being scored on the current minibatch."""

    arm: int  # the action taken
    arms: tuple[int, ...]  # the arms scored: the action, and the counterfactual ones
    booster: OzaBoostClassifier | None  # the booster before the action (None: not trained)
    calibrator_before: typing.Any  # the calibrator before the action
    calibrator: typing.Any  # the calibrator after learning the minibatch (None: the live one)
    totals: list[float]  # summed loss improvement of each scored arm


def _check_int(name: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")


def _resolve_arms(arms, policy) -> tuple[str, ...]:
    if not isinstance(arms, tuple) or not all(isinstance(a, str) for a in arms):
        raise ValueError(f"arms must be a tuple of arm names from {ARMS}, got {arms!r}")
    unknown = [a for a in arms if a not in ARMS]
    if unknown or len(set(arms)) != len(arms) or len(arms) < 2:
        raise ValueError(f"arms must be 2 or 3 distinct names from {ARMS}, got {arms!r}")
    if policy == "both" and "both" not in arms:
        return (*arms, "both")
    if policy == "never" and "train" not in arms:
        raise ValueError(f"policy 'never' needs the 'train' arm, got arms={arms!r}")
    if (policy == "always" or str(policy).startswith("every-")) and "calibrate" not in arms:
        raise ValueError(f"policy {policy!r} needs the 'calibrate' arm, got arms={arms!r}")
    return arms


def _resolve_policy(policy, arms: tuple[str, ...], seed: int | None):
    n_arms = len(arms)
    if isinstance(policy, bandits.base.Policy):
        if policy.n_arms != n_arms:
            raise ValueError(
                f"the policy has n_arms={policy.n_arms} but the controller has {n_arms} arms "
                f"{arms}; build it with n_arms={n_arms}"
            )
        return policy.clone()
    if not isinstance(policy, str):
        raise TypeError(f"policy must be a name or a streamboost.bandits policy, got {policy!r}")
    if policy == "never":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("train"))
    if policy == "always":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("calibrate"))
    if policy == "both":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("both"))
    if policy.startswith("every-"):
        n = policy.removeprefix("every-")
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"policy {policy!r}: 'every-N' needs a whole number N >= 1")
        if arms.index("calibrate") != 1:
            raise ValueError(f"policy {policy!r} needs 'calibrate' as arm 1, got arms={arms!r}")
        return bandits.make("every-nth", n_arms=n_arms, seed=seed, n=int(n))
    if policy not in bandits.POLICIES:
        names = sorted([*bandits.POLICIES, "never", "always", "both", "every-N"])
        raise ValueError(f"unknown policy {policy!r}; expected one of {names}")
    return bandits.make(policy, n_arms=n_arms, seed=seed)


def _default_member() -> base.Classifier:
    from river import linear_model

    return linear_model.LogisticRegression()
