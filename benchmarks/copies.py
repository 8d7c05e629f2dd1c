"""What a copy of a River model costs, and what it costs the model afterwards.

For each model, trained on the first `--rows` rows of a stream: the cost of one copy by
pickle's own round trip and by `streamboost.scores.snapshot` (random generators lent, not
copied; objects read back with their attributes inline), and of one `checkpoint.save` beside
the pickle it writes (the rest is the file and the renewal), then the instructions per example
with which the next `--next` rows are learned by: the model never pickled; the same model after
one `pickle.dumps` of it (a controller's live model before 0.8.13); the live model after a
`snapshot` (which hands it the copy's objects since 0.8.13); a copy read back by pickle's own
rule; a copy read back by `state.inline_dumps` (what a checkpoint holds); and the live model
after `checkpoint.save` (which renews it as a snapshot does since 0.8.14).
Every variant starts from the same state: the model is trained afresh for each (same seed).
Instructions are counted by the CPU (`instructions.py`; Linux), times beside them; with
`--callgrind`, by valgrind in a child process per variant (no times; where the CPU gives no
counter; training runs about 50 times slower there, so use fewer rows for ensembles).

    python benchmarks/copies.py --data-dir ../shared/data
    python benchmarks/copies.py --data-dir ../shared/data --models oza-ht arf --rows 5000
    python benchmarks/copies.py --data-dir ../shared/data --callgrind
"""

from __future__ import annotations

import argparse
import concurrent.futures
import pickle
import platform
import tempfile
import time
from pathlib import Path

import callgrind
import river
from instructions import InstructionCounter
from river import preprocessing

from streamboost import __version__, checkpoint, datasets
from streamboost.experiments.models import MODELS, make_model
from streamboost.scores import snapshot
from streamboost.state import inline_dumps


def measure(counter: InstructionCounter, work: tuple) -> tuple[float, float]:
    """Instructions and milliseconds of `callgrind.loop(*work)`, counted by the CPU."""
    start = time.perf_counter()
    with counter:
        callgrind.loop(*work)
    return counter.count, 1e3 * (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--next", type=int, default=3_000)
    parser.add_argument("--models", nargs="+", default=["ht"], choices=sorted(MODELS))
    parser.add_argument("--callgrind", action="store_true",
                        help="count under valgrind's callgrind (where the CPU gives no counter)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    counter = None
    if args.callgrind:
        if not callgrind.available():
            parser.error("--callgrind needs valgrind on the PATH")
    else:
        counter = InstructionCounter.open()
        if counter is None:
            parser.error("this machine gives no instruction counter (try --callgrind)")
    print(f"{args.dataset}, trained on {args.rows:,} rows, then {args.next:,} learned; "
          f"streamboost {__version__}, river {river.__version__}, Python "
          f"{platform.python_version()}, {platform.machine()}"
          + (", instructions counted by callgrind" if args.callgrind else ""))
    for name in args.models:
        cases = [("copy", label) for label in COPIES] + [("learns", label) for label in VARIANTS]
        if args.callgrind:
            argv = [__file__, "--dataset", args.dataset, "--rows", str(args.rows), "--next",
                    str(args.next), *(["--data-dir", args.data_dir] if args.data_dir else [])]
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                counts = pool.map(callgrind.count,
                                  [[*argv, "--child", name, *case] for case in cases])
                results = [(count, None) for count, _ in counts]
        else:
            first, after = load_rows(args)
            results = [measure(counter, work(name, *case, first, after)) for case in cases]
        for (kind, label), (count, ms) in zip(cases, results, strict=True):
            if kind == "copy":
                shown = "" if ms is None else f" {ms:>8.1f} ms"
                print(f"{name:<8}{label:<46}{count / 1e6:>10.1f}M instructions{shown}")
            else:
                shown = "" if ms is None else f" {1e3 * ms / args.next:>7.1f} us/ex"
                print(f"{name:<8}learns, {label:<38}{count / args.next:>10,.0f} "
                      f"instructions/ex{shown}")


def load_rows(args) -> tuple[list, list]:
    """The first `--rows` rows (to train on) and the `--next` after them, pre-scaled."""
    rows = list(datasets.stream(args.dataset, data_dir=args.data_dir, encode="onehot"))
    rows = rows[: args.rows + args.next]
    if not datasets.REGISTRY[args.dataset].categorical:
        scaler = preprocessing.StandardScaler()
        for x, _ in rows:
            scaler.learn_one(x)
        rows = [(scaler.transform_one(x), y) for x, y in rows]
    return rows[: args.rows], rows[args.rows:]


def work(name: str, kind: str, label: str, first: list, after: list):
    """The work measured: one copy of a model trained on `first` (`kind` "copy"), or the
    learning of `after` by such a model after the variant `label` ("learns"), as the rows of
    `callgrind.loop`: (step, rows)."""
    model = make_model(name, 10, 0)
    for x, y in first:
        model.learn_one(x, y)
    if kind == "copy":
        return COPIES[label], [(model,)]
    learner = VARIANTS[label](model)
    return learner.learn_one, after


def child(args) -> None:
    """Under callgrind: one case's work inside `callgrind.loop`, which alone is counted."""
    callgrind.loop(*work(*args.child, *load_rows(args)))


def _pickled(model):
    pickle.dumps(model)  # thrown away: what it does to `model` is the point
    return model


def _round_trip(model):
    return pickle.loads(pickle.dumps(model))


def _saved(model):
    _save(model)
    return model


def _save(model):
    with tempfile.TemporaryDirectory() as directory:
        checkpoint.save(model, Path(directory) / "model.ckpt")


COPIES = {
    "copy by pickle round trip": _round_trip,
    "copy by scores.snapshot": snapshot,
    "a save's pickle (state.inline_dumps)": inline_dumps,
    "checkpoint.save (pickle, file, renewal)": _save,
}
VARIANTS = {
    "never pickled": lambda model: model,
    "the live model, pickled once": _pickled,
    "the live model after a snapshot": lambda model: (snapshot(model), model)[1],
    "read back by pickle's rule": _round_trip,
    "read back by inline_dumps": lambda model: pickle.loads(inline_dumps(model)),
    "the live model after checkpoint.save": _saved,
}


if __name__ == "__main__":
    main()
