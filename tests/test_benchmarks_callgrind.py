"""benchmarks/callgrind.py: instructions counted by valgrind inside `loop` only."""

from __future__ import annotations

import pytest

from tests.simulation_loader import ROOT, load

callgrind = load("callgrind", "benchmark_callgrind", folder="benchmarks")

pytestmark = pytest.mark.skipif(not callgrind.available(), reason="valgrind is not installed")

SCRIPT = """
import sys
sys.path.insert(0, {folder!r})
import callgrind
rows = [(float(i),) for i in range({rows})]
total = sum(i * 0.5 for i in range({before}))  # work before the loop: not counted
callgrind.loop(lambda v: v * 0.5, rows)
print(len(rows))
"""


def counted(tmp_path, rows: int, before: int = 0) -> int:
    script = tmp_path / f"work_{rows}_{before}.py"
    script.write_text(SCRIPT.format(folder=str(ROOT / "benchmarks"), rows=rows, before=before))
    instructions, out = callgrind.count([str(script)])
    assert out.strip() == str(rows)  # the child's output comes back
    return instructions


@pytest.mark.slow
def test_only_the_loop_is_counted_and_counts_repeat(tmp_path):
    small, large = counted(tmp_path, 2_000), counted(tmp_path, 20_000)
    # ten times the rows, about ten times the instructions
    assert 8.0 < large / small < 11.0
    # the same work counts alike, to far better than a timer, however much runs before it
    again = counted(tmp_path, 2_000, before=200_000)
    assert abs(again - small) < 0.01 * small


def test_a_failing_child_raises(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("raise SystemExit(3)\n")
    with pytest.raises(RuntimeError, match="failed"):
        callgrind.count([str(script)])
