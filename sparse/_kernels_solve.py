"""numba kernels of rocmath.sparse's solvers: csrsv (level-scheduled triangular solve) and batched gtsv,
and what the other triangular and banded solvers share with them (the level analysis, the transposed
structure, the zero-pivot scan, :func:`div`).

They check nothing: the routines validated everything.  Determinism: each row of a triangular
solve sums its entries in storage order, whatever the schedule; a level's rows depend only on
earlier levels, so running a level's rows in parallel changes nothing in the result.

Two index bases: ``base`` is the one of the structure a kernel walks (0 for the transposed or int64
copies the analyses build), ``pbase`` the matrix's own, which a reported zero pivot includes.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange, uintp

from rocmath.kernel import kernel

#: A level with fewer rows than this runs serially (a parallel region costs more than it saves).
PARALLEL_LEVEL_ROWS = 2048
#: Rows per parallel task of a big level.
LEVEL_CHUNK = 512
#: "No zero pivot" as rocSPARSE stores it: the largest rocsparse_int.
NO_PIVOT = np.iinfo(np.int32).max


@numba.njit(nogil=True, cache=True, error_model="numpy")
def div(x, y):  # pragma: no cover - numba
    """``x / y`` as the device divides, in the operands' precision, never raising.

    Real types: IEEE division (inf or NaN for ``y == 0``: numba's numpy error model does not raise).
    Complex types: numba raises on a division by zero; rocSPARSE's complex division computes
    ``x conj(y) (1 / |y|^2)``, which is ``0 * inf = NaN`` in both parts there, as ``x * NaN`` is.
    """
    if y == 0 and (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return x * (y.real / y.real)  # 0 / 0: a NaN of y's real type (a float64 NaN would widen complex64)
    return x / y


@numba.njit(nogil=True, cache=True, error_model="numpy")
def first_zero_diagonal(val, diag, pbase, zero_pivot):  # pragma: no cover - numba
    """``zero_pivot[0] := min(zero_pivot[0], first row i with a zero diagonal value val[diag[i]], plus pbase)``
    (rows without a diagonal, ``diag[i] < 0``, were reported by the analysis)."""
    zp = zero_pivot[0]
    for i in range(diag.shape[0]):
        if i + pbase >= zp:
            break
        if diag[i] >= 0 and val[diag[i]] == 0:
            zp = i + pbase
            break
    zero_pivot[0] = zp


# --- csrsv analysis -------------------------------------------------------------------------------


@kernel(parallel=False, contiguous=True)
def csrsv_levels(row_ptr, col_ind, base, pbase, upper, unit, split, diag, level_ptr, row_map, zero_pivot,
                 nlevels):  # pragma: no cover - numba
    """Level schedule of the triangle (``upper``) of a sorted CSR matrix.

    ``split[i]``: first entry of row i whose column is >= i; ``diag[i]``: the diagonal entry's
    position or -1.  Rows sorted by level (ascending row within a level) go to ``row_map``,
    level ``l`` owning ``row_map[level_ptr[l]:level_ptr[l + 1]]``; ``nlevels[0]`` gets their
    number.  ``zero_pivot[0]``: the first row (plus ``pbase``) without a diagonal entry unless
    ``unit``, else NO_PIVOT.
    """
    m = row_ptr.shape[0] - 1
    level = np.zeros(m, np.int64)
    zp = NO_PIVOT
    for i in range(m):
        lo = row_ptr[i] - base
        hi = row_ptr[i + 1] - base
        p = lo
        while p < hi and col_ind[p] - base < i:
            p += 1
        split[i] = p
        diag[i] = p if p < hi and col_ind[p] - base == i else -1
        if diag[i] < 0 and not unit and i + pbase < zp:
            zp = i + pbase
    top = 0
    if upper:
        for i in range(m - 1, -1, -1):
            lv = 0
            start = split[i] + (1 if diag[i] >= 0 else 0)
            for j in range(start, row_ptr[i + 1] - base):
                lv = max(lv, level[col_ind[j] - base] + 1)
            level[i] = lv
            top = max(top, lv)
    else:
        for i in range(m):
            lv = 0
            for j in range(row_ptr[i] - base, split[i]):
                lv = max(lv, level[col_ind[j] - base] + 1)
            level[i] = lv
            top = max(top, lv)
    n = top + 1 if m else 0
    for lv in range(n + 1):
        level_ptr[lv] = 0
    for i in range(m):
        level_ptr[level[i] + 1] += 1
    for lv in range(n):
        level_ptr[lv + 1] += level_ptr[lv]
    fill = level_ptr[:n].copy()
    for i in range(m):
        row_map[fill[level[i]]] = i
        fill[level[i]] += 1
    nlevels[0] = n
    zero_pivot[0] = zp


@kernel(parallel=False, contiguous=True)
def csr_transpose_perm(row_ptr, col_ind, base, t_ptr, t_ind, perm):  # pragma: no cover - numba
    """The 0-based transpose of a CSR structure (stable: rows ascending within a column) and the
    permutation taking values to it (``t_val = val[perm]``)."""
    m = row_ptr.shape[0] - 1
    n = t_ptr.shape[0] - 1
    for k in range(n + 1):
        t_ptr[k] = 0
    for j in range(row_ptr[m] - row_ptr[0]):
        t_ptr[col_ind[j] - base + 1] += 1
    for k in range(n):
        t_ptr[k + 1] += t_ptr[k]
    fill = t_ptr[:n].copy()
    for i in range(m):
        for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
            c = col_ind[j] - base
            t_ind[fill[c]] = i
            perm[fill[c]] = j
            fill[c] += 1


@kernel(parallel=False, contiguous=True)
def structure_to_int64(ptr, ind, base, ptr64, ind64):  # pragma: no cover - numba
    """``ptr64, ind64 := ptr - base, ind - base`` as 0-based int64 (one kernel signature for every index type
    pair downstream; a copy, serial: it compiles in a fraction of a parallel loop's time)."""
    for i in range(ptr.shape[0]):
        ptr64[i] = ptr[i] - base
    for j in range(ind.shape[0]):
        ind64[j] = ind[j] - base


@kernel(contiguous=True)
def gather_values(conj, val, perm, out):  # pragma: no cover - numba
    """``out := val[perm]`` (conj: conjugated)."""
    for k in prange(out.shape[0]):
        out[k] = np.conj(val[perm[k]]) if conj else val[perm[k]]


# --- csrsv solve ----------------------------------------------------------------------------------


@numba.njit(nogil=True, cache=True, error_model="numpy", inline="always")
def _solve_row(a, val, row_ptr, col_ind, base, upper, unit, split, diag, i, x, y):  # pragma: no cover - numba
    """One row: ``y[i] := (a x[i] - sum of the strict triangle's a_ij y_j) / a_ii`` (storage order)."""
    if upper:
        j = uintp(split[i] + (1 if diag[i] >= 0 else 0))
        end = uintp(row_ptr[i + 1] - base)
    else:
        j = uintp(row_ptr[i] - base)
        end = uintp(split[i])
    s = a * x[i]
    while j < end:
        s -= val[j] * y[uintp(col_ind[j] - base)]
        j += uintp(1)
    if not unit and diag[i] >= 0:
        d = val[diag[i]]
        if d != 0:
            s = s / d
    y[i] = s


@kernel(contiguous=True)
def csrsv_solve(alpha, val, row_ptr, col_ind, base, pbase, upper, unit, split, diag, level_ptr, row_map, nlevels, x,
                y, zero_pivot):  # pragma: no cover - numba
    """``y := op(T)^-1 alpha x`` for the triangle T of the matrix (sorted CSR), level by level.

    A zero diagonal entry counts as one (as in rocSPARSE) and its row (plus ``pbase``), if smaller,
    becomes ``zero_pivot[0]``; a missing diagonal counts as one too (analysis reported it).
    """
    a = alpha[0]
    for lv in range(nlevels):
        lo = level_ptr[lv]
        hi = level_ptr[lv + 1]
        if hi - lo < PARALLEL_LEVEL_ROWS:
            for t in range(lo, hi):
                _solve_row(a, val, row_ptr, col_ind, base, upper, unit, split, diag, row_map[t], x, y)
        else:
            nchunks = (hi - lo + LEVEL_CHUNK - 1) // LEVEL_CHUNK
            for ch in prange(nchunks):
                for t in range(lo + ch * LEVEL_CHUNK, min(hi, lo + (ch + 1) * LEVEL_CHUNK)):
                    _solve_row(a, val, row_ptr, col_ind, base, upper, unit, split, diag, row_map[t], x, y)
    if not unit:
        first_zero_diagonal(val, diag, pbase, zero_pivot)


# --- gtsv -----------------------------------------------------------------------------------------


@kernel
def gtsv_nopivot_batch(dl, d, du, x, one, nchunks):  # pragma: no cover - numba
    """Solve the tridiagonal systems ``(dl[b], d[b], du[b]) x[b] = rhs`` in place (Thomas algorithm,
    no pivoting), the batch split in ``nchunks`` parallel chunks, each with its own scratch.  In the
    systems' precision (``one``: 1 of x's type, so that the reciprocals are not widened); a zero pivot
    gives inf / NaN (:func:`div`), no exception."""
    nb = x.shape[0]
    m = x.shape[1]
    for ch in prange(nchunks):
        cp = np.empty(m, x.dtype)
        for b in range((nb * ch) // nchunks, (nb * (ch + 1)) // nchunks):
            inv = div(one, d[b, 0])
            cp[0] = du[b, 0] * inv
            xp = x[b, 0] * inv
            x[b, 0] = xp
            for i in range(1, m):
                inv = div(one, d[b, i] - dl[b, i] * cp[i - 1])
                cp[i] = du[b, i] * inv
                xp = (x[b, i] - dl[b, i] * xp) * inv
                x[b, i] = xp
            for i in range(m - 2, -1, -1):
                xp = x[b, i] - cp[i] * xp
                x[b, i] = xp
