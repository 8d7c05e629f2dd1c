"""A stream that outlives its process: save the model, restart, go on exactly.

A model that learns online holds everything it learned in memory. Here the bundled `weather`
stream is replayed prequentially by discounted UCB over the default boosted model (after a
scaler); half-way through, the whole pipeline is saved with `checkpoint.save` (atomic, versioned,
checksummed), and a fresh Python process loads it and replays the second half. The same second
half is replayed by the model that never stopped. Printed: the second half's Brier score and
arm counts both ways (the same, to the last digit), what the checkpoint's header records, and
what `load` says of a file with one flipped byte.

Run it (offline, about 5 seconds, same output every run):

    python examples/resume_from_checkpoint.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from river import preprocessing

from streamboost import BanditCalibratedClassifier, checkpoint, datasets
from streamboost.metrics import BrierScore


def second_half(model) -> dict:
    """Replay the second half of weather through `model`: its Brier score and arm counts."""
    rows = list(datasets.stream("weather"))
    brier = BrierScore()
    for x, y in rows[len(rows) // 2:]:
        brier.update(y, model.predict_proba_one(x))
        model.learn_one(x, y)
    return {"brier": brier.get(), "arms": model["BanditCalibratedClassifier"].arm_counts}


def resume(path: str) -> dict:
    """What the fresh process does: load the checkpoint and go on."""
    return second_half(checkpoint.load(path))


# a fresh interpreter runs this file's `resume` on the checkpoint: python -c RESUME FILE PATH
RESUME = ("import json, runpy, sys; "
          "print(json.dumps(runpy.run_path(sys.argv[1])['resume'](sys.argv[2])))")


def main() -> dict:
    rows = list(datasets.stream("weather"))
    half = len(rows) // 2
    model = preprocessing.StandardScaler() | BanditCalibratedClassifier(
        policy="discounted-ucb", c_fp=1.0, c_fn=5.0, seed=1)
    for x, y in rows[:half]:
        model.predict_proba_one(x)
        model.learn_one(x, y)
    with tempfile.TemporaryDirectory() as folder:
        path = checkpoint.save(model, Path(folder) / "weather.ckpt")
        resumed = json.loads(subprocess.run(
            [sys.executable, "-c", RESUME, __file__, str(path)], capture_output=True, text=True,
            check=True).stdout)
        header = json.loads(path.read_bytes().split(b"\n")[1])
        damaged = bytearray(path.read_bytes())
        damaged[-100] ^= 1
        path.write_bytes(bytes(damaged))
        try:
            checkpoint.load(path)
            refused = "loaded"
        except ValueError as error:
            refused = str(error).replace(str(path), "weather.ckpt")
    went_on = second_half(model)
    print(f"weather, {len(rows):,} days; saved after {half:,}, the rest replayed both ways")
    for way, run in (("never stopped", went_on), ("resumed", resumed)):
        print(f"{way:<16}Brier {run['brier']:.6f}  arms {run['arms']}")
    print(f"header: format {header['format']}, state {header['state']}, River {header['river']}, "
          f"{header['class']}")
    print(f"one flipped byte: {refused}")
    return {"never stopped": went_on, "resumed": resumed, "header": header, "refused": refused}


if __name__ == "__main__":
    main()
