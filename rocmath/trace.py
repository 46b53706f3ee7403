"""A timeline of everything the simulated devices run, as a Chrome/Perfetto trace.

``ROCMATH_TRACE=trace.json`` (read when rocmath is imported) records the whole run and
writes the file at exit; :func:`trace` records a block::

    with rocmath.trace("gemm.json"):
        blas.dgemm(...)
        rocmath.device_synchronize()

Every piece of stream work is one complete event (``"ph": "X"``) on its device's track
(a process, ``pid`` = device index) and its stream's row (a thread, ``tid`` = stream id,
0 the null stream): kernels with their flops, bytes, GFLOP/s and GB/s, copies and fills
with their bytes and GB/s, callbacks, stream waits on events, event records and
stream-ordered frees.  Host threads waiting for a stream or the device (synchronize)
appear on row ``host`` of that device.  Host-side annotations (roctx marks and ranges, see
:mod:`rocmath.hip.roctx`) go to the ``host threads`` track (``pid`` :data:`HOST_PID`), one row
per host thread: ranges as complete events, marks as instant events (``"ph": "i"``).
Load the file in https://ui.perfetto.dev or chrome://tracing.  Timestamps are microseconds of ``time.perf_counter_ns``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["Recorder", "trace"]

#: The row of host-side waits (a tid no stream uses).
HOST_TID = -1
#: The track of host threads' own annotations (a pid no device uses).
HOST_PID = -1

_lock = threading.Lock()
_recorders: list[Recorder] = []


class Recorder:
    """The events of one trace, appended by stream workers and waiting host threads."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self._rows: dict[tuple[int, int], str] = {}
        self._devices: dict[int, str] = {}

    def add(self, name: str, cat: str, device: int, device_name: str, tid: int, row: str, start_ns: int,
            end_ns: int, args: dict[str, Any]) -> None:
        """Record one complete event (times in ns of ``time.perf_counter_ns``)."""
        dur_ns = max(end_ns - start_ns, 0)
        ev = {"name": name, "cat": cat, "ph": "X", "pid": device, "tid": tid, "ts": start_ns / 1e3,
              "dur": dur_ns / 1e3, "args": dict(args)}
        seconds = dur_ns / 1e9
        if seconds > 0:
            if args.get("flops"):
                ev["args"]["GFLOP/s"] = round(args["flops"] / seconds / 1e9, 3)
            if args.get("bytes"):
                ev["args"]["GB/s"] = round(args["bytes"] / seconds / 1e9, 3)
        with _lock:
            self.events.append(ev)
            self._rows.setdefault((device, tid), row)
            self._devices.setdefault(device, device_name)

    def add_instant(self, name: str, cat: str, pid: int, process: str, tid: int, row: str, ts_ns: int,
                    args: dict[str, Any]) -> None:
        """Record one instant event (thread scope) at ``ts_ns`` of ``time.perf_counter_ns``."""
        ev = {"name": name, "cat": cat, "ph": "i", "s": "t", "pid": pid, "tid": tid, "ts": ts_ns / 1e3,
              "args": dict(args)}
        with _lock:
            self.events.append(ev)
            self._rows.setdefault((pid, tid), row)
            self._devices.setdefault(pid, process)

    def chrome_trace(self) -> dict[str, Any]:
        """The trace as Chrome's JSON object format: metadata naming tracks and rows, then the
        events in time order."""
        with _lock:
            events = sorted(self.events, key=lambda e: (e["ts"], e["pid"], e["tid"]))
            meta: list[dict[str, Any]] = []
            for dev, label in sorted(self._devices.items()):
                meta.append({"name": "process_name", "ph": "M", "pid": dev, "tid": 0, "args": {"name": label}})
                meta.append({"name": "process_sort_index", "ph": "M", "pid": dev, "tid": 0,
                             "args": {"sort_index": dev}})
            for (dev, tid), row in sorted(self._rows.items()):
                meta.append({"name": "thread_name", "ph": "M", "pid": dev, "tid": tid, "args": {"name": row}})
                meta.append({"name": "thread_sort_index", "ph": "M", "pid": dev, "tid": tid,
                             "args": {"sort_index": tid if tid >= 0 else 1 << 30}})
        return {"traceEvents": meta + events, "displayTimeUnit": "ns",
                "otherData": {"producer": "rocmath", "clock": "time.perf_counter_ns"}}

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the trace as JSON to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.chrome_trace(), f)


def recording() -> bool:
    """True while some trace records (stream workers check this first: it costs nothing)."""
    return bool(_recorders)


def emit(name: str, cat: str, device: int, device_name: str, tid: int, row: str, start_ns: int, end_ns: int,
         args: dict[str, Any] | None = None) -> None:
    """Give one event to every active recorder."""
    for rec in list(_recorders):
        rec.add(name, cat, device, device_name, tid, row, start_ns, end_ns, args or {})


def instant(name: str, cat: str, pid: int, process: str, tid: int, row: str, ts_ns: int,
            args: dict[str, Any] | None = None) -> None:
    """Give one instant event to every active recorder (``emit`` gives complete ones)."""
    for rec in list(_recorders):
        rec.add_instant(name, cat, pid, process, tid, row, ts_ns, args or {})


def start() -> Recorder:
    """Start recording; :func:`stop` ends it (:func:`trace` does both)."""
    rec = Recorder()
    with _lock:
        _recorders.append(rec)
    return rec


def stop(rec: Recorder) -> None:
    with _lock:
        if rec in _recorders:
            _recorders.remove(rec)


@contextlib.contextmanager
def trace(path: str | os.PathLike[str] | None = None) -> Iterator[Recorder]:
    """Record a timeline of the device work done inside the block.

    Parameters
    ----------
    path
        Where to write the Chrome trace JSON when the block ends (also after an error);
        None only collects it (``recorder.chrome_trace()``).

    Notes
    -----
    Work still queued when the block ends is recorded only if it finished by then:
    synchronize inside the block to see all of it.
    """
    rec = start()
    try:
        yield rec
    finally:
        stop(rec)
        if path is not None:
            rec.write(path)


def _trace_from_environment() -> None:
    path = os.environ.get("ROCMATH_TRACE")
    if not path:
        return
    rec = start()

    @atexit.register
    def _write() -> None:  # registered after the streams' drain, so it runs before it: drain here
        with contextlib.suppress(Exception):
            from .stream import device_synchronize

            device_synchronize()
        stop(rec)
        rec.write(path)


_trace_from_environment()
