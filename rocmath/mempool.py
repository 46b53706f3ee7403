"""Stream-ordered memory pools, as the AMD runtime's ``hip::MemoryPool`` (ROCm/clr hipamd/src/hip_mempool_impl.cpp).

:func:`rocmath.malloc_async` and :func:`rocmath.free_async` allocate from and give back to these pools, and so do
the HIP layer's ``hipMallocAsync``, ``hipFreeAsync`` and ``hipMemPool*`` functions: one pool machinery for both.

- Each device has a default pool and a current one (:func:`pools_of`; ``malloc_async`` allocates from the current
  pool of its stream's device); a pool keeps the blocks in use (``busy``) and the freed ones (``freed``, ordered by
  size then address).
- A stream-ordered free puts a block into the freed heap at once, marked with the freeing stream and a marker task
  on it.  A later allocation of a size the block covers reuses it: without a check on a stream it is safe for (the
  freeing stream, streams that waited on an event of it when the pool follows event dependencies), once its
  marker ran when opportunistic reuse is allowed (not for blocks larger than 9/8 of the request), always after a
  synchronous free (which waits for the device first).
- A reused block is cut to the size asked for: its guard bytes move to the new end (a kernel or copy past it is a
  fault, as past any allocation's end, where a real device would silently write into the block's slack); the
  device accounting keeps counting the whole block.  Those bytes (and, in checking mode, the poison over the
  block) are written in stream order when the earlier owner's work may still be queued: never under it.
- The freed block is marked released when its stream gets to the free (its guard bytes are checked, and a stale
  pointer is refused from then on, as rocmath refuses freed memory) and is in use again as soon as an allocation
  takes it (a reuse on the freeing stream may come first: the free then leaves it alone).
- Freed blocks are given back to the device (really freed) at synchronizations beyond the pool's release
  threshold (0 by default: :func:`synchronized`), by :meth:`MemoryPool.trim_to`, when a free finds the freed heap
  larger than the used one (direct dispatch, as on Linux), when an allocation would not fit otherwise
  (:func:`release_for`), and all of them before ``rocmath.configure`` checks for live allocations
  (:func:`release_everything`).

The HIP layer (:mod:`rocmath.hip._hip_runtime2`) adds the handles (``hipMemPool_t``, kept in
:attr:`MemoryPool.handle`), the attributes, the access list and the sharing across processes.
"""

from __future__ import annotations

import bisect
import functools
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import memory as _memory
from .device import Device, get_device_object
from .errors import InvalidDevicePointerError, MemoryAccessFault, OutOfMemoryError
from .memory import Allocation, MemoryKind, address_space

if TYPE_CHECKING:  # (rocmath.stream imports this module: it gives the pools their synchronizations)
    from .stream import Stream, Task

__all__ = ["MemoryPool", "free_async", "free_to_pool", "free_now", "holding_pool", "in_freed_heap", "pools_of",
           "release_everything", "release_for", "synchronized"]


@dataclass(eq=False)
class _Block:
    """A pool's allocation: the streams that may reuse it without a check (by ident), and the marker of its
    stream-ordered free (None: freed synchronously, after the device's work)."""

    alloc: Allocation
    safe: set[int] = field(default_factory=set)
    marker: Task | None = None
    generation: int = 0  # bumped at each reuse: a pending free of an earlier owner then leaves the block alone

    @property
    def key(self) -> tuple[int, int]:
        return self.alloc.capacity, self.alloc.ptr

    def safe_to_release(self) -> bool:
        return self.marker is None or self.marker.finished


def _retire(block: _Block) -> Any:
    """The stream-ordered half of a free: the block is released (its guard bytes checked) when the stream gets
    there, unless it was reused meanwhile (on the freeing stream, a reuse may come before the free ran)."""
    generation = block.generation

    def run() -> None:
        with address_space.lock:
            if block.generation != generation:
                return
            block.alloc.last_op = "free_async"
            try:
                block.alloc.check_guards()
            finally:
                address_space.set_pooled(block.alloc, True)

    return run


