"""Eigenvalues by bisection, eigenvectors by inverse iteration: stebz, stein, syevx/heevx, sygvx/hegvx.

rocSOLVER's bisection family (rocsolver-functions.h; library/src/auxiliary/rocauxiliary_stebz.hpp,
rocauxiliary_stein.hpp; library/src/lapack/roclapack_syevx_heevx.hpp, roclapack_sygvx_hegvx.hpp): stebz (s, d)
and stein (s, d, c, z) on one tridiagonal matrix, plain only; syevx/heevx and sygvx/hegvx in plain, ``_batched``
and ``_strided_batched`` forms.  Names, argument order and check order are rocSOLVER's.

Checks, in rocSOLVER's order:

- stebz: erange, eorder (invalid_value); n >= 0; for erange value vl < vu; for erange index first iu <= n and
  (n > 0) il <= iu, then il >= 1 and iu >= 0 (invalid_size); a size query stops there; pointers D, W, iblock,
  isplit when n > 0, E when n > 1, then info, nev, nsplit always (invalid_pointer).
- stein: n >= 0, ldz >= n (invalid_size); pointers D, E when n > 0, nev always, W, iblock, isplit, Z, ifail when
  n > 0, info always.
- syevx/heevx (sygvx/hegvx): [itype,] evect (original or none), erange, uplo (invalid_value); n, lda[, ldb], ldz
  when vectors are asked for, batch_count; for erange value vl < vu; for erange index il >= 1 and iu >= 0, then
  iu <= n and (n > 0) il <= iu (invalid_size); pointers A[, B], W when n > 0, nev and info when batch_count > 0,
  then Z and ifail when vectors are asked for and n > 0.

Quick returns, as rocSOLVER's templates: stebz sets nev, nsplit and info to 0 and returns for n = 0; its n = 1
is rocSOLVER's case-1 kernel (nsplit = 1, isplit = [1]; the one eigenvalue D[0] unless erange value excludes it:
``D[0] <= vl or D[0] > vu``).  stein sets info to 0, then returns for n = 0 or nev <= 0 (ifail untouched).
syevx/sygvx with batch_count = 0 touch nothing; with n = 0 they set info and nev to 0.

Results and conventions (rocSOLVER's):

- stebz: nev eigenvalues in W (by split-off block, ascending inside each, for eorder blocks; ascending overall for
  eorder entire), iblock their 1-based block numbers, isplit the nsplit block ends (1-based); info = 1 when the
  bisection did not converge for some eigenvalues (their iblock entries negative), else 0.  abstol: 0 means
  twice the underflow threshold (rocSOLVER's ``2 * sfmin``), > 0 is used as given, < 0 means machine epsilon
  times the matrix's norm (LAPACK's Gershgorin bound of the whole matrix; rocSOLVER's kernel takes each split-off
  block's own bound, which is no larger: both are within the documented ``eps * ||T||``).  W, iblock past nev and
  isplit past nsplit are not written.
- stein: the eigenvectors of the nev eigenvalues in W (grouped by block as stebz's eorder blocks gives them)
  in the first nev columns of Z, each zero outside its block, normalized with its largest component positive;
  ifail[:nev] := 0, then the 1-based indices of the vectors that did not converge in ifail[:info].  rocSOLVER's
  traversal is kept (blocks 1..iblock[nev - 1]; in each, the run of consecutive eigenvalues with that block
  number), so an iblock that is not as stebz returns it leaves the columns rocSOLVER skips unwritten.  nev > n,
  or a block number or split index outside 1..n, addresses D, E or isplit out of bounds: MemoryAccessFault.
- syevx/heevx: A is destroyed (it gets the Householder vectors of the tridiagonal reduction); nev, the first nev
  entries of W ascending, and with vectors the first nev columns of Z (orthonormal) and ifail[:nev] (as stein's,
  mapped through the final sort); info as rocSOLVER: without vectors stebz's (0 or 1), with vectors stein's count
  of vectors that did not converge (stein's reset overwrites stebz's info, in LAPACK's xSYEVX as in rocSOLVER).
- sygvx/hegvx: B gets its Cholesky factor; the problem A x = l B x (itype ax), A B x = l x (abx) or B A x = l x
  (bax) is reduced (sygst/hegst, over A) and solved as syevx, the vectors back-transformed (B-orthonormal; for bax
  B^-1-orthonormal).  B's leading minor of order i not positive definite: info = n + i and nev = 0, as rocSOLVER's
  sygvx_update_info (rocSOLVER goes on with the partial factor and leaves A, W, Z, ifail garbage; here that entry's
  A, W, Z and ifail are left as they were).  Otherwise info is syevx's.

How they are computed: LAPACK per entry (scipy's, through the symbols of :mod:`rocmath.solver._lapack`), called
from small numba functions (``cache=True``): stebz is ?stebz; stein is ?stein on each run of eigenvalues of one
block (the block's rows, its run's eigenvalues ascending); syevx is ?syevx/?heevx on a column-major copy of each
entry; sygvx is ?potrf, ?sygst/?hegst, ?syevx/?heevx and the back-transformation by ?trsm/?trmm on the nev
columns (as LAPACK's xSYGVX without its ``M = INFO - 1`` on a vector failure, which rocSOLVER does not have).
Arguments are given so that LAPACK shows rocSOLVER's semantics: abstol = 0 becomes ``2 * sfmin``; for abstol < 0
with all eigenvalues (erange all, or index 1..n) syevx is asked for those in (-huge, huge], which LAPACK's xSYEVX
solves by bisection and inverse iteration as rocSOLVER does (asked for all of them with abstol <= 0 it would take
its QR-iteration path instead); LAPACK's info is mapped to rocSOLVER's.  Differences left: xSYEVX scales a matrix
whose largest entry is below sqrt(sfmin / eps) or above min(sqrt(huge), sfmin^-1/4), rocSOLVER does not (values
agree to rounding); LAPACK's xSTEBZ info 4 (Gershgorin interval too small: no eigenvalues) is reported as nev = 0,
info = 0; Z columns past nev are not written (rocSOLVER may write them: its back-transformations take n, or iu -
il + 1, columns); W past nev likewise; stein binds W, iblock, isplit and ifail as n elements and Z as n columns
(rocSOLVER reads only nev of W and writes nev columns of Z); the starting vectors of inverse iteration are
LAPACK's (rocSOLVER's are its own pseudo-random ones: vectors agree up to rounding and, for clustered
eigenvalues, a rotation inside the cluster).
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from rocmath.errors import MemoryAccessFault
from rocmath.precision import C, D, S, Z

from . import _kernels_eig as ke
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._lapack import _capsule_address, external
from ._types import Eform, Eorder, Erange, Evect
from ._workspace import rounded
from .eig import _reset, range_args, real_arg
from .eigx import _evect, _letter, _uplo, _z_columns

_INT = np.dtype(np.int32)
_ITYPE = {Eform.ax: 1, Eform.abx: 2, Eform.bax: 3}
_RANGE = {Erange.all: ord("A"), Erange.value: ord("V"), Erange.index: ord("I")}
#: Block size the LAPACK work arrays are sized for (xSYEVX's optimum is (nb + 3) n).
NB_WORK = 64

#: LAPACK routines this module registers itself (stein is in _lapack.ROUTINES: it has all four precisions).
ROUTINES = ("sstebz", "dstebz", "ssyevx", "dsyevx", "cheevx", "zheevx")
_registered = False
_lock = threading.Lock()


def ensure_bisection() -> None:
    """Register :data:`ROUTINES` (and, through ensure_eig, the LAPACK/BLAS symbols the kernels call) once."""
    global _registered
    if _registered:
        return
    ke.ensure_eig()
    with _lock:
        if _registered:
            return
        import llvmlite.binding as ll
        import scipy.linalg.cython_lapack as clapack

        for name in ROUTINES:
            ll.add_symbol(f"rocmath_{name}", _capsule_address(clapack.__pyx_capi__[name]))
        _registered = True


# --- LAPACK calls (every argument by address: ch letters, iv int32 cells, rv real cells) -------------

_s_stebz, _d_stebz = external("sstebz", 18), external("dstebz", 18)
_s_stein, _d_stein, _c_stein, _z_stein = (external(p + "stein", 13) for p in "sdcz")
_s_syevx, _d_syevx = external("ssyevx", 20), external("dsyevx", 20)
_c_heevx, _z_heevx = external("cheevx", 21), external("zheevx", 21)
_s_potrf, _d_potrf, _c_potrf, _z_potrf = (external(p + "potrf", 5) for p in "sdcz")
_s_gst, _d_gst, _c_gst, _z_gst = (external(n, 8) for n in ("ssygst", "dsygst", "chegst", "zhegst"))
_s_trsm, _d_trsm, _c_trsm, _z_trsm = (external(p + "trsm", 11) for p in "sdcz")
_s_trmm, _d_trmm, _c_trmm, _z_trmm = (external(p + "trmm", 11) for p in "sdcz")

_jit = njit(nogil=True, error_model="numpy", cache=True)


@_jit
def _at(x, e):  # type: ignore[no-untyped-def]
    # Address of entry e of a (batch, ...) array.
    return x.ctypes.data + e * x.strides[0]


@_jit
def stebz_call(kind, ch, iv, rv, d, e, out, w, iblock, isplit, work, iwork):  # type: ignore[no-untyped-def]
    """?stebz(range ch[0], order ch[1], n iv[0], vl rv[0], vu rv[1], il iv[1], iu iv[2], abstol rv[2]);
    out gets (m, nsplit, info)."""
    c, i, r, o, s = ch.ctypes.data, iv.ctypes.data, rv.ctypes.data, out.ctypes.data, rv.itemsize
    if kind == 0:
        _s_stebz(c, c + 1, i, r, r + s, i + 4, i + 8, r + 2 * s, d.ctypes.data, e.ctypes.data, o, o + 4,
                 w.ctypes.data, iblock.ctypes.data, isplit.ctypes.data, work.ctypes.data, iwork.ctypes.data, o + 8)
    else:
        _d_stebz(c, c + 1, i, r, r + s, i + 4, i + 8, r + 2 * s, d.ctypes.data, e.ctypes.data, o, o + 4,
                 w.ctypes.data, iblock.ctypes.data, isplit.ctypes.data, work.ctypes.data, iwork.ctypes.data, o + 8)


@_jit
def stein_call(kind, iv, d, e, w, iblock, isplit, z, work, iwork, ifail, out):  # type: ignore[no-untyped-def]
    """?stein(n iv[0], m iv[1], ldz iv[2]); out[0] gets info."""
    i = iv.ctypes.data
    a = (d.ctypes.data, e.ctypes.data, w.ctypes.data, iblock.ctypes.data, isplit.ctypes.data, z.ctypes.data,
         work.ctypes.data, iwork.ctypes.data, ifail.ctypes.data, out.ctypes.data)
    if kind == 0:
        _s_stein(i, a[0], a[1], i + 4, a[2], a[3], a[4], a[5], i + 8, a[6], a[7], a[8], a[9])
    elif kind == 1:
        _d_stein(i, a[0], a[1], i + 4, a[2], a[3], a[4], a[5], i + 8, a[6], a[7], a[8], a[9])
    elif kind == 2:
        _c_stein(i, a[0], a[1], i + 4, a[2], a[3], a[4], a[5], i + 8, a[6], a[7], a[8], a[9])
    else:
        _z_stein(i, a[0], a[1], i + 4, a[2], a[3], a[4], a[5], i + 8, a[6], a[7], a[8], a[9])


@_jit
def _lapack_syevx(kind, c, i, r, s, a, m, w, z, work, rwork, iwork, f, info):  # type: ignore[no-untyped-def]
    # ?syevx/?heevx(jobz c, range c+1, uplo c+2, n i, a, lda i+4, vl r, vu r+s, il i+8, iu i+12, abstol r+2s, m,
    # w, z, ldz i+16, work, lwork i+20, [rwork,] iwork, ifail, info)
    if kind == 0:
        _s_syevx(c, c + 1, c + 2, i, a, i + 4, r, r + s, i + 8, i + 12, r + 2 * s, m, w, z, i + 16, work, i + 20,
                 iwork, f, info)
    elif kind == 1:
        _d_syevx(c, c + 1, c + 2, i, a, i + 4, r, r + s, i + 8, i + 12, r + 2 * s, m, w, z, i + 16, work, i + 20,
                 iwork, f, info)
    elif kind == 2:
        _c_heevx(c, c + 1, c + 2, i, a, i + 4, r, r + s, i + 8, i + 12, r + 2 * s, m, w, z, i + 16, work, i + 20,
                 rwork, iwork, f, info)
    else:
        _z_heevx(c, c + 1, c + 2, i, a, i + 4, r, r + s, i + 8, i + 12, r + 2 * s, m, w, z, i + 16, work, i + 20,
                 rwork, iwork, f, info)


@_jit
def _reduce(kind, c, i, a, b, info):  # type: ignore[no-untyped-def]
    # ?sygst/?hegst(itype i+24, uplo c+2, n i, a, lda i+4, b, ldb i+28, info)
    if kind == 0:
        _s_gst(i + 24, c + 2, i, a, i + 4, b, i + 28, info)
    elif kind == 1:
        _d_gst(i + 24, c + 2, i, a, i + 4, b, i + 28, info)
    elif kind == 2:
        _c_gst(i + 24, c + 2, i, a, i + 4, b, i + 28, info)
    else:
        _z_gst(i + 24, c + 2, i, a, i + 4, b, i + 28, info)


@_jit
def _potrf(kind, c, i, b, info):  # type: ignore[no-untyped-def]
    if kind == 0:
        _s_potrf(c + 2, i, b, i + 28, info)
    elif kind == 1:
        _d_potrf(c + 2, i, b, i + 28, info)
    elif kind == 2:
        _c_potrf(c + 2, i, b, i + 28, info)
    else:
        _z_potrf(c + 2, i, b, i + 28, info)


@_jit
def _back(kind, solve, c, i, m, one, b, z):  # type: ignore[no-untyped-def]
    # z := op(F)^-1 z (trsm) or op(F) z (trmm): side c+3, uplo c+2, trans c+4, diag c+5, n rows, m columns.
    if solve:
        if kind == 0:
            _s_trsm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
        elif kind == 1:
            _d_trsm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
        elif kind == 2:
            _c_trsm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
        else:
            _z_trsm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
    elif kind == 0:
        _s_trmm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
    elif kind == 1:
        _d_trmm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
    elif kind == 2:
        _c_trmm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)
    else:
        _z_trmm(c + 3, c + 2, c + 4, c + 5, i, m, one, b, i + 28, z, i + 16)


@_jit
def syevx_entries(kind, generalized, ch, iv, rv, A, B, Zs, W, F, M, INFO, PINFO, one, work, rwork,  # type: ignore[no-untyped-def]
                  iwork):
    """Each entry: [?potrf(B), ?sygst/?hegst,] ?syevx/?heevx on A (column-major copies, ld n)[, then the
    back-transformation of the M columns of Z by ?trsm (solve) or ?trmm].  ch: jobz, range, uplo, 'L', trans,
    'N'; iv: n, lda, il, iu, ldz, lwork, itype, ldb; rv: vl, vu, abstol."""
    c, i, r, s = ch.ctypes.data, iv.ctypes.data, rv.ctypes.data, rv.itemsize
    vectors = ch[0] == 86  # 'V'
    solve = iv[6] != 3
    for e in range(A.shape[0]):
        a, m, info = _at(A, e), _at(M, e), _at(INFO, e)
        if generalized:
            b = _at(B, e)
            _potrf(kind, c, i, b, _at(PINFO, e))
            if PINFO[e] != 0:
                continue
            _reduce(kind, c, i, a, b, info)
        _lapack_syevx(kind, c, i, r, s, a, m, _at(W, e), _at(Zs, e), work.ctypes.data, rwork.ctypes.data,
               iwork.ctypes.data, _at(F, e), info)
        if generalized and vectors and M[e] > 0:
            _back(kind, solve, c, i, m, one.ctypes.data, _at(B, e), _at(Zs, e))


# --- scratch layouts: the workspace functions and the launch bodies use the same code --------------------


class _Part(NamedTuple):
    shape: tuple[int, ...]
    dtype: Any


def _layout_bytes(parts: dict[str, _Part]) -> int:
    return sum(rounded(int(np.prod(p.shape)) * np.dtype(p.dtype).itemsize) for p in parts.values())


def _carve(ws: np.ndarray, parts: dict[str, _Part]) -> dict[str, np.ndarray]:
    out, off = {}, 0
    for name, p in parts.items():
        dt = np.dtype(p.dtype)
        count = int(np.prod(p.shape))
        out[name] = ws[off:off + count * dt.itemsize].view(dt).reshape(p.shape)
        off += rounded(count * dt.itemsize)
    return out


def _kind(dtype: Any) -> int:
    return {np.float32: 0, np.float64: 1, np.complex64: 2, np.complex128: 3}[np.dtype(dtype).type]


def _cells(real: Any) -> dict[str, _Part]:
    return {"ch": _Part((8,), np.uint8), "iv": _Part((8,), np.int32), "rv": _Part((3,), real)}


def _abstol(abstol: float, real: Any) -> float:
    """rocSOLVER's abstol = 0: twice the underflow threshold (what LAPACK is then given)."""
    return 2 * float(np.finfo(real).tiny) if abstol == 0 else abstol


