"""hip-python's helper types in rocmath.hip: ``hip._util.types``' list adapters (``ListOfPointer``,
``ListOfInt``, ``ListOfUnsigned``, ``ListOfUnsignedLong``, ``ListOfBytes``) and ``ImmortalCStr``; hipblas's
struct classes (``hipblasComplex``, ``hipblasDoubleComplex``, ``hipblasBfloat16``) and header constants; and
the Python lists hip-python accepts where it converts with a list adapter.  Used as hip-python programs use
them, results checked against NumPy."""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest
from hip_util import check, run_in_process, to_device, to_host

import rocmath.blas as blas
from rocmath.hip import _types, hip, hipblas
from rocmath.hip._hipblas_solver import list_adapter as solver_adapter
from rocmath.hip._types import (
    CStr,
    ImmortalCStr,
    ListOfBytes,
    ListOfInt,
    ListOfPointer,
    ListOfUnsigned,
    ListOfUnsignedLong,
    Pointer,
)
from rocmath.precision import from_bfloat16, to_bfloat16

S = hipblas.hipblasStatus_t
OP = hipblas.hipblasOperation_t
N = OP.HIPBLAS_OP_N
DT = hipblas.hipblasDatatype_t


@pytest.fixture(scope="module")
def handle():
    h = check(hipblas.hipblasCreate())
    yield h
    check(hipblas.hipblasDestroy(h))


@pytest.fixture
def dev():
    """Upload host arrays; everything uploaded is freed when the test ends."""
    made = []

    def upload(a: np.ndarray):
        d = to_device(np.ascontiguousarray(a))
        made.append(d)
        return d

    yield upload
    hip.hipDeviceSynchronize()
    for d in made:
        check(hip.hipFree(d))


def _ints(adapter, ctype, n: int) -> list[int]:
    """The C array an adapter passes, read back as C would."""
    return list((ctype * n).from_address(int(adapter)))


def _column_major(a: np.ndarray) -> np.ndarray:
    return a.flatten(order="F")


# --- hip._util.types ------------------------------------------------------------------------------------


def test_list_of_pointer_from_lists_tuples_and_pointer_likes():
    host = np.zeros(4, np.float32)
    d = check(hip.hipMalloc(16))
    try:
        lp = ListOfPointer([host, d, None, 4096, ctypes.c_void_p(8192), Pointer(12288)])
        assert _ints(lp, ctypes.c_void_p, 6) == [host.ctypes.data, int(d), None, 4096, 8192, 12288]
        assert isinstance(lp, Pointer) and repr(lp) == f"<ListOfPointer object, _ptr={int(lp)}>"
        assert _ints(ListOfPointer((d, d)), ctypes.c_void_p, 2) == [int(d)] * 2
        # Another ListOfPointer: the same array; fromObj returns it; anything else converts as a Pointer.
        assert int(ListOfPointer(lp)) == int(lp) and ListOfPointer.fromObj(lp) is lp
        table = np.array([int(d), 0], np.uint64)
        assert int(ListOfPointer(table)) == table.ctypes.data and int(ListOfPointer(d)) == int(d)
        assert int(ListOfPointer(None)) == 0 and int(ListOfPointer([])) != 0
        with pytest.raises(TypeError, match="unsupported input type"):
            ListOfPointer([1.5])
    finally:
        check(hip.hipFree(d))


def test_list_of_int_and_unsigned_convert_as_the_c_casts_do():
    li = ListOfInt([1, True, ctypes.c_short(-3), ctypes.c_size_t(7), (1 << 32) + 5, -1])
    assert _ints(li, ctypes.c_int, 6) == [1, 1, -3, 7, 5, -1]  # <int>PyLong_AsLongLong(entry): wraps past 32 bits
    assert repr(li) == f"<ListOfDataInt object, _ptr={int(li)}>"  # (sic) hip-python's repr
    assert _ints(ListOfUnsigned((1, (1 << 32) + 2, ctypes.c_uint(9))), ctypes.c_uint, 3) == [1, 2, 9]
    assert _ints(ListOfUnsignedLong([(1 << 64) - 1, 3]), ctypes.c_ulong, 2) == [(1 << 64) - 1, 3]
    # A numpy array (or any other pointer-like object) is used in place: results written there are visible.
    pivots = np.zeros(3, np.int32)
    assert int(ListOfInt(pivots)) == pivots.ctypes.data and int(ListOfInt(li)) == int(li)
    assert ListOfInt.fromObj(li) is li and ListOfUnsigned.fromObj(li) is not li
    for bad in ([1.5], ["1"], [None], [np.int32(1)]):
        with pytest.raises(ValueError, match="element '0' of input cannot be converted to C int type"):
            ListOfInt(bad)
    with pytest.raises(OverflowError):
        ListOfUnsigned([-1])
    with pytest.raises(OverflowError):
        ListOfInt([1 << 63])


