"""rocmath.hip.hip's runtime API beyond the basics (rocmath.hip._hip_runtime2): the per-thread default stream and
the ``_spt`` functions, stream-ordered memory pools, 3D and parameter-struct copies and fills, contexts, device
queries, errors, pointer attributes, stream memory operations, managed-range attributes and IPC handles.

Copies and fills are checked against NumPy slicing with the bytes outside the region left untouched; statuses in
the AMD runtime's (hipamd/src) order.
"""

from __future__ import annotations

import ctypes
import gc
import inspect
import os
import threading
import time

import numpy as np
import pytest
from hip_util import check, hip_clean_state  # noqa: F401 - the fixture, used by pytestmark

import rocmath
from rocmath.hip import _hip_runtime2 as r2
from rocmath.hip import hip
from rocmath.memory import address_space

E = hip.hipError_t
K = hip.hipMemcpyKind
A = hip.hipMemPoolAttr
SENTINEL = 0x5A

pytestmark = pytest.mark.usefixtures("hip_clean_state")


def status(result):
    return result[0]


def upload(a, mem):
    d = mem.device(a.nbytes)
    check(hip.hipMemcpy(d, a, a.nbytes, K.hipMemcpyHostToDevice))
    return d


def download(d, nbytes):
    out = np.empty(nbytes, np.uint8)
    check(hip.hipMemcpy(out, d, nbytes, K.hipMemcpyDeviceToHost))
    return out


def download_on(stream, d, nbytes):
    """``download`` ordered on ``stream`` only (the null stream would wait for every blocking stream)."""
    out = np.empty(nbytes, np.uint8)
    check(hip.hipMemcpyAsync(out, d, nbytes, K.hipMemcpyDeviceToHost, stream))
    return out


class Gate:
    """A host function that holds its stream until released (later work on the stream waits)."""

    def __init__(self):
        self.event = threading.Event()

    def __call__(self, _data=None):
        assert self.event.wait(10), "gate never opened"

    def open(self):
        self.event.set()


# --- the per-thread default stream -------------------------------------------------------------------------------


def test_per_thread_stream_is_a_blocking_stream_per_thread_and_device():
    mine = hip.as_stream(hip.hipStreamPerThread)
    assert mine is hip.as_stream(hip.hipStreamPerThread) and not mine.is_null and not mine.non_blocking
    assert hip.hipStreamGetFlags(hip.hipStreamPerThread) == (E.hipSuccess, hip.hipStreamDefault)
    assert hip.hipStreamGetPriority(hip.hipStreamPerThread) == (E.hipSuccess, 0)
    assert hip.hipGetStreamDeviceId(hip.hipStreamPerThread) == (E.hipSuccess, 0)
    theirs = []
    t = threading.Thread(target=lambda: theirs.append(hip.as_stream(hip.hipStreamPerThread)))
    t.start()
    t.join()
    assert theirs[0] is not mine and not theirs[0].is_null
    # hipStreamDestroy refuses it (HIP: hipErrorInvalidResourceHandle, 400), as it refuses NULL
    assert hip.hipStreamDestroy(hip.hipStreamPerThread) == (E.hipErrorInvalidResourceHandle,)
    assert hip.hipStreamDestroy(None) == (E.hipErrorInvalidHandle,)
    # destroyed through a handle of it (a library's GetStream gives one), it is made anew
    check(hip.hipStreamDestroy(hip.wrap_stream(mine)))
    assert hip.as_stream(hip.hipStreamPerThread) is not mine
    assert hip.as_stream(None).is_null and hip.as_stream(hip.hipStreamLegacy).is_null


def test_per_thread_streams_of_two_threads_are_independent_and_ordered_with_the_null_stream(mem):
    gate = Gate()
    check(hip.hipLaunchHostFunc(hip.hipStreamPerThread, gate, None))
    d = mem.device(64)
    other = {}

    def in_other_thread():
        # the other thread's per-thread stream does not wait for this thread's (held) one
        check(hip.hipMemsetAsync_spt(d, 7, 64, None))
        out = np.zeros(64, np.uint8)
        check(hip.hipMemcpy_spt(out, d, 64, K.hipMemcpyDeviceToHost))
        other["read"] = out

    t = threading.Thread(target=in_other_thread)
    t.start()
    t.join(10)
    np.testing.assert_array_equal(other["read"], 7)
    # null-stream work waits for the held blocking stream; the per-thread stream then waits for it
    check(hip.hipMemsetAsync(d, 1, 64, None))
    check(hip.hipMemsetAsync_spt(d, 2, 32, hip.hipStreamLegacy))
    assert status(hip.hipStreamQuery(None)) == E.hipErrorNotReady
    assert status(hip.hipStreamQuery_spt(None)) == E.hipErrorNotReady
    gate.open()
    check(hip.hipStreamSynchronize_spt(hip.hipStreamLegacy))
    np.testing.assert_array_equal(download(d, 64), [2] * 32 + [1] * 32)


def test_spt_functions_use_the_per_thread_stream(mem, stream):
    a = np.arange(256, dtype=np.uint8)
    d = mem.device(256)
    gate = Gate()
    check(hip.hipStreamAddCallback_spt(None, lambda *_: gate(), None, 0))
    event = check(hip.hipEventCreate())
    check(hip.hipEventRecord_spt(event, None))
    assert status(hip.hipEventQuery(event)) == E.hipErrorNotReady
    # a stream waiting for that event waits for the per-thread stream
    check(hip.hipStreamWaitEvent_spt(stream, event, 0))
    check(hip.hipMemsetAsync(d, 3, 256, stream))
    assert status(hip.hipStreamQuery(stream)) == E.hipErrorNotReady
    gate.open()
    check(hip.hipEventSynchronize(event))
    check(hip.hipStreamSynchronize(stream))
    np.testing.assert_array_equal(download(d, 256), 3)
    check(hip.hipEventDestroy(event))
    # the synchronous _spt functions: the work on the per-thread stream, waited for
    check(hip.hipMemcpy_spt(d, a, 256, K.hipMemcpyHostToDevice))
    out = np.zeros(256, np.uint8)
    check(hip.hipMemcpy_spt(out, d, 256, K.hipMemcpyDeviceToHost))
    np.testing.assert_array_equal(out, a)
    check(hip.hipMemset_spt(d, 9, 100))
    np.testing.assert_array_equal(download(d, 256), np.r_[np.full(100, 9), a[100:]])
    check(hip.hipMemset2D_spt(d, 64, 4, 16, 3))
    check(hip.hipMemcpy2D_spt(out, 32, d, 64, 16, 3, K.hipMemcpyDeviceToHost))
    assert (out[:80].reshape(-1, 16)[[0, 2, 4]] == 4).all()
    check(hip.hipMemcpyAsync_spt(out, d, 256, K.hipMemcpyDeviceToHost, None))
    check(hip.hipMemcpy2DAsync_spt(d, 16, a, 16, 16, 2, K.hipMemcpyHostToDevice, None))
    check(hip.hipMemset2DAsync_spt(d, 16, 0, 8, 1, None))
    check(hip.hipStreamSynchronize_spt(None))
    np.testing.assert_array_equal(download(d, 32), np.r_[np.zeros(8), a[8:32]])
    assert hip.hipStreamGetFlags_spt(None) == (E.hipSuccess, 0)  # NULL is the per-thread stream here
    assert hip.hipStreamGetPriority_spt(None) == (E.hipSuccess, 0)
    called = []
    check(hip.hipLaunchHostFunc_spt(None, called.append, 5))
    check(hip.hipStreamSynchronize_spt(None))
    assert called == [5]
    # bad arguments give the plain function's statuses
    assert status(hip.hipMemcpy_spt(d, a, 257, K.hipMemcpyHostToDevice)) != E.hipSuccess
    assert hip.hipStreamSynchronize_spt(0x1234) == (E.hipErrorContextIsDestroyed,)


# --- stream-ordered memory pools ---------------------------------------------------------------------------------


def attr(pool, a):
    v = ctypes.c_int32() if a <= A.hipMemPoolReuseAllowInternalDependencies else ctypes.c_uint64()
    check(hip.hipMemPoolGetAttribute(pool, a, v))
    return v.value


def set_attr(pool, a, value):
    v = ctypes.c_int32(value) if a <= A.hipMemPoolReuseAllowInternalDependencies else ctypes.c_uint64(value)
    return hip.hipMemPoolSetAttribute(pool, a, v)


def counters(pool):
    return tuple(attr(pool, a) for a in (A.hipMemPoolAttrUsedMemCurrent, A.hipMemPoolAttrReservedMemCurrent,
                                         A.hipMemPoolAttrUsedMemHigh, A.hipMemPoolAttrReservedMemHigh))


@pytest.fixture
def pool():
    """The default pool, counters reset, reuse policies and threshold restored after."""
    p = check(hip.hipDeviceGetDefaultMemPool(0))
    check(set_attr(p, A.hipMemPoolAttrUsedMemHigh, 0))
    check(set_attr(p, A.hipMemPoolAttrReservedMemHigh, 0))
    yield p
    rocmath.device_synchronize()
    for a, v in ((A.hipMemPoolReuseFollowEventDependencies, 1), (A.hipMemPoolReuseAllowOpportunistic, 1),
                 (A.hipMemPoolAttrReleaseThreshold, 0)):
        check(set_attr(p, a, v))
    check(hip.hipMemPoolTrimTo(p, 0))


