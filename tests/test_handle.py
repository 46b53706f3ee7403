"""The base library handle: stream, pointer mode, workspace model, size queries, layers."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import errors
from rocmath.errors import RocblasStatus
from rocmath.handle import WORKSPACE_ALIGN
from rocmath.log import Logger, format_value

TIMEOUT = 10


@pytest.fixture
def handle():
    h = rm.Handle()
    yield h
    if not h._destroyed:
        h.destroy()
    rm.device_synchronize()


def _used():
    free, total = rm.mem_get_info()
    return total - free


# --- basics ---------------------------------------------------------------------------------


def test_defaults(handle):
    assert handle.stream is rm.null_stream() and handle.get_stream() is rm.null_stream()
    assert handle.pointer_mode == rm.PointerMode.host == handle.get_pointer_mode()
    assert handle.get_atomics_mode() == rm.AtomicsMode.not_allowed
    assert handle.layer_mode == rm.LayerMode.none
    assert handle.device is rm.null_stream().device
    assert handle.is_managing_device_memory() and handle.get_device_memory_size() == 0
    assert not handle.is_device_memory_size_query()


def test_stream_setting(handle):
    s1, s2 = rm.Stream(), rm.Stream(non_blocking=True)
    handle.set_stream(s1)
    assert handle.stream is s1
    with handle.on_stream(s2) as h:
        assert h is handle and handle.stream is s2
    assert handle.stream is s1
    with pytest.raises(KeyError), handle.on_stream(0):
        assert handle.stream is rm.null_stream()
        raise KeyError("restored even on errors")
    assert handle.stream is s1
    handle.set_stream(None)
    assert handle.stream is rm.null_stream()
    handle.set_stream(s2)
    handle.set_stream(0)
    assert handle.stream is rm.null_stream()
    assert rm.Handle(stream=s1).stream is s1
    # rocblas_set_stream: an invalid stream is rocblas_status_invalid_value.
    dead = rm.Stream()
    dead.destroy()
    for bad in ("a stream", dead, 3):
        with pytest.raises(errors.RocblasInvalidValueError) as info:
            handle.set_stream(bad)
        assert info.value.status == RocblasStatus.invalid_value and info.value.arg == "stream"
    assert handle.stream is rm.null_stream()


def test_stream_of_another_device_is_refused(configure):
    configure(count=2, memory="1MiB")
    h = rm.Handle(device=0)
    s = rm.Stream(device=1)
    with pytest.raises(errors.RocblasInvalidValueError) as info:
        h.set_stream(s)
    assert info.value.status == RocblasStatus.invalid_value and info.value.arg == "stream"
    assert h.stream is rm.null_stream(0)
    rm.set_device(1)
    assert rm.Handle().device.index == 1  # binds to the current device
    rm.set_device(0)
    h.destroy()


def test_pointer_and_atomics_modes(handle):
    handle.set_pointer_mode(rm.PointerMode.device)
    assert handle.get_pointer_mode() is rm.PointerMode.device
    handle.set_pointer_mode(0)
    assert handle.pointer_mode is rm.PointerMode.host
    with handle.use_pointer_mode(1) as h:
        assert h.pointer_mode is rm.PointerMode.device
        with handle.use_pointer_mode(rm.PointerMode.host):
            assert handle.pointer_mode is rm.PointerMode.host
        assert handle.pointer_mode is rm.PointerMode.device
    assert handle.pointer_mode is rm.PointerMode.host
    with pytest.raises(errors.RocblasInvalidValueError, match="mode"):
        handle.set_pointer_mode(2)
    handle.set_atomics_mode(rm.AtomicsMode.allowed)
    assert handle.get_atomics_mode() is rm.AtomicsMode.allowed


@pytest.mark.parametrize("value, mode", [("1", rm.AtomicsMode.allowed), ("0", rm.AtomicsMode.not_allowed),
                                         ("7", rm.AtomicsMode.not_allowed)])
def test_atomics_mode_from_environment(monkeypatch, value, mode):
    monkeypatch.setenv("ROCBLAS_DEFAULT_ATOMICS_MODE", value)
    h = rm.Handle()
    assert h.atomics_mode is mode
    h.destroy()


@pytest.mark.parametrize("value, mode", [
    ("1", rm.LayerMode.log_trace), ("3", rm.LayerMode.log_trace | rm.LayerMode.log_bench),
    ("0x4", rm.LayerMode.log_profile), ("15", rm.LayerMode(7)), ("0", rm.LayerMode.none),
    ("", rm.LayerMode.none), ("verbose", rm.LayerMode.none),
])
def test_layer_mode_from_environment(monkeypatch, value, mode):
    monkeypatch.setenv("ROCMATH_LAYER", value)
    h = rm.Handle()
    assert h.layer_mode == mode
    h.destroy()


def test_logger_writes_to_the_environment_paths(monkeypatch, tmp_path):
    trace = tmp_path / "trace.csv"
    monkeypatch.setenv("ROCMATH_LOG_TRACE_PATH", str(trace))
    x = rm.zeros(2)
    log = Logger("rocmath")
    log.trace("rocmath_f", 3, 2.5, 1 - 2j, rm.PointerMode.device, x, "N")
    assert trace.read_text() == f"rocmath_f,3,2.5,1.0,-2.0,1,0x{x.ptr:x},N\n"
    assert format_value(np.int32(5)) == "5" and format_value(0.1) == "0.1"


# --- workspace ----------------------------------------------------------------------------------


def test_workspace_grows_on_demand_and_is_reused(handle):
    base = _used()
    assert handle.workspace(0) == 0
    w1 = handle.workspace(100)
    attrs = rm.pointer_attributes(w1)
    assert attrs["size"] == 128 and attrs["size"] % WORKSPACE_ALIGN == 0
    assert handle.get_device_memory_size() == 128
    assert handle.workspace(128) == w1 and handle.workspace(1) == w1  # big enough: reused
    w2 = handle.workspace(129)  # grows, at least doubling
    assert w2 != w1 and handle.get_device_memory_size() == 256
    assert rm.pointer_attributes(w2)["size"] == 256
    w3 = handle.workspace(1000)
    assert handle.get_device_memory_size() == 1024 and rm.pointer_attributes(w3)["size"] == 1024
    handle.stream.synchronize()
    assert _used() == base + 1024  # the outgrown buffers were given back


def test_outgrown_workspace_stays_valid_for_queued_work(handle):
    s = rm.Stream()
    handle.set_stream(s)
    gate = threading.Event()
    s.launch_host_func(gate.wait, TIMEOUT)
    w1 = handle.workspace(256)
    rm.memset_async(w1, 1, 256, s)  # queued work using the first buffer
    pinned = rm.malloc_host(256)
    rm.memcpy_async(pinned, w1, 256, stream=s)
    w2 = handle.workspace(4096)  # grow while that work is still queued
    assert rm.pointer_attributes(w1)["size"] == 256  # not freed under the queued work
    gate.set()
    s.synchronize()  # no fault: the old buffer was freed in stream order
    assert (rm.host_view(pinned, 256) == 1).all()
    with pytest.raises(errors.InvalidDevicePointerError):
        rm.pointer_attributes(w1)
    assert rm.pointer_attributes(w2)["size"] == 4096
    rm.free_host(pinned)


def test_workspace_is_per_stream(handle):
    s1, s2 = rm.Stream(), rm.Stream()
    handle.set_stream(s1)
    a = handle.workspace(64)
    handle.set_stream(s2)
    assert handle.get_device_memory_size() == 0
    b = handle.workspace(64)
    assert a != b
    handle.set_stream(s1)
    assert handle.workspace(64) == a and handle.get_device_memory_size() == 64


def test_workspace_is_poisoned_in_checking_mode(handle):
    with rm.checking():
        w = handle.workspace(200)
        handle.stream.synchronize()
        got = np.empty(256, np.uint8)
        rm.memcpy(got, w, 256)
        assert (got == 0xFF).all()


def test_destroy_releases_the_workspace():
    base = _used()
    s = rm.Stream()
    with rm.Handle(stream=s) as h:
        h.workspace(5000)
        h.set_stream(None)
        h.workspace(100)
        assert _used() == base + 5056 + 128
    assert h._destroyed
    rm.device_synchronize()
    assert _used() == base


def test_destroy_after_its_stream_was_destroyed():
    base = _used()
    s = rm.Stream()
    h = rm.Handle(stream=s)
    h.workspace(1000)
    h.set_stream(None)
    s.destroy()
    h.destroy()  # the workspace of the destroyed stream is still released
    rm.device_synchronize()
    assert _used() == base
    with pytest.raises(errors.RocblasInvalidHandleError):
        h.get_stream()


def test_set_workspace_after_its_stream_was_destroyed():
    base = _used()
    s = rm.Stream()
    h = rm.Handle(stream=s)
    h.workspace(1000)
    s.destroy()
    p = rm.malloc(64)
    h.set_workspace(p, 64)
    h.destroy()
    rm.free(p)
    rm.device_synchronize()
    assert _used() == base


# --- size queries ---------------------------------------------------------------------------------


def test_size_query_protocol(handle):
    base = _used()
    assert handle.size_query(100) is None  # not querying: routines go on and compute
    handle.start_device_memory_size_query()
    assert handle.is_device_memory_size_query()
    assert handle.size_query(100) == RocblasStatus.size_increased  # 128
    assert handle.size_query(128) == RocblasStatus.size_unchanged
    assert handle.size_query() == RocblasStatus.size_unchanged  # needs nothing
    assert handle.size_query(100, 1) == RocblasStatus.size_increased  # 128 + 64, each rounded
    assert handle.size_query(150) == RocblasStatus.size_unchanged
    with pytest.raises(errors.RocblasSizeQueryMismatchError) as info:
        handle.start_device_memory_size_query()
    assert info.value.status == RocblasStatus.size_query_mismatch
    assert handle.stop_device_memory_size_query() == 192
    assert not handle.is_device_memory_size_query()
    with pytest.raises(errors.RocblasSizeQueryMismatchError):
        handle.stop_device_memory_size_query()
    assert _used() == base  # a query allocates nothing
    handle.start_device_memory_size_query()
    assert handle.stop_device_memory_size_query() == 0


@pytest.mark.parametrize("sizes", [[1], [64], [65, 65], [1000, 3, 0], [7, 700, 70]])
def test_size_query_result_is_the_max_of_rounded_sums(handle, sizes):
    handle.start_device_memory_size_query()
    for n in sizes:
        handle.size_query(n)
    want = max(-(-n // 64) * 64 for n in sizes)
    assert handle.stop_device_memory_size_query() == want
    assert want % 64 == 0


# --- user-owned workspace ------------------------------------------------------------------------


def test_set_workspace(handle):
    handle.workspace(300)
    base = _used()
    p = rm.malloc(1000)
    handle.set_workspace(p, 1000)
    rm.device_synchronize()
    assert _used() == base - 320 + 1000  # the handle's own buffer was given back
    assert not handle.is_managing_device_memory() and handle.get_device_memory_size() == 1000
    assert handle.workspace(1000) == p and handle.workspace(10) == p
    with pytest.raises(errors.RocblasMemoryError) as info:
        handle.workspace(1001)
    assert info.value.status == RocblasStatus.memory_error
    assert "1000" in str(info.value) and "1001" in str(info.value)
    handle.set_workspace(0, 0)  # management back to the handle
    assert handle.is_managing_device_memory()
    assert handle.workspace(1001) != p
    with pytest.raises(errors.RocblasInvalidPointerError):
        handle.set_workspace(p + 512, 1000)  # runs past the allocation
    with pytest.raises(errors.RocblasInvalidPointerError):
        handle.set_workspace(12345, 10)
    rm.free(p)


# --- destroyed handles ------------------------------------------------------------------------


def test_destroyed_handle_refuses_use():
    h = rm.Handle()
    h.destroy()
    uses = [
        lambda: h.check(), lambda: h.destroy(), lambda: h.set_stream(None), lambda: h.get_stream(),
        lambda: h.set_pointer_mode(0), lambda: h.get_pointer_mode(), lambda: h.set_atomics_mode(0),
        lambda: h.get_atomics_mode(), lambda: h.start_device_memory_size_query(),
        lambda: h.stop_device_memory_size_query(), lambda: h.set_workspace(0, 0),
        lambda: h.get_device_memory_size(), lambda: h.workspace(64),
    ]
    base = _used()
    for use in uses:
        with pytest.raises(errors.RocblasInvalidHandleError) as info:
            use()
        assert info.value.status == RocblasStatus.invalid_handle
        assert info.value.arg == "handle" and info.value.index == 1
    rm.device_synchronize()
    assert _used() == base  # nothing was allocated for a dead handle


def test_configure_gives_back_the_workspaces_handles_manage(configure: Any) -> None:
    # inv takes a workspace from the calling thread's own handle (made by the array layer, not
    # by the user): that memory must not make rocmath.configure refuse as a live allocation.
    import rocmath as rm
    from rocmath import solver

    a = rm.to_device(np.eye(4) * 2.0)
    out = solver.inv(a)
    np.testing.assert_array_equal(out.get(), np.eye(4) / 2)
    del a, out
    configure(count=2)
    assert rm.get_device_count() == 2
