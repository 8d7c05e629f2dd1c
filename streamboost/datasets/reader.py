"""Row-by-row reading of (gzipped) CSV files, and the ``Dataset`` that ``load`` returns.

Rows are read with the standard library (``gzip`` + ``csv``), one at a time, so memory does not
depend on the file's length. Numeric columns become floats, categorical columns stay strings,
an empty cell or a ``nan`` cell is a missing value and its key is left out of ``x`` (River's
convention for sparse/missing features); an infinite or absurd number (beyond +/-1e150) is an
error, as everywhere in streamboost (``streamboost.validation``). Every malformed row, and a
file that is not UTF-8 text or is truncated, is an error naming the file (and line).
"""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import os
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from river.datasets import base

from ..validation import LIMIT, check_bool, check_distinct, did_you_mean
from .files import _spec, fetch, verify
from .registry import DatasetSpec

__all__ = ["CSVTable", "Dataset", "load"]

#: Rows looked at to decide which columns of an unregistered CSV are numeric.
INFER_ROWS = 1000


# Each file's label counts (`CSVTable.labels`), by what identifies its contents (device, inode,
# size, modification and change times) and how it is read: a run asks for them more than once
# before it starts (its positive class, the counts it prints, the check of a given positive
# label), each a whole pass. The oldest entry goes first beyond `_COUNTED_MAX`.
_COUNTED: dict[tuple, Counter] = {}
_COUNTED_MAX = 16

# Raised while decoding or decompressing a file that is not UTF-8 CSV text, or is truncated.
_UNREADABLE = (UnicodeDecodeError, EOFError, gzip.BadGzipFile, zlib.error, csv.Error)


def _unreadable(path: Path, error: Exception) -> ValueError:
    return ValueError(
        f"{path}: cannot be read as CSV text ({type(error).__name__}: {error}); expected a "
        "UTF-8 CSV file, gzipped or not, complete to its end"
    )


def _reader(f: io.TextIOBase) -> Iterator[list[str]]:
    # spaces after a comma ("a, b, target", as numpy's savetxt writes with ", ") belong to
    # no name and no value
    return csv.reader(f, skipinitialspace=True)


