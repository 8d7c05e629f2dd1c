"""The docstrings keep to the house style: what and why in about 40 lines, the rest in docs/."""

from __future__ import annotations

import ast
import inspect
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


def _public_estimators() -> list[type]:
    """Every class a public module exports (`__all__`) that is a River estimator."""
    import importlib
    import pkgutil

    from river import base

    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(streamboost.__path__, "streamboost."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, base.Base) and not inspect.isabstract(obj):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[key] for key in sorted(found)]


# estimators that implement no paper: baselines, an interface and two utilities
NO_PAPER = {"Binarized", "Calibrator", "Constant", "EveryNth", "FiniteFeatures", "Random"}


@pytest.mark.parametrize("cls", _public_estimators(), ids=lambda cls: cls.__qualname__)
def test_every_public_estimator_has_examples_and_references(cls):
    text = inspect.cleandoc(cls.__doc__ or "")  # Python 3.13 dedents docstrings itself
    assert "\nExamples\n--------\n" in text
    if cls.__qualname__ not in NO_PAPER:
        assert "\nReferences\n----------\n" in text
