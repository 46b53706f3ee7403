"""Matrix checks: ``Xcheck_matrix_{csr,csc,coo,ell,gebsr,gebsc}`` with their ``_buffer_size``,
``check_matrix_hyb`` / ``check_matrix_hyb_buffer_size`` and the generic ``check_spmat``.

A check validates a matrix's structure and values and returns a :class:`DataStatus` (also
written to ``data_status`` when that is a 1-element host integer array); the buffer-size
routines return the bytes of ``temp_buffer`` the check needs (also written to a 1-element
``buffer_size`` array).

As rocSPARSE (argument checks, their order and statuses, quick returns):

- CSR / GEBSR: ``nnz`` (``nnzb``) must equal ``row_ptr[m] - row_ptr[0]`` (``invalid_value``,
  raised, naming ``nnz``); then a row-pointer pass (``invalid_offset_ptr`` for a row whose start or
  end, relative to ``row_ptr[0]``, is negative, or ends before it starts: any base offset of the
  whole array is accepted), and only when it passes the entry pass, row by row, entry by entry,
  each entry's tests in this order: index in range (``invalid_index``), not a duplicate
  (``duplicate_entry``: equal to the previous index of the row's sorted indices, so unsorted
  storage compares a sorted copy kept in temp_buffer), its values not ``+inf`` (``inf``; ``-inf``
  passes, as rocSPARSE's test) then not NaN (``nan``; a block's values in storage order), its side
  of the diagonal when the matrix type is not general (``invalid_fill``: above it for lower, below
  it for upper), then with sorted storage above the previous index (``invalid_sorting``);
- CSC / GEBSC are checked as the CSR / GEBSR matrix of their transpose (columns as rows), fill mode
  included: a lower CSC matrix must have no entry below the diagonal, as rocSPARSE's;
- COO, entry by entry: row and column in range, inf, NaN, fill, then with sorted storage a column
  not above the next entry's when it is in the same row (no duplicate test, rows are not compared);
- ELL (general matrices only: another type is ``invalid_value``), row by row, slot by slot: a raw
  column index of -1 ends the row; index in range, inf, NaN, then with sorted storage a column
  above the previous slot's;
- HYB: the checks of its ELL part, then of its COO part, under the given index base and attributes;
- a matrix type other than general needs a square matrix (``invalid_size`` naming ``n``; GEBSR and
  GEBSC also equal block dimensions, naming ``matrix_type``).

Where rocmath decides (rocSPARSE's GPU code leaves it open or is at fault):

- the scans are parallel but deterministic: the status is that of the **first defect in storage
  order** (the row-pointer pass first, then row by row or entry by entry, each entry's tests in the
  order above).  On the GPU several threads may record different statuses for a matrix with several
  defects (the last write wins); for a matrix with one defect the answer is rocSPARSE's;
- HYB reports its ELL part's defect when it has one, else its COO part's status (rocSPARSE runs the
  two checks one after the other into the same status, so the COO part's result overwrites the
  ELL part's);
- a CSR (GEBSR) matrix without rows is valid when ``nnz`` is 0 (rocSPARSE reads ``row_ptr`` even
  when it may be null and divides by ``m``); ``check_matrix_csc`` checks its column pointer non-null
  against ``m`` as rocSPARSE does (its buffer size against ``n``), then also against ``n`` after
  rocSPARSE's checks (rocSPARSE would read it);
- ``data_status`` and ``buffer_size`` may be None (their values are returned); rocSPARSE's
  null-pointer checks on them are not made.  ``check_matrix_hyb`` and its buffer size have no
  precision letter, as in rocSPARSE (the HYB matrix carries its value type);
- buffer sizes are rocmath's: 256 bytes for the device status, plus a sorted copy of the indices
  for unsorted CSR, CSC, GEBSR and GEBSC storage; COO without entries and ELL without slots need
  none (as rocSPARSE), but ELL checks temp_buffer non-null anyway (as rocSPARSE).

``check_spmat`` dispatches CSR, CSC, COO, ELL and BSR descriptors (index types (i32, i32),
(i64, i32), (i64, i64); f32/f64 real and complex values; others, COO (AoS) and blocked ELL are
``not_implemented``) to these checks, with the descriptor's index base and attributes; an error
of the checks on the descriptor's contents names ``mat``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.launch import Buffer
from rocmath.precision import C, D, Precision, S, Z

from . import _kernels_check as kk
from ._api import Call, Routine, bind, is_null
from ._api import pointer_of as _p
from ._conversion2 import _span
from ._descr import SpMatDescr
from ._descr import check_spmat as _live_spmat
from ._formats import check_hyb
from ._generic import _index_types, _layered
from ._generic_ops import _out
from ._handle import check_handle
from ._solve import _copy
from ._types import (
    CheckSpmatStage,
    DataStatus,
    Datatype,
    Direction,
    FillMode,
    Format,
    IndexBase,
    MatrixType,
    SparseError,
    SparseNotImplementedError,
    StorageMode,
)

__all__ = [
    "ccheck_matrix_coo", "ccheck_matrix_coo_buffer_size", "ccheck_matrix_csc", "ccheck_matrix_csc_buffer_size",
    "ccheck_matrix_csr", "ccheck_matrix_csr_buffer_size", "ccheck_matrix_ell", "ccheck_matrix_ell_buffer_size",
    "ccheck_matrix_gebsc", "ccheck_matrix_gebsc_buffer_size", "ccheck_matrix_gebsr", "ccheck_matrix_gebsr_buffer_size",
    "check_matrix_hyb", "check_matrix_hyb_buffer_size", "check_spmat", "dcheck_matrix_coo",
    "dcheck_matrix_coo_buffer_size", "dcheck_matrix_csc", "dcheck_matrix_csc_buffer_size", "dcheck_matrix_csr",
    "dcheck_matrix_csr_buffer_size", "dcheck_matrix_ell", "dcheck_matrix_ell_buffer_size", "dcheck_matrix_gebsc",
    "dcheck_matrix_gebsc_buffer_size", "dcheck_matrix_gebsr", "dcheck_matrix_gebsr_buffer_size", "scheck_matrix_coo",
    "scheck_matrix_coo_buffer_size", "scheck_matrix_csc", "scheck_matrix_csc_buffer_size", "scheck_matrix_csr",
    "scheck_matrix_csr_buffer_size", "scheck_matrix_ell", "scheck_matrix_ell_buffer_size", "scheck_matrix_gebsc",
    "scheck_matrix_gebsc_buffer_size", "scheck_matrix_gebsr", "scheck_matrix_gebsr_buffer_size", "zcheck_matrix_coo",
    "zcheck_matrix_coo_buffer_size", "zcheck_matrix_csc", "zcheck_matrix_csc_buffer_size", "zcheck_matrix_csr",
    "zcheck_matrix_csr_buffer_size", "zcheck_matrix_ell", "zcheck_matrix_ell_buffer_size", "zcheck_matrix_gebsc",
    "zcheck_matrix_gebsc_buffer_size", "zcheck_matrix_gebsr", "zcheck_matrix_gebsr_buffer_size",
]

#: Bytes of temp_buffer holding the device status (rocSPARSE's 256-byte aligned slot).
STATUS_BYTES = 256
_FLOATS = (Datatype.f32_r, Datatype.f64_r, Datatype.f32_c, Datatype.f64_c)


def _align(nbytes: int) -> int:
    return -(-nbytes // 256) * 256


# --- shared checks ---------------------------------------------------------------------------------


def _attributes(c: Call, mtype_check: bool = False) -> tuple[int, MatrixType, FillMode, StorageMode]:
    """``idx_base``, ``matrix_type``, ``uplo`` and ``storage`` (invalid_value), in that order; ``mtype_check``:
    ELL's rule that the matrix type be general, right after it."""
    base = c.enum("idx_base", IndexBase)
    mtype = c.enum("matrix_type", MatrixType)
    if mtype_check and mtype is not MatrixType.general:
        raise c.invalid_value("matrix_type", f"ELL matrices must be general, got {mtype.name}")
    return int(base), mtype, c.enum("uplo", FillMode), c.enum("storage", StorageMode)


