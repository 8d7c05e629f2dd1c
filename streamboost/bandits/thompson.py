"""Thompson sampling: Gaussian (conjugate Normal) and Beta-Bernoulli."""

from __future__ import annotations

import math

from .base import Policy, _argmax, _check_positive

__all__ = ["BetaThompson", "GaussianThompson"]


class GaussianThompson(Policy):
    r"""Thompson sampling with a Normal prior on each arm's mean reward.

    Model: arm $j$ pays its mean $\mu_j$ plus Gaussian noise of known standard deviation
    $\sigma$ (`noise_std`); the prior is $\mu_j \sim \mathcal N(m_0, s_0^2)$. After $n_j$ pulls
    with reward sum $S_j$ the conjugate posterior of the **mean** is $\mathcal N(m_j, 1/\lambda_j)$
    with

    $$\lambda_j = \frac{1}{s_0^2} + \frac{n_j}{\sigma^2}, \qquad
      m_j = \frac{1}{\lambda_j}\left(\frac{m_0}{s_0^2} + \frac{S_j}{\sigma^2}\right).$$

    Each round draws $\theta_j \sim \mathcal N(m_j, 1/\lambda_j)$ for every arm and pulls
    $\arg\max_j \theta_j$, whose spread shrinks like $1/\sqrt{n_j}$ (River's `proba.Gaussian`
    draws from the rewards' own spread, which never shrinks). The defaults $m_0 = 0$,
    $s_0 = 1$, $\sigma = 1$ give exactly the Gaussian Thompson sampling of Agrawal & Goyal
    (2013), $\theta_j \sim \mathcal N(S_j/(n_j+1), 1/(n_j+1))$, whose regret bound holds for
    rewards in $[0, 1]$. Any finite reward is accepted; for other scales set `noise_std` to
    the noise level. No arm is pulled first; `means` are the posterior means $m_j$.

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the generator used for the draws.
    prior_mean, prior_std
        Prior mean $m_0$ and standard deviation $s_0$ of every arm's mean reward.
    noise_std
        Assumed standard deviation $\sigma$ of a reward around its arm's mean.

    Examples
    --------
    >>> import random
    >>> from streamboost import bandits
    >>> policy = bandits.GaussianThompson(n_arms=2, seed=0)
    >>> env = random.Random(1)
    >>> for _ in range(1000):
    ...     arm = policy.select()
    ...     policy.update(arm, float(env.random() < (0.4, 0.6)[arm]))
    >>> policy.counts[1] > policy.counts[0]
    True

    References
    ----------
    Agrawal, S. and Goyal, N. (2013). Further optimal regret bounds for Thompson sampling.
    AISTATS, JMLR W&CP 31, 99-107 (Algorithm 2).

    """

    reward_range = None

    def __init__(
        self,
        n_arms: int = 2,
        prior_mean: float = 0.0,
        prior_std: float = 1.0,
        noise_std: float = 1.0,
        seed: int | None = None,
    ):
        if isinstance(prior_mean, bool) or not (
            isinstance(prior_mean, int | float) and math.isfinite(prior_mean)
        ):
            raise ValueError(f"prior_mean must be a finite number, got {prior_mean!r}")
        _check_positive("prior_std", prior_std)
        _check_positive("noise_std", noise_std)
        self.prior_mean = prior_mean
        self.prior_std = prior_std
        self.noise_std = noise_std
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        # Sufficient statistics (pull count, reward sum), discounted in a subclass.
        self._n = [0.0] * self.n_arms
        self._s = [0.0] * self.n_arms
        self._prior_precision = self.prior_std**-2
        self._prior_weight = self.prior_mean * self._prior_precision
        self._noise_precision = self.noise_std**-2

    def _posterior(self, arm: int) -> tuple[float, float]:
        """Posterior mean and standard deviation of `arm`'s mean reward."""
        precision = self._prior_precision + self._n[arm] * self._noise_precision
        mean = (self._prior_weight + self._s[arm] * self._noise_precision) / precision
        return mean, precision**-0.5

    @property
    def means(self) -> tuple[float, ...]:
        return tuple(self._posterior(arm)[0] for arm in range(self.n_arms))

    @property
    def posterior_stds(self) -> tuple[float, ...]:
        """Posterior standard deviation of each arm's mean reward."""
        return tuple(self._posterior(arm)[1] for arm in range(self.n_arms))

    def _select(self) -> int:
        gauss = self._rng.gauss
        p0, w0, q = self._prior_precision, self._prior_weight, self._noise_precision
        draws = []
        for n, s in zip(self._n, self._s, strict=True):
            precision = p0 + n * q
            draws.append(gauss((w0 + s * q) / precision, precision**-0.5))
        return _argmax(draws, self._rng)

    def _update(self, arm: int, reward: float) -> None:
        self._n[arm] += 1.0
        self._s[arm] += reward


