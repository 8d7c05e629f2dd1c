"""How fast a calibration of a 100-weak-member booster goes stale, on the thesis protocol.

For each of the thesis's 18 datasets and repetition ``r`` (seed ``r``), as in
``thesis_protocol.py``: balanced, 25 % held out, Oza boosting of 100 univariate logistic
regressions streams the rest once. Platt's map (maximum likelihood, ``Calibrator.fit``, the
calibrator ``CalibratedClassifier`` resolves for this booster) is fitted to the booster's
scores of its last 256 training examples *as the booster was* ``lag`` examples before the end
of the stream (lag 0: the final booster, as ``CalibratedClassifier.recalibrate`` fits it), and
applied to the *final* booster's held-out scores. Beside them: the raw booster and the
online calibrator (``"both"``: every prequential score learned). The cells are areas under the
Brier curve (21 thesis cost ratios), lower is better.

A second table shows why: the Poisson rates lambda that Oza's rule gives each member (position 1,
10, 50, 100) over the last 500 training examples of waveform, repetition 0.

A third table asks whether refitting *while the model learns* helps: prequential Brier score
on the first 8,000 rows of two real streams, ``CalibratedClassifier`` alone against the same
with ``window=256`` and ``recalibrate()`` called after every N examples.

    python simulations/calibration_lag.py --reps 3 --data-dir ../shared/data

The report (``calibration_lag.md``) is rewritten between its ``<!-- generated -->`` markers
only, so the discussion around them survives a rerun; about two minutes.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
import typing
from pathlib import Path

import numpy as np
import thesis_protocol as protocol
from reporting import table_head, table_row
from river import linear_model

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets, weak
from streamboost.experiments.models import pipeline

HERE = Path(__file__).resolve().parent
LAGS = (0, 1, 4, 16, 64)
WINDOW = 256
N_MODELS = 100
STREAMS = ("electricity", "phishing")
REFIT_EVERY = (None, 16, 64, 256)
ROWS = 8_000


def run_dataset(name: str, rep: int, data_dir: Path | None = None) -> dict[str, float]:
    """Area under the Brier curve on the held-out part, per method, for one repetition."""
    rows = protocol.balanced_rows(name, rep, data_dir)
    train, test = protocol.stratified_split(rows, protocol.TEST_FRACTION)
    scale = not datasets.REGISTRY[name].categorical
    booster = protocol.booster(rep, N_MODELS, "univariate")
    wrapper = CalibratedClassifier(booster, "platt")
    model = protocol.pipeline(wrapper, scale)
    fitted = {}
    for i, (x, y) in enumerate(train, start=1):
        model.learn_one(x, y)
        lag = len(train) - i
        if lag in LAGS:
            window = train[max(0, i - WINDOW) : i]
            calibrator = wrapper.calibrator_.clone()
            calibrator.fit([raw_score(model, x) for x, _ in window], [y for _, y in window])
            fitted[lag] = calibrator
    final = [raw_score(model, x) for x, _ in test]
    online = [model.predict_proba_one(x)[True] for x, _ in test]
    out = {"raw": area(final, test), "both": area(online, test)}
    for lag, calibrator in sorted(fitted.items()):
        out[f"lag {lag}"] = area([calibrator.predict_one(s) for s in final], test)
    return out


def prequential(name: str, members: str, every: int | None, data_dir: Path | None) -> float:
    """Prequential Brier score of the scaled, calibrated booster on the stream's first rows,
    with ``recalibrate()`` after every ``every`` examples (None: never)."""
    member, n_models = (
        (weak.UnivariateLogisticRegression(), N_MODELS)
        if members == "univariate"
        else (linear_model.LogisticRegression(), 10)
    )
    booster = OzaBoostClassifier(member, n_models=n_models, seed=1)
    wrapper = CalibratedClassifier(booster, "platt", window=WINDOW)
    model = pipeline(wrapper, name)
    total, n = 0.0, 0
    for x, y in datasets.stream(name, data_dir=data_dir):
        total += (model.predict_proba_one(x)[True] - y) ** 2
        model.learn_one(x, y)
        n += 1
        if every is not None and n % every == 0:
            wrapper.recalibrate()
        if n == ROWS:
            break
    return total / n


def raw_score(model, x: dict) -> float:
    """The booster's own score of ``x`` through the pipeline, bypassing the calibrator."""
    wrapper = model["CalibratedClassifier"]
    for step in list(model.steps.values())[:-1]:
        x = step.transform_one(x)
    return wrapper.model.score_one(x)


def area(probabilities: typing.Sequence[float], test) -> float:
    """Area under the Brier curve of the probabilities on ``test``."""
    values = iter(probabilities)
    return protocol.score_holdout(lambda x: next(values), test)[0]


