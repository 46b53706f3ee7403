"""rocmath.hip.hipsparse: hipSPARSE through hip-python's conventions, cross-checked with SciPy."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from hip_util import assert_runs_ok, check, free, hip_check_source, to_device, to_host

import rocmath.sparse as rs
from rocmath.hip import hip, hipsparse

S = hipsparse.hipsparseStatus_t
OP = hipsparse.hipsparseOperation_t
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
K = hip.hipMemcpyKind
D = hip.hipDataType


@pytest.fixture(scope="module")
def handle():
    h = check(hipsparse.hipsparseCreate())
    yield h
    check(hipsparse.hipsparseDestroy(h))


@pytest.fixture(scope="module")
def matrix():
    A = sp.random(9, 6, density=0.35, format="csr", random_state=4, dtype=np.float64)
    arrays = [to_device(a) for a in (A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data)]
    yield A, arrays
    for d in arrays:
        check(hip.hipFree(d))


def test_enums_and_the_status_table_follow_hipsparse():
    assert (OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, OP.HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) == (0, 2)
    order = hipsparse.hipsparseOrder_t
    assert order.HIPSPARSE_ORDER_COLUMN is order.HIPSPARSE_ORDER_COL and order.HIPSPARSE_ORDER_ROW == 2
    assert hipsparse.hipsparseFormat_t.HIPSPARSE_FORMAT_CSR == 1
    expected = {rs.Status.invalid_handle: S.HIPSPARSE_STATUS_INVALID_VALUE,
                rs.Status.not_implemented: S.HIPSPARSE_STATUS_NOT_SUPPORTED,
                rs.Status.invalid_size: S.HIPSPARSE_STATUS_INVALID_VALUE,
                rs.Status.memory_error: S.HIPSPARSE_STATUS_ALLOC_FAILED,
                rs.Status.zero_pivot: S.HIPSPARSE_STATUS_ZERO_PIVOT,
                rs.Status.requires_sorted_storage: S.HIPSPARSE_STATUS_INTERNAL_ERROR,
                rs.Status.continue_: S.HIPSPARSE_STATUS_SUCCESS}
    for status, want in expected.items():
        assert hipsparse.convert_status(status) == want
    assert {"hipsparseScsrmv", "hipsparseZcsrmm2", "hipsparseSpMV_bufferSize", "hipsparseCreateCsr",
            "hipsparseXcsr2coo", "hipsparseDcsr2csc"} <= set(hipsparse.MANIFEST)
    for name in hipsparse.MANIFEST:
        assert callable(getattr(hipsparse, name)) and name in hipsparse.__all__
    assert hipsparse.hipsparseGetErrorName(S.HIPSPARSE_STATUS_INVALID_VALUE) == ("rocsparse_status_invalid_value",)


def test_legacy_csrmv_and_csrmm_with_host_scalars(handle, matrix):
    A, (dp, di, dv) = matrix
    descr = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateMatDescr(descr))
    assert hipsparse.hipsparseGetMatIndexBase(descr) == (BASE0,)
    x, y = np.linspace(-1, 1, 6), np.linspace(0, 2, 9)
    dx, dy = to_device(x), to_device(y)
    alpha, beta = ctypes.c_double(2.0), ctypes.c_double(0.5)
    check(hipsparse.hipsparseDcsrmv(handle, OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, 9, 6, A.nnz, ctypes.addressof(alpha),
                                    descr, dv, dp, di, dx, beta, dy))
    np.testing.assert_allclose(to_host(dy, y), 2 * A @ x + 0.5 * y, rtol=1e-12)
    B = np.asfortranarray(np.random.default_rng(5).standard_normal((9, 3)))
    C = np.zeros((6, 3), order="F")
    dB, dC = to_device(B), to_device(C)
    zero = np.zeros(1)  # a numpy array is a host pointer too
    check(hipsparse.hipsparseDcsrmm2(handle, OP.HIPSPARSE_OPERATION_TRANSPOSE, OP.HIPSPARSE_OPERATION_NON_TRANSPOSE,
                                     9, 3, 6, A.nnz, np.ones(1), descr, dv, dp, di, dB, 9, zero, dC, 6))
    np.testing.assert_allclose(to_host(dC, C), A.T @ B, rtol=1e-12)
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    for d in (dx, dy, dB, dC):
        check(hip.hipFree(d))


def test_generic_spmv_with_buffer_query_and_spmm(handle, matrix):
    A, (dp, di, dv) = matrix
    mat = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateCsr(mat, 9, 6, A.nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseSpMatGetSize(mat)[1:] == (9, 6, A.nnz)
    assert hipsparse.hipsparseSpMatGetFormat(mat)[1] == hipsparse.hipsparseFormat_t.HIPSPARSE_FORMAT_CSR
    x = np.random.default_rng(6).standard_normal(9)
    dx, dy = to_device(x), to_device(np.zeros(6))
    vx, vy = check(hipsparse.hipsparseCreateDnVec(9, dx, D.HIP_R_64F)), ctypes.c_void_p()
    check(hipsparse.hipsparseCreateDnVec(vy, 6, dy, D.HIP_R_64F))
    alpha, beta = ctypes.c_double(1.5), ctypes.c_double(0.0)
    op, alg = OP.HIPSPARSE_OPERATION_TRANSPOSE, hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    size = ctypes.c_size_t(7)
    check(hipsparse.hipsparseSpMV_bufferSize(handle, op, alpha, mat, vx, beta, vy, D.HIP_R_64F, alg, size))
    assert hipsparse.hipsparseSpMV_bufferSize(handle, op, alpha, mat, vx, beta, vy, D.HIP_R_64F, alg) == (
        S.HIPSPARSE_STATUS_SUCCESS, size.value)
    buf = check(hip.hipMalloc(max(size.value, 1)))
    check(hipsparse.hipsparseSpMV(handle, op, alpha, mat, vx, beta, vy, D.HIP_R_64F, alg, buf))
    np.testing.assert_allclose(to_host(dy, np.zeros(6)), 1.5 * A.T @ x, rtol=1e-12)
    # SpMM: C (9 x 2, row order) = A B with B 6 x 2 in column order
    B = np.asfortranarray(np.arange(12.0).reshape(6, 2))
    dB, dC = to_device(B), to_device(np.zeros((9, 2)))
    order = hipsparse.hipsparseOrder_t
    mB = check(hipsparse.hipsparseCreateDnMat(6, 2, 6, dB, D.HIP_R_64F, order.HIPSPARSE_ORDER_COL))
    mC = check(hipsparse.hipsparseCreateDnMat(9, 2, 2, dC, D.HIP_R_64F, order.HIPSPARSE_ORDER_ROW))
    nop, mm = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, hipsparse.hipsparseSpMMAlg_t.HIPSPARSE_SPMM_ALG_DEFAULT
    need = check(hipsparse.hipsparseSpMM_bufferSize(handle, nop, nop, alpha, mat, mB, beta, mC, D.HIP_R_64F, mm))
    check(hipsparse.hipsparseSpMM(handle, nop, nop, alpha, mat, mB, beta, mC, D.HIP_R_64F, mm,
                                  check(hip.hipMalloc(need)) if need else None))
    np.testing.assert_allclose(to_host(dC, np.zeros((9, 2))), 1.5 * A @ B, rtol=1e-12)
    for d in (vx, vy):
        check(hipsparse.hipsparseDestroyDnVec(d))
    for d in (mB, mC):
        check(hipsparse.hipsparseDestroyDnMat(d))
    check(hipsparse.hipsparseDestroySpMat(mat))
    for d in (dx, dy, buf, dB, dC):
        check(hip.hipFree(d))


def test_generic_spmv_int8_into_int32(handle):
    # rocSPARSE's mixed types reach it through hipDataType's HIP_R_8I/HIP_R_32I.
    A = sp.random(7, 5, density=0.5, format="csr", random_state=8)
    A.data = np.random.default_rng(8).integers(-9, 10, A.nnz).astype(np.int8)
    x = np.random.default_rng(9).integers(-9, 10, 5).astype(np.int8)
    y = np.arange(7, dtype=np.int32)
    dp, di, dv, dx, dy = (to_device(a) for a in (A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data, x, y))
    mat = check(hipsparse.hipsparseCreateCsr(7, 5, A.nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_8I))
    vx = check(hipsparse.hipsparseCreateDnVec(5, dx, D.HIP_R_8I))
    vy = check(hipsparse.hipsparseCreateDnVec(7, dy, D.HIP_R_32I))
    alpha, beta = ctypes.c_int32(3), ctypes.c_int32(-2)
    nop, alg = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    need = check(hipsparse.hipsparseSpMV_bufferSize(handle, nop, alpha, mat, vx, beta, vy, D.HIP_R_32I, alg))
    buf = check(hip.hipMalloc(max(need, 1)))
    check(hipsparse.hipsparseSpMV(handle, nop, alpha, mat, vx, beta, vy, D.HIP_R_32I, alg, buf))
    want = 3 * (A.astype(np.int64) @ x.astype(np.int64)) - 2 * y  # integer-valued: exact
    np.testing.assert_array_equal(to_host(dy, np.zeros(7, np.int32)), want)
    check(hipsparse.hipsparseDestroyDnVec(vx))
    check(hipsparse.hipsparseDestroyDnVec(vy))
    check(hipsparse.hipsparseDestroySpMat(mat))
    for d in (dp, di, dv, dx, dy, buf):
        check(hip.hipFree(d))


def test_conversions(handle, matrix):
    A, (dp, di, dv) = matrix
    rows = check(hip.hipMalloc(4 * A.nnz))
    check(hipsparse.hipsparseXcsr2coo(handle, dp, A.nnz, 9, rows, BASE0))
    np.testing.assert_array_equal(to_host(rows, np.zeros(A.nnz, np.int32)), A.tocoo().row)
    ptr = check(hip.hipMalloc(4 * 10))
    check(hipsparse.hipsparseXcoo2csr(handle, rows, A.nnz, 9, ptr, BASE0))
    np.testing.assert_array_equal(to_host(ptr, np.zeros(10, np.int32)), A.indptr)
    cv, cr, cc = check(hip.hipMalloc(8 * A.nnz)), check(hip.hipMalloc(4 * A.nnz)), check(hip.hipMalloc(4 * 7))
    check(hipsparse.hipsparseDcsr2csc(handle, 9, 6, A.nnz, dv, dp, di, cv, cr, cc,
                                      hipsparse.hipsparseAction_t.HIPSPARSE_ACTION_NUMERIC, BASE0))
    csc = A.tocsc()
    csc.sort_indices()
    np.testing.assert_array_equal(to_host(cc, np.zeros(7, np.int32)), csc.indptr)
    np.testing.assert_array_equal(to_host(cr, np.zeros(A.nnz, np.int32)), csc.indices)
    np.testing.assert_allclose(to_host(cv, np.zeros(A.nnz)), csc.data)
    for d in (rows, ptr, cv, cr, cc):
        check(hip.hipFree(d))


def test_handle_modes_and_bad_arguments(handle, matrix):
    A, (dp, di, dv) = matrix
    mode = ctypes.c_int(-1)
    check(hipsparse.hipsparseGetPointerMode(handle, mode))
    assert mode.value == hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_HOST
    stream = check(hip.hipStreamCreate())
    check(hipsparse.hipsparseSetStream(handle, stream))
    assert int(check(hipsparse.hipsparseGetStream(handle))) == int(stream)
    check(hipsparse.hipsparseSetStream(handle, None))
    check(hip.hipStreamDestroy(stream))
    version = ctypes.c_int()
    check(hipsparse.hipsparseGetVersion(handle, version))
    assert version.value == 300101
    assert hipsparse.hipsparseGetVersion(None, version) == (S.HIPSPARSE_STATUS_NOT_INITIALIZED,)
    descr = check(hipsparse.hipsparseCreateMatDescr())
    one, nop = ctypes.c_double(1.0), OP.HIPSPARSE_OPERATION_NON_TRANSPOSE
    x = y = check(hip.hipMalloc(8 * 9))
    # rocSPARSE's invalid_handle, invalid_size and invalid_pointer all become INVALID_VALUE
    assert hipsparse.hipsparseDcsrmv(None, nop, 9, 6, A.nnz, one, descr, dv, dp, di, x, one, y) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseDcsrmv(handle, nop, -1, 6, A.nnz, one, descr, dv, dp, di, x, one, y) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseDcsrmv(handle, nop, 9, 6, A.nnz, None, descr, dv, dp, di, x, one, y) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    # rocSPARSE's not_implemented (value types that differ from the compute type) -> NOT_SUPPORTED
    coo = check(hipsparse.hipsparseCreateCoo(9, 6, 0, None, None, None, I32, BASE0, D.HIP_R_64F))
    vec = check(hipsparse.hipsparseCreateDnVec(6, x, D.HIP_R_32F))
    alg = hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    assert hipsparse.hipsparseSpMV_bufferSize(handle, nop, one, coo, vec, one, vec, D.HIP_R_64F, alg)[0] == (
        S.HIPSPARSE_STATUS_NOT_SUPPORTED)
    # a data type hipSPARSE cannot convert fails instead of aborting the process
    assert hipsparse.hipsparseCreateDnVec(6, x, D.HIP_R_16F)[0] == S.HIPSPARSE_STATUS_INVALID_VALUE
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    assert hipsparse.hipsparseDestroyMatDescr(descr) == (S.HIPSPARSE_STATUS_INVALID_VALUE,)
    with pytest.raises(TypeError, match="_hipsparseOperation_t__Base"):
        hipsparse.hipsparseDcsrmv(handle, 0, 9, 6, A.nnz, one, descr, dv, dp, di, x, one, y)
    with pytest.raises(TypeError, match="_hipDataType__Base"):
        hipsparse.hipsparseCreateDnVec(6, x, 1)
    check(hip.hipFree(x))


PROGRAM = '''
import ctypes
import numpy as np
from hip import hip, hipsparse
''' + hip_check_source("hipsparse") + '''
# y = A x for the 3 x 3 tridiagonal [2 -1 0; -1 2 -1; 0 -1 2] in CSR
row_ptr = np.array([0, 2, 5, 7], np.int32)
col_ind = np.array([0, 1, 0, 1, 2, 1, 2], np.int32)
values = np.array([2, -1, -1, 2, -1, -1, 2], np.float32)
x = np.array([1, 2, 3], np.float32)
dev = []
for a in (row_ptr, col_ind, values, x, np.zeros(3, np.float32)):
    d = hip_check(hip.hipMalloc(a.nbytes))
    hip_check(hip.hipMemcpy(d, a, a.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    dev.append(d)
handle = hip_check(hipsparse.hipsparseCreate())
descr = ctypes.c_void_p()
hip_check(hipsparse.hipsparseCreateMatDescr(descr))
alpha, beta = ctypes.c_float(1), ctypes.c_float(0)
hip_check(hipsparse.hipsparseScsrmv(handle, hipsparse.hipsparseOperation_t.HIPSPARSE_OPERATION_NON_TRANSPOSE, 3, 3,
                                    7, ctypes.addressof(alpha), descr, dev[2], dev[0], dev[1], dev[3],
                                    ctypes.addressof(beta), dev[4]))
y = np.zeros(3, np.float32)
hip_check(hip.hipMemcpy(y, dev[4], y.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert np.allclose(y, [0, 0, 4]), y
# y += 0.5 * x_sparse, with x_sparse = {0: 4, 2: 6} as values and indices (hipsparseSaxpyi)
xval, xind = np.array([4, 6], np.float32), np.array([0, 2], np.int32)
dval, dind = (hip_check(hip.hipMalloc(a.nbytes)) for a in (xval, xind))
for d, a in ((dval, xval), (dind, xind)):
    hip_check(hip.hipMemcpy(d, a, a.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
half = ctypes.c_float(0.5)
hip_check(hipsparse.hipsparseSaxpyi(handle, 2, ctypes.addressof(half), dval, dind, dev[4],
                                    hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO))
hip_check(hip.hipMemcpy(y, dev[4], y.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert np.allclose(y, [2, 0, 7]), y
dev += [dval, dind]
hip_check(hipsparse.hipsparseDestroyMatDescr(descr))
hip_check(hipsparse.hipsparseDestroy(handle))
for d in dev:
    hip_check(hip.hipFree(d))
print("ok")
'''


def test_hipsparse_program_through_the_runner(tmp_path):
    assert_runs_ok(tmp_path, PROGRAM, name="sparse_prog.py")


def test_level1_against_numpy(handle):
    rng = np.random.default_rng(11)
    y = rng.standard_normal(12)
    ind = np.array([1, 4, 5, 9, 11], np.int32)
    val = rng.standard_normal(5)
    dy, dind, dval = to_device(y), to_device(ind), to_device(val)
    check(hipsparse.hipsparseDaxpyi(handle, 5, ctypes.c_double(2.5), dval, dind, dy, BASE0))
    want = y.copy()
    want[ind] += 2.5 * val
    np.testing.assert_allclose(to_host(dy, y), want, rtol=1e-14)
    result = ctypes.c_double(0)  # host pointer mode: the result is written through the host pointer
    check(hipsparse.hipsparseDdoti(handle, 5, dval, dind, dy, result, BASE0))
    assert result.value == pytest.approx(val @ want[ind], rel=1e-14)
    assert hipsparse.hipsparseDdoti(handle, 5, dval, dind, dy, None, BASE0) == (S.HIPSPARSE_STATUS_INVALID_VALUE,)
    gathered = check(hip.hipMalloc(8 * 5))
    check(hipsparse.hipsparseDgthr(handle, 5, dy, gathered, dind, BASE0))
    np.testing.assert_array_equal(to_host(gathered, val), want[ind])
    check(hipsparse.hipsparseDgthrz(handle, 5, dy, gathered, dind, BASE0))
    zeroed = want.copy()
    zeroed[ind] = 0
    np.testing.assert_array_equal(to_host(dy, y), zeroed)
    check(hipsparse.hipsparseDsctr(handle, 5, dval, dind, dy, BASE0))
    zeroed[ind] = val
    np.testing.assert_array_equal(to_host(dy, y), zeroed)
    c, s = 0.6, 0.8
    check(hipsparse.hipsparseDroti(handle, 5, gathered, dind, dy, ctypes.c_double(c), ctypes.c_double(s), BASE0))
    xv, yv = want[ind], zeroed[ind]
    np.testing.assert_allclose(to_host(gathered, val), c * xv + s * yv, rtol=1e-14)
    np.testing.assert_allclose(to_host(dy, y)[ind], c * yv - s * xv, rtol=1e-14)
    # dotci (complex, conjugated x), 1-based indices
    zx = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64)
    zy = (rng.standard_normal(12) + 1j * rng.standard_normal(12)).astype(np.complex64)
    dzx, dzy, dind1 = to_device(zx), to_device(zy), to_device(ind + 1)
    out = np.zeros(1, np.complex64)
    base1 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
    check(hipsparse.hipsparseCdotci(handle, 5, dzx, dind1, dzy, out, base1))
    np.testing.assert_allclose(out[0], np.vdot(zx, zy[ind]), rtol=1e-5)
    free(dy, dind, dval, gathered, dzx, dzy, dind1)


def test_doti_and_nnz_in_device_pointer_mode():
    h = check(hipsparse.hipsparseCreate())
    check(hipsparse.hipsparseSetPointerMode(h, hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_DEVICE))
    x, y, ind = np.arange(1.0, 4.0), np.arange(10.0), np.array([0, 3, 7], np.int32)
    dx, dy, dind, dres = to_device(x), to_device(y), to_device(ind), to_device(np.zeros(1))
    check(hipsparse.hipsparseDdoti(h, 3, dx, dind, dy, dres, BASE0))
    assert to_host(dres, np.zeros(1))[0] == x @ y[ind]
    A = np.asfortranarray(np.array([[1.0, 0, 2], [0, 0, 3]]))
    dA, counts, total = to_device(A), check(hip.hipMalloc(4 * 2)), to_device(np.zeros(1, np.int32))
    descr = check(hipsparse.hipsparseCreateMatDescr())
    check(hipsparse.hipsparseDnnz(h, hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_ROW, 2, 3, descr, dA, 2,
                                  counts, total))
    assert to_host(total, np.zeros(1, np.int32))[0] == 3
    np.testing.assert_array_equal(to_host(counts, np.zeros(2, np.int32)), [2, 1])
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    check(hipsparse.hipsparseDestroy(h))
    free(dx, dy, dind, dres, dA, counts, total)


def test_dense_conversions_and_sorts(handle):
    rng = np.random.default_rng(3)
    A = np.asfortranarray(rng.standard_normal((5, 4)) * (rng.random((5, 4)) < 0.5))
    ref = sp.csr_matrix(A)
    dA, descr = to_device(A), check(hipsparse.hipsparseCreateMatDescr())
    row = hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_ROW
    counts = check(hip.hipMalloc(4 * 5))
    nnz = ctypes.c_int(-1)
    check(hipsparse.hipsparseDnnz(handle, row, 5, 4, descr, dA, 5, counts, nnz))
    assert nnz.value == ref.nnz
    val, ptr, ind = check(hip.hipMalloc(8 * ref.nnz)), check(hip.hipMalloc(4 * 6)), check(hip.hipMalloc(4 * ref.nnz))
    check(hipsparse.hipsparseDdense2csr(handle, 5, 4, descr, dA, 5, counts, val, ptr, ind))
    np.testing.assert_array_equal(to_host(ptr, ref.indptr.astype(np.int32)), ref.indptr)
    np.testing.assert_array_equal(to_host(ind, ref.indices.astype(np.int32)), ref.indices)
    np.testing.assert_array_equal(to_host(val, ref.data), ref.data)
    dB = check(hip.hipMalloc(A.nbytes))
    check(hipsparse.hipsparseDcsr2dense(handle, 5, 4, descr, val, ptr, ind, dB, 5))
    np.testing.assert_array_equal(to_host(dB, A), A)
    csc = sp.csc_matrix(A)
    col_counts = to_device(np.diff(csc.indptr).astype(np.int32))
    cval, crow, cptr = check(hip.hipMalloc(8 * ref.nnz)), check(hip.hipMalloc(4 * ref.nnz)), check(hip.hipMalloc(20))
    check(hipsparse.hipsparseDdense2csc(handle, 5, 4, descr, dA, 5, col_counts, cval, crow, cptr))
    np.testing.assert_array_equal(to_host(cptr, csc.indptr.astype(np.int32)), csc.indptr)
    np.testing.assert_array_equal(to_host(crow, csc.indices.astype(np.int32)), csc.indices)
    check(hip.hipMemset(dB, 0, A.nbytes))
    check(hipsparse.hipsparseDcsc2dense(handle, 5, 4, descr, cval, crow, cptr, dB, 5))
    np.testing.assert_array_equal(to_host(dB, A), A)
    # csrsort: reverse each row's columns, sort them back with a permutation
    shuffled = np.concatenate([ref.indices[a:b][::-1] for a, b in zip(ref.indptr[:-1], ref.indptr[1:], strict=True)])
    check(hip.hipMemcpy(ind, shuffled.astype(np.int32), 4 * ref.nnz, K.hipMemcpyHostToDevice))
    size = check(hipsparse.hipsparseXcsrsort_bufferSizeExt(handle, 5, 4, ref.nnz, ptr, ind))
    buf, perm = check(hip.hipMalloc(max(size, 1))), check(hip.hipMalloc(4 * ref.nnz))
    check(hipsparse.hipsparseCreateIdentityPermutation(handle, ref.nnz, perm))
    check(hipsparse.hipsparseXcsrsort(handle, 5, 4, ref.nnz, descr, ptr, ind, perm, buf))
    np.testing.assert_array_equal(to_host(ind, ref.indices.astype(np.int32)), ref.indices)
    p = to_host(perm, np.zeros(ref.nnz, np.int32))
    np.testing.assert_array_equal(shuffled[p], ref.indices)
    # coosort by row, then by column (scipy's COO of the transpose gives the column order)
    coo = ref.tocoo()
    order = np.random.default_rng(0).permutation(ref.nnz)
    rows, cols = to_device(coo.row[order].astype(np.int32)), to_device(coo.col[order].astype(np.int32))
    size = check(hipsparse.hipsparseXcoosort_bufferSizeExt(handle, 5, 4, ref.nnz, rows, cols))
    buf2 = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseXcoosortByRow(handle, 5, 4, ref.nnz, rows, cols, None, buf2))
    np.testing.assert_array_equal(to_host(rows, coo.row.astype(np.int32)), coo.row)
    np.testing.assert_array_equal(to_host(cols, coo.col.astype(np.int32)), coo.col)
    check(hipsparse.hipsparseXcoosortByColumn(handle, 5, 4, ref.nnz, rows, cols, None, buf2))
    t = csc.tocoo()
    np.testing.assert_array_equal(to_host(cols, coo.col.astype(np.int32)), t.col)
    np.testing.assert_array_equal(to_host(rows, coo.row.astype(np.int32)), t.row)
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    free(dA, counts, val, ptr, ind, dB, col_counts, cval, crow, cptr, buf, perm, rows, cols, buf2)


def test_csrsv2_solve_and_zero_pivot(handle):
    rng = np.random.default_rng(8)
    L = sp.tril(sp.random(7, 7, density=0.4, random_state=2), -1) + sp.diags(rng.uniform(1, 2, 7))
    L = sp.csr_matrix(L)
    L.sort_indices()
    dv, dp, di = to_device(L.data), to_device(L.indptr.astype(np.int32)), to_device(L.indices.astype(np.int32))
    descr, info = check(hipsparse.hipsparseCreateMatDescr()), ctypes.c_void_p()
    check(hipsparse.hipsparseCreateCsrsv2Info(info))
    nop = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE
    policy = hipsparse.hipsparseSolvePolicy_t.HIPSPARSE_SOLVE_POLICY_USE_LEVEL
    size = ctypes.c_int(0)
    check(hipsparse.hipsparseDcsrsv2_bufferSize(handle, nop, 7, L.nnz, descr, dv, dp, di, info, size))
    assert size.value > 0 and hipsparse.hipsparseDcsrsv2_bufferSizeExt(
        handle, nop, 7, L.nnz, descr, dv, dp, di, info) == (S.HIPSPARSE_STATUS_SUCCESS, size.value)
    buf = check(hip.hipMalloc(size.value))
    check(hipsparse.hipsparseDcsrsv2_analysis(handle, nop, 7, L.nnz, descr, dv, dp, di, info, policy, buf))
    position = ctypes.c_int(5)
    check(hipsparse.hipsparseXcsrsv2_zeroPivot(handle, info, position))
    assert position.value == -1
    f = rng.standard_normal(7)
    df, dx = to_device(f), check(hip.hipMalloc(8 * 7))
    check(hipsparse.hipsparseDcsrsv2_solve(handle, nop, 7, L.nnz, ctypes.c_double(2.0), descr, dv, dp, di, info, df,
                                           dx, policy, buf))
    np.testing.assert_allclose(to_host(dx, f), spla.spsolve_triangular(L, 2 * f, lower=True), rtol=1e-12)
    # a structural zero pivot: row 3's diagonal removed
    M = L.tolil()
    M[3, 3] = 0
    M = sp.csr_matrix(M)
    M.eliminate_zeros()
    mv, mp, mi = to_device(M.data), to_device(M.indptr.astype(np.int32)), to_device(M.indices.astype(np.int32))
    info2 = check(hipsparse.hipsparseCreateCsrsv2Info())
    check(hipsparse.hipsparseDcsrsv2_analysis(handle, nop, 7, M.nnz, descr, mv, mp, mi, info2, policy, buf))
    assert hipsparse.hipsparseXcsrsv2_zeroPivot(handle, info2, position) == (S.HIPSPARSE_STATUS_ZERO_PIVOT,)
    assert position.value == 3
    for i in (info, info2):
        check(hipsparse.hipsparseDestroyCsrsv2Info(i))
    assert hipsparse.hipsparseXcsrsv2_zeroPivot(handle, info, position)[0] == S.HIPSPARSE_STATUS_INVALID_VALUE
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    free(dv, dp, di, buf, df, dx, mv, mp, mi)


def _csr_on_device(a):
    a = sp.csr_matrix(a)
    a.sort_indices()
    return a, to_device(a.data), to_device(a.indptr.astype(np.int32)), to_device(a.indices.astype(np.int32))


def test_csrgemm2_and_csrgeam(handle):
    A, av, ap, ai = _csr_on_device(sp.random(6, 5, density=0.4, random_state=1))
    B, bv, bp, bi = _csr_on_device(sp.random(5, 4, density=0.4, random_state=2))
    Dm, dv, dp, di = _csr_on_device(sp.random(6, 4, density=0.3, random_state=3))
    descr = check(hipsparse.hipsparseCreateMatDescr())
    info = check(hipsparse.hipsparseCreateCsrgemm2Info())
    alpha, beta = ctypes.c_double(1.5), ctypes.c_double(-2.0)
    size = check(hipsparse.hipsparseDcsrgemm2_bufferSizeExt(handle, 6, 4, 5, alpha, descr, A.nnz, ap, ai, descr,
                                                            B.nnz, bp, bi, beta, descr, Dm.nnz, dp, di, info))
    buf, cp = check(hip.hipMalloc(max(size, 1))), check(hip.hipMalloc(4 * 7))
    nnz_c = ctypes.c_int(-1)
    check(hipsparse.hipsparseXcsrgemm2Nnz(handle, 6, 4, 5, descr, A.nnz, ap, ai, descr, B.nnz, bp, bi, descr, Dm.nnz,
                                          dp, di, descr, cp, nnz_c, info, buf))
    want = sp.csr_matrix(1.5 * A @ B - 2.0 * Dm)
    want.sum_duplicates()
    want.sort_indices()
    structure = sp.csr_matrix(abs(A) @ abs(B) + abs(Dm))
    assert nnz_c.value == structure.nnz
    cv, ci = check(hip.hipMalloc(8 * nnz_c.value)), check(hip.hipMalloc(4 * nnz_c.value))
    check(hipsparse.hipsparseDcsrgemm2(handle, 6, 4, 5, alpha, descr, A.nnz, av, ap, ai, descr, B.nnz, bv, bp, bi,
                                       beta, descr, Dm.nnz, dv, dp, di, descr, cv, cp, ci, info, buf))
    got = sp.csr_matrix((to_host(cv, np.zeros(nnz_c.value)), to_host(ci, np.zeros(nnz_c.value, np.int32)),
                         to_host(cp, np.zeros(7, np.int32))), shape=(6, 4))
    np.testing.assert_allclose(got.toarray(), want.toarray(), rtol=1e-12, atol=1e-14)
    check(hipsparse.hipsparseDestroyCsrgemm2Info(info))
    # csrgeam: E = alpha A + beta F, and csrgeam2 (no buffer needed) gives the same
    F, fv, fp, fi = _csr_on_device(sp.random(6, 5, density=0.4, random_state=5))
    ep = check(hip.hipMalloc(4 * 7))
    nnz_e = ctypes.c_int()
    check(hipsparse.hipsparseXcsrgeamNnz(handle, 6, 5, descr, A.nnz, ap, ai, descr, F.nnz, fp, fi, descr, ep, nnz_e))
    assert nnz_e.value == sp.csr_matrix(abs(A) + abs(F)).nnz
    ev, ei = check(hip.hipMalloc(8 * nnz_e.value)), check(hip.hipMalloc(4 * nnz_e.value))
    check(hipsparse.hipsparseDcsrgeam(handle, 6, 5, alpha, descr, A.nnz, av, ap, ai, beta, descr, F.nnz, fv, fp, fi,
                                      descr, ev, ep, ei))
    E = sp.csr_matrix((to_host(ev, np.zeros(nnz_e.value)), to_host(ei, np.zeros(nnz_e.value, np.int32)),
                       to_host(ep, np.zeros(7, np.int32))), shape=(6, 5))
    np.testing.assert_allclose(E.toarray(), (1.5 * A - 2.0 * F).toarray(), rtol=1e-12)
    size2 = check(hipsparse.hipsparseDcsrgeam2_bufferSizeExt(handle, 6, 5, alpha, descr, A.nnz, av, ap, ai, beta,
                                                             descr, F.nnz, fv, fp, fi, descr, ev, ep, ei))
    assert size2 == 4
    buf2, nnz2 = check(hip.hipMalloc(size2)), ctypes.c_int()
    check(hipsparse.hipsparseXcsrgeam2Nnz(handle, 6, 5, descr, A.nnz, ap, ai, descr, F.nnz, fp, fi, descr, ep, nnz2,
                                          buf2))
    assert nnz2.value == nnz_e.value
    check(hipsparse.hipsparseDcsrgeam2(handle, 6, 5, alpha, descr, A.nnz, av, ap, ai, beta, descr, F.nnz, fv, fp, fi,
                                       descr, ev, ep, ei, buf2))
    np.testing.assert_array_equal(to_host(ev, np.zeros(nnz_e.value)), E.data)
    check(hipsparse.hipsparseDestroyMatDescr(descr))
    free(av, ap, ai, bv, bp, bi, dv, dp, di, buf, cp, cv, ci, fv, fp, fi, ep, ev, ei, buf2)


def test_gtsv2_strided_batch(handle):
    rng = np.random.default_rng(21)
    m, count, stride = 6, 3, 8
    dl, du = rng.uniform(-1, 1, (count, stride)), rng.uniform(-1, 1, (count, stride))
    d, x = rng.uniform(4, 5, (count, stride)), rng.standard_normal((count, stride))
    ddl, dd, ddu, dx = (to_device(a.ravel()) for a in (dl, d, du, x))
    # the arrays are not read (hipSPARSE passes placeholders): NULL is fine; m <= 512 needs no buffer
    assert hipsparse.hipsparseDgtsv2StridedBatch_bufferSizeExt(handle, m, None, None, None, None, count, stride) == (
        S.HIPSPARSE_STATUS_SUCCESS, 0)
    size = ctypes.c_size_t(9)
    check(hipsparse.hipsparseDgtsv2StridedBatch_bufferSizeExt(handle, 600, ddl, dd, ddu, dx, count, 600, size))
    assert size.value > 0
    check(hipsparse.hipsparseDgtsv2StridedBatch(handle, m, ddl, dd, ddu, dx, count, stride, None))
    got = to_host(dx, x.ravel()).reshape(count, stride)
    for b in range(count):
        T = np.diag(d[b, :m]) + np.diag(dl[b, 1:m], -1) + np.diag(du[b, :m - 1], 1)
        np.testing.assert_allclose(got[b, :m], np.linalg.solve(T, x[b, :m]), rtol=1e-12)
        np.testing.assert_array_equal(got[b, m:], x[b, m:])
    assert hipsparse.hipsparseDgtsv2StridedBatch(handle, 1, ddl, dd, ddu, dx, count, stride, None) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    free(ddl, dd, ddu, dx)


def test_generic_getters_and_attributes(handle, matrix):
    A, (dp, di, dv) = matrix
    mat = check(hipsparse.hipsparseCreateCsr(9, 6, A.nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_64F))
    # written through ctypes out-parameters, or returned
    rows, cols, nnz = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
    ptrs = [ctypes.c_void_p() for _ in range(3)]
    types = [ctypes.c_int(-1) for _ in range(4)]
    check(hipsparse.hipsparseCsrGet(mat, rows, cols, nnz, *ptrs, *types))
    assert (rows.value, cols.value, nnz.value) == (9, 6, A.nnz)
    assert [p.value for p in ptrs] == [int(dp), int(di), int(dv)]
    assert [t.value for t in types] == [I32, I32, BASE0, D.HIP_R_64F]
    assert hipsparse.hipsparseCsrGet(mat) == (S.HIPSPARSE_STATUS_SUCCESS, 9, 6, A.nnz, int(dp), int(di), int(dv), I32,
                                              I32, BASE0, D.HIP_R_64F)
    assert hipsparse.hipsparseConstCsrGet(mat)[1:4] == (9, 6, A.nnz)
    # a NULL out-parameter; a descriptor of another format is read as it is (rocSPARSE's csc_get checks no format)
    assert hipsparse.hipsparseCsrGet(mat, rows, cols, None, *ptrs, *types) == (S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseCscGet(mat) == (S.HIPSPARSE_STATUS_SUCCESS, 9, 6, A.nnz, int(di), int(dp), int(dv), I32,
                                              I32, BASE0, D.HIP_R_64F)
    i64 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I
    one = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
    coo = check(hipsparse.hipsparseCreateConstCoo(9, 6, A.nnz, dp, di, dv, i64, one, D.HIP_C_32F))
    assert hipsparse.hipsparseConstCooGet(coo) == (S.HIPSPARSE_STATUS_SUCCESS, 9, 6, A.nnz, int(dp), int(di), int(dv),
                                                   i64, one, D.HIP_C_32F)
    # a const descriptor's mutable arrays are null (rocSPARSE's create_const_* sets only the const ones)
    assert hipsparse.hipsparseCooGet(coo) == (S.HIPSPARSE_STATUS_SUCCESS, 9, 6, A.nnz, None, None, None, i64, one,
                                              D.HIP_C_32F)
    csc = check(hipsparse.hipsparseCreateCsc(9, 6, A.nnz, dp, di, dv, I32, i64, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstCscGet(csc)[4:] == (int(dp), int(di), int(dv), I32, i64, BASE0, D.HIP_R_64F)
    vec = check(hipsparse.hipsparseCreateConstDnVec(6, dv, D.HIP_R_64F))
    assert hipsparse.hipsparseConstDnVecGet(vec) == (S.HIPSPARSE_STATUS_SUCCESS, 6, int(dv), D.HIP_R_64F)
    assert hipsparse.hipsparseDnVecGet(vec) == (S.HIPSPARSE_STATUS_SUCCESS, 6, None, D.HIP_R_64F)
    assert hipsparse.hipsparseConstDnVecGetValues(vec) == (S.HIPSPARSE_STATUS_SUCCESS, int(dv))
    row = hipsparse.hipsparseOrder_t.HIPSPARSE_ORDER_ROW
    dn = check(hipsparse.hipsparseCreateDnMat(2, 3, 4, dv, D.HIP_R_64F, row))
    assert hipsparse.hipsparseDnMatGet(dn) == (S.HIPSPARSE_STATUS_SUCCESS, 2, 3, 4, int(dv), D.HIP_R_64F, row)
    assert hipsparse.hipsparseConstDnMatGet(dn) == hipsparse.hipsparseDnMatGet(dn)
    # attributes: an int through a host pointer of 4 bytes
    attr = hipsparse.hipsparseSpMatAttribute_t
    data = ctypes.c_int(-1)
    check(hipsparse.hipsparseSpMatGetAttribute(mat, attr.HIPSPARSE_SPMAT_FILL_MODE, data, 4))
    assert data.value == hipsparse.hipsparseFillMode_t.HIPSPARSE_FILL_MODE_LOWER
    check(hipsparse.hipsparseSpMatSetAttribute(mat, attr.HIPSPARSE_SPMAT_DIAG_TYPE, np.array([1], np.int32), 4))
    diag = np.zeros(1, np.int32)
    check(hipsparse.hipsparseSpMatGetAttribute(mat, attr.HIPSPARSE_SPMAT_DIAG_TYPE, diag, 4))
    assert diag[0] == hipsparse.hipsparseDiagType_t.HIPSPARSE_DIAG_TYPE_UNIT
    # rocSPARSE's checks: the data size, NULL data, a value the attribute does not have; nothing is changed
    assert hipsparse.hipsparseSpMatGetAttribute(mat, attr.HIPSPARSE_SPMAT_FILL_MODE, data, 8) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseSpMatGetAttribute(mat, attr.HIPSPARSE_SPMAT_FILL_MODE, None, 4) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseSpMatSetAttribute(mat, attr.HIPSPARSE_SPMAT_FILL_MODE, ctypes.c_int(7), 4) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    assert hipsparse.hipsparseSpMatGetAttribute(None, attr.HIPSPARSE_SPMAT_FILL_MODE, data, 4) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE,)
    with pytest.raises(TypeError, match="_hipsparseSpMatAttribute_t__Base"):
        hipsparse.hipsparseSpMatGetAttribute(mat, 0, data, 4)
    check(hipsparse.hipsparseSpMatGetAttribute(mat, attr.HIPSPARSE_SPMAT_FILL_MODE, data, 4))
    assert data.value == hipsparse.hipsparseFillMode_t.HIPSPARSE_FILL_MODE_LOWER
    for d in (mat, coo, csc):
        check(hipsparse.hipsparseDestroySpMat(d))
    check(hipsparse.hipsparseDestroyDnVec(vec))
    check(hipsparse.hipsparseDestroyDnMat(dn))


def _spgemm(handle, a, b, c_values, dtype, itype, alpha, beta):
    """hipSPARSE's SpGEMM sequence for C := alpha A B (+ beta C over the product's pattern, C's values
    ``c_values`` when given); returns C as a SciPy matrix and the C arrays' device pointers."""
    index = np.int64 if itype == hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I else np.int32
    value = {D.HIP_R_64F: np.float64, D.HIP_C_64F: np.complex128}[dtype]
    mats, owned = [], []
    for m in (a, b):
        arrays = [to_device(x) for x in (m.indptr.astype(index), m.indices.astype(index), m.data.astype(value))]
        owned += arrays
        mats.append(check(hipsparse.hipsparseCreateCsr(*m.shape, m.nnz, *arrays, itype, itype, BASE0, dtype)))
    rows, cols = a.shape[0], b.shape[1]
    row_ptr = check(hip.hipMalloc(np.dtype(index).itemsize * (rows + 1)))
    matC = check(hipsparse.hipsparseCreateCsr(rows, cols, 0, row_ptr, None, None, itype, itype, BASE0, dtype))
    descr = ctypes.c_void_p()
    check(hipsparse.hipsparseSpGEMM_createDescr(descr))
    nop, alg = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, hipsparse.hipsparseSpGEMMAlg_t.HIPSPARSE_SPGEMM_DEFAULT
    args = (handle, nop, nop, alpha, *mats, beta, matC, dtype, alg, descr)
    size1 = ctypes.c_size_t(0)
    check(hipsparse.hipsparseSpGEMM_workEstimation(*args, size1, None))
    buffer1 = check(hip.hipMalloc(size1.value))
    check(hipsparse.hipsparseSpGEMM_workEstimation(*args, size1, buffer1))
    size2 = check(hipsparse.hipsparseSpGEMM_compute(*args, None))
    buffer2 = check(hip.hipMalloc(size2))
    check(hipsparse.hipsparseSpGEMM_compute(*args, buffer2))
    nnz = check(hipsparse.hipsparseSpMatGetSize(matC))[2]
    columns = check(hip.hipMalloc(np.dtype(index).itemsize * nnz))
    values = to_device(np.zeros(nnz, value) if c_values is None else c_values(nnz).astype(value))
    check(hipsparse.hipsparseCsrSetPointers(matC, row_ptr, columns, values))
    check(hipsparse.hipsparseSpGEMM_copy(*args))
    got = sp.csr_matrix((to_host(values, np.zeros(nnz, value)), to_host(columns, np.zeros(nnz, index)),
                         to_host(row_ptr, np.zeros(rows + 1, index))), shape=(rows, cols))
    assert check(hipsparse.hipsparseCsrGet(matC))[3:6] == (int(row_ptr), int(columns), int(values))
    check(hipsparse.hipsparseSpGEMM_destroyDescr(descr))
    for d in (*mats, matC):
        check(hipsparse.hipsparseDestroySpMat(d))
    free(*owned, row_ptr, columns, values, buffer1, buffer2)
    return got


