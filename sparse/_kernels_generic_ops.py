"""numba kernels of the generic routines in :mod:`._generic_ops` that no legacy routine already has.

- :func:`spgemm_numeric`: the values of ``C = alpha A B + beta D`` into a given structure of C
  (spgemm's numeric stage); the symbolic and nnz stages reuse csrgemm's kernels;
- :func:`trsm_levels`: ``op(T) C = alpha op(B)`` for the analysed triangle T of a sparse
  matrix and several right-hand sides at once (spsm; spsv is the one-column case), on the
  level schedule of csrsv's analysis;
- :func:`sddmm_entries`: ``C = alpha (op(A) op(B)) o spy(C) + beta C`` entry by entry.

The 0-based int64 structure the triangular solves run on comes from :mod:`._kernels_solve` (the
analysis csrsv, csrsm and bsrsv share).

They check nothing: the routines validated everything.  Dense operands arrive as 2-D views
indexed [row, column] whatever their order (a kernel compiles once per dtypes, not per
layout).  Determinism: every output element is computed by one iteration, in an order fixed
by the inputs (spgemm sums exactly as csrgemm's ``spgemm_fill`` does, so the numeric stage
reproduces the compute stage bit for bit; a triangular row sums its entries in storage
order; an sddmm entry sums over k in order), whatever the partition.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange, uintp

from rocmath.kernel import kernel

from ._kernels_solve import LEVEL_CHUNK, PARALLEL_LEVEL_ROWS, first_zero_diagonal

#: Parallel chunks of the right-hand sides of a triangular solve / of the entries of an sddmm (at most).
MAX_CHUNKS = 64


@numba.njit(nogil=True, cache=True, error_model="numpy", inline="always")
def _add_row(i, f, val, ptr, ind, base, r, pos, mark, c_val):  # pragma: no cover - numba
    """Add ``f * val[j]`` for the entries j of row r (storage order) to row i of C at the positions ``pos``
    gives their columns (-1: not in C's structure, dropped); a column's first term of row i (``mark``) is
    assigned, the next ones added, chosen without a branch (as csrgemm's marking: a product's first and
    later terms come at random; the graph's numeric stage took 49 ms with the branch, 42 without)."""
    for j in range(uintp(ptr[r] - base), uintp(ptr[r + 1] - base)):
        col = uintp(ind[j] - base)
        q = pos[col]
        if q >= 0:
            v = f * val[j]
            first = mark[col] != i
            mark[col] = i
            c_val[q] = v if first else c_val[q] + v


@kernel
def spgemm_numeric(mul, add, alpha, a_val, a_ptr, a_ind, a_base, b_val, b_ptr, b_ind, b_base, beta, d_val, d_ptr,
                   d_ind, d_base, n, bounds, c_val, c_ptr, c_ind, c_base):  # pragma: no cover - numba
    """Values of ``C = alpha A B + beta D`` at the entries of C's structure (row pointer and columns given):
    terms landing outside the structure are dropped, entries no term reaches become 0.  Each value takes its
    terms in csrgemm's order (A's row in storage order, each B row in storage order, then D), the first one
    assigned, so the result equals the compute stage's bitwise."""
    al = alpha[0]
    be = beta[0]
    for blk in prange(bounds.shape[0] - 1):
        pos = np.full(n, -1, np.int64)
        mark = np.full(n, -1, np.int64)
        for i in range(bounds[blk], bounds[blk + 1]):
            lo = uintp(c_ptr[i] - c_base)
            hi = uintp(c_ptr[i + 1] - c_base)
            for p in range(lo, hi):
                pos[uintp(c_ind[p] - c_base)] = p
                c_val[p] = 0
            if mul:
                for ja in range(uintp(a_ptr[i] - a_base), uintp(a_ptr[i + 1] - a_base)):
                    _add_row(i, al * a_val[ja], b_val, b_ptr, b_ind, b_base, uintp(a_ind[ja] - a_base), pos, mark,
                             c_val)
            if add:
                _add_row(i, be, d_val, d_ptr, d_ind, d_base, uintp(i), pos, mark, c_val)
            for p in range(lo, hi):
                pos[uintp(c_ind[p] - c_base)] = -1


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _trsm_rows(a, conj_b, val, row_ptr, col_ind, upper, unit, split, diag, rows, j, B, C):  # pragma: no cover
    """For each row i of ``rows`` in order: ``C[i, j] := (a op(B)[i, j] - sum of the strict triangle's
    T_ik C[k, j]) / T_ii`` (storage order; a zero or missing diagonal counts as one), as csrsv's row update;
    the structure is 0-based.  Not inlined: the kernel calls it from three places and compiles faster."""
    for t in range(rows.shape[0]):
        i = rows[t]
        if upper:
            p = uintp(split[i] + (1 if diag[i] >= 0 else 0))
            end = uintp(row_ptr[i + 1])
        else:
            p = uintp(row_ptr[i])
            end = uintp(split[i])
        s = a * (np.conj(B[i, j]) if conj_b else B[i, j])
        while p < end:
            s -= val[p] * C[uintp(col_ind[p]), j]
            p += uintp(1)
        if not unit and diag[i] >= 0:
            d = val[diag[i]]
            if d != 0:
                s = s / d
        C[i, j] = s


@kernel
def trsm_levels(alpha, conj_b, val, row_ptr, col_ind, upper, unit, split, diag, level_ptr, row_map, nlevels, B, C,
                zero_pivot, pivot_base):  # pragma: no cover - numba
    """``C := op(T)^-1 alpha op(B)`` column by column for the 0-based int64 structure of op(T) (B, C: m x nrhs
    views, op(B) already a view; conj_b conjugates it; B may be C itself).  Several columns run in parallel
    chunks; a single column runs level by level, the rows of a big level in parallel.  ``zero_pivot[0]``
    becomes the first row (plus ``pivot_base``) with a zero diagonal value if that is smaller (not for a unit
    diagonal)."""
    a = alpha[0]
    nrhs = C.shape[1]
    if nrhs > 1:
        nchunks = min(nrhs, MAX_CHUNKS)
        for ch in prange(nchunks):
            for j in range((nrhs * ch) // nchunks, (nrhs * (ch + 1)) // nchunks):
                _trsm_rows(a, conj_b, val, row_ptr, col_ind, upper, unit, split, diag, row_map, j, B, C)
    elif nrhs == 1:
        for lv in range(nlevels):
            lo = level_ptr[lv]
            hi = level_ptr[lv + 1]
            if hi - lo < PARALLEL_LEVEL_ROWS:
                _trsm_rows(a, conj_b, val, row_ptr, col_ind, upper, unit, split, diag, row_map[lo:hi], 0, B, C)
            else:
                for ch in prange((hi - lo + LEVEL_CHUNK - 1) // LEVEL_CHUNK):
                    _trsm_rows(a, conj_b, val, row_ptr, col_ind, upper, unit, split, diag,
                               row_map[lo + ch * LEVEL_CHUNK: min(hi, lo + (ch + 1) * LEVEL_CHUNK)], 0, B, C)
    if not unit:
        first_zero_diagonal(val, diag, pivot_base, zero_pivot)


@kernel
def sddmm_entries(alpha, beta, A, B, rows, cols, base, val, nchunks):  # pragma: no cover - numba
    """``val[e] := val[e] beta + alpha sum_k A[rows[e], k] B[k, cols[e]]`` (indices minus base) for every
    stored entry, the entries in ``nchunks`` parallel chunks.  beta == 0 never reads val; alpha == 0 with
    beta == 1 changes nothing."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    nnz = val.shape[0]
    kdim = A.shape[1]
    zero = np.zeros(1, val.dtype)[0]
    for ch in prange(nchunks):
        for e in range((nnz * ch) // nchunks, (nnz * (ch + 1)) // nchunks):
            i = uintp(rows[e] - base)
            j = uintp(cols[e] - base)
            s = zero
            for t in range(kdim):
                s += A[i, t] * B[t, j]
            if b == 0:
                val[e] = a * s
            else:
                val[e] = val[e] * b + a * s