# --- stebz -----------------------------------------------------------------------------------------------


class _Dims(NamedTuple):
    n: int
    batch: int
    opts: tuple[Any, ...] = ()


def _range_checks(c: SolverCall, erange: Erange, n: int, index_bounds_first: bool) -> tuple[float, float, int, int]:
    """The range checks after the other sizes (:func:`.eig.range_args`; stebz tests the index bounds first,
    syevx the signs)."""
    return range_args(c, erange is Erange.value, erange is Erange.index, n, bounds_first=index_bounds_first)


def _check_stebz(c: SolverCall) -> _Dims:
    erange = c.enum("erange", Erange)
    eorder = c.enum("eorder", Eorder)
    (n,) = c.sizes("n")
    return _Dims(n, 1, (erange, eorder, _range_checks(c, erange, n, True)))


def _stebz_parts(n: int, real: Any) -> dict[str, _Part]:
    return {**_cells(real), "out": _Part((3,), np.int32), "d": _Part((n,), real), "e": _Part((max(n, 1),), real),
            "w": _Part((n,), real), "iblock": _Part((n,), np.int32), "isplit": _Part((n,), np.int32),
            "work": _Part((4 * n,), real), "iwork": _Part((3 * n,), np.int32)}


def _stebz_workspace(c: SolverCall) -> int:
    n = c.dims.n
    return 0 if n <= 1 else _layout_bytes(_stebz_parts(n, c.precision.real.dtype))