def _temp(c: Call, compute: bool, needed: bool = True) -> None:
    """The check's temp_buffer must not be null (the buffer-size routines have none)."""
    if compute and needed:
        c.pointer("temp_buffer")


def _square(c: Call, mtype: MatrixType, m: int, n: int) -> None:
    if mtype is not MatrixType.general and m != n:
        raise c.invalid_size("n", f"a {mtype.name} matrix must be square, got {m} x {n}")


def _block_dim(c: Call, name: str) -> int:
    v = c.size(name)
    if v == 0:
        raise c.invalid_size(name, "must be positive")
    return v


def _status(c: Call) -> Buffer:
    """The device status: the first 4 bytes of temp_buffer."""
    return Buffer(c.ptr("temp_buffer"), np.dtype(np.int32), (1,), name="temp_buffer", owner=c["temp_buffer"])


def _result(c: Call, status: Buffer) -> DataStatus:
    """The device status copied back to the host (the routine waits for it, as rocSPARSE synchronizes)."""
    host = np.zeros(1, np.int32)
    c.launch(_copy, status, host, bytes=4.0).wait()
    return DataStatus(int(host[0]))


def _finish(c: Call, status: DataStatus) -> DataStatus:
    return _out(c["data_status"], status)


def _types(c: Call, types: tuple[np.dtype[Any], np.dtype[Any]] | None, *names: str) -> tuple[np.dtype[Any], ...]:
    """(I, J): the generic descriptor's index types, or the legacy arrays' common one."""
    if types is not None:
        return types
    it = c.index_dtype(*names)
    return it, it


