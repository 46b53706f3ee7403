"""rocSPARSE enums with rocSPARSE's numeric values, its status exceptions, and enum parsing.

rocSPARSE numbers its statuses differently from rocBLAS (``invalid_value`` is 7,
``zero_pivot`` 9...), so rocmath.sparse has its own exception family under
:class:`SparseError`, following :mod:`rocmath.errors`: every exception carries
``.status`` (a :class:`Status` member), the argument's name and its 1-based position in
the C prototype (rocSPARSE's ``ROCSPARSE_CHECKARG`` index plus one: the handle is #1).

Enum arguments accept the member or its integer value; operations also accept the
BLAS letters ``'N'``, ``'T'``, ``'C'``.  Anything else is ``invalid_value``.
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import numpy as np

from rocmath.errors import RocmathError
from rocmath.handle import PointerMode

__all__ = [
    "GpsvInterleavedAlg", "GtsvInterleavedAlg",
    "Action", "AnalysisPolicy", "CheckSpmatStage", "DataStatus", "DenseToSparseAlg", "Datatype", "DiagType",
    "Direction", "FillMode", "Format",
    "IndexBase", "IndexType", "MatrixType", "Operation", "Order", "PointerMode", "SDDMMAlg", "SolvePolicy",
    "SparseToDenseAlg", "SpGEMMAlg", "SpGEMMStage", "SpMMAlg", "SpMMStage", "SpMVAlg", "SpMVStage", "SpSMAlg",
    "SpSMStage", "SpSVAlg", "SpSVStage", "SpMatAttribute", "SparseArchMismatchError", "SparseError",
    "SparseInternalError", "SparseInvalidHandleError", "SparseInvalidPointerError", "SparseInvalidSizeError",
    "SparseInvalidValueError", "SparseMemoryError", "SparseNotImplementedError", "SparseNotInitializedError",
    "SparseRequiresSortedStorageError", "SparseTypeMismatchError", "SparseZeroPivotError", "Status",
    "StorageMode", "error_for_status",
]


class Status(enum.IntEnum):
    """``rocsparse_status``."""

    success = 0
    invalid_handle = 1
    not_implemented = 2
    invalid_pointer = 3
    invalid_size = 4
    memory_error = 5
    internal_error = 6
    invalid_value = 7
    arch_mismatch = 8
    zero_pivot = 9
    not_initialized = 10
    type_mismatch = 11
    requires_sorted_storage = 12
    thrown_exception = 13
    continue_ = 14

    def to_string(self) -> str:
        """The C enumerator name, as ``rocsparse_get_status_name`` returns it."""
        return "rocsparse_status_" + self.name.rstrip("_")


class Operation(enum.IntEnum):
    """``rocsparse_operation``."""

    none = 111
    transpose = 112
    conjugate_transpose = 113


class IndexBase(enum.IntEnum):
    """``rocsparse_index_base``."""

    zero = 0
    one = 1


class MatrixType(enum.IntEnum):
    """``rocsparse_matrix_type``."""

    general = 0
    symmetric = 1
    hermitian = 2
    triangular = 3


class DiagType(enum.IntEnum):
    """``rocsparse_diag_type``."""

    non_unit = 0
    unit = 1


class FillMode(enum.IntEnum):
    """``rocsparse_fill_mode`` (rocSPARSE's own values: lower is 0, unlike rocBLAS's 122)."""

    lower = 0
    upper = 1


class StorageMode(enum.IntEnum):
    """``rocsparse_storage_mode``."""

    sorted = 0
    unsorted = 1


class Action(enum.IntEnum):
    """``rocsparse_action``."""

    symbolic = 0
    numeric = 1


class Direction(enum.IntEnum):
    """``rocsparse_direction``."""

    row = 0
    column = 1


class AnalysisPolicy(enum.IntEnum):
    """``rocsparse_analysis_policy``."""

    reuse = 0
    force = 1


class SolvePolicy(enum.IntEnum):
    """``rocsparse_solve_policy``."""

    auto = 0


class IndexType(enum.IntEnum):
    """``rocsparse_indextype``."""

    u16 = 1
    i32 = 2
    i64 = 3

    @property
    def dtype(self) -> np.dtype[Any]:
        return np.dtype({1: np.uint16, 2: np.int32, 3: np.int64}[int(self)])

    @staticmethod
    def of(dtype: Any) -> IndexType:
        """The index type of a numpy integer dtype (``ValueError`` for others)."""
        dt = np.dtype(dtype)
        for member in IndexType:
            if member.dtype == dt:
                return member
        raise ValueError(f"no rocsparse_indextype for {dt}")


class Datatype(enum.IntEnum):
    """``rocsparse_datatype`` (rocBLAS's numbers)."""

    f32_r = 151
    f64_r = 152
    f32_c = 154
    f64_c = 155
    i8_r = 160
    u8_r = 161
    i32_r = 162
    u32_r = 163

    @property
    def dtype(self) -> np.dtype[Any]:
        return np.dtype({151: np.float32, 152: np.float64, 154: np.complex64, 155: np.complex128, 160: np.int8,
                         161: np.uint8, 162: np.int32, 163: np.uint32}[int(self)])

    @staticmethod
    def of(dtype: Any) -> Datatype:
        """The datatype of a numpy dtype (``ValueError`` for others)."""
        dt = np.dtype(dtype)
        for member in Datatype:
            if member.dtype == dt:
                return member
        raise ValueError(f"no rocsparse_datatype for {dt}")


class Format(enum.IntEnum):
    """``rocsparse_format``."""

    coo = 0
    coo_aos = 1
    csr = 2
    csc = 3
    ell = 4
    bell = 5
    bsr = 6


class Order(enum.IntEnum):
    """``rocsparse_order`` of a dense matrix."""

    row = 0
    column = 1


class SpMatAttribute(enum.IntEnum):
    """``rocsparse_spmat_attribute``."""

    fill_mode = 0
    diag_type = 1
    matrix_type = 2
    storage_mode = 3


class SpMVStage(enum.IntEnum):
    """``rocsparse_spmv_stage``."""

    buffer_size = 1
    preprocess = 2
    compute = 3


class SpMVAlg(enum.IntEnum):
    """``rocsparse_spmv_alg``."""

    default = 0
    coo = 1
    csr_adaptive = 2
    csr_stream = 3
    ell = 4
    coo_atomic = 5
    bsr = 6
    csr_lrb = 7


class SpMMStage(enum.IntEnum):
    """``rocsparse_spmm_stage``."""

    buffer_size = 1
    preprocess = 2
    compute = 3


class SpMMAlg(enum.IntEnum):
    """``rocsparse_spmm_alg`` (``csr_merge`` is the old name of ``csr_nnz_split``)."""

    default = 0
    csr = 1
    coo_segmented = 2
    coo_atomic = 3
    csr_row_split = 4
    csr_nnz_split = 5
    coo_segmented_atomic = 6
    bell = 7
    bsr = 8
    csr_merge_path = 9


class SpGEMMStage(enum.IntEnum):
    """``rocsparse_spgemm_stage``."""

    buffer_size = 1
    nnz = 2
    compute = 3
    symbolic = 4
    numeric = 5


class SpGEMMAlg(enum.IntEnum):
    """``rocsparse_spgemm_alg``."""

    default = 0


class SpSVStage(enum.IntEnum):
    """``rocsparse_spsv_stage``."""

    buffer_size = 1
    preprocess = 2
    compute = 3


class SpSVAlg(enum.IntEnum):
    """``rocsparse_spsv_alg``."""

    default = 0


class SpSMStage(enum.IntEnum):
    """``rocsparse_spsm_stage``."""

    buffer_size = 1
    preprocess = 2
    compute = 3


class SpSMAlg(enum.IntEnum):
    """``rocsparse_spsm_alg``."""

    default = 0


class SDDMMAlg(enum.IntEnum):
    """``rocsparse_sddmm_alg``."""

    default = 0
    dense = 1


class SparseToDenseAlg(enum.IntEnum):
    """``rocsparse_sparse_to_dense_alg``."""

    default = 0


class DenseToSparseAlg(enum.IntEnum):
    """``rocsparse_dense_to_sparse_alg``."""

    default = 0


class GtsvInterleavedAlg(enum.IntEnum):
    """``rocsparse_gtsv_interleaved_alg`` (default is QR)."""

    default = 0
    thomas = 1
    lu = 2
    qr = 3


class GpsvInterleavedAlg(enum.IntEnum):
    """``rocsparse_gpsv_interleaved_alg`` (default is QR)."""

    default = 0
    qr = 1


class DataStatus(enum.IntEnum):
    """``rocsparse_data_status``: what the ``check_matrix_*`` routines and ``check_spmat`` found."""

    success = 0
    inf = 1
    nan = 2
    invalid_offset_ptr = 3
    invalid_index = 4
    duplicate_entry = 5
    invalid_sorting = 6
    invalid_fill = 7


class CheckSpmatStage(enum.IntEnum):
    """``rocsparse_check_spmat_stage``."""

    buffer_size = 0
    compute = 1


# --- status exceptions ---------------------------------------------------------------------------


class SparseError(RocmathError):
    """An error a rocSPARSE call would return as a ``rocsparse_status``."""

    status = Status.internal_error


class SparseInvalidHandleError(SparseError, ValueError):
    status = Status.invalid_handle


class SparseNotImplementedError(SparseError, NotImplementedError):
    status = Status.not_implemented


class SparseInvalidPointerError(SparseError, ValueError):
    status = Status.invalid_pointer


class SparseInvalidSizeError(SparseError, ValueError):
    status = Status.invalid_size


class SparseMemoryError(SparseError, MemoryError):
    status = Status.memory_error


class SparseInternalError(SparseError):
    status = Status.internal_error


class SparseInvalidValueError(SparseError, ValueError):
    status = Status.invalid_value


class SparseArchMismatchError(SparseError):
    status = Status.arch_mismatch


class SparseZeroPivotError(SparseError, ArithmeticError):
    """A structural or numerical zero pivot (raised only by ``*_zero_pivot`` queries)."""

    status = Status.zero_pivot


class SparseNotInitializedError(SparseError):
    status = Status.not_initialized


class SparseTypeMismatchError(SparseError, TypeError):
    status = Status.type_mismatch


class SparseRequiresSortedStorageError(SparseError, ValueError):
    status = Status.requires_sorted_storage


_BY_STATUS: dict[int, type[SparseError]] = {int(c.status): c for c in (SparseError, *SparseError.__subclasses__())}
_BY_STATUS[int(Status.internal_error)] = SparseInternalError


def error_for_status(status: Status | int) -> type[SparseError]:
    """The exception class standing for a rocSPARSE status (``SparseError`` when none is specific)."""
    return _BY_STATUS.get(int(status), SparseError)


E = TypeVar("E", bound=enum.IntEnum)

_OPERATION_LETTERS = {"N": Operation.none, "T": Operation.transpose, "C": Operation.conjugate_transpose}


def as_enum(cls: type[E], value: Any, arg: str, index: int | None = None,
            allowed: tuple[E, ...] | None = None) -> E:
    """Parse an enum argument: a member or its integer value (operations: also ``'N'``/``'T'``/``'C'``).

    Raises
    ------
    SparseInvalidValueError
        For anything else, or a member outside ``allowed``, naming the argument.
    """
    try:
        if isinstance(value, str) and cls is Operation:
            member = cls(_OPERATION_LETTERS[value.upper()])
        elif isinstance(value, (bool, str)) or value is None:
            raise ValueError
        else:
            member = cls(int(value))
    except (KeyError, ValueError, TypeError):
        raise SparseInvalidValueError(f"{value!r} is not a valid {cls.__name__}", arg=arg, index=index) from None
    if allowed is not None and member not in allowed:
        raise SparseInvalidValueError(f"{member.name} is not supported here", arg=arg, index=index)
    return member
