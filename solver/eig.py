"""The symmetric eigenvalue and SVD family.

Tridiagonal and bidiagonal auxiliaries (one matrix, as in rocSOLVER): sterf, steqr,
stedc, bdsqr.  Reductions: sytd2/hetd2, sytrd/hetrd, gebd2, gebrd.  Eigensolvers:
syev/heev, syevd/heevd, syevj/heevj, sygv/hegv.  SVD: gesvd, gesvdj.

Each routine is two phases in rocSOLVER's check order (see :mod:`rocmath.solver._api`)
and follows rocSOLVER's quick returns, which differ between routines: an empty
syev/syevd/sygv/steqr/stedc/sterf sets info to 0; syevj and gesvdj also zero
``residual`` and ``n_sweeps``; an empty gesvd or bdsqr (``n == 0``) returns without
touching anything, info included.  Scalar cases are rocSOLVER's: an n = 1 syev,
syevd or syevj gives the entry's real part as eigenvalue and 1 as eigenvector;
steqr and stedc of n = 1 set C to 1 whenever vectors are asked for.

Results: eigenvalues ascending (syevj: when ``esort`` asks), singular values
descending; gesvd and gesvdj return V^H in V (rows).  Numerical failure is data:
``info = i > 0`` counts the off-diagonal (syev, syevd, steqr, sterf, bdsqr, gesvd:
superdiagonal) elements that did not converge, left in E; bdsqr, and so gesvd, answer
NaN or Inf in their input with D (S), E := NaN and info = n (min(m, n)).  sygv reports
a B that is not positive definite as ``n + i`` (i the order of the failing leading
minor) and, as rocSOLVER, still reduces and solves with the partial factor: A, D and E
are then garbage.  syevj/gesvdj sweep until the off-diagonal norm is within the
tolerance (``abstol``, or eps when ``abstol <= 0``, times the Frobenius norm of A,
resp. of A^H A) or ``max_sweeps`` sweeps were done (n_sweeps = max_sweeps, info = 1, as
rocSOLVER documents; its single kernel for orders up to :data:`SYEVJ_BLOCKED_SWITCH`
never sets info, a failure rocmath reports rather than hides).  Past that order
(min(m, n) for gesvdj) rocSOLVER's blocked path also counts ``residual == tolerance``,
e.g. a zero matrix, and a NaN residual as not converged, and so does rocmath.
``fast_alg`` of gesvd only chooses an algorithm in rocSOLVER and is not validated
there; here it has no effect.  The work is :mod:`rocmath.solver._kernels_eig`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from rocmath.batch import BatchOperand
from rocmath.errors import RocblasInvalidValueError
from rocmath.precision import C, D, S, Z

from . import _kernels_eig as ke
from ._api import BATCHED, PLAIN, STRIDED, Flavour, SolverCall, SolverRoutine, bind, public_names
from ._types import Eform, Esort, Evect, Fill, Svect

_INT = np.dtype(np.int32)
_FILLS = (Fill.upper, Fill.lower)
_LETTER = {Svect.all: ord("A"), Svect.singular: ord("S"), Svect.overwrite: ord("O"), Svect.none: ord("N")}
_COMPZ = {Evect.none: ord("N"), Evect.original: ord("V"), Evect.tridiagonal: ord("I")}
N_ = ord("N")
#: rocSOLVER's SYEVJ_BLOCKED_SWITCH (ideal_sizes.hpp): syevj up to this order runs one kernel; past it,
#: blocked kernels whose convergence test is strict (see ke._converged).
SYEVJ_BLOCKED_SWITCH = 58


@dataclass(frozen=True)
class EigRoutine(SolverRoutine):
    """A routine whose ``strided`` matrices (gesvd's U and V) are single device arrays in
    both batched flavours, each followed by its stride after its leading dimension
    (``U, ldu, strideU``), as rocSOLVER declares them."""

    strided: dict[str, tuple[str, str]] = field(default_factory=dict)  # matrix -> (ld, stride)

    def signature(self, flavour: Flavour) -> tuple[str, ...]:
        """The C parameter names of one flavour, handle first."""
        names = list(super().signature(flavour))
        if flavour is not PLAIN:
            for ld, stride in self.strided.values():
                names.insert(names.index(ld) + 1, stride)
        return tuple(names)


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    m: int
    n: int
    batch: int
    opts: tuple[Any, ...] = ()


def _extent(rows: int, cols: int, ld: int) -> int:
    """Elements one column-major entry spans."""
    return 0 if rows == 0 or cols == 0 else ld * (cols - 1) + rows


def _flops(c: SolverCall, muladds: float) -> float:
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, *elements: float) -> float:
    return 2.0 * c.dims.batch * c.precision.itemsize * sum(elements)


def _uplo(c: SolverCall) -> Fill:
    return c.enum("uplo", Fill, _FILLS)


def _fill_letter(uplo: Fill) -> int:
    return ord("U") if uplo is Fill.upper else ord("L")


def _strided_matrix(c: SolverCall, name: str, rows: int, cols: int, *, writable: bool = True) -> BatchOperand:
    """A matrix of EigRoutine.strided: one device array, entries ``stride`` apart in both batched forms."""
    ld, stride = c.routine.strided[name]  # type: ignore[attr-defined]
    step = 0 if c.flavour is PLAIN else c.int(stride)
    return BatchOperand(c.ptr(name), c.dtype, (rows, cols), (1, c.int(ld)), c.batch_count, step, False, 0, writable,
                        name, None, c.values[name])


def _serial(c: SolverCall, *extents: tuple[str, int]) -> bool:
    """Whether written entries overlap (then they run in order); EigRoutine.strided matrices count too."""
    if c.overlapping(*(x for x in extents if x[0] not in getattr(c.routine, "strided", {}))):
        return True
    strided = getattr(c.routine, "strided", {})
    if c.flavour is PLAIN or c.batch_count <= 1:
        return False
    return any(name in strided and extent and abs(c.int(strided[name][1])) < extent for name, extent in extents)


def _sizes(c: SolverCall) -> tuple[int, int]:
    """(element, real) itemsizes of the call's precision."""
    return c.precision.itemsize, c.precision.real.itemsize


def _zero(*arrays: np.ndarray) -> None:
    for x in arrays:
        x[...] = 0


def _reset(c: SolverCall, *names: str) -> None:
    """Per-entry outputs (info, residual, n_sweeps) := 0."""
    real = c.precision.real.dtype
    bufs = [c.array(n, c.batch_count, real if n == "residual" else _INT) for n in names]
    c.launch(_zero, *bufs, bytes=4.0 * c.batch_count * len(names))


# --- sterf, steqr, stedc ---------------------------------------------------------------------------


def _check_sterf(c: SolverCall) -> _Dims:
    (n,) = c.sizes("n")
    return _Dims(n, n, 1)


def _tridiagonal_workspace(c: SolverCall, routine: str) -> int:
    compz = N_ if routine == "sterf" else _COMPZ[c.dims.opts[0]]
    return ke.tridiagonal_workspace(routine, compz, c.dims.n, *_sizes(c))


def _sterf(c: SolverCall) -> None:
    n = c.dims.n
    c.require("D", when=n > 0)
    c.require("E", when=n > 1)
    c.require("info")
    if n <= 1:
        c.reset_info()
        return
    real = c.precision.real.dtype
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", n - 1, writable=True, dtype=real)
    work = c.workspace_buffer()
    c.launch(ke.sterf, d, e, c.info(), work, flops=30.0 * n * n, bytes=_bytes(c, 2 * n))


STERF = SolverRoutine("sterf", ("n", "D", "E", "info"), {}, _sterf, check=_check_sterf,
                      workspace=partial(_tridiagonal_workspace, routine="sterf"),
                      vectors={"D": "strideD", "E": "strideE"},
                      summary="Eigenvalues of the symmetric tridiagonal matrix (D, E), ascending in D, by the "
                              "root-free QL/QR iteration; info = off-diagonal elements that did not converge.")


def _check_steqr(c: SolverCall) -> _Dims:
    evect = c.enum("evect", Evect)
    (n,) = c.sizes("n")
    if evect is not Evect.none:
        c.lds(("ldc", n))
    return _Dims(n, n, 1, (evect,))


def _one(x: np.ndarray) -> None:
    x[:, 0, 0] = 1


def _steqr(c: SolverCall, routine: str) -> None:
    n = c.dims.n
    (evect,) = c.dims.opts
    c.require("D", when=n > 0)
    c.require("E", when=n > 1)
    c.require("C", when=evect is not Evect.none and n > 0)
    c.require("info")
    work = c.workspace_buffer()  # before info is written: a too small user workspace changes nothing
    c.reset_info()
    if n == 1 and evect is not Evect.none:  # rocSOLVER: C := 1 (the tridiagonal eigenvector)
        c.launch(_one, c.matrix("C", 1, 1, c.int("ldc"), writable=True))
    if n <= 1:
        return
    real = c.precision.real.dtype
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", n - 1, writable=True, dtype=real)
    vec = evect is not Evect.none
    mat = c.matrix("C", n, n, c.int("ldc"), writable=True) if vec else np.zeros((1, 0, 0), c.dtype)
    c.launch(partial(ke.tridiagonal, routine), d, e, mat, c.info(), _COMPZ[evect], work,
             flops=_flops(c, 3.0 * n**3 if vec else 10.0 * n * n), bytes=_bytes(c, 2 * n, n * n if vec else 0))


_TRIDIAG_PARAMS = ("evect", "n", "D", "E", "C", "ldc", "info")
STEQR = SolverRoutine("steqr", _TRIDIAG_PARAMS, {"C": "ldc"}, partial(_steqr, routine="steqr"), check=_check_steqr,
                      workspace=partial(_tridiagonal_workspace, routine="steqr"),
                      vectors={"D": "strideD", "E": "strideE"},
                      summary="Eigenvalues (ascending in D) and optionally eigenvectors of the symmetric tridiagonal "
                              "matrix (D, E) by implicit QL/QR iteration: evect none, original (C := C Q) or "
                              "tridiagonal (C := Q); info = off-diagonal elements that did not converge.")
STEDC = SolverRoutine("stedc", _TRIDIAG_PARAMS, {"C": "ldc"}, partial(_steqr, routine="stedc"), check=_check_steqr,
                      workspace=partial(_tridiagonal_workspace, routine="stedc"),
                      vectors={"D": "strideD", "E": "strideE"},
                      summary="Eigenvalues (ascending in D) and optionally eigenvectors of the symmetric tridiagonal "
                              "matrix (D, E) by divide and conquer: evect none, original (C := C Q) or tridiagonal "
                              "(C := Q); info > 0 when a subproblem failed.")


# --- bdsqr ---------------------------------------------------------------------------------------


def _check_bdsqr(c: SolverCall) -> _Dims:
    uplo = _uplo(c)
    n, nv, nu, nc = c.sizes("n", "nv", "nu", "nc")
    c.lds(("ldu", nu), ("ldv", 1), ("ldc", 1))
    if nv > 0:
        c.lds(("ldv", n))
    if nc > 0:
        c.lds(("ldc", n))
    return _Dims(n, n, 1, (uplo, nv, nu, nc))


def _bdsqr_workspace(c: SolverCall) -> int:
    return ke.bdsqr_workspace(c.dims.n, c.precision.real.itemsize)


def _bdsqr(c: SolverCall) -> None:
    n = c.dims.n
    uplo, nv, nu, nc = c.dims.opts
    c.require("D", when=n > 0)
    c.require("E", when=n > 1)
    c.require("V", when=n > 0 and nv > 0)
    c.require("U", when=n > 0 and nu > 0)
    c.require("C", when=n > 0 and nc > 0)
    c.require("info")
    if n == 0:  # rocSOLVER returns before touching info
        return
    real = c.precision.real.dtype
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", max(n - 1, 0), writable=True, dtype=real)
    mats = [c.matrix(name, r, k, c.int(ld), writable=True) if r and k else np.zeros((1, r, k), c.dtype)
            for name, r, k, ld in (("V", n, nv, "ldv"), ("U", nu, n, "ldu"), ("C", n, nc, "ldc"))]
    work = c.workspace_buffer()
    c.launch(ke.bdsqr, d, e, *mats, c.info(), _fill_letter(uplo), work,
             flops=_flops(c, 6.0 * n * n * (nv + nu + nc + 1)), bytes=_bytes(c, 2 * n, n * (nv + nu + nc)))


BDSQR = SolverRoutine("bdsqr", ("uplo", "n", "nv", "nu", "nc", "D", "E", "V", "ldv", "U", "ldu", "C", "ldc", "info"),
                      {"V": "ldv", "U": "ldu", "C": "ldc"}, _bdsqr, check=_check_bdsqr,
                      workspace=_bdsqr_workspace,
                      vectors={"D": "strideD", "E": "strideE"},
                      summary="Singular values (descending in D) of the bidiagonal matrix (D, E), upper or lower, by "
                              "QR iteration, with V := P^H V, U := U Q, C := Q^H C; info = superdiagonal elements "
                              "that did not converge (NaN or Inf input: D, E := NaN, info = n).")


# --- sytd2/hetd2, sytrd/hetrd ----------------------------------------------------------------------------


def _check_sytrd(c: SolverCall) -> _Dims:
    uplo = _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, (uplo,))


