"""rocmath.hip.hipblas's ILP64 API: hipBLAS's ``_64`` functions over rocmath.blas's ``_64`` ones.

hipBLAS's rocBLAS backend (library/src/amd_detail/hipblas.cpp) implements every ``hipblas<X>_64`` as
``hipblas<X>`` with ``int64_t`` sizes calling ``rocblas_<x>_64``; hip-python converts each integer to the
C parameter's type (``int`` in the LP64 functions, ``int64_t`` in the ``_64`` ones, ``hipblasStride``
= ``int64_t`` in both), raising ``OverflowError`` for a value that does not fit.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hip_util import check, free, to_device, to_host

import rocmath.blas as blas
from rocmath.hip import hip, hipblas
from rocmath.hip._manifest import hipblas_names

S = hipblas.hipblasStatus_t
OP = hipblas.hipblasOperation_t
FILL = hipblas.hipblasFillMode_t
DIAG = hipblas.hipblasDiagType_t
SIDE = hipblas.hipblasSideMode_t
MODE = hipblas.hipblasPointerMode_t
DT = hipblas.hipblasDatatype_t
HDT = hip.hipDataType
CT = hipblas.hipblasComputeType_t
ALGO = hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT
K = hip.hipMemcpyKind
SUCCESS = (S.HIPBLAS_STATUS_SUCCESS,)

# --- hipBLAS's _64 functions, as hipblas.h (ROCm/hipBLAS 27cf7beb) declares them ---------------------------------

#: Operation -> the precision prefixes with ``_64`` functions.  Every one comes plain, ``Batched`` and
#: ``StridedBatched``; those taking complex types (and the Ex functions) also as ``_v2``.  Not here: trtri
#: and TrsmEx (no ``_64`` form), the set/get vector/matrix helpers (none in hipBLAS).
HIPBLAS_64 = {
    # Level 1
    "amax": "Is Id Ic Iz", "amin": "Is Id Ic Iz", "asum": "S D Sc Dz", "axpy": "H S D C Z", "copy": "S D C Z",
    "dot": "H Bf S D", "dotc": "C Z", "dotu": "C Z", "nrm2": "S D Sc Dz", "rot": "S D C Cs Z Zd",
    "rotg": "S D C Z", "rotm": "S D", "rotmg": "S D", "scal": "S D C Cs Z Zd", "swap": "S D C Z",
    # Level 2
    "gbmv": "S D C Z", "gemv": "S D C Z", "ger": "S D", "gerc": "C Z", "geru": "C Z", "hbmv": "C Z",
    "hemv": "C Z", "her": "C Z", "her2": "C Z", "hpmv": "C Z", "hpr": "C Z", "hpr2": "C Z", "sbmv": "S D",
    "spmv": "S D", "spr": "S D C Z", "spr2": "S D", "symv": "S D C Z", "syr": "S D C Z", "syr2": "S D C Z",
    "tbmv": "S D C Z", "tbsv": "S D C Z", "tpmv": "S D C Z", "tpsv": "S D C Z", "trmv": "S D C Z",
    "trsv": "S D C Z",
    # Level 3 and the extensions
    "gemm": "H S D C Z", "symm": "S D C Z", "hemm": "C Z", "syrk": "S D C Z", "herk": "C Z", "syr2k": "S D C Z",
    "her2k": "C Z", "syrkx": "S D C Z", "herkx": "C Z", "trmm": "S D C Z", "trsm": "S D C Z",
    "dgmm": "S D C Z", "geam": "S D C Z",
}
HIPBLAS_EX_64 = ("Axpy", "Dot", "Dotc", "Nrm2", "Rot", "Scal", "Gemm")
_COMPLEX = {"C", "Z", "Cs", "Zd", "Sc", "Dz", "Ic", "Iz"}
_FLAVOURS = ("", "Batched", "StridedBatched")


def hipblas_64_names() -> set[str]:
    names = set()
    for op, prefixes in HIPBLAS_64.items():
        for p in prefixes.split():
            for f in _FLAVOURS:
                names.add(f"hipblas{p}{op}{f}_64")
                if p in _COMPLEX:
                    names.add(f"hipblas{p}{op}{f}_v2_64")
    for op in HIPBLAS_EX_64:
        for f in _FLAVOURS:
            for tail in ("Ex", "ExWithFlags") if op == "Gemm" else ("Ex",):
                names |= {f"hipblas{op}{f}{tail}_64", f"hipblas{op}{f}{tail}_v2_64"}
    return names


def test_manifest_lists_exactly_hipblas_64_functions():
    expected = hipblas_64_names()
    assert len(expected) == 864
    table = hipblas_names()
    assert {n for n in table if n.endswith("_64")} == expected
    for name in expected:
        entry, lp64 = table[name], table[name.removesuffix("_64")]
        # the same function over rocBLAS's _64 twin
        assert entry.ilp64 and not lp64.ilp64
        assert entry.rocblas == f"{lp64.rocblas}_64" and hasattr(blas, entry.rocblas), name
        assert (entry.op, entry.prefix, entry.flavour, entry.v2, entry.flags) == (
            lp64.op, lp64.prefix, lp64.flavour, lp64.v2, lp64.flags)
        assert callable(getattr(hipblas, name)) and name in hipblas.__all__
    assert not {"hipblasStrtri_64", "hipblasTrsmEx_64", "hipblasTrsmEx_v2_64", "hipblasSgemmt_64"} & set(table)


# --- fixtures -----------------------------------------------------------------------------------------------------


@pytest.fixture
def handle():
    h = check(hipblas.hipblasCreate())
    yield h
    check(hipblas.hipblasDestroy(h))


class Device:
    """Device allocations of one test, freed after it."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []

    def put(self, a: np.ndarray) -> Any:
        d = to_device(a)
        self.ptrs.append(d)
        return d

    def filled(self, nbytes: int, byte: int) -> Any:
        d = check(hip.hipMalloc(nbytes))
        self.ptrs.append(d)
        check(hip.hipMemset(d, byte, nbytes))
        return d

    def pointers(self, arrays: list[np.ndarray]) -> Any:
        """A device array of device pointers to copies of ``arrays`` (a batched argument)."""
        return self.put(np.array([int(self.put(a)) for a in arrays], np.uint64))


