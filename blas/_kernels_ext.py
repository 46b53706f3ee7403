"""Kernels of the BLAS-like extensions (dgmm, geam, gemmt): one numba kernel per routine,
and gemmt for large problems as blocked numpy products.

Every matrix is a batch, ``(batch, rows, cols)`` as stored (column-major entries:
element ``(i, j)`` of entry ``b`` is ``M[b, i, j]``); vectors are ``(batch, n)``;
scalars 1-element arrays, read when the kernel runs (host values, or device memory
in device pointer mode).  Operations and sides are runtime ints, so each kernel
compiles once per precision: ``trans`` is 0 (none), 1 (transpose) or 2 (conjugate
transpose).  Work is spread over batch entries and columns.

An operand the call does not read (geam's ``A`` when ``alpha == 0``, gemmt's ``A``
and ``B`` when ``k == 0`` or ``alpha == 0``) may be an empty placeholder: kernels
test the scalar before touching it, so NaN in unread memory never propagates.
Likewise an output is never read when its ``beta`` is 0.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from rocmath.kernel import kernel


@kernel
def dgmm(side_right, A, x, C):  # type: ignore[no-untyped-def]
    # C := A diag(x) (side_right) or diag(x) A; C may be A itself (same lda).
    nb, m, n = C.shape
    for t in prange(nb * n):
        b = t // n
        j = t - b * n
        if side_right:
            s = x[b, j]
            for i in range(m):
                C[b, i, j] = A[b, i, j] * s
        else:
            for i in range(m):
                C[b, i, j] = A[b, i, j] * x[b, i]


@kernel
def geam(trans_a, trans_b, alpha, A, beta, B, C):  # type: ignore[no-untyped-def]
    # C := beta op(B) + alpha op(A).  A is read only if alpha != 0, B only if beta != 0;
    # C is only written, so it may be A or B itself (same leading dimension, no transpose).
    al = alpha[0]
    be = beta[0]
    use_a = al != 0
    use_b = be != 0
    nb, m, n = C.shape
    for t in prange(nb * n):
        b = t // n
        j = t - b * n
        for i in range(m):
            if use_b:
                bv = B[b, i, j] if trans_b == 0 else B[b, j, i]
                if trans_b == 2:
                    bv = np.conj(bv)
                if use_a:
                    av = A[b, i, j] if trans_a == 0 else A[b, j, i]
                    if trans_a == 2:
                        av = np.conj(av)
                    C[b, i, j] = be * bv + al * av
                else:
                    C[b, i, j] = be * bv
            elif use_a:
                av = A[b, i, j] if trans_a == 0 else A[b, j, i]
                if trans_a == 2:
                    av = np.conj(av)
                C[b, i, j] = al * av
            else:
                C[b, i, j] = 0


@kernel
def gemmt(lower, trans_a, trans_b, k, alpha, A, B, beta, C):  # type: ignore[no-untyped-def]
    # The lower or upper triangle (diagonal included) of C := alpha op(A) op(B) + beta C.
    # op(A) and op(B) are read only if k > 0 and alpha != 0; C only if beta != 0; the other
    # triangle of C is never touched.  With nothing to add and beta == 1, nothing is done.
    al = alpha[0]
    be = beta[0]
    calc = k > 0 and al != 0
    if be == 1 and not calc:
        return
    nb, n, _ = C.shape
    zero = np.zeros(1, dtype=C.dtype)[0]
    for t in prange(nb * n):
        b = t // n
        j = t - b * n
        lo = j if lower else 0
        hi = n if lower else j + 1
        for i in range(lo, hi):
            v = zero
            if calc:
                s = zero
                for q in range(k):
                    av = A[b, i, q] if trans_a == 0 else A[b, q, i]
                    if trans_a == 2:
                        av = np.conj(av)
                    bv = B[b, q, j] if trans_b == 0 else B[b, j, q]
                    if trans_b == 2:
                        bv = np.conj(bv)
                    s += av * bv
                v = al * s
            C[b, i, j] = v if be == 0 else v + be * C[b, i, j]


def gemmt_large(lower, trans_a, trans_b, k, alpha, A, B, beta, C, ncols):  # type: ignore[no-untyped-def]
    # gemmt for large problems, same contract as gemmt: blocks of ``ncols`` columns of C, each
    # the rows of the triangle it reaches, as batched matrix products (BLAS, threaded, GIL
    # released).  Plain numpy, so nothing to compile.  Only the triangle is stored (copyto
    # with a mask); C is read only if beta != 0.
    al = alpha[0]
    be = beta[0]
    calc = k > 0 and al != 0
    if be == 1 and not calc:
        return
    n = C.shape[1]
    opa = A if trans_a == 0 else np.swapaxes(A, 1, 2)
    opb = B if trans_b == 0 else np.swapaxes(B, 1, 2)
    rows = np.arange(n)[:, None]
    for j0 in range(0, n, ncols):
        j1 = min(n, j0 + ncols)
        r0, r1 = (j0, n) if lower else (0, j1)
        block = C[:, r0:r1, j0:j1]
        if calc:
            pa = opa[:, r0:r1, :]
            pb = opb[:, :, j0:j1]
            value = al * np.matmul(pa.conj() if trans_a == 2 else pa, pb.conj() if trans_b == 2 else pb)
        else:
            value = np.zeros(block.shape, dtype=C.dtype)
        if be != 0:
            with np.errstate(all="ignore"):  # the other triangle's elements are combined, not stored
                value += be * block
        cols = np.arange(j0, j1)[None, :]
        keep = rows[r0:r1] >= cols if lower else rows[r0:r1] <= cols
        np.copyto(block, value, where=keep[None])
