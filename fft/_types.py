"""rocFFT's enums (rocfft.h, implicit C numbering from 0) and its statuses as exceptions.

Every rocFFT failure is raised as a :class:`RocfftError` subclass whose ``.status`` is the
``rocfft_status`` it stands for, following :mod:`rocmath.errors` (arguments named,
picklable, chained with ``raise ... from``).
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import numpy as np

from rocmath.errors import RocmathError

__all__ = [
    "ArrayType", "CommType", "Precision", "ResultPlacement", "RocfftError", "RocfftFailure",
    "RocfftInvalidArgValue", "RocfftInvalidArrayType", "RocfftInvalidDimensions", "RocfftInvalidDistance",
    "RocfftInvalidOffset", "RocfftInvalidStrides", "RocfftInvalidWorkBuffer", "Status", "TransformType",
    "error_for_status", "status_of",
]


class Status(enum.IntEnum):
    """``rocfft_status``."""

    success = 0
    failure = 1
    invalid_arg_value = 2
    invalid_dimensions = 3
    invalid_array_type = 4
    invalid_strides = 5
    invalid_distance = 6
    invalid_offset = 7
    invalid_work_buffer = 8

    def to_string(self) -> str:
        """The C enumerator name (``rocfft_status_invalid_strides``)."""
        return "rocfft_status_" + self.name


class TransformType(enum.IntEnum):
    """``rocfft_transform_type``: forward uses exp(-i...), inverse exp(+i...), neither normalizes."""

    complex_forward = 0
    complex_inverse = 1
    real_forward = 2
    real_inverse = 3

    @property
    def is_real(self) -> bool:
        return self in (TransformType.real_forward, TransformType.real_inverse)

    @property
    def is_inverse(self) -> bool:
        return self in (TransformType.complex_inverse, TransformType.real_inverse)


class Precision(enum.IntEnum):
    """``rocfft_precision`` (half is a storage type: kernels compute in single)."""

    single = 0
    double = 1
    half = 2


class ResultPlacement(enum.IntEnum):
    """``rocfft_result_placement``."""

    inplace = 0
    notinplace = 1


class ArrayType(enum.IntEnum):
    """``rocfft_array_type``."""

    complex_interleaved = 0
    complex_planar = 1
    real = 2
    hermitian_interleaved = 3
    hermitian_planar = 4
    unset = 5

    @property
    def is_planar(self) -> bool:
        return self in (ArrayType.complex_planar, ArrayType.hermitian_planar)

    @property
    def is_complex(self) -> bool:
        return self not in (ArrayType.real, ArrayType.unset)


class CommType(enum.IntEnum):
    """``rocfft_comm_type``."""

    none = 0
    mpi = 1


# --- exceptions ------------------------------------------------------------------------------


class RocfftError(RocmathError):
    """An error a rocFFT call would return as a ``rocfft_status``."""

    status = Status.failure


class RocfftFailure(RocfftError):
    status = Status.failure


class RocfftInvalidArgValue(RocfftError, ValueError):
    status = Status.invalid_arg_value


class RocfftInvalidDimensions(RocfftError, ValueError):
    status = Status.invalid_dimensions


class RocfftInvalidArrayType(RocfftError, ValueError):
    status = Status.invalid_array_type


class RocfftInvalidStrides(RocfftError, ValueError):
    status = Status.invalid_strides


class RocfftInvalidDistance(RocfftError, ValueError):
    status = Status.invalid_distance


class RocfftInvalidOffset(RocfftError, ValueError):
    status = Status.invalid_offset


class RocfftInvalidWorkBuffer(RocfftError, ValueError):
    status = Status.invalid_work_buffer


_BY_STATUS: dict[int, type[RocfftError]] = {
    int(c.status): c for c in (RocfftFailure, RocfftInvalidArgValue, RocfftInvalidDimensions, RocfftInvalidArrayType,
                               RocfftInvalidStrides, RocfftInvalidDistance, RocfftInvalidOffset,
                               RocfftInvalidWorkBuffer)
}


def error_for_status(status: Status | int) -> type[RocfftError]:
    """The exception class standing for a (non-success) ``rocfft_status``."""
    return _BY_STATUS.get(int(status), RocfftError)


def status_of(exc: BaseException | None) -> Status:
    """The ``rocfft_status`` a call ending with ``exc`` returns (None: success; foreign exceptions:
    failure, as rocFFT turns any exception into ``rocfft_status_failure``)."""
    if exc is None:
        return Status.success
    if isinstance(exc, RocfftError):
        return Status(int(exc.status))
    return Status.failure


E = TypeVar("E", bound=enum.IntEnum)


def parse_enum(cls: type[E], value: Any, arg: str, index: int | None = None) -> E:
    """``value`` (a member or its integer value) as ``cls``; anything else is invalid_arg_value."""
    if isinstance(value, cls):
        return value
    if isinstance(value, (enum.Enum, bool)) or not isinstance(value, (int, np.integer)):
        raise RocfftInvalidArgValue(f"expected a {cls.__name__} value, got {value!r}", arg=arg, index=index)
    try:
        return cls(int(value))
    except ValueError:
        raise RocfftInvalidArgValue(f"{value!r} is not a {cls.__name__} value", arg=arg, index=index) from None
