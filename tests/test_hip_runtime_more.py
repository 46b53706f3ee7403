"""rocmath.hip.hip: pitched memory, 2D copies and fills, patterned memsets, peer access, pointer attributes,
registered host memory, stream callbacks, unified-memory hints, device flags and limits.

The 2D copies are checked against numpy slicing in every direction (pageable numpy buffers, raw host
addresses, pinned, managed and device memory, on both sides, synchronous and on a stream), with pitches
larger than the width and the bytes between the rows checked untouched.
"""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest
from hip_util import check, hip_clean_state  # noqa: F401 - the fixture, used by pytestmark
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath
from rocmath.hip import hip, last_exception
from rocmath.stream import Stream
from rocmath.testing import examples

E = hip.hipError_t
K = hip.hipMemcpyKind
SENTINEL = 0x5A


pytestmark = pytest.mark.usefixtures("hip_clean_state")


# --- memory of each kind, seen from the host -------------------------------------------------------------

KINDS = ["pageable", "raw", "pinned", "managed", "device"]


class Region:
    """``nbytes`` of one kind of memory: ``ptr`` is what a hip-python program passes, ``read()``/``write()``
    move all its bytes from/to the host."""

    def __init__(self, kind, nbytes, mem):
        self.kind, self.nbytes = kind, nbytes
        if kind in ("pageable", "raw"):
            self.host = np.zeros(nbytes, np.uint8)
            self.ptr = self.host if kind == "pageable" else self.host.ctypes.data
        elif kind in ("pinned", "managed"):
            self.ptr = mem.pinned(nbytes) if kind == "pinned" else mem.managed(nbytes)
            self.host = np.ctypeslib.as_array((ctypes.c_ubyte * nbytes).from_address(int(self.ptr)))
        else:
            self.ptr, self.host = mem.device(nbytes), None

    def read(self):
        rocmath.device_synchronize()
        if self.host is not None:
            return self.host.copy()
        return device_bytes(self.ptr, self.nbytes)

    def write(self, data):
        if self.host is not None:
            self.host[:] = data
        else:
            check(hip.hipMemcpy(self.ptr, np.ascontiguousarray(data), self.nbytes, K.hipMemcpyHostToDevice))


def device_bytes(ptr, nbytes):
    out = np.empty(nbytes, np.uint8)
    check(hip.hipMemcpy(out, ptr, nbytes, K.hipMemcpyDeviceToHost))
    return out


def copy_2d(dst_kind, src_kind, width, height, dpad, spad, use_stream, mem, rng):
    dpitch, spitch = width + dpad, width + spad
    src = Region(src_kind, (height - 1) * spitch + width, mem)
    dst = Region(dst_kind, (height - 1) * dpitch + width, mem)
    src_bytes = rng.integers(0, 256, src.nbytes, dtype=np.uint8)
    src.write(src_bytes)
    dst.write(np.full(dst.nbytes, SENTINEL, np.uint8))
    if use_stream is None:
        check(hip.hipMemcpy2D(dst.ptr, dpitch, src.ptr, spitch, width, height, K.hipMemcpyDefault))
    else:
        check(hip.hipMemcpy2DAsync(dst.ptr, dpitch, src.ptr, spitch, width, height, K.hipMemcpyDefault, use_stream))
        check(hip.hipStreamSynchronize(use_stream))
    expected = np.full(height * dpitch, SENTINEL, np.uint8)
    rows = np.pad(src_bytes, (0, spitch - width)).reshape(height, spitch)[:, :width]
    expected.reshape(height, dpitch)[:, :width] = rows
    np.testing.assert_array_equal(dst.read(), expected[: dst.nbytes])  # rows copied, padding untouched


# --- pitched allocations ------------------------------------------------------------------------------------


@given(width=st.integers(1, 3000), height=st.integers(1, 5))
@settings(max_examples=examples(25))
def test_malloc_pitch_rounds_rows_to_256_bytes(width, height):
    p, pitch = check(hip.hipMallocPitch(width, height))
    try:
        assert pitch % 256 == 0 and width <= pitch < width + 256
        assert check(hip.hipMemPtrGetInfo(p)) == pitch * height
        attrs = hip.hipPointerAttribute_t()
        check(hip.hipPointerGetAttributes(attrs, p))
        assert attrs.type == hip.hipMemoryType.hipMemoryTypeDevice
    finally:
        check(hip.hipFree(p))


def test_pitched_allocation_edge_cases():
    assert hip.hipMallocPitch(0, 4) == (E.hipSuccess, None, 0)
    assert hip.hipMallocPitch(width=16, height=0) == (E.hipSuccess, None, 0)
    assert hip.hipMemAllocPitch(16, 2, 3)[0] == E.hipErrorInvalidValue
    assert hip.hipMemAllocPitch(0, 2, 4)[0] == E.hipErrorInvalidValue
    err, p, pitch = hip.hipMemAllocPitch(widthInBytes=300, height=2, elementSizeBytes=8)
    assert err == E.hipSuccess and pitch == 512
    check(hip.hipFree(p))
    with pytest.raises(OverflowError, match="'width'"):
        hip.hipMallocPitch(-1, 2)
    with pytest.raises(TypeError):
        hip.hipMallocPitch(1.5, 2)
    huge = hip.hipMallocPitch(1 << 40, 1 << 20)  # more than the device has
    assert huge[0] == E.hipErrorOutOfMemory


# --- 2D copies ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("on_stream", [False, True], ids=["sync", "stream"])
@pytest.mark.parametrize("src_kind", KINDS)
@pytest.mark.parametrize("dst_kind", KINDS)
def test_memcpy_2d_every_direction(dst_kind, src_kind, on_stream, mem, stream):
    copy_2d(dst_kind, src_kind, 13, 5, 19, 3, stream if on_stream else None, mem, np.random.default_rng(7))