def stebz_run(Dv: np.ndarray, Ev: np.ndarray, W: np.ndarray, iblock: np.ndarray, isplit: np.ndarray,
              nev: np.ndarray, nsplit: np.ndarray, info: np.ndarray, ws: np.ndarray | None, erange: Erange,
              eorder: Eorder, bounds: tuple[float, float, int, int], abstol: float) -> None:
    """Launch body of stebz (n >= 1): D, E, W, iblock, isplit as (1, length) views."""
    n = Dv.shape[1]
    vl, vu, il, iu = bounds
    nev[0] = nsplit[0] = info[0] = 0
    if n == 1:  # rocSOLVER's case-1 kernel
        nsplit[0], isplit[0, 0] = 1, 1
        d = Dv[0, 0]
        if not (erange is Erange.value and (d <= vl or d > vu)):
            nev[0], W[0, 0], iblock[0, 0] = 1, d, 1
        return
    ensure_bisection()
    real = Dv.dtype
    assert ws is not None
    s = _carve(ws, _stebz_parts(n, real))
    s["ch"][:2] = (_RANGE[erange], ord("B") if eorder is Eorder.blocks else ord("E"))
    s["iv"][:3] = (n, il, iu)
    s["rv"][:] = (vl, vu, _abstol(abstol, real))
    s["d"][:] = Dv[0]
    s["e"][: n - 1] = Ev[0, : n - 1]
    stebz_call(_kind(real), s["ch"], s["iv"], s["rv"], s["d"], s["e"], s["out"], s["w"], s["iblock"], s["isplit"],
               s["work"], s["iwork"])
    m, ns, raw = (int(x) for x in s["out"])
    if raw == 4:  # LAPACK found no eigenvalues (its Gershgorin interval was too small)
        m = 0
    W[0, :m] = s["w"][:m]
    iblock[0, :m] = s["iblock"][:m]
    isplit[0, :ns] = s["isplit"][:ns]
    nev[0], nsplit[0], info[0] = m, ns, 1 if raw in (1, 3) else 0


