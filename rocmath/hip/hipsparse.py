"""``hip.hipsparse``: hipSPARSE as hip-python binds it, over :mod:`rocmath.sparse` (rocSPARSE).

Every function returns ``(hipsparseStatus_t, *outputs)``.  Handles and descriptors are
opaque pointers: ``hipsparseCreate() -> (status, handle)``; the Create functions of
descriptors write the new descriptor through their first argument, as in C
(``descr = ctypes.c_void_p(); hipsparseCreateMatDescr(descr)``), or, called without
it, return it (``hipsparseCreateMatDescr() -> (status, descr)``).  Size queries and
getters work the same way (``hipsparseSpMV_bufferSize(..., bufferSize)`` writes a
``size_t``; without ``bufferSize`` it returns the size).  Host scalars (``alpha``,
``beta``) are pointers in host pointer mode (``ctypes.c_float(1)``, an address, a numpy
array), device pointers in device pointer mode.  Enum parameters must be members of
this module's enums (plain ints raise ``TypeError``, as in hip-python); hipSPARSE's
values are converted to rocSPARSE's as hipSPARSE does (its operations are 0, 1, 2;
its orders, formats, data types and algorithms are numbered differently too).  Integer
arguments convert as hip-python's Cython bindings convert them, first (before any enum
check or status): to ``int`` in the legacy API, ``int64_t`` for the generic API's sizes and
batch strides, ``size_t`` for ``SpMatGet/SetAttribute``'s ``dataSize``; a value the C type
cannot hold raises ``OverflowError`` naming the argument, a non-integer ``TypeError``.

Every function except the four descriptor getters without status is generated from
one table, :data:`FUNCTIONS` (one line per hipSPARSE function: its hip-python
parameters and the rocmath.sparse call they become), through
:func:`rocmath.hip._api.binding`; statuses come from hipSPARSE's conversion of
rocSPARSE's (:data:`ROCSPARSE_TO_HIPSPARSE`).  A rocSPARSE routine added to
rocmath.sparse needs one table line here.

Families, each mapped as hipSPARSE maps it onto rocSPARSE:

- level 1 to 3, conversions, sorts (csrsort, cscsort, coosort), csrgeam/csrgemm2 and the generic
  SpMV/SpMM (with strided batches: ``hipsparseCsrSetStridedBatch``, ``CooSetStridedBatch``,
  ``SpMatGet/SetStridedBatch``, ``DnMatGet/SetStridedBatch``);
- the legacy csrgemm (``XcsrgemmNnz``, ``?csrgemm``: C := A B on a ``mat_info``, an alpha = 1
  -- a device copy in device pointer mode -- and a buffer of hipSPARSE's own, D absent; the
  nnz stage's size query in double complex, as hipSPARSE asks it), ``Csr2cscEx2`` (csr2csc
  by ``valType``, the four floating types only, ``alg`` ignored) and ``csru2csr`` /
  ``csr2csru`` (hipSPARSE's composition: csrsort from an identity permutation kept in its own
  ``csru2csrInfo_t`` (:class:`Csru2csrInfo`), the values gathered through the buffer; back,
  the indices and values scattered by it);
- the info objects (``csrsv2Info_t``, ``csrsm2Info_t``, ``csrilu02Info_t``, ``csric02Info_t``,
  ``bsrsv2Info_t``, ``bsrsm2Info_t``, ``bsrilu02Info_t``, ``bsric02Info_t``,
  ``csrgemm2Info_t``, ``pruneInfo_t`` and ``hipsparseColorInfo_t``) are all rocSPARSE
  ``mat_info`` objects (:class:`hipsparseMatInfo_t`), as in hipSPARSE; analyses always run
  with rocSPARSE's ``force`` policy and every solve policy becomes ``auto``; the
  csrilu02/csric02/bsrilu02/bsric02 analyses and the zero-pivot queries of csrilu02, csric02,
  bsrilu02, bsric02, csrsm2 and bsrsm2 synchronize the stream (they are blocking in cuSPARSE);
  csrsm2's ``algo`` is ignored;
- gtsv2 / gtsv2_nopivot / gtsv2StridedBatch and the interleaved batches (whose ``algo``
  is rocSPARSE's algorithm number and whose batch stride is ``batchCount``): their size
  queries pass placeholders for the arrays, as hipSPARSE does; csrcolor (``fractionToColor``
  and ``ncolors`` are host pointers in both pointer modes);
- BSR (``Xcsr2bsrNnz``, ``csr2bsr``, ``bsr2csr``, ``bsrmv`` -- without analysis --,
  ``bsrxmv``, ``bsrmm``, bsrsv2, bsrsm2, bsrilu02, bsric02), general BSR (``csr2gebsr``,
  ``gebsr2csr``, ``gebsr2gebsc``, ``gebsr2gebsr`` with their size and nnz queries),
  ``nnz_compress`` / ``csr2csr_compress`` (``tol`` by value), HYB (``hipsparseHybMat_t``:
  ``csr2hyb``, ``hyb2csr`` with a buffer hipSPARSE allocates, ``hybmv``), ``gemvi``, ``gemmi``
  (``C := alpha A B`` with B in CSC: rocSPARSE's gemmi of B's CSC arrays read as the CSR
  arrays of B^T, transposed) and the prune conversions (S and D; ``threshold`` follows the
  pointer mode);
- the generic API's sparse vectors (``hipsparseSpVecDescr_t``) and their operations (SpVV,
  Axpby, Gather, Scatter, Rot), COO AoS and Blocked-ELL descriptors (block direction
  column, as hipSPARSE creates them), SparseToDense, DenseToSparse, SDDMM, and SpSV/SpSM
  with their descriptors, which keep the analysis' buffer for the solve as hipSPARSE's do
  (SpSM's size is at least 4 bytes, its analysis needs a buffer);
- ``hipsparseGetGitRevision``: ``"<hipsparseVersionTweak> (rocSPARSE <version>-<revision>)"``
  through a ``char*`` (a ``bytearray``, ``ctypes.create_string_buffer``...).

The generic SpGEMM (``hipsparseSpGEMM_createDescr``, ``_workEstimation``, ``_compute``,
``_copy``, ``_destroyDescr``) keeps hipSPARSE's stages and buffer layout (C's row pointer
in the first buffer, its columns and values in the second until the copy) and runs
rocmath.sparse's ``spgemm`` in them as hipSPARSE runs rocSPARSE's (C := alpha A B, D
absent); the copy adds ``beta`` times C's values over the product's pattern with
hipSPARSE's axpby (C's values scaled by beta first: beta == 0 ignores what C held).
SpGEMMreuse (``_workEstimation``, ``_nnz``, ``_copy``, ``_compute``) keeps hipSPARSE's five
buffers likewise: the work estimation is SpGEMM's with placeholder scalars, ``_nnz`` copies
buffer1 to buffer4 and runs spgemm's symbolic stage into buffer3, ``_copy`` moves C's row
pointer and columns into C's arrays, ``_compute`` runs the numeric stage into buffer5 and
the same axpby, as often as wanted.  The ``Const`` functions take the mutable ones'
parameters over rocSPARSE's const creators and getters (rocmath.sparse's
``create_const_*_descr``, ``const_*_get``): a const descriptor's mutable getters give null
arrays, and a setter or an output refuses it (INVALID_VALUE).
"""

from __future__ import annotations

import contextlib
import ctypes
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import rocmath
import rocmath.sparse as _sparse
from rocmath.errors import HipStatus
from rocmath.handle import PointerMode
from rocmath.sparse import (
    AnalysisPolicy,
    Datatype,
    Direction,
    DnMatDescr,
    DnVecDescr,
    Format,
    HybMat,
    IndexBase,
    IndexType,
    MatDescr,
    MatInfo,
    Operation,
    Order,
    SolvePolicy,
    SparseError,
    SparseHandle,
    SparseInvalidPointerError,
    SparseInvalidSizeError,
    SparseInvalidValueError,
    SparseZeroPivotError,
    SpGEMMAlg,
    SpGEMMStage,
    SpMatAttribute,
    SpMatDescr,
    SpMMAlg,
    SpMMStage,
    SpMVAlg,
    SpMVStage,
    SpSMStage,
    SpSVStage,
    SpVecDescr,
    Status,
)
from rocmath.sparse._extract import GIT_REV as _GIT_REV

from . import hip as _hip
from ._api import binding
from ._lib import (
    LibraryError,
    Opaque,
    c_double,
    c_integer,
    call_arguments,
    error_factory,
    find,
    host_bytes_at,
    library_table,
    out_parameters,
    read_host,
    stream_of,
    target_of,
    write_host,
)
from ._types import CStr, c_enum, check_enum, device_address, pointer_value, resolve
from .hip import hipDataType

_MODULE = __name__

# --- enums (hipsparse.h values) ------------------------------------------------------------------

hipsparseStatus_t = c_enum("hipsparseStatus_t", [
    ("HIPSPARSE_STATUS_SUCCESS", 0), ("HIPSPARSE_STATUS_NOT_INITIALIZED", 1), ("HIPSPARSE_STATUS_ALLOC_FAILED", 2),
    ("HIPSPARSE_STATUS_INVALID_VALUE", 3), ("HIPSPARSE_STATUS_ARCH_MISMATCH", 4),
    ("HIPSPARSE_STATUS_MAPPING_ERROR", 5), ("HIPSPARSE_STATUS_EXECUTION_FAILED", 6),
    ("HIPSPARSE_STATUS_INTERNAL_ERROR", 7), ("HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", 8),
    ("HIPSPARSE_STATUS_ZERO_PIVOT", 9), ("HIPSPARSE_STATUS_NOT_SUPPORTED", 10),
    ("HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES", 11),
], _MODULE, "``hipsparseStatus_t``.")
hipsparsePointerMode_t = c_enum("hipsparsePointerMode_t", [
    ("HIPSPARSE_POINTER_MODE_HOST", 0), ("HIPSPARSE_POINTER_MODE_DEVICE", 1)], _MODULE)
hipsparseAction_t = c_enum("hipsparseAction_t", [
    ("HIPSPARSE_ACTION_SYMBOLIC", 0), ("HIPSPARSE_ACTION_NUMERIC", 1)], _MODULE)
hipsparseMatrixType_t = c_enum("hipsparseMatrixType_t", [
    ("HIPSPARSE_MATRIX_TYPE_GENERAL", 0), ("HIPSPARSE_MATRIX_TYPE_SYMMETRIC", 1),
    ("HIPSPARSE_MATRIX_TYPE_HERMITIAN", 2), ("HIPSPARSE_MATRIX_TYPE_TRIANGULAR", 3)], _MODULE)
hipsparseFillMode_t = c_enum("hipsparseFillMode_t", [
    ("HIPSPARSE_FILL_MODE_LOWER", 0), ("HIPSPARSE_FILL_MODE_UPPER", 1)], _MODULE)
hipsparseDiagType_t = c_enum("hipsparseDiagType_t", [
    ("HIPSPARSE_DIAG_TYPE_NON_UNIT", 0), ("HIPSPARSE_DIAG_TYPE_UNIT", 1)], _MODULE)
hipsparseIndexBase_t = c_enum("hipsparseIndexBase_t", [
    ("HIPSPARSE_INDEX_BASE_ZERO", 0), ("HIPSPARSE_INDEX_BASE_ONE", 1)], _MODULE)
hipsparseOperation_t = c_enum("hipsparseOperation_t", [
    ("HIPSPARSE_OPERATION_NON_TRANSPOSE", 0), ("HIPSPARSE_OPERATION_TRANSPOSE", 1),
    ("HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE", 2)], _MODULE)
hipsparseHybPartition_t = c_enum("hipsparseHybPartition_t", [
    ("HIPSPARSE_HYB_PARTITION_AUTO", 0), ("HIPSPARSE_HYB_PARTITION_USER", 1), ("HIPSPARSE_HYB_PARTITION_MAX", 2)],
    _MODULE)
hipsparseSolvePolicy_t = c_enum("hipsparseSolvePolicy_t", [
    ("HIPSPARSE_SOLVE_POLICY_NO_LEVEL", 0), ("HIPSPARSE_SOLVE_POLICY_USE_LEVEL", 1)], _MODULE)
hipsparseSideMode_t = c_enum("hipsparseSideMode_t", [("HIPSPARSE_SIDE_LEFT", 0), ("HIPSPARSE_SIDE_RIGHT", 1)],
                             _MODULE)
hipsparseDirection_t = c_enum("hipsparseDirection_t", [
    ("HIPSPARSE_DIRECTION_ROW", 0), ("HIPSPARSE_DIRECTION_COLUMN", 1)], _MODULE)
hipsparseCsr2CscAlg_t = c_enum("hipsparseCsr2CscAlg_t", [
    ("HIPSPARSE_CSR2CSC_ALG_DEFAULT", 0), ("HIPSPARSE_CSR2CSC_ALG1", 1), ("HIPSPARSE_CSR2CSC_ALG2", 2)], _MODULE)
hipsparseFormat_t = c_enum("hipsparseFormat_t", [
    ("HIPSPARSE_FORMAT_CSR", 1), ("HIPSPARSE_FORMAT_CSC", 2), ("HIPSPARSE_FORMAT_COO", 3),
    ("HIPSPARSE_FORMAT_COO_AOS", 4), ("HIPSPARSE_FORMAT_BLOCKED_ELL", 5)], _MODULE)
hipsparseOrder_t = c_enum("hipsparseOrder_t", [
    ("HIPSPARSE_ORDER_COLUMN", 1), ("HIPSPARSE_ORDER_COL", 1), ("HIPSPARSE_ORDER_ROW", 2)], _MODULE)
hipsparseIndexType_t = c_enum("hipsparseIndexType_t", [
    ("HIPSPARSE_INDEX_16U", 1), ("HIPSPARSE_INDEX_32I", 2), ("HIPSPARSE_INDEX_64I", 3)], _MODULE)
hipsparseSpMVAlg_t = c_enum("hipsparseSpMVAlg_t", [
    ("HIPSPARSE_MV_ALG_DEFAULT", 0), ("HIPSPARSE_COOMV_ALG", 1), ("HIPSPARSE_CSRMV_ALG1", 2),
    ("HIPSPARSE_CSRMV_ALG2", 3), ("HIPSPARSE_SPMV_ALG_DEFAULT", 0), ("HIPSPARSE_SPMV_COO_ALG1", 1),
    ("HIPSPARSE_SPMV_CSR_ALG1", 2), ("HIPSPARSE_SPMV_CSR_ALG2", 3), ("HIPSPARSE_SPMV_COO_ALG2", 4)], _MODULE)
hipsparseSpMMAlg_t = c_enum("hipsparseSpMMAlg_t", [
    ("HIPSPARSE_MM_ALG_DEFAULT", 0), ("HIPSPARSE_COOMM_ALG1", 1), ("HIPSPARSE_COOMM_ALG2", 2),
    ("HIPSPARSE_COOMM_ALG3", 3), ("HIPSPARSE_CSRMM_ALG1", 4), ("HIPSPARSE_SPMM_ALG_DEFAULT", 0),
    ("HIPSPARSE_SPMM_COO_ALG1", 1), ("HIPSPARSE_SPMM_COO_ALG2", 2), ("HIPSPARSE_SPMM_COO_ALG3", 3),
    ("HIPSPARSE_SPMM_COO_ALG4", 5), ("HIPSPARSE_SPMM_CSR_ALG1", 4), ("HIPSPARSE_SPMM_CSR_ALG2", 6),
    ("HIPSPARSE_SPMM_CSR_ALG3", 12), ("HIPSPARSE_SPMM_BLOCKED_ELL_ALG1", 13)], _MODULE)
hipsparseSpMatAttribute_t = c_enum("hipsparseSpMatAttribute_t", [
    ("HIPSPARSE_SPMAT_FILL_MODE", 0), ("HIPSPARSE_SPMAT_DIAG_TYPE", 1)], _MODULE)
hipsparseSpGEMMAlg_t = c_enum("hipsparseSpGEMMAlg_t", [
    ("HIPSPARSE_SPGEMM_DEFAULT", 0), ("HIPSPARSE_SPGEMM_CSR_ALG_DETERMINISTIC", 1),
    ("HIPSPARSE_SPGEMM_CSR_ALG_NONDETERMINISTIC", 2), ("HIPSPARSE_SPGEMM_ALG1", 3), ("HIPSPARSE_SPGEMM_ALG2", 4),
    ("HIPSPARSE_SPGEMM_ALG3", 5)], _MODULE)
hipsparseSparseToDenseAlg_t = c_enum("hipsparseSparseToDenseAlg_t", [("HIPSPARSE_SPARSETODENSE_ALG_DEFAULT", 0)],
                                     _MODULE)
hipsparseDenseToSparseAlg_t = c_enum("hipsparseDenseToSparseAlg_t", [("HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT", 0)],
                                     _MODULE)
hipsparseSDDMMAlg_t = c_enum("hipsparseSDDMMAlg_t", [("HIPSPARSE_SDDMM_ALG_DEFAULT", 0)], _MODULE)
hipsparseSpSVAlg_t = c_enum("hipsparseSpSVAlg_t", [("HIPSPARSE_SPSV_ALG_DEFAULT", 0)], _MODULE)
hipsparseSpSMAlg_t = c_enum("hipsparseSpSMAlg_t", [("HIPSPARSE_SPSM_ALG_DEFAULT", 0)], _MODULE)

#: The hipSPARSE release whose API this follows (hipsparse-version.h of ROCm 6.2).
hipsparseVersionMajor = 3
hipsparseVersionMinor = 1
hipsparseVersionPatch = 1

_S = hipsparseStatus_t


class HipsparseStatusError(LibraryError):
    """A failure hipSPARSE itself reports (before or instead of a rocSPARSE status)."""

    status = _S.HIPSPARSE_STATUS_INTERNAL_ERROR


