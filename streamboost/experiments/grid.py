"""Experiment grids: a cell is one prequential run, dataset x policy x cost ratio x seed.

A `Cell` holds a run's full configuration, builds its model and its stream, and is named by a
hash of that configuration (with the package version), so a finished cell can be recognised
and skipped when an interrupted grid is run again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import re
import typing
from pathlib import Path

from river import compose

from .. import __version__, bandits, datasets
from ..arms import check_warmup_arm, resolve_arms
from ..budget import check_budget
from ..calibration import CALIBRATORS, STEPPED
from ..calibration.base import check_step
from ..controller import REWARDS, BanditCalibratedClassifier
from ..datasets.files import is_url
from ..datasets.stream import check_prior
from ..decision import validate_costs
from ..evaluate import RunResult, prequential
from ..reward import MAPPINGS, check_rollback
from ..scores import calibrator_for
from ..validation import check_bool, check_int, did_you_mean, is_real
from .models import check_score, encoding, make_model, pipeline

__all__ = [
    "BASELINE_POLICIES",
    "DEFAULT_GRID",
    "Cell",
    "check_dataset",
    "check_policy",
    "make_grid",
    "policy_names",
]

#: Policies that the controller understands besides the bandits of `streamboost.bandits`.
BASELINE_POLICIES: tuple[str, ...] = ("never", "always", "both", "every-<N>")

_EVERY = re.compile(r"every-([1-9][0-9]*)")

#: The grid `streamboost compare` runs without arguments: the two bundled datasets (whole
#: streams), the baselines, a UCB bandit and a Thompson sampler (UCB1, discounted and
#: sliding-window UCB tied on both: with counterfactual rounds a padding is the same for every
#: arm, docs/bandits.md), cost ratio 1, three seeds (timed in docs/experiments.md).
DEFAULT_GRID: dict[str, typing.Any] = {
    "datasets": ("phishing", "weather"),
    "policies": (
        "never",
        "every-4",
        "discounted-ucb",
        "discounted-thompson",
        "both",
    ),
    "cost_ratios": (1.0,),
    "seeds": (0, 1, 2),
    "max_rows": None,
}


def policy_names() -> tuple[str, ...]:
    """Every accepted policy name (`"every-<N>"` stands for every-1, every-2, ...)."""
    return (*BASELINE_POLICIES, *sorted(bandits.POLICIES))


def check_policy(name: str) -> str:
    """Return `name` if the controller accepts it as a policy, else raise ValueError.

    Examples
    --------
    >>> from streamboost.experiments.grid import check_policy
    >>> check_policy("every-4")
    'every-4'
    >>> check_policy("every-0")
    Traceback (most recent call last):
    ...
    ValueError: policy 'every-0': N must be a whole number >= 1 (every-1, every-2, ...)

    """
    if not isinstance(name, str):
        raise TypeError(f"a policy name must be a str, got {name!r}")
    if name in BASELINE_POLICIES[:-1] or name in bandits.POLICIES or _EVERY.fullmatch(name):
        return name
    if re.fullmatch(r"every-[0-9]+", name):
        raise ValueError(f"policy {name!r}: N must be a whole number >= 1 (every-1, every-2, ...)")
    raise ValueError(f"unknown policy {name!r}{did_you_mean(name, policy_names())}; accepted: "
                     f"{', '.join(policy_names())}")


def check_dataset(name: str) -> str:
    """Return `name` if it is a registered dataset, an existing CSV file (gzipped or not) or an
    http(s) address, else raise ValueError naming the registered ones."""
    if not isinstance(name, str):
        raise TypeError(f"a dataset name must be a str, got {name!r}")
    if name not in datasets.REGISTRY and not Path(name).is_file() and not is_url(name):
        raise ValueError(
            f"unknown dataset {name!r}{did_you_mean(name, datasets.REGISTRY)}: neither a "
            f"registered name ({', '.join(sorted(datasets.REGISTRY))}), an existing CSV file "
            "nor an http(s) address"
        )
    return name


@dataclasses.dataclass(frozen=True)
class Cell:
    """One run of a grid: its full configuration.

    The pipeline is `StandardScaler() | BanditCalibratedClassifier(...)` over the model
    `models.make_model(model, n_models, seed, score)`, evaluated prequentially on
    `datasets.stream(dataset, seed=seed, encode=...)`: categorical features one-hot for a linear
    model, strings for a tree (`models.encoding`), and no scaler, which would map every sparse
    indicator to 0.

    Parameters
    ----------
    dataset, policy, model, calibrator, calibrator_gamma, score
        A `datasets.REGISTRY` name; a `policy_names()` name; a `models.MODELS` name; a
        `calibration.CALIBRATORS` name; Platt's and beta's step (None: `scores.named_step`'s
        for the model); a booster's score (None: its default, the vote).
    cost_ratio, c_fp
        c_FN / c_FP; the cost of a false positive (c_FN = c_fp * cost_ratio: only the expected
        cost's scale depends on it).
    seed, batch_size, n_models, max_rows
        Seeds the stream's order and sample, the booster and the policy; examples per
        minibatch; members of an ensemble; the first rows evaluated (None: all).
    reward, reward_map, counterfactual, arms, warmup_arm, rollback, reward_examples,
    reward_every, reward_start, reward_restart, train_budget, budget_reserve, budget_timing
        The controller's parameters of these names; `arms=("train", "calibrate")` is the
        thesis's forced split; `warmup_arm` is `"train"`, as the recorded grids ran (None: the
        controller's default, calibrating in the warm-up, and the CLI's since 0.8.56).
    data_dir, target, pos_label, positive_prior
        Where the dataset files are (None: bundled / default); a CSV path's label column; the
        positive class as written (None: the registry's, or a CSV's minority class); the
        share of positives replayed (`datasets.stream`'s; None: as the data has it).
    c_fn_feature
        A numeric column whose value times c_FN is each example's own cost of a false
        negative (`evaluate.prequential`); read as the file has it, scaled for the model only.

    Examples
    --------
    >>> from streamboost.experiments import Cell
    >>> cell = Cell("phishing", "ucb1", cost_ratio=10, seed=3)
    >>> cell.c_fp, cell.c_fn, len(cell.key())
    (1.0, 10.0, 16)
    >>> cell.key() == Cell("phishing", "ucb1", cost_ratio=10.0, seed=3).key()
    True
    >>> cell.key() == Cell("phishing", "ucb1", cost_ratio=10, seed=4).key()
    False

    """

    dataset: str
    policy: str
    cost_ratio: float = 1.0
    c_fp: float = 1.0
    seed: int = 0
    batch_size: int = 32
    n_models: int = 10
    max_rows: int | None = None
    reward: str = "log-likelihood"
    reward_map: str = "affine"
    train_budget: float | None = None
    budget_reserve: float = 0.0
    budget_timing: str = "even"
    reward_examples: int | None = None
    reward_every: int = 1
    reward_start: int = 64
    reward_restart: bool = True
    rollback: str = "auto"
    counterfactual: bool = True
    arms: tuple[str, ...] = ("train", "calibrate", "both")
    warmup_arm: str | None = "train"
    data_dir: str | None = None
    model: str = "oza-lr"
    calibrator: str = "platt"
    calibrator_gamma: float | None = None
    score: str | None = None
    target: str = "target"
    pos_label: str | None = None
    c_fn_feature: str | None = None
    positive_prior: float | None = None

    def __post_init__(self):
        check_dataset(self.dataset)
        check_policy(self.policy)
        ratio = self.cost_ratio
        if not is_real(ratio):
            raise TypeError(f"cost_ratio must be a number, got {ratio!r}")
        if not (math.isfinite(ratio) and ratio > 0):
            raise ValueError(f"cost_ratio (c_FN / c_FP) must be finite and > 0, got {ratio!r}")
        object.__setattr__(self, "cost_ratio", float(ratio))
        validate_costs(self.c_fp, self.cost_ratio)
        object.__setattr__(self, "c_fp", float(self.c_fp))
        validate_costs(self.c_fp, self.c_fn)  # the product must stay finite
        # kept as Python's ints: numpy's pass the check, and no JSON (`key`) takes them
        for name, minimum, none in (("seed", 0, False), ("batch_size", 1, False),
                                    ("n_models", 1, False), ("max_rows", 1, True),
                                    ("reward_examples", 1, True), ("reward_every", 1, False),
                                    ("reward_start", 0, False)):
            object.__setattr__(self, name, check_int(name, getattr(self, name), minimum,
                                                     none=none))
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {self.reward!r}")
        if self.reward_map not in MAPPINGS:  # else every run of a grid fails on its own
            raise ValueError(f"reward_map must be one of {MAPPINGS}, got {self.reward_map!r}")
        check_budget(self.train_budget, self.budget_reserve, self.budget_timing)
        object.__setattr__(self, "budget_reserve", float(self.budget_reserve))  # numpy's: JSON
        if self.train_budget is not None:
            object.__setattr__(self, "train_budget", float(self.train_budget))
        check_rollback(self.rollback, self.batch_size, self.reward_examples)
        for name in ("counterfactual", "reward_restart"):  # numpy's as Python's: JSON
            object.__setattr__(self, name, check_bool(name, getattr(self, name)))
        if isinstance(self.arms, str):
            raise TypeError(f"arms must be a sequence of arm names, got {self.arms!r}")
        object.__setattr__(self, "arms", tuple(self.arms))
        # a bad set of arms, or warm-up arm, fails here, not in every run
        check_warmup_arm(self.warmup_arm, resolve_arms(self.arms, self.policy))
        check_score(self.model, self.score)  # an unknown model, too
        if self.calibrator not in CALIBRATORS:
            raise ValueError(
                f"unknown calibrator {self.calibrator!r}"
                f"{did_you_mean(self.calibrator, CALIBRATORS)}; expected one of "
                f"{', '.join(sorted(CALIBRATORS))}"
            )
        gamma = self.calibrator_gamma
        if gamma is not None:
            if not is_real(gamma):
                raise TypeError(f"calibrator_gamma must be a number or None, got {gamma!r}")
            check_step("calibrator_gamma", gamma)  # the calibrators' own check, before any run
            if self.calibrator not in STEPPED:  # a step that nothing would take
                raise ValueError(f"calibrator_gamma sets the step of {', '.join(STEPPED)}; "
                                 f"calibrator {self.calibrator!r} has none")
            object.__setattr__(self, "calibrator_gamma", float(gamma))
        if not isinstance(self.target, str) or not self.target:
            raise TypeError(f"target must be a column name, got {self.target!r}")
        if self.pos_label is not None and not isinstance(self.pos_label, str):
            raise TypeError(f"pos_label must be a label as written in the file, got "
                            f"{self.pos_label!r}")
        spec = datasets.REGISTRY.get(self.dataset)
        if spec is not None and self.pos_label is not None and self.pos_label not in spec.classes:
            raise ValueError(f"pos_label {self.pos_label!r} is not a class of {self.dataset!r}: "
                             f"{list(spec.classes)}")
        if self.c_fn_feature is not None and (not isinstance(self.c_fn_feature, str)
                                              or not self.c_fn_feature):
            raise TypeError(f"c_fn_feature must be a column name or None, got "
                            f"{self.c_fn_feature!r}")
        if self.data_dir is not None and not isinstance(self.data_dir, str):
            raise TypeError(f"data_dir must be a str path or None, got {self.data_dir!r}")
        if self.positive_prior is not None:  # numpy's as Python's float: JSON
            check_prior(self.positive_prior)
            object.__setattr__(self, "positive_prior", float(self.positive_prior))

    @property
    def c_fn(self) -> float:
        """Cost of a false negative: `c_fp * cost_ratio`."""
        return self.c_fp * self.cost_ratio

    def config(self) -> dict[str, typing.Any]:
        """The full configuration: the fields, c_fn and the package version."""
        return {
            **dataclasses.asdict(self),
            "arms": list(self.arms),  # as JSON stores it, so a stored config compares equal
            "c_fn": self.c_fn,
            "version": __version__,
        }

    def key(self) -> str:
        """A 16-hex-digit hash of `config()`: the name of the cell's result file."""
        text = json.dumps(self.config(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def pipeline(self) -> compose.Pipeline:
        """A fresh, untrained pipeline for this cell."""
        model = make_model(self.model, self.n_models, self.seed, self.score)
        controller = BanditCalibratedClassifier(
            model=model,
            calibrator=self.calibrator if self.calibrator_gamma is None else calibrator_for(
                self.calibrator, model, gamma=self.calibrator_gamma),
            policy=self.policy,
            batch_size=self.batch_size,
            c_fp=self.c_fp,
            c_fn=self.c_fn,
            reward=self.reward,
            reward_map=self.reward_map,
            train_budget=self.train_budget,
            budget_reserve=self.budget_reserve,
            budget_timing=self.budget_timing,
            reward_examples=self.reward_examples,
            reward_every=self.reward_every,
            reward_start=self.reward_start,
            reward_restart=self.reward_restart,
            rollback=self.rollback,
            counterfactual=self.counterfactual,
            arms=self.arms,
            warmup_arm=self.warmup_arm,
            seed=self.seed,
        )
        # no scaler on one-hot indicators; the cost column's own after the cost is read
        return pipeline(controller, self.dataset, self.c_fn_feature)

    def stream(self) -> typing.Iterator[tuple[dict, bool]]:
        """The cell's stream (y is True for the positive class)."""
        encode = encoding(self.model)
        if self.dataset in datasets.REGISTRY:
            return datasets.stream(self.dataset, seed=self.seed, encode=encode,
                                   data_dir=self.data_dir, positive=self.pos_label,
                                   positive_prior=self.positive_prior)
        unscaled = () if self.c_fn_feature is None else (self.c_fn_feature,)
        return datasets.stream(self.dataset, seed=self.seed, encode=encode, scale=True,
                               unscaled=unscaled, target=self.target, positive=self.pos_label,
                               positive_prior=self.positive_prior)

    def run(self, *, progress: bool = False) -> RunResult:
        """Evaluate the cell's model prequentially on its stream (see `evaluate.prequential`)."""
        spec = datasets.REGISTRY.get(self.dataset)
        n_rows = spec.n_rows if spec is not None else None
        return prequential(
            self.pipeline(),
            self.stream(),
            c_fp=self.c_fp,
            c_fn=self.c_fn,
            c_fn_feature=self.c_fn_feature,
            max_rows=self.max_rows,
            progress=progress,
            total=n_rows,
        )


def make_grid(
    datasets: typing.Sequence[str],
    policies: typing.Sequence[str],
    cost_ratios: typing.Sequence[float] = (1.0,),
    seeds: typing.Sequence[int] = (0,),
    **settings: typing.Any,
) -> list[Cell]:
    """Every combination of datasets x cost ratios x seeds x policies, as cells.

    `settings` are the other `Cell` fields (batch_size, n_models, max_rows, reward,
    train_budget, budget_reserve, budget_timing, reward_examples, reward_every, reward_start,
    reward_restart, rollback, counterfactual, arms, warmup_arm, data_dir, model, calibrator),
    shared by all cells. Duplicates are dropped; order is dataset, cost ratio, seed, policy.

    Examples
    --------
    >>> from streamboost.experiments import make_grid
    >>> cells = make_grid(["phishing"], ["never", "ucb1"], cost_ratios=[1, 10], seeds=[0, 1])
    >>> len(cells), cells[1].policy, cells[2].seed
    (8, 'ucb1', 1)

    """
    for name, values in (
        ("datasets", datasets),
        ("policies", policies),
        ("cost_ratios", cost_ratios),
        ("seeds", seeds),
    ):
        if isinstance(values, str) or not isinstance(values, typing.Iterable):
            raise TypeError(f"{name} must be a sequence, got {values!r}")
        if not list(values):
            raise ValueError(f"{name} must not be empty")
    cells = [
        Cell(dataset, policy, cost_ratio=ratio, seed=seed, **settings)
        for dataset, ratio, seed, policy in itertools.product(
            datasets, cost_ratios, seeds, policies
        )
    ]
    return list(dict.fromkeys(cells))
