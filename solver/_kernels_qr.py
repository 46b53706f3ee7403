"""QR-family kernels: Householder factorizations (QR, LQ, QL, RQ), Q generation and application, gels,
and the auxiliaries larfg, larf, larft, larfb, lacgv.

One engine does every factorization.  Each entry is copied into a contiguous scratch
matrix ``M`` stored column-major (``w[c, i] = M[i, c]``: columns contiguous, so the loops
vectorise) where an unblocked Householder QR (LAPACK's geqr2, with rocSOLVER's larfg
conventions: see :func:`_larfg`) runs; the four factorizations differ only in how the
entry maps onto ``M``:

- QR: ``M = A``;
- LQ: ``M = A^H``: LAPACK's gelq2 of A is geqr2 of A^H, conjugate-transposed back (the
  same tau, the row of A holding the conjugate of the column's Householder vector);
- QL: ``M = J A J`` (J reverses rows, columns): geql2 of A is geqr2 of the reversed
  matrix, reversed back, with tau in reverse order;
- RQ: ``M = J A^H J``, both at once.

Q generation (org2r, orgl2) and application (orm2r, orml2) reduce the same way to
LAPACK's org2r and to applying ``Q = H(1)...H(k)`` or ``Q^H`` from the left: an LQ
factor's Q is Q'^H for the QR factor Q' of A^H, and a product from the right is the
conjugate transpose of a product from the left.  gels is geqr2 of A (or A^H when m <
n) followed by Q or Q^H and a triangular solve.

Entries with ``min(m, n) <= SMALL`` (gels, factorizations) or ``max(m, n) <= SMALL``
(generation, application) run as numba code, many at a time (a chunked ``prange``
over the batch); larger ones call scipy's LAPACK (geqrf, gelqf, geqlf, gerqf,
orgqr/ungqr, orglq/unglq, ormqr/unmqr, ormlq/unmlq: blocked, OpenBLAS-threaded) one
entry after another through the function pointers of ``scipy.linalg.cython_lapack``.
The path depends on sizes only.  (The large path keeps LAPACK's xLARFG conventions where
they differ from rocSOLVER's: see :func:`_larfg`.)

Scratch memory (the small kernels' matrices and scalars, LAPACK's work arrays, the
staging of large gels entries) is carved out of the handle's workspace
(:mod:`rocmath.solver._workspace`); the ``*_workspace`` functions give the bytes, computed
by the same code the launch bodies use.
"""

from __future__ import annotations

import ctypes
import math
import threading
from typing import Any

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

from ._kernels_lu import _addresses, _chunks, _colmajor, _finish, _ld, _vector_rows
from ._lapack import _capsule_address
from ._workspace import carve, carve2, chunk_count, chunk_of, host_carve, layout, scratch

#: Entries up to this size run as numba code (see the module docstring).
SMALL = 64
#: Block size the LAPACK work arrays are sized for.
NB_WORK = 64

_jit = njit(nogil=True, error_model="numpy", cache=True)
_U = np.uintp


# --- numba: one entry in contiguous scratch ------------------------------------------------------


@_jit
def _load(w, A, e, herm, rev):  # type: ignore[no-untyped-def]
    """w[c, i] = M[i, c] with M = A[e] (herm False) or A[e]^H, reversed in both directions if rev."""
    nc, nr = w.shape
    for c in range(nc):
        cc = nc - 1 - c if rev else c
        for i in range(nr):
            ii = nr - 1 - i if rev else i
            if herm:
                w[c, i] = np.conj(A[e, cc, ii])
            else:
                w[c, i] = A[e, ii, cc]


@_jit
def _store(A, e, w, herm, rev):  # type: ignore[no-untyped-def]
    """The inverse of :func:`_load`."""
    nc, nr = w.shape
    for c in range(nc):
        cc = nc - 1 - c if rev else c
        for i in range(nr):
            ii = nr - 1 - i if rev else i
            if herm:
                A[e, cc, ii] = np.conj(w[c, i])
            else:
                A[e, ii, cc] = w[c, i]