# --- the status table -------------------------------------------------------------------------------

#: hipSPARSE's rocSPARSEStatusToHIPStatus.
ROCSPARSE_TO_HIPSPARSE: dict[Status, Any] = {
    Status.success: _S.HIPSPARSE_STATUS_SUCCESS,
    Status.invalid_handle: _S.HIPSPARSE_STATUS_INVALID_VALUE,
    Status.not_implemented: _S.HIPSPARSE_STATUS_NOT_SUPPORTED,
    Status.invalid_pointer: _S.HIPSPARSE_STATUS_INVALID_VALUE,
    Status.invalid_size: _S.HIPSPARSE_STATUS_INVALID_VALUE,
    Status.memory_error: _S.HIPSPARSE_STATUS_ALLOC_FAILED,
    Status.internal_error: _S.HIPSPARSE_STATUS_INTERNAL_ERROR,
    Status.invalid_value: _S.HIPSPARSE_STATUS_INVALID_VALUE,
    Status.arch_mismatch: _S.HIPSPARSE_STATUS_ARCH_MISMATCH,
    Status.zero_pivot: _S.HIPSPARSE_STATUS_ZERO_PIVOT,
    Status.not_initialized: _S.HIPSPARSE_STATUS_NOT_INITIALIZED,
    Status.type_mismatch: _S.HIPSPARSE_STATUS_INTERNAL_ERROR,
    Status.requires_sorted_storage: _S.HIPSPARSE_STATUS_INTERNAL_ERROR,
    Status.thrown_exception: _S.HIPSPARSE_STATUS_INTERNAL_ERROR,
    Status.continue_: _S.HIPSPARSE_STATUS_SUCCESS,
}

#: hipSPARSE's hipErrorToHIPSPARSEStatus for the HIP errors rocmath raises (others: INTERNAL_ERROR).
_HIP_TO_HIPSPARSE = {
    HipStatus.hipErrorOutOfMemory: _S.HIPSPARSE_STATUS_ALLOC_FAILED,
    HipStatus.hipErrorInvalidDevicePointer: _S.HIPSPARSE_STATUS_INVALID_VALUE,
    HipStatus.hipErrorInvalidDevice: _S.HIPSPARSE_STATUS_NOT_INITIALIZED,
    HipStatus.hipErrorInvalidHandle: _S.HIPSPARSE_STATUS_NOT_INITIALIZED,
    HipStatus.hipErrorInvalidValue: _S.HIPSPARSE_STATUS_INVALID_VALUE,
}


def convert_status(status: Any) -> Any:
    """``rocSPARSEStatusToHIPStatus``: a rocSPARSE status as hipSPARSE reports it."""
    return ROCSPARSE_TO_HIPSPARSE.get(Status(int(status)), _S.HIPSPARSE_STATUS_INTERNAL_ERROR)


_HIPSPARSE = library_table(_S.HIPSPARSE_STATUS_SUCCESS, error=HipsparseStatusError, backend=SparseError,
                           convert=convert_status, execution_failed=_S.HIPSPARSE_STATUS_EXECUTION_FAILED,
                           alloc_failed=_S.HIPSPARSE_STATUS_ALLOC_FAILED,
                           internal_error=_S.HIPSPARSE_STATUS_INTERNAL_ERROR,
                           hip=lambda exc: _HIP_TO_HIPSPARSE.get(exc.status, _S.HIPSPARSE_STATUS_INTERNAL_ERROR))
_error = error_factory(HipsparseStatusError, _S.HIPSPARSE_STATUS_INVALID_VALUE)


def _invalid_stream(message: str, arg: str) -> SparseInvalidValueError:
    return SparseInvalidValueError(message, arg=arg)


# --- opaque objects -------------------------------------------------------------------------------------


class hipsparseHandle_t(Opaque):
    """A ``hipsparseHandle_t`` (a :class:`rocmath.sparse.SparseHandle`)."""


class hipsparseMatDescr_t(Opaque):
    """A ``hipsparseMatDescr_t`` (a :class:`rocmath.sparse.MatDescr`)."""


class hipsparseSpMatDescr_t(Opaque):
    """A ``hipsparseSpMatDescr_t`` (a :class:`rocmath.sparse.SpMatDescr`)."""


class hipsparseDnVecDescr_t(Opaque):
    """A ``hipsparseDnVecDescr_t`` (a :class:`rocmath.sparse.DnVecDescr`)."""


class hipsparseDnMatDescr_t(Opaque):
    """A ``hipsparseDnMatDescr_t`` (a :class:`rocmath.sparse.DnMatDescr`)."""


class hipsparseMatInfo_t(Opaque):
    """An analysis object (``csrsv2Info_t``, ``csrilu02Info_t``, ``pruneInfo_t``, ``hipsparseColorInfo_t``...:
    a :class:`rocmath.sparse.MatInfo`, as hipSPARSE makes each of them a rocSPARSE ``mat_info``)."""


class hipsparseHybMat_t(Opaque):
    """A ``hipsparseHybMat_t`` (a :class:`rocmath.sparse.HybMat`)."""


class hipsparseSpVecDescr_t(Opaque):
    """A ``hipsparseSpVecDescr_t`` (a :class:`rocmath.sparse.SpVecDescr`)."""


class hipsparseSpGEMMDescr_t(Opaque):
    """A ``hipsparseSpGEMMDescr_t`` (a :class:`SpGEMMDescr`)."""


class hipsparseSpSVDescr_t(Opaque):
    """A ``hipsparseSpSVDescr_t`` (a :class:`SpSVDescr`)."""


class hipsparseSpSMDescr_t(Opaque):
    """A ``hipsparseSpSMDescr_t`` (a :class:`SpSMDescr`)."""


class hipsparseCsru2csrInfo_t(Opaque):
    """A ``csru2csrInfo_t`` (a :class:`Csru2csrInfo`: hipSPARSE's own structure, no rocSPARSE object)."""


@dataclass(eq=False)
class SpGEMMDescr:
    """hipSPARSE's ``hipsparseSpGEMMDescr``: the external buffers of SpGEMM's stages and their sizes.

    ``buffer1`` holds C's row pointer (its first ``256``-rounded bytes), then spgemm's temp
    buffer; ``buffer2`` C's column indices, values, an index array and a scalar, each rounded
    to 256 bytes, as hipSPARSE lays them out.  The SpGEMMreuse stages use ``buffer3`` (C's
    column indices and values), ``buffer4`` (a copy of ``buffer1``: C's row pointer and
    spgemm's temp buffer) and ``buffer5`` (the product's values, an index array and a scalar);
    ``buffer2`` is only recorded there (hipSPARSE asks 4 bytes of it).  The analysis itself
    lives in C's descriptor, as rocSPARSE's spgemm keeps it.
    """

    size1: int = 0
    size2: int = 0
    buffer1: int = 0
    buffer2: int = 0
    size3: int = 0
    size4: int = 0
    size5: int = 0
    buffer3: int = 0
    buffer4: int = 0
    buffer5: int = 0


@dataclass(eq=False)
class SpSVDescr:
    """hipSPARSE's ``hipsparseSpSVDescr``: the buffer SpSV_analysis ran with, which SpSV_solve uses (the
    analysis lives in the matrix descriptor, as rocSPARSE's spsv keeps it)."""

    buffer: int = 0


@dataclass(eq=False)
class SpSMDescr:
    """hipSPARSE's ``hipsparseSpSMDescr``: the buffer SpSM_analysis ran with, which SpSM_solve uses instead of
    its own ``externalBuffer`` argument (as hipSPARSE does)."""

    buffer: int = 0


@dataclass(eq=False)
class Csru2csrInfo:
    """hipSPARSE's ``csru2csrInfo``: the permutation (``P``, ``size`` entries, allocated by csru2csr) that sorted
    the rows, which csr2csru undoes."""

    size: int = 0
    P: int = 0


_OPAQUE = {SparseHandle: hipsparseHandle_t, MatDescr: hipsparseMatDescr_t, SpMatDescr: hipsparseSpMatDescr_t,
           DnVecDescr: hipsparseDnVecDescr_t, DnMatDescr: hipsparseDnMatDescr_t, MatInfo: hipsparseMatInfo_t,
           HybMat: hipsparseHybMat_t, SpVecDescr: hipsparseSpVecDescr_t, SpGEMMDescr: hipsparseSpGEMMDescr_t,
           SpSVDescr: hipsparseSpSVDescr_t, SpSMDescr: hipsparseSpSMDescr_t, Csru2csrInfo: hipsparseCsru2csrInfo_t}


def _new(obj: Any) -> Opaque:
    return _OPAQUE[type(obj)].new(obj)


# --- enum conversions (hipSPARSE's hip*ToHCC* functions) ---------------------------------------------

_TO_ROCSPARSE: dict[type, dict[int, Any]] = {
    hipsparseOperation_t: {0: Operation.none, 1: Operation.transpose, 2: Operation.conjugate_transpose},
    hipsparseOrder_t: {1: Order.column, 2: Order.row},
    hipsparseFormat_t: {1: Format.csr, 2: Format.csc, 3: Format.coo, 4: Format.coo_aos, 5: Format.bell},
    hipsparseIndexType_t: {2: 2, 3: 3},  # no 16-bit indices in hipSPARSE's conversion
    # int8 data with int32 or float results: rocSPARSE's mixed spmv/spmm types, which hipSPARSE passes on.
    hipDataType: {0: Datatype.f32_r, 1: Datatype.f64_r, 4: Datatype.f32_c, 5: Datatype.f64_c, 3: Datatype.i8_r,
                  10: Datatype.i32_r},
    hipsparseSpMVAlg_t: {0: SpMVAlg.default, 1: SpMVAlg.coo, 4: SpMVAlg.coo, 2: SpMVAlg.csr_adaptive,
                         3: SpMVAlg.csr_stream},
    hipsparseSpMMAlg_t: {0: SpMMAlg.default, 1: SpMMAlg.coo_atomic, 2: SpMMAlg.coo_segmented,
                         3: SpMMAlg.coo_segmented_atomic, 5: SpMMAlg.coo_segmented_atomic,
                         4: SpMMAlg.csr_row_split, 6: SpMMAlg.csr, 12: SpMMAlg.csr, 13: SpMMAlg.bell},
    hipsparseSolvePolicy_t: {0: SolvePolicy.auto, 1: SolvePolicy.auto},
    hipsparseSpGEMMAlg_t: dict.fromkeys(range(6), SpGEMMAlg.default),
}
_FROM_ROCSPARSE = {cls: {int(v): k for k, v in table.items()} for cls, table in _TO_ROCSPARSE.items()}


def _to_rocsparse(value: Any, cls: type, arg: str) -> Any:
    check_enum(value, cls, arg)
    table = _TO_ROCSPARSE.get(cls)
    if table is None:  # same numbering in hipSPARSE and rocSPARSE
        return int(value)
    if int(value) not in table:
        # hipSPARSE throws for values its conversion lacks (the process would abort); here the call fails.
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, f"{value.name} has no rocSPARSE value", arg=arg)
    return table[int(value)]


def _from_rocsparse(value: Any, cls: type) -> Any:
    table = _FROM_ROCSPARSE.get(cls)
    return cls(table[int(value)] if table is not None else int(value))


# --- parameter kinds ------------------------------------------------------------------------------------

_IDX = hipsparseIndexType_t
#: Enum parameters by hip-python name (``alg`` is the function's own: :attr:`Spec.alg`).
_ENUMS: dict[str, type] = {
    "transA": hipsparseOperation_t, "transB": hipsparseOperation_t, "opA": hipsparseOperation_t,
    "opB": hipsparseOperation_t, "opX": hipsparseOperation_t, "idxBase": hipsparseIndexBase_t,
    "base": hipsparseIndexBase_t, "copyValues": hipsparseAction_t, "computeType": hipDataType,
    "idx_base": hipsparseIndexBase_t, "copy_values": hipsparseAction_t,
    "valueType": hipDataType, "csrRowOffsetsType": _IDX, "csrColIndType": _IDX, "cscColOffsetsType": _IDX,
    "cscRowIndType": _IDX, "cooIdxType": _IDX, "idxType": _IDX, "ellIdxType": _IDX, "order": hipsparseOrder_t,
    "type": hipsparseMatrixType_t, "fillMode": hipsparseFillMode_t, "diagType": hipsparseDiagType_t,
    "mode": hipsparsePointerMode_t, "attribute": hipsparseSpMatAttribute_t, "policy": hipsparseSolvePolicy_t,
    "dirA": hipsparseDirection_t, "partitionType": hipsparseHybPartition_t, "dir": hipsparseDirection_t,
    "trans": hipsparseOperation_t, "transX": hipsparseOperation_t,
}
#: Enum parameters checked (hip-python's TypeError for plain ints) and passed on as hipSPARSE's value, for a
#: function that switches on it itself (Csr2cscEx2's ``valType``).
_HIP_ENUMS: dict[str, type] = {"valType": hipDataType}
#: Integer parameters, C ``int`` unless their table entry says otherwise (``:l`` ``int64_t``, ``:z`` ``size_t``: the
#: generic API's sizes, strides and attribute sizes); ``algo`` is a plain int in hipSPARSE: rocSPARSE's algorithm
#: number, or ignored.
_INTS = frozenset({"m", "n", "k", "nnz", "lda", "ldb", "ldc", "ld", "db", "rows", "cols", "size", "batchCount",
                   "batchStride", "nnzA", "nnzB", "nnzD", "dataSize", "mb", "nb", "kb", "nnzb", "blockDim", "nrhs",
                   "algo", "userEllWidth", "enable_boost", "ellBlockSize", "ellCols", "ldx", "sizeOfMask",
                   "offsetsBatchStride", "columnsValuesBatchStride", "rowBlockDim", "colBlockDim", "rowBlockDimA",
                   "colBlockDimA", "rowBlockDimC", "colBlockDimC", "row_block_dim", "col_block_dim"})
#: C ``double`` parameters (``float`` in the S functions: the same conversion).
_DOUBLES = frozenset({"percentage"})
#: The C type of an integer parameter by its suffix after ``:`` in a table entry (none: ``int``).
_INT_TYPES = {"": "int", "l": "int64_t", "z": "size_t"}
#: Handles and descriptors.  Other pointer parameters designating one (SpSV's ``x``, SDDMM's ``A``...)
#: become it too.
_OBJECTS = frozenset({"handle", "descr", "descrA", "descrB", "descrC", "descrD", "dest", "src", "matA", "matB", "matC",
                      "vecX", "vecY", "spMatDescr", "spVecDescr", "dnVecDescr", "dnMatDescr", "info", "spgemmDescr",
                      "spsvDescr", "spsmDescr", "hybA", "csr_descr", "bsr_descr"})
#: Host pointers a function reads or writes itself (passed on unconverted).
_RAW = frozenset({"data", "rev"})


@dataclass(frozen=True)
class _Scalar:
    """A scalar behind a pointer: of the precision's real type (``real``), read from host memory in host pointer
    mode only (``by_mode``) or always (rocSPARSE's csrcolor reads its fraction on the host)."""

    real: bool = False
    by_mode: bool = True


#: Host scalars (device pointers in device pointer mode, unless ``by_mode`` is off).
_SCALARS = {"alpha": _Scalar(), "beta": _Scalar(), "c": _Scalar(), "s": _Scalar(), "c_coeff": _Scalar(),
            "s_coeff": _Scalar(), "threshold": _Scalar(), "boost_val": _Scalar(), "tol": _Scalar(real=True),
            "fractionToColor": _Scalar(real=True, by_mode=False)}
#: Out-parameter C types by the suffix after ``*`` in a table entry (default: a pointer-sized value).
_OUT_TYPES = {"": np.dtype(np.uint64), "i": np.dtype(np.int32), "l": np.dtype(np.int64)}
#: Constant arguments of a table entry's call (besides ``=buffer`` and the stages).
_CONSTANTS: dict[str, Any] = {
    "=None": None, "=N": Operation.none, "=T": Operation.transpose, "=force": AnalysisPolicy.force,
    "=auto": SolvePolicy.auto, "=column": Direction.column,
    "=dummy": 0x4,  # the non-null placeholder hipSPARSE passes for arrays a size query does not read
}
#: Arguments made afresh for each call: a host size_t rocSPARSE writes a size query's answer to (the binding
#: returns the answer), and the default matrix descriptor hipSPARSE's gemmi creates.
_FRESH: dict[str, Callable[[], Any]] = {"=box": lambda: np.zeros(1, np.uint64), "=descr": _sparse.create_mat_descr}
#: The stage enums of the staged generic functions (``=buffer_size``, ``=preprocess``, ``=compute`` in a call).
_STAGES = {"spmv": SpMVStage, "spmm": SpMMStage, "spsv": SpSVStage, "spsm": SpSMStage}


