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
its orders, formats, data types and algorithms are numbered differently too).

Every function except the four descriptor getters without status is generated from
one table, :data:`FUNCTIONS` (one line per hipSPARSE function: its hip-python
parameters and the rocmath.sparse call they become), through
:func:`rocmath.hip._api.binding`; statuses come from hipSPARSE's conversion of
rocSPARSE's (:data:`ROCSPARSE_TO_HIPSPARSE`).  A rocSPARSE routine added to
rocmath.sparse needs one table line here.

The generic SpGEMM (``hipsparseSpGEMM_createDescr``, ``_workEstimation``, ``_compute``,
``_copy``, ``_destroyDescr``) keeps hipSPARSE's stages and buffer layout (C's row pointer
in the first buffer, its columns and values in the second until the copy) and runs
rocmath.sparse's csrgemm in them (rocmath.sparse has no ``spgemm``): CSR operands, no
transposes, values of the compute type and one index type (32 or 64 bits) for all arrays;
the copy adds ``beta`` times C's values over the product's pattern as hipSPARSE's axpby
does.  The ``Const`` functions are the others under hipSPARSE's const names.
"""

from __future__ import annotations

import ctypes
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
import rocmath.sparse as _sparse
from rocmath.errors import HipError, HipStatus
from rocmath.handle import PointerMode
from rocmath.sparse import (
    AnalysisPolicy,
    Datatype,
    DnMatDescr,
    DnVecDescr,
    Format,
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
    SparseNotImplementedError,
    SparseZeroPivotError,
    SpGEMMAlg,
    SpMatAttribute,
    SpMatDescr,
    SpMMAlg,
    SpMMStage,
    SpMVAlg,
    SpMVStage,
    Status,
)

from . import hip as _hip
from ._api import binding
from ._lib import (
    LibraryError,
    Opaque,
    c_int,
    error_factory,
    find,
    library_table,
    out_parameters,
    read_host,
    target_of,
    write_host,
)
from ._types import CStr, c_enum, check_enum, device_address, pointer_value
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
    """An analysis object (``csrsv2Info_t``...: a :class:`rocmath.sparse.MatInfo`)."""


class hipsparseSpGEMMDescr_t(Opaque):
    """A ``hipsparseSpGEMMDescr_t`` (a :class:`SpGEMMDescr`)."""


@dataclass(eq=False)
class SpGEMMDescr:
    """hipSPARSE's ``hipsparseSpGEMMDescr``: the external buffers of SpGEMM's stages, their sizes, and the
    analysis of rocmath.sparse's csrgemm the stages run (a mat_info).

    ``buffer1`` holds C's row pointer (its first ``256``-rounded bytes), then csrgemm's temp
    buffer; ``buffer2`` C's column indices, values, an index array and a scalar, each rounded
    to 256 bytes, as hipSPARSE lays them out.
    """

    info: MatInfo = field(default_factory=MatInfo)
    size1: int = 0
    size2: int = 0
    buffer1: int = 0
    buffer2: int = 0


_OPAQUE = {SparseHandle: hipsparseHandle_t, MatDescr: hipsparseMatDescr_t, SpMatDescr: hipsparseSpMatDescr_t,
           DnVecDescr: hipsparseDnVecDescr_t, DnMatDescr: hipsparseDnMatDescr_t, MatInfo: hipsparseMatInfo_t,
           SpGEMMDescr: hipsparseSpGEMMDescr_t}


def _new(obj: Any) -> Opaque:
    return _OPAQUE[type(obj)].new(obj)


# --- enum conversions (hipSPARSE's hip*ToHCC* functions) ---------------------------------------------

_TO_ROCSPARSE: dict[type, dict[int, Any]] = {
    hipsparseOperation_t: {0: Operation.none, 1: Operation.transpose, 2: Operation.conjugate_transpose},
    hipsparseOrder_t: {1: Order.column, 2: Order.row},
    hipsparseFormat_t: {1: Format.csr, 2: Format.csc, 3: Format.coo, 4: Format.coo_aos, 5: Format.bell},
    hipsparseIndexType_t: {2: 2, 3: 3},  # no 16-bit indices in hipSPARSE's conversion
    hipDataType: {0: Datatype.f32_r, 1: Datatype.f64_r, 4: Datatype.f32_c, 5: Datatype.f64_c},
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

#: Enum parameters by hip-python name (``alg`` is the function's own: :attr:`Spec.alg`).
_ENUMS: dict[str, type] = {
    "transA": hipsparseOperation_t, "transB": hipsparseOperation_t, "opA": hipsparseOperation_t,
    "opB": hipsparseOperation_t, "idxBase": hipsparseIndexBase_t, "base": hipsparseIndexBase_t,
    "copyValues": hipsparseAction_t, "computeType": hipDataType, "valueType": hipDataType,
    "csrRowOffsetsType": hipsparseIndexType_t, "csrColIndType": hipsparseIndexType_t,
    "cscColOffsetsType": hipsparseIndexType_t, "cscRowIndType": hipsparseIndexType_t,
    "cooIdxType": hipsparseIndexType_t, "order": hipsparseOrder_t, "type": hipsparseMatrixType_t,
    "fillMode": hipsparseFillMode_t, "diagType": hipsparseDiagType_t, "mode": hipsparsePointerMode_t,
    "attribute": hipsparseSpMatAttribute_t, "policy": hipsparseSolvePolicy_t, "dirA": hipsparseDirection_t,
}
#: Integer parameters.
_INTS = frozenset({"m", "n", "k", "nnz", "lda", "ldb", "ldc", "ld", "rows", "cols", "size", "batchCount",
                   "batchStride", "nnzA", "nnzB", "nnzD", "dataSize"})
#: Handles and descriptors.
_OBJECTS = frozenset({"handle", "descr", "descrA", "descrB", "descrC", "descrD", "dest", "src", "matA", "matB", "matC",
                      "vecX", "vecY", "spMatDescr", "dnVecDescr", "dnMatDescr", "info", "spgemmDescr"})
#: Host pointers a function reads or writes itself (passed on unconverted).
_RAW = frozenset({"data"})
#: Host scalars (device pointers in device pointer mode).
_SCALARS = frozenset({"alpha", "beta", "c", "s"})
#: Out-parameter C types by the suffix after ``*`` in a table entry (default: a pointer-sized value).
_OUT_TYPES = {"": np.dtype(np.uint64), "i": np.dtype(np.int32), "l": np.dtype(np.int64)}
#: Constant arguments of a table entry's call (besides ``=buffer`` and the stages).
_CONSTANTS: dict[str, Any] = {
    "=None": None, "=N": Operation.none, "=force": AnalysisPolicy.force, "=auto": SolvePolicy.auto,
    "=dummy": 0x4,  # the non-null placeholder hipSPARSE passes for arrays a size query does not read
}


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
        type) and a device pointer rocmath.sparse writes in device pointer mode.
    call
        The rocmath.sparse arguments: parameter names, or ``=None``, ``=N`` (no transpose),
        ``=force`` / ``=auto`` (analysis and solve policies), ``=dummy`` (a non-null placeholder),
        ``=buffer`` (a scratch buffer hipSPARSE allocates), ``=`` followed by a stage name.
    alg
        The enum class of the ``alg`` parameter.
    scalar
        Where the host scalars' type comes from: the precision letter or ``computeType``.
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


_IDX = hipsparseIndexType_t
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


# --- SpGEMM: hipSPARSE's stages over rocmath.sparse's csrgemm ------------------------------------------------

_INDEX_BYTES = {IndexType.i32: 4, IndexType.i64: 8}
_INDEX_DTYPES = {IndexType.i32: np.dtype(np.int32), IndexType.i64: np.dtype(np.int64)}
_LETTER = {Datatype.f32_r: "s", Datatype.f64_r: "d", Datatype.f32_c: "c", Datatype.f64_c: "z"}


def _round256(nbytes: int) -> int:
    return -(-nbytes // 256) * 256


def _index_array(ptr: Any, length: int, itype: IndexType) -> Any:
    """An index array as csrgemm takes it: a DeviceArray of its type (csrgemm reads raw pointers as int32)."""
    if not ptr or length <= 0:
        return ptr or None
    return rocmath.DeviceArray.from_pointer(int(ptr), (length,), _INDEX_DTYPES[itype])


@dataclass
class _Operand:
    """A CSR operand of the product: its matrix descriptor, sizes and arrays (index arrays typed)."""

    descr: MatDescr
    rows: int
    cols: int
    nnz: int
    ptr: Any
    ind: Any
    val: Any


def _operand(mat: SpMatDescr, arg: str, index_type: IndexType) -> _Operand:
    return _Operand(mat.descr, mat.rows, mat.cols, mat.nnz, _index_array(mat.row_data, mat.rows + 1, index_type),
                    _index_array(mat.col_data, mat.nnz, index_type), mat.val_data)


@dataclass
class _Product:
    """C := alpha A B as csrgemm computes it."""

    handle: SparseHandle
    a: _Operand
    b: _Operand
    c: SpMatDescr
    letter: str
    index_type: IndexType
    value_bytes: int

    @property
    def index_bytes(self) -> int:
        return _INDEX_BYTES[self.index_type]

    def row_bytes(self) -> int:
        """Bytes at the front of buffer1: C's row pointer."""
        return _round256(self.index_bytes * (self.c.rows + 1))

    def columns_bytes(self) -> int:
        return _round256(self.index_bytes * self.c.nnz)

    def values_bytes(self) -> int:
        return _round256(self.value_bytes * self.c.nnz)

    def routine(self, name: str) -> Callable[..., Any]:
        return getattr(_sparse, f"{self.letter}{name}")  # type: ignore[no-any-return]


