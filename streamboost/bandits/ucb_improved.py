"""UCB-Improved (Auer & Ortner, 2010): phased arm elimination, with restarts."""

from __future__ import annotations

import math

from ..validation import check_int
from .base import Policy, _argmax, _first_unpulled, _ratios

__all__ = ["UCBImproved"]


class UCBImproved(Policy):
    r"""UCB-Improved: explore the surviving arms in phases, eliminate the clearly worse ones.

    Within an epoch of $T$ rounds (Auer & Ortner 2010, Fig. 1), from $\tilde\Delta_0 = 1$ and
    every arm active, phase $m = 0, 1, \dots, \lfloor \frac12 \log_2(T/e) \rfloor$ pulls each
    active arm (fewest pulls first; of those, one without pulls, lowest index first, else the
    best mean) until it has

    $$n_m = \left\lceil \frac{2 \ln(T \tilde\Delta_m^2)}{\tilde\Delta_m^2} \right\rceil$$

    pulls in the epoch, then eliminate every arm $i$ with
    $\bar x_i + w_m < \max_j (\bar x_j - w_m)$, where
    $w_m = \sqrt{\ln(T\tilde\Delta_m^2) / (2 n_m)}$, and halve $\tilde\Delta$. A single surviving
    arm is played to the end of the epoch. Where the paper is silent (several arms survive
    the last phase; arms tied on pulls within a phase) the best mean goes first, ties at
    random: side observations (`update_round`) tie every arm's pulls, so the phase explores by
    observing and the pull exploits (docs/bandits.md). Regret is
    $O(\sum_i \ln(T\Delta_i^2)/\Delta_i)$ (Theorem 3.1). With `horizon=T` every epoch lasts
    $T$ rounds, else a doubling trick runs epochs of `initial_horizon` $\cdot 2^k$ rounds. As
    an epoch ends the policy restarts and **eliminated arms come back**, their only way back.
    `means` are the averages over the current epoch (`nan` for an arm not pulled in it).

    Parameters
    ----------
    n_arms, horizon, initial_horizon, seed
        Number of arms; the epoch's length $T$ (None: the doubling trick); the trick's first
        epoch; the seed of the generator that breaks ties.

    Examples
    --------
    >>> import random
    >>> from streamboost import bandits
    >>> policy = bandits.UCBImproved(n_arms=2, horizon=2000, seed=0)
    >>> env = random.Random(1)
    >>> for _ in range(1500):
    ...     arm = policy.select()
    ...     policy.update(arm, float(env.random() < (0.3, 0.7)[arm]))
    >>> policy.active_arms, policy.phase
    ((1,), 3)

    References
    ----------
    Auer, P. and Ortner, R. (2010). UCB revisited: improved regret bounds for the stochastic
    multi-armed bandit problem. Periodica Mathematica Hungarica, 61(1-2), 55-65.

    """

    def __init__(
        self,
        n_arms: int = 2,
        horizon: int | None = None,
        initial_horizon: int = 64,
        seed: int | None = None,
    ):
        self.horizon = None if horizon is None else check_int("horizon", horizon, 1)
        self.initial_horizon = check_int("initial_horizon", initial_horizon, 1)
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._epoch = -1
        self._start_epoch()

    def _epoch_length(self) -> int:
        """$T$ of the epoch starting (`_epoch` its index)."""
        return self.horizon if self.horizon is not None else self.initial_horizon * 2**self._epoch

    def _epoch_statistics(self) -> None:
        """Each arm's pulls and reward sum that the phases read, as an epoch starts: cleared,
        each epoch a fresh instance of the algorithm (the forgetting variants keep theirs)."""
        # ints, but floats in the discounted variant
        self._epoch_counts: list = [0] * self.n_arms
        self._epoch_sums = [0.0] * self.n_arms

    def _observe(self, observed: list[tuple[int, float]]) -> None:
        """Add a round's observations to the statistics."""
        for arm, reward in observed:
            self._epoch_counts[arm] += 1
            self._epoch_sums[arm] += reward

    def _start_epoch(self) -> None:
        self._epoch += 1
        self._T = self._epoch_length()
        self._epoch_rounds = 0
        self._epoch_statistics()
        self._active = list(range(self.n_arms))
        self._last_phase = math.floor(0.5 * math.log2(self._T / math.e))
        self._phase = 0
        self._set_target()

    def _set_target(self) -> None:
        if self._phase > self._last_phase:
            self._target = 0
            return
        delta2 = 4.0**-self._phase
        self._log_term = math.log(self._T * delta2)  # >= 1 for every phase <= the last
        self._target = math.ceil(2.0 * self._log_term / delta2)

    @property
    def epoch(self) -> int:
        """Index of the current epoch (0 for the first)."""
        return self._epoch

    @property
    def phase(self) -> int:
        """Current phase $m$ within the epoch."""
        return self._phase

    @property
    def active_arms(self) -> tuple[int, ...]:
        """Arms not eliminated in the current epoch."""
        return tuple(self._active)

    @property
    def means(self) -> tuple[float, ...]:
        return _ratios(self._epoch_sums, self._epoch_counts)

    def _select(self) -> int:
        active = self._active
        if len(active) == 1:
            return active[0]
        counts = self._epoch_counts
        if self._target:  # the active arms with the fewest pulls: the phase's exploration
            least = min(counts[a] for a in active)
            active = [a for a in active if counts[a] == least]
            if len(active) == 1:
                return active[0]
        # Several arms tied: at a phase, the best mean among them (side observations, which
        # count every arm, tie them all every round: the phase explores by observing, so the
        # pull exploits); the survivors after the last phase (or of an epoch too short for any)
        arm = _first_unpulled([counts[a] for a in active])
        if arm >= 0:
            return active[arm]
        sums = self._epoch_sums
        return active[_argmax([sums[a] / counts[a] for a in active], self._rng)]

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        self._observe(observed)
        self._epoch_rounds += 1
        if self._epoch_rounds >= self._T:
            # cleared statistics meet no target; the forgetting variants' may pass some at once
            self._start_epoch()
        counts = self._epoch_counts
        while self._target and len(self._active) > 1:
            if any(counts[a] < self._target for a in self._active):
                return
            self._eliminate()

    def _eliminate(self) -> None:
        width = math.sqrt(self._log_term / (2.0 * self._target))
        means = {a: self._epoch_sums[a] / self._epoch_counts[a] for a in self._active}
        best_lower = max(means.values()) - width
        self._active = [a for a in self._active if means[a] + width >= best_lower]
        self._phase += 1
        self._set_target()
