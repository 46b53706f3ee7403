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

The launch bodies at the end get the operands as ``(batch, rows, cols)`` / ``(batch,
n)`` views and make them column-major / contiguous for LAPACK when they are not.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

from ._kernels_lu import _KIND, MAX_CHUNKS, SERIAL_WORK, _colmajor, _finish, _ld, _vector_rows
from ._lapack import _capsule_address, ensure_lapack, external

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
def _sterf(kind, n, d, e, info):  # type: ignore[no-untyped-def]
    iv = np.empty(2, np.int32)
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
def _query(work, kind):  # type: ignore[no-untyped-def]
    # The optimal lwork LAPACK wrote to work[0] (of the routine's element type).
    if kind == 0 or kind == 2:
        return int(work.view(np.float32)[0]) + 1
    return int(work.view(np.float64)[0]) + 1


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


@_jit
def _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    lwork = max(1, n * NB_WORK)
    work = np.empty(lwork, np.complex128)
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    for e in range(lo, hi):
        _tridiag(kind, blocked, uplo, n, _entry(A, e), lda, _entry(D, e), _entry(E, e), _entry(tau, e),
                 _addr(work), lwork, iv, ch)


@kernel
def tridiag_entries(kind, blocked, uplo, A, lda, D, E, tau, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK sytrd/hetrd (blocked) or sytd2/hetd2 in place; D, E (n - 1 used) and tau
    (n - 1 used) get the tridiagonal matrix and the Householder scalars."""
    nb = A.shape[0]
    if nchunk <= 1:
        _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _tridiag_range(kind, blocked, uplo, A, lda, D, E, tau, lo, hi)


@_jit
def _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, lo, hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    lwork = max(1, (m + n) * NB_WORK)
    work = np.empty(lwork, np.complex128)
    iv = np.empty(8, np.int32)
    for e in range(lo, hi):
        _gebrd(kind, blocked, m, n, _entry(A, e), lda, _entry(D, e), _entry(E, e), _entry(tauq, e),
               _entry(taup, e), _addr(work), lwork, iv)


@kernel
def bidiag_entries(kind, blocked, A, lda, D, E, tauq, taup, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK gebrd (blocked) or gebd2 in place."""
    nb = A.shape[0]
    if nchunk <= 1:
        _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _bidiag_range(kind, blocked, A, lda, D, E, tauq, taup, lo, hi)


# --- syev, syevd, sygv -----------------------------------------------------------------------------


@_jit
def _syev_one(kind, vectors, divide, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork,
              liwork, z, iv, ch):  # type: ignore[no-untyped-def]
    """Eigenvalues (ascending, into D) and optionally eigenvectors (over A) of entry e;
    returns info (the off-diagonal elements that did not converge)."""
    n = A.shape[1]
    a, d, ee = _entry(A, e), _entry(D, e), _entry(E, e)
    _tridiag(kind, True, uplo, n, a, lda, d, ee, _addr(tau), _addr(work), lwork, iv, ch)
    info = np.zeros(1, np.int32)
    if not vectors:
        _sterf(kind, n, d, ee, _addr(info))
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


@_jit
def _syev_scratch(n, divide):  # type: ignore[no-untyped-def]
    # Workspace sizes: blocked reductions get n * NB_WORK; stedc('I') LAPACK's documented minimum.
    lwork = max(1, n * NB_WORK, n * n + 4 * n + 1 if divide else 1)
    lrwork = max(2 * n, 1 + 4 * n + 2 * n * n if divide else 1)
    liwork = 3 + 5 * n
    return lwork, lrwork, liwork


@_jit
def _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    lwork, lrwork, liwork = _syev_scratch(n, divide)
    work = np.empty(lwork, np.complex128)
    rwork = np.empty(lrwork, np.float64)
    iwork = np.empty(liwork, np.int32)
    tau = np.empty(max(1, n), np.complex128)
    z = np.empty((n if divide and vectors else 0, n), A.dtype)
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    for e in range(lo, hi):
        info[e] = _syev_one(kind, vectors, divide, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork,
                            liwork, z, iv, ch)


@kernel
def syev_entries(kind, vectors, divide, uplo, A, lda, D, E, info, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 2): eigenvalues ascending in D[e], eigenvectors over A[e] (when
    ``vectors``), info[e]; QR iteration (steqr) or divide and conquer (stedc, ``divide``)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _syev_range(kind, vectors, divide, uplo, A, lda, D, E, info, lo, hi)


@_jit
def _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    lwork, lrwork, liwork = _syev_scratch(n, False)
    work = np.empty(lwork, np.complex128)
    rwork = np.empty(lrwork, np.float64)
    iwork = np.empty(liwork, np.int32)
    tau = np.empty(max(1, n), np.complex128)
    z = np.empty((0, n), A.dtype)
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    for e in range(lo, hi):
        a, b = _entry(A, e), _entry(B, e)
        fail = _potrf(kind, uplo, n, b, ldb, iv, ch)
        if fail > 0:  # B not positive definite: info = n + the order of the failing minor
            info[e] = n + fail
            continue
        _sygst(kind, itype, uplo, n, a, lda, b, ldb, iv, ch)
        info[e] = _syev_one(kind, vectors, False, uplo, A, e, lda, D, E, tau, work, lwork, rwork, lrwork, iwork,
                            liwork, z, iv, ch)
        if vectors:  # x = inv(L^H) y / inv(U) y (itype 1, 2), x = L y / U^H y (itype 3)
            if itype == 3:
                _trxm(kind, False, uplo, N_ if uplo == L_ else CT_, n, b, ldb, a, lda, one, iv, ch)
            else:
                _trxm(kind, True, uplo, N_ if uplo == U_ else CT_, n, b, ldb, a, lda, one, iv, ch)


@kernel
def sygv_entries(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 1): the generalized problem of type ``itype`` with B's Cholesky factor
    over B; eigenvalues in D[e], eigenvectors (B-orthonormal) over A[e]; info[e] = n + i when
    B's leading minor i is not positive definite (A is then left as it was)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _sygv_range(kind, itype, vectors, uplo, A, lda, B, ldb, D, E, info, one, lo, hi)


# --- gesvd -----------------------------------------------------------------------------------------


@_jit
def _copy(dst, e, src, rows, cols):  # type: ignore[no-untyped-def]
    # dst[e, :rows, :cols] = the column-major scratch src (src[c, i] is element (i, c)).
    for c in range(cols):
        for i in range(rows):
            dst[e, i, c] = src[c, i]


@_jit
def _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, lo, hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    k = min(m, n)
    vectors = left != N_ or right != N_
    full = left == A_ or right == A_
    ucols = m if full else k
    vrows = n if full else k
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    ufull = np.empty((ucols if vectors else 0, m), A.dtype)  # column-major scratch: ufull[c, i]
    vtfull = np.empty((n if vectors else 0, vrows), A.dtype)
    keep = np.empty((n if vectors else 0, m), A.dtype)
    q = np.empty(2, np.complex128)
    iwork = np.empty(8 * k + 1, np.int32)
    inf = np.zeros(1, np.int32)
    mx = max(m, n)
    lrwork = max(7 * k, k * max(5 * k + 7, 2 * mx + 2 * k + 1), 5 * k) + 1
    rwork = np.empty(lrwork, np.float64)
    # workspace queries, once per chunk
    jobz = A_ if full else S_
    if vectors:
        _gesdd(kind, jobz, m, n, _addr(keep), m, 0, _addr(ufull), m, _addr(vtfull), vrows, _addr(q), -1,
               _addr(rwork), _addr(iwork), _addr(inf), iv, ch)
    else:
        _gesvd(kind, N_, N_, m, n, _addr(keep), max(1, m), 0, 0, 1, 0, 1, _addr(q), -1, _addr(rwork), _addr(inf),
               iv, ch)
    lwork = _query(q, kind)
    _gesvd(kind, left, right, m, n, _addr(keep), max(1, m), 0, 0, max(1, m), 0, max(1, n), _addr(q), -1,
           _addr(rwork), _addr(inf), iv, ch)
    lwork = max(lwork, _query(q, kind))
    work = np.empty(lwork, np.complex128)
    for e in range(lo, hi):
        a, s = _entry(A, e), _entry(S, e)
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
                E[e, j] = rwork[j] if kind == 3 else rwork.view(np.float32)[j]
            else:
                E[e, j] = _work_real(work, kind, j + 1)


@_jit
def _work_real(work, kind, j):  # type: ignore[no-untyped-def]
    if kind == 0:
        return work.view(np.float32)[j]
    return work.view(np.float64)[j]


@kernel
def gesvd_entries(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: singular values (descending) in S[e], vectors as the letters ``left``/``right``
    ('A' all, 'S' the first min(m, n), 'O' over A, 'N' none; V gets V^H), info[e] and E[e]."""
    nb = A.shape[0]
    if nchunk <= 1:
        _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _gesvd_range(kind, left, right, A, lda, S, U, ldu, V, ldv, E, info, lo, hi)


# --- tridiagonal and bidiagonal auxiliaries (one matrix) ---------------------------------------------


@kernel(parallel=False)
def sterf_entry(kind, D, E, info):  # type: ignore[no-untyped-def]
    """LAPACK sterf: eigenvalues of the tridiagonal (D, E) ascending in D."""
    _sterf(kind, D.shape[0], _addr(D), _addr(E), _addr(info))


@kernel(parallel=False)
def steqr_entry(kind, compz, D, E, C, ldc, info):  # type: ignore[no-untyped-def]
    """LAPACK steqr with compz 'N', 'V' (C holds Q on entry) or 'I'."""
    n = D.shape[0]
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    rwork = np.empty(max(1, 2 * n - 2), np.float64)
    _steqr(kind, compz, n, _addr(D), _addr(E), _addr(C), ldc, _addr(rwork), _addr(info), iv, ch)


@kernel(parallel=False)
def stedc_entry(kind, compz, D, E, C, ldc, info):  # type: ignore[no-untyped-def]
    """LAPACK stedc with compz 'N', 'V' or 'I' (workspace from its query)."""
    n = D.shape[0]
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    q, rq, iq = np.empty(2, np.complex128), np.empty(2, np.float64), np.empty(2, np.int32)
    _stedc(kind, compz, n, _addr(D), _addr(E), _addr(C), ldc, _addr(q), -1, _addr(rq), -1, _addr(iq), -1,
           _addr(info), iv, ch)
    lwork = _query(q, kind) if kind >= 2 else 1  # real stedc has only the real workspace
    lrwork = _query(rq, kind)
    liwork = iq[0] + 1
    work, rwork, iwork = np.empty(lwork, np.complex128), np.empty(lrwork, np.float64), np.empty(liwork, np.int32)
    _stedc(kind, compz, n, _addr(D), _addr(E), _addr(C), ldc, _addr(work), lwork, _addr(rwork), lrwork,
           _addr(iwork), liwork, _addr(info), iv, ch)


@kernel(parallel=False)
def bdsqr_entry(kind, uplo, D, E, nv, V, ldv, nu, U, ldu, nc, C, ldc, info):  # type: ignore[no-untyped-def]
    """LAPACK bdsqr: V := P^H V (n x nv), U := U Q (nu x n), C := Q^H C (n x nc)."""
    n = D.shape[0]
    iv, ch = np.empty(8, np.int32), np.empty(4, np.uint8)
    rwork = np.empty(max(1, 4 * n), np.float64)
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
def _jacobi_one(g, v, vectors, atol, max_sweeps, small):  # type: ignore[no-untyped-def]
    """Cyclic Jacobi on the Hermitian g (full, in place; v accumulates the rotations when
    ``vectors``).  Returns (sweeps, residual squared, converged)."""
    n = g.shape[0]
    diag = 0.0
    for i in range(n):
        diag += abs(g[i, i]) ** 2
    res = _offdiag(g)
    tol = (res + diag) * atol * atol
    sweeps = 0
    while sweeps < max_sweeps and res > tol:
        for p in range(n - 1):
            for q in range(p + 1, n):
                c, s1 = _rotation(g[p, p], g[q, q], g[p, q], small)
                if s1 == 0:
                    continue
                s2 = np.conj(s1)
                for y in range(n):  # columns p, q: g J
                    t1, t2 = g[y, p], g[y, q]
                    g[y, p] = c * t1 + s2 * t2
                    g[y, q] = -s1 * t1 + c * t2
                for y in range(n):  # rows p, q: J^H g
                    t1, t2 = g[p, y], g[q, y]
                    g[p, y] = c * t1 + s1 * t2
                    g[q, y] = -s2 * t1 + c * t2
                g[p, q] = 0
                g[q, p] = 0
                if vectors:
                    for y in range(n):
                        t1, t2 = v[p, y], v[q, y]  # v[c, i]: column c of V, column-major scratch
                        v[p, y] = c * t1 + s2 * t2
                        v[q, y] = -s1 * t1 + c * t2
        res = _offdiag(g)
        sweeps += 1
    return sweeps, res, not res > tol


@_jit
def _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    g = np.empty((n, n), A.dtype)
    v = np.empty((n, n), A.dtype)
    w = np.empty(n, W.dtype)
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
        sweeps, res, ok = _jacobi_one(g, v, vectors, atol, max_sweeps, small)
        residual[e] = np.sqrt(res)
        n_sweeps[e] = sweeps if ok else max_sweeps
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
def syevj_entries(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (n >= 2): Jacobi eigenvalues in W[e] (ascending if asked), eigenvectors over A[e]
    (if asked), the off-diagonal Frobenius norm left (residual), sweeps done (n_sweeps; max_sweeps
    and info = 1 when the tolerance was not reached)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _syevj_range(A, W, residual, n_sweeps, info, lower, vectors, ascending, atol, max_sweeps, small, lo, hi)


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
def _onesided(g, v, atol, max_sweeps, small):  # type: ignore[no-untyped-def]
    """One-sided Jacobi on the columns of g (k columns, column-major scratch g[c, i]): the
    rotations of the two-sided Jacobi on G = g^H g, applied to g and accumulated in v (k x k).
    Returns (sweeps, residual squared of G's off-diagonal, converged)."""
    k = g.shape[0]
    norm2 = 0.0
    for p in range(k):
        x = _dot(g, p, p).real
        norm2 += x * x
    res = _gram_offdiag(g)
    tol = (res + norm2) * atol * atol
    sweeps = 0
    while sweeps < max_sweeps and res > tol:
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
    return sweeps, res, not res > tol


@_jit
def _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, lo, hi):  # type: ignore[no-untyped-def]
    m, n = A.shape[1], A.shape[2]
    wide = m < n
    k, length = (m, n) if wide else (n, m)  # g holds the k columns of A (tall) or of A^H (wide)
    lead_all = (right if wide else left) == A_
    lead = (right if wide else left) != N_
    other = (left if wide else right) != N_
    qcols = length if lead_all else k
    g = np.empty((qcols, length), A.dtype)
    v = np.empty((k, k), A.dtype)
    tmp = np.empty((k, length), A.dtype)
    sig = np.empty(k, np.float64)
    order = np.empty(k, np.int64)
    tau = np.empty(k + 1, np.complex128)
    iv = np.empty(8, np.int32)
    lwork = max(1, qcols * NB_WORK)
    work = np.empty(lwork, np.complex128)
    for e in range(lo, hi):
        for c in range(k):
            for i in range(length):
                g[c, i] = np.conj(A[e, c, i]) if wide else A[e, i, c]
        v[:, :] = 0
        for i in range(k):
            v[i, i] = 1
        gk = g[:k]
        sweeps, res, ok = _onesided(gk, v, atol, max_sweeps, small)
        residual[e] = np.sqrt(res)
        n_sweeps[e] = sweeps if ok else max_sweeps
        info[e] = 0 if ok else 1
        for c in range(k):
            sig[c] = np.sqrt(_dot(gk, c, c).real)
        order[:] = np.argsort(-sig, kind="mergesort")  # descending, stable
        for c in range(k):
            tmp[c, :] = gk[order[c], :]
        for c in range(k):
            gk[c, :] = tmp[c, :]
        sig[:] = sig[order]
        # U (of the tall problem) from the QR factorization of g = A V: Q's columns, with the sign
        # (phase) of R's diagonal moved into them.
        _qr_r(kind, g, k, qcols, length, tau, work, lwork, iv)
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
def _qr_r(kind, g, k, qcols, length, tau, work, lwork, iv):  # type: ignore[no-untyped-def]
    """g[:k] (length x k, column-major) := its QR factor Q (qcols columns), with the phases of
    diag R folded into Q's first k columns (S is the column norms, descending: |R_jj| of columns
    at the rounding level of a rank-deficient A need not be)."""
    if length == 0 or k == 0:
        return
    r = np.empty(k, g.dtype)
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
def gesvdj_entries(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: one-sided Jacobi SVD of A[e] (left unchanged); S descending, U / V^H as
    ``left``/``right`` ('A', 'S', 'N'), residual, n_sweeps and info as syevj on A^H A."""
    nb = A.shape[0]
    if nchunk <= 1:
        _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, 0, nb)
        return
    for t in prange(nchunk):
        lo, hi = _span(nb, nchunk, t)
        _gesvdj_range(kind, A, S, U, V, residual, n_sweeps, info, left, right, atol, max_sweeps, small, lo, hi)


# --- launch bodies ---------------------------------------------------------------------------------


def _chunks(nb: int, serial: bool, work: int) -> int:
    return 1 if serial or nb <= 1 or work >= SERIAL_WORK else min(nb, MAX_CHUNKS)


def _real(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32 if dtype in (np.float32, np.complex64) else np.float64)


def sytrd(A: np.ndarray, D: np.ndarray, E: np.ndarray, tau: np.ndarray, uplo: int, blocked: bool,
          serial: bool) -> None:
    """Tridiagonal reduction of every entry (n >= 1) in place; D, E, tau per entry."""
    nb, n, _ = A.shape
    ensure_eig()
    a, d = _colmajor(A), _vector_rows(D)
    e, t = _padded(E, 1), _padded(tau, 1)
    tridiag_entries(_KIND[a.dtype], blocked, uplo, a, _ld(a), d, e, t, _chunks(nb, serial, n**3))
    _finish(A, a)
    _finish(D, d)
    _unpad(E, e)
    _unpad(tau, t)


def gebrd(A: np.ndarray, D: np.ndarray, E: np.ndarray, tauq: np.ndarray, taup: np.ndarray, blocked: bool,
          serial: bool) -> None:
    """Bidiagonal reduction of every entry (m, n >= 1) in place; D, E, tauq, taup per entry."""
    nb, m, n = A.shape
    ensure_eig()
    a = _colmajor(A)
    d, q, p, e = _vector_rows(D), _vector_rows(tauq), _vector_rows(taup), _padded(E, 1)
    bidiag_entries(_KIND[a.dtype], blocked, a, _ld(a), d, e, q, p, _chunks(nb, serial, m * n * min(m, n)))
    for out, work in ((A, a), (D, d), (tauq, q), (taup, p)):
        _finish(out, work)
    _unpad(E, e)


def _padded(x: np.ndarray, extra: int) -> np.ndarray:
    """Contiguous rows with ``extra`` more elements each: LAPACK may touch one element past
    what rocSOLVER's array holds (E and tau have n - 1 elements; some routines use n)."""
    nb, n = x.shape
    y = np.empty((nb, n + extra), x.dtype)
    y[:, :n] = x
    return y


def _unpad(out: np.ndarray, work: np.ndarray) -> None:
    out[...] = work[:, : out.shape[1]]


def scalar_case(A: np.ndarray, D: np.ndarray, vectors: bool) -> None:
    # rocSOLVER's n = 1: the eigenvalue is the (real part of the) entry; the eigenvector 1.
    D[:, 0] = A[:, 0, 0].real
    if vectors:
        A[:, 0, 0] = 1


def syev(A: np.ndarray, D: np.ndarray, E: np.ndarray, info: np.ndarray, uplo: int, vectors: bool, divide: bool,
         serial: bool) -> None:
    """syev (QR iteration) or syevd (``divide``) of every entry; info := 0 first."""
    nb, n, _ = A.shape
    info[:] = 0
    if n == 1:
        scalar_case(A, D, vectors)
        return
    ensure_eig()
    a, d, e = _colmajor(A), _vector_rows(D), _padded(E, 1)
    syev_entries(_KIND[a.dtype], vectors, divide, uplo, a, _ld(a), d, e, info, _chunks(nb, serial, n**3))
    _finish(A, a)
    _finish(D, d)
    _unpad(E, e)


def sygv(A: np.ndarray, B: np.ndarray, D: np.ndarray, E: np.ndarray, info: np.ndarray, itype: int, uplo: int,
         vectors: bool, serial: bool) -> None:
    """sygv/hegv of every entry (n >= 1); info := 0 first."""
    nb, n, _ = A.shape
    info[:] = 0
    ensure_eig()
    a, b, d, e = _colmajor(A), _colmajor(B), _vector_rows(D), _padded(E, 1)
    sygv_entries(_KIND[a.dtype], itype, vectors, uplo, a, _ld(a), b, _ld(b), d, e, info, np.ones(1, a.dtype),
                 _chunks(nb, serial, n**3))
    for out, work in ((A, a), (B, b), (D, d)):
        _finish(out, work)
    _unpad(E, e)


def gesvd(A: np.ndarray, S: np.ndarray, U: np.ndarray, V: np.ndarray, E: np.ndarray, info: np.ndarray, left: int,
          right: int, serial: bool) -> None:
    """gesvd of every entry (m, n >= 1): letters 'A', 'S', 'O', 'N' for each side."""
    nb, m, n = A.shape
    ensure_eig()
    a, s, u, v, e = _colmajor(A), _vector_rows(S), _colmajor(U), _colmajor(V), _padded(E, 1)
    gesvd_entries(_KIND[a.dtype], left, right, a, _ld(a), s, u, _ld(u), v, _ld(v), e, info,
                  _chunks(nb, serial, m * n * min(m, n)))
    for out, work in ((A, a), (S, s), (U, u), (V, v)):
        _finish(out, work)
    _unpad(E, e)


def syevj(A: np.ndarray, W: np.ndarray, residual: np.ndarray, n_sweeps: np.ndarray, info: np.ndarray, lower: bool,
          vectors: bool, ascending: bool, abstol: float, max_sweeps: int, serial: bool) -> None:
    """syevj/heevj of every entry (n >= 2)."""
    nb = A.shape[0]
    real = _real(A.dtype)
    eps = float(np.finfo(real).eps)
    atol = eps if abstol <= 0 else abstol
    small = float(np.finfo(real).tiny) / eps
    syevj_entries(A, W, residual, n_sweeps, info, lower, vectors, ascending, real.type(atol), max_sweeps,
                  real.type(small), _chunks(nb, serial, 0))


def gesvdj(A: np.ndarray, S: np.ndarray, U: np.ndarray, V: np.ndarray, residual: np.ndarray, n_sweeps: np.ndarray,
           info: np.ndarray, left: int, right: int, abstol: float, max_sweeps: int, serial: bool) -> None:
    """gesvdj of every entry (m, n >= 1); A is not changed."""
    nb = A.shape[0]
    ensure_eig()
    real = _real(A.dtype)
    eps = float(np.finfo(real).eps)
    atol = eps if abstol <= 0 else abstol
    small = float(np.finfo(real).tiny) / eps
    gesvdj_entries(_KIND[A.dtype], A, S, U, V, residual, n_sweeps, info, left, right, real.type(atol), max_sweeps,
                   real.type(small), _chunks(nb, serial, 0))


def sterf(D: np.ndarray, E: np.ndarray, info: np.ndarray) -> None:
    """sterf of the one tridiagonal matrix (n >= 2)."""
    ensure_eig()
    d, e = D[0].copy(), _padded(E, 1)[0]
    sterf_entry(1 if D.dtype == np.float64 else 0, d, e, info)
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]


def tridiagonal(routine: str, D: np.ndarray, E: np.ndarray, C: np.ndarray, info: np.ndarray, compz: int) -> None:
    """steqr or stedc of the one tridiagonal matrix (n >= 2); C (n x n) by compz 'N', 'V', 'I'."""
    ensure_eig()
    d, e = D[0].copy(), _padded(E, 1)[0]
    # A compact column-major copy of C (compz 'N': a stand-in): complex stedc with compz 'V' writes
    # rows of Z past n, which would reach the padding of a C with ldc > n.
    n = D.shape[1]
    c = np.empty((n, n), C.dtype).T if C.size else np.zeros((1, 1), C.dtype)
    if C.size:
        c[...] = C[0]
    fn = steqr_entry if routine == "steqr" else stedc_entry
    fn(_KIND[c.dtype], compz, d, e, c, max(1, c.shape[0]), info)
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]
    if C.size:
        C[0] = c


def bdsqr(D: np.ndarray, E: np.ndarray, V: np.ndarray, U: np.ndarray, C: np.ndarray, info: np.ndarray,
          uplo: int) -> None:
    """bdsqr of the one bidiagonal matrix (n >= 1); rocSOLVER's handling of NaN/Inf input
    (D, E := NaN, info = n) comes first."""
    n = D.shape[1]
    if not (np.isfinite(D).all() and np.isfinite(E).all()):
        D[...] = np.nan
        E[...] = np.nan
        info[:] = n
        return
    ensure_eig()
    d, e = D[0].copy(), _padded(E, 1)[0]
    v, u, c = (_colmajor(x) if x.size else np.zeros((1, 1, 1), x.dtype) for x in (V, U, C))
    bdsqr_entry(_KIND[v.dtype], uplo, d, e, V.shape[2], v[0], _ld(v), U.shape[1], u[0], _ld(u), C.shape[2], c[0],
                _ld(c), info)
    D[0, :] = d
    E[0, :] = e[: E.shape[1]]
    for out, work in ((V, v), (U, u), (C, c)):
        if out.size:
            _finish(out, work)
