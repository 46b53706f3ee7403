"""rocmath.hip.hipblas: hipBLAS through hip-python's conventions, cross-checked with NumPy."""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest
from hip_util import check, to_device, to_host
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath.blas as blas
from rocmath.errors import RocblasStatus
from rocmath.hip import hip, hipblas
from rocmath.hip._manifest import hipblas_names
from rocmath.testing import examples

S = hipblas.hipblasStatus_t
OP = hipblas.hipblasOperation_t
K = hip.hipMemcpyKind


@pytest.fixture(scope="module")
def handle():
    h = check(hipblas.hipblasCreate())
    yield h
    check(hipblas.hipblasDestroy(h))


def test_manifest_covers_every_rocblas_counterpart():
    table = hipblas_names()
    assert {"hipblasSaxpy", "hipblasSgemmBatched", "hipblasSgemmStridedBatched", "hipblasGemmEx", "hipblasCsscal",
            "hipblasIsamax", "hipblasScnrm2", "hipblasGemmExWithFlags_v2", "hipblasSaxpy_64", "hipblasZgemm_v2",
            "hipblasTrsmStridedBatchedEx", "hipblasSgemm_64", "hipblasGemmExWithFlags_v2_64"} <= set(table)
    assert not {"hipblasSgemmt", "hipblasStrtri_64", "hipblasTrsmEx_64"} & set(table)
    for name, entry in table.items():
        assert callable(getattr(hipblas, name)) and hasattr(blas, entry.rocblas)
        assert entry.ilp64 == name.endswith("_64") and entry.rocblas.endswith("_64") == entry.ilp64, name
    assert len(table) == len(set(hipblas.__all__) & set(table))


def test_status_table_is_hipblas_conversion():
    expected = {
        RocblasStatus.success: S.HIPBLAS_STATUS_SUCCESS, RocblasStatus.size_unchanged: S.HIPBLAS_STATUS_SUCCESS,
        RocblasStatus.size_increased: S.HIPBLAS_STATUS_SUCCESS,
        RocblasStatus.invalid_handle: S.HIPBLAS_STATUS_NOT_INITIALIZED,
        RocblasStatus.not_implemented: S.HIPBLAS_STATUS_NOT_SUPPORTED,
        RocblasStatus.invalid_pointer: S.HIPBLAS_STATUS_INVALID_VALUE,
        RocblasStatus.invalid_size: S.HIPBLAS_STATUS_INVALID_VALUE,
        RocblasStatus.invalid_value: S.HIPBLAS_STATUS_INVALID_VALUE,
        RocblasStatus.memory_error: S.HIPBLAS_STATUS_ALLOC_FAILED,
        RocblasStatus.internal_error: S.HIPBLAS_STATUS_INTERNAL_ERROR,
    }
    for status in RocblasStatus:
        assert hipblas.convert_status(status) == expected.get(status, S.HIPBLAS_STATUS_UNKNOWN), status
    assert hipblas.hipblasStatusToString(S.HIPBLAS_STATUS_INVALID_ENUM) == ("HIPBLAS_STATUS_INVALID_ENUM",)


