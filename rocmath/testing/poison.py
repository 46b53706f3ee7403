"""Poison outputs and padding, then prove memory a routine must not touch stayed untouched.

A routine given an ``m x n`` matrix with leading dimension ``lda`` may touch only
the logical elements: never rows ``m..lda-1`` of a column, never the gap between
entries of a strided batch, never anything before the first element or after the
last.  :class:`PaddedDeviceMatrix` allocates such a matrix with a margin on both
sides, fills everything that is not logical data with a sentinel and later
compares it *bitwise* (the sentinel is a NaN, and NaN != NaN).  Outputs are
poisoned too (:func:`poison_output`), so a routine that reads an output it should
only write (``beta == 0``) produces NaN, and one that forgets to write an element
leaves the sentinel behind (:func:`assert_written`).

The sentinel of a floating type is a *signaling* NaN with a recognisable payload
(bits ``0x7FF4DEADBEEFCAFE`` for doubles, ``0x7FADBEEF`` for floats, both parts of
a complex).  Copies keep its bits, but any arithmetic on it gives a quiet NaN with
other bits: a result computed from poisoned memory is NaN, and a routine that
reads padding and writes it back "unchanged" (``x * 1``) is still caught.  Compare
it bitwise (:func:`sentinel_value` is for that, not for ``==``).  Integer types get
``0xDEADBEEF...``.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import memory as _memory
from ..array import DeviceArray
from ..precision import BF16, Precision

__all__ = [
    "PaddedDeviceMatrix",
    "PaddedDeviceVector",
    "Snapshot",
    "assert_unchanged",
    "assert_written",
    "poison_output",
    "poisoned_device_matrix",
    "poisoned_device_vector",
    "sentinel_value",
    "snapshot",
]

DEFAULT_MARGIN = 32  # elements of margin before and after a padded matrix
_MAX_REPORTED = 10

# Signaling NaNs (quiet bit clear, payload nonzero): arithmetic quiets them, so it changes the bits.
_NAN_BITS = {2: 0x7D5A, 4: 0x7FADBEEF, 8: 0x7FF4DEADBEEFCAFE}
_BF16_NAN_BITS = 0x7FA5
_INT_PATTERN = bytes.fromhex("EFBEADDE") * 4  # 0xDEADBEEF, little-endian


def _dtype_of(what: Any) -> tuple[np.dtype[Any], bool]:
    """``(storage dtype, is bfloat16)`` of a Precision, dtype or array."""
    if isinstance(what, Precision):
        return what.dtype, what is BF16
    if isinstance(what, (np.dtype, type, str)):
        return np.dtype(what), False
    return np.dtype(getattr(what, "dtype", what)), False


def _sentinel_bytes(dtype: np.dtype[Any], bf16: bool = False, value: Any = None) -> bytes:
    if value is not None:
        return np.array(value, dtype=dtype).tobytes()
    if bf16:
        return np.array(_BF16_NAN_BITS, dtype=np.uint16).tobytes()
    if dtype.kind in "fc":
        part = dtype.itemsize // (2 if dtype.kind == "c" else 1)
        bits = np.array(_NAN_BITS[part], dtype=f"<u{part}").tobytes()
        return bits * (dtype.itemsize // part)
    return _INT_PATTERN[: dtype.itemsize]


def sentinel_value(precision_or_dtype: Any) -> np.generic:
    """The default poison value of a precision or dtype.

    Parameters
    ----------
    precision_or_dtype
        A :class:`~rocmath.Precision`, a numpy dtype, or anything with a ``dtype``.

    Returns
    -------
    numpy.generic
        A signaling NaN with a recognisable payload for floating and complex types
        (both parts NaN), ``0x7FA5`` bits for bfloat16, and the ``0xDEADBEEF`` pattern
        for integer types.  Converting it to a Python float may quiet it: compare bits.
    """
    dtype, bf16 = _dtype_of(precision_or_dtype)
    return np.frombuffer(_sentinel_bytes(dtype, bf16), dtype=dtype)[0]


def _filled(pattern: bytes, count: int, dtype: np.dtype[Any]) -> np.ndarray:
    """``count`` elements of ``dtype`` whose bytes are ``pattern`` each (bit-exact, no casting)."""
    return np.tile(np.frombuffer(pattern, dtype=np.uint8), count).view(dtype)


def _format_element(raw: bytes, dtype: np.dtype[Any]) -> str:
    value = np.frombuffer(raw, dtype=dtype)[0]
    text = repr(value.item()) if hasattr(value, "item") else repr(value)
    if dtype.kind in "fc" and np.isnan(value):
        text += f" (bits 0x{raw[::-1].hex()})"
    return text


def _read(ptr: int, nbytes: int, stream: Any) -> np.ndarray:
    """The device bytes ``[ptr, ptr + nbytes)`` as a new host uint8 array, after earlier work on ``stream``."""
    out = np.empty(nbytes, dtype=np.uint8)
    if nbytes:
        # Into pageable host memory this returns only once the copy ran; with stream None it is
        # ordered on the null stream, which waits for the device's blocking streams.
        _memory.memcpy_async(out, ptr, nbytes, stream=stream)
    return out


def _free_quietly(ptr: int) -> None:
    # A finalizer may run anywhere (even inside a launch): never block here, free in stream order.
    _memory.free_later(ptr)


# --- padded matrices ---------------------------------------------------------------------------


class PaddedDeviceMatrix:
    """A column-major matrix (or strided batch of them) in device memory, padding poisoned.

    The allocation holds ``margin`` elements, then the matrices (entry ``b``
    starts ``b * stride`` elements in; its column ``j`` starts ``j * lda``
    elements after that), then ``margin`` elements.  Everything but the logical
    ``m x n`` elements holds the sentinel; at construction the logical elements
    hold it too (an output nobody wrote reads as NaN) until :meth:`set` fills them.

    Parameters
    ----------
    m, n
        Logical rows and columns.
    lda
        Leading dimension, ``>= max(1, m)``.
    precision
        Element type: a :class:`~rocmath.Precision` or a numpy dtype (integer dtypes
        suit pivot arrays).
    batch_count
        None for a single matrix, else the number of matrices in the strided batch.
    stride
        Elements between consecutive matrices (default ``lda * n``); ``>= lda * n``.
    margin
        Sentinel elements before the first and after the last matrix.
    sentinel
        Fill value of padding and margins (default :func:`sentinel_value`).

    Attributes
    ----------
    ptr : int
        Device pointer of the first logical element: what the routine under test gets.
    array : DeviceArray
        A view of the logical elements, shape ``(m, n)`` or ``(batch_count, m, n)``.

    Notes
    -----
    Free the memory with :meth:`close` or a ``with`` block; otherwise it is freed
    when the object is garbage collected.  Reads (:meth:`get`,
    :meth:`check_untouched`) are ordered after earlier work on ``stream`` (the null
    stream by default, which waits for all blocking streams); synchronize
    non-blocking streams yourself first.
    """

    def __init__(self, m: int, n: int, lda: int, precision: Any = np.float64, *, batch_count: int | None = None,
                 stride: int | None = None, margin: int = DEFAULT_MARGIN, sentinel: Any = None):
        if min(m, n, margin) < 0 or (batch_count is not None and batch_count < 0):
            raise ValueError(f"negative size: m={m}, n={n}, batch_count={batch_count}, margin={margin}")
        if lda < max(1, m):
            raise ValueError(f"lda={lda} must be >= max(1, m={m})")
        stride = lda * n if stride is None else int(stride)
        batches = 1 if batch_count is None else int(batch_count)
        if stride < lda * n and batches > 1:
            raise ValueError(f"stride={stride} must be >= lda*n={lda * n} (batch entries may not overlap)")
        self.m, self.n, self.lda, self.stride, self.margin = int(m), int(n), int(lda), stride, int(margin)
        self.batch_count = batch_count
        self.dtype, bf16 = _dtype_of(precision)
        self._pattern = _sentinel_bytes(self.dtype, bf16, sentinel)
        self.sentinel = np.frombuffer(self._pattern, dtype=self.dtype)[0]
        self._batches = batches
        self.extent = 0 if batches == 0 else stride * (batches - 1) + lda * n
        self.total = self.extent + 2 * self.margin
        isz = self.dtype.itemsize
        # The expected image of the whole allocation; the logical region is all the routine may change.
        self._expected = _filled(self._pattern, self.total, self.dtype)
        self._padding = np.ones(self.total, dtype=bool)
        self._logical_view(self._padding)[...] = False
        self._base = _memory.malloc(self.total * isz)
        self._finalizer = weakref.finalize(self, _free_quietly, self._base)
        self._finalizer.atexit = False  # at exit the process returns the memory; no late device waits
        self.ptr = self._base + self.margin * isz
        if self.total:
            _memory.memcpy(self._base, self._expected, self.total * isz)
        shape, strides = (self.m, self.n), (isz, lda * isz)
        if batch_count is not None:
            shape, strides = (batch_count, *shape), (stride * isz, *strides)
        self._storage = DeviceArray.from_pointer(self.ptr, shape, self.dtype, strides=strides)
        self.array = self._storage

    # -- geometry ----------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        """Logical shape: ``(m, n)`` or ``(batch_count, m, n)``."""
        return (self.m, self.n) if self.batch_count is None else (self.batch_count, self.m, self.n)

    @property
    def batched(self) -> bool:
        """Whether this is a strided batch (``batch_count`` given)."""
        return self.batch_count is not None

    @property
    def nbytes(self) -> int:
        """Bytes of the whole allocation, margins included."""
        return self.total * self.dtype.itemsize

    def _logical_view(self, image: np.ndarray) -> np.ndarray:
        """The logical elements of a host image of the allocation, shape ``(batches, m, n)``."""
        isz = image.itemsize
        shape = (self._batches, self.m, self.n)
        if 0 in shape:
            return np.empty(shape, dtype=image.dtype)
        return np.ndarray(shape, dtype=image.dtype, buffer=image, offset=self.margin * isz,
                          strides=(self.stride * isz, isz, self.lda * isz))

    def describe_position(self, element: int) -> str:
        """Say where an element of the allocation lies.

        Parameters
        ----------
        element
            Index counted from the start of the allocation (margin included), as
            :meth:`changed_positions` returns.

        Returns
        -------
        str
            E.g. ``"padding row 5, column 2 of batch entry 1"`` or ``"margin before the matrix, ..."``.
        """
        off = element - self.margin
        if off < 0:
            return f"margin before the matrix, {-off} element(s) before A[0, 0]"
        if off >= self.extent:
            return f"margin after the matrix, {off - self.extent + 1} element(s) past its storage"
        b, r = divmod(off, self.stride) if self.stride else (0, off)
        where = f" of batch entry {b}" if self.batched else ""
        if r >= self.lda * self.n:
            return f"gap between batch entries {b} and {b + 1}, element {r - self.lda * self.n} after entry {b}"
        j, i = divmod(r, self.lda)
        kind = "logical element" if i < self.m else "padding"
        return f"{kind} row {i}, column {j}{where}"

    # -- data --------------------------------------------------------------------------------

    def set(self, host: Any, stream: Any = None) -> None:
        """Copy host data into the logical elements (padding untouched).

        Parameters
        ----------
        host
            Data of shape :attr:`shape`.
        stream
            Stream the copy is ordered on; the host data is staged, so it may be reused at once.
        """
        data = np.asarray(host)
        if data.shape != self.shape:
            raise ValueError(f"host data has shape {data.shape}, expected {self.shape}")
        self._set_logical(data.reshape(self._batches, self.m, self.n), stream)

    def _set_logical(self, data: np.ndarray, stream: Any) -> None:
        """Write ``(batches, m, n)`` data into the logical elements and expect it there."""
        staged = np.array(data, dtype=self.dtype, copy=True)
        if self._storage.size:
            self._storage.set(staged.reshape(self._storage.shape), stream)
        self._logical_view(self._expected)[...] = staged

    def poison(self, stream: Any = None) -> None:
        """Fill the logical elements with the sentinel too (an output that must be written).

        Parameters
        ----------
        stream
            Stream the fill is ordered on.
        """
        count = self._batches * self.m * self.n
        self._set_logical(_filled(self._pattern, count, self.dtype).reshape(self._batches, self.m, self.n), stream)

    def read(self, stream: Any = None) -> np.ndarray:
        """Copy the whole allocation, margins included, to the host.

        Parameters
        ----------
        stream
            Order the copy after earlier work on this stream (default: the null stream).

        Returns
        -------
        numpy.ndarray
            1-D, of :attr:`dtype`, :attr:`total` elements.
        """
        self._check_open()
        return _read(self._base, self.nbytes, stream).view(self.dtype)

    def get(self, stream: Any = None) -> np.ndarray:
        """Copy the logical data to the host.

        Parameters
        ----------
        stream
            Order the copy after earlier work on this stream (default: the null stream).

        Returns
        -------
        numpy.ndarray
            Of shape :attr:`shape`, each matrix column-major.
        """
        logical = self._logical_view(self.read(stream))
        out = np.asfortranarray(logical.transpose(1, 2, 0)).transpose(2, 0, 1)  # F order per matrix
        return out[0] if self.batch_count is None else out

    def _diff(self, logical: bool, stream: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(element indices that differ bitwise from what they should hold, bytes now)``."""
        isz = self.dtype.itemsize
        now = self.read(stream).view(np.uint8).reshape(self.total, isz)
        differs = np.any(now != self._expected.view(np.uint8).reshape(self.total, isz), axis=1)
        if not logical:
            differs &= self._padding
        return np.flatnonzero(differs), now

    def changed_positions(self, *, logical: bool = False, stream: Any = None) -> list[int]:
        """Elements (counted from the start of the allocation) that no longer hold what they should.

        Parameters
        ----------
        logical
            Also compare the logical elements with the last data :meth:`set` (for inputs
            the routine must only read).
        stream
            Order the read after earlier work on this stream.

        Returns
        -------
        list of int
            Pass them to :meth:`describe_position` for a readable location.
        """
        return [int(e) for e in self._diff(logical, stream)[0]]

    def check_untouched(self, *, logical: bool = False, stream: Any = None) -> None:
        """Assert that padding, batch gaps and margins still hold the sentinel, bit for bit.

        Parameters
        ----------
        logical
            Also require the logical elements to be unchanged since the last :meth:`set`
            (for read-only inputs).
        stream
            Order the read after earlier work on this stream.

        Raises
        ------
        AssertionError
            Naming how many elements changed and, for the first few, where they are (row,
            column and batch entry, or margin) with the old and new values.
        """
        bad, now = self._diff(logical, stream)
        if not bad.size:
            return
        before = self._expected.view(np.uint8).reshape(self.total, -1)
        lines = [f"  {self.describe_position(int(e))} (element offset {int(e) - self.margin} from ptr): "
                 f"{_format_element(before[e].tobytes(), self.dtype)} -> "
                 f"{_format_element(now[e].tobytes(), self.dtype)}" for e in bad[:_MAX_REPORTED]]
        more = f"\n  ... and {bad.size - _MAX_REPORTED} more" if bad.size > _MAX_REPORTED else ""
        what = "elements" if logical else "padding/margin elements"
        raise AssertionError(f"{bad.size} {what} of {self!r} changed:\n" + "\n".join(lines) + more)

    # -- lifetime ----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if not self._finalizer.alive:
            raise ValueError(f"{self!r} is closed")

    @property
    def closed(self) -> bool:
        """Whether the device memory was freed."""
        return not self._finalizer.alive

    def close(self) -> None:
        """Free the device memory (idempotent).

        Raises
        ------
        MemoryAccessFault
            If something wrote past the allocation itself (into the runtime's guard bytes).
        """
        if self._finalizer.detach() is not None:
            _memory.free(self._base)

    def __enter__(self) -> PaddedDeviceMatrix:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        batch = f", batch_count={self.batch_count}, stride={self.stride}" if self.batched else ""
        return (f"<{type(self).__name__} m={self.m}, n={self.n}, lda={self.lda}{batch}, "
                f"dtype={self.dtype}, ptr=0x{self.ptr:x}>")