def _spgemm_case(handle, dtype, itype, device_mode):
    """C := alpha A B, then (device pointer mode) C := alpha A B + beta C with C's values given."""
    a = sp.random(7, 5, density=0.35, format="csr", random_state=31)
    b = sp.random(5, 6, density=0.35, format="csr", random_state=32)
    structure = sp.csr_matrix(abs(a) @ abs(b))
    structure.sort_indices()
    if dtype == D.HIP_C_64F:
        a, b = sp.csr_matrix(a.multiply(1 + 2j)), sp.csr_matrix(b.multiply(0.5 - 1j))
    value = np.complex128 if dtype == D.HIP_C_64F else np.float64
    alpha, beta = np.array([1.5 - 1j if value is np.complex128 else 1.5], value), np.array([0.25], value)
    if not device_mode:
        got = _spgemm(handle, a, b, None, dtype, itype, alpha, np.zeros(1, value))
        assert got.has_sorted_indices and got.nnz == structure.nnz
        np.testing.assert_array_equal(got.indptr, structure.indptr)
        np.testing.assert_allclose(got.toarray(), alpha[0] * (a @ b).toarray(), rtol=1e-14)
        return
    old = np.random.default_rng(33).standard_normal(structure.nnz).astype(value)
    d_alpha, d_beta = to_device(alpha), to_device(beta)
    check(hipsparse.hipsparseSetPointerMode(handle, hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_DEVICE))
    try:
        got = _spgemm(handle, a, b, lambda nnz: old, dtype, itype, d_alpha, d_beta)
    finally:
        check(hipsparse.hipsparseSetPointerMode(handle, hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_HOST))
    pattern = sp.csr_matrix((old, structure.indices, structure.indptr), shape=structure.shape)
    np.testing.assert_allclose(got.toarray(), alpha[0] * (a @ b).toarray() + beta[0] * pattern.toarray(), rtol=1e-13,
                               atol=1e-15)
    free(d_alpha, d_beta)


