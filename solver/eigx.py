"""Symmetric eigensolvers for a subset of the spectrum, and the generalized Jacobi solver.

syevdx/heevdx (eigenvalues by range: all, those in the half-open interval (vl, vu], or the
il-th through iu-th, 1-based, ascending), sygvdx/hegvdx (the same for the generalized
problem A x = l B x, A B x = l x or B A x = l x) and sygvj/hegvj (the generalized problem by
the Jacobi method), each in plain, ``_batched`` and ``_strided_batched`` forms, with
rocSOLVER's names, argument order and check order (rocsolver-functions.h;
library/src/lapack/roclapack_syevdx_heevdx.hpp, roclapack_sygvdx_hegvdx.hpp,
roclapack_sygvj_hegvj.hpp).

Checks, in rocSOLVER's order: enums (itype, evect: original or none, erange, uplo:
invalid_value); sizes (n, lda, ldb, ldz when vectors are asked for, max_sweeps > 0, batch_count;
then, for erange value, vl < vu; for erange index, il >= 1 and iu >= 0, then iu <= n and, for
n > 0, il <= iu: invalid_size); a size query stops there; pointers by need (A, B, W for n > 0,
then residual, n_sweeps, nev and info for batch_count > 0, then Z for vectors and n > 0:
invalid_pointer).  Quick returns: batch_count = 0 touches nothing; n = 0 sets info and nev
(sygvj: info, residual and n_sweeps) to 0.

Results: the first nev entries of W get the selected eigenvalues ascending, the first nev
columns of Z their eigenvectors (B-orthonormal, resp. B^-1-orthonormal for itype bax); W and Z
past nev are not written (rocSOLVER may use them as workspace: their contents are unspecified
there).  A is destroyed (it ends up holding all n eigenvectors); B gets its Cholesky factor.
``info`` as rocSOLVER's: 0, or i <= n when the eigensolver did not converge, or, for the
generalized problems, n + i when B's leading minor of order i is not positive definite; then, as
rocSOLVER (sygvx_update_info), sygvdx sets nev = 0 (W and Z are left as they were here, garbage
in rocSOLVER) and sygvj still solves with the partial factor (A, W: garbage).

How they are computed (no new kernels, only :mod:`rocmath.solver`'s own):

- syevdx: syevd's kernel (:func:`rocmath.solver._kernels_eig.syev` with divide and conquer:
  LAPACK sytrd/hetrd, stedc, ormtr/unmtr) on A in place, into D and E carved from the workspace;
  the subset (by value: ``vl < w <= vu``; by index) is then copied into W and Z;
- sygvdx: sygv's kernel (:func:`rocmath.solver._kernels_eig.sygv`: LAPACK potrf, sygst/hegst,
  syev/heev, and the back-transformation by trsm/trmm) on A and B in place, then the same
  selection;
- sygvj: B's Cholesky factor by potrf's kernels (:mod:`rocmath.solver._kernels_chol`), the
  reduction to the standard problem C = inv(L) A inv(L^H) (ax) or L^H A L (abx, bax) (U^H, U for
  uplo upper) by rocBLAS trsm/trmm's kernels (:mod:`rocmath.blas._kernels_l3`) on a copy of A in
  the workspace, syevj's Jacobi kernel (:func:`rocmath.solver._kernels_eig.syevj`, esort
  ascending, rocSOLVER's tolerance ``abstol`` (eps if <= 0) times ||C||_F, residual and n_sweeps
  of C; n = 1 is syevj's scalar case), and the back-transformation x = inv(L^H) y (ax, abx) or
  L y (bax) by trsm/trmm.  With vectors A gets them all; without, A's uplo triangle gets C's.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np

from rocmath.blas import _kernels_l3 as k3
from rocmath.precision import C, D, S, Z

from . import _kernels_chol as kc
from . import _kernels_eig as ke
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._types import Eform, Erange, Evect, Fill
from ._workspace import host_carve, rounded
from .eig import _reset, range_args, real_arg

_INT = np.dtype(np.int32)
_FILLS = (Fill.upper, Fill.lower)
_ITYPE = {Eform.ax: 1, Eform.abx: 2, Eform.bax: 3}
#: rocSOLVER's SYEVJ_BLOCKED_SWITCH (ideal_sizes.hpp): past this order syevj's convergence test is strict.
SYEVJ_BLOCKED_SWITCH = 58


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    n: int
    batch: int
    opts: tuple[Any, ...] = ()


class _Range(NamedTuple):
    """Which eigenvalues: all, those in (vl, vu], or the il-th through iu-th (1-based)."""

    erange: Erange
    vl: float = 0.0
    vu: float = 0.0
    il: int = 1
    iu: int = 0


def _extent(rows: int, cols: int, ld: int) -> int:
    """Elements one column-major entry spans."""
    return 0 if rows == 0 or cols == 0 else ld * (cols - 1) + rows


def _sizes(c: SolverCall) -> tuple[int, int]:
    """(element, real) itemsizes of the call's precision."""
    return c.precision.itemsize, c.precision.real.itemsize


