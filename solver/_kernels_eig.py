"""Kernels of the symmetric eigenvalue and SVD family.

Every entry of a batch is solved by the same per-entry code, run by numba over the
batch (a chunked ``prange``, one chunk per thread, each chunk with its own scratch):

- the Householder/QR-iteration routines (sytd2/sytrd, syev, syevd, sygv, gebd2/gebrd,
  gesvd, and the tridiagonal/bidiagonal sterf, steqr, stedc, bdsqr) call scipy's
  LAPACK on each entry in place, through symbols registered with LLVM
  (:func:`ensure_eig`), as rocSOLVER composes them: syev is sytrd then sterf (values)
  or orgtr + steqr (vectors); syevd is sytrd then sterf or stedc of the tridiagonal
  matrix + ormtr; sygv is potrf(B), sygst, syev and the back-transformation with
  trsm/trmm.  Small entries run many at a time on the cores; entries with at least
  :data:`SERIAL_WORK` multiply-adds run one after another, each threaded by OpenBLAS.
- the Jacobi routines (syevj/heevj, gesvdj) are numba code: cyclic two-sided Jacobi
  with rocSOLVER's rotation, tolerance and residual; gesvdj is one-sided Jacobi on the
  columns of A (which diagonalises AᴴA as rocSOLVER's syevj of AᴴA does, without
  forming it), then a QR factorization of A V for U.

gesvd with singular vectors uses LAPACK's divide-and-conquer SVD (gesdd: the same
factorization, an order of magnitude faster than QR iteration for the vectors) and
falls back to gesvd's QR iteration on the rare input where gesdd does not converge,
so ``info > 0`` keeps rocSOLVER's meaning (superdiagonal elements that did not
converge, left in E).  The path depends on sizes and data only, so the same inputs
always give the same bits.

Scratch memory (LAPACK's work arrays, sized as the blocked routines want them or, for
gesvd and stedc, as LAPACK's own workspace query answers on the host; the integer argument
cells; the Jacobi kernels' matrices; the padded copies of E and tau LAPACK may write one
element past) is carved out of the handle's workspace (:mod:`rocmath.solver._workspace`);
the ``*_workspace`` functions give the bytes, computed by the same code the launch bodies
use.  The launch bodies at the end get the operands as ``(batch, rows, cols)`` / ``(batch,
n)`` views and make them column-major / contiguous for LAPACK when they are not.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from typing import Any

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

from ._kernels_lu import _CELLS, _KIND, _cells, _colmajor, _finish, _ld, _vector_rows
from ._lapack import _capsule_address, ensure_lapack, external
from ._workspace import carve, carve2, chunk_count, chunk_of, host_carve, layout, rounded, scratch

#: LAPACK routines this family calls -> the precisions that have them (registered as rocmath_<p><name>).
ROUTINES: dict[str, str] = {
    "sytrd": "sd", "sytd2": "sd", "orgtr": "sd", "ormtr": "sd", "sterf": "sd", "sygst": "sd", "orgqr": "sd",
    "hetrd": "cz", "hetd2": "cz", "ungtr": "cz", "unmtr": "cz", "hegst": "cz", "ungqr": "cz",
    "steqr": "sdcz", "stedc": "sdcz", "potrf": "sdcz", "gesvd": "sdcz", "gesdd": "sdcz", "gebrd": "sdcz",
    "gebd2": "sdcz", "bdsqr": "sdcz", "geqrf": "sdcz",
}
_registered = False
_lock = threading.Lock()


def ensure_eig() -> None:
    """Register :data:`ROUTINES` (and, through :func:`ensure_lapack`, the BLAS symbols) once."""
    global _registered
    if _registered:
        return
    ensure_lapack()
    with _lock:
        if _registered:
            return
        import llvmlite.binding as ll
        import scipy.linalg.cython_lapack as clapack

        for name, letters in ROUTINES.items():
            for p in letters:
                ll.add_symbol(f"rocmath_{p}{name}", _capsule_address(clapack.__pyx_capi__[p + name]))
        _registered = True


def _ext(name: str, nargs: int) -> tuple[Any, Any, Any, Any]:
    """The four precisions' externals of a routine (the real name for s/d, the Hermitian one for c/z)."""
    real, cplx = [*name.split("/"), name][:2]
    return (external("s" + real, nargs), external("d" + real, nargs), external("c" + cplx, nargs),
            external("z" + cplx, nargs))


_TRD = _ext("sytrd/hetrd", 10)
_TD2 = _ext("sytd2/hetd2", 8)
_GTR = _ext("orgtr/ungtr", 8)
_MTR = _ext("ormtr/unmtr", 13)
_GST = _ext("sygst/hegst", 8)
_GQR = _ext("orgqr/ungqr", 9)
_STEQR = _ext("steqr", 8)
_STEDC_R = (external("sstedc", 11), external("dstedc", 11))
_STEDC_C = (external("cstedc", 13), external("zstedc", 13))
_STERF = (external("ssterf", 4), external("dsterf", 4))
_POTRF = _ext("potrf", 5)
_GESVD_R = (external("sgesvd", 14), external("dgesvd", 14))
_GESVD_C = (external("cgesvd", 15), external("zgesvd", 15))
_GESDD_R = (external("sgesdd", 14), external("dgesdd", 14))
_GESDD_C = (external("cgesdd", 15), external("zgesdd", 15))
_GEBRD = _ext("gebrd", 11)
_GEBD2 = _ext("gebd2", 10)
_BDSQR = _ext("bdsqr", 15)
_GEQRF = _ext("geqrf", 8)
_TRSM = _ext("trsm", 11)
_TRMM = _ext("trmm", 11)
_s_trd, _d_trd, _c_trd, _z_trd = _TRD
_s_td2, _d_td2, _c_td2, _z_td2 = _TD2
_s_gtr, _d_gtr, _c_gtr, _z_gtr = _GTR
_s_mtr, _d_mtr, _c_mtr, _z_mtr = _MTR
_s_gst, _d_gst, _c_gst, _z_gst = _GST
_s_gqr, _d_gqr, _c_gqr, _z_gqr = _GQR
_s_steqr, _d_steqr, _c_steqr, _z_steqr = _STEQR
_s_stedc, _d_stedc = _STEDC_R
_c_stedc, _z_stedc = _STEDC_C
_s_sterf, _d_sterf = _STERF
_s_potrf, _d_potrf, _c_potrf, _z_potrf = _POTRF
_s_gesvd, _d_gesvd = _GESVD_R
_c_gesvd, _z_gesvd = _GESVD_C
_s_gesdd, _d_gesdd = _GESDD_R
_c_gesdd, _z_gesdd = _GESDD_C
_s_gebrd, _d_gebrd, _c_gebrd, _z_gebrd = _GEBRD
_s_gebd2, _d_gebd2, _c_gebd2, _z_gebd2 = _GEBD2
_s_bdsqr, _d_bdsqr, _c_bdsqr, _z_bdsqr = _BDSQR
_s_geqrf, _d_geqrf, _c_geqrf, _z_geqrf = _GEQRF
_s_trsm, _d_trsm, _c_trsm, _z_trsm = _TRSM
_s_trmm, _d_trmm, _c_trmm, _z_trmm = _TRMM

_jit = njit(nogil=True, error_model="numpy", cache=True)

#: Block size LAPACK's blocked routines are given workspace for (lwork = rows * NB_WORK).
NB_WORK = 64
U_, L_, N_, V_, I_, A_, S_, O_ = (ord(x) for x in "ULNVIASO")
CT_, LEFT_ = ord("C"), ord("L")


# --- LAPACK calls on one entry (addresses; iv: int32 scratch, ch: uint8 scratch) -------------------
# Integer and character arguments go through iv/ch: Fortran takes every argument by address.


@_jit
def _addr(x):  # type: ignore[no-untyped-def]
    return x.ctypes.data


