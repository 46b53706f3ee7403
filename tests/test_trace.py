"""The timeline: a Chrome trace of every kernel, copy, fill, callback, wait and host synchronize."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

import rocmath as rm
from rocmath import blas


def _events(doc):
    return [e for e in doc["traceEvents"] if e["ph"] == "X"]


def test_trace_records_kernels_copies_callbacks_and_waits(tmp_path):
    path = tmp_path / "t.json"
    s = rm.Stream()
    h = blas.create_handle()
    blas.set_stream(h, s)
    x = rm.to_device(np.arange(1 << 16, dtype=np.float64), s)
    y = rm.zeros(1 << 16)
    seen = []
    with rm.trace(path) as rec:
        blas.daxpy(h, 1 << 16, 2.0, x, 1, y, 1)
        rm.memcpy_async(y.ptr, x.ptr, 8 << 16, rm.MemcpyKind.DeviceToDevice, stream=s)
        rm.memset_async(y.ptr, 0, 64, stream=s)
        s.add_callback(lambda *a: seen.append(1))
        ev = rm.Event()
        ev.record(s)
        rm.null_stream().wait_event(ev)
        s.synchronize()
        rm.device_synchronize()
    doc = json.loads(path.read_text())
    assert doc == json.loads(json.dumps(rec.chrome_trace()))  # the file is the recorder's trace
    events = _events(doc)
    cats = {e["cat"] for e in events}
    assert {"kernel", "copy", "memset", "callback", "event", "wait", "host wait"} <= cats
    kernel = next(e for e in events if e["name"] == "rocblas_daxpy")
    assert kernel["args"]["flops"] == 2 * (1 << 16) and kernel["args"]["bytes"] == 3 * 8 * (1 << 16)
    assert kernel["dur"] >= 0 and kernel["args"].get("GB/s", 1) > 0
    copy = next(e for e in events if e["name"] == "memcpy_async")
    assert copy["args"]["kind"] == "DeviceToDevice" and copy["args"]["bytes"] == 8 << 16
    # One track per device, one row per stream (named), host waits on their own row.
    rows = {(m["pid"], m["tid"]): m["args"]["name"] for m in doc["traceEvents"] if m["name"] == "thread_name"}
    assert rows[(0, s.ident)] == repr(s).split(": ", 1)[1].rstrip(">") or rows[(0, s.ident)]
    assert rows[(0, -1)] == "host"
    assert {e["tid"] for e in events if e["cat"] == "kernel"} == {s.ident}
    # Complete events in time order, microseconds.
    ts = [e["ts"] for e in events]
    assert ts == sorted(ts)
    blas.destroy_handle(h)
    s.destroy()


def test_nothing_is_recorded_outside_a_trace():
    x = rm.zeros(8)
    with rm.trace() as rec:
        pass
    x.fill(1.0)
    rm.device_synchronize()
    assert rec.events == []


def test_environment_variable_traces_a_whole_program(tmp_path):
    path = tmp_path / "env.json"
    prog = ("import numpy as np, rocmath as rm\n"
            "x = rm.to_device(np.ones(1000)); y = x.copy(); rm.device_synchronize()\n")
    env = dict(os.environ, ROCMATH_TRACE=str(path))
    subprocess.run([sys.executable, "-c", prog], check=True, env=env, timeout=300)
    doc = json.loads(path.read_text())
    assert any(e["cat"] == "copy" for e in _events(doc))
    names = [m for m in doc["traceEvents"] if m["name"] == "process_name"]
    assert names and "simulated" in names[0]["args"]["name"]
