"""rocmath.fft's NumPy interface on DeviceArrays and its scipy.fft backend, against numpy.fft."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.fft as F
from rocmath.testing import examples


def _close(actual: np.ndarray, expected: np.ndarray, single: bool = False) -> None:
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    eps = 1.2e-7 if single else 2.3e-16
    n = max(expected.size, 2)
    scale = max(float(np.abs(expected).max()) if expected.size else 0.0, 1.0)
    assert np.abs(actual - expected).max(initial=0.0) <= 20 * eps * np.log2(n) * scale


def _data(shape: tuple[int, ...], complex_: bool, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if complex_ else x


@pytest.mark.parametrize("name", ["fft", "ifft"])
@pytest.mark.parametrize("n", [None, 5, 16, 33])
@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_1d_complex(name: str, n: int | None, axis: int, norm: str | None) -> None:
    x = _data((6, 20, 3), True)
    got = getattr(F, name)(rm.to_device(x), n=n, axis=axis, norm=norm).get()
    _close(got, getattr(np.fft, name)(x, n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("n", [None, 1, 7, 16, 30])
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_1d_real(n: int | None, axis: int, norm: str | None) -> None:
    x = _data((10, 12), False)
    got = F.rfft(rm.to_device(x), n=n, axis=axis, norm=norm).get()
    _close(got, np.fft.rfft(x, n=n, axis=axis, norm=norm))
    h = np.fft.rfft(x, axis=axis)
    got = F.irfft(rm.to_device(h), n=n, axis=axis, norm=norm).get()
    _close(got, np.fft.irfft(h, n=n, axis=axis, norm=norm))


@pytest.mark.filterwarnings("ignore:`axes` should not be `None`:DeprecationWarning")
@pytest.mark.parametrize("name", ["fft2", "ifft2", "fftn", "ifftn"])
@pytest.mark.parametrize("s, axes", [(None, None), ((4, 6), None), (None, (0, 2)), ((5, 3), (2, 0)),
                                     (None, (1,)), (None, (0, 1, 2, 3))])
def test_nd_complex(name: str, s: tuple[int, ...] | None, axes: tuple[int, ...] | None) -> None:
    x = _data((3, 4, 5, 6), True)
    if name.endswith("2"):
        axes = axes if axes is not None and len(axes) == 2 else (-2, -1)
        s = s if s is None or len(s) == 2 else None
        got = getattr(F, name)(rm.to_device(x), s=s, axes=axes).get()
    else:
        got = getattr(F, name)(rm.to_device(x), s=s, axes=axes).get()
    _close(got, getattr(np.fft, name)(x, s=s, axes=axes))


@pytest.mark.filterwarnings("ignore:`axes` should not be `None`:DeprecationWarning")
@pytest.mark.parametrize("s, axes", [(None, None), ((4, 6), None), (None, (0, 2)), (None, (1, 0)),
                                     (None, (0, 1, 2, 3)), ((3, 4, 5, 7), (0, 1, 2, 3))])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_nd_real(s: tuple[int, ...] | None, axes: tuple[int, ...] | None, norm: str | None) -> None:
    x = _data((3, 4, 5, 6), False)
    got = F.rfftn(rm.to_device(x), s=s, axes=axes, norm=norm).get()
    ref = np.fft.rfftn(x, s=s, axes=axes, norm=norm)
    _close(got, ref)
    back = F.irfftn(rm.to_device(ref), s=s, axes=axes, norm=norm).get()
    _close(back, np.fft.irfftn(ref, s=s, axes=axes, norm=norm))
    _close(F.rfft2(rm.to_device(x)).get(), np.fft.rfft2(x))
    h2 = np.fft.rfft2(x)
    _close(F.irfft2(rm.to_device(h2), s=(4, 7)).get(), np.fft.irfft2(h2, s=(4, 7)))


def test_dtypes_and_views() -> None:
    x = _data((8, 16), True).astype(np.complex64)
    got = F.fft(rm.to_device(x))
    assert got.dtype == np.complex64
    _close(got.get(), np.fft.fft(x), single=True)
    xr = _data((8, 16), False).astype(np.float32)
    got = F.rfft(rm.to_device(xr))
    assert got.dtype == np.complex64
    assert F.irfft(got).dtype == np.float32
    xi = np.arange(24).reshape(4, 6)
    _close(F.fft(rm.to_device(xi)).get(), np.fft.fft(xi))
    assert F.fft(rm.to_device(xi.astype(np.float16))).dtype == np.complex64
    # Non-contiguous and transposed views are read in place or copied as needed.
    d = rm.to_device(_data((10, 12), True))
    host = d.get()
    _close(F.fft(d[::2, 1:]).get(), np.fft.fft(host[::2, 1:]))
    _close(F.fft(d.T).get(), np.fft.fft(host.T))
    _close(F.fftn(d[:, ::-1]).get(), np.fft.fftn(host[:, ::-1]))
    out = rm.empty((10, 12), np.complex128)
    assert F.fft(d, out=out) is out
    _close(out.get(), np.fft.fft(host))


def test_argument_errors() -> None:
    d = rm.to_device(_data((4, 4), True))
    with pytest.raises(TypeError):
        F.fft(np.zeros(4))
    with pytest.raises(ValueError):
        F.fft(d, norm="bogus")
    with pytest.raises(ValueError):
        F.fft(d, n=0)
    with pytest.raises(ValueError):
        F.fft(d, axis=2)
    with pytest.raises(TypeError):
        F.rfft(d)
    with pytest.raises(ValueError):
        F.fftn(d, s=(4,), axes=(0, 1))


@settings(max_examples=examples(30))
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), data=st.data())
def test_random_shapes(shape: list[int], data: st.DataObject) -> None:
    nd = len(shape)
    axes = data.draw(st.lists(st.integers(0, nd - 1), unique=True, min_size=1, max_size=nd), label="axes")
    x = _data(tuple(shape), True, seed=sum(shape))
    _close(F.fftn(rm.to_device(x), axes=axes).get(), np.fft.fftn(x, axes=axes))
    _close(F.ifftn(rm.to_device(x), axes=axes).get(), np.fft.ifftn(x, axes=axes))
    xr = x.real.copy()
    _close(F.rfftn(rm.to_device(xr), axes=axes).get(), np.fft.rfftn(xr, axes=axes))


def test_scipy_backend() -> None:
    x = _data((5, 12), True)
    xr = _data((5, 12), False)
    assert F.scipy_backend.__ua_domain__ == "numpy.scipy.fft"
    with scipy.fft.set_backend(F.scipy_backend, only=True):
        _close(scipy.fft.fft(x, workers=2), np.fft.fft(x))
        _close(scipy.fft.ifft2(x), np.fft.ifft2(x))
        _close(scipy.fft.rfftn(xr, axes=(0,)), np.fft.rfftn(xr, axes=(0,)))
        _close(scipy.fft.irfft(np.fft.rfft(xr), n=12), xr)
        _close(scipy.fft.fftn(x.astype(np.complex64)), np.fft.fftn(x), single=True)
        with pytest.raises(NotImplementedError):  # not provided, and only=True: no fallback
            scipy.fft.dct(xr)
    with scipy.fft.set_backend(F.scipy_backend):
        np.testing.assert_allclose(scipy.fft.dct(xr), scipy.fft.dct(xr))  # falls back to SciPy
    assert F.scipy_backend.__ua_function__(scipy.fft.fft, (x,), {"plan": object()}) is NotImplemented
