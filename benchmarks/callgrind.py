"""Instructions counted by valgrind's callgrind inside one loop, where the CPU gives no counter.

`instructions.py` reads the CPU's counter, which many virtual machines do not expose; there a
timed ratio moves by several hundredths between runs. Callgrind counts in software instead: the
benchmark runs again in a child process under valgrind, with counting switched on only while
`itertools.starmap` steps (`loop`), so imports and set-up are left out. With `PYTHONHASHSEED`
fixed, two runs agree to about 0.01 %. It is a proxy, not a speed (no cache misses, no
instructions per cycle), and about 50 times slower than running natively: use a few thousand
rows.

    if callgrind.available():
        instructions, stdout = callgrind.count(["benchmark.py", "--child", ...])

The child calls `loop(step, rows)` once, and nothing else in it may use `itertools.starmap`.
"""

from __future__ import annotations

import collections
import itertools
import os
import re
import shutil
import subprocess
import sys
import typing

TOGGLE = "starmap_next"  # the C function whose calls (and what they call) are counted


def loop(step: typing.Callable, rows: typing.Iterable[tuple]) -> None:
    """`step(*row)` for every row, inside `itertools.starmap`: the only code `count` counts."""
    collections.deque(itertools.starmap(step, rows), maxlen=0)


def available() -> bool:
    """Whether valgrind is on the PATH."""
    return shutil.which("valgrind") is not None


def count(args: list[str]) -> tuple[int, str]:
    """Run `python *args` under callgrind: the instructions executed inside `loop`, and the
    child's standard output."""
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               f"--toggle-collect={TOGGLE}", "--callgrind-out-file=/dev/null",
               sys.executable, *args]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})  # fmt: skip
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or collected is None:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), done.stdout
