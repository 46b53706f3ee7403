"""numba kernels of the ELL, HYB and BSR formats, the prune conversions and gemvi / gemmi (:mod:`._formats`).

They check nothing: the routines validated everything.  Layouts are rocSPARSE's: an
``m x width`` ELL matrix stores entry ``p`` of row ``i`` at ``p * m + i`` (column-major), its
padding has column index -1 and value 0, and a row ends at its first column outside
``[0, n)``; a BSR or blocked-ELL block of ``bdim x bdim`` values stores element ``(r, c)`` at
``r * bdim + c`` (direction row) or ``c * bdim + r`` (direction column).

The non-transposed products of the module launch :func:`block_rows`: ELL (blocked ELL with 1 x 1
blocks), blocked ELL, BSR, and gemvi / gemmi (a CSR operand is a BSR matrix with 1 x 1 blocks); it also
scales by beta alone (no blocks, alpha 0).  It sends the one-column products on contiguous vectors to
the matrix-vector kernels :func:`bsr_mv` and :func:`ell_mv` (csrmv's for a CSR operand), whose loops
know the vectors' unit stride and keep their sums in registers or in cache, and the rest to
:func:`block_columns` (any number of columns, any layout).  :func:`coo_mv` computes the product of a
row-sorted COO matrix (a HYB matrix's COO part) in parallel, :func:`scatter_product` the transposed
ELL products and the other COO ones, scattering serially in storage order.  Every kernel adds each
output's terms in an order fixed by the inputs (a row: its blocks or entries in storage order, a
block's columns ascending), the same in all of them: results are bitwise reproducible and do not depend
on the kernel chosen.

The conversions are serial: they move memory, and a serial kernel compiles in a fraction of the
time of a parallel one.  They move values as 32-bit words, so each compiles once per index type for
all four precisions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uintp

from rocmath.kernel import kernel, pool_threads

from ._kernels import csrmv_rows

# --- products -----------------------------------------------------------------------------------------


def block_rows(direction, stop, alpha, row_ptr, base, width, col_ind, val, bdim, B, beta, C, bounds) -> None:
    """``C := alpha A B + beta C`` for a block-row matrix A (arguments as :func:`block_columns`'s): the launch
    entry of every non-transposed product.  One column on contiguous arrays goes to a matrix-vector kernel
    (BSR: :func:`bsr_mv` on the block-row groups of ``bounds``, with 1 x 1 blocks csrmv's
    :func:`._kernels.csrmv_rows`; ELL: :func:`ell_mv`), anything else to :func:`block_columns`.  All of
    them add the terms in the same order: the choice never changes a bit."""
    if C.shape[1] == 1:
        x, y = B[:, 0], C[:, 0]
        if all(a.flags.c_contiguous for a in (x, y, val, col_ind, row_ptr)) and (width < 0 or bdim == 1):
            if width < 0 and bdim == 1:
                if not (alpha[0] == 0 and beta[0] == 1):
                    csrmv_rows(False, alpha, val, row_ptr, col_ind, base, x, beta, y, bounds, pool_threads())
            elif width < 0:
                bsr_mv(direction, alpha, row_ptr, base, col_ind, val, bdim, x, beta, y, bounds)
            else:
                ell_mv(stop, alpha, base, width, col_ind, val, x, beta, y)
            return
    block_columns(direction, stop, alpha, row_ptr, base, width, col_ind, val, bdim, B, beta, C, bounds)


@njit(nogil=True, cache=True, inline="always")
def _rows4(g, bd, di):  # pragma: no cover - numba
    """Offsets in a block of rows g ..< g + 4 (the last row repeated past ``bd``)."""
    return (uintp(g) * di, uintp(min(g + 1, bd - 1)) * di, uintp(min(g + 2, bd - 1)) * di,
            uintp(min(g + 3, bd - 1)) * di)


@njit(nogil=True, cache=True, inline="always")
def _put4(y, row, rows, a, b, s0, s1, s2, s3):  # pragma: no cover - numba
    """``y[row + q] := a s_q + b y[row + q]`` for the first ``rows`` (up to four) of the sums; b == 0 never
    reads y."""
    y[row] = a * s0 if b == 0 else a * s0 + b * y[row]
    if rows > 1:
        y[row + 1] = a * s1 if b == 0 else a * s1 + b * y[row + 1]
    if rows > 2:
        y[row + 2] = a * s2 if b == 0 else a * s2 + b * y[row + 2]
    if rows > 3:
        y[row + 3] = a * s3 if b == 0 else a * s3 + b * y[row + 3]


@njit(nogil=True, cache=True, inline="always")
def _bsr_row_groups(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1):  # pragma: no cover - numba
    """Block rows ``r0 ..< r1`` of ``y := alpha A x + beta y``, ``rbd x cbd`` blocks (square for BSR, general
    for GEBSR) with element ``(i, j)`` of block ``k`` at ``k rbd cbd + i di + j dj``.  Four rows of a block row
    run together, their sums in registers, in one flat loop over the block row's (block, column) pairs: a loop
    per block would run only ``cbd`` times (the last group repeats the last row when 4 does not divide
    ``rbd``; the copies are not stored)."""
    ucbd = uintp(cbd)
    bb = uintp(rbd) * ucbd
    zero = np.zeros(1, y.dtype)[0]
    for r in range(r0, r1):
        lo = uintp(row_ptr[r] - base)
        hi = uintp(row_ptr[r + 1] - base)
        for g in range(0, rbd, 4):
            q0, q1, q2, q3 = _rows4(g, rbd, di)
            s0 = s1 = s2 = s3 = zero
            if lo < hi:
                k = lo
                c0 = uintp(col_ind[k] - base) * ucbd
                off = k * bb
                j = uintp(0)
                for _ in range((hi - lo) * ucbd):
                    xj = x[c0 + j]
                    e = off + j * dj
                    s0 += val[e + q0] * xj
                    s1 += val[e + q1] * xj
                    s2 += val[e + q2] * xj
                    s3 += val[e + q3] * xj
                    j += uintp(1)
                    if j == ucbd:
                        j = uintp(0)
                        k += uintp(1)
                        off += bb
                        if k < hi:
                            c0 = uintp(col_ind[k] - base) * ucbd
            _put4(y, uintp(r) * uintp(rbd) + uintp(g), rbd - g, a, b, s0, s1, s2, s3)


@njit(nogil=True, cache=True, inline="always")
def _bsr_small(di, dj, bd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1):  # pragma: no cover - numba
    """As :func:`_bsr_row_groups` (the same four-row groups, the same order of the terms) with a loop per block:
    inlined with a literal ``bd`` of at most 4, that loop unrolls into straight code."""
    ubd = uintp(bd)
    bb = ubd * ubd
    zero = np.zeros(1, y.dtype)[0]
    for r in range(r0, r1):
        lo = uintp(row_ptr[r] - base)
        hi = uintp(row_ptr[r + 1] - base)
        q0, q1, q2, q3 = _rows4(0, bd, di)
        s0 = s1 = s2 = s3 = zero
        for k in range(lo, hi):
            c0 = uintp(col_ind[k] - base) * ubd
            off = k * bb
            for j in range(ubd):
                xj = x[c0 + j]
                e = off + j * dj
                s0 += val[e + q0] * xj
                s1 += val[e + q1] * xj
                s2 += val[e + q2] * xj
                s3 += val[e + q3] * xj
        _put4(y, uintp(r) * ubd, bd, a, b, s0, s1, s2, s3)


@njit(nogil=True, cache=True, inline="always")
def _bsr_blocks(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1, acc):  # pragma: no cover - numba
    """As :func:`_bsr_row_groups` for large ``rbd x cbd`` blocks (square for BSR, general for GEBSR): one pass
    over the blocks, so that a block is read once while it is in cache, into ``acc`` (``rbd`` sums), along its
    contiguous lines: a row-major block row by row (one dot product each), a column-major one column by column
    (each row's terms still in column order)."""
    urbd = uintp(rbd)
    ucbd = uintp(cbd)
    bb = urbd * ucbd
    for r in range(r0, r1):
        for i in range(rbd):
            acc[i] = 0
        for k in range(uintp(row_ptr[r] - base), uintp(row_ptr[r + 1] - base)):
            c0 = uintp(col_ind[k] - base) * ucbd
            off = k * bb
            if di == 1:
                for j in range(ucbd):
                    xj = x[c0 + j]
                    e = off + j * dj
                    for i in range(urbd):
                        acc[i] += val[e + i] * xj
            else:
                for i in range(urbd):
                    s = acc[i]
                    e = off + i * di
                    for j in range(ucbd):
                        s += val[e + j] * x[c0 + j]
                    acc[i] = s
        for i in range(rbd):
            row = uintp(r) * urbd + uintp(i)
            y[row] = a * acc[i] if b == 0 else a * acc[i] + b * y[row]


@njit(nogil=True, cache=True, inline="always")
def _ell_rows(stop, a, b, base, width, col_ind, val, x, y, r0, cnt):  # pragma: no cover - numba
    """Rows ``r0 ..< r0 + cnt`` of an ELL product, walking the columns of the (column-major) arrays: each row
    adds its entry ``p`` for ``p = 0, 1, ...`` in order while a slab reads contiguous runs; a column outside
    ``[0, n)`` is padding, which ends the row (``stop``) or is skipped."""
    m = y.shape[0]
    n = uintp(x.shape[0])
    acc = np.zeros(cnt, y.dtype)
    live = np.ones(cnt, np.bool_)
    ended = 0
    for p in range(width):
        if ended == cnt:
            break
        kb = uintp(p * m + r0)
        for t in range(cnt):
            if live[t]:
                k = kb + uintp(t)
                col = uintp(col_ind[k] - base)  # a negative column wraps past n
                if col < n:
                    acc[t] += val[k] * x[col]
                elif stop:
                    live[t] = False
                    ended += 1
    for t in range(cnt):
        i = r0 + t
        y[i] = a * acc[t] if b == 0 else a * acc[t] + b * y[i]


@njit(nogil=True, cache=True, inline="always")
def _row_start(row_ind, t):  # pragma: no cover - numba
    """The first entry at or after ``t`` that starts a row of the row-sorted indices (their length if none)."""
    nnz = row_ind.shape[0]
    while 0 < t < nnz and row_ind[t] == row_ind[t - 1]:
        t += 1
    return t


@njit(nogil=True, cache=True, inline="always")
def _coo_rows(a, b, row_ind, base, col_ind, val, x, y, c, chunks):  # pragma: no cover - numba
    """Chunk ``c`` of ``chunks`` of a row-sorted COO product: the entries ``lo ..< hi`` of an equal share moved
    to row starts, and the rows from the first one's to the next chunk's (all of them for the first and last
    chunks), which it alone scales by beta and then adds its entries to, in storage order."""
    nnz = row_ind.shape[0]
    m = y.shape[0]
    lo = _row_start(row_ind, (nnz * c) // chunks)
    hi = _row_start(row_ind, (nnz * (c + 1)) // chunks)
    first = 0 if c == 0 else (row_ind[lo] - base if lo < nnz else m)
    last = m if c + 1 == chunks else (row_ind[hi] - base if hi < nnz else m)
    if b == 0:
        for i in range(first, last):
            y[i] = 0
    elif b != 1:
        for i in range(first, last):
            y[i] = b * y[i]
    if a == 0:
        return
    t = lo
    while t < hi:
        row = row_ind[t]
        i = uintp(row - base)
        s = y[i]
        while t < hi and row_ind[t] == row:
            s += a * val[t] * x[uintp(col_ind[t] - base)]
            t += 1
        y[i] = s


#: Rows of an ELL matrix that :func:`ell_mv` sums together (their sums fit in the L1 cache in every precision).
ELL_SLAB = 1024
#: Entries of a COO matrix per parallel chunk of :func:`coo_mv` (at most 256 chunks).
COO_CHUNK = 4096

# Each parallel kernel below calls a function of its own for one group of rows rather than inlining the loop
# nests into its parallel loop: numba's parallel passes would process them once more per signature (seconds of
# compilation).  One kernel per format, too: a kernel serving all three compiles slower than the three together.


@njit(nogil=True, cache=True, error_model="numpy")
def _bsr_group(di, dj, bd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1):  # pragma: no cover - numba
    # literal block dimensions for the smallest blocks, whose per-block loop overhead would dominate
    if bd == 2:
        _bsr_small(di, dj, 2, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif bd == 3:
        _bsr_small(di, dj, 3, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif bd == 4:
        _bsr_small(di, dj, 4, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif bd <= 8:
        _bsr_row_groups(di, dj, bd, bd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    else:
        _bsr_blocks(di, dj, bd, bd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1, np.empty(bd, y.dtype))


@kernel(contiguous=True)
def bsr_mv(direction, alpha, row_ptr, base, col_ind, val, bdim, x, beta, y, bounds):  # pragma: no cover - numba
    """``y := alpha A x + beta y`` for a BSR matrix A of ``bdim x bdim`` blocks (block row ``r``: blocks
    ``row_ptr[r] - base ..< row_ptr[r + 1] - base``), the block rows in ``len(bounds) - 1`` groups run in
    parallel.  Each row adds its blocks in storage order, a block's columns ascending: blocks up to 8 x 8 four
    rows at a time over a whole block row (2 x 2 to 4 x 4 in loops compiled for their size), larger ones block
    by block.  ``alpha == 0 and beta == 1`` leaves y alone; beta == 0 never reads y."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    di = uintp(bdim) if direction == 0 else uintp(1)
    dj = uintp(1) if direction == 0 else uintp(bdim)
    for grp in prange(bounds.shape[0] - 1):
        _bsr_group(di, dj, bdim, a, b, row_ptr, base, col_ind, val, x, y, bounds[grp], bounds[grp + 1])


@njit(nogil=True, cache=True, error_model="numpy")
def _ell_group(stop, a, b, base, width, col_ind, val, x, y, r0, cnt):  # pragma: no cover - numba
    _ell_rows(stop, a, b, base, width, col_ind, val, x, y, r0, cnt)


@kernel(contiguous=True)
def ell_mv(stop, alpha, base, width, col_ind, val, x, beta, y):  # pragma: no cover - numba
    """``y := alpha A x + beta y`` for an ``m x n`` ELL matrix A of width ``width``, slabs of ``ELL_SLAB`` rows in
    parallel, each row adding its entries in order.  A column outside ``[0, n)`` is padding, which ends its row
    (``stop``) or is skipped.  ``alpha == 0 and beta == 1`` leaves y alone; beta == 0 never reads y; width 0 only
    scales (``alpha * 0 + beta y``)."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    m = y.shape[0]
    for slab in prange((m + ELL_SLAB - 1) // ELL_SLAB):
        r0 = slab * ELL_SLAB
        _ell_group(stop, a, b, base, width, col_ind, val, x, y, r0, min(ELL_SLAB, m - r0))


@njit(nogil=True, cache=True, error_model="numpy")
def _coo_group(a, b, row_ind, base, col_ind, val, x, y, c, chunks):  # pragma: no cover - numba
    _coo_rows(a, b, row_ind, base, col_ind, val, x, y, c, chunks)


@kernel(contiguous=True)
def coo_mv(alpha, row_ind, col_ind, base, val, x, beta, y):  # pragma: no cover - numba
    """``y := alpha A x + beta y`` for a COO matrix A whose entries are sorted by row (a HYB matrix's COO part),
    as :func:`scatter_product` computes it: y scaled (beta == 0 writes zeros), then each entry ``(i, j, v)``
    adds ``alpha v x[j]`` to ``y[i]`` in storage order; alpha == 0 only scales.  Chunks of about ``COO_CHUNK``
    entries cut at row starts run in parallel, each row (and its scaling) one chunk's.  ``alpha == 0 and
    beta == 1`` leaves y alone."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    chunks = max(1, min(256, row_ind.shape[0] // COO_CHUNK))
    for c in prange(chunks):
        _coo_group(a, b, row_ind, base, col_ind, val, x, y, np.int64(c), chunks)


@kernel
def block_columns(direction, stop, alpha, row_ptr, base, width, col_ind, val, bdim, B, beta, C,
                  bounds):  # pragma: no cover - numba
    """``C := alpha A B + beta C`` for a block-row matrix A of ``bdim x bdim`` blocks, ``C`` holding
    ``mb * bdim`` rows (``mb`` block rows) and ``B`` the rows ``col * bdim + c`` the blocks multiply, any
    number of columns in any layout.  The block rows in ``len(bounds) - 1`` groups run in parallel.

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
def bsr_to_csr(direction, bsr_val, bsr_ptr, bsr_col, bsr_base, rbd, cbd, csr_base, csr_val, csr_ptr,
               csr_col):  # pragma: no cover - numba
    """Every element of every ``rbd x cbd`` block (zeros included; square for BSR, general for GEBSR) into CSR,
    row by row: each row's blocks in storage order, a block's columns ascending; an ``mb * rbd`` row matrix
    with ``nnzb * rbd * cbd`` entries."""
    mb = bsr_ptr.shape[0] - 1
    bb = rbd * cbd
    nw = bsr_val.shape[1]
    csr_ptr[0] = csr_base
    dst = 0
    for r in range(mb):
        lo = bsr_ptr[r] - bsr_base
        hi = bsr_ptr[r + 1] - bsr_base
        for bi in range(rbd):
            for k in range(lo, hi):
                c0 = (bsr_col[k] - bsr_base) * cbd
                for bj in range(cbd):
                    q = k * bb + (bi * cbd + bj if direction == 0 else bj * rbd + bi)
                    csr_col[dst] = c0 + bj + csr_base
                    for w in range(nw):
                        csr_val[dst, w] = bsr_val[q, w]
                    dst += 1
            csr_ptr[r * rbd + bi + 1] = dst + csr_base


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
