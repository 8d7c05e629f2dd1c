"""Experiment grids: many prequential runs, their statistics and their figures.

A grid is the product datasets x policies x cost ratios x seeds; each cell is one prequential
run (`streamboost.evaluate.prequential`) of a `BanditCalibratedClassifier`. `run_grid` runs the
cells in parallel (joblib or Dask), stores each as it finishes and skips finished cells when run
again; `statistics.compare` ranks the policies (Friedman, Nemenyi); `figures` draws them.

>>> from streamboost import experiments
>>> cells = experiments.make_grid(["phishing"], ["never", "ucb1", "both"], max_rows=200)
>>> run = experiments.run_grid(cells, n_jobs=1)
>>> [row["status"] for row in run.rows()]
['ok', 'ok', 'ok']
>>> comparison = experiments.compare(run.rows(), "brier")
>>> sorted(comparison.mean_ranks.values())
[1.0, 2.0, 3.0]

See `docs/experiments.md`.
"""

from __future__ import annotations

from . import figures, statistics
from .execution import BACKENDS, GridRun, run_cell, run_grid, write_table
from .grid import (
    BASELINE_POLICIES,
    DEFAULT_GRID,
    Cell,
    check_dataset,
    check_policy,
    make_grid,
    policy_names,
)
from .statistics import Comparison, compare
from .store import CellStore

__all__ = [
    "BACKENDS",
    "BASELINE_POLICIES",
    "DEFAULT_GRID",
    "Cell",
    "CellStore",
    "Comparison",
    "GridRun",
    "check_dataset",
    "check_policy",
    "compare",
    "figures",
    "make_grid",
    "policy_names",
    "run_cell",
    "run_grid",
    "statistics",
    "write_table",
]
