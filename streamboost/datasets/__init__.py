"""Datasets: a registry of real datasets and their replay as streams of ``(x, y)``.

>>> from streamboost import datasets
>>> ds = datasets.load("phishing")
>>> ds.spec.positive, ds.n_samples
('-1', 11055)
>>> x, y = next(datasets.stream("phishing", balance=True, seed=0))

See ``docs/datasets.md`` for the registry, file search order and replay options.
"""

from __future__ import annotations

from .drift import ConceptSwitch, Drift, LabelFlip, PriorShift
from .files import (
    ChecksumError,
    cache_dir,
    download_url,
    fetch,
    fetch_url,
    locate,
    sha256_file,
    verify,
)
from .reader import CSVTable, Dataset, load
from .registry import REGISTRY, DatasetSpec, describe_registry
from .stream import class_counts, positive_label, stream

__all__ = [
    "REGISTRY",
    "CSVTable",
    "ChecksumError",
    "ConceptSwitch",
    "Dataset",
    "DatasetSpec",
    "Drift",
    "LabelFlip",
    "PriorShift",
    "cache_dir",
    "class_counts",
    "describe_registry",
    "download_url",
    "fetch",
    "fetch_url",
    "load",
    "locate",
    "positive_label",
    "sha256_file",
    "stream",
    "verify",
]