def _flops(c: SolverCall, muladds: float) -> float:
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, *elements: float) -> float:
    return 2.0 * c.dims.batch * c.precision.itemsize * sum(elements)


def _evect(c: SolverCall) -> Evect:
    return c.enum("evect", Evect, (Evect.original, Evect.none))


def _uplo(c: SolverCall) -> Fill:
    return c.enum("uplo", Fill, _FILLS)


def _letter(uplo: Fill) -> int:
    """LAPACK's uplo letter."""
    return ord("U") if uplo is Fill.upper else ord("L")


def _check_range(c: SolverCall, erange: Erange, n: int) -> _Range:
    """rocSOLVER's range checks, after the other sizes (:func:`.eig.range_args`, the signs first)."""
    return _Range(erange, *range_args(c, erange is Erange.value, erange is Erange.index, n))


def _z_columns(n: int, sel: _Range) -> int:
    """The columns of Z the call may write: iu - il + 1 for an index range, else n (rocSOLVER's
    documented requirement: Z holds n columns when nev is not known in advance)."""
    return sel.iu - sel.il + 1 if sel.erange is Erange.index else n


# --- the selection, after all eigenpairs are known ----------------------------------------------------


def _select(d: np.ndarray, vecs: np.ndarray, W: np.ndarray, Z: np.ndarray, nev: np.ndarray, sel: _Range,
            vectors: bool, serial: bool, failed: np.ndarray | None) -> None:
    """nev, W[:nev] and Z[:, :nev] from the ascending eigenvalues d (batch, n) and the eigenvectors
    (columns of vecs); entries marked ``failed`` get nev = 0 and nothing else.  Overlapping output
    entries (``serial``) are written in entry order, so the last one wins."""
    nb, n = d.shape
    if sel.erange is Erange.value:  # the half-open interval (vl, vu]
        lo, hi = (d <= sel.vl).sum(axis=1), (d <= sel.vu).sum(axis=1)
    elif sel.erange is Erange.index:
        lo, hi = np.full(nb, sel.il - 1), np.full(nb, sel.iu)
    else:
        lo, hi = np.zeros(nb, np.intp), np.full(nb, n)
    if failed is not None:
        hi = np.where(failed, lo, hi)
    count = hi - lo
    if serial:
        for b in range(nb):
            nev[b] = count[b]
    else:
        nev[:] = count
    if not serial and (lo == lo[0]).all() and (hi == hi[0]).all():
        first, last = int(lo[0]), int(hi[0])
        W[:, : last - first] = d[:, first:last]
        if vectors:
            Z[:, :, : last - first] = vecs[:, :, first:last]
        return
    for b in range(nb):
        first, last = int(lo[b]), int(hi[b])
        W[b, : last - first] = d[b, first:last]
        if vectors:
            Z[b, :, : last - first] = vecs[b, :, first:last]


