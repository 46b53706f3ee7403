"""``hip.hipblas``: hipBLAS as hip-python binds it, over :mod:`rocmath.blas`.

Every compute function is generated from one table (:mod:`rocmath.hip._manifest`,
derived from rocBLAS's manifest) by one factory, :func:`_bind`: it checks the enum
parameters (plain ints raise ``TypeError``, as in hip-python), converts hipBLAS
enums to rocBLAS ones as hipBLAS does (unknown values are
``HIPBLAS_STATUS_INVALID_ENUM``), reads host scalars through their pointers in host
pointer mode (``ctypes.addressof(c_float(2.0))``, ctypes objects, numpy scalars or
arrays), calls the rocmath.blas function and writes host results back.  One status
table maps rocmath's exceptions to ``hipblasStatus_t`` with hipBLAS's own
rocBLAS-to-hipBLAS conversion.  The status scaffolding, the handle and the host memory
behind pointer arguments are :mod:`rocmath.hip._lib`'s, shared with the other libraries.

Integer arguments convert as hip-python's Cython bindings convert them: to ``int`` in the
LP64 functions, to ``int64_t`` in the ``_64`` (ILP64) ones, strides (``hipblasStride``) to
``int64_t`` in both; a value the C type cannot hold raises ``OverflowError`` naming the
argument.  A ``_64`` function calls rocmath.blas's ``_64`` function (``int64_t`` amax/amin
results, ``rocblas_<name>_64`` in the logs), as hipBLAS calls rocBLAS's.

hip-python's struct classes ``hipblasComplex``, ``hipblasDoubleComplex`` (``x``, ``y``) and
``hipblasBfloat16`` (``data``) are host structs passed by address (``alpha=hipblasComplex(1, 0)``).  Where
hip-python converts a parameter with ``ListOfPointer`` or ``ListOfInt`` (:func:`list_adapter`: a real batched
routine's arrays of pointers, amax's ``int*`` result), a Python list or tuple becomes that adapter's host C
array, as there.

All calls return ``(hipblasStatus_t,)``; ``hipblasCreate()`` returns
``(status, handle)``; the getters write through their out-parameter, or return
``(status, value)`` when it is omitted; ``hipblasStatusToString(status)`` returns ``(str,)``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath.blas as _blas
from rocmath.blas import BlasHandle
from rocmath.errors import (
    HipError,
    HipStatus,
    RocblasError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidValueError,
    RocblasNotImplementedError,
    RocblasStatus,
)
from rocmath.handle import AtomicsMode, PointerMode
from rocmath.precision import Precision, from_bfloat16, to_bfloat16

from . import _hipblas_solver
from . import hip as _hip
from ._api import binding
from ._lib import (
    LibraryError,
    Opaque,
    c_int,
    c_integer,
    call_arguments,
    error_factory,
    find,
    host_bytes_at,
    library_table,
    out_parameters,
    read_host,
    stream_of,
    write_host,
)
from ._manifest import Entry, hipblas_names
from ._types import (
    CStr,
    ListOfInt,
    ListOfPointer,
    _Struct,
    c_enum,
    check_enum,
    device_address,
    host_bytes,
    pointer_value,
    resolve,
)
from .hip import hipDataType

_MODULE = __name__

# --- enums (hipblas.h / hipblas-common.h values) -------------------------------------------------

hipblasStatus_t = c_enum("hipblasStatus_t", [
    ("HIPBLAS_STATUS_SUCCESS", 0), ("HIPBLAS_STATUS_NOT_INITIALIZED", 1), ("HIPBLAS_STATUS_ALLOC_FAILED", 2),
    ("HIPBLAS_STATUS_INVALID_VALUE", 3), ("HIPBLAS_STATUS_MAPPING_ERROR", 4), ("HIPBLAS_STATUS_EXECUTION_FAILED", 5),
    ("HIPBLAS_STATUS_INTERNAL_ERROR", 6), ("HIPBLAS_STATUS_NOT_SUPPORTED", 7), ("HIPBLAS_STATUS_ARCH_MISMATCH", 8),
    ("HIPBLAS_STATUS_HANDLE_IS_NULLPTR", 9), ("HIPBLAS_STATUS_INVALID_ENUM", 10), ("HIPBLAS_STATUS_UNKNOWN", 11),
], _MODULE, "``hipblasStatus_t``.")
hipblasPointerMode_t = c_enum("hipblasPointerMode_t", [
    ("HIPBLAS_POINTER_MODE_HOST", 0), ("HIPBLAS_POINTER_MODE_DEVICE", 1)], _MODULE)
hipblasOperation_t = c_enum("hipblasOperation_t", [
    ("HIPBLAS_OP_N", 111), ("HIPBLAS_OP_T", 112), ("HIPBLAS_OP_C", 113)], _MODULE)
hipblasFillMode_t = c_enum("hipblasFillMode_t", [
    ("HIPBLAS_FILL_MODE_UPPER", 121), ("HIPBLAS_FILL_MODE_LOWER", 122), ("HIPBLAS_FILL_MODE_FULL", 123)], _MODULE)
hipblasDiagType_t = c_enum("hipblasDiagType_t", [
    ("HIPBLAS_DIAG_NON_UNIT", 131), ("HIPBLAS_DIAG_UNIT", 132)], _MODULE)
hipblasSideMode_t = c_enum("hipblasSideMode_t", [
    ("HIPBLAS_SIDE_LEFT", 141), ("HIPBLAS_SIDE_RIGHT", 142), ("HIPBLAS_SIDE_BOTH", 143)], _MODULE)
hipblasMath_t = c_enum("hipblasMath_t", [
    ("HIPBLAS_DEFAULT_MATH", 0), ("HIPBLAS_XF32_XDL_MATH", 1), ("HIPBLAS_PEDANTIC_MATH", 2),
    ("HIPBLAS_TF32_TENSOR_OP_MATH", 3), ("HIPBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION", 4),
    ("HIPBLAS_TENSOR_OP_MATH", 5)], _MODULE)
hipblasDatatype_t = c_enum("hipblasDatatype_t", [
    ("HIPBLAS_R_16F", 150), ("HIPBLAS_R_32F", 151), ("HIPBLAS_R_64F", 152), ("HIPBLAS_C_16F", 153),
    ("HIPBLAS_C_32F", 154), ("HIPBLAS_C_64F", 155), ("HIPBLAS_R_8I", 160), ("HIPBLAS_R_8U", 161),
    ("HIPBLAS_R_32I", 162), ("HIPBLAS_R_32U", 163), ("HIPBLAS_C_8I", 164), ("HIPBLAS_C_8U", 165),
    ("HIPBLAS_C_32I", 166), ("HIPBLAS_C_32U", 167), ("HIPBLAS_R_16B", 168), ("HIPBLAS_C_16B", 169),
    ("HIPBLAS_DATATYPE_INVALID", 255)], _MODULE,
    "``hipblasDatatype_t`` (deprecated by hipBLAS 2 in favour of ``hipDataType``, used by the non-``_v2`` Ex API).")
hipblasComputeType_t = c_enum("hipblasComputeType_t", [
    ("HIPBLAS_COMPUTE_16F", 0), ("HIPBLAS_COMPUTE_16F_PEDANTIC", 1), ("HIPBLAS_COMPUTE_32F", 2),
    ("HIPBLAS_COMPUTE_32F_PEDANTIC", 3), ("HIPBLAS_COMPUTE_32F_FAST_16F", 4), ("HIPBLAS_COMPUTE_32F_FAST_16BF", 5),
    ("HIPBLAS_COMPUTE_32F_FAST_TF32", 6), ("HIPBLAS_COMPUTE_64F", 7), ("HIPBLAS_COMPUTE_64F_PEDANTIC", 8),
    ("HIPBLAS_COMPUTE_32I", 9), ("HIPBLAS_COMPUTE_32I_PEDANTIC", 10)], _MODULE)
hipblasGemmAlgo_t = c_enum("hipblasGemmAlgo_t", [("HIPBLAS_GEMM_DEFAULT", 160)], _MODULE)
hipblasAtomicsMode_t = c_enum("hipblasAtomicsMode_t", [
    ("HIPBLAS_ATOMICS_NOT_ALLOWED", 0), ("HIPBLAS_ATOMICS_ALLOWED", 1)], _MODULE)
hipblasGemmFlags_t = c_enum("hipblasGemmFlags_t", [
    ("HIPBLAS_GEMM_FLAGS_NONE", 0), ("HIPBLAS_GEMM_FLAGS_USE_CU_EFFICIENCY", 0x2),
    ("HIPBLAS_GEMM_FLAGS_FP16_ALT_IMPL", 0x4), ("HIPBLAS_GEMM_FLAGS_CHECK_SOLUTION_INDEX", 0x8),
    ("HIPBLAS_GEMM_FLAGS_FP16_ALT_IMPL_RNZ", 0x10)], _MODULE)

hipblasVersionMajor = 2
hipblasVersionMinor = 3
hipblasVersionPatch = 0
#: (sic) hipblas-version.h defines the minor version under this misspelt name too, and hip-python exports it.
hipblaseVersionMinor = hipblasVersionMinor

# math.h's fpclassify results (glibc), which hip-python's hipblas module re-exports from the headers it parses.
FP_NAN = 0
FP_INFINITE = 1
FP_ZERO = 2
FP_SUBNORMAL = 3
FP_NORMAL = 4

# hip_runtime_api.h's anonymous enum, likewise re-exported.
HIP_SUCCESS = 0
HIP_ERROR_INVALID_VALUE = 1
HIP_ERROR_NOT_INITIALIZED = 2
HIP_ERROR_LAUNCH_OUT_OF_RESOURCES = 3


# --- structs (hipblas.h) ---------------------------------------------------------------------------
# hip-python passes these by address: ``alpha=hipblasComplex(1, 0)`` is a pointer to a host struct, read as
# any other host scalar in host pointer mode; a result (``hipblasCdotc(..., result)``) is written into it.


class hipblasBfloat16(_Struct):
    """``hipblasBfloat16``: a bfloat16 as its 16 bits, ``data`` (``unsigned short``).

    ``hipblasBfloat16(data)`` allocates one; ``fromObj`` adapts an address or a buffer holding some.
    """

    _members = (("data", "unsigned short", None),)


class hipblasComplex(_Struct):
    """``hipblasComplex``: a single-precision complex number, ``x`` (real part) and ``y`` (imaginary part),
    C ``float`` each.

    ``hipblasComplex(x, y)`` allocates one; ``fromObj`` adapts an address or a buffer holding some
    (a ``numpy.complex64`` array has the same layout).
    """

    _members = (("x", "float", None), ("y", "float", None))


class hipblasDoubleComplex(_Struct):
    """``hipblasDoubleComplex``: a double-precision complex number, ``x`` and ``y`` (C ``double`` each).

    ``hipblasDoubleComplex(x, y)`` allocates one; ``fromObj`` adapts an address or a buffer holding some.
    """

    _members = (("x", "double", None), ("y", "double", None))


_S = hipblasStatus_t


class HipblasStatusError(LibraryError):
    """A failure hipBLAS itself reports (before or instead of a rocBLAS status)."""

    status = _S.HIPBLAS_STATUS_INTERNAL_ERROR


# --- the status table --------------------------------------------------------------------------------

#: hipBLAS's conversion of rocBLAS statuses (hipblasConvertStatus); anything else is UNKNOWN.
ROCBLAS_TO_HIPBLAS: dict[RocblasStatus, Any] = {
    RocblasStatus.success: _S.HIPBLAS_STATUS_SUCCESS,
    RocblasStatus.size_unchanged: _S.HIPBLAS_STATUS_SUCCESS,
    RocblasStatus.size_increased: _S.HIPBLAS_STATUS_SUCCESS,
    RocblasStatus.invalid_handle: _S.HIPBLAS_STATUS_NOT_INITIALIZED,
    RocblasStatus.not_implemented: _S.HIPBLAS_STATUS_NOT_SUPPORTED,
    RocblasStatus.invalid_pointer: _S.HIPBLAS_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_size: _S.HIPBLAS_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_value: _S.HIPBLAS_STATUS_INVALID_VALUE,
    RocblasStatus.memory_error: _S.HIPBLAS_STATUS_ALLOC_FAILED,
    RocblasStatus.internal_error: _S.HIPBLAS_STATUS_INTERNAL_ERROR,
}

#: HIP errors raised inside a rocBLAS call, as rocBLAS turns them into its statuses.
# rocblas_internal_convert_hip_to_rocblas_status (rocBLAS's utility.cpp); any other HIP error is
# internal_error there.
_HIP_TO_ROCBLAS = {
    HipStatus.hipErrorOutOfMemory: RocblasStatus.memory_error,
    HipStatus.hipErrorInvalidDevicePointer: RocblasStatus.invalid_pointer,
    HipStatus.hipErrorInvalidDevice: RocblasStatus.invalid_handle,
    HipStatus.hipErrorInvalidHandle: RocblasStatus.invalid_handle,  # (hipErrorInvalidResourceHandle)
    HipStatus.hipErrorInvalidValue: RocblasStatus.internal_error,
}


def convert_status(status: Any) -> Any:
    """``hipblasConvertStatus``: a rocBLAS status as hipBLAS reports it."""
    try:
        return ROCBLAS_TO_HIPBLAS.get(RocblasStatus(int(status)), _S.HIPBLAS_STATUS_UNKNOWN)
    except ValueError:
        return _S.HIPBLAS_STATUS_UNKNOWN


def _hip_status(exc: HipError) -> Any:
    return convert_status(_HIP_TO_ROCBLAS.get(exc.status, RocblasStatus.internal_error))  # type: ignore[arg-type]


_HIPBLAS = library_table(_S.HIPBLAS_STATUS_SUCCESS, error=HipblasStatusError, backend=RocblasError,
                         convert=convert_status, execution_failed=_S.HIPBLAS_STATUS_EXECUTION_FAILED,
                         alloc_failed=_S.HIPBLAS_STATUS_ALLOC_FAILED, internal_error=_S.HIPBLAS_STATUS_INTERNAL_ERROR,
                         hip=_hip_status)
_invalid_enum = error_factory(HipblasStatusError, _S.HIPBLAS_STATUS_INVALID_ENUM)


def _pointer_error(message: str, arg: str) -> RocblasInvalidPointerError:
    """A bad host pointer: rocBLAS's invalid_pointer (``HIPBLAS_STATUS_INVALID_VALUE``)."""
    return RocblasInvalidPointerError(message, arg=arg)