def _product(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any, mat_c: Any,
             compute: Any, spgemm: Any) -> _Product:
    """hipSPARSE's checks (every argument non-null, C a CSR matrix), then what csrgemm can compute: CSR
    operands of the compute type and one index type, sizes that agree."""
    for name, value in (("handle", handle), ("alpha", alpha), ("beta", beta), ("matA", mat_a), ("matB", mat_b),
                        ("matC", mat_c), ("spgemmDescr", spgemm)):
        if value is None or (name != "alpha" and name != "beta" and value == 0):
            raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, "null argument", arg=name)
    if not isinstance(spgemm, SpGEMMDescr):
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, "not an SpGEMM descriptor", arg="spgemmDescr")
    _sparse.get_pointer_mode(handle)  # a live handle (rocSPARSE's invalid_handle otherwise)
    for name, op in (("opA", op_a), ("opB", op_b)):
        if op is not Operation.none:
            raise SparseNotImplementedError("only operation_none is implemented", arg=name)
    _sparse.csr_get(mat_c)  # hipsparseCsrGet(matC): C must be a live CSR descriptor
    mats = {"matA": _spmat(mat_a, "matA"), "matB": _spmat(mat_b, "matB"), "matC": mat_c}
    for name, mat in mats.items():
        if mat.format is not Format.csr:
            raise SparseNotImplementedError(f"a {mat.format.name} matrix (only CSR)", arg=name)
        if mat.data_type is not compute:
            raise SparseNotImplementedError(f"values of {mat.data_type.name}, compute type {compute.name}", arg=name)
    types = {t for mat in mats.values() for t in (mat.row_type, mat.col_type)}
    if len(types) != 1:
        raise SparseNotImplementedError("csrgemm takes one index type for all arrays", arg="matC")
    if mat_a.cols != mat_b.rows or mat_c.rows != mat_a.rows or mat_c.cols != mat_b.cols:
        raise SparseInvalidSizeError(f"A {mat_a.rows} x {mat_a.cols}, B {mat_b.rows} x {mat_b.cols}, "
                                     f"C {mat_c.rows} x {mat_c.cols} do not agree", arg="matC")
    (itype,) = types
    return _Product(handle, _operand(mat_a, "matA", itype), _operand(mat_b, "matB", itype), mat_c, _LETTER[compute],
                    itype, compute.dtype.itemsize)