@_jit
def _nrm2(w, j, r0, r1):  # type: ignore[no-untyped-def]
    """2-norm of w[j, r0:r1], without overflow or underflow."""
    ssq = 0.0
    for i in range(_U(r0), _U(r1)):
        x = w[j, i]
        ssq += x.real * x.real + x.imag * x.imag
    if 1e-280 < ssq < 1e280:
        return math.sqrt(ssq)
    if ssq == 0.0:
        return 0.0
    scale = 0.0
    for i in range(r0, r1):
        scale = max(scale, abs(w[j, i].real), abs(w[j, i].imag))
    if scale == 0.0 or not math.isfinite(scale):
        return scale
    ssq = 0.0
    for i in range(r0, r1):
        xr, xi = w[j, i].real / scale, w[j, i].imag / scale
        ssq += xr * xr + xi * xi
    return scale * math.sqrt(ssq)


@_jit
def _hypot3(x, y, z):  # type: ignore[no-untyped-def]
    # LAPACK's dlapy3.
    big = max(abs(x), abs(y), abs(z))
    if big == 0.0 or not math.isfinite(big):
        return abs(x) + abs(y) + abs(z)
    return big * math.sqrt((x / big) ** 2 + (y / big) ** 2 + (z / big) ** 2)


@_jit
def _beta(ar, ai, xnorm):  # type: ignore[no-untyped-def]
    # rocSOLVER's beta (rocauxiliary_larfg.hpp, run_set_taubeta): -norm when the real part of alpha
    # is >= 0, so -0.0 counts as non-negative (LAPACK's SIGN would see its sign bit), +norm otherwise.
    h = _hypot3(ar, ai, xnorm)
    return -h if ar >= 0.0 else h


@_jit
def _larfg(w, j, r0, r1, safmin):  # type: ignore[no-untyped-def]
    """xLARFG on alpha = w[j, r0], x = w[j, r0+1:r1]: alpha := beta (real), x := v; returns tau.

    rocSOLVER's conventions (rocauxiliary_larfg.hpp, run_set_taubeta): tau = 0 (H = I, alpha and
    x left as they are) unless ||x||^2 > 0 or im(alpha)^2 > 0 (in the working precision: an
    underflowing im(alpha)^2 counts as 0; an infinite or NaN alpha with x = 0, a NaN x give
    tau = 0 too); beta = -norm for re(alpha) >= 0 (-0.0 included), +norm otherwise.  The norm,
    tau = (beta - alpha) / beta and v = x / (alpha - beta) are LAPACK's, and tiny betas are
    rescaled as LAPACK does."""
    alpha = w[j, r0]
    zero = w.dtype.type(0)  # +0 of the working type (alpha * 0 is -0 for a negative alpha, NaN for an infinite one)
    xnorm = _nrm2(w, j, r0 + 1, r1)
    # rocSOLVER: `if(norms[0] > 0)` (real), `if(norms[0].real() > 0 || m > 0)` with m = ai * ai (complex);
    # anything else, NaN included, is tau = 0.  The square is taken in the working precision, as there.
    # xnorm > 0 decides as ||x||^2 > 0 does: _nrm2 gives 0 when every square underflows, NaN for a NaN.
    ai2 = alpha.imag * alpha.imag
    if not (xnorm > 0.0 or ai2 > 0.0):
        return zero
    ar, ai = float(alpha.real), float(alpha.imag)
    beta = _beta(ar, ai, xnorm)
    knt = 0
    # Left as it is on purpose: rocSOLVER does not rescale (run_set_taubeta takes beta = sqrt(||x||^2 +
    # |alpha|^2) and v = x / (alpha - beta) as they come); LAPACK's rescaling of a tiny beta keeps tau
    # and v accurate where they would otherwise lose their low bits or overflow.
    if abs(beta) < safmin:
        rsafmn = 1.0 / safmin
        while True:  # beta may be inaccurate: scale x and alpha up (at most 20 times)
            knt += 1
            for i in range(_U(r0 + 1), _U(r1)):
                w[j, i] *= rsafmn
            beta *= rsafmn
            alpha *= rsafmn
            if abs(beta) >= safmin or knt >= 20:
                break
        xnorm = _nrm2(w, j, r0 + 1, r1)
        ar, ai = float(alpha.real), float(alpha.imag)
        beta = _beta(ar, ai, xnorm)
    tau = (beta - alpha) / beta  # beta is real: (beta - re)/beta - i im/beta for complex alpha
    scal = (zero + 1) / (alpha - beta)
    for i in range(_U(r0 + 1), _U(r1)):
        w[j, i] *= scal
    for _ in range(knt):
        beta *= safmin
    w[j, r0] = beta
    return tau + zero


