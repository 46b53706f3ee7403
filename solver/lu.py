"""The LU family: getf2/getrf (+ ``_npvt``), getrs, gesv, getri (+ ``_npvt``, ``_outofplace``), laswp.

Each routine is two phases in rocSOLVER's check order (see :mod:`rocmath.solver._api`):
``_check_*`` (enums, then sizes: invalid_value, invalid_size) and the body (null
pointers where the sizes need them: invalid_pointer; the quick return; the
launch).  Quick returns follow rocSOLVER: nothing happens for ``batch_count == 0``;
an empty matrix sets ``info`` to 0 and touches nothing else (gesv: also ``nrhs ==
0``, without factoring A).

Numerical failure is data: ``info[b] = i > 0`` when U(i, i) of entry b is the first
exact zero pivot; the factorization goes on past it as LAPACK's does.  getri and
gesv leave the outputs of a singular entry as they were (rocSOLVER: "undefined").
The work is :mod:`rocmath.solver._kernels_lu`.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_lu as kl
from ._api import BATCHED, STRIDED, IntVector, SolverCall, SolverRoutine, bind, public_names
from ._types import Operation

_INT = np.dtype(np.int32)


class _Dims(NamedTuple):
    """The checked sizes of one call."""

    m: int
    n: int
    batch: int
    nrhs: int = 0
    trans: Operation = Operation.none


def _extent(rows: int, cols: int, ld: int) -> int:
    """Elements one column-major entry spans."""
    return 0 if rows == 0 or cols == 0 else ld * (cols - 1) + rows


def _flops(c: SolverCall, muladds: float) -> float:
    """Real flops for the launch record: a complex multiply-add is 8 real flops."""
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, *elements: float) -> float:
    """Bytes the launch reads and writes (its matrices, read and written once each)."""
    return 2.0 * c.dims.batch * c.precision.itemsize * sum(elements)


# --- getf2, getrf, getf2_npvt, getrf_npvt ------------------------------------------------------------


def _check_getrf(c: SolverCall) -> _Dims:
    m, n = c.sizes("m", "n")
    c.lds(("lda", m))
    (batch,) = c.sizes("batch_count")
    return _Dims(m, n, batch)


def _getrf_workspace(c: SolverCall, pivot: bool) -> int:
    m, n, batch = c.dims[:3]
    return kl.getrf_workspace(m, n, batch, c.precision.itemsize, pivot)


def _getrf(c: SolverCall, pivot: bool) -> None:
    m, n, batch = c.dims[:3]
    c.require("A", when=m > 0 and n > 0)
    if pivot:
        c.require("ipiv", when=m > 0 and n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, m, n):
        return
    k, lda = min(m, n), c.int("lda")
    a = c.matrix("A", m, n, lda, writable=True)
    piv = c.vector("ipiv", k, writable=True, dtype=c.int_dtype) if pivot else None
    serial = c.overlapping(("A", _extent(m, n, lda)), *((("ipiv", k),) if pivot else ()))
    work = c.workspace_buffer()
    c.launch(kl.getrf, a, piv, c.info(), serial, work, flops=_flops(c, m * n * k - (m + n) * k * k / 2 + k**3 / 3),
             bytes=_bytes(c, m * n))


def _pivot_count(dims: _Dims) -> int:
    """Pivots per entry: min(m, n) (getrs: n)."""
    return min(dims.m, dims.n)


def _pivots_in_range(ipiv: np.ndarray, dims: _Dims) -> None:
    """getrs reads every pivot of every entry: each must name a row 1..n (MemoryAccessFault)."""
    kl._check_pivots(ipiv, dims.n)


_GETRF_PARAMS = ("m", "n", "A", "lda", "ipiv", "info")
_NPVT_PARAMS = ("m", "n", "A", "lda", "info")
_P = {"ipiv": "strideP"}
# ipiv: rocblas_int, int64_t in the _64 functions (written by getrf, read by getrs).
_PIV_OUT = {"ipiv": IntVector(_pivot_count)}
_PIV_IN = {"ipiv": IntVector(_pivot_count, _pivots_in_range)}
_PIVOT_WS, _NPVT_WS = partial(_getrf_workspace, pivot=True), partial(_getrf_workspace, pivot=False)
GETF2 = SolverRoutine("getf2", _GETRF_PARAMS, {"A": "lda"}, partial(_getrf, pivot=True), check=_check_getrf,
                      workspace=_PIVOT_WS, vectors=_P, int_vectors=_PIV_OUT,
                      summary="LU factorization P A = L U with partial pivoting (unblocked algorithm); 1-based pivots "
                              "in ipiv, info = first zero pivot.")
GETRF = SolverRoutine("getrf", _GETRF_PARAMS, {"A": "lda"}, partial(_getrf, pivot=True), check=_check_getrf,
                      workspace=_PIVOT_WS, vectors=_P, int_vectors=_PIV_OUT,
                      summary="LU factorization P A = L U with partial pivoting (blocked algorithm); 1-based pivots in "
                              "ipiv, info = first zero pivot.")
GETF2_NPVT = SolverRoutine("getf2_npvt", _NPVT_PARAMS, {"A": "lda"}, partial(_getrf, pivot=False),
                           check=_check_getrf, workspace=_NPVT_WS,
                           summary="LU factorization A = L U without pivoting (unblocked algorithm); info = first zero "
                                   "pivot.")
GETRF_NPVT = SolverRoutine("getrf_npvt", _NPVT_PARAMS, {"A": "lda"}, partial(_getrf, pivot=False),
                           check=_check_getrf, workspace=_NPVT_WS,
                           summary="LU factorization A = L U without pivoting (blocked algorithm); info = first zero "
                                   "pivot.")


# --- getrs ---------------------------------------------------------------------------------------


def _check_getrs(c: SolverCall) -> _Dims:
    trans = c.enum("trans", Operation)
    n, nrhs = c.sizes("n", "nrhs")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, nrhs, trans)


def _getrs_workspace(c: SolverCall) -> int:
    n, _, batch, nrhs, _ = c.dims
    return kl.getrs_workspace(n, nrhs, batch, c.precision.itemsize)


def _getrs(c: SolverCall) -> None:
    n, _, batch, nrhs, trans = c.dims
    c.require("A", "ipiv", when=n > 0)
    c.require("B", when=n > 0 and nrhs > 0)
    if n == 0 or nrhs == 0 or batch == 0:
        return
    ldb = c.int("ldb")
    a = c.matrix("A", n, n, c.int("lda"))
    piv = c.vector("ipiv", n, dtype=c.int_dtype)
    b = c.matrix("B", n, nrhs, ldb, writable=True)
    serial = c.overlapping(("B", _extent(n, nrhs, ldb)))
    work = c.workspace_buffer()
    c.launch(kl.getrs, ord(trans.letter), a, piv, b, serial, work, flops=_flops(c, n * n * nrhs),
             bytes=_bytes(c, n * n / 2, n * nrhs))


GETRS = SolverRoutine("getrs", ("trans", "n", "nrhs", "A", "lda", "ipiv", "B", "ldb"), {"A": "lda", "B": "ldb"},
                      _getrs, check=_check_getrs, workspace=_getrs_workspace, vectors=_P, int_vectors=_PIV_IN,
                      summary="Solve op(A) X = B with the LU factorization and pivots of getrf; X overwrites B.")


# --- gesv ----------------------------------------------------------------------------------------


def _check_gesv(c: SolverCall) -> _Dims:
    n, nrhs = c.sizes("n", "nrhs")
    c.lds(("lda", n), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch, nrhs)


def _gesv_workspace(c: SolverCall) -> int:
    n, _, batch, nrhs, _ = c.dims
    return kl.gesv_workspace(n, nrhs, batch, c.precision.itemsize)


def _gesv(c: SolverCall) -> None:
    n, _, batch, nrhs, _ = c.dims
    c.require("A", "ipiv", when=n > 0)
    c.require("B", when=n > 0 and nrhs > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n, nrhs):  # rocSOLVER: info = 0, A is not factored
        return
    lda, ldb = c.int("lda"), c.int("ldb")
    a = c.matrix("A", n, n, lda, writable=True)
    piv = c.vector("ipiv", n, writable=True, dtype=_INT)
    b = c.matrix("B", n, nrhs, ldb, writable=True)
    serial = c.overlapping(("A", _extent(n, n, lda)), ("ipiv", n), ("B", _extent(n, nrhs, ldb)))
    work = c.workspace_buffer()
    c.launch(kl.gesv, a, piv, b, c.info(), serial, work, flops=_flops(c, 2 * n**3 / 3 + n * n * nrhs),
             bytes=_bytes(c, n * n, n * nrhs))


GESV = SolverRoutine("gesv", ("n", "nrhs", "A", "lda", "ipiv", "B", "ldb", "info"), {"A": "lda", "B": "ldb"}, _gesv,
                     check=_check_gesv, workspace=_gesv_workspace, vectors=_P,
                     summary="Solve A X = B by the LU factorization with partial pivoting (A and ipiv get it, X "
                             "overwrites B; a singular A, info > 0, leaves B as it was).")


# --- getri, getri_npvt, getri_outofplace, getri_npvt_outofplace --------------------------------------


def _check_getri(c: SolverCall, out: bool) -> _Dims:
    (n,) = c.sizes("n")
    c.lds(("lda", n), *((("ldc", n),) if out else ()))
    (batch,) = c.sizes("batch_count")
    return _Dims(n, n, batch)


def _getri_workspace(c: SolverCall) -> int:
    return kl.getri_workspace(c.dims.n, c.dims.batch, c.precision.itemsize, "ipiv" in c.routine.params)


def _getri(c: SolverCall, pivot: bool, out: bool) -> None:
    n, _, batch = c.dims[:3]
    c.require("A", when=n > 0)
    if out:
        c.require("C", when=n > 0)
    if pivot:
        c.require("ipiv", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return
    lda = c.int("lda")
    a = c.matrix("A", n, n, lda, writable=not out)
    target, ld = ("C", c.int("ldc")) if out else ("A", lda)
    dest = c.matrix("C", n, n, ld, writable=True) if out else None  # None: in place
    piv = c.vector("ipiv", n, dtype=_INT) if pivot else None
    work = c.workspace_buffer()
    serial = c.overlapping((target, _extent(n, n, ld)))
    c.launch(kl.getri, a, piv, dest, c.info(), serial, work, flops=_flops(c, 2 * n**3 / 3),
             bytes=_bytes(c, n * n))


_GETRI_SUMMARY = ("Inverse of A from the LU factorization of getrf{how}; info = first zero on U's diagonal (the "
                  "output of a singular entry is left as it was).")
GETRI = SolverRoutine("getri", ("n", "A", "lda", "ipiv", "info"), {"A": "lda"},
                      partial(_getri, pivot=True, out=False), check=partial(_check_getri, out=False),
                      workspace=_getri_workspace, vectors=_P,
                      summary=_GETRI_SUMMARY.format(how=" (with its pivots), in place"))
GETRI_NPVT = SolverRoutine("getri_npvt", ("n", "A", "lda", "info"), {"A": "lda"},
                           partial(_getri, pivot=False, out=False), check=partial(_check_getri, out=False),
                           workspace=_getri_workspace,
                           summary=_GETRI_SUMMARY.format(how="_npvt (no pivoting), in place"))
GETRI_OUTOFPLACE = SolverRoutine("getri_outofplace", ("n", "A", "lda", "ipiv", "C", "ldc", "info"),
                                 {"A": "lda", "C": "ldc"}, partial(_getri, pivot=True, out=True),
                                 check=partial(_check_getri, out=True), workspace=_getri_workspace, vectors=_P,
                                 summary=_GETRI_SUMMARY.format(how=" (with its pivots), into C; A is not changed"))
GETRI_NPVT_OUTOFPLACE = SolverRoutine("getri_npvt_outofplace", ("n", "A", "lda", "C", "ldc", "info"),
                                      {"A": "lda", "C": "ldc"}, partial(_getri, pivot=False, out=True),
                                      check=partial(_check_getri, out=True), workspace=_getri_workspace,
                                      summary=_GETRI_SUMMARY.format(how="_npvt (no pivoting), into C; A is not "
                                                                        "changed"))


# --- laswp ---------------------------------------------------------------------------------------


def _check_laswp(c: SolverCall) -> _Dims:
    (n,) = c.sizes("n")
    c.lds(("lda", 1))
    k1, k2 = c.int("k1"), c.int("k2")
    if k1 < 1:
        raise c.invalid_size("k1", f"must be >= 1, got {k1}")
    if k2 < max(1, k1):
        raise c.invalid_size("k2", f"must be >= max(1, k1) = {max(1, k1)}, got {k2}")
    if c.int("incx") == 0:
        raise c.invalid_size("incx", "must not be 0")
    return _Dims(c.int("lda"), n, 1)


def _laswp(c: SolverCall) -> None:
    lda, n = c.dims[:2]
    c.require("A", when=n > 0)
    c.require("ipiv")
    if n == 0:
        return
    k1, k2, incx = c.int("k1"), c.int("k2"), c.int("incx")
    a = c.matrix("A", lda, n, lda, writable=True)  # pivots may name any row up to lda
    piv = c.array("ipiv", k1 + (k2 - k1) * abs(incx), _INT)
    c.launch(kl.laswp, a, piv, k1, k2, incx, bytes=2.0 * c.precision.itemsize * n * (k2 - k1 + 1))


LASWP = SolverRoutine("laswp", ("n", "A", "lda", "k1", "k2", "ipiv", "incx"), {"A": "lda"}, _laswp,
                      check=_check_laswp, pointers=("ipiv",),
                      summary="Row interchanges of the n columns of A: row i with row ipiv[k1 + (i - k1) |incx|] "
                              "(1-based) for i = k1..k2, in reverse order when incx < 0.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgetf2 = bind(GETF2, S)
dgetf2 = bind(GETF2, D)
cgetf2 = bind(GETF2, C)
zgetf2 = bind(GETF2, Z)
sgetf2_batched = bind(GETF2, S, BATCHED)
dgetf2_batched = bind(GETF2, D, BATCHED)
cgetf2_batched = bind(GETF2, C, BATCHED)
zgetf2_batched = bind(GETF2, Z, BATCHED)
sgetf2_strided_batched = bind(GETF2, S, STRIDED)
dgetf2_strided_batched = bind(GETF2, D, STRIDED)
cgetf2_strided_batched = bind(GETF2, C, STRIDED)
zgetf2_strided_batched = bind(GETF2, Z, STRIDED)
sgetf2_64 = bind(GETF2, S, ilp64=True)
dgetf2_64 = bind(GETF2, D, ilp64=True)
cgetf2_64 = bind(GETF2, C, ilp64=True)
zgetf2_64 = bind(GETF2, Z, ilp64=True)
sgetf2_batched_64 = bind(GETF2, S, BATCHED, ilp64=True)
dgetf2_batched_64 = bind(GETF2, D, BATCHED, ilp64=True)
cgetf2_batched_64 = bind(GETF2, C, BATCHED, ilp64=True)
zgetf2_batched_64 = bind(GETF2, Z, BATCHED, ilp64=True)
sgetf2_strided_batched_64 = bind(GETF2, S, STRIDED, ilp64=True)
dgetf2_strided_batched_64 = bind(GETF2, D, STRIDED, ilp64=True)
cgetf2_strided_batched_64 = bind(GETF2, C, STRIDED, ilp64=True)
zgetf2_strided_batched_64 = bind(GETF2, Z, STRIDED, ilp64=True)
sgetrf = bind(GETRF, S)
dgetrf = bind(GETRF, D)
cgetrf = bind(GETRF, C)
zgetrf = bind(GETRF, Z)
sgetrf_batched = bind(GETRF, S, BATCHED)
dgetrf_batched = bind(GETRF, D, BATCHED)
cgetrf_batched = bind(GETRF, C, BATCHED)
zgetrf_batched = bind(GETRF, Z, BATCHED)
sgetrf_strided_batched = bind(GETRF, S, STRIDED)
dgetrf_strided_batched = bind(GETRF, D, STRIDED)
cgetrf_strided_batched = bind(GETRF, C, STRIDED)
zgetrf_strided_batched = bind(GETRF, Z, STRIDED)
sgetrf_64 = bind(GETRF, S, ilp64=True)
dgetrf_64 = bind(GETRF, D, ilp64=True)
cgetrf_64 = bind(GETRF, C, ilp64=True)
zgetrf_64 = bind(GETRF, Z, ilp64=True)
sgetrf_batched_64 = bind(GETRF, S, BATCHED, ilp64=True)
dgetrf_batched_64 = bind(GETRF, D, BATCHED, ilp64=True)
cgetrf_batched_64 = bind(GETRF, C, BATCHED, ilp64=True)
zgetrf_batched_64 = bind(GETRF, Z, BATCHED, ilp64=True)
sgetrf_strided_batched_64 = bind(GETRF, S, STRIDED, ilp64=True)
dgetrf_strided_batched_64 = bind(GETRF, D, STRIDED, ilp64=True)
cgetrf_strided_batched_64 = bind(GETRF, C, STRIDED, ilp64=True)
zgetrf_strided_batched_64 = bind(GETRF, Z, STRIDED, ilp64=True)
sgetf2_npvt = bind(GETF2_NPVT, S)
dgetf2_npvt = bind(GETF2_NPVT, D)
cgetf2_npvt = bind(GETF2_NPVT, C)
zgetf2_npvt = bind(GETF2_NPVT, Z)
sgetf2_npvt_batched = bind(GETF2_NPVT, S, BATCHED)
dgetf2_npvt_batched = bind(GETF2_NPVT, D, BATCHED)
cgetf2_npvt_batched = bind(GETF2_NPVT, C, BATCHED)
zgetf2_npvt_batched = bind(GETF2_NPVT, Z, BATCHED)
sgetf2_npvt_strided_batched = bind(GETF2_NPVT, S, STRIDED)
dgetf2_npvt_strided_batched = bind(GETF2_NPVT, D, STRIDED)
cgetf2_npvt_strided_batched = bind(GETF2_NPVT, C, STRIDED)
zgetf2_npvt_strided_batched = bind(GETF2_NPVT, Z, STRIDED)
sgetf2_npvt_64 = bind(GETF2_NPVT, S, ilp64=True)
dgetf2_npvt_64 = bind(GETF2_NPVT, D, ilp64=True)
cgetf2_npvt_64 = bind(GETF2_NPVT, C, ilp64=True)
zgetf2_npvt_64 = bind(GETF2_NPVT, Z, ilp64=True)
sgetf2_npvt_batched_64 = bind(GETF2_NPVT, S, BATCHED, ilp64=True)
dgetf2_npvt_batched_64 = bind(GETF2_NPVT, D, BATCHED, ilp64=True)
cgetf2_npvt_batched_64 = bind(GETF2_NPVT, C, BATCHED, ilp64=True)
zgetf2_npvt_batched_64 = bind(GETF2_NPVT, Z, BATCHED, ilp64=True)
sgetf2_npvt_strided_batched_64 = bind(GETF2_NPVT, S, STRIDED, ilp64=True)
dgetf2_npvt_strided_batched_64 = bind(GETF2_NPVT, D, STRIDED, ilp64=True)
cgetf2_npvt_strided_batched_64 = bind(GETF2_NPVT, C, STRIDED, ilp64=True)
zgetf2_npvt_strided_batched_64 = bind(GETF2_NPVT, Z, STRIDED, ilp64=True)
sgetrf_npvt = bind(GETRF_NPVT, S)
dgetrf_npvt = bind(GETRF_NPVT, D)
cgetrf_npvt = bind(GETRF_NPVT, C)
zgetrf_npvt = bind(GETRF_NPVT, Z)
sgetrf_npvt_batched = bind(GETRF_NPVT, S, BATCHED)
dgetrf_npvt_batched = bind(GETRF_NPVT, D, BATCHED)
cgetrf_npvt_batched = bind(GETRF_NPVT, C, BATCHED)
zgetrf_npvt_batched = bind(GETRF_NPVT, Z, BATCHED)
sgetrf_npvt_strided_batched = bind(GETRF_NPVT, S, STRIDED)
dgetrf_npvt_strided_batched = bind(GETRF_NPVT, D, STRIDED)
cgetrf_npvt_strided_batched = bind(GETRF_NPVT, C, STRIDED)
zgetrf_npvt_strided_batched = bind(GETRF_NPVT, Z, STRIDED)
sgetrf_npvt_64 = bind(GETRF_NPVT, S, ilp64=True)
dgetrf_npvt_64 = bind(GETRF_NPVT, D, ilp64=True)
cgetrf_npvt_64 = bind(GETRF_NPVT, C, ilp64=True)
zgetrf_npvt_64 = bind(GETRF_NPVT, Z, ilp64=True)
sgetrf_npvt_batched_64 = bind(GETRF_NPVT, S, BATCHED, ilp64=True)
dgetrf_npvt_batched_64 = bind(GETRF_NPVT, D, BATCHED, ilp64=True)
cgetrf_npvt_batched_64 = bind(GETRF_NPVT, C, BATCHED, ilp64=True)
zgetrf_npvt_batched_64 = bind(GETRF_NPVT, Z, BATCHED, ilp64=True)
sgetrf_npvt_strided_batched_64 = bind(GETRF_NPVT, S, STRIDED, ilp64=True)
dgetrf_npvt_strided_batched_64 = bind(GETRF_NPVT, D, STRIDED, ilp64=True)
cgetrf_npvt_strided_batched_64 = bind(GETRF_NPVT, C, STRIDED, ilp64=True)
zgetrf_npvt_strided_batched_64 = bind(GETRF_NPVT, Z, STRIDED, ilp64=True)
sgetrs = bind(GETRS, S)
dgetrs = bind(GETRS, D)
cgetrs = bind(GETRS, C)
zgetrs = bind(GETRS, Z)
sgetrs_batched = bind(GETRS, S, BATCHED)
dgetrs_batched = bind(GETRS, D, BATCHED)
cgetrs_batched = bind(GETRS, C, BATCHED)
zgetrs_batched = bind(GETRS, Z, BATCHED)
sgetrs_strided_batched = bind(GETRS, S, STRIDED)
dgetrs_strided_batched = bind(GETRS, D, STRIDED)
cgetrs_strided_batched = bind(GETRS, C, STRIDED)
zgetrs_strided_batched = bind(GETRS, Z, STRIDED)
sgetrs_64 = bind(GETRS, S, ilp64=True)
dgetrs_64 = bind(GETRS, D, ilp64=True)
cgetrs_64 = bind(GETRS, C, ilp64=True)
zgetrs_64 = bind(GETRS, Z, ilp64=True)
sgetrs_batched_64 = bind(GETRS, S, BATCHED, ilp64=True)
dgetrs_batched_64 = bind(GETRS, D, BATCHED, ilp64=True)
cgetrs_batched_64 = bind(GETRS, C, BATCHED, ilp64=True)
zgetrs_batched_64 = bind(GETRS, Z, BATCHED, ilp64=True)
sgetrs_strided_batched_64 = bind(GETRS, S, STRIDED, ilp64=True)
dgetrs_strided_batched_64 = bind(GETRS, D, STRIDED, ilp64=True)
cgetrs_strided_batched_64 = bind(GETRS, C, STRIDED, ilp64=True)
zgetrs_strided_batched_64 = bind(GETRS, Z, STRIDED, ilp64=True)
sgesv = bind(GESV, S)
dgesv = bind(GESV, D)
cgesv = bind(GESV, C)
zgesv = bind(GESV, Z)
sgesv_batched = bind(GESV, S, BATCHED)
dgesv_batched = bind(GESV, D, BATCHED)
cgesv_batched = bind(GESV, C, BATCHED)
zgesv_batched = bind(GESV, Z, BATCHED)
sgesv_strided_batched = bind(GESV, S, STRIDED)
dgesv_strided_batched = bind(GESV, D, STRIDED)
cgesv_strided_batched = bind(GESV, C, STRIDED)
zgesv_strided_batched = bind(GESV, Z, STRIDED)
sgetri = bind(GETRI, S)
dgetri = bind(GETRI, D)
cgetri = bind(GETRI, C)
zgetri = bind(GETRI, Z)
sgetri_batched = bind(GETRI, S, BATCHED)
dgetri_batched = bind(GETRI, D, BATCHED)
cgetri_batched = bind(GETRI, C, BATCHED)
zgetri_batched = bind(GETRI, Z, BATCHED)
sgetri_strided_batched = bind(GETRI, S, STRIDED)
dgetri_strided_batched = bind(GETRI, D, STRIDED)
cgetri_strided_batched = bind(GETRI, C, STRIDED)
zgetri_strided_batched = bind(GETRI, Z, STRIDED)
sgetri_npvt = bind(GETRI_NPVT, S)
dgetri_npvt = bind(GETRI_NPVT, D)
cgetri_npvt = bind(GETRI_NPVT, C)
zgetri_npvt = bind(GETRI_NPVT, Z)
sgetri_npvt_batched = bind(GETRI_NPVT, S, BATCHED)
dgetri_npvt_batched = bind(GETRI_NPVT, D, BATCHED)
cgetri_npvt_batched = bind(GETRI_NPVT, C, BATCHED)
zgetri_npvt_batched = bind(GETRI_NPVT, Z, BATCHED)
sgetri_npvt_strided_batched = bind(GETRI_NPVT, S, STRIDED)
dgetri_npvt_strided_batched = bind(GETRI_NPVT, D, STRIDED)
cgetri_npvt_strided_batched = bind(GETRI_NPVT, C, STRIDED)
zgetri_npvt_strided_batched = bind(GETRI_NPVT, Z, STRIDED)
sgetri_outofplace = bind(GETRI_OUTOFPLACE, S)
dgetri_outofplace = bind(GETRI_OUTOFPLACE, D)
cgetri_outofplace = bind(GETRI_OUTOFPLACE, C)
zgetri_outofplace = bind(GETRI_OUTOFPLACE, Z)
sgetri_outofplace_batched = bind(GETRI_OUTOFPLACE, S, BATCHED)
dgetri_outofplace_batched = bind(GETRI_OUTOFPLACE, D, BATCHED)
cgetri_outofplace_batched = bind(GETRI_OUTOFPLACE, C, BATCHED)
zgetri_outofplace_batched = bind(GETRI_OUTOFPLACE, Z, BATCHED)
sgetri_outofplace_strided_batched = bind(GETRI_OUTOFPLACE, S, STRIDED)
dgetri_outofplace_strided_batched = bind(GETRI_OUTOFPLACE, D, STRIDED)
cgetri_outofplace_strided_batched = bind(GETRI_OUTOFPLACE, C, STRIDED)
zgetri_outofplace_strided_batched = bind(GETRI_OUTOFPLACE, Z, STRIDED)
sgetri_npvt_outofplace = bind(GETRI_NPVT_OUTOFPLACE, S)
dgetri_npvt_outofplace = bind(GETRI_NPVT_OUTOFPLACE, D)
cgetri_npvt_outofplace = bind(GETRI_NPVT_OUTOFPLACE, C)
zgetri_npvt_outofplace = bind(GETRI_NPVT_OUTOFPLACE, Z)
sgetri_npvt_outofplace_batched = bind(GETRI_NPVT_OUTOFPLACE, S, BATCHED)
dgetri_npvt_outofplace_batched = bind(GETRI_NPVT_OUTOFPLACE, D, BATCHED)
cgetri_npvt_outofplace_batched = bind(GETRI_NPVT_OUTOFPLACE, C, BATCHED)
zgetri_npvt_outofplace_batched = bind(GETRI_NPVT_OUTOFPLACE, Z, BATCHED)
sgetri_npvt_outofplace_strided_batched = bind(GETRI_NPVT_OUTOFPLACE, S, STRIDED)
dgetri_npvt_outofplace_strided_batched = bind(GETRI_NPVT_OUTOFPLACE, D, STRIDED)
cgetri_npvt_outofplace_strided_batched = bind(GETRI_NPVT_OUTOFPLACE, C, STRIDED)
zgetri_npvt_outofplace_strided_batched = bind(GETRI_NPVT_OUTOFPLACE, Z, STRIDED)
slaswp = bind(LASWP, S)
dlaswp = bind(LASWP, D)
claswp = bind(LASWP, C)
zlaswp = bind(LASWP, Z)
# fmt: on

__all__ = public_names(globals())