def test_pool_reuses_freed_blocks_on_the_freeing_stream_and_counts_them(pool, stream):
    assert int(check(hip.hipDeviceGetMemPool(0))) == int(pool)
    free0 = check(hip.hipMemGetInfo())[0]
    p = check(hip.hipMallocAsync(1000, stream))
    assert p.size == 1000 and counters(pool) == (1000, 1000, 1000, 1000)
    assert check(hip.hipMemGetInfo())[0] == free0 - 1000
    check(hip.hipFreeAsync(p, stream))
    assert counters(pool) == (0, 1000, 1000, 1000)  # freed, still reserved by the pool
    q = check(hip.hipMallocAsync(900, stream))  # reused on its stream
    assert int(q) == int(p) and counters(pool) == (1000, 1000, 1000, 1000)
    r = check(hip.hipMallocAsync(1000, stream))  # the block is in use: a new one
    assert int(r) != int(p) and counters(pool) == (2000, 2000, 2000, 2000)
    a = np.arange(1000, dtype=np.uint8)
    # The reused block is cut to the 900 bytes asked for: its last 100 are past the allocation's end (a real
    # device would let the write into the block's slack).
    assert status(hip.hipMemcpyAsync(q, a, 1000, K.hipMemcpyHostToDevice, stream)) == E.hipErrorInvalidValue
    check(hip.hipMemcpyAsync(q, a, 900, K.hipMemcpyHostToDevice, stream))
    check(hip.hipStreamSynchronize(stream))
    np.testing.assert_array_equal(download(q, 900), a[:900])
    check(hip.hipFreeAsync(q, stream))
    check(hip.hipFreeAsync(r, stream))
    check(hip.hipStreamSynchronize(stream))  # release threshold 0: the freed blocks go back to the device
    assert counters(pool) == (0, 0, 2000, 2000)
    assert check(hip.hipMemGetInfo())[0] == free0
    assert status(hip.hipMemcpy(a, p, 1000, K.hipMemcpyDeviceToHost)) == E.hipErrorInvalidValue  # given back
    check(set_attr(pool, A.hipMemPoolAttrUsedMemHigh, 0))
    check(set_attr(pool, A.hipMemPoolAttrReservedMemHigh, 0))
    assert counters(pool) == (0, 0, 0, 0)
    assert hip.hipMallocAsync(0, stream) == (E.hipSuccess, None)


def test_hipfree_of_a_pool_block_with_broken_guards_reports_it_and_the_pool_takes_it_back(pool, stream):
    free0 = check(hip.hipMemGetInfo())[0]
    p = check(hip.hipMallocAsync(1000, stream))
    check(hip.hipStreamSynchronize(stream))
    alloc = address_space.find(int(p))
    alloc._raw[alloc._start + 1000] = 0  # what a kernel writing one byte past the end would leave
    assert status(hip.hipFree(p)) == E.hipErrorIllegalAddress
    assert counters(pool)[:2] == (0, 1000)  # back in the pool, which gives it back at the next synchronize
    check(hip.hipDeviceSynchronize())
    assert counters(pool)[:2] == (0, 0) and check(hip.hipMemGetInfo())[0] == free0