def test_bad_arguments_map_to_hipblas_statuses(handle):
    x = to_device(np.ones(8, np.float32))
    one = ctypes.c_float(1.0)
    a = ctypes.addressof(one)
    # invalid_handle -> NOT_INITIALIZED (NULL and destroyed handles)
    assert hipblas.hipblasSscal(None, 8, a, x, 1) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    gone = check(hipblas.hipblasCreate())
    check(hipblas.hipblasDestroy(gone))
    assert hipblas.hipblasSscal(gone, 8, a, x, 1) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    assert hipblas.hipblasDestroy(gone) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    # invalid_size -> INVALID_VALUE
    assert hipblas.hipblasSgemv(handle, OP.HIPBLAS_OP_N, -1, 2, a, x, 1, x, 1, a, x, 1) == (
        S.HIPBLAS_STATUS_INVALID_VALUE,)
    # invalid_pointer -> INVALID_VALUE (NULL alpha with work to do; NULL host result)
    assert hipblas.hipblasSaxpy(handle, 8, None, x, 1, x, 1) == (S.HIPBLAS_STATUS_INVALID_VALUE,)
    assert hipblas.hipblasSdot(handle, 8, x, 1, x, 1, None) == (S.HIPBLAS_STATUS_INVALID_VALUE,)
    # quick return: n == 0 needs no valid pointer at all
    assert hipblas.hipblasSaxpy(handle, 0, None, None, 1, None, 1) == (S.HIPBLAS_STATUS_SUCCESS,)
    # hipBLAS's own checks: unknown datatypes are INVALID_ENUM, unsupported GemmEx_v2 types NOT_SUPPORTED
    bad = hipblas.hipblasDatatype_t.HIPBLAS_DATATYPE_INVALID
    algo = hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT
    n = OP.HIPBLAS_OP_N
    assert hipblas.hipblasGemmEx(handle, n, n, 2, 2, 2, a, x, bad, 2, x, bad, 2, a, x, bad, 2, bad, algo) == (
        S.HIPBLAS_STATUS_INVALID_ENUM,)
    r32, r64 = hip.hipDataType.HIP_R_32F, hip.hipDataType.HIP_R_64F
    c64 = hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_64F
    assert hipblas.hipblasGemmEx_v2(handle, n, n, 2, 2, 2, a, x, r32, 2, x, r32, 2, a, x, r64, 2, c64, algo) == (
        S.HIPBLAS_STATUS_NOT_SUPPORTED,)
    # ... before any type conversion (hipblasInternalGemmExTypes), even for types rocBLAS has none of
    r16i, c32 = hip.hipDataType.HIP_R_16I, hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F
    for h in (handle, None):
        assert hipblas.hipblasGemmEx_v2(h, n, n, 2, 2, 2, a, x, r16i, 2, x, r16i, 2, a, x, r32, 2, c32, algo) == (
            S.HIPBLAS_STATUS_NOT_SUPPORTED,)
    # a HIP error inside the call as rocBLAS converts it (utility.cpp): a destroyed stream is an
    # invalid handle (NOT_INITIALIZED), never INVALID_VALUE
    s = check(hip.hipStreamCreate())
    check(hipblas.hipblasSetStream(handle, s))
    check(hip.hipStreamDestroy(s))
    half = ctypes.c_float(0.5)  # (alpha 1 would be a quick return: no kernel)
    assert hipblas.hipblasSscal(handle, 8, ctypes.addressof(half), x, 1) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    check(hipblas.hipblasSetStream(handle, None))
    assert hipblas.hipblasSetMathMode(handle, hipblas.hipblasMath_t.HIPBLAS_TENSOR_OP_MATH) == (
        S.HIPBLAS_STATUS_NOT_SUPPORTED,)
    # a kernel that would run past its allocation fails instead of faulting the "GPU" (alpha 2:
    # alpha == 1 is rocBLAS's quick return, no kernel runs)
    two = ctypes.c_float(2.0)
    assert hipblas.hipblasSscal(handle, 64, ctypes.addressof(two), x, 1) == (S.HIPBLAS_STATUS_EXECUTION_FAILED,)
    assert hipblas.hipblasSscal(handle, 64, a, x, 1) == (S.HIPBLAS_STATUS_SUCCESS,)
    check(hip.hipFree(x))


def test_enum_parameters_reject_plain_ints(handle):
    with pytest.raises(TypeError, match="_hipblasOperation_t__Base"):
        hipblas.hipblasSgemm(handle, 111, OP.HIPBLAS_OP_N, 1, 1, 1, None, None, 1, None, 1, None, None, 1)
    with pytest.raises(TypeError, match="_hipblasPointerMode_t__Base"):
        hipblas.hipblasSetPointerMode(handle, 0)
    with pytest.raises(TypeError):
        hipblas.hipblasStatusToString(0)
    with pytest.raises(TypeError):  # a Python float is no pointer, as in hip-python
        hipblas.hipblasSscal(handle, 1, 2.0, None, 1)