def _tridiagonal_scratch(ws: np.ndarray, nb: int, n: int, real: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray,
                                                                                         np.ndarray]:
    """D and E (batch, n) carved from the workspace, and the rest of it."""
    d, off = host_carve(ws, 0, (nb, n), real)
    e, off = host_carve(ws, off, (nb, n), real)
    return d, e, ws[off:]


def _tridiagonal_bytes(n: int, batch: int, risz: int) -> int:
    return 2 * rounded(batch * n * risz)


def syevdx_run(A: np.ndarray, W: np.ndarray, Z: np.ndarray, nev: np.ndarray, info: np.ndarray, ws: np.ndarray,
               uplo: int, vectors: bool, sel: _Range, serial: bool) -> None:
    """Launch body of syevdx (n >= 1): syevd's kernel on A in place, then the selection."""
    nb, n, _ = A.shape
    d, e, rest = _tridiagonal_scratch(ws, nb, n, W.dtype)
    ke.syev(A, d, e, info, uplo, vectors, True, serial, rest)
    _select(d, A, W, Z, nev, sel, vectors, serial, None)


def sygvdx_run(A: np.ndarray, B: np.ndarray, W: np.ndarray, Z: np.ndarray, nev: np.ndarray, info: np.ndarray,
               ws: np.ndarray, itype: int, uplo: int, vectors: bool, sel: _Range, serial: bool) -> None:
    """Launch body of sygvdx (n >= 1): sygv's kernel on A and B in place, then the selection (nev = 0
    where B is not positive definite, as rocSOLVER's sygvx_update_info)."""
    nb, n, _ = A.shape
    d, e, rest = _tridiagonal_scratch(ws, nb, n, W.dtype)
    ke.sygv(A, B, d, e, info, itype, uplo, vectors, serial, rest)
    _select(d, A, W, Z, nev, sel, vectors, serial, np.asarray(info) > n)


# --- sygvj: potrf, the reduction by trsm/trmm, syevj, the back-transformation ---------------------------

_NONUNIT = ord("N")


def _tr(solve: bool, side: int, upper: bool, trans: int, factor: np.ndarray, x: np.ndarray) -> None:
    """x := op(F)^-1 x / x op(F)^-1 (solve) or op(F) x / x op(F), F the uplo triangle of ``factor``."""
    one = np.ones(1, x.dtype)
    uplo = k3.UPPER if upper else k3.LOWER
    if solve:
        k3.trsm(side, uplo, trans, _NONUNIT, one, factor, x)
    else:
        k3.gemm(k3.TRMM, side, uplo, trans, _NONUNIT, one, factor, x, one, x)


def _hermitian_from(A: np.ndarray, upper: bool, out: np.ndarray) -> None:
    """out := the Hermitian matrix whose uplo triangle A holds (real diagonal)."""
    n = A.shape[1]
    t = np.triu(A, 1) if upper else np.tril(A, -1)
    out[...] = t + np.swapaxes(t, 1, 2).conj()
    i = np.arange(n)
    out[:, i, i] = A[:, i, i].real


def _sygvj_bytes(n: int, batch: int, isz: int, risz: int, vectors: bool) -> int:
    """Workspace of sygvj_run: C (a copy of A), the infos of potrf and syevj, then the larger of potrf's
    and syevj's own workspace."""
    if n == 0 or batch == 0:
        return 0
    kernels = max(kc.workspace(kc.POTRF, n, 0, batch, isz), ke.syevj_workspace(n, batch, isz, risz, vectors))
    return rounded(batch * n * n * isz) + 2 * rounded(4 * batch) + kernels


