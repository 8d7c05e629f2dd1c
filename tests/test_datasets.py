"""Registry, file lookup/verification/download and loading of the 23 shared datasets."""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import itertools
import os
import re
import shutil
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamboost import datasets
from streamboost.datasets import REGISTRY, ChecksumError, DatasetSpec
from streamboost.experiments.grid import check_dataset
from tests.shared_data import SHARED, needs_shared


@functools.cache
def manifest() -> dict[str, dict]:
    """Per file: rows, features, sha256 and class counts, parsed from MANIFEST.md's tables."""
    entries = {}
    for line in (SHARED / "MANIFEST.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 8 or not cells[0].endswith(".csv.gz`"):
            continue
        counts = dict(re.findall(r"(\S+?):(\d+)", cells[4]))
        entries[cells[0].strip("`").removesuffix(".csv.gz")] = {
            "rows": int(cells[1].replace(",", "")),
            "features": int(cells[2].split()[0]),
            "n_classes": int(cells[3]),
            "counts": {k: int(v) for k, v in counts.items()},
            "sha256": cells[7].strip("`"),
        }
    return entries


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    """No user data dir, an empty private cache, no mirror."""
    monkeypatch.delenv("STREAMBOOST_DATA", raising=False)
    monkeypatch.delenv("STREAMBOOST_DATA_URL", raising=False)
    monkeypatch.setenv("STREAMBOOST_CACHE", str(tmp_path / "cache"))


@needs_shared
def test_registry_covers_every_manifest_file():
    assert len(manifest()) == 23
    assert set(manifest()) <= set(REGISTRY)


@needs_shared
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_spec_matches_manifest_and_file(name):
    spec, entry = REGISTRY[name], manifest()[name]
    assert spec.sha256 == entry["sha256"]
    assert (spec.n_rows, spec.n_features) == (entry["rows"], entry["features"])
    assert len(spec.classes) == entry["n_classes"]
    assert spec.size == (SHARED / spec.filename).stat().st_size
    # outdoor's manifest elides most of its 40 equal counts
    assert spec.n_positive == entry["counts"].get(spec.positive, 100)

    ds = datasets.load(name, data_dir=SHARED)
    n = n_pos = 0
    keys = set()
    n_present = 0
    for x, y in ds:
        n += 1
        n_pos += y
        keys.update(x)
        n_present += len(x)
        assert isinstance(y, bool)
    assert (n, len(keys), n_pos) == (entry["rows"], entry["features"], spec.n_positive)
    assert entry["rows"] * entry["features"] - n_present == spec.n_missing
    assert (ds.n_samples, ds.n_features) == (n, len(keys))


@needs_shared
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_balanced_replay_has_equal_classes(name):
    spec = REGISTRY[name]
    ys = [y for _, y in datasets.stream(name, seed=0, balance=True, data_dir=SHARED)]
    k = min(spec.n_positive, spec.n_rows - spec.n_positive)
    assert len(ys) == 2 * k
    assert sum(ys) == k


@needs_shared
def test_positive_label_follows_thesis_rule():
    for name, spec in REGISTRY.items():
        counts = manifest()[name]["counts"]
        if name in ("semeion", "outdoor"):
            continue
        assert counts[spec.positive] == min(counts.values()), name
    # Table B.1: 2 x positives, except the documented cases below.
    for name, spec in REGISTRY.items():
        if spec.thesis_instances is not None and name not in ("pima", "splice"):
            assert spec.thesis_instances == 2 * spec.n_positive, name
    assert REGISTRY["semeion"].positive == "0"
    assert 2 * REGISTRY["semeion"].n_positive == REGISTRY["semeion"].thesis_instances
    assert 2 * REGISTRY["pima"].n_positive == 536 != REGISTRY["pima"].thesis_instances


