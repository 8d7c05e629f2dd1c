"""What a copy of a River model costs, and what it costs the model afterwards.

For each model, trained on the first `--rows` rows of a stream: the cost of one copy by
pickle's own round trip and by `streamboost.scores.snapshot` (random generators lent, not
copied; objects read back with their attributes inline), then the instructions per example
with which the next `--next` rows are learned by: the model never pickled; the same model after
one `pickle.dumps` of it (a controller's live model before 0.8.13); the live model after a
`snapshot` (which hands it the copy's objects since 0.8.13); a copy read back by pickle's own
rule; and a copy read back by `state.inline_dumps` (what a checkpoint holds).
Every variant starts from the same state: the model is trained afresh for each (same seed).
Instructions are counted by the CPU (`instructions.py`; Linux), times beside them.

    python benchmarks/copies.py --data-dir ../shared/data
    python benchmarks/copies.py --data-dir ../shared/data --models oza-ht arf --rows 5000
"""

from __future__ import annotations

import argparse
import pickle
import platform
import time

import river
from instructions import InstructionCounter
from river import preprocessing

from streamboost import __version__, datasets
from streamboost.experiments.models import MODELS, make_model
from streamboost.scores import snapshot
from streamboost.state import inline_dumps


def measure(counter: InstructionCounter, work) -> tuple[float, float]:
    """Instructions and milliseconds of `work()`."""
    start = time.perf_counter()
    with counter:
        work()
    return counter.count, 1e3 * (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="electricity")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--next", type=int, default=3_000)
    parser.add_argument("--models", nargs="+", default=["ht"], choices=sorted(MODELS))
    args = parser.parse_args()
    counter = InstructionCounter.open()
    if counter is None:
        parser.error("this machine gives no instruction counter")
    rows = list(datasets.stream(args.dataset, data_dir=args.data_dir, encode="onehot"))
    rows = rows[: args.rows + args.next]
    if not datasets.REGISTRY[args.dataset].categorical:
        scaler = preprocessing.StandardScaler()
        for x, _ in rows:
            scaler.learn_one(x)
        rows = [(scaler.transform_one(x), y) for x, y in rows]
    first, after = rows[: args.rows], rows[args.rows:]
    print(f"{args.dataset}, trained on {len(first):,} rows, then {len(after):,} learned; "
          f"streamboost {__version__}, river {river.__version__}, Python "
          f"{platform.python_version()}, {platform.machine()}")

    def trained(name):
        model = make_model(name, 10, 0)
        for x, y in first:
            model.learn_one(x, y)
        return model

    for name in args.models:
        model = trained(name)
        for label, copy in COPIES.items():
            count, ms = measure(counter, lambda copy=copy, model=model: copy(model))
            print(f"{name:<8}copy by {label:<28}{count / 1e6:>10.1f}M instructions {ms:>8.1f} ms")
        for label, variant in VARIANTS.items():
            learner = variant(trained(name))
            count, ms = measure(counter, lambda learner=learner: [learner.learn_one(x, y)
                                                                   for x, y in after])
            print(f"{name:<8}learns, {label:<29}{count / len(after):>10,.0f} instructions/ex "
                  f"{1e3 * ms / len(after):>7.1f} us/ex")


def _pickled(model):
    pickle.dumps(model)  # thrown away: what it does to `model` is the point
    return model


def _round_trip(model):
    return pickle.loads(pickle.dumps(model))


COPIES = {"pickle round trip": _round_trip, "scores.snapshot": snapshot}
VARIANTS = {
    "never pickled": lambda model: model,
    "the live model, pickled once": _pickled,
    "the live model after a snapshot": lambda model: (snapshot(model), model)[1],
    "read back by pickle's rule": _round_trip,
    "read back by inline_dumps": lambda model: pickle.loads(inline_dumps(model)),
}


if __name__ == "__main__":
    main()
