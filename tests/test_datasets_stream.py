"""stream(): ordering, seeding, subsampling, passes, drift, feature handling and sources."""

from __future__ import annotations

import csv
import gzip
import importlib
import math
import re
import statistics
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest
from river import datasets as river_datasets

from streamboost import datasets
from streamboost.datasets import REGISTRY, ConceptSwitch, LabelFlip, PriorShift, stream
from tests.shared_data import SHARED, needs_shared


def file_rows(name: str) -> list[list[str]]:
    with gzip.open(datasets.fetch(name), "rt", newline="") as f:
        return list(csv.reader(f))[1:]


def ys(s) -> list:
    return [y for _, y in s]


def test_time_ordered_stream_replays_the_file_in_order():
    rows = file_rows("weather")
    pairs = list(stream("weather"))
    assert [y for _, y in pairs] == [r[-1] == "1" for r in rows]
    assert pairs[7][0]["temp"] == float(rows[7][0])


def test_uci_default_is_shuffled_and_seeded():
    # phishing is registered as time ordered; pretend a copy is an arbitrary-order UCI set.
    spec = REGISTRY["phishing"]
    order = [x["URL_Length"] for x, _ in stream("phishing")]
    a = [x["URL_Length"] for x, _ in stream("phishing", seed=1, shuffle=True)]
    b = [x["URL_Length"] for x, _ in stream("phishing", seed=1, shuffle=True)]
    c = [x["URL_Length"] for x, _ in stream("phishing", seed=2, shuffle=True)]
    assert a == b != c and a != order and sorted(a) == sorted(order)
    assert spec.time_ordered and not REGISTRY["sonar"].time_ordered


@needs_shared
def test_uci_set_is_shuffled_by_default():
    order = [x["A1"] for x, _ in stream("sonar", data_dir=SHARED, shuffle=False)]
    default = [x["A1"] for x, _ in stream("sonar", data_dir=SHARED, seed=0)]
    assert default != order and sorted(default) == sorted(order)


def test_balance_keeps_order_and_is_seeded():
    full = [(x["temp"], y) for x, y in stream("weather")]
    a = [(x["temp"], y) for x, y in stream("weather", balance=True, seed=5)]
    b = [(x["temp"], y) for x, y in stream("weather", balance=True, seed=5)]
    assert a == b
    assert sum(y for _, y in a) == len(a) // 2 == 5698
    assert all(y for _, y in a[::1] if y) and [p for p in full if p[1]] == [p for p in a if p[1]]
    it = iter(full)  # a is a subsequence of the file order
    assert all(any(p == q for q in it) for p in a)


@pytest.mark.parametrize("prior", [0.01, 0.05, 0.2, 0.8])
def test_positive_prior_is_exact(prior):
    n_pos, n_neg = 5698, 12461
    labels = ys(stream("weather", positive_prior=prior, seed=0))
    k_pos, k_neg = sum(labels), len(labels) - sum(labels)
    if prior < n_pos / (n_pos + n_neg):
        assert k_neg == n_neg and k_pos == round(prior * n_neg / (1 - prior))
    else:
        assert k_pos == n_pos and k_neg == round(n_pos * (1 - prior) / prior)
    assert abs(k_pos / len(labels) - prior) < 1e-3


def test_positive_prior_with_too_few_rows():
    with pytest.raises(ValueError, match="keeps 0 positives"):
        stream([({"a": 1.0}, True)] + [({"a": 0.0}, False)] * 10, positive_prior=0.01)
    with pytest.raises(ValueError, match="keeps 1 positives and 0 negatives"):
        stream([({"a": 1.0}, True)] + [({"a": 0.0}, False)] * 10, positive_prior=0.9)


