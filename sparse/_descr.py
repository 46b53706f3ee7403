"""The generic API's descriptors: sparse CSR, CSC, COO, COO (AoS), ELL, blocked-ELL and BSR matrices,
dense vectors and matrices.

``create_*_descr`` return the descriptor (rocSPARSE's out-parameter), checking as rocSPARSE
does: sizes (invalid_size, including ``nnz > rows * cols``), arrays non-null where their
length is positive (invalid_pointer), then enums (invalid_value).  Argument positions count
the out-parameter as #1, as in the C prototype.  Arrays are device pointers or DeviceArrays.
A sparse descriptor owns a matrix descriptor (its attributes: fill mode, diagonal type,
matrix type, storage mode) and a ``mat_info`` (its spmv analysis).

The ``<format>_get`` getters and ``<format>_set_pointers`` setters are one line each over
:data:`LAYOUTS`, the table of which descriptor fields each format returns and which arrays
it takes (their required lengths as rocSPARSE checks them).  As rocSPARSE's, a getter does not
check the descriptor's format: on a descriptor of another format it returns the fields it names,
those that format leaves unset as rocSPARSE's zero-initialized descriptor holds them (null arrays,
0 widths and block dimension, block direction row).  As rocSPARSE: a BSR
descriptor counts rows, columns and nonzeros in blocks, an ELL descriptor's ``nnz`` is
``rows * ell_width``, a blocked-ELL descriptor's ``rows``, ``cols`` and ``ell_cols`` count
scalars (``ell_cols / ell_block_dim`` blocks per block row) and its ``nnz`` is 0.

Const descriptors (``create_const_*``, rocSPARSE's ``rocsparse_const_*_descr``) are the same objects with
``is_const`` set: every routine that takes a ``rocsparse_const_*_descr`` takes them, and their
``const_*_get`` getters return their arrays.  rocSPARSE's ``create_const_*`` leave the mutable data
pointers null (only the ``const_*_data`` ones are set), so a mutable getter (``csr_get``,
``spmat_get_values``, ``dnmat_get``...) given a const descriptor returns None for its arrays, as the C
library returns through a cast.  Where rocSPARSE's prototype takes the mutable type (the setters, the
strided-batch setters, ``spmat_set_attribute`` / ``spmat_set_nnz``, and the outputs of the generic routines)
a const descriptor is invalid_pointer naming the argument: rocSPARSE cannot tell (in C it is a type
error; through a cast its setters would succeed and its kernels would write through a null pointer).

Strided batches, as rocSPARSE: a sparse descriptor has ``batch_count`` (1), ``batch_stride`` (0, COO: the
elements between entries of its three arrays), ``offsets_batch_stride`` and ``columns_values_batch_stride``
(0, CSR / CSC: between entries of the offsets and of the indices and values); a dense matrix ``batch_count``
(1) and ``batch_stride`` (0).  The setters (``csr_set_strided_batch``, ``csc_set_strided_batch``,
``coo_set_strided_batch``, ``spmat_set_strided_batch``, ``dnmat_set_strided_batch``) check as
rocsparse_auxiliary.cpp: a count below 1 or a negative stride is invalid_value (its header says
invalid_size), a dense count above 1 needs a stride of at least ``ld * cols`` (column order) or
``ld * rows`` (row order); they check no format (the CSR setter on a COO descriptor sets strides its
products never read).  Only spmm runs batches (see :mod:`._generic`); the other routines use entry 0.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rocmath.handle import Versioned

from ._api import is_null, pointer_of
from ._handle import MatDescr, MatInfo
from ._types import (
    Datatype,
    DiagType,
    Direction,
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
    "DnMatDescr", "DnVecDescr", "SpMatDescr", "bell_get", "bsr_get", "bsr_set_pointers", "const_bell_get",
    "const_bsr_get", "const_coo_aos_get", "const_coo_get", "const_csc_get", "const_csr_get", "const_dnmat_get",
    "const_dnmat_get_values", "const_dnvec_get", "const_dnvec_get_values", "const_ell_get",
    "const_spmat_get_values", "coo_aos_get", "coo_aos_set_pointers", "coo_get", "coo_set_pointers",
    "coo_set_strided_batch", "create_bell_descr", "create_bsr_descr", "create_const_bell_descr",
    "create_const_coo_descr", "create_const_csc_descr", "create_const_csr_descr", "create_const_dnmat_descr",
    "create_const_dnvec_descr", "create_coo_aos_descr", "create_coo_descr", "create_csc_descr", "create_csr_descr",
    "create_dnmat_descr", "create_dnvec_descr", "create_ell_descr", "csc_get", "csc_set_pointers",
    "csc_set_strided_batch", "csr_get", "csr_set_pointers", "csr_set_strided_batch", "destroy_dnmat_descr",
    "destroy_dnvec_descr", "destroy_spmat_descr", "dnmat_get", "dnmat_get_strided_batch", "dnmat_get_values",
    "dnmat_set_strided_batch", "dnmat_set_values", "dnvec_get", "dnvec_get_values", "dnvec_set_values", "ell_get",
    "ell_set_pointers", "spmat_get_attribute", "spmat_get_format", "spmat_get_index_base", "spmat_get_nnz",
    "spmat_get_size", "spmat_get_strided_batch", "spmat_get_values", "spmat_set_attribute", "spmat_set_nnz",
    "spmat_set_strided_batch", "spmat_set_values",
]


@dataclass(eq=False)
class SpMatDescr(Versioned):
    """A ``rocsparse_spmat_descr``.

    For CSR ``row_data`` is the row pointer and ``col_data`` the column indices; for CSC
    ``col_data`` is the column pointer and ``row_data`` the row indices; for COO both are
    index arrays of ``nnz`` entries; COO (AoS) keeps its interleaved (row, column) pairs in
    ``ind_data``.  ELL and blocked ELL keep their column indices in ``col_data`` (``ell_width``,
    ``ell_cols`` their widths); BSR its row pointer and block columns in ``row_data`` and
    ``col_data``.  ``block_dim`` and ``block_dir`` describe BSR and blocked-ELL blocks.  Fields a
    format does not set keep rocSPARSE's zero defaults (what another format's getter returns).
    ``is_const``: made by a ``create_const_*`` function.  The batch fields are rocSPARSE's (see the module).
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
    ind_data: Any = None
    ell_width: int = 0
    ell_cols: int = 0
    block_dim: int = 0
    block_dir: Direction = Direction.row
    is_const: bool = False
    batch_count: int = 1
    batch_stride: int = 0
    offsets_batch_stride: int = 0
    columns_values_batch_stride: int = 0

    def versioned_parts(self) -> tuple[Versioned, ...]:
        """The objects inside whose changes are the descriptor's too (:mod:`rocmath.plans`): its
        matrix descriptor and analysis."""
        return self.descr, self.info


