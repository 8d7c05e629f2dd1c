"""Simulated bandit problems: stationary, piecewise-stationary and rested (diminishing returns,
rising)."""

from __future__ import annotations

import abc
import math
import random

from river import base

from ..validation import check_int, is_real
from .base import _check_open_unit, _check_positive

__all__ = ["BernoulliArms", "DiminishingReturns", "Environment", "PiecewiseBernoulli", "RisingArms"]


def _check_probabilities(name: str, values) -> tuple[float, ...]:
    values = tuple(values)
    if len(values) < 1 or not all(
        is_real(v) and 0.0 <= v <= 1.0 for v in values
    ):
        raise ValueError(
            f"{name} must be a non-empty sequence of numbers in [0, 1], got {values!r}"
        )
    return tuple(float(v) for v in values)


class Environment(base.Base, abc.ABC):
    """A simulated bandit problem with Bernoulli rewards.

    `expected_rewards(t)` gives each arm's expected reward at round `t` (counted from 1) in the
    current state; `pull(arm, t, rng)` draws the pulled arm's reward with `rng` and advances the
    state if the problem has one; `reset()` returns to the initial state.

    Examples
    --------
    A subclass sets `n_arms` and implements `expected_rewards`; here the best arm alternates.

    >>> import random
    >>> from streamboost import bandits
    >>> class Alternating(bandits.Environment):
    ...     n_arms = 2
    ...     def expected_rewards(self, t):
    ...         return (1.0, 0.0) if t % 2 else (0.0, 1.0)
    >>> env = Alternating()
    >>> env.pull(0, 1, random.Random(0)), env.pull(0, 2, random.Random(0))
    (1.0, 0.0)
    >>> result = bandits.simulate(bandits.UCB1(n_arms=2, seed=0), env, 10, seed=0)
    >>> float(result.rewards.sum() + result.regret.sum())  # each round: reward + regret = 1
    10.0

    """

    n_arms: int

    @abc.abstractmethod
    def expected_rewards(self, t: int) -> tuple[float, ...]:
        """Expected reward of each arm at round `t`."""

    def pull(self, arm: int, t: int, rng: random.Random) -> float:
        """Reward of `arm` at round `t`: 1.0 with probability its expected reward, else 0.0."""
        return 1.0 if rng.random() < self.expected_rewards(t)[arm] else 0.0

    def reset(self) -> None:
        """Return to the initial state."""


class BernoulliArms(Environment):
    """Stationary arms: arm `i` pays 1 with probability `means[i]`, else 0.

    Parameters
    ----------
    means
        Success probability of each arm.

    Examples
    --------
    >>> from streamboost.bandits import BernoulliArms
    >>> BernoulliArms((0.4, 0.6)).expected_rewards(1)
    (0.4, 0.6)

    References
    ----------
    Auer, P., Cesa-Bianchi, N. and Fischer, P. (2002). Finite-time analysis of the multiarmed
    bandit problem. Machine Learning 47(2-3), 235-256 (Bernoulli arms, Section 4).

    """

    def __init__(self, means: tuple[float, ...] = (0.4, 0.6)):
        self.means = means
        self._means = _check_probabilities("means", means)
        self.n_arms = len(self._means)

    def expected_rewards(self, t: int) -> tuple[float, ...]:
        return self._means


class PiecewiseBernoulli(Environment):
    """Bernoulli arms whose means jump at given rounds.

    Segment `k` (a tuple of means, one per arm) holds from round `change_points[k - 1]`
    (inclusive; round 1 for `k = 0`) until the round before `change_points[k]`.

    Parameters
    ----------
    segments
        The arms' means in each segment.
    change_points
        First round of every segment but the first, increasing (one fewer than `segments`).

    Examples
    --------
    >>> from streamboost.bandits import PiecewiseBernoulli
    >>> env = PiecewiseBernoulli(segments=((0.7, 0.5), (0.3, 0.5)), change_points=(5000,))
    >>> env.expected_rewards(4999), env.expected_rewards(5000)
    ((0.7, 0.5), (0.3, 0.5))

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188 (abruptly changing environments).

    """

    def __init__(
        self,
        segments: tuple[tuple[float, ...], ...] = ((0.7, 0.5), (0.3, 0.5)),
        change_points: tuple[int, ...] = (5000,),
    ):
        self.segments = segments
        self.change_points = change_points
        self._segments = [_check_probabilities("each segment", s) for s in segments]
        if len({len(s) for s in self._segments}) != 1:
            raise ValueError(f"every segment must have the same number of arms, got {segments!r}")
        points = [check_int("a change point", c, 2) for c in change_points]
        if len(points) != len(self._segments) - 1 or points != sorted(set(points)):
            raise ValueError(
                "change_points must be increasing rounds, one fewer than the segments, "
                f"got {change_points!r} for {len(self._segments)} segments"
            )
        self._points = points
        self.n_arms = len(self._segments[0])

    def expected_rewards(self, t: int) -> tuple[float, ...]:
        k = 0
        for point in self._points:
            if t < point:
                break
            k += 1
        return self._segments[k]


