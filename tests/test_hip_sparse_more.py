"""rocmath.hip.hipsparse, the families over rocmath.sparse's newer routines: preconditioners, triangular
solves with info objects, banded solvers, colouring, BSR/HYB, gemvi/gemmi, prune and the generic API's
sparse vectors, conversions, SDDMM, SpSV/SpSM -- hip-python-style programs cross-checked with SciPy and
NumPy, and hipSPARSE's status mapping of bad arguments.  Double precision in the default tier, the
others (a new numba specialisation each) under ``slow``."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
import scipy.sparse as sp
from hip_util import check, free, to_device, to_host

from rocmath.hip import hip, hipsparse

S = hipsparse.hipsparseStatus_t
OP = hipsparse.hipsparseOperation_t
NOP, TRANS = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, OP.HIPSPARSE_OPERATION_TRANSPOSE
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
BASE1 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
ROW = hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_ROW
COLUMN = hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_COLUMN
POLICY = hipsparse.hipsparseSolvePolicy_t.HIPSPARSE_SOLVE_POLICY_USE_LEVEL
COL_ORDER = hipsparse.hipsparseOrder_t.HIPSPARSE_ORDER_COL
ROW_ORDER = hipsparse.hipsparseOrder_t.HIPSPARSE_ORDER_ROW
D = hip.hipDataType
INVALID, UNSUPPORTED = (S.HIPSPARSE_STATUS_INVALID_VALUE,), (S.HIPSPARSE_STATUS_NOT_SUPPORTED,)
#: Value type, hipDataType, hipSPARSE letter and tolerance of each precision.
PRECISIONS = {"S": (np.float32, D.HIP_R_32F, 2e-4), "D": (np.float64, D.HIP_R_64F, 1e-11),
              "C": (np.complex64, D.HIP_C_32F, 2e-4), "Z": (np.complex128, D.HIP_C_64F, 1e-11)}
SLOW = [pytest.param(p, marks=pytest.mark.slow) for p in "SCZ"]


@pytest.fixture(scope="module")
def handle():
    h = check(hipsparse.hipsparseCreate())
    yield h
    check(hipsparse.hipsparseDestroy(h))


@pytest.fixture(scope="module")
def descr():
    d = check(hipsparse.hipsparseCreateMatDescr())
    yield d
    check(hipsparse.hipsparseDestroyMatDescr(d))


def fn(letter, name):
    """``hipsparse<letter><name>``."""
    return getattr(hipsparse, f"hipsparse{letter}{name}")


def values_of(rng, shape, dtype):
    v = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


def dominant(rng, m, density, dtype):
    """A sorted CSR matrix with a full, strictly dominant diagonal and a symmetric pattern."""
    pattern = sp.random(m, m, density=density, format="csr", random_state=rng)
    pattern = (pattern + pattern.T + sp.identity(m)).tocsr()
    pattern.sort_indices()
    a = sp.csr_matrix((values_of(rng, pattern.nnz, dtype), pattern.indices, pattern.indptr), shape=(m, m))
    a.setdiag(np.abs(a).sum(axis=1).A1 + 1.0)
    a.sort_indices()
    return a


def on_device(a):
    """A SciPy CSR (or CSC) matrix's values, pointer and indices (int32) on the device."""
    return to_device(a.data), to_device(a.indptr.astype(np.int32)), to_device(a.indices.astype(np.int32))


def ilu0_reference(dense, pattern):
    """ILU0 restricted to ``pattern`` (IKJ, dense): unit L strictly below, U on and above the diagonal."""
    lu = np.where(pattern, dense, 0).astype(np.complex128)
    for i in range(lu.shape[0]):
        for k in np.nonzero(pattern[i, :i])[0]:
            lu[i, k] /= lu[k, k]
            cols = np.nonzero(pattern[i, k + 1:])[0] + k + 1
            lu[i, cols] -= lu[i, k] * lu[k, cols]
    return lu


def ic0_reference(dense, pattern):
    """IC0 (A ~ L L^H) on the lower triangle of ``pattern``."""
    low = np.tril(pattern)
    lo = np.where(low, dense, 0).astype(np.complex128)
    for i in range(lo.shape[0]):
        for j in np.nonzero(low[i, :i])[0]:
            lo[i, j] = (lo[i, j] - lo[i, :j] @ np.conj(lo[j, :j])) / lo[j, j]
        lo[i, i] = np.sqrt(abs(lo[i, i] - lo[i, :i] @ np.conj(lo[i, :i])))
    return lo


def test_manifest_and_enums():
    names = set(hipsparse.MANIFEST)
    assert {"hipsparseDcsrilu02", "hipsparseXcsric02_zeroPivot", "hipsparseZbsrilu02_numericBoost",
            "hipsparseCbsrsv2_solve", "hipsparseScsrsm2_bufferSizeExt", "hipsparseDgtsv2_nopivot",
            "hipsparseZgpsvInterleavedBatch", "hipsparseCcsrcolor", "hipsparseXcsr2bsrNnz", "hipsparseZhyb2csr",
            "hipsparseDgemmi", "hipsparseSpruneCsr2csrByPercentage", "hipsparseCreateSpVec",
            "hipsparseConstSpVecGet", "hipsparseSpSV_solve", "hipsparseSpSM_analysis", "hipsparseSDDMM",
            "hipsparseDenseToSparse_convert", "hipsparseCreateConstBlockedEll", "hipsparseCooAoSGet",
            "hipsparseAxpby", "hipsparseRot"} <= names
    assert "hipsparseCpruneDense2csr" not in names  # prune is S and D only, as in hipSPARSE
    for name in names:
        assert name in hipsparse.__all__ and callable(getattr(hipsparse, name))
    assert hipsparse.hipsparseSpSVAlg_t.HIPSPARSE_SPSV_ALG_DEFAULT == 0
    assert hipsparse.hipsparseSparseToDenseAlg_t.HIPSPARSE_SPARSETODENSE_ALG_DEFAULT == 0
    assert hipsparse.hipsparseHybPartition_t.HIPSPARSE_HYB_PARTITION_MAX == 2


# --- csrilu02 / csric02 ----------------------------------------------------------------------------------


