"""Drift injection: turn a stationary replay into a non-stationary one.

Each drift is a small frozen description; ``stream(..., drift=...)`` applies it (or a sequence
of them, in order) to the examples it yields. Positions count examples as they leave the drift
(0-based). A drift of ``width`` 0 is abrupt: the new concept holds from ``position`` on. With
``width > 0`` it is gradual: example ``t`` follows the new concept with probability

    p(t) = 1 / (1 + exp(-4 (t - position) / width)),

the sigmoid of MOA's ``ConceptDriftStream`` (Bifet et al. 2009), also used by River's
``datasets.synth.ConceptDriftStream``; ``width`` is the length of the transition.

References
----------
Bifet, A., Holmes, G., Pfahringer, B., Kirkby, R. & Gavalda, R. (2009). New ensemble methods for
evolving data streams. KDD 2009, Section 2 (the sigmoid join of two concepts).
Moreno-Torres, J. G. et al. (2012). A unifying view on dataset shift in classification. Pattern
Recognition 45(1):521-530 (prior-probability shift: P(y) changes, P(x | y) does not).

"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..validation import check_int

__all__ = ["ConceptSwitch", "Drift", "LabelFlip", "PriorShift"]


def _check_position(position: int, width: float) -> None:
    check_int("position", position, 0)
    if not (isinstance(width, int | float) and math.isfinite(width) and width >= 0):
        raise ValueError(f"width must be a finite number >= 0, got {width!r}")


def new_concept_probability(t: int, position: int, width: float) -> float:
    """Probability that example ``t`` follows the new concept (step if ``width`` is 0).

    >>> new_concept_probability(99, 100, 0), new_concept_probability(100, 100, 0)
    (0.0, 1.0)
    >>> round(new_concept_probability(100, 100, 50), 3)
    0.5

    """
    if width == 0:
        return float(t >= position)
    z = -4.0 * (t - position) / width
    return 0.0 if z > 700 else 1.0 / (1.0 + math.exp(z))


class Drift:
    """Base class of drift injections.

    Examples
    --------
    A drift implements `apply`, a generator over the examples; `stream` applies it. This one
    turns every label negative from `position` on:

    >>> import dataclasses
    >>> from streamboost.datasets import Drift, stream
    >>> @dataclasses.dataclass(frozen=True)
    ... class AllNegative(Drift):
    ...     position: int
    ...     needs_binary = True
    ...     def apply(self, examples, *, rng, prior, make_stream):
    ...         for t, (x, y) in enumerate(examples):
    ...             yield x, y and t < self.position
    >>> ys = [y for _, y in stream("phishing", drift=AllNegative(position=100))]
    >>> len(ys), any(ys[:100]), any(ys[100:])
    (11055, True, False)
    >>> stream("phishing", raw_labels=True, drift=AllNegative(position=100))
    Traceback (most recent call last):
    ...
    ValueError: AllNegative acts on boolean labels; it cannot be combined with raw_labels=True

    """

    #: Whether the drift needs boolean labels (it cannot act on raw multiclass labels).
    needs_binary = False

    def apply(
        self,
        examples: Iterator[tuple[dict, Any]],
        *,
        rng: random.Random,
        prior: Callable[[], float],
        make_stream: Callable[..., Iterator[tuple[dict, Any]]],
    ) -> Iterator[tuple[dict, Any]]:
        """The drifted examples. ``prior()`` gives the input's positive share (computed only
        if asked for); ``make_stream(source, positive=None)`` replays another source with the
        same options, its labels compared with ``positive`` (None: its own positive label)."""
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class LabelFlip(Drift):
    """Real concept drift by label inversion: from ``position`` on, ``y`` becomes ``not y``.

    Parameters
    ----------
    position
        Index of the first example of the new concept (abrupt) or the centre of the
        transition (gradual).
    width
        Length of the transition; 0 = abrupt.

    Examples
    --------
    >>> from streamboost.datasets import LabelFlip, stream
    >>> ys = [y for _, y in stream("phishing", drift=LabelFlip(position=3))][:6]
    >>> truth = [y for _, y in stream("phishing")][:6]
    >>> ys == truth[:3] + [not y for y in truth[3:]]
    True

    """

    position: int
    width: float = 0
    needs_binary = True

    def __post_init__(self):
        _check_position(self.position, self.width)

    def apply(self, examples: Iterator[tuple[dict, Any]], *, rng: random.Random,
              prior: Callable[[], float], make_stream: Callable[..., Iterator[tuple[dict, Any]]]
              ) -> Iterator[tuple[dict, Any]]:
        for t, (x, y) in enumerate(examples):
            p = new_concept_probability(t, self.position, self.width)
            flip = p == 1.0 or (p > 0.0 and rng.random() < p)
            yield x, (not y) if flip else y


@dataclasses.dataclass(frozen=True)
class ConceptSwitch(Drift):
    """Switch to another source's concept: from ``position`` on, examples come from ``to``.

    Both sources are read lazily: the second one starts at its first example when it is first
    drawn from, and the stream ends when the source it must draw from is exhausted. ``to`` is
    any source ``stream`` accepts, replayed with the outer call's ``seed``-derived options (same
    encoding, labels, data_dir; default shuffling).

    Parameters
    ----------
    to
        The source of the new concept.
    position
        Index of the first example of the new concept (abrupt) or the centre of the transition.
    width
        Length of the transition; 0 = abrupt.
    positive
        The positive label of ``to`` (None: its own, ``positive_label``: the registry's, True
        for boolean labels, else its minority class, which two concepts of one generator need
        not share). Required for an endless River generator, whose labels cannot be counted.

    Examples
    --------
    >>> import itertools
    >>> from river.datasets import synth
    >>> from streamboost.datasets import ConceptSwitch, stream
    >>> xs = [x for x, _ in stream("phishing", drift=ConceptSwitch("weather", position=2))]
    >>> ["temp" in x for x in xs[:4]], len(xs)
    ([False, False, True, True], 18161)

    Two concepts of an endless generator, class 1 positive in both:

    >>> switch = ConceptSwitch(synth.Agrawal(classification_function=2, seed=1), 100, positive=1)
    >>> drifted = stream(synth.Agrawal(seed=0), positive=1, drift=switch)
    >>> ys = [y for _, y in itertools.islice(drifted, 200)]
    >>> sum(ys[:100]), sum(ys[100:])
    (68, 51)

    """

    to: Any
    position: int
    width: float = 0
    positive: Any = None

    def __post_init__(self):
        _check_position(self.position, self.width)

    def apply(self, examples: Iterator[tuple[dict, Any]], *, rng: random.Random,
              prior: Callable[[], float], make_stream: Callable[..., Iterator[tuple[dict, Any]]]
              ) -> Iterator[tuple[dict, Any]]:
        other = None
        t = 0
        while True:
            p = new_concept_probability(t, self.position, self.width)
            use_new = p == 1.0 or (p > 0.0 and rng.random() < p)
            source = examples
            if use_new:
                if other is None:
                    other = iter(make_stream(self.to, positive=self.positive))
                source = other
            example = next(source, None)
            if example is None:
                return
            yield example
            t += 1


@dataclasses.dataclass(frozen=True, init=False)
class PriorShift(Drift):
    """Prior-probability shift: the positive share follows a schedule over time.

    The schedule is a list of ``(position, prior)`` points, interpolated linearly between them
    and held constant outside them. Example ``t`` of the output is kept by thinning: with ``pi``
    the input's positive share and ``q`` the target, positives are kept with probability
    ``min(1, q (1 - pi) / (pi (1 - q)))`` and negatives with ``min(1, pi (1 - q) / (q (1 -
    pi)))``, so that the kept examples have positive share ``q`` in expectation while
    P(x | y) is untouched. The output is shorter than the input. ``pi`` is the share over the
    whole input (after balancing/subsampling), not a local one: a stretch of the input richer in
    positives than the whole keeps more than ``q`` (below, weather's last stretch).

    Parameters
    ----------
    schedule
        ``[(position, prior), ...]`` with increasing positions and priors in (0, 1).

    Examples
    --------
    >>> from streamboost.datasets import PriorShift, stream
    >>> ys = [y for _, y in stream("weather", seed=1, drift=PriorShift([(0, 0.5), (4000, 0.05)]))]
    >>> round(sum(ys[:500]) / 500, 2), round(sum(ys[-2000:]) / 2000, 2)  # targets: about 0.47, 0.05
    (0.43, 0.06)

    """

    schedule: tuple[tuple[int, float], ...]
    needs_binary = True

    def __init__(self, schedule: Iterable[tuple[int, float]]):
        try:
            points = tuple((p, q) for p, q in schedule)
        except (TypeError, ValueError):
            raise TypeError(f"schedule must be a sequence of (position, prior) pairs, got "
                            f"{schedule!r}") from None
        if not points:
            raise ValueError("schedule must have at least one (position, prior) point")
        for position, q in points:
            _check_position(position, 0)
            if not (isinstance(q, int | float) and 0 < q < 1):
                raise ValueError(f"prior must be in (0, 1), got {q!r}")
        if any(b[0] <= a[0] for a, b in itertools.pairwise(points)):
            raise ValueError(f"schedule positions must increase, got {[p for p, _ in points]}")
        object.__setattr__(self, "schedule", points)

    def target(self, t: int) -> float:
        """The target positive share at output position ``t``.

        >>> PriorShift([(0, 0.5), (100, 0.1)]).target(50)
        0.3

        """
        positions = [p for p, _ in self.schedule]
        i = bisect.bisect_right(positions, t)
        if i == 0:
            return self.schedule[0][1]
        if i == len(self.schedule):
            return self.schedule[-1][1]
        (p0, q0), (p1, q1) = self.schedule[i - 1], self.schedule[i]
        return q0 + (q1 - q0) * (t - p0) / (p1 - p0)

    def apply(self, examples: Iterator[tuple[dict, Any]], *, rng: random.Random,
              prior: Callable[[], float], make_stream: Callable[..., Iterator[tuple[dict, Any]]]
              ) -> Iterator[tuple[dict, Any]]:
        pi = prior()
        if not 0 < pi < 1:
            raise ValueError(f"PriorShift needs both classes in the input, positive share {pi}")
        t = 0
        for x, y in examples:
            q = self.target(t)
            keep = q * (1 - pi) / (pi * (1 - q))
            if not y:
                keep = 1.0 / keep
            if keep >= 1.0 or rng.random() < keep:
                yield x, y
                t += 1
