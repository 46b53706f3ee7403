"""numba kernels of csrgemm / csrgeam / spgemm: Gustavson's row-by-row product with a dense accumulator.

A row of ``C = alpha A B + beta D + gamma E`` is built in a private dense accumulator of n
entries with a marker array stamped by the row index (no clearing between rows): pass 1
counts each row's distinct columns (the nnz stage), pass 2 fills columns and values, sorting
each row's columns.  Every value sums its terms in an order fixed by the inputs (A's row in
storage order, each B row in storage order, then D, then E), whatever the row partition, so
results are bitwise reproducible.  Rows run in parallel blocks; each block owns its
accumulator.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange, uintp

from rocmath.kernel import kernel


@numba.njit(cache=True, nogil=True)
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
                    r = uintp(a_ind[ja] - a_base)
                    for jb in range(uintp(b_ptr[r] - b_base), uintp(b_ptr[r + 1] - b_base)):
                        col = uintp(b_ind[jb] - b_base)
                        if mark[col] != i:
                            mark[col] = i
                            cnt += 1
            if add_d:
                for jd in range(uintp(d_ptr[i] - d_base), uintp(d_ptr[i + 1] - d_base)):
                    col = uintp(d_ind[jd] - d_base)
                    if mark[col] != i:
                        mark[col] = i
                        cnt += 1
            if add_e:
                for je in range(uintp(e_ptr[i] - e_base), uintp(e_ptr[i + 1] - e_base)):
                    col = uintp(e_ind[je] - e_base)
                    if mark[col] != i:
                        mark[col] = i
                        cnt += 1
            counts[i] = cnt


@kernel(parallel=False, contiguous=True)
def counts_to_ptr(counts, base, row_ptr, nnz_out):  # pragma: no cover - numba
    """``row_ptr := base + exclusive scan of counts`` (m + 1 entries); ``nnz_out[0]``: the total."""
    acc = 0
    row_ptr[0] = base
    for i in range(counts.shape[0]):
        acc += counts[i]
        row_ptr[i + 1] = acc + base
    nnz_out[0] = acc


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
        acc = np.zeros(n if values else 0, c_val.dtype)
        for i in range(bounds[blk], bounds[blk + 1]):
            start = uintp(c_ptr[i] - c_base)
            pos = start
            if mul:
                for ja in range(uintp(a_ptr[i] - a_base), uintp(a_ptr[i + 1] - a_base)):
                    r = uintp(a_ind[ja] - a_base)
                    av = al * a_val[ja] if values else al
                    for jb in range(uintp(b_ptr[r] - b_base), uintp(b_ptr[r + 1] - b_base)):
                        col = uintp(b_ind[jb] - b_base)
                        if mark[col] != i:
                            mark[col] = i
                            c_ind[pos] = col
                            pos += uintp(1)
                            if values:
                                acc[col] = av * b_val[jb]
                        elif values:
                            acc[col] += av * b_val[jb]
            if add_d:
                for jd in range(uintp(d_ptr[i] - d_base), uintp(d_ptr[i + 1] - d_base)):
                    col = uintp(d_ind[jd] - d_base)
                    if mark[col] != i:
                        mark[col] = i
                        c_ind[pos] = col
                        pos += uintp(1)
                        if values:
                            acc[col] = be * d_val[jd]
                    elif values:
                        acc[col] += be * d_val[jd]
            if add_e:
                for je in range(uintp(e_ptr[i] - e_base), uintp(e_ptr[i + 1] - e_base)):
                    col = uintp(e_ind[je] - e_base)
                    if mark[col] != i:
                        mark[col] = i
                        c_ind[pos] = col
                        pos += uintp(1)
                        if values:
                            acc[col] = ga * e_val[je]
                    elif values:
                        acc[col] += ga * e_val[je]
            sort_segment(c_ind, start, pos)
            for p in range(start, pos):
                col = uintp(c_ind[p])
                if values:
                    c_val[p] = acc[col]
                c_ind[p] = col + c_base