def test_scal_on_subarrays_and_host_scalar_forms(handle):
    shape = (3, 20)
    x_h = np.ones(shape, np.float32)
    x_d = check(hip.hipMalloc(x_h.nbytes)).configure(typestr="float32", shape=shape)
    check(hip.hipMemcpy(x_d, x_h, x_h.nbytes, K.hipMemcpyHostToDevice))
    zero = ctypes.c_float(0.0)  # an address is passed: the object must outlive the call, as in C
    alphas = [ctypes.addressof(zero), ctypes.c_float(1.0), np.float32(2.0)]
    for r, alpha in enumerate(alphas):
        row = x_d[r, :]
        check(hipblas.hipblasSscal(handle, row.size, alpha, row, 1))
    out = to_host(x_d, x_h)
    np.testing.assert_array_equal(out, np.repeat([[0.0], [1.0], [2.0]], 20, axis=1))
    check(hip.hipFree(x_d))


def test_pointer_mode_stream_and_vector_helpers(handle):
    mode = ctypes.c_int(-1)
    check(hipblas.hipblasGetPointerMode(handle, mode))
    assert mode.value == hipblas.hipblasPointerMode_t.HIPBLAS_POINTER_MODE_HOST
    stream = check(hip.hipStreamCreate())
    check(hipblas.hipblasSetStream(handle, stream))
    ref = ctypes.c_void_p(0)
    check(hipblas.hipblasGetStream(handle, ref))
    assert ref.value == int(stream)
    x = np.arange(10, dtype=np.float64)
    d = check(hip.hipMalloc(x.nbytes))
    check(hipblas.hipblasSetVector(10, 8, x, 1, d, 1))
    alpha_d = to_device(np.array([3.0]))
    result_d = check(hip.hipMalloc(8))
    check(hipblas.hipblasSetPointerMode(handle, hipblas.hipblasPointerMode_t.HIPBLAS_POINTER_MODE_DEVICE))
    try:
        check(hipblas.hipblasDscal(handle, 10, alpha_d, d, 1))
        check(hipblas.hipblasDnrm2(handle, 10, d, 1, result_d))
    finally:
        check(hipblas.hipblasSetPointerMode(handle, hipblas.hipblasPointerMode_t.HIPBLAS_POINTER_MODE_HOST))
    back = np.zeros(5)
    check(hipblas.hipblasGetVector(5, 8, d, 2, back, 1))  # every other element
    np.testing.assert_allclose(back, 3 * x[::2])
    nrm = np.zeros(1)
    check(hipblas.hipblasGetVector(1, 8, result_d, 1, nrm, 1))
    np.testing.assert_allclose(nrm[0], np.linalg.norm(3 * x))
    check(hipblas.hipblasSetStream(handle, None))
    check(hip.hipStreamDestroy(stream))
    for p in (d, alpha_d, result_d):
        check(hip.hipFree(p))


def test_batched_and_strided_gemm_and_complex(handle):
    rng = np.random.default_rng(3)
    m = n = k = 3
    batch = 2
    A = rng.standard_normal((batch, k, m)).astype(np.float32)  # each entry stored column-major (m x k)
    B = rng.standard_normal((batch, n, k)).astype(np.float32)
    dA, dB, dC = to_device(A), to_device(B), check(hip.hipMalloc(batch * m * n * 4))
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    nop = OP.HIPBLAS_OP_N
    check(hipblas.hipblasSgemmStridedBatched(handle, nop, nop, m, n, k, one, dA, m, m * k, dB, k, k * n, zero, dC, m,
                                             m * n, batch))
    C = to_host(dC, np.zeros((batch, n, m), np.float32))
    for b in range(batch):
        np.testing.assert_allclose(C[b].T, A[b].T @ B[b].T, rtol=1e-5)
    ptrs = [np.array([int(d) + b * m * k * 4 if d is dA else int(d) + b * (k * n if d is dB else m * n) * 4
                      for b in range(batch)], np.uint64) for d in (dA, dB, dC)]
    pA, pB, pC = (to_device(p) for p in ptrs)
    check(hip.hipMemset(dC, 0, batch * m * n * 4))
    check(hipblas.hipblasSgemmBatched(handle, nop, nop, m, n, k, one, pA, m, pB, k, zero, pC, m, batch))
    np.testing.assert_allclose(to_host(dC, C), C, rtol=1e-6)
    z = (rng.standard_normal(4) + 1j * rng.standard_normal(4)).astype(np.complex128)
    dz = to_device(z)
    res = np.zeros(1, np.complex128)
    check(hipblas.hipblasZdotc_v2(handle, 4, dz, 1, dz, 1, res))
    np.testing.assert_allclose(res[0], np.vdot(z, z))
    check(hipblas.hipblasZdscal(handle, 4, ctypes.c_double(0.5), dz, 1))
    np.testing.assert_allclose(to_host(dz, z), 0.5 * z)
    for p in (dA, dB, dC, pA, pB, pC, dz):
        check(hip.hipFree(p))


