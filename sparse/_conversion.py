"""Conversions: csr2coo, coo2csr, csr2csc (with its buffer size) and the identity permutation.

Check orders and quick returns as rocSPARSE.  COO input of coo2csr must be sorted by row
(as rocSPARSE requires); csr2csc keeps row indices ascending within each column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels as k
from ._api import Call, Routine, bind, is_null
from ._kernels_conv import BUCKETED_BYTES
from ._types import Action, IndexBase
from ._validate import check_csr, check_offsets

__all__ = [
    "ccsr2csc", "coo2csr", "create_identity_permutation", "csr2coo", "csr2csc_buffer_size", "dcsr2csc", "scsr2csc",
    "zcsr2csc",
]


def _fill(c: Call, name: str, length: int, value: int, dtype: np.dtype[Any]) -> None:
    """``valset``: ``length`` elements of ``name`` set to ``value``."""
    if length and not is_null(c.values[name]):
        c.launch(_set, c.array(name, length, dtype), value, bytes=float(length * dtype.itemsize))


def _set(a: np.ndarray, value: int) -> None:
    a[...] = value


def _csr2coo(c: Call) -> None:
    base = c.enum("idx_base", IndexBase)
    nnz, m = c.size("nnz"), c.size("m")
    c.check_array("csr_row_ptr", m)
    c.check_array("coo_row_ind", nnz)
    if nnz == 0 or m == 0:
        return
    itype = c.index_dtype("csr_row_ptr", "coo_row_ind")
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    check_offsets(c, row_ptr, int(base), nnz)  # checking mode: the offsets place the row indices
    c.launch(k.csr_to_coo_rows, row_ptr, int(base), c.array("coo_row_ind", nnz, itype),
             bytes=float((m + 1 + nnz) * itype.itemsize))


csr2coo = bind(Routine("csr2coo", ("csr_row_ptr", "nnz", "m", "coo_row_ind", "idx_base"), _csr2coo,
                       "The COO row indices of a CSR row pointer."), None)


def _coo2csr(c: Call) -> None:
    nnz = c.size("nnz")
    c.check_array("coo_row_ind", nnz)
    m = c.size("m")
    c.check_array("csr_row_ptr", m)
    base = c.enum("idx_base", IndexBase)
    itype = c.index_dtype("coo_row_ind", "csr_row_ptr")
    if m == 0:
        _fill(c, "csr_row_ptr", 1, int(base), itype)
        return
    c.launch(k.coo_rows_to_ptr, c.array("coo_row_ind", nnz, itype), int(base), c.array("csr_row_ptr", m + 1, itype),
             bytes=float((m + 1 + nnz) * itype.itemsize))


coo2csr = bind(Routine("coo2csr", ("coo_row_ind", "nnz", "m", "csr_row_ptr", "idx_base"), _coo2csr,
                       "The CSR row pointer of row-sorted COO row indices."), None)


def _csr2csc_buffer_size(c: Call) -> int:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    c.enum("copy_values", Action)
    return 0 if m == 0 or n == 0 or nnz == 0 else 4 * (n + 1)


csr2csc_buffer_size = bind(Routine("csr2csc_buffer_size", ("m", "n", "nnz", "csr_row_ptr", "csr_col_ind",
                                                           "copy_values"), _csr2csc_buffer_size,
                                   "Bytes of temp_buffer csr2csc needs (returned)."), None)


def _csr2csc(c: Call) -> None:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    c.check_array("csc_row_ind", nnz)
    c.check_array("csc_col_ptr", n)
    action = c.enum("copy_values", Action)
    base = c.enum("idx_base", IndexBase)
    if action is Action.numeric:
        c.check_array("csr_val", nnz)
        c.check_array("csc_val", nnz)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "csc_row_ind", "csc_col_ptr")
    if m == 0 or n == 0 or nnz == 0:
        if nnz == 0:
            _fill(c, "csc_col_ptr", n + 1, int(base), itype)
        return
    c.pointer("temp_buffer")
    numeric = action is Action.numeric
    row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    check_csr(c, row_ptr, col_ind, int(base), nnz, n)  # checking mode: a column picks its counter
    c.launch(k.csr_transpose, numeric, c.array("csr_val", nnz if numeric else 0), row_ptr, col_ind, int(base),
             c.array("csc_val", nnz if numeric else 0), c.array("csc_row_ind", nnz, itype),
             c.array("csc_col_ptr", n + 1, itype), BUCKETED_BYTES,
             bytes=float(2 * nnz * (itype.itemsize + (c.dtype.itemsize if numeric else 0)) + (m + n) * itype.itemsize))


CSR2CSC = Routine("csr2csc", ("m", "n", "nnz", "csr_val", "csr_row_ptr", "csr_col_ind", "csc_val", "csc_row_ind",
                              "csc_col_ptr", "copy_values", "idx_base", "temp_buffer"), _csr2csc,
                  "Convert an m x n CSR matrix to CSC (copy_values: symbolic skips the values).")

scsr2csc = bind(CSR2CSC, S)
dcsr2csc = bind(CSR2CSC, D)
ccsr2csc = bind(CSR2CSC, C)
zcsr2csc = bind(CSR2CSC, Z)


def _identity(c: Call) -> None:
    n = c.size("n")
    c.check_array("p", n)
    if n:
        itype = c.index_dtype("p")
        c.launch(k.identity, c.array("p", n, itype), bytes=float(n * itype.itemsize))


create_identity_permutation = bind(Routine("create_identity_permutation", ("n", "p"), _identity,
                                           "p[i] := i for i < n."), None)
