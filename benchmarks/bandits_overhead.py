"""Cost of one select() + update() for every streamboost.bandits policy, next to river.bandit.

Run: python benchmarks/bandits_overhead.py [n_rounds] [n_arms]

Each policy plays n_rounds rounds (default 200,000) on a 2-armed Bernoulli(0.4/0.6) problem
whose rewards are drawn in advance; the figure is the best of 3 runs, in µs per round.
river's UCB (delta=1 is UCB1) and ThompsonSampling(proba.Beta()) are measured in the same run
through their pull(arm_ids) + update(arm, reward) API, and each streamboost policy's time is
also given as a ratio to river's UCB.
"""

from __future__ import annotations

import random
import sys
import time

from river import bandit, proba

from streamboost import bandits


def _rewards(n_rounds: int, n_arms: int) -> list[tuple[float, ...]]:
    rng = random.Random(0)
    means = [0.4 + 0.2 * i / max(n_arms - 1, 1) for i in range(n_arms)]
    return [tuple(float(rng.random() < m) for m in means) for _ in range(n_rounds)]


def _time_ours(policy, rewards) -> float:
    select, update = policy.select, policy.update
    start = time.perf_counter()
    for row in rewards:
        arm = select()
        update(arm, row[arm])
    return time.perf_counter() - start


def _time_river(policy, rewards, n_arms: int) -> float:
    arm_ids = list(range(n_arms))
    pull, update = policy.pull, policy.update
    start = time.perf_counter()
    for row in rewards:
        arm = pull(arm_ids)
        update(arm, row[arm])
    return time.perf_counter() - start


def main(n_rounds: int = 200_000, n_arms: int = 2) -> None:
    rewards = _rewards(n_rounds, n_arms)

    def best(run) -> float:
        return min(run() for _ in range(3)) / n_rounds * 1e6

    river_ucb = best(lambda: _time_river(bandit.UCB(delta=1.0, seed=0), rewards, n_arms))
    river_ts = best(
        lambda: _time_river(bandit.ThompsonSampling(proba.Beta(), seed=0), rewards, n_arms)
    )
    print(f"{n_rounds:,} rounds, {n_arms} arms; µs per select+update (best of 3)")
    print(f"{'policy':32s} {'µs':>7s} {'x river UCB':>12s}")
    print(f"{'river bandit.UCB(delta=1)':32s} {river_ucb:7.2f} {1.0:12.2f}")
    print(f"{'river ThompsonSampling(Beta)':32s} {river_ts:7.2f} {river_ts / river_ucb:12.2f}")
    for name in sorted(bandits.POLICIES):
        us = best(lambda name=name: _time_ours(bandits.make(name, n_arms, seed=0), rewards))
        print(f"{name:32s} {us:7.2f} {us / river_ucb:12.2f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