def test_rotg_writes_host_scalars(handle):
    a, b, c, s = ctypes.c_double(3.0), ctypes.c_double(4.0), ctypes.c_double(0.0), ctypes.c_double(0.0)
    check(hipblas.hipblasDrotg(handle, a, b, c, s))
    assert np.isclose(abs(a.value), 5.0) and np.isclose(c.value * 3.0 + s.value * 4.0, a.value)


@settings(max_examples=examples(25))
@given(m=st.integers(0, 6), n=st.integers(0, 6), k=st.integers(0, 6), pad=st.integers(0, 2),
       ta=st.sampled_from([OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_T]), tb=st.sampled_from([OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_T]),
       alpha=st.sampled_from([0.0, 1.0, -1.5]), beta=st.sampled_from([0.0, 1.0, 0.5]),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_hypothesis_gemm_matches_numpy(handle, m, n, k, pad, ta, tb, alpha, beta, dtype):
    rng = np.random.default_rng(m * 100 + n * 10 + k)
    ar, ac = (m, k) if ta == OP.HIPBLAS_OP_N else (k, m)
    br, bc = (k, n) if tb == OP.HIPBLAS_OP_N else (n, k)
    lda, ldb, ldc = max(ar, 1) + pad, max(br, 1) + pad, max(m, 1) + pad
    A = np.asfortranarray(rng.standard_normal((lda, max(ac, 1))).astype(dtype))
    B = np.asfortranarray(rng.standard_normal((ldb, max(bc, 1))).astype(dtype))
    C = np.asfortranarray(rng.standard_normal((ldc, max(n, 1))).astype(dtype))
    dA, dB, dC = (to_device(x) for x in (A, B, C))
    ctype = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    fn = hipblas.hipblasSgemm if dtype == np.float32 else hipblas.hipblasDgemm
    check(fn(handle, ta, tb, m, n, k, ctype(alpha), dA, lda, dB, ldb, ctype(beta), dC, ldc))
    got = to_host(dC, C)
    opa = A[:ar, :ac] if ta == OP.HIPBLAS_OP_N else A[:ar, :ac].T
    opb = B[:br, :bc] if tb == OP.HIPBLAS_OP_N else B[:br, :bc].T
    want = C.copy()
    if m and n:
        want[:m, :n] = alpha * (opa @ opb) + beta * C[:m, :n]
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * (k + 1))
    for d in (dA, dB, dC):
        check(hip.hipFree(d))


GEMV = {np.float32: hipblas.hipblasSgemv, np.float64: hipblas.hipblasDgemv, np.complex64: hipblas.hipblasCgemv,
        np.complex128: hipblas.hipblasZgemv}


@settings(max_examples=examples(60), deadline=None)
@given(m=st.integers(0, 7), n=st.integers(0, 7), pad=st.integers(0, 2), incx=st.sampled_from([1, 2, -1, -3]),
       incy=st.sampled_from([1, 3, -1, -2]), trans=st.sampled_from(list(OP)),
       alpha=st.sampled_from([0.0, 1.0, 0.5 - 1j]), beta=st.sampled_from([0.0, 1.0, 2.0 + 0.5j]),
       dtype=st.sampled_from(list(GEMV)))
