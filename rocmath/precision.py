"""The one precision table: the only place where dtypes map to BLAS letters.

Every library looks precision facts up here (``Precision.of(array)``,
``Precision.from_letter("z")``) instead of spelling dtype characters itself.
Half and bfloat16 are storage types: ``dtype`` is how their bits are stored and
``compute_dtype`` is what kernels compute in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class Precision:
    """Facts about one element type.

    Attributes
    ----------
    letter
        The rocBLAS name prefix (``s``, ``d``, ``c``, ``z``, ``h``, ``bf``).
    dtype
        The numpy dtype of the stored elements.
    compute_dtype
        The dtype kernels compute in (differs only for the storage types).
    real
        The precision of the real part (itself for real precisions).
    datatype
        The ``rocblas_datatype`` string used in logs and by rocblas-bench.
    datatype_value
        The ``rocblas_datatype`` enumerator value.
    """

    letter: str
    dtype: np.dtype[Any]
    compute_dtype: np.dtype[Any]
    real_letter: str
    datatype: str
    datatype_value: int
    storage_only: bool = False

    @property
    def is_complex(self) -> bool:
        return self.compute_dtype.kind == "c"

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def real(self) -> Precision:
        return _BY_LETTER[self.real_letter]

    @property
    def complex(self) -> Precision:
        """The complex precision with this real part (itself if already complex)."""
        return _COMPLEX_OF[self.real_letter]

    @property
    def eps(self) -> float:
        """Machine epsilon of the stored type (``np.finfo(dtype).eps``: the spacing of the
        numbers just above 1; the unit roundoff is half of it)."""
        if self is BF16:
            return 2.0**-7  # 8 significant bits, as float32's 24
        if self.dtype.kind in "iu":
            return 0.0  # integer arithmetic is exact
        return float(np.finfo(self.dtype if not self.storage_only else np.float16).eps)

    def __repr__(self) -> str:
        return f"Precision.{self.letter.upper()}"

    @staticmethod
    def of(obj: Any) -> Precision:
        """The precision of a dtype, array, DeviceArray or BLAS letter.

        Raises
        ------
        TypeError
            For dtypes rocmath has no precision for (integers, float128...).
        """
        if isinstance(obj, Precision):
            return obj
        if isinstance(obj, str) and obj.lower() in _BY_LETTER:
            return _BY_LETTER[obj.lower()]
        # numpy scalar *types* carry a `dtype` descriptor, not a dtype: hand them to np.dtype.
        dtype = obj if isinstance(obj, type) else getattr(obj, "dtype", obj)
        try:
            dt = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"no rocmath precision for {obj!r}") from None
        try:
            return _BY_DTYPE[dt]
        except KeyError:
            raise TypeError(f"no rocmath precision for dtype {dt}") from None

    @staticmethod
    def from_letter(letter: str) -> Precision:
        """Look a precision up by its rocBLAS prefix (case-insensitive)."""
        try:
            return _BY_LETTER[letter.lower()]
        except KeyError:
            raise ValueError(f"unknown precision letter {letter!r}") from None

    @staticmethod
    def from_datatype(name: str) -> Precision:
        """Look a precision up by its ``rocblas_datatype`` string (``f32_r``...)."""
        try:
            return _BY_DATATYPE[name]
        except KeyError:
            raise ValueError(f"unknown datatype {name!r}") from None


S = Precision("s", np.dtype(np.float32), np.dtype(np.float32), "s", "f32_r", 151)
D = Precision("d", np.dtype(np.float64), np.dtype(np.float64), "d", "f64_r", 152)
C = Precision("c", np.dtype(np.complex64), np.dtype(np.complex64), "s", "f32_c", 154)
Z = Precision("z", np.dtype(np.complex128), np.dtype(np.complex128), "d", "f64_c", 155)
H = Precision("h", np.dtype(np.float16), np.dtype(np.float32), "h", "f16_r", 150, storage_only=True)
# numpy has no bfloat16: its bits are stored as uint16 (see to_bfloat16/from_bfloat16).
BF16 = Precision("bf", np.dtype(np.uint16), np.dtype(np.float32), "bf", "bf16_r", 168, storage_only=True)
# The integer types of gemm_ex: int8 matrices are computed as float64 (BLAS has no int8;
# products and sums of int8 values are exact in float64), int32 as itself.
I8 = Precision("i8", np.dtype(np.int8), np.dtype(np.float64), "i8", "i8_r", 160, storage_only=True)
I32 = Precision("i32", np.dtype(np.int32), np.dtype(np.int32), "i32", "i32_r", 162)

#: The four precisions every routine comes in, in BLAS order.
SDCZ: tuple[Precision, ...] = (S, D, C, Z)
ALL: tuple[Precision, ...] = (S, D, C, Z, H, BF16)

_BY_LETTER = {p.letter: p for p in ALL}
_BY_DTYPE = {p.dtype: p for p in (S, D, C, Z, H)}  # uint16 is not claimed by bf16
_BY_DATATYPE = {p.datatype: p for p in (*ALL, I8, I32)}
_COMPLEX_OF = {"s": C, "d": Z, "h": C, "bf": C}


def to_bfloat16(x: Any) -> np.ndarray:
    """Round float32 values to bfloat16 bits (round to nearest even), as uint16; a NaN keeps its
    sign and the top of its payload, with the lowest kept bit set when only lower ones were set
    (so it stays a NaN), as rocBLAS's float_to_bfloat16."""
    f = np.asarray(x, dtype=np.float32)
    bits = f.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    nan = (bits | np.uint32(0x10000) * ((bits & np.uint32(0xFFFF)) != 0)) >> np.uint32(16)
    return np.where(np.isnan(f), nan.astype(np.uint16), rounded.astype(np.uint16))


def from_bfloat16(bits: Any) -> np.ndarray:
    """Widen bfloat16 bits (uint16) to float32."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
