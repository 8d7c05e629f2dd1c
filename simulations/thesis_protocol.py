"""The thesis's experimental protocol (Nikolaou 2016, Section 8.1) replayed online.

For each of the thesis's 18 UCI datasets and each repetition ``r`` (seed ``r``):

1. the dataset is balanced (majority class undersampled at random to 50/50) and shuffled
   (``streamboost.datasets.stream(name, seed=r, balance=True)``, categorical features one-hot);
2. a random 25% is held out, stratified so that both parts stay exactly balanced;
3. online methods stream the remaining 75% once, one example at a time (and, with
   ``--passes K``, for K epochs, reshuffled after the first);
4. the final model (after 1 and after K epochs) predicts the held-out 25% without learning,
   scored by the area under the Brier curve over the thesis's 21 cost ratios
   (``streamboost.metrics.BrierCurve``) and by the Brier score.

Online methods: ``StandardScaler() | BanditCalibratedClassifier(OzaBoostClassifier(
LogisticRegression(), n_models=10), policy=...)`` (``--members univariate --n-models 100``: the
thesis's own 100 univariate logistic regressions, ``streamboost.weak``; ``stump``: decision
stumps) with the policies ``never`` (uncalibrated
online boosting, the online analogue of AdaMEC), ``every-3`` (a third of the minibatches
calibrate, the thesis's train/calibration ratio), ``both`` and ``discounted-ucb`` (a bandit
over the three arms train / calibrate / both); minibatches of 16 examples, the first 2
(``--warmup``) train the booster and calibrate whatever the policy (the library's warm-up;
``--warmup-arm train``: train only), Platt's step chosen by name for the booster
(``--calibrator-gamma``: that step).

``window-refit`` is ``both`` (``CalibratedClassifier``) keeping its last 256 training
examples, whose Platt calibrator is refitted (``recalibrate``, maximum likelihood) to the
current booster's scores of them at each checkpoint: a single pass, calibrated in-sample on
the model that is scored.

The batch-like reference ``thesis-split`` is the thesis's Algorithm 2
with online boosting as the learner: the booster learns the first (stratified) 2/3 of the
training part, then Platt's sigmoid in the raw score, ``1 / (1 + exp(A s + B))``, is fitted by
least squares to Platt's smoothed targets on the booster's scores of the last 1/3
(``platt_fit(..., feature="score", objective="squared")``, as the thesis's ``nlinfit``).

30 repetitions; per dataset, method and epoch count the mean and a 95% Student-t interval over
repetitions, next to the thesis's Table 8.1 (AdaMEC and calibrated AdaMEC).

Run ``python simulations/thesis_protocol.py --help``; ``--quick`` is a smoke run. The report
``simulations/thesis_protocol.md`` is rewritten between its ``<!-- generated -->`` markers only,
so the hand-written discussion around them survives a rerun.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import random
import shlex
import sys
import time
import typing
from pathlib import Path

from reporting import table_head, table_row
from river import compose, linear_model, preprocessing
from scipy.special import expit

from streamboost import CalibratedClassifier, datasets, weak
from streamboost.boosting import OzaBoostClassifier
from streamboost.calibration import platt_fit
from streamboost.calibration.base import check_step
from streamboost.controller import BanditCalibratedClassifier
from streamboost.experiments.statistics import mean_confidence_interval
from streamboost.metrics import BrierCurve, BrierScore
from streamboost.scores import calibrator_for

Row = tuple[dict, bool]

# Thesis Table 8.1 (Nikolaou 2016, p. 8.2; transcribed in notes/seeds-digest.md, section 6):
# average area under the Brier curve of AdaMEC and calibrated AdaMEC, in the table's order.
THESIS_TABLE_8_1: dict[str, tuple[float, float]] = {
    "survival": (0.2623, 0.2302),
    "ionosphere": (0.2043, 0.1642),
    "congress": (0.0840, 0.0336),
    "liver": (0.2729, 0.2485),
    "pima": (0.2243, 0.2234),
    "parkinsons": (0.1727, 0.1388),
    "landsat": (0.3474, 0.2150),
    "krvskp": (0.1846, 0.1009),
    "heart": (0.1643, 0.1471),
    "wdbc": (0.1230, 0.0537),
    "credit": (0.2239, 0.2131),
    "sonar": (0.1969, 0.1826),
    "semeion": (0.1626, 0.0890),
    "splice": (0.1286, 0.0683),
    "spambase": (0.2218, 0.1461),
    "waveform": (0.1317, 0.0695),
    "musk2": (0.1963, 0.1432),
    "mushroom": (0.1686, 0.1071),
}

ONLINE_POLICIES = ("never", "every-3", "both", "discounted-ucb")
WINDOW_REFIT = "window-refit"  # "both", then Platt refitted on the last REFIT_WINDOW examples
REFIT_WINDOW = 256
REFERENCE = "thesis-split"
METHODS = (*ONLINE_POLICIES, WINDOW_REFIT, REFERENCE)
TEST_FRACTION = 0.25
CALIBRATION_FRACTION = 1 / 3  # of the training part (thesis Section 8.1)

DEFAULTS = {
    "reps": 30,
    "passes": 3,
    "passes_reps": None,
    "n_models": 10,
    "members": "lr",
    "batch_size": 16,
    "warmup": 2,
    "jobs": 2,
}
QUICK = {"reps": 2, "passes": 2, "n_models": 3, "datasets": ("parkinsons", "survival")}

CSV_FIELDS = (
    "dataset",
    "rep",
    "method",
    "passes",
    "n_train",
    "n_test",
    "brier_curve",
    "brier",
    "calibrated_share",
    "seconds",
    "n_models",
    "members",
    "batch_size",
    "warmup",
    "warmup_arm",
    "calibrator_gamma",
)

# The members a booster can boost: River's logistic regression, or the thesis's weak learners.
MEMBERS = {
    "lr": ("logistic regressions", linear_model.LogisticRegression),
    "univariate": ("univariate logistic regressions", weak.UnivariateLogisticRegression),
    "stump": ("decision stumps", weak.DecisionStump),
}

BEGIN, END = "<!-- generated: begin -->", "<!-- generated: end -->"


def default_data_dir() -> Path | None:
    """The shared data directory: ``$STREAMBOOST_SHARED_DATA``, else ``shared/data`` beside
    the repository, else None (the registry's own search order)."""
    env = os.environ.get("STREAMBOOST_SHARED_DATA")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parents[2] / "shared" / "data"
    return beside if beside.is_dir() else None


def balanced_rows(name: str, seed: int, data_dir: Path | None = None) -> list[Row]:
    """The dataset balanced 50/50 by seeded undersampling and shuffled with ``seed``.

    Categorical features are one-hot encoded (stateless, so no information crosses the
    train/test boundary); a missing value is an absent key (for a numeric feature, after
    standard scaling, the linear members' mean imputation; for a categorical one, all its
    indicators 0). Splice's 15 ambiguous rows are dropped (Table B.1).
    """
    return list(
        datasets.stream(
            name,
            seed=seed,
            balance=True,
            shuffle=True,
            encode="onehot",
            drop_ambiguous=True,
            data_dir=data_dir,
        )
    )


def stratified_split(rows: typing.Sequence[Row], fraction: float) -> tuple[list[Row], list[Row]]:
    """Split ``rows`` into (rest, held): ``held`` takes ``round(fraction * n_c)`` examples of
    each class ``c``, the first ones in the given (shuffled) order; both keep that order.

    On balanced rows both parts are exactly balanced, which a plain random 25% is not.
    """
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"fraction must be in (0, 1), got {fraction!r}")
    quota = {
        label: round(fraction * sum(1 for _, y in rows if y == label)) for label in (True, False)
    }
    rest, held = [], []
    for x, y in rows:
        if quota[y] > 0:
            quota[y] -= 1
            held.append((x, y))
        else:
            rest.append((x, y))
    return rest, held