class MemoryPool:
    """A stream-ordered memory pool of one device: the blocks in use and the freed heap, the reuse policies, the
    release threshold and the counters HIP's attributes report.  It lives while its handle or any of its blocks
    does (HIP's reference count).

    Parameters
    ----------
    device : Device
        The device whose memory the pool holds.
    props : dict, optional
        Creation properties (``hipMemPoolProps``' fields, by the HIP layer); ``maxSize`` (0: none) bounds the
        bytes the pool may hold.
    """

    def __init__(self, device: Device, props: dict[str, int] | None = None):
        self.device = device
        self.props = dict(props or {})
        self.busy: dict[int, _Block] = {}
        self.freed: list[_Block] = []
        self.busy_bytes = self.busy_high = self.freed_bytes = self.reserved_high = 0
        self.release_threshold = 0
        self.event_dependencies = self.opportunistic = self.internal_dependencies = 1
        self.access: dict[int, int] = {}  # other devices' access flags (the HIP layer's)
        self.lock = threading.RLock()
        self.refs = 1
        self.handle: Any = None  # the HIP layer's hipMemPool_t, made when first asked for
        self.shared: Any = None  # the HIP layer's state shared with other processes, once exported
        pools_of(device).pools.append(self)

    # -- allocation ------------------------------------------------------------------------------------------

    def _find(self, size: int, stream: Stream) -> _Block | None:
        """A freed block of at least ``size`` bytes ``stream`` may take (Heap::FindMemory)."""
        for i in range(bisect.bisect_left(self.freed, (size, 0), key=lambda b: b.key), len(self.freed)):
            block = self.freed[i]
            opportunistic = self.opportunistic and not block.alloc.capacity > (size / 8.0) * 9
            if stream.ident in block.safe or (opportunistic and block.marker is not None and block.marker.finished) \
                    or block.marker is None:
                del self.freed[i]
                self.freed_bytes -= block.alloc.capacity
                return block
        return None

    def allocate(self, size: int, stream: Stream) -> int:
        """The device pointer of a block of ``size`` bytes, usable by work on ``stream`` queued from now on."""
        with self.lock:
            block = self._find(size, stream)
            if block is None:
                limit = self.props.get("maxSize", 0)
                if limit and self.reserved_high + size > limit:
                    raise OutOfMemoryError(f"the pool's maxSize {limit} leaves no room for {size} bytes", arg="size")
                block = _Block(address_space.allocate(size, self.device.index, MemoryKind.DEVICE))
            else:
                # In use again from now on, as HIP hands it out: a reuse on the freeing stream may come before
                # the free ran there (which then leaves it alone), other reuses follow the free's completion or
                # the program's own ordering (an event the stream waited for).  Its bytes are written after the
                # earlier owner's work: by a task on ``stream`` while that work may still be queued.
                pending = block.marker is not None and not block.marker.finished
                with address_space.lock:
                    block.generation += 1
                    address_space.reuse(block.alloc, size, pending)
                if pending:
                    stream.enqueue(functools.partial(address_space.fitted, block.alloc), "malloc_async",
                                   always_run=True, inline=True, info={"cat": "alloc"})
            block.safe.add(stream.ident)
            self.busy[block.alloc.ptr] = block
            self.busy_bytes += block.alloc.capacity
            self.busy_high = max(self.busy_high, self.busy_bytes)
            self.reserved_high = max(self.reserved_high, self.busy_bytes + self.freed_bytes)
            self.refs += 1
            return block.alloc.ptr

    def adopt(self, alloc: Allocation) -> None:
        """Take an allocation made outside the pool as one of its blocks in use (to be freed into it)."""
        with self.lock:
            self.busy[alloc.ptr] = _Block(alloc)
            self.busy_bytes += alloc.capacity
            self.busy_high = max(self.busy_high, self.busy_bytes)
            self.reserved_high = max(self.reserved_high, self.busy_bytes + self.freed_bytes)
            self.refs += 1

    def free(self, ptr: int, stream: Stream | None) -> bool:
        """Take back the block at ``ptr`` (False when it is not this pool's): in ``stream`` order, or released at
        once (None: a synchronous free, after the device's work; broken guard bytes then raise, the block taken
        back all the same)."""
        low = False
        with self.lock:
            block = self.busy.get(ptr)
            if block is None:
                return False
            if self.freed_bytes > self.busy_bytes:  # direct dispatch: keep the freed heap below the used one
                self._release(0)
                free, total = _memory.mem_get_info(self.device.index)
                low = free < total >> 3
            del self.busy[ptr]
            self.busy_bytes -= block.alloc.capacity
            block.marker = None
            if stream is not None:
                block.safe.add(stream.ident)
                block.marker = stream.enqueue(_retire(block), "free_async", always_run=True, inline=True,
                                              info={"cat": "free"})
            bisect.insort(self.freed, block, key=lambda b: b.key)
            self.freed_bytes += block.alloc.capacity
            fault = None
            if stream is None:
                try:
                    _retire(block)()  # (under the lock: no reuse comes first)
                except MemoryAccessFault as exc:  # raised once the block is the pool's again
                    fault = exc
        if low:  # device memory is short: wait for the pending frees, give back half the freed heap
            self.wait_frees()
            with self.lock:
                self._release(self.freed_bytes >> 1)
        self.unref()
        if fault is not None:
            raise fault
        return True

    def discard(self, ptr: int, op: str) -> bool:
        """Free the block in use at ``ptr`` for good, the device's work on it done (False when it is not this
        pool's): :func:`rocmath.free` of a pool's block, which frees now, where ``hipFree`` gives it back to the
        pool."""
        with self.lock:
            block = self.busy.pop(ptr, None)
            if block is None:
                return False
            self.busy_bytes -= block.alloc.capacity
        try:
            address_space.release(block.alloc, op)
        finally:
            self.unref()
        return True

    def holds_freed(self, alloc: Allocation) -> bool:
        """Whether ``alloc`` is in the freed heap."""
        with self.lock:
            i = bisect.bisect_left(self.freed, (alloc.capacity, alloc.ptr), key=lambda b: b.key)
            return i < len(self.freed) and self.freed[i].alloc is alloc

    # -- giving memory back ------------------------------------------------------------------------------------

    def wait_frees(self) -> None:
        """Wait until the stream-ordered frees of the freed heap's blocks ran.  Outside the pool's lock: a stream
        may have to take it (a free of a pool's block queued before a marker) to get there."""
        with self.lock:
            markers = [b.marker for b in self.freed if b.marker is not None and not b.marker.finished]
        for marker in markers:
            marker.wait_finished()

    def _release(self, keep: int, wait: bool = False) -> bool:
        """Free released blocks (those whose free ran, or all after waiting with ``wait``: only where no stream
        can need the lock, see :meth:`wait_frees`) until at most ``keep`` bytes remain (Heap::ReleaseAllMemory);
        whether any was freed."""
        i = 0
        freed_any = False
        while i < len(self.freed) and self.freed_bytes > keep:
            block = self.freed[i]
            if wait and block.marker is not None:
                block.marker.wait_finished()
            if not block.safe_to_release():
                i += 1
                continue
            del self.freed[i]
            self.freed_bytes -= block.alloc.capacity
            with address_space.lock:
                block.alloc.pooled = False
                address_space.release(block.alloc, "pool trim")
            freed_any = True
        return freed_any

    def release_freed(self) -> None:
        """At a synchronization: free the released blocks beyond the release threshold."""
        with self.lock:
            self._release(self.release_threshold)

    def trim_to(self, keep: int) -> None:
        """Free released blocks until at most ``keep`` bytes of them are held (``hipMemPoolTrimTo``)."""
        with self.lock:
            self._release(keep)

    def unref(self) -> None:
        """Drop a reference (the handle's, at ``hipMemPoolDestroy``, or a block's, at its free): the last one gives
        every block back and forgets the pool."""
        with self.lock:
            self.refs -= 1
            if self.refs:
                return
        self.wait_frees()
        with self.lock:
            self.release_all("free_async")
        self.forget()

    def release_all(self, op: str) -> None:
        """Give every block back to the device (the freed ones after their frees ran, the used ones too) and
        invalidate the handle: HIP's MemoryPool::ReleaseAllMemory before the pool is deleted."""
        self._release(0, wait=True)
        for block in list(self.busy.values()):
            with address_space.lock:
                if block.alloc.live and not block.alloc.pooled:
                    address_space.release(block.alloc, op)
        self.busy.clear()
        self.busy_bytes = 0
        if self.handle is not None:
            self.handle._release()
            self.handle.target = None

    def forget(self) -> None:
        """Drop the pool from its device's list (and close its shared state)."""
        pools = pools_of(self.device)
        if self in pools.pools:
            pools.pools.remove(self)
        if self.shared is not None:
            self.shared.close()


