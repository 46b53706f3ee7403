"""Replays of identical rocBLAS calls (blas._api._Plan over rocmath.launch.Replay).

A call whose arguments and handle state repeat runs its checked launch again without
redoing the checks.  The property test runs one random call sequence twice, on a
handle that replays and on one that never does (``_plans = None``), with frees,
re-allocations at the same address, stream and pointer-mode switches and host-side
data changes in between: results, exceptions and every device byte must agree.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.blas as blas
from rocmath import errors
from rocmath.memory import address_space
from rocmath.testing import examples

N = 6  # vector length; matrices are N x N (column-major, lda = N)


class World:
    """A handle and a pool of device vectors/matrices, with or without replays."""

    def __init__(self, replays: bool, seed: int):
        self.h = blas.create_handle()
        if not replays:
            self.h._plans = None
        self.stream = rm.Stream()
        rng = np.random.default_rng(seed)
        # Small integers: every operation below is exact, so results compare bit for bit.
        self.host = [rng.integers(-3, 4, N * N).astype(np.float64) for _ in range(3)]
        self.ptrs = [self._upload(a) for a in self.host]
        self.live = [True] * len(self.ptrs)
        self.device_mode = False

    @property
    def result(self) -> tuple[Any, ...]:
        """A reduction's result argument: none in host mode (the value comes back), array 2 in device mode."""
        return (self.arrays[2],) if self.device_mode else ()

    @staticmethod
    def _upload(host: np.ndarray) -> int:
        ptr = rm.malloc(host.nbytes)
        rm.DeviceArray.from_pointer(ptr, host.size).set(host)
        return ptr

    @property
    def arrays(self) -> list[Any]:
        # Array 0 goes in as a new DeviceArray view each call, the others as pointers.
        return [rm.DeviceArray.from_pointer(p, N * N) if i == 0 and live else p
                for i, (p, live) in enumerate(zip(self.ptrs, self.live, strict=True))]

    def close(self) -> None:
        rm.device_synchronize()
        blas.destroy_handle(self.h)
        self.stream.destroy()
        for p, live in zip(self.ptrs, self.live, strict=True):
            if live:
                rm.free(p)

    def apply(self, op: tuple[Any, ...]) -> Any:
        kind, *a = op
        h, xs = self.h, self.arrays
        if kind == "axpy":
            i, j, n, alpha, inc = a
            return blas.daxpy(h, n, alpha, xs[i], inc, xs[j], inc)
        if kind == "scal":
            i, n, alpha = a
            return blas.dscal(h, n, alpha, xs[i], 1)
        # Reductions in device pointer mode write their result to device memory: array 2's first element.
        if kind == "dot":
            i, j, n = a
            return blas.ddot(h, n, xs[i], 1, xs[j], 1, *self.result)
        if kind == "nrm2":
            i, n = a
            return blas.dnrm2(h, n, xs[i], 1, *self.result)
        if kind == "gemv":
            i, j, k, trans, alpha, beta = a
            return blas.dgemv(h, trans, N, N, alpha, xs[i], N, xs[j], 1, beta, xs[k], 1)
        if kind == "gemm":
            i, j, k, alpha = a
            return blas.dgemm(h, "N", "T", N, N, N, alpha, xs[i], N, xs[j], N, 0.0, xs[k], N)
        if kind == "realloc":  # free one array and allocate again (often at the same address)
            (i,) = a
            if self.live[i]:
                rm.free(self.ptrs[i])
            self.ptrs[i], self.live[i] = self._upload(self.host[i]), True
            return None
        if kind == "free":  # later calls on the freed pointer must fail as first calls do
            (i,) = a
            if self.live[i]:
                rm.free(self.ptrs[i])
                self.live[i] = False
            return None
        if kind == "host_write":  # new data under the same pointer
            i, v = a
            self.host[i][:] = v
            if self.live[i]:
                rm.DeviceArray.from_pointer(self.ptrs[i], N * N).set(self.host[i])
            return None
        if kind == "stream":
            (other,) = a
            blas.set_stream(h, self.stream if other else None)
            return None
        if kind == "pointer_mode":
            (device,) = a
            blas.set_pointer_mode(h, blas.PointerMode.device if device else blas.PointerMode.host)
            self.device_mode = device
            return None
        raise AssertionError(kind)

    def snapshot(self) -> list[bytes]:
        rm.device_synchronize()
        return [rm.DeviceArray.from_pointer(p, N * N).get().tobytes() if live else b"freed"
                for p, live in zip(self.ptrs, self.live, strict=True)]


