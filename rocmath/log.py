"""Log sinks for the handles' logging layers (trace, bench, profile).

Where lines go follows rocBLAS: ``<LIB>_LOG_TRACE_PATH``, ``<LIB>_LOG_BENCH_PATH``
and ``<LIB>_LOG_PROFILE_PATH`` name files (``<LIB>`` is the upper-cased library
name, e.g. ``ROCBLAS``); without them lines go to stderr.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

_open_lock = threading.Lock()
_files: dict[str, TextIO] = {}


@atexit.register
def close_logs() -> None:
    """Close the log files opened so far (later lines reopen them)."""
    with _open_lock:
        for f in _files.values():
            f.close()
        _files.clear()


def _sink(path: str | None) -> TextIO:
    if not path:
        return sys.stderr
    with _open_lock:
        f = _files.get(path)
        if f is None:
            f = _files[path] = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - kept open
        return f


def format_value(v: Any) -> str:
    """How one argument appears in a log line (enums by value, as rocBLAS prints them)."""
    if hasattr(v, "ptr") and not isinstance(v, int):
        return f"0x{int(v.ptr):x}"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, complex):
        return f"{v.real!r},{v.imag!r}"
    return str(int(v)) if hasattr(v, "__index__") else str(v)


class Logger:
    """Writes one library's log lines to the files its environment names (or stderr)."""

    def __init__(self, library: str):
        prefix = library.upper()
        self.library = library
        self.paths = {kind: os.environ.get(f"{prefix}_LOG_{kind.upper()}_PATH")
                      for kind in ("trace", "bench", "profile")}

    def write(self, kind: str, line: str) -> None:
        f = _sink(self.paths.get(kind))
        f.write(line + "\n")

    def trace(self, function: str, *args: Any) -> None:
        """A trace line: the function name, then its arguments, comma-separated."""
        self.write("trace", ",".join([function, *(format_value(a) for a in args)]))

    def bench(self, command: str) -> None:
        """A bench line: a command that replays the call."""
        self.write("bench", command)


class ProfileTable:
    """The profile layer's table: calls and device time per distinct problem.

    A problem is a function with its arguments as a ``rocmath-bench`` command (pointers
    left out), so repeated calls on different data count as one problem.  The time is the
    device (kernel) time of the work the calls launched, added as it runs; beside it, the
    roofline model of the same work on the real GPU the device simulates (a model, not a
    measurement: :mod:`rocmath.roofline`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # (function, problem) -> [calls, device ns, roofline model ns]
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.model_of = ""  # the GPU profile the model times are for

    def called(self, key: tuple[str, str]) -> None:
        with self._lock:
            self.rows.setdefault(key, [0, 0, 0.0])[0] += 1

    def ran(self, key: tuple[str, str], ns: int, model_ns: float = 0.0, model_of: str = "") -> None:
        with self._lock:
            row = self.rows.setdefault(key, [0, 0, 0.0])
            row[1] += ns
            row[2] += model_ns
            self.model_of = model_of or self.model_of

    def lines(self) -> list[str]:
        """One YAML flow mapping per problem, most device time first (as rocBLAS's profile
        log is YAML)."""
        with self._lock:
            rows = sorted(self.rows.items(), key=lambda kv: (-kv[1][1], kv[0]))
        out = []
        for (function, problem), (calls, ns, model_ns) in rows:
            us = ns / 1e3
            model = (f"roofline_model_us: {model_ns / 1e3:.3f}, roofline_model_of: \"{self.model_of}\", "
                     if self.model_of else "")
            out.append(f'- {{ function: {function}, calls: {int(calls)}, device_us: {us:.1f}, '
                       f'mean_us: {us / max(calls, 1):.1f}, {model}problem: "{problem}" }}')
        return out

    def flush(self, logger: Logger) -> None:
        """Write the table to the profile log and empty it."""
        for line in self.lines():
            logger.write("profile", line)
        with self._lock:
            self.rows.clear()




class _Current(threading.local):
    entry: tuple[ProfileTable, tuple[str, str]] | None = None  # (a default read without a caught AttributeError)


_current = _Current()


@contextlib.contextmanager
def profiling(table: ProfileTable, key: tuple[str, str]) -> Iterator[None]:
    """Count one call of ``key``; the work launched inside (on this thread) adds its time."""
    table.called(key)
    outer = _current.entry
    _current.entry = (table, key)
    try:
        yield
    finally:
        _current.entry = outer


def current_profile() -> tuple[ProfileTable, tuple[str, str]] | None:
    """The (table, problem) of the library call this thread is making, if it is profiled."""
    return _current.entry