def _value_error(message: str, arg: str) -> RocblasInvalidValueError:
    """A bad stream: rocBLAS's invalid_value (``HIPBLAS_STATUS_INVALID_VALUE``)."""
    return RocblasInvalidValueError(message, arg=arg)


# --- handles -------------------------------------------------------------------------------------------


class hipblasHandle_t(Opaque):
    """A ``hipblasHandle_t``: on AMD it is the rocBLAS handle (here a :class:`rocmath.blas.BlasHandle`)."""

    @property
    def blas_handle(self) -> BlasHandle:
        """The rocmath.blas handle behind it."""
        return _handle(self)


def _handle(obj: Any) -> BlasHandle:
    """The handle argument: NULL and unknown handles are rocBLAS's invalid_handle."""
    if isinstance(obj, BlasHandle):
        return obj
    found = find(obj, hipblasHandle_t)
    if found is None:
        raise RocblasInvalidHandleError("not a live hipBLAS handle" if pointer_value(obj) else "null handle",
                                        arg="handle", index=1)
    return found.target  # type: ignore[no-any-return]


# --- host memory behind pointer arguments ----------------------------------------------------------------


def _read(obj: Any, dtype: np.dtype[Any], count: int, arg: str) -> np.ndarray | None:
    """``count`` values behind a host pointer (None for NULL); a bad one is rocBLAS's invalid_pointer."""
    return read_host(obj, dtype, count, arg, _pointer_error)