def test_passes_replay_the_same_subsample():
    one = [(tuple(x.values()), y) for x, y in stream("phishing", balance=True, seed=3,
                                                     shuffle=True)]
    three = [(tuple(x.values()), y) for x, y in stream("phishing", balance=True, seed=3,
                                                       shuffle=True, passes=3)]
    n = len(one)
    assert len(three) == 3 * n
    assert sorted(three[:n]) == sorted(three[n:2 * n]) == sorted(three[2 * n:]) == sorted(one)
    assert three[:n] != three[n:2 * n]  # reshuffled each pass
    unshuffled = list(stream("weather", passes=2))
    assert unshuffled[:18159] == unshuffled[18159:]


def test_yielded_dicts_do_not_alias_stored_rows():
    s = stream("weather", passes=2)
    first = next(s)[0]
    first["temp"] = -999.0
    rest = list(s)
    assert rest[18158][0]["temp"] != -999.0


def test_plain_stream_memory_is_flat():
    def peak(n):
        tracemalloc.start()
        for _ in zip(range(n), stream("weather"), strict=False):
            pass
        result = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return result

    small, large = peak(1000), peak(18000)
    assert large < 1.5 * small + 64 * 1024, (small, large)


def test_label_flip_abrupt_and_gradual():
    truth = ys(stream("weather"))
    flipped = ys(stream("weather", drift=LabelFlip(position=1000)))
    assert flipped == truth[:1000] + [not y for y in truth[1000:]]
    gradual = ys(stream("weather", seed=1, drift=LabelFlip(position=9000, width=4000)))
    changed = [a != b for a, b in zip(gradual, truth, strict=True)]
    assert sum(changed[:4000]) < 20 and sum(changed[-4000:]) > 3980
    assert 0.35 < statistics.mean(changed[8500:9500]) < 0.65


def test_concept_switch_between_datasets():
    pairs = list(stream("phishing", drift=ConceptSwitch("weather", position=100)))
    assert all("temp" not in x for x, _ in pairs[:100])
    assert all("temp" in x for x, _ in pairs[100:])
    assert len(pairs) == 100 + 18159
    assert ys(pairs[100:]) == ys(stream("weather"))
    mixed = list(stream("phishing", seed=0, drift=ConceptSwitch(
        stream("weather", positive_prior=0.2, seed=0), position=5000, width=2000)))
    source = ["temp" in x for x, _ in mixed]
    assert sum(source[:3000]) < 25 and 0.3 < statistics.mean(source[4500:5500]) < 0.7


def test_prior_shift_follows_schedule():
    shift = PriorShift([(0, 0.6), (6000, 0.1)])
    labels = ys(stream("weather", seed=2, drift=shift))
    for start, stop in [(0, 1000), (2500, 3500), (6000, len(labels))]:
        target = statistics.fmean(shift.target(t) for t in range(start, stop))
        assert abs(statistics.mean(labels[start:stop]) - target) < 0.05, (start, target)
    assert shift.target(3000) == pytest.approx(0.35) and shift.target(9000) == 0.1


@pytest.mark.parametrize("share", [0.3, 0.8])
def test_prior_shift_keeps_the_target_share_and_thins_only_the_class_in_excess(share):
    # 40,000 rows, half positive: the kept share is the target within 4 standard errors, and
    # all of the class the target wants more of is kept (positives kept with probability
    # min(1, q (1 - pi) / (pi (1 - q))), negatives with its inverse)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.random(40_000), "target": rng.random(40_000) < 0.5})
    pi = frame["target"].mean()
    labels = ys(stream(frame, seed=1, drift=PriorShift([(0, share)])))
    kept = statistics.mean(labels)
    assert abs(kept - share) < 4 * math.sqrt(share * (1 - share) / len(labels))
    scarce = share > 0.5  # the class kept whole
    assert labels.count(scarce) == int((frame["target"] == scarce).sum())
    assert pi != pytest.approx(share, abs=0.1)


