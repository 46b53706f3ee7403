"""The generalized symmetric-definite eigenproblem's pieces, and the bidiagonal reduction's Q and P applied.

- sygs2/hegs2 (unblocked) and sygst/hegst (blocked): the reduction of A x = l B x (itype ax), A B x = l x
  (abx) or B A x = l x (bax) to a standard problem, given B's Cholesky factor (over B, uplo upper: B = U^H U,
  lower: B = L L^H): A's uplo triangle becomes that of inv(U^H) A inv(U) / inv(L) A inv(L^H) (ax) or
  U A U^H / L^H A L (abx, bax); A's other triangle and B are not changed.  Every precision and flavour.
- sygvd/hegvd: the generalized problem solved with divide and conquer: eigenvalues ascending in D,
  optionally eigenvectors over A (B-orthonormal for ax and abx, B^-1-orthonormal for bax), B's Cholesky
  factor over B.  Every precision and flavour.
- ormbr/unmbr: C := op(Q) C, C op(Q), op(P) C or C op(P) for the Q (storev column_wise) or P (row_wise) of
  gebrd, its Householder vectors in A and their scalars in ``ipiv``.  Plain only (s, d: ormbr; c, z: unmbr).

Names, parameters and flavours are rocsolver-functions.h's; semantics, check order and quick returns those
of library/src/lapack/roclapack_sygs2_hegs2.hpp, roclapack_sygst_hegst.hpp, roclapack_sygvd_hegvd.hpp (and
roclapack_sygv_hegv.hpp, whose argument check and info update sygvd shares) and
library/src/auxiliary/rocauxiliary_ormbr_unmbr.hpp:

- sygs2/sygst: itype, uplo (invalid_value); n, lda, ldb, batch_count (invalid_size); a size query stops
  there; A, B for n > 0 (invalid_pointer).  n = 0 or batch_count = 0 touch nothing.
- sygvd: itype, evect (original or none), uplo; n, lda, ldb, batch_count; A, B, D, E for n > 0, info for
  batch_count > 0.  batch_count = 0 touches nothing; n = 0 sets info to 0.  info is 0, i <= n when the
  divide and conquer did not converge, or n + i when B's leading minor of order i is not positive
  definite; then, as rocSOLVER (which only notes this in a comment), the reduction and the eigensolver
  still run on the partial factor: A, D and E are garbage.
- ormbr: side, trans (N, T, C; then T is refused for complex, C for real), storev; m, n, k, ldc < m; lda
  < nq (column_wise) or lda < min(nq, k) (row_wise), nq = m from the left, n from the right; A and ipiv
  for min(nq, k) > 0, C for m, n > 0.  m, n or k = 0 touch nothing.  Q: ormqr(m, n, k) when nq >= k, else
  ormqr with the nq - 1 vectors below the first subdiagonal on C without its first row (left) or column
  (right); P: ormlq with the other op (P = Q_lq^H) when nq > k, else with the nq - 1 vectors right of the
  first superdiagonal on that part of C (LAPACK's xORMBR).

How they are computed (no new kernels, only rocmath's own):

- the reduction: A's uplo triangle made Hermitian (real diagonal) in a workspace copy, multiplied by
  rocBLAS trsm/trmm's kernels (:mod:`rocmath.blas._kernels_l3`) with B's triangle from both sides, its uplo
  triangle written back (the same two-sided products as :func:`rocmath.solver.eigx.sygvj_run`).  sygs2 and
  sygst differ in rocSOLVER only in blocking, and agree here.
- sygvd: B's Cholesky factor by potrf's kernels (:mod:`rocmath.solver._kernels_chol`), the reduction above
  on A in place, syevd's kernel (:func:`rocmath.solver._kernels_eig.syev` with divide and conquer: LAPACK
  sytrd/hetrd, stedc, ormtr/unmtr; n = 1 is its scalar case) on A, then x = inv(U) y / inv(L^H) y (ax,
  abx) or U^H y / L y (bax) by trsm/trmm, as rocSOLVER composes it.
- ormbr: the QR/LQ application kernels of ormqr/ormlq (:func:`rocmath.solver._kernels_qr.apply`) on
  views of A and C.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_chol as kc
from . import _kernels_eig as ke
from . import _kernels_qr as kq
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._types import Eform, Evect, Fill, Operation, Side, Storev
from ._workspace import host_carve, rounded
from .eig import GV_PARAMS, gv_operands
from .eigdj import _Dims
from .eigx import _extent, _sizes, _uplo, back_transform, reduce_to_standard, write_back
from .qr import _operation

_INT = np.dtype(np.int32)
_ITYPE = {Eform.ax: 1, Eform.abx: 2, Eform.bax: 3}


def _flops(c: SolverCall, muladds: float, batch: int) -> float:
    return muladds * batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, elements: float, batch: int) -> float:
    return 2.0 * batch * c.precision.itemsize * elements


def _reduce_bytes(n: int, batch: int, isz: int) -> int:
    """Workspace of :func:`reduce_run`: the Hermitian copy of A."""
    return 0 if n == 0 or batch == 0 else rounded(batch * n * n * isz)


def reduce_run(A: np.ndarray, B: np.ndarray, ws: np.ndarray, itype: int, upper: bool, serial: bool) -> None:
    """sygst of every entry (n >= 1): A's uplo triangle := that of the reduced matrix, from B's factor."""
    nb, n, _ = A.shape
    flat, _ = host_carve(ws, 0, (nb, n, n), A.dtype)
    c = flat.transpose(0, 2, 1)  # column-major entries, as BLAS reads them
    reduce_to_standard(A, B, c, itype, upper)
    i = np.arange(n)
    c[:, i, i] = c[:, i, i].real  # the reduced matrix is Hermitian: its diagonal is real, as LAPACK writes it
    write_back(A, c, np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool), serial)


def _sygvd_bytes(n: int, batch: int, isz: int, risz: int, vectors: bool) -> int:
    """Workspace of :func:`sygvd_run`: the infos of potrf and syevd, then the largest of potrf's, the
    reduction's and syevd's own workspace."""
    if n == 0 or batch == 0:
        return 0
    kernels = max(kc.workspace(kc.POTRF, n, 0, batch, isz), _reduce_bytes(n, batch, isz),
                  ke.syev_workspace(n, batch, isz, risz, vectors, True))
    return 2 * rounded(4 * batch) + kernels


def sygvd_run(A: np.ndarray, B: np.ndarray, D: np.ndarray, E: np.ndarray, info: np.ndarray, ws: np.ndarray,
              itype: int, upper: bool, vectors: bool, serial: bool) -> None:
    """Launch body of sygvd (n >= 1): potrf(B), the reduction, syevd, the back-transformation."""
    nb, n, _ = A.shape
    pinfo, off = host_carve(ws, 0, (nb,), _INT)
    jinfo, off = host_carve(ws, off, (nb,), _INT)
    rest = ws[off:]
    kc.potrf(B, pinfo, upper, serial, rest)
    reduce_run(A, B, rest, itype, upper, serial)
    ke.syev(A, D, E, jinfo, ord("U" if upper else "L"), vectors, True, serial, rest)
    if vectors:
        back_transform(B, A, itype, upper)
    fail = np.where(pinfo > 0, n + pinfo, jinfo)  # rocSOLVER's sygv_update_info
    if serial:
        for b in range(nb):
            info[b] = fail[b]
    else:
        info[:] = fail


def ormbr_run(kind: str, left: bool, trans: bool, V: np.ndarray, tau: np.ndarray, Cm: np.ndarray,
              shifted: bool, ws: np.ndarray) -> None:
    """ormbr: the QR (kind qr) or LQ (lq) application of the vectors V to C, or (``shifted``) of the nq - 1
    vectors past the first sub/superdiagonal to C without its first row (left) or column (right)."""
    if shifted:
        V = V[:, 1:, :] if kind == "qr" else V[:, :, 1:]
        Cm = Cm[:, 1:, :] if left else Cm[:, :, 1:]
    kq.apply(kind, left, trans, V, tau, Cm, ws)


# --- sygs2/hegs2, sygst/hegst ------------------------------------------------------------------------


def _check_sygst(c: SolverCall) -> _Dims:
    itype = c.enum("itype", Eform)
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, uplo))


def _sygst_workspace(c: SolverCall) -> int:
    return _reduce_bytes(c.dims.n, c.dims.batch, c.precision.itemsize)


def _sygst(c: SolverCall) -> None:
    n, batch, (itype, uplo) = c.dims
    c.require("A", "B", when=n > 0)
    if n == 0 or batch == 0:
        return
    lda, ldb = c.int("lda"), c.int("ldb")
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, ldb)
    serial = c.overlapping(("A", _extent(n, n, lda)))
    work = c.workspace_buffer()
    c.launch(partial(reduce_run, itype=_ITYPE[itype], upper=uplo is Fill.upper, serial=serial), a, b, work,
             flops=_flops(c, 1.0 * n**3, batch), bytes=_bytes(c, 1.5 * n * n, batch))


_GST_PARAMS = ("itype", "uplo", "n", "A", "lda", "B", "ldb")
_GST_SUMMARY = ("Reduction of the {kind}-definite generalized problem A x = l B x (itype ax), A B x = l x (abx) or "
                "B A x = l x (bax) to standard form ({how}), given B's Cholesky factor (uplo upper: B = U^H U, lower: "
                "B = L L^H) over B: A's uplo triangle becomes that of inv(U^H) A inv(U) / inv(L) A inv(L^H) (ax) or "
                "U A U^H / L^H A L (abx, bax).")


def _gst_routine(name: str, kind: str, how: str) -> SolverRoutine:
    return SolverRoutine(name, _GST_PARAMS, {"A": "lda", "B": "ldb"}, _sygst, check=_check_sygst,
                         workspace=_sygst_workspace, pointers=(), summary=_GST_SUMMARY.format(kind=kind, how=how))


SYGS2, HEGS2 = _gst_routine("sygs2", "symmetric", "unblocked"), _gst_routine("hegs2", "Hermitian", "unblocked")
SYGST, HEGST = _gst_routine("sygst", "symmetric", "blocked"), _gst_routine("hegst", "Hermitian", "blocked")


# --- sygvd/hegvd ---------------------------------------------------------------------------------------


def _check_sygvd(c: SolverCall) -> _Dims:
    # rocsolver_sygv_hegv_argCheck (shared by sygvd): itype, evect, uplo; n, lda, ldb, batch_count.
    itype = c.enum("itype", Eform)
    evect = c.enum("evect", Evect, (Evect.original, Evect.none))
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, batch, (itype, evect, uplo))


def _sygvd_workspace(c: SolverCall) -> int:
    n, batch, (_, evect, _) = c.dims
    return _sygvd_bytes(n, batch, *_sizes(c), evect is Evect.original)


def _sygvd(c: SolverCall) -> None:
    n, batch, (itype, evect, uplo) = c.dims
    operands = gv_operands(c, n, batch)
    if operands is None:
        return
    a, b, d, e, serial = operands
    vectors = evect is Evect.original
    work = c.workspace_buffer()
    c.launch(partial(sygvd_run, itype=_ITYPE[itype], upper=uplo is Fill.upper, vectors=vectors, serial=serial),
             a, b, d, e, c.info(), work, flops=_flops(c, (7.0 if vectors else 2.0) * n**3, batch),
             bytes=_bytes(c, 2 * n * n, batch))


_GVD_SUMMARY = ("Eigenvalues (ascending in D) and optionally eigenvectors (over A; B-orthonormal, B^-1-orthonormal "
                "for bax) of the {kind}-definite generalized problem A x = l B x (itype ax), A B x = l x (abx) or "
                "B A x = l x (bax), by B's Cholesky factorization (over B), the reduction to standard form and "
                "divide and conquer; info = n + i when B's leading minor of order i is not positive definite (A, D, "
                "E are then garbage), else i > 0 when the eigensolver did not converge.")
SYGVD = SolverRoutine("sygvd", GV_PARAMS, {"A": "lda", "B": "ldb"}, _sygvd, check=_check_sygvd,
                      workspace=_sygvd_workspace, vectors={"D": "strideD", "E": "strideE"},
                      summary=_GVD_SUMMARY.format(kind="symmetric"))
HEGVD = SolverRoutine("hegvd", GV_PARAMS, {"A": "lda", "B": "ldb"}, _sygvd, check=_check_sygvd,
                      workspace=_sygvd_workspace, vectors={"D": "strideD", "E": "strideE"},
                      summary=_GVD_SUMMARY.format(kind="Hermitian"))


# --- ormbr/unmbr ---------------------------------------------------------------------------------------


class _BrDims(NamedTuple):
    m: int
    n: int
    k: int
    nq: int
    left: bool
    trans: bool
    row: bool
    batch: int = 1


def _check_ormbr(c: SolverCall) -> _BrDims:
    # rocsolver_ormbr_argCheck: side, trans (then the one of T/C the precision lacks), storev; m, n, k,
    # ldc < m; lda < nq (column-wise) or < min(nq, k) (row-wise).
    side = c.enum("side", Side, (Side.left, Side.right))
    trans = _operation(c)
    storev = c.enum("storev", Storev, (Storev.column_wise, Storev.row_wise))
    left, row = side is Side.left, storev is Storev.row_wise
    m, n, k = c.sizes("m", "n", "k")
    c.lds(("ldc", m))
    nq = m if left else n
    c.lds(("lda", min(nq, k) if row else nq))
    return _BrDims(m, n, k, nq, left, trans is not Operation.none, row)


def _ormbr_plan(dims: _BrDims) -> tuple[str, int, bool, int, int]:
    """(kernel kind, reflectors applied, shifted, rows and columns of C they apply to)."""
    m, n, k, nq, left, _, row, _ = dims
    kind = "lq" if row else "qr"
    direct = nq > k if row else nq >= k
    if direct:
        return kind, k, False, m, n
    rows, cols = (m - 1, n) if left else (m, n - 1)
    return kind, nq - 1, True, rows, cols


def _ormbr_workspace(c: SolverCall) -> int:
    _, kk, _, rows, cols = _ormbr_plan(c.dims)
    return kq.apply_workspace(c.dims.left, rows, cols, kk, 1, c.precision.itemsize)


def _ormbr(c: SolverCall) -> None:
    m, n, k, nq, left, trans, row, _ = c.dims
    need = min(nq, k) > 0
    c.require("A", "ipiv", when=need)
    c.require("C", when=m > 0 and n > 0)
    if m == 0 or n == 0 or k == 0:
        return
    kind, kk, shifted, rows, cols = _ormbr_plan(c.dims)
    if kk == 0 or rows == 0 or cols == 0:  # nq = 1 < k (or <= k): Q, P = I
        return
    # The vectors in the columns (qr; from row 1 when shifted) or the rows (lq; from column 1 when shifted).
    rows_a, cols_a = (nq, kk) if kind == "qr" else (kk, nq)
    v = c.matrix("A", rows_a, cols_a, c.int("lda"))
    tau = c.vector("ipiv", kk)
    cm = c.matrix("C", m, n, c.int("ldc"), writable=True)
    work = c.workspace_buffer()
    # P = H(1)...H(k) of gebrd is Q_lq^H of the same vectors: op(P) is the other op of Q_lq.
    c.launch(partial(ormbr_run, kind, left, trans ^ row), v, tau, cm, shifted, work,
             flops=_flops(c, 2.0 * m * n * kk, 1), bytes=_bytes(c, m * n, 1))


def _ormbr_routine(name: str) -> SolverRoutine:
    return SolverRoutine(name, ("storev", "side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"),
                         {"A": "lda", "C": "ldc"}, _ormbr, check=_check_ormbr, workspace=_ormbr_workspace,
                         vectors={"ipiv": "strideP"}, pointers=(),
                         summary="C := op(Q) C or C op(Q) (storev column_wise) or op(P) C or C op(P) (row_wise), side "
                                 "left (order nq = m) or right (nq = n), for the Q or P of the bidiagonal reduction "
                                 "gebrd of a matrix with k columns (Q) or rows (P): Householder vectors in A, scalars "
                                 "in ipiv; op is none or the (conjugate) transpose.")


ORMBR, UNMBR = _ormbr_routine("ormbr"), _ormbr_routine("unmbr")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
ssygs2 = bind(SYGS2, S)
dsygs2 = bind(SYGS2, D)
chegs2 = bind(HEGS2, C)
zhegs2 = bind(HEGS2, Z)
ssygs2_batched = bind(SYGS2, S, BATCHED)
dsygs2_batched = bind(SYGS2, D, BATCHED)
chegs2_batched = bind(HEGS2, C, BATCHED)
zhegs2_batched = bind(HEGS2, Z, BATCHED)
ssygs2_strided_batched = bind(SYGS2, S, STRIDED)
dsygs2_strided_batched = bind(SYGS2, D, STRIDED)
chegs2_strided_batched = bind(HEGS2, C, STRIDED)
zhegs2_strided_batched = bind(HEGS2, Z, STRIDED)
ssygst = bind(SYGST, S)
dsygst = bind(SYGST, D)
chegst = bind(HEGST, C)
zhegst = bind(HEGST, Z)
ssygst_batched = bind(SYGST, S, BATCHED)
dsygst_batched = bind(SYGST, D, BATCHED)
chegst_batched = bind(HEGST, C, BATCHED)
zhegst_batched = bind(HEGST, Z, BATCHED)
ssygst_strided_batched = bind(SYGST, S, STRIDED)
dsygst_strided_batched = bind(SYGST, D, STRIDED)
chegst_strided_batched = bind(HEGST, C, STRIDED)
zhegst_strided_batched = bind(HEGST, Z, STRIDED)
ssygvd = bind(SYGVD, S)
dsygvd = bind(SYGVD, D)
chegvd = bind(HEGVD, C)
zhegvd = bind(HEGVD, Z)
ssygvd_batched = bind(SYGVD, S, BATCHED)
dsygvd_batched = bind(SYGVD, D, BATCHED)
chegvd_batched = bind(HEGVD, C, BATCHED)
zhegvd_batched = bind(HEGVD, Z, BATCHED)
ssygvd_strided_batched = bind(SYGVD, S, STRIDED)
dsygvd_strided_batched = bind(SYGVD, D, STRIDED)
chegvd_strided_batched = bind(HEGVD, C, STRIDED)
zhegvd_strided_batched = bind(HEGVD, Z, STRIDED)
sormbr = bind(ORMBR, S)
dormbr = bind(ORMBR, D)
cunmbr = bind(UNMBR, C)
zunmbr = bind(UNMBR, Z)
# fmt: on

__all__ = public_names(globals())
