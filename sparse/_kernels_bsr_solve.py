"""numba kernels of rocmath.sparse's BSR routines in :mod:`rocmath.sparse._bsr_solve`: the incomplete
Cholesky factorization of a BSR matrix (bsric0), the masked BSR product (bsrxmv) and the padding of the
last diagonal block (bsrpad_value).  bsrsm needs none of its own: it runs the triangular solve of
:func:`rocmath.sparse._kernels_precond.trsm`, which csrsm and bsrsv share.

They check nothing: the routines validated everything.  All are serial (compiled without ``parallel``, so
that they cost one small compilation each): bsric0 runs its block rows in order (a block row depends on
earlier ones only), bsrxmv its masked block rows in mask order, each row summing its blocks in storage
order, so that every result is reproducible bit for bit.

BSR values are blocks of ``bd * bd`` entries, row-major in the block when ``row_major`` (rocSPARSE's
``direction_row``), column-major otherwise: entry (r, c) of block p is ``val[p * bd * bd + r * rs + c * cs]``
with ``(rs, cs) = (bd, 1)`` or ``(1, bd)``.
"""

from __future__ import annotations

import numba
import numpy as np

from rocmath.kernel import kernel

from ._kernels_precond import ZERO, _reduce_flags

# --- bsric0 ---------------------------------------------------------------------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _bsric0_block_row(rs, cs, bd, val, row_ptr, col_ind, base, diag, i, rsum, flags):  # pragma: no cover - numba
    """Block row i of the incomplete Cholesky factor, in place, as rocSPARSE's bsric0 kernel orders it.

    First every scalar row r of the block row through the blocks left of the diagonal block (block row by
    block row, the block's columns in order): ``l_RC := (a_RC - sum_{c < C} l_Rc conj(l_Cc)) / l_CC`` over
    the columns both rows hold, ``rsum[r]`` gathering ``sum |l_Rc|^2``; then the diagonal block column by
    column: ``l_jj := sqrt(|a_jj - rsum[j]|)``, then the rows below it.  A zero ``l_CC`` of a dependency
    (its block row flagged) or of this block's diagonal (this block row flagged) divides as 1; a missing
    diagonal block leaves the row as it is (flagged), and a dependency without one ends the first stage
    there (the rest of those blocks keep their values, which the diagonal block's sums then use).
    """
    bd2 = bd * bd
    d = diag[i]
    if d < 0:
        flags[i] |= ZERO
        return
    lo = row_ptr[i] - base
    one = np.ones(1, val.dtype)[0]
    zero = np.zeros(1, val.dtype)[0]
    for r in range(bd):
        rsum[r] = zero
    for r in range(bd):
        for j in range(lo, d):
            bc = col_ind[j] - base
            dk = diag[bc]
            if dk < 0:
                break
            klo = row_ptr[bc] - base
            for k in range(bd):
                piv = val[dk * bd2 + k * (rs + cs)]
                if piv == 0:
                    flags[bc] |= ZERO
                    piv = one
                acc = zero
                q = lo  # the blocks of row i matching those of row bc (both sorted: one merge)
                for p in range(klo, dk + 1):
                    cp = col_ind[p]
                    while q < j and col_ind[q] < cp:
                        q += 1
                    if col_ind[q] != cp:
                        continue
                    width = bd if p < dk else k  # the columns left of column k of block bc
                    for t in range(width):
                        acc += val[q * bd2 + r * rs + t * cs] * np.conj(val[p * bd2 + k * rs + t * cs])
                v = (val[j * bd2 + r * rs + k * cs] - acc) / piv
                val[j * bd2 + r * rs + k * cs] = v
                rsum[r] += v * np.conj(v)
    db = d * bd2
    for jj in range(bd):
        dd = db + jj * (rs + cs)
        val[dd] = np.sqrt(abs(val[dd] - rsum[jj]))
        piv = val[dd]
        if piv == 0:
            flags[i] |= ZERO
            piv = one
        for r in range(jj + 1, bd):
            acc = zero
            for j in range(lo, d):
                for t in range(bd):
                    acc += val[j * bd2 + r * rs + t * cs] * np.conj(val[j * bd2 + jj * rs + t * cs])
            for t in range(jj):
                acc += val[db + r * rs + t * cs] * np.conj(val[db + jj * rs + t * cs])
            v = (val[db + r * rs + jj * cs] - acc) / piv
            val[db + r * rs + jj * cs] = v
            rsum[r] += v * np.conj(v)


