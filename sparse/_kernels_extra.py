"""numba kernels of csrgemm / csrgeam / spgemm: Gustavson's row-by-row product with a dense accumulator.

A row of ``C = alpha A B + beta D + gamma E`` is built in a private dense accumulator of n
entries with a marker array stamped by the row index (no clearing between rows): pass 1
counts each row's distinct columns (the nnz stage, then :func:`counts_to_ptr`), pass 2 fills
columns and values, each row's columns sorted (or, in rows holding n / SCAN_RATIO of them or
more, read off the markers in order).  Every value sums its terms in an order fixed by the
inputs (A's row in storage order, each B row in storage order, then D, then E), whatever the
row partition, so results are bitwise reproducible.  Rows run in parallel blocks; each block
owns its accumulator.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange, uintp

from rocmath.kernel import kernel

# The nnz stage's row pointer is the conversions' scan of row counts: one kernel for both.
from ._kernels_conv import counts_to_ptr  # noqa: F401

#: Rows of C with at least n / SCAN_RATIO columns come out of a pass over the markers, not a sort.
SCAN_RATIO = 64
#: Rows of at least RADIX_MIN columns (and fewer than n / SCAN_RATIO) are sorted by an LSD radix sort
#: on RADIX_BITS-bit digits (two passes up to 2^22 columns); shorter ones by comparisons.
RADIX_MIN = 64
RADIX_BITS = 11


@numba.njit(error_model="numpy", cache=True, nogil=True)
def radix_sort(a, tmp, k, n, count):  # pragma: no cover - numba
    """Sort ``a[:k]``, keys in ``[0, n)``, least significant digit first through ``tmp`` (at least k
    entries) with ``count`` (2^RADIX_BITS entries) for the digits' counts."""
    mask = (1 << RADIX_BITS) - 1
    src, dst = a, tmp
    shift = 0
    passes = 0
    while passes == 0 or (n - 1) >> shift:
        count[:] = 0
        for p in range(k):
            count[(src[p] >> shift) & mask] += 1
        total = 0
        for d in range(count.shape[0]):
            c = count[d]
            count[d] = total
            total += c
        for p in range(k):
            v = src[p]
            d = (v >> shift) & mask
            dst[count[d]] = v
            count[d] += 1
        src, dst = dst, src
        shift += RADIX_BITS
        passes += 1
    if passes % 2:
        a[:k] = tmp[:k]


@numba.njit(error_model="numpy", cache=True, nogil=True)
def sort_segment(a, lo, hi):  # pragma: no cover - numba
    """Sort ``a[lo:hi]`` in place: insertion sort for short rows (no allocation), numpy's sort beyond."""
    if hi - lo <= 32:
        for p in range(lo + 1, hi):
            v = a[p]
            q = p
            while q > lo and a[q - 1] > v:
                a[q] = a[q - 1]
                q -= 1
            a[q] = v
    else:
        a[lo:hi].sort()

@numba.njit(cache=True, nogil=True, inline="always")
def _order_row(cols, k, n, i, mark, tmp, count):  # pragma: no cover - numba
    """Put row i's ``k`` distinct columns ``cols[:k]`` in increasing order: read off the markers
    when the row holds n / SCAN_RATIO columns or more (a pass over n markers costs less than
    sorting them), radix-sorted from RADIX_MIN columns, compared below."""
    if k * SCAN_RATIO >= n:
        pos = uintp(0)
        for col in range(n):
            cols[pos] = col
            pos += uintp(mark[col] == i)
    elif k >= RADIX_MIN:
        radix_sort(cols, tmp, k, n, count)
    else:
        sort_segment(cols, 0, k)


@numba.njit(cache=True, nogil=True, inline="always")
def _count_row(i, ptr, ind, base, r, mark):  # pragma: no cover - numba
    """The columns of row r (of ptr, ind) not yet marked for row i: marked, and their number returned.
    Without a branch on whether a column is new: in a product about half are, at random, and the
    mispredictions took most of the time."""
    cnt = 0
    for j in range(uintp(ptr[r] - base), uintp(ptr[r + 1] - base)):
        col = uintp(ind[j] - base)
        cnt += mark[col] != i
        mark[col] = i
    return cnt