def test_drift_options_are_validated():
    with pytest.raises(ValueError, match="position must be an int"):
        LabelFlip(position=-1)
    with pytest.raises(ValueError, match="increase"):
        PriorShift([(10, 0.5), (5, 0.1)])
    with pytest.raises(ValueError, match="prior must be in"):
        PriorShift([(0, 1.0)])
    with pytest.raises(ValueError, match=r"^width must be a finite number >= 0, got inf$"):
        LabelFlip(10, width=float("inf"))
    # a prior shift resamples the two classes: an input of one class has nothing to shift
    with pytest.raises(ValueError, match=r"PriorShift needs both classes in the input, positive "
                                         r"share 1\.0"):
        list(stream([({"a": 1.0}, True)] * 20, drift=PriorShift([(5, 0.5)]), positive=True))
    with pytest.raises(ValueError, match="raw_labels"):
        stream("weather", raw_labels=True, drift=LabelFlip(10))
    # a name is refused whole (it used to be read as a sequence, naming its first letter)
    with pytest.raises(TypeError, match=r"drift must be .*LabelFlip.*, got 'flip'$"):
        stream("weather", drift="flip")
    with pytest.raises(TypeError, match=r"got 3$"):
        stream("weather", drift=3)
    with pytest.raises(TypeError, match=r"got 'x' in \[LabelFlip"):
        stream("weather", drift=[LabelFlip(10), "x"])


@needs_shared
def test_categorical_encoding_and_missing_values():
    raw = list(stream("congress", data_dir=SHARED, shuffle=False))
    assert sum(16 - len(x) for x, _ in raw) == REGISTRY["congress"].n_missing == 392
    onehot = list(stream("congress", data_dir=SHARED, shuffle=False, encode="onehot"))
    for (x, _), (e, _) in zip(raw, onehot, strict=True):
        assert e == {f"{k}_{v}": 1 for k, v in x.items()}
    ordinal = list(stream("congress", data_dir=SHARED, shuffle=False, encode="ordinal"))
    first = ordinal[0][0]
    assert set(first) == set(raw[0][0]) and set(first.values()) <= {1, 2}
    imputed = list(stream("congress", data_dir=SHARED, shuffle=False, missing="impute"))
    assert all(len(x) == 16 for x, _ in imputed[10:])
    row = next(i for i, (x, _) in enumerate(raw) if i > 10 and len(x) < 16)
    k = next(k for k in imputed[row][0] if k not in raw[row][0])
    seen = [x[k] for x, _ in raw[:row] if k in x]
    assert imputed[row][0][k] == max(set(seen), key=seen.count)


def test_numeric_imputation_uses_past_mean_only():
    data = [({"a": 1.0}, True), ({"a": 3.0}, False), ({}, True), ({"a": 10.0}, False)]
    out = [x for x, _ in stream(data, missing="impute")]
    assert out == [{"a": 1.0}, {"a": 3.0}, {"a": 2.0}, {"a": 10.0}]


def test_imputation_learns_from_observed_values_only_and_leaves_the_input_alone():
    # three missing colours filled with "red", the mode then; counted as seen, they would keep
    # "red" the mode after two more "blue"s
    colours = ["blue", "red", "red", None, None, None, "blue", "blue", None]
    data = [({} if c is None else {"colour": c}, True) for c in colours]
    out = [x["colour"] for x, _ in stream(data, missing="impute")]
    assert out[3:6] == ["red"] * 3 and out[8] == "blue"
    assert [x for x, _ in data] == [{} if c is None else {"colour": c} for c in colours]


def test_online_scaling_matches_running_statistics():
    raw = [x["temp"] for x, _ in stream("weather")][:500]
    scaled = [x["temp"] for x, _ in stream("weather", scale=True)][:500]
    for t in (5, 100, 499):
        mean, sd = statistics.fmean(raw[: t + 1]), statistics.pstdev(raw[: t + 1])
        assert math.isclose(scaled[t], (raw[t] - mean) / sd, rel_tol=1e-6)


