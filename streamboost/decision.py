r"""Minimum-expected-cost decisions from probability estimates.

Training stays cost-insensitive; costs enter only when a probability is turned into a label
(the AdaMEC philosophy, Nikolaou 2016, Ch. 5). With zero cost for correct decisions, a false
positive costing $c_{FP}$ and a false negative costing $c_{FN}$, the Bayes-optimal decision is
positive iff $\hat p(y=1 \mid x) > c = c_{FP} / (c_{FP} + c_{FN})$ (thesis Eq. 2.8). Costs can
therefore change between two predictions without any retraining.

References
----------
- Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
  Manchester. Eqs. 2.2-2.8, Eq. 8.1 and footnote 9 (Ch. 2).
- Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI.

"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
import sys
import typing

import numpy as np
from river import base

from .checkpoint import Checkpointable
from .validation import (
    check_dataframe,
    check_features,
    check_keywords,
    check_weight,
    is_real,
    one_line,
    per_row,
    records,
    row_keywords,
    row_weights,
)

if typing.TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BinaryLabels",
    "CostSensitiveClassifier",
    "CostSensitiveMixin",
    "correct_prior_shift",
    "cost_ratio",
    "cost_threshold",
    "cost_thresholds",
    "decide",
    "deployment_skew",
    "positive_proba",
    "skew",
    "skew_change",
    "validate_costs",
]

# A cost per example: a sequence of numbers (a list, a numpy array, a pandas Series)
Costs = typing.Union[typing.Sequence[float], np.ndarray, "pd.Series"]

# Probabilities a hair outside [0, 1] come from floating-point round-off when a model normalises
# its votes; they are clipped, anything further out is an error.
_PROBA_TOLERANCE = 1e-9
_LARGEST = sys.float_info.max  # a cost up to it is finite


def _check_real(name: str, value) -> float:
    if not is_real(value):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    try:
        return float(value)
    except OverflowError:  # an int beyond any float: as out of range as inf
        raise ValueError(f"{name} must be finite, got an int of {len(str(abs(value)))} digits, "
                         "beyond any float") from None


def validate_costs(c_fp: float, c_fn: float) -> tuple[float, float]:
    """Check a cost pair and return it as floats.

    A cost matrix with zero cost for correct decisions is *reasonable* when both error costs are
    strictly positive (thesis Eq. 2.2); they must also be finite for the threshold to exist.

    Parameters
    ----------
    c_fp
        Cost of a false positive.
    c_fn
        Cost of a false negative.

    Examples
    --------
    >>> from streamboost.decision import validate_costs
    >>> validate_costs(1, 4)
    (1.0, 4.0)
    >>> validate_costs(0.0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: c_fp must be finite and > 0, got 0.0

    """
    return _check_cost("c_fp", c_fp), _check_cost("c_fn", c_fn)


def _check_cost(name: str, value) -> float:
    """One error cost as a float: a real number, finite and > 0."""
    # The usual cost, passed without `numbers.Real`'s isinstance: an ABC's check, which every
    # decision would pay twice. NaN and inf fail the comparison and are named below.
    if type(value) is float and 0.0 < value <= _LARGEST:
        return value
    value = _check_real(name, value)
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return value


def cost_ratio(c_fp: float, c_fn: float) -> float:
    r"""Cost ratio $c_r = c_{FN} / c_{FP}$ (thesis Eq. 2.4), the only degree of freedom of costs.

    Examples
    --------
    >>> from streamboost.decision import cost_ratio
    >>> cost_ratio(c_fp=2.0, c_fn=10.0)
    5.0

    """
    c_fp, c_fn = validate_costs(c_fp, c_fn)
    return c_fn / c_fp


def cost_threshold(c_fp: float, c_fn: float) -> float:
    r"""Decision threshold $c = c_{FP} / (c_{FP} + c_{FN})$ (thesis Eqs. 2.6 and 2.8).

    Predicting positive iff $\hat p(y=1|x) > c$ minimises the expected cost when $\hat p$ is
    calibrated. Equal costs give 0.5; expensive false negatives lower the threshold.

    Examples
    --------
    >>> from streamboost.decision import cost_threshold
    >>> cost_threshold(1.0, 1.0)
    0.5
    >>> cost_threshold(c_fp=1.0, c_fn=4.0)
    0.2
    >>> cost_threshold(1e308, 1e308)  # no overflow: c_FP + c_FN would be inf
    0.5

    """
    c_fp, c_fn = validate_costs(c_fp, c_fn)
    # 1 / (1 + c_FN/c_FP) equals c_FP / (c_FP + c_FN) but cannot overflow (the ratio may go to
    # inf, giving the right limit 0), and every operation is monotone, so the threshold is
    # non-decreasing in c_FP and non-increasing in c_FN, to the last bit (property-tested).
    return 1.0 / (1.0 + c_fn / c_fp)


def cost_thresholds(c_fp: float | Costs, c_fn: float | Costs) -> np.ndarray:
    r"""`cost_threshold` of each pair of costs, a cost per example: each of `c_fp`, `c_fn` a
    number or a one-dimensional sequence (list, numpy array, pandas Series) of numbers, a
    number standing for every example. Every cost is checked (a real number, not a bool,
    finite and > 0; the first bad one is named by its position) before any threshold is
    computed; each threshold is `cost_threshold`'s float to the last bit.

    Example-dependent costs (Elkan 2001): the cost of missing a fraud is its amount.

    Examples
    --------
    >>> from streamboost.decision import cost_thresholds
    >>> cost_thresholds(c_fp=5.0, c_fn=[5.0, 20.0, 995.0]).tolist()
    [0.5, 0.2, 0.005]
    >>> cost_thresholds(1.0, [2.0, 0.0])
    Traceback (most recent call last):
    ...
    ValueError: c_fn[1] must be finite and > 0, got 0.0

    """
    fp, fn = _cost_array("c_fp", c_fp), _cost_array("c_fn", c_fn)
    if fp.ndim and fn.ndim and len(fp) != len(fn):
        raise ValueError(f"c_fp and c_fn give costs for {len(fp)} and {len(fn)} examples; "
                         "expected one length (or a number for every example)")
    with np.errstate(over="ignore"):  # c_FN / c_FP may overflow to inf: the threshold is 0
        return 1.0 / (1.0 + fn / fp)  # `cost_threshold`'s operations, elementwise


def _cost_array(name: str, costs) -> np.ndarray:
    """`costs` (a number, or a 1-D sequence of them) as a float array, each checked as
    `validate_costs` checks one."""
    if is_real(costs):
        return np.array(_check_cost(name, costs))
    values = np.asarray(costs.to_numpy() if hasattr(costs, "to_numpy") else costs)
    if values.ndim != 1 or values.dtype.kind not in "iuf":
        what = (f"{costs!r} ({type(costs).__name__})" if values.ndim == 0 else
                f"an array of shape {values.shape}" if values.ndim > 1 else
                f"values of dtype {values.dtype}")
        raise TypeError(f"{name} must be a real number or a one-dimensional sequence of real "
                        f"numbers (not bools), got {what}")
    values = values.astype(float)
    bad = ~(np.isfinite(values) & (values > 0.0))
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}[{i}] must be finite and > 0, got {values[i].item()!r}")
    return values


def _per_row(cost) -> bool:
    """Whether a cost argument is given per row (a sequence), not as a number or None."""
    return cost is not None and not isinstance(cost, (numbers.Real, str, bytes))


def _check_unit_interval(name: str, value, *, open_interval: bool = False) -> float:
    value = _check_real(name, value)
    inside = 0.0 < value < 1.0 if open_interval else 0.0 <= value <= 1.0
    if not inside:
        expected = "(0, 1)" if open_interval else "[0, 1]"
        raise ValueError(f"{name} must lie in {expected}, got {value!r}")
    return value


def skew(c_fp: float, c_fn: float, pos_prior: float) -> float:
    r"""Skew $z$, the probability cost function (thesis Eq. 2.7).

    $$z = \frac{\pi_- c_{FP}}{\pi_- c_{FP} + \pi_+ c_{FN}}, \qquad \pi_- = 1 - \pi_+.$$

    $z$ is the share of the expected error cost that false positives carry: $z \to 1$ when
    false positives dominate (expensive or frequent negatives), $z \to 0$ when false negatives
    do. With balanced classes $z$ equals the cost threshold $c$. The thesis's verbal glosses of
    $z$ are flipped with respect to this formula (see `docs/decisions.md`); streamboost follows
    the formula.

    Parameters
    ----------
    c_fp
        Cost of a false positive.
    c_fn
        Cost of a false negative.
    pos_prior
        Prior probability of the positive class $\pi_+$, in [0, 1].

    Examples
    --------
    >>> from streamboost.decision import skew
    >>> skew(c_fp=1.0, c_fn=4.0, pos_prior=0.5)
    0.2
    >>> skew(c_fp=1.0, c_fn=4.0, pos_prior=0.2)  # rare positives offset their higher cost
    0.5

    """
    c_fp, c_fn = validate_costs(c_fp, c_fn)
    pi_pos = _check_unit_interval("pos_prior", pos_prior)
    neg = (1.0 - pi_pos) * c_fp
    return neg / (neg + pi_pos * c_fn)


def decide(p_pos: float, c_fp: float, c_fn: float) -> bool:
    r"""Minimum-expected-cost decision: True iff $p > c_{FP}/(c_{FP}+c_{FN})$ (thesis Eq. 2.8).

    The inequality is strict: at $p = c$ both decisions cost the same and the negative is chosen.

    Examples
    --------
    >>> from streamboost.decision import decide
    >>> decide(0.3, c_fp=1.0, c_fn=1.0), decide(0.3, c_fp=1.0, c_fn=4.0)
    (False, True)
    >>> decide(0.2, c_fp=1.0, c_fn=4.0)
    False

    """
    threshold = cost_threshold(c_fp, c_fn)
    return _check_unit_interval("p_pos", p_pos) > threshold


def deployment_skew(z_train: float, z_change: float) -> float:
    r"""Skew in deployment after a prior-probability shift (thesis Ch. 2, footnote 9).

    $$z_{dep} = \frac{z_{tr} z'}{z_{tr} z' + (1 - z_{tr})(1 - z')}$$

    In odds form $\mathrm{odds}(z_{dep}) = \mathrm{odds}(z_{tr}) \cdot \mathrm{odds}(z')$: the
    change $z'$ composes multiplicatively and $z' = 1/2$ means no change.

    Examples
    --------
    >>> from streamboost.decision import deployment_skew
    >>> deployment_skew(0.5, 0.2)
    0.2
    >>> deployment_skew(0.3, 0.5)
    0.3

    """
    z_tr = _check_unit_interval("z_train", z_train, open_interval=True)
    z_ch = _check_unit_interval("z_change", z_change, open_interval=True)
    return z_tr * z_ch / (z_tr * z_ch + (1.0 - z_tr) * (1.0 - z_ch))


def skew_change(z_train: float, z_deploy: float) -> float:
    r"""The change $z'$ that turns skew $z_{tr}$ into $z_{dep}$: the inverse of `deployment_skew`.

    From footnote 9, $\mathrm{odds}(z') = \mathrm{odds}(z_{dep}) / \mathrm{odds}(z_{tr})$.

    Examples
    --------
    >>> from streamboost.decision import deployment_skew, skew_change
    >>> round(skew_change(0.5, 0.2), 12)
    0.2
    >>> round(deployment_skew(0.3, skew_change(0.3, 0.9)), 12)
    0.9

    """
    z_tr = _check_unit_interval("z_train", z_train, open_interval=True)
    z_dep = _check_unit_interval("z_deploy", z_deploy, open_interval=True)
    odds = (z_dep / (1.0 - z_dep)) / (z_tr / (1.0 - z_tr))
    return odds / (1.0 + odds)


def correct_prior_shift(p_pos: float, z_change: float) -> float:
    r"""Post-training correction of a probability estimate for a skew change (thesis Eq. 8.1).

    $$\hat p_{w'}(y=1|x) = \frac{(1-z')\hat p_w}{(1-z')\hat p_w + z'(1-\hat p_w)}$$

    In odds form $\mathrm{odds}(\hat p_{w'}) = \mathrm{odds}(\hat p_w) / \mathrm{odds}(z')$, so
    thresholding the corrected estimate at 1/2 is the same decision as thresholding the original
    at $z'$ (the equivalence of thesis Eq. 7.5). The correction cannot repair overconfidence:
    0 and 1 stay 0 and 1.

    Parameters
    ----------
    p_pos
        The estimate $\hat p_w(y=1|x)$, in [0, 1].
    z_change
        The change in skew $z'$ from training to deployment, in (0, 1); see `skew_change`.

    Examples
    --------
    >>> from streamboost.decision import correct_prior_shift
    >>> correct_prior_shift(0.7, 0.5)
    0.7
    >>> round(correct_prior_shift(0.5, 0.2), 12)
    0.8

    """
    p = _check_unit_interval("p_pos", p_pos)
    z = _check_unit_interval("z_change", z_change, open_interval=True)
    num = (1.0 - z) * p
    return num / (num + z * (1.0 - p))


def positive_proba(y_pred: dict | float | None, pos_label: typing.Hashable = True) -> float:
    """The probability of the positive label from a River prediction, validated.

    `y_pred` is either a dict `{label: probability}` as returned by River's
    `predict_proba_one`, or a number taken to be P(positive). A dict without the positive label
    gives 0.0 when it is empty or holds one other label with probability 1 (River's tree models
    return `{}` or a one-label dict while they know one class only); a single other label with
    less than certainty (`{"True": 0.9}` for `pos_label=True`), a dict with two labels neither
    of which is `pos_label`, or with more than two labels, is rejected. Values within 1e-9 of
    [0, 1] are clipped (floating round-off); NaN or anything further out raises ValueError.

    Parameters
    ----------
    y_pred
        A probability dict or P(positive).
    pos_label
        The positive label. River's convention: the int 1 also matches True.

    Examples
    --------
    >>> from streamboost.decision import positive_proba
    >>> positive_proba({False: 0.25, True: 0.75})
    0.75
    >>> positive_proba({0: 0.25, 1: 0.75}), positive_proba({False: 1.0}), positive_proba(0.4)
    (0.75, 0.0, 0.4)
    >>> positive_proba({"spam": 0.9, "ham": 0.1}, pos_label="spam")
    0.9
    >>> positive_proba(1.5)
    Traceback (most recent call last):
    ...
    ValueError: the positive-class probability must lie in [0, 1], got 1.5

    """
    if type(y_pred) is dict and len(y_pred) == 2:  # the common case, a third of the checks
        p = y_pred.get(pos_label)
        if type(p) is float and 0.0 <= p <= 1.0:
            return p
    if isinstance(y_pred, dict):
        if len(y_pred) > 2:
            raise ValueError(
                f"expected a binary prediction, got {len(y_pred)} labels {sorted(y_pred, key=repr)}"
            )
        if pos_label in y_pred:
            p = y_pred[pos_label]
        elif not y_pred:
            p = 0.0
        elif len(y_pred) == 1:
            # A model that knows one class only (River's trees early on) is sure of it; a
            # single other label with less than certainty is a key mismatch ("True" vs True).
            (label, q), = y_pred.items()
            if not (isinstance(q, numbers.Real) and abs(float(q) - 1.0) <= _PROBA_TOLERANCE):
                raise ValueError(
                    f"positive label {pos_label!r} is not among the predicted labels "
                    f"[{label!r}] (with probability {q!r}); set the positive label to one "
                    "of them"
                )
            p = 0.0
        else:
            raise ValueError(
                f"positive label {pos_label!r} is not among the predicted labels "
                f"{sorted(y_pred, key=repr)}; set the positive label to one of them"
            )
    elif isinstance(y_pred, bool):
        raise TypeError(
            f"expected probabilities (a dict {{label: proba}} or P(positive)), got the label "
            f"{y_pred!r}; use predict_proba_one, not predict_one"
        )
    else:
        p = y_pred
    if not is_real(p):
        raise TypeError(f"expected a probability, got {p!r} ({type(p).__name__})")
    p = float(p)
    if not -_PROBA_TOLERANCE <= p <= 1.0 + _PROBA_TOLERANCE:  # also rejects NaN
        raise ValueError(f"the positive-class probability must lie in [0, 1], got {p!r}")
    return min(max(p, 0.0), 1.0)


def _learns_frames(model: base.Classifier) -> bool:
    """`calibrated.learns_frames` (that module imports this one)."""
    from .calibrated import learns_frames

    return learns_frames(model)


def _takes(model: base.Classifier, method: str, kwargs: dict) -> bool:
    """Whether `model.<method>` takes every one of `kwargs` by name (`check_keywords`)."""
    try:
        check_keywords(model, method, kwargs)
    except TypeError:
        return False
    return True


def labelled(positive: np.ndarray, pos_label: typing.Hashable,
             negative: typing.Hashable) -> np.ndarray:
    """The decisions `positive` (a bool array) as labels, in an object array: numpy's
    indexing, not a loop over the rows.

    Examples
    --------
    >>> import numpy as np
    >>> from streamboost.decision import labelled
    >>> labelled(np.array([0.7, 0.2]) > 0.5, "fraud", "ok").tolist()
    ['fraud', 'ok']

    """
    labels = np.empty(2, dtype=object)
    labels[0], labels[1] = negative, pos_label  # one by one: a tuple stays one label
    return labels[positive.astype(np.intp)]


def _missing(label: typing.Any) -> bool:
    """Whether `label` is a missing value: None, or one unequal to itself (NaN, NaT, pd.NA)."""
    if label is None:
        return True
    try:
        return bool(label != label)
    except TypeError:  # pd.NA != pd.NA is NA, whose truth pandas refuses
        return True


class BinaryLabels:
    """The two labels of a binary stream: the positive one given, the negative given or learned.

    `neg_label=None` infers the negative label: `not pos_label` when `pos_label` is a bool,
    otherwise the first other label the stream shows. `is_positive` checks a label without
    changing anything (a third or a missing label raises ValueError); `learn` then records it,
    and changes nothing once the negative is known (the learners' hot paths look a label up in
    `known`, the labels known so far by hash, and call these for any other). River's
    convention holds: the int 1 equals True.

    Parameters
    ----------
    pos_label
        The positive label.
    neg_label
        The negative label, or None to infer it.
    owner
        The class named in error messages.

    Examples
    --------
    >>> from streamboost.decision import BinaryLabels
    >>> labels = BinaryLabels("spam")
    >>> labels.negative is None, labels.is_positive("ham")
    (True, False)
    >>> labels.learn("ham")
    >>> labels.negative, labels.proba(0.9)
    ('ham', {'ham': 0.09999999999999998, 'spam': 0.9})
    >>> labels.is_positive("eggs")
    Traceback (most recent call last):
    ...
    ValueError: label 'eggs' is neither pos_label='spam' nor the negative label 'ham': ...

    """

    def __init__(
        self,
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable | None = None,
        owner: str = "the classifier",
    ):
        for name, label in (("pos_label", pos_label), ("neg_label", neg_label)):
            if not isinstance(label, typing.Hashable):
                raise TypeError(f"{name} must be a label (hashable), got {one_line(label)}")
            if _missing(label) and (label is not None or name == "pos_label"):
                raise ValueError(f"{name} must be a class label, got {label!r}, a missing "
                                 "value" + (" (neg_label=None infers the negative label)"
                                            if name == "neg_label" else ""))
        if neg_label is not None and neg_label == pos_label:
            raise ValueError(
                f"pos_label and neg_label must differ, got {pos_label!r} and {neg_label!r}"
            )
        self.pos_label = pos_label
        self.owner = owner
        if neg_label is None and isinstance(pos_label, bool):
            neg_label = not pos_label
        self.negative = neg_label
        # the known labels by hash, for the learners' hot paths: `known.get(y)` is True, False,
        # or None for any other label (a third, a missing one), which `is_positive` judges
        self.known = {pos_label: True} if neg_label is None else {pos_label: True,
                                                                   neg_label: False}

    def is_positive(self, y: typing.Hashable) -> bool:
        """Whether `y` is the positive label; a missing label (None, NaN, NaT, `pd.NA`) or a
        third one raises ValueError, an unhashable one (a list) TypeError (nothing changes)."""
        self._check_hashable(y)
        try:
            if y == self.pos_label:
                return True
            if self.negative is None:
                if not _missing(y):
                    return False
            elif y == self.negative:
                return False
        except TypeError:  # pd.NA: its comparisons are NA, which no `if` takes
            pass
        if _missing(y):  # not a class: else the first would become the negative label
            raise ValueError(
                f"label {y!r} is missing; {self.owner} takes labelled examples only (leave "
                "this one out until its label is known)"
            )
        raise ValueError(
            f"label {y!r} is neither pos_label={self.pos_label!r} nor the negative label "
            f"{self.negative!r}: {self.owner} is binary (for a multiclass stream, choose a "
            "positive class: one-vs-rest)"
        )

    def _check_hashable(self, y: typing.Any) -> None:
        """Refuse a label no dict can hold (a list, a dict): no class of a stream."""
        try:
            hash(y)
        except TypeError:
            raise TypeError(f"label {one_line(y)} is unhashable ({type(y).__name__}): "
                            f"{self.owner} takes class labels (a bool, an int, a str)") from None

    def learn(self, y: typing.Hashable) -> None:
        """Record `y` (checked by `is_positive`): the first non-positive label is the negative."""
        if self.negative is None and y != self.pos_label:
            self.negative = y
            self.known[y] = False

    def check_many(self, y: typing.Iterable, rows: int) -> tuple[list, dict]:
        """A minibatch's labels `y` (for `rows` rows) as a list, and whether each distinct one
        is positive, checked in order as a stream shows them (the first other label names the
        negative) without changing anything: a third or a missing label, or a count other than
        `rows`, raises ValueError, and a `y` that is no sequence of labels (a str, a frame)
        TypeError, before the minibatch's first row is learned."""
        pd = sys.modules.get("pandas")
        # a list or a Series is a sequence of labels: asking any other y for `columns` first
        # (on a Series, pandas' attribute fallback: ~3 us)
        if type(y) is list:
            labels = y.copy()
        elif pd is not None and isinstance(y, pd.Series):
            labels = y.tolist()
        elif (isinstance(y, str | bytes | dict) or hasattr(y, "columns")
                or getattr(y, "ndim", 1) != 1):  # a frame's list is its column names
            raise TypeError(f"y must hold one label per row (a Series, a list or a 1-d array), "
                            f"got {type(y).__name__}: {one_line(y)}")
        else:
            labels = y.tolist() if hasattr(y, "tolist") else list(y)
        if len(labels) != rows:
            raise ValueError(f"X has {rows} rows but y has {len(labels)} labels")
        try:
            distinct = dict.fromkeys(labels)  # each distinct label once, in order
        except TypeError:  # an unhashable label, named
            for label in labels:
                self._check_hashable(label)
            raise
        known = self.known
        # the usual minibatch: every label known (a key equal to a label is that label, as
        # `is_positive` judges it); a label whose comparison raises is judged below
        with contextlib.suppress(TypeError):
            if all(label in known for label in distinct):
                return labels, {label: known[label] for label in distinct}
        check = BinaryLabels(self.pos_label, self.negative, owner=self.owner)
        positive = {}
        for label in distinct:
            positive[label] = check.is_positive(label)
            check.learn(label)
        return labels, positive

    def proba(self, p: float) -> dict:
        """`{negative: 1 - p, positive: p}` (the positive label alone while the negative is
        unknown)."""
        if self.negative is None:
            return {self.pos_label: p}
        return {self.negative: 1.0 - p, self.pos_label: p}


def _cost_keyword(kwargs: dict) -> typing.Hashable | None:
    """The first of `kwargs`' names that reads as a cost (`c_fp`, `c_FN`, `cfn`), or None."""
    for key in kwargs:
        if isinstance(key, str) and key.replace("_", "").lower() in ("cfp", "cfn"):
            return key
    return None


def _no_misspelt_costs(caller: str, kwargs: dict) -> None:
    """Refuse a keyword that reads as a cost but is not `c_fp` or `c_fn` (`c_FP`, `cfn`): a
    model taking `**kwargs` would ignore it, and the call would go on at other costs."""
    if (key := _cost_keyword(kwargs)) is not None:
        raise TypeError(f"{caller} got {key}={one_line(kwargs[key])}: the costs are the "
                        "keywords c_fp and c_fn")


def _no_costs(owner: object, method: str, kwargs: dict, what: str) -> None:
    """Refuse a cost among the keywords of a call of `owner` that does not decide (`what`
    says why): a model taking `**kwargs` (River's forests) would take it silently and learn
    nothing from it, and a probability does not depend on the costs."""
    if (key := _cost_keyword(kwargs)) is not None:
        raise TypeError(f"{type(owner).__name__}.{method} got {key}={one_line(kwargs[key])}: "
                        f"{what}; the decisions take them (predict_one, predict_many)")


class CostSensitiveMixin:
    """Minimum-expected-cost `predict_one` and `set_costs` for a probabilistic binary classifier.

    The host class provides `predict_proba_one` and the attributes `c_fp`, `c_fn`, `pos_label`
    and `neg_label`. `predict_one` returns `pos_label` iff P(pos_label | x) > c_FP/(c_FP+c_FN)
    (thesis Eq. 2.8), else the negative label. Costs are read at prediction time, so
    `set_costs` or a per-call `c_fp=` / `c_fn=` changes decisions without retraining.

    Hosts may override `_negative_label(proba)` to infer the negative label from the
    probability dict (as `CostSensitiveClassifier` does); by default it is the one their
    `BinaryLabels` (attribute `_labels`) knows, else `self.neg_label`.

    Examples
    --------
    >>> from river import base
    >>> from streamboost.decision import CostSensitiveMixin

    >>> class Constant(CostSensitiveMixin, base.Classifier):
    ...     def __init__(self, p=0.3, c_fp=1.0, c_fn=1.0):
    ...         self.p, self.c_fp, self.c_fn = p, c_fp, c_fn
    ...         self.pos_label, self.neg_label = "yes", "no"
    ...     def learn_one(self, x, y):
    ...         pass
    ...     def predict_proba_one(self, x):
    ...         return {"no": 1.0 - self.p, "yes": self.p}

    >>> model = Constant()
    >>> model.predict_one({}), model.predict_one({}, c_fn=4.0)
    ('no', 'yes')
    >>> model.set_costs(c_fp=1.0, c_fn=3.0)
    >>> model.threshold, model.predict_one({})
    (0.25, 'yes')

    """

    # what the host provides (read here, set there)
    c_fp: float
    c_fn: float
    pos_label: typing.Hashable
    neg_label: typing.Hashable | None
    if typing.TYPE_CHECKING:
        def predict_proba_one(self, x: dict, **kwargs: typing.Any) -> dict: ...

    @property
    def threshold(self) -> float:
        """The current decision threshold c_FP / (c_FP + c_FN)."""
        return cost_threshold(self.c_fp, self.c_fn)

    def _call_threshold(self, c_fp: float | None, c_fn: float | None) -> float:
        """The threshold for one prediction call: its costs where given, else the model's."""
        return cost_threshold(
            self.c_fp if c_fp is None else c_fp, self.c_fn if c_fn is None else c_fn
        )

    def set_costs(self, c_fp: float, c_fn: float) -> None:
        """Change the error costs used by `predict_one`; nothing is retrained.

        Both costs are validated (finite, > 0) before either is changed.
        """
        self.c_fp, self.c_fn = validate_costs(c_fp, c_fn)

    def _negative_label(self, proba: dict) -> typing.Hashable:
        labels = getattr(self, "_labels", None)  # a host's BinaryLabels knows the inferred one
        return labels.negative if labels is not None else self.neg_label

    def predict_one(
        self, x: dict, *, c_fp: float | None = None, c_fn: float | None = None, **kwargs
    ) -> typing.Hashable:
        """The minimum-expected-cost label for `x`.

        Parameters
        ----------
        x
            The features.
        c_fp
            Cost of a false positive for this call only; defaults to `self.c_fp`.
        c_fn
            Cost of a false negative for this call only; defaults to `self.c_fn`.
        kwargs
            Passed on to `predict_proba_one`; a misspelt cost (`c_FP`, `cfn`) is a TypeError,
            not passed on (a model taking `**kwargs`, as River's forests do, would ignore it
            and the decision would be taken at the default costs).

        """
        threshold = self._decision_threshold("predict_one", c_fp, c_fn, kwargs)
        if kwargs:
            return self._decide(self.predict_proba_one(x, **kwargs), threshold)
        return self._decide(self.predict_proba_one(x), threshold)  # ~0.1 us less than **{}

    def predict_many(
        self, X: pd.DataFrame, *, c_fp: float | Costs | None = None,
        c_fn: float | Costs | None = None, **kwargs
    ) -> pd.Series:
        """`predict_one` of every row of the frame `X`, in a Series on its index; a cost is a
        number for every row or one per row (a sequence of `len(X)` numbers, or a Series on
        `X`'s index: `cost_thresholds`); the costs, keywords and every cell are checked before
        any row is scored.

        Examples
        --------
        >>> import pandas as pd
        >>> from river import linear_model
        >>> from streamboost import CalibratedClassifier
        >>> model = CalibratedClassifier(linear_model.LogisticRegression())
        >>> for x, y in [({"a": 1.0}, True), ({"a": -1.0}, False)] * 20:
        ...     model.learn_one(x, y)
        >>> X = pd.DataFrame({"a": [2.0, -0.1]}, index=["u", "v"])
        >>> model.predict_many(X).tolist(), model.predict_many(X, c_fp=1.0, c_fn=100.0).tolist()
        ([True, False], [True, True])
        >>> model.predict_many(X, c_fn=[1.0, 100.0]).tolist()  # a cost per row
        [True, True]

        """
        import pandas as pd

        check_dataframe(X, "predict_many")
        threshold = self._frame_thresholds("predict_many", c_fp, c_fn, X, kwargs)
        thresholds = (threshold.tolist() if isinstance(threshold, np.ndarray)
                      else [threshold] * len(X))
        proba: typing.Callable[[dict], dict] = (  # row by row: no empty **kwargs each
            self.predict_proba_one if not kwargs
            else functools.partial(self.predict_proba_one, **kwargs))
        decisions = [self._decide(proba(x), t)
                     for x, t in zip(records(X), thresholds, strict=True)]
        return pd.Series(decisions, index=X.index, dtype=object)

    def _decision_threshold(self, caller: str, c_fp: float | None, c_fn: float | None,
                            kwargs: dict) -> float:
        """The call's threshold; a misspelt cost among `kwargs` is a TypeError."""
        if kwargs:
            _no_misspelt_costs(caller, kwargs)
        return self._call_threshold(c_fp, c_fn)

    def _frame_thresholds(self, caller: str, c_fp, c_fn, X: pd.DataFrame, kwargs: dict
                          ) -> float | np.ndarray:
        """A `predict_many`'s threshold: a float where both costs are numbers (or None: the
        model's), else one per row of `X` (`cost_thresholds`; a Series of costs must be on
        `X`'s index), all checked before any row is scored."""
        if not (_per_row(c_fp) or _per_row(c_fn)):
            return self._decision_threshold(caller, c_fp, c_fn, kwargs)
        import pandas as pd

        self._decision_threshold(caller, None, None, kwargs)  # a misspelt cost, first
        costs = []
        for name, value, default in (("c_fp", c_fp, self.c_fp), ("c_fn", c_fn, self.c_fn)):
            if isinstance(value, pd.Series) and not value.index.equals(X.index):
                raise ValueError(f"{caller}: {name} is a Series whose index is not X's (pass "
                                 f"its values, .to_numpy(), for costs by position)")
            costs.append(default if value is None else value)
        thresholds = cost_thresholds(*costs)
        if len(thresholds) != len(X):
            raise ValueError(f"{caller}: the costs are given for {len(thresholds)} rows; X has "
                             f"{len(X)}")
        return thresholds

    def _decide(self, proba: dict, threshold: float) -> typing.Hashable:
        if positive_proba(proba, self.pos_label) > threshold:
            return self.pos_label
        return self._negative_label(proba)


# (ignored for mypy: the wrappers' labels are any hashable, River declares bool | str | int)
class CostSensitiveClassifier(  # type: ignore[misc]
    Checkpointable, CostSensitiveMixin, base.Wrapper, base.MiniBatchClassifier
):
    """Make any probabilistic binary River classifier predict the minimum-expected-cost label.

    `learn_one` and `predict_proba_one` are the wrapped classifier's; `predict_one` (and
    `predict_many`, each row of a frame) returns `pos_label` iff P(pos_label | x) > c_FP /
    (c_FP + c_FN) (thesis Eq. 2.8), cost-optimal if the probabilities are calibrated. Frames
    go to the classifier's `learn_many`, `predict_proba_many` where it has them, else by row.

    **The negative label.** `neg_label`, else inferred: the other label of the wrapped model's
    probability dict, the first other label this wrapper learned, or `not pos_label` for a
    bool; until then (an untrained tree returns `{}`) a negative decision is `None`, River's
    "no prediction". A third label, a probability dict of three, a feature or a weight `w`
    that is NaN, infinite or out of range (`streamboost.validation`), or a keyword the model
    does not take raises before the wrapped model learns anything.

    Parameters
    ----------
    classifier
        A River classifier with `predict_proba_one`.
    c_fp, c_fn
        Costs of a false positive and of a false negative (finite, > 0).
    pos_label, neg_label
        The positive label (the int 1 also matches True); the negative one, or None to infer it.

    Examples
    --------
    >>> from river import datasets, linear_model, preprocessing
    >>> from streamboost.decision import CostSensitiveClassifier
    >>> model = CostSensitiveClassifier(
    ...     preprocessing.StandardScaler() | linear_model.LogisticRegression(), c_fp=1.0, c_fn=1.0)
    >>> for x, y in datasets.Phishing().take(500):
    ...     model.learn_one(x, y)
    >>> xs = [x for x, _ in datasets.Phishing().take(1250)][500:]
    >>> equal = sum(model.predict_one(x) for x in xs)
    >>> fn_expensive = sum(model.predict_one(x, c_fn=10.0) for x in xs)
    >>> model.set_costs(c_fp=10.0, c_fn=1.0)
    >>> fp_expensive = sum(model.predict_one(x) for x in xs)
    >>> fp_expensive < equal < fn_expensive
    True

    References
    ----------
    - Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI.
    - Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis (Eq. 2.8).

    """

    def __init__(
        self,
        classifier: base.Classifier,
        c_fp: float = 1.0,
        c_fn: float = 1.0,
        pos_label: typing.Hashable = True,
        neg_label: typing.Hashable | None = None,
    ):
        if not isinstance(classifier, base.Classifier):
            raise TypeError(
                f"classifier must be a river base.Classifier, got {type(classifier).__name__}"
            )
        from .scores import check_model  # scores reads its probabilities with this module

        check_model(classifier, pos_label, name="classifier")  # one that gives probabilities
        c_fp, c_fn = validate_costs(c_fp, c_fn)  # as floats: set_costs stores them so too
        self._labels = BinaryLabels(pos_label, neg_label, owner="CostSensitiveClassifier")
        self.classifier = classifier
        self.c_fp = c_fp
        self.c_fn = c_fn
        self.pos_label = pos_label
        self.neg_label = neg_label

    @property
    def _wrapped_model(self) -> base.Classifier:
        return self.classifier

    @property
    def _multiclass(self) -> bool:
        return False

    @classmethod
    def _unit_test_params(cls):
        from river import linear_model

        yield {"classifier": linear_model.LogisticRegression()}
        yield {"classifier": linear_model.LogisticRegression(), "c_fp": 1.0, "c_fn": 4.0}

    def learn_one(self, x: dict, y: base.typing.ClfTarget, **kwargs) -> None:
        # checked before the model learns: the features and a sample weight (a NaN or
        # infinite one would turn a linear model's weights into NaN for good), the keywords
        # the model takes, and a third label
        check_features(x)
        if kwargs:
            _no_costs(self, "learn_one", kwargs, "the model learns without costs")
        check_keywords(self.classifier, "learn_one", check_weight(kwargs))
        self._labels.is_positive(y)
        if kwargs:
            self.classifier.learn_one(x, y, **kwargs)
        else:  # ~0.1 us less than an empty **kwargs
            self.classifier.learn_one(x, y)
        self._labels.learn(y)  # once learned: a model that refused y names no negative

    def learn_many(self, X: pd.DataFrame, y: pd.Series, **kwargs) -> None:
        """Learn a frame: with the classifier's own `learn_many` where it learns frames
        (`calibrated.learns_frames`) and takes the keywords, else `learn_one` row by row. The
        labels (`BinaryLabels.check_many`, in row order), the cells (`calibrated.check_frame`:
        River's minibatch models take no missing cell) and the keywords (a weight `w`: a
        number, or one per row) are all checked before the model learns anything."""
        import pandas as pd

        from .calibrated import check_frame

        check_dataframe(X, "learn_many")
        labels, _ = self._labels.check_many(y, len(X))
        if kwargs:
            _no_costs(self, "learn_many", kwargs, "the model learns without costs")
        check_weight(kwargs, len(X))
        by_frame = _learns_frames(self.classifier)
        if by_frame and kwargs:  # a learn_many that does not take them: row by row
            by_frame = _takes(self.classifier, "learn_many", kwargs)
        if not by_frame:
            check_keywords(self.classifier, "learn_one", kwargs)
            rows = records(X)  # every cell checked first; a missing one is left out of its row
            for x, label, keywords in zip(rows, labels, row_keywords(kwargs, len(X)),
                                          strict=True):
                self.learn_one(x, label, **keywords)
            return
        check_frame(self.classifier, X)
        if len(X):  # River's linear models divide by the frame's length
            if per_row(kwargs.get("w")):  # in row order, as River aligns a Series on X's index
                kwargs = {**kwargs, "w": pd.Series(row_weights(kwargs, len(X)), index=X.index)}
            self.classifier.learn_many(  # type: ignore[attr-defined]  # `_learns_frames`
                X, pd.Series(labels, index=X.index), **kwargs)
        for label in dict.fromkeys(labels):  # once learned, in order, as learn_one's
            self._labels.learn(label)

    def _unit_test_skips(self) -> set[str]:
        # the model's own learn_many is not its learn_one loop (as River says of its own)
        return ({"check_learn_many_matches_learn_one"} if _learns_frames(self.classifier)
                else set())

    def predict_proba_one(self, x: dict, **kwargs) -> dict[base.typing.ClfTarget, float]:
        if kwargs:  # for the classifier's predict_proba_one, which must take them
            _no_costs(self, "predict_proba_one", kwargs, "a probability takes no costs")
            check_keywords(self.classifier, "predict_proba_one", kwargs)
            return self.classifier.predict_proba_one(check_features(x), **kwargs)
        return self.classifier.predict_proba_one(check_features(x))

    def predict_proba_many(self, X: pd.DataFrame, **kwargs) -> pd.DataFrame:
        """The wrapped classifier's probabilities of every row of `X`: its own
        `predict_proba_many`, the frame checked first, where it scores the frame
        (`_scores_frame`), else (or given keywords, which go to its `predict_proba_one`) row
        by row, a label missing from a row's dict at probability 0."""
        import pandas as pd

        check_dataframe(X, "predict_proba_many")
        if not kwargs and self._scores_frame(X):
            return self.classifier.predict_proba_many(X)  # type: ignore[attr-defined]
        rows = [self.predict_proba_one(x, **kwargs) for x in records(X)]
        return pd.DataFrame(rows, index=X.index).fillna(0.0)

    def predict_many(
        self, X: pd.DataFrame, *, c_fp: float | Costs | None = None,
        c_fn: float | Costs | None = None, **kwargs
    ) -> pd.Series:
        """`CostSensitiveMixin.predict_many`, deciding on one `predict_proba_many` of the frame
        where the classifier scores it (`_scores_frame`; without keywords for its
        `predict_proba_one`): the same decisions, from the model's probabilities of a frame."""
        check_dataframe(X, "predict_many")
        if kwargs or not _learns_frames(self.classifier):
            return super().predict_many(X, c_fp=c_fp, c_fn=c_fn, **kwargs)
        threshold = self._frame_thresholds("predict_many", c_fp, c_fn, X, kwargs)
        if not self._scores_frame(X):  # a missing cell: row by row
            return super().predict_many(X, c_fp=c_fp, c_fn=c_fn)
        import pandas as pd

        from .scores import frame_scores

        # our booster's scores without a frame of probabilities (`check_model` held its
        # positive label to ours); the negative named as `predict_one` names it
        scores, labels = frame_scores(self.classifier, X,  # type: ignore[arg-type]  # by frames
                                      self.pos_label)
        negative = self._negative_label(dict.fromkeys(labels))
        return pd.Series(labelled(scores > threshold, self.pos_label, negative), index=X.index,
                         dtype=object)

    def _scores_frame(self, X: pd.DataFrame) -> bool:
        """Whether the classifier scores `X` at once (`calibrated.scores_at_once`: it scores
        frames, and takes every missing cell of `X`); a bad cell raises."""
        from .calibrated import scores_at_once

        return scores_at_once(self.classifier, X)[0]

    def _negative_label(self, proba: dict) -> typing.Hashable:
        if self.neg_label is not None:
            return self.neg_label
        for label in proba:
            if label != self.pos_label:
                return label
        return self._labels.negative  # learned from the stream, or not pos_label for a bool