def _stebz(c: SolverCall) -> None:
    n = c.dims.n
    erange, eorder, bounds = c.dims.opts
    c.require("D", "W", "iblock", "isplit", when=n > 0)
    c.require("E", when=n > 1)
    c.require("info", "nev", "nsplit")
    abstol = real_arg(c, "abstol")
    if n == 0:
        _reset(c, "nev", "nsplit", "info")
        return
    real = c.precision.real.dtype
    ops = [c.vector("D", n, dtype=real), c.vector("E", max(n - 1, 0), dtype=real) if n > 1 else np.zeros((1, 0), real),
           c.vector("W", n, writable=True, dtype=real), c.vector("iblock", n, writable=True, dtype=_INT),
           c.vector("isplit", n, writable=True, dtype=_INT)]
    ints = [c.array(name, 1, _INT) for name in ("nev", "nsplit", "info")]
    work = c.workspace_buffer()
    c.launch(partial(_stebz_launch, erange=erange, eorder=eorder, bounds=bounds, abstol=abstol), *ops, *ints, work,
             flops=30.0 * n * n, bytes=8.0 * n * c.precision.real.itemsize)


def _stebz_launch(Dv, Ev, W, iblock, isplit, nev, nsplit, info, ws, **kw):  # type: ignore[no-untyped-def]
    stebz_run(Dv, Ev, W, iblock, isplit, nev, nsplit, info, ws, **kw)


