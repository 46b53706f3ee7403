"""Log sinks for the handles' logging layers (trace, bench, profile).

Where lines go follows rocBLAS: ``<LIB>_LOG_TRACE_PATH``, ``<LIB>_LOG_BENCH_PATH``
and ``<LIB>_LOG_PROFILE_PATH`` name files (``<LIB>`` is the upper-cased library
name, e.g. ``ROCBLAS``); a library with a common variable (rocBLAS's
``ROCBLAS_LOG_PATH``) falls back to it; without them lines go to stderr.  A library
that starts its files anew (rocBLAS opens them with ``O_TRUNC``) truncates a file the
first time this process opens it; later opens (after :func:`close_logs`, or for another
handle) append, so the lines of every handle of a run stay.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import numpy as np

_open_lock = threading.Lock()
_files: dict[str, TextIO] = {}
_started: set[str] = set()  # files truncated by this process (kept across close_logs)


@atexit.register
def close_logs() -> None:
    """Close the log files opened so far (later lines reopen them)."""
    with _open_lock:
        for f in _files.values():
            f.close()
        _files.clear()


def _sink(path: str | None, truncate: bool = False) -> TextIO:
    if not path:
        return sys.stderr
    with _open_lock:
        f = _files.get(path)
        if f is None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
            if truncate and os.path.abspath(path) not in _started:
                flags |= os.O_TRUNC
            f = _files[path] = os.fdopen(os.open(path, flags, 0o644), "a", buffering=1, encoding="utf-8")
            _started.add(os.path.abspath(path))
        return f


def ostream_text(v: Any) -> str:
    """A value as a C++ ``std::ostream`` with default flags prints it (rocBLAS's log streams):
    reals with ``%g`` (``1``, ``0.5``, ``0.333333``, ``1e-05``, ``nan``, ``inf``), complex
    numbers as ``(re,im)``, booleans as ``1``/``0``, integers and strings as they are."""
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (complex, np.complexfloating)):
        return f"({ostream_text(float(v.real))},{ostream_text(float(v.imag))})"
    if isinstance(v, (float, np.floating)):
        return format(float(v), "g")
    if isinstance(v, np.integer):
        return str(int(v))
    return str(v)


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
    """Writes one library's log lines to the files its environment names (or stderr).

    Parameters
    ----------
    library
        The library's name; ``<LIBRARY>_LOG_{TRACE,BENCH,PROFILE}_PATH`` name its files.
    common_env
        The variable naming the file of the kinds without their own (``ROCBLAS_LOG_PATH``).
    truncate
        Start each file anew the first time this process opens it (rocBLAS's ``O_TRUNC``).
    """

    def __init__(self, library: str, *, common_env: str | None = None, truncate: bool = False):
        prefix = library.upper()
        self.library = library
        common = os.environ.get(common_env) if common_env else None
        # A set but empty variable is not replaced by the common one (getenv finds it); its lines
        # go to stderr (rocBLAS cannot open "" and aborts).
        self.paths = {kind: os.environ.get(f"{prefix}_LOG_{kind.upper()}_PATH", common)
                      for kind in ("trace", "bench", "profile")}
        self.truncate = truncate

    def open(self, kinds: Iterable[str]) -> None:
        """Open the files of ``kinds`` now (a handle's constructor does, so a file named is
        started anew even if nothing is written to it)."""
        for kind in kinds:
            _sink(self.paths.get(kind), self.truncate)

    def write(self, kind: str, line: str) -> None:
        f = _sink(self.paths.get(kind), self.truncate)
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
