"""The docstrings keep to the house style: what and why in about 40 lines, the rest in docs/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import streamboost

PACKAGE = Path(streamboost.__file__).parent
# "about 40 lines at most" (the brief; issue 10 for class docstrings): a docstring's lines as
# written, its closing blank line included; measured numbers and the long story go to docs/
MAX_LINES = 45


def long_docstrings(source: str, limit: int) -> list[tuple[str, int]]:
    """(name, lines) of each class or function of `source` whose docstring runs over `limit`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text is not None and len(text.splitlines()) > limit:
                found.append((node.name, len(text.splitlines())))
    return found


def test_the_check_finds_a_long_docstring_and_passes_a_short_one():
    body = "\n".join(f"    line {i}" for i in range(50))
    source = f'class Long:\n    """Summary.\n\n{body}\n    """\n\ndef short():\n    """One."""\n'
    assert long_docstrings(source, MAX_LINES) == [("Long", 53)]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_docstring_runs_over_about_40_lines(path):
    assert long_docstrings(path.read_text(encoding="utf-8"), MAX_LINES) == []
