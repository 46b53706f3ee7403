"""rocBLAS auxiliary functions (rocmath.blas._handle): handle lifecycle and modes, status strings,
pointer classification, set/get vector and matrix (+ async), workspace functions, logging."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.blas as blas
import rocmath.testing as rt
from rocmath import errors
from rocmath.errors import RocblasStatus

DTYPES = {1: np.uint8, 2: np.uint16, 4: np.float32, 8: np.float64, 16: np.complex128}


@pytest.fixture
def handle():
    h = blas.create_handle()
    yield h
    if not h._destroyed:
        blas.destroy_handle(h)


@pytest.fixture(scope="module")
def stream():
    s = rm.Stream()
    yield s
    s.synchronize()


def raw(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).view(np.uint8).tobytes()


def random_bits(rng: np.random.Generator, count: int, dtype) -> np.ndarray:
    """Random bit patterns (NaNs included for floats): copies must move bits, not values."""
    dt = np.dtype(dtype)
    return rng.integers(0, 256, size=count * dt.itemsize, dtype=np.uint8).view(dt)


# --- handle, stream, modes -----------------------------------------------------------------------


def test_create_and_destroy_handle(monkeypatch):
    monkeypatch.delenv("ROCBLAS_LAYER", raising=False)
    monkeypatch.delenv("ROCBLAS_DEFAULT_ATOMICS_MODE", raising=False)
    h = blas.create_handle()
    assert isinstance(h, blas.Handle)
    assert blas.get_stream(h) is rm.null_stream()
    assert blas.get_pointer_mode(h) == blas.PointerMode.host
    assert isinstance(blas.get_pointer_mode(h), blas.PointerMode)
    assert blas.get_math_mode(h) == blas.MathMode.default_math
    assert blas.get_performance_metric(h) == blas.PerformanceMetric.default
    assert blas.get_atomics_mode(h) in (blas.AtomicsMode.allowed, blas.AtomicsMode.not_allowed)
    assert blas.is_managing_device_memory(h) and blas.get_device_memory_size(h) == 0
    assert not blas.is_device_memory_size_query(h)
    blas.destroy_handle(h)
    for fn, args in ((blas.destroy_handle, ()), (blas.get_stream, ()), (blas.set_stream, (None,)),
                     (blas.get_pointer_mode, ()), (blas.set_pointer_mode, (0,)), (blas.get_atomics_mode, ()),
                     (blas.set_math_mode, (0,)), (blas.get_math_mode, ()), (blas.get_device_memory_size, ()),
                     (blas.start_device_memory_size_query, ()), (blas.set_workspace, (None, 0))):
        with pytest.raises(errors.RocblasInvalidHandleError) as info:
            fn(h, *args)
        assert info.value.status == RocblasStatus.invalid_handle and info.value.arg == "handle", fn
    for bad in (None, 0, "handle", rm.Handle()):  # rm.Handle is a handle; None and others are not
        if isinstance(bad, rm.Handle):
            continue
        with pytest.raises(errors.RocblasInvalidHandleError):
            blas.destroy_handle(bad)
    # Handles are independent.
    a, b = blas.create_handle(), blas.create_handle()
    blas.set_pointer_mode(a, blas.PointerMode.device)
    assert blas.get_pointer_mode(b) == blas.PointerMode.host
    blas.destroy_handle(a)
    assert blas.get_pointer_mode(b) == blas.PointerMode.host
    blas.destroy_handle(b)


@pytest.mark.parametrize("value, mode", [("0", blas.AtomicsMode.not_allowed), ("1", blas.AtomicsMode.allowed)])
def test_atomics_mode_from_environment(monkeypatch, value, mode):
    monkeypatch.setenv("ROCBLAS_DEFAULT_ATOMICS_MODE", value)
    h = blas.create_handle()
    assert blas.get_atomics_mode(h) == mode
    other = blas.AtomicsMode(1 - mode)
    blas.set_atomics_mode(h, other)
    assert blas.get_atomics_mode(h) == other
    blas.set_atomics_mode(h, int(mode))
    assert blas.get_atomics_mode(h) == mode
    blas.destroy_handle(h)


def test_set_and_get_stream(handle, stream):
    blas.set_stream(handle, stream)
    assert blas.get_stream(handle) is stream
    blas.set_stream(handle, stream)  # the same stream again: fine
    # Work goes to the handle's stream.
    x, y = rm.to_device(np.ones(4)), rm.to_device(np.zeros(4))
    with rm.profile() as records:
        blas.daxpy(handle, 4, 2.0, x, 1, y, 1)
        stream.synchronize()
    assert [r.stream for r in records if r.name == "rocblas_daxpy"] == [stream.ident]
    np.testing.assert_array_equal(y.get(), 2.0)
    for null in (None, 0):
        blas.set_stream(handle, stream)
        blas.set_stream(handle, null)
        assert blas.get_stream(handle) is rm.null_stream()
    dead = rm.Stream()
    dead.destroy()
    for bad in (dead, "stream", 12345):
        with pytest.raises(errors.RocblasInvalidValueError) as info:
            blas.set_stream(handle, bad)
        assert info.value.status == RocblasStatus.invalid_value
    assert blas.get_stream(handle) is rm.null_stream()


def test_pointer_mode(handle):
    for mode in (blas.PointerMode.device, blas.PointerMode.host, 1, 0):
        blas.set_pointer_mode(handle, mode)
        got = blas.get_pointer_mode(handle)
        assert isinstance(got, blas.PointerMode) and got == mode
    assert int(blas.PointerMode.host) == 0 and int(blas.PointerMode.device) == 1


def test_math_mode_and_performance_metric(handle):
    blas.set_math_mode(handle, blas.MathMode.xf32_xdl_math_op)
    assert blas.get_math_mode(handle) == blas.MathMode.xf32_xdl_math_op
    blas.set_math_mode(handle, 7)  # unsupported: silently ignored, as rocBLAS
    assert blas.get_math_mode(handle) == blas.MathMode.xf32_xdl_math_op
    blas.set_math_mode(handle, 0)
    assert blas.get_math_mode(handle) is blas.MathMode.default_math
    for metric in blas.PerformanceMetric:
        blas.set_performance_metric(handle, metric)
        assert blas.get_performance_metric(handle) is metric
    assert [int(m) for m in blas.PerformanceMetric] == [0, 1, 2]
    # rocBLAS stores any value of these C enums and succeeds (handle.cpp, rocblas_auxiliary.cpp).
    blas.set_performance_metric(handle, 7)
    assert blas.get_performance_metric(handle) == 7
    blas.set_performance_metric(handle, 0)
    blas.set_atomics_mode(handle, 2)
    assert blas.get_atomics_mode(handle) == 2
    blas.set_atomics_mode(handle, blas.AtomicsMode.not_allowed)
    assert blas.get_atomics_mode(handle) is blas.AtomicsMode.not_allowed


def test_xf32_math_mode_needs_a_gfx94x_device(handle, monkeypatch):
    # rocBLAS supports xf32 only when the current device's arch is gfx940/941/942, and ignores it
    # elsewhere (rocblas_internal_tensile_supports_xdl_math_op).
    real = rm.get_device_properties()
    monkeypatch.setattr(rm, "get_device_properties", lambda *a: type("P", (), {"gcnArchName": "gfx90a:sramecc+"})())
    blas.set_math_mode(handle, blas.MathMode.xf32_xdl_math_op)
    assert blas.get_math_mode(handle) is blas.MathMode.default_math
    monkeypatch.setattr(rm, "get_device_properties", lambda *a: real)
    blas.set_math_mode(handle, blas.MathMode.xf32_xdl_math_op)
    assert blas.get_math_mode(handle) is blas.MathMode.xf32_xdl_math_op
    blas.set_math_mode(handle, 0)


# --- status strings, pointer classification, misc ----------------------------------------------


def test_status_to_string_for_every_status():
    expected = {0: "success", 1: "invalid_handle", 2: "not_implemented", 3: "invalid_pointer", 4: "invalid_size",
                5: "memory_error", 6: "internal_error", 7: "perf_degraded", 8: "size_query_mismatch",
                9: "size_increased", 10: "size_unchanged", 11: "invalid_value", 12: "continue",
                13: "check_numerics_fail", 14: "excluded_from_build", 15: "arch_mismatch"}
    assert {int(s) for s in RocblasStatus} == set(expected)
    for value, name in expected.items():
        assert blas.status_to_string(value) == f"rocblas_status_{name}"
        assert blas.status_to_string(RocblasStatus(value)) == f"rocblas_status_{name}"
        assert blas.status_to_string(np.int32(value)) == f"rocblas_status_{name}"
    assert blas.status_to_string(RocblasStatus.invalid_size) == "rocblas_status_invalid_size"
    for undefined in (16, 99, -1, 2**31 - 1):
        assert blas.status_to_string(undefined) == "<undefined rocblas_status value>"
    assert blas.Status is RocblasStatus


def test_pointer_to_mode():
    dev = rm.to_device(np.ones(3))
    assert blas.pointer_to_mode(dev) == blas.PointerMode.device
    assert blas.pointer_to_mode(dev.ptr) == blas.PointerMode.device
    assert blas.pointer_to_mode(dev.ptr + 8) == blas.PointerMode.device  # inside the allocation
    managed = rm.malloc_managed(64)
    pinned = rm.malloc_host(64)
    try:
        assert blas.pointer_to_mode(managed) == blas.PointerMode.device
        assert blas.pointer_to_mode(pinned) == blas.PointerMode.host
    finally:
        rm.free(managed)
        rm.free_host(pinned)
    assert blas.pointer_to_mode(np.ones(3)) == blas.PointerMode.host
    assert blas.pointer_to_mode(None) == blas.PointerMode.host
    assert blas.pointer_to_mode(0) == blas.PointerMode.host
    assert blas.pointer_to_mode(12345) == blas.PointerMode.host
    assert isinstance(blas.pointer_to_mode(dev), blas.PointerMode)


def test_version_and_initialize():
    version = blas.get_version_string()
    assert isinstance(version, str) and version
    assert blas.get_version_string_size() == len(version.encode()) + 1  # C's buffer, NUL included
    assert blas.initialize() is None


# --- set/get vector ------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(data=st.data())
def test_set_and_get_vector(stream, data):
    elem = data.draw(st.sampled_from(sorted(DTYPES)), label="elem_size")
    dt = np.dtype(DTYPES[elem])
    n = data.draw(rt.sizes(0, 20), label="n")
    incx, incy, incz = (data.draw(st.integers(1, 3), label=k) for k in ("incx", "incy", "incz"))
    use_async = data.draw(st.booleans(), label="async")
    on = data.draw(st.sampled_from([None, 0, stream]), label="stream") if use_async else None
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    extra = data.draw(st.integers(0, 3))
    x = random_bits(rng, max(n - 1, 0) * incx + 1 + extra, dt)  # host source, gaps included
    logical = x[: n * incx: incx][:n].copy()
    x_before = raw(x)
    y = rt.PaddedDeviceVector(n, incy, dt)  # device: logical elements and gaps poisoned
    if use_async:
        blas.set_vector_async(n, elem, x, incx, y.ptr, incy, on)
        x[...] = 0  # the host data was staged at the call
        rm.null_stream().synchronize() if on in (None, 0) else on.synchronize()
        x_after = raw(x)
        x[...] = np.frombuffer(x_before, dtype=dt)
    else:
        blas.set_vector(n, elem, x, incx, y.ptr, incy)
        x_after = raw(x)
        assert x_after == x_before, "set_vector wrote its host source"
    assert raw(y.get()) == raw(logical)
    y.check_untouched()
    # ... and back into a host buffer whose gaps must survive.
    z = random_bits(rng, max(n - 1, 0) * incz + 1 + extra, dt)
    z_expected = z.copy()
    z_expected[: n * incz: incz] = logical
    y_before = rt.snapshot(y)
    if use_async:
        blas.get_vector_async(n, elem, y.ptr, incy, z, incz, on)
        rm.null_stream().synchronize() if on in (None, 0) else on.synchronize()
    else:
        blas.get_vector(n, elem, y.ptr, incy, z, incz)
    assert raw(z) == raw(z_expected)
    rt.assert_unchanged(y_before)
    y.close()


@settings(max_examples=rt.examples(40))
@given(data=st.data())
def test_set_and_get_matrix(stream, data):
    elem = data.draw(st.sampled_from(sorted(DTYPES)), label="elem_size")
    dt = np.dtype(DTYPES[elem])
    rows, cols = data.draw(rt.sizes(0, 9), label="rows"), data.draw(rt.sizes(0, 9), label="cols")
    lda, ldb, ldc = (data.draw(rt.leading_dimensions(rows, max_padding=3), label=k) for k in ("lda", "ldb", "ldc"))
    use_async = data.draw(st.booleans(), label="async")
    on = data.draw(st.sampled_from([None, 0, stream]), label="stream") if use_async else None
    fortran = data.draw(st.booleans(), label="2-D Fortran-order host arrays")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = random_bits(rng, lda * max(cols, 1), dt)  # host, column-major with leading dimension lda
    a_view = a.reshape(max(cols, 1), lda).T  # (lda, cols) view, Fortran-ordered
    logical = a_view[:rows, :cols].copy()
    a_before = raw(a)
    host_a = np.asfortranarray(a_view) if fortran else a
    b = rt.PaddedDeviceMatrix(rows, cols, ldb, dt)
    if use_async:
        blas.set_matrix_async(rows, cols, elem, host_a, lda, b.ptr, ldb, on)
        rm.null_stream().synchronize() if on in (None, 0) else on.synchronize()
    else:
        blas.set_matrix(rows, cols, elem, host_a, lda, b.ptr, ldb)
    assert raw(a) == a_before and raw(np.asarray(host_a).T if fortran else host_a) == a_before
    assert raw(np.asfortranarray(b.get())) == raw(np.asfortranarray(logical))
    b.check_untouched()
    c = random_bits(rng, ldc * max(cols, 1), dt)
    c_expected = c.copy()
    c_expected.reshape(max(cols, 1), ldc).T[:rows, :cols] = logical
    b_before = rt.snapshot(b)
    host_c = np.asfortranarray(c.reshape(max(cols, 1), ldc).T) if fortran else c
    if use_async:
        blas.get_matrix_async(rows, cols, elem, b.ptr, ldb, host_c, ldc, on)
        rm.null_stream().synchronize() if on in (None, 0) else on.synchronize()
    else:
        blas.get_matrix(rows, cols, elem, b.ptr, ldb, host_c, ldc)
    got = np.asarray(host_c).T.reshape(-1) if fortran else host_c
    assert raw(got) == raw(c_expected)
    rt.assert_unchanged(b_before)
    b.close()


def test_set_vector_to_pinned_and_from_device_array():
    """Host memory may be a numpy array, a bytearray or a pinned allocation (by pointer)."""
    pinned = rm.malloc_host(32)
    try:
        host = rm.host_view(pinned, 4, np.float64)
        host[...] = [1.0, 2.0, 3.0, 4.0]
        dev = rm.zeros(4)
        blas.set_vector(4, 8, pinned, 1, dev, 1)
        np.testing.assert_array_equal(dev.get(), [1.0, 2.0, 3.0, 4.0])
        buf = bytearray(16)
        blas.get_vector(2, 8, dev, 2, buf, 1)
        np.testing.assert_array_equal(np.frombuffer(buf, np.float64), [1.0, 3.0])
        host[...] = 0
        blas.get_vector(4, 8, dev.ptr, 1, pinned, 1)
        np.testing.assert_array_equal(host, [1.0, 2.0, 3.0, 4.0])
    finally:
        rm.free_host(pinned)


VECTOR_FUNCS = ("set_vector", "get_vector", "set_vector_async", "get_vector_async")
MATRIX_FUNCS = ("set_matrix", "get_matrix", "set_matrix_async", "get_matrix_async")
# (keyword changes, expected error, argument, 1-based C position)
VECTOR_BAD = [
    (dict(n=-1), errors.RocblasInvalidSizeError, "n", 1),
    (dict(elem_size=0), errors.RocblasInvalidSizeError, "elem_size", 2),
    (dict(elem_size=-8), errors.RocblasInvalidSizeError, "elem_size", 2),
    (dict(incx=0), errors.RocblasInvalidSizeError, "incx", 4),
    (dict(incx=-1), errors.RocblasInvalidSizeError, "incx", 4),
    (dict(incy=0), errors.RocblasInvalidSizeError, "incy", 6),
    (dict(incy=-2), errors.RocblasInvalidSizeError, "incy", 6),
    (dict(x=None), errors.RocblasInvalidPointerError, "x", 3),
    (dict(y=None), errors.RocblasInvalidPointerError, "y", 5),
    (dict(y=0), errors.RocblasInvalidPointerError, "y", 5),
]
MATRIX_BAD = [
    (dict(rows=-1), errors.RocblasInvalidSizeError, "rows", 1),
    (dict(cols=-1), errors.RocblasInvalidSizeError, "cols", 2),
    (dict(elem_size=0), errors.RocblasInvalidSizeError, "elem_size", 3),
    (dict(lda=0), errors.RocblasInvalidSizeError, "lda", 5),
    (dict(lda=2), errors.RocblasInvalidSizeError, "lda", 5),  # lda < rows
    (dict(ldb=0), errors.RocblasInvalidSizeError, "ldb", 7),
    (dict(ldb=2), errors.RocblasInvalidSizeError, "ldb", 7),
    (dict(a=None), errors.RocblasInvalidPointerError, "a", 4),
    (dict(b=None), errors.RocblasInvalidPointerError, "b", 6),
]


def _vector_args(name, host, dev, stream, **change):
    to_device = name.startswith("set")
    args = dict(n=3, elem_size=8, x=host if to_device else dev.ptr, incx=1, y=dev.ptr if to_device else host, incy=1)
    args.update(change)
    if name.endswith("async"):
        args["stream"] = stream
    return args


def _matrix_args(name, host, dev, stream, **change):
    to_device = name.startswith("set")
    args = dict(rows=3, cols=2, elem_size=8, a=host if to_device else dev.ptr, lda=3,
                b=dev.ptr if to_device else host, ldb=4)
    args.update(change)
    if name.endswith("async"):
        args["stream"] = stream
    return args


@pytest.mark.parametrize("name", VECTOR_FUNCS + MATRIX_FUNCS)
def test_set_get_invalid_arguments_name_the_argument(name, stream):
    matrix = "matrix" in name
    dev = rt.PaddedDeviceMatrix(4, 2, 4, np.float64) if matrix else rt.PaddedDeviceVector(3, 1, np.float64)
    dev.set(np.arange(8.0).reshape(4, 2) if matrix else np.arange(3.0))
    host = np.arange(100.0, 108.0)
    host_before = host.copy()
    fn = getattr(blas, name)
    for change, exc, arg, index in (MATRIX_BAD if matrix else VECTOR_BAD):
        args = (_matrix_args if matrix else _vector_args)(name, host, dev, stream, **change)
        with pytest.raises(exc) as info:
            fn(**args)
        assert info.value.arg == arg and info.value.index == index, (name, change, info.value)
        assert info.value.status == exc.status
        stream.synchronize()
        dev.check_untouched(logical=True)
        np.testing.assert_array_equal(host, host_before)
    # Nothing to copy: success, even with null pointers and bad other sizes (rocBLAS's quick return
    # comes first: rocblas_auxiliary.cpp).
    zero = ([dict(n=0, x=None, y=None), dict(n=0, elem_size=0, incx=0, incy=-1)] if not matrix else
            [dict(rows=0, a=None, b=None), dict(cols=0, a=None, b=None), dict(rows=0, cols=-1, elem_size=0, lda=0),
             dict(rows=-1, cols=0, ldb=0)])
    for change in zero:
        assert fn(**(_matrix_args if matrix else _vector_args)(name, host, dev, stream, **change)) is None
    stream.synchronize()
    dev.check_untouched(logical=True)
    np.testing.assert_array_equal(host, host_before)


def test_set_get_vector_needs_the_right_kind_of_memory():
    dev = rm.to_device(np.arange(4.0))
    host = np.zeros(4)
    # A host buffer too small for n elements at its increment.
    with pytest.raises(errors.RocblasInvalidSizeError) as info:
        blas.set_vector(4, 8, np.zeros(3), 1, dev, 1)
    assert info.value.arg == "x"
    with pytest.raises(errors.RocblasInvalidSizeError) as info:
        blas.get_vector(3, 8, dev, 1, host, 2)
    assert info.value.arg == "y"
    # A device buffer too small: an access fault, before anything is copied.
    with pytest.raises(rm.MemoryAccessFault):
        blas.set_vector(3, 8, host, 1, dev, 2)
    with pytest.raises(rm.MemoryAccessFault):
        blas.get_matrix(2, 3, 8, dev, 2, np.zeros(6), 2)
    # Host memory where device memory belongs.
    with pytest.raises(errors.RocblasInvalidPointerError) as info:
        blas.set_vector(2, 8, host, 1, np.zeros(2), 1)
    assert info.value.arg == "y"
    # A read-only host destination.
    ro = np.zeros(4)
    ro.flags.writeable = False
    with pytest.raises(errors.RocblasInvalidPointerError) as info:
        blas.get_vector(4, 8, dev, 1, ro, 1)
    assert info.value.arg == "y"
    np.testing.assert_array_equal(dev.get(), np.arange(4.0))
    np.testing.assert_array_equal(host, 0)


# --- workspace -----------------------------------------------------------------------------------


def test_workspace_functions(handle):
    assert blas.is_managing_device_memory(handle) and blas.get_device_memory_size(handle) == 0
    # rocBLAS's user-managed scheme: a fixed size, rounded up to 64 bytes.
    blas.set_device_memory_size(handle, 1000)
    assert blas.get_device_memory_size(handle) == 1024
    assert not blas.is_managing_device_memory(handle) and blas.is_user_managing_device_memory(handle)
    blas.set_device_memory_size(handle, 64)
    assert blas.get_device_memory_size(handle) == 64
    blas.set_device_memory_size(handle, 0)  # back to rocBLAS-managed, nothing held
    assert blas.is_managing_device_memory(handle) and blas.get_device_memory_size(handle) == 0
    assert not blas.is_user_managing_device_memory(handle)
    # User-owned memory.
    user = rm.malloc(4096)
    try:
        blas.set_workspace(handle, user, 4096)
        assert not blas.is_managing_device_memory(handle) and blas.get_device_memory_size(handle) == 4096
        assert not blas.is_user_managing_device_memory(handle)  # user-owned, not user-managed (handle.cpp)
        blas.set_workspace(handle, None, 0)
        assert blas.is_managing_device_memory(handle)
        blas.set_workspace(handle, user, 0)  # a zero size also gives management back
        assert blas.is_managing_device_memory(handle)
        with pytest.raises(errors.RocblasInvalidPointerError):
            blas.set_workspace(handle, user + 4000, 4096)  # runs past the allocation
    finally:
        rm.free(user)
    # Level-1 calls need no workspace, whatever the scheme.
    blas.set_device_memory_size(handle, 128)
    x = rm.to_device(np.arange(5.0))
    assert blas.dnrm2(handle, 5, x, 1) == pytest.approx(np.sqrt(30.0))
    blas.destroy_handle(handle)  # gives the handle's memory back


@pytest.mark.parametrize(("value", "size"), [("100", 100), ("0x1000", 4096), ("010", 8), ("4096 bytes", 4096)])
def test_device_memory_size_from_environment(monkeypatch, value, size):
    # rocBLAS reads it with strtoul(env, nullptr, 0) and keeps the size as given (handle.cpp).
    monkeypatch.setenv("ROCBLAS_DEVICE_MEMORY_SIZE", value)
    h = blas.create_handle()
    assert blas.get_device_memory_size(h) == size
    assert not blas.is_managing_device_memory(h)
    blas.destroy_handle(h)


def test_device_memory_size_query(handle):
    assert not blas.is_device_memory_size_query(handle)
    blas.start_device_memory_size_query(handle)
    assert blas.is_device_memory_size_query(handle)
    with pytest.raises(errors.RocblasSizeQueryMismatchError) as info:
        blas.start_device_memory_size_query(handle)
    assert info.value.status == RocblasStatus.size_query_mismatch
    x = rm.to_device(np.arange(4.0))
    before = rt.snapshot(x)
    assert blas.dscal(handle, 4, 2.0, x, 1) == RocblasStatus.size_unchanged
    # ddot asks for its reduction workspace, as rocBLAS's (rocblas_dot_imp.hpp): one block's
    # partial sum and the result, rounded up to 64 bytes
    assert blas.ddot(handle, 4, x, 1, x, 1) == RocblasStatus.size_increased
    assert blas.daxpy(handle, 4, None, None, 1, None, 1) == RocblasStatus.size_unchanged  # nothing is checked
    assert blas.stop_device_memory_size_query(handle) == 64
    assert not blas.is_device_memory_size_query(handle)
    with pytest.raises(errors.RocblasSizeQueryMismatchError):
        blas.stop_device_memory_size_query(handle)
    rt.assert_unchanged(before)
    assert blas.dnrm2(handle, 4, x, 1) == pytest.approx(np.sqrt(14.0))  # computes again


# --- logging -------------------------------------------------------------------------------------


@pytest.fixture
def trace_path():
    """A fresh log file; rocmath keeps log files open for the process, so close it after."""
    from rocmath import log

    path = os.path.join(tempfile.mkdtemp(), "trace.log")
    yield path
    for p in (path, path + ".bench"):
        f = log._files.pop(p, None)
        if f is not None:
            f.close()


def _trace_lines(path: str) -> list[str]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.mark.parametrize("layer", ["1", "0x1", "3"])
def test_trace_log_is_written_even_for_invalid_calls(monkeypatch, layer, trace_path):
    path = trace_path
    monkeypatch.setenv("ROCBLAS_LAYER", layer)
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", path)
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", path + ".bench")
    h = blas.create_handle()
    x, y = rm.to_device(np.arange(1.0, 9.0)), rm.to_device(np.zeros(8))
    blas.daxpy(h, 8, 2.0, x, 1, y, 1)
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.daxpy(h, 7, None, x, 1, y, 1)  # logging precedes validation
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.ddot(h, 6, None, 3, y, 1)
    blas.destroy_handle(h)
    np.testing.assert_array_equal(y.get(), 2.0 * np.arange(1.0, 9.0))
    lines = _trace_lines(path)
    axpy = [ln.split(",") for ln in lines if ln.startswith("rocblas_daxpy,")]
    assert [f[1] for f in axpy] == ["8", "7"], lines
    assert axpy[0][2] in ("2", "2.0")
    dot = [ln for ln in lines if ln.startswith("rocblas_ddot,")]
    assert len(dot) == 1 and dot[0].split(",")[1] == "6" and ",3," in dot[0]


def test_no_trace_without_the_layer(monkeypatch, trace_path):
    path = trace_path
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", path)
    monkeypatch.setenv("ROCBLAS_LAYER", "2")  # bench only: no trace lines
    monkeypatch.setenv("ROCBLAS_LOG_BENCH_PATH", path + ".bench")
    h = blas.create_handle()
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    monkeypatch.delenv("ROCBLAS_LAYER")
    h = blas.create_handle()  # the environment is read when a handle is created
    blas.daxpy(h, 0, 1.0, None, 1, None, 1)
    blas.destroy_handle(h)
    assert not any(ln.startswith("rocblas_daxpy") for ln in _trace_lines(path))


def test_abort_flushes_the_logs_then_raises_sigabrt(tmp_path):
    # rocblas_abort: the log streams are flushed, then the process aborts (no atexit, no exit status 0).
    import signal
    import subprocess
    import sys

    trace = tmp_path / "trace.log"
    code = ("import rocmath.blas as b, sys; h = b.create_handle(); print('before', flush=False); "
            "sys.stderr.write('err line'); b.abort(); print('never')")
    env = {**os.environ, "ROCBLAS_LAYER": "1", "ROCBLAS_LOG_TRACE_PATH": str(trace)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == -signal.SIGABRT
    assert out.stdout == "before\n" and out.stderr == "err line"
    assert "rocblas_create_handle" in trace.read_text()
