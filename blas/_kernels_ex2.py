"""Kernels of the ``_ex`` functions that the Level-1 and Level-3 kernels do not already cover.

- :func:`gemm_ex`: ``D := alpha op(A) op(B) + beta C`` with ``D`` apart from ``C``, as a launch
  body around Level 3's BLAS-backed :func:`~rocmath.blas._kernels_l3.gemm` (which updates its
  output in place): ``D := C`` first (skipped when ``D`` is ``C`` itself, or when ``beta == 0``,
  where ``C`` is not read), then gemm on ``D``.  Every operand arrives in one compute type
  (half and bfloat16 as float32 copies, rounded into their storage type once, afterwards).
  Integer operands (int8 ``A``, ``B``; int32 ``C``, ``D``) are multiplied exactly: ``A`` and
  ``B`` arrive as float64, whose products and sums of int8 values are exact (``|sum| <= k
  2^14 < 2^53``), and the epilogue is integer arithmetic wrapping modulo ``2^32`` as int32
  arithmetic does on the device.
- :func:`gemm_ex3`: gemm_ex3's float8 products (rocmath.float8), its operands rounded to float8
  first where the compute type says, then float32 BLAS and one rounding into D's type.
- :func:`geam_ex`: the tropical products of ``rocblas_geam_ex`` (min-plus, plus-min), one
  numba kernel per precision.

Matrices are ``(batch, rows, cols)`` views as stored (column-major entries); scalars are
1-element arrays (host values, or device memory read when the kernel runs).  An operand
the call does not read is an empty ``(batch, 0, 0)`` placeholder.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rocmath import float8 as f8
from rocmath.kernel import kernel

from . import _kernels_l3 as k3

# --- gemm_ex -----------------------------------------------------------------------------------


def _same_memory(x: np.ndarray, y: np.ndarray) -> bool:
    return x.shape == y.shape and x.strides == y.strides and x.ctypes.data == y.ctypes.data


def gemm_ex(ta: int, tb: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray, beta: np.ndarray, C: np.ndarray,
            D: np.ndarray) -> None:
    """D := alpha op(A) op(B) + beta C (``ta``, ``tb``: BLAS letter codes).  C is read only
    if beta != 0; an empty A (and B) means k == 0 or alpha == 0: D := beta C."""
    if D.dtype.kind in "iu":
        _gemm_integer(ta, tb, alpha, A, B, beta, C, D)
        return
    if beta[0] != 0 and not _same_memory(C, D):
        D[...] = C
    # BLAS with beta == 0 overwrites D without reading it (gemm_small likewise).
    k3.gemm(k3.GEMM, ta, tb, 0, 0, alpha, A, B, beta, D)


def _gemm_integer(ta: int, tb: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray, beta: np.ndarray,
                  C: np.ndarray, D: np.ndarray) -> None:
    nb, m, n = D.shape
    acc = np.zeros((nb, n, m), dtype=np.float64).transpose(0, 2, 1)  # column-major entries, as BLAS writes
    if A.size and B.size:
        k3.gemm(k3.GEMM, ta, tb, 0, 0, np.ones(1), A, B, np.zeros(1), acc)
    # int64 arithmetic wraps modulo 2^64, so the result modulo 2^32 is that of int32 arithmetic.
    with np.errstate(over="ignore"):
        value = acc.astype(np.int64) * np.int64(alpha[0])
        if beta[0] != 0:
            value += np.int64(beta[0]) * C.astype(np.int64)
    D[...] = value.astype(np.int32)  # wraps, as int32 arithmetic does


# --- geam_ex -----------------------------------------------------------------------------------


@njit(inline="always")
def _fmin(a, b):  # type: ignore[no-untyped-def]
    # C's fmin: a NaN loses to a number.
    if a != a:
        return b
    if b != b:
        return a
    return a if a < b else b


@kernel
def geam_ex(min_plus, trans_a, trans_b, k, init, alpha, A, B, beta, C, D):  # type: ignore[no-untyped-def]
    # min_plus: D := min(beta C, min_q (alpha op(A)[:, q] + alpha op(B)[q, :]))
    # plus_min: D := beta C + sum_q min(alpha op(A)[:, q], alpha op(B)[q, :])
    # k == 0, or alpha == 0 with plus_min: D := beta C; alpha == 0 with min_plus: D := min(beta C, 0)
    # (rocBLAS's scale and round kernels).  A and B are read only if k > 0 and alpha != 0; C only
    # if beta != 0; D may be C itself (each element of D depends on the same element of C only).
    al = alpha[0]
    be = beta[0]
    start = init[0]  # the min-plus identity rocBLAS starts from: the largest finite value (inf for half)
    zero = np.zeros(1, dtype=D.dtype)[0]
    nb, m, n = D.shape
    for t in prange(nb * n):
        b = t // n
        j = t - b * n
        for i in range(m):
            cv = be * C[b, i, j] if be != 0 else zero
            if k == 0 or (al == 0 and not min_plus):
                v = cv
            elif al == 0:
                v = zero if cv > 0 else cv
            elif min_plus:
                acc = start
                for q in range(k):
                    av = A[b, i, q] if trans_a == 0 else A[b, q, i]
                    bv = B[b, q, j] if trans_b == 0 else B[b, j, q]
                    acc = _fmin(al * av + al * bv, acc)
                v = _fmin(cv, acc)
            else:
                acc = zero
                for q in range(k):
                    av = A[b, i, q] if trans_a == 0 else A[b, q, i]
                    bv = B[b, q, j] if trans_b == 0 else B[b, j, q]
                    acc += _fmin(al * av, al * bv)
                v = cv + acc
            D[b, i, j] = v


# --- scalars -----------------------------------------------------------------------------------


def copy_out(dst: np.ndarray, src: np.ndarray) -> None:
    """Copy a scalar argument (a device view, converted to its compute type) to the host."""
    dst[...] = src.reshape(dst.shape)


# --- gemm_ex3 ----------------------------------------------------------------------------------

#: Storage codes of gemm_ex3's operands besides float8's F8 and BF8 (rocmath.float8).
HALF, SINGLE = 2, 3


def _ex3_values(X: np.ndarray, storage: int, fmt: int, stochastic: bool, seed: int, ld: int) -> np.ndarray:
    """The float32 values (column-major entries) an operand enters the product with: its float8
    codes' values, or a half or float operand rounded to float8 ``fmt`` first (stochastic rounding
    draws for the element at offset ``i + j * ld`` of its entry, from its own bits)."""
    nb, r, c = X.shape
    codes = X
    if storage not in (f8.F8, f8.BF8):
        x = X if storage == SINGLE else X.astype(np.float32)
        codes = np.empty((nb, c, r), dtype=np.uint8).transpose(0, 2, 1)
        f8.quantize(x, X.view(np.uint32 if storage == SINGLE else np.uint16), storage == SINGLE, fmt, stochastic,
                    seed, np.int64(ld), codes)
    out = np.empty((nb, c, r), dtype=np.float32).transpose(0, 2, 1)
    out[...] = f8.from_f8(codes, fmt)
    return out


def gemm_ex3(ta: int, tb: int, alpha: np.ndarray, A: np.ndarray, a_in: tuple[int, int, int, int], B: np.ndarray,
             b_in: tuple[int, int, int, int], beta: np.ndarray, C: np.ndarray, D: np.ndarray,
             out: tuple[int, int, int], stochastic: bool) -> None:
    """D := alpha op(A) op(B) + beta C of gemm_ex3 (``ta``, ``tb``: BLAS letter codes).

    ``a_in``, ``b_in``: (storage, float8 format of the product, seed, leading dimension); ``out``:
    (storage of C and D, seed, ldc).  The products of float8 values are exact in float32 and summed
    in float32; ``alpha acc + beta C`` is rounded once into D's type (stochastically, for float8,
    from offset ``i + j * ldc`` and the float32 result's bits).  An empty A (and B) means k == 0 or
    alpha == 0: D := beta C; C is read only if beta != 0."""
    nb, m, n = D.shape
    acc = np.zeros((nb, n, m), dtype=np.float32).transpose(0, 2, 1)
    if A.size and B.size:
        Af = _ex3_values(A, a_in[0], a_in[1], stochastic, a_in[2], a_in[3])
        Bf = _ex3_values(B, b_in[0], b_in[1], stochastic, b_in[2], b_in[3])
        k3.gemm(k3.GEMM, ta, tb, 0, 0, np.ones(1, np.float32), Af, Bf, np.zeros(1, np.float32), acc)
    storage, seed, ldc = out
    value = alpha[0] * acc
    if beta[0] != 0:
        value += beta[0] * (C.astype(np.float32) if storage in (HALF, SINGLE) else f8.from_f8(C, storage))
    if storage == SINGLE:
        D[...] = value
    elif storage == HALF:
        with np.errstate(over="ignore"):  # past half's range is inf, as the device's conversion gives
            D[...] = value.astype(np.float16)
    else:
        f8.quantize(value, value.view(np.uint32), True, storage, stochastic, seed, np.int64(ldc), D)
