"""The Python blocks of the docs call streamboost with arguments its functions take.

The README's blocks run as written (`test_readme.py`); the docs' blocks read data a test does
not have, or run for minutes, so here they are read instead: every call of a streamboost
class or function they import is bound to its signature, which fails on a renamed or removed
parameter (docs/experiments.md passed `booster=` to the controller, whose parameter is
`model=`, until 0.8.32).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


def _imported(tree: ast.Module) -> dict[str, object]:
    """The names a block imports from streamboost, bound to their objects."""
    names: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamboost"):
            module = importlib.import_module(node.module)
            for alias in node.names:  # an object, or a submodule the import loads
                names[alias.asname or alias.name] = (
                    getattr(module, alias.name, None)
                    or importlib.import_module(f"{node.module}.{alias.name}")
                )
    return names


def _resolve(node: ast.expr, names: dict[str, object]) -> object | None:
    """What a call's function is, if it is a streamboost name or an attribute of one."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, names)
        if inspect.ismodule(owner):
            return getattr(owner, node.attr, None)
    return None


def _calls(page: Path) -> list[tuple[str, object, ast.Call]]:
    found = []
    for block in _blocks(page):
        tree = ast.parse(block)
        names = _imported(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                target = _resolve(node.func, names)
                if callable(target) and not inspect.ismodule(target):
                    found.append((ast.unparse(node.func), target, node))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_streamboost_call_binds_to_its_signature(page):
    bad = []
    for name, target, call in _calls(page):
        signature = inspect.signature(target)
        args = [None] * sum(not isinstance(a, ast.Starred) for a in call.args)
        kwargs = {k.arg: None for k in call.keywords if k.arg is not None}
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:
            bad.append(f"{name}(...): {error}")
    assert not bad, bad


def test_the_check_reads_calls_and_fails_on_a_parameter_that_does_not_exist(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom streamboost import BanditCalibratedClassifier, bandits\n"
        "BanditCalibratedClassifier(booster=None)\nbandits.make('ucb1', n_arms=2)\n```\n"
    )
    calls = _calls(page)
    assert [name for name, _, _ in calls] == ["BanditCalibratedClassifier", "bandits.make"]
    with pytest.raises(AssertionError, match="unexpected keyword argument 'booster'"):
        test_every_streamboost_call_binds_to_its_signature(page)
    assert sum(len(_calls(p)) for p in PAGES) > 20  # the docs' calls are read