@needs_shared
def test_splice_thesis_count_after_dropping_ambiguous_rows():
    raw = list(datasets.stream("splice", data_dir=SHARED, drop_ambiguous=True, raw_labels=True))
    assert len(raw) == 3190 - 15
    assert all(set(x.values()) <= set("ACGT") for x, _ in raw)
    ys = [y for _, y in datasets.stream("splice", seed=3, balance=True, drop_ambiguous=True,
                                         data_dir=SHARED)]
    assert len(ys) == REGISTRY["splice"].thesis_instances == 1524
    assert sum(ys) == 762


@needs_shared
def test_raw_labels_and_one_vs_rest():
    labels = [y for _, y in datasets.load("landsat", SHARED, raw_labels=True)]
    assert set(labels) == set(REGISTRY["landsat"].classes)
    ys = [y for _, y in datasets.load("landsat", SHARED)]
    assert ys == [label == "4" for label in labels]


def test_bundled_files_are_used_without_any_directory():
    for name in ("phishing", "weather"):
        place, path = datasets.locate(REGISTRY[name])
        assert place == "bundled"
        assert datasets.sha256_file(path) == REGISTRY[name].sha256
    assert datasets.locate(REGISTRY["electricity"]) is None


def test_bundled_readme_names_licences_and_citations():
    text = (Path(datasets.__file__).parent / "data" / "README.md").read_text()
    for name in ("phishing", "weather"):
        spec = REGISTRY[name]
        assert spec.filename in text and spec.sha256 in text
    assert "CC BY 4.0" in text and "Elwell" in text and "Mohammad" in text


def test_search_order(tmp_path, monkeypatch):
    spec = REGISTRY["phishing"]
    first, second = tmp_path / "first", tmp_path / "second"
    for d in (first, second):
        d.mkdir()
        shutil.copy(datasets.fetch("phishing"), d / spec.filename)
    monkeypatch.setenv("STREAMBOOST_DATA", str(second))
    assert datasets.locate(spec, first) == ("data_dir", first / spec.filename)
    assert datasets.locate(spec) == ("$STREAMBOOST_DATA", second / spec.filename)
    assert datasets.fetch("phishing", first) == first / spec.filename