def _write(obj: Any, values: Any, dtype: np.dtype[Any], arg: str) -> None:
    write_host(obj, values, dtype, arg, _pointer_error)


# --- datatypes --------------------------------------------------------------------------------------------

#: hipDataType -> rocblas_datatype (hipblasConvertDatatype_v2); others are INVALID_ENUM.
_HIP_DATATYPE_TO_ROCBLAS = {
    "HIP_R_16F": 150, "HIP_R_32F": 151, "HIP_R_64F": 152, "HIP_C_16F": 153, "HIP_C_32F": 154, "HIP_C_64F": 155,
    "HIP_R_8I": 160, "HIP_R_8U": 161, "HIP_R_32I": 162, "HIP_R_32U": 163, "HIP_C_8I": 164, "HIP_C_8U": 165,
    "HIP_C_32I": 166, "HIP_C_32U": 167, "HIP_R_16BF": 168, "HIP_C_16BF": 169,
}

#: The (a, b, c, compute) combinations hipblasGemmEx_v2 supports -> rocBLAS datatypes (a, b, c, compute).
_GEMM_EX_V2 = {
    ("HIP_R_16F", "HIP_R_16F", "HIP_R_16F", "HIPBLAS_COMPUTE_16F"): (150, 150, 150, 150),
    ("HIP_R_16F", "HIP_R_16F", "HIP_R_16F", "HIPBLAS_COMPUTE_32F"): (150, 150, 150, 151),
    ("HIP_R_16F", "HIP_R_16F", "HIP_R_32F", "HIPBLAS_COMPUTE_32F"): (150, 150, 151, 151),
    ("HIP_R_16BF", "HIP_R_16BF", "HIP_R_16BF", "HIPBLAS_COMPUTE_32F"): (168, 168, 168, 151),
    ("HIP_R_16BF", "HIP_R_16BF", "HIP_R_32F", "HIPBLAS_COMPUTE_32F"): (168, 168, 151, 151),
    ("HIP_R_32F", "HIP_R_32F", "HIP_R_32F", "HIPBLAS_COMPUTE_32F"): (151, 151, 151, 151),
    ("HIP_R_64F", "HIP_R_64F", "HIP_R_64F", "HIPBLAS_COMPUTE_64F"): (152, 152, 152, 152),
    ("HIP_R_8I", "HIP_R_8I", "HIP_R_32I", "HIPBLAS_COMPUTE_32I"): (160, 160, 162, 162),
    ("HIP_C_32F", "HIP_C_32F", "HIP_C_32F", "HIPBLAS_COMPUTE_32F"): (154, 154, 154, 154),
    ("HIP_C_64F", "HIP_C_64F", "HIP_C_64F", "HIPBLAS_COMPUTE_64F"): (155, 155, 155, 155),
}

_BF16 = np.dtype([("bf16", np.uint16)])  # marker: bfloat16 bits (numpy has no bfloat16)
#: rocblas_datatype -> how a host scalar of it is stored.
_HOST_DTYPE = {
    150: np.dtype(np.float16), 151: np.dtype(np.float32), 152: np.dtype(np.float64), 154: np.dtype(np.complex64),
    155: np.dtype(np.complex128), 160: np.dtype(np.int8), 161: np.dtype(np.uint8), 162: np.dtype(np.int32),
    163: np.dtype(np.uint32), 168: _BF16,
}


def _datatype(value: Any, arg: str, v2: bool) -> int:
    """A hipblasDatatype_t (or, in the ``_v2`` API, hipDataType) argument as a rocblas_datatype."""
    if v2:
        check_enum(value, hipDataType, arg)
        converted = _HIP_DATATYPE_TO_ROCBLAS.get(value.name)
    else:
        check_enum(value, hipblasDatatype_t, arg)
        converted = None if value.name == "HIPBLAS_DATATYPE_INVALID" else int(value)
    if converted is None:
        raise _invalid_enum(f"{value.name} has no rocBLAS datatype", arg)
    return converted