# --- CSR / CSC / GEBSR / GEBSC -----------------------------------------------------------------------


def _compressed_size(nnz: int, storage: StorageMode, jtype: np.dtype[Any]) -> int:
    """The status slot, plus a sorted copy of the indices for unsorted storage."""
    return STATUS_BYTES + (_align(jtype.itemsize * nnz) if storage is StorageMode.unsorted else 0)


def _check_compressed(c: Call, rows: int, cols: int, nnz: int, nnz_name: str, block: int, base: int,
                      mtype: MatrixType, uplo: FillMode, storage: StorageMode, val: str, ptr: str, ind: str,
                      itype: np.dtype[Any], jtype: np.dtype[Any]) -> DataStatus:
    """The CSR / GEBSR check of ``rows`` rows (block rows) of ``cols`` columns: the nnz rule, the row-pointer
    pass, then the entry pass (on a sorted copy of the indices for the duplicate test of unsorted storage)."""
    if rows == 0:
        if nnz != 0:
            raise c.invalid_value(nnz_name, f"{nnz} entries, the pointer array spans 0")
        return DataStatus.success
    ptr_b = c.array(ptr, rows + 1, itype)
    span = _span(c, ptr, rows, itype)
    if nnz != span:
        raise c.invalid_value(nnz_name, f"{nnz} entries, the pointer array spans {span}")
    status = _status(c)
    c.launch(kk.check_offsets, ptr_b, status, bytes=float((rows + 1) * itype.itemsize))
    found = _result(c, status)
    if found is not DataStatus.success:
        return found
    ind_b = c.array(ind, nnz, jtype)
    sorted_ind = ind_b
    if storage is StorageMode.unsorted and nnz:
        sorted_ind = Buffer(c.ptr("temp_buffer") + STATUS_BYTES, jtype, (nnz,), name="temp_buffer",
                            owner=c["temp_buffer"])
        c.launch(kk.sort_rows, ptr_b, ind_b, sorted_ind, bytes=float(2 * nnz * jtype.itemsize))
    c.launch(kk.check_compressed, ptr_b, ind_b, sorted_ind, c.array(val, nnz * block), cols, block, base,
             mtype is not MatrixType.general, uplo is FillMode.lower, storage is StorageMode.sorted, status,
             bytes=float((rows + 1) * itype.itemsize + 2 * nnz * jtype.itemsize + nnz * block * c.dtype.itemsize))
    return _result(c, status)


def _csx(c: Call, compute: bool, csc: bool, types: Any = None) -> Any:
    """``check_matrix_csr`` / ``_csc`` and their buffer sizes; a CSC matrix is the CSR matrix of its transpose."""
    val, ptr, ind = ("csc_val", "csc_col_ptr", "csc_row_ind") if csc else ("csr_val", "csr_row_ptr", "csr_col_ind")
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array(val, nnz)
    # rocSPARSE checks the CSC column pointer against n in the buffer size, against m in the check.
    c.check_array(ptr, n if csc and not compute else m)
    c.check_array(ind, nnz)
    base, mtype, uplo, storage = _attributes(c)
    _temp(c, compute)
    _square(c, mtype, m, n)
    rows, cols = (n, m) if csc else (m, n)
    if csc:
        c.check_array(ptr, rows)  # rocmath's: the pointer array is read whatever m is
    itype, jtype = _types(c, types, ptr, ind)
    if not compute:
        return _compressed_size(nnz, storage, jtype)
    return _finish(c, _check_compressed(c, rows, cols, nnz, "nnz", 1, base, mtype, uplo, storage, val, ptr, ind,
                                        itype, jtype))