def test_pool_attribute_errors(pool):
    assert set_attr(pool, A.hipMemPoolAttrUsedMemHigh, 5) == (E.hipErrorInvalidValue,)
    assert set_attr(pool, A.hipMemPoolAttrReservedMemHigh, 1) == (E.hipErrorInvalidValue,)
    assert set_attr(pool, A.hipMemPoolAttrUsedMemCurrent, 0) == (E.hipErrorInvalidValue,)
    assert set_attr(pool, A.hipMemPoolAttrReservedMemCurrent, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolGetAttribute(None, A.hipMemPoolAttrUsedMemCurrent, ctypes.c_uint64()) == \
        (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolGetAttribute(pool, A.hipMemPoolAttrUsedMemCurrent, None) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolSetAttribute(0x1234, A.hipMemPoolAttrReleaseThreshold, ctypes.c_uint64()) == \
        (E.hipErrorInvalidValue,)
    with pytest.raises(TypeError):
        hip.hipMemPoolGetAttribute(pool, 4, ctypes.c_uint64())
    check(set_attr(pool, A.hipMemPoolReuseAllowOpportunistic, 2))  # one-bit fields: 2 reads 0
    assert attr(pool, A.hipMemPoolReuseAllowOpportunistic) == 0
    assert attr(pool, A.hipMemPoolReuseAllowInternalDependencies) == 1
    check(set_attr(pool, A.hipMemPoolAttrReleaseThreshold, 1 << 40))
    assert attr(pool, A.hipMemPoolAttrReleaseThreshold) == 1 << 40


def test_release_threshold_keeps_blocks_through_synchronizations_and_trim_frees_them(pool, stream):
    check(set_attr(pool, A.hipMemPoolAttrReleaseThreshold, 5000))
    ptrs = [check(hip.hipMallocAsync(n, stream)) for n in (1024, 2048, 4096)]
    for p in ptrs:
        check(hip.hipFreeAsync(p, stream))
    check(hip.hipDeviceSynchronize())  # the smallest blocks go until at most 5000 of the 7168 bytes remain
    assert counters(pool)[:2] == (0, 4096)
    check(hip.hipStreamSynchronize(stream))
    assert counters(pool)[:2] == (0, 4096)
    assert int(check(hip.hipMallocAsync(4096, stream))) == int(ptrs[2])  # still the pool's
    check(hip.hipFreeAsync(ptrs[2], stream))
    gate = Gate()
    check(hip.hipLaunchHostFunc(stream, gate, None))
    q = check(hip.hipMallocAsync(512, stream))  # on the freeing stream any larger block will do (as in HIP)
    assert int(q) == int(ptrs[2])
    check(hip.hipFreeAsync(q, stream))  # its free has not run: trimming keeps it
    check(hip.hipMemPoolTrimTo(pool, 0))
    assert counters(pool)[:2] == (0, 4096)
    gate.open()
    check(hip.hipStreamSynchronize(stream))
    assert counters(pool)[:2] == (0, 4096)  # below the threshold
    check(hip.hipMemPoolTrimTo(pool, 4096))
    assert counters(pool)[:2] == (0, 4096)
    check(hip.hipMemPoolTrimTo(pool, 0))
    assert counters(pool)[:2] == (0, 0)
    assert hip.hipMemPoolTrimTo(None, 0) == (E.hipErrorInvalidValue,)


def test_reuse_across_streams_follows_completion_and_event_dependencies(pool, stream):
    other = check(hip.hipStreamCreate())
    try:
        gate = Gate()
        check(hip.hipLaunchHostFunc(stream, gate, None))
        p = check(hip.hipMallocAsync(4096, stream))
        check(hip.hipFreeAsync(p, stream))  # its free waits behind the gate
        q = check(hip.hipMallocAsync(4096, other))  # no dependency on the free: a new block
        assert int(q) != int(p)
        check(hip.hipFreeAsync(q, other))
        check(hip.hipStreamSynchronize(other))
        event = check(hip.hipEventCreate())
        check(hip.hipEventRecord(event, stream))
        check(hip.hipStreamWaitEvent(other, event, 0))  # other now follows the freeing stream
        r = check(hip.hipMallocAsync(4096, other))
        assert int(r) == int(p)
        a = np.arange(4096, dtype=np.uint8)
        check(hip.hipMemcpyAsync(r, a, 4096, K.hipMemcpyHostToDevice, other))
        assert status(hip.hipStreamQuery(other)) == E.hipErrorNotReady
        gate.open()
        check(hip.hipStreamSynchronize(other))
        np.testing.assert_array_equal(download(r, 4096), a)
        check(hip.hipFreeAsync(r, other))
        check(hip.hipStreamSynchronize(other))
        # opportunistic reuse: a block whose free ran is taken by any stream, unless the policy is off
        s = check(hip.hipMallocAsync(4096, stream))
        check(hip.hipFreeAsync(s, stream))
        check(set_attr(pool, A.hipMemPoolAttrReleaseThreshold, 1 << 20))
        check(hip.hipStreamSynchronize(stream))
        check(set_attr(pool, A.hipMemPoolReuseAllowOpportunistic, 0))
        t = check(hip.hipMallocAsync(4096, other))
        assert int(t) != int(s)
        check(set_attr(pool, A.hipMemPoolReuseAllowOpportunistic, 1))
        u = check(hip.hipMallocAsync(4096, other))
        assert int(u) == int(s)
        v = check(hip.hipMallocAsync(100000, other))  # no block is large enough
        for x in (t, u, v):
            check(hip.hipFreeAsync(x, other))
        check(hip.hipStreamSynchronize(other))
        check(hip.hipMemPoolTrimTo(pool, 0))  # (those blocks are safe for `other`: any size would do)
        w = check(hip.hipMallocAsync(4096, stream))
        check(hip.hipFreeAsync(w, stream))
        check(hip.hipStreamSynchronize(stream))
        x = check(hip.hipMallocAsync(3000, other))  # 4096 > 9/8 * 3000: not taken opportunistically
        y = check(hip.hipMallocAsync(3700, other))
        assert int(x) != int(w) and int(y) == int(w)
        for z in (x, y):
            check(hip.hipFreeAsync(z, other))
        check(hip.hipEventDestroy(event))
    finally:
        check(hip.hipStreamDestroy(other))


def test_hipfree_and_hipfreeasync_of_either_kind_of_memory(pool, stream):
    live = address_space.live_count
    p = check(hip.hipMallocAsync(256, stream))
    check(hip.hipFree(p))  # a pool block goes back to its pool (after the device's work)
    assert counters(pool)[:2] == (0, 256)
    check(hip.hipDeviceSynchronize())
    assert counters(pool)[:2] == (0, 0)
    d = check(hip.hipMalloc(256))
    check(hip.hipFreeAsync(d, stream))  # not a pool's: freed as hipFree frees it
    assert address_space.live_count == live
    assert hip.hipFreeAsync(None, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipFreeAsync(np.zeros(4), stream) == (E.hipErrorInvalidValue,)
    q = check(hip.hipMallocAsync(256, stream))
    assert hip.hipFreeAsync(q, 0x1234) == (E.hipErrorInvalidHandle,)
    assert hip.hipMallocAsync(16, 0x1234) == (E.hipErrorInvalidHandle, None)
    check(hip.hipFreeAsync(q, stream))
    check(hip.hipStreamSynchronize(stream))
    assert hip.hipFreeAsync(q, stream) == (E.hipErrorInvalidValue,)  # freed memory is no memory


def props(device=0, handle=None, max_size=0, alloc=hip.hipMemAllocationType.hipMemAllocationTypePinned,
          where=hip.hipMemLocationType.hipMemLocationTypeDevice):
    p = hip.hipMemPoolProps(allocType=alloc, handleTypes=handle or hip.hipMemAllocationHandleType.hipMemHandleTypeNone,
                            maxSize=max_size)
    p.location.type = where
    p.location.id = device
    return p


def test_created_pools_limits_current_pool_and_destroy(stream):
    # Earlier tests' garbage first: a default-pool block freed by the collector mid-test changed the
    # counts, and a failure here left p and q live for every later test of the worker.
    gc.collect()
    check(hip.hipDeviceSynchronize())
    live = address_space.live_count
    mine = check(hip.hipMemPoolCreate(props(max_size=3000)))
    default = check(hip.hipDeviceGetDefaultMemPool(0))
    in_default = attr(default, A.hipMemPoolAttrUsedMemCurrent)
    p = check(hip.hipMallocFromPoolAsync(2000, mine, stream))
    q = None
    try:
        assert hip.hipMallocFromPoolAsync(1001, mine, stream) == (E.hipErrorOutOfMemory, None)  # maxSize
        assert attr(mine, A.hipMemPoolAttrUsedMemCurrent) == 2000
        assert attr(default, A.hipMemPoolAttrUsedMemCurrent) == in_default
        check(hip.hipDeviceSetMemPool(0, mine))
        assert int(check(hip.hipDeviceGetMemPool(0))) == int(mine)
        q = check(hip.hipMallocAsync(1000, stream))  # from the current pool
        assert attr(mine, A.hipMemPoolAttrUsedMemCurrent) == 3000
        check(hip.hipMemPoolDestroy(mine))  # blocks in use keep it alive; the default pool is current again
        assert int(check(hip.hipDeviceGetMemPool(0))) == int(default)
    finally:
        check(hip.hipFreeAsync(p, stream))
        if q is not None:
            check(hip.hipFreeAsync(q, stream))  # the last block: the pool is gone, its memory back to the device
        check(hip.hipStreamSynchronize(stream))
    assert address_space.live_count == live
    assert hip.hipMemPoolGetAttribute(mine, A.hipMemPoolAttrUsedMemCurrent, ctypes.c_uint64()) == \
        (E.hipErrorInvalidValue,)
    # statuses in HIP's order
    assert hip.hipMemPoolDestroy(default) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolDestroy(None) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolCreate(None) == (E.hipErrorInvalidValue, None)
    bad = hip.hipMemAllocationType.hipMemAllocationTypeInvalid
    assert hip.hipMemPoolCreate(props(alloc=bad)) == (E.hipErrorInvalidValue, None)
    assert hip.hipMemPoolCreate(props(where=hip.hipMemLocationType.hipMemLocationTypeInvalid)) == \
        (E.hipErrorInvalidValue, None)
    assert hip.hipMemPoolCreate(props(device=3)) == (E.hipErrorInvalidValue, None)
    assert hip.hipMallocFromPoolAsync(16, None, stream) == (E.hipErrorInvalidValue, None)
    assert hip.hipDeviceSetMemPool(0, None) == (E.hipErrorInvalidValue,)
    assert hip.hipDeviceSetMemPool(4, default) == (E.hipErrorInvalidValue,)
    assert hip.hipDeviceGetMemPool(-1) == (E.hipErrorInvalidValue, None)
    assert hip.hipDeviceGetDefaultMemPool(2) == (E.hipErrorInvalidDevice, None)


def test_pool_access(pool):
    flags = ctypes.c_int(-1)
    loc = hip.hipMemLocation(hip.hipMemLocationType.hipMemLocationTypeDevice, 0)
    check(hip.hipMemPoolGetAccess(flags, pool, loc))
    assert flags.value == hip.hipMemAccessFlags.hipMemAccessFlagsProtReadWrite
    rw = hip.hipMemAccessFlags.hipMemAccessFlagsProtReadWrite
    desc = hip.hipMemAccessDesc(flags=rw)
    desc.location.type, desc.location.id = hip.hipMemLocationType.hipMemLocationTypeDevice, 0
    check(hip.hipMemPoolSetAccess(pool, desc, 1))  # its own device: read-write stays
    assert hip.hipMemPoolSetAccess(pool, desc, 2) == (E.hipErrorInvalidDevice,)  # more entries than devices
    assert hip.hipMemPoolSetAccess(None, desc, 1) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolSetAccess(pool, None, 1) == (E.hipErrorInvalidValue,)
    desc.flags = hip.hipMemAccessFlags.hipMemAccessFlagsProtNone
    assert hip.hipMemPoolSetAccess(pool, desc, 1) == (E.hipErrorInvalidDevice,)
    desc.flags, desc.location.id = rw, 5
    assert hip.hipMemPoolSetAccess(pool, desc, 1) == (E.hipErrorInvalidDevice,)
    desc.location.type = hip.hipMemLocationType.hipMemLocationTypeInvalid
    assert hip.hipMemPoolSetAccess(pool, desc, 1) == (E.hipErrorInvalidValue,)
    loc.id = 1
    assert hip.hipMemPoolGetAccess(flags, pool, loc) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPoolGetAccess(flags, pool, None) == (E.hipErrorInvalidValue,)


def test_pool_shared_through_a_file_descriptor():
    posix = hip.hipMemAllocationHandleType.hipMemHandleTypePosixFileDescriptor
    shareable = check(hip.hipMemPoolCreate(props(handle=posix)))
    plain = check(hip.hipDeviceGetDefaultMemPool(0))
    try:
        check(set_attr(shareable, A.hipMemPoolReuseAllowOpportunistic, 0))
        fd = ctypes.c_int(-1)
        check(hip.hipMemPoolExportToShareableHandle(fd, shareable, posix, 0))
        again = ctypes.c_int(-1)
        check(hip.hipMemPoolExportToShareableHandle(again, shareable, posix, 0))
        assert fd.value > 2 and again.value == fd.value and os.fstat(fd.value).st_size > 0
        imported = check(hip.hipMemPoolImportFromShareableHandle(fd.value, posix, 0))
        assert attr(imported, A.hipMemPoolReuseAllowOpportunistic) == 0  # the exported state
        assert attr(imported, A.hipMemPoolReuseFollowEventDependencies) == 1
        check(hip.hipMemPoolDestroy(imported))
        assert hip.hipMemPoolExportToShareableHandle(fd, plain, posix, 0) == (E.hipErrorInvalidValue,)
        assert hip.hipMemPoolExportToShareableHandle(fd, shareable, posix, 1) == (E.hipErrorInvalidValue,)
        none = hip.hipMemAllocationHandleType.hipMemHandleTypeNone
        assert hip.hipMemPoolExportToShareableHandle(fd, shareable, none, 0) == (E.hipErrorInvalidValue,)
        assert hip.hipMemPoolImportFromShareableHandle(fd.value, none, 0) == (E.hipErrorInvalidValue, None)
        assert hip.hipMemPoolImportFromShareableHandle(None, posix, 0) == (E.hipErrorInvalidValue, None)
        r, w = os.pipe()
        try:
            assert hip.hipMemPoolImportFromShareableHandle(r, posix, 0) == (E.hipErrorOutOfMemory, None)
        finally:
            os.close(r)
            os.close(w)
    finally:
        check(hip.hipMemPoolDestroy(shareable))
    os.close(fd.value)


# --- 3D and parameter-struct copies and fills -------------------------------------------------------------------


def params(src, src_pitch, src_rows, src_pos, dst, dst_pitch, dst_rows, dst_pos, extent, kind=K.hipMemcpyDefault):
    p = hip.hipMemcpy3DParms(kind=kind)
    for ptr, pos, (obj, pitch, rows, at) in ((p.srcPtr, p.srcPos, (src, src_pitch, src_rows, src_pos)),
                                             (p.dstPtr, p.dstPos, (dst, dst_pitch, dst_rows, dst_pos))):
        ptr.ptr, ptr.pitch, ptr.xsize, ptr.ysize = obj, pitch, min(pitch, extent[0] + at[0]), rows
        pos.x, pos.y, pos.z = at
    p.extent.width, p.extent.height, p.extent.depth = extent
    return p


def malloc_3d(width, height, depth):
    out = hip.hipPitchedPtr()
    check(hip.hipMalloc3D(out, hip.hipExtent(width, height, depth)))
    return out


def test_malloc_3d():
    p = malloc_3d(100, 5, 3)
    try:
        assert p.pitch == 256 and (p.xsize, p.ysize) == (100, 5) and p.ptr
        assert check(hip.hipMemPtrGetInfo(p.ptr)) == 256 * 5 * 3
    finally:
        check(hip.hipFree(p.ptr))
    z = hip.hipPitchedPtr(ptr=0x1000, pitch=7)
    check(hip.hipMalloc3D(z, hip.hipExtent(0, 5, 3)))
    assert (int(z.ptr), z.pitch, z.xsize, z.ysize) == (0, 0, 0, 5)
    assert hip.hipMalloc3D(None, hip.hipExtent(1, 1, 1)) == (E.hipErrorInvalidValue,)


@pytest.mark.parametrize("on_stream", [False, True])
def test_memcpy_3d_boxes_match_numpy_slicing(on_stream, stream):
    rng = np.random.default_rng(5)
    host = rng.integers(0, 256, (4, 6, 40), dtype=np.uint8)  # depth 4, 6 rows of 40 bytes
    dev = malloc_3d(30, 5, 3)
    dev2 = malloc_3d(30, 5, 3)
    try:
        size = dev.pitch * 5 * 3
        check(hip.hipMemset(dev.ptr, SENTINEL, size))
        check(hip.hipMemset(dev2.ptr, SENTINEL, size))
        extent, src_pos, dst_pos = (17, 3, 2), (5, 2, 1), (9, 1, 1)
        to_dev = params(host, 40, 6, src_pos, dev.ptr, dev.pitch, 5, dst_pos, extent)
        # device to device, from dev's box to dev2 at the origin, then both read back whole
        between = params(dev.ptr, dev.pitch, 5, dst_pos, dev2.ptr, dev2.pitch, 5, (0, 0, 0), extent)
        if on_stream:
            check(hip.hipMemcpy3DAsync(to_dev, stream))
            check(hip.hipMemcpy3DAsync(between, stream))
            check(hip.hipStreamSynchronize(stream))
        else:
            check(hip.hipMemcpy3D(to_dev))
            check(hip.hipMemcpy3D(between))
        w, h, d = extent
        box = host[src_pos[2]:src_pos[2] + d, src_pos[1]:src_pos[1] + h, src_pos[0]:src_pos[0] + w]
        expected = np.full((3, 5, dev.pitch), SENTINEL, np.uint8)
        expected[1:3, 1:4, 9:26] = box
        np.testing.assert_array_equal(download(dev.ptr, size).reshape(3, 5, -1), expected)
        expected2 = np.full((3, 5, dev.pitch), SENTINEL, np.uint8)
        expected2[0:2, 0:3, 0:17] = box
        np.testing.assert_array_equal(download(dev2.ptr, size).reshape(3, 5, -1), expected2)
        # back to a pageable host box; the bytes around it stay
        out = np.full((2, 4, 20), 7, np.uint8)
        check(hip.hipMemcpy3D(params(dev.ptr, dev.pitch, 5, dst_pos, out, 20, 4, (1, 1, 0), extent,
                                     K.hipMemcpyDeviceToHost)))
        want = np.full((2, 4, 20), 7, np.uint8)
        want[0:2, 1:4, 1:18] = box
        np.testing.assert_array_equal(out, want)
        check(hip.hipMemcpy3D_spt(params(host, 40, 6, (0, 0, 0), dev2.ptr, dev2.pitch, 5, (0, 0, 0), (30, 5, 3))))
        np.testing.assert_array_equal(download(dev2.ptr, size).reshape(3, 5, -1)[:, :, :30], host[:3, :5, :30])
    finally:
        check(hip.hipFree(dev.ptr))
        check(hip.hipFree(dev2.ptr))


def test_memcpy_3d_errors_in_hips_order(stream):
    dev = malloc_3d(30, 5, 3)
    host = np.zeros(4 * 6 * 40, np.uint8)
    try:
        good = params(host, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (30, 5, 3))
        check(hip.hipMemcpy3D(good))
        assert hip.hipMemcpy3D(None) == (E.hipErrorInvalidValue,)
        none = params(None, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (30, 5, 3))
        assert hip.hipMemcpy3D(none) == (E.hipErrorInvalidValue,)
        narrow = params(host, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (30, 5, 3))
        narrow.srcPtr.xsize = 41
        assert hip.hipMemcpy3D(narrow) == (E.hipErrorInvalidPitchValue,)
        huge = params(host, 40, 6, (0, 0, 0), dev.ptr, 1 << 31, 5, (0, 0, 0), (30, 5, 3))
        assert hip.hipMemcpy3D(huge) == (E.hipErrorInvalidValue,)
        past_pitch = params(host, 40, 6, (20, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (30, 5, 3))
        assert hip.hipMemcpy3D(past_pitch) == (E.hipErrorInvalidValue,)
        deep = params(host, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 1), (30, 5, 3))
        assert hip.hipMemcpy3D(deep) == (E.hipErrorInvalidValue,)  # the pitched allocation's depth is 3
        bad_kind = params(host, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (30, 5, 3))
        bad_kind._store.kind = 7
        assert hip.hipMemcpy3D(bad_kind) == (E.hipErrorInvalidMemcpyDirection,)
        other = np.zeros_like(host)
        both_host = params(host, 40, 6, (0, 0, 0), other, 40, 6, (0, 0, 0), (30, 5, 3), K.hipMemcpyHostToDevice)
        assert hip.hipMemcpy3D(both_host) == (E.hipErrorInvalidValue,)  # pageable to pageable needs HtoH/Default
        both_host.kind = K.hipMemcpyHostToHost
        check(hip.hipMemcpy3D(both_host))
        assert hip.hipMemcpy3DAsync(good, 0x1234) == (E.hipErrorContextIsDestroyed,)
        zero = params(host, 40, 6, (0, 0, 0), dev.ptr, dev.pitch, 5, (0, 0, 0), (0, 5, 3))
        check(hip.hipMemcpy3D(zero))
    finally:
        check(hip.hipFree(dev.ptr))


def test_memcpy_param_2d_and_drv_3d_match_numpy(mem, stream):
    rng = np.random.default_rng(7)
    src = rng.integers(0, 256, (8, 48), dtype=np.uint8)
    dev = mem.device(32 * 10)
    check(hip.hipMemset(dev, SENTINEL, 320))
    T = hip.hipMemoryType
    c = hip.hip_Memcpy2D(srcXInBytes=3, srcY=2, srcMemoryType=T.hipMemoryTypeHost, srcHost=src, srcPitch=48,
                         dstXInBytes=4, dstY=1, dstMemoryType=T.hipMemoryTypeDevice, dstDevice=dev, dstPitch=32,
                         WidthInBytes=20, Height=5)
    check(hip.hipMemcpyParam2D(c))
    expected = np.full((10, 32), SENTINEL, np.uint8)
    expected[1:6, 4:24] = src[2:7, 3:23]
    np.testing.assert_array_equal(download(dev, 320).reshape(10, 32), expected)
    out = np.zeros((5, 20), np.uint8)
    back = hip.hip_Memcpy2D(srcXInBytes=4, srcY=1, srcMemoryType=T.hipMemoryTypeUnified, srcDevice=dev, srcPitch=32,
                            dstMemoryType=T.hipMemoryTypeUnified, dstDevice=out, dstPitch=0,  # 0: the row's end
                            WidthInBytes=20, Height=5)
    check(hip.hipMemcpyParam2DAsync(back, stream))
    check(hip.hipStreamSynchronize(stream))
    np.testing.assert_array_equal(out, src[2:7, 3:23])
    check(hip.hipDrvMemcpy2DUnaligned(back))
    # 3D: two slices of the host array into the device one, slices srcPitch * srcHeight apart
    cube = rng.integers(0, 256, (3, 4, 16), dtype=np.uint8)
    d3 = hip.HIP_MEMCPY3D(srcY=1, srcZ=1, srcMemoryType=T.hipMemoryTypeHost, srcHost=cube, srcPitch=16,
                          srcHeight=4, dstXInBytes=2, dstMemoryType=T.hipMemoryTypeDevice, dstDevice=dev,
                          dstPitch=32, dstHeight=5, WidthInBytes=10, Height=3, Depth=2)
    check(hip.hipMemset(dev, 0, 320))
    check(hip.hipDrvMemcpy3D(d3))
    expected = np.zeros((2, 5, 32), np.uint8)
    expected[:, 0:3, 2:12] = cube[1:3, 1:4, 0:10]
    np.testing.assert_array_equal(download(dev, 320).reshape(2, 5, 32), expected)
    check(hip.hipDrvMemcpy3DAsync(d3, stream))
    check(hip.hipStreamSynchronize(stream))
    # errors: no array here, device memory the runtime does not know, a region past the allocation
    c.srcMemoryType = T.hipMemoryTypeArray
    assert hip.hipMemcpyParam2D(c) == (E.hipErrorInvalidValue,)
    c.srcMemoryType, c.srcDevice = T.hipMemoryTypeDevice, src
    assert hip.hipMemcpyParam2D(c) == (E.hipErrorInvalidValue,)
    c.srcMemoryType, c.dstY = T.hipMemoryTypeHost, 6
    assert hip.hipMemcpyParam2D(c) == (E.hipErrorInvalidValue,)  # rows 6..10 of 10 end past it
    c.dstY, c.dstPitch = 1, 10
    assert hip.hipMemcpyParam2D(c) == (E.hipErrorInvalidValue,)  # a pitch below the width
    assert hip.hipMemcpyParam2D(None) == (E.hipErrorInvalidValue,)
    assert hip.hipDrvMemcpy3DAsync(d3, 0x1234) == (E.hipErrorContextIsDestroyed,)


def test_memset_3d_fills_boxes_and_keeps_padding(stream):
    dev = malloc_3d(40, 6, 3)
    size = dev.pitch * 6 * 3
    try:
        check(hip.hipMemset(dev.ptr, SENTINEL, size))
        inner = hip.hipPitchedPtr(ptr=hip.Pointer.fromPtr(int(dev.ptr) + dev.pitch + 3), pitch=dev.pitch, xsize=37,
                                  ysize=6)
        check(hip.hipMemset3D(inner, 0x1FF, hip.hipExtent(20, 4, 2)))  # value & 0xFF
        expected = np.full((3, 6, dev.pitch), SENTINEL, np.uint8)
        flat = expected.reshape(-1)
        for z in range(2):
            for y in range(4):
                start = dev.pitch + 3 + z * dev.pitch * 6 + y * dev.pitch
                flat[start:start + 20] = 0xFF
        np.testing.assert_array_equal(download(dev.ptr, size), flat)
        # pitch == width: one contiguous run of width * height * depth bytes
        run = hip.hipPitchedPtr(ptr=dev.ptr, pitch=10, xsize=10, ysize=2)
        check(hip.hipMemset3DAsync(run, 1, hip.hipExtent(10, 3, 2), stream))
        check(hip.hipStreamSynchronize(stream))
        flat[:60] = 1
        np.testing.assert_array_equal(download(dev.ptr, size), flat)
        check(hip.hipMemset3D_spt(dev, 2, hip.hipExtent(40, 6, 3)))
        whole = np.full((3, 6, dev.pitch), 0, np.uint8).reshape(-1)
        whole[:] = flat
        whole.reshape(3, 6, -1)[:, :, :40] = 2
        np.testing.assert_array_equal(download(dev.ptr, size), whole)
        # errors
        assert hip.hipMemset3D(hip.hipPitchedPtr(ptr=np.zeros(10)), 0, hip.hipExtent(1, 1, 1)) == \
            (E.hipErrorInvalidValue,)  # not the runtime's memory
        assert hip.hipMemset3D(dev, 0, hip.hipExtent(256, 6, 4)) == (E.hipErrorInvalidValue,)  # too many bytes
        assert hip.hipMemset3D(dev, 0, hip.hipExtent(40, 7, 1)) == (E.hipErrorInvalidValue,)  # taller
        assert hip.hipMemset3D(hip.hipPitchedPtr(ptr=dev.ptr, pitch=8, xsize=9, ysize=1), 0,
                               hip.hipExtent(4, 1, 1)) == (E.hipErrorInvalidValue,)  # pitch below xsize
        check(hip.hipMemset3D(dev, 0, hip.hipExtent(0, 6, 3)))  # nothing to set
        check(hip.hipMemset2D(dev.ptr, dev.pitch, 3, 40, 6))
    finally:
        check(hip.hipFree(dev.ptr))


# --- contexts ----------------------------------------------------------------------------------------------------


@pytest.fixture
def two_devices(configure):
    configure(count=2)
    yield
    check(hip.hipSetDevice(0))
    while hip.hipCtxPopCurrent()[0] == E.hipSuccess:
        pass


def test_contexts_are_the_devices_with_a_stack_per_thread(two_devices):
    ctx0 = check(hip.hipCtxGetCurrent())
    assert int(ctx0) == int(check(hip.hipDevicePrimaryCtxRetain(0)))
    assert hip.hipCtxPopCurrent() == (E.hipErrorInvalidContext, None)  # empty stack
    ctx1 = check(hip.hipCtxCreate(hip.hipDeviceScheduleYield, 1))  # pushed; the current device stays
    assert check(hip.hipGetDevice()) == 0 and int(ctx1) == int(check(hip.hipDevicePrimaryCtxRetain(1)))
    check(hip.hipSetDevice(1))
    assert check(hip.hipGetDeviceFlags()) == hip.hipDeviceScheduleYield  # hipCtxCreate set the device's flags
    check(hip.hipSetDevice(0))
    check(hip.hipCtxPushCurrent(ctx1))  # makes device 1 current
    assert check(hip.hipCtxGetDevice()) == 1 and int(check(hip.hipCtxGetCurrent())) == int(ctx1)
    check(hip.hipCtxSetCurrent(ctx0))  # replaces the top
    assert check(hip.hipGetDevice()) == 0
    assert int(check(hip.hipCtxPopCurrent())) == int(ctx0)
    assert int(check(hip.hipCtxPopCurrent())) == int(ctx1)  # popping leaves the current device as it is
    assert check(hip.hipGetDevice()) == 0
    other = []
    t = threading.Thread(target=lambda: other.append(hip.hipCtxPopCurrent()[0]))
    check(hip.hipCtxPushCurrent(ctx0))
    t.start()
    t.join()
    assert other == [E.hipErrorInvalidContext]  # the stack is the thread's
    check(hip.hipCtxDestroy(ctx0))  # pops it: the top
    assert hip.hipCtxPopCurrent()[0] == E.hipErrorInvalidContext
    check(hip.hipCtxSetCurrent(None))  # NULL only pops
    assert hip.hipCtxCreate(0, 2) == (E.hipErrorInvalidValue, None)
    assert hip.hipCtxCreate(0, -1) == (E.hipErrorInvalidValue, None)
    assert hip.hipCtxDestroy(None) == (E.hipErrorInvalidValue,)
    assert hip.hipCtxPushCurrent(None) == (E.hipErrorInvalidContext,)
    assert hip.hipCtxPushCurrent(0x1234) == (E.hipErrorInvalidContext,)
    check(hip.hipSetDevice(1))
    check(hip.hipSetDeviceFlags(hip.hipDeviceScheduleSpin))


def test_context_functions_hip_leaves_unsupported():
    ctx = check(hip.hipCtxGetCurrent())
    assert hip.hipCtxGetApiVersion(ctx) == (E.hipErrorNotSupported, None)
    assert hip.hipCtxGetCacheConfig() == (E.hipErrorNotSupported, None)
    assert hip.hipCtxSetCacheConfig(hip.hipFuncCache_t.hipFuncCachePreferL1) == (E.hipErrorNotSupported,)
    assert hip.hipCtxSetSharedMemConfig(hip.hipSharedMemConfig.hipSharedMemBankSizeDefault) == \
        (E.hipErrorNotSupported,)
    assert hip.hipCtxSynchronize() == (E.hipErrorNotSupported,)
    assert hip.hipCtxGetFlags() == (E.hipErrorNotSupported, None)
    assert hip.hipCtxGetSharedMemConfig() == (E.hipSuccess, hip.hipSharedMemConfig.hipSharedMemBankSizeFourByte)
    assert hip.hipCtxEnablePeerAccess(ctx, 0) == (E.hipSuccess,)
    assert hip.hipCtxDisablePeerAccess(ctx) == (E.hipSuccess,)
    assert hip.hipDevicePrimaryCtxSetFlags(0, 0) == (E.hipErrorContextAlreadyInUse,)
    assert hip.hipDevicePrimaryCtxSetFlags(3, 0) == (E.hipErrorInvalidDevice,)
    assert hip.hipDevicePrimaryCtxReset(7) == (E.hipSuccess,)
    assert hip.hipDevicePrimaryCtxRelease(0) == (E.hipSuccess,)
    assert hip.hipDevicePrimaryCtxRelease(-1) == (E.hipErrorInvalidDevice,)
    check(hip.hipLaunchHostFunc(None, lambda _: None, None))
    check(hip.hipDeviceSynchronize())
    assert hip.hipDevicePrimaryCtxGetState(0) == (E.hipSuccess, 0, 1)  # work ran on it: active
    assert hip.hipDevicePrimaryCtxGetState(5) == (E.hipErrorInvalidDevice, None, None)
    assert hip.hipSetValidDevices(1) == (E.hipErrorNotSupported, None)
    with pytest.raises(TypeError):
        hip.hipCtxSetCacheConfig(1)


# --- device queries ----------------------------------------------------------------------------------------------


def test_pci_bus_ids(monkeypatch):
    props = rocmath.get_device_properties(0)
    expected = f"{props.pciDomainID:04x}:{props.pciBusID:02x}:{props.pciDeviceID:02x}.0"
    assert hip.hipDeviceGetPCIBusId(64, 0) == (E.hipSuccess, expected)
    assert hip.hipDeviceGetPCIBusId(6, 0) == (E.hipErrorInvalidValue, expected[:5])  # still written, truncated
    assert hip.hipDeviceGetPCIBusId(13, 0)[0] == E.hipSuccess
    assert hip.hipDeviceGetPCIBusId(64, 1) == (E.hipErrorInvalidDevice, None)
    # parsed as sscanf("%04x:%02x:%02x.%01x") parses it (a device number of two hex digits, as on a real bus)
    monkeypatch.setattr(r2, "_pci_fields", lambda i: (0, 0x10 * (i + 1), 0, 0))
    assert hip.hipDeviceGetPCIBusId(64, 0) == (E.hipSuccess, "0000:10:00.0")
    assert hip.hipDeviceGetByPCIBusId(b"0000:10:00.0") == (E.hipSuccess, 0)
    assert hip.hipDeviceGetByPCIBusId("0000:10:00.0junk") == (E.hipSuccess, 0)
    assert hip.hipDeviceGetByPCIBusId(ctypes.create_string_buffer(b"0:10:0.0")) == (E.hipSuccess, 0)
    for bad in (b"0000:20:00.0", b"0000:10:00", b"zz", None):
        assert hip.hipDeviceGetByPCIBusId(bad) == (E.hipErrorInvalidValue, None)


def test_device_queries():
    uuid = check(hip.hipDeviceGetUuid(0))
    props = hip.hipDeviceProp_t()
    check(hip.hipGetDeviceProperties(props, 0))
    assert uuid.bytes == props.uuid and isinstance(uuid, hip.hipUUID) and uuid.c_sizeof() == 16
    assert hip.hipDeviceGetUuid(1) == (E.hipErrorInvalidDevice, None)
    assert hip.hipDeviceGetCacheConfig() == (E.hipSuccess, hip.hipFuncCache_t.hipFuncCachePreferNone)
    check(hip.hipDeviceSetCacheConfig(hip.hipFuncCache_t.hipFuncCachePreferShared))
    assert hip.hipDeviceGetCacheConfig()[1] == hip.hipFuncCache_t.hipFuncCachePreferNone  # nothing to set
    assert hip.hipDeviceGetSharedMemConfig() == (E.hipSuccess, hip.hipSharedMemConfig.hipSharedMemBankSizeFourByte)
    check(hip.hipDeviceSetSharedMemConfig(hip.hipSharedMemConfig.hipSharedMemBankSizeEightByte))
    want = hip.hipDeviceProp_t(major=props.major, warpSize=props.warpSize)
    assert hip.hipChooseDevice(want) == (E.hipSuccess, 0)
    assert hip.hipChooseDevice(hip.hipDeviceProp_t(totalGlobalMem=props.totalGlobalMem + 1)) == (E.hipSuccess, 0)
    assert hip.hipChooseDevice(None) == (E.hipErrorInvalidValue, None)
    assert hip.hipGetStreamDeviceId(None) == (E.hipSuccess, 0)
    assert hip.hipGetStreamDeviceId(0x1234) == (E.hipSuccess, -1)
    assert hip.hipExtGetLinkTypeAndHopCount(0, 0) == (E.hipErrorInvalidValue, None, None)
    assert hip.hipExtGetLinkTypeAndHopCount(0, 1) == (E.hipErrorInvalidDevice, None, None)
    P = hip.hipDeviceP2PAttr
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrAccessSupported, 0, 0) == (E.hipErrorInvalidDevice, None)


def test_links_between_two_devices(two_devices):
    assert hip.hipExtGetLinkTypeAndHopCount(0, 1) == (E.hipSuccess, 4, 1)  # xGMI, one hop
    assert hip.hipExtGetLinkTypeAndHopCount(1, -1) == (E.hipErrorInvalidValue, None, None)
    P = hip.hipDeviceP2PAttr
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrAccessSupported, 0, 1) == (E.hipSuccess, 1)
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrHipArrayAccessSupported, 1, 0) == (E.hipSuccess, 1)
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrNativeAtomicSupported, 0, 1) == (E.hipSuccess, 1)
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrPerformanceRank, 0, 1) == (E.hipSuccess, 4)
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrAccessSupported, 0, 2) == (E.hipErrorInvalidDevice, None)
    assert hip.hipDeviceGetP2PAttribute(P.hipDevP2PAttrAccessSupported, -1, 0) == (E.hipErrorInvalidDevice, None)
    # a pool of device 1 cannot be device 0's, and device 0 can be given access to it
    p1 = check(hip.hipDeviceGetDefaultMemPool(1))
    assert hip.hipDeviceSetMemPool(0, p1) == (E.hipErrorInvalidDevice,)
    desc = hip.hipMemAccessDesc(flags=hip.hipMemAccessFlags.hipMemAccessFlagsProtRead)
    desc.location.type, desc.location.id = hip.hipMemLocationType.hipMemLocationTypeDevice, 0
    check(hip.hipMemPoolSetAccess(p1, desc, 1))
    flags = ctypes.c_int()
    check(hip.hipMemPoolGetAccess(flags, p1, desc.location))
    assert flags.value == hip.hipMemAccessFlags.hipMemAccessFlagsProtRead


