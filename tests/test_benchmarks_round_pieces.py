"""benchmarks/round_pieces.py: each piece of a reward round, called on realistic state."""

from __future__ import annotations

import sys

import pytest

from tests.simulation_loader import load

pieces = load("round_pieces", "benchmark_round_pieces", folder="benchmarks")


@pytest.mark.parametrize("name", pieces.PIECES)
def test_every_piece_runs_again_and_again(name):
    call = pieces.piece(name, "phishing", None)
    first = call()
    for _ in range(3):  # what callgrind counts: the same call, repeated
        again = call()
    if name == "copy":
        assert again is not first and again._theta == first._theta
    if name == "pair":  # the two calibrators' rows, the same floats at every call
        assert again.shape == (2, 32) and again.tolist() == first.tolist()



def test_in_run_counts_a_method_and_puts_it_back():
    # the counted method runs as usual inside the count, and is put back afterwards
    from streamboost import BanditCalibratedClassifier

    before = BanditCalibratedClassifier.__dict__["_close_round"]
    batches = pieces.in_run("minibatch close", "phishing", None, rows=700, warm=300)
    assert batches == 12 and BanditCalibratedClassifier.__dict__["_close_round"] is before
    with pytest.raises(KeyError):
        pieces.in_run("no such method", "phishing", None, rows=40, warm=20)


def test_the_bound_replays_the_rounds_improvements_with_the_same_decisions(tmp_path):
    # rounds scored for free must take the decisions the real run took (a replay of anything
    # else picks other arms), or the count compares two different runs; and the real scoring
    # is put back afterwards
    from streamboost.reward import PairedReward

    before = PairedReward.__dict__["_improvements"]
    recorded = str(tmp_path / "improvements.json")
    arms = pieces.bound_run("record", "phishing", None, recorded, rows=900)
    assert sum(arms.values()) == 900 // 32 and PairedReward.__dict__["_improvements"] is before
    assert pieces.bound_run("replay", "phishing", None, recorded, rows=900) == arms
    assert PairedReward.__dict__["_improvements"] is before
    assert pieces.bound_run("model", "phishing", None, recorded, rows=900) == {}


@pytest.mark.parametrize("model", ["ht", "oza-lr"])
def test_timed_counts_every_call_and_puts_the_methods_back(model):
    # each timed place's calls are counted where they happen, the model's own calls on the
    # instance; the controller's methods are put back afterwards
    from streamboost import BanditCalibratedClassifier

    before = BanditCalibratedClassifier.__dict__["_close_round"]
    table = pieces.timed(model, "phishing", None, rows=400)
    rows = {line[:28].strip(): line[28:].split() for line in table.splitlines()[2:]
            if not line.endswith("in all")}
    assert BanditCalibratedClassifier.__dict__["_close_round"] is before
    assert rows["minibatch close"][0] == "12"  # 400 rows: 12 whole minibatches of 32
    if model == "ht":  # held out: 1 of each measured minibatch scored again, routed last
        measured = int(rows["held examples scored"][0])
        assert 0 < measured <= 12 and rows["held examples routed"][0] == str(measured)
        assert rows["model.predict_proba_one"][0] == f"{400 + measured:,}"
    else:  # the booster scores through _score_one; a copy is scored, never the model again
        assert rows["model._score_one"][0] == "400" and "held examples scored" not in rows


def test_timeit_adds_up_one_of_each_piece():
    # every piece is timed and the last row is their sum, per round and per example
    table = pieces.timed_pieces("phishing", None, calls=20)
    lines = table.splitlines()
    rows = {line[:16].strip(): float(line[16:26]) for line in lines[2:]}
    assert list(rows) == [*pieces.PIECES, "one of each"]
    assert all(value >= 0.0 for value in rows.values())
    assert rows["frozen_scores"] > 0.0 and rows["select"] > 0.0
    assert abs(rows["one of each"] - sum(rows[name] for name in pieces.PIECES)) < 0.05  # rounded
    per_example = float(lines[-1].split("(")[1].split()[0])
    assert abs(per_example - rows["one of each"] / 32) < 0.002


@pytest.mark.parametrize("text", ["0", "-3", "x", "1.5"])
@pytest.mark.parametrize("option", ["--calls", "--rows"])
def test_calls_and_rows_are_ints_of_at_least_one(text, option, monkeypatch, capsys):
    # --timeit divides by --calls: 0 would end in a ZeroDivisionError, not a usage message
    monkeypatch.setattr(sys, "argv", ["round_pieces.py", option, text])
    with pytest.raises(SystemExit) as raised:
        pieces.main()
    assert raised.value.code == 2
    assert f"expected an integer >= 1, got {text!r}" in capsys.readouterr().err