def test_spgemm_against_scipy(handle):
    # 32-bit indices with host scalars; 64-bit ones (csrgemm reads typed arrays) with device scalars and a beta
    _spgemm_case(handle, D.HIP_R_64F, I32, device_mode=False)
    _spgemm_case(handle, D.HIP_R_64F, hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I, device_mode=True)


@pytest.mark.slow
@pytest.mark.parametrize("device_mode", (False, True))
def test_spgemm_complex(handle, device_mode):
    i64 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I
    _spgemm_case(handle, D.HIP_C_64F, i64 if device_mode else I32, device_mode)


def test_spgemm_bad_arguments(handle, matrix):
    A, (dp, di, dv) = matrix
    a = check(hipsparse.hipsparseCreateCsr(9, 6, A.nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_64F))
    row_ptr = check(hip.hipMalloc(4 * 10))
    c = check(hipsparse.hipsparseCreateCsr(9, 9, 0, row_ptr, None, None, I32, I32, BASE0, D.HIP_R_64F))
    descr = check(hipsparse.hipsparseSpGEMM_createDescr())
    nop, alg = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, hipsparse.hipsparseSpGEMMAlg_t.HIPSPARSE_SPGEMM_DEFAULT
    one, size = ctypes.c_double(1.0), ctypes.c_size_t(0)
    estimate = hipsparse.hipsparseSpGEMM_workEstimation
    invalid, unsupported = (S.HIPSPARSE_STATUS_INVALID_VALUE,), (S.HIPSPARSE_STATUS_NOT_SUPPORTED,)
    # hipSPARSE's null checks (as cuSPARSE's): all INVALID_VALUE
    assert estimate(None, nop, nop, one, a, a, one, c, D.HIP_R_64F, alg, descr, size, None) == invalid
    assert estimate(handle, nop, nop, None, a, a, one, c, D.HIP_R_64F, alg, descr, size, None) == invalid
    assert estimate(handle, nop, nop, one, a, a, one, c, D.HIP_R_64F, alg, None, size, None) == invalid
    assert estimate(handle, nop, nop, one, a, a, one, c, D.HIP_R_64F, alg, descr, None, None) == invalid
    # A (9 x 6) B (9 x 6) do not multiply; a transpose and a compute type other than the values' are not supported
    assert estimate(handle, nop, nop, one, a, a, one, c, D.HIP_R_64F, alg, descr, size, None) == invalid
    a_t = OP.HIPSPARSE_OPERATION_TRANSPOSE
    assert estimate(handle, a_t, nop, one, a, a, one, c, D.HIP_R_64F, alg, descr, size, None) == unsupported
    assert estimate(handle, nop, nop, ctypes.c_float(1), a, a, ctypes.c_float(1), c, D.HIP_R_32F, alg, descr, size,
                    None) == unsupported
    coo = check(hipsparse.hipsparseCreateCoo(6, 9, 0, None, None, None, I32, BASE0, D.HIP_R_64F))
    assert estimate(handle, nop, nop, one, a, coo, one, c, D.HIP_R_64F, alg, descr, size, None) == unsupported
    # a COO C passes hipsparseCsrGet (rocSPARSE's csr_get checks no format); rocSPARSE's spgemm then finds its format
    assert estimate(handle, nop, nop, one, a, a, one, coo, D.HIP_R_64F, alg, descr, size, None) == unsupported
    # stages out of order: compute before the estimation ran with its buffer (C is 9 x 6 = A I)
    eye = [to_device(x) for x in (np.arange(7, dtype=np.int32), np.arange(6, dtype=np.int32), np.ones(6))]
    b = check(hipsparse.hipsparseCreateCsr(6, 6, 6, *eye, I32, I32, BASE0, D.HIP_R_64F))
    c6 = check(hipsparse.hipsparseCreateCsr(9, 6, 0, row_ptr, None, None, I32, I32, BASE0, D.HIP_R_64F))
    buffer = check(hip.hipMalloc(256))
    assert hipsparse.hipsparseSpGEMM_compute(handle, nop, nop, one, a, b, one, c6, D.HIP_R_64F, alg, descr, size,
                                             buffer) == invalid
    assert hipsparse.hipsparseSpGEMM_copy(handle, nop, nop, one, a, b, one, c6, D.HIP_R_64F, alg, descr) == invalid
    assert estimate(handle, nop, nop, one, a, b, one, c6, D.HIP_R_64F, alg, descr, size, None) == (
        S.HIPSPARSE_STATUS_SUCCESS,)
    with pytest.raises(TypeError, match="_hipsparseSpGEMMAlg_t__Base"):
        estimate(handle, nop, nop, one, a, a, one, c, D.HIP_R_64F, 0, descr, size, None)
    assert hipsparse.hipsparseSpGEMM_destroyDescr(None) == (S.HIPSPARSE_STATUS_SUCCESS,)
    assert hipsparse.hipsparseSpGEMM_destroyDescr(a) == invalid
    check(hipsparse.hipsparseSpGEMM_destroyDescr(descr))
    for d in (a, b, c, c6, coo):
        check(hipsparse.hipsparseDestroySpMat(d))
    free(row_ptr, buffer, *eye)
