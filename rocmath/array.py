"""DeviceArray: an ndarray-like view of device memory.

A DeviceArray has a shape, dtype, byte strides (C or F order, or any view of
those) and a device pointer ``.ptr``.  Its data lives in device memory: reading it
takes an explicit transfer (:meth:`DeviceArray.get`).  Implicit conversion to
numpy (``np.asarray(d)``) raises ``TypeError``, as in CuPy, because it would hide a
device-to-host copy.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import device as _device
from .errors import HipInvalidValueError
from .memory import Allocation, MemoryKind, address_space

_BASIC = (int, np.integer, slice, type(Ellipsis), type(None))


def _normalize_shape(shape: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    out = tuple(int(s) for s in shape)
    if any(s < 0 for s in out):
        raise HipInvalidValueError(f"negative dimension in shape {out}", arg="shape")
    return out


def _strides_for(shape: tuple[int, ...], itemsize: int, order: str) -> tuple[int, ...]:
    from .launch import c_strides

    if order == "C":
        return c_strides(shape, itemsize)
    if order == "F":
        return tuple(reversed(c_strides(tuple(reversed(shape)), itemsize)))
    raise HipInvalidValueError(f"order must be 'C' or 'F', got {order!r}", arg="order")


class DeviceArray:
    """An n-dimensional array in device memory.

    Create one with :func:`empty`, :func:`zeros`, :func:`to_device`, or over an
    existing allocation with :meth:`from_pointer`.

    Parameters
    ----------
    shape, dtype, order
        As for ``numpy.empty``.
    device
        The device to allocate on (the current device when None).
    """

    __slots__ = ("__weakref__", "_alloc", "_base", "device", "dtype", "ptr", "shape", "strides")

    def __init__(self, shape: int | Sequence[int], dtype: Any = np.float64, order: str = "C",
                 *, device: int | None = None):
        self.shape = _normalize_shape(shape)
        self.dtype = np.dtype(dtype)
        self.strides = _strides_for(self.shape, self.dtype.itemsize, order)
        dev = _device.get_device() if device is None else _device.get_device_object(device).index
        nbytes = int(math.prod(self.shape)) * self.dtype.itemsize
        self.device = dev
        self._base: DeviceArray | None = None
        self._alloc: Allocation | None = None
        self.ptr = 0  # an empty array owns no memory, as malloc(0) returns null
        if nbytes:
            alloc = self._alloc = address_space.allocate(nbytes, dev, MemoryKind.DEVICE)
            self.ptr = alloc.ptr
            # Freed when the last view of it is gone; launches keep their arguments alive until run.
            weakref.finalize(self, _release, alloc)

    @classmethod
    def from_pointer(cls, ptr: int, shape: int | Sequence[int], dtype: Any = np.float64,
                     strides: Sequence[int] | None = None, order: str = "C") -> DeviceArray:
        """A DeviceArray over memory someone else owns (it never frees it).

        Raises
        ------
        InvalidDevicePointerError, MemoryAccessFault
            If the view does not lie inside one live allocation.
        """
        from .launch import byte_extent

        shp = _normalize_shape(shape)
        dt = np.dtype(dtype)
        st = tuple(int(s) for s in strides) if strides is not None else _strides_for(shp, dt.itemsize, order)
        lo, hi = byte_extent(shp, st, dt.itemsize)
        dev = _device.get_device()
        if hi > lo:
            sp = address_space.span(int(ptr), lo, hi, op="DeviceArray.from_pointer", arg="ptr")
            dev = max(sp.alloc.device, 0)
        return cls._view(int(ptr), shp, dt, st, dev, None)

    @classmethod
    def _view(cls, ptr: int, shape: tuple[int, ...], dtype: np.dtype[Any], strides: tuple[int, ...],
              device: int, base: DeviceArray | None) -> DeviceArray:
        self = cls.__new__(cls)
        self.shape, self.dtype, self.strides, self.ptr, self.device = shape, dtype, strides, ptr, device
        self._alloc = None
        self._base = base
        return self

    # -- ndarray-like attributes ------------------------------------------------------------

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(math.prod(self.shape))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def base(self) -> DeviceArray | None:
        """The array this one is a view of (None for an owner or a foreign pointer)."""
        return self._base

    @property
    def c_contiguous(self) -> bool:
        from .launch import c_strides

        return self.size <= 1 or _same_strides(self.shape, self.strides, c_strides(self.shape, self.itemsize))

    @property
    def f_contiguous(self) -> bool:
        return self.size <= 1 or _same_strides(self.shape, self.strides, _strides_for(self.shape, self.itemsize, "F"))

    @property
    def is_contiguous(self) -> bool:
        return self.c_contiguous or self.f_contiguous

    @property
    def T(self) -> DeviceArray:
        return self.transpose()

    def transpose(self, *axes: int) -> DeviceArray:
        """A view with axes permuted (reversed when none are given)."""
        order = tuple(axes[0]) if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        perm = tuple(range(self.ndim))[::-1] if not order else tuple(int(a) for a in order)
        if sorted(perm) != list(range(self.ndim)):
            raise HipInvalidValueError(f"axes {perm} are not a permutation of {self.ndim} axes", arg="axes")
        return DeviceArray._view(self.ptr, tuple(self.shape[a] for a in perm), self.dtype,
                                 tuple(self.strides[a] for a in perm), self.device, self._root())

    def _root(self) -> DeviceArray:
        return self if self._base is None else self._base

    def _host_alias(self) -> np.ndarray:
        """This view as numpy sees it over the allocation's bytes (for index arithmetic only)."""
        from .launch import byte_extent

        lo, hi = byte_extent(self.shape, self.strides, self.itemsize)
        if hi == lo:
            return np.ndarray(self.shape, dtype=self.dtype, buffer=np.empty(max(hi, self.itemsize), np.uint8),
                              strides=self.strides)
        sp = address_space.span(self.ptr, lo, hi, op="DeviceArray indexing", arg="self")
        return sp.alloc.view(sp.offset, self.dtype, self.shape, self.strides)

    def __getitem__(self, key: Any) -> DeviceArray:
        """Basic indexing (ints, slices, ``...``, ``None``) returns a view, as in numpy."""
        keys = key if isinstance(key, tuple) else (key,)
        if not all(isinstance(k, _BASIC) and not isinstance(k, bool) for k in keys):
            raise TypeError("DeviceArray supports basic indexing only (ints, slices, ..., None)")
        alias = self._host_alias()
        sub = alias[key]
        if not isinstance(sub, np.ndarray):  # a single element: keep it as a 0-d view
            sub = alias[(*keys, Ellipsis)] if Ellipsis not in keys else alias[key]
        offset = sub.__array_interface__["data"][0] - alias.__array_interface__["data"][0]
        return DeviceArray._view(self.ptr + offset, sub.shape, self.dtype, sub.strides, self.device, self._root())

    def reshape(self, *shape: Any, order: str = "C") -> DeviceArray:
        """A view with a new shape; only for contiguous arrays (no copy is ever made)."""
        new = shape[0] if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) else shape
        alias = self._host_alias()
        try:
            sub = alias.reshape(new, order=order)  # type: ignore[call-overload]
        except ValueError as exc:
            raise HipInvalidValueError(str(exc), arg="shape") from None
        if not np.shares_memory(sub, alias) and sub.size > 0:
            raise HipInvalidValueError("this reshape would need a copy", arg="shape")
        return DeviceArray._view(self.ptr, sub.shape, self.dtype, sub.strides, self.device, self._root())

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self) -> str:
        return (f"<rocmath DeviceArray shape={self.shape} dtype={self.dtype} "
                f"ptr=0x{self.ptr:x} device={self.device}>")

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise TypeError("implicit conversion of a DeviceArray to a NumPy array is not allowed "
                        "(it would hide a device-to-host copy): use .get() or .to_host()")

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """Version 3 of the CUDA array interface (as hip-python's DeviceArray has)."""
        return {"shape": self.shape, "typestr": self.dtype.str, "version": 3,
                "data": (self.ptr, False), "strides": None if self.c_contiguous else self.strides}

    # -- transfers ----------------------------------------------------------------------------

    def get(self, stream: Any = None, out: np.ndarray | None = None) -> np.ndarray:
        """Copy to a new (or the given) host ndarray, waiting for the copy; same as :meth:`to_host`.

        The result has this array's order (F stays F).
        """
        from .launch import launch

        if out is None:
            f_order = self.f_contiguous and not self.c_contiguous
            out = np.empty(self.shape, dtype=self.dtype, order="F" if f_order else "C")
        elif out.shape != self.shape or out.dtype != self.dtype:
            raise HipInvalidValueError(f"out has shape {out.shape} {out.dtype}, expected {self.shape} {self.dtype}",
                                       arg="out")
        launch(_copy_into, out, self, name="DeviceArray.get", stream=stream, bytes=2 * self.nbytes,
               kind="copy").wait()
        return out

    to_host = get

    def set(self, host: Any, stream: Any = None) -> None:
        """Copy a host array of the same shape into this array (stream-ordered; the host
        data is staged first, so the caller may reuse it at once)."""
        from .launch import launch

        src = np.asarray(host)
        if src.shape != self.shape:
            raise HipInvalidValueError(f"host array has shape {src.shape}, expected {self.shape}", arg="host")
        staged = np.array(src, dtype=self.dtype, copy=True)
        launch(_copy_into, self, staged, name="DeviceArray.set", stream=stream, bytes=2 * self.nbytes, kind="copy")

    def copy(self, order: str = "C", stream: Any = None) -> DeviceArray:
        """A new device array with the same contents (a device-to-device copy on ``stream``)."""
        from .launch import launch

        out = DeviceArray(self.shape, self.dtype, order, device=self.device)
        launch(_copy_into, out, self, name="DeviceArray.copy", stream=stream, bytes=2 * self.nbytes, kind="copy")
        return out

    def fill(self, value: Any, stream: Any = None) -> None:
        """Set every element to ``value`` (a kernel on ``stream``)."""
        from ._kernels import fill_flat
        from .launch import launch

        v = np.array(value, dtype=self.dtype)[()]
        if self.is_contiguous:
            flat = self.reshape(-1, order="C" if self.c_contiguous else "F")
            if self.dtype == np.float16:  # numba has no float16 arithmetic type: fill the bits
                flat = DeviceArray._view(flat.ptr, flat.shape, np.dtype(np.uint16), flat.strides, flat.device,
                                         flat._root())
                v = v.view(np.uint16)
            launch(fill_flat, flat, v, name="DeviceArray.fill", stream=stream, bytes=self.nbytes, kind="memset")
        else:
            launch(_fill_strided, self, v, name="DeviceArray.fill", stream=stream, bytes=self.nbytes, kind="memset")