STEBZ = SolverRoutine("stebz", ("erange", "eorder", "n", "vl", "vu", "il", "iu", "abstol", "D", "E", "nev",
                                "nsplit", "W", "iblock", "isplit", "info"), {}, _stebz, check=_check_stebz,
                      workspace=_stebz_workspace, pointers=("info", "nev", "nsplit"),
                      vectors={"D": "strideD", "E": "strideE", "W": "strideW", "iblock": "strideIblock",
                               "isplit": "strideIsplit"},
                      summary="Eigenvalues of the symmetric tridiagonal matrix (D, E) by bisection: all, those in "
                              "(vl, vu], or the il-th through iu-th; the first nev entries of W, ordered by split-off "
                              "block (eorder blocks, iblock their block numbers) or overall (entire), isplit the "
                              "nsplit block ends; abstol 0: twice the underflow threshold, < 0: eps times the "
                              "matrix's norm; info = 1 when some did not converge (negative iblock).")


# --- stein -----------------------------------------------------------------------------------------------


def _check_stein(c: SolverCall) -> _Dims:
    (n,) = c.sizes("n")
    c.lds(("ldz", n))
    return _Dims(n, 1)


def _stein_parts(n: int, dtype: Any, real: Any) -> dict[str, _Part]:
    return {"iv": _Part((4,), np.int32), "out": _Part((1,), np.int32), "d": _Part((n,), real),
            "e": _Part((n,), real), "w": _Part((n,), real), "ones": _Part((n,), np.int32),
            "isplit": _Part((1,), np.int32), "z": _Part((n, n), dtype), "work": _Part((5 * n,), real),
            "iwork": _Part((n,), np.int32), "ifail": _Part((n,), np.int32)}


def _stein_workspace(c: SolverCall) -> int:
    n = c.dims.n
    return 0 if n == 0 else _layout_bytes(_stein_parts(n, c.dtype, c.precision.real.dtype))


