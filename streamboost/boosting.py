"""Oza & Russell online boosting for binary streams, with the thesis's scores."""

from __future__ import annotations

import functools
import inspect
import math
import typing

import numpy as np
from river import base, linear_model, tree

from . import kernels, members, variants, weak
from .checkpoint import Checkpointable
from .decision import BinaryLabels, _cost_keyword, validate_costs
from .poisson import KNUTH_MAX_RATE, poisson
from .validation import (
    check_dataframe,
    check_features,
    check_int,
    check_keywords,
    check_seed,
    check_weight,
    one_line,
    records,
    row_keywords,
)

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = ["SCORES", "OzaBoostClassifier"]

SCORES = ("vote", "logistic", "soft")
_WEAK_RULES = ("stop", "skip")
_DRAWS = ("auto", "repeat", "weight")
_SUM_KEYS = ((True, True), (True, False), (False, True), (False, False))  # (right, positive)


class OzaBoostClassifier(Checkpointable, base.WrapperEnsemble, base.MiniBatchClassifier):
    r"""Online boosting (Oza & Russell) for binary classification, scored as in the thesis.

    Member $m$ in turn learns each example $k \sim \text{Poisson}(\lambda)$ times, then
    classifies it; its weight $\lambda$ (1 for the first member) then becomes (Oza 2005,
    Fig. 2) $\lambda / (2(1 - \epsilon_m))$ if correct ($\lambda^{sc}_m \mathrel{+}= \lambda$
    first), else $\lambda / (2 \epsilon_m)$ ($\lambda^{sw}_m \mathrel{+}= \lambda$ first),
    with $\epsilon_m = \lambda^{sw}_m / (\lambda^{sc}_m + \lambda^{sw}_m)$ and the vote weight
    $\alpha_m = \frac12 \log \frac{1 - \epsilon_m}{\epsilon_m}$ (AdaBoost's, thesis Eq. 3.1).

    With $h_m(x) \in \{-1, +1\}$ and $p_m(x)$ member $m$'s $P(+ \mid x)$, `score="vote"` is
    $s(x) = \sum_{m: h_m(x) = +1} \alpha_m / \sum_m \alpha_m$ (Eq. 7.6), `"logistic"`
    $1 / (1 + e^{-2F(x)})$ with $F = \sum_m \alpha_m h_m(x)$ (Eq. 7.7), `"soft"` (MOA's
    `OzaBoost`) $\sum_m \alpha_m p_m(x) / \sum_m \alpha_m$. None is calibrated: docs/boosting.md.

    Parameters
    ----------
    model, n_models
        The River classifier to boost; how many clones of it (at least 1).
    score, weak_rule
        As above; `"stop"` (Section 8.1, MOA) leaves out of the vote the first member with
        $\epsilon_m \ge 1/2$ and every later one, `"skip"` only such members.
    pos_label, neg_label, seed, engine, draws
        The labels (`neg_label=None`: inferred from the stream); the Poisson draws' seed;
        `"auto"`, `"vectorised"` (members as arrays) or `"reference"` (River objects); a draw
        $k$ learnt as $k$ calls (`"repeat"`), one of weight $k$ (`"weight"`) or `"auto"`.
    variant, c_fp, c_fn
        `"adamec"` (plain boosting; costs act at decision time) or a cost-sensitive variant of
        `streamboost.variants.VARIANTS`, which trains with the costs `c_fp` and `c_fn`.

    Examples
    --------
    >>> from river import datasets, evaluate, linear_model, metrics, preprocessing
    >>> from streamboost import OzaBoostClassifier
    >>> model = preprocessing.StandardScaler() | OzaBoostClassifier(
    ...     model=linear_model.LogisticRegression(), n_models=10, seed=42)
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.ROCAUC())
    ROCAUC: 91.90%

    References
    ----------
    [^1]: Oza, N. C. & Russell, S. (2001). Online bagging and boosting. AISTATS.
    [^2]: Oza, N. C. (2005). Online bagging and boosting. IEEE SMC, 2340-2345 (Fig. 2).
    [^3]: Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis.

    """

    def __init__(
        self,
        model: base.Classifier,
        n_models: int = 10,
        score: str = "vote",
        weak_rule: str = "stop",
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable | None = None,
        seed: int | None = None,
        engine: str = "auto",
        draws: str = "auto",
        variant: str = "adamec",
        c_fp: float = 1.0,
        c_fn: float = 1.0,
    ):
        if not isinstance(model, base.Classifier):
            raise TypeError(f"model must be a river Classifier instance, got {one_line(model)}")
        n_models = check_int("n_models", n_models, 1)
        seed = check_seed(seed)  # River's ensemble seeds random.Random, which takes no numpy int
        if score not in SCORES:
            raise ValueError(f"score must be one of {SCORES}, got {score!r}")
        if weak_rule not in _WEAK_RULES:
            raise ValueError(f"weak_rule must be one of {_WEAK_RULES}, got {weak_rule!r}")
        weighted = _weighted(model, draws)
        if variant not in variants.VARIANTS:
            raise ValueError(f"variant must be one of {sorted(variants.VARIANTS)}, got {variant!r}")
        c_fp, c_fn = validate_costs(c_fp, c_fn)  # kept as floats (numpy.float32 too)
        labels = BinaryLabels(pos_label, neg_label, owner="OzaBoostClassifier")
        super().__init__(model, n_models, seed)
        self.score = score
        self.weak_rule = weak_rule
        self.pos_label = pos_label
        self.neg_label = neg_label
        self._labels = labels
        self.engine = engine
        self.draws = draws
        self.variant = variant
        self.c_fp = c_fp
        self.c_fn = c_fn
        # A cost-sensitive variant's formulas at these costs (`variants.Rule`), and per member
        # the weight of the examples it was right and wrong on: split by class for a variant,
        # {(right, positive): w}, else two totals (Oza's lambda_sc, lambda_sw).
        self._variant = None
        if variant != "adamec":
            costs = variants.class_costs(c_fp, c_fn)
            self._variant = variants.rule(variants.VARIANTS[variant], costs, n_models)
            self._sums = [dict.fromkeys(_SUM_KEYS, 0.0) for _ in range(n_models)]
        else:
            self._lambda_sc = [0.0] * n_models
            self._lambda_sw = [0.0] * n_models
        self._alphas: list[float] | None = None
        self._members = members.resolve(
            engine, model, n_models, self._data, weighted
        )
        self._generator: np.random.Generator | None = None  # learn_many's draws, made when needed
        self._columns: tuple | None = None  # predict_proba_many's labels and their pd.Index

    # Where the members live: `self.data` (River's list of members) is brought up to date from
    # the arrays whenever it is read, so `booster.models` always shows the learned members.
    @property
    def data(self) -> list:
        held = getattr(self, "_members", None)
        if isinstance(held, members.ArrayMembers) and held.changed:
            held.export(self._data)
            held.changed = False
        return self._data

    @data.setter
    def data(self, value: list) -> None:
        # a plain attribute, not self.__dict__: CPython 3.11 slows every attribute access of an
        # object whose __dict__ was ever read (streamboost.state)
        self._data = value

    @property
    def _min_number_of_models(self) -> int:
        return 1

    @property
    def _multiclass(self) -> bool:
        return False

    def _unit_test_skips(self) -> set[str]:
        # with minibatch array members learn_many is boosting by minibatch (see its docstring)
        if self._members.minibatch and self._variant is None:
            return {"check_learn_many_matches_learn_one"}
        return set()

    @classmethod
    def _unit_test_params(cls):
        yield {"model": linear_model.LogisticRegression()}
        yield {"model": linear_model.LogisticRegression(), "engine": "reference"}
        yield {"model": weak.DecisionStump(), "n_models": 5}
        yield {"model": linear_model.LogisticRegression(), "draws": "weight"}
        yield {"model": linear_model.LogisticRegression(), "score": "soft"}
        yield {"model": linear_model.LogisticRegression(), "variant": "adac2", "c_fn": 5.0}
        yield {
            "model": tree.HoeffdingTreeClassifier(),
            "n_models": 3,
            "score": "logistic",
            "weak_rule": "skip",
            "draws": "weight",
        }

    # ------------------------------------------------------------------ learning

    def learn_one(self, x: dict, y: base.typing.ClfTarget, **kwargs) -> None:
        labels = self._labels
        # the stream's known labels looked up, not compared in a call (every example comes
        # here); any other goes to `is_positive`, where a third or a missing one raises
        try:
            target = labels.known[y]
        except (KeyError, TypeError):  # a label not known (or unhashable): judged
            target = labels.is_positive(y)
        held = self._members
        if not held.knows(x):  # a prequential loop has just scored (and checked) this x
            check_features(x)
        if kwargs:
            self._check_kwargs(kwargs)
            if isinstance(held, members.ArrayMembers):  # a checked weight, their only keyword
                kwargs = {"w": float(kwargs["w"])}
            before = held.begin(x, target, **kwargs)
        else:
            before = held.begin(x, target)  # array members check x before any change
        if labels.negative is None:  # until it is known, the first other label names it
            labels.learn(y)
        self._alphas = None
        if self._variant is not None:
            self._boost_variant(target, before)
            held.commit()
            return
        if held.boost(target, self._lambda_sc, self._lambda_sw, self._rng):  # compiled
            held.commit()
            return
        rng = self._rng
        uniform = rng.random
        exp = math.exp
        sc = self._lambda_sc
        sw = self._lambda_sw
        vote_after = held.vote_after
        lam = 1.0
        for i in range(self.n_models):
            # member i learns x k times, then Oza checks it on x (Oza 2005, Fig. 2); k is
            # `poisson(lam, rng)`, its Knuth branch inlined (the call cost a tenth of the loop)
            if lam < KNUTH_MAX_RATE:
                k = 0
                limit = exp(-lam)
                p = uniform()
                while p > limit:
                    k += 1
                    p *= uniform()
            else:
                k = poisson(lam, rng)
            if (vote_after(i, k) if k else before[i]) == target:
                right = sc[i] + lam
                sc[i] = right
                lam *= (right + sw[i]) / (2.0 * right)
            else:
                wrong = sw[i] + lam
                sw[i] = wrong
                lam *= (sc[i] + wrong) / (2.0 * wrong)
        held.commit()

    def _boost_variant(self, target: bool, before) -> None:
        """Oza's loop with a cost-sensitive variant's weights (`streamboost.variants`)."""
        rng = self._rng
        vote_after = self._members.vote_after
        variant = self._variant
        assert variant is not None  # the variants' loop
        reweight = variant.reweight
        lam = variant.first[target]
        for i, sums in enumerate(self._sums):
            k = poisson(lam, rng)
            right = (vote_after(i, k) if k else before[i]) == target
            sums[right, target] += lam
            lam = reweight(lam, right, target, sums)

    def _check_kwargs(self, kwargs: dict, method: str = "learn_one",
                      rows: int | None = None) -> None:
        """Keyword arguments for the members' `method`, checked before anything changes: a
        sample weight (`validation.check_weight`, one per row for a frame of `rows`), the only
        one array members take, and only to learn; River members take the names their
        `method` takes (`learn_one` for a `learn_many`: they learn a frame row by row)."""
        if (key := _cost_keyword(kwargs)) is not None:  # whatever the engine or the members
            raise TypeError(
                f"OzaBoostClassifier got {key}={one_line(kwargs[key])}: the booster "
                "takes no costs per call (its c_fp and c_fn, set when it is built, are what a "
                "cost-sensitive variant trains with); to decide with costs, wrap it: "
                "CostSensitiveClassifier(booster, c_fp=..., c_fn=...) or CalibratedClassifier")
        held = self._members
        if not isinstance(held, members.ArrayMembers):
            check_keywords(self.model, "learn_one" if method == "learn_many" else method, kwargs)
        elif not method.startswith("learn"):  # a weight weighs what is learned, not a score
            raise TypeError(f"the vectorised members' predictions take no keyword argument, got "
                            f"{sorted(kwargs)}; use engine='reference' to pass them to River "
                            "members")
        elif others := sorted(set(kwargs) - {"w"}):
            raise TypeError(f"the vectorised members take a sample weight w only, got {others}; "
                            "use engine='reference' to pass them to River members")
        check_weight(kwargs, rows)

    def learn_many(self, X: pd.DataFrame, y: pd.Series, **kwargs) -> None:
        r"""Learn a minibatch; the whole frame and every label are checked first (NaN cells are
        missing values, `streamboost.validation`).

        With River members (`engine="reference"`, or members without an array engine) this is
        a `learn_one` loop. With array members it is Oza boosting by minibatch: member $m$
        draws $k_b \sim \text{Poisson}(\lambda_b)$ for every row $b$, learns the minibatch in
        one step at its current parameters with row $b$ weighted by $k_b$ (a gradient step for
        logistic regressions; for weak learners every candidate's score and step), and is then
        checked on every row; row $b$'s $\lambda$ is updated as in `learn_one`, with
        $\lambda^{sc}_m, \lambda^{sw}_m$ accumulated over the rows up to $b$. What differs
        from a `learn_one` loop: a member learns the whole minibatch before it is checked on
        any row, every row's step taken at the same parameters; a draw of k is one step of
        weight k whatever `draws` says; and the draws come from numpy's generator (seeded by
        `seed`). With draws as weights (`draws="weight"`, the weak learners' default), a
        minibatch of one row is `learn_one`'s rule exactly. The prequential loss of larger
        batches is measured in docs/boosting.md.
        """
        check_dataframe(X, "learn_many")
        if kwargs:
            self._check_kwargs(kwargs, rows=len(X))
        self._learn_many(X, y, None, **kwargs)

    def _learn_many(self, X: pd.DataFrame, y, table: np.ndarray | None, **kwargs) -> None:
        """`learn_many`, the labels `y` any sequence; `table`: `_members.frame(X)` if the
        caller has it already (`scores.ScoredFrame`), else None."""
        held = self._members
        labels, positive = self._labels.check_many(y, len(X))  # checked before any change
        if not held.minibatch or self._variant is not None:
            for x, label, keywords in zip(records(X), labels, row_keywords(kwargs, len(X)),
                                          strict=True):
                self.learn_one(x, label, **keywords)
            return
        if table is None:
            table = held.frame(X)  # checked before any change
        for label in positive:  # in order: the first other label names the negative
            self._labels.learn(label)
        targets = np.fromiter(map(positive.__getitem__, labels), dtype=bool, count=len(labels))
        w = kwargs.get("w")
        # checked (`_check_kwargs`): one weight for every row, or one per row in row order
        weights = None if w is None else np.broadcast_to(np.asarray(w, dtype=float), len(table))
        self._learn_table(table, targets, weights=weights)

    def _learn_table(self, table: np.ndarray, targets: np.ndarray,
                     draw: typing.Callable[[np.ndarray], np.ndarray] | None = None,
                     weights: np.ndarray | None = None) -> None:
        """The minibatch rule of `learn_many` on a checked table, with the rows' sample
        `weights` (None: 1); `draw` maps the rows' lambdas to a member's Poisson draws (None:
        the booster's generator's, every member in one compiled call where a kernel does it)."""
        if not len(table):
            return
        if self._generator is None:
            self._generator = np.random.default_rng(self.seed)
        generator = self._generator
        self._alphas = None
        sc, sw = self._lambda_sc, self._lambda_sw
        held = typing.cast(members.ArrayMembers, self._members)  # minibatch only
        if draw is None:
            if held.learn_frame(table, targets, weights, generator, sc, sw):
                return  # every member at once, compiled: the loop below, bit for bit
            draw = functools.partial(_poisson_draws, generator)
        learn_batch = held.learn_batch
        lam = np.ones(len(table))
        # runs[0] and runs[1]: the member's lambda_sc and lambda_sw before each row and after
        # it, cumulative sums from its totals (a row loop's running sums, added in its order)
        runs = np.empty((2, len(table) + 1))
        right, wrong = runs[0, 1:], runs[1, 1:]
        total = np.empty(len(table))
        correct = np.empty(len(table), dtype=bool)
        accumulate = np.add.accumulate  # np.cumsum's ufunc, without its wrapper's cost
        compiled = kernels.compiled
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(self.n_models):
                votes = learn_batch(i, table, draw(lam), targets, weights)
                if compiled is not None:  # the same arithmetic, below, in C
                    sc[i], sw[i] = compiled.oza_batch(votes, targets, lam, sc[i], sw[i])
                    continue
                np.equal(votes, targets, out=correct)
                runs[0, 0] = sc[i]
                runs[1, 0] = sw[i]
                np.multiply(lam, correct, out=right)
                np.subtract(lam, right, out=wrong)
                accumulate(runs, axis=1, out=runs)
                # lam * (right + wrong) / (2 * (right if correct else wrong)), as learn_one
                np.add(right, wrong, out=total)
                chosen = np.where(correct, right, wrong)
                chosen *= 2.0
                total /= chosen
                lam *= total
                sc[i], sw[i] = runs[:, -1].tolist()

    # ------------------------------------------------------------------ weights and scores

    @property
    def epsilons(self) -> list[float | None]:
        """Each member's weighted error $\\epsilon_m$ (None for a member that saw no example)."""
        totals: typing.Iterable[tuple[float, float]]
        if self._variant is None:
            totals = zip(self._lambda_sc, self._lambda_sw, strict=True)
        else:
            totals = (
                (s[True, True] + s[True, False], s[False, True] + s[False, False])
                for s in self._sums
            )
        return [sw / (sc + sw) if sc + sw > 0.0 else None for sc, sw in totals]

    @property
    def alphas(self) -> list[float]:
        """Each member's vote weight $\\alpha_m$ as used in the scores (0 = does not vote)."""
        return list(self._vote_weights())

    def _vote_weights(self) -> list[float]:
        # Cached until the next learn_one: a frozen copy (the controller's snapshots) computes
        # its logs once, not at every score.
        if self._alphas is None:
            self._alphas = self._compute_alphas()
        return self._alphas

    def _compute_alphas(self) -> list[float]:
        if self._variant is not None:
            return self._variant_alphas()
        if kernels.compiled is not None:
            return kernels.compiled.oza_alphas(
                self._lambda_sc, self._lambda_sw, self.weak_rule == "stop"
            )
        alphas = []
        stop = self.weak_rule == "stop"
        log = math.log
        for sc, sw in zip(self._lambda_sc, self._lambda_sw, strict=True):
            if sw >= sc:  # epsilon >= 1/2, or no example seen (0 >= 0)
                alphas.append(0.0)
                if stop and sw > 0.0:
                    alphas.extend([0.0] * (len(self._lambda_sc) - len(alphas)))
                    break
                continue
            n = sc + sw
            eps = sw / n
            floor = 0.5 / (n + 1.0)
            if eps < floor:
                eps = floor
            alphas.append(0.5 * log((1.0 - eps) / eps))
        return alphas

    def _variant_alphas(self) -> list[float]:
        alphas: list[float] = []
        assert self._variant is not None  # the variants' weights
        vote_weight = self._variant.vote_weight
        for sums in self._sums:
            alpha = vote_weight(sums)
            if alpha is None and sum(sums.values()) > 0.0 and self.weak_rule == "stop":
                return alphas + [0.0] * (self.n_models - len(alphas))
            alphas.append(alpha or 0.0)
        return alphas

    def score_one(self, x: dict, **kwargs) -> float:
        """The uncalibrated score of `x` for the positive class: Eq. 7.6 or 7.7."""
        if kwargs:
            return self._score_one(check_features(x), **kwargs)
        return self._score_one(check_features(x))  # an empty **kwargs call costs ~0.1 us

    def _score_one(self, x: dict, **kwargs) -> float:
        # `x` already checked (the wrappers check it once for the whole call)
        if kwargs:
            self._check_kwargs(kwargs, "predict_one")
        alphas = self._vote_weights()
        if self.score == "soft":
            return self._members.soft_score(x, alphas, **kwargs)
        votes = (self._members.votes(x, alphas, **kwargs) if kwargs
                 else self._members.votes(x, alphas))
        if kernels.compiled is not None:
            return kernels.compiled.vote_score(alphas, votes, self.score == "logistic")
        total = 0.0
        positive = 0.0
        for alpha, vote in zip(alphas, votes, strict=True):
            if alpha == 0.0 or vote is None:  # a member with no class yet abstains
                continue
            total += alpha
            if vote:
                positive += alpha
        if total == 0.0:
            return 0.5
        if self.score == "vote":
            return positive / total
        margin = 2.0 * positive - total  # F(x) = sum of alpha * h, h in {-1, +1}
        return _sigmoid(2.0 * margin)

    def predict_proba_one(self, x: dict, **kwargs) -> dict[base.typing.ClfTarget, float]:
        if kwargs:
            return self._labels.proba(self.score_one(x, **kwargs))
        return self._labels.proba(self._score_one(check_features(x)))

    def predict_proba_many(self, X: pd.DataFrame, **kwargs) -> pd.DataFrame:
        """The probabilities of every row, equal to `predict_proba_one`'s row by row; with
        array members every member scores the whole frame at once."""
        import pandas as pd

        check_dataframe(X, "predict_proba_many")
        if kwargs:
            self._check_kwargs(kwargs, "predict_one")
        if not self._members.minibatch:
            probas = [self._labels.proba(self.score_one(x, **kwargs)) for x in records(X)]
            return pd.DataFrame(probas, index=X.index)
        scores = self.score_many(X)
        labels: tuple[typing.Hashable, ...] = (self._labels.pos_label,)
        if self._labels.negative is not None:
            labels = (self._labels.negative, *labels)
            scores = np.column_stack((1.0 - scores, scores))
        if self._columns is None or self._columns[0] != labels:
            # made once: building the Index was most of the frame's cost
            self._columns = (labels, pd.Index(labels))
        return pd.DataFrame(
            scores.reshape(len(X), len(labels)), index=X.index, columns=self._columns[1],
            copy=False,
        )

    def score_many(self, X: pd.DataFrame) -> np.ndarray:
        """`score_one` of every row of `X`, as an array (with array members: every member
        scores the whole frame at once; the frame is checked as `learn_many` checks it).

        Examples
        --------
        >>> import pandas as pd
        >>> from river import linear_model
        >>> from streamboost import OzaBoostClassifier
        >>> model = OzaBoostClassifier(linear_model.LogisticRegression(), n_models=3, seed=0)
        >>> for _ in range(20):
        ...     model.learn_one({"a": 1.0}, True)
        ...     model.learn_one({"a": -1.0}, False)
        >>> scores = model.score_many(pd.DataFrame({"a": [1.0, -1.0]}))
        >>> scores.tolist() == [model.score_one({"a": 1.0}), model.score_one({"a": -1.0})]
        True

        """
        check_dataframe(X, "score_many")
        held = self._members
        if not held.minibatch:
            return np.array([self._score_one(x) for x in records(X)], dtype=float)
        return self._score_table(held.frame(X))

    def _score_table(self, table: np.ndarray) -> np.ndarray:
        return table_scores(self._members, table,  # type: ignore[arg-type]  # minibatch only
                            self._vote_weights(), self.score)

    def predict_many(self, X: pd.DataFrame, **kwargs) -> pd.Series:
        import pandas as pd

        check_dataframe(X, "predict_many")
        labels = [self.predict_one(x, **kwargs) for x in records(X)]
        return pd.Series(labels, index=X.index, dtype=object)


