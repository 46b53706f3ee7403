"""The Jacobi-based divide-and-conquer eigensolvers: syevdj/heevdj and sygvdj/hegvdj.

Each in plain, ``_batched`` and ``_strided_batched`` forms, with rocSOLVER's names, argument order
and check order (rocsolver-functions.h; library/src/lapack/roclapack_syevdj_heevdj.hpp and
roclapack_sygvdj_hegvdj.hpp).  Their outputs are syevd's and sygvd's without E: the eigenvalues
ascending in D (real, n per entry), the eigenvectors over A when ``evect`` is original
(B-orthonormal for itype ax and abx, B^-1-orthonormal for bax), and ``info``.  There is no
``abstol``, ``residual``, ``max_sweeps`` or ``n_sweeps`` parameter: the Jacobi sweeps rocSOLVER
runs inside use its fixed settings (tolerance eps, at most 20 sweeps) and report through info
alone.

Checks, in rocSOLVER's order: enums (itype; evect: original or none; uplo: invalid_value); sizes
(n, lda, ldb, batch_count: invalid_size); a size query stops there; pointers by need (A, B, D for
n > 0, info for batch_count > 0: invalid_pointer).  Quick returns: batch_count = 0 touches nothing;
otherwise info := 0, then n = 0 returns; an n = 1 syevdj is the scalar case (D gets the entry's
real part; A := 1 with vectors) and takes no workspace.

``info``: 0, or 1 when the eigensolver did not converge; for the generalized problems n + i when
the leading minor of order i of B is not positive definite.  Then, as rocSOLVER (which goes on
with the partial factor: sygv_update_info only rewrites info), the reduction, the eigensolver and
the back-transformation still run: A and D hold garbage.

How they are computed, along rocSOLVER's two paths (no new kernels, only rocmath.solver's own):

- with eigenvectors and n >= :data:`SYEVDJ_MIN_DC_SIZE` (ideal_sizes.hpp): the tridiagonal
  reduction and divide and conquer of syevd (:func:`rocmath.solver._kernels_eig.syev` with
  ``divide``: LAPACK sytrd/hetrd, stedc, ormtr/unmtr), E carved from the workspace; a nonzero
  info of it becomes 1.  rocSOLVER solves the tridiagonal subproblems of its divide and conquer
  by Jacobi (stedcj); the contract (eigenpairs, ascending) is the same;
- otherwise (no vectors, or a smaller order): syevj's Jacobi kernel
  (:func:`rocmath.solver._kernels_eig.syevj`, esort ascending, abstol 0 so eps times ||A||_F, at
  most :data:`MAX_SWEEPS` sweeps, rocSOLVER's blocked convergence test past order 58), its
  residual and sweeps carved from the workspace and dropped; info = 1 when it did not converge.
  Without vectors A is not written;
- sygvdj: B's Cholesky factor by potrf's kernels (over B), the reduction to the standard problem
  C = inv(L) A inv(L^H) (ax) or L^H A L (abx, bax) (U^H, U for uplo upper) by rocBLAS trsm/trmm on
  a copy in the workspace (as :mod:`rocmath.solver.eigx`'s sygvj), syevdj's computation on C, and
  the back-transformation x = inv(L^H) y (ax, abx) or L y (bax).  With vectors A gets them all;
  without, A's uplo triangle gets C's (what rocSOLVER's sygst leaves there).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_chol as kc
from . import _kernels_eig as ke
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._types import Eform, Evect, Fill
from ._workspace import host_carve, rounded
from .eigx import _bytes, _evect, _extent, _flops, _sizes, _uplo, back_transform, reduce_to_standard, write_back

_INT = np.dtype(np.int32)
_ITYPE = {Eform.ax: 1, Eform.abx: 2, Eform.bax: 3}
#: rocSOLVER's SYEVDJ_MIN_DC_SIZE (ideal_sizes.hpp): from this order on, eigenvectors come from the
#: tridiagonal reduction and divide and conquer; below it (and without vectors), from Jacobi.
SYEVDJ_MIN_DC_SIZE = 16
#: The sweeps rocSOLVER's syevdj allows its Jacobi path (its tolerance: abstol 0, i.e. eps).
MAX_SWEEPS = 20
#: rocSOLVER's SYEVJ_BLOCKED_SWITCH (ideal_sizes.hpp): past this order syevj's convergence test is strict.
SYEVJ_BLOCKED_SWITCH = 58


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    n: int
    batch: int
    opts: tuple[Any, ...] = ()


def _divide(n: int, vectors: bool) -> bool:
    """Whether rocSOLVER's syevdj takes its divide-and-conquer path (else Jacobi)."""
    return vectors and n >= SYEVDJ_MIN_DC_SIZE


# --- the standard problem: the computation both routines share ---------------------------------------


