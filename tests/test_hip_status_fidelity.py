"""rocmath.hip.hip returns the AMD runtime's statuses, in its check order (ROCm/clr hipamd/src: hip_memory.cpp,
hip_stream.cpp, hip_event.cpp, hip_device.cpp, hip_device_runtime.cpp, hip_error.cpp, hip_peer.cpp).

Copies and fills past an allocation are ``hipErrorInvalidValue`` before anything is written; handles of
destroyed streams are ``hipErrorContextIsDestroyed`` where HIP checks ``hip::isValid``; the error strings are
hip_error.cpp's; allocation and event flags are validated as HIP validates them; memory pools give their freed
blocks back at the runtime's own synchronizations, before ``rocmath.configure`` and at ``hipDeviceReset``.
Refused calls are checked to leave the memory they name untouched.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from hip_util import check, hip_clean_state  # noqa: F401 - the fixture, used by pytestmark

import rocmath
from rocmath.hip import hip, last_exception
from rocmath.memory import address_space

E = hip.hipError_t
K = hip.hipMemcpyKind
A = hip.hipMemPoolAttr
SENTINEL = 0x5A


pytestmark = pytest.mark.usefixtures("hip_clean_state")


@pytest.fixture
def dead():
    """A handle of a destroyed stream."""
    s = check(hip.hipStreamCreate())
    check(hip.hipStreamDestroy(s))
    return s


def device_bytes(d, nbytes):
    out = np.empty(nbytes, np.uint8)
    check(hip.hipMemcpy(out, d, nbytes, K.hipMemcpyDeviceToHost))
    return out


# --- error names and strings (hip_error.cpp) ----------------------------------------------------------------


def test_error_strings_are_the_runtimes_for_every_code():
    from rocmath.hip._hip_runtime2 import ERROR_STRINGS

    hip.hipGetLastError()
    assert hip.hipSetDevice(7) == (E.hipErrorInvalidDevice,)
    for member in E:
        err, text = hip.hipGetErrorString(member)
        assert err == E.hipSuccess
        assert str(text) == ERROR_STRINGS.get(member.name, "unknown error")
        assert hip.hipDrvGetErrorString(member)[1] == str(text)  # one table for both
        assert str(hip.hipGetErrorName(member)[1]) == member.name
    # words the old name-derived fallback got wrong, as hip_error.cpp has them
    assert str(hip.hipGetErrorString(E.hipErrorInvalidPitchValue)[1]) == "invalid pitch argument"
    assert str(hip.hipGetErrorString(E.hipErrorContextIsDestroyed)[1]) == "context is destroyed"
    assert str(hip.hipGetErrorString(E.hipErrorStreamCaptureImplicit)[1]) == \
        "operation would make the legacy stream depend on a capturing blocking stream"
    assert str(hip.hipGetErrorString(E.hipErrorTbd)[1]) == "unknown error"  # no words for it
    assert str(hip.hipGetErrorName(E.hipErrorMemoryAllocation)[1]) == "hipErrorOutOfMemory"  # an alias: first name
    # none of them touches the last error (hipDrvGetErrorString's failure included: a bare return in HIP)
    assert hip.hipDrvGetErrorString(E.hipErrorTbd)[0] == E.hipErrorInvalidValue
    assert hip.hipGetLastError() == (E.hipErrorInvalidDevice,)
    with pytest.raises(TypeError):
        hip.hipGetErrorString(1)


# --- 1D copies and fills: HIP's ihipMemcpy_validate and ihipMemset_validate ---------------------------------


@pytest.mark.parametrize("call", [
    lambda d, h, n, s: hip.hipMemcpy(d, h, n, K.hipMemcpyHostToDevice),
    lambda d, h, n, s: hip.hipMemcpyAsync(d, h, n, K.hipMemcpyDefault, s),
    lambda d, h, n, s: hip.hipMemcpyWithStream(d, h, n, K.hipMemcpyHostToDevice, s),
    lambda d, h, n, s: hip.hipMemcpyHtoD(d, h, n),
    lambda d, h, n, s: hip.hipMemcpyHtoDAsync(d, h, n, s),
    lambda d, h, n, s: hip.hipMemcpyDtoD(d, int(d) - 64, n),  # a source starting 64 bytes before the end
    lambda d, h, n, s: hip.hipMemcpyDtoDAsync(int(d) - 64, d, n, s),
], ids=["hipMemcpy", "hipMemcpyAsync", "hipMemcpyWithStream", "HtoD", "HtoDAsync", "DtoD", "DtoDAsync"])
def test_1d_copies_past_an_allocation_are_invalid_values(call, mem, stream):
    whole = mem.device(256, SENTINEL)
    d = int(whole) + 64  # 192 bytes left in the allocation
    host = np.arange(256, dtype=np.uint8)
    assert call(d, host, 193, stream) == (E.hipErrorInvalidValue,)
    assert "run past" in str(last_exception())
    check(hip.hipDeviceSynchronize())
    assert (device_bytes(whole, 256) == SENTINEL).all()  # nothing written
    check(call(d, host, 64, stream))  # in bounds: copied
    check(hip.hipDeviceSynchronize())


def test_1d_copy_checks_in_hips_order(mem, stream):
    d = mem.device(64, SENTINEL)
    out = np.zeros(64, np.uint8)
    # a zero size is success whatever the pointers
    assert hip.hipMemcpy(None, None, 0, K.hipMemcpyHostToDevice) == (E.hipSuccess,)
    assert hip.hipMemcpyAsync(None, 0x1234, 0, K.hipMemcpyDefault, stream) == (E.hipSuccess,)
    assert hip.hipMemcpyDtoH(None, d, 0) == (E.hipSuccess,)
    # NULL, then the sizes, then two pageable sides with a kind naming the device
    assert hip.hipMemcpy(None, d, 8, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    assert hip.hipMemcpy(out, None, 8, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    assert hip.hipMemcpy(out, d, 65, K.hipMemcpyDeviceToHost) == (E.hipErrorInvalidValue,)
    assert hip.hipMemcpy(out, np.ones(64, np.uint8), 8, K.hipMemcpyDeviceToDevice) == (E.hipErrorInvalidValue,)
    assert hip.hipMemcpyDtoH(out, np.ones(64, np.uint8), 8) == (E.hipErrorInvalidValue,)
    assert not out.any()
    check(hip.hipMemcpy(out, np.ones(64, np.uint8), 8, K.hipMemcpyHostToHost))
    assert out[:8].all() and not out[8:].any()
    # a destroyed stream comes first for the asynchronous copies
    dead = check(hip.hipStreamCreate())
    check(hip.hipStreamDestroy(dead))
    assert hip.hipMemcpyAsync(out, d, 0, K.hipMemcpyDefault, dead) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipMemcpyDtoHAsync(out, d, 8, dead) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipMemcpyWithStream(out, d, 8, K.hipMemcpyDefault, dead) == (E.hipErrorContextIsDestroyed,)
    # a default copy onto itself copies nothing, successfully
    check(hip.hipMemcpy(d, d, 64, K.hipMemcpyDefault))


def test_copies_to_registered_memory_are_bounded_by_its_range(mem):
    d = mem.device(64, SENTINEL)
    buf = np.zeros(64, np.uint8)
    check(hip.hipHostRegister(buf, 32, hip.hipHostRegisterDefault))
    try:
        assert hip.hipMemcpy(buf, d, 33, K.hipMemcpyDeviceToHost) == (E.hipErrorInvalidValue,)
        assert not buf.any()
        check(hip.hipMemcpy(buf, d, 32, K.hipMemcpyDeviceToHost))
        assert (buf[:32] == SENTINEL).all() and not buf[32:].any()
        # registered memory is the runtime's: it can be filled, within its range
        assert hip.hipMemset(buf, 7, 33) == (E.hipErrorInvalidValue,)
        check(hip.hipMemset(int(buf.ctypes.data) + 8, 7, 16))
        check(hip.hipMemsetD16(buf, 0x0102, 4))
        np.testing.assert_array_equal(buf[:24], [2, 1] * 4 + [7] * 16)
        assert (buf[24:32] == SENTINEL).all() and not buf[32:].any()
    finally:
        check(hip.hipHostUnregister(buf))


@pytest.mark.parametrize("fn", ["hipMemset", "hipMemsetAsync", "hipMemsetD8", "hipMemsetD16Async", "hipMemsetD32"])
def test_1d_fills_checks(fn, mem, stream):
    itemsize = {"hipMemset": 1, "hipMemsetAsync": 1, "hipMemsetD8": 1, "hipMemsetD16Async": 2,
                "hipMemsetD32": 4}[fn]
    tail = (stream,) if fn.endswith("Async") else ()
    d = mem.device(64, SENTINEL)
    call = getattr(hip, fn)
    assert call(None, 1, 0, *tail) == (E.hipSuccess,)  # nothing to fill
    assert call(None, 1, 4, *tail) == (E.hipErrorInvalidValue,)
    assert call(np.zeros(64, np.uint8), 1, 4, *tail) == (E.hipErrorInvalidValue,)  # pageable memory
    assert call(int(d) + 8, 1, 56 // itemsize + 1, *tail) == (E.hipErrorInvalidValue,)  # one item past the end
    gone = check(hip.hipMalloc(64))
    check(hip.hipFree(gone))
    assert call(gone, 1, 4, *tail) == (E.hipErrorInvalidValue,)  # freed memory is no memory
    check(hip.hipDeviceSynchronize())
    assert (device_bytes(d, 64) == SENTINEL).all()
    check(call(int(d) + 8, 1, 56 // itemsize, *tail))
    check(hip.hipDeviceSynchronize())
    expected = np.full(64, SENTINEL, np.uint8)
    expected[8:] = np.full(56 // itemsize, 1, f"<u{itemsize}").view(np.uint8)
    np.testing.assert_array_equal(device_bytes(d, 64), expected)


# --- 2D copies and fills ------------------------------------------------------------------------------------


def test_2d_copies_check_the_sides_a_kind_names(mem, stream):
    d, pitch = check(hip.hipMallocPitch(64, 4))
    try:
        a, b = np.arange(256, dtype=np.uint8), np.zeros(256, np.uint8)
        # a side the kind names device memory must be memory of the runtime (HIP's ihipMemcpyHtoDValidate)
        assert hip.hipMemcpy2D(b, 64, a, 64, 64, 4, K.hipMemcpyHostToDevice) == (E.hipErrorInvalidValue,)
        assert hip.hipMemcpy2D(b, 64, a, 64, 64, 4, K.hipMemcpyDeviceToHost) == (E.hipErrorInvalidValue,)
        assert not b.any()
        check(hip.hipMemcpy2D(b, 64, a, 64, 64, 4, K.hipMemcpyHostToHost))
        np.testing.assert_array_equal(b, a)
        check(hip.hipMemcpy2D(d, pitch, a, 64, 64, 4, K.hipMemcpyHostToDevice))
        # memory of the runtime is copied as device memory whatever the kind says
        pinned = mem.pinned(256)
        check(hip.hipMemcpy2D(pinned, 64, d, pitch, 64, 4, K.hipMemcpyHostToHost))
        np.testing.assert_array_equal(np.ctypeslib.as_array((ctypes.c_ubyte * 256).from_address(int(pinned))), a)
        # a destroyed stream is an invalid value for the 2D copies (hipMemcpy2DValidateParams), before the sizes
        dead = check(hip.hipStreamCreate())
        check(hip.hipStreamDestroy(dead))
        assert hip.hipMemcpy2DAsync(d, pitch, a, 64, 0, 0, K.hipMemcpyDefault, dead) == (E.hipErrorInvalidValue,)
        # a region past the allocation: the start offset counts
        assert hip.hipMemcpy2D(int(d) + 193, pitch, a, 64, 64, 4, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
        check(hip.hipMemcpy2D(int(d) + 192, pitch, a, 64, 64, 4, K.hipMemcpyDefault))  # the last byte fits
        check(hip.hipMemcpy2D(d, pitch, a, 64, 64, 4, K.hipMemcpyDefault))
        out = np.zeros((4, pitch), np.uint8)
        check(hip.hipMemcpy2DAsync(out, pitch, d, pitch, 64, 4, K.hipMemcpyDefault, stream))
        np.testing.assert_array_equal(out[:, :64], a.reshape(4, 64))
    finally:
        check(hip.hipFree(d))


def test_2d_fills_are_hips_3d_fill_of_one_slice(mem):
    d = mem.device(1000, SENTINEL)
    # width * height must fit from the pointer on; rows past the end with a larger pitch are left to the fill
    assert hip.hipMemset2D(int(d) + 600, 100, 1, 100, 5) == (E.hipErrorInvalidValue,)
    assert hip.hipMemset2D(d, 99, 1, 100, 2) == (E.hipErrorInvalidValue,)  # pitch below the width
    assert hip.hipMemset2D(d, 0, 1, 0, 5) == (E.hipSuccess,)
    assert (device_bytes(d, 1000) == SENTINEL).all()
    check(hip.hipMemset2D(d, 100, 3, 100, 10))  # pitch == width: one run of width * height bytes
    assert (device_bytes(d, 1000) == 3).all()


# --- streams: hip::isValid and each function's status -------------------------------------------------------


def test_destroyed_stream_statuses(dead):
    D = E.hipErrorContextIsDestroyed
    ev = check(hip.hipEventCreate())
    try:
        assert hip.hipStreamSynchronize(dead) == (D,)
        assert hip.hipStreamQuery(dead) == (D,)
        assert hip.hipStreamGetFlags(dead) == (D, None)
        assert hip.hipStreamGetPriority(dead) == (D, None)
        assert hip.hipStreamGetDevice(dead) == (D, None)
        assert hip.hipStreamDestroy(dead) == (D,)
        assert hip.hipLaunchHostFunc(dead, print, None) == (D,)
        assert hip.hipLaunchHostFunc(dead, None, None) == (E.hipErrorInvalidValue,)  # fn is checked first
        assert hip.hipStreamAddCallback(dead, lambda *a: None, None, 0) == (D,)
        assert hip.hipEventRecord(ev, dead) == (D,)
        assert hip.hipStreamWaitEvent(dead, ev, 0) == (E.hipErrorInvalidHandle,)  # HIP's own status there
        assert hip.hipStreamSynchronize(0x1234) == (D,)  # never a stream
        # NULL: an invalid value for the flags, priority 0, not destroyable; the per-thread stream is valid
        assert hip.hipStreamGetFlags(None) == (E.hipErrorInvalidValue, None)
        assert hip.hipStreamGetPriority(None) == (E.hipSuccess, 0)
        assert hip.hipStreamDestroy(None) == (E.hipErrorInvalidHandle,)
        assert hip.hipStreamDestroy(hip.hipStreamPerThread) == (E.hipErrorInvalidResourceHandle,)
        assert hip.hipStreamSynchronize(hip.hipStreamPerThread) == (E.hipSuccess,)
        assert hip.hipEventRecord(None, None) == (E.hipErrorInvalidHandle,)
        assert hip.hipStreamWaitEvent(None, None, 0) == (E.hipErrorInvalidHandle,)
    finally:
        check(hip.hipEventDestroy(ev))


def test_stream_wait_event_flags(stream):
    ev = check(hip.hipEventCreate())
    other = check(hip.hipStreamCreate())
    try:
        check(hip.hipEventRecord(ev, stream))
        assert hip.hipStreamWaitEvent(other, ev, 1) == (E.hipErrorInvalidValue,)
        check(hip.hipStreamWaitEvent(other, ev, 0))
        # the event's stream is gone: HIP takes its work as done, whatever the flags
        check(hip.hipEventRecord(ev, other))
        check(hip.hipStreamDestroy(other))
        other = None
        check(hip.hipStreamWaitEvent(stream, ev, 1))
        check(hip.hipStreamSynchronize(stream))
    finally:
        if other is not None:
            check(hip.hipStreamDestroy(other))
        check(hip.hipEventDestroy(ev))


# --- events ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("flags", "ok"), [
    (hip.hipEventDefault, True), (hip.hipEventBlockingSync | hip.hipEventDisableTiming, True),
    (hip.hipEventInterprocess | hip.hipEventDisableTiming, True), (hip.hipEventInterprocess, False),
    (hip.hipEventReleaseToDevice, True), (0x20000000, True),  # hipEventDisableSystemFence
    (hip.hipEventReleaseToDevice | hip.hipEventReleaseToSystem, False),
    (0x20000000 | hip.hipEventReleaseToSystem, False),
    (0x8, False), (0x10000000, False),
])
def test_event_flags(flags, ok):
    err, ev = hip.hipEventCreateWithFlags(flags)
    assert err == (E.hipSuccess if ok else E.hipErrorInvalidValue)
    if ok:
        check(hip.hipEventDestroy(ev))


def test_event_destroy_statuses_and_last_error():
    ev = check(hip.hipEventCreate())
    check(hip.hipEventDestroy(ev))
    hip.hipGetLastError()
    assert hip.hipEventDestroy(ev) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipGetLastError() == (E.hipSuccess,)  # returned bare by HIP: not the last error
    assert hip.hipEventDestroy(None) == (E.hipErrorInvalidHandle,)
    assert hip.hipGetLastError() == (E.hipErrorInvalidHandle,)


def test_events_and_streams_of_two_devices(configure):
    configure(count=2)
    e0 = check(hip.hipEventCreate())
    check(hip.hipSetDevice(1))
    s1, e1 = check(hip.hipStreamCreate()), check(hip.hipEventCreate())
    check(hip.hipSetDevice(0))
    try:
        assert hip.hipEventRecord(e0, s1) == (E.hipErrorInvalidHandle,)  # an event of device 0, a stream of 1
        check(hip.hipEventRecord(e1, s1))
        check(hip.hipEventRecord(e0, None))
        check(hip.hipDeviceSynchronize())
        check(hip.hipStreamSynchronize(s1))
        assert hip.hipEventElapsedTime(e0, e1) == (E.hipErrorInvalidHandle, None)
        assert check(hip.hipEventElapsedTime(e0, e0)) == 0.0
    finally:
        for ev in (e0, e1):
            check(hip.hipEventDestroy(ev))
        check(hip.hipStreamDestroy(s1))


# --- allocations, frees, host memory, device queries ---------------------------------------------------------


def test_allocation_flags():
    assert hip.hipMallocManaged(0, hip.hipMemAttachGlobal) == (E.hipErrorInvalidValue, None)
    assert hip.hipMallocManaged(16, hip.hipMemAttachSingle) == (E.hipErrorInvalidValue, None)
    both = hip.hipHostMallocCoherent | hip.hipHostMallocNonCoherent
    assert hip.hipHostMalloc(16, both) == (E.hipErrorInvalidValue, None)
    assert hip.hipHostMalloc(0, both) == (E.hipSuccess, None)  # a zero size comes first
    assert hip.hipHostAlloc(16, 8) == (E.hipErrorInvalidValue, None)
    assert hip.hipHostAlloc(0, 8) == (E.hipErrorInvalidValue, None)  # hipHostAlloc's bound comes first
    assert hip.hipExtMallocWithFlags(16, 5) == (E.hipErrorInvalidValue, None)
    assert hip.hipExtMallocWithFlags(16, hip.hipMallocSignalMemory) == (E.hipErrorInvalidValue, None)
    made = [check(hip.hipHostAlloc(16, hip.hipHostMallocMapped)), check(hip.hipExtMallocWithFlags(16, 3)),
            check(hip.hipExtMallocWithFlags(8, hip.hipMallocSignalMemory)),
            check(hip.hipMallocManaged(16, hip.hipMemAttachHost))]
    assert check(hip.hipHostGetFlags(made[0])) == hip.hipHostMallocMapped
    assert check(hip.hipHostGetFlags(made[2])) == hip.hipMallocSignalMemory  # fine-grained: HIP answers
    assert hip.hipHostGetFlags(made[1]) == (E.hipErrorInvalidValue, None)
    for p in made:
        check(hip.hipFree(p))


def test_frees_free_any_memory_of_the_runtime():
    live = address_space.live_count
    pinned, device = check(hip.hipHostMalloc(64, 0)), check(hip.hipMalloc(64))
    check(hip.hipFree(pinned))  # HIP's hipFree and hipHostFree are both its ihipFree
    check(hip.hipHostFree(device))
    assert address_space.live_count == live
    for free in (hip.hipFree, hip.hipHostFree):
        assert free(pinned) == (E.hipErrorInvalidValue,)  # freed: no memory object
        assert free(0x1234) == (E.hipErrorInvalidValue,)
        assert free(np.zeros(4)) == (E.hipErrorInvalidValue,)
        assert free(None) == (E.hipSuccess,)


def test_host_get_device_pointer(mem):
    d, p = mem.device(64, SENTINEL), mem.pinned(64)
    assert hip.hipHostGetDevicePointer(p, 1) == (E.hipErrorInvalidValue, None)
    assert int(check(hip.hipHostGetDevicePointer(p, 0))) == int(p)
    assert int(check(hip.hipHostGetDevicePointer(d, 0))) == int(d)  # device memory is a memory object too
    gone = check(hip.hipMalloc(64))
    check(hip.hipFree(gone))
    assert hip.hipHostGetDevicePointer(gone, 0) == (E.hipErrorInvalidValue, None)
    assert hip.hipHostGetDevicePointer(np.zeros(4), 0) == (E.hipErrorInvalidValue, None)


def test_device_name_length():
    name = rocmath.get_device_properties(0).name.encode()
    assert hip.hipDeviceGetName(0, 0) == (E.hipErrorInvalidValue, None)
    assert hip.hipDeviceGetName(-3, 0) == (E.hipErrorInvalidValue, None)
    assert hip.hipDeviceGetName(0, 9) == (E.hipErrorInvalidDevice, None)  # the device comes first
    assert check(hip.hipDeviceGetName(1, 0)) == b""
    assert check(hip.hipDeviceGetName(4, 0)) == name[:3]
    assert check(hip.hipDeviceGetName(len(name) + 10, 0)) == name


# --- memory pools and the runtime's synchronizations ----------------------------------------------------------


def pool_bytes(pool, a):
    v = ctypes.c_uint64()
    check(hip.hipMemPoolGetAttribute(pool, a, v))
    return v.value


def test_runtime_synchronizations_release_freed_pool_blocks(stream):
    pool = check(hip.hipDeviceGetDefaultMemPool(0))
    base = pool_bytes(pool, A.hipMemPoolAttrReservedMemCurrent)
    s = hip.as_stream(stream)
    for sync in (rocmath.device_synchronize, s.synchronize):
        p = check(hip.hipMallocAsync(4096, stream))
        check(hip.hipFreeAsync(p, stream))
        assert pool_bytes(pool, A.hipMemPoolAttrReservedMemCurrent) == base + 4096
        sync()  # rocmath's own, not a HIP call
        assert pool_bytes(pool, A.hipMemPoolAttrReservedMemCurrent) == base


def test_configure_releases_a_pools_cached_blocks(configure):
    configure(count=1)
    live = address_space.live_count
    pool = check(hip.hipDeviceGetDefaultMemPool(0))
    check(hip.hipMemPoolSetAttribute(pool, A.hipMemPoolAttrReleaseThreshold, ctypes.c_uint64(1 << 20)))
    p = check(hip.hipMallocAsync(4096, None))
    check(hip.hipFreeAsync(p, None))
    check(hip.hipDeviceSynchronize())  # below the threshold: the pool keeps the block
    assert pool_bytes(pool, A.hipMemPoolAttrReservedMemCurrent) == 4096
    assert address_space.live_count == live + 1
    configure(count=1)  # the cached block does not count as a live allocation
    assert address_space.live_count == 0


def test_device_reset_resets_pools_streams_and_flags(configure):
    configure(count=1)
    live = address_space.live_count
    default = check(hip.hipDeviceGetDefaultMemPool(0))
    props = hip.hipMemPoolProps(allocType=hip.hipMemAllocationType.hipMemAllocationTypePinned,
                                handleTypes=hip.hipMemAllocationHandleType.hipMemHandleTypeNone)
    props.location.type = hip.hipMemLocationType.hipMemLocationTypeDevice
    props.location.id = 0
    mine = check(hip.hipMemPoolCreate(props))
    s = check(hip.hipStreamCreate())
    check(hip.hipMallocFromPoolAsync(1024, mine, s))  # in use at the reset: HIP frees it too
    freed = check(hip.hipMallocAsync(2048, s))
    check(hip.hipFreeAsync(freed, s))
    check(hip.hipMemPoolSetAttribute(default, A.hipMemPoolAttrReleaseThreshold, ctypes.c_uint64(1 << 20)))
    check(hip.hipSetDeviceFlags(hip.hipDeviceScheduleYield))
    assert address_space.live_count == live + 2
    check(hip.hipDeviceReset())
    assert address_space.live_count == live
    assert hip.hipMemPoolGetAttribute(mine, A.hipMemPoolAttrUsedMemCurrent, ctypes.c_uint64())[0] == \
        E.hipErrorInvalidValue  # the pools are gone
    fresh = check(hip.hipDeviceGetDefaultMemPool(0))
    assert int(fresh) != int(default) and int(check(hip.hipDeviceGetMemPool(0))) == int(fresh)
    assert pool_bytes(fresh, A.hipMemPoolAttrReleaseThreshold) == 0
    assert hip.hipStreamSynchronize(s) == (E.hipErrorContextIsDestroyed,)
    assert check(hip.hipGetDeviceFlags()) == hip.hipDeviceScheduleSpin
    check(hip.hipStreamSynchronize(hip.hipStreamPerThread))  # made anew


def test_a_failed_call_keeps_no_argument_alive():
    """last_exception keeps the failure's message, not the call's frames: a device array given to a
    failing call is freed when the program drops it (its frames held it until the next failure)."""
    before = address_space.live_count
    a = rocmath.empty(4)
    try:
        raise ValueError("an earlier error, the failure's context")
    except ValueError:
        assert hip.hipMemset(a, 0, 10**6) == (E.hipErrorInvalidValue,)
    exc = last_exception()
    assert "run past" in str(exc) and exc.__traceback__ is None
    assert exc.__context__ is not None and exc.__context__.__traceback__ is None
    del a
    check(hip.hipDeviceSynchronize())
    assert address_space.live_count == before