def stein_run(Dv: np.ndarray, Ev: np.ndarray, nev: np.ndarray, W: np.ndarray, iblock: np.ndarray,
              isplit: np.ndarray, Zm: np.ndarray, ifail: np.ndarray, info: np.ndarray, ws: np.ndarray) -> None:
    """Launch body of stein (n >= 1): rocSOLVER's traversal of the blocks, LAPACK ?stein on each run."""
    n = Dv.shape[1]
    info[0] = 0
    m = int(nev[0])
    if m <= 0:
        return
    if m > n:
        raise MemoryAccessFault(f"argument 'nev': {m} eigenvalues, but iblock holds n = {n}")
    ensure_bisection()
    s = _carve(ws, _stein_parts(n, Zm.dtype, Dv.dtype))
    kind = _kind(Zm.dtype)
    ib = np.array(iblock[0, :m], dtype=np.int64)
    ifail[0, :m] = 0
    failed: list[int] = []
    nblocks = int(ib[m - 1])
    if nblocks > n:
        raise MemoryAccessFault(f"argument 'iblock': block {nblocks} past isplit's n = {n} entries")
    j1 = 0
    for blk in range(nblocks):
        b1 = 0 if blk == 0 else int(isplit[0, blk - 1])
        bn = int(isplit[0, blk]) - 1
        if not (0 <= b1 <= n and -1 <= bn < n):
            raise MemoryAccessFault(f"argument 'isplit': block {blk + 1} spans rows {b1 + 1}..{bn + 1}, outside "
                                    f"1..{n}")
        j2 = j1
        while j2 < m and ib[j2] - 1 == blk:
            j2 += 1
        run = j2 - j1
        size = bn - b1 + 1
        if run and size > 1:
            order = np.argsort(W[0, j1:j2], kind="stable")  # LAPACK wants each block's values ascending
            s["iv"][:3] = (size, run, size)
            s["d"][:size] = Dv[0, b1:bn + 1]
            s["e"][: size - 1] = Ev[0, b1:bn]
            s["w"][:run] = W[0, j1:j2][order]
            s["ones"][:run] = 1
            s["isplit"][0] = size
            z = s["z"].reshape(-1)[: size * run].reshape(run, size)  # column-major size x run
            stein_call(kind, s["iv"], s["d"], s["e"], s["w"], s["ones"], s["isplit"], z, s["work"], s["iwork"],
                       s["ifail"], s["out"])
            for k in range(int(s["out"][0])):
                failed.append(j1 + int(order[int(s["ifail"][k]) - 1]) + 1)
            cols = np.zeros((n, run), Zm.dtype)
            cols[b1:bn + 1, order] = z.T
            Zm[0, :, j1:j2] = cols
        elif run:  # a block of order 1 (or none): the unit vector at its row
            cols = np.zeros((n, run), Zm.dtype)
            if size == 1:
                cols[b1, :] = 1
            Zm[0, :, j1:j2] = cols
        j1 = j2
    ifail[0, : len(failed)] = failed
    info[0] = len(failed)


def _stein(c: SolverCall) -> None:
    n = c.dims.n
    c.require("D", "E", when=n > 0)
    c.require("nev")
    c.require("W", "iblock", "isplit", "Z", "ifail", when=n > 0)
    c.require("info")
    if n == 0:
        c.reset_info()
        return
    real = c.precision.real.dtype
    ops = [c.vector("D", n, dtype=real), c.vector("E", n - 1, dtype=real), c.array("nev", 1, _INT),
           c.vector("W", n, dtype=real), c.vector("iblock", n, dtype=_INT), c.vector("isplit", n, dtype=_INT),
           c.matrix("Z", n, n, c.int("ldz"), writable=True), c.vector("ifail", n, writable=True, dtype=_INT)]
    work = c.workspace_buffer()
    c.launch(stein_run, *ops, c.info(), work, flops=_flops1(c, 10.0 * n * n), bytes=2.0 * n * n * c.precision.itemsize)


def _flops1(c: SolverCall, muladds: float) -> float:
    return muladds * (8 if c.precision.is_complex else 2)


STEIN = SolverRoutine("stein", ("n", "D", "E", "nev", "W", "iblock", "isplit", "Z", "ldz", "ifail", "info"),
                      {"Z": "ldz"}, _stein, check=_check_stein, workspace=_stein_workspace,
                      pointers=("info", "nev"),
                      vectors={"D": "strideD", "E": "strideE", "W": "strideW", "iblock": "strideIblock",
                               "isplit": "strideIsplit", "ifail": "strideF"},
                      summary="Eigenvectors of the symmetric tridiagonal matrix (D, E) for the nev eigenvalues in W "
                              "(grouped by split-off block as stebz returns them with iblock, isplit) by inverse "
                              "iteration, in the first nev columns of Z; ifail[:nev] := 0, then the indices of "
                              "those that did not converge in ifail[:info].")


# --- syevx/heevx, sygvx/hegvx --------------------------------------------------------------------------


def _check_x(c: SolverCall, generalized: bool) -> _Dims:
    itype = c.enum("itype", Eform) if generalized else None
    evect = _evect(c)
    erange = c.enum("erange", Erange)
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    if generalized:
        c.lds(("ldb", n))
    if evect is not Evect.none:
        c.lds(("ldz", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, evect, erange, uplo, _range_checks(c, erange, n, False)))


def _x_parts(n: int, batch: int, dtype: Any, real: Any, vectors: bool, generalized: bool) -> dict[str, _Part]:
    lwork = max(1, (NB_WORK + 3) * n)
    zn = n if vectors else 1
    return {**_cells(real), "one": _Part((1,), dtype), "A": _Part((batch, n, n), dtype),
            "B": _Part((batch, n, n) if generalized else (1,), dtype), "Z": _Part((batch, zn, zn), dtype),
            "W": _Part((batch, n), real), "F": _Part((batch, n), np.int32), "M": _Part((batch,), np.int32),
            "INFO": _Part((batch,), np.int32), "PINFO": _Part((batch,), np.int32), "work": _Part((lwork,), dtype),
            "rwork": _Part((7 * n,), real), "iwork": _Part((5 * n,), np.int32)}