ARRAY = st.integers(0, 2)
SCALAR = st.sampled_from([0.0, -0.0, 1.0, 2.0, -1.0])
CALLS = st.one_of(
    st.tuples(st.just("axpy"), ARRAY, ARRAY, st.sampled_from([0, 3, N]), SCALAR, st.sampled_from([1, 2])),
    st.tuples(st.just("scal"), ARRAY, st.sampled_from([0, N]), SCALAR),
    st.tuples(st.just("dot"), ARRAY, ARRAY, st.sampled_from([0, N])),
    st.tuples(st.just("nrm2"), ARRAY, st.sampled_from([1, N])),
    st.tuples(st.just("gemv"), ARRAY, ARRAY, ARRAY, st.sampled_from("NT"), SCALAR, SCALAR),
    st.tuples(st.just("gemm"), ARRAY, ARRAY, ARRAY, SCALAR),
)
EVENTS = st.one_of(
    st.tuples(st.just("realloc"), ARRAY),
    st.tuples(st.just("free"), ARRAY),
    st.tuples(st.just("host_write"), ARRAY, st.integers(-2, 2)),
    st.tuples(st.just("stream"), st.booleans()),
    st.tuples(st.just("pointer_mode"), st.booleans()),
)


@st.composite
def programs(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    """A few distinct calls, repeated in a random order, with state changes in between."""
    calls = draw(st.lists(CALLS, min_size=1, max_size=4))
    steps = draw(st.lists(st.one_of(st.integers(0, len(calls) - 1), EVENTS), min_size=1, max_size=40))
    return [calls[s] if isinstance(s, int) else s for s in steps]


def outcome(world: World, op: tuple[Any, ...]) -> Any:
    try:
        value = world.apply(op)
    except errors.RocmathError as exc:
        return ("raised", type(exc).__name__, getattr(exc, "arg", None))
    if isinstance(value, np.generic):
        return ("value", value.dtype.str, value.tobytes())
    return ("value", value)


@settings(max_examples=examples(60), deadline=None)
@given(programs(), st.integers(0, 2**16))
@example([("scal", 1, N, 0.0), ("scal", 1, N, -0.0), ("free", 1), ("scal", 1, N, 0.0)], 1)
def test_replays_match_first_calls(ops: list[tuple[Any, ...]], seed: int) -> None:
    plain, replaying = World(False, seed), World(True, seed)
    try:
        for op in ops:
            if op[0] in ("axpy", "scal", "gemv", "gemm") and replaying.h.pointer_mode:
                op = ("pointer_mode", False)  # device pointer mode needs device scalars: switch back
            assert outcome(replaying, op) == outcome(plain, op), op
            assert replaying.snapshot() == plain.snapshot(), op
    finally:
        plain.close()
        replaying.close()


@pytest.fixture
def handle():
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def test_a_replay_happens_and_reuses_the_compiled_kernel(handle) -> None:
    x = rm.to_device(np.arange(8.0))
    y = rm.to_device(np.ones(8))
    blas.daxpy(handle, 8, 2.0, x, 1, y, 1)
    assert len(handle._plans) == 1
    with rm.profile() as records:
        for _ in range(3):
            blas.daxpy(handle, 8, 2.0, x, 1, y, 1)
        rm.device_synchronize()
    assert [r.name for r in records] == ["rocblas_daxpy"] * 3  # replays leave launch records too
    np.testing.assert_array_equal(y.get(), 1 + 4 * 2 * np.arange(8.0))
    assert len(handle._plans) == 1


def test_a_plan_is_looked_at_again_after_any_free_or_mode_change(handle) -> None:
    """Plans skip the walk over their allocations while the address space's epoch stands still;
    every free, checking-mode switch and profiled call must still be seen."""
    from rocmath.memory import set_checking
    from rocmath.plans import find_plan

    x = World._upload(np.arange(8.0))
    args = (handle, 8, 2.0, x, 1)
    for _ in range(3):
        blas.dscal(*args)
    assert find_plan("dscal", args)[1] is not None
    other = World._upload(np.ones(4))
    epoch = address_space.epoch
    rm.free(other)  # another allocation's free: the plan is looked at again and still holds
    assert address_space.epoch > epoch and find_plan("dscal", args)[1] is not None
    set_checking(True)
    try:
        assert find_plan("dscal", args)[1] is None
    finally:
        set_checking(False)
    assert find_plan("dscal", args)[1] is not None
    with rm.log.profiling(rm.log.ProfileTable(), ("dscal", "x")):
        assert find_plan("dscal", args)[1] is None
    rm.free(x)
    assert find_plan("dscal", args)[1] is None


@pytest.mark.usefixtures("young_garbage")
def test_plans_do_not_keep_arrays_alive(handle) -> None:
    x = rm.to_device(np.arange(4.0))
    y = rm.to_device(np.ones(4))
    blas.daxpy(handle, 4, 1.0, x, 1, y, 1)
    blas.dnrm2(handle, 4, x, 1)
    refs = [weakref.ref(x), weakref.ref(y)]
    del x, y
    gc.collect()
    assert [r() for r in refs] == [None, None]


@pytest.mark.usefixtures("young_garbage")
def test_plans_keep_no_freed_memory(handle) -> None:
    # A replay's views of its arguments are kept by the allocations, not by the plan.
    x = rm.to_device(np.arange(64.0))
    y = rm.to_device(np.ones(64))
    for _ in range(3):
        blas.daxpy(handle, 64, 1.0, x, 1, y, 1)
        assert blas.ddot(handle, 64, x, 1, y, 1) > 0
    raws = [weakref.ref(address_space.find(a.ptr)._raw) for a in (x, y)]
    del x, y
    rm.device_synchronize()
    gc.collect()
    assert all(r() is None for r in raws)


@pytest.mark.usefixtures("young_garbage")
def test_plans_keep_no_argument_objects() -> None:
    # The array layer passes pointers as int subclasses that carry their arrays along.
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 1, 3, 4)), rng.standard_normal((1, 2, 4, 5))
    da, db = rm.to_device(a), rm.to_device(b)
    c = blas.matmul(da, db)
    np.testing.assert_allclose(c.get(), a @ b, rtol=1e-13)
    refs = [weakref.ref(x) for x in (da, db, c)]
    del da, db, c
    rm.device_synchronize()
    gc.collect()
    assert [r() for r in refs] == [None, None, None]


