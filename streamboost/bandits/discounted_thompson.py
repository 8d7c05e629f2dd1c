"""Discounted Thompson sampling: Beta (Raj & Kalyani, 2017) and Gaussian."""

from __future__ import annotations

from .base import Policy, _check_open_unit, _check_positive, _discount
from .thompson import GaussianThompson, _beta_draw, _beta_means

__all__ = ["DiscountedGaussianThompson", "DiscountedThompson"]


class DiscountedThompson(Policy):
    r"""Discounted Thompson sampling (dTS) with Beta posteriors.

    Every round, for **every** arm $k$, pulled or not (Raj & Kalyani 2017, Algorithm 2):

    $$S_k \leftarrow \gamma S_k + r_t \mathbb 1\{k = A_t\}, \qquad
      F_k \leftarrow \gamma F_k + (1 - r_t) \mathbb 1\{k = A_t\},$$

    and the next arm is $\arg\max_k \theta_k$ with $\theta_k \sim
    \mathrm{Beta}(S_k + \alpha_0, F_k + \beta_0)$. Discounting the arms not pulled widens
    their posteriors again, so they are re-explored (SMPyBandits' `DiscountedThompson` v0.9.7
    discounts only the pulled arm). The reward enters the pseudo-counts as it is, fractional
    for $r_t \in (0, 1)$, with no Bernoulli trick. Default $\gamma = 0.99$, a memory of 100
    rounds (the paper uses 0.75 to 0.99; docs/bandits.md). Memory is $O(K)$. `means` are the
    posterior means $(S_k + \alpha_0)/(S_k + F_k + \alpha_0 + \beta_0)$; `discounted_counts`
    are $S_k + F_k$.

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the generator used for the draws.
    gamma
        Discount factor $\gamma \in (0, 1]$ ($\gamma = 1$: no forgetting).
    prior_alpha, prior_beta
        Prior successes $\alpha_0$ and failures $\beta_0$.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.DiscountedThompson(n_arms=2, gamma=0.5, seed=0)
    >>> policy.update(0, 1.0)
    >>> policy.update(1, 0.25)
    >>> policy.discounted_counts, policy.means
    ((0.5, 1.0), (0.6, 0.4166666666666667))

    References
    ----------
    Raj, V. and Kalyani, S. (2017). Taming non-stationary bandits: a Bayesian approach.
    arXiv:1707.09727.

    """

    def __init__(
        self,
        n_arms: int = 2,
        gamma: float = 0.99,
        prior_alpha: float = 1.0,
        prior_beta: float = 1.0,
        seed: int | None = None,
    ):
        _check_open_unit("gamma", gamma, closed_right=True)
        _check_positive("prior_alpha", prior_alpha)
        _check_positive("prior_beta", prior_beta)
        self.gamma = gamma
        self.prior_alpha = prior_alpha
        self.prior_beta = prior_beta
        super().__init__(n_arms=n_arms, seed=seed)

    def _reset(self) -> None:
        self._successes = [0.0] * self.n_arms
        self._failures = [0.0] * self.n_arms

    @property
    def discounted_counts(self) -> tuple[float, ...]:
        """Discounted number of observations $S_k + F_k$ of each arm."""
        return tuple(s + f for s, f in zip(self._successes, self._failures, strict=True))

    @property
    def means(self) -> tuple[float, ...]:
        return _beta_means(self._successes, self._failures, self.prior_alpha, self.prior_beta)

    def _select(self) -> int:
        return _beta_draw(
            self._successes, self._failures, self.prior_alpha, self.prior_beta, self._rng
        )

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        g = self.gamma
        successes, failures = self._successes, self._failures
        for k in range(self.n_arms):
            successes[k] *= g
            failures[k] *= g
        for arm, reward in observed:
            successes[arm] += reward
            failures[arm] += 1.0 - reward


class DiscountedGaussianThompson(GaussianThompson):
    r"""Gaussian Thompson sampling on exponentially discounted statistics.

    `GaussianThompson` with its sufficient statistics discounted every round, for every arm:
    $n_j \leftarrow \gamma n_j + \mathbb 1\{j = A_t\}$ and
    $S_j \leftarrow \gamma S_j + r_t \mathbb 1\{j = A_t\}$. The posterior of arm $j$'s mean is
    then $\mathcal N(m_j, 1/\lambda_j)$ with $\lambda_j = 1/s_0^2 + n_j/\sigma^2$ and
    $m_j = (m_0/s_0^2 + S_j/\sigma^2)/\lambda_j$, as in `GaussianThompson`: the discounted
    count caps the posterior precision at $1/s_0^2 + 1/((1-\gamma)\sigma^2)$, so no arm's
    posterior ever becomes too narrow to be sampled again. This is the discounted Gaussian
    scheme of Qi, Wang & Zhu (2023, DS-TS with Gaussian priors) and the Gaussian analogue of
    Raj & Kalyani's dTS.

    Noise model and prior defaults as in `GaussianThompson` (any finite reward is accepted).
    Default $\gamma = 0.998$ (memory 500 rounds, as `DiscountedUCB`): with the wide default
    noise model a shorter memory keeps the posteriors too wide to settle (docs/bandits.md).
    Memory is $O(K)$. `means` are the posterior means, `discounted_counts` the $n_j$.

    Parameters
    ----------
    n_arms, seed
        Number of arms; seed of the generator used for the draws.
    gamma
        Discount factor $\gamma \in (0, 1]$ ($\gamma = 1$ is `GaussianThompson`).
    prior_mean, prior_std, noise_std
        Prior mean $m_0$ and standard deviation $s_0$ of every arm's mean reward; the assumed
        standard deviation $\sigma$ of a reward around its arm's mean.

    Examples
    --------
    >>> from streamboost import bandits
    >>> policy = bandits.DiscountedGaussianThompson(n_arms=2, gamma=0.5, seed=0)
    >>> policy.update(0, 1.0)
    >>> policy.update(0, 1.0)
    >>> policy.discounted_counts, [round(m, 4) for m in policy.means]
    ((1.5, 0.0), [0.6, 0.0])

    References
    ----------
    Qi, H., Wang, Y. and Zhu, L. (2023). Discounted Thompson sampling for non-stationary bandit
    problems. arXiv:2305.10718. Raj, V. and Kalyani, S. (2017). Taming non-stationary
    bandits: a Bayesian approach. arXiv:1707.09727.

    """

    def __init__(
        self,
        n_arms: int = 2,
        gamma: float = 0.998,
        prior_mean: float = 0.0,
        prior_std: float = 1.0,
        noise_std: float = 1.0,
        seed: int | None = None,
    ):
        _check_open_unit("gamma", gamma, closed_right=True)
        self.gamma = gamma
        super().__init__(
            n_arms=n_arms,
            prior_mean=prior_mean,
            prior_std=prior_std,
            noise_std=noise_std,
            seed=seed,
        )

    @property
    def discounted_counts(self) -> tuple[float, ...]:
        """Discounted pull counts $n_j$."""
        return tuple(self._n)

    def _update_round(self, observed: list[tuple[int, float]]) -> None:
        _discount(self._n, self._s, self.gamma, observed)
