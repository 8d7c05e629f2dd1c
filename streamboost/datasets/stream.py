"""Replay a dataset as a stream of ``(x, y)``: the thesis protocol, imbalance, drift, encoding.

One function, ``stream``, builds the replay as a pipeline of steps, each optional:

1. read the source row by row (registry name, CSV path or address, DataFrame, ``(X, y)``
   arrays or any iterable of ``(x, y)`` such as a River dataset); ``y`` becomes
   ``label == positive``;
2. drop the rows the thesis excluded (``drop_ambiguous``, splice only);
3. keep an exact, seeded, order-preserving random subset of each class: ``balance`` (50/50 by
   undersampling the majority class, thesis Section 8.1) or ``positive_prior`` (a target
   positive share, by undersampling whichever class is in excess);
4. ``shuffle`` (seeded) and repeat over ``passes`` (only these two keep rows in memory);
5. inject ``drift`` (``LabelFlip``, ``ConceptSwitch``, ``PriorShift``);
6. transform features online, each example seeing statistics of earlier examples only (plus
   itself for encoding and scaling, which do not look at labels): ``missing`` imputation,
   ``scale`` (standard scaling of numeric features) and ``encode`` (categorical features).

Without shuffling or passes the replay reads the file once, row by row, in constant memory
(balancing and subsampling then count the classes in a first pass and select rows with
Knuth's selection sampling, Algorithm S, in the second).

References
----------
Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
Manchester. Section 8.1 (balanced one-vs-rest protocol) and Appendix B, Table B.1.
Knuth, D. E. (1997). The Art of Computer Programming, Vol. 2, 3rd ed., Section 3.4.2,
Algorithm S (selection sampling).

"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from river import preprocessing, stats

from ..validation import (
    check_bool,
    check_distinct,
    check_int,
    check_seed,
    did_you_mean,
    is_real,
)
from .drift import ConceptSwitch, Drift, PriorShift
from .files import fetch_url, is_url
from .reader import CSVTable, Dataset, load
from .registry import REGISTRY, DatasetSpec

__all__ = ["ENCODINGS", "MISSING", "stream"]

ENCODINGS = (None, "onehot", "ordinal")
MISSING = ("absent", "impute")
_DRIFTS = "datasets.LabelFlip, ConceptSwitch or PriorShift"


@dataclasses.dataclass
class _Source:
    """Re-iterable raw rows ``(x, label)`` of a source and how to read them."""

    rows: Iterable[tuple[dict, Any]]
    positive: Any
    time_ordered: bool
    spec: DatasetSpec | None = None


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


class _Records:
    """Rows of an in-memory table: ``(x, label)`` with missing cells left out of ``x``."""

    def __init__(self, records: Sequence[dict], labels: Sequence[Any]):
        if len(records) != len(labels):
            raise ValueError(f"X has {len(records)} rows but y has {len(labels)} labels")
        self.records, self.labels = records, labels

    def __iter__(self):
        for i, (record, label) in enumerate(zip(self.records, self.labels, strict=True)):
            if _is_missing(label):
                raise ValueError(f"example {i}: missing label {label!r}")
            yield {k: v for k, v in record.items() if not _is_missing(v)}, label


class _Pairs:
    """Rows of an iterable of ``(x, y)`` pairs (a River dataset, another stream...)."""

    def __init__(self, pairs: Iterable):
        # A one-shot iterator cannot be read twice (positive inference, class counts).
        self.pairs = list(pairs) if iter(pairs) is pairs else pairs

    def __iter__(self):
        for i, pair in enumerate(self.pairs):
            try:
                x, label = pair
            except (TypeError, ValueError):
                raise TypeError(f"example {i}: expected an (x, y) pair, got {pair!r}") from None
            if not isinstance(x, dict):
                raise TypeError(f"example {i}: x must be a dict, got {type(x).__name__}")
            if _is_missing(label):
                raise ValueError(f"example {i}: missing label {label!r}")
            yield {k: v for k, v in x.items() if not _is_missing(v)}, label


class _Watched:
    """Rows of a source whose labels were not read ahead (a River dataset, an iterator), with
    the check the others get before their first example, made as each row is drawn: a label
    written like ``positive`` but not equal to it (``'1'`` for ``1``) raises before its row is
    yielded, and a pass that ends with no row of ``positive`` warns (every ``y`` was False).
    The first ``kept`` other labels are remembered (memory stays flat on a stream of endless
    label values, a regression target); labels after them are not compared."""

    def __init__(self, rows: Iterable, positive: Any, name: str, kept: int = 1_000):
        self.rows, self.positive, self.name, self.kept = rows, positive, name, kept

    def __iter__(self):
        positive, found, kept = self.positive, False, self.kept
        others: set = set()
        for i, (x, label) in enumerate(self.rows):
            if label == positive:
                found = True
            elif label not in others and len(others) < kept:  # each compared once
                if _alike(label, positive):
                    raise ValueError(f"example {i} of {self.name} has the label {label!r}, not "
                                     f"positive={positive!r} (did you mean positive="
                                     f"{label!r}?)")
                others.add(label)
            yield x, label
        if not found:
            listed = sorted(others, key=str)
            shown = f"{listed[:20]}"[:-1] + (", ...]" if len(listed) > 20 else "]")
            warnings.warn(f"no example of {self.name} had the positive label {positive!r} "
                          f"(its labels: {shown}): every y was False", stacklevel=2)


class _Without:
    """Re-iterable rows minus those holding any of ``values`` as a feature value."""

    def __init__(self, rows: Iterable, values: frozenset):
        self.rows, self.values = rows, values

    def __iter__(self):
        return (row for row in self.rows if self.values.isdisjoint(row[0].values()))


def _table_rows(X: Any, y: Any) -> _Records:
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(X, pd.DataFrame):
        check_distinct(X.columns, "the frame")
        records = X.to_dict("records")
    else:
        import numpy as np

        array = np.asarray(X)
        if array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {array.shape}")
        records = [dict(enumerate(row)) for row in array.tolist()]
    labels = y.tolist() if hasattr(y, "tolist") else list(y)
    return _Records(records, labels)


def _resolve(
    source: Any, positive: Any, data_dir: str | os.PathLike | None, target: str = "target"
) -> _Source:
    rows, spec = _read(source, data_dir, target, counts=positive is None)
    if spec is not None:
        if positive is None:
            positive = spec.positive
        _check_class(positive, spec.classes, repr(spec.name))
        return _Source(rows, positive, spec.time_ordered, spec)
    if positive is None:
        positive = _infer_positive(_labels(rows))
    elif isinstance(rows, _Pairs) and not isinstance(rows.pairs, list | tuple):
        # a River dataset would draw every example again to check (or never end): checked
        # as it is drawn
        rows = _Watched(rows, positive, type(source).__name__)
    else:
        # a label no example has would make every y False, silently: a file, a table or a
        # list is read once more to check
        labels = set(rows.labels) if isinstance(rows, _Records) else set(_labels(rows))
        if not (isinstance(positive, bool) and all(isinstance(y, bool) for y in labels)):
            _check_class(positive, labels, repr(os.fspath(source)) if isinstance(
                source, str | os.PathLike) else "the source")
    return _Source(rows, positive, time_ordered=False)


def _read(source: Any, data_dir: str | os.PathLike | None, target: str,
          counts: bool) -> tuple[Iterable[tuple[dict, Any]], DatasetSpec | None]:
    """The raw rows ``(x, label)`` of ``source`` and its registry entry, if any; ``counts``:
    the caller reads every label (an endless source is refused)."""
    spec = None
    rows: Iterable[tuple[dict, Any]]
    if isinstance(source, Dataset):
        spec = source.spec
        rows = Dataset(spec, source.path, raw_labels=True)
    elif isinstance(source, str) and source in REGISTRY:
        spec = REGISTRY[source]
        rows = load(source, data_dir, raw_labels=True)
    elif is_url(source):
        rows = CSVTable(fetch_url(source), label_column=target)
    elif isinstance(source, str | os.PathLike):
        if not Path(source).is_file():
            raise FileNotFoundError(
                f"{source!r}{did_you_mean(str(source), REGISTRY)} is neither a registered "
                f"dataset ({', '.join(sorted(REGISTRY))}) nor an existing CSV file"
            )
        rows = CSVTable(source, label_column=target)
    elif (pd := sys.modules.get("pandas")) is not None and isinstance(source, pd.DataFrame):
        if target not in source.columns:
            raise ValueError(f"a DataFrame source needs a {target!r} label column"
                             f"{did_you_mean(target, source.columns)}; pass target= or (X, y) "
                             "to name the labels otherwise")
        check_distinct(source.columns, "the frame")
        rows = _table_rows(source.drop(columns=target), source[target])
    elif isinstance(source, tuple) and len(source) == 2 and not isinstance(source[0], dict):
        rows = _table_rows(*source)
    elif isinstance(source, Iterable):
        if _endless(source) and counts:
            raise ValueError(f"{type(source).__name__} is endless (n_samples=None): pass "
                             "positive= (inferring it would count every label forever) or "
                             "take(n) examples")
        rows = _Pairs(source)
    else:
        raise TypeError(
            "source must be a registered name, a CSV path or address, a DataFrame with a "
            "'target' column, an (X, y) pair of arrays or an iterable of (x, y); got "
            f"{type(source).__name__}"
        )
    return rows, spec


def positive_label(
    source: Any,
    *,
    positive: Any = None,
    target: str = "target",
    data_dir: str | os.PathLike | None = None,
) -> Any:
    """The label ``stream`` treats as positive for ``source``: ``positive`` if given (checked
    against a registered dataset's classes), the registry's, True for boolean labels, else the
    minority class (one pass over a file to count).

    Examples
    --------
    >>> from streamboost import datasets
    >>> datasets.positive_label("phishing")
    '-1'

    """
    return _resolve(source, positive, data_dir, target).positive


def class_counts(
    source: Any, *, target: str = "target", data_dir: str | os.PathLike | None = None
) -> Counter:
    """How many examples of each class ``source`` holds, by its labels as written (one pass):
    what ``stream`` makes of a source of more than two classes is ``positive_label`` against
    all the others (the thesis's one-vs-rest protocol). Sources as ``stream`` takes them; an
    endless one raises ValueError.

    Examples
    --------
    >>> from streamboost import datasets
    >>> pets = [({"a": 1.0}, "cat"), ({"a": 2.0}, "dog"), ({"a": 0.5}, "dog"), ({"a": 3.0}, "fox")]
    >>> datasets.class_counts(pets), datasets.positive_label(pets)
    (Counter({'dog': 2, 'cat': 1, 'fox': 1}), 'cat')

    """
    return _labels(_read(source, data_dir, target, counts=True)[0])


def _labels(rows: Iterable[tuple[dict, Any]]) -> Counter:
    """How many rows of each label `rows` (`_read`'s) hold: a file's counts are remembered
    until it changes (`CSVTable.labels`), as a run asks for them more than once."""
    return rows.labels() if isinstance(rows, CSVTable) else Counter(label for _, label in rows)


def _check_class(positive: Any, classes: Iterable, name: str) -> None:
    """Raise ValueError unless ``positive`` is one of ``classes`` (of the source ``name``),
    suggesting the class written alike (1 for the '1' or the '1.0' of a CSV file, 'yes' for
    its 'Yes')."""
    if positive in classes:
        return
    listed = sorted(classes, key=str)
    same = [c for c in listed if _alike(c, positive)]
    hint = f" (did you mean positive={same[0]!r}?)" if same else ""
    raise ValueError(f"positive={positive!r} is not a class of {name}: {listed}{hint}")


def _alike(label: Any, positive: Any) -> bool:
    """Whether ``label`` and ``positive`` read alike: as text but for case and surrounding
    spaces, or as the same number."""
    a, b = str(label).strip(), str(positive).strip()
    if a.lower() == b.lower():
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def _endless(source: Any) -> bool:
    """Whether ``source`` never ends: a River generator made without ``n_samples``."""
    return isinstance(source, Iterable) and getattr(source, "n_samples", 0) is None


# Names a positive class commonly goes by: they break a tie between classes of equal size.
_POSITIVE_NAMES = frozenset({"1", "1.0", "+1", "true", "t", "yes", "y", "pos", "positive"})


def _infer_positive(counts: Counter) -> Any:
    """True for boolean labels, else the minority class; classes of equal size: one named as a
    positive class usually is (1, "yes", "true", "positive", ...), else the smallest ``str``
    (0.8.32 took the smallest ``str`` alone: 0 of a balanced 0/1 label)."""
    if not counts:
        raise ValueError("the source yields no examples")
    if all(isinstance(label, bool) for label in counts):
        return True
    return min(counts, key=lambda label: (
        counts[label], str(label).strip().lower() not in _POSITIVE_NAMES, str(label)))


def class_sizes(
    n_pos: int, n_neg: int, balance: bool, positive_prior: float | None
) -> tuple[int, int]:
    """How many positives and negatives to keep (exact undersampling)."""
    if balance:
        k = min(n_pos, n_neg)
        k_pos = k_neg = k
    elif positive_prior is not None:
        q = positive_prior
        k_pos, k_neg = round(q * n_neg / (1 - q)), n_neg
        if k_pos > n_pos:
            k_pos, k_neg = n_pos, round(n_pos * (1 - q) / q)
    else:
        return n_pos, n_neg
    if k_pos == 0 or k_neg == 0:
        raise ValueError(
            f"cannot resample {n_pos} positives and {n_neg} negatives to "
            f"{'balance' if balance else f'positive_prior={positive_prior}'}: it keeps "
            f"{k_pos} positives and {k_neg} negatives"
        )
    return k_pos, k_neg


def _select(rows: Iterable, is_pos: Callable, sizes: tuple, wanted: tuple, rng: random.Random):
    """Exactly ``wanted`` rows of each class, in order (Knuth's Algorithm S per class)."""
    remaining = list(sizes)
    needed = list(wanted)
    for row in rows:
        c = 0 if is_pos(row[1]) else 1
        if rng.random() * remaining[c] < needed[c]:
            needed[c] -= 1
            yield row
        remaining[c] -= 1


class _Features:
    """Online feature transformation: imputation, scaling, categorical encoding."""

    def __init__(self, encode: str | None, missing: str, scale: bool,
                 unscaled: frozenset = frozenset()):
        self.impute = missing == "impute"
        self.stats: dict[Any, stats.Mean | stats.Mode] = {}
        self.scaler = preprocessing.StandardScaler() if scale else None
        self.unscaled = unscaled
        self.encoder = {
            None: None,
            "onehot": preprocessing.OneHotEncoder(drop_zeros=True),
            "ordinal": preprocessing.OrdinalEncoder(),
        }[encode]

    def __call__(self, x: dict) -> dict:
        if self.impute:
            x = self._impute(x)
        if self.scaler is None and self.encoder is None:
            return x
        numeric = {k: v for k, v in x.items() if not isinstance(v, str)}
        categorical = {k: v for k, v in x.items() if isinstance(v, str)}
        # `unscaled` numbers pass the scaler by, as they are
        raw = {k: numeric.pop(k) for k in self.unscaled & numeric.keys()} if self.unscaled else {}
        if self.scaler is not None and numeric:
            self.scaler.learn_one(numeric)
            numeric = self.scaler.transform_one(numeric)
        if self.encoder is not None and categorical:
            self.encoder.learn_one(categorical)
            categorical = self.encoder.transform_one(categorical)
        return {**numeric, **raw, **categorical}

    def _impute(self, x: dict) -> dict:
        filled = dict(x)
        for k, known in self.stats.items():
            if k not in filled:
                filled[k] = known.get()
        for k, v in x.items():
            stat = self.stats.get(k)
            if stat is None:
                stat = self.stats[k] = stats.Mode() if isinstance(v, str) else stats.Mean()
            stat.update(v)
        return filled


def _unscaled(names: Collection[Hashable], scale: bool) -> frozenset:
    """`stream`'s `unscaled` as a set of feature names: a collection of names, and none
    without `scale`."""
    if isinstance(names, str | bytes) or not isinstance(names, Collection):
        raise TypeError(f"unscaled must be a collection of feature names (a list or a set), "
                        f"got {names!r}")
    if names and not scale:
        raise ValueError(f"unscaled={names!r} names features the scaler leaves as they are, "
                         "but scale=False scales none: pass scale=True, or leave unscaled out")
    return frozenset(names)


def check_prior(positive_prior: float) -> None:
    """Refuse a `positive_prior` that is not a number (TypeError) or not in (0, 1)
    (ValueError): `stream`'s, a grid's."""
    if not is_real(positive_prior):
        raise TypeError(f"positive_prior must be a number in (0, 1), got {positive_prior!r}")
    if not 0 < positive_prior < 1:
        raise ValueError(f"positive_prior must be in (0, 1), got {positive_prior!r}")


def _check_options(balance, positive_prior, encode, missing, raw_labels,
                   drift) -> list[Drift]:
    if positive_prior is not None:
        check_prior(positive_prior)
        if balance:
            raise ValueError("balance=True already fixes the prior at 0.5; "
                             "do not also pass positive_prior")
    if encode not in ENCODINGS:
        raise ValueError(f"encode must be one of {ENCODINGS}, got {encode!r}")
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {MISSING}, got {missing!r}")
    if isinstance(drift, str) or not (drift is None or isinstance(drift, Drift | Iterable)):
        raise TypeError(f"drift must be a Drift or a sequence of them ({_DRIFTS}), got {drift!r}")
    drifts = [] if drift is None else [drift] if isinstance(drift, Drift) else list(drift)
    for d in drifts:
        if not isinstance(d, Drift):
            raise TypeError(f"drift must be a Drift or a sequence of them ({_DRIFTS}), got "
                            f"{d!r} in {drift!r}")
        if raw_labels and d.needs_binary:
            raise ValueError(f"{type(d).__name__} acts on boolean labels; "
                             "it cannot be combined with raw_labels=True")
    return drifts


def stream(
    source: Any,
    *,
    seed: int | None = None,
    shuffle: bool | None = None,
    balance: bool = False,
    passes: int = 1,
    positive_prior: float | None = None,
    drift: Drift | Sequence[Drift] | None = None,
    encode: str | None = None,
    missing: str = "absent",
    scale: bool = False,
    unscaled: Collection[Hashable] = (),
    positive: Any = None,
    raw_labels: bool = False,
    drop_ambiguous: bool = False,
    data_dir: str | os.PathLike | None = None,
    target: str = "target",
) -> Iterator[tuple[dict, Any]]:
    """Replay ``source`` as a stream of ``(x, y)`` with ``y = (label == positive)``.

    Options are checked, the file located and verified and class counts taken (when needed) at
    the call; examples are produced lazily. Every option in full: docs/datasets.md.

    Parameters
    ----------
    source
        A ``REGISTRY`` name or a ``load``-ed dataset; a CSV path or http(s) address (label
        column ``target``); a DataFrame; an ``(X, y)`` pair; or any iterable of ``(x, y)``,
        e.g. a River dataset. Missing values are left out of ``x``.
    seed, shuffle, balance, passes, positive_prior
        Seeds every random choice (same seed, same stream); shuffle the rows (None: the
        registry's default); undersample to 50/50; replay the rows ``passes`` times;
        undersample to this share of positives.
    drift
        A ``LabelFlip``, ``ConceptSwitch`` or ``PriorShift``, or a sequence applied in order.
    encode, missing, scale, unscaled
        Strings kept (None), ``"onehot"`` or ``"ordinal"``; a missing value ``"absent"`` or
        ``"impute"``-d by the running mean or mode; online standard scaling; features it skips.
    positive, raw_labels, drop_ambiguous
        The positive label (default: the registry's; True for booleans; else the minority
        class), refused if no row has it (a River dataset warns as it ends); labels as written;
        drop the spec's ``ambiguous_values`` rows (splice).
    data_dir, target
        Where registry files are looked for first; the label column of a CSV or DataFrame.

    Examples
    --------
    The thesis protocol on a UCI set: one-vs-rest, 50/50 undersampling, seeded shuffling.

    >>> from streamboost import datasets
    >>> ys = [y for _, y in datasets.stream("phishing", seed=42, balance=True, shuffle=True)]
    >>> len(ys), sum(ys)
    (9796, 4898)

    A real stream in time order with 5% positives, standard-scaled:

    >>> pairs = list(datasets.stream("weather", positive_prior=0.05, scale=True, seed=0))
    >>> len(pairs), sum(y for _, y in pairs)
    (13117, 656)
    >>> round(sum(x["temp"] for x, _ in pairs[-5000:]) / 5000, 1)  # scaled: about 0
    0.1

    """
    seed, passes = check_seed(seed), check_int("passes", passes, 1)
    # the flags as Python's bools (numpy's taken), checked before anything else
    balance, scale, raw_labels, drop_ambiguous = (
        check_bool(name, value) for name, value in (
            ("balance", balance), ("scale", scale), ("raw_labels", raw_labels),
            ("drop_ambiguous", drop_ambiguous)))
    shuffle = check_bool("shuffle", shuffle, none=True)
    drifts = _check_options(balance, positive_prior, encode, missing, raw_labels, drift)
    unscaled = _unscaled(unscaled, scale)
    if not isinstance(target, str) or not target:
        raise ValueError(f"target must be the name of the label column, got {target!r}")
    src = _resolve(source, positive, data_dir, target)
    if _endless(source):
        needs = [name for name, used in (
            ("shuffle", shuffle), ("passes > 1", passes > 1), ("balance", balance),
            ("positive_prior", positive_prior is not None),
            ("a PriorShift", any(isinstance(d, PriorShift) for d in drifts))) if used]
        if needs:
            raise ValueError(f"{', '.join(needs)} must read the whole source, and "
                             f"{type(source).__name__} is endless (n_samples=None): take(n) "
                             "examples first")
    for d in drifts:
        if not isinstance(d, ConceptSwitch):
            continue
        if _endless(d.to) and d.positive is None:
            raise ValueError(f"ConceptSwitch(to={type(d.to).__name__}) is endless "
                             "(n_samples=None): pass its positive= (inferring it would count "
                             "every label forever) or take(n) examples")
        # `to` is found and its positive checked now, not when the switch comes mid-stream
        # (a one-shot iterator is read once, then)
        to_spec = d.to.spec if isinstance(d.to, Dataset) else (
            REGISTRY.get(d.to) if isinstance(d.to, str) else None)
        if to_spec is not None and d.positive is not None:
            _check_class(d.positive, to_spec.classes, repr(to_spec.name))
        if isinstance(d.to, Iterator):
            continue
        if d.positive is not None and to_spec is None:
            _resolve(d.to, d.positive, data_dir, target)
        else:
            _read(d.to, data_dir, target, counts=False)
    if shuffle is None:
        shuffle = not src.time_ordered if src.spec is not None else False
    pos = src.positive

    def is_pos(label):
        return label == pos

    ambiguous = src.spec.ambiguous_values if (drop_ambiguous and src.spec) else frozenset()
    rows: Iterable = _Without(src.rows, ambiguous) if ambiguous else src.rows

    root = random.Random(seed)
    select_rng, order_rng, drift_rng = (random.Random(root.getrandbits(64)) for _ in range(3))
    other_seed = root.getrandbits(32)
    in_memory = shuffle or passes > 1
    if in_memory:
        rows = list(rows)

    counts: list[int] = []

    def class_counts() -> tuple[int, int]:
        if not counts:
            n_pos = n = 0
            for _, label in rows:
                n += 1
                n_pos += is_pos(label)
            counts.extend((n_pos, n - n_pos))
        return counts[0], counts[1]

    kept = class_counts() if (balance or positive_prior is not None) else None
    if kept is not None:
        kept = class_sizes(*kept, balance, positive_prior)
        if in_memory:
            rows = list(_select(rows, is_pos, class_counts(), kept, select_rng))

    def prior() -> float:
        n_pos, n_neg = kept if kept is not None else class_counts()
        return n_pos / (n_pos + n_neg)

    def make_stream(other, positive=None):
        return stream(other, seed=other_seed, encode=None, raw_labels=raw_labels,
                      data_dir=data_dir, positive=positive)

    features = _Features(encode, missing, scale, unscaled)

    def replay():
        for _ in range(passes):
            if in_memory:
                if shuffle:
                    order_rng.shuffle(rows)  # type: ignore[arg-type]  # a list, in memory
                # The rows are reused by the next pass: never hand out the stored dicts.
                yield from ((dict(x), label) for x, label in rows)
            elif kept is not None:
                yield from _select(rows, is_pos, class_counts(), kept, select_rng)
            else:
                yield from rows

    def examples():
        labelled = replay() if raw_labels else ((x, is_pos(lab)) for x, lab in replay())
        for d in drifts:
            labelled = d.apply(labelled, rng=drift_rng, prior=prior, make_stream=make_stream)
        for x, y in labelled:
            yield features(x), y

    return examples()
