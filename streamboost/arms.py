"""The controller's arms and its policy: names resolved to a checked tuple and a policy object.

Arms are what a minibatch may be spent on: `"train"` (the model learns), `"calibrate"` (the
calibrator learns the model's score) and `"both"`. A policy is a `streamboost.bandits` policy
over those arms, built from a name, or one of the schedules `"never"`, `"always"`, `"both"` and
`"every-N"`.
"""

from __future__ import annotations

import typing

from . import bandits
from .validation import did_you_mean, one_line

__all__ = ["ARMS", "check_warmup_arm", "resolve_arms", "resolve_policy", "warmup_route"]

ARMS = ("train", "calibrate", "both")


def resolve_arms(arms: typing.Iterable[str], policy: str | bandits.base.Policy) -> tuple[str, ...]:
    """Check `arms` (2 or 3 distinct names of `ARMS`) against `policy`; `"both"` as a policy adds
    the `"both"` arm if missing.

    Examples
    --------
    >>> from streamboost.arms import resolve_arms
    >>> resolve_arms(("train", "calibrate"), "both")
    ('train', 'calibrate', 'both')

    """
    if not isinstance(arms, tuple) or not all(isinstance(a, str) for a in arms):
        raise ValueError(f"arms must be a tuple of arm names from {ARMS}, got {arms!r}")
    unknown = [a for a in arms if a not in ARMS]
    if unknown or len(set(arms)) != len(arms) or len(arms) < 2:
        raise ValueError(f"arms must be 2 or 3 distinct names from {ARMS}, got {arms!r}")
    if policy == "both" and "both" not in arms:
        return (*arms, "both")
    if policy == "never" and "train" not in arms:
        raise ValueError(f"policy 'never' needs the 'train' arm, got arms={arms!r}")
    every_n = str(policy).startswith("every-") and policy not in bandits.POLICIES
    if (policy == "always" or every_n) and "calibrate" not in arms:
        raise ValueError(f"policy {policy!r} needs the 'calibrate' arm, got arms={arms!r}")
    return arms


def check_warmup_arm(warmup_arm: str | None, arms: tuple[str, ...]) -> None:
    """Raise ValueError unless `warmup_arm`, what the warm-up's minibatches do, is None (chosen
    by `warmup_route`), `"train"` or `"both"` and, where the resolved `arms` have a `"train"`
    arm, one of them (without one the warm-up runs `"both"` whatever it says: it must train).

    Examples
    --------
    >>> from streamboost.arms import check_warmup_arm
    >>> check_warmup_arm("both", ("train", "calibrate"))
    Traceback (most recent call last):
    ...
    ValueError: warmup_arm='both' is not one of the arms ('train', 'calibrate')

    """
    if warmup_arm is None:
        return
    if warmup_arm not in ("train", "both"):
        raise ValueError(f"warmup_arm must be None, 'train' or 'both' (the warm-up trains the "
                         f"model; 'both' calibrates too), got {warmup_arm!r}")
    if warmup_arm not in arms and "train" in arms:
        raise ValueError(f"warmup_arm={warmup_arm!r} is not one of the arms {arms!r}")


def warmup_route(warmup_arm: str | None, arms: tuple[str, ...],
                 policy: bandits.base.Policy) -> str:
    """What the warm-up's minibatches do, `"train"` or `"both"`, for a checked `warmup_arm` over
    the resolved `arms` and `policy`. None chooses `"both"` where it is an arm and the policy
    ever calibrates: a warm-up that serves the raw score while the calibrator waits cost on 7
    of 7 streams with the default model (simulations/warmup.md, 0.8.52); `"never"` keeps its
    calibrator untouched. Without a `"train"` arm, the warm-up is `"both"` (it must train).

    Examples
    --------
    >>> from streamboost.arms import resolve_policy, warmup_route
    >>> arms = ("train", "calibrate", "both")
    >>> warmup_route(None, arms, resolve_policy("discounted-ucb", arms, seed=0))
    'both'
    >>> warmup_route(None, arms, resolve_policy("never", arms, seed=0))
    'train'
    >>> warmup_route("train", arms, resolve_policy("both", arms, seed=0))
    'train'

    """
    if "train" not in arms:
        return "both"
    if warmup_arm is not None:
        return warmup_arm
    never = isinstance(policy, bandits.Constant) and arms[policy.arm] == "train"
    return "both" if "both" in arms and not never else "train"


def resolve_policy(policy: str | bandits.base.Policy, arms: tuple[str, ...],
                   seed: int | None) -> bandits.base.Policy:
    """The policy named `policy` (or a clone of a policy object) over `arms`, seeded.

    Examples
    --------
    >>> from streamboost.arms import resolve_policy
    >>> resolve_policy("every-4", ("train", "calibrate"), seed=0)
    EveryNth (...)

    """
    n_arms = len(arms)
    if isinstance(policy, bandits.base.Policy):
        if policy.n_arms != n_arms:
            raise ValueError(
                f"the policy has n_arms={policy.n_arms} but the controller has {n_arms} arms "
                f"{arms}; build it with n_arms={n_arms}"
            )
        return policy.clone()
    if not isinstance(policy, str):
        raise TypeError(
            f"policy must be a name or a streamboost.bandits policy, got {one_line(policy)}"
        )
    if policy == "never":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("train"))
    if policy == "always":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("calibrate"))
    if policy == "both":
        return bandits.make("constant", n_arms=n_arms, seed=seed, arm=arms.index("both"))
    if policy in bandits.POLICIES:  # a registered name first: "every-nth" is one, not every-N
        return bandits.make(policy, n_arms=n_arms, seed=seed)
    if policy.startswith("every-"):
        n = policy.removeprefix("every-")
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"policy {policy!r}: 'every-N' needs a whole number N >= 1")
        if arms.index("calibrate") != 1:
            raise ValueError(f"policy {policy!r} needs 'calibrate' as arm 1, got arms={arms!r}")
        return bandits.make("every-nth", n_arms=n_arms, seed=seed, n=int(n))
    names = sorted([*bandits.POLICIES, "never", "always", "both", "every-N"])
    raise ValueError(
        f"unknown policy {policy!r}{did_you_mean(policy, names)}; expected one of {names}")
