"""rocmath.hip.hipfft: hipFFT through hip-python's conventions, cross-checked with NumPy."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from hip_util import assert_runs_ok, check, hip_check_source, to_device, to_host

from rocmath.hip import hip, hipfft

R = hipfft.hipfftResult
T = hipfft.hipfftType
K = hip.hipMemcpyKind


def test_enums_and_constants_are_hipffts():
    assert (T.HIPFFT_R2C, T.HIPFFT_C2R, T.HIPFFT_C2C, T.HIPFFT_D2Z, T.HIPFFT_Z2D, T.HIPFFT_Z2Z) == (
        0x2A, 0x2C, 0x29, 0x6A, 0x6C, 0x69)
    assert (R.HIPFFT_INVALID_PLAN, R.HIPFFT_EXEC_FAILED, R.HIPFFT_PARSE_ERROR, R.HIPFFT_NOT_SUPPORTED) == (1, 6, 12, 16)
    assert (hipfft.HIPFFT_FORWARD, hipfft.HIPFFT_BACKWARD) == (-1, 1)
    assert hipfft.hipfftType is hipfft.hipfftType_t and hipfft.hipfftResult is hipfft.hipfftResult_t
    names = {f"hipfft{v}{s}" for v, (shapes, _, _) in hipfft.VERBS.items() for s in shapes}
    assert {"hipfftPlan1d", "hipfftPlanMany", "hipfftMakePlanMany64", "hipfftEstimate3d"} <= names
    assert names | {f"hipfftExec{s}" for s in hipfft.EXEC} <= set(hipfft.__all__)


def test_z2z_round_trip_in_place_unnormalized():
    x = np.random.default_rng(0).standard_normal(60) + 1j * np.random.default_rng(1).standard_normal(60)
    d = to_device(x)
    plan = check(hipfft.hipfftPlan1d(60, T.HIPFFT_Z2Z, 1))
    check(hipfft.hipfftExecZ2Z(plan, idata=d, odata=d, direction=hipfft.HIPFFT_FORWARD))
    np.testing.assert_allclose(to_host(d, x), np.fft.fft(x), atol=1e-10)
    check(hipfft.hipfftExecZ2Z(plan, d, d, hipfft.HIPFFT_BACKWARD))
    np.testing.assert_allclose(to_host(d, x), 60 * x, atol=1e-9)  # hipFFT does not normalize
    check(hipfft.hipfftDestroy(plan))
    check(hip.hipFree(d))


def test_2d_real_transforms_are_row_major_and_batched_many():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((6, 10)).astype(np.float32)  # nx = 6 rows of ny = 10 (fastest)
    da, do = to_device(a), check(hip.hipMalloc(6 * 6 * 8))
    plan = check(hipfft.hipfftPlan2d(6, 10, T.HIPFFT_R2C))
    check(hipfft.hipfftExecR2C(plan, da, do))
    spec = to_host(do, np.zeros((6, 6), np.complex64))
    np.testing.assert_allclose(spec, np.fft.rfft2(a), rtol=1e-4, atol=1e-4)
    back = check(hip.hipMalloc(a.nbytes))
    inverse = check(hipfft.hipfftPlan2d(6, 10, T.HIPFFT_C2R))
    check(hipfft.hipfftExecC2R(inverse, do, back))
    np.testing.assert_allclose(to_host(back, a), 60 * a, rtol=1e-4, atol=1e-3)
    # PlanMany: 3 transforms of 4 x 8, contiguous (no embeddings: the default layout)
    z = (rng.standard_normal((3, 4, 8)) + 1j * rng.standard_normal((3, 4, 8))).astype(np.complex64)
    dz = to_device(z)
    many = check(hipfft.hipfftPlanMany(2, np.array([4, 8], np.int32), None, 1, 0, None, 1, 0, T.HIPFFT_C2C, 3))
    check(hipfft.hipfftExecC2C(many, dz, dz, hipfft.HIPFFT_FORWARD))
    np.testing.assert_allclose(to_host(dz, z), np.fft.fft2(z), rtol=1e-4, atol=1e-4)
    for p in (plan, inverse, many):
        check(hipfft.hipfftDestroy(p))
    for d in (da, do, back, dz):
        check(hip.hipFree(d))


def test_create_make_work_area_stream_and_sizes():
    n = 2 * 1009  # a large prime factor (Bluestein)
    plan = check(hipfft.hipfftCreate())
    check(hipfft.hipfftSetAutoAllocation(plan, 0))
    work_size = check(hipfft.hipfftMakePlan1d(plan, n, T.HIPFFT_Z2Z, 2))
    assert work_size >= 0 and check(hipfft.hipfftGetSize(plan)) == work_size
    assert check(hipfft.hipfftEstimate1d(n, T.HIPFFT_Z2Z, 2)) == work_size
    assert check(hipfft.hipfftGetSize1d(plan, n, T.HIPFFT_Z2Z, 2)) == work_size
    work = check(hip.hipMalloc(max(work_size, 64)))
    check(hipfft.hipfftSetWorkArea(plan, work))
    stream = check(hip.hipStreamCreate())
    check(hipfft.hipfftSetStream(plan, stream))
    x = np.random.default_rng(3).standard_normal((2, n)) + 0j
    d, out = to_device(x), check(hip.hipMalloc(x.nbytes))
    check(hipfft.hipfftExecZ2Z(plan, d, out, hipfft.HIPFFT_FORWARD))
    check(hip.hipStreamSynchronize(stream))
    np.testing.assert_allclose(to_host(out, x), np.fft.fft(x, axis=1), atol=1e-8)
    check(hipfft.hipfftDestroy(plan))
    check(hip.hipStreamDestroy(stream))
    for p in (work, d, out):
        check(hip.hipFree(p))


def test_version_and_property_out_parameters():
    version = check(hipfft.hipfftGetVersion())
    written = ctypes.c_int(0)
    assert hipfft.hipfftGetVersion(written) == (R.HIPFFT_SUCCESS,) and written.value == version
    major = check(hipfft.hipfftGetProperty(hipfft.hipfftLibraryPropertyType.HIPFFT_MAJOR_VERSION))
    assert major == version // 10000


def test_bad_arguments_map_to_hipfft_statuses():
    assert hipfft.hipfftPlan1d(-4, T.HIPFFT_C2C, 1) == (R.HIPFFT_INVALID_SIZE, None)
    assert hipfft.hipfftPlan1d(0, T.HIPFFT_C2C, 1)[0] == R.HIPFFT_PARSE_ERROR  # rocFFT makes no plan
    n = np.array([8], np.int32)
    assert hipfft.hipfftPlanMany(1, n, n, 1, 8, None, 1, 8, T.HIPFFT_C2C, 1)[0] == R.HIPFFT_INVALID_VALUE
    assert hipfft.hipfftPlanMany(4, np.ones(4, np.int32), None, 1, 0, None, 1, 0, T.HIPFFT_C2C, 1)[0] == (
        R.HIPFFT_PARSE_ERROR)
    assert hipfft.hipfftExtPlanScaleFactor(check(hipfft.hipfftCreate()), float("inf")) == (R.HIPFFT_INVALID_VALUE,)
    plan = check(hipfft.hipfftPlan1d(8, T.HIPFFT_C2C, 1))
    d = check(hip.hipMalloc(64))
    assert hipfft.hipfftExecC2C(plan, d, d, 0) == (R.HIPFFT_EXEC_FAILED,)  # neither direction
    assert hipfft.hipfftExecC2C(plan, None, d, -1) == (R.HIPFFT_EXEC_FAILED,)
    small = check(hip.hipMalloc(16))
    assert hipfft.hipfftExecC2C(plan, small, small, -1) == (R.HIPFFT_EXEC_FAILED,)  # runs past the buffer
    assert hipfft.hipfftExecC2C(None, d, d, -1) == (R.HIPFFT_INVALID_PLAN,)
    check(hipfft.hipfftDestroy(plan))
    assert hipfft.hipfftExecC2C(plan, d, d, -1) == (R.HIPFFT_INVALID_PLAN,)
    assert hipfft.hipfftDestroy(None) == (R.HIPFFT_SUCCESS,)
    with pytest.raises(TypeError, match="_hipfftType_t__Base"):
        hipfft.hipfftPlan1d(8, 0x29, 1)
    for p in (d, small):
        check(hip.hipFree(p))


PROGRAM = '''
import numpy as np
from hip import hip, hipfft
''' + hip_check_source("hipfft") + '''
N = 100
hx = np.zeros(N, dtype=np.cdouble)
hx[:] = 1 - 1j
dx = hip_check(hip.hipMalloc(hx.size * hx.itemsize))
hip_check(hip.hipMemcpy(dx, hx, dx.size, hip.hipMemcpyKind.hipMemcpyHostToDevice))
plan = hip_check(hipfft.hipfftPlan1d(N, hipfft.hipfftType.HIPFFT_Z2Z, 1))
hip_check(hipfft.hipfftExecZ2Z(plan, idata=dx, odata=dx, direction=hipfft.HIPFFT_FORWARD))
hip_check(hip.hipDeviceSynchronize())
hip_check(hip.hipMemcpy(hx, dx, dx.size, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
hip_check(hip.hipFree(dx))
assert np.isclose(hx[0].real, N) and np.isclose(hx[0].imag, -N)
assert np.allclose(hx[1:], 0)
hip_check(hipfft.hipfftDestroy(plan))
print("ok")
'''


def test_hipfft_program_through_the_runner(tmp_path):
    assert_runs_ok(tmp_path, PROGRAM, name="fft_prog.py")
