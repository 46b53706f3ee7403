"""The Pythonic layer (rocmath.blas.arrays) against NumPy on the same data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
from rocmath.blas import arrays as A
from rocmath.precision import SDCZ
from rocmath.testing import assert_close

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


@settings(max_examples=40)
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
    with pytest.raises(TypeError, match="dtype"):
        A.matmul(a, rm.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match="DeviceArray"):
        A.matmul(np.zeros((2, 3)), a)
    with pytest.raises(ValueError, match="beta"):
        A.gemm(a, rm.zeros((3, 2)), beta=1.0)


@settings(max_examples=30)
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