def _ilu_ic(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    a = dominant(rng, 9, 0.25, dtype)
    pattern = a.toarray() != 0
    for name, reference in (("csrilu02", ilu0_reference), ("csric02", ic0_reference)):
        dv, dp, di = on_device(a)
        info = ctypes.c_void_p()
        check(getattr(hipsparse, f"hipsparseCreate{name.capitalize()}Info")(info))
        size = ctypes.c_int(-1)
        check(fn(letter, f"{name}_bufferSize")(handle, 9, a.nnz, descr, dv, dp, di, info, size))
        assert fn(letter, f"{name}_bufferSizeExt")(handle, 9, a.nnz, descr, dv, dp, di, info) == (
            S.HIPSPARSE_STATUS_SUCCESS, size.value)
        buf = check(hip.hipMalloc(size.value))
        check(fn(letter, f"{name}_analysis")(handle, 9, a.nnz, descr, dv, dp, di, info, POLICY, buf))
        check(fn(letter, name)(handle, 9, a.nnz, descr, dv, dp, di, info, POLICY, buf))
        position = ctypes.c_int(7)
        check(fn("X", f"{name}_zeroPivot")(handle, info, position))
        assert position.value == -1
        got = sp.csr_matrix((to_host(dv, a.data), a.indices, a.indptr), shape=a.shape).toarray()
        want = reference(a.toarray(), pattern)
        if name == "csric02":  # the upper triangle is left as it was
            np.testing.assert_array_equal(np.triu(got, 1), np.triu(a.toarray(), 1))
            got = np.tril(got)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
        check(getattr(hipsparse, f"hipsparseDestroy{name.capitalize()}Info")(info))
        free(dv, dp, di, buf)


def test_csrilu02_and_csric02_match_dense_references(handle, descr):
    _ilu_ic(handle, descr, "D", 1)


@pytest.mark.parametrize("letter", SLOW)
def test_csrilu02_and_csric02_other_precisions(handle, descr, letter):
    _ilu_ic(handle, descr, letter, 2)


def test_zero_pivots_and_numeric_boost(handle, descr):
    # row 4 loses its diagonal: the analysis finds it, zeroPivot reports it (ZERO_PIVOT, the row written)
    a = dominant(np.random.default_rng(3), 8, 0.3, np.float64).tolil()
    a[4, 4] = 0
    a = sp.csr_matrix(a)
    a.eliminate_zeros()
    dv, dp, di = on_device(a)
    info = check(hipsparse.hipsparseCreateCsrilu02Info())
    size = check(hipsparse.hipsparseDcsrilu02_bufferSizeExt(handle, 8, a.nnz, descr, dv, dp, di, info))
    buf = check(hip.hipMalloc(size))
    check(hipsparse.hipsparseDcsrilu02_analysis(handle, 8, a.nnz, descr, dv, dp, di, info, POLICY, buf))
    position = ctypes.c_int(-5)
    assert hipsparse.hipsparseXcsrilu02_zeroPivot(handle, info, position) == (S.HIPSPARSE_STATUS_ZERO_PIVOT,)
    assert position.value == 4
    assert hipsparse.hipsparseXcsrilu02_zeroPivot(handle, info, None) == INVALID
    # numeric boost: a tiny pivot is replaced by boost_val (host scalars read through host pointers)
    b = sp.csr_matrix(np.array([[1e-12, 1.0], [1.0, 3.0]]))
    bv, bp, bi = on_device(b)
    info2 = check(hipsparse.hipsparseCreateCsrilu02Info())
    check(hipsparse.hipsparseDcsrilu02_numericBoost(handle, info2, 1, ctypes.c_double(1e-8), ctypes.c_double(2.0)))
    check(hipsparse.hipsparseDcsrilu02_analysis(handle, 2, 4, descr, bv, bp, bi, info2, POLICY, buf))
    check(hipsparse.hipsparseDcsrilu02(handle, 2, 4, descr, bv, bp, bi, info2, POLICY, buf))
    np.testing.assert_allclose(to_host(bv, b.data), [2.0, 1.0, 0.5, 2.5])
    # bsrilu02's boost: 0 disables it (tol and boost_val unread); enabled, a NULL tol is INVALID_VALUE
    info3 = check(hipsparse.hipsparseCreateBsrilu02Info())
    check(hipsparse.hipsparseDbsrilu02_numericBoost(handle, info3, 0, None, None))
    assert hipsparse.hipsparseDbsrilu02_numericBoost(handle, info3, 1, None, ctypes.c_double(1)) == INVALID
    check(hipsparse.hipsparseDestroyBsrilu02Info(info3))
    # rocSPARSE's statuses as hipSPARSE maps them: a negative size, a NULL size out-parameter, an enum as int
    assert hipsparse.hipsparseDcsric02_bufferSizeExt(handle, -1, a.nnz, descr, dv, dp, di, info2) == (
        S.HIPSPARSE_STATUS_INVALID_VALUE, None)
    assert hipsparse.hipsparseDcsrilu02_bufferSize(handle, 8, a.nnz, descr, dv, dp, di, info2, None) == INVALID
    with pytest.raises(TypeError, match="_hipsparseSolvePolicy_t__Base"):
        hipsparse.hipsparseDcsrilu02(handle, 8, a.nnz, descr, dv, dp, di, info2, 1, buf)
    for i in (info, info2):
        check(hipsparse.hipsparseDestroyCsrilu02Info(i))
    assert hipsparse.hipsparseXcsrilu02_zeroPivot(handle, info, position) == INVALID  # destroyed
    free(dv, dp, di, buf, bv, bp, bi)


# --- BSR: conversions, products, bsrsv2, bsrilu02 -------------------------------------------------------


def _bsr(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    m, n, bd = 7, 5, 2
    a = sp.random(m, n, density=0.35, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=(m, n))
    a.sort_indices()
    mb, nb = 4, 3
    av, ap, ai = on_device(a)
    bp, nnzb = check(hip.hipMalloc(4 * (mb + 1))), ctypes.c_int(-1)
    check(hipsparse.hipsparseXcsr2bsrNnz(handle, COLUMN, m, n, descr, ap, ai, bd, descr, bp, nnzb))
    padded = sp.bsr_matrix(sp.vstack([sp.hstack([a, sp.csr_matrix((m, 1))]), sp.csr_matrix((1, n + 1))]),
                           blocksize=(bd, bd))
    padded.sort_indices()
    assert nnzb.value == padded.indices.size
    bv, bi = check(hip.hipMalloc(np.dtype(dtype).itemsize * bd * bd * nnzb.value)), check(hip.hipMalloc(4 * nnzb.value))
    check(fn(letter, "csr2bsr")(handle, COLUMN, m, n, descr, av, ap, ai, bd, descr, bv, bp, bi))
    np.testing.assert_array_equal(to_host(bi, np.zeros(nnzb.value, np.int32)), padded.indices)
    blocks = to_host(bv, np.zeros(bd * bd * nnzb.value, dtype)).reshape(-1, bd, bd).transpose(0, 2, 1)
    np.testing.assert_array_equal(blocks, padded.data)
    alpha, beta = np.array([1.5], dtype), np.array([-0.5], dtype)
    x, y = values_of(rng, nb * bd, dtype), values_of(rng, mb * bd, dtype)
    dx, dy = to_device(x), to_device(y)
    check(fn(letter, "bsrmv")(handle, COLUMN, NOP, mb, nb, nnzb.value, alpha, descr, bv, bp, bi, bd, dx, beta, dy))
    np.testing.assert_allclose(to_host(dy, y), 1.5 * padded @ x - 0.5 * y, rtol=tol, atol=tol)
    B = np.asfortranarray(values_of(rng, (nb * bd, 3), dtype))
    dB, dC = to_device(B), to_device(np.zeros((mb * bd, 3), dtype, order="F"))
    check(fn(letter, "bsrmm")(handle, COLUMN, NOP, NOP, mb, 3, nb, nnzb.value, alpha, descr, bv, bp, bi, bd, dB,
                              nb * bd, np.zeros(1, dtype), dC, mb * bd))
    np.testing.assert_allclose(to_host(dC, np.zeros((mb * bd, 3), dtype, order="F")), 1.5 * padded @ B, rtol=tol,
                               atol=tol)
    cv, cp, ci = (check(hip.hipMalloc(s)) for s in (np.dtype(dtype).itemsize * bd * bd * nnzb.value,
                                                     4 * (mb * bd + 1), 4 * bd * bd * nnzb.value))
    check(fn(letter, "bsr2csr")(handle, COLUMN, mb, nb, descr, bv, bp, bi, bd, descr, cv, cp, ci))
    ptr = to_host(cp, np.zeros(mb * bd + 1, np.int32))
    back = sp.csr_matrix((to_host(cv, np.zeros(ptr[-1], dtype)), to_host(ci, np.zeros(ptr[-1], np.int32)), ptr),
                         shape=(mb * bd, nb * bd))
    np.testing.assert_array_equal(back.toarray(), padded.toarray())
    free(av, ap, ai, bp, bv, bi, dx, dy, dB, dC, cv, cp, ci)


def test_csr2bsr_bsrmv_bsrmm_bsr2csr(handle, descr):
    _bsr(handle, descr, "D", 4)


@pytest.mark.parametrize("letter", SLOW)
def test_bsr_other_precisions(handle, descr, letter):
    _bsr(handle, descr, letter, 5)


def _block_matrix(rng, mb, bd, dtype):
    """A BSR matrix with every diagonal block present, strictly diagonally dominant (scipy, blocks row-major)."""
    pattern = (sp.random(mb, mb, density=0.4, format="csr", random_state=rng) + sp.identity(mb)).tocsr()
    pattern.sort_indices()
    blocks = values_of(rng, (pattern.nnz, bd, bd), dtype)
    for i in range(mb):
        q = pattern.indptr[i] + np.searchsorted(pattern.indices[pattern.indptr[i]:pattern.indptr[i + 1]], i)
        blocks[q][np.diag_indices(bd)] += 3 * mb * bd
    return sp.bsr_matrix((blocks, pattern.indices, pattern.indptr), shape=(mb * bd, mb * bd))


def _bsr_solve_and_ilu(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    mb, bd = 4, 3
    b = _block_matrix(rng, mb, bd, dtype)
    nnzb = b.indices.size
    dv, dp, di = to_device(np.ascontiguousarray(b.data).reshape(-1)), to_device(b.indptr.astype(np.int32)), \
        to_device(b.indices.astype(np.int32))
    # bsrsv2: y := L^-1 alpha f with L the lower triangle (fill mode lower, the default), blocks by rows
    info = check(hipsparse.hipsparseCreateBsrsv2Info())
    args = (ROW, NOP, mb, nnzb, descr, dv, dp, di, bd, info)
    size = check(fn(letter, "bsrsv2_bufferSizeExt")(handle, *args))
    assert fn(letter, "bsrsv2_bufferSize")(handle, *args)[1] == size
    buf = check(hip.hipMalloc(max(size, 1)))
    check(fn(letter, "bsrsv2_analysis")(handle, *args, POLICY, buf))
    f = values_of(rng, mb * bd, dtype)
    df, dx = to_device(f), check(hip.hipMalloc(f.nbytes))
    check(fn(letter, "bsrsv2_solve")(handle, ROW, NOP, mb, nnzb, np.array([2.0], dtype), descr, dv, dp, di, bd, info,
                                     df, dx, POLICY, buf))
    np.testing.assert_allclose(to_host(dx, f), np.linalg.solve(np.tril(b.toarray()), 2 * f), rtol=tol, atol=tol)
    position = ctypes.c_int(5)
    check(fn("X", "bsrsv2_zeroPivot")(handle, info, position))
    assert position.value == -1
    # bsrilu02: ILU0 on the scalar pattern of the blocks
    info2 = check(hipsparse.hipsparseCreateBsrilu02Info())
    args = (ROW, mb, nnzb, descr, dv, dp, di, bd, info2)
    size = check(fn(letter, "bsrilu02_bufferSize")(handle, *args))
    buf2 = check(hip.hipMalloc(max(size, 1)))
    check(fn(letter, "bsrilu02_analysis")(handle, *args, POLICY, buf2))
    check(fn(letter, "bsrilu02")(handle, *args, POLICY, buf2))
    ones = sp.bsr_matrix((np.ones((nnzb, bd, bd)), b.indices, b.indptr), shape=b.shape).toarray() != 0
    got = sp.bsr_matrix((to_host(dv, np.ascontiguousarray(b.data).reshape(-1)).reshape(-1, bd, bd), b.indices,
                         b.indptr), shape=b.shape).toarray()
    np.testing.assert_allclose(got, ilu0_reference(b.toarray(), ones), rtol=tol, atol=tol)
    check(fn("X", "bsrilu02_zeroPivot")(handle, info2, position))
    assert position.value == -1
    # rocSPARSE's bsrsv supports no conjugate transpose: NOT_SUPPORTED; a block dimension 0: INVALID_VALUE
    assert fn(letter, "bsrsv2_analysis")(handle, ROW, OP.HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE, mb, nnzb, descr,
                                         dv, dp, di, bd, info, POLICY, buf) == UNSUPPORTED
    assert fn(letter, "bsrilu02_bufferSize")(handle, ROW, mb, nnzb, descr, dv, dp, di, 0, info2)[0] == INVALID[0]
    check(hipsparse.hipsparseDestroyBsrsv2Info(info))
    check(hipsparse.hipsparseDestroyBsrilu02Info(info2))
    free(dv, dp, di, buf, df, dx, buf2)


def test_bsrsv2_and_bsrilu02(handle, descr):
    _bsr_solve_and_ilu(handle, descr, "D", 6)


@pytest.mark.parametrize("letter", SLOW)
def test_bsrsv2_and_bsrilu02_other_precisions(handle, descr, letter):
    _bsr_solve_and_ilu(handle, descr, letter, 7)


# --- HYB, gemvi, gemmi --------------------------------------------------------------------------------------


def test_hyb_gemvi_gemmi(handle, descr):
    rng = np.random.default_rng(8)
    a = sp.random(8, 6, density=0.4, format="csr", random_state=rng)
    a.sort_indices()
    av, ap, ai = on_device(a)
    hyb = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateHybMat(hyb))
    check(hipsparse.hipsparseDcsr2hyb(handle, 8, 6, descr, av, ap, ai, hyb, 1,
                                      hipsparse.hipsparseHybPartition_t.HIPSPARSE_HYB_PARTITION_USER))
    x, y = rng.standard_normal(6), rng.standard_normal(8)
    dx, dy = to_device(x), to_device(y)
    check(hipsparse.hipsparseDhybmv(handle, NOP, ctypes.c_double(2.0), descr, hyb, dx, ctypes.c_double(1.0), dy))
    np.testing.assert_allclose(to_host(dy, y), 2 * a @ x + y, rtol=1e-13)
    cv, cp, ci = check(hip.hipMalloc(8 * a.nnz)), check(hip.hipMalloc(4 * 9)), check(hip.hipMalloc(4 * a.nnz))
    check(hipsparse.hipsparseDhyb2csr(handle, descr, hyb, cv, cp, ci))
    np.testing.assert_array_equal(to_host(cp, np.zeros(9, np.int32)), a.indptr)
    np.testing.assert_array_equal(to_host(ci, np.zeros(a.nnz, np.int32)), a.indices)
    np.testing.assert_array_equal(to_host(cv, a.data), a.data)
    check(hipsparse.hipsparseDestroyHybMat(hyb))
    assert hipsparse.hipsparseDhybmv(handle, NOP, ctypes.c_double(2.0), descr, hyb, dx, ctypes.c_double(1.0),
                                     dy) == INVALID
    # gemvi: y := alpha A x + beta y, A dense (column-major, lda > m), x sparse with 1-based indices
    A = np.asfortranarray(rng.standard_normal((10, 6)))
    ind, val = np.array([0, 2, 5], np.int32), rng.standard_normal(3)
    dA, dind, dval = to_device(A), to_device(ind + 1), to_device(val)
    size = ctypes.c_int(-1)
    check(hipsparse.hipsparseDgemvi_bufferSize(handle, NOP, 8, 6, 3, size))
    buf = check(hip.hipMalloc(max(size.value, 1)))
    check(hip.hipMemcpy(dy, y, y.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    check(hipsparse.hipsparseDgemvi(handle, NOP, 8, 6, ctypes.c_double(0.5), dA, 10, 3, dval, dind,
                                    ctypes.c_double(-1.0), dy, BASE1, buf))
    np.testing.assert_allclose(to_host(dy, y), 0.5 * A[:8, ind] @ val - y, rtol=1e-13)
    # gemmi: C := alpha A B + beta C, B (6 x 4) given in CSC
    B = sp.random(6, 4, density=0.5, format="csc", random_state=rng)
    B.sort_indices()
    bv, bp, bi = on_device(B)
    C = np.asfortranarray(rng.standard_normal((8, 4)))
    dC = to_device(C)
    check(hipsparse.hipsparseDgemmi(handle, 8, 4, 6, B.nnz, ctypes.c_double(1.5), dA, 10, bv, bp, bi,
                                    ctypes.c_double(2.0), dC, 8))
    np.testing.assert_allclose(to_host(dC, C), 1.5 * A[:8] @ B.toarray() + 2 * C, rtol=1e-13)
    free(av, ap, ai, dx, dy, cv, cp, ci, dA, dind, dval, buf, bv, bp, bi, dC)


# --- csrsm2 -------------------------------------------------------------------------------------------------


def test_csrsm2_solves_in_place(handle, descr):
    rng = np.random.default_rng(9)
    lower = sp.csr_matrix(sp.tril(dominant(rng, 7, 0.3, np.float64)))
    lower.sort_indices()
    dv, dp, di = on_device(lower)
    B = np.asfortranarray(np.vstack([rng.standard_normal((7, 3)), np.full((2, 3), 7.0)]))  # ldb 9: padding kept
    dB = to_device(B)
    info = check(hipsparse.hipsparseCreateCsrsm2Info())
    # L^T X = 2 B (the descriptor's fill mode: lower), X overwriting B; algo is ignored
    args = (1, TRANS, NOP, 7, 3, lower.nnz, ctypes.c_double(2.0), descr, dv, dp, di, dB, 9, info, POLICY)
    size = check(hipsparse.hipsparseDcsrsm2_bufferSizeExt(handle, *args))
    buf = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseDcsrsm2_analysis(handle, *args, buf))
    check(hipsparse.hipsparseDcsrsm2_solve(handle, *args, buf))
    got = to_host(dB, B)
    np.testing.assert_allclose(got[:7], np.linalg.solve(lower.toarray().T, 2 * B[:7]), rtol=1e-12)
    np.testing.assert_array_equal(got[7:], B[7:])
    position = ctypes.c_int(3)
    check(hipsparse.hipsparseXcsrsm2_zeroPivot(handle, info, position))
    assert position.value == -1
    # ldb < m: rocSPARSE's invalid_size -> INVALID_VALUE, B untouched
    args = (1, TRANS, NOP, 7, 3, lower.nnz, ctypes.c_double(2.0), descr, dv, dp, di, dB, 6, info, POLICY)
    assert hipsparse.hipsparseDcsrsm2_solve(handle, *args, buf) == INVALID
    np.testing.assert_array_equal(to_host(dB, B), got)
    check(hipsparse.hipsparseDestroyCsrsm2Info(info))
    free(dv, dp, di, dB, buf)


# --- banded solvers -----------------------------------------------------------------------------------------


def _tridiagonal(dl, d, du):
    m = d.size
    return np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:m - 1], 1)


def _banded(handle, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    m, n, ldb = 6, 2, 8
    dl, du = values_of(rng, m, dtype), values_of(rng, m, dtype)
    d = values_of(rng, m, dtype) + 4
    B = np.asfortranarray(values_of(rng, (ldb, n), dtype))
    T = _tridiagonal(dl, d, du)
    ddl, dd, ddu = to_device(dl), to_device(d), to_device(du)
    for name in ("gtsv2", "gtsv2_nopivot"):
        dB = to_device(B)
        size = check(fn(letter, f"{name}_bufferSizeExt")(handle, m, n, None, None, None, None, ldb))
        buf = check(hip.hipMalloc(max(size, 1)))
        check(fn(letter, name)(handle, m, n, ddl, dd, ddu, dB, ldb, buf))
        got = to_host(dB, B)
        np.testing.assert_allclose(got[:m], np.linalg.solve(T, B[:m]), rtol=tol, atol=tol)
        np.testing.assert_array_equal(got[m:], B[m:])
        free(dB, buf)
    # interleaved batches: entry i of system b at i * batchCount + b; the diagonals may be overwritten
    count = 3
    diags = [values_of(rng, (m, count), dtype) for _ in range(5)]
    diags[2] += 8
    x = values_of(rng, (m, count), dtype)
    for name, used in (("gtsvInterleavedBatch", diags[1:4]), ("gpsvInterleavedBatch", diags)):
        arrays = [to_device(np.ascontiguousarray(v)) for v in used]
        dx = to_device(np.ascontiguousarray(x))
        size = check(fn(letter, f"{name}_bufferSizeExt")(handle, 0, m, *([None] * (len(used) + 1)), count))
        buf = check(hip.hipMalloc(max(size, 1)))
        check(fn(letter, name)(handle, 0, m, *arrays, dx, count, buf))
        got = to_host(dx, x)
        for b in range(count):
            offsets = range(-(len(used) // 2), len(used) // 2 + 1)
            full = sum(np.diag(v[-k:, b] if k < 0 else v[:m - k, b], k) for v, k in zip(used, offsets, strict=True))
            np.testing.assert_allclose(got[:, b], np.linalg.solve(full, x[:, b]), rtol=tol * 10, atol=tol * 10)
        free(*arrays, dx, buf)
    assert fn(letter, "gtsv2")(handle, 1, n, ddl, dd, ddu, ddl, ldb, None) == INVALID  # m < 2
    free(ddl, dd, ddu)


def test_gtsv2_and_interleaved_batches(handle):
    _banded(handle, "D", 10)


@pytest.mark.parametrize("letter", SLOW)
def test_banded_other_precisions(handle, letter):
    _banded(handle, letter, 11)


# --- csrcolor -----------------------------------------------------------------------------------------------


def test_csrcolor_is_a_colouring(handle, descr):
    a = dominant(np.random.default_rng(12), 20, 0.15, np.float64)
    dv, dp, di = on_device(a)
    coloring, reordering = check(hip.hipMalloc(4 * 20)), check(hip.hipMalloc(4 * 20))
    info = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateColorInfo(info))
    ncolors = ctypes.c_int(-1)
    check(hipsparse.hipsparseDcsrcolor(handle, 20, a.nnz, descr, dv, dp, di, ctypes.c_double(1.0), ncolors, coloring,
                                       reordering, info))
    colours = to_host(coloring, np.zeros(20, np.int32))
    assert ncolors.value == len(set(colours.tolist())) and colours.min() == 0 and colours.max() == ncolors.value - 1
    coo = a.tocoo()
    off = coo.row != coo.col
    assert np.all(colours[coo.row[off]] != colours[coo.col[off]])
    order = to_host(reordering, np.zeros(20, np.int32))
    assert sorted(order.tolist()) == list(range(20))
    check(hipsparse.hipsparseDestroyColorInfo(info))
    assert hipsparse.hipsparseDcsrcolor(handle, 20, a.nnz, descr, dv, dp, di, ctypes.c_double(1.0), ncolors,
                                        coloring, reordering, info) == INVALID
    free(dv, dp, di, coloring, reordering)


# --- prune ----------------------------------------------------------------------------------------------------


def _pruned(dense, threshold):
    return sp.csr_matrix(np.where(np.abs(dense) > threshold, dense, 0))


def _read_csr(ptr, ind, val, m, n, nnz, dtype=np.float64):
    p = to_host(ptr, np.zeros(m + 1, np.int32))
    return sp.csr_matrix((to_host(val, np.zeros(nnz, dtype)), to_host(ind, np.zeros(nnz, np.int32)), p),
                         shape=(m, n))


def test_prune_dense_and_csr(handle, descr):
    rng = np.random.default_rng(13)
    A = np.asfortranarray(rng.standard_normal((6, 5)))
    dA, ptr = to_device(A), check(hip.hipMalloc(4 * 7))
    threshold = ctypes.c_double(0.6)
    size = check(hipsparse.hipsparseDpruneDense2csr_bufferSizeExt(handle, 6, 5, dA, 6, threshold, descr, None, ptr,
                                                                   None))
    buf = check(hip.hipMalloc(max(size, 1)))
    nnz = ctypes.c_int(-1)
    check(hipsparse.hipsparseDpruneDense2csrNnz(handle, 6, 5, dA, 6, threshold, descr, ptr, nnz, buf))
    want = _pruned(A, 0.6)
    assert nnz.value == want.nnz
    val, ind = check(hip.hipMalloc(8 * nnz.value)), check(hip.hipMalloc(4 * nnz.value))
    check(hipsparse.hipsparseDpruneDense2csr(handle, 6, 5, dA, 6, threshold, descr, val, ptr, ind, buf))
    got = _read_csr(ptr, ind, val, 6, 5, nnz.value)
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.toarray(), want.toarray())
    # by percentage: the threshold is the magnitude at position ceil(30 * 40 / 100) - 1 of the sorted ones
    info = check(hipsparse.hipsparseCreatePruneInfo())
    size = check(hipsparse.hipsparseDpruneDense2csrByPercentage_bufferSize(handle, 6, 5, dA, 6, 40.0, descr, None,
                                                                            ptr, None, info))
    buf2 = check(hip.hipMalloc(max(size, 1)))
    ptr2, counted = check(hip.hipMalloc(4 * 7)), np.zeros(1, np.int32)  # a numpy array is a host int* too
    check(hipsparse.hipsparseDpruneDense2csrNnzByPercentage(handle, 6, 5, dA, 6, 40.0, descr, ptr2, counted, info,
                                                            buf2))
    count = int(counted[0])
    cut = np.sort(np.abs(A).ravel())[int(np.ceil(30 * 0.4)) - 1]
    want_p = _pruned(A, cut)
    assert count == want_p.nnz
    val2, ind2 = check(hip.hipMalloc(8 * count)), check(hip.hipMalloc(4 * count))
    check(hipsparse.hipsparseDpruneDense2csrByPercentage(handle, 6, 5, dA, 6, 40.0, descr, val2, ptr2, ind2, info,
                                                         buf2))
    np.testing.assert_array_equal(_read_csr(ptr2, ind2, val2, 6, 5, count).toarray(), want_p.toarray())
    # csr -> csr, the count on the device (device pointer mode: threshold and count are device pointers)
    dptr, dtotal, dthreshold = check(hip.hipMalloc(4 * 7)), to_device(np.zeros(1, np.int32)), to_device(np.array([1.0]))
    size = check(hipsparse.hipsparseDpruneCsr2csr_bufferSizeExt(handle, 6, 5, nnz.value, descr, val, ptr, ind,
                                                                threshold, descr, None, dptr, None))
    buf3 = check(hip.hipMalloc(max(size, 1)))
    mode = hipsparse.hipsparsePointerMode_t
    check(hipsparse.hipsparseSetPointerMode(handle, mode.HIPSPARSE_POINTER_MODE_DEVICE))
    try:
        check(hipsparse.hipsparseDpruneCsr2csrNnz(handle, 6, 5, nnz.value, descr, val, ptr, ind, dthreshold, descr,
                                                  dptr, dtotal, buf3))
        total = int(to_host(dtotal, np.zeros(1, np.int32))[0])
        want_c = _pruned(A, 1.0)
        assert total == want_c.nnz
        val3, ind3 = check(hip.hipMalloc(8 * total)), check(hip.hipMalloc(4 * total))
        check(hipsparse.hipsparseDpruneCsr2csr(handle, 6, 5, nnz.value, descr, val, ptr, ind, dthreshold, descr, val3,
                                               dptr, ind3, buf3))
    finally:
        check(hipsparse.hipsparseSetPointerMode(handle, mode.HIPSPARSE_POINTER_MODE_HOST))
    np.testing.assert_array_equal(_read_csr(dptr, ind3, val3, 6, 5, total).toarray(), want_c.toarray())
    # csr -> csr by percentage (the threshold from the stored magnitudes; host count)
    size = ctypes.c_size_t(0)
    check(hipsparse.hipsparseDpruneCsr2csrByPercentage_bufferSize(handle, 6, 5, nnz.value, descr, val, ptr, ind, 50.0,
                                                                  descr, None, dptr, None, info, size))
    buf4, kept = check(hip.hipMalloc(max(size.value, 1))), ctypes.c_int(-1)
    check(hipsparse.hipsparseDpruneCsr2csrNnzByPercentage(handle, 6, 5, nnz.value, descr, val, ptr, ind, 50.0, descr,
                                                          dptr, kept, info, buf4))
    stored = want.data
    cut = np.sort(np.abs(stored))[int(np.ceil(stored.size * 0.5)) - 1]
    want_q = _pruned(want.toarray(), cut)
    assert kept.value == want_q.nnz
    val4, ind4 = check(hip.hipMalloc(8 * kept.value)), check(hip.hipMalloc(4 * kept.value))
    check(hipsparse.hipsparseDpruneCsr2csrByPercentage(handle, 6, 5, nnz.value, descr, val, ptr, ind, 50.0, descr,
                                                       val4, dptr, ind4, info, buf4))
    np.testing.assert_array_equal(_read_csr(dptr, ind4, val4, 6, 5, kept.value).toarray(), want_q.toarray())
    # NULL threshold (host mode), a percentage out of [0, 100]: INVALID_VALUE
    assert hipsparse.hipsparseDpruneDense2csrNnz(handle, 6, 5, dA, 6, None, descr, ptr, nnz, buf) == INVALID
    assert hipsparse.hipsparseDpruneCsr2csrNnzByPercentage(handle, 6, 5, nnz.value, descr, val, ptr, ind, 120.0,
                                                           descr, dptr, nnz, info, buf3) == INVALID
    check(hipsparse.hipsparseDestroyPruneInfo(info))
    free(dA, ptr, buf, val, ind, buf2, ptr2, val2, ind2, dptr, dtotal, dthreshold, buf3, val3, ind3, buf4, val4, ind4)


# --- generic API: sparse vectors --------------------------------------------------------------------------------


def test_sparse_vectors(handle):
    rng = np.random.default_rng(14)
    ind, val, y = np.array([1, 4, 6, 9], np.int32), rng.standard_normal(4), rng.standard_normal(11)
    dind, dval, dy = to_device(ind), to_device(val), to_device(y)
    vx = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateSpVec(vx, 11, 4, dind, dval, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseSpVecGet(vx) == (S.HIPSPARSE_STATUS_SUCCESS, 11, 4, int(dind), int(dval), I32, BASE0,
                                               D.HIP_R_64F)
    assert hipsparse.hipsparseConstSpVecGetValues(vx) == (S.HIPSPARSE_STATUS_SUCCESS, int(dval))
    base = ctypes.c_int(-1)
    check(hipsparse.hipsparseSpVecGetIndexBase(vx, base))
    assert base.value == BASE0
    vy = check(hipsparse.hipsparseCreateDnVec(11, dy, D.HIP_R_64F))
    const = check(hipsparse.hipsparseCreateConstSpVec(11, 4, dind, dy, I32, BASE1, D.HIP_R_64F))
    assert hipsparse.hipsparseConstSpVecGet(const)[3:] == (int(dind), int(dy), I32, BASE1, D.HIP_R_64F)
    # a const descriptor takes no setter (rocSPARSE's prototype wants the mutable one: rocmath refuses it)
    assert hipsparse.hipsparseSpVecSetValues(const, dval) == INVALID
    check(hipsparse.hipsparseDestroySpVec(const))
    # SpVV: the size query, then the product written through a host pointer
    size = check(hipsparse.hipsparseSpVV_bufferSize(handle, NOP, vx, vy, ctypes.c_double(), D.HIP_R_64F))
    buf = check(hip.hipMalloc(max(size, 1)))
    result = ctypes.c_double(0)
    check(hipsparse.hipsparseSpVV(handle, NOP, vx, vy, result, D.HIP_R_64F, buf))
    assert result.value == pytest.approx(val @ y[ind], rel=1e-14)
    assert hipsparse.hipsparseSpVV(handle, NOP, vx, vy, result, D.HIP_R_64F, None) == INVALID
    # Axpby: y := alpha x + beta y
    check(hipsparse.hipsparseAxpby(handle, ctypes.c_double(2.0), vx, ctypes.c_double(0.5), vy))
    want = 0.5 * y
    want[ind] += 2 * val
    np.testing.assert_allclose(to_host(dy, y), want, rtol=1e-14)
    # Rot: x, y[ind] := c x + s y[ind], c y[ind] - s x
    c, s = 0.6, 0.8
    check(hipsparse.hipsparseRot(handle, ctypes.c_double(c), ctypes.c_double(s), vx, vy))
    xr, yr = c * val + s * want[ind], c * want[ind] - s * val
    np.testing.assert_allclose(to_host(dval, val), xr, rtol=1e-14)
    want[ind] = yr
    np.testing.assert_allclose(to_host(dy, y), want, rtol=1e-14)
    # Gather then Scatter
    check(hip.hipMemset(dval, 0, val.nbytes))
    check(hipsparse.hipsparseGather(handle, vy, vx))
    np.testing.assert_array_equal(to_host(dval, val), want[ind])
    check(hip.hipMemset(dy, 0, y.nbytes))
    check(hipsparse.hipsparseScatter(handle, vx, vy))
    scattered = np.zeros(11)
    scattered[ind] = want[ind]
    np.testing.assert_array_equal(to_host(dy, y), scattered)
    # device pointer mode: SpVV's result is a device pointer
    dres = to_device(np.zeros(1))
    check(hipsparse.hipsparseSetPointerMode(handle, hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_DEVICE))
    try:
        check(hipsparse.hipsparseSpVV(handle, NOP, vx, vy, dres, D.HIP_R_64F, buf))
    finally:
        check(hipsparse.hipsparseSetPointerMode(handle, hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_HOST))
    assert to_host(dres, np.zeros(1))[0] == pytest.approx(want[ind] @ want[ind], rel=1e-14)
    # a dense vector of another type: rocSPARSE's not_implemented; a destroyed vector: invalid_pointer
    v32 = check(hipsparse.hipsparseCreateDnVec(11, dy, D.HIP_R_32F))
    assert hipsparse.hipsparseAxpby(handle, ctypes.c_double(1), vx, ctypes.c_double(1), v32) == UNSUPPORTED
    check(hipsparse.hipsparseDestroySpVec(vx))
    assert hipsparse.hipsparseGather(handle, vy, vx) == INVALID
    assert hipsparse.hipsparseAxpby(handle, ctypes.c_double(1), vx, ctypes.c_double(1), vy) == INVALID
    for v in (vy, v32):
        check(hipsparse.hipsparseDestroyDnVec(v))
    free(dind, dval, dy, buf, dres)


# --- generic API: conversions, descriptors of other formats, SDDMM ----------------------------------------------


def test_sparse_to_dense_and_dense_to_sparse(handle):
    rng = np.random.default_rng(15)
    a = sp.random(5, 7, density=0.4, format="csr", random_state=rng)
    a.sort_indices()
    av, ap, ai = on_device(a)
    mat = check(hipsparse.hipsparseCreateCsr(5, 7, a.nnz, ap, ai, av, I32, I32, BASE0, D.HIP_R_64F))
    dense = to_device(np.full((5, 7), 9.0))
    dn = check(hipsparse.hipsparseCreateDnMat(5, 7, 7, dense, D.HIP_R_64F, ROW_ORDER))
    alg = hipsparse.hipsparseSparseToDenseAlg_t.HIPSPARSE_SPARSETODENSE_ALG_DEFAULT
    size = check(hipsparse.hipsparseSparseToDense_bufferSize(handle, mat, dn, alg))
    buf = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseSparseToDense(handle, mat, dn, alg, buf))
    np.testing.assert_array_equal(to_host(dense, np.zeros((5, 7))), a.toarray())
    assert hipsparse.hipsparseSparseToDense(handle, mat, dn, alg, None) == INVALID
    # back to a CSC matrix in three calls: size, analysis (nnz), conversion
    cp = check(hip.hipMalloc(4 * 8))
    csc = check(hipsparse.hipsparseCreateCsc(5, 7, 0, cp, None, None, I32, I32, BASE0, D.HIP_R_64F))
    back = hipsparse.hipsparseDenseToSparseAlg_t.HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT
    size = check(hipsparse.hipsparseDenseToSparse_bufferSize(handle, dn, csc, back))
    buf2 = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseDenseToSparse_analysis(handle, dn, csc, back, buf2))
    nnz = check(hipsparse.hipsparseSpMatGetSize(csc))[2]
    assert nnz == a.nnz
    cr, cv = check(hip.hipMalloc(4 * nnz)), check(hip.hipMalloc(8 * nnz))
    check(hipsparse.hipsparseCscSetPointers(csc, cp, cr, cv))
    assert hipsparse.hipsparseDenseToSparse_convert(handle, dn, csc, back, None) == INVALID
    check(hipsparse.hipsparseDenseToSparse_convert(handle, dn, csc, back, buf2))
    want = a.tocsc()
    want.sort_indices()
    np.testing.assert_array_equal(to_host(cp, np.zeros(8, np.int32)), want.indptr)
    np.testing.assert_array_equal(to_host(cr, np.zeros(nnz, np.int32)), want.indices)
    np.testing.assert_array_equal(to_host(cv, np.zeros(nnz)), want.data)
    check(hipsparse.hipsparseDestroySpMat(mat))
    check(hipsparse.hipsparseDestroySpMat(csc))
    check(hipsparse.hipsparseDestroyDnMat(dn))
    free(av, ap, ai, dense, buf, cp, buf2, cr, cv)


def test_coo_aos_and_blocked_ell_descriptors(handle):
    rng = np.random.default_rng(16)
    a = sp.random(6, 6, density=0.4, format="coo", random_state=rng)
    aos = to_device(np.column_stack([a.row, a.col]).astype(np.int32).ravel())
    av = to_device(a.data)
    mat = check(hipsparse.hipsparseCreateCooAoS(6, 6, a.nnz, aos, av, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseCooAoSGet(mat) == (S.HIPSPARSE_STATUS_SUCCESS, 6, 6, a.nnz, int(aos), int(av), I32,
                                                 BASE0, D.HIP_R_64F)
    assert hipsparse.hipsparseSpMatGetFormat(mat)[1] == hipsparse.hipsparseFormat_t.HIPSPARSE_FORMAT_COO_AOS
    # Blocked ELL, blocks of 2 stored column-major (hipSPARSE's direction), 2 block columns per block row (slot j
    # of block row r at j * 3 + r, rocSPARSE's layout; -1 pads)
    bd, cols = 2, np.array([[0, 2], [1, -1], [2, 0]], np.int32)
    blocks = rng.standard_normal((3, 2, bd, bd))
    dense = np.zeros((6, 6))
    for r in range(3):
        for j, c in enumerate(cols[r]):
            if c >= 0:
                dense[r * bd:(r + 1) * bd, c * bd:(c + 1) * bd] += blocks[r, j]
    ell_val = np.concatenate([blocks[r, j].T.ravel() for j in range(2) for r in range(3)])
    dcol, dval = to_device(np.ascontiguousarray(cols.T).ravel()), to_device(ell_val)
    bell = check(hipsparse.hipsparseCreateBlockedEll(6, 6, bd, 4, dcol, dval, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstBlockedEllGet(bell) == (S.HIPSPARSE_STATUS_SUCCESS, 6, 6, bd, 4, int(dcol),
                                                           int(dval), I32, BASE0, D.HIP_R_64F)
    B = np.asfortranarray(rng.standard_normal((6, 3)))
    dB, dC = to_device(B), to_device(np.zeros((6, 3), order="F"))
    mB = check(hipsparse.hipsparseCreateDnMat(6, 3, 6, dB, D.HIP_R_64F, COL_ORDER))
    mC = check(hipsparse.hipsparseCreateDnMat(6, 3, 6, dC, D.HIP_R_64F, COL_ORDER))
    alg = hipsparse.hipsparseSpMMAlg_t.HIPSPARSE_SPMM_BLOCKED_ELL_ALG1
    one, zero = ctypes.c_double(1.0), ctypes.c_double(0.0)
    size = check(hipsparse.hipsparseSpMM_bufferSize(handle, NOP, NOP, one, bell, mB, zero, mC, D.HIP_R_64F, alg))
    buf = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseSpMM(handle, NOP, NOP, one, bell, mB, zero, mC, D.HIP_R_64F, alg, buf))
    np.testing.assert_allclose(to_host(dC, B), dense @ B, rtol=1e-13)
    for d in (mat, bell):
        check(hipsparse.hipsparseDestroySpMat(d))
    for d in (mB, mC):
        check(hipsparse.hipsparseDestroyDnMat(d))
    free(aos, av, dcol, dval, dB, dC, buf)


def test_sddmm(handle):
    rng = np.random.default_rng(17)
    pattern = sp.random(5, 4, density=0.5, format="csr", random_state=rng)
    pattern.sort_indices()
    cv, cp, ci = on_device(pattern)
    C = check(hipsparse.hipsparseCreateCsr(5, 4, pattern.nnz, cp, ci, cv, I32, I32, BASE0, D.HIP_R_64F))
    A, B = rng.standard_normal((5, 3)), rng.standard_normal((4, 3))  # op(B) = B^T, B row-major
    dA, dB = to_device(np.asfortranarray(A)), to_device(B)
    mA = check(hipsparse.hipsparseCreateDnMat(5, 3, 5, dA, D.HIP_R_64F, COL_ORDER))
    mB = check(hipsparse.hipsparseCreateDnMat(4, 3, 3, dB, D.HIP_R_64F, ROW_ORDER))
    alg = hipsparse.hipsparseSDDMMAlg_t.HIPSPARSE_SDDMM_ALG_DEFAULT
    args = (handle, NOP, TRANS, ctypes.c_double(2.0), mA, mB, ctypes.c_double(-1.0), C, D.HIP_R_64F, alg)
    size = check(hipsparse.hipsparseSDDMM_bufferSize(*args))
    buf = check(hip.hipMalloc(max(size, 1)))
    check(hipsparse.hipsparseSDDMM_preprocess(*args, buf))
    check(hipsparse.hipsparseSDDMM(*args, buf))
    product = A @ B.T
    coo = pattern.tocoo()
    want = 2 * product[coo.row, coo.col] - coo.data
    np.testing.assert_allclose(to_host(cv, pattern.data), want, rtol=1e-13)
    # a conjugate transpose: rocSPARSE's not_implemented
    bad = (handle, NOP, OP.HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE, *args[3:])
    assert hipsparse.hipsparseSDDMM(*bad, buf) == UNSUPPORTED
    check(hipsparse.hipsparseDestroySpMat(C))
    for d in (mA, mB):
        check(hipsparse.hipsparseDestroyDnMat(d))
    free(cv, cp, ci, dA, dB, buf)


# --- generic API: SpSV / SpSM -------------------------------------------------------------------------------


def _spsv_spsm(handle, letter, seed):
    dtype, dt, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    a = dominant(rng, 8, 0.3, dtype)
    av, ap, ai = on_device(a)
    mat = check(hipsparse.hipsparseCreateCsr(8, 8, a.nnz, ap, ai, av, I32, I32, BASE0, dt))
    fill = np.array([hipsparse.hipsparseFillMode_t.HIPSPARSE_FILL_MODE_UPPER], np.int32)
    check(hipsparse.hipsparseSpMatSetAttribute(mat, hipsparse.hipsparseSpMatAttribute_t.HIPSPARSE_SPMAT_FILL_MODE,
                                               fill, 4))
    upper = np.triu(a.toarray())
    alpha = np.array([1.5], dtype)
    x = values_of(rng, 8, dtype)
    dx, dy = to_device(x), check(hip.hipMalloc(x.nbytes))
    vx, vy = (check(hipsparse.hipsparseCreateDnVec(8, d, dt)) for d in (dx, dy))
    alg = hipsparse.hipsparseSpSVAlg_t.HIPSPARSE_SPSV_ALG_DEFAULT
    descr = ctypes.c_void_p()
    check(hipsparse.hipsparseSpSV_createDescr(descr))
    args = (handle, TRANS, alpha, mat, vx, vy, dt, alg, descr)
    size = check(hipsparse.hipsparseSpSV_bufferSize(*args))
    buf = check(hip.hipMalloc(max(size, 1)))
    assert hipsparse.hipsparseSpSV_solve(*args) == INVALID  # no analysis yet
    check(hipsparse.hipsparseSpSV_analysis(*args, buf))
    check(hipsparse.hipsparseSpSV_solve(*args))
    np.testing.assert_allclose(to_host(dy, x), np.linalg.solve(upper.T, 1.5 * x), rtol=tol, atol=tol)
    assert hipsparse.hipsparseSpSV_solve(*args[:-1], None) == INVALID
    check(hipsparse.hipsparseSpSV_destroyDescr(descr))
    # SpSM: C := op(A)^-1 alpha B, B 8 x 3 column-major, C row-major
    B = values_of(rng, (8, 3), dtype)
    dB, dC = to_device(np.asfortranarray(B)), check(hip.hipMalloc(B.nbytes))
    mB = check(hipsparse.hipsparseCreateDnMat(8, 3, 8, dB, dt, COL_ORDER))
    mC = check(hipsparse.hipsparseCreateDnMat(8, 3, 3, dC, dt, ROW_ORDER))
    sm = check(hipsparse.hipsparseSpSM_createDescr())
    salg = hipsparse.hipsparseSpSMAlg_t.HIPSPARSE_SPSM_ALG_DEFAULT
    args = (handle, NOP, NOP, alpha, mat, mB, mC, dt, salg, sm)
    size = check(hipsparse.hipsparseSpSM_bufferSize(*args))
    assert size >= 4
    buf2 = check(hip.hipMalloc(size))
    assert hipsparse.hipsparseSpSM_analysis(*args, None) == INVALID
    check(hipsparse.hipsparseSpSM_analysis(*args, buf2))
    check(hipsparse.hipsparseSpSM_solve(*args, None))  # the analysis' buffer is used
    got = to_host(dC, np.zeros((8, 3), dtype))
    np.testing.assert_allclose(got, np.linalg.solve(upper, 1.5 * B), rtol=tol, atol=tol)
    assert hipsparse.hipsparseSpSM_bufferSize(*args[:-1], None) == (S.HIPSPARSE_STATUS_INVALID_VALUE, None)
    check(hipsparse.hipsparseSpSM_destroyDescr(sm))
    assert hipsparse.hipsparseSpSM_destroyDescr(None) == (S.HIPSPARSE_STATUS_SUCCESS,)
    check(hipsparse.hipsparseDestroySpMat(mat))
    for d in (vx, vy):
        check(hipsparse.hipsparseDestroyDnVec(d))
    for d in (mB, mC):
        check(hipsparse.hipsparseDestroyDnMat(d))
    free(av, ap, ai, dx, dy, buf, dB, dC, buf2)


def test_spsv_and_spsm(handle):
    _spsv_spsm(handle, "D", 18)


@pytest.mark.parametrize("letter", SLOW)
def test_spsv_and_spsm_other_precisions(handle, letter):
    _spsv_spsm(handle, letter, 19)