class DiminishingReturns(Environment):
    r"""A rested bandit: pulling an arm lowers its value, resting it lets it recover.

    Arm $i$ pays 1 with probability $v_i$. After arm $a$ is pulled its value decays towards
    `floor`, $v_a \leftarrow f + (1 - d)(v_a - f)$, and every other arm recovers towards
    `ceiling`, $v_j \leftarrow v_j + \rho\,(c - v_j)$. This mimics the controller's arms:
    the more the booster is trained, the less another training minibatch helps and the more
    calibrating it would. A policy that keeps alternating collects the most; a policy stuck on
    one arm drives it down to `floor`.

    Parameters
    ----------
    initial
        Initial value $v_i$ of each arm.
    decay
        Decay rate $d \in (0, 1)$ of a pulled arm.
    recovery
        Recovery rate $\rho \in (0, 1)$ of every arm not pulled.
    floor
        Value $f$ a pulled arm decays towards.
    ceiling
        Value $c$ a resting arm recovers towards.

    Examples
    --------
    >>> import random
    >>> from streamboost.bandits import DiminishingReturns
    >>> env = DiminishingReturns(initial=(0.8, 0.4), decay=0.5, recovery=0.5)
    >>> reward = env.pull(0, 1, random.Random(0))
    >>> tuple(round(r, 12) for r in env.expected_rewards(2))
    (0.45, 0.65)

    References
    ----------
    - Levine, N., Crammer, K. and Mannor, S. (2017). Rotting bandits. NeurIPS 30.
    - Pike-Burke, C. and Grünewälder, S. (2019). Recovering bandits. NeurIPS 32.

    """

    def __init__(
        self,
        initial: tuple[float, ...] = (0.8, 0.4),
        decay: float = 0.01,
        recovery: float = 0.01,
        floor: float = 0.1,
        ceiling: float = 0.9,
    ):
        self.initial = initial
        self.decay = decay
        self.recovery = recovery
        self.floor = floor
        self.ceiling = ceiling
        self._initial = _check_probabilities("initial", initial)
        _check_open_unit("decay", decay)
        _check_open_unit("recovery", recovery)
        _check_probabilities("floor and ceiling", (floor, ceiling))
        if not floor <= ceiling:
            raise ValueError(f"floor must not exceed ceiling, got {floor!r} > {ceiling!r}")
        self.n_arms = len(self._initial)
        self.reset()

    def reset(self) -> None:
        self._values = list(self._initial)

    def expected_rewards(self, t: int) -> tuple[float, ...]:
        return tuple(self._values)

    def pull(self, arm: int, t: int, rng: random.Random) -> float:
        values = self._values
        reward = 1.0 if rng.random() < values[arm] else 0.0
        f, c, keep, rho = self.floor, self.ceiling, 1.0 - self.decay, self.recovery
        for j in range(self.n_arms):
            v = values[j]
            values[j] = f + keep * (v - f) if j == arm else v + rho * (c - v)
        return reward


class RisingArms(Environment):
    r"""A rested rising bandit: an arm's value grows with its own pulls, towards a ceiling.

    After $n_i$ pulls arm $i$ pays 1 with probability
    $v_i = c_i - (c_i - s_i)\,e^{-r_i n_i}$: a concave learning curve, the setting of
    stochastic rising bandits (Metelli et al. 2022), like a model that improves as it is
    trained. An arm that starts low but rises high is the best over a long horizon, which a
    policy averaging all past rewards misses. Regret is against the best arm of the current
    state, so read a run by its total reward or its pulls.

    Parameters
    ----------
    start
        Value $s_i$ of each arm before any pull.
    ceiling
        Value $c_i \ge s_i$ each arm rises towards.
    rate
        Rate $r_i > 0$ of each arm's rise per pull.

    Examples
    --------
    >>> import random
    >>> from streamboost.bandits import RisingArms
    >>> env = RisingArms(start=(0.5, 0.1), ceiling=(0.6, 0.9), rate=(0.5, 0.5))
    >>> reward = env.pull(1, 1, random.Random(0))
    >>> tuple(round(v, 3) for v in env.expected_rewards(2))  # 0.9 - 0.8 e^(-1/2)
    (0.5, 0.415)

    References
    ----------
    Metelli, A. M., Trovò, F., Pirola, M. and Restelli, M. (2022). Stochastic rising bandits.
    ICML, PMLR 162, 15421-15457.

    """

    def __init__(
        self,
        start: tuple[float, ...] = (0.5, 0.1),
        ceiling: tuple[float, ...] = (0.6, 0.9),
        rate: tuple[float, ...] = (0.05, 0.005),
    ):
        self.start = start
        self.ceiling = ceiling
        self.rate = rate
        self._start = _check_probabilities("start", start)
        self._ceiling = _check_probabilities("ceiling", ceiling)
        self._rate = tuple(rate)
        if not len(self._start) == len(self._ceiling) == len(self._rate):
            raise ValueError(
                f"start, ceiling and rate must have one value per arm, got {start!r}, "
                f"{ceiling!r} and {rate!r}"
            )
        if any(s > c for s, c in zip(self._start, self._ceiling, strict=True)):
            raise ValueError(f"each start must not exceed its ceiling, got {start!r} > {ceiling!r}")
        for r in self._rate:
            _check_positive("each rate", r)
        self.n_arms = len(self._start)
        self.reset()

    def reset(self) -> None:
        self._pulls = [0] * self.n_arms

    def expected_rewards(self, t: int) -> tuple[float, ...]:
        return tuple(
            c - (c - s) * math.exp(-r * n)
            for s, c, r, n in zip(self._start, self._ceiling, self._rate, self._pulls, strict=True)
        )

    def pull(self, arm: int, t: int, rng: random.Random) -> float:
        reward = super().pull(arm, t, rng)
        self._pulls[arm] += 1
        return reward