def epochs(rows: typing.Sequence[Row], passes: int, seed: int) -> typing.Iterator[list[Row]]:
    """``passes`` epochs over ``rows``: the given order first, then seeded reshuffles."""
    rng = random.Random(seed)
    order = list(rows)
    for k in range(passes):
        if k:
            rng.shuffle(order)
        yield order


def checkpoints(passes: int) -> tuple[int, ...]:
    """Epoch counts after which the held-out part is scored: after 1 and after ``passes``."""
    if isinstance(passes, bool) or not isinstance(passes, int) or passes < 1:
        raise ValueError(f"passes must be an integer >= 1, got {passes!r}")
    return (1, passes) if passes > 1 else (1,)


def booster(seed: int, n_models: int, members: str = "lr") -> OzaBoostClassifier:
    """Oza boosting of ``MEMBERS[members]`` (the thesis boosts univariate logistic ones)."""
    return OzaBoostClassifier(MEMBERS[members][1](), n_models=n_models, seed=seed)


def pipeline(learner, scale: bool) -> compose.Pipeline:
    """``StandardScaler() | learner`` for numeric data, ``learner`` alone for one-hot data.

    River's scaler sees a one-hot indicator only when it is 1 (absent keys are not zeros to
    it), so it would learn mean 1, variance 0 and map every indicator to 0: the members would
    see no features at all. Indicators are already on a unit scale. (Every thesis dataset is
    either all numeric or all categorical.)
    """
    return preprocessing.StandardScaler() | learner if scale else compose.Pipeline(learner)


