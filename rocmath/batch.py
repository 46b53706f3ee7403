"""Batched operands: rocBLAS's three flavours as one strided form.

A routine describes each array argument once, as a :class:`BatchOperand`:
``batch_count`` entries of ``shape`` elements with element ``strides`` (negative
for negative increments), either

- *strided*: entry ``b`` starts ``b * batch_stride`` elements after ``ptr`` (a plain
  call is one entry; a stride of 0 reuses the same data), or
- *pointers*: ``ptr`` is a device array of ``batch_count`` device pointers, one per
  entry (the ``_batched`` flavour).

:func:`rocmath.launch` hands every flavour to the kernel as one ndarray of shape
``(batch_count, *shape)``: a strided view of device memory, or for pointer arrays a
staging array gathered when the work runs (the pointer array is read in stream
order) and scattered back afterwards if the operand is written.  Kernels so have
one form for all three flavours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .memory import Span, address_space


@dataclass(frozen=True)
class BatchOperand:
    """One array argument of a (possibly) batched routine.

    Parameters
    ----------
    ptr
        Strided: device pointer of entry 0.  Pointers: device pointer to the uint64
        array of entry pointers.
    dtype
        Element type.
    shape
        Logical shape of one entry, e.g. ``(m, n)`` or ``(n,)``.
    strides
        Element strides of that shape (column-major ``(1, lda)``; ``(incx,)``).
    batch_count
        Number of entries.
    batch_stride
        Elements between entries (strided flavour).
    pointers
        True for the ``_batched`` flavour (``ptr`` is a pointer array).
    offset
        Elements from an entry's pointer to its logical first element: for a negative
        increment the pointer is the lowest address and element 0 is the last one.
    writable
        The kernel writes it (pointer-array entries are then scattered back).
    name
        The argument's name, for error messages.
    owner
        The object the pointer came from (a DeviceArray), kept alive until the work ran.
    compute_dtype
        For storage-only types (half, bfloat16): the kernel gets a copy converted to this
        type, rounded back into storage afterwards if writable (numba has no half type).
    """

    ptr: int
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    batch_count: int
    batch_stride: int = 0
    pointers: bool = False
    offset: int = 0
    writable: bool = False
    name: str = "A"
    compute_dtype: np.dtype[Any] | None = None
    owner: Any = field(default=None, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        return self.batch_count == 0 or 0 in self.shape

    @property
    def kernel_dtype(self) -> np.dtype[Any]:
        return self.dtype if self.compute_dtype is None else np.dtype(self.compute_dtype)

    def entry_extent(self) -> tuple[int, int]:
        """``[lo, hi)`` element offsets one entry touches, relative to its logical origin."""
        if 0 in self.shape:
            return 0, 0
        lo, hi = 0, 1
        for n, s in zip(self.shape, self.strides, strict=True):  # a loop: this runs on every launch
            if s < 0:
                lo += (n - 1) * s
            else:
                hi += (n - 1) * s
        return lo, hi


def _as_2d(op: BatchOperand) -> tuple[tuple[int, int], tuple[int, int]]:
    if len(op.shape) == 0:
        return (1, 1), (0, 0)
    if len(op.shape) == 1:
        return (op.shape[0], 1), (op.strides[0], 0)
    if len(op.shape) == 2:
        return (op.shape[0], op.shape[1]), (op.strides[0], op.strides[1])
    raise ValueError("batched operands have 1-D or 2-D entries")


@dataclass
class BoundBatch:
    """A checked :class:`BatchOperand`, materialised as an ndarray when the work runs."""

    op: BatchOperand
    span: Span | None  # strided: the whole batch; pointers: the pointer array
    lo: int
    hi: int
    addrs: np.ndarray | None = None
    raw: np.ndarray | None = None  # the storage-typed array behind a converted kernel view
    geometry: tuple[Any, ...] | None = None  # a non-empty strided view's (shape, byte strides)
    vref: Any = None  # a weak reference to that view (Allocation.kept_view)

    def materialize(self, opname: str) -> np.ndarray:
        ref = self.vref
        if ref is not None and self.op.compute_dtype is None:  # a replay's strided operand: its kept view
            alloc = self.span.alloc  # type: ignore[union-attr]
            v = ref()
            if v is not None and alloc.live and not alloc.pooled:
                alloc.last_op = opname
                return v  # type: ignore[no-any-return]
        raw = self._materialize(opname)
        if self.op.compute_dtype is None:
            return raw
        self.raw = raw
        return _widen(raw, self.op.dtype, self.op.kernel_dtype)

    def _materialize(self, opname: str) -> np.ndarray:
        op = self.op
        geometry, span = self.geometry, self.span
        if geometry is not None:  # strided (a replay materializes it again: the geometry was kept)
            _check_live(span, opname, op.name)
            return span.alloc.kept_view(self, span.offset, op.dtype, geometry[0], geometry[1])
        isz = op.dtype.itemsize
        if op.empty or span is None:
            return np.zeros((op.batch_count, *op.shape), dtype=op.dtype)
        _check_live(span, opname, op.name)
        from ._kernels import gather_entries

        ptrs = self.span.alloc.view(self.span.offset, np.uint64, (op.batch_count,), None)
        origin = ptrs + np.uint64(op.offset * isz) if op.offset >= 0 else ptrs - np.uint64(-op.offset * isz)
        self.addrs = address_space.translate(origin, self.lo * isz, self.hi * isz, op=opname, arg=op.name)
        shape2, strides2 = _as_2d(op)
        # Column-major entries, like the memory they come from: BLAS-backed kernels read them as is.
        staging = np.empty((op.batch_count, shape2[1], shape2[0]), dtype=op.dtype).transpose(0, 2, 1)
        gather_entries(_bits(staging), self.addrs, strides2[0], strides2[1], self.lo, self.hi - self.lo)
        return staging.reshape((op.batch_count, *op.shape)) if len(op.shape) != 2 else staging

    def finish(self, view: np.ndarray) -> None:
        op = self.op
        if not op.writable:
            return
        if op.compute_dtype is not None and self.raw is not None:
            self.raw[...] = _narrow(view, op.dtype)
            view = self.raw
        if not op.pointers or self.addrs is None:
            return
        from ._kernels import entries_apart, scatter_entries

        shape2, strides2 = _as_2d(op)
        args = (_bits(view.reshape((op.batch_count, *shape2))), self.addrs, strides2[0], strides2[1], self.lo,
                self.hi - self.lo)
        if entries_apart(self.addrs, np.uint64((self.hi - self.lo) * args[0].itemsize)):
            scatter_entries(*args)
        else:
            # Entries that may share memory (or come in another order) are written back one after
            # another, in entry order: a byte two entries write holds the last one's, run after run
            # (in parallel, whichever thread came last; on the device, a race rocBLAS leaves undefined).
            scatter_entries.serial_entry_point(*args)(*args)


def _check_live(span: Span, opname: str, arg: str) -> None:
    alloc = span.alloc
    if not alloc.live or alloc.pooled:
        from .errors import MemoryAccessFault

        raise MemoryAccessFault(f"{opname}: argument '{arg}' points into {alloc.describe()}, "
                                "freed before the kernel ran")
    alloc.last_op = opname


def bind(op: BatchOperand, opname: str) -> BoundBatch:
    """Check an operand against the live allocations at enqueue time."""
    lo, hi = op.entry_extent()
    if op.empty:
        return BoundBatch(op, None, lo, hi)
    isz = op.dtype.itemsize
    if op.pointers:
        span = address_space.span(op.ptr, 0, 8 * op.batch_count, op=opname, arg=op.name)
        return BoundBatch(op, span, lo, hi)
    blo = lo + min(0, (op.batch_count - 1) * op.batch_stride)
    bhi = hi + max(0, (op.batch_count - 1) * op.batch_stride)
    # Looked up from the pointer as given (the lowest address for a negative increment), so an
    # overrun is reported as one, and then re-based on the logical origin for the views.
    base = address_space.span(op.ptr, (op.offset + blo) * isz, (op.offset + bhi) * isz, op=opname, arg=op.name)
    span = Span(base.alloc, base.offset + op.offset * isz)
    # An axis of extent 1 never uses its stride, which C may pass as anything up to 2^63 - 1
    # elements (rocBLAS then succeeds): the view takes the contiguous one (in bytes it could overflow).
    strides = op.strides if 1 not in op.shape else tuple(
        st if n > 1 else (1 if k == 0 else max(op.shape[0], 1))
        for k, (n, st) in enumerate(zip(op.shape, op.strides, strict=True)))
    geometry = ((op.batch_count, *op.shape),
                ((op.batch_stride if op.batch_count > 1 else 0) * isz, *(st * isz for st in strides)))
    return BoundBatch(op, span, lo, hi, geometry=geometry)


def _bits(a: np.ndarray) -> np.ndarray:
    # Gathers copy bits; numba has no float16, so half values travel as uint16.
    return a.view(np.uint16) if a.dtype == np.float16 else a


def _widen(raw: np.ndarray, storage: np.dtype[Any], compute: np.dtype[Any]) -> np.ndarray:
    from .precision import BF16, from_bfloat16

    if storage == BF16.dtype:
        return from_bfloat16(raw).astype(compute)
    return raw.astype(compute)


def _narrow(values: np.ndarray, storage: np.dtype[Any]) -> np.ndarray:
    from .precision import BF16, to_bfloat16

    if storage == BF16.dtype:
        return to_bfloat16(values)
    with np.errstate(over="ignore"):  # past the storage type's range is inf, as the device writes it: no warning
        return values.astype(storage)


def flat_entries(x: np.ndarray) -> tuple[np.ndarray, int, int] | None:
    """A ``(batch, rows, cols)`` view of column-major entries as (a flat contiguous view from
    its first element, leading dimension, batch stride), in elements, so that kernels index
    ``flat[e * stride + j * ld + i]`` with unit stride known to the compiler; None if the
    strides are not those of column-major entries (unit rows, non-negative multiples)."""
    nb, r, c = x.shape
    isz = x.itemsize
    s0, s1, s2 = x.strides
    if x.size == 0:
        return np.empty(0, x.dtype), max(r, 1), 0
    ld = s2 // isz if c > 1 else r
    stride = s0 // isz if nb > 1 else 0
    if (r > 1 and s1 != isz) or s2 % isz or s0 % isz or ld < r or stride < 0:
        return None
    span = (nb - 1) * stride + (c - 1) * ld + r
    return flat_span(x.transpose(0, 2, 1), span), ld, stride


def flat_span(x: np.ndarray, span: int) -> np.ndarray:
    """The ``span`` elements of memory from ``x``'s first element as a contiguous 1-D view; ``x``'s axes
    in memory order (slowest first), its elements within those ``span``.  Packed, that is ``x`` reshaped
    (``as_strided`` costs 3 us a call, on every launch of a launch body)."""
    if span == x.size and x.flags.c_contiguous:
        return x.reshape(-1)
    return np.lib.stride_tricks.as_strided(x, shape=(span,), strides=(x.itemsize,))
