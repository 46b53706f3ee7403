"""The ELL, HYB and BSR formats: their conversions, products, the prune conversions, gemvi and gemmi.

Routines, in rocSPARSE's check order with its statuses and quick returns:

- ELL: ``csr2ell_width``, ``Xcsr2ell``, ``ell2csr_nnz``, ``Xell2csr``, ``Xellmv`` (every operation);
- HYB: ``create_hyb_mat`` / ``destroy_hyb_mat`` / ``copy_hyb_mat`` (an opaque :class:`HybMat` whose ELL
  and COO parts live in device memory), ``Xcsr2hyb`` (partition auto: width ``ceil(nnz / m)``; user:
  ``user_ell_width``; max: the longest row), ``hyb2csr_buffer_size``, ``Xhyb2csr``, ``Xhybmv``;
- BSR: ``csr2bsr_nnz``, ``Xcsr2bsr``, ``Xbsr2csr`` (direction row or column inside a block; ``m``,
  ``n`` need not be multiples of the block dimension: the last blocks are padded with zeros),
  ``Xbsrmv`` and ``Xbsrmm`` (operation none, as rocSPARSE; bsrmm's B also transposed); ``Xbsrmv_analysis``
  partitions the block rows by stored blocks into the ``mat_info`` and bsrmv then runs on that
  partition (a sorted matrix's).  For 1 x 1 blocks it is csrmv's analysis, as rocSPARSE's (an analysis
  of another matrix is an error); larger blocks keep rocmath's own partition apart, which csrmv never
  sees (rocSPARSE keeps nothing for them) and bsrmv uses only for its own matrix; ``bsrmv_clear`` is
  csrmv_clear and frees both; ``Xbsrmv_ex_analysis``, ``Xbsrmv_ex``, ``bsrmv_ex_clear`` are the deprecated names;
- prune (s, d): ``Xprune_dense2csr`` and ``Xprune_csr2csr``, by threshold or by percentage, each
  as ``_buffer_size``, ``_nnz`` and the conversion; entries with ``|a| > threshold`` are kept (prune_csr2csr
  also drops ``|a| <= FLT_MIN``, and its ``_nnz`` rejects a negative threshold: rocSPARSE's compress kernels); the
  percentage versions take the threshold at position ``ceil(count * percentage / 100) - 1`` of the
  sorted magnitudes (the dense matrix's zeros included) and keep it in ``temp_buffer`` between
  the nnz stage and the conversion, as rocSPARSE does; their ``info`` is only checked;
- ``Xgemvi`` (``y := alpha A x + beta y``, dense A, sparse x) with ``Xgemvi_buffer_size`` (0, checking
  nothing, not even the handle, as rocSPARSE), and
  ``Xgemmi`` (``C := alpha A B^T + beta C``, dense A, CSR B).

Outputs counted on the device (``ell_width``, ``csr_nnz``, ``bsr_nnz``, ``nnz_total_dev_host_ptr``)
are returned in host pointer mode (the argument may then be None) and written to the device pointer
in device pointer mode (None is returned).  Index arrays are rocsparse_int (int32) for raw pointers,
or a DeviceArray's own int32/int64 type.

Deviations from rocSPARSE where its own behaviour is at fault: ``ell2csr_nnz``'s quick return writes
an empty CSR matrix (row pointer = base, 0 nonzeros) where rocSPARSE writes nothing; ``csr2hyb`` of a
matrix without entries uses ELL width 0 (rocSPARSE's integer formula yields widths that fail its own
check for 1 or 2 rows) and checks every argument before changing ``hyb``; ``hyb2csr_buffer_size`` is 0
(hyb2csr walks the row-sorted COO part directly) and ``temp_buffer`` may be null; hybmv / hyb2csr raise
``type_mismatch`` for a HYB matrix of another precision; gemvi rejects a transposed A before its quick ``nnz == 0``
scaling (rocSPARSE scales ``m`` entries of y there), gemmi's ``k == 0`` scaling honours ``ldc``, and
bsrmm checks ``ldc`` before its quick-return scaling.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.memory import memcpy
from rocmath.precision import C, D, Precision, S, Z

from . import _kernels as k
from . import _kernels_formats as kf
from ._api import Call, Routine, bind, is_null
from ._conversion2 import _fill, _span
from ._handle import MatDescr, check_descr, check_general_sorted, check_info, check_live
from ._level2 import _csrmv_clear, analyse_rows, analysed_bounds, scale_y
from ._level3 import dense_view
from ._solve import _copy
from ._types import (
    Datatype,
    Direction,
    IndexBase,
    Operation,
    Order,
    SparseInvalidPointerError,
    SparseNotImplementedError,
    SparseTypeMismatchError,
    StorageMode,
)
from ._validate import check_coo, check_csr, check_indices, check_offsets

__all__ = [
    "HybMat", "HybPartition", "bsrmv_clear", "bsrmv_ex_clear", "cbsr2csr", "cbsrmm", "cbsrmv", "cbsrmv_analysis",
    "cbsrmv_ex", "cbsrmv_ex_analysis", "ccsr2bsr", "ccsr2ell", "ccsr2hyb", "cell2csr", "cellmv", "cgemmi", "cgemvi",
    "cgemvi_buffer_size", "chyb2csr", "chybmv", "copy_hyb_mat", "create_hyb_mat", "csr2bsr_nnz", "csr2ell_width",
    "dbsr2csr", "dbsrmm", "dbsrmv", "dbsrmv_analysis", "dbsrmv_ex", "dbsrmv_ex_analysis", "dcsr2bsr", "dcsr2ell",
    "dcsr2hyb", "dell2csr", "dellmv", "destroy_hyb_mat", "dgemmi", "dgemvi", "dgemvi_buffer_size", "dhyb2csr",
    "dhybmv", "dprune_csr2csr", "dprune_csr2csr_buffer_size", "dprune_csr2csr_by_percentage",
    "dprune_csr2csr_by_percentage_buffer_size", "dprune_csr2csr_nnz", "dprune_csr2csr_nnz_by_percentage",
    "dprune_dense2csr", "dprune_dense2csr_buffer_size", "dprune_dense2csr_by_percentage",
    "dprune_dense2csr_by_percentage_buffer_size", "dprune_dense2csr_nnz", "dprune_dense2csr_nnz_by_percentage",
    "ell2csr_nnz", "hyb2csr_buffer_size", "sbsr2csr", "sbsrmm", "sbsrmv", "sbsrmv_analysis", "sbsrmv_ex",
    "sbsrmv_ex_analysis", "scsr2bsr", "scsr2ell", "scsr2hyb", "sell2csr", "sellmv", "sgemmi", "sgemvi",
    "sgemvi_buffer_size", "shyb2csr", "shybmv", "sprune_csr2csr", "sprune_csr2csr_buffer_size",
    "sprune_csr2csr_by_percentage", "sprune_csr2csr_by_percentage_buffer_size", "sprune_csr2csr_nnz",
    "sprune_csr2csr_nnz_by_percentage", "sprune_dense2csr", "sprune_dense2csr_buffer_size",
    "sprune_dense2csr_by_percentage", "sprune_dense2csr_by_percentage_buffer_size", "sprune_dense2csr_nnz",
    "sprune_dense2csr_nnz_by_percentage", "zbsr2csr", "zbsrmm", "zbsrmv", "zbsrmv_analysis", "zbsrmv_ex",
    "zbsrmv_ex_analysis", "zcsr2bsr", "zcsr2ell", "zcsr2hyb", "zell2csr", "zellmv", "zgemmi", "zgemvi",
    "zgemvi_buffer_size", "zhyb2csr", "zhybmv",
]

#: Block rows of a blocked product run in at most this many parallel groups (fixed by the sizes).
BLOCK_GROUPS = 256


class HybPartition(enum.IntEnum):
    """``rocsparse_hyb_partition``: how csr2hyb chooses the ELL width."""

    auto = 0
    user = 1
    max = 2


@dataclass(eq=False)
class HybMat:
    """A ``rocsparse_hyb_mat``: an ``m x n`` matrix as an ELL part of width ``ell_width`` (``ell_nnz =
    m * ell_width`` slots) and a row-sorted COO part of ``coo_nnz`` entries, in device memory, with one
    index base (the descriptor's at csr2hyb).  Read its fields; csr2hyb writes them."""

    m: int = 0
    n: int = 0
    partition: HybPartition = HybPartition.auto
    ell_nnz: int = 0
    ell_width: int = 0
    ell_col_ind: rocmath.DeviceArray | None = None
    ell_val: rocmath.DeviceArray | None = None
    coo_nnz: int = 0
    coo_row_ind: rocmath.DeviceArray | None = None
    coo_col_ind: rocmath.DeviceArray | None = None
    coo_val: rocmath.DeviceArray | None = None
    data_type: Datatype = Datatype.f32_r
    index_type: np.dtype[Any] = field(default_factory=lambda: np.dtype(np.int32))
    destroyed: bool = field(default=False, repr=False)

    def reset(self, m: int, n: int, partition: HybPartition, data_type: Datatype) -> None:
        """An empty ``m x n`` matrix; the arrays are released (kept alive by pending work that uses them)."""
        self.m, self.n, self.partition, self.data_type = m, n, partition, data_type
        self.ell_nnz = self.ell_width = self.coo_nnz = 0
        self.ell_col_ind = self.ell_val = self.coo_row_ind = self.coo_col_ind = self.coo_val = None


def check_hyb(hyb: Any, arg: str = "hyb", index: int | None = 1) -> HybMat:
    """A live HYB matrix, or ``invalid_pointer``."""
    return check_live(hyb, HybMat, "a hyb_mat", arg, index)


def create_hyb_mat() -> HybMat:
    """``rocsparse_create_hyb_mat``: an empty HYB matrix (rocSPARSE's out-parameter, returned).

    Returns
    -------
    HybMat
        The matrix, 0 x 0, filled by ``Xcsr2hyb``.
    """
    return HybMat()


def destroy_hyb_mat(hyb: HybMat) -> None:
    """``rocsparse_destroy_hyb_mat``: release the HYB matrix's device arrays.

    Raises
    ------
    SparseInvalidPointerError
        For a null (None) or already destroyed matrix.
    """
    h = check_hyb(hyb, "hyb", 1)
    h.reset(0, 0, HybPartition.auto, h.data_type)
    h.destroyed = True


#: The fields of a HYB matrix that fix its pattern and sizes (copy_hyb_mat's destination must match them).
_HYB_SHAPE = ("m", "n", "partition", "ell_width", "ell_nnz", "coo_nnz", "data_type", "index_type")
_HYB_ARRAYS = ("ell_col_ind", "ell_val", "coo_row_ind", "coo_col_ind", "coo_val")


def copy_hyb_mat(dest: HybMat, src: HybMat) -> None:
    """``rocsparse_copy_hyb_mat``: ``dest`` becomes a copy of ``src`` (its device arrays copied, synchronously).

    A ``dest`` that already holds a matrix (any field changed since create_hyb_mat) must have the sizes,
    partition, precision and index type of ``src``: its arrays are then overwritten in place.

    Raises
    ------
    SparseInvalidPointerError
        For a null or destroyed ``dest`` (#1) or ``src`` (#2), ``src`` being ``dest``, or a ``dest`` holding a
        matrix of another shape (#1).
    """
    d = check_hyb(dest, "dest", 1)
    s = check_hyb(src, "src", 2)
    if d is s:
        raise SparseInvalidPointerError("source and destination are the same HYB matrix", arg="src", index=2)
    fresh = HybMat()
    holds = any(getattr(d, f) != getattr(fresh, f) for f in _HYB_SHAPE) or any(
        getattr(d, f) is not None for f in _HYB_ARRAYS)
    if holds and any(getattr(d, f) != getattr(s, f) for f in _HYB_SHAPE):
        raise SparseInvalidPointerError("dest holds a HYB matrix of another shape, partition or type", arg="dest",
                                        index=1)
    for f in _HYB_ARRAYS:
        a = getattr(s, f)
        if a is None:
            continue
        if getattr(d, f) is None:
            setattr(d, f, rocmath.empty(a.shape, a.dtype))
        memcpy(getattr(d, f), a, a.nbytes)
    for f in _HYB_SHAPE:
        setattr(d, f, getattr(s, f))


# --- shared checks and helpers ---------------------------------------------------------------------


def _descr(c: Call, name: str, *, general: bool = True, sorted_: bool = True, storage_first: bool = False) -> MatDescr:
    """A matrix descriptor argument: non-null, general (not_implemented) and sorted
    (requires_sorted_storage), in rocSPARSE's order for the routine."""
    d = check_descr(c[name], name, c.index(name))
    return check_general_sorted(d, c.fname, name, c.index(name), general=general, sorted_=sorted_,
                                storage_first=storage_first)


def _block_dim(c: Call, name: str = "block_dim") -> int:
    bd = c.size(name)
    if bd == 0:
        raise c.invalid_size(name, "must be positive")
    return bd


def _ld(c: Call, name: str, need: int) -> int:
    """A leading dimension that must be at least ``need`` (``invalid_size`` otherwise)."""
    v = c[name]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < need:
        raise c.invalid_size(name, f"must be an integer >= {need}, got {v!r}")
    return int(v)


def _empty(dtype: Any) -> Buffer:
    return Buffer(0, np.dtype(dtype), (0,))


def _column(c: Call, name: str, length: int) -> Buffer:
    """A vector argument as a ``length x 1`` matrix (the products take 2-D operands)."""
    return Buffer(c.ptr(name) if length else 0, c.dtype, (length, 1), name=name, owner=c[name])


def _count_target(c: Call, name: str, itype: np.dtype[Any]) -> tuple[Any, np.ndarray | None]:
    """Where a kernel writes a count: a host array of the call's index type (host pointer mode: returned) or
    the device pointer."""
    if c.host_mode:
        host = np.zeros(1, itype)
        return host, host
    return c.array(name, 1, c.index_dtype(name)), None


def _count_result(task: Any, host: np.ndarray | None) -> int | None:
    if host is None:
        return None
    task.wait()
    return int(host[0])


def _zero_count(c: Call, name: str) -> int | None:
    """A quick return's count: 0 returned (host mode) or written to the device pointer when it is not null."""
    if c.host_mode:
        return 0
    _fill(c, name, 1, 0, c.index_dtype(name))
    return None


def words(a: Any) -> Buffer:
    """A value array (Buffer or DeviceArray) as ``(count, itemsize / 4)`` uint32 words, for the conversion
    kernels, which only move values."""
    if isinstance(a, rocmath.DeviceArray):
        ptr, dtype, n, owner, name = a.ptr, a.dtype, a.size, a, "values"
    else:
        ptr, dtype, n, owner, name = a.ptr, a.dtype, a.shape[0], a.owner, a.name
    return Buffer(ptr if n else 0, np.dtype(np.uint32), (n, dtype.itemsize // 4), name=name, owner=owner)


def launch_block_rows(c: Call, direction: Direction, stop: bool, alpha: Any, row_ptr: Any, base: int, width: int,
                      col_ind: Any, val: Any, bdim: int, B: Buffer, beta: Any, Cm: Buffer, nblocks: int,
                      bounds: Any = None, scanned: bool = False) -> None:
    """Enqueue :func:`kf.block_rows`: ``C := alpha A B + beta C`` for a BSR (``width < 0``) or blocked-ELL
    (``width >= 0``) matrix A of ``nblocks`` stored ``bdim x bdim`` blocks, the block rows in the groups of
    ``bounds`` (an analysed partition; None: split evenly).  One-column products on contiguous vectors run
    the matrix-vector kernels (see :func:`kf.block_rows`).  In checking mode a BSR matrix is scanned first
    unless the caller did (``scanned``); blocked ELL needs no scan (a block column outside the matrix is
    padding, skipped)."""
    mb = Cm.shape[0] // bdim
    ncols = Cm.shape[1]
    isz = Cm.dtype.itemsize
    if width < 0 and not scanned:
        check_csr(c, row_ptr, col_ind, base, nblocks, B.shape[0] // bdim)  # checking mode (block columns)
    if bounds is None:
        bounds = k.uniform_bounds(mb, max(1, min(mb, BLOCK_GROUPS)))
    c.launch(kf.block_rows, int(direction), stop, alpha, row_ptr, int(base), int(width), col_ind, val, int(bdim), B,
             beta, Cm, bounds,
             flops=nblocks * bdim * bdim * ncols * (8.0 if Cm.dtype.kind == "c" else 2.0),
             bytes=float(nblocks * (bdim * bdim * isz + col_ind.dtype.itemsize) + B.shape[0] * ncols * isz
                         + 2 * Cm.shape[0] * ncols * isz))


def scale_rows(c: Call, beta: Any, Cm: Buffer, itype: np.dtype[Any]) -> None:
    """``C := beta C`` for a 2-D view (beta == 0 writes zeros, beta == 1 leaves C alone): the blocked kernel
    with no blocks and alpha 0 (``itype``: the call's index type, so the kernel compiled for it serves)."""
    if Cm.shape[0] and Cm.shape[1]:
        launch_block_rows(c, Direction.row, False, np.zeros(1, Cm.dtype), _empty(itype), 0, 0, _empty(itype),
                          _empty(Cm.dtype), 1, Buffer(0, Cm.dtype, (0, Cm.shape[1])), beta, Cm, 0)


def conjugated(c: Call, B: Buffer) -> Buffer:
    """A conjugated copy of the 2-D view ``B`` in the handle's workspace (blocked-ELL spmm with trans_B
    conjugate_transpose: the product kernel itself never conjugates)."""
    nbytes = B.shape[0] * B.shape[1] * B.dtype.itemsize
    out = c.workspace(nbytes, B.dtype, B.shape, "conjugated B")
    if nbytes:
        c.launch(_conj_into, B, out, bytes=2.0 * nbytes)
    return out


def _conj_into(src: np.ndarray, dst: np.ndarray) -> None:
    np.conjugate(src, out=dst)


def launch_scatter(c: Call, trans: Operation, row_ptr: Any, row_ind: Any, col_ind: Any, base: int, width: int,
                   val: Any, alpha: Any, x: Any, beta: Any, y: Any, entries: int) -> None:
    """Enqueue :func:`kf.scatter_product` (ELL ``width >= 0``, CSR -1, COO -2): ``y := alpha op(A) x + beta y``."""
    isz = c.dtype.itemsize
    c.launch(kf.scatter_product, trans is not Operation.none, trans is Operation.conjugate_transpose, alpha, row_ptr,
             row_ind, col_ind, int(base), int(width), val, x, beta, y,
             flops=entries * (8.0 if c.dtype.kind == "c" else 2.0),
             bytes=float(entries * (isz + 2 * col_ind.dtype.itemsize) + x.shape[0] * isz + 2 * y.shape[0] * isz))


def launch_ell(c: Call, trans: Operation, m: int, n: int, base: int, width: int, val: Any, col_ind: Any, alpha: Any,
               x: Buffer, beta: Any, y: Buffer) -> None:
    """Enqueue ``y := alpha op(A) x + beta y`` for a checked, non-empty ``m x n`` ELL matrix (x and y 1-D)."""
    if trans is Operation.none:
        xs = Buffer(x.ptr, x.dtype, (n, 1), name=x.name, owner=x.owner)
        ys = Buffer(y.ptr, y.dtype, (m, 1), name=y.name, owner=y.owner)
        launch_block_rows(c, Direction.row, True, alpha, _empty(col_ind.dtype), base, width, col_ind, val, 1, xs,
                          beta, ys, m * width)
        return
    launch_scatter(c, trans, _empty(col_ind.dtype), _empty(col_ind.dtype), col_ind, base, width, val, alpha, x, beta,
                   y, m * width)


# --- ELL ------------------------------------------------------------------------------------------------


def _csr2ell_width(c: Call) -> int | None:
    m = c.size("m")
    _descr(c, "csr_descr")
    c.check_array("csr_row_ptr", m)
    _descr(c, "ell_descr")
    if not c.host_mode:
        c.pointer("ell_width")
    if m == 0:
        return _zero_count(c, "ell_width")
    itype = c.index_dtype("csr_row_ptr")
    out, host = _count_target(c, "ell_width", itype)
    task = c.launch(kf.csr_row_lengths, c.array("csr_row_ptr", m + 1, itype), 0, out,
                    bytes=float((m + 1) * itype.itemsize))
    return _count_result(task, host)


csr2ell_width = bind(Routine("csr2ell_width", ("m", "csr_descr", "csr_row_ptr", "ell_descr", "ell_width"),
                             _csr2ell_width, "The ELL width of a CSR matrix (its longest row): returned in host "
                             "pointer mode, written to ell_width in device pointer mode."), None)


def _csr2ell(c: Call) -> None:
    m, width = c.size("m"), c.size("ell_width")
    if m == 0 or width == 0:
        return
    cd = _descr(c, "csr_descr")
    ed = _descr(c, "ell_descr")
    for name, length in (("csr_val", width), ("csr_row_ptr", m), ("csr_col_ind", width), ("ell_val", width),
                         ("ell_col_ind", width)):
        c.check_array(name, length)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "ell_col_ind")
    nnz = _span(c, "csr_row_ptr", m, itype)
    isz = c.dtype.itemsize
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    check_offsets(c, row_ptr, int(cd.base), nnz)  # checking mode (the columns are only copied)
    c.launch(kf.csr_to_ell, words(c.array("csr_val", nnz)), row_ptr,
             c.array("csr_col_ind", nnz, itype), int(cd.base), width, c.array("ell_col_ind", m * width, itype),
             words(c.array("ell_val", m * width)), int(ed.base), _empty(itype), _empty(itype),
             words(_empty(c.dtype)),
             bytes=float((nnz + m * width) * (isz + itype.itemsize) + (m + 1) * itype.itemsize))


CSR2ELL = Routine("csr2ell", ("m", "csr_descr", "csr_val", "csr_row_ptr", "csr_col_ind", "ell_descr", "ell_width",
                              "ell_val", "ell_col_ind"), _csr2ell,
                  "Convert an m-row CSR matrix to ELL of width ell_width (from csr2ell_width); padding -1 and 0.")

scsr2ell = bind(CSR2ELL, S)
dcsr2ell = bind(CSR2ELL, D)
ccsr2ell = bind(CSR2ELL, C)
zcsr2ell = bind(CSR2ELL, Z)


def _ell2csr_nnz(c: Call) -> int | None:
    m, n = c.size("m"), c.size("n")
    ed = _descr(c, "ell_descr")
    width = c.size("ell_width")
    cd = _descr(c, "csr_descr")
    c.check_array("ell_col_ind", width * m)
    c.check_array("csr_row_ptr", m)
    itype = c.index_dtype("ell_col_ind", "csr_row_ptr")
    if m == 0 or n == 0 or width == 0:
        _fill(c, "csr_row_ptr", m + 1, int(cd.base), itype)  # rocSPARSE writes nothing here
        return _zero_count(c, "csr_nnz")
    if not c.host_mode:
        c.pointer("csr_nnz")
    total, host = _count_target(c, "csr_nnz", itype)
    task = c.launch(kf.ell_csr_ptr, c.array("ell_col_ind", m * width, itype), int(ed.base), n, width, _empty(itype),
                    int(cd.base), c.array("csr_row_ptr", m + 1, itype), total,
                    bytes=float((m * width + m + 1) * itype.itemsize))
    return _count_result(task, host)


ell2csr_nnz = bind(Routine("ell2csr_nnz", ("m", "n", "ell_descr", "ell_width", "ell_col_ind", "csr_descr",
                                           "csr_row_ptr", "csr_nnz"), _ell2csr_nnz,
                           "The CSR row pointer of an m x n ELL matrix; its nonzeros returned in host pointer mode, "
                           "written to csr_nnz in device pointer mode."), None)


def _ell2csr(c: Call) -> None:
    m, n = c.size("m"), c.size("n")
    ed = _descr(c, "ell_descr")
    width = c.size("ell_width")
    cd = _descr(c, "csr_descr")
    if m == 0 or n == 0 or width == 0:
        return
    for name in ("ell_val", "ell_col_ind", "csr_val"):
        c.pointer(name)
    c.check_array("csr_row_ptr", m)
    c.pointer("csr_col_ind")
    itype = c.index_dtype("ell_col_ind", "csr_row_ptr", "csr_col_ind")
    nnz = _span(c, "csr_row_ptr", m, itype)
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    # checking mode: the row pointer places the entries (an ELL column outside [0, n) is padding: no scan)
    check_offsets(c, row_ptr, int(cd.base), nnz)
    c.launch(kf.ell_to_csr, c.array("ell_col_ind", m * width, itype), words(c.array("ell_val", m * width)),
             int(ed.base), n, width, _empty(itype), _empty(itype), words(_empty(c.dtype)),
             row_ptr, int(cd.base), c.array("csr_col_ind", nnz, itype),
             words(c.array("csr_val", nnz)),
             bytes=float((m * width + nnz) * (c.dtype.itemsize + itype.itemsize)))


ELL2CSR = Routine("ell2csr", ("m", "n", "ell_descr", "ell_width", "ell_val", "ell_col_ind", "csr_descr", "csr_val",
                              "csr_row_ptr", "csr_col_ind"), _ell2csr,
                  "Convert an m x n ELL matrix to CSR, given the row pointer from ell2csr_nnz.")

sell2csr = bind(ELL2CSR, S)
dell2csr = bind(ELL2CSR, D)
cell2csr = bind(ELL2CSR, C)
zell2csr = bind(ELL2CSR, Z)


def _nothing_to_do(c: Call) -> bool:
    """The products' alpha and beta checks (non-null), then their quick return: host alpha == 0, beta == 1."""
    c.pointer("alpha")
    c.pointer("beta")
    return c.alpha0_beta1()


def _quick_scale(c: Call, ylen: int) -> None:
    """The quick return of the products: ``y := beta y`` (beta and y must then be non-null), as csrmv's."""
    if ylen > 0:
        c.pointer("beta")
        c.pointer("y")
        scale_y(c, c.scalar("beta"), c.array("y", ylen))


def _ellmv(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    trans = c.enum("trans", Operation)
    _descr(c, "descr")
    m, n, width = c.size("m"), c.size("n"), c.size("ell_width")
    if (m == 0 or n == 0) and width != 0:
        raise c.invalid_size("ell_width", f"must be 0 for a {m} x {n} matrix, got {width}")
    ylen, xlen = (m, n) if trans is Operation.none else (n, m)
    itype = c.index_dtype("ell_col_ind")
    if m == 0 or n == 0 or width == 0:
        _quick_scale(c, ylen)
        return
    if _nothing_to_do(c):
        return
    for name in ("ell_val", "ell_col_ind", "x", "y"):
        c.pointer(name)
    launch_ell(c, trans, m, n, int(descr.base), width, c.array("ell_val", m * width),
               c.array("ell_col_ind", m * width, itype), c.scalar("alpha"), c.array("x", xlen), c.scalar("beta"),
               c.array("y", ylen))


ELLMV = Routine("ellmv", ("trans", "m", "n", "alpha", "descr", "ell_val", "ell_col_ind", "ell_width", "x", "beta",
                          "y"), _ellmv, "y := alpha op(A) x + beta y for an m x n ELL matrix A.", replay=True)

sellmv = bind(ELLMV, S)
dellmv = bind(ELLMV, D)
cellmv = bind(ELLMV, C)
zellmv = bind(ELLMV, Z)


# --- HYB ------------------------------------------------------------------------------------------------


def _csr2hyb(c: Call) -> None:
    m, n = c.size("m"), c.size("n")
    d = _descr(c, "descr")
    hyb = check_hyb(c["hyb"], "hyb", c.index("hyb"))
    partition = c.enum("partition_type", HybPartition)
    data_type = Datatype.of(c.dtype)
    if m == 0 or n == 0:
        hyb.reset(m, n, partition, data_type)
        return
    c.pointer("csr_val")
    c.pointer("csr_col_ind")
    c.check_array("csr_row_ptr", m)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    nnz = _span(c, "csr_row_ptr", m, itype)
    # rocSPARSE's bound on the width: twice the mean row length (none for a matrix without entries).
    limit = 2 * (nnz - 1) // m + 1 if nnz else 0
    stats = np.zeros(2, itype)
    if partition is HybPartition.user:
        width = c["user_ell_width"]
        if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or not 0 <= width <= limit:
            raise c.invalid_value("user_ell_width", f"must be an integer in [0, {limit}] (twice the mean row length), "
                                                   f"got {width!r}")
        width = int(width)
    elif partition is HybPartition.auto:
        width = (nnz - 1) // m + 1 if nnz else 0
    # checking mode: the row pointer, before the row lengths are read (the columns are only copied)
    check_offsets(c, row_ptr, int(d.base), nnz)
    if partition is HybPartition.max:
        c.launch(kf.csr_row_lengths, row_ptr, 0, stats, bytes=float((m + 1) * itype.itemsize)).wait()
        width = int(stats[0])
        if width > limit:
            raise c.invalid_value("partition_type", f"the longest row ({width} entries) exceeds twice the mean row "
                                                    f"length ({limit}): use another partition")
    coo_nnz = 0
    if partition is not HybPartition.max and width < nnz:
        c.launch(kf.csr_row_lengths, row_ptr, width, stats, bytes=float((m + 1) * itype.itemsize)).wait()
        coo_nnz = int(stats[1])
    hyb.reset(m, n, partition, data_type)
    hyb.index_type = itype
    hyb.ell_width, hyb.ell_nnz, hyb.coo_nnz = width, m * width, coo_nnz
    if width:
        hyb.ell_col_ind, hyb.ell_val = rocmath.empty(m * width, itype), rocmath.empty(m * width, c.dtype)
    if coo_nnz:
        hyb.coo_row_ind, hyb.coo_col_ind = rocmath.empty(coo_nnz, itype), rocmath.empty(coo_nnz, itype)
        hyb.coo_val = rocmath.empty(coo_nnz, c.dtype)
    base = int(d.base)
    c.launch(kf.csr_to_ell, words(c.array("csr_val", nnz)), row_ptr, c.array("csr_col_ind", nnz, itype), base,
             width, hyb.ell_col_ind if width else _empty(itype), words(hyb.ell_val if width else _empty(c.dtype)),
             base, hyb.coo_row_ind if coo_nnz else _empty(itype), hyb.coo_col_ind if coo_nnz else _empty(itype),
             words(hyb.coo_val if coo_nnz else _empty(c.dtype)),
             bytes=float((nnz + m * width + coo_nnz) * (c.dtype.itemsize + itype.itemsize)))


CSR2HYB = Routine("csr2hyb", ("m", "n", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "hyb", "user_ell_width",
                              "partition_type"), _csr2hyb,
                  "Convert an m x n CSR matrix to the HYB matrix hyb (ELL part + COO part, by partition_type).")

scsr2hyb = bind(CSR2HYB, S)
dcsr2hyb = bind(CSR2HYB, D)
ccsr2hyb = bind(CSR2HYB, C)
zcsr2hyb = bind(CSR2HYB, Z)


def _hyb_empty(hyb: HybMat) -> bool:
    return hyb.m == 0 or hyb.n == 0 or hyb.ell_nnz + hyb.coo_nnz == 0


def _hyb_precision(c: Call, hyb: HybMat) -> None:
    if hyb.data_type is not Datatype.of(c.dtype):
        raise SparseTypeMismatchError(f"a {hyb.data_type.name} HYB matrix given to {c.fname}", arg="hyb",
                                      index=c.index("hyb"))


def _hyb2csr_buffer_size(c: Call) -> int:
    _descr(c, "descr")
    hyb = check_hyb(c["hyb"], "hyb", c.index("hyb"))
    if _hyb_empty(hyb):
        return 0
    c.pointer("csr_row_ptr")
    return 0  # hyb2csr walks the row-sorted COO part directly: no row pointer to build, no scan scratch


hyb2csr_buffer_size = bind(Routine("hyb2csr_buffer_size", ("descr", "hyb", "csr_row_ptr"), _hyb2csr_buffer_size,
                                   "Bytes of temp_buffer hyb2csr needs (returned): 0."), None)


def _hyb2csr(c: Call) -> None:
    d = _descr(c, "descr")
    hyb = check_hyb(c["hyb"], "hyb", c.index("hyb"))
    base = int(d.base)
    if _hyb_empty(hyb):
        _fill(c, "csr_row_ptr", hyb.m + 1, base, c.index_dtype("csr_row_ptr"))
        return
    for name in ("csr_val", "csr_row_ptr", "csr_col_ind"):
        c.pointer(name)
    _hyb_precision(c, hyb)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    m, it = hyb.m, hyb.index_type
    width = hyb.ell_width if hyb.ell_nnz else 0
    ell_col = hyb.ell_col_ind if width else _empty(it)
    coo_row = hyb.coo_row_ind if hyb.coo_nnz else _empty(it)
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    total = np.zeros(1, itype)
    c.launch(kf.ell_csr_ptr, ell_col, base, hyb.n, width, coo_row, base, row_ptr, total,
             bytes=float((m * width + hyb.coo_nnz + m + 1) * it.itemsize)).wait()
    nnz = int(total[0])
    c.launch(kf.ell_to_csr, ell_col, words(hyb.ell_val if width else _empty(c.dtype)), base, hyb.n, width, coo_row,
             hyb.coo_col_ind if hyb.coo_nnz else _empty(it), words(hyb.coo_val if hyb.coo_nnz else _empty(c.dtype)),
             row_ptr, base, c.array("csr_col_ind", nnz, itype), words(c.array("csr_val", nnz)),
             bytes=float((m * width + hyb.coo_nnz + nnz) * (c.dtype.itemsize + it.itemsize)))


HYB2CSR = Routine("hyb2csr", ("descr", "hyb", "csr_val", "csr_row_ptr", "csr_col_ind", "temp_buffer"), _hyb2csr,
                  "Convert a HYB matrix to CSR (each row: its ELL entries, then its COO entries).")

shyb2csr = bind(HYB2CSR, S)
dhyb2csr = bind(HYB2CSR, D)
chyb2csr = bind(HYB2CSR, C)
zhyb2csr = bind(HYB2CSR, Z)


def _hybmv(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    hyb = check_hyb(c["hyb"], "hyb", c.index("hyb"))
    trans = c.enum("trans", Operation)
    _descr(c, "descr")
    m, n = hyb.m, hyb.n
    ylen, xlen = (m, n) if trans is Operation.none else (n, m)
    if _hyb_empty(hyb):
        _quick_scale(c, ylen)
        return
    if _nothing_to_do(c):
        return
    c.pointer("x")
    c.pointer("y")
    _hyb_precision(c, hyb)
    base = int(descr.base)
    alpha, beta = c.scalar("alpha"), c.scalar("beta")
    x, y = c.array("x", xlen), c.array("y", ylen)
    if hyb.coo_nnz:  # checking mode: the COO part, before the ELL part writes y (ELL padding needs no scan)
        rows, cols = hyb.coo_row_ind, hyb.coo_col_ind
        assert rows is not None and cols is not None
        shape = (hyb.coo_nnz,)
        check_coo(c, Buffer(rows.ptr, rows.dtype, shape, name="coo_row_ind", owner=rows),
                  Buffer(cols.ptr, cols.dtype, shape, name="coo_col_ind", owner=cols), base, m, n, hyb.coo_nnz)
    if hyb.ell_nnz:
        launch_ell(c, trans, m, n, base, hyb.ell_width, hyb.ell_val, hyb.ell_col_ind, alpha, x, beta, y)
        beta = np.ones(1, c.dtype)  # the COO part adds to the ELL part's result
    if hyb.coo_nnz and trans is Operation.none:
        # csr2hyb writes the COO part row by row: its rows are sorted, so they can run in parallel
        isz = c.dtype.itemsize
        c.launch(kf.coo_mv, alpha, hyb.coo_row_ind, hyb.coo_col_ind, base, hyb.coo_val, x, beta, y,
                 flops=hyb.coo_nnz * (8.0 if c.dtype.kind == "c" else 2.0),
                 bytes=float(hyb.coo_nnz * (isz + 2 * hyb.index_type.itemsize) + xlen * isz + 2 * ylen * isz))
    elif hyb.coo_nnz:
        it = hyb.index_type
        launch_scatter(c, trans, _empty(it), hyb.coo_row_ind, hyb.coo_col_ind, base, -2, hyb.coo_val, alpha, x, beta,
                       y, hyb.coo_nnz)


HYBMV = Routine("hybmv", ("trans", "alpha", "descr", "hyb", "x", "beta", "y"), _hybmv,
                "y := alpha op(A) x + beta y for a HYB matrix A (its ELL part, then its COO part).")

shybmv = bind(HYBMV, S)
dhybmv = bind(HYBMV, D)
chybmv = bind(HYBMV, C)
zhybmv = bind(HYBMV, Z)


# --- BSR ------------------------------------------------------------------------------------------------


def _csr2bsr_nnz(c: Call) -> int | None:
    c.enum("dir", Direction)
    m, n = c.size("m"), c.size("n")
    bd = _block_dim(c)
    mb, nb = -(-m // bd), -(-n // bd)
    if m == 0 or n == 0:
        if not is_null(c["bsr_row_ptr"]):
            bsr_base = int(check_descr(c["bsr_descr"], "bsr_descr", c.index("bsr_descr")).base)
            _fill(c, "bsr_row_ptr", mb + 1, bsr_base, c.index_dtype("bsr_row_ptr"))
        return _zero_count(c, "bsr_nnz")
    cd = _descr(c, "csr_descr", general=False)
    bdd = _descr(c, "bsr_descr", general=False)
    c.check_array("csr_row_ptr", m)
    c.check_array("bsr_row_ptr", mb)
    if not c.host_mode:
        c.pointer("bsr_nnz")
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "bsr_row_ptr")
    nnz = _span(c, "csr_row_ptr", m, itype)
    c.check_array("csr_col_ind", nnz)
    total, host = _count_target(c, "bsr_nnz", itype)
    row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    check_csr(c, row_ptr, col_ind, int(cd.base), nnz, n)  # checking mode: a column picks its block column's marker
    task = c.launch(kf.csr_bsr_ptr, row_ptr, col_ind, int(cd.base), bd, nb, c.array("bsr_row_ptr", mb + 1, itype),
                    int(bdd.base), total,
                    bytes=float((m + mb + 2 + nnz) * itype.itemsize))
    return _count_result(task, host)


csr2bsr_nnz = bind(Routine("csr2bsr_nnz", ("dir", "m", "n", "csr_descr", "csr_row_ptr", "csr_col_ind", "block_dim",
                                           "bsr_descr", "bsr_row_ptr", "bsr_nnz"), _csr2bsr_nnz,
                           "The BSR row pointer of an m x n CSR matrix in block_dim blocks; the number of blocks "
                           "returned in host pointer mode, written to bsr_nnz in device pointer mode."), None)


def _csr2bsr(c: Call) -> None:
    direction = c.enum("dir", Direction)
    m, n = c.size("m"), c.size("n")
    cd = _descr(c, "csr_descr", general=False)
    bd = _block_dim(c)
    bdd = _descr(c, "bsr_descr", general=False)
    c.check_array("bsr_row_ptr", m)
    if m == 0 or n == 0:
        return
    mb = -(-m // bd)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "bsr_row_ptr", "bsr_col_ind")
    nnzb = _span(c, "bsr_row_ptr", mb, itype)
    if nnzb == 0:
        return
    c.pointer("bsr_val")
    c.pointer("bsr_col_ind")
    c.check_array("csr_row_ptr", m)
    nnz = _span(c, "csr_row_ptr", m, itype)
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    isz = c.dtype.itemsize
    row_ptr, bsr_row_ptr = c.array("csr_row_ptr", m + 1, itype), c.array("bsr_row_ptr", mb + 1, itype)
    # checking mode: both row pointers place entries (the columns only pick blocks, inside each block row)
    check_offsets(c, row_ptr, int(cd.base), nnz)
    check_offsets(c, bsr_row_ptr, int(bdd.base), nnzb)
    c.launch(kf.csr_to_bsr, int(direction), words(c.array("csr_val", nnz)), row_ptr,
             c.array("csr_col_ind", nnz, itype), int(cd.base), bd, bsr_row_ptr,
             int(bdd.base), c.array("bsr_col_ind", nnzb, itype), words(c.array("bsr_val", nnzb * bd * bd)),
             bytes=float(nnz * (isz + itype.itemsize) + nnzb * (bd * bd * isz + itype.itemsize)))


CSR2BSR = Routine("csr2bsr", ("dir", "m", "n", "csr_descr", "csr_val", "csr_row_ptr", "csr_col_ind", "block_dim",
                              "bsr_descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind"), _csr2bsr,
                  "Convert an m x n CSR matrix to BSR in block_dim blocks, given the row pointer from csr2bsr_nnz.")

scsr2bsr = bind(CSR2BSR, S)
dcsr2bsr = bind(CSR2BSR, D)
ccsr2bsr = bind(CSR2BSR, C)
zcsr2bsr = bind(CSR2BSR, Z)


def _bsr2csr(c: Call) -> None:
    direction = c.enum("dir", Direction)
    mb, nb = c.size("mb"), c.size("nb")
    bdd = _descr(c, "bsr_descr", storage_first=True)
    c.check_array("bsr_row_ptr", mb)
    bd = _block_dim(c)
    cd = _descr(c, "csr_descr", storage_first=True)
    c.check_array("csr_row_ptr", mb)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind", "csr_row_ptr", "csr_col_ind")
    if mb == 0 or nb == 0:
        _fill(c, "csr_row_ptr", bd * mb + 1, int(cd.base), itype)
        return
    nnzb = _span(c, "bsr_row_ptr", mb, itype)
    nnz = nnzb * bd * bd
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    c.pointer("bsr_val")
    c.pointer("bsr_col_ind")
    launch_bsr_to_csr(c, direction, mb, nnzb, bd, bd, int(bdd.base), int(cd.base), itype)


def launch_bsr_to_csr(c: Call, direction: Direction, mb: int, nnzb: int, rbd: int, cbd: int, bsr_base: int,
                      csr_base: int, itype: np.dtype[Any]) -> None:
    """bsr2csr's and gebsr2csr's copy of every element of every ``rbd x cbd`` block into CSR, after their
    checks (checking mode scans the block-row offsets: the block columns are only copied)."""
    nnz, m = nnzb * rbd * cbd, mb * rbd
    bsr_row_ptr = c.array("bsr_row_ptr", mb + 1, itype)
    check_offsets(c, bsr_row_ptr, bsr_base, nnzb)
    c.launch(kf.bsr_to_csr, int(direction), words(c.array("bsr_val", nnz)), bsr_row_ptr,
             c.array("bsr_col_ind", nnzb, itype), bsr_base, rbd, cbd, csr_base, words(c.array("csr_val", nnz)),
             c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype),
             bytes=float(nnz * (2 * c.dtype.itemsize + itype.itemsize) + (mb + nnzb + m) * itype.itemsize))


BSR2CSR = Routine("bsr2csr", ("dir", "mb", "nb", "bsr_descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind", "block_dim",
                              "csr_descr", "csr_val", "csr_row_ptr", "csr_col_ind"), _bsr2csr,
                  "Convert an mb x nb BSR matrix to an (mb block_dim) x (nb block_dim) CSR matrix holding every "
                  "element of every block.")

sbsr2csr = bind(BSR2CSR, S)
dbsr2csr = bind(BSR2CSR, D)
cbsr2csr = bind(BSR2CSR, C)
zbsr2csr = bind(BSR2CSR, Z)


def _bsrmv_head(c: Call) -> tuple[MatDescr, Direction, int, int, int, int]:
    """bsrmv's and bsrmv_analysis's checks after the descriptor (and info): the enums, operation none only,
    a general matrix, the sizes; returns ``(descr, dir, mb, nb, nnzb, block_dim)``."""
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    direction = c.enum("dir", Direction)
    trans = c.enum("trans", Operation)
    if trans is not Operation.none:
        raise SparseNotImplementedError(f"{c.fname} supports operation none only", arg="trans",
                                        index=c.index("trans"))
    _descr(c, "descr", sorted_=False)
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    return descr, direction, mb, nb, nnzb, _block_dim(c)


def _bsrmv_analysis(c: Call) -> None:
    check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    descr, _, mb, nb, nnzb, bd = _bsrmv_head(c)
    if mb == 0 or nb == 0 or nnzb == 0:
        return
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    if descr.storage_mode is StorageMode.sorted:  # rocSPARSE analyses sorted matrices only
        itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
        analyse_rows(c, info, Operation.none, mb, nb, nnzb, nnzb * bd * bd, descr,
                     c.array("bsr_row_ptr", mb + 1, itype), c.ptr("bsr_col_ind"), "csrmv" if bd == 1 else "bsrmv")


def _bsrmv(c: Call) -> None:
    descr, direction, mb, nb, nnzb, bd = _bsrmv_head(c)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    if mb == 0 or nb == 0 or nnzb == 0:
        _quick_scale(c, bd * mb)
        return
    if _nothing_to_do(c):
        return
    c.check_array("bsr_val", nnzb * bd * bd)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    c.pointer("x")
    c.pointer("y")
    bounds = None
    if descr.storage_mode is StorageMode.sorted:
        # rocSPARSE checks the analysis against the call for 1 x 1 blocks (its csrmv path) and ignores it otherwise.
        bounds = analysed_bounds(c, Operation.none, mb, nb, nnzb, descr, "bsr_row_ptr", "bsr_col_ind", strict=bd == 1,
                                 slot="csrmv" if bd == 1 else "bsrmv")
    launch_block_rows(c, direction, False, c.scalar("alpha"), c.array("bsr_row_ptr", mb + 1, itype),
                      int(descr.base), -1, c.array("bsr_col_ind", nnzb, itype), c.array("bsr_val", nnzb * bd * bd),
                      bd, _column(c, "x", nb * bd), c.scalar("beta"), _column(c, "y", mb * bd), nnzb, bounds)


_BSRMV_MATRIX = ("dir", "trans", "mb", "nb", "nnzb")
_BSRMV_ARRAYS = ("bsr_val", "bsr_row_ptr", "bsr_col_ind", "block_dim", "info")
_BSRMV_ANALYSIS_DOC = ("Analyse a BSR matrix (sorted storage) for bsrmv: a partition of its block rows balanced by "
                       "stored blocks, kept in info (1 x 1 blocks: csrmv's analysis; bsrmv_clear and csrmv_clear "
                       "free it).")
_BSRMV_DOC = ("y := alpha A x + beta y for an mb x nb BSR matrix A of block_dim blocks (info: None, or analysed by "
              "bsrmv_analysis: its block-row partition is used).")

BSRMV_ANALYSIS = Routine("bsrmv_analysis", (*_BSRMV_MATRIX, "descr", *_BSRMV_ARRAYS), _bsrmv_analysis,
                         _BSRMV_ANALYSIS_DOC)
BSRMV = Routine("bsrmv", (*_BSRMV_MATRIX, "alpha", "descr", *_BSRMV_ARRAYS, "x", "beta", "y"), _bsrmv, _BSRMV_DOC,
                replay=True)
# rocSPARSE's deprecated names of the same routines.
BSRMV_EX_ANALYSIS = Routine("bsrmv_ex_analysis", BSRMV_ANALYSIS.params, _bsrmv_analysis,
                            "Deprecated name of bsrmv_analysis.  " + _BSRMV_ANALYSIS_DOC)
BSRMV_EX = Routine("bsrmv_ex", BSRMV.params, _bsrmv, "Deprecated name of bsrmv.  " + _BSRMV_DOC, replay=True)

sbsrmv_analysis = bind(BSRMV_ANALYSIS, S)
dbsrmv_analysis = bind(BSRMV_ANALYSIS, D)
cbsrmv_analysis = bind(BSRMV_ANALYSIS, C)
zbsrmv_analysis = bind(BSRMV_ANALYSIS, Z)
sbsrmv = bind(BSRMV, S)
dbsrmv = bind(BSRMV, D)
cbsrmv = bind(BSRMV, C)
zbsrmv = bind(BSRMV, Z)
sbsrmv_ex_analysis = bind(BSRMV_EX_ANALYSIS, S)
dbsrmv_ex_analysis = bind(BSRMV_EX_ANALYSIS, D)
cbsrmv_ex_analysis = bind(BSRMV_EX_ANALYSIS, C)
zbsrmv_ex_analysis = bind(BSRMV_EX_ANALYSIS, Z)
sbsrmv_ex = bind(BSRMV_EX, S)
dbsrmv_ex = bind(BSRMV_EX, D)
cbsrmv_ex = bind(BSRMV_EX, C)
zbsrmv_ex = bind(BSRMV_EX, Z)


bsrmv_clear = bind(Routine("bsrmv_clear", ("info",), _csrmv_clear,
                           "Free the bsrmv analysis kept in info (rocSPARSE's csrmv_clear: the analysis is shared)."),
                   None)
bsrmv_ex_clear = bind(Routine("bsrmv_ex_clear", ("info",), _csrmv_clear, "Deprecated name of bsrmv_clear."), None)


def block_mm_operands(c: Call, trans_b: Operation, mb: int, n: int, kb: int, rbd: int, cbd: int,
                      itype: np.dtype[Any]) -> tuple[Buffer, Buffer] | None:
    """The dense operands of bsrmm and gebsrmm (``rbd x cbd`` blocks), after their remaining checks in
    rocSPARSE's order: None after the quick return of an empty product (C := beta C when C is not empty);
    else ``(op(B), C)`` views, ``op(B)`` indexed [row of op(B), column]."""
    m, kdim = mb * rbd, kb * cbd
    if mb == 0 or n == 0 or kb == 0:
        if m * n > 0:
            c.pointer("beta")
            c.pointer("C")
            ldc = _ld(c, "ldc", max(1, m))
            scale_rows(c, c.scalar("beta"), dense_view(c["C"], c.ptr("C"), c.dtype, m, n, ldc, Order.column,
                                                       name="C"), itype)
        return None
    c.pointer("alpha")
    c.pointer("B")
    ldb = c.size("ldb")
    c.pointer("beta")
    c.pointer("C")
    ldc = _ld(c, "ldc", max(1, m))
    need_b = kdim if trans_b is Operation.none else n
    if ldb < max(1, need_b):
        raise c.invalid_size("ldb", f"must be >= max(1, {need_b}), got {ldb}")
    if trans_b is Operation.none:
        B = dense_view(c["B"], c.ptr("B"), c.dtype, kdim, n, ldb, Order.column, name="B")
    else:
        B = dense_view(c["B"], c.ptr("B"), c.dtype, n, kdim, ldb, Order.column, transposed=True, name="B")
    return B, dense_view(c["C"], c.ptr("C"), c.dtype, m, n, ldc, Order.column, name="C")


def _bsrmm(c: Call) -> None:
    direction = c.enum("dir", Direction)
    trans_a = c.enum("trans_A", Operation)
    if trans_a is not Operation.none:
        raise SparseNotImplementedError("bsrmm supports trans_A none only", arg="trans_A", index=c.index("trans_A"))
    trans_b = c.enum("trans_B", Operation)
    if trans_b is Operation.conjugate_transpose:
        raise SparseNotImplementedError("bsrmm supports trans_B none or transpose", arg="trans_B",
                                        index=c.index("trans_B"))
    mb, n, kb, nnzb = c.size("mb"), c.size("n"), c.size("kb"), c.size("nnzb")
    descr = _descr(c, "descr")
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    bd = _block_dim(c)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    dense = block_mm_operands(c, trans_b, mb, n, kb, bd, bd, itype)
    if dense is None:
        return
    B, Cm = dense
    launch_block_rows(c, direction, False, c.scalar("alpha"), c.array("bsr_row_ptr", mb + 1, itype),
                      int(descr.base), -1, c.array("bsr_col_ind", nnzb, itype), c.array("bsr_val", nnzb * bd * bd),
                      bd, B, c.scalar("beta"), Cm, nnzb)


BSRMM = Routine("bsrmm", ("dir", "trans_A", "trans_B", "mb", "n", "kb", "nnzb", "alpha", "descr", "bsr_val",
                          "bsr_row_ptr", "bsr_col_ind", "block_dim", "B", "ldb", "beta", "C", "ldc"), _bsrmm,
                "C := alpha A op(B) + beta C for an mb x kb BSR matrix A and column-major dense B and C.")

sbsrmm = bind(BSRMM, S)
dbsrmm = bind(BSRMM, D)
cbsrmm = bind(BSRMM, C)
zbsrmm = bind(BSRMM, Z)


# --- gemvi / gemmi --------------------------------------------------------------------------------------


def _gemvi_buffer_size(precision: Precision) -> Callable[..., int]:
    """``rocsparse_Xgemvi_buffer_size``: gemvi needs no temp_buffer.  Unlike every bound routine, rocSPARSE's
    checks nothing here, not even the handle, and does not log: so a plain function, not :func:`bind`."""
    def entry(handle: Any, trans: Any, m: Any, n: Any, nnz: Any) -> int:
        return 0

    entry.__name__ = entry.__qualname__ = f"{precision.letter}gemvi_buffer_size"
    entry.__module__ = "rocmath.sparse"
    entry.__doc__ = (f"rocsparse_{entry.__name__}(handle, trans, m, n, nnz)\n\nBytes of temp_buffer gemvi needs "
                     f"(returned): 0, whatever the arguments (rocSPARSE checks none).\n\nPrecision "
                     f"{precision.datatype}.")
    return entry


sgemvi_buffer_size = _gemvi_buffer_size(S)
dgemvi_buffer_size = _gemvi_buffer_size(D)
cgemvi_buffer_size = _gemvi_buffer_size(C)
zgemvi_buffer_size = _gemvi_buffer_size(Z)


def _gemvi(c: Call) -> None:
    trans = c.enum("trans", Operation)
    base = c.enum("idx_base", IndexBase)
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    if nnz > n:
        raise c.invalid_size("nnz", f"must be <= n = {n}, got {nnz}")
    lda = _ld(c, "lda", m if trans is Operation.none else n)
    if m == 0:
        return
    c.pointer("alpha")
    if n > 0 and nnz > 0:
        c.pointer("A")
        c.pointer("x_val")
        c.pointer("x_ind")
    c.pointer("beta")
    c.pointer("y")
    if c.alpha0_beta1():
        return
    if trans is not Operation.none:
        raise SparseNotImplementedError("gemvi supports operation none only", arg="trans", index=c.index("trans"))
    itype = c.index_dtype("x_ind")
    if nnz == 0:
        scale_rows(c, c.scalar("beta"), _column(c, "y", m), itype)
        return
    # x as a one-row CSR matrix times A^T: y^T := alpha x^T A^T + beta y^T.
    row_ptr = np.array([int(base), int(base) + nnz], itype)
    At = dense_view(c["A"], c.ptr("A"), c.dtype, m, n, lda, Order.column, transposed=True, name="A")
    y = Buffer(c.ptr("y"), c.dtype, (1, m), name="y", owner=c["y"])
    x_ind = c.array("x_ind", nnz, itype)
    check_indices(c, x_ind, int(base), n, "entries of x")  # (the one-row pointer is rocmath's own)
    launch_block_rows(c, Direction.row, False, c.scalar("alpha"), row_ptr, int(base), -1, x_ind,
                      c.array("x_val", nnz), 1, At, c.scalar("beta"), y, nnz * m, scanned=True)


GEMVI = Routine("gemvi", ("trans", "m", "n", "alpha", "A", "lda", "nnz", "x_val", "x_ind", "beta", "y", "idx_base",
                          "temp_buffer"), _gemvi,
                "y := alpha A x + beta y for a column-major m x n dense A and a sparse x (x_val, x_ind).")

sgemvi = bind(GEMVI, S)
dgemvi = bind(GEMVI, D)
cgemvi = bind(GEMVI, C)
zgemvi = bind(GEMVI, Z)


def _gemmi(c: Call) -> None:
    trans_a = c.enum("trans_A", Operation)
    trans_b = c.enum("trans_B", Operation)
    m, n, kdim, nnz = c.size("m"), c.size("n"), c.size("k"), c.size("nnz")
    if m == 0 or n == 0:
        return
    if trans_a is not Operation.none:
        raise SparseNotImplementedError("gemmi supports trans_A none only", arg="trans_A", index=c.index("trans_A"))
    if trans_b is not Operation.transpose:
        raise SparseNotImplementedError("gemmi supports trans_B transpose only", arg="trans_B",
                                        index=c.index("trans_B"))
    descr = _descr(c, "descr", sorted_=False)
    c.check_array("alpha", kdim)
    c.check_array("A", kdim)
    lda = _ld(c, "lda", max(1, m))
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)  # rocSPARSE checks B's row pointer against m (it has n + 1 entries)
    c.check_array("csr_col_ind", nnz)
    c.pointer("beta")
    c.pointer("C")
    ldc = _ld(c, "ldc", max(1, m))
    # C^T := alpha B A^T + beta C^T: B (n x k CSR) times the k x m view of A^T, into the n x m view of C^T.
    Ct = dense_view(c["C"], c.ptr("C"), c.dtype, m, n, ldc, Order.column, transposed=True, name="C")
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    if kdim == 0 or (c.host_mode and c.host_value("alpha") == 0):
        scale_rows(c, c.scalar("beta"), Ct, itype)
        return
    At = dense_view(c["A"], c.ptr("A"), c.dtype, m, kdim, lda, Order.column, transposed=True, name="A")
    launch_block_rows(c, Direction.row, False, c.scalar("alpha"), c.array("csr_row_ptr", n + 1, itype),
                      int(descr.base), -1, c.array("csr_col_ind", nnz, itype), c.array("csr_val", nnz), 1, At,
                      c.scalar("beta"), Ct, nnz)


GEMMI = Routine("gemmi", ("trans_A", "trans_B", "m", "n", "k", "nnz", "alpha", "A", "lda", "descr", "csr_val",
                          "csr_row_ptr", "csr_col_ind", "beta", "C", "ldc"), _gemmi,
                "C := alpha A B^T + beta C for a column-major m x k dense A and an n x k CSR matrix B "
                "(trans_A none, trans_B transpose).")

sgemmi = bind(GEMMI, S)
dgemmi = bind(GEMMI, D)
cgemmi = bind(GEMMI, C)
zgemmi = bind(GEMMI, Z)


# --- prune ----------------------------------------------------------------------------------------------


def _percentage(c: Call) -> float:
    """A percentage argument, a value in [0, 100] (``invalid_value`` otherwise)."""
    v = c["percentage"]
    ok = not isinstance(v, bool) and isinstance(v, (int, float, np.integer, np.floating)) and 0 <= v <= 100
    if not ok:
        raise c.invalid_value("percentage", f"must be a number in [0, 100], got {v!r}")
    return float(v)


def _percentile_pos(c: Call, count: int, percentage: float) -> int:
    """rocSPARSE's ``ceil(count * (percentage / 100)) - 1`` in the routine's precision, clamped to the array."""
    t = c.dtype.type
    pos = int(np.ceil(t(count) * (t(percentage) / t(100)))) - 1
    return max(min(pos, count - 1), 0)


def _threshold_in(c: Call) -> Buffer:
    """The by-percentage threshold the nnz stage left at the start of temp_buffer."""
    return Buffer(c.ptr("temp_buffer"), c.dtype, (1,), name="temp_buffer", owner=c["temp_buffer"])


def _nnz_threshold(c: Call, percentage: bool, values: Buffer, count: int, moved: float) -> Any:
    """The nnz stages' threshold: the argument, or by percentage the magnitude at rocSPARSE's position among
    the ``count`` entries of the 2-D view ``values``, found (sorting in temp_buffer) and kept at the start of
    temp_buffer for the conversion."""
    if not percentage:
        return c.scalar("threshold")
    work = Buffer(c.ptr("temp_buffer"), c.dtype, (count,), name="temp_buffer", owner=c["temp_buffer"])
    c.launch(kf.percentile_threshold, values, _percentile_pos(c, count, _percentage(c)), work, bytes=moved)
    return _threshold_in(c)


def _dense_a(c: Call, m: int, n: int, lda: int) -> Buffer:
    return dense_view(c["A"], c.ptr("A"), c.dtype, m, n, lda, Order.column, name="A")


def _prune_dense_head(c: Call, reads_a: bool, percentage: bool) -> tuple[int, int, int, MatDescr]:
    """The checks every prune_dense2csr stage starts with (``reads_a``: A and the threshold checked here, as
    the buffer_size and nnz stages do); returns ``(m, n, lda, descr)``."""
    m, n = c.size("m"), c.size("n")
    if reads_a:
        c.check_array("A", m * n)
    lda = _ld(c, "lda", m)
    if percentage:
        _percentage(c)
    elif reads_a:
        c.pointer("threshold")
    d = _descr(c, "descr", general=False)
    return m, n, lda, d


def _prune_dense_buffer_size(c: Call, percentage: bool) -> int:
    m, n, _, _ = _prune_dense_head(c, True, percentage)
    c.check_array("csr_row_ptr", m)
    if percentage:
        check_info(c["info"], "info", c.index("info"))
        return 2 * m * n * c.dtype.itemsize  # the magnitudes, sorted (rocSPARSE: a sort's double buffer)
    return 0


def _nnz_quick(c: Call, row_ptr: str, m: int, base: int, itype: np.dtype[Any]) -> int | None:
    """The nnz stages' quick return: with the row pointer (and, in device mode, the total) non-null, an empty
    matrix (row pointer = base, 0 nonzeros); else nothing is written."""
    if (c.host_mode or not is_null(c["nnz_total_dev_host_ptr"])) and not is_null(c[row_ptr]):
        _fill(c, row_ptr, m + 1, base, itype)
        return _zero_count(c, "nnz_total_dev_host_ptr")
    return 0 if c.host_mode else None


def _prune_dense_nnz(c: Call, percentage: bool) -> int | None:
    m, n, lda, d = _prune_dense_head(c, True, percentage)
    c.check_array("csr_row_ptr", m)
    if percentage:
        check_info(c["info"], "info", c.index("info"))
    itype = c.index_dtype("csr_row_ptr")
    if m == 0 or n == 0:
        return _nnz_quick(c, "csr_row_ptr", m, int(d.base), itype)
    if not c.host_mode:
        c.pointer("nnz_total_dev_host_ptr")
    A = _dense_a(c, m, n, lda)
    if percentage:
        c.pointer("temp_buffer")
    threshold = _nnz_threshold(c, percentage, A, m * n, float(2 * m * n * c.dtype.itemsize))
    total, host = _count_target(c, "nnz_total_dev_host_ptr", itype)
    task = c.launch(kf.prune_dense, False, A, threshold, int(d.base), c.array("csr_row_ptr", m + 1, itype), total,
                    _empty(c.dtype), _empty(itype), bytes=float(m * n * c.dtype.itemsize + (m + 1) * itype.itemsize))
    return _count_result(task, host)


def _prune_dense(c: Call, percentage: bool) -> None:
    m, n, lda, d = _prune_dense_head(c, False, percentage)
    c.check_array("csr_row_ptr", m)
    if m == 0 or n == 0:
        return
    c.pointer("A")
    if percentage:
        check_info(c["info"], "info", c.index("info"))
        c.pointer("temp_buffer")
        threshold: Any = _threshold_in(c)
    else:
        c.pointer("threshold")
        threshold = c.scalar("threshold")
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    nnz = _span(c, "csr_row_ptr", m, itype)
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    row_ptr = c.array("csr_row_ptr", m + 1, itype)
    check_offsets(c, row_ptr, int(d.base), nnz)  # checking mode: the row pointer places the entries
    c.launch(kf.prune_dense, True, _dense_a(c, m, n, lda), threshold, int(d.base), row_ptr,
             np.zeros(1, itype), c.array("csr_val", nnz), c.array("csr_col_ind", nnz, itype),
             bytes=float(m * n * c.dtype.itemsize + nnz * (c.dtype.itemsize + itype.itemsize)))


_DENSE_BUF = ("m", "n", "A", "lda", "threshold", "descr", "csr_val", "csr_row_ptr", "csr_col_ind")
_DENSE_NNZ = ("m", "n", "A", "lda", "threshold", "descr", "csr_row_ptr", "nnz_total_dev_host_ptr", "temp_buffer")
_DENSE = ("m", "n", "A", "lda", "threshold", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "temp_buffer")
_DENSE_PBUF = ("m", "n", "A", "lda", "percentage", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info")
_DENSE_PNNZ = ("m", "n", "A", "lda", "percentage", "descr", "csr_row_ptr", "nnz_total_dev_host_ptr", "info",
               "temp_buffer")
_DENSE_P = ("m", "n", "A", "lda", "percentage", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info",
            "temp_buffer")

PRUNE_DENSE2CSR_BUFFER_SIZE = Routine("prune_dense2csr_buffer_size", _DENSE_BUF,
                                      lambda c: _prune_dense_buffer_size(c, False),
                                      "Bytes of temp_buffer prune_dense2csr_nnz / prune_dense2csr need (returned).")
PRUNE_DENSE2CSR_NNZ = Routine("prune_dense2csr_nnz", _DENSE_NNZ, lambda c: _prune_dense_nnz(c, False),
                              "The CSR row pointer of the entries of a column-major m x n matrix with |a| > "
                              "threshold; their number returned (host pointer mode) or written (device mode).")
PRUNE_DENSE2CSR = Routine("prune_dense2csr", _DENSE, lambda c: _prune_dense(c, False),
                          "The entries with |a| > threshold of a column-major m x n matrix as CSR.")
PRUNE_DENSE2CSR_BY_PERCENTAGE_BUFFER_SIZE = Routine(
    "prune_dense2csr_by_percentage_buffer_size", _DENSE_PBUF, lambda c: _prune_dense_buffer_size(c, True),
    "Bytes of temp_buffer the by-percentage prune of a dense matrix needs (returned).")
PRUNE_DENSE2CSR_NNZ_BY_PERCENTAGE = Routine(
    "prune_dense2csr_nnz_by_percentage", _DENSE_PNNZ, lambda c: _prune_dense_nnz(c, True),
    "The CSR row pointer after pruning the smallest percentage of a dense matrix's magnitudes; keeps the threshold "
    "in temp_buffer for prune_dense2csr_by_percentage.")
PRUNE_DENSE2CSR_BY_PERCENTAGE = Routine(
    "prune_dense2csr_by_percentage", _DENSE_P, lambda c: _prune_dense(c, True),
    "The entries of a dense matrix above the threshold prune_dense2csr_nnz_by_percentage found, as CSR.")

sprune_dense2csr_buffer_size = bind(PRUNE_DENSE2CSR_BUFFER_SIZE, S)
dprune_dense2csr_buffer_size = bind(PRUNE_DENSE2CSR_BUFFER_SIZE, D)
sprune_dense2csr_nnz = bind(PRUNE_DENSE2CSR_NNZ, S)
dprune_dense2csr_nnz = bind(PRUNE_DENSE2CSR_NNZ, D)
sprune_dense2csr = bind(PRUNE_DENSE2CSR, S)
dprune_dense2csr = bind(PRUNE_DENSE2CSR, D)
sprune_dense2csr_by_percentage_buffer_size = bind(PRUNE_DENSE2CSR_BY_PERCENTAGE_BUFFER_SIZE, S)
dprune_dense2csr_by_percentage_buffer_size = bind(PRUNE_DENSE2CSR_BY_PERCENTAGE_BUFFER_SIZE, D)
sprune_dense2csr_nnz_by_percentage = bind(PRUNE_DENSE2CSR_NNZ_BY_PERCENTAGE, S)
dprune_dense2csr_nnz_by_percentage = bind(PRUNE_DENSE2CSR_NNZ_BY_PERCENTAGE, D)
sprune_dense2csr_by_percentage = bind(PRUNE_DENSE2CSR_BY_PERCENTAGE, S)
dprune_dense2csr_by_percentage = bind(PRUNE_DENSE2CSR_BY_PERCENTAGE, D)


#: rocSPARSE's compress kernels (prune_csr2csr's count and copy) also drop every |a| <= FLT_MIN.
_FLT_MIN = float(np.finfo(np.float32).tiny)


def _compress_threshold(c: Call, threshold: Any) -> Any:
    """The threshold the CSR prune kernels compare with: ``max(threshold, FLT_MIN)`` (rocSPARSE keeps
    ``|a| > threshold and |a| > FLT_MIN``), a host array or, for a device threshold, a workspace copy."""
    if isinstance(threshold, np.ndarray):
        return np.maximum(threshold, c.dtype.type(_FLT_MIN))
    out = c.workspace(c.dtype.itemsize, c.dtype, (1,), "threshold")
    c.launch(_floor_into, threshold, out, bytes=2.0 * c.dtype.itemsize)
    return out


def _floor_into(src: np.ndarray, dst: np.ndarray) -> None:
    dst[0] = np.maximum(src[0], dst.dtype.type(_FLT_MIN))


def _read_threshold(c: Call) -> Any:
    """The threshold's value on the host, a device one copied back (synchronously, as rocSPARSE does)."""
    if c.host_mode:
        return c.host_value("threshold")
    out = np.zeros(1, c.dtype)
    c.launch(_copy, c.scalar("threshold"), out, bytes=float(c.dtype.itemsize)).wait()
    return out[0]


def _prune_csr_head(c: Call, percentage: bool, threshold_now: bool) -> tuple[int, int, int, MatDescr, MatDescr]:
    """The checks every prune_csr2csr stage starts with; returns ``(m, n, nnz_A, descr_A, descr_C)``."""
    m, n, nnz_a = c.size("m"), c.size("n"), c.size("nnz_A")
    da = _descr(c, "csr_descr_A", general=False)
    c.check_array("csr_val_A", nnz_a)
    c.check_array("csr_row_ptr_A", m)
    c.check_array("csr_col_ind_A", nnz_a)
    if percentage:
        _percentage(c)
    elif threshold_now:
        c.pointer("threshold")
    dc = _descr(c, "csr_descr_C", general=False)
    return m, n, nnz_a, da, dc


def _prune_csr_buffer_size(c: Call, percentage: bool) -> int:
    _, _, nnz_a, _, _ = _prune_csr_head(c, percentage, True)
    c.check_array("csr_row_ptr_C", c.size("m"))
    if percentage:
        check_info(c["info"], "info", c.index("info"))
        return max(2 * nnz_a * c.dtype.itemsize, 512)
    return 0


def _csr_a(c: Call, m: int, nnz_a: int, *more: str) -> tuple[Buffer, Buffer, Buffer, np.dtype[Any]]:
    """A's arrays as kernel operands, and the index type of A's and C's index arrays."""
    itype = c.index_dtype("csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_C", *more)
    return (c.array("csr_val_A", nnz_a), c.array("csr_row_ptr_A", m + 1, itype),
            c.array("csr_col_ind_A", nnz_a, itype), itype)


def _prune_csr_nnz(c: Call, percentage: bool) -> int | None:
    m, n, nnz_a, da, dc = _prune_csr_head(c, percentage, False)
    c.check_array("csr_row_ptr_C", m)
    if percentage:
        check_info(c["info"], "info", c.index("info"))
        c.pointer("temp_buffer")
    itype = c.index_dtype("csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_C")
    if m == 0 or n == 0 or nnz_a == 0:
        return _nnz_quick(c, "csr_row_ptr_C", m, int(dc.base), itype)
    if not percentage:
        c.pointer("threshold")
    if not c.host_mode:
        c.pointer("nnz_total_dev_host_ptr")
    val, row_ptr, col_ind, itype = _csr_a(c, m, nnz_a)
    if percentage:
        values = Buffer(val.ptr, val.dtype, (1, nnz_a), name=val.name, owner=val.owner)
        threshold = _compress_threshold(c, _nnz_threshold(c, True, values, nnz_a, float(3 * nnz_a * c.dtype.itemsize)))
    else:
        # rocSPARSE reads the threshold on the host (either pointer mode) and its count rejects a negative one
        t = _read_threshold(c)
        if t < 0:
            raise c.invalid_value("threshold", f"must be >= 0, got {t}")
        threshold = _compress_threshold(c, np.array([t], c.dtype))
    total, host = _count_target(c, "nnz_total_dev_host_ptr", itype)
    check_offsets(c, row_ptr, int(da.base), nnz_a)  # checking mode (A's columns are only copied)
    task = c.launch(kf.prune_csr, False, val, row_ptr, col_ind, int(da.base), threshold,
                    c.array("csr_row_ptr_C", m + 1, itype), int(dc.base), total, _empty(c.dtype), _empty(itype),
                    bytes=float(nnz_a * c.dtype.itemsize + 2 * (m + 1) * itype.itemsize))
    return _count_result(task, host)


def _prune_csr(c: Call, percentage: bool) -> None:
    m, n, nnz_a, da, dc = _prune_csr_head(c, percentage, False)
    c.check_array("csr_row_ptr_C", m)
    if percentage:
        check_info(c["info"], "info", c.index("info"))
        c.pointer("temp_buffer")
    if m == 0 or n == 0:
        return
    if percentage:
        threshold: Any = _threshold_in(c)
    else:
        c.pointer("threshold")
        threshold = c.scalar("threshold")
    threshold = _compress_threshold(c, threshold)
    val, row_ptr, col_ind, itype = _csr_a(c, m, nnz_a, "csr_col_ind_C")
    nnz_c = _span(c, "csr_row_ptr_C", m, itype)
    c.check_array("csr_val_C", nnz_c)
    c.check_array("csr_col_ind_C", nnz_c)
    row_ptr_c = c.array("csr_row_ptr_C", m + 1, itype)
    # checking mode: A's row pointer reads its entries, C's places them (the columns are only copied)
    check_offsets(c, row_ptr, int(da.base), nnz_a)
    check_offsets(c, row_ptr_c, int(dc.base), nnz_c)
    c.launch(kf.prune_csr, True, val, row_ptr, col_ind, int(da.base), threshold, row_ptr_c, int(dc.base),
             np.zeros(1, itype), c.array("csr_val_C", nnz_c), c.array("csr_col_ind_C", nnz_c, itype),
             bytes=float((nnz_a + nnz_c) * (c.dtype.itemsize + itype.itemsize)))


_CSR_A = ("m", "n", "nnz_A", "csr_descr_A", "csr_val_A", "csr_row_ptr_A", "csr_col_ind_A")
_CSR_C = ("csr_descr_C", "csr_val_C", "csr_row_ptr_C", "csr_col_ind_C")
_CSR_C_NNZ = ("csr_descr_C", "csr_row_ptr_C", "nnz_total_dev_host_ptr")

PRUNE_CSR2CSR_BUFFER_SIZE = Routine("prune_csr2csr_buffer_size", (*_CSR_A, "threshold", *_CSR_C),
                                    lambda c: _prune_csr_buffer_size(c, False),
                                    "Bytes of temp_buffer prune_csr2csr_nnz / prune_csr2csr need (returned).")
PRUNE_CSR2CSR_NNZ = Routine("prune_csr2csr_nnz", (*_CSR_A, "threshold", *_CSR_C_NNZ, "temp_buffer"),
                            lambda c: _prune_csr_nnz(c, False),
                            "C's row pointer: the entries of A with |a| > threshold; their number returned (host "
                            "pointer mode) or written (device mode).")
PRUNE_CSR2CSR = Routine("prune_csr2csr", (*_CSR_A, "threshold", *_CSR_C, "temp_buffer"),
                        lambda c: _prune_csr(c, False), "C := the entries of the CSR matrix A with |a| > threshold.")
PRUNE_CSR2CSR_BY_PERCENTAGE_BUFFER_SIZE = Routine(
    "prune_csr2csr_by_percentage_buffer_size", (*_CSR_A, "percentage", *_CSR_C, "info"),
    lambda c: _prune_csr_buffer_size(c, True),
    "Bytes of temp_buffer the by-percentage prune of a CSR matrix needs (returned).")
PRUNE_CSR2CSR_NNZ_BY_PERCENTAGE = Routine(
    "prune_csr2csr_nnz_by_percentage", (*_CSR_A, "percentage", *_CSR_C_NNZ, "info", "temp_buffer"),
    lambda c: _prune_csr_nnz(c, True),
    "C's row pointer after pruning the smallest percentage of A's magnitudes; keeps the threshold in temp_buffer for "
    "prune_csr2csr_by_percentage.")
PRUNE_CSR2CSR_BY_PERCENTAGE = Routine(
    "prune_csr2csr_by_percentage", (*_CSR_A, "percentage", *_CSR_C, "info", "temp_buffer"),
    lambda c: _prune_csr(c, True),
    "C := the entries of A above the threshold prune_csr2csr_nnz_by_percentage found.")

sprune_csr2csr_buffer_size = bind(PRUNE_CSR2CSR_BUFFER_SIZE, S)
dprune_csr2csr_buffer_size = bind(PRUNE_CSR2CSR_BUFFER_SIZE, D)
sprune_csr2csr_nnz = bind(PRUNE_CSR2CSR_NNZ, S)
dprune_csr2csr_nnz = bind(PRUNE_CSR2CSR_NNZ, D)
sprune_csr2csr = bind(PRUNE_CSR2CSR, S)
dprune_csr2csr = bind(PRUNE_CSR2CSR, D)
sprune_csr2csr_by_percentage_buffer_size = bind(PRUNE_CSR2CSR_BY_PERCENTAGE_BUFFER_SIZE, S)
dprune_csr2csr_by_percentage_buffer_size = bind(PRUNE_CSR2CSR_BY_PERCENTAGE_BUFFER_SIZE, D)
sprune_csr2csr_nnz_by_percentage = bind(PRUNE_CSR2CSR_NNZ_BY_PERCENTAGE, S)
dprune_csr2csr_nnz_by_percentage = bind(PRUNE_CSR2CSR_NNZ_BY_PERCENTAGE, D)
sprune_csr2csr_by_percentage = bind(PRUNE_CSR2CSR_BY_PERCENTAGE, S)
dprune_csr2csr_by_percentage = bind(PRUNE_CSR2CSR_BY_PERCENTAGE, D)