def _same_strides(shape: tuple[int, ...], a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(n == 1 or x == y for n, x, y in zip(shape, a, b, strict=True))


def _copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    np.copyto(dst, src)


def _fill_strided(dst: np.ndarray, value: Any) -> None:
    dst[...] = value


def _release(alloc: Allocation) -> None:
    if alloc.live and not alloc.pooled:
        try:
            address_space.release(alloc, "DeviceArray release")
        except Exception as exc:
            import warnings

            warnings.warn(f"rocmath: {exc}", RuntimeWarning, stacklevel=1)


# --- constructors -----------------------------------------------------------------------------


def empty(shape: int | Sequence[int], dtype: Any = np.float64, order: str = "C",
          *, device: int | None = None) -> DeviceArray:
    """A new uninitialised device array (poisoned with NaN bytes in checking mode)."""
    return DeviceArray(shape, dtype, order, device=device)


def zeros(shape: int | Sequence[int], dtype: Any = np.float64, order: str = "C",
          *, stream: Any = None, device: int | None = None) -> DeviceArray:
    """A new device array of zeros (zeroed on ``stream``)."""
    from .memory import memset_async

    out = DeviceArray(shape, dtype, order, device=device)
    if out.nbytes:
        memset_async(out, 0, out.nbytes, stream)  # the array, not its pointer: kept alive until zeroed
    return out


def full(shape: int | Sequence[int], value: Any, dtype: Any = np.float64, order: str = "C",
         *, stream: Any = None) -> DeviceArray:
    """A new device array with every element ``value``."""
    out = DeviceArray(shape, dtype, order)
    out.fill(value, stream)
    return out


def empty_like(a: DeviceArray | np.ndarray, dtype: Any = None) -> DeviceArray:
    """A new device array with the shape (and order) of ``a``."""
    f = bool(a.flags.f_contiguous and not a.flags.c_contiguous) if isinstance(a, np.ndarray) \
        else (a.f_contiguous and not a.c_contiguous)
    return DeviceArray(a.shape, a.dtype if dtype is None else dtype, "F" if f else "C")


def to_device(host: Any, stream: Any = None, *, dtype: Any = None) -> DeviceArray:
    """Copy a host array to a new device array of the same shape and order (F stays F).

    The copy is stream-ordered; the host data is staged at the call, so the caller
    may change ``host`` at once.
    """
    arr = np.asarray(host, dtype=dtype)
    out = empty_like(arr)
    if out.size:
        out.set(arr, stream)
    return out