@dataclass(frozen=True)
class Spec:
    """One hipSPARSE function.

    Attributes
    ----------
    roc
        The rocmath.sparse function (``{p}``: the precision letter), or a callable.
    params
        hip-python's parameters; ``name*`` is an out-parameter (``*i``: int, ``*l``: int64,
        ``*``: size_t or a handle); ``name&`` a result behind a host pointer in host pointer mode
        (rocmath.sparse returns it, the binding writes it: ``&i`` int, ``&p`` the precision's
        type, ``&c`` the compute type, for which rocmath.sparse gets a host scratch value) and a
        device pointer rocmath.sparse writes in device pointer mode; ``name^i`` an int result
        behind a host pointer in both pointer modes; ``name%`` a value of the precision's type
        passed by value (C ``float`` ... ``hipDoubleComplex``: a Python or numpy number); ``name:l`` an
        ``int64_t`` integer, ``name:z`` a ``size_t`` one (the others of :data:`_INTS` are ``int``).
    call
        The rocmath.sparse arguments: parameter names, or ``=None``, ``=N`` / ``=T`` (no
        transpose / transpose), ``=force`` / ``=auto`` (analysis and solve policies), ``=column``,
        ``=dummy`` (a non-null placeholder), ``=box`` (a fresh host size_t), ``=descr`` (a fresh
        matrix descriptor), ``=buffer`` (a scratch buffer hipSPARSE allocates), ``=p`` (the
        precision letter, lower case, for a callable serving every precision), ``=`` followed by
        a stage name.  An out-parameter named here is passed as given (its host pointer, None when
        the caller omitted it), for a function that reads what it points to.
    alg
        The enum class of the ``alg`` parameter.
    scalar
        Where the host scalars' type comes from: the precision letter, ``computeType`` or the
        sparse vector ``vecX``.
    release
        The descriptor parameter a Destroy function releases.
    post
        Turns rocmath.sparse's result into the out-parameter's value(s).
    buffer
        ``(rocmath.sparse function, parameter names)`` sizing the ``=buffer`` argument.
    blocking
        hipSPARSE synchronizes the handle's stream before returning (doti, csrsv2_analysis...).
    """

    roc: str | Callable[..., Any]
    params: str
    call: str
    alg: type | None = None
    scalar: str = "precision"
    release: str | None = None
    post: Callable[[Any], Any] | None = None
    buffer: tuple[str, str] | None = None
    blocking: bool = False


_SPMV = "handle opA alpha matA vecX beta vecY computeType alg"
_SPMM = "handle opA opB alpha matA matB beta matC computeType alg"
_CSRMM = "alpha descrA csrSortedValA csrSortedRowPtrA csrSortedColIndA B ldb beta C ldc"
_DENSE = "handle m n descr A ld"
_COOSORT = "handle m n nnz cooRows cooCols P pBuffer"
_DOTI = "handle nnz xVal xInd y result"
_AXPYI = "handle nnz alpha xVal xInd y idxBase"
_CSRSV = "handle transA m nnz descrA csrSortedValA csrSortedRowPtrA csrSortedColIndA info"
_GEMM2_SIZE = ("handle m n k alpha descrA nnzA csrRowPtrA csrColIndA descrB nnzB csrRowPtrB csrColIndB beta descrD "
               "nnzD csrRowPtrD csrColIndD info")
_GEMM2_NNZ = ("handle m n k descrA nnzA csrRowPtrA csrColIndA descrB nnzB csrRowPtrB csrColIndB descrD nnzD "
              "csrRowPtrD csrColIndD descrC csrRowPtrC")
_GEMM2 = ("handle m n k alpha descrA nnzA csrValA csrRowPtrA csrColIndA descrB nnzB csrValB csrRowPtrB csrColIndB "
          "beta descrD nnzD csrValD csrRowPtrD csrColIndD descrC csrValC csrRowPtrC csrColIndC info pBuffer")
_GEAM_NNZ = "handle m n descrA nnzA csrRowPtrA csrColIndA descrB nnzB csrRowPtrB csrColIndB descrC csrRowPtrC"
_GEAM = ("handle m n alpha descrA nnzA csrValA csrRowPtrA csrColIndA beta descrB nnzB csrValB csrRowPtrB csrColIndB "
         "descrC csrValC csrRowPtrC csrColIndC")
_GTSV = "handle m dl d du x batchCount batchStride pBuffer"
_GEAM2_NNZ = _GEAM_NNZ.replace("csrRow", "csrSortedRow").replace("csrCol", "csrSortedCol")
_GEAM2 = _GEAM.replace("csrVal", "csrSortedVal").replace("csrRow", "csrSortedRow").replace("csrCol", "csrSortedCol")
_NEW = _new


def _csrgeam2_buffer_size() -> int:
    """hipSPARSE's csrgeam2 needs no buffer: its size query answers 4 bytes without calling rocSPARSE."""
    return 4


def _stream_of(h: Any) -> Any:
    return _hip.wrap_stream(_sparse.get_stream(h))


def _outs(*classes: type | None) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A getter's values with rocSPARSE's enums as hipSPARSE's (None: passed as is)."""

    def post(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(v if cls is None else _from_rocsparse(v, cls) for v, cls in zip(values, classes, strict=True))

    return post


_CSR_GET = _outs(None, None, None, None, None, None, _IDX, _IDX, hipsparseIndexBase_t, hipDataType)
_COO_GET = _outs(None, None, None, None, None, None, _IDX, hipsparseIndexBase_t, hipDataType)


def _spmat(descr: Any, arg: str = "spMatDescr") -> SpMatDescr:
    if not isinstance(descr, SpMatDescr) or descr.destroyed:
        raise SparseInvalidPointerError("expected a sparse matrix descriptor", arg=arg,
                                        index=1 if arg == "spMatDescr" else None)
    return descr


def _attribute(descr: Any, attribute: int, data: Any, size: int) -> SpMatAttribute:
    """rocSPARSE's checks of spmat_get/set_attribute: descriptor, data, attribute, then data size."""
    _spmat(descr)
    if pointer_value(data) == 0 and not isinstance(data, ctypes._SimpleCData):
        raise SparseInvalidPointerError("null data", arg="data", index=3)
    try:
        which = SpMatAttribute(attribute)
    except ValueError:
        raise SparseInvalidValueError(f"{attribute} is no attribute", arg="attribute", index=2) from None
    if size != 4:  # sizeof(rocsparse_fill_mode), sizeof(rocsparse_diag_type)
        raise SparseInvalidSizeError(f"the attribute takes 4 bytes, got {size}", arg="data_size", index=4)
    return which


def _spmat_get_attribute(descr: Any, attribute: int, data: Any, size: int) -> None:
    """``hipsparseSpMatGetAttribute``: the attribute's value (an int) written through ``data``."""
    which = _attribute(descr, attribute, data, size)
    write_host(data, int(_sparse.spmat_get_attribute(descr, which)), np.int32, "data", _error)


def _spmat_set_attribute(descr: Any, attribute: int, data: Any, size: int) -> None:
    """``hipsparseSpMatSetAttribute``: the attribute's value (an int) read through ``data``."""
    which = _attribute(descr, attribute, data, size)
    value = read_host(data, np.int32, 1, "data", _error)
    _sparse.spmat_set_attribute(descr, which, int(value[0]))  # type: ignore[index]


_BELL_GET = _COO_GET  # (rows, cols, ellBlockSize, ellCols, ellColInd, ellValue, types): COO's shape
_SPVEC_GET = _outs(None, None, None, None, _IDX, hipsparseIndexBase_t, hipDataType)
_AOS_GET = _outs(None, None, None, None, None, _IDX, hipsparseIndexBase_t, hipDataType)


def _bell_get(descr: Any) -> tuple[Any, ...]:
    """``hipsparseBlockedEllGet``: rocSPARSE's bell_get without the block direction."""
    rows, cols, _direction, *rest = _sparse.bell_get(descr)
    return (rows, cols, *rest)


# --- the generic functions hipSPARSE adds to rocSPARSE's ------------------------------------------------


def _invalid(arg: str, why: str) -> HipsparseStatusError:
    return HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, why, arg=arg)


def _descr_of(descr: Any, cls: type, arg: str) -> Any:
    """An SpSV / SpSM descriptor argument (hipSPARSE's null check: INVALID_VALUE)."""
    if not isinstance(descr, cls):
        raise _invalid(arg, f"not a {cls.__name__}" if descr is not None else "null descriptor")
    return descr


def _spsv_analysis(handle: Any, op: Any, alpha: Any, mat: Any, x: Any, y: Any, compute: Any, alg: Any, descr: Any,
                   buffer: Any) -> None:
    """``hipsparseSpSV_analysis``: spsv's preprocess stage; the descriptor keeps the buffer for the solve."""
    d = _descr_of(descr, SpSVDescr, "spsvDescr")
    _sparse.spsv(handle, op, alpha, mat, x, y, compute, alg, SpSVStage.preprocess, None, buffer)
    d.buffer = buffer


def _spsv_solve(handle: Any, op: Any, alpha: Any, mat: Any, x: Any, y: Any, compute: Any, alg: Any,
                descr: Any) -> None:
    """``hipsparseSpSV_solve``: spsv's compute stage on the analysis' buffer."""
    d = _descr_of(descr, SpSVDescr, "spsvDescr")
    _sparse.spsv(handle, op, alpha, mat, x, y, compute, alg, SpSVStage.compute, None, d.buffer)


def _spsm_buffer_size(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, mat_c: Any,
                      compute: Any, alg: Any, descr: Any) -> int:
    """``hipsparseSpSM_bufferSize``: spsm's size, at least 4 bytes (hipSPARSE's rounding)."""
    _descr_of(descr, SpSMDescr, "spsmDescr")
    size = _sparse.spsm(handle, op_a, op_b, alpha, mat_a, mat_b, mat_c, compute, alg, SpSMStage.buffer_size)
    return max(size, 4)


def _spsm_analysis(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, mat_c: Any, compute: Any,
                   alg: Any, descr: Any, buffer: Any) -> None:
    """``hipsparseSpSM_analysis``: spsm's preprocess stage (a buffer is required); the descriptor keeps it."""
    d = _descr_of(descr, SpSMDescr, "spsmDescr")
    if not buffer:
        raise _invalid("externalBuffer", "null buffer")
    _sparse.spsm(handle, op_a, op_b, alpha, mat_a, mat_b, mat_c, compute, alg, SpSMStage.preprocess, None, buffer)
    d.buffer = buffer


def _spsm_solve(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, mat_c: Any, compute: Any,
                alg: Any, descr: Any, buffer: Any) -> None:
    """``hipsparseSpSM_solve``: spsm's compute stage on the analysis' buffer (``externalBuffer`` is not used)."""
    d = _descr_of(descr, SpSMDescr, "spsmDescr")
    _sparse.spsm(handle, op_a, op_b, alpha, mat_a, mat_b, mat_c, compute, alg, SpSMStage.compute, None, d.buffer)


def _destroy_descr(cls: type) -> Callable[[Any], None]:
    """hipSPARSE's destroyDescr of SpGEMM / SpSV / SpSM: NULL is a no-op, anything else must be one."""

    def destroy(descr: Any) -> None:
        if descr is not None:
            _descr_of(descr, cls, "descr")

    destroy.__name__ = destroy.__qualname__ = f"destroy_{cls.__name__}"
    return destroy


def _spvv(handle: Any, op: Any, x: Any, y: Any, result: Any, compute: Any, buffer: Any) -> Any:
    """``hipsparseSpVV``: a null buffer is INVALID_VALUE (rocSPARSE would take it for a size query)."""
    if not buffer:
        raise _invalid("externalBuffer", "null buffer")
    return _sparse.spvv(handle, op, x, y, result, compute, None, buffer)


def _dense_to_sparse_convert(handle: Any, mat_a: Any, mat_b: Any, alg: Any, buffer: Any) -> None:
    """``hipsparseDenseToSparse_convert``: dense_to_sparse's last call (a null buffer: rocSPARSE's null check)."""
    _sparse.dense_to_sparse(handle, mat_a, mat_b, alg, np.zeros(1, np.uint64) if buffer else None, buffer)


# --- SpGEMM: hipSPARSE's stages over rocmath.sparse's spgemm ---------------------------------------------

_INDEX_BYTES = {IndexType.i32: 4, IndexType.i64: 8}


