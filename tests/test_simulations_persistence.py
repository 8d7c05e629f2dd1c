"""simulations/persistence.py: how long a minibatch's training or calibration keeps paying."""

from __future__ import annotations

import math
import pickle

import pytest

from tests.simulation_loader import load

persistence = load("persistence")


def phishing_rows(n: int) -> list:
    from streamboost import datasets

    return list(datasets.stream("phishing", seed=0))[:n]


def test_a_minibatch_teaches_the_model_or_the_calibrator_never_both():
    rows = phishing_rows(96)
    learner = persistence.Learner("phishing", seed=0)
    learner.play(rows[:32], calibrate=False)

    def booster():  # what the members and Oza's counts have learned
        return learner.model._members.weights.tolist(), list(learner.model._lambda_sc)

    model, calibrator = booster(), pickle.dumps(learner.calibrator)
    loss = learner.play(rows[32:64], calibrate=True)
    assert 0.0 < loss < 35.0
    assert booster() == model  # calibrating leaves the booster as it was
    assert learner.calibrator.n_seen == 32
    seen = pickle.dumps(learner.calibrator)
    learner.play(rows[64:], calibrate=False)
    assert pickle.dumps(learner.calibrator) == seen and booster() != model
    assert calibrator != seen


def test_the_base_schedules():
    assert not any(persistence.calibrates("never", b) for b in range(100))
    every = [b for b in range(30) if persistence.calibrates("every-4", b)]
    assert every == [10, 14, 18, 22, 26]  # after the warm-up, one minibatch in four
    assert [b for b in range(16) if persistence.calibrates("every-2", b)] == [10, 12, 14]


def test_one_gap_list_per_checkpoint_and_the_run_is_seeded(tmp_path):
    horizon = 3
    result = persistence.run("phishing", "none", "every-4", 0, None, horizon, 1600)
    n_batches = 1600 // 32
    checkpoints = [t for t in range(persistence.WARMUP, n_batches - horizon - 1)
                   if (t - persistence.WARMUP) % persistence.EVERY == 0]  # fmt: skip
    for gaps in result.values():
        assert len(gaps) == len(checkpoints) == 2
        assert all(len(g) == horizon and all(math.isfinite(v) for v in g) for g in gaps)
        assert any(v != 0.0 for g in gaps for v in g)  # the forks did differ
    assert result["gaps"] != result["nulls"]
    assert persistence.run("phishing", "none", "every-4", 0, None, horizon, 1600) == result
    flipped = persistence.run("phishing", "flip", "every-4", 0, None, horizon, 1600)
    assert flipped["gaps"][0] == result["gaps"][0]  # before the flip at 60 % of the stream
    assert flipped["gaps"][1] != result["gaps"][1]  # after it
    with pytest.raises(ValueError, match="base must be one of"):
        persistence.run("phishing", "none", "every-3", 0, None, horizon, 1600)


def test_the_summary_of_hand_made_gaps():
    gaps = [[0.1] + [-0.01] * 9, [-0.2] + [-0.1] * 9]
    s = persistence.summary(gaps)
    assert s["one step"] == pytest.approx(-0.05)
    assert s["8 steps"] == pytest.approx(((0.1 - 0.07) + (-0.2 - 0.7)) / 2)
    assert s["total"] == pytest.approx(((0.1 - 0.09) + (-0.2 - 0.9)) / 2)
    assert s["agree"] == 1.0 and s["checkpoints"] == 2
    assert s["sd"] == pytest.approx(abs((0.1 - 0.09) - (-0.2 - 0.9)) / 2)
    s = persistence.summary([[0.1] + [-0.1] * 9])
    assert s["agree"] == 0.0  # the next minibatch favours training, the longer run calibrating
