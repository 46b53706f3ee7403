"""rocmath.hip.hipsparse, the functions over rocSPARSE routines rocmath.sparse gained lately: bsrsm2, bsric02,
bsrxmv, the strided batches, the Const creators and getters, Csr2cscEx2, csru2csr / csr2csru, SpGEMMreuse, the
legacy csrgemm, GetGitRevision and the general BSR / compress / cscsort conversions -- hip-python-style programs
cross-checked with SciPy, NumPy and the rocmath.sparse routines underneath, hipSPARSE's statuses for bad
arguments and the Create / Destroy lifecycles.  Double precision in the default tier, the others (a new numba
specialisation each) under ``slow``."""

from __future__ import annotations

import ctypes
import inspect
import re
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from hip_util import check, free, to_device, to_host

import rocmath.sparse as rs
from rocmath.hip import hip, hipsparse

S = hipsparse.hipsparseStatus_t
OP = hipsparse.hipsparseOperation_t
NOP, TRANS = OP.HIPSPARSE_OPERATION_NON_TRANSPOSE, OP.HIPSPARSE_OPERATION_TRANSPOSE
CONJ = OP.HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
BASE1 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
I64 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_64I
ROW = hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_ROW
COLUMN = hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_COLUMN
POLICY = hipsparse.hipsparseSolvePolicy_t.HIPSPARSE_SOLVE_POLICY_NO_LEVEL
NUMERIC = hipsparse.hipsparseAction_t.HIPSPARSE_ACTION_NUMERIC
SYMBOLIC = hipsparse.hipsparseAction_t.HIPSPARSE_ACTION_SYMBOLIC
COL_ORDER = hipsparse.hipsparseOrder_t.HIPSPARSE_ORDER_COL
HOST = hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_HOST
DEVICE = hipsparse.hipsparsePointerMode_t.HIPSPARSE_POINTER_MODE_DEVICE
ALG = hipsparse.hipsparseSpGEMMAlg_t.HIPSPARSE_SPGEMM_DEFAULT
D = hip.hipDataType
SUCCESS = (S.HIPSPARSE_STATUS_SUCCESS,)
INVALID, UNSUPPORTED = (S.HIPSPARSE_STATUS_INVALID_VALUE,), (S.HIPSPARSE_STATUS_NOT_SUPPORTED,)
#: Value type, hipDataType and tolerance of each precision.
PRECISIONS = {"S": (np.float32, D.HIP_R_32F, 2e-4), "D": (np.float64, D.HIP_R_64F, 1e-11),
              "C": (np.complex64, D.HIP_C_32F, 2e-4), "Z": (np.complex128, D.HIP_C_64F, 1e-11)}
SLOW = [pytest.param(p, marks=pytest.mark.slow) for p in "SCZ"]
#: hipSPARSE's operations as rocmath.sparse's.
ROC_OPS = {NOP: rs.Operation.none, TRANS: rs.Operation.transpose}


@pytest.fixture(autouse=True)
def _frees_its_allocations(monkeypatch):
    """What a test hipMallocs and does not hipFree is freed after it: a device allocation left live
    breaks a later test of the same worker that reconfigures the devices."""
    live: set[int] = set()
    malloc, hip_free = hip.hipMalloc, hip.hipFree

    def tracked_malloc(*args, **kwargs):
        out = malloc(*args, **kwargs)
        if out[0] == hip.hipError_t.hipSuccess:
            live.add(int(out[1]))
        return out

    def tracked_free(ptr):
        live.discard(int(ptr))
        return hip_free(ptr)

    monkeypatch.setattr(hip, "hipMalloc", tracked_malloc)
    monkeypatch.setattr(hip, "hipFree", tracked_free)
    yield
    for ptr in live:
        check(hip_free(ptr))


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


@pytest.fixture
def device_mode(handle):
    """The handle in device pointer mode for one test."""
    check(hipsparse.hipsparseSetPointerMode(handle, DEVICE))
    yield handle
    check(hipsparse.hipsparseSetPointerMode(handle, HOST))


def fn(letter, name):
    """``hipsparse<letter><name>``."""
    return getattr(hipsparse, f"hipsparse{letter}{name}")


def values_of(rng, shape, dtype):
    v = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


def on_device(a, index=np.int32):
    """A SciPy CSR (or CSC) matrix's values, pointer and indices on the device."""
    return to_device(a.data), to_device(a.indptr.astype(index)), to_device(a.indices.astype(index))


def blocks_on_device(b):
    """A SciPy BSR matrix's blocks (row-major within each block), row pointer and block columns on the device."""
    return (to_device(np.ascontiguousarray(b.data).reshape(-1)), to_device(b.indptr.astype(np.int32)),
            to_device(b.indices.astype(np.int32)))


def block_matrix(rng, mb, bd, dtype, hermitian=False):
    """A BSR matrix with every diagonal block present and a symmetric block pattern, strictly diagonally dominant
    (Hermitian positive definite with ``hermitian``)."""
    pattern = sp.random(mb, mb, density=0.35, format="csr", random_state=rng)
    pattern = (pattern + pattern.T + sp.identity(mb)).tocsr()
    pattern.sort_indices()
    dense = np.zeros((mb * bd, mb * bd), dtype)
    for i in range(mb):
        for j in pattern.indices[pattern.indptr[i]:pattern.indptr[i + 1]]:
            dense[i * bd:(i + 1) * bd, j * bd:(j + 1) * bd] = values_of(rng, (bd, bd), dtype)
    if hermitian:
        dense = dense + dense.conj().T
    dense[np.diag_indices(mb * bd)] = np.abs(dense).sum(axis=1) + 1
    b = sp.bsr_matrix(dense, blocksize=(bd, bd))
    # every block of the pattern stored (zeros included), sorted
    full = sp.bsr_matrix((np.stack([dense[i * bd:(i + 1) * bd, j * bd:(j + 1) * bd]
                                    for i in range(mb) for j in pattern.indices[pattern.indptr[i]:
                                                                                 pattern.indptr[i + 1]]]),
                          pattern.indices, pattern.indptr), shape=b.shape)
    return full


def ic0_reference(dense, pattern):
    """IC0 (A ~ L L^H) on the lower triangle of ``pattern``."""
    low = np.tril(pattern)
    lo = np.where(low, dense, 0).astype(np.complex128)
    for i in range(lo.shape[0]):
        for j in np.nonzero(low[i, :i])[0]:
            lo[i, j] = (lo[i, j] - lo[i, :j] @ np.conj(lo[j, :j])) / lo[j, j]
        lo[i, i] = np.sqrt(abs(lo[i, i] - lo[i, :i] @ np.conj(lo[i, :i])))
    return lo


# --- the manifest ---------------------------------------------------------------------------------------------

#: hipsparse.h's prototypes of some of the new functions (hip-python's parameter names and order).
PROTOTYPES = {
    "hipsparseDbsrsm2_solve": "handle dirA transA transX mb nrhs nnzb alpha descrA bsrSortedValA bsrSortedRowPtrA "
                              "bsrSortedColIndA blockDim info B ldb X ldx policy pBuffer",
    "hipsparseZbsric02_bufferSize": "handle dirA mb nnzb descrA bsrValA bsrRowPtrA bsrColIndA blockDim info "
                                    "pBufferSizeInBytes",
    "hipsparseCbsrxmv": "handle dir trans sizeOfMask mb nb nnzb alpha descr bsrVal bsrMaskPtr bsrRowPtr bsrEndPtr "
                        "bsrColInd blockDim x beta y",
    "hipsparseCsrSetStridedBatch": "spMatDescr batchCount offsetsBatchStride columnsValuesBatchStride",
    "hipsparseDnMatGetStridedBatch": "dnMatDescr batchCount batchStride",
    "hipsparseCreateConstCsr": "spMatDescr rows cols nnz csrRowOffsets csrColInd csrValues csrRowOffsetsType "
                               "csrColIndType idxBase valueType",
    "hipsparseCsr2cscEx2": "handle m n nnz csrVal csrRowPtr csrColInd cscVal cscColPtr cscRowInd valType copyValues "
                           "idxBase alg buffer",
    "hipsparseScsru2csr_bufferSizeExt": "handle m n nnz csrVal csrRowPtr csrColInd info pBufferSizeInBytes",
    "hipsparseSpGEMMreuse_nnz": "handle opA opB matA matB matC alg spgemmDescr bufferSize2 externalBuffer2 "
                                "bufferSize3 externalBuffer3 bufferSize4 externalBuffer4",
    "hipsparseGetGitRevision": "handle rev",
    "hipsparseXcsrgemmNnz": "handle transA transB m n k descrA nnzA csrRowPtrA csrColIndA descrB nnzB csrRowPtrB "
                            "csrColIndB descrC csrRowPtrC nnzTotalDevHostPtr",
    "hipsparseZcsr2csr_compress": "handle m n descrA csrValA csrColIndA csrRowPtrA nnzA nnzPerRow csrValC csrColIndC "
                                  "csrRowPtrC tol",
    "hipsparseXgebsr2gebsrNnz": "handle dirA mb nb nnzb descrA bsrRowPtrA bsrColIndA rowBlockDimA colBlockDimA descrC "
                                "bsrRowPtrC rowBlockDimC colBlockDimC nnzTotalDevHostPtr buffer",
    "hipsparseXcscsort": "handle m n nnz descrA cscColPtr cscRowInd P pBuffer",
}