def online_model(
    policy: str,
    seed: int,
    n_models: int,
    batch_size: int,
    warmup: int,
    scale: bool = True,
    members: str = "lr",
    warmup_arm: str | None = None,
    gamma: float | None = None,
) -> compose.Pipeline:
    """``[StandardScaler |] BanditCalibratedClassifier`` with the given policy, its warm-up
    (None: the library's) and Platt's step ``gamma`` (None: by name for the booster).

    ``warmup`` is explicit because the controller's default (10 minibatches) exceeds the
    whole training part of the smallest thesis datasets (parkinsons: 72 examples).
    """
    model = booster(seed, n_models, members)
    controller = BanditCalibratedClassifier(
        model=model,
        calibrator=calibrator_for("platt", model, gamma=gamma),
        policy=policy,
        batch_size=batch_size,
        warmup=warmup,
        warmup_arm=warmup_arm,
        seed=seed,
    )
    return pipeline(controller, scale)


def score_holdout(predict: typing.Callable[[dict], float], test: typing.Sequence[Row]):
    """(Brier-curve area, Brier score) of P(positive) = ``predict(x)`` on ``test``."""
    curve, brier = BrierCurve(), BrierScore()
    for x, y in test:
        p = predict(x)
        curve.update(y, p)
        brier.update(y, p)
    return curve.get(), brier.get()


def run_online(
    policy: str,
    train,
    test,
    *,
    seed: int,
    passes: int,
    n_models: int,
    batch_size: int,
    warmup: int,
    scale: bool = True,
    members: str = "lr",
    warmup_arm: str | None = None,
    gamma: float | None = None,
) -> list[dict]:
    """Stream ``train`` through an online model (``online_model``'s settings); score ``test``
    (no learning) at checkpoints."""
    if policy == "never":
        # The controller with "never" is the bare booster (its calibrator learns nothing, so it
        # returns the raw score), but it still pays for reward bookkeeping that a constant
        # policy never reads; the bare booster gives the same numbers (tested) 3-4x faster.
        model, controller = pipeline(booster(seed, n_models, members), scale), None
    elif policy == WINDOW_REFIT:
        oza = booster(seed, n_models, members)
        wrapper = CalibratedClassifier(oza, calibrator_for("platt", oza, gamma=gamma),
                                       window=REFIT_WINDOW)
        model, controller = pipeline(wrapper, scale), None
    else:
        model = online_model(policy, seed, n_models, batch_size, warmup, scale, members,
                             warmup_arm, gamma)
        controller = model["BanditCalibratedClassifier"]
    marks = checkpoints(passes)
    results, start = [], time.perf_counter()
    for k, order in enumerate(epochs(train, passes, seed), start=1):
        for x, y in order:
            model.learn_one(x, y)
        if k in marks:
            if policy == WINDOW_REFIT:
                wrapper.recalibrate()
            area, bs = score_holdout(lambda x: model.predict_proba_one(x)[True], test)
            counts = controller.arm_counts if controller is not None else {"train": 1}
            if policy == WINDOW_REFIT:
                counts = {"both": 1}
            calibrated = sum(n for arm, n in counts.items() if arm != "train")
            results.append(
                {
                    "method": policy,
                    "passes": k,
                    "brier_curve": area,
                    "brier": bs,
                    "calibrated_share": calibrated / max(1, sum(counts.values())),
                    "seconds": time.perf_counter() - start,
                }
            )
    return results


