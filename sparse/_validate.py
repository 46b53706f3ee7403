"""Checking mode's scan of the sparse routines' index arrays (``ROCMATH_CHECK=1``, ``rocmath.checking()``).

On a GPU, a sparse matrix or vector whose offsets or indices point outside the arrays they index is
undefined behaviour: the kernel reads or writes whatever memory lies there, or faults (the simulator's
kernels may crash the process).  A classic way to get one is a one-based matrix described as zero-based.
In checking mode every routine whose kernels address memory through the caller's index arrays first scans
them on the stream, in order with the work before them: after its argument checks and quick returns,
right before the first kernel that reads them.  The first bad offset or index raises
:class:`~rocmath.errors.MemoryAccessFault` (at the next synchronize, as any failed work, or at once from a
routine that blocks; the work after it is skipped, so the outputs stay as they were), naming the routine,
the array (by its rocSPARSE argument name), the position and the value.  Outside checking mode nothing is
scanned (a scan reads the index arrays once more).

One helper per storage shape:

- :func:`check_csr`: a CSR, CSC (the CSR arrays of its transpose) or BSR structure, its offsets in
  [0, nnz] and non-decreasing, then the indices they cover below the columns (rows, block columns):
  csrmv, csrmm, bsrmv, bsrmm, gemmi and the generic spmv / spmm on CSR, CSC and BSR; csrsv, csrsm, bsrsv,
  csrilu0, csric0 and bsrilu0 at the analysis and at the stage that walks the caller's arrays again (the
  factorization, an untransposed solve; a transposed one walks the analysis's copy); csrcolor; every
  operand of csrgemm, csrgeam and spgemm that takes part (A, B, D; spgemm's numeric stage also C, whose
  columns it reads); sddmm and sparse_to_dense on CSR and CSC, spsv / spsm (preprocess) on CSR;
  csr2csc, csr2bsr_nnz, csr2dense and csc2dense; csritilu0 (preprocess, compute), csritsv and spitsv
  (analysis, solve), extract's source, sparse_to_sparse's csr -> bsr (analysis) and csr <-> csc.
- :func:`check_offsets`: a row (column, block row) pointer alone, where the kernel addresses entries by the
  offsets but only copies, sorts or counts the indices: csr2coo, csr2ell, csr2hyb, csr2bsr (the CSR and
  the BSR pointers), bsr2csr, csrsort, prune_csr2csr (A's; C's at the fill stage), and the row pointers a
  later stage writes through: prune_dense2csr's, ell2csr's and C's of csrgemm, csrgeam and spgemm
  (compute, symbolic); extract's target offsets (compute) and sparse_to_sparse's csr -> coo / coo_aos / ell /
  bsr, ell -> csr and bsr -> csr.
- :func:`check_coo`: COO row and column indices: coomv, the generic spmv on COO, hybmv's COO part,
  coo2dense, and sddmm, sparse_to_dense and spsv / spsm on COO.
- :func:`check_coo_aos`: the index pairs of COO (AoS): the generic spmv.
- :func:`check_indices`: a sparse vector's indices against the dense vector they address: axpyi, doti,
  dotci, gthr, gthrz, sctr, roti, gemvi and the generic axpby, gather, scatter, rot and spvv; and
  coosort's sort keys (the rows, or the columns by column), which its counting sort counts by: coosort
  takes no index base, so they may be zero- or one-based (the other array is only reordered).

Not scanned, as their kernels stay inside their arrays whatever the indices: ELL and blocked ELL (ellmv,
hybmv's ELL part, the generic ELL spmv and blocked-ELL spmm, ell2csr_nnz, ell2csr's and hyb2csr's ELL
columns), whose column outside [0, n) is padding that ends the row (rocSPARSE's ellmv skips it the same
way: it is never reported); coo2csr (a binary search per row, as rocSPARSE's) and csr2ell_width (row
lengths); COO spmm's row indices (its row pointer is built by binary
searches, then scanned with the columns); the routines that read counts rather than indices (dense2csr,
dense2csc, dense2coo, dense_to_sparse) and the check_matrix routines, which are scans themselves.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rocmath.errors import MemoryAccessFault
from rocmath.kernel import kernel
from rocmath.launch import Buffer
from rocmath.memory import checking_enabled

from ._api import Call

#: The scans split their arrays in this many chunks; each finds its first bad position and the
#: first chunk that found one answers, so the report does not depend on the threads' timing.
CHUNKS = 64


@njit(error_model="numpy", nogil=True, cache=True)
def _first(found, values, out):  # pragma: no cover - numba
    """out := (the first chunk's bad position, its value), or out[0] = -1 when no chunk found one."""
    out[0] = -1
    for t in range(found.shape[0]):
        if found[t] >= 0:
            out[0] = found[t]
            out[1] = values[found[t]]
            return


@kernel
def first_bad_offset(ptr, base, nnz, out):  # pragma: no cover - numba
    """out[0]: the first i whose offset ``ptr[i] - base`` leaves [0, nnz] or falls below the one
    before (-1: none); out[1]: that offset."""
    count = ptr.shape[0]
    per = (count + CHUNKS - 1) // CHUNKS
    found = np.full(CHUNKS, -1, np.int64)
    for t in prange(CHUNKS):
        for i in range(t * per, min(count, (t + 1) * per)):
            v = ptr[i] - base
            if v < 0 or v > nnz or (i > 0 and ptr[i] < ptr[i - 1]):
                found[t] = i
                break
    _first(found, ptr, out)


@kernel
def first_bad_index(ind, base, limit, count, out):  # pragma: no cover - numba
    """out[0]: the first j < count whose index ``ind[j] - base`` leaves [0, limit) (-1: none); out[1]: ind[j]."""
    per = (count + CHUNKS - 1) // CHUNKS
    found = np.full(CHUNKS, -1, np.int64)
    for t in prange(CHUNKS):
        for j in range(t * per, min(count, (t + 1) * per)):
            v = ind[j] - base
            if v < 0 or v >= limit:
                found[t] = j
                break
    _first(found, ind, out)


def _fault(what: str) -> MemoryAccessFault:
    return MemoryAccessFault(f"checking mode: {what}")


def _what(ind_name: str) -> str:
    """What a compressed matrix's index array indexes, by its rocSPARSE name (a CSC matrix's row indices
    run as the column indices of its transpose)."""
    return "rows" if "row_ind" in ind_name else "columns"


def _offsets(name: str, ptr: np.ndarray, base: int, nnz: int, out: np.ndarray) -> None:
    """Raise for the first offset of ``ptr`` outside [0, nnz] or below the one before."""
    first_bad_offset(ptr, base, nnz, out)
    if out[0] < 0:
        return
    i, v = int(out[0]), int(out[1])
    if v - base < 0 or v - base > nnz:
        raise _fault(f"{name}[{i}] = {v} points outside the {nnz} stored entries (index base {base})")
    raise _fault(f"{name}[{i}] = {v} is below {name}[{i - 1}] = {int(ptr[i - 1])}: offsets must not decrease")


def _indices(name: str, ind: np.ndarray, base: int, limit: int, count: int, what: str, out: np.ndarray,
             step: int = 1, first: int = 0, either_base: bool = False) -> None:
    """Raise for the first of the ``count`` indices of ``ind`` outside [0, limit) after the base (``either_base``:
    outside [0, limit], valid zero- or one-based), reported at position ``first + step * j`` of the array
    ``name`` (an array of pairs holds ``ind`` at every other place)."""
    first_bad_index(ind, base, limit + 1 if either_base else limit, count, out)
    if out[0] >= 0:
        raise _fault(f"{name}[{first + step * int(out[0])}] = {int(out[1])} is outside the {limit} {what} "
                     f"(index base {'0 or 1' if either_base else base})")


def _scan_csr(ptr_name: str, ind_name: str, ptr: np.ndarray, ind: np.ndarray, base: int, nnz: int, limit: int,
              what: str) -> None:
    """The stream's task: the offsets, then the indices of the entries they cover."""
    out = np.empty(2, np.int64)
    _offsets(ptr_name, ptr, base, nnz, out)
    _indices(ind_name, ind, base, limit, int(ptr[-1]) - base if ptr.shape[0] else 0, what, out)


def _scan_offsets(name: str, ptr: np.ndarray, base: int, nnz: int) -> None:
    _offsets(name, ptr, base, nnz, np.empty(2, np.int64))


def _scan_coo(names: tuple[str, str], row_ind: np.ndarray, col_ind: np.ndarray, base: int, m: int,
              n: int, nnz: int) -> None:
    out = np.empty(2, np.int64)
    _indices(names[0], row_ind, base, m, nnz, "rows", out)
    _indices(names[1], col_ind, base, n, nnz, "columns", out)


def _scan_coo_aos(name: str, pairs: np.ndarray, base: int, m: int, n: int, nnz: int) -> None:
    """COO (AoS): the row indices at the even places of the pairs, then the column indices at the odd ones."""
    out = np.empty(2, np.int64)
    _indices(name, pairs[0::2], base, m, nnz, "rows", out, 2, 0)
    _indices(name, pairs[1::2], base, n, nnz, "columns", out, 2, 1)


def _scan_indices(name: str, ind: np.ndarray, base: int, limit: int, what: str, either_base: bool) -> None:
    _indices(name, ind, base, limit, ind.shape[0], what, np.empty(2, np.int64), either_base=either_base)


def _bytes(*arrays: Buffer) -> float:
    return float(sum(int(np.prod(a.shape)) * a.dtype.itemsize for a in arrays))


def check_csr(c: Call, row_ptr: Buffer, col_ind: Buffer, base: int, nnz: int, ncols: int) -> None:
    """In checking mode, enqueue the scan of a CSR matrix of ``nnz`` stored entries (or blocks) and ``ncols``
    columns (or block columns) before the kernel that reads it.  A CSC matrix's arrays are its transpose's (its
    ``csc_row_ind`` are then reported as rows)."""
    if not checking_enabled():
        return
    c.launch(_scan_csr, row_ptr.name, col_ind.name, row_ptr, col_ind, base, nnz, ncols, _what(col_ind.name),
             bytes=_bytes(row_ptr, col_ind))


def check_offsets(c: Call, ptr: Buffer, base: int, nnz: int) -> None:
    """In checking mode, enqueue the scan of a row (column, block row) pointer over ``nnz`` stored entries alone:
    for kernels that address entries by the offsets but only copy, sort or count the indices."""
    if not checking_enabled():
        return
    c.launch(_scan_offsets, ptr.name, ptr, base, nnz, bytes=_bytes(ptr))


def check_coo(c: Call, row_ind: Buffer, col_ind: Buffer, base: int, m: int, n: int, nnz: int) -> None:
    """In checking mode, enqueue the scan of a COO matrix's ``nnz`` row and column indices."""
    if not checking_enabled():
        return
    c.launch(_scan_coo, (row_ind.name, col_ind.name), row_ind, col_ind, base, m,
             n, nnz, bytes=_bytes(row_ind, col_ind))


def check_coo_aos(c: Call, pairs: Buffer, base: int, m: int, n: int, nnz: int) -> None:
    """In checking mode, enqueue the scan of a COO (AoS) matrix's ``nnz`` (row, column) index pairs (``pairs``:
    all ``2 nnz`` indices)."""
    if not checking_enabled():
        return
    c.launch(_scan_coo_aos, pairs.name, pairs, base, m, n, nnz, bytes=_bytes(pairs))


def check_indices(c: Call, ind: Buffer, base: int, limit: int, what: str, either_base: bool = False) -> None:
    """In checking mode, enqueue the scan of a sparse vector's indices into the ``limit`` ``what`` (e.g.
    "entries of y") they address, or of one index array of a matrix (``either_base``: a routine without an
    index base, whose indices may be zero- or one-based)."""
    if not checking_enabled():
        return
    c.launch(_scan_indices, ind.name, ind, base, limit, what, either_base, bytes=_bytes(ind))
