"""Where a grid keeps its finished cells: one JSON file per cell, written atomically."""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path

from ..atomic import remove_stale, written

__all__ = ["CellStore"]


class CellStore:
    """A directory of cell records, `<directory>/<cell key>.json`.

    Each record is written to a temporary file in the same directory and renamed over the
    final name (`os.replace`, atomic on POSIX and Windows), so a grid killed mid-write leaves
    either the old record or the new one, never half a file. Records are read back only if
    their configuration equals the cell's.

    Parameters
    ----------
    directory
        The directory; created when the first record is written.

    Examples
    --------
    >>> import tempfile
    >>> from streamboost.experiments import CellStore
    >>> store = CellStore(tempfile.mkdtemp())
    >>> record = {"key": "abc", "config": {"seed": 1}, "status": "ok"}
    >>> path = store.save(record)
    >>> path.name, store.load("abc", {"seed": 1}) == record, store.load("abc", {"seed": 2})
    ('abc.json', True, None)

    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        remove_stale(self.directory)  # left by a run that was killed while writing

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def save(self, record: typing.Mapping[str, typing.Any]) -> Path:
        """Write `record` (which has a `"key"`) atomically; return its path."""
        key = record.get("key")
        if not isinstance(key, str) or not key or os.sep in key:
            raise ValueError(f"a record needs a file-name-safe str 'key', got {key!r}")
        target = self.path(key)
        with written(target) as tmp:
            tmp.write_text(json.dumps(record, indent=1), encoding="utf-8")
        return target

    def load(
        self, key: str, config: typing.Mapping[str, typing.Any] | None = None
    ) -> dict[str, typing.Any] | None:
        """The stored record of `key`, or None if there is none, it is unreadable, or its
        configuration differs from `config` (when given)."""
        try:
            with self.path(key).open(encoding="utf-8") as f:
                record = json.load(f)
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        if config is not None and record.get("config") != dict(config):
            return None
        return record

    def records(self) -> list[dict[str, typing.Any]]:
        """Every readable record in the directory, in file-name order."""
        if not self.directory.is_dir():
            return []
        found = (self.load(p.stem) for p in sorted(self.directory.glob("*.json")))
        return [r for r in found if r is not None]
