"""Experiment grids: many prequential runs, their statistics and their figures.

A grid is the product datasets x policies x cost ratios x seeds; each cell is one prequential
run (`streamboost.evaluate.prequential`) of a `BanditCalibratedClassifier`. `run_grid` runs the
cells in parallel (joblib or Dask), stores each as it finishes and skips finished cells when run
again; `statistics.compare` ranks the policies (Friedman, Nemenyi); `figures` draws them.

>>> from streamboost import experiments
>>> cells = experiments.make_grid(["phishing", "weather"], ["never", "every-2", "both"],
...                               max_rows=1000)
>>> run = experiments.run_grid(cells, n_jobs=1)
>>> [row["status"] for row in run.rows()].count("ok")
6
>>> comparison = experiments.compare(run.rows(), "log_loss")
>>> comparison.datasets, sorted(comparison.mean_ranks)
(('phishing', 'weather'), ['both', 'every-2', 'never'])
>>> print(comparison.format())  # doctest: +SKIP
Policies ranked by log_loss (lower is better) over 2 dataset(s); per dataset: mean ± 95% CI ...
rank  policy   mean rank  phishing  weather
1     both     1.00       0.2921    0.6129
2     never    2.50       0.2962    0.6369
3     every-2  2.50       0.3163    0.6260
Friedman chi2 = 3.000 (df 2), p = 0.2231; Iman-Davenport F = 3.000 (df 2, 2), p = 0.25
...

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