def _header_names():
    """The functions hipsparse.h of the mirrored hipSPARSE declares (None when the mirror is not here)."""
    try:
        text = subprocess.run(["git", "-C", "/work/.mirror/ROCm+hipSPARSE/repo", "show",
                               "HEAD:library/include/hipsparse.h"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"HIPSPARSE_EXPORT\s+(?:DEPRECATED_CUDA_\w+\([^)]*\)\s*)?[\w\s*]*?\b(hipsparse\w+)\s*\(",
                          text))


def test_manifest_signatures_and_the_header():
    names = set(hipsparse.MANIFEST)
    for letter in "SDCZ":
        assert {f"hipsparse{letter}{x}" for x in (
            "bsrsm2_bufferSize", "bsrsm2_analysis", "bsrsm2_solve", "bsric02_bufferSize", "bsric02_analysis",
            "bsric02", "bsrxmv", "csr2csru", "csru2csr", "csru2csr_bufferSizeExt", "csrgemm", "csr2gebsr",
            "csr2gebsr_bufferSize", "gebsr2csr", "gebsr2gebsc", "gebsr2gebsc_bufferSize", "gebsr2gebsr",
            "gebsr2gebsr_bufferSize", "csr2csr_compress", "nnz_compress")} <= names
    assert {"hipsparseXbsrsm2_zeroPivot", "hipsparseXbsric02_zeroPivot", "hipsparseCreateBsrsm2Info",
            "hipsparseDestroyBsric02Info", "hipsparseCsrSetStridedBatch", "hipsparseCooSetStridedBatch",
            "hipsparseSpMatGetStridedBatch", "hipsparseDnMatSetStridedBatch", "hipsparseCsr2cscEx2_bufferSize",
            "hipsparseCreateCsru2csrInfo", "hipsparseSpGEMMreuse_copy", "hipsparseGetGitRevision",
            "hipsparseXcsrgemmNnz", "hipsparseXcsr2gebsrNnz", "hipsparseXgebsr2gebsrNnz", "hipsparseXcscsort",
            "hipsparseXcscsort_bufferSizeExt", "hipsparseCreateConstDnMat"} <= names
    for name in names:
        assert name in hipsparse.__all__ and callable(getattr(hipsparse, name))
    for name, params in PROTOTYPES.items():
        assert list(inspect.signature(getattr(hipsparse, name)).parameters) == params.split(), name
    # the Const functions are rocSPARSE's const creators and getters
    assert hipsparse.FUNCTIONS["hipsparseCreateConstCsc"].roc == "create_const_csc_descr"
    assert hipsparse.FUNCTIONS["hipsparseConstDnMatGetValues"].roc == "const_dnmat_get_values"
    declared = _header_names()
    if declared is not None:
        assert declared <= set(dir(hipsparse)), sorted(declared - set(dir(hipsparse)))


# --- bsrsm2 / bsric02 / bsrxmv ---------------------------------------------------------------------------------


def _bsrsm2(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    mb, bd, nrhs = 4, 3, 2
    m = mb * bd
    b = block_matrix(rng, mb, bd, dtype)
    nnzb = b.indices.size
    dv, dp, di = blocks_on_device(b)
    lower = np.tril(b.toarray())
    info = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateBsrsm2Info(info))
    roc_handle, roc_descr, roc_info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    alpha = np.array([1.5], dtype)
    for trans_a, trans_x in ((NOP, NOP), (TRANS, NOP), (NOP, TRANS)):
        args = (ROW, trans_a, trans_x, mb, nrhs, nnzb, descr, dv, dp, di, bd, info)
        size = ctypes.c_int(-1)
        check(fn(letter, "bsrsm2_bufferSize")(handle, *args, size))
        # the size rocmath.sparse's bsrsm_buffer_size gives (an int: hipSPARSE's int* cast)
        assert size.value == getattr(rs, f"{letter.lower()}bsrsm_buffer_size")(
            roc_handle, rs.Direction.row, ROC_OPS[trans_a], ROC_OPS[trans_x], mb, nrhs, nnzb, roc_descr, int(dv),
            int(dp), int(di), bd, roc_info)
        buf = check(hip.hipMalloc(max(size.value, 4)))
        check(fn(letter, "bsrsm2_analysis")(handle, *args, POLICY, buf))
        op_a = lower.T if trans_a == TRANS else lower
        rhs = values_of(rng, (m, nrhs), dtype)  # op(B) = rhs, column-major m x nrhs or nrhs x m
        B = np.asfortranarray(rhs.T if trans_x == TRANS else rhs)
        ld = B.shape[0]
        dB, dX = to_device(B), to_device(np.zeros_like(B))
        check(fn(letter, "bsrsm2_solve")(handle, ROW, trans_a, trans_x, mb, nrhs, nnzb, alpha, descr, dv, dp, di, bd,
                                         info, dB, ld, dX, ld, POLICY, buf))
        X = to_host(dX, B)
        got = X.T if trans_x == TRANS else X
        np.testing.assert_allclose(op_a @ got, 1.5 * rhs, rtol=tol * 10, atol=tol * 10)
        free(buf, dB, dX)
    position = ctypes.c_int(7)
    check(hipsparse.hipsparseXbsrsm2_zeroPivot(handle, info, position))
    assert position.value == -1
    # hipSPARSE's null check of the size; rocSPARSE's block dimension 0, conjugate transposes (not implemented)
    args = (ROW, NOP, NOP, mb, nrhs, nnzb, descr, dv, dp, di)
    assert fn(letter, "bsrsm2_bufferSize")(handle, *args, bd, info, None) == INVALID
    assert fn(letter, "bsrsm2_bufferSize")(handle, *args, 0, info)[0] == INVALID[0]
    buf = check(hip.hipMalloc(1 << 12))
    assert fn(letter, "bsrsm2_analysis")(handle, ROW, CONJ, NOP, mb, nrhs, nnzb, descr, dv, dp, di, bd, info, POLICY,
                                         buf) == UNSUPPORTED
    with pytest.raises(TypeError):
        fn(letter, "bsrsm2_analysis")(handle, 0, NOP, NOP, mb, nrhs, nnzb, descr, dv, dp, di, bd, info, POLICY, buf)
    check(hipsparse.hipsparseDestroyBsrsm2Info(info))
    # the destroyed info's address designates nothing: rocSPARSE's invalid_pointer
    assert hipsparse.hipsparseXbsrsm2_zeroPivot(handle, info, position) == INVALID
    rs.destroy_mat_info(roc_info)
    rs.destroy_mat_descr(roc_descr)
    rs.destroy_handle(roc_handle)
    free(dv, dp, di, buf)


def test_bsrsm2_against_numpy(handle, descr):
    _bsrsm2(handle, descr, "D", 1)


@pytest.mark.parametrize("letter", SLOW)
def test_bsrsm2_other_precisions(handle, descr, letter):
    _bsrsm2(handle, descr, letter, 2)