def reduce_to_standard(A: np.ndarray, B: np.ndarray, c: np.ndarray, itype: int, upper: bool) -> None:
    """c := the standard form of each entry's pencil (A's uplo triangle, B's Cholesky factor over B): inv(L) A
    inv(L^H) / inv(U^H) A inv(U) for itype 1, L^H A L / U A U^H for 2 and 3 (the two-sided trsm / trmm of
    sygst); ``c`` column-major (entries, rows, columns) scratch."""
    _hermitian_from(A, upper, c)
    conj, plain = k3.OP_C, k3.OP_N
    if itype == 1:
        _tr(True, k3.LEFT, upper, conj if upper else plain, B, c)
        _tr(True, k3.RIGHT, upper, plain if upper else conj, B, c)
    else:
        _tr(False, k3.LEFT, upper, plain if upper else conj, B, c)
        _tr(False, k3.RIGHT, upper, conj if upper else plain, B, c)


def back_transform(B: np.ndarray, c: np.ndarray, itype: int, upper: bool) -> None:
    """The generalized problem's eigenvectors from the standard one's in ``c``: x = inv(L^H) y / inv(U) y
    (itype 1, 2), x = L y / U^H y (itype 3)."""
    conj, plain = k3.OP_C, k3.OP_N
    if itype == 3:
        _tr(False, k3.LEFT, upper, conj if upper else plain, B, c)
    else:
        _tr(True, k3.LEFT, upper, plain if upper else conj, B, c)


def write_back(A: np.ndarray, c: np.ndarray, keep: np.ndarray, serial: bool, info: np.ndarray | None = None,
               fail: np.ndarray | None = None) -> None:
    """A[keep] := c[keep] (and info := fail) for every entry; overlapping entries (``serial``) in entry order,
    the last one winning."""
    if serial:
        for b in range(A.shape[0]):
            A[b][keep] = c[b][keep]
            if info is not None:
                info[b] = fail[b]  # type: ignore[index]
    else:
        A[:, keep] = c[:, keep]
        if info is not None:
            info[:] = fail


def sygvj_run(A: np.ndarray, B: np.ndarray, W: np.ndarray, residual: np.ndarray, n_sweeps: np.ndarray,
              info: np.ndarray, ws: np.ndarray, itype: int, upper: bool, vectors: bool, abstol: float,
              max_sweeps: int, serial: bool) -> None:
    """Launch body of sygvj (n >= 1)."""
    nb, n, _ = A.shape
    flat, off = host_carve(ws, 0, (nb, n, n), A.dtype)
    c = flat.transpose(0, 2, 1)  # column-major entries, as BLAS reads them
    pinfo, off = host_carve(ws, off, (nb,), _INT)
    jinfo, off = host_carve(ws, off, (nb,), _INT)
    rest = ws[off:]
    kc.potrf(B, pinfo, upper, serial, rest)
    reduce_to_standard(A, B, c, itype, upper)
    if n == 1:  # syevj's scalar case
        W[:, 0] = c[:, 0, 0].real
        residual[:] = 0
        n_sweeps[:] = 0
        jinfo[:] = 0
        if vectors:
            c[:, 0, 0] = 1
    else:
        ke.syevj(c, W, residual, n_sweeps, jinfo, not upper, vectors, True, abstol, max_sweeps, serial, rest,
                 blocked=n > SYEVJ_BLOCKED_SWITCH)
    if vectors:
        back_transform(B, c, itype, upper)
        keep = np.ones((n, n), bool)
    else:  # A's uplo triangle is destroyed (it gets C's)
        keep = np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool)
    write_back(A, c, keep, serial, info, np.where(pinfo > 0, n + pinfo, jinfo))


# --- syevdx/heevdx -------------------------------------------------------------------------------------


