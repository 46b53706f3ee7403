"""Dense <-> sparse conversions and index sorts: nnz, dense2csr, dense2csc, dense2coo, csr2dense,
csc2dense, coo2dense, csrsort and coosort_by_row / coosort_by_column with their buffer sizes.

Check orders, statuses and quick returns as rocSPARSE (its ``*_checkarg`` functions).  Dense
matrices are column-major with leading dimension ``ld`` (``ld < m`` is ``invalid_size``); only
their ``m x n`` part is read or written, the padding rows survive.  Deviations, where rocSPARSE's
own code is at fault, are noted at the routine: the ``nnz`` quick return zeroes exactly the ``m``
(row) or ``n`` (column) counts, and ``csc2dense`` reads the column pointer's end at ``n``.

``nnz`` returns the total in host pointer mode (its ``nnz_total_dev_host_ptr`` is then ignored) and
writes it to that device pointer in device pointer mode, returning None.  The ``*_buffer_size``
routines return a byte count laid out as rocSPARSE's (256-byte aligned scratch arrays and a sort
workspace); the sorts are stable, so ``perm`` (start it as the identity permutation) gathers the
values into sorted order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels as k
from . import _kernels_conv as kc
from ._api import Call, Routine, bind, is_null
from ._handle import MatDescr, check_descr
from ._level3 import dense_view
from ._types import (
    Direction,
    MatrixType,
    Order,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    StorageMode,
)
from ._validate import check_coo, check_csr, check_indices, check_offsets

__all__ = [
    "ccoo2dense", "ccsc2dense", "ccsr2dense", "cdense2coo", "cdense2csc", "cdense2csr", "cnnz", "coosort_buffer_size",
    "coosort_by_column", "coosort_by_row", "csrsort", "csrsort_buffer_size", "dcoo2dense", "dcsc2dense", "dcsr2dense",
    "ddense2coo", "ddense2csc", "ddense2csr", "dnnz", "scoo2dense", "scsc2dense", "scsr2dense", "sdense2coo",
    "sdense2csc", "sdense2csr", "snnz", "zcoo2dense", "zcsc2dense", "zcsr2dense", "zdense2coo", "zdense2csc",
    "zdense2csr", "znnz",
]


# --- shared checks --------------------------------------------------------------------------------


def _ld(c: Call, rows: int) -> int:
    """``ld`` of a column-major dense matrix with ``rows`` rows: ``invalid_size`` when below ``rows``."""
    ld = c.size("ld")
    if ld < rows:
        raise c.invalid_size("ld", f"must be >= m = {rows}, got {ld}")
    return ld


def _descr(c: Call) -> MatDescr:
    return check_descr(c["descr"], "descr", c.index("descr"))


def _general(c: Call, d: MatDescr) -> None:
    if d.type is not MatrixType.general:
        raise SparseNotImplementedError(f"{c.fname} supports general matrices, got {d.type.name}", arg="descr",
                                        index=c.index("descr"))


def _sorted(c: Call, d: MatDescr) -> None:
    if d.storage_mode is not StorageMode.sorted:
        raise SparseRequiresSortedStorageError(f"{c.fname} requires sorted storage", arg="descr",
                                               index=c.index("descr"))


def _dense(c: Call, m: int, n: int, ld: int, transposed: bool = False) -> Buffer:
    """The column-major ``m x n`` argument ``A`` as a [row, column] view (``transposed``: [column, row])."""
    return dense_view(c["A"], c.ptr("A"), c.dtype, m, n, ld, Order.column, transposed=transposed, name="A")


def _fill(c: Call, name: str, length: int, value: int, dtype: np.dtype[Any]) -> None:
    """``length`` elements of ``name`` set to ``value`` (rocSPARSE's ``valset`` / ``hipMemset``)."""
    if length and not is_null(c[name]):
        c.launch(_set, c.array(name, length, dtype), value, bytes=float(length * dtype.itemsize))


def _set(a: np.ndarray, value: int) -> None:
    a[...] = value


def _span(c: Call, name: str, length: int, itype: np.dtype[Any]) -> int:
    """``ptr[length] - ptr[0]`` of a device pointer array, read back (rocSPARSE copies both ends to the host)."""
    out = np.zeros(2, np.int64)
    c.launch(_ends, c.array(name, length + 1, itype), out, bytes=float(2 * itype.itemsize)).wait()
    return int(out[1] - out[0])


def _ends(ptr: np.ndarray, out: np.ndarray) -> None:
    out[0], out[1] = ptr[0], ptr[-1]


def _align256(nbytes: int) -> int:
    """rocSPARSE's ``((nbytes - 1) / 256 + 1) * 256``."""
    return ((nbytes - 1) // 256 + 1) * 256


# --- nnz --------------------------------------------------------------------------------------------


def _nnz(c: Call) -> int | None:
    direction = c.enum("dir", Direction)
    m, n = c.size("m"), c.size("n")
    ld = _ld(c, m)
    total_on_device = not c.host_mode
    names = ("nnz_per_row_columns", "nnz_total_dev_host_ptr") if total_on_device else ("nnz_per_row_columns",)
    itype = c.index_dtype(*names)
    count = m if direction is Direction.row else n
    if m == 0 or n == 0:
        # rocSPARSE's switch falls through from row to column here; the m (row) or n (column) counts are zeroed.
        _fill(c, "nnz_per_row_columns", count, 0, itype)
        if not total_on_device:
            return 0
        _fill(c, "nnz_total_dev_host_ptr", 1, 0, itype)
        return None
    d = _descr(c)
    _general(c, d)
    _sorted(c, d)
    c.pointer("A")
    c.pointer("nnz_per_row_columns")
    if total_on_device:
        c.pointer("nnz_total_dev_host_ptr")
    A = _dense(c, m, n, ld, transposed=direction is Direction.column)
    counts = c.array("nnz_per_row_columns", count, itype)
    moved = float(m * n * c.dtype.itemsize + count * itype.itemsize)
    if total_on_device:
        c.launch(kc.count_rows, A, counts, c.array("nnz_total_dev_host_ptr", 1, itype), bytes=moved)
        return None
    host = np.zeros(1, np.int64)
    c.launch(kc.count_rows, A, counts, host, bytes=moved).wait()
    return int(host[0])


NNZ = Routine("nnz", ("dir", "m", "n", "descr", "A", "ld", "nnz_per_row_columns", "nnz_total_dev_host_ptr"), _nnz,
              "Nonzeros per row (dir row) or column (dir column) of a column-major m x n matrix and their total "
              "(returned in host pointer mode, written to nnz_total_dev_host_ptr in device pointer mode).")

snnz = bind(NNZ, S)
dnnz = bind(NNZ, D)
cnnz = bind(NNZ, C)
znnz = bind(NNZ, Z)


# --- dense2csr / dense2csc / dense2coo -----------------------------------------------------------------


def _dense2csx(c: Call, direction: Direction, counts_name: str, val: str, ptr: str, ind: str) -> None:
    m, n = c.size("m"), c.size("n")
    ld = _ld(c, m)
    count = m if direction is Direction.row else n
    if m == 0 or n == 0:
        if not is_null(c[ptr]):
            _fill(c, ptr, count + 1, int(_descr(c).base), c.index_dtype(counts_name, ptr, ind))
        return
    d = _descr(c)
    _sorted(c, d)
    _general(c, d)
    full = m * n
    c.check_array("A", full)
    c.check_array(counts_name, count)
    c.check_array(val, full)
    c.check_array(ptr, count)
    c.check_array(ind, full)
    itype = c.index_dtype(counts_name, ptr, ind)
    _compress(c, _dense(c, m, n, ld, transposed=direction is Direction.column), int(d.base),
              c.array(counts_name, count, itype), c.array(ptr, count + 1, itype), val, ind, itype)


def _compress(c: Call, A: Buffer, base: int, counts: Buffer, ptr: Any, val: str, ind: str,
              itype: np.dtype[Any]) -> int:
    """The pointer array from the caller's counts (``ptr[0] = base``, inclusive scan), then the entries of each
    row of the view ``A``; returns the nonzeros the pointer spans."""
    count = A.shape[0]
    host = np.zeros(1, np.int64)
    c.launch(kc.counts_to_ptr, counts, base, ptr, host, bytes=float((2 * count + 1) * itype.itemsize)).wait()
    nnz = int(host[0])
    c.launch(kc.dense_to_compressed, A, base, ptr, c.array(val, nnz), c.array(ind, nnz, itype),
             bytes=float(A.shape[0] * A.shape[1] * c.dtype.itemsize + nnz * (c.dtype.itemsize + itype.itemsize)))
    return nnz


DENSE2CSR = Routine("dense2csr", ("m", "n", "descr", "A", "ld", "nnz_per_rows", "csr_val", "csr_row_ptr",
                                  "csr_col_ind"),
                    lambda c: _dense2csx(c, Direction.row, "nnz_per_rows", "csr_val", "csr_row_ptr", "csr_col_ind"),
                    "Compress a column-major m x n matrix to CSR, given its nonzeros per row (from nnz).")

sdense2csr = bind(DENSE2CSR, S)
ddense2csr = bind(DENSE2CSR, D)
cdense2csr = bind(DENSE2CSR, C)
zdense2csr = bind(DENSE2CSR, Z)

DENSE2CSC = Routine("dense2csc", ("m", "n", "descr", "A", "ld", "nnz_per_columns", "csc_val", "csc_col_ptr",
                                  "csc_row_ind"),
                    lambda c: _dense2csx(c, Direction.column, "nnz_per_columns", "csc_val", "csc_col_ptr",
                                         "csc_row_ind"),
                    "Compress a column-major m x n matrix to CSC, given its nonzeros per column (from nnz).")

sdense2csc = bind(DENSE2CSC, S)
ddense2csc = bind(DENSE2CSC, D)
cdense2csc = bind(DENSE2CSC, C)
zdense2csc = bind(DENSE2CSC, Z)


def _dense2coo(c: Call) -> None:
    m, n = c.size("m"), c.size("n")
    d = _descr(c)
    _sorted(c, d)
    ld = _ld(c, m)
    if m == 0 or n == 0:
        return
    c.pointer("A")
    c.check_array("nnz_per_rows", m)
    c.pointer("coo_val")
    c.pointer("coo_row_ind")
    c.pointer("coo_col_ind")
    _general(c, d)  # dense2csx's own checks, run after dense2coo's
    itype = c.index_dtype("nnz_per_rows", "coo_row_ind", "coo_col_ind")
    row_ptr = rocmath.empty(m + 1, itype)
    nnz = _compress(c, _dense(c, m, n, ld), int(d.base), c.array("nnz_per_rows", m, itype), row_ptr, "coo_val",
                    "coo_col_ind", itype)
    if nnz:
        c.launch(k.csr_to_coo_rows, row_ptr, int(d.base), c.array("coo_row_ind", nnz, itype),
                 bytes=float((m + 1 + nnz) * itype.itemsize))


DENSE2COO = Routine("dense2coo", ("m", "n", "descr", "A", "ld", "nnz_per_rows", "coo_val", "coo_row_ind",
                                  "coo_col_ind"), _dense2coo,
                    "Compress a column-major m x n matrix to row-sorted COO, given its nonzeros per row (from nnz).")

sdense2coo = bind(DENSE2COO, S)
ddense2coo = bind(DENSE2COO, D)
cdense2coo = bind(DENSE2COO, C)
zdense2coo = bind(DENSE2COO, Z)


# --- csr2dense / csc2dense / coo2dense -----------------------------------------------------------------


def _csx2dense(c: Call, direction: Direction, val: str, ptr: str, ind: str) -> None:
    d = _descr(c)
    m, n = c.size("m"), c.size("n")
    ld = _ld(c, m)
    if m == 0 or n == 0:
        return
    _sorted(c, d)
    _general(c, d)
    count = m if direction is Direction.row else n
    c.check_array(ptr, count)
    itype = c.index_dtype(ptr, ind)
    # rocSPARSE reads csc_col_ptr[m] for csc2dense; the end of a column pointer is at n.
    nnz = _span(c, ptr, count, itype)
    if is_null(c[val]) or is_null(c[ind]):
        c.check_array(val, nnz)
        c.check_array(ind, nnz)
    c.check_array("A", m * n)
    A = _dense(c, m, n, ld, transposed=direction is Direction.column)
    ptr_b, ind_b = c.array(ptr, count + 1, itype), c.array(ind, nnz, itype)
    check_csr(c, ptr_b, ind_b, int(d.base), nnz, n if direction is Direction.row else m)
    c.launch(kc.compressed_to_dense, ptr_b, ind_b, int(d.base), c.array(val, nnz), A,
             bytes=float(m * n * c.dtype.itemsize + nnz * (c.dtype.itemsize + itype.itemsize)))


CSR2DENSE = Routine("csr2dense", ("m", "n", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "A", "ld"),
                    lambda c: _csx2dense(c, Direction.row, "csr_val", "csr_row_ptr", "csr_col_ind"),
                    "Expand an m x n CSR matrix into a column-major dense matrix (its padding untouched).")

scsr2dense = bind(CSR2DENSE, S)
dcsr2dense = bind(CSR2DENSE, D)
ccsr2dense = bind(CSR2DENSE, C)
zcsr2dense = bind(CSR2DENSE, Z)

CSC2DENSE = Routine("csc2dense", ("m", "n", "descr", "csc_val", "csc_col_ptr", "csc_row_ind", "A", "ld"),
                    lambda c: _csx2dense(c, Direction.column, "csc_val", "csc_col_ptr", "csc_row_ind"),
                    "Expand an m x n CSC matrix into a column-major dense matrix (its padding untouched).")

scsc2dense = bind(CSC2DENSE, S)
dcsc2dense = bind(CSC2DENSE, D)
ccsc2dense = bind(CSC2DENSE, C)
zcsc2dense = bind(CSC2DENSE, Z)


def _coo2dense(c: Call) -> None:
    m, n = c.size("m"), c.size("n")
    ld = _ld(c, m)
    if m == 0 or n == 0:
        return
    nnz = c.size("nnz")
    d = _descr(c)
    c.check_array("coo_val", nnz)
    c.check_array("coo_row_ind", nnz)
    c.check_array("coo_col_ind", nnz)
    c.check_array("A", m * n)
    itype = c.index_dtype("coo_row_ind", "coo_col_ind")
    A = _dense(c, m, n, ld)
    rows, cols = c.array("coo_row_ind", nnz, itype), c.array("coo_col_ind", nnz, itype)
    if nnz:  # checking mode: before A is zeroed, so that a bad matrix leaves A as it is
        check_coo(c, rows, cols, int(d.base), m, n, nnz)
    c.launch(kc.zero2d, A, bytes=float(m * n * c.dtype.itemsize))
    if nnz:
        c.launch(kc.coo_scatter_dense, rows, cols, int(d.base), c.array("coo_val", nnz), A,
                 bytes=float(nnz * (c.dtype.itemsize * 2 + 2 * itype.itemsize)))


COO2DENSE = Routine("coo2dense", ("m", "n", "nnz", "descr", "coo_val", "coo_row_ind", "coo_col_ind", "A", "ld"),
                    _coo2dense,
                    "Expand an m x n COO matrix into a column-major dense matrix (a duplicate keeps the last entry).")

scoo2dense = bind(COO2DENSE, S)
dcoo2dense = bind(COO2DENSE, D)
ccoo2dense = bind(COO2DENSE, C)
zcoo2dense = bind(COO2DENSE, Z)


# --- csrsort / coosort ---------------------------------------------------------------------------------


def _csrsort_buffer_size(c: Call) -> int:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return 0
    return sort_buffer_bytes(c.index_dtype("csr_row_ptr", "csr_col_ind").itemsize, nnz, m)


def sort_buffer_bytes(isz: int, nnz: int, segments: int) -> int:
    """csrsort's (and cscsort's, with the columns as segments) temp_buffer: the sort's double buffer of keys
    and values, two nnz scratch arrays and segments + 1 shifted offsets."""
    return _align256(2 * isz * nnz) + 2 * _align256(isz * nnz) + (isz * segments // 256 + 1) * 256


csrsort_buffer_size = bind(Routine("csrsort_buffer_size", ("m", "n", "nnz", "csr_row_ptr", "csr_col_ind"),
                                   _csrsort_buffer_size, "Bytes of temp_buffer csrsort needs (returned)."), None)


def _csrsort(c: Call) -> None:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    d = _descr(c)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    c.check_array("temp_buffer", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return
    with_perm = not is_null(c["perm"])
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", *(("perm",) if with_perm else ()))
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    check_offsets(c, row_ptr, int(d.base), nnz)  # checking mode: the segments (the columns are only sorted)
    c.launch(kc.sort_segments, row_ptr, int(d.base), c.array("csr_col_ind", nnz, itype),
             with_perm, c.array("perm", nnz if with_perm else 0, itype),
             bytes=float((m + 1 + (4 if with_perm else 2) * nnz) * itype.itemsize))


csrsort = bind(Routine("csrsort", ("m", "n", "nnz", "descr", "csr_row_ptr", "csr_col_ind", "perm", "temp_buffer"),
                       _csrsort, "Sort the column indices of each CSR row (stable); perm, if given, is permuted "
                       "alongside."), None)


def _coosort_buffer_size(c: Call) -> int:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("coo_row_ind", nnz)
    c.check_array("coo_col_ind", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return 0
    isz = c.index_dtype("coo_row_ind", "coo_col_ind").itemsize
    # Sort workspace, three nnz scratch arrays and the max(m, n) + 1 segment offsets.
    return _align256(2 * isz * nnz) + 3 * _align256(isz * nnz) + (isz * max(m, n) // 256 + 1) * 256


coosort_buffer_size = bind(Routine("coosort_buffer_size", ("m", "n", "nnz", "coo_row_ind", "coo_col_ind"),
                                   _coosort_buffer_size, "Bytes of temp_buffer coosort_by_row / _by_column need "
                                   "(returned)."), None)


def _coosort(c: Call, by_row: bool) -> None:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("coo_row_ind", nnz)
    c.check_array("coo_col_ind", nnz)
    c.check_array("temp_buffer", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return
    with_perm = not is_null(c["perm"])
    itype = c.index_dtype("coo_row_ind", "coo_col_ind", *(("perm",) if with_perm else ()))
    rows, cols = c.array("coo_row_ind", nnz, itype), c.array("coo_col_ind", nnz, itype)
    major, minor = (rows, cols) if by_row else (cols, rows)
    # checking mode: the counting sort counts by the keys (no index base here: zero- or one-based)
    check_indices(c, major, 0, m if by_row else n, "rows" if by_row else "columns", either_base=True)
    c.launch(kc.sort_pairs, major, minor, with_perm, c.array("perm", nnz if with_perm else 0, itype),
             bytes=float((6 if with_perm else 4) * nnz * itype.itemsize))


COOSORT_PARAMS = ("m", "n", "nnz", "coo_row_ind", "coo_col_ind", "perm", "temp_buffer")

coosort_by_row = bind(Routine("coosort_by_row", COOSORT_PARAMS, lambda c: _coosort(c, True),
                              "Sort COO entries by row, then column (stable); perm, if given, is permuted alongside."),
                      None)
coosort_by_column = bind(Routine("coosort_by_column", COOSORT_PARAMS, lambda c: _coosort(c, False),
                                 "Sort COO entries by column, then row (stable); perm, if given, is permuted "
                                 "alongside."), None)