def _round256(nbytes: int) -> int:
    return -(-nbytes // 256) * 256


@dataclass
class _Product:
    """C := alpha A B: C and the sizes of hipSPARSE's buffer areas."""

    c: SpMatDescr
    compute: Datatype

    @property
    def row_bytes(self) -> int:
        """Bytes at the front of buffer1: C's row pointer."""
        return _round256(_INDEX_BYTES[self.c.row_type] * (self.c.rows + 1))

    @property
    def column_bytes(self) -> int:
        return _round256(_INDEX_BYTES[self.c.col_type] * self.c.nnz)

    @property
    def value_bytes(self) -> int:
        return _round256(self.c.data_type.dtype.itemsize * self.c.nnz)

    def spgemm(self, handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, alg: Any, stage: Any,
               temp: Any) -> int:
        """rocSPARSE's spgemm as hipSPARSE calls it: no beta, C as D."""
        return _sparse.spgemm(handle, op_a, op_b, alpha, mat_a, mat_b, None, self.c, self.c, self.compute, alg, stage,
                              None, temp)


def _product(handle: Any, alpha: Any, beta: Any, mat_a: Any, mat_b: Any, mat_c: Any, compute: Any,
             spgemm: Any) -> _Product:
    """hipSPARSE's checks: every argument non-null, then its ``hipsparseCsrGet`` of C (rocSPARSE's csr_get takes a
    descriptor of any format: C's format is left to rocSPARSE's spgemm)."""
    for name, value in (("handle", handle), ("alpha", alpha), ("beta", beta), ("matA", mat_a), ("matB", mat_b),
                        ("matC", mat_c), ("spgemmDescr", spgemm)):
        if value is None or (name != "alpha" and name != "beta" and value == 0):
            raise _invalid(name, "null argument")
    if not isinstance(spgemm, SpGEMMDescr):
        raise _invalid("spgemmDescr", "not an SpGEMM descriptor")
    _sparse.csr_get(mat_c)
    return _Product(mat_c, compute)


def _spgemm_work_estimation(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any,
                            mat_c: Any, compute: Any, alg: Any, spgemm: Any, buffer1: Any) -> int:
    """Without buffer1: its size (C's row pointer, then spgemm's temp buffer).  With it: C's row pointer into
    buffer1 and C's nnz into matC (spgemm's nnz stage)."""
    p = _product(handle, alpha, beta, mat_a, mat_b, mat_c, compute, spgemm)
    if not buffer1:
        size = p.spgemm(handle, op_a, op_b, alpha, mat_a, mat_b, alg, SpGEMMStage.buffer_size, None)
        spgemm.size1 = size + p.row_bytes
        return spgemm.size1
    spgemm.buffer1 = buffer1
    _sparse.csr_set_pointers(mat_c, buffer1, mat_c.col_data, mat_c.val_data)
    p.spgemm(handle, op_a, op_b, alpha, mat_a, mat_b, alg, SpGEMMStage.nnz, buffer1 + p.row_bytes)
    return spgemm.size1


def _spgemm_compute(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any, mat_c: Any,
                    compute: Any, alg: Any, spgemm: Any, buffer2: Any) -> int:
    """Without buffer2: its size.  With it: C's columns and values into buffer2 (spgemm's compute stage), C's
    arrays the buffers' until SpGEMM_copy."""
    p = _product(handle, alpha, beta, mat_a, mat_b, mat_c, compute, spgemm)
    if not buffer2:
        spgemm.size2 = 2 * p.column_bytes + p.value_bytes + _round256(compute.dtype.itemsize)
        return spgemm.size2
    if not spgemm.buffer1:
        raise _invalid("spgemmDescr", "SpGEMM_workEstimation has not run with externalBuffer1")
    spgemm.buffer2 = buffer2
    _sparse.csr_set_pointers(mat_c, spgemm.buffer1, buffer2, buffer2 + p.column_bytes)
    p.spgemm(handle, op_a, op_b, alpha, mat_a, mat_b, alg, SpGEMMStage.compute, spgemm.buffer1 + p.row_bytes)
    return spgemm.size2


def _axpby_product(handle: Any, c: SpMatDescr, target: Any, compute: Datatype, values: int, indices: int,
                   one_area: int, beta: Any) -> None:
    """The axpby ending hipSPARSE's SpGEMM_copy and SpGEMMreuse_compute: C's values (at ``target``) := 1 * the
    product's values (at ``values``) + beta * C's values.  The product is a sparse vector on an identity index
    array at ``indices`` (int32: rocmath.sparse's identity permutation; hipSPARSE makes it of C's index type),
    the 1 of the compute type a host value, or in device pointer mode a device one hipSPARSE copies to
    ``one_area``; axpby scales C's values by beta first (beta == 0 writes zeros whatever C held)."""
    dtype = compute.dtype
    if handle.pointer_mode is PointerMode.host:
        one: Any = dtype.type(1)
    else:
        rocmath.memcpy_async(one_area, np.ones(1, dtype), dtype.itemsize, stream=_sparse.get_stream(handle))
        one = one_area
    _sparse.create_identity_permutation(handle, c.nnz, indices)
    x = _sparse.create_const_spvec_descr(c.nnz, c.nnz, indices, values, IndexType.i32, IndexBase.zero, c.data_type)
    try:
        y = _sparse.create_dnvec_descr(c.nnz, target, c.data_type)
        try:
            _sparse.axpby(handle, one, x, beta, y)
        finally:
            _sparse.destroy_dnvec_descr(y)
    finally:
        _sparse.destroy_spvec_descr(x)


def _copy_pattern(handle: Any, c: SpMatDescr, row_ptr: int, columns: int) -> None:
    """C's row pointer and column indices from where a stage left them into C's own arrays (hipMemcpyAsync)."""
    stream = _sparse.get_stream(handle)
    for dst, src, nbytes in ((c.row_data, row_ptr, _INDEX_BYTES[c.row_type] * (c.rows + 1)),
                             (c.col_data, columns, _INDEX_BYTES[c.col_type] * c.nnz)):
        if nbytes and dst != src:
            rocmath.memcpy_async(dst, src, nbytes, stream=stream)


def _spgemm_copy(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any, mat_c: Any,
                 compute: Any, alg: Any, spgemm: Any) -> None:
    """C's row pointer and columns from the buffers into C's arrays, its values := product + beta C (hipSPARSE's
    axpby of the product's values in buffer2 over C's values)."""
    p = _product(handle, alpha, beta, mat_a, mat_b, mat_c, compute, spgemm)
    if not (spgemm.buffer1 and spgemm.buffer2):
        raise _invalid("spgemmDescr", "SpGEMM_compute has not run with externalBuffer2")
    c = mat_c
    computed = spgemm.buffer2 + p.column_bytes
    indices = computed + p.value_bytes
    _copy_pattern(handle, c, spgemm.buffer1, spgemm.buffer2)
    _axpby_product(handle, c, c.val_data, compute, computed, indices, indices + p.column_bytes, beta)
    _sparse.csr_set_pointers(c, c.row_data, c.col_data, c.val_data)


# --- SpGEMMreuse: hipSPARSE's five buffers over rocmath.sparse's spgemm stages ---------------------------------

#: The non-null alpha and beta hipSPARSE's reuse stages pass where spgemm reads neither (``(const void*)0x4``).
_PLACEHOLDER = 0x4


def _not_null(**arguments: Any) -> None:
    """hipSPARSE's null checks (cuSPARSE's error handling): INVALID_VALUE for the first null argument."""
    for name, value in arguments.items():
        if value is None or (isinstance(value, int) and value == 0):
            raise _invalid(name, "null argument")
    spgemm = arguments.get("spgemmDescr")
    if spgemm is not None and not isinstance(spgemm, SpGEMMDescr):
        raise _invalid("spgemmDescr", "not an SpGEMM descriptor")


def _c_of(mat_c: Any, compute: Any = None) -> _Product:
    """hipSPARSE's ``hipsparseCsrGet`` of C: its sizes (the compute type: C's value type unless given)."""
    _sparse.csr_get(mat_c)
    return _Product(mat_c, mat_c.data_type if compute is None else compute)


def _size_given(pointer: Any, fallback: int) -> int:
    """The size_t an in/out size argument points to (``fallback`` when the caller omitted it)."""
    if pointer is None:
        return fallback
    got = read_host(pointer, np.uint64, 1, "bufferSize", _error)
    return fallback if got is None else int(got[0])


def _spgemm_reuse_work_estimation(handle: Any, op_a: Any, op_b: Any, mat_a: Any, mat_b: Any, mat_c: Any, alg: Any,
                                  spgemm: Any, buffer1: Any) -> int:
    """``hipsparseSpGEMMreuse_workEstimation``: SpGEMM_workEstimation with placeholder alpha and beta and C's value
    type as the compute type."""
    compute = _c_of(mat_c).compute
    return _spgemm_work_estimation(handle, op_a, op_b, _PLACEHOLDER, mat_a, mat_b, _PLACEHOLDER, mat_c, compute, alg,
                                   spgemm, buffer1)


def _spgemm_reuse_nnz(handle: Any, op_a: Any, op_b: Any, mat_a: Any, mat_b: Any, mat_c: Any, alg: Any, spgemm: Any,
                      size2: Any, buffer2: Any, size3: Any, buffer3: Any, size4: Any,
                      buffer4: Any) -> tuple[int, int, int]:
    """Without buffers: their sizes (4 bytes; C's columns and values; buffer1's size).  With them: buffer1 (C's row
    pointer, spgemm's temp buffer) copied to buffer4, then C's columns into buffer3 (spgemm's symbolic stage)."""
    _not_null(handle=handle, matA=mat_a, matB=mat_b, matC=mat_c, spgemmDescr=spgemm)
    nulls = [not b for b in (buffer2, buffer3, buffer4)]
    if any(nulls) and not all(nulls):
        raise _invalid("externalBuffer2", "the three buffers must all be given or all be null")
    p = _c_of(mat_c)
    if all(nulls):
        spgemm.size2, spgemm.size3, spgemm.size4 = 4, 4 + p.column_bytes + p.value_bytes, spgemm.size1
        return spgemm.size2, spgemm.size3, spgemm.size4
    if not spgemm.buffer1:
        raise _invalid("spgemmDescr", "SpGEMMreuse_workEstimation has not run with externalBuffer1")
    spgemm.buffer2, spgemm.buffer3, spgemm.buffer4 = buffer2, buffer3, buffer4
    copied = _size_given(size4, spgemm.size4)  # hipSPARSE copies *bufferSize4 bytes
    rocmath.memcpy_async(buffer4, spgemm.buffer1, copied, stream=_sparse.get_stream(handle))
    _sparse.csr_set_pointers(mat_c, buffer4, buffer3, buffer3 + p.column_bytes)
    p.spgemm(handle, op_a, op_b, _PLACEHOLDER, mat_a, mat_b, alg, SpGEMMStage.symbolic, buffer4 + p.row_bytes)
    # the sizes are left as they are (hipSPARSE writes them only when answering the query)
    return _size_given(size2, spgemm.size2), _size_given(size3, spgemm.size3), copied


def _spgemm_reuse_copy(handle: Any, op_a: Any, op_b: Any, mat_a: Any, mat_b: Any, mat_c: Any, alg: Any, spgemm: Any,
                       size5: Any, buffer5: Any) -> int:
    """Without buffer5: its size (the product's values, an index array, a scalar).  With it: C's row pointer and
    columns from buffer4 and buffer3 into C's arrays (those csrSetPointers gave it after SpGEMMreuse_nnz)."""
    _not_null(handle=handle, matA=mat_a, matB=mat_b, matC=mat_c, spgemmDescr=spgemm)
    p = _c_of(mat_c)
    if not buffer5:
        spgemm.size5 = p.value_bytes + p.column_bytes + _round256(16)
        return spgemm.size5
    if not (spgemm.buffer3 and spgemm.buffer4):
        raise _invalid("spgemmDescr", "SpGEMMreuse_nnz has not run with its buffers")
    spgemm.buffer5 = buffer5
    c = mat_c
    _copy_pattern(handle, c, spgemm.buffer4, spgemm.buffer3)
    _sparse.csr_set_pointers(c, c.row_data, c.col_data, c.val_data)
    return _size_given(size5, spgemm.size5)


def _spgemm_reuse_compute(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any,
                          mat_c: Any, compute: Any, alg: Any, spgemm: Any) -> None:
    """C's values := alpha A B + beta C on the structure SpGEMMreuse_nnz found: spgemm's numeric stage into buffer5
    (on buffer4's temp buffer), then hipSPARSE's axpby over C's values."""
    _not_null(handle=handle, alpha=alpha, beta=beta, spgemmDescr=spgemm)
    p = _c_of(mat_c, compute)
    if not (spgemm.buffer4 and spgemm.buffer5):
        raise _invalid("spgemmDescr", "SpGEMMreuse_copy has not run with externalBuffer5")
    c = mat_c
    row_ptr, columns, values = c.row_data, c.col_data, c.val_data
    product = spgemm.buffer5
    indices = product + p.value_bytes
    _sparse.csr_set_pointers(c, row_ptr, columns, product)
    p.spgemm(handle, op_a, op_b, alpha, mat_a, mat_b, alg, SpGEMMStage.numeric, spgemm.buffer4 + p.row_bytes)
    _axpby_product(handle, c, values, compute, product, indices, indices + p.column_bytes, beta)
    _sparse.csr_set_pointers(c, row_ptr, columns, values)


# --- functions hipSPARSE composes from rocSPARSE calls -----------------------------------------------------------

#: hipsparseCsr2cscEx2's dispatch on ``valType`` (other types: NOT_SUPPORTED).
_CSR2CSC_EX2 = {0: "s", 1: "d", 4: "c", 5: "z"}  # HIP_R_32F, HIP_R_64F, HIP_C_32F, HIP_C_64F


def _csr2csc_ex2(handle: Any, m: Any, n: Any, nnz: Any, csr_val: Any, csr_row_ptr: Any, csr_col_ind: Any,
                 csc_val: Any, csc_col_ptr: Any, csc_row_ind: Any, val_type: Any, copy_values: Any, idx_base: Any,
                 buffer: Any) -> None:
    """``hipsparseCsr2cscEx2``: rocSPARSE's {s,d,c,z}csr2csc by ``valType`` (its ``alg`` is not used)."""
    letter = _CSR2CSC_EX2.get(int(val_type))
    if letter is None:
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_NOT_SUPPORTED, f"{val_type.name} values", arg="valType")
    getattr(_sparse, f"{letter}csr2csc")(handle, m, n, nnz, csr_val, csr_row_ptr, csr_col_ind, csc_val, csc_row_ind,
                                         csc_col_ptr, copy_values, idx_base, buffer)


#: ``hipsparseVersionTweak``: the revision hipSPARSE reports (a git hash in its builds): rocmath's build, as
#: rocmath.sparse's get_git_rev.
hipsparseVersionTweak = _GIT_REV


def _git_revision(handle: Any, rev: Any) -> None:
    """``hipsparseGetGitRevision``: ``"<hipSPARSE revision> (rocSPARSE <major>.<minor>.<patch>-<revision>)"``
    written through ``rev`` (a host ``char*``: a ``bytearray``, ``ctypes.create_string_buffer``...)."""
    if handle is None:
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_NOT_INITIALIZED, "null handle", arg="handle")
    if pointer_value(rev) == 0 and resolve(rev).host is None:
        raise _invalid("rev", "null pointer")
    revision = _sparse.get_git_rev(handle)  # rocsparse_get_git_rev, then rocsparse_get_version, as hipSPARSE
    version = _sparse.get_version(handle)
    text = (f"{hipsparseVersionTweak} (rocSPARSE {version // 100000}.{version // 100 % 1000}.{version % 100}-"
            f"{revision})").encode() + b"\0"
    raw = host_bytes_at(rev, len(text), "rev", _error)
    assert raw is not None
    raw[:] = np.frombuffer(text, np.uint8)


def _csru2csr_info(info: Any) -> Csru2csrInfo:
    if not isinstance(info, Csru2csrInfo):
        raise _invalid("info", "not a csru2csrInfo_t" if info is not None else "null info")
    return info


def _destroy_csru2csr_info(info: Any) -> None:
    """``hipsparseDestroyCsru2csrInfo``: NULL is a no-op; the permutation is freed."""
    if info is None:
        return
    i = _csru2csr_info(info)
    if i.P:
        rocmath.free(i.P)
        i.P, i.size = 0, 0


def _csru_checks(handle: Any, m: Any, n: Any, nnz: Any) -> bool:
    """hipSPARSE's first checks of csru2csr / csr2csru: the handle, the sizes; True for its quick return."""
    if handle is None:
        raise _invalid("handle", "null handle")
    if m < 0 or n < 0 or nnz < 0:
        raise _invalid("m" if m < 0 else "n" if n < 0 else "nnz", "negative size")
    if m == 0 or n == 0 or nnz == 0:
        if nnz != 0:
            raise _invalid("nnz", f"{nnz} entries in a {m} x {n} matrix")
        return True
    return False


def _not_null_arrays(**arguments: Any) -> None:
    for name, value in arguments.items():
        if value is None or (isinstance(value, int) and value == 0):
            raise _invalid(name, "null pointer")


def _itemsize(p: str) -> int:
    return {"s": 4, "d": 8, "c": 8, "z": 16}[p]


def _csru2csr_buffer_size(p: str, handle: Any, m: Any, n: Any, nnz: Any, csr_val: Any, csr_row_ptr: Any,
                          csr_col_ind: Any, info: Any) -> int:
    """``hipsparse?csru2csr_bufferSizeExt``: csrsort's buffer, at least the values' bytes (4 for an empty matrix)."""
    if _csru_checks(handle, m, n, nnz):
        return 4
    _not_null_arrays(csrVal=csr_val, csrRowPtr=csr_row_ptr, csrColInd=csr_col_ind, info=info)
    size = _sparse.csrsort_buffer_size(handle, m, n, nnz, csr_row_ptr, csr_col_ind)
    return max(int(size), nnz * _itemsize(p))


def _csru2csr(p: str, handle: Any, m: Any, n: Any, nnz: Any, descr: Any, csr_val: Any, csr_row_ptr: Any,
              csr_col_ind: Any, info: Any, buffer: Any) -> None:
    """``hipsparse?csru2csr``: the rows sorted (csrsort from an identity permutation kept in ``info``), the values
    gathered by it through the buffer and copied back."""
    if _csru_checks(handle, m, n, nnz):
        return
    _not_null_arrays(descrA=descr, csrVal=csr_val, csrRowPtr=csr_row_ptr, csrColInd=csr_col_ind, info=info,
                     pBuffer=buffer)
    i = _csru2csr_info(info)
    if i.P and i.size != nnz:
        rocmath.free(i.P)
        i.P, i.size = 0, 0
    if not i.P:
        i.P, i.size = rocmath.malloc(4 * nnz), nnz
    _sparse.create_identity_permutation(handle, nnz, i.P)
    _sparse.csrsort(handle, m, n, nnz, descr, csr_row_ptr, csr_col_ind, i.P, buffer)
    getattr(_sparse, f"{p}gthr")(handle, nnz, csr_val, buffer, i.P, IndexBase.zero)
    rocmath.memcpy_async(csr_val, buffer, _itemsize(p) * nnz, stream=_sparse.get_stream(handle))


def _csr2csru(p: str, handle: Any, m: Any, n: Any, nnz: Any, descr: Any, csr_val: Any, csr_row_ptr: Any,
              csr_col_ind: Any, info: Any, buffer: Any) -> None:
    """``hipsparse?csr2csru``: the column indices and values scattered back by csru2csr's permutation, each
    through the buffer (rocsparse_isctr for the indices, as hipsparse.cpp)."""
    if _csru_checks(handle, m, n, nnz):
        return
    _not_null_arrays(descrA=descr, csrVal=csr_val, csrRowPtr=csr_row_ptr, csrColInd=csr_col_ind, info=info,
                     pBuffer=buffer)
    i = _csru2csr_info(info)
    if not i.P or i.size != nnz:
        raise _invalid("info", f"no permutation of {nnz} entries (csru2csr has not run on this matrix)")
    stream = _sparse.get_stream(handle)
    _sparse.isctr(handle, nnz, csr_col_ind, i.P, buffer, IndexBase.zero)
    rocmath.memcpy_async(csr_col_ind, buffer, 4 * nnz, stream=stream)
    getattr(_sparse, f"{p}sctr")(handle, nnz, csr_val, i.P, buffer, IndexBase.zero)
    rocmath.memcpy_async(csr_val, buffer, _itemsize(p) * nnz, stream=stream)


class _One:
    """The alpha = 1 hipSPARSE's legacy csrgemm passes: a host value, or (device pointer mode) a device copy."""

    def __init__(self, handle: Any, dtype: Any):
        mode = _sparse.get_pointer_mode(handle)  # hipSPARSE asks first: a bad handle fails here
        one = np.ones(1, dtype)
        self.address = 0
        if mode is PointerMode.host:
            self.value: Any = one[0]
        else:
            self.address = rocmath.malloc(one.nbytes)
            rocmath.memcpy(self.address, one, one.nbytes)
            self.value = self.address

    def free(self) -> None:
        if self.address:
            rocmath.free(self.address)


@contextlib.contextmanager
def _scratch(size: int) -> Iterator[int]:
    """A device buffer hipSPARSE allocates for the call (hipMalloc of 0 bytes: NULL), freed after it (hipFree
    waits for the device)."""
    temp = rocmath.malloc(size) if size else 0
    try:
        yield temp
    finally:
        if temp:
            rocmath.free(temp)


def _with_one(handle: Any, dtype: Any, body: Callable[[Any, MatInfo], Any]) -> Any:
    """hipSPARSE's legacy csrgemm frame: a mat_info of its own and alpha = 1, freed after ``body(alpha, info)``."""
    info = _sparse.create_mat_info()
    try:
        one = _One(handle, dtype)
        try:
            return body(one.value, info)
        finally:
            one.free()
    finally:
        _sparse.destroy_mat_info(info)


def _csrgemm_nnz(handle: Any, trans_a: Any, trans_b: Any, m: Any, n: Any, k: Any, descr_a: Any, nnz_a: Any,
                 row_a: Any, col_a: Any, descr_b: Any, nnz_b: Any, row_b: Any, col_b: Any, descr_c: Any, row_c: Any,
                 nnz_total: Any) -> Any:
    """``hipsparseXcsrgemmNnz``: C := A B's row pointer and nnz through csrgemm2's rocSPARSE stages, D absent
    (the size query in double complex, as hipSPARSE asks it)."""

    def body(alpha: Any, info: MatInfo) -> Any:
        size = _sparse.zcsrgemm_buffer_size(handle, trans_a, trans_b, m, n, k, alpha, descr_a, nnz_a, row_a, col_a,
                                            descr_b, nnz_b, row_b, col_b, None, None, 0, None, None, info)
        with _scratch(size) as temp:
            return _sparse.csrgemm_nnz(handle, trans_a, trans_b, m, n, k, descr_a, nnz_a, row_a, col_a, descr_b,
                                       nnz_b, row_b, col_b, None, 0, None, None, descr_c, row_c, nnz_total, info,
                                       temp)

    return _with_one(handle, np.complex128, body)


def _csrgemm(p: str, handle: Any, trans_a: Any, trans_b: Any, m: Any, n: Any, k: Any, descr_a: Any, nnz_a: Any,
             val_a: Any, row_a: Any, col_a: Any, descr_b: Any, nnz_b: Any, val_b: Any, row_b: Any, col_b: Any,
             descr_c: Any, val_c: Any, row_c: Any, col_c: Any) -> None:
    """``hipsparse?csrgemm``: C := A B (C's row pointer from XcsrgemmNnz) through rocSPARSE's csrgemm, alpha = 1,
    D absent, on a fresh mat_info."""

    def body(alpha: Any, info: MatInfo) -> None:
        size = getattr(_sparse, f"{p}csrgemm_buffer_size")(handle, trans_a, trans_b, m, n, k, alpha, descr_a, nnz_a,
                                                           row_a, col_a, descr_b, nnz_b, row_b, col_b, None, None, 0,
                                                           None, None, info)
        with _scratch(size) as temp:
            getattr(_sparse, f"{p}csrgemm")(handle, trans_a, trans_b, m, n, k, alpha, descr_a, nnz_a, val_a, row_a,
                                            col_a, descr_b, nnz_b, val_b, row_b, col_b, None, None, 0, None, None,
                                            None, descr_c, val_c, row_c, col_c, info, temp)

    _with_one(handle, {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}[p], body)