def test_unscaled_features_pass_the_scaler_as_they_are():
    raw = [x for x, _ in stream("weather")][:300]
    scaled = [x for x, _ in stream("weather", scale=True)][:300]
    kept = [x for x, _ in stream("weather", scale=True, unscaled={"temp"})][:300]
    assert [x["temp"] for x in kept] == [x["temp"] for x in raw]
    assert [x["temp"] for x in kept] != [x["temp"] for x in scaled]
    # the other features scale as before: the scaler never saw the unscaled one
    assert [{k: v for k, v in x.items() if k != "temp"} for x in kept] == [
        {k: v for k, v in x.items() if k != "temp"} for x in scaled]
    # a name no example has changes nothing
    assert [x for x, _ in stream("weather", scale=True, unscaled=["wind"])][:300] == scaled


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"scale": True, "unscaled": "temp"}, TypeError,
     "unscaled must be a collection of feature names .* got 'temp'"),
    ({"unscaled": ["temp"]}, ValueError, r"unscaled=\['temp'\] names features .* scale=False"),
])
def test_unscaled_is_checked_at_the_call(kwargs, error, match):
    with pytest.raises(error, match=match):
        stream("weather", **kwargs)


def test_csv_path_sources(tmp_path):
    text = "num,cat,target\n1.5,a,x\n,b,y\n2,,x\n3,a,x\n"
    plain = tmp_path / "t.csv"
    plain.write_text(text)
    gz = tmp_path / "t.csv.gz"
    with gzip.open(gz, "wt") as f:
        f.write(text)
    for path in (plain, str(gz)):
        pairs = list(stream(path))
        assert pairs == [({"num": 1.5, "cat": "a"}, False), ({"cat": "b"}, True),
                         ({"num": 2.0}, False), ({"num": 3.0, "cat": "a"}, False)]
    assert ys(stream(plain, positive="x")) == [True, False, True, True]
    assert ys(stream(plain, raw_labels=True)) == ["x", "y", "x", "x"]
    bad = tmp_path / "bad.csv"
    bad.write_text("num,target\n" + "1,a\n" * 1000 + "oops,b\n")
    with pytest.raises(ValueError, match=r"line 1002: column 'num' is numeric but holds 'oops'"):
        list(stream(bad))
    with pytest.raises(FileNotFoundError, match="neither a registered dataset"):
        stream(tmp_path / "nope.csv")


def test_dataframe_and_array_sources():
    df = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": ["u", "v", None], "target": [0, 1, 0]})
    assert list(stream(df)) == [({"a": 1.0, "b": "u"}, False), ({"b": "v"}, True),
                                ({"a": 3.0}, False)]
    X = np.array([[0.0, 1.0], [2.0, np.nan]])
    assert list(stream((X, np.array(["p", "q"])), positive="q")) == [
        ({0: 0.0, 1: 1.0}, False), ({0: 2.0}, True)]
    assert list(stream((df[["a"]], df["target"]), positive=0))[1] == ({}, False)
    with pytest.raises(ValueError, match="'target' label column"):
        stream(df.drop(columns="target"))
    with pytest.raises(ValueError, match="X has 2 rows but y has 3"):
        stream((X, [1, 0, 1]))
    with pytest.raises(ValueError, match="missing label"):
        list(stream((X, [1.0, float("nan")]), positive=1.0))


@pytest.mark.parametrize("columns", [["a", "a", "target"], ["a", "target", "target"]])
def test_a_frame_naming_a_column_twice_is_refused(columns):
    """`to_dict` kept the last of the columns and dropped the others, with a pandas warning;
    a second label column read as two labels per row."""
    df = pd.DataFrame([[1.0, 2.0, 0], [3.0, 4.0, 1]], columns=columns)
    twice = re.escape(repr(columns[1]))
    with pytest.raises(ValueError, match=f"names column\\(s\\) {twice} more than once"):
        stream(df)
    X, y = df.iloc[:, :2], df.iloc[:, 2]  # (X, y): refused where X names a column twice
    if columns[0] == columns[1]:
        with pytest.raises(ValueError, match=f"names column\\(s\\) {twice} more than once"):
            stream((X, y))
    else:
        assert next(iter(stream((X, y)))) == ({"a": 1.0, "target": 2.0}, False)