def _x_workspace(c: SolverCall, generalized: bool) -> int:
    n, batch, (_, evect, *_rest) = c.dims
    if n == 0 or batch == 0:
        return 0
    return _layout_bytes(_x_parts(n, batch, c.dtype, c.precision.real.dtype, evect is Evect.original, generalized))


def _trans(itype: int, upper: bool, complex_: bool) -> int:
    """The back-transformation's op: x = inv(L^H) y / inv(U) y (ax, abx); x = L y / U^H y (bax)."""
    conj = ord("C") if complex_ else ord("T")
    if itype == 3:
        return conj if upper else ord("N")
    return ord("N") if upper else conj


def syevx_run(A: np.ndarray, B: np.ndarray | None, W: np.ndarray, Zm: np.ndarray, ifail: np.ndarray,
              nev: np.ndarray, info: np.ndarray, ws: np.ndarray, itype: int, uplo: int, vectors: bool,
              erange: Erange, bounds: tuple[float, float, int, int], abstol: float) -> None:
    """Launch body of syevx (B None) or sygvx (n >= 1): LAPACK on column-major copies of the entries, the
    results copied into the caller's arrays in entry order (so overlapping entries end as the last one's)."""
    nb, n, _ = A.shape
    generalized = B is not None
    real = W.dtype
    ensure_bisection()
    s = _carve(ws, _x_parts(n, nb, A.dtype, real, vectors, generalized))
    vl, vu, il, iu = bounds
    rng = _RANGE[erange]
    if abstol < 0 and (erange is Erange.all or (erange is Erange.index and il == 1 and iu == n)):
        # all eigenvalues by bisection (LAPACK takes QR iteration for range 'A' with abstol <= 0)
        rng, vl, vu = ord("V"), -float(np.finfo(real).max), float(np.finfo(real).max)
    complex_ = np.iscomplexobj(A)
    s["ch"][:6] = (ord("V") if vectors else ord("N"), rng, uplo, ord("L"), _trans(itype, uplo == ord("U"), complex_),
                   ord("N"))
    s["iv"][:8] = (n, n, il, iu, n if vectors else 1, s["work"].shape[0], itype, n)
    s["rv"][:] = (vl, vu, _abstol(abstol, real))
    s["one"][0] = 1
    a = s["A"]
    a[...] = A.transpose(0, 2, 1)  # entry e of a (C order) is A[e] column-major
    if generalized:
        s["B"][...] = B.transpose(0, 2, 1)
    s["F"][...] = 0
    s["M"][...] = 0
    s["INFO"][...] = 0
    s["PINFO"][...] = 0
    syevx_entries(_kind(A.dtype), generalized, s["ch"], s["iv"], s["rv"], a, s["B"], s["Z"], s["W"], s["F"], s["M"],
                  s["INFO"], s["PINFO"], s["one"], s["work"], s["rwork"], s["iwork"])
    zcols = Zm.shape[2]
    for e in range(nb):
        pinfo = int(s["PINFO"][e])
        if pinfo:  # B not positive definite: info = n + i, nev = 0; A, W, Z, ifail keep their values
            nev[e], info[e] = 0, n + pinfo
            B[e] = s["B"][e].T
            continue
        m = min(int(s["M"][e]), zcols if vectors else n)
        raw = int(s["INFO"][e])
        nev[e] = m
        info[e] = raw if vectors else (1 if raw in (1, 3) else 0)
        A[e] = a[e].T
        if generalized:
            B[e] = s["B"][e].T
        W[e, :m] = s["W"][e, :m]
        if vectors and m:
            Zm[e, :, :m] = s["Z"][e].T[:, :m]
            ifail[e, :m] = s["F"][e, :m]


def _syevx(c: SolverCall, generalized: bool) -> None:
    n, batch, (itype, evect, erange, uplo, bounds) = c.dims
    vectors = evect is Evect.original
    c.require("A", *(("B",) if generalized else ()), "W", when=n > 0)
    c.require("nev", "info", when=batch > 0)
    c.require("Z", "ifail", when=vectors and n > 0)
    if batch == 0:
        return
    abstol = real_arg(c, "abstol")
    if n == 0:
        _reset(c, "info", "nev")
        return
    lda = c.int("lda")
    real = c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, c.int("ldb"), writable=True) if generalized else None
    w = c.vector("W", n, writable=True, dtype=real)
    zcols = _z_columns(n, _RangeLike(erange, bounds[2], bounds[3])) if vectors else 0
    z = c.matrix("Z", n, zcols, c.int("ldz"), writable=True) if vectors else np.zeros((batch, 0, 0), c.dtype)
    f = c.vector("ifail", n, writable=True, dtype=_INT) if vectors else np.zeros((batch, 0), _INT)
    work = c.workspace_buffer()
    body = partial(syevx_run, itype=_ITYPE.get(itype, 1), uplo=_letter(uplo), vectors=vectors, erange=erange,
                   bounds=bounds, abstol=abstol)
    ints = (c.array("nev", batch, _INT), c.info())
    flops = _flops1(c, batch * ((4.0 * n**3 / 3) + (2.0 * n * n * zcols)) * (2 if generalized else 1))
    if generalized:
        c.launch(body, a, b, w, z, f, *ints, work, flops=flops, bytes=4.0 * batch * c.precision.itemsize * n * n)
    else:
        c.launch(partial(_no_b, body), a, w, z, f, *ints, work, flops=flops,
                 bytes=2.0 * batch * c.precision.itemsize * n * n)


