"""Block tridiagonal LU without pivoting: geblttrf_npvt (factorization) and geblttrs_npvt (solve).

The matrix M has ``nblocks`` diagonal blocks B_1..B_n of size nb x nb, sub-diagonal blocks A_1..A_{n-1}
and super-diagonal blocks C_1..C_{n-1} (block row k holds A_{k-1}, B_k, C_k).  Each of A, B, C is one
array per batch entry holding its blocks one after another: block k of A starts ``k * lda * nb``
elements after the entry's start, and element (i, j) of a block is ``i * inca + j * lda`` past the
block's start (``inca = 1`` except in the interleaved form), so an entry is an ``nb x nb*nblocks`` (B)
or ``nb x nb*(nblocks-1)`` (A, C) column-major matrix with rows ``inca`` apart.  geblttrs's right-hand
sides X are laid out alike with ``nrhs`` columns a block: block k starts ``k * ldx * nrhs`` in.

geblttrf_npvt writes M = L U with L block lower bidiagonal (diagonal blocks L_k, the A_k below them)
and U block upper bidiagonal (identity diagonal blocks, U_k above them): B_k is overwritten by the
LU factors (getrf_npvt's packed form) of the Schur complement S_1 = B_1, S_{k+1} = B_{k+1} - A_k U_k,
and C_k by U_k = inv(S_k) C_k; A is not written.  info is 0, or the first zero pivot in the order of
M's rows: (k - 1) * nb + i for the i-th pivot of S_k (1-based) of the first block that has one; the
factorization goes on past it (its later blocks are garbage).  geblttrs_npvt solves M X = R with
those factors, X overwriting R: forward, X_k := inv(S_k) (R_k - A_{k-1} X_{k-1}); backward,
X_k := X_k - U_k X_{k+1}.

Flavours, names and parameters are rocsolver-functions.h's: plain, ``_batched`` (A, B, C, X device
arrays of device pointers), ``_strided_batched`` (``strideA``... after each leading dimension) and
``_interleaved_batched``, whose every matrix takes an increment between its rows, its leading
dimension and its stride between entries (``A, inca, lda, strideA``; normal use ``inca =
batch_count, strideA = 1``: entries interleaved element by element) and ``batch_count``.

Checks and quick returns follow library/src/lapack/roclapack_geblttrf_npvt.hpp and
roclapack_geblttrs_npvt.hpp (the ``*_impl`` of each flavour pass inc = 1 but for the interleaved
form): sizes nb, nblocks, (nrhs,) batch_count < 0; then per matrix (A, B, C, X) ``inc < 1`` or ``ld <
inc * nb`` (invalid_size, even where the matrix is not used); a size query stops there; pointers A and
C when nb > 0 and nblocks > 1, B when nb > 0 and nblocks > 0, X when moreover nrhs > 0, info when
batch_count > 0 (invalid_pointer).  Quick return: nb, nblocks (geblttrs: or nrhs) or batch_count 0
touches nothing, *info neither* (rocSOLVER returns before its first getrf, which is what writes info).

How they are computed (no new kernels): per block, for all entries at once, getrf_npvt's kernel
(:func:`rocmath.solver._kernels_lu.getrf` without pivots), getrs's kernel
(:func:`rocmath.solver._kernels_lu.getrs`, with identity pivots: a solve with L then U, as rocSOLVER's
getrs without ipiv; for an entry with an exact zero on U's diagonal rocBLAS trsm's kernel
:func:`rocmath.blas._kernels_l3.trsm`, which divides by it as the GPU does: infinities and NaNs) and
rocBLAS gemm's kernel (:func:`rocmath.blas._kernels_l3.gemm`), in rocSOLVER's order.  The workspace
holds the identity pivots and per-block info, then the larger of getrf's and getrs's own scratch.
Entries whose written arrays share elements (a zero stride, say) are processed one after another, so
that the last one's values win.  Operands whose rows are not contiguous (interleaved, inc > 1) are
worked on in column-major host copies, written back at the end.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np

from rocmath.batch import BatchOperand
from rocmath.blas import _kernels_l3 as k3
from rocmath.precision import C, D, Precision, S, Z

from . import _kernels_lu as kl
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._workspace import host_carve, layout

_INT = np.dtype(np.int32)
_NONUNIT = ord("N")


class _Dims(NamedTuple):
    """The checked sizes of one call."""

    nb: int
    nblocks: int
    batch: int
    nrhs: int = 0


def _interleaved(c: SolverCall) -> bool:
    return "inca" in c.routine.params


def _inc(c: SolverCall, matrix: str) -> int:
    """The increment between a matrix's rows: its ``inc`` argument in the interleaved form, else 1."""
    return c.int(f"inc{matrix.lower()}") if _interleaved(c) else 1


