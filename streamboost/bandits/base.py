"""The interface shared by every bandit policy."""

from __future__ import annotations

import abc
import collections
import math
import numbers
import random
import typing

from river import base

from ..checkpoint import Checkpointable
from ..validation import check_int, check_seed, is_real

__all__ = ["Policy"]


def _check_open_unit(name: str, value, *, closed_right: bool = False) -> float:
    """Check 0 < value < 1 (or <= 1 with `closed_right`)."""
    ok = is_real(value) and value > 0.0
    ok = ok and (value <= 1.0 if closed_right else value < 1.0)
    if not ok:
        interval = "(0, 1]" if closed_right else "(0, 1)"
        raise ValueError(f"{name} must be a number in {interval}, got {value!r}")
    return float(value)


def _check_positive(name: str, value) -> float:
    if (
        not is_real(value)
        or not 1e-150 <= value <= 1e150  # also rejects NaN; its square and inverse stay finite
    ):
        raise ValueError(f"{name} must be a finite number > 0 (in [1e-150, 1e150]), got {value!r}")
    return float(value)


def _first_unpulled(counts: typing.Sequence[float]) -> int:
    """Lowest arm whose count is zero, or -1 when every arm has data."""
    return counts.index(0) if 0 in counts else -1  # the list's own loops, in C


def _ratios(sums: typing.Iterable[float], counts: typing.Iterable[float]) -> tuple[float, ...]:
    """Each arm's sum over its count (plain, discounted or windowed): its mean, `nan` where the
    count is 0."""
    return tuple(s / n if n else math.nan for s, n in zip(sums, counts, strict=True))


def _discount(counts: list[float], sums: list[float], gamma: float,
              observed: list[tuple[int, float]]) -> None:
    """One round of discounted statistics, in place: every arm's count and reward sum times
    `gamma`, pulled or not, then each observation added (Garivier & Moulines 2011, Section 2)."""
    for i in range(len(counts)):
        counts[i] *= gamma
        sums[i] *= gamma
    for arm, reward in observed:
        counts[arm] += 1.0
        sums[arm] += reward


def _slide(history: collections.deque, counts: list[int], sums: list[float], window: int,
           observed: list[tuple[int, float]]) -> None:
    """One round of sliding-window statistics, in place: the oldest round leaves once `history`
    holds `window` rounds (each the list of its observations), then `observed` enters
    (Garivier & Moulines 2011, Section 4)."""
    if len(history) == window:
        for old_arm, old_reward in history.popleft():
            counts[old_arm] -= 1
            # An emptied arm restarts from an exact 0.0, so round-off cannot accumulate.
            sums[old_arm] = sums[old_arm] - old_reward if counts[old_arm] else 0.0
    history.append(observed)
    for arm, reward in observed:
        counts[arm] += 1
        sums[arm] += reward


def _plain(observed: list[tuple], n_arms: int, bounds: tuple[float, float] | None) -> bool:
    """Whether every (arm, reward) of `observed` is an int arm in [0, `n_arms`) and a float
    reward within `bounds` (None: +/-1e150): what `_check_arm` and `_check_reward` pass as
    they are (a NaN is not within)."""
    low, high = bounds if bounds is not None else (-1e150, 1e150)
    for arm, reward in observed:
        if type(arm) is not int or type(reward) is not float or not (
            0 <= arm < n_arms and low <= reward <= high
        ):
            return False
    return True


def _argmax(values: typing.Sequence[float], rng: random.Random) -> int:
    """Index of the largest value, ties broken uniformly at random with `rng`."""
    best = max(values)
    if values.count(best) == 1:  # the usual case, without a Python loop
        return values.index(best)
    return rng.choice([i for i, v in enumerate(values) if v == best])