def _gebsx(c: Call, compute: bool, bsc: bool, types: Any = None) -> Any:
    """``check_matrix_gebsr`` / ``_gebsc`` and their buffer sizes; GEBSC is the GEBSR matrix of its transpose
    (same block dimensions and direction)."""
    val, ptr, ind = ("bsc_val", "bsc_col_ptr", "bsc_row_ind") if bsc else ("bsr_val", "bsr_row_ptr", "bsr_col_ind")
    c.enum("dir", Direction)
    mb, nb, nnzb = c.size("mb"), c.size("nb"), c.size("nnzb")
    rbd, cbd = _block_dim(c, "row_block_dim"), _block_dim(c, "col_block_dim")
    c.check_array(val, nnzb)
    c.check_array(ptr, nb if bsc else mb)
    c.check_array(ind, nnzb)
    base, mtype, uplo, storage = _attributes(c)
    _temp(c, compute)
    if mtype is not MatrixType.general and (rbd != cbd or mb != nb):
        raise c.invalid_size("matrix_type", f"a {mtype.name} matrix needs square blocks and mb == nb, got "
                                            f"{mb} x {nb} blocks of {rbd} x {cbd}")
    rows, cols = (nb, mb) if bsc else (mb, nb)
    itype, jtype = _types(c, types, ptr, ind)
    if not compute:
        return _compressed_size(nnzb, storage, jtype)
    return _finish(c, _check_compressed(c, rows, cols, nnzb, "nnzb", rbd * cbd, base, mtype, uplo, storage, val,
                                        ptr, ind, itype, jtype))


# --- COO / ELL -------------------------------------------------------------------------------------------


def _coo_scan(c: Call, m: int, n: int, nnz: int, base: int, mtype: MatrixType, uplo: FillMode,
              storage: StorageMode, val: Any, row: Any, col: Any, itype: np.dtype[Any]) -> DataStatus:
    status = _status(c)
    c.launch(kk.check_coo, Buffer(_p(row), itype, (nnz,), name="coo_row_ind", owner=row),
             Buffer(_p(col), itype, (nnz,), name="coo_col_ind", owner=col),
             Buffer(_p(val), c.dtype, (nnz,), name="coo_val", owner=val), m, n, base,
             mtype is not MatrixType.general, uplo is FillMode.lower, storage is StorageMode.sorted, status,
             bytes=float(nnz * (2 * itype.itemsize + c.dtype.itemsize)))
    return _result(c, status)


def _ell_scan(c: Call, m: int, n: int, width: int, base: int, storage: StorageMode, val: Any, col: Any,
              itype: np.dtype[Any]) -> DataStatus:
    status = _status(c)
    slots = m * width
    c.launch(kk.check_ell, Buffer(_p(col), itype, (slots,), name="ell_col_ind", owner=col),
             Buffer(_p(val), c.dtype, (slots,), name="ell_val", owner=val), m, n, width, base,
             storage is StorageMode.sorted, status, bytes=float(slots * (itype.itemsize + c.dtype.itemsize)))
    return _result(c, status)


def _coo(c: Call, compute: bool, types: Any = None) -> Any:
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.check_array("coo_val", nnz)
    c.check_array("coo_row_ind", nnz)
    c.check_array("coo_col_ind", nnz)
    base, mtype, uplo, storage = _attributes(c)
    _temp(c, compute, nnz > 0)
    _square(c, mtype, m, n)
    if not compute:
        return 0 if nnz == 0 else STATUS_BYTES
    if nnz == 0:
        return _finish(c, DataStatus.success)
    itype, _ = _types(c, types, "coo_row_ind", "coo_col_ind")
    return _finish(c, _coo_scan(c, m, n, nnz, base, mtype, uplo, storage, c["coo_val"], c["coo_row_ind"],
                                c["coo_col_ind"], itype))


