"""The compute budget's rules (`streamboost.budget`), apart from the controller that asks them
(its tests: tests/test_controller.py, "budget")."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamboost.budget import BUDGET_SLACK, LOSS_WINDOW, TrainBudget


def _spend(budget: TrainBudget, wants: list[bool], changes: set[int] = frozenset()) -> list[int]:
    """Minibatches 1..len(wants) after the warm-up; each whose policy `wants` to train asks
    the budget; a change is flagged before each minibatch of `changes`. The trained count
    before each minibatch, and after the last."""
    trained, counts = 0, []
    for k, want in enumerate(wants, start=1):
        if k in changes:
            budget.spend()
        counts.append(trained)
        if want and budget.pays(k, trained):
            trained += 1
    return [*counts, trained]


@settings(max_examples=200, deadline=None)
@given(
    share=st.floats(0.01, 1.0),
    reserve=st.sampled_from([0.0, 0.05, 0.3, 0.9]),
    wants=st.lists(st.booleans(), min_size=1, max_size=300),
    changes=st.sets(st.integers(1, 300), max_size=6),
)
def test_no_point_of_the_stream_trains_more_than_the_share(share, reserve, wants, changes):
    counts = _spend(TrainBudget(share, reserve), wants, changes)
    for k, trained in enumerate(counts[1:], start=1):
        assert trained <= share * k + 1e-9


@pytest.mark.parametrize("share", [0.1, 0.25, 1 / 3, 0.5, 0.9, 1.0])
def test_an_even_budget_without_a_reserve_is_spent_whole(share):
    counts = _spend(TrainBudget(share), [True] * 200)
    # every minibatch it can pay for trains: floor(share * k) of the first k (to rounding)
    assert all(abs(n - math.floor(share * k + 1e-9)) <= 1 for k, n in enumerate(counts))
    assert counts[-1] == math.floor(share * 200 + 1e-9)


def test_a_reserve_is_saved_until_a_change_and_then_spent():
    wants = [True] * 400
    saving = _spend(TrainBudget(0.25, reserve=0.2), wants)[-1]
    assert saving == pytest.approx(0.25 * 0.8 * 400, abs=1)  # the reserve is held back
    spent = _spend(TrainBudget(0.25, reserve=0.2), wants, changes={200})
    # at the change the saving (0.05 of 200 minibatches) pays for a run of minibatches
    assert spent[-1] - saving == pytest.approx(0.05 * 200, abs=2)
    run = _spend(TrainBudget(0.25, reserve=0.2), wants, changes={200})[200:211]
    assert run == list(range(run[0], run[0] + 11))  # the 10 minibatches after it all train


def test_a_budget_that_cannot_pay_ends_the_spending():
    budget = TrainBudget(0.5, reserve=0.5)
    budget.spend()
    assert budget.spending and budget.pays(2, 0)
    assert not budget.pays(3, 1) and not budget.spending  # 2 > 0.5 * 3: saving again


def test_loss_timing_trains_after_a_high_loss_and_when_the_saving_is_large():
    budget = TrainBudget(0.25, timing="loss")
    for loss in [0.1] * LOSS_WINDOW:  # a steady window
        budget.loss_sum = loss * 8
        budget.close(8, ranked=True)
    assert len(budget.losses) == LOSS_WINDOW
    budget.loss_sum = 0.05 * 8  # the last minibatch: a low loss
    budget.close(8, ranked=True)
    assert not budget.pays(100, 24)  # can pay (25 <= 25) but waits for a high loss
    # unless more than BUDGET_SLACK minibatches' worth is unspent: 0.25 * 120 - 24 = 6
    assert budget.pays(120, 24) and BUDGET_SLACK < 0.25 * 120 - 24
    budget.loss_sum = 0.5 * 8
    budget.close(8, ranked=True)
    assert budget.pays(100, 24)
    budget.close(8, ranked=False)  # a warm-up's minibatch: not ranked, its sum dropped
    assert budget.losses[-1] == 0.5 and budget.loss_sum == 0.0


def _window(share: float, earlier: list[float], last: float) -> TrainBudget:
    """A "loss" budget whose minibatches closed with mean losses `earlier`, then `last`."""
    budget = TrainBudget(share, timing="loss")
    for loss in [*earlier, last]:
        budget.loss_sum = loss * 8
        budget.close(8, ranked=True)
    return budget


def test_loss_timing_ranks_the_last_loss_among_the_window_before_it():
    # the (1 - share) quantile of the LOSS_WINDOW earlier losses, a tie trains
    assert _window(0.25, [0.1] * LOSS_WINDOW, 0.1).pays(100, 24)
    assert not _window(0.25, [0.1] * LOSS_WINDOW, 0.0999).pays(100, 24)
    # decreasing losses 0.90 ... 0.27: the window is the last 64, whose sorted 48th is 0.75
    # (of 63, without the oldest, the 47th: 0.74)
    decreasing = [(100 - k) / 100 for k in range(LOSS_WINDOW + 10)]
    assert _window(0.25, decreasing, 0.26).losses[0] == decreasing[10] == 0.9
    assert not _window(0.25, decreasing[10:], 0.745).pays(100, 24)
    assert _window(0.25, decreasing[10:], 0.75).pays(100, 24)
    # fewer than 8 earlier losses: trains whatever the loss; 8 are ranked
    assert _window(0.25, [0.5] * 7, 0.0).pays(100, 24)
    assert not _window(0.25, [0.5] * 8, 0.0).pays(100, 24)
    # exactly BUDGET_SLACK minibatches unspent: the loss still decides (0.25 * 112 - 24 = 4)
    assert BUDGET_SLACK == 0.25 * 112 - 24
    assert not _window(0.25, [0.5] * 8, 0.0).pays(112, 24)
    assert _window(0.25, [0.5] * 8, 0.0).pays(113, 24)


def test_a_change_without_a_reserve_changes_nothing():
    budget = TrainBudget(0.5)
    budget.spend()
    assert not budget.spending
    assert _spend(TrainBudget(0.5), [True] * 40, changes={10, 20}) == _spend(
        TrainBudget(0.5), [True] * 40)


def test_minibatches_are_counted_forward_from_where_the_spending_ended():
    budget = TrainBudget(0.5, reserve=0.5)
    budget.spend()
    assert budget.pays(2, 0) and not budget.pays(3, 1)  # the spending ends at minibatch 3
    with pytest.raises(ValueError, match=r"pays needs ints after > 3 and"):
        budget.pays(3, 1)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="train_budget must be None or in"):
        TrainBudget(0.0)
    with pytest.raises(ValueError, match="budget_reserve must be a number in"):
        TrainBudget(0.5, reserve=1.0)
    with pytest.raises(ValueError, match="budget_timing must be one of"):
        TrainBudget(0.5, timing="soon")


@pytest.mark.parametrize(("after", "trained"), [(0, 0), (3, 3), (3, -1), (2.0, 0), (True, 0)])
def test_a_bad_count_is_refused_before_anything_changes(after, trained):
    budget = TrainBudget(0.5, reserve=0.5)
    budget.spend()
    with pytest.raises(ValueError, match="pays needs ints after > 0 and 0 <= trained < after"):
        budget.pays(after, trained)
    assert budget.spending and budget._saving_from == (0, 0)
    with pytest.raises(ValueError, match="batch_size must be an int >= 1, got 0"):
        TrainBudget(0.5, timing="loss").close(0, ranked=True)
