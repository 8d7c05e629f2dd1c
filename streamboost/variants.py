r"""The cost-sensitive boosting variants of Nikolaou (2016, Ch. 3) as online Oza boosting.

A variant is data (`Variant`): how an example's first weight and each member's reweighting use
its class cost $c(y)$, and which formula gives a member's vote weight $\alpha$. Thesis Table
3.1 states them for batch AdaBoost over a weight distribution $D$:

$$D_i^{t+1} \propto D_i^t \; c(y_i)^q \; \gamma_t^i \; e^{-s_i \alpha_t e_i}, \qquad
s_i = +1 \text{ if member } t \text{ is right on } i, -1 \text{ if wrong},$$

with $q$ the update's cost power, $\gamma$ the CSB factor ($c(y_i)$ when wrong, else 1, Eq.
3.7), $e_i \in \{1, c(y_i), \beta_t^i\}$ the exponent's cost (Eq. 3.12 for $\beta$). Costs are
$c(+) = c_{FN}$, $c(-) = c_{FP}$ divided by the larger one, so they lie in $(0, 1]$ as AdaCost's
$\beta$ needs, and are both 1 at equal costs.

**Online analogue.** Oza boosting keeps, per member, the total weight $\lambda$ of the examples
it was right and wrong on; here it keeps four sums $S_{r,y}$ (right or wrong, positive or
negative), since every sum a variant's $\alpha$ needs is $\sum_{r,y} f(r, y) S_{r,y}$. The
normalised batch distribution becomes the member's running sums: an example of weight
$\lambda$ leaves a member with $\lambda \, u / \bar u$, where $u$ is its factor above and
$\bar u = \sum_{r,y} S_{r,y} u_{r,y} / \sum_{r,y} S_{r,y}$ the factor's running mean, the sums
including this example (Oza's rule is this for AdaBoost: $\lambda / (2(1 - \epsilon))$ when
right). Where $e_i = 1$ the exponentials cancel in closed form ($\lambda\,k\,T / (2P)$ if right,
$\lambda\,k\,T / (2N)$ if wrong, $k$ the cost factor, $T$ the total, $P, N$ the $k$-weighted
right and wrong sums), which stays finite for a member never yet wrong, as Oza's does. The
first weight $c(y)^a$ is divided by its mean over the two classes, so equal costs give Oza's 1.

**Guards.** A vote weight whose formula has no finite positive value (AdaC1 and AdaCost can
give $\alpha \le 0$, thesis Section 3.3) makes the member abstain, like $\epsilon \ge 1/2$ in
plain boosting; in a reweighting, $\alpha$ is clipped to $[0, \alpha_{max}]$ with
$\alpha_{max}$ AdaBoost's weight at the Krichevsky-Trofimov error floor $\frac{1/2}{T + 1}$.
CSAda and AdaDB are left out: their $\alpha$ is the root of an equation the thesis solves by
Newton steps over a pool of learners, which an online member does not have.

References
----------
Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
Manchester (Tables 3.1, 3.2; Eqs. 3.4-3.19; Ch. 6 for asymmetry preservation).
"""

from __future__ import annotations

import dataclasses
import functools
import math

