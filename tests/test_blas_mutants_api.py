"""rocmath.blas handle and API layer: behaviours a mutation-testing pass found the tests leaving open.

Each test names what rocBLAS does (rocblas_auxiliary.cpp, handle.cpp, logging.hpp, utility.hpp,
check_numerics_*.hpp) and checks it against exact values, exact statuses or device bytes that must stay
untouched:

- Handles: only a rocBLAS handle is one (a rocSPARSE handle or a bare rocmath handle is invalid_handle);
  the fixed workspace of ``set_device_memory_size`` is given back when it is replaced and when the
  handle is destroyed (device memory in use, to the byte).
- Tracing: any atomics value but not_allowed prints ``atomics_allowed``; ``set_stream`` and
  ``set_pointer_mode`` trace before they act (an invalid value is traced); a call made during a
  device-memory size query is not traced; the null stream prints as 0; the profile layer's file is
  started anew when the handle is made, and arguments no command line can say are profiled under the
  function's name without changing the call; calls on a logging or check-numerics handle are never
  replays (each is logged, each scanned).
- Math mode: xf32 on gfx940, gfx941 and gfx942 only; default_math is accepted on any device.
- set/get vector and matrix: ``_async`` copies go on their stream and ``set_*_async`` returns without
  waiting for it (the host data staged at the call); every ``_64`` function takes int64_t sizes; a
  read-only buffer or a strided numpy view is no host buffer; a null pointer (None or 0) is
  invalid_pointer after the size checks, the source named first (a numpy integer 0 as well).
- Check-numerics: denormals as rocblas_isdenorm (below the storage type's smallest normal, that one
  not included; complex: either part), float32 denormals included; a reduction's result is not scanned.
- Replays: a batched reduction keeps returning an array; a reduction given a host result buffer writes it
  on every call; a replayed host-mode reduction waits for its busy stream before returning its value.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from test_blas_aux import random_bits, raw
from test_blas_trace_log import _calls, _read, env  # noqa: F401  (env: a fixture)

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas, errors
from rocmath.errors import RocblasStatus

BIG32 = 1 << 31  # the first value a rocblas_int cannot hold
SENTINEL = -1234.5  # finite, exact in every precision, never a copied value


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


@pytest.fixture
def trace(env: pytest.MonkeyPatch, tmp_path: Any) -> Any:  # noqa: F811
    """ROCBLAS_LAYER=1 into a fresh file; returns a function reading the lines written so far."""
    path = tmp_path / "trace.log"
    env.setenv("ROCBLAS_LAYER", "1")
    env.setenv("ROCBLAS_LOG_TRACE_PATH", str(path))
    return lambda: _read(path)


def _used() -> int:
    """Device memory in use, to the byte (hipMemGetInfo)."""
    free, total = rm.mem_get_info()
    return total - free


# --- handles ---------------------------------------------------------------------------------------


def test_only_a_rocblas_handle_is_a_handle() -> None:
    from rocmath import sparse

    x = rm.to_device(np.arange(3.0))
    for other in (sparse.create_handle(), rm.Handle()):
        for call in (lambda h: blas.get_stream(h), lambda h: blas.set_pointer_mode(h, 1),
                     lambda h: blas.get_math_mode(h), lambda h: blas.dscal(h, 3, 2.0, x, 1)):
            with pytest.raises(errors.RocblasInvalidHandleError) as info:
                call(other)
            assert info.value.status == RocblasStatus.invalid_handle and info.value.arg == "handle"
        assert other.pointer_mode == blas.PointerMode.host
    np.testing.assert_array_equal(x.get(), [0.0, 1.0, 2.0])


def test_the_fixed_workspace_is_given_back_when_replaced_and_at_destroy() -> None:
    # handle.cpp: rocblas_set_device_memory_size frees the old block before allocating the new one,
    # and the handle's destructor frees it.
    base = _used()
    h = blas.create_handle()
    blas.set_device_memory_size(h, 1000)
    assert _used() - base == 1024
    blas.set_device_memory_size(h, 2000)
    assert _used() - base == 2048
    blas.set_device_memory_size(h, 64)
    assert _used() - base == 64
    blas.destroy_handle(h)
    assert _used() == base


def test_set_performance_metric_checks_the_handle_first() -> None:
    h = blas.create_handle()
    blas.destroy_handle(h)
    for metric in (1, "not a metric"):
        with pytest.raises(errors.RocblasInvalidHandleError):
            blas.set_performance_metric(h, metric)


# --- tracing -------------------------------------------------------------------------------------


def test_any_atomics_value_but_not_allowed_is_traced_as_allowed(trace: Any) -> None:
    # rocblas_atomics_mode_to_string: mode != rocblas_atomics_not_allowed ? "atomics_allowed" : ...
    h = blas.create_handle()
    x = rm.zeros(4)
    blas.set_atomics_mode(h, 2)
    blas.dscal(h, 2, 1.0, x, 1)
    blas.set_atomics_mode(h, 3)
    blas.set_atomics_mode(h, 0)
    blas.dscal(h, 2, 1.0, x, 1)
    blas.destroy_handle(h)
    lines = trace()
    assert [ln for ln in lines if ln.startswith("rocblas_set_atomics_mode,")] == [
        "rocblas_set_atomics_mode,atomics_allowed,atomics_not_allowed",
        "rocblas_set_atomics_mode,atomics_allowed,atomics_allowed",
        "rocblas_set_atomics_mode,atomics_not_allowed,atomics_allowed"]
    assert [c[-1] for c in _calls(lines, "rocblas_dscal")] == ["atomics_allowed", "atomics_not_allowed"]


def test_setters_trace_before_they_act(trace: Any) -> None:
    # rocblas_auxiliary.cpp: set_stream and set_pointer_mode call log_trace, then act: a value the
    # setter goes on to refuse is traced all the same.
    h = blas.create_handle()
    dead = rm.Stream()
    ident = dead.ident
    dead.destroy()
    with pytest.raises(errors.RocblasInvalidValueError):
        blas.set_stream(h, dead)
    with contextlib.suppress(errors.RocblasInvalidValueError):  # (rocBLAS stores it; rocmath refuses it)
        blas.set_pointer_mode(h, 5)
    assert blas.get_stream(h) is rm.null_stream() and blas.get_pointer_mode(h) is blas.PointerMode.host
    blas.destroy_handle(h)
    lines = trace()
    assert f"rocblas_set_stream,0x{ident:x},atomics_not_allowed" in lines
    assert "rocblas_set_pointer_mode,5,atomics_not_allowed" in lines


def test_the_null_stream_is_traced_as_0(trace: Any) -> None:
    # std::ostream prints a null hipStream_t as 0, however it was given (0, or read back by get_stream).
    h = blas.create_handle()
    blas.set_stream(h, 0)
    blas.get_stream(h)
    blas.destroy_handle(h)
    assert trace()[1:3] == ["rocblas_set_stream,0,atomics_not_allowed", "rocblas_get_stream,0,atomics_not_allowed"]


def test_calls_during_a_size_query_are_not_traced(trace: Any) -> None:
    # rocBLAS answers the query (RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED, or the workspace size)
    # before its *_impl logs the call.
    h = blas.create_handle()
    x = rm.to_device(np.arange(4.0))
    blas.start_device_memory_size_query(h)
    assert blas.dscal(h, 4, 2.0, x, 1) == RocblasStatus.size_unchanged
    assert blas.ddot(h, 4, x, 1, x, 1) == RocblasStatus.size_increased
    blas.stop_device_memory_size_query(h)
    blas.dscal(h, 3, 2.0, x, 1)
    blas.destroy_handle(h)
    lines = trace()
    assert _calls(lines, "rocblas_ddot") == []
    assert [c[1] for c in _calls(lines, "rocblas_dscal")] == ["3"]
    np.testing.assert_array_equal(x.get(), [0.0, 2.0, 4.0, 3.0])


def test_the_profile_file_is_started_anew_when_the_handle_is_made(env: pytest.MonkeyPatch,  # noqa: F811
                                                                  tmp_path: Any) -> None:
    # handle.cpp init_logging opens (O_TRUNC) the stream of every layer on, the profile's too, when the
    # handle is made: a handle that profiles nothing still leaves the file empty.
    path = tmp_path / "profile.yaml"
    path.write_text("- { a profile of an earlier run }\n")
    env.setenv("ROCBLAS_LAYER", "4")
    env.setenv("ROCBLAS_LOG_PROFILE_PATH", str(path))
    h = blas.create_handle()
    blas.destroy_handle(h)
    assert _read(path) == []


def test_logged_calls_are_each_logged(trace: Any) -> None:
    # Identical calls replay on a quiet handle; on a tracing one each is a call rocBLAS logs.
    h = blas.create_handle()
    x = rm.to_device(np.ones(4))
    for _ in range(4):
        blas.dscal(h, 4, 2.0, x, 1)
    blas.destroy_handle(h)
    assert len(_calls(trace(), "rocblas_dscal")) == 4
    np.testing.assert_array_equal(x.get(), 16.0)


def test_the_profile_layer_never_changes_a_call(env: pytest.MonkeyPatch, tmp_path: Any) -> None:  # noqa: F811
    # Arguments no command line can say are profiled under the function's name; the call itself
    # runs as without the layer.
    from rocmath.blas import _benchline

    def refuse(*args: Any, **kwargs: Any) -> str:
        raise ValueError("not expressible")

    path = tmp_path / "profile.yaml"
    env.setenv("ROCBLAS_LAYER", "4")
    env.setenv("ROCBLAS_LOG_PROFILE_PATH", str(path))
    env.setattr(_benchline, "bench_line", refuse)
    h = blas.create_handle()
    x = rm.to_device(np.arange(4.0))
    blas.dscal(h, 4, 2.0, x, 1)
    blas.destroy_handle(h)
    np.testing.assert_array_equal(x.get(), [0.0, 2.0, 4.0, 6.0])
    lines = _read(path)
    assert len(lines) == 1 and lines[0].startswith("- { function: rocblas_dscal, calls: 1,")
    assert 'problem: "rocblas_dscal (arguments not expressible as a command)"' in lines[0]


# --- math mode -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("arch", "xf32"), [("gfx940", True), ("gfx941:sramecc+:xnack-", True), ("gfx942", True),
                                            ("gfx90a", False), ("gfx908", False), ("gfx1100", False)])
def test_xf32_only_on_gfx94x_and_default_math_anywhere(handle: Any, monkeypatch: pytest.MonkeyPatch, arch: str,
                                                      xf32: bool) -> None:
    # rocblas_internal_tensile_supports_xdl_math_op: gfx940, gfx941, gfx942; other modes are ignored.
    props = type("P", (), {"gcnArchName": arch})()
    monkeypatch.setattr(rm, "get_device_properties", lambda *a: props)
    blas.set_math_mode(handle, blas.MathMode.xf32_xdl_math_op)
    assert blas.get_math_mode(handle) is (blas.MathMode.xf32_xdl_math_op if xf32 else blas.MathMode.default_math)
    handle.math_mode = blas.MathMode.xf32_xdl_math_op
    blas.set_math_mode(handle, blas.MathMode.default_math)
    assert blas.get_math_mode(handle) is blas.MathMode.default_math


# --- set/get vector and matrix ---------------------------------------------------------------------


def _held(seconds: float = 5.0) -> tuple[Any, threading.Event]:
    """A non-blocking stream held by a host function until the event is set (or ``seconds`` pass)."""
    s = rm.Stream(non_blocking=True)
    gate = threading.Event()
    s.launch_host_func(gate.wait, seconds)
    return s, gate


@pytest.mark.parametrize("name", ["set_vector_async", "set_vector_async_64", "set_matrix_async",
                                  "set_matrix_async_64"])
def test_set_async_is_ordered_on_its_stream_and_does_not_wait(name: str) -> None:
    # rocblas_set_vector_async / set_matrix_async: a hipMemcpy2DAsync on the stream given; the host
    # data is staged at the call, so it may change at once.
    rng = np.random.default_rng(7)
    n, inc = 5, 2
    x = random_bits(rng, (n - 1) * inc + 1, np.float64)
    want = x[::inc].copy()
    y = rt.PaddedDeviceVector(n, 1, np.float64)
    before = rt.snapshot(y)
    s, gate = _held()
    try:
        if "vector" in name:
            getattr(blas, name)(n, 8, x, inc, y.ptr, 1, s)
        else:
            getattr(blas, name)(1, n, 8, x, inc, y.ptr, 1, s)
        held = not gate.is_set()
        x[...] = 0.0
        rt.assert_unchanged(before)  # not before its stream gets there
        assert held
    finally:
        gate.set()
    s.synchronize()
    assert raw(y.get()) == raw(want)
    y.check_untouched()
    y.close()
    s.destroy()


@pytest.mark.parametrize("name", ["get_vector_async", "get_vector_async_64", "get_matrix_async",
                                  "get_matrix_async_64"])
def test_get_async_runs_on_its_stream(name: str) -> None:
    src = rm.to_device(np.arange(1.0, 7.0))
    s = rm.Stream()
    out = np.full(6, SENTINEL)
    with rm.profile() as records:
        if "vector" in name:
            getattr(blas, name)(3, 8, src, 2, out, 2, s)
        else:
            getattr(blas, name)(2, 2, 8, src, 3, out, 4, s)
        s.synchronize()
    assert [r.stream for r in records if r.name == "get_matrix"] == [s.ident]
    want = np.full(6, SENTINEL)
    if "vector" in name:
        want[::2] = [1.0, 3.0, 5.0]
    else:
        want[[0, 1, 4, 5]] = [1.0, 2.0, 4.0, 5.0]
    np.testing.assert_array_equal(out, want)
    s.destroy()


_SIXTY_FOUR = {
    "set_vector_64": dict(n=0, elem_size=8, incx=BIG32, incy=BIG32),
    "get_vector_64": dict(n=0, elem_size=8, incx=BIG32, incy=BIG32),
    "set_vector_async_64": dict(n=0, elem_size=8, incx=BIG32, incy=BIG32),
    "get_vector_async_64": dict(n=0, elem_size=8, incx=BIG32, incy=BIG32),
    "set_matrix_64": dict(rows=0, cols=2, elem_size=8, lda=BIG32, ldb=BIG32),
    "get_matrix_64": dict(rows=0, cols=2, elem_size=8, lda=BIG32, ldb=BIG32),
    "set_matrix_async_64": dict(rows=0, cols=2, elem_size=8, lda=BIG32, ldb=BIG32),
    "get_matrix_async_64": dict(rows=0, cols=2, elem_size=8, lda=BIG32, ldb=BIG32),
}


@pytest.mark.parametrize("name", sorted(_SIXTY_FOUR))
def test_every_64_function_takes_int64_sizes(name: str) -> None:
    # int64_t sizes: a value past rocblas_int is valid (n == 0 / rows == 0: success, nothing copied);
    # the LP64 function refuses it, naming the argument.
    dev = rm.to_device(np.full(4, SENTINEL))
    host = np.full(4, SENTINEL)
    kw: dict[str, Any] = dict(_SIXTY_FOUR[name])
    first, second = ("x", "y") if "vector" in name else ("a", "b")
    kw[first], kw[second] = (host, dev) if name.startswith("set") else (dev, host)
    if "async" in name:
        kw["stream"] = None
    assert getattr(blas, name)(**kw) is None
    big = "incx" if "vector" in name else "lda"
    with pytest.raises(errors.RocblasInvalidSizeError) as info:
        getattr(blas, name.removesuffix("_64"))(**kw)
    assert info.value.arg == big
    rm.device_synchronize()
    np.testing.assert_array_equal(dev.get(), SENTINEL)
    np.testing.assert_array_equal(host, SENTINEL)


@pytest.mark.parametrize("name", ["set_vector", "get_vector", "set_matrix", "get_matrix"])
def test_null_pointers_are_invalid_pointer_the_source_named_first(name: str) -> None:
    # rocblas_auxiliary.cpp: if(!x || !y) return rocblas_status_invalid_pointer, after the size checks;
    # a 0 is as null as None.
    vector = "vector" in name
    sizes = dict(n=2, elem_size=8, incx=1, incy=1) if vector else dict(rows=2, cols=1, elem_size=8, lda=2, ldb=2)
    first, second = ("x", "y") if vector else ("a", "b")
    host, dev = np.zeros(2), rm.zeros(2)
    good = (host, dev) if name.startswith("set") else (dev, host)
    # (a numpy integer 0 is null too, found before the other argument's check)
    for src, dst, arg in ((0, None, first), (None, good[1], first), (np.int64(0), None, first),
                          (good[0], 0, second), (good[0], None, second), (good[0], np.intp(0), second)):
        with pytest.raises(errors.RocblasInvalidPointerError) as info:
            getattr(blas, name)(**sizes, **{first: src, second: dst})
        assert info.value.status == RocblasStatus.invalid_pointer and info.value.arg == arg
    np.testing.assert_array_equal(host, 0)
    with pytest.raises(errors.RocblasInvalidSizeError):  # sizes first
        getattr(blas, name)(**{**sizes, "elem_size": 0}, **{first: None, second: None})


def test_a_strided_numpy_view_is_no_host_buffer() -> None:
    # A C pointer has no strides: a view that is not contiguous is refused, never copied (a copy would
    # take get_vector's writes away from the caller's array).
    dev = rm.to_device(np.arange(1.0, 5.0))
    buf = np.full(8, SENTINEL)
    with pytest.raises(errors.RocblasInvalidPointerError) as info:
        blas.get_vector(4, 8, dev, 1, buf[::2], 1)
    assert info.value.arg == "y" and info.value.index == 5
    with pytest.raises(errors.RocblasInvalidPointerError) as info:
        blas.get_matrix(2, 2, 8, dev, 2, np.full((4, 4), SENTINEL)[::2, ::2], 2)
    assert info.value.arg == "b"
    np.testing.assert_array_equal(buf, SENTINEL)
    np.testing.assert_array_equal(dev.get(), [1.0, 2.0, 3.0, 4.0])


def test_a_read_only_buffer_is_no_destination() -> None:
    dev = rm.to_device(np.arange(2.0))
    for ro in (bytes(16), memoryview(bytearray(16)).toreadonly()):
        with pytest.raises(errors.RocblasInvalidPointerError) as info:
            blas.get_vector(2, 8, dev, 1, ro, 1)
        assert info.value.arg == "y" and info.value.index == 5
        with pytest.raises(errors.RocblasInvalidPointerError) as info:
            blas.get_matrix(2, 1, 8, dev, 2, ro, 2)
        assert info.value.arg == "b" and info.value.index == 6
    assert bytes(16) == b"\0" * 16
    buf = bytearray(16)  # a writable one is
    blas.get_vector(2, 8, dev, 1, buf, 1)
    np.testing.assert_array_equal(np.frombuffer(buf), [0.0, 1.0])


# --- check-numerics ------------------------------------------------------------------------------


@pytest.fixture
def failing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("ROCBLAS_CHECK_NUMERICS", "4")  # fail
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def test_denormals_are_below_the_smallest_normal_of_the_storage_type(failing: Any) -> None:
    # utility.hpp rocblas_isdenorm: denorm_min <= |x| < numeric_limits<T>::min(); complex: either part.
    for dtype, axpy in ((np.float64, blas.daxpy), (np.float32, blas.saxpy)):
        tiny = np.finfo(dtype).tiny
        y = rm.zeros(2, dtype)
        axpy(failing, 2, 1.0, rm.to_device(np.array([tiny, -tiny], dtype)), 1, y, 1)  # normal: passes
        np.testing.assert_array_equal(y.get(), np.array([tiny, -tiny], dtype))
        sub = np.array([1.0, tiny / 4], dtype)
        assert sub[1] != 0 and abs(sub[1]) < tiny
        y = rm.zeros(2, dtype)
        with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal in input 'x'"):
            axpy(failing, 2, 1.0, rm.to_device(sub), 1, y, 1)
        np.testing.assert_array_equal(y.get(), 0)
    for dtype, axpy in ((np.complex128, blas.zaxpy), (np.complex64, blas.caxpy)):
        tiny = np.finfo(dtype).tiny
        for value in (complex(tiny / 4, 1.0), complex(1.0, -tiny / 4)):
            y = rm.zeros(2, dtype)
            with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal in input 'x'"):
                axpy(failing, 2, 1.0, rm.to_device(np.array([1.0, value], dtype)), 1, y, 1)
            np.testing.assert_array_equal(y.get(), 0)
        y = rm.zeros(1, dtype)
        axpy(failing, 1, 1.0, rm.to_device(np.array([complex(tiny, 0.0)], dtype)), 1, y, 1)
        np.testing.assert_array_equal(y.get(), np.array([complex(tiny, 0.0)], dtype))


def test_a_reduction_result_is_not_scanned(failing: Any) -> None:
    # rocblas_dot_check_numerics scans x and y, never the result: a NaN left there is overwritten.
    blas.set_pointer_mode(failing, blas.PointerMode.device)
    try:
        x = rm.to_device(np.array([1.0, 2.0, 3.0], np.float16))
        result = rm.to_device(np.array([np.nan, SENTINEL], np.float16))
        blas.hdot(failing, 3, x, 1, x, 1, result)
        failing.stream.synchronize()
        np.testing.assert_array_equal(result.get(), np.array([14.0, SENTINEL], np.float16))
    finally:
        blas.set_pointer_mode(failing, blas.PointerMode.host)


def test_check_numerics_calls_are_each_scanned(failing: Any) -> None:
    # Identical calls replay on a quiet handle; with check-numerics each one scans its operands.
    x, y = rm.to_device(np.ones(3)), rm.zeros(3)
    for _ in range(3):
        blas.daxpy(failing, 3, 1.0, x, 1, y, 1)
    x.set(np.array([1.0, np.nan, 1.0]))
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN in input 'x'"):
        blas.daxpy(failing, 3, 1.0, x, 1, y, 1)
    np.testing.assert_array_equal(y.get(), 3.0)


# --- replays ---------------------------------------------------------------------------------------


def test_replayed_batched_reductions_return_arrays(handle: Any) -> None:
    x = rm.to_device(np.arange(1.0, 7.0))
    for _ in range(4):
        got = blas.dasum_strided_batched(handle, 3, x, 1, 3, 2)
        assert isinstance(got, np.ndarray)
        np.testing.assert_array_equal(got, [6.0, 15.0])


def test_replayed_reductions_write_a_host_result_buffer(handle: Any) -> None:
    x = rm.to_device(np.arange(1.0, 5.0))
    out = np.full(1, SENTINEL)
    for k in range(1, 5):
        x.set(k * np.arange(1.0, 5.0))
        assert blas.dasum(handle, 4, x, 1, out) == 10.0 * k
        assert out[0] == 10.0 * k


def test_a_replayed_reduction_waits_for_its_busy_stream() -> None:
    # Host pointer mode: rocBLAS blocks until the result is on the host, a replay as a first call.
    h = blas.create_handle()
    s = rm.Stream()
    blas.set_stream(h, s)
    x = rm.to_device(np.arange(1.0, 5.0))
    try:
        for _ in range(3):  # (the second call is recorded as the plan the third replays)
            assert blas.dasum(h, 4, x, 1) == 10.0
        x.set(2 * np.arange(1.0, 5.0))
        gate = threading.Event()
        s.launch_host_func(gate.wait, 5.0)
        opener = threading.Timer(0.2, gate.set)
        opener.start()
        assert blas.dasum(h, 4, x, 1) == 20.0
        opener.join()
    finally:
        blas.destroy_handle(h)
        s.destroy()
