"""Writing a file atomically: a temporary file beside the target, renamed over it when complete.

A crash or Ctrl-C while writing never leaves a partial file where a good one was (the rename is
atomic on POSIX and Windows), and the temporary file is removed. `remove_stale` clears the
temporary files that a killed process (SIGKILL) could not remove. The file gets the permissions
a plain `open(path, "w")` would leave (a replaced file's own, else 0o666 less the umask), not
the owner-only ones of a temporary file.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
import time
import typing
from pathlib import Path

__all__ = ["TMP_SUFFIX", "remove_stale", "written"]

TMP_SUFFIX = ".tmp"


@contextlib.contextmanager
def written(path: str | os.PathLike) -> typing.Iterator[Path]:
    """Yield a temporary path to write; on success it replaces `path` (fsynced first).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from streamboost.atomic import written
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with written(target) as tmp:
    ...     _ = tmp.write_text("done")
    >>> target.read_text(), [p.name for p in target.parent.iterdir()]
    ('done', ['out.txt'])

    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; expected a file path")
    path.parent.mkdir(parents=True, exist_ok=True)
    held = _hold_interrupts()
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
        os.close(fd)
    except BaseException:
        _release(held)
        raise
    tmp = Path(name)
    try:
        _release(held)  # a Ctrl-C held off since before the file existed raises here
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        # once written (a read-only file's bits would refuse the write): mkstemp's 0o600 would
        # hide results from group and others
        os.chmod(tmp, _mode(path))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _mode(path: Path) -> int:
    """The permission bits `open(path, "w")` would leave: those of the file it replaces, else
    0o666 less the process's umask."""
    with contextlib.suppress(FileNotFoundError):
        return stat.S_IMODE(path.stat().st_mode)
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where Linux shows it; elsewhere set and
    restored at once (a file another thread creates in between gets the common 0o022)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _hold_interrupts() -> tuple | None:
    """Hold Ctrl-C (SIGINT) off until `_release`, which replays it: one landing between the
    temporary file's creation and the `try` that removes it would leave the file behind (the
    grid's Ctrl-C test met it). The Python handler is swapped for one that notes the signal,
    which works whichever thread the OS delivers it to (a mask on the main thread does not
    when other threads run: a progress bar's, a pool's). Off the main thread, where the
    handler was not set from Python, or where SIGINT is ignored, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGINT)
    if previous is None or previous == signal.SIG_IGN:  # not from Python, or nothing to hold
        return None
    caught: list = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    return previous, caught


def _release(held: tuple | None) -> None:
    """Put the SIGINT handler back and, if a Ctrl-C came meanwhile, deliver it to that handler
    now (the default one raises KeyboardInterrupt here)."""
    if held is None:
        return
    previous, caught = held
    signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


def remove_stale(directory: str | os.PathLike, older_than: float = 600.0) -> int:
    """Remove the temporary files of `written` in `directory` untouched for `older_than`
    seconds (left by a killed process); return how many were removed."""
    directory = Path(directory)
    if not directory.is_dir():
        return 0
    cutoff, removed = time.time() - older_than, 0
    for tmp in directory.glob(f".*{TMP_SUFFIX}"):
        with contextlib.suppress(FileNotFoundError):
            if tmp.stat().st_mtime < cutoff:
                tmp.unlink()
                removed += 1
    return removed
