"""Finding, verifying and downloading dataset files.

A registered file is looked for, in this order, in: the ``data_dir`` the caller names, the
directory in ``$STREAMBOOST_DATA``, the package's bundled data, and the cache directory
(``$STREAMBOOST_CACHE``, default ``~/.cache/streamboost``). The first copy found is used and
must match the registry's sha256 (a wrong copy is an error, never skipped in favour of the next
one). If there is no copy and a download address is known (the spec's ``url``, or
``$STREAMBOOST_DATA_URL/<filename>`` for a mirror of the project's files), the file is
downloaded into the cache, hashed on the way, and kept only if the hash matches.

A CSV file given by its address (``fetch_url``, or ``stream("https://...")``) is downloaded
once into ``<cache>/urls/`` and read from there afterwards; pass its sha256 to have it checked.
"""

from __future__ import annotations

import hashlib
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from ..validation import check_bool, did_you_mean
from .registry import REGISTRY, DatasetSpec, _package_data_dir

__all__ = [
    "ChecksumError",
    "cache_dir",
    "download_url",
    "fetch",
    "fetch_url",
    "locate",
    "sha256_file",
    "verify",
]

_CHUNK = 1 << 16
_SCHEMES = ("http", "https", "file")


class ChecksumError(ValueError):
    """A dataset file whose sha256 is not the one the registry expects.

    Examples
    --------
    A wrong copy found first (here an empty file in `data_dir`) is an error, not skipped:

    >>> import pathlib, tempfile
    >>> from streamboost.datasets import ChecksumError, fetch
    >>> data_dir = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (data_dir / "phishing.csv.gz").write_bytes(b"")
    >>> issubclass(ChecksumError, ValueError)
    True
    >>> fetch("phishing", data_dir)
    Traceback (most recent call last):
    ...
    streamboost.datasets.files.ChecksumError: dataset 'phishing': file ...phishing.csv.gz has
    sha256 e3b0c44298fc1c14..., expected 9ee4aa5e966efd75... (wrong or truncated copy; ...)

    """


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def cache_dir() -> Path:
    """The download cache: ``$STREAMBOOST_CACHE`` or ``~/.cache/streamboost``."""
    env = os.environ.get("STREAMBOOST_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "streamboost"


def _search_path(data_dir: str | os.PathLike | None) -> list[tuple[str, Path]]:
    places = []
    if data_dir is not None:
        places.append(("data_dir", Path(data_dir).expanduser()))
    if env := os.environ.get("STREAMBOOST_DATA"):
        places.append(("$STREAMBOOST_DATA", Path(env).expanduser()))
    places.append(("bundled", _package_data_dir()))
    places.append(("cache", cache_dir()))
    return places


def locate(spec: DatasetSpec, data_dir: str | os.PathLike | None = None) -> tuple[str, Path] | None:
    """Where the file of ``spec`` would be read from: ``(place, path)``, or None if nowhere.

    This only checks that a file exists; ``fetch`` also verifies it.
    """
    for place, directory in _search_path(data_dir):
        path = directory / spec.filename
        if path.is_file():
            return place, path
    return None


def download_url(spec: DatasetSpec) -> str | None:
    """The address ``fetch`` would download ``spec``'s file from, or None."""
    if spec.url:
        return spec.url
    if mirror := os.environ.get("STREAMBOOST_DATA_URL"):
        return f"{mirror.rstrip('/')}/{spec.filename}"
    return None


def verify(path: str | os.PathLike, spec: DatasetSpec) -> Path:
    """``path`` if its sha256 is the one ``spec`` expects, else a ``ChecksumError``."""
    path = Path(path)
    actual = sha256_file(path)
    if actual != spec.sha256:
        raise ChecksumError(
            f"dataset {spec.name!r}: file {path} has sha256 {actual}, expected {spec.sha256} "
            f"(wrong or truncated copy; replace or delete it)"
        )
    return path


def fetch(
    name: str | DatasetSpec,
    data_dir: str | os.PathLike | None = None,
    *,
    download: bool = True,
    progress: bool = True,
) -> Path:
    """Path of a registered dataset's file, verified against its sha256, downloading if needed.

    Parameters
    ----------
    name
        Registry name (or a ``DatasetSpec``).
    data_dir
        Directory searched first.
    download
        Whether a missing file may be downloaded into the cache.
    progress
        Show download progress (tqdm if installed, else a line on stderr).

    Raises
    ------
    KeyError
        Unknown name.
    ChecksumError
        The file found (or downloaded) does not have the registry's sha256.
    FileNotFoundError
        No copy anywhere and no download address (or ``download=False``).

    Examples
    --------
    >>> from streamboost.datasets import fetch
    >>> fetch("weather").name
    'weather.csv.gz'

    """
    download, progress = check_bool("download", download), check_bool("progress", progress)
    spec = _spec(name)
    found = locate(spec, data_dir)
    if found is not None:
        return verify(found[1], spec)
    url = download_url(spec)
    if url is None or not download:
        searched = ", ".join(f"{place} ({d})" for place, d in _search_path(data_dir))
        how = (
            "downloading is disabled (download=False)"
            if url
            else "no download address is known; pass data_dir=, set STREAMBOOST_DATA to a "
            "directory holding it, or set STREAMBOOST_DATA_URL to a mirror"
        )
        raise FileNotFoundError(f"dataset {spec.name!r}: {spec.filename} not found in "
                                f"{searched}; {how}")
    return _download(url, cache_dir() / spec.filename, label=spec.filename,
                     expected=spec.sha256, size=spec.size, progress=progress)


def _spec(name: str | DatasetSpec) -> DatasetSpec:
    if isinstance(name, DatasetSpec):
        return name
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(
            f"unknown dataset {name!r}{did_you_mean(name, REGISTRY)}; registered: "
            f"{', '.join(sorted(REGISTRY))}"
        ) from None


def is_url(source: object) -> bool:
    """Whether `source` is a str naming an http(s) or file address."""
    return isinstance(source, str) and source.split("://", 1)[0].lower() in _SCHEMES


def fetch_url(url: str, *, sha256: str | None = None, progress: bool = True) -> Path:
    """Path of a CSV file (gzipped or not) downloaded from `url` into ``<cache>/urls/``,
    downloading it only the first time; with `sha256`, the file is checked against it.

    Examples
    --------
    >>> from streamboost.datasets import fetch_url
    >>> fetch_url("ftp://example.org/data.csv")
    Traceback (most recent call last):
    ...
    ValueError: 'ftp://example.org/data.csv' is not an http(s) or file address

    """
    progress = check_bool("progress", progress)
    if not is_url(url):
        raise ValueError(f"{url!r} is not an http(s) or file address")
    if sha256 is not None and (len(sha256) != 64 or not set(sha256) <= set("0123456789abcdef")):
        raise ValueError(f"sha256 must be 64 lowercase hex digits, got {sha256!r}")
    name = urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1] or "data.csv"
    key = hashlib.sha256(url.encode()).hexdigest()[:16]  # one cached copy per address
    target = cache_dir() / "urls" / f"{key}-{name}"
    if target.is_file():
        if sha256 is not None and sha256_file(target) != sha256:
            raise ChecksumError(f"{url}: the cached copy {target} does not have sha256 "
                                f"{sha256}; delete it to download again")
        return target
    return _download(url, target, label=name, expected=sha256, size=0, progress=progress)


