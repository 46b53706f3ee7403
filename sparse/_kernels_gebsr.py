"""numba kernels of the general BSR (GEBSR) routines (:mod:`._gebsr`).

They check nothing: the routines validated everything.  A GEBSR block of ``rbd x cbd`` values stores
element ``(r, c)`` at ``r * cbd + c`` (direction row) or ``c * rbd + r`` (direction column), as
rocSPARSE's.  The products and the CSR <-> GEBSR conversions of square blocks do not come here: the
routines hand them to the BSR kernels of :mod:`._kernels_formats`, as rocSPARSE hands them to its BSR code;
gebsr2gebsc, cscsort and the compress filter reuse the kernels of :mod:`._kernels`, :mod:`._kernels_conv`
and :mod:`._kernels_formats` (csr2csc's counting sort, csrsort's, prune_csr2csr's).

The conversions are serial and move values as 32-bit words (``(count, itemsize / 4)`` uint32 views), so
each compiles once per index type for all four precisions.  :func:`regroup` is the one conversion between
two blockings of a matrix (CSR being the blocking in ``1 x 1`` blocks): csr2gebsr, gebsr2gebsr and their
``_nnz`` stages.  The products add each output's terms in one fixed order, a row's blocks in storage
order and a block's columns ascending, whatever the kernel, the layout of the blocks or the number of
right-hand sides: results are bitwise reproducible, and column ``j`` of gebsrmm is gebsrmv's product of
column ``j`` bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uintp

from rocmath.kernel import kernel

from ._kernels_formats import _bsr_blocks, _bsr_row_groups

# --- conversions ----------------------------------------------------------------------------------------


@kernel(parallel=False)
def regroup(fill, direction, ptr_a, col_a, base_a, val_a, rbd_a, cbd_a, m, nb_c, ptr_c, base_c, col_c, val_c, rbd_c,
            cbd_c, total):  # pragma: no cover - numba
    """A matrix of ``rbd_a x cbd_a`` blocks (CSR: ``1 x 1``; ``m`` rows, the block rows in ``ptr_a``, block
    columns ascending) in ``rbd_c x cbd_c`` blocks, ``len(ptr_c) - 1`` block rows and ``nb_c`` block columns: a
    block of C is stored when any element of a stored block of A (zeros included) falls in it, block columns
    ascending.

    Not ``fill``: C's block-row pointer (``ptr_c[0] = base_c``) and ``total[0]`` its blocks, the distinct
    block columns each block row of A reaches marked as :func:`._kernels_formats.csr_bsr_ptr` marks them (a
    block column outside ``[0, nb_c)`` counts nothing).  ``fill``: C's block columns and values from ``ptr_c``
    on (at most ``ptr_c[i + 1] - ptr_c[i]`` blocks per block row), each block zeroed, then A's elements copied
    in; rows past ``m`` stay zero.  Each block row of C merges the block rows of A it overlaps (a cursor each,
    with the block columns of C its block reaches): the next block column is the smallest one past the last
    that a cursor's block reaches, then the blocks of A reaching it are copied.
    """
    mb_c = ptr_c.shape[0] - 1
    rows = rbd_c // rbd_a + 2
    cur = np.empty(rows, np.int64)
    end = np.empty(rows, np.int64)
    if not fill:
        seen = np.full(nb_c, -1, np.int64)
        s = 0
        ptr_c[0] = base_c
        for bi in range(mb_c):
            e0 = bi * rbd_c
            r0 = e0 // rbd_a
            r1 = (min(e0 + rbd_c, m) - 1) // rbd_a + 1
            for k in range(ptr_a[r0] - base_a, ptr_a[r1] - base_a):
                ja = col_a[k] - base_a
                jc = ja * cbd_a // cbd_c
                hi = jc if cbd_a == 1 else ((ja + 1) * cbd_a - 1) // cbd_c  # (CSR: one column, one block)
                while jc <= hi:
                    if 0 <= jc < nb_c and seen[jc] != bi:
                        seen[jc] = bi
                        s += 1
                    jc += 1
            ptr_c[bi + 1] = s + base_c
        total[0] = s
        return
    nw = val_a.shape[1]
    bb_a = rbd_a * cbd_a
    bb_c = rbd_c * cbd_c
    clo = np.empty(rows, np.int64)
    chi = np.empty(rows, np.int64)
    for bi in range(mb_c):
        e0 = bi * rbd_c
        e1 = min(e0 + rbd_c, m)
        r0 = e0 // rbd_a
        nr = (e1 - 1) // rbd_a - r0 + 1
        for t in range(nr):
            cur[t] = ptr_a[r0 + t] - base_a
            end[t] = ptr_a[r0 + t + 1] - base_a
            if cur[t] < end[t]:
                ja = col_a[cur[t]] - base_a
                clo[t] = ja * cbd_a // cbd_c
                chi[t] = ((ja + 1) * cbd_a - 1) // cbd_c
        dst = ptr_c[bi] - base_c
        stop = min(ptr_c[bi + 1] - base_c, col_c.shape[0])
        last = 0
        started = False
        while dst < stop:
            best = 0
            found = False
            for t in range(nr):
                while started and cur[t] < end[t] and chi[t] <= last:
                    cur[t] += 1
                    if cur[t] < end[t]:
                        ja = col_a[cur[t]] - base_a
                        clo[t] = ja * cbd_a // cbd_c
                        chi[t] = ((ja + 1) * cbd_a - 1) // cbd_c
                if cur[t] < end[t]:
                    lo = clo[t] if not started or clo[t] > last else last + 1
                    if not found or lo < best:
                        best = lo
                        found = True
            if not found:
                break
            col_c[dst] = best + base_c
            off_c = dst * bb_c
            for q in range(off_c, off_c + bb_c):
                for w in range(nw):
                    val_c[q, w] = 0
            c_lo = best * cbd_c
            c_hi = c_lo + cbd_c
            for t in range(nr):
                r = r0 + t
                i_lo = max(e0, r * rbd_a)
                i_hi = min(e1, (r + 1) * rbd_a)
                for k in range(cur[t], end[t]):
                    a_lo = (col_a[k] - base_a) * cbd_a
                    if a_lo >= c_hi:
                        break
                    off_a = k * bb_a
                    for i in range(i_lo, i_hi):
                        ia = i - r * rbd_a
                        ic = i - e0
                        for j in range(max(c_lo, a_lo), min(c_hi, a_lo + cbd_a)):
                            ja = j - a_lo
                            jc = j - c_lo
                            qa = off_a + (ia * cbd_a + ja if direction == 0 else ja * rbd_a + ia)
                            qc = off_c + (ic * cbd_c + jc if direction == 0 else jc * rbd_c + ic)
                            for w in range(nw):
                                val_c[qc, w] = val_a[qa, w]
            dst += 1
            last = best
            started = True


# --- products -------------------------------------------------------------------------------------------
#
# As in :mod:`._kernels_formats`, each parallel kernel calls a function of its own for one group of block
# rows instead of inlining the loop nest into its parallel loop (numba's parallel passes would process it
# once more per signature).


@njit(nogil=True, cache=True, error_model="numpy")
def _mv_group(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1):  # pragma: no cover - numba
    # literal row counts for blocks of fewer than four rows: the group's unused sums then compile away
    if rbd == 1:
        _bsr_row_groups(di, dj, 1, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif rbd == 2:
        _bsr_row_groups(di, dj, 2, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif rbd == 3:
        _bsr_row_groups(di, dj, 3, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    elif rbd <= 8:
        _bsr_row_groups(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1)
    else:
        _bsr_blocks(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, r0, r1, np.empty(rbd, y.dtype))


@kernel(contiguous=True)
def gebsr_mv(direction, alpha, row_ptr, base, col_ind, val, rbd, cbd, x, beta, y, bounds):  # pragma: no cover
    """``y := alpha A x + beta y`` for a GEBSR matrix A of ``rbd x cbd`` blocks (block row ``r``: blocks
    ``row_ptr[r] - base ..< row_ptr[r + 1] - base``), the block rows in ``len(bounds) - 1`` groups run in
    parallel.  Each row adds its blocks in storage order, a block's columns ascending: blocks of up to 8 rows
    four rows at a time over a whole block row, larger ones block by block (:func:`._kernels_formats.bsr_mv`'s
    ways, for rectangular blocks).  ``alpha == 0 and beta == 1`` leaves y alone; beta == 0 never reads y."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    di = uintp(cbd) if direction == 0 else uintp(1)
    dj = uintp(1) if direction == 0 else uintp(rbd)
    for grp in prange(bounds.shape[0] - 1):
        _mv_group(di, dj, rbd, cbd, a, b, row_ptr, base, col_ind, val, x, y, bounds[grp], bounds[grp + 1])