__all__ = ["VARIANTS", "Variant", "class_costs", "first_weight", "reweight", "vote_weight"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """One variant's use of the class cost $c(y)$ (see the module docstring).

    Parameters
    ----------
    first
        Power of $c(y)$ in the first weight: `0`, `1`, or `"1/M"` (AsymAda).
    power
        Power $q$ of $c(y)$ in each reweighting: `0`, `1`, or `"1/M"`.
    exponent
        $e_i$: `"one"`, `"cost"` ($c(y)$, AdaC1/AdaC3) or `"beta"` (AdaCost).
    gamma
        Whether a wrong example is also multiplied by $c(y)$ (CSB0, CSB1, CSB2).
    step
        The $\alpha$ in the exponent: `"alpha"`, `"one"` (CSB1) or `"none"` (CSB0).
    alpha
        The vote weight: `"ada"`, `"weighted"` (Eqs. 3.9, 3.17), `"adac1"` (3.15), `"adac3"`
        (3.19) or `"adacost"` (3.11).
    reduces
        Whether it is AdaBoost when $c_{FP} = c_{FN}$ (thesis Section 3.4).
    preserving
        Whether it preserves the costs' asymmetry (thesis Ch. 6).

    Examples
    --------
    AdaC2 weighs each reweighting by $c(y)$ and its vote by the cost-weighted sums (Eq. 3.17):

    >>> from streamboost.variants import VARIANTS, class_costs, reweight, vote_weight
    >>> adac2, costs = VARIANTS["adac2"], class_costs(c_fp=1.0, c_fn=2.0)
    >>> sums = {(True, True): 3.0, (True, False): 1.0, (False, True): 1.0, (False, False): 2.0}
    >>> round(vote_weight(adac2, sums, costs, n_models=10), 4)  # 1/2 log(3.5 / 2)
    0.2798
    >>> reweight(adac2, 1.0, False, False, sums, costs, n_models=10)  # c(-) T / (2 N)
    0.875

    """

    first: int | str = 1
    power: int | str = 0
    exponent: str = "one"
    gamma: bool = False
    step: str = "alpha"
    alpha: str = "ada"
    reduces: bool = True
    preserving: bool = True


VARIANTS: dict[str, Variant] = {
    "adamec": Variant(first=0),
    "cgada": Variant(),
    "asymada": Variant(first="1/M", power="1/M", alpha="weighted"),
    "adac1": Variant(exponent="cost", alpha="adac1", preserving=False),
    "adac2": Variant(power=1, alpha="weighted"),
    "adac3": Variant(power=1, exponent="cost", alpha="adac3", preserving=False),
    "csb0": Variant(gamma=True, step="none", reduces=False),
    "csb1": Variant(gamma=True, step="one", reduces=False),
    "csb2": Variant(gamma=True),
    "adacost": Variant(exponent="beta", alpha="adacost", reduces=False, preserving=False),
    "adacost-beta2": Variant(exponent="beta", reduces=False, preserving=False),
}


def class_costs(c_fp: float, c_fn: float) -> tuple[float, float]:
    """$(c(-), c(+)) = (c_{FP}, c_{FN})$ divided by the larger one.

    Examples
    --------
    >>> from streamboost.variants import class_costs
    >>> class_costs(1.0, 4.0)
    (0.25, 1.0)

    """
    top = max(c_fp, c_fn)
    return c_fp / top, c_fn / top


def _power(power: int | str, n_models: int) -> float:
    return 1.0 / n_models if power == "1/M" else float(power)


def first_weight(variant: Variant, positive: bool, costs: tuple[float, float], n_models: int):
    """An example's weight for the first member: $c(y)^a$ over its mean over the classes."""
    a = _power(variant.first, n_models)
    if a == 0.0:
        return 1.0
    neg, pos = costs[0] ** a, costs[1] ** a
    return 2.0 * (pos if positive else neg) / (pos + neg)


@functools.lru_cache(maxsize=64)  # pure, and called for every member on every example
def _factors(variant: Variant, costs, n_models: int):
    """The cost factor $k = c^q \\gamma$ and exponent cost $e$ of each (right, positive)."""
    q = _power(variant.power, n_models)
    out = {}
    for right in (True, False):
        for positive in (True, False):
            c = costs[positive]
            k = c**q * (c if variant.gamma and not right else 1.0)
            if variant.exponent == "one":
                e = 1.0
            elif variant.exponent == "cost":
                e = c
            else:  # AdaCost's beta (Eq. 3.12)
                e = (1.0 - c) / 2.0 if right else (1.0 + c) / 2.0
            out[right, positive] = (k, e)
    return out


def vote_weight(variant: Variant, sums: dict, costs, n_models: int) -> float | None:
    """A member's vote weight from its sums `{(right, positive): weight}`; None if it has no
    finite positive value (the member abstains)."""
    total = sum(sums.values())
    if total <= 0.0:
        return None
    factors = _factors(variant, costs, n_models)
    c = {key: costs[key[1]] for key in sums}  # c(y) of each sum's class

    def weighted(weight) -> tuple[float, float]:
        """The right and the wrong sums, each example counted with `weight(key)`."""
        return (
            sums[True, True] * weight((True, True)) + sums[True, False] * weight((True, False)),
            sums[False, True] * weight((False, True))
            + sums[False, False] * weight((False, False)),
        )

    if variant.alpha == "ada":
        top, bottom = weighted(lambda key: 1.0)
    elif variant.alpha == "weighted":  # Eqs. 3.9, 3.17
        top, bottom = weighted(lambda key: factors[key][0])
    elif variant.alpha in ("adac1", "adacost"):  # Eqs. 3.15, 3.11
        e = c if variant.alpha == "adac1" else {key: factors[key][1] for key in sums}
        p, n = weighted(lambda key: e[key] / total)
        top, bottom = 1.0 + p - n, 1.0 - p + n
    else:  # adac3, Eq. 3.19
        p, n = weighted(lambda key: c[key] ** 2)
        a = sum(s * c[key] for key, s in sums.items())
        top, bottom = a + p - n, a - p + n
    if bottom <= 0.0:  # never wrong, in this weighting
        return _alpha_max(total) if top > 0.0 else None
    if top <= bottom:  # alpha <= 0: the thesis's instability (AdaC1, AdaCost)
        return None
    return min(0.5 * math.log(top / bottom), _alpha_max(total))


def _alpha_max(total: float) -> float:
    floor = 0.5 / (total + 1.0)
    return 0.5 * math.log((1.0 - floor) / floor)


def reweight(
    variant: Variant, lam: float, right: bool, positive: bool, sums: dict, costs, n_models: int
) -> float:
    """The example's weight for the next member, given this member's sums (this example
    included) and whether it was right on it."""
    factors = _factors(variant, costs, n_models)
    total = sum(sums.values())
    closed = variant.exponent == "one" and variant.step == "alpha" and (
        variant.alpha == "weighted" or (variant.alpha == "ada" and not variant.gamma)
    )
    if closed:  # e = 1 and alpha = 1/2 log(P / N) over the same k-weighted sums
        k = factors[right, positive][0]
        side = sum(factors[right, p][0] * sums[right, p] for p in (True, False))
        return lam * k * total / (2.0 * side)
    alpha = vote_weight(variant, sums, costs, n_models) or 0.0
    a = {"alpha": alpha, "one": 1.0, "none": 0.0}[variant.step]

    def u(r: bool, p: bool) -> float:
        k, e = factors[r, p]
        return k * math.exp((-a if r else a) * e)

    mean = sum(s * u(r, p) for (r, p), s in sums.items()) / total
    return lam * u(right, positive) / mean
