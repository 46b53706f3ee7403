"""Generic extraction and conversion (extract, sparse_to_sparse) and the last auxiliaries (color_info,
set_identity_permutation, isctr, get_git_rev, memstat_report), in rocSPARSE's check order and statuses.

extract (``create_extract_descr``, ``extract_buffer_size``, ``extract``, ``extract_nnz``,
``destroy_extract_descr``) copies the triangle of a CSR or CSC matrix that the target's attributes select
(``spmat_set_attribute``: fill mode lower or upper, diagonal type non-unit (diagonal kept) or unit
(dropped)) into the target descriptor of the same format and storage mode, in two stages as rocSPARSE's:
``analysis`` writes the target's offsets (row pointer of a CSR target, column pointer of a CSC one, in its
index base) and counts the entries, which ``extract_nnz`` returns; the caller then sizes the target's
other arrays (``*_set_pointers``, ``spmat_set_nnz``) and ``compute`` copies the entries, each row (column)
in storage order.  Every value type rocSPARSE instantiates is taken; the source is read with its own index
types (rocSPARSE reads it with the target's).

sparse_to_sparse (``create_sparse_to_sparse_descr``, ``sparse_to_sparse_permissive``,
``sparse_to_sparse_buffer_size``, ``sparse_to_sparse``, ``destroy_sparse_to_sparse_descr``) converts between
COO, COO (AoS), CSR, CSC, ELL and BSR, in rocSPARSE's stages: ``analysis`` completes the target descriptor
(its ``nnz``; an ELL target's width; a BSR target's row pointer, written, with its blocks counted in the
target's block dimension and direction; an ELL source's CSR target's row pointer, written), the caller
sets the target's arrays, ``compute`` fills them.  The direct conversions are rocSPARSE's (same format:
a copy; coo <-> coo_aos, coo / coo_aos -> csr, csr -> coo / coo_aos / csc / ell / bsr, csc -> csr,
ell -> csr, bsr -> csr); the other pairs go through an intermediate CSR matrix, which only a descriptor
made permissive (``sparse_to_sparse_permissive``) may build (not_implemented otherwise), as rocSPARSE's:
its analysis-stage buffer-size query converts the source into it, the later stages convert it into the
target.  Blocked ELL is not_implemented either way, a source batch count above 1 invalid_size, and source
and target must have the same matrix type, fill mode, diagonal type, index base and storage mode
(type_mismatch).  The index conversions that rocSPARSE makes with fixed types are not_implemented for
others as there (csr <-> csc: the pointer types swapped; csr -> ell, csr <-> bsr: the same types); those it
converts (COO indices, copies) are converted.  Values are copied when both matrices have them (csr <-> csc,
coo <-> csr ...: a symbolic conversion otherwise), must be of one type, and the ELL and BSR conversions
need them.  COO sources must be sorted by row, as rocSPARSE's COO format is.  No stage needs a buffer here:
every buffer size is 0 (rocSPARSE's are its rocPRIM scratch).

color_info (``create_color_info``, ``destroy_color_info``, ``copy_color_info``) is rocSPARSE's empty
structure (csrcolor keeps its results in a ``mat_info``); ``set_identity_permutation`` writes ``p[i] = i`` in
the given index type; ``isctr`` is sctr of rocsparse_int values; ``get_git_rev`` names the build that runs
(rocmath's version, where rocSPARSE gives its git revision); ``memstat_report`` takes the memory report's file name when
``ROCSPARSE_MEMSTAT=1`` (rocSPARSE reports the allocations of its ``rocsparse_hip_*`` wrappers, which
rocmath.sparse does not have: no report is written).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.precision import I32

from . import _kernels as k
from . import _kernels_extract as ke
from . import _kernels_formats as kf
from ._api import Call, Routine, bind, is_null
from ._descr import SpMatDescr, check_spmat
from ._generic import _buffer, _layered
from ._generic_ops import _call
from ._handle import MatDescr, check_handle
from ._kernels_conv import BUCKETED_BYTES
from ._level1 import SCTR
from ._solve import _copy
from ._types import (
    Datatype,
    Direction,
    Format,
    IndexType,
    SparseInternalError,
    SparseInvalidPointerError,
    SparseNotImplementedError,
    SparseTypeMismatchError,
    as_enum,
)
from ._validate import check_csr, check_offsets

__all__ = [
    "ColorInfo", "ExtractAlg", "ExtractDescr", "ExtractStage", "SparseToSparseAlg", "SparseToSparseDescr",
    "SparseToSparseStage", "copy_color_info", "create_color_info", "create_extract_descr",
    "create_sparse_to_sparse_descr", "destroy_color_info", "destroy_extract_descr", "destroy_sparse_to_sparse_descr",
    "extract", "extract_buffer_size", "extract_nnz", "get_git_rev", "isctr", "memstat_report",
    "set_identity_permutation", "sparse_to_sparse", "sparse_to_sparse_buffer_size", "sparse_to_sparse_permissive",
]


class ExtractAlg(enum.IntEnum):
    """``rocsparse_extract_alg``."""

    default = 0


class ExtractStage(enum.IntEnum):
    """``rocsparse_extract_stage``."""

    analysis = 0
    compute = 1


class SparseToSparseAlg(enum.IntEnum):
    """``rocsparse_sparse_to_sparse_alg``."""

    default = 0


class SparseToSparseStage(enum.IntEnum):
    """``rocsparse_sparse_to_sparse_stage``."""

    analysis = 0
    compute = 1


def _round256(nbytes: int) -> int:
    return (nbytes + 255) // 256 * 256


def _flat(b: Buffer) -> Buffer:
    """A value array as one flat run of machine words, for copies."""
    isz = b.dtype.itemsize
    word = np.dtype(np.uint32) if isz % 4 == 0 else np.dtype(np.uint8)
    n = b.shape[0] * (isz // word.itemsize)
    return Buffer(b.ptr if n else 0, word, (n,), name=b.name, owner=b.owner)


def _raw(b: Buffer) -> Buffer:
    """A value array as ``(count, words)`` machine words (uint32, or bytes for 1-byte types): the conversion
    kernels only move values."""
    isz = b.dtype.itemsize
    n = b.shape[0]
    word = np.dtype(np.uint32) if isz % 4 == 0 else np.dtype(np.uint8)
    return Buffer(b.ptr if n else 0, word, (n, isz // word.itemsize), name=b.name, owner=b.owner)


def _empty(dtype: Any, cols: int = 0) -> np.ndarray:
    return np.zeros((0, cols) if cols else 0, dtype)


# --- extract ---------------------------------------------------------------------------------------


@dataclass(eq=False)
class ExtractDescr:
    """A ``rocsparse_extract_descr``: its algorithm, the direction of the matrices (rows for CSR, columns for
    CSC) and the device count of the extracted entries (written by the analysis stage)."""

    alg: ExtractAlg
    direction: Direction
    nnz: rocmath.DeviceArray = field(repr=False)
    destroyed: bool = False


def _check_extract_descr(c: Call) -> ExtractDescr:
    d = c["descr"]
    if not isinstance(d, ExtractDescr) or d.destroyed:
        raise c.invalid_pointer("descr", "expected an extract descriptor from create_extract_descr")
    return d


def create_extract_descr(source: SpMatDescr, target: SpMatDescr, alg: Any) -> ExtractDescr:
    """``rocsparse_create_extract_descr``: the descriptor of extracting ``target``'s triangle of ``source``.

    Raises
    ------
    SparseInvalidPointerError
        source (#2) or target (#3) null or destroyed (target: also const).
    SparseInvalidValueError
        An invalid alg (#4).
    SparseInternalError
        Matrices of different formats or storage modes (rocSPARSE's constructor throws internal_error).
    SparseNotImplementedError
        Formats other than CSR and CSC.
    """
    S = check_spmat(source, "source", 2)
    T = check_spmat(target, "target", 3, writable=True)
    a = as_enum(ExtractAlg, alg, "alg", 4)
    if S.format is not T.format:
        raise SparseInternalError("source and target matrices must have the same matrix format", arg="target",
                                  index=3)
    if S.format not in (Format.csr, Format.csc):
        raise SparseNotImplementedError("supported matrix formats are csr and csc", arg="source", index=2)
    if S.descr.storage_mode is not T.descr.storage_mode:
        raise SparseInternalError("source and target matrices must have the same storage mode", arg="target",
                                  index=3)
    return ExtractDescr(a, Direction.row if S.format is Format.csr else Direction.column,
                        rocmath.zeros(1, np.int64))


def destroy_extract_descr(descr: ExtractDescr | None) -> None:
    """``rocsparse_destroy_extract_descr`` (None: nothing to do, as rocSPARSE's null descriptor)."""
    if descr is None:
        return
    if not isinstance(descr, ExtractDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected an extract descriptor", arg="descr", index=1)
    descr.destroyed = True


def _extract_operands(c: Call) -> tuple[ExtractDescr, SpMatDescr, SpMatDescr, ExtractStage]:
    check_handle(c["handle"])
    d = _check_extract_descr(c)
    S = check_spmat(c["source"], "source", c.index("source"))
    T = check_spmat(c["target"], "target", c.index("target"), writable=True)
    return d, S, T, c.enum("stage", ExtractStage)


def _compressed(M: SpMatDescr) -> tuple[int, Any, Any, IndexType, IndexType]:
    """(sequences, offsets, indices, offset type, index type) of a CSR (rows) or CSC (columns) matrix."""
    if M.format is Format.csr:
        return M.rows, M.row_data, M.col_data, M.row_type, M.col_type
    return M.cols, M.col_data, M.row_data, M.col_type, M.row_type


def _not_implemented(c: Call, name: str, why: str) -> SparseNotImplementedError:
    return SparseNotImplementedError(why, arg=name, index=c.index(name))


def _no_u16(c: Call, name: str, *types: IndexType) -> None:
    if IndexType.u16 in types:
        raise _not_implemented(c, name, "rocsparse_indextype_u16 is not supported")


_EXTRACT = ("handle", "descr", "source", "target", "stage")


@_layered
def extract_buffer_size(handle: Any, descr: ExtractDescr, source: SpMatDescr, target: SpMatDescr, stage: Any) -> int:
    """``rocsparse_extract_buffer_size``: the bytes of buffer the stage needs (returned): the analysis's
    scan of the target offsets, nothing for compute."""
    c = _call("extract_buffer_size", _EXTRACT, (handle, descr, source, target, stage))
    d, S, T, stg = _extract_operands(c)
    if stg is ExtractStage.compute:
        return 0
    row = d.direction is Direction.row
    ptype = T.row_type if row else T.col_type
    _no_u16(c, "target", ptype)
    nseq = S.rows if row else S.cols
    return _round256(ptype.dtype.itemsize * (nseq + 1))


_EXTRACT_RUN = (*_EXTRACT, "buffer_size_in_bytes", "buffer")


@_layered
def extract(handle: Any, descr: ExtractDescr, source: SpMatDescr, target: SpMatDescr, stage: Any,
            buffer_size_in_bytes: int, buffer: Any) -> None:
    """``rocsparse_extract``: the analysis (target offsets and count) or compute (target entries) stage of
    extracting the triangle the target's fill mode and diagonal type select (see :mod:`._extract`)."""
    c = _call("extract", _EXTRACT_RUN, (handle, descr, source, target, stage, buffer_size_in_bytes, buffer))
    d, S, T, stg = _extract_operands(c)
    size = c.values["buffer_size_in_bytes"]
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise c.invalid_value("buffer_size_in_bytes", f"must be a non-negative integer, got {size!r}")
    c.check_array("buffer", int(size))
    if S.format not in (Format.csr, Format.csc) or T.format is not S.format:
        raise _not_implemented(c, "source", "supported matrix formats are csr and csc (source and target alike)")
    nseq, sptr_data, sind_data, sptype, sitype = _compressed(S)
    _, tptr_data, tind_data, tptype, titype = _compressed(T)
    _no_u16(c, "target", tptype, titype)
    _no_u16(c, "source", sptype, sitype)
    ncols = S.cols if S.format is Format.csr else S.rows
    before = (T.descr.fill_mode.name == "lower") == (S.format is Format.csr)
    unit = T.descr.diag_type.name == "unit"
    sbase, tbase = int(S.idx_base), int(T.idx_base)
    if is_null(tptr_data):
        raise c.invalid_pointer("target", "the target has no offsets array")
    sptr = _buffer(sptr_data, sptype.dtype, nseq + 1, "source offsets")
    sind = _buffer(sind_data, sitype.dtype, S.nnz, "source indices")
    tptr = _buffer(tptr_data, tptype.dtype, nseq + 1, "target offsets")
    if nseq + 1 > 0 and S.nnz > 0:
        check_csr(c, sptr, sind, sbase, S.nnz, ncols)  # checking mode: the source's structure
    if stg is ExtractStage.analysis:
        c.launch(ke.extract_count, sptr, sind, sbase, before, unit, tptr, tbase, d.nnz,
                 bytes=float((nseq + 1) * (sptype.dtype.itemsize + tptype.dtype.itemsize)
                             + S.nnz * sitype.dtype.itemsize))
        return
    count = np.zeros(1, np.int64)
    c.launch(_copy, d.nnz, count, bytes=8.0).wait()
    nnz = int(count[0])
    if nnz == 0:
        return
    if T.data_type is not S.data_type:
        raise _not_implemented(c, "target", f"{S.data_type.name} source values into a {T.data_type.name} target")
    if nnz and (is_null(tind_data) or is_null(T.val_data)):
        raise c.invalid_pointer("target", f"the target needs arrays of {nnz} entries")
    if nnz and is_null(S.val_data):
        raise c.invalid_pointer("source", "the source has no values")
    dtype = S.data_type.dtype
    check_offsets(c, tptr, tbase, nnz)  # checking mode: the target offsets place its entries
    c.launch(ke.extract_fill, sptr, sind, _raw(_buffer(S.val_data, dtype, S.nnz, "source values")), sbase, before,
             unit, tptr, tbase, _buffer(tind_data, titype.dtype, nnz, "target indices"),
             _raw(_buffer(T.val_data, dtype, nnz, "target values")),
             bytes=float(S.nnz * (sitype.dtype.itemsize + dtype.itemsize) * 2))


@_layered
def extract_nnz(handle: Any, descr: ExtractDescr) -> int:
    """``rocsparse_extract_nnz``: the entries the analysis stage counted (0 before any analysis)."""
    c = _call("extract_nnz", ("handle", "descr"), (handle, descr))
    check_handle(handle)
    d = _check_extract_descr(c)
    count = np.zeros(1, np.int64)
    c.launch(_copy, d.nnz, count, bytes=8.0).wait()
    return int(count[0])


# --- sparse_to_sparse ------------------------------------------------------------------------------


@dataclass(eq=False)
class SparseToSparseDescr:
    """A ``rocsparse_sparse_to_sparse_descr``: algorithm, the formats at creation, whether it may build an
    intermediate CSR matrix (``permissive``) and that matrix (with the device arrays it owns)."""

    alg: SparseToSparseAlg
    source_format: Format
    target_format: Format
    batched: bool = False
    permissive: bool = False
    intermediate: SpMatDescr | None = None
    owned: list[Any] = field(default_factory=list, repr=False)
    destroyed: bool = False


def create_sparse_to_sparse_descr(source: SpMatDescr, target: SpMatDescr, alg: Any) -> SparseToSparseDescr:
    """``rocsparse_create_sparse_to_sparse_descr``.

    Raises
    ------
    SparseInvalidPointerError
        source (#2) or target (#3) null or destroyed (target: also const).
    SparseInvalidValueError
        An invalid alg (#4).
    SparseNotImplementedError
        A batched source (count above 1) with offsets or columns-values batch strides.
    """
    S = check_spmat(source, "source", 2)
    T = check_spmat(target, "target", 3, writable=True)
    a = as_enum(SparseToSparseAlg, alg, "alg", 4)
    d = SparseToSparseDescr(a, S.format, T.format)
    if S.batch_count > 1:
        d.batched = True
        if S.offsets_batch_stride > 0 or S.columns_values_batch_stride > 0:
            raise SparseNotImplementedError("batched conversions with offsets or columns-values strides",
                                            arg="source", index=2)
    return d


def _check_s2s_descr(descr: Any, arg: str, index: int) -> SparseToSparseDescr:
    if not isinstance(descr, SparseToSparseDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a sparse_to_sparse descriptor", arg=arg, index=index)
    return descr


def sparse_to_sparse_permissive(descr: SparseToSparseDescr) -> None:
    """``rocsparse_sparse_to_sparse_permissive``: allow the conversions that need an intermediate CSR matrix."""
    _check_s2s_descr(descr, "descr", 1).permissive = True


def destroy_sparse_to_sparse_descr(descr: SparseToSparseDescr | None) -> None:
    """``rocsparse_destroy_sparse_to_sparse_descr``: frees the intermediate matrix (None: nothing to do)."""
    if descr is None:
        return
    d = _check_s2s_descr(descr, "descr", 1)
    d.intermediate = None
    d.owned.clear()
    d.destroyed = True


def _same_descr(c: Call, a: MatDescr, b: MatDescr) -> None:
    """rocsparse_mat_descr_are_same: type_mismatch unless the matrix descriptors agree."""
    for what in ("type", "fill_mode", "diag_type", "base", "storage_mode"):
        if getattr(a, what) is not getattr(b, what):
            raise SparseTypeMismatchError(f"source and target differ in {what}", arg="target",
                                          index=c.index("target"))


_DIRECT = {(Format.coo, Format.coo_aos), (Format.coo, Format.csr), (Format.coo_aos, Format.coo),
           (Format.coo_aos, Format.csr), (Format.csr, Format.coo), (Format.csr, Format.coo_aos),
           (Format.csr, Format.csc), (Format.csr, Format.ell), (Format.csr, Format.bsr), (Format.csc, Format.csr),
           (Format.ell, Format.csr), (Format.bsr, Format.csr)}


def _arr(data: Any, itype: IndexType | Datatype, n: int, name: str) -> Buffer:
    return _buffer(data, itype.dtype, n, name)


def _strided(data: Any, itype: IndexType, n: int, which: int, name: str) -> Buffer:
    """Entry ``which`` (0 rows, 1 columns) of the ``n`` interleaved pairs of a COO (AoS) index array."""
    isz = itype.dtype.itemsize
    base = data.ptr if isinstance(data, rocmath.DeviceArray) else int(data or 0)
    return Buffer(base + which * isz if n else 0, itype.dtype, (n,), (2 * isz,), name=name, owner=data)


def _need(c: Call, data: Any, n: int, who: str, what: str) -> None:
    if n > 0 and is_null(data):
        raise c.invalid_pointer(who, f"the {who} has no {what} array")


def _values(c: Call, S: SpMatDescr, T: SpMatDescr, n: int, required: bool) -> tuple[Buffer, Buffer] | None:
    """The value arrays of a conversion of ``n`` entries, or None for a symbolic one (either is missing);
    ``required``: the kernel moves values whatever (ELL, BSR)."""
    if n == 0:
        return None
    if is_null(S.val_data) or is_null(T.val_data):
        if required:
            _need(c, S.val_data, n, "source", "values")
            _need(c, T.val_data, n, "target", "values")
        return None
    if S.data_type is not T.data_type:
        raise _not_implemented(c, "target", f"{S.data_type.name} values into a {T.data_type.name} matrix")
    return _arr(S.val_data, S.data_type, n, "source values"), _arr(T.val_data, T.data_type, n, "target values")


def _same_types(c: Call, *pairs: tuple[IndexType, IndexType]) -> None:
    for a, b in pairs:
        if a is not b:
            raise _not_implemented(c, "target", f"index type {a.name} into {b.name}")


def _word_values(c: Call, S: SpMatDescr) -> None:
    if S.data_type.dtype.itemsize % 4:
        raise _not_implemented(c, "source", f"{S.data_type.name} values are not supported by this conversion")


def _copy_values(c: Call, vals: tuple[Buffer, Buffer] | None) -> None:
    if vals is not None:
        c.launch(ke.cast_copy, _flat(vals[0]), _flat(vals[1]),
                 bytes=float(2 * vals[0].shape[0] * vals[0].dtype.itemsize))


def _cast(c: Call, src: Buffer, dst: Buffer) -> None:
    if src.shape[0]:
        c.launch(ke.cast_copy, src, dst, bytes=float(src.shape[0] * (src.dtype.itemsize + dst.dtype.itemsize)))


def _max_row(c: Call, ptr: Buffer) -> int:
    out = np.zeros(1, np.int64)
    c.launch(kf.csr_row_lengths, ptr, 0, out, bytes=float(ptr.shape[0] * ptr.dtype.itemsize)).wait()
    return int(out[0])


def _analysis(c: Call, S: SpMatDescr, T: SpMatDescr) -> None:
    """The analysis stage of a direct conversion (or a copy): the target's nnz and what it needs to take arrays."""
    pair = (S.format, T.format)
    base = int(S.idx_base)
    if pair == (Format.csr, Format.ell):
        width = _max_row(c, _arr(S.row_data, S.row_type, S.rows + 1, "csr_row_ptr")) if S.rows else 0
        T.ell_width = width
        T.nnz = width * S.rows
    elif pair == (Format.csr, Format.bsr):
        bd = T.block_dim
        mb, nb = -(-S.rows // bd), -(-S.cols // bd)
        if (T.rows, T.cols) != (mb, nb):
            raise c.invalid_size("target", f"{S.rows} x {S.cols} in blocks of {bd} is {mb} x {nb} blocks, the "
                                           f"target has {T.rows} x {T.cols}")
        _need(c, T.row_data, 1, "target", "row pointer")
        ptr, ind = _arr(S.row_data, S.row_type, S.rows + 1, "csr_row_ptr"), _arr(S.col_data, S.col_type, S.nnz,
                                                                                 "csr_col_ind")
        check_csr(c, ptr, ind, base, S.nnz, S.cols)
        total = np.zeros(1, np.int64)
        c.launch(kf.csr_bsr_ptr, ptr, ind, base, bd, nb, _arr(T.row_data, T.row_type, mb + 1, "bsr_row_ptr"),
                 int(T.idx_base), total, bytes=float((S.rows + mb + S.nnz) * S.row_type.dtype.itemsize)).wait()
        T.nnz = int(total[0])
    elif pair == (Format.ell, Format.csr):
        _need(c, T.row_data, 1, "target", "row pointer")
        total = np.zeros(1, np.int64)
        width = S.ell_width
        c.launch(kf.ell_csr_ptr, _arr(S.col_data, S.col_type, S.rows * width, "ell_col_ind"), base, S.cols, width,
                 _empty(S.col_type.dtype), int(T.idx_base), _arr(T.row_data, T.row_type, S.rows + 1, "csr_row_ptr"),
                 total, bytes=float((S.rows * width + S.rows) * S.col_type.dtype.itemsize)).wait()
        T.nnz = int(total[0])
    elif pair == (Format.bsr, Format.csr):
        T.nnz = S.nnz * S.block_dim * S.block_dim
    else:
        if S.format is Format.ell and T.format is Format.ell:
            T.ell_width = S.ell_width
        T.nnz = S.nnz


def _transfer(c: Call, S: SpMatDescr, T: SpMatDescr) -> None:
    """rocsparse internal_spmat_transfer_from: the same sizes (invalid_size), every array the source has copied
    (converted to the target's index types; a target without it: invalid_pointer)."""
    for what in ("rows", "cols", "nnz"):
        if getattr(T, what) != getattr(S, what):
            raise c.invalid_size("target", f"target {what} {getattr(T, what)}, source {getattr(S, what)}")
    m, n, nnz, fmt = S.rows, S.cols, S.nnz, S.format
    sizes = {Format.csr: (m + 1, nnz, 0, nnz), Format.csc: (nnz, n + 1, 0, nnz), Format.coo: (nnz, nnz, 0, nnz),
             Format.coo_aos: (0, 0, 2 * nnz, nnz), Format.ell: (0, nnz, 0, nnz),
             Format.bsr: (m + 1, nnz, 0, nnz * S.block_dim * S.block_dim)}[fmt]
    for attr, stype, ttype, n_items in (("row_data", S.row_type, T.row_type, sizes[0]),
                                        ("col_data", S.col_type, T.col_type, sizes[1]),
                                        ("ind_data", S.row_type, T.row_type, sizes[2])):
        src = getattr(S, attr)
        if is_null(src) or n_items == 0:
            continue
        if is_null(getattr(T, attr)):
            raise c.invalid_pointer("target", f"the target has no {attr} array")
        _cast(c, _arr(src, stype, n_items, f"source {attr}"), _arr(getattr(T, attr), ttype, n_items, f"target {attr}"))
    if not is_null(S.val_data) and sizes[3]:
        if is_null(T.val_data):
            raise c.invalid_pointer("target", "the target has no values array")
        if S.data_type is not T.data_type:
            raise _not_implemented(c, "target", f"{S.data_type.name} values into a {T.data_type.name} matrix")
        _copy_values(c, (_arr(S.val_data, S.data_type, sizes[3], "source values"),
                         _arr(T.val_data, T.data_type, sizes[3], "target values")))


def _compute(c: Call, S: SpMatDescr, T: SpMatDescr) -> None:
    """The compute stage of a direct conversion (or a copy)."""
    pair = (S.format, T.format)
    if S.format is T.format:
        _transfer(c, S, T)
        return
    m, n, nnz = S.rows, S.cols, S.nnz
    base = int(S.idx_base)
    if pair in ((Format.csr, Format.coo), (Format.csr, Format.coo_aos)):
        ptr = _arr(S.row_data, S.row_type, m + 1, "csr_row_ptr")
        check_offsets(c, ptr, base, nnz)
        if nnz:
            if T.format is Format.coo:
                _need(c, T.row_data, nnz, "target", "row")
                _need(c, T.col_data, nnz, "target", "column")
                rows, cols = _arr(T.row_data, T.row_type, nnz, "coo_row_ind"), _arr(T.col_data, T.col_type, nnz,
                                                                                     "coo_col_ind")
            else:
                _need(c, T.ind_data, nnz, "target", "index")
                rows = _strided(T.ind_data, T.row_type, nnz, 0, "coo_ind")
                cols = _strided(T.ind_data, T.row_type, nnz, 1, "coo_ind")
            c.launch(ke.expand_rows, ptr, base, rows, bytes=float((m + nnz) * S.row_type.dtype.itemsize))
            _cast(c, _arr(S.col_data, S.col_type, nnz, "csr_col_ind"), cols)
        _copy_values(c, _values(c, S, T, nnz, False))
        return
    if pair in ((Format.coo, Format.csr), (Format.coo_aos, Format.csr)):
        _need(c, T.row_data, 1, "target", "row pointer")
        if S.format is Format.coo:
            rows = _arr(S.row_data, S.row_type, nnz, "coo_row_ind")
            cols = _arr(S.col_data, S.col_type, nnz, "coo_col_ind")
        else:
            rows = _strided(S.ind_data, S.row_type, nnz, 0, "coo_ind")
            cols = _strided(S.ind_data, S.row_type, nnz, 1, "coo_ind")
        c.launch(ke.compress_rows, rows, base, _arr(T.row_data, T.row_type, m + 1, "csr_row_ptr"),
                 bytes=float((m + nnz) * S.row_type.dtype.itemsize))
        if nnz:
            _need(c, T.col_data, nnz, "target", "column")
            _cast(c, cols, _arr(T.col_data, T.col_type, nnz, "csr_col_ind"))
        _copy_values(c, _values(c, S, T, nnz, False))
        return
    if pair in ((Format.coo, Format.coo_aos), (Format.coo_aos, Format.coo)):
        if nnz:
            if S.format is Format.coo:
                _need(c, T.ind_data, nnz, "target", "index")
                moves = ((_arr(S.row_data, S.row_type, nnz, "coo_row_ind"), _strided(T.ind_data, T.row_type, nnz, 0,
                                                                                      "coo_ind")),
                         (_arr(S.col_data, S.col_type, nnz, "coo_col_ind"), _strided(T.ind_data, T.row_type, nnz, 1,
                                                                                      "coo_ind")))
            else:
                _need(c, T.row_data, nnz, "target", "row")
                _need(c, T.col_data, nnz, "target", "column")
                moves = ((_strided(S.ind_data, S.row_type, nnz, 0, "coo_ind"), _arr(T.row_data, T.row_type, nnz,
                                                                                     "coo_row_ind")),
                         (_strided(S.ind_data, S.row_type, nnz, 1, "coo_ind"), _arr(T.col_data, T.col_type, nnz,
                                                                                     "coo_col_ind")))
            for src, dst in moves:
                _cast(c, src, dst)
        _copy_values(c, _values(c, S, T, nnz, False))
        return
    if pair in ((Format.csr, Format.csc), (Format.csc, Format.csr)):
        # CSC is the CSR structure of the transpose: one transpose either way.
        if S.format is Format.csr:
            _same_types(c, (S.row_type, T.col_type), (S.col_type, T.row_type))
            sp, si, tp, ti, rows, cols = S.row_data, S.col_data, T.col_data, T.row_data, m, n
            ptype, itype = S.row_type, S.col_type
        else:
            _same_types(c, (S.col_type, T.row_type), (S.row_type, T.col_type))
            sp, si, tp, ti, rows, cols = S.col_data, S.row_data, T.row_data, T.col_data, n, m
            ptype, itype = S.col_type, S.row_type
        _need(c, tp, 1, "target", "offsets")
        ptr, ind = _arr(sp, ptype, rows + 1, "source offsets"), _arr(si, itype, nnz, "source indices")
        check_csr(c, ptr, ind, base, nnz, cols)
        _need(c, ti, nnz, "target", "index")
        vals = _values(c, S, T, nnz, False)
        dtype = S.data_type.dtype
        c.launch(k.csr_transpose, vals is not None, vals[0] if vals else _buffer(None, dtype, 0, "values"), ptr, ind,
                 base, vals[1] if vals else _buffer(None, dtype, 0, "values"), _arr(ti, itype, nnz, "target indices"),
                 _arr(tp, ptype, cols + 1, "target offsets"), BUCKETED_BYTES,
                 bytes=float(2 * nnz * (itype.dtype.itemsize + (dtype.itemsize if vals else 0))))
        return
    if pair == (Format.csr, Format.ell):
        _same_types(c, (S.col_type, T.row_type), (S.col_type, T.col_type))
        _word_values(c, S)
        width = T.ell_width
        if m == 0 or width == 0:
            return
        ptr, ind = _arr(S.row_data, S.row_type, m + 1, "csr_row_ptr"), _arr(S.col_data, S.col_type, nnz, "csr_col_ind")
        check_offsets(c, ptr, base, nnz)
        _need(c, T.col_data, m * width, "target", "column")
        vals = _values(c, S, T, max(nnz, 1), True)
        assert vals is not None
        c.launch(kf.csr_to_ell, _raw(_arr(S.val_data, S.data_type, nnz, "csr_val")), ptr, ind, base, width,
                 _arr(T.col_data, T.col_type, m * width, "ell_col_ind"),
                 _raw(_arr(T.val_data, T.data_type, m * width, "ell_val")), int(T.idx_base),
                 _empty(S.col_type.dtype), _empty(S.col_type.dtype), _empty(np.uint32, S.data_type.dtype.itemsize // 4),
                 bytes=float((nnz + m * width) * (S.data_type.dtype.itemsize + S.col_type.dtype.itemsize)))
        return
    if pair == (Format.ell, Format.csr):
        _word_values(c, S)
        width = S.ell_width
        _need(c, T.row_data, 1, "target", "row pointer")
        tnnz = T.nnz
        if m == 0 or n == 0 or width == 0:
            return
        _need(c, T.col_data, tnnz, "target", "column")
        vals = _values(c, S, T, max(m * width, 1), True)
        assert vals is not None
        tptr = _arr(T.row_data, T.row_type, m + 1, "csr_row_ptr")
        check_offsets(c, tptr, int(T.idx_base), tnnz)
        c.launch(kf.ell_to_csr, _arr(S.col_data, S.col_type, m * width, "ell_col_ind"),
                 _raw(_arr(S.val_data, S.data_type, m * width, "ell_val")), base, n, width, _empty(S.col_type.dtype),
                 _empty(S.col_type.dtype), _empty(np.uint32, S.data_type.dtype.itemsize // 4), tptr, int(T.idx_base),
                 _arr(T.col_data, T.col_type, tnnz, "csr_col_ind"),
                 _raw(_arr(T.val_data, T.data_type, tnnz, "csr_val")),
                 bytes=float((m * width + tnnz) * (S.data_type.dtype.itemsize + S.col_type.dtype.itemsize)))
        return
    if pair == (Format.csr, Format.bsr):
        _same_types(c, (S.row_type, T.row_type), (S.col_type, T.col_type))
        _word_values(c, S)
        bd, nnzb = T.block_dim, T.nnz
        mb = -(-m // bd)
        if m == 0 or n == 0 or nnzb == 0:
            return
        ptr, ind = _arr(S.row_data, S.row_type, m + 1, "csr_row_ptr"), _arr(S.col_data, S.col_type, nnz, "csr_col_ind")
        bptr = _arr(T.row_data, T.row_type, mb + 1, "bsr_row_ptr")
        check_offsets(c, ptr, base, nnz)
        check_offsets(c, bptr, int(T.idx_base), nnzb)
        _need(c, T.col_data, nnzb, "target", "block column")
        _values(c, S, T, max(nnzb, 1), True)
        c.launch(kf.csr_to_bsr, int(T.block_dir), _raw(_arr(S.val_data, S.data_type, nnz, "csr_val")), ptr, ind, base,
                 bd, bptr, int(T.idx_base), _arr(T.col_data, T.col_type, nnzb, "bsr_col_ind"),
                 _raw(_arr(T.val_data, T.data_type, nnzb * bd * bd, "bsr_val")),
                 bytes=float(nnz * 12 + nnzb * bd * bd * S.data_type.dtype.itemsize))
        return
    if pair == (Format.bsr, Format.csr):
        _same_types(c, (S.row_type, T.row_type), (S.col_type, T.col_type))
        _word_values(c, S)
        bd = S.block_dim
        total = nnz * bd * bd
        if m == 0 or n == 0:
            return
        _need(c, T.row_data, 1, "target", "row pointer")
        _need(c, T.col_data, total, "target", "column")
        _values(c, S, T, max(total, 1), True)
        bptr = _arr(S.row_data, S.row_type, m + 1, "bsr_row_ptr")
        check_offsets(c, bptr, base, nnz)
        c.launch(kf.bsr_to_csr, int(S.block_dir), _raw(_arr(S.val_data, S.data_type, total, "bsr_val")), bptr,
                 _arr(S.col_data, S.col_type, nnz, "bsr_col_ind"), base, bd, bd, int(T.idx_base),
                 _raw(_arr(T.val_data, T.data_type, total, "csr_val")),
                 _arr(T.row_data, T.row_type, m * bd + 1, "csr_row_ptr"), _arr(T.col_data, T.col_type, total,
                                                                             "csr_col_ind"),
                 bytes=float(total * (2 * S.data_type.dtype.itemsize + 8)))
        return
    raise SparseInternalError(f"no direct conversion from {S.format.name} to {T.format.name}", arg="target",
                              index=c.index("target"))


def _intermediate(c: Call, d: SparseToSparseDescr, S: SpMatDescr, T: SpMatDescr) -> None:
    """rocSPARSE's sparse_to_csr_to_sparse at the analysis buffer-size query: the source converted into a new
    CSR matrix the descriptor keeps (its analysis and compute stages run now, as there)."""
    if S.format is Format.bsr:
        rows, cols, nnz = S.rows * S.block_dim, S.cols * S.block_dim, S.nnz * S.block_dim * S.block_dim
        rt, ct = S.row_type, S.col_type
    elif S.format is Format.csc:
        rows, cols, nnz, rt, ct = S.rows, S.cols, S.nnz, S.col_type, S.row_type
    else:
        rows, cols, nnz = S.rows, S.cols, (0 if S.format is Format.ell else S.nnz)
        rt, ct = S.row_type, S.col_type
        if T.format is Format.csc:
            rt, ct = T.col_type, T.row_type
        elif T.format is Format.bsr:
            rt, ct = T.row_type, T.col_type
    owned = [rocmath.empty(rows + 1, rt.dtype)]
    if nnz:
        owned += [rocmath.empty(nnz, ct.dtype), rocmath.empty(nnz, S.data_type.dtype)]
    M = SpMatDescr(Format.csr, rows, cols, nnz, owned[0], owned[1] if nnz else None, owned[2] if nnz else None, rt,
                   ct, S.idx_base, S.data_type)
    M.descr.base = S.idx_base
    d.intermediate, d.owned[:] = M, owned
    _convert(c, S, M, SparseToSparseStage.analysis, False)
    if S.format is Format.ell and M.nnz:
        more = [rocmath.empty(M.nnz, ct.dtype), rocmath.empty(M.nnz, S.data_type.dtype)]
        d.owned += more
        M.col_data, M.val_data = more
    _convert(c, S, M, SparseToSparseStage.compute, False)


def _convert(c: Call, S: SpMatDescr, T: SpMatDescr, stage: SparseToSparseStage, size_only: bool,
             d: SparseToSparseDescr | None = None) -> int:
    """rocsparse internal_sparse_to_sparse: one stage (``size_only``: its buffer-size query) of converting S into
    T, directly, or through ``d``'s intermediate CSR matrix."""
    if S.batch_count > 1:
        raise c.invalid_size("source", "batched conversions are not supported")
    _same_descr(c, S.descr, T.descr)
    if Format.bell in (S.format, T.format):
        raise _not_implemented(c, "source", "blocked ELL conversions are not supported")
    pair = (S.format, T.format)
    if S.format is T.format or pair in _DIRECT:
        if not size_only:
            (_analysis if stage is SparseToSparseStage.analysis else _compute)(c, S, T)
        return 0
    if d is None or not d.permissive:
        raise _not_implemented(c, "descr", f"the conversion from {S.format.name} to {T.format.name} requires an "
                                           "intermediate CSR matrix: call sparse_to_sparse_permissive to allow it")
    if stage is SparseToSparseStage.analysis and size_only:
        _intermediate(c, d, S, T)
        return _convert(c, d.intermediate, T, stage, True, d)  # type: ignore[arg-type]
    if d.intermediate is None:
        raise c.invalid_pointer("descr", "the analysis stage's buffer size was not queried: no intermediate matrix")
    return _convert(c, d.intermediate, T, stage, size_only, d)


_S2S = ("handle", "descr", "source", "target", "stage")


def _s2s_operands(c: Call) -> tuple[SparseToSparseDescr, SpMatDescr, SpMatDescr, SparseToSparseStage]:
    check_handle(c["handle"])
    d = _check_s2s_descr(c["descr"], "descr", c.index("descr"))
    S = check_spmat(c["source"], "source", c.index("source"))
    T = check_spmat(c["target"], "target", c.index("target"), writable=True)
    return d, S, T, c.enum("stage", SparseToSparseStage)


@_layered
def sparse_to_sparse_buffer_size(handle: Any, descr: SparseToSparseDescr, source: SpMatDescr, target: SpMatDescr,
                                 stage: Any) -> int:
    """``rocsparse_sparse_to_sparse_buffer_size``: the bytes of buffer the stage needs (returned; 0 here).  For a
    conversion through CSR (permissive descriptor) the analysis stage's query builds the intermediate matrix
    (blocking)."""
    c = _call("sparse_to_sparse_buffer_size", _S2S, (handle, descr, source, target, stage))
    d, S, T, stg = _s2s_operands(c)
    return _convert(c, S, T, stg, True, d)


@_layered
def sparse_to_sparse(handle: Any, descr: SparseToSparseDescr, source: SpMatDescr, target: SpMatDescr, stage: Any,
                     buffer_size_in_bytes: int, buffer: Any) -> None:
    """``rocsparse_sparse_to_sparse``: the analysis (target sizes) or compute (target arrays) stage of converting
    source into target (see :mod:`._extract`)."""
    c = _call("sparse_to_sparse", (*_S2S, "buffer_size_in_bytes", "buffer"),
              (handle, descr, source, target, stage, buffer_size_in_bytes, buffer))
    d, S, T, stg = _s2s_operands(c)
    size = c.values["buffer_size_in_bytes"]
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise c.invalid_value("buffer_size_in_bytes", f"must be a non-negative integer, got {size!r}")
    c.check_array("buffer", int(size))
    _convert(c, S, T, stg, False, d)


# --- color_info ------------------------------------------------------------------------------------


@dataclass(eq=False)
class ColorInfo:
    """A ``rocsparse_color_info`` (rocSPARSE's is an empty structure)."""

    destroyed: bool = False


def _check_color_info(info: Any, arg: str, index: int) -> ColorInfo:
    if not isinstance(info, ColorInfo) or info.destroyed:
        got = "null" if info is None else ("destroyed" if isinstance(info, ColorInfo) else type(info).__name__)
        raise SparseInvalidPointerError(f"expected a color_info, got {got}", arg=arg, index=index)
    return info


def create_color_info() -> ColorInfo:
    """``rocsparse_create_color_info``."""
    return ColorInfo()


def destroy_color_info(info: ColorInfo | None) -> None:
    """``rocsparse_destroy_color_info`` (None: nothing to do, as rocSPARSE's null info)."""
    if info is not None:
        _check_color_info(info, "info", 1).destroyed = True


def copy_color_info(dest: ColorInfo, src: ColorInfo) -> None:
    """``rocsparse_copy_color_info``: nothing to copy; src being dest is invalid_pointer (#2), as rocSPARSE."""
    _check_color_info(dest, "dest", 1)
    _check_color_info(src, "src", 2)
    if dest is src:
        raise SparseInvalidPointerError("source and destination are the same color_info", arg="src", index=2)


# --- set_identity_permutation, isctr, get_git_rev, memstat_report ---------------------------------------


def _set_identity_permutation(c: Call) -> None:
    it = c.enum("indextype", IndexType)
    if it is IndexType.u16:
        raise _not_implemented(c, "indextype", "rocsparse_indextype_u16 is not supported")
    n = c.values["n"]
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise c.invalid_size("n", f"must be an integer, got {n!r}")
    n = int(n)
    info = np.iinfo(it.dtype)
    if not info.min <= n <= info.max:
        raise SparseTypeMismatchError(f"n = {n} does not fit {it.name}", arg="n", index=c.index("n"))
    if n < 0:
        raise c.invalid_size("n", f"must be non-negative, got {n}")
    c.check_array("p", n)
    if n:
        c.launch(k.identity, Buffer(c.ptr("p"), it.dtype, (n,), name="p", owner=c["p"]),
                 bytes=float(n * it.dtype.itemsize))


set_identity_permutation = bind(Routine("set_identity_permutation", ("n", "p", "indextype"), _set_identity_permutation,
                                        "p[i] := i for i < n, p of the index type indextype (i32 or i64)."), None)

ISCTR = Routine("isctr", SCTR.params, SCTR.impl, "y[x_ind] := x_val (rocsparse_int values).")
isctr = bind(ISCTR, I32, prefix="")

#: What rocSPARSE's ROCSPARSE_VERSION_TWEAK (its build's git revision) names: the build that runs, rocmath's.
GIT_REV = f"rocmath-{rocmath.__version__}"


def _get_git_rev(c: Call) -> str:
    return GIT_REV


get_git_rev = bind(Routine("get_git_rev", (), _get_git_rev, "The rocSPARSE git revision (returned)."), None)

_memstat_filename = "rocsparse_memstat.json"


def memstat_report(filename: str | None) -> None:
    """``rocsparse_memstat_report``: the memory report's file name, taken when ``ROCSPARSE_MEMSTAT=1`` (None is then
    invalid_pointer); otherwise nothing happens, as rocSPARSE's.  rocmath.sparse has none of the
    ``rocsparse_hip_*`` allocation wrappers whose calls rocSPARSE's report lists, so none is written."""
    global _memstat_filename
    try:
        enabled = int(os.environ.get("ROCSPARSE_MEMSTAT", "0") or 0) == 1
    except ValueError:
        enabled = False
    if not enabled:
        return
    if filename is None:
        raise SparseInvalidPointerError("null filename", arg="filename", index=1)
    _memstat_filename = str(filename)