def rate_table(data_dir: Path | None, name: str = "waveform", last: int = 500) -> list[str]:
    """Markdown rows: quantiles of the Poisson rate each member position draws with, over the
    last ``last`` training examples of ``name``. Member m's rate on an example is what Oza's
    rule adds to its lambda_sc or lambda_sw (to rounding: (s + rate) - s), read off the
    booster's state around each learn_one, so the table holds whichever loop draws (Python or
    `streamboost.kernels`)."""
    rows = protocol.balanced_rows(name, 0, data_dir)
    train, _ = protocol.stratified_split(rows, protocol.TEST_FRACTION)
    booster = protocol.booster(0, N_MODELS, "univariate")
    model = protocol.pipeline(booster, scale=True)
    rates = []
    for x, y in train:
        before = np.add(booster._lambda_sc, booster._lambda_sw)
        model.learn_one(x, y)
        rates.append(np.add(booster._lambda_sc, booster._lambda_sw) - before)
    table = np.array(rates[-last:])
    lines = ["| member | median | 90th percentile | largest |", "|---:|---:|---:|---:|"]
    for position in (1, 10, 50, 100):
        column = table[:, position - 1]
        lines.append(
            f"| {position} | {np.median(column):,.2f} | {np.percentile(column, 90):,.1f} | "
            f"{column.max():,.0f} |"
        )
    return lines


def prequential_table(data_dir: Path | None) -> list[str]:
    """Markdown rows: per stream and members, the prequential Brier score per refit period."""
    lines = table_head("stream", "members",
                       *("never" if e is None else f"every {e}" for e in REFIT_EVERY), left=2)
    for name in STREAMS:
        for members in ("univariate", "lr"):
            label = "100 univariate LR" if members == "univariate" else "10 LR"
            cells = [f"{prequential(name, members, e, data_dir):.4f}" for e in REFIT_EVERY]
            lines.append(table_row(name, label, *cells))
    return lines


def report(
    results: dict[str, list[dict[str, float]]],
    command: str,
    seconds: float,
    streams: typing.Sequence[str] = (),
    rates: typing.Sequence[str] = (),
) -> str:
    """Markdown: the mean over repetitions per dataset, and the mean over datasets."""
    methods = list(next(iter(results.values()))[0])
    lines = table_head("dataset", *methods)
    means = {m: [] for m in methods}
    for name, reps in results.items():
        cells = []
        for m in methods:
            value = statistics.mean(r[m] for r in reps)
            means[m].append(value)
            cells.append(f"{value:.4f}")
        lines.append(table_row(name, *cells))
    lines.append(table_row("mean", *(f"{statistics.mean(v):.4f}" for v in means.values())))
    reps = len(next(iter(results.values())))
    return "\n".join(
        [
            (__doc__ or "").split("\n\n")[1].replace("\n", " "),
            "",
            f"Command: `{command}`; {reps} repetition(s); {seconds:.0f} s.",
            "",
            *lines,
            "",
            "Poisson rates lambda by member position, last 500 training examples of waveform:",
            "",
            *rates,
            "",
            f"Prequential Brier score, first {ROWS:,} rows, ``StandardScaler() | "
            f"CalibratedClassifier(OzaBoostClassifier(...), window={WINDOW})``, seed 1:",
            "",
            *streams,
        ]
    )


def write(body: str, path: Path) -> None:
    """Put ``body`` between the report's markers, keeping the text around them."""
    generated = f"{protocol.BEGIN}\n{body}\n{protocol.END}"
    text = path.read_text() if path.exists() else ""
    if protocol.BEGIN in text and protocol.END in text:
        head, rest = text.split(protocol.BEGIN, 1)
        text = head + generated + rest.split(protocol.END, 1)[1]
    else:
        text = f"# How fast a calibration goes stale (100 weak members)\n\n{generated}\n"
    path.write_text(text)


def main(argv: typing.Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--datasets", nargs="+", choices=list(protocol.THESIS_TABLE_8_1))
    parser.add_argument("--data-dir", type=Path, default=protocol.default_data_dir())
    parser.add_argument("--out", type=Path, default=HERE / "calibration_lag.md")
    parser.add_argument(
        "--no-streams", action="store_true", help="skip the rates and the prequential tables"
    )
    args = parser.parse_args(argv)
    if args.reps < 1:
        parser.error(f"--reps must be >= 1, got {args.reps}")
    start = time.perf_counter()
    names = args.datasets or list(protocol.THESIS_TABLE_8_1)
    results = {n: [run_dataset(n, r, args.data_dir) for r in range(args.reps)] for n in names}
    streams = [] if args.no_streams else prequential_table(args.data_dir)
    rates = [] if args.no_streams else rate_table(args.data_dir)
    command = "python simulations/calibration_lag.py " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    seconds = time.perf_counter() - start
    write(report(results, command.strip(), seconds, streams, rates), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