def run_thesis_split(
    train,
    test,
    *,
    seed: int,
    passes: int,
    n_models: int,
    scale: bool = True,
    members: str = "lr",
) -> list[dict]:
    """Thesis Algorithm 2 with online boosting: learn 2/3, fit Platt on the other 1/3."""
    fit, calibration = stratified_split(train, CALIBRATION_FRACTION)
    model = pipeline(booster(seed, n_models, members), scale)
    marks = checkpoints(passes)
    results, start = [], time.perf_counter()
    for k, order in enumerate(epochs(fit, passes, seed), start=1):
        for x, y in order:
            model.learn_one(x, y)
        if k in marks:
            scores = [model.predict_proba_one(x)[True] for x, _ in calibration]
            a, b = platt_fit(
                scores, [y for _, y in calibration], feature="score", objective="squared"
            )
            area, bs = score_holdout(
                lambda x, a=a, b=b: float(expit(-(a * model.predict_proba_one(x)[True] + b))),
                test,
            )
            results.append(
                {
                    "method": REFERENCE,
                    "passes": k,
                    "brier_curve": area,
                    "brier": bs,
                    "calibrated_share": len(calibration) / len(train),
                    "seconds": time.perf_counter() - start,
                }
            )
    return results


def run_repetition(
    name: str,
    rep: int,
    *,
    methods: typing.Sequence[str] = METHODS,
    passes: int = DEFAULTS["passes"],
    passes_reps: int | None = None,
    n_models: int = DEFAULTS["n_models"],
    members: str = DEFAULTS["members"],
    batch_size: int = DEFAULTS["batch_size"],
    warmup: int = DEFAULTS["warmup"],
    warmup_arm: str | None = None,
    gamma: float | None = None,
    data_dir: Path | None = None,
) -> list[dict]:
    """Every method on one balanced dataset and one 75/25 split, all seeded with ``rep``
    (``warmup_arm``, ``gamma``: ``online_model``'s)."""
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown methods {unknown}; expected some of {METHODS}")
    if members not in MEMBERS:
        raise ValueError(f"unknown members {members!r}; expected one of {list(MEMBERS)}")
    rows = balanced_rows(name, rep, data_dir)
    train, test = stratified_split(rows, TEST_FRACTION)
    scale = not datasets.REGISTRY[name].categorical
    if passes_reps is not None and rep >= passes_reps:
        passes = 1
    results = []
    for method in methods:
        if method == REFERENCE:
            results += run_thesis_split(
                train,
                test,
                seed=rep,
                passes=passes,
                n_models=n_models,
                scale=scale,
                members=members,
            )
        else:
            results += run_online(
                method,
                train,
                test,
                seed=rep,
                passes=passes,
                n_models=n_models,
                batch_size=batch_size,
                warmup=warmup,
                scale=scale,
                members=members,
                warmup_arm=warmup_arm,
                gamma=gamma,
            )
    common = {
        "dataset": name,
        "rep": rep,
        "n_train": len(train),
        "n_test": len(test),
        "n_models": n_models,
        "members": members,
        "batch_size": batch_size,
        "warmup": warmup,
        "warmup_arm": warmup_arm or "",  # "": the library's
        "calibrator_gamma": "" if gamma is None else gamma,  # "": by name
    }
    return [{**common, **r} for r in results]


def run(
    names: typing.Sequence[str],
    reps: int,
    *,
    jobs: int = 1,
    **options,
) -> list[dict]:
    """``run_repetition`` for every dataset and repetition 0..reps-1, in parallel with joblib
    (``jobs`` > 1) when it is installed; rows sorted by dataset, method, passes, rep."""
    # Biggest datasets first, so that the last tasks are short and the workers finish together.
    tasks = sorted(
        ((n, r) for n in names for r in range(reps)),
        key=lambda t: -datasets.REGISTRY[t[0]].n_positive,
    )
    if jobs == 1:
        chunks = [run_repetition(n, r, **options) for n, r in tasks]
    else:
        try:
            import joblib
        except ImportError as error:
            raise ImportError(
                'jobs > 1 needs joblib: pip install "streamboost[parallel]", or use --jobs 1'
            ) from error
        chunks = joblib.Parallel(n_jobs=jobs)(
            joblib.delayed(run_repetition)(n, r, **options) for n, r in tasks
        )
    order = {m: i for i, m in enumerate(METHODS)}
    rows = [row for chunk in chunks for row in chunk]
    rows.sort(key=lambda r: (r["dataset"], order[r["method"]], r["passes"], r["rep"]))
    return rows