def test_signed_zero_and_argument_types_are_part_of_the_key(handle) -> None:
    x = rm.to_device(np.array([1.0, -2.0, 3.0]))
    blas.dscal(handle, 3, 0.0, x, 1)
    np.testing.assert_array_equal(np.signbit(x.get()), [False, True, False])
    x.set(np.array([1.0, -2.0, 3.0]))
    blas.dscal(handle, 3, -0.0, x, 1)  # equal to 0.0 as a key, not as a scale factor
    np.testing.assert_array_equal(np.signbit(x.get()), [True, False, True])
    v = np.array([1.0, -2.0, 3.0])
    for zero in (0.0, -0.0, -0.0, 0.0, -0.0):  # made with one zero, a plan does not run for the other
        x.set(v)
        blas.dscal(handle, 3, zero, x, 1)
        np.testing.assert_array_equal(np.signbit(x.get()), np.signbit(zero * v))
    z, w = rm.to_device(np.zeros(2, np.complex128)), np.array([1 + 1j, -1 - 1j])
    for zero in (0j, complex(0.0, -0.0), complex(0.0, -0.0), 0j, complex(-0.0, 0.0), complex(-0.0, 0.0)):
        z.set(w)
        blas.zscal(handle, 2, zero, z, 1)  # (the imaginary part's sign too)
        got = z.get()
        want = np.array([complex(zero) * c for c in w])
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))
    for _ in range(3):  # a plan for each (made the second time its key comes)
        blas.dscal(handle, 3, 2.0, x, 1)
        blas.dscal(handle, 1, 2.0, x, 1)
    with pytest.raises(errors.RocblasInvalidSizeError):
        blas.dscal(handle, True, 2.0, x, 1)  # == 1, but not an integer size
    with pytest.raises(errors.RocblasInvalidPointerError):
        blas.dscal(handle, 3, 2.0 + 0j, x, 1)  # == 2.0, but not a real number


