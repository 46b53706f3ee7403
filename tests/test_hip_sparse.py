"""rocmath.hip.hipsparse: hipSPARSE through hip-python's conventions, cross-checked with SciPy."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath.sparse as rs
from rocmath.hip import hip, hipsparse

S = hipsparse.hipsparseStatus_t
OP = hipsparse.hipsparseOperation_t
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
K = hip.hipMemcpyKind
D = hip.hipDataType


def check(result):
    err, rest = result[0], result[1:]
    if err != 0:
        raise RuntimeError(err.name)
    return rest[0] if len(rest) == 1 else rest


def to_device(a):
    d = check(hip.hipMalloc(a.nbytes))
    check(hip.hipMemcpy(d, a, a.nbytes, K.hipMemcpyHostToDevice))
    return d


def to_host(d, like):
    out = np.empty_like(like)
    check(hip.hipMemcpy(out, d, out.nbytes, K.hipMemcpyDeviceToHost))
    return out


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

def hip_check(call_result):
    err, result = call_result[0], call_result[1:]
    if len(result) == 1:
        result = result[0]
    if isinstance(err, hip.hipError_t) and err != hip.hipError_t.hipSuccess:
        raise RuntimeError(str(err))
    if isinstance(err, hipsparse.hipsparseStatus_t) and err != hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS:
        raise RuntimeError(str(err))
    return result

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
hip_check(hipsparse.hipsparseDestroyMatDescr(descr))
hip_check(hipsparse.hipsparseDestroy(handle))
for d in dev:
    hip_check(hip.hipFree(d))
print("ok")
'''


def test_hipsparse_program_through_the_runner(tmp_path):
    script = tmp_path / "sparse_prog.py"
    script.write_text(textwrap.dedent(PROGRAM))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-m", "rocmath.hip", str(script)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