@pytest.fixture
def dev():
    d = Device()
    yield d
    free(*d.ptrs)


def rand(rng: np.random.Generator, shape: Any, dtype: Any) -> np.ndarray:
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return np.asfortranarray(a.astype(dtype))


# --- _64 results are LP64 results, bit for bit --------------------------------------------------------------------

# Each case runs a hipBLAS function on fresh copies of seeded inputs and returns its outputs.
Case = Callable[[Callable[..., tuple[Any, ...]], Any, Device], list[np.ndarray]]


def _axpy(fn, h, dev):
    rng = np.random.default_rng(1)
    x, y = rand(rng, 14, np.float32), rand(rng, 7, np.float32)
    dy = dev.put(y)
    assert fn(h, 7, ctypes.c_float(1.5), dev.put(x), 2, dy, -1) == SUCCESS
    return [to_host(dy, y)]


def _dot(fn, h, dev):
    rng = np.random.default_rng(2)
    x, y = rand(rng, 9, np.float64), rand(rng, 9, np.float64)
    res = np.zeros(1)
    assert fn(h, 9, dev.put(x), 1, dev.put(y), 1, res) == SUCCESS
    return [res]


def _zdotc(fn, h, dev):
    rng = np.random.default_rng(3)
    x, y = rand(rng, 10, np.complex128), rand(rng, 5, np.complex128)
    res = np.zeros(1, np.complex128)
    assert fn(h, 5, dev.put(x), 2, dev.put(y), 1, res) == SUCCESS
    return [res]


def _gemv(fn, h, dev):
    rng = np.random.default_rng(4)
    A, x, y = rand(rng, (7, 4), np.float64), rand(rng, 5, np.float64), rand(rng, 8, np.float64)
    dy = dev.put(y)
    assert fn(h, OP.HIPBLAS_OP_T, 5, 4, ctypes.c_double(0.5), dev.put(A), 7, dev.put(x), 1, ctypes.c_double(2.0),
              dy, 2) == SUCCESS
    return [to_host(dy, y)]


