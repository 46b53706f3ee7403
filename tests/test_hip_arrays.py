"""HIP arrays (hipArray_t) and their copies, against NumPy and clr's statuses (hipamd/src/hip_memory.cpp)."""

from __future__ import annotations

import numpy as np
import pytest
from hip_util import check, hip_clean_state  # noqa: F401 - the fixture, used by pytestmark

from rocmath.hip import hip

E = hip.hipError_t
K = hip.hipMemcpyKind
F = hip.hipChannelFormatKind

pytestmark = pytest.mark.usefixtures("hip_clean_state")


def _float_desc(channels: int = 1) -> hip.hipChannelFormatDesc:
    bits = [32 if i < channels else 0 for i in range(4)]
    return check(hip.hipCreateChannelDesc(*bits, F.hipChannelFormatKindFloat))


def test_2d_round_trip_with_offsets_and_pitches() -> None:
    arr = check(hip.hipMallocArray(_float_desc(), 6, 4, 0))
    try:
        full = np.zeros((4, 6), np.float32)
        check(hip.hipMemcpy2DToArray(arr, 0, 0, full, 24, 24, 4, K.hipMemcpyHostToDevice))
        block = np.arange(2 * 3 * 2, dtype=np.float32).reshape(2, 6)[:, :3].copy()
        src = np.zeros((2, 5), np.float32)
        src[:, :3] = block
        check(hip.hipMemcpy2DToArray(dst=arr, wOffset=8, hOffset=1, src=src, spitch=20, width=12, height=2,
                                     kind=K.hipMemcpyHostToDevice))
        out = np.full((4, 7), -1, np.float32)
        check(hip.hipMemcpy2DFromArray(out, 28, arr, 0, 0, 24, 4, K.hipMemcpyDeviceToHost))
        expected = np.zeros((4, 6), np.float32)
        expected[1:3, 2:5] = block
        np.testing.assert_array_equal(out[:, :6], expected)
        assert (out[:, 6] == -1).all()
        # bounds: a region past the array, then a pitch below the width, then a NULL array
        assert hip.hipMemcpy2DToArray(arr, 16, 0, src, 20, 12, 1, K.hipMemcpyHostToDevice)[0] == \
            E.hipErrorInvalidValue
        assert hip.hipMemcpy2DToArray(arr, 0, 3, src, 20, 12, 2, K.hipMemcpyHostToDevice)[0] == \
            E.hipErrorInvalidValue
        assert hip.hipMemcpy2DToArray(arr, 0, 0, src, 8, 12, 1, K.hipMemcpyHostToDevice)[0] == \
            E.hipErrorInvalidPitchValue
        assert hip.hipMemcpy2DToArray(None, 0, 0, src, 20, 12, 1, K.hipMemcpyHostToDevice)[0] == \
            E.hipErrorInvalidHandle
        check(hip.hipMemcpy2DFromArray(out, 28, arr, 0, 0, 24, 4, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(out[:, :6], expected)  # refused copies wrote nothing
    finally:
        check(hip.hipFreeArray(arr))


def test_1d_driver_copies_and_array_to_array() -> None:
    a = check(hip.hipMallocArray(_float_desc(), 16, 0, 0))
    b = check(hip.hipMallocArray(_float_desc(), 16, 0, 0))
    dev = check(hip.hipMalloc(64))
    try:
        data = np.arange(16, dtype=np.float32)
        check(hip.hipMemcpyHtoA(a, 0, data, 64))
        check(hip.hipMemcpyAtoA(b, 0, a, 0, 64))
        check(hip.hipMemcpyAtoA(b, 8, a, 32, 16))  # b[2:6] = a[8:12]
        out = np.zeros(16, np.float32)
        check(hip.hipMemcpyAtoH(out, b, 0, 64))
        ref = data.copy()
        ref[2:6] = data[8:12]
        np.testing.assert_array_equal(out, ref)
        check(hip.hipMemcpyAtoD(dev, b, 0, 64))
        check(hip.hipMemcpyDtoA(a, 4, dev, 60))  # a[1:] = b[:15]
        check(hip.hipMemcpyAtoH(out, a, 0, 64))
        np.testing.assert_array_equal(out, np.concatenate([[0], ref[:15]]))
        stream = check(hip.hipStreamCreate())
        try:
            check(hip.hipMemcpyHtoAAsync(a, 0, data[::-1].copy(), 64, stream))
            check(hip.hipMemcpyAtoHAsync(out, a, 0, 64, stream))
            check(hip.hipStreamSynchronize(stream))
        finally:
            check(hip.hipStreamDestroy(stream))
        np.testing.assert_array_equal(out, data[::-1])
        assert hip.hipMemcpyHtoA(a, 4, data, 64)[0] == E.hipErrorInvalidValue
        assert hip.hipMemcpyAtoH(out, a, 0, 0)[0] == E.hipErrorInvalidValue
        assert hip.hipMemcpyAtoD(dev, None, 0, 4)[0] == E.hipErrorInvalidValue
    finally:
        check(hip.hipFree(dev))
        check(hip.hipFreeArray(a))
        check(hip.hipFreeArray(b))


def test_3d_array_descriptors_and_statuses() -> None:
    desc3 = hip.HIP_ARRAY3D_DESCRIPTOR(Width=4, Height=3, Depth=2,
                                       Format=hip.hipArray_Format.HIP_AD_FORMAT_SIGNED_INT16, NumChannels=2, Flags=0)
    arr = check(hip.hipArray3DCreate(desc3))
    try:
        got = hip.HIP_ARRAY3D_DESCRIPTOR()
        check(hip.hipArray3DGetDescriptor(got, arr))
        assert (got.Width, got.Height, got.Depth, got.NumChannels) == (4, 3, 2, 2)
        assert got.Format == hip.hipArray_Format.HIP_AD_FORMAT_SIGNED_INT16
        cd, ext = hip.hipChannelFormatDesc(), hip.hipExtent()
        assert check(hip.hipArrayGetInfo(cd, ext, arr)) == 0
        assert (cd.x, cd.y, cd.z, cd.w, cd.f) == (16, 16, 0, 0, F.hipChannelFormatKindSigned)
        assert (ext.width, ext.height, ext.depth) == (4, 3, 2)
        assert hip.hipArrayGetDescriptor(hip.HIP_ARRAY_DESCRIPTOR(), arr)[0] == E.hipErrorInvalidValue
        # a 3D region copy through the driver struct: the whole array in, one slice row out
        data = np.arange(2 * 3 * 4 * 2, dtype=np.int16).reshape(2, 3, 4, 2)
        c = hip.HIP_MEMCPY3D(srcMemoryType=hip.hipMemoryType.hipMemoryTypeHost, srcHost=data, srcPitch=16,
                             srcHeight=3, dstMemoryType=hip.hipMemoryType.hipMemoryTypeArray,
                             WidthInBytes=16, Height=3, Depth=2)
        c._c.from_address(c._ptr).dstArray = int(arr)
        check(hip.hipDrvMemcpy3D(c))
        out = np.zeros((2, 3, 4, 2), np.int16)
        check(hip.hipMemcpyAtoH(out, arr, 0, 16))
        np.testing.assert_array_equal(out.reshape(-1)[:8], data.reshape(-1)[:8])
        assert hip.hipFree(arr)[0] == E.hipErrorInvalidValue
    finally:
        check(hip.hipFreeArray(arr))
    assert hip.hipFreeArray(arr)[0] == E.hipErrorContextIsDestroyed
    assert hip.hipFreeArray(None)[0] == E.hipErrorInvalidValue
    bad = hip.HIP_ARRAY3D_DESCRIPTOR(Width=4, Height=3, Depth=0, Format=hip.hipArray_Format.HIP_AD_FORMAT_FLOAT,
                                     NumChannels=3, Flags=0)
    assert hip.hipArray3DCreate(bad)[0] == E.hipErrorInvalidValue
    bad.NumChannels, bad.Flags = 1, hip.hipArrayCubemap
    assert hip.hipArray3DCreate(bad)[0] == E.hipErrorInvalidValue
    assert hip.hipMallocArray(hip.hipCreateChannelDesc(32, 16, 0, 0, F.hipChannelFormatKindFloat)[1], 4, 4,
                              0)[0] == E.hipErrorInvalidValue
    assert hip.hipMallocArray(_float_desc(), 0, 4, 0)[0] == E.hipErrorInvalidValue


def test_to_from_array_whole_rows_and_channel_desc() -> None:
    arr = check(hip.hipMalloc3DArray(_float_desc(4), hip.hipExtent(width=3, height=2, depth=0), 0))
    try:
        cd = hip.hipChannelFormatDesc()
        check(hip.hipGetChannelDesc(cd, arr))
        assert (cd.x, cd.y, cd.z, cd.w) == (32, 32, 32, 32)
        data = np.arange(24, dtype=np.float32)
        check(hip.hipMemcpyToArray(arr, 0, 0, data, 96, K.hipMemcpyHostToDevice))
        out = np.zeros(24, np.float32)
        check(hip.hipMemcpyFromArray(out, arr, 0, 0, 96, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(out, data)
        out2 = np.zeros(24, np.float32)
        check(hip.hipMemcpy2DFromArray_spt(out2, 48, arr, 0, 0, 48, 2, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(out2, data)
    finally:
        check(hip.hipFreeArray(arr))


# --- arrays as endpoints of the parameter-struct copies --------------------------------------------------------


def _set_array(struct, member: str, arr) -> None:
    """hip-python 6.2 leaves hipArray_t members out of its structs: set them in the raw C struct."""
    setattr(type(struct)._c.from_address(struct._ptr), member, int(arr))


def _params(extent, kind=K.hipMemcpyDefault, src=None, src_pos=(0, 0, 0), dst=None, dst_pos=(0, 0, 0)):
    """A hipMemcpy3DParms: each side an array (given as ("array", handle)) or (ptr, pitch, ysize)."""
    p = hip.hipMemcpy3DParms(kind=kind)
    for name, side, at in (("src", src, src_pos), ("dst", dst, dst_pos)):
        pos = getattr(p, f"{name}Pos")
        pos.x, pos.y, pos.z = at
        if isinstance(side[0], str):  # ("array", handle)
            _set_array(p, f"{name}Array", side[1])
        else:
            ptr = getattr(p, f"{name}Ptr")
            ptr.ptr, ptr.pitch, ptr.xsize, ptr.ysize = side[0], side[1], side[1], side[2]
    p.extent.width, p.extent.height, p.extent.depth = extent
    return p


@pytest.fixture
def arrays_3d():
    """Two 5x4x3 float32 arrays, one 5x4x3 int16 array."""
    made = [check(hip.hipMalloc3DArray(_float_desc(), hip.hipExtent(5, 4, 3), 0)) for _ in range(2)]
    made.append(check(hip.hipMalloc3DArray(check(hip.hipCreateChannelDesc(16, 0, 0, 0, F.hipChannelFormatKindSigned)),
                                           hip.hipExtent(5, 4, 3), 0)))
    yield made
    for arr in made:
        check(hip.hipFreeArray(arr))


def test_memcpy_3d_with_array_sides(arrays_3d) -> None:
    a, b, small = arrays_3d
    data = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    check(hip.hipMemcpy3D(_params((5, 4, 3), K.hipMemcpyHostToDevice, src=(data, 20, 4), dst=("array", a))))
    # array -> pitched device memory: positions on the array side in elements, on the pointer side in bytes
    dev = check(hip.hipMalloc(16 * 3 * 2))
    try:
        check(hip.hipMemset(dev, 0xFF, 96))
        check(hip.hipMemcpy3D(_params((3, 2, 2), K.hipMemcpyDeviceToDevice, src=("array", a), src_pos=(1, 1, 1),
                                      dst=(dev, 16, 3), dst_pos=(4, 1, 0))))
        out = np.empty((2, 3, 4), np.float32)
        check(hip.hipMemcpy(out, dev, 96, K.hipMemcpyDeviceToHost))
    finally:
        check(hip.hipFree(dev))
    ref = np.full((2, 3, 4), np.nan, np.float32)
    ref[:, 1:3, 1:4] = data[1:3, 1:3, 1:4]
    untouched = np.isnan(ref)
    np.testing.assert_array_equal(out[~untouched], ref[~untouched])
    assert (out.view(np.uint32)[untouched] == 0xFFFFFFFF).all()
    # array -> array (same element size) after filling b with a sentinel, then b -> host on a stream
    fill = np.full((3, 4, 5), -7, np.float32)
    check(hip.hipMemcpy3D(_params((5, 4, 3), src=(fill, 20, 4), dst=("array", b))))
    check(hip.hipMemcpy3D(_params((2, 3, 2), src=("array", a), src_pos=(3, 0, 1), dst=("array", b),
                                  dst_pos=(0, 1, 0))))
    expected = fill.copy()
    expected[0:2, 1:4, 0:2] = data[1:3, 0:3, 3:5]
    back = np.zeros((3, 4, 6), np.float32)  # a 24-byte pitch: the sixth column is never written
    stream = check(hip.hipStreamCreate())
    try:
        check(hip.hipMemcpy3DAsync(_params((5, 4, 3), K.hipMemcpyDeviceToHost, src=("array", b),
                                           dst=(back, 24, 4)), stream))
        check(hip.hipStreamSynchronize(stream))
    finally:
        check(hip.hipStreamDestroy(stream))
    np.testing.assert_array_equal(back[:, :, :5], expected)
    assert (back[:, :, 5] == 0).all()
    # refusals, in clr's order, none of which writes anything
    mixed = _params((1, 1, 1), src=("array", a), dst=("array", small))
    assert hip.hipMemcpy3D(mixed)[0] == E.hipErrorInvalidValue  # element sizes 4 and 2
    mixed.dstPtr.pitch, mixed.dstPtr.xsize = 1, 2  # the element sizes are checked before the pitches
    assert hip.hipMemcpy3D(mixed)[0] == E.hipErrorInvalidValue
    both = _params((1, 1, 1), src=("array", a), dst=("array", b))
    both.srcPtr.ptr = fill
    assert hip.hipMemcpy3D(both)[0] == E.hipErrorInvalidValue  # an array and a pointer on one side
    pitch = _params((1, 1, 1), src=("array", a), dst=(fill, 20, 4))
    pitch.dstPtr.xsize = 24
    assert hip.hipMemcpy3D(pitch)[0] == E.hipErrorInvalidPitchValue
    past = _params((2, 1, 1), src=("array", a), src_pos=(4, 0, 0), dst=("array", b))
    assert hip.hipMemcpy3D(past)[0] == E.hipErrorInvalidValue  # x 4 + 2 elements > 5
    past = _params((1, 1, 2), src=(data, 20, 4), dst=("array", b), dst_pos=(0, 0, 2))
    assert hip.hipMemcpy3D_spt(past)[0] == E.hipErrorInvalidValue
    bad_kind = _params((1, 1, 1), src=("array", a), dst=("array", b))
    hip.hipMemcpy3DParms._c.from_address(bad_kind._ptr).kind = 5  # no hipMemcpyKind (the enum setter refuses it)
    assert hip.hipMemcpy3D(bad_kind)[0] == E.hipErrorInvalidMemcpyDirection
    check(hip.hipMemcpy3D(_params((5, 4, 3), K.hipMemcpyDeviceToHost, src=("array", b), dst=(back, 24, 4))))
    np.testing.assert_array_equal(back[:, :, :5], expected)


def test_memcpy_3d_layered_1d_array() -> None:
    # a layered 1D array's layers are the depth of a hipMemcpy3D extent; HIP swaps them into rows on both sides
    arr = check(hip.hipMalloc3DArray(_float_desc(), hip.hipExtent(6, 0, 4), hip.hipArrayLayered))
    try:
        layers = np.arange(24, dtype=np.float32).reshape(4, 6)
        check(hip.hipMemcpy3D(_params((6, 1, 4), src=(layers, 24, 4), dst=("array", arr))))
        out = np.full((2, 5), -1, np.float32)
        check(hip.hipMemcpy3D(_params((3, 1, 2), src=("array", arr), src_pos=(1, 0, 2), dst=(out, 20, 9),
                                      dst_pos=(4, 0, 0))))
        ref = np.full((2, 5), -1, np.float32)
        ref[:, 1:4] = layers[2:4, 1:4]
        np.testing.assert_array_equal(out, ref)
    finally:
        check(hip.hipFreeArray(arr))


def test_param_2d_array_to_array_and_async_2d() -> None:
    a = check(hip.hipMallocArray(_float_desc(2), 4, 3, 0))  # 8-byte elements
    b = check(hip.hipMallocArray(_float_desc(2), 4, 3, 0))
    try:
        data = np.arange(3 * 4 * 2, dtype=np.float32).reshape(3, 4, 2)
        c = hip.hip_Memcpy2D(srcMemoryType=hip.hipMemoryType.hipMemoryTypeHost, srcHost=data, srcPitch=32,
                             dstMemoryType=hip.hipMemoryType.hipMemoryTypeArray, WidthInBytes=32, Height=3)
        _set_array(c, "dstArray", a)
        check(hip.hipMemcpyParam2D(c))
        zeros = np.full((3, 4, 2), -3, np.float32)
        check(hip.hipMemcpy2DToArray(b, 0, 0, zeros, 32, 32, 3, K.hipMemcpyHostToDevice))
        # b[1:3, 2:4] = a[0:2, 1:3]  (offsets and width in bytes)
        check(hip.hipMemcpy2DArrayToArray(b, 16, 1, a, 8, 0, 16, 2, K.hipMemcpyDeviceToDevice))
        expected = zeros.copy()
        expected[1:3, 2:4] = data[0:2, 1:3]
        # array -> host through hipMemcpyParam2D: an x offset of 20 bytes truncates to element 2; dst pitch 40
        out = np.full((3, 5, 2), 9, np.float32)
        back = hip.hip_Memcpy2D(srcXInBytes=20, srcMemoryType=hip.hipMemoryType.hipMemoryTypeArray,
                                dstMemoryType=hip.hipMemoryType.hipMemoryTypeHost, dstHost=out, dstPitch=40,
                                WidthInBytes=16, Height=3)
        _set_array(back, "srcArray", b)
        check(hip.hipMemcpyParam2D(back))
        ref = np.full((3, 5, 2), 9, np.float32)
        ref[:, :2] = expected[:, 2:4]
        np.testing.assert_array_equal(out, ref)
        back.WidthInBytes = 24  # element 2 + 3 elements > 4: past the array, nothing written
        assert hip.hipMemcpyParam2D(back)[0] == E.hipErrorInvalidValue
        np.testing.assert_array_equal(out, ref)
        assert hip.hipMemcpy2DArrayToArray(b, 24, 0, a, 0, 0, 16, 1, K.hipMemcpyDeviceToDevice)[0] == \
            E.hipErrorInvalidValue
        # the async 2D array copies on a stream: host -> a, a -> pitched host
        stream = check(hip.hipStreamCreate())
        try:
            rows = (100 + np.arange(2 * 3 * 2, dtype=np.float32)).reshape(2, 3, 2)
            check(hip.hipMemcpy2DToArrayAsync(a, 8, 1, rows, 24, 24, 2, K.hipMemcpyHostToDevice, stream))
            whole = np.full((3, 5, 2), 9, np.float32)
            check(hip.hipMemcpy2DFromArrayAsync(whole, 40, a, 0, 0, 32, 3, K.hipMemcpyDeviceToHost, stream))
            check(hip.hipStreamSynchronize(stream))
            assert hip.hipMemcpy2DFromArrayAsync(whole, 40, a, 0, 0, 40, 3, K.hipMemcpyDeviceToHost,
                                                 stream)[0] == E.hipErrorInvalidValue
        finally:
            check(hip.hipStreamDestroy(stream))
        ref_a = data.copy()
        ref_a[1:3, 1:4] = rows
        np.testing.assert_array_equal(whole[:, :4], ref_a)
        assert (whole[:, 4] == 9).all()
        check(hip.hipMemcpy2DFromArray(out, 40, b, 0, 0, 32, 3, K.hipMemcpyDeviceToHost))
        np.testing.assert_array_equal(out[:, :4], expected)  # the refused copies left b alone
    finally:
        check(hip.hipFreeArray(a))
        check(hip.hipFreeArray(b))


def test_create_channel_desc_takes_a_cuda_kind() -> None:
    # hip-python-as-cuda's cudaCreateChannelDesc with a cudaChannelFormatKind member gives a HIP kind back.
    from rocmath.hip import cuda as cu

    desc = check(hip.hipCreateChannelDesc(32, 0, 0, 0, cu.cudaChannelFormatKind.cudaChannelFormatKindFloat))
    assert desc.f is hip.hipChannelFormatKind.hipChannelFormatKindFloat and desc.x == 32
