"""The generic API's descriptors: sparse CSR, CSC and COO matrices, dense vectors and matrices.

``create_*_descr`` return the descriptor (rocSPARSE's out-parameter), checking as rocSPARSE
does: sizes (invalid_size, including ``nnz > rows * cols``), arrays non-null where their
length is positive (invalid_pointer), then enums (invalid_value).  Argument positions count
the out-parameter as #1, as in the C prototype.  Arrays are device pointers or DeviceArrays.
A sparse descriptor owns a matrix descriptor (its attributes: fill mode, diagonal type,
matrix type, storage mode) and a ``mat_info`` (its spmv analysis).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._api import is_null, pointer_of
from ._handle import MatDescr, MatInfo
from ._types import (
    Datatype,
    DiagType,
    FillMode,
    Format,
    IndexBase,
    IndexType,
    MatrixType,
    Order,
    SparseInvalidPointerError,
    SparseInvalidSizeError,
    SparseInvalidValueError,
    SpMatAttribute,
    StorageMode,
    as_enum,
)

__all__ = [
    "DnMatDescr", "DnVecDescr", "SpMatDescr", "coo_get", "coo_set_pointers", "create_coo_descr",
    "create_csc_descr", "create_csr_descr", "create_dnmat_descr", "create_dnvec_descr", "csc_get",
    "csc_set_pointers", "csr_get", "csr_set_pointers", "destroy_dnmat_descr", "destroy_dnvec_descr",
    "destroy_spmat_descr", "dnmat_get", "dnmat_get_values", "dnmat_set_values", "dnvec_get", "dnvec_get_values",
    "dnvec_set_values", "spmat_get_attribute", "spmat_get_format", "spmat_get_index_base", "spmat_get_nnz",
    "spmat_get_size", "spmat_get_values", "spmat_set_attribute", "spmat_set_nnz", "spmat_set_values",
]


@dataclass(eq=False)
class SpMatDescr:
    """A ``rocsparse_spmat_descr``.

    For CSR ``row_data`` is the row pointer and ``col_data`` the column indices; for CSC
    ``col_data`` is the column pointer and ``row_data`` the row indices; for COO both are
    index arrays of ``nnz`` entries.
    """

    format: Format
    rows: int
    cols: int
    nnz: int
    row_data: Any
    col_data: Any
    val_data: Any
    row_type: IndexType
    col_type: IndexType
    idx_base: IndexBase
    data_type: Datatype
    descr: MatDescr = field(default_factory=MatDescr)
    info: MatInfo = field(default_factory=MatInfo)
    analysed: bool = False
    destroyed: bool = False


@dataclass(eq=False)
class DnVecDescr:
    """A ``rocsparse_dnvec_descr``: ``size`` elements of ``data_type`` at ``values``."""

    size: int
    values: Any
    data_type: Datatype
    destroyed: bool = False


@dataclass(eq=False)
class DnMatDescr:
    """A ``rocsparse_dnmat_descr``: ``rows x cols`` elements, leading dimension ``ld``, in ``order``."""

    rows: int
    cols: int
    ld: int
    values: Any
    data_type: Datatype
    order: Order
    destroyed: bool = False


def _size(value: Any, name: str, index: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise SparseInvalidSizeError(f"must be a non-negative integer, got {value!r}", arg=name, index=index)
    return int(value)


def _array(length: int, value: Any, name: str, index: int) -> Any:
    if length > 0 and is_null(value):
        raise SparseInvalidPointerError(f"null array of length {length}", arg=name, index=index)
    try:
        pointer_of(value)
    except TypeError as exc:
        raise SparseInvalidPointerError(str(exc), arg=name, index=index) from None
    return value


def check_spmat(descr: Any, arg: str = "descr", index: int | None = 1) -> SpMatDescr:
    """A live sparse matrix descriptor, or invalid_pointer."""
    if not isinstance(descr, SpMatDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a sparse matrix descriptor", arg=arg, index=index)
    return descr


def check_dnvec(descr: Any, arg: str = "descr", index: int | None = 1) -> DnVecDescr:
    """A live dense vector descriptor, or invalid_pointer."""
    if not isinstance(descr, DnVecDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a dense vector descriptor", arg=arg, index=index)
    return descr


def check_dnmat(descr: Any, arg: str = "descr", index: int | None = 1) -> DnMatDescr:
    """A live dense matrix descriptor, or invalid_pointer."""
    if not isinstance(descr, DnMatDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a dense matrix descriptor", arg=arg, index=index)
    return descr


def _new_spmat(fmt: Format, rows: int, cols: int, nnz: int, row_data: Any, col_data: Any, val_data: Any,
               row_type: IndexType, col_type: IndexType, base: IndexBase, dtype: Datatype) -> SpMatDescr:
    d = SpMatDescr(fmt, rows, cols, nnz, row_data, col_data, val_data, row_type, col_type, base, dtype)
    d.descr.base = base
    return d


def create_csr_descr(rows: int, cols: int, nnz: int, csr_row_ptr: Any, csr_col_ind: Any, csr_val: Any,
                     row_ptr_type: Any, col_ind_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_csr_descr``: a CSR matrix of ``rows x cols`` with ``nnz`` entries."""
    r, c, z = _size(rows, "rows", 2), _size(cols, "cols", 3), _size(nnz, "nnz", 4)
    if z > r * c:
        raise SparseInvalidSizeError(f"nnz = {z} exceeds rows * cols = {r * c}", arg="nnz", index=4)
    _array(r, csr_row_ptr, "csr_row_ptr", 5)
    _array(z, csr_col_ind, "csr_col_ind", 6)
    _array(z, csr_val, "csr_val", 7)
    rt = as_enum(IndexType, row_ptr_type, "row_ptr_type", 8)
    ct = as_enum(IndexType, col_ind_type, "col_ind_type", 9)
    base = as_enum(IndexBase, idx_base, "idx_base", 10)
    dt = as_enum(Datatype, data_type, "data_type", 11)
    return _new_spmat(Format.csr, r, c, z, csr_row_ptr, csr_col_ind, csr_val, rt, ct, base, dt)