def _no_b(body, A, W, Zm, ifail, nev, info, ws):  # type: ignore[no-untyped-def]
    body(A, None, W, Zm, ifail, nev, info, ws)


class _RangeLike(NamedTuple):
    erange: Erange
    il: int
    iu: int


_EVX_PARAMS = ("evect", "erange", "uplo", "n", "A", "lda", "vl", "vu", "il", "iu", "abstol", "nev", "W", "Z", "ldz",
               "ifail", "info")
_GVX_PARAMS = ("itype", "evect", "erange", "uplo", "n", "A", "lda", "B", "ldb", "vl", "vu", "il", "iu", "abstol",
               "nev", "W", "Z", "ldz", "ifail", "info")
_X_VECTORS = {"W": "strideW", "ifail": "strideF"}
_EVX_SUMMARY = ("Selected eigenvalues (all, those in (vl, vu], or the il-th through iu-th) of the {kind} matrix A, "
                "ascending in the first nev entries of W, by tridiagonal reduction and bisection (abstol 0: twice the "
                "underflow threshold, < 0: eps times the tridiagonal matrix's norm), and optionally (evect original) "
                "their eigenvectors by inverse iteration in the first nev columns of Z, ifail[:nev] naming those that "
                "did not converge (info of them); A is destroyed.")
_GVX_SUMMARY = ("Selected eigenvalues (all, those in (vl, vu], or the il-th through iu-th) of the {kind}-definite "
                "generalized problem A x = l B x (itype ax), A B x = l x (abx) or B A x = l x (bax), ascending in the "
                "first nev entries of W, by bisection, and optionally their eigenvectors (B-orthonormal; "
                "B^-1-orthonormal for bax) by inverse iteration in the first nev columns of Z, ifail as syevx's; B "
                "gets its Cholesky factor, A is destroyed; info = n + i (and nev = 0) when B's leading minor of order "
                "i is not positive definite, else syevx's.")


def _x_routine(name: str, generalized: bool, kind: str) -> SolverRoutine:
    arrays = {"A": "lda", "B": "ldb", "Z": "ldz"} if generalized else {"A": "lda", "Z": "ldz"}
    return SolverRoutine(name, _GVX_PARAMS if generalized else _EVX_PARAMS, arrays,
                         partial(_syevx, generalized=generalized), check=partial(_check_x, generalized=generalized),
                         workspace=partial(_x_workspace, generalized=generalized), vectors=_X_VECTORS,
                         pointers=("info", "nev"),
                         summary=(_GVX_SUMMARY if generalized else _EVX_SUMMARY).format(kind=kind))


SYEVX = _x_routine("syevx", False, "symmetric")
HEEVX = _x_routine("heevx", False, "Hermitian")
SYGVX = _x_routine("sygvx", True, "symmetric")
HEGVX = _x_routine("hegvx", True, "Hermitian")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sstebz = bind(STEBZ, S)
dstebz = bind(STEBZ, D)
sstein = bind(STEIN, S)
dstein = bind(STEIN, D)
cstein = bind(STEIN, C)
zstein = bind(STEIN, Z)
ssyevx = bind(SYEVX, S)
dsyevx = bind(SYEVX, D)
cheevx = bind(HEEVX, C)
zheevx = bind(HEEVX, Z)
ssyevx_batched = bind(SYEVX, S, BATCHED)
dsyevx_batched = bind(SYEVX, D, BATCHED)
cheevx_batched = bind(HEEVX, C, BATCHED)
zheevx_batched = bind(HEEVX, Z, BATCHED)
ssyevx_strided_batched = bind(SYEVX, S, STRIDED)
dsyevx_strided_batched = bind(SYEVX, D, STRIDED)
cheevx_strided_batched = bind(HEEVX, C, STRIDED)
zheevx_strided_batched = bind(HEEVX, Z, STRIDED)
ssygvx = bind(SYGVX, S)
dsygvx = bind(SYGVX, D)
chegvx = bind(HEGVX, C)
zhegvx = bind(HEGVX, Z)
ssygvx_batched = bind(SYGVX, S, BATCHED)
dsygvx_batched = bind(SYGVX, D, BATCHED)
chegvx_batched = bind(HEGVX, C, BATCHED)
zhegvx_batched = bind(HEGVX, Z, BATCHED)
ssygvx_strided_batched = bind(SYGVX, S, STRIDED)
dsygvx_strided_batched = bind(SYGVX, D, STRIDED)
chegvx_strided_batched = bind(HEGVX, C, STRIDED)
zhegvx_strided_batched = bind(HEGVX, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
