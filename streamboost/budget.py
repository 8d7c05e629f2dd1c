r"""A compute budget: which minibatches may train the model.

Training is what costs (a grown forest learns hundreds of times slower than a calibrator), so
the controller can be given a budget: the largest share of its minibatches after the warm-up
that may train the model. A minibatch whose policy chose to train when the budget cannot pay
for it runs `"calibrate"` instead (the calibrator still learns). How the budget is spent:

* **evenly** (`timing="even"`): minibatch $k$ after the warm-up (counted from 1), with $n$ of
  the $k - 1$ before it trained, trains iff $n + 1 \le \beta k$, at every point of the stream;
* **with a reserve** $\rho$ (`reserve`): while saving, the cap is also
  $n_s + (k - k_s)\,\beta (1 - \rho)$ from $(k_s, n_s)$, where the last spending ended, so a
  share $\rho$ of the budget is held back; a change flagged by a drift detector (`spend`)
  lifts that cap until a minibatch the budget cannot pay for, where saving starts anew;
* **after the highest losses** (`timing="loss"`): a minibatch the budget can pay for trains
  only if the last minibatch's mean prequential Brier loss ranks among the highest share
  $\beta$ of the `LOSS_WINDOW` before it, or once more than `BUDGET_SLACK` minibatches' worth
  of the budget lies unspent: a budget spent by a moving threshold, as Zliobaite et al.
  (2014) spend a labelling budget.

What each costs and scores on real streams: docs/controller.md ("A compute budget").

References
----------
Zliobaite, I., Bifet, A., Pfahringer, B. and Holmes, G. (2014). Active learning with drifting
streaming data. IEEE TNNLS 25(1).

"""

from __future__ import annotations

import collections

from .state import InlineState
from .validation import is_real

__all__ = ["BUDGET_TIMINGS", "TrainBudget", "check_budget"]

BUDGET_TIMINGS = ("even", "loss")
LOSS_WINDOW = 64  # timing "loss": minibatches a loss is ranked among
BUDGET_SLACK = 4.0  # and the unspent budget, in minibatches, that trains whatever the loss


def check_budget(train_budget: float | None, budget_reserve: float, budget_timing: str) -> None:
    """Raise ValueError, naming the value, unless `train_budget` (None or in (0, 1]),
    `budget_reserve` (in [0, 1), with a budget when > 0) and `budget_timing` (one of
    `BUDGET_TIMINGS`, with a budget unless "even") are settings of a compute budget.

    Examples
    --------
    >>> from streamboost.budget import check_budget
    >>> check_budget(0.25, 0.05, "loss")
    >>> check_budget(None, 0.0, "loss")
    Traceback (most recent call last):
    ...
    ValueError: budget_timing='loss' times the spending of a train_budget: set train_budget

    """
    if train_budget is not None and not (is_real(train_budget) and 0.0 < train_budget <= 1.0):
        raise ValueError(f"train_budget must be None or in (0, 1], got {train_budget!r}")
    reserve = budget_reserve
    if not (is_real(reserve) and 0.0 <= reserve < 1.0):
        raise ValueError(f"budget_reserve must be a number in [0, 1), got {reserve!r}")
    if reserve and train_budget is None:
        raise ValueError(
            f"budget_reserve={reserve!r} holds back part of a train_budget: set train_budget"
        )
    if budget_timing not in BUDGET_TIMINGS:
        raise ValueError(
            f"budget_timing must be one of {BUDGET_TIMINGS}, got {budget_timing!r}")
    if budget_timing != "even" and train_budget is None:
        raise ValueError(
            f"budget_timing={budget_timing!r} times the spending of a train_budget: set "
            "train_budget")