def create_csc_descr(rows: int, cols: int, nnz: int, csc_col_ptr: Any, csc_row_ind: Any, csc_val: Any,
                     col_ptr_type: Any, row_ind_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_csc_descr``: a CSC matrix of ``rows x cols`` with ``nnz`` entries."""
    r, c, z = _size(rows, "rows", 2), _size(cols, "cols", 3), _size(nnz, "nnz", 4)
    if z > r * c:
        raise SparseInvalidSizeError(f"nnz = {z} exceeds rows * cols = {r * c}", arg="nnz", index=4)
    _array(c, csc_col_ptr, "csc_col_ptr", 5)
    _array(z, csc_row_ind, "csc_row_ind", 6)
    _array(z, csc_val, "csc_val", 7)
    pt = as_enum(IndexType, col_ptr_type, "col_ptr_type", 8)
    it = as_enum(IndexType, row_ind_type, "row_ind_type", 9)
    base = as_enum(IndexBase, idx_base, "idx_base", 10)
    dt = as_enum(Datatype, data_type, "data_type", 11)
    return _new_spmat(Format.csc, r, c, z, csc_row_ind, csc_col_ptr, csc_val, it, pt, base, dt)


def create_coo_descr(rows: int, cols: int, nnz: int, coo_row_ind: Any, coo_col_ind: Any, coo_val: Any,
                     idx_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_coo_descr``: a COO matrix of ``rows x cols`` with ``nnz`` entries."""
    r, c, z = _size(rows, "rows", 2), _size(cols, "cols", 3), _size(nnz, "nnz", 4)
    if z > r * c:
        raise SparseInvalidSizeError(f"nnz = {z} exceeds rows * cols = {r * c}", arg="nnz", index=4)
    _array(z, coo_row_ind, "coo_row_ind", 5)
    _array(z, coo_col_ind, "coo_col_ind", 6)
    _array(z, coo_val, "coo_val", 7)
    it = as_enum(IndexType, idx_type, "idx_type", 8)
    base = as_enum(IndexBase, idx_base, "idx_base", 9)
    dt = as_enum(Datatype, data_type, "data_type", 10)
    return _new_spmat(Format.coo, r, c, z, coo_row_ind, coo_col_ind, coo_val, it, it, base, dt)


def destroy_spmat_descr(descr: SpMatDescr) -> None:
    """``rocsparse_destroy_spmat_descr``."""
    d = check_spmat(descr)
    d.info.csrmv = d.info.csrsv = None
    d.destroyed = True


def _check_format(d: SpMatDescr, fmt: Format) -> None:
    if d.format is not fmt:
        raise SparseInvalidValueError(f"a {d.format.name} descriptor, expected {fmt.name}", arg="descr", index=1)


def csr_get(descr: SpMatDescr) -> tuple[Any, ...]:
    """``rocsparse_csr_get``: ``(rows, cols, nnz, csr_row_ptr, csr_col_ind, csr_val, row_ptr_type,
    col_ind_type, idx_base, data_type)``."""
    d = check_spmat(descr)
    _check_format(d, Format.csr)
    return (d.rows, d.cols, d.nnz, d.row_data, d.col_data, d.val_data, d.row_type, d.col_type, d.idx_base,
            d.data_type)


def csc_get(descr: SpMatDescr) -> tuple[Any, ...]:
    """``rocsparse_csc_get``: ``(rows, cols, nnz, csc_col_ptr, csc_row_ind, csc_val, col_ptr_type,
    row_ind_type, idx_base, data_type)``."""
    d = check_spmat(descr)
    _check_format(d, Format.csc)
    return (d.rows, d.cols, d.nnz, d.col_data, d.row_data, d.val_data, d.col_type, d.row_type, d.idx_base,
            d.data_type)


def coo_get(descr: SpMatDescr) -> tuple[Any, ...]:
    """``rocsparse_coo_get``: ``(rows, cols, nnz, coo_row_ind, coo_col_ind, coo_val, idx_type, idx_base,
    data_type)``."""
    d = check_spmat(descr)
    _check_format(d, Format.coo)
    return d.rows, d.cols, d.nnz, d.row_data, d.col_data, d.val_data, d.row_type, d.idx_base, d.data_type


def _set_pointers(d: SpMatDescr, row: Any, col: Any, val: Any, names: tuple[str, str, str], lens: tuple[int, ...]):
    for value, name, length, index in zip((row, col, val), names, lens, (2, 3, 4), strict=True):
        _array(length, value, name, index)
    d.analysed = False  # new arrays: an earlier analysis no longer applies
    d.info.csrmv = None


def csr_set_pointers(descr: SpMatDescr, csr_row_ptr: Any, csr_col_ind: Any, csr_val: Any) -> None:
    """``rocsparse_csr_set_pointers``."""
    d = check_spmat(descr)
    _check_format(d, Format.csr)
    _set_pointers(d, csr_row_ptr, csr_col_ind, csr_val, ("csr_row_ptr", "csr_col_ind", "csr_val"),
                  (d.rows, d.nnz, d.nnz))
    d.row_data, d.col_data, d.val_data = csr_row_ptr, csr_col_ind, csr_val


def csc_set_pointers(descr: SpMatDescr, csc_col_ptr: Any, csc_row_ind: Any, csc_val: Any) -> None:
    """``rocsparse_csc_set_pointers``."""
    d = check_spmat(descr)
    _check_format(d, Format.csc)
    _set_pointers(d, csc_col_ptr, csc_row_ind, csc_val, ("csc_col_ptr", "csc_row_ind", "csc_val"),
                  (d.cols, d.nnz, d.nnz))
    d.col_data, d.row_data, d.val_data = csc_col_ptr, csc_row_ind, csc_val


def coo_set_pointers(descr: SpMatDescr, coo_row_ind: Any, coo_col_ind: Any, coo_val: Any) -> None:
    """``rocsparse_coo_set_pointers``."""
    d = check_spmat(descr)
    _check_format(d, Format.coo)
    _set_pointers(d, coo_row_ind, coo_col_ind, coo_val, ("coo_row_ind", "coo_col_ind", "coo_val"),
                  (d.nnz, d.nnz, d.nnz))
    d.row_data, d.col_data, d.val_data = coo_row_ind, coo_col_ind, coo_val


def spmat_get_size(descr: SpMatDescr) -> tuple[int, int, int]:
    """``rocsparse_spmat_get_size``: ``(rows, cols, nnz)``."""
    d = check_spmat(descr)
    return d.rows, d.cols, d.nnz


def spmat_get_nnz(descr: SpMatDescr) -> int:
    """``rocsparse_spmat_get_nnz``."""
    return check_spmat(descr).nnz


def spmat_set_nnz(descr: SpMatDescr, nnz: int) -> None:
    """``rocsparse_spmat_set_nnz`` (after spgemm's nnz stage, before setting the arrays)."""
    d = check_spmat(descr)
    d.nnz = _size(nnz, "nnz", 2)


def spmat_get_format(descr: SpMatDescr) -> Format:
    """``rocsparse_spmat_get_format``."""
    return check_spmat(descr).format


def spmat_get_index_base(descr: SpMatDescr) -> IndexBase:
    """``rocsparse_spmat_get_index_base``."""
    return check_spmat(descr).idx_base


def spmat_get_values(descr: SpMatDescr) -> Any:
    """``rocsparse_spmat_get_values``."""
    return check_spmat(descr).val_data


def spmat_set_values(descr: SpMatDescr, values: Any) -> None:
    """``rocsparse_spmat_set_values``."""
    d = check_spmat(descr)
    d.val_data = _array(d.nnz, values, "values", 2)


_ATTRIBUTES: dict[SpMatAttribute, tuple[str, type]] = {
    SpMatAttribute.fill_mode: ("fill_mode", FillMode),
    SpMatAttribute.diag_type: ("diag_type", DiagType),
    SpMatAttribute.matrix_type: ("type", MatrixType),
    SpMatAttribute.storage_mode: ("storage_mode", StorageMode),
}


def spmat_get_attribute(descr: SpMatDescr, attribute: Any) -> Any:
    """``rocsparse_spmat_get_attribute``: the value (no data pointer and size in Python)."""
    d = check_spmat(descr)
    name, _ = _ATTRIBUTES[as_enum(SpMatAttribute, attribute, "attribute", 2)]
    return getattr(d.descr, name)


def spmat_set_attribute(descr: SpMatDescr, attribute: Any, value: Any) -> None:
    """``rocsparse_spmat_set_attribute``: an invalid value for the attribute is invalid_value."""
    d = check_spmat(descr)
    name, cls = _ATTRIBUTES[as_enum(SpMatAttribute, attribute, "attribute", 2)]
    setattr(d.descr, name, as_enum(cls, value, "data", 3))
    d.analysed = False


def create_dnvec_descr(size: int, values: Any, data_type: Any) -> DnVecDescr:
    """``rocsparse_create_dnvec_descr``: ``size`` elements of ``data_type`` at ``values``."""
    n = _size(size, "size", 2)
    _array(n, values, "values", 3)
    return DnVecDescr(n, values, as_enum(Datatype, data_type, "data_type", 4))


def destroy_dnvec_descr(descr: DnVecDescr) -> None:
    """``rocsparse_destroy_dnvec_descr``."""
    check_dnvec(descr).destroyed = True


def dnvec_get(descr: DnVecDescr) -> tuple[int, Any, Datatype]:
    """``rocsparse_dnvec_get``: ``(size, values, data_type)``."""
    d = check_dnvec(descr)
    return d.size, d.values, d.data_type


def dnvec_get_values(descr: DnVecDescr) -> Any:
    """``rocsparse_dnvec_get_values``."""
    return check_dnvec(descr).values


def dnvec_set_values(descr: DnVecDescr, values: Any) -> None:
    """``rocsparse_dnvec_set_values``."""
    d = check_dnvec(descr)
    d.values = _array(d.size, values, "values", 2)


def create_dnmat_descr(rows: int, cols: int, ld: int, values: Any, data_type: Any, order: Any) -> DnMatDescr:
    """``rocsparse_create_dnmat_descr``: ``ld >= max(1, cols)`` in row order, ``>= max(1, rows)`` in column order."""
    r, c = _size(rows, "rows", 2), _size(cols, "cols", 3)
    dt = as_enum(Datatype, data_type, "data_type", 6)
    o = as_enum(Order, order, "order", 7)
    need = max(1, c if o is Order.row else r)
    if isinstance(ld, bool) or not isinstance(ld, (int, np.integer)) or ld < need:
        raise SparseInvalidSizeError(f"must be >= {need}, got {ld!r}", arg="ld", index=4)
    _array(r * c, values, "values", 5)
    return DnMatDescr(r, c, int(ld), values, dt, o)


def destroy_dnmat_descr(descr: DnMatDescr) -> None:
    """``rocsparse_destroy_dnmat_descr``."""
    check_dnmat(descr).destroyed = True


def dnmat_get(descr: DnMatDescr) -> tuple[int, int, int, Any, Datatype, Order]:
    """``rocsparse_dnmat_get``: ``(rows, cols, ld, values, data_type, order)``."""
    d = check_dnmat(descr)
    return d.rows, d.cols, d.ld, d.values, d.data_type, d.order


def dnmat_get_values(descr: DnMatDescr) -> Any:
    """``rocsparse_dnmat_get_values``."""
    return check_dnmat(descr).values


def dnmat_set_values(descr: DnMatDescr, values: Any) -> None:
    """``rocsparse_dnmat_set_values``."""
    d = check_dnmat(descr)
    d.values = _array(d.rows * d.cols, values, "values", 2)
