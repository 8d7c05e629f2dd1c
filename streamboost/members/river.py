"""Any River classifier as a member, one object each: the booster's reference path."""

from __future__ import annotations

import random
import typing

from river import base

from .base import soft_score

__all__ = ["RiverMembers"]


class RiverMembers:
    """The booster's members as River objects, asked one at a time (Oza 2005, Fig. 2).

    It speaks the protocol of `ArrayMembers` (`votes`, `begin`, `vote_after`, `commit`) so the
    booster has one loop for both paths. Votes on the last scored example are kept: in a
    prequential loop the same x is scored and then learned, and a member that draws k = 0 has
    not changed since, so its vote is reused instead of predicted again (about e^-1 of the
    members when lambda = 1).

    Parameters
    ----------
    members
        The booster's list of members (shared, not copied: replacing an item is seen here).
    weighted
        Whether a member learns a draw k as one `learn_one` call with `w=k` (MOA's `OzaBoost`;
        `w=k * w` for a sample weight `w`) rather than k calls (River's `AdaBoostClassifier`).

    Examples
    --------
    >>> from river import linear_model
    >>> from streamboost.members.river import RiverMembers
    >>> members = RiverMembers([linear_model.LogisticRegression() for _ in range(2)], True)
    >>> before = members.begin({"a": 1.0}, True)
    >>> members.vote_after(0, 3), before[1]
    (True, False)

    """

    minibatch: typing.Literal[False] = False  # learn_many is a learn_one loop
    _x: dict | None  # the example `begin` opened, until `commit`

    def __init__(self, members: list, weighted: bool = False):
        self.members = members
        self.weighted = weighted
        self._voted_x: dict | None = None
        self._votes: list = []

    def votes(self, x: dict, alphas: list[float], **kwargs) -> list:
        """The votes of the members with a nonzero weight in `alphas` (None for the others)."""
        if kwargs:
            return [member.predict_one(x, **kwargs) if alpha else None
                    for alpha, member in zip(alphas, self.members, strict=True)]
        # not passed an empty **kwargs: each call would cost ~0.1 us more
        votes = [member.predict_one(x) if alpha else None
                 for alpha, member in zip(alphas, self.members, strict=True)]
        self._voted_x = dict(x)  # a copy: the model must not alias its input
        self._votes = votes
        return votes

    def soft_score(self, x: dict, alphas: list[float], **kwargs) -> float:
        """The booster's `score="soft"`: each voting member's P(True | x) (None, abstaining,
        for an empty dict). A member whose `predict_one` is River's default (the most probable
        label, the first of a tie) has its vote read from the same dict and kept for `begin`,
        as `votes` keeps it; if any other member votes, none is kept."""
        probabilities: list[float | None] = []
        votes: list | None = []
        for alpha, member in zip(alphas, self.members, strict=True):
            if not alpha:
                probabilities.append(None)
                if votes is not None:
                    votes.append(None)
                continue
            proba = member.predict_proba_one(x, **kwargs) if kwargs else member.predict_proba_one(x)
            probabilities.append(proba.get(True, 0.0) if proba else None)
            if votes is None or type(member).predict_one is not _DEFAULT_PREDICT:
                votes = None
            else:
                votes.append(max(proba, key=proba.get) if proba else None)
        if kwargs or votes is None:
            self._voted_x = None
        else:
            self._voted_x = dict(x)
            self._votes = votes
        return soft_score(alphas, probabilities)

    def knows(self, x: dict) -> bool:
        """Whether `x` equals the last example scored (so it was checked)."""
        return self._voted_x is not None and x == self._voted_x

    def begin(self, x: dict, target: bool, **kwargs) -> _Votes:
        known = self._votes if self._voted_x == x else [None] * len(self.members)
        self._voted_x = None
        self._x = x
        self._target = target
        self._kwargs = kwargs
        return _Votes(known, self.members, x)

    def vote_after(self, i: int, k: int) -> bool:
        member = self.members[i]
        if self.weighted:  # one call of weight k times the sample weight (MOA's OzaBoost)
            kwargs = self._kwargs
            member.learn_one(self._x, self._target, **{**kwargs, "w": k * kwargs.get("w", 1)})
        elif self._kwargs:
            for _ in range(k):
                member.learn_one(self._x, self._target, **self._kwargs)
        else:
            for _ in range(k):
                member.learn_one(self._x, self._target)
        return member.predict_one(self._x)

    def commit(self) -> None:
        self._x = None

    def boost(self, target: bool, sc: list[float], sw: list[float],
              rng: random.Random) -> bool:
        return False  # River members learn one call at a time: no compiled loop


_DEFAULT_PREDICT = base.Classifier.predict_one


class _Votes:
    """The members' votes before learning: the known ones, the others predicted when asked."""

    __slots__ = ("known", "members", "x")

    def __init__(self, known: list, members: list, x: dict):
        self.known = known
        self.members = members
        self.x = x

    def __getitem__(self, i: int):
        vote = self.known[i]
        return self.members[i].predict_one(self.x) if vote is None else vote
