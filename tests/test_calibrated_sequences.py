"""CalibratedClassifier under any mix of calls: examples one at a time and in frames, labels that
come late with the score they were served, `recalibrate`, new costs, and a pickle round trip
anywhere, for River models, a pipeline and boosters that learn by minibatch.

A pickled wrapper goes on exactly as the one that was not pickled, and the same calls give the
same run: the calibrator's state, the labels inferred, the window of recent examples and the
model are all part of the pickle."""

from __future__ import annotations

import itertools
import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from river import linear_model, preprocessing, tree

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets
from streamboost.weak import DecisionStump
from tests.sequences import prequential

ROWS = list(itertools.islice(datasets.stream("phishing"), 400))
MODELS = {
    "lr": linear_model.LogisticRegression,
    "ht": lambda: tree.HoeffdingTreeClassifier(grace_period=20),
    "oza-lr": lambda: OzaBoostClassifier(linear_model.LogisticRegression(), n_models=2, seed=1),
    # learns a frame by its own minibatch rule (`learn_many`), not row by row
    "oza-stump": lambda: OzaBoostClassifier(DecisionStump(), n_models=3, seed=2),
    "scaled-lr": lambda: preprocessing.StandardScaler() | linear_model.LogisticRegression(),
}

configs = st.fixed_dictionaries(
    {
        "model": st.sampled_from(sorted(MODELS)),
        "calibrator": st.sampled_from(["platt", "beta", "isotonic", "histogram", "ewa"]),
        "window": st.sampled_from([None, 7]),
        "c_fn": st.sampled_from([1.0, 4.0]),
    },
)
# (what to do, how many rows or which c_FN); "pickle" is the only call the twin skips
calls = st.lists(st.tuples(st.sampled_from(["one", "frame", "served", "recalibrate", "costs",
                                            "pickle"]),
                           st.sampled_from([1, 2, 3, 5, 9, 20])), min_size=1, max_size=12)


def build(config: dict) -> CalibratedClassifier:
    return CalibratedClassifier(MODELS[config["model"]](), calibrator=config["calibrator"],
                                c_fn=config["c_fn"], window=config["window"])


def replay(model: CalibratedClassifier, steps, pickles: bool) -> list:
    """Everything observable along `steps`: every probability and served score, a decision and
    a probability after each call."""
    seen, start = [], 0
    for what, n in steps:
        if what in ("one", "frame", "served"):
            rows = ROWS[start:start + n]
            start += n
            if what == "served":  # decided now, labelled after the others were
                served = [model.score_one(x) for x, _ in rows]
                seen.extend(served)
                for (x, y), s in zip(rows, served, strict=True):
                    model.learn_one(x, y, score=s)
            else:
                seen.extend(prequential(model, rows, frame=what == "frame"))
        elif what == "recalibrate":
            if model.window is not None:
                model.recalibrate()
        elif what == "costs":
            model.set_costs(c_fp=1.0, c_fn=float(n))
        elif pickles:
            model = pickle.loads(pickle.dumps(model))
        x = ROWS[0][0]
        seen += [model.predict_one(x), model.predict_proba_one(x)[True]]
    return seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, steps=calls)
def test_a_pickle_anywhere_changes_nothing_and_the_same_calls_give_the_same_run(config, steps):
    runs = [replay(build(config), steps, pickles) for pickles in (True, True, False)]
    assert runs[0] == runs[1]  # the same calls, the same run
    assert runs[0] == runs[2]  # pickled or not