def _sytrd_workspace(c: SolverCall) -> int:
    return ke.sytrd_workspace(c.dims.n, c.dims.batch, *_sizes(c))


def _sytrd(c: SolverCall, blocked: bool) -> None:
    n, _, batch, (uplo,) = c.dims
    c.require("A", "D", when=n > 0)
    c.require("E", "tau", when=n > 1)
    if n == 0 or batch == 0:
        return
    lda, real = c.int("lda"), c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", n - 1, writable=True, dtype=real)
    tau = c.vector("tau", n - 1, writable=True)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("D", n), ("E", n - 1), ("tau", n - 1))
    work = c.workspace_buffer()
    c.launch(ke.sytrd, a, d, e, tau, _fill_letter(uplo), blocked, serial, work, flops=_flops(c, 2.0 * n**3 / 3),
             bytes=_bytes(c, n * n))


_TRD_PARAMS = ("uplo", "n", "A", "lda", "D", "E", "tau")
_TRD_VECTORS = {"D": "strideD", "E": "strideE", "tau": "strideP"}
_TRD_SUMMARY = ("Reduction of the {kind} matrix A (its uplo triangle) to real symmetric tridiagonal form T = Q^H A Q "
                "({how}): D, E get T, the Householder vectors overwrite A beyond the tridiagonal, tau their scalars.")
