"""rocBLAS enums with rocBLAS's numeric values, and the argument parsing that accepts them.

Enum arguments accept the enum member, its integer value, or the BLAS letter
(``'N'``, ``'T'``, ``'C'``; ``'U'``, ``'L'``, ``'F'``; ``'N'``, ``'U'`` for diagonals;
``'L'``, ``'R'``, ``'B'``).  Anything else is ``rocblas_status_invalid_value``.
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import numpy as np

from rocmath.errors import RocblasInvalidSizeError, RocblasInvalidValueError, RocblasStatus
from rocmath.handle import AtomicsMode, LayerMode, PointerMode

Status = RocblasStatus

__all__ = [
    "AtomicsMode", "CheckNumericsMode", "ComputeType", "Datatype", "Diagonal", "Fill", "GeamExOperation",
    "GemmAlgo", "GemmFlags", "LayerMode", "MathMode", "Operation", "PerformanceMetric", "PointerMode", "Side",
    "Status",
]


class Operation(enum.IntEnum):
    """``rocblas_operation``."""

    none = 111
    transpose = 112
    conjugate_transpose = 113

    @property
    def letter(self) -> str:
        return "NTC"[self - 111]


class Fill(enum.IntEnum):
    """``rocblas_fill``."""

    upper = 121
    lower = 122
    full = 123

    @property
    def letter(self) -> str:
        return "ULF"[self - 121]


class Diagonal(enum.IntEnum):
    """``rocblas_diagonal``."""

    non_unit = 131
    unit = 132

    @property
    def letter(self) -> str:
        return "NU"[self - 131]


class Side(enum.IntEnum):
    """``rocblas_side``."""

    left = 141
    right = 142
    both = 143

    @property
    def letter(self) -> str:
        return "LRB"[self - 141]


class Datatype(enum.IntEnum):
    """``rocblas_datatype``; ``str()`` gives the string rocblas-bench uses (``f32_r``)."""

    f16_r = 150
    f32_r = 151
    f64_r = 152
    f16_c = 153
    f32_c = 154
    f64_c = 155
    i8_r = 160
    u8_r = 161
    i32_r = 162
    u32_r = 163
    i8_c = 164
    u8_c = 165
    i32_c = 166
    u32_c = 167
    bf16_r = 168
    bf16_c = 169
    f8_r = 170
    bf8_r = 171
    invalid = 255

    def __str__(self) -> str:
        return self.name


class ComputeType(enum.IntEnum):
    """``rocblas_computetype`` (gemm_ex3)."""

    f32 = 300
    f8_f8_f32 = 301
    f8_bf8_f32 = 302
    bf8_f8_f32 = 303
    bf8_bf8_f32 = 304
    invalid = 455

    def __str__(self) -> str:
        return self.name


class GemmAlgo(enum.IntEnum):
    """``rocblas_gemm_algo``."""

    standard = 0x0
    solution_index = 0x1


class GemmFlags(enum.IntFlag):
    """``rocblas_gemm_flags``."""

    none = 0x0
    use_cu_efficiency = 0x2
    fp16_alt_impl = 0x4
    check_solution_index = 0x8
    fp16_alt_impl_rnz = 0x10
    stochastic_rounding = 0x20


class GeamExOperation(enum.IntEnum):
    """``rocblas_geam_ex_operation``."""

    min_plus = 0
    plus_min = 1


class CheckNumericsMode(enum.IntFlag):
    """``rocblas_check_numerics_mode``."""

    no_check = 0
    info = 1
    warn = 2
    fail = 4
    only_nan_inf = 8


class MathMode(enum.IntEnum):
    """``rocblas_math_mode``."""

    default_math = 0
    xf32_xdl_math_op = 1


class PerformanceMetric(enum.IntEnum):
    """``rocblas_performance_metric``."""

    default = 0
    device_efficiency = 1
    cu_efficiency = 2


E = TypeVar("E", bound=enum.IntEnum)

_LETTERS: dict[type[enum.IntEnum], dict[str, int]] = {
    Operation: {"N": 111, "T": 112, "C": 113},
    Fill: {"U": 121, "L": 122, "F": 123},
    Diagonal: {"N": 131, "U": 132},
    Side: {"L": 141, "R": 142, "B": 143},
}


def c_integer(value: Any, arg: str, index: int | None, bits: int, ctype: str = "rocblas_int") -> int:
    """An integer argument of a C type of ``bits`` bits: ``rocblas_int`` (32) in the LP64 functions,
    ``int64_t`` (64) in the ``_64`` ones and for ``rocblas_stride``.  C would truncate a wider value
    without a word; rocmath says so (invalid_size, naming the argument)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RocblasInvalidSizeError(f"must be an integer, got {value!r}", arg=arg, index=index)
    v = int(value)
    if not -(1 << (bits - 1)) <= v < 1 << (bits - 1):
        raise RocblasInvalidSizeError(f"{v} does not fit {ctype if bits == 32 else 'int64_t'}", arg=arg, index=index)
    return v


def as_enum(cls: type[E], value: Any, arg: str, index: int | None = None,
            allowed: tuple[E, ...] | None = None) -> E:
    """Parse an enum argument: a member, its value, or its BLAS letter.

    Raises
    ------
    RocblasInvalidValueError
        For anything else, or a member outside ``allowed``, naming the argument.
    """
    try:
        if isinstance(value, str):
            member = cls(_LETTERS[cls][value.upper()])
        elif isinstance(value, bool):
            raise ValueError
        else:
            member = cls(int(value))
    except (KeyError, ValueError, TypeError):
        raise RocblasInvalidValueError(f"{value!r} is not a valid {cls.__name__}", arg=arg, index=index) from None
    if allowed is not None and member not in allowed:
        raise RocblasInvalidValueError(f"{member.name} is not allowed here", arg=arg, index=index)
    return member