def summarise(rows: typing.Sequence[dict], confidence: float = 0.95) -> list[dict]:
    """Per (dataset, method, passes): mean and Student-t interval over repetitions of the
    Brier-curve area and the Brier score, and the mean share of calibrating minibatches."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["dataset"], row["method"], int(row["passes"])), []).append(row)
    summary = []
    for (name, method, passes), group in groups.items():
        entry = {
            "dataset": name,
            "method": method,
            "passes": passes,
            "n": len(group),
            "n_train": group[0]["n_train"],
            "n_test": group[0]["n_test"],
        }
        for metric in ("brier_curve", "brier"):
            mean, low, high = mean_confidence_interval(
                [float(r[metric]) for r in group], confidence
            )
            entry |= {metric: mean, f"{metric}_low": low, f"{metric}_high": high}
        for key in ("calibrated_share", "seconds"):
            entry[key] = sum(float(r[key]) for r in group) / len(group)
        summary.append(entry)
    return summary


def write_csv(rows: typing.Sequence[dict], path: Path) -> None:
    """The raw per-repetition rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: f"{v:.6f}" if isinstance(v, float) else v for k, v in row.items()})


def read_csv(path: Path) -> list[dict]:
    """Rows written by `write_csv` (numbers parsed)."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in ("rep", "passes", "n_train", "n_test", "n_models", "batch_size", "warmup"):
            row[key] = int(row[key])
        for key in ("brier_curve", "brier", "calibrated_share", "seconds"):
            row[key] = float(row[key])
        row.setdefault("members", "lr")  # CSVs written before --members existed
        row["calibrator_gamma"] = float(row["calibrator_gamma"]) if row.get(
            "calibrator_gamma") else ""
        row.setdefault("warmup_arm", "")
    return rows


def _cell(entry: dict | None, metric: str, best: bool) -> str:
    if entry is None:
        return "–"
    mean, low, high = entry[metric], entry[f"{metric}_low"], entry[f"{metric}_high"]
    half = "" if math.isnan(low) else f" ± {(high - low) / 2:.4f}"
    text = f"{mean:.4f}{half}"
    return f"**{text}**" if best else text


def results_table(summary: typing.Sequence[dict], passes: int, metric: str = "brier_curve") -> str:
    """Markdown table: one row per dataset (thesis order) with the thesis's AdaMEC and
    calibrated AdaMEC, then every method's mean ± half-width of its interval; the best
    mean of our methods in bold; a last row with the means over the datasets shown."""
    index = {(e["dataset"], e["method"]): e for e in summary if e["passes"] == passes}
    methods = [m for m in METHODS if any(k[1] == m for k in index)]
    names = [n for n in THESIS_TABLE_8_1 if any(k[0] == n for k in index)]
    header = ["dataset", "n train/test", "thesis AdaMEC", "thesis Cal. AdaMEC", *methods]
    lines = table_head(*header, left=2)
    for name in names:
        entries = [index.get((name, m)) for m in methods]
        means = [e[metric] for e in entries if e is not None]
        first = next(e for e in entries if e is not None)
        size = f"{first['n_train']}/{first['n_test']}"
        adamec, cal = THESIS_TABLE_8_1[name]
        cells = [_cell(e, metric, e is not None and e[metric] == min(means)) for e in entries]
        lines.append(table_row(name, size, f"{adamec:.4f}", f"{cal:.4f}", *cells))
    mean_row = [
        "mean",
        "",
        *(f"{sum(THESIS_TABLE_8_1[n][i] for n in names) / len(names):.4f}" for i in (0, 1)),
    ]
    for m in methods:
        values = [index[(n, m)][metric] for n in names if (n, m) in index]
        mean_row.append(f"{sum(values) / len(values):.4f}" if len(values) == len(names) else "–")
    lines.append(table_row(*mean_row))
    return "\n".join(lines)


def comparison_lines(summary: typing.Sequence[dict], passes: int) -> list[str]:
    """Per method, on how many datasets its 95% interval lies below / contains / lies above
    the thesis's calibrated AdaMEC and AdaMEC values."""
    lines = []
    for m in METHODS:
        entries = [
            e
            for e in summary
            if e["method"] == m and e["passes"] == passes and e["dataset"] in THESIS_TABLE_8_1
        ]
        if not entries:
            continue
        parts = []
        for label, column in (("Cal. AdaMEC", 1), ("AdaMEC", 0)):
            below = sum(
                e["brier_curve_high"] < THESIS_TABLE_8_1[e["dataset"]][column] for e in entries
            )
            above = sum(
                e["brier_curve_low"] > THESIS_TABLE_8_1[e["dataset"]][column] for e in entries
            )
            parts.append(
                f"vs thesis {label}: better on {below}, worse on {above}, "
                f"interval contains it on {len(entries) - below - above}"
            )
        share = sum(e["calibrated_share"] for e in entries) / len(entries)
        lines.append(
            f"- `{m}` ({len(entries)} datasets): "
            + "; ".join(parts)
            + "; share of minibatches the calibrator learned (thesis-split: of examples) "
            + f"{share:.2f}."
        )
    return lines