def test_hypothesis_gemv_matches_numpy(handle, m, n, pad, incx, incy, trans, alpha, beta, dtype):
    """gemv over trans, sizes, lda padding, positive and negative increments, alpha/beta and s/d/c/z."""
    real = np.dtype(dtype).kind == "f"
    alpha, beta = (alpha.real, beta.real) if real else (alpha, beta)
    rng = np.random.default_rng(m * 10 + n)
    lda = max(m, 1) + pad

    def rand(*shape):
        a = rng.standard_normal(shape)
        return (a if real else a + 1j * rng.standard_normal(shape)).astype(dtype)

    A = np.asfortranarray(rand(lda, max(n, 1)))
    lx, ly = (n, m) if trans == OP.HIPBLAS_OP_N else (m, n)
    x = rand(max(1 + (lx - 1) * abs(incx), 1))
    y = rand(max(1 + (ly - 1) * abs(incy), 1))
    dA, dx, dy = (to_device(v) for v in (A, x, y))
    scalar = np.dtype(dtype).type
    check(GEMV[dtype](handle, trans, m, n, scalar(alpha), dA, lda, dx, incx, scalar(beta), dy, incy))
    got = to_host(dy, y)
    want = y.astype(np.complex128)
    if m and n:
        # C semantics: a transposed real matrix is never conjugated; a negative increment walks from the end
        op = {OP.HIPBLAS_OP_N: A[:m, :n], OP.HIPBLAS_OP_T: A[:m, :n].T, OP.HIPBLAS_OP_C: A[:m, :n].conj().T}[trans]
        xs = x[::incx][:lx].astype(np.complex128)
        sel = np.arange(ly) * abs(incy)
        if incy < 0:
            sel = sel[::-1]
        want[sel] = alpha * (op.astype(np.complex128) @ xs) + beta * want[sel]
    tol = 1e-4 if np.finfo(dtype).bits == 32 else 1e-12
    np.testing.assert_allclose(got, want.real if real else want, rtol=tol, atol=tol * (max(m, n) + 1))
    for d in (dA, dx, dy):
        check(hip.hipFree(d))


def _zero_argument(param, entry):
    """An argument for a do-nothing call: sizes 0, increments 1, enums valid, pointers NULL."""
    from rocmath.hip.hipblas import _ENUMS

    if param.kind == "enum":
        return next(iter(_ENUMS[param.rocblas]))
    if param.kind == "datatype":
        return hip.hipDataType.HIP_R_32F if entry.v2 else hipblas.hipblasDatatype_t.HIPBLAS_R_32F
    if param.kind == "compute":
        return hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F
    if param.kind == "algo":
        return hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT
    if param.kind == "flags":
        return hipblas.hipblasGemmFlags_t.HIPBLAS_GEMM_FLAGS_NONE
    if param.kind == "int":
        return 1 if param.rocblas.startswith(("inc", "ld")) else 0
    return None


def test_every_generated_function_accepts_its_signature(handle):
    """Each of the ~1500 bindings converts its arguments and reaches rocBLAS (a size-0 call)."""
    from rocmath.hip.hipblas import _params

    for name, entry in hipblas_names().items():
        fn = getattr(hipblas, name)
        params = _params(entry, tuple(inspect.signature(getattr(blas, entry.rocblas)).parameters))
        args = [handle if p.kind == "handle" else _zero_argument(p, entry) for p in params]
        status = fn(*args)[0]
        assert status in (S.HIPBLAS_STATUS_SUCCESS, S.HIPBLAS_STATUS_INVALID_VALUE, S.HIPBLAS_STATUS_NOT_SUPPORTED), (
            name, status)


def test_host_scalars_are_the_bytes_behind_the_pointer(handle) -> None:
    # A ctypes scalar is read as C reads the pointer: its own type's bytes (a NaN's payload and -0.0
    # kept), and a float alpha given as a c_double is the double's first four bytes (2.0: 0.0f).
    x = np.array([1.0, -3.0, 0.0, 5.0])
    d = to_device(x)
    check(hipblas.hipblasDscal(handle, 4, ctypes.c_double(-0.0), d, 1))
    assert to_host(d, x).tobytes() == (x * -0.0).tobytes()
    payload = np.array([0x7FF8_0000_0000_1234], dtype=np.uint64).view(np.float64)[0]
    check(hipblas.hipblasDscal(handle, 4, ctypes.c_double(payload), d, 1))
    assert np.isnan(to_host(d, x)).all()
    xs = np.array([1.0, -3.0, 4.0], dtype=np.float32)
    ds = to_device(xs)
    check(hipblas.hipblasSscal(handle, 3, ctypes.c_float(2.5), ds, 1))
    np.testing.assert_array_equal(to_host(ds, xs), 2.5 * xs)
    check(hipblas.hipblasSscal(handle, 3, ctypes.c_double(2.0), ds, 1))
    np.testing.assert_array_equal(to_host(ds, xs), np.zeros(3, np.float32))
    for p in (d, ds):
        check(hip.hipFree(p))