def _const_bell_get(descr: Any) -> tuple[Any, ...]:
    """``hipsparseConstBlockedEllGet``: rocSPARSE's const_bell_get without the block direction."""
    rows, cols, _direction, *rest = _sparse.const_bell_get(descr)
    return (rows, cols, *rest)


_SPGEMM = "handle opA opB alpha matA matB beta matC computeType alg spgemmDescr"
_BSRSM = ("handle dirA transA transX mb nrhs nnzb descrA bsrSortedValA bsrSortedRowPtrA bsrSortedColIndA blockDim "
          "info")
_BSRSM_SOLVE = ("handle dirA transA transX mb nrhs nnzb alpha descrA bsrSortedValA bsrSortedRowPtrA "
                "bsrSortedColIndA blockDim info B ldb X ldx")
_BSRIC = "handle dirA mb nnzb descrA bsrValA bsrRowPtrA bsrColIndA blockDim info"
_BSRXMV = ("handle dir trans sizeOfMask mb nb nnzb alpha descr bsrVal bsrMaskPtr bsrRowPtr bsrEndPtr bsrColInd "
           "blockDim x beta y")
_EX2 = "handle m n nnz csrVal csrRowPtr csrColInd cscVal cscColPtr cscRowInd valType copyValues idxBase alg"
_CSRU_SIZE = "handle m n nnz csrVal csrRowPtr csrColInd info"
_CSRU = "handle m n nnz descrA csrVal csrRowPtr csrColInd info pBuffer"
_CSRGEMM_NNZ = ("handle transA transB m n k descrA nnzA csrRowPtrA csrColIndA descrB nnzB csrRowPtrB csrColIndB descrC "
                "csrRowPtrC")
_CSRGEMM = ("handle transA transB m n k descrA nnzA csrValA csrRowPtrA csrColIndA descrB nnzB csrValB csrRowPtrB "
            "csrColIndB descrC csrValC csrRowPtrC csrColIndC")
_REUSE = "handle opA opB matA matB matC alg spgemmDescr"
_REUSE_NNZ = "bufferSize2 externalBuffer2 bufferSize3 externalBuffer3 bufferSize4 externalBuffer4"
_CSR2GEBSR_SIZE = "handle dir m n csr_descr csr_val csr_row_ptr csr_col_ind row_block_dim col_block_dim"
_CSR2GEBSR_NNZ = "handle dir m n csr_descr csr_row_ptr csr_col_ind bsr_descr bsr_row_ptr row_block_dim col_block_dim"
_CSR2GEBSR = ("handle dir m n csr_descr csr_val csr_row_ptr csr_col_ind bsr_descr bsr_val bsr_row_ptr bsr_col_ind "
              "row_block_dim col_block_dim p_buffer")
_GEBSR2CSR = ("handle dirA mb nb descrA bsrValA bsrRowPtrA bsrColIndA rowBlockDim colBlockDim descrC csrValC "
              "csrRowPtrC csrColIndC")
_GEBSC_SIZE = "handle mb nb nnzb bsr_val bsr_row_ptr bsr_col_ind row_block_dim col_block_dim"
_GEBSC = f"{_GEBSC_SIZE} bsc_val bsc_row_ind bsc_col_ptr copy_values idx_base temp_buffer"
_GEBSR_SIZE = ("handle dirA mb nb nnzb descrA bsrValA bsrRowPtrA bsrColIndA rowBlockDimA colBlockDimA rowBlockDimC "
               "colBlockDimC")
_GEBSR_NNZ = ("handle dirA mb nb nnzb descrA bsrRowPtrA bsrColIndA rowBlockDimA colBlockDimA descrC bsrRowPtrC "
              "rowBlockDimC colBlockDimC")
_GEBSR = ("handle dirA mb nb nnzb descrA bsrValA bsrRowPtrA bsrColIndA rowBlockDimA colBlockDimA descrC bsrValC "
          "bsrRowPtrC bsrColIndC rowBlockDimC colBlockDimC buffer")
_SPVV = "handle opX vecX vecY"
_SPSV = "handle opA alpha matA x y computeType alg"
_SPSM = "handle opA opB alpha matA matB matC computeType alg"
_SDDMM = "handle opA opB alpha A B beta C computeType alg"
_ILU = "handle m nnz descrA csrSortedValA csrSortedRowPtrA csrSortedColIndA info"
_ILU_M = "handle m nnz descrA csrSortedValA_valM csrSortedRowPtrA csrSortedColIndA info"
_BSRILU = "handle dirA mb nnzb descrA bsrSortedValA bsrSortedRowPtrA bsrSortedColIndA blockDim info"
_BSRILU_M = "handle dirA mb nnzb descrA bsrSortedValA_valM bsrSortedRowPtrA bsrSortedColIndA blockDim info"
_BSRSV = "handle dirA transA mb nnzb descrA bsrSortedValA bsrSortedRowPtrA bsrSortedColIndA blockDim info"
_CSRSM = "transA transB m nrhs nnz alpha descrA csrSortedValA csrSortedRowPtrA csrSortedColIndA B ldb info"
_GTSV2 = "handle m n dl d du B ldb pBuffer"
_BATCH = "handle algo m dl d du x batchCount"
_PENTA = "handle algo m ds dl d du dw x batchCount"
_PRUNE_D = "handle m n A lda threshold descr"
_PRUNE_DP = "handle m n A lda percentage descr"
_PRUNE_C = "handle m n nnzA descrA csrValA csrRowPtrA csrColIndA threshold descrC"
_PRUNE_CP = "handle m n nnzA descrA csrValA csrRowPtrA csrColIndA percentage descrC"
_BSR2CSR = "handle dirA mb nb descrA bsrValA bsrRowPtrA bsrColIndA blockDim descrC csrValC csrRowPtrC csrColIndC"
_CSR2BSR = "handle dirA m n descrA csrValA csrRowPtrA csrColIndA blockDim descrC bsrValC bsrRowPtrC bsrColIndC"
_BSRMV = "handle dirA transA mb nb nnzb alpha descrA bsrSortedValA bsrSortedRowPtrA bsrSortedColIndA blockDim"
_BSRMM = ("handle dirA transA transB mb n kb nnzb alpha descrA bsrValA bsrRowPtrA bsrColIndA blockDim B ldb beta C "
          "ldc")
_HYB = "handle m n descrA csrSortedValA csrSortedRowPtrA csrSortedColIndA hybA userEllWidth partitionType"
_COLOR = "handle m nnz descrA csrValA csrRowPtrA csrColIndA fractionToColor"


