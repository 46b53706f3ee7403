"""Level 3: csrmm, ``C := alpha op(A) op(B) + beta C`` with dense column-major B and C.

Check order and quick returns as rocSPARSE: enums, sizes, the descriptor (general and
sorted only), the CSR arrays; then ``m == 0 || n == 0 || k == 0`` scales C by beta;
then alpha, B, ldb, beta, C, ldc (leading dimensions against op(A) and op(B)).  In host
mode ``alpha == 0 && beta == 1`` (both given) returns before those checks; ``beta == 0`` never reads C.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.kernel import pool_threads
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels as k
from ._api import Call, Routine, bind
from ._handle import check_descr
from ._level2 import scatter_chunks, stream_bounds
from ._types import MatrixType, Operation, Order, SparseNotImplementedError, SparseRequiresSortedStorageError
from ._validate import check_csr

__all__ = ["ccsrmm", "dcsrmm", "scsrmm", "zcsrmm"]


def dense_view(ptr_owner: Any, ptr: int, dtype: np.dtype[Any], rows: int, cols: int, ld: int, order: Order,
               transposed: bool = False, name: str = "dense") -> Buffer:
    """A dense ``rows x cols`` matrix (leading dimension ``ld``, ``order``) as a 2-D view indexed
    [row, column]; ``transposed`` gives the ``cols x rows`` view of its transpose."""
    isz = dtype.itemsize
    strides = (ld * isz, isz) if order is Order.row else (isz, ld * isz)
    shape = (rows, cols)
    if transposed:
        shape, strides = (cols, rows), (strides[1], strides[0])
    empty = rows == 0 or cols == 0
    return Buffer(0 if empty else ptr, dtype, shape, strides, name=name, owner=ptr_owner)


def launch_csrmm(c: Call, trans_a: Operation, conj_b: bool, m: int, kdim: int, nnz: int, base: int, val: Buffer,
                 row_ptr: Buffer, col_ind: Buffer, alpha: Any, B: Buffer, beta: Any, Cm: Buffer,
                 bounds: Any = None, scratch: Buffer | None = None) -> None:
    """Enqueue ``C := alpha op(A) B' + beta C`` (``B'`` already op(B) as a view, ``conj_b`` conjugating it)
    for an ``m x kdim`` CSR matrix A."""
    check_csr(c, row_ptr, col_ind, base, nnz, kdim)
    ncols = Cm.shape[1]
    isz = val.dtype.itemsize
    flops = nnz * ncols * (8.0 if val.dtype.kind == "c" else 2.0)
    moved = float(nnz * (isz + col_ind.dtype.itemsize) + B.shape[0] * ncols * isz + 2 * Cm.shape[0] * ncols * isz)
    if trans_a is Operation.none:
        c.launch(k.csrmm_kernel(ncols), False, conj_b, alpha, val, row_ptr, col_ind, base, B, beta, Cm,
                 stream_bounds(m, nnz * ncols) if bounds is None else bounds, pool_threads(), flops=flops,
                 bytes=moved)
        return
    chunks = scatter_chunks(nnz, kdim, ncols)
    if scratch is None:
        scratch = c.workspace(chunks * kdim * ncols * isz, val.dtype, (chunks, kdim, ncols), "scratch")
    c.launch(k.csrmm_scatter, trans_a is Operation.conjugate_transpose, conj_b, val, row_ptr, col_ind, base, B,
             scratch, flops=flops, bytes=moved)
    c.launch(k.gather_chunks2d, alpha, scratch, beta, Cm, bytes=float((chunks + 2) * kdim * ncols * isz))


def scale_c(c: Call, beta: Any, Cm: Buffer) -> None:
    """``C := beta C`` (beta == 0 writes zeros)."""
    if Cm.shape[0] and Cm.shape[1]:
        c.launch(k.scale2d, beta, Cm, bytes=2.0 * Cm.shape[0] * Cm.shape[1] * Cm.dtype.itemsize)


def _csrmm(c: Call) -> None:
    trans_a = c.enum("trans_A", Operation)
    trans_b = c.enum("trans_B", Operation)
    m, n, kdim, nnz = c.size("m"), c.size("n"), c.size("k"), c.size("nnz")
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    if descr.type is not MatrixType.general:
        raise SparseNotImplementedError(f"csrmm supports general matrices, got {descr.type.name}", arg="descr",
                                        index=c.index("descr"))
    if descr.storage_mode.value != 0:
        raise SparseRequiresSortedStorageError("csrmm requires sorted storage", arg="descr", index=c.index("descr"))
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    crows = m if trans_a is Operation.none else kdim
    if m == 0 or n == 0 or kdim == 0:
        if crows * n > 0:
            c.pointer("C")
            c.pointer("beta")
            ldc = c.size("ldc")
            scale_c(c, c.scalar("beta"), dense_view(c["C"], c.ptr("C"), c.dtype, crows, n, ldc, Order.column))
        return
    if c.alpha0_beta1():  # before alpha and beta are checked (a null one takes no quick return)
        return
    c.pointer("alpha")
    c.pointer("B")
    ldb = c.size("ldb")
    c.pointer("beta")
    c.pointer("C")
    ldc = c.size("ldc")
    if ldc < max(1, crows):
        raise c.invalid_size("ldc", f"must be >= max(1, {crows}), got {ldc}")
    brows = kdim if trans_a is Operation.none else m  # rows of op(B)
    need_b = brows if trans_b is Operation.none else n
    if ldb < max(1, need_b):
        raise c.invalid_size("ldb", f"must be >= max(1, {need_b}), got {ldb}")
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    if trans_b is Operation.none:
        B = dense_view(c["B"], c.ptr("B"), c.dtype, brows, n, ldb, Order.column, name="B")
    else:
        B = dense_view(c["B"], c.ptr("B"), c.dtype, n, brows, ldb, Order.column, transposed=True, name="B")
    Cm = dense_view(c["C"], c.ptr("C"), c.dtype, crows, n, ldc, Order.column, name="C")
    launch_csrmm(c, trans_a, trans_b is Operation.conjugate_transpose, m, kdim, nnz, int(descr.base),
                 c.array("csr_val", nnz), c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype),
                 c.scalar("alpha"), B, c.scalar("beta"), Cm)


CSRMM = Routine("csrmm", ("trans_A", "trans_B", "m", "n", "k", "nnz", "alpha", "descr", "csr_val", "csr_row_ptr",
                          "csr_col_ind", "B", "ldb", "beta", "C", "ldc"), _csrmm,
                "C := alpha op(A) op(B) + beta C for an m x k CSR matrix A and column-major dense B and C.",
                replay=True)

scsrmm = bind(CSRMM, S)
dcsrmm = bind(CSRMM, D)
ccsrmm = bind(CSRMM, C)
zcsrmm = bind(CSRMM, Z)
