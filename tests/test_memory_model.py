"""Property test: device memory behaves like a dict of bytearrays.

Random sequences of malloc / malloc_async / free / free_async / memcpy (H2D, D2H, D2D,
synchronous and stream-ordered) / memset / synchronize keep every allocation's bytes
equal to a host model, and ``mem_get_info`` exact to the byte.  The machine runs in
checking mode, so fresh memory must read as 0xFF bytes, and guard bytes are checked at
every synchronize.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import rocmath as rm
from rocmath import errors, mempool
from rocmath.memory import ALIGN, POISON_BYTE
from rocmath.testing import examples

# Each run of the model collects garbage first: older objects are frozen for the test (conftest's
# young_garbage), so those collections scan the model's objects only, not every object the worker
# made before (seconds each once it has compiled the suite's kernels).
pytestmark = pytest.mark.usefixtures("young_garbage")


# A few popular sizes, so the stream-ordered pool gets to reuse blocks.
SIZES = st.one_of(st.sampled_from([16, 100, 256]), st.integers(1, 300))


class DeviceMemoryModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._old_checking = rm.checking_enabled()
        rm.set_checking(True)
        # Garbage of earlier tests freed during the run would move mem_get_info under the
        # model: collect it now and keep the collector off until teardown.
        gc.collect()
        rm.device_synchronize()
        self._gc_was_enabled = gc.isenabled()
        gc.disable()
        self.stream = rm.Stream()
        self.base_free, self.total = rm.mem_get_info()
        self.allocs: dict[int, bytearray] = {}  # live allocations: their expected bytes
        self.capacity: dict[int, int] = {}  # live allocations: the bytes the device accounts for
        self.pooled: dict[int, int] = {}  # given back by free_async, not yet released: their capacities
        self.pool = mempool.pools_of(self.stream.device).current
        self.dead: list[int] = []  # freed for good: never handed out again
        # What draws may depend on must not depend on timing: whether a pooled block was reused
        # depends on whether its free_async ran yet, so draws use creation order and this list.
        self.freed_sizes: list[int] = []

    # -- helpers ----------------------------------------------------------------------------

    def _pick(self, data, label="ptr"):
        # By creation order, not by address: a reused block changes addresses, not the order.
        index = data.draw(st.integers(0, len(self.allocs) - 1), label=label)
        return list(self.allocs)[index]

    def _range(self, data, size):
        off = data.draw(st.integers(0, size - 1), label="offset")
        n = data.draw(st.integers(0, size - off), label="nbytes")
        return off, n

    def _check_all(self):
        for ptr, model in self.allocs.items():
            out = np.empty(len(model), np.uint8)
            rm.memcpy(out, ptr, len(model))
            assert out.tobytes() == bytes(model), f"allocation 0x{ptr:x} differs from the model"

    def _new(self, ptr, size, capacity):
        assert ptr % ALIGN == 0 and ptr not in self.allocs
        for q, model in self.allocs.items():  # no overlap with anything live
            assert ptr + size <= q or q + len(model) <= ptr
        self.allocs[ptr] = bytearray([POISON_BYTE]) * size
        self.capacity[ptr] = capacity

    def _released(self):
        # The pool gives freed blocks back at synchronizations, and also when a free finds its freed heap
        # larger than the blocks in use (HIP's direct dispatch), for the blocks whose free ran by then:
        # which ones depends on timing, so the model asks the pool what it still holds.
        held = {block.alloc.ptr for block in self.pool.freed}
        for ptr in [p for p in self.pooled if p not in held]:
            del self.pooled[ptr]
            self.dead.append(ptr)

    # -- allocation ---------------------------------------------------------------------------

    @rule(size=SIZES)
    def malloc(self, size):
        ptr = rm.malloc(size)
        assert ptr not in self.pooled and ptr not in self.dead
        self._new(ptr, size, size)

    @rule(size=SIZES)
    def malloc_async(self, size):
        ptr = rm.malloc_async(size, self.stream)
        assert ptr not in self.dead
        capacity = self.pooled.pop(ptr, size)  # a block of the pool, reused: one at least this large
        assert capacity >= size
        self._new(ptr, size, capacity)

    @precondition(lambda self: self.freed_sizes)
    @rule(data=st.data())
    def malloc_async_size_of_a_pooled_block(self, data):
        # A freed block of this stream is reused whether its free ran or not (it comes back poisoned).
        self.malloc_async(data.draw(st.sampled_from(sorted(set(self.freed_sizes))), label="size"))

    @precondition(lambda self: self.allocs)
    @rule(data=st.data())
    def free(self, data):
        ptr = self._pick(data)
        rm.free(ptr)
        del self.allocs[ptr], self.capacity[ptr]
        self.dead.append(ptr)

    @precondition(lambda self: self.allocs)
    @rule(data=st.data())
    def free_async(self, data):
        ptr = self._pick(data)
        rm.free_async(ptr, self.stream)
        del self.allocs[ptr]
        self.pooled[ptr] = self.capacity.pop(ptr)
        self.freed_sizes.append(self.pooled[ptr])

    @rule(device_wide=st.booleans())
    def synchronize(self, device_wide):
        if device_wide:
            rm.device_synchronize()
        else:
            self.stream.synchronize()  # every free_async went to this stream
        self.dead += list(self.pooled)
        self.pooled.clear()
        self.freed_sizes.clear()
        self._check_all()

    @rule()
    def wait_for_stream(self):
        # Waiting on an event gives nothing back (it is no synchronization of the runtime's).
        rm.Event().record(self.stream).synchronize()

    # -- copies and fills -----------------------------------------------------------------------

    @precondition(lambda self: self.allocs)
    @rule(data=st.data(), asynchronous=st.booleans())
    def memcpy_h2d(self, data, asynchronous):
        ptr = self._pick(data)
        off, n = self._range(data, len(self.allocs[ptr]))
        payload = data.draw(st.binary(min_size=n, max_size=n), label="payload")
        src = bytearray(payload)
        if asynchronous:
            rm.memcpy_async(ptr + off, src, n, rm.MemcpyKind.HostToDevice, stream=self.stream)
            src[:] = bytes(n)  # staged at the call: changing it now changes nothing
        else:
            rm.memcpy(ptr + off, src, n, rm.MemcpyKind.HostToDevice)
        self.allocs[ptr][off:off + n] = payload

    @precondition(lambda self: self.allocs)
    @rule(data=st.data(), asynchronous=st.booleans())
    def memcpy_d2h(self, data, asynchronous):
        ptr = self._pick(data)
        off, n = self._range(data, len(self.allocs[ptr]))
        out = np.full(n + 8, 0x5A, np.uint8)
        if asynchronous:  # into pageable memory: returns when done
            rm.memcpy_async(out, ptr + off, n, rm.MemcpyKind.DeviceToHost, stream=self.stream)
        else:
            rm.memcpy(out, ptr + off, n)
        assert out[:n].tobytes() == bytes(self.allocs[ptr][off:off + n])
        assert (out[n:] == 0x5A).all()  # nothing written past the count

    @precondition(lambda self: len(self.allocs) >= 2)
    @rule(data=st.data(), asynchronous=st.booleans())
    def memcpy_d2d(self, data, asynchronous):
        src = self._pick(data, "src")
        dst = data.draw(st.sampled_from([p for p in self.allocs if p != src]), label="dst")
        s_off = data.draw(st.integers(0, len(self.allocs[src]) - 1), label="src_offset")
        d_off = data.draw(st.integers(0, len(self.allocs[dst]) - 1), label="dst_offset")
        n = data.draw(st.integers(0, min(len(self.allocs[src]) - s_off, len(self.allocs[dst]) - d_off)))
        if asynchronous:
            rm.memcpy_async(dst + d_off, src + s_off, n, stream=self.stream)
        else:
            rm.memcpy(dst + d_off, src + s_off, n, rm.MemcpyKind.DeviceToDevice)
        self.allocs[dst][d_off:d_off + n] = self.allocs[src][s_off:s_off + n]

    @precondition(lambda self: self.allocs)
    @rule(data=st.data(), value=st.integers(-256, 511), asynchronous=st.booleans())
    def memset(self, data, value, asynchronous):
        ptr = self._pick(data)
        off, n = self._range(data, len(self.allocs[ptr]))
        if asynchronous:
            rm.memset_async(ptr + off, value, n, self.stream)
        else:
            rm.memset(ptr + off, value, n)
        self.allocs[ptr][off:off + n] = bytes([value & 0xFF]) * n

    # -- errors leave everything as it was ------------------------------------------------------

    @precondition(lambda self: self.allocs)
    @rule(data=st.data(), extra=st.integers(1, 300))
    def out_of_bounds(self, data, extra):
        ptr = self._pick(data)
        size = len(self.allocs[ptr])
        off = data.draw(st.integers(0, size - 1), label="offset")
        with pytest.raises(rm.MemoryAccessFault):
            rm.memcpy(ptr + off, bytes(size - off + extra), size - off + extra)
        with pytest.raises(rm.MemoryAccessFault):
            rm.memset_async(ptr + off, 0, size - off + extra, self.stream)

    @precondition(lambda self: self.dead)
    @rule(data=st.data())
    def use_after_free(self, data):
        ptr = data.draw(st.sampled_from(self.dead))
        with pytest.raises(errors.InvalidDevicePointerError):
            rm.memcpy(ptr, b"x", 1)
        with pytest.raises(errors.InvalidDevicePointerError):
            rm.free(ptr)

    # -- invariants ------------------------------------------------------------------------------

    @invariant()
    def accounting_is_exact(self):
        self._released()
        used = sum(self.capacity.values()) + sum(self.pooled.values())
        assert rm.mem_get_info() == (self.base_free - used, self.total)

    def teardown(self):
        try:
            self._check_all()
            for ptr in list(self.allocs):
                rm.free(ptr)
            self.allocs.clear()
            self.capacity.clear()
            rm.device_synchronize()
            assert rm.mem_get_info() == (self.base_free, self.total)
            self.stream.destroy()
        finally:
            rm.set_checking(self._old_checking)
            if self._gc_was_enabled:
                gc.enable()


# 400 steps in the default tier (a few seconds); the slow tier runs ten times as many.
DeviceMemoryModel.TestCase.settings = settings(DeviceMemoryModel.TestCase.settings, max_examples=examples(20),
                                               stateful_step_count=20, deadline=None)
test_device_memory_matches_a_host_model = DeviceMemoryModel.TestCase


@pytest.mark.slow
class TestDeviceMemoryModelLonger(DeviceMemoryModel.TestCase):  # type: ignore[name-defined]
    settings = settings(DeviceMemoryModel.TestCase.settings, max_examples=examples(100), stateful_step_count=40)
