"""rocmath.hip.hip: hip-python's HIP runtime conventions over the simulated device."""

from __future__ import annotations

import array
import ctypes

import numpy as np
import pytest
from hip_util import check

from rocmath.hip import hip
from rocmath.hip._types import NDBuffer

E = hip.hipError_t
K = hip.hipMemcpyKind


def test_device_queries_follow_the_tuple_convention():
    assert hip.hipGetDeviceCount() == (E.hipSuccess, 1)
    assert hip.hipGetDevice() == (E.hipSuccess, 0)
    assert hip.hipSetDevice(0) == (E.hipSuccess,)
    assert hip.hipSetDevice(7) == (E.hipErrorInvalidDevice,)
    warp = hip.hipDeviceGetAttribute(hip.hipDeviceAttribute_t.hipDeviceAttributeWarpSize, 0)
    assert warp == (E.hipSuccess, 64)
    err, dim_x = hip.hipDeviceGetAttribute(hip.hipDeviceAttribute_t.hipDeviceAttributeMaxBlockDimX, 0)
    assert (err, dim_x) == (E.hipSuccess, 1024)
    props = hip.hipDeviceProp_t()
    assert hip.hipGetDeviceProperties(props, 0) == (E.hipSuccess,)
    assert props.gcnArchName.startswith(b"gfx") and props.warpSize == 64
    assert "gcnArchName" in props.PROPERTIES()
    err, newer = hip.hipGetDeviceProperties(0)  # the rocm.bindings form
    assert err == E.hipSuccess and newer.name == props.name
    free, total = check(hip.hipMemGetInfo())
    assert 0 < free <= total


def test_enum_values_and_int_rejection():
    assert (K.hipMemcpyHostToDevice, K.hipMemcpyDefault, K.hipMemcpyDeviceToDeviceNoCU) == (1, 4, 1024)
    assert (E.hipErrorInvalidValue, E.hipErrorNotReady, E.hipErrorOutOfMemory) == (1, 600, 2)
    assert E.hipErrorMemoryAllocation is E.hipErrorOutOfMemory
    attr = hip.hipDeviceAttribute_t
    assert (attr.hipDeviceAttributeMaxBlockDimX, attr.hipDeviceAttributeWarpSize,
            attr.hipDeviceAttributeClockInstructionRate) == (26, 87, 10000)
    x = check(hip.hipMalloc(16))
    with pytest.raises(TypeError, match="_hipMemcpyKind__Base"):
        hip.hipMemcpy(x, np.zeros(4, np.float32), 16, 1)
    with pytest.raises(TypeError):
        hip.hipDeviceGetAttribute(87, 0)
    with pytest.raises(TypeError):
        hip.hipGetErrorString(1)
    check(hip.hipFree(x))


def test_malloc_reports_bytes_until_configured_and_subarrays():
    assert hip.hipMalloc(0) == (E.hipSuccess, None)
    x = check(hip.hipMalloc(3 * 20 * 4))
    assert (x.size, x.itemsize, x.typestr, x.shape) == (240, 1, "B", (240,))
    assert x.configure(typestr="float32", shape=(3, 20)) is x
    assert (x.size, x.itemsize, x.rank) == (60, 4, 2)
    row = x[1, :]
    assert isinstance(row, NDBuffer) and row.size == 20 and int(row) - int(x) == 80
    assert int(x[2]) - int(x) == 160 and x[2, 5].size == 1
    with pytest.raises(ValueError):
        x[:, 3]  # a column is not contiguous
    with pytest.raises(ValueError):
        x.configure(shape=(7,))  # would change the byte count
    cai = x.__cuda_array_interface__
    assert cai["data"][0] == int(x) and cai["shape"] == (3, 20) and cai["version"] == 3
    check(hip.hipFree(x))


@pytest.mark.parametrize("kind", [K.hipMemcpyDefault, K.hipMemcpyHostToDevice, K.hipMemcpyDeviceToHost])
def test_memcpy_directions_come_from_the_pointers(kind):
    h = np.arange(32, dtype=np.float64)
    d1, d2 = check(hip.hipMalloc(h.nbytes)), check(hip.hipMalloc(h.nbytes))
    check(hip.hipMemcpy(d1, h, h.nbytes, kind))                       # host buffer -> device
    check(hip.hipMemcpy(d2, d1, h.nbytes, kind))                      # device -> device
    out = np.zeros_like(h)
    check(hip.hipMemcpy(out.ctypes.data, d2, h.nbytes, kind))          # device -> raw host address
    np.testing.assert_array_equal(out, h)
    raw = bytearray(h.nbytes)
    if kind == K.hipMemcpyDefault:
        check(hip.hipMemcpy(raw, out, h.nbytes, kind))                # host -> host
        assert bytes(raw) == h.tobytes()
    else:  # two pageable sides take hipMemcpyHostToHost or hipMemcpyDefault only (HIP's IsHtoHMemcpyValid)
        assert hip.hipMemcpy(raw, out, h.nbytes, kind) == (E.hipErrorInvalidValue,)
        assert not any(raw)
    check(hip.hipMemcpy(d1, bytes(8 * 32), h.nbytes, kind))           # bytes source
    check(hip.hipMemcpy(out, d1, h.nbytes, kind))
    assert not out.any()
    for d in (d1, d2):
        check(hip.hipFree(d))