@kernel(parallel=False, contiguous=True)
def bsric0(row_major, bd, val, row_ptr, col_ind, base, diag, flags, zero_pivot):  # pragma: no cover - numba
    """Incomplete Cholesky factorization with no fill-in of a sorted BSR matrix, in place: the blocks left
    of the diagonal and the diagonal blocks' lower triangles become L (``A ~ L L^H`` on that pattern); the
    rest is not touched.  ``diag``: the analysis' diagonal block positions (-1: none).  A block row with a
    zero pivot or without a diagonal block (plus ``base``), if smaller, becomes ``zero_pivot[0]``.
    ``flags``: one int32 per block row (scratch)."""
    rs, cs = (bd, 1) if row_major else (1, bd)
    m = diag.shape[0]
    for i in range(m):
        flags[i] = 0
    rsum = np.empty(bd, val.dtype)
    for i in range(m):
        _bsric0_block_row(rs, cs, bd, val, row_ptr, col_ind, base, diag, i, rsum, flags)
    _reduce_flags(flags, base, ZERO, zero_pivot)


# --- bsrxmv ---------------------------------------------------------------------------------------------


@kernel(parallel=False, contiguous=True)
def bsrxmv(product, row_major, bd, alpha, val, use_mask, mask, nrows, row_ptr, end_ptr, col_ind, base, x, beta,
           y):  # pragma: no cover - numba
    """The block rows ``mask[t] - base`` (t < nrows; all ``nrows`` block rows in order unless ``use_mask``)
    of ``y``: ``y_i := alpha A_i x + beta y_i`` (``product``; block row i's blocks ``row_ptr[i] .. end_ptr[i]``
    minus base, in that order; ``beta == 0`` does not read y; nothing when ``alpha == 0`` and
    ``beta == 1``), or ``y_i := beta y_i`` (not ``product``; nothing when ``beta == 1``)."""
    a = alpha[0]
    b = beta[0]
    if b == 1 and (a == 0 or not product):
        return
    rs, cs = (bd, 1) if row_major else (1, bd)
    bd2 = bd * bd
    zero = np.zeros(1, y.dtype)[0]
    for t in range(nrows):
        row = mask[t] - base if use_mask else t
        if not product:
            for bi in range(bd):
                y[row * bd + bi] *= b
            continue
        lo = row_ptr[row] - base
        hi = end_ptr[row] - base
        for bi in range(bd):
            s = zero
            for j in range(lo, hi):
                c0 = (col_ind[j] - base) * bd
                for bj in range(bd):
                    s += val[j * bd2 + bi * rs + bj * cs] * x[c0 + bj]
            if b != 0:
                y[row * bd + bi] = b * y[row * bd + bi] + a * s
            else:
                y[row * bd + bi] = a * s


# --- bsrpad_value ---------------------------------------------------------------------------------------


@kernel(parallel=False, contiguous=True)
def bsrpad_value(is_sorted, m, mb, bd, value, base, val, row_ptr, col_ind):  # pragma: no cover - numba
    """``value`` on the diagonal entries ``m % bd .. bd - 1`` of block row mb - 1's block in block column
    mb - 1 (sorted: its last block, when that is the one; otherwise its last block of that column), as
    rocSPARSE's kernels; nothing when there is no such block."""
    start = row_ptr[mb - 1] - base
    end = row_ptr[mb] - base
    found = -1
    if is_sorted:
        if end > start and col_ind[end - 1] - base == mb - 1:
            found = end - 1
    else:
        for j in range(start, end):
            if col_ind[j] - base == mb - 1:
                found = j
    if found < 0:
        return
    for i in range(m % bd, bd):
        val[found * bd * bd + i * (bd + 1)] = value[0]
