"""BLAS-like extensions: dgmm, geam and gemmt, in rocBLAS's check order and quick returns.

- ``dgmm``: ``C := A diag(x)`` (side right) or ``diag(x) A`` (side left); ``incx`` may be
  negative (reference-BLAS order) or 0 (every element is ``x[0]``).
- ``geam``: ``C := alpha op(A) + beta op(B)``.  ``A`` is not read when ``alpha == 0``, nor
  ``B`` when ``beta == 0`` (they may then be null).  ``C`` may be ``A`` (or ``B``) itself
  only with ``lda == ldc`` (``ldb == ldc``) and no transpose, else invalid_size, before the
  quick return; the pointers are compared as rocBLAS does, so a null ``C`` "is" a null ``A``.
- ``gemmt``: the ``uplo`` triangle of ``C := alpha op(A) op(B) + beta C``; the other
  triangle is never touched.  ``k == 0`` still scales the triangle by ``beta``; ``beta == 0``
  never reads ``C``; nothing to add and ``beta == 1`` is a quick return.

Every routine checks, as rocBLAS's ``*_arg_check``: enums (invalid_value), sizes and
leading dimensions (invalid_size; ``batch_count < 0`` included), the quick return for
an empty problem (success, nothing touched), then pointers (invalid_pointer: alpha and
beta first, except geam's ``C``; arrays only where they would be read).

In device pointer mode the kernels read alpha and beta when they run, so the calls stay
asynchronous.  rocBLAS does not check the array pointers there (its kernels skip what a
zero scalar makes unneeded); here, as in Level 3, a null array that might be read makes
the call copy the scalars back to the host (synchronously) and follow the host rules: a
null array that is not needed is fine, one that is needed is invalid_pointer (on a GPU
it would be a memory fault).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_ext as k
from ._api import BATCHED, STRIDED, Call, Routine, bind, public_names
from ._types import Fill, Operation, Side

#: gemmt computes problems of at least this much work (n * n * k) as blocked matrix products
#: (BLAS), blocks of GEMMT_BLOCK_COLUMNS columns of C; smaller ones in the numba kernel.
GEMMT_LARGE_WORK = 1 << 20
GEMMT_BLOCK_COLUMNS = 128

_TRANS = {Operation.none: 0, Operation.transpose: 1, Operation.conjugate_transpose: 2}


# --- shared checks ---------------------------------------------------------------------------


def _sizes(c: Call, *names: str) -> tuple[int, ...]:
    """The size arguments, each >= 0, then the batch count (>= 0), else invalid_size."""
    values = []
    for name in names:
        value = c.int(name)
        if value < 0:
            raise c.invalid_size(name, f"must be non-negative, got {value}")
        values.append(value)
    return (*values, c.batch_count)


def _leading(c: Call, name: str, least: int, what: str) -> int:
    """A leading dimension: at least the rows it spans (rocBLAS: ``ld < rows`` is invalid_size)."""
    ld = c.int(name)
    if ld < least:
        raise c.invalid_size(name, f"must be >= {what} = {least}, got {ld}")
    return ld


def _missing(c: Call, name: str) -> bool:
    """A null scalar: None in host pointer mode (where 0 is the value zero), None or a 0
    pointer in device pointer mode."""
    return c[name] is None if c.host_mode else c.is_null(name)


def _require(c: Call, *names: str) -> None:
    """invalid_pointer naming the first null array among ``names``."""
    for name in names:
        if c.is_null(name):
            raise c.invalid_pointer(name)


def _known(c: Call, name: str) -> tuple[Any, Any]:
    """(value on the host, kernel argument) of a scalar whose value the call must know:
    read directly in host mode, copied back from the device (synchronously) otherwise."""
    value = c.read_scalar(name)
    return value, np.array([value], dtype=c.precision.compute_dtype)


def _stored(trans: Operation, rows: int, cols: int) -> tuple[int, int]:
    """The stored shape of a matrix whose op() is ``rows x cols``."""
    return (rows, cols) if trans is Operation.none else (cols, rows)


def _unread(c: Call) -> np.ndarray:
    """What a kernel gets for a matrix it must not read (null, or not needed)."""
    return np.zeros((0, 0, 0), dtype=c.dtype)


def _flops(c: Call, real: float) -> float:
    return real * (4 if c.precision.is_complex else 1)


# --- dgmm ------------------------------------------------------------------------------------


def _dgmm(c: Call) -> None:
    side = c.enum("side", Side, (Side.left, Side.right))
    m, n, batch = _sizes(c, "m", "n")
    lda = _leading(c, "lda", m, "m")
    incx = c.int("incx")  # any increment: negative walks x backwards, 0 repeats x[0]
    ldc = _leading(c, "ldc", m, "m")
    if m == 0 or n == 0 or batch == 0:
        return
    _require(c, "A", "x", "C")
    right = side is Side.right
    A = c.matrix("A", m, n, lda)
    x = c.vector("x", n if right else m, incx)
    out = c.matrix("C", m, n, ldc, writable=True)
    c.launch(k.dgmm, int(right), A, x, out, flops=_flops(c, m * n * batch),
             bytes=c.precision.itemsize * batch * (2 * m * n + (n if right else m)))


DGMM = Routine("dgmm", ("side", "m", "n", "A", "lda", "x", "incx", "C", "ldc"),
               {"A": "lda", "x": "incx", "C": "ldc"}, _dgmm,
               summary="C := A diag(x) (side right) or diag(x) A (side left).")


# --- geam ------------------------------------------------------------------------------------


def _geam(c: Call) -> None:
    trans_a = c.enum("transA", Operation)
    trans_b = c.enum("transB", Operation)
    m, n, batch = _sizes(c, "m", "n")
    ra, ca = _stored(trans_a, m, n)
    rb, cb = _stored(trans_b, m, n)
    lda = _leading(c, "lda", ra, "rows of A")
    ldb = _leading(c, "ldb", rb, "rows of B")
    ldc = _leading(c, "ldc", m, "m")
    # In place (C is A or B) works element by element only on the same layout.  rocBLAS
    # compares the bare pointers, null ones included, before its quick return
    # (rocblas_geam_arg_check, rocblas_geam.hpp): a null C with a null A and lda != ldc is
    # invalid_size even when m == 0.
    pc = c.ptr("C")
    for name, ld, trans in (("A", lda, trans_a), ("B", ldb, trans_b)):
        if c.ptr(name) == pc and (ld != ldc or trans is not Operation.none):
            low = name.lower()
            raise c.invalid_size("C", f"C is {name}: in-place geam needs ld{low} == ldc and trans{name} == none "
                                      f"(got ld{low}={ld}, ldc={ldc}, trans{name}={trans.name})")
    if m == 0 or n == 0 or batch == 0:
        return
    _require(c, "C")  # rocBLAS checks C before alpha and beta
    alpha = c.scalar("alpha")
    beta = c.scalar("beta")
    read_a = read_b = True
    if c.host_mode or c.is_null("A") or c.is_null("B"):
        a_value, alpha = _known(c, "alpha")
        b_value, beta = _known(c, "beta")
        read_a, read_b = a_value != 0, b_value != 0
        _require(c, *(name for name, read in (("A", read_a), ("B", read_b)) if read))
    A = c.matrix("A", ra, ca, lda) if read_a else _unread(c)
    B = c.matrix("B", rb, cb, ldb) if read_b else _unread(c)
    out = c.matrix("C", m, n, ldc, writable=True)
    c.launch(k.geam, _TRANS[trans_a], _TRANS[trans_b], alpha, A, beta, B, out,
             flops=_flops(c, 3 * m * n * batch), bytes=3 * c.precision.itemsize * m * n * batch)


GEAM = Routine("geam", ("transA", "transB", "m", "n", "alpha", "A", "lda", "beta", "B", "ldb", "C", "ldc"),
               {"A": "lda", "B": "ldb", "C": "ldc"}, _geam,
               summary="C := alpha op(A) + beta op(B).")


# --- gemmt -----------------------------------------------------------------------------------


def _gemmt(c: Call) -> None:
    # rocBLAS checks the operations before uplo.
    trans_a = c.enum("transA", Operation)
    trans_b = c.enum("transB", Operation)
    uplo = c.enum("uplo", Fill, (Fill.upper, Fill.lower))
    n, kk, batch = _sizes(c, "n", "k")
    ra, ca = _stored(trans_a, n, kk)
    rb, cb = _stored(trans_b, kk, n)
    lda = _leading(c, "lda", ra, "rows of A")
    ldb = _leading(c, "ldb", rb, "rows of B")
    ldc = _leading(c, "ldc", n, "n")
    if n == 0 or batch == 0:
        return
    # k == 0 is no quick return: C is still scaled by beta; alpha is then not needed.
    if kk > 0 and _missing(c, "alpha"):
        raise c.invalid_pointer("alpha")
    beta = c.scalar("beta")
    alpha = c.scalar("alpha") if kk > 0 else np.zeros(1, dtype=c.precision.compute_dtype)
    read_ab = kk > 0
    if c.host_mode or c.is_null("C") or (kk > 0 and (c.is_null("A") or c.is_null("B"))):
        a_value, alpha = _known(c, "alpha") if kk > 0 else (0, alpha)
        b_value, beta = _known(c, "beta")
        read_ab = kk > 0 and a_value != 0
        if not read_ab and b_value == 1:
            return  # nothing to add, nothing to scale
        _require(c, *(("A", "B") if read_ab else ()), "C")
    A = c.matrix("A", ra, ca, lda) if read_ab else _unread(c)
    B = c.matrix("B", rb, cb, ldb) if read_ab else _unread(c)
    out = c.matrix("C", n, n, ldc, writable=True)
    args: tuple[Any, ...] = (int(uplo is Fill.lower), _TRANS[trans_a], _TRANS[trans_b], kk, alpha, A, B, beta, out)
    kern: Any = k.gemmt
    if n * n * kk >= GEMMT_LARGE_WORK:
        kern = k.gemmt_large
        args += (GEMMT_BLOCK_COLUMNS,)
    tri = n * (n + 1) // 2 * batch
    c.launch(kern, *args, flops=_flops(c, 2 * tri * kk + 3 * tri),
             bytes=c.precision.itemsize * (batch * (ra * ca + rb * cb) + 2 * tri),
             triangles={id(out): (uplo is Fill.upper, False)})


GEMMT = Routine("gemmt", ("uplo", "transA", "transB", "n", "k", "alpha", "A", "lda", "B", "ldb", "beta", "C",
                          "ldc"),
                {"A": "lda", "B": "ldb", "C": "ldc"}, _gemmt,
                summary="The uplo triangle of C := alpha op(A) op(B) + beta C (the other triangle untouched).")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sdgmm = bind(DGMM, S)
ddgmm = bind(DGMM, D)
cdgmm = bind(DGMM, C)
zdgmm = bind(DGMM, Z)
sdgmm_batched = bind(DGMM, S, BATCHED)
ddgmm_batched = bind(DGMM, D, BATCHED)
cdgmm_batched = bind(DGMM, C, BATCHED)
zdgmm_batched = bind(DGMM, Z, BATCHED)
sdgmm_strided_batched = bind(DGMM, S, STRIDED)
ddgmm_strided_batched = bind(DGMM, D, STRIDED)
cdgmm_strided_batched = bind(DGMM, C, STRIDED)
zdgmm_strided_batched = bind(DGMM, Z, STRIDED)
sgeam = bind(GEAM, S)
dgeam = bind(GEAM, D)
cgeam = bind(GEAM, C)
zgeam = bind(GEAM, Z)
sgeam_batched = bind(GEAM, S, BATCHED)
dgeam_batched = bind(GEAM, D, BATCHED)
cgeam_batched = bind(GEAM, C, BATCHED)
zgeam_batched = bind(GEAM, Z, BATCHED)
sgeam_strided_batched = bind(GEAM, S, STRIDED)
dgeam_strided_batched = bind(GEAM, D, STRIDED)
cgeam_strided_batched = bind(GEAM, C, STRIDED)
zgeam_strided_batched = bind(GEAM, Z, STRIDED)
sgemmt = bind(GEMMT, S)
dgemmt = bind(GEMMT, D)
cgemmt = bind(GEMMT, C)
zgemmt = bind(GEMMT, Z)
sgemmt_batched = bind(GEMMT, S, BATCHED)
dgemmt_batched = bind(GEMMT, D, BATCHED)
cgemmt_batched = bind(GEMMT, C, BATCHED)
zgemmt_batched = bind(GEMMT, Z, BATCHED)
sgemmt_strided_batched = bind(GEMMT, S, STRIDED)
dgemmt_strided_batched = bind(GEMMT, D, STRIDED)
cgemmt_strided_batched = bind(GEMMT, C, STRIDED)
zgemmt_strided_batched = bind(GEMMT, Z, STRIDED)
# rocBLAS's ILP64 API: the same routines with int64_t sizes (bind(..., ilp64=True)).
sdgmm_64 = bind(DGMM, S, ilp64=True)
ddgmm_64 = bind(DGMM, D, ilp64=True)
cdgmm_64 = bind(DGMM, C, ilp64=True)
zdgmm_64 = bind(DGMM, Z, ilp64=True)
sdgmm_batched_64 = bind(DGMM, S, BATCHED, ilp64=True)
ddgmm_batched_64 = bind(DGMM, D, BATCHED, ilp64=True)
cdgmm_batched_64 = bind(DGMM, C, BATCHED, ilp64=True)
zdgmm_batched_64 = bind(DGMM, Z, BATCHED, ilp64=True)
sdgmm_strided_batched_64 = bind(DGMM, S, STRIDED, ilp64=True)
ddgmm_strided_batched_64 = bind(DGMM, D, STRIDED, ilp64=True)
cdgmm_strided_batched_64 = bind(DGMM, C, STRIDED, ilp64=True)
zdgmm_strided_batched_64 = bind(DGMM, Z, STRIDED, ilp64=True)
sgeam_64 = bind(GEAM, S, ilp64=True)
dgeam_64 = bind(GEAM, D, ilp64=True)
cgeam_64 = bind(GEAM, C, ilp64=True)
zgeam_64 = bind(GEAM, Z, ilp64=True)
sgeam_batched_64 = bind(GEAM, S, BATCHED, ilp64=True)
dgeam_batched_64 = bind(GEAM, D, BATCHED, ilp64=True)
cgeam_batched_64 = bind(GEAM, C, BATCHED, ilp64=True)
zgeam_batched_64 = bind(GEAM, Z, BATCHED, ilp64=True)
sgeam_strided_batched_64 = bind(GEAM, S, STRIDED, ilp64=True)
dgeam_strided_batched_64 = bind(GEAM, D, STRIDED, ilp64=True)
cgeam_strided_batched_64 = bind(GEAM, C, STRIDED, ilp64=True)
zgeam_strided_batched_64 = bind(GEAM, Z, STRIDED, ilp64=True)
sgemmt_64 = bind(GEMMT, S, ilp64=True)
dgemmt_64 = bind(GEMMT, D, ilp64=True)
cgemmt_64 = bind(GEMMT, C, ilp64=True)
zgemmt_64 = bind(GEMMT, Z, ilp64=True)
sgemmt_batched_64 = bind(GEMMT, S, BATCHED, ilp64=True)
dgemmt_batched_64 = bind(GEMMT, D, BATCHED, ilp64=True)
cgemmt_batched_64 = bind(GEMMT, C, BATCHED, ilp64=True)
zgemmt_batched_64 = bind(GEMMT, Z, BATCHED, ilp64=True)
sgemmt_strided_batched_64 = bind(GEMMT, S, STRIDED, ilp64=True)
dgemmt_strided_batched_64 = bind(GEMMT, D, STRIDED, ilp64=True)
cgemmt_strided_batched_64 = bind(GEMMT, C, STRIDED, ilp64=True)
zgemmt_strided_batched_64 = bind(GEMMT, Z, STRIDED, ilp64=True)
# fmt: on

__all__ = public_names(globals())
