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

**CSAda** (Masnadi-Shirazi & Vasconcelos 2011) shares AdaC1's update and takes the $\alpha$ that
minimises the exponential loss $\sum_{r,y} S_{r,y} e^{-s_r c(y) \alpha}$ exactly: the root of
$\sum_y c(y) (S_{w,y} e^{c(y)\alpha} - S_{r,y} e^{-c(y)\alpha}) = 0$, which has no closed form.
The batch algorithm solves it for each learner of a pool and keeps the best; an online member
is its own single candidate, so each member solves it from its sums, by Newton steps kept
inside a bisection bracket to a relative $10^{-12}$ (the thesis: $10^{-6}$). AdaDB solves the
same equation as a polynomial and is left out (the thesis finds the two equal within
numerical precision).

References
----------
Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
Manchester (Tables 3.1, 3.2; Eqs. 3.4-3.19; Ch. 6 for asymmetry preservation).
Masnadi-Shirazi, H. & Vasconcelos, N. (2011). Cost-sensitive boosting. IEEE TPAMI 33(2),
294-309 (the hyperbolic equation for alpha).
"""

from __future__ import annotations

import dataclasses
import functools
import math

__all__ = [
    "VARIANTS", "Rule", "Variant", "class_costs", "first_weight", "reweight", "rule", "vote_weight"
]


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
        (3.19), `"adacost"` (3.11) or `"csada"` (the exact minimiser, solved numerically).
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
    "csada": Variant(exponent="cost", alpha="csada", preserving=False),
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


def first_weight(variant: Variant, positive: bool, costs: tuple[float, float],
                 n_models: int) -> float:
    """An example's weight for the first member: $c(y)^a$ over its mean over the classes."""
    return rule(variant, costs, n_models).first[positive]


def vote_weight(variant: Variant, sums: dict, costs: tuple[float, float],
                n_models: int) -> float | None:
    """A member's vote weight from its sums `{(right, positive): weight}`; None if it has no
    finite positive value (the member abstains)."""
    return rule(variant, costs, n_models).vote_weight(sums)


def reweight(
    variant: Variant, lam: float, right: bool, positive: bool, sums: dict,
    costs: tuple[float, float], n_models: int,
) -> float:
    """The example's weight for the next member, given this member's sums (this example
    included) and whether it was right on it."""
    return rule(variant, costs, n_models).reweight(lam, right, positive, sums)


@functools.lru_cache(maxsize=64)
def rule(variant: Variant, costs: tuple[float, float], n_models: int) -> Rule:
    """The `Rule` of a variant at given class costs and ensemble size (cached: it is pure)."""
    return Rule(variant, costs, n_models)


