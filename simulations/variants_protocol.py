"""The cost-sensitive boosting variants on the thesis's protocol (Nikolaou 2016, Section 8.1).

Table 8.1 of the thesis, online (its 12 boosting methods): for each of the 18 UCI datasets
and each repetition ``r``, the data are balanced, shuffled and split 75/25 as in
``thesis_protocol.py`` (seed ``r``).
Every method is Oza boosting of 100 univariate logistic regressions (``streamboost.weak``,
the fast engine), streamed once over the 75 %, then scored on the held-out 25 % without
learning, by the area under the Brier curve over the thesis's 21 cost ratios:

- **AdaMEC** is one plain booster; at cost ratio c_FN/c_FP = r it decides positive iff its
  score exceeds c = 1 / (1 + r) (thesis Eq. 2.8), so one model serves all 21 ratios.
- **A variant** (``streamboost.variants``) is trained with the costs, so each of the 21
  ratios has its own model (c_FP = 1, c_FN = r), which decides by the sign of its vote
  (score > 1/2), as the thesis runs them.
- **Calibrated**: the same models with the online Platt calibrator beside them
  (``CalibratedClassifier``, "both": it learns each training example's score before the
  booster learns the example), deciding iff the calibrated probability exceeds c.

Q(c) = 2 (c FP + (1 - c) FN) / N on the held-out part (``metrics.BrierCurve``'s loss) at
the 21 points; the area is the trapezoid over them with Q = 0 at c = 0 and c = 1 for every
method (at c = 0 a false positive costs nothing, so the operating condition's best model is
the all-positive one, and likewise at c = 1). Methods are ranked per dataset on the mean area
over repetitions (Friedman, Nemenyi) and drawn as a critical-difference diagram.

    python simulations/variants_protocol.py --reps 2

rewrites ``simulations/variants_protocol.md`` and ``variants_protocol_cd.png`` (about 40
minutes per repetition on 2 cores); ``--quick`` is a smoke run, ``--from-csv`` rebuilds the
report from the raw rows (``variants_protocol.csv``), written as the runs finish; a run keeps
the rows already there, so a killed run resumes and a new variant costs only its own runs.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import shlex
import statistics
import sys
import tempfile
import time
import typing
from pathlib import Path

import thesis_protocol as protocol
from reporting import named, table_head, table_row

from streamboost import CalibratedClassifier, OzaBoostClassifier, datasets
from streamboost.decision import cost_threshold
from streamboost.experiments.statistics import compare
from streamboost.metrics.brier_curve import THESIS_COST_RATIOS
from streamboost.variants import VARIANTS
from streamboost.weak import UnivariateLogisticRegression

HERE = Path(__file__).resolve().parent
CSV_FIELDS = ("dataset", "rep", "method", "area", "members", "seconds", "n_models")

# Thesis Table 8.1 (notes/seeds-digest.md, section 6): mean area under the Brier curve over
# the 18 datasets and mean rank among its 15 methods (1 = best); None where not run.
THESIS_MEANS: dict[str, tuple[float, float] | None] = {
    "adamec": (0.1928, 6.39),
    "adamec, calibrated": (0.1430, 2.92),
    "cgada": (0.1792, 5.11),
    "cgada, calibrated": (0.1439, 3.19),
    "asymada": (0.1737, 4.89),
    "asymada, calibrated": (0.1182, 1.44),
    "adac1": (0.2203, 9.06),
    "adac2": (0.2164, 8.22),
    "adac3": (0.2210, 9.39),
    "csb0": (0.2208, 9.50),
    "csb1": (0.2367, 11.67),
    "csb2": (0.2162, 8.17),
    "adacost": (0.3918, 14.94),
    "adacost-beta2": (0.2855, 13.50),
    "csada": (0.2515, 11.61),
}


def q_value(c: float, decisions: typing.Sequence[tuple[bool, bool]]) -> float:
    """Q(c) = 2 (c FP + (1 - c) FN) / N of (label, decided positive) pairs."""
    false_pos = sum(1 for y, d in decisions if d and not y)
    false_neg = sum(1 for y, d in decisions if y and not d)
    return 2.0 * (c * false_pos + (1.0 - c) * false_neg) / len(decisions)


def area(points: dict[float, float]) -> float:
    """Trapezoid area of Q over c, with Q = 0 at c = 0 and c = 1."""
    curve = sorted({0.0: 0.0, 1.0: 0.0, **points}.items())
    return sum((c1 - c0) * (q0 + q1) / 2.0 for (c0, q0), (c1, q1) in itertools.pairwise(curve))


def trained(name: str, rep: int, variant: str, cost_ratio: float, n_models: int, train):
    """(model, booster, scaler): the variant's booster beside the online Platt calibrator,
    behind a scaler for numeric data, after one pass over ``train``."""
    options = {} if variant == "adamec" else {"variant": variant, "c_fp": 1.0, "c_fn": cost_ratio}
    booster = OzaBoostClassifier(UnivariateLogisticRegression(), n_models, seed=rep, **options)
    model = protocol.pipeline(CalibratedClassifier(booster, named("platt", booster)),
                              scale=not datasets.REGISTRY[name].categorical)
    for x, y in train:
        model.learn_one(x, y)
    return model, booster


def run_variant(
    name: str, rep: int, variant: str, n_models: int = 100, data_dir: Path | None = None
) -> list[dict]:
    """The raw and calibrated rows of one variant on one dataset and split."""
    start = time.perf_counter()
    rows = protocol.balanced_rows(name, rep, data_dir)
    train, test = protocol.stratified_split(rows, protocol.TEST_FRACTION)
    raw, calibrated, sizes = {}, {}, []
    models = {}
    for ratio in THESIS_COST_RATIOS:
        c = cost_threshold(1.0, ratio)
        if variant == "adamec":  # one model; the threshold moves
            if not models:
                models[None] = trained(name, rep, variant, 1.0, n_models, train)
            model, booster = models[None]
        else:
            model, booster = trained(name, rep, variant, ratio, n_models, train)
        head = model.steps[next(iter(model.steps))] if len(model.steps) > 1 else None
        pairs = []
        for x, y in test:
            z = head.transform_one(x) if head is not None else x
            pairs.append((y, booster.predict_proba_one(z)[True], model.predict_proba_one(x)[True]))
        cut = c if variant == "adamec" else 0.5  # the variants decide by the sign of the vote
        raw[c] = q_value(c, [(y, p > cut) for y, p, _ in pairs])
        calibrated[c] = q_value(c, [(y, q > c) for y, _, q in pairs])
        sizes.append(sum(a > 0.0 for a in booster.alphas))
    common = {"dataset": name, "rep": rep, "members": statistics.mean(sizes),
              "seconds": time.perf_counter() - start, "n_models": n_models}  # fmt: skip
    return [
        {**common, "method": variant, "area": area(raw)},
        {**common, "method": f"{variant}, calibrated", "area": area(calibrated)},
    ]


def run(
    names, reps: int, n_models: int, jobs: int, out: Path, data_dir, variants=tuple(VARIANTS)
) -> list[dict]:
    """Every variant on every dataset and repetition, the rows appended to ``out`` as the
    runs finish (repetition by repetition, biggest datasets first). The runs already in
    ``out`` are kept, not repeated: a killed run resumes, and a new
    variant runs alone."""
    import joblib

    kept = read_csv(out) if out.exists() else []
    if any(r["n_models"] != n_models for r in kept):
        raise ValueError(f"{out} holds runs with another n_models than {n_models}; use --out")
    done = {(r["dataset"], r["rep"], r["method"]) for r in kept}
    tasks = [
        (name, rep, variant)
        for rep in range(reps)
        for name in sorted(names, key=lambda n: -datasets.REGISTRY[n].n_positive)
        for variant in variants
        if (name, rep, variant) not in done
    ]
    results = list(kept)
    with out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(kept)
        for rows in joblib.Parallel(n_jobs=jobs, return_as="generator_unordered")(
            joblib.delayed(run_variant)(name, rep, variant, n_models, data_dir)
            for name, rep, variant in tasks
        ):
            writer.writerows(rows)
            handle.flush()
            results += rows
            print(rows[0]["dataset"], rows[0]["rep"], rows[0]["method"],
                  f"{rows[0]['area']:.4f} {rows[1]['area']:.4f}", flush=True)  # fmt: skip
    return results


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="") as handle:
        return [
            {**row, "rep": int(row["rep"]), "area": float(row["area"]),
             "members": float(row["members"]), "seconds": float(row["seconds"]),
             "n_models": int(row["n_models"])}
            for row in csv.DictReader(handle)
        ]  # fmt: skip


def complete(rows: list[dict]) -> list[dict]:
    """The rows of the repetitions that every (dataset, method) finished."""
    cells = {(r["dataset"], r["method"]) for r in rows}
    done = [
        rep
        for rep in sorted({r["rep"] for r in rows})
        if {(r["dataset"], r["method"]) for r in rows if r["rep"] == rep} == cells
    ]
    return [r for r in rows if r["rep"] in done]


def verdict(mean_ranks: dict[str, float], critical_difference: float) -> str:
    """Whether any method ranks significantly better than calibrated AdaMEC (Nemenyi)."""
    anchor = "adamec, calibrated"
    best = min(mean_ranks, key=mean_ranks.get)
    better = [m for m in mean_ranks if mean_ranks[anchor] - mean_ranks[m] > critical_difference]
    worse = [m for m in mean_ranks if mean_ranks[m] - mean_ranks[anchor] > critical_difference]
    if better:
        head = f"**No: {', '.join(better)} rank significantly better than calibrated AdaMEC**"
    else:
        head = "**Yes: no method ranks significantly better than calibrated AdaMEC**"
    return (
        f"Does the thesis's conclusion hold online? {head} (mean rank "
        f"{mean_ranks[anchor]:.2f}; best {best}, {mean_ranks[best]:.2f}; Nemenyi CD "
        f"{critical_difference:.2f}). Significantly worse than calibrated AdaMEC: "
        f"{', '.join(sorted(worse, key=mean_ranks.get)) or 'none'}."
    )


def report(rows: list[dict], command: str, out: Path) -> str:
    rows = complete(rows)
    reps = sorted({r["rep"] for r in rows})
    names = [n for n in protocol.THESIS_TABLE_8_1 if any(r["dataset"] == n for r in rows)]
    present = {r["method"] for r in rows}
    methods = [m for v in VARIANTS for m in (v, f"{v}, calibrated") if v in present]
    ranked = compare(
        [{"dataset": r["dataset"], "policy": r["method"], "seed": r["rep"], "cost_ratio": 1.0,
          "status": "ok", "area": r["area"]} for r in rows],
        "area",
    )  # fmt: skip

    def mean(key: str, method: str, name: str | None = None) -> float:
        return statistics.mean(
            r[key] for r in rows if r["method"] == method and name in (None, r["dataset"])
        )

    lines = [
        f"`{command}`",
        "",
        f"{len(names)} datasets, {len(reps)} repetition(s), 100 univariate logistic "
        "regressions, one pass. Area under the Brier curve on the held-out 25 % (21 cost "
        "ratios; lower is better), mean over the datasets and repetitions, beside the "
        "thesis's Table 8.1 (batch AdaBoost; its mean rank is among its 15 methods). "
        "Members: mean number of members with a positive vote weight.",
        "",
        verdict(ranked.mean_ranks, ranked.critical_difference),
        "",
        f"![critical-difference diagram]({out.stem}_cd.png)",
        "",
        "| method | online area | online mean rank | members | thesis area | thesis mean rank |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for method in sorted(methods, key=ranked.mean_ranks.get):
        thesis = THESIS_MEANS.get(method)
        cells = (f"{thesis[0]:.4f} | {thesis[1]:.2f}") if thesis else "- | -"
        lines.append(
            f"| {method} | {mean('area', method):.4f} | {ranked.mean_ranks[method]:.2f} | "
            f"{mean('members', method):.1f} | {cells} |"
        )
    lines += ["", "Per dataset (mean area over repetitions; bold = best of the row):", ""]
    for block in (methods[0::2], methods[1::2]):
        lines += table_head("dataset", *block)
        for name in names:
            values = [mean("area", m, name) for m in block]
            best = min(values)
            cells = [f"**{v:.4f}**" if v == best else f"{v:.4f}" for v in values]
            lines.append(table_row(name, *cells))
        lines.append("")
    lines += ["```", ranked.format(), "```"]
    seconds = sum(r["seconds"] for r in rows) / 2 / len(reps)  # each run fills two rows
    lines += ["", f"Compute: {seconds / 60:.0f} CPU minutes per repetition."]
    from streamboost.experiments import figures

    figure = figures.critical_difference_diagram(
        ranked.mean_ranks,
        ranked.critical_difference,
        title="Variants online, thesis protocol (area under the Brier curve)",
    )
    figures.save(figure, out.with_name(out.stem + "_cd"))
    return "\n".join(lines)


def main(argv: typing.Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--n-models", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir", type=Path, default=protocol.default_data_dir())
    parser.add_argument("--out", type=Path, help="default simulations/variants_protocol.md")
    parser.add_argument(
        "--quick", action="store_true", help="2 small datasets, 10 members, report to a temp dir"
    )
    parser.add_argument("--from-csv", type=Path, help="rebuild the report from a raw CSV")
    parser.add_argument(
        "--variants", nargs="+", choices=sorted(VARIANTS), default=list(VARIANTS),
        help="the variants to run (default: all)",
    )
    args = parser.parse_args(argv)
    command = shlex.join(["python", "simulations/variants_protocol.py", *(argv or sys.argv[1:])])
    if args.out is None:
        folder = Path(tempfile.mkdtemp()) if args.quick else HERE
        args.out = folder / "variants_protocol.md"
    if args.from_csv:
        rows = read_csv(args.from_csv)
        reps = len({r["rep"] for r in complete(rows)})
        command = (
            f"python simulations/variants_protocol.py --reps {reps}`, this report rebuilt "
            f"from its rows by `{command}"
        )
    else:
        names = ("parkinsons", "survival") if args.quick else tuple(protocol.THESIS_TABLE_8_1)
        n_models = 10 if args.quick else args.n_models
        raw = args.out.with_suffix(".csv")
        rows = run(names, args.reps, n_models, args.jobs, raw, args.data_dir, args.variants)
    text = report(rows, command, args.out)
    args.out.write_text(f"# Cost-sensitive variants on the thesis protocol\n\n{text}\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
