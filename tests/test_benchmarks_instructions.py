"""benchmarks/instructions.py: the instruction counter the benchmarks print beside their timings."""

from __future__ import annotations

import pytest

from tests.simulation_loader import load

instructions = load("instructions", "benchmark_instructions", folder="benchmarks")


@pytest.fixture(scope="module")
def counter():
    counter = instructions.InstructionCounter.open()
    if counter is None:
        pytest.skip("no hardware instruction counter on this machine")
    yield counter
    counter.close()


def loop(n: int) -> float:
    total = 0.0
    for i in range(n):
        total += i * 0.5
    return total


def test_counts_grow_with_the_work_and_repeat(counter):
    counts = {}
    for n in (2_000, 20_000):
        runs = []
        for _ in range(3):
            with counter:
                loop(n)
            runs.append(counter.count)
        counts[n] = min(runs)
        # the same work counts alike (a timer would move by far more than 5 %)
        assert max(runs) < 1.05 * min(runs)
    # ten times the loop, about ten times the instructions (a fixed cost of the call aside)
    assert 8.0 < counts[20_000] / counts[2_000] < 11.0


def test_each_block_is_counted_from_zero(counter):
    with counter:
        loop(20_000)
    big = counter.count
    with counter:
        pass
    assert 0 <= counter.count < big / 100