def test_list_of_bytes_and_immortal_cstr():
    names = [b"-O3", CStr("--gpu-architecture=gfx90a")]
    lb = ListOfBytes(names)
    assert [ctypes.string_at(p) for p in _ints(lb, ctypes.c_void_p, 2)] == [b"-O3", b"--gpu-architecture=gfx90a"]
    assert int(ListOfBytes(lb)) == int(lb) and ListOfBytes.fromObj(lb) is lb
    with pytest.raises(ValueError, match="must be of type 'bytes'"):
        ListOfBytes(["-O3"])
    s = ImmortalCStr(b"kernel")
    assert isinstance(s, CStr) and str(s) == "kernel" and bytes(s) == b"kernel" and len(s) == 6
    assert ctypes.string_at(int(s)) == b"kernel" and s.as_c_void_p().value == int(s)
    assert ImmortalCStr.fromObj(s) is s and str(ImmortalCStr(CStr("x"))) == "x"
    assert s in _types._IMMORTAL  # never collected: a C library may keep the pointer


def test_hip_python_program_imports_the_types(tmp_path):
    out = run_in_process(tmp_path, """
        import ctypes
        from hip._util.types import ListOfPointer, ListOfInt, ListOfUnsigned, ListOfUnsignedLong, ListOfBytes
        from hip._util.types import ImmortalCStr
        from hip import hipblas
        ints = ListOfInt([4, 5])
        same = hipblas.hipblaseVersionMinor == hipblas.hipblasVersionMinor
        print((ctypes.c_int * 2).from_address(int(ints))[:], same)
        print(type(hipblas.hipblasComplex(1, 0)).__name__, ListOfPointer.__name__, ImmortalCStr(b"a"))
    """)
    assert out.split("\n")[:2] == ["[4, 5] True", "hipblasComplex ListOfPointer a"]


# --- hipblas structs and constants -----------------------------------------------------------------------


def test_struct_classes_fields_constructors_and_errors():
    c = hipblas.hipblasComplex(1, 2)
    assert (c.x, c.y) == (1.0, 2.0) and c.PROPERTIES() == ["x", "y"] and c.c_sizeof() == 8
    assert c[0] == 1.0 and "y" in c and isinstance(c, Pointer) and repr(c) == f"<hipblasComplex object, ptr: {int(c)}>"
    c.x, c.y = 0.1, -3
    assert c.x == float(np.float32(0.1)) and c.y == -3.0  # C float members
    z = hipblas.hipblasDoubleComplex(y=0.1)
    assert (z.x, z.y) == (0.0, 0.1) and z.c_sizeof() == 16
    b = hipblas.hipblasBfloat16(0x3F80)
    assert b.data == 0x3F80 and b.c_sizeof() == 2 and b.PROPERTIES() == ["data"]
    assert from_bfloat16(np.array([b.data], np.uint16))[0] == 1.0
    with pytest.raises(ValueError, match="More positional arguments"):
        hipblas.hipblasComplex(1, 2, 3)
    with pytest.raises(KeyError, match="no valid property name"):
        hipblas.hipblasComplex(z=1)
    with pytest.raises(KeyError, match="already been specified"):
        hipblas.hipblasComplex(1, x=1)
    with pytest.raises(TypeError):
        c.x = "1"
    with pytest.raises(OverflowError):
        b.data = -1
    # fromObj adapts memory holding structs: a complex64 array has hipblasComplex's layout.
    arr = np.array([1 + 2j, 3 - 4j], np.complex64)
    view = hipblas.hipblasComplex.fromObj(arr)
    assert (view.x, view.y, view.get_x(1), view.get_y(1)) == (1.0, 2.0, 3.0, -4.0)
    view.set_y(1, 5)
    assert arr[1] == 3 + 5j and hipblas.hipblasComplex.fromObj(c) is c


def test_header_constants():
    assert hipblas.hipblaseVersionMinor == hipblas.hipblasVersionMinor
    assert (hipblas.FP_NAN, hipblas.FP_INFINITE, hipblas.FP_ZERO, hipblas.FP_SUBNORMAL, hipblas.FP_NORMAL) == (
        0, 1, 2, 3, 4)
    assert (hipblas.HIP_SUCCESS, hipblas.HIP_ERROR_INVALID_VALUE, hipblas.HIP_ERROR_NOT_INITIALIZED,
            hipblas.HIP_ERROR_LAUNCH_OUT_OF_RESOURCES) == (0, 1, 2, 3)
    assert {"hipblasComplex", "hipblasDoubleComplex", "hipblasBfloat16", "hipblaseVersionMinor", "FP_NAN",
            "HIP_SUCCESS"} <= set(hipblas.__all__)