def test_river_dataset_and_generator_sources():
    phishing = river_datasets.Phishing()
    labels = ys(stream(phishing))
    assert labels == [y for _, y in phishing] and isinstance(labels[0], bool)
    generator = ((x, y) for x, y in stream("weather", balance=True, seed=0))
    assert sum(ys(stream(generator, balance=True, seed=1))) == 5698
    assert next(stream(datasets.load("weather")))[1] is False
    with pytest.raises(TypeError, match="expected an"):
        list(stream([1, 2, 3]))


def test_malformed_sources_are_refused_by_what_is_wrong_and_where(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    cases = [
        ([([1.0], True)], TypeError, r"^example 0: x must be a dict, got list$"),
        ([({"a": 1.0}, True), ({"a": 2.0}, None)], ValueError,
         r"^example 1: missing label None$"),
        ((np.zeros(3), [1, 0, 1]), ValueError, r"^X must be 2-dimensional, got shape \(3,\)$"),
        ([], ValueError, r"^the source yields no examples$"),  # no label to infer a class from
        (str(empty), ValueError, r"empty\.csv: empty file, expected a CSV header row$"),
    ]
    for source, error, match in cases:
        with pytest.raises(error, match=match):
            list(stream(source))


def test_an_endless_generator_needs_a_positive_label_and_no_whole_source_option():
    # inferring the positive label, shuffling, balancing or a prior shift read every example:
    # on an endless River generator that never returned
    sea = river_datasets.synth.SEA(seed=1)
    with pytest.raises(ValueError, match=r"SEA is endless .* pass positive="):
        stream(sea)
    for kwargs, need in [({"shuffle": True}, "shuffle"), ({"passes": 2}, "passes > 1"),
                         ({"balance": True}, "balance"),
                         ({"positive_prior": 0.2}, "positive_prior"),
                         ({"drift": PriorShift([(10, 0.2)])}, "a PriorShift")]:  # fmt: skip
        with pytest.raises(ValueError, match=f"^{need} must read the whole source"):
            stream(sea, positive=True, **kwargs)
    with pytest.raises(ValueError, match=r"ConceptSwitch\(to=SEA\) is endless"):
        stream(sea, positive=True, drift=ConceptSwitch(river_datasets.synth.SEA(variant=3), 5))
    # with its positive label, it streams; a switch to take(n) examples of another concept too
    switched = stream(sea, positive=True, drift=ConceptSwitch(
        river_datasets.synth.SEA(variant=3, seed=2).take(50), position=20))
    first = [pair for pair, _ in zip(switched, range(30), strict=False)]
    assert first[:20] == list(river_datasets.synth.SEA(seed=1).take(20))
    assert first[20:] == list(river_datasets.synth.SEA(variant=3, seed=2).take(10))
    # the new concept's positive label: its own minority class unless given (Agrawal's labels
    # are 0/1 and its function 2 has more 1s than 0s: the class 1 turned negative)
    agrawal = river_datasets.synth.Agrawal
    new = list(agrawal(classification_function=2, seed=1).take(400))
    assert sum(y for _, y in new) > 200
    for positive, expected in [(None, [y == 0 for _, y in new]), (1, [y == 1 for _, y in new])]:
        to = agrawal(classification_function=2, seed=1)
        drifted = stream(agrawal(seed=0), positive=1, drift=ConceptSwitch(
            to if positive is not None else to.take(400), position=100, positive=positive))
        assert [y for (_, y), _ in zip(drifted, range(500), strict=False)][100:] == expected


def test_option_errors_happen_at_call_time():
    for kwargs, error in [
        ({"passes": 0}, "passes must be"),
        ({"positive_prior": 1.5}, "positive_prior must be in"),
        ({"positive_prior": 0.2, "balance": True}, "already fixes the prior"),
        ({"encode": "hash"}, "encode must be one of"),
        ({"missing": "zero"}, "missing must be one of"),
        ({"positive": "7"}, "not a class of 'weather'"),
    ]:
        with pytest.raises(ValueError, match=error):
            stream("weather", **kwargs)
    with pytest.raises(TypeError, match=r"positive_prior must be a number in .*got '0.05'"):
        stream("weather", positive_prior="0.05")  # a string is no prior, not a bad one
    # a switch's positive label too, though the switch would come much later
    with pytest.raises(ValueError, match="not a class of 'weather'"):
        stream("phishing", drift=ConceptSwitch("weather", 5000, positive="7"))
    def first(positive):
        return next(stream("phishing", drift=ConceptSwitch("weather", 0, positive=positive)))[1]

    assert first("0") == next(stream("weather", positive="0"))[1] != first("1")
    with pytest.raises(TypeError, match="seed must be"):
        stream("weather", seed=1.5)
    with pytest.raises(TypeError, match="source must be"):
        stream(42)


@pytest.mark.parametrize(("labels", "positive"), [
    ([1, 0, 0, 0], 1),  # the minority class
    ([0, 1, 1, 1], 0),  # whatever its name
    ([1, 0, 1, 0], 1),  # a tie: the name a positive class goes by (0.8.32 took 0)
    (["no", "yes"] * 2, "yes"),
    ([-1, 1] * 2, 1),
    (["Positive", "negative"] * 2, "Positive"),
    (["b", "a"] * 2, "a"),  # a tie of other names: the smallest as text
    (["A", "yes "] * 2, "yes "),  # the name, surrounding spaces aside (not "A", smaller)
])
def test_the_inferred_positive_label(labels, positive):
    frame = pd.DataFrame({"a": [float(i) for i in range(len(labels))], "target": labels})
    assert datasets.positive_label(frame) == positive
    assert [y for _, y in datasets.stream(frame)] == [label == positive for label in labels]


def test_a_positive_label_no_example_has_is_refused_naming_the_classes(tmp_path):
    # a typo or the wrong type (1 for a CSV file's '1') made every y False, with no error
    path = tmp_path / "labels.csv"
    path.write_text("a,target\n1,0\n2,1\n3,1\n4,0\n")
    with pytest.raises(ValueError, match=re.escape(
            f"positive=1 is not a class of {str(path)!r}: ['0', '1'] (did you mean "
            "positive='1'?)")):
        stream(path, positive=1)
    assert ys(stream(path, positive="1")) == [False, True, True, False]
    path.write_text("a,target\n1,0.0\n2,1.0\n3,Yes\n")  # the same number, another case
    for positive, meant in [(1, "'1.0'"), ("1", "'1.0'"), (0, "'0.0'"), ("yes", "'Yes'"),
                            (" YES", "'Yes'"), ("2", None), ("y", None)]:
        with pytest.raises(ValueError, match="is not a class") as caught:
            stream(path, positive=positive)
        assert str(caught.value).endswith(f"(did you mean positive={meant}?)" if meant
                                          else "['0.0', '1.0', 'Yes']")
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "target": [0, 1, 1]})
    with pytest.raises(ValueError, match=re.escape("(did you mean positive=1?)")):
        stream(frame, positive="1")
    with pytest.raises(ValueError, match=re.escape("is not a class of the source: ['x', 'y']")):
        stream([({"a": 1.0}, "x"), ({"a": 2.0}, "y")], positive="w")
    with pytest.raises(ValueError, match=re.escape("(did you mean positive='1'?)")):
        stream("phishing", positive=1)
    # a dataset object (River's) is not read to check: it may draw every example again
    class Counted:
        reads = 0

        def __iter__(self):
            Counted.reads += 1
            yield from [({"a": 1.0}, 0), ({"a": 2.0}, 1)]

    assert ys(stream(Counted(), positive=1)) == [False, True] and Counted.reads == 1
    # boolean labels: True is their positive, also where no example is positive
    assert ys(stream([({"a": 1.0}, False)], positive=True)) == [False]
    # a switch's source is found and checked when the stream is made, not when the switch
    # comes (after the model learned the first concept)
    with pytest.raises(ValueError, match="positive='w' is not a class of the source"):
        stream("phishing", drift=ConceptSwitch([({"a": 1.0}, "x")], 5000, positive="w"))
    for to, error in [("nowhere", FileNotFoundError), (tmp_path / "no.csv", FileNotFoundError),
                      (42, TypeError)]:
        with pytest.raises(error):
            stream("phishing", drift=ConceptSwitch(to, 5000))
    # a one-shot iterator is read once, when the switch comes: not emptied by the check
    pairs = [({"a": 1.0}, "x"), ({"a": 2.0}, "y")] * 3
    for positive in ("x", None):
        switched = stream("phishing", drift=ConceptSwitch(iter(pairs), 2, positive=positive))
        assert len(ys(switched)) == 2 + len(pairs)


