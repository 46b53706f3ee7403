"""Level-3 BLAS: matrix-matrix operations, in rocBLAS's check order and quick returns.

Every routine checks, as rocBLAS's ``*_arg_check``: enums (invalid_value), sizes and
leading dimensions (invalid_size; ``batch_count < 0`` included), the quick return
(an empty problem: success, nothing touched), then pointers (invalid_pointer: alpha
and beta first, arrays only where they would be read).  With host scalars, a zero
alpha means A and B are not read (they may be null) and a zero beta that C is not
read (a NaN there does not propagate).

In device pointer mode gemm, symm, hemm, syr2k, her2k, syrkx and herkx copy alpha and
beta back to the host synchronously, as rocBLAS does, and then follow the host rules
(alpha == 0 and beta == 1 returns before C is checked, so C may then be null); the other
routines stay asynchronous and read their scalars when the kernel runs.  rocBLAS does not
check their array pointers in device mode (its kernels then skip A and B when alpha
is 0); here a null A or B that might be read makes the call read alpha back and
decide: a zero alpha proceeds without it, anything else is invalid_pointer (on a
GPU it would be a memory fault).

The work is reference BLAS (scipy's OpenBLAS) on each batch entry, see
``_kernels_l3``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from rocmath.batch import BatchOperand
from rocmath.errors import RocblasInvalidValueError
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels_l3 as k3
from ._api import BATCHED, STRIDED, Call, Routine, bind, public_names
from ._types import Diagonal, Fill, Operation, Side

_NONE = Operation.none
_UPLO = (Fill.upper, Fill.lower)
_SIDES = (Side.left, Side.right)
_ALL_OPS = (Operation.none, Operation.transpose, Operation.conjugate_transpose)


# --- shared argument checks ----------------------------------------------------------------------


def _sizes(c: Call, *names: str) -> list[int]:
    """The integer arguments ``names``, each >= 0 (invalid_size naming the first that is not);
    ``batch_count`` of a plain call is 1."""
    out = []
    for name in names:
        if name == "batch_count":
            out.append(c.batch_count)
            continue
        value = c.int(name)
        if value < 0:
            raise c.invalid_size(name, f"must be non-negative, got {value}")
        out.append(value)
    return out


def _lds(c: Call, *pairs: tuple[str, int]) -> None:
    """Each leading dimension at least the rows it spans (rocBLAS: ``lda < rows`` is invalid_size)."""
    for name, rows in pairs:
        ld = c.int(name)
        if ld < rows:
            raise c.invalid_size(name, f"must be >= {rows} (the rows it spans), got {ld}")


def _ops(c: Call, conjugate: bool) -> tuple[Operation, ...]:
    """Operations allowed for syrk-like routines: all for real precisions, N/T for complex
    symmetric ones, N/C for Hermitian ones (``conjugate``)."""
    if not c.precision.is_complex:
        return _ALL_OPS
    return (Operation.none, Operation.conjugate_transpose if conjugate else Operation.transpose)


def _missing(c: Call, name: str) -> bool:
    """Whether a pointer argument is null.  A scalar in host pointer mode is a value, where
    0 is alpha = 0: only None is a null pointer there."""
    if name in ("alpha", "beta") and c.host_mode:
        return c[name] is None
    return c.is_null(name)


def _require(c: Call, *names: str) -> None:
    """invalid_pointer for the first null argument among ``names``."""
    for name in names:
        if _missing(c, name):
            raise c.invalid_pointer(name)


def _arrays_needed(c: Call, alpha_host: Any, names: tuple[str, ...], dtype: Any = None) -> tuple[bool, Any]:
    """Whether the product (reading ``names``) is computed, and alpha for the kernel if it
    had to be read back.

    Host mode: exactly when alpha != 0, and then the arrays must not be null.  Device
    mode: always, unless one of them is null; then alpha is read back (synchronously)
    and a zero alpha computes without them (see the module docstring)."""
    if c.host_mode:
        if alpha_host != 0:
            _require(c, *names)
            return True, None
        return False, None
    value = c.null_array_alpha(names, dtype)
    if value is None:
        return True, None
    if value != 0:
        _require(c, *names)
    return False, value


def _unread(c: Call, name: str) -> BatchOperand:
    """An empty placeholder for an array the kernel must not read (alpha == 0)."""
    return BatchOperand(0, c.dtype, (0, 0), (1, 1), c.batch_count, 0, False, 0, False, name)


def _host(value: Any, dtype: Any) -> np.ndarray:
    return np.array([0 if value is None else value], dtype=dtype)


def _work(c: Call, muladds: int) -> dict[str, float]:
    """flops for the launch record: a complex multiply-add is 8 real flops."""
    return {"flops": float(muladds) * c.batch_count * (8 if c.precision.is_complex else 2)}


def _launch(c: Call, kernel: Any, *args: Any, triangle: tuple[Any, Fill, bool] | None = None,
            **work: Any) -> None:
    """Launch a Level-3 kernel; ``triangle = (operand, uplo, unit)`` names the operand of
    which only a triangle is data (for check-numerics)."""
    k3.ensure_blas()  # on the calling thread, before the stream compiles or loads a kernel
    tri = None if triangle is None else {id(triangle[0]): (triangle[1] is Fill.upper, triangle[2])}
    c.launch(kernel, *args, triangles=tri, **work)


def _lone(*operands: BatchOperand) -> bool:
    """Whether the operands are one column-major entry each, in their own type, with the call's
    leading dimensions (a plain call, or a strided batch of one; not staged through host copies,
    as pointer arrays and storage types are)."""
    return all(op.batch_count == 1 and not op.pointers and op.compute_dtype is None for op in operands)


def _one(c: Call, which: int, letters: tuple[Any, ...], m: int, n: int, k: int, alpha: Any, a: BatchOperand,
         lda: int, b: BatchOperand, ldb: int, beta: Any, out: BatchOperand, ldc: int,
         triangle: tuple[Any, Fill, bool] | None = None, **work: float) -> bool:
    """Launch :func:`~rocmath.blas._kernels_l3.one_entry` (BLAS on a lone entry, straight from the
    stream) if the operands are :func:`_lone` and the leading dimensions fit BLAS's 32-bit integers
    (an ``_64`` call may give any leading dimension to an axis of extent 1); False if not, nothing
    launched: the caller launches its body.  ``k`` is 0 when A and B are not read.  ``alpha`` and
    ``beta``: host arrays, or device views read when the kernel runs (device pointer mode)."""
    if max(lda, ldb, ldc) > _I32_MAX or not _lone(a, b, out):
        return False
    codes = [_letter(e) for e in letters] + [0] * (4 - len(letters))
    dt = out.kernel_dtype
    # herk's and her2k's real scalars (host arrays: those routines read device scalars at the call) as
    # complex ones: BLAS reads the real part, their first bytes, and one kernel serves each precision.
    alpha, beta = (v.astype(dt) if isinstance(v, np.ndarray) and v.dtype != dt else v for v in (alpha, beta))
    _launch(c, k3.one_entry, which, k3.KIND[dt], *codes, m, n, k, alpha, a, lda, b, ldb, beta, out, ldc,
            triangle=triangle, brief=work.get("flops", 0.0) <= _BRIEF_FLOPS, **work)
    return True


#: BLAS's integers (scipy's OpenBLAS): 32 bits.
_I32_MAX = 2**31 - 1
#: One entry of at most this many flops runs on the calling thread when its stream is idle, whatever
#: its bytes: through the stream's worker, a 128 x 128 dgemm took 73.6 us against 59.4 here (OpenBLAS
#: alone 55), a 192 x 192 one 176 against 163.  Larger ones stay asynchronous: the host goes on.
_BRIEF_FLOPS = 1 << 24


def _letter(e: Any) -> int:
    return ord(e.letter)


def _shape(op: Operation, rows: int, cols: int) -> tuple[int, int]:
    """Stored shape of a matrix whose op() is ``rows x cols``."""
    return (rows, cols) if op is _NONE else (cols, rows)


# --- gemm ------------------------------------------------------------------------------------------


def _gemm(c: Call) -> None:
    ta, tb = c.enum("transA", Operation), c.enum("transB", Operation)
    m, n, k, batch = _sizes(c, "m", "n", "k", "batch_count")
    _lds(c, ("lda", m if ta is _NONE else k), ("ldb", k if tb is _NONE else n), ("ldc", m))
    if m == 0 or n == 0 or batch == 0:
        return
    # rocBLAS copies device scalars to the host first; alpha is taken as 0 when k == 0, in either
    # mode, never read (tensile_host.cpp): a NaN alpha leaves C := beta C.
    _require(c, "beta")
    beta = c.read_scalar("beta")
    alpha = None
    if not _missing(c, "alpha"):
        alpha = c.dtype.type(0) if k == 0 else c.read_scalar("alpha")
    if beta == 1:
        if k == 0:
            return
        _require(c, "alpha")
        if alpha == 0:
            return
    compute = k > 0 and alpha != 0
    if k > 0:
        _require(c, "alpha")
        if compute:
            _require(c, "A", "B")
    _require(c, "C")
    dt = c.dtype
    a = c.matrix("A", *_shape(ta, m, k), c.int("lda")) if compute else _unread(c, "A")
    b = c.matrix("B", *_shape(tb, k, n), c.int("ldb")) if compute else _unread(c, "B")
    out = c.matrix("C", m, n, c.int("ldc"), writable=True)
    work = _work(c, m * n * k if compute else 0)
    # Small entries: the register-tiled loops of every batch count (the same bits alone or batched).
    if max(m, n, k if compute else 0) > k3.SMALL:
        if _one(c, k3.GEMM, (ta, tb), m, n, k if compute else 0, _host(alpha, dt), a, c.int("lda"), b, c.int("ldb"),
                _host(beta, dt), out, c.int("ldc"), **work):
            return
    elif compute and _lone(a, b, out) and c.spans_allowed:
        # One small entry: the loops straight from the stream, on flat spans of the operands.
        ta_, tb_ = _letter(ta), _letter(tb)
        loops, wa, wb, vec = k3.small_gemm_loops(ta_, tb_, dt, m, n, k, 1)
        lds = [op.shape[0] if op.shape[1] <= 1 else c.int(ld) for op, ld in ((a, "lda"), (b, "ldb"), (out, "ldc"))]
        spans = [Buffer(op.ptr, dt, ((op.shape[1] - 1) * ld + op.shape[0],), name=op.name, owner=op.owner)
                 for op, ld in zip((a, b, out), lds, strict=True)]
        _launch(c, loops, ta_, tb_, _host(alpha, dt), _host(beta, dt), *spans, wa, wb, 1, m, n, k, *lds, 0, 0, 0, 1,
                vec, 1, bytes=float(dt.itemsize * sum(op.shape[0] * op.shape[1] for op in (a, b, out))), **work)
        return
    _launch(c, k3.gemm, k3.GEMM, _letter(ta), _letter(tb), 0, 0, _host(alpha, dt), a, b, _host(beta, dt), out,
            **work)


GEMM = Routine("gemm", ("transA", "transB", "m", "n", "k", "alpha", "A", "lda", "B", "ldb", "beta", "C", "ldc"),
               {"A": "lda", "B": "ldb", "C": "ldc"}, _gemm,
               summary="C := alpha op(A) op(B) + beta C.")


# --- symm, hemm ------------------------------------------------------------------------------------


def _symm(c: Call, hermitian: bool = False) -> None:
    side, uplo = c.enum("side", Side, _SIDES), c.enum("uplo", Fill, _UPLO)
    batch, m, n = _sizes(c, "batch_count", "m", "n")
    ka = m if side is Side.left else n
    _lds(c, ("ldc", m), ("ldb", m), ("lda", ka))
    if m == 0 or n == 0 or batch == 0:
        return
    _require(c, "beta", "alpha")
    if c.host_mode:
        alpha, beta = c.scalar("alpha"), c.scalar("beta")
        a_host, b_host = c.host_scalar("alpha"), c.host_scalar("beta")
    else:
        # The argument check skips the arrays in device mode; the launcher then copies alpha
        # and beta to the host and returns on alpha == 0 and beta == 1, a null C or not
        # (rocblas_symm_hemm_kernels.cpp, both its batched and non-batched templates).
        a_host, b_host = c.read_scalar("alpha"), c.read_scalar("beta")
        alpha, beta = _host(a_host, c.dtype), _host(b_host, c.dtype)
    if a_host == 0 and b_host == 1:
        return
    _require(c, "C")
    compute = a_host != 0
    if compute:
        _require(c, "A", "B")
    a = c.matrix("A", ka, ka, c.int("lda")) if compute else _unread(c, "A")
    b = c.matrix("B", m, n, c.int("ldb")) if compute else _unread(c, "B")
    out = c.matrix("C", m, n, c.int("ldc"), writable=True)
    which, work = k3.HEMM if hermitian else k3.SYMM, _work(c, m * n * ka if compute else 0)
    if _one(c, which, (side, uplo), m, n, 0, alpha, a, c.int("lda"), b, c.int("ldb"), beta, out, c.int("ldc"),
            triangle=(a, uplo, False), **work):
        return
    _launch(c, k3.gemm, which, _letter(side), _letter(uplo), 0, 0, alpha, a, b, beta, out,
            triangle=(a, uplo, False), **work)


_SYMM_PARAMS = ("side", "uplo", "m", "n", "alpha", "A", "lda", "B", "ldb", "beta", "C", "ldc")
_SYMM_ARRAYS = {"A": "lda", "B": "ldb", "C": "ldc"}
SYMM = Routine("symm", _SYMM_PARAMS, _SYMM_ARRAYS, _symm,
               summary="C := alpha A B + beta C (side left) or alpha B A + beta C (right), A symmetric, "
                       "only its uplo triangle read.")
HEMM = Routine("hemm", _SYMM_PARAMS, _SYMM_ARRAYS, partial(_symm, hermitian=True),
               summary="C := alpha A B + beta C (side left) or alpha B A + beta C (right), A Hermitian, "
                       "only its uplo triangle read (the imaginary parts of its diagonal taken as 0).")


# --- syrk, herk, syr2k, her2k, syrkx, herkx ------------------------------------------------------


def _rank(c: Call, which: int) -> None:
    two = which not in (k3.SYRK, k3.HERK)
    hermitian = which in (k3.HERK, k3.HER2K, k3.HERKX)
    trans_name = "trans" if two else "transA"
    uplo = c.enum("uplo", Fill, _UPLO)
    trans = c.enum(trans_name, Operation, _ops(c, hermitian))
    n, k, batch = _sizes(c, "n", "k", "batch_count")
    rows = n if trans is _NONE else k  # rows of the stored A (and B)
    _lds(c, ("ldc", n), ("lda", rows), *((("ldb", rows),) if two else ()))
    if n == 0 or batch == 0:
        return
    if k > 0:
        _require(c, "alpha")
    _require(c, "beta")
    real = c.precision.real.dtype
    adt = real if which == k3.HERK else c.dtype
    bdt = real if hermitian else c.dtype
    arrays = ("A", "B") if two else ("A",)
    if not c.host_mode:
        # rocBLAS copies the scalars to the host (alpha as 0 when k == 0) and pushes host pointer
        # mode before checking the arrays, which then follows the host rules: a no-op with a null C
        # succeeds (rocblas_syrk_herk_kernels.cpp, rocblas_syr2k_her2k_kernels.cpp, syrkx, herkx).
        a_host = np.dtype(adt).type(0) if k == 0 or _missing(c, "alpha") else c.read_scalar("alpha", adt)
        b_host = c.read_scalar("beta", bdt)
        alpha, beta = _host(a_host, adt), _host(b_host, bdt)
    else:
        a_host = None if _missing(c, "alpha") else c.host_scalar("alpha", adt)
        b_host = c.host_scalar("beta", bdt)
        alpha = _host(0, adt) if _missing(c, "alpha") else c.scalar("alpha", adt)
        beta = c.scalar("beta", bdt)
    compute = k > 0 and a_host != 0
    if not compute and b_host == 1:
        return
    if compute:
        _require(c, *arrays)
    _require(c, "C")
    shape = _shape(trans, n, k)
    a = c.matrix("A", *shape, c.int("lda")) if compute else _unread(c, "A")
    b = (c.matrix("B", *shape, c.int("ldb")) if compute else _unread(c, "B")) if two else _unread(c, "B")
    out = c.matrix("C", n, n, c.int("ldc"), writable=True)
    work = _work(c, n * (n + 1) // 2 * k * (2 if which in (k3.SYR2K, k3.HER2K) else 1) if compute else 0)
    # (syrkx and herkx restore what their gemm wrote off the triangle: their body does)
    if which < k3.SYRKX and _one(c, k3.RANK + which, (uplo, trans), n, n, k if compute else 0, alpha, a,
                                 c.int("lda"), b, c.int("ldb") if two else 1, beta, out, c.int("ldc"),
                                 triangle=(out, uplo, False), **work):
        return
    _launch(c, k3.rank_k, which, _letter(uplo), _letter(trans), alpha, a, b, beta, out, triangle=(out, uplo, False),
            **work)


_RK_PARAMS = ("uplo", "transA", "n", "k", "alpha", "A", "lda", "beta", "C", "ldc")
_R2K_PARAMS = ("uplo", "trans", "n", "k", "alpha", "A", "lda", "B", "ldb", "beta", "C", "ldc")
_R2K_ARRAYS = {"A": "lda", "B": "ldb", "C": "ldc"}
SYRK = Routine("syrk", _RK_PARAMS, {"A": "lda", "C": "ldc"}, partial(_rank, which=k3.SYRK),
               summary="C := alpha op(A) op(A)^T + beta C on the uplo triangle of C.")
HERK = Routine("herk", _RK_PARAMS, {"A": "lda", "C": "ldc"}, partial(_rank, which=k3.HERK),
               summary="C := alpha op(A) op(A)^H + beta C on the uplo triangle of C; real alpha and beta, "
                       "the diagonal of C made real.")
SYR2K = Routine("syr2k", _R2K_PARAMS, _R2K_ARRAYS, partial(_rank, which=k3.SYR2K),
                summary="C := alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C on the uplo triangle of C.")
HER2K = Routine("her2k", _R2K_PARAMS, _R2K_ARRAYS, partial(_rank, which=k3.HER2K),
                summary="C := alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C on the uplo triangle "
                        "of C; real beta, the diagonal of C made real.")
SYRKX = Routine("syrkx", _R2K_PARAMS, _R2K_ARRAYS, partial(_rank, which=k3.SYRKX),
                summary="C := alpha op(A) op(B)^T + beta C on the uplo triangle of C (syrk when op(A) op(B)^T "
                        "is known to be symmetric).")
HERKX = Routine("herkx", _R2K_PARAMS, _R2K_ARRAYS, partial(_rank, which=k3.HERKX),
                summary="C := alpha op(A) op(B)^H + beta C on the uplo triangle of C (herk when op(A) op(B)^H "
                        "is known to be Hermitian); real beta, the diagonal of C made real.")


# --- trmm, trsm, trtri -------------------------------------------------------------------------


def _tr_enums(c: Call) -> tuple[Side, Fill, Operation, Diagonal]:
    return (c.enum("side", Side, _SIDES), c.enum("uplo", Fill, _UPLO), c.enum("transA", Operation),
            c.enum("diag", Diagonal))


def _trmm(c: Call) -> None:
    side, uplo, ta, diag = _tr_enums(c)
    batch, m, n = _sizes(c, "batch_count", "m", "n")
    ka = m if side is Side.left else n
    _lds(c, ("ldc", m), ("ldb", m), ("lda", ka))
    if m == 0 or n == 0 or batch == 0:
        return
    _require(c, "alpha", "C")
    alpha, a_host = c.scalar("alpha"), c.host_scalar("alpha")
    compute, read = _arrays_needed(c, a_host, ("A", "B"))
    if read is not None:
        alpha = _host(read, c.dtype)
    if c.ptr("B") == c.ptr("C") and c.int("ldb") != c.int("ldc"):
        raise RocblasInvalidValueError("B and C are the same matrix: ldc must equal ldb", arg="ldc",
                                       index=c.index("ldc"))
    # alpha == 0: C := 0 without reading A or B (the kernel skips the copy of an empty B).
    a = c.matrix("A", ka, ka, c.int("lda")) if compute else _unread(c, "A")
    b = c.matrix("B", m, n, c.int("ldb")) if compute else _unread(c, "B")
    out = c.matrix("C", m, n, c.int("ldc"), writable=True)
    triangle, work = (a, uplo, diag is Diagonal.unit), _work(c, m * n * ka // 2 if compute else 0)
    if _one(c, k3.TRMM, (side, uplo, ta, diag), m, n, 0, alpha, a, c.int("lda"), b, c.int("ldb"), alpha, out,
            c.int("ldc"), triangle=triangle, **work):
        return
    _launch(c, k3.gemm, k3.TRMM, _letter(side), _letter(uplo), _letter(ta), _letter(diag), alpha, a, b, alpha, out,
            triangle=triangle, **work)


TRMM = Routine("trmm", ("side", "uplo", "transA", "diag", "m", "n", "alpha", "A", "lda", "B", "ldb", "C", "ldc"),
               {"A": "lda", "B": "ldb", "C": "ldc"}, _trmm,
               summary="C := alpha op(A) B (side left) or alpha B op(A) (right), A triangular; out of place "
                       "(C may be B, with ldc == ldb).")


def _trsm(c: Call) -> None:
    side, uplo, ta, diag = _tr_enums(c)
    batch, m, n = _sizes(c, "batch_count", "m", "n")
    ka = m if side is Side.left else n
    _lds(c, ("lda", ka), ("ldb", m))
    if m == 0 or n == 0 or batch == 0:
        return
    _require(c, "alpha", "B")
    alpha, a_host = c.scalar("alpha"), c.host_scalar("alpha")
    compute, read = _arrays_needed(c, a_host, ("A",))
    if read is not None:
        alpha = _host(read, c.dtype)
    # alpha == 0: B := 0 without reading A.
    a = c.matrix("A", ka, ka, c.int("lda")) if compute else _unread(c, "A")
    b = c.matrix("B", m, n, c.int("ldb"), writable=True)
    triangle, work = (a, uplo, diag is Diagonal.unit), _work(c, m * n * ka // 2 if compute else 0)
    if _one(c, k3.TRSM, (side, uplo, ta, diag), m, n, 0, alpha, a, c.int("lda"), _unread(c, "B"), 1, alpha, b,
            c.int("ldb"), triangle=triangle, **work):  # (B as one_entry's C)
        return
    _launch(c, k3.trsm, _letter(side), _letter(uplo), _letter(ta), _letter(diag), alpha, a, b,
            triangle=triangle, **work)


TRSM = Routine("trsm", ("side", "uplo", "transA", "diag", "m", "n", "alpha", "A", "lda", "B", "ldb"),
               {"A": "lda", "B": "ldb"}, _trsm, query="pointers",
               summary="Solve op(A) X = alpha B (side left) or X op(A) = alpha B (right), A triangular; X "
                       "overwrites B (alpha == 0 sets B to 0).")


def _trtri(c: Call) -> None:
    uplo, diag = c.enum("uplo", Fill, _UPLO), c.enum("diag", Diagonal)
    batch, n = _sizes(c, "batch_count", "n")
    _lds(c, ("lda", n), ("ldinvA", n))
    if n == 0 or batch == 0:
        return
    _require(c, "A", "invA")
    a = c.matrix("A", n, n, c.int("lda"))
    inv = c.matrix("invA", n, n, c.int("ldinvA"), writable=True)
    _launch(c, k3.trtri, _letter(uplo), _letter(diag), a, inv, triangle=(a, uplo, diag is Diagonal.unit),
            **_work(c, n * n * n // 6))


TRTRI = Routine("trtri", ("uplo", "diag", "n", "A", "lda", "invA", "ldinvA"), {"A": "lda", "invA": "ldinvA"},
                _trtri, stride_names={"invA": "stride_invA"},
                summary="invA := inverse of the triangular A (uplo triangle); the other triangle of invA is "
                        "set to 0; a zero on A's diagonal is taken as 1, as rocBLAS's kernel does.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgemm = bind(GEMM, S)
dgemm = bind(GEMM, D)
cgemm = bind(GEMM, C)
zgemm = bind(GEMM, Z)
sgemm_batched = bind(GEMM, S, BATCHED)
dgemm_batched = bind(GEMM, D, BATCHED)
cgemm_batched = bind(GEMM, C, BATCHED)
zgemm_batched = bind(GEMM, Z, BATCHED)
sgemm_strided_batched = bind(GEMM, S, STRIDED)
dgemm_strided_batched = bind(GEMM, D, STRIDED)
cgemm_strided_batched = bind(GEMM, C, STRIDED)
zgemm_strided_batched = bind(GEMM, Z, STRIDED)
ssymm = bind(SYMM, S)
dsymm = bind(SYMM, D)
csymm = bind(SYMM, C)
zsymm = bind(SYMM, Z)
ssymm_batched = bind(SYMM, S, BATCHED)
dsymm_batched = bind(SYMM, D, BATCHED)
csymm_batched = bind(SYMM, C, BATCHED)
zsymm_batched = bind(SYMM, Z, BATCHED)
ssymm_strided_batched = bind(SYMM, S, STRIDED)
dsymm_strided_batched = bind(SYMM, D, STRIDED)
csymm_strided_batched = bind(SYMM, C, STRIDED)
zsymm_strided_batched = bind(SYMM, Z, STRIDED)
chemm = bind(HEMM, C)
zhemm = bind(HEMM, Z)
chemm_batched = bind(HEMM, C, BATCHED)
zhemm_batched = bind(HEMM, Z, BATCHED)
chemm_strided_batched = bind(HEMM, C, STRIDED)
zhemm_strided_batched = bind(HEMM, Z, STRIDED)
ssyrk = bind(SYRK, S)
dsyrk = bind(SYRK, D)
csyrk = bind(SYRK, C)
zsyrk = bind(SYRK, Z)
ssyrk_batched = bind(SYRK, S, BATCHED)
dsyrk_batched = bind(SYRK, D, BATCHED)
csyrk_batched = bind(SYRK, C, BATCHED)
zsyrk_batched = bind(SYRK, Z, BATCHED)
ssyrk_strided_batched = bind(SYRK, S, STRIDED)
dsyrk_strided_batched = bind(SYRK, D, STRIDED)
csyrk_strided_batched = bind(SYRK, C, STRIDED)
zsyrk_strided_batched = bind(SYRK, Z, STRIDED)
cherk = bind(HERK, C)
zherk = bind(HERK, Z)
cherk_batched = bind(HERK, C, BATCHED)
zherk_batched = bind(HERK, Z, BATCHED)
cherk_strided_batched = bind(HERK, C, STRIDED)
zherk_strided_batched = bind(HERK, Z, STRIDED)
ssyr2k = bind(SYR2K, S)
dsyr2k = bind(SYR2K, D)
csyr2k = bind(SYR2K, C)
zsyr2k = bind(SYR2K, Z)
ssyr2k_batched = bind(SYR2K, S, BATCHED)
dsyr2k_batched = bind(SYR2K, D, BATCHED)
csyr2k_batched = bind(SYR2K, C, BATCHED)
zsyr2k_batched = bind(SYR2K, Z, BATCHED)
ssyr2k_strided_batched = bind(SYR2K, S, STRIDED)
dsyr2k_strided_batched = bind(SYR2K, D, STRIDED)
csyr2k_strided_batched = bind(SYR2K, C, STRIDED)
zsyr2k_strided_batched = bind(SYR2K, Z, STRIDED)
cher2k = bind(HER2K, C)
zher2k = bind(HER2K, Z)
cher2k_batched = bind(HER2K, C, BATCHED)
zher2k_batched = bind(HER2K, Z, BATCHED)
cher2k_strided_batched = bind(HER2K, C, STRIDED)
zher2k_strided_batched = bind(HER2K, Z, STRIDED)
ssyrkx = bind(SYRKX, S)
dsyrkx = bind(SYRKX, D)
csyrkx = bind(SYRKX, C)
zsyrkx = bind(SYRKX, Z)
ssyrkx_batched = bind(SYRKX, S, BATCHED)
dsyrkx_batched = bind(SYRKX, D, BATCHED)
csyrkx_batched = bind(SYRKX, C, BATCHED)
zsyrkx_batched = bind(SYRKX, Z, BATCHED)
ssyrkx_strided_batched = bind(SYRKX, S, STRIDED)
dsyrkx_strided_batched = bind(SYRKX, D, STRIDED)
csyrkx_strided_batched = bind(SYRKX, C, STRIDED)
zsyrkx_strided_batched = bind(SYRKX, Z, STRIDED)
cherkx = bind(HERKX, C)
zherkx = bind(HERKX, Z)
cherkx_batched = bind(HERKX, C, BATCHED)
zherkx_batched = bind(HERKX, Z, BATCHED)
cherkx_strided_batched = bind(HERKX, C, STRIDED)
zherkx_strided_batched = bind(HERKX, Z, STRIDED)
strmm = bind(TRMM, S)
dtrmm = bind(TRMM, D)
ctrmm = bind(TRMM, C)
ztrmm = bind(TRMM, Z)
strmm_batched = bind(TRMM, S, BATCHED)
dtrmm_batched = bind(TRMM, D, BATCHED)
ctrmm_batched = bind(TRMM, C, BATCHED)
ztrmm_batched = bind(TRMM, Z, BATCHED)
strmm_strided_batched = bind(TRMM, S, STRIDED)
dtrmm_strided_batched = bind(TRMM, D, STRIDED)
ctrmm_strided_batched = bind(TRMM, C, STRIDED)
ztrmm_strided_batched = bind(TRMM, Z, STRIDED)
strsm = bind(TRSM, S)
dtrsm = bind(TRSM, D)
ctrsm = bind(TRSM, C)
ztrsm = bind(TRSM, Z)
strsm_batched = bind(TRSM, S, BATCHED)
dtrsm_batched = bind(TRSM, D, BATCHED)
ctrsm_batched = bind(TRSM, C, BATCHED)
ztrsm_batched = bind(TRSM, Z, BATCHED)
strsm_strided_batched = bind(TRSM, S, STRIDED)
dtrsm_strided_batched = bind(TRSM, D, STRIDED)
ctrsm_strided_batched = bind(TRSM, C, STRIDED)
ztrsm_strided_batched = bind(TRSM, Z, STRIDED)
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
# rocBLAS's ILP64 API: the same routines with int64_t sizes (bind(..., ilp64=True)).
sgemm_64 = bind(GEMM, S, ilp64=True)
dgemm_64 = bind(GEMM, D, ilp64=True)
cgemm_64 = bind(GEMM, C, ilp64=True)
zgemm_64 = bind(GEMM, Z, ilp64=True)
sgemm_batched_64 = bind(GEMM, S, BATCHED, ilp64=True)
dgemm_batched_64 = bind(GEMM, D, BATCHED, ilp64=True)
cgemm_batched_64 = bind(GEMM, C, BATCHED, ilp64=True)
zgemm_batched_64 = bind(GEMM, Z, BATCHED, ilp64=True)
sgemm_strided_batched_64 = bind(GEMM, S, STRIDED, ilp64=True)
dgemm_strided_batched_64 = bind(GEMM, D, STRIDED, ilp64=True)
cgemm_strided_batched_64 = bind(GEMM, C, STRIDED, ilp64=True)
zgemm_strided_batched_64 = bind(GEMM, Z, STRIDED, ilp64=True)
ssymm_64 = bind(SYMM, S, ilp64=True)
dsymm_64 = bind(SYMM, D, ilp64=True)
csymm_64 = bind(SYMM, C, ilp64=True)
zsymm_64 = bind(SYMM, Z, ilp64=True)
ssymm_batched_64 = bind(SYMM, S, BATCHED, ilp64=True)
dsymm_batched_64 = bind(SYMM, D, BATCHED, ilp64=True)
csymm_batched_64 = bind(SYMM, C, BATCHED, ilp64=True)
zsymm_batched_64 = bind(SYMM, Z, BATCHED, ilp64=True)
ssymm_strided_batched_64 = bind(SYMM, S, STRIDED, ilp64=True)
dsymm_strided_batched_64 = bind(SYMM, D, STRIDED, ilp64=True)
csymm_strided_batched_64 = bind(SYMM, C, STRIDED, ilp64=True)
zsymm_strided_batched_64 = bind(SYMM, Z, STRIDED, ilp64=True)
chemm_64 = bind(HEMM, C, ilp64=True)
zhemm_64 = bind(HEMM, Z, ilp64=True)
chemm_batched_64 = bind(HEMM, C, BATCHED, ilp64=True)
zhemm_batched_64 = bind(HEMM, Z, BATCHED, ilp64=True)
chemm_strided_batched_64 = bind(HEMM, C, STRIDED, ilp64=True)
zhemm_strided_batched_64 = bind(HEMM, Z, STRIDED, ilp64=True)
ssyrk_64 = bind(SYRK, S, ilp64=True)
dsyrk_64 = bind(SYRK, D, ilp64=True)
csyrk_64 = bind(SYRK, C, ilp64=True)
zsyrk_64 = bind(SYRK, Z, ilp64=True)
ssyrk_batched_64 = bind(SYRK, S, BATCHED, ilp64=True)
dsyrk_batched_64 = bind(SYRK, D, BATCHED, ilp64=True)
csyrk_batched_64 = bind(SYRK, C, BATCHED, ilp64=True)
zsyrk_batched_64 = bind(SYRK, Z, BATCHED, ilp64=True)
ssyrk_strided_batched_64 = bind(SYRK, S, STRIDED, ilp64=True)
dsyrk_strided_batched_64 = bind(SYRK, D, STRIDED, ilp64=True)
csyrk_strided_batched_64 = bind(SYRK, C, STRIDED, ilp64=True)
zsyrk_strided_batched_64 = bind(SYRK, Z, STRIDED, ilp64=True)
cherk_64 = bind(HERK, C, ilp64=True)
zherk_64 = bind(HERK, Z, ilp64=True)
cherk_batched_64 = bind(HERK, C, BATCHED, ilp64=True)
zherk_batched_64 = bind(HERK, Z, BATCHED, ilp64=True)
cherk_strided_batched_64 = bind(HERK, C, STRIDED, ilp64=True)
zherk_strided_batched_64 = bind(HERK, Z, STRIDED, ilp64=True)
ssyr2k_64 = bind(SYR2K, S, ilp64=True)
dsyr2k_64 = bind(SYR2K, D, ilp64=True)
csyr2k_64 = bind(SYR2K, C, ilp64=True)
zsyr2k_64 = bind(SYR2K, Z, ilp64=True)
ssyr2k_batched_64 = bind(SYR2K, S, BATCHED, ilp64=True)
dsyr2k_batched_64 = bind(SYR2K, D, BATCHED, ilp64=True)
csyr2k_batched_64 = bind(SYR2K, C, BATCHED, ilp64=True)
zsyr2k_batched_64 = bind(SYR2K, Z, BATCHED, ilp64=True)
ssyr2k_strided_batched_64 = bind(SYR2K, S, STRIDED, ilp64=True)
dsyr2k_strided_batched_64 = bind(SYR2K, D, STRIDED, ilp64=True)
csyr2k_strided_batched_64 = bind(SYR2K, C, STRIDED, ilp64=True)
zsyr2k_strided_batched_64 = bind(SYR2K, Z, STRIDED, ilp64=True)
cher2k_64 = bind(HER2K, C, ilp64=True)
zher2k_64 = bind(HER2K, Z, ilp64=True)
cher2k_batched_64 = bind(HER2K, C, BATCHED, ilp64=True)
zher2k_batched_64 = bind(HER2K, Z, BATCHED, ilp64=True)
cher2k_strided_batched_64 = bind(HER2K, C, STRIDED, ilp64=True)
zher2k_strided_batched_64 = bind(HER2K, Z, STRIDED, ilp64=True)
ssyrkx_64 = bind(SYRKX, S, ilp64=True)
dsyrkx_64 = bind(SYRKX, D, ilp64=True)
csyrkx_64 = bind(SYRKX, C, ilp64=True)
zsyrkx_64 = bind(SYRKX, Z, ilp64=True)
ssyrkx_batched_64 = bind(SYRKX, S, BATCHED, ilp64=True)
dsyrkx_batched_64 = bind(SYRKX, D, BATCHED, ilp64=True)
csyrkx_batched_64 = bind(SYRKX, C, BATCHED, ilp64=True)
zsyrkx_batched_64 = bind(SYRKX, Z, BATCHED, ilp64=True)
ssyrkx_strided_batched_64 = bind(SYRKX, S, STRIDED, ilp64=True)
dsyrkx_strided_batched_64 = bind(SYRKX, D, STRIDED, ilp64=True)
csyrkx_strided_batched_64 = bind(SYRKX, C, STRIDED, ilp64=True)
zsyrkx_strided_batched_64 = bind(SYRKX, Z, STRIDED, ilp64=True)
cherkx_64 = bind(HERKX, C, ilp64=True)
zherkx_64 = bind(HERKX, Z, ilp64=True)
cherkx_batched_64 = bind(HERKX, C, BATCHED, ilp64=True)
zherkx_batched_64 = bind(HERKX, Z, BATCHED, ilp64=True)
cherkx_strided_batched_64 = bind(HERKX, C, STRIDED, ilp64=True)
zherkx_strided_batched_64 = bind(HERKX, Z, STRIDED, ilp64=True)
strmm_64 = bind(TRMM, S, ilp64=True)
dtrmm_64 = bind(TRMM, D, ilp64=True)
ctrmm_64 = bind(TRMM, C, ilp64=True)
ztrmm_64 = bind(TRMM, Z, ilp64=True)
strmm_batched_64 = bind(TRMM, S, BATCHED, ilp64=True)
dtrmm_batched_64 = bind(TRMM, D, BATCHED, ilp64=True)
ctrmm_batched_64 = bind(TRMM, C, BATCHED, ilp64=True)
ztrmm_batched_64 = bind(TRMM, Z, BATCHED, ilp64=True)
strmm_strided_batched_64 = bind(TRMM, S, STRIDED, ilp64=True)
dtrmm_strided_batched_64 = bind(TRMM, D, STRIDED, ilp64=True)
ctrmm_strided_batched_64 = bind(TRMM, C, STRIDED, ilp64=True)
ztrmm_strided_batched_64 = bind(TRMM, Z, STRIDED, ilp64=True)
strsm_64 = bind(TRSM, S, ilp64=True)
dtrsm_64 = bind(TRSM, D, ilp64=True)
ctrsm_64 = bind(TRSM, C, ilp64=True)
ztrsm_64 = bind(TRSM, Z, ilp64=True)
strsm_batched_64 = bind(TRSM, S, BATCHED, ilp64=True)
dtrsm_batched_64 = bind(TRSM, D, BATCHED, ilp64=True)
ctrsm_batched_64 = bind(TRSM, C, BATCHED, ilp64=True)
ztrsm_batched_64 = bind(TRSM, Z, BATCHED, ilp64=True)
strsm_strided_batched_64 = bind(TRSM, S, STRIDED, ilp64=True)
dtrsm_strided_batched_64 = bind(TRSM, D, STRIDED, ilp64=True)
ctrsm_strided_batched_64 = bind(TRSM, C, STRIDED, ilp64=True)
ztrsm_strided_batched_64 = bind(TRSM, Z, STRIDED, ilp64=True)
# fmt: on

__all__ = public_names(globals())
