"""Epsilon-greedy."""

from __future__ import annotations

from .base import Policy, _argmax, _check_open_unit, _first_unpulled

__all__ = ["EpsilonGreedy"]


class EpsilonGreedy(Policy):
    r"""Epsilon-greedy: explore uniformly with probability $\varepsilon$, else exploit.

    With probability $\varepsilon$ pull an arm drawn uniformly from all $K$ arms; otherwise pull
    an arm never pulled yet (lowest index first) or else $\arg\max_j \bar x_j$, the best
    average reward so far (ties at random). Sutton & Barto (2018, Section 2.2).

    With a constant $\varepsilon$ the regret grows linearly, about
    $\varepsilon \frac{K-1}{K} \Delta$ per round: a worse arm keeps being tried, which is also
    what lets the policy notice slow changes. Only averages are compared, so any finite reward
    is accepted (`reward_range` is `None`).

    Parameters
    ----------
    n_arms
        Number of arms.
    epsilon
        Exploration probability $\varepsilon \in (0, 1]$.
    seed
        Seed of the generator used for exploring and breaking ties.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.EpsilonGreedy(n_arms=3, epsilon=0.1, seed=0)
    >>> for _ in range(300):
    ...     arm = policy.select()
    ...     policy.update(arm, [1.0, 5.0, 2.0][arm])
    >>> policy.counts[1] > 250
    True

    References
    ----------
    Sutton, R. S. and Barto, A. G. (2018). Reinforcement Learning: An Introduction, 2nd ed.
    MIT Press, Section 2.2.

    """

    reward_range = None

    def __init__(self, n_arms: int = 2, epsilon: float = 0.1, seed: int | None = None):
        _check_open_unit("epsilon", epsilon, closed_right=True)
        self.epsilon = epsilon
        super().__init__(n_arms=n_arms, seed=seed)

    def _select(self) -> int:
        rng = self._rng
        if rng.random() < self.epsilon:
            return rng.randrange(self.n_arms)
        counts = self._counts
        arm = _first_unpulled(counts)
        if arm >= 0:
            return arm
        return _argmax([s / n for s, n in zip(self._sums, counts, strict=True)], rng)