def report_body(summary: typing.Sequence[dict], meta: dict) -> str:
    """The generated part of the report: settings, command, wall time, tables, counts."""
    passes = sorted({e["passes"] for e in summary})
    reps = max(e["n"] for e in summary)
    if meta.get("wall_seconds") is None:
        timing = "Report rebuilt from the CSV; wall time not measured"
    else:
        timing = f"Wall time: {meta['wall_seconds']:.0f} s with {meta['jobs']} worker(s)"
    cost = {
        m: sum(e["seconds"] for e in summary if e["method"] == m and e["passes"] == passes[-1])
        for m in METHODS
    }
    parts = [
        f"Command: `{meta['command']}`  ",
        f"{timing}; up to {reps} repetitions; {meta['n_models']} boosted "
        f"{MEMBERS[meta.get('members', 'lr')][0]}; "
        f"minibatches of {meta['batch_size']}, the first {meta['warmup']} "
        f"{'train only' if meta.get('warmup_arm') == 'train' else 'train and calibrate'} "
        "(the warm-up); Platt's step "
        f"{'by name' if meta.get('calibrator_gamma', '') == '' else meta['calibrator_gamma']}; "
        f"epochs scored: {', '.join(map(str, passes))}.",
        "",
        "Cells: mean area under the Brier curve (21 thesis cost ratios) on the held-out 25%, "
        "± half-width of the 95% Student-t interval over repetitions; bold = best of our "
        "methods. Thesis columns: Table 8.1 (batch AdaBoost, M = 100 univariate logistic "
        "learners).",
        "",
        "Mean seconds per repetition, summed over the datasets, to the last epoch: "
        + ", ".join(f"`{m}` {t:.1f}" for m, t in cost.items() if t)
        + ".",
    ]
    for p in passes:
        epoch = "1 epoch (each training example seen once)" if p == 1 else f"{p} epochs"
        epoch += f", {max(e['n'] for e in summary if e['passes'] == p)} repetitions"
        parts += [
            "",
            f"### {epoch}",
            "",
            results_table(summary, p),
            "",
            *comparison_lines(summary, p),
        ]
    return "\n".join(parts)