def _evdj_bytes(n: int, batch: int, isz: int, risz: int, vectors: bool) -> int:
    """Workspace of :func:`evdj_run` (none for n <= 1): E and syevd's, or residual, sweeps and syevj's."""
    if n <= 1 or batch == 0:
        return 0
    if _divide(n, vectors):
        return rounded(batch * n * risz) + ke.syev_workspace(n, batch, isz, risz, True, True)
    return rounded(batch * risz) + rounded(batch * _INT.itemsize) + ke.syevj_workspace(n, batch, isz, risz, vectors)


def evdj_run(A: np.ndarray, W: np.ndarray, info: np.ndarray, ws: np.ndarray, lower: bool, vectors: bool,
             serial: bool) -> None:
    """syevdj of every entry (n >= 1) of A (its lower or upper triangle): eigenvalues ascending in W,
    eigenvectors over A when ``vectors``, info 0 or 1."""
    nb, n, _ = A.shape
    if n == 1:  # rocSOLVER's scalar case
        ke.scalar_case(A, W, vectors)
        info[:] = 0
        return
    if _divide(n, vectors):
        e, off = host_carve(ws, 0, (nb, n), W.dtype)
        ke.syev(A, W, e, info, ord("L") if lower else ord("U"), True, True, serial, ws[off:])
        info[:] = info != 0  # did not converge
        return
    residual, off = host_carve(ws, 0, (nb,), W.dtype)
    sweeps, off = host_carve(ws, off, (nb,), _INT)
    ke.syevj(A, W, residual, sweeps, info, lower, vectors, True, 0.0, MAX_SWEEPS, serial, ws[off:],
             blocked=n > SYEVJ_BLOCKED_SWITCH)


# --- the generalized problem: potrf, the reduction by trsm/trmm, syevdj, the back-transformation --------


def _gvdj_bytes(n: int, batch: int, isz: int, risz: int, vectors: bool) -> int:
    """Workspace of :func:`gvdj_run`: C (a copy of A), the infos of potrf and of syevdj, then the larger
    of potrf's and syevdj's own."""
    if n == 0 or batch == 0:
        return 0
    kernels = max(kc.workspace(kc.POTRF, n, 0, batch, isz), _evdj_bytes(n, batch, isz, risz, vectors))
    return rounded(batch * n * n * isz) + 2 * rounded(_INT.itemsize * batch) + kernels


def gvdj_run(A: np.ndarray, B: np.ndarray, W: np.ndarray, info: np.ndarray, ws: np.ndarray, itype: int,
             upper: bool, vectors: bool, serial: bool) -> None:
    """sygvdj of every entry (n >= 1): B's Cholesky factor over B, eigenvalues ascending in W,
    eigenvectors over A (vectors) or C's uplo triangle there, info."""
    nb, n, _ = A.shape
    flat, off = host_carve(ws, 0, (nb, n, n), A.dtype)
    c = flat.transpose(0, 2, 1)  # column-major entries, as BLAS and LAPACK read them
    pinfo, off = host_carve(ws, off, (nb,), _INT)
    jinfo, off = host_carve(ws, off, (nb,), _INT)
    rest = ws[off:]
    kc.potrf(B, pinfo, upper, serial, rest)
    reduce_to_standard(A, B, c, itype, upper)
    evdj_run(c, W, jinfo, rest, not upper, vectors, serial)  # C is whole: either triangle will do
    if vectors:
        back_transform(B, c, itype, upper)
        keep = np.ones((n, n), bool)
    else:  # A's uplo triangle gets C's
        keep = np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool)
    write_back(A, c, keep, serial, info, np.where(pinfo > 0, n + pinfo, jinfo))


# --- syevdj/heevdj -------------------------------------------------------------------------------------


def _check_syevdj(c: SolverCall) -> _Dims:
    evect, uplo = _evect(c), _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (evect, uplo))


def _syevdj_workspace(c: SolverCall) -> int:
    n, batch, (evect, _) = c.dims
    return _evdj_bytes(n, batch, *_sizes(c), evect is Evect.original)


def _syevdj(c: SolverCall) -> None:
    n, batch, (evect, uplo) = c.dims
    c.require("A", "D", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return
    lda, vectors = c.int("lda"), evect is Evect.original
    a = c.matrix("A", n, n, lda, writable=True)
    d = c.vector("D", n, writable=True, dtype=c.precision.real.dtype)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("D", n))
    work = c.workspace_buffer()
    muladds = 4.0 * n**3 / 3 + 3.0 * n**3 if _divide(n, vectors) else 10.0 * n**3
    c.launch(evdj_run, a, d, c.info(), work, uplo is Fill.lower, vectors, serial, flops=_flops(c, muladds),
             bytes=_bytes(c, n * n))


_EVDJ_SUMMARY = ("Eigenvalues (ascending in D) and optionally eigenvectors (over A, evect original; orthonormal) of "
                 "the {kind} matrix A, by Jacobi (rocSOLVER's 20 sweeps, tolerance eps) or, for eigenvectors of "
                 "order 16 or more, tridiagonal reduction and divide and conquer; info = 1 when the algorithm did "
                 "not converge.")
