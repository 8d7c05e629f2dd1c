"""Instructions retired by the calling thread, counted by the CPU (Linux `perf_event_open`).

A throughput ratio measured on a shared machine moves by several hundredths between runs (a
neighbour's load, frequency changes); the number of instructions a loop retires does not (to
about 0.1 % here), so a change of a few hundred instructions per example shows where a timer
cannot. It is a proxy, not a speed: it ignores cache misses and how many instructions run per
cycle, so the benchmarks print it beside the timed ratio, never instead of it.

    counter = InstructionCounter.open()  # None where the kernel or CPU refuses
    with counter:
        work()
    counter.count

User-space instructions of this thread only (`exclude_kernel`, `exclude_hv`), which a process
may count on its own under the default `kernel.perf_event_paranoid` (2). x86-64 and aarch64.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import platform
import struct

# syscall numbers of perf_event_open
_SYSCALL = {"x86_64": 298, "aarch64": 241}
# ioctls of linux/perf_event.h: _IO('$', 0), _IO('$', 1), _IO('$', 3)
_ENABLE, _DISABLE, _RESET = 0x2400, 0x2401, 0x2403
# perf_event_attr.flags bits: disabled, exclude_kernel, exclude_hv
_FLAGS = (1 << 0) | (1 << 5) | (1 << 6)


class _Attr(ctypes.Structure):
    # the leading fields of struct perf_event_attr (PERF_ATTR_SIZE_VER1, 72 bytes)
    _fields_ = [
        ("type", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("config", ctypes.c_uint64),
        ("sample_period", ctypes.c_uint64),
        ("sample_type", ctypes.c_uint64),
        ("read_format", ctypes.c_uint64),
        ("flags", ctypes.c_uint64),
        ("wakeup_events", ctypes.c_uint32),
        ("bp_type", ctypes.c_uint32),
        ("config1", ctypes.c_uint64),
        ("config2", ctypes.c_uint64),
    ]


class InstructionCounter:
    """A hardware counter of retired instructions; `count` holds the last `with` block's."""

    def __init__(self, fd: int):
        self.fd = fd
        self.count = 0

    @classmethod
    def open(cls) -> InstructionCounter | None:
        """A counter for this thread, or None where it cannot be had (not Linux, another
        architecture, no hardware counters in a virtual machine, a stricter paranoid level)."""
        number = _SYSCALL.get(platform.machine())
        if platform.system() != "Linux" or number is None:
            return None
        attr = _Attr(type=0, size=ctypes.sizeof(_Attr), config=1, flags=_FLAGS)  # HW, instructions
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        fd = libc.syscall(number, ctypes.byref(attr), 0, -1, -1, 0)  # this thread, any CPU
        return cls(fd) if fd >= 0 else None

    def __enter__(self) -> InstructionCounter:
        fcntl.ioctl(self.fd, _RESET, 0)
        fcntl.ioctl(self.fd, _ENABLE, 0)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.ioctl(self.fd, _DISABLE, 0)
        self.count = struct.unpack("q", os.read(self.fd, 8))[0]

    def close(self) -> None:
        os.close(self.fd)
