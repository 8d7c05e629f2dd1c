"""Sliding-window UCB (Garivier & Moulines, 2011)."""

from __future__ import annotations

import collections
import math

from .base import Policy, _argmax, _check_int, _check_positive, _first_unpulled

__all__ = ["SlidingWindowUCB"]


class SlidingWindowUCB(Policy):
    r"""Sliding-window UCB (SW-UCB): UCB on the last $\tau$ rounds only.

    With $N_t(\tau, i)$ the number of pulls of arm $i$ among the last $\tau$ rounds and
    $\bar X_t(\tau, i)$ their average reward, pull (Garivier & Moulines 2011, Section 4)

    $$\arg\max_i \bar X_t(\tau, i) + B \sqrt{\frac{\xi \log \min(t, \tau)}{N_t(\tau, i)}},$$

    with $B = 1$ (rewards in $[0, 1]$), $\xi > 1/2$ and $t$ the number of rounds so far. An arm
    with no pull inside the window has an infinite index: such arms are pulled first, lowest
    index first. The window is a ring buffer of the last $\tau$ rounds' (arm, reward) pairs (one
    per round, or one per observed arm in a round with side observations, `update_round`) plus
    per-arm window counts and sums, so memory is $O(\tau K)$ and each step is $O(K)$.

    Defaults: $\tau = 500$, the same memory as `DiscountedUCB`'s default $\gamma = 0.998$
    ($1/(1-\gamma)$ rounds; the paper's tuning $\tau = 2B\sqrt{T \log T / \Upsilon_T}$ gives it
    for about one breakpoint per 7,000 rounds when $T = 10^4$), and $\xi = 0.6$. As with D-UCB
    the worse arm keeps a non-vanishing share of pulls in a stationary problem. In a rested
    problem SW-UCB reacts late: an arm rested after a long run of pulls keeps those pulls, and
    its stale mean, inside the window for up to $\tau$ rounds, so it is retried in long
    stretches rather than alternated (D-UCB's counts shrink every round instead).

    `means` are the window means (`nan` for an arm absent from the window); `window_counts`
    are the $N_t(\tau, i)$.

    Parameters
    ----------
    n_arms
        Number of arms.
    window
        Window length $\tau$ in rounds.
    xi
        Exploration constant $\xi$ (the analysis needs $\xi > 1/2$).
    seed
        Seed of the generator that breaks ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.SlidingWindowUCB(n_arms=2, window=3, seed=0)
    >>> for arm, reward in [(0, 1.0), (1, 0.0), (1, 0.5), (1, 1.0)]:
    ...     policy.update(arm, reward)
    >>> policy.window_counts, policy.means
    ((0, 3), (nan, 0.5))
    >>> policy.select()  # arm 0 has left the window
    0

    References
    ----------
    Garivier, A. and Moulines, E. (2011). On upper-confidence bound policies for switching
    bandit problems. ALT, LNCS 6925, 174-188. arXiv:0805.3415.

    """

    def __init__(
        self, n_arms: int = 2, window: int = 500, xi: float = 0.6, seed: int | None = None
    ):
        _check_int("window", window, 1)
        _check_positive("xi", xi)
        self.window = window
        self.xi = xi
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._history: collections.deque = collections.deque()
        self._wn = [0] * self.n_arms
        self._ws = [0.0] * self.n_arms

    @property
    def window_counts(self) -> tuple[int, ...]:
        """Pulls of each arm within the window, $N_t(\\tau, i)$."""
        return tuple(self._wn)

    @property
    def means(self) -> tuple[float, ...]:
        return tuple(s / n if n else math.nan for s, n in zip(self._ws, self._wn, strict=True))

    @property
    def upper_bounds(self) -> tuple[float, ...]:
        """Each arm's window index (`inf` for an arm absent from the window)."""
        t = min(self._n_rounds, self.window)
        scale = self.xi * math.log(t) if t else 0.0  # B = 1
        return tuple([  # a list first: faster than a generator
            s / n + math.sqrt(scale / n) if n else math.inf
            for s, n in zip(self._ws, self._wn, strict=True)
        ])

    def _select(self) -> int:
        arm = _first_unpulled(self._wn)
        return arm if arm >= 0 else _argmax(self._indices(), self._rng)

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        history = self._history
        if len(history) == self.window:  # the window holds rounds, each with its observations
            for old_arm, old_reward in history.popleft():
                self._wn[old_arm] -= 1
                # An emptied arm restarts from an exact 0.0, so round-off cannot accumulate.
                self._ws[old_arm] = self._ws[old_arm] - old_reward if self._wn[old_arm] else 0.0
        history.append(observed)
        for arm, reward in observed:
            self._wn[arm] += 1
            self._ws[arm] += reward
