"""Integer arguments of hipSOLVER, hipSPARSE and hipFFT convert as hip-python's Cython bindings convert them.

hip-python declares each C integer parameter with its C type (``int m``, ``long rows`` for an ``int64_t``,
``unsigned long lwork`` for a ``size_t``, ``long long istride``, ``signed char jobu``); Cython converts the
arguments on entry, so a value the type cannot hold raises ``OverflowError`` and a non-integer ``TypeError``
before the library runs: before any status, any allocation, any change to a handle.  The C types are the
headers' (hipsolver-functions.h, hipsparse.h, hipfft.h); rocmath names the argument in the message, as its
hipBLAS binding does (tests/test_hip_blas_ilp64.py).
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any

import numpy as np
import pytest
from hip_util import check, free, to_device, to_host

import rocmath
from rocmath.hip import _lib, hip, hipblas, hipfft, hipsolver, hipsparse
from rocmath.memory import address_space

#: Too large for ``int``; an ``int64_t``, ``long long`` or ``size_t`` holds it.
BIG = 2**31
#: Too large for ``int64_t`` / ``long long``.
HUGE = 2**63


@pytest.fixture(autouse=True)
def _no_collector_midway() -> Any:
    """Earlier tests' garbage stays as it is while a test runs: a free the collector ran between two
    :func:`state` calls changed the count (a flaky 5 -> 4).  Frozen, not collected: a full collection
    takes seconds once a worker has compiled the suite's kernels (2.3 s a call in a cold run)."""
    gc.freeze()
    gc.disable()
    yield
    gc.enable()
    gc.unfreeze()


def state(*extra: Any) -> tuple[Any, ...]:
    """What a rejected call must leave as it was: live device allocations, registered handles, and ``extra``.
    The test's own garbage is freed first, and frees a later call's safe point would run."""
    gc.collect()
    rocmath.device_synchronize()
    return (address_space.live_count, len(hip._handles), *extra)


def raises_naming(exc: type[BaseException], arg: str, fn: Any, *args: Any) -> None:
    with pytest.raises(exc, match=rf"'{arg}'"):
        fn(*args)


# --- the shared converter -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("ctype", "low", "high"), [
    ("signed char", -(2**7), 2**7 - 1), ("int", -(2**31), 2**31 - 1), ("int64_t", -(2**63), 2**63 - 1),
    ("long long", -(2**63), 2**63 - 1), ("size_t", 0, 2**64 - 1),
])
def test_c_integer_holds_exactly_its_c_type(ctype: str, low: int, high: int) -> None:
    assert _lib.c_integer(low, "x", ctype) == low
    assert _lib.c_integer(np.int64(high) if high < 2**63 else high, "x", ctype) == high
    with pytest.raises(OverflowError, match=rf"value too large to convert to {ctype} \(argument 'x'\)"):
        _lib.c_integer(high + 1, "x", ctype)
    below = "can't convert negative value" if low == 0 else "value too large to convert"
    with pytest.raises(OverflowError, match=rf"{below} to {ctype} \(argument 'x'\)"):
        _lib.c_integer(low - 1, "x", ctype)
    for bad in (1.0, "1", None, np.float32(1)):
        with pytest.raises(TypeError, match="'x'"):
            _lib.c_integer(bad, "x", ctype)


def test_hipblas_converts_through_the_shared_helper() -> None:
    assert hipblas._c_integer is _lib.c_integer
    with pytest.raises(OverflowError, match="'n'"):
        hipblas.hipblasSscal(None, BIG, 0, 0, 1)


# --- hipSOLVER ----------------------------------------------------------------------------------------------

SOLVER_S = hipsolver.hipsolverStatus_t
UPPER = hipsolver.hipblasFillMode_t.HIPBLAS_FILL_MODE_UPPER
VECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR


@pytest.fixture
def solver() -> Any:
    h = check(hipsolver.hipsolverCreate())
    yield h
    check(hipsolver.hipsolverDestroy(h))