def test_a_wrong_copy_found_first_is_an_error_not_skipped(tmp_path):
    spec = REGISTRY["phishing"]
    good = datasets.fetch("phishing").read_bytes()
    (tmp_path / spec.filename).write_bytes(good[: len(good) // 2])  # truncated
    actual = hashlib.sha256(good[: len(good) // 2]).hexdigest()
    with pytest.raises(ChecksumError) as info:
        datasets.load("phishing", tmp_path)
    message = str(info.value)
    assert spec.filename in message and spec.sha256 in message and actual in message


def test_file_changed_after_load_is_caught_when_iterated(tmp_path):
    path = tmp_path / "phishing.csv.gz"
    shutil.copy(datasets.fetch("phishing"), path)
    ds = datasets.load("phishing", tmp_path)
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ChecksumError, match=r"phishing\.csv\.gz"):
        next(iter(ds))


def test_missing_file_without_address(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"electricity\.csv\.gz.*STREAMBOOST_DATA_URL"):
        datasets.load("electricity", tmp_path)
    with pytest.raises(KeyError, match="unknown dataset 'nope'"):
        datasets.load("nope")


def _spec_for(path: Path, *, classes=("a", "b"), positive="b", **fields) -> DatasetSpec:
    values = dict(
        name="custom", filename=path.name, sha256=datasets.sha256_file(path),
        size=path.stat().st_size, n_rows=3, n_features=2, classes=classes, positive=positive,
        n_positive=1, time_ordered=True, categorical=False, n_missing=0, source="test",
        citation="test", license="test", homepage="",
    )
    values.update(fields)
    return DatasetSpec(**values)


def _write_gz(path: Path, text: str) -> Path:
    with gzip.open(path, "wt", newline="") as f:
        f.write(text)
    return path


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("f1,f2,target\n1,2,a\n3,4,b\n5,6\n", r"custom\.csv\.gz, line 4: 2 fields, expected 3"),
        ("f1,f2,target\n1,2,a\n3,x,b\n5,6,a\n", r"line 3: column 'f2' is numeric but holds 'x'"),
        ("f1,f2,target\n1,2,a\n3,4,c\n5,6,a\n", r"line 3: label 'c' is neither the positive"),
        ("f1,f2,target\n1,2,a\n3,4,\n5,6,b\n", r"line 3: missing label"),
    ],
)
def test_bad_rows_are_errors(tmp_path, monkeypatch, text, error):
    spec = _spec_for(_write_gz(tmp_path / "custom.csv.gz", text))
    monkeypatch.setitem(REGISTRY, "custom", spec)
    with pytest.raises(ValueError, match=error):
        list(datasets.stream("custom", data_dir=tmp_path))


def test_missing_label_column(tmp_path, monkeypatch):
    spec = _spec_for(_write_gz(tmp_path / "custom.csv.gz", "f1,f2,class\n1,2,a\n"))
    monkeypatch.setitem(REGISTRY, "custom", spec)
    with pytest.raises(ValueError, match=r"label column 'target' not found.*f1, f2, class"):
        datasets.load("custom", tmp_path)


@pytest.mark.parametrize("header", ["f1,f1,target", "f1,target,target"])
def test_a_column_named_twice_is_refused(tmp_path, header):
    """A row as a dict kept the last of the columns and silently dropped the others."""
    path = tmp_path / "twice.csv"
    path.write_text(f"{header}\n1,2,a\n3,4,b\n")
    with pytest.raises(ValueError, match=r"twice\.csv: the header names column\(s\) '(f1|target)' "
                                         r"more than once"):
        list(datasets.stream(str(path)))


@pytest.mark.parametrize("gzipped", [False, True])
@pytest.mark.parametrize("first", ["target", "f1"])
def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path, gzipped, first):
    # Excel's "CSV UTF-8" starts with one: the label column was not found, or the first
    # feature was named '\ufefff1' (a model meeting 'f1' elsewhere would hold two features)
    columns = [first, *({"f1", "target"} - {first}), "f2"]
    rows = "".join(f"{','.join(columns)}\r\n" if i == 0 else
                   ",".join("yes" if c == "target" else str(i) for c in columns) + "\r\n"
                   for i in range(3))
    data = b"\xef\xbb\xbf" + rows.encode()
    path = tmp_path / ("bom.csv.gz" if gzipped else "bom.csv")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    assert list(datasets.stream(str(path), positive="yes")) == [
        ({"f1": 1.0, "f2": 1.0}, True), ({"f1": 2.0, "f2": 2.0}, True)]


def test_spaces_after_commas_and_blank_lines_are_no_part_of_the_data(tmp_path):
    # "a, b, target" (numpy's savetxt with ", ") was refused (label column 'target' not
    # found), and a blank last line (an editor's newline) failed the whole file at its end
    path = tmp_path / "spaced.csv"
    path.write_text("a, colour, target\n1.5, red, yes\n\n-2, blue, no\n\n")
    assert list(datasets.stream(str(path), positive="yes")) == [
        ({"a": 1.5, "colour": "red"}, True), ({"a": -2.0, "colour": "blue"}, False)]
    path.write_text("a,target \n1,yes\n")  # a space before a comma is part of the name
    with pytest.raises(ValueError, match=r"a column is named 'target ', with a space$"):
        list(datasets.stream(str(path)))
    path.write_text("a,target\n1,yes\n,\n")  # a row of empty cells is still a row
    with pytest.raises(ValueError, match=r"line 3: missing label"):
        list(datasets.stream(str(path)))