def _scalar_storage(datatype: int, arg: str) -> np.dtype[Any]:
    dtype = _HOST_DTYPE.get(datatype)
    if dtype is None:
        raise RocblasNotImplementedError(f"rocblas_datatype {datatype} has no host scalar type here", arg=arg)
    return dtype


def _from_storage(values: np.ndarray | None, storage: np.dtype[Any]) -> Any:
    if values is None or storage != _BF16:
        return values
    return from_bfloat16(values.view(np.uint16))


# --- integers ------------------------------------------------------------------------------------------------

#: hipBLAS's integer arguments convert through the shared :func:`rocmath.hip._lib.c_integer`: ``int`` (the
#: LP64 API's sizes), ``int64_t`` (the ``_64`` API's sizes and ``hipblasStride``; ``long long`` in the LP64
#: gemmStridedBatched).
_c_integer = c_integer


def _int_ctype(entry: Entry, name: str) -> str:
    """The C type of the integer parameter ``name`` (rocBLAS's name) of a hipBLAS function."""
    return "int64_t" if entry.ilp64 or name.startswith("stride") else "int"


#: hipBLAS's LP64 ``hipblas[HSDCZ]gemmStridedBatched[_v2]`` take ``long long`` strides and pass them
#: to rocBLAS as ``int``: a stride not below INT_MAX is ``HIPBLAS_STATUS_INVALID_VALUE`` before anything
#: else is looked at (hipblas.cpp, ``if(bsa < INT_MAX && bsb < INT_MAX && bsc < INT_MAX)``), one below
#: INT_MIN is truncated by ``static_cast<int>``.  The ``_64`` forms pass them on unchanged.
_INT_MAX = (1 << 31) - 1


def _gemm_strides_as_int(values: dict[str, Any]) -> None:
    strides = {"stride_a": "strideA", "stride_b": "strideB", "stride_c": "strideC"}
    for name, hip_name in strides.items():
        if values[name] >= _INT_MAX:
            raise HipblasStatusError(_S.HIPBLAS_STATUS_INVALID_VALUE, f"{values[name]} is not below INT_MAX: the "
                                     "LP64 gemmStridedBatched passes its strides as int (the _64 form does not)",
                                     arg=hip_name)
    for name in strides:
        values[name] = (values[name] + (1 << 31)) % (1 << 32) - (1 << 31)  # static_cast<int>


# --- parameter kinds -----------------------------------------------------------------------------------------

_ENUMS = {"trans": hipblasOperation_t, "transA": hipblasOperation_t, "transB": hipblasOperation_t,
          "uplo": hipblasFillMode_t, "diag": hipblasDiagType_t, "side": hipblasSideMode_t}
_DATATYPE_PARAMS = frozenset({"a_type", "b_type", "c_type", "x_type", "y_type", "alpha_type", "result_type",
                              "execution_type", "cs_type", "compute_type"})
_INT_PARAMS = frozenset({"n", "m", "k", "kl", "ku", "lda", "ldb", "ldc", "ldd", "incx", "incy", "batch_count",
                         "ldinvA", "invA_size", "solution_index", "stridex", "stridey"})
#: Host-side in/out scalars of the Givens routines: name -> values per batch entry.
_GIVENS = {"rotg": {"a": 1, "b": 1, "c": 1, "s": 1}, "rotmg": {"d1": 1, "d2": 1, "x1": 1, "y1": 1, "param": 5},
           "rotm": {"param": 5}}
#: rocBLAS parameters hipBLAS's GemmEx family does not have (it passes C as D).
_GEMM_EX_HIDDEN = frozenset({"d", "d_type", "ldd", "stride_d", "solution_index"})


@dataclass(frozen=True)
class _Param:
    hip: str  # the hipBLAS (hip-python) name
    rocblas: str
    kind: str  # handle, enum, datatype, compute, algo, flags, int, pointer, scalar, result, givens


def _kind(entry: Entry, name: str) -> str:
    base = entry.op.removesuffix("_ex")
    if name == "handle":
        return "handle"
    if name in _ENUMS:
        return "enum"
    if name == "compute_type" and entry.op == "gemm_ex" and entry.v2:
        return "compute"
    if name in _DATATYPE_PARAMS:
        return "datatype"
    if name in ("algo", "flags"):
        return name
    if name in _INT_PARAMS or name.startswith("stride_"):
        return "int"
    if name in _GIVENS.get(base, {}) and not entry.op.endswith("_ex"):
        return "givens"
    if name in ("alpha", "beta") or (base == "rot" and name in ("c", "s")):
        return "scalar"
    if name in ("result", "results"):
        return "result"
    return "pointer"


def _hip_name(name: str, signature: tuple[str, ...], is_ex: bool) -> str:
    """hip-python's parameter name for a rocBLAS one (``A`` -> ``AP``, ``batch_count`` -> ``batchCount``)."""
    if name in ("A", "B", "C") and not is_ex:
        return f"{name}P"
    if is_ex and name in ("a", "b", "c"):
        return name.upper()
    if name.endswith("_type"):
        head = name.removesuffix("_type")
        return {"a": "aType", "b": "bType", "c": "cType", "x": "xType", "y": "yType", "cs": "csType"}.get(
            head, "".join(w if i == 0 else w.capitalize() for i, w in enumerate(head.split("_"))) + "Type")
    if name.startswith("stride_"):
        target = next((p for p in signature if p.lower() == name[7:].lower()), name[7:])
        if target in ("A", "AP", "B", "C") or (is_ex and target in ("a", "b", "c")):
            return f"stride{target[0].upper()}"
        return f"stride{target[0].upper()}{target[1:]}" if len(target) > 2 else f"stride{target}"
    return {"batch_count": "batchCount", "results": "result", "invA_size": "invAsize"}.get(name, name)


#: Where hipblas.h (ROCm 6.2, hip-python 6.2's parameter names) departs from the rule of :func:`_hip_name`: by
#: operation (and flavour, when only one has it), rocBLAS name -> hipBLAS name.  hemm's sizes are ``n, k``
#: there (rocBLAS's ``m, n``).
_HIP_NAMES: dict[tuple[str, str | None], dict[str, str]] = {
    ("tbmv", None): {"trans": "transA"},
    ("gemv", "_strided_batched"): {"trans": "transA"},
    **{(op, None): {"trans": "transA"} for op in ("syr2k", "her2k", "syrkx", "herkx")},
    ("trmm", None): {"A": "A", "B": "B", "C": "C"},
    ("trtri", "_strided_batched"): {"stride_invA": "stride_invA"},
    ("rot_ex", None): {"c": "c"},
    ("hemm", None): {"m": "n", "n": "k"},
}


