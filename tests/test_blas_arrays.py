"""The Pythonic layer (rocmath.blas.arrays) against NumPy on the same data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
from rocmath.blas import arrays as A
from rocmath.precision import SDCZ
from rocmath.testing import assert_close, examples

DTYPES = [p.dtype for p in SDCZ]


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dtype)


def _device(host: np.ndarray, order: str, view: str) -> tuple[rm.DeviceArray, np.ndarray]:
    """A device copy of host in an order, optionally seen through a strided view."""
    base = np.asfortranarray(host) if order == "F" else np.ascontiguousarray(host)
    d = rm.to_device(base)
    if view == "step" and host.ndim >= 3 and host.shape[0] > 1:
        return d[::2], base[::2]
    return d, base


@settings(max_examples=examples(40))
@given(batch=st.sampled_from([(), (1,), (3,), (2, 2)]), m=st.integers(0, 6), k=st.integers(0, 6),
       n=st.integers(0, 6), dtype=st.sampled_from(DTYPES), order_a=st.sampled_from("CF"),
       order_b=st.sampled_from("CF"), view=st.sampled_from(["plain", "step"]), seed=st.integers(0, 2**16))
def test_matmul_matches_numpy(batch, m, k, n, dtype, order_a, order_b, view, seed):
    rng = np.random.default_rng(seed)
    a, a_host = _device(_data(rng, (*batch, m, k), dtype), order_a, view)
    b, b_host = _device(_data(rng, (*batch, k, n), dtype), order_b, "plain")
    if a_host.shape[:-2] != b_host.shape[:-2] and len(batch) > 0:
        b_host = b_host[: a_host.shape[0]] if a_host.shape[0] <= b_host.shape[0] else b_host
        b = b[: a_host.shape[0]]
    expect = a_host @ b_host
    got = A.matmul(a, b).get()
    assert got.shape == expect.shape
    assert_close(got, expect, dtype, "reduction", max(k, 1), scale=max(1.0, float(np.abs(expect).max(initial=0))))


MIXED = [np.dtype(t) for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128)]


@settings(max_examples=examples(30))
@given(pair=st.permutations(MIXED).map(lambda p: p[:2]), batch=st.sampled_from([(), (2,)]),
       m=st.integers(1, 5), k=st.integers(0, 5), n=st.integers(1, 5), order=st.sampled_from("CF"),
       seed=st.integers(0, 2**16))
def test_mixed_dtypes_compute_in_numpys_common_dtype(pair, batch, m, k, n, order, seed):
    """matmul, dot and vdot of two dtypes compute in np.result_type of them, as NumPy and CuPy
    do, and leave their operands as they were."""
    ta, tb = pair
    rng = np.random.default_rng(seed)
    a_host, b_host = _data(rng, (*batch, m, k), ta), _data(rng, (*batch, k, n), tb)
    a, _ = _device(a_host, order, "plain")
    b, _ = _device(b_host, "C", "plain")
    common = np.result_type(ta, tb)
    expect = a_host.astype(common) @ b_host.astype(common)
    got = A.matmul(a, b).get()
    assert got.dtype == common and got.shape == expect.shape
    assert_close(got, expect, common, "reduction", max(k, 1), scale=max(1.0, float(np.abs(expect).max(initial=0))))
    x_host, y_host = _data(rng, (*batch, k), ta), _data(rng, (*batch, k), tb)
    x, y = rm.to_device(x_host), rm.to_device(y_host)
    for fn, ref in ((A.dot, lambda p, q: (p * q).sum(-1)), (A.vdot, lambda p, q: (np.conj(p) * q).sum(-1))):
        want = ref(x_host.astype(common), y_host.astype(common))
        assert_close(np.asarray(fn(x, y)), want, common, "reduction", max(k, 1),
                     scale=max(1.0, float(np.abs(want).max(initial=0))))
    for dev, host in ((a, a_host), (b, b_host), (x, x_host), (y, y_host)):
        np.testing.assert_array_equal(dev.get(), host)


def test_matmul_broadcasts_leading_axes_through_pointer_arrays():
    rng = np.random.default_rng(1)
    x = _data(rng, (3, 1, 4, 5), np.float64)
    y = _data(rng, (2, 5, 2), np.float64)
    got = A.matmul(rm.to_device(x), rm.to_device(y)).get()
    np.testing.assert_allclose(got, x @ y, rtol=1e-13)


def test_matmul_vectors_and_non_unit_strides():
    rng = np.random.default_rng(2)
    a = _data(rng, (4, 6), np.float64)
    v = _data(rng, (6,), np.float64)
    da, dv = rm.to_device(a), rm.to_device(v)
    np.testing.assert_allclose(A.matmul(da, dv).get(), a @ v, rtol=1e-13)
    np.testing.assert_allclose(A.matmul(dv[:4], da).get(), v[:4] @ a, rtol=1e-13)
    # Neither axis has a unit stride: copied first, same result.
    np.testing.assert_allclose(A.matmul(da[:, ::2], da[::2, ::2].T).get(), a[:, ::2] @ a[::2, ::2].T, rtol=1e-13)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_transposes_alpha_beta_and_out(dtype):
    rng = np.random.default_rng(3)
    a = _data(rng, (5, 3), dtype)
    b = _data(rng, (4, 5), dtype)
    c = _data(rng, (3, 4), dtype)
    dc = rm.to_device(c)
    out = A.gemm(rm.to_device(np.asfortranarray(a)), rm.to_device(b), dc, alpha=2.0, beta=0.5,
                 trans_a="T", trans_b="T")
    assert out is dc
    assert_close(out.get(), 2.0 * a.T @ b.T + 0.5 * c, dtype, "reduction", 5, scale=4.0)
    if np.dtype(dtype).kind == "c":
        f = rm.to_device(np.asfortranarray(a))
        assert_close(A.gemm(f, f, trans_a="C").get(), a.conj().T @ a, dtype, "reduction", 5, scale=10.0)


def test_gemm_rejects_mismatched_shapes_and_types():
    a = rm.zeros((2, 3))
    with pytest.raises(ValueError, match="inner dimensions"):
        A.matmul(a, rm.zeros((2, 3)))
    with pytest.raises(TypeError, match="int64"):
        A.matmul(a, rm.to_device(np.zeros((3, 2), np.int64)))
    with pytest.raises(ValueError, match="float64"):  # a float32 product's c is float64: its common dtype
        A.gemm(rm.zeros((2, 3), np.float32), rm.zeros((3, 2)), rm.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match="DeviceArray"):
        A.matmul(np.zeros((2, 3)), a)
    with pytest.raises(ValueError, match="beta"):
        A.gemm(a, rm.zeros((3, 2)), beta=1.0)


@settings(max_examples=examples(30))
@given(shape=st.sampled_from([(7,), (3, 7), (2, 3, 5), (4, 0)]), dtype=st.sampled_from(DTYPES),
       step=st.sampled_from([1, 2, -1]), seed=st.integers(0, 2**16))
def test_vector_functions_match_numpy(shape, dtype, step, seed):
    rng = np.random.default_rng(seed)
    x_host = _data(rng, shape, dtype)
    y_host = _data(rng, shape, dtype)
    x = rm.to_device(x_host)[..., ::step]
    y = rm.to_device(y_host)[..., ::step]
    xh, yh = x_host[..., ::step], y_host[..., ::step]
    n = max(xh.shape[-1], 1)
    assert_close(np.asarray(A.dot(x, y)), (xh * yh).sum(-1), dtype, "reduction", n, scale=n)
    assert_close(np.asarray(A.vdot(x, y)), (xh.conj() * yh).sum(-1), dtype, "reduction", n, scale=n)
    assert_close(np.asarray(A.nrm2(x)), np.linalg.norm(xh, axis=-1), dtype, "reduction", n, scale=n)
    assert_close(np.asarray(A.asum(x)), (np.abs(xh.real) + np.abs(xh.imag)).sum(-1), dtype, "reduction", n,
                 scale=n)
    if xh.shape[-1]:
        np.testing.assert_array_equal(A.iamax(x), np.argmax(np.abs(xh.real) + np.abs(xh.imag), axis=-1))
        np.testing.assert_array_equal(A.iamin(x), np.argmin(np.abs(xh.real) + np.abs(xh.imag), axis=-1))


def test_axpy_broadcasts_and_scal_works_in_place():
    rng = np.random.default_rng(4)
    x = _data(rng, (5,), np.complex128)
    y = _data(rng, (3, 5), np.complex128)
    dy = rm.to_device(y)
    A.axpy(2 - 1j, rm.to_device(x), dy)
    np.testing.assert_allclose(dy.get(), y + (2 - 1j) * x, rtol=1e-14)
    A.scal(0.5, dy)  # a real alpha on complex data: zdscal
    np.testing.assert_allclose(dy.get(), (y + (2 - 1j) * x) * 0.5, rtol=1e-14)
    with pytest.raises(ValueError, match="cannot hold"):
        A.axpy(1.0, rm.to_device(y), rm.to_device(x))


def test_calls_follow_the_current_stream():
    s = rm.Stream(non_blocking=True)
    with s:
        a = rm.to_device(np.eye(3))
        c = A.matmul(a, a)
        assert A.get_handle().stream is s
    s.synchronize()
    np.testing.assert_array_equal(c.get(), np.eye(3))


def test_a_handle_on_another_stream_gets_the_copies_made_for_its_call():
    # With handle=, the layout copies and pointer arrays of a call go on the handle's stream, in
    # order with the BLAS call: queued on a busy current stream, the call read them unmade.
    import threading

    rng = np.random.default_rng(5)
    big, b = rng.uniform(-1, 1, (8, 6)), rng.uniform(-1, 1, (3, 2))
    xs, ys = rng.uniform(-1, 1, (3, 1, 4, 5)), rng.uniform(-1, 1, (2, 5, 2))
    busy, theirs = rm.Stream(), rm.Stream()
    from rocmath.blas import create_handle, destroy_handle, set_stream

    h = create_handle()
    set_stream(h, theirs)
    dbig, db, dx, dy, dv = (rm.to_device(v) for v in (big, b, xs, ys, np.array([1.0, 9.0, 3.0, 4.0])))
    rm.device_synchronize()
    gate = threading.Event()
    try:
        with busy:
            busy.launch_host_func(gate.wait, 10.0)  # the current stream is held up
            c = A.matmul(dbig[::2, ::2], db, handle=h)  # a view with no unit stride: copied first
            c2 = A.matmul(dx, dy, handle=h)  # a broadcast batch: arrays of pointers
            theirs.synchronize()
            gate.set()
        rm.device_synchronize()
        assert_close(c.get(), big[::2, ::2] @ b, np.float64, "reduction", 3)
        assert_close(c2.get(), xs @ ys, np.float64, "reduction", 5)
        assert A.iamax(dv[::-1], handle=h) == 2
    finally:
        gate.set()
        destroy_handle(h)


def test_in_place_functions_refuse_mixed_dtypes_and_single_elements_are_handled():
    with pytest.raises(TypeError, match="dtype"):
        A.axpy(1.0, rm.to_device(np.ones(3)), rm.to_device(np.zeros(3, np.complex128)))
    with pytest.raises(TypeError, match="int32"):
        A.dot(rm.to_device(np.ones(3, np.int32)), rm.to_device(np.ones(3)))
    # One element on the last axis, whatever its stride (0 or negative: any reads it).
    assert A.iamax(rm.to_device(np.array([5.0]))[::-1]) == 0
    np.testing.assert_array_equal(A.iamax(rm.to_device(np.arange(3.0))[:, None]), [0, 0, 0])
    np.testing.assert_array_equal(A.nrm2(rm.to_device(np.array([[3.0], [-4.0]]))[::-1, ::-1]), [4.0, 3.0])
    # A zero stride repeats one element: reductions see it n times; scaling it in place is refused.
    base = rm.to_device(np.array([3.0, 1.0]))
    rep = rm.DeviceArray.from_pointer(base.ptr, (4,), np.float64, strides=(0,))
    assert A.nrm2(rep) == pytest.approx(6.0) and A.asum(rep) == pytest.approx(12.0)
    with pytest.raises(ValueError, match="zero stride"):
        A.scal(2.0, rep)
    np.testing.assert_array_equal(base.get(), [3.0, 1.0])


def test_out_without_a_unit_stride_axis_and_half_precision():
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 3, 5))
    for out in (rm.empty((2, 4, 5), order="F"), rm.zeros((2, 8, 10))[:, ::2, ::2]):  # neither axis unit stride
        got = A.matmul(rm.to_device(a), rm.to_device(b), out=out)
        assert got is out
        assert_close(out.get(), a @ b, np.float64, "reduction", 3)
    c0 = rng.standard_normal((2, 4, 5))
    c = rm.to_device(c0)[:, :, ::-1]  # beta != 0 with such a c: read into the temporary, written back
    c0 = c0[:, :, ::-1]
    A.gemm(rm.to_device(a), rm.to_device(b), c, alpha=2.0, beta=-1.0)
    assert_close(c.get(), 2 * a @ b - c0, np.float64, "reduction", 3)
    h16 = [v.astype(np.float16) for v in (a, b)]
    got16 = A.matmul(rm.to_device(h16[0]), rm.to_device(h16[1])).get()  # hgemm: float32 sums, rounded once
    assert got16.dtype == np.float16
    want = (h16[0].astype(np.float32) @ h16[1].astype(np.float32)).astype(np.float16)
    np.testing.assert_allclose(got16.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)
    with pytest.raises(TypeError, match="float16 nrm2"):
        A.nrm2(rm.to_device(h16[0]))
    with pytest.raises(ValueError, match="trans_a"):
        A.gemm(rm.to_device(a[0]), rm.to_device(b[0]), trans_a="X")


def test_axpy_reads_an_overlapping_x_as_it_was_and_scal_refuses_a_complex_alpha_on_reals():
    z = rm.to_device(np.arange(4.0))
    A.axpy(1.0, z[::-1], z)  # numpy: y += y[::-1] reads y[::-1] before writing
    np.testing.assert_array_equal(z.get(), [3.0, 3.0, 3.0, 3.0])
    z = rm.to_device(np.arange(4.0))
    A.axpy(2.0, z, z)  # x is y itself: element by element, no copy needed
    np.testing.assert_array_equal(z.get(), [0.0, 3.0, 6.0, 9.0])
    with pytest.raises(TypeError, match="complex alpha"):
        A.scal(1j, rm.to_device(np.ones(2)))
    with pytest.raises(ValueError, match="empty"):
        A.iamax(rm.to_device(np.zeros((3, 0))))