def test_a_label_column_named_alike_is_suggested(tmp_path):
    path = tmp_path / "cased.csv"
    path.write_text("a,Target\n1,yes\n")
    with pytest.raises(ValueError, match=r"label column 'target' \(did you mean 'Target'\?\) not"):
        list(datasets.stream(str(path)))
    frame = pd.DataFrame({"a": [1.0], "Target": ["yes"]})
    with pytest.raises(ValueError, match=r"'target' label column \(did you mean 'Target'\?\);"):
        datasets.stream(frame)
    with pytest.raises(ValueError, match=r"'target' label column; pass target="):
        datasets.stream(pd.DataFrame({0: [1.0], "y": ["yes"]}))  # nothing close; int columns


@pytest.mark.parametrize("sep", [";", "\t"])
def test_a_file_separated_otherwise_is_named_as_such(tmp_path, sep):
    path = tmp_path / "other.csv"
    path.write_text(sep.join(["f1", "f2", "target"]) + "\n" + sep.join(["1", "2", "a"]) + "\n")
    hint = re.escape(f"looks {sep!r}-separated")
    with pytest.raises(ValueError, match=f"label column 'target' not found.*{hint}"):
        list(datasets.stream(str(path)))
    path.write_text("f1;x,f2,label\n1,2,a\n")  # a ; in a comma-separated header: no hint
    with pytest.raises(ValueError, match=r"not found in the header \(columns: f1;x, f2, label\)$"):
        list(datasets.stream(str(path)))


def test_feature_count_disagreeing_with_registry(tmp_path, monkeypatch):
    spec = _spec_for(_write_gz(tmp_path / "custom.csv.gz", "f1,target\n1,a\n"))
    monkeypatch.setitem(REGISTRY, "custom", spec)
    with pytest.raises(ValueError, match="1 feature columns, the registry says 2"):
        datasets.load("custom", tmp_path)


