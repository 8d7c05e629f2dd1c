"""A bandit rewarded by each applicant's own realised cost, on German credit replayed.

Since 0.8.41 a controller learns an example's costs (`learn_one(x, y, c_fp=..., c_fn=...)`)
and its realised-cost reward charges them, each example weighed by its c_FP + c_FN
(`streamboost.reward`). Does that change what the bandit picks, and what the run pays?
German credit (the registry's `credit`) with `simulations/example_costs.py`'s costs: c_FP = 1,
c_FN = 5 x the applicant's amount over the mean amount. Its 1,000 applicants are too few for a
bandit (31 minibatches, 10 of them its warm-up), so they are replayed in `--passes` seeded
shuffles (`datasets.stream(passes=...)`): the later passes repeat applicants the model has
learned, which a real stream would not. Discounted UCB over Oza-LR after a `StandardScaler`,
three arms, defaults otherwise, rewarded by:

* `log-likelihood` (the default; reads no cost);
* `cost, one threshold`: the realised cost at the controller's own costs, c_FN = 5 for every
  applicant (what the reward charged before 0.8.41);
* `cost, own costs`: each applicant's own costs, as `evaluate.prequential(c_fn_feature=...)`
  passes them;

beside `both` (calibrate then train every minibatch, no bandit). Every run decides each
applicant at its own threshold and is charged its own cost (`metrics.ExpectedCost`, c_FN per
update); mean and standard error over `--seeds`, and the share of minibatches on each arm.

    python simulations/cost_reward.py --data-dir ../shared/data --seeds 10

A few minutes on 2 cores. Writes `simulations/cost_reward.md`.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from example_costs import C_FN, C_FP, applicants
from reporting import (
    WARMUP_ARM,
    mean_and_error,
    named,
    run_grid,
    seeds_parser,
    table_head,
    table_row,
    write_report,
)
from river import preprocessing

from streamboost import BanditCalibratedClassifier, metrics
from streamboost.experiments.models import make_model

#: name -> (policy, reward, whether learn_one is given each applicant's costs)
POLICIES = {
    "both": ("both", "log-likelihood", False),
    "log-likelihood": ("discounted-ucb", "log-likelihood", False),
    "cost, one threshold": ("discounted-ucb", "expected-cost", False),
    "cost, own costs": ("discounted-ucb", "expected-cost", True),
}
ARMS = ("train", "calibrate", "both")


def run(name: str, seed: int, data_dir: str | None, passes: int) -> dict:
    """One prequential run of `name` (`POLICIES`): the realised cost per applicant, each at
    its own threshold, and the share of minibatches on each arm."""
    policy, reward, given = POLICIES[name]
    booster = make_model("oza-lr", 10, seed)
    controller = BanditCalibratedClassifier(model=booster, calibrator=named("platt", booster),
                                            policy=policy, reward=reward, c_fp=C_FP, c_fn=C_FN,
                                            seed=seed, warmup_arm=WARMUP_ARM)
    model = preprocessing.StandardScaler() | controller
    cost = metrics.ExpectedCost(c_fp=C_FP, c_fn=C_FN)
    for x, y, c_fn in applicants(seed, data_dir, passes=passes):
        cost.update(y, model.predict_proba_one(x), c_fn=c_fn)
        if given:
            model.learn_one(x, y, c_fp=C_FP, c_fn=c_fn)
        else:
            model.learn_one(x, y)
    total = sum(controller.arm_counts.values())
    return {"cost": cost.get(), **{arm: controller.arm_counts.get(arm, 0) / total
                                   for arm in ARMS}}


def report(results: dict, seeds: int, passes: int) -> str:
    """A row per policy: realised cost (mean ± standard error over seeds; the lowest in bold)
    and the mean share of minibatches on each arm."""
    cells = {name: mean_and_error([r["cost"] for r in results[(name,)]]) for name in POLICIES}
    best = min(cells, key=lambda name: cells[name][0])
    lines = [f"Realised cost per applicant (c_FP = {C_FP:g}, c_FN = {C_FN:g} x amount / mean "
             f"amount, each applicant at its own threshold), {passes} shuffled passes of the "
             f"1,000 applicants; mean ± standard error over {seeds} seeds; lower is better. "
             "Arms: mean share of minibatches.", "",
             *table_head("reward", "cost per applicant", *ARMS)]
    for name in POLICIES:
        m, e = cells[name]
        shares = [f"{100 * statistics.fmean(r[arm] for r in results[(name,)]):.0f} %"
                  for arm in ARMS]
        lines.append(table_row(name, f"**{m:.4f}** ± {e:.4f}" if name == best
                               else f"{m:.4f} ± {e:.4f}", *shares))
    lines.append("")
    for name, other in (("cost, own costs", "cost, one threshold"),
                        ("cost, own costs", "log-likelihood"), ("both", "cost, own costs")):
        # paired by seed: the same applicants in the same order
        m, e = mean_and_error([a["cost"] - b["cost"] for a, b in
                               zip(results[(name,)], results[(other,)], strict=True)])
        lines.append(f"- {name} against {other}, paired by seed: {m:+.4f} ± {e:.4f} per "
                     f"applicant ({100 * m / cells[other][0]:+.2f} %).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    out = Path(__file__).resolve().parent / "cost_reward.md"
    parser = seeds_parser(__doc__.splitlines()[0], 10, out)
    parser.add_argument("--passes", type=int, default=10)
    args = parser.parse_args(argv)
    jobs = [(name, seed) for name in POLICIES for seed in range(args.seeds)]
    results = run_grid(run, jobs, args.data_dir, args.jobs, args.passes)
    write_report(args.out, "A bandit rewarded by each applicant's own cost", "cost_reward.py",
                 argv, report(results, args.seeds, args.passes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