SYTD2 = SolverRoutine("sytd2", _TRD_PARAMS, {"A": "lda"}, partial(_sytrd, blocked=False), check=_check_sytrd,
                      workspace=_sytrd_workspace, vectors=_TRD_VECTORS,
                      summary=_TRD_SUMMARY.format(kind="symmetric", how="unblocked"))
HETD2 = SolverRoutine("hetd2", _TRD_PARAMS, {"A": "lda"}, partial(_sytrd, blocked=False), check=_check_sytrd,
                      workspace=_sytrd_workspace, vectors=_TRD_VECTORS,
                      summary=_TRD_SUMMARY.format(kind="Hermitian", how="unblocked"))
SYTRD = SolverRoutine("sytrd", _TRD_PARAMS, {"A": "lda"}, partial(_sytrd, blocked=True), check=_check_sytrd,
                      workspace=_sytrd_workspace, vectors=_TRD_VECTORS,
                      summary=_TRD_SUMMARY.format(kind="symmetric", how="blocked"))
HETRD = SolverRoutine("hetrd", _TRD_PARAMS, {"A": "lda"}, partial(_sytrd, blocked=True), check=_check_sytrd,
                      workspace=_sytrd_workspace, vectors=_TRD_VECTORS,
                      summary=_TRD_SUMMARY.format(kind="Hermitian", how="blocked"))


# --- gebd2, gebrd --------------------------------------------------------------------------------


def _check_gebrd(c: SolverCall) -> _Dims:
    m, n = c.sizes("m", "n")
    c.lds(("lda", m))
    (batch,) = c.sizes("batch_count")
    return _Dims(m, n, batch)


def _gebrd_workspace(c: SolverCall) -> int:
    m, n, batch = c.dims[:3]
    return ke.gebrd_workspace(m, n, batch, *_sizes(c))


def _gebrd(c: SolverCall, blocked: bool) -> None:
    m, n, batch = c.dims[:3]
    k = min(m, n)
    c.require("A", "D", "tauq", "taup", when=k > 0)
    c.require("E", when=k > 1)
    if k == 0 or batch == 0:
        return
    lda, real = c.int("lda"), c.precision.real.dtype
    a = c.matrix("A", m, n, lda, writable=True)
    d = c.vector("D", k, writable=True, dtype=real)
    e = c.vector("E", k - 1, writable=True, dtype=real)
    tq = c.vector("tauq", k, writable=True)
    tp = c.vector("taup", k, writable=True)
    serial = c.overlapping(("A", _extent(m, n, lda)), ("D", k), ("E", k - 1), ("tauq", k), ("taup", k))
    work = c.workspace_buffer()
    c.launch(ke.gebrd, a, d, e, tq, tp, blocked, serial, work, flops=_flops(c, 2.0 * k * k * (max(m, n) - k / 3)),
             bytes=_bytes(c, m * n))


