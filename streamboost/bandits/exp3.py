"""Exp3 for adversarial rewards (Auer, Cesa-Bianchi, Freund & Schapire, 2002)."""

from __future__ import annotations

import math

from .base import Policy, _check_open_unit

__all__ = ["Exp3"]


class Exp3(Policy):
    r"""Exp3: exponential weights on importance-weighted reward estimates.

    Arm $i$ is pulled with probability

    $$p_i = (1 - \gamma) \frac{w_i}{\sum_j w_j} + \frac{\gamma}{K},$$

    and after reward $x$ of the pulled arm $i$, $w_i \leftarrow w_i \exp(\gamma\, \hat x_i / K)$
    with $\hat x_i = x / p_i$ (Auer et al. 2002, Fig. 1). No assumption is made on how rewards
    are generated, only that they lie in $[0, 1]$: the regret against the best fixed arm is
    $O(\sqrt{T K \ln K})$ even when an adversary chooses the rewards. The weights are stored as
    logarithms, shifted so that the largest is 0, which keeps long runs finite. `probabilities`
    are the current $p_i$.

    Default $\gamma = 0.1$. Corollary 3.2 of the paper tunes
    $\gamma = \min\{1, \sqrt{K \ln K / ((e-1) g)}\}$ for a known bound $g$ on the best arm's
    total reward; with $K = 2$ and $g = 10^4$ that is 0.009, which adapts slowly; 0.1 keeps
    every arm's probability above $\gamma/K$.

    Parameters
    ----------
    n_arms
        Number of arms.
    gamma
        Exploration rate $\gamma \in (0, 1]$.
    seed
        Seed of the generator used for the draws.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.Exp3(n_arms=2, gamma=0.2, seed=0)
    >>> policy.probabilities
    (0.5, 0.5)
    >>> policy.update(0, 1.0)
    >>> [round(p, 4) for p in policy.probabilities]
    [0.5399, 0.4601]

    References
    ----------
    Auer, P., Cesa-Bianchi, N., Freund, Y. and Schapire, R. E. (2002). The nonstochastic
    multiarmed bandit problem. SIAM Journal on Computing, 32(1), 48-77.

    """

    side_observations = False  # the estimate x / p_i is unbiased only for the pulled arm

    def __init__(self, n_arms: int = 2, gamma: float = 0.1, seed: int | None = None):
        _check_open_unit("gamma", gamma, closed_right=True)
        self.gamma = gamma
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._log_weights = [0.0] * self.n_arms
        self._probabilities = [1.0 / self.n_arms] * self.n_arms

    @property
    def probabilities(self) -> tuple[float, ...]:
        """Probability of pulling each arm next."""
        return tuple(self._probabilities)

    def _select(self) -> int:
        u = self._rng.random()
        acc = 0.0
        for arm, p in enumerate(self._probabilities):
            acc += p
            if u < acc:
                return arm
        return self.n_arms - 1  # acc may fall a hair short of 1

    def _update(self, arm: int, reward: float) -> None:
        k, g = self.n_arms, self.gamma
        log_w = self._log_weights
        log_w[arm] += g * reward / (self._probabilities[arm] * k)
        top = max(log_w)
        weights = [math.exp(v - top) for v in log_w]
        total = sum(weights)
        for i in range(k):
            log_w[i] -= top
        self._probabilities = [(1.0 - g) * w / total + g / k for w in weights]