def test_a_river_datasets_positive_label_is_checked_as_it_is_drawn():
    # not read ahead (it may draw every example again), so each label is checked as it comes:
    # one written like the positive label (a '1' for 1) raises before its example is yielded,
    # and a stream that ends with no positive example warns (every y was False)
    class Drawn:
        def __init__(self, labels):
            self.labels = labels

        def __iter__(self):
            return iter([({"a": float(i)}, label) for i, label in enumerate(self.labels)])

    source = stream(Drawn(["0", "0", "1", "0"]), positive=1)
    assert [next(source), next(source)] == [({"a": 0.0}, False), ({"a": 1.0}, False)]
    with pytest.raises(ValueError, match=re.escape(
            "example 2 of Drawn has the label '1', not positive=1 (did you mean positive='1'?)")):
        next(source)
    with pytest.warns(UserWarning, match=re.escape(
            "no example of Drawn had the positive label 'yes' (its labels: ['a', 'b']): every "
            "y was False")):
        assert ys(stream(Drawn(["a", "b", "a"]), positive="yes")) == [False] * 3
    # a regression target's endless values: the labels remembered are bounded, the list cut
    numbers = [float(i) / 7 for i in range(2_500)]
    with pytest.warns(UserWarning, match=r"\(its labels: \[0\.0, 0\.14\d+, .*, \.\.\.\]\)"):
        assert sum(ys(stream(Drawn(numbers), positive=-1.0))) == 0
    watched = importlib.import_module("streamboost.datasets.stream")._Watched(
        Drawn(numbers), -1.0, "x", kept=10)
    with pytest.warns(UserWarning, match=r"\[0\.0, .*, 1\.2857\d+\]\)"):  # the first 10
        assert len(list(watched)) == 2_500
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a positive example, or an endless source: no warning
        assert ys(stream(Drawn(["0", "1", "0"]), positive="1")) == [False, True, False]
        assert sum(ys(stream(river_datasets.Phishing(), positive=True))) == 548
        sea = stream(river_datasets.synth.SEA(seed=1), positive=True)
        assert len([y for y, _ in zip(sea, range(100), strict=False)]) == 100