def test_cu_masks(stream):
    cus = rocmath.get_device_properties().multiProcessorCount
    words = -(-cus // 32)
    full = [0xFFFFFFFF] * (cus // 32) + ([(1 << cus % 32) - 1] if cus % 32 else [])
    assert hip.hipExtStreamGetCUMask(None, words) == (E.hipSuccess, full)
    assert hip.hipExtStreamGetCUMask(stream, words + 1) == (E.hipSuccess, [*full, 0])
    assert hip.hipExtStreamGetCUMask(stream, words - 1) == (E.hipErrorInvalidValue, None)
    masked = check(hip.hipExtStreamCreateWithCUMask(2, np.array([0xF0F0, 0xFFFF0000], np.uint32)))
    try:
        out = np.zeros(words, np.uint32)
        check(hip.hipExtStreamGetCUMask(masked, words, out))
        np.testing.assert_array_equal(out, [0xF0F0, 0xFFFF0000] + [0] * (words - 2))
        assert hip.hipStreamGetFlags(masked) == (E.hipSuccess, 0)
    finally:
        check(hip.hipStreamDestroy(masked))
    assert hip.hipExtStreamCreateWithCUMask(0, [1]) == (E.hipErrorInvalidValue, None)
    assert hip.hipExtStreamCreateWithCUMask(1, None) == (E.hipErrorInvalidValue, None)


# --- errors ------------------------------------------------------------------------------------------------------


def test_driver_error_names_and_strings():
    for member in E:
        assert hip.hipDrvGetErrorName(member) == (E.hipSuccess, E(int(member)).name)
    assert hip.hipDrvGetErrorString(E.hipErrorInvalidPitchValue) == (E.hipSuccess, "invalid pitch argument")
    assert hip.hipDrvGetErrorString(E.hipErrorUnknown) == (E.hipSuccess, "unknown error")
    assert hip.hipDrvGetErrorString(E.hipErrorTbd) == (E.hipErrorInvalidValue, "unknown error")  # no words for it
    assert all(hip.hipDrvGetErrorString(m)[0] == E.hipSuccess for m in E if m != E.hipErrorTbd)
    with pytest.raises(TypeError):
        hip.hipDrvGetErrorName(1)
    hip.hipGetLastError()
    assert hip.hipFree(0x1234)[0] != E.hipSuccess
    assert hip.hipExtGetLastError() == (E.hipErrorInvalidValue,)
    assert hip.hipExtGetLastError() == (E.hipSuccess,)
    assert hip.hipProfilerStart() == (E.hipErrorNotSupported,)
    assert hip.hipProfilerStop() == (E.hipErrorNotSupported,)
    p = check(hip.hipMemAllocHost(64))
    assert check(hip.hipHostGetFlags(p)) == 0
    check(hip.hipHostFree(p))


# --- pointer attributes --------------------------------------------------------------------------------------


def get_attribute(attribute, ptr, ctype=ctypes.c_uint64):
    v = ctype(0)
    err = hip.hipPointerGetAttribute(v, attribute, ptr)[0]
    return err, v.value


def test_pointer_get_and_set_attribute(mem):
    P = hip.hipPointer_attribute
    T = hip.hipMemoryType
    d = mem.device(1000)
    inner = hip.Pointer.fromPtr(int(d) + 100)
    pinned = mem.pinned(64)
    managed = mem.managed(64)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, inner, ctypes.c_uint32) == \
        (E.hipSuccess, T.hipMemoryTypeDevice)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, pinned, ctypes.c_uint32) == \
        (E.hipSuccess, T.hipMemoryTypeHost)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, managed, ctypes.c_uint32) == \
        (E.hipSuccess, T.hipMemoryTypeHost)  # fine-grained, as HIP reports managed memory
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, inner) == (E.hipSuccess, int(d) + 100)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, inner) == (E.hipSuccess, int(d))
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_RANGE_SIZE, inner, ctypes.c_uint32) == (E.hipSuccess, 1000)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_HOST_POINTER, inner) == (E.hipErrorInvalidValue, 0)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_HOST_POINTER, pinned) == (E.hipSuccess, int(pinned))
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_IS_MANAGED, managed, ctypes.c_bool) == (E.hipSuccess, True)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_IS_MANAGED, d, ctypes.c_bool) == (E.hipSuccess, False)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_MAPPED, d, ctypes.c_bool) == (E.hipSuccess, True)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d, ctypes.c_int) == (E.hipSuccess, 0)
    ids = {get_attribute(P.HIP_POINTER_ATTRIBUTE_BUFFER_ID, p, ctypes.c_uint32)[1] for p in (d, inner, pinned, managed)}
    assert len(ids) == 3  # one per allocation
    flagged = check(hip.hipExtMallocWithFlags(64, hip.hipDeviceMallocFinegrained))
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS, flagged, ctypes.c_uint32) == \
        (E.hipSuccess, hip.hipDeviceMallocFinegrained)
    check(hip.hipFree(flagged))
    # pageable memory: the defaults written, hipErrorInvalidValue (access flags: 0 with success)
    host = np.zeros(8)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, host, ctypes.c_int) == \
        (E.hipErrorInvalidValue, hip.hipInvalidDeviceId)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, host, ctypes.c_uint32) == (E.hipErrorInvalidValue, 0)
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS, host, ctypes.c_uint32) == (E.hipSuccess, 0)
    for unsupported in (P.HIP_POINTER_ATTRIBUTE_CONTEXT, P.HIP_POINTER_ATTRIBUTE_P2P_TOKENS,
                        P.HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, P.HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES):
        assert get_attribute(unsupported, d)[0] == E.hipErrorNotSupported
    assert hip.hipPointerGetAttribute(None, P.HIP_POINTER_ATTRIBUTE_MAPPED, d) == (E.hipErrorInvalidValue,)
    assert hip.hipPointerGetAttribute(ctypes.c_int(), P.HIP_POINTER_ATTRIBUTE_MAPPED, None) == \
        (E.hipErrorInvalidValue,)
    # SYNC_MEMOPS: the only attribute HIP sets
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d, ctypes.c_bool) == (E.hipSuccess, False)
    check(hip.hipPointerSetAttribute(ctypes.c_uint32(1), P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, inner))
    assert get_attribute(P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d, ctypes.c_bool) == (E.hipSuccess, True)
    assert hip.hipPointerSetAttribute(ctypes.c_uint32(2), P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d) == \
        (E.hipErrorInvalidValue,)
    assert hip.hipPointerSetAttribute(ctypes.c_uint32(1), P.HIP_POINTER_ATTRIBUTE_MAPPED, d) == \
        (E.hipErrorInvalidValue,)
    assert hip.hipPointerSetAttribute(ctypes.c_uint32(1), P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, host) == \
        (E.hipErrorInvalidDevicePointer,)
    assert hip.hipPointerSetAttribute(None, P.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d) == (E.hipErrorInvalidValue,)
    # several at once: an array of pointers to 8-byte slots
    codes = np.array([P.HIP_POINTER_ATTRIBUTE_RANGE_SIZE, P.HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                      P.HIP_POINTER_ATTRIBUTE_CONTEXT], np.int32)
    data = check(hip.hipDrvPointerGetAttributes(3, codes, inner))
    slots = (ctypes.c_void_p * 3).from_address(int(data))
    assert ctypes.c_uint32.from_address(slots[0]).value == 1000 and ctypes.c_int.from_address(slots[1]).value == 0
    assert hip.hipDrvPointerGetAttributes(0, codes, d) == (E.hipErrorInvalidValue, None)
    data = check(hip.hipDrvPointerGetAttributes(1, codes, host))  # success whatever the attribute gives
    assert ctypes.c_uint32.from_address((ctypes.c_void_p * 1).from_address(int(data))[0]).value == 0


