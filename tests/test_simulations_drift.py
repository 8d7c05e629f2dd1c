"""simulations/drift.py: where the drift goes and how the table picks its winners."""

from __future__ import annotations

import pytest
from river import compose
from shared_data import SHARED, needs_shared
from simulation_loader import load

sim = load("drift", "drift_sim")


def test_the_drift_starts_at_60_percent_of_the_stream():
    assert sim.drift("flip", 10_000).position == 6_000
    assert sim.drift("prior", 10_000).schedule == ((6_000, 0.5), (7_000, 0.1))


def test_the_table_names_the_best_schedule_and_bandit_and_counts_bandit_wins():
    def scores(best_schedule: float, best_bandit: float) -> dict:
        values = {p: [0.2, 0.2] for p in sim.POLICIES}
        values["every-4"] = [best_schedule] * 2
        values["glr-kl-ucb"] = [best_bandit] * 2
        return values

    text = sim.report({("a", "flip"): scores(0.10, 0.11), ("b", "prior"): scores(0.10, 0.09)}, 2)
    assert "| a, flip |" in text and text.count("| every-4 | glr-kl-ucb |") == 2
    assert "A bandit beats the best fixed schedule on 1 of 2" in text
    # held against `both` too: it beats the bandit on a, is beaten by it on b
    both = {("a", "flip"): [0.09, 0.09], ("b", "prior"): [0.099, 0.099]}
    text = sim.report({("a", "flip"): scores(0.10, 0.11), ("b", "prior"): scores(0.10, 0.09)}, 2,
                      both)  # fmt: skip
    assert "the best bandit wins on 1 of 2 pairs and is at worst +22.22 % off it" in text


def test_the_calibrator_table_compares_each_ewa_with_the_best_fixed_forgetting_rate():
    def scores(ewa: float, tracking: float, share: float) -> dict:
        values = {c: [0.2] for c in sim.CALIBRATORS}
        values["platt, forgetting 0.999"] = [0.1]
        values["ewa over the three"] = [ewa]
        values["ewa over the three, tracking"] = [tracking]
        values["ewa over the three, fixed share"] = [share]
        return values

    text = sim.calibrator_report({("a", "none"): scores(0.099, 0.097, 0.1),
                                  ("b", "prior"): scores(0.102, 0.0995, 0.104)}, 1)  # fmt: skip
    assert "| a, none |" in text
    assert "| platt, forgetting 0.999 | -1.00 % | -3.00 % | +0.00 % |" in text
    assert "| platt, forgetting 0.999 | +2.00 % | -0.50 % | +4.00 % |" in text
    assert "`ewa over the three` beats the best of the three rates chosen in hindsight on 1 of " \
           "2 (stream, drift) pairs; at worst it is +2.00 % off it" in text
    assert "`ewa over the three, tracking` beats the best of the three rates chosen in " \
           "hindsight on 2 of 2 (stream, drift) pairs; at worst it is -0.50 % off it" in text
    assert "`ewa over the three, fixed share` beats the best of the three rates chosen in " \
           "hindsight on 0 of 2 (stream, drift) pairs; at worst it is +4.00 % off it" in text
    # the calibrators themselves: Platt as resolve() builds it for 10 votes, with forgetting
    fast = sim.calibrator("platt, forgetting 0.99")
    assert (fast.forgetting, fast.gamma, fast.eps) == (0.99, 1.0, 1 / 22)
    for label, discount, share in (("ewa over the three", 1.0, 0.0),  # Vovk's mixture
                                   ("ewa over the three, tracking", 0.99, 0.0),
                                   ("ewa over the three, fixed share", 1.0, 0.001)):
        mixed = sim.calibrator(label)
        assert [m.forgetting for m in mixed.members] == list(sim.FORGETTING)
        assert (mixed.forgetting, mixed.share) == (discount, share)
    assert sim.drift("none", 10_000) is None