#: hip-python parameter names of batched routines it converts with plain ``Pointer`` even where the element
#: type is real (hipblas.h declares them ``T* const AP[]``, not ``T* const A[]``).
_POINTER_ARRAYS = frozenset({"AP", "BP", "CP", "invA", "d1", "d2", "x1", "y1", "param"})
_REAL_PREFIXES = frozenset({"s", "d", "h", "is", "id"})


def list_adapter(entry: Entry, hip_name: str, rocblas_name: str, kind: str) -> Any:
    """The ``hip._util.types`` adapter hip-python 6.2 converts a hipBLAS compute function's parameter with, if
    not ``Pointer``.

    hip-python's generator picks it from the C declaration: the ``int*`` amax/amin results take a
    :class:`~rocmath.hip._types.ListOfInt`; a batched routine's arrays of pointers to real elements
    (``float* const x[]``, GemmBatchedEx's ``A``/``B``/``C``, rotg's ``c``) a
    :class:`~rocmath.hip._types.ListOfPointer`.  Arrays of complex or bfloat16 elements, the other Ex
    functions' ``void*`` and the :data:`_POINTER_ARRAYS` names stay ``Pointer`` (a list there is a
    ``TypeError``, as in hip-python).  The solver functions' rule is
    :func:`rocmath.hip._hipblas_solver.list_adapter`.

    Parameters
    ----------
    entry
        The function's manifest entry.
    hip_name, rocblas_name
        The parameter's hip-python and rocBLAS names.
    kind
        The parameter's kind in :func:`_bind` (``pointer``, ``givens``, ``result``...).

    Returns
    -------
    type or None
        ``ListOfInt``, ``ListOfPointer`` or None (plain ``Pointer`` conversion).
    """
    if kind == "result":
        return ListOfInt if entry.op in ("amax", "amin") and not entry.ilp64 else None
    if entry.flavour != "_batched" or kind not in ("pointer", "givens"):
        return None
    if entry.op.endswith("_ex"):
        return ListOfPointer if entry.op == "gemm_ex" and hip_name in ("A", "B", "C") else None
    if hip_name in _POINTER_ARRAYS:
        return None
    real = entry.prefix in _REAL_PREFIXES or (entry.op == "rotg" and rocblas_name == "c")
    return ListOfPointer if real else None


def _type_checks(entry: Entry, params: tuple[_Param, ...], given: dict[str, Any]) -> None:
    """hip-python's ``isinstance`` checks of the enum parameters, which its functions make before converting
    any pointer argument (a list adapter's ``ValueError`` comes after them)."""
    for p in params:
        if p.kind == "enum":
            check_enum(given[p.hip], _ENUMS[p.rocblas], p.hip)
        elif p.kind == "datatype":
            check_enum(given[p.hip], hipDataType if entry.v2 else hipblasDatatype_t, p.hip)
        elif p.kind in ("compute", "algo", "flags"):
            cls = {"compute": hipblasComputeType_t, "algo": hipblasGemmAlgo_t, "flags": hipblasGemmFlags_t}[p.kind]
            check_enum(given[p.hip], cls, p.hip)


def _params(entry: Entry, signature: tuple[str, ...]) -> tuple[_Param, ...]:
    names = [n for n in signature if not (entry.op == "gemm_ex" and (n in _GEMM_EX_HIDDEN or
                                                                     (n == "flags" and not entry.flags)))]
    is_ex = entry.op.endswith("_ex")
    special = {**_HIP_NAMES.get((entry.op, None), {}), **_HIP_NAMES.get((entry.op, entry.flavour), {})}
    return tuple(_Param(special.get(n) or _hip_name(n, signature, is_ex), n, _kind(entry, n)) for n in names)


# --- scalar types --------------------------------------------------------------------------------------------


def _precision(prefix: str) -> Precision:
    return Precision.from_letter({"cs": "c", "zd": "z", "sc": "c", "dz": "z", "is": "s", "id": "d", "ic": "c",
                                  "iz": "z"}.get(prefix, prefix))


def _storage(precision: Precision) -> np.dtype[Any]:
    return _BF16 if precision.letter == "bf" else precision.dtype


def _scalar_dtype(entry: Entry, name: str, values: dict[str, Any]) -> np.dtype[Any]:
    """How the host scalar ``name`` is stored (rocBLAS's C type for it)."""
    op = entry.op
    if op in ("axpy_ex", "scal_ex"):
        return _scalar_storage(values["alpha_type"], "alpha")
    if op in ("gemm_ex", "trsm_ex"):
        return _scalar_storage(values["compute_type"], name)
    if op == "rot_ex":
        return _scalar_storage(values["cs_type"], name)
    p = _precision(entry.prefix)
    real = _storage(p.real)
    if op == "scal" and entry.prefix in ("cs", "zd"):
        return real
    if op == "rot":
        return real if name == "c" or entry.prefix in ("s", "d", "cs", "zd") else _storage(p)
    if op in ("herk", "her", "hpr") or (op in ("her2k", "herkx") and name == "beta"):
        return real
    return _storage(p)


def _result_dtype(entry: Entry, values: dict[str, Any]) -> np.dtype[Any]:
    if entry.op.endswith("_ex"):
        return _scalar_storage(values["result_type"], "result")
    if entry.op in ("amax", "amin"):  # rocblas_int, or int64_t in the _64 API
        return np.dtype(np.int64 if entry.ilp64 else np.int32)
    p = _precision(entry.prefix)
    return _storage(p.real if entry.op in ("asum", "nrm2") else p)


# --- the factory ------------------------------------------------------------------------------------------------