class PaddedDeviceVector(PaddedDeviceMatrix):
    """A BLAS vector of ``n`` elements with increment ``inc`` (possibly negative), gaps poisoned.

    Stored as a ``1 x n`` matrix with leading dimension ``|inc|``.  As in BLAS, with
    a negative increment logical element ``x[i]`` lives at storage position
    ``(n - 1 - i) * |inc|`` from :attr:`ptr`; :meth:`set`, :meth:`get` and
    :attr:`array` (a strided view, with a negative stride then) use the logical
    order, shape ``(n,)`` or ``(batch_count, n)``.

    Parameters
    ----------
    n
        Number of elements.
    inc
        Increment, nonzero.
    precision, batch_count, stride, margin, sentinel
        As for :class:`PaddedDeviceMatrix` (``stride >= |inc| * n``).
    """

    def __init__(self, n: int, inc: int, precision: Any = np.float64, *, batch_count: int | None = None,
                 stride: int | None = None, margin: int = DEFAULT_MARGIN, sentinel: Any = None):
        if inc == 0:
            raise ValueError("inc must be nonzero")
        self.inc = int(inc)
        super().__init__(1, n, abs(self.inc), precision, batch_count=batch_count, stride=stride, margin=margin,
                         sentinel=sentinel)
        # The logical vector as a strided view: reversed storage becomes a negative stride.
        isz, step = self.dtype.itemsize, self.inc * self.dtype.itemsize
        start = self.ptr + (self.n - 1) * abs(step) if self.inc < 0 and self.n else self.ptr
        shape, strides = (self.n,), (step,)
        if batch_count is not None:
            shape, strides = (batch_count, self.n), (self.stride * isz, step)
        self.array = DeviceArray.from_pointer(start, shape, self.dtype, strides=strides)

    @property
    def shape(self) -> tuple[int, ...]:
        """Logical shape: ``(n,)`` or ``(batch_count, n)``."""
        return (self.n,) if self.batch_count is None else (self.batch_count, self.n)

    def set(self, host: Any, stream: Any = None) -> None:
        """Copy host data into the vector (reversed into storage when ``inc < 0``).

        Parameters
        ----------
        host
            Logical data of shape :attr:`shape`.
        stream
            Stream the copy is ordered on.
        """
        data = np.asarray(host)
        if data.shape != self.shape:
            raise ValueError(f"host data has shape {data.shape}, expected {self.shape}")
        stored = data[..., ::-1] if self.inc < 0 else data
        self._set_logical(stored.reshape(self._batches, 1, self.n), stream)

    def get(self, stream: Any = None) -> np.ndarray:
        """Copy the vector to the host, in logical order (see :meth:`PaddedDeviceMatrix.get`)."""
        logical = self._logical_view(self.read(stream))[:, 0, :]
        out = np.ascontiguousarray(logical[..., ::-1] if self.inc < 0 else logical)
        return out[0] if self.batch_count is None else out

    def describe_position(self, element: int) -> str:
        """Say where an element of the allocation lies, in terms of ``x[i]`` (see the base class)."""
        off = element - self.margin
        if off < 0 or off >= self.extent:
            return super().describe_position(element)
        b, r = divmod(off, self.stride) if self.stride else (0, off)
        where = f" of batch entry {b}" if self.batched else ""
        if r >= self.lda * self.n:
            return super().describe_position(element)
        j, i = divmod(r, self.lda)
        logical = j if self.inc > 0 else self.n - 1 - j
        if i == 0:
            return f"logical element x[{logical}]{where}"
        return f"gap element {i} after x[{logical}] in storage{where} (inc={self.inc})"

    def __repr__(self) -> str:
        batch = f", batch_count={self.batch_count}, stride={self.stride}" if self.batched else ""
        return f"<PaddedDeviceVector n={self.n}, inc={self.inc}{batch}, dtype={self.dtype}, ptr=0x{self.ptr:x}>"


