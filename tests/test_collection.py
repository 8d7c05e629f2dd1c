"""The suite collects the same tests in the same order in every process.

pytest-xdist's workers (`-n auto`, pyproject.toml) each collect the suite and refuse to run if
their collections differ ("Different tests were collected"): a parameter holding the time (a
gzip header's, which pytest 8.0 writes into a test's id) or following a set's hash order would
turn CI red now and then.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _collected(hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout
    return [line for line in out.splitlines() if "::" in line]


# not `slow`: CI's second run (the oldest releases) is where this broke
def test_two_processes_collect_the_same_tests_in_the_same_order():
    # two hash seeds, and seconds apart (each collection takes a few)
    first, second = _collected("1"), _collected("2")
    assert len(first) > 1000
    assert first == second