def _check_syevdx(c: SolverCall) -> _Dims:
    evect = _evect(c)
    erange = c.enum("erange", Erange)
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    if evect is not Evect.none:
        c.lds(("ldz", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (evect, uplo, _check_range(c, erange, n)))


def _syevdx_workspace(c: SolverCall) -> int:
    n, batch, (evect, _, _) = c.dims
    if n == 0 or batch == 0:
        return 0
    isz, risz = _sizes(c)
    return _tridiagonal_bytes(n, batch, risz) + ke.syev_workspace(n, batch, isz, risz, evect is Evect.original, True)


def _outputs(c: SolverCall, n: int, sel: _Range, vectors: bool) -> tuple[Any, Any, int]:
    """(W, Z or an empty stand-in, columns of Z)."""
    w = c.vector("W", n, writable=True, dtype=c.precision.real.dtype)
    zcols = _z_columns(n, sel) if vectors else 0
    z = c.matrix("Z", n, zcols, c.int("ldz"), writable=True) if vectors else np.zeros((c.batch_count, 0, 0),
                                                                                       c.dtype)
    return w, z, zcols


def _syevdx(c: SolverCall) -> None:
    n, batch, (evect, uplo, sel) = c.dims
    vectors = evect is Evect.original
    c.require("A", "W", when=n > 0)
    c.require("nev", "info", when=batch > 0)
    c.require("Z", when=vectors and n > 0)
    if batch == 0:
        return
    if n == 0:
        _reset(c, "info", "nev")
        return
    lda = c.int("lda")
    a = c.matrix("A", n, n, lda, writable=True)
    w, z, zcols = _outputs(c, n, sel, vectors)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("W", n),
                           ("Z", _extent(n, zcols, c.int("ldz")) if vectors else 0))
    work = c.workspace_buffer()
    c.launch(partial(syevdx_run, uplo=_letter(uplo), vectors=vectors, sel=sel, serial=serial), a, w,
             z, c.array("nev", batch, _INT), c.info(), work,
             flops=_flops(c, (4.0 * n**3 / 3) + (3.0 * n**3 if vectors else 0.0)), bytes=_bytes(c, n * n))


_EVDX_SUMMARY = ("Selected eigenvalues (all, those in (vl, vu], or the il-th through iu-th) of the {kind} matrix A, "
                 "ascending in the first nev entries of W, and optionally (evect original) their eigenvectors in the "
                 "first nev columns of Z, by tridiagonal reduction and divide and conquer; A is destroyed; nev gets "
                 "their number; info = i > 0 when the eigensolver did not converge.")
_EVDX_PARAMS = ("evect", "erange", "uplo", "n", "A", "lda", "vl", "vu", "il", "iu", "nev", "W", "Z", "ldz", "info")
SYEVDX = SolverRoutine("syevdx", _EVDX_PARAMS, {"A": "lda", "Z": "ldz"}, _syevdx, check=_check_syevdx,
                       workspace=_syevdx_workspace, vectors={"W": "strideW"}, pointers=("info", "nev"),
                       summary=_EVDX_SUMMARY.format(kind="symmetric"))
HEEVDX = SolverRoutine("heevdx", _EVDX_PARAMS, {"A": "lda", "Z": "ldz"}, _syevdx, check=_check_syevdx,
                       workspace=_syevdx_workspace, vectors={"W": "strideW"}, pointers=("info", "nev"),
                       summary=_EVDX_SUMMARY.format(kind="Hermitian"))


# --- sygvdx/hegvdx -------------------------------------------------------------------------------------


def _check_sygvdx(c: SolverCall) -> _Dims:
    itype = c.enum("itype", Eform)
    evect = _evect(c)
    erange = c.enum("erange", Erange)
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    if evect is not Evect.none:
        c.lds(("ldz", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, evect, uplo, _check_range(c, erange, n)))


def _sygvdx_workspace(c: SolverCall) -> int:
    n, batch = c.dims[:2]
    if n == 0 or batch == 0:
        return 0
    isz, risz = _sizes(c)
    return _tridiagonal_bytes(n, batch, risz) + ke.sygv_workspace(n, batch, isz, risz)