def test_cgemm_and_zgemm_with_struct_scalars(handle, dev):
    rng = np.random.default_rng(1)
    for prefix, dtype, cls in (("C", np.complex64, hipblas.hipblasComplex),
                               ("Z", np.complex128, hipblas.hipblasDoubleComplex)):
        a = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(dtype)
        b = (rng.standard_normal((4, 2)) + 1j * rng.standard_normal((4, 2))).astype(dtype)
        c0 = (rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))).astype(dtype)
        dA, dB, dC = dev(_column_major(a)), dev(_column_major(b)), dev(_column_major(c0))
        gemm = getattr(hipblas, f"hipblas{prefix}gemm")
        check(gemm(handle, N, N, 3, 2, 4, cls(2, -1), dA, 3, dB, 4, cls(0.5, 0), dC, 3))
        got = to_host(dC, _column_major(c0)).reshape(2, 3).T
        np.testing.assert_allclose(got, (2 - 1j) * a @ b + 0.5 * c0, rtol=1e-5, atol=1e-5)
        # alpha = hipblasComplex(1, 0), beta = 0: the plain product.
        check(gemm(handle, N, N, 3, 2, 4, cls(1, 0), dA, 3, dB, 4, cls(0, 0), dC, 3))
        np.testing.assert_allclose(to_host(dC, _column_major(c0)).reshape(2, 3).T, a @ b, rtol=1e-5, atol=1e-5)


def test_complex_results_and_scalars_through_structs(handle, dev):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64)
    y = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64)
    dx, dy = dev(x), dev(y)
    result = hipblas.hipblasComplex()
    check(hipblas.hipblasCdotc(handle, 5, dx, 1, dy, 1, result))
    np.testing.assert_allclose(result.x + 1j * result.y, np.vdot(x, y), rtol=1e-5)
    check(hipblas.hipblasCscal(handle, 5, hipblas.hipblasComplex(0, 2), dx, 1))
    np.testing.assert_allclose(to_host(dx, x), 2j * x, rtol=1e-6)
    zx = x.astype(np.complex128)
    dzx, dzy = dev(zx), dev(np.zeros(5, np.complex128))
    check(hipblas.hipblasZaxpy(handle, 5, hipblas.hipblasDoubleComplex(1, 1), dzx, 1, dzy, 1))
    np.testing.assert_allclose(to_host(dzy, zx), (1 + 1j) * zx, rtol=1e-12)


def test_bfdot_result_into_hipblas_bfloat16(handle, dev):
    x = np.array([1.5, -2.0, 0.25, 4.0], np.float32)
    y = np.array([2.0, 0.5, 8.0, -1.0], np.float32)
    bx, by = to_bfloat16(x), to_bfloat16(y)
    result = hipblas.hipblasBfloat16()
    check(hipblas.hipblasBfdot(handle, 4, dev(bx), 1, dev(by), 1, result))
    want = float(np.dot(from_bfloat16(bx), from_bfloat16(by)))
    assert from_bfloat16(np.array([result.data], np.uint16))[0] == pytest.approx(want, rel=1e-2)


# --- Python lists where hip-python converts with a list adapter --------------------------------------------


def test_rotg_batched_lists_in_host_pointer_mode(handle):
    # rocBLAS loops over the pointers on the host: hip-python's ListOfPointer of numpy scalars works.
    a = [np.array([3.0], np.float32), np.array([1.0], np.float32)]
    b = [np.array([4.0], np.float32), np.array([-1.0], np.float32)]
    c = [np.zeros(1, np.float32) for _ in range(2)]
    s = [np.zeros(1, np.float32) for _ in range(2)]
    check(hipblas.hipblasSrotgBatched(handle, a, b, c, s, 2))
    for ai, ci, si, (a0, b0) in zip(a, c, s, ((3.0, 4.0), (1.0, -1.0)), strict=True):
        r = np.sign(a0 if abs(a0) > abs(b0) else b0) * np.hypot(a0, b0)
        np.testing.assert_allclose([ai[0], ci[0], si[0]], [r, a0 / r, b0 / r], rtol=1e-6)
    # Tuples too, and the complex form's real ``c`` (its complex a, b, s stay plain pointers: ListOfPointer
    # only for c, as in hip-python).
    da, db = np.array([3.0]), np.array([4.0])
    dc, ds = np.zeros(1), np.zeros(1)
    check(hipblas.hipblasDrotgBatched(handle, (da,), (db,), (dc,), (ds,), 1))
    assert (da[0], dc[0], ds[0]) == pytest.approx((5.0, 0.6, 0.8))
    ca, cb, cs = np.array([3 + 0j], np.complex64), np.array([4 + 0j], np.complex64), np.zeros(1, np.complex64)
    cc = np.zeros(1, np.float32)
    table = lambda v: np.array([v.ctypes.data], np.uint64)  # noqa: E731
    check(hipblas.hipblasCrotgBatched(handle, table(ca), table(cb), [cc], table(cs), 1))
    assert cc[0] == pytest.approx(0.6) and cs[0] == pytest.approx(0.8)
    with pytest.raises(TypeError, match="unsupported input type"):
        hipblas.hipblasCrotgBatched(handle, [ca], [cb], [cc], [cs], 1)


