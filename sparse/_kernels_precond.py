"""numba kernels of rocmath.sparse's preconditioners (ILU0, IC0), their triangular solves (csrsm,
bsrsv), the banded solvers with pivoting (gtsv, gtsv/gpsv interleaved) and graph colouring (csrcolor).

They check nothing: the routines validated everything.  The factorizations run their rows in
order (one pass; the analysis gave the diagonal positions); the triangular solves run on the level
schedule of :func:`rocmath.sparse._kernels_solve.csrsv_levels` (a row depends only on rows of
earlier levels), a level's rows in parallel chunks when it is wide.  Every row sums in storage
order, so the schedule never changes a bit of the result.  Pivot positions are gathered into
per-row flags and reduced at the end (no atomics).

BSR values are blocks of ``bd * bd`` entries, row-major in the block when ``row_major`` (rocSPARSE's
``direction_row``), column-major otherwise; CSR is the ``bd == 1`` case.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from rocmath.kernel import kernel

from ._kernels_solve import LEVEL_CHUNK, PARALLEL_LEVEL_ROWS, div

#: Row flags: a numerical zero pivot, a pivot at or below the singular tolerance.
ZERO = 1
SINGULAR = 2
#: Banded solver algorithms (rocsparse_gtsv_interleaved_alg values).
BAND_LU = 2
BAND_QR = 3


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _reduce_flags(flags, base, bit, pivot):  # pragma: no cover - numba
    """``pivot[0] := min(pivot[0], first row with bit set + base)``."""
    p = pivot[0]
    for i in range(flags.shape[0]):
        if i + base >= p:
            break
        if flags[i] & bit:
            p = i + base
            break
    pivot[0] = p


# --- ILU0 (CSR and BSR) ---------------------------------------------------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _ilu0_row(rs, cs, bd, val, row_ptr, col_ind, base, diag, i, boost, boost_tol, boost_val, tol,
              flags):  # pragma: no cover - numba
    """Block row i of the incomplete LU factorization (IKJ order), in place; entry (r, c) of block p
    is ``val[p * bd * bd + r * rs + c * cs]``."""
    rd = diag[i]
    if rd < 0:  # no diagonal block: a structural zero pivot, the row is left as it is
        return
    bd2 = bd * bd
    hi = row_ptr[i + 1] - base
    for j in range(row_ptr[i] - base, rd):
        k = col_ind[j] - base
        dk = diag[k]
        if dk < 0:
            return  # depends on a row without diagonal (reported by the analysis)
        jb = j * bd2
        kb = dk * bd2
        for t in range(bd):
            if val[kb + t * (rs + cs)] == 0:
                return  # depends on a zero pivot (reported): the rest of the row stays as it is
        # L_ij := A_ij U_kk^-1, column by column of the block.
        for bi in range(bd):
            piv = val[kb + bi * (rs + cs)]
            for r in range(bd):
                v = val[jb + r * rs + bi * cs] / piv
                val[jb + r * rs + bi * cs] = v
                for bj in range(bi + 1, bd):
                    val[jb + r * rs + bj * cs] -= v * val[kb + bi * rs + bj * cs]
        # A_ip -= L_ij U_kq for the blocks q right of row k's diagonal that row i holds (both rows sorted).
        p = j + 1
        for q in range(dk + 1, row_ptr[k + 1] - base):
            cq = col_ind[q]
            while p < hi and col_ind[p] < cq:
                p += 1
            if p == hi:
                break
            if col_ind[p] == cq:
                pb = p * bd2
                qb = q * bd2
                for r in range(bd):
                    for c in range(bd):
                        for t in range(bd):
                            val[pb + r * rs + c * cs] -= val[jb + r * rs + t * cs] * val[qb + t * rs + c * cs]
    # The diagonal block: its dense LU without pivoting (a 1 x 1 block in CSR).
    db = rd * bd2
    for bi in range(bd):
        ii = db + bi * (rs + cs)
        piv = val[ii]
        if boost:
            if abs(piv) <= boost_tol:
                piv = boost_val
                val[ii] = piv
        else:
            if abs(piv) <= tol:
                flags[i] |= SINGULAR
            if piv == 0:
                flags[i] |= ZERO
        if piv == 0:
            continue
        for bk in range(bi + 1, bd):
            v = val[db + bk * rs + bi * cs] / piv
            val[db + bk * rs + bi * cs] = v
            for bj in range(bi + 1, bd):
                val[db + bk * rs + bj * cs] -= v * val[db + bi * rs + bj * cs]
    # The blocks right of the diagonal: U_iq := L_ii^-1 A_iq (forward substitution with the unit lower part).
    for q in range(rd + 1, hi):
        qb = q * bd2
        for bi in range(bd):
            for bj in range(bi + 1, bd):
                lv = val[db + bj * rs + bi * cs]
                for c in range(bd):
                    val[qb + bj * rs + c * cs] -= lv * val[qb + bi * rs + c * cs]


@kernel(parallel=False, contiguous=True)
def ilu0(row_major, bd, val, row_ptr, col_ind, base, diag, boost, boost_tol, boost_val, tol, flags, zero_pivot,
         singular_pivot):  # pragma: no cover - numba
    """Incomplete LU factorization with no fill-in of a sorted CSR (``bd == 1``) or BSR matrix, in place:
    the strictly lower part becomes L (unit diagonal), the rest U.  Rows run in order (a row depends
    on earlier ones only); ``diag`` holds the analysis' diagonal positions (-1: none).

    ``boost``: a pivot (diagonal entry) with ``|pivot| <= boost_tol[0]`` becomes ``boost_val[0]``;
    otherwise a zero pivot's block row (plus base) lowers ``zero_pivot[0]`` and one with
    ``|pivot| <= tol`` lowers ``singular_pivot[0]``.  ``flags``: one int32 per block row (scratch).
    """
    m = diag.shape[0]
    rs, cs = (bd, 1) if row_major else (1, bd)
    for i in range(m):
        flags[i] = 0
        _ilu0_row(rs, cs, bd, val, row_ptr, col_ind, base, diag, i, boost, boost_tol[0], boost_val[0], tol, flags)
    _reduce_flags(flags, base, ZERO, zero_pivot)
    _reduce_flags(flags, base, SINGULAR, singular_pivot)


# --- IC0 (CSR) ------------------------------------------------------------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _ic0_row(val, row_ptr, col_ind, base, diag, i, tol2, flags):  # pragma: no cover - numba
    """Row i of the incomplete Cholesky factor L (A ~ L L^H on the lower triangle), in place."""
    rd = diag[i]
    if rd < 0:
        return
    lo = row_ptr[i] - base
    dv = val[rd]
    for j in range(lo, rd):
        k = col_ind[j] - base
        dk = diag[k]
        if dk < 0:
            break
        lkk = val[dk]
        if lkk == 0:
            break
        # l_ik := (a_ik - sum_c l_ic conj(l_kc)) / l_kk over the columns c < k both rows hold.
        v = val[j]
        p = lo
        for q in range(row_ptr[k] - base, dk):
            cq = col_ind[q]
            while p < j and col_ind[p] < cq:
                p += 1
            if p == j:
                break
            if col_ind[p] == cq:
                v -= val[p] * np.conj(val[q])
        v = v * (1 / lkk)
        val[j] = v
        dv -= v * np.conj(v)
    if dv.real <= tol2 and dv.imag == 0:
        flags[i] |= SINGULAR
    d = np.sqrt(abs(dv))
    val[rd] = d
    if d == 0:
        flags[i] |= ZERO


@kernel(parallel=False, contiguous=True)
def ic0(val, row_ptr, col_ind, base, diag, tol, flags, zero_pivot, singular_pivot):  # pragma: no cover - numba
    """Incomplete Cholesky factorization with no fill-in of the lower triangle of a sorted CSR matrix,
    in place (the strictly upper entries are not touched), rows in order.  A pivot ``l_ii`` that is
    zero lowers ``zero_pivot[0]``; one whose square ``a_ii - sum |l_ik|^2`` is real and at most
    ``tol^2`` lowers ``singular_pivot[0]`` (``l_ii := sqrt(|.|)`` either way)."""
    tol2 = tol * tol
    for i in range(diag.shape[0]):
        flags[i] = 0
        _ic0_row(val, row_ptr, col_ind, base, diag, i, tol2, flags)
    _reduce_flags(flags, base, ZERO, zero_pivot)
    _reduce_flags(flags, base, SINGULAR, singular_pivot)


# --- triangular solves with several right-hand sides (CSR and BSR) ---------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _trsm_row(a, cj, rs, cs, bd, v, row_ptr, col_ind, base, upper, unit, split, diag, i, X, Y,
              flags):  # pragma: no cover - numba
    """Block row i: ``Y_i := T_ii^-1 (a X_i - sum of the strict triangle's T_ij Y_j)``; entry (r, c) of
    block p is ``v[p * bd * bd + r * rs + c * cs]``."""
    nrhs = Y.shape[1]
    bd2 = bd * bd
    r0 = i * bd
    for r in range(bd):
        for c in range(nrhs):
            Y[r0 + r, c] = a * X[r0 + r, c]
    d = diag[i]
    if upper:
        j0 = split[i] + (1 if d >= 0 else 0)
        j1 = row_ptr[i + 1] - base
    else:
        j0 = row_ptr[i] - base
        j1 = split[i]
    for j in range(j0, j1):
        k0 = (col_ind[j] - base) * bd
        for r in range(bd):
            for t in range(bd):
                av = v[j * bd2 + r * rs + t * cs]
                if cj:
                    av = np.conj(av)
                for c in range(nrhs):
                    Y[r0 + r, c] -= av * Y[k0 + t, c]
    if d < 0:
        return
    db = d * bd2
    for s in range(bd):
        bi = bd - 1 - s if upper else s
        if not unit:
            dv = v[db + bi * (rs + cs)]
            if cj:
                dv = np.conj(dv)
            if dv == 0:  # a zero pivot counts as one (as rocSPARSE), its row is flagged
                flags[i] = ZERO
            else:
                for c in range(nrhs):
                    Y[r0 + bi, c] /= dv
        lo, hi = (0, bi) if upper else (bi + 1, bd)
        for bj in range(lo, hi):
            lv = v[db + bj * rs + bi * cs]
            if cj:
                lv = np.conj(lv)
            for c in range(nrhs):
                Y[r0 + bj, c] -= lv * Y[r0 + bi, c]


@kernel
def trsm(alpha, conj_alpha, cj, row_major, bd, val, permuted, perm, tval, row_ptr, col_ind, base, pbase, upper,
         unit, split, diag, level_ptr, row_map, nlevels, X, Y, flags, zero_pivot):  # pragma: no cover - numba
    """``Y := T^-1 a X`` for the triangle T (``upper`` or lower, ``unit`` diagonal or not) of a sorted
    CSR (``bd == 1``) or BSR matrix, X and Y ``(rows, nrhs)`` views (the same memory for an in-place
    solve); ``a`` is ``alpha[0]``, conjugated when ``conj_alpha``, the entries of T conjugated when ``cj``.

    ``permuted``: T's blocks are first gathered, ``tval[k] := val[perm[k]]`` block by block (the
    transposed structure's values).  A zero pivot counts as one; its block row plus ``pbase`` lowers
    ``zero_pivot[0]`` unless ``unit``.
    """
    bd2 = bd * bd
    v = val
    if permuted:
        for k in range(perm.shape[0]):
            for t in range(bd2):
                tval[k * bd2 + t] = val[perm[k] * bd2 + t]
        v = tval
    a = alpha[0]
    if conj_alpha:
        a = np.conj(a)
    rs, cs = (bd, 1) if row_major else (1, bd)
    m = diag.shape[0]
    for i in range(m):
        flags[i] = 0
    for lv in range(nlevels):
        lo = level_ptr[lv]
        hi = level_ptr[lv + 1]
        if (hi - lo) * bd < PARALLEL_LEVEL_ROWS:
            for t in range(lo, hi):
                _trsm_row(a, cj, rs, cs, bd, v, row_ptr, col_ind, base, upper, unit, split, diag, row_map[t], X,
                          Y, flags)
        else:
            nchunks = (hi - lo + LEVEL_CHUNK - 1) // LEVEL_CHUNK
            for ch in prange(nchunks):
                for t in range(lo + ch * LEVEL_CHUNK, min(hi, lo + (ch + 1) * LEVEL_CHUNK)):
                    _trsm_row(a, cj, rs, cs, bd, v, row_ptr, col_ind, base, upper, unit, split, diag, row_map[t],
                              X, Y, flags)
    if not unit:
        _reduce_flags(flags, pbase, ZERO, zero_pivot)


# --- banded solvers: LU with partial pivoting, Givens QR -------------------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _band_system(alg, kl, ds, dl, d, du, dw, X, W):  # pragma: no cover - numba
    """Solve one tri- (``kl == 1``) or pentadiagonal (``kl == 2``) system in place in ``X`` (m x nrhs).

    ``W[r, o]`` holds the working matrix's entry ``(r, r - kl + o)``, room for the fill-in of U (or R)
    up to ``2 kl`` superdiagonals.  LU: the row of largest modulus becomes the pivot (the first one
    on ties), as LAPACK's gtsv; QR: Givens rotations from the bottom row up, a zero entry needing none.
    """
    m = X.shape[0]
    nrhs = X.shape[1]
    width = W.shape[1]
    for r in range(m):
        for o in range(width):
            W[r, o] = 0
        W[r, kl] = d[r]
        if r >= 1:
            W[r, kl - 1] = dl[r]
        if r + 1 < m:
            W[r, kl + 1] = du[r]
        if kl == 2:
            if r >= 2:
                W[r, 0] = ds[r]
            if r + 2 < m:
                W[r, kl + 2] = dw[r]
    for i in range(m - 1):
        last = min(i + kl, m - 1)
        cend = min(i + 2 * kl, m - 1)  # the last column a row of U (R) may reach
        if alg == BAND_LU:
            p = i
            for r in range(i + 1, last + 1):
                if abs(W[r, i - r + kl]) > abs(W[p, i - p + kl]):
                    p = r
            if p != i:
                for c in range(i, cend + 1):
                    tmp = W[i, c - i + kl]
                    W[i, c - i + kl] = W[p, c - p + kl]
                    W[p, c - p + kl] = tmp
                for c in range(nrhs):
                    tmp = X[i, c]
                    X[i, c] = X[p, c]
                    X[p, c] = tmp
            piv = W[i, kl]
            for r in range(i + 1, last + 1):
                lr = div(W[r, i - r + kl], piv)
                W[r, i - r + kl] = 0
                for c in range(i + 1, cend + 1):
                    W[r, c - r + kl] -= lr * W[i, c - i + kl]
                for c in range(nrhs):
                    X[r, c] -= lr * X[i, c]
        else:
            for r in range(last, i, -1):
                b = W[r, i - r + kl]
                if b == 0:
                    continue
                a = W[r - 1, i - r + 1 + kl]
                rad = np.hypot(abs(a), abs(b))
                cs = np.conj(a) / rad
                sn = np.conj(b) / rad
                for c in range(i, cend + 1):
                    x1 = W[r - 1, c - r + 1 + kl]
                    x2 = W[r, c - r + kl]
                    W[r - 1, c - r + 1 + kl] = cs * x1 + sn * x2
                    W[r, c - r + kl] = -np.conj(sn) * x1 + np.conj(cs) * x2
                for c in range(nrhs):
                    x1 = X[r - 1, c]
                    x2 = X[r, c]
                    X[r - 1, c] = cs * x1 + sn * x2
                    X[r, c] = -np.conj(sn) * x1 + np.conj(cs) * x2
    for i in range(m - 1, -1, -1):
        piv = W[i, kl]
        for c in range(nrhs):
            s = X[i, c]
            for k in range(i + 1, min(i + 2 * kl, m - 1) + 1):
                s -= W[i, k - i + kl] * X[k, c]
            X[i, c] = div(s, piv)


@kernel(parallel=False)
def band_solve(alg, kl, ds, dl, d, du, dw, X, W):  # pragma: no cover - numba
    """Solve the systems ``b`` (diagonals ``ds[b], dl[b], d[b], du[b], dw[b]`` of length m, ``ds`` and
    ``dw`` read only for ``kl == 2``) in place in ``X[b]`` (m x nrhs), one after the other, by LU with
    partial pivoting or Givens QR (``alg``), working in ``W`` (m x (3 kl + 1)); the diagonals are only
    read."""
    for b in range(X.shape[0]):
        _band_system(alg, kl, ds[b], dl[b], d[b], du[b], dw[b], X[b], W)


# --- csrcolor -------------------------------------------------------------------------------------


@numba.njit(nogil=True, cache=True, inline="always")
def _murmur3(h):  # pragma: no cover - numba
    """The 32-bit finalizer of MurmurHash3 (a bijection: distinct vertices get distinct weights)."""
    h = np.uint64(h) & np.uint64(0xFFFFFFFF)
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & np.uint64(0xFFFFFFFF)
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & np.uint64(0xFFFFFFFF)
    h ^= h >> np.uint64(16)
    return h


@kernel(parallel=False, contiguous=True)
def csrcolor(row_ptr, col_ind, base, max_uncolored, colors, want_reordering, reordering,
             out):  # pragma: no cover - numba
    """Jones-Plassmann-Luby colouring as rocSPARSE's: round t colours each uncoloured vertex whose hashed
    index is larger (colour 2t) or smaller (2t + 1) than those of all its neighbours uncoloured at the
    start of the round, until at most ``max_uncolored`` vertices are left; those get the colours
    ``ncolors, ncolors + 1, ...`` in index order, ``ncolors = max(0, largest colour) + 1``.  ``out[0]``
    gets the number of colours; ``reordering`` (when wanted) the vertices sorted by colour (stable)."""
    m = colors.shape[0]
    weight = np.empty(m, np.uint64)
    for i in range(m):
        colors[i] = -1
        weight[i] = _murmur3(i)
    color = -2
    uncolored = m
    while uncolored > max_uncolored:
        color += 2
        for row in range(m):
            if colors[row] != -1:
                continue
            rw = weight[row]
            is_max = True
            is_min = True
            for j in range(row_ptr[row] - base, row_ptr[row + 1] - base):
                col = col_ind[j] - base
                if col == row:
                    continue
                cn = colors[col]
                # Colours of this round count as uncoloured: the result is that of a synchronous round.
                if cn != -1 and cn != color and cn != color + 1:
                    continue
                cw = weight[col]
                if rw <= cw:
                    is_max = False
                if rw >= cw:
                    is_min = False
            if is_max:
                colors[row] = color
            elif is_min:
                colors[row] = color + 1
        uncolored = 0
        for i in range(m):
            if colors[i] == -1:
                uncolored += 1
    top = 0
    for i in range(m):
        top = max(top, colors[i])
    ncolors = top + 1
    k = 0
    for i in range(m):
        if colors[i] == -1:
            colors[i] = ncolors + k
            k += 1
    ncolors += uncolored
    out[0] = ncolors
    if want_reordering:
        start = np.zeros(ncolors + 1, np.int64)
        for i in range(m):
            start[colors[i] + 1] += 1
        for c in range(ncolors):
            start[c + 1] += start[c]
        for i in range(m):
            reordering[start[colors[i]]] = i
            start[colors[i]] += 1