def write_report(summary: typing.Sequence[dict], path: Path, meta: dict) -> None:
    """Write the generated part between the markers, keeping any text around them."""
    generated = f"{BEGIN}\n{report_body(summary, meta)}\n{END}"
    if path.exists() and BEGIN in (text := path.read_text()) and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + generated + tail
    else:
        text = f"# The thesis protocol, online\n\n{generated}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def parse_args(argv: typing.Sequence[str] | None = None) -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, help=f"repetitions (default {DEFAULTS['reps']})")
    parser.add_argument(
        "--datasets",
        nargs="+",
        choices=list(THESIS_TABLE_8_1),
        metavar="NAME",
        help="thesis datasets (default: all 18)",
    )
    parser.add_argument(
        "--passes",
        type=int,
        help=f"epochs; scored after 1 and after this many (default {DEFAULTS['passes']})",
    )
    parser.add_argument(
        "--passes-reps",
        type=int,
        default=DEFAULTS["passes_reps"],
        help="only repetitions 0..N-1 go on beyond the first epoch, to save time (default: all)",
    )
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    parser.add_argument("--n-models", type=int, help=f"default {DEFAULTS['n_models']}")
    parser.add_argument(
        "--members",
        choices=list(MEMBERS),
        default=DEFAULTS["members"],
        help="what is boosted: River's logistic regression (default), or the thesis's weak "
        "learners (univariate logistic regressions, decision stumps)",
    )
    parser.add_argument("--batch-size", type=int, default=DEFAULTS["batch_size"])
    parser.add_argument(
        "--warmup",
        type=int,
        default=DEFAULTS["warmup"],
        help="minibatches that train the booster (and calibrate: --warmup-arm) before any "
        "policy acts",
    )
    parser.add_argument(
        "--warmup-arm",
        choices=("train", "both"),
        help="what the warm-up does (default: the library's, both: it calibrates too)",
    )
    parser.add_argument(
        "--calibrator-gamma",
        type=float,
        help="Platt's step (default: by name for the booster, docs/calibration.md)",
    )
    parser.add_argument("--jobs", type=int, default=DEFAULTS["jobs"], help="joblib workers")
    parser.add_argument(
        "--out",
        type=Path,
        default=here / "thesis_protocol.md",
        help="report (Markdown); the CSV goes to <out dir>/results/",
    )
    parser.add_argument("--data-dir", type=Path, default=default_data_dir())
    parser.add_argument("--from-csv", type=Path, help="rebuild the report from a raw CSV")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: {QUICK['reps']} reps, {', '.join(QUICK['datasets'])}, "
        f"{QUICK['n_models']} members, {QUICK['passes']} epochs",
    )
    args = parser.parse_args(argv)
    preset = {**DEFAULTS, **QUICK} if args.quick else DEFAULTS
    for key in ("reps", "passes", "n_models"):
        if getattr(args, key) is None:
            setattr(args, key, preset[key])
    if args.datasets is None:
        args.datasets = list(QUICK["datasets"] if args.quick else THESIS_TABLE_8_1)
    for key in ("reps", "passes", "passes_reps", "n_models", "batch_size", "jobs"):
        if getattr(args, key) is not None and getattr(args, key) < 1:
            parser.error(f"--{key.replace('_', '-')} must be >= 1, got {getattr(args, key)}")
    if args.calibrator_gamma is not None:
        try:  # the calibrators' own check, before any run
            check_step("gamma", args.calibrator_gamma)
        except ValueError as error:
            parser.error(f"--calibrator-gamma: {error}")
    return args


def main(argv: typing.Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    csv_path = args.out.parent / "results" / (args.out.stem + ".csv")
    command = "python simulations/thesis_protocol.py " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    command = command.strip()
    start = time.perf_counter()
    if args.from_csv:
        rows, wall = read_csv(args.from_csv), None
    else:
        rows = run(
            args.datasets,
            args.reps,
            jobs=args.jobs,
            methods=args.methods,
            passes=args.passes,
            passes_reps=args.passes_reps,
            n_models=args.n_models,
            members=args.members,
            batch_size=args.batch_size,
            warmup=args.warmup,
            warmup_arm=args.warmup_arm,
            gamma=args.calibrator_gamma,
            data_dir=args.data_dir,
        )
        write_csv(rows, csv_path)
        wall = time.perf_counter() - start
        rows = read_csv(csv_path)  # the report from the CSV's digits, as --from-csv rebuilds it
    summary = summarise(rows)
    meta = {
        "command": command,
        "wall_seconds": wall,
        "jobs": args.jobs,
        "n_models": rows[0]["n_models"],
        "members": rows[0]["members"],
        "batch_size": rows[0]["batch_size"],
        "warmup": rows[0]["warmup"],
        "warmup_arm": rows[0]["warmup_arm"],
        "calibrator_gamma": rows[0]["calibrator_gamma"],
    }
    write_report(summary, args.out, meta)
    print(report_body(summary, meta))
    print(f"\nwrote {args.out}" + ("" if args.from_csv else f" and {csv_path} ({wall:.0f} s)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