def _sygvdx(c: SolverCall) -> None:
    n, batch, (itype, evect, uplo, sel) = c.dims
    vectors = evect is Evect.original
    c.require("A", "B", "W", when=n > 0)
    c.require("nev", "info", when=batch > 0)
    c.require("Z", when=vectors and n > 0)
    if batch == 0:
        return
    if n == 0:
        _reset(c, "info", "nev")
        return
    lda, ldb = c.int("lda"), c.int("ldb")
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, ldb, writable=True)
    w, z, zcols = _outputs(c, n, sel, vectors)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("B", _extent(n, n, ldb)), ("W", n),
                           ("Z", _extent(n, zcols, c.int("ldz")) if vectors else 0))
    work = c.workspace_buffer()
    c.launch(partial(sygvdx_run, itype=_ITYPE[itype], uplo=_letter(uplo), vectors=vectors, sel=sel,
                     serial=serial), a, b, w, z, c.array("nev", batch, _INT), c.info(), work,
             flops=_flops(c, 3.0 * n**3), bytes=_bytes(c, 2 * n * n))


_GVDX_SUMMARY = ("Selected eigenvalues (all, those in (vl, vu], or the il-th through iu-th) of the {kind}-definite "
                 "generalized problem A x = l B x (itype ax), A B x = l x (abx) or B A x = l x (bax), ascending in the "
                 "first nev entries of W, and optionally their eigenvectors (B-orthonormal; B^-1-orthonormal for bax) "
                 "in the first nev columns of Z; A is destroyed, B gets its Cholesky factor; info = n + i (and nev = "
                 "0) when B's leading minor of order i is not positive definite, else i > 0 when the eigensolver did "
                 "not converge.")
_GVDX_PARAMS = ("itype", "evect", "erange", "uplo", "n", "A", "lda", "B", "ldb", "vl", "vu", "il", "iu", "nev", "W",
                "Z", "ldz", "info")
SYGVDX = SolverRoutine("sygvdx", _GVDX_PARAMS, {"A": "lda", "B": "ldb", "Z": "ldz"}, _sygvdx, check=_check_sygvdx,
                       workspace=_sygvdx_workspace, vectors={"W": "strideW"}, pointers=("info", "nev"),
                       summary=_GVDX_SUMMARY.format(kind="symmetric"))
HEGVDX = SolverRoutine("hegvdx", _GVDX_PARAMS, {"A": "lda", "B": "ldb", "Z": "ldz"}, _sygvdx, check=_check_sygvdx,
                       workspace=_sygvdx_workspace, vectors={"W": "strideW"}, pointers=("info", "nev"),
                       summary=_GVDX_SUMMARY.format(kind="Hermitian"))


# --- sygvj/hegvj ---------------------------------------------------------------------------------------


def _check_sygvj(c: SolverCall) -> _Dims:
    itype = c.enum("itype", Eform)
    evect = _evect(c)
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    sweeps = c.int("max_sweeps")
    if sweeps <= 0:
        raise c.invalid_size("max_sweeps", f"must be positive, got {sweeps}")
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, evect, uplo, sweeps))


def _sygvj_workspace(c: SolverCall) -> int:
    n, batch, (_, evect, _, _) = c.dims
    return _sygvj_bytes(n, batch, *_sizes(c), evect is Evect.original)


def _sygvj(c: SolverCall) -> None:
    n, batch, (itype, evect, uplo, sweeps) = c.dims
    c.require("A", "B", "W", when=n > 0)
    c.require("residual", "n_sweeps", "info", when=batch > 0)
    if batch == 0:
        return
    abstol = real_arg(c, "abstol")
    if n == 0:
        _reset(c, "residual", "n_sweeps", "info")
        return
    lda, ldb, real = c.int("lda"), c.int("ldb"), c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, ldb, writable=True)
    w = c.vector("W", n, writable=True, dtype=real)
    res, nsw = c.array("residual", batch, real), c.array("n_sweeps", batch, _INT)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("B", _extent(n, n, ldb)), ("W", n))
    work = c.workspace_buffer()
    c.launch(partial(sygvj_run, itype=_ITYPE[itype], upper=uplo is Fill.upper, vectors=evect is Evect.original,
                     abstol=abstol, max_sweeps=sweeps, serial=serial), a, b, w, res, nsw, c.info(), work,
             flops=_flops(c, 10.0 * n**3 + 3.0 * n**3), bytes=_bytes(c, 2 * n * n))


