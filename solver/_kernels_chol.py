"""Cholesky-family kernels: potrf (potf2), potrs, posv, potri, trtri, lauum.

As in :mod:`rocmath.solver._kernels_lu`, the path depends on sizes only:

- *small* entries (``n <= SMALL``) run as numba code, many at a time: a chunked
  ``prange`` over the batch, each chunk copying one entry at a time into a contiguous
  scratch matrix (its chunk's part of the workspace).  Only the triangle a routine reads is
  copied, and always as a *lower* triangle stored column-major (``w[c, i]`` is element
  ``(i, c)``, ``i >= c``, so columns are contiguous and the inner loops vectorise): an
  upper triangle U is copied as ``L = U^H``.  That turns every upper-triangle problem
  into the lower one (``A = U^H U = L L^H``, ``inv(U) = inv(L)^H``, ``U U^H = L^H L``),
  so each algorithm is written once; the result goes back through the same map.
- *large* entries are handed to LAPACK (scipy's OpenBLAS, through the symbols
  :func:`~rocmath.solver._lapack.ensure_lapack` registers) in place, one after another,
  each threaded by OpenBLAS (in parallel when they are small enough).

Semantics are LAPACK's: the small potrf is LAPACK's unblocked potf2 (per column: the
diagonal from a dot product, then the column below by a matrix-vector product and a
scaling; entries of order at most ``FIXED`` that do not overlap run right-looking, ``GROUP``
at a time in lockstep, and those of order at most ``LANE_MAX`` ``LANES`` at a time, one per
vector lane, each element's updates in potf2's order, so with potf2's bits); a
leading minor that is not positive definite (``ajj <= 0`` or NaN) stops the factorization
of that entry with ``info = j``, ``A(j, j) = ajj`` and the columns after it untouched.
Complex diagonals use their real part.  trtri (non-unit) and potri find the first exact
zero on the diagonal first and then leave that entry as it was; posv leaves B of an
entry that is not positive definite as it was.  Only the ``uplo``
triangle is ever written (a unit trtri neither writes its diagonal).

Scratch memory (the small kernels' matrices and right-hand sides, the LAPACK argument
cells, the info LAPACK writes for routines that report none) is carved out of the
handle's workspace (:mod:`rocmath.solver._workspace`); :func:`workspace` gives the
bytes, computed by the same code :func:`_run` uses.  The launch bodies at the end get
the operands as ``(batch, rows, cols)`` views.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from rocmath.kernel import chunk, kernel

from ._kernels_lu import (
    _CELLS,
    LANES,
    _addresses,
    _cells,
    _colmajor,
    _columns_in,
    _columns_out,
    _divide_lanes,
    _dot_lanes,
    _finish,
    _flat_colmajor,
    _lane_offsets,
    _lane_share,
    _lanes_in,
    _lanes_out,
    _ld,
    _one_negzero,
    _update_lanes,
    lane_chunks,
    solve_lane_bytes,
    solve_lane_scratch,
)
from ._lapack import ensure_lapack, external
from ._workspace import carve2, chunk_count, chunk_of, host_carve, layout, rounded, scratch

#: Entries with n up to SMALL run as numba code.
SMALL = 64
#: Small potrf factors entries of order at most FIXED GROUP at a time in lockstep ...
FIXED = 8
GROUP = 4
#: ... and larger ones of order at most LANE_MAX LANES (the LU's) at a time, one per vector lane,
#: PANEL columns per pass of the trailing update, in the LU's lane_chunks.
LANE_MAX = 64
PANEL = 4

#: Operation codes of the shared kernels.
POTRF, POTRS, POSV, POTRI, TRTRI, LAUUM = range(6)

_KIND = {np.dtype(np.float32): 0, np.dtype(np.float64): 1, np.dtype(np.complex64): 2, np.dtype(np.complex128): 3}

_spotrf, _dpotrf, _cpotrf, _zpotrf = (external(p + "potrf", 5) for p in "sdcz")
_spotrs, _dpotrs, _cpotrs, _zpotrs = (external(p + "potrs", 8) for p in "sdcz")
_sposv, _dposv, _cposv, _zposv = (external(p + "posv", 8) for p in "sdcz")
_spotri, _dpotri, _cpotri, _zpotri = (external(p + "potri", 5) for p in "sdcz")
_slauum, _dlauum, _clauum, _zlauum = (external(p + "lauum", 5) for p in "sdcz")
_strtri, _dtrtri, _ctrtri, _ztrtri = (external(p + "trtri", 6) for p in "sdcz")

_jit = njit(nogil=True, error_model="numpy", cache=True)
_inline = njit(nogil=True, error_model="numpy", cache=True, inline="always")
# Unsigned inner-loop indices: numba then drops its negative-index wraparound and LLVM vectorises.
_U = np.uintp


# --- numba: one entry in contiguous scratch ------------------------------------------------------


# The kernels read every stack of matrices through its flat view (rocmath.batch.flat_entries):
# element (i, c) of entry e at ``e * stride + c * ld + i``, each column over unit strides, so that
# copying a lower triangle or right-hand sides vectorises.


@_jit
def _load_tri(w, A, ao, lda, upper):  # type: ignore[no-untyped-def]
    # The factor's triangle of the entry at A[ao:] as a lower one: w[c, i] = A(i, c), or
    # conj(A(c, i)) for an upper triangle (indexed, not sliced: a slice costs a reference count).
    n = w.shape[0]
    if upper:
        for c in range(n):
            for i in range(c, n):
                w[c, i] = np.conj(A[_U(ao + i * lda + c)])
    else:
        for c in range(n):
            for i in range(_U(c), _U(n)):
                w[c, i] = A[_U(ao + c * lda) + i]


@_jit
def _store_tri(A, ao, lda, w, upper, diag):  # type: ignore[no-untyped-def]
    # The inverse map of _load_tri; the diagonal only if ``diag``.
    n = w.shape[0]
    skip = 0 if diag else 1
    if upper:
        for c in range(n):
            for i in range(c + skip, n):
                A[_U(ao + i * lda + c)] = np.conj(w[c, i])
    else:
        for c in range(n):
            for i in range(_U(c + skip), _U(n)):
                A[_U(ao + c * lda) + i] = w[c, i]


@_jit
def _load_rhs(x, B, bo, ldb):  # type: ignore[no-untyped-def]
    # x[r, i] = B(i, r) of the entry at B[bo:]: right-hand sides as contiguous rows.
    for r in range(x.shape[0]):
        for i in range(_U(x.shape[1])):
            x[r, i] = B[_U(bo + r * ldb) + i]


@_jit
def _store_rhs(B, bo, ldb, x):  # type: ignore[no-untyped-def]
    for r in range(x.shape[0]):
        for i in range(_U(x.shape[1])):
            B[_U(bo + r * ldb) + i] = x[r, i]


@_jit
def _potf2(w, rone):  # type: ignore[no-untyped-def]
    """L L^H = A for the lower triangle held in w, in place (LAPACK's unblocked potf2).
    Returns info: the order of the first leading minor that is not positive definite."""
    n = w.shape[0]
    rzero = rone - rone
    for j in range(n):
        ajj = w[j, j].real
        for k in range(j):
            x = w[k, j]
            ajj -= x.real * x.real + x.imag * x.imag
        if not ajj > rzero:  # NaN too
            w[j, j] = ajj
            return j + 1
        ajj = np.sqrt(ajj)
        w[j, j] = ajj
        # Column j below the diagonal -= L(j+1:, :j) conj(L(j, :j)), four columns per pass.
        k = 0
        while k + 4 <= j:
            t0, t1, t2, t3 = np.conj(w[k, j]), np.conj(w[k + 1, j]), np.conj(w[k + 2, j]), np.conj(w[k + 3, j])
            for i in range(_U(j + 1), _U(n)):
                w[j, i] = w[j, i] - t0 * w[k, i] - t1 * w[k + 1, i] - t2 * w[k + 2, i] - t3 * w[k + 3, i]
            k += 4
        while k < j:
            t = np.conj(w[k, j])
            for i in range(_U(j + 1), _U(n)):
                w[j, i] -= t * w[k, i]
            k += 1
        r = rone / ajj
        for i in range(_U(j + 1), _U(n)):
            w[j, i] *= r
    return 0


@_jit
def _potrs(w, x):  # type: ignore[no-untyped-def]
    """A X = B with A = L L^H, L held in w, and B^T in x (nrhs x n), in place on x; the
    triangular solves in reference BLAS trsm's order."""
    n = w.shape[0]
    for r in range(x.shape[0]):
        for j in range(n):  # L y = b
            if x[r, j] != 0:
                x[r, j] = x[r, j] / w[j, j]
                t = x[r, j]
                for i in range(_U(j + 1), _U(n)):
                    x[r, i] -= t * w[j, i]
        for j in range(n - 1, -1, -1):  # L^H x = y
            s = x[r, j]
            for i in range(j + 1, n):
                s -= np.conj(w[j, i]) * x[r, i]
            x[r, j] = s / np.conj(w[j, j])


@_jit
def _trtri(w, unit, one):  # type: ignore[no-untyped-def]
    """inv(L) for the lower triangle held in w, in place (LAPACK's trti2, from the last
    column back: column j below the diagonal := -inv(L22) L(j+1:, j) / L(j, j)).  A non-unit
    L with a zero on its diagonal returns the first one (1-based) with w unchanged."""
    n = w.shape[0]
    if not unit:
        for j in range(n):
            if w[j, j] == 0:
                return j + 1
    for j in range(n - 1, -1, -1):
        if unit:
            ajj = -one
        else:
            w[j, j] = one / w[j, j]
            ajj = -w[j, j]
        for q in range(n - 1, j, -1):  # x := inv(L22) x, reference trmv's order (lower, no transpose)
            t = w[j, q]
            if t != 0:
                for i in range(_U(q + 1), _U(n)):
                    w[j, i] += t * w[q, i]
                if not unit:
                    w[j, q] = t * w[q, q]
        for i in range(_U(j + 1), _U(n)):
            w[j, i] *= ajj
    return 0


@_jit
def _lauum(w):  # type: ignore[no-untyped-def]
    """L^H L into the lower triangle held in w, in place (LAPACK's lauu2: row i of the product
    needs rows i.. of L only, so rows are done first to last; its diagonal element last)."""
    n = w.shape[0]
    for i in range(n):
        d = np.conj(w[i, i])
        for k in range(i):  # R(i, k) = sum over m >= i of conj(L(m, i)) L(m, k)
            s = d * w[k, i]
            for m in range(i + 1, n):
                s += np.conj(w[i, m]) * w[k, m]
            w[k, i] = s
        x = w[i, i]
        s2 = x.real * x.real + x.imag * x.imag
        for m in range(i + 1, n):
            x = w[i, m]
            s2 += x.real * x.real + x.imag * x.imag
        w[i, i] = s2


def _small_bytes(n: int, nrhs: int, isz: int) -> int:
    """Scratch of one chunk of small_entries: the entry and its right-hand sides (nrhs x n)."""
    return layout((n * n, isz), (nrhs * n, isz))


@_jit
def _entries(op, A, sa, lda, B, sb, ldb, info, upper, unit, one, rone, ws, n, nrhs, lo,
             hi):  # type: ignore[no-untyped-def]
    # Entries lo..hi-1 of A's and B's flat views (entry e at e * sa / e * sb); ws: this chunk's scratch.
    w, o = carve2(ws, 0, n, n, A.dtype, A.itemsize)
    x, o = carve2(ws, o, nrhs, n, A.dtype, A.itemsize)
    for e in range(lo, hi):
        ao, bo = e * sa, e * sb
        _load_tri(w, A, ao, lda, upper)
        if op == POTRS:
            _load_rhs(x, B, bo, ldb)
            _potrs(w, x)
            _store_rhs(B, bo, ldb, x)
        elif op in (POTRF, POSV):
            r = _potf2(w, rone)
            info[e] = r
            _store_tri(A, ao, lda, w, upper, True)
            if op == POSV and r == 0:  # B of an entry that is not positive definite is left as it was
                _load_rhs(x, B, bo, ldb)
                _potrs(w, x)
                _store_rhs(B, bo, ldb, x)
        elif op == LAUUM:
            _lauum(w)
            _store_tri(A, ao, lda, w, upper, True)
        else:  # TRTRI, POTRI: a singular entry is left as it was
            r = _trtri(w, unit and op == TRTRI, one)
            info[e] = r
            if r == 0:
                if op == POTRI:
                    _lauum(w)
                _store_tri(A, ao, lda, w, upper, not (unit and op == TRTRI))


@kernel(contiguous=True)
def small_entries(op, A, sa, lda, B, sb, ldb, info, upper, unit, one, rone, ws, wper, n, nrhs, nb,
                  nchunk):  # type: ignore[no-untyped-def]
    """Operation ``op`` on the nb entries of A's flat view (entry e at e * sa, column c at c * lda;
    its ``upper``/lower triangle; B's flat view likewise: right-hand sides of potrs/posv; info[e]
    per entry), in ``nchunk`` chunks (one: on this thread, entries in order), chunk t's scratch in
    bytes [t * wper, (t + 1) * wper) of ws."""
    if nchunk <= 1:
        _entries(op, A, sa, lda, B, sb, ldb, info, upper, unit, one[0], rone[0], ws, n, nrhs, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _entries(op, A, sa, lda, B, sb, ldb, info, upper, unit, one[0], rone[0], chunk_of(ws, t, wper), n, nrhs,
                 t * per, min(nb, (t + 1) * per))


# --- numba: small potrf, GROUP entries at a time ------------------------------------------------------
#
# As getrf_small (see :mod:`rocmath.solver._kernels_lu`): every array is an argument of the kernel and
# of its chunk function, indexed, so that they do not alias and the row loops become vector code; the
# entries sit in columns of spare rows, zero at first, so that every step works on FIXED rows.  The
# Cholesky factor is computed right-looking: step j updates the lower triangle of the later columns
# with column j, each element's updates in the order of LAPACK's (left-looking) potf2, so the bits are
# potf2's.


@_inline
def _chol_group(W, L, Q, D, t, n, rone):  # type: ignore[no-untyped-def]
    """L L^H of the GROUP lower triangles of chunk t (n <= FIXED) in lockstep: entry s column-major
    in W[t, s * FIXED * 2 * FIXED:], columns of 2 * FIXED rows.  Q[t, s]: info; D[t, s]: the value
    of the failed diagonal (the entry is then garbage from that column on)."""
    R = FIXED
    S = 2 * R
    WS = R * S
    LS = 2 * R
    rzero = rone - rone
    for s in range(GROUP):
        Q[t, s] = 0
    for j in range(n):
        jo = j * S + j
        for s in range(GROUP):
            w0 = s * WS
            l0 = s * LS
            ajj = W[t, _U(w0 + jo)].real
            if not ajj > rzero and Q[t, s] == 0:  # NaN too
                Q[t, s] = j + 1
                D[t, s] = ajj
            ajj = np.sqrt(ajj)
            W[t, _U(w0 + jo)] = ajj
            r = rone / ajj
            for i in range(R):  # column j below the diagonal, and its copy in L (lanes past R stay 0)
                x = W[t, _U(w0 + jo + 1 + i)] * r
                W[t, _U(w0 + jo + 1 + i)] = x
                L[t, _U(l0 + i)] = x
            if j + 1 < n:  # the next column first: its square root overlaps the other updates
                co = w0 + (j + 1) * S + j + 1
                u = np.conj(L[t, _U(l0)])
                for i in range(R):
                    W[t, _U(co + i)] = W[t, _U(co + i)] - u * L[t, _U(l0 + i)]
        for s in range(GROUP):
            w0 = s * WS
            for c in range(j + 2, n):
                co = w0 + c * S + c
                lc = s * LS + c - j - 1
                u = np.conj(L[t, _U(lc)])
                for i in range(R):
                    W[t, _U(co + i)] = W[t, _U(co + i)] - u * L[t, _U(lc + i)]


def _group_parts(isz: int) -> tuple[int, int]:
    """Elements of one chunk's row of potrf_group's W and L (whole multiples of ALIGN bytes)."""
    return rounded(GROUP * FIXED * 2 * FIXED * isz) // isz, rounded(GROUP * 2 * FIXED * isz) // isz


def _group_bytes(isz: int) -> int:
    """Scratch of one chunk of potrf_group: W, L, Q (info) and D (failed diagonals)."""
    w, lr = _group_parts(isz)
    return layout((w, isz), (lr, isz), (GROUP, 4), (GROUP, isz))


@chunk
def _potrf_group_chunk(A, sa, lda, n, upper, info, one, rone, W, L, Q, D, nb, nchunk,
                       t):  # type: ignore[no-untyped-def]
    """One chunk of :func:`potrf_group`."""
    S = 2 * FIXED
    WS = FIXED * S  # entry s of a group at W[t, s * WS:]
    per = (nb + nchunk - 1) // nchunk
    for i in range(W.shape[1]):  # the spare rows start at zero
        W[t, i] = 0
    for i in range(L.shape[1]):
        L[t, i] = 0
    lo, hi = t * per, min(nb, (t + 1) * per)
    for e0 in range(lo, hi, GROUP):
        for s in range(min(GROUP, hi - e0)):  # (the rest of a last, partial group is ignored)
            o = (e0 + s) * sa
            for c in range(n):
                if upper:
                    for i in range(c, n):
                        W[t, _U(s * WS + c * S + i)] = np.conj(A[_U(o + i * lda + c)])
                else:
                    for i in range(c, n):
                        W[t, _U(s * WS + c * S + i)] = A[_U(o + c * lda + i)] + one[1]
        _chol_group(W, L, Q, D, t, n, rone[0])
        for s in range(min(GROUP, hi - e0)):
            e = e0 + s
            o = e * sa
            f = Q[t, s]
            if f > 0:
                W[t, _U(s * WS + (f - 1) * (S + 1))] = D[t, s]
            for c in range(n if f == 0 else f):  # a failed entry: the columns before, its diagonal
                last = n if c + 1 < f or f == 0 else c + 1
                if upper:
                    for i in range(c, last):
                        A[_U(o + i * lda + c)] = np.conj(W[t, _U(s * WS + c * S + i)])
                else:
                    for i in range(c, last):
                        A[_U(o + c * lda + i)] = W[t, _U(s * WS + c * S + i)] + one[1]
            info[e] = f


@kernel(contiguous=True, slp=True)
def potrf_group(A, sa, lda, n, upper, info, one, rone, W, L, Q, D, nb, nchunk):  # type: ignore[no-untyped-def]
    """potrf of nb entries of order n <= FIXED that do not overlap, column-major from A's flat
    view (entry e at e * sa, column c at c * lda), GROUP at a time, each chunk t of nchunk a
    contiguous range of entries with row t of the scratch.  The ``upper`` triangle U is factored
    as L = U^H.  ``one``: 1 and -0 in the element type (adding -0 copies exactly, and keeps the
    copies from becoming memcpy calls); ``rone``: 1 in the real type.  An entry that is not
    positive definite keeps its columns from the failed one on, but for that diagonal (LAPACK's
    potf2)."""
    for t in prange(nchunk):
        _potrf_group_chunk(A, sa, lda, n, upper, info, one, rone, W, L, Q, D, nb, nchunk, _U(t))


# --- numba: small potrf, LANES entries at a time --------------------------------------------------------
#
# Lane s of every vector is entry s of a group of LANES: element (i, c) of the lower triangles sits in
# W[t, (c * n + i) * LANES:][:LANES] (moved in and out by the LU's 8 x 8 block transposes where whole blocks
# of rows fit), so each update of a right-looking Cholesky is one vector operation across the entries.  The
# columns are factored PANEL at a time: the panel's columns (copied to L, apart from W, so that the updates
# provably do not overlap what they read), then the later columns, each element taking the panel's terms in
# column order.  Every element thus takes potf2's terms in potf2's order: the bits are potf2's.


@_inline
def _chol_lanes(W, L, V, Q, D, t, n, rone):  # type: ignore[no-untyped-def]
    """L L^H of the LANES lower triangles of chunk t in W, in place.  L[t]: the panel's columns
    (PANEL * n * LANES elements); V[t]: LANES reciprocals; Q[t, s]: info of lane s; D[t, s]: its failed
    diagonal (the lane holds garbage from that column on).  Indices are unsigned: numba then skips
    its negative-index wrap-around on every access."""
    rzero = rone - rone
    t = _U(t)
    un = _U(n)
    ln = _U(LANES)
    cs = un * ln  # one column of every lane
    for s in range(LANES):
        Q[t, s] = 0
    for j0 in range(_U(0), un, _U(PANEL)):
        j1 = min(un, j0 + _U(PANEL))
        for j in range(j0, j1):
            d = j * cs + j * ln
            for s in range(LANES):
                ajj = W[t, d + _U(s)].real
                if not ajj > rzero and Q[t, s] == 0:  # NaN too
                    Q[t, s] = j + 1
                    D[t, s] = ajj
                ajj = np.sqrt(ajj)
                W[t, d + _U(s)] = ajj
                V[t, s] = rone / ajj
            lj = (j - j0) * cs
            for i in range(j + _U(1), un):  # column j below the diagonal, times 1 / ajj
                o = j * cs + i * ln
                for s in range(LANES):
                    x = W[t, o + _U(s)] * V[t, s]
                    W[t, o + _U(s)] = x
                    L[t, lj + i * ln + _U(s)] = x
            for c in range(j + _U(1), j1):  # the panel's later columns
                for i in range(c, un):
                    o = c * cs + i * ln
                    for s in range(LANES):
                        W[t, o + _U(s)] = W[t, o + _U(s)] - np.conj(L[t, lj + c * ln + _U(s)]) * L[
                            t, lj + i * ln + _U(s)]
        for c in range(j1, un):  # the later columns: the panel's terms, in column order, per element
            if j1 - j0 == _U(PANEL):
                for i in range(c, un):
                    o = c * cs + i * ln
                    p = i * ln
                    q = c * ln
                    for s in range(LANES):
                        w = W[t, o + _U(s)]
                        w = w - np.conj(L[t, q + _U(s)]) * L[t, p + _U(s)]
                        w = w - np.conj(L[t, cs + q + _U(s)]) * L[t, cs + p + _U(s)]
                        w = w - np.conj(L[t, 2 * cs + q + _U(s)]) * L[t, 2 * cs + p + _U(s)]
                        w = w - np.conj(L[t, 3 * cs + q + _U(s)]) * L[t, 3 * cs + p + _U(s)]
                        W[t, o + _U(s)] = w
            else:
                for k in range(j1 - j0):
                    lk = k * cs
                    for i in range(c, un):
                        o = c * cs + i * ln
                        for s in range(LANES):
                            W[t, o + _U(s)] = W[t, o + _U(s)] - np.conj(L[t, lk + c * ln + _U(s)]) * L[
                                t, lk + i * ln + _U(s)]


def _lane_parts(n: int, isz: int) -> tuple[int, int, int, int]:
    """Elements of one chunk's row of potrf_lanes' W, L, V (``isz`` bytes each) and Ix (int64), whole
    multiples of ALIGN bytes."""
    return tuple(rounded(c * sz) // sz for c, sz in ((n * n * LANES, isz), (PANEL * n * LANES, isz),
                                                      (LANES, isz), (LANES, 8)))  # type: ignore[return-value]


def _lane_bytes(n: int, batch: int, isz: int) -> int:
    """Scratch of potrf_lanes on ``batch`` entries of order n: per chunk W, L, V, Ix, Q (info), D."""
    w, lr, v, ix = _lane_parts(n, isz)
    return lane_chunks(batch) * layout((w, isz), (lr, isz), (v, isz), (ix, 8), (LANES, 4), (LANES, isz))


@_inline
def _triangle_lanes(W, t, A, Ix, n, lda, upper, one):  # type: ignore[no-untyped-def]
    """W[t, (c * n + i) * LANES + s] := element (i, c), i >= c, of lane s's factor (the entry at
    Ix[t, s] of A's flat view, column c at c * lda) as a lower triangle: an upper one U as L = U^H."""
    for c in range(n):
        if upper:
            for i in range(c, n):
                for s in range(LANES):
                    W[t, _U((c * n + i) * LANES + s)] = np.conj(A[_U(Ix[t, s] + i * lda + c)])
        else:
            i = c - c % LANES  # whole blocks of rows from the one holding the diagonal
            while i + LANES <= n:
                _lanes_in(W, t, (c * n + i) * LANES, A, Ix, 0, c * lda + i, one)
                i += LANES
            for r in range(i, n):
                for s in range(LANES):
                    W[t, _U((c * n + r) * LANES + s)] = A[_U(Ix[t, s] + c * lda + r)]


@chunk
def _potrf_lanes_chunk(A, sa, lda, n, upper, info, one, rone, W, L, V, Ix, Q, D, nb, nchunk,
                       t):  # type: ignore[no-untyped-def]
    """One chunk of :func:`potrf_lanes`."""
    per = _lane_share(nb, nchunk)
    lo, hi = t * per, min(nb, (t + 1) * per)
    for e0 in range(lo, hi, LANES):
        g = _lane_offsets(Ix, t, 0, e0, hi, sa)
        _triangle_lanes(W, t, A, Ix, n, lda, upper, one)
        _chol_lanes(W, L, V, Q, D, t, n, rone[0])
        for s in range(LANES):  # a failed lane: its columns from the failed one on as they were
            f = Q[t, s]
            if f == 0:
                continue
            for c in range(f - 1, n):
                for i in range(c, n):
                    at = _U((c * n + i) * LANES + s)
                    W[t, at] = np.conj(A[_U(Ix[t, s] + i * lda + c)]) if upper else A[_U(Ix[t, s] + c * lda + i)]
            W[t, _U(((f - 1) * n + f - 1) * LANES + s)] = D[t, s]
        for c in range(n):
            if upper:
                for i in range(c, n):
                    for s in range(g):
                        A[_U(Ix[t, s] + i * lda + c)] = np.conj(W[t, _U((c * n + i) * LANES + s)])
            else:
                i = min(n, (c + LANES - 1) // LANES * LANES)  # the rows before whole blocks, one by one
                for r in range(c, i):
                    for s in range(g):
                        A[_U(Ix[t, s] + c * lda + r)] = W[t, _U((c * n + r) * LANES + s)]
                while i + LANES <= n:
                    _lanes_out(A, Ix, 0, c * lda + i, W, t, (c * n + i) * LANES)
                    i += LANES
                for r in range(i, n):
                    for s in range(g):
                        A[_U(Ix[t, s] + c * lda + r)] = W[t, _U((c * n + r) * LANES + s)]
        for s in range(g):
            info[e0 + s] = Q[t, s]


@kernel(contiguous=True, slp=True, loops=False)
def potrf_lanes(A, sa, lda, n, upper, info, one, rone, W, L, V, Ix, Q, D, nb, nchunk):  # type: ignore[no-untyped-def]
    """potrf of nb entries of order n <= LANE_MAX that do not overlap, column-major from A's flat view
    (entry e at e * sa, column c at c * lda), LANES at a time (:func:`_chol_lanes`); chunk t of nchunk
    takes a contiguous range of whole groups and row t of the scratch (the lanes past a last, partial
    group repeat its first entry: the same values, written to it again).  The ``upper`` triangle U is
    factored as L = U^H.  ``one``: 1 and -0 in the element type; ``rone``: 1 in the real type.  An entry
    that is not positive definite keeps its columns from the failed one on but for that diagonal
    (potf2's), its factored columns before."""
    for t in prange(nchunk):
        _potrf_lanes_chunk(A, sa, lda, n, upper, info, one, rone, W, L, V, Ix, Q, D, nb, nchunk, _U(t))


# --- numba: small potrs, LANES entries at a time ----------------------------------------------------
#
# As potrf_lanes: the factors and right-hand sides of LANES entries side by side, one entry per vector
# lane, so that the solves' dependent steps (a division per column, the back substitution's running
# sums) advance LANES entries at once; each lane does _potrs's operations in _potrs's order, so the
# bits are the entry-by-entry kernel's.


@_inline
def _solve_lanes(W, X, V, Z, t, n, nrhs):  # type: ignore[no-untyped-def]
    """_potrs on the LANES entries of chunk t: the lower factors in W (as potrf_lanes'), right-hand
    side r's element i of lane s at X[t, (r * n + i) * LANES + s], solved in place.  V[t], Z[t]: LANES
    elements each (the column's multipliers, or the running sums; whether the column is skipped)."""
    t = _U(t)
    un = _U(n)
    ln = _U(LANES)
    cs = un * ln
    for r in range(_U(nrhs)):
        xo = r * cs
        for j in range(un):  # L y = b by columns; a zero y(j) skips its column, as _potrs
            _divide_lanes(X, W, V, Z, t, xo + j * ln, j * cs + j * ln)
            _update_lanes(X, W, V, Z, t, xo, j * cs, j + _U(1), un)
        for jj in range(n - 1, -1, -1):  # L^H x = y by dot products
            j = _U(jj)
            for s in range(LANES):
                V[t, s] = X[t, xo + j * ln + _U(s)]
            _dot_lanes(X, W, V, t, xo, j * cs, j + _U(1), un, True)
            d = j * cs + j * ln
            for s in range(LANES):
                X[t, xo + j * ln + _U(s)] = V[t, s] / np.conj(W[t, d + _U(s)])


@kernel(contiguous=True, slp=True, loops=False)
def potrs_lanes(A, sa, lda, B, sb, ldb, n, nrhs, upper, one, W, X, V, Z, Ix, nb, nchunk):  # type: ignore[no-untyped-def]
    """potrs of nb entries of order n <= LANE_MAX that do not overlap (A's and B's flat views, entry e
    at e * sa and e * sb, columns at lda and ldb apart), LANES at a time (:func:`_solve_lanes`), as
    potrf_lanes splits them; the lanes past a last, partial group repeat its first entry and write
    its solution again."""
    per = _lane_share(nb, nchunk)
    for t in prange(nchunk):
        lo, hi = t * per, min(nb, (t + 1) * per)
        for e0 in range(lo, hi, LANES):
            g = _lane_offsets(Ix, t, 0, e0, hi, sa)
            _lane_offsets(Ix, t, LANES, e0, hi, sb)
            _triangle_lanes(W, t, A, Ix, n, lda, upper, one)
            _columns_in(X, t, B, Ix, LANES, n, nrhs, ldb, one)
            _solve_lanes(W, X, V, Z, t, n, nrhs)
            _columns_out(B, Ix, LANES, X, t, n, nrhs, ldb, g)


# --- numba: large entries through LAPACK -------------------------------------------------------------


@_jit
def _lapack(op, kind, pa, pb, pi, ch, iv):  # type: ignore[no-untyped-def]
    # ch: uplo, diag letters; iv: n, nrhs, lda, ldb (int32); pi: this entry's info.
    s, i = ch.ctypes.data, iv.ctypes.data
    if op == POTRF:
        if kind == 0:
            _spotrf(s, i, pa, i + 8, pi)
        elif kind == 1:
            _dpotrf(s, i, pa, i + 8, pi)
        elif kind == 2:
            _cpotrf(s, i, pa, i + 8, pi)
        else:
            _zpotrf(s, i, pa, i + 8, pi)
    elif op == POTRS:
        if kind == 0:
            _spotrs(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        elif kind == 1:
            _dpotrs(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        elif kind == 2:
            _cpotrs(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        else:
            _zpotrs(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
    elif op == POSV:
        if kind == 0:
            _sposv(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        elif kind == 1:
            _dposv(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        elif kind == 2:
            _cposv(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
        else:
            _zposv(s, i, i + 4, pa, i + 8, pb, i + 12, pi)
    elif op == POTRI:
        if kind == 0:
            _spotri(s, i, pa, i + 8, pi)
        elif kind == 1:
            _dpotri(s, i, pa, i + 8, pi)
        elif kind == 2:
            _cpotri(s, i, pa, i + 8, pi)
        else:
            _zpotri(s, i, pa, i + 8, pi)
    elif op == TRTRI:
        if kind == 0:
            _strtri(s, s + 1, i, pa, i + 8, pi)
        elif kind == 1:
            _dtrtri(s, s + 1, i, pa, i + 8, pi)
        elif kind == 2:
            _ctrtri(s, s + 1, i, pa, i + 8, pi)
        else:
            _ztrtri(s, s + 1, i, pa, i + 8, pi)
    elif kind == 0:
        _slauum(s, i, pa, i + 8, pi)
    elif kind == 1:
        _dlauum(s, i, pa, i + 8, pi)
    elif kind == 2:
        _clauum(s, i, pa, i + 8, pi)
    else:
        _zlauum(s, i, pa, i + 8, pi)


@_jit
def _lapack_range(op, kind, uplo, diag, n, nrhs, pa, lda, pb, ldb, pi, ws, lo, hi):  # type: ignore[no-untyped-def]
    ch, iv, _ = _cells(ws)
    ch[0], ch[1] = uplo, diag
    iv[0], iv[1], iv[2], iv[3] = n, nrhs, lda, ldb
    for e in range(lo, hi):
        _lapack(op, kind, pa[e], pb[e], pi[e], ch, iv)


@kernel
def lapack_entries(op, kind, uplo, diag, n, nrhs, pa, lda, pb, ldb, pi, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (addresses pa[e], pb[e], pi[e]): LAPACK's ``op`` in place; chunk t's argument
    cells in bytes [t * wper, (t + 1) * wper) of ws."""
    nb = pa.shape[0]
    if nchunk <= 1:
        _lapack_range(op, kind, uplo, diag, n, nrhs, pa, lda, pb, ldb, pi, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _lapack_range(op, kind, uplo, diag, n, nrhs, pa, lda, pb, ldb, pi, chunk_of(ws, t, wper), t * per,
                      min(nb, (t + 1) * per))


# --- launch bodies: numpy around the numba kernels --------------------------------------------------


def _chunks(nb: int, serial: bool, work: float = 0.0) -> int:
    # At most chunk_count(nb, work): the bound workspace() sizes the workspace for.
    return 1 if serial else chunk_count(nb, work)


def _constants(dtype: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    """1 in the element type and in its real type (the kernels' typed constants)."""
    return np.ones(1, dtype), np.ones(1, np.finfo(dtype).dtype)


def _lapack_work(op: int, n: int, nrhs: int) -> float:
    """Multiply-adds of one large entry (what decides between parallel and serial entries)."""
    return n * n * nrhs if op == POTRS else n * n * (n / 3 + nrhs)


def workspace(op: int, n: int, nrhs: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace operation ``op`` uses on ``batch`` entries of order ``n`` (``nrhs``
    right-hand sides for potrs/posv): per chunk the entry and its right-hand sides (small
    entries; for potrf at least potrf_group's scratch, and potrf_lanes' where it runs) or LAPACK's
    argument cells; for large
    potrs and lauum also the info LAPACK writes (one int32 per entry)."""
    if batch == 0 or n == 0 or (op in (POTRS, POSV) and nrhs == 0):
        return 0
    if n <= SMALL:
        per = _small_bytes(n, nrhs, itemsize)
        if op == POSV:  # potrf's, then potrs's (or, overlapping entries, the entry kernel's)
            return max(chunk_count(batch) * per, workspace(POTRF, n, 0, batch, itemsize),
                       workspace(POTRS, n, nrhs, batch, itemsize))
        if op == POTRS and n <= LANE_MAX and batch >= LANES:
            return max(chunk_count(batch) * per, solve_lane_bytes(n, nrhs, batch, itemsize))
        if op == POTRF:  # room for potrf_group's scratch too (whatever n: the workspace grows with it)
            per = max(per, _group_bytes(itemsize))
            if FIXED < n <= LANE_MAX:
                return max(chunk_count(batch) * per, _lane_bytes(n, batch, itemsize))
        return chunk_count(batch) * per
    info = rounded(4 * batch) if op in (POTRS, LAUUM) else 0
    return info + chunk_count(batch, _lapack_work(op, n, nrhs)) * _CELLS


def _run(op: int, A: np.ndarray, B: np.ndarray | None, info: np.ndarray | None, upper: bool, unit: bool,
         serial: bool, ws: np.ndarray | None) -> None:
    nb, n, _ = A.shape
    nrhs = 0 if B is None else B.shape[2]
    ws = scratch(ws, workspace(op, n, nrhs, nb, A.itemsize))
    if op == POTRF and n <= FIXED and not serial:
        a, (flat, ld, sa) = _flat_colmajor(A)
        nchunk = _chunks(nb, serial)
        w, lr = _group_parts(A.itemsize)
        W, off = host_carve(ws, 0, (nchunk, w), a.dtype)
        L, off = host_carve(ws, off, (nchunk, lr), a.dtype)
        Q, off = host_carve(ws, off, (nchunk, GROUP), np.int32)
        D, _ = host_carve(ws, off, (nchunk, GROUP), np.finfo(a.dtype).dtype)
        potrf_group(flat, sa, ld, n, upper, info, _one_negzero(a.dtype), _constants(a.dtype)[1], W, L, Q, D, nb,
                    nchunk)
        _finish(A, a)
        return
    if op == POTRF and n <= LANE_MAX and not serial:
        a, (flat, ld, sa) = _flat_colmajor(A)
        nchunk = lane_chunks(nb)
        w, lr, v, ix = _lane_parts(n, A.itemsize)
        W, off = host_carve(ws, 0, (nchunk, w), a.dtype)
        L, off = host_carve(ws, off, (nchunk, lr), a.dtype)
        V, off = host_carve(ws, off, (nchunk, v), np.finfo(a.dtype).dtype)
        Ix, off = host_carve(ws, off, (nchunk, ix), np.int64)
        Q, off = host_carve(ws, off, (nchunk, LANES), np.int32)
        D, _ = host_carve(ws, off, (nchunk, LANES), np.finfo(a.dtype).dtype)
        potrf_lanes(flat, sa, ld, n, upper, info, _one_negzero(a.dtype), _constants(a.dtype)[1], W, L, V, Ix, Q, D,
                    nb, nchunk)
        _finish(A, a)
        return
    if op == POTRS and n <= LANE_MAX and nb >= LANES and not serial:
        a, (fa, lda, sa) = _flat_colmajor(A)
        b, (fb, ldb, sb) = _flat_colmajor(B)
        nchunk = lane_chunks(nb)
        potrs_lanes(fa, sa, lda, fb, sb, ldb, n, nrhs, upper, _one_negzero(a.dtype),
                    *solve_lane_scratch(ws, n, nrhs, nchunk, a.dtype), nb, nchunk)
        _finish(B, b)
        return
    if n <= SMALL:
        if info is None:  # routines that report none: the small kernels do not write it
            info, _ = host_carve(ws, 0, (0,), np.int32)
        a, (fa, lda, sa) = _flat_colmajor(A)
        b, (fb, ldb, sb) = _flat_colmajor(np.empty((nb, 0, 0), A.dtype) if B is None else B)
        nchunk, per = _chunks(nb, serial), _small_bytes(n, nrhs, A.itemsize)
        small_entries(op, fa, sa, lda, fb, sb, ldb, info, upper, unit, *_constants(A.dtype), ws, per, n, nrhs, nb,
                      nchunk)
        _finish(A, a)
        if B is not None:
            _finish(B, b)
        return
    ensure_lapack()
    off = 0
    if info is None:  # LAPACK's info of routines that report none
        info, off = host_carve(ws, 0, (nb,), np.int32)
    a = _colmajor(A)
    b = a if B is None else _colmajor(B)
    nchunk = _chunks(nb, serial, _lapack_work(op, n, nrhs))
    lapack_entries(op, _KIND[a.dtype], ord("U" if upper else "L"), ord("U" if unit else "N"), n, nrhs,
                   _addresses(a), _ld(a), _addresses(b), _ld(b), _addresses(info[:, None]), ws[off:], _CELLS,
                   nchunk)
    _finish(A, a)
    if B is not None:
        _finish(B, b)


def potrf(A: np.ndarray, info: np.ndarray, upper: bool, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """Cholesky factorization of every entry of A in place (its upper or lower triangle); info[e]
    is the order of entry e's first leading minor that is not positive definite, or 0.
    ``serial`` processes entries in order (overlapping entries)."""
    _run(POTRF, A, None, info, upper, False, serial, ws)


def potrs(A: np.ndarray, B: np.ndarray, upper: bool, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """X over B_e solving A_e X = B_e with A_e's Cholesky factor."""
    _run(POTRS, A, B, None, upper, False, serial, ws)


def posv(A: np.ndarray, B: np.ndarray, info: np.ndarray, upper: bool, serial: bool,
         ws: np.ndarray | None = None) -> None:
    """potrf on every A_e, then X over B_e for the positive definite ones."""
    if A.shape[1] <= SMALL and not serial:
        # potrf's and potrs's kernels (in groups, in lanes: the entry kernel's operations in its
        # order, the same bits); B of an entry that is not positive definite is left as it was.
        potrf(A, info, upper, False, ws)
        if not info.any():
            potrs(A, B, upper, False, ws)
        elif (regular := np.flatnonzero(info == 0)).size:
            solved = B[regular]
            potrs(A[regular], solved, upper, False, ws)
            B[regular] = solved
        return
    _run(POSV, A, B, info, upper, False, serial, ws)


def potri(A: np.ndarray, info: np.ndarray, upper: bool, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """inv(A_e) from its Cholesky factor, in place (that triangle); info: the first zero on
    the factor's diagonal (the entry is then left as it was)."""
    _run(POTRI, A, None, info, upper, False, serial, ws)


def trtri(A: np.ndarray, info: np.ndarray, upper: bool, unit: bool, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """Inverse of every triangular A_e in place; info: the first zero on a non-unit diagonal
    (the entry is then left as it was)."""
    _run(TRTRI, A, None, info, upper, unit, serial, ws)


def lauum(A: np.ndarray, upper: bool, ws: np.ndarray | None = None) -> None:
    """U U^H (upper) or L^H L (lower) into that triangle of A.

    The product of the triangle as stored, a complex diagonal included (as rocSOLVER's,
    through trmm): LAPACK's zlauum uses only the diagonal's real part (it expects a
    Cholesky factor), so large complex entries are multiplied here instead."""
    n = A.shape[1]
    if n <= SMALL or not np.iscomplexobj(A):
        _run(LAUUM, A, None, None, upper, False, False, ws)
        return
    keep = np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool)
    for e in range(A.shape[0]):
        t = np.where(keep, A[e], 0)
        r = t @ t.conj().T if upper else t.conj().T @ t
        A[e][keep] = r[keep]