@njit(nogil=True, cache=True, error_model="numpy")
def _mm_group(row_major, a, b, row_ptr, base, col_ind, val, rbd, cbd, B, C, r0, r1, acc):  # pragma: no cover
    """Block rows ``r0 ..< r1`` of ``C := alpha A B + beta C``; ``acc`` (``rbd x ncols``) holds a block row's
    sums, each adding its terms block by block, columns ascending, as :func:`_mv_group`."""
    bb = rbd * cbd
    ncols = C.shape[1]
    for r in range(r0, r1):
        acc[:, :] = 0
        for k in range(row_ptr[r] - base, row_ptr[r + 1] - base):
            c0 = (col_ind[k] - base) * cbd
            off = k * bb
            for i in range(rbd):
                for j in range(cbd):
                    v = val[off + i * cbd + j] if row_major else val[off + j * rbd + i]
                    brow = c0 + j
                    for jj in range(ncols):
                        acc[i, jj] += v * B[brow, jj]
        for i in range(rbd):
            row = r * rbd + i
            for jj in range(ncols):
                s = a * acc[i, jj]
                C[row, jj] = s if b == 0 else s + b * C[row, jj]


@kernel
def gebsr_mm(direction, alpha, row_ptr, base, col_ind, val, rbd, cbd, B, beta, C, bounds):  # pragma: no cover
    """``C := alpha A B + beta C`` for a GEBSR matrix A of ``rbd x cbd`` blocks and 2-D views ``B`` (the rows
    ``col * cbd + j`` the blocks multiply) and ``C`` (``mb * rbd`` rows) of any layout, the block rows in
    ``len(bounds) - 1`` groups run in parallel.  ``alpha == 0 and beta == 1`` leaves C alone; beta == 0 never
    reads C."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    for grp in prange(bounds.shape[0] - 1):
        _mm_group(direction == 0, a, b, row_ptr, base, col_ind, val, rbd, cbd, B, C, bounds[grp], bounds[grp + 1],
                  np.empty((rbd, C.shape[1]), C.dtype))