def _operands(p: _Product, with_values: bool) -> tuple[Any, ...]:
    """csrgemm's A and B arguments (``descr, nnz, [val,] row_ptr, col_ind`` each)."""
    a, b = p.a, p.b
    if with_values:
        return (a.descr, a.nnz, a.val, a.ptr, a.ind, b.descr, b.nnz, b.val, b.ptr, b.ind)
    return (a.descr, a.nnz, a.ptr, a.ind, b.descr, b.nnz, b.ptr, b.ind)


def _spgemm_work_estimation(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any,
                            mat_c: Any, compute: Any, alg: Any, spgemm: Any, buffer1: Any) -> int:
    """Without buffer1: its size (csrgemm's temp buffer after C's row pointer).  With it: C's row pointer
    into buffer1 and C's nnz into matC (csrgemm_nnz)."""
    p = _product(handle, op_a, op_b, alpha, mat_a, mat_b, beta, mat_c, compute, spgemm)
    m, k, n = p.a.rows, p.a.cols, p.b.cols
    if not buffer1:
        size = p.routine("csrgemm_buffer_size")(handle, op_a, op_b, m, n, k, alpha, *_operands(p, False), None, None,
                                                0, None, None, spgemm.info)
        spgemm.size1 = size + p.row_bytes()
        return spgemm.size1
    spgemm.buffer1 = buffer1
    _sparse.csr_set_pointers(mat_c, buffer1, mat_c.col_data, mat_c.val_data)
    with handle.use_pointer_mode(PointerMode.host):  # C's nnz must reach its descriptor
        nnz = _sparse.csrgemm_nnz(handle, op_a, op_b, m, n, k, *_operands(p, False), None, 0, None, None, mat_c.descr,
                                  _index_array(buffer1, m + 1, p.index_type), None, spgemm.info,
                                  buffer1 + p.row_bytes())
    _sparse.spmat_set_nnz(mat_c, nnz)
    return spgemm.size1


