"""General BSR (GEBSR: ``row_block_dim x col_block_dim`` blocks) and compress routines.

Routines, with rocSPARSE's names, argument order, check order, statuses and quick returns (its
``*_impl`` / ``*_checkarg`` code, ``library/src/conversion``, ``level2``, ``level3``):

- ``Xcsr2gebsr_buffer_size`` (0, as rocSPARSE), ``csr2gebsr_nnz``, ``Xcsr2gebsr``: a block is stored when a
  stored CSR entry (whatever its value) falls in it, block columns ascending, the other elements zero; ``m``
  and ``n`` need not be multiples of the block dimensions (the last blocks are padded with zeros);
- ``Xgebsr2csr``: every element of every block (zeros included), an ``(mb row_block_dim) x (nb col_block_dim)``
  CSR matrix, each row's blocks in storage order;
- ``Xgebsr2gebsc_buffer_size``, ``Xgebsr2gebsc``: the transpose's block structure (a stable sort by block
  column: block rows ascending within a block column); each block's values are copied as they are, not
  transposed (rocSPARSE's ``gebsr2gebsc_permute_kernel``); ``idx_base`` is the base of both; ``copy_values``
  symbolic leaves ``bsc_val`` alone;
- ``Xgebsr2gebsr_buffer_size``, ``gebsr2gebsr_nnz``, ``Xgebsr2gebsr``: the matrix of A (``mb row_block_dim_A x
  nb col_block_dim_A``, padding included) in ``row_block_dim_C x col_block_dim_C`` blocks; a block of C is
  stored when it overlaps a stored block of A, whatever its values (rocSPARSE's ``gebsr2gebsr_nnz_fast_kernel``);
  ``dir`` is the layout of both;
- ``Xgebsrmv`` (operation none, as rocSPARSE) and ``Xgebsrmm`` (trans_A none, trans_B none or transpose):
  ``y := alpha A x + beta y`` and ``C := alpha A op(B) + beta C``, column-major B and C; beta == 0 never reads
  y or C, ``alpha == 0 and beta == 1`` leaves them alone;
- ``Xnnz_compress``, ``Xcsr2csr_compress``: entries kept when ``|a| > real(tol)`` and ``|a| > FLT_MIN`` (a
  float's, in every precision: explicit zeros and NaN go, duplicates stay); ``tol`` is a value whose real part
  must be ``>= 0`` (``invalid_value``).  csr2csr_compress builds C's row pointer from the caller's
  ``nnz_per_row`` (base: A's) and packs the kept entries of A's ``nnz_A`` entries in storage order, as
  rocSPARSE's warp kernels do, stopping where C's arrays end;
- ``cscsort_buffer_size``, ``cscsort``: csrsort of the transpose's roles (rocSPARSE calls its csrsort);
- ``inverse_permutation``: ``q[p[i] - base] = i + base``.

As in the rest of rocmath.sparse, counts computed on the device (``bsr_nnz_devhost``,
``nnz_total_dev_host_ptr``, ``nnz_C``) are returned in host pointer mode (the argument may then be None)
and written in device pointer mode; buffer sizes are returned.  Square blocks (``row_block_dim ==
col_block_dim``) run the BSR routines' kernels, as rocSPARSE hands them to its BSR code (1 x 1 products:
csrmv's).

Deviations: rocSPARSE's kernel-size limits are not reproduced (its gebsr2csr returns ``not_implemented``
for non-square blocks with a dimension above 128 and, through its bsr2csr, for square blocks above 256, and
gebsr2gebsr for row_block_dim_C > 32 converts through it): any block size works, as in rocmath's bsr2csr;
``temp_buffer`` is checked as rocSPARSE does but never written; gebsrmm (like rocmath's bsrmm) checks
``beta``, ``C`` and ``ldc`` before its quick-return scaling, and the products' quick returns check ``beta``
and ``y`` (``C``) one by one where rocSPARSE fails only when both are null; ``nnz_compress``'s
negative-span ``invalid_size`` names ``csr_row_ptr_A``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels as k
from . import _kernels_conv as kc
from . import _kernels_formats as kf
from . import _kernels_gebsr as kg
from ._api import Call, Routine, bind, is_null
from ._conversion2 import _align256, _fill, _span, sort_buffer_bytes
from ._formats import (
    _FLT_MIN,
    BLOCK_GROUPS,
    _block_dim,
    _column,
    _count_result,
    _count_target,
    _descr,
    _empty,
    _quick_scale,
    _zero_count,
    block_mm_operands,
    launch_block_rows,
    launch_bsr_to_csr,
    words,
)
from ._handle import check_descr
from ._kernels_conv import BUCKETED_BYTES
from ._types import (
    Action,
    Direction,
    IndexBase,
    Operation,
    SparseInvalidSizeError,
    SparseNotImplementedError,
)
from ._validate import check_csr, check_indices, check_offsets

__all__ = [
    "ccsr2csr_compress", "ccsr2gebsr", "ccsr2gebsr_buffer_size", "cgebsr2csr", "cgebsr2gebsc",
    "cgebsr2gebsc_buffer_size", "cgebsr2gebsr", "cgebsr2gebsr_buffer_size", "cgebsrmm", "cgebsrmv", "cnnz_compress",
    "cscsort", "cscsort_buffer_size", "csr2gebsr_nnz", "dcsr2csr_compress", "dcsr2gebsr", "dcsr2gebsr_buffer_size",
    "dgebsr2csr", "dgebsr2gebsc", "dgebsr2gebsc_buffer_size", "dgebsr2gebsr", "dgebsr2gebsr_buffer_size", "dgebsrmm",
    "dgebsrmv", "dnnz_compress", "gebsr2gebsr_nnz", "inverse_permutation", "scsr2csr_compress", "scsr2gebsr",
    "scsr2gebsr_buffer_size", "sgebsr2csr", "sgebsr2gebsc", "sgebsr2gebsc_buffer_size", "sgebsr2gebsr",
    "sgebsr2gebsr_buffer_size", "sgebsrmm", "sgebsrmv", "snnz_compress", "zcsr2csr_compress", "zcsr2gebsr",
    "zcsr2gebsr_buffer_size", "zgebsr2csr", "zgebsr2gebsc", "zgebsr2gebsc_buffer_size", "zgebsr2gebsr",
    "zgebsr2gebsr_buffer_size", "zgebsrmm", "zgebsrmv", "znnz_compress",
]


# --- shared helpers -------------------------------------------------------------------------------------


def _dims(c: Call, rows: str, cols: str, *, sizes_first: bool = False) -> tuple[int, int]:
    """Two block dimensions, positive (``invalid_size`` otherwise): each one's sign, then zero, in turn, or
    (``sizes_first``, gebsr2gebsc's and gebsrmm's order) both signs before either zero."""
    if not sizes_first:
        return _block_dim(c, rows), _block_dim(c, cols)
    r, s = c.size(rows), c.size(cols)
    for name, v in ((rows, r), (cols, s)):
        if v == 0:
            raise c.invalid_size(name, "must be positive")
    return r, s


def _block_words(c: Call, name: str, blocks: int, bb: int) -> Buffer:
    """The values of ``blocks`` blocks of ``bb`` elements as ``(blocks, bb * itemsize / 4)`` uint32 words (the
    conversions only move them: one compiled kernel serves every precision)."""
    return Buffer(c.ptr(name) if blocks else 0, np.dtype(np.uint32), (blocks, bb * c.dtype.itemsize // 4),
                  name=name, owner=c[name])


def _nnz_of(c: Call, ptr: str, length: int, itype: np.dtype[Any]) -> int:
    """rocSPARSE's host read of ``ptr[length] - ptr[0]`` when it needs a span to check arrays; 0 when ``ptr``
    is null."""
    return 0 if is_null(c[ptr]) else _span(c, ptr, length, itype)


def _launch_regroup(c: Call, fill: bool, direction: int, ptr_a: Buffer, col_a: Buffer, base_a: int, val_a: Buffer,
                    dims_a: tuple[int, int], m: int, n: int, ptr_c: Buffer, base_c: int, col_c: Buffer, val_c: Buffer,
                    dims_c: tuple[int, int], total: Any) -> Any:
    """Enqueue :func:`kg.regroup`: the ``m x n`` matrix A (``dims_a`` blocks; CSR: ``(1, 1)``) in ``dims_c``
    blocks, C's block-row pointer and block count (not ``fill``) or its block columns and values."""
    isz, it = val_a.dtype.itemsize * val_a.shape[1], ptr_a.dtype.itemsize
    moved = (ptr_a.shape[0] + col_a.shape[0] + ptr_c.shape[0]) * it
    if fill:
        moved += val_a.shape[0] * isz + col_c.shape[0] * it + val_c.shape[0] * val_c.shape[1] * 4
    return c.launch(kg.regroup, fill, int(direction), ptr_a, col_a, int(base_a), val_a, int(dims_a[0]),
                    int(dims_a[1]), int(m), -(-int(n) // int(dims_c[1])), ptr_c, int(base_c), col_c, val_c,
                    int(dims_c[0]), int(dims_c[1]), total, bytes=float(moved))


def _no_words(c: Call) -> Buffer:
    """No values (the count stages; symbolic gebsr2gebsc), as words of the call's precision if it has one."""
    return Buffer(0, np.dtype(np.uint32), (0, c.dtype.itemsize // 4 if c.precision is not None else 1))


# --- csr2gebsr ------------------------------------------------------------------------------------------


def _csr_head(c: Call, itype_names: tuple[str, ...]) -> tuple[int, int, Any, np.dtype[Any]]:
    """csr2gebsr's and its buffer size's first checks: dir, m, n, csr_descr (sorted), csr_row_ptr, then (when a
    value or index array is null) the arrays against the row pointer's span."""
    c.enum("dir", Direction)
    m, n = c.size("m"), c.size("n")
    cd = _descr(c, "csr_descr", general=False)
    c.check_array("csr_row_ptr", m)
    itype = c.index_dtype(*itype_names)
    if is_null(c["csr_val"]) or is_null(c["csr_col_ind"]):
        nnz = _nnz_of(c, "csr_row_ptr", m, itype)
        c.check_array("csr_val", nnz)
        c.check_array("csr_col_ind", nnz)
    return m, n, cd, itype


def _csr2gebsr_buffer_size(c: Call) -> int:
    _csr_head(c, ("csr_row_ptr", "csr_col_ind"))
    _dims(c, "row_block_dim", "col_block_dim")
    return 0  # rocSPARSE's csr2gebsr_nnz and csr2gebsr need no temp_buffer


CSR2GEBSR_BUFFER_SIZE = Routine("csr2gebsr_buffer_size", ("dir", "m", "n", "csr_descr", "csr_val", "csr_row_ptr",
                                                          "csr_col_ind", "row_block_dim", "col_block_dim"),
                                _csr2gebsr_buffer_size,
                                "Bytes of temp_buffer csr2gebsr_nnz and csr2gebsr need (returned): 0.")

scsr2gebsr_buffer_size = bind(CSR2GEBSR_BUFFER_SIZE, S)
dcsr2gebsr_buffer_size = bind(CSR2GEBSR_BUFFER_SIZE, D)
ccsr2gebsr_buffer_size = bind(CSR2GEBSR_BUFFER_SIZE, C)
zcsr2gebsr_buffer_size = bind(CSR2GEBSR_BUFFER_SIZE, Z)


def _csr2gebsr_nnz(c: Call) -> int | None:
    c.enum("dir", Direction)
    m, n = c.size("m"), c.size("n")
    cd = _descr(c, "csr_descr", general=False)
    c.check_array("csr_row_ptr", m)
    bdd = _descr(c, "bsr_descr", general=False)
    c.check_array("bsr_row_ptr", m)
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim")
    if not c.host_mode:
        c.pointer("bsr_nnz_devhost")
    mb, nb = -(-m // rbd), -(-n // cbd)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "bsr_row_ptr")
    if m == 0 or n == 0:
        _fill(c, "bsr_row_ptr", mb + 1, int(bdd.base), itype)
        return _zero_count(c, "bsr_nnz_devhost")
    nnz = _span(c, "csr_row_ptr", m, itype)
    c.check_array("csr_col_ind", nnz)
    total, host = _count_target(c, "bsr_nnz_devhost", itype)
    row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    bsr_ptr = c.array("bsr_row_ptr", mb + 1, itype)
    check_csr(c, row_ptr, col_ind, int(cd.base), nnz, n)  # checking mode (as csr2bsr_nnz's)
    if rbd == cbd:  # rocSPARSE calls csr2bsr_nnz
        task = c.launch(kf.csr_bsr_ptr, row_ptr, col_ind, int(cd.base), rbd, nb, bsr_ptr, int(bdd.base), total,
                        bytes=float((m + mb + 2 + nnz) * itype.itemsize))
    else:
        task = _launch_regroup(c, False, 0, row_ptr, col_ind, int(cd.base), _no_words(c), (1, 1), m, n,
                               bsr_ptr, int(bdd.base), _empty(itype), _no_words(c), (rbd, cbd), total)
    return _count_result(task, host)


csr2gebsr_nnz = bind(Routine("csr2gebsr_nnz", ("dir", "m", "n", "csr_descr", "csr_row_ptr", "csr_col_ind",
                                               "bsr_descr", "bsr_row_ptr", "row_block_dim", "col_block_dim",
                                               "bsr_nnz_devhost", "temp_buffer"), _csr2gebsr_nnz,
                             "The GEBSR block-row pointer of an m x n CSR matrix in row_block_dim x col_block_dim "
                             "blocks; the number of blocks returned in host pointer mode, written to "
                             "bsr_nnz_devhost in device pointer mode."), None)


def _csr2gebsr(c: Call) -> None:
    direction = c.enum("dir", Direction)
    m, n, cd, itype = _csr_head(c, ("csr_row_ptr", "csr_col_ind", "bsr_row_ptr", "bsr_col_ind"))
    bdd = _descr(c, "bsr_descr", general=False)
    c.check_array("bsr_row_ptr", m)
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim")
    if m == 0 or n == 0:
        return
    mb = -(-m // rbd)
    nnzb = _span(c, "bsr_row_ptr", mb, itype)
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_col_ind", nnzb)
    if nnzb <= 0:
        return
    nnz = _span(c, "csr_row_ptr", m, itype)
    row_ptr, bsr_ptr = c.array("csr_row_ptr", m + 1, itype), c.array("bsr_row_ptr", mb + 1, itype)
    col_ind, bsr_col = c.array("csr_col_ind", nnz, itype), c.array("bsr_col_ind", nnzb, itype)
    # checking mode: both pointers place entries (the columns only pick blocks inside each block row)
    check_offsets(c, row_ptr, int(cd.base), nnz)
    check_offsets(c, bsr_ptr, int(bdd.base), nnzb)
    bsr_val = words(c.array("bsr_val", nnzb * rbd * cbd))
    if rbd == cbd:  # rocSPARSE calls csr2bsr
        c.launch(kf.csr_to_bsr, int(direction), words(c.array("csr_val", nnz)), row_ptr, col_ind, int(cd.base), rbd,
                 bsr_ptr, int(bdd.base), bsr_col, bsr_val,
                 bytes=float(nnz * (c.dtype.itemsize + itype.itemsize)
                             + nnzb * (rbd * cbd * c.dtype.itemsize + itype.itemsize)))
        return
    _launch_regroup(c, True, int(direction), row_ptr, col_ind, int(cd.base), words(c.array("csr_val", nnz)), (1, 1),
                    m, n, bsr_ptr, int(bdd.base), bsr_col, bsr_val, (rbd, cbd), np.zeros(1, itype))


CSR2GEBSR = Routine("csr2gebsr", ("dir", "m", "n", "csr_descr", "csr_val", "csr_row_ptr", "csr_col_ind", "bsr_descr",
                                  "bsr_val", "bsr_row_ptr", "bsr_col_ind", "row_block_dim", "col_block_dim",
                                  "temp_buffer"), _csr2gebsr,
                    "Convert an m x n CSR matrix to GEBSR in row_block_dim x col_block_dim blocks, given the block-row "
                    "pointer from csr2gebsr_nnz.")

scsr2gebsr = bind(CSR2GEBSR, S)
dcsr2gebsr = bind(CSR2GEBSR, D)
ccsr2gebsr = bind(CSR2GEBSR, C)
zcsr2gebsr = bind(CSR2GEBSR, Z)


# --- gebsr2csr ------------------------------------------------------------------------------------------


def _gebsr2csr(c: Call) -> None:
    direction = c.enum("dir", Direction)
    mb, nb = c.size("mb"), c.size("nb")
    bdd = _descr(c, "bsr_descr", storage_first=True)
    cd = _descr(c, "csr_descr", storage_first=True)
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim")
    c.check_array("bsr_row_ptr", mb)
    m = rbd * mb
    c.check_array("csr_row_ptr", m)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind", "csr_row_ptr", "csr_col_ind")
    if mb == 0 or nb == 0:
        _fill(c, "csr_row_ptr", m + 1, int(cd.base), itype)
        return
    nnzb = _span(c, "bsr_row_ptr", mb, itype)
    if any(is_null(c[name]) for name in ("bsr_val", "bsr_col_ind", "csr_val", "csr_col_ind")):
        c.check_array("bsr_val", nnzb * rbd * cbd)
        c.check_array("bsr_col_ind", nnzb)
        c.check_array("csr_val", nnzb)
        c.check_array("csr_col_ind", nnzb)
    launch_bsr_to_csr(c, direction, mb, max(nnzb, 0), rbd, cbd, int(bdd.base), int(cd.base), itype)


GEBSR2CSR = Routine("gebsr2csr", ("dir", "mb", "nb", "bsr_descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind",
                                  "row_block_dim", "col_block_dim", "csr_descr", "csr_val", "csr_row_ptr",
                                  "csr_col_ind"), _gebsr2csr,
                    "Convert an mb x nb GEBSR matrix to an (mb row_block_dim) x (nb col_block_dim) CSR matrix holding "
                    "every element of every block.")

sgebsr2csr = bind(GEBSR2CSR, S)
dgebsr2csr = bind(GEBSR2CSR, D)
cgebsr2csr = bind(GEBSR2CSR, C)
zgebsr2csr = bind(GEBSR2CSR, Z)


# --- gebsr2gebsc ----------------------------------------------------------------------------------------


def _gebsc_head(c: Call) -> tuple[int, int, int, int, int]:
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim", sizes_first=True)
    return mb, nb, nnzb, rbd, cbd


def _gebsr2gebsc_buffer_size(c: Call) -> int:
    mb, nb, nnzb, _, _ = _gebsc_head(c)
    if mb == 0 or nb == 0:
        return 0
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    isz = c.index_dtype("bsr_row_ptr", "bsr_col_ind").itemsize
    # Laid out as rocSPARSE's: a sort's double buffer and three 256-byte aligned arrays of nnzb indices.
    return _align256(2 * isz * nnzb) + 3 * _align256(isz * nnzb)


GEBSR2GEBSC_BUFFER_SIZE = Routine("gebsr2gebsc_buffer_size", ("mb", "nb", "nnzb", "bsr_val", "bsr_row_ptr",
                                                              "bsr_col_ind", "row_block_dim", "col_block_dim"),
                                  _gebsr2gebsc_buffer_size, "Bytes of temp_buffer gebsr2gebsc needs (returned).")

sgebsr2gebsc_buffer_size = bind(GEBSR2GEBSC_BUFFER_SIZE, S)
dgebsr2gebsc_buffer_size = bind(GEBSR2GEBSC_BUFFER_SIZE, D)
cgebsr2gebsc_buffer_size = bind(GEBSR2GEBSC_BUFFER_SIZE, C)
zgebsr2gebsc_buffer_size = bind(GEBSR2GEBSC_BUFFER_SIZE, Z)


def _gebsr2gebsc(c: Call) -> None:
    action = c.enum("copy_values", Action)
    base = int(c.enum("idx_base", IndexBase))
    mb, nb, nnzb, rbd, cbd = _gebsc_head(c)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind", "bsc_row_ind", "bsc_col_ptr")
    if mb == 0 or nb == 0 or nnzb == 0:
        _fill(c, "bsc_col_ptr", nb + 1, base, itype)
        return
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    c.check_array("bsc_col_ptr", nb)
    c.check_array("bsc_row_ind", nnzb)
    numeric = action is Action.numeric
    if numeric:
        c.check_array("bsr_val", nnzb)
        c.check_array("bsc_val", nnzb)
    c.check_array("temp_buffer", nnzb)
    row_ptr, col_ind = c.array("bsr_row_ptr", mb + 1, itype), c.array("bsr_col_ind", nnzb, itype)
    check_csr(c, row_ptr, col_ind, base, nnzb, nb)  # checking mode: a block column picks its counter
    # csr2csc's stable counting sort, each block's values moved as one row of words
    bb = rbd * cbd
    val = _block_words(c, "bsr_val", nnzb, bb) if numeric else _no_words(c)
    out = _block_words(c, "bsc_val", nnzb, bb) if numeric else _no_words(c)
    c.launch(k.csr_transpose, numeric, val, row_ptr, col_ind, base, out, c.array("bsc_row_ind", nnzb, itype),
             c.array("bsc_col_ptr", nb + 1, itype), BUCKETED_BYTES,
             bytes=float(2 * nnzb * (itype.itemsize + (bb * c.dtype.itemsize if numeric else 0))
                         + (mb + nb) * itype.itemsize))


GEBSR2GEBSC = Routine("gebsr2gebsc", ("mb", "nb", "nnzb", "bsr_val", "bsr_row_ptr", "bsr_col_ind", "row_block_dim",
                                      "col_block_dim", "bsc_val", "bsc_row_ind", "bsc_col_ptr", "copy_values",
                                      "idx_base", "temp_buffer"), _gebsr2gebsc,
                      "Convert an mb x nb GEBSR matrix to GEBSC (block rows ascending within each block column, the "
                      "blocks' values copied as they are; copy_values: symbolic skips them).")

sgebsr2gebsc = bind(GEBSR2GEBSC, S)
dgebsr2gebsc = bind(GEBSR2GEBSC, D)
cgebsr2gebsc = bind(GEBSR2GEBSC, C)
zgebsr2gebsc = bind(GEBSR2GEBSC, Z)


# --- gebsr2gebsr ----------------------------------------------------------------------------------------


def _gebsr2gebsr_buffer_size(c: Call) -> int:
    c.enum("dir", Direction)
    mb, _, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    rbd_a, cbd_a = _dims(c, "row_block_dim_A", "col_block_dim_A")
    rbd_c, _ = _dims(c, "row_block_dim_C", "col_block_dim_C")
    _descr(c, "descr_A", storage_first=True)
    c.check_array("bsr_val_A", nnzb)
    c.check_array("bsr_row_ptr_A", mb)
    c.check_array("bsr_col_ind_A", nnzb)
    if rbd_c <= 32:
        return 0
    # rocSPARSE's: the CSR matrix it converts through for larger blocks (rocmath converts directly)
    isz = c.index_dtype("bsr_row_ptr_A", "bsr_col_ind_A").itemsize
    return isz * (mb * rbd_a + 1) + (isz + c.dtype.itemsize) * rbd_a * cbd_a * nnzb


GEBSR2GEBSR_BUFFER_SIZE = Routine("gebsr2gebsr_buffer_size", ("dir", "mb", "nb", "nnzb", "descr_A", "bsr_val_A",
                                                              "bsr_row_ptr_A", "bsr_col_ind_A", "row_block_dim_A",
                                                              "col_block_dim_A", "row_block_dim_C",
                                                              "col_block_dim_C"), _gebsr2gebsr_buffer_size,
                                  "Bytes of temp_buffer gebsr2gebsr_nnz and gebsr2gebsr need (returned): rocSPARSE's "
                                  "size, 0 for row_block_dim_C <= 32.")

sgebsr2gebsr_buffer_size = bind(GEBSR2GEBSR_BUFFER_SIZE, S)
dgebsr2gebsr_buffer_size = bind(GEBSR2GEBSR_BUFFER_SIZE, D)
cgebsr2gebsr_buffer_size = bind(GEBSR2GEBSR_BUFFER_SIZE, C)
zgebsr2gebsr_buffer_size = bind(GEBSR2GEBSR_BUFFER_SIZE, Z)


def _temp_for_large_blocks(c: Call, rbd_c: int) -> None:
    """rocSPARSE's temp_buffer check: needed (non-null) for row_block_dim_C > 32."""
    if rbd_c > 32 and is_null(c["temp_buffer"]):
        raise c.invalid_pointer("temp_buffer", "null, and row_block_dim_C > 32 needs one (see the buffer size)")


def _gebsr2gebsr_nnz(c: Call) -> int | None:
    direction = c.enum("dir", Direction)
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    da = _descr(c, "descr_A")
    c.check_array("bsr_row_ptr_A", mb)
    c.check_array("bsr_col_ind_A", nnzb)
    dims_a = _dims(c, "row_block_dim_A", "col_block_dim_A")
    dc = _descr(c, "descr_C")
    c.check_array("bsr_row_ptr_C", mb)
    dims_c = _dims(c, "row_block_dim_C", "col_block_dim_C")
    if not c.host_mode:
        c.pointer("nnz_total_dev_host_ptr")
    _temp_for_large_blocks(c, dims_c[0])
    m = mb * dims_a[0]
    mb_c = -(-m // dims_c[0])
    itype = c.index_dtype("bsr_row_ptr_A", "bsr_col_ind_A", "bsr_row_ptr_C")
    if mb == 0 or nb == 0 or nnzb == 0:
        _fill(c, "bsr_row_ptr_C", mb_c + 1, int(dc.base), itype)
        return _zero_count(c, "nnz_total_dev_host_ptr")
    ptr_a, col_a = c.array("bsr_row_ptr_A", mb + 1, itype), c.array("bsr_col_ind_A", nnzb, itype)
    check_csr(c, ptr_a, col_a, int(da.base), nnzb, nb)  # checking mode: a block column picks C's markers
    total, host = _count_target(c, "nnz_total_dev_host_ptr", itype)
    task = _launch_regroup(c, False, int(direction), ptr_a, col_a, int(da.base),
                           _no_words(c), dims_a, m, nb * dims_a[1], c.array("bsr_row_ptr_C", mb_c + 1, itype),
                           int(dc.base), _empty(itype), _no_words(c), dims_c, total)
    return _count_result(task, host)


gebsr2gebsr_nnz = bind(Routine("gebsr2gebsr_nnz", ("dir", "mb", "nb", "nnzb", "descr_A", "bsr_row_ptr_A",
                                                   "bsr_col_ind_A", "row_block_dim_A", "col_block_dim_A", "descr_C",
                                                   "bsr_row_ptr_C", "row_block_dim_C", "col_block_dim_C",
                                                   "nnz_total_dev_host_ptr", "temp_buffer"), _gebsr2gebsr_nnz,
                               "The block-row pointer of GEBSR matrix A in row_block_dim_C x col_block_dim_C blocks; "
                               "the number of blocks returned in host pointer mode, written to "
                               "nnz_total_dev_host_ptr in device pointer mode."), None)


def _gebsr2gebsr(c: Call) -> None:
    direction = c.enum("dir", Direction)
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    dims_a = _dims(c, "row_block_dim_A", "col_block_dim_A")
    dims_c = _dims(c, "row_block_dim_C", "col_block_dim_C")
    if mb == 0 or nb == 0:
        return
    da = _descr(c, "descr_A", storage_first=True)
    c.check_array("bsr_val_A", nnzb)
    c.check_array("bsr_row_ptr_A", mb)
    c.check_array("bsr_col_ind_A", nnzb)
    dc = _descr(c, "descr_C", storage_first=True)
    c.check_array("bsr_row_ptr_C", mb)
    _temp_for_large_blocks(c, dims_c[0])
    m = mb * dims_a[0]
    mb_c = -(-m // dims_c[0])
    itype = c.index_dtype("bsr_row_ptr_A", "bsr_col_ind_A", "bsr_row_ptr_C", "bsr_col_ind_C")
    nnzb_c = _span(c, "bsr_row_ptr_C", mb_c, itype)
    c.check_array("bsr_val_C", nnzb_c)
    c.check_array("bsr_col_ind_C", nnzb_c)
    if nnzb_c <= 0:
        return
    ptr_a, ptr_c = c.array("bsr_row_ptr_A", mb + 1, itype), c.array("bsr_row_ptr_C", mb_c + 1, itype)
    # checking mode: A's pointer reads its blocks, C's places them
    check_offsets(c, ptr_a, int(da.base), nnzb)
    check_offsets(c, ptr_c, int(dc.base), nnzb_c)
    _launch_regroup(c, True, int(direction), ptr_a, c.array("bsr_col_ind_A", nnzb, itype), int(da.base),
                    words(c.array("bsr_val_A", nnzb * dims_a[0] * dims_a[1])), dims_a, m, nb * dims_a[1], ptr_c,
                    int(dc.base), c.array("bsr_col_ind_C", nnzb_c, itype),
                    words(c.array("bsr_val_C", nnzb_c * dims_c[0] * dims_c[1])), dims_c, np.zeros(1, itype))


GEBSR2GEBSR = Routine("gebsr2gebsr", ("dir", "mb", "nb", "nnzb", "descr_A", "bsr_val_A", "bsr_row_ptr_A",
                                      "bsr_col_ind_A", "row_block_dim_A", "col_block_dim_A", "descr_C", "bsr_val_C",
                                      "bsr_row_ptr_C", "bsr_col_ind_C", "row_block_dim_C", "col_block_dim_C",
                                      "temp_buffer"), _gebsr2gebsr,
                      "Convert GEBSR matrix A to C in row_block_dim_C x col_block_dim_C blocks, given C's block-row "
                      "pointer from gebsr2gebsr_nnz.")

sgebsr2gebsr = bind(GEBSR2GEBSR, S)
dgebsr2gebsr = bind(GEBSR2GEBSR, D)
cgebsr2gebsr = bind(GEBSR2GEBSR, C)
zgebsr2gebsr = bind(GEBSR2GEBSR, Z)


# --- gebsrmv / gebsrmm ----------------------------------------------------------------------------------


def _not_none(c: Call, name: str, allowed: tuple[Operation, ...] = (Operation.none,)) -> Operation:
    op = c.enum(name, Operation)
    if op not in allowed:
        raise SparseNotImplementedError(f"{c.fname} supports {name} {' or '.join(o.name for o in allowed)} only",
                                        arg=name, index=c.index(name))
    return op


def _launch_product(c: Call, direction: Direction, mb: int, nnzb: int, rbd: int, cbd: int, itype: np.dtype[Any],
                    B: Buffer, Cm: Buffer, vector: bool) -> None:
    """``C := alpha A B + beta C`` for a checked, non-empty GEBSR matrix: square blocks by the BSR kernels
    (:func:`launch_block_rows`), others by :func:`kg.gebsr_mv` (``vector``: contiguous ``n x 1`` B and C) or
    :func:`kg.gebsr_mm`."""
    descr = c["descr"]
    base = int(descr.base)
    row_ptr, col_ind = c.array("bsr_row_ptr", mb + 1, itype), c.array("bsr_col_ind", nnzb, itype)
    val = c.array("bsr_val", nnzb * rbd * cbd)
    alpha, beta = c.scalar("alpha"), c.scalar("beta")
    if rbd == cbd:  # rocSPARSE calls bsrmv / bsrmm (1 x 1: csrmv)
        launch_block_rows(c, direction, False, alpha, row_ptr, base, -1, col_ind, val, rbd, B, beta, Cm, nnzb)
        return
    check_csr(c, row_ptr, col_ind, base, nnzb, B.shape[0] // cbd)  # checking mode (block columns)
    ncols, isz = Cm.shape[1], c.dtype.itemsize
    bounds = k.uniform_bounds(mb, max(1, min(mb, BLOCK_GROUPS)))
    flops = nnzb * rbd * cbd * ncols * (8.0 if c.dtype.kind == "c" else 2.0)
    moved = float(nnzb * (rbd * cbd * isz + itype.itemsize) + (B.shape[0] + 2 * Cm.shape[0]) * ncols * isz)
    if vector:
        c.launch(kg.gebsr_mv, int(direction), alpha, row_ptr, base, col_ind, val, rbd, cbd,
                 Buffer(B.ptr, B.dtype, (B.shape[0],), name=B.name, owner=B.owner), beta,
                 Buffer(Cm.ptr, Cm.dtype, (Cm.shape[0],), name=Cm.name, owner=Cm.owner), bounds, flops=flops,
                 bytes=moved)
    else:
        c.launch(kg.gebsr_mm, int(direction), alpha, row_ptr, base, col_ind, val, rbd, cbd, B, beta, Cm, bounds,
                 flops=flops, bytes=moved)


def _gebsrmv(c: Call) -> None:
    check_descr(c["descr"], "descr", c.index("descr"))
    direction = c.enum("dir", Direction)
    _not_none(c, "trans")
    _descr(c, "descr")
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim")
    if mb == 0 or nb == 0:
        _quick_scale(c, rbd * mb)
        return
    c.pointer("alpha")
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    c.check_array("x", nb)
    c.pointer("beta")
    c.check_array("y", mb)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    _launch_product(c, direction, mb, nnzb, rbd, cbd, itype, _column(c, "x", nb * cbd), _column(c, "y", mb * rbd),
                    True)


GEBSRMV = Routine("gebsrmv", ("dir", "trans", "mb", "nb", "nnzb", "alpha", "descr", "bsr_val", "bsr_row_ptr",
                              "bsr_col_ind", "row_block_dim", "col_block_dim", "x", "beta", "y"), _gebsrmv,
                  "y := alpha A x + beta y for an mb x nb GEBSR matrix A of row_block_dim x col_block_dim blocks "
                  "(trans none).", replay=True)

sgebsrmv = bind(GEBSRMV, S)
dgebsrmv = bind(GEBSRMV, D)
cgebsrmv = bind(GEBSRMV, C)
zgebsrmv = bind(GEBSRMV, Z)


def _gebsrmm(c: Call) -> None:
    check_descr(c["descr"], "descr", c.index("descr"))
    direction = c.enum("dir", Direction)
    c.enum("trans_A", Operation)
    trans_b = c.enum("trans_B", Operation)
    _descr(c, "descr")
    _not_none(c, "trans_A")
    _not_none(c, "trans_B", (Operation.none, Operation.transpose))
    mb, n, kb, nnzb = c.size("mb"), c.size("n"), c.size("kb"), c.size("nnzb")
    rbd, cbd = _dims(c, "row_block_dim", "col_block_dim", sizes_first=True)
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    dense = block_mm_operands(c, trans_b, mb, n, kb, rbd, cbd, itype)
    if dense is None:
        return
    B, Cm = dense
    # one column of a column-major B: rocSPARSE runs gebsrmv
    _launch_product(c, direction, mb, nnzb, rbd, cbd, itype, B, Cm, n == 1 and trans_b is Operation.none)


GEBSRMM = Routine("gebsrmm", ("dir", "trans_A", "trans_B", "mb", "n", "kb", "nnzb", "alpha", "descr", "bsr_val",
                              "bsr_row_ptr", "bsr_col_ind", "row_block_dim", "col_block_dim", "B", "ldb", "beta", "C",
                              "ldc"), _gebsrmm,
                  "C := alpha A op(B) + beta C for an mb x kb GEBSR matrix A of row_block_dim x col_block_dim blocks "
                  "and column-major dense B and C (trans_A none; trans_B none or transpose).")

sgebsrmm = bind(GEBSRMM, S)
dgebsrmm = bind(GEBSRMM, D)
cgebsrmm = bind(GEBSRMM, C)
zgebsrmm = bind(GEBSRMM, Z)


# --- nnz_compress / csr2csr_compress --------------------------------------------------------------------


def _tol(c: Call) -> np.ndarray:
    """The by-value ``tol`` (``invalid_value`` when its real part is negative, or it is no number of the
    precision), as the threshold the prune kernel compares magnitudes with: ``max(real(tol), FLT_MIN)`` in the
    real type (a NaN stays NaN: nothing is kept), as a 1-element host array."""
    v = c["tol"]
    try:
        if isinstance(v, bool) or not isinstance(v, (int, float, complex, np.number)):
            raise TypeError
        t = c.dtype.type(v)
    except (TypeError, ValueError):
        raise c.invalid_value("tol", f"must be a number of the routine's precision, got {v!r}") from None
    real = np.real(t)
    if real < 0:
        raise c.invalid_value("tol", f"its real part must be >= 0, got {real}")
    return np.maximum(np.array([real]), real.dtype.type(_FLT_MIN))


def _diff(ptr: np.ndarray, counts: np.ndarray) -> None:
    counts[:] = ptr[1:] - ptr[:-1]


def _nnz_compress(c: Call) -> int | None:
    m = c.size("m")
    d = _descr(c, "descr_A", general=False)
    threshold = _tol(c)
    if m == 0:
        return _zero_count(c, "nnz_C")
    c.check_array("csr_row_ptr_A", m)
    c.pointer("nnz_per_row")
    if not c.host_mode:
        c.pointer("nnz_C")
    itype = c.index_dtype("csr_row_ptr_A", "nnz_per_row", *(() if c.host_mode else ("nnz_C",)))
    nnz = _span(c, "csr_row_ptr_A", m, itype)
    if nnz < 0:
        raise SparseInvalidSizeError(f"csr_row_ptr_A spans {nnz} entries", arg="csr_row_ptr_A",
                                     index=c.index("csr_row_ptr_A"))
    c.check_array("csr_val_A", nnz)
    row_ptr = c.array("csr_row_ptr_A", m + 1, itype)
    check_offsets(c, row_ptr, int(d.base), nnz)  # checking mode: the row pointer reads the values
    # prune_csr2csr's count (its compress kernel's rule) into a scratch row pointer, then its differences
    ptr = c.workspace((m + 1) * itype.itemsize, itype, (m + 1,), "row pointer")
    total, host = _count_target(c, "nnz_C", itype)
    c.launch(kf.prune_csr, False, c.array("csr_val_A", nnz), row_ptr, _empty(itype), int(d.base), threshold, ptr, 0,
             total, _empty(c.dtype), _empty(itype), bytes=float(nnz * c.dtype.itemsize + 2 * (m + 1) * itype.itemsize))
    task = c.launch(_diff, ptr, c.array("nnz_per_row", m, itype), bytes=float((2 * m + 1) * itype.itemsize))
    return _count_result(task, host)


NNZ_COMPRESS = Routine("nnz_compress", ("m", "descr_A", "csr_val_A", "csr_row_ptr_A", "nnz_per_row", "nnz_C", "tol"),
                       _nnz_compress,
                       "The entries per row of an m-row CSR matrix with |a| > real(tol) and |a| > FLT_MIN into "
                       "nnz_per_row; their total returned in host pointer mode, written to nnz_C in device pointer "
                       "mode.")

snnz_compress = bind(NNZ_COMPRESS, S)
dnnz_compress = bind(NNZ_COMPRESS, D)
cnnz_compress = bind(NNZ_COMPRESS, C)
znnz_compress = bind(NNZ_COMPRESS, Z)


def _csr2csr_compress(c: Call) -> None:
    d = _descr(c, "descr_A", general=False)
    m, n = c.size("m"), c.size("n")
    raw = c["nnz_A"]
    nnz_a = int(raw) if isinstance(raw, (int, np.integer)) and not isinstance(raw, bool) else 0
    c.check_array("csr_val_A", nnz_a)  # rocSPARSE checks the arrays against nnz_A before nnz_A itself
    c.check_array("csr_row_ptr_A", m)
    c.check_array("csr_col_ind_A", nnz_a)
    nnz_a = c.size("nnz_A")
    c.check_array("nnz_per_row", m)
    c.check_array("csr_row_ptr_C", m)
    threshold = _tol(c)
    if m == 0 or n == 0:
        return
    base = int(d.base)
    itype = c.index_dtype("csr_row_ptr_A", "csr_col_ind_A", "nnz_per_row", "csr_row_ptr_C", "csr_col_ind_C")
    # C's row pointer from the caller's counts (base: A's), before C's arrays are checked, as rocSPARSE
    host = np.zeros(1, np.int64)
    c.launch(kc.counts_to_ptr, c.array("nnz_per_row", m, itype), base, c.array("csr_row_ptr_C", m + 1, itype), host,
             bytes=float((2 * m + 1) * itype.itemsize)).wait()
    nnz_c = int(host[0])
    c.check_array("csr_val_C", nnz_c)
    c.check_array("csr_col_ind_C", nnz_c)
    nnz_c = max(nnz_c, 0)
    if nnz_a == 0 or nnz_c == 0:
        return
    # the kept entries of A's nnz_A entries, packed in storage order (one row spanning them all), at most nnz_C
    c.launch(kf.prune_csr, True, c.array("csr_val_A", nnz_a), np.array([base, base + nnz_a], itype),
             c.array("csr_col_ind_A", nnz_a, itype), base, threshold, np.array([base, base + nnz_c], itype), base,
             np.zeros(1, itype), c.array("csr_val_C", nnz_c), c.array("csr_col_ind_C", nnz_c, itype),
             bytes=float((nnz_a + nnz_c) * (c.dtype.itemsize + itype.itemsize)))


CSR2CSR_COMPRESS = Routine("csr2csr_compress", ("m", "n", "descr_A", "csr_val_A", "csr_row_ptr_A", "csr_col_ind_A",
                                                "nnz_A", "nnz_per_row", "csr_val_C", "csr_row_ptr_C", "csr_col_ind_C",
                                                "tol"), _csr2csr_compress,
                           "C := the entries of the CSR matrix A with |a| > real(tol) and |a| > FLT_MIN, C's row "
                           "pointer from nnz_per_row (from nnz_compress).")

scsr2csr_compress = bind(CSR2CSR_COMPRESS, S)
dcsr2csr_compress = bind(CSR2CSR_COMPRESS, D)
ccsr2csr_compress = bind(CSR2CSR_COMPRESS, C)
zcsr2csr_compress = bind(CSR2CSR_COMPRESS, Z)


# --- cscsort / inverse_permutation ----------------------------------------------------------------------


def _cscsort_buffer_size(c: Call) -> int:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("csc_col_ptr", n)
    c.check_array("csc_row_ind", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return 0
    return sort_buffer_bytes(c.index_dtype("csc_col_ptr", "csc_row_ind").itemsize, nnz, n)  # csrsort's (n, m)


cscsort_buffer_size = bind(Routine("cscsort_buffer_size", ("m", "n", "nnz", "csc_col_ptr", "csc_row_ind"),
                                   _cscsort_buffer_size, "Bytes of temp_buffer cscsort needs (returned)."), None)


def _cscsort(c: Call) -> None:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    d = check_descr(c["descr"], "descr", c.index("descr"))
    c.check_array("csc_col_ptr", n)
    c.check_array("csc_row_ind", nnz)
    c.check_array("temp_buffer", nnz)
    if m == 0 or n == 0 or nnz == 0:
        return
    with_perm = not is_null(c["perm"])
    itype = c.index_dtype("csc_col_ptr", "csc_row_ind", *(("perm",) if with_perm else ()))
    col_ptr = c.array("csc_col_ptr", n + 1, itype)
    check_offsets(c, col_ptr, int(d.base), nnz)  # checking mode: the segments (the rows are only sorted)
    c.launch(kc.sort_segments, col_ptr, int(d.base), c.array("csc_row_ind", nnz, itype), with_perm,
             c.array("perm", nnz if with_perm else 0, itype),
             bytes=float((n + 1 + (4 if with_perm else 2) * nnz) * itype.itemsize))


cscsort = bind(Routine("cscsort", ("m", "n", "nnz", "descr", "csc_col_ptr", "csc_row_ind", "perm", "temp_buffer"),
                       _cscsort, "Sort the row indices of each CSC column (stable); perm, if given, is permuted "
                       "alongside."), None)


def _invert(p: np.ndarray, base: int, q: np.ndarray) -> None:
    q[p - base] = np.arange(base, base + p.shape[0], dtype=q.dtype)


def _inverse_permutation(c: Call) -> None:
    n = c.size("n")
    c.check_array("p", n)
    c.check_array("q", n)
    base = int(c.enum("base", IndexBase))
    if n == 0:
        return
    itype = c.index_dtype("p", "q")
    p = c.array("p", n, itype)
    check_indices(c, p, base, n, "entries of q")  # checking mode: p addresses q
    c.launch(_invert, p, base, c.array("q", n, itype), bytes=float(3 * n * itype.itemsize))


inverse_permutation = bind(Routine("inverse_permutation", ("n", "p", "q", "base"), _inverse_permutation,
                                   "q[p[i] - base] := i + base for i < n: the inverse of the permutation p."), None)