class _Givens:
    """Host-mode operands of rotg/rotm/rotmg: values behind host pointers, per batch entry."""

    def __init__(self, entry: Entry, values: dict[str, Any], dtype: np.dtype[Any]):
        self.flavour = entry.flavour
        self.values = dict(values)  # the pointers: the call's values are replaced by what they point to
        self.dtype = dtype
        self.count = 1 if entry.flavour == "" else c_int(values["batch_count"], "batchCount")

    def _where(self, name: str, width: int) -> list[tuple[Any, int]]:
        """(pointer, element offset) of each batch entry's values."""
        obj = self.values[name]
        if self.flavour == "_batched":
            table = _read(obj, np.dtype(np.uint64), self.count, name)
            if table is None:
                return []
            return [(int(p), 0) for p in table]
        if self.flavour == "_strided_batched":
            stride = c_int(self.values[f"stride_{name}"], f"stride{name}")
            return [(obj, b * stride) for b in range(self.count)]
        return [(obj, 0)]

    def read(self, name: str, width: int, dtype: np.dtype[Any]) -> np.ndarray | None:
        if self.count <= 0 or self.values[name] is None or pointer_value(self.values[name]) == 0:
            return None
        if self.flavour == "_strided_batched":
            stride = c_int(self.values[f"stride_{name}"], f"stride{name}")
            return _read(self.values[name], dtype, (self.count - 1) * stride + width, name)
        parts = []
        for ptr, _ in self._where(name, width):
            part = _read(ptr, dtype, width, name)
            if part is None:
                raise RocblasInvalidPointerError("null pointer in the batch", arg=name)
            parts.append(part)
        return np.concatenate(parts) if parts else None

    def write(self, name: str, width: int, dtype: np.dtype[Any], result: Any) -> None:
        values = np.asarray(result).reshape(self.count, width)
        for b, (ptr, offset) in enumerate(self._where(name, width)):
            if self.flavour == "_strided_batched":
                raw = host_bytes_at(ptr, (offset + width) * dtype.itemsize, name, _pointer_error)
                assert raw is not None
                raw[offset * dtype.itemsize:] = np.ascontiguousarray(values[b].astype(dtype)).view(np.uint8)
            else:
                _write(ptr, values[b], dtype, name)


def _bind(name: str, entry: Entry) -> Callable[..., tuple[Any, ...]]:
    """Make the hip-python function ``name`` over ``rocmath.blas.<entry.rocblas>``."""
    target = getattr(_blas, entry.rocblas)
    signature = tuple(inspect.signature(target).parameters)
    params = _params(entry, signature)
    hip_names = tuple(p.hip for p in params)
    base = entry.op.removesuffix("_ex")
    givens = _GIVENS.get(base, {}) if not entry.op.endswith("_ex") else {}
    int_params = tuple(p for p in params if p.kind == "int")
    lists = tuple((p.hip, a) for p in params if (a := list_adapter(entry, p.hip, p.rocblas, p.kind)) is not None)
    lp64_strided_gemm = entry.op == "gemm" and entry.flavour == "_strided_batched" and not entry.ilp64
    # Worked out once, not on every call (hip-python programs call these in loops): the parameters
    # past the integers, the result's, and the host scalars' C types where the call's types do not say.
    other_params = tuple(p for p in params if p.kind != "int")
    int_specs = tuple((p.rocblas, p.hip, _int_ctype(entry, p.rocblas)) for p in int_params)
    result_param = next((p for p in params if p.kind == "result"), None)
    typed_scalars = entry.op.endswith("_ex")  # (their scalars' types are arguments)
    scalar_dtypes = {} if typed_scalars else {p.rocblas: _scalar_dtype(entry, p.rocblas, {}) for p in params
                                              if p.kind == "scalar"}

    def impl(*args: Any, **kwargs: Any) -> None:
        given = call_arguments(name, hip_names, args, kwargs)
        values: dict[str, Any] = {}
        # Cython converts the integer parameters as it unpacks the arguments (TypeError, OverflowError),
        # then hip-python checks every enum's type; hipBLAS then converts them (INVALID_ENUM) before
        # rocBLAS looks at the handle.
        for rocblas_name, hip_name, ctype in int_specs:
            v = given[hip_name]
            # (a Python int that any of the C types holds as it is: the common case, without the general rules)
            values[rocblas_name] = v if type(v) is int and 0 <= v <= _INT_MAX else _c_integer(v, hip_name, ctype)
        if lists and any(isinstance(given[n], (list, tuple)) for n, _ in lists):
            # hip-python builds the C arrays of the list parameters (after its enum checks), as it calls hipBLAS.
            _type_checks(entry, params, given)
            for n, adapter in lists:
                given[n] = adapter.fromObj(given[n])
        for p in other_params:
            v = given[p.hip]
            if p.kind == "enum":
                values[p.rocblas] = int(check_enum(v, _ENUMS[p.rocblas], p.hip))
            elif p.kind == "datatype" and entry.op == "gemm_ex" and entry.v2:
                values[p.rocblas] = v  # (hipblasInternalGemmExTypes checks the combination first, below)
            elif p.kind == "datatype":
                values[p.rocblas] = _datatype(v, p.hip, entry.v2)
            elif p.kind == "compute":
                check_enum(v, hipblasComputeType_t, p.hip)
                values[p.rocblas] = v
            elif p.kind == "algo":
                check_enum(v, hipblasGemmAlgo_t, p.hip)
                values[p.rocblas] = 0  # HIPBLAS_GEMM_DEFAULT -> rocblas_gemm_algo_standard
            elif p.kind == "flags":
                values[p.rocblas] = int(check_enum(v, hipblasGemmFlags_t, p.hip))
            else:
                values[p.rocblas] = v
        if lp64_strided_gemm:
            _gemm_strides_as_int(values)
        if entry.op == "gemm_ex":
            if entry.v2:
                key = (given["aType"], given["bType"], given["cType"], values["compute_type"])
                for v, arg in zip(key[:3], ("aType", "bType", "cType"), strict=True):
                    check_enum(v, hipDataType, arg)
                types = _GEMM_EX_V2.get(tuple(v.name for v in key))
                if types is None:
                    raise HipblasStatusError(_S.HIPBLAS_STATUS_NOT_SUPPORTED,
                                             "unsupported (aType, bType, cType, computeType) combination")
                values["a_type"], values["b_type"], values["c_type"], values["compute_type"] = types
            values.update(d_type=values["c_type"], ldd=values["ldc"], solution_index=0)
            values.setdefault("flags", 0)
            if "stride_c" in values:
                values["stride_d"] = values["stride_c"]
        handle = values["handle"] = _handle(values["handle"])
        host = handle.pointer_mode is PointerMode.host
        result_obj = None
        for p in other_params:
            v = values[p.rocblas]
            if p.kind == "handle":
                continue
            if p.kind in ("pointer", "givens") or (p.kind in ("scalar", "result") and not host):
                values[p.rocblas] = device_address(v) if v is not None else None
            elif p.kind == "scalar":
                dtype = _scalar_dtype(entry, p.rocblas, values) if typed_scalars else scalar_dtypes[p.rocblas]
                try:
                    got = _from_storage(_read(v, dtype, 1, p.hip), dtype)
                except RocblasInvalidPointerError:
                    got = None  # an unreadable scalar is a null one: rocBLAS decides whether it matters
                values[p.rocblas] = None if got is None else got[0]
            elif p.kind == "result":
                result_obj = v
                if pointer_value(v) == 0:
                    raise RocblasInvalidPointerError("null pointer", arg=p.hip)
                values[p.rocblas] = None
        if entry.op == "gemm_ex":
            values["d"] = values["c"]  # hipBLAS has no D: C is both input and output
        host_givens = None
        if givens and host:
            host_givens = _Givens(entry, values, _storage(_precision(entry.prefix)))
            for g, width in givens.items():
                dtype = _storage(_precision(entry.prefix).real) if (base == "rotg" and g == "c") else host_givens.dtype
                got = host_givens.read(g, width, dtype)
                values[g] = None if got is None else (got if got.size > 1 or base == "rotm" else got[0])
        out = target(*(values[n] for n in signature))
        if host and result_param is not None and out is not None:
            dtype = _result_dtype(entry, values)
            if dtype == _BF16:
                _write(result_obj, to_bfloat16(np.asarray(out, dtype=np.float32)), np.dtype(np.uint16),
                       result_param.hip)
            else:
                _write(result_obj, out, dtype, result_param.hip)
        if host_givens is not None and out is not None:
            names = ("a", "b", "c", "s") if base == "rotg" else ("d1", "d2", "x1", "param") if base == "rotmg" else ()
            for g, value in zip(names, out, strict=False):
                dtype = (_storage(_precision(entry.prefix).real) if (base == "rotg" and g == "c")
                         else host_givens.dtype)
                host_givens.write(g, givens[g], dtype, value)

    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = (f"{name}({', '.join(hip_names)}) -> (hipblasStatus_t,)\n\n"
                    f"hipBLAS over rocmath.blas.{entry.rocblas} (see its documentation); hipBLAS enums, host "
                    f"scalars through pointers in host pointer mode.")
    fn = binding(_HIPBLAS)(impl)
    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(h, inspect.Parameter.POSITIONAL_OR_KEYWORD) for h in hip_names])
    return fn