def poisoned_device_matrix(host: Any, lda: int | None = None, *, stride: int | None = None,
                           precision: Any = None, margin: int = DEFAULT_MARGIN,
                           sentinel: Any = None) -> PaddedDeviceMatrix:
    """Copy a host matrix (or stack of them) to device memory with poisoned padding.

    Parameters
    ----------
    host
        Logical data, shape ``(m, n)``, or ``(batch_count, m, n)`` for a strided batch.
    lda
        Leading dimension (default ``max(1, m)``).
    stride
        Elements between batch entries (default ``lda * n``); only for 3-D ``host``.
    precision
        Element type (default: the dtype of ``host``).
    margin, sentinel
        As for :class:`PaddedDeviceMatrix`.

    Returns
    -------
    PaddedDeviceMatrix
        Holding ``host``; check it with :meth:`~PaddedDeviceMatrix.check_untouched`.
    """
    data = np.asarray(host)
    if data.ndim not in (2, 3):
        raise ValueError(f"host must be 2-D or 3-D (batch, m, n), got shape {data.shape}")
    if stride is not None and data.ndim != 3:
        raise ValueError("stride is only for a batch: host of shape (batch_count, m, n)")
    m, n = data.shape[-2:]
    out = PaddedDeviceMatrix(m, n, max(1, m) if lda is None else lda, data.dtype if precision is None else precision,
                             batch_count=data.shape[0] if data.ndim == 3 else None, stride=stride, margin=margin,
                             sentinel=sentinel)
    try:
        out.set(data)
    except BaseException:
        out.close()
        raise
    return out