def _gemm(fn, h, dev):
    rng = np.random.default_rng(5)
    A, B, C = rand(rng, (6, 4), np.float32), rand(rng, (3, 4), np.float32), rand(rng, (6, 3), np.float32)
    dC = dev.put(C)
    assert fn(h, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_T, 5, 3, 4, ctypes.c_float(1.25), dev.put(A), 6, dev.put(B), 3,
              ctypes.c_float(-0.5), dC, 6) == SUCCESS
    return [to_host(dC, C)]


def _zgemm_strided(fn, h, dev):
    rng = np.random.default_rng(6)
    A, B, C = (rand(rng, (3, 9), np.complex128) for _ in range(3))  # 3 entries of 3x3, stride 9
    dC = dev.put(C)
    one, half = np.complex128(1 - 1j), np.complex128(0.5)
    assert fn(h, OP.HIPBLAS_OP_C, OP.HIPBLAS_OP_N, 3, 3, 3, one, dev.put(A), 3, 9, dev.put(B), 3, 9, half, dC, 3, 9,
              3) == SUCCESS
    return [to_host(dC, C)]


def _trsm(fn, h, dev):
    rng = np.random.default_rng(7)
    A = rand(rng, (4, 4), np.float64) + 4 * np.eye(4)
    B = rand(rng, (5, 3), np.float64)
    dB = dev.put(B)
    assert fn(h, SIDE.HIPBLAS_SIDE_LEFT, FILL.HIPBLAS_FILL_MODE_LOWER, OP.HIPBLAS_OP_N, DIAG.HIPBLAS_DIAG_NON_UNIT, 4,
              3, ctypes.c_double(2.0), dev.put(np.asfortranarray(A)), 4, dB, 5) == SUCCESS
    return [to_host(dB, B)]


def _ctrsm_batched(fn, h, dev):
    rng = np.random.default_rng(8)
    As = [np.asfortranarray(rand(rng, (3, 3), np.complex64) + 3 * np.eye(3, dtype=np.complex64)) for _ in range(2)]
    Bs = [rand(rng, (3, 2), np.complex64) for _ in range(2)]
    outs = [dev.put(b) for b in Bs]
    pB = dev.put(np.array([int(d) for d in outs], np.uint64))
    assert fn(h, SIDE.HIPBLAS_SIDE_RIGHT, FILL.HIPBLAS_FILL_MODE_UPPER, OP.HIPBLAS_OP_C, DIAG.HIPBLAS_DIAG_UNIT, 3, 2,
              np.complex64(1 + 2j), dev.pointers(As), 3, pB, 3, 2) == SUCCESS
    return [to_host(d, b) for d, b in zip(outs, Bs, strict=True)]


def _geam(fn, h, dev):
    rng = np.random.default_rng(9)
    A, B, C = rand(rng, (3, 5), np.float32), rand(rng, (5, 3), np.float32), np.zeros((5, 3), np.float32, order="F")
    dC = dev.put(C)
    assert fn(h, OP.HIPBLAS_OP_T, OP.HIPBLAS_OP_N, 5, 3, ctypes.c_float(2.0), dev.put(A), 3, ctypes.c_float(-1.0),
              dev.put(B), 5, dC, 5) == SUCCESS
    return [to_host(dC, C)]


def _dgmm(fn, h, dev):
    rng = np.random.default_rng(10)
    A, x, C = rand(rng, (4, 3), np.float64), rand(rng, 6, np.float64), np.zeros((4, 3), order="F")
    dC = dev.put(C)
    assert fn(h, SIDE.HIPBLAS_SIDE_RIGHT, 4, 3, dev.put(A), 4, dev.put(x), 2, dC, 4) == SUCCESS
    return [to_host(dC, C)]


def _cdgmm_strided(fn, h, dev):
    rng = np.random.default_rng(11)
    A, x, C = rand(rng, (3, 6), np.complex64), rand(rng, 6, np.complex64), np.zeros((3, 6), np.complex64, order="F")
    dC = dev.put(C)
    assert fn(h, SIDE.HIPBLAS_SIDE_LEFT, 3, 3, dev.put(A), 3, 9, dev.put(x), 1, 3, dC, 3, 9, 2) == SUCCESS
    return [to_host(dC, C)]