# --- auxiliary functions -------------------------------------------------------------------------------------


@binding(_HIPBLAS, 1)
def hipblasCreate() -> hipblasHandle_t:
    """A new handle on the current device, its null stream, host pointer mode."""
    return hipblasHandle_t.new(_blas.create_handle())  # type: ignore[return-value]


@binding(_HIPBLAS)
def hipblasDestroy(handle: Any) -> None:
    """Destroy a handle (its queued work still completes)."""
    blas_handle = _handle(handle)
    blas_handle.destroy()
    for obj in list(_hip._handles.values()):  # every hipblasHandle_t standing for it (a BlasHandle may be given)
        if isinstance(obj, hipblasHandle_t) and obj.target is blas_handle:
            obj.release()


@binding(_HIPBLAS)
def hipblasSetStream(handle: Any, streamId: Any) -> None:
    """Queue the handle's later work on ``streamId`` (None or 0: the null stream)."""
    h = _handle(handle)
    h.set_stream(stream_of(streamId, "streamId", _value_error))  # rocblas_set_stream: a bad stream is invalid_value


def _getter(name: str, out: str, read: Callable[[BlasHandle], Any], dtype: Any,
            what: str) -> Callable[..., tuple[Any, ...]]:
    """``name(handle, out)``: ``read`` of the handle, written through ``out`` (a C pointer: a ctypes
    object, a ``createRef()``...) and ``(status,)`` returned, or returned as ``(status, value)`` when
    ``out`` is omitted.  rocBLAS checks the handle before the pointer."""

    def get(handle: Any, value: Any) -> Any:
        return read(_handle(handle))

    get.__name__ = get.__qualname__ = name
    get.__doc__ = (f"{name}(handle, {out}) -> (hipblasStatus_t,): {what}, written through ``{out}``, or returned "
                   f"as ``(status, {out})`` when it is omitted.")
    get.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in ("handle", out)])
    return out_parameters(_HIPBLAS, get, {out: np.dtype(dtype)}, _pointer_error, null_first=False)


hipblasGetStream = _getter("hipblasGetStream", "streamId", lambda h: _hip.wrap_stream(h.get_stream()), np.uint64,
                           "the handle's stream")


@binding(_HIPBLAS)
def hipblasSetPointerMode(handle: Any, mode: Any) -> None:
    """Where scalars and results live: ``HIPBLAS_POINTER_MODE_HOST`` or ``_DEVICE``."""
    check_enum(mode, hipblasPointerMode_t, "mode")
    _handle(handle).set_pointer_mode(PointerMode(int(mode)))


hipblasGetPointerMode = _getter("hipblasGetPointerMode", "mode",
                                lambda h: hipblasPointerMode_t(int(h.get_pointer_mode())), np.int32,
                                "the pointer mode")


@binding(_HIPBLAS)
def hipblasSetAtomicsMode(handle: Any, atomics_mode: Any) -> None:
    """Allow or forbid atomics (rocmath's kernels are deterministic either way)."""
    check_enum(atomics_mode, hipblasAtomicsMode_t, "atomics_mode")
    _handle(handle).set_atomics_mode(AtomicsMode(int(atomics_mode)))


hipblasGetAtomicsMode = _getter("hipblasGetAtomicsMode", "atomics_mode",
                                lambda h: hipblasAtomicsMode_t(int(h.get_atomics_mode())), np.int32,
                                "the atomics mode")


@binding(_HIPBLAS)
def hipblasSetMathMode(handle: Any, mode: Any) -> None:
    """The math mode: default or xf32; the others are ``HIPBLAS_STATUS_NOT_SUPPORTED``, as in hipBLAS."""
    check_enum(mode, hipblasMath_t, "mode")
    if mode.name not in ("HIPBLAS_DEFAULT_MATH", "HIPBLAS_XF32_XDL_MATH"):
        raise HipblasStatusError(_S.HIPBLAS_STATUS_NOT_SUPPORTED, f"{mode.name} has no rocBLAS math mode", arg="mode")
    _blas.set_math_mode(_handle(handle), int(mode))


hipblasGetMathMode = _getter("hipblasGetMathMode", "mode", lambda h: hipblasMath_t(int(_blas.get_math_mode(h))),
                             np.int32, "the math mode")


def _host_side(obj: Any, nbytes: int, arg: str) -> Any:
    """The host side of SetVector/GetMatrix...: a buffer, pinned rocmath memory or raw host memory."""
    r = resolve(obj)
    if r.host is not None:
        return r.host
    if r.device or r.address == 0:
        return r.address or None
    try:
        return host_bytes(r.address, nbytes, what=arg)
    except ValueError as exc:
        raise RocblasInvalidPointerError(str(exc), arg=arg) from None