def test_a_freed_argument_is_reported_as_on_a_first_call(handle) -> None:
    ptr = World._upload(np.ones(16))
    assert blas.ddot(handle, 16, ptr, 1, ptr, 1) == 16.0
    rm.free(ptr)
    with pytest.raises(errors.InvalidDevicePointerError):
        blas.ddot(handle, 16, ptr, 1, ptr, 1)
    again = World._upload(np.full(16, 2.0))  # the same address, most likely: a new allocation
    assert blas.ddot(handle, 16, again, 1, again, 1) == 64.0
    rm.free(again)


def test_a_pool_block_handed_out_again_is_checked_as_a_new_allocation(handle) -> None:
    # A stream-ordered pool gives a freed block back at the same address, cut to the size asked
    # for: a plan made on its earlier use must not run on it (it was checked against the old size).
    s = rm.Stream()
    blas.set_stream(handle, s)
    ptr = rm.malloc_async(8 * 100, s)
    rm.DeviceArray.from_pointer(ptr, 100).set(np.ones(100))
    for _ in range(3):  # made, then replayed
        blas.dscal(handle, 100, 2.0, ptr, 1)
    s.synchronize()
    rm.free_async(ptr, s)
    again = rm.malloc_async(8 * 90, s)  # within the pool's 9/8: the same block, 90 elements long
    assert again == ptr
    with pytest.raises(errors.MemoryAccessFault):
        blas.dscal(handle, 100, 2.0, again, 1)
    blas.dscal(handle, 90, 2.0, again, 1)
    rm.free_async(again, s)
    s.synchronize()
    blas.set_stream(handle, None)
    s.destroy()


def test_set_workspace_and_state_changes_drop_or_bypass_plans(handle) -> None:
    x = rm.to_device(np.ones(4))
    blas.dscal(handle, 4, 2.0, x, 1)
    assert handle._plans
    blas.set_workspace(handle, 0, 0)
    assert not handle._plans
    s = rm.Stream()
    blas.dscal(handle, 4, 2.0, x, 1)
    blas.set_stream(handle, s)
    with rm.profile() as records:
        blas.dscal(handle, 4, 2.0, x, 1)
        s.synchronize()
    assert records[0].stream == s.ident  # the handle's new stream, not the plan's
    np.testing.assert_array_equal(x.get(), 8.0)
    blas.set_stream(handle, None)
    s.destroy()


def test_the_plan_cache_is_bounded(handle) -> None:
    from rocmath.plans import PLAN_LIMIT

    xs = [rm.to_device(np.ones(2)) for _ in range(PLAN_LIMIT + 5)]
    for x in xs:
        blas.dscal(handle, 2, 3.0, x, 1)
    assert len(handle._plans) == PLAN_LIMIT
    np.testing.assert_array_equal(np.stack([x.get() for x in xs]), 3.0)