# --- stream memory operations ------------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [32, 64])
def test_stream_wait_value_blocks_the_stream_until_the_host_writes(bits, mem, stream):
    dtype = np.uint32 if bits == 32 else np.uint64
    wait = hip.hipStreamWaitValue32 if bits == 32 else hip.hipStreamWaitValue64
    flag = mem.pinned(8)
    word = np.ctypeslib.as_array((ctypes.c_uint8 * 8).from_address(int(flag))).view(dtype)
    word[0] = 3
    d = mem.device(16)
    check(hip.hipMemset(d, 0, 16))
    full = (1 << bits) - 1
    check(wait(stream, flag, 5, hip.hipStreamWaitValueGte, full))  # waits for *flag >= 5
    release = threading.Timer(0.05, lambda: word.__setitem__(0, 5))  # another host thread releases it
    try:
        check(hip.hipMemsetAsync(d, 1, 16, stream))
        time.sleep(0.02)
        assert status(hip.hipStreamQuery(stream)) == E.hipErrorNotReady
        np.testing.assert_array_equal(download_on(hip.hipStreamPerThread, d, 16), 0)  # not yet set
        release.start()
        check(hip.hipStreamSynchronize(stream))
        np.testing.assert_array_equal(download(d, 16), 1)
    finally:
        word[0] = 5  # never leave a stream waiting