def poisoned_device_vector(host: Any, inc: int = 1, *, stride: int | None = None, precision: Any = None,
                           margin: int = DEFAULT_MARGIN, sentinel: Any = None) -> PaddedDeviceVector:
    """Copy a host vector (or stack of them) to device memory with increment ``inc``, gaps poisoned.

    Parameters
    ----------
    host
        Logical data, shape ``(n,)``, or ``(batch_count, n)`` for a strided batch.
    inc
        Increment, nonzero; negative means BLAS's reversed storage.
    stride
        Elements between batch entries (default ``|inc| * n``); only for 2-D ``host``.
    precision, margin, sentinel
        As for :func:`poisoned_device_matrix`.

    Returns
    -------
    PaddedDeviceVector
    """
    data = np.asarray(host)
    if data.ndim not in (1, 2):
        raise ValueError(f"host must be 1-D or 2-D (batch, n), got shape {data.shape}")
    if stride is not None and data.ndim != 2:
        raise ValueError("stride is only for a batch: host of shape (batch_count, n)")
    out = PaddedDeviceVector(data.shape[-1], inc, data.dtype if precision is None else precision,
                             batch_count=data.shape[0] if data.ndim == 2 else None, stride=stride, margin=margin,
                             sentinel=sentinel)
    try:
        out.set(data)
    except BaseException:
        out.close()
        raise
    return out


