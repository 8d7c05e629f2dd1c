"""Overhead of ``streamboost.datasets.stream`` over bare CSV parsing, and its memory profile.

Streams electricity (45,312 rows, 8 numeric features) through:
- bare ``gzip`` + ``csv`` reading (rows as lists of strings, nothing else);
- ``gzip`` + ``csv`` with the same float conversion into dicts (the parsing floor);
- ``river.stream.iter_csv`` with float converters;
- ``datasets.stream`` plain (time order), with ``scale=True``, and with the thesis protocol
  (``balance=True, shuffle=True``);
all in the same run, best of ``--repeat`` runs. Then tracemalloc's peak while streaming the
first 10,000 vs all 45,312 rows of the plain stream.

Usage: python benchmarks/datasets_stream.py [--data-dir DIR] [--repeat N]
(DIR defaults to $STREAMBOOST_SHARED_DATA or ../shared/data beside the repository.)
"""

from __future__ import annotations

import argparse
import csv
import gzip
import itertools
import os
import time
import tracemalloc
from pathlib import Path

from river import stream as river_stream

from streamboost import datasets


def bare_rows(path):
    with gzip.open(path, "rt", newline="") as f:
        for _ in csv.reader(f):
            pass


def parsed_dicts(path):
    with gzip.open(path, "rt", newline="") as f:
        reader = csv.reader(f)
        names = next(reader)[:-1]
        for row in reader:
            _ = dict(zip(names, map(float, row[:-1]), strict=True)), row[-1]


def river_iter_csv(path):
    names = datasets.CSVTable(path).features
    for _ in river_stream.iter_csv(path, target="target", converters=dict.fromkeys(names, float),
                                   compression="gzip"):
        pass


def consume(iterator):
    for _ in iterator:
        pass


def best_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(data_dir, n_rows):
    tracemalloc.start()
    consume(itertools.islice(datasets.stream("electricity", data_dir=data_dir), n_rows))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main():
    default = os.environ.get("STREAMBOOST_SHARED_DATA") or (
        Path(__file__).resolve().parents[2] / "shared" / "data"
    )
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=str(default))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data_dir = args.data_dir
    path = datasets.fetch("electricity", data_dir)
    n = datasets.REGISTRY["electricity"].n_rows

    cases = {
        "gzip+csv, rows only": lambda: bare_rows(path),
        "gzip+csv + float dicts (floor)": lambda: parsed_dicts(path),
        "river.stream.iter_csv": lambda: river_iter_csv(path),
        "datasets.stream (time order)": lambda: consume(
            datasets.stream("electricity", data_dir=data_dir)),
        "datasets.stream scale=True": lambda: consume(
            datasets.stream("electricity", data_dir=data_dir, scale=True)),
        "datasets.stream balance+shuffle": lambda: consume(
            datasets.stream("electricity", data_dir=data_dir, balance=True, shuffle=True,
                            seed=0)),
    }
    times = {name: best_time(fn, args.repeat) for name, fn in cases.items()}
    floor = times["gzip+csv + float dicts (floor)"]
    print(f"electricity: {n:,} rows, best of {args.repeat}")
    print(f"{'method':34s} {'seconds':>8s} {'s/10k rows':>11s} {'overhead s/10k vs floor':>24s}")
    for name, t in times.items():
        print(f"{name:34s} {t:8.3f} {t / n * 1e4:11.4f} {(t - floor) / n * 1e4:24.4f}")

    small, large = peak_memory(data_dir, 10_000), peak_memory(data_dir, n)
    print(f"tracemalloc peak, plain stream: first 10,000 rows {small / 1024:.1f} KiB, "
          f"all {n:,} rows {large / 1024:.1f} KiB (ratio {large / small:.2f})")


if __name__ == "__main__":
    main()