@pytest.mark.parametrize("change", [
    lambda h: blas.set_atomics_mode(h, blas.AtomicsMode.allowed),
    lambda h: blas.set_math_mode(h, blas.MathMode.xf32_xdl_math_op),
    lambda h: blas.set_stream(h, rm.Stream()),
    lambda h: (blas.set_pointer_mode(h, blas.PointerMode.device), blas.set_pointer_mode(h, blas.PointerMode.host)),
    lambda h: setattr(h, "layer_mode", int(h.layer_mode)),  # (an equal value, another object)
], ids=["atomics", "math", "stream", "pointer_mode_and_back", "any_attribute"])
def test_any_change_of_handle_state_bypasses_earlier_plans(handle, change, monkeypatch) -> None:
    # Plans check the handle's state by its version, which every assignment of another object to
    # an attribute changes (even of an equal value, or back to an earlier one): no setter can be missed.
    from rocmath.blas import _api

    replays = []
    run = _api._Plan.run
    monkeypatch.setattr(_api._Plan, "run", lambda self, args: replays.append(args) or run(self, args))
    x = rm.to_device(np.ones(4))
    for _ in range(3):  # seen, planned, replayed
        blas.dscal(handle, 4, 2.0, x, 1)
    assert len(replays) == 1
    before = handle.state_version
    change(handle)
    assert handle.state_version != before
    blas.dscal(handle, 4, 2.0, x, 1)  # a first call again
    assert len(replays) == 1
    rm.device_synchronize()
    np.testing.assert_array_equal(x.get(), 16.0)


def test_the_array_layer_replays_its_calls(monkeypatch) -> None:
    # It sets its handle's stream on every call: setting the stream the handle already has keeps
    # the handle's state (and its plans).
    from rocmath.blas import _api

    replays = []
    run = _api._Plan.run
    monkeypatch.setattr(_api._Plan, "run", lambda self, args: replays.append(args) or run(self, args))
    x, y = rm.to_device(np.arange(6.0)), rm.to_device(np.ones(6))
    h = blas.get_handle()
    before = h.state_version
    for _ in range(4):
        blas.axpy(2.0, x, y)
    assert len(replays) == 2
    assert blas.get_handle() is h and h.state_version == before
    np.testing.assert_array_equal(y.get(), 1 + 4 * 2 * np.arange(6.0))


def test_a_plan_is_made_the_second_time_a_call_comes(handle) -> None:
    # Calls that never repeat (fresh outputs) leave a marker, not a plan.
    from rocmath.blas import _api

    x = rm.to_device(np.ones(4))
    blas.dscal(handle, 4, 2.0, x, 1)
    (key,) = handle._plans
    assert not isinstance(handle._plans[key], _api._Plan) and not handle._plans[key].matches(handle, ())
    blas.dscal(handle, 4, 2.0, x, 1)
    assert isinstance(handle._plans[key], _api._Plan)