def test_stream_wait_value_conditions_and_write_value(mem, stream):
    other = check(hip.hipStreamCreate())
    try:
        flag = mem.device(8)
        out = mem.device(64)
        W = (hip.hipStreamWaitValueGte, hip.hipStreamWaitValueEq, hip.hipStreamWaitValueAnd,
             hip.hipStreamWaitValueNor)
        # (initial word, condition, value, mask, the write that releases it); each first holds, then is released
        # (Nor: ~((x & mask) | (value & mask)) != 0 over all 32 bits: only all-ones with a full mask holds it)
        cases = [(0, W[0], 0x10, 0xFF, 0x1010), (7, W[1], 0x5, 0x0F, 0x25), (0x10, W[2], 0x3, 0xFF, 0x2),
                 (0xFFFFFFFF, W[3], 0x0, 0xFFFFFFFF, 0xFFFFFF7F)]
        word = address_space.find(int(flag)).bytes_view(0, 4).view(np.uint32)  # (to release it on a failure)
        for i, (initial, cond, value, mask, release) in enumerate(cases):
            check(hip.hipStreamWriteValue32(other, flag, initial, 0))
            check(hip.hipStreamSynchronize(other))
            check(hip.hipStreamWaitValue32(stream, flag, value, cond, mask))
            try:
                check(hip.hipMemsetAsync(out, i + 1, 64, stream))
                time.sleep(0.01)
                assert status(hip.hipStreamQuery(stream)) == E.hipErrorNotReady, i
                check(hip.hipStreamWriteValue32(other, flag, release, 0))  # another stream releases it
                check(hip.hipStreamSynchronize(stream))
            finally:
                word[0] = release
            np.testing.assert_array_equal(download(out, 64), i + 1)
        check(hip.hipStreamWriteValue64(other, flag, 0x1122334455667788, 0))
        check(hip.hipStreamSynchronize(other))
        assert download(flag, 8).view(np.uint64)[0] == 0x1122334455667788
        check(hip.hipStreamWaitValue64(stream, flag, 0x1122334455667788, hip.hipStreamWaitValueEq, (1 << 64) - 1))
        check(hip.hipStreamSynchronize(stream))  # already holds
        # errors in HIP's order
        assert hip.hipStreamWaitValue32(stream, None, 0, 0, 0) == (E.hipErrorInvalidValue,)
        assert hip.hipStreamWaitValue32(0x1234, flag, 0, 0, 0) == (E.hipErrorContextIsDestroyed,)
        assert hip.hipStreamWaitValue32(stream, np.zeros(4), 0, 0, 0) == (E.hipErrorInvalidValue,)
        assert hip.hipStreamWaitValue32(stream, flag, 0, 4, 0) == (E.hipErrorInvalidValue,)
        assert hip.hipStreamWriteValue64(stream, None, 0, 0) == (E.hipErrorInvalidValue,)
        with pytest.raises(OverflowError):
            hip.hipStreamWriteValue32(stream, flag, 1 << 32, 0)
    finally:
        check(hip.hipStreamDestroy(other))


