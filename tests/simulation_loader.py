"""The scripts of simulations/ (and benchmarks/) as modules, for their tests."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load(script: str, name: str | None = None, folder: str = "simulations") -> types.ModuleType:
    """`<folder>/<script>.py` as a module called `name` (default: `script`), registered in
    `sys.modules` (dataclasses and pickles look their module up there), with its folder on
    `sys.path` while it loads, since the scripts import each other."""
    name = name or script
    where = str(ROOT / folder)
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, where)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(where)
    return module


def run_script(folder: str, script: str, *args: str) -> list[str]:
    """The lines `<folder>/<script>.py *args` prints, run in a fresh Python (it must succeed)."""
    done = subprocess.run([sys.executable, str(ROOT / folder / f"{script}.py"), *args],
                          capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def spy_on(monkeypatch, module: types.ModuleType, name: str) -> list[dict]:
    """Replace `module.<name>` (a class the script builds with keyword arguments) by a
    function that records each call's arguments and builds the real thing; the list they are
    recorded in, in order."""
    built, real = [], getattr(module, name)

    def spy(**params):
        built.append(params)
        return real(**params)

    monkeypatch.setattr(module, name, spy)
    return built


def prequential(model, rows: list, delay: int = 0) -> tuple[float, float]:
    """The prequential Brier score and log-loss of `model` over `rows` of (x, bool label), each
    example predicted as it comes and learned `delay` examples later (River's
    `progressive_val_score(delay=...)`, written out), for checking what a script measured."""
    from river import metrics

    from streamboost.metrics import BrierScore

    brier, log_loss = BrierScore(), metrics.LogLoss()
    for i, (x, y) in enumerate(rows):
        if delay and i >= delay:
            model.learn_one(*rows[i - delay])
        p = model.predict_proba_one(x)
        brier.update(y, p)
        log_loss.update(y, p)
        if not delay:
            model.learn_one(x, y)
    return brier.get(), log_loss.get()
