"""Why MOA's OnlineAdaC2 is far cheaper than our AdaC2: its rule, taken apart term by term.

`moa_peers.md` found MOA's `meta.imbalanced.OnlineAdaC2` (Wang & Pineau 2016) at a realised
cost of 0.18-0.29 per example where our `variant="adac2"` (the thesis's Table 3.1 read online)
pays 0.41-0.56. Read side by side, the two reweight an example alike: member m's weight becomes
$c(y)\\lambda / (2 w)$, with $w$ the cost-weighted share of its right (or wrong) examples in its
uncosted total, which is our closed form $\\lambda c(y) T / (2P)$. They differ in three places:

1. **Which members update**: MOA updates a member's sums, and the weight passed on, only when
   the member trained on the example (Poisson draw k > 0); Oza's algorithm, MOA's own OzaBoost
   and ours update every member. A negative example's weight, once small, then stops shrinking
   (k is almost always 0), so the cost does not compound through all the members.
2. **The vote**: MOA multiplies each member's class distribution by log(w_acc / w_err) and then
   normalises it, which cancels the factor: it predicts by the mean of the members'
   probabilities. The thesis weights each member's hard vote by alpha (Eq. 3.17).
3. **The first weight**: c(y) in the thesis (normalised to mean 1 here), 1 in MOA.

This script re-implements MOA's rule over River's Hoeffding trees and switches the three back to
the thesis's one at a time; the last replica is the thesis's rule and should land next to our
booster, the last column (a different random stream, so not digit for digit). 10 members,
c_FN / c_FP = 5, deciding by the larger class as both do, prequential realised cost per example
on the first 5,000 rows, 3 seeds. About 3 minutes on 2 cores:

    python simulations/adac2_rules.py --data-dir ../shared/data

writes ``simulations/adac2_rules.md``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from pathlib import Path

from moa_peers import C_FN, C_FP, DATASETS, cost  # the peers' streams, costs and realised cost
from reporting import table_head, table_row, write_report
from river import tree

from streamboost import OzaBoostClassifier, datasets
from streamboost.poisson import poisson
from streamboost.variants import class_costs

HERE = Path(__file__).resolve().parent
ROWS = 5_000
N_MODELS = 10
# (update only members that trained, mean of the probabilities, first weight costed)
RULES = {
    "MOA's rule": (True, True, False),
    "1. every member updates": (False, True, False),
    "2. + weighted hard vote": (False, False, False),
    "3. + costed first weight (the thesis)": (False, False, True),
}


def replica(data: list, seed: int, only_trained: bool, mean_vote: bool, costed_first: bool
            ) -> float:
    """Realised cost per example of the AdaC2 rule with these three switches (see above)."""
    rng = random.Random(seed)
    members = [tree.HoeffdingTreeClassifier() for _ in range(N_MODELS)]
    sums = [[0.0] * 5 for _ in members]  # cost-weighted TP, TN, FP, FN; the uncosted total
    neg, pos = class_costs(C_FP, C_FN)
    total = 0.0
    for x, y in data:
        score = weight = 0.0
        for member, s in zip(members, sums, strict=True):
            proba = member.predict_proba_one(x)
            if not proba:
                continue
            p = proba.get(True, 0.0) / sum(proba.values())
            if mean_vote:
                score, weight = score + p, weight + 1.0
            elif s[0] + s[1] > 0.0 and s[2] + s[3] > 0.0:
                alpha = math.log((s[0] + s[1]) / (s[2] + s[3]))  # log(w_acc / w_err)
                score, weight = score + alpha * (p > 0.5), weight + abs(alpha)
        total += cost(y, weight > 0.0 and score / weight > 0.5)
        c = pos if y else neg
        lam = c / ((pos + neg) / 2.0) if costed_first else 1.0
        for member, s in zip(members, sums, strict=True):
            s[4] += lam
            k = poisson(lam, rng)  # the booster's own sampler (Knuth, PTRS above 10)
            for _ in range(k):
                member.learn_one(x, y)
            if only_trained and k == 0:
                continue
            right = member.predict_one(x) == y
            s[(0 if y else 1) if right else (3 if y else 2)] += c * lam
            share = (s[0] + s[1] if right else s[2] + s[3]) / s[4]
            lam = c * lam / (2.0 * share)
    return total / len(data)


def ours(data: list, seed: int) -> float:
    model = OzaBoostClassifier(tree.HoeffdingTreeClassifier(), N_MODELS, seed=seed,
                               variant="adac2", c_fp=C_FP, c_fn=C_FN)  # fmt: skip
    total = 0.0
    for x, y in data:
        total += cost(y, model.predict_proba_one(x).get(True, 0.5) > 0.5)
        model.learn_one(x, y)
    return total / len(data)


def task(name: str, method: str, seed: int, data_dir: str | None) -> float:
    stream = datasets.stream(name, seed=seed, data_dir=data_dir, encode="onehot")
    data = list(itertools.islice(stream, ROWS))
    return ours(data, seed) if method == "ours" else replica(data, seed, *RULES[method])


def report(results: dict, seeds: int) -> str:
    methods = [*RULES, "ours"]
    names = [*RULES, 'streamboost `variant="adac2"`']
    lines = [f"Realised cost per example at c_FN / c_FP = 5, mean of {seeds} seeds, first "
             f"{ROWS:,} rows, {N_MODELS} Hoeffding trees; lower is better. Each numbered "
             "column changes one more term of MOA's rule into the thesis's.", "",
             *table_head("dataset", *names)]
    for name in sorted({n for n, _ in results}, key=DATASETS.index):
        cells = [f"{statistics.mean(results[name, m]):.4f}" for m in methods]
        lines.append(table_row(name, *cells))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=HERE / "adac2_rules.md")
    args = parser.parse_args(argv)
    import joblib

    jobs = list(itertools.product(args.datasets, [*RULES, "ours"], range(args.seeds)))
    costs = joblib.Parallel(n_jobs=args.jobs)(
        joblib.delayed(task)(name, method, seed, args.data_dir) for name, method, seed in jobs
    )
    results: dict = {}
    for (name, method, _), value in zip(jobs, costs, strict=True):
        results.setdefault((name, method), []).append(value)
    write_report(args.out, "AdaC2 online: MOA's rule against the thesis's", "adac2_rules.py",
                 argv, report(results, args.seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
