"""Several simulated devices in one process: peer access, peer copies, and batches split over devices.

The runtime already keeps one current device per host thread (:func:`rocmath.set_device`),
a memory region, null stream and streams per device, and handles bound to one device.
This module adds what HIP has for working with several of them:

- :func:`device_can_access_peer`, :func:`enable_peer_access`, :func:`disable_peer_access`
  (``hipDeviceCanAccessPeer``, ``hipDeviceEnablePeerAccess``...).  Simulated devices live
  in one host memory, so every pair can reach each other, like GPUs of one xGMI hive;
  the enabled pairs are recorded per device with HIP's statuses.
- :func:`memcpy_peer` and :func:`memcpy_peer_async` (``hipMemcpyPeer(dst, dstDevice, src,
  srcDevice, sizeBytes)``), with the bytes moved between each pair of devices counted
  (:func:`peer_traffic`): what a real machine would send over its links.
- :class:`DeviceGroup` and :func:`split_batched`: one batched call run as slices of the
  batch on several devices at once, each on its own stream with its own handle; the
  data lives on the root device (the device of the caller's handle or current stream)
  and each other device gets its slice by peer copies and sends its results back.  The
  call stays asynchronous and ordered on the caller's stream, as the one-device call is,
  and every entry is computed by the same kernel on the same data, so the results have
  the same bits.

Examples
--------
>>> import numpy as np, rocmath, rocmath.blas as blas
>>> from rocmath.multi import split_batched
>>> rocmath.configure(count=2)                                       # doctest: +SKIP
>>> h = blas.create_handle()                                         # doctest: +SKIP
>>> split_batched(blas.dgemm_strided_batched, h, "N", "N", n, n, n, 1.0, A, n, n * n,
...               B, n, n * n, 0.0, C, n, n * n, batch)              # doctest: +SKIP
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextvars
import inspect
import math
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import device as _device
from .array import DeviceArray
from .errors import (
    HipInvalidValueError,
    InvalidDeviceError,
    InvalidDevicePointerError,
    PeerAccessAlreadyEnabledError,
    PeerAccessNotEnabledError,
)
from .launch import byte_extent
from .memory import MemcpyKind, MemoryKind, address_space, memcpy_async
from .stream import Event, Stream, as_stream, current_stream

__all__ = [
    "DeviceGroup", "device_can_access_peer", "disable_peer_access", "enable_peer_access", "memcpy_peer",
    "memcpy_peer_async", "partition", "peer_access_enabled", "peer_traffic", "reset_peer_traffic",
    "split_batched",
]


# --- peer access ---------------------------------------------------------------------------------

# Keyed by the Device object, so a configure() (new Device objects) starts with no peers enabled.
_peers: weakref.WeakKeyDictionary[_device.Device, set[int]] = weakref.WeakKeyDictionary()
_peers_lock = threading.Lock()


def _index(device: Any, arg: str) -> int:
    try:
        return _device.get_device_object(device).index
    except InvalidDeviceError as exc:
        raise InvalidDeviceError(exc.message, arg=arg) from None


def device_can_access_peer(device: int, peer_device: int) -> bool:
    """Whether ``device`` can map the memory of ``peer_device`` (``hipDeviceCanAccessPeer``).

    True for any two distinct devices (one host memory backs them all), False for a device
    and itself, as HIP answers.

    Raises
    ------
    InvalidDeviceError
        If either index names no device.
    """
    return _index(device, "deviceId") != _index(peer_device, "peerDeviceId")


def enable_peer_access(peer_device: int, flags: int = 0) -> None:
    """Let the current device's kernels and copies reach ``peer_device``'s memory
    (``hipDeviceEnablePeerAccess``).  The access is one-way: call it on each side for both.

    Raises
    ------
    InvalidDeviceError
        If ``peer_device`` names no device or is the current device.
    HipInvalidValueError
        If ``flags`` is not 0 (HIP defines none).
    PeerAccessAlreadyEnabledError
        If access to ``peer_device`` is already enabled.
    """
    me = _device.get_device_object()
    peer = _index(peer_device, "peerDeviceId")
    if peer == me.index:
        raise InvalidDeviceError(f"device {peer} cannot be its own peer", arg="peerDeviceId")
    if flags != 0:
        raise HipInvalidValueError(f"flags must be 0, got {flags!r}", arg="flags")
    with _peers_lock:
        enabled = _peers.setdefault(me, set())
        if peer in enabled:
            raise PeerAccessAlreadyEnabledError(f"device {me.index} can already access device {peer}",
                                                arg="peerDeviceId")
        enabled.add(peer)


def disable_peer_access(peer_device: int) -> None:
    """Withdraw the current device's access to ``peer_device`` (``hipDeviceDisablePeerAccess``).

    Raises
    ------
    InvalidDeviceError
        If ``peer_device`` names no device.
    PeerAccessNotEnabledError
        If access to ``peer_device`` was not enabled.
    """
    me = _device.get_device_object()
    peer = _index(peer_device, "peerDeviceId")
    with _peers_lock:
        enabled = _peers.get(me, set())
        if peer not in enabled:
            raise PeerAccessNotEnabledError(f"device {me.index} has no access to device {peer} to disable",
                                            arg="peerDeviceId")
        enabled.discard(peer)


def peer_access_enabled(device: int, peer_device: int) -> bool:
    """Whether :func:`enable_peer_access` gave ``device`` access to ``peer_device``."""
    me = _device.get_device_object(device)
    peer = _index(peer_device, "peerDeviceId")
    with _peers_lock:
        return peer in _peers.get(me, ())


# --- peer copies ---------------------------------------------------------------------------------

_traffic: collections.Counter[tuple[int, int]] = collections.Counter()
_traffic_lock = threading.Lock()


def peer_traffic() -> dict[tuple[int, int], int]:
    """Bytes copied by :func:`memcpy_peer`/:func:`memcpy_peer_async` (and so by
    :class:`DeviceGroup`) between distinct devices, keyed ``(src_device, dst_device)``,
    since the start or the last :func:`reset_peer_traffic`."""
    with _traffic_lock:
        return dict(_traffic)


def reset_peer_traffic() -> None:
    """Set the counts of :func:`peer_traffic` back to zero."""
    with _traffic_lock:
        _traffic.clear()


def _check_side(obj: Any, device: int, nbytes: int, op: str, arg: str) -> None:
    """The pointer (or DeviceArray) must be device or managed memory of ``device``."""
    if isinstance(obj, DeviceArray):
        ptr = obj.ptr
    elif isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        ptr = int(obj)
    else:
        raise HipInvalidValueError(f"{op}: expected a device pointer or DeviceArray, got {type(obj).__name__}",
                                   arg=arg)
    if ptr == 0:
        raise HipInvalidValueError(f"{op}: null pointer", arg=arg)
    span = address_space.span(ptr, 0, max(nbytes, 1), op=op, arg=arg)
    alloc = span.alloc
    if alloc.kind is MemoryKind.HOST or alloc.device != device:
        raise InvalidDevicePointerError(f"{op}: 0x{ptr:x} is {alloc.describe()}, not memory of device {device}",
                                        arg=arg)


def _plan_peer(dst: Any, dst_device: int, src: Any, src_device: int, nbytes: int, op: str) -> tuple[int, int]:
    d = _index(dst_device, "dstDevice")
    s = _index(src_device, "srcDevice")
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise HipInvalidValueError(f"{op}: size must be a non-negative integer, got {nbytes!r}", arg="sizeBytes")
    _check_side(dst, d, int(nbytes), op, "dst")
    _check_side(src, s, int(nbytes), op, "src")
    return d, s


def _count(src: int, dst: int, nbytes: int) -> None:
    if src != dst and nbytes:
        with _traffic_lock:
            _traffic[(src, dst)] += int(nbytes)


def memcpy_peer_async(dst: Any, dst_device: int, src: Any, src_device: int, nbytes: int,
                      stream: Any = None) -> None:
    """Copy ``nbytes`` from ``src`` on ``src_device`` to ``dst`` on ``dst_device`` in the
    order of ``stream`` (``hipMemcpyPeerAsync``).

    Only ``stream``'s order is kept (the current stream when None): work of the other
    device that produces ``src`` or reads ``dst`` must be ordered with events, as in HIP.

    Raises
    ------
    InvalidDeviceError
        If a device index names no device.
    InvalidDevicePointerError
        If ``dst`` or ``src`` is not memory of the device named for it.
    MemoryAccessFault
        If the copy would run past the end of either allocation.
    """
    d, s = _plan_peer(dst, dst_device, src, src_device, nbytes, "memcpy_peer_async")
    st = as_stream(stream)
    if nbytes == 0:
        return
    memcpy_async(dst, src, int(nbytes), MemcpyKind.DeviceToDevice, st)
    _count(s, d, int(nbytes))


def memcpy_peer(dst: Any, dst_device: int, src: Any, src_device: int, nbytes: int) -> None:
    """Copy ``nbytes`` from ``src`` on ``src_device`` to ``dst`` on ``dst_device``
    (``hipMemcpyPeer``), after all earlier work of both devices, returning when done.

    Raises
    ------
    InvalidDeviceError, InvalidDevicePointerError, MemoryAccessFault
        As :func:`memcpy_peer_async`.
    """
    d, s = _plan_peer(dst, dst_device, src, src_device, nbytes, "memcpy_peer")
    if nbytes == 0:
        return
    # The null streams have legacy semantics: an event on the source's null stream captures
    # all earlier (blocking) work of that device, and the copy on the destination's null
    # stream waits for it and for all earlier work of the destination device.
    target = _device.get_device_object(d).null_stream
    if s != d:
        target.wait_event(Event(s).record(_device.get_device_object(s).null_stream))
    memcpy_async(dst, src, int(nbytes), MemcpyKind.DeviceToDevice, target)
    _count(s, d, int(nbytes))
    Event(d).record(target).synchronize()


# --- splitting a batch ---------------------------------------------------------------------------


def partition(batch_count: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ``[start, stop)`` ranges covering ``range(batch_count)``, sizes
    differing by at most one (the first ones larger); empty ranges are left out."""
    if parts < 1:
        raise HipInvalidValueError(f"need at least one part, got {parts}", arg="parts")
    base, extra = divmod(int(batch_count), parts)
    out = []
    start = 0
    for i in range(parts):
        stop = start + base + (1 if i < extra else 0)
        if stop > start:
            out.append((start, stop))
        start = stop
    return out