def test_memset_and_error_statuses():
    d = check(hip.hipMalloc(64))
    check(hip.hipMemset(d, 0xAB, 64))
    out = np.zeros(64, np.uint8)
    check(hip.hipMemcpy(out, d, 64, K.hipMemcpyDeviceToHost))
    assert (out == 0xAB).all()
    assert hip.hipMemcpy(out, d, 128, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)  # past the allocation
    assert hip.hipGetLastError() == (E.hipErrorInvalidValue,)
    assert hip.hipGetLastError() == (E.hipSuccess,)
    check(hip.hipFree(d))
    assert hip.hipFree(d) == (E.hipErrorInvalidValue,)  # freed memory is no memory object (HIP's ihipFree)
    assert hip.hipPeekAtLastError() == (E.hipErrorInvalidValue,)
    hip.hipGetLastError()
    assert hip.hipMemset(np.zeros(4), 0, 4) == (E.hipErrorInvalidValue,)  # host memory is not fillable
    hip.hipGetLastError()
    err, text = hip.hipGetErrorString(E.hipErrorInvalidValue)
    assert err == E.hipSuccess and str(text) == "invalid argument"
    assert str(hip.hipGetErrorName(E.hipErrorNotReady)[1]) == "hipErrorNotReady"


def test_stream_copies_events_and_elapsed_time():
    n = 1 << 16
    x_h = array.array("i", range(n))
    nbytes = x_h.itemsize * n
    x_d = check(hip.hipMalloc(nbytes))
    stream = check(hip.hipStreamCreate())
    start, stop = check(hip.hipEventCreate()), check(hip.hipEventCreate())
    check(hip.hipEventRecord(start, stream))
    check(hip.hipMemcpyAsync(x_d, x_h, nbytes, K.hipMemcpyHostToDevice, stream))
    check(hip.hipMemsetAsync(x_d, 0, nbytes // 2, stream))
    check(hip.hipMemcpyAsync(x_h, x_d, nbytes, K.hipMemcpyDeviceToHost, stream))
    check(hip.hipEventRecord(stop, stream))
    check(hip.hipEventSynchronize(stop))
    assert hip.hipEventQuery(stop) == (E.hipSuccess,)
    ms = check(hip.hipEventElapsedTime(start, stop))
    assert isinstance(ms, float) and ms >= 0.0
    assert list(x_h[: n // 2]) == [0] * (n // 2) and x_h[n - 1] == n - 1
    other = check(hip.hipStreamCreateWithFlags(hip.hipStreamNonBlocking))
    check(hip.hipStreamWaitEvent(other, stop, 0))
    check(hip.hipStreamSynchronize(other))
    assert hip.hipStreamQuery(stream) == (E.hipSuccess,)
    untimed = check(hip.hipEventCreateWithFlags(hip.hipEventDisableTiming))
    check(hip.hipEventRecord(untimed, None))
    check(hip.hipDeviceSynchronize())
    assert hip.hipEventElapsedTime(start, untimed)[0] == E.hipErrorInvalidHandle
    for s in (stream, other):
        check(hip.hipStreamDestroy(s))
    assert hip.hipStreamDestroy(stream) == (E.hipErrorContextIsDestroyed,)
    for ev in (start, stop, untimed):
        check(hip.hipEventDestroy(ev))
    hip.hipGetLastError()
    check(hip.hipFree(x_d))


def test_pinned_and_managed_memory_are_host_addressable():
    p = check(hip.hipHostMalloc(16 * 4, hip.hipHostMallocDefault))
    view = np.ctypeslib.as_array((ctypes.c_float * 16).from_address(int(p)))
    view[:] = np.arange(16)
    d = check(hip.hipMalloc(64))
    stream = check(hip.hipStreamCreate())
    check(hip.hipMemcpyAsync(d, p, 64, K.hipMemcpyHostToDevice, stream))
    check(hip.hipStreamSynchronize(stream))
    m = check(hip.hipMallocManaged(64, hip.hipMemAttachGlobal))
    check(hip.hipMemcpy(m, d, 64, K.hipMemcpyDefault))
    managed = np.ctypeslib.as_array((ctypes.c_float * 16).from_address(int(m)))
    np.testing.assert_array_equal(managed, np.arange(16))
    check(hip.hipHostFree(p))
    check(hip.hipFree(m))
    check(hip.hipFree(d))
    check(hip.hipStreamDestroy(stream))


def test_dim3_and_constants():
    block = hip.dim3(32)
    grid = hip.dim3(100 / block[0])  # hip-python's jacobi example passes a float
    assert (block.x, block.y, block.z) == (32, 1, 1) and [*grid] == [3, 1, 1]
    assert hip.dim3(x=2, z=4)[2] == 4
    assert (hip.hipStreamNonBlocking, hip.hipEventDisableTiming, hip.hipHostMallocMapped) == (1, 2, 2)
    assert hip.hipRuntimeGetVersion() == (E.hipSuccess, hip.HIP_VERSION)