@dataclass(eq=False)
class DnVecDescr(Versioned):
    """A ``rocsparse_dnvec_descr``: ``size`` elements of ``data_type`` at ``values``."""

    size: int
    values: Any
    data_type: Datatype
    destroyed: bool = False
    is_const: bool = False


@dataclass(eq=False)
class DnMatDescr(Versioned):
    """A ``rocsparse_dnmat_descr``: ``rows x cols`` elements, leading dimension ``ld``, in ``order``; ``batch_count``
    entries ``batch_stride`` elements apart (``dnmat_set_strided_batch``)."""

    rows: int
    cols: int
    ld: int
    values: Any
    data_type: Datatype
    order: Order
    destroyed: bool = False
    is_const: bool = False
    batch_count: int = 1
    batch_stride: int = 0


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


def refuse_const(descr: Any, kind: str, arg: str, index: int | None) -> None:
    """invalid_pointer for a const descriptor where rocSPARSE's prototype takes the mutable ``rocsparse_<kind>``.

    rocSPARSE cannot tell: in C this is a type error, and through a cast its setters would succeed while its
    products would write through the null mutable data pointer ``create_const_*`` leaves (their template
    functions make no pointer checks), so rocmath refuses it, naming the argument."""
    if getattr(descr, "is_const", False):
        raise SparseInvalidPointerError(f"a const descriptor (create_const_*) where rocSPARSE takes a mutable "
                                        f"rocsparse_{kind}", arg=arg, index=index)


