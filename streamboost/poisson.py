"""Poisson sampling in O(1) expected time, for Oza boosting's example weights.

Oza boosting trains member m on an example k ~ Poisson(lambda) times, and lambda is not bounded:
a member that is rarely wrong multiplies it by 1/(2 epsilon) whenever it errs, so lambda reaches
tens or hundreds (River's anchors survey measured peaks of 53 on Phishing). Knuth's product
method, which River uses, costs O(lambda) uniform draws; this module switches to Hoermann's
transformed rejection (PTRS) above a small rate, so sampling stays O(1).
"""

from __future__ import annotations

import math
import random

__all__ = ["KNUTH_MAX_RATE", "poisson"]

# Below this rate Knuth's method needs fewer uniforms than PTRS's setup is worth (Hoermann 1993,
# Section 3, recommends PTRS for mu >= 10).
KNUTH_MAX_RATE = 10.0


def poisson(rate: float, rng: random.Random) -> int:
    """Draw k ~ Poisson(rate) with `rng`.

    Parameters
    ----------
    rate
        The mean, a finite number >= 0 (0 always gives 0).
    rng
        The random number generator every draw comes from (seeded by the caller).

    Examples
    --------
    >>> import random
    >>> rng = random.Random(1)
    >>> draws = [poisson(2.5, rng) for _ in range(20_000)]
    >>> round(sum(draws) / len(draws), 1)
    2.5
    >>> poisson(0.0, rng)
    0

    References
    ----------
    [^1]: Knuth, D. E. (1997). The Art of Computer Programming, Vol. 2, 3rd ed., Section 3.4.1.
    [^2]: Hoermann, W. (1993). The transformed rejection method for generating Poisson random
        variables. Insurance: Mathematics and Economics, 12(1), 39-45 (algorithm PTRS).

    """
    if rate < KNUTH_MAX_RATE:
        if rate <= 0.0:
            return 0
        limit = math.exp(-rate)
        k = 0
        p = rng.random()
        while p > limit:
            k += 1
            p *= rng.random()
        return k
    return _ptrs(rate, rng)


def _ptrs(mu: float, rng: random.Random) -> int:
    # Constants of PTRS, Hoermann (1993), Table 1.
    slam = math.sqrt(mu)
    loglam = math.log(mu)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = rng.random() - 0.5
        v = rng.random()
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + mu + 0.43)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v) + math.log(inv_alpha) - math.log(a / (us * us) + b) <= (
            -mu + k * loglam - math.lgamma(k + 1)
        ):
            return k
