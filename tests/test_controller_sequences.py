"""BanditCalibratedClassifier under any mix of calls: examples one at a time and in frames that
cross minibatches, `flush`, new costs, and a pickle round trip anywhere, in any configuration
(policy, rollback, arms, calibrator, reward, sample, budget).

A pickled controller goes on exactly as the one that was not pickled, and the same seed gives
the same run: a round in progress (a frozen copy, examples held out or waiting, the meter's
record, the policy's draws) is part of the state."""

from __future__ import annotations

import itertools
import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from river import linear_model, preprocessing, tree

from streamboost import BanditCalibratedClassifier, OzaBoostClassifier, datasets
from tests.sequences import prequential

ROWS = list(itertools.islice(datasets.stream("phishing"), 400))
MODELS = {
    "lr": linear_model.LogisticRegression,
    "ht": lambda: tree.HoeffdingTreeClassifier(grace_period=20),  # held out by "auto"
    "oza-lr": lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=1),
    "scaled-lr": lambda: preprocessing.StandardScaler() | linear_model.LogisticRegression(),
}

configs = st.fixed_dictionaries(
    {
        "model": st.sampled_from(sorted(MODELS)),
        "policy": st.sampled_from(["both", "discounted-ucb", "beta-thompson", "kl-ucb", "every-3",
                                   "sliding-window-ucb", "discounted-thompson"]),
        "rollback": st.sampled_from(["auto", "copy", "defer", "holdout"]),
        "arms": st.sampled_from([("train", "calibrate", "both"), ("train", "both"),
                                 ("calibrate", "both")]),
        "batch_size": st.sampled_from([2, 3, 8]),
        "warmup": st.sampled_from([0, 1]),
        "calibrator": st.sampled_from(["platt", "beta", "isotonic", "histogram", "ewa"]),
        "reward": st.sampled_from(["log-likelihood", "brier", "expected-cost"]),
        "reward_every": st.sampled_from([1, 3]),
        "reward_start": st.sampled_from([0, 4]),
        "seed": st.integers(0, 3),
    },
    optional={"reward_examples": st.sampled_from([1, 2]), "train_budget": st.just(0.5)},
)
# (what to do, how many rows or which c_FN); "pickle" is the only call the twin skips
# few rows a call, so that a pickle often falls inside a minibatch, among examples held out
calls = st.lists(st.tuples(st.sampled_from(["one", "frame", "flush", "costs", "pickle"]),
                           st.sampled_from([1, 2, 3, 5, 9, 20])), min_size=1, max_size=12)


def build(config: dict) -> BanditCalibratedClassifier | None:
    """The controller `config` names, or None for the combinations the constructor refuses
    (tests/test_controller.py): a budget without the "calibrate" arm, "every-N" without it as
    arm 1, a held-out sample that leaves nothing to learn. Any other refusal fails the test."""
    params = {k: v for k, v in config.items() if k != "model"}
    arms = params["arms"]
    if (("train_budget" in params and "calibrate" not in arms)
            or (params["policy"].startswith("every-") and arms[1:2] != ("calibrate",))
            or (params["rollback"] == "holdout"
                and params.get("reward_examples", 1) >= params["batch_size"])):
        return None
    return BanditCalibratedClassifier(model=MODELS[config["model"]](), **params)


def replay(controller: BanditCalibratedClassifier, steps, pickles: bool) -> list:
    """Everything observable along `steps`: every probability, a decision after each call,
    and the arms, rounds and trace at the end."""
    seen, start = [], 0
    for what, n in steps:
        if what in ("one", "frame"):
            rows = ROWS[start:start + n]
            start += n
            seen.extend(prequential(controller, rows, frame=what == "frame"))
        elif what == "flush":
            controller.flush()
        elif what == "costs":
            controller.set_costs(c_fp=1.0, c_fn=float(n))
        elif pickles:
            controller = pickle.loads(pickle.dumps(controller))
        seen.append(controller.predict_one(ROWS[0][0]))
    return [seen, dict(controller.arm_counts), controller.n_batches, list(controller.trace)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, steps=calls)
def test_a_pickle_anywhere_changes_nothing_and_the_seed_fixes_the_run(config, steps):
    runs = []
    for pickles in (True, True, False):
        controller = build(config)
        if controller is None:
            return
        runs.append(replay(controller, steps, pickles))
    assert runs[0] == runs[1]  # the same seed, the same run
    assert runs[0] == runs[2]  # pickled or not
