"""The exception hierarchy (ROCm statuses, pickling, mapping) and the precision table."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rocmath as rm
from rocmath import errors, precision
from rocmath.errors import HipStatus, RocblasStatus
from rocmath.precision import BF16, SDCZ, C, D, H, Precision, S, Z, from_bfloat16, to_bfloat16

# --- statuses -----------------------------------------------------------------------------------

# hip_runtime_api.h and rocblas-types.h, written out independently of errors.py.
HIP_VALUES = {
    "hipSuccess": 0, "hipErrorInvalidValue": 1, "hipErrorOutOfMemory": 2, "hipErrorNotInitialized": 3,
    "hipErrorDeinitialized": 4, "hipErrorInvalidConfiguration": 9, "hipErrorInvalidSymbol": 13,
    "hipErrorInvalidDevicePointer": 17, "hipErrorInvalidMemcpyDirection": 21, "hipErrorInvalidDeviceFunction": 98,
    "hipErrorNoDevice": 100, "hipErrorInvalidDevice": 101, "hipErrorInvalidImage": 200,
    "hipErrorInvalidContext": 201, "hipErrorInvalidHandle": 400, "hipErrorNotFound": 500, "hipErrorNotReady": 600,
    "hipErrorIllegalAddress": 700, "hipErrorPeerAccessAlreadyEnabled": 704, "hipErrorPeerAccessNotEnabled": 705,
    "hipErrorLaunchFailure": 719, "hipErrorNotSupported": 801, "hipErrorIllegalState": 401,
    "hipErrorContextIsDestroyed": 709, "hipErrorStreamCaptureUnsupported": 900, "hipErrorStreamCaptureInvalidated": 901,
    "hipErrorStreamCaptureMerge": 902, "hipErrorStreamCaptureUnmatched": 903, "hipErrorStreamCaptureUnjoined": 904,
    "hipErrorStreamCaptureIsolation": 905, "hipErrorStreamCaptureImplicit": 906, "hipErrorCapturedEvent": 907,
    "hipErrorStreamCaptureWrongThread": 908, "hipErrorGraphExecUpdateFailure": 910,
    "hipErrorUnknown": 999,
}
ROCBLAS_NAMES = [
    "success", "invalid_handle", "not_implemented", "invalid_pointer", "invalid_size", "memory_error",
    "internal_error", "perf_degraded", "size_query_mismatch", "size_increased", "size_unchanged", "invalid_value",
    "continue", "check_numerics_fail", "excluded_from_build", "arch_mismatch",
]

CLASS_STATUS = [
    (errors.HipError, 999), (errors.HipInvalidValueError, 1), (errors.OutOfMemoryError, 2),
    (errors.HipNotInitializedError, 3), (errors.InvalidDevicePointerError, 17),
    (errors.InvalidMemcpyDirectionError, 21), (errors.InvalidDeviceError, 101), (errors.HipInvalidHandleError, 400),
    (errors.NotReadyError, 600), (errors.MemoryAccessFault, 700), (errors.PeerAccessAlreadyEnabledError, 704),
    (errors.PeerAccessNotEnabledError, 705), (errors.LaunchFailureError, 719),
    (errors.HipNotSupportedError, 801), (errors.IllegalStateError, 401), (errors.ContextIsDestroyedError, 709),
    (errors.StreamCaptureUnsupportedError, 900), (errors.StreamCaptureInvalidatedError, 901),
    (errors.StreamCaptureMergeError, 902), (errors.StreamCaptureUnmatchedError, 903),
    (errors.StreamCaptureUnjoinedError, 904), (errors.StreamCaptureIsolationError, 905),
    (errors.StreamCaptureImplicitError, 906), (errors.CapturedEventError, 907),
    (errors.StreamCaptureWrongThreadError, 908), (errors.GraphExecUpdateFailureError, 910),
    (errors.RocblasError, 6), (errors.RocblasInvalidHandleError, 1), (errors.RocblasNotImplementedError, 2),
    (errors.RocblasInvalidPointerError, 3), (errors.RocblasInvalidSizeError, 4), (errors.RocblasMemoryError, 5),
    (errors.RocblasInternalError, 6), (errors.RocblasSizeQueryMismatchError, 8),
    (errors.RocblasInvalidValueError, 11), (errors.RocblasCheckNumericsFailError, 13),
    (errors.RocblasExcludedFromBuildError, 14), (errors.RocblasArchMismatchError, 15),
]


def _all_classes(base=errors.RocmathError):
    out = []
    for sub in base.__subclasses__():
        out.append(sub)
        out.extend(_all_classes(sub))
    return out


def test_hip_status_values():
    assert {m.name: int(m) for m in HipStatus} == HIP_VALUES


def test_rocblas_status_values_and_strings():
    assert [int(m) for m in RocblasStatus] == list(range(16))
    assert [m.to_string() for m in RocblasStatus] == [f"rocblas_status_{n}" for n in ROCBLAS_NAMES]
    assert RocblasStatus.invalid_size.to_string() == "rocblas_status_invalid_size"
    assert RocblasStatus(12).to_string() == "rocblas_status_continue"


@pytest.mark.parametrize("cls, value", CLASS_STATUS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_every_class_has_its_status(cls, value):
    family = HipStatus if issubclass(cls, errors.HipError) else RocblasStatus
    assert type(cls.status) is family and int(cls.status) == value
    e = cls("m")
    assert e.status is cls.status
    assert errors.status_of(e) is cls.status
    assert isinstance(e, errors.RocmathError)


def test_the_table_covers_every_class():
    # The runtime's classes; libraries with their own statuses (rocFFT, rocSPARSE) test theirs.
    assert {c for c, _ in CLASS_STATUS} == {c for c in _all_classes() if c.__module__ == errors.__name__}


def test_builtin_bases():
    assert issubclass(errors.OutOfMemoryError, MemoryError)
    assert issubclass(errors.RocblasMemoryError, MemoryError)
    assert issubclass(errors.HipInvalidValueError, ValueError)
    assert issubclass(errors.InvalidDevicePointerError, ValueError)
    assert issubclass(errors.RocblasInvalidSizeError, ValueError)
    assert issubclass(errors.RocblasNotImplementedError, NotImplementedError)
    assert issubclass(errors.RocblasCheckNumericsFailError, FloatingPointError)
    assert rm.RocmathError is errors.RocmathError and rm.MemoryAccessFault is errors.MemoryAccessFault


def test_message_format():
    e = errors.RocblasInvalidSizeError("n must be >= 0", arg="n", index=2)
    assert str(e) == "argument 'n' (#2): n must be >= 0 [invalid_size]"
    assert (e.message, e.arg, e.index) == ("n must be >= 0", "n", 2)
    assert str(errors.HipInvalidValueError("bad", arg="x")) == "argument 'x': bad [hipErrorInvalidValue]"
    assert str(errors.NotReadyError("later")) == "later [hipErrorNotReady]"


@pytest.mark.parametrize("cls", [c for c, _ in CLASS_STATUS], ids=lambda c: c.__name__)
def test_exceptions_pickle(cls):
    for e in (cls("what happened", arg="lda", index=7), cls("plain"), cls()):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is cls
        assert (back.message, back.arg, back.index, back.status) == (e.message, e.arg, e.index, e.status)
        assert str(back) == str(e) and back.args == e.args


def test_error_for_status():
    for cls, value in CLASS_STATUS:
        family = HipStatus if issubclass(cls, errors.HipError) else RocblasStatus
        found = errors.error_for_status(family(value))
        assert found.status == family(value)
        if cls not in (errors.HipError, errors.RocblasError):  # the bases share their status
            assert found is cls
    # Same number, different families: never confused.
    assert errors.error_for_status(HipStatus(1)) is errors.HipInvalidValueError
    assert errors.error_for_status(RocblasStatus(1)) is errors.RocblasInvalidHandleError
    assert errors.error_for_status(RocblasStatus.internal_error) is errors.RocblasInternalError
    # Statuses without a class of their own map to the family base.
    assert errors.error_for_status(HipStatus.hipErrorInvalidConfiguration) is errors.HipError
    assert errors.error_for_status(RocblasStatus.perf_degraded) is errors.RocblasError


def test_status_of_foreign_exceptions():
    assert errors.status_of(ValueError("x")) is HipStatus.hipErrorUnknown
    assert errors.status_of(errors.RocblasMemoryError("x")) is RocblasStatus.memory_error


# --- precision table ------------------------------------------------------------------------------


def _spacing_at_one(p):
    if p is BF16:
        one = to_bfloat16(np.float32(1.0))
        return float(from_bfloat16(one + np.uint16(1)) - np.float32(1.0))
    return float(np.spacing(p.dtype.type(1).real))


@pytest.mark.parametrize("p", precision.ALL, ids=repr)
def test_eps_is_the_spacing_at_one(p):
    assert p.eps == _spacing_at_one(p)
    assert p.eps > 0


def test_eps_values():
    assert S.eps == C.eps == 2.0**-23
    assert D.eps == Z.eps == 2.0**-52
    assert H.eps == 2.0**-10
    assert BF16.eps == 2.0**-7


@pytest.mark.parametrize("p, letter, dtype, real, cplx, datatype, value, is_complex", [
    (S, "s", np.float32, S, C, "f32_r", 151, False),
    (D, "d", np.float64, D, Z, "f64_r", 152, False),
    (C, "c", np.complex64, S, C, "f32_c", 154, True),
    (Z, "z", np.complex128, D, Z, "f64_c", 155, True),
    (H, "h", np.float16, H, C, "f16_r", 150, False),
    (BF16, "bf", np.uint16, BF16, C, "bf16_r", 168, False),
], ids=lambda v: repr(v) if isinstance(v, Precision) else None)
def test_precision_facts(p, letter, dtype, real, cplx, datatype, value, is_complex):
    assert p.letter == letter and p.dtype == np.dtype(dtype) and p.itemsize == np.dtype(dtype).itemsize
    assert p.real is real and p.complex is cplx and p.is_complex is is_complex
    assert p.datatype == datatype and p.datatype_value == value
    assert Precision.from_letter(letter) is p and Precision.from_letter(letter.upper()) is p
    assert Precision.from_datatype(datatype) is p
    assert Precision.of(letter) is p and Precision.of(p) is p
    assert repr(p) == f"Precision.{letter.upper()}"
    assert p.storage_only is (p in (H, BF16))
    assert p.compute_dtype == (np.dtype(np.float32) if p.storage_only else p.dtype)


def test_precision_of_arrays_and_dtypes():
    assert SDCZ == (S, D, C, Z)
    for p in (S, D, C, Z, H):
        assert Precision.of(p.dtype) is p
        assert Precision.of(np.zeros(2, p.dtype)) is p
        assert Precision.of(p.dtype.name) is p
        assert Precision.of(rm.zeros(2, p.dtype)) is p
    assert Precision.of(np.float64) is D and Precision.of(float) is D and Precision.of(complex) is Z
    for bad in (np.int32, np.uint16, np.dtype(">f8"), object, "q", np.zeros(2, bool), "not a dtype"):
        with pytest.raises(TypeError):
            Precision.of(bad)
    with pytest.raises(ValueError):
        Precision.from_letter("q")
    with pytest.raises(ValueError):
        Precision.from_datatype("u8_r")
    # gemm_ex's integer types are in the table, computed exactly.
    assert Precision.from_datatype("i32_r").dtype == np.int32
    assert Precision.from_datatype("i8_r").compute_dtype == np.float64
    assert Precision.from_datatype("i8_r").eps == 0.0




def test_bfloat16_bit_patterns_round_trip():
    bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    values = from_bfloat16(bits)
    assert values.dtype == np.float32
    # Widening is exact: the bf16 bits are the top half of the float32.
    assert np.array_equal(values.view(np.uint32) >> 16, bits.astype(np.uint32))
    finite = ~np.isnan(values)
    np.testing.assert_array_equal(to_bfloat16(values[finite]), bits[finite])
    # NaNs keep their bits (sign and payload), as rocBLAS's float_to_bfloat16
    np.testing.assert_array_equal(to_bfloat16(values[~finite]), bits[~finite])
    assert np.isnan(from_bfloat16(to_bfloat16(np.float32(np.nan))))
    # ... and a payload only in the 16 bits cut off keeps the NaN a NaN (the lowest kept bit set)
    low = np.array([0x7F800001, 0xFF80FFFF], np.uint32).view(np.float32)
    np.testing.assert_array_equal(to_bfloat16(low), [0x7F81, 0xFF81])


def _nearest_bf16(x: np.float32) -> np.float32:
    """Round to nearest bfloat16, ties to even, by looking at the two neighbours."""
    b = int(np.float32(x).view(np.uint32))
    lo = b & 0xFFFF0000
    hi = lo + 0x10000
    cand = [np.uint32(lo).view(np.float32), np.uint32(hi & 0xFFFFFFFF).view(np.float32)]
    # Past the largest finite bf16 the upper neighbour is infinity, reached as if it were 2**128
    # (IEEE rounding: as with an unbounded exponent, then overflow).
    values = [float(c) if np.isfinite(c) else math.copysign(2.0**128, float(x)) for c in cand]
    d = [abs(v - float(x)) for v in values]
    if d[0] != d[1]:
        return cand[int(d[1] < d[0])]
    return cand[0] if (lo >> 16) % 2 == 0 else cand[1]


@given(st.floats(width=32, allow_nan=False, allow_infinity=True))
def test_bfloat16_rounds_to_nearest_even(x):
    x = np.float32(x)
    got = from_bfloat16(to_bfloat16(x))
    if np.isinf(x):
        assert got == x
        return
    want = _nearest_bf16(x)
    assert got.view(np.uint32) == np.float32(want).view(np.uint32)
    if np.isfinite(got) and x != 0:
        assert abs(float(got) - float(x)) <= abs(float(x)) * BF16.eps / 2 * (1 + 1e-6) or abs(float(x)) < 1e-37


def test_bfloat16_arrays_keep_their_shape():
    a = np.array([[1.0, -2.5], [3.140625, 65280.0]], np.float32)
    b = to_bfloat16(a)
    assert b.dtype == np.uint16 and b.shape == (2, 2)
    np.testing.assert_array_equal(from_bfloat16(b), a)  # all exactly representable