_EVDJ_PARAMS = ("evect", "uplo", "n", "A", "lda", "D", "info")
SYEVDJ = SolverRoutine("syevdj", _EVDJ_PARAMS, {"A": "lda"}, _syevdj, check=_check_syevdj,
                       workspace=_syevdj_workspace, vectors={"D": "strideD"},
                       summary=_EVDJ_SUMMARY.format(kind="symmetric"))
HEEVDJ = SolverRoutine("heevdj", _EVDJ_PARAMS, {"A": "lda"}, _syevdj, check=_check_syevdj,
                       workspace=_syevdj_workspace, vectors={"D": "strideD"},
                       summary=_EVDJ_SUMMARY.format(kind="Hermitian"))


# --- sygvdj/hegvdj -------------------------------------------------------------------------------------


def _check_sygvdj(c: SolverCall) -> _Dims:
    itype = c.enum("itype", Eform)
    evect, uplo = _evect(c), _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, evect, uplo))


def _sygvdj_workspace(c: SolverCall) -> int:
    n, batch, (_, evect, _) = c.dims
    return _gvdj_bytes(n, batch, *_sizes(c), evect is Evect.original)


def _sygvdj(c: SolverCall) -> None:
    n, batch, (itype, evect, uplo) = c.dims
    c.require("A", "B", "D", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return
    lda, ldb, vectors = c.int("lda"), c.int("ldb"), evect is Evect.original
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, ldb, writable=True)
    d = c.vector("D", n, writable=True, dtype=c.precision.real.dtype)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("B", _extent(n, n, ldb)), ("D", n))
    work = c.workspace_buffer()
    muladds = 4.0 * n**3 / 3 + 3.0 * n**3 if _divide(n, vectors) else 10.0 * n**3
    c.launch(gvdj_run, a, b, d, c.info(), work, _ITYPE[itype], uplo is Fill.upper, vectors, serial,
             flops=_flops(c, muladds + 3.0 * n**3), bytes=_bytes(c, 2 * n * n))


_GVDJ_SUMMARY = ("Eigenvalues (ascending in D) and optionally eigenvectors (over A; B-orthonormal, B^-1-orthonormal "
                 "for bax) of the {kind}-definite generalized problem A x = l B x (itype ax), A B x = l x (abx) or "
                 "B A x = l x (bax): B's Cholesky factor (over B) reduces it to a standard problem, solved as "
                 "syevdj; info = n + i when B's leading minor of order i is not positive definite (A and D are then "
                 "garbage), 1 when the eigensolver did not converge.")
_GVDJ_PARAMS = ("itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "D", "info")
SYGVDJ = SolverRoutine("sygvdj", _GVDJ_PARAMS, {"A": "lda", "B": "ldb"}, _sygvdj, check=_check_sygvdj,
                       workspace=_sygvdj_workspace, vectors={"D": "strideD"},
                       summary=_GVDJ_SUMMARY.format(kind="symmetric"))
HEGVDJ = SolverRoutine("hegvdj", _GVDJ_PARAMS, {"A": "lda", "B": "ldb"}, _sygvdj, check=_check_sygvdj,
                       workspace=_sygvdj_workspace, vectors={"D": "strideD"},
                       summary=_GVDJ_SUMMARY.format(kind="Hermitian"))


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
ssyevdj = bind(SYEVDJ, S)
dsyevdj = bind(SYEVDJ, D)
cheevdj = bind(HEEVDJ, C)
zheevdj = bind(HEEVDJ, Z)
ssyevdj_batched = bind(SYEVDJ, S, BATCHED)
dsyevdj_batched = bind(SYEVDJ, D, BATCHED)
cheevdj_batched = bind(HEEVDJ, C, BATCHED)
zheevdj_batched = bind(HEEVDJ, Z, BATCHED)
ssyevdj_strided_batched = bind(SYEVDJ, S, STRIDED)
dsyevdj_strided_batched = bind(SYEVDJ, D, STRIDED)
cheevdj_strided_batched = bind(HEEVDJ, C, STRIDED)
zheevdj_strided_batched = bind(HEEVDJ, Z, STRIDED)
ssygvdj = bind(SYGVDJ, S)
dsygvdj = bind(SYGVDJ, D)
chegvdj = bind(HEGVDJ, C)
zhegvdj = bind(HEGVDJ, Z)
ssygvdj_batched = bind(SYGVDJ, S, BATCHED)
dsygvdj_batched = bind(SYGVDJ, D, BATCHED)
chegvdj_batched = bind(HEGVDJ, C, BATCHED)
zhegvdj_batched = bind(HEGVDJ, Z, BATCHED)
ssygvdj_strided_batched = bind(SYGVDJ, S, STRIDED)
dsygvdj_strided_batched = bind(SYGVDJ, D, STRIDED)
chegvdj_strided_batched = bind(HEGVDJ, C, STRIDED)
zhegvdj_strided_batched = bind(HEGVDJ, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