def _open_text(path: Path) -> io.TextIOBase:
    with open(path, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    # "utf-8-sig": a byte-order mark (Excel's "CSV UTF-8") is not part of the first name
    if gzipped:
        return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


class CSVTable:
    """A re-iterable view of a CSV file as ``(x, label)`` rows, label as written in the file.

    Parameters
    ----------
    path
        A ``.csv`` or gzipped CSV file with one header row.
    label_column
        Name of the label column (any position).
    numeric
        Whether each feature column is numeric: True/False for all columns, or None to infer
        it once from the first ``INFER_ROWS`` rows (numeric iff every non-empty cell there
        parses as a float). A later cell that does not parse in a numeric column is an error.
    classes
        If given, every label must be one of these.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from streamboost.datasets import CSVTable
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "toy.csv"
    >>> _ = path.write_text("colour,label,size\\nred,yes,1.5\\n,no,2\\nblue,yes,\\n")
    >>> table = CSVTable(path, label_column="label")
    >>> table.features, table.numeric
    (['colour', 'size'], [False, True])
    >>> list(table)  # an empty cell is a missing value: its key is left out
    [({'colour': 'red', 'size': 1.5}, 'yes'), ({'size': 2.0}, 'no'), ({'colour': 'blue'}, 'yes')]
    >>> table.labels()  # a second pass over the file
    Counter({'yes': 2, 'no': 1})

    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        label_column: str = "target",
        numeric: bool | None = None,
        classes: tuple[str, ...] | None = None,
    ):
        self.path = Path(path)
        self.label_column = label_column
        self.classes = classes
        try:
            with _open_text(self.path) as f:
                reader = _reader(f)
                header = next(reader, None)
                if not header:
                    raise ValueError(f"{self.path}: empty file, expected a CSV header row")
                if label_column not in header:
                    # one column holding another separator: a ;- or tab-separated file
                    other = next((sep for sep in (";", "\t", "|") if len(header) == 1
                                  and sep in header[0]), None)
                    spaced = next((c for c in header if c.strip() == label_column), None)
                    meant = "" if spaced else did_you_mean(label_column, header)
                    raise ValueError(
                        f"{self.path}: label column {label_column!r}{meant} not found in the "
                        f"header (columns: {', '.join(header[:10])}"
                        f"{', ...' if len(header) > 10 else ''})"
                        + (f"; the file looks {other!r}-separated, and streamboost reads "
                           f"comma-separated CSV" if other else "")
                        + (f"; a column is named {spaced!r}, with a space" if spaced else "")
                    )
                check_distinct(header, f"{self.path}: the header")
                self.header = header
                self.label_index = header.index(label_column)
                self.features = [c for i, c in enumerate(header) if i != self.label_index]
                if numeric is None:
                    self.numeric = self._infer_numeric(itertools.islice(reader, INFER_ROWS))
                else:
                    self.numeric = [numeric] * len(self.features)
        except _UNREADABLE as error:
            raise _unreadable(self.path, error) from error

    def _infer_numeric(self, rows) -> list[bool]:
        numeric = [True] * len(self.features)
        for row in rows:
            if len(row) != len(self.header):
                continue  # reported with its line number when the rows are read (or blank)
            for j, cell in enumerate(self._feature_cells(row)):
                if numeric[j] and cell != "":
                    try:
                        float(cell)
                    except ValueError:
                        numeric[j] = False
        return numeric

    def _feature_cells(self, row: list[str]) -> list[str]:
        if self.label_index == len(row) - 1:
            return row[:-1]
        return row[: self.label_index] + row[self.label_index + 1 :]

    @property
    def n_features(self) -> int:
        """Number of feature columns (every column but the label)."""
        return len(self.features)

    def labels(self) -> Counter:
        """Count of each label, as written: one pass over the file, every row checked as
        iterating checks it, remembered until the file changes."""
        stat = self.path.stat()
        key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns,
               str(self.path.resolve()), self.label_column, tuple(self.numeric), self.classes)
        counts = _COUNTED.get(key)
        if counts is None:
            counts = Counter(label for _, label in self)
            if len(_COUNTED) >= _COUNTED_MAX:
                del _COUNTED[next(iter(_COUNTED))]
            _COUNTED[key] = counts
        return counts.copy()  # the caller's to change

    def __iter__(self) -> Iterator[tuple[dict, str]]:
        try:
            yield from self._rows()
        except _UNREADABLE as error:
            raise _unreadable(self.path, error) from error

    def _rows(self) -> Iterator[tuple[dict, str]]:
        names, numeric = self.features, self.numeric
        all_numeric, all_categorical = all(numeric), not any(numeric)
        n_columns, li = len(self.header), self.label_index
        classes = None if self.classes is None else frozenset(self.classes)
        with _open_text(self.path) as f:
            reader = _reader(f)
            next(reader)
            for line, row in enumerate(reader, start=2):
                if not row:  # a blank line (an editor's last newline, most often)
                    continue
                if len(row) != n_columns:
                    raise ValueError(
                        f"{self.path}, line {line}: {len(row)} fields, expected {n_columns} "
                        f"(unparsable row {','.join(row)[:80]!r})"
                    )
                label = row[li]
                if label == "":
                    raise ValueError(f"{self.path}, line {line}: missing label "
                                     f"(empty {self.label_column!r} cell)")
                if classes is not None and label not in classes:
                    raise ValueError(
                        f"{self.path}, line {line}: label {label!r} is neither the positive "
                        f"nor a negative class; expected one of {sorted(classes)}"
                    )
                cells = self._feature_cells(row)
                x: dict  # floats, or strings where a column is categorical
                if all_numeric:
                    try:
                        x = dict(zip(names, map(float, cells), strict=True))
                    except ValueError:  # a missing (empty) or malformed cell: slow path
                        x = self._convert(cells, line)
                    else:
                        # NaN, inf or beyond LIMIT: the slow path says which (a NaN makes the
                        # sum NaN wherever max() met it; d finite values have a finite sum)
                        values = x.values()
                        if not (max(map(abs, values), default=0.0) <= LIMIT
                                and (total := sum(values)) == total):
                            x = self._convert(cells, line)
                elif all_categorical:
                    x = {k: v for k, v in zip(names, cells, strict=True) if v != ""}
                else:
                    x = self._convert(cells, line)
                yield x, label

    def _convert(self, cells: list[str], line: int) -> dict:
        x: dict[str, float | str] = {}
        for name, is_numeric, cell in zip(self.features, self.numeric, cells, strict=True):
            if cell == "":
                continue
            if is_numeric:
                try:
                    value = float(cell)
                except ValueError:
                    raise ValueError(
                        f"{self.path}, line {line}: column {name!r} is numeric but holds "
                        f"{cell!r}"
                    ) from None
                if value != value:  # a "nan" cell: missing
                    continue
                if not -LIMIT <= value <= LIMIT:
                    raise ValueError(
                        f"{self.path}, line {line}: column {name!r} holds {cell!r}; expected a "
                        f"finite number within +/-{LIMIT:g}, or an empty cell for a missing value"
                    )
                x[name] = value
            else:
                x[name] = cell
        return x


class Dataset(base.Dataset):
    """A registered dataset replayed in file order, River style: an iterable of ``(x, y)``.

    Each iteration re-opens the file, checks its sha256 and reads it row by row (constant
    memory). ``y`` is True for the registry's positive label and False for every other class
    (one-vs-rest), or the label as written in the file with ``raw_labels=True``.

    Parameters
    ----------
    spec
        The dataset's registry entry.
    path
        The file to read.
    raw_labels
        Yield the file's label strings instead of booleans.

    Examples
    --------
    >>> from streamboost import datasets
    >>> ds = datasets.load("phishing")
    >>> ds.n_samples, ds.n_features
    (11055, 30)
    >>> x, y = next(iter(ds))
    >>> y, x["having_IP_Address"]
    (True, -1.0)

    """

    def __init__(self, spec: DatasetSpec, path: str | os.PathLike, *, raw_labels: bool = False):
        super().__init__(
            task=base.MULTI_CLF if raw_labels and len(spec.classes) > 2 else base.BINARY_CLF,
            n_features=spec.n_features,
            n_samples=spec.n_rows,
            n_classes=len(spec.classes) if raw_labels else 2,
        )
        self.spec = spec
        self.path = Path(path)
        self.raw_labels = raw_labels
        self.table = CSVTable(
            self.path,
            label_column=spec.label_column,
            numeric=not spec.categorical,
            classes=spec.classes,
        )
        if self.table.n_features != spec.n_features:
            raise ValueError(
                f"dataset {spec.name!r}: {self.path} has {self.table.n_features} feature "
                f"columns, the registry says {spec.n_features}"
            )

    def __iter__(self) -> Iterator[tuple[dict, bool | str]]:
        verify(self.path, self.spec)  # again at each pass: the file may have changed
        if self.raw_labels:
            yield from self.table
        else:
            positive = self.spec.positive
            for x, label in self.table:
                yield x, label == positive

    @property
    def _repr_content(self):
        return {"Name": self.spec.name, **super()._repr_content}

    @property
    def desc(self) -> str:
        return f"{self.spec.name}: {self.spec.citation}"


def load(
    name: str,
    data_dir: str | os.PathLike | None = None,
    *,
    raw_labels: bool = False,
    download: bool = True,
    progress: bool = True,
) -> Dataset:
    """A registered dataset by name, its file found (or downloaded) and verified.

    Parameters
    ----------
    name
        A key of ``REGISTRY``.
    data_dir
        Directory searched before ``$STREAMBOOST_DATA``, the bundled data and the cache.
    raw_labels
        Yield the labels as written in the file instead of ``label == spec.positive``.
    download
        Whether a missing file may be downloaded into the cache.
    progress
        Show download progress.

    Examples
    --------
    >>> from streamboost import datasets
    >>> ds = datasets.load("weather")
    >>> sum(y for _, y in ds) == ds.spec.n_positive
    True

    """
    raw_labels = check_bool("raw_labels", raw_labels)
    spec = _spec(name)
    return Dataset(spec, fetch(spec, data_dir, download=download, progress=progress),
                   raw_labels=raw_labels)