# --- snapshots of arbitrary device memory ------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Snapshot:
    """The bytes of a device memory range at one moment (see :func:`snapshot`).

    Attributes
    ----------
    ptr
        Device address of the first byte.
    nbytes
        Length of the range.
    data
        The bytes, a read-only host uint8 array.
    dtype
        Element type used to report differences.
    """

    ptr: int
    nbytes: int
    data: np.ndarray
    dtype: np.dtype[Any]

    def retake(self, stream: Any = None) -> Snapshot:
        """Take a new snapshot of the same range.

        Parameters
        ----------
        stream
            Order the copy after earlier work on this stream (default: the null stream).

        Returns
        -------
        Snapshot
        """
        return _take(self.ptr, self.nbytes, self.dtype, stream)


def _take(ptr: int, nbytes: int, dtype: np.dtype[Any], stream: Any) -> Snapshot:
    data = _read(ptr, nbytes, stream)
    data.flags.writeable = False
    return Snapshot(ptr, nbytes, data, dtype)


def snapshot(target: DeviceArray | PaddedDeviceMatrix | int, nbytes: int | None = None, *,
             dtype: Any = None, stream: Any = None) -> Snapshot:
    """Copy device memory to the host, to prove later that nothing changed it.

    Parameters
    ----------
    target
        A DeviceArray (its whole byte span, gaps of a strided view included), a
        :class:`PaddedDeviceMatrix` (its whole allocation, margins included), or a
        device pointer.
    nbytes
        Bytes to take from a pointer (default: to the end of its allocation).
    dtype
        Element type for reports (default: the target's, uint8 for a pointer).
    stream
        Order the copy after earlier work on this stream (default: the null stream).

    Returns
    -------
    Snapshot
    """
    if isinstance(target, PaddedDeviceMatrix):
        target._check_open()
        ptr, size, dt = target._base, target.nbytes, target.dtype
    elif isinstance(target, DeviceArray):
        lo = hi = 0  # the byte span the view reaches, relative to its first element
        if target.size:
            lo = sum(min(0, (k - 1) * st) for k, st in zip(target.shape, target.strides, strict=True))
            hi = sum(max(0, (k - 1) * st) for k, st in zip(target.shape, target.strides, strict=True)) + target.itemsize
        ptr, size, dt = target.ptr + lo, hi - lo, target.dtype
    else:
        ptr, dt = int(target), np.dtype(np.uint8)
        if nbytes is None:
            attrs = _memory.pointer_attributes(ptr)
            size = attrs["size"] - attrs["offset"]
        else:
            size = int(nbytes)
    if nbytes is not None and not isinstance(target, int):
        size = min(size, int(nbytes))
    return _take(ptr, size, np.dtype(dtype) if dtype is not None else dt, stream)