# --- each device's pools ------------------------------------------------------------------------------------


@dataclass(eq=False)
class DevicePools:
    """A device's pools: its default pool, the current one (what ``malloc_async`` takes from) and all live ones."""

    pools: list[MemoryPool] = field(default_factory=list)
    default: MemoryPool | None = None
    current: MemoryPool | None = None


#: Each device's pools by device index, with the device they belong to: an entry whose device ``rocmath.configure``
#: retired is stale (and dropped when a device of that index gets its pools).
_entries: dict[int, tuple[Device, DevicePools]] = {}
pools_lock = threading.RLock()


def _entry(device: Device) -> DevicePools | None:
    hit = _entries.get(device.index)
    return hit[1] if hit is not None and hit[0] is device else None


def _put(device: Device, entry: DevicePools) -> None:
    """Make ``entry`` the pools of ``device``, dropping a retired device's entry (and its pools' handles)."""
    old = _entries.get(device.index)
    if old is not None and old[0] is not device:
        for pool in old[1].pools:
            if pool.handle is not None:
                pool.handle._release()
    _entries[device.index] = (device, entry)
    entry.default = entry.current = MemoryPool(device)


def pools_of(device: Device) -> DevicePools:
    """The pools of ``device`` (made, with a default pool as the current one, on first use)."""
    with pools_lock:
        entry = _entry(device)
        if entry is None:
            entry = DevicePools()
            _put(device, entry)
        return entry