_GVJ_SUMMARY = ("Eigenvalues (ascending in W) and optionally eigenvectors (over A; B-orthonormal, B^-1-orthonormal "
                "for bax) of the {kind}-definite generalized problem A x = l B x (itype ax), A B x = l x (abx) or "
                "B A x = l x (bax): B's Cholesky factor (over B) reduces it to a standard problem, solved by the "
                "cyclic Jacobi method as syevj (abstol, eps if <= 0, times its Frobenius norm; at most max_sweeps; "
                "residual and n_sweeps of it); info = n + i when B's leading minor of order i is not positive "
                "definite, 1 when the Jacobi method did not converge.")
_GVJ_PARAMS = ("itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "abstol", "residual", "max_sweeps", "n_sweeps",
               "W", "info")
_GVJ_POINTERS = ("info", "residual", "n_sweeps")
SYGVJ = SolverRoutine("sygvj", _GVJ_PARAMS, {"A": "lda", "B": "ldb"}, _sygvj, check=_check_sygvj,
                      workspace=_sygvj_workspace, vectors={"W": "strideW"}, pointers=_GVJ_POINTERS,
                      summary=_GVJ_SUMMARY.format(kind="symmetric"))
HEGVJ = SolverRoutine("hegvj", _GVJ_PARAMS, {"A": "lda", "B": "ldb"}, _sygvj, check=_check_sygvj,
                      workspace=_sygvj_workspace, vectors={"W": "strideW"}, pointers=_GVJ_POINTERS,
                      summary=_GVJ_SUMMARY.format(kind="Hermitian"))


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
ssyevdx = bind(SYEVDX, S)
dsyevdx = bind(SYEVDX, D)
cheevdx = bind(HEEVDX, C)
zheevdx = bind(HEEVDX, Z)
ssyevdx_batched = bind(SYEVDX, S, BATCHED)
dsyevdx_batched = bind(SYEVDX, D, BATCHED)
cheevdx_batched = bind(HEEVDX, C, BATCHED)
zheevdx_batched = bind(HEEVDX, Z, BATCHED)
ssyevdx_strided_batched = bind(SYEVDX, S, STRIDED)
dsyevdx_strided_batched = bind(SYEVDX, D, STRIDED)
cheevdx_strided_batched = bind(HEEVDX, C, STRIDED)
zheevdx_strided_batched = bind(HEEVDX, Z, STRIDED)
ssygvdx = bind(SYGVDX, S)
dsygvdx = bind(SYGVDX, D)
chegvdx = bind(HEGVDX, C)
zhegvdx = bind(HEGVDX, Z)
ssygvdx_batched = bind(SYGVDX, S, BATCHED)
dsygvdx_batched = bind(SYGVDX, D, BATCHED)
chegvdx_batched = bind(HEGVDX, C, BATCHED)
zhegvdx_batched = bind(HEGVDX, Z, BATCHED)
ssygvdx_strided_batched = bind(SYGVDX, S, STRIDED)
dsygvdx_strided_batched = bind(SYGVDX, D, STRIDED)
chegvdx_strided_batched = bind(HEGVDX, C, STRIDED)
zhegvdx_strided_batched = bind(HEGVDX, Z, STRIDED)
ssygvj = bind(SYGVJ, S)
dsygvj = bind(SYGVJ, D)
chegvj = bind(HEGVJ, C)
zhegvj = bind(HEGVJ, Z)
ssygvj_batched = bind(SYGVJ, S, BATCHED)
dsygvj_batched = bind(SYGVJ, D, BATCHED)
chegvj_batched = bind(HEGVJ, C, BATCHED)
zhegvj_batched = bind(HEGVJ, Z, BATCHED)
ssygvj_strided_batched = bind(SYGVJ, S, STRIDED)
dsygvj_strided_batched = bind(SYGVJ, D, STRIDED)
chegvj_strided_batched = bind(HEGVJ, C, STRIDED)
zhegvj_strided_batched = bind(HEGVJ, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
