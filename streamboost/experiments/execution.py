"""Running grids: each cell an independent job, locally (joblib) or on a Dask cluster.

Cells run in worker processes and return their record to the caller, which stores it at once
(`CellStore`, atomic), so an interrupted grid keeps every cell that finished and a re-run skips
them. A cell that raises becomes a "failed" record carrying the traceback; the grid goes on,
the failure is reported, and the next run tries the cell again.
"""

from __future__ import annotations

import contextlib
import csv
import ctypes
import dataclasses
import datetime
import math
import multiprocessing
import numbers
import os
import platform
import signal
import sys
import time
import traceback
import typing
from pathlib import Path

from .. import __version__
from ..atomic import written
from ..evaluate import RunResult, _progress_bar
from .grid import Cell
from .store import CellStore

__all__ = ["BACKENDS", "GridRun", "result_rows", "run_cell", "run_grid", "write_table"]

BACKENDS: tuple[str, ...] = ("joblib", "dask")

# Columns of the results table that come from the configuration, in this order.
_CONFIG_COLUMNS = (
    "dataset",
    "policy",
    "cost_ratio",
    "c_fp",
    "c_fn",
    "c_fn_feature",  # each example's c_FN is c_fn times this column's value (None: c_fn)
    "seed",
    "batch_size",
    "n_models",
    "max_rows",
    "positive_prior",  # the share of positives replayed (None: as the data has it)
    "reward",
    "reward_map",
    "train_budget",
    "budget_reserve",
    "budget_timing",
    "reward_examples",
    "reward_every",
    "reward_start",
    "reward_restart",
    "rollback",
    "counterfactual",
    "arms",
    "warmup_arm",
    "data_dir",
    "model",
    "calibrator",
    "score",
    "target",
    "pos_label",
)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _die_with_parent() -> None:
    """In a worker process on Linux, ask the kernel to kill it when its parent dies
    (`prctl(PR_SET_PDEATHSIG, SIGKILL)`): a grid whose main process is killed (SIGKILL, out of
    memory) leaves no workers computing for nobody."""
    global _guarded
    if _guarded or multiprocessing.parent_process() is None or not sys.platform.startswith("linux"):
        return
    _guarded = True
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the guard was set
            os._exit(1)


_PR_SET_PDEATHSIG = 1
_guarded = False


def run_cell(cell: Cell) -> dict[str, typing.Any]:
    """Run one cell prequentially; return its record (never raises for a failing run).

    The record holds the key, the configuration, `status` ("ok" or "failed"), the
    `RunResult` as a dict (`result`), or the traceback (`error`), plus timing, host and
    package version.
    """
    record: dict[str, typing.Any] = {
        "key": cell.key(),
        "config": cell.config(),
        "version": __version__,
        "host": platform.node(),
        "started": _now(),
    }
    _die_with_parent()
    start = time.perf_counter()
    try:
        result = cell.run()
    except Exception:
        record.update(status="failed", result=None, error=traceback.format_exc())
    else:
        record.update(status="ok", result=result.to_dict(), error=None)
    record["seconds"] = time.perf_counter() - start
    return record


def _failure(cell: Cell, error: BaseException) -> dict[str, typing.Any]:
    """The record of a cell whose job died outside `run_cell` (e.g. a lost worker)."""
    return {
        "key": cell.key(),
        "config": cell.config(),
        "version": __version__,
        "host": None,
        "started": None,
        "status": "failed",
        "result": None,
        "error": "".join(traceback.format_exception(error)),
        "seconds": math.nan,
    }


@dataclasses.dataclass
class GridRun:
    """The records of a grid, in cell order, and how many were run now or taken from the store.

    Examples
    --------
    >>> import tempfile
    >>> from streamboost import experiments
    >>> cells = experiments.make_grid(["phishing"], ["never", "ucb1"], max_rows=50)
    >>> out = tempfile.mkdtemp()
    >>> run = experiments.run_grid(cells, out, n_jobs=1)
    >>> run.n_run, run.n_cached, run.failed
    (2, 0, [])
    >>> again = experiments.run_grid(cells, out, n_jobs=1)  # finished cells are read back
    >>> again.n_run, again.n_cached, [(row["policy"], row["n"]) for row in again.rows()]
    (0, 2, [('never', 50), ('ucb1', 50)])

    """

    cells: list[Cell]
    records: list[dict[str, typing.Any]]
    n_cached: int
    n_run: int

    @property
    def failed(self) -> list[dict[str, typing.Any]]:
        """The records of the runs that failed (status other than "ok")."""
        return [r for r in self.records if r["status"] != "ok"]

    def rows(self) -> list[dict[str, typing.Any]]:
        """The results table: one flat row per cell (configuration, metrics, timing, version).

        Failed cells have status "failed", the last line of their error, and no metrics.
        """
        return result_rows(self.records)


def result_rows(records: typing.Iterable[dict[str, typing.Any]]) -> list[dict[str, typing.Any]]:
    """One flat results row per cell record (see `GridRun.rows`); a configuration field that
    an older version did not record is left empty."""
    rows = []
    for record in records:
        config = record["config"]
        row = {column: config.get(column) for column in _CONFIG_COLUMNS}
        row["arms"] = "+".join(row["arms"] or ())  # one CSV cell, e.g. "train+calibrate"
        row.update(key=record["key"], status=record["status"])
        if record["result"] is not None:
            row.update(_summary(record["result"]))
        lines = (record.get("error") or "").strip().splitlines()
        row.update(
            error=lines[-1] if lines else "",
            seconds=record["seconds"],
            version=record["version"],
            host=record["host"],
        )
        rows.append(row)
    return rows


def _summary(result: dict[str, typing.Any]) -> dict[str, typing.Any]:
    return RunResult(**result).summary()