def _live_pools(device: int | None) -> list[MemoryPool]:
    """The pools of one device (by index) or of every device in service, without making any."""
    with pools_lock:
        hits = list(_entries.values()) if device is None else [_entries[device]] if device in _entries else []
        return [pool for dev, entry in hits if not dev.retired for pool in entry.pools]


def holding_pool(alloc: Allocation) -> MemoryPool | None:
    """The pool whose blocks in use include ``alloc``."""
    if alloc.kind is not MemoryKind.DEVICE:
        return None
    for pool in _live_pools(alloc.device):
        if pool.busy.get(alloc.ptr) is not None:
            return pool
    return None


def in_freed_heap(alloc: Allocation) -> bool:
    """Whether ``alloc`` waits in a pool's freed heap (freed, its memory not yet given back)."""
    return alloc.kind is MemoryKind.DEVICE and any(pool.holds_freed(alloc) for pool in _live_pools(alloc.device))


def synchronized(device: int) -> None:
    """After a synchronization of ``device`` (a stream's or the device's, a synchronous free): each of its pools
    frees the released blocks beyond its release threshold (HIP's Device::ReleaseFreedMemory)."""
    hit = _entries.get(device)
    if hit is None or hit[0].retired:
        return
    for pool in tuple(hit[1].pools):
        if pool.freed:  # (read without the lock: a free racing with this synchronize is not ordered before it)
            pool.release_freed()


def release_everything() -> None:
    """Before ``rocmath.configure`` checks for live allocations: every freed block of every pool goes back to its
    device, whatever the release threshold, once its free ran."""
    for pool in _live_pools(None):
        pool.wait_frees()
        with pool.lock:
            pool._release(0, wait=True)


def release_for(device: int) -> bool:
    """An allocation on ``device`` does not fit: its pools free every released block (whether any was freed).  A
    pool another thread holds is skipped rather than waited for (that thread may be allocating too)."""
    freed_any = False
    for pool in _live_pools(device):
        if pool.lock.acquire(blocking=False):
            try:
                freed_any |= pool._release(0)
            finally:
                pool.lock.release()
    return freed_any


def reset_device(device: Device) -> None:
    """Every pool of ``device`` gives all its memory back (freed blocks and those in use), the pools and their
    handles are gone, and the device starts over with a new default pool as its current one (HIP's
    Device::Reset)."""
    with pools_lock:
        entry = _entry(device)
        if entry is None:
            return
        old = list(entry.pools)
        _put(device, DevicePools())
    for pool in old:
        pool.wait_frees()
        with pool.lock:
            pool.release_all("hipDeviceReset")
        if pool.shared is not None:
            pool.shared.close()


def follow_event(device: Device, source: int, waiting: int) -> None:
    """Stream ``waiting`` (an ident) waited on an event of stream ``source``: with event dependencies followed, it
    may now reuse what ``source`` may (Device::AddSafeStream)."""
    for pool in _live_pools(device.index):
        with pool.lock:
            if pool.event_dependencies:
                for block in pool.freed:
                    if source in block.safe:
                        block.safe.add(waiting)


# --- the runtime's frees ---------------------------------------------------------------------------------------


def free_async(alloc: Allocation, stream: Stream) -> None:
    """:func:`rocmath.free_async` of a live device allocation: a pool's block goes back to its pool in ``stream``
    order; any other allocation joins its device's current pool first.  A block already in a freed heap (its free
    has not run yet) is a double free."""
    pool = holding_pool(alloc)
    if pool is None:
        if in_freed_heap(alloc):
            raise InvalidDevicePointerError(f"free_async: double free of {alloc.describe()}", arg="ptr")
        current = pools_of(get_device_object(alloc.device)).current
        assert current is not None
        pool = current
        pool.adopt(alloc)
    pool.free(alloc.ptr, stream)


def free_to_pool(alloc: Allocation) -> bool:
    """A synchronous free of ``alloc`` (the device's work done): the pools' released blocks are freed (a free
    synchronizes), and a pool's block goes back to that pool (True); other memory is the caller's to free."""
    if alloc.kind is not MemoryKind.DEVICE:
        return False
    synchronized(alloc.device)
    pool = holding_pool(alloc)
    return pool is not None and pool.free(alloc.ptr, None)


def free_now(alloc: Allocation, op: str) -> None:
    """Free ``alloc`` for good, its device's queued work done: a pool's block leaves its pool."""
    pool = holding_pool(alloc)
    if pool is None or not pool.discard(alloc.ptr, op):
        address_space.release(alloc, op)