class TrainBudget(InlineState):
    """Which minibatches a compute budget lets train the model (the rules above).

    The controller asks `pays` when a minibatch after the warm-up starts whose policy chose
    to train, calls `spend` when its drift detector flags a change and, with
    `timing="loss"`, adds each example's squared error to `loss_sum` and closes each
    minibatch's loss with `close`.

    Parameters
    ----------
    share
        The largest share of the minibatches after the warm-up that may train, in (0, 1].
    reserve
        The share of the budget held back until `spend`, in [0, 1).
    timing
        `"even"` or `"loss"`.

    Examples
    --------
    A quarter of the minibatches, evenly: of the first ten, the 4th and the 8th.

    >>> from streamboost.budget import TrainBudget
    >>> budget, trained, paid = TrainBudget(0.25), 0, []
    >>> for k in range(1, 11):
    ...     if budget.pays(k, trained):
    ...         trained += 1
    ...         paid.append(k)
    >>> paid
    [4, 8]

    With half of it in reserve, a flagged change pays for what was saved:

    >>> budget, trained = TrainBudget(0.25, reserve=0.5), 0
    >>> [budget.pays(k, trained) for k in range(1, 9)].count(True)
    1
    >>> budget.spend()
    >>> budget.pays(9, 1), budget.pays(10, 2), budget.spending
    (True, False, False)

    """

    def __init__(self, share: float, reserve: float = 0.0, timing: str = "even"):
        check_budget(share, reserve, timing)
        self.share = share
        self.reserve = reserve
        self.timing = timing
        self.spending = False  # whether a change flagged is being paid for
        # (minibatches after the warm-up, those that trained) where the last spending ended
        self._saving_from = (0, 0)
        # timing "loss": the last minibatches' mean losses (the newest last), and the current
        # one's sum so far (a minibatch ends after batch_size examples, each added)
        self.losses: collections.deque | None = (
            collections.deque(maxlen=LOSS_WINDOW + 1) if timing == "loss" else None)
        self.loss_sum = 0.0

    def close(self, batch_size: int, ranked: bool) -> None:
        """Timing "loss": the minibatch whose `batch_size` losses `loss_sum` holds has ended;
        its mean joins the window if `ranked` (the warm-up's, a fresh model's, are not).
        Nothing to do for timing "even"."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
        if self.losses is None:
            return
        if ranked:
            self.losses.append(self.loss_sum / batch_size)
        self.loss_sum = 0.0

    def pays(self, after: int, trained: int) -> bool:
        """Whether the budget lets the `after`-th minibatch after the warm-up (counted from 1)
        train, `trained` of those before it having trained; a minibatch it cannot pay for
        while spending ends the spending. Minibatches are counted forward: `after` past the
        one where the last spending ended, `trained` in [0, `after` - 1] (ValueError, before
        anything changes)."""
        if (type(after) is not int or type(trained) is not int
                or not 0 <= trained < after or after <= self._saving_from[0]):
            raise ValueError(
                f"pays needs ints after > {self._saving_from[0]} and 0 <= trained < after, got "
                f"after={after!r}, trained={trained!r}")
        cap = self.share * after
        if not self.spending:
            # saving: the reserve's complement of the budget from where the last spending
            # ended, so the reserve rebuilds a little every minibatch (a cap on the whole
            # stream's pace would stop all training for a reserve's share of the stream)
            since, trained_then = self._saving_from
            cap = min(cap, trained_then + (after - since) * self.share
                      * (1.0 - self.reserve))  # fmt: skip
        if trained + 1 > cap:
            if self.spending:  # what a change had saved for is spent: save again
                self.spending = False
                self._saving_from = (after, trained)
            return False
        return self.losses is None or self._loss_times(cap - trained)

    def spend(self) -> None:
        """A change was flagged: what the reserve saved is spent from the next minibatch on
        (no reserve: the budget's pace stands)."""
        self.spending = bool(self.reserve)

    def _loss_times(self, unspent: float) -> bool:
        """Timing "loss": whether a minibatch the budget can pay for trains, given the
        `unspent` budget in minibatches: the last minibatch's mean loss is at least the
        (1 - `share`) quantile of the `LOSS_WINDOW` before it (so about that share of a steady
        stream trains, after its hardest minibatches, and one whose loss rises, after a
        change, trains on every minibatch the saving pays for), or more than `BUDGET_SLACK`
        minibatches' worth is unspent (the saving is bounded; fewer than 8 earlier: trains)."""
        losses = self.losses
        assert losses is not None  # timing "loss" only
        if unspent > BUDGET_SLACK or len(losses) < 9:
            return True
        *earlier, last = losses
        earlier.sort()
        return last >= earlier[int((1.0 - self.share) * len(earlier))]
