"""The launched tasks of the generic spmm's strided batches: one task per call that runs the existing kernels of
:mod:`._kernels` on each batch entry in turn (no kernel of their own: nothing more to compile, and each entry's
result is bitwise the one the same call on that entry alone gives).  Like the kernels they check nothing.

The operands arrive as ndarrays with a leading batch axis: a sparse array ``(count, length)``, a dense matrix
``(count, rows, cols)`` indexed [entry, row, column].  An operand of one entry serves every entry of C
(rocSPARSE's ``C_i = A op(B_i)`` and ``C_i = op(A_i) B`` modes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _kernels as k

#: spmm_batches' modes: the row kernel (op(A) = A, or its conjugate), or the scattered transposed product.
ROWS, SCATTER = 0, 1


def scale_batches(beta: np.ndarray, C: np.ndarray) -> None:
    """``C_i := beta C_i`` for every entry (beta == 0 writes zeros without reading C)."""
    for i in range(C.shape[0]):
        k.scale2d(beta, C[i])


def spmm_batches(mode: int, conj_a: bool, conj_b: bool, alpha: np.ndarray, val: np.ndarray, ptr: np.ndarray,
                 ind: np.ndarray, base: int, B: np.ndarray, beta: np.ndarray, C: np.ndarray, rows_kernel: Any,
                 bounds: np.ndarray, threads: int, scratch: np.ndarray, coo_ptr: np.ndarray) -> None:
    """``C_i := alpha op(A_i) B_i + beta C_i`` for every entry i of C, A_i and B_i entry 0 when their operand has
    one entry.  ``val``, ``ptr``, ``ind``: the CSR arrays of each entry of A (for COO, ``ptr`` holds each entry's
    row indices, whose row pointer is built into ``coo_ptr`` as :func:`._kernels.coo_rows_to_ptr` does, once per
    entry of A).  ``mode`` :data:`ROWS` runs ``rows_kernel`` (:func:`._kernels.csrmm_kernel`'s choice) over the
    row blocks ``bounds``; :data:`SCATTER` the transposed product through the private accumulators ``scratch``
    (``conj_a``: conjugate transpose), reused entry after entry."""
    count_a, count_b = val.shape[0], B.shape[0]
    coo = coo_ptr.shape[0] > 0
    built = -1
    for i in range(C.shape[0]):
        a = i if count_a > 1 else 0
        b = i if count_b > 1 else 0
        offsets = ptr[a]
        if coo:
            if built != a:
                k.coo_rows_to_ptr(ptr[a], base, coo_ptr)
                built = a
            offsets = coo_ptr
        if mode == ROWS:
            rows_kernel(conj_a, conj_b, alpha, val[a], offsets, ind[a], base, B[b], beta, C[i], bounds, threads)
        else:
            k.csrmm_scatter(conj_a, conj_b, val[a], offsets, ind[a], base, B[b], scratch)
            k.gather_chunks2d(alpha, scratch, beta, C[i])