@_jit
def _reflect(v, j, w, r0, r1, t, c0, c1):  # type: ignore[no-untyped-def]
    """Columns c0:c1 of w, rows r0:r1 := (I - t u u^H) of them, u = v[j, r0:r1] with u[0] = 1."""
    for c in range(c0, c1):
        s = w[c, r0]
        for i in range(_U(r0 + 1), _U(r1)):
            s += np.conj(v[j, i]) * w[c, i]
        s *= t
        w[c, r0] -= s
        for i in range(_U(r0 + 1), _U(r1)):
            w[c, i] -= s * v[j, i]


@_jit
def _geqr2(w, tau, safmin):  # type: ignore[no-untyped-def]
    """LAPACK's geqr2 on the matrix held column-major in w: R on and above the diagonal, the
    Householder vectors below it, tau[0:min(rows, cols)]."""
    n, m = w.shape
    for j in range(min(m, n)):
        tau[j] = _larfg(w, j, j, m, safmin)
        t = tau[j]  # in the working precision
        if t != 0:
            _reflect(w, j, w, j, m, np.conj(t), j + 1, n)


@_jit
def _org2r(w, tau, k):  # type: ignore[no-untyped-def]
    """LAPACK's org2r: the cols x rows scratch w holding k Householder vectors becomes the first
    columns of Q = H(0)...H(k-1)."""
    n, m = w.shape
    for j in range(k, n):
        for i in range(m):
            w[j, i] = 0
        w[j, j] = 1
    for i in range(k - 1, -1, -1):
        t = tau[i]
        if i < n - 1:
            w[i, i] = 1
            _reflect(w, i, w, i, m, t, i + 1, n)
        for r in range(_U(i + 1), _U(m)):
            w[i, r] = -t * w[i, r]
        w[i, i] = 1 - t
        for r in range(i):
            w[i, r] = 0


@_jit
def _apply(v, tau, k, cw, herm):  # type: ignore[no-untyped-def]
    """cw := Q cw, or Q^H cw if herm, for Q = H(0)...H(k-1) with the vectors held in v."""
    nc, nq = cw.shape
    if herm:
        for i in range(k):
            _reflect(v, i, cw, i, nq, np.conj(tau[i]), 0, nc)
    else:
        for i in range(k - 1, -1, -1):
            _reflect(v, i, cw, i, nq, tau[i], 0, nc)


@_jit
def _first_zero_diagonal(w):  # type: ignore[no-untyped-def]
    for j in range(min(w.shape[0], w.shape[1])):
        if w[j, j] == 0:
            return j + 1
    return 0


@_jit
def _solve_r(w, x):  # type: ignore[no-untyped-def]
    """x[r, 0:n] := inv(R) x[r, 0:n] for R, n x n upper triangular, held in w."""
    n = w.shape[0]
    for r in range(x.shape[0]):
        for j in range(n - 1, -1, -1):
            x[r, j] = x[r, j] / w[j, j]
            t = x[r, j]
            for i in range(_U(j)):
                x[r, i] -= t * w[j, i]


@_jit
def _solve_rh(w, x):  # type: ignore[no-untyped-def]
    """x[r, 0:n] := inv(R^H) x[r, 0:n]."""
    n = w.shape[0]
    for r in range(x.shape[0]):
        for j in range(n):
            s = x[r, j]
            for i in range(_U(j)):
                s -= np.conj(w[j, i]) * x[r, i]
            x[r, j] = s / np.conj(w[j, j])


# --- numba: small entries, many at a time ----------------------------------------------------------


def _factor_bytes(m: int, n: int, isz: int) -> int:
    """Scratch of one chunk of factor_small / generate_small: the entry and its scalars."""
    return layout((m * n, isz), (min(m, n), isz))


@_jit
def _matrix(ws, off, rows, cols, A):  # type: ignore[no-untyped-def]
    # A cols x rows scratch matrix of A's type at byte off of ws (column-major: w[c, i]).
    return carve2(ws, off, cols, rows, A.dtype, A.itemsize)


@_jit
def _factor_range(A, tau, herm, rev, safmin, ws, lo, hi):  # type: ignore[no-untyped-def]
    _, m, n = A.shape
    rows, cols = (n, m) if herm else (m, n)
    k = min(m, n)
    w, o = _matrix(ws, 0, rows, cols, A)
    t, o = carve(ws, o, k, A.dtype, A.itemsize)
    for e in range(lo, hi):
        _load(w, A, e, herm, rev)
        _geqr2(w, t, safmin)
        _store(A, e, w, herm, rev)
        for j in range(k):
            tau[e, j] = t[k - 1 - j] if rev else t[j]