def assert_unchanged(before: Snapshot, after: Snapshot | None = None, *, stream: Any = None) -> None:
    """Assert that a device memory range is bitwise identical to a snapshot.

    Parameters
    ----------
    before
        The snapshot taken before the routine ran.
    after
        A snapshot of the same range afterwards (default: taken now).
    stream
        Order the new snapshot after earlier work on this stream.

    Raises
    ------
    AssertionError
        Giving how many elements changed and the first few offsets with old and new values.
    """
    if after is None:
        after = before.retake(stream)
    if (after.ptr, after.nbytes) != (before.ptr, before.nbytes):
        raise ValueError(f"snapshots of different ranges: 0x{before.ptr:x}+{before.nbytes} "
                         f"and 0x{after.ptr:x}+{after.nbytes}")
    isz = before.dtype.itemsize if before.nbytes % before.dtype.itemsize == 0 else 1
    dt = before.dtype if isz > 1 else np.dtype(np.uint8)
    old = before.data.reshape(-1, isz)
    new = after.data.reshape(-1, isz)
    bad = np.flatnonzero(np.any(old != new, axis=1))
    if not bad.size:
        return
    lines = [f"  element {int(e)} (byte offset {int(e) * isz}): {_format_element(old[e].tobytes(), dt)} -> "
             f"{_format_element(new[e].tobytes(), dt)}" for e in bad[:_MAX_REPORTED]]
    more = f"\n  ... and {bad.size - _MAX_REPORTED} more" if bad.size > _MAX_REPORTED else ""
    raise AssertionError(f"{bad.size} element(s) of the {before.nbytes}-byte range at 0x{before.ptr:x} changed:\n"
                         + "\n".join(lines) + more)