class Rule:
    """A variant's formulas with its costs and ensemble size fixed, so that the booster's loop
    over members does no per-call lookups (`first_weight`, `vote_weight` and `reweight` are
    these methods).

    Examples
    --------
    >>> from streamboost.variants import VARIANTS, class_costs, rule
    >>> adac2 = rule(VARIANTS["adac2"], class_costs(c_fp=1.0, c_fn=2.0), n_models=10)
    >>> sums = {(True, True): 3.0, (True, False): 1.0, (False, True): 1.0, (False, False): 2.0}
    >>> round(adac2.first[True], 4)  # c(+) over the classes' mean cost: 1 / 0.75
    1.3333
    >>> round(adac2.vote_weight(sums), 4), adac2.reweight(1.0, False, False, sums)
    (0.2798, 0.875)

    """

    def __init__(self, variant: Variant, costs: tuple[float, float], n_models: int):
        self.variant = variant
        a = _power(variant.first, n_models)
        neg, pos = costs[0] ** a, costs[1] ** a
        self.first = {True: 2.0 * pos / (pos + neg), False: 2.0 * neg / (pos + neg)}
        if a == 0.0:
            self.first = {True: 1.0, False: 1.0}
        q = _power(variant.power, n_models)
        # per (right, positive): the cost factor k = c^q gamma and the exponent's cost e
        self.k, self.e, self.c = {}, {}, {}
        for right in (True, False):
            for positive in (True, False):
                c = costs[positive]
                self.c[right, positive] = c
                self.k[right, positive] = c**q * (c if variant.gamma and not right else 1.0)
                if variant.exponent == "one":
                    self.e[right, positive] = 1.0
                elif variant.exponent == "cost":
                    self.e[right, positive] = c
                else:  # AdaCost's beta (Eq. 3.12)
                    self.e[right, positive] = (1.0 - c) / 2.0 if right else (1.0 + c) / 2.0
        # Each vote weight is 1/2 log(P / N) with P, N the right and wrong sums, each example
        # counted with a weight per (right, positive) (Eqs. 3.9, 3.11, 3.15, 3.17, 3.19).
        ones = dict.fromkeys(self.k, 1.0)
        self.weights = {"ada": ones, "weighted": self.k, "adac1": self.c, "adacost": self.e,
                        "csada": self.c,
                        "adac3": {key: c**2 for key, c in self.c.items()}}[variant.alpha]
        self.closed = variant.exponent == "one" and variant.step == "alpha" and (
            variant.alpha == "weighted" or (variant.alpha == "ada" and not variant.gamma)
        )  # fmt: skip

    def vote_weight(self, sums: dict) -> float | None:
        tt, tf, ft, ff = sums[True, True], sums[True, False], sums[False, True], sums[False, False]
        total = tt + tf + ft + ff
        if total <= 0.0:
            return None
        w, how = self.weights, self.variant.alpha
        if how == "csada":
            return self._csada(tt, tf, ft, ff, total)
        if how in ("ada", "weighted"):
            top = tt * w[True, True] + tf * w[True, False]
            bottom = ft * w[False, True] + ff * w[False, False]
        elif how in ("adac1", "adacost"):  # 1 +- (P - N), P and N as shares of the total
            p = tt * (w[True, True] / total) + tf * (w[True, False] / total)
            n = ft * (w[False, True] / total) + ff * (w[False, False] / total)
            top, bottom = 1.0 + p - n, 1.0 - p + n
        else:  # adac3: a +- (P - N), a the c-weighted total
            c = self.c
            p = tt * w[True, True] + tf * w[True, False]
            n = ft * w[False, True] + ff * w[False, False]
            a = tt * c[True, True] + tf * c[True, False]
            a = a + ft * c[False, True] + ff * c[False, False]
            top, bottom = a + p - n, a - p + n
        if bottom <= 0.0:  # never wrong, in this weighting
            return _alpha_max(total) if top > 0.0 else None
        if top <= bottom:  # alpha <= 0: the thesis's instability (AdaC1, AdaCost)
            return None
        return min(0.5 * math.log(top / bottom), _alpha_max(total))

    def _csada(self, tt: float, tf: float, ft: float, ff: float, total: float) -> float | None:
        r"""The root of $g(\alpha) = \sum_y c(y) (S_{w,y} e^{c(y)\alpha} - S_{r,y}
        e^{-c(y)\alpha})$, increasing in alpha; None if $g(0) \ge 0$ (alpha <= 0)."""
        cp, cn = self.c[True, True], self.c[True, False]
        exp = math.exp

        def g(a: float) -> tuple[float, float]:  # g and its derivative
            wp, rp = ft * exp(cp * a), tt * exp(-cp * a)
            wn, rn = ff * exp(cn * a), tf * exp(-cn * a)
            return cp * (wp - rp) + cn * (wn - rn), cp * cp * (wp + rp) + cn * cn * (wn + rn)

        if g(0.0)[0] >= 0.0:  # cost-weighted right no more than wrong, AdaC1's instability
            return None
        lo, hi = 0.0, _alpha_max(total)
        if g(hi)[0] <= 0.0:  # never wrong, or right enough that the cap binds
            return hi
        a = 0.5 * (lo + hi)
        for _ in range(100):
            value, slope = g(a)
            if value > 0.0:
                hi = a
            else:
                lo = a
            step = a - value / slope
            nxt = step if lo < step < hi else 0.5 * (lo + hi)  # Newton, else bisect
            if abs(nxt - a) <= 1e-12 * a:
                return nxt
            a = nxt
        return a

    def reweight(self, lam: float, right: bool, positive: bool, sums: dict) -> float:
        k = self.k
        total = sums[True, True] + sums[True, False] + sums[False, True] + sums[False, False]
        if self.closed:  # e = 1 and alpha = 1/2 log(P / N) over the same k-weighted sums
            side = k[right, True] * sums[right, True] + k[right, False] * sums[right, False]
            return lam * k[right, positive] * total / (2.0 * side)
        step = self.variant.step
        a = (self.vote_weight(sums) or 0.0) if step == "alpha" else (1.0 if step == "one" else 0.0)
        e, exp = self.e, math.exp
        mean = (
            sums[True, True] * (k[True, True] * exp(-a * e[True, True]))
            + sums[True, False] * (k[True, False] * exp(-a * e[True, False]))
            + sums[False, True] * (k[False, True] * exp(a * e[False, True]))
            + sums[False, False] * (k[False, False] * exp(a * e[False, False]))
        ) / total
        return lam * (k[right, positive] * exp((-a if right else a) * e[right, positive])) / mean


def _alpha_max(total: float) -> float:
    floor = 0.5 / (total + 1.0)
    return 0.5 * math.log((1.0 - floor) / floor)
