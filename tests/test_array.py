"""DeviceArray: round trips, views by basic indexing, constructors, fills, interfaces."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import rocmath as rm
from rocmath import errors
from rocmath.testing import examples

DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8, np.int16, np.int32,
          np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


def _sample(shape, dtype, order="C", seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        a = rng.integers(0, 2, shape).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    elif dt.kind == "c":
        a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    else:
        a = rng.standard_normal(shape).astype(dt)
    return np.asarray(a, order=order)


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaNs compare equal here
    # Bitwise too: -0.0 vs 0.0 or NaN payloads would be a transfer bug.
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_round_trip_every_dtype_and_order(dtype, order):
    a = _sample((5, 7), dtype, order)
    x = rm.to_device(a)
    assert x.shape == (5, 7) and x.dtype == np.dtype(dtype) and x.ndim == 2
    assert x.size == 35 and x.itemsize == np.dtype(dtype).itemsize and x.nbytes == a.nbytes
    assert x.strides == a.strides
    assert x.c_contiguous == (order == "C") and x.f_contiguous == (order == "F")
    got = x.get()
    _same(got, a)
    assert got.flags.f_contiguous == (order == "F") and got.flags.c_contiguous == (order == "C")
    assert rm.pointer_attributes(x.ptr)["size"] == a.nbytes


@settings(max_examples=examples(40))
@given(st.sampled_from(DTYPES).flatmap(
    lambda dt: npst.arrays(dt, npst.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))),
    st.sampled_from(["C", "F"]))
def test_round_trip_any_shape(a, order):
    a = np.asarray(a, order=order)
    x = rm.to_device(a)
    got = x.get()
    _same(got, a)
    out = np.empty_like(a)
    assert x.to_host(out=out) is out
    _same(out, a)


def test_to_device_stages_the_host_data_and_converts():
    a = np.arange(6.0)
    s = rm.Stream()
    x = rm.to_device(a, stream=s)
    a[:] = -1  # the caller may change the source at once
    np.testing.assert_array_equal(x.get(stream=s), np.arange(6.0))
    y = rm.to_device([[1, 2], [3, 4]], dtype=np.float32)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y.get(), np.array([[1, 2], [3, 4]], np.float32))
    z = rm.to_device(np.arange(10)[::3])  # a non-contiguous source
    np.testing.assert_array_equal(z.get(), np.arange(10)[::3])
    assert z.c_contiguous


def test_get_into_out_checks_it():
    x = rm.to_device(np.arange(4.0))
    with pytest.raises(errors.HipInvalidValueError):
        x.get(out=np.empty(5))
    with pytest.raises(errors.HipInvalidValueError):
        x.get(out=np.empty(4, np.float32))


# --- views ------------------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(st.data())
def test_basic_indexing_matches_numpy(data):
    shape = data.draw(npst.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), label="shape")
    order = data.draw(st.sampled_from("CF"), label="order")
    a = np.asarray(np.arange(np.prod(shape), dtype=np.float64).reshape(shape), order=order)
    x = rm.to_device(a)
    index = data.draw(npst.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="index")
    want = a[index]
    view = x[index]
    assert view.shape == np.shape(want)
    assert view.base is x
    _same(view.get(), np.asarray(want))
    if np.ndim(want):
        index2 = data.draw(npst.basic_indices(np.shape(want), allow_newaxis=True), label="index2")
        _same(view[index2].get(), np.asarray(np.asarray(want)[index2]))
        assert view[index2].base is x
    # Writing through the view changes exactly what numpy's view would change.
    if view.size:
        view.fill(-7.0)
        expect = a.copy()
        expect[index] = -7.0
        _same(x.get(), expect)


@pytest.mark.parametrize("index", [
    np.s_[::-1], np.s_[5:1:-2], np.s_[1::3], np.s_[-3:], np.s_[..., 2], np.s_[None, 3:], np.s_[2],
    np.s_[-1], np.s_[2:2], np.s_[10:], np.s_[...], np.s_[None], np.s_[:, None],
])
def test_named_indexing_cases(index):
    a = np.arange(8, dtype=np.int32) * 3
    x = rm.to_device(a)
    _same(x[index].get(), np.asarray(a[index]))


def test_indexing_2d_negative_steps_and_ints():
    a = _sample((6, 5), np.float32, "F")
    x = rm.to_device(a)
    for index in (np.s_[::-2, 1], np.s_[3, ::-1], np.s_[-1, -1], np.s_[1:5:2, ::2], np.s_[None, ..., 0]):
        _same(x[index].get(), np.asarray(a[index]))
    assert x[2, 3].shape == () and x[2, 3].get()[()] == a[2, 3]


def test_non_basic_indexing_is_refused():
    x = rm.to_device(np.arange(4.0))
    for index in ([0, 1], np.array([0, 1]), True, np.array([True, False, True, True]), 1.0):
        with pytest.raises(TypeError):
            x[index]
    with pytest.raises(IndexError):
        x[4]


def test_transpose_and_t():
    a = _sample((2, 3, 4), np.complex64)
    x = rm.to_device(a)
    _same(x.T.get(), a.T)
    _same(x.transpose(1, 0, 2).get(), a.transpose(1, 0, 2))
    _same(x.transpose((2, 0, 1)).get(), a.transpose((2, 0, 1)))
    assert x.T.f_contiguous and not x.T.c_contiguous and x.T.base is x
    assert x.T.get().flags.f_contiguous  # an F-contiguous view comes back in F order
    with pytest.raises(errors.HipInvalidValueError):
        x.transpose(0, 0, 1)


def test_reshape():
    a = np.arange(24.0).reshape(4, 6)
    x = rm.to_device(a)
    _same(x.reshape(3, 8).get(), a.reshape(3, 8))
    _same(x.reshape((2, -1, 3)).get(), a.reshape((2, -1, 3)))
    _same(x.reshape(-1).get(), a.reshape(-1))
    assert x.reshape(24).ptr == x.ptr and x.reshape(24).base is x
    f = rm.to_device(np.asfortranarray(a))
    _same(f.reshape(-1, order="F").get(), np.asfortranarray(a).reshape(-1, order="F"))
    with pytest.raises(errors.HipInvalidValueError, match="copy"):
        f.reshape(-1)  # an F array read in C order needs a copy: refused, never made
    with pytest.raises(errors.HipInvalidValueError, match="copy"):
        x[:, :3].reshape(-1)
    _same(x[:, ::2].reshape(-1).get(), a[:, ::2].reshape(-1))  # uniformly strided: a view
    with pytest.raises(errors.HipInvalidValueError):
        x.reshape(5, 5)


@pytest.mark.usefixtures("young_garbage")
def test_views_keep_the_allocation_alive():
    gc.collect()
    rm.device_synchronize()  # (frees earlier finalizers deferred: the next malloc would issue them)
    free0 = rm.mem_get_info()[0]
    x = rm.to_device(np.arange(100.0))
    assert rm.mem_get_info()[0] == free0 - 800
    v = x[10:20]
    del x
    gc.collect()
    assert rm.mem_get_info()[0] == free0 - 800
    np.testing.assert_array_equal(v.get(), np.arange(10.0, 20.0))
    del v
    gc.collect()
    assert rm.mem_get_info()[0] == free0


def test_len_repr_and_attributes():
    x = rm.zeros((3, 4), np.int16)
    assert len(x) == 3 and "shape=(3, 4)" in repr(x) and "int16" in repr(x) and f"0x{x.ptr:x}" in repr(x)
    assert x.base is None and x.device == 0
    with pytest.raises(TypeError):
        len(x[0, 0])


# --- copies, fills, constructors ---------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
def test_copy(order):
    a = _sample((4, 3), np.float64, "F")
    x = rm.to_device(a)
    y = x.copy(order=order)
    assert y.ptr != x.ptr and y.base is None
    assert y.c_contiguous == (order == "C")
    _same(y.get(), a)
    x.fill(0.0)
    _same(y.get(), a)  # a real copy
    z = x[::-1, 1:].copy()
    np.testing.assert_array_equal(z.get(), np.zeros((4, 2)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_fill_every_dtype(dtype):
    value = {"b": True, "c": 1.5 - 2j, "f": -2.5}.get(np.dtype(dtype).kind, 7)
    x = rm.full((3, 5), value, dtype=dtype)
    _same(x.get(), np.full((3, 5), value, dtype=dtype))
    # Strided views are filled too, and nothing else is.
    y = rm.zeros((4, 6), dtype, order="F")
    y[1:3, ::2].fill(value)
    want = np.zeros((4, 6), dtype)
    want[1:3, ::2] = value
    _same(y.get(), want)


def test_set():
    x = rm.zeros((2, 3))
    x.set(np.ones((2, 3)))
    np.testing.assert_array_equal(x.get(), np.ones((2, 3)))
    x[:, 1].set([5, 6])
    np.testing.assert_array_equal(x.get(), [[1, 5, 1], [1, 6, 1]])
    with pytest.raises(errors.HipInvalidValueError):
        x.set(np.ones((3, 2)))


def test_constructors():
    z = rm.zeros((2, 3), np.complex64, order="F")
    _same(z.get(), np.zeros((2, 3), np.complex64, order="F"))
    assert z.f_contiguous
    f = rm.full(4, 2, dtype=np.int8)
    _same(f.get(), np.full(4, 2, np.int8))
    e = rm.empty((2, 2), np.uint32)
    assert e.shape == (2, 2) and e.dtype == np.uint32
    like = rm.empty_like(z)
    assert like.shape == (2, 3) and like.dtype == np.complex64 and like.f_contiguous and like.ptr != z.ptr
    like2 = rm.empty_like(np.zeros((3, 2), order="F"), dtype=np.float32)
    assert like2.f_contiguous and like2.dtype == np.float32
    assert rm.empty_like(np.zeros((3, 2))).c_contiguous
    with pytest.raises(errors.HipInvalidValueError):
        rm.empty((2, -1))
    with pytest.raises(errors.HipInvalidValueError):
        rm.empty(3, order="K")


@pytest.mark.usefixtures("young_garbage")
def test_zero_size_arrays():
    gc.collect()
    rm.device_synchronize()  # (frees earlier finalizers deferred: the next malloc would issue them)
    free0 = rm.mem_get_info()[0]
    for shape in [(0,), (3, 0), (0, 4, 2)]:
        x = rm.zeros(shape, np.float32)
        assert x.ptr == 0 and x.size == 0 and x.nbytes == 0
        _same(x.get(), np.zeros(shape, np.float32))
        x.fill(1.0)
        y = rm.to_device(np.zeros(shape))
        _same(y.get(), np.zeros(shape))
        _same(y.copy().get(), np.zeros(shape))
        _same(y.T.get(), np.zeros(shape).T)
    a = rm.to_device(np.arange(5.0))
    _same(a[3:1].get(), np.arange(5.0)[3:1])
    _same(a[5:].get(), np.arange(5.0)[5:])
    del a
    gc.collect()
    assert rm.mem_get_info()[0] == free0


@pytest.mark.usefixtures("young_garbage")
def test_from_pointer_is_bounds_checked():
    p = rm.malloc(80)
    try:
        rm.memcpy(p, np.arange(10.0), 80)
        x = rm.DeviceArray.from_pointer(p, (2, 5))
        _same(x.get(), np.arange(10.0).reshape(2, 5))
        assert x.base is None
        xf = rm.DeviceArray.from_pointer(p, (5, 2), order="F")
        _same(xf.get(), np.arange(10.0).reshape(5, 2, order="F"))
        xs = rm.DeviceArray.from_pointer(p + 72, 5, strides=(-16,))
        _same(xs.get(), np.arange(10.0)[::-2])
        _same(rm.DeviceArray.from_pointer(p + 8, 4, np.float64).get(), np.arange(1.0, 5.0))
        with pytest.raises(rm.MemoryAccessFault, match="from_pointer"):
            rm.DeviceArray.from_pointer(p + 8, 10)
        with pytest.raises(rm.MemoryAccessFault):
            rm.DeviceArray.from_pointer(p + 8, 5, strides=(-16,))
        with pytest.raises(errors.InvalidDevicePointerError):
            rm.DeviceArray.from_pointer(123, 1)
        del x, xf, xs
        gc.collect()
        assert rm.pointer_attributes(p)["size"] == 80  # foreign memory is never freed by the view
        y = rm.DeviceArray.from_pointer(p, 2)
    finally:
        rm.free(p)
    with pytest.raises(errors.InvalidDevicePointerError):
        rm.DeviceArray.from_pointer(p, 2)
    with pytest.raises(errors.InvalidDevicePointerError):
        y.get()  # the memory was freed under the view: refused when enqueued


def test_no_implicit_conversion_to_numpy():
    x = rm.to_device(np.arange(3.0))
    with pytest.raises(TypeError, match="get"):
        np.asarray(x)
    with pytest.raises(TypeError):
        np.array(x)
    with pytest.raises(TypeError):
        np.add(x, 1)


def test_cuda_array_interface():
    a = _sample((3, 4), np.float32)
    x = rm.to_device(a)
    iface = x.__cuda_array_interface__
    assert iface == {"shape": (3, 4), "typestr": "<f4", "version": 3, "data": (x.ptr, False), "strides": None}
    v = x[:, 1::2]
    iv = v.__cuda_array_interface__
    assert iv["strides"] == (16, 8) and iv["data"][0] == x.ptr + 4 and iv["shape"] == (3, 2)
    # The interface describes the data exactly: rebuilding the view from it reads the same.
    rebuilt = rm.DeviceArray.from_pointer(iv["data"][0], iv["shape"], np.dtype(iv["typestr"]), iv["strides"])
    _same(rebuilt.get(), a[:, 1::2])
    assert x.T.__cuda_array_interface__["strides"] == (4, 16)