def _ell(c: Call, compute: bool, types: Any = None) -> Any:
    m, n, width = c.size("m"), c.size("n"), c.size("ell_width")
    c.check_array("ell_val", m * width)
    c.check_array("ell_col_ind", m * width)
    base, _, _, storage = _attributes(c, mtype_check=True)
    _temp(c, compute)
    if not compute:
        return 0 if m == 0 or width == 0 else STATUS_BYTES
    if m * width == 0:
        return _finish(c, DataStatus.success)
    itype, _ = _types(c, types, "ell_col_ind")
    return _finish(c, _ell_scan(c, m, n, width, base, storage, c["ell_val"], c["ell_col_ind"], itype))


# --- HYB -------------------------------------------------------------------------------------------------


def _hyb(c: Call, compute: bool) -> Any:
    """The HYB check: its ELL part's, then its COO part's (rocmath reports the ELL part's defect first)."""
    hyb = check_hyb(c["hyb"], "hyb", c.index("hyb"))
    base, mtype, uplo, storage = _attributes(c)
    _temp(c, compute)
    if hyb.data_type not in _FLOATS:
        raise SparseNotImplementedError(f"{hyb.data_type.name} values are not supported", arg="hyb",
                                        index=c.index("hyb"))
    if mtype is not MatrixType.general:  # the ELL part's check
        raise c.invalid_value("matrix_type", f"the ELL part of a HYB matrix must be general, got {mtype.name}")
    c.precision = Precision.of(hyb.data_type.dtype)
    ell_size = 0 if hyb.m == 0 or hyb.ell_width == 0 else STATUS_BYTES
    coo_size = 0 if hyb.coo_nnz == 0 else STATUS_BYTES
    if not compute:
        return max(ell_size, coo_size)
    it = np.dtype(hyb.index_type)
    found = DataStatus.success
    if hyb.m * hyb.ell_width:
        found = _ell_scan(c, hyb.m, hyb.n, hyb.ell_width, base, storage, hyb.ell_val, hyb.ell_col_ind, it)
    if found is DataStatus.success and hyb.coo_nnz:
        found = _coo_scan(c, hyb.m, hyb.n, hyb.coo_nnz, base, mtype, uplo, storage, hyb.coo_val, hyb.coo_row_ind,
                          hyb.coo_col_ind, it)
    return _finish(c, found)


# --- the legacy routines ------------------------------------------------------------------------------------

_ATTRS = ("idx_base", "matrix_type", "uplo", "storage")
_CSR = ("m", "n", "nnz", "csr_val", "csr_row_ptr", "csr_col_ind", *_ATTRS)
_CSC = ("m", "n", "nnz", "csc_val", "csc_col_ptr", "csc_row_ind", *_ATTRS)
_COO = ("m", "n", "nnz", "coo_val", "coo_row_ind", "coo_col_ind", *_ATTRS)
_ELL = ("m", "n", "ell_width", "ell_val", "ell_col_ind", *_ATTRS)
_GEBSR = ("dir", "mb", "nb", "nnzb", "row_block_dim", "col_block_dim", "bsr_val", "bsr_row_ptr", "bsr_col_ind",
          *_ATTRS)
_GEBSC = ("dir", "mb", "nb", "nnzb", "row_block_dim", "col_block_dim", "bsc_val", "bsc_col_ptr", "bsc_row_ind",
          *_ATTRS)
_HYB = ("hyb", *_ATTRS)
_CHECK = ("data_status", "temp_buffer")
_SIZE = ("buffer_size",)

_CHECK_DOC = ("Check a {} matrix: returns the DataStatus of its first defect in storage order (success when "
              "none), also written to a 1-element host array data_status.")
_SIZE_DOC = "Bytes of temp_buffer check_matrix_{} needs (returned; also written to a 1-element host array buffer_size)."


def _size_out(body: Any) -> Any:
    """A buffer-size body whose size is also written to ``buffer_size``."""
    return lambda c: _out(c["buffer_size"], body(c))


CHECK_MATRIX_CSR = Routine("check_matrix_csr", _CSR + _CHECK, lambda c: _csx(c, True, False), _CHECK_DOC.format("CSR"))
CHECK_MATRIX_CSR_BS = Routine("check_matrix_csr_buffer_size", _CSR + _SIZE,
                              _size_out(lambda c: _csx(c, False, False)), _SIZE_DOC.format("csr"))