def _vector_copy(fn: Callable[..., None], to_device: bool, n: Any, elemSize: Any, x: Any, incx: Any, y: Any,
                 incy: Any, *stream: Any) -> None:
    n, size = _c_integer(n, "n"), _c_integer(elemSize, "elemSize")
    incx, incy = _c_integer(incx, "incx"), _c_integer(incy, "incy")
    host_inc, host_obj = (incx, x) if to_device else (incy, y)
    need = ((n - 1) * abs(host_inc) + 1) * size if n > 0 and size > 0 else 0
    host = _host_side(host_obj, need, "x" if to_device else "y")
    dev = resolve(y if to_device else x).address or None
    args = (host, incx, dev, incy) if to_device else (dev, incx, host, incy)
    fn(n, size, args[0], args[1], args[2], args[3], *(_hip.as_stream(s) for s in stream))


def _matrix_copy(fn: Callable[..., None], to_device: bool, rows: Any, cols: Any, elemSize: Any, AP: Any, lda: Any,
                 BP: Any, ldb: Any, *stream: Any) -> None:
    rows, cols, size = _c_integer(rows, "rows"), _c_integer(cols, "cols"), _c_integer(elemSize, "elemSize")
    lda, ldb = _c_integer(lda, "lda"), _c_integer(ldb, "ldb")
    host_ld, host_obj = (lda, AP) if to_device else (ldb, BP)
    need = ((cols - 1) * host_ld + rows) * size if rows > 0 and cols > 0 and size > 0 else 0
    host = _host_side(host_obj, need, "AP" if to_device else "BP")
    dev = resolve(BP if to_device else AP).address or None
    a, b = (host, dev) if to_device else (dev, host)
    fn(rows, cols, size, a, lda, b, ldb, *(_hip.as_stream(s) for s in stream))


@binding(_HIPBLAS)
def hipblasSetVector(n: int, elemSize: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """Copy ``n`` elements of ``elemSize`` bytes from host ``x`` to device ``y`` (blocking)."""
    _vector_copy(_blas.set_vector, True, n, elemSize, x, incx, y, incy)


@binding(_HIPBLAS)
def hipblasGetVector(n: int, elemSize: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """Copy ``n`` elements from device ``x`` to host ``y`` (blocking)."""
    _vector_copy(_blas.get_vector, False, n, elemSize, x, incx, y, incy)


@binding(_HIPBLAS)
def hipblasSetVectorAsync(n: int, elemSize: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """:func:`hipblasSetVector` ordered on ``stream``."""
    _vector_copy(_blas.set_vector_async, True, n, elemSize, x, incx, y, incy, stream)


@binding(_HIPBLAS)
def hipblasGetVectorAsync(n: int, elemSize: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """:func:`hipblasGetVector` ordered on ``stream``."""
    _vector_copy(_blas.get_vector_async, False, n, elemSize, x, incx, y, incy, stream)


@binding(_HIPBLAS)
def hipblasSetMatrix(rows: int, cols: int, elemSize: int, AP: Any, lda: int, BP: Any, ldb: int) -> None:
    """Copy a column-major ``rows x cols`` host matrix to the device (blocking)."""
    _matrix_copy(_blas.set_matrix, True, rows, cols, elemSize, AP, lda, BP, ldb)


@binding(_HIPBLAS)
def hipblasGetMatrix(rows: int, cols: int, elemSize: int, AP: Any, lda: int, BP: Any, ldb: int) -> None:
    """Copy a column-major ``rows x cols`` device matrix to the host (blocking)."""
    _matrix_copy(_blas.get_matrix, False, rows, cols, elemSize, AP, lda, BP, ldb)


@binding(_HIPBLAS)
def hipblasSetMatrixAsync(rows: int, cols: int, elemSize: int, AP: Any, lda: int, BP: Any, ldb: int,
                          stream: Any) -> None:
    """:func:`hipblasSetMatrix` ordered on ``stream``."""
    _matrix_copy(_blas.set_matrix_async, True, rows, cols, elemSize, AP, lda, BP, ldb, stream)


@binding(_HIPBLAS)
def hipblasGetMatrixAsync(rows: int, cols: int, elemSize: int, AP: Any, lda: int, BP: Any, ldb: int,
                          stream: Any) -> None:
    """:func:`hipblasGetMatrix` ordered on ``stream``."""
    _matrix_copy(_blas.get_matrix_async, False, rows, cols, elemSize, AP, lda, BP, ldb, stream)


def hipblasStatusToString(status: Any) -> tuple[CStr]:
    """The enumerator name of a status, as a 1-tuple (hip-python returns no status here)."""
    check_enum(status, hipblasStatus_t, "status")
    return (CStr(status.name),)


# --- the compute functions: one generated binding per manifest name ------------------------------------------

MANIFEST: dict[str, Entry] = hipblas_names()
_BOUND: dict[str, Callable[..., tuple[Any, ...]]] = {name: _bind(name, entry) for name, entry in MANIFEST.items()}
_BOUND.update(_hipblas_solver.functions())  # getrf, getrs, getriBatched, geqrf, gels: over rocmath.solver


def __getattr__(name: str) -> Callable[..., tuple[Any, ...]]:
    # The generated functions are module attributes, listed by __dir__ and __all__ (PEP 562).
    try:
        return _BOUND[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_BOUND))


__all__ = sorted([
    *_BOUND, "hipblasCreate", "hipblasDestroy", "hipblasSetStream", "hipblasGetStream", "hipblasSetPointerMode",
    "hipblasGetPointerMode", "hipblasSetAtomicsMode", "hipblasGetAtomicsMode", "hipblasSetMathMode",
    "hipblasGetMathMode", "hipblasSetVector", "hipblasGetVector", "hipblasSetVectorAsync", "hipblasGetVectorAsync",
    "hipblasSetMatrix", "hipblasGetMatrix", "hipblasSetMatrixAsync", "hipblasGetMatrixAsync",
    "hipblasStatusToString", "hipblasStatus_t", "hipblasPointerMode_t", "hipblasOperation_t", "hipblasFillMode_t",
    "hipblasDiagType_t", "hipblasSideMode_t", "hipblasMath_t", "hipblasDatatype_t", "hipblasComputeType_t",
    "hipblasGemmAlgo_t", "hipblasAtomicsMode_t", "hipblasGemmFlags_t", "hipDataType", "hipblasHandle_t",
    "HipblasStatusError", "convert_status", "hipblasBfloat16", "hipblasComplex", "hipblasDoubleComplex",
    "hipblaseVersionMinor", "hipblasVersionMajor", "hipblasVersionMinor", "hipblasVersionPatch", "FP_NAN",
    "FP_INFINITE", "FP_ZERO", "FP_SUBNORMAL", "FP_NORMAL", "HIP_SUCCESS", "HIP_ERROR_INVALID_VALUE",
    "HIP_ERROR_NOT_INITIALIZED", "HIP_ERROR_LAUNCH_OUT_OF_RESOURCES",
])