@kernel
def factor_small(A, tau, herm, rev, safmin, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e of A: the Householder factorization selected by herm/rev (module docstring) in
    place, its scalars to tau[e]; chunk t's scratch in bytes [t * wper, (t + 1) * wper) of ws."""
    nb = A.shape[0]
    if nchunk <= 1:
        _factor_range(A, tau, herm, rev, safmin, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _factor_range(A, tau, herm, rev, safmin, chunk_of(ws, t, wper), t * per, min(nb, (t + 1) * per))


@_jit
def _generate_range(A, tau, k, herm, ws, lo, hi):  # type: ignore[no-untyped-def]
    _, m, n = A.shape
    rows, cols = (n, m) if herm else (m, n)
    w, o = _matrix(ws, 0, rows, cols, A)
    t, o = carve(ws, o, k, A.dtype, A.itemsize)
    for e in range(lo, hi):
        _load(w, A, e, herm, False)
        for j in range(k):
            t[j] = tau[e, j]
        _org2r(w, t, k)
        _store(A, e, w, herm, False)


@kernel
def generate_small(A, tau, k, herm, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e of A: Q of its QR (LQ if herm) factorization from k vectors, in place."""
    nb = A.shape[0]
    if nchunk <= 1:
        _generate_range(A, tau, k, herm, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _generate_range(A, tau, k, herm, chunk_of(ws, t, wper), t * per, min(nb, (t + 1) * per))


def _apply_bytes(nq: int, k: int, m: int, n: int, isz: int) -> int:
    """Scratch of one chunk of apply_small: the vectors (k x nq), C and the scalars."""
    return layout((k * nq, isz), (m * n, isz), (k, isz))


@_jit
def _apply_range(V, tau, C, vherm, cherm, qherm, ws, lo, hi):  # type: ignore[no-untyped-def]
    _, vr, vc = V.shape
    nq, k = (vc, vr) if vherm else (vr, vc)
    _, m, n = C.shape
    rows, cols = (n, m) if cherm else (m, n)
    v, o = _matrix(ws, 0, nq, k, V)
    cw, o = _matrix(ws, o, rows, cols, C)
    t, o = carve(ws, o, k, V.dtype, V.itemsize)
    for e in range(lo, hi):
        _load(v, V, e, vherm, False)
        _load(cw, C, e, cherm, False)
        for j in range(k):
            t[j] = tau[e, j]
        _apply(v, t, k, cw, qherm)
        _store(C, e, cw, cherm, False)


@kernel
def apply_small(V, tau, C, vherm, cherm, qherm, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: C := op(Q) C for the Q whose vectors V holds (vherm: as rows, LQ); C is taken
    conjugate-transposed if cherm (a product from the right)."""
    nb = C.shape[0]
    if nchunk <= 1:
        _apply_range(V, tau, C, vherm, cherm, qherm, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _apply_range(V, tau, C, vherm, cherm, qherm, chunk_of(ws, t, wper), t * per, min(nb, (t + 1) * per))


def _gels_small_bytes(m: int, n: int, nrhs: int, isz: int) -> int:
    """Scratch of one chunk of gels_small: the entry (A or A^H), its scalars, the right-hand sides."""
    return layout((m * n, isz), (min(m, n), isz), (nrhs * max(m, n), isz))


@_jit
def _gels_range(A, B, info, solve_n, safmin, ws, lo, hi):  # type: ignore[no-untyped-def]
    _, m, n = A.shape
    herm = m < n
    rows, cols = max(m, n), min(m, n)
    w, o = _matrix(ws, 0, rows, cols, A)
    t, o = carve(ws, o, cols, A.dtype, A.itemsize)
    x, o = _matrix(ws, o, rows, B.shape[2], B)
    for e in range(lo, hi):
        _load(w, A, e, herm, False)
        _geqr2(w, t, safmin)
        _store(A, e, w, herm, False)
        bad = _first_zero_diagonal(w)
        info[e] = bad
        _load(x, B, e, False, False)
        if solve_n:  # R X = Q^H B: B keeps Q^H B if R is singular
            _apply(w, t, cols, x, True)
            if bad == 0:
                _solve_r(w, x)
        elif bad == 0:  # X = Q [inv(R^H) B; 0]; B is left as it was if R is singular
            _solve_rh(w, x)
            for r in range(x.shape[0]):
                for i in range(cols, rows):
                    x[r, i] = 0
            _apply(w, t, cols, x, False)
        else:
            continue
        _store(B, e, x, False, False)


@kernel
def gels_small(A, B, info, solve_n, safmin, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: least squares / minimum norm solution of op(A_e) X = B_e (see :func:`gels`)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _gels_range(A, B, info, solve_n, safmin, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _gels_range(A, B, info, solve_n, safmin, chunk_of(ws, t, wper), t * per, min(nb, (t + 1) * per))


@kernel(parallel=False)
def larfg_one(alpha, x, tau, safmin):  # type: ignore[no-untyped-def]
    """xLARFG (:func:`_larfg`): alpha[0] := beta, x := v, tau[0] := tau (x: the n - 1 elements)."""
    w = np.empty((1, x.shape[0] + 1), alpha.dtype)
    w[0, 0] = alpha[0]
    for i in range(x.shape[0]):
        w[0, i + 1] = x[i]
    tau[0] = _larfg(w, 0, 0, w.shape[1], safmin)
    alpha[0] = w[0, 0]
    for i in range(x.shape[0]):
        x[i] = w[0, i + 1]


@kernel(parallel=False)
def larft_t(V, tau, T, forward):  # type: ignore[no-untyped-def]
    """LAPACK's xLARFT with the vectors as the columns of V (n x k, unit entries and zeros in
    place): T (k x k) upper (forward) or lower (backward) triangular, the other triangle not
    touched; a zero tau gives a zero column."""
    n, k = V.shape
    order = range(k) if forward else range(k - 1, -1, -1)
    for i in order:
        t = tau[i]
        lo, hi = (0, i) if forward else (i + 1, k)
        if t == 0:
            for r in range(lo, hi):
                T[r, i] = 0
            T[i, i] = 0
            continue
        for r in range(lo, hi):  # T[r, i] = -tau_i V[:, r]^H V[:, i]
            s = V[0, r] * 0
            for q in range(n):
                s += np.conj(V[q, r]) * V[q, i]
            T[r, i] = -t * s
        # T[lo:hi, i] := T[lo:hi, lo:hi] T[lo:hi, i] (triangular, in place in a safe order)
        if forward:
            for r in range(lo, hi):
                s = T[r, i] * 0
                for q in range(r, hi):
                    s += T[r, q] * T[q, i]
                T[r, i] = s
        else:
            for r in range(hi - 1, lo - 1, -1):
                s = T[r, i] * 0
                for q in range(lo, r + 1):
                    s += T[r, q] * T[q, i]
                T[r, i] = s
        T[i, i] = t


# --- LAPACK through scipy's function pointers -------------------------------------------------------

#: LAPACK routine (as named for real types) -> pointer-argument count.
_ROUTINES = {"geqrf": 8, "gelqf": 8, "geqlf": 8, "gerqf": 8, "orgqr": 9, "orglq": 9, "ormqr": 13, "ormlq": 13}
_FUNCS: dict[str, Any] = {}
_lock = threading.Lock()


def _lapack(p: str, name: str) -> Any:
    """scipy's LAPACK routine ``p + name`` (``or`` -> ``un`` for complex) as a ctypes function."""
    key = p + name
    fn = _FUNCS.get(key)
    if fn is None:
        with _lock:
            import scipy.linalg.cython_lapack as clapack

            real_name = p + (name.replace("or", "un", 1) if p in "cz" and name.startswith("or") else name)
            proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * _ROUTINES[name]))
            fn = _FUNCS[key] = proto(_capsule_address(clapack.__pyx_capi__[real_name]))
    return fn


_P = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c",
      np.dtype(np.complex128): "z"}


def _ints(*values: int) -> list[ctypes.c_int]:
    return [ctypes.c_int(v) for v in values]


def _ref(x: Any) -> Any:
    return ctypes.byref(x)


def _lwork(*dims: int) -> int:
    """Elements of the work array the blocked LAPACK routines get: blocks of NB_WORK columns."""
    return (max(1, *dims) + NB_WORK + 1) * NB_WORK


def _work(ws: np.ndarray, dtype: np.dtype[Any], *dims: int) -> tuple[np.ndarray, ctypes.c_int]:
    """LAPACK's work array, carved from the start of ``ws``."""
    lwork = _lwork(*dims)
    return host_carve(ws, 0, (lwork,), dtype)[0], ctypes.c_int(lwork)


# --- launch bodies: numpy around the kernels --------------------------------------------------------

#: Factorization -> (M is A^H, M is reversed), and the LAPACK routine for large entries.
FACTOR = {"qr": (False, False, "geqrf"), "lq": (True, False, "gelqf"), "ql": (False, True, "geqlf"),
          "rq": (True, True, "gerqf")}


def _safmin(dtype: np.dtype[Any]) -> float:
    # LAPACK's xLARFG threshold dlamch('S') / dlamch('E').
    f = np.finfo(dtype)
    return float(f.tiny) / float(f.eps)


def factor_workspace(m: int, n: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`factor` uses: per chunk the entry and its scalars (small
    entries), or LAPACK's work array (large ones, one at a time)."""
    if batch == 0 or m == 0 or n == 0:
        return 0
    if min(m, n) <= SMALL:
        return chunk_count(batch) * _factor_bytes(m, n, itemsize)
    return layout((_lwork(m, n), itemsize))


def factor(kind: str, A: np.ndarray, tau: np.ndarray, serial: bool, ws: np.ndarray | None = None) -> None:
    """The Householder factorization ``kind`` (qr, lq, ql, rq) of every entry of A in place,
    LAPACK's layout; the scalars to tau ((batch, min(m, n))); ``ws``: the workspace
    (:func:`factor_workspace` bytes)."""
    nb, m, n = A.shape
    herm, rev, name = FACTOR[kind]
    if min(m, n) <= SMALL:
        nchunk, per = _chunks(nb, serial), _factor_bytes(m, n, A.itemsize)
        factor_small(A, tau, herm, rev, _safmin(A.dtype), scratch(ws, nchunk * per), per, nchunk)
        return
    a, t = _colmajor(A), _vector_rows(tau)
    fn = _lapack(_P[a.dtype], name)
    work, lwork = _work(scratch(ws, factor_workspace(m, n, 1, a.itemsize)), a.dtype, m, n)
    mm, nn, lda, info = _ints(m, n, _ld(a), 0)
    for pa, pt in zip(_addresses(a), _addresses(t), strict=True):
        fn(_ref(mm), _ref(nn), int(pa), _ref(lda), int(pt), work.ctypes.data, _ref(lwork), _ref(info))
    _finish(A, a)
    _finish(tau, t)


def generate_workspace(m: int, n: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`generate` uses (as :func:`factor_workspace`; small entries are
    those with max(m, n) <= SMALL)."""
    if batch == 0 or m == 0 or n == 0:
        return 0
    if max(m, n) <= SMALL:
        return chunk_count(batch) * _factor_bytes(m, n, itemsize)
    return layout((_lwork(m, n), itemsize))


def generate(kind: str, A: np.ndarray, tau: np.ndarray, k: int, ws: np.ndarray | None = None) -> None:
    """Q of the QR (kind qr: orthonormal columns) or LQ (lq: rows) factorization whose k
    vectors and scalars A and tau hold, over A."""
    nb, m, n = A.shape
    herm = kind == "lq"
    if max(m, n) <= SMALL:
        nchunk, per = _chunks(nb, False), _factor_bytes(m, n, A.itemsize)
        generate_small(A, tau, k, herm, scratch(ws, nchunk * per), per, nchunk)
        return
    a, t = _colmajor(A), _vector_rows(tau)
    fn = _lapack(_P[a.dtype], "orglq" if herm else "orgqr")
    work, lwork = _work(scratch(ws, generate_workspace(m, n, 1, a.itemsize)), a.dtype, m, n)
    mm, nn, kk, lda, info = _ints(m, n, k, _ld(a), 0)
    for pa, pt in zip(_addresses(a), _addresses(t), strict=True):
        fn(_ref(mm), _ref(nn), _ref(kk), int(pa), _ref(lda), int(pt), work.ctypes.data, _ref(lwork), _ref(info))
    _finish(A, a)


def apply_workspace(left: bool, m: int, n: int, k: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`apply` uses: per chunk the vectors, C and the scalars (small
    entries), or LAPACK's work array."""
    if batch == 0 or m == 0 or n == 0 or k == 0:
        return 0
    if max(m, n) <= SMALL:
        return chunk_count(batch) * _apply_bytes(m if left else n, k, m, n, itemsize)
    return layout((_lwork(m, n), itemsize))


def apply(kind: str, left: bool, trans: bool, V: np.ndarray, tau: np.ndarray, C: np.ndarray,
          ws: np.ndarray | None = None) -> None:
    """C := op(Q) C (left) or C op(Q) (right), op(Q) = Q^H if trans, for the Q of the QR (kind
    qr: V is nq x k) or LQ (lq: V is k x nq) factorization with scalars tau."""
    nb, m, n = C.shape
    lq = kind == "lq"
    k = tau.shape[1]
    if max(m, n) <= SMALL:
        # op(Q_LQ) = op'(Q') for the QR factor Q' of V^H, op' the other one; from the right,
        # C op(Q) = (op(Q)^H C^H)^H.
        nchunk, per = _chunks(nb, False), _apply_bytes(m if left else n, k, m, n, C.itemsize)
        apply_small(V, tau, C, lq, not left, trans ^ lq ^ (not left), scratch(ws, nchunk * per), per, nchunk)
        return
    v, t, c = _colmajor(V), _vector_rows(tau), _colmajor(C)
    p = _P[c.dtype]
    fn = _lapack(p, "ormlq" if lq else "ormqr")
    side = ctypes.c_char(b"L" if left else b"R")
    op = ctypes.c_char(b"N" if not trans else (b"C" if p in "cz" else b"T"))
    work, lwork = _work(scratch(ws, apply_workspace(left, m, n, k, 1, c.itemsize)), c.dtype, m, n)
    mm, nn, kk, lda, ldc, info = _ints(m, n, k, _ld(v), _ld(c), 0)
    for pv, pt, pc in zip(_addresses(v), _addresses(t), _addresses(c), strict=True):
        fn(_ref(side), _ref(op), _ref(mm), _ref(nn), _ref(kk), int(pv), _ref(lda), int(pt), int(pc), _ref(ldc),
           work.ctypes.data, _ref(lwork), _ref(info))
    _finish(C, c)


def _gels_large_parts(m: int, n: int, nrhs: int, itemsize: int) -> tuple[int, int]:
    """(bytes of a large gels entry's staging: its matrix, scalars and right-hand sides; bytes of
    the LAPACK work array after it)."""
    rows, cols = max(m, n), min(m, n)
    staging = layout((rows * cols, itemsize), (cols, itemsize), (rows * nrhs, itemsize))
    return staging, layout((max(_lwork(rows, cols), _lwork(rows, nrhs)), itemsize))


def gels_workspace(m: int, n: int, nrhs: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`gels` uses: per chunk the entry, its scalars and right-hand sides
    (small entries); for large ones (one at a time) the same staging and LAPACK's work array."""
    if batch == 0 or m == 0 or n == 0 or nrhs == 0:
        return 0
    if min(m, n) <= SMALL:
        return chunk_count(batch) * _gels_small_bytes(m, n, nrhs, itemsize)
    return sum(_gels_large_parts(m, n, nrhs, itemsize))


def gels(A: np.ndarray, B: np.ndarray, info: np.ndarray, trans: bool, serial: bool,
         ws: np.ndarray | None = None) -> None:
    """rocSOLVER's gels on every entry: A := its QR (m >= n) or LQ (m < n) factorization; B
    (max(m, n) x nrhs) := the least squares solution of op(A) X = B (overdetermined) or the
    minimum norm one (underdetermined); info := the first zero on R's (L's) diagonal, 1-based.
    A singular entry's B is left as it was, except where the solve starts by applying Q^H
    (m >= n, not transposed) or Q (m < n, transposed): B then holds that product, as in
    rocSOLVER and LAPACK."""
    nb, m, n = A.shape
    nrhs = B.shape[2]
    # With M = A (m >= n) or A^H (LQ of A = QR of A^H): R X = Q^H B or X = Q inv(R^H) B.
    solve_n = trans == (m < n)
    if min(m, n) <= SMALL:
        nchunk, per = _chunks(nb, serial), _gels_small_bytes(m, n, nrhs, A.itemsize)
        gels_small(A, B, info, solve_n, _safmin(A.dtype), scratch(ws, nchunk * per), per, nchunk)
        return
    import scipy.linalg

    rows, cols = max(m, n), min(m, n)
    herm = m < n
    ws = scratch(ws, gels_workspace(m, n, nrhs, nb, A.itemsize))
    staged, _ = _gels_large_parts(m, n, nrhs, A.itemsize)
    mat, off = host_carve(ws, 0, (1, rows, cols), A.dtype, "F")
    tau, off = host_carve(ws, off, (1, cols), A.dtype)
    x, _ = host_carve(ws, off, (1, rows, nrhs), B.dtype, "F")
    work = ws[staged:]
    for e in range(nb):
        mat[0] = A[e].conj().T if herm else A[e]
        factor("qr", mat, tau, True, work)
        A[e] = mat[0].conj().T if herm else mat[0]
        r = mat[0, :cols, :cols]  # R: solve_triangular reads its upper triangle only
        d = np.diagonal(r)
        bad = int(np.argmax(d == 0)) + 1 if (d == 0).any() else 0
        info[e] = bad
        x[0] = B[e, :rows]
        if solve_n:
            apply("qr", True, True, mat, tau, x, work)
            if bad == 0:
                x[0, :cols] = scipy.linalg.solve_triangular(r, x[0, :cols], lower=False, check_finite=False)
        elif bad == 0:
            x[0, :cols] = scipy.linalg.solve_triangular(r, x[0, :cols], trans="C", lower=False,
                                                        check_finite=False)
            x[0, cols:] = 0
            apply("qr", True, False, mat, tau, x, work)
        else:
            continue
        B[e, :rows] = x[0]


def zero(x: np.ndarray) -> None:
    """x := 0 (gels' solution of an empty system)."""
    x[...] = 0


def lacgv(x: np.ndarray) -> None:
    """x := conj(x)."""
    np.conjugate(x, out=x)


def larfg(alpha: np.ndarray, x: np.ndarray | None, tau: np.ndarray) -> None:
    """xLARFG with rocSOLVER's conventions (:func:`_larfg`) on the device scalars alpha, tau and the
    vector x ((1, n - 1) or None)."""
    xs = np.zeros(0, alpha.dtype) if x is None else x[0]
    work = np.ascontiguousarray(xs)
    larfg_one(alpha, work, tau, _safmin(alpha.dtype))
    if x is not None:
        x[0] = work


def larf(left: bool, x: np.ndarray, alpha: np.ndarray, A: np.ndarray) -> None:
    """A := (I - alpha x x^H) A (left) or A (I - alpha x x^H) (right); x is used whole (its
    first element is not taken as 1); nothing happens for alpha = 0."""
    t = alpha[0]
    if t == 0:
        return
    a, v = A[0], x[0]
    if left:
        a -= np.outer(t * v, v.conj() @ a)
    else:
        a -= np.outer(a @ v, t * v.conj())


def _vectors(V: np.ndarray, forward: bool, rowwise: bool, k: int) -> np.ndarray:
    """The Householder vectors of V (column- or row-wise) as columns (nq x k), with their unit
    entries and zeros made explicit as LAPACK assumes them."""
    vc = np.array(V.conj().T if rowwise else V)
    nq = vc.shape[0]
    for i in range(k):
        if forward:
            vc[:i, i] = 0
            vc[i, i] = 1
        else:
            p = nq - k + i
            vc[p + 1:, i] = 0
            vc[p, i] = 1
    return vc


def larft(forward: bool, rowwise: bool, V: np.ndarray, tau: np.ndarray, T: np.ndarray) -> None:
    """LAPACK's xLARFT: the triangular factor T of H = I - V T V^H (column-wise vectors) or
    I - V^H T V (row-wise).  All k x k entries are written, the unused triangle as zeros, as
    rocSOLVER's larft (rocauxiliary_larft.hpp, set_triangular)."""
    k = T.shape[1]
    vc = _vectors(V[0], forward, rowwise, k)
    t = np.ascontiguousarray(T[0])
    larft_t(vc, np.ascontiguousarray(tau), t, forward)
    T[0] = np.triu(t) if forward else np.tril(t)


def larfb(left: bool, trans: bool, conjugate: bool, forward: bool, rowwise: bool, V: np.ndarray, T: np.ndarray,
          A: np.ndarray) -> None:
    """LAPACK's xLARFB: A := H' A or A H' for H = I - V T V^H, H' = I - V op(T) V^H with op(T) = T^T
    when ``trans`` (T^H when ``conjugate`` too, i.e. H' = H^H)."""
    k = T.shape[1]
    vc = _vectors(V[0], forward, rowwise, k)
    t = np.triu(T[0]) if forward else np.tril(T[0])
    if trans:
        t = t.conj().T if conjugate else t.T
    a = A[0]
    if left:
        a -= vc @ (t @ (vc.conj().T @ a))
    else:
        a -= ((a @ vc) @ t) @ vc.conj().T