class Policy(Checkpointable, base.Base, abc.ABC):
    """A multi-armed bandit policy: `select()` an arm, then `update(arm, reward)`.

    `update_round({arm: reward, ...})` reports a round with side observations (Mannor & Shamir
    2011): rewards of arms not pulled that the caller could measure anyway. Subclasses
    implement `_select()`, `_update(arm, reward)` and `_reset()`; this class validates, counts
    the pulls and owns the generator `random.Random(seed)`, which breaks ties (same `seed`,
    same pulls). Arms are `0 .. n_arms - 1`; `update` takes any arm, not only the last
    selected, and refuses an arm out of range or a reward not finite or outside
    `reward_range` with a `ValueError`, the policy left as it was. Index policies pull every
    arm they have no data on first, lowest index first.

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the policy's generator (`None`: seeded from the system).

    Attributes
    ----------
    reward_range, uses_rewards, side_observations
        Class attributes: the rewards assumed (`None`: any finite one, the noise model in the
        policy's docstring); False for baselines that ignore rewards (nothing to measure);
        whether `update_round` may report several arms.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.UCB1(n_arms=2, seed=0)
    >>> policy.select()  # arms without data first, lowest index first
    0
    >>> policy.update(0, 1.0)
    >>> policy.select()
    1
    >>> policy.update_round({0: 1.0, 1: 0.0})  # pulled arm 1, also measured arm 0
    >>> policy.counts, policy.n_rounds, policy.means
    ((2, 1), 2, (1.0, 0.0))
    >>> policy.update(0, 1.5)
    Traceback (most recent call last):
    ...
    ValueError: reward must be in [0.0, 1.0] for UCB1, got 1.5

    """

    reward_range: tuple[float, float] | None = (0.0, 1.0)
    uses_rewards: bool = True
    side_observations: bool = True
    # what `_select` derives from the state, None until it is asked: an index policy's indices,
    # FEWA's choice
    _memo: typing.Any

    def __init__(self, n_arms: int = 2, seed: int | None = None):
        self.n_arms = check_int("n_arms", n_arms, 1)
        self.seed = check_seed(seed)
        self.reset()

    # ------------------------------------------------------------------ public API

    def select(self) -> int:
        """Choose the arm to pull next."""
        return self._select()

    def update(self, arm: int, reward: float) -> None:
        """Learn that pulling `arm` paid `reward` (one round of bandit feedback)."""
        # update_round({arm: reward}) without building and checking a mapping: this is the
        # simulator's inner loop.
        self._record([(self._check_arm(arm), self._check_reward(reward))])

    def update_round(self, rewards: typing.Mapping[int, float]) -> None:
        """Learn one round in which the reward of several arms was observed.

        A round with *side observations* (Mannor & Shamir 2011): besides the pulled arm, the
        caller measured what some other arms would have paid in the same round. Every
        observation counts as a pull of its arm for the estimates (`counts`, `means`), while
        `n_rounds` and the policies' clocks (discounting, windows, epochs) advance by one round.
        `update(arm, reward)` is `update_round({arm: reward})`. Everything is checked before any
        state changes. Policies whose estimates need the probability of observing an arm
        (`side_observations = False`, e.g. `Exp3`) accept one arm per round only.
        """
        if (type(rewards) is not dict and not isinstance(rewards, typing.Mapping)) or not rewards:
            raise ValueError(f"rewards must be a non-empty mapping arm -> reward, got {rewards!r}")
        if len(rewards) > 1 and not self.side_observations:
            raise ValueError(
                f"{type(self).__name__} learns from the pulled arm only (its estimates need the "
                f"probability of observing an arm); got rewards for arms {list(rewards)}"
            )
        observed = list(rewards.items())
        # a dict's keys are distinct, and plain ints and floats in range pass the checks as
        # they are (the controller's every round); anything else is checked one by one
        if type(rewards) is not dict or not _plain(observed, self.n_arms, self.reward_range):
            observed = [(self._check_arm(arm), self._check_reward(r)) for arm, r in observed]
            if len({arm for arm, _ in observed}) != len(observed):
                raise ValueError(f"rewards names an arm twice: {rewards!r}")
        self._record(observed)

    def _record(self, observed: list[tuple[int, float]]) -> None:
        self._memo = None  # the state changes: what `_select` derived from it is stale
        self._n_rounds += 1
        for arm, reward in observed:
            self._counts[arm] += 1
            self._sums[arm] += reward
        self._update_round(observed)

    def _check_arm(self, arm) -> int:
        if type(arm) is not int:
            if isinstance(arm, bool) or not isinstance(arm, numbers.Integral):
                raise ValueError(
                    f"arm must be an int in [0, {self.n_arms - 1}], got {arm!r} "
                    f"({type(arm).__name__})"
                )
            arm = int(arm)
        if not 0 <= arm < self.n_arms:
            raise ValueError(f"arm must be an int in [0, {self.n_arms - 1}], got {arm!r}")
        return arm

    def _check_reward(self, reward) -> float:
        if type(reward) is not float:
            if not isinstance(reward, numbers.Real):
                raise ValueError(
                    f"reward must be a real number, got {reward!r} ({type(reward).__name__})"
                )
            reward = float(reward)
        bounds = self.reward_range
        if bounds is None:
            if not -1e150 <= reward <= 1e150:  # also rejects NaN; sums of them stay finite
                raise ValueError(f"reward must be finite (within +/-1e150), got {reward!r}")
        elif not bounds[0] <= reward <= bounds[1]:  # also rejects nan
            raise ValueError(
                f"reward must be in [{bounds[0]}, {bounds[1]}] for {type(self).__name__}, "
                f"got {reward!r}"
            )
        return reward

    def reset(self) -> None:
        """Forget everything learnt; the generator restarts from `seed`."""
        self._rng = random.Random(self.seed)
        self._n_rounds = 0
        self._counts = [0] * self.n_arms
        self._sums = [0.0] * self.n_arms
        self._memo = None
        self._reset()

    @property
    def n_rounds(self) -> int:
        """Number of rounds so far (`update` and `update_round` calls; a round with side
        observations counts once)."""
        return self._n_rounds

    @property
    def counts(self) -> tuple[int, ...]:
        """Number of times each arm was updated, over the policy's whole life."""
        return tuple(self._counts)

    @property
    def means(self) -> tuple[float, ...]:
        """The policy's current estimate of each arm's mean reward.

        By default the plain average of all its rewards (`nan` for an arm never pulled);
        policies that estimate otherwise (discounted, windowed, posterior) say so.
        """
        return _ratios(self._sums, self._counts)

    def _indices(self) -> tuple[float, ...]:
        """The index policies' `upper_bounds`, computed once per state. An index changes only
        when the policy learns (`update`, `update_round`, `reset`), not when it selects, so a
        caller that selects several times between updates (a controller measuring one minibatch
        in `reward_every`) pays for it once; the tie-break still draws at every `select`."""
        memo = self._memo
        if memo is None:
            memo = self._memo = self.upper_bounds  # type: ignore[attr-defined]  # index policies'
        return memo

    def _index_select(self, counts: typing.Sequence[float]) -> int:
        """An index policy's choice: the lowest arm whose count is 0, else the arm of the highest
        index (`_indices`), ties at random."""
        arm = _first_unpulled(counts)
        return arm if arm >= 0 else _argmax(self._indices(), self._rng)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_memo": None}  # derived from the rest: a pickle keeps none

    # ------------------------------------------------------------------ subclass hooks

    @abc.abstractmethod
    def _select(self) -> int:
        """The arm to pull; may use `self._rng`."""

    def _update(self, arm: int, reward: float) -> None:
        """Learn from a validated reward; counts, sums and `n_rounds` are already updated."""

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        """Learn a validated round, `(arm, reward)` pairs; by default `_update` for each. Policies
        with a clock (discounting, a window) override this to advance it once per round."""
        for arm, reward in observed:
            self._update(arm, reward)

    def _reset(self) -> None:
        """Set the subclass's own initial state."""