_BRD_PARAMS = ("m", "n", "A", "lda", "D", "E", "tauq", "taup")
_BRD_VECTORS = {"D": "strideD", "E": "strideE", "tauq": "strideQ", "taup": "strideP"}
_BRD_SUMMARY = ("Reduction of the m x n matrix A to real bidiagonal form B = Q^H A P ({how}; upper when m >= n, "
                "lower otherwise): D, E get B, the Householder vectors of Q and P overwrite A, tauq and taup their "
                "scalars.")
GEBD2 = SolverRoutine("gebd2", _BRD_PARAMS, {"A": "lda"}, partial(_gebrd, blocked=False), check=_check_gebrd,
                      workspace=_gebrd_workspace, vectors=_BRD_VECTORS, summary=_BRD_SUMMARY.format(how="unblocked"))
GEBRD = SolverRoutine("gebrd", _BRD_PARAMS, {"A": "lda"}, partial(_gebrd, blocked=True), check=_check_gebrd,
                      workspace=_gebrd_workspace, vectors=_BRD_VECTORS, summary=_BRD_SUMMARY.format(how="blocked"))


# --- syev/heev, syevd/heevd ----------------------------------------------------------------------------


def _evect(c: SolverCall) -> Evect:
    return c.enum("evect", Evect, (Evect.original, Evect.none))


def _check_syev(c: SolverCall) -> _Dims:
    evect, uplo = _evect(c), _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, (evect, uplo))


def _syev_workspace(c: SolverCall, divide: bool) -> int:
    n, _, batch, (evect, _) = c.dims
    return ke.syev_workspace(n, batch, *_sizes(c), evect is Evect.original, divide)


def _syev(c: SolverCall, divide: bool) -> None:
    n, _, batch, (evect, uplo) = c.dims
    c.require("A", "D", "E", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return
    lda, real = c.int("lda"), c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", n, writable=True, dtype=real)
    vectors = evect is Evect.original
    serial = c.overlapping(("A", _extent(n, n, lda)), ("D", n), ("E", n))
    work = c.workspace_buffer()
    c.launch(ke.syev, a, d, e, c.info(), _fill_letter(uplo), vectors, divide, serial, work,
             flops=_flops(c, (4.0 * n**3 / 3) + (3.0 * n**3 if vectors else 0.0)), bytes=_bytes(c, n * n))


_EV_PARAMS = ("evect", "uplo", "n", "A", "lda", "D", "E", "info")
_EV_VECTORS = {"D": "strideD", "E": "strideE"}
_EV_SUMMARY = ("Eigenvalues (ascending in D) and optionally eigenvectors (over A, evect original) of the {kind} "
               "matrix A, by tridiagonal reduction and {how}; info = off-diagonal elements (left in E) that did not "
               "converge.")
SYEV = SolverRoutine("syev", _EV_PARAMS, {"A": "lda"}, partial(_syev, divide=False), check=_check_syev,
                     workspace=partial(_syev_workspace, divide=False), vectors=_EV_VECTORS,
                     summary=_EV_SUMMARY.format(kind="symmetric", how="QR iteration"))
HEEV = SolverRoutine("heev", _EV_PARAMS, {"A": "lda"}, partial(_syev, divide=False), check=_check_syev,
                     workspace=partial(_syev_workspace, divide=False), vectors=_EV_VECTORS,
                     summary=_EV_SUMMARY.format(kind="Hermitian", how="QR iteration"))
SYEVD = SolverRoutine("syevd", _EV_PARAMS, {"A": "lda"}, partial(_syev, divide=True), check=_check_syev,
                      workspace=partial(_syev_workspace, divide=True), vectors=_EV_VECTORS,
                      summary=_EV_SUMMARY.format(kind="symmetric", how="divide and conquer"))
HEEVD = SolverRoutine("heevd", _EV_PARAMS, {"A": "lda"}, partial(_syev, divide=True), check=_check_syev,
                      workspace=partial(_syev_workspace, divide=True), vectors=_EV_VECTORS,
                      summary=_EV_SUMMARY.format(kind="Hermitian", how="divide and conquer"))


# --- syevj/heevj -----------------------------------------------------------------------------------


def _check_syevj(c: SolverCall) -> _Dims:
    esort = c.enum("esort", Esort)
    evect, uplo = _evect(c), _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    sweeps = c.int("max_sweeps")
    if sweeps <= 0:
        raise c.invalid_size("max_sweeps", f"must be positive, got {sweeps}")
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, (esort, evect, uplo, sweeps))


def real_arg(c: SolverCall, name: str) -> float:
    """A real scalar parameter (abstol, vl, vu) as the C parameter of the routine's real type holds it
    (invalid_size for something that is not a number)."""
    value = c.values[name]
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise c.invalid_size(name, f"must be a number, got {value!r}") from None
    with np.errstate(over="ignore", under="ignore"):
        return float(c.precision.real.dtype.type(x))