def _check_lds(c: SolverCall, nb: int, matrices: str) -> None:
    """Per matrix, in order: inc >= 1 (interleaved form), then ld >= inc * nb."""
    for matrix in matrices:
        inc = _inc(c, matrix)
        if inc < 1:
            raise c.invalid_size(f"inc{matrix.lower()}", f"must be >= 1, got {inc}")
        ld_name = f"ld{matrix.lower()}"
        ld = c.int(ld_name)
        if ld < inc * nb:
            raise c.invalid_size(ld_name, f"must be >= {inc * nb} (inc{matrix.lower()} * nb), got {ld}"
                                 if _interleaved(c) else f"must be >= nb = {nb}, got {ld}")


def _operand(c: SolverCall, matrix: str, rows: int, cols: int, *, writable: bool = False) -> BatchOperand:
    """One matrix argument as an ``rows x cols`` entry: its blocks side by side."""
    ld = c.int(f"ld{matrix.lower()}")
    if not _interleaved(c):
        return c.matrix(matrix, rows, cols, ld, writable=writable)
    return BatchOperand(c.ptr(matrix), c.dtype, (rows, cols), (_inc(c, matrix), ld), c.batch_count,
                        c.int(f"stride{matrix}"), False, 0, writable, matrix, None, c.values[matrix])


def _shares_elements(c: SolverCall, matrix: str, rows: int, cols: int) -> bool:
    """Whether two batch entries of a written matrix may share an element (then the entries are
    processed in order).  Pointer-array entries are gathered apart.  Strided entries are disjoint when
    the stride passes an entry's extent, or (interleaved) when the distance between any two entries'
    starts, 0 < d <= (batch - 1) |stride|, is below the smallest positive distance between two elements
    of one entry: inc between rows of a column, and, as ld >= inc * rows, ld - (rows - 1) * inc between
    elements of different columns."""
    batch = c.batch_count
    if batch <= 1 or rows == 0 or cols == 0 or (c.flavour is BATCHED and not _interleaved(c)):
        return False
    inc, ld = _inc(c, matrix), c.int(f"ld{matrix.lower()}")
    stride = abs(c.int(f"stride{matrix}"))
    if stride >= (rows - 1) * inc + (cols - 1) * ld + 1:
        return False
    gaps = ([inc] if rows > 1 else []) + ([ld - (rows - 1) * inc] if cols > 1 else [])
    return not gaps or not (stride > 0 and stride * (batch - 1) < min(gaps))


def _flops(c: SolverCall, muladds: float) -> float:
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, elements: float) -> float:
    return 2.0 * c.dims.batch * c.precision.itemsize * elements


# --- the launch bodies ---------------------------------------------------------------------------------