def test_the_budget_table_holds_the_best_bandit_against_both_and_never():
    scores, shares = {}, {}
    for key, bandit in ((("a", "flip"), 0.09), (("b", "prior"), 0.12)):
        scores[key] = {p: [0.2] for p in (*sim.BUDGET_POLICIES, *sim.CHOSEN_ONLINE, sim.ORACLE)}
        scores[key]["never"] = [0.1]
        scores[key]["fewa"] = [bandit]
        scores[key]["both + reserve"] = [0.08 if key[1] == "flip" else 0.1005]
        for p in (*sim.BUDGET_POLICIES, *sim.CHOSEN_ONLINE, sim.ORACLE):
            shares[(*key, p)] = [0.25]
    scores["a", "flip"][sim.ORACLE] = [0.05]
    shares["b", "prior", "fewa"] = [0.2]  # it saved a fifth of the budget
    shares["a", "flip", sim.ORACLE] = [0.1]  # the oracle is not a bandit: its share is not one
    shares["a", "flip", "both + reserve"] = [0.1]  # nor are the reserves' shares
    text = sim.budget_report(scores, shares, 1, 0.25)
    # the excesses: best bandit, both + reserve, discounted-ucb + reserve, the two timed by the
    # loss (at 0.2, as the other policies here), the oracle
    assert "| a, flip |" in text
    assert "| -10.00 % | -20.00 % | +100.00 % | +100.00 % | +100.00 % | -50.00 % |" in text
    assert "| +20.00 % | +0.50 % | +100.00 % | +100.00 % | +100.00 % | +100.00 % |" in text
    assert "`both + reserve` (a reserve of 5 % of the budget, `budget_reserve`, spent once the " \
           "model's error changes) beats the best fixed policy on 1 of 2 pairs (-20.00 to " \
           "+0.50 %)" in text
    assert "`both + loss timing` (`budget_timing=\"loss\"`: a minibatch trains after one whose " \
           "loss ranks in the top budget's share of the 64 before it) beats the best fixed " \
           "policy on 0 of 2 pairs (+100.00 to +100.00 %)" in text
    assert "beats the best fixed policy on 1 of 2 (stream, drift) pairs; at worst it is " \
           "+20.00 % off it" in text
    assert "trained on 80.0-100.0 % as many minibatches as `both`: some saved part of it" in text
    assert "(`save-then-spend`) beats the best fixed policy on 1 of 2 pairs (-50.00 to " \
           "+100.00 %)" in text


def test_the_budget_table_says_which_excesses_the_seeds_noise_can_explain():
    scores, shares = {}, {}
    # per seed, the reserve against `never` (the best fixed): a steady 10 % loss on "a", a loss
    # on "b" whose seeds disagree, a steady gain on "c"
    reserve = {"a": [0.11, 0.22, 0.33], "b": [0.10, 0.30, 0.27], "c": [0.09, 0.18, 0.27]}
    for name, values in reserve.items():
        key = (name, "flip")
        scores[key] = {p: [0.9, 0.9, 0.9] for p in (*sim.BUDGET_POLICIES, *sim.CHOSEN_ONLINE,
                                                   sim.ORACLE)}
        scores[key]["never"] = [0.1, 0.2, 0.3]
        scores[key]["both + reserve"] = values
        for p in (*sim.BUDGET_POLICIES, *sim.CHOSEN_ONLINE, sim.ORACLE):
            shares[(*key, p)] = [0.25] * 3
    text = sim.budget_report(scores, shares, 3, 0.25)
    # b: excesses 0, +50 %, -10 %: mean +13.33 %, standard error 18.56 %
    assert "its excess is more than two standard errors above 0 on 1 of 3 pairs (a, flip) and " \
           "below 0 on 1; its largest, b, flip: +13.33 % (standard error 18.56 %)." in text
    assert "standard error" not in sim.budget_report(
        {k: {p: v[:1] for p, v in by.items()} for k, by in scores.items()},
        {k: v[:1] for k, v in shares.items()}, 1, 0.25)


def test_the_oracle_saves_a_fifth_of_the_budget_before_the_drift_and_spends_it_after():
    policy = sim.SaveThenSpend(budget=0.25, drift_batch=sim.WARMUP + 100)
    arms = [policy.select() for _ in range(140)]
    assert arms[:100].count(2) == 20  # 80 % of a quarter of 100 minibatches
    assert arms[100:] == [2] * 40  # from the drift on it asks to train (the budget caps it)
    # in the controller: after the drift it trains until the saved fifth is spent, then at pace
    controller = sim.BanditCalibratedClassifier(
        policy=sim.SaveThenSpend(budget=0.25, drift_batch=sim.WARMUP + 100), train_budget=0.25,
        batch_size=1, warmup=sim.WARMUP, seed=0)
    for i in range(sim.WARMUP + 140):
        controller.learn_one({"x": float(i % 7)}, i % 3 == 0)
    trained = [r["arm"] != "calibrate" for r in controller.trace][sim.WARMUP:]
    assert sum(trained[:100]) == 20
    # the saved 5 and what 6 more minibatches add (26 <= 0.25 * 106), then the budget's pace
    assert trained[100:107] == [True] * 6 + [False] and sum(trained) <= 0.25 * 140


def test_a_budgeted_run_trains_on_at_most_its_share(monkeypatch):
    # 25 minibatches of 32 on the bundled phishing: the 10 of the warm-up train, then at most a
    # quarter of the next 15 (3); the calibrator takes the rest
    monkeypatch.setattr(sim, "MAX_ROWS", 800)
    brier, share = sim.run("phishing", "flip", "discounted-ucb", 0, None, budget=0.25)
    assert 0.0 < brier < 0.25 and share == (10 + 3) / 25
    assert sim.run("phishing", "flip", "both", 0, None, budget=0.25)[1] == (10 + 3) / 25
    assert sim.run("phishing", "flip", "platt, forgetting 1", 0, None)[1] == 1.0  # trains always