def _spgemm_compute(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any, mat_c: Any,
                    compute: Any, alg: Any, spgemm: Any, buffer2: Any) -> int:
    """Without buffer2: its size.  With it: C's columns and values into buffer2 (csrgemm), C's arrays the
    buffers' until SpGEMM_copy."""
    p = _product(handle, op_a, op_b, alpha, mat_a, mat_b, beta, mat_c, compute, spgemm)
    if not buffer2:
        spgemm.size2 = 2 * p.columns_bytes() + p.values_bytes() + _round256(p.value_bytes)
        return spgemm.size2
    if not spgemm.buffer1:
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, "SpGEMM_workEstimation has not run with "
                                   "externalBuffer1", arg="spgemmDescr")
    spgemm.buffer2 = buffer2
    m, k, n, nnz = p.a.rows, p.a.cols, p.b.cols, mat_c.nnz
    columns, values = buffer2, buffer2 + p.columns_bytes()
    _sparse.csr_set_pointers(mat_c, spgemm.buffer1, columns, values)
    p.routine("csrgemm")(handle, op_a, op_b, m, n, k, alpha, *_operands(p, True), None, None, 0, None, None, None,
                         mat_c.descr, values, _index_array(spgemm.buffer1, m + 1, p.index_type),
                         _index_array(columns, nnz, p.index_type), spgemm.info, spgemm.buffer1 + p.row_bytes())
    return spgemm.size2