def run_grid(
    cells: typing.Sequence[Cell],
    out: str | os.PathLike | None = None,
    *,
    backend: str = "joblib",
    n_jobs: int | None = None,
    scheduler: str | None = None,
    client: typing.Any = None,
    progress: bool = False,
    on_record: typing.Callable[[dict[str, typing.Any]], None] | None = None,
) -> GridRun:
    """Run the cells of a grid, skipping those already finished in `out`.

    Parameters
    ----------
    cells
        The cells (see `make_grid`); a cell given twice is run once.
    out
        Results directory; records go to `<out>/cells/<key>.json` as each cell finishes.
        None keeps nothing on disk (and resumes nothing).
    backend
        `"joblib"`: local worker processes (`n_jobs` of them; None = one per CPU; 1 runs
        in this process). `"dask"`: a Dask cluster: `client` if given, else one at
        `scheduler` (e.g. `"tcp://host:8786"`), else a new `LocalCluster` with `n_jobs`
        single-threaded worker processes.
    n_jobs
        Parallel workers for joblib or the local Dask cluster.
    scheduler
        Address of an existing Dask scheduler.
    client
        An existing `dask.distributed.Client`.
    progress
        Show a tqdm progress bar over cells (the `progress` extra).
    on_record
        Called with each record as it is stored (e.g. to report failures as they happen).

    Returns
    -------
    GridRun
        Every cell's record, finished now or before. Failed cells are records with status
        "failed"; they are run again next time.

    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend != "dask" and (scheduler is not None or client is not None):
        raise ValueError(f"scheduler and client need backend='dask', got backend={backend!r}")
    if n_jobs is not None and (
        isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0
    ):
        raise ValueError(f"n_jobs must be a non-zero int or None, got {n_jobs!r}")
    cells = list(dict.fromkeys(cells))
    for cell in cells:
        if not isinstance(cell, Cell):
            raise TypeError(f"expected Cell objects, got {cell!r}")
    store = CellStore(Path(out) / "cells") if out is not None else None

    records: dict[str, dict[str, typing.Any]] = {}
    todo = []
    for cell in cells:
        stored = store.load(cell.key(), cell.config()) if store is not None else None
        if stored is not None and stored["status"] == "ok":
            records[cell.key()] = stored
        else:
            todo.append(cell)
    n_cached = len(records)

    bar = None
    if progress and todo:
        bar = _progress_bar(len(todo), unit="cell")

    def keep(record: dict[str, typing.Any]) -> None:
        if store is not None:
            store.save(record)
        records[record["key"]] = record
        if bar is not None:
            bar.update(1)
        if on_record is not None:
            on_record(record)

    try:
        if todo:
            run = _run_dask if backend == "dask" else _run_joblib
            run(todo, keep, n_jobs=n_jobs, scheduler=scheduler, client=client)
    finally:
        if bar is not None:
            bar.close()
    return GridRun(
        cells=cells,
        records=[records[c.key()] for c in cells if c.key() in records],
        n_cached=n_cached,
        n_run=len(todo),
    )


def _run_joblib(todo, keep, *, n_jobs, scheduler, client) -> None:
    try:
        import joblib
    except ImportError:
        # A core install runs grids one cell after the other; joblib (the `parallel` extra)
        # only adds workers.
        if n_jobs not in (None, 1):
            print(f'joblib is not installed: running the {len(todo)} cells one after the '
                  'other (pip install "streamboost[parallel]" for workers)', file=sys.stderr)
        for cell in todo:
            keep(run_cell(cell))
        return
    n_jobs = n_jobs if n_jobs is not None else -1
    # Unordered: each record is stored as soon as its cell finishes, not in submission order.
    parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    for record in parallel(joblib.delayed(run_cell)(cell) for cell in todo):
        keep(record)


def _run_dask(todo, keep, *, n_jobs, scheduler, client) -> None:
    try:
        from dask import distributed
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(
            'the dask backend needs dask.distributed: pip install "streamboost[parallel]"'
        ) from error
    owned = []
    if client is None:
        if scheduler is not None:
            client = distributed.Client(scheduler)
        else:
            workers = n_jobs if n_jobs is not None and n_jobs > 0 else None
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1)
            owned.append(cluster)
            client = distributed.Client(cluster)
        owned.insert(0, client)
    try:
        futures = client.map(run_cell, todo, pure=False)
        cell_of = {future.key: cell for future, cell in zip(futures, todo, strict=True)}
        for future in distributed.as_completed(futures):
            if future.status == "finished":
                keep(future.result())
            else:  # the task itself died (lost worker, unpicklable result...)
                keep(_failure(cell_of[future.key], future.exception()))
            future.release()
    finally:
        for resource in owned:
            resource.close()


def write_table(rows: typing.Sequence[typing.Mapping[str, typing.Any]],
                path: str | os.PathLike) -> Path:
    """Write result rows as CSV, or as Parquet if `path` ends in `.parquet` (pandas + pyarrow).

    Columns are the union of the rows' keys, in first-seen order; missing values are empty.
    The file is replaced atomically (`streamboost.atomic`).
    """
    path = Path(path)
    columns = list(dict.fromkeys(column for row in rows for column in row))
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        try:
            import pandas as pd
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError(
                "Parquet output needs pandas and pyarrow: pip install pyarrow"
            ) from error
        with written(path) as tmp:
            pd.DataFrame(list(rows), columns=columns).to_parquet(tmp, index=False)
    elif path.suffix == ".csv":
        with written(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns, restval="")
            writer.writeheader()
            writer.writerows(rows)
    else:
        raise ValueError(f"results file must end in .csv or .parquet, got {str(path)!r}")
    return path
