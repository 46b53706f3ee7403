"""numba kernels of the matrix checks (:mod:`._check`).

They check no argument: the routines validated everything.  Each scan is parallel over
contiguous chunks of rows (COO: of entries), yet its answer does not depend on the chunking
or the threads: every chunk scans its rows in storage order and stops at its first defect,
then the first chunk holding one gives the status.  That is the status of the first defect
in storage order, each entry's tests in rocSPARSE's order.  Statuses are
``rocsparse_data_status`` values (0 for none); ``status`` is a 1-element int32 array.

As rocSPARSE's device tests: a value is "inf" when its real or imaginary part is ``+inf``
(``-inf`` is not), "nan" when a part is NaN.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

INF, NAN, INVALID_OFFSET_PTR, INVALID_INDEX, DUPLICATE_ENTRY, INVALID_SORTING, INVALID_FILL = 1, 2, 3, 4, 5, 6, 7
#: Chunks a scan is split into (at most): enough for any thread count here.
CHUNKS = 256


@njit(nogil=True, cache=True, inline="always")
def _value_status(v):  # pragma: no cover - numba
    """INF when a part of ``v`` is +inf, NAN when one is NaN (in that order), else 0."""
    if v.real == np.inf or v.imag == np.inf:
        return INF
    if v.real != v.real or v.imag != v.imag:
        return NAN
    return 0


@njit(error_model="numpy", nogil=True, cache=True)
def _first_found(found, status):  # pragma: no cover - numba
    """``status[0]``: the first chunk's non-zero status (0 when every chunk found none)."""
    status[0] = 0
    for ch in range(found.shape[0]):
        if found[ch] != 0:
            status[0] = found[ch]
            return


@kernel
def check_offsets(ptr, status):  # pragma: no cover - numba
    """The row-pointer pass: ``invalid_offset_ptr`` when a row's start or end, relative to ``ptr[0]``,
    is negative or its end is before its start."""
    m = ptr.shape[0] - 1
    nch = min(m, CHUNKS)
    found = np.zeros(max(nch, 1), np.int32)
    p0 = ptr[0]
    for ch in prange(nch):
        for row in range(ch * m // nch, (ch + 1) * m // nch):
            start = ptr[row] - p0
            end = ptr[row + 1] - p0
            if start < 0 or end < 0 or end < start:
                found[ch] = INVALID_OFFSET_PTR
                break
    _first_found(found, status)


@kernel
def sort_rows(ptr, ind, out):  # pragma: no cover - numba
    """``out``: the indices of each row (``[ptr[i] - ptr[0], ptr[i + 1] - ptr[0])``) sorted, for the
    duplicate test of unsorted storage."""
    m = ptr.shape[0] - 1
    p0 = ptr[0]
    for row in prange(m):
        a = ptr[row] - p0
        b = ptr[row + 1] - p0
        if b - a > 0:
            out[a:b] = np.sort(ind[a:b])


@kernel
def check_compressed(ptr, ind, sorted_ind, val, n, block, base, nongeneral, lower, sorted_storage,
                     status):  # pragma: no cover - numba
    """The entry pass of CSR (``block == 1``) and GEBSR (``block`` values per stored block, in storage
    order): for each row, each entry ``j``: its index in ``[0, n)``, no duplicate (``sorted_ind[j] ==
    sorted_ind[j - 1]``), its values not inf then not NaN (value by value), its side of the diagonal
    for a non-general type (``lower``: not above; else not below), and with sorted storage its index
    above the previous one."""
    m = ptr.shape[0] - 1
    nch = min(m, CHUNKS)
    found = np.zeros(max(nch, 1), np.int32)
    p0 = ptr[0]
    for ch in prange(nch):
        s = 0
        for row in range(ch * m // nch, (ch + 1) * m // nch):
            start = ptr[row] - p0
            end = ptr[row + 1] - p0
            for j in range(start, end):
                col = ind[j] - base
                if col < 0 or col >= n:
                    s = INVALID_INDEX
                    break
                if j > start:
                    scol = sorted_ind[j] - base
                    prev = sorted_ind[j - 1] - base
                    if scol == prev and prev >= 0 and prev < n:
                        s = DUPLICATE_ENTRY
                        break
                for t in range(j * block, (j + 1) * block):
                    s = _value_status(val[t])
                    if s != 0:
                        break
                if s != 0:
                    break
                if nongeneral and ((lower and row < col) or (not lower and row > col)):
                    s = INVALID_FILL
                    break
                if sorted_storage and j > start:
                    prev = ind[j - 1] - base
                    if col <= prev and prev >= 0 and prev < n:
                        s = INVALID_SORTING
                        break
            if s != 0:
                break
        found[ch] = s
    _first_found(found, status)


@kernel
def check_coo(row_ind, col_ind, val, m, n, base, nongeneral, lower, sorted_storage, status):  # pragma: no cover
    """The COO pass, entry by entry: its row in ``[0, m)``, its column in ``[0, n)``, its value not inf
    then not NaN, its side of the diagonal for a non-general type, and with sorted storage its column
    not above the next entry's in the same row (a next column outside ``[0, n)`` is not compared)."""
    nnz = val.shape[0]
    nch = min(nnz, CHUNKS)
    found = np.zeros(max(nch, 1), np.int32)
    for ch in prange(nch):
        s = 0
        for k in range(ch * nnz // nch, (ch + 1) * nnz // nch):
            row = row_ind[k] - base
            col = col_ind[k] - base
            if row < 0 or row >= m or col < 0 or col >= n:
                s = INVALID_INDEX
                break
            s = _value_status(val[k])
            if s != 0:
                break
            if nongeneral and ((lower and row < col) or (not lower and row > col)):
                s = INVALID_FILL
                break
            if sorted_storage and k < nnz - 1 and row_ind[k + 1] - base == row:
                nxt = col_ind[k + 1] - base
                if col > nxt and nxt >= 0 and nxt < n:
                    s = INVALID_SORTING
                    break
        found[ch] = s
    _first_found(found, status)


@kernel
def check_ell(col_ind, val, m, n, width, base, sorted_storage, status):  # pragma: no cover - numba
    """The ELL pass (column-major slots ``j * m + row``), row by row, slot by slot: a raw index of -1 ends
    the row; otherwise its column in ``[0, n)``, its value not inf then not NaN, and with sorted storage
    its column above the previous slot's."""
    nch = min(m, CHUNKS)
    found = np.zeros(max(nch, 1), np.int32)
    for ch in prange(nch):
        s = 0
        for row in range(ch * m // nch, (ch + 1) * m // nch):
            for j in range(width):
                raw = col_ind[j * m + row]
                if raw == -1:
                    break
                col = raw - base
                if col < 0 or col >= n:
                    s = INVALID_INDEX
                    break
                s = _value_status(val[j * m + row])
                if s != 0:
                    break
                if sorted_storage and j > 0 and col_ind[(j - 1) * m + row] - base >= col:
                    s = INVALID_SORTING
                    break
            if s != 0:
                break
        found[ch] = s
    _first_found(found, status)
