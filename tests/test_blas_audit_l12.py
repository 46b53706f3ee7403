"""rocBLAS Level 1 and 2 behaviours found by an audit against rocBLAS's source (commit b520bc8):
size queries (where they are answered, and the bytes reported), batched dot quick returns,
host-mode batched rotm, rotm's negative flags, rotg with NaN and scal with alpha == 1."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
from rocmath import errors
from rocmath.errors import RocblasStatus

NAN = float("nan")


@pytest.fixture
def handle():
    h = blas.create_handle()
    yield h
    h.destroy()


def device(h: Any) -> None:
    blas.set_pointer_mode(h, blas.PointerMode.device)


def query(h: Any, fn: Any, *args: Any) -> tuple[Any, int]:
    """The status a call returns during a size query, and the size the query then reports."""
    blas.start_device_memory_size_query(h)
    try:
        status = fn(h, *args)
    finally:
        size = blas.stop_device_memory_size_query(h)
    return status, size


def query_raises(h: Any, error: type, fn: Any, *args: Any) -> None:
    blas.start_device_memory_size_query(h)
    try:
        with pytest.raises(error):
            fn(h, *args)
    finally:
        assert blas.stop_device_memory_size_query(h) == 0


def round64(nbytes: int) -> int:
    return -(-nbytes // 64) * 64


# --- 1. routines that check their arguments before answering a size query ---------------------


def test_trmv_like_queries_check_enums_and_sizes_first(handle):
    # rocblas_trmv.hpp, rocblas_tpmv.hpp, rocblas_trsv.hpp: enums, sizes, quick return, then the query
    A, x = rm.to_device(np.eye(4)), rm.to_device(np.ones(4))
    query_raises(handle, errors.RocblasInvalidValueError, blas.dtrmv, 999, "N", "N", 4, A, 4, x, 1)
    query_raises(handle, errors.RocblasInvalidValueError, blas.dtrsv, "U", 5, "N", 4, A, 4, x, 1)
    query_raises(handle, errors.RocblasInvalidValueError, blas.dtpmv, "U", "N", 7, 4, A, x, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtrmv, "U", "N", "N", -1, A, 4, x, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtrsv, "U", "N", "N", 4, A, 1, x, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtpmv, "U", "N", "N", 4, A, x, 0)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtrmv_batched, "U", "N", "N", 4, None, 4, None, 1,
                 -1)
    # an empty problem: size_unchanged
    assert query(handle, blas.dtrmv, "U", "N", "N", 0, None, 1, None, 1) == (RocblasStatus.size_unchanged, 0)
    assert query(handle, blas.dtrsv_strided_batched, "U", "N", "N", 4, None, 4, 16, None, 1, 4, 0) == (
        RocblasStatus.size_unchanged, 0)
    # pointers are not checked before the answer: a copy of x, an int per entry for trsv
    assert query(handle, blas.dtrmv, "U", "N", "N", 4, None, 4, None, 1) == (RocblasStatus.size_increased, 64)
    assert query(handle, blas.ztpmv_strided_batched, "L", "C", "U", 10, None, 55, None, 1, 10, 3) == (
        RocblasStatus.size_increased, round64(16 * 10 * 3))
    assert query(handle, blas.strsv_batched, "U", "T", "N", 10, None, 10, None, 1, 20) == (
        RocblasStatus.size_increased, round64(4 * 20))
    np.testing.assert_array_equal(x.get(), np.ones(4))


def test_tbmv_query_checks_pointers_too(handle):
    # rocblas_tbmv_imp.hpp: the pointer check comes before the query; the batched form also
    # asks for an array of pointers (rocblas_tbmv_batched_imp.hpp)
    A, x = rm.to_device(np.ones((2, 4))), rm.to_device(np.ones(4))
    query_raises(handle, errors.RocblasInvalidPointerError, blas.dtbmv, "U", "N", "N", 4, 1, None, 2, None, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtbmv, "U", "N", "N", 4, 2, A, 2, x, 1)
    assert query(handle, blas.dtbmv, "U", "N", "N", 4, 1, A, 2, x, 1) == (RocblasStatus.size_increased, 64)
    pa = rm.to_device(np.array([A.ptr] * 3, dtype=np.uint64))
    px = rm.to_device(np.array([x.ptr] * 3, dtype=np.uint64))
    assert query(handle, blas.dtbmv_batched, "U", "N", "N", 4, 1, pa, 2, px, 1, 3) == (
        RocblasStatus.size_increased, round64(8 * 4 * 3) + round64(8 * 3))
    assert query(handle, blas.dtbmv, "U", "N", "N", 0, 1, None, 2, None, 1) == (RocblasStatus.size_unchanged, 0)
    np.testing.assert_array_equal(x.get(), np.ones(4))


def test_symv_hemv_query_checks_first_and_reports_workspace(handle):
    # rocblas_hemv_symv.hpp: uplo and sizes first; n == 0 returns success even to a query; no
    # pointer or value rule before the answer; the workspace is
    # sizeof(T) * ceil(n / 64) * n * batch_count (rocblas_hemv_symv_kernels.cpp)
    query_raises(handle, errors.RocblasInvalidValueError, blas.dsymv, "F", 4, 1.0, None, 4, None, 1, 0.0, None, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.zhemv, "U", 4, 1.0, None, 3, None, 1, 0.0, None, 1)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dsymv, "U", 4, 1.0, None, 4, None, 1, 0.0, None, 0)
    assert query(handle, blas.dsymv, "U", 0, 1.0, None, 1, None, 1, 0.0, None, 1) == (RocblasStatus.success, 0)
    assert query(handle, blas.dsymv, "U", 100, None, None, 100, None, 1, None, None, 1) == (
        RocblasStatus.size_increased, 8 * 2 * 100)
    assert query(handle, blas.zhemv_strided_batched, "L", 100, 0.0, None, 100, 0, None, 1, 0, 1.0, None, 1, 0,
                 2) == (RocblasStatus.size_increased, 16 * 2 * 100 * 2)
    assert query(handle, blas.chemv, "U", 65, 1.0, None, 65, None, 1, 0.0, None, 1) == (
        RocblasStatus.size_increased, round64(8 * 2 * 65))


def test_trsm_query_checks_first(handle):
    # rocblas_trsm.hpp: enums and sizes before the query; pointers are not checked during one
    query_raises(handle, errors.RocblasInvalidValueError, blas.dtrsm, 143, "U", "N", "N", 4, 4, 1.0, None, 4,
                 None, 4)
    query_raises(handle, errors.RocblasInvalidSizeError, blas.dtrsm, "L", "U", "N", "N", 4, 4, 1.0, None, 3,
                 None, 4)
    status, _ = query(handle, blas.dtrsm, "L", "U", "N", "N", 4, 4, None, None, 4, None, 4)
    assert status in (RocblasStatus.size_increased, RocblasStatus.size_unchanged)
    assert query(handle, blas.dtrsm, "L", "U", "N", "N", 0, 4, None, None, 1, None, 1) == (
        RocblasStatus.size_unchanged, 0)


def test_other_routines_answer_before_any_check(handle):
    # RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED first: rocblas_ger_imp.hpp, rocblas_tbsv_imp.hpp,
    # rocblas_axpy_imp.hpp; gemv and the reductions compute their bytes before any check
    assert query(handle, blas.dger, 4, 2, 1.0, None, 1, None, 1, None, 1) == (RocblasStatus.size_unchanged, 0)
    assert query(handle, blas.dtbsv, 999, "N", "N", -1, 0, None, 0, None, 0) == (RocblasStatus.size_unchanged, 0)
    assert query(handle, blas.dgemv, "X", 4, 4, None, None, 1, None, 0, None, None, 0) == (
        RocblasStatus.size_unchanged, 0)


# --- 2. the workspace rocBLAS reports for reductions and gemv -------------------------------------


def test_reduction_workspace_sizes(handle):
    # rocblas_reduction_workspace_size (rocblas_reduction.hpp): sizeof(To) * (ceil(n / NB) + 1)
    # * batch_count; dot: NB = 512 * (8, 4, 2 elements per thread for 2-, 4-, 8+-byte types),
    # To the result type (float for bfdot); asum, nrm2: NB = 512, real To; iamax, iamin:
    # NB = 1024, To = rocblas_index_value_t (8 or 16 bytes)
    n = 10**6

    def bytes_(nb, to, count=1):
        return round64(to * ((n - 1) // nb + 2) * count)

    cases = [
        (blas.ddot, (n, None, 1, None, 1), bytes_(1024, 8)),
        (blas.sdot, (n, None, 1, None, 1), bytes_(2048, 4)),
        (blas.hdot, (n, None, 1, None, 1), bytes_(4096, 2)),
        (blas.bfdot, (n, None, 1, None, 1), bytes_(4096, 4)),
        (blas.zdotc_batched, (n, None, 1, None, 1, 3), bytes_(1024, 16, 3)),
        (blas.cdotu_strided_batched, (n, None, 1, n, None, 1, n, 2), bytes_(1024, 8, 2)),
        (blas.ddot, (10, None, 0, None, 0), 64),  # dot does not look at the increments
        (blas.dasum, (n, None, 1), bytes_(512, 8)),
        (blas.scasum_batched, (n, None, 1, 4), bytes_(512, 4, 4)),
        (blas.dznrm2_strided_batched, (n, None, 1, n, 2), bytes_(512, 8, 2)),
        (blas.snrm2, (n, None, 1), bytes_(512, 4)),
        (blas.idamax, (n, None, 1), bytes_(1024, 16)),
        (blas.isamin, (n, None, 1), bytes_(1024, 8)),
        (blas.icamax_batched, (n, None, 1, 5), bytes_(1024, 8, 5)),
    ]
    for fn, args, want in cases:
        assert query(handle, fn, *args) == (RocblasStatus.size_increased, want), fn.__name__
    # empty problems need nothing
    for fn, args in ((blas.ddot, (0, None, 1, None, 1)), (blas.ddot_batched, (8, None, 1, None, 1, 0)),
                     (blas.dasum, (8, None, 0)), (blas.dnrm2_batched, (8, None, 1, -1)),
                     (blas.idamin_strided_batched, (0, None, 1, 0, 4))):
        assert query(handle, fn, *args) == (RocblasStatus.size_unchanged, 0), fn.__name__


def test_gemv_workspace_sizes(handle):
    # rocblas_internal_gemv_kernel_workspace_size (rocblas_gemv_kernels.cpp): only the skinny
    # transposed kernel (n < crossover, m >= 2048 n) needs sizeof(Tex) * ceil(m / 1024) * n * batch
    def gemv(fn, trans, m, n, *batch):
        extra = (0,) if fn.__name__.endswith("strided_batched") else ()
        args = (trans, m, n, None, None, m, *extra, None, 1, *extra, None, None, 1, *extra, *batch)
        return query(handle, fn, *args)

    assert gemv(blas.dgemv, "T", 4096, 1) == (RocblasStatus.size_increased, 64)
    assert gemv(blas.dgemv, "N", 4096, 1) == (RocblasStatus.size_unchanged, 0)
    assert gemv(blas.dgemv, 999, 4096, 1) == (RocblasStatus.size_increased, 64)  # no check comes first
    assert gemv(blas.zgemv, "C", 40960, 15) == (RocblasStatus.size_increased, 16 * 40 * 15)
    assert gemv(blas.zgemv, "C", 40960, 16) == (RocblasStatus.size_unchanged, 0)  # crossover 16
    assert gemv(blas.cgemv, "T", 2048 * 63, 63) == (RocblasStatus.size_increased, round64(8 * 126 * 63))
    assert gemv(blas.dgemv, "T", 2048 * 128, 128) == (RocblasStatus.size_unchanged, 0)  # crossover 128
    assert gemv(blas.sgemv_batched, "T", 2048 * 255, 255, 2) == (
        RocblasStatus.size_increased, round64(4 * 510 * 255 * 2))
    assert gemv(blas.hshgemv_strided_batched, "T", 2048 * 200, 200, 1) == (
        RocblasStatus.size_increased, 4 * 400 * 200)
    assert gemv(blas.dgemv, "T", 4095, 2) == (RocblasStatus.size_unchanged, 0)  # m < 2048 n


# --- 3. batched dot: batch_count <= 0 before the result pointer ----------------------------------


@pytest.mark.parametrize("count", [0, -1])
def test_batched_dot_empty_batch_before_result_check(handle, count):
    # rocblas_dot_batched_imp.hpp, rocblas_dot_strided_batched_imp.hpp
    device(handle)
    x = rm.to_device(np.arange(4.0))
    px = rm.to_device(np.array([x.ptr] * 2, dtype=np.uint64))
    assert blas.ddot_batched(handle, 4, px, 1, px, 1, count, None) is None
    assert blas.ddot_strided_batched(handle, 4, x, 1, 4, x, 1, 4, count, None) is None
    assert blas.zdotc_strided_batched(handle, 0, None, 1, 4, None, 1, 4, count, None) is None
    assert blas.hdot_batched(handle, 4, None, 1, None, 1, count, 0) is None
    res = rm.to_device(np.full(2, 7.0))
    blas.ddot_batched(handle, 4, px, 1, px, 1, count, res)
    handle.stream.synchronize()
    np.testing.assert_array_equal(res.get(), [7.0, 7.0])
    # with entries, a null result is still invalid_pointer (n == 0 and n > 0 alike)
    for n in (0, 4):
        with pytest.raises(errors.RocblasInvalidPointerError):
            blas.ddot_batched(handle, n, px, 1, px, 1, 2, None)
    blas.set_pointer_mode(handle, blas.PointerMode.host)
    assert blas.ddot_batched(handle, 4, None, 1, None, 1, count).size == 0


# --- 4. rotm: host-mode param in the batched forms -----------------------------------------------


def test_rotm_batched_host_mode_not_implemented(handle):
    # rocblas_rotm_strided_batched_imp.hpp, then rocblas_internal_rotm_launcher (rocblas_rotm_kernels.cpp)
    x, y = rm.to_device(np.array([1.0, 2.0])), rm.to_device(np.array([3.0, 4.0]))
    px = rm.to_device(np.array([x.ptr], dtype=np.uint64))
    py = rm.to_device(np.array([y.ptr], dtype=np.uint64))
    full, identity = np.array([-1.0, 1, 0, 0, 1]), np.array([-2.0, 0, 0, 0, 0])
    with pytest.raises(errors.RocblasNotImplementedError) as info:
        blas.drotm_batched(handle, 2, px, 1, py, 1, full, 1)
    assert info.value.status == RocblasStatus.not_implemented
    with pytest.raises(errors.RocblasNotImplementedError):
        blas.drotm_strided_batched(handle, 2, x, 1, 2, y, 1, 2, full, 5, 1)
    # the identity is a quick return only for a strided param of stride 0 (never for _batched)
    assert blas.drotm_strided_batched(handle, 2, x, 1, 2, y, 1, 2, identity, 0, 1) is None
    assert blas.srotm_strided_batched(handle, 2, None, 1, 2, None, 1, 2, identity, 0, 3) is None
    with pytest.raises(errors.RocblasNotImplementedError):
        blas.drotm_strided_batched(handle, 2, x, 1, 2, y, 1, 2, identity, 5, 1)
    with pytest.raises(errors.RocblasNotImplementedError):
        blas.drotm_batched(handle, 2, px, 1, py, 1, identity, 1)
    # the earlier checks come first
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.drotm_batched(handle, 2, px, 1, None, 1, full, 1)
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.drotm_strided_batched(handle, 2, None, 1, 2, y, 1, 2, identity, 5, 1)
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.drotm_strided_batched(handle, 2, x, 1, 2, y, 1, 2, None, 5, 1)
    assert blas.drotm_batched(handle, 0, None, 1, None, 1, None, 1) is None
    assert blas.drotm_batched(handle, 2, None, 1, None, 1, None, 0) is None
    np.testing.assert_array_equal(x.get(), [1.0, 2.0])
    np.testing.assert_array_equal(y.get(), [3.0, 4.0])
    # device mode runs the batched forms
    device(handle)
    blas.drotm_strided_batched(handle, 2, x, 1, 2, y, 1, 2, rm.to_device(np.array([-1.0, 0, 1, 1, 0])), 5, 1)
    handle.stream.synchronize()
    np.testing.assert_array_equal(x.get(), [3.0, 4.0])
    np.testing.assert_array_equal(y.get(), [1.0, 2.0])


# --- 5. rotm: any negative flag but -2 uses the full H -------------------------------------------


@pytest.mark.parametrize("mode", ["host", "device"])
def test_rotm_flags(handle, mode):
    # rocblas_rotm_kernels.hpp: flag != -2, then flag < 0 (full H), flag == 0, else (h21 = -1, h12 = 1)
    h11, h21, h12, h22 = 2.0, 5.0, 7.0, 11.0
    w, z = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    want = {-3.0: (h11 * w + h12 * z, h21 * w + h22 * z), -0.5: (h11 * w + h12 * z, h21 * w + h22 * z),
            -1.0: (h11 * w + h12 * z, h21 * w + h22 * z), 0.0: (w + h12 * z, h21 * w + z),
            0.5: (h11 * w + z, -w + h22 * z), NAN: (h11 * w + z, -w + h22 * z), -2.0: (w, z)}
    if mode == "device":
        device(handle)
    for flag, (wx, wy) in want.items():
        x, y = rm.to_device(w), rm.to_device(z)
        param = np.array([flag, h11, h21, h12, h22])
        blas.drotm(handle, 2, x, 1, y, 1, rm.to_device(param) if mode == "device" else param)
        handle.stream.synchronize()
        np.testing.assert_array_equal(x.get(), wx, err_msg=f"flag {flag}")
        np.testing.assert_array_equal(y.get(), wy, err_msg=f"flag {flag}")


# --- 6. rotg with NaN ------------------------------------------------------------------------------


def _rotg_calc(a: float, b: float) -> tuple[float, float, float, float]:
    """rocblas_rotg_calc for real a, b (rocblas_rotg_kernels.cpp), transcribed: (r, z, c, s)."""
    scale = abs(a) + abs(b)
    if scale == 0.0:
        return 0.0, 0.0, 1.0, 0.0
    r = math.copysign(scale * math.sqrt((a / scale) ** 2 + (b / scale) ** 2), a if abs(a) > abs(b) else b)
    c, s = a / r, b / r
    z = 1.0
    if abs(a) > abs(b):
        z = s
    if abs(b) >= abs(a) and c != 0.0:
        z = 1.0 / c
    return r, z, c, s


@pytest.mark.parametrize("mode", ["host", "device"])
def test_rotg_nan(handle, mode):
    # with a NaN in a or b neither test on |a|, |b| holds: z stays 1 (r, c, s are NaN)
    cases = [(NAN, 1.0), (1.0, NAN), (NAN, NAN), (NAN, 0.0), (0.0, NAN), (3.0, -4.0), (-0.0, 3.0), (0.0, 0.0),
             (5.0, 0.0)]
    if mode == "device":
        device(handle)
    for a, b in cases:
        want = np.array(_rotg_calc(a, b))
        if mode == "host":
            got = np.array([float(v) for v in blas.drotg(handle, a, b)])
        else:
            bufs = [rm.to_device(np.array([v])) for v in (a, b, 0.0, 0.0)]
            blas.drotg(handle, *bufs)
            handle.stream.synchronize()
            got = np.array([buf.get()[0] for buf in bufs])
        np.testing.assert_array_equal(got, want, err_msg=f"rotg({a}, {b})")
    if mode == "host":  # single precision and a batch entry too
        z = blas.srotg_batched(handle, np.float32([3.0, NAN]), np.float32([4.0, 1.0]), None, None, 2)[1]
        assert z.dtype == np.float32 and z[1] == 1.0


def test_complex_rotg_nan(handle):
    # rocblas_rotg_calc for complex: |a| != 0 (true for NaN) takes the formula, so everything is
    # NaN; a == 0 gives c = 0, s = 1, r = b; b is left alone
    r, b, c, s = blas.zrotg(handle, complex(NAN, 0.0), 1 + 1j)
    assert np.isnan(r) and np.isnan(c) and np.isnan(s) and b == 1 + 1j
    r, b, c, s = blas.zrotg(handle, 1 + 2j, complex(0.0, NAN))
    assert np.isnan(r) and np.isnan(c) and np.isnan(s)
    r, b, c, s = blas.crotg(handle, 0j, complex(NAN, 1.0))
    assert c == 0 and s == 1 and np.isnan(r.real) and r.imag == 1


# --- 7. scal with host alpha == 1 returns before check-numerics -----------------------------------


def test_scal_alpha_one_skips_check_numerics(handle):
    # rocblas_scal_imp.hpp (and _batched, _strided_batched): host *alpha == 1 returns first
    handle.check_numerics = blas.CheckNumericsMode.fail
    x = rm.to_device(np.array([1.0, NAN, 3.0]))
    zx = rm.to_device(np.array([1.0, complex(NAN, 1.0)]))
    px = rm.to_device(np.array([x.ptr], dtype=np.uint64))
    blas.dscal(handle, 3, 1.0, x, 1)
    blas.dscal_batched(handle, 3, 1.0, px, 1, 1)
    blas.dscal_strided_batched(handle, 3, 1.0, x, 1, 3, 1)
    blas.zscal(handle, 2, 1 + 0j, zx, 1)
    blas.zdscal(handle, 2, 1.0, zx, 1)
    handle.stream.synchronize()
    np.testing.assert_array_equal(x.get(), [1.0, NAN, 3.0])
    # the null checks come before it
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.dscal(handle, 3, 1.0, None, 1)
    # any other alpha, or alpha in device memory, is scanned (the call fails: rocBLAS copies its
    # findings back before returning)
    for call in (lambda: blas.dscal(handle, 3, 2.0, x, 1), lambda: blas.zscal(handle, 2, 1 + 1j, zx, 1)):
        with pytest.raises(errors.RocblasCheckNumericsFailError):
            call()
    device(handle)
    with pytest.raises(errors.RocblasCheckNumericsFailError):
        blas.dscal(handle, 3, rm.to_device(np.array([1.0])), x, 1)