def test_device_pointer_mode_calls_replay_reading_their_scalars_when_they_run(handle) -> None:
    # In device pointer mode a call whose kernel reads alpha (and beta) when it runs is replayed,
    # each replay reading the scalars as they are then; a call that reads them back at the call
    # (gemm and gemm_ex copy them to the host first, as rocBLAS) replays only while they read the
    # same: each new value takes the first way, and sees it.
    from rocmath.blas import _api

    n = 4
    x, y = rm.to_device(np.arange(1.0, n + 1)), rm.zeros(n)
    a = rm.to_device(np.asfortranarray(np.eye(n)))
    c = rm.to_device(np.asfortranarray(np.ones((n, n))))
    d = rm.to_device(np.asfortranarray(np.ones((n, n))))
    alpha, beta = rm.to_device(np.array([0.0])), rm.to_device(np.array([1.0]))
    blas.set_pointer_mode(handle, blas.PointerMode.device)
    total, want_c = 0.0, np.ones((n, n))
    f64 = blas.Datatype.f64_r
    for value in (2.0, 2.0, 2.0, 3.0, -1.0, -1.0, -1.0, 0.5, 0.0, 0.0, -0.0, 2.0):
        alpha.set(np.array([value]))
        blas.daxpy(handle, n, alpha, x, 1, y, 1)
        blas.dgemm(handle, "N", "N", n, n, n, alpha, a, n, a, n, beta, c, n)
        blas.gemm_ex(handle, "N", "N", n, n, n, alpha, a, f64, n, a, f64, n, beta, d, f64, n, d, f64, n, f64, 0, 0, 0)
        total += value
        want_c = want_c + value * np.eye(n)
        np.testing.assert_array_equal(c.get(), want_c)
        np.testing.assert_array_equal(d.get(), want_c)
    np.testing.assert_array_equal(y.get(), total * np.arange(1.0, n + 1))
    plans = [p for p in handle._plans.values() if isinstance(p, _api._Plan)]
    # gemm and gemm_ex read alpha and beta back, once each (gemm_ex as gemm when D is C: not again)
    assert len(plans) == 3 and sorted(len(p.reads) for p in plans) == [0, 2, 2]
    # Back in host mode, an int alpha is a value, not the device mode's pointer: no plan of the other mode runs.
    blas.set_pointer_mode(handle, blas.PointerMode.host)
    y2 = rm.zeros(n)
    for _ in range(2):
        blas.daxpy(handle, n, 2, x, 1, y2, 1)
    np.testing.assert_array_equal(y2.get(), 4 * np.arange(1.0, n + 1))


def test_device_mode_reductions_replay_writing_their_result_each_time(handle) -> None:
    # A reduction in device pointer mode writes its result to device memory from the kernel: its
    # replays do so too, each from the data as it is when it runs.
    from rocmath.blas import _api

    n = 5
    x, y = rm.to_device(np.zeros(n)), rm.to_device(np.arange(1.0, n + 1))
    results = rm.zeros(3)
    index = rm.to_device(np.zeros(1, np.int32))
    blas.set_pointer_mode(handle, blas.PointerMode.device)
    for step in range(5):
        v = np.array([1.0, -4.0, 2.0, step, -step - 5.0])
        x.set(v)
        blas.ddot(handle, n, x, 1, y, 1, results.ptr)
        blas.dnrm2(handle, n, x, 1, results.ptr + 8)
        blas.idamax(handle, n, x, 1, index)
        got = results.get()
        assert got[0] == v @ np.arange(1.0, n + 1)
        assert got[1] == pytest.approx(np.linalg.norm(v), rel=1e-15)
        assert index.get()[0] == np.argmax(np.abs(v)) + 1
    plans = [p for p in handle._plans.values() if isinstance(p, _api._Plan)]
    assert len(plans) == 3


def test_a_replay_reading_a_freed_scalar_fails_as_a_first_call(handle) -> None:
    # A plan that reads alpha back first reads it again: from freed memory that fails, and the call
    # goes the first way, which reports it as a call without plans does.
    n = 3
    a = rm.to_device(np.asfortranarray(np.eye(n)))
    c = rm.zeros((n, n))
    beta = rm.to_device(np.array([0.0]))
    alpha_ptr = rm.malloc(8)
    rm.DeviceArray.from_pointer(alpha_ptr, 1).set(np.array([2.0]))
    blas.set_pointer_mode(handle, blas.PointerMode.device)
    for _ in range(3):
        blas.dgemm(handle, "N", "N", n, n, n, alpha_ptr, a, n, a, n, beta, c, n)
    rm.free(alpha_ptr)
    fresh = blas.create_handle()
    fresh._plans = None
    blas.set_pointer_mode(fresh, blas.PointerMode.device)
    outcomes = []
    for h in (handle, fresh):
        with pytest.raises(errors.RocmathError) as raised:
            blas.dgemm(h, "N", "N", n, n, n, alpha_ptr, a, n, a, n, beta, c, n)
        outcomes.append((type(raised.value), raised.value.arg))
    blas.destroy_handle(fresh)
    assert outcomes[0] == outcomes[1]
    np.testing.assert_array_equal(c.get(), 2 * np.eye(n))