def test_stream_attach_mem_async(mem, stream):
    managed = mem.managed(256)
    d = mem.device(256)
    G, H, S = hip.hipMemAttachGlobal, hip.hipMemAttachHost, hip.hipMemAttachSingle
    check(hip.hipStreamAttachMemAsync(stream, managed, 0, S))
    check(hip.hipStreamAttachMemAsync(stream, managed, 256, G))
    check(hip.hipStreamAttachMemAsync(None, d, 17, H))  # device memory: the length is not checked
    assert hip.hipStreamAttachMemAsync(stream, managed, 100, G) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAttachMemAsync(None, managed, 0, S) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAttachMemAsync(stream, managed, 0, 3) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAttachMemAsync(stream, None, 0, G) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAttachMemAsync(0x1234, managed, 0, G) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipStreamAttachMemAsync(stream, np.zeros(4), 32, G) == (E.hipErrorInvalidValue,)


def test_managed_range_attributes_follow_advice_and_prefetches(mem, stream):
    R = hip.hipMemRangeAttribute
    Adv = hip.hipMemoryAdvise
    page = 4096
    m = mem.managed(4 * page)

    def get(attribute, ptr, count, size=4, dtype=np.int32):
        out = np.full(size // 4, -7, dtype)
        assert hip.hipMemRangeGetAttribute(out, size, attribute, ptr, count) == (E.hipSuccess,)
        return out.tolist()

    assert get(R.hipMemRangeAttributeReadMostly, m, 4 * page) == [0]
    assert get(R.hipMemRangeAttributePreferredLocation, m, page) == [hip.hipInvalidDeviceId]
    check(hip.hipMemAdvise(m, 2 * page, Adv.hipMemAdviseSetReadMostly, 0))
    assert get(R.hipMemRangeAttributeReadMostly, m, 2 * page) == [1]
    assert get(R.hipMemRangeAttributeReadMostly, m, 3 * page) == [0]  # not every page
    check(hip.hipMemAdvise(m, 4 * page, Adv.hipMemAdviseSetPreferredLocation, 0))
    check(hip.hipMemAdvise(m, page, Adv.hipMemAdviseSetPreferredLocation, hip.hipCpuDeviceId))
    assert get(R.hipMemRangeAttributePreferredLocation, m, page) == [hip.hipCpuDeviceId]
    assert get(R.hipMemRangeAttributePreferredLocation, m, 4 * page) == [hip.hipInvalidDeviceId]  # they differ
    second = hip.Pointer.fromPtr(int(m) + page)
    assert get(R.hipMemRangeAttributePreferredLocation, second, 3 * page) == [0]
    check(hip.hipMemAdvise(m, 4 * page, Adv.hipMemAdviseSetAccessedBy, 0))
    check(hip.hipMemAdvise(m, 4 * page, Adv.hipMemAdviseSetAccessedBy, hip.hipCpuDeviceId))
    assert get(R.hipMemRangeAttributeAccessedBy, m, 4 * page, size=12) == [0, hip.hipCpuDeviceId, -7]
    check(hip.hipMemAdvise(m, page, Adv.hipMemAdviseUnsetAccessedBy, hip.hipCpuDeviceId))
    assert get(R.hipMemRangeAttributeAccessedBy, m, 4 * page, size=8) == [0, -7]
    check(hip.hipMemPrefetchAsync(m, 4 * page, 0, stream))
    assert get(R.hipMemRangeAttributeLastPrefetchLocation, m, 4 * page) == [0]
    C = hip.hipMemRangeCoherencyMode
    assert get(R.hipMemRangeAttributeCoherencyMode, m, 4 * page) == [C.hipMemRangeCoherencyModeFineGrain]
    check(hip.hipMemAdvise(m, page, Adv.hipMemAdviseSetCoarseGrain, 0))
    assert get(R.hipMemRangeAttributeCoherencyMode, m, 4 * page) == [C.hipMemRangeCoherencyModeIndeterminate]
    assert get(R.hipMemRangeAttributeCoherencyMode, m, page) == [C.hipMemRangeCoherencyModeCoarseGrain]
    out = np.zeros(2, np.int32)
    assert hip.hipMemRangeGetAttribute(out, 8, R.hipMemRangeAttributeReadMostly, m, page) == (E.hipErrorInvalidValue,)
    assert hip.hipMemRangeGetAttribute(out, 6, R.hipMemRangeAttributeAccessedBy, m, page) == (E.hipErrorInvalidValue,)
    assert hip.hipMemRangeGetAttribute(out, 4, R.hipMemRangeAttributeReadMostly, m, 5 * page) == \
        (E.hipErrorInvalidValue,)  # past the allocation
    assert hip.hipMemRangeGetAttribute(out, 4, R.hipMemRangeAttributeReadMostly, mem.device(64), 64) == \
        (E.hipErrorInvalidValue,)  # not managed memory
    assert hip.hipMemRangeGetAttribute(None, 4, R.hipMemRangeAttributeReadMostly, m, 1) == (E.hipErrorInvalidValue,)
    assert hip.hipMemRangeGetAttribute(out, 4, R.hipMemRangeAttributeReadMostly, m, 0) == (E.hipErrorInvalidValue,)
    codes = np.array([R.hipMemRangeAttributeReadMostly, R.hipMemRangeAttributeAccessedBy], np.int32)
    data, sizes = check(hip.hipMemRangeGetAttributes(codes, 2, m, 2 * page))
    slots = (ctypes.c_void_p * 2).from_address(int(data))
    assert sizes == [4, 8] and ctypes.c_uint32.from_address(slots[0]).value == 1
    assert ctypes.c_int32.from_address(slots[1]).value == 0
    assert hip.hipMemRangeGetAttributes(codes, 0, m, page) == (E.hipErrorInvalidValue, None, None)


# --- IPC handles -------------------------------------------------------------------------------------------------


def test_ipc_mem_handles(mem):
    d = mem.device(4096)
    inner = hip.Pointer.fromPtr(int(d) + 256)
    handle = check(hip.hipIpcGetMemHandle(inner))
    raw = ctypes.string_at(int(handle), 64)
    assert handle.c_sizeof() == 64 and isinstance(handle, hip.hipIpcMemHandle_t)
    size, offset = np.frombuffer(raw[32:48], np.uint64).tolist()
    assert (size, offset, int.from_bytes(raw[48:52], "little")) == (4096, 256, os.getpid())  # HIP's layout
    copied = hip.hipIpcMemHandle_st.fromObj(bytearray(raw))  # a handle sent as bytes
    assert hip.hipIpcOpenMemHandle(copied, hip.hipIpcMemLazyEnablePeerAccess) == (E.hipErrorInvalidContext, None)
    assert hip.hipIpcOpenMemHandle(handle, 0) == (E.hipErrorInvalidValue, None)
    foreign = bytearray(raw)
    foreign[48:52] = (os.getpid() + 1).to_bytes(4, "little")
    assert hip.hipIpcOpenMemHandle(hip.hipIpcMemHandle_st.fromObj(foreign), 1) == \
        (E.hipErrorInvalidDevicePointer, None)
    assert hip.hipIpcOpenMemHandle(hip.hipIpcMemHandle_st(), 1) == (E.hipErrorInvalidValue, None)
    assert hip.hipIpcGetMemHandle(None) == (E.hipErrorInvalidValue, None)
    assert hip.hipIpcGetMemHandle(np.zeros(8)) == (E.hipErrorInvalidValue, None)
    assert hip.hipIpcCloseMemHandle(d) == (E.hipErrorInvalidValue,)
    assert hip.hipIpcCloseMemHandle(None) == (E.hipErrorInvalidValue,)


# --- hip-python's names -------------------------------------------------------------------------------------------


#: hip-python 6.2's parameters of the functions added here (hipExtStreamCreateWithCUMask's and
#: hipExtStreamGetCUMask's ``cuMask`` are rocmath's: hip-python passes an uninitialized word there).
SIGNATURES = {
    "hipMallocAsync": "size stream", "hipMallocFromPoolAsync": "size mem_pool stream", "hipFreeAsync": "dev_ptr stream",
    "hipMemPoolCreate": "pool_props", "hipMemPoolDestroy": "mem_pool", "hipMemPoolTrimTo": "mem_pool min_bytes_to_hold",
    "hipMemPoolSetAttribute": "mem_pool attr value", "hipMemPoolGetAttribute": "mem_pool attr value",
    "hipMemPoolSetAccess": "mem_pool desc_list count", "hipMemPoolGetAccess": "flags mem_pool location",
    "hipMemPoolExportToShareableHandle": "shared_handle mem_pool handle_type flags",
    "hipMemPoolImportFromShareableHandle": "shared_handle handle_type flags",
    "hipDeviceGetDefaultMemPool": "device", "hipDeviceGetMemPool": "device", "hipDeviceSetMemPool": "device mem_pool",
    "hipMalloc3D": "pitchedDevPtr extent", "hipMemcpy3D": "p", "hipMemcpy3DAsync": "p stream",
    "hipMemset3D": "pitchedDevPtr value extent", "hipMemset3DAsync": "pitchedDevPtr value extent stream",
    "hipMemcpyParam2D": "pCopy", "hipMemcpyParam2DAsync": "pCopy stream", "hipDrvMemcpy2DUnaligned": "pCopy",
    "hipDrvMemcpy3D": "pCopy", "hipDrvMemcpy3DAsync": "pCopy stream", "hipCtxCreate": "flags device",
    "hipCtxDestroy": "ctx", "hipCtxSetCurrent": "ctx", "hipCtxPushCurrent": "ctx", "hipCtxPopCurrent": "",
    "hipCtxGetApiVersion": "ctx", "hipCtxSetCacheConfig": "cacheConfig", "hipCtxSetSharedMemConfig": "config",
    "hipCtxEnablePeerAccess": "peerCtx flags", "hipDevicePrimaryCtxGetState": "dev",
    "hipDevicePrimaryCtxSetFlags": "dev flags", "hipChooseDevice": "prop", "hipDeviceGetPCIBusId": "len device",
    "hipDeviceGetByPCIBusId": "pciBusId", "hipDeviceGetUuid": "device",
    "hipDeviceGetP2PAttribute": "attr srcDevice dstDevice", "hipExtGetLinkTypeAndHopCount": "device1 device2",
    "hipDeviceSetCacheConfig": "cacheConfig", "hipDeviceSetSharedMemConfig": "config", "hipSetValidDevices": "len",
    "hipGetStreamDeviceId": "stream", "hipExtStreamCreateWithCUMask": "cuMaskSize cuMask",
    "hipExtStreamGetCUMask": "stream cuMaskSize cuMask", "hipDrvGetErrorName": "hipError",
    "hipDrvGetErrorString": "hipError", "hipMemAllocHost": "size", "hipPointerGetAttribute": "data attribute ptr",
    "hipPointerSetAttribute": "value attribute ptr", "hipDrvPointerGetAttributes": "numAttributes attributes ptr",
    "hipStreamWaitValue32": "stream ptr value flags mask", "hipStreamWaitValue64": "stream ptr value flags mask",
    "hipStreamWriteValue32": "stream ptr value flags", "hipStreamWriteValue64": "stream ptr value flags",
    "hipStreamAttachMemAsync": "stream dev_ptr length flags",
    "hipMemRangeGetAttribute": "data data_size attribute dev_ptr count",
    "hipMemRangeGetAttributes": "attributes num_attributes dev_ptr count", "hipIpcGetMemHandle": "devPtr",
    "hipIpcOpenMemHandle": "handle flags", "hipIpcCloseMemHandle": "devPtr", "hipMemcpy_spt": "dst src sizeBytes kind",
    "hipMemset2D_spt": "dst pitch value width height", "hipStreamWaitEvent_spt": "stream event flags",
    "hipEventRecord_spt": "event stream", "hipMemcpy3DAsync_spt": "p stream",
    "hipMemset3DAsync_spt": "pitchedDevPtr value extent stream",
    "hipStreamAddCallback_spt": "stream callback userData flags",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_parameter_names_are_hip_pythons(name):
    assert list(inspect.signature(getattr(hip, name)).parameters) == SIGNATURES[name].split()


def test_keyword_calls(mem):
    d = mem.device(64)
    check(hip.hipMemset3D(pitchedDevPtr=hip.hipPitchedPtr(ptr=d, pitch=64, xsize=64, ysize=1), value=9,
                          extent=hip.hipExtent(width=64, height=1, depth=1)))
    np.testing.assert_array_equal(download(d, 64), 9)
    pool = check(hip.hipDeviceGetMemPool(device=0))
    v = ctypes.c_uint64()
    check(hip.hipMemPoolGetAttribute(mem_pool=pool, attr=A.hipMemPoolAttrReleaseThreshold, value=v))
    p = check(hip.hipMallocFromPoolAsync(size=32, mem_pool=pool, stream=None))
    check(hip.hipFreeAsync(dev_ptr=p, stream=None))
    check(hip.hipStreamWriteValue32(stream=hip.hipStreamPerThread, ptr=d, value=7, flags=0))
    check(hip.hipStreamWaitValue32(stream=None, ptr=d, value=7, flags=hip.hipStreamWaitValueEq, mask=0xFFFFFFFF))
    check(hip.hipStreamSynchronize_spt(stream=None))
    assert hip.hipDeviceGetPCIBusId(len=64, device=0)[0] == E.hipSuccess
    assert hip.hipCtxCreate(flags=0, device=0)[0] == E.hipSuccess
    check(hip.hipCtxPopCurrent())