CHECK_MATRIX_CSC = Routine("check_matrix_csc", _CSC + _CHECK, lambda c: _csx(c, True, True), _CHECK_DOC.format("CSC"))
CHECK_MATRIX_CSC_BS = Routine("check_matrix_csc_buffer_size", _CSC + _SIZE,
                              _size_out(lambda c: _csx(c, False, True)), _SIZE_DOC.format("csc"))
CHECK_MATRIX_COO = Routine("check_matrix_coo", _COO + _CHECK, lambda c: _coo(c, True), _CHECK_DOC.format("COO"))
CHECK_MATRIX_COO_BS = Routine("check_matrix_coo_buffer_size", _COO + _SIZE, _size_out(lambda c: _coo(c, False)),
                              _SIZE_DOC.format("coo"))
CHECK_MATRIX_ELL = Routine("check_matrix_ell", _ELL + _CHECK, lambda c: _ell(c, True), _CHECK_DOC.format("ELL"))
CHECK_MATRIX_ELL_BS = Routine("check_matrix_ell_buffer_size", _ELL + _SIZE, _size_out(lambda c: _ell(c, False)),
                              _SIZE_DOC.format("ell"))
CHECK_MATRIX_GEBSR = Routine("check_matrix_gebsr", _GEBSR + _CHECK, lambda c: _gebsx(c, True, False),
                             _CHECK_DOC.format("GEBSR"))
CHECK_MATRIX_GEBSR_BS = Routine("check_matrix_gebsr_buffer_size", _GEBSR + _SIZE,
                                _size_out(lambda c: _gebsx(c, False, False)), _SIZE_DOC.format("gebsr"))
CHECK_MATRIX_GEBSC = Routine("check_matrix_gebsc", _GEBSC + _CHECK, lambda c: _gebsx(c, True, True),
                             _CHECK_DOC.format("GEBSC"))
CHECK_MATRIX_GEBSC_BS = Routine("check_matrix_gebsc_buffer_size", _GEBSC + _SIZE,
                                _size_out(lambda c: _gebsx(c, False, True)), _SIZE_DOC.format("gebsc"))

scheck_matrix_csr_buffer_size = bind(CHECK_MATRIX_CSR_BS, S)
dcheck_matrix_csr_buffer_size = bind(CHECK_MATRIX_CSR_BS, D)
ccheck_matrix_csr_buffer_size = bind(CHECK_MATRIX_CSR_BS, C)
zcheck_matrix_csr_buffer_size = bind(CHECK_MATRIX_CSR_BS, Z)
scheck_matrix_csr = bind(CHECK_MATRIX_CSR, S)
dcheck_matrix_csr = bind(CHECK_MATRIX_CSR, D)
ccheck_matrix_csr = bind(CHECK_MATRIX_CSR, C)
zcheck_matrix_csr = bind(CHECK_MATRIX_CSR, Z)

scheck_matrix_csc_buffer_size = bind(CHECK_MATRIX_CSC_BS, S)
dcheck_matrix_csc_buffer_size = bind(CHECK_MATRIX_CSC_BS, D)
ccheck_matrix_csc_buffer_size = bind(CHECK_MATRIX_CSC_BS, C)
zcheck_matrix_csc_buffer_size = bind(CHECK_MATRIX_CSC_BS, Z)
scheck_matrix_csc = bind(CHECK_MATRIX_CSC, S)
dcheck_matrix_csc = bind(CHECK_MATRIX_CSC, D)
ccheck_matrix_csc = bind(CHECK_MATRIX_CSC, C)
zcheck_matrix_csc = bind(CHECK_MATRIX_CSC, Z)

scheck_matrix_coo_buffer_size = bind(CHECK_MATRIX_COO_BS, S)
dcheck_matrix_coo_buffer_size = bind(CHECK_MATRIX_COO_BS, D)
ccheck_matrix_coo_buffer_size = bind(CHECK_MATRIX_COO_BS, C)
zcheck_matrix_coo_buffer_size = bind(CHECK_MATRIX_COO_BS, Z)
scheck_matrix_coo = bind(CHECK_MATRIX_COO, S)
dcheck_matrix_coo = bind(CHECK_MATRIX_COO, D)
ccheck_matrix_coo = bind(CHECK_MATRIX_COO, C)
zcheck_matrix_coo = bind(CHECK_MATRIX_COO, Z)

