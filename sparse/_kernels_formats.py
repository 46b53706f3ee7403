"""numba kernels of the ELL, HYB and BSR formats, the prune conversions and gemvi / gemmi (:mod:`._formats`).

They check nothing: the routines validated everything.  Layouts are rocSPARSE's: an
``m x width`` ELL matrix stores entry ``p`` of row ``i`` at ``p * m + i`` (column-major), its
padding has column index -1 and value 0, and a row ends at its first column outside
``[0, n)``; a BSR or blocked-ELL block of ``bdim x bdim`` values stores element ``(r, c)`` at
``r * bdim + c`` (direction row) or ``c * bdim + r`` (direction column).

Two product kernels serve every product of the module.  :func:`block_rows` (parallel over block
rows) computes the non-transposed ones: ELL (blocked ELL with 1 x 1 blocks), blocked ELL, BSR, and
gemvi / gemmi (a CSR operand is a BSR matrix with 1 x 1 blocks); it also scales by beta alone (no
blocks, alpha 0).  :func:`scatter_product` computes the transposed ELL products and the COO ones
(the COO part of a HYB matrix, COO (AoS) descriptors), scattering serially in storage order.  Both
add each output's terms in an order fixed by the inputs: results are bitwise reproducible.

The conversions are serial: they move memory, and a serial kernel compiles in a fraction of the
time of a parallel one.  They move values as 32-bit words, so each compiles once per index type for
all four precisions.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from rocmath.kernel import kernel

# --- products -----------------------------------------------------------------------------------------


@kernel
def block_rows(direction, stop, alpha, row_ptr, base, width, col_ind, val, bdim, B, beta, C,
               bounds):  # pragma: no cover - numba
    """``C := alpha A B + beta C`` for a block-row matrix A of ``bdim x bdim`` blocks, ``C`` holding
    ``mb * bdim`` rows (``mb`` block rows) and ``B`` the rows ``col * bdim + c`` the blocks multiply.
    The block rows in ``len(bounds) - 1`` groups run in parallel.

    ``width < 0``: BSR, the blocks of block row ``r`` are ``row_ptr[r] - base ..< row_ptr[r + 1] - base``.
    ``width >= 0``: blocked ELL, the blocks are ``j * mb + r`` for ``j < width``; a block column outside
    ``[0, nb)`` is padding: the row ends there (``stop``, ELL) or the block is skipped (blocked ELL).
    ``alpha == 0 and beta == 1`` leaves C alone; beta == 0 never reads C.  With no blocks at all
    (width 0) and alpha 0 this is ``C := beta C``.
    """
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    ncols = C.shape[1]
    mb = C.shape[0] // bdim
    nb = B.shape[0] // bdim
    bb = bdim * bdim
    for grp in prange(bounds.shape[0] - 1):
        acc = np.zeros(bdim * ncols, C.dtype)
        for r in range(bounds[grp], bounds[grp + 1]):
            acc[:] = 0
            if width < 0:
                lo = row_ptr[r] - base
                hi = row_ptr[r + 1] - base
                step = 1
            else:
                lo = r
                hi = r + width * mb
                step = mb
            for k in range(lo, hi, step):
                col = col_ind[k] - base
                if width >= 0 and (col < 0 or col >= nb):
                    if stop:
                        break
                    continue
                off = k * bb
                for bi in range(bdim):
                    for bj in range(bdim):
                        v = val[off + bi * bdim + bj] if direction == 0 else val[off + bj * bdim + bi]
                        brow = col * bdim + bj
                        for jj in range(ncols):
                            acc[bi * ncols + jj] += v * B[brow, jj]
            for bi in range(bdim):
                row = r * bdim + bi
                for jj in range(ncols):
                    s = a * acc[bi * ncols + jj]
                    C[row, jj] = s if b == 0 else s + b * C[row, jj]


@kernel(parallel=False)
def scatter_product(transposed, conj, alpha, row_ptr, row_ind, col_ind, base, width, val, x, beta,
                    y):  # pragma: no cover - numba
    """``y := alpha op(A) x + beta y``, every entry ``(i, j, v)`` of A adding ``alpha v x[j]`` to ``y[i]``
    (transposed: ``alpha op(v) x[i]`` to ``y[j]``, conj: conjugated), entries in storage order.  ``y`` is
    scaled first (beta == 0 writes zeros).  The entries of row ``i``: ELL (``width >= 0``) ``p * m + i``
    up to the first column outside ``[0, n)``; CSR (``width == -1``) ``row_ptr[i] - base ..<
    row_ptr[i + 1] - base``; COO (``width == -2``) every ``k``, its row ``row_ind[k]``.  alpha == 0 only
    scales y."""
    a = alpha[0]
    b = beta[0]
    ny = y.shape[0]
    if b == 0:
        for j in range(ny):
            y[j] = 0
    elif b != 1:
        for j in range(ny):
            y[j] = b * y[j]
    if a == 0:  # as rocSPARSE's scattering kernels: alpha == 0 adds nothing (x is not read)
        return
    m = y.shape[0] if not transposed else x.shape[0]
    n = x.shape[0] if not transposed else y.shape[0]
    count = m if width != -2 else col_ind.shape[0]
    for t in range(count):
        if width == -2:
            lo = t
            hi = t + 1
            step = 1
            i = row_ind[t] - base
        elif width == -1:
            lo = row_ptr[t] - base
            hi = row_ptr[t + 1] - base
            step = 1
            i = t
        else:
            lo = t
            hi = t + width * m
            step = m
            i = t
        for k in range(lo, hi, step):
            j = col_ind[k] - base
            if width >= 0 and (j < 0 or j >= n):
                break
            v = np.conj(val[k]) if conj else val[k]
            if transposed:
                y[j] += a * v * x[i]
            else:
                y[i] += a * v * x[j]


# --- CSR <-> ELL / HYB ------------------------------------------------------------------------------
#
# The conversions only move values, so they take them as 32-bit words (``(count, itemsize / 4)``
# uint32 views): one compiled kernel per index type serves all four precisions.


@kernel(parallel=False)
def csr_row_lengths(row_ptr, width, out):  # pragma: no cover - numba
    """``out[0]``: the longest row of a CSR row pointer; ``out[1]`` (when present): the entries beyond
    the first ``width`` of each row (the COO part of a HYB matrix)."""
    m = row_ptr.shape[0] - 1
    longest = 0
    beyond = 0
    for i in range(m):
        length = row_ptr[i + 1] - row_ptr[i]
        if length > longest:
            longest = length
        if length > width:
            beyond += length - width
    out[0] = longest
    if out.shape[0] > 1:
        out[1] = beyond


@kernel(parallel=False)
def csr_to_ell(val, row_ptr, col_ind, csr_base, width, ell_col, ell_val, ell_base, coo_row, coo_col,
               coo_val):  # pragma: no cover - numba
    """The first ``width`` entries of each CSR row into the ELL arrays (columns rebased, padding -1 and 0);
    the rest into the COO arrays in row order (their base the CSR's), or dropped when these are empty."""
    m = row_ptr.shape[0] - 1
    nw = val.shape[1]
    with_coo = coo_row.shape[0] > 0
    t = 0
    for i in range(m):
        p = 0
        for j in range(row_ptr[i] - csr_base, row_ptr[i + 1] - csr_base):
            if p < width:
                k = p * m + i
                ell_col[k] = col_ind[j] - csr_base + ell_base
                for w in range(nw):
                    ell_val[k, w] = val[j, w]
                p += 1
            elif with_coo:
                coo_row[t] = i + csr_base
                coo_col[t] = col_ind[j]
                for w in range(nw):
                    coo_val[t, w] = val[j, w]
                t += 1
            else:
                break
        while p < width:
            k = p * m + i
            ell_col[k] = -1
            for w in range(nw):
                ell_val[k, w] = 0
            p += 1


@kernel(parallel=False)
def ell_csr_ptr(ell_col, ell_base, n, width, coo_row, csr_base, csr_ptr, total):  # pragma: no cover - numba
    """The CSR row pointer of an ``m x n`` ELL matrix (each row up to its first padding entry) plus the
    entries of a row-sorted COO part (``coo_row``, may be empty); ``total[0]``: the entries."""
    m = csr_ptr.shape[0] - 1
    s = 0
    t = 0
    csr_ptr[0] = csr_base
    for i in range(m):
        for p in range(width):
            col = ell_col[p * m + i] - ell_base
            if col < 0 or col >= n:
                break
            s += 1
        while t < coo_row.shape[0] and coo_row[t] - ell_base == i:
            s += 1
            t += 1
        csr_ptr[i + 1] = s + csr_base
    total[0] = s


@kernel(parallel=False)
def ell_to_csr(ell_col, ell_val, ell_base, n, width, coo_row, coo_col, coo_val, csr_ptr, csr_base, csr_col,
               csr_val):  # pragma: no cover - numba
    """Each row's ELL entries (up to its first padding entry), then its entries of the row-sorted COO part,
    into the CSR arrays from ``csr_ptr[i] - csr_base`` on (never past ``csr_ptr[i + 1]``); columns rebased
    from the ELL (and COO) base to the CSR base."""
    m = csr_ptr.shape[0] - 1
    nw = csr_val.shape[1]
    t = 0
    for i in range(m):
        dst = csr_ptr[i] - csr_base
        end = min(csr_ptr[i + 1] - csr_base, csr_col.shape[0])
        for p in range(width):
            k = p * m + i
            col = ell_col[k] - ell_base
            if col < 0 or col >= n or dst >= end:
                break
            csr_col[dst] = col + csr_base
            for w in range(nw):
                csr_val[dst, w] = ell_val[k, w]
            dst += 1
        while t < coo_row.shape[0] and coo_row[t] - ell_base == i:
            if dst < end:
                csr_col[dst] = coo_col[t] - ell_base + csr_base
                for w in range(nw):
                    csr_val[dst, w] = coo_val[t, w]
                dst += 1
            t += 1


# --- CSR <-> BSR ------------------------------------------------------------------------------------


@kernel(parallel=False)
def csr_bsr_ptr(row_ptr, col_ind, csr_base, bdim, nb, bsr_ptr, bsr_base, total):  # pragma: no cover - numba
    """The BSR row pointer of a CSR matrix cut in ``bdim x bdim`` blocks: the distinct block columns of
    each block row (a block holding at least one stored entry); ``total[0]``: the blocks."""
    m = row_ptr.shape[0] - 1
    mb = bsr_ptr.shape[0] - 1
    seen = np.full(nb, -1, np.int64)
    s = 0
    bsr_ptr[0] = bsr_base
    for r in range(mb):
        lo = row_ptr[r * bdim] - csr_base
        hi = row_ptr[min((r + 1) * bdim, m)] - csr_base
        for j in range(lo, hi):
            bc = (col_ind[j] - csr_base) // bdim
            if seen[bc] != r:
                seen[bc] = r
                s += 1
        bsr_ptr[r + 1] = s + bsr_base
    total[0] = s


@kernel(parallel=False)
def csr_to_bsr(direction, val, row_ptr, col_ind, csr_base, bdim, bsr_ptr, bsr_base, bsr_col,
               bsr_val):  # pragma: no cover - numba
    """The blocks of each block row, block columns ascending (a merge of its sorted CSR rows), with the CSR
    entries in place and zeros elsewhere; at most ``bsr_ptr[r + 1] - bsr_ptr[r]`` blocks per block row."""
    m = row_ptr.shape[0] - 1
    mb = bsr_ptr.shape[0] - 1
    bb = bdim * bdim
    nw = val.shape[1]
    cur = np.zeros(bdim, np.int64)
    end = np.zeros(bdim, np.int64)
    for r in range(mb):
        rows = min(bdim, m - r * bdim)
        for t in range(rows):
            cur[t] = row_ptr[r * bdim + t] - csr_base
            end[t] = row_ptr[r * bdim + t + 1] - csr_base
        dst = bsr_ptr[r] - bsr_base
        stop = min(bsr_ptr[r + 1] - bsr_base, bsr_col.shape[0])
        while dst < stop:
            bc = -1
            for t in range(rows):
                if cur[t] < end[t]:
                    c = (col_ind[cur[t]] - csr_base) // bdim
                    if bc < 0 or c < bc:
                        bc = c
            if bc < 0:
                break
            bsr_col[dst] = bc + bsr_base
            off = dst * bb
            for q in range(off, off + bb):
                for w in range(nw):
                    bsr_val[q, w] = 0
            for t in range(rows):
                while cur[t] < end[t]:
                    c = col_ind[cur[t]] - csr_base
                    if c // bdim != bc:
                        break
                    bj = c - bc * bdim
                    q = off + (t * bdim + bj if direction == 0 else bj * bdim + t)
                    for w in range(nw):
                        bsr_val[q, w] = val[cur[t], w]
                    cur[t] += 1
            dst += 1


@kernel(parallel=False)
def bsr_to_csr(direction, bsr_val, bsr_ptr, bsr_col, bsr_base, bdim, csr_base, csr_val, csr_ptr,
               csr_col):  # pragma: no cover - numba
    """Every element of every block (zeros included) into CSR, row by row, columns ascending within a
    block and blocks in storage order: an ``mb * bdim`` row matrix with ``nnzb * bdim^2`` entries."""
    mb = bsr_ptr.shape[0] - 1
    bb = bdim * bdim
    nw = bsr_val.shape[1]
    csr_ptr[0] = csr_base
    dst = 0
    for r in range(mb):
        lo = bsr_ptr[r] - bsr_base
        hi = bsr_ptr[r + 1] - bsr_base
        for bi in range(bdim):
            for k in range(lo, hi):
                c0 = (bsr_col[k] - bsr_base) * bdim
                for bj in range(bdim):
                    q = k * bb + (bi * bdim + bj if direction == 0 else bj * bdim + bi)
                    csr_col[dst] = c0 + bj + csr_base
                    for w in range(nw):
                        csr_val[dst, w] = bsr_val[q, w]
                    dst += 1
            csr_ptr[r * bdim + bi + 1] = dst + csr_base


# --- prune ------------------------------------------------------------------------------------------


@kernel(parallel=False)
def prune_dense(fill, A, threshold, base, ptr, total, val, ind):  # pragma: no cover - numba
    """Entries of the dense view ``A`` with ``|a| > threshold[0]``: their CSR row pointer and number
    (``total[0]``), or (fill) their values and columns, columns ascending."""
    t = threshold[0]
    m, n = A.shape
    if not fill:
        s = 0
        ptr[0] = base
        for i in range(m):
            for j in range(n):
                if abs(A[i, j]) > t:
                    s += 1
            ptr[i + 1] = s + base
        total[0] = s
        return
    for i in range(m):
        dst = ptr[i] - base
        end = ptr[i + 1] - base
        for j in range(n):
            if dst >= end:
                break
            if abs(A[i, j]) > t:
                val[dst] = A[i, j]
                ind[dst] = j + base
                dst += 1


@kernel(parallel=False)
def prune_csr(fill, val, row_ptr, col_ind, base_a, threshold, ptr, base_c, total, val_c,
              col_c):  # pragma: no cover - numba
    """Entries of a CSR matrix with ``|a| > threshold[0]``: C's row pointer and nonzeros (``total[0]``),
    or (fill) C's values and columns in A's order, columns rebased."""
    t = threshold[0]
    m = row_ptr.shape[0] - 1
    if not fill:
        s = 0
        ptr[0] = base_c
        for i in range(m):
            for j in range(row_ptr[i] - base_a, row_ptr[i + 1] - base_a):
                if abs(val[j]) > t:
                    s += 1
            ptr[i + 1] = s + base_c
        total[0] = s
        return
    for i in range(m):
        dst = ptr[i] - base_c
        end = ptr[i + 1] - base_c
        for j in range(row_ptr[i] - base_a, row_ptr[i + 1] - base_a):
            if dst >= end:
                break
            if abs(val[j]) > t:
                val_c[dst] = val[j]
                col_c[dst] = col_ind[j] - base_a + base_c
                dst += 1


def percentile_threshold(A, pos, work):
    """``work[:A.size]`` := the magnitudes of the 2-D view ``A`` sorted ascending, then ``work[0]`` := the
    one at ``pos`` (the by-percentage threshold, kept in the caller's temp_buffer as rocSPARSE keeps it).

    Plain numpy rather than a numba kernel: the work is one sort, which numpy runs compiled already,
    while compiling numba's sort for each precision costs seconds.
    """
    s = np.sort(np.abs(A).ravel())
    work[:s.size] = s
    work[0] = s[pos]