@_jit
def _tridiag(kind, blocked, uplo, n, a, lda, d, e, tau, work, lwork, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = uplo
    iv[0], iv[1], iv[2] = n, lda, lwork
    c, i = _addr(ch), _addr(iv)
    if blocked:
        if kind == 0:
            _s_trd(c, i, a, i + 4, d, e, tau, work, i + 8, i + 12)
        elif kind == 1:
            _d_trd(c, i, a, i + 4, d, e, tau, work, i + 8, i + 12)
        elif kind == 2:
            _c_trd(c, i, a, i + 4, d, e, tau, work, i + 8, i + 12)
        else:
            _z_trd(c, i, a, i + 4, d, e, tau, work, i + 8, i + 12)
    elif kind == 0:
        _s_td2(c, i, a, i + 4, d, e, tau, i + 12)
    elif kind == 1:
        _d_td2(c, i, a, i + 4, d, e, tau, i + 12)
    elif kind == 2:
        _c_td2(c, i, a, i + 4, d, e, tau, i + 12)
    else:
        _z_td2(c, i, a, i + 4, d, e, tau, i + 12)


@_jit
def _orgtr(kind, uplo, n, a, lda, tau, work, lwork, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = uplo
    iv[0], iv[1], iv[2] = n, lda, lwork
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_gtr(c, i, a, i + 4, tau, work, i + 8, i + 12)
    elif kind == 1:
        _d_gtr(c, i, a, i + 4, tau, work, i + 8, i + 12)
    elif kind == 2:
        _c_gtr(c, i, a, i + 4, tau, work, i + 8, i + 12)
    else:
        _z_gtr(c, i, a, i + 4, tau, work, i + 8, i + 12)


@_jit
def _ormtr(kind, uplo, n, a, lda, tau, z, ldz, work, lwork, iv, ch):  # type: ignore[no-untyped-def]
    # Z := Q Z (side L, no transpose), Q from the reduction stored in a.
    ch[0], ch[1], ch[2] = LEFT_, uplo, N_
    iv[0], iv[1], iv[2], iv[3], iv[4] = n, n, lda, ldz, lwork
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_mtr(c, c + 1, c + 2, i, i + 4, a, i + 8, tau, z, i + 12, work, i + 16, i + 20)
    elif kind == 1:
        _d_mtr(c, c + 1, c + 2, i, i + 4, a, i + 8, tau, z, i + 12, work, i + 16, i + 20)
    elif kind == 2:
        _c_mtr(c, c + 1, c + 2, i, i + 4, a, i + 8, tau, z, i + 12, work, i + 16, i + 20)
    else:
        _z_mtr(c, c + 1, c + 2, i, i + 4, a, i + 8, tau, z, i + 12, work, i + 16, i + 20)


@_jit
def _sterf(kind, n, d, e, info, iv):  # type: ignore[no-untyped-def]
    iv[0] = n
    i = _addr(iv)
    if kind == 0 or kind == 2:
        _s_sterf(i, d, e, info)
    else:
        _d_sterf(i, d, e, info)


@_jit
def _steqr(kind, compz, n, d, e, z, ldz, rwork, info, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = compz
    iv[0], iv[1] = n, max(1, ldz)
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_steqr(c, i, d, e, z, i + 4, rwork, info)
    elif kind == 1:
        _d_steqr(c, i, d, e, z, i + 4, rwork, info)
    elif kind == 2:
        _c_steqr(c, i, d, e, z, i + 4, rwork, info)
    else:
        _z_steqr(c, i, d, e, z, i + 4, rwork, info)


@_jit
def _stedc(kind, compz, n, d, e, z, ldz, work, lwork, rwork, lrwork, iwork, liwork, info, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = compz
    iv[0], iv[1], iv[2], iv[3], iv[4] = n, max(1, ldz), lwork, lrwork, liwork
    c, i = _addr(ch), _addr(iv)
    if kind == 0:  # real: work is the real workspace, no rwork
        _s_stedc(c, i, d, e, z, i + 4, rwork, i + 12, iwork, i + 16, info)
    elif kind == 1:
        _d_stedc(c, i, d, e, z, i + 4, rwork, i + 12, iwork, i + 16, info)
    elif kind == 2:
        _c_stedc(c, i, d, e, z, i + 4, work, i + 8, rwork, i + 12, iwork, i + 16, info)
    else:
        _z_stedc(c, i, d, e, z, i + 4, work, i + 8, rwork, i + 12, iwork, i + 16, info)


@_jit
def _potrf(kind, uplo, n, a, lda, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = uplo
    iv[0], iv[1] = n, lda
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_potrf(c, i, a, i + 4, i + 8)
    elif kind == 1:
        _d_potrf(c, i, a, i + 4, i + 8)
    elif kind == 2:
        _c_potrf(c, i, a, i + 4, i + 8)
    else:
        _z_potrf(c, i, a, i + 4, i + 8)
    return iv[2]


@_jit
def _sygst(kind, itype, uplo, n, a, lda, b, ldb, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = uplo
    iv[0], iv[1], iv[2], iv[3] = itype, n, lda, ldb
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_gst(i, c, i + 4, a, i + 8, b, i + 12, i + 16)
    elif kind == 1:
        _d_gst(i, c, i + 4, a, i + 8, b, i + 12, i + 16)
    elif kind == 2:
        _c_gst(i, c, i + 4, a, i + 8, b, i + 12, i + 16)
    else:
        _z_gst(i, c, i + 4, a, i + 8, b, i + 12, i + 16)


@_jit
def _trxm(kind, solve, uplo, trans, n, b, ldb, a, lda, one, iv, ch):  # type: ignore[no-untyped-def]
    # A := op(B)^-1 A (solve) or op(B) A, B triangular (non-unit) n x n, A n x n: the back-transformation.
    ch[0], ch[1], ch[2], ch[3] = LEFT_, uplo, trans, N_
    iv[0], iv[1], iv[2], iv[3] = n, n, ldb, lda
    c, i, o = _addr(ch), _addr(iv), _addr(one)
    if solve:
        if kind == 0:
            _s_trsm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
        elif kind == 1:
            _d_trsm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
        elif kind == 2:
            _c_trsm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
        else:
            _z_trsm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
    elif kind == 0:
        _s_trmm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
    elif kind == 1:
        _d_trmm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
    elif kind == 2:
        _c_trmm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)
    else:
        _z_trmm(c, c + 1, c + 2, c + 3, i, i + 4, o, b, i + 8, a, i + 12)


@_jit
def _gesvd(kind, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info, iv, ch):  # type: ignore[no-untyped-def]
    ch[0], ch[1] = jobu, jobvt
    iv[0], iv[1], iv[2], iv[3], iv[4], iv[5] = m, n, lda, max(1, ldu), max(1, ldvt), lwork
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_gesvd(c, c + 1, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, info)
    elif kind == 1:
        _d_gesvd(c, c + 1, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, info)
    elif kind == 2:
        _c_gesvd(c, c + 1, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, rwork, info)
    else:
        _z_gesvd(c, c + 1, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, rwork, info)


@_jit
def _gesdd(kind, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork, info, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = jobz
    iv[0], iv[1], iv[2], iv[3], iv[4], iv[5] = m, n, lda, max(1, ldu), max(1, ldvt), lwork
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_gesdd(c, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, iwork, info)
    elif kind == 1:
        _d_gesdd(c, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, iwork, info)
    elif kind == 2:
        _c_gesdd(c, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, rwork, iwork, info)
    else:
        _z_gesdd(c, i, i + 4, a, i + 8, s, u, i + 12, vt, i + 16, work, i + 20, rwork, iwork, info)


@_jit
def _gebrd(kind, blocked, m, n, a, lda, d, e, tauq, taup, work, lwork, iv):  # type: ignore[no-untyped-def]
    iv[0], iv[1], iv[2], iv[3] = m, n, lda, lwork
    i = _addr(iv)
    if blocked:
        if kind == 0:
            _s_gebrd(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 12, i + 16)
        elif kind == 1:
            _d_gebrd(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 12, i + 16)
        elif kind == 2:
            _c_gebrd(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 12, i + 16)
        else:
            _z_gebrd(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 12, i + 16)
    elif kind == 0:
        _s_gebd2(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 16)
    elif kind == 1:
        _d_gebd2(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 16)
    elif kind == 2:
        _c_gebd2(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 16)
    else:
        _z_gebd2(i, i + 4, a, i + 8, d, e, tauq, taup, work, i + 16)


@_jit
def _bdsqr(kind, uplo, n, ncvt, nru, ncc, d, e, vt, ldvt, u, ldu, c_, ldc, rwork, info, iv, ch):  # type: ignore[no-untyped-def]
    ch[0] = uplo
    iv[0], iv[1], iv[2], iv[3] = n, ncvt, nru, ncc
    iv[4], iv[5], iv[6] = max(1, ldvt), max(1, ldu), max(1, ldc)
    c, i = _addr(ch), _addr(iv)
    if kind == 0:
        _s_bdsqr(c, i, i + 4, i + 8, i + 12, d, e, vt, i + 16, u, i + 20, c_, i + 24, rwork, info)
    elif kind == 1:
        _d_bdsqr(c, i, i + 4, i + 8, i + 12, d, e, vt, i + 16, u, i + 20, c_, i + 24, rwork, info)
    elif kind == 2:
        _c_bdsqr(c, i, i + 4, i + 8, i + 12, d, e, vt, i + 16, u, i + 20, c_, i + 24, rwork, info)
    else:
        _z_bdsqr(c, i, i + 4, i + 8, i + 12, d, e, vt, i + 16, u, i + 20, c_, i + 24, rwork, info)


@_jit
def _bytes(ws, off, count, isz):  # type: ignore[no-untyped-def]
    # A LAPACK work array of count elements of isz bytes (the routine's type), as bytes.
    return carve(ws, off, count * isz, np.uint8, 1)


@_jit
def _real_at(buf, single, j):  # type: ignore[no-untyped-def]
    # Element j of a byte buffer holding float32 (single) or float64 values.
    if single:
        return np.float64(buf.view(np.float32)[j])
    return buf.view(np.float64)[j]


# --- LAPACK workspace queries, on the host (lwork = -1): what gesvd and stedc are given ----------

_HOST: dict[str, Any] = {}


def _host_lapack(name: str, nargs: int) -> Any:
    """scipy's LAPACK routine ``name`` as a ctypes function of ``nargs`` pointers."""
    fn = _HOST.get(name)
    if fn is None:
        with _lock:
            import scipy.linalg.cython_lapack as clapack

            proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * nargs))
            fn = _HOST[name] = proto(_capsule_address(clapack.__pyx_capi__[name]))
    return fn


def _query(fn: Any, *args: Any) -> tuple[int, ...]:
    """Call a LAPACK routine in workspace-query mode: ints and letters by reference, ``None``
    for every array (a dummy LAPACK does not touch), ``"q"`` for the arrays whose first
    element receives a size; returns those sizes, in order, as written (the float32 or
    float64 of the routine's type, or int32)."""
    dummy = np.zeros(8, np.float64)
    cells, out, ptrs = [], [], []
    for a in args:
        if a is None:
            ptrs.append(dummy.ctypes.data)
        elif isinstance(a, tuple):  # ("q", dtype): a size written to element 0
            buf = np.zeros(2, a[1])
            out.append(buf)
            ptrs.append(buf.ctypes.data)
        else:
            cell = ctypes.c_char(a.encode()) if isinstance(a, str) else ctypes.c_int(a)
            cells.append(cell)
            ptrs.append(ctypes.addressof(cell))
    fn(*ptrs)
    return tuple(int(b[0].real) for b in out)


_LETTERS = {ord(x): x for x in "ASON"}


@functools.lru_cache(maxsize=256)
def _gesvd_lwork(kind: int, left: int, right: int, m: int, n: int) -> int:
    """LAPACK's optimal lwork for gesvd_entries: the largest of gesdd's (with vectors; gesvd's
    for values only) and gesvd's (its fallback), plus one, as LAPACK's own query answers."""
    p = "sdcz"[kind]
    real = np.float32 if kind in (0, 2) else np.float64
    q = ("q", real)
    cplx = kind >= 2
    k = min(m, n)
    vectors = left != N_ or right != N_
    full = left == A_ or right == A_
    vrows = n if full else k
    ints: list[Any]
    if vectors:
        ints = ["A" if full else "S", m, n, None, m, None, None, m, None, vrows, q, -1]
        ints += [None, None, 0] if cplx else [None, 0]
        (lwork,) = _query(_host_lapack(p + "gesdd", len(ints)), *ints)
    else:
        ints = ["N", "N", m, n, None, max(1, m), None, None, 1, None, 1, q, -1]
        ints += [None, 0] if cplx else [0]
        (lwork,) = _query(_host_lapack(p + "gesvd", len(ints)), *ints)
    ints = [_LETTERS[left], _LETTERS[right], m, n, None, max(1, m), None, None, max(1, m), None, max(1, n), q, -1]
    ints += [None, 0] if cplx else [0]
    (again,) = _query(_host_lapack(p + "gesvd", len(ints)), *ints)
    return max(lwork, again) + 1


@functools.lru_cache(maxsize=256)
def _stedc_lwork(kind: int, compz: int, n: int) -> tuple[int, int, int]:
    """(lwork, lrwork, liwork) of stedc_entry, from LAPACK's own query (plus one)."""
    p = "sdcz"[kind]
    real = np.float32 if kind in (0, 2) else np.float64
    letter = {V_: "V", I_: "I", N_: "N"}[compz]
    if kind >= 2:
        lwork, lrwork, liwork = _query(_host_lapack(p + "stedc", 13), letter, n, None, None, None, max(1, n),
                                       ("q", real), -1, ("q", real), -1, ("q", np.int32), -1, 0)
    else:
        lwork = 0  # real stedc has only the real workspace
        lrwork, liwork = _query(_host_lapack(p + "stedc", 11), letter, n, None, None, None, max(1, n),
                                ("q", real), -1, ("q", np.int32), -1, 0)
    return lwork + 1, lrwork + 1, liwork + 1


# --- chunked batches ------------------------------------------------------------------------------


@_jit
def _span(nb, nchunk, t):  # type: ignore[no-untyped-def]
    per = (nb + nchunk - 1) // nchunk
    return t * per, min(nb, (t + 1) * per)


@_jit
def _isz(x):  # type: ignore[no-untyped-def]
    return x.itemsize


@_jit
def _entry(x, e):  # type: ignore[no-untyped-def]
    # Address of entry e of a (batch, ...) array (its first element).
    return x.ctypes.data + e * x.strides[0]


# --- sytd2/sytrd, gebd2/gebrd ----------------------------------------------------------------------


def _tridiag_bytes(n: int, isz: int) -> int:
    """Scratch of one chunk of tridiag_entries: argument cells, sytrd's work array."""
    return _CELLS + layout((max(1, n * NB_WORK), isz))


@_jit
def _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, ws, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    lwork = max(1, n * NB_WORK)
    ch, iv, o = _cells(ws)
    work, o = _bytes(ws, o, lwork, A.itemsize)
    for e in range(lo, hi):
        _tridiag(kind, blocked, uplo, n, _entry(A, e), lda, _entry(D, e), _entry(E, e), _entry(tau, e),
                 _addr(work), lwork, iv, ch)


@kernel
def tridiag_entries(kind, blocked, uplo, A, lda, D, E, tau, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK sytrd/hetrd (blocked) or sytd2/hetd2 in place; D, E (n - 1 used) and tau
    (n - 1 used) get the tridiagonal matrix and the Householder scalars.  Chunk t's scratch is
    bytes [t * wper, (t + 1) * wper) of ws."""
    nb = A.shape[0]
    if nchunk <= 1:
        _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, ws, np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, chunk_of(ws, t, wper), lo, hi)


def _bidiag_bytes(m: int, n: int, isz: int) -> int:
    """Scratch of one chunk of bidiag_entries: argument cells, gebrd's work array."""
    return _CELLS + layout((max(1, (m + n) * NB_WORK), isz))


@_jit
def _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, ws, lo, hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    lwork = max(1, (m + n) * NB_WORK)
    _, iv, o = _cells(ws)
    work, o = _bytes(ws, o, lwork, A.itemsize)
    for e in range(lo, hi):
        _gebrd(kind, blocked, m, n, _entry(A, e), lda, _entry(D, e), _entry(E, e), _entry(tauq, e),
               _entry(taup, e), _addr(work), lwork, iv)


@kernel
def bidiag_entries(kind, blocked, A, lda, D, E, tauq, taup, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK gebrd (blocked) or gebd2 in place."""
    nb = A.shape[0]
    if nchunk <= 1:
        _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, ws, np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, chunk_of(ws, t, wper), lo, hi)


# --- syev, syevd, sygv -----------------------------------------------------------------------------


@_jit
def _syev_one(kind, vectors, divide, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork,
              liwork, z, info, iv, ch):  # type: ignore[no-untyped-def]
    """Eigenvalues (ascending, into D) and optionally eigenvectors (over A) of entry e;
    returns info (the off-diagonal elements that did not converge; info: a one-int cell)."""
    n = A.shape[1]
    a, d, ee = _entry(A, e), _entry(D, e), _entry(E, e)
    _tridiag(kind, True, uplo, n, a, lda, d, ee, _addr(tau), _addr(work), lwork, iv, ch)
    info[0] = 0
    if not vectors:
        _sterf(kind, n, d, ee, _addr(info), iv)
    elif not divide:
        _orgtr(kind, uplo, n, a, lda, _addr(tau), _addr(work), lwork, iv, ch)
        _steqr(kind, V_, n, d, ee, a, lda, _addr(rwork), _addr(info), iv, ch)
    else:
        # Vectors of the tridiagonal matrix by divide and conquer, then Q of the reduction
        # applied to them, then copied over A (as rocSOLVER's syevd and LAPACK's do).
        _stedc(kind, I_, n, d, ee, _addr(z), n, _addr(work), lwork, _addr(rwork), lrwork, _addr(iwork), liwork,
               _addr(info), iv, ch)
        if info[0] == 0:
            _ormtr(kind, uplo, n, a, lda, _addr(tau), _addr(z), n, _addr(work), lwork, iv, ch)
            for c in range(n):
                for i in range(n):
                    A[e, i, c] = z[c, i]
    return info[0]


def _syev_sizes(n: int, divide: bool) -> tuple[int, int, int]:
    """(lwork, lrwork, liwork): blocked reductions get n * NB_WORK; stedc('I') LAPACK's
    documented minimum."""
    lwork = max(1, n * NB_WORK, n * n + 4 * n + 1 if divide else 1)
    lrwork = max(2 * n, 1 + 4 * n + 2 * n * n if divide else 1)
    return lwork, lrwork, 3 + 5 * n


def _syev_bytes(n: int, isz: int, risz: int, vectors: bool, divide: bool) -> int:
    """Scratch of one chunk of syev_entries / sygv_entries (the layout of :func:`_syev_scratch`)."""
    lwork, lrwork, liwork = _syev_sizes(n, divide)
    z = n * n if divide and vectors else 0
    return _CELLS + layout((lwork, isz), (lrwork, risz), (liwork, 4), (max(1, n), isz), (z, isz), (1, 4))


@_jit
def _syev_scratch(ws, A, D, vectors, divide, lwork, lrwork, liwork):  # type: ignore[no-untyped-def]
    # A chunk's scratch: cells; work, rwork (real), iwork; tau; z (stedc's vectors); info.
    n = A.shape[1]
    ch, iv, o = _cells(ws)
    work, o = _bytes(ws, o, lwork, A.itemsize)
    rwork, o = _bytes(ws, o, lrwork, D.itemsize)
    iwork, o = carve(ws, o, liwork, np.int32, 4)
    tau, o = _bytes(ws, o, max(1, n), A.itemsize)
    zr = n if divide and vectors else 0
    z, o = carve2(ws, o, zr, n, A.dtype, A.itemsize)
    info, o = carve(ws, o, 1, np.int32, 4)
    return ch, iv, work, rwork, iwork, tau, z, info


@_jit
def _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, ws, lwork, lrwork, liwork, lo, hi):  # type: ignore[no-untyped-def]
    ch, iv, work, rwork, iwork, tau, z, cell = _syev_scratch(ws, A, D, vectors, divide, lwork, lrwork, liwork)
    for e in range(lo, hi):
        info[e] = _syev_one(kind, vectors, divide, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork,
                            liwork, z, cell, iv, ch)


@kernel
def syev_entries(kind, vectors, divide, uplo, A, lda, D, E, info, ws, wper, lwork, lrwork, liwork, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 2): eigenvalues ascending in D[e], eigenvectors over A[e] (when
    ``vectors``), info[e]; QR iteration (steqr) or divide and conquer (stedc, ``divide``)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, ws, lwork, lrwork, liwork, np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, chunk_of(ws, t, wper), lwork, lrwork, liwork,
                    lo, hi)


@_jit
def _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, ws, lwork, lrwork, liwork, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    ch, iv, work, rwork, iwork, tau, z, cell = _syev_scratch(ws, A, D, vectors, False, lwork, lrwork, liwork)
    for e in range(lo, hi):
        a, b = _entry(A, e), _entry(B, e)
        fail = _potrf(kind, uplo, n, b, ldb, iv, ch)
        # rocSOLVER goes on whatever potrf reports (its reduction and syev run on the partial factor:
        # A is destroyed, D and E written); B not positive definite only sets info = n + the order of
        # the failing minor.
        _sygst(kind, itype, uplo, n, a, lda, b, ldb, iv, ch)
        ev = _syev_one(kind, vectors, False, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork, liwork,
                       z, cell, iv, ch)
        info[e] = n + fail if fail > 0 else ev
        if vectors:  # x = inv(L^H) y / inv(U) y (itype 1, 2), x = L y / U^H y (itype 3)
            if itype == 3:
                _trxm(kind, False, uplo, N_ if uplo == L_ else CT_, n, b, ldb, a, lda, one, iv, ch)
            else:
                _trxm(kind, True, uplo, N_ if uplo == U_ else CT_, n, b, ldb, a, lda, one, iv, ch)


@kernel
def sygv_entries(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, ws, wper, lwork, lrwork, liwork,
                 nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 1): the generalized problem of type ``itype`` with B's Cholesky factor
    over B; eigenvalues in D[e], eigenvectors (B-orthonormal) over A[e]; info[e] = n + i when
    B's leading minor i is not positive definite (the rest still runs on the partial factor,
    as rocSOLVER's does: A, D and E then hold garbage)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, ws, lwork, lrwork, liwork,
                    np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, chunk_of(ws, t, wper), lwork,
                    lrwork, liwork, lo, hi)


# --- gesvd -----------------------------------------------------------------------------------------


@_jit
def _copy(dst, e, src, rows, cols):  # type: ignore[no-untyped-def]
    # dst[e, :rows, :cols] = the column-major scratch src (src[c, i] is element (i, c)).
    for c in range(cols):
        for i in range(rows):
            dst[e, i, c] = src[c, i]


def _gesvd_sizes(kind: int, left: int, right: int, m: int, n: int) -> tuple[int, int, int, int, int]:
    """(columns of the U scratch, rows of the V^H scratch, rows of the scratch copy of A, lwork,
    lrwork) of gesvd_entries; with vectors the scratch holds gesdd's full or thin factors."""
    k = min(m, n)
    vectors = left != N_ or right != N_
    full = left == A_ or right == A_
    ucols, vrows, keep = (m if full else k, n if full else k, n) if vectors else (0, 0, 0)
    mx = max(m, n)
    lrwork = max(7 * k, k * max(5 * k + 7, 2 * mx + 2 * k + 1), 5 * k) + 1 if kind >= 2 else 0
    return ucols, vrows, keep, _gesvd_lwork(kind, left, right, m, n), lrwork


def _gesvd_bytes(kind: int, left: int, right: int, m: int, n: int, isz: int, risz: int) -> int:
    """Scratch of one chunk of gesvd_entries (the layout :func:`_gesvd_range` carves)."""
    ucols, vrows, keep, lwork, lrwork = _gesvd_sizes(kind, left, right, m, n)
    k = min(m, n)
    return _CELLS + layout((ucols * m, isz), ((n if ucols else 0) * vrows, isz), (keep * m, isz), (8 * k + 1, 4),
                           (1, 4), (lrwork, risz), (lwork, isz))


@_jit
def _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, ws, ucols, vrows, keeprows, lwork, lrwork,
                 lo, hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    k = min(m, n)
    vectors = left != N_ or right != N_
    full = left == A_ or right == A_
    ch, iv, o = _cells(ws)
    ufull, o = carve2(ws, o, ucols, m, A.dtype, A.itemsize)  # column-major scratch: ufull[c, i]
    vcols = n if ucols else 0
    vtfull, o = carve2(ws, o, vcols, vrows, A.dtype, A.itemsize)
    keep, o = carve2(ws, o, keeprows, m, A.dtype, A.itemsize)
    iwork, o = carve(ws, o, 8 * k + 1, np.int32, 4)
    inf, o = carve(ws, o, 1, np.int32, 4)
    rwork, o = _bytes(ws, o, lrwork, S.itemsize)
    work, o = _bytes(ws, o, lwork, A.itemsize)
    jobz = A_ if full else S_
    for e in range(lo, hi):
        a, s = _entry(A, e), _entry(S, e)
        if not _finite(A, e):
            _not_finite(A, S, U, V, E, info, e)
            continue
        done = False
        if vectors:
            for c in range(n):
                for i in range(m):
                    keep[c, i] = A[e, i, c]
            _gesdd(kind, jobz, m, n, a, lda, s, _addr(ufull), m, _addr(vtfull), vrows, _addr(work), lwork,
                   _addr(rwork), _addr(iwork), _addr(inf), iv, ch)
            done = inf[0] == 0
            if done:
                if left == A_:
                    _copy(U, e, ufull, m, m)
                elif left == S_:
                    _copy(U, e, ufull, m, k)
                elif left == O_:
                    _copy(A, e, ufull, m, k)
                if right == A_:
                    _copy(V, e, vtfull, n, n)
                elif right == S_:
                    _copy(V, e, vtfull, k, n)
                elif right == O_:
                    _copy(A, e, vtfull, k, n)
            else:  # gesdd did not converge: QR iteration on the original matrix tells what did not
                for c in range(n):
                    for i in range(m):
                        A[e, i, c] = keep[c, i]
        if not done:
            _gesvd(kind, left, right, m, n, a, lda, s, _entry(U, e), ldu, _entry(V, e), ldv, _addr(work), lwork,
                   _addr(rwork), _addr(inf), iv, ch)
        info[e] = inf[0]
        # E: the superdiagonal that did not converge (LAPACK leaves it in work / rwork), 0 when all did
        for j in range(k - 1):
            if inf[0] == 0:
                E[e, j] = 0
            elif kind >= 2:
                E[e, j] = _real_at(rwork, kind == 2, j)
            else:
                E[e, j] = _real_at(work, kind == 0, j + 1)


@_jit
def _finite(A, e):  # type: ignore[no-untyped-def]
    for c in range(A.shape[2]):
        for i in range(A.shape[1]):
            x = A[e, i, c]
            if not (np.isfinite(x.real) and np.isfinite(x.imag)):
                return False
    return True


@_jit
def _not_finite(A, S, U, V, E, info, e):  # type: ignore[no-untyped-def]
    """rocSOLVER's gesvd of an entry with NaN or Inf: its bidiagonal form is not finite, which
    its bdsqr answers with S, E := NaN and info = min(m, n) (rocmath's bdsqr does the same); the
    reduction's garbage elsewhere is NaN here: A and the computed vectors."""
    k = min(A.shape[1], A.shape[2])
    for j in range(k):
        S[e, j] = np.nan
    for j in range(k - 1):
        E[e, j] = np.nan
    info[e] = k
    _nan_entry(A, e)
    _nan_entry(U, e)
    _nan_entry(V, e)


@_jit
def _nan_entry(x, e):  # type: ignore[no-untyped-def]
    for c in range(x.shape[2]):
        for i in range(x.shape[1]):
            x[e, i, c] = np.nan


@kernel
def gesvd_entries(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, ws, wper, sizes, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: singular values (descending) in S[e], vectors as the letters ``left``/``right``
    ('A' all, 'S' the first min(m, n), 'O' over A, 'N' none; V gets V^H), info[e] and E[e];
    ``sizes``: the scratch sizes of :func:`_gesvd_sizes`."""
    nb = A.shape[0]
    ucols, vrows, keep, lwork, lrwork = sizes
    if nchunk <= 1:
        _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, ws, ucols, vrows, keep, lwork, lrwork,
                     np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, chunk_of(ws, t, wper), ucols, vrows,
                     keep, lwork, lrwork, lo, hi)


# --- tridiagonal and bidiagonal auxiliaries (one matrix) ---------------------------------------------


@kernel(parallel=False)
def sterf_entry(kind, D, E, info, ws):  # type: ignore[no-untyped-def]
    """LAPACK sterf: eigenvalues of the tridiagonal (D, E) ascending in D."""
    _, iv, _ = _cells(ws)
    _sterf(kind, D.shape[0], _addr(D), _addr(E), _addr(info), iv)


@kernel(parallel=False)
def steqr_entry(kind, compz, D, E, C, ldc, info, ws):  # type: ignore[no-untyped-def]
    """LAPACK steqr with compz 'N', 'V' (C holds Q on entry) or 'I'."""
    n = D.shape[0]
    ch, iv, o = _cells(ws)
    rwork, _ = _bytes(ws, o, max(1, 2 * n - 2), D.itemsize)
    _steqr(kind, compz, n, _addr(D), _addr(E), _addr(C), ldc, _addr(rwork), _addr(info), iv, ch)


@kernel(parallel=False)
def stedc_entry(kind, compz, D, E, C, ldc, info, ws, lwork, lrwork, liwork):  # type: ignore[no-untyped-def]
    """LAPACK stedc with compz 'N', 'V' or 'I' (the work array sizes from its query)."""
    n = D.shape[0]
    ch, iv, o = _cells(ws)
    work, o = _bytes(ws, o, lwork, C.itemsize)
    rwork, o = _bytes(ws, o, lrwork, D.itemsize)
    iwork, o = carve(ws, o, liwork, np.int32, 4)
    _stedc(kind, compz, n, _addr(D), _addr(E), _addr(C), ldc, _addr(work), lwork, _addr(rwork), lrwork,
           _addr(iwork), liwork, _addr(info), iv, ch)


@kernel(parallel=False)
def bdsqr_entry(kind, uplo, D, E, nv, V, ldv, nu, U, ldu, nc, C, ldc, info, ws):  # type: ignore[no-untyped-def]
    """LAPACK bdsqr: V := P^H V (n x nv), U := U Q (nu x n), C := Q^H C (n x nc)."""
    n = D.shape[0]
    ch, iv, o = _cells(ws)
    rwork, _ = _bytes(ws, o, max(1, 4 * n), D.itemsize)
    _bdsqr(kind, uplo, n, nv, nu, nc, _addr(D), _addr(E), _addr(V), ldv, _addr(U), ldu, _addr(C), ldc,
           _addr(rwork), _addr(info), iv, ch)


# --- Jacobi: syevj/heevj ---------------------------------------------------------------------------


@_jit
def _lartg(f, g):  # type: ignore[no-untyped-def]
    # rocSOLVER's plane rotation (c, s): c f - s g = r and s f + c g = 0 (real f, g; c >= 0).
    if g == 0:
        return 1.0, 0.0
    if f == 0:
        return 0.0, 1.0
    if abs(g) > abs(f):
        t = -f / g
        s = 1 / np.sqrt(1 + t * t)
        return s * t, s
    t = -g / f
    c = 1 / np.sqrt(1 + t * t)
    return c, c * t


@_jit
def _rotation(app, aqq, apq, small):  # type: ignore[no-untyped-def]
    """rocSOLVER's Jacobi rotation (c, s1) zeroing the (p, q) element of a Hermitian 2 x 2 block."""
    mag = abs(apq)
    if mag * mag < small:
        return 1.0, apq * 0
    g = 2 * mag
    f = (aqq - app).real
    f += -np.hypot(f, g) if f < 0 else np.hypot(f, g)
    c, s = _lartg(f, g)
    return c, s * apq / mag


@_jit
def _offdiag(g):  # type: ignore[no-untyped-def]
    n = g.shape[0]
    res = 0.0
    for i in range(n):
        for j in range(i):
            v = g[i, j]
            res += 2 * (v.real * v.real + v.imag * v.imag)
    return res


@_jit
def _converged(res, tol, blocked):  # type: ignore[no-untyped-def]
    """rocSOLVER's test of the squared residual: its single-kernel syevj (n <= 58) sweeps while
    ``res > tol``; its blocked kernels stop once ``res < tol``, so there a NaN residual, or
    ``res == tol`` (0 for a zero matrix), never converges."""
    return res < tol if blocked else not res > tol


@_jit
def _jacobi_one(g, v, vectors, atol, max_sweeps, small, blocked):  # type: ignore[no-untyped-def]
    """Cyclic Jacobi on the Hermitian g (full, in place; v accumulates the rotations when
    ``vectors``); ``blocked``: rocSOLVER's convergence test for n > 58 (:func:`_converged`).
    Returns (sweeps, residual squared, converged)."""
    n = g.shape[0]
    diag = 0.0
    for i in range(n):
        diag += abs(g[i, i]) ** 2
    res = _offdiag(g)
    tol = (res + diag) * atol * atol
    sweeps = 0
    done = _converged(res, tol, blocked)
    while sweeps < max_sweeps and not done:
        for p in range(n - 1):
            for q in range(p + 1, n):
                c, s1 = _rotation(g[p, p], g[q, q], g[p, q], small)
                if s1 == 0:
                    # An identity rotation (a tiny element): rocSOLVER still rounds the pair to zero.
                    g[p, q] = 0
                    g[q, p] = 0
                    continue
                s2 = np.conj(s1)
                # The 2 x 2 block: columns p, q (g J; stored, so rounded to the element type),
                # then rows p, q (J^H g) below.
                gpp, gpq, gqp, gqq = g[p, p], g[p, q], g[q, p], g[q, q]
                g[p, p], g[p, q] = c * gpp + s2 * gpq, -s1 * gpp + c * gpq
                g[q, p], g[q, q] = c * gqp + s2 * gqq, -s1 * gqp + c * gqq
                bpp, bpq, bqp, bqq = g[p, p], g[p, q], g[q, p], g[q, q]
                # Rows p, q elsewhere (contiguous): the columns are their conjugates (g stays Hermitian,
                # so column p of g J is the conjugate of row p of J^H g off the block).
                for y in range(n):
                    t1, t2 = g[p, y], g[q, y]
                    u1, u2 = c * t1 + s1 * t2, -s2 * t1 + c * t2
                    g[p, y] = u1
                    g[q, y] = u2
                    g[y, p] = np.conj(u1)
                    g[y, q] = np.conj(u2)
                g[p, p] = c * bpp + s1 * bqp
                g[q, q] = -s2 * bpq + c * bqq
                g[p, q] = 0
                g[q, p] = 0
                if vectors:
                    for y in range(n):
                        t1, t2 = v[p, y], v[q, y]  # v[c, i]: column c of V, column-major scratch
                        v[p, y] = c * t1 + s2 * t2
                        v[q, y] = -s1 * t1 + c * t2
        res = _offdiag(g)
        sweeps += 1
        done = _converged(res, tol, blocked)
    return sweeps, res, done


def _syevj_bytes(n: int, isz: int, risz: int, vectors: bool) -> int:
    """Scratch of one chunk of syevj_entries: the full matrix, the rotations (when vectors are
    asked for), the eigenvalues."""
    return layout((n * n, isz), (n * n if vectors else 0, isz), (n, risz))


@_jit
def _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, blocked, ws,
                 lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    g, o = carve2(ws, 0, n, n, A.dtype, A.itemsize)
    vn = n if vectors else 0
    v, o = carve2(ws, o, vn, n, A.dtype, A.itemsize)
    w, o = carve(ws, o, n, W.dtype, W.itemsize)
    for e in range(lo, hi):
        for j in range(n):  # the full Hermitian matrix from the referenced triangle
            for i in range(n):
                if i == j:
                    g[i, i] = A[e, i, i].real
                elif (i > j) == lower:
                    g[i, j] = A[e, i, j]
                    g[j, i] = np.conj(A[e, i, j])
        if vectors:
            v[:, :] = 0
            for i in range(n):
                v[i, i] = 1
        sweeps, res, ok = _jacobi_one(g, v, vectors, atol, max_sweeps, small, blocked)
        residual[e] = np.sqrt(res)
        n_sweeps[e] = sweeps if ok else max_sweeps
        # info = 1 whenever the tolerance was not reached, as rocSOLVER documents: its single kernel
        # (n <= 58) never sets it (a branch that cannot run), which would hide the failure.
        info[e] = 0 if ok else 1
        for i in range(n):
            w[i] = g[i, i].real
        if ascending:  # selection sort, as rocSOLVER
            for j in range(n - 1):
                m = j
                for i in range(j + 1, n):
                    if w[i] < w[m]:
                        m = i
                if m != j:
                    t = w[m]
                    w[m] = w[j]
                    w[j] = t
                    if vectors:
                        for i in range(n):
                            x = v[m, i]
                            v[m, i] = v[j, i]
                            v[j, i] = x
        for i in range(n):
            W[e, i] = w[i]
        if vectors:
            for c in range(n):
                for i in range(n):
                    A[e, i, c] = v[c, i]


@kernel
def syevj_entries(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, blocked, ws,
                  wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 2): Jacobi eigenvalues in W[e] (ascending if asked), eigenvectors over A[e]
    (if asked), the off-diagonal Frobenius norm left (residual), sweeps done (n_sweeps; max_sweeps
    and info = 1 when the tolerance was not reached)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, blocked, ws,
                     np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, blocked,
                     chunk_of(ws, t, wper), lo, hi)


# --- Jacobi: gesvdj --------------------------------------------------------------------------------


@_jit
def _dot(g, p, q):  # type: ignore[no-untyped-def]
    # g_p^H g_q (columns of the column-major scratch g[c, i])
    s = g[0, 0] * 0
    for i in range(g.shape[1]):
        s += np.conj(g[p, i]) * g[q, i]
    return s


@_jit
def _gram_offdiag(g):  # type: ignore[no-untyped-def]
    k = g.shape[0]
    res = 0.0
    for p in range(k):
        for q in range(p):
            x = _dot(g, q, p)
            res += 2 * (x.real * x.real + x.imag * x.imag)
    return res


@_jit
def _onesided(g, v, atol, max_sweeps, small, blocked):  # type: ignore[no-untyped-def]
    """One-sided Jacobi on the columns of g (k columns, column-major scratch g[c, i]): the
    rotations of the two-sided Jacobi on G = g^H g, applied to g and accumulated in v (k x k);
    ``blocked`` as :func:`_jacobi_one`.  Returns (sweeps, residual squared of G's off-diagonal,
    converged)."""
    k = g.shape[0]
    norm2 = 0.0
    for p in range(k):
        x = _dot(g, p, p).real
        norm2 += x * x
    res = _gram_offdiag(g)
    tol = (res + norm2) * atol * atol
    sweeps = 0
    done = _converged(res, tol, blocked)
    while sweeps < max_sweeps and not done:
        for p in range(k - 1):
            for q in range(p + 1, k):
                gpq = _dot(g, p, q)
                c, s1 = _rotation(_dot(g, p, p), _dot(g, q, q), gpq, small)
                if s1 == 0:
                    continue
                s2 = np.conj(s1)
                for y in range(g.shape[1]):
                    t1, t2 = g[p, y], g[q, y]
                    g[p, y] = c * t1 + s2 * t2
                    g[q, y] = -s1 * t1 + c * t2
                for y in range(k):
                    t1, t2 = v[p, y], v[q, y]
                    v[p, y] = c * t1 + s2 * t2
                    v[q, y] = -s1 * t1 + c * t2
        res = _gram_offdiag(g)
        sweeps += 1
        done = _converged(res, tol, blocked)
    return sweeps, res, done


def _gesvdj_shape(m: int, n: int, left: int, right: int) -> tuple[int, int, int]:
    """(k, length, qcols): g holds the k columns of A (tall) or of A^H (wide), each ``length``
    long, and becomes the qcols columns of the QR factor Q of A V."""
    wide = m < n
    k, length = (m, n) if wide else (n, m)
    return k, length, length if (right if wide else left) == A_ else k


def _gesvdj_bytes(m: int, n: int, left: int, right: int, isz: int) -> int:
    """Scratch of one chunk of gesvdj_entries (the layout :func:`_gesvdj_range` carves)."""
    k, length, qcols = _gesvdj_shape(m, n, left, right)
    return _CELLS + layout((qcols * length, isz), (k * k, isz), (k * length, isz), (k, 8), (k, 8), (k, 8),
                           (k + 1, isz), (k, isz), (max(1, qcols * NB_WORK), isz))


@_jit
def _stable_descending(sig, order):  # type: ignore[no-untyped-def]
    """order := the indices of sig by descending value, ties in index order and NaN last (what a
    stable ascending sort of -sig gives), by insertion."""
    k = sig.shape[0]
    for c in range(k):
        order[c] = c
    for c in range(1, k):
        j = order[c]
        key = -sig[j]
        p = c
        while p > 0:
            prev = -sig[order[p - 1]]
            if not (key < prev or (prev != prev and key == key)):
                break
            order[p] = order[p - 1]
            p -= 1
        order[p] = j


@_jit
def _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, blocked, ws, lo,
                  hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    wide = m < n
    k, length = (m, n) if wide else (n, m)  # g holds the k columns of A (tall) or of A^H (wide)
    lead_all = (right if wide else left) == A_
    lead = (right if wide else left) != N_
    other = (left if wide else right) != N_
    qcols = length if lead_all else k
    isz = A.itemsize
    _, iv, o = _cells(ws)
    g, o = carve2(ws, o, qcols, length, A.dtype, isz)
    v, o = carve2(ws, o, k, k, A.dtype, isz)
    tmp, o = carve2(ws, o, k, length, A.dtype, isz)
    sig, o = carve(ws, o, k, np.float64, 8)
    sorted_sig, o = carve(ws, o, k, np.float64, 8)
    order, o = carve(ws, o, k, np.int64, 8)
    tau, o = carve(ws, o, k + 1, A.dtype, isz)
    r, o = carve(ws, o, k, A.dtype, isz)
    lwork = max(1, qcols * NB_WORK)
    work, o = _bytes(ws, o, lwork, isz)
    for e in range(lo, hi):
        for c in range(k):
            for i in range(length):
                g[c, i] = np.conj(A[e, c, i]) if wide else A[e, i, c]
        v[:, :] = 0
        for i in range(k):
            v[i, i] = 1
        gk = g[:k]
        sweeps, res, ok = _onesided(gk, v, atol, max_sweeps, small, blocked)
        residual[e] = np.sqrt(res)
        n_sweeps[e] = sweeps if ok else max_sweeps
        info[e] = 0 if ok else 1  # as syevj's
        for c in range(k):
            sig[c] = np.sqrt(_dot(gk, c, c).real)
        _stable_descending(sig, order)
        for c in range(k):
            tmp[c, :] = gk[order[c], :]
        for c in range(k):
            gk[c, :] = tmp[c, :]
        for c in range(k):
            sorted_sig[c] = sig[order[c]]
        sig[:] = sorted_sig
        # U (of the tall problem) from the QR factorization of g = A V: Q's columns, with the sign
        # (phase) of R's diagonal moved into them.
        _qr_r(kind, g, k, qcols, length, tau, r, work, lwork, iv)
        if lead:
            cols = length if lead_all else k
            for c in range(cols):
                for i in range(length):
                    x = g[c, i]
                    if wide:  # lead vectors of a wide A are rows of V^H
                        V[e, c, i] = np.conj(x)
                    else:
                        U[e, i, c] = x
        for c in range(k):
            S[e, c] = sig[c]
        if other:
            for c in range(k):  # columns of V (tall) / of U (wide), in the sorted order
                for i in range(k):
                    x = v[order[c], i]
                    if wide:
                        U[e, i, c] = x
                    else:
                        V[e, c, i] = np.conj(x)


@_jit
def _qr_r(kind, g, k, qcols, length, tau, r, work, lwork, iv):  # type: ignore[no-untyped-def]
    """g[:k] (length x k, column-major) := its QR factor Q (qcols columns), with the phases of
    diag R folded into Q's first k columns (S is the column norms, descending: |R_jj| of columns
    at the rounding level of a rank-deficient A need not be)."""
    if length == 0 or k == 0:
        return
    # geqrf alone first, to read R's diagonal, then orgqr/ungqr from the same reflectors
    iv[0], iv[1], iv[2], iv[3] = length, k, length, lwork
    i = _addr(iv)
    a = _addr(g)
    if kind == 0:
        _s_geqrf(i, i + 4, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    elif kind == 1:
        _d_geqrf(i, i + 4, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    elif kind == 2:
        _c_geqrf(i, i + 4, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    else:
        _z_geqrf(i, i + 4, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    for c in range(k):
        r[c] = g[c, c]
    iv[0], iv[1], iv[2], iv[3], iv[4] = length, qcols, length, lwork, k
    if kind == 0:
        _s_gqr(i, i + 4, i + 16, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    elif kind == 1:
        _d_gqr(i, i + 4, i + 16, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    elif kind == 2:
        _c_gqr(i, i + 4, i + 16, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    else:
        _z_gqr(i, i + 4, i + 16, a, i + 8, _addr(tau), _addr(work), i + 12, i + 20)
    for c in range(k):
        mag = abs(r[c])
        if mag != 0:
            ph = r[c] / mag
            for y in range(length):
                g[c, y] *= ph


@kernel
def gesvdj_entries(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, blocked, ws,
                   wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: one-sided Jacobi SVD of A[e] (left unchanged); S descending, U / V^H as
    ``left``/``right`` ('A', 'S', 'N'), residual, n_sweeps and info as syevj on A^H A
    (``blocked``: its order min(m, n) is past rocSOLVER's single-kernel size)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, blocked, ws,
                      np.int64(0), nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, blocked,
                      chunk_of(ws, t, wper), lo, hi)


# --- launch bodies ---------------------------------------------------------------------------------


def _chunks(nb: int, serial: bool, work: int) -> int:
    # At most chunk_count(nb, work): the bound the *_workspace functions size the workspace for.
    return 1 if serial else chunk_count(nb, work)


def _real(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32 if dtype in (np.float32, np.complex64) else np.float64)


def _padded_into(ws: np.ndarray, off: int, x: np.ndarray, extra: int) -> tuple[np.ndarray, int]:
    """A copy of x (batch, n) as contiguous rows with ``extra`` more elements each, carved from
    the workspace: LAPACK may touch one element past what rocSOLVER's array holds (E and tau
    have n - 1 elements; some routines use n)."""
    nb, n = x.shape
    y, off = host_carve(ws, off, (nb, n + extra), x.dtype)
    y[:, :n] = x
    return y, off


def _unpad(out: np.ndarray, work: np.ndarray) -> None:
    out[...] = work[:, : out.shape[1]]


def _rows_bytes(nb: int, n: int, isz: int) -> int:
    return rounded(nb * n * isz)


# --- workspace: the bytes each launch body carves (the routines' workspace functions) ---------------


def sytrd_workspace(n: int, batch: int, isz: int, risz: int) -> int:
    """Bytes of workspace :func:`sytrd` uses: E and tau padded to n, and per chunk sytrd's work."""
    if n == 0 or batch == 0:
        return 0
    return (_rows_bytes(batch, n, risz) + _rows_bytes(batch, n, isz)
            + chunk_count(batch, n**3) * _tridiag_bytes(n, isz))


def gebrd_workspace(m: int, n: int, batch: int, isz: int, risz: int) -> int:
    """Bytes of workspace :func:`gebrd` uses: E padded to min(m, n), and per chunk gebrd's work."""
    k = min(m, n)
    if k == 0 or batch == 0:
        return 0
    return _rows_bytes(batch, k, risz) + chunk_count(batch, m * n * k) * _bidiag_bytes(m, n, isz)


def syev_workspace(n: int, batch: int, isz: int, risz: int, vectors: bool, divide: bool) -> int:
    """Bytes of workspace :func:`syev` uses (n >= 2): E padded to n + 1, and per chunk LAPACK's
    work arrays, tau, stedc's vectors and an info cell."""
    if n <= 1 or batch == 0:
        return 0
    return _rows_bytes(batch, n + 1, risz) + chunk_count(batch, n**3) * _syev_bytes(n, isz, risz, vectors, divide)


def sygv_workspace(n: int, batch: int, isz: int, risz: int) -> int:
    """Bytes of workspace :func:`sygv` uses (as syev's with QR iteration)."""
    if n == 0 or batch == 0:
        return 0
    return _rows_bytes(batch, n + 1, risz) + chunk_count(batch, n**3) * _syev_bytes(n, isz, risz, False, False)


def gesvd_workspace(kind: int, left: int, right: int, m: int, n: int, batch: int, isz: int, risz: int) -> int:
    """Bytes of workspace :func:`gesvd` uses: E padded to min(m, n), and per chunk the scratch
    factors and LAPACK's work arrays (lwork from LAPACK's own query)."""
    k = min(m, n)
    if k == 0 or batch == 0:
        return 0
    return _rows_bytes(batch, k, risz) + chunk_count(batch, m * n * k) * _gesvd_bytes(kind, left, right, m, n, isz,
                                                                                        risz)


def syevj_workspace(n: int, batch: int, isz: int, risz: int, vectors: bool) -> int:
    """Bytes of workspace :func:`syevj` uses (n >= 2): per chunk the matrix, rotations, values."""
    if n <= 1 or batch == 0:
        return 0
    return chunk_count(batch) * _syevj_bytes(n, isz, risz, vectors)


def gesvdj_workspace(m: int, n: int, left: int, right: int, batch: int, isz: int) -> int:
    """Bytes of workspace :func:`gesvdj` uses: per chunk the columns, rotations, the sort and
    the QR factorization of A V."""
    if min(m, n) == 0 or batch == 0:
        return 0
    return chunk_count(batch) * _gesvdj_bytes(m, n, left, right, isz)


def tridiagonal_workspace(routine: str, compz: int, n: int, isz: int, risz: int) -> int:
    """Bytes of workspace of :func:`sterf` (routine "sterf") or :func:`tridiagonal` (n >= 2):
    copies of D and E (padded to n), of C (compz not 'N'), the cells, LAPACK's work arrays."""
    if n <= 1:
        return 0
    copies = _rows_bytes(1, n, risz) * 2
    if routine == "sterf":
        return copies + _CELLS
    copies += _rows_bytes(1, n * n if compz != N_ else 1, isz)
    if routine == "steqr":
        return copies + _CELLS + layout((max(1, 2 * n - 2), risz))
    lwork, lrwork, liwork = _stedc_lwork(KINDS[isz, risz], compz, n)
    return copies + _CELLS + layout((lwork, isz), (lrwork, risz), (liwork, 4))


def bdsqr_workspace(n: int, risz: int) -> int:
    """Bytes of workspace :func:`bdsqr` uses: copies of D and E (padded to n), the cells and
    LAPACK's real work array (4n)."""
    if n == 0:
        return 0
    return _rows_bytes(1, n, risz) * 2 + _CELLS + layout((max(1, 4 * n), risz))


#: (itemsize, real itemsize) -> LAPACK kind (0 s, 1 d, 2 c, 3 z).
KINDS = {(4, 4): 0, (8, 8): 1, (8, 4): 2, (16, 8): 3}


# --- launch bodies --------------------------------------------------------------------------------


def sytrd(A: np.ndarray, D: np.ndarray, E: np.ndarray, tau: np.ndarray, uplo: int, blocked: bool,
          serial: bool, ws: np.ndarray | None = None) -> None:
    """Tridiagonal reduction of every entry (n >= 1) in place; D, E, tau per entry; ``ws``: the
    workspace (:func:`sytrd_workspace` bytes)."""
    nb, n, _ = A.shape
    ensure_eig()
    ws = scratch(ws, sytrd_workspace(n, nb, A.itemsize, D.itemsize))
    a, d = _colmajor(A), _vector_rows(D)
    e, off = _padded_into(ws, 0, E, 1)
    t, off = _padded_into(ws, off, tau, 1)
    nchunk, per = _chunks(nb, serial, n**3), _tridiag_bytes(n, a.itemsize)
    tridiag_entries(_KIND[a.dtype], blocked, uplo, a, _ld(a), d, e, t, ws[off:], per, nchunk)
    _finish(A, a)
    _finish(D, d)
    _unpad(E, e)
    _unpad(tau, t)


def gebrd(A: np.ndarray, D: np.ndarray, E: np.ndarray, tauq: np.ndarray, taup: np.ndarray, blocked: bool,
          serial: bool, ws: np.ndarray | None = None) -> None:
    """Bidiagonal reduction of every entry (m, n >= 1) in place; D, E, tauq, taup per entry."""
    nb, m, n = A.shape
    ensure_eig()
    nchunk, per = _chunks(nb, serial, m * n * min(m, n)), _bidiag_bytes(m, n, A.itemsize)
    ws = scratch(ws, gebrd_workspace(m, n, nb, A.itemsize, D.itemsize))
    a = _colmajor(A)
    d, q, p = _vector_rows(D), _vector_rows(tauq), _vector_rows(taup)
    e, off = _padded_into(ws, 0, E, 1)
    bidiag_entries(_KIND[a.dtype], blocked, a, _ld(a), d, e, q, p, ws[off:], per, nchunk)
    for out, work in ((A, a), (D, d), (tauq, q), (taup, p)):
        _finish(out, work)
    _unpad(E, e)


def scalar_case(A: np.ndarray, D: np.ndarray, vectors: bool) -> None:
    # rocSOLVER's n = 1: the eigenvalue is the (real part of the) entry; the eigenvector 1.
    D[:, 0] = A[:, 0, 0].real
    if vectors:
        A[:, 0, 0] = 1


def syev(A: np.ndarray, D: np.ndarray, E: np.ndarray, info: np.ndarray, uplo: int, vectors: bool, divide: bool,
         serial: bool, ws: np.ndarray | None = None) -> None:
    """syev (QR iteration) or syevd (``divide``) of every entry; info := 0 first."""
    nb, n, _ = A.shape
    info[:] = 0
    if n == 1:
        scalar_case(A, D, vectors)
        return
    ensure_eig()
    ws = scratch(ws, syev_workspace(n, nb, A.itemsize, D.itemsize, vectors, divide))
    a, d = _colmajor(A), _vector_rows(D)
    e, off = _padded_into(ws, 0, E, 1)
    nchunk, per = _chunks(nb, serial, n**3), _syev_bytes(n, a.itemsize, d.itemsize, vectors, divide)
    syev_entries(_KIND[a.dtype], vectors, divide, uplo, a, _ld(a), d, e, info, ws[off:], per,
                 *_syev_sizes(n, divide), nchunk)
    _finish(A, a)
    _finish(D, d)
    _unpad(E, e)


def sygv(A: np.ndarray, B: np.ndarray, D: np.ndarray, E: np.ndarray, info: np.ndarray, itype: int, uplo: int,
         vectors: bool, serial: bool, ws: np.ndarray | None = None) -> None:
    """sygv/hegv of every entry (n >= 1); info := 0 first."""
    nb, n, _ = A.shape
    info[:] = 0
    ensure_eig()
    ws = scratch(ws, sygv_workspace(n, nb, A.itemsize, D.itemsize))
    a, b, d = _colmajor(A), _colmajor(B), _vector_rows(D)
    e, off = _padded_into(ws, 0, E, 1)
    nchunk, per = _chunks(nb, serial, n**3), _syev_bytes(n, a.itemsize, d.itemsize, False, False)
    sygv_entries(_KIND[a.dtype], itype, vectors, uplo, a, _ld(a), b, _ld(b), d, e, info, np.ones(1, a.dtype),
                 ws[off:], per, *_syev_sizes(n, False), nchunk)
    for out, work in ((A, a), (B, b), (D, d)):
        _finish(out, work)
    _unpad(E, e)


def gesvd(A: np.ndarray, S: np.ndarray, U: np.ndarray, V: np.ndarray, E: np.ndarray, info: np.ndarray, left: int,
          right: int, serial: bool, ws: np.ndarray | None = None) -> None:
    """gesvd of every entry (m, n >= 1): letters 'A', 'S', 'O', 'N' for each side."""
    nb, m, n = A.shape
    ensure_eig()
    kind = _KIND[A.dtype]
    ws = scratch(ws, gesvd_workspace(kind, left, right, m, n, nb, A.itemsize, S.itemsize))
    a, s, u, v = _colmajor(A), _vector_rows(S), _colmajor(U), _colmajor(V)
    e, off = _padded_into(ws, 0, E, 1)
    nchunk = _chunks(nb, serial, m * n * min(m, n))
    per = _gesvd_bytes(kind, left, right, m, n, a.itemsize, s.itemsize)
    gesvd_entries(kind, left, right, a, _ld(a), s, u, _ld(u), v, _ld(v), e, info, ws[off:], per,
                  _gesvd_sizes(kind, left, right, m, n), nchunk)
    for out, work in ((A, a), (S, s), (U, u), (V, v)):
        _finish(out, work)
    _unpad(E, e)


def syevj(A: np.ndarray, W: np.ndarray, residual: np.ndarray, n_sweeps: np.ndarray, info: np.ndarray, lower: bool,
          vectors: bool, ascending: bool, abstol: float, max_sweeps: int, serial: bool,
          ws: np.ndarray | None = None, blocked: bool = False) -> None:
    """syevj/heevj of every entry (n >= 2); ``blocked``: rocSOLVER's convergence test of its blocked
    path (n > 58) instead of its single kernel's."""
    nb, n, _ = A.shape
    real = _real(A.dtype)
    eps = float(np.finfo(real).eps)
    atol = eps if abstol <= 0 else abstol
    small = float(np.finfo(real).tiny) / eps
    nchunk, per = _chunks(nb, serial, 0), _syevj_bytes(n, A.itemsize, real.itemsize, vectors)
    syevj_entries(A, W, residual, n_sweeps, info, lower, vectors, ascending, real.type(atol), max_sweeps,
                  real.type(small), blocked, scratch(ws, nchunk * per), per, nchunk)


def gesvdj(A: np.ndarray, S: np.ndarray, U: np.ndarray, V: np.ndarray, residual: np.ndarray, n_sweeps: np.ndarray,
           info: np.ndarray, left: int, right: int, abstol: float, max_sweeps: int, serial: bool,
           ws: np.ndarray | None = None, blocked: bool = False) -> None:
    """gesvdj of every entry (m, n >= 1); A is not changed; ``blocked`` as :func:`syevj` (for
    order min(m, n))."""
    nb, m, n = A.shape
    ensure_eig()
    real = _real(A.dtype)
    eps = float(np.finfo(real).eps)
    atol = eps if abstol <= 0 else abstol
    small = float(np.finfo(real).tiny) / eps
    nchunk, per = _chunks(nb, serial, 0), _gesvdj_bytes(m, n, left, right, A.itemsize)
    gesvdj_entries(_KIND[A.dtype], A, S, U, V, residual, n_sweeps, info, left, right, real.type(atol), max_sweeps,
                   real.type(small), blocked, scratch(ws, nchunk * per), per, nchunk)


def _tridiagonal_copies(ws: np.ndarray, D: np.ndarray, E: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Contiguous copies of the one D and E (padded to n), carved from the workspace."""
    d, off = host_carve(ws, 0, (D.shape[1],), D.dtype)
    d[...] = D[0]
    e, off = _padded_into(ws, off, E, 1)
    return d, e[0], off


def sterf(D: np.ndarray, E: np.ndarray, info: np.ndarray, ws: np.ndarray | None = None) -> None:
    """sterf of the one tridiagonal matrix (n >= 2)."""
    ensure_eig()
    n = D.shape[1]
    ws = scratch(ws, tridiagonal_workspace("sterf", N_, n, D.itemsize, D.itemsize))
    d, e, off = _tridiagonal_copies(ws, D, E)
    sterf_entry(1 if D.dtype == np.float64 else 0, d, e, info, ws[off:])
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]


def tridiagonal(routine: str, D: np.ndarray, E: np.ndarray, C: np.ndarray, info: np.ndarray, compz: int,
                ws: np.ndarray | None = None) -> None:
    """steqr or stedc of the one tridiagonal matrix (n >= 2); C (n x n) by compz 'N', 'V', 'I'."""
    ensure_eig()
    n = D.shape[1]
    ws = scratch(ws, tridiagonal_workspace(routine, compz, n, C.itemsize, D.itemsize))
    d, e, off = _tridiagonal_copies(ws, D, E)
    # A compact column-major copy of C (compz 'N': a stand-in): complex stedc with compz 'V' writes
    # rows of Z past n, which would reach the padding of a C with ldc > n.
    c, off = host_carve(ws, off, (n, n) if C.size else (1, 1), C.dtype, "F")
    if C.size:
        c[...] = C[0]
    kind = _KIND[c.dtype]
    if routine == "steqr":
        steqr_entry(kind, compz, d, e, c, max(1, c.shape[0]), info, ws[off:])
    else:
        stedc_entry(kind, compz, d, e, c, max(1, c.shape[0]), info, ws[off:], *_stedc_lwork(kind, compz, n))
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]
    if C.size:
        C[0] = c


def bdsqr(D: np.ndarray, E: np.ndarray, V: np.ndarray, U: np.ndarray, C: np.ndarray, info: np.ndarray,
          uplo: int, ws: np.ndarray | None = None) -> None:
    """bdsqr of the one bidiagonal matrix (n >= 1); rocSOLVER's handling of NaN/Inf input
    (D, E := NaN, info = n) comes first."""
    n = D.shape[1]
    if not (np.isfinite(D).all() and np.isfinite(E).all()):
        D[...] = np.nan
        E[...] = np.nan
        info[:] = n
        return
    ensure_eig()
    ws = scratch(ws, bdsqr_workspace(n, D.itemsize))
    d, e, off = _tridiagonal_copies(ws, D, E)
    v, u, c = (_colmajor(x) if x.size else np.zeros((1, 1, 1), x.dtype) for x in (V, U, C))
    bdsqr_entry(_KIND[v.dtype], uplo, d, e, V.shape[2], v[0], _ld(v), U.shape[1], u[0], _ld(u), C.shape[2], c[0],
                _ld(c), info, ws[off:])
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]
    for out, work in ((V, v), (U, u), (C, c)):
        if out.size:
            _finish(out, work)
