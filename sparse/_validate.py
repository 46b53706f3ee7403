"""Checking mode's scan of the sparse products' index arrays (``ROCMATH_CHECK=1``, ``rocmath.checking()``).

On a GPU, a CSR or COO matrix whose row offsets or indices point outside the arrays they index is
undefined behaviour: the product reads whatever memory lies there, or faults.  A classic way to get
one is a one-based matrix described as zero-based.  In checking mode the products (csrmv, coomv,
csrmm, bsrmv, bsrmm and the generic spmv / spmm on CSR, CSC, COO and BSR matrices) first scan their
matrix on the stream, in order with the work before them.  The first bad offset or index raises
:class:`~rocmath.errors.MemoryAccessFault` (at the next synchronize, as any failed work; the product
after it is skipped), naming the routine, the array, the position and the value.  Outside checking
mode nothing is scanned (the scan reads the index arrays once more).
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


@njit(nogil=True, cache=True)
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


def _scan_csr(ptr_name: str, ind_name: str, ptr: np.ndarray, ind: np.ndarray, base: int, nnz: int,
              limit: int) -> None:
    """The stream's task: the offsets, then the indices of the entries they cover."""
    out = np.empty(2, np.int64)
    first_bad_offset(ptr, base, nnz, out)
    if out[0] >= 0:
        i, v = int(out[0]), int(out[1])
        if v - base < 0 or v - base > nnz:
            raise _fault(f"{ptr_name}[{i}] = {v} points outside the {nnz} stored entries (index base {base})")
        raise _fault(f"{ptr_name}[{i}] = {v} is below {ptr_name}[{i - 1}] = {int(ptr[i - 1])}: offsets must "
                     "not decrease")
    count = int(ptr[-1]) - base if ptr.shape[0] else 0
    first_bad_index(ind, base, limit, count, out)
    if out[0] >= 0:
        raise _fault(f"{ind_name}[{int(out[0])}] = {int(out[1])} is outside the {limit} columns "
                     f"(index base {base})")


def _scan_coo(names: tuple[str, str], row_ind: np.ndarray, col_ind: np.ndarray, base: int, m: int,
              n: int, nnz: int) -> None:
    out = np.empty(2, np.int64)
    for name, ind, limit, what in ((names[0], row_ind, m, "rows"), (names[1], col_ind, n, "columns")):
        first_bad_index(ind, base, limit, nnz, out)
        if out[0] >= 0:
            raise _fault(f"{name}[{int(out[0])}] = {int(out[1])} is outside the {limit} {what} "
                         f"(index base {base})")


def _bytes(*arrays: Buffer) -> float:
    return float(sum(int(np.prod(a.shape)) * a.dtype.itemsize for a in arrays))


def check_csr(c: Call, row_ptr: Buffer, col_ind: Buffer, base: int, nnz: int, ncols: int) -> None:
    """In checking mode, enqueue the scan of a CSR matrix of ``nnz`` stored entries and ``ncols`` columns
    (a CSC matrix's arrays are its transpose's) before the product that reads it."""
    if not checking_enabled():
        return
    c.launch(_scan_csr, row_ptr.name, col_ind.name, row_ptr, col_ind, base, nnz, ncols,
             bytes=_bytes(row_ptr, col_ind))


def check_coo(c: Call, row_ind: Buffer, col_ind: Buffer, base: int, m: int, n: int, nnz: int) -> None:
    """In checking mode, enqueue the scan of a COO matrix's ``nnz`` row and column indices."""
    if not checking_enabled():
        return
    c.launch(_scan_coo, (row_ind.name, col_ind.name), row_ind, col_ind, base, m,
             n, nnz, bytes=_bytes(row_ind, col_ind))

