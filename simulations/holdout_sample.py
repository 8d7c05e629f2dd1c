"""How many examples a held-out round scores (`rollback="holdout"`): its sample against quality.

Trees and forests roll a bandit's round back by holding out a measured minibatch's first
`reward_examples` (by default 1 in 32 since 0.8.55, an eighth, 4 of 32, before): their
prequential scores are the "before", the model scores them again when the minibatch ends (the
"after"), and they are learned last. Each held example costs a prediction of the model more
and is learned late; fewer make a round cheaper and noisier. 0.8.49's run (3 seeds, the old
warm-up and step) found 8 worse than 4; this measures 4, 2 and 1 at the library's settings.

For each base model (`ht`, `oza-ht`, `arf`; `--models`), stream (the 7 of `slides_part2.py`,
first 20,000 rows) and seed: discounted UCB over train / calibrate / both (Platt,
counterfactual rewards, measuring every minibatch, held out) scoring each round on 4 (the
reference), 2 or 1 held examples, against `"both"`. Prequential Brier score and the shares of
minibatches on `"train"` alone and on `"both"`, mean over seeds (`reward_sample.report`).

    python simulations/holdout_sample.py --data-dir ../shared/data --seeds 5

About 28 minutes on 2 cores. Writes `simulations/holdout_sample.md`.
"""

from __future__ import annotations

import sys

import reward_sample
from reporting import grid_main

DATASETS = reward_sample.DATASETS
MODELS = ("ht", "oza-ht", "arf")
#: the reference first: 4, the default sample until 0.8.54 (an eighth of 32)
SAMPLES = (4, 2, 1)
LABELS = ("both", *(f"{n} held out" for n in SAMPLES))


def report(results: dict, models, names, seeds: int) -> str:
    """`reward_sample.report` of these labels: each sample against the default's."""
    return reward_sample.report(results, models, names, seeds, LABELS)


def main(argv=None) -> int:
    return grid_main(argv, __doc__, "holdout_sample.py", "A held-out round's sample",
                     (MODELS, DATASETS, 5), (LABELS,), reward_sample.run, report)


if __name__ == "__main__":
    sys.exit(main())
