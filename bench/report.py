"""The bench report: a table for people, JSON for comparing runs over time."""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .runner import CaseResult

__all__ = ["JSON_SCHEMA", "Progress", "Table", "format_time", "machine_info", "to_json", "write_json"]

#: Identifies the JSON layout; bump it when a key changes meaning.
JSON_SCHEMA = "rocmath-bench/1"


def format_time(ns: float | None) -> str:
    """A duration with a readable unit: ``"850 ns"``, ``"12.3 us"``, ``"4.56 ms"``, ``"1.23 s"``."""
    if ns is None or not math.isfinite(ns):
        return "-"
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if abs(ns) >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.0f} ns"


class Progress:
    """A progress line on a terminal's stderr (``[7/38] 12.3 s, ~41 s left (last: blas.gemm_d)``) for
    runs longer than a couple of seconds; nothing when the stream is not a terminal.

    Parameters
    ----------
    total
        The steps the run takes (cases, problems, timing rounds).
    t0
        When the run started (``time.perf_counter_ns()``; now when None).
    stream
        Where the line goes (stderr when None).
    """

    AFTER_NS = 2_000_000_000

    def __init__(self, total: int, t0: int | None = None, stream: TextIO | None = None):
        self.total, self.done = total, 0
        self.t0 = time.perf_counter_ns() if t0 is None else t0
        self.stream = stream or sys.stderr
        self.shown = False
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def step(self, label: str = "") -> None:
        """One step done (``label`` names it); the line shows once the run is past :attr:`AFTER_NS`."""
        self.done += 1
        if not self.enabled or self.done >= self.total:
            return
        elapsed = time.perf_counter_ns() - self.t0
        if elapsed < self.AFTER_NS:
            return
        left = elapsed / self.done * (self.total - self.done)
        last = f" (last: {label})" if label else ""
        self.stream.write(f"\r[{self.done}/{self.total}] {format_time(elapsed)}, ~{format_time(left)} left{last}\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the line (before other output, and at the end)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _fmt_err(err: float | None) -> str:
    if err is None:
        return "-"
    return "0" if err == 0 else f"{err:.1e}"


class Table:
    """Prints result rows as they come, under one header, in fixed-width columns."""

    COLUMNS = (("case", "<"), ("size", "<"), ("cold", ">"), ("warm med", ">"), ("+-CI95", ">"),
               ("kernel", ">"), ("rate", ">"), ("ref med", ">"), ("ratio", ">"), ("max rel err", ">"),
               ("ok", "<"))

    def __init__(self, out: TextIO, name_width: int = 24, size_width: int = 13):
        self.out = out
        self.widths = [max(name_width, 4), max(size_width, 4), 9, 9, 7, 9, 18, 9, 7, 11, 5]

    def _line(self, cells: Sequence[str]) -> str:
        parts = [f"{c:{align}{w}}" for c, (_, align), w in zip(cells, self.COLUMNS, self.widths, strict=True)]
        return "  ".join(parts).rstrip()

    def header(self) -> None:
        """Print the column names and a rule."""
        line = self._line([name for name, _ in self.COLUMNS])
        self.out.write(line + "\n" + "-" * len(line) + "\n")
        self.out.flush()

    def row(self, r: CaseResult) -> None:
        """Print one result (and its error, if it failed to run, on the next line)."""
        tp = r.throughput
        spread = "-" if r.warm is None or not math.isfinite(r.warm.spread) else (
            f"{100 * r.warm.spread:.1f}%" if r.warm.spread < 10 else ">999%")
        status = "ok" if r.ok else ("ERROR" if r.error else "FAIL")
        cells = [
            r.case, r.label, format_time(r.cold_ns), format_time(r.warm.median_ns if r.warm else None), spread,
            format_time(r.kernel.median_ns if r.kernel else None),
            "-" if tp is None else f"{tp[0]:.3g} {tp[1]}" + (
                "" if r.copy_fraction is None else f" {100 * r.copy_fraction:.0f}%"),
            format_time(r.reference.median_ns if r.reference else None),
            "-" if r.ratio is None or not math.isfinite(r.ratio) else f"{r.ratio:.2f}x",
            _fmt_err(r.max_rel_err), status,
        ]
        self.out.write(self._line(cells) + "\n")
        if r.error:
            self.out.write(f"    error: {r.error}\n")
        elif not r.ok:
            self.out.write(f"    max rel err {_fmt_err(r.max_rel_err)} exceeds tolerance {_fmt_err(r.tol)}\n")
        self.out.flush()


def machine_info() -> dict[str, Any]:
    """Where the run happened: host, Python and library versions, numba threading, device."""
    import numba
    import numpy
    import scipy

    import rocmath
    from rocmath.kernel import threading_layer

    props = rocmath.get_device_properties()
    return {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or _cpu_model(),
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "numba": numba.__version__,
        "numba_threading_layer": threading_layer(),
        "numba_num_threads": numba.get_num_threads(),
        "rocmath": rocmath.__version__,
        "device": {"name": props.name, "arch": props.gcnArchName, "count": rocmath.get_device_count(),
                   "memory_bytes": props.totalGlobalMem},
        "checking": rocmath.checking_enabled(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def to_json(results: Sequence[CaseResult], config: dict[str, Any],
            extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON document of a run.

    Keys: ``schema``, ``timestamp`` (UTC, ISO 8601), ``rocmath_version``,
    ``numba_threading_layer``, ``machine`` (see :func:`machine_info`), ``config`` (suite,
    filter, repeats, warmup...), ``all_ok``, ``results`` (one dict per case and size, see
    :meth:`CaseResult.to_dict`), plus any ``extra`` keys.
    """
    info = machine_info()
    doc = {
        "schema": JSON_SCHEMA,
        "timestamp": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "rocmath_version": info["rocmath"],
        "numba_threading_layer": info["numba_threading_layer"],
        "machine": info,
        "config": config,
        "all_ok": all(r.ok for r in results),
        "results": [r.to_dict() for r in results],
    }
    if extra:
        doc.update(extra)
    return doc


def write_json(path: str | os.PathLike[str], doc: dict[str, Any]) -> None:
    """Write ``doc`` to ``path`` (creating its folder), strictly valid JSON."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n")
