"""Level-2 BLAS: matrix-vector operations, in rocBLAS's check order and quick returns.

Every routine checks, as rocBLAS's ``*_arg_check``: enums (invalid_value), then sizes
(invalid_size: negative sizes, leading dimensions too small, ``incx == 0`` or
``incy == 0``, ``batch_count < 0``), then quick returns (any size 0: success, nothing
touched), then pointers (invalid_pointer: alpha/beta first; arrays only where they would
be dereferenced; in host pointer mode the value rules, e.g. gemv's ``alpha == 0 &&
beta == 1``, apply first).  ``beta == 0`` never reads y; ``alpha == 0`` never reads A
or x.  Negative increments follow reference BLAS.  Triangular, symmetric and Hermitian
routines read (and the rank updates write) only the ``uplo`` triangle; the Hermitian
updates zero the imaginary part of the diagonal, as reference BLAS.  Triangular solves
do not check for singularity.

Storage: full matrices column-major with leading dimension ``lda``; packed matrices
(``tp*``, ``sp*``, ``hp*``) ``n(n+1)/2`` elements, column by column; banded matrices
(``gb*``, ``tb*``, ``sb*``, ``hb*``) in LAPACK band storage, ``lda >= kl+ku+1`` (``k+1``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from rocmath.errors import RocblasError, RocblasStatus
from rocmath.kernel import pool_threads
from rocmath.launch import Buffer
from rocmath.precision import BF16, C, D, H, S, Z

from . import _kernels_l2 as k
from ._api import BATCHED, PLAIN, STRIDED, Call, Routine, bind, public_names
from ._types import Diagonal, Fill, Operation

_FILLS = (Fill.upper, Fill.lower)


# --- argument checks shared by the routines ----------------------------------------------------


def _sizes(c: Call, *names: str) -> list[int]:
    """Integer size arguments, each >= 0."""
    out = []
    for name in names:
        v = c.int(name)
        if v < 0:
            raise c.invalid_size(name, f"must be non-negative, got {v}")
        out.append(v)
    return out


def _ld(c: Call, name: str, minimum: int, what: str) -> int:
    v = c.int(name)
    if v < minimum:
        raise c.invalid_size(name, f"must be >= {what} = {minimum}, got {v}")
    return v


def _inc(c: Call, name: str) -> int:
    v = c.int(name)
    if v == 0:
        raise c.invalid_size(name, "must be nonzero")
    return v


def _need(c: Call, *names: str) -> None:
    """invalid_pointer for the first null array among ``names``."""
    for name in names:
        if c.is_null(name):
            raise c.invalid_pointer(name)


def _empty(c: Call, ndim: int, dtype: Any = None) -> np.ndarray:
    """Stands in for an array the kernel does not read (alpha == 0): it may be null."""
    return np.zeros((c.batch_count,) + (0,) * (ndim - 1), dtype=dtype or c.dtype)


def _flops(c: Call, madds: float) -> float:
    return madds * c.batch_count * (8 if c.precision.is_complex else 2)


def _bytes(c: Call, elements: float) -> float:
    return elements * c.batch_count * c.precision.itemsize


# --- general matrix-vector products: gemv, gbmv ------------------------------------------------


def _general_mv(c: Call, band: bool = False, mixed: bool = False, out_dtype: Any = None) -> None:
    trans = c.enum("trans", Operation)
    if band:
        m, n, kl, ku = _sizes(c, "m", "n", "kl", "ku")
        _ld(c, "lda", kl + ku + 1, "kl + ku + 1")
    else:
        m, n = _sizes(c, "m", "n")
        _ld(c, "lda", max(1, m), "max(1, m)")
        kl, ku = m - 1, n - 1
    incx, incy = _inc(c, "incx"), _inc(c, "incy")
    count = c.batch_count
    if m == 0 or n == 0 or count == 0:
        return
    sdt = np.float32 if mixed else None  # mixed precision: float alpha and beta
    alpha, beta = c.scalar("alpha", sdt), c.scalar("beta", sdt)
    a, b = c.host_scalar("alpha", sdt), c.host_scalar("beta", sdt)
    if c.host_mode:
        if a == 0 and b == 1:
            return
        _need(c, "y")
        if a != 0:
            _need(c, "A", "x")
    lenx, leny = (n, m) if trans is Operation.none else (m, n)
    reads = not (c.host_mode and a == 0)
    if reads and c.null_array_alpha(("A", "x", "y"), sdt) == 0:
        if c.read_scalar("beta", sdt) == 1:  # (the kernel's if(!alpha && beta == 1) return)
            return
        reads = False
    # Half and bfloat16 are storage types: the kernel gets float32 copies (rounded back for y).
    A = c.matrix("A", kl + ku + 1 if band else m, n, c.int("lda")) if reads else _empty(c, 3, sdt)
    x = c.vector("x", lenx, incx) if reads else _empty(c, 2, sdt)
    y = c.vector("y", leny, incy, writable=True, dtype=out_dtype)
    stored = (kl + ku + 1) * n if band else m * n
    if not band and not mixed and reads and count == 1 and not c.precision.storage_only:
        # One dense entry: a streaming kernel over a flat view of A, as fast as OpenBLAS's (the
        # generic matvec took 1.2-1.7x its time from 8 x 8 to 400 x 400, on one thread as small
        # launches run, 1.5x up to 2^18 elements, once the threshold for this kernel).
        t = int(trans) - int(Operation.none)
        if c.flavour is PLAIN and c.host_mode and incx == 1 and incy == 1 and c.spans_allowed:
            # The flat operands described here, once: a replay then hands the kernel its kept views,
            # with no host-side reshaping per call (tens of microseconds on caches the stream flushed).
            lda = c.int("lda")
            flat = Buffer(c.ptr("A"), c.dtype, ((n - 1) * lda + m,), name="A", owner=c.values["A"])
            xb = Buffer(c.ptr("x"), c.dtype, (lenx,), name="x", owner=c.values["x"])
            yb = Buffer(c.ptr("y"), c.dtype, (leny,), name="y", owner=c.values["y"])
            c.launch(k.gemv_flat_for(c.dtype), t, t == 2, alpha.astype(c.dtype), beta.astype(c.dtype), flat, lda, m,
                     n, xb, yb, pool_threads(), flops=_flops(c, stored), bytes=_bytes(c, stored + lenx + 2 * leny),
                     streaming=True)
            return
        c.launch(k.run_gemv_large, t, alpha, A, x, beta, y,
                 flops=_flops(c, stored), bytes=_bytes(c, stored + lenx + 2 * leny), streaming=True)
        return
    args = (trans is not Operation.none, trans is Operation.conjugate_transpose, k.BAND if band else k.FULL, True,
            kl, ku, k.DIAG_STORED, alpha, A, x, beta, y)
    work = {"flops": _flops(c, stored), "bytes": _bytes(c, stored + lenx + 2 * leny),
            "triangles": {id(A): None} if band else None, "streaming": True}
    if band and _column_major(A):
        # The kernel itself, no launch body: a Python body's dispatch of matvec's 14 arguments cost
        # dgbmv of 3000 (32 + 32 diagonals) 7-14 us beside a 47-66 us kernel.
        c.launch(k.matvec, *args, k.task_bytes(count), False, **work)
        return
    c.launch(k.run_matvec, *args, **work)


#: rocblas_gemvt_sn_crossover: n below which gemv's skinny transposed kernel is used (256 for the others).
_GEMVT_SN_CROSSOVER = {np.dtype(np.float64): 128, np.dtype(np.complex64): 64, np.dtype(np.complex128): 16}


def _gemv_bytes(c: Call, mixed: bool = False) -> int:
    """rocBLAS's gemv workspace, computed before any check (rocblas_gemv_imp.hpp): column
    partial sums of its skinny transposed kernel, ceil(m / 1024) per column, in the
    scalars' type (float for the mixed-precision names); none for other shapes
    (rocblas_internal_gemv_kernel_workspace_size, rocblas_gemv_kernels.cpp)."""
    m, n, count = c.int("m"), c.int("n"), c.batches()
    try:
        untransposed = c.enum("trans", Operation) is Operation.none
    except RocblasError:  # an invalid trans is not none: rocBLAS compares with none only
        untransposed = False
    scalar = np.dtype(np.float32) if mixed else c.dtype
    skinny = not untransposed and n < _GEMVT_SN_CROSSOVER.get(scalar, 256) and m >= 2048 * n
    if m <= 0 or n <= 0 or count <= 0 or not skinny:
        return 0
    return scalar.itemsize * ((m - 1) // 1024 + 1) * n * count


GEMV = Routine("gemv", ("trans", "m", "n", "alpha", "A", "lda", "x", "incx", "beta", "y", "incy"),
               {"A": "lda", "x": "incx", "y": "incy"}, _general_mv, workspace=_gemv_bytes,
               summary="y := alpha*op(A)*x + beta*y for a general m x n matrix A.")
GBMV = Routine("gbmv", ("trans", "m", "n", "kl", "ku", "alpha", "A", "lda", "x", "incx", "beta", "y", "incy"),
               {"A": "lda", "x": "incx", "y": "incy"}, partial(_general_mv, band=True),
               summary="y := alpha*op(A)*x + beta*y for an m x n band matrix A (kl sub-, ku superdiagonals).")
# Mixed precision (batched and strided batched only): A and x half (hsh, hss) or bfloat16
# (tst, tss), alpha, beta and the computation float32, y in the input type or float32.
GEMV_MIXED = Routine("gemv", GEMV.params, GEMV.arrays, partial(_general_mv, mixed=True),
                     workspace=partial(_gemv_bytes, mixed=True),
                     summary="y := alpha*op(A)*x + beta*y; A, x, y half or bfloat16, computed in float32.")
GEMV_MIXED_F32 = Routine("gemv", GEMV.params, GEMV.arrays, partial(_general_mv, mixed=True, out_dtype=np.float32),
                         workspace=partial(_gemv_bytes, mixed=True),
                         summary="y := alpha*op(A)*x + beta*y; A, x half or bfloat16, y and computation float32.")


# --- symmetric and Hermitian products: symv, spmv, sbmv, hemv, hpmv, hbmv -----------------------


def _sym_mv(c: Call, kind: int, herm: bool, a_name: str = "A") -> RocblasStatus | None:
    uplo = c.enum("uplo", Fill, _FILLS)
    if kind == k.BAND:
        n, kk = _sizes(c, "n", "k")
        _ld(c, "lda", kk + 1, "k + 1")
    else:
        (n,) = _sizes(c, "n")
        kk = max(n - 1, 0)
        if kind == k.FULL:
            _ld(c, "lda", max(1, n), "max(1, n)")
    incx, incy = _inc(c, "incx"), _inc(c, "incy")
    count = c.batch_count
    if n == 0 or count == 0:
        # rocblas_hemv_symv_arg_check returns success here, also to a size query
        return RocblasStatus.success if kind == k.FULL and c.querying else None
    alpha, beta = c.scalar("alpha"), c.scalar("beta")
    a, b = c.host_scalar("alpha"), c.host_scalar("beta")
    if c.host_mode:
        if a == 0 and b == 1:
            return
        _need(c, "y")
        if a != 0:
            _need(c, a_name, "x")
    reads = not (c.host_mode and a == 0)
    if reads and c.null_array_alpha((a_name, "x", "y")) == 0:
        if c.read_scalar("beta") == 1:
            return
        reads = False
    A = _matrix(c, a_name, kind, n, kk) if reads else _empty(c, 3)
    x = c.vector("x", n, incx) if reads else _empty(c, 2)
    y = c.vector("y", n, incy, writable=True)
    stored = _stored(kind, n, kk)
    work = {"flops": _flops(c, 2 * stored), "bytes": _bytes(c, stored + 3 * n), "triangles": _triangle(kind, A, uplo),
            "streaming": True}
    if _column_major(A):  # the kernel itself, no launch body
        c.launch(k.symv, kind, uplo is Fill.upper, kk, herm, alpha, A, x, beta, y, k.task_bytes(count), **work)
        return
    c.launch(k.run_symv, herm, kind, uplo is Fill.upper, kk, alpha, A, x, beta, y, **work)


def _triangle(kind: int, A: Any, uplo: Fill, unit: bool = False) -> dict[int, tuple[bool, bool] | None]:
    """For check-numerics: a full-storage symmetric or triangular A is data in one triangle; a
    banded or packed A is not scanned (rocBLAS's check of these routines takes the vectors only)."""
    return {id(A): (uplo is Fill.upper, unit) if kind == k.FULL else None}


def _matrix(c: Call, name: str, kind: int, n: int, kk: int, *, writable: bool = False) -> Any:
    """The square matrix argument in its storage: full (lda), band (kk+1 rows) or packed."""
    if kind == k.PACKED:
        return c.matrix(name, 1, n * (n + 1) // 2, 1, writable=writable)
    return c.matrix(name, kk + 1 if kind == k.BAND else n, n, c.int("lda"), writable=writable)


def _stored(kind: int, n: int, kk: int) -> int:
    """Elements of the stored triangle (or band)."""
    return n * (n + 1) // 2 if kind != k.BAND else (kk + 1) * n - kk * (kk + 1) // 2


def _symv_bytes(c: Call) -> int:
    """rocBLAS's symv and hemv workspace: per 64-column block, a partial product of n
    elements per entry (rocblas_internal_hemv_symv_kernel_workspace_size)."""
    n = c.int("n")
    return c.precision.itemsize * ((n - 1) // 64 + 1) * n * c.batch_count


_SYMV = ("uplo", "n", "alpha", "A", "lda", "x", "incx", "beta", "y", "incy")
_SBMV = ("uplo", "n", "k", "alpha", "A", "lda", "x", "incx", "beta", "y", "incy")
_MV_ARRAYS = {"A": "lda", "x": "incx", "y": "incy"}
SYMV = Routine("symv", _SYMV, _MV_ARRAYS, partial(_sym_mv, kind=k.FULL, herm=False), workspace=_symv_bytes,
               query="pointers", summary="y := alpha*A*x + beta*y for a symmetric A, from its uplo triangle.")
HEMV = Routine("hemv", _SYMV, _MV_ARRAYS, partial(_sym_mv, kind=k.FULL, herm=True), workspace=_symv_bytes,
               query="pointers",
               summary="y := alpha*A*x + beta*y for a Hermitian A, from its uplo triangle (real diagonal).")
SBMV = Routine("sbmv", _SBMV, _MV_ARRAYS, partial(_sym_mv, kind=k.BAND, herm=False),
               summary="y := alpha*A*x + beta*y for a symmetric band A with k off-diagonals.")
HBMV = Routine("hbmv", _SBMV, _MV_ARRAYS, partial(_sym_mv, kind=k.BAND, herm=True),
               summary="y := alpha*A*x + beta*y for a Hermitian band A with k off-diagonals.")
SPMV = Routine("spmv", ("uplo", "n", "alpha", "A", "x", "incx", "beta", "y", "incy"),
               {"A": "A", "x": "incx", "y": "incy"}, partial(_sym_mv, kind=k.PACKED, herm=False),
               summary="y := alpha*A*x + beta*y for a symmetric A in packed storage.")
HPMV = Routine("hpmv", ("uplo", "n", "alpha", "AP", "x", "incx", "beta", "y", "incy"),
               {"AP": "AP", "x": "incx", "y": "incy"}, partial(_sym_mv, kind=k.PACKED, herm=True, a_name="AP"),
               summary="y := alpha*A*x + beta*y for a Hermitian A in packed storage.")


# --- triangular products and solves: trmv, tpmv, tbmv, trsv, tpsv, tbsv --------------------------


def _triangular(c: Call, kind: int, solve: bool, trans_name: str = "transA", a_name: str = "A") -> None:
    uplo = c.enum("uplo", Fill, _FILLS)
    trans = c.enum(trans_name, Operation)
    diag = c.enum("diag", Diagonal)
    if kind == k.BAND:
        n, kk = _sizes(c, "n", "k")
        _ld(c, "lda", kk + 1, "k + 1")
    else:
        (n,) = _sizes(c, "n")
        kk = max(n - 1, 0)
        if kind == k.FULL:
            _ld(c, "lda", max(1, n), "max(1, n)")
    incx = _inc(c, "incx")
    count = c.batch_count
    if n == 0 or count == 0:
        return
    _need(c, a_name, "x")
    A = _matrix(c, a_name, kind, n, kk)
    x = c.vector("x", n, incx, writable=True)
    args = (trans is not Operation.none, trans is Operation.conjugate_transpose, kind, uplo is Fill.upper, kk,
            diag is Diagonal.unit, A, x)
    stored = _stored(kind, n, kk)
    work = {"flops": _flops(c, stored), "bytes": _bytes(c, stored + 2 * n),
            "triangles": _triangle(kind, A, uplo, diag is Diagonal.unit), "streaming": True}
    if not _column_major(A):
        c.launch(k.run_trsv if solve else k.run_trmv, *args, **work)
    elif not solve:  # the kernels themselves, no launch body
        c.launch(k.matvec, *k.trmv_args(*args[:6], A, x, count), **work)
    elif k.trsv_is_blocked(kind, count, n):
        c.launch(k.run_trsv, *args, **work)
    else:
        c.launch(k.trsv, *args, **work)


# Workspaces: during a size query these routines run their checks first and answer with
# valid sizes (their Routine.query).


def _x_copy_bytes(c: Call) -> int:
    """rocBLAS's workspace of trmv, tpmv and tbmv: a copy of x (rocblas_trmv.hpp)."""
    return c.precision.itemsize * c.int("n") * c.batch_count


def _tbmv_bytes(c: Call) -> int | tuple[int, ...]:
    """tbmv's: the copy of x, and for the batched form an array of pointers to its entries
    too (rocblas_tbmv_batched_imp.hpp)."""
    if c.flavour is BATCHED:
        return _x_copy_bytes(c), 8 * c.batch_count
    return _x_copy_bytes(c)


def _trsv_bytes(c: Call) -> int:
    """rocBLAS's workspace of trsv: one int per entry, a completion counter (rocblas_trsv.hpp)."""
    return 4 * c.batch_count


_TRMV = ("uplo", "transA", "diag", "n", "A", "lda", "x", "incx")
_TBMV = ("uplo", "trans", "diag", "n", "k", "A", "lda", "x", "incx")
_TBSV = ("uplo", "transA", "diag", "n", "k", "A", "lda", "x", "incx")
_TRI_ARRAYS = {"A": "lda", "x": "incx"}
TRMV = Routine("trmv", _TRMV, _TRI_ARRAYS, partial(_triangular, kind=k.FULL, solve=False),
               workspace=_x_copy_bytes, query="pointers", summary="x := op(A)*x for a triangular A.")
TPMV = Routine("tpmv", ("uplo", "transA", "diag", "n", "A", "x", "incx"), {"A": "A", "x": "incx"},
               partial(_triangular, kind=k.PACKED, solve=False), workspace=_x_copy_bytes,
               query="pointers", summary="x := op(A)*x for a triangular A in packed storage.")
TBMV = Routine("tbmv", _TBMV, _TRI_ARRAYS, partial(_triangular, kind=k.BAND, solve=False, trans_name="trans"),
               workspace=_tbmv_bytes, query="operands",
               summary="x := op(A)*x for a triangular band A with k off-diagonals.")
TRSV = Routine("trsv", _TRMV, _TRI_ARRAYS, partial(_triangular, kind=k.FULL, solve=True),
               workspace=_trsv_bytes,
               query="pointers", summary="x := op(A)^-1*x for a triangular A (no singularity check).")
TPSV = Routine("tpsv", ("uplo", "transA", "diag", "n", "AP", "x", "incx"), {"AP": "AP", "x": "incx"},
               partial(_triangular, kind=k.PACKED, solve=True, a_name="AP"),
               summary="x := op(A)^-1*x for a triangular A in packed storage (no singularity check).")
TBSV = Routine("tbsv", _TBSV, _TRI_ARRAYS, partial(_triangular, kind=k.BAND, solve=True),
               summary="x := op(A)^-1*x for a triangular band A with k off-diagonals (no singularity check).")


# --- rank-1 and rank-2 updates: ger, geru, gerc, syr, syr2, spr, spr2, her, her2, hpr, hpr2 ------


def _ger(c: Call, conj: bool = False) -> None:
    m, n = _sizes(c, "m", "n")
    incx, incy = _inc(c, "incx"), _inc(c, "incy")
    lda = _ld(c, "lda", max(1, m), "max(1, m)")
    count = c.batch_count
    if m == 0 or n == 0 or count == 0:
        return
    alpha = c.scalar("alpha")
    if c.host_mode:
        if c.host_scalar("alpha") == 0:
            return
        _need(c, "A", "x", "y")
    elif c.null_array_alpha(("A", "x", "y")) == 0:
        return
    _rank_update(c, k.FULL, True, True, False, False, conj, alpha, c.vector("x", m, incx), c.vector("y", n, incy),
                 c.matrix("A", m, n, lda, writable=True), flops=_flops(c, m * n), bytes=_bytes(c, 2 * m * n + m + n))


def _rank_update(c: Call, kind: int, upper: bool, general: bool, herm: bool, two: bool, conj_y: bool, alpha: Any,
                 x: Any, y: Any, A: Any, **work: Any) -> None:
    """Launch a rank-1 or rank-2 update: the kernel itself when A needs no column-major copy and
    alpha is a host value (cast to A's type here, as the launch body would when it runs)."""
    if isinstance(alpha, np.ndarray) and (kind == k.PACKED or _column_major(A)):
        c.launch(k.rank_update, kind, upper, general, herm, two, conj_y, alpha.astype(c.dtype), x,
                 x if y is None else y, A, streaming=True, **work)
        return
    c.launch(k.run_rank_update, kind, upper, general, herm, two, conj_y, alpha, x, y, A, streaming=True, **work)


def _column_major(A: Any) -> bool:
    """Whether the kernels get A's entries column-major as they are (not gathered through a
    pointer array: those are staged row-major, and the launch bodies copy them)."""
    return not getattr(A, "pointers", False)


_GER = ("m", "n", "alpha", "x", "incx", "y", "incy", "A", "lda")
_GER_ARRAYS = {"x": "incx", "y": "incy", "A": "lda"}
GER = Routine("ger", _GER, _GER_ARRAYS, _ger, summary="A := A + alpha*x*y^T.")
GERU = Routine("geru", _GER, _GER_ARRAYS, _ger, summary="A := A + alpha*x*y^T.")
GERC = Routine("gerc", _GER, _GER_ARRAYS, partial(_ger, conj=True), summary="A := A + alpha*x*y^H.")


def _sym_rank(c: Call, kind: int, herm: bool, two: bool) -> None:
    uplo = c.enum("uplo", Fill, _FILLS)
    (n,) = _sizes(c, "n")
    incx = _inc(c, "incx")
    incy = _inc(c, "incy") if two else 0
    a_name = "AP" if kind == k.PACKED else "A"
    if kind == k.FULL:
        _ld(c, "lda", max(1, n), "max(1, n)")
    count = c.batch_count
    if n == 0 or count == 0:
        return
    real = c.precision.real.compute_dtype if herm and not two else None  # her, hpr: a real alpha
    alpha = c.scalar("alpha", real)
    if c.host_mode:
        if c.host_scalar("alpha", real) == 0:
            return
        _need(c, a_name, "x", *(("y",) if two else ()))
    elif c.null_array_alpha((a_name, "x", *(("y",) if two else ())), real) == 0:
        return
    x = c.vector("x", n, incx)
    y = c.vector("y", n, incy) if two else None
    A = _matrix(c, a_name, kind, n, n - 1, writable=True)
    stored = n * (n + 1) // 2
    _rank_update(c, kind, uplo is Fill.upper, False, herm, two, False, alpha, x, y, A,
                 flops=_flops(c, stored * (1 + two)), bytes=_bytes(c, 2 * stored + n * (1 + two)),
                 triangles=_triangle(kind, A, uplo))


_SYR = ("uplo", "n", "alpha", "x", "incx", "A", "lda")
_SYR2 = ("uplo", "n", "alpha", "x", "incx", "y", "incy", "A", "lda")
_SPR = ("uplo", "n", "alpha", "x", "incx", "AP")
_SPR2 = ("uplo", "n", "alpha", "x", "incx", "y", "incy", "AP")
SYR = Routine("syr", _SYR, {"x": "incx", "A": "lda"}, partial(_sym_rank, kind=k.FULL, herm=False, two=False),
              summary="A := A + alpha*x*x^T on the uplo triangle of a symmetric A.")
SYR2 = Routine("syr2", _SYR2, _GER_ARRAYS, partial(_sym_rank, kind=k.FULL, herm=False, two=True),
               summary="A := A + alpha*x*y^T + alpha*y*x^T on the uplo triangle of a symmetric A.")
HER = Routine("her", _SYR, {"x": "incx", "A": "lda"}, partial(_sym_rank, kind=k.FULL, herm=True, two=False),
              summary="A := A + alpha*x*x^H (real alpha) on the uplo triangle of a Hermitian A.")
HER2 = Routine("her2", _SYR2, _GER_ARRAYS, partial(_sym_rank, kind=k.FULL, herm=True, two=True),
               summary="A := A + alpha*x*y^H + conj(alpha)*y*x^H on the uplo triangle of a Hermitian A.")
SPR = Routine("spr", _SPR, {"x": "incx", "AP": "AP"}, partial(_sym_rank, kind=k.PACKED, herm=False, two=False),
              summary="A := A + alpha*x*x^T for a symmetric A in packed storage.")
SPR2 = Routine("spr2", _SPR2, {"x": "incx", "y": "incy", "AP": "AP"},
               partial(_sym_rank, kind=k.PACKED, herm=False, two=True),
               summary="A := A + alpha*x*y^T + alpha*y*x^T for a symmetric A in packed storage.")
HPR = Routine("hpr", _SPR, {"x": "incx", "AP": "AP"}, partial(_sym_rank, kind=k.PACKED, herm=True, two=False),
              summary="A := A + alpha*x*x^H (real alpha) for a Hermitian A in packed storage.")
HPR2 = Routine("hpr2", _SPR2, {"x": "incx", "y": "incy", "AP": "AP"},
               partial(_sym_rank, kind=k.PACKED, herm=True, two=True),
               summary="A := A + alpha*x*y^H + conj(alpha)*y*x^H for a Hermitian A in packed storage.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgemv = bind(GEMV, S)
dgemv = bind(GEMV, D)
cgemv = bind(GEMV, C)
zgemv = bind(GEMV, Z)
sgemv_batched = bind(GEMV, S, BATCHED)
dgemv_batched = bind(GEMV, D, BATCHED)
cgemv_batched = bind(GEMV, C, BATCHED)
zgemv_batched = bind(GEMV, Z, BATCHED)
sgemv_strided_batched = bind(GEMV, S, STRIDED)
dgemv_strided_batched = bind(GEMV, D, STRIDED)
cgemv_strided_batched = bind(GEMV, C, STRIDED)
zgemv_strided_batched = bind(GEMV, Z, STRIDED)
hshgemv_batched = bind(GEMV_MIXED, H, BATCHED, prefix="hsh")
hssgemv_batched = bind(GEMV_MIXED_F32, H, BATCHED, prefix="hss")
tstgemv_batched = bind(GEMV_MIXED, BF16, BATCHED, prefix="tst")
tssgemv_batched = bind(GEMV_MIXED_F32, BF16, BATCHED, prefix="tss")
hshgemv_strided_batched = bind(GEMV_MIXED, H, STRIDED, prefix="hsh")
hssgemv_strided_batched = bind(GEMV_MIXED_F32, H, STRIDED, prefix="hss")
tstgemv_strided_batched = bind(GEMV_MIXED, BF16, STRIDED, prefix="tst")
tssgemv_strided_batched = bind(GEMV_MIXED_F32, BF16, STRIDED, prefix="tss")
sgbmv = bind(GBMV, S)
dgbmv = bind(GBMV, D)
cgbmv = bind(GBMV, C)
zgbmv = bind(GBMV, Z)
sgbmv_batched = bind(GBMV, S, BATCHED)
dgbmv_batched = bind(GBMV, D, BATCHED)
cgbmv_batched = bind(GBMV, C, BATCHED)
zgbmv_batched = bind(GBMV, Z, BATCHED)
sgbmv_strided_batched = bind(GBMV, S, STRIDED)
dgbmv_strided_batched = bind(GBMV, D, STRIDED)
cgbmv_strided_batched = bind(GBMV, C, STRIDED)
zgbmv_strided_batched = bind(GBMV, Z, STRIDED)
strmv = bind(TRMV, S)
dtrmv = bind(TRMV, D)
ctrmv = bind(TRMV, C)
ztrmv = bind(TRMV, Z)
strmv_batched = bind(TRMV, S, BATCHED)
dtrmv_batched = bind(TRMV, D, BATCHED)
ctrmv_batched = bind(TRMV, C, BATCHED)
ztrmv_batched = bind(TRMV, Z, BATCHED)
strmv_strided_batched = bind(TRMV, S, STRIDED)
dtrmv_strided_batched = bind(TRMV, D, STRIDED)
ctrmv_strided_batched = bind(TRMV, C, STRIDED)
ztrmv_strided_batched = bind(TRMV, Z, STRIDED)
stpmv = bind(TPMV, S)
dtpmv = bind(TPMV, D)
ctpmv = bind(TPMV, C)
ztpmv = bind(TPMV, Z)
stpmv_batched = bind(TPMV, S, BATCHED)
dtpmv_batched = bind(TPMV, D, BATCHED)
ctpmv_batched = bind(TPMV, C, BATCHED)
ztpmv_batched = bind(TPMV, Z, BATCHED)
stpmv_strided_batched = bind(TPMV, S, STRIDED)
dtpmv_strided_batched = bind(TPMV, D, STRIDED)
ctpmv_strided_batched = bind(TPMV, C, STRIDED)
ztpmv_strided_batched = bind(TPMV, Z, STRIDED)
stbmv = bind(TBMV, S)
dtbmv = bind(TBMV, D)
ctbmv = bind(TBMV, C)
ztbmv = bind(TBMV, Z)
stbmv_batched = bind(TBMV, S, BATCHED)
dtbmv_batched = bind(TBMV, D, BATCHED)
ctbmv_batched = bind(TBMV, C, BATCHED)
ztbmv_batched = bind(TBMV, Z, BATCHED)
stbmv_strided_batched = bind(TBMV, S, STRIDED)
dtbmv_strided_batched = bind(TBMV, D, STRIDED)
ctbmv_strided_batched = bind(TBMV, C, STRIDED)
ztbmv_strided_batched = bind(TBMV, Z, STRIDED)
strsv = bind(TRSV, S)
dtrsv = bind(TRSV, D)
ctrsv = bind(TRSV, C)
ztrsv = bind(TRSV, Z)
strsv_batched = bind(TRSV, S, BATCHED)
dtrsv_batched = bind(TRSV, D, BATCHED)
ctrsv_batched = bind(TRSV, C, BATCHED)
ztrsv_batched = bind(TRSV, Z, BATCHED)
strsv_strided_batched = bind(TRSV, S, STRIDED)
dtrsv_strided_batched = bind(TRSV, D, STRIDED)
ctrsv_strided_batched = bind(TRSV, C, STRIDED)
ztrsv_strided_batched = bind(TRSV, Z, STRIDED)
stpsv = bind(TPSV, S)
dtpsv = bind(TPSV, D)
ctpsv = bind(TPSV, C)
ztpsv = bind(TPSV, Z)
stpsv_batched = bind(TPSV, S, BATCHED)
dtpsv_batched = bind(TPSV, D, BATCHED)
ctpsv_batched = bind(TPSV, C, BATCHED)
ztpsv_batched = bind(TPSV, Z, BATCHED)
stpsv_strided_batched = bind(TPSV, S, STRIDED)
dtpsv_strided_batched = bind(TPSV, D, STRIDED)
ctpsv_strided_batched = bind(TPSV, C, STRIDED)
ztpsv_strided_batched = bind(TPSV, Z, STRIDED)
stbsv = bind(TBSV, S)
dtbsv = bind(TBSV, D)
ctbsv = bind(TBSV, C)
ztbsv = bind(TBSV, Z)
stbsv_batched = bind(TBSV, S, BATCHED)
dtbsv_batched = bind(TBSV, D, BATCHED)
ctbsv_batched = bind(TBSV, C, BATCHED)
ztbsv_batched = bind(TBSV, Z, BATCHED)
stbsv_strided_batched = bind(TBSV, S, STRIDED)
dtbsv_strided_batched = bind(TBSV, D, STRIDED)
ctbsv_strided_batched = bind(TBSV, C, STRIDED)
ztbsv_strided_batched = bind(TBSV, Z, STRIDED)
ssymv = bind(SYMV, S)
dsymv = bind(SYMV, D)
csymv = bind(SYMV, C)
zsymv = bind(SYMV, Z)
ssymv_batched = bind(SYMV, S, BATCHED)
dsymv_batched = bind(SYMV, D, BATCHED)
csymv_batched = bind(SYMV, C, BATCHED)
zsymv_batched = bind(SYMV, Z, BATCHED)
ssymv_strided_batched = bind(SYMV, S, STRIDED)
dsymv_strided_batched = bind(SYMV, D, STRIDED)
csymv_strided_batched = bind(SYMV, C, STRIDED)
zsymv_strided_batched = bind(SYMV, Z, STRIDED)
sspmv = bind(SPMV, S)
dspmv = bind(SPMV, D)
sspmv_batched = bind(SPMV, S, BATCHED)
dspmv_batched = bind(SPMV, D, BATCHED)
sspmv_strided_batched = bind(SPMV, S, STRIDED)
dspmv_strided_batched = bind(SPMV, D, STRIDED)
ssbmv = bind(SBMV, S)
dsbmv = bind(SBMV, D)
ssbmv_batched = bind(SBMV, S, BATCHED)
dsbmv_batched = bind(SBMV, D, BATCHED)
ssbmv_strided_batched = bind(SBMV, S, STRIDED)
dsbmv_strided_batched = bind(SBMV, D, STRIDED)
chemv = bind(HEMV, C)
zhemv = bind(HEMV, Z)
chemv_batched = bind(HEMV, C, BATCHED)
zhemv_batched = bind(HEMV, Z, BATCHED)
chemv_strided_batched = bind(HEMV, C, STRIDED)
zhemv_strided_batched = bind(HEMV, Z, STRIDED)
chbmv = bind(HBMV, C)
zhbmv = bind(HBMV, Z)
chbmv_batched = bind(HBMV, C, BATCHED)
zhbmv_batched = bind(HBMV, Z, BATCHED)
chbmv_strided_batched = bind(HBMV, C, STRIDED)
zhbmv_strided_batched = bind(HBMV, Z, STRIDED)
chpmv = bind(HPMV, C)
zhpmv = bind(HPMV, Z)
chpmv_batched = bind(HPMV, C, BATCHED)
zhpmv_batched = bind(HPMV, Z, BATCHED)
chpmv_strided_batched = bind(HPMV, C, STRIDED)
zhpmv_strided_batched = bind(HPMV, Z, STRIDED)
sger = bind(GER, S)
dger = bind(GER, D)
sger_batched = bind(GER, S, BATCHED)
dger_batched = bind(GER, D, BATCHED)
sger_strided_batched = bind(GER, S, STRIDED)
dger_strided_batched = bind(GER, D, STRIDED)
cgeru = bind(GERU, C)
zgeru = bind(GERU, Z)
cgeru_batched = bind(GERU, C, BATCHED)
zgeru_batched = bind(GERU, Z, BATCHED)
cgeru_strided_batched = bind(GERU, C, STRIDED)
zgeru_strided_batched = bind(GERU, Z, STRIDED)
cgerc = bind(GERC, C)
zgerc = bind(GERC, Z)
cgerc_batched = bind(GERC, C, BATCHED)
zgerc_batched = bind(GERC, Z, BATCHED)
cgerc_strided_batched = bind(GERC, C, STRIDED)
zgerc_strided_batched = bind(GERC, Z, STRIDED)
ssyr = bind(SYR, S)
dsyr = bind(SYR, D)
csyr = bind(SYR, C)
zsyr = bind(SYR, Z)
ssyr_batched = bind(SYR, S, BATCHED)
dsyr_batched = bind(SYR, D, BATCHED)
csyr_batched = bind(SYR, C, BATCHED)
zsyr_batched = bind(SYR, Z, BATCHED)
ssyr_strided_batched = bind(SYR, S, STRIDED)
dsyr_strided_batched = bind(SYR, D, STRIDED)
csyr_strided_batched = bind(SYR, C, STRIDED)
zsyr_strided_batched = bind(SYR, Z, STRIDED)
ssyr2 = bind(SYR2, S)
dsyr2 = bind(SYR2, D)
csyr2 = bind(SYR2, C)
zsyr2 = bind(SYR2, Z)
ssyr2_batched = bind(SYR2, S, BATCHED)
dsyr2_batched = bind(SYR2, D, BATCHED)
csyr2_batched = bind(SYR2, C, BATCHED)
zsyr2_batched = bind(SYR2, Z, BATCHED)
ssyr2_strided_batched = bind(SYR2, S, STRIDED)
dsyr2_strided_batched = bind(SYR2, D, STRIDED)
csyr2_strided_batched = bind(SYR2, C, STRIDED)
zsyr2_strided_batched = bind(SYR2, Z, STRIDED)
sspr = bind(SPR, S)
dspr = bind(SPR, D)
cspr = bind(SPR, C)
zspr = bind(SPR, Z)
sspr_batched = bind(SPR, S, BATCHED)
dspr_batched = bind(SPR, D, BATCHED)
cspr_batched = bind(SPR, C, BATCHED)
zspr_batched = bind(SPR, Z, BATCHED)
sspr_strided_batched = bind(SPR, S, STRIDED)
dspr_strided_batched = bind(SPR, D, STRIDED)
cspr_strided_batched = bind(SPR, C, STRIDED)
zspr_strided_batched = bind(SPR, Z, STRIDED)
sspr2 = bind(SPR2, S)
dspr2 = bind(SPR2, D)
sspr2_batched = bind(SPR2, S, BATCHED)
dspr2_batched = bind(SPR2, D, BATCHED)
sspr2_strided_batched = bind(SPR2, S, STRIDED)
dspr2_strided_batched = bind(SPR2, D, STRIDED)
cher = bind(HER, C)
zher = bind(HER, Z)
cher_batched = bind(HER, C, BATCHED)
zher_batched = bind(HER, Z, BATCHED)
cher_strided_batched = bind(HER, C, STRIDED)
zher_strided_batched = bind(HER, Z, STRIDED)
cher2 = bind(HER2, C)
zher2 = bind(HER2, Z)
cher2_batched = bind(HER2, C, BATCHED)
zher2_batched = bind(HER2, Z, BATCHED)
cher2_strided_batched = bind(HER2, C, STRIDED)
zher2_strided_batched = bind(HER2, Z, STRIDED)
chpr = bind(HPR, C)
zhpr = bind(HPR, Z)
chpr_batched = bind(HPR, C, BATCHED)
zhpr_batched = bind(HPR, Z, BATCHED)
chpr_strided_batched = bind(HPR, C, STRIDED)
zhpr_strided_batched = bind(HPR, Z, STRIDED)
chpr2 = bind(HPR2, C)
zhpr2 = bind(HPR2, Z)
chpr2_batched = bind(HPR2, C, BATCHED)
zhpr2_batched = bind(HPR2, Z, BATCHED)
chpr2_strided_batched = bind(HPR2, C, STRIDED)
zhpr2_strided_batched = bind(HPR2, Z, STRIDED)
# rocBLAS's ILP64 API: the same routines with int64_t sizes (bind(..., ilp64=True)).
sgemv_64 = bind(GEMV, S, ilp64=True)
dgemv_64 = bind(GEMV, D, ilp64=True)
cgemv_64 = bind(GEMV, C, ilp64=True)
zgemv_64 = bind(GEMV, Z, ilp64=True)
sgemv_batched_64 = bind(GEMV, S, BATCHED, ilp64=True)
dgemv_batched_64 = bind(GEMV, D, BATCHED, ilp64=True)
cgemv_batched_64 = bind(GEMV, C, BATCHED, ilp64=True)
zgemv_batched_64 = bind(GEMV, Z, BATCHED, ilp64=True)
sgemv_strided_batched_64 = bind(GEMV, S, STRIDED, ilp64=True)
dgemv_strided_batched_64 = bind(GEMV, D, STRIDED, ilp64=True)
cgemv_strided_batched_64 = bind(GEMV, C, STRIDED, ilp64=True)
zgemv_strided_batched_64 = bind(GEMV, Z, STRIDED, ilp64=True)
hshgemv_batched_64 = bind(GEMV_MIXED, H, BATCHED, prefix="hsh", ilp64=True)
hssgemv_batched_64 = bind(GEMV_MIXED_F32, H, BATCHED, prefix="hss", ilp64=True)
tstgemv_batched_64 = bind(GEMV_MIXED, BF16, BATCHED, prefix="tst", ilp64=True)
tssgemv_batched_64 = bind(GEMV_MIXED_F32, BF16, BATCHED, prefix="tss", ilp64=True)
hshgemv_strided_batched_64 = bind(GEMV_MIXED, H, STRIDED, prefix="hsh", ilp64=True)
hssgemv_strided_batched_64 = bind(GEMV_MIXED_F32, H, STRIDED, prefix="hss", ilp64=True)
tstgemv_strided_batched_64 = bind(GEMV_MIXED, BF16, STRIDED, prefix="tst", ilp64=True)
tssgemv_strided_batched_64 = bind(GEMV_MIXED_F32, BF16, STRIDED, prefix="tss", ilp64=True)
sgbmv_64 = bind(GBMV, S, ilp64=True)
dgbmv_64 = bind(GBMV, D, ilp64=True)
cgbmv_64 = bind(GBMV, C, ilp64=True)
zgbmv_64 = bind(GBMV, Z, ilp64=True)
sgbmv_batched_64 = bind(GBMV, S, BATCHED, ilp64=True)
dgbmv_batched_64 = bind(GBMV, D, BATCHED, ilp64=True)
cgbmv_batched_64 = bind(GBMV, C, BATCHED, ilp64=True)
zgbmv_batched_64 = bind(GBMV, Z, BATCHED, ilp64=True)
sgbmv_strided_batched_64 = bind(GBMV, S, STRIDED, ilp64=True)
dgbmv_strided_batched_64 = bind(GBMV, D, STRIDED, ilp64=True)
cgbmv_strided_batched_64 = bind(GBMV, C, STRIDED, ilp64=True)
zgbmv_strided_batched_64 = bind(GBMV, Z, STRIDED, ilp64=True)
strmv_64 = bind(TRMV, S, ilp64=True)
dtrmv_64 = bind(TRMV, D, ilp64=True)
ctrmv_64 = bind(TRMV, C, ilp64=True)
ztrmv_64 = bind(TRMV, Z, ilp64=True)
strmv_batched_64 = bind(TRMV, S, BATCHED, ilp64=True)
dtrmv_batched_64 = bind(TRMV, D, BATCHED, ilp64=True)
ctrmv_batched_64 = bind(TRMV, C, BATCHED, ilp64=True)
ztrmv_batched_64 = bind(TRMV, Z, BATCHED, ilp64=True)
strmv_strided_batched_64 = bind(TRMV, S, STRIDED, ilp64=True)
dtrmv_strided_batched_64 = bind(TRMV, D, STRIDED, ilp64=True)
ctrmv_strided_batched_64 = bind(TRMV, C, STRIDED, ilp64=True)
ztrmv_strided_batched_64 = bind(TRMV, Z, STRIDED, ilp64=True)
stpmv_64 = bind(TPMV, S, ilp64=True)
dtpmv_64 = bind(TPMV, D, ilp64=True)
ctpmv_64 = bind(TPMV, C, ilp64=True)
ztpmv_64 = bind(TPMV, Z, ilp64=True)
stpmv_batched_64 = bind(TPMV, S, BATCHED, ilp64=True)
dtpmv_batched_64 = bind(TPMV, D, BATCHED, ilp64=True)
ctpmv_batched_64 = bind(TPMV, C, BATCHED, ilp64=True)
ztpmv_batched_64 = bind(TPMV, Z, BATCHED, ilp64=True)
stpmv_strided_batched_64 = bind(TPMV, S, STRIDED, ilp64=True)
dtpmv_strided_batched_64 = bind(TPMV, D, STRIDED, ilp64=True)
ctpmv_strided_batched_64 = bind(TPMV, C, STRIDED, ilp64=True)
ztpmv_strided_batched_64 = bind(TPMV, Z, STRIDED, ilp64=True)
stbmv_64 = bind(TBMV, S, ilp64=True)
dtbmv_64 = bind(TBMV, D, ilp64=True)
ctbmv_64 = bind(TBMV, C, ilp64=True)
ztbmv_64 = bind(TBMV, Z, ilp64=True)
stbmv_batched_64 = bind(TBMV, S, BATCHED, ilp64=True)
dtbmv_batched_64 = bind(TBMV, D, BATCHED, ilp64=True)
ctbmv_batched_64 = bind(TBMV, C, BATCHED, ilp64=True)
ztbmv_batched_64 = bind(TBMV, Z, BATCHED, ilp64=True)
stbmv_strided_batched_64 = bind(TBMV, S, STRIDED, ilp64=True)
dtbmv_strided_batched_64 = bind(TBMV, D, STRIDED, ilp64=True)
ctbmv_strided_batched_64 = bind(TBMV, C, STRIDED, ilp64=True)
ztbmv_strided_batched_64 = bind(TBMV, Z, STRIDED, ilp64=True)
strsv_64 = bind(TRSV, S, ilp64=True)
dtrsv_64 = bind(TRSV, D, ilp64=True)
ctrsv_64 = bind(TRSV, C, ilp64=True)
ztrsv_64 = bind(TRSV, Z, ilp64=True)
strsv_batched_64 = bind(TRSV, S, BATCHED, ilp64=True)
dtrsv_batched_64 = bind(TRSV, D, BATCHED, ilp64=True)
ctrsv_batched_64 = bind(TRSV, C, BATCHED, ilp64=True)
ztrsv_batched_64 = bind(TRSV, Z, BATCHED, ilp64=True)
strsv_strided_batched_64 = bind(TRSV, S, STRIDED, ilp64=True)
dtrsv_strided_batched_64 = bind(TRSV, D, STRIDED, ilp64=True)
ctrsv_strided_batched_64 = bind(TRSV, C, STRIDED, ilp64=True)
ztrsv_strided_batched_64 = bind(TRSV, Z, STRIDED, ilp64=True)
stpsv_64 = bind(TPSV, S, ilp64=True)
dtpsv_64 = bind(TPSV, D, ilp64=True)
ctpsv_64 = bind(TPSV, C, ilp64=True)
ztpsv_64 = bind(TPSV, Z, ilp64=True)
stpsv_batched_64 = bind(TPSV, S, BATCHED, ilp64=True)
dtpsv_batched_64 = bind(TPSV, D, BATCHED, ilp64=True)
ctpsv_batched_64 = bind(TPSV, C, BATCHED, ilp64=True)
ztpsv_batched_64 = bind(TPSV, Z, BATCHED, ilp64=True)
stpsv_strided_batched_64 = bind(TPSV, S, STRIDED, ilp64=True)
dtpsv_strided_batched_64 = bind(TPSV, D, STRIDED, ilp64=True)
ctpsv_strided_batched_64 = bind(TPSV, C, STRIDED, ilp64=True)
ztpsv_strided_batched_64 = bind(TPSV, Z, STRIDED, ilp64=True)
stbsv_64 = bind(TBSV, S, ilp64=True)
dtbsv_64 = bind(TBSV, D, ilp64=True)
ctbsv_64 = bind(TBSV, C, ilp64=True)
ztbsv_64 = bind(TBSV, Z, ilp64=True)
stbsv_batched_64 = bind(TBSV, S, BATCHED, ilp64=True)
dtbsv_batched_64 = bind(TBSV, D, BATCHED, ilp64=True)
ctbsv_batched_64 = bind(TBSV, C, BATCHED, ilp64=True)
ztbsv_batched_64 = bind(TBSV, Z, BATCHED, ilp64=True)
stbsv_strided_batched_64 = bind(TBSV, S, STRIDED, ilp64=True)
dtbsv_strided_batched_64 = bind(TBSV, D, STRIDED, ilp64=True)
ctbsv_strided_batched_64 = bind(TBSV, C, STRIDED, ilp64=True)
ztbsv_strided_batched_64 = bind(TBSV, Z, STRIDED, ilp64=True)
ssymv_64 = bind(SYMV, S, ilp64=True)
dsymv_64 = bind(SYMV, D, ilp64=True)
csymv_64 = bind(SYMV, C, ilp64=True)
zsymv_64 = bind(SYMV, Z, ilp64=True)
ssymv_batched_64 = bind(SYMV, S, BATCHED, ilp64=True)
dsymv_batched_64 = bind(SYMV, D, BATCHED, ilp64=True)
csymv_batched_64 = bind(SYMV, C, BATCHED, ilp64=True)
zsymv_batched_64 = bind(SYMV, Z, BATCHED, ilp64=True)
ssymv_strided_batched_64 = bind(SYMV, S, STRIDED, ilp64=True)
dsymv_strided_batched_64 = bind(SYMV, D, STRIDED, ilp64=True)
csymv_strided_batched_64 = bind(SYMV, C, STRIDED, ilp64=True)
zsymv_strided_batched_64 = bind(SYMV, Z, STRIDED, ilp64=True)
sspmv_64 = bind(SPMV, S, ilp64=True)
dspmv_64 = bind(SPMV, D, ilp64=True)
sspmv_batched_64 = bind(SPMV, S, BATCHED, ilp64=True)
dspmv_batched_64 = bind(SPMV, D, BATCHED, ilp64=True)
sspmv_strided_batched_64 = bind(SPMV, S, STRIDED, ilp64=True)
dspmv_strided_batched_64 = bind(SPMV, D, STRIDED, ilp64=True)
ssbmv_64 = bind(SBMV, S, ilp64=True)
dsbmv_64 = bind(SBMV, D, ilp64=True)
ssbmv_batched_64 = bind(SBMV, S, BATCHED, ilp64=True)
dsbmv_batched_64 = bind(SBMV, D, BATCHED, ilp64=True)
ssbmv_strided_batched_64 = bind(SBMV, S, STRIDED, ilp64=True)
dsbmv_strided_batched_64 = bind(SBMV, D, STRIDED, ilp64=True)
chemv_64 = bind(HEMV, C, ilp64=True)
zhemv_64 = bind(HEMV, Z, ilp64=True)
chemv_batched_64 = bind(HEMV, C, BATCHED, ilp64=True)
zhemv_batched_64 = bind(HEMV, Z, BATCHED, ilp64=True)
chemv_strided_batched_64 = bind(HEMV, C, STRIDED, ilp64=True)
zhemv_strided_batched_64 = bind(HEMV, Z, STRIDED, ilp64=True)
chbmv_64 = bind(HBMV, C, ilp64=True)
zhbmv_64 = bind(HBMV, Z, ilp64=True)
chbmv_batched_64 = bind(HBMV, C, BATCHED, ilp64=True)
zhbmv_batched_64 = bind(HBMV, Z, BATCHED, ilp64=True)
chbmv_strided_batched_64 = bind(HBMV, C, STRIDED, ilp64=True)
zhbmv_strided_batched_64 = bind(HBMV, Z, STRIDED, ilp64=True)
chpmv_64 = bind(HPMV, C, ilp64=True)
zhpmv_64 = bind(HPMV, Z, ilp64=True)
chpmv_batched_64 = bind(HPMV, C, BATCHED, ilp64=True)
zhpmv_batched_64 = bind(HPMV, Z, BATCHED, ilp64=True)
chpmv_strided_batched_64 = bind(HPMV, C, STRIDED, ilp64=True)
zhpmv_strided_batched_64 = bind(HPMV, Z, STRIDED, ilp64=True)
sger_64 = bind(GER, S, ilp64=True)
dger_64 = bind(GER, D, ilp64=True)
sger_batched_64 = bind(GER, S, BATCHED, ilp64=True)
dger_batched_64 = bind(GER, D, BATCHED, ilp64=True)
sger_strided_batched_64 = bind(GER, S, STRIDED, ilp64=True)
dger_strided_batched_64 = bind(GER, D, STRIDED, ilp64=True)
cgeru_64 = bind(GERU, C, ilp64=True)
zgeru_64 = bind(GERU, Z, ilp64=True)
cgeru_batched_64 = bind(GERU, C, BATCHED, ilp64=True)
zgeru_batched_64 = bind(GERU, Z, BATCHED, ilp64=True)
cgeru_strided_batched_64 = bind(GERU, C, STRIDED, ilp64=True)
zgeru_strided_batched_64 = bind(GERU, Z, STRIDED, ilp64=True)
cgerc_64 = bind(GERC, C, ilp64=True)
zgerc_64 = bind(GERC, Z, ilp64=True)
cgerc_batched_64 = bind(GERC, C, BATCHED, ilp64=True)
zgerc_batched_64 = bind(GERC, Z, BATCHED, ilp64=True)
cgerc_strided_batched_64 = bind(GERC, C, STRIDED, ilp64=True)
zgerc_strided_batched_64 = bind(GERC, Z, STRIDED, ilp64=True)
ssyr_64 = bind(SYR, S, ilp64=True)
dsyr_64 = bind(SYR, D, ilp64=True)
csyr_64 = bind(SYR, C, ilp64=True)
zsyr_64 = bind(SYR, Z, ilp64=True)
ssyr_batched_64 = bind(SYR, S, BATCHED, ilp64=True)
dsyr_batched_64 = bind(SYR, D, BATCHED, ilp64=True)
csyr_batched_64 = bind(SYR, C, BATCHED, ilp64=True)
zsyr_batched_64 = bind(SYR, Z, BATCHED, ilp64=True)
ssyr_strided_batched_64 = bind(SYR, S, STRIDED, ilp64=True)
dsyr_strided_batched_64 = bind(SYR, D, STRIDED, ilp64=True)
csyr_strided_batched_64 = bind(SYR, C, STRIDED, ilp64=True)
zsyr_strided_batched_64 = bind(SYR, Z, STRIDED, ilp64=True)
ssyr2_64 = bind(SYR2, S, ilp64=True)
dsyr2_64 = bind(SYR2, D, ilp64=True)
csyr2_64 = bind(SYR2, C, ilp64=True)
zsyr2_64 = bind(SYR2, Z, ilp64=True)
ssyr2_batched_64 = bind(SYR2, S, BATCHED, ilp64=True)
dsyr2_batched_64 = bind(SYR2, D, BATCHED, ilp64=True)
csyr2_batched_64 = bind(SYR2, C, BATCHED, ilp64=True)
zsyr2_batched_64 = bind(SYR2, Z, BATCHED, ilp64=True)
ssyr2_strided_batched_64 = bind(SYR2, S, STRIDED, ilp64=True)
dsyr2_strided_batched_64 = bind(SYR2, D, STRIDED, ilp64=True)
csyr2_strided_batched_64 = bind(SYR2, C, STRIDED, ilp64=True)
zsyr2_strided_batched_64 = bind(SYR2, Z, STRIDED, ilp64=True)
sspr_64 = bind(SPR, S, ilp64=True)
dspr_64 = bind(SPR, D, ilp64=True)
cspr_64 = bind(SPR, C, ilp64=True)
zspr_64 = bind(SPR, Z, ilp64=True)
sspr_batched_64 = bind(SPR, S, BATCHED, ilp64=True)
dspr_batched_64 = bind(SPR, D, BATCHED, ilp64=True)
cspr_batched_64 = bind(SPR, C, BATCHED, ilp64=True)
zspr_batched_64 = bind(SPR, Z, BATCHED, ilp64=True)
sspr_strided_batched_64 = bind(SPR, S, STRIDED, ilp64=True)
dspr_strided_batched_64 = bind(SPR, D, STRIDED, ilp64=True)
cspr_strided_batched_64 = bind(SPR, C, STRIDED, ilp64=True)
zspr_strided_batched_64 = bind(SPR, Z, STRIDED, ilp64=True)
sspr2_64 = bind(SPR2, S, ilp64=True)
dspr2_64 = bind(SPR2, D, ilp64=True)
sspr2_batched_64 = bind(SPR2, S, BATCHED, ilp64=True)
dspr2_batched_64 = bind(SPR2, D, BATCHED, ilp64=True)
sspr2_strided_batched_64 = bind(SPR2, S, STRIDED, ilp64=True)
dspr2_strided_batched_64 = bind(SPR2, D, STRIDED, ilp64=True)
cher_64 = bind(HER, C, ilp64=True)
zher_64 = bind(HER, Z, ilp64=True)
cher_batched_64 = bind(HER, C, BATCHED, ilp64=True)
zher_batched_64 = bind(HER, Z, BATCHED, ilp64=True)
cher_strided_batched_64 = bind(HER, C, STRIDED, ilp64=True)
zher_strided_batched_64 = bind(HER, Z, STRIDED, ilp64=True)
cher2_64 = bind(HER2, C, ilp64=True)
zher2_64 = bind(HER2, Z, ilp64=True)
cher2_batched_64 = bind(HER2, C, BATCHED, ilp64=True)
zher2_batched_64 = bind(HER2, Z, BATCHED, ilp64=True)
cher2_strided_batched_64 = bind(HER2, C, STRIDED, ilp64=True)
zher2_strided_batched_64 = bind(HER2, Z, STRIDED, ilp64=True)
chpr_64 = bind(HPR, C, ilp64=True)
zhpr_64 = bind(HPR, Z, ilp64=True)
chpr_batched_64 = bind(HPR, C, BATCHED, ilp64=True)
zhpr_batched_64 = bind(HPR, Z, BATCHED, ilp64=True)
chpr_strided_batched_64 = bind(HPR, C, STRIDED, ilp64=True)
zhpr_strided_batched_64 = bind(HPR, Z, STRIDED, ilp64=True)
chpr2_64 = bind(HPR2, C, ilp64=True)
zhpr2_64 = bind(HPR2, Z, ilp64=True)
chpr2_batched_64 = bind(HPR2, C, BATCHED, ilp64=True)
zhpr2_batched_64 = bind(HPR2, Z, BATCHED, ilp64=True)
chpr2_strided_batched_64 = bind(HPR2, C, STRIDED, ilp64=True)
zhpr2_strided_batched_64 = bind(HPR2, Z, STRIDED, ilp64=True)
# fmt: on

__all__ = public_names(globals())