def range_args(c: SolverCall, value: bool, index: bool, n: int, *, bounds_first: bool = False,
               singular: bool = False, bound: str = "n") -> tuple[float, float, int, int]:
    """``(vl, vu, il, iu)`` of a routine's eigenvalue or singular value range, checked after its other sizes,
    in rocSOLVER's order for the routine (invalid_size naming the argument):

    - ``value``: vl < vu (``singular``: vl >= 0, then vu > vl, as gesvdx and bdsvdx test them; a NaN passes
      and selects nothing);
    - ``index``: il >= 1 and iu >= 0, then iu <= n (``bound`` names n in the message) and il <= iu unless
      n = 0 -- ``bounds_first``: those two first (stebz, bdsvdx).

    Unselected ranges read as (0, 0, 1, 0)."""
    vl = vu = 0.0
    il, iu = 1, 0
    if value:
        vl, vu = real_arg(c, "vl"), real_arg(c, "vu")
        if singular and vl < 0:
            raise c.invalid_size("vl", f"must be >= 0, got {vl}")
        if singular and vl >= vu:
            raise c.invalid_size("vu", f"must be > vl = {vl}, got {vu}")
        if not singular and vl >= vu:
            raise c.invalid_size("vl", f"must be < vu, got vl = {vl}, vu = {vu}")
    if index:
        il, iu = c.int("il"), c.int("iu")

        def signs() -> None:
            if il < 1:
                raise c.invalid_size("il", f"must be >= 1, got {il}")
            if iu < 0:
                raise c.invalid_size("iu", f"must be >= 0, got {iu}")

        if not bounds_first:
            signs()
        if iu > n:
            raise c.invalid_size("iu", f"must be <= {bound} = {n}, got {iu}")
        if n > 0 and il > iu:
            raise c.invalid_size("il", f"must be <= iu = {iu}, got {il}")
        signs()
    return vl, vu, il, iu


def _abstol(c: SolverCall) -> float:
    """``abstol`` as the routine's real type holds it: a value that underflows to 0 in single precision then
    selects eps (``abstol <= 0``), as in rocSOLVER."""
    return real_arg(c, "abstol")


def _syevj_workspace(c: SolverCall) -> int:
    n, _, batch, (_, evect, _, _) = c.dims
    return ke.syevj_workspace(n, batch, *_sizes(c), evect is Evect.original)


def _syevj(c: SolverCall) -> None:
    n, _, batch, (esort, evect, uplo, sweeps) = c.dims
    c.require("A", "W", when=n > 0)
    c.require("residual", "n_sweeps", "info", when=batch > 0)
    if batch == 0:
        return
    abstol = _abstol(c)
    vectors = evect is Evect.original
    if n <= 1:
        _reset(c, "residual", "n_sweeps", "info")
    if n == 0:
        return
    lda, real = c.int("lda"), c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    w = c.vector("W", n, writable=True, dtype=real)
    if n == 1:
        c.launch(ke.scalar_case, a, w, vectors)
        return
    res, nsw = c.array("residual", batch, real), c.array("n_sweeps", batch, _INT)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("W", n))
    work = c.workspace_buffer()
    c.launch(partial(ke.syevj, blocked=n > SYEVJ_BLOCKED_SWITCH), a, w, res, nsw, c.info(), uplo is Fill.lower,
             vectors, esort is Esort.ascending, abstol, sweeps, serial, work, flops=_flops(c, 10.0 * n**3),
             bytes=_bytes(c, n * n))


SYEVJ_SUMMARY = ("Eigenvalues (in W; ascending when esort is ascending) and optionally eigenvectors (over A) of the "
                 "{kind} matrix A by the cyclic Jacobi method: sweeps until the off-diagonal Frobenius norm is at most "
                 "abstol (eps if abstol <= 0) times ||A||_F, at most max_sweeps; residual gets that norm, n_sweeps "
                 "the sweeps done (max_sweeps when the tolerance was not reached; info = 1 then, for n > 58 "
                 "only, as rocSOLVER).")
_EVJ_PARAMS = ("esort", "evect", "uplo", "n", "A", "lda", "abstol", "residual", "max_sweeps", "n_sweeps", "W", "info")
_EVJ_POINTERS = ("info", "residual", "n_sweeps")
SYEVJ = SolverRoutine("syevj", _EVJ_PARAMS, {"A": "lda"}, _syevj, check=_check_syevj, vectors={"W": "strideW"},
                      workspace=_syevj_workspace,
                      pointers=_EVJ_POINTERS, summary=SYEVJ_SUMMARY.format(kind="symmetric"))
HEEVJ = SolverRoutine("heevj", _EVJ_PARAMS, {"A": "lda"}, _syevj, check=_check_syevj, vectors={"W": "strideW"},
                      workspace=_syevj_workspace,
                      pointers=_EVJ_POINTERS, summary=SYEVJ_SUMMARY.format(kind="Hermitian"))


# --- sygv/hegv -------------------------------------------------------------------------------------


def _check_sygv(c: SolverCall) -> _Dims:
    itype = c.enum("itype", Eform)
    evect, uplo = _evect(c), _uplo(c)
    (n,) = c.sizes("n")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, (itype, evect, uplo))


def _sygv_workspace(c: SolverCall) -> int:
    return ke.sygv_workspace(c.dims.n, c.dims.batch, *_sizes(c))


def gv_operands(c: SolverCall, n: int, batch: int) -> tuple[Any, ...] | None:
    """The generalized eigensolvers' (sygv, sygvd) pointer checks, quick returns and operands: (A, B, D, E,
    whether entries overlap), or None when the call returns here."""
    c.require("A", "B", "D", "E", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return None
    lda, ldb, real = c.int("lda"), c.int("ldb"), c.precision.real.dtype
    a = c.matrix("A", n, n, lda, writable=True)
    b = c.matrix("B", n, n, ldb, writable=True)
    d = c.vector("D", n, writable=True, dtype=real)
    e = c.vector("E", n, writable=True, dtype=real)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("B", _extent(n, n, ldb)), ("D", n), ("E", n))
    return a, b, d, e, serial


def _sygv(c: SolverCall) -> None:
    n, _, batch, (itype, evect, uplo) = c.dims
    operands = gv_operands(c, n, batch)
    if operands is None:
        return
    a, b, d, e, serial = operands
    kind = {Eform.ax: 1, Eform.abx: 2, Eform.bax: 3}[itype]
    work = c.workspace_buffer()
    c.launch(ke.sygv, a, b, d, e, c.info(), kind, _fill_letter(uplo), evect is Evect.original, serial, work,
             flops=_flops(c, 3.0 * n**3), bytes=_bytes(c, 2 * n * n))