def _scalars(dtype: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    return np.ones(1, dtype), -np.ones(1, dtype)


def _identity(ws: np.ndarray, batch: int, nb: int) -> tuple[np.ndarray, int]:
    """getrs's pivots for an LU without pivoting: 1..nb, one row shared by every entry (stride 0)."""
    row, off = host_carve(ws, 0, (nb,), _INT)
    row[:] = np.arange(1, nb + 1, dtype=_INT)
    # A writable stride-0 view (broadcast_to's is read-only): the kernels then see the array type getrs's own
    # pivots have, and compile nothing more.
    return np.lib.stride_tricks.as_strided(row, (batch, nb), (0, row.itemsize), writeable=True), off


def _solve(lu: np.ndarray, piv: np.ndarray, x: np.ndarray, ws: np.ndarray) -> None:
    """x := inv(L U) x for every entry, L U packed in ``lu`` (nb x nb): getrs's kernel with the identity
    pivots; an entry with an exact zero on U's diagonal by BLAS trsm (rocBLAS trsm's kernel), whose
    division by zero gives IEEE infinities and NaNs, as rocSOLVER's does, where numba's complex
    division would raise."""
    d = np.arange(lu.shape[1])
    zero = (lu[:, d, d] == 0).any(axis=1)
    if not zero.any():
        kl.getrs(k3.OP_N, lu, piv, x, False, ws)
        return
    regular, singular = np.flatnonzero(~zero), np.flatnonzero(zero)
    if regular.size:
        part = x[regular]
        kl.getrs(k3.OP_N, lu[regular], piv[regular], part, False, ws)
        x[regular] = part
    part, factor, one = x[singular], lu[singular], np.ones(1, x.dtype)
    k3.trsm(k3.LEFT, k3.LOWER, k3.OP_N, k3.UNIT, one, factor, part)
    k3.trsm(k3.LEFT, k3.UPPER, k3.OP_N, _NONUNIT, one, factor, part)
    x[singular] = part


def _geblttrf_entries(A: np.ndarray, B: np.ndarray, Cm: np.ndarray, info: np.ndarray, ws: np.ndarray,
                      nb: int, nblocks: int) -> None:
    batch = B.shape[0]
    a, b, cm = kl._colmajor(A), kl._colmajor(B), kl._colmajor(Cm)
    piv, off = _identity(ws, batch, nb)
    iinfo, off = host_carve(ws, off, (batch,), _INT)
    rest = ws[off:]
    one, minus_one = _scalars(b.dtype)
    kl.getrf(b[:, :, :nb], None, info, False, rest)
    for k in range(nblocks - 1):
        lo, mid, hi = k * nb, (k + 1) * nb, (k + 2) * nb
        _solve(b[:, :, lo:mid], piv, cm[:, :, lo:mid], rest)  # U_k = inv(S_k) C_k
        k3.gemm(k3.GEMM, k3.OP_N, k3.OP_N, 0, 0, minus_one, a[:, :, lo:mid], cm[:, :, lo:mid], one,
                b[:, :, mid:hi])  # S_{k+1} = B_{k+1} - A_k U_k
        kl.getrf(b[:, :, mid:hi], None, iinfo, False, rest)
        info[...] = np.where((info == 0) & (iinfo != 0), iinfo + mid, info)
    kl._finish(B, b)
    kl._finish(Cm, cm)


def geblttrf_run(A: np.ndarray, B: np.ndarray, Cm: np.ndarray, info: np.ndarray, ws: np.ndarray, nb: int,
                 nblocks: int, serial: bool) -> None:
    """geblttrf_npvt of every entry (nb, nblocks >= 1): A (batch, nb, nb*(nblocks-1)), B (batch, nb,
    nb*nblocks), C as A, info (batch,); ``serial``: one entry after another."""
    if not serial:
        _geblttrf_entries(A, B, Cm, info, ws, nb, nblocks)
        return
    for e in range(B.shape[0]):
        _geblttrf_entries(A[e:e + 1], B[e:e + 1], Cm[e:e + 1], info[e:e + 1], ws, nb, nblocks)


def _geblttrs_entries(A: np.ndarray, B: np.ndarray, Cm: np.ndarray, X: np.ndarray, ws: np.ndarray, nb: int,
                      nblocks: int, nrhs: int) -> None:
    batch = X.shape[0]
    a, b, cm, x = kl._colmajor(A), kl._colmajor(B), kl._colmajor(Cm), kl._colmajor(X)
    piv, off = _identity(ws, batch, nb)
    rest = ws[off:]
    one, minus_one = _scalars(x.dtype)

    def blk(m: np.ndarray, k: int, width: int) -> np.ndarray:
        return m[:, :, k * width:(k + 1) * width]

    for k in range(nblocks):  # forward: X_k := inv(S_k) (R_k - A_{k-1} X_{k-1})
        if k > 0:
            k3.gemm(k3.GEMM, k3.OP_N, k3.OP_N, 0, 0, minus_one, blk(a, k - 1, nb), blk(x, k - 1, nrhs), one,
                    blk(x, k, nrhs))
        _solve(blk(b, k, nb), piv, blk(x, k, nrhs), rest)
    for k in range(nblocks - 2, -1, -1):  # backward: X_k := X_k - U_k X_{k+1}
        k3.gemm(k3.GEMM, k3.OP_N, k3.OP_N, 0, 0, minus_one, blk(cm, k, nb), blk(x, k + 1, nrhs), one,
                blk(x, k, nrhs))
    kl._finish(X, x)


def geblttrs_run(A: np.ndarray, B: np.ndarray, Cm: np.ndarray, X: np.ndarray, ws: np.ndarray, nb: int,
                 nblocks: int, nrhs: int, serial: bool) -> None:
    """geblttrs_npvt of every entry (nb, nblocks, nrhs >= 1): the factors of geblttrf_run, X (batch, nb,
    nrhs*nblocks) overwritten by the solution; ``serial``: one entry after another."""
    if not serial:
        _geblttrs_entries(A, B, Cm, X, ws, nb, nblocks, nrhs)
        return
    for e in range(X.shape[0]):
        _geblttrs_entries(A[e:e + 1], B[e:e + 1], Cm[e:e + 1], X[e:e + 1], ws, nb, nblocks, nrhs)


def geblttrf_workspace(nb: int, nblocks: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`geblttrf_run` uses: the identity pivots, the per-block info, then the
    larger of getrf's and getrs's scratch for one block of every entry."""
    if nb == 0 or nblocks == 0 or batch == 0:
        return 0
    kernels = kl.getrf_workspace(nb, nb, batch, itemsize, pivot=False)
    if nblocks > 1:
        kernels = max(kernels, kl.getrs_workspace(nb, nb, batch, itemsize))
    return layout((nb, _INT.itemsize), (batch, _INT.itemsize)) + kernels


def geblttrs_workspace(nb: int, nblocks: int, nrhs: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`geblttrs_run` uses: the identity pivots, then getrs's scratch."""
    if nb == 0 or nblocks == 0 or nrhs == 0 or batch == 0:
        return 0
    return layout((nb, _INT.itemsize)) + kl.getrs_workspace(nb, nrhs, batch, itemsize)


# --- geblttrf_npvt -------------------------------------------------------------------------------------


def _check_geblttrf(c: SolverCall) -> _Dims:
    nb, nblocks = c.sizes("nb", "nblocks")
    (batch,) = c.sizes("batch_count")
    _check_lds(c, nb, "ABC")
    return _Dims(nb, nblocks, batch)


def _geblttrf_workspace(c: SolverCall) -> int:
    nb, nblocks, batch, _ = c.dims
    return geblttrf_workspace(nb, nblocks, batch, c.precision.itemsize)


def _geblttrf(c: SolverCall) -> None:
    nb, nblocks, batch, _ = c.dims
    c.require("A", when=nb > 0 and nblocks > 1)
    c.require("B", when=nb > 0 and nblocks > 0)
    c.require("C", when=nb > 0 and nblocks > 1)
    c.require("info", when=batch > 0)
    if nb == 0 or nblocks == 0 or batch == 0:  # rocSOLVER: info is not written either
        return
    off = nb * (nblocks - 1)
    a = _operand(c, "A", nb, off)
    b = _operand(c, "B", nb, nb * nblocks, writable=True)
    cm = _operand(c, "C", nb, off, writable=True)
    serial = _shares_elements(c, "B", nb, nb * nblocks) or _shares_elements(c, "C", nb, off)
    work = c.workspace_buffer()
    c.launch(partial(geblttrf_run, nb=nb, nblocks=nblocks, serial=serial), a, b, cm, c.info(), work,
             flops=_flops(c, nblocks * nb**3 / 3 + (nblocks - 1) * 2.0 * nb**3),
             bytes=_bytes(c, nb * nb * (3 * nblocks - 2)))


_TRF_SUMMARY = ("LU factorization without pivoting of the block tridiagonal matrix with nblocks diagonal blocks "
                "B_k (nb x nb), sub-diagonal blocks A_k and super-diagonal blocks C_k: B_k gets the LU factors "
                "(getrf_npvt's form) of the Schur complement S_k, C_k gets U_k = inv(S_k) C_k, A is not written; "
                "info = the first zero pivot, counted in the matrix's rows.")
_TRF_INTERLEAVED = (" Interleaved batched: element (i, j) of block k of entry l of A is at l * strideA + k * lda * nb"
                    " + i * inca + j * lda (normal use inca = batch_count, strideA = 1), likewise B and C.")
GEBLTTRF_NPVT = SolverRoutine("geblttrf_npvt", ("nb", "nblocks", "A", "lda", "B", "ldb", "C", "ldc", "info"),
                              {"A": "lda", "B": "ldb", "C": "ldc"}, _geblttrf, check=_check_geblttrf,
                              workspace=_geblttrf_workspace, summary=_TRF_SUMMARY)
# Bound in the BATCHED flavour for its name (``..._interleaved`` + ``_batched``) and its trailing batch_count; its
# matrices are plain strided arrays (their strides are ordinary parameters), hence no ``arrays``: A, B, C
# are pointers only (left out of bench lines, as info).
GEBLTTRF_NPVT_INTERLEAVED = SolverRoutine(
    "geblttrf_npvt_interleaved", ("nb", "nblocks", "A", "inca", "lda", "strideA", "B", "incb", "ldb", "strideB",
                                  "C", "incc", "ldc", "strideC", "info"),
    {}, _geblttrf, check=_check_geblttrf, workspace=_geblttrf_workspace, pointers=("A", "B", "C", "info"),
    summary=_TRF_SUMMARY + _TRF_INTERLEAVED)


# --- geblttrs_npvt -------------------------------------------------------------------------------------


def _check_geblttrs(c: SolverCall) -> _Dims:
    nb, nblocks, nrhs = c.sizes("nb", "nblocks", "nrhs")
    (batch,) = c.sizes("batch_count")
    _check_lds(c, nb, "ABCX")
    return _Dims(nb, nblocks, batch, nrhs)


def _geblttrs_workspace(c: SolverCall) -> int:
    nb, nblocks, batch, nrhs = c.dims
    return geblttrs_workspace(nb, nblocks, nrhs, batch, c.precision.itemsize)


def _geblttrs(c: SolverCall) -> None:
    nb, nblocks, batch, nrhs = c.dims
    c.require("A", when=nb > 0 and nblocks > 1)
    c.require("B", when=nb > 0 and nblocks > 0)
    c.require("C", when=nb > 0 and nblocks > 1)
    c.require("X", when=nb > 0 and nblocks > 0 and nrhs > 0)
    if nb == 0 or nblocks == 0 or nrhs == 0 or batch == 0:
        return
    off = nb * (nblocks - 1)
    a = _operand(c, "A", nb, off)
    b = _operand(c, "B", nb, nb * nblocks)
    cm = _operand(c, "C", nb, off)
    x = _operand(c, "X", nb, nrhs * nblocks, writable=True)
    serial = _shares_elements(c, "X", nb, nrhs * nblocks)
    work = c.workspace_buffer()
    c.launch(partial(geblttrs_run, nb=nb, nblocks=nblocks, nrhs=nrhs, serial=serial), a, b, cm, x, work,
             flops=_flops(c, nrhs * nb * nb * (3.0 * nblocks - 2)),
             bytes=_bytes(c, nb * nb * (3 * nblocks - 2) / 2 + nb * nrhs * nblocks))


_TRS_SUMMARY = ("Solve M X = R for the block tridiagonal M factored by geblttrf_npvt (its A, B, C), the right-hand "
                "sides' blocks R_k (nb x nrhs) one after another in X, overwritten by X.")
_TRS_INTERLEAVED = (" Interleaved batched: element (i, j) of block k of entry l of A is at l * strideA + k * lda * nb"
                    " + i * inca + j * lda (normal use inca = batch_count, strideA = 1), likewise B and C; of X at "
                    "l * strideX + k * ldx * nrhs + i * incx + j * ldx.")
GEBLTTRS_NPVT = SolverRoutine("geblttrs_npvt", ("nb", "nblocks", "nrhs", "A", "lda", "B", "ldb", "C", "ldc", "X",
                                                "ldx"),
                              {"A": "lda", "B": "ldb", "C": "ldc", "X": "ldx"}, _geblttrs, check=_check_geblttrs,
                              workspace=_geblttrs_workspace, pointers=(), summary=_TRS_SUMMARY)
GEBLTTRS_NPVT_INTERLEAVED = SolverRoutine(
    "geblttrs_npvt_interleaved", ("nb", "nblocks", "nrhs", "A", "inca", "lda", "strideA", "B", "incb", "ldb",
                                  "strideB", "C", "incc", "ldc", "strideC", "X", "incx", "ldx", "strideX"),
    {}, _geblttrs, check=_check_geblttrs, workspace=_geblttrs_workspace, pointers=("A", "B", "C", "X"),
    summary=_TRS_SUMMARY + _TRS_INTERLEAVED)


def _interleaved_batched(routine: SolverRoutine, precision: Precision) -> Any:
    """The ``<p><routine>_batched`` function of an interleaved routine (``_interleaved`` + ``_batched``: the
    name rocSOLVER gives it), its docstring saying how its entries are laid out."""
    entry = bind(routine, precision, BATCHED)
    head, _, rest = entry.__doc__.partition("\n\n")
    _, _, tail = rest.partition("\n\n")
    entry.__doc__ = f"{head}\n\n{routine.summary}\n\n{tail}"
    return entry


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgeblttrf_npvt = bind(GEBLTTRF_NPVT, S)
dgeblttrf_npvt = bind(GEBLTTRF_NPVT, D)
cgeblttrf_npvt = bind(GEBLTTRF_NPVT, C)
zgeblttrf_npvt = bind(GEBLTTRF_NPVT, Z)
sgeblttrf_npvt_batched = bind(GEBLTTRF_NPVT, S, BATCHED)
dgeblttrf_npvt_batched = bind(GEBLTTRF_NPVT, D, BATCHED)
cgeblttrf_npvt_batched = bind(GEBLTTRF_NPVT, C, BATCHED)
zgeblttrf_npvt_batched = bind(GEBLTTRF_NPVT, Z, BATCHED)
sgeblttrf_npvt_strided_batched = bind(GEBLTTRF_NPVT, S, STRIDED)
dgeblttrf_npvt_strided_batched = bind(GEBLTTRF_NPVT, D, STRIDED)
cgeblttrf_npvt_strided_batched = bind(GEBLTTRF_NPVT, C, STRIDED)
zgeblttrf_npvt_strided_batched = bind(GEBLTTRF_NPVT, Z, STRIDED)
sgeblttrf_npvt_interleaved_batched = _interleaved_batched(GEBLTTRF_NPVT_INTERLEAVED, S)
dgeblttrf_npvt_interleaved_batched = _interleaved_batched(GEBLTTRF_NPVT_INTERLEAVED, D)
cgeblttrf_npvt_interleaved_batched = _interleaved_batched(GEBLTTRF_NPVT_INTERLEAVED, C)
zgeblttrf_npvt_interleaved_batched = _interleaved_batched(GEBLTTRF_NPVT_INTERLEAVED, Z)
sgeblttrs_npvt = bind(GEBLTTRS_NPVT, S)
dgeblttrs_npvt = bind(GEBLTTRS_NPVT, D)
cgeblttrs_npvt = bind(GEBLTTRS_NPVT, C)
zgeblttrs_npvt = bind(GEBLTTRS_NPVT, Z)
sgeblttrs_npvt_batched = bind(GEBLTTRS_NPVT, S, BATCHED)
dgeblttrs_npvt_batched = bind(GEBLTTRS_NPVT, D, BATCHED)
cgeblttrs_npvt_batched = bind(GEBLTTRS_NPVT, C, BATCHED)
zgeblttrs_npvt_batched = bind(GEBLTTRS_NPVT, Z, BATCHED)
sgeblttrs_npvt_strided_batched = bind(GEBLTTRS_NPVT, S, STRIDED)
dgeblttrs_npvt_strided_batched = bind(GEBLTTRS_NPVT, D, STRIDED)
cgeblttrs_npvt_strided_batched = bind(GEBLTTRS_NPVT, C, STRIDED)
zgeblttrs_npvt_strided_batched = bind(GEBLTTRS_NPVT, Z, STRIDED)
sgeblttrs_npvt_interleaved_batched = _interleaved_batched(GEBLTTRS_NPVT_INTERLEAVED, S)
dgeblttrs_npvt_interleaved_batched = _interleaved_batched(GEBLTTRS_NPVT_INTERLEAVED, D)
cgeblttrs_npvt_interleaved_batched = _interleaved_batched(GEBLTTRS_NPVT_INTERLEAVED, C)
zgeblttrs_npvt_interleaved_batched = _interleaved_batched(GEBLTTRS_NPVT_INTERLEAVED, Z)
# fmt: on

__all__ = public_names(globals())