@numba.njit(cache=True, nogil=True, inline="always")
def _merge_row(i, f, val, ptr, ind, base, r, mark, cols, pos, values, acc):  # pragma: no cover - numba
    """Merge ``f`` times row r (of val, ptr, ind) into row i of C (storage order): a column new to row i
    (``mark``) is appended to ``cols`` at ``pos`` and its accumulator assigned, a known one added to
    (``values``: accumulate values too).  Returns the next free position.  Without a branch on
    whether a column is new (see :func:`_count_row`): every column is written at ``pos``, which
    moves past only the new ones (``cols`` has room for n)."""
    for j in range(uintp(ptr[r] - base), uintp(ptr[r + 1] - base)):
        col = uintp(ind[j] - base)
        new = mark[col] != i
        mark[col] = i
        cols[pos] = col
        if values:
            v = f * val[j]
            acc[col] = v if new else acc[col] + v
        pos += uintp(new)
    return pos


@kernel(contiguous=True)
def spgemm_count(mul, add_d, add_e, a_ptr, a_ind, a_base, b_ptr, b_ind, b_base, d_ptr, d_ind, d_base, e_ptr,
                 e_ind, e_base, n, bounds, counts):  # pragma: no cover - numba
    """``counts[i]``: the distinct columns of row i of ``A B`` (mul), ``D`` (add_d) and ``E`` (add_e)."""
    for blk in prange(bounds.shape[0] - 1):
        mark = np.full(n, -1, np.int64)
        for i in range(bounds[blk], bounds[blk + 1]):
            cnt = 0
            if mul:
                for ja in range(uintp(a_ptr[i] - a_base), uintp(a_ptr[i + 1] - a_base)):
                    cnt += _count_row(i, b_ptr, b_ind, b_base, uintp(a_ind[ja] - a_base), mark)
            if add_d:
                cnt += _count_row(i, d_ptr, d_ind, d_base, uintp(i), mark)
            if add_e:
                cnt += _count_row(i, e_ptr, e_ind, e_base, uintp(i), mark)
            counts[i] = cnt


@kernel(contiguous=True)
def spgemm_fill(mul, add_d, add_e, alpha, a_val, a_ptr, a_ind, a_base, b_val, b_ptr, b_ind, b_base, beta, d_val,
                d_ptr, d_ind, d_base, gamma, e_val, e_ptr, e_ind, e_base, n, bounds, c_val, c_ptr, c_ind,
                c_base):  # pragma: no cover - numba
    """Columns (sorted) and values of ``C = alpha A B + beta D + gamma E`` into C's structure from
    :func:`spgemm_count`.  ``c_val`` of length 0: columns only (the symbolic stage)."""
    values = c_val.shape[0] > 0
    al = alpha[0]
    be = beta[0]
    ga = gamma[0]
    for blk in prange(bounds.shape[0] - 1):
        mark = np.full(n, -1, np.int64)
        acc = np.empty(n if values else 0, c_val.dtype)  # (a column's first term assigns it)
        cols = np.empty(n + 1, np.int64)
        tmp = np.empty(n + 1, np.int64)
        count = np.empty(1 << RADIX_BITS, np.int64)
        for i in range(bounds[blk], bounds[blk + 1]):
            pos = uintp(0)
            if mul:
                for ja in range(uintp(a_ptr[i] - a_base), uintp(a_ptr[i + 1] - a_base)):
                    av = al * a_val[ja] if values else al
                    pos = _merge_row(i, av, b_val, b_ptr, b_ind, b_base, uintp(a_ind[ja] - a_base), mark, cols, pos,
                                     values, acc)
            if add_d:
                pos = _merge_row(i, be, d_val, d_ptr, d_ind, d_base, uintp(i), mark, cols, pos, values, acc)
            if add_e:
                pos = _merge_row(i, ga, e_val, e_ptr, e_ind, e_base, uintp(i), mark, cols, pos, values, acc)
            _order_row(cols, pos, n, i, mark, tmp, count)
            start = uintp(c_ptr[i] - c_base)
            for p in range(pos):
                col = uintp(cols[p])
                if values:
                    c_val[start + p] = acc[col]
                c_ind[start + p] = col + c_base