@pytest.fixture
def dense() -> Any:
    """A 4 x 4 float matrix, pivots and info (-7: a sentinel no rejected call may overwrite) on the device."""
    a = np.arange(16, dtype=np.float32) + 1
    arrays = {"A": to_device(a), "ipiv": to_device(np.zeros(4, np.int32)), "info": to_device(np.full(1, -7, np.int32)),
              "W": to_device(np.zeros(4, np.float32)), "a": a}
    yield arrays
    free(arrays["A"], arrays["ipiv"], arrays["info"], arrays["W"])


def solver_state(h: Any, d: dict[str, Any]) -> tuple[Any, ...]:
    bh = hipsolver._handle(h)
    return state(bh.get_device_memory_size(), bh.is_managing_device_memory(),
                 to_host(d["A"], d["a"]).tobytes(), int(to_host(d["info"], np.zeros(1, np.int32))[0]))


@pytest.mark.parametrize(("name", "args", "arg"), [
    ("hipsolverSgetrf_bufferSize", ("h", BIG, 4, "A", 4), "m"),
    ("hipsolverSgetrf_bufferSize", ("h", 4, 4, "A", -(2**31) - 1), "lda"),
    ("hipsolverSgetrf", ("h", 4, 4, "A", BIG, None, 0, "ipiv", "info"), "lda"),
    ("hipsolverSgetrf", ("h", 4, 4, "A", 4, None, BIG, "ipiv", "info"), "lwork"),
    ("hipsolverSpotrf_bufferSize", ("h", UPPER, BIG, "A", 4), "n"),
    ("hipsolverSpotrf", ("h", UPPER, 4, "A", 4, None, BIG, "info"), "lwork"),
    ("hipsolverSgesvd_bufferSize", ("h", ord("N"), ord("N"), 4, BIG), "n"),
    ("hipsolverSgesvd_bufferSize", ("h", ord("N") + 256, ord("N"), 4, 4), "jobu"),  # signed char
    ("hipsolverSgesvd", ("h", ord("N"), ord("N"), 4, 4, "A", 4, "W", None, 1, None, 1, None, BIG, None, "info"),
     "lwork"),
    ("hipsolverSsyevd_bufferSize", ("h", VECTOR, UPPER, BIG, "A", 4, "W"), "n"),
    ("hipsolverSsyevd", ("h", VECTOR, UPPER, 4, "A", BIG, "W", None, 0, "info"), "lda"),
])
def test_solver_int_overflow_raises_before_anything(solver: Any, dense: dict[str, Any], name: str,
                                                    args: tuple[Any, ...], arg: str) -> None:
    fn = getattr(hipsolver, name)
    values = [solver if a == "h" else dense[a] if isinstance(a, str) else a for a in args]
    before = solver_state(solver, dense)
    raises_naming(OverflowError, arg, fn, *values)
    if name.endswith("_bufferSize"):  # through an lwork pointer, or a NULL one (hipSOLVER's INVALID_VALUE)
        lwork = ctypes.c_int(-3)
        raises_naming(OverflowError, arg, fn, *values, lwork)
        assert lwork.value == -3
        raises_naming(OverflowError, arg, fn, *values, None)
    values[0] = None  # a NULL handle (NOT_INITIALIZED) is looked at after Cython's conversion
    raises_naming(OverflowError, arg, fn, *values)
    assert solver_state(solver, dense) == before


@pytest.mark.parametrize(("name", "args", "arg"), [
    ("hipsolverSgetrf_bufferSize", ("h", 4, 4.0, "A", 4), "n"),
    ("hipsolverSgetrf", ("h", 4, 4, "A", 4, None, 0.5, "ipiv", "info"), "lwork"),
    ("hipsolverSpotrf_bufferSize", ("h", UPPER, "4", "A", 4), "n"),
    ("hipsolverSgesvd_bufferSize", ("h", "N", ord("N"), 4, 4), "jobu"),
    ("hipsolverSsyevd", ("h", VECTOR, UPPER, 4, "A", 4.0, "W", None, 0, "info"), "lda"),
])
def test_solver_non_integer_is_type_error(solver: Any, dense: dict[str, Any], name: str, args: tuple[Any, ...],
                                          arg: str) -> None:
    values = [solver if a == "h" else dense[a] if isinstance(a, str) and a in dense else a for a in args]
    before = solver_state(solver, dense)
    raises_naming(TypeError, arg, getattr(hipsolver, name), *values)
    values[0] = None
    raises_naming(TypeError, arg, getattr(hipsolver, name), *values)
    assert solver_state(solver, dense) == before