def _gemm_ex(fn, h, dev, *, v2=False, strided=False, flags=False):
    rng = np.random.default_rng(12)
    batch = 2 if strided else 1
    A, B, C = (rand(rng, (4, 4 * batch), np.float32) for _ in range(3))
    dC = dev.put(C)
    r32 = HDT.HIP_R_32F if v2 else DT.HIPBLAS_R_32F
    compute = CT.HIPBLAS_COMPUTE_32F if v2 else DT.HIPBLAS_R_32F
    stride = (16,) if strided else ()
    args = [h, OP.HIPBLAS_OP_T, OP.HIPBLAS_OP_N, 3, 4, 2, ctypes.c_float(0.75), dev.put(A), r32, 4, *stride,
            dev.put(B), r32, 4, *stride, ctypes.c_float(1.5), dC, r32, 4, *stride, *((batch,) if strided else ()),
            compute, ALGO]
    if flags:
        args.append(hipblas.hipblasGemmFlags_t.HIPBLAS_GEMM_FLAGS_NONE)
    assert fn(*args) == SUCCESS
    return [to_host(dC, C)]


def _ex(**kw: bool) -> Case:
    def case(fn, h, dev):
        return _gemm_ex(fn, h, dev, **kw)

    return case


CASES: dict[str, Case] = {
    "hipblasSaxpy": _axpy, "hipblasDdot": _dot, "hipblasZdotc_v2": _zdotc, "hipblasDgemv": _gemv,
    "hipblasSgemm": _gemm, "hipblasZgemmStridedBatched_v2": _zgemm_strided, "hipblasDtrsm": _trsm,
    "hipblasCtrsmBatched_v2": _ctrsm_batched, "hipblasSgeam": _geam, "hipblasDdgmm": _dgmm,
    "hipblasCdgmmStridedBatched_v2": _cdgmm_strided,
    "hipblasGemmEx": _ex(), "hipblasGemmEx_v2": _ex(v2=True), "hipblasGemmStridedBatchedEx": _ex(strided=True),
    "hipblasGemmStridedBatchedEx_v2": _ex(v2=True, strided=True), "hipblasGemmExWithFlags_v2": _ex(v2=True, flags=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_64_results_are_bitwise_the_lp64_results(handle, dev, name):
    case = CASES[name]
    want = case(getattr(hipblas, name), handle, dev)
    got = case(getattr(hipblas, f"{name}_64"), handle, dev)
    for w, g in zip(want, got, strict=True):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), name
    fresh = case(lambda *args: SUCCESS, handle, dev)  # the inputs, untouched: the call did something
    assert any(f.tobytes() != w.tobytes() for f, w in zip(fresh, want, strict=True))


def test_a_sample_of_64_results_match_numpy(handle, dev):
    (y,) = _axpy(hipblas.hipblasSaxpy_64, handle, dev)
    rng = np.random.default_rng(1)
    x, y0 = rand(rng, 14, np.float32), rand(rng, 7, np.float32)
    np.testing.assert_allclose(y, y0 + 1.5 * x[::2][::-1], rtol=1e-6)
    (C,) = _gemm(hipblas.hipblasSgemm_64, handle, dev)
    rng = np.random.default_rng(5)
    A, B, C0 = rand(rng, (6, 4), np.float32), rand(rng, (3, 4), np.float32), rand(rng, (6, 3), np.float32)
    want = C0.copy()
    want[:5] = 1.25 * A[:5] @ B.T - 0.5 * C0[:5]
    np.testing.assert_allclose(C, want, rtol=1e-5, atol=1e-5)


# --- i?amax / i?amin: int64_t results in the _64 API --------------------------------------------------------------

_SENTINEL = np.int64(0x5A5A5A5A5A5A5A5A)
_AMAX_DTYPES = {"Is": np.float32, "Id": np.float64, "Ic": np.complex64, "Iz": np.complex128}
_AMAX_NAMES = [(op, p, f, v2) for op in ("amax", "amin") for p in _AMAX_DTYPES for f in _FLAVOURS
               for v2 in ((False, True) if p in ("Ic", "Iz") else (False,))]


def _index_data(dtype: Any, batch: int) -> list[np.ndarray]:
    """One vector per batch entry, its max and min magnitudes at different places in each."""
    rng = np.random.default_rng(batch)
    out = []
    for b in range(batch):
        v = rand(rng, 9, dtype) * 0.1 + 1.0
        v[(2 * b + 3) % 9] = 7.0
        v[(5 * b + 1) % 9] = 0.01
        out.append(v)
    return out


def _expected(op: str, vectors: list[np.ndarray], incx: int) -> list[int]:
    mags = [np.abs(v.real[::incx]) + np.abs(v.imag[::incx]) for v in vectors]
    pick = np.argmax if op == "amax" else np.argmin
    return [int(pick(m)) + 1 for m in mags]  # rocBLAS's 1-based index


def _run_index(h, dev, op: str, name: str, flavour: str, dtype: Any, width: type,
               device_mode: bool) -> tuple[list[int], np.ndarray]:
    """Call the i?amax/i?amin ``name`` on a batch of 3 (1 plain) with its result buffer (host or
    device) holding one more entry than the call writes, every byte 0x5A before; returns (the expected
    indices, the buffer after)."""
    batch = 1 if flavour == "" else 3
    vectors = _index_data(dtype, batch)
    incx, n = 2, 5
    if flavour == "":
        x, extra = dev.put(vectors[0]), ()
    elif flavour == "Batched":
        x, extra = dev.pointers(vectors), (batch,)
    else:
        x, extra = dev.put(np.concatenate(vectors)), (9, batch)
    out = np.full((batch + 1) * np.dtype(width).itemsize, 0x5A, np.uint8).view(width)
    if device_mode:
        res = dev.filled(out.nbytes, 0x5A)
        check(hipblas.hipblasSetPointerMode(h, MODE.HIPBLAS_POINTER_MODE_DEVICE))
        try:
            status = getattr(hipblas, name)(h, n, x, incx, *extra, res)
        finally:
            check(hipblas.hipblasSetPointerMode(h, MODE.HIPBLAS_POINTER_MODE_HOST))
        out = to_host(res, out)
    else:
        status = getattr(hipblas, name)(h, n, x, incx, *extra, out)
    assert status == SUCCESS, name
    return _expected(op, vectors, incx), out


@pytest.mark.parametrize("device_mode", [False, True], ids=["host", "device"])
@pytest.mark.parametrize(("op", "prefix", "flavour", "v2"), _AMAX_NAMES)
def test_index_results_are_int64_in_the_64_api(handle, dev, op, prefix, flavour, v2, device_mode):
    stem = f"hipblas{prefix}{op}{flavour}{'_v2' if v2 else ''}"
    dtype = _AMAX_DTYPES[prefix]
    want, got64 = _run_index(handle, dev, op, f"{stem}_64", flavour, dtype, np.int64, device_mode)
    batch = len(want)
    assert got64.dtype == np.int64 and got64[:batch].tolist() == want  # all 8 bytes written
    assert got64[batch] == _SENTINEL  # nothing past batchCount
    want32, got32 = _run_index(handle, dev, op, stem, flavour, dtype, np.int32, device_mode)
    assert want32 == want and got32[:batch].tolist() == want  # the LP64 name: 4 bytes each
    assert got32[batch] == np.int32(0x5A5A5A5A)


def test_index_quick_return_writes_an_int64_zero(handle, dev):
    """n = 0: rocBLAS writes index 0, all 8 bytes of it (here with an increment only int64_t holds)."""
    res = np.full(2, _SENTINEL)
    assert hipblas.hipblasIzamin_64(handle, 0, None, 2**40, res) == SUCCESS
    assert res.tolist() == [0, int(_SENTINEL)]
    with pytest.raises(OverflowError, match="'incx'"):
        hipblas.hipblasIzamin(handle, 0, None, 2**40, res)


# --- integer arguments: int in the LP64 API, int64_t in the _64 one -----------------------------------------------


def test_lp64_names_reject_values_int_cannot_hold(handle):
    one = ctypes.c_float(1.0)
    with pytest.raises(OverflowError, match=r"value too large to convert to int \(argument 'n'\)"):
        hipblas.hipblasSaxpy(handle, 2**31, one, None, 1, None, 1)
    with pytest.raises(OverflowError, match="'incy'"):
        hipblas.hipblasSaxpy(handle, 0, one, None, 1, None, -(2**31) - 1)
    with pytest.raises(OverflowError, match="'n'"):
        hipblas.hipblasSaxpy(handle, np.int64(2**31), one, None, 1, None, 1)  # numpy ints convert alike
    with pytest.raises(OverflowError, match="'lda'"):
        hipblas.hipblasSgemm(handle, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, 0, 0, 0, one, None, 2**31, None, 1, one, None, 1)
    with pytest.raises(OverflowError, match="'batchCount'"):
        hipblas.hipblasGemmStridedBatchedEx(handle, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, 0, 0, 0, one, None,
                                            DT.HIPBLAS_R_32F, 1, 0, None, DT.HIPBLAS_R_32F, 1, 0, one, None,
                                            DT.HIPBLAS_R_32F, 1, 0, 2**31, DT.HIPBLAS_R_32F, ALGO)
    with pytest.raises(OverflowError, match="'n'"):
        hipblas.hipblasSetVector(2**31, 4, np.zeros(1, np.float32), 1, None, 1)
    # the integers are converted before the enums are checked, as Cython unpacks the arguments first
    with pytest.raises(OverflowError, match="'m'"):
        hipblas.hipblasSgemm(handle, 111, 111, 2**31, 0, 0, one, None, 1, None, 1, one, None, 1)
    # the bounds themselves fit
    assert hipblas.hipblasSaxpy(handle, -(2**31), one, None, 1, None, 2**31 - 1) == SUCCESS


def test_64_names_take_int64_values(handle):
    one = ctypes.c_float(1.0)
    big = 2**40
    assert hipblas.hipblasSaxpy_64(handle, 0, one, None, big, None, -big) == SUCCESS
    assert hipblas.hipblasSgemm_64(handle, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, 0, 0, 0, one, None, big, None, big, one,
                                   None, big) == SUCCESS
    assert hipblas.hipblasGemmStridedBatchedEx_64(handle, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, 0, 4, 4, one, None,
                                                  DT.HIPBLAS_R_32F, big, big, None, DT.HIPBLAS_R_32F, big, big, one,
                                                  None, DT.HIPBLAS_R_32F, big, big, 2**33, DT.HIPBLAS_R_32F,
                                                  ALGO) == SUCCESS
    assert hipblas.hipblasDtrsm_64(handle, SIDE.HIPBLAS_SIDE_LEFT, FILL.HIPBLAS_FILL_MODE_UPPER, OP.HIPBLAS_OP_N,
                                   DIAG.HIPBLAS_DIAG_UNIT, 0, big, ctypes.c_double(1.0), None, 1, None, 1) == SUCCESS
    with pytest.raises(OverflowError, match=r"value too large to convert to int64_t \(argument 'n'\)"):
        hipblas.hipblasSaxpy_64(handle, 2**63, one, None, 1, None, 1)
    with pytest.raises(TypeError, match="'incx'"):
        hipblas.hipblasSaxpy_64(handle, 0, one, None, 1.0, None, 1)
    # rocBLAS's own checks still apply to int64 values: lda < m is invalid_size -> INVALID_VALUE
    assert hipblas.hipblasSgemm_64(handle, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, big, 1, 1, one, None, big - 1, None, 1,
                                   one, None, big) == (S.HIPBLAS_STATUS_INVALID_VALUE,)


def test_strides_are_int64_in_both_apis(handle):
    one = ctypes.c_float(1.0)
    big = 2**40
    for name in ("hipblasSaxpyStridedBatched", "hipblasSaxpyStridedBatched_64"):
        fn = getattr(hipblas, name)
        assert fn(handle, 0, one, None, 1, big, None, 1, -big, 1) == SUCCESS
        with pytest.raises(OverflowError, match=r"int64_t \(argument 'stridex'\)"):
            fn(handle, 0, one, None, 1, 2**63, None, 1, 0, 1)


def test_lp64_gemm_strided_batched_takes_strides_below_int_max(handle, dev):
    """hipblas?gemmStridedBatched (LP64) passes its long long strides to rocBLAS as int: one not below
    INT_MAX is HIPBLAS_STATUS_INVALID_VALUE before anything else (hipblas.cpp); the _64 forms take them."""
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    n = OP.HIPBLAS_OP_N
    rng = np.random.default_rng(13)
    A, B = rand(rng, (2, 2), np.float32), rand(rng, (2, 2), np.float32)
    dA, dB = dev.put(A), dev.put(B)
    for stride in (2**31 - 1, 2**31, 2**40):
        dC = dev.put(np.zeros((2, 2), np.float32))
        assert hipblas.hipblasSgemmStridedBatched(handle, n, n, 2, 2, 2, one, dA, 2, stride, dB, 2, 4, zero, dC, 2, 4,
                                                  1) == (S.HIPBLAS_STATUS_INVALID_VALUE,)
        assert hipblas.hipblasSgemmStridedBatched_64(handle, n, n, 2, 2, 2, one, dA, 2, stride, dB, 2, 4, zero, dC, 2,
                                                     4, 1) == SUCCESS
        np.testing.assert_allclose(to_host(dC, A), A @ B, rtol=1e-6)
    # hipBLAS's check, after hip-python's (an enum's type) and before the handle (NULL here), the enums'
    # conversion and rocBLAS's own checks
    with pytest.raises(TypeError):
        hipblas.hipblasSgemmStridedBatched(handle, 111, n, 2, 2, 2, one, dA, 2, 2**31, dB, 2, 4, zero, None, 2, 4, 1)
    assert hipblas.hipblasZgemmStridedBatched_v2(None, n, n, 2, 2, 2, None, None, 2, 0, None, 2, 0, None, None, 2,
                                                 2**31, 1) == (S.HIPBLAS_STATUS_INVALID_VALUE,)
    assert hipblas.hipblasZgemmStridedBatched_v2_64(None, n, n, 2, 2, 2, None, None, 2, 0, None, 2, 0, None, None, 2,
                                                    2**31, 1) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    # the strided Ex function has no such limit
    dC = dev.put(np.zeros((2, 2), np.float32))
    r32 = DT.HIPBLAS_R_32F
    assert hipblas.hipblasGemmStridedBatchedEx(handle, n, n, 2, 2, 2, one, dA, r32, 2, 2**31, dB, r32, 2, 4, zero, dC,
                                               r32, 2, 4, 1, r32, ALGO) == SUCCESS


# --- logging ------------------------------------------------------------------------------------------------------


@pytest.fixture
def trace_path(tmp_path):
    from rocmath import log

    path = str(tmp_path / "trace.log")
    yield path
    f = log._files.pop(path, None)
    if f is not None:
        f.close()


def test_64_calls_log_as_rocblas_64_functions(monkeypatch, trace_path, dev):
    monkeypatch.setenv("ROCBLAS_LAYER", "1")
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", trace_path)
    h = check(hipblas.hipblasCreate())  # the environment is read when a handle is created
    try:
        x = dev.put(np.ones(8, np.float32))
        one = ctypes.c_float(1.0)
        check(hipblas.hipblasSaxpy_64(h, 4, one, x, 2, x, 1))
        check(hipblas.hipblasSaxpy(h, 4, one, x, 2, x, 1))
        res = np.zeros(1, np.int64)
        check(hipblas.hipblasIsamaxStridedBatched_64(h, 8, x, 1, 8, 1, res))
        r32 = HDT.HIP_R_32F
        check(hipblas.hipblasGemmEx_v2_64(h, OP.HIPBLAS_OP_N, OP.HIPBLAS_OP_N, 2, 2, 2, one, x, r32, 2, x, r32, 2,
                                          one, x, r32, 2, CT.HIPBLAS_COMPUTE_32F, ALGO))
        check(hipblas.hipblasStrsm_64(h, SIDE.HIPBLAS_SIDE_LEFT, FILL.HIPBLAS_FILL_MODE_UPPER, OP.HIPBLAS_OP_N,
                                      DIAG.HIPBLAS_DIAG_UNIT, 0, 0, one, None, 1, None, 1))
    finally:
        check(hipblas.hipblasDestroy(h))
    with open(trace_path, encoding="utf-8") as f:
        names = [line.split(",")[0] for line in f.read().splitlines() if line.startswith("rocblas_")]
    assert names[0] == "rocblas_create_handle"  # (hipblasCreate's rocBLAS handle: traced, as rocBLAS does)
    names = [n for n in names if n not in ("rocblas_create_handle", "rocblas_destroy_handle")]
    assert names == ["rocblas_saxpy_64", "rocblas_saxpy", "rocblas_isamax_strided_batched_64", "rocblas_gemm_ex_64",
                     "rocblas_strsm_64"], names