def test_amax_results_in_lists(handle, dev):
    x = dev(np.array([1.0, -7.0, 3.0, 7.0], np.float32))
    held = ListOfInt([0])
    check(hipblas.hipblasIsamax(handle, 4, x, 1, held))
    assert ctypes.c_int.from_address(int(held)).value == 2  # 1-based, first of the ties
    check(hipblas.hipblasIsamin(handle, 4, x, 1, [0]))  # accepted: hip-python writes into its own array
    out = np.zeros(1, np.int32)
    check(hipblas.hipblasIsamin(handle, 4, x, 1, ListOfInt(out)))
    assert out[0] == 1
    # The ILP64 form's result is an int64_t*: a plain Pointer in hip-python, so a list is a TypeError there.
    with pytest.raises(TypeError, match="unsupported input type"):
        hipblas.hipblasIsamax_64(handle, 4, x, 1, [0])


def test_batched_pointer_arrays_from_lists_convert_as_host_arrays(handle, dev):
    # A list becomes a host C array of the device pointers, exactly what a numpy uint64 array of them is;
    # rocBLAS's kernels read the array on the device, so both get the same answer.
    xs = [dev(np.array([1.0, 2.0], np.float32)), dev(np.array([3.0, -4.0], np.float32))]
    ys = [dev(np.zeros(2, np.float32)) for _ in range(2)]
    alpha = np.array([2.0], np.float32)

    def run(x, y):
        return hipblas.hipblasSaxpyBatched(handle, 2, alpha, x, 1, y, 1, 2)[0]

    host_table = run(np.array([int(p) for p in xs], np.uint64), np.array([int(p) for p in ys], np.uint64))
    assert run(xs, ys) == host_table
    assert run(ListOfPointer(xs), tuple(ys)) == host_table
    # From device arrays of pointers (what hipBLAS wants) the values check against numpy.
    check(hipblas.hipblasSaxpyBatched(handle, 2, alpha, dev(np.array([int(p) for p in xs], np.uint64)), 1,
                                      dev(np.array([int(p) for p in ys], np.uint64)), 1, 2))
    np.testing.assert_allclose(to_host(ys[1], np.zeros(2, np.float32)), [6.0, -8.0])
    # Where hip-python converts with a plain Pointer (``AP`` of gemmBatched, complex element types), a list
    # is refused as there.
    with pytest.raises(TypeError, match="unsupported input type"):
        hipblas.hipblasSgemmBatched(handle, N, N, 1, 1, 1, alpha, xs, 1, xs, 1, alpha, ys, 1, 2)
    with pytest.raises(TypeError, match="unsupported input type"):
        hipblas.hipblasCaxpyBatched(handle, 1, hipblas.hipblasComplex(1, 0), xs, 1, ys, 1, 2)
    status = hipblas.hipblasGemmBatchedEx(handle, N, N, 1, 1, 1, alpha, xs, DT.HIPBLAS_R_32F, 1, xs,
                                          DT.HIPBLAS_R_32F, 1, alpha, ys, DT.HIPBLAS_R_32F, 1, 2, DT.HIPBLAS_R_32F,
                                          hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT)[0]
    assert isinstance(status, S)  # the lists were accepted (ListOfPointer), the status is the library's


