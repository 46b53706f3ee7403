"""Device memory: a separate address space made of integer pointers.

Every allocation gets a 256-byte aligned address in a region of its own device
(device ``d`` owns ``[(d+1)·2**44, (d+2)·2**44)``; pinned host memory has a
region of its own), backed by host RAM.  Addresses are never handed out twice
(except when a stream-ordered pool, :mod:`rocmath.mempool`, reuses a block it owns),
so a stale pointer is always recognised as freed rather than silently aliasing new data.

Every allocation is surrounded by guard bytes.  A copy or kernel that would run
past the end of an allocation is refused with :class:`MemoryAccessFault` before
it runs; guards overwritten anyway (by a kernel indexing outside the view it was
given) are detected at ``free`` and, in checking mode, at every synchronize.

Checking mode (``ROCMATH_CHECK=1`` or :func:`set_checking`) also fills fresh
allocations with ``0xFF`` bytes, which read as NaN in every floating type and
-1 in every signed integer type, so reading memory nobody wrote is visible.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import ctypes
import enum
import math
import os
import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import device as _device
from .errors import (
    HipInvalidValueError,
    InvalidDevicePointerError,
    InvalidMemcpyDirectionError,
    MemoryAccessFault,
    OutOfMemoryError,
)

ALIGN = 256
#: Views an allocation keeps for replayed launches (:meth:`Allocation.kept_view`).
KEPT_VIEWS = 16
GUARD = 256
GUARD_BYTE = 0xA5
POISON_BYTE = 0xFF
_REGION_SHIFT = 44
_HOST_REGION = 0x7F


class MemcpyKind(enum.IntEnum):
    """``hipMemcpyKind`` values."""

    HostToHost = 0
    HostToDevice = 1
    DeviceToHost = 2
    DeviceToDevice = 3
    Default = 4


class MemoryKind(enum.Enum):
    DEVICE = "device"
    HOST = "pinned host"
    MANAGED = "managed"


_INLINE_BYTES = 128 * 1024  # copies and fills this small run inline when their stream is idle

_checking = os.environ.get("ROCMATH_CHECK", "0").lower() not in ("", "0", "false", "no", "off")


def set_checking(enabled: bool) -> None:
    """Turn checking mode (poisoned fresh memory, guard checks at synchronize) on or off."""
    global _checking
    _checking = bool(enabled)
    address_space.bump_epoch()


def checking_enabled() -> bool:
    """Whether checking mode is on."""
    return _checking


@contextlib.contextmanager
def checking(enabled: bool = True) -> Iterator[None]:
    """Run a block with checking mode set to ``enabled``, restoring it after."""
    old = _checking
    set_checking(enabled)
    try:
        yield
    finally:
        set_checking(old)


class Allocation:
    """One allocation: its address, size, owner and host backing store."""

    __slots__ = ("_raw", "_start", "capacity", "device", "external", "fitting", "kept", "kind", "last_op", "live",
                 "nbytes", "pooled", "ptr", "serial", "uses")

    def __init__(self, ptr: int, nbytes: int, device: int, kind: MemoryKind, serial: int):
        self.ptr = ptr
        self.nbytes = nbytes  # what may be touched: a pool's reused block is cut to the size asked for
        self.capacity = nbytes  # what the device accounts for
        self.fitting = False  # cut to nbytes, its guard bytes there not written yet (see AddressSpace.reuse)
        self.device = device
        self.kind = kind
        self.live = True
        self.pooled = False
        self.serial = serial
        self.uses = 0  # times a pool handed the block out again (a replay checked on one use is not for the next)
        self.last_op = "allocation"
        self.kept: list[np.ndarray] | None = None  # views of replayed launches (see kept_view)
        self.external = False  # the program's own host memory (see of_host_memory())
        raw = np.empty(nbytes + 2 * GUARD + ALIGN, dtype=np.uint8)
        # The data start is aligned like the device pointer, so every view of an aligned
        # device offset is an aligned ndarray (numba compiles unaligned arrays separately).
        self._start = GUARD + (-(raw.ctypes.data + GUARD)) % ALIGN
        self._raw = raw
        raw[: self._start] = GUARD_BYTE
        raw[self._start + nbytes :] = GUARD_BYTE
        if _checking:
            raw[self._start : self._start + nbytes] = POISON_BYTE

    @classmethod
    def of_host_memory(cls, ptr: int, nbytes: int, device: int, serial: int) -> Allocation:
        """The program's own host memory registered with the runtime (``hipHostRegister``): kernels
        read and write its bytes where they are, at their host address; no guard bytes around them."""
        a = cls.__new__(cls)
        a.ptr, a.nbytes, a.capacity, a.device, a.kind, a.serial = ptr, nbytes, nbytes, device, MemoryKind.HOST, serial
        a.fitting, a.live, a.pooled, a.uses, a.kept, a.external = False, True, False, 0, None, True
        a.last_op = "hipHostRegister"
        a._raw = np.frombuffer((ctypes.c_ubyte * nbytes).from_address(ptr), dtype=np.uint8)
        a._start = 0
        return a

    @property
    def end(self) -> int:
        return self.ptr + self.nbytes

    def describe(self) -> str:
        if self.external:
            return f"registered host memory 0x{self.ptr:x} of {self.nbytes} bytes"
        return f"{self.kind.value} allocation 0x{self.ptr:x} of {self.nbytes} bytes" + (
            f" on device {self.device}" if self.kind is not MemoryKind.HOST else "")

    def host_address(self) -> int:
        """Where the allocation's first byte lives in host memory (for address-based kernels)."""
        return int(self._raw.ctypes.data) + self._start

    def bytes_view(self, offset: int = 0, nbytes: int | None = None) -> np.ndarray:
        """The allocation's bytes ``[offset, offset+nbytes)`` as a writable uint8 ndarray."""
        n = self.nbytes - offset if nbytes is None else nbytes
        s = self._start + offset
        return self._raw[s : s + n]

    def view(self, offset: int, dtype: Any, shape: tuple[int, ...], strides: tuple[int, ...] | None) -> np.ndarray:
        """An ndarray over this allocation (no bounds check: callers checked the extent)."""
        return np.ndarray(shape, dtype=dtype, buffer=self._raw, offset=self._start + offset, strides=strides)

    def kept_view(self, holder: Any, offset: int, dtype: Any, shape: tuple[int, ...],
                  strides: tuple[int, ...] | None) -> np.ndarray:
        """:meth:`view`, made once per ``holder`` (a bound kernel argument a replay runs again,
        with a ``vref`` attribute) while the allocation lives: the allocation keeps the view (a
        few at most), the holder a weak reference, so a replay's plan never keeps freed memory."""
        ref = holder.vref
        v = ref() if ref is not None else None
        if v is None:
            v = self.view(offset, dtype, shape, strides)
            kept = self.kept
            if kept is None:
                kept = self.kept = []
            elif len(kept) >= KEPT_VIEWS:
                del kept[0]
            kept.append(v)
            holder.vref = weakref.ref(v)
        return v

    def check_guards(self) -> None:
        """Raise :class:`MemoryAccessFault` if anything wrote into the guard bytes."""
        front = self._raw[: self._start]
        back = self._raw[self._start + (self.capacity if self.fitting else self.nbytes):]
        bad_front = np.flatnonzero(front != GUARD_BYTE)
        bad_back = np.flatnonzero(back != GUARD_BYTE)
        if bad_front.size or bad_back.size:
            # Reported once: restore the guards so the same overrun is not blamed again at free.
            front[:] = GUARD_BYTE
            back[:] = GUARD_BYTE
            where = (int(bad_back[0]) + self.nbytes) if bad_back.size else int(bad_front[-1]) - self._start
            raise MemoryAccessFault(
                f"guard bytes of {self.describe()} were overwritten at offset {where} "
                f"(outside the allocation); last operation on it: {self.last_op}")

    def fit(self) -> None:
        """Write the bytes of a pool's block cut to ``nbytes``: guard bytes behind them and, in checking mode,
        poison over them, as over fresh memory."""
        self._raw[self._start + self.nbytes:] = GUARD_BYTE
        if _checking:
            self._raw[self._start:self._start + self.nbytes] = POISON_BYTE
        self.fitting = False

    def release(self) -> None:
        self.live = False
        self.kept = None
        self._raw = np.empty(0, dtype=np.uint8)