def _spgemm_copy(handle: Any, op_a: Any, op_b: Any, alpha: Any, mat_a: Any, mat_b: Any, beta: Any, mat_c: Any,
                 compute: Any, alg: Any, spgemm: Any) -> None:
    """C's row pointer and columns from the buffers into C's arrays, its values := product + beta C."""
    p = _product(handle, op_a, op_b, alpha, mat_a, mat_b, beta, mat_c, compute, spgemm)
    if not (spgemm.buffer1 and spgemm.buffer2):
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, "SpGEMM_compute has not run with "
                                   "externalBuffer2", arg="spgemmDescr")
    rows, nnz = mat_c.rows, mat_c.nnz
    row_ptr, columns, values = mat_c.row_data, mat_c.col_data, mat_c.val_data
    computed = spgemm.buffer2 + p.columns_bytes()
    indices = computed + p.values_bytes()
    stream = _sparse.get_stream(handle)
    _sparse.create_identity_permutation(handle, nnz, indices)
    for dst, src, nbytes in ((row_ptr, spgemm.buffer1, p.index_bytes * (rows + 1)),
                             (columns, spgemm.buffer2, p.index_bytes * nnz)):
        if nbytes and dst != src:
            rocmath.memcpy_async(dst, src, nbytes, stream=stream)
    # hipSPARSE's axpby (C = 1 * product + beta * C) as axpyi into the product, then copied over C's values.
    p.routine("axpyi")(handle, nnz, beta, values, indices, computed, IndexBase.zero)
    if nnz:
        rocmath.memcpy_async(values, computed, p.value_bytes * nnz, stream=stream)
    _sparse.csr_set_pointers(mat_c, row_ptr, columns, values)


def _spgemm_destroy(descr: Any) -> None:
    """``hipsparseSpGEMM_destroyDescr``: NULL is a no-op, as in hipSPARSE."""
    if descr is not None and not isinstance(descr, SpGEMMDescr):
        raise HipsparseStatusError(_S.HIPSPARSE_STATUS_INVALID_VALUE, "not an SpGEMM descriptor", arg="descr")


