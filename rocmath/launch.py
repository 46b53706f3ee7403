"""The one kernel launcher every library uses.

:func:`launch` checks each device-memory argument against the live allocations
when the work is enqueued (a kernel that would run past the end of its
allocation is refused with :class:`MemoryAccessFault`, naming the operation, the
argument, the allocation and the offset), and when the stream reaches the work
it turns them into numpy views and calls the kernel, usually a numba
``@njit(nogil=True, cache=True)`` function, parallel in its ``prange`` loops only (see :mod:`rocmath.kernel`).
Each launch leaves a :class:`LaunchRecord` (name, stream, start/end, flops, bytes)
for profilers and the bench.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .array import DeviceArray
from .batch import BatchOperand, BoundBatch
from .batch import bind as bind_batch
from .kernel import _THREADS, Kernel, _thread_count_functions
from .log import current_profile
from .memory import Span, address_space
from .stream import Task, as_stream


@dataclass(frozen=True)
class Buffer:
    """A device-memory kernel argument given by pointer: ``shape`` elements of ``dtype``
    with byte ``strides`` (C order when None), starting at ``ptr``."""

    ptr: int
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    strides: tuple[int, ...] | None = None
    name: str = "buffer"
    owner: Any = field(default=None, compare=False, repr=False)  # kept alive until the work ran


def buffer(ptr: int, dtype: Any, shape: int | Sequence[int], strides: Sequence[int] | None = None,
           *, name: str = "buffer") -> Buffer:
    """Describe a raw device pointer as a kernel argument (see :class:`Buffer`)."""
    shp = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    return Buffer(int(ptr), np.dtype(dtype), shp, None if strides is None else tuple(int(s) for s in strides), name)


def byte_extent(shape: Sequence[int], strides: Sequence[int], itemsize: int) -> tuple[int, int]:
    """``[lo, hi)`` bytes relative to the first element that a strided view touches."""
    lo = hi = 0
    for n, st in zip(shape, strides, strict=True):  # (a loop: every launch binds its arguments here)
        if n == 0:
            return 0, 0
        d = (n - 1) * st
        if d < 0:
            lo += d
        else:
            hi += d
    return lo, hi + itemsize


def c_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    out = []
    acc = itemsize
    for n in reversed(shape):
        out.append(acc)
        acc *= max(int(n), 1)
    return tuple(reversed(out))


@dataclass
class _Bound:
    """A checked device argument, turned into an ndarray when the work runs."""

    span: Span | None
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    name: str
    vref: Any = None  # a weak reference to the view (Allocation.kept_view)

    def materialize(self, op: str) -> np.ndarray:
        ref = self.vref
        if ref is not None:  # a replay: the kept view
            alloc = self.span.alloc  # type: ignore[union-attr]
            v = ref()
            if v is not None and alloc.live and not alloc.pooled:
                alloc.last_op = op
                return v  # type: ignore[no-any-return]
        if self.span is None:  # an empty argument: nothing is touched
            return np.empty(self.shape, dtype=self.dtype)
        alloc = self.span.alloc
        if not alloc.live or alloc.pooled:
            from .errors import MemoryAccessFault

            raise MemoryAccessFault(f"{op}: argument '{self.name}' points into {alloc.describe()}, "
                                    "freed before the kernel ran")
        alloc.last_op = op
        return alloc.kept_view(self, self.span.offset, self.dtype, self.shape, self.strides)


def _bind(arg: Any, op: str, position: int) -> Any:
    if isinstance(arg, BatchOperand):
        return bind_batch(arg, op)
    if isinstance(arg, DeviceArray):
        ptr, dtype, shape, strides, name = arg.ptr, arg.dtype, arg.shape, arg.strides, f"#{position}"
    elif isinstance(arg, Buffer):
        ptr, dtype, shape, name = arg.ptr, arg.dtype, arg.shape, arg.name
        strides = arg.strides if arg.strides is not None else c_strides(shape, dtype.itemsize)
    else:
        return arg
    lo, hi = byte_extent(shape, strides, dtype.itemsize)
    if hi == lo:
        return _Bound(None, dtype, shape, strides, name)
    sp = address_space.span(ptr, lo, hi, op=op, arg=name)
    return _Bound(sp, dtype, shape, strides, name)


#: Launches moving at most this many bytes run inline when their stream is idle, on one thread.
INLINE_BYTES = 256 * 1024
#: Streaming launches (at most one flop per four bytes: Level 1 and 2, sparse products; or launched
#: ``streaming``: complex and symmetric Level 2, whose flops per byte are higher) run so up to
#: this size: a second thread gains them at most the few microseconds a one-thread run takes from
#: cache, and waking a thread team that went to sleep costs 50-100 us on a VM (a 1 MiB ddot: 19-31 us
#: on one thread, 21 us on a warm team, 68-121 us on one that slept).  Between 1 and 2 MiB, queued to
#: the worker and parallel, daxpy of 2^16 took 55-110 us in the bench against 12 on one thread
#: (0.28x numpy, then 1.33x), and dgbmv of 3000 with 32 + 32 diagonals 84 us against 75, while its
#: spinning team doubled the reference's time beside it (OpenBLAS 91 us, 46 without).  Batches of
#: small factorizations do more per byte than their flops say (potrf of 8 x 8 matrices: n / 24 flops
#: per byte) and stay parallel: their 1 MiB ran 1.4x slower on one thread.  Complex and symmetric
#: Level 2 of 0.5-1 MiB (zgemv, zhemv, zher2 of 256, dsymv and dtrmv of 500) took 73-117 us queued and
#: parallel, 51-67 inline on one thread, beside OpenBLAS's 41-51.
STREAM_INLINE_BYTES = 2 * 1024 * 1024


def _small(bytes: float, flops: float, streaming: bool = False) -> bool:
    return 0 < bytes <= INLINE_BYTES or (bytes <= STREAM_INLINE_BYTES and (streaming or 0 < flops <= bytes / 4))


class LaunchRecord(NamedTuple):
    """What one kernel launch did, for profilers and the bench (immutable; a named tuple, which
    is made 4x faster than a frozen dataclass: every launch inside :func:`profile` makes one)."""

    name: str
    device: int
    stream: int
    start_ns: int
    end_ns: int
    flops: float
    bytes: float
    dtype: str | None = None  # the precision of the work (numpy dtype name), for the roofline model
    arch: str = "gfx942"  # the device profile the launch ran on

    @property
    def seconds(self) -> float:
        return (self.end_ns - self.start_ns) / 1e9

    def model_seconds(self, arch: str | None = None) -> float:
        """The roofline time of this kernel on a real GPU profile (the launch's device profile
        by default): a model to compare with :attr:`seconds`, measured on the CPU."""
        from .roofline import model_seconds

        return model_seconds(self.flops, self.bytes, self.dtype, arch or self.arch)


_sinks_lock = threading.Lock()
# The open profiles' record lists, replaced (never changed in place) under the lock: a launch
# reads the tuple once and appends to its lists without taking the lock (list.append is atomic).
_sinks: tuple[list[LaunchRecord], ...] = ()
_new_record = tuple.__new__  # LaunchRecord's own __new__ is a Python function: 330 against 110 ns


@contextlib.contextmanager
def profile() -> Iterator[list[LaunchRecord]]:
    """Collect a :class:`LaunchRecord` for every launch that completes inside the block.

    Synchronize before leaving the block to be sure all launched work is counted.
    """
    global _sinks
    records: list[LaunchRecord] = []
    with _sinks_lock:
        _sinks = (*_sinks, records)
    try:
        yield records
    finally:
        with _sinks_lock:
            _sinks = tuple(r for r in _sinks if r is not records)


class _Launch:
    """One checked launch: the kernel and its bound arguments, run when the stream reaches it.

    A :class:`Replay` keeps it to run it again for an identical call."""

    __slots__ = ("arch", "batches", "bound", "bytes", "device_index", "dtype_name", "entry", "flops", "info",
                 "inline", "kernel", "name", "one_thread", "operands", "small", "stream")

    def __init__(self, kernel: Callable[..., Any], bound: list[Any], name: str, stream: Any, flops: float,
                 bytes: float, dtype_name: str | None, info: dict[str, Any], waited: bool, streaming: bool = False):
        self.kernel = kernel
        self.entry: Callable[..., Any] | None = None  # the compiled entry point, once known
        self.bound = bound
        self.name = name
        self.stream = stream
        self.device_index = stream.device.index
        self.arch = stream.device.properties.gcnArchName.split(":")[0]
        self.flops = flops
        self.bytes = bytes
        self.dtype_name = dtype_name
        self.info = info
        self.small = _small(bytes, flops, streaming)
        self.inline = waited or self.small
        self.one_thread = self.small  # run under a thread count of one (unless a serial twin runs)
        # Operands staged through host arrays (pointer arrays, storage types): scattered or rounded
        # back after the kernel when written, and their staging dropped.
        self.batches = [(i, b) for i, b in enumerate(bound) if isinstance(b, BoundBatch)
                        and (b.op.pointers or b.op.compute_dtype is not None)]
        self.operands = [i for i, b in enumerate(bound) if isinstance(b, (_Bound, BoundBatch))]

    def run(self) -> None:
        name = self.name
        views = list(self.bound)
        for i in self.operands:
            views[i] = views[i].materialize(name)
        call = self.entry
        if call is None:
            kernel = self.kernel
            if not isinstance(kernel, Kernel):
                call = kernel
            elif self.small and kernel.has_serial:
                # A small launch runs the kernel's serial twin: no parallel region to enter.
                call = kernel.serial_entry_point(*views)
                self.one_thread = False
            else:
                call = kernel.entry_point(*views)
            self.entry = call  # the same bound arguments give the same types every time
        sinks = _sinks
        t0 = time.perf_counter_ns() if sinks else 0
        if self.one_thread:
            # Waking a parallel team costs more than tiny work, and on a busy machine a whole
            # scheduler slice (milliseconds): small kernels without a serial twin (Python callables,
            # serial kernels calling parallel helpers) run on one thread (a thread-local setting).
            get_threads, set_threads = _THREADS or _thread_count_functions()
            threads = get_threads()
            set_threads(1)
            try:
                call(*views)
            finally:
                set_threads(threads)
        else:
            call(*views)
        for i, b in self.batches:  # pointer-array outputs go back to their entries
            b.finish(views[i])
            b.raw = b.addrs = None  # a replay keeps the bound operands, not views of memory
        if not sinks:
            return
        rec = _new_record(LaunchRecord, (name, self.device_index, self.stream.ident, t0, time.perf_counter_ns(),
                                         self.flops, self.bytes, self.dtype_name, self.arch))
        for sink in sinks:
            sink.append(rec)

    def allocations(self) -> list[Any]:
        """The allocations the device arguments were checked against."""
        return [self.bound[i].span.alloc for i in self.operands if self.bound[i].span is not None]


#: numpy's ``dtype.name`` by dtype: numpy works the name out on every read (2 us of a 34 us daxpy's launch).
_dtype_names: dict[Any, str] = {}


def _dtype_name(dtype: Any) -> str:
    name = _dtype_names[dtype] = np.dtype(dtype).name
    return name


def launch(kernel: Callable[..., Any], *args: Any, name: str, stream: Any = None,
           flops: float = 0.0, bytes: float = 0.0, kind: str = "kernel", dtype: Any = None,
           waited: bool = False, streaming: bool = False, record: list[_Launch] | None = None) -> Task:
    """Enqueue ``kernel(*args)`` on ``stream``.

    Parameters
    ----------
    kernel
        The function to run: a numba dispatcher or any Python callable taking ndarrays.
        It must not check arguments; everything it needs was validated before.
    args
        :class:`~rocmath.DeviceArray` and :class:`Buffer` arguments become ndarrays
        viewing device memory, :class:`~rocmath.batch.BatchOperand` arguments ndarrays of
        shape ``(batch_count, *shape)`` in every flavour; everything else is passed as is.
    name
        The operation's name, used in errors, traces and profiles.
    stream
        A :class:`~rocmath.Stream`, None (current stream) or 0 (null stream).
    flops, bytes
        The work done and the bytes moved, for GFLOP/s and GB/s in profiles.
    kind
        The category the timeline (:mod:`rocmath.trace`) files it under: ``"kernel"``,
        or ``"copy"``/``"memset"`` for the data movement kernels of DeviceArray.
    dtype
        The precision of the work, for the roofline model of a real GPU
        (:mod:`rocmath.roofline`) shown beside the measured time.
    waited
        The caller waits for the work at once (a reduction returning its result to the
        host): it runs on the calling thread when the stream is idle, whatever its size,
        saving the two thread switches through the stream's worker.
    streaming
        The kernel streams its operands once with a few flops per element (Level-2 products and
        updates, complex ones too, whose flops per byte the rule for ``flops`` would count as
        compute): it runs on one thread up to :data:`STREAM_INLINE_BYTES`, as launches of at
        most one flop per four bytes do.
    record
        If given, the checked launch is appended to it, for a :class:`Replay`.

    Raises
    ------
    MemoryAccessFault
        If a device argument would reach outside its allocation.
    InvalidDevicePointerError
        If a device argument does not point into live memory.
    """
    s = as_stream(stream)
    bound = [_bind(a, name, i) for i, a in enumerate(args, 1)]
    dtype_name = None if dtype is None else _dtype_names.get(dtype) or _dtype_name(dtype)
    info: dict[str, Any] = {"cat": kind, "flops": flops, "bytes": bytes}
    if dtype_name is not None:
        info["dtype"] = dtype_name
    prof = current_profile()
    if prof is not None:  # a call of the profile logging layer: its device time counts
        info["profile"] = prof
    work = _Launch(kernel, bound, name, s, flops, bytes, dtype_name, info, waited, streaming)
    if record is not None:
        record.append(work)
    return s.enqueue(work.run, name, keep=args, inline=work.inline, info=info)


class Replay:
    """A library call's checked launch, run again for a call with identical arguments.

    A library records the launch of a call (``launch(..., record=...)``) whose outcome
    depends only on its arguments and its handle's state, and replays it when the same
    call comes again: the argument checks, the operand descriptions and the address
    lookups are not redone, only the allocations' liveness is checked.  The work runs
    through the stream exactly as a first launch does (order, inline runs, errors,
    timeline, launch records).
    """

    __slots__ = ("allocs", "step", "stream")

    def __init__(self, step: _Launch):
        self.step = step
        self.stream = step.stream
        # Each allocation with its use: a pool's block handed out again (same address, maybe cut
        # shorter) was not what the launch was checked against.
        self.allocs = [(a, a.uses) for a in step.allocations()]

    @classmethod
    def of(cls, steps: list[_Launch]) -> Replay | None:
        """A replay of a call whose launches were ``steps``, or None unless it was one launch
        (a call of several, or of none, is not replayed) or if it belongs to a profiled call (its
        device time is filed under that call's problem)."""
        if len(steps) != 1 or steps[0] is None or "profile" in steps[0].info:
            return None
        step = steps[0]
        for b in step.bound:  # kept past the call: must not keep the caller's arrays alive
            if isinstance(b, BoundBatch) and b.op.owner is not None:
                b.op = dataclasses.replace(b.op, owner=None)
        return cls(step)

    def usable(self) -> bool:
        """False when an allocation was freed (or freed and handed out again by a pool)."""
        for alloc, uses in self.allocs:  # noqa: SIM110 (a loop, not all(): this runs on every replay)
            if not alloc.live or alloc.pooled or alloc.uses != uses:
                return False
        return True

    def run(self, keep: Any) -> Task:
        """Enqueue the launch again; ``keep`` (the call's arguments) stays alive until it ran."""
        step = self.step
        if step.inline:  # (enqueue's inline case, without its layer: a tiny replay's time is in such layers)
            task = self.stream.run_now(step.run, step.name, step.info)
            if task is not None:
                return task
        return self.stream.enqueue(step.run, step.name, keep=keep, inline=step.inline, info=step.info)
