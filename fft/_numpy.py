"""NumPy's FFT interface on DeviceArrays, running rocFFT plans on the current stream.

``fft``, ``ifft``, ``rfft``, ``irfft``, ``fft2``, ``ifft2``, ``rfft2``, ``irfft2``, ``fftn``,
``ifftn``, ``rfftn``, ``irfftn`` take and return :class:`rocmath.DeviceArray` s with NumPy's
signatures, defaults and ``norm=`` ("backward", "ortho", "forward").  Single-precision
inputs (float32, complex64; float16 is widened to them) stay single, everything else
computes in double, as NumPy 2 does.  Arrays whose transformed axes have positive strides
and whose other axes collapse to one batch stride are read in place; others are first
copied (with any cropping or zero padding ``n``/``s`` asks for).  Up to three axes run as
one rocFFT plan; more are split into several.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import rocmath as rm
from rocmath.array import DeviceArray
from rocmath.launch import launch

from ._api import ExecutionInfo, PlanDescription, _lib, make_spec, run_plan
from ._types import ArrayType, Precision, ResultPlacement, TransformType

__all__ = ["fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftn"]

_NORMS = ("backward", "ortho", "forward")


def _assign(dst: np.ndarray, src: np.ndarray) -> None:
    dst[...] = src


def _zero(dst: np.ndarray) -> None:
    dst[...] = 0


def _complex_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.complex64 if dt in (np.float16, np.float32, np.complex64) else np.complex128)


def _real_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32 if dt in (np.float16, np.float32, np.complex64) else np.float64)


def _copy(x: DeviceArray, shape: tuple[int, ...], dtype: np.dtype[Any], stream: Any,
          order: Sequence[int] | None = None) -> DeviceArray:
    """A C-contiguous copy of ``x`` as ``dtype``, cropped or zero-padded to ``shape``; with ``order``,
    stored with its axes permuted so (returned as a view in the original axis order)."""
    perm = list(order) if order is not None else list(range(len(shape)))
    store = rm.empty(tuple(shape[a] for a in perm), dtype)
    inv = list(np.argsort(perm))
    out = store.transpose(*inv) if perm != sorted(perm) else store
    common = tuple(slice(0, min(a, b)) for a, b in zip(shape, x.shape, strict=True))
    if any(a > b for a, b in zip(shape, x.shape, strict=True)):
        launch(_zero, store, name="fft.pad", stream=stream, bytes=store.nbytes)
    if all(s.stop > 0 for s in common):
        src, dst = x[common], out[common]
        launch(_assign, dst, src, name="fft.copy", stream=stream, bytes=src.nbytes + dst.nbytes)
    return out


def _batch_of(x: DeviceArray, axes: Sequence[int]) -> tuple[int, int] | None:
    """``(count, distance)`` of the axes not transformed, if they collapse to one stride."""
    dims = sorted((x.strides[a] // x.itemsize, x.shape[a]) for a in range(x.ndim) if a not in axes and x.shape[a] > 1)
    if not dims:
        return 1, 1
    for (s0, n0), (s1, _) in itertools.pairwise(dims):
        if s1 != s0 * n0:
            return None
    if dims[0][0] <= 0:
        return None
    return math.prod(n for _, n in dims), dims[0][0]


def _direct(x: DeviceArray, axes: Sequence[int]) -> bool:
    return (all(s > 0 and s % x.itemsize == 0 for s, n in zip(x.strides, x.shape, strict=True) if n > 1)
            and _batch_of(x, axes) is not None)


def _plan_run(kind: TransformType, x: DeviceArray, out: DeviceArray, axes: Sequence[int],
              lengths: Sequence[int], scale: float, stream: Any) -> None:
    """Run one rocFFT plan over ``axes`` (at most 3) of ``x`` into ``out``; ``lengths`` are the
    logical (real-side) lengths in the order of ``axes``."""
    if x.size == 0 or out.size == 0:
        return
    dims = list(reversed(list(axes)))  # rocFFT's dimension 0 is the last axis (halved for real transforms)
    rlen = [int(lengths[list(axes).index(a)]) for a in dims]
    bx, bo = _batch_of(x, axes), _batch_of(out, axes)
    assert bx is not None and bo is not None and bx[0] == bo[0]
    desc = PlanDescription()
    in_type = {TransformType.real_forward: ArrayType.real,
               TransformType.real_inverse: ArrayType.hermitian_interleaved}.get(kind, ArrayType.complex_interleaved)
    out_type = {TransformType.real_forward: ArrayType.hermitian_interleaved,
                TransformType.real_inverse: ArrayType.real}.get(kind, ArrayType.complex_interleaved)
    desc.in_array_type, desc.out_array_type = in_type, out_type
    desc.in_strides = tuple(x.strides[a] // x.itemsize for a in dims)
    desc.out_strides = tuple(out.strides[a] // out.itemsize for a in dims)
    desc.in_distance, desc.out_distance = bx[1], bo[1]
    desc.scale_factor = scale
    prec = Precision.single if out.dtype in (np.complex64, np.float32) else Precision.double
    spec = make_spec(ResultPlacement.notinplace, kind, prec, len(dims), rlen, bx[0], desc)
    info = ExecutionInfo()
    info.stream = stream
    run_plan(_lib().cache.get(spec), [x], [out], info)


def _scale(norm: str | None, n: int, forward: bool) -> float:
    if norm is None or norm == "backward":
        return 1.0 if forward else 1.0 / n
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if norm == "forward":
        return 1.0 / n if forward else 1.0
    raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _normalize(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None, default_all: bool,
               real_inverse: bool = False) -> tuple[DeviceArray, list[int], list[int]]:
    if not isinstance(x, DeviceArray):
        raise TypeError(f"rocmath.fft works on DeviceArrays (rocmath.to_device), got {type(x).__name__}")
    if axes is None:
        if s is None:
            axes = list(range(x.ndim)) if default_all else [x.ndim - 1]
        else:
            axes = list(range(x.ndim - len(s), x.ndim))
    axes = [int(a) for a in axes]
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"axis {a} is out of bounds for array of dimension {x.ndim}")
    axes = [a % x.ndim for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axes are not supported")
    if s is None:
        lens = [x.shape[a] for a in axes]
        if real_inverse and axes:
            lens[-1] = 2 * (x.shape[axes[-1]] - 1)
    else:
        lens = [int(n) for n in s]
        if len(lens) != len(axes):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
    for n in lens:
        if n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
    return x, axes, lens


def _finish(result: DeviceArray, out: DeviceArray | None, stream: Any) -> DeviceArray:
    if out is None:
        return result
    if not isinstance(out, DeviceArray) or out.shape != result.shape:
        raise ValueError(f"out must be a DeviceArray of shape {result.shape}")
    launch(_assign, out, result, name="fft.copy", stream=stream, bytes=result.nbytes + out.nbytes)
    return out


def _alloc(shape: tuple[int, ...], dtype: np.dtype[Any], axes: Sequence[int]) -> DeviceArray:
    """A C-contiguous output, or one with the transformed axes innermost when the others would
    not collapse to one batch stride."""
    c = rm.empty(shape, dtype)
    if _batch_of(c, axes) is not None:
        return c
    order = [a for a in range(len(shape)) if a not in axes] + list(axes)
    store = rm.empty(tuple(shape[a] for a in order), dtype)
    return store.transpose(*[int(i) for i in np.argsort(order)])


def _c2c(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None, forward: bool,
         out: DeviceArray | None, default_all: bool) -> DeviceArray:
    x, ax, lens = _normalize(x, s, axes, default_all)
    stream = rm.current_stream()
    dt = _complex_dtype(x.dtype)
    shape = list(x.shape)
    for a, n in zip(ax, lens, strict=True):
        shape[a] = n
    shape_t = tuple(shape)
    if not ax:
        return _finish(_copy(x, shape_t, dt, stream), out, stream)
    if x.dtype != dt or shape_t != x.shape or not _direct(x, ax):
        x = _copy(x, shape_t, dt, stream, order=[a for a in range(x.ndim) if a not in ax] + ax)
    scale = _scale(norm, math.prod(lens), forward)
    kind = TransformType.complex_forward if forward else TransformType.complex_inverse
    groups = [ax[max(0, i - 3):i] for i in range(len(ax), 0, -3)][::-1]
    cur = x
    for gi, g in enumerate(groups):
        if not _direct(cur, g):
            cur = _copy(cur, shape_t, dt, stream, order=[a for a in range(cur.ndim) if a not in g] + g)
        res = _alloc(shape_t, dt, g)
        _plan_run(kind, cur, res, g, [shape_t[a] for a in g], scale if gi == len(groups) - 1 else 1.0, stream)
        cur = res
    return _finish(cur, out, stream)


def _r2c(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None, forward: bool,
         out: DeviceArray | None, default_all: bool) -> DeviceArray:
    x, ax, lens = _normalize(x, s, axes, default_all)
    if x.dtype.kind == "c":
        raise TypeError(f"real transforms take real input, got {x.dtype}")
    if not ax:
        raise ValueError("at least one axis must be transformed")
    stream = rm.current_stream()
    rdt = _real_dtype(x.dtype)
    cdt = _complex_dtype(x.dtype)
    shape = list(x.shape)
    for a, n in zip(ax, lens, strict=True):
        shape[a] = n
    shape_t = tuple(shape)
    if x.dtype != rdt or shape_t != x.shape or not _direct(x, ax[-3:]):
        x = _copy(x, shape_t, rdt, stream, order=[a for a in range(x.ndim) if a not in ax] + ax)
    hshape = list(shape_t)
    hshape[ax[-1]] = shape_t[ax[-1]] // 2 + 1
    hshape_t = tuple(hshape)
    scale = _scale(norm, math.prod(lens), forward)
    real_axes, rest = ax[-3:], ax[:-3]
    res = _alloc(hshape_t, cdt, real_axes)
    _plan_run(TransformType.real_forward, x, res, real_axes, [shape_t[a] for a in real_axes],
              1.0 if rest else scale, stream)
    if rest:
        fin = _c2c(res, None, rest, "backward", True, None, False)  # unscaled; the total scale follows
        if scale != 1.0:
            fin = _c2c_scale(fin, scale, stream)
        res = fin
    return _finish(res, out, stream)


def _c2c_scale(x: DeviceArray, scale: float, stream: Any) -> DeviceArray:
    def run(a: np.ndarray) -> None:
        a *= a.dtype.type(scale)

    launch(run, x, name="fft.scale", stream=stream, bytes=2 * x.nbytes)
    return x


def _c2r(x: Any, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None, out: DeviceArray | None,
         default_all: bool) -> DeviceArray:
    x, ax, lens = _normalize(x, s, axes, default_all, real_inverse=True)
    if not ax:
        raise ValueError("at least one axis must be transformed")
    stream = rm.current_stream()
    cdt = _complex_dtype(x.dtype)
    rdt = _real_dtype(cdt)
    real_axes, rest = ax[-3:], ax[:-3]
    scale = _scale(norm, math.prod(lens), False)
    hshape = list(x.shape)
    for a, n in zip(ax, lens, strict=True):
        hshape[a] = n
    hshape[ax[-1]] = lens[-1] // 2 + 1
    hshape_t = tuple(hshape)
    if x.dtype != cdt or hshape_t != x.shape or not _direct(x, real_axes):
        x = _copy(x, hshape_t, cdt, stream, order=[a for a in range(x.ndim) if a not in ax] + ax)
    if rest:
        x = _c2c(x, None, rest, "forward", False, None, False)  # "forward": this inverse is unscaled
    rshape = list(hshape_t)
    rshape[ax[-1]] = lens[-1]
    rshape_t = tuple(rshape)
    res = _alloc(rshape_t, rdt, real_axes)
    _plan_run(TransformType.real_inverse, x, res, real_axes, [rshape_t[a] for a in real_axes], scale, stream)
    return _finish(res, out, stream)


# --- NumPy's signatures ------------------------------------------------------------------------


def fft(a: DeviceArray, n: int | None = None, axis: int = -1, norm: str | None = None,
        out: DeviceArray | None = None) -> DeviceArray:
    """The 1-D discrete Fourier transform along ``axis`` (as ``numpy.fft.fft``).

    Parameters
    ----------
    a
        Input DeviceArray (real inputs are taken as complex).
    n
        Length of the transform: the axis is cropped or zero-padded to it (default: its length).
    axis
        The axis to transform.
    norm
        "backward" (default: no scaling forward), "ortho" or "forward".
    out
        Optional DeviceArray receiving the result.

    Returns
    -------
    DeviceArray
        Complex, single precision for single inputs, double otherwise.
    """
    return _c2c(a, None if n is None else [n], [axis], norm, True, out, False)


def ifft(a: DeviceArray, n: int | None = None, axis: int = -1, norm: str | None = None,
         out: DeviceArray | None = None) -> DeviceArray:
    """The 1-D inverse discrete Fourier transform (as ``numpy.fft.ifft``; see :func:`fft`)."""
    return _c2c(a, None if n is None else [n], [axis], norm, False, out, False)


def fft2(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
         out: DeviceArray | None = None) -> DeviceArray:
    """The 2-D discrete Fourier transform (as ``numpy.fft.fft2``; see :func:`fftn`)."""
    return _c2c(a, s, axes, norm, True, out, True)


def ifft2(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: DeviceArray | None = None) -> DeviceArray:
    """The 2-D inverse discrete Fourier transform (as ``numpy.fft.ifft2``)."""
    return _c2c(a, s, axes, norm, False, out, True)


def fftn(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None, out: DeviceArray | None = None) -> DeviceArray:
    """The N-D discrete Fourier transform (as ``numpy.fft.fftn``).

    Parameters
    ----------
    a
        Input DeviceArray.
    s
        Lengths of the transformed axes (cropping or zero-padding); default: their lengths.
    axes
        Axes to transform (default: the last ``len(s)``, or all).
    norm
        "backward" (default), "ortho" or "forward".
    out
        Optional DeviceArray receiving the result.

    Returns
    -------
    DeviceArray
    """
    return _c2c(a, s, axes, norm, True, out, True)


def ifftn(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None, out: DeviceArray | None = None) -> DeviceArray:
    """The N-D inverse discrete Fourier transform (as ``numpy.fft.ifftn``)."""
    return _c2c(a, s, axes, norm, False, out, True)


def rfft(a: DeviceArray, n: int | None = None, axis: int = -1, norm: str | None = None,
         out: DeviceArray | None = None) -> DeviceArray:
    """The 1-D transform of real input: the ``n // 2 + 1`` non-negative frequency terms
    (as ``numpy.fft.rfft``)."""
    return _r2c(a, None if n is None else [n], [axis], norm, True, out, False)


def irfft(a: DeviceArray, n: int | None = None, axis: int = -1, norm: str | None = None,
          out: DeviceArray | None = None) -> DeviceArray:
    """The inverse of :func:`rfft`: ``n`` real values (default ``2 (m - 1)``) from ``m``
    Hermitian terms; imaginary parts of the zero and Nyquist terms are ignored
    (as ``numpy.fft.irfft``)."""
    return _c2r(a, None if n is None else [n], [axis], norm, out, False)


def rfft2(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: DeviceArray | None = None) -> DeviceArray:
    """The 2-D transform of real input (as ``numpy.fft.rfft2``)."""
    return _r2c(a, s, axes, norm, True, out, True)


def irfft2(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
           out: DeviceArray | None = None) -> DeviceArray:
    """The inverse of :func:`rfft2` (as ``numpy.fft.irfft2``)."""
    return _c2r(a, s, axes, norm, out, True)


def rfftn(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None, out: DeviceArray | None = None) -> DeviceArray:
    """The N-D transform of real input, the last axis halved (as ``numpy.fft.rfftn``)."""
    return _r2c(a, s, axes, norm, True, out, True)


def irfftn(a: DeviceArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str | None = None, out: DeviceArray | None = None) -> DeviceArray:
    """The inverse of :func:`rfftn` (as ``numpy.fft.irfftn``)."""
    return _c2r(a, s, axes, norm, out, True)