def test_list_conversion_errors_come_after_the_enum_checks(handle):
    with pytest.raises(ValueError, match="cannot be converted to C int type"):
        hipblas.hipblasIsamax(handle, 1, None, 1, [1.5])
    with pytest.raises(TypeError, match="argument 'transA'"):  # hip-python checks enum types first
        hipblas.hipblasGemmBatchedEx(handle, 111, N, 1, 1, 1, None, [1.5], DT.HIPBLAS_R_32F, 1, None,
                                     DT.HIPBLAS_R_32F, 1, None, None, DT.HIPBLAS_R_32F, 1, 1, DT.HIPBLAS_R_32F,
                                     hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT)
    with pytest.raises(TypeError, match="unsupported input type"):
        hipblas.hipblasGemmBatchedEx(handle, N, N, 1, 1, 1, None, [1.5], DT.HIPBLAS_R_32F, 1, None,
                                     DT.HIPBLAS_R_32F, 1, None, None, DT.HIPBLAS_R_32F, 1, 1, DT.HIPBLAS_R_32F,
                                     hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT)


def test_solver_info_and_pivots_in_lists(handle, dev):
    a = np.array([[2.0, 1.0], [4.0, 3.0]], np.float32)
    b = np.array([1.0, 2.0], np.float32)
    dA, dB = dev(_column_major(a)), dev(b)
    ipiv, info = dev(np.zeros(2, np.int32)), dev(np.zeros(1, np.int32))
    check(hipblas.hipblasSgetrf(handle, 2, dA, 2, ipiv, info))
    host_info = ListOfInt([99])  # getrs's info is a host int: hipBLAS writes its argument check there
    check(hipblas.hipblasSgetrs(handle, N, 2, 1, dA, 2, ipiv, dB, 2, host_info))
    assert ctypes.c_int.from_address(int(host_info)).value == 0
    np.testing.assert_allclose(to_host(dB, b), np.linalg.solve(a, b), rtol=1e-5)
    bad = ListOfInt([0])
    # lda < n: hipBLAS writes -5 (the 5th argument) there, then reports rocSOLVER's status.
    assert hipblas.hipblasSgetrs(handle, N, 2, 1, dA, 1, ipiv, dB, 2, bad)[0] == S.HIPBLAS_STATUS_INVALID_VALUE
    assert ctypes.c_int.from_address(int(bad)).value == -5
    check(hipblas.hipblasSgetrs(handle, N, 2, 1, dA, 2, ipiv, dB, 2, [7]))  # a bare list is accepted
    # The Batched real families take their matrices as ListOfPointer: a list converts as a host table does.
    table = np.array([int(dA)], np.uint64)
    want = hipblas.hipblasSgetrfBatched(handle, 2, table, 2, ipiv, info, 1)[0]
    assert hipblas.hipblasSgetrfBatched(handle, 2, [dA], 2, ipiv, info, 1)[0] == want
    with pytest.raises(TypeError, match="unsupported input type"):  # complex: a plain Pointer in hip-python
        hipblas.hipblasCgetrfBatched(handle, 2, [dA], 2, ipiv, info, 1)


def test_list_adapter_table_matches_hip_python_examples():
    # Spot checks of hip-python 6.2's generated conversions (hipblas.pyx).
    def adapter(name: str, param: str):
        entry = hipblas.MANIFEST[name]
        sig = tuple(inspect.signature(getattr(blas, entry.rocblas)).parameters)
        p = next(p for p in hipblas._params(entry, sig) if p.hip == param)
        return hipblas.list_adapter(entry, p.hip, p.rocblas, p.kind)

    cases = {("hipblasSgemvBatched", "x"): ListOfPointer, ("hipblasSgemvBatched", "AP"): None,
             ("hipblasSrotmBatched", "param"): None, ("hipblasSrotmBatched", "y"): ListOfPointer,
             ("hipblasStrmmBatched", "C"): ListOfPointer, ("hipblasHaxpyBatched", "y"): ListOfPointer,
             ("hipblasBfdotBatched", "x"): None, ("hipblasIcamax", "result"): ListOfInt,
             ("hipblasIsamaxBatched_64", "result"): None, ("hipblasSaxpyStridedBatched", "x"): None,
             ("hipblasGemmBatchedEx_v2", "A"): ListOfPointer, ("hipblasAxpyBatchedEx", "x"): None,
             ("hipblasZrotgBatched", "c"): ListOfPointer, ("hipblasZrotgBatched", "s"): None,
             ("hipblasStrtriBatched", "invA"): None}
    for (name, param), want in cases.items():
        assert adapter(name, param) is want, (name, param)
    assert solver_adapter("geqrfBatched", "S", "ipiv") is None and solver_adapter("geqrf", "S", "info") is ListOfInt
    assert solver_adapter("gelsBatched", "D", "B") is ListOfPointer and solver_adapter("gelsBatched", "Z", "B") is None
    assert solver_adapter("getrfStridedBatched", "S", "A") is None and solver_adapter("getrf", "C", "ipiv") is ListOfInt