def test_class_counts_reads_the_labels_as_written(tmp_path):
    path = tmp_path / "three.csv.gz"
    with gzip.open(path, "wt") as f:
        f.write("a,label\n" + "".join(f"{i},{c}\n" for i, c in enumerate("xyyzzz")))
    assert datasets.class_counts(path, target="label") == {"x": 1, "y": 2, "z": 3}
    assert datasets.positive_label(path, target="label") == "x"
    assert datasets.class_counts("phishing") == {"-1": 4898, "1": 6157}
    with pytest.raises(ValueError, match="SEA is endless"):
        datasets.class_counts(river_datasets.synth.SEA(seed=1))


def test_a_prior_shift_schedule_is_checked_with_errors_that_name_it():
    for schedule, error, match in [
        ([], ValueError, "at least one"),
        ([(10, 0.2), (10, 0.3)], ValueError, "positions must increase"),
        ([(0, 1.0)], ValueError, r"prior must be in \(0, 1\), got 1.0"),
        ([(-5, 0.2)], ValueError, "position must be an int >= 0, got -5"),
        ([(0, 0.2, 3)], TypeError, r"sequence of \(position, prior\) pairs, got \[\(0, 0.2, 3\)\]"),
        ("x", TypeError, "pairs, got 'x'"),
        (None, TypeError, "pairs, got None"),
    ]:
        with pytest.raises(error, match=match):
            PriorShift(schedule)