scheck_matrix_ell_buffer_size = bind(CHECK_MATRIX_ELL_BS, S)
dcheck_matrix_ell_buffer_size = bind(CHECK_MATRIX_ELL_BS, D)
ccheck_matrix_ell_buffer_size = bind(CHECK_MATRIX_ELL_BS, C)
zcheck_matrix_ell_buffer_size = bind(CHECK_MATRIX_ELL_BS, Z)
scheck_matrix_ell = bind(CHECK_MATRIX_ELL, S)
dcheck_matrix_ell = bind(CHECK_MATRIX_ELL, D)
ccheck_matrix_ell = bind(CHECK_MATRIX_ELL, C)
zcheck_matrix_ell = bind(CHECK_MATRIX_ELL, Z)

scheck_matrix_gebsr_buffer_size = bind(CHECK_MATRIX_GEBSR_BS, S)
dcheck_matrix_gebsr_buffer_size = bind(CHECK_MATRIX_GEBSR_BS, D)
ccheck_matrix_gebsr_buffer_size = bind(CHECK_MATRIX_GEBSR_BS, C)
zcheck_matrix_gebsr_buffer_size = bind(CHECK_MATRIX_GEBSR_BS, Z)
scheck_matrix_gebsr = bind(CHECK_MATRIX_GEBSR, S)
dcheck_matrix_gebsr = bind(CHECK_MATRIX_GEBSR, D)
ccheck_matrix_gebsr = bind(CHECK_MATRIX_GEBSR, C)
zcheck_matrix_gebsr = bind(CHECK_MATRIX_GEBSR, Z)

scheck_matrix_gebsc_buffer_size = bind(CHECK_MATRIX_GEBSC_BS, S)
dcheck_matrix_gebsc_buffer_size = bind(CHECK_MATRIX_GEBSC_BS, D)
ccheck_matrix_gebsc_buffer_size = bind(CHECK_MATRIX_GEBSC_BS, C)
zcheck_matrix_gebsc_buffer_size = bind(CHECK_MATRIX_GEBSC_BS, Z)
scheck_matrix_gebsc = bind(CHECK_MATRIX_GEBSC, S)
dcheck_matrix_gebsc = bind(CHECK_MATRIX_GEBSC, D)
ccheck_matrix_gebsc = bind(CHECK_MATRIX_GEBSC, C)
zcheck_matrix_gebsc = bind(CHECK_MATRIX_GEBSC, Z)

# rocSPARSE's HYB checks have no precision letter: the HYB matrix carries its value type.
check_matrix_hyb_buffer_size = bind(Routine("check_matrix_hyb_buffer_size", _HYB + _SIZE,
                                            _size_out(lambda c: _hyb(c, False)), _SIZE_DOC.format("hyb")), None)
check_matrix_hyb = bind(Routine("check_matrix_hyb", _HYB + _CHECK, lambda c: _hyb(c, True),
                                _CHECK_DOC.format("HYB") + " Its ELL part is checked first, then its COO part."),
                        None)


# --- check_spmat -----------------------------------------------------------------------------------------


def _legacy_values(A: SpMatDescr) -> tuple[str, tuple[str, ...], dict[str, Any], Any]:
    """The legacy check a descriptor goes to: its name, parameters (after the handle, before the out-parameters),
    their values and body."""
    d = A.descr
    attrs = {"idx_base": A.idx_base, "matrix_type": d.type, "uplo": d.fill_mode, "storage": d.storage_mode}
    if A.format is Format.csr:
        return "csr", _CSR, {"m": A.rows, "n": A.cols, "nnz": A.nnz, "csr_val": A.val_data,
                             "csr_row_ptr": A.row_data, "csr_col_ind": A.col_data, **attrs}, \
            lambda c, compute, t: _csx(c, compute, False, t)
    if A.format is Format.csc:
        return "csc", _CSC, {"m": A.rows, "n": A.cols, "nnz": A.nnz, "csc_val": A.val_data,
                             "csc_col_ptr": A.col_data, "csc_row_ind": A.row_data, **attrs}, \
            lambda c, compute, t: _csx(c, compute, True, t)
    if A.format is Format.coo:
        return "coo", _COO, {"m": A.rows, "n": A.cols, "nnz": A.nnz, "coo_val": A.val_data,
                             "coo_row_ind": A.row_data, "coo_col_ind": A.col_data, **attrs}, _coo
    if A.format is Format.ell:
        return "ell", _ELL, {"m": A.rows, "n": A.cols, "ell_width": A.ell_width, "ell_val": A.val_data,
                             "ell_col_ind": A.col_data, **attrs}, _ell
    return "gebsr", _GEBSR, {"dir": A.block_dir, "mb": A.rows, "nb": A.cols, "nnzb": A.nnz,
                             "row_block_dim": A.block_dim, "col_block_dim": A.block_dim, "bsr_val": A.val_data,
                             "bsr_row_ptr": A.row_data, "bsr_col_ind": A.col_data, **attrs}, \
        lambda c, compute, t: _gebsx(c, compute, False, t)