#: hipSPARSE name (``{P}``: S, D, C, Z) -> how it is made.  One line per function.
FUNCTIONS: dict[str, Spec] = {
    # auxiliary
    "hipsparseCreate": Spec(_sparse.create_handle, "handle*", "", post=_NEW),
    "hipsparseDestroy": Spec("destroy_handle", "handle", "handle", release="handle"),
    "hipsparseSetStream": Spec("set_stream", "handle streamId", "handle streamId"),
    "hipsparseGetStream": Spec(_stream_of, "handle streamId*", "handle"),
    "hipsparseSetPointerMode": Spec("set_pointer_mode", "handle mode", "handle mode"),
    "hipsparseGetPointerMode": Spec("get_pointer_mode", "handle mode*i", "handle",
                                    post=lambda m: hipsparsePointerMode_t(int(m))),
    "hipsparseCreateMatDescr": Spec(_sparse.create_mat_descr, "descrA*", "", post=_NEW),
    "hipsparseDestroyMatDescr": Spec("destroy_mat_descr", "descrA", "descrA", release="descrA"),
    "hipsparseCopyMatDescr": Spec("copy_mat_descr", "dest src", "dest src"),
    "hipsparseSetMatType": Spec("set_mat_type", "descrA type", "descrA type"),
    "hipsparseSetMatFillMode": Spec("set_mat_fill_mode", "descrA fillMode", "descrA fillMode"),
    "hipsparseSetMatDiagType": Spec("set_mat_diag_type", "descrA diagType", "descrA diagType"),
    "hipsparseSetMatIndexBase": Spec("set_mat_index_base", "descrA base", "descrA base"),
    # generic API: descriptors
    "hipsparseCreateCsr": Spec("create_csr_descr", "spMatDescr* rows:l cols:l nnz:l csrRowOffsets csrColInd "
                               "csrValues csrRowOffsetsType csrColIndType idxBase valueType",
                               "rows cols nnz csrRowOffsets csrColInd csrValues csrRowOffsetsType csrColIndType "
                               "idxBase valueType", post=_NEW),
    "hipsparseCreateCsc": Spec("create_csc_descr", "spMatDescr* rows:l cols:l nnz:l cscColOffsets cscRowInd "
                               "cscValues cscColOffsetsType cscRowIndType idxBase valueType",
                               "rows cols nnz cscColOffsets cscRowInd cscValues cscColOffsetsType cscRowIndType "
                               "idxBase valueType", post=_NEW),
    "hipsparseCreateCoo": Spec("create_coo_descr", "spMatDescr* rows:l cols:l nnz:l cooRowInd cooColInd cooValues "
                               "cooIdxType idxBase valueType",
                               "rows cols nnz cooRowInd cooColInd cooValues cooIdxType idxBase valueType", post=_NEW),
    "hipsparseDestroySpMat": Spec("destroy_spmat_descr", "spMatDescr", "spMatDescr", release="spMatDescr"),
    "hipsparseSpMatGetSize": Spec("spmat_get_size", "spMatDescr rows*l cols*l nnz*l", "spMatDescr"),
    "hipsparseSpMatGetFormat": Spec("spmat_get_format", "spMatDescr format*i", "spMatDescr",
                                    post=lambda f: _from_rocsparse(f, hipsparseFormat_t)),
    "hipsparseSpMatGetIndexBase": Spec("spmat_get_index_base", "spMatDescr idxBase*i", "spMatDescr",
                                       post=lambda b: hipsparseIndexBase_t(int(b))),
    "hipsparseSpMatGetValues": Spec("spmat_get_values", "spMatDescr values*", "spMatDescr"),
    "hipsparseSpMatSetValues": Spec("spmat_set_values", "spMatDescr values", "spMatDescr values"),
    "hipsparseCsrSetPointers": Spec("csr_set_pointers", "spMatDescr csrRowOffsets csrColInd csrValues",
                                    "spMatDescr csrRowOffsets csrColInd csrValues"),
    "hipsparseCscSetPointers": Spec("csc_set_pointers", "spMatDescr cscColOffsets cscRowInd cscValues",
                                    "spMatDescr cscColOffsets cscRowInd cscValues"),
    "hipsparseCooSetPointers": Spec("coo_set_pointers", "spMatDescr cooRowInd cooColInd cooValues",
                                    "spMatDescr cooRowInd cooColInd cooValues"),
    "hipsparseCreateDnVec": Spec("create_dnvec_descr", "dnVecDescr* size:l values valueType",
                                 "size values valueType", post=_NEW),
    "hipsparseDestroyDnVec": Spec("destroy_dnvec_descr", "dnVecDescr", "dnVecDescr", release="dnVecDescr"),
    "hipsparseDnVecGetValues": Spec("dnvec_get_values", "dnVecDescr values*", "dnVecDescr"),
    "hipsparseDnVecSetValues": Spec("dnvec_set_values", "dnVecDescr values", "dnVecDescr values"),
    "hipsparseCreateDnMat": Spec("create_dnmat_descr", "dnMatDescr* rows:l cols:l ld:l values valueType order",
                                 "rows cols ld values valueType order", post=_NEW),
    "hipsparseDestroyDnMat": Spec("destroy_dnmat_descr", "dnMatDescr", "dnMatDescr", release="dnMatDescr"),
    "hipsparseDnMatGetValues": Spec("dnmat_get_values", "dnMatDescr values*", "dnMatDescr"),
    "hipsparseDnMatSetValues": Spec("dnmat_set_values", "dnMatDescr values", "dnMatDescr values"),
    "hipsparseCsrGet": Spec("csr_get", "spMatDescr rows*l cols*l nnz*l csrRowOffsets* csrColInd* csrValues* "
                            "csrRowOffsetsType*i csrColIndType*i idxBase*i valueType*i", "spMatDescr", post=_CSR_GET),
    "hipsparseCscGet": Spec("csc_get", "spMatDescr rows*l cols*l nnz*l cscColOffsets* cscRowInd* cscValues* "
                            "cscColOffsetsType*i cscRowIndType*i idxBase*i valueType*i", "spMatDescr", post=_CSR_GET),
    "hipsparseCooGet": Spec("coo_get", "spMatDescr rows*l cols*l nnz*l cooRowInd* cooColInd* cooValues* idxType*i "
                            "idxBase*i valueType*i", "spMatDescr", post=_COO_GET),
    "hipsparseDnVecGet": Spec("dnvec_get", "dnVecDescr size*l values* valueType*i", "dnVecDescr",
                              post=_outs(None, None, hipDataType)),
    "hipsparseDnMatGet": Spec("dnmat_get", "dnMatDescr rows*l cols*l ld*l values* valueType*i order*i", "dnMatDescr",
                              post=_outs(None, None, None, None, hipDataType, hipsparseOrder_t)),
    "hipsparseSpMatGetAttribute": Spec(_spmat_get_attribute, "spMatDescr attribute data dataSize:z",
                                       "spMatDescr attribute data dataSize"),
    "hipsparseSpMatSetAttribute": Spec(_spmat_set_attribute, "spMatDescr attribute data dataSize:z",
                                       "spMatDescr attribute data dataSize"),
    # generic API: products (hipSPARSE passes a local size_t as buffer_size to the preprocess and compute stages)
    "hipsparseSpMV_bufferSize": Spec("spmv", f"{_SPMV} bufferSize*", f"{_SPMV} =buffer_size", hipsparseSpMVAlg_t,
                                     "computeType"),
    "hipsparseSpMV_preprocess": Spec("spmv", f"{_SPMV} externalBuffer", f"{_SPMV} =preprocess =box externalBuffer",
                                     hipsparseSpMVAlg_t, "computeType"),
    "hipsparseSpMV": Spec("spmv", f"{_SPMV} externalBuffer", f"{_SPMV} =compute =box externalBuffer",
                          hipsparseSpMVAlg_t, "computeType"),
    "hipsparseSpMM_bufferSize": Spec("spmm", f"{_SPMM} bufferSize*", f"{_SPMM} =buffer_size", hipsparseSpMMAlg_t,
                                     "computeType"),
    "hipsparseSpMM_preprocess": Spec("spmm", f"{_SPMM} externalBuffer", f"{_SPMM} =preprocess =box externalBuffer",
                                     hipsparseSpMMAlg_t, "computeType"),
    "hipsparseSpMM": Spec("spmm", f"{_SPMM} externalBuffer", f"{_SPMM} =compute =box externalBuffer",
                          hipsparseSpMMAlg_t, "computeType"),
    # level 2 and 3
    "hipsparse{P}csrmv": Spec("{p}csrmv", "handle transA m n nnz alpha descrA csrSortedValA csrSortedRowPtrA "
                              "csrSortedColIndA x beta y", "handle transA m n nnz alpha descrA csrSortedValA "
                              "csrSortedRowPtrA csrSortedColIndA =None x beta y"),
    "hipsparse{P}csrmm": Spec("{p}csrmm", f"handle transA m n k nnz {_CSRMM}", f"handle transA =N m n k nnz {_CSRMM}"),
    "hipsparse{P}csrmm2": Spec("{p}csrmm", f"handle transA transB m n k nnz {_CSRMM}",
                               f"handle transA transB m n k nnz {_CSRMM}"),
    # conversions
    "hipsparseXcsr2coo": Spec("csr2coo", "handle csrRowPtr nnz m cooRowInd idxBase",
                              "handle csrRowPtr nnz m cooRowInd idxBase"),
    "hipsparseXcoo2csr": Spec("coo2csr", "handle cooRowInd nnz m csrRowPtr idxBase",
                              "handle cooRowInd nnz m csrRowPtr idxBase"),
    "hipsparse{P}csr2csc": Spec("{p}csr2csc", "handle m n nnz csrSortedVal csrSortedRowPtr csrSortedColInd "
                                "cscSortedVal cscSortedRowInd cscSortedColPtr copyValues idxBase",
                                "handle m n nnz csrSortedVal csrSortedRowPtr csrSortedColInd cscSortedVal "
                                "cscSortedRowInd cscSortedColPtr copyValues idxBase =buffer",
                                buffer=("csr2csc_buffer_size", "handle m n nnz csrSortedRowPtr csrSortedColInd "
                                                               "copyValues")),
    "hipsparseCreateIdentityPermutation": Spec("create_identity_permutation", "handle n p", "handle n p"),
    "hipsparse{P}nnz": Spec("{p}nnz", "handle dirA m n descrA A lda nnzPerRowColumn nnzTotalDevHostPtr&i",
                            "handle dirA m n descrA A lda nnzPerRowColumn nnzTotalDevHostPtr"),
    "hipsparse{P}dense2csr": Spec("{p}dense2csr", f"{_DENSE} nnz_per_rows csr_val csr_row_ptr csr_col_ind",
                                  f"{_DENSE} nnz_per_rows csr_val csr_row_ptr csr_col_ind"),
    "hipsparse{P}dense2csc": Spec("{p}dense2csc", f"{_DENSE} nnz_per_columns csc_val csc_row_ind csc_col_ptr",
                                  f"{_DENSE} nnz_per_columns csc_val csc_col_ptr csc_row_ind"),
    "hipsparse{P}csr2dense": Spec("{p}csr2dense", "handle m n descr csr_val csr_row_ptr csr_col_ind A ld",
                                  "handle m n descr csr_val csr_row_ptr csr_col_ind A ld"),
    "hipsparse{P}csc2dense": Spec("{p}csc2dense", "handle m n descr csc_val csc_row_ind csc_col_ptr A ld",
                                  "handle m n descr csc_val csc_col_ptr csc_row_ind A ld"),
    "hipsparseXcsrsort_bufferSizeExt": Spec("csrsort_buffer_size", "handle m n nnz csrRowPtr csrColInd "
                                            "pBufferSizeInBytes*", "handle m n nnz csrRowPtr csrColInd"),
    "hipsparseXcsrsort": Spec("csrsort", "handle m n nnz descrA csrRowPtr csrColInd P pBuffer",
                              "handle m n nnz descrA csrRowPtr csrColInd P pBuffer"),
    "hipsparseXcoosort_bufferSizeExt": Spec("coosort_buffer_size", "handle m n nnz cooRows cooCols "
                                            "pBufferSizeInBytes*", "handle m n nnz cooRows cooCols"),
    "hipsparseXcoosortByRow": Spec("coosort_by_row", _COOSORT, _COOSORT),
    "hipsparseXcoosortByColumn": Spec("coosort_by_column", _COOSORT, _COOSORT),
    # level 1
    "hipsparse{P}axpyi": Spec("{p}axpyi", _AXPYI, _AXPYI),
    "hipsparse{P}doti": Spec("{p}doti", f"{_DOTI}&p idxBase", f"{_DOTI} idxBase", blocking=True),
    "hipsparse{P}dotci": Spec("{p}dotci", f"{_DOTI}&p idxBase", f"{_DOTI} idxBase", blocking=True),
    "hipsparse{P}gthr": Spec("{p}gthr", "handle nnz y xVal xInd idxBase", "handle nnz y xVal xInd idxBase"),
    "hipsparse{P}gthrz": Spec("{p}gthrz", "handle nnz y xVal xInd idxBase", "handle nnz y xVal xInd idxBase"),
    "hipsparse{P}sctr": Spec("{p}sctr", "handle nnz xVal xInd y idxBase", "handle nnz xVal xInd y idxBase"),
    "hipsparse{P}roti": Spec("{p}roti", "handle nnz xVal xInd y c s idxBase", "handle nnz xVal xInd y c s idxBase"),
    # csrsv2 (a csrsv2Info_t is a rocsparse_mat_info)
    "hipsparseCreateCsrsv2Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyCsrsv2Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csrsv2_bufferSize": Spec("{p}csrsv_buffer_size", f"{_CSRSV} pBufferSizeInBytes*i", _CSRSV),
    "hipsparse{P}csrsv2_bufferSizeExt": Spec("{p}csrsv_buffer_size", f"{_CSRSV} pBufferSizeInBytes*", _CSRSV),
    "hipsparse{P}csrsv2_analysis": Spec("{p}csrsv_analysis", f"{_CSRSV} policy pBuffer",
                                        f"{_CSRSV} =force =auto pBuffer", blocking=True),
    "hipsparse{P}csrsv2_solve": Spec("{p}csrsv_solve", "handle transA m nnz alpha descrA csrSortedValA "
                                     "csrSortedRowPtrA csrSortedColIndA info f x policy pBuffer",
                                     "handle transA m nnz alpha descrA csrSortedValA csrSortedRowPtrA "
                                     "csrSortedColIndA info f x =auto pBuffer"),
    "hipsparseXcsrsv2_zeroPivot": Spec("csrsv_zero_pivot", "handle info position&i", "handle =None info position",
                                       blocking=True),
    # csrgemm2 (C := alpha A B + beta D; a csrgemm2Info_t is a rocsparse_mat_info) and csrgeam
    "hipsparseCreateCsrgemm2Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyCsrgemm2Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csrgemm2_bufferSizeExt": Spec("{p}csrgemm_buffer_size", f"{_GEMM2_SIZE} pBufferSizeInBytes*",
                                               f"handle =N =N {_GEMM2_SIZE.removeprefix('handle ')}"),
    "hipsparseXcsrgemm2Nnz": Spec("csrgemm_nnz", f"{_GEMM2_NNZ} nnzTotalDevHostPtr&i info pBuffer",
                                  f"handle =N =N {_GEMM2_NNZ.removeprefix('handle ')} nnzTotalDevHostPtr info "
                                  "pBuffer"),
    "hipsparse{P}csrgemm2": Spec("{p}csrgemm", _GEMM2, f"handle =N =N {_GEMM2.removeprefix('handle ')}"),
    "hipsparseXcsrgeamNnz": Spec("csrgeam_nnz", f"{_GEAM_NNZ} nnzTotalDevHostPtr&i",
                                 f"{_GEAM_NNZ} nnzTotalDevHostPtr"),
    "hipsparse{P}csrgeam": Spec("{p}csrgeam", _GEAM, _GEAM),
    "hipsparse{P}csrgeam2_bufferSizeExt": Spec(_csrgeam2_buffer_size, f"{_GEAM2} pBufferSizeInBytes*", ""),
    "hipsparseXcsrgeam2Nnz": Spec("csrgeam_nnz", f"{_GEAM2_NNZ} nnzTotalDevHostPtr&i workspace",
                                  f"{_GEAM2_NNZ} nnzTotalDevHostPtr"),
    "hipsparse{P}csrgeam2": Spec("{p}csrgeam", f"{_GEAM2} pBuffer", _GEAM2),
    # gtsv2StridedBatch (no pivoting; hipSPARSE's size query passes placeholders for the arrays)
    "hipsparse{P}gtsv2StridedBatch_bufferSizeExt": Spec("{p}gtsv_no_pivot_strided_batch_buffer_size",
                                                        "handle m dl d du x batchCount batchStride "
                                                        "pBufferSizeInBytes*",
                                                        "handle m =dummy =dummy =dummy =dummy batchCount "
                                                        "batchStride"),
    "hipsparse{P}gtsv2StridedBatch": Spec("{p}gtsv_no_pivot_strided_batch", _GTSV, _GTSV),
    # generic SpGEMM (CSR; C := alpha A B, then beta C added by the copy)
    "hipsparseSpGEMM_createDescr": Spec(SpGEMMDescr, "descr*", "", post=_NEW),
    "hipsparseSpGEMM_destroyDescr": Spec(_destroy_descr(SpGEMMDescr), "descr", "descr", release="descr"),
    "hipsparseSpGEMM_workEstimation": Spec(_spgemm_work_estimation, f"{_SPGEMM} bufferSize1* externalBuffer1",
                                           f"{_SPGEMM} externalBuffer1", hipsparseSpGEMMAlg_t, "computeType"),
    "hipsparseSpGEMM_compute": Spec(_spgemm_compute, f"{_SPGEMM} bufferSize2* externalBuffer2",
                                    f"{_SPGEMM} externalBuffer2", hipsparseSpGEMMAlg_t, "computeType"),
    "hipsparseSpGEMM_copy": Spec(_spgemm_copy, _SPGEMM, _SPGEMM, hipsparseSpGEMMAlg_t, "computeType"),
    # csrilu02 / csric02 / bsrilu02 (incomplete factorizations, in place)
    "hipsparseCreateCsrilu02Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyCsrilu02Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csrilu02_numericBoost": Spec("{p}csrilu0_numeric_boost", "handle info enable_boost tol boost_val",
                                              "handle info enable_boost tol boost_val"),
    "hipsparse{P}csrilu02_bufferSize": Spec("{p}csrilu0_buffer_size", f"{_ILU} pBufferSizeInBytes*i", _ILU),
    "hipsparse{P}csrilu02_bufferSizeExt": Spec("{p}csrilu0_buffer_size", f"{_ILU} pBufferSizeInBytes*", _ILU),
    "hipsparse{P}csrilu02_analysis": Spec("{p}csrilu0_analysis", f"{_ILU} policy pBuffer",
                                          f"{_ILU} =force =auto pBuffer", blocking=True),
    "hipsparse{P}csrilu02": Spec("{p}csrilu0", f"{_ILU_M} policy pBuffer", f"{_ILU_M} =auto pBuffer"),
    "hipsparseXcsrilu02_zeroPivot": Spec("csrilu0_zero_pivot", "handle info position&i", "handle info position",
                                         blocking=True),
    "hipsparseCreateCsric02Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyCsric02Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csric02_bufferSize": Spec("{p}csric0_buffer_size", f"{_ILU} pBufferSizeInBytes*i", _ILU),
    "hipsparse{P}csric02_bufferSizeExt": Spec("{p}csric0_buffer_size", f"{_ILU} pBufferSizeInBytes*", _ILU),
    "hipsparse{P}csric02_analysis": Spec("{p}csric0_analysis", f"{_ILU} policy pBuffer",
                                         f"{_ILU} =force =auto pBuffer", blocking=True),
    "hipsparse{P}csric02": Spec("{p}csric0", f"{_ILU_M} policy pBuffer", f"{_ILU_M} =auto pBuffer"),
    "hipsparseXcsric02_zeroPivot": Spec("csric0_zero_pivot", "handle info position&i", "handle info position",
                                        blocking=True),
    "hipsparseCreateBsrilu02Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyBsrilu02Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}bsrilu02_numericBoost": Spec("{p}bsrilu0_numeric_boost", "handle info enable_boost tol boost_val",
                                              "handle info enable_boost tol boost_val"),
    "hipsparse{P}bsrilu02_bufferSize": Spec("{p}bsrilu0_buffer_size", f"{_BSRILU} pBufferSizeInBytes*i", _BSRILU),
    "hipsparse{P}bsrilu02_analysis": Spec("{p}bsrilu0_analysis", f"{_BSRILU} policy pBuffer",
                                          f"{_BSRILU} =force =auto pBuffer", blocking=True),
    "hipsparse{P}bsrilu02": Spec("{p}bsrilu0", f"{_BSRILU_M} policy pBuffer", f"{_BSRILU_M} =auto pBuffer"),
    "hipsparseXbsrilu02_zeroPivot": Spec("bsrilu0_zero_pivot", "handle info position&i", "handle info position",
                                         blocking=True),
    # bsrsv2 and csrsm2 (triangular solves)
    "hipsparseCreateBsrsv2Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyBsrsv2Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}bsrsv2_bufferSize": Spec("{p}bsrsv_buffer_size", f"{_BSRSV} pBufferSizeInBytes*i", _BSRSV),
    "hipsparse{P}bsrsv2_bufferSizeExt": Spec("{p}bsrsv_buffer_size", f"{_BSRSV} pBufferSizeInBytes*", _BSRSV),
    "hipsparse{P}bsrsv2_analysis": Spec("{p}bsrsv_analysis", f"{_BSRSV} policy pBuffer",
                                        f"{_BSRSV} =force =auto pBuffer"),
    "hipsparse{P}bsrsv2_solve": Spec("{p}bsrsv_solve", "handle dirA transA mb nnzb alpha descrA bsrSortedValA "
                                     "bsrSortedRowPtrA bsrSortedColIndA blockDim info f x policy pBuffer",
                                     "handle dirA transA mb nnzb alpha descrA bsrSortedValA bsrSortedRowPtrA "
                                     "bsrSortedColIndA blockDim info f x =auto pBuffer"),
    "hipsparseXbsrsv2_zeroPivot": Spec("bsrsv_zero_pivot", "handle info position&i", "handle info position"),
    "hipsparseCreateCsrsm2Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyCsrsm2Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csrsm2_bufferSizeExt": Spec("{p}csrsm_buffer_size", f"handle algo {_CSRSM} policy "
                                             "pBufferSizeInBytes*", f"handle {_CSRSM} =auto"),
    "hipsparse{P}csrsm2_analysis": Spec("{p}csrsm_analysis", f"handle algo {_CSRSM} policy pBuffer",
                                        f"handle {_CSRSM} =force =auto pBuffer"),
    "hipsparse{P}csrsm2_solve": Spec("{p}csrsm_solve", f"handle algo {_CSRSM} policy pBuffer",
                                     f"handle {_CSRSM} =auto pBuffer"),
    "hipsparseXcsrsm2_zeroPivot": Spec("csrsm_zero_pivot", "handle info position&i", "handle info position",
                                       blocking=True),
    # tridiagonal and pentadiagonal solvers (size queries pass placeholders for the arrays)
    "hipsparse{P}gtsv2_bufferSizeExt": Spec("{p}gtsv_buffer_size", "handle m n dl d du B ldb pBufferSizeInBytes*",
                                            "handle m n =dummy =dummy =dummy =dummy ldb"),
    "hipsparse{P}gtsv2": Spec("{p}gtsv", _GTSV2, _GTSV2),
    "hipsparse{P}gtsv2_nopivot_bufferSizeExt": Spec("{p}gtsv_no_pivot_buffer_size",
                                                    "handle m n dl d du B ldb pBufferSizeInBytes*",
                                                    "handle m n =dummy =dummy =dummy =dummy ldb"),
    "hipsparse{P}gtsv2_nopivot": Spec("{p}gtsv_no_pivot", _GTSV2, _GTSV2),
    # hipsparse.h names the D size queries' leading dimension ``db`` (the other precisions' ``ldb``)
    "hipsparseDgtsv2_bufferSizeExt": Spec("dgtsv_buffer_size", "handle m n dl d du B db pBufferSizeInBytes*",
                                          "handle m n =dummy =dummy =dummy =dummy db"),
    "hipsparseDgtsv2_nopivot_bufferSizeExt": Spec("dgtsv_no_pivot_buffer_size", "handle m n dl d du B db "
                                                  "pBufferSizeInBytes*", "handle m n =dummy =dummy =dummy =dummy db"),
    "hipsparse{P}gtsvInterleavedBatch_bufferSizeExt": Spec("{p}gtsv_interleaved_batch_buffer_size",
                                                           f"{_BATCH} pBufferSizeInBytes*", "handle algo m =dummy "
                                                           "=dummy =dummy =dummy batchCount batchCount"),
    "hipsparse{P}gtsvInterleavedBatch": Spec("{p}gtsv_interleaved_batch", f"{_BATCH} pBuffer",
                                             f"{_BATCH} batchCount pBuffer"),
    "hipsparse{P}gpsvInterleavedBatch_bufferSizeExt": Spec("{p}gpsv_interleaved_batch_buffer_size",
                                                           f"{_PENTA} pBufferSizeInBytes*", "handle algo m =dummy "
                                                           "=dummy =dummy =dummy =dummy =dummy batchCount batchCount"),
    "hipsparse{P}gpsvInterleavedBatch": Spec("{p}gpsv_interleaved_batch", f"{_PENTA} pBuffer",
                                             f"{_PENTA} batchCount pBuffer"),
    # colouring (a hipsparseColorInfo_t is a rocsparse_mat_info)
    "hipsparseCreateColorInfo": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyColorInfo": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}csrcolor": Spec("{p}csrcolor", f"{_COLOR} ncolors^i coloring reordering info",
                                 f"{_COLOR} ncolors coloring reordering info"),
    # BSR and HYB formats, gemvi, gemmi
    "hipsparseXcsr2bsrNnz": Spec("csr2bsr_nnz", "handle dirA m n descrA csrRowPtrA csrColIndA blockDim descrC "
                                 "bsrRowPtrC bsrNnzb&i", "handle dirA m n descrA csrRowPtrA csrColIndA blockDim "
                                 "descrC bsrRowPtrC bsrNnzb"),
    "hipsparse{P}csr2bsr": Spec("{p}csr2bsr", _CSR2BSR, _CSR2BSR),
    "hipsparse{P}bsr2csr": Spec("{p}bsr2csr", _BSR2CSR, _BSR2CSR),
    "hipsparse{P}bsrmv": Spec("{p}bsrmv", f"{_BSRMV} x beta y", f"{_BSRMV} =None x beta y"),
    "hipsparse{P}bsrmm": Spec("{p}bsrmm", _BSRMM, _BSRMM),
    "hipsparseCreateHybMat": Spec(_sparse.create_hyb_mat, "hybA*", "", post=_NEW),
    "hipsparseDestroyHybMat": Spec("destroy_hyb_mat", "hybA", "hybA", release="hybA"),
    "hipsparse{P}csr2hyb": Spec("{p}csr2hyb", _HYB, _HYB),
    "hipsparse{P}hyb2csr": Spec("{p}hyb2csr", "handle descrA hybA csrSortedValA csrSortedRowPtrA csrSortedColIndA",
                                "handle descrA hybA csrSortedValA csrSortedRowPtrA csrSortedColIndA =buffer",
                                buffer=("hyb2csr_buffer_size", "handle descrA hybA csrSortedRowPtrA")),
    "hipsparse{P}hybmv": Spec("{p}hybmv", "handle transA alpha descrA hybA x beta y",
                              "handle transA alpha descrA hybA x beta y"),
    "hipsparse{P}gemvi_bufferSize": Spec("{p}gemvi_buffer_size", "handle transA m n nnz pBufferSizeInBytes*i",
                                         "handle transA m n nnz"),
    "hipsparse{P}gemvi": Spec("{p}gemvi", "handle transA m n alpha A lda nnz x xInd beta y idxBase pBuffer",
                              "handle transA m n alpha A lda nnz x xInd beta y idxBase pBuffer"),
    "hipsparse{P}gemmi": Spec("{p}gemmi", "handle m n k nnz alpha A lda cscValB cscColPtrB cscRowIndB beta C ldc",
                              "handle =N =T m n k nnz alpha A lda =descr cscValB cscColPtrB cscRowIndB beta C ldc"),
    # prune (S and D; a pruneInfo_t is a rocsparse_mat_info)
    "hipsparseCreatePruneInfo": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyPruneInfo": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}pruneDense2csr_bufferSize": Spec("{p}prune_dense2csr_buffer_size",
                                                  f"{_PRUNE_D} csrVal csrRowPtr csrColInd bufferSize*",
                                                  f"{_PRUNE_D} csrVal csrRowPtr csrColInd"),
    "hipsparse{P}pruneDense2csr_bufferSizeExt": Spec("{p}prune_dense2csr_buffer_size",
                                                     f"{_PRUNE_D} csrVal csrRowPtr csrColInd bufferSize*",
                                                     f"{_PRUNE_D} csrVal csrRowPtr csrColInd"),
    "hipsparse{P}pruneDense2csrNnz": Spec("{p}prune_dense2csr_nnz", f"{_PRUNE_D} csrRowPtr nnzTotalDevHostPtr&i "
                                          "buffer", f"{_PRUNE_D} csrRowPtr nnzTotalDevHostPtr buffer"),
    "hipsparse{P}pruneDense2csr": Spec("{p}prune_dense2csr", f"{_PRUNE_D} csrVal csrRowPtr csrColInd buffer",
                                       f"{_PRUNE_D} csrVal csrRowPtr csrColInd buffer"),
    "hipsparse{P}pruneDense2csrByPercentage_bufferSize": Spec(
        "{p}prune_dense2csr_by_percentage_buffer_size", f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info bufferSize*",
        f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info"),
    "hipsparse{P}pruneDense2csrByPercentage_bufferSizeExt": Spec(
        "{p}prune_dense2csr_by_percentage_buffer_size", f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info bufferSize*",
        f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info"),
    "hipsparse{P}pruneDense2csrNnzByPercentage": Spec(
        "{p}prune_dense2csr_nnz_by_percentage", f"{_PRUNE_DP} csrRowPtr nnzTotalDevHostPtr&i info buffer",
        f"{_PRUNE_DP} csrRowPtr nnzTotalDevHostPtr info buffer"),
    "hipsparse{P}pruneDense2csrByPercentage": Spec(
        "{p}prune_dense2csr_by_percentage", f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info buffer",
        f"{_PRUNE_DP} csrVal csrRowPtr csrColInd info buffer"),
    "hipsparse{P}pruneCsr2csr_bufferSize": Spec("{p}prune_csr2csr_buffer_size",
                                                f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC bufferSize*",
                                                f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC"),
    "hipsparse{P}pruneCsr2csr_bufferSizeExt": Spec("{p}prune_csr2csr_buffer_size",
                                                   f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC bufferSize*",
                                                   f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC"),
    "hipsparse{P}pruneCsr2csrNnz": Spec("{p}prune_csr2csr_nnz", f"{_PRUNE_C} csrRowPtrC nnzTotalDevHostPtr&i buffer",
                                        f"{_PRUNE_C} csrRowPtrC nnzTotalDevHostPtr buffer"),
    "hipsparse{P}pruneCsr2csr": Spec("{p}prune_csr2csr", f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC buffer",
                                     f"{_PRUNE_C} csrValC csrRowPtrC csrColIndC buffer"),
    "hipsparse{P}pruneCsr2csrByPercentage_bufferSize": Spec(
        "{p}prune_csr2csr_by_percentage_buffer_size", f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info bufferSize*",
        f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info"),
    "hipsparse{P}pruneCsr2csrByPercentage_bufferSizeExt": Spec(
        "{p}prune_csr2csr_by_percentage_buffer_size", f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info bufferSize*",
        f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info"),
    "hipsparse{P}pruneCsr2csrNnzByPercentage": Spec(
        "{p}prune_csr2csr_nnz_by_percentage", f"{_PRUNE_CP} csrRowPtrC nnzTotalDevHostPtr&i info buffer",
        f"{_PRUNE_CP} csrRowPtrC nnzTotalDevHostPtr info buffer"),
    "hipsparse{P}pruneCsr2csrByPercentage": Spec(
        "{p}prune_csr2csr_by_percentage", f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info buffer",
        f"{_PRUNE_CP} csrValC csrRowPtrC csrColIndC info buffer"),
    # generic API: sparse vectors, COO AoS and Blocked-ELL descriptors
    "hipsparseCreateSpVec": Spec("create_spvec_descr", "spVecDescr* size:l nnz:l indices values idxType idxBase "
                                 "valueType", "size nnz indices values idxType idxBase valueType", post=_NEW),
    "hipsparseDestroySpVec": Spec("destroy_spvec_descr", "spVecDescr", "spVecDescr", release="spVecDescr"),
    "hipsparseSpVecGet": Spec("spvec_get", "spVecDescr size*l nnz*l indices* values* idxType*i idxBase*i "
                              "valueType*i", "spVecDescr", post=_SPVEC_GET),
    "hipsparseSpVecGetIndexBase": Spec("spvec_get_index_base", "spVecDescr idxBase*i", "spVecDescr",
                                       post=lambda b: hipsparseIndexBase_t(int(b))),
    "hipsparseSpVecGetValues": Spec("spvec_get_values", "spVecDescr values*", "spVecDescr"),
    "hipsparseSpVecSetValues": Spec("spvec_set_values", "spVecDescr values", "spVecDescr values"),
    "hipsparseCreateCooAoS": Spec("create_coo_aos_descr", "spMatDescr* rows:l cols:l nnz:l cooInd cooValues "
                                  "cooIdxType idxBase valueType",
                                  "rows cols nnz cooInd cooValues cooIdxType idxBase valueType", post=_NEW),
    "hipsparseCooAoSGet": Spec("coo_aos_get", "spMatDescr rows*l cols*l nnz*l cooInd* cooValues* idxType*i idxBase*i "
                               "valueType*i", "spMatDescr", post=_AOS_GET),
    "hipsparseCreateBlockedEll": Spec("create_bell_descr", "spMatDescr* rows:l cols:l ellBlockSize:l ellCols:l "
                                      "ellColInd ellValue ellIdxType idxBase valueType",
                                      "rows cols =column ellBlockSize ellCols ellColInd ellValue ellIdxType idxBase "
                                      "valueType", post=_NEW),
    "hipsparseBlockedEllGet": Spec(_bell_get, "spMatDescr rows*l cols*l ellBlockSize*l ellCols*l ellColInd* "
                                   "ellValue* ellIdxType*i idxBase*i valueType*i", "spMatDescr", post=_BELL_GET),
    # generic API: sparse-vector operations, conversions, SDDMM, triangular solves
    "hipsparseAxpby": Spec("axpby", "handle alpha vecX beta vecY", "handle alpha vecX beta vecY", scalar="vecX"),
    "hipsparseGather": Spec("gather", "handle vecY vecX", "handle vecY vecX"),
    "hipsparseScatter": Spec("scatter", "handle vecX vecY", "handle vecX vecY"),
    "hipsparseRot": Spec("rot", "handle c_coeff s_coeff vecX vecY", "handle c_coeff s_coeff vecX vecY", scalar="vecX"),
    "hipsparseSpVV_bufferSize": Spec("spvv", f"{_SPVV} result computeType bufferSize*",
                                     f"{_SPVV} result computeType =box =None"),
    "hipsparseSpVV": Spec(_spvv, f"{_SPVV} result&c computeType externalBuffer",
                          f"{_SPVV} result computeType externalBuffer", scalar="computeType"),
    "hipsparseSparseToDense_bufferSize": Spec("sparse_to_dense", "handle matA matB alg bufferSize*",
                                              "handle matA matB alg =box =None", hipsparseSparseToDenseAlg_t),
    "hipsparseSparseToDense": Spec("sparse_to_dense", "handle matA matB alg externalBuffer",
                                   "handle matA matB alg =None externalBuffer", hipsparseSparseToDenseAlg_t),
    "hipsparseDenseToSparse_bufferSize": Spec("dense_to_sparse", "handle matA matB alg bufferSize*",
                                              "handle matA matB alg =box =None", hipsparseDenseToSparseAlg_t),
    "hipsparseDenseToSparse_analysis": Spec("dense_to_sparse", "handle matA matB alg externalBuffer",
                                            "handle matA matB alg =None externalBuffer", hipsparseDenseToSparseAlg_t),
    "hipsparseDenseToSparse_convert": Spec(_dense_to_sparse_convert, "handle matA matB alg externalBuffer",
                                           "handle matA matB alg externalBuffer", hipsparseDenseToSparseAlg_t),
    "hipsparseSDDMM_bufferSize": Spec("sddmm_buffer_size", f"{_SDDMM} bufferSize*", _SDDMM, hipsparseSDDMMAlg_t,
                                      "computeType"),
    "hipsparseSDDMM_preprocess": Spec("sddmm_preprocess", f"{_SDDMM} tempBuffer", f"{_SDDMM} tempBuffer",
                                      hipsparseSDDMMAlg_t, "computeType"),
    "hipsparseSDDMM": Spec("sddmm", f"{_SDDMM} tempBuffer", f"{_SDDMM} tempBuffer", hipsparseSDDMMAlg_t,
                           "computeType"),
    "hipsparseSpSV_createDescr": Spec(SpSVDescr, "descr*", "", post=_NEW),
    "hipsparseSpSV_destroyDescr": Spec(_destroy_descr(SpSVDescr), "descr", "descr", release="descr"),
    "hipsparseSpSV_bufferSize": Spec("spsv", f"{_SPSV} spsvDescr bufferSize*", f"{_SPSV} =buffer_size",
                                     hipsparseSpSVAlg_t, "computeType"),
    "hipsparseSpSV_analysis": Spec(_spsv_analysis, f"{_SPSV} spsvDescr externalBuffer",
                                   f"{_SPSV} spsvDescr externalBuffer", hipsparseSpSVAlg_t, "computeType"),
    "hipsparseSpSV_solve": Spec(_spsv_solve, f"{_SPSV} spsvDescr", f"{_SPSV} spsvDescr", hipsparseSpSVAlg_t,
                                "computeType"),
    "hipsparseSpSM_createDescr": Spec(SpSMDescr, "descr*", "", post=_NEW),
    "hipsparseSpSM_destroyDescr": Spec(_destroy_descr(SpSMDescr), "descr", "descr", release="descr"),
    "hipsparseSpSM_bufferSize": Spec(_spsm_buffer_size, f"{_SPSM} spsmDescr bufferSize*", f"{_SPSM} spsmDescr",
                                     hipsparseSpSMAlg_t, "computeType"),
    "hipsparseSpSM_analysis": Spec(_spsm_analysis, f"{_SPSM} spsmDescr externalBuffer",
                                   f"{_SPSM} spsmDescr externalBuffer", hipsparseSpSMAlg_t, "computeType"),
    "hipsparseSpSM_solve": Spec(_spsm_solve, f"{_SPSM} spsmDescr externalBuffer",
                                f"{_SPSM} spsmDescr externalBuffer", hipsparseSpSMAlg_t, "computeType"),
    # bsrsm2 and bsric02 (a bsrsm2Info_t / bsric02Info_t is a rocsparse_mat_info); bsrxmv
    "hipsparseCreateBsrsm2Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyBsrsm2Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}bsrsm2_bufferSize": Spec("{p}bsrsm_buffer_size", f"{_BSRSM} pBufferSizeInBytes*i", _BSRSM),
    "hipsparse{P}bsrsm2_analysis": Spec("{p}bsrsm_analysis", f"{_BSRSM} policy pBuffer",
                                        f"{_BSRSM} =force =auto pBuffer"),
    "hipsparse{P}bsrsm2_solve": Spec("{p}bsrsm_solve", f"{_BSRSM_SOLVE} policy pBuffer",
                                     f"{_BSRSM_SOLVE} =auto pBuffer"),
    "hipsparseXbsrsm2_zeroPivot": Spec("bsrsm_zero_pivot", "handle info position&i", "handle info position",
                                       blocking=True),
    "hipsparseCreateBsric02Info": Spec(_sparse.create_mat_info, "info*", "", post=_NEW),
    "hipsparseDestroyBsric02Info": Spec("destroy_mat_info", "info", "info", release="info"),
    "hipsparse{P}bsric02_bufferSize": Spec("{p}bsric0_buffer_size", f"{_BSRIC} pBufferSizeInBytes*i", _BSRIC),
    "hipsparse{P}bsric02_analysis": Spec("{p}bsric0_analysis", f"{_BSRIC} policy pBuffer",
                                         f"{_BSRIC} =force =auto pBuffer", blocking=True),
    "hipsparse{P}bsric02": Spec("{p}bsric0", f"{_BSRIC} policy pBuffer", f"{_BSRIC} =auto pBuffer"),
    "hipsparseXbsric02_zeroPivot": Spec("bsric0_zero_pivot", "handle info position&i", "handle info position",
                                        blocking=True),
    "hipsparse{P}bsrxmv": Spec("{p}bsrxmv", _BSRXMV, _BSRXMV),
    # generic API: strided batches
    "hipsparseSpMatGetStridedBatch": Spec("spmat_get_strided_batch", "spMatDescr batchCount*i", "spMatDescr"),
    "hipsparseSpMatSetStridedBatch": Spec("spmat_set_strided_batch", "spMatDescr batchCount",
                                          "spMatDescr batchCount"),
    "hipsparseCooSetStridedBatch": Spec("coo_set_strided_batch", "spMatDescr batchCount batchStride:l",
                                        "spMatDescr batchCount batchStride"),
    "hipsparseCsrSetStridedBatch": Spec("csr_set_strided_batch", "spMatDescr batchCount offsetsBatchStride:l "
                                        "columnsValuesBatchStride:l", "spMatDescr batchCount offsetsBatchStride "
                                        "columnsValuesBatchStride"),
    "hipsparseDnMatGetStridedBatch": Spec("dnmat_get_strided_batch", "dnMatDescr batchCount*i batchStride*l",
                                          "dnMatDescr"),
    "hipsparseDnMatSetStridedBatch": Spec("dnmat_set_strided_batch", "dnMatDescr batchCount batchStride:l",
                                          "dnMatDescr batchCount batchStride"),
    # Csr2cscEx2 (csr2csc by valType; its size query ignores the type), csru2csr / csr2csru, git revision
    "hipsparseCsr2cscEx2_bufferSize": Spec("csr2csc_buffer_size", f"{_EX2} bufferSize*",
                                           "handle m n nnz csrRowPtr csrColInd copyValues", hipsparseCsr2CscAlg_t),
    "hipsparseCsr2cscEx2": Spec(_csr2csc_ex2, f"{_EX2} buffer", _EX2.removesuffix(" alg") + " buffer",
                                hipsparseCsr2CscAlg_t),
    "hipsparseCreateCsru2csrInfo": Spec(Csru2csrInfo, "info*", "", post=_NEW),
    "hipsparseDestroyCsru2csrInfo": Spec(_destroy_csru2csr_info, "info", "info", release="info"),
    "hipsparse{P}csru2csr_bufferSizeExt": Spec(_csru2csr_buffer_size, f"{_CSRU_SIZE} pBufferSizeInBytes*",
                                               f"=p {_CSRU_SIZE}"),
    "hipsparse{P}csru2csr": Spec(_csru2csr, _CSRU, f"=p {_CSRU}"),
    "hipsparse{P}csr2csru": Spec(_csr2csru, _CSRU, f"=p {_CSRU}"),
    "hipsparseGetGitRevision": Spec(_git_revision, "handle rev", "handle rev"),
    # legacy csrgemm (C := A B on a mat_info and a buffer of hipSPARSE's own)
    "hipsparseXcsrgemmNnz": Spec(_csrgemm_nnz, f"{_CSRGEMM_NNZ} nnzTotalDevHostPtr&i",
                                 f"{_CSRGEMM_NNZ} nnzTotalDevHostPtr"),
    "hipsparse{P}csrgemm": Spec(_csrgemm, _CSRGEMM, f"=p {_CSRGEMM}"),
    # SpGEMMreuse (the structure once, the values as often as wanted)
    "hipsparseSpGEMMreuse_workEstimation": Spec(_spgemm_reuse_work_estimation,
                                                f"{_REUSE} bufferSize1* externalBuffer1", f"{_REUSE} externalBuffer1",
                                                hipsparseSpGEMMAlg_t),
    "hipsparseSpGEMMreuse_nnz": Spec(_spgemm_reuse_nnz, f"{_REUSE} bufferSize2* externalBuffer2 bufferSize3* "
                                     "externalBuffer3 bufferSize4* externalBuffer4", f"{_REUSE} {_REUSE_NNZ}",
                                     hipsparseSpGEMMAlg_t),
    "hipsparseSpGEMMreuse_copy": Spec(_spgemm_reuse_copy, f"{_REUSE} bufferSize5* externalBuffer5",
                                      f"{_REUSE} bufferSize5 externalBuffer5", hipsparseSpGEMMAlg_t),
    "hipsparseSpGEMMreuse_compute": Spec(_spgemm_reuse_compute, _SPGEMM, _SPGEMM, hipsparseSpGEMMAlg_t,
                                         "computeType"),
    # general BSR (gebsr), compression, cscsort
    "hipsparse{P}csr2gebsr_bufferSize": Spec("{p}csr2gebsr_buffer_size", f"{_CSR2GEBSR_SIZE} p_buffer_size*",
                                             _CSR2GEBSR_SIZE),
    "hipsparseXcsr2gebsrNnz": Spec("csr2gebsr_nnz", f"{_CSR2GEBSR_NNZ} bsr_nnz_devhost&i p_buffer",
                                   f"{_CSR2GEBSR_NNZ} bsr_nnz_devhost p_buffer"),
    "hipsparse{P}csr2gebsr": Spec("{p}csr2gebsr", _CSR2GEBSR, _CSR2GEBSR),
    "hipsparse{P}gebsr2csr": Spec("{p}gebsr2csr", _GEBSR2CSR, _GEBSR2CSR),
    "hipsparse{P}gebsr2gebsc_bufferSize": Spec("{p}gebsr2gebsc_buffer_size", f"{_GEBSC_SIZE} p_buffer_size*",
                                               _GEBSC_SIZE),
    "hipsparse{P}gebsr2gebsc": Spec("{p}gebsr2gebsc", _GEBSC, _GEBSC),
    "hipsparse{P}gebsr2gebsr_bufferSize": Spec("{p}gebsr2gebsr_buffer_size", f"{_GEBSR_SIZE} bufferSize*i",
                                               _GEBSR_SIZE),
    "hipsparseXgebsr2gebsrNnz": Spec("gebsr2gebsr_nnz", f"{_GEBSR_NNZ} nnzTotalDevHostPtr&i buffer",
                                     f"{_GEBSR_NNZ} nnzTotalDevHostPtr buffer"),
    "hipsparse{P}gebsr2gebsr": Spec("{p}gebsr2gebsr", _GEBSR, _GEBSR),
    "hipsparse{P}nnz_compress": Spec("{p}nnz_compress", "handle m descrA csrValA csrRowPtrA nnzPerRow nnzC&i tol%",
                                     "handle m descrA csrValA csrRowPtrA nnzPerRow nnzC tol"),
    # hipSPARSE's arguments are (values, columns, row pointer) for A and C, rocSPARSE's (values, row pointer, columns)
    "hipsparse{P}csr2csr_compress": Spec("{p}csr2csr_compress", "handle m n descrA csrValA csrColIndA csrRowPtrA nnzA "
                                         "nnzPerRow csrValC csrColIndC csrRowPtrC tol%",
                                         "handle m n descrA csrValA csrRowPtrA csrColIndA nnzA nnzPerRow csrValC "
                                         "csrRowPtrC csrColIndC tol"),
    "hipsparseXcscsort_bufferSizeExt": Spec("cscsort_buffer_size", "handle m n nnz cscColPtr cscRowInd "
                                            "pBufferSizeInBytes*", "handle m n nnz cscColPtr cscRowInd"),
    "hipsparseXcscsort": Spec("cscsort", "handle m n nnz descrA cscColPtr cscRowInd P pBuffer",
                              "handle m n nnz descrA cscColPtr cscRowInd P pBuffer"),
}
#: hipSPARSE's Const functions: the mutable ones' parameters over rocSPARSE's const creators and getters.
_CONST = {
    **{f"hipsparseCreateConst{x}": (f"hipsparseCreate{x}", f"create_const_{roc}_descr")
       for x, roc in (("Csr", "csr"), ("Csc", "csc"), ("Coo", "coo"), ("BlockedEll", "bell"), ("SpVec", "spvec"),
                      ("DnVec", "dnvec"), ("DnMat", "dnmat"))},
    **{f"hipsparseConst{x}": (f"hipsparse{x}", f"const_{roc}")
       for x, roc in (("CsrGet", "csr_get"), ("CscGet", "csc_get"), ("CooGet", "coo_get"),
                      ("SpMatGetValues", "spmat_get_values"), ("SpVecGet", "spvec_get"),
                      ("SpVecGetValues", "spvec_get_values"), ("DnVecGet", "dnvec_get"),
                      ("DnVecGetValues", "dnvec_get_values"), ("DnMatGet", "dnmat_get"),
                      ("DnMatGetValues", "dnmat_get_values"))},
    "hipsparseConstBlockedEllGet": ("hipsparseBlockedEllGet", _const_bell_get),
}
FUNCTIONS.update({name: replace(FUNCTIONS[same], roc=roc) for name, (same, roc) in _CONST.items()})

# --- the factory ----------------------------------------------------------------------------------------------


def _scalar_dtype(spec: Spec, letter: str, given: dict[str, Any], real: bool = False) -> np.dtype[Any] | None:
    """The type of a call's host scalars (None when the vector that fixes it is not a live descriptor: rocSPARSE
    then fails on that descriptor before reading any scalar)."""
    if spec.scalar == "computeType":
        dtype = _to_rocsparse(given["computeType"], hipDataType, "computeType").dtype
    elif spec.scalar == "vecX":
        vec = target_of(given["vecX"], Opaque)
        if not isinstance(vec, SpVecDescr):
            return None
        dtype = vec.data_type.dtype
    else:
        dtype = np.dtype({"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}[letter])
    return np.dtype(dtype.type(0).real.dtype) if real else np.dtype(dtype)


def _convert(name: str, value: Any, spec: Spec) -> Any:
    """One hip-python argument as rocmath.sparse takes it (scalars aside)."""
    if name == "alg":
        assert spec.alg is not None
        return _to_rocsparse(value, spec.alg, name)
    if name in _ENUMS:
        return _to_rocsparse(value, _ENUMS[name], name)
    if name in _HIP_ENUMS:
        check_enum(value, _HIP_ENUMS[name], name)
        return value
    if name in _OBJECTS:
        return target_of(value, Opaque)
    if name in _RAW:
        return value
    if name == "streamId":  # rocSPARSE keeps whatever stream it is given; rocmath checks it
        return stream_of(value, "stream", _invalid_stream)
    found = find(value, Opaque)  # a descriptor where the name also serves legacy arrays (x, y, A, B, C)
    return found.target if found is not None else device_address(value)  # None and 0 are NULL


def _by_value(value: Any, letter: str, arg: str) -> Any:
    """A scalar the C function takes by value, as Cython converts it: a real precision's from anything with
    ``__float__``, a complex one's (``hipComplex``, ``hipDoubleComplex``) from a Python or numpy number."""
    dtype = np.dtype({"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}[letter])
    if dtype.kind != "c":
        return dtype.type(c_double(value, arg))
    if isinstance(value, (bool, str, bytes, bytearray)) or not isinstance(value, (int, float, complex, np.number)):
        raise TypeError(f"a number is required for argument '{arg}', got {type(value).__name__}")
    return dtype.type(complex(value))


@dataclass(frozen=True)
class _Result:
    """A value rocmath.sparse returns (host) or writes to a device pointer (device pointer mode); ``kind`` is the
    suffix after ``&`` or ``^`` in the table: its C type (``i`` int, ``p`` the precision's, ``c`` the compute
    type, which also gets a host scratch value); ``^`` results are host pointers in both modes."""

    kind: str
    always_host: bool

    def dtype(self, spec: Spec, letter: str, given: dict[str, Any]) -> np.dtype[Any]:
        if self.kind == "i":
            return np.dtype(np.int32)
        dtype = _scalar_dtype(spec, letter, given)
        assert dtype is not None
        return dtype


def _bind(name: str, spec: Spec, letter: str = "") -> Callable[..., tuple[Any, ...]]:
    tokens = spec.params.split()
    params = tuple(t.split("*")[0].split("&")[0].split("^")[0].split("%")[0].split(":")[0] for t in tokens)
    outs = {t.split("*")[0]: _OUT_TYPES[t.split("*")[1]] for t in tokens if "*" in t}
    by_value = frozenset(t.removesuffix("%") for t in tokens if t.endswith("%"))
    #: The result parameter (at most one).
    results = {t.split(c)[0]: _Result(t.split(c)[1], c == "^") for t in tokens for c in "&^" if c in t}
    #: The integer parameters' C types (``:l``, ``:z`` in the table; ``int`` for the other names of _INTS).
    typed = {t.split(":")[0]: _INT_TYPES[t.split(":")[1]] for t in tokens if ":" in t}
    ints = {p: typed.get(p, "int") for p in params
            if (p in typed or p in _INTS) and p not in outs and p not in results and p not in _SCALARS}
    call = spec.call.split()
    target = spec.roc if callable(spec.roc) else getattr(_sparse, spec.roc.format(p=letter.lower()))
    stages = _STAGES.get(spec.roc) if isinstance(spec.roc, str) else None

    def constant(token: str, values: dict[str, Any], scratch: int) -> Any:
        if token in _CONSTANTS:
            return _CONSTANTS[token]
        if token in _FRESH:
            return _FRESH[token]()
        if token == "=buffer":
            return scratch
        if token == "=p":
            return letter.lower()
        if token.startswith("="):
            assert stages is not None
            return getattr(stages, token[1:])
        return values[token]

    def entry(given: dict[str, Any]) -> dict[str, Any]:
        """The arguments Cython converts on entry, in order, before anything else (the integers to their C types,
        doubles and real scalars by value): TypeError and OverflowError before any enum check or status."""
        converted: dict[str, Any] = {}
        for n in params:
            if n in ints:
                converted[n] = c_integer(given[n], n, ints[n])
            elif n in _DOUBLES:
                converted[n] = c_double(given[n], n)
            elif n in by_value and letter in ("S", "D"):
                converted[n] = _by_value(given[n], letter, n)
        return converted

    def impl(*args: Any, **kwargs: Any) -> Any:
        given = call_arguments(name, params, args, kwargs)
        values = entry(given)
        values.update({n: _convert(n, v, spec) for n, v in given.items()
                       if n not in values and n not in outs and n not in _SCALARS and n not in results
                       and n not in by_value})
        values.update({n: given[n] for n in outs})
        values.update({n: _by_value(given[n], letter, n) for n in by_value if n not in values})
        handle = values.get("handle")
        host = not isinstance(handle, SparseHandle) or handle.pointer_mode is PointerMode.host
        result_name, result = next(iter(results.items())) if results else ("", None)
        result_on_host = result is not None and (host or result.always_host)
        if result is not None and not result_on_host:
            values[result_name] = device_address(given[result_name])
        elif result is not None:
            where = given[result_name]
            if not result.always_host and not isinstance(where, ctypes._SimpleCData) and pointer_value(where) == 0:
                raise _error("null pointer", result_name)
            # rocmath.sparse returns a host result (spvv also wants a host array to store it in)
            values[result_name] = np.zeros(1, result.dtype(spec, letter, given)) if result.kind == "c" else None
        for n in (n for n in params if n in _SCALARS and n not in by_value):
            kind = _SCALARS[n]
            dtype = _scalar_dtype(spec, letter, given, kind.real) if host or not kind.by_mode else None
            if dtype is not None:
                got = read_host(given[n], dtype, 1, n, _error)
                values[n] = None if got is None else got[0]
            else:
                values[n] = device_address(given[n]) or None
        scratch = 0
        if spec.buffer is not None:
            size_fn, size_args = spec.buffer
            size = getattr(_sparse, size_fn)(*(values[a] for a in size_args.split()))
            scratch = rocmath.malloc(size) if size else 0
        try:
            args_out = [constant(t, values, scratch) for t in call]
            try:
                out = target(*args_out)
            except SparseZeroPivotError as exc:
                # rocSPARSE writes the position, then returns zero_pivot.
                if result_on_host and hasattr(exc, "position"):
                    write_host(given[result_name], exc.position, np.int32, result_name, _error)
                raise
            if result_on_host and out is not None:
                assert result is not None
                write_host(given[result_name], out, result.dtype(spec, letter, given), result_name, _error)
                out = None
            if spec.buffer is not None or spec.blocking:
                # hipSPARSE's csr2csc and hyb2csr wait before freeing their buffers; doti, the analyses of
                # csrsv2 / csrilu02 / csric02 / bsrilu02 and most zeroPivot queries synchronize the stream too
                # (they are blocking in cuSPARSE).
                values["handle"].stream.synchronize()
        finally:
            if scratch:
                rocmath.free(scratch)
        if spec.release is not None:
            found = find(given[spec.release], Opaque)
            if found is not None:
                found.release()
        return spec.post(out) if spec.post is not None else out

    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    what = spec.roc if isinstance(spec.roc, str) else spec.roc.__name__
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsparseStatus_t,)\n\nhipSPARSE over rocmath.sparse."
                    f"{what.format(p=letter.lower())}" + (f"; out-parameters {', '.join(outs)} are written, or "
                                                          "returned when omitted." if outs else "."))
    if outs:  # the integers are converted before the out-parameters' NULL checks too
        return out_parameters(_HIPSPARSE, impl, outs, _error, integers=ints)
    fn = binding(_HIPSPARSE)(impl)
    fn.__signature__ = impl.__signature__  # type: ignore[attr-defined]
    return fn


def _names(table: dict[str, Spec]) -> dict[str, tuple[Spec, str]]:
    """Every hipSPARSE name of the table whose rocmath.sparse function exists -> (spec, precision letter)."""
    out: dict[str, tuple[Spec, str]] = {}
    for name, spec in table.items():
        for letter in ("SDCZ" if "{P}" in name else " "):
            roc = spec.roc.format(p=letter.lower()) if isinstance(spec.roc, str) else None
            if roc is None or hasattr(_sparse, roc):
                out[name.format(P=letter)] = (spec, letter.strip())
    return out


MANIFEST = _names(FUNCTIONS)
_BOUND = {name: _bind(name, spec, letter) for name, (spec, letter) in MANIFEST.items()}
globals().update(_BOUND)


# --- functions that return their value without a status ---------------------------------------------------------


def _getter(name: str, roc: str, cls: type) -> Callable[[Any], tuple[Any]]:
    fn = getattr(_sparse, roc)

    def get(descrA: Any) -> tuple[Any]:
        return (_from_rocsparse(fn(target_of(descrA, Opaque)), cls),)

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"{name}(descrA) -> ({cls.__name__},): no status, as in C (a NULL descriptor reads the default)."
    return get


hipsparseGetMatType = _getter("hipsparseGetMatType", "get_mat_type", hipsparseMatrixType_t)
hipsparseGetMatFillMode = _getter("hipsparseGetMatFillMode", "get_mat_fill_mode", hipsparseFillMode_t)
hipsparseGetMatDiagType = _getter("hipsparseGetMatDiagType", "get_mat_diag_type", hipsparseDiagType_t)
hipsparseGetMatIndexBase = _getter("hipsparseGetMatIndexBase", "get_mat_index_base", hipsparseIndexBase_t)

_TO_ROCSPARSE_STATUS = {0: Status.success, 1: Status.not_initialized, 2: Status.memory_error, 3: Status.invalid_value,
                        4: Status.arch_mismatch, 9: Status.zero_pivot, 10: Status.not_implemented}
_DESCRIPTIONS = {
    Status.success: "success", Status.invalid_handle: "handle not initialized, invalid or null",
    Status.not_implemented: "function is not implemented", Status.invalid_pointer: "invalid pointer parameter",
    Status.invalid_size: "invalid size parameter", Status.memory_error: "failed memory allocation, copy, dealloc",
    Status.internal_error: "other internal library failure", Status.invalid_value: "invalid value parameter",
    Status.arch_mismatch: "device arch is not supported", Status.zero_pivot: "encountered zero pivot",
    Status.not_initialized: "descriptor has not been initialized",
}


def _backend_status(status: Any) -> Status:
    check_enum(status, hipsparseStatus_t, "status")
    return _TO_ROCSPARSE_STATUS.get(int(status), Status.internal_error)


def hipsparseGetErrorName(status: Any) -> tuple[CStr]:
    """The name of the rocSPARSE status hipSPARSE converts ``status`` to (1-tuple, no status)."""
    return (CStr(_backend_status(status).to_string()),)


def hipsparseGetErrorString(status: Any) -> tuple[CStr]:
    """A description of the rocSPARSE status hipSPARSE converts ``status`` to (1-tuple, no status)."""
    return (CStr(_DESCRIPTIONS[_backend_status(status)]),)


def _get_version(handle: Any, version: Any) -> int:
    if not isinstance(target_of(handle, Opaque), SparseHandle):
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_NOT_INITIALIZED, "not a live hipSPARSE handle", arg="handle")
    return hipsparseVersionMajor * 100000 + hipsparseVersionMinor * 100 + hipsparseVersionPatch


_get_version.__name__ = _get_version.__qualname__ = "hipsparseGetVersion"
_get_version.__doc__ = ("hipsparseGetVersion(handle, version) -> (status,): major * 100000 + minor * 100 + patch, "
                        "written through ``version`` (an int*), or returned when it is omitted.")
hipsparseGetVersion = out_parameters(_HIPSPARSE, _get_version, {"version": np.dtype(np.int32)}, _error)

__all__ = sorted([
    *_BOUND, "hipsparseGetMatType", "hipsparseGetMatFillMode", "hipsparseGetMatDiagType", "hipsparseGetMatIndexBase",
    "hipsparseGetErrorName", "hipsparseGetErrorString", "hipsparseGetVersion", "hipsparseStatus_t",
    "hipsparsePointerMode_t", "hipsparseAction_t", "hipsparseMatrixType_t", "hipsparseFillMode_t",
    "hipsparseDiagType_t", "hipsparseIndexBase_t", "hipsparseOperation_t", "hipsparseHybPartition_t",
    "hipsparseSolvePolicy_t", "hipsparseSideMode_t", "hipsparseDirection_t", "hipsparseCsr2CscAlg_t",
    "hipsparseFormat_t", "hipsparseOrder_t", "hipsparseIndexType_t", "hipsparseSpMVAlg_t", "hipsparseSpMMAlg_t",
    "hipsparseSpMatAttribute_t", "hipDataType", "hipsparseHandle_t", "hipsparseMatDescr_t", "hipsparseSpMatDescr_t",
    "hipsparseDnVecDescr_t", "hipsparseDnMatDescr_t", "hipsparseMatInfo_t", "hipsparseSpGEMMDescr_t",
    "hipsparseSpGEMMAlg_t", "SpGEMMDescr", "HipsparseStatusError", "hipsparseSparseToDenseAlg_t",
    "hipsparseDenseToSparseAlg_t", "hipsparseSDDMMAlg_t", "hipsparseSpSVAlg_t", "hipsparseSpSMAlg_t",
    "hipsparseHybMat_t", "hipsparseSpVecDescr_t", "hipsparseSpSVDescr_t", "hipsparseSpSMDescr_t", "SpSVDescr",
    "SpSMDescr", "Csru2csrInfo", "hipsparseCsru2csrInfo_t",
    "ROCSPARSE_TO_HIPSPARSE", "convert_status", "FUNCTIONS", "MANIFEST", "Spec", "hipsparseVersionMajor",
    "hipsparseVersionMinor", "hipsparseVersionPatch", "hipsparseVersionTweak",
])
