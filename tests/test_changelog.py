"""CHANGELOG.md: the release being made has its entry, and releases run newest first."""

from __future__ import annotations

import re
from pathlib import Path

import streamboost

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def _releases(text: str) -> list[tuple[int, ...]]:
    return [tuple(int(part) for part in v.split("."))
            for v in re.findall(r"^## (\d+\.\d+\.\d+)\s*$", text, flags=re.M)]


def test_the_current_version_has_an_entry_and_releases_run_newest_first():
    releases = _releases(CHANGELOG.read_text(encoding="utf-8"))
    current = tuple(int(part) for part in streamboost.__version__.split("."))
    assert releases and releases[0] == current  # a version bumped without its entry fails
    assert releases == sorted(releases, reverse=True) and len(set(releases)) == len(releases)


def test_the_release_headings_are_read_as_versions():
    assert _releases("# Changelog\n\n## 1.2.10\n\n- a\n\n## 1.2.9\n- b\n## notes\n") == [
        (1, 2, 10), (1, 2, 9)]