_CHECK_SPMAT = ("handle", "mat", "data_status", "stage", "buffer_size", "temp_buffer")


@_layered
def check_spmat(handle: Any, mat: SpMatDescr, data_status: Any, stage: Any, buffer_size: Any = None,
                temp_buffer: Any = None) -> Any:
    """``rocsparse_check_spmat``: check a CSR, CSC, COO, ELL or BSR matrix descriptor, in two stages.

    Parameters
    ----------
    handle
        The rocSPARSE handle.
    mat
        The sparse matrix descriptor; its index base and attributes (matrix type, fill mode, storage
        mode) are those the check applies.
    data_status
        None, or a 1-element host integer array receiving the :class:`DataStatus` (compute stage).
    stage
        :class:`CheckSpmatStage`: ``buffer_size`` returns the bytes of temp_buffer the compute stage
        needs; ``compute`` checks the matrix.
    buffer_size
        None, or a 1-element host integer array receiving the size (buffer_size stage).
    temp_buffer
        Device memory of at least that size.  ``buffer_size`` and ``temp_buffer`` must not both be None.

    Returns
    -------
    int or DataStatus
        The size at the buffer_size stage; at the compute stage the status of the matrix's first
        defect in storage order (``DataStatus.success`` when it has none).

    Raises
    ------
    SparseError
        The status exceptions in rocSPARSE's order: the handle, ``mat``, ``stage``, both buffers None,
        the index and value types and the format (not_implemented), then the checks of the format's
        legacy routine on the descriptor's contents, naming ``mat`` (``temp_buffer`` for its own).
    """
    c = Call("check_spmat", None, _CHECK_SPMAT, dict(zip(_CHECK_SPMAT, (handle, mat, data_status, stage,
                                                                       buffer_size, temp_buffer), strict=True)))
    check_handle(handle)
    A = _live_spmat(mat, "mat", c.index("mat"))
    stg = c.enum("stage", CheckSpmatStage)
    if is_null(buffer_size) and is_null(temp_buffer):
        raise c.invalid_pointer("buffer_size", "buffer_size and temp_buffer are both null")
    _index_types(c, A, "mat")
    if A.data_type not in _FLOATS:
        raise SparseNotImplementedError(f"{A.data_type.name} values are not supported", arg="mat",
                                        index=c.index("mat"))
    if A.format in (Format.coo_aos, Format.bell):
        raise SparseNotImplementedError(f"check_spmat on {A.format.name} matrices", arg="mat", index=c.index("mat"))
    compute = stg is CheckSpmatStage.compute
    kind, params, values, body = _legacy_values(A)
    out = ("data_status", "temp_buffer") if compute else ("buffer_size",)
    names = ("handle", *params, *out)
    values = {"handle": handle, **values, "data_status": None, "temp_buffer": temp_buffer, "buffer_size": None}
    legacy = Call("check_spmat", Precision.of(A.data_type.dtype), names, {k: values[k] for k in names})
    ptr_type, ind_type = (A.col_type, A.row_type) if A.format is Format.csc else (A.row_type, A.col_type)
    types = (ptr_type.dtype, ind_type.dtype)
    try:
        result = body(legacy, compute, types)
    except SparseError as exc:
        arg = "temp_buffer" if exc.arg == "temp_buffer" else "mat"
        raise type(exc)(f"check_matrix_{kind}: {exc.message}", arg=arg, index=c.index(arg)) from None
    return _out(data_status if compute else buffer_size, result)

