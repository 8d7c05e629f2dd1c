"""The scripts of simulations/ as modules, for their tests."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

SIMULATIONS = Path(__file__).resolve().parents[1] / "simulations"


def load(script: str, name: str | None = None) -> types.ModuleType:
    """`simulations/<script>.py` as a module called `name` (default: `script`), registered in
    `sys.modules` (dataclasses and pickles look their module up there), with simulations/ on
    `sys.path` while it loads, since the scripts import each other."""
    name = name or script
    spec = importlib.util.spec_from_file_location(name, SIMULATIONS / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(SIMULATIONS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SIMULATIONS))
    return module