def test_a_synthetic_stream_is_new_per_seed_and_scaled(monkeypatch):
    monkeypatch.setattr(sim, "MAX_ROWS", 800)
    first = sim.run("agrawal", "flip", "both", 0, None, budget=0.25)
    assert first == sim.run("agrawal", "flip", "both", 0, None, budget=0.25)  # seeded
    assert first[0] != sim.run("agrawal", "flip", "both", 1, None, budget=0.25)[0]
    assert first[1] == (10 + 3) / 25  # 800 rows: 25 minibatches, as for phishing above
    # unscaled, Agrawal's salaries (tens of thousands) would swamp the members' steps
    monkeypatch.setattr(sim.preprocessing, "StandardScaler", lambda: compose.FuncTransformer(dict))
    assert sim.run("agrawal", "flip", "both", 0, None, budget=0.25)[0] > first[0] + 0.01


def test_a_switch_moves_a_generator_to_another_concept_at_60_percent():
    from streamboost import datasets

    plain = list(sim.generator("sea", 3, 1000))
    switched = list(datasets.stream(sim.generator("sea", 3, 1000), seed=3,
                                    drift=sim.drift("switch", 1000, "sea", 3)))  # fmt: skip
    assert switched[:600] == plain[:600]
    new = list(sim.generator("sea", 3, 400, switched=True))
    assert switched[600:1000] == new and new != plain[600:]  # (run stops at 1,000 rows)
    # SEA's new concept: x0 + x1 > 9.5 instead of 8, up to its 10 % of flipped labels
    agree = [y == (x[0] + x[1] > 9.5) for x, y in new]
    between = [y == (x[0] + x[1] > 9.5) for x, y in new if 8 < x[0] + x[1] <= 9.5]
    assert sum(agree) > 0.85 * len(agree) and sum(between) > 0.75 * len(between) > 10
    assert all(isinstance(y, bool) for _, y in sim.generator("agrawal", 0, 50))
    with pytest.raises(ValueError, match="a switch needs one of River's generators"):
        sim.drift("switch", 1000, "phishing", 0)
    with pytest.raises(SystemExit):
        sim.main(["--datasets", "phishing", "--drifts", "switch", "--train-budget", "0.25"])


@needs_shared
def test_a_one_hot_stream_reaches_the_model_unscaled(monkeypatch):
    # River's scaler maps mushroom's one-hot indicators to 0: the model then saw nothing and
    # scored 0.25, chance (drift.py before 0.8.1)
    monkeypatch.setattr(sim, "MAX_ROWS", 1500)
    brier, _ = sim.run("mushroom", "prior", "platt, forgetting 1", 0, str(SHARED))
    assert brier < 0.1


def test_the_grid_runs_every_stream_drift_label_and_seed_in_order():
    class Args:
        datasets, seeds, jobs, data_dir = ("a", "b"), 3, 1, "dir"

    results = sim.grid(lambda *job: job, Args, ("flip",), ("x", "y"), 0.5)
    assert list(results) == [("a", "flip", "x"), ("a", "flip", "y"), ("b", "flip", "x"),
                             ("b", "flip", "y")]  # fmt: skip
    assert results[("b", "flip", "y")] == [("b", "flip", "y", seed, "dir", 0.5)
                                           for seed in range(3)]  # fmt: skip


def test_one_table_a_run():
    with pytest.raises(SystemExit):
        sim.main(["--calibrators-only", "--train-budget", "0.25"])


def test_the_calibrator_kinds_table_holds_each_ewa_against_the_best_of_the_four():
    values = {c: [0.2] for c in (*sim.KINDS, *sim.KIND_EWAS)}
    values["isotonic"] = [0.1]
    values["ewa"] = [0.099]
    text = sim.calibrator_report({("a", "flip"): values}, 1, sim.KINDS, sim.KIND_EWAS)
    assert text.startswith("The calibrator chosen online") and "`ewa, no share` weights" in text
    assert "| a, flip | 0.2000 | 0.2000 | 0.1000 | 0.2000 | 0.2000 | 0.2000 | 0.0990 | " \
           "isotonic | +100.00 % | +100.00 % | -1.00 % |" in text
    assert "`ewa` beats the best of the 4 calibrators chosen in hindsight on 1 of 1 (stream, " \
           "drift) pairs; at worst it is -1.00 % off it" in text
    # the calibrators: by name (resolved by the wrapper), or the four without a share
    assert sim.calibrator("isotonic") == "isotonic" and sim.calibrator("ewa") == "ewa"
    plain, fixed = sim.calibrator("ewa, no share"), sim.calibrator("ewa, fixed share")
    assert plain.share == 0.0 and fixed.share == sim.SHARE == 0.001 and len(plain.members) == 4
    assert plain.members[0].eps == fixed.members[0].eps == 1 / 22  # Platt as resolved for 10 votes
    assert sim.DEFAULT_SHARE == "decreasing"  # "ewa" by name
    assert sim.calibrator("ewa over the three, decreasing share").share == "decreasing"