def _bsric02(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    mb, bd = 4, 2
    b = block_matrix(rng, mb, bd, dtype, hermitian=True)
    nnzb = b.indices.size
    blocks = np.ascontiguousarray(b.data).reshape(-1)
    dv, dp, di = blocks_on_device(b)
    info = check(hipsparse.hipsparseCreateBsric02Info())
    args = (ROW, mb, nnzb, descr, dv, dp, di, bd, info)
    size = check(fn(letter, "bsric02_bufferSize")(handle, *args))
    assert isinstance(size, int) and size > 0
    buf = check(hip.hipMalloc(size))
    check(fn(letter, "bsric02_analysis")(handle, *args, POLICY, buf))
    check(fn(letter, "bsric02")(handle, *args, POLICY, buf))
    position = ctypes.c_int(7)
    check(hipsparse.hipsparseXbsric02_zeroPivot(handle, info, position))
    assert position.value == -1
    got = sp.bsr_matrix((to_host(dv, blocks).reshape(-1, bd, bd), b.indices, b.indptr), shape=b.shape).toarray()
    dense = b.toarray()
    pattern = sp.bsr_matrix((np.ones((nnzb, bd, bd)), b.indices, b.indptr), shape=b.shape).toarray() != 0
    np.testing.assert_allclose(np.tril(got), ic0_reference(dense, pattern), rtol=tol, atol=tol)
    np.testing.assert_array_equal(np.triu(got, 1), np.triu(dense, 1))  # the upper triangle is left as it was
    # hipSPARSE's null check of the size; rocSPARSE's negative mb
    assert fn(letter, "bsric02_bufferSize")(handle, *args, None) == INVALID
    assert fn(letter, "bsric02_bufferSize")(handle, ROW, -1, nnzb, descr, dv, dp, di, bd, info)[0] == INVALID[0]
    check(hipsparse.hipsparseDestroyBsric02Info(info))
    free(dv, dp, di, buf)


def test_bsric02_against_a_dense_ic0(handle, descr):
    _bsric02(handle, descr, "D", 3)


@pytest.mark.parametrize("letter", SLOW)
def test_bsric02_other_precisions(handle, descr, letter):
    _bsric02(handle, descr, letter, 4)


def test_bsric02_zero_pivot_of_a_missing_diagonal_block(handle, descr):
    # block row 1 stores no diagonal block: the analysis finds it, the query (blocking) reports it
    indptr, indices = np.array([0, 1, 2, 4]), np.array([0, 0, 0, 2])
    blocks = np.tile(np.eye(2) * 4, (4, 1, 1))
    dv, dp, di = (to_device(x) for x in (blocks.reshape(-1), indptr.astype(np.int32), indices.astype(np.int32)))
    info = check(hipsparse.hipsparseCreateBsric02Info())
    args = (ROW, 3, 4, descr, dv, dp, di, 2, info)
    buf = check(hip.hipMalloc(check(hipsparse.hipsparseDbsric02_bufferSize(handle, *args))))
    check(hipsparse.hipsparseDbsric02_analysis(handle, *args, POLICY, buf))
    position = ctypes.c_int(-7)
    assert hipsparse.hipsparseXbsric02_zeroPivot(handle, info, position) == (S.HIPSPARSE_STATUS_ZERO_PIVOT,)
    assert position.value == 1
    # hipSPARSE reads the position through a host pointer in host pointer mode: NULL is INVALID_VALUE
    assert hipsparse.hipsparseXbsric02_zeroPivot(handle, info, None) == INVALID
    check(hipsparse.hipsparseDestroyBsric02Info(info))
    free(dv, dp, di, buf)


def _bsrxmv(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    mb, nb, bd = 5, 4, 2
    pattern = sp.random(mb, nb, density=0.5, format="csr", random_state=rng)
    pattern.sort_indices()
    b = sp.bsr_matrix((values_of(rng, (pattern.nnz, bd, bd), dtype), pattern.indices, pattern.indptr),
                      shape=(mb * bd, nb * bd))
    dv, _, di = blocks_on_device(b)
    # each block row's blocks from bsrRowPtr[i] to bsrEndPtr[i]: the last block of rows 0 and 3 left out
    end = b.indptr[1:].copy()
    for i in (0, 3):
        if end[i] > b.indptr[i]:
            end[i] -= 1
    used = np.isin(np.arange(b.indices.size), [q for i in range(mb) for q in range(b.indptr[i], end[i])])
    mask = np.array([3, 0, 4], np.int32)  # block rows 1 and 2 are not touched
    dstart, dend, dmask = to_device(b.indptr[:-1].astype(np.int32)), to_device(end.astype(np.int32)), to_device(mask)
    x, y = values_of(rng, nb * bd, dtype), values_of(rng, mb * bd, dtype)
    dx, dy = to_device(x), to_device(y)
    alpha, beta = np.array([2.0], dtype), np.array([-0.5], dtype)
    check(fn(letter, "bsrxmv")(handle, COLUMN, NOP, mask.size, mb, nb, b.indices.size, alpha, descr, dv, dmask, dstart,
                               dend, di, bd, dx, beta, dy))
    want = y.copy()
    rows = np.concatenate([np.arange(i * bd, (i + 1) * bd) for i in mask])
    # the blocks were stored row-major: read by columns (COLUMN) each is its transpose
    kept = sp.bsr_matrix((b.data.transpose(0, 2, 1) * used[:, None, None], b.indices, b.indptr),
                         shape=b.shape).toarray()
    want[rows] = (2.0 * kept @ x - 0.5 * y)[rows]
    np.testing.assert_allclose(to_host(dy, y), want, rtol=tol, atol=tol)
    # rocSPARSE's bsrxmv: operation none and blocks above 1 x 1 only (not implemented), a negative mask size
    args = (mask.size, mb, nb, b.indices.size, alpha, descr, dv, dmask, dstart, dend, di)
    assert fn(letter, "bsrxmv")(handle, COLUMN, TRANS, *args, bd, dx, beta, dy) == UNSUPPORTED
    assert fn(letter, "bsrxmv")(handle, COLUMN, NOP, *args, 1, dx, beta, dy) == UNSUPPORTED
    assert fn(letter, "bsrxmv")(handle, COLUMN, NOP, -1, *args[1:], bd, dx, beta, dy) == INVALID
    free(dv, di, dstart, dend, dmask, dx, dy)


def test_bsrxmv_against_numpy(handle, descr):
    _bsrxmv(handle, descr, "D", 5)


@pytest.mark.parametrize("letter", SLOW)
def test_bsrxmv_other_precisions(handle, descr, letter):
    _bsrxmv(handle, descr, letter, 6)


# --- generic API: strided batches and const descriptors ---------------------------------------------------------


def test_strided_batches_through_a_batched_spmm(handle):
    """C_i := alpha A_i B_i + beta C_i for two CSR entries (hipsparseCsrSetStridedBatch) and two dense ones
    (hipsparseDnMatSetStridedBatch), against NumPy."""
    rng = np.random.default_rng(8)
    m, k, n, count = 6, 5, 3, 2
    mats = [sp.random(m, k, density=0.4, format="csr", random_state=rng) for _ in range(count)]
    for a in mats:
        a.sort_indices()
    nnz = max(a.nnz for a in mats)
    # entries padded to the same nnz (the padding: explicit zeros in the last row's column 0)
    ptrs, cols, vals = [], [], []
    for a in mats:
        pad = nnz - a.nnz
        ptr = a.indptr.copy()
        ptr[-1] += pad
        ptrs.append(ptr)
        cols.append(np.concatenate([a.indices, np.zeros(pad, np.int32)]))
        vals.append(np.concatenate([a.data, np.zeros(pad)]))
    dp, di, dv = (to_device(np.concatenate(x).astype(t)) for x, t in ((ptrs, np.int32), (cols, np.int32),
                                                                       (vals, np.float64)))
    A = check(hipsparse.hipsparseCreateCsr(m, k, nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_64F))
    count_out = ctypes.c_int(-1)
    check(hipsparse.hipsparseSpMatGetStridedBatch(A, count_out))
    assert count_out.value == 1
    check(hipsparse.hipsparseCsrSetStridedBatch(A, count, m + 1, nnz))
    assert hipsparse.hipsparseSpMatGetStridedBatch(A) == (S.HIPSPARSE_STATUS_SUCCESS, count)
    Bs = [np.asfortranarray(rng.standard_normal((k, n))) for _ in range(count)]
    Cs = [np.asfortranarray(rng.standard_normal((m, n))) for _ in range(count)]
    dB = to_device(np.concatenate([b.reshape(-1, order="F") for b in Bs]))
    dC = to_device(np.concatenate([c.reshape(-1, order="F") for c in Cs]))
    B = check(hipsparse.hipsparseCreateDnMat(k, n, k, dB, D.HIP_R_64F, COL_ORDER))
    C = check(hipsparse.hipsparseCreateDnMat(m, n, m, dC, D.HIP_R_64F, COL_ORDER))
    assert hipsparse.hipsparseDnMatGetStridedBatch(B) == (S.HIPSPARSE_STATUS_SUCCESS, 1, 0)
    check(hipsparse.hipsparseDnMatSetStridedBatch(B, count, k * n))
    check(hipsparse.hipsparseDnMatSetStridedBatch(C, count, m * n))
    got_count, got_stride = ctypes.c_int(-1), ctypes.c_int64(-1)
    check(hipsparse.hipsparseDnMatGetStridedBatch(C, got_count, got_stride))
    assert (got_count.value, got_stride.value) == (count, m * n)
    alpha, beta = ctypes.c_double(1.5), ctypes.c_double(-0.5)
    alg = hipsparse.hipsparseSpMMAlg_t.HIPSPARSE_SPMM_ALG_DEFAULT
    args = (handle, NOP, NOP, alpha, A, B, beta, C, D.HIP_R_64F, alg)
    size = check(hipsparse.hipsparseSpMM_bufferSize(*args))
    buf = check(hip.hipMalloc(max(size, 4)))
    check(hipsparse.hipsparseSpMM(*args, buf))
    got = to_host(dC, np.zeros(count * m * n))
    for i in range(count):
        want = 1.5 * mats[i] @ Bs[i] - 0.5 * Cs[i]
        np.testing.assert_allclose(got[i * m * n:(i + 1) * m * n].reshape((m, n), order="F"), want, rtol=1e-13)
    # rocsparse_auxiliary.cpp's checks: a count below 1, a negative stride, a dense stride below ld * cols
    assert hipsparse.hipsparseCsrSetStridedBatch(A, 0, m + 1, nnz) == INVALID
    assert hipsparse.hipsparseSpMatSetStridedBatch(A, 0) == INVALID
    assert hipsparse.hipsparseDnMatSetStridedBatch(C, 2, m * n - 1) == INVALID
    assert hipsparse.hipsparseSpMatGetStridedBatch(None) == (S.HIPSPARSE_STATUS_INVALID_VALUE, None)
    assert hipsparse.hipsparseSpMatGetStridedBatch(A, None) == INVALID
    coo = check(hipsparse.hipsparseCreateCoo(m, k, 0, None, None, None, I32, BASE0, D.HIP_R_64F))
    check(hipsparse.hipsparseCooSetStridedBatch(coo, 3, 7))
    check(hipsparse.hipsparseSpMatSetStridedBatch(coo, 4))
    assert hipsparse.hipsparseSpMatGetStridedBatch(coo) == (S.HIPSPARSE_STATUS_SUCCESS, 4)
    assert hipsparse.hipsparseCooSetStridedBatch(coo, 2, -1) == INVALID
    for d in (A, coo):
        check(hipsparse.hipsparseDestroySpMat(d))
    for d in (B, C):
        check(hipsparse.hipsparseDestroyDnMat(d))
    free(dp, di, dv, dB, dC, buf)


def test_const_descriptors(handle):
    """The Const creators make rocSPARSE's const descriptors: their Const getters give the arrays, the mutable
    getters null ones (rocSPARSE sets only the const pointers), setters and outputs refuse them; products read
    them."""
    a = sp.random(7, 5, density=0.4, format="csr", random_state=9)
    dv, dp, di = on_device(a)
    x, y = np.arange(5.0), np.ones(7)
    dx, dy = to_device(x), to_device(y)
    A = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateConstCsr(A, 7, 5, a.nnz, dp, di, dv, I32, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstCsrGet(A) == (S.HIPSPARSE_STATUS_SUCCESS, 7, 5, a.nnz, int(dp), int(di), int(dv),
                                                 I32, I32, BASE0, D.HIP_R_64F)
    assert hipsparse.hipsparseCsrGet(A)[4:7] == (None, None, None)
    assert hipsparse.hipsparseConstSpMatGetValues(A) == (S.HIPSPARSE_STATUS_SUCCESS, int(dv))
    assert hipsparse.hipsparseCsrSetStridedBatch(A, 1, 0, 0) == INVALID
    assert hipsparse.hipsparseSpMatSetValues(A, dv) == INVALID
    X = check(hipsparse.hipsparseCreateConstDnVec(5, dx, D.HIP_R_64F))
    Y = check(hipsparse.hipsparseCreateDnVec(7, dy, D.HIP_R_64F))
    const_y = check(hipsparse.hipsparseCreateConstDnVec(7, dy, D.HIP_R_64F))
    assert hipsparse.hipsparseConstDnVecGet(const_y) == (S.HIPSPARSE_STATUS_SUCCESS, 7, int(dy), D.HIP_R_64F)
    one, zero = ctypes.c_double(1.0), ctypes.c_double(0.0)
    alg = hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    size = check(hipsparse.hipsparseSpMV_bufferSize(handle, NOP, one, A, X, zero, Y, D.HIP_R_64F, alg))
    buf = check(hip.hipMalloc(max(size, 4)))
    check(hipsparse.hipsparseSpMV(handle, NOP, one, A, X, zero, Y, D.HIP_R_64F, alg, buf))
    np.testing.assert_allclose(to_host(dy, y), a @ x, rtol=1e-14)
    # a const y is no output
    assert hipsparse.hipsparseSpMV(handle, NOP, one, A, X, zero, const_y, D.HIP_R_64F, alg, buf) == INVALID
    # CSC, COO, blocked ELL, sparse vectors, dense matrices
    csc = check(hipsparse.hipsparseCreateConstCsc(5, 7, a.nnz, dp, di, dv, I32, I32, BASE1, D.HIP_R_64F))
    assert hipsparse.hipsparseConstCscGet(csc)[4:] == (int(dp), int(di), int(dv), I32, I32, BASE1, D.HIP_R_64F)
    coo = check(hipsparse.hipsparseCreateConstCoo(7, 5, a.nnz, dp, di, dv, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstCooGet(coo)[4:7] == (int(dp), int(di), int(dv))
    bell = check(hipsparse.hipsparseCreateConstBlockedEll(8, 8, 2, 4, di, dv, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstBlockedEllGet(bell) == (S.HIPSPARSE_STATUS_SUCCESS, 8, 8, 2, 4, int(di), int(dv),
                                                           I32, BASE0, D.HIP_R_64F)
    assert hipsparse.hipsparseBlockedEllGet(bell)[5:7] == (None, None)
    vec = check(hipsparse.hipsparseCreateConstSpVec(9, 3, di, dv, I32, BASE0, D.HIP_R_64F))
    assert hipsparse.hipsparseConstSpVecGet(vec) == (S.HIPSPARSE_STATUS_SUCCESS, 9, 3, int(di), int(dv), I32, BASE0,
                                                     D.HIP_R_64F)
    assert hipsparse.hipsparseConstSpVecGetValues(vec) == (S.HIPSPARSE_STATUS_SUCCESS, int(dv))
    dn = check(hipsparse.hipsparseCreateConstDnMat(2, 3, 2, dv, D.HIP_R_64F, COL_ORDER))
    assert hipsparse.hipsparseConstDnMatGet(dn) == (S.HIPSPARSE_STATUS_SUCCESS, 2, 3, 2, int(dv), D.HIP_R_64F,
                                                    COL_ORDER)
    assert hipsparse.hipsparseConstDnMatGetValues(dn) == (S.HIPSPARSE_STATUS_SUCCESS, int(dv))
    assert hipsparse.hipsparseDnMatGetValues(dn) == (S.HIPSPARSE_STATUS_SUCCESS, None)
    assert hipsparse.hipsparseDnMatSetStridedBatch(dn, 1, 0) == INVALID
    # the const getters read mutable descriptors too; rocSPARSE's checks (a negative size) stay
    assert hipsparse.hipsparseConstDnVecGetValues(Y) == (S.HIPSPARSE_STATUS_SUCCESS, int(dy))
    assert hipsparse.hipsparseCreateConstDnVec(-1, dx, D.HIP_R_64F) == (S.HIPSPARSE_STATUS_INVALID_VALUE, None)
    assert hipsparse.hipsparseConstCsrGet(None)[0] == S.HIPSPARSE_STATUS_INVALID_VALUE
    with pytest.raises(TypeError):
        hipsparse.hipsparseCreateConstCsr(7, 5, a.nnz, dp, di, dv, 2, I32, BASE0, D.HIP_R_64F)
    for d in (A, csc, coo, bell):
        check(hipsparse.hipsparseDestroySpMat(d))
    check(hipsparse.hipsparseDestroySpVec(vec))
    for d in (X, Y, const_y):
        check(hipsparse.hipsparseDestroyDnVec(d))
    check(hipsparse.hipsparseDestroyDnMat(dn))
    free(dv, dp, di, dx, dy, buf)


# --- Csr2cscEx2, csru2csr / csr2csru, GetGitRevision --------------------------------------------------------------


def _csr2csc_ex2(handle, letter):
    dtype, hip_type, _ = PRECISIONS[letter]
    rng = np.random.default_rng(10)
    a = sp.random(6, 8, density=0.4, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    dv, dp, di = on_device(a)
    cv, cp, ci = (check(hip.hipMalloc(s)) for s in (max(a.data.nbytes, 4), 4 * 9, max(4 * a.nnz, 4)))
    alg = hipsparse.hipsparseCsr2CscAlg_t.HIPSPARSE_CSR2CSC_ALG1
    args = (handle, 6, 8, a.nnz, dv, dp, di, cv, cp, ci, hip_type, NUMERIC, BASE0, alg)
    size = ctypes.c_size_t(0)
    check(hipsparse.hipsparseCsr2cscEx2_bufferSize(*args, size))
    roc = rs.create_handle()
    assert size.value == rs.csr2csc_buffer_size(roc, 6, 8, a.nnz, int(dp), int(di), rs.Action.numeric)
    rs.destroy_handle(roc)
    buf = check(hip.hipMalloc(max(size.value, 4)))
    check(hipsparse.hipsparseCsr2cscEx2(*args, buf))
    want = a.tocsc()
    want.sort_indices()
    np.testing.assert_array_equal(to_host(cp, np.zeros(9, np.int32)), want.indptr)
    np.testing.assert_array_equal(to_host(ci, np.zeros(a.nnz, np.int32)), want.indices)
    np.testing.assert_array_equal(to_host(cv, want.data), want.data)
    free(dv, dp, di, cv, cp, ci, buf)
    return args


def test_csr2csc_ex2_against_scipy(handle):
    args = _csr2csc_ex2(handle, "D")
    # hipSPARSE's switch on valType: the four floating types only (its size query ignores the type)
    bad = (*args[:10], D.HIP_R_16F, *args[11:])
    assert hipsparse.hipsparseCsr2cscEx2(*bad, None) == UNSUPPORTED
    assert hipsparse.hipsparseCsr2cscEx2(*args[:10], D.HIP_R_32I, *args[11:], None) == UNSUPPORTED
    assert hipsparse.hipsparseCsr2cscEx2_bufferSize(*bad)[0] == S.HIPSPARSE_STATUS_SUCCESS
    with pytest.raises(TypeError):
        hipsparse.hipsparseCsr2cscEx2(*args[:10], 1, *args[11:], None)
    with pytest.raises(TypeError):
        hipsparse.hipsparseCsr2cscEx2(*args[:13], 1, None)
    # rocSPARSE's checks: a negative size; a null size pointer
    assert hipsparse.hipsparseCsr2cscEx2_bufferSize(args[0], -1, *args[2:])[0] == S.HIPSPARSE_STATUS_INVALID_VALUE
    assert hipsparse.hipsparseCsr2cscEx2_bufferSize(*args, None) == INVALID


@pytest.mark.parametrize("letter", SLOW)
def test_csr2csc_ex2_other_precisions(handle, letter):
    _csr2csc_ex2(handle, letter)


def _unsorted(rng, m, n, dtype):
    """A sorted CSR matrix and the same rows with their entries shuffled."""
    a = sp.random(m, n, density=0.45, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    a.sort_indices()
    order = np.concatenate([a.indptr[i] + rng.permutation(a.indptr[i + 1] - a.indptr[i]) for i in range(m)])
    return a, a.indices[order].astype(np.int32), a.data[order]


def _csru2csr(handle, descr, letter, seed):
    dtype = PRECISIONS[letter][0]
    rng = np.random.default_rng(seed)
    m, n = 7, 9
    a, cols, vals = _unsorted(rng, m, n, dtype)
    dv, dp, di = to_device(vals), to_device(a.indptr.astype(np.int32)), to_device(cols)
    info = ctypes.c_void_p()
    check(hipsparse.hipsparseCreateCsru2csrInfo(info))
    size = check(fn(letter, "csru2csr_bufferSizeExt")(handle, m, n, a.nnz, dv, dp, di, info))
    roc = rs.create_handle()
    assert size == max(rs.csrsort_buffer_size(roc, m, n, a.nnz, int(dp), int(di)), a.nnz * np.dtype(dtype).itemsize)
    rs.destroy_handle(roc)
    buf = check(hip.hipMalloc(size))
    check(fn(letter, "csru2csr")(handle, m, n, a.nnz, descr, dv, dp, di, info, buf))
    np.testing.assert_array_equal(to_host(di, cols), a.indices)
    np.testing.assert_array_equal(to_host(dv, vals), a.data)
    # csr2csru scatters the entries back by the permutation csru2csr kept in the info: the caller's order
    check(fn(letter, "csr2csru")(handle, m, n, a.nnz, descr, dv, dp, di, info, buf))
    np.testing.assert_array_equal(to_host(di, cols), cols)
    np.testing.assert_array_equal(to_host(dv, vals), vals)
    check(hipsparse.hipsparseDestroyCsru2csrInfo(info))
    free(dv, dp, di, buf)


def test_csru2csr_and_csr2csru_round_trip(handle, descr):
    _csru2csr(handle, descr, "D", 11)


@pytest.mark.parametrize("letter", SLOW)
def test_csru2csr_other_precisions(handle, descr, letter):
    _csru2csr(handle, descr, letter, 12)


def test_csru2csr_statuses_and_info_lifecycle(handle, descr):
    rng = np.random.default_rng(13)
    a, cols, vals = _unsorted(rng, 5, 6, np.float64)
    dv, dp, di = to_device(vals), to_device(a.indptr.astype(np.int32)), to_device(cols)
    info = check(hipsparse.hipsparseCreateCsru2csrInfo())
    buf = check(hip.hipMalloc(1 << 12))
    # csr2csru before csru2csr: the info holds no permutation
    assert hipsparse.hipsparseDcsr2csru(handle, 5, 6, a.nnz, descr, dv, dp, di, info, buf) == INVALID
    # hipSPARSE's own checks: the handle, negative sizes, a non-empty quick return, null arrays and buffer
    assert hipsparse.hipsparseDcsru2csr_bufferSizeExt(None, 5, 6, a.nnz, dv, dp, di, info)[0] == INVALID[0]
    assert hipsparse.hipsparseDcsru2csr_bufferSizeExt(handle, -1, 6, a.nnz, dv, dp, di, info)[0] == INVALID[0]
    assert hipsparse.hipsparseDcsru2csr_bufferSizeExt(handle, 0, 6, 0, None, None, None, None) == (
        S.HIPSPARSE_STATUS_SUCCESS, 4)
    assert hipsparse.hipsparseDcsru2csr_bufferSizeExt(handle, 0, 6, 3, dv, dp, di, info)[0] == INVALID[0]
    assert hipsparse.hipsparseDcsru2csr_bufferSizeExt(handle, 5, 6, a.nnz, dv, dp, None, info)[0] == INVALID[0]
    assert hipsparse.hipsparseDcsru2csr(handle, 5, 6, a.nnz, descr, dv, dp, di, info, None) == INVALID
    assert hipsparse.hipsparseDcsru2csr(handle, 5, 6, a.nnz, None, dv, dp, di, info, buf) == INVALID
    assert hipsparse.hipsparseDcsru2csr(handle, 5, 0, 0, descr, None, None, None, None, None) == SUCCESS
    # the round trip: sorted, then back to the caller's order
    check(hipsparse.hipsparseDcsru2csr(handle, 5, 6, a.nnz, descr, dv, dp, di, info, buf))
    np.testing.assert_array_equal(to_host(di, cols), a.indices)
    check(hipsparse.hipsparseDcsr2csru(handle, 5, 6, a.nnz, descr, dv, dp, di, info, buf))
    np.testing.assert_array_equal(to_host(di, cols), cols)
    np.testing.assert_array_equal(to_host(dv, vals), vals)
    # a permutation of another size: csr2csru refuses it; csru2csr makes a new one
    assert hipsparse.hipsparseDcsr2csru(handle, 5, 6, a.nnz - 1, descr, dv, dp, di, info, buf) == INVALID
    # Destroy: NULL is a no-op, another object is refused, the info (and its permutation) goes
    assert hipsparse.hipsparseDestroyCsru2csrInfo(None) == SUCCESS
    assert hipsparse.hipsparseDestroyCsru2csrInfo(descr) == INVALID
    assert hipsparse.hipsparseCreateCsru2csrInfo(None) == INVALID
    check(hipsparse.hipsparseDestroyCsru2csrInfo(info))
    assert hipsparse.hipsparseDcsr2csru(handle, 5, 6, a.nnz, descr, dv, dp, di, info, buf) == INVALID
    free(dv, dp, di, buf)


def test_git_revision(handle):
    rev = bytearray(64)
    check(hipsparse.hipsparseGetGitRevision(handle, rev))
    text = bytes(rev).split(b"\0")[0].decode()
    roc = rs.create_handle()
    v, roc_rev = rs.get_version(roc), rs.get_git_rev(roc)
    rs.destroy_handle(roc)
    # hipSPARSE's format: "<its revision> (rocSPARSE <major>.<minor>.<patch>-<rocSPARSE's revision>)"
    assert text == (f"{hipsparse.hipsparseVersionTweak} (rocSPARSE {v // 100000}.{v // 100 % 1000}.{v % 100}-"
                    f"{roc_rev})")
    version = check(hipsparse.hipsparseGetVersion(handle))
    assert version == 300101
    buffer = ctypes.create_string_buffer(64)
    check(hipsparse.hipsparseGetGitRevision(handle, buffer))
    assert buffer.value.decode() == text
    assert hipsparse.hipsparseGetGitRevision(None, rev) == (S.HIPSPARSE_STATUS_NOT_INITIALIZED,)
    assert hipsparse.hipsparseGetGitRevision(handle, None) == INVALID
    assert hipsparse.hipsparseGetGitRevision(handle, bytearray(8)) == INVALID  # C would overrun it


# --- legacy csrgemm, SpGEMMreuse --------------------------------------------------------------------------------


def _csrgemm(handle, descr, letter, seed, device):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    a = sp.random(6, 5, density=0.4, format="csr", random_state=rng)
    b = sp.random(5, 7, density=0.4, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    b = sp.csr_matrix((values_of(rng, b.nnz, dtype), b.indices, b.indptr), shape=b.shape)
    want = sp.csr_matrix(abs(a) @ abs(b))
    want.sort_indices()
    av, ap, ai = on_device(a)
    bv, bp, bi = on_device(b)
    cp = check(hip.hipMalloc(4 * 7))
    args = (handle, NOP, NOP, 6, 7, 5, descr, a.nnz, ap, ai, descr, b.nnz, bp, bi, descr, cp)
    if device:
        total = check(hip.hipMalloc(4))
        check(hipsparse.hipsparseXcsrgemmNnz(*args, total))
        nnz = int(to_host(total, np.zeros(1, np.int32))[0])
        free(total)
    else:
        count = ctypes.c_int(-1)
        check(hipsparse.hipsparseXcsrgemmNnz(*args, count))
        nnz = count.value
    assert nnz == want.nnz
    np.testing.assert_array_equal(to_host(cp, np.zeros(7, np.int32)), want.indptr)
    cv, ci = check(hip.hipMalloc(max(np.dtype(dtype).itemsize * nnz, 4))), check(hip.hipMalloc(max(4 * nnz, 4)))
    check(fn(letter, "csrgemm")(handle, NOP, NOP, 6, 7, 5, descr, a.nnz, av, ap, ai, descr, b.nnz, bv, bp, bi, descr,
                                cv, cp, ci))
    got = sp.csr_matrix((to_host(cv, np.zeros(nnz, dtype)), to_host(ci, np.zeros(nnz, np.int32)), want.indptr),
                        shape=(6, 7))
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_allclose(got.toarray(), (a @ b).toarray(), rtol=tol, atol=tol)
    free(av, ap, ai, bv, bp, bi, cp, cv, ci)


def test_legacy_csrgemm_against_scipy(handle, descr):
    _csrgemm(handle, descr, "D", 14, device=False)


def test_legacy_csrgemm_device_pointer_mode(device_mode, descr):
    # hipSPARSE puts its alpha = 1 in device memory and the count is written to the device
    _csrgemm(device_mode, descr, "D", 15, device=True)


@pytest.mark.parametrize("letter", SLOW)
def test_legacy_csrgemm_other_precisions(handle, descr, letter):
    _csrgemm(handle, descr, letter, 16, device=False)


def test_legacy_csrgemm_statuses(handle, descr):
    a = sp.random(4, 4, density=0.5, format="csr", random_state=17)
    av, ap, ai = on_device(a)
    cp = check(hip.hipMalloc(4 * 5))
    count = ctypes.c_int(-1)
    args = (4, 4, 4, descr, a.nnz, ap, ai, descr, a.nnz, ap, ai, descr, cp)
    # rocSPARSE's csrgemm: transposes not implemented; a negative size; a null handle (hipSPARSE asks its pointer
    # mode first: rocSPARSE's invalid_handle)
    assert hipsparse.hipsparseXcsrgemmNnz(handle, TRANS, NOP, *args, count) == UNSUPPORTED
    assert hipsparse.hipsparseXcsrgemmNnz(handle, NOP, NOP, -1, *args[1:], count) == INVALID
    assert hipsparse.hipsparseXcsrgemmNnz(None, NOP, NOP, *args, count) == INVALID
    assert hipsparse.hipsparseDcsrgemm(handle, NOP, TRANS, 4, 4, 4, descr, a.nnz, av, ap, ai, descr, a.nnz, av, ap, ai,
                                       descr, av, cp, ai) == UNSUPPORTED
    free(av, ap, ai, cp)


def _reuse_operands(rng, dtype, itype):
    a = sp.random(7, 5, density=0.35, format="csr", random_state=rng)
    b = sp.random(5, 6, density=0.35, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    b = sp.csr_matrix((values_of(rng, b.nnz, dtype), b.indices, b.indptr), shape=b.shape)
    return a, b


def _spgemm_reuse(handle, letter, itype, device, seed):
    """cuSPARSE's SpGEMMreuse sequence: C := alpha A B + beta C, then new values of A and a second compute."""
    dtype, hip_type, tol = PRECISIONS[letter]
    index = np.int64 if itype == I64 else np.int32
    rng = np.random.default_rng(seed)
    a, b = _reuse_operands(rng, dtype, itype)
    owned, mats = [], []
    for m in (a, b):
        arrays = [to_device(x) for x in (m.indptr.astype(index), m.indices.astype(index), m.data)]
        owned += arrays
        mats.append(check(hipsparse.hipsparseCreateCsr(*m.shape, m.nnz, *arrays, itype, itype, BASE0, hip_type)))
    matA, matB = mats
    c_ptr = check(hip.hipMalloc(np.dtype(index).itemsize * 8))
    matC = check(hipsparse.hipsparseCreateCsr(7, 6, 0, c_ptr, None, None, itype, itype, BASE0, hip_type))
    spgemm = ctypes.c_void_p()
    check(hipsparse.hipsparseSpGEMM_createDescr(spgemm))
    stage = (handle, NOP, NOP, matA, matB, matC, ALG, spgemm)
    size1 = ctypes.c_size_t(0)
    check(hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage, size1, None))
    buf1 = check(hip.hipMalloc(size1.value))
    check(hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage, size1, buf1))
    sizes = [ctypes.c_size_t(0) for _ in range(3)]
    check(hipsparse.hipsparseSpGEMMreuse_nnz(*stage, sizes[0], None, sizes[1], None, sizes[2], None))
    assert sizes[0].value == 4 and sizes[2].value == size1.value
    bufs = [check(hip.hipMalloc(s.value)) for s in sizes]
    check(hipsparse.hipsparseSpGEMMreuse_nnz(*stage, sizes[0], bufs[0], sizes[1], bufs[1], sizes[2], bufs[2]))
    assert [s.value for s in sizes] == [4, sizes[1].value, size1.value]  # left as they were
    free(buf1)  # buffer1 may go after SpGEMMreuse_nnz (its contents were copied to buffer4)
    rows, cols, nnz = check(hipsparse.hipsparseSpMatGetSize(matC))
    structure = sp.csr_matrix(abs(a) @ abs(b))
    structure.sort_indices()
    assert (rows, cols, nnz) == (7, 6, structure.nnz)
    c_cols = check(hip.hipMalloc(max(np.dtype(index).itemsize * nnz, 4)))
    old = values_of(rng, nnz, dtype)
    c_vals = to_device(old)
    check(hipsparse.hipsparseCsrSetPointers(matC, c_ptr, c_cols, c_vals))
    size5 = check(hipsparse.hipsparseSpGEMMreuse_copy(*stage, None))
    buf5 = check(hip.hipMalloc(size5))
    check(hipsparse.hipsparseSpGEMMreuse_copy(*stage, ctypes.c_size_t(size5), buf5))
    np.testing.assert_array_equal(to_host(c_ptr, np.zeros(8, index)), structure.indptr)
    np.testing.assert_array_equal(to_host(c_cols, np.zeros(nnz, index)), structure.indices)
    alpha, beta = np.array([1.5], dtype), np.array([0.25], dtype)
    if device:
        alpha, beta = to_device(alpha), to_device(beta)
        check(hipsparse.hipsparseSetPointerMode(handle, DEVICE))
    compute = (handle, NOP, NOP, alpha, matA, matB, beta, matC, hip_type, ALG, spgemm)
    try:
        check(hipsparse.hipsparseSpGEMMreuse_compute(*compute))
        pattern = sp.csr_matrix((old, structure.indices, structure.indptr), shape=structure.shape)
        got = sp.csr_matrix((to_host(c_vals, old), structure.indices, structure.indptr), shape=structure.shape)
        np.testing.assert_allclose(got.toarray(), 1.5 * (a @ b).toarray() + 0.25 * pattern.toarray(), rtol=tol,
                                   atol=tol)
        # new values of A, the same structure: compute again (C's values now the first result)
        first = got.copy()
        a2 = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
        check(hip.hipMemcpy(owned[2], a2.data, a2.data.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
        check(hipsparse.hipsparseSpGEMMreuse_compute(*compute))
        got = sp.csr_matrix((to_host(c_vals, old), structure.indices, structure.indptr), shape=structure.shape)
        np.testing.assert_allclose(got.toarray(), 1.5 * (a2 @ b).toarray() + 0.25 * first.toarray(), rtol=tol,
                                   atol=tol)
        assert check(hipsparse.hipsparseCsrGet(matC))[3:6] == (int(c_ptr), int(c_cols), int(c_vals))
    finally:
        check(hipsparse.hipsparseSetPointerMode(handle, HOST))
    if device:
        free(alpha, beta)
    check(hipsparse.hipsparseSpGEMM_destroyDescr(spgemm))
    for d in (matA, matB, matC):
        check(hipsparse.hipsparseDestroySpMat(d))
    free(*owned, *bufs, buf5, c_ptr, c_cols, c_vals)


def test_spgemm_reuse_against_scipy(handle):
    _spgemm_reuse(handle, "D", I32, device=False, seed=18)


def test_spgemm_reuse_device_scalars_and_64_bit_indices(handle):
    _spgemm_reuse(handle, "D", I64, device=True, seed=19)


@pytest.mark.parametrize("letter", SLOW)
def test_spgemm_reuse_other_precisions(handle, letter):
    _spgemm_reuse(handle, letter, I32, device=False, seed=20)


@pytest.mark.parametrize("device", (False, True))
def test_spgemm_copy_with_beta_zero_ignores_what_c_held(handle, device):
    """SpGEMM_copy ends with hipSPARSE's axpby, which scales C's values by beta first: beta == 0 writes zeros, so
    C's values may hold anything (NaN here) before the copy, in either pointer mode."""
    rng = np.random.default_rng(28)
    a, b = _reuse_operands(rng, np.float64, I32)
    owned, mats = [], []
    for m in (a, b):
        arrays = [to_device(x) for x in (m.indptr.astype(np.int32), m.indices.astype(np.int32), m.data)]
        owned += arrays
        mats.append(check(hipsparse.hipsparseCreateCsr(*m.shape, m.nnz, *arrays, I32, I32, BASE0, D.HIP_R_64F)))
    c_ptr = check(hip.hipMalloc(4 * 8))
    matC = check(hipsparse.hipsparseCreateCsr(7, 6, 0, c_ptr, None, None, I32, I32, BASE0, D.HIP_R_64F))
    spgemm = check(hipsparse.hipsparseSpGEMM_createDescr())
    alpha, beta = (to_device(np.array([v])) for v in (2.0, 0.0)) if device else (ctypes.c_double(2.0),
                                                                                 ctypes.c_double(0.0))
    check(hipsparse.hipsparseSetPointerMode(handle, DEVICE if device else HOST))
    args = (handle, NOP, NOP, alpha, *mats, beta, matC, D.HIP_R_64F, ALG, spgemm)
    size1 = check(hipsparse.hipsparseSpGEMM_workEstimation(*args, None))
    buf1 = check(hip.hipMalloc(size1))
    check(hipsparse.hipsparseSpGEMM_workEstimation(*args, ctypes.c_size_t(size1), buf1))
    size2 = check(hipsparse.hipsparseSpGEMM_compute(*args, None))
    buf2 = check(hip.hipMalloc(size2))
    check(hipsparse.hipsparseSpGEMM_compute(*args, ctypes.c_size_t(size2), buf2))
    nnz = check(hipsparse.hipsparseSpMatGetSize(matC))[2]
    c_cols, c_vals = check(hip.hipMalloc(4 * nnz)), to_device(np.full(nnz, np.nan))
    check(hipsparse.hipsparseCsrSetPointers(matC, c_ptr, c_cols, c_vals))
    check(hipsparse.hipsparseSpGEMM_copy(*args))
    check(hipsparse.hipsparseSetPointerMode(handle, HOST))
    if device:
        free(alpha, beta)
    ptr, cols = to_host(c_ptr, np.zeros(8, np.int32)), to_host(c_cols, np.zeros(nnz, np.int32))
    got = sp.csr_matrix((to_host(c_vals, np.zeros(nnz)), cols, ptr), shape=(7, 6))
    np.testing.assert_allclose(got.toarray(), 2.0 * (a @ b).toarray(), rtol=1e-14)
    check(hipsparse.hipsparseSpGEMM_destroyDescr(spgemm))
    for d in (*mats, matC):
        check(hipsparse.hipsparseDestroySpMat(d))
    free(*owned, c_ptr, c_cols, c_vals, buf1, buf2)


def test_spgemm_reuse_statuses(handle):
    a = sp.random(4, 4, density=0.5, format="csr", random_state=21)
    arrays = [to_device(x) for x in (a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data)]
    matA = check(hipsparse.hipsparseCreateCsr(4, 4, a.nnz, *arrays, I32, I32, BASE0, D.HIP_R_64F))
    c_ptr = check(hip.hipMalloc(4 * 5))
    matC = check(hipsparse.hipsparseCreateCsr(4, 4, 0, c_ptr, None, None, I32, I32, BASE0, D.HIP_R_64F))
    spgemm = check(hipsparse.hipsparseSpGEMM_createDescr())
    stage = (handle, NOP, NOP, matA, matA, matC, ALG, spgemm)
    size = ctypes.c_size_t(0)
    buf = check(hip.hipMalloc(1 << 12))
    # hipSPARSE's null checks (cuSPARSE's handling): INVALID_VALUE
    assert hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage[:5], None, *stage[6:], size, None) == INVALID
    assert hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage, None, None) == INVALID
    assert hipsparse.hipsparseSpGEMMreuse_nnz(None, *stage[1:], size, None, size, None, size, None) == INVALID
    assert hipsparse.hipsparseSpGEMMreuse_nnz(*stage, size, buf, size, None, size, None) == INVALID  # some buffers
    assert hipsparse.hipsparseSpGEMMreuse_copy(*stage[:7], None, size, None) == INVALID
    assert hipsparse.hipsparseSpGEMMreuse_compute(handle, NOP, NOP, None, matA, matA, ctypes.c_double(0), matC,
                                                  D.HIP_R_64F, ALG, spgemm) == INVALID
    # stages out of order: nnz before workEstimation had a buffer, copy before nnz, compute before copy
    assert hipsparse.hipsparseSpGEMMreuse_nnz(*stage, size, buf, size, buf, size, buf) == INVALID
    check(hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage, size, None))
    assert hipsparse.hipsparseSpGEMMreuse_copy(*stage, size, buf) == INVALID
    one = ctypes.c_double(1.0)
    assert hipsparse.hipsparseSpGEMMreuse_compute(handle, NOP, NOP, one, matA, matA, one, matC, D.HIP_R_64F, ALG,
                                                  spgemm) == INVALID
    # rocSPARSE's spgemm: transposes are not implemented
    assert hipsparse.hipsparseSpGEMMreuse_workEstimation(handle, TRANS, *stage[2:], size, None) == UNSUPPORTED
    with pytest.raises(TypeError):
        hipsparse.hipsparseSpGEMMreuse_workEstimation(*stage[:6], 0, spgemm, size, None)
    check(hipsparse.hipsparseSpGEMM_destroyDescr(spgemm))
    for d in (matA, matC):
        check(hipsparse.hipsparseDestroySpMat(d))
    free(*arrays, c_ptr, buf)


# --- general BSR, compression, cscsort --------------------------------------------------------------------------


def _padded(a, rows, cols):
    """``a`` (CSR) zero-padded to ``rows x cols``."""
    indptr = np.concatenate([a.indptr, np.full(rows - a.shape[0], a.indptr[-1])])
    return sp.csr_matrix((a.data, a.indices, indptr), shape=(rows, cols))


def _block_values(bsr, direction):
    """A SciPy BSR matrix's blocks as rocSPARSE stores them: each row-major (ROW) or column-major (COLUMN)."""
    data = bsr.data if direction == ROW else bsr.data.transpose(0, 2, 1)
    return np.ascontiguousarray(data).reshape(-1)


def _gebsr(handle, descr, letter, seed):
    dtype, _, tol = PRECISIONS[letter]
    rng = np.random.default_rng(seed)
    m, n, rbd, cbd = 7, 8, 2, 3
    mb, nb = 4, 3
    a = sp.random(m, n, density=0.3, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    a.sort_indices()
    want = _padded(a, mb * rbd, nb * cbd).tobsr(blocksize=(rbd, cbd))
    want.sort_indices()
    av, ap, ai = on_device(a)
    size = check(fn(letter, "csr2gebsr_bufferSize")(handle, COLUMN, m, n, descr, av, ap, ai, rbd, cbd))
    buf = check(hip.hipMalloc(max(size, 4)))
    bp, nnzb = check(hip.hipMalloc(4 * (mb + 1))), ctypes.c_int(-1)
    check(hipsparse.hipsparseXcsr2gebsrNnz(handle, COLUMN, m, n, descr, ap, ai, descr, bp, rbd, cbd, nnzb, buf))
    assert nnzb.value == want.indices.size
    bv = check(hip.hipMalloc(np.dtype(dtype).itemsize * rbd * cbd * nnzb.value))
    bi = check(hip.hipMalloc(4 * nnzb.value))
    check(fn(letter, "csr2gebsr")(handle, COLUMN, m, n, descr, av, ap, ai, descr, bv, bp, bi, rbd, cbd, buf))
    np.testing.assert_array_equal(to_host(bp, np.zeros(mb + 1, np.int32)), want.indptr)
    np.testing.assert_array_equal(to_host(bi, np.zeros(nnzb.value, np.int32)), want.indices)
    blocks = _block_values(want, COLUMN)
    np.testing.assert_array_equal(to_host(bv, blocks), blocks)
    # gebsr2csr: every element of every block
    cv, cp, ci = (check(hip.hipMalloc(s)) for s in (blocks.nbytes, 4 * (mb * rbd + 1), 4 * blocks.size))
    check(fn(letter, "gebsr2csr")(handle, COLUMN, mb, nb, descr, bv, bp, bi, rbd, cbd, descr, cv, cp, ci))
    ptr = to_host(cp, np.zeros(mb * rbd + 1, np.int32))
    back = sp.csr_matrix((to_host(cv, blocks), to_host(ci, np.zeros(blocks.size, np.int32)), ptr),
                         shape=(mb * rbd, nb * cbd))
    assert back.nnz == blocks.size
    np.testing.assert_array_equal(back.toarray(), want.toarray())
    # gebsr2gebsc: the transpose's block structure, each block copied as it is
    size = check(fn(letter, "gebsr2gebsc_bufferSize")(handle, mb, nb, nnzb.value, bv, bp, bi, rbd, cbd))
    tbuf = check(hip.hipMalloc(max(size, 4)))
    sv, sr, sc = (check(hip.hipMalloc(s)) for s in (blocks.nbytes, 4 * nnzb.value, 4 * (nb + 1)))
    check(fn(letter, "gebsr2gebsc")(handle, mb, nb, nnzb.value, bv, bp, bi, rbd, cbd, sv, sr, sc, NUMERIC, BASE0,
                                    tbuf))
    order = sp.csr_matrix((np.arange(nnzb.value) + 1, want.indices, want.indptr), shape=(mb, nb)).tocsc()
    order.sort_indices()
    np.testing.assert_array_equal(to_host(sc, np.zeros(nb + 1, np.int32)), order.indptr)
    np.testing.assert_array_equal(to_host(sr, np.zeros(nnzb.value, np.int32)), order.indices)
    per_block = blocks.reshape(nnzb.value, -1)
    np.testing.assert_array_equal(to_host(sv, blocks).reshape(nnzb.value, -1), per_block[order.data - 1])
    # gebsr2gebsr: the same matrix in 3 x 2 blocks
    rc, cc = 3, 2
    mbc, nbc = -(-mb * rbd // rc), -(-nb * cbd // cc)
    size = check(fn(letter, "gebsr2gebsr_bufferSize")(handle, COLUMN, mb, nb, nnzb.value, descr, bv, bp, bi, rbd, cbd,
                                                        rc, cc))
    gbuf = check(hip.hipMalloc(max(size, 4)))
    gp, total = check(hip.hipMalloc(4 * (mbc + 1))), ctypes.c_int(-1)
    check(hipsparse.hipsparseXgebsr2gebsrNnz(handle, COLUMN, mb, nb, nnzb.value, descr, bp, bi, rbd, cbd, descr, gp,
                                             rc, cc, total, gbuf))
    expect = _padded(sp.csr_matrix(want.toarray()), mbc * rc, nbc * cc).tobsr(blocksize=(rc, cc))
    expect.sort_indices()
    # a block of C is stored when it overlaps a stored block of A, whatever its values
    stored = sp.bsr_matrix((np.ones_like(want.data, dtype=np.float64), want.indices, want.indptr), shape=want.shape)
    overlap = _padded(sp.csr_matrix(stored.toarray()), mbc * rc, nbc * cc).tobsr(blocksize=(rc, cc))
    assert total.value == overlap.indices.size
    gv = check(hip.hipMalloc(np.dtype(dtype).itemsize * rc * cc * total.value))
    gi = check(hip.hipMalloc(4 * total.value))
    check(fn(letter, "gebsr2gebsr")(handle, COLUMN, mb, nb, nnzb.value, descr, bv, bp, bi, rbd, cbd, descr, gv, gp, gi,
                                    rc, cc, gbuf))
    gptr = to_host(gp, np.zeros(mbc + 1, np.int32))
    gblocks = to_host(gv, np.zeros(rc * cc * total.value, dtype)).reshape(-1, cc, rc).transpose(0, 2, 1)
    got = sp.bsr_matrix((gblocks, to_host(gi, np.zeros(total.value, np.int32)), gptr), shape=(mbc * rc, nbc * cc))
    np.testing.assert_array_equal(got.toarray(), expect.toarray())
    # rocSPARSE's checks: a block dimension 0, a negative size
    assert fn(letter, "csr2gebsr_bufferSize")(handle, COLUMN, m, n, descr, av, ap, ai, 0, cbd)[0] == INVALID[0]
    assert hipsparse.hipsparseXcsr2gebsrNnz(handle, COLUMN, -1, n, descr, ap, ai, descr, bp, rbd, cbd, nnzb,
                                            buf) == INVALID
    assert fn(letter, "gebsr2gebsc")(handle, mb, nb, nnzb.value, bv, bp, bi, rbd, 0, sv, sr, sc, NUMERIC, BASE0,
                                     tbuf) == INVALID
    assert fn(letter, "gebsr2gebsr_bufferSize")(handle, COLUMN, mb, nb, nnzb.value, descr, bv, bp, bi, rbd, cbd, rc,
                                                cc, None) == INVALID
    assert fn(letter, "gebsr2csr")(handle, COLUMN, mb, nb, descr, bv, bp, bi, rbd, cbd, descr, cv, None, ci) == INVALID
    free(av, ap, ai, buf, bp, bv, bi, cv, cp, ci, tbuf, sv, sr, sc, gbuf, gp, gv, gi)
    del tol


def test_gebsr_conversions_against_scipy(handle, descr):
    _gebsr(handle, descr, "D", 22)


@pytest.mark.parametrize("letter", SLOW)
def test_gebsr_conversions_other_precisions(handle, descr, letter):
    _gebsr(handle, descr, letter, 23)


def _compress(handle, descr, letter, seed, device=False):
    dtype = PRECISIONS[letter][0]
    rng = np.random.default_rng(seed)
    m, n = 6, 7
    a = sp.random(m, n, density=0.5, format="csr", random_state=rng)
    a = sp.csr_matrix((values_of(rng, a.nnz, dtype), a.indices, a.indptr), shape=a.shape)
    a.sort_indices()
    tol = 0.4 + 0.1j if np.dtype(dtype).kind == "c" else 0.4  # the real part is the threshold
    keep = np.abs(a.data) > 0.4
    kept = sp.csr_matrix((a.data * keep, a.indices.copy(), a.indptr.copy()), shape=a.shape)
    kept.eliminate_zeros()  # in place: on copies of A's index arrays
    av, ap, ai = on_device(a)
    per_row = check(hip.hipMalloc(4 * m))
    if device:
        total = check(hip.hipMalloc(4))
        check(fn(letter, "nnz_compress")(handle, m, descr, av, ap, per_row, total, tol))
        nnz = int(to_host(total, np.zeros(1, np.int32))[0])
        free(total)
    else:
        count = ctypes.c_int(-1)
        check(fn(letter, "nnz_compress")(handle, m, descr, av, ap, per_row, count, tol))
        nnz = count.value
    assert nnz == kept.nnz
    np.testing.assert_array_equal(to_host(per_row, np.zeros(m, np.int32)), np.diff(kept.indptr))
    cv, ci, cp = check(hip.hipMalloc(np.dtype(dtype).itemsize * nnz)), check(hip.hipMalloc(4 * nnz)), \
        check(hip.hipMalloc(4 * (m + 1)))
    check(fn(letter, "csr2csr_compress")(handle, m, n, descr, av, ai, ap, a.nnz, per_row, cv, ci, cp, tol))
    np.testing.assert_array_equal(to_host(cp, np.zeros(m + 1, np.int32)), kept.indptr)
    np.testing.assert_array_equal(to_host(ci, np.zeros(nnz, np.int32)), kept.indices)
    np.testing.assert_array_equal(to_host(cv, np.zeros(nnz, dtype)), kept.data)
    return av, ap, ai, per_row, cv, ci, cp


def test_nnz_compress_and_csr2csr_compress(handle, descr):
    arrays = _compress(handle, descr, "D", 24)
    av, ap, ai, per_row, cv, ci, cp = arrays
    count = ctypes.c_int(-1)
    # rocSPARSE's checks: a negative tol, a negative m; hipSPARSE's null count in host pointer mode
    assert hipsparse.hipsparseDnnz_compress(handle, 6, descr, av, ap, per_row, count, -1.0) == INVALID
    assert hipsparse.hipsparseDnnz_compress(handle, -1, descr, av, ap, per_row, count, 0.5) == INVALID
    assert hipsparse.hipsparseDnnz_compress(handle, 6, descr, av, ap, per_row, None, 0.5) == INVALID
    assert hipsparse.hipsparseDcsr2csr_compress(handle, 6, 7, descr, av, ai, ap, 3, per_row, cv, ci, cp,
                                                -0.5) == INVALID
    # tol is a C double by value: a number (hip-python converts it; a string is a TypeError)
    with pytest.raises(TypeError):
        hipsparse.hipsparseDnnz_compress(handle, 6, descr, av, ap, per_row, count, "0.5")
    with pytest.raises(TypeError):
        hipsparse.hipsparseZnnz_compress(handle, 6, descr, av, ap, per_row, count, "0.5")
    free(*arrays)


def test_nnz_compress_device_pointer_mode(device_mode, descr):
    free(*_compress(device_mode, descr, "D", 25, device=True))


@pytest.mark.parametrize("letter", SLOW)
def test_compress_other_precisions(handle, descr, letter):
    free(*_compress(handle, descr, letter, 26))


def test_cscsort_against_scipy(handle, descr):
    rng = np.random.default_rng(27)
    m, n = 8, 6
    a = sp.random(m, n, density=0.45, format="csc", random_state=rng)
    a.sort_indices()
    order = np.concatenate([a.indptr[j] + rng.permutation(a.indptr[j + 1] - a.indptr[j]) for j in range(n)])
    rows, vals = a.indices[order].astype(np.int32), a.data[order]
    dp, dr, dv = to_device(a.indptr.astype(np.int32)), to_device(rows), to_device(vals)
    size = ctypes.c_size_t(0)
    check(hipsparse.hipsparseXcscsort_bufferSizeExt(handle, m, n, a.nnz, dp, dr, size))
    roc = rs.create_handle()
    assert size.value == rs.cscsort_buffer_size(roc, m, n, a.nnz, int(dp), int(dr))
    rs.destroy_handle(roc)
    buf, perm = check(hip.hipMalloc(max(size.value, 4))), check(hip.hipMalloc(4 * a.nnz))
    check(hipsparse.hipsparseCreateIdentityPermutation(handle, a.nnz, perm))
    check(hipsparse.hipsparseXcscsort(handle, m, n, a.nnz, descr, dp, dr, perm, buf))
    np.testing.assert_array_equal(to_host(dr, rows), a.indices)
    sorted_vals = check(hip.hipMalloc(vals.nbytes))
    check(hipsparse.hipsparseDgthr(handle, a.nnz, dv, sorted_vals, perm, BASE0))
    np.testing.assert_array_equal(to_host(sorted_vals, vals), a.data)
    # rocSPARSE's checks: a negative size, a null buffer
    assert hipsparse.hipsparseXcscsort_bufferSizeExt(handle, m, -1, a.nnz, dp, dr)[0] == INVALID[0]
    assert hipsparse.hipsparseXcscsort(handle, m, n, a.nnz, descr, dp, dr, perm, None) == INVALID
    free(dp, dr, dv, buf, perm, sorted_vals)
