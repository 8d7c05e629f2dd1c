"""streamboost.atomic: a file appears whole or not at all, and what a killed writer left goes."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from streamboost import atomic


def test_a_directory_target_is_refused_before_anything_is_made(tmp_path):
    refused = pytest.raises(IsADirectoryError, match="is a directory; expected a file path")
    with refused, atomic.written(tmp_path):
        pass
    assert list(tmp_path.iterdir()) == []


def test_a_failing_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError, match="disk full"), atomic.written(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("disk full")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_a_failed_temporary_file_puts_the_ctrl_c_handler_back(tmp_path, monkeypatch):
    before = signal.getsignal(signal.SIGINT)

    def full(*args, **kwargs):
        raise OSError("no space left on device")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", full)
    with pytest.raises(OSError, match="no space left"), atomic.written(tmp_path / "out.txt"):
        pass
    assert signal.getsignal(signal.SIGINT) is before


def test_off_the_main_thread_the_file_is_written_and_no_handler_is_touched(tmp_path):
    handlers, errors = [], []

    def write():
        try:
            with atomic.written(tmp_path / "out.txt") as tmp:
                handlers.append(signal.getsignal(signal.SIGINT))
                tmp.write_text("done")
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    assert errors == [] and (tmp_path / "out.txt").read_text() == "done"
    assert handlers == [signal.getsignal(signal.SIGINT)]  # the main thread's, left alone


def test_remove_stale_removes_only_old_temporaries(tmp_path):
    old = tmp_path / f".a.json.x1{atomic.TMP_SUFFIX}"
    fresh = tmp_path / f".b.json.x2{atomic.TMP_SUFFIX}"
    kept = tmp_path / "a.json"
    for path in (old, fresh, kept):
        path.write_text("{}")
    now = time.time()
    os.utime(old, (now - 900, now - 900))  # older than 600 s, by half as much again
    os.utime(fresh, (now - 300, now - 300))
    os.utime(kept, (now - 3600, now - 3600))  # old, but not a temporary file
    assert atomic.remove_stale(tmp_path, older_than=600) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([fresh.name, kept.name])
    assert atomic.remove_stale(tmp_path / "missing") == 0


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_written_file_has_the_permissions_a_plain_open_gives(tmp_path):
    """Not the temporary file's owner-only 0o600: 0o666 less the umask for a new file (a plain
    `open` beside it shows what that is), the replaced file's own bits otherwise."""
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    # a umask other than the usual 0o022, and one that clears none of 0o644's bits, so that
    # neither the usual nor 0o644 less the mask gives these bits by chance
    mask = os.umask(0o003)
    try:
        (tmp_path / "masked.txt").write_text("x")
        with atomic.written(tmp_path / "new.txt") as tmp:
            tmp.write_text("done")
    finally:
        os.umask(mask)
    mode = lambda name: (tmp_path / name).stat().st_mode & 0o777  # noqa: E731
    assert mode("new.txt") == mode("masked.txt") == 0o664
    old = tmp_path / "old.txt"
    old.write_text("old")
    old.chmod(0o444)  # read-only: its bits come once the temporary file is written
    with atomic.written(old) as tmp:
        assert tmp.stat().st_mode & 0o200  # the owner may write it (root or not)
        tmp.write_text("new")
    assert old.read_text() == "new" and mode("old.txt") == 0o444
    assert mode("plain.txt") == 0o666 & ~mask
