"""Every bandit policy on a rested rising bandit (`bandits.RisingArms`), 5 seeds.

Arm 0 rises fast from 0.5 to 0.6, arm 1 slowly from 0.1 to 0.9 (rates 0.05 and 0.005 per
pull): over 5,000 rounds arm 1 is the better one, but only a policy that keeps pulling it sees
that. Columns: total reward (the best fixed arm, always arm 1, collects about 4,330) and the
share of arm 1 in rounds 2,500-5,000. Run from the repository root (15 seconds):

    python simulations/rising_arms.py

writes ``simulations/rising_arms.md``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from streamboost import bandits

SEEDS = range(5)
ROUNDS = 5000
EXCLUDED = {"every-nth", "random"}  # schedules without a reward; "constant" is the oracle arm


def play(name: str) -> tuple[float, float]:
    """Mean total reward and mean share of arm 1 in the second half, over the seeds."""
    options = {"arm": 1} if name == "constant" else {}
    runs = [
        bandits.simulate(bandits.make(name, 2, seed=s, **options), bandits.RisingArms(),
                         ROUNDS, seed=s)
        for s in SEEDS
    ]  # fmt: skip
    return (
        statistics.mean(float(r.rewards.sum()) for r in runs),
        statistics.mean(r.share(1, ROUNDS // 2, ROUNDS) for r in runs),
    )


def report() -> str:
    rows = {name: play(name) for name in bandits.POLICIES if name not in EXCLUDED}
    lines = [
        f"`python simulations/rising_arms.py`: `RisingArms()` defaults, {ROUNDS:,} rounds, "
        f"mean of {len(SEEDS)} seeds; `constant` pulls arm 1 always (the best fixed arm).",
        "",
        "| policy | total reward | arm 1 share, second half |",
        "|---|---:|---:|",
    ]
    for name, (reward, share) in sorted(rows.items(), key=lambda item: -item[1][0]):
        lines.append(f"| {name} | {reward:,.0f} | {share:.3f} |")
    return "\n".join(lines)


def main() -> int:
    text = report()
    out = Path(__file__).with_name("rising_arms.md")
    out.write_text(f"# Policies on a rising bandit\n\n{text}\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
