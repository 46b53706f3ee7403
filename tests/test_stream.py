"""Streams and events: ordering, overlap, legacy null-stream semantics, callbacks,
sticky errors, destruction, timing."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest

import rocmath as rm
from rocmath import errors
from rocmath.errors import HipStatus

TIMEOUT = 10  # seconds: a test that would hang fails instead


def _gate_after(seconds):
    """An Event set by a timer: work waiting on it is held up for a while, never forever."""
    gate = threading.Event()
    timer = threading.Timer(seconds, gate.set)
    timer.daemon = True
    timer.start()
    return gate


# --- ordering and overlap ------------------------------------------------------------------


def test_each_stream_runs_its_work_in_issue_order_under_concurrency():
    streams = [rm.Stream() for _ in range(4)] + [rm.Stream(non_blocking=True) for _ in range(2)]
    issued = {s.ident: [] for s in streams}
    ran = {s.ident: [] for s in streams}
    issue_lock = threading.Lock()
    per_thread = 150
    errors_seen = []

    def producer(tid):
        try:
            rng = np.random.default_rng(tid)
            for i in range(per_thread):
                s = streams[int(rng.integers(len(streams)))]
                token = (tid, i)
                with issue_lock:  # the order of issue, as the stream saw it
                    issued[s.ident].append(token)
                    s.launch_host_func(ran[s.ident].append, token)
        except BaseException as exc:  # pragma: no cover - reported below
            errors_seen.append(exc)

    threads = [threading.Thread(target=producer, args=(t,)) for t in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert not errors_seen
    for s in streams:
        s.synchronize()
    assert sum(len(v) for v in ran.values()) == 6 * per_thread
    for s in streams:
        assert ran[s.ident] == issued[s.ident]


def test_streams_without_locking_keep_each_threads_order():
    s = rm.Stream()
    ran = []

    def producer(tid):
        for i in range(200):
            s.launch_host_func(ran.append, (tid, i))

    threads = [threading.Thread(target=producer, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    s.synchronize()
    assert len(ran) == 800
    for tid in range(4):
        assert [i for t, i in ran if t == tid] == list(range(200))


@pytest.mark.parametrize("non_blocking", [False, True])
def test_different_streams_overlap(non_blocking):
    # Each stream waits for an event only the other one sets: this deadlocks (and fails on
    # the timeouts) if the two streams were run one after the other.
    a, b = threading.Event(), threading.Event()
    results = {}

    def left():
        a.set()
        results["left"] = b.wait(TIMEOUT)

    def right():
        b.set()
        results["right"] = a.wait(TIMEOUT)

    s1, s2 = rm.Stream(non_blocking=non_blocking), rm.Stream(non_blocking=non_blocking)
    t0 = time.perf_counter()
    s1.launch_host_func(left)
    s2.launch_host_func(right)
    s1.synchronize()
    s2.synchronize()
    assert results == {"left": True, "right": True}
    assert time.perf_counter() - t0 < TIMEOUT / 2


def test_null_stream_waits_for_earlier_blocking_stream_work():
    s = rm.Stream()
    order = []
    gate = _gate_after(0.05)
    s.launch_host_func(lambda: (gate.wait(TIMEOUT), order.append("blocking")))
    rm.null_stream().launch_host_func(order.append, "null")
    rm.device_synchronize()
    assert order == ["blocking", "null"]


def test_blocking_stream_waits_for_earlier_null_stream_work():
    s = rm.Stream()
    order = []
    gate = _gate_after(0.05)
    rm.null_stream().launch_host_func(lambda: (gate.wait(TIMEOUT), order.append("null")))
    s.launch_host_func(order.append, "blocking")
    s.synchronize()
    assert order == ["null", "blocking"]
    rm.device_synchronize()


def test_blocking_streams_do_not_wait_for_each_other():
    s1, s2 = rm.Stream(), rm.Stream()
    gate = threading.Event()
    order = []
    s1.launch_host_func(lambda: (gate.wait(TIMEOUT), order.append("s1")))
    s2.launch_host_func(lambda: (order.append("s2"), gate.set()))
    rm.device_synchronize()
    assert order == ["s2", "s1"]


def test_non_blocking_streams_ignore_the_null_stream():
    ns = rm.Stream(non_blocking=True)
    order = []
    # Null stream held up until the non-blocking stream's later work sets the gate.
    gate = threading.Event()
    rm.null_stream().launch_host_func(lambda: (gate.wait(TIMEOUT), order.append("null")))
    ns.launch_host_func(lambda: (order.append("non-blocking"), gate.set()))
    ns.synchronize()
    rm.device_synchronize()
    assert order == ["non-blocking", "null"]
    # And the other way round: null-stream work does not wait for a non-blocking stream.
    gate2 = threading.Event()
    order.clear()
    ns.launch_host_func(lambda: (gate2.wait(TIMEOUT), order.append("non-blocking")))
    rm.null_stream().launch_host_func(lambda: (order.append("null"), gate2.set()))
    rm.device_synchronize()
    assert order == ["null", "non-blocking"]
    assert gate.is_set() and gate2.is_set()


def test_synchronous_memcpy_waits_for_blocking_streams():
    s = rm.Stream()
    p = rm.malloc(8)
    rm.memset(p, 0, 8)
    gate = _gate_after(0.05)
    s.launch_host_func(gate.wait, TIMEOUT)
    rm.memset_async(p, 7, 8, s)
    out = np.zeros(8, np.uint8)
    rm.memcpy(out, p, 8)  # null stream: after the blocking stream's earlier work
    np.testing.assert_array_equal(out, np.full(8, 7, np.uint8))
    rm.free(p)


# --- the current stream -------------------------------------------------------------------


def test_with_stream_makes_it_current():
    null = rm.null_stream()
    assert rm.current_stream() is null and null.is_null and null.ident == 0
    s1, s2 = rm.Stream(), rm.Stream()
    assert not s1.is_null and s1.ident != s2.ident
    with s1 as entered:
        assert entered is s1 and rm.current_stream() is s1
        with s2:
            assert rm.current_stream() is s2
            seen = []
            t = threading.Thread(target=lambda: seen.append(rm.current_stream()))
            t.start()
            t.join(TIMEOUT)
            assert seen == [null]  # the current stream is per thread
        assert rm.current_stream() is s1
    assert rm.current_stream() is null
    # Work with stream=None goes to the current stream.
    gate = threading.Event()
    s1.launch_host_func(gate.wait, TIMEOUT)
    with s1:
        x = rm.to_device(np.arange(3.0))
    assert not s1.query()
    gate.set()
    s1.synchronize()
    np.testing.assert_array_equal(x.get(stream=s1), np.arange(3.0))


def test_as_stream_arguments():
    from rocmath.stream import as_stream

    assert as_stream(0) is rm.null_stream()
    assert as_stream(None) is rm.current_stream()
    for bad in (1, "s", 0.0, True):
        with pytest.raises(errors.HipInvalidHandleError):
            as_stream(bad)


def test_query():
    s = rm.Stream()
    assert s.query()  # nothing queued
    gate = threading.Event()
    s.launch_host_func(gate.wait, TIMEOUT)
    assert not s.query()
    gate.set()
    s.synchronize()
    assert s.query()


def test_wait_event_orders_work_across_streams():
    s1, s2 = rm.Stream(non_blocking=True), rm.Stream(non_blocking=True)
    order = []
    gate = _gate_after(0.05)
    s1.launch_host_func(lambda: (gate.wait(TIMEOUT), order.append("s1")))
    ev = rm.Event().record(s1)
    s2.wait_event(ev)
    s2.launch_host_func(order.append, "s2")
    s1.launch_host_func(order.append, "s1 later")  # not captured by the event
    s2.synchronize()
    assert order[:2] == ["s1", "s2"] or order[:3] == ["s1", "s1 later", "s2"]
    s1.synchronize()
    s2.wait_event(rm.Event())  # an event never recorded: nothing to wait for
    with pytest.raises(errors.HipInvalidHandleError):
        s2.wait_event("not an event")


def test_callbacks_and_host_functions_run_in_order():
    s = rm.Stream()
    calls = []
    s.launch_host_func(calls.append, "f1")
    s.add_callback(lambda stream, status, data: calls.append((stream, status, data)), "cb")
    s.launch_host_func(calls.append, "f2")
    s.synchronize()
    assert calls == ["f1", (s, HipStatus.hipSuccess, "cb"), "f2"]


def test_callback_runs_on_the_stream_worker_thread():
    s = rm.Stream()
    names = []
    s.add_callback(lambda *_: names.append(threading.current_thread().name))
    s.synchronize()
    assert names and names[0] != threading.current_thread().name


# --- sticky errors ---------------------------------------------------------------------------


def _boom():
    raise ValueError("boom 42")


def _second():
    raise KeyError("second")


def test_async_error_is_raised_at_the_next_synchronize():
    s = rm.Stream()
    ran = []
    s.launch_host_func(_boom)
    s.launch_host_func(ran.append, "after")  # skipped: the stream has a pending error
    statuses = []
    s.add_callback(lambda stream, status, data: statuses.append(status))  # callbacks still run
    with pytest.raises(errors.LaunchFailureError) as info:
        s.synchronize()
    msg = str(info.value)
    assert "host function _boom" in msg and "ValueError: boom 42" in msg and f"stream {s.ident}" in msg
    assert isinstance(info.value.__cause__, ValueError) and str(info.value.__cause__) == "boom 42"
    assert info.value.status == HipStatus.hipErrorLaunchFailure
    assert ran == []
    assert statuses == [HipStatus.hipErrorLaunchFailure]
    # Reported: the stream works again.
    s.synchronize()
    s.launch_host_func(ran.append, "again")
    s.synchronize()
    assert ran == ["again"]
    rm.get_last_error()


def _raise_with(a):
    raise KeyError(a.shape)


def _fails_handling(a):
    try:
        _raise_with(a)
    except KeyError:
        raise ValueError("failed while handling another error") from None


def test_a_pending_error_keeps_no_memory_alive():
    # The stream keeps its pending error until a synchronize reports it; the frames of that error's
    # context (here _raise_with's, which holds the array) must not keep the program's memory alive.
    from rocmath.memory import address_space

    s = rm.Stream()
    before = address_space.live_count
    a = rm.empty(4)
    s.launch_host_func(_fails_handling, a)
    while s._state.busy or s._state.items:
        time.sleep(0.001)
    del a
    assert address_space.live_count == before
    with pytest.raises(errors.LaunchFailureError):
        s.synchronize()
    rm.get_last_error()


def test_inline_work_on_an_idle_stream_runs_at_once_and_fails_as_queued_work_does():
    # Small launches run at once on the calling thread when the stream is idle: their results,
    # failures and the stream's state afterwards must be what work through the worker gives.
    s = rm.Stream()
    rm.get_last_error()
    ran = []
    done = s.enqueue(lambda: ran.append(1), "small", inline=True)
    assert ran == [1] and done.finished and done.error is None
    done.wait()
    assert s.query()
    ev = rm.Event().record(s)  # (recorded through the stream's worker: done once it ran)
    ev.synchronize()
    assert ev.query()
    failed = s.enqueue(_boom, "small boom", inline=True)
    assert failed.finished and isinstance(failed.error, ValueError)
    later = s.enqueue(lambda: ran.append(2), "after", inline=True)  # queued, skipped: an error is pending
    assert later.wait_finished(TIMEOUT) and later.skipped and ran == [1]
    with pytest.raises(errors.LaunchFailureError) as info:
        failed.wait()
    assert "small boom" in str(info.value) and "boom 42" in str(info.value)
    assert rm.get_last_error() == HipStatus.hipErrorLaunchFailure
    s.synchronize()  # the wait reported the stream's error: it is cleared
    s.enqueue(lambda: ran.append(3), "again", inline=True)
    assert ran == [1, 3]


def test_work_queued_while_inline_work_runs_comes_after_it():
    s = rm.Stream()
    order = []
    entered, release = threading.Event(), threading.Event()

    def small():
        order.append("small start")
        entered.set()
        release.wait(TIMEOUT)
        order.append("small end")

    t = threading.Thread(target=lambda: s.enqueue(small, "small", inline=True))
    t.start()
    assert entered.wait(TIMEOUT)
    s.enqueue(lambda: order.append("queued"), "queued", inline=True)  # the stream is busy: queued
    s.launch_host_func(order.append, "host")
    synced = threading.Event()
    waiter = threading.Thread(target=lambda: (s.synchronize(), synced.set()))
    waiter.start()
    assert not synced.wait(0.05)  # a synchronize from another thread waits for the running work
    release.set()
    t.join(TIMEOUT)
    assert synced.wait(TIMEOUT)
    waiter.join(TIMEOUT)
    assert order == ["small start", "small end", "queued", "host"]


def test_rocmath_errors_keep_their_class_and_arguments():
    s = rm.Stream()

    def bad():
        raise errors.HipInvalidValueError("bad thing", arg="x", index=3)

    s.launch_host_func(bad)
    with pytest.raises(errors.HipInvalidValueError) as info:
        s.synchronize()
    e = info.value
    assert e.arg == "x" and e.index == 3 and "bad thing" in e.message and "host function bad" in e.message
    assert isinstance(e.__cause__, errors.HipInvalidValueError) and e.__cause__.message == "bad thing"
    assert rm.get_last_error() == HipStatus.hipErrorInvalidValue


def test_get_and_peek_at_last_error():
    rm.get_last_error()
    assert rm.peek_at_last_error() == HipStatus.hipSuccess
    s = rm.Stream()
    s.launch_host_func(_boom)
    with pytest.raises(errors.LaunchFailureError) as info:
        s.synchronize()
    # The last error names the status the failure was reported with.
    assert rm.peek_at_last_error() == info.value.status
    assert rm.peek_at_last_error() == info.value.status  # peeking does not reset
    assert rm.get_last_error() == info.value.status
    assert rm.get_last_error() == HipStatus.hipSuccess  # getting does


def test_memory_fault_in_async_work_keeps_its_status():
    s, other = rm.Stream(), rm.Stream(non_blocking=True)
    p = rm.malloc(64)
    gate = threading.Event()
    s.launch_host_func(gate.wait, TIMEOUT)
    rm.memset_async(p, 0, 64, s)
    rm.free_async(p, other)  # a use-after-free race the program itself made
    rm.Event().record(other).synchronize()
    gate.set()
    with pytest.raises(rm.MemoryAccessFault, match="freed before") as info:
        s.synchronize()
    assert info.value.status == HipStatus.hipErrorIllegalAddress
    assert rm.get_last_error() == HipStatus.hipErrorIllegalAddress


def test_device_synchronize_raises_and_clears_every_stream():
    s1, s2 = rm.Stream(), rm.Stream(non_blocking=True)
    s1.launch_host_func(_boom)
    s2.launch_host_func(_second)
    with pytest.raises(errors.LaunchFailureError) as info:
        rm.device_synchronize()
    text = str(info.value) + " ".join(getattr(info.value, "__notes__", []))
    assert "boom 42" in text and "second" in text
    rm.device_synchronize()  # all cleared
    s1.synchronize()
    s2.synchronize()
    rm.get_last_error()


def test_error_is_raised_by_an_event_synchronize():
    s = rm.Stream()
    s.launch_host_func(_boom)
    ev = rm.Event().record(s)
    with pytest.raises(errors.LaunchFailureError, match="boom 42"):
        ev.synchronize()
    assert ev.query()
    s.synchronize()  # already reported
    rm.get_last_error()


def test_waiting_on_skipped_work_fails_even_after_the_error_was_reported():
    s = rm.Stream()
    s.launch_host_func(_boom)
    task = rm.launch(lambda: None, name="later_kernel", stream=s)
    with pytest.raises(errors.LaunchFailureError, match="boom"):
        s.synchronize()
    # The error was reported by the synchronize above; whoever waits on the skipped
    # work must still learn that it did not run.
    with pytest.raises(errors.RocmathError, match="later_kernel"):
        task.wait()
    rm.get_last_error()


def test_synchronous_copy_after_an_async_error_raises_it():
    p = rm.malloc(8)
    rm.null_stream().launch_host_func(_boom)
    out = np.full(8, 3, np.uint8)
    with pytest.raises(errors.LaunchFailureError, match="boom 42"):
        rm.memcpy(out, p, 8)
    assert (out == 3).all()  # the copy was skipped
    rm.free(p)
    rm.get_last_error()


# --- destruction ---------------------------------------------------------------------------


def test_destroyed_stream_refuses_use():
    s = rm.Stream()
    ran = []
    gate = _gate_after(0.05)
    s.launch_host_func(gate.wait, TIMEOUT)
    s.launch_host_func(ran.append, 1)
    s.destroy()
    p = rm.malloc(8)
    uses = [
        lambda: s.synchronize(), lambda: s.query(), lambda: s.launch_host_func(print),
        lambda: s.add_callback(print), lambda: s.wait_event(rm.Event().record(0)), lambda: s.destroy(),
        lambda: s.__enter__(), lambda: rm.Event().record(s), lambda: rm.memset_async(p, 0, 8, s),
        lambda: rm.memcpy_async(p, b"12345678", 8, stream=s), lambda: rm.launch(print, name="k", stream=s),
        lambda: rm.malloc_async(8, s), lambda: rm.Handle(stream=s),
    ]
    for use in uses:
        with pytest.raises(errors.HipInvalidHandleError) as info:
            use()
        assert info.value.status == HipStatus.hipErrorInvalidHandle
    rm.device_synchronize()  # queued work still completes
    assert ran == [1]
    rm.free(p)
    with pytest.raises(errors.HipInvalidHandleError):
        rm.null_stream().destroy()


@pytest.mark.usefixtures("young_garbage")
def test_device_synchronize_waits_for_work_of_destroyed_streams():
    s = rm.Stream()
    done = []
    gate = _gate_after(0.1)
    s.launch_host_func(lambda: (gate.wait(TIMEOUT), done.append(True)))
    s.destroy()
    del s
    gc.collect()
    rm.device_synchronize()
    assert done == [True]


@pytest.mark.usefixtures("young_garbage")
def test_dropped_streams_finish_their_work():
    done = []
    for i in range(20):
        rm.Stream().launch_host_func(done.append, i)
    gc.collect()
    rm.device_synchronize()
    assert sorted(done) == list(range(20))


# --- events ---------------------------------------------------------------------------------


def test_event_record_synchronize_query():
    s = rm.Stream()
    ev = rm.Event()
    assert ev.query()  # never recorded
    ev.synchronize()
    gate = threading.Event()
    s.launch_host_func(gate.wait, TIMEOUT)
    assert ev.record(s) is ev
    assert not ev.query()
    assert "pending" in repr(ev)
    gate.set()
    ev.synchronize()
    assert ev.query() and "done" in repr(ev)


@pytest.mark.parametrize("sleep", [0.02, 0.06])
def test_elapsed_time_measures_the_work_between_events(sleep):
    s = rm.Stream()
    start, stop = rm.Event(), rm.Event()
    start.record(s)
    s.launch_host_func(time.sleep, sleep)
    stop.record(s)
    stop.synchronize()
    ms = rm.elapsed_time(start, stop)
    assert sleep * 1000 <= ms < sleep * 1000 + 500
    assert rm.elapsed_time(stop, start) == pytest.approx(-ms)


def test_elapsed_time_errors():
    a, b = rm.Event(), rm.Event()
    with pytest.raises(errors.HipInvalidHandleError):
        rm.elapsed_time(a, b)  # never recorded
    a.record()
    with pytest.raises(errors.HipInvalidHandleError) as info:
        rm.elapsed_time(a, b)
    assert info.value.arg == "stop"
    untimed = rm.Event(timing=False).record()
    b.record()
    rm.device_synchronize()
    with pytest.raises(errors.HipInvalidHandleError):
        rm.elapsed_time(a, untimed)
    with pytest.raises(errors.HipInvalidHandleError):
        rm.elapsed_time(untimed, b)
    assert rm.elapsed_time(a, b) >= 0
    s = rm.Stream()
    gate = threading.Event()
    s.launch_host_func(gate.wait, TIMEOUT)
    c = rm.Event().record(s)
    with pytest.raises(errors.NotReadyError) as info:
        rm.elapsed_time(a, c)
    assert info.value.status == HipStatus.hipErrorNotReady
    gate.set()
    c.synchronize()
    assert rm.elapsed_time(a, c) >= 0


def test_events_record_even_on_a_failed_stream():
    s = rm.Stream()
    s.launch_host_func(_boom)
    start = rm.Event().record(s)
    s.launch_host_func(time.sleep, 0.01)  # skipped
    stop = rm.Event().record(s)
    with pytest.raises(errors.LaunchFailureError):
        stop.synchronize()
    start.synchronize()
    assert 0 <= rm.elapsed_time(start, stop) < 10  # the sleep was skipped, the events were not
    rm.get_last_error()


def test_stream_ordered_frees_run_even_after_an_error():
    # A failed kernel skips later work on its stream, but memory must still come back.
    s = rm.Stream()
    free_before = rm.mem_get_info()[0]
    p = rm.malloc_async(4096, s)

    def boom() -> None:
        raise RuntimeError("kernel failed")

    s.launch_host_func(boom)
    rm.free_async(p, s)
    with pytest.raises(rm.errors.LaunchFailureError):
        s.synchronize()
    rm.device_synchronize()  # trims the pool
    assert rm.mem_get_info()[0] == free_before
    s.destroy()