_SPGEMM = "handle opA opB alpha matA matB beta matC computeType alg spgemmDescr"
#: hipSPARSE's Const* functions: the same as the others (rocmath's descriptors have no const form).
_CONST = {"hipsparseCreateConst" + x: "hipsparseCreate" + x for x in ("Csr", "Csc", "Coo", "DnVec", "DnMat")} | {
    "hipsparseConst" + x: "hipsparse" + x for x in ("CsrGet", "CscGet", "CooGet", "SpMatGetValues", "DnVecGet",
                                                     "DnVecGetValues", "DnMatGet", "DnMatGetValues")}


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
    "hipsparseCreateCsr": Spec("create_csr_descr", "spMatDescr* rows cols nnz csrRowOffsets csrColInd csrValues "
                               "csrRowOffsetsType csrColIndType idxBase valueType",
                               "rows cols nnz csrRowOffsets csrColInd csrValues csrRowOffsetsType csrColIndType "
                               "idxBase valueType", post=_NEW),
    "hipsparseCreateCsc": Spec("create_csc_descr", "spMatDescr* rows cols nnz cscColOffsets cscRowInd cscValues "
                               "cscColOffsetsType cscRowIndType idxBase valueType",
                               "rows cols nnz cscColOffsets cscRowInd cscValues cscColOffsetsType cscRowIndType "
                               "idxBase valueType", post=_NEW),
    "hipsparseCreateCoo": Spec("create_coo_descr", "spMatDescr* rows cols nnz cooRowInd cooColInd cooValues "
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
    "hipsparseCooSetPointers": Spec("coo_set_pointers", "spMatDescr cooRows cooColumns cooValues",
                                    "spMatDescr cooRows cooColumns cooValues"),
    "hipsparseCreateDnVec": Spec("create_dnvec_descr", "dnVecDescr* size values valueType", "size values valueType",
                                 post=_NEW),
    "hipsparseDestroyDnVec": Spec("destroy_dnvec_descr", "dnVecDescr", "dnVecDescr", release="dnVecDescr"),
    "hipsparseDnVecGetValues": Spec("dnvec_get_values", "dnVecDescr values*", "dnVecDescr"),
    "hipsparseDnVecSetValues": Spec("dnvec_set_values", "dnVecDescr values", "dnVecDescr values"),
    "hipsparseCreateDnMat": Spec("create_dnmat_descr", "dnMatDescr* rows cols ld values valueType order",
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
    "hipsparseSpMatGetAttribute": Spec(_spmat_get_attribute, "spMatDescr attribute data dataSize",
                                       "spMatDescr attribute data dataSize"),
    "hipsparseSpMatSetAttribute": Spec(_spmat_set_attribute, "spMatDescr attribute data dataSize",
                                       "spMatDescr attribute data dataSize"),
    # generic API: products
    "hipsparseSpMV_bufferSize": Spec("spmv", f"{_SPMV} bufferSize*", f"{_SPMV} =buffer_size", hipsparseSpMVAlg_t,
                                     "computeType"),
    "hipsparseSpMV_preprocess": Spec("spmv", f"{_SPMV} externalBuffer", f"{_SPMV} =preprocess =None externalBuffer",
                                     hipsparseSpMVAlg_t, "computeType"),
    "hipsparseSpMV": Spec("spmv", f"{_SPMV} externalBuffer", f"{_SPMV} =compute =None externalBuffer",
                          hipsparseSpMVAlg_t, "computeType"),
    "hipsparseSpMM_bufferSize": Spec("spmm", f"{_SPMM} bufferSize*", f"{_SPMM} =buffer_size", hipsparseSpMMAlg_t,
                                     "computeType"),
    "hipsparseSpMM_preprocess": Spec("spmm", f"{_SPMM} externalBuffer", f"{_SPMM} =preprocess =None externalBuffer",
                                     hipsparseSpMMAlg_t, "computeType"),
    "hipsparseSpMM": Spec("spmm", f"{_SPMM} externalBuffer", f"{_SPMM} =compute =None externalBuffer",
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
    "hipsparse{P}dense2csr": Spec("{p}dense2csr", f"{_DENSE} nnzPerRow csrVal csrRowPtr csrColInd",
                                  f"{_DENSE} nnzPerRow csrVal csrRowPtr csrColInd"),
    "hipsparse{P}dense2csc": Spec("{p}dense2csc", f"{_DENSE} nnzPerColumn cscVal cscRowInd cscColPtr",
                                  f"{_DENSE} nnzPerColumn cscVal cscColPtr cscRowInd"),
    "hipsparse{P}csr2dense": Spec("{p}csr2dense", "handle m n descr csrVal csrRowPtr csrColInd A ld",
                                  "handle m n descr csrVal csrRowPtr csrColInd A ld"),
    "hipsparse{P}csc2dense": Spec("{p}csc2dense", "handle m n descr cscVal cscRowInd cscColPtr A ld",
                                  "handle m n descr cscVal cscColPtr cscRowInd A ld"),
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
    "hipsparseSpGEMM_destroyDescr": Spec(_spgemm_destroy, "descr", "descr", release="descr"),
    "hipsparseSpGEMM_workEstimation": Spec(_spgemm_work_estimation, f"{_SPGEMM} bufferSize1* externalBuffer1",
                                           f"{_SPGEMM} externalBuffer1", hipsparseSpGEMMAlg_t, "computeType"),
    "hipsparseSpGEMM_compute": Spec(_spgemm_compute, f"{_SPGEMM} bufferSize2* externalBuffer2",
                                    f"{_SPGEMM} externalBuffer2", hipsparseSpGEMMAlg_t, "computeType"),
    "hipsparseSpGEMM_copy": Spec(_spgemm_copy, _SPGEMM, _SPGEMM, hipsparseSpGEMMAlg_t, "computeType"),
}
FUNCTIONS.update({name: FUNCTIONS[same] for name, same in _CONST.items()})

_STAGES = {"=buffer_size": (SpMVStage.buffer_size, SpMMStage.buffer_size),
           "=preprocess": (SpMVStage.preprocess, SpMMStage.preprocess),
           "=compute": (SpMVStage.compute, SpMMStage.compute)}


# --- the factory ----------------------------------------------------------------------------------------------


def _scalar_dtype(spec: Spec, letter: str, values: dict[str, Any]) -> np.dtype[Any]:
    if spec.scalar == "computeType":
        return _to_rocsparse(values["computeType"], hipDataType, "computeType").dtype
    return np.dtype({"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}[letter])


def _convert(name: str, value: Any, spec: Spec) -> Any:
    """One hip-python argument as rocmath.sparse takes it (scalars aside)."""
    if name == "alg":
        assert spec.alg is not None
        return _to_rocsparse(value, spec.alg, name)
    if name in _ENUMS:
        return _to_rocsparse(value, _ENUMS[name], name)
    if name in _INTS:
        return c_int(value, name)
    if name in _OBJECTS:
        return target_of(value, Opaque)
    if name in _RAW:
        return value
    if name == "streamId":
        try:
            return _hip.as_stream(value)
        except HipError as exc:  # rocSPARSE keeps whatever stream it is given; rocmath checks it
            raise SparseInvalidValueError(str(exc), arg="stream") from exc
    return device_address(value)  # a device array (None and 0 are NULL)


def _bind(name: str, spec: Spec, letter: str = "") -> Callable[..., tuple[Any, ...]]:
    tokens = spec.params.split()
    params = tuple(t.split("*")[0].split("&")[0] for t in tokens)
    outs = {t.split("*")[0]: _OUT_TYPES[t.split("*")[1]] for t in tokens if "*" in t}
    #: The dev/host result parameter (at most one) and its C type.
    devhost = {t.split("&")[0]: _scalar_dtype(spec, letter, {}) if t.endswith("&p") else np.dtype(np.int32)
               for t in tokens if "&" in t}
    call = spec.call.split()
    target = spec.roc if callable(spec.roc) else getattr(_sparse, spec.roc.format(p=letter.lower()))
    stage_of = 1 if "spmm" in str(spec.roc) else 0

    def impl(*args: Any) -> Any:
        given = dict(zip(params, args, strict=True))
        values = {n: _convert(n, v, spec) for n, v in given.items()
                  if n not in outs and n not in _SCALARS and n not in devhost}
        handle = values.get("handle")
        host = not isinstance(handle, SparseHandle) or handle.pointer_mode is PointerMode.host
        for n in devhost:
            if host and not isinstance(given[n], ctypes._SimpleCData) and pointer_value(given[n]) == 0:
                raise _error("null pointer", n)
            values[n] = None if host else device_address(given[n])
        scalars = [n for n in params if n in _SCALARS]
        if scalars:
            dtype = _scalar_dtype(spec, letter, given) if host else None
            for n in scalars:
                if host:
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
            args_out = [_CONSTANTS[t] if t in _CONSTANTS else scratch if t == "=buffer"
                        else _STAGES[t][stage_of] if t in _STAGES else values[t] for t in call]
            try:
                result = target(*args_out)
            except SparseZeroPivotError as exc:
                # rocSPARSE writes the position, then returns zero_pivot.
                if host and devhost and hasattr(exc, "position"):
                    (n, dtype), = devhost.items()
                    write_host(given[n], exc.position, dtype, n, _error)
                raise
            if host and devhost and result is not None:
                (n, dtype), = devhost.items()
                write_host(given[n], result, dtype, n, _error)
                result = None
            if spec.buffer is not None or spec.blocking:
                # hipSPARSE's csr2csc is blocking (as cuSPARSE's): it waits before freeing its buffer; doti,
                # csrsv2_analysis and csrsv2_zeroPivot synchronize the stream too.
                values["handle"].stream.synchronize()
        finally:
            if scratch:
                rocmath.free(scratch)
        if spec.release is not None:
            found = find(given[spec.release], Opaque)
            if found is not None:
                found.release()
        return spec.post(result) if spec.post is not None else result

    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    what = spec.roc if isinstance(spec.roc, str) else spec.roc.__name__
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsparseStatus_t,)\n\nhipSPARSE over rocmath.sparse."
                    f"{what.format(p=letter.lower())}" + (f"; out-parameters {', '.join(outs)} are written, or "
                                                          "returned when omitted." if outs else "."))
    if outs:
        return out_parameters(_HIPSPARSE, impl, outs, _error)
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
    "hipsparseSpGEMMAlg_t", "SpGEMMDescr", "HipsparseStatusError",
    "ROCSPARSE_TO_HIPSPARSE", "convert_status", "FUNCTIONS", "MANIFEST", "Spec", "hipsparseVersionMajor",
    "hipsparseVersionMinor", "hipsparseVersionPatch",
])