def check_spmat(descr: Any, arg: str = "descr", index: int | None = 1, *, writable: bool = False) -> SpMatDescr:
    """A live sparse matrix descriptor, or invalid_pointer; ``writable``: not a const one (:func:`refuse_const`)."""
    if not isinstance(descr, SpMatDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a sparse matrix descriptor", arg=arg, index=index)
    if writable:
        refuse_const(descr, "spmat_descr", arg, index)
    return descr


def check_dnvec(descr: Any, arg: str = "descr", index: int | None = 1, *, writable: bool = False) -> DnVecDescr:
    """A live dense vector descriptor, or invalid_pointer; ``writable``: not a const one."""
    if not isinstance(descr, DnVecDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a dense vector descriptor", arg=arg, index=index)
    if writable:
        refuse_const(descr, "dnvec_descr", arg, index)
    return descr


def check_dnmat(descr: Any, arg: str = "descr", index: int | None = 1, *, writable: bool = False) -> DnMatDescr:
    """A live dense matrix descriptor, or invalid_pointer; ``writable``: not a const one."""
    if not isinstance(descr, DnMatDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a dense matrix descriptor", arg=arg, index=index)
    if writable:
        refuse_const(descr, "dnmat_descr", arg, index)
    return descr


def _as_const(d: Any) -> Any:
    d.is_const = True
    return d


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


def create_const_csr_descr(rows: int, cols: int, nnz: int, csr_row_ptr: Any, csr_col_ind: Any, csr_val: Any,
                           row_ptr_type: Any, col_ind_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_const_csr_descr``: :func:`create_csr_descr`'s checks, a const descriptor (see the module)."""
    return _as_const(create_csr_descr(rows, cols, nnz, csr_row_ptr, csr_col_ind, csr_val, row_ptr_type, col_ind_type,
                                      idx_base, data_type))


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


def create_const_csc_descr(rows: int, cols: int, nnz: int, csc_col_ptr: Any, csc_row_ind: Any, csc_val: Any,
                           col_ptr_type: Any, row_ind_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_const_csc_descr``: :func:`create_csc_descr`'s checks, a const descriptor."""
    return _as_const(create_csc_descr(rows, cols, nnz, csc_col_ptr, csc_row_ind, csc_val, col_ptr_type, row_ind_type,
                                      idx_base, data_type))


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


def create_const_coo_descr(rows: int, cols: int, nnz: int, coo_row_ind: Any, coo_col_ind: Any, coo_val: Any,
                           idx_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_const_coo_descr``: :func:`create_coo_descr`'s checks, a const descriptor."""
    return _as_const(create_coo_descr(rows, cols, nnz, coo_row_ind, coo_col_ind, coo_val, idx_type, idx_base,
                                      data_type))


def create_coo_aos_descr(rows: int, cols: int, nnz: int, coo_ind: Any, coo_val: Any, idx_type: Any, idx_base: Any,
                         data_type: Any) -> SpMatDescr:
    """``rocsparse_create_coo_aos_descr``: a COO matrix whose ``coo_ind`` holds ``nnz`` (row, column) pairs.

    Parameters
    ----------
    rows, cols, nnz
        The sizes (``nnz <= rows * cols``).
    coo_ind, coo_val
        ``2 nnz`` interleaved indices and ``nnz`` values (device arrays).
    idx_type, idx_base, data_type
        ``rocsparse_indextype``, ``rocsparse_index_base``, ``rocsparse_datatype``.

    Returns
    -------
    SpMatDescr
        The descriptor (rocSPARSE's out-parameter, argument #1).
    """
    r, c, z = _size(rows, "rows", 2), _size(cols, "cols", 3), _size(nnz, "nnz", 4)
    if z > r * c:
        raise SparseInvalidSizeError(f"nnz = {z} exceeds rows * cols = {r * c}", arg="nnz", index=4)
    _array(z, coo_ind, "coo_ind", 5)
    _array(z, coo_val, "coo_val", 6)
    it = as_enum(IndexType, idx_type, "idx_type", 7)
    base = as_enum(IndexBase, idx_base, "idx_base", 8)
    dt = as_enum(Datatype, data_type, "data_type", 9)
    d = _new_spmat(Format.coo_aos, r, c, z, None, None, coo_val, it, it, base, dt)
    d.ind_data = coo_ind
    return d


def create_ell_descr(rows: int, cols: int, ell_col_ind: Any, ell_val: Any, ell_width: int, idx_type: Any,
                     idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_ell_descr``: a ``rows x cols`` ELL matrix of width ``ell_width`` (``<= cols``).

    Parameters
    ----------
    rows, cols
        The sizes.
    ell_col_ind, ell_val
        ``rows * ell_width`` column indices (-1 pads) and values, column-major (entry ``p`` of row
        ``i`` at ``p * rows + i``).
    ell_width
        Entries per row.
    idx_type, idx_base, data_type
        ``rocsparse_indextype``, ``rocsparse_index_base``, ``rocsparse_datatype``.

    Returns
    -------
    SpMatDescr
        The descriptor; its ``nnz`` is ``rows * ell_width``, as in rocSPARSE.
    """
    r, c = _size(rows, "rows", 2), _size(cols, "cols", 3)
    w = _size(ell_width, "ell_width", 6)
    _array(r * w, ell_col_ind, "ell_col_ind", 4)
    _array(r * w, ell_val, "ell_val", 5)
    if w > c:
        raise SparseInvalidSizeError(f"ell_width = {w} exceeds cols = {c}", arg="ell_width", index=6)
    it = as_enum(IndexType, idx_type, "idx_type", 7)
    base = as_enum(IndexBase, idx_base, "idx_base", 8)
    dt = as_enum(Datatype, data_type, "data_type", 9)
    d = _new_spmat(Format.ell, r, c, r * w, None, ell_col_ind, ell_val, it, it, base, dt)
    d.ell_width = w
    return d


def create_bell_descr(rows: int, cols: int, ell_block_dir: Any, ell_block_dim: int, ell_cols: int, ell_col_ind: Any,
                      ell_val: Any, idx_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_bell_descr``: a blocked-ELL matrix of ``rows x cols`` scalars in blocks of
    ``ell_block_dim x ell_block_dim``, ``ell_cols`` scalar columns (``ell_cols / ell_block_dim`` blocks)
    per block row.

    Parameters
    ----------
    rows, cols
        The sizes in scalars.
    ell_block_dir, ell_block_dim
        The storage direction inside a block and the block dimension (> 0).
    ell_cols
        Scalar columns per block row (``<= cols``).
    ell_col_ind, ell_val
        The block columns (column-major over block rows, -1 pads) and the blocks' values.
    idx_type, idx_base, data_type
        ``rocsparse_indextype``, ``rocsparse_index_base``, ``rocsparse_datatype``.

    Returns
    -------
    SpMatDescr
        The descriptor.
    """
    return _bell(rows, cols, ell_block_dir, ell_block_dim, ell_cols, ell_col_ind, ell_val, idx_type, idx_base,
                 data_type, False)


def create_const_bell_descr(rows: int, cols: int, ell_block_dir: Any, ell_block_dim: int, ell_cols: int,
                            ell_col_ind: Any, ell_val: Any, idx_type: Any, idx_base: Any,
                            data_type: Any) -> SpMatDescr:
    """``rocsparse_create_const_bell_descr``: :func:`create_bell_descr`'s checks, but the arrays must be non-null
    when ``rows * ell_cols * ell_block_dim`` is positive (the mutable one checks ``ell_cols * ell_block_dim``),
    as rocsparse_auxiliary.cpp; a const descriptor."""
    return _bell(rows, cols, ell_block_dir, ell_block_dim, ell_cols, ell_col_ind, ell_val, idx_type, idx_base,
                 data_type, True)


def _bell(rows: int, cols: int, ell_block_dir: Any, ell_block_dim: int, ell_cols: int, ell_col_ind: Any,
          ell_val: Any, idx_type: Any, idx_base: Any, data_type: Any, const: bool) -> SpMatDescr:
    r, c = _size(rows, "rows", 2), _size(cols, "cols", 3)
    direction = as_enum(Direction, ell_block_dir, "ell_block_dir", 4)
    bd = _size(ell_block_dim, "ell_block_dim", 5)
    if bd == 0:
        raise SparseInvalidSizeError("must be positive", arg="ell_block_dim", index=5)
    ec = _size(ell_cols, "ell_cols", 6)
    if ec > c:
        raise SparseInvalidSizeError(f"ell_cols = {ec} exceeds cols = {c}", arg="ell_cols", index=6)
    # rocSPARSE checks the arrays against ell_cols * ell_block_dim (the const descriptor's: times rows).
    length = ec * bd * (r if const else 1)
    _array(length, ell_col_ind, "ell_col_ind", 7)
    _array(length, ell_val, "ell_val", 8)
    it = as_enum(IndexType, idx_type, "idx_type", 9)
    base = as_enum(IndexBase, idx_base, "idx_base", 10)
    dt = as_enum(Datatype, data_type, "data_type", 11)
    d = _new_spmat(Format.bell, r, c, 0, None, ell_col_ind, ell_val, it, it, base, dt)
    d.ell_cols, d.block_dim, d.block_dir = ec, bd, direction
    return _as_const(d) if const else d


def create_bsr_descr(mb: int, nb: int, nnzb: int, block_dir: Any, block_dim: int, bsr_row_ptr: Any, bsr_col_ind: Any,
                     bsr_val: Any, row_ptr_type: Any, col_ind_type: Any, idx_base: Any, data_type: Any) -> SpMatDescr:
    """``rocsparse_create_bsr_descr``: a BSR matrix of ``mb x nb`` blocks of ``block_dim x block_dim``,
    ``nnzb`` of them stored.

    Parameters
    ----------
    mb, nb, nnzb
        Block rows, block columns and stored blocks (``nnzb <= mb * nb``).
    block_dir, block_dim
        The storage direction inside a block and the block dimension (> 0).
    bsr_row_ptr, bsr_col_ind, bsr_val
        ``mb + 1`` offsets, ``nnzb`` block columns and ``nnzb * block_dim^2`` values.
    row_ptr_type, col_ind_type, idx_base, data_type
        ``rocsparse_indextype`` (twice), ``rocsparse_index_base``, ``rocsparse_datatype``.

    Returns
    -------
    SpMatDescr
        The descriptor; its rows, columns and nnz count blocks, as in rocSPARSE.
    """
    r, c, z = _size(mb, "mb", 2), _size(nb, "nb", 3), _size(nnzb, "nnzb", 4)
    if z > r * c:
        raise SparseInvalidSizeError(f"nnzb = {z} exceeds mb * nb = {r * c}", arg="nnzb", index=4)
    direction = as_enum(Direction, block_dir, "block_dir", 5)
    bd = _size(block_dim, "block_dim", 6)
    if bd == 0:
        raise SparseInvalidSizeError("must be positive", arg="block_dim", index=6)
    _array(r, bsr_row_ptr, "bsr_row_ptr", 7)
    _array(z, bsr_col_ind, "bsr_col_ind", 8)
    _array(z, bsr_val, "bsr_val", 9)
    rt = as_enum(IndexType, row_ptr_type, "row_ptr_type", 10)
    ct = as_enum(IndexType, col_ind_type, "col_ind_type", 11)
    base = as_enum(IndexBase, idx_base, "idx_base", 12)
    dt = as_enum(Datatype, data_type, "data_type", 13)
    d = _new_spmat(Format.bsr, r, c, z, bsr_row_ptr, bsr_col_ind, bsr_val, rt, ct, base, dt)
    d.block_dim, d.block_dir = bd, direction
    return d


def destroy_spmat_descr(descr: SpMatDescr) -> None:
    """``rocsparse_destroy_spmat_descr``."""
    d = check_spmat(descr)
    d.info.csrmv = d.info.csrsv = None
    d.destroyed = True


@dataclass(frozen=True)
class Layout:
    """What one format's ``<format>_get`` returns and which arrays its ``<format>_set_pointers`` takes.

    ``fields`` are :class:`SpMatDescr` attribute names in rocSPARSE's getter order; ``arrays`` are
    ``(parameter name, attribute, required length)`` in its setter order, the length a function of
    the descriptor (an array must be non-null when it is positive).
    """

    fields: tuple[str, ...]
    arrays: tuple[tuple[str, str, Callable[[SpMatDescr], int]], ...] = ()


def _nnz(d: SpMatDescr) -> int:
    return d.nnz


def _always(d: SpMatDescr) -> int:
    return 1  # rocSPARSE's ROCSPARSE_CHECKARG_POINTER: non-null whatever the sizes


_SIZES = ("rows", "cols", "nnz")
#: The accessor table: every format's getter fields and setter arrays.
LAYOUTS: dict[Format, Layout] = {
    Format.csr: Layout((*_SIZES, "row_data", "col_data", "val_data", "row_type", "col_type", "idx_base",
                        "data_type"),
                       (("csr_row_ptr", "row_data", _always), ("csr_col_ind", "col_data", _nnz),
                        ("csr_val", "val_data", _nnz))),
    Format.csc: Layout((*_SIZES, "col_data", "row_data", "val_data", "col_type", "row_type", "idx_base",
                        "data_type"),
                       (("csc_col_ptr", "col_data", _always), ("csc_row_ind", "row_data", _nnz),
                        ("csc_val", "val_data", _nnz))),
    Format.coo: Layout((*_SIZES, "row_data", "col_data", "val_data", "row_type", "idx_base", "data_type"),
                       (("coo_row_ind", "row_data", _always), ("coo_col_ind", "col_data", _always),
                        ("coo_val", "val_data", _always))),
    Format.coo_aos: Layout((*_SIZES, "ind_data", "val_data", "row_type", "idx_base", "data_type"),
                           (("coo_ind", "ind_data", _always), ("coo_val", "val_data", _always))),
    Format.ell: Layout(("rows", "cols", "col_data", "val_data", "ell_width", "row_type", "idx_base", "data_type"),
                       (("ell_col_ind", "col_data", _always), ("ell_val", "val_data", _always))),
    Format.bell: Layout(("rows", "cols", "block_dir", "block_dim", "ell_cols", "col_data", "val_data", "row_type",
                         "idx_base", "data_type")),
    Format.bsr: Layout((*_SIZES, "block_dir", "block_dim", "row_data", "col_data", "val_data", "row_type",
                        "col_type", "idx_base", "data_type"),
                       (("bsr_row_ptr", "row_data", _always), ("bsr_col_ind", "col_data", _nnz),
                        ("bsr_val", "val_data", _nnz))),
}


def _check_format(d: SpMatDescr, fmt: Format) -> None:
    """The setters' format check: rocmath's own (rocSPARSE's setters take a descriptor of any format), so that
    a format's kernels never get another format's arrays."""
    if d.format is not fmt:
        raise SparseInvalidValueError(f"a {d.format.name} descriptor, expected {fmt.name}", arg="descr", index=1)


#: The descriptor fields that hold arrays: the mutable getters return None for them on a const descriptor.
_ARRAYS = frozenset(("row_data", "col_data", "val_data", "ind_data"))


def _data(d: Any, value: Any, const_getter: bool) -> Any:
    """An array field as a getter returns it: a mutable getter sees a const descriptor's mutable data pointer,
    which rocSPARSE's ``create_const_*`` leave null."""
    return None if d.is_const and not const_getter else value


def _getter(fmt: Format, const: bool = False) -> Callable[[SpMatDescr], tuple[Any, ...]]:
    """``rocsparse_<format>_get`` (``const``: ``rocsparse_const_<format>_get``): the fields of :data:`LAYOUTS`
    ``[fmt]`` as a tuple."""
    fields = LAYOUTS[fmt].fields

    def get(descr: SpMatDescr) -> tuple[Any, ...]:
        # rocsparse_auxiliary.cpp's getters check the pointers and the init flag, never the format.
        d = check_spmat(descr)
        return tuple(_data(d, getattr(d, f), const) if f in _ARRAYS else getattr(d, f) for f in fields)

    name = f"{'const_' if const else ''}{fmt.name}_get"
    get.__name__ = get.__qualname__ = name
    get.__doc__ = (f"``rocsparse_{name}``: ``({', '.join(fields)})`` (rocSPARSE's out-parameters).\n\n"
                   "As rocSPARSE, a descriptor of another format is not an error: its fields of these names are "
                   "returned (None, 0 or Direction.row where that format sets none)" +
                   (", and the arrays of a mutable descriptor too." if const else
                    "; a const descriptor's arrays are None (its mutable data pointers are null)."))
    return get


def _setter(fmt: Format) -> Callable[..., None]:
    """``rocsparse_<format>_set_pointers``: new arrays, checked as :data:`LAYOUTS` ``[fmt]`` says."""
    arrays = LAYOUTS[fmt].arrays
    signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for n in ("descr", *(a[0] for a in arrays))])

    def set_pointers(*args: Any, **kwargs: Any) -> None:
        given = signature.bind(*args, **kwargs).arguments
        d = check_spmat(given["descr"], writable=True)
        _check_format(d, fmt)
        values = [given[name] for name, _, _ in arrays]
        for index, ((name, _, length), value) in enumerate(zip(arrays, values, strict=True), 2):
            _array(length(d), value, name, index)
        d.analysed = False  # new arrays: an earlier analysis no longer applies
        d.info.csrmv = None
        for (_, attr, _), value in zip(arrays, values, strict=True):
            setattr(d, attr, value)

    set_pointers.__name__ = set_pointers.__qualname__ = f"{fmt.name}_set_pointers"
    set_pointers.__signature__ = signature  # type: ignore[attr-defined]
    set_pointers.__doc__ = (f"``rocsparse_{fmt.name}_set_pointers(descr, {', '.join(a[0] for a in arrays)})``: "
                            "the descriptor's new arrays (null where a length is positive: invalid_pointer; a "
                            "descriptor of another format: invalid_value, a check rocSPARSE does not make; a const "
                            "descriptor: invalid_pointer).")
    return set_pointers


csr_get = _getter(Format.csr)
csc_get = _getter(Format.csc)
coo_get = _getter(Format.coo)
coo_aos_get = _getter(Format.coo_aos)
ell_get = _getter(Format.ell)
bell_get = _getter(Format.bell)
bsr_get = _getter(Format.bsr)

const_csr_get = _getter(Format.csr, True)
const_csc_get = _getter(Format.csc, True)
const_coo_get = _getter(Format.coo, True)
const_coo_aos_get = _getter(Format.coo_aos, True)
const_ell_get = _getter(Format.ell, True)
const_bell_get = _getter(Format.bell, True)
const_bsr_get = _getter(Format.bsr, True)

csr_set_pointers = _setter(Format.csr)
csc_set_pointers = _setter(Format.csc)
coo_set_pointers = _setter(Format.coo)
coo_aos_set_pointers = _setter(Format.coo_aos)
ell_set_pointers = _setter(Format.ell)
bsr_set_pointers = _setter(Format.bsr)


def spmat_get_size(descr: SpMatDescr) -> tuple[int, int, int]:
    """``rocsparse_spmat_get_size``: ``(rows, cols, nnz)``."""
    d = check_spmat(descr)
    return d.rows, d.cols, d.nnz


def spmat_get_nnz(descr: SpMatDescr) -> int:
    """``rocsparse_spmat_get_nnz``: the stored values, as rocSPARSE counts them: a BSR matrix's blocks times
    ``block_dim^2``, a blocked-ELL matrix's ``ell_cols * rows * block_dim^2`` (``spmat_get_size`` gives ``nnz``
    as stored)."""
    d = check_spmat(descr)
    if d.format is Format.bsr:
        return d.nnz * d.block_dim ** 2
    if d.format is Format.bell:
        return d.ell_cols * d.rows * d.block_dim ** 2
    return d.nnz


def spmat_set_nnz(descr: SpMatDescr, nnz: int) -> None:
    """``rocsparse_spmat_set_nnz`` (after spgemm's nnz stage, before setting the arrays); an ELL or blocked-ELL
    descriptor's count follows from its width: invalid_value, as rocSPARSE."""
    d = check_spmat(descr, writable=True)
    z = _size(nnz, "nnz", 2)
    if d.format in (Format.ell, Format.bell):
        raise SparseInvalidValueError(f"the nonzeros of a {d.format.name} matrix cannot be set", arg="descr", index=1)
    d.nnz = z


def spmat_get_format(descr: SpMatDescr) -> Format:
    """``rocsparse_spmat_get_format``."""
    return check_spmat(descr).format


def spmat_get_index_base(descr: SpMatDescr) -> IndexBase:
    """``rocsparse_spmat_get_index_base``."""
    return check_spmat(descr).idx_base


def spmat_get_values(descr: SpMatDescr) -> Any:
    """``rocsparse_spmat_get_values`` (None for a const descriptor: its mutable data pointer is null)."""
    d = check_spmat(descr)
    return _data(d, d.val_data, False)


def const_spmat_get_values(descr: SpMatDescr) -> Any:
    """``rocsparse_const_spmat_get_values``: the values of a const or mutable descriptor."""
    return check_spmat(descr).val_data


def spmat_set_values(descr: SpMatDescr, values: Any) -> None:
    """``rocsparse_spmat_set_values`` (a const descriptor: invalid_pointer)."""
    d = check_spmat(descr, writable=True)
    d.val_data = _array(1, values, "values", 2)  # rocSPARSE: non-null whatever nnz


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
    """``rocsparse_spmat_set_attribute``: an invalid value for the attribute is invalid_value (a const
    descriptor: invalid_pointer)."""
    d = check_spmat(descr, writable=True)
    name, cls = _ATTRIBUTES[as_enum(SpMatAttribute, attribute, "attribute", 2)]
    if value is None:  # rocSPARSE's null data pointer, checked before the value
        raise SparseInvalidPointerError("null pointer", arg="data", index=3)
    setattr(d.descr, name, as_enum(cls, value, "data", 3))
    d.analysed = False


def create_dnvec_descr(size: int, values: Any, data_type: Any) -> DnVecDescr:
    """``rocsparse_create_dnvec_descr``: ``size`` elements of ``data_type`` at ``values``."""
    n = _size(size, "size", 2)
    _array(n, values, "values", 3)
    return DnVecDescr(n, values, as_enum(Datatype, data_type, "data_type", 4))


def create_const_dnvec_descr(size: int, values: Any, data_type: Any) -> DnVecDescr:
    """``rocsparse_create_const_dnvec_descr``: :func:`create_dnvec_descr`'s checks, a const descriptor."""
    return _as_const(create_dnvec_descr(size, values, data_type))


def destroy_dnvec_descr(descr: DnVecDescr) -> None:
    """``rocsparse_destroy_dnvec_descr`` (const or not)."""
    check_dnvec(descr).destroyed = True


def dnvec_get(descr: DnVecDescr) -> tuple[int, Any, Datatype]:
    """``rocsparse_dnvec_get``: ``(size, values, data_type)`` (values None for a const descriptor)."""
    d = check_dnvec(descr)
    return d.size, _data(d, d.values, False), d.data_type


def const_dnvec_get(descr: DnVecDescr) -> tuple[int, Any, Datatype]:
    """``rocsparse_const_dnvec_get``: ``(size, values, data_type)`` of a const or mutable descriptor."""
    d = check_dnvec(descr)
    return d.size, d.values, d.data_type


def dnvec_get_values(descr: DnVecDescr) -> Any:
    """``rocsparse_dnvec_get_values`` (None for a const descriptor)."""
    d = check_dnvec(descr)
    return _data(d, d.values, False)


def const_dnvec_get_values(descr: DnVecDescr) -> Any:
    """``rocsparse_const_dnvec_get_values``."""
    return check_dnvec(descr).values


def dnvec_set_values(descr: DnVecDescr, values: Any) -> None:
    """``rocsparse_dnvec_set_values`` (a const descriptor: invalid_pointer)."""
    d = check_dnvec(descr, writable=True)
    d.values = _array(1, values, "values", 2)  # rocSPARSE: non-null whatever the size


def _ld(ld: Any, need: int) -> int:
    if isinstance(ld, bool) or not isinstance(ld, (int, np.integer)) or ld < need:
        raise SparseInvalidSizeError(f"must be >= {need}, got {ld!r}", arg="ld", index=4)
    return int(ld)


def create_dnmat_descr(rows: int, cols: int, ld: int, values: Any, data_type: Any, order: Any) -> DnMatDescr:
    """``rocsparse_create_dnmat_descr``: ``ld >= max(1, cols)`` in row order, ``>= max(1, rows)`` in column order."""
    r, c = _size(rows, "rows", 2), _size(cols, "cols", 3)
    dt = as_enum(Datatype, data_type, "data_type", 6)
    o = as_enum(Order, order, "order", 7)
    lead = _ld(ld, max(1, c if o is Order.row else r))
    _array(r * c, values, "values", 5)
    return DnMatDescr(r, c, lead, values, dt, o)


def create_const_dnmat_descr(rows: int, cols: int, ld: int, values: Any, data_type: Any, order: Any) -> DnMatDescr:
    """``rocsparse_create_const_dnmat_descr``: a const descriptor, checked in rocsparse_auxiliary.cpp's order for
    it: the sizes, ``ld`` (by order, none for an invalid order), ``values``, then ``data_type`` and ``order``."""
    r, c = _size(rows, "rows", 2), _size(cols, "cols", 3)
    try:
        o: Order | None = as_enum(Order, order, "order", 7)
    except SparseInvalidValueError:
        o = None  # the C switch on the order matches no case: no ld check; the order's own check comes last
    lead = _ld(ld, max(1, c if o is Order.row else r)) if o is not None else ld
    _array(r * c, values, "values", 5)
    dt = as_enum(Datatype, data_type, "data_type", 6)
    o = as_enum(Order, order, "order", 7)
    return _as_const(DnMatDescr(r, c, lead, values, dt, o))


def destroy_dnmat_descr(descr: DnMatDescr) -> None:
    """``rocsparse_destroy_dnmat_descr`` (const or not)."""
    check_dnmat(descr).destroyed = True


def dnmat_get(descr: DnMatDescr) -> tuple[int, int, int, Any, Datatype, Order]:
    """``rocsparse_dnmat_get``: ``(rows, cols, ld, values, data_type, order)`` (values None for a const
    descriptor)."""
    d = check_dnmat(descr)
    return d.rows, d.cols, d.ld, _data(d, d.values, False), d.data_type, d.order


def const_dnmat_get(descr: DnMatDescr) -> tuple[int, int, int, Any, Datatype, Order]:
    """``rocsparse_const_dnmat_get``: ``(rows, cols, ld, values, data_type, order)`` of a const or mutable
    descriptor."""
    d = check_dnmat(descr)
    return d.rows, d.cols, d.ld, d.values, d.data_type, d.order


def dnmat_get_values(descr: DnMatDescr) -> Any:
    """``rocsparse_dnmat_get_values`` (None for a const descriptor)."""
    d = check_dnmat(descr)
    return _data(d, d.values, False)


def const_dnmat_get_values(descr: DnMatDescr) -> Any:
    """``rocsparse_const_dnmat_get_values``."""
    return check_dnmat(descr).values


def dnmat_set_values(descr: DnMatDescr, values: Any) -> None:
    """``rocsparse_dnmat_set_values`` (a const descriptor: invalid_pointer)."""
    d = check_dnmat(descr, writable=True)
    d.values = _array(1, values, "values", 2)  # rocSPARSE: non-null whatever the size


# --- strided batches ----------------------------------------------------------------------------------

#: rocsparse_int's largest value: a batch count is one.
_INT_MAX = 2**31 - 1
_INT64_MAX = 2**63 - 1


def _batch_arg(value: Any, name: str, index: int, low: int, high: int) -> int:
    """A batch count (``low`` 1) or stride (``low`` 0): rocsparse_auxiliary.cpp's invalid_value below ``low``; an
    argument C could not pass (not an integer, past its type) is invalid_value too."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise SparseInvalidValueError(f"must be an integer in [{low}, {high}], got {value!r}", arg=name, index=index)
    return int(value)


def spmat_get_strided_batch(descr: SpMatDescr) -> int:
    """``rocsparse_spmat_get_strided_batch``: the batch count (1 unless set)."""
    return check_spmat(descr).batch_count


def spmat_set_strided_batch(descr: SpMatDescr, batch_count: int) -> None:
    """``rocsparse_spmat_set_strided_batch``: the batch count alone (the strides stay as they are)."""
    d = check_spmat(descr, writable=True)
    d.batch_count = _batch_arg(batch_count, "batch_count", 2, 1, _INT_MAX)


def coo_set_strided_batch(descr: SpMatDescr, batch_count: int, batch_stride: int) -> None:
    """``rocsparse_coo_set_strided_batch``: ``batch_count`` COO matrices, entry ``b``'s row indices, column indices
    and values ``b * batch_stride`` elements after entry 0's."""
    d = check_spmat(descr, writable=True)
    count = _batch_arg(batch_count, "batch_count", 2, 1, _INT_MAX)
    stride = _batch_arg(batch_stride, "batch_stride", 3, 0, _INT64_MAX)
    d.batch_count, d.batch_stride = count, stride


def csr_set_strided_batch(descr: SpMatDescr, batch_count: int, offsets_batch_stride: int,
                          columns_values_batch_stride: int) -> None:
    """``rocsparse_csr_set_strided_batch``: ``batch_count`` CSR matrices, entry ``b``'s row offsets
    ``b * offsets_batch_stride`` and its column indices and values ``b * columns_values_batch_stride`` elements
    after entry 0's."""
    d = check_spmat(descr, writable=True)
    count = _batch_arg(batch_count, "batch_count", 2, 1, _INT_MAX)
    offsets = _batch_arg(offsets_batch_stride, "offsets_batch_stride", 3, 0, _INT64_MAX)
    indices = _batch_arg(columns_values_batch_stride, "columns_values_batch_stride", 4, 0, _INT64_MAX)
    d.batch_count, d.offsets_batch_stride, d.columns_values_batch_stride = count, offsets, indices


def csc_set_strided_batch(descr: SpMatDescr, batch_count: int, offsets_batch_stride: int,
                          rows_values_batch_stride: int) -> None:
    """``rocsparse_csc_set_strided_batch``: ``batch_count`` CSC matrices, entry ``b``'s column offsets
    ``b * offsets_batch_stride`` and its row indices and values ``b * rows_values_batch_stride`` elements after
    entry 0's (kept as ``columns_values_batch_stride``, as rocSPARSE)."""
    d = check_spmat(descr, writable=True)
    count = _batch_arg(batch_count, "batch_count", 2, 1, _INT_MAX)
    offsets = _batch_arg(offsets_batch_stride, "offsets_batch_stride", 3, 0, _INT64_MAX)
    indices = _batch_arg(rows_values_batch_stride, "rows_values_batch_stride", 4, 0, _INT64_MAX)
    d.batch_count, d.offsets_batch_stride, d.columns_values_batch_stride = count, offsets, indices


def dnmat_get_strided_batch(descr: DnMatDescr) -> tuple[int, int]:
    """``rocsparse_dnmat_get_strided_batch``: ``(batch_count, batch_stride)``, ``(1, 0)`` unless set."""
    d = check_dnmat(descr)
    return d.batch_count, d.batch_stride


def dnmat_set_strided_batch(descr: DnMatDescr, batch_count: int, batch_stride: int) -> None:
    """``rocsparse_dnmat_set_strided_batch``: ``batch_count`` matrices ``batch_stride`` elements apart; with more
    than one the stride must cover a whole matrix (``ld * cols`` in column order, ``ld * rows`` in row order),
    invalid_value otherwise, as rocSPARSE (so that the entries do not overlap)."""
    d = check_dnmat(descr, writable=True)
    count = _batch_arg(batch_count, "batch_count", 2, 1, _INT_MAX)
    stride = _batch_arg(batch_stride, "batch_stride", 3, 0, _INT64_MAX)
    whole = d.ld * (d.cols if d.order is Order.column else d.rows)
    if count > 1 and stride < whole:
        raise SparseInvalidValueError(f"{count} entries of {d.rows} x {d.cols} (ld {d.ld}, {d.order.name} order) "
                                      f"need a stride of at least {whole}, got {stride}", arg="batch_stride",
                                      index=3)
    d.batch_count, d.batch_stride = count, stride
