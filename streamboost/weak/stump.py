"""A decision stump on one feature, the feature chosen online."""

from __future__ import annotations

import numpy as np

from .base import WeakLearner

__all__ = ["DecisionStump", "stump_vote"]


def stump_vote(n_pos: float, n_neg: float, s_pos: float, s_neg: float, x: float) -> bool:
    """One candidate's vote from its class weights and sums (scalars; the rule of
    `DecisionStump._candidate_votes`)."""
    if n_pos > 0.0 and n_neg > 0.0:
        mu_pos = s_pos / n_pos
        mu_neg = s_neg / n_neg
        gap = mu_pos - mu_neg
        if gap != 0.0:
            return (x - (mu_pos + mu_neg) * 0.5) * gap > 0.0
    return n_pos > n_neg


class DecisionStump(WeakLearner):
    r"""A decision stump on the one feature it finds best so far (see `WeakLearner`).

    Candidate $f$ keeps, per class, the weight it has seen ($n^+_f$, $n^-_f$) and the weighted
    sum of its feature ($s^+_f$, $s^-_f$). It splits at the midpoint of the class means,
    $t_f = (\mu^+_f + \mu^-_f) / 2$ with $\mu^\pm_f = s^\pm_f / n^\pm_f$, and votes positive on
    the side where $\mu^+_f$ lies: the Bayes split of two Gaussians of equal variance and prior,
    in O(1) memory, where a batch stump searches every threshold of the weighted sample. Until
    it has seen both classes, or while the means are equal, it votes the class of more weight
    (negative on a tie). The probability of its vote is its Krichevsky-Trofimov accuracy,
    $(h_f + 1/2) / (n_f + 1)$ with $h_f = (n_f + S_f) / 2$ its weighted hits, at least 1/2.

    Examples
    --------
    >>> from river import datasets, evaluate, metrics
    >>> from streamboost.weak import DecisionStump

    >>> model = DecisionStump()
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    Accuracy: 88.24%
    >>> model.feature
    'empty_server_form_handler'

    References
    ----------
    [^1]: Iba, W. & Langley, P. (1992). Induction of one-level decision trees. ICML, 233-240.

    """

    _fields = ("n_pos", "n_neg", "s_pos", "s_neg")

    @staticmethod
    def _candidate_votes(params: dict, xv: np.ndarray) -> np.ndarray:
        n_pos, n_neg = params["n_pos"], params["n_neg"]
        with np.errstate(divide="ignore", invalid="ignore"):  # those cells take the fallback
            mu_pos = params["s_pos"] / n_pos
            mu_neg = params["s_neg"] / n_neg
            gap = mu_pos - mu_neg
            split = (xv - (mu_pos + mu_neg) * 0.5) * gap > 0.0
        return np.where((n_pos > 0.0) & (n_neg > 0.0) & (gap != 0.0), split, n_pos > n_neg)

    def _candidate_learn(self, params: dict, xv: np.ndarray, target: bool, w) -> dict:
        side = "pos" if target else "neg"
        return {f"n_{side}": params[f"n_{side}"] + w, f"s_{side}": params[f"s_{side}"] + w * xv}

    def _candidate_learn_batch(
        self, params: dict, X: np.ndarray, targets: np.ndarray, w: np.ndarray
    ) -> dict:
        learned = {}
        for side, rows in (("pos", targets), ("neg", ~targets)):
            weights = np.where(rows[:, None], w, 0.0)  # this class's rows, as `_candidate_learn`
            learned[f"n_{side}"] = params[f"n_{side}"] + weights.sum(axis=0)
            learned[f"s_{side}"] = params[f"s_{side}"] + (weights * X).sum(axis=0)
        return learned

    def _probabilities(self, params: dict, xv: np.ndarray, votes: np.ndarray,
                       scores: np.ndarray) -> np.ndarray:
        seen = params["n_pos"] + params["n_neg"]
        accuracy = np.maximum(0.5, ((seen + scores) / 2.0 + 0.5) / (seen + 1.0))
        return np.where(votes, accuracy, 1.0 - accuracy)