class BetaThompson(Policy):
    r"""Thompson sampling with Beta posteriors and the Bernoulli trick for $[0, 1]$ rewards.

    A reward $r \in [0, 1]$ is first turned into a Bernoulli trial: a success with probability
    $r$ (Agrawal & Goyal 2012, Algorithm 2), so that only $r$'s *mean* matters, not the rule
    "any positive reward is a success". Arm $j$ with $S_j$ successes and $F_j$ failures has the
    posterior $\mathrm{Beta}(\alpha_0 + S_j, \beta_0 + F_j)$; each round draws
    $\theta_j$ from every posterior and pulls $\arg\max_j \theta_j$ (ties at random).
    `means` are the posterior means $(\alpha_0 + S_j)/(\alpha_0 + \beta_0 + S_j + F_j)$.

    Parameters
    ----------
    n_arms
        Number of arms.
    prior_alpha
        Prior successes $\alpha_0$ (default 1: a uniform prior).
    prior_beta
        Prior failures $\beta_0$ (default 1).
    seed
        Seed of the generator used for the Bernoulli trials and the draws.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.BetaThompson(n_arms=2, seed=0)
    >>> for _ in range(200):
    ...     arm = policy.select()
    ...     policy.update(arm, 0.2 if arm == 0 else 0.8)
    >>> policy.counts[1] > 150, round(policy.means[1], 1)
    (True, 0.8)

    References
    ----------
    Agrawal, S. and Goyal, N. (2012). Analysis of Thompson sampling for the multi-armed bandit
    problem. COLT, JMLR W&CP 23, 39.1-39.26.

    """

    def __init__(
        self,
        n_arms: int = 2,
        prior_alpha: float = 1.0,
        prior_beta: float = 1.0,
        seed: int | None = None,
    ):
        _check_positive("prior_alpha", prior_alpha)
        _check_positive("prior_beta", prior_beta)
        self.prior_alpha = prior_alpha
        self.prior_beta = prior_beta
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._successes = [0.0] * self.n_arms
        self._failures = [0.0] * self.n_arms

    @property
    def means(self) -> tuple[float, ...]:
        return _beta_means(self._successes, self._failures, self.prior_alpha, self.prior_beta)

    def _select(self) -> int:
        return _beta_draw(
            self._successes, self._failures, self.prior_alpha, self.prior_beta, self._rng
        )

    def _update(self, arm: int, reward: float) -> None:
        if self._rng.random() < reward:
            self._successes[arm] += 1.0
        else:
            self._failures[arm] += 1.0


def _beta_means(successes, failures, a0: float, b0: float) -> tuple[float, ...]:
    return tuple((a0 + s) / (a0 + b0 + s + f) for s, f in zip(successes, failures, strict=True))


def _beta_draw(successes, failures, a0: float, b0: float, rng) -> int:
    beta = rng.betavariate
    return _argmax([beta(a0 + s, b0 + f) for s, f in zip(successes, failures, strict=True)], rng)