def _byte_view(arr: DeviceArray, offset: int, nbytes: int) -> DeviceArray:
    """``nbytes`` bytes of ``arr``'s memory from byte ``offset`` (relative to ``arr.ptr``), as
    a 1-D uint8 view that keeps ``arr`` alive (copies take contiguous byte ranges)."""
    return DeviceArray._view(arr.ptr + offset, (nbytes,), np.dtype(np.uint8), (1,), arr.device, arr._root())


@dataclass
class _Operand:
    """One array argument of a strided batched call: entry ``b`` starts ``b * step`` bytes
    after the array's pointer; ``extent`` bytes from the pointer hold every entry."""

    name: str
    array: DeviceArray
    step: int
    extent: int
    written: bool

    def part_range(self, start: int, stop: int, batch_count: int) -> tuple[int, int]:
        """Bytes ``[lo, hi)`` (from the pointer) holding entries ``start..stop-1``."""
        if self.step == 0:
            return 0, self.extent
        hi = self.extent if stop == batch_count else min(stop * self.step, self.extent)
        return start * self.step, hi


def _is_pointer(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 1 << 44:
        return False
    return address_space.find(int(value)) is not None


class DeviceGroup:
    """Devices that run one batched call together, each on a stream and handle of its own.

    Parameters
    ----------
    devices
        The device indices, in the order the batch is dealt out (all devices when None).
        Entries ``partition(batch_count, len(devices))[i]`` go to ``devices[i]``.

    Notes
    -----
    The group owns one non-blocking stream, one rocBLAS handle (for rocBLAS and rocSOLVER
    calls) and one host thread per device; the threads issue the slices at the same time,
    so a call that waits on the host (a reduction in host pointer mode) does not hold up the
    others.  Release them with :meth:`close` or a ``with`` block.
    """

    def __init__(self, devices: Sequence[int] | None = None):
        count = _device.get_device_count()
        idx = list(range(count)) if devices is None else [_index(d, "devices") for d in devices]
        if not idx:
            raise HipInvalidValueError("a device group needs at least one device", arg="devices")
        if len(set(idx)) != len(idx):
            raise HipInvalidValueError(f"devices repeat: {idx}", arg="devices")
        self.devices: tuple[int, ...] = tuple(idx)
        self._streams = {d: Stream(d, non_blocking=True) for d in self.devices}
        self._handles: dict[int, Any] = {}
        self._pool: concurrent.futures.ThreadPoolExecutor | None = concurrent.futures.ThreadPoolExecutor(
            max_workers=len(self.devices), thread_name_prefix="rocmath-group")
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------------

    def stream(self, device: int) -> Stream:
        """The group's stream on ``device``."""
        return self._streams[device]

    def handle(self, device: int) -> Any:
        """The group's rocBLAS handle on ``device`` (made on first use), on the group's stream."""
        from rocmath.blas import BlasHandle

        h = self._handles.get(device)
        if h is None:
            h = self._handles[device] = BlasHandle(device, self._streams[device])
        return h

    def synchronize(self) -> None:
        """Wait for the work of every stream of the group."""
        for s in self._streams.values():
            s.synchronize()

    def close(self) -> None:
        """Release the group's handles, streams and threads.  As ``hipStreamDestroy``, work
        already queued still runs (the callers' streams wait for it where they must)."""
        if self._closed:
            return
        self._closed = True
        for h in self._handles.values():
            h.destroy()
        for s in self._streams.values():
            s.destroy()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def __enter__(self) -> DeviceGroup:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._closed or self._pool is None:
            raise HipInvalidValueError("the device group was closed", arg="group")
        return self._pool

    def _run_parts(self, jobs: list[tuple[int, Callable[[], Any]]]) -> list[Any]:
        """Run ``job()`` for each ``(device, job)`` on the group's threads, that device current;
        the results in order (the first failure is raised after all jobs ended)."""
        pool = self._check_open()

        def on(device: int, job: Callable[[], Any]) -> Any:
            _device.set_device(device)
            return job()

        # Each job sees the caller's context variables (rocmath.solver's errstate...).
        futures = [pool.submit(contextvars.copy_context().run, on, d, job) for d, job in jobs]
        concurrent.futures.wait(futures)
        return [f.result() for f in futures]

    # -- the C-level split ----------------------------------------------------------------------

    def strided_batched(self, fn: Callable[..., Any], *args: Any, outputs: Sequence[str] | None = None,
                        **kwargs: Any) -> Any:
        """Run a rocBLAS/rocSOLVER ``_strided_batched`` call as slices of its batch on the group.

        ``fn`` and its arguments are exactly those of the one-device call: the handle's device
        is the root, where every array lives; its slice runs there in place on the handle's
        stream.  Every other device copies its slice of each array in (:func:`memcpy_peer_async`),
        runs ``fn`` on its slice with its own handle and stream, and copies the arrays named
        in ``outputs`` back.  The handle's stream waits for all of it, so the call is as
        asynchronous, and ordered, as the one-device call.

        Parameters
        ----------
        fn
            A bound ``*_strided_batched`` function (``rocmath.blas.dgemm_strided_batched``,
            ``rocmath.solver.dgetrf_strided_batched``...).
        args, kwargs
            Its arguments.  Arrays must be :class:`~rocmath.DeviceArray` (their element type
            gives the byte size of their stride) covering every entry; an array followed by
            a ``stride*`` argument is split by that stride, one without (``info``) must hold
            one element per entry.  Scalars must be host values (host pointer mode).
        outputs
            The arrays the call writes (``("C",)`` for gemm).  Default: every array, always
            correct at the price of sending inputs back too; an array all entries share
            (stride 0) then needs ``outputs`` to say it is only read.

        Returns
        -------
        What ``fn`` returns: None, or for reductions in host pointer mode the results of all
        entries in one array.

        Raises
        ------
        HipInvalidValueError
            If the call cannot be split: not a ``_strided_batched`` call, a raw pointer where
            a DeviceArray is needed, device pointer mode, a written array with stride 0 or a
            negative stride.
        """
        sig = inspect.signature(fn)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise HipInvalidValueError(f"{getattr(fn, '__name__', fn)}: {exc}", arg="args") from None
        bound.apply_defaults()
        values = dict(bound.arguments)
        names = list(sig.parameters)
        fname = getattr(fn, "__name__", "fn")
        if "batch_count" not in values or not any(n.lower().startswith("stride") for n in names):
            raise HipInvalidValueError(f"{fname} is not a strided batched call", arg="fn")
        handle = values[names[0]]
        handle.check()
        if int(getattr(handle, "pointer_mode", 0)) != 0:
            raise HipInvalidValueError("split calls take host scalars: set host pointer mode", arg="handle")
        batch = int(values["batch_count"])
        root = handle.device.index
        operands = self._operands(fname, names, values, batch, outputs)
        parts = partition(batch, len(self.devices)) if batch > 0 else []
        if len(parts) <= 1 and (not parts or self.devices[0] == root):
            return fn(*bound.args, **bound.kwargs)

        ready = Event(root).record(handle.stream)  # the inputs, as the root's stream sees them now
        plan = list(zip(self.devices, parts, strict=False))
        jobs = [(d, self._strided_part(fn, names, values, operands, handle, root, d, start, stop, batch, ready))
                for d, (start, stop) in plan]
        results = self._run_parts(jobs)
        for _, done in results:
            if done is not None:  # the slices of other devices, copied back
                handle.stream.wait_event(done)
        outs = [r[0] for r in results]
        if all(o is None for o in outs):
            return None
        return np.concatenate([np.atleast_1d(np.asarray(o)) for o in outs])

    def _operands(self, fname: str, names: list[str], values: dict[str, Any], batch: int,
                  outputs: Sequence[str] | None) -> list[_Operand]:
        # A stride follows its array, or the array's leading dimension or increment.
        stride_of: dict[str, str] = {}
        for i, name in enumerate(names):
            if name.lower().startswith("stride") and i >= 2:
                prev = names[i - 1]
                stride_of[names[i - 2] if prev.startswith(("ld", "inc")) else prev] = name
        ops: list[_Operand] = []
        for name in names[1:]:
            value = values.get(name)
            if not isinstance(value, DeviceArray):
                if name in stride_of or _is_pointer(value):
                    raise HipInvalidValueError(
                        f"{fname}: pass '{name}' as a DeviceArray (its element type sizes the stride), "
                        f"not {type(value).__name__}", arg=name)
                continue
            if name in stride_of:
                step = int(values[stride_of[name]])
            elif value.size == batch:  # info, or a reduction's results: one element per entry
                step = 1
            else:
                raise HipInvalidValueError(
                    f"{fname}: '{name}' has no stride and {value.size} elements for {batch} entries", arg=name)
            if step < 0:
                raise HipInvalidValueError(f"{fname}: negative stride of '{name}' cannot be split", arg=name)
            lo, hi = byte_extent(value.shape, value.strides, value.itemsize)
            if lo < 0:
                raise HipInvalidValueError(f"{fname}: '{name}' reaches below its pointer", arg=name)
            written = outputs is None or name in outputs
            if written and step == 0 and batch > 1:
                why = "is written" if outputs is not None else "may be written (name the written ones in outputs=)"
                raise HipInvalidValueError(f"{fname}: '{name}' {why} but all entries share it (stride 0)", arg=name)
            ops.append(_Operand(name, value, step * value.itemsize, hi, written))
        unknown = set(outputs or ()) - {o.name for o in ops}
        if unknown:
            raise HipInvalidValueError(f"{fname}: outputs {sorted(unknown)} are not array arguments", arg="outputs")
        return ops

    def _strided_part(self, fn: Callable[..., Any], names: list[str], values: dict[str, Any],
                      operands: list[_Operand], handle: Any, root: int, device: int, start: int, stop: int,
                      batch: int, ready: Event) -> Callable[[], tuple[Any, Event | None]]:
        def job() -> tuple[Any, Event | None]:
            call = dict(values)
            call["batch_count"] = stop - start
            if device == root:
                for op in operands:
                    lo, hi = op.part_range(start, stop, batch)
                    call[op.name] = _typed(_byte_view(op.array, lo, hi - lo), op.array)
                return fn(*(call[n] for n in names)), None
            stream = self._streams[device]
            stream.wait_event(ready)
            back = []
            for op in operands:
                lo, hi = op.part_range(start, stop, batch)
                here = DeviceArray((hi - lo,), np.uint8, device=device)
                src = _byte_view(op.array, lo, hi - lo)
                memcpy_peer_async(here, device, src, root, hi - lo, stream)
                call[op.name] = _typed(here, op.array)
                if op.written:
                    back.append((src, here))
            call[names[0]] = self._like(handle, device)
            out = fn(*(call[n] for n in names))
            for src, here in back:
                memcpy_peer_async(src, root, here, device, here.nbytes, stream)
            return out, Event(device).record(stream)
        return job

    def _like(self, handle: Any, device: int) -> Any:
        """The group's handle on ``device`` with the settings of the caller's ``handle``."""
        h = self.handle(device)
        h.set_pointer_mode(handle.pointer_mode)
        h.set_atomics_mode(handle.atomics_mode)
        for attr in ("check_numerics", "math_mode"):
            if hasattr(handle, attr):
                setattr(h, attr, getattr(handle, attr))
        return h

    # -- the array-level split ------------------------------------------------------------------

    def map(self, fn: Callable[..., Any], *arrays: Any, **kwargs: Any) -> Any:
        """``fn(*arrays, **kwargs)`` for stacks split along their first axis over the group.

        ``fn`` is an array function of the Pythonic layers (``rocmath.blas.matmul``,
        ``rocmath.solver.solve``, ``rocmath.fft.fft``...) that treats axis 0 as a batch: entry
        ``i`` of its results depends on entry ``i`` of its inputs only.  The arrays are
        DeviceArrays on the current device (the root) or host ndarrays, all with the same
        length of axis 0.  Each device runs ``fn`` on its slice (copied in by peer copies;
        host slices go straight to it) with its own stream current and so its own handles;
        the results are gathered into new arrays on the root, in the order of the current
        stream, which waits for all of it.

        Returns
        -------
        DeviceArray or tuple of DeviceArrays on the root device, as ``fn`` returns them
        (attributes of DeviceArray subclasses, such as ``info``, are not gathered).
        """
        if not arrays:
            raise HipInvalidValueError("map needs at least one array", arg="arrays")
        root = _device.get_device()
        lengths = set()
        for i, a in enumerate(arrays):
            if isinstance(a, DeviceArray):
                if a.device != root:
                    raise HipInvalidValueError(f"array #{i} lives on device {a.device}, not the current device {root}",
                                               arg="arrays")
            elif not isinstance(a, np.ndarray):
                raise HipInvalidValueError(f"array #{i} is a {type(a).__name__}, not a DeviceArray or ndarray",
                                           arg="arrays")
            if a.ndim == 0:
                raise HipInvalidValueError(f"array #{i} has no axis to split", arg="arrays")
            lengths.add(a.shape[0])
        if len(lengths) != 1:
            raise HipInvalidValueError(f"the arrays' first axes differ: {sorted(lengths)}", arg="arrays")
        batch = lengths.pop()
        root_stream = current_stream()
        parts = partition(batch, len(self.devices))
        ready = Event(root).record(root_stream)
        plan = list(zip(self.devices, parts, strict=False))
        jobs = [(d, self._map_part(fn, arrays, kwargs, root, d, start, stop, ready, root_stream))
                for d, (start, stop) in plan]
        chunks = self._run_parts(jobs)
        single = not isinstance(chunks[0], tuple)
        per_part = [(c,) if single else c for c in chunks]
        gathered = tuple(self._gather([p[k] for p in per_part], plan, root, root_stream)
                         for k in range(len(per_part[0])))
        return gathered[0] if single else gathered

    def _map_part(self, fn: Callable[..., Any], arrays: tuple[Any, ...], kwargs: dict[str, Any], root: int,
                  device: int, start: int, stop: int, ready: Event, root_stream: Stream) -> Callable[[], Any]:
        def job() -> Any:
            stream = root_stream if device == root else self._streams[device]
            with stream:
                if device != root:
                    stream.wait_event(ready)
                sliced = [_slice_to(a[start:stop], device, root, stream, root_stream) for a in arrays]
                out = fn(*sliced, **kwargs)
            return out
        return job

    def _gather(self, chunks: list[Any], plan: list[tuple[int, tuple[int, int]]], root: int,
                root_stream: Stream) -> DeviceArray:
        for c in chunks:
            if not isinstance(c, DeviceArray):
                raise HipInvalidValueError(f"map: fn returned a {type(c).__name__}, not DeviceArrays", arg="fn")
        first = chunks[0]
        rest = first.shape[1:]
        if any(c.shape[1:] != rest or c.dtype != first.dtype for c in chunks):
            raise HipInvalidValueError("map: the parts' results differ in shape or type", arg="fn")
        total = sum(c.shape[0] for c in chunks)
        entry_bytes = int(math.prod(rest)) * first.itemsize
        # The gathered array keeps the entry layout of the first part (column-major matrices
        # stay column-major), batch axis outermost.
        model = first if _entries_packed(first) else None
        entry_strides = model.strides[1:] if model is not None else _c_strides(rest, first.itemsize)
        flat = DeviceArray((total * entry_bytes,), np.uint8, device=root)
        out = DeviceArray._view(flat.ptr, (total, *rest), first.dtype, (entry_bytes, *entry_strides), root, flat)
        offset = 0
        for (device, _), c in zip(plan, chunks, strict=True):
            stream = root_stream if device == root else self._streams[device]
            if not _entries_packed(c) or c.strides[1:] != entry_strides:
                c = _repack(c, entry_strides, device, stream)
            n = c.shape[0] * entry_bytes
            if n:
                src = _byte_view(c, 0, n)
                dst = _byte_view(out, offset, n)
                if device == root:
                    memcpy_async(dst, src, n, MemcpyKind.DeviceToDevice, stream)
                else:
                    memcpy_peer_async(dst, root, src, device, n, stream)
            if device != root:
                root_stream.wait_event(Event(device).record(stream))
            offset += n
        return out


def _typed(raw: DeviceArray, like: DeviceArray) -> DeviceArray:
    """A byte range seen with ``like``'s element type (1-D), as routines take it."""
    count = raw.shape[0] // like.itemsize
    return DeviceArray._view(raw.ptr, (count,), like.dtype, (like.itemsize,), raw.device, raw._root())


def _c_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    from .launch import c_strides

    return c_strides(shape, itemsize)


def _entries_packed(a: DeviceArray) -> bool:
    """Whether the entries (along axis 0) lie one after the other without gaps, each a
    contiguous block of memory: then a slice of entries is one byte range."""
    rest = a.shape[1:]
    entry = int(math.prod(rest)) * a.itemsize
    lo, hi = byte_extent(rest, a.strides[1:], a.itemsize)
    return lo == 0 and hi - lo == entry and (a.shape[0] <= 1 or a.strides[0] == entry)


def _repack(a: DeviceArray, entry_strides: tuple[int, ...], device: int, stream: Stream) -> DeviceArray:
    """A packed copy of ``a`` on its device with the given entry strides."""
    from .launch import launch

    rest = a.shape[1:]
    entry = int(math.prod(rest)) * a.itemsize
    flat = DeviceArray((a.shape[0] * entry,), np.uint8, device=device)
    out = DeviceArray._view(flat.ptr, a.shape, a.dtype, (entry, *entry_strides), device, flat)
    launch(_copy_kernel, out, a, name="DeviceGroup repack", stream=stream, bytes=2 * a.nbytes, kind="copy")
    return out


def _copy_kernel(dst: np.ndarray, src: np.ndarray) -> None:
    np.copyto(dst, src)


def _slice_to(a: Any, device: int, root: int, stream: Stream, root_stream: Stream) -> DeviceArray:
    """A part of an input on ``device`` (whose stream is ``stream``): the root's view itself
    there, else a packed copy (packed first on the root if its entries have gaps)."""
    if isinstance(a, np.ndarray):
        out = DeviceArray(a.shape, a.dtype, "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C",
                          device=device)
        if out.size:
            out.set(a, stream)
        return out
    if device == root:
        return a
    if not _entries_packed(a):
        a = _repack(a, _c_strides(a.shape[1:], a.itemsize), root, root_stream)
        stream.wait_event(Event(root).record(root_stream))
    flat = DeviceArray((a.nbytes,), np.uint8, device=device)
    out = DeviceArray._view(flat.ptr, a.shape, a.dtype, a.strides, device, flat)
    if a.nbytes:
        memcpy_peer_async(flat, device, _byte_view(a, 0, a.nbytes), root, a.nbytes, stream)
    return out


def split_batched(fn: Callable[..., Any], *args: Any, devices: Sequence[int] | None = None,
                  outputs: Sequence[str] | None = None, **kwargs: Any) -> Any:
    """:meth:`DeviceGroup.strided_batched` on a group made for this one call.

    Asynchronous and ordered on the handle's stream, as the one-device call; the temporary
    group's streams and handles are released once their work has run.
    """
    group = DeviceGroup(devices)
    try:
        return group.strided_batched(fn, *args, outputs=outputs, **kwargs)
    finally:
        group.close()

