"""The Cholesky family: potf2/potrf, potrs, posv, potri, trtri, lauum.

Each routine is two phases in rocSOLVER's check order (see :mod:`rocmath.solver._api`):
``_check_*`` (enums: uplo, then diag; sizes) and the body (null pointers where the sizes
need them; the quick return; the launch).  Quick returns follow rocSOLVER: nothing
happens for ``batch_count == 0``; an empty matrix sets ``info`` to 0 and touches nothing
else (posv: also ``nrhs == 0``, without factoring A).  lauum has no batched forms and no
info.

Numerical failure is data: potrf's ``info[b] = j > 0`` when the leading minor of order
j of entry b is not positive definite (the factorization of that entry stops there, as
LAPACK's does: ``A(j, j)`` holds the non-positive value, later columns are untouched);
trtri's and potri's ``info`` is the first exact zero on the (factor's) diagonal, the
entry then being left as it was; posv leaves B of such an entry as it was.  Only the
``uplo`` triangle is read and written.  The work is :mod:`rocmath.solver._kernels_chol`.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from rocmath.batch import BatchOperand
from rocmath.precision import C, D, S, Z

from . import _kernels_chol as kc
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._types import Diagonal, Fill


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    upper: bool
    n: int
    batch: int
    nrhs: int = 0
    unit: bool = False


def _extent(rows: int, cols: int, ld: int) -> int:
    """Elements one column-major entry spans."""
    return 0 if rows == 0 or cols == 0 else ld * (cols - 1) + rows


def _flops(c: SolverCall, muladds: float) -> float:
    """Real flops for the launch record: a complex multiply-add is 8 real flops."""
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, *elements: float) -> float:
    """Bytes the launch reads and writes (its matrices, read and written once each)."""
    return 2.0 * c.dims.batch * c.precision.itemsize * sum(elements)


def _uplo(c: SolverCall) -> bool:
    return c.enum("uplo", Fill, (Fill.upper, Fill.lower)) is Fill.upper


def _square(c: SolverCall, upper: bool, unit: bool = False) -> _Dims:
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(upper, n, batch, 0, unit)


def _check_potrf(c: SolverCall) -> _Dims:
    return _square(c, _uplo(c))


def _check_trtri(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    unit = c.enum("diag", Diagonal, (Diagonal.non_unit, Diagonal.unit)) is Diagonal.unit
    return _square(c, upper, unit)


def _check_solve(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    n, nrhs = c.sizes("n", "nrhs")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(upper, n, batch, nrhs)


def _check_lauum(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    return _Dims(upper, n, 1)


def _prologue(c: SolverCall) -> bool:
    """Pointers and quick returns of the routines with one matrix and info; True to launch."""
    n, batch = c.dims.n, c.dims.batch
    c.require("A", when=n > 0)
    c.require("info", when=batch > 0)
    return not c.nothing_to_do(batch, n)


def _square_matrix(c: SolverCall) -> tuple[BatchOperand, bool]:
    """A (writable) and whether its entries overlap (then processed in entry order)."""
    n, lda = c.dims.n, c.int("lda")
    return c.matrix("A", n, n, lda, writable=True), c.overlapping(("A", _extent(n, n, lda)))


def _workspace(c: SolverCall, op: int) -> int:
    """Bytes of workspace of operation ``op`` (see :func:`rocmath.solver._kernels_chol.workspace`)."""
    n, batch, nrhs = c.dims.n, c.dims.batch, c.dims.nrhs
    if op == kc.LAUUM and c.precision.is_complex and n > kc.SMALL:
        return 0  # large complex lauum multiplies on the host (see kc.lauum)
    return kc.workspace(op, n, nrhs, batch, c.precision.itemsize)


# --- potf2, potrf --------------------------------------------------------------------------------


def _potrf(c: SolverCall) -> None:
    if not _prologue(c):
        return
    a, serial = _square_matrix(c)
    n = c.dims.n
    work = c.workspace_buffer()
    c.launch(kc.potrf, a, c.info(), c.dims.upper, serial, work, flops=_flops(c, n**3 / 6), bytes=_bytes(c, n * n / 2))


_POTRF_PARAMS = ("uplo", "n", "A", "lda", "info")
POTF2 = SolverRoutine("potf2", _POTRF_PARAMS, {"A": "lda"}, _potrf, check=_check_potrf,
                      workspace=partial(_workspace, op=kc.POTRF),
                      summary="Cholesky factorization A = U^H U (uplo upper) or L L^H (lower) of the uplo triangle "
                              "(unblocked algorithm); info = order of the first leading minor that is not positive "
                              "definite.")
POTRF = SolverRoutine("potrf", _POTRF_PARAMS, {"A": "lda"}, _potrf, check=_check_potrf,
                      workspace=partial(_workspace, op=kc.POTRF),
                      summary="Cholesky factorization A = U^H U (uplo upper) or L L^H (lower) of the uplo triangle "
                              "(blocked algorithm); info = order of the first leading minor that is not positive "
                              "definite.")


# --- potrs, posv ---------------------------------------------------------------------------------


def _potrs(c: SolverCall) -> None:
    upper, n, batch, nrhs, _ = c.dims
    c.require("A", when=n > 0)
    c.require("B", when=n > 0 and nrhs > 0)
    if n == 0 or nrhs == 0 or batch == 0:
        return
    ldb = c.int("ldb")
    a = c.matrix("A", n, n, c.int("lda"))
    b = c.matrix("B", n, nrhs, ldb, writable=True)
    serial = c.overlapping(("B", _extent(n, nrhs, ldb)))
    work = c.workspace_buffer()
    c.launch(kc.potrs, a, b, upper, serial, work, flops=_flops(c, n * n * nrhs), bytes=_bytes(c, n * n / 4, n * nrhs))


POTRS = SolverRoutine("potrs", ("uplo", "n", "nrhs", "A", "lda", "B", "ldb"), {"A": "lda", "B": "ldb"}, _potrs,
                      check=_check_solve, workspace=partial(_workspace, op=kc.POTRS), pointers=(),
                      summary="Solve A X = B with the Cholesky factor of potrf (the uplo triangle of A); X "
                              "overwrites B.")


def _posv(c: SolverCall) -> None:
    upper, n, batch, nrhs, _ = c.dims
    c.require("A", when=n > 0)
    c.require("B", when=n > 0 and nrhs > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n, nrhs):  # rocSOLVER: info = 0, A is not factored
        return
    lda, ldb = c.int("lda"), c.int("ldb")
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, nrhs, ldb, writable=True)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("B", _extent(n, nrhs, ldb)))
    work = c.workspace_buffer()
    c.launch(kc.posv, a, b, c.info(), upper, serial, work, flops=_flops(c, n**3 / 6 + n * n * nrhs),
             bytes=_bytes(c, n * n / 2, n * nrhs))


POSV = SolverRoutine("posv", ("uplo", "n", "nrhs", "A", "lda", "B", "ldb", "info"), {"A": "lda", "B": "ldb"},
                     _posv, check=_check_solve, workspace=partial(_workspace, op=kc.POSV),
                     summary="Solve A X = B for Hermitian positive definite A by its Cholesky factorization (the "
                             "uplo triangle of A gets it, X overwrites B; info > 0 leaves B as it was).")


# --- potri, trtri, lauum -------------------------------------------------------------------------


def _potri(c: SolverCall) -> None:
    if not _prologue(c):
        return
    a, serial = _square_matrix(c)
    n = c.dims.n
    work = c.workspace_buffer()
    c.launch(kc.potri, a, c.info(), c.dims.upper, serial, work, flops=_flops(c, n**3 / 3), bytes=_bytes(c, n * n / 2))


POTRI = SolverRoutine("potri", ("uplo", "n", "A", "lda", "info"), {"A": "lda"}, _potri, check=_check_potrf,
                      workspace=partial(_workspace, op=kc.POTRI),
                      summary="Inverse of A from its Cholesky factor (potrf's uplo triangle), into that triangle; "
                              "info = first zero on the factor's diagonal (the entry is then left as it was).")


def _trtri(c: SolverCall) -> None:
    if not _prologue(c):
        return
    a, serial = _square_matrix(c)
    n = c.dims.n
    work = c.workspace_buffer()
    c.launch(kc.trtri, a, c.info(), c.dims.upper, c.dims.unit, serial, work, flops=_flops(c, n**3 / 6),
             bytes=_bytes(c, n * n / 2))


TRTRI = SolverRoutine("trtri", ("uplo", "diag", "n", "A", "lda", "info"), {"A": "lda"}, _trtri, check=_check_trtri,
                      workspace=partial(_workspace, op=kc.TRTRI),
                      summary="Inverse of the triangular matrix in the uplo triangle of A (diag: unit or not), in "
                              "place; info = first zero on a non-unit diagonal (the entry is then left as it was).")


def _lauum(c: SolverCall) -> None:
    n = c.dims.n
    c.require("A", when=n > 0)
    if n == 0:
        return
    a = c.matrix("A", n, n, c.int("lda"), writable=True)
    work = c.workspace_buffer()
    c.launch(kc.lauum, a, c.dims.upper, work, flops=_flops(c, n**3 / 6), bytes=_bytes(c, n * n / 2))


LAUUM = SolverRoutine("lauum", ("uplo", "n", "A", "lda"), {"A": "lda"}, _lauum, check=_check_lauum,
                      workspace=partial(_workspace, op=kc.LAUUM), pointers=(),
                      summary="The product U U^H (uplo upper) or L^H L (lower) of the triangular factor in the uplo "
                              "triangle of A, into that triangle.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
spotf2 = bind(POTF2, S)
dpotf2 = bind(POTF2, D)
cpotf2 = bind(POTF2, C)
zpotf2 = bind(POTF2, Z)
spotf2_batched = bind(POTF2, S, BATCHED)
dpotf2_batched = bind(POTF2, D, BATCHED)
cpotf2_batched = bind(POTF2, C, BATCHED)
zpotf2_batched = bind(POTF2, Z, BATCHED)
spotf2_strided_batched = bind(POTF2, S, STRIDED)
dpotf2_strided_batched = bind(POTF2, D, STRIDED)
cpotf2_strided_batched = bind(POTF2, C, STRIDED)
zpotf2_strided_batched = bind(POTF2, Z, STRIDED)
spotf2_64 = bind(POTF2, S, ilp64=True)
dpotf2_64 = bind(POTF2, D, ilp64=True)
cpotf2_64 = bind(POTF2, C, ilp64=True)
zpotf2_64 = bind(POTF2, Z, ilp64=True)
spotf2_batched_64 = bind(POTF2, S, BATCHED, ilp64=True)
dpotf2_batched_64 = bind(POTF2, D, BATCHED, ilp64=True)
cpotf2_batched_64 = bind(POTF2, C, BATCHED, ilp64=True)
zpotf2_batched_64 = bind(POTF2, Z, BATCHED, ilp64=True)
spotf2_strided_batched_64 = bind(POTF2, S, STRIDED, ilp64=True)
dpotf2_strided_batched_64 = bind(POTF2, D, STRIDED, ilp64=True)
cpotf2_strided_batched_64 = bind(POTF2, C, STRIDED, ilp64=True)
zpotf2_strided_batched_64 = bind(POTF2, Z, STRIDED, ilp64=True)
spotrf = bind(POTRF, S)
dpotrf = bind(POTRF, D)
cpotrf = bind(POTRF, C)
zpotrf = bind(POTRF, Z)
spotrf_batched = bind(POTRF, S, BATCHED)
dpotrf_batched = bind(POTRF, D, BATCHED)
cpotrf_batched = bind(POTRF, C, BATCHED)
zpotrf_batched = bind(POTRF, Z, BATCHED)
spotrf_strided_batched = bind(POTRF, S, STRIDED)
dpotrf_strided_batched = bind(POTRF, D, STRIDED)
cpotrf_strided_batched = bind(POTRF, C, STRIDED)
zpotrf_strided_batched = bind(POTRF, Z, STRIDED)
spotrf_64 = bind(POTRF, S, ilp64=True)
dpotrf_64 = bind(POTRF, D, ilp64=True)
cpotrf_64 = bind(POTRF, C, ilp64=True)
zpotrf_64 = bind(POTRF, Z, ilp64=True)
spotrf_batched_64 = bind(POTRF, S, BATCHED, ilp64=True)
dpotrf_batched_64 = bind(POTRF, D, BATCHED, ilp64=True)
cpotrf_batched_64 = bind(POTRF, C, BATCHED, ilp64=True)
zpotrf_batched_64 = bind(POTRF, Z, BATCHED, ilp64=True)
spotrf_strided_batched_64 = bind(POTRF, S, STRIDED, ilp64=True)
dpotrf_strided_batched_64 = bind(POTRF, D, STRIDED, ilp64=True)
cpotrf_strided_batched_64 = bind(POTRF, C, STRIDED, ilp64=True)
zpotrf_strided_batched_64 = bind(POTRF, Z, STRIDED, ilp64=True)
spotrs = bind(POTRS, S)
dpotrs = bind(POTRS, D)
cpotrs = bind(POTRS, C)
zpotrs = bind(POTRS, Z)
spotrs_batched = bind(POTRS, S, BATCHED)
dpotrs_batched = bind(POTRS, D, BATCHED)
cpotrs_batched = bind(POTRS, C, BATCHED)
zpotrs_batched = bind(POTRS, Z, BATCHED)
spotrs_strided_batched = bind(POTRS, S, STRIDED)
dpotrs_strided_batched = bind(POTRS, D, STRIDED)
cpotrs_strided_batched = bind(POTRS, C, STRIDED)
zpotrs_strided_batched = bind(POTRS, Z, STRIDED)
spotrs_64 = bind(POTRS, S, ilp64=True)
dpotrs_64 = bind(POTRS, D, ilp64=True)
cpotrs_64 = bind(POTRS, C, ilp64=True)
zpotrs_64 = bind(POTRS, Z, ilp64=True)
spotrs_batched_64 = bind(POTRS, S, BATCHED, ilp64=True)
dpotrs_batched_64 = bind(POTRS, D, BATCHED, ilp64=True)
cpotrs_batched_64 = bind(POTRS, C, BATCHED, ilp64=True)
zpotrs_batched_64 = bind(POTRS, Z, BATCHED, ilp64=True)
spotrs_strided_batched_64 = bind(POTRS, S, STRIDED, ilp64=True)
dpotrs_strided_batched_64 = bind(POTRS, D, STRIDED, ilp64=True)
cpotrs_strided_batched_64 = bind(POTRS, C, STRIDED, ilp64=True)
zpotrs_strided_batched_64 = bind(POTRS, Z, STRIDED, ilp64=True)
sposv = bind(POSV, S)
dposv = bind(POSV, D)
cposv = bind(POSV, C)
zposv = bind(POSV, Z)
sposv_batched = bind(POSV, S, BATCHED)
dposv_batched = bind(POSV, D, BATCHED)
cposv_batched = bind(POSV, C, BATCHED)
zposv_batched = bind(POSV, Z, BATCHED)
sposv_strided_batched = bind(POSV, S, STRIDED)
dposv_strided_batched = bind(POSV, D, STRIDED)
cposv_strided_batched = bind(POSV, C, STRIDED)
zposv_strided_batched = bind(POSV, Z, STRIDED)
spotri = bind(POTRI, S)
dpotri = bind(POTRI, D)
cpotri = bind(POTRI, C)
zpotri = bind(POTRI, Z)
spotri_batched = bind(POTRI, S, BATCHED)
dpotri_batched = bind(POTRI, D, BATCHED)
cpotri_batched = bind(POTRI, C, BATCHED)
zpotri_batched = bind(POTRI, Z, BATCHED)
spotri_strided_batched = bind(POTRI, S, STRIDED)
dpotri_strided_batched = bind(POTRI, D, STRIDED)
cpotri_strided_batched = bind(POTRI, C, STRIDED)
zpotri_strided_batched = bind(POTRI, Z, STRIDED)
strtri = bind(TRTRI, S)
dtrtri = bind(TRTRI, D)
ctrtri = bind(TRTRI, C)
ztrtri = bind(TRTRI, Z)
strtri_batched = bind(TRTRI, S, BATCHED)
dtrtri_batched = bind(TRTRI, D, BATCHED)
ctrtri_batched = bind(TRTRI, C, BATCHED)
ztrtri_batched = bind(TRTRI, Z, BATCHED)
strtri_strided_batched = bind(TRTRI, S, STRIDED)
dtrtri_strided_batched = bind(TRTRI, D, STRIDED)
ctrtri_strided_batched = bind(TRTRI, C, STRIDED)
ztrtri_strided_batched = bind(TRTRI, Z, STRIDED)
slauum = bind(LAUUM, S)
dlauum = bind(LAUUM, D)
clauum = bind(LAUUM, C)
zlauum = bind(LAUUM, Z)
# fmt: on

__all__ = public_names(globals())