GV_PARAMS = ("itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "D", "E", "info")
_GV_SUMMARY = ("Eigenvalues (ascending in D) and optionally eigenvectors (over A, B-orthonormal) of the "
               "{kind}-definite generalized problem A x = l B x (itype ax), A B x = l x (abx) or B A x = l x "
               "(bax); B gets its Cholesky factor; info = n + i when B is not positive definite (A, D, E are then "
               "garbage), else syev's info.")
SYGV = SolverRoutine("sygv", GV_PARAMS, {"A": "lda", "B": "ldb"}, _sygv, check=_check_sygv, vectors=_EV_VECTORS,
                     workspace=_sygv_workspace,
                     summary=_GV_SUMMARY.format(kind="symmetric"))
HEGV = SolverRoutine("hegv", GV_PARAMS, {"A": "lda", "B": "ldb"}, _sygv, check=_check_sygv, vectors=_EV_VECTORS,
                     workspace=_sygv_workspace,
                     summary=_GV_SUMMARY.format(kind="Hermitian"))


# --- gesvd -----------------------------------------------------------------------------------------


def _svect(c: SolverCall, name: str, jacobi: bool) -> Svect:
    allowed = (Svect.all, Svect.singular, Svect.none) if jacobi else None
    return c.enum(name, Svect, allowed)


def _check_svd_sizes(c: SolverCall, left: Svect, right: Svect, jacobi: bool) -> tuple[int, int, int]:
    n, m = c.sizes("n", "m")
    c.lds(("lda", m))
    if jacobi:
        sweeps = c.int("max_sweeps")
        if sweeps <= 0:
            raise c.invalid_size("max_sweeps", f"must be positive, got {sweeps}")
    c.lds(("ldu", 1), ("ldv", 1))
    (batch,) = c.sizes("batch_count")
    if left in (Svect.all, Svect.singular):
        c.lds(("ldu", m))
    if right is Svect.all:
        c.lds(("ldv", n))
    elif right is Svect.singular:
        c.lds(("ldv", min(m, n)))
    return m, n, batch


def _check_gesvd(c: SolverCall) -> _Dims:
    left, right = _svect(c, "left_svect", False), _svect(c, "right_svect", False)
    if left is Svect.overwrite and right is Svect.overwrite:
        raise RocblasInvalidValueError("left_svect and right_svect cannot both be overwrite", arg="right_svect",
                                       index=c.index("right_svect"))
    m, n, batch = _check_svd_sizes(c, left, right, False)
    return _Dims(m, n, batch, (left, right))


def _svd_vectors(c: SolverCall, left: Svect, right: Svect) -> tuple[Any, Any, int, int]:
    """(U, V operands or empty stand-ins, columns of U, rows of V^H)."""
    m, n, batch = c.dims[:3]
    k = min(m, n)
    ucols = {Svect.all: m, Svect.singular: k}.get(left, 0)
    vrows = {Svect.all: n, Svect.singular: k}.get(right, 0)
    u = _strided_matrix(c, "U", m, ucols) if ucols else np.zeros((batch, 0, 0), c.dtype)
    v = _strided_matrix(c, "V", vrows, n) if vrows else np.zeros((batch, 0, 0), c.dtype)
    return u, v, ucols, vrows


def _gesvd_workspace(c: SolverCall) -> int:
    m, n, batch, (left, right) = c.dims
    if min(m, n) == 0 or batch == 0:
        return 0
    ke.ensure_eig()  # LAPACK's workspace query answers for the scratch size
    kind = ke.KINDS[_sizes(c)]
    return ke.gesvd_workspace(kind, _LETTER[left], _LETTER[right], m, n, batch, *_sizes(c))


def _gesvd(c: SolverCall) -> None:
    m, n, batch, (left, right) = c.dims
    k = min(m, n)
    c.require("A", when=m > 0 and n > 0)
    c.require("E", when=k > 1)
    c.require("S", when=k > 0)
    c.require("info", when=batch > 0)
    c.require("U", when=(left is Svect.all and m > 0) or (left is Svect.singular and k > 0))
    c.require("V", when=right in (Svect.all, Svect.singular) and n > 0)
    if k == 0 or batch == 0:  # rocSOLVER returns before touching anything, info included
        return
    lda, real = c.int("lda"), c.precision.real.dtype
    a = c.matrix("A", m, n, lda, writable=True)
    s = c.vector("S", k, writable=True, dtype=real)
    e = c.vector("E", k - 1, writable=True, dtype=real)
    u, v, ucols, vrows = _svd_vectors(c, left, right)
    serial = _serial(c, ("A", _extent(m, n, lda)), ("S", k), ("E", k - 1), ("U", _extent(m, ucols, c.int("ldu"))),
                     ("V", _extent(vrows, n, c.int("ldv"))))
    work = c.workspace_buffer()
    c.launch(ke.gesvd, a, s, u, v, e, c.info(), _LETTER[left], _LETTER[right], serial, work,
             flops=_flops(c, 4.0 * m * n * k + 8.0 * k**3), bytes=_bytes(c, m * n, m * ucols, vrows * n))


GESVD = EigRoutine("gesvd", ("left_svect", "right_svect", "m", "n", "A", "lda", "S", "U", "ldu", "V", "ldv", "E",
                             "fast_alg", "info"), {"A": "lda"}, _gesvd, check=_check_gesvd, workspace=_gesvd_workspace,
                   vectors={"S": "strideS", "E": "strideE"}, pointers=("info", "U", "V"),
                   strided={"U": ("ldu", "strideU"), "V": ("ldv", "strideV")},
                   summary="Singular value decomposition A = U S V^H: singular values descending in S; left and "
                           "right vectors all, singular (the first min(m, n)), overwrite (over A) or none; V gets "
                           "V^H (rows); A is destroyed; info = superdiagonal elements (left in E) that did not "
                           "converge (NaN or Inf in A: S, E := NaN, info = min(m, n)).  fast_alg (workmode) only "
                           "selects an algorithm.")


# --- gesvdj ----------------------------------------------------------------------------------------


def _check_gesvdj(c: SolverCall) -> _Dims:
    left, right = _svect(c, "left_svect", True), _svect(c, "right_svect", True)
    m, n, batch = _check_svd_sizes(c, left, right, True)
    return _Dims(m, n, batch, (left, right, c.int("max_sweeps")))


def _gesvdj_workspace(c: SolverCall) -> int:
    m, n, batch, (left, right, _) = c.dims
    return ke.gesvdj_workspace(m, n, _LETTER[left], _LETTER[right], batch, c.precision.itemsize)


def _gesvdj(c: SolverCall) -> None:
    m, n, batch, (left, right, sweeps) = c.dims
    k = min(m, n)
    c.require("A", when=m * n > 0)
    c.require("residual", "n_sweeps", when=batch > 0)
    c.require("S", when=k > 0)
    c.require("info", when=batch > 0)
    c.require("U", when=(left is Svect.all and m > 0) or (left is Svect.singular and k > 0))
    c.require("V", when=(right is Svect.all and n > 0) or (right is Svect.singular and k > 0))
    if batch == 0:
        return
    abstol = _abstol(c)
    if k == 0:
        _reset(c, "residual", "n_sweeps", "info")
        return
    real = c.precision.real.dtype
    a = c.matrix("A", m, n, c.int("lda"))
    s = c.vector("S", k, writable=True, dtype=real)
    u, v, ucols, vrows = _svd_vectors(c, left, right)
    res, nsw = c.array("residual", batch, real), c.array("n_sweeps", batch, _INT)
    serial = _serial(c, ("S", k), ("U", _extent(m, ucols, c.int("ldu"))), ("V", _extent(vrows, n, c.int("ldv"))))
    work = c.workspace_buffer()
    c.launch(partial(ke.gesvdj, blocked=k > SYEVJ_BLOCKED_SWITCH), a, s, u, v, res, nsw, c.info(), _LETTER[left],
             _LETTER[right], abstol, sweeps, serial, work, flops=_flops(c, 10.0 * m * n * k),
             bytes=_bytes(c, m * n / 2, m * ucols, vrows * n))


GESVDJ = EigRoutine("gesvdj", ("left_svect", "right_svect", "m", "n", "A", "lda", "abstol", "residual", "max_sweeps",
                               "n_sweeps", "S", "U", "ldu", "V", "ldv", "info"), {"A": "lda"}, _gesvdj,
                    check=_check_gesvdj, workspace=_gesvdj_workspace, vectors={"S": "strideS"},
                    pointers=("info", "residual", "n_sweeps", "U", "V"),
                    strided={"U": ("ldu", "strideU"), "V": ("ldv", "strideV")},
                    summary="Singular value decomposition A = U S V^H by the one-sided Jacobi method (A is not "
                            "changed): singular values descending in S; left and right vectors all, singular or "
                            "none; V gets V^H; sweeps until the off-diagonal Frobenius norm of A^H A (A A^H when "
                            "m < n) is at most abstol (eps if abstol <= 0) times its norm, at most max_sweeps; "
                            "residual, n_sweeps and info as syevj of order min(m, n).")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
ssterf = bind(STERF, S)
dsterf = bind(STERF, D)
ssteqr = bind(STEQR, S)
dsteqr = bind(STEQR, D)
csteqr = bind(STEQR, C)
zsteqr = bind(STEQR, Z)
sstedc = bind(STEDC, S)
dstedc = bind(STEDC, D)
cstedc = bind(STEDC, C)
zstedc = bind(STEDC, Z)
sbdsqr = bind(BDSQR, S)
dbdsqr = bind(BDSQR, D)
cbdsqr = bind(BDSQR, C)
zbdsqr = bind(BDSQR, Z)
ssytd2 = bind(SYTD2, S)
dsytd2 = bind(SYTD2, D)
chetd2 = bind(HETD2, C)
zhetd2 = bind(HETD2, Z)
ssytd2_batched = bind(SYTD2, S, BATCHED)
dsytd2_batched = bind(SYTD2, D, BATCHED)
chetd2_batched = bind(HETD2, C, BATCHED)
zhetd2_batched = bind(HETD2, Z, BATCHED)
ssytd2_strided_batched = bind(SYTD2, S, STRIDED)
dsytd2_strided_batched = bind(SYTD2, D, STRIDED)
chetd2_strided_batched = bind(HETD2, C, STRIDED)
zhetd2_strided_batched = bind(HETD2, Z, STRIDED)
ssytrd = bind(SYTRD, S)
dsytrd = bind(SYTRD, D)
chetrd = bind(HETRD, C)
zhetrd = bind(HETRD, Z)
ssytrd_batched = bind(SYTRD, S, BATCHED)
dsytrd_batched = bind(SYTRD, D, BATCHED)
chetrd_batched = bind(HETRD, C, BATCHED)
zhetrd_batched = bind(HETRD, Z, BATCHED)
ssytrd_strided_batched = bind(SYTRD, S, STRIDED)
dsytrd_strided_batched = bind(SYTRD, D, STRIDED)
chetrd_strided_batched = bind(HETRD, C, STRIDED)
zhetrd_strided_batched = bind(HETRD, Z, STRIDED)
sgebd2 = bind(GEBD2, S)
dgebd2 = bind(GEBD2, D)
cgebd2 = bind(GEBD2, C)
zgebd2 = bind(GEBD2, Z)
sgebd2_batched = bind(GEBD2, S, BATCHED)
dgebd2_batched = bind(GEBD2, D, BATCHED)
cgebd2_batched = bind(GEBD2, C, BATCHED)
zgebd2_batched = bind(GEBD2, Z, BATCHED)
sgebd2_strided_batched = bind(GEBD2, S, STRIDED)
dgebd2_strided_batched = bind(GEBD2, D, STRIDED)
cgebd2_strided_batched = bind(GEBD2, C, STRIDED)
zgebd2_strided_batched = bind(GEBD2, Z, STRIDED)
sgebrd = bind(GEBRD, S)
dgebrd = bind(GEBRD, D)
cgebrd = bind(GEBRD, C)
zgebrd = bind(GEBRD, Z)
sgebrd_batched = bind(GEBRD, S, BATCHED)
dgebrd_batched = bind(GEBRD, D, BATCHED)
cgebrd_batched = bind(GEBRD, C, BATCHED)
zgebrd_batched = bind(GEBRD, Z, BATCHED)
sgebrd_strided_batched = bind(GEBRD, S, STRIDED)
dgebrd_strided_batched = bind(GEBRD, D, STRIDED)
cgebrd_strided_batched = bind(GEBRD, C, STRIDED)
zgebrd_strided_batched = bind(GEBRD, Z, STRIDED)
ssyev = bind(SYEV, S)
dsyev = bind(SYEV, D)
cheev = bind(HEEV, C)
zheev = bind(HEEV, Z)
ssyev_batched = bind(SYEV, S, BATCHED)
dsyev_batched = bind(SYEV, D, BATCHED)
cheev_batched = bind(HEEV, C, BATCHED)
zheev_batched = bind(HEEV, Z, BATCHED)
ssyev_strided_batched = bind(SYEV, S, STRIDED)
dsyev_strided_batched = bind(SYEV, D, STRIDED)
cheev_strided_batched = bind(HEEV, C, STRIDED)
zheev_strided_batched = bind(HEEV, Z, STRIDED)
ssyevd = bind(SYEVD, S)
dsyevd = bind(SYEVD, D)
cheevd = bind(HEEVD, C)
zheevd = bind(HEEVD, Z)
ssyevd_batched = bind(SYEVD, S, BATCHED)
dsyevd_batched = bind(SYEVD, D, BATCHED)
cheevd_batched = bind(HEEVD, C, BATCHED)
zheevd_batched = bind(HEEVD, Z, BATCHED)
ssyevd_strided_batched = bind(SYEVD, S, STRIDED)
dsyevd_strided_batched = bind(SYEVD, D, STRIDED)
cheevd_strided_batched = bind(HEEVD, C, STRIDED)
zheevd_strided_batched = bind(HEEVD, Z, STRIDED)
ssyevj = bind(SYEVJ, S)
dsyevj = bind(SYEVJ, D)
cheevj = bind(HEEVJ, C)
zheevj = bind(HEEVJ, Z)
ssyevj_batched = bind(SYEVJ, S, BATCHED)
dsyevj_batched = bind(SYEVJ, D, BATCHED)
cheevj_batched = bind(HEEVJ, C, BATCHED)
zheevj_batched = bind(HEEVJ, Z, BATCHED)
ssyevj_strided_batched = bind(SYEVJ, S, STRIDED)
dsyevj_strided_batched = bind(SYEVJ, D, STRIDED)
cheevj_strided_batched = bind(HEEVJ, C, STRIDED)
zheevj_strided_batched = bind(HEEVJ, Z, STRIDED)
ssygv = bind(SYGV, S)
dsygv = bind(SYGV, D)
chegv = bind(HEGV, C)
zhegv = bind(HEGV, Z)
ssygv_batched = bind(SYGV, S, BATCHED)
dsygv_batched = bind(SYGV, D, BATCHED)
chegv_batched = bind(HEGV, C, BATCHED)
zhegv_batched = bind(HEGV, Z, BATCHED)
ssygv_strided_batched = bind(SYGV, S, STRIDED)
dsygv_strided_batched = bind(SYGV, D, STRIDED)
chegv_strided_batched = bind(HEGV, C, STRIDED)
zhegv_strided_batched = bind(HEGV, Z, STRIDED)
sgesvd = bind(GESVD, S)
dgesvd = bind(GESVD, D)
cgesvd = bind(GESVD, C)
zgesvd = bind(GESVD, Z)
sgesvd_batched = bind(GESVD, S, BATCHED)
dgesvd_batched = bind(GESVD, D, BATCHED)
cgesvd_batched = bind(GESVD, C, BATCHED)
zgesvd_batched = bind(GESVD, Z, BATCHED)
sgesvd_strided_batched = bind(GESVD, S, STRIDED)
dgesvd_strided_batched = bind(GESVD, D, STRIDED)
cgesvd_strided_batched = bind(GESVD, C, STRIDED)
zgesvd_strided_batched = bind(GESVD, Z, STRIDED)
sgesvdj = bind(GESVDJ, S)
dgesvdj = bind(GESVDJ, D)
cgesvdj = bind(GESVDJ, C)
zgesvdj = bind(GESVDJ, Z)
sgesvdj_batched = bind(GESVDJ, S, BATCHED)
dgesvdj_batched = bind(GESVDJ, D, BATCHED)
cgesvdj_batched = bind(GESVDJ, C, BATCHED)
zgesvdj_batched = bind(GESVDJ, Z, BATCHED)
sgesvdj_strided_batched = bind(GESVDJ, S, STRIDED)
dgesvdj_strided_batched = bind(GESVDJ, D, STRIDED)
cgesvdj_strided_batched = bind(GESVDJ, C, STRIDED)
zgesvdj_strided_batched = bind(GESVDJ, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