def table_scores(held: members.ArrayMembers, table: np.ndarray, alphas: list[float],
                 score: str) -> np.ndarray:
    """The booster's score (`score`: "vote", "logistic" or "soft") of each row of `table`
    (from `held.frame` or `held.rows`), given array members `held` and their vote weights:
    equal to `_score_one` row by row."""
    total = 0.0
    for alpha in alphas:  # in member order, as _score_one sums them
        total += alpha
    if total == 0.0:
        return np.full(len(table), 0.5)
    if score == "soft":
        return held.batch_soft_scores(table, alphas)
    scores = held.batch_scores(table, alphas, total, score == "logistic")
    if scores is not None:
        return scores
    # a running sum over the members adds them in _score_one's order: the same floats
    weighted = held.batch_votes(table) * np.array(alphas)
    positive = np.cumsum(weighted, axis=1)[:, -1]
    if score == "vote":
        return positive / total
    return np.array([_sigmoid(2.0 * (2.0 * p - total)) for p in positive.tolist()])


def _weighted(model: base.Classifier, draws: str) -> bool:
    """Whether members cloned from `model` learn a draw k as one example of weight k."""
    if draws not in _DRAWS:
        raise ValueError(f"draws must be one of {_DRAWS}, got {draws!r}")
    if draws == "auto":
        return members.asks_weight(model)
    if draws == "weight" and "w" not in inspect.signature(model.learn_one).parameters:
        raise TypeError(
            f"draws='weight' needs members whose learn_one takes a weight w; "
            f"{type(model).__name__}.learn_one does not (use draws='repeat')"
        )
    return draws == "weight"


def _poisson_draws(generator: np.random.Generator, lam: np.ndarray) -> np.ndarray:
    if kernels.compiled is None:
        return generator.poisson(lam)
    ks = np.empty(len(lam), dtype=np.int64)  # the same draws, without numpy's call overhead
    kernels.compiled.poisson_fill(generator.bit_generator.capsule, lam, ks)
    return ks


def _sigmoid(z: float) -> float:
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