# --- outputs -----------------------------------------------------------------------------------


def poison_output(target: DeviceArray | PaddedDeviceMatrix, sentinel: Any = None, *,
                  stream: Any = None) -> Any:
    """Fill an output buffer with the sentinel (NaN), so reading it before writing shows.

    Parameters
    ----------
    target
        A DeviceArray (every element is filled, any strides), or a
        :class:`PaddedDeviceMatrix` (its logical elements; the padding holds its own
        sentinel already).
    sentinel
        Fill value (default :func:`sentinel_value` of the dtype); ignored for a
        PaddedDeviceMatrix, which keeps its own.
    stream
        Stream the fill is ordered on.

    Returns
    -------
    DeviceArray or PaddedDeviceMatrix
        ``target``, for chaining.
    """
    if isinstance(target, PaddedDeviceMatrix):
        target.poison(stream)
        return target
    if not isinstance(target, DeviceArray):
        raise TypeError(f"poison_output takes a DeviceArray or PaddedDeviceMatrix, got {type(target).__name__}")
    if target.size:
        pattern = _sentinel_bytes(target.dtype, False, sentinel)
        target.set(_filled(pattern, target.size, target.dtype).reshape(target.shape), stream)
    return target


def _unravel(flat: np.ndarray, shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for f in flat:
        yield tuple(int(i) for i in np.unravel_index(int(f), shape))


def assert_written(data: np.ndarray | DeviceArray | PaddedDeviceMatrix, sentinel: Any = None) -> None:
    """Assert that no element of an output still holds the poison sentinel (bitwise).

    Parameters
    ----------
    data
        The output: a host array, a DeviceArray (copied to the host) or a
        :class:`PaddedDeviceMatrix` (its logical data, checked against its own sentinel).
    sentinel
        The poison value (default :func:`sentinel_value` of the dtype).

    Raises
    ------
    AssertionError
        Giving how many elements were never written and the first few indices.
    """
    if isinstance(data, PaddedDeviceMatrix):
        pattern, host = data._pattern, data.get()
    else:
        host = data.get() if isinstance(data, DeviceArray) else np.asarray(data)
        pattern = _sentinel_bytes(host.dtype, False, sentinel)
    if host.size == 0:
        return
    isz = host.dtype.itemsize
    raw = np.ascontiguousarray(host).view(np.uint8).reshape(host.size, isz)
    left = np.flatnonzero(np.all(raw == np.frombuffer(pattern, dtype=np.uint8), axis=1))
    if left.size:
        where = ", ".join(str(ix) for ix in _unravel(left[:_MAX_REPORTED], host.shape))
        more = ", ..." if left.size > _MAX_REPORTED else ""
        raise AssertionError(f"{left.size} of {host.size} output element(s) were never written "
                             f"(still the poison sentinel), at {where}{more}")
