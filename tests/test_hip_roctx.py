"""hip.roctx: roctracer's annotations (levels and ids as roctracer keeps them) on rocmath's timeline."""

from __future__ import annotations

import ctypes
import importlib
import threading

import pytest

import rocmath as rm
from rocmath.hip import roctx


def test_versions_and_surface():
    assert roctx.roctx_version_major() == (4,) and roctx.roctx_version_minor() == (1,)
    assert (roctx.ROCTX_VERSION_MAJOR, roctx.ROCTX_VERSION_MINOR) == (4, 1)
    assert roctx.__all__ == ["ROCTX_VERSION_MAJOR", "ROCTX_VERSION_MINOR", "roctx_version_major",
                             "roctx_version_minor", "roctxMarkA", "roctxRangePushA", "roctxRangePop",
                             "roctxRangeStartA", "roctxRangeStop"]


def test_nesting_is_per_thread_without_a_trace():
    assert roctx.roctxRangePop() == (-1,)  # none open
    assert roctx.roctxRangePushA("a") == (0,) and roctx.roctxRangePushA(b"b") == (1,)
    other = []

    def elsewhere():
        other.append(roctx.roctxRangePop())
        other.append(roctx.roctxRangePushA("c"))
        other.append(roctx.roctxRangePop())

    t = threading.Thread(target=elsewhere)
    t.start()
    t.join()
    assert other == [(-1,), (0,), (0,)]
    assert roctx.roctxRangePop() == (1,) and roctx.roctxRangePop() == (0,) and roctx.roctxRangePop() == (-1,)
    assert roctx.roctxMarkA("nothing records") is None


def test_start_stop_ids_are_unique_and_cross_threads():
    first = roctx.roctxRangeStartA("x")[0]
    second = roctx.roctxRangeStartA(None)[0]
    assert first >= 1 and second == first + 1
    assert roctx.roctxRangeStop(second) is None
    roctx.roctxRangeStop(second)  # an unknown id is ignored
    t = threading.Thread(target=roctx.roctxRangeStop, args=(first,))
    t.start()
    t.join()
    with pytest.raises(OverflowError):
        roctx.roctxRangeStop(-1)
    with pytest.raises(TypeError):
        roctx.roctxRangeStop("1")


def test_annotations_on_the_timeline():
    message = ctypes.create_string_buffer(b"from a C string")
    with rm.trace() as rec:
        roctx.roctxMarkA(ctypes.addressof(message))
        roctx.roctxRangePushA("outer")
        roctx.roctxRangePushA("inner")
        roctx.roctxRangePop()
        roctx.roctxRangePop()
        rid = roctx.roctxRangeStartA("async")[0]
        t = threading.Thread(target=roctx.roctxRangeStop, args=(rid,), name="stopper")
        t.start()
        t.join()
    events = rec.chrome_trace()["traceEvents"]
    mine = {e["name"]: e for e in events if e.get("cat") == "roctx"}
    assert mine["from a C string"]["ph"] == "i" and mine["from a C string"]["s"] == "t"
    outer, inner, span = mine["outer"], mine["inner"], mine["async"]
    assert outer["ph"] == inner["ph"] == span["ph"] == "X"
    assert outer["ts"] <= inner["ts"] and inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"]
    assert inner["args"]["level"] == 1 and span["args"]["id"] == rid
    tid = threading.get_native_id()
    assert {e["tid"] for e in mine.values()} == {tid}  # a started range stays on its starting thread's row
    assert {e["pid"] for e in mine.values()} == {importlib.import_module("rocmath.trace").HOST_PID}
    names = {(e["pid"], e["args"]["name"]) for e in events if e.get("ph") == "M" and e["name"] == "process_name"}
    assert (-1, "host threads") in names
    # Outside a recording nothing is kept.
    with rm.trace() as later:
        pass
    roctx.roctxMarkA("late")
    assert later.events == []