@pytest.fixture
def http_dir(tmp_path):
    """A directory served by a local HTTP server on 127.0.0.1; yields (dir, base URL)."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_download_into_cache(http_dir, monkeypatch, capsys, tmp_path):
    root, base = http_dir
    spec = REGISTRY["phishing"]
    shutil.copy(datasets.fetch("phishing"), root / "served.csv.gz")
    remote = DatasetSpec(**{**spec.__dict__, "name": "remote", "filename": "remote.csv.gz",
                            "url": f"{base}/served.csv.gz"})
    monkeypatch.setitem(REGISTRY, "remote", remote)
    assert "download" in datasets.describe_registry()
    ds = datasets.load("remote", progress=True)
    assert ds.path == tmp_path / "cache" / "remote.csv.gz"
    assert datasets.sha256_file(ds.path) == spec.sha256
    assert "remote.csv.gz" in capsys.readouterr().err  # progress was shown
    assert sum(y for _, y in ds) == spec.n_positive
    (root / "served.csv.gz").unlink()  # now served from the cache
    assert datasets.fetch("remote", progress=False) == ds.path
    assert datasets.describe_registry().count("cache") == 1


def test_download_progress_without_tqdm_is_a_line_of_kib(http_dir, monkeypatch, capsys):
    root, base = http_dir
    served = root / "served.csv"
    served.write_bytes(b"a,target\n" + b"1.0,1\n" * 50_000)  # 293 KiB: several chunks
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # the `progress` extra not installed
    path = datasets.fetch_url(f"{base}/served.csv", progress=True)
    assert path.read_bytes() == served.read_bytes()
    err = capsys.readouterr().err
    kib = f"{served.stat().st_size / 1024:,.0f}"
    assert err.endswith(f"\rdownloading served.csv: {kib} / {kib} KiB\n")
    assert err.count("\r") >= 2  # updated as chunks come, on one line


def test_download_disabled_or_corrupt(http_dir, monkeypatch, tmp_path):
    root, base = http_dir
    (root / "electricity.csv.gz").write_bytes(b"not the file")
    monkeypatch.setenv("STREAMBOOST_DATA_URL", base)
    with pytest.raises(FileNotFoundError, match="download=False"):
        datasets.fetch("electricity", download=False)
    with pytest.raises(ChecksumError, match=rf"{base}/electricity.csv.gz.*nothing was saved"):
        datasets.fetch("electricity", progress=False)
    assert not list((tmp_path / "cache").iterdir())


@needs_shared
def test_download_from_mirror(http_dir, monkeypatch):
    root, base = http_dir
    shutil.copy(SHARED / "chess_zliobaite.csv.gz", root)
    monkeypatch.setenv("STREAMBOOST_DATA_URL", base + "/")
    assert datasets.download_url(REGISTRY["chess_zliobaite"]).endswith(
        "127.0.0.1:" + base.rsplit(":", 1)[1] + "/chess_zliobaite.csv.gz")
    ds = datasets.load("chess_zliobaite", progress=False)
    assert sum(1 for _ in ds) == 503


@needs_shared
def test_describe_registry_table():
    table = datasets.describe_registry(SHARED)
    lines = table.splitlines()
    assert len(lines) == 1 + len(REGISTRY)
    row = {line.split()[0]: line.split() for line in lines[1:]}
    assert row["electricity"][1] == "45,312" and row["electricity"][-1] == "data_dir"
    assert row["electricity"][-3:-1] == ["678", "KiB"]
    assert row["musk2"][-3:-1] == ["1.24", "MiB"]
    assert "UP (19237/45312)" in table
    assert all(r[-1] == "data_dir" for r in row.values())
    empty = datasets.describe_registry()
    assert {line.split()[-1] for line in empty.splitlines()[1:]} == {"bundled", "missing"}


def test_a_csv_address_streams_like_the_file_and_is_downloaded_once(http_dir, tmp_path):
    root, base = http_dir
    local = datasets.fetch("phishing")
    shutil.copy(local, root / "served.csv.gz")
    url = f"{base}/served.csv.gz"
    expected = list(itertools.islice(datasets.stream(str(local), seed=1), 300))
    assert list(itertools.islice(datasets.stream(url, seed=1), 300)) == expected
    (root / "served.csv.gz").unlink()  # read from the cache from now on
    assert list(itertools.islice(datasets.stream(url, seed=1), 300)) == expected
    cached = datasets.fetch_url(url)
    assert cached.parent == tmp_path / "cache" / "urls" and cached.name.endswith("served.csv.gz")
    assert datasets.fetch_url(url, sha256=REGISTRY["phishing"].sha256) == cached
    with pytest.raises(ChecksumError, match=r"cached copy .* does not have sha256 0{64}"):
        datasets.fetch_url(url, sha256="0" * 64)
    assert check_dataset(url) == url


def test_two_addresses_of_one_file_name_are_cached_apart(http_dir):
    root, base = http_dir
    for folder, label in [("a", "yes"), ("b", "no")]:
        (root / folder).mkdir()
        (root / folder / "data.csv").write_text(f"x,target\n1,{label}\n")
    first, second = (datasets.fetch_url(f"{base}/{folder}/data.csv") for folder in "ab")
    assert first != second and first.name.endswith("data.csv")
    assert (first.read_text(), second.read_text()) == ("x,target\n1,yes\n", "x,target\n1,no\n")
    assert datasets.files.is_url(base.upper())  # a scheme in capitals is still the scheme


def test_a_bad_address_is_refused_and_nothing_is_saved(http_dir, tmp_path):
    root, base = http_dir
    (root / "data.csv").write_text("a,target\n1,yes\n")
    with pytest.raises(ChecksumError, match=r"data\.csv: download from .* nothing was saved"):
        datasets.fetch_url(f"{base}/data.csv", sha256="0" * 64)
    with pytest.raises(ConnectionError, match=r"could not download .*/absent\.csv: HTTP Error 404"):
        datasets.fetch_url(f"{base}/absent.csv")
    for short_or_upper in ("abc", "ABC", "A" * 64):
        with pytest.raises(ValueError, match="sha256 must be 64 lowercase hex digits"):
            datasets.fetch_url(f"{base}/data.csv", sha256=short_or_upper)
    assert not list((tmp_path / "cache" / "urls").glob("*"))
    with pytest.raises(ValueError, match=r"neither a registered name .* nor an http"):
        check_dataset("ftp://example.org/data.csv")


# ------------------------------------------------ a file's label counts, and its numbers checked


def test_a_files_label_counts_are_read_once_until_it_changes(tmp_path, monkeypatch):
    """A run asks for a file's classes more than once before it starts (its positive class,
    the counts it prints, a given positive label checked): one pass serves them all, until the
    file is written again."""
    from streamboost.datasets import reader

    path = tmp_path / "pets.csv"
    path.write_text("a,target\n1,cat\n2,dog\n3,dog\n")
    passes = []
    rows = reader.CSVTable._rows
    monkeypatch.setattr(reader.CSVTable, "_rows", lambda self: passes.append(1) or rows(self))
    assert datasets.class_counts(path) == {"dog": 2, "cat": 1}
    assert datasets.positive_label(path) == "cat"
    assert datasets.positive_label(path, positive="dog") == "dog"  # checked against the counts
    datasets.class_counts(path)["dog"] = 99  # the caller's copy
    assert datasets.class_counts(path) == {"dog": 2, "cat": 1}
    assert len(passes) == 1
    path.write_text("a,target\n1,cat\n2,cat\n3,fox\n4,fox\n5,fox\n")
    os.utime(path, ns=(1, 1))  # even with a modification time set back, its size changed
    assert datasets.class_counts(path) == {"fox": 3, "cat": 2}
    with pytest.raises(ValueError, match="'dog'"):
        datasets.positive_label(path, positive="dog")
    assert len(passes) == 2


def test_a_files_label_counts_are_checked_against_the_classes_asked_for(tmp_path):
    # counted once without classes, the file is still checked when asked with two: a third
    # label is refused, not served from the counts
    from streamboost.datasets import CSVTable

    path = tmp_path / "pets.csv"
    path.write_text("a,target\n1,cat\n2,dog\n3,fox\n")
    assert CSVTable(path).labels() == {"cat": 1, "dog": 1, "fox": 1}
    with pytest.raises(ValueError, match="line 4: label 'fox' is neither"):
        CSVTable(path, classes=("cat", "dog")).labels()


def test_a_nan_cell_of_a_number_column_is_a_missing_value(tmp_path):
    from streamboost.datasets import CSVTable

    path = tmp_path / "t.csv"
    path.write_text("a,b,target\n1,nan,y\nNaN,2,n\n")
    assert list(CSVTable(path)) == [({"a": 1.0}, "y"), ({"b": 2.0}, "n")]


NUMBER_CELLS = ["1.5", "-2", "0", "nan", "NaN", "inf", "-inf", "1e150", "-1e150", "1e151",
                "1e300", "", "x"]


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(st.lists(st.sampled_from(NUMBER_CELLS), min_size=3, max_size=3),
                      min_size=1, max_size=5))
def test_a_numeric_file_reads_as_every_cell_checked_one_by_one(cells, tmp_path_factory):
    """The all-numeric fast path (every cell a float, their magnitudes and sum checked at once)
    gives the rows, or the first error, that checking every cell one by one gives: a NaN
    cell is missing, inf and numbers beyond 1e150 are refused, wherever they stand."""
    from streamboost.datasets import CSVTable

    path = tmp_path_factory.mktemp("numbers") / "t.csv"
    path.write_text("a,b,c,target\n" + "".join(",".join(row) + ",y\n" for row in cells))
    table = CSVTable(path, numeric=True)
    try:
        expected = [(table._convert(row, line), "y") for line, row in enumerate(cells, start=2)]
    except ValueError as error:
        with pytest.raises(ValueError, match=f"^{re.escape(str(error))}$"):
            list(table)
        return
    assert list(table) == expected
