"""The rest of the generic API: sparse vectors (spvec descriptors, spvv, axpby, gather, scatter, rot),
spgemm, spsv, spsm, sddmm, sparse_to_dense and dense_to_sparse, in rocSPARSE's stages and check order.

Conventions beyond :mod:`rocmath.sparse`'s:

- argument positions count the handle as #1, as in the C prototype; a destroyed descriptor is
  ``invalid_pointer`` (rocSPARSE's ``not_initialized`` cannot happen: descriptors are built whole);
- value and index types are dispatched as rocSPARSE instantiates them: f32/f64 real and complex
  values (gather and scatter also int8; spvv also int8 vectors computed in int32 or f32), index
  types (i32, i32), (i64, i32) or (i64, i64) for (row pointer, column), i32 or i64 for sparse
  vectors and COO; anything else is ``not_implemented``;
- the staged routines (spgemm, spsv, spsm, sddmm_buffer_size) return the bytes of temp_buffer they
  need and write them to ``buffer_size`` when it is a 1-element host integer array, as spmv does;
  where rocSPARSE selects the stage by which of ``buffer_size`` / ``temp_buffer`` is null (spvv,
  sparse_to_dense, dense_to_sparse) None is that null pointer and the rule is rocSPARSE's;
- checks rocSPARSE does not make but without which a kernel would run past its operands are
  ``invalid_size`` naming the operand: shapes that do not fit (op(A) op(B) against C, a
  non-square triangular matrix, a dense vector shorter than the matrix), and dense_to_sparse's
  nonzeros against those its analysis counted;
- a triangular solve (spsv, spsm) runs on the level schedule of :mod:`._solve`'s csrsv analysis,
  kept in the sparse descriptor's ``mat_info`` with a 0-based int64 copy of op(T)'s structure (its
  zero pivot is that info's one, which ``csrsv_zero_pivot`` reports for ``(mat.descr, mat.info)``); the
  preprocess stage analyses unless the descriptor holds an analysis of the same triangle and
  operation; a COO matrix's row pointer is built in temp_buffer (rocSPARSE's coosv layout) for the
  analysis, and a transposed solve gathers the values into temp_buffer at each compute stage;
- sddmm with beta == 0 does not read C's values (rocSPARSE multiplies them by 0, turning a NaN into
  NaN); its ``dense`` algorithm asks for rocSPARSE's m x n buffer and computes what ``default`` does
  (the same dot products in the same order);
- results are bitwise reproducible: each output element is computed in one fixed order;
- const descriptors (``create_const_*``) go wherever rocSPARSE takes a ``rocsparse_const_*_descr``; as an
  output (axpby's and scatter's y, gather's x, rot's x and y, spsv's y, spsm's matC, sddmm's C at its three
  entries, spgemm's C, sparse_to_dense's and dense_to_sparse's mat_B) they are ``invalid_pointer`` naming the
  argument (:func:`rocmath.sparse._descr.refuse_const`);
- strided batches are not read: rocSPARSE's spsv, spsm, sddmm, spgemm, sparse_to_dense and dense_to_sparse
  pass no batch count or stride to their kernels (only spmm does), so a batched descriptor acts as its entry 0.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rocmath.launch import Buffer
from rocmath.precision import I8, I32, Precision

from . import _kernels as k
from . import _kernels_conv as kc
from . import _kernels_extra as kx
from . import _kernels_generic_ops as kg
from . import _kernels_solve as ks
from ._api import Call, is_null
from ._descr import SpMatDescr, _array, _size, check_dnmat, check_dnvec, check_spmat, refuse_const
from ._extra import CsrgemmInfo, _null_scalar, _Operand, _row_blocks, check_operands
from ._generic import _buffer, _layered, _ptr, _temp
from ._handle import check_general_sorted, check_handle
from ._level1 import DOT_CHUNK, DOT_CHUNKS, _axpyi, _doti, _gthr, _roti, _sctr, _zero
from ._level2 import scale_y
from ._level3 import dense_view
from ._solve import CsrsvInfo, _csrsv_info, _round256, _set, analyse_triangle, analysis_of, zero_pivot_slot
from ._types import (
    Datatype,
    DenseToSparseAlg,
    DiagType,
    FillMode,
    Format,
    IndexBase,
    IndexType,
    Operation,
    SDDMMAlg,
    SparseInvalidPointerError,
    SparseInvalidSizeError,
    SparseNotImplementedError,
    SparseToDenseAlg,
    SparseTypeMismatchError,
    SpGEMMAlg,
    SpGEMMStage,
    SpSMAlg,
    SpSMStage,
    SpSVAlg,
    SpSVStage,
    as_enum,
)
from ._validate import check_coo, check_csr, check_indices, check_offsets

__all__ = [
    "SpVecDescr", "axpby", "const_spvec_get", "const_spvec_get_values", "create_const_spvec_descr",
    "create_spvec_descr", "dense_to_sparse", "destroy_spvec_descr", "gather", "rot", "scatter", "sddmm",
    "sddmm_buffer_size", "sddmm_preprocess", "sparse_to_dense", "spgemm", "spsm", "spsv", "spvec_get",
    "spvec_get_index_base", "spvec_get_values", "spvec_set_values", "spvv",
]

_FLOATS = (Datatype.f32_r, Datatype.f64_r, Datatype.f32_c, Datatype.f64_c)
#: Index types of the sparse vector routines: i32 or i64 indices.
_VECTOR_PAIRS = ((IndexType.i32,) * 2, (IndexType.i64,) * 2)
#: (row pointer or row index, column index) types rocSPARSE instantiates its sparse matrix routines for.
_INDEX_PAIRS = ((IndexType.i32, IndexType.i32), (IndexType.i64, IndexType.i32), (IndexType.i64, IndexType.i64))
#: spvv's instantiations: (compute type, vector value type).
_SPVV_TYPES = ((Datatype.f32_r, Datatype.f32_r), (Datatype.f32_r, Datatype.i8_r), (Datatype.f64_r, Datatype.f64_r),
               (Datatype.f32_c, Datatype.f32_c), (Datatype.f64_c, Datatype.f64_c), (Datatype.i32_r, Datatype.i8_r))


# --- sparse vector descriptors ---------------------------------------------------------------------


@dataclass(eq=False)
class SpVecDescr:
    """A ``rocsparse_spvec_descr``: ``nnz`` of ``size`` entries, ``indices`` and ``values`` on the device."""

    size: int
    nnz: int
    idx_data: Any
    val_data: Any
    idx_type: IndexType
    idx_base: IndexBase
    data_type: Datatype
    destroyed: bool = False
    is_const: bool = False


def check_spvec(descr: Any, arg: str = "descr", index: int | None = 1, *, writable: bool = False) -> SpVecDescr:
    """A live sparse vector descriptor, or invalid_pointer; ``writable``: not a const one
    (:func:`rocmath.sparse._descr.refuse_const`)."""
    if not isinstance(descr, SpVecDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a sparse vector descriptor", arg=arg, index=index)
    if writable:
        refuse_const(descr, "spvec_descr", arg, index)
    return descr


def create_spvec_descr(size: int, nnz: int, indices: Any, values: Any, idx_type: Any, idx_base: Any,
                       data_type: Any) -> SpVecDescr:
    """``rocsparse_create_spvec_descr``: a sparse vector of length ``size`` with ``nnz`` stored entries.

    Parameters
    ----------
    size, nnz
        Non-negative, ``nnz <= size`` (invalid_size otherwise).
    indices, values
        Device arrays of ``nnz`` entries (non-null when ``nnz > 0``).
    idx_type, idx_base, data_type
        :class:`IndexType`, :class:`IndexBase`, :class:`Datatype` (or their values).

    Returns
    -------
    SpVecDescr
        The descriptor (rocSPARSE's out-parameter, #1).
    """
    n, z = _size(size, "size", 2), _size(nnz, "nnz", 3)
    if z > n:
        raise SparseInvalidSizeError(f"nnz = {z} exceeds size = {n}", arg="nnz", index=3)
    _array(z, indices, "indices", 4)
    _array(z, values, "values", 5)
    it = as_enum(IndexType, idx_type, "idx_type", 6)
    base = as_enum(IndexBase, idx_base, "idx_base", 7)
    dt = as_enum(Datatype, data_type, "data_type", 8)
    return SpVecDescr(n, z, indices, values, it, base, dt)


def create_const_spvec_descr(size: int, nnz: int, indices: Any, values: Any, idx_type: Any, idx_base: Any,
                             data_type: Any) -> SpVecDescr:
    """``rocsparse_create_const_spvec_descr``: :func:`create_spvec_descr`'s checks, a const descriptor (taken where
    rocSPARSE takes a ``rocsparse_const_spvec_descr``, refused as the output of gather and rot, see
    :mod:`rocmath.sparse._descr`)."""
    d = create_spvec_descr(size, nnz, indices, values, idx_type, idx_base, data_type)
    d.is_const = True
    return d


def destroy_spvec_descr(descr: SpVecDescr) -> None:
    """``rocsparse_destroy_spvec_descr`` (const or not)."""
    check_spvec(descr).destroyed = True


def spvec_get(descr: SpVecDescr) -> tuple[int, int, Any, Any, IndexType, IndexBase, Datatype]:
    """``rocsparse_spvec_get``: ``(size, nnz, indices, values, idx_type, idx_base, data_type)`` (the arrays None for
    a const descriptor: rocSPARSE's create_const_spvec_descr leaves its mutable data pointers null)."""
    d = check_spvec(descr)
    idx, val = (None, None) if d.is_const else (d.idx_data, d.val_data)
    return d.size, d.nnz, idx, val, d.idx_type, d.idx_base, d.data_type


def const_spvec_get(descr: SpVecDescr) -> tuple[int, int, Any, Any, IndexType, IndexBase, Datatype]:
    """``rocsparse_const_spvec_get``: ``(size, nnz, indices, values, idx_type, idx_base, data_type)`` of a const or
    mutable descriptor."""
    d = check_spvec(descr)
    return d.size, d.nnz, d.idx_data, d.val_data, d.idx_type, d.idx_base, d.data_type


def spvec_get_index_base(descr: SpVecDescr) -> IndexBase:
    """``rocsparse_spvec_get_index_base``."""
    return check_spvec(descr).idx_base


def spvec_get_values(descr: SpVecDescr) -> Any:
    """``rocsparse_spvec_get_values`` (None for a const descriptor)."""
    d = check_spvec(descr)
    return None if d.is_const else d.val_data


def const_spvec_get_values(descr: SpVecDescr) -> Any:
    """``rocsparse_const_spvec_get_values``."""
    return check_spvec(descr).val_data


def spvec_set_values(descr: SpVecDescr, values: Any) -> None:
    """``rocsparse_spvec_set_values``: ``values`` must not be null (invalid_pointer, #2), as in rocSPARSE; a const
    descriptor: invalid_pointer (#1)."""
    d = check_spvec(descr, writable=True)
    if is_null(values):
        raise SparseInvalidPointerError("null values", arg="values", index=2)
    d.val_data = _array(d.nnz, values, "values", 2)


# --- shared helpers --------------------------------------------------------------------------------


def _call(fname: str, names: tuple[str, ...], values: tuple[Any, ...]) -> Call:
    return Call(fname, None, names, dict(zip(names, values, strict=True)))


def _not_implemented(c: Call, name: str, why: str) -> SparseNotImplementedError:
    return SparseNotImplementedError(why, arg=name, index=c.index(name))


def _precision(dt: Datatype) -> Precision:
    return {Datatype.i8_r: I8, Datatype.i32_r: I32}.get(dt) or Precision.of(dt.dtype)


def _dispatch(c: Call, name: str, data_type: Datatype, index_types: tuple[IndexType, IndexType],
              values: tuple[Datatype, ...] = _FLOATS, pairs: tuple[tuple[IndexType, IndexType], ...] = _INDEX_PAIRS
              ) -> None:
    """rocSPARSE's instantiation dispatch: ``not_implemented`` (naming ``name``) for a value type or an
    index type pair it has no code for; sets the call's precision."""
    if data_type not in values:
        raise _not_implemented(c, name, f"{data_type.name} values are not supported")
    if index_types not in pairs:
        raise _not_implemented(c, name, f"index types {tuple(t.name for t in index_types)} are not supported")
    c.precision = _precision(data_type)


def _out(target: Any, value: Any) -> Any:
    """A host out-parameter (buffer_size, spvv's result): ``value`` written to ``target`` when it is a numpy
    array (1 element), and returned."""
    if isinstance(target, np.ndarray):
        target.reshape(-1)[0] = value
    return value


def _sorted_general(c: Call, name: str, mat: SpMatDescr, sorted_first: bool = False, sorted_: bool = True) -> None:
    """``mat`` general (not_implemented otherwise) and, when asked, sorted (requires_sorted_storage), in the
    order the routine checks them."""
    check_general_sorted(mat.descr, c.fname, name, c.index(name), sorted_=sorted_, storage_first=sorted_first)


def _spvec_arrays(x: SpVecDescr, dtype: np.dtype[Any]) -> tuple[Buffer, Buffer]:
    return _buffer(x.val_data, dtype, x.nnz, "x_val"), _buffer(x.idx_data, x.idx_type.dtype, x.nnz, "x_ind")


def _ends(a: np.ndarray, out: np.ndarray) -> None:
    out[0] = a.sum() if a.size else 0


def _vector_operands(c: Call, mismatch: str, values: tuple[Datatype, ...] = _FLOATS,
                     writes: tuple[str, ...] = ("y",)) -> tuple[SpVecDescr, Any]:
    """The checks of axpby, gather, scatter and rot after the handle: their scalars (non-null), the sparse x
    and the dense y in parameter order (those in ``writes`` are rocSPARSE's mutable descriptors: not const);
    y's value type must be x's (not_implemented naming ``mismatch``), then the instantiation dispatch.
    Returns (x, y)."""
    check_handle(c["handle"])
    X = Y = None
    for name in c.names[1:]:
        if name == "x":
            X = check_spvec(c[name], name, c.index(name), writable=name in writes)
        elif name == "y":
            Y = check_dnvec(c[name], name, c.index(name), writable=name in writes)
        else:
            c.pointer(name)
    assert X is not None and Y is not None
    if Y.data_type is not X.data_type:
        raise _not_implemented(c, mismatch, f"{Y.data_type.name} y with {X.data_type.name} x")
    _dispatch(c, "x", X.data_type, (X.idx_type, X.idx_type), values, _VECTOR_PAIRS)
    return X, Y


# --- level 1: axpby, gather, scatter, rot, spvv ------------------------------------------------------


_AXPBY = ("handle", "alpha", "x", "beta", "y")


@_layered
def axpby(handle: Any, alpha: Any, x: SpVecDescr, beta: Any, y: Any) -> None:
    """``rocsparse_axpby``: ``y := alpha x + beta y`` for a sparse vector x and a dense vector y.

    y is scaled by beta first (all ``y.size`` entries; beta == 0 writes zeros), then x is added at
    its indices (duplicate indices add up in order).  alpha and beta follow the pointer mode.
    """
    c = _call("axpby", _AXPBY, (handle, alpha, x, beta, y))
    X, Y = _vector_operands(c, "y")
    if Y.size == 0:
        return
    yb = _buffer(Y.values, c.dtype, Y.size, "y")
    scales = not c.host_mode or c.host_value("beta") != 1
    if X.nnz == 0 or (c.host_mode and c.host_value("alpha") == 0):
        if scales:
            scale_y(c, c.scalar("beta"), yb)
        return
    val, ind = _spvec_arrays(X, c.dtype)
    check_indices(c, ind, int(X.idx_base), Y.size, "entries of y")  # before y is scaled: a bad x leaves y as it is
    if scales:
        scale_y(c, c.scalar("beta"), yb)
    c.launch(_axpyi, c.scalar("alpha"), val, ind, int(X.idx_base), yb, flops=2.0 * X.nnz,
             bytes=float(X.nnz * (3 * c.dtype.itemsize + ind.dtype.itemsize)))


def _gather_scatter(c: Call, gather: bool) -> None:
    """gather (``x.values := y[x.indices]``) or scatter (``y[x.indices] := x.values``), int8 values too."""
    X, Y = _vector_operands(c, "x" if gather else "y", (*_FLOATS, Datatype.i8_r), ("x",) if gather else ("y",))
    if X.nnz == 0:
        return
    val, ind = _spvec_arrays(X, c.dtype)
    y = _buffer(Y.values, c.dtype, Y.size, "y")
    moved = float(X.nnz * (2 * c.dtype.itemsize + ind.dtype.itemsize))
    check_indices(c, ind, int(X.idx_base), Y.size, "entries of y")
    if gather:
        c.launch(_gthr, False, y, val, ind, int(X.idx_base), bytes=moved)
    else:
        c.launch(_sctr, val, ind, int(X.idx_base), y, bytes=moved)


@_layered
def gather(handle: Any, y: Any, x: SpVecDescr) -> None:
    """``rocsparse_gather``: ``x.values := y[x.indices]`` (int8 values too)."""
    _gather_scatter(_call("gather", ("handle", "y", "x"), (handle, y, x)), True)


@_layered
def scatter(handle: Any, x: SpVecDescr, y: Any) -> None:
    """``rocsparse_scatter``: ``y[x.indices] := x.values`` (int8 values too; a duplicate index keeps the last)."""
    _gather_scatter(_call("scatter", ("handle", "x", "y"), (handle, x, y)), False)


@_layered
def rot(handle: Any, c: Any, s: Any, x: SpVecDescr, y: Any) -> None:
    """``rocsparse_rot``: the Givens rotation ``x, y[idx] := c x + s y[idx], c y[idx] - s x`` (real and complex
    values; c and s of the vectors' type, by pointer mode; host ``c == 1, s == 0`` returns at once)."""
    call = _call("rot", ("handle", "c", "s", "x", "y"), (handle, c, s, x, y))
    X, Y = _vector_operands(call, "y", writes=("x", "y"))
    if X.nnz == 0 or (call.host_mode and call.host_value("c") == 1 and call.host_value("s") == 0):
        return
    val, ind = _spvec_arrays(X, call.dtype)
    check_indices(call, ind, int(X.idx_base), Y.size, "entries of y")
    call.launch(_roti, val, ind, int(X.idx_base), _buffer(Y.values, call.dtype, Y.size, "y"), call.scalar("c"),
                call.scalar("s"), flops=6.0 * X.nnz,
                bytes=float(X.nnz * (4 * call.dtype.itemsize + ind.dtype.itemsize)))


_SPVV = ("handle", "trans", "x", "y", "result", "compute_type", "buffer_size", "temp_buffer")


@_layered
def spvv(handle: Any, trans: Any, x: SpVecDescr, y: Any, result: Any, compute_type: Any, buffer_size: Any = None,
         temp_buffer: Any = None) -> Any:
    """``rocsparse_spvv``: the dot product ``sum op(x.values) * y[x.indices]``.

    Parameters
    ----------
    trans
        none, or conjugate_transpose for ``sum conj(x) y``; for real types any operation (ignored);
        transpose on complex values is not_implemented.
    result
        Must not be null.  Device pointer mode: a device pointer of ``compute_type`` that receives the
        value.  Host pointer mode: the value is returned, and stored in ``result[0]`` when it is a numpy
        array.
    compute_type
        f32/f64 real or complex (equal to the vectors' type), or int8 vectors computed in i32 or f32.
    buffer_size, temp_buffer
        temp_buffer None is the size query (buffer_size must then be non-null: a 1-element host array
        receiving 4); otherwise the product is computed.

    Returns
    -------
    int or scalar or None
        The buffer size (query), the value (host mode) or None (device mode).
    """
    c = _call("spvv", _SPVV, (handle, trans, x, y, result, compute_type, buffer_size, temp_buffer))
    check_handle(handle)
    op = c.enum("trans", Operation)
    ct = c.enum("compute_type", Datatype)
    X = check_spvec(x, "x", c.index("x"))
    Y = check_dnvec(y, "y", c.index("y"))
    c.pointer("result")
    query = is_null(temp_buffer)
    if query:
        c.pointer("buffer_size")
    if (ct, X.data_type) not in _SPVV_TYPES or Y.data_type is not X.data_type or \
            X.idx_type not in (IndexType.i32, IndexType.i64):
        raise _not_implemented(c, "compute_type", f"{ct.name} with {X.data_type.name} x, {Y.data_type.name} y and "
                                                  f"{X.idx_type.name} indices")
    if query:
        return _out(buffer_size, 4)
    complex_ = ct in (Datatype.f32_c, Datatype.f64_c)
    if complex_ and op is Operation.transpose:
        raise _not_implemented(c, "trans", "transpose of complex vectors (use none or conjugate_transpose)")
    c.precision = _precision(ct)
    out_dtype = c.dtype
    device = not c.host_mode
    if X.nnz == 0:
        if device:
            c.launch(_zero, Buffer(c.ptr("result"), out_dtype, (1,), name="result", owner=result),
                     bytes=float(out_dtype.itemsize))
            return None
        return _out(result, out_dtype.type(0))
    val, ind = _spvec_arrays(X, X.data_type.dtype)
    nchunks = int(max(1, min(DOT_CHUNKS, X.nnz // DOT_CHUNK)))
    out = Buffer(c.ptr("result"), out_dtype, (1,), name="result", owner=result) if device else np.zeros(1, out_dtype)
    check_indices(c, ind, int(X.idx_base), Y.size, "entries of y")
    task = c.launch(_doti, complex_ and op is Operation.conjugate_transpose, val, ind, int(X.idx_base),
                    _buffer(Y.values, Y.data_type.dtype, Y.size, "y"), nchunks, out,
                    flops=X.nnz * (8.0 if complex_ else 2.0),
                    bytes=float(X.nnz * (2 * val.dtype.itemsize + ind.dtype.itemsize)))
    if device:
        return None
    task.wait()
    return _out(result, out[0])


# --- sparse_to_dense / dense_to_sparse -------------------------------------------------------------


def _index_types(mat: SpMatDescr) -> tuple[IndexType, IndexType]:
    """(I, J) as rocSPARSE dispatches them: (pointer, index) for CSR and CSC, (index, index) for COO."""
    return (mat.col_type, mat.row_type) if mat.format is Format.csc else (mat.row_type, mat.col_type)


def _dense(d: Any, dtype: np.dtype[Any], transposed: bool = False, name: str = "dense") -> Buffer:
    """A dense matrix descriptor as a [row, column] view (``transposed``: [column, row])."""
    return dense_view(d.values, _ptr(d.values), dtype, d.rows, d.cols, d.ld, d.order, transposed, name)


_CONVERT = ("handle", "mat_A", "mat_B", "alg", "buffer_size", "temp_buffer")


def _convert_operands(c: Call, check_a: Callable[..., Any], check_b: Callable[..., Any], alg: type) -> tuple[Any, Any]:
    """sparse_to_dense's and dense_to_sparse's first checks: the handle, mat_A and mat_B (each by its kind's
    check), alg, then buffer_size and temp_buffer not both null.  Returns (A, B)."""
    check_handle(c["handle"])
    A = check_a(c["mat_A"], "mat_A", c.index("mat_A"))
    B = check_b(c["mat_B"], "mat_B", c.index("mat_B"))
    c.enum("alg", alg)
    if is_null(c["buffer_size"]) and is_null(c["temp_buffer"]):
        raise c.invalid_pointer("buffer_size", "buffer_size and temp_buffer are both null")
    return A, B


@_layered
def sparse_to_dense(handle: Any, mat_A: SpMatDescr, mat_B: Any, alg: Any, buffer_size: Any = None,
                    temp_buffer: Any = None) -> int:
    """``rocsparse_sparse_to_dense``: expand a CSR, CSC or COO matrix into a dense matrix of either order.

    temp_buffer None is the size query (buffer_size non-null: a 1-element host array receiving 4);
    otherwise the ``rows x cols`` part of B is overwritten (its padding is not touched; a COO
    duplicate keeps its last entry).  Returns the buffer size (4) in both cases.
    """
    c = _call("sparse_to_dense", _CONVERT, (handle, mat_A, mat_B, alg, buffer_size, temp_buffer))
    A, B = _convert_operands(c, check_spmat, functools.partial(check_dnmat, writable=True), SparseToDenseAlg)
    _dispatch(c, "mat_A", A.data_type, _index_types(A))
    if B.data_type is not A.data_type:
        raise _not_implemented(c, "mat_B", f"{B.data_type.name} B with {A.data_type.name} A")
    if (B.rows, B.cols) != (A.rows, A.cols):
        raise c.invalid_size("mat_B", f"B is {B.rows} x {B.cols}, A {A.rows} x {A.cols}")
    if is_null(temp_buffer):
        return _out(buffer_size, 4)
    if A.format not in (Format.coo, Format.csr, Format.csc):
        raise _not_implemented(c, "mat_A", f"sparse_to_dense from {A.format.name}")
    m, n, nnz, dtype = A.rows, A.cols, A.nnz, c.dtype
    if m == 0 or n == 0:
        return 4
    moved = float(m * n * dtype.itemsize + nnz * (dtype.itemsize + 8))
    val = _buffer(A.val_data, dtype, nnz, "val")
    if A.format is Format.coo:
        view = _dense(B, dtype, name="B")
        rows, cols = _buffer(A.row_data, A.row_type.dtype, nnz, "coo_row_ind"), \
            _buffer(A.col_data, A.col_type.dtype, nnz, "coo_col_ind")
        if nnz:  # checking mode: before B is zeroed, so that a bad matrix leaves B as it is
            check_coo(c, rows, cols, int(A.idx_base), m, n, nnz)
        c.launch(kc.zero2d, view, bytes=float(m * n * dtype.itemsize))
        if nnz:
            c.launch(kc.coo_scatter_dense, rows, cols, int(A.idx_base), val, view, bytes=moved)
        return 4
    _sorted_general(c, "mat_A", A, sorted_first=True)
    csc = A.format is Format.csc
    ptr_data, ptr_type, ind_data, ind_type = ((A.col_data, A.col_type, A.row_data, A.row_type) if csc else
                                              (A.row_data, A.row_type, A.col_data, A.col_type))
    count = n if csc else m
    ptr = _buffer(ptr_data, ptr_type.dtype, count + 1, "csc_col_ptr" if csc else "csr_row_ptr")
    ind = _buffer(ind_data, ind_type.dtype, nnz, "csc_row_ind" if csc else "csr_col_ind")
    check_csr(c, ptr, ind, int(A.idx_base), nnz, m if csc else n)
    c.launch(kc.compressed_to_dense, ptr, ind, int(A.idx_base), val, _dense(B, dtype, csc, "B"), bytes=moved)
    return 4


@_layered
def dense_to_sparse(handle: Any, mat_A: Any, mat_B: SpMatDescr, alg: Any, buffer_size: Any = None,
                    temp_buffer: Any = None) -> int:
    """``rocsparse_dense_to_sparse``: compress a dense matrix of either order into CSR, CSC or COO, in three calls.

    1. temp_buffer None: the size query (buffer_size non-null: a 1-element host array receiving the
       bytes: one index of B's pointer type per row, per column for CSC);
    2. buffer_size None, temp_buffer given: the analysis, counting the nonzeros (``!= 0``) of each row
       (column) into temp_buffer and setting B's nnz (``spmat_get_size``); then give B arrays of that
       size (``csr_set_pointers`` ...);
    3. both given: B's pointer (or COO row indices), indices (ascending within each row or column)
       and values.

    Returns the buffer size in every call.
    """
    c = _call("dense_to_sparse", _CONVERT, (handle, mat_A, mat_B, alg, buffer_size, temp_buffer))
    A, B = _convert_operands(c, check_dnmat, functools.partial(check_spmat, writable=True), DenseToSparseAlg)
    itype, jtype = _index_types(B)
    _dispatch(c, "mat_B", B.data_type, (itype, jtype))
    if A.data_type is not B.data_type:
        raise _not_implemented(c, "mat_A", f"{A.data_type.name} A with {B.data_type.name} B")
    if B.format not in (Format.coo, Format.csr, Format.csc):
        raise _not_implemented(c, "mat_B", f"dense_to_sparse to {B.format.name}")
    if (B.rows, B.cols) != (A.rows, A.cols):
        raise c.invalid_size("mat_B", f"B is {B.rows} x {B.cols}, A {A.rows} x {A.cols}")
    csc = B.format is Format.csc
    m, n, dtype, base = A.rows, A.cols, c.dtype, int(B.idx_base)
    count = n if csc else m
    size = itype.dtype.itemsize * count
    if is_null(temp_buffer):
        return _out(buffer_size, size)
    counts = Buffer(c.ptr("temp_buffer") if count else 0, itype.dtype, (count,), name="temp_buffer",
                    owner=temp_buffer)
    view = _dense(A, dtype, csc, "A")
    if is_null(buffer_size):  # the analysis
        if m == 0 or n == 0:
            if count:
                c.launch(_set, counts, 0, bytes=float(size))
            B.nnz = 0
            return size
        _sorted_general(c, "mat_B", B)
        total = np.zeros(1, np.int64)
        c.launch(kc.count_rows, view, counts, total, bytes=float(m * n * dtype.itemsize + size)).wait()
        B.nnz = int(total[0])
        return size
    ptr_data, ind_data = (B.col_data, B.row_data) if csc else (B.row_data, B.col_data)
    if m == 0 or n == 0:
        if not is_null(ptr_data) and B.format is not Format.coo:
            c.launch(_set, _buffer(ptr_data, itype.dtype, count + 1, "ptr"), base,
                     bytes=float(size + itype.dtype.itemsize))
        return size
    _sorted_general(c, "mat_B", B, sorted_first=True)
    total = np.zeros(1, np.int64)
    c.launch(_ends, counts, total, bytes=float(size)).wait()
    nnz = int(total[0])
    if nnz != B.nnz:
        raise c.invalid_size("mat_B", f"the analysis counted {nnz} nonzeros, mat_B holds {B.nnz}")
    if B.format is Format.coo:
        ptr = c.workspace((m + 1) * itype.dtype.itemsize, itype.dtype, (m + 1,), "row_ptr")
    else:
        ptr = _buffer(ptr_data, itype.dtype, count + 1, "ptr")
    c.launch(kc.counts_to_ptr, counts, base, ptr, total, bytes=float((2 * count + 1) * itype.dtype.itemsize))
    c.launch(kc.dense_to_compressed, view, base, ptr, _buffer(B.val_data, dtype, nnz, "val"),
             _buffer(ind_data, jtype.dtype, nnz, "ind"),
             bytes=float(m * n * dtype.itemsize + nnz * (dtype.itemsize + jtype.dtype.itemsize)))
    if B.format is Format.coo and nnz:
        c.launch(k.csr_to_coo_rows, ptr, base, _buffer(B.row_data, itype.dtype, nnz, "row"),
                 bytes=float((m + 1 + nnz) * itype.dtype.itemsize))
    return size


# --- sddmm -----------------------------------------------------------------------------------------


_SDDMM = ("handle", "trans_A", "trans_B", "alpha", "A", "B", "beta", "C", "compute_type", "alg")


def _sddmm(fname: str, last: str, args: tuple[Any, ...]) -> int:
    """sddmm's three entries: their common checks (rocSPARSE's order), then the stage."""
    c = _call(fname, (*_SDDMM, last), args)
    check_handle(c["handle"])
    op_a = c.enum("trans_A", Operation)
    op_b = c.enum("trans_B", Operation)
    c.pointer("alpha")
    A = check_dnmat(c["A"], "A", c.index("A"))
    B = check_dnmat(c["B"], "B", c.index("B"))
    c.pointer("beta")
    C = check_spmat(c["C"], "C", c.index("C"), writable=True)
    ct = c.enum("compute_type", Datatype)
    if any(t is not ct for t in (A.data_type, B.data_type, C.data_type)):
        raise _not_implemented(c, "compute_type", f"{ct.name} with {A.data_type.name} A, {B.data_type.name} B and "
                                                  f"{C.data_type.name} C")
    algo = c.enum("alg", SDDMMAlg)
    for name, op in (("trans_A", op_a), ("trans_B", op_b)):
        if op is Operation.conjugate_transpose:
            raise _not_implemented(c, name, "conjugate_transpose is not supported")
    if last == "temp_buffer" and C.nnz == 0:
        return 0
    _dispatch(c, "compute_type", ct, _index_types(C))
    if C.format not in (Format.csr, Format.csc, Format.coo):
        raise _not_implemented(c, "C", f"sddmm into {C.format.name}")
    m, n = C.rows, C.cols
    a_rows, kdim = (A.rows, A.cols) if op_a is Operation.none else (A.cols, A.rows)
    b_rows, b_cols = (B.rows, B.cols) if op_b is Operation.none else (B.cols, B.rows)
    if a_rows != m:
        raise c.invalid_size("A", f"op(A) has {a_rows} rows, C {m}")
    if (b_rows, b_cols) != (kdim, n):
        raise c.invalid_size("B", f"op(B) is {b_rows} x {b_cols}, op(A) {a_rows} x {kdim} and C {m} x {n}")
    dtype = c.dtype
    size = _round256(dtype.itemsize * m * n) if algo is SDDMMAlg.dense and C.nnz else 0
    if last == "buffer_size":
        return _out(c["buffer_size"], size)
    if fname == "sddmm_preprocess" or m == 0 or n == 0:
        return size
    if c.alpha0_beta1():
        return size
    _temp(c, size, np.dtype(np.uint8), (size,))
    nnz, base = C.nnz, int(C.idx_base)
    itype, jtype = _index_types(C)
    if C.format is Format.coo:
        rows = _buffer(C.row_data, itype.dtype, nnz, "coo_row_ind")
        cols = _buffer(C.col_data, jtype.dtype, nnz, "coo_col_ind")
        check_coo(c, rows, cols, base, m, n, nnz)
    else:
        csc = C.format is Format.csc
        count = n if csc else m
        ptr = _buffer(C.col_data if csc else C.row_data, itype.dtype, count + 1,
                      "csc_col_ptr" if csc else "csr_row_ptr")
        ind = _buffer(C.row_data if csc else C.col_data, jtype.dtype, nnz, "csc_row_ind" if csc else "csr_col_ind")
        check_csr(c, ptr, ind, base, nnz, m if csc else n)
        expanded = c.workspace(nnz * itype.dtype.itemsize, itype.dtype, (nnz,), "expanded")
        c.launch(k.csr_to_coo_rows, ptr, base, expanded, bytes=float((count + 1 + nnz) * itype.dtype.itemsize))
        rows, cols = (ind, expanded) if csc else (expanded, ind)
    nchunks = int(max(1, min(kg.MAX_CHUNKS, nnz // 256)))
    c.launch(kg.sddmm_entries, c.scalar("alpha"), c.scalar("beta"),
             _dense(A, dtype, op_a is not Operation.none, "A"), _dense(B, dtype, op_b is not Operation.none, "B"),
             rows, cols, base, _buffer(C.val_data, dtype, nnz, "val"), nchunks,
             flops=nnz * kdim * (8.0 if dtype.kind == "c" else 2.0),
             bytes=float(nnz * (2 * kdim + 2) * dtype.itemsize))
    return size


@_layered
def sddmm_buffer_size(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, A: Any, B: Any, beta: Any, C: SpMatDescr,
                      compute_type: Any, alg: Any, buffer_size: Any = None) -> int:
    """``rocsparse_sddmm_buffer_size``: the temp_buffer bytes sddmm needs (returned; also written to a
    1-element host array ``buffer_size``): 0 for the default algorithm, m x n values for ``dense``."""
    return _sddmm("sddmm_buffer_size", "buffer_size",
                  (handle, trans_A, trans_B, alpha, A, B, beta, C, compute_type, alg, buffer_size))


@_layered
def sddmm_preprocess(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, A: Any, B: Any, beta: Any, C: SpMatDescr,
                     compute_type: Any, alg: Any, temp_buffer: Any = None) -> int:
    """``rocsparse_sddmm_preprocess``: checks the call (nothing to prepare for CSR, CSC and COO)."""
    return _sddmm("sddmm_preprocess", "temp_buffer",
                  (handle, trans_A, trans_B, alpha, A, B, beta, C, compute_type, alg, temp_buffer))


@_layered
def sddmm(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, A: Any, B: Any, beta: Any, C: SpMatDescr,
          compute_type: Any, alg: Any, temp_buffer: Any = None) -> int:
    """``rocsparse_sddmm``: ``C := alpha (op(A) op(B)) o spy(C) + beta C`` at C's stored entries.

    A and B are dense matrices of either order (op: none or transpose; conjugate_transpose is
    not_implemented), C a CSR, CSC or COO matrix whose values are updated in place (beta == 0
    does not read them).  Host pointer mode with alpha == 0 and beta == 1 returns at once.
    Returns the temp_buffer bytes the call needs.
    """
    return _sddmm("sddmm", "temp_buffer", (handle, trans_A, trans_B, alpha, A, B, beta, C, compute_type, alg,
                                           temp_buffer))


# --- spgemm ----------------------------------------------------------------------------------------


_SPGEMM = ("handle", "trans_A", "trans_B", "alpha", "A", "B", "beta", "D", "C", "compute_type", "alg", "stage",
           "buffer_size", "temp_buffer")


def _operand(mat: SpMatDescr, dtype: np.dtype[Any], values: bool, name: str) -> _Operand:
    """A CSR descriptor as kernel arguments (values of length 0 when the stage does not read them), its arrays
    named as csrgemm's of the matrix ``name``."""
    return _Operand(_buffer(mat.row_data, mat.row_type.dtype, mat.rows + 1, f"csr_row_ptr_{name}"),
                    _buffer(mat.col_data, mat.col_type.dtype, mat.nnz, f"csr_col_ind_{name}"), int(mat.idx_base),
                    _buffer(mat.val_data, dtype, mat.nnz if values else 0, f"csr_val_{name}"))


def _no_operand(mat: SpMatDescr, dtype: np.dtype[Any]) -> _Operand:
    """An operand taking no part, typed as ``mat`` (so every stage compiles the same kernel signature)."""
    return _Operand(Buffer(0, mat.row_type.dtype, (0,)), Buffer(0, mat.col_type.dtype, (0,)), 0,
                    Buffer(0, dtype, (0,)))


@_layered
def spgemm(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, A: SpMatDescr, B: SpMatDescr, beta: Any,
           D: SpMatDescr, C: SpMatDescr, compute_type: Any, alg: Any, stage: Any, buffer_size: Any = None,
           temp_buffer: Any = None) -> int:
    """``rocsparse_spgemm``: ``C := alpha op(A) op(B) + beta D`` for CSR matrices, in stages.

    ``buffer_size`` records in C's ``mat_info`` whether the product takes part (alpha non-null --
    None in host mode, a null pointer in device mode -- and k, A's and B's nonzeros non-zero) and
    whether D does (beta non-null and D non-empty), and returns the bytes of temp_buffer; ``nnz``
    fills C's row pointer and sets C's nnz (read it with ``spmat_get_size``, then give C its arrays
    with ``csr_set_pointers``); ``compute`` fills C's columns (sorted) and values; or ``symbolic``
    fills the columns and ``numeric`` the values (repeatable with new values of the same
    structure; its results equal ``compute``'s bitwise).  Only operation none and general matrices
    are implemented, as in rocSPARSE.

    Returns
    -------
    int
        The temp_buffer bytes the stages need (in every stage).
    """
    c = _call("spgemm", _SPGEMM, (handle, trans_A, trans_B, alpha, A, B, beta, D, C, compute_type, alg, stage,
                                  buffer_size, temp_buffer))
    check_handle(handle)
    op_a = c.enum("trans_A", Operation)
    op_b = c.enum("trans_B", Operation)
    mats = {name: check_spmat(c[name], name, c.index(name), writable=name == "C") for name in ("A", "B", "D", "C")}
    ct = c.enum("compute_type", Datatype)
    c.enum("alg", SpGEMMAlg)
    stg = c.enum("stage", SpGEMMStage)
    Am = mats["A"]
    for name in ("B", "D", "C"):
        if mats[name].format is not Am.format:
            raise _not_implemented(c, name, f"a {mats[name].format.name} {name} with a {Am.format.name} A")
    for name in ("A", "B", "D", "C"):
        if mats[name].data_type is not ct:
            raise _not_implemented(c, name, f"{mats[name].data_type.name} values with compute type {ct.name}")
    for attr in ("row_type", "col_type"):
        for name in ("B", "D", "C"):
            if getattr(mats[name], attr) is not getattr(Am, attr):
                raise SparseTypeMismatchError(f"{name}'s {attr} differs from A's", arg=name, index=c.index(name))
    _dispatch(c, "A", ct, (Am.row_type, Am.col_type))
    if Am.format is not Format.csr:
        raise _not_implemented(c, "A", f"spgemm on {Am.format.name} matrices")
    Bm, Dm, Cm = mats["B"], mats["D"], mats["C"]
    m, n, kdim = Am.rows, Bm.cols, Am.cols
    if stg is SpGEMMStage.buffer_size:
        return _out(buffer_size, _spgemm_buffer_size(c, op_a, op_b, Am, Bm, Dm, Cm, m, n, kdim))
    info = Cm.info.csrgemm
    if not isinstance(info, CsrgemmInfo):
        raise c.invalid_pointer("C", "spgemm's buffer_size stage was not run for C")
    mul, add = info.mul, info.add
    dtype, c_base = c.dtype, int(Cm.idx_base)
    values = stg in (SpGEMMStage.compute, SpGEMMStage.numeric)
    Ao, Bo = (_operand(Am, dtype, values, "A"), _operand(Bm, dtype, values, "B")) if mul else \
        (_no_operand(Am, dtype),) * 2
    Do = _operand(Dm, dtype, values, "D") if add else _no_operand(Am, dtype)
    nnz_c = Cm.nnz
    if stg is SpGEMMStage.nnz:
        if m and is_null(Cm.row_data):
            raise c.invalid_pointer("C", "C has no row pointer")
        row_ptr_c = _buffer(Cm.row_data, Cm.row_type.dtype, m + 1, "csr_row_ptr_C")
        if m == 0 or n == 0 or not (mul or add):
            if not is_null(Cm.row_data):
                c.launch(_set, row_ptr_c, c_base, bytes=float((m + 1) * row_ptr_c.dtype.itemsize))
            Cm.nnz = 0
            return info.buffer_size
        counts = _temp(c, info.buffer_size, np.dtype(np.int64), (m,))
        E = _no_operand(Am, dtype)
        check_operands(c, mul, add, False, Ao, Bo, Do, E, n)
        first = Ao if mul else Do
        bounds = _row_blocks(c, first.ptr, first.base, m, n, dtype.itemsize)
        c.launch(kx.spgemm_count, mul, add, False, Ao.ptr, Ao.ind, Ao.base, Bo.ptr, Bo.ind, Bo.base, Do.ptr, Do.ind,
                 Do.base, E.ptr, E.ind, E.base, n, bounds, counts,
                 bytes=float((Am.nnz + Bm.nnz + Dm.nnz) * Am.col_type.dtype.itemsize))
        total = np.zeros(1, np.int64)
        c.launch(kc.counts_to_ptr, counts, c_base, row_ptr_c, total,
                 bytes=float((m + 1) * (8 + row_ptr_c.dtype.itemsize))).wait()
        Cm.nnz = int(total[0])
        return info.buffer_size
    needs_values = stg is not SpGEMMStage.symbolic
    if stg is not SpGEMMStage.compute and (m == 0 or n == 0 or nnz_c == 0):
        return info.buffer_size
    for data, length, what in ((Cm.row_data, m, "row pointer"), (Cm.col_data, nnz_c, "column indices"),
                               (Cm.val_data, nnz_c if needs_values else 0, "values")):
        if length and is_null(data):
            raise c.invalid_pointer("C", f"C has no {what} ({length} entries)")
    if m == 0 or n == 0 or nnz_c == 0 or not (mul or add or stg is SpGEMMStage.numeric):
        return info.buffer_size
    one = np.ones(1, dtype)
    alpha_s = c.scalar("alpha") if mul and needs_values else one
    beta_s = c.scalar("beta") if add and needs_values else one
    if mul:
        _temp(c, info.buffer_size, np.dtype(np.uint8), (info.buffer_size,))
    Co = _operand(Cm, dtype, needs_values, "C")
    E = _no_operand(Am, dtype)
    # checking mode: the operands, and C's row pointer, which places the entries (numeric: C's columns too, which
    # it reads)
    check_operands(c, mul, add, False, Ao, Bo, Do, E, n)
    if stg is SpGEMMStage.numeric:
        check_csr(c, Co.ptr, Co.ind, Co.base, nnz_c, n)
    else:
        check_offsets(c, Co.ptr, Co.base, nnz_c)
    first = Ao if mul else (Do if add else Co)
    bounds = _row_blocks(c, first.ptr, first.base, m, n, dtype.itemsize)
    products = float(Am.nnz * max(1, Bm.nnz // max(1, kdim))) if mul else 0.0
    flops = (products + (Dm.nnz if add else 0)) * (8.0 if dtype.kind == "c" else 2.0)
    moved = float((nnz_c + (Am.nnz + Bm.nnz if mul else 0) + (Dm.nnz if add else 0))
                  * (dtype.itemsize + Am.col_type.dtype.itemsize))
    if stg is SpGEMMStage.numeric:
        c.launch(kg.spgemm_numeric, mul, add, alpha_s, Ao.val, Ao.ptr, Ao.ind, Ao.base, Bo.val, Bo.ptr, Bo.ind,
                 Bo.base, beta_s, Do.val, Do.ptr, Do.ind, Do.base, n, bounds, Co.val, Co.ptr, Co.ind, Co.base,
                 flops=flops, bytes=moved)
        return info.buffer_size
    c.launch(kx.spgemm_fill, mul, add, False, alpha_s, Ao.val, Ao.ptr, Ao.ind, Ao.base, Bo.val, Bo.ptr, Bo.ind,
             Bo.base, beta_s, Do.val, Do.ptr, Do.ind, Do.base, one, E.val, E.ptr, E.ind, E.base, n, bounds, Co.val,
             Co.ptr, Co.ind, Co.base, flops=flops if needs_values else 0.0, bytes=moved)
    return info.buffer_size


def _spgemm_buffer_size(c: Call, op_a: Operation, op_b: Operation, A: SpMatDescr, B: SpMatDescr, D: SpMatDescr,
                        C: SpMatDescr, m: int, n: int, kdim: int) -> int:
    """csrgemm_buffer_size's rules: which terms take part (recorded in C's mat_info) and the bytes (the
    row counts of the nnz stage)."""
    alpha_null, beta_null = _null_scalar(c, "alpha"), _null_scalar(c, "beta")
    if alpha_null and beta_null:
        raise c.invalid_pointer("alpha", "alpha and beta are both null")
    mul = not alpha_null and kdim != 0 and A.nnz != 0 and B.nnz != 0
    add = not beta_null and D.nnz != 0
    for name, mat, used in (("A", A, mul), ("B", B, mul), ("D", D, add)):
        if used:
            _sorted_general(c, name, mat, sorted_=False)
    if mul:
        for name, op in (("trans_A", op_a), ("trans_B", op_b)):
            if op is not Operation.none:
                raise _not_implemented(c, name, "only operation_none is implemented")
        if B.rows != kdim:
            raise c.invalid_size("B", f"B has {B.rows} rows, A {kdim} columns")
    if add and (D.rows, D.cols) != (m, n):
        raise c.invalid_size("D", f"D is {D.rows} x {D.cols}, A B {m} x {n}")
    if (C.rows, C.cols) != (m, n):
        raise c.invalid_size("C", f"C is {C.rows} x {C.cols}, the product {m} x {n}")
    size = 8 * m if (mul or add) and m and n else 0
    C.info.csrgemm = CsrgemmInfo(mul, add, size)
    return size


# --- spsv / spsm -----------------------------------------------------------------------------------


def _triangle_layout(A: SpMatDescr, op: Operation, dtype: np.dtype[Any]) -> tuple[int, int]:
    """temp_buffer of a triangular solve: a COO matrix's row pointer (rocSPARSE's coosv layout), then the
    values of a transposed solve gathered in transposed order.  Returns (values offset, total bytes)."""
    offset = _round256((A.rows + 1) * A.row_type.dtype.itemsize) if A.format is Format.coo else 0
    values = _round256(A.nnz * dtype.itemsize) if op is not Operation.none else 0
    return offset, max(4, offset + values)


def _structure(c: Call, A: SpMatDescr) -> tuple[Buffer, Buffer]:
    """The CSR structure of A: its own arrays, or for COO the row pointer built into temp_buffer."""
    m, nnz = A.rows, A.nnz
    ind = _buffer(A.col_data, A.col_type.dtype, nnz, f"{A.format.name}_col_ind")
    if A.format is Format.csr:
        return _buffer(A.row_data, A.row_type.dtype, m + 1, "csr_row_ptr"), ind
    ptr = Buffer(c.ptr("temp_buffer"), A.row_type.dtype, (m + 1,), name="temp_buffer", owner=c["temp_buffer"])
    # (a binary search per row: row indices outside the matrix cannot take it out of the arrays)
    c.launch(k.coo_rows_to_ptr, _coo_rows(A), int(A.idx_base), ptr,
             bytes=float((m + 1 + nnz) * A.row_type.dtype.itemsize))
    return ptr, ind


def _coo_rows(A: SpMatDescr) -> Buffer:
    return _buffer(A.row_data, A.row_type.dtype, A.nnz, "coo_row_ind")


def _analyse(c: Call, A: SpMatDescr, op: Operation, ptr: Buffer, ind: Buffer) -> None:
    """The preprocess stage: the level schedule of op(T) for the triangle T of A's fill mode, kept in A's
    mat_info beside csrsv's analyses (the zero pivot is the info's, as rocSPARSE's spsv and spsm run csrsv's
    and csrsm's analyses on it), unless A already holds one."""
    state = _csrsv_info(A.info)
    key = (op is not Operation.none, A.descr.fill_mode)
    if A.analysed and key in state.generic:
        return
    # checking mode: the caller's indices (a COO matrix's row pointer, built by binary searches, is in range)
    if A.format is Format.coo:
        check_coo(c, _coo_rows(A), ind, int(A.idx_base), A.rows, A.cols, A.nnz)
    else:
        check_csr(c, ptr, ind, int(A.idx_base), A.nnz, A.cols)
    state.generic[key] = analyse_triangle(c, ptr, ind, A.rows, A.nnz, int(A.idx_base),
                                          A.descr.fill_mode is FillMode.upper, op is not Operation.none,
                                          A.descr.diag_type is DiagType.unit, zero_pivot_slot(A.info), int64=True)
    A.analysed = True


def _solve(c: Call, name: str, A: SpMatDescr, op: Operation, B: Buffer, conj_b: bool, X: Buffer) -> None:
    """The compute stage: ``X := op(T)^-1 alpha op(B)`` on the analysis ``_analyse`` kept (B, X: m x nrhs views)."""
    state = A.info.csrsv if isinstance(A.info.csrsv, CsrsvInfo) else None
    transposed = op is not Operation.none
    m, nnz = A.rows, A.nnz
    a = analysis_of(c, state.generic if state is not None else None, (transposed, A.descr.fill_mode), m, nnz, name,
                    f"the preprocess stage was not run for this fill mode and {op.name}")
    assert a.t_ptr is not None and a.t_ind is not None
    pivot = zero_pivot_slot(A.info)
    unit = A.descr.diag_type is DiagType.unit
    if unit:
        c.launch(_set, pivot, ks.NO_PIVOT, bytes=8.0)
    dtype = c.dtype
    val = _buffer(A.val_data, dtype, nnz, "val")
    if transposed:
        assert a.perm is not None
        offset, _ = _triangle_layout(A, op, dtype)
        tval = Buffer(c.ptr("temp_buffer") + offset if nnz else 0, dtype, (nnz,), name="temp_buffer",
                      owner=c["temp_buffer"])
        c.launch(ks.gather_values, op is Operation.conjugate_transpose, val, a.perm[:nnz], tval,
                 bytes=float(nnz * (2 * dtype.itemsize + 8)))
        val = tval
    nrhs = X.shape[1]
    c.launch(kg.trsm_levels, c.scalar("alpha"), conj_b, val, a.t_ptr, a.t_ind[:nnz], a.upper, unit, a.split, a.diag,
             a.level_ptr, a.row_map, a.nlevels, B, X, pivot, a.pivot_base,
             flops=float(nnz * nrhs) * (8.0 if dtype.kind == "c" else 2.0),
             bytes=float(nnz * (dtype.itemsize + 8) + m * nrhs * 3 * dtype.itemsize))


def _triangular_operand(c: Call, name: str, A: SpMatDescr, ct: Datatype) -> None:
    """spsv's and spsm's matrix: CSR or COO, of a dispatched type, square."""
    _dispatch(c, "compute_type", ct, _index_types(A))
    if A.format not in (Format.csr, Format.coo):
        raise _not_implemented(c, name, f"triangular solves with {A.format.name} matrices")
    if A.rows != A.cols:
        raise c.invalid_size(name, f"a triangular matrix must be square, got {A.rows} x {A.cols}")


_SPSV = ("handle", "trans", "alpha", "mat", "x", "y", "compute_type", "alg", "stage", "buffer_size", "temp_buffer")


@_layered
def spsv(handle: Any, trans: Any, alpha: Any, mat: SpMatDescr, x: Any, y: Any, compute_type: Any, alg: Any,
         stage: Any, buffer_size: Any = None, temp_buffer: Any = None) -> int:
    """``rocsparse_spsv``: solve ``op(T) y = alpha x`` for the triangle T of a CSR or COO matrix.

    The triangle and the diagonal come from the matrix's attributes (``spmat_set_attribute``:
    fill_mode, diag_type; general sorted matrices only, entries outside the triangle ignored).
    Stages: ``buffer_size`` (bytes returned, at least 4), ``preprocess`` (the analysis, kept in the
    descriptor) and ``compute``; temp_buffer must be the same at both.  A zero or missing diagonal
    value counts as one (the zero pivot is recorded, see ``csrsv_zero_pivot``).

    Returns
    -------
    int
        The temp_buffer bytes (in every stage).
    """
    c = _call("spsv", _SPSV, (handle, trans, alpha, mat, x, y, compute_type, alg, stage, buffer_size, temp_buffer))
    check_handle(handle)
    op = c.enum("trans", Operation)
    c.pointer("alpha")
    A = check_spmat(mat, "mat", c.index("mat"))
    X = check_dnvec(x, "x", c.index("x"))
    Y = check_dnvec(y, "y", c.index("y"), writable=True)
    ct = c.enum("compute_type", Datatype)
    c.enum("alg", SpSVAlg)
    stg = c.enum("stage", SpSVStage)
    for name, t in (("mat", A.data_type), ("x", X.data_type), ("y", Y.data_type)):
        if t is not ct:
            raise _not_implemented(c, name, f"{t.name} values with compute type {ct.name}")
    _triangular_operand(c, "mat", A, ct)
    m, dtype = A.rows, c.dtype
    for name, v in (("x", X), ("y", Y)):
        if v.size < m:
            raise c.invalid_size(name, f"{name} has {v.size} entries, the matrix {m} rows")
    _, size = _triangle_layout(A, op, dtype)
    _sorted_general(c, "mat", A)
    if stg is SpSVStage.buffer_size:
        return _out(buffer_size, size)
    if m == 0:
        return size
    _temp(c, size, np.dtype(np.uint8), (size,))
    if stg is SpSVStage.preprocess:
        _analyse(c, A, op, *_structure(c, A))
        return size
    isz = dtype.itemsize
    xb = Buffer(_ptr(X.values), dtype, (m, 1), (isz, isz), name="x", owner=X.values)
    yb = Buffer(_ptr(Y.values), dtype, (m, 1), (isz, isz), name="y", owner=Y.values)
    _solve(c, "mat", A, op, xb, False, yb)
    return size


_SPSM = ("handle", "trans_A", "trans_B", "alpha", "matA", "matB", "matC", "compute_type", "alg", "stage",
         "buffer_size", "temp_buffer")


@_layered
def spsm(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, matA: SpMatDescr, matB: Any, matC: Any,
         compute_type: Any, alg: Any, stage: Any, buffer_size: Any = None, temp_buffer: Any = None) -> int:
    """``rocsparse_spsm``: solve ``op(T) C = alpha op(B)`` for the triangle T of a CSR or COO matrix and dense
    B, C of either order (C is m x nrhs, op(B) as well; conjugate_transpose of B conjugates it).

    Triangle, diagonal and stages as :func:`spsv`; the right-hand sides are solved in parallel.

    Returns
    -------
    int
        The temp_buffer bytes (in every stage; 0 when m or nrhs is 0).
    """
    c = _call("spsm", _SPSM, (handle, trans_A, trans_B, alpha, matA, matB, matC, compute_type, alg, stage,
                              buffer_size, temp_buffer))
    check_handle(handle)
    op_a = c.enum("trans_A", Operation)
    op_b = c.enum("trans_B", Operation)
    c.pointer("alpha")
    A = check_spmat(matA, "matA", c.index("matA"))
    B = check_dnmat(matB, "matB", c.index("matB"))
    Cd = check_dnmat(matC, "matC", c.index("matC"), writable=True)
    ct = c.enum("compute_type", Datatype)
    if any(t is not ct for t in (A.data_type, B.data_type, Cd.data_type)):
        raise _not_implemented(c, "compute_type", f"{ct.name} with {A.data_type.name} A, {B.data_type.name} B and "
                                                  f"{Cd.data_type.name} C")
    c.enum("alg", SpSMAlg)
    stg = c.enum("stage", SpSMStage)
    _triangular_operand(c, "matA", A, ct)
    m, nrhs, dtype = A.rows, Cd.cols, c.dtype
    if Cd.rows != m:
        raise c.invalid_size("matC", f"C has {Cd.rows} rows, A {m}")
    b_shape = (B.rows, B.cols) if op_b is Operation.none else (B.cols, B.rows)
    if b_shape != (m, nrhs):
        raise c.invalid_size("matB", f"op(B) is {b_shape[0]} x {b_shape[1]}, C {m} x {nrhs}")
    if m == 0 or nrhs == 0:
        return _out(buffer_size, 0) if stg is SpSMStage.buffer_size else 0
    _sorted_general(c, "matA", A)
    _, size = _triangle_layout(A, op_a, dtype)
    if stg is SpSMStage.buffer_size:
        return _out(buffer_size, size)
    _temp(c, size, np.dtype(np.uint8), (size,))
    if stg is SpSMStage.preprocess:
        _analyse(c, A, op_a, *_structure(c, A))
        return size
    _solve(c, "matA", A, op_a, _dense(B, dtype, op_b is not Operation.none, "B"),
           op_b is Operation.conjugate_transpose, _dense(Cd, dtype, name="C"))
    return size
