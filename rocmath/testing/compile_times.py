"""Where a test run's numba compilation time goes.

Most of a run from a cold numba cache is numba compiling (about 80 % of rocmath's own suite), so the
suite's duration is watched per compiled function: :class:`CompileTimes` listens to numba's
``numba:compile`` events (fired for real compilations, not cache loads) and adds up each function's
time exclusive of the compilations nested in it (a kernel's helpers are compiled while it is typed).
The test suite's ``--compile-times N`` option prints the N costliest functions at the end of the run,
summed over the xdist workers.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from numba.core import event

__all__ = ["CompileTimes", "merge", "report"]


class CompileTimes(event.Listener):  # type: ignore[misc]
    """A numba compile-event listener: per function (module and qualified name) the number of
    compilations and their seconds, each exclusive of the compilations it started.  ``install()``
    registers it for every thread; ``totals()`` is a plain dict, picklable for xdist."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        self._totals: dict[str, list[float]] = {}

    def on_start(self, ev: Any) -> None:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev: Any) -> None:
        stack = getattr(self._local, "stack", None)
        if not stack:  # a compilation already under way when the listener was installed
            return
        start, nested = stack.pop()
        spent = time.perf_counter() - start
        if stack:
            stack[-1][1] += spent  # the caller's time excludes this compilation
        fn = getattr(ev.data["dispatcher"], "py_func", None)
        name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
        with self._lock:
            entry = self._totals.setdefault(name, [0, 0.0])
            entry[0] += 1
            entry[1] += spent - nested

    def install(self) -> None:
        event.register("numba:compile", self)

    def uninstall(self) -> None:
        event.unregister("numba:compile", self)

    def totals(self) -> dict[str, list[float]]:
        """``{name: [compilations, seconds]}``."""
        with self._lock:
            return {k: list(v) for k, v in self._totals.items()}


def merge(into: dict[str, list[float]], other: dict[str, list[float]]) -> None:
    """Add ``other``'s counts and seconds to ``into`` (totals of several processes)."""
    for name, (count, seconds) in other.items():
        entry = into.setdefault(name, [0, 0.0])
        entry[0] += count
        entry[1] += seconds


def report(totals: dict[str, list[float]], top: int) -> list[str]:
    """Lines for a run's summary: the total, then the ``top`` costliest functions."""
    spent = sum(s for _, s in totals.values())
    lines = [f"numba compilation: {spent:.1f} s in {int(sum(c for c, _ in totals.values()))} compilations "
             f"(exclusive of nested ones; summed over processes)"]
    for name, (count, seconds) in sorted(totals.items(), key=lambda kv: -kv[1][1])[:top]:
        lines.append(f"{seconds:8.1f} s {int(count):4d}x  {name}")
    return lines