def test_solver_size_t_lwork(solver: Any, dense: dict[str, Any]) -> None:
    """gels/gesv take ``size_t lwork``: beyond int it is accepted (an empty problem returns at once), a negative
    one or one past 2**64 - 1 is OverflowError."""
    A, info = dense["A"], dense["info"]
    assert hipsolver.hipsolverSSgels(solver, 0, 0, 0, A, 1, A, 1, A, 1, None, BIG, None, info) == (
        SOLVER_S.HIPSOLVER_STATUS_SUCCESS,)
    assert hipsolver.hipsolverSSgesv(solver, 0, 0, A, 1, dense["ipiv"], A, 1, A, 1, None, BIG, None, info) == (
        SOLVER_S.HIPSOLVER_STATUS_SUCCESS,)
    check(hip.hipMemcpy(info, np.full(1, -7, np.int32), 4, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    before = solver_state(solver, dense)
    with pytest.raises(OverflowError, match=r"can't convert negative value to size_t \(argument 'lwork'\)"):
        hipsolver.hipsolverSSgels(solver, 0, 0, 0, A, 1, A, 1, A, 1, None, -1, None, info)
    raises_naming(OverflowError, "lwork", hipsolver.hipsolverSSgels, solver, 0, 0, 0, A, 1, A, 1, A, 1, None,
                  2**64, None, info)
    raises_naming(OverflowError, "lwork", hipsolver.hipsolverDDgesv, None, 0, 0, A, 1, None, A, 1, A, 1, None, -1,
                  None, info)
    raises_naming(TypeError, "lwork", hipsolver.hipsolverSSgels, solver, 0, 0, 0, A, 1, A, 1, A, 1, None, 1.0, None,
                  info)
    # the int parameters of the same functions stay int
    raises_naming(OverflowError, "nrhs", hipsolver.hipsolverSSgels, solver, 0, 0, BIG, A, 1, A, 1, A, 1, None, 0,
                  None, info)
    assert solver_state(solver, dense) == before


def test_solver_jacobi_settings_are_int() -> None:
    info = check(hipsolver.hipsolverCreateSyevjInfo())
    try:
        raises_naming(OverflowError, "max_sweeps", hipsolver.hipsolverXsyevjSetMaxSweeps, info, BIG)
        raises_naming(OverflowError, "sort_eig", hipsolver.hipsolverXsyevjSetSortEig, None, -(2**31) - 1)
        raises_naming(TypeError, "max_sweeps", hipsolver.hipsolverXsyevjSetMaxSweeps, info, 10.0)
        assert hipsolver._params(info, "info").max_sweeps == 100
    finally:
        check(hipsolver.hipsolverDestroySyevjInfo(info))


# --- hipSPARSE ----------------------------------------------------------------------------------------------

SPARSE_S = hipsparse.hipsparseStatus_t
NON_T = hipsparse.hipsparseOperation_t.HIPSPARSE_OPERATION_NON_TRANSPOSE
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
I64 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I
R32F = hip.hipDataType.HIP_R_32F
FILL = hipsparse.hipsparseSpMatAttribute_t.HIPSPARSE_SPMAT_FILL_MODE


@pytest.fixture
def sparse() -> Any:
    """A handle, a matrix descriptor and a 3 x 3 CSR matrix (identity) with x, y on the device."""
    h = check(hipsparse.hipsparseCreate())
    descr = check(hipsparse.hipsparseCreateMatDescr())
    host = {"ptr": np.arange(4, dtype=np.int32), "ind": np.arange(3, dtype=np.int32),
            "val": np.ones(3, np.float32), "x": np.full(3, 2, np.float32), "y": np.full(3, -1, np.float32),
            "coo": np.full(3, -9, np.int32)}
    dev = {k: to_device(v) for k, v in host.items()}
    yield {"h": h, "descr": descr, "host": host, **dev}
    free(*dev.values())
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    check(hipsparse.hipsparseDestroy(h))


def sparse_state(d: dict[str, Any]) -> tuple[Any, ...]:
    return state(to_host(d["y"], d["host"]["y"]).tobytes(), to_host(d["coo"], d["host"]["coo"]).tobytes(),
                 hipsparse.hipsparseGetPointerMode(d["h"]))


def test_sparse_legacy_level2_is_int(sparse: dict[str, Any]) -> None:
    s = sparse
    alpha, beta = ctypes.c_float(1), ctypes.c_float(0)

    def csrmv(m: Any, n: Any, nnz: Any, trans: Any = NON_T, handle: Any = s["h"]) -> Any:
        return hipsparse.hipsparseScsrmv(handle, trans, m, n, nnz, alpha, s["descr"], s["val"], s["ptr"], s["ind"],
                                         s["x"], beta, s["y"])

    before = sparse_state(s)
    raises_naming(OverflowError, "m", csrmv, BIG, 3, 3)
    raises_naming(OverflowError, "nnz", csrmv, 3, 3, -(2**31) - 1)
    raises_naming(TypeError, "n", csrmv, 3, 3.0, 3)
    # Cython converts the ints on entry, before hip-python checks the enums and before hipSPARSE's statuses
    raises_naming(OverflowError, "m", csrmv, BIG, 3, 3, 0)
    raises_naming(OverflowError, "m", csrmv, BIG, 3, 3, NON_T, None)
    assert sparse_state(s) == before
    assert csrmv(3, 3, 3) == (SPARSE_S.HIPSPARSE_STATUS_SUCCESS,)
    assert to_host(s["y"], s["host"]["y"]).tolist() == [2, 2, 2]


def test_sparse_conversion_is_int(sparse: dict[str, Any]) -> None:
    s = sparse
    before = sparse_state(s)
    raises_naming(OverflowError, "m", hipsparse.hipsparseXcsr2coo, s["h"], s["ptr"], 3, BIG, s["coo"], BASE0)
    raises_naming(OverflowError, "nnz", hipsparse.hipsparseXcsr2coo, None, s["ptr"], BIG, 3, s["coo"], BASE0)
    raises_naming(TypeError, "nnz", hipsparse.hipsparseXcsr2coo, s["h"], s["ptr"], np.float64(3), 3, s["coo"], BASE0)
    assert sparse_state(s) == before
    assert hipsparse.hipsparseXcsr2coo(s["h"], s["ptr"], 3, 3, s["coo"], BASE0) == (
        SPARSE_S.HIPSPARSE_STATUS_SUCCESS,)
    assert to_host(s["coo"], s["host"]["coo"]).tolist() == [0, 1, 2]


def test_sparse_generic_descriptors_take_int64(sparse: dict[str, Any]) -> None:
    """hipsparseCreateCsr's rows, cols and nnz are int64_t: beyond int they make a descriptor; past int64_t,
    or not integers, they make nothing."""
    s = sparse
    made = ctypes.c_void_p(0)
    before = sparse_state(s)
    raises_naming(OverflowError, "rows", hipsparse.hipsparseCreateCsr, made, HUGE, 3, 0, s["ptr"], None, None, I64,
                  I64, BASE0, R32F)
    raises_naming(OverflowError, "nnz", hipsparse.hipsparseCreateCsr, 3, 3, -(2**63) - 1, s["ptr"], None, None, 0,
                  0, 0, 0)  # the ints before the enums' TypeError
    raises_naming(TypeError, "cols", hipsparse.hipsparseCreateCsr, made, 3, 3.0, 0, s["ptr"], None, None, I64, I64,
                  BASE0, R32F)
    raises_naming(OverflowError, "size", hipsparse.hipsparseCreateDnVec, HUGE, s["x"], R32F)
    raises_naming(OverflowError, "ld", hipsparse.hipsparseCreateDnMat, 3, 3, HUGE, s["x"], R32F,
                  hipsparse.hipsparseOrder_t.HIPSPARSE_ORDER_COL)
    assert made.value is None
    assert sparse_state(s) == before

    status, descr = hipsparse.hipsparseCreateCsr(BIG, BIG, 0, s["ptr"], None, None, I64, I64, BASE0, R32F)
    assert status == SPARSE_S.HIPSPARSE_STATUS_SUCCESS
    try:
        assert hipsparse.hipsparseSpMatGetSize(descr) == (SPARSE_S.HIPSPARSE_STATUS_SUCCESS, BIG, BIG, 0)
        # the strided batch: batchCount is int, the strides int64_t
        raises_naming(OverflowError, "batchCount", hipsparse.hipsparseCsrSetStridedBatch, descr, BIG, 0, 0)
        assert hipsparse.hipsparseCsrSetStridedBatch(descr, 1, BIG, BIG) == (SPARSE_S.HIPSPARSE_STATUS_SUCCESS,)
    finally:
        check(hipsparse.hipsparseDestroySpMat(descr))


def test_sparse_size_t_and_buffer_queries(sparse: dict[str, Any]) -> None:
    """SpMatSetAttribute's dataSize is a size_t (negative: OverflowError; beyond int: rocSPARSE's size check);
    a size query's ints convert before its size_t* out-parameter is looked at or written."""
    s = sparse
    descr = check(hipsparse.hipsparseCreateCsr(3, 3, 3, s["ptr"], s["ind"], s["val"], I32, I32, BASE0, R32F))
    try:
        data = ctypes.c_int(1)
        before = sparse_state(s)
        with pytest.raises(OverflowError, match=r"can't convert negative value to size_t \(argument 'dataSize'\)"):
            hipsparse.hipsparseSpMatSetAttribute(descr, FILL, data, -1)
        raises_naming(OverflowError, "dataSize", hipsparse.hipsparseSpMatGetAttribute, descr, FILL, data, 2**64)
        raises_naming(TypeError, "dataSize", hipsparse.hipsparseSpMatGetAttribute, descr, FILL, data, 4.0)
        assert hipsparse.hipsparseSpMatSetAttribute(descr, FILL, data, BIG) == (
            SPARSE_S.HIPSPARSE_STATUS_INVALID_VALUE,)

        size = ctypes.c_size_t(777)
        args = (s["h"], 3, 1, s["val"], s["val"], s["val"], s["x"])
        raises_naming(OverflowError, "m", hipsparse.hipsparseSgtsv2_bufferSizeExt, args[0], BIG, *args[2:], 3, size)
        raises_naming(OverflowError, "ldb", hipsparse.hipsparseSgtsv2_bufferSizeExt, *args, BIG, None)  # NULL out
        raises_naming(OverflowError, "ldb", hipsparse.hipsparseSgtsv2_bufferSizeExt, *args, BIG)  # returned form
        raises_naming(TypeError, "n", hipsparse.hipsparseSgtsv2_bufferSizeExt, args[0], 3, 1.0, *args[3:], 3, size)
        assert size.value == 777
        assert sparse_state(s) == before
        assert hipsparse.hipsparseSgtsv2_bufferSizeExt(*args, 3, size) == (SPARSE_S.HIPSPARSE_STATUS_SUCCESS,)
        assert size.value != 777
    finally:
        check(hipsparse.hipsparseDestroySpMat(descr))


# --- hipFFT -------------------------------------------------------------------------------------------------

FFT_R = hipfft.hipfftResult_t
C2C = hipfft.hipfftType.HIPFFT_C2C


@pytest.fixture
def fft_plan() -> Any:
    plan = check(hipfft.hipfftCreate())
    yield plan
    check(hipfft.hipfftDestroy(plan))


def plan_state(plan: Any) -> tuple[Any, ...]:
    p = hipfft._plan(plan)
    return state(len(p.plans), p.work, p.work_size)


def test_fft_plan1d_is_int(fft_plan: Any) -> None:
    before = plan_state(fft_plan)
    raises_naming(OverflowError, "nx", hipfft.hipfftPlan1d, BIG, C2C, 1)
    raises_naming(OverflowError, "batch", hipfft.hipfftPlan1d, 8, C2C, -(2**31) - 1)
    raises_naming(OverflowError, "nx", hipfft.hipfftPlan1d, BIG, int(C2C), 1)  # before the type's TypeError
    raises_naming(TypeError, "batch", hipfft.hipfftPlan1d, 8, C2C, 1.0)
    raises_naming(OverflowError, "nx", hipfft.hipfftMakePlan1d, None, BIG, C2C, 1)  # before INVALID_PLAN
    raises_naming(OverflowError, "nx", hipfft.hipfftMakePlan1d, fft_plan, BIG, C2C, 1)
    assert plan_state(fft_plan) == before


def test_fft_plan_many_is_int() -> None:
    n = np.array([8], np.int32)
    before = state()
    raises_naming(OverflowError, "istride", hipfft.hipfftPlanMany, 1, n, None, BIG, 8, None, 1, 8, C2C, 1)
    raises_naming(OverflowError, "rank", hipfft.hipfftPlanMany, BIG, n, None, 1, 8, None, 1, 8, C2C, 1)
    raises_naming(OverflowError, "batch", hipfft.hipfftEstimateMany, 1, n, None, 1, 8, None, 1, 8, C2C, BIG)
    raises_naming(TypeError, "odist", hipfft.hipfftPlanMany, 1, n, None, 1, 8, None, 1, 8.0, C2C, 1)
    assert state() == before
    status, plan = hipfft.hipfftPlanMany(1, n, None, 1, 8, None, 1, 8, C2C, 1)
    assert status == FFT_R.HIPFFT_SUCCESS
    check(hipfft.hipfftDestroy(plan))


def test_fft_make_plan_many64_takes_long_long(fft_plan: Any) -> None:
    """MakePlanMany64's strides, distances and batch are long long, its rank int: beyond int the strides are
    accepted (without embeddings hipFFT ignores them: a default layout)."""
    n = np.array([8], np.int64)
    before = plan_state(fft_plan)
    for name, args in (("hipfftMakePlanMany64", (fft_plan,)), ("hipfftGetSizeMany64", (fft_plan,))):
        fn = getattr(hipfft, name)
        raises_naming(OverflowError, "istride", fn, *args, 1, n, None, HUGE, 8, None, 1, 8, C2C, 1)
        raises_naming(OverflowError, "batch", fn, *args, 1, n, None, 1, 8, None, 1, 8, C2C, -(2**63) - 1)
        raises_naming(OverflowError, "rank", fn, *args, BIG, n, None, 1, 8, None, 1, 8, C2C, 1)
        raises_naming(TypeError, "idist", fn, *args, 1, n, None, 1, 8.0, None, 1, 8, C2C, 1)
    raises_naming(OverflowError, "odist", hipfft.hipfftMakePlanMany64, None, 1, n, None, 1, 8, None, 1, HUGE, C2C, 1)
    assert plan_state(fft_plan) == before
    assert hipfft.hipfftGetSizeMany64(fft_plan, 1, n, None, BIG, BIG, None, BIG, BIG, C2C, 1)[0] == FFT_R.HIPFFT_SUCCESS
    status, _work = hipfft.hipfftMakePlanMany64(fft_plan, 1, n, None, BIG, BIG, None, BIG, BIG, C2C, 1)
    assert status == FFT_R.HIPFFT_SUCCESS
    assert hipfft._plan(fft_plan).plans
    # the 32-bit MakePlanMany's are int
    raises_naming(OverflowError, "istride", hipfft.hipfftMakePlanMany, fft_plan, 1, n.astype(np.int32), None, BIG, 8,
                  None, 1, 8, C2C, 1)


def test_fft_exec_direction_and_auto_allocation_are_int(fft_plan: Any) -> None:
    raises_naming(OverflowError, "direction", hipfft.hipfftExecC2C, None, 0, 0, BIG)
    raises_naming(TypeError, "direction", hipfft.hipfftExecZ2Z, fft_plan, 0, 0, -1.0)
    raises_naming(OverflowError, "autoAllocate", hipfft.hipfftSetAutoAllocation, fft_plan, BIG)
    assert hipfft._plan(fft_plan).auto_allocate