@given(dst_kind=st.sampled_from(KINDS), src_kind=st.sampled_from(KINDS), width=st.integers(1, 40),
       height=st.integers(1, 9), dpad=st.integers(0, 30), spad=st.integers(0, 30), on_stream=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
@settings(max_examples=examples(40))
def test_memcpy_2d_matches_numpy_slicing(dst_kind, src_kind, width, height, dpad, spad, on_stream, seed):
    made = []

    class Mem:  # (hypothesis runs examples inside one test: no function-scoped fixtures)
        def _keep(self, free, p):
            made.append((free, p))
            return p

        def device(self, n):
            return self._keep(hip.hipFree, check(hip.hipMalloc(n)))

        def pinned(self, n):
            return self._keep(hip.hipHostFree, check(hip.hipHostMalloc(n, 0)))

        def managed(self, n):
            return self._keep(hip.hipFree, check(hip.hipMallocManaged(n, hip.hipMemAttachGlobal)))

    s = check(hip.hipStreamCreate()) if on_stream else None
    try:
        copy_2d(dst_kind, src_kind, width, height, dpad, spad, s, Mem(), np.random.default_rng(seed))
    finally:
        rocmath.device_synchronize()
        for free, p in made:
            check(free(p))
        if s is not None:
            check(hip.hipStreamDestroy(s))


def test_memcpy_2d_on_a_pitched_device_matrix(mem):
    """The textbook use: a float matrix into a pitched allocation, a column block back out."""
    a = np.arange(7 * 30, dtype=np.float32).reshape(7, 30)
    d, pitch = mem.pitched(30 * 4, 7)
    check(hip.hipMemcpy2D(d, pitch, a, a.strides[0], 30 * 4, 7, K.hipMemcpyHostToDevice))
    block = np.zeros((7, 5), np.float32)
    check(hip.hipMemcpy2D(block, 5 * 4, int(d) + 10 * 4, pitch, 5 * 4, 7, K.hipMemcpyDeviceToHost))
    np.testing.assert_array_equal(block, a[:, 10:15])
    other, opitch = mem.pitched(5 * 4, 7)  # device to device, between two pitches
    check(hip.hipMemcpy2D(other, opitch, int(d) + 10 * 4, pitch, 5 * 4, 7, K.hipMemcpyDeviceToDevice))
    back = np.zeros((7, 5), np.float32)
    check(hip.hipMemcpy2D(back, 20, other, opitch, 20, 7, K.hipMemcpyDefault))
    np.testing.assert_array_equal(back, a[:, 10:15])


def test_memcpy_2d_is_one_stream_task(mem, stream, monkeypatch):
    rows, width, pitch = 64, 40, 256
    src, dst = mem.device(rows * pitch), mem.device(rows * pitch)
    host = mem.pinned(rows * pitch)
    calls = []
    enqueue = Stream.enqueue

    def counting(self, fn, name, **kwargs):
        calls.append(name)
        return enqueue(self, fn, name, **kwargs)

    monkeypatch.setattr(Stream, "enqueue", counting)
    check(hip.hipMemcpy2DAsync(dst, pitch, src, pitch, width, rows, K.hipMemcpyDeviceToDevice, stream))
    check(hip.hipMemcpy2DAsync(host, pitch, dst, pitch, width, rows, K.hipMemcpyDeviceToHost, stream))
    check(hip.hipMemcpy2D(dst, pitch, host, pitch, width, rows, K.hipMemcpyHostToDevice))
    check(hip.hipMemset2DAsync(dst, pitch, 1, width, rows, stream))
    check(hip.hipMemset2D(dst, pitch, 1, width, rows))
    assert calls == ["hipMemcpy2DAsync", "hipMemcpy2DAsync", "hipMemcpy2D", "hipMemset2DAsync", "hipMemset2D"]
    check(hip.hipStreamSynchronize(stream))


def test_memcpy_2d_async_orders_after_earlier_work(mem, stream):
    n = 32
    d = mem.device(4 * n)
    pinned = mem.pinned(4 * n)
    view = np.ctypeslib.as_array((ctypes.c_ubyte * (4 * n)).from_address(int(pinned)))
    view[:] = 0
    check(hip.hipMemsetAsync(d, 7, 4 * n, stream))
    check(hip.hipMemcpy2DAsync(pinned, 8, d, 4, 4, n // 2, K.hipMemcpyDefault, stream))  # every other word
    check(hip.hipStreamSynchronize(stream))
    assert (view.reshape(-1, 8)[:, :4] == 7).all() and not view.reshape(-1, 8)[:, 4:].any()


def test_memcpy_2d_errors(mem, stream):
    d, pitch = mem.pitched(64, 4)
    host = np.zeros(4 * 64, np.uint8)
    before = device_bytes(d, pitch * 4)
    # width larger than a pitch
    assert hip.hipMemcpy2D(d, 32, host, 64, 64, 4, K.hipMemcpyDefault) == (E.hipErrorInvalidPitchValue,)
    assert hip.hipMemcpy2DAsync(d, pitch, host, 32, 64, 4, K.hipMemcpyDefault, stream) == \
        (E.hipErrorInvalidPitchValue,)
    # rows past the allocation (a fifth row: HIP's validateRegion) or past a host buffer: refused, nothing written
    assert hip.hipMemcpy2D(d, pitch, np.zeros(5 * 64, np.uint8), 64, 64, 5, K.hipMemcpyDefault) == \
        (E.hipErrorInvalidValue,)
    assert "1024 bytes" in str(last_exception()) and "'dst'" in str(last_exception())
    assert hip.hipMemcpy2DAsync(d, 64, host, 64, 64, 5, K.hipMemcpyDefault, stream) == (E.hipErrorIllegalAddress,)
    assert "hipMemcpy2DAsync" in str(last_exception()) and "host buffer" in str(last_exception())
    assert hip.hipMemcpy2D(host, 64, d, pitch, 64, 5, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    np.testing.assert_array_equal(device_bytes(d, pitch * 4), before)
    # NULL, read-only destinations, freed memory, destroyed streams
    assert hip.hipMemcpy2D(None, 64, host, 64, 64, 4, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    assert hip.hipMemcpy2D(bytes(256), 64, d, pitch, 64, 4, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    gone = check(hip.hipMalloc(256))
    check(hip.hipFree(gone))
    assert hip.hipMemcpy2D(host, 64, gone, 64, 64, 4, K.hipMemcpyDefault) == (E.hipErrorInvalidDevicePointer,)
    dead = check(hip.hipStreamCreate())
    check(hip.hipStreamDestroy(dead))
    assert hip.hipMemcpy2DAsync(d, pitch, host, 64, 64, 4, K.hipMemcpyDefault, dead) == (E.hipErrorInvalidValue,)
    # nothing to copy: success, whatever the pointers
    assert hip.hipMemcpy2D(None, 0, None, 0, 0, 4, K.hipMemcpyDefault) == (E.hipSuccess,)
    assert hip.hipMemcpy2D(None, 0, None, 0, 8, 0, K.hipMemcpyDefault) == (E.hipSuccess,)
    with pytest.raises(TypeError, match="_hipMemcpyKind__Base"):
        hip.hipMemcpy2D(d, pitch, host, 64, 64, 4, 1)
    with pytest.raises(OverflowError, match="'dpitch'"):
        hip.hipMemcpy2D(d, -1, host, 64, 64, 4, K.hipMemcpyDefault)


# --- 2D fills and patterned memsets ------------------------------------------------------------------------


@given(width=st.integers(1, 50), height=st.integers(1, 8), pad=st.integers(0, 40), value=st.integers(-2**31,
       2**31 - 1), on_stream=st.booleans())
@settings(max_examples=examples(30))
def test_memset_2d_sets_rows_and_keeps_padding(width, height, pad, value, on_stream):
    pitch = width + pad
    nbytes = (height - 1) * pitch + width + 17
    d = check(hip.hipMalloc(nbytes))
    s = check(hip.hipStreamCreate()) if on_stream else None
    try:
        check(hip.hipMemset(d, SENTINEL, nbytes))
        if s is None:
            check(hip.hipMemset2D(d, pitch, value, width, height))
        else:
            check(hip.hipMemset2DAsync(d, pitch, value, width, height, s))
        out = np.empty(nbytes, np.uint8)
        check(hip.hipMemcpy(out, d, nbytes, K.hipMemcpyDeviceToHost))
        expected = np.full(height * pitch + 17, SENTINEL, np.uint8)
        expected[: height * pitch].reshape(height, pitch)[:, :width] = value & 0xFF
        np.testing.assert_array_equal(out, expected[:nbytes])
    finally:
        rocmath.device_synchronize()
        check(hip.hipFree(d))
        if s is not None:
            check(hip.hipStreamDestroy(s))


def test_memset_2d_errors(mem, stream):
    d, pitch = mem.pitched(100, 3)
    assert hip.hipMemset2D(d, 50, 0, 100, 3) == (E.hipErrorInvalidValue,)  # pitch < width
    assert hip.hipMemset2D(d, pitch, 0, 100, 4) == (E.hipErrorInvalidValue,)  # a fourth row at its pitch
    assert "height" in str(last_exception())
    assert hip.hipMemset2DAsync(np.zeros(1024, np.uint8), 256, 0, 100, 3, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipMemset2D(None, 0, 0, 0, 3) == (E.hipSuccess,)
    pinned = mem.pinned(3 * 256)  # pinned host memory is the runtime's: fillable
    view = np.ctypeslib.as_array((ctypes.c_ubyte * (3 * 256)).from_address(int(pinned))).reshape(3, 256)
    view[:] = 0
    check(hip.hipMemset2D(pinned, 256, 9, 100, 3))
    assert (view[:, :100] == 9).all() and not view[:, 100:].any()
    with pytest.raises(OverflowError, match="'value'"):
        hip.hipMemset2D(d, pitch, 2**31, 100, 3)


@pytest.mark.parametrize(("fn", "itemsize", "value", "on_stream"), [
    ("hipMemsetD8", 1, 0xAB, False), ("hipMemsetD8Async", 1, 0xCD, True),
    ("hipMemsetD16", 2, 0xBEEF, False), ("hipMemsetD16Async", 2, 0x1234, True),
    ("hipMemsetD32", 4, -559038737, False), ("hipMemsetD32Async", 4, 0x7FFFFFFF, True),
])
def test_patterned_memsets(fn, itemsize, value, on_stream, mem, stream):
    count, offset = 37, 3 * itemsize  # an offset start: the bytes before and after stay
    nbytes = offset + count * itemsize + 16
    d = mem.device(nbytes)
    check(hip.hipMemset(d, SENTINEL, nbytes))
    args = (int(d) + offset, value, count) + ((stream,) if on_stream else ())
    check(getattr(hip, fn)(*args))
    out = np.empty(nbytes, np.uint8)
    check(hip.hipMemcpy(out, d, nbytes, K.hipMemcpyDeviceToHost))
    dtype = {1: "<u1", 2: "<u2", 4: "<u4"}[itemsize]
    expected = np.full(nbytes, SENTINEL, np.uint8)
    expected[offset: offset + count * itemsize] = np.full(count, value & (256**itemsize - 1), dtype).view(np.uint8)
    np.testing.assert_array_equal(out, expected)
    assert getattr(hip, fn)(int(d) + nbytes - itemsize, value, 2, *((stream,) if on_stream else ()))[0] == \
        E.hipErrorInvalidValue  # past the allocation (HIP's ihipMemset_validate)


def test_patterned_memset_argument_types(mem, stream):
    d = mem.device(64)
    with pytest.raises(OverflowError, match="unsigned short"):
        hip.hipMemsetD16(d, 0x10000, 4)
    with pytest.raises(OverflowError, match="unsigned char"):
        hip.hipMemsetD8Async(d, 256, 4, stream)
    with pytest.raises(OverflowError, match="'value'"):
        hip.hipMemsetD32(d, 0xDEADBEEF, 4)  # an int in C: hip-python's Cython refuses it
    check(hip.hipMemsetD32(dest=d, value=ctypes.c_int(0xDEADBEEF).value, count=16))
    out = np.empty(16, np.uint32)
    check(hip.hipMemcpy(out, d, 64, K.hipMemcpyDeviceToHost))
    assert (out == 0xDEADBEEF).all()
    assert hip.hipMemsetD16(np.zeros(8, np.uint16), 1, 4) == (E.hipErrorInvalidValue,)  # pageable host memory
    assert hip.hipMemsetD32Async(d, 1, 0, stream) == (E.hipSuccess,)


# --- peer access and peer copies ------------------------------------------------------------------------------


@pytest.fixture
def two_devices(configure):
    configure(count=2)
    yield
    check(hip.hipSetDevice(0))


def test_peer_access_states_and_errors(two_devices):
    assert hip.hipDeviceCanAccessPeer(0, 1) == (E.hipSuccess, 1)
    assert hip.hipDeviceCanAccessPeer(deviceId=1, peerDeviceId=0) == (E.hipSuccess, 1)
    assert hip.hipDeviceCanAccessPeer(1, 1) == (E.hipSuccess, 0)
    assert hip.hipDeviceCanAccessPeer(5, 5) == (E.hipSuccess, 0)  # a device and itself come first, as in HIP
    assert hip.hipDeviceCanAccessPeer(0, 2)[0] == E.hipErrorInvalidDevice
    assert hip.hipDeviceCanAccessPeer(-1, 0)[0] == E.hipErrorInvalidDevice
    assert hip.hipDeviceEnablePeerAccess(1, 1) == (E.hipErrorInvalidValue,)
    assert hip.hipDeviceEnablePeerAccess(0, 0) == (E.hipErrorInvalidDevice,)  # itself
    assert hip.hipDeviceEnablePeerAccess(7, 0) == (E.hipErrorInvalidDevice,)
    assert hip.hipDeviceDisablePeerAccess(1) == (E.hipErrorPeerAccessNotEnabled,)
    check(hip.hipDeviceEnablePeerAccess(peerDeviceId=1, flags=0))
    assert hip.hipDeviceEnablePeerAccess(1, 0) == (E.hipErrorPeerAccessAlreadyEnabled,)
    check(hip.hipSetDevice(1))  # one-way: device 1 has not enabled device 0
    assert hip.hipDeviceDisablePeerAccess(0) == (E.hipErrorPeerAccessNotEnabled,)
    check(hip.hipDeviceEnablePeerAccess(0, 0))
    check(hip.hipDeviceDisablePeerAccess(0))
    check(hip.hipSetDevice(0))
    check(hip.hipDeviceDisablePeerAccess(1))
    assert hip.hipDeviceDisablePeerAccess(1) == (E.hipErrorPeerAccessNotEnabled,)
    assert hip.hipDeviceDisablePeerAccess(3) == (E.hipErrorInvalidDevice,)


def test_peer_copies_between_devices(two_devices):
    a = np.arange(64, dtype=np.float64)
    d0 = check(hip.hipMalloc(a.nbytes))
    check(hip.hipSetDevice(1))
    d1 = check(hip.hipMalloc(a.nbytes))
    s1 = check(hip.hipStreamCreate())
    check(hip.hipSetDevice(0))
    try:
        assert check(hip.hipStreamGetDevice(s1)) == 1
        assert check(hip.hipStreamGetDevice(None)) == 0
        check(hip.hipMemcpy(d0, a, a.nbytes, K.hipMemcpyHostToDevice))
        check(hip.hipMemcpyPeer(d1, 1, d0, 0, a.nbytes))
        back = np.zeros_like(a)
        check(hip.hipMemcpy(back, d1, a.nbytes, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(back, a)
        check(hip.hipMemsetAsync(d0, 0, a.nbytes, None))
        check(hip.hipDeviceSynchronize())
        check(hip.hipMemcpyPeerAsync(dst=int(d0) + 256, dstDeviceId=0, src=d1, srcDevice=1, sizeBytes=256,
                                     stream=s1))
        check(hip.hipStreamSynchronize(s1))
        check(hip.hipMemcpy(back, d0, a.nbytes, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(back[32:], a[:32])
        assert not back[:32].any()
        assert hip.hipMemcpyPeer(d1, 2, d0, 0, 8) == (E.hipErrorInvalidDevice,)
        assert hip.hipMemcpyPeer(d1, 1, d0, 0, a.nbytes + 8) == (E.hipErrorInvalidValue,)
        assert hip.hipMemcpyPeer(None, 1, d0, 0, 8) == (E.hipErrorInvalidValue,)
        # as in HIP the indices only have to name devices: the copy goes where the pointers are
        check(hip.hipMemcpyPeer(d1, 0, int(d0) + 8, 1, 8))
        check(hip.hipMemcpyPeerAsync(d1, 1, np.full(8, 0xEE, np.uint8), 0, 8, s1))  # a host source
        check(hip.hipStreamSynchronize(s1))
        back1 = np.zeros(a.nbytes, np.uint8)
        check(hip.hipMemcpy(back1, d1, a.nbytes, K.hipMemcpyDeviceToHost))
        assert (back1[:8] == 0xEE).all()
        np.testing.assert_array_equal(back1[8:].view(np.float64), a[1:])
        dead = check(hip.hipStreamCreate())
        check(hip.hipStreamDestroy(dead))
        hip.hipGetLastError()
        assert hip.hipMemcpyPeerAsync(d1, 1, d0, 0, 8, dead) == (E.hipErrorContextIsDestroyed,)
        assert hip.hipGetLastError() == (E.hipSuccess,)  # returned bare by HIP: not the last error
    finally:
        rocmath.device_synchronize(0)
        rocmath.device_synchronize(1)
        check(hip.hipStreamDestroy(s1))
        check(hip.hipFree(d0))
        check(hip.hipFree(d1))


# --- pointer attributes, address ranges, registered host memory ------------------------------------------------


def test_pointer_attributes_of_each_kind(mem):
    T = hip.hipMemoryType
    attrs = hip.hipPointerAttribute_t()
    d = mem.device(1000)
    check(hip.hipPointerGetAttributes(attrs, int(d) + 10))
    assert (attrs.type, attrs.device, int(attrs.devicePointer), int(attrs.hostPointer), attrs.isManaged,
            attrs.allocationFlags) == (T.hipMemoryTypeDevice, 0, int(d) + 10, 0, 0, 0)
    p = mem.pinned(64, hip.hipHostMallocMapped)
    check(hip.hipPointerGetAttributes(attrs, p))
    assert (attrs.type, int(attrs.hostPointer), int(attrs.devicePointer), attrs.allocationFlags) == \
        (T.hipMemoryTypeHost, int(p), int(p), hip.hipHostMallocMapped)
    m = mem.managed(64)
    check(hip.hipPointerGetAttributes(attributes=attrs, ptr=m))
    assert (attrs.type, attrs.isManaged, int(attrs.hostPointer), attrs.device) == (T.hipMemoryTypeManaged, 1,
                                                                                  int(m), 0)
    pageable = np.zeros(16)
    check(hip.hipPointerGetAttributes(attrs, pageable))
    assert (attrs.type, attrs.device, int(attrs.devicePointer)) == (T.hipMemoryTypeUnregistered,
                                                                    hip.hipInvalidDeviceId, 0)
    gone = check(hip.hipMalloc(8))
    check(hip.hipFree(gone))
    check(hip.hipPointerGetAttributes(attrs, gone))
    assert attrs.type == T.hipMemoryTypeUnregistered
    assert hip.hipPointerGetAttributes(attrs, None) == (E.hipErrorInvalidValue,)
    assert hip.hipPointerGetAttributes(None, d) == (E.hipErrorInvalidValue,)
    # the struct at a raw address, as C would see it (32 bytes)
    raw = (ctypes.c_ubyte * attrs.c_sizeof())()
    check(hip.hipPointerGetAttributes(ctypes.addressof(raw), d))
    view = hip.hipPointerAttribute_t.fromObj(ctypes.addressof(raw))
    assert view.type == T.hipMemoryTypeDevice and int(view.devicePointer) == int(d)
    assert int.from_bytes(bytes(raw[:4]), "little") == 2 and attrs.c_sizeof() == 32
    assert hip.hipPointerGetAttributes(bytearray(8), d) == (E.hipErrorInvalidValue,)  # too small for the struct


def test_pointer_attribute_struct_like_hip_python():
    T = hip.hipMemoryType
    a = hip.hipPointerAttribute_t(T.hipMemoryTypeHost, 3, isManaged=1)
    assert (a.type, a.device, a.isManaged, a[1], a[0]) == (T.hipMemoryTypeHost, 3, 1, 3, T.hipMemoryTypeHost)
    assert "allocationFlags" in a and a.PROPERTIES()[2] == "devicePointer"
    assert hip.hipPointerAttribute_t.fromObj(a) is a and int(a) == ctypes.addressof(a._store)
    c = hip.hipPointerAttribute_t._c  # hip_runtime_api.h's layout
    assert [(n, getattr(c, n).offset) for n, _ in c._fields_] == [
        ("type", 0), ("device", 4), ("devicePointer", 8), ("hostPointer", 16), ("isManaged", 24),
        ("allocationFlags", 28)] and ctypes.sizeof(c) == 32
    with pytest.raises(TypeError, match="hipMemoryType"):
        a.type = 2
    with pytest.raises(KeyError):
        hip.hipPointerAttribute_t(colour=1)
    with pytest.raises(KeyError):
        hip.hipPointerAttribute_t(T.hipMemoryTypeHost, type=T.hipMemoryTypeHost)
    with pytest.raises(ValueError):
        a["type"]
    a.devicePointer = 0x1000
    assert int(a.devicePointer) == 0x1000


def test_address_ranges(mem):
    d = mem.device(300)
    err, base, size = hip.hipMemGetAddressRange(int(d) + 123)
    assert (err, int(base), size) == (E.hipSuccess, int(d), 300)
    m = mem.managed(100)
    err, base, size = hip.hipMemGetAddressRange(dptr=int(m) + 99)
    assert (err, int(base), size) == (E.hipSuccess, int(m), 100)  # the host-visible base of managed memory
    assert hip.hipMemPtrGetInfo(ptr=int(d) + 299) == (E.hipSuccess, 300)
    assert hip.hipMemGetAddressRange(int(d) + 300)[0] == E.hipErrorNotFound  # one past the end
    assert hip.hipMemGetAddressRange(np.zeros(4))[0] == E.hipErrorNotFound
    assert hip.hipMemPtrGetInfo(np.zeros(4))[0] == E.hipErrorInvalidValue


def test_host_register_unregister_and_flags(mem):
    buf = np.zeros(4096, np.uint8)
    check(hip.hipHostRegister(buf, buf.nbytes, hip.hipHostRegisterMapped))
    try:
        attrs = hip.hipPointerAttribute_t()
        check(hip.hipPointerGetAttributes(attrs, buf.ctypes.data + 100))
        assert (attrs.type, attrs.allocationFlags, int(attrs.hostPointer)) == \
            (hip.hipMemoryType.hipMemoryTypeHost, hip.hipHostRegisterMapped, buf.ctypes.data + 100)
        assert hip.hipMemPtrGetInfo(buf[10:]) == (E.hipSuccess, 4096)
        assert int(check(hip.hipHostGetDevicePointer(buf, 0))) == buf.ctypes.data
        assert hip.hipHostGetFlags(buf)[0] == E.hipErrorInvalidValue  # registered memory: as the AMD runtime
        assert hip.hipHostRegister(buf, 16, 0) == (E.hipErrorHostMemoryAlreadyRegistered,)
        assert hip.hipHostRegister(buf.ctypes.data + 4000, 200, 0) == (E.hipErrorHostMemoryAlreadyRegistered,)
        d = mem.device(4096)  # copies with registered memory work as with any host memory
        check(hip.hipMemcpy2D(buf, 64, d, 64, 32, 64, K.hipMemcpyDefault))
        assert hip.hipHostUnregister(buf.ctypes.data + 1) == (E.hipErrorHostMemoryNotRegistered,)
    finally:
        check(hip.hipHostUnregister(hostPtr=buf))
    assert hip.hipHostUnregister(buf) == (E.hipErrorHostMemoryNotRegistered,)
    assert hip.hipHostRegister(None, 16, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipHostRegister(buf, 0, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipHostRegister(buf, 16, 16) == (E.hipErrorInvalidValue,)
    assert hip.hipHostRegister(buf, 8192, 0) == (E.hipErrorInvalidValue,)  # larger than the buffer
    assert hip.hipHostRegister(mem.device(16), 16, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipHostUnregister(None) == (E.hipErrorInvalidValue,)
    pinned = mem.pinned(64, hip.hipHostMallocPortable | hip.hipHostMallocMapped)
    assert hip.hipHostGetFlags(pinned) == (E.hipSuccess, hip.hipHostMallocPortable | hip.hipHostMallocMapped)
    assert hip.hipHostRegister(pinned, 64, 0) == (E.hipErrorHostMemoryAlreadyRegistered,)
    assert hip.hipHostGetFlags(hostPtr=mem.managed(64)) == (E.hipSuccess, 0)
    assert hip.hipHostGetFlags(mem.device(64))[0] == E.hipErrorInvalidValue
    assert hip.hipHostGetFlags(np.zeros(2))[0] == E.hipErrorInvalidValue


def test_registered_host_memory_is_device_memory_to_the_libraries():
    """Library calls take pointers into registered host memory (as a GPU system's device reaches it): hipblas
    with the device pointer, the array itself, an offset into it and pointer arrays of it (batched), rocBLAS
    and rocSOLVER through rocmath; bytes past the range are refused, and after hipHostUnregister the pointers
    are again, the memory left as it was; hipFree/hipHostFree never release it."""
    from rocmath import blas, solver
    from rocmath.hip import hipblas

    rng = np.random.default_rng(5)
    x, y = np.arange(8.0), np.ones(8)
    a = [np.asfortranarray(rng.standard_normal((3, 3))) for _ in range(4)]  # A0, A1, B0, B1
    c = [np.full((3, 3), np.nan, order="F") for _ in range(2)]
    ptrs = [np.array([m.ctypes.data for m in group], np.uint64) for group in (a[:2], a[2:], c)]
    lu, ipiv, info = np.asfortranarray(rng.standard_normal((4, 4)) + 4 * np.eye(4)), np.zeros(4, np.int32), \
        np.full(1, -1, np.int32)
    registered = [x, y, *a, *c, *ptrs, lu, ipiv, info]
    for m in registered:
        check(hip.hipHostRegister(m, m.nbytes, 0))
    h = check(hipblas.hipblasCreate())
    handle = blas.create_handle()
    two, one, zero = ctypes.c_double(2.0), ctypes.c_double(1.0), ctypes.c_double(0.0)
    try:
        dx, dy = check(hip.hipHostGetDevicePointer(x, 0)), check(hip.hipHostGetDevicePointer(y, 0))
        check(hipblas.hipblasDaxpy(h, 8, ctypes.addressof(two), dx, 1, dy, 1))
        check(hip.hipDeviceSynchronize())
        np.testing.assert_array_equal(y, 1 + 2 * np.arange(8.0))
        check(hipblas.hipblasDaxpy(h, 3, ctypes.addressof(one), x[1:], 2, y.ctypes.data + 8, 1))  # inside it
        check(hip.hipDeviceSynchronize())
        np.testing.assert_array_equal(y, 1 + 2 * np.arange(8.0) + [0, 1, 3, 5, 0, 0, 0, 0])
        op_n = hipblas.hipblasOperation_t.HIPBLAS_OP_N
        check(hipblas.hipblasDgemmBatched(h, op_n, op_n, 3, 3, 3, ctypes.addressof(one), ptrs[0].ctypes.data, 3,
                                          ptrs[1].ctypes.data, 3, ctypes.addressof(zero), ptrs[2].ctypes.data, 3, 2))
        check(hip.hipDeviceSynchronize())
        for e in range(2):
            np.testing.assert_allclose(c[e], a[e] @ a[2 + e], rtol=1e-14, atol=1e-14)
        expected_lu, expected_piv, _ = scipy_getrf(lu.copy())
        solver.dgetrf(handle, 4, 4, lu.ctypes.data, 4, ipiv.ctypes.data, info.ctypes.data)
        rocmath.device_synchronize()
        np.testing.assert_allclose(lu, expected_lu, rtol=1e-13, atol=1e-13)
        np.testing.assert_array_equal(ipiv, expected_piv + 1)
        assert info[0] == 0
        before = y.copy()  # one element past the registered bytes: refused before anything runs
        assert hipblas.hipblasDaxpy(h, 8, ctypes.addressof(one), x.ctypes.data + 8, 1, dy, 1) == (
            hipblas.hipblasStatus_t.HIPBLAS_STATUS_EXECUTION_FAILED,)
        np.testing.assert_array_equal(y, before)
        assert hip.hipFree(dx) == (hip.hipError_t.hipErrorInvalidDevicePointer,)
        assert hip.hipHostFree(dx) == (hip.hipError_t.hipErrorInvalidDevicePointer,)
    finally:
        for m in registered:
            check(hip.hipHostUnregister(m))
        blas.destroy_handle(handle)
    before = y.copy()
    assert hipblas.hipblasDaxpy(h, 8, ctypes.addressof(two), dx, 1, dy, 1) == (
        hipblas.hipblasStatus_t.HIPBLAS_STATUS_INVALID_VALUE,)
    check(hip.hipDeviceSynchronize())
    np.testing.assert_array_equal(y, before)
    check(hipblas.hipblasDestroy(h))


def scipy_getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    import scipy.linalg.lapack as lapack

    return lapack.dgetrf(a)


# --- stream callbacks ---------------------------------------------------------------------------------------


def test_callbacks_run_in_stream_order_with_hip_python_arguments(mem, stream):
    n = 1 << 12
    d = mem.device(n)
    pinned = mem.pinned(n)
    view = np.ctypeslib.as_array((ctypes.c_ubyte * n).from_address(int(pinned)))
    seen = []

    def callback(s, status, user_data):
        seen.append((s, status, user_data, int(view[0]), int(view[-1])))

    token = object()
    check(hip.hipMemsetAsync(d, 1, n, stream))
    check(hip.hipMemcpyAsync(pinned, d, n, K.hipMemcpyDeviceToHost, stream))
    check(hip.hipStreamAddCallback(stream, callback, token, 0))
    check(hip.hipMemsetAsync(d, 2, n, stream))
    check(hip.hipMemcpyAsync(pinned, d, n, K.hipMemcpyDeviceToHost, stream))
    check(hip.hipStreamAddCallback(stream=stream, callback=callback, userData=None, flags=0))
    check(hip.hipStreamSynchronize(stream))
    assert seen == [(stream, E.hipSuccess, token, 1, 1), (stream, E.hipSuccess, None, 2, 2)]
    assert isinstance(seen[0][1], hip.hipError_t)
    check(hip.hipStreamAddCallback(None, callback, 5, 0))  # the null stream
    check(hip.hipDeviceSynchronize())
    assert seen[-1][:3] == (None, E.hipSuccess, 5)


def test_callback_that_blocks_later_work(mem, stream):
    d = mem.device(8)
    order = []
    check(hip.hipStreamAddCallback(stream, lambda s, st, u: order.append("callback"), None, 0))
    check(hip.hipLaunchHostFunc(stream, lambda u: order.append("host func"), None))
    check(hip.hipMemsetAsync(d, 0, 8, stream))
    check(hip.hipStreamAddCallback(stream, lambda s, st, u: order.append("after"), None, 0))
    check(hip.hipStreamSynchronize(stream))
    assert order == ["callback", "host func", "after"]


def test_callback_sees_the_error_of_earlier_work(stream):
    seen = []

    def fail(_):
        raise RuntimeError("host function failed")

    check(hip.hipLaunchHostFunc(stream, fail, None))
    check(hip.hipStreamAddCallback(stream, lambda s, status, u: seen.append(status), None, 0))
    assert hip.hipStreamSynchronize(stream) == (E.hipErrorLaunchFailure,)  # the callback still ran, then this
    assert seen == [E.hipErrorLaunchFailure]
    hip.hipGetLastError()


def test_c_function_pointer_callbacks(stream):
    got = []
    CB = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
    fn = CB(lambda s, status, user: got.append((s, status, user)))
    data = ctypes.c_int(42)
    check(hip.hipStreamAddCallback(stream, fn, ctypes.addressof(data), 0))  # the ctypes object itself
    check(hip.hipStreamAddCallback(stream, ctypes.cast(fn, ctypes.c_void_p), None, 0))  # its address, as C takes it
    check(hip.hipStreamAddCallback(stream, hip.hipStreamCallback_t(ctypes.cast(fn, ctypes.c_void_p)), data, 0))
    check(hip.hipStreamSynchronize(stream))
    assert got == [(int(stream), 0, ctypes.addressof(data)), (int(stream), 0, None),
                   (int(stream), 0, ctypes.addressof(data))]


def test_callback_errors(stream):
    assert hip.hipStreamAddCallback(stream, lambda *a: None, None, 1) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAddCallback(stream, None, None, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipStreamAddCallback(stream, 0, None, 0) == (E.hipErrorInvalidValue,)
    dead = check(hip.hipStreamCreate())
    check(hip.hipStreamDestroy(dead))
    assert hip.hipStreamAddCallback(dead, None, None, 0) == (E.hipErrorInvalidValue,)  # checked first
    assert hip.hipStreamAddCallback(dead, lambda *a: None, None, 0) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipStreamGetDevice(dead) == (E.hipErrorContextIsDestroyed, None)


def test_stream_priority_range_and_device(stream):
    least, greatest = check(hip.hipDeviceGetStreamPriorityRange())
    assert (least, greatest) == (1, -1)
    s = check(hip.hipStreamCreateWithPriority(hip.hipStreamDefault, greatest))
    try:
        assert check(hip.hipStreamGetPriority(s)) == -1
        assert hip.hipStreamGetDevice(stream=s) == (E.hipSuccess, 0)
    finally:
        check(hip.hipStreamDestroy(s))


# --- unified memory hints ---------------------------------------------------------------------------------


def test_prefetch_and_advise(mem, stream):
    A = hip.hipMemoryAdvise
    m = mem.managed(4096)
    check(hip.hipMemPrefetchAsync(m, 4096, 0, stream))
    check(hip.hipMemPrefetchAsync(dev_ptr=int(m) + 96, count=4000, device=hip.hipCpuDeviceId, stream=None))
    assert hip.hipMemPrefetchAsync(m, 4097, 0, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPrefetchAsync(m, 0, 0, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPrefetchAsync(None, 16, 0, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipMemPrefetchAsync(m, 16, 3, stream) == (E.hipErrorInvalidDevice,)
    assert hip.hipMemPrefetchAsync(np.zeros(16), 16, 0, stream) == (E.hipErrorNotSupported,)  # pageable, no XNACK
    check(hip.hipStreamSynchronize(stream))
    for advice in A:
        device = 0 if advice not in (A.hipMemAdviseSetAccessedBy,) else hip.hipCpuDeviceId
        check(hip.hipMemAdvise(m, 4096, advice, device))
    check(hip.hipMemAdvise(dev_ptr=m, count=16, advice=A.hipMemAdviseSetReadMostly, device=9))  # device ignored
    assert hip.hipMemAdvise(m, 16, A.hipMemAdviseSetPreferredLocation, 9) == (E.hipErrorInvalidDevice,)
    assert hip.hipMemAdvise(m, 8192, A.hipMemAdviseSetPreferredLocation, 0) == (E.hipErrorInvalidValue,)
    assert hip.hipMemAdvise(np.zeros(2), 16, A.hipMemAdviseSetPreferredLocation, 0) == (E.hipErrorInvalidValue,)
    with pytest.raises(TypeError, match="_hipMemoryAdvise__Base"):
        hip.hipMemAdvise(m, 16, 1, 0)


# --- device flags and limits ---------------------------------------------------------------------------------


@pytest.fixture
def restore_device_settings():
    yield
    check(hip.hipSetDeviceFlags(hip.hipDeviceScheduleSpin))
    check(hip.hipDeviceSetLimit(hip.hipLimit_t.hipLimitStackSize, 1024))
    check(hip.hipDeviceSetLimit(hip.hipLimit_t.hipLimitMallocHeapSize, 8 << 20))


def test_device_flags(restore_device_settings):
    assert hip.hipGetDeviceFlags() == (E.hipSuccess, hip.hipDeviceScheduleSpin)
    check(hip.hipSetDeviceFlags(hip.hipDeviceScheduleYield | hip.hipDeviceMapHost))
    assert hip.hipGetDeviceFlags() == (E.hipSuccess, hip.hipDeviceScheduleYield)  # the scheduling part is kept
    check(hip.hipSetDeviceFlags(flags=hip.hipDeviceScheduleBlockingSync | hip.hipDeviceLmemResizeToMax))
    assert check(hip.hipGetDeviceFlags()) == hip.hipDeviceScheduleBlockingSync
    assert hip.hipSetDeviceFlags(hip.hipDeviceScheduleSpin | hip.hipDeviceScheduleYield) == (E.hipErrorInvalidValue,)
    assert hip.hipSetDeviceFlags(0x100) == (E.hipErrorInvalidValue,)
    with pytest.raises(OverflowError):
        hip.hipSetDeviceFlags(-1)


def test_device_limits(restore_device_settings):
    L = hip.hipLimit_t
    assert hip.hipDeviceGetLimit(L.hipLimitStackSize) == (E.hipSuccess, 1024)
    assert hip.hipDeviceGetLimit(limit=L.hipLimitMallocHeapSize) == (E.hipSuccess, 8 << 20)
    check(hip.hipDeviceSetLimit(L.hipLimitStackSize, 1000))
    assert check(hip.hipDeviceGetLimit(L.hipLimitStackSize)) == 1008  # rounded up to 16 bytes
    check(hip.hipDeviceSetLimit(limit=L.hipLimitStackSize, value=128 * 1024 - 16))
    assert hip.hipDeviceSetLimit(L.hipLimitStackSize, 128 * 1024) == (E.hipErrorInvalidValue,)
    check(hip.hipDeviceSetLimit(L.hipLimitMallocHeapSize, 64 << 20))
    assert check(hip.hipDeviceGetLimit(L.hipLimitMallocHeapSize)) == 64 << 20
    total = rocmath.get_device_properties().totalGlobalMem
    assert hip.hipDeviceSetLimit(L.hipLimitMallocHeapSize, total) == (E.hipErrorInvalidValue,)
    assert hip.hipDeviceGetLimit(L.hipLimitPrintfFifoSize) == (E.hipErrorUnsupportedLimit, None)
    assert hip.hipDeviceSetLimit(L.hipLimitPrintfFifoSize, 1) == (E.hipErrorUnsupportedLimit,)
    assert hip.hipDeviceGetLimit(L.hipLimitRange)[0] == E.hipErrorInvalidValue
    with pytest.raises(TypeError, match="_hipLimit_t__Base"):
        hip.hipDeviceGetLimit(0)


def test_settings_are_per_device(two_devices):
    check(hip.hipSetDevice(1))
    check(hip.hipSetDeviceFlags(hip.hipDeviceScheduleYield))
    check(hip.hipDeviceSetLimit(hip.hipLimit_t.hipLimitStackSize, 4096))
    check(hip.hipSetDevice(0))
    assert check(hip.hipGetDeviceFlags()) == hip.hipDeviceScheduleSpin
    assert check(hip.hipDeviceGetLimit(hip.hipLimit_t.hipLimitStackSize)) == 1024


# --- enums and signatures --------------------------------------------------------------------------------------


def test_enum_values_are_hips():
    assert [(m.name, int(m)) for m in hip.hipMemoryType] == [
        ("hipMemoryTypeUnregistered", 0), ("hipMemoryTypeHost", 1), ("hipMemoryTypeDevice", 2),
        ("hipMemoryTypeManaged", 3), ("hipMemoryTypeArray", 10), ("hipMemoryTypeUnified", 11)]
    assert [int(m) for m in hip.hipMemoryAdvise] == [1, 2, 3, 4, 5, 6, 100, 101]
    assert [(m.name, int(m)) for m in hip.hipLimit_t] == [
        ("hipLimitStackSize", 0), ("hipLimitPrintfFifoSize", 1), ("hipLimitMallocHeapSize", 2), ("hipLimitRange", 3)]
    assert (E.hipErrorInvalidPitchValue, E.hipErrorUnsupportedLimit, E.hipErrorHostMemoryAlreadyRegistered,
            E.hipErrorHostMemoryNotRegistered, E.hipErrorNotFound) == (12, 215, 712, 713, 500)


#: hip-python 6.2's parameters (hip/hip.pyx).
SIGNATURES = {
    "hipMemcpy2D": "dst dpitch src spitch width height kind",
    "hipMemcpy2DAsync": "dst dpitch src spitch width height kind stream",
    "hipMallocPitch": "width height",
    "hipMemAllocPitch": "widthInBytes height elementSizeBytes",
    "hipMemset2D": "dst pitch value width height",
    "hipMemset2DAsync": "dst pitch value width height stream",
    "hipMemsetD16": "dest value count",
    "hipMemsetD32": "dest value count",
    "hipMemsetD8Async": "dest value count stream",
    "hipMemsetD16Async": "dest value count stream",
    "hipMemsetD32Async": "dst value count stream",
    "hipMemcpyPeer": "dst dstDeviceId src srcDeviceId sizeBytes",
    "hipMemcpyPeerAsync": "dst dstDeviceId src srcDevice sizeBytes stream",
    "hipDeviceCanAccessPeer": "deviceId peerDeviceId",
    "hipDeviceEnablePeerAccess": "peerDeviceId flags",
    "hipDeviceDisablePeerAccess": "peerDeviceId",
    "hipPointerGetAttributes": "attributes ptr",
    "hipStreamAddCallback": "stream callback userData flags",
    "hipStreamGetDevice": "stream",
    "hipDeviceGetStreamPriorityRange": "",
    "hipMemPrefetchAsync": "dev_ptr count device stream",
    "hipMemAdvise": "dev_ptr count advice device",
    "hipMemPtrGetInfo": "ptr",
    "hipMemGetAddressRange": "dptr",
    "hipHostRegister": "hostPtr sizeBytes flags",
    "hipHostUnregister": "hostPtr",
    "hipHostGetFlags": "hostPtr",
    "hipGetDeviceFlags": "",
    "hipSetDeviceFlags": "flags",
    "hipDeviceGetLimit": "limit",
    "hipDeviceSetLimit": "limit value",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_parameter_names_are_hip_pythons(name):
    assert list(inspect.signature(getattr(hip, name)).parameters) == SIGNATURES[name].split()