def _download(
    url: str, target: Path, *, label: str, expected: str | None, size: int, progress: bool
) -> Path:
    """Download `url` to `target` (atomically: a partial file never takes its name), hashed on
    the way and kept only if the hash is `expected` (any hash when None)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    digest = hashlib.sha256()
    try:
        try:
            response = urllib.request.urlopen(url, timeout=60)
        except (urllib.error.URLError, ValueError) as error:
            raise ConnectionError(f"could not download {url}: {error}") from error
        with response, open(partial, "wb") as out:
            total = int(response.headers.get("Content-Length") or size)
            report = _progress_reporter(f"downloading {label}", total, progress)
            while chunk := response.read(_CHUNK):
                digest.update(chunk)
                out.write(chunk)
                report(len(chunk))
            report(None)
        actual = digest.hexdigest()
        if expected is not None and actual != expected:
            raise ChecksumError(
                f"{label}: download from {url} has sha256 {actual}, expected {expected}; "
                "nothing was saved"
            )
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _progress_reporter(label: str, total: int, enabled: bool):
    """A callback ``report(n_bytes)``; ``report(None)`` closes it."""
    if not enabled:
        return lambda n: None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    if tqdm is not None:
        bar = tqdm(total=total, unit="B", unit_scale=True, desc=label, file=sys.stderr)

        def report_bar(n):
            if n is None:
                bar.close()
            else:
                bar.update(n)

        return report_bar
    done = 0

    def report(n):
        nonlocal done
        if n is None:
            print(file=sys.stderr)
            return
        done += n
        print(f"\r{label}: {done / 1024:,.0f} / {total / 1024:,.0f} KiB", end="", file=sys.stderr)

    return report