class _Region:
    __slots__ = ("_table", "allocs", "dead", "next_addr", "starts", "version")

    def __init__(self, base: int):
        self.starts: list[int] = []
        self.allocs: list[Allocation] = []
        self.next_addr = base + ALIGN
        self.dead = 0
        self.version = 0  # bumped on every allocation and free: invalidates the vector table
        self._table: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(starts, sizes of usable allocations (-1 when freed or pooled), host addresses), as arrays."""
        if self._table is None or self._table[0] != self.version:
            starts = np.array(self.starts, dtype=np.uint64)
            sizes = np.array([a.nbytes if a.live and not a.pooled else -1 for a in self.allocs], dtype=np.int64)
            hosts = np.array([a.host_address() if a.live else 0 for a in self.allocs], dtype=np.uint64)
            self._table = (self.version, starts, sizes, hosts)
        return self._table[1], self._table[2], self._table[3]


@dataclass
class Span:
    """A checked byte range of one allocation: what a kernel or copy may touch."""

    alloc: Allocation
    offset: int

    @property
    def ptr(self) -> int:
        return self.alloc.ptr + self.offset


class AddressSpace:
    """All allocations of all devices, and the per-device byte accounting."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        # Bumped (under the lock) when an allocation is freed, pooled or handed out again, and when
        # checking mode or the devices change: a replayed call's plan checked at this epoch still holds.
        self.epoch = 0
        # Registered host ranges (hipHostRegister), by start: at the program's own addresses, outside the
        # regions, and kept across device reconfigurations (they are the program's memory, not a device's).
        self._external_starts: list[int] = []
        self._external: list[Allocation] = []
        self._external_serial = 0
        self._reset()

    def bump_epoch(self) -> None:
        """Make every replay plan check its allocations and modes again (see :mod:`rocmath.plans`)."""
        with self.lock:
            self.epoch += 1

    def _reset(self) -> None:
        self.regions: dict[int, _Region] = {}
        self.used: dict[int, int] = {}
        self.live_count = 0
        self._serial = 0

    def reset_for_configure(self) -> None:
        _mempool.release_everything()  # outside the lock: a pool takes its own lock first, then this one
        with self.lock:
            if self.live_count:
                live = self.live_allocations()
                listing = "; ".join(f"{a.describe()} (last used by {a.last_op})" for a in live[:5])
                raise HipInvalidValueError(
                    f"cannot reconfigure devices while {self.live_count} allocation(s) are live: {listing}")
            _deferred.clear()  # pointers of the old address space: they may name new allocations
            self._reset()

    # -- allocation --------------------------------------------------------------------------

    def allocate(self, nbytes: int, device: int, kind: MemoryKind) -> Allocation:
        try:
            return self._allocate(nbytes, device, kind)
        except OutOfMemoryError:
            # The freed blocks memory pools hold go back first (outside this lock: a pool takes its own first).
            if kind is MemoryKind.HOST or not _mempool.release_for(device):
                raise
        return self._allocate(nbytes, device, kind)

    def _allocate(self, nbytes: int, device: int, kind: MemoryKind) -> Allocation:
        if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
            raise HipInvalidValueError(f"size must be a non-negative integer, got {nbytes!r}", arg="size")
        nbytes = int(nbytes)
        region_id = _HOST_REGION if kind is MemoryKind.HOST else device + 1
        with self.lock:
            if kind is not MemoryKind.HOST:
                self._reserve(device, nbytes)
            try:
                self._serial += 1
                region = self.regions.get(region_id)
                if region is None:
                    region = self.regions[region_id] = _Region(region_id << _REGION_SHIFT)
                ptr = region.next_addr
                try:
                    alloc = Allocation(ptr, nbytes, device, kind, self._serial)
                except MemoryError:
                    raise OutOfMemoryError(
                        f"the host could not back {nbytes} bytes of {kind.value} memory") from None
            except BaseException:
                if kind is not MemoryKind.HOST:
                    self.used[device] -= nbytes
                raise
            # A gap of at least ALIGN bytes: one past the end never lands in the next allocation.
            region.next_addr = ptr + ((nbytes + 2 * ALIGN - 1) // ALIGN) * ALIGN
            region.starts.append(ptr)
            region.version += 1
            region.allocs.append(alloc)
            self.live_count += 1
            return alloc

    def _reserve(self, device: int, nbytes: int) -> None:
        total = _device.get_device_properties(device).totalGlobalMem
        used = self.used.get(device, 0)
        if used + nbytes > total:
            raise OutOfMemoryError(
                f"out of memory on device {device}: asked for {nbytes} bytes, "
                f"{total - used} of {total} bytes free")
        self.used[device] = used + nbytes

    def _remove(self, alloc: Allocation) -> None:
        alloc.release()
        self.epoch += 1
        self.live_count -= 1
        if alloc.kind is not MemoryKind.HOST:
            self.used[alloc.device] -= alloc.capacity
        region = self.regions[_HOST_REGION if alloc.kind is MemoryKind.HOST else alloc.device + 1]
        region.dead += 1
        region.version += 1
        # Freed allocations stay listed so stale pointers are named as freed; compact now and then.
        if region.dead > 10_000 and region.dead > 2 * (len(region.allocs) - region.dead):
            keep = [a for a in region.allocs if a.live or a.pooled]
            region.allocs = keep
            region.starts = [a.ptr for a in keep]
            region.dead = 0

    def _touch(self, alloc: Allocation) -> None:
        self.epoch += 1
        self.regions[_HOST_REGION if alloc.kind is MemoryKind.HOST else alloc.device + 1].version += 1

    def set_pooled(self, alloc: Allocation, pooled: bool) -> None:
        """Mark an allocation a pool holds as released to it (``pooled``: its pointers are refused, as freed
        ones) or as in use again."""
        with self.lock:
            alloc.pooled = pooled
            self._touch(alloc)  # the region's pointer table caches which allocations are usable

    def release(self, alloc: Allocation, op: str = "free") -> None:
        """Free an allocation now (no synchronization)."""
        with self.lock:
            # A pooled block was already given back by free_async (whose run a free may
            # have waited for): freeing it again is a double free, not a second owner.
            if not alloc.live or alloc.pooled:
                raise InvalidDevicePointerError(f"{op}: double free of {alloc.describe()}", arg="ptr")
            try:
                alloc.check_guards()
            finally:
                self._remove(alloc)

    # -- stream-ordered pools (rocmath.mempool) -------------------------------------------------

    def reuse(self, alloc: Allocation, nbytes: int, pending: bool) -> None:
        """A pool's freed block in use again, cut to ``nbytes`` (at most its capacity): at once for the checks
        of the work queued from now on; its bytes (:meth:`Allocation.fit`) now, or with ``pending`` (work of the
        block's earlier owner may still run on it) by :meth:`fitted` in stream order."""
        with self.lock:
            alloc.pooled = False
            alloc.uses += 1
            alloc.last_op = "malloc_async"
            alloc.nbytes = nbytes
            alloc.kept = None  # (views of the earlier owner)
            alloc.fitting = True
            if not pending:
                alloc.fit()
            self._touch(alloc)

    def fitted(self, alloc: Allocation) -> None:
        """The stream-ordered half of a :meth:`reuse` with work pending: write the block's bytes."""
        with self.lock:
            if alloc.live and alloc.fitting:
                alloc.fit()

    # -- lookup ------------------------------------------------------------------------------

    def find(self, ptr: int) -> Allocation | None:
        """The allocation (live, pooled or freed) whose range holds ``ptr``, if any."""
        region = self.regions.get(ptr >> _REGION_SHIFT)
        if region is None:
            return None
        with self.lock:
            i = bisect.bisect_right(region.starts, ptr) - 1
            if i < 0:
                return None
            alloc = region.allocs[i]
        if ptr < alloc.ptr + max(alloc.nbytes, 1):
            return alloc
        return None

    def adopt(self, ptr: int, nbytes: int, device: int) -> Allocation:
        """Make ``nbytes`` of the program's host memory at ``ptr`` usable by kernels and copies, where it is
        (``hipHostRegister``: memory the device may access; :meth:`disown` ends it)."""
        with self.lock:
            self._external_serial += 1
            alloc = Allocation.of_host_memory(ptr, nbytes, device, self._external_serial)
            i = bisect.bisect_left(self._external_starts, ptr)
            self._external_starts.insert(i, ptr)
            self._external.insert(i, alloc)
            self.epoch += 1
            return alloc

    def disown(self, ptr: int) -> None:
        """End an :meth:`adopt` of the range starting at ``ptr`` (its pointers are refused from now on)."""
        with self.lock:
            i = bisect.bisect_left(self._external_starts, ptr)
            if i < len(self._external_starts) and self._external_starts[i] == ptr:
                self._external[i].release()
                del self._external_starts[i], self._external[i]
                self.epoch += 1  # replay plans holding the range check their allocations again

    def _external_at(self, ptr: int) -> Allocation | None:
        with self.lock:
            i = bisect.bisect_right(self._external_starts, ptr) - 1
            alloc = self._external[i] if i >= 0 else None
        return alloc if alloc is not None and ptr < alloc.ptr + max(alloc.nbytes, 1) else None

    def lookup(self, ptr: int, *, op: str, arg: str) -> tuple[Allocation, int]:
        """``(allocation, byte offset)`` of a pointer into live memory (registered host memory included), or
        raise."""
        alloc = self.find(ptr)
        if alloc is None and self._external_starts:
            alloc = self._external_at(ptr)
        if alloc is None or not alloc.live or alloc.pooled:
            if alloc is None:
                what = "is not inside any allocation"
            elif alloc.pooled:
                what = f"points into {alloc.describe()}, released by free_async"
            else:
                what = f"points into {alloc.describe()}, which was freed"
            raise InvalidDevicePointerError(f"{op}: pointer 0x{ptr:x} {what}", arg=arg)
        return alloc, ptr - alloc.ptr

    def span(self, ptr: int, lo: int, hi: int, *, op: str, arg: str) -> Span:
        """Check that bytes ``[ptr+lo, ptr+hi)`` lie inside one live allocation."""
        alloc, offset = self.lookup(ptr, op=op, arg=arg)
        if offset + lo < 0 or offset + hi > alloc.nbytes:
            bad = offset + lo if offset + lo < 0 else offset + hi
            raise MemoryAccessFault(
                f"{op}: argument '{arg}' would access bytes [{offset + lo}, {offset + hi}) of "
                f"{alloc.describe()}; byte offset {bad} is outside it")
        return Span(alloc, offset)

    def translate(self, ptrs: np.ndarray, lo: int, hi: int, *, op: str, arg: str) -> np.ndarray:
        """Host addresses of many device pointers at once, each checked like :meth:`span`.

        ``ptrs`` is a uint64 array (a batched call's array of device pointers); every entry
        must keep bytes ``[ptr+lo, ptr+hi)`` inside one usable allocation.  Raises
        :class:`MemoryAccessFault` or :class:`InvalidDevicePointerError` naming the first bad
        batch entry.
        """
        ptrs = np.asarray(ptrs, dtype=np.uint64)
        out = np.zeros(ptrs.shape, dtype=np.uint64)
        if hi <= lo or ptrs.size == 0:
            return out
        regions = ptrs >> np.uint64(_REGION_SHIFT)
        ok = np.zeros(ptrs.shape, dtype=bool)
        with self.lock:
            for rid in np.unique(regions):
                region = self.regions.get(int(rid))
                if region is None or not region.starts:
                    continue
                sel = np.flatnonzero(regions == rid)
                p = ptrs[sel]
                starts, sizes, hosts = region.table()
                idx = np.searchsorted(starts, p, side="right").astype(np.int64) - 1
                found = idx >= 0
                idx = np.maximum(idx, 0)
                off = (p - starts[idx]).astype(np.int64)
                good = found & (sizes[idx] >= 0) & (off + lo >= 0) & (off + hi <= sizes[idx])
                ok[sel] = good
                out[sel] = hosts[idx] + off.astype(np.uint64)
        if not ok.all() and self._external_starts:  # entries in registered host memory
            for i in np.flatnonzero(~ok):
                alloc = self._external_at(int(ptrs[i]))
                off = int(ptrs[i]) - alloc.ptr if alloc is not None else 0
                if alloc is not None and off + lo >= 0 and off + hi <= alloc.nbytes:
                    ok[i], out[i] = True, ptrs[i]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            ptr = int(ptrs[bad])
            if ptr == 0:
                raise InvalidDevicePointerError(f"{op}: entry {bad} of '{arg}' is a null pointer", arg=arg)
            sp = self.span(ptr, lo, hi, op=f"{op} (batch entry {bad})", arg=arg)
            raise AssertionError(f"translate and span disagree about 0x{sp.ptr:x}")  # pragma: no cover
        return out

    def live_allocations(self, device: int | None = None) -> list[Allocation]:
        with self.lock:
            return [a for r in self.regions.values() for a in r.allocs
                    if a.live and (device is None or a.device == device)]


address_space = AddressSpace()


# --- public allocation API -----------------------------------------------------------------


_deferred: collections.deque[int] = collections.deque()


def free_later(ptr: int) -> None:
    """Free ``ptr`` once all work queued so far on its device is done, without blocking and
    without taking any lock: safe in finalizers (which the garbage collector may run in the
    middle of a launch).  The free is issued at the next allocation or synchronize."""
    if ptr:
        _deferred.append(int(ptr))


def release_deferred() -> None:
    """Issue the frees :func:`free_later` collected, ordered after all queued work
    (each on its device's null stream, which waits for the blocking streams)."""
    while _deferred:
        try:
            ptr = _deferred.popleft()
        except IndexError:
            return
        alloc = address_space.find(ptr)
        if alloc is None or not alloc.live or alloc.pooled:
            continue
        if alloc.kind is MemoryKind.HOST:
            address_space.release(alloc, "free_later")
            continue
        null = _device.get_device_object(alloc.device).null_stream

        def run(alloc: Allocation = alloc) -> None:
            if alloc.live and not alloc.pooled:
                _mempool.free_now(alloc, "free_later")

        null.enqueue(run, "free_later", always_run=True, info={"cat": "free"})  # even after an error


def malloc(nbytes: int) -> int:
    """Allocate ``nbytes`` of device memory on the current device (``hipMalloc``).

    Returns the device pointer, an int; ``malloc(0)`` returns 0 (null) as HIP does.

    Raises
    ------
    OutOfMemoryError
        When the device has fewer than ``nbytes`` free; the message gives both numbers.
    """
    release_deferred()
    if nbytes == 0:
        return 0
    return address_space.allocate(nbytes, _device.get_device(), MemoryKind.DEVICE).ptr


def malloc_managed(nbytes: int) -> int:
    """Allocate managed memory (``hipMallocManaged``): usable by host and device alike."""
    release_deferred()
    if nbytes == 0:
        return 0
    return address_space.allocate(nbytes, _device.get_device(), MemoryKind.MANAGED).ptr


def malloc_host(nbytes: int) -> int:
    """Allocate pinned host memory (``hipHostMalloc``); read it with :func:`host_view`."""
    release_deferred()
    if nbytes == 0:
        return 0
    return address_space.allocate(nbytes, -1, MemoryKind.HOST).ptr


def _wait_device_idle(device: int) -> None:
    from .stream import wait_device_idle

    wait_device_idle(device)


def free(ptr: int) -> None:
    """Free memory from :func:`malloc`, :func:`malloc_managed` or :func:`malloc_async`.

    As ``hipFree``, waits for the device's pending work first; ``free(0)`` does nothing.  A pool's
    block is freed for good at once (``hipFree``, in the HIP layer, gives it back to its pool, which
    frees it at the next synchronization).

    Raises
    ------
    InvalidDevicePointerError
        For a pointer that is not the start of a live allocation, or a double free.
    MemoryAccessFault
        When a kernel wrote into the guard bytes around the allocation.
    """
    _free(ptr, MemoryKind.DEVICE, "free")


def free_host(ptr: int) -> None:
    """Free pinned host memory from :func:`malloc_host` (``hipHostFree``)."""
    _free(ptr, MemoryKind.HOST, "free_host")


def _free(ptr: int, kind: MemoryKind, op: str) -> None:
    if ptr is None or ptr == 0:
        return
    alloc = _start_of(ptr, op)
    if (alloc.kind is MemoryKind.HOST) != (kind is MemoryKind.HOST):
        raise InvalidDevicePointerError(
            f"{op}: 0x{ptr:x} is {alloc.describe()}; use {'free_host' if alloc.kind is MemoryKind.HOST else 'free'}",
            arg="ptr")
    if alloc.kind is not MemoryKind.HOST:
        from .stream import in_stream_work

        if in_stream_work():
            # A free from inside a stream's work (a finalizer the garbage collector runs mid-launch)
            # must not wait for the device: other streams' work may be waiting for this one.
            free_later(ptr)
            return
        _wait_device_idle(alloc.device)
        _mempool.free_now(alloc, op)  # (a pool's block too: hipFree would keep it in the pool)
        return
    address_space.release(alloc, op)


def _start_of(ptr: int, op: str) -> Allocation:
    ptr = _as_int(ptr, "ptr")
    alloc = address_space.find(ptr)
    if alloc is not None and alloc.ptr == ptr and not alloc.live:
        raise InvalidDevicePointerError(f"{op}: double free of {alloc.describe()}", arg="ptr")
    alloc, offset = address_space.lookup(ptr, op=op, arg="ptr")
    if alloc.external:
        raise InvalidDevicePointerError(f"{op}: 0x{ptr:x} is in {alloc.describe()}; hipHostUnregister releases it",
                                        arg="ptr")
    if offset:
        raise InvalidDevicePointerError(
            f"{op}: 0x{ptr:x} is {offset} bytes into {alloc.describe()}, not its start", arg="ptr")
    return alloc


def malloc_async(nbytes: int, stream: Any = None) -> int:
    """Stream-ordered allocation (``hipMallocAsync``) from the current pool of the stream's device.

    The memory may be used by work on ``stream`` enqueued after this call.  A block a free gave
    back is reused as :mod:`rocmath.mempool` describes (cut to the size asked for).
    """
    from .stream import as_stream

    s = as_stream(stream)
    if nbytes == 0:
        return 0
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        # Checked before the pool is searched: a bad size must never find a block.
        raise HipInvalidValueError(f"size must be a non-negative integer, got {nbytes!r}", arg="size")
    pool = _mempool.pools_of(s.device).current
    assert pool is not None
    return pool.allocate(int(nbytes), s)


def free_async(ptr: int, stream: Any = None) -> None:
    """Stream-ordered free (``hipFreeAsync``): the block goes back to its pool when ``stream`` gets there.

    Memory from :func:`malloc` joins its device's current pool.  Pooled memory still counts as used
    in :func:`mem_get_info` until a synchronize gives it back (release threshold 0, HIP's default).
    """
    from .stream import as_stream

    s = as_stream(stream)
    if ptr is None or ptr == 0:
        return
    alloc = _start_of(ptr, "free_async")
    if alloc.kind is MemoryKind.HOST:
        raise InvalidDevicePointerError(f"free_async: 0x{ptr:x} is {alloc.describe()}", arg="ptr")
    if alloc.kind is MemoryKind.DEVICE:
        _mempool.free_async(alloc, s)
        return

    def run() -> None:  # managed memory is no pool's: freed for good when the stream gets there
        if not alloc.live:
            raise InvalidDevicePointerError(f"free_async: double free of {alloc.describe()}", arg="ptr")
        address_space.release(alloc, "free_async")

    s.enqueue(run, "free_async", always_run=True, info={"cat": "free"})  # memory comes back even after an error


def mem_get_info(device: int | None = None) -> tuple[int, int]:
    """``(free, total)`` bytes of a device (``hipMemGetInfo``); exact to the byte."""
    index = _device.get_device() if device is None else device
    total = _device.get_device_properties(index).totalGlobalMem
    return total - address_space.used.get(index, 0), total


def pointer_attributes(ptr: int) -> dict[str, Any]:
    """What a pointer points into (``hipPointerGetAttributes``): kind, device, base, size, offset."""
    alloc, offset = address_space.lookup(_as_int(ptr, "ptr"), op="pointer_attributes", arg="ptr")
    return {"type": alloc.kind.value, "device": alloc.device, "base": alloc.ptr,
            "size": alloc.nbytes, "offset": offset}


def host_view(ptr: int, shape: int | tuple[int, ...], dtype: Any = np.uint8) -> np.ndarray:
    """A numpy view of pinned host or managed memory (what the host may touch directly).

    Device-only memory has no host view: copy it with :func:`memcpy`.
    """
    dt = np.dtype(dtype)
    shp = (shape,) if isinstance(shape, int) else tuple(shape)
    nbytes = int(math.prod(shp)) * dt.itemsize
    sp = address_space.span(_as_int(ptr, "ptr"), 0, nbytes, op="host_view", arg="ptr")
    if sp.alloc.kind is MemoryKind.DEVICE:
        raise InvalidMemcpyDirectionError(
            f"host_view: {sp.alloc.describe()} is device memory; the host cannot read it directly", arg="ptr")
    return sp.alloc.view(sp.offset, dt, shp, None)


# --- copies and fills ------------------------------------------------------------------------


def _as_int(ptr: Any, arg: str) -> int:
    if isinstance(ptr, bool) or not isinstance(ptr, (int, np.integer)):
        raise HipInvalidValueError(f"expected an integer pointer, got {type(ptr).__name__}", arg=arg)
    return int(ptr)


@dataclass
class _Side:
    """One side of a copy: a checked device span, or a host buffer (as uint8)."""

    span: Span | None
    host: np.ndarray | None
    keep: Any = None

    @property
    def pageable(self) -> bool:
        return self.host is not None

    def kind(self) -> MemoryKind | None:
        return None if self.span is None else self.span.alloc.kind

    def nbytes_view(self, nbytes: int) -> np.ndarray:
        if self.span is not None:
            alloc = self.span.alloc
            if not alloc.live or alloc.pooled:
                raise MemoryAccessFault(f"{alloc.describe()} was freed before the copy ran")
            return alloc.bytes_view(self.span.offset, nbytes)
        assert self.host is not None
        return self.host[:nbytes]

    def describe(self) -> str:
        if self.span is not None:
            return f"0x{self.span.ptr:x} ({self.span.alloc.describe()})"
        assert self.host is not None
        return f"a host buffer of {self.host.nbytes} bytes"


def _side(obj: Any, nbytes: int, op: str, arg: str, writable: bool) -> _Side:
    from .array import DeviceArray

    owner = None
    if isinstance(obj, DeviceArray):
        if not obj.is_contiguous:
            raise HipInvalidValueError(f"{op}: a non-contiguous DeviceArray has no byte range", arg=arg)
        owner, obj = obj, obj.ptr  # the array is kept alive (not freed) until the copy ran
    if obj is None or (isinstance(obj, (int, np.integer)) and not isinstance(obj, bool) and int(obj) == 0):
        raise HipInvalidValueError(f"{op}: null pointer", arg=arg)
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        sp = address_space.span(int(obj), 0, nbytes, op=op, arg=arg)
        return _Side(sp, None, owner)
    try:
        mv = memoryview(obj)
    except TypeError:
        raise HipInvalidValueError(
            f"{op}: expected a device pointer, DeviceArray or host buffer, got {type(obj).__name__}",
            arg=arg) from None
    if not mv.c_contiguous:
        raise HipInvalidValueError(f"{op}: host buffer is not contiguous", arg=arg)
    if writable and mv.readonly:
        raise HipInvalidValueError(f"{op}: host buffer is read-only", arg=arg)
    host = np.frombuffer(mv.cast("B") if mv.ndim != 1 or mv.format != "B" else mv, dtype=np.uint8)
    if host.nbytes < nbytes:
        raise MemoryAccessFault(
            f"{op}: argument '{arg}' is a host buffer of {host.nbytes} bytes; the copy needs {nbytes}")
    return _Side(None, host, obj)


_HOST_OK = (None, MemoryKind.HOST, MemoryKind.MANAGED)
_DEVICE_OK = (MemoryKind.DEVICE, MemoryKind.MANAGED, MemoryKind.HOST)


def _check_direction(kind: MemcpyKind, dst: _Side, src: _Side) -> None:
    want = {
        MemcpyKind.HostToHost: (_HOST_OK, _HOST_OK),
        MemcpyKind.HostToDevice: (_DEVICE_OK, _HOST_OK),
        MemcpyKind.DeviceToHost: (_HOST_OK, _DEVICE_OK),
        MemcpyKind.DeviceToDevice: (_DEVICE_OK, _DEVICE_OK),
    }.get(kind)
    if want is None:
        return
    for side, ok, arg in ((dst, want[0], "dst"), (src, want[1], "src")):
        if side.kind() not in ok:
            raise InvalidMemcpyDirectionError(
                f"memcpy kind {kind.name}: '{arg}' is {side.describe()}", arg="kind")


def _plan_copy(dst: Any, src: Any, nbytes: int, kind: Any, op: str) -> tuple[_Side, _Side]:
    try:
        kind = MemcpyKind(kind)
    except ValueError:
        raise HipInvalidValueError(f"{op}: {kind!r} is not a hipMemcpyKind", arg="kind") from None
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise HipInvalidValueError(f"{op}: size must be a non-negative integer, got {nbytes!r}", arg="sizeBytes")
    d = _side(dst, int(nbytes), op, "dst", writable=True)
    s = _side(src, int(nbytes), op, "src", writable=False)
    _check_direction(kind, d, s)
    return d, s


def _copy_task(d: _Side, s: _Side, nbytes: int, op: str) -> Any:
    def run() -> None:
        np.copyto(d.nbytes_view(nbytes), s.nbytes_view(nbytes))
        for side in (d, s):
            if side.span is not None:
                side.span.alloc.last_op = op
    return run


def _stream_for(d: _Side, s: _Side, stream: Any, *, sync: bool = False) -> Any:
    """The stream a copy or fill runs on.  Synchronous ones (``hipMemcpy``) use the null
    stream of the memory's device; asynchronous ones the given stream, and for None the
    calling thread's current stream, as everywhere in rocmath (unless the memory lives on
    another device than the current one: then that device's null stream)."""
    from .stream import as_stream, current_stream

    if stream is not None:
        return as_stream(stream)
    for side in (d, s):
        if side.span is not None and side.span.alloc.device >= 0:
            device = side.span.alloc.device
            if not sync and device == _device.get_device():
                return current_stream()
            return _device.get_device_object(device).null_stream
    return as_stream(None)


def memcpy(dst: Any, src: Any, nbytes: int, kind: Any = MemcpyKind.Default) -> None:
    """Copy ``nbytes`` bytes (``hipMemcpy``), synchronously, ordered on the null stream.

    ``dst`` and ``src`` are device pointers (ints), DeviceArrays, or host buffers
    (anything with the buffer protocol).  With ``kind=Default`` the direction comes
    from the pointers; with an explicit kind a disagreeing pointer is an error.

    Raises
    ------
    InvalidMemcpyDirectionError
        When ``kind`` disagrees with where ``dst``/``src`` live.
    MemoryAccessFault
        When the copy would run past the end of either side.
    """
    d, s = _plan_copy(dst, src, nbytes, kind, "memcpy")
    if nbytes == 0:
        return
    if d.span is None and s.span is None:
        _copy_task(d, s, nbytes, "memcpy")()
        return
    _stream_for(d, s, None, sync=True).enqueue(_copy_task(d, s, nbytes, "memcpy"), "memcpy", keep=(d, s),
                                               inline=nbytes <= _INLINE_BYTES, info=_copy_info(d, s, nbytes)).wait()


def memcpy_async(dst: Any, src: Any, nbytes: int, kind: Any = MemcpyKind.Default, stream: Any = None) -> None:
    """Stream-ordered copy (``hipMemcpyAsync``).

    Pageable host buffers behave as in HIP: a host source is staged at the call
    (the caller may reuse it at once), and a copy into a pageable host buffer
    returns only when done.  Pinned (:func:`malloc_host`) memory is truly asynchronous.
    """
    d, s = _plan_copy(dst, src, nbytes, kind, "memcpy_async")
    st = _stream_for(d, s, stream)
    if nbytes == 0:
        return
    if s.pageable:
        s = _Side(None, s.nbytes_view(nbytes).copy())
    task = st.enqueue(_copy_task(d, s, nbytes, "memcpy_async"), "memcpy_async", keep=(d, s),
                      inline=nbytes <= _INLINE_BYTES, info=_copy_info(d, s, nbytes))
    if d.pageable:
        task.wait()


def _copy_info(d: _Side, s: _Side, nbytes: int) -> dict[str, Any]:
    """The timeline's description of a copy: its direction and size."""
    where = {True: "Host", False: "Device"}
    return {"cat": "copy", "bytes": nbytes, "kind": f"{where[s.span is None]}To{where[d.span is None]}"}


def _fill_task(d: _Side, value: int, nbytes: int, op: str) -> Any:
    def run() -> None:
        d.nbytes_view(nbytes).fill(value)
        if d.span is not None:
            d.span.alloc.last_op = op
    return run


def _plan_fill(dst: Any, value: int, nbytes: int, op: str) -> _Side:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise HipInvalidValueError(f"{op}: value must be an int, got {value!r}", arg="value")
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise HipInvalidValueError(f"{op}: size must be a non-negative integer, got {nbytes!r}", arg="sizeBytes")
    d = _side(dst, int(nbytes), op, "dst", writable=True)
    if d.span is None:
        raise HipInvalidValueError(f"{op}: destination must be device memory", arg="dst")
    return d


def memset(dst: Any, value: int, nbytes: int) -> None:
    """Set ``nbytes`` bytes of device memory to ``value & 0xFF`` (``hipMemset``), synchronously."""
    d = _plan_fill(dst, value, nbytes, "memset")
    if nbytes:
        _stream_for(d, d, None, sync=True).enqueue(_fill_task(d, int(value) & 0xFF, nbytes, "memset"), "memset",
                                                   keep=d, inline=nbytes <= _INLINE_BYTES,
                                                   info={"cat": "memset", "bytes": nbytes}).wait()


def memset_async(dst: Any, value: int, nbytes: int, stream: Any = None) -> None:
    """Stream-ordered :func:`memset` (``hipMemsetAsync``)."""
    d = _plan_fill(dst, value, nbytes, "memset_async")
    if nbytes:
        _stream_for(d, d, stream).enqueue(_fill_task(d, int(value) & 0xFF, nbytes, "memset_async"),
                                          "memset_async", keep=d, inline=nbytes <= _INLINE_BYTES,
                                          info={"cat": "memset", "bytes": nbytes})


def check_all_guards(device: int | None = None) -> None:
    """Check the guard bytes of every live allocation (of one device, or all)."""
    for alloc in address_space.live_allocations(device):
        with address_space.lock:  # (a pool may be cutting the block to a new size meanwhile)
            alloc.check_guards()


# The stream-ordered pools use this module's allocations, so they are imported once it is complete.
from . import mempool as _mempool  # noqa: E402
