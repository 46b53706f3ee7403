"""Streams and events: ordered work queues that run asynchronously to the host.

Each stream owns one worker thread, so work on one stream runs in issue order and
work on different streams may overlap (kernels release the GIL).  The null stream
of each device has HIP's legacy semantics: work enqueued on it waits for all
earlier work on the device's blocking streams, and work enqueued on a blocking
stream waits for earlier null-stream work.  Non-blocking streams
(``Stream(non_blocking=True)``) do not synchronize with the null stream.

An exception raised by work on a stream is kept (sticky, like ``hipGetLastError``):
later work on that stream is skipped, and the next synchronize of the stream, an
event recorded after it, or the device raises it with the operation named.

A stream may capture its work into a graph instead of running it (:meth:`Stream.begin_capture`,
:mod:`rocmath.graph`): ``enqueue`` then records a node.
"""

from __future__ import annotations

import atexit
import collections
import itertools
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import device as _device
from . import memory as _memory
from . import mempool as _mempool
from . import trace as _trace
from .errors import (
    HipInvalidHandleError,
    HipInvalidValueError,
    HipStatus,
    LaunchFailureError,
    NotReadyError,
    RocmathError,
    status_of,
    without_frames,
)

_ids = itertools.count(1)
#: The number of captures not ended (rocmath.graph keeps it): synchronizing calls test it before
#: looking at captures.
_capturing = 0
#: Memory of graphs no longer used, given back at the next synchronize (see release_graph_memory).
_graph_released: collections.deque[tuple[list[Callable[[], Any]], list[int]]] = collections.deque()
# ROCMATH_INLINE=0 sends all work through the stream workers (small work runs inline otherwise).
_INLINE = os.environ.get("ROCMATH_INLINE", "1").lower() not in ("0", "false", "no", "off")


class _ThreadLocal(threading.local):
    """Per-thread state.  The class attributes are the defaults: a missing attribute of a plain
    ``threading.local`` read with ``getattr(..., default)`` costs a caught AttributeError."""

    state: _State | None = None  # the stream whose work this thread is running
    stack: list[Stream] | None = None  # the ``with stream:`` blocks


_local = _ThreadLocal()


_done_lock = threading.Lock()


class Task:
    """One unit of work on a stream: a callable, its name and its completion."""

    __slots__ = (
        "_cond",
        "always_run",
        "deps",
        "end_ns",
        "error",
        "finished",
        "fn",
        "info",
        "keep",
        "name",
        "skipped",
        "start_ns",
        "state",
    )

    def __init__(self, fn: Callable[[], Any], name: str, deps: Sequence[Task], keep: Any, state: _State,
                 info: dict[str, Any] | None = None, always_run: bool = False):
        self.fn = fn
        self.info = info  # what the timeline shows: {"cat": "kernel", "flops": ..., "bytes": ...}
        self.name = name
        self.deps = deps
        self.finished = False  # set once it ran (or was skipped)
        self._cond: threading.Condition | None = None  # made when someone waits
        self.error: BaseException | None = None
        self.skipped = False
        self.start_ns = 0
        self.end_ns = 0
        self.keep = keep  # holds arguments (DeviceArrays...) alive until the work ran
        self.always_run = always_run  # runs even after an error (callbacks, event records)
        self.state = state

    def finish(self) -> None:
        """Mark the task finished and wake its waiters."""
        self.finished = True
        cond = self._cond
        if cond is not None:
            with cond:
                cond.notify_all()

    def wait_finished(self, timeout: float | None = None) -> bool:
        """Block until the task finished (at most ``timeout`` seconds); whether it has.  The
        condition is made only when someone waits: most tasks never are one by one, and a
        condition costs more to make than a tiny kernel takes to run."""
        if self.finished:
            return True
        with _done_lock:
            if self._cond is None:
                self._cond = threading.Condition(threading.Lock())
        # The flag is set before finish() reads the condition: re-checked under the lock, a
        # finish() that saw no condition yet cannot be missed.
        with self._cond:
            if not self.finished:
                self._cond.wait_for(lambda: self.finished, timeout)
        return self.finished

    def wait(self) -> None:
        """Block until this task ran; raise the stream's pending error if it failed or was skipped."""
        if not self.finished:
            if _local.state is self.state:
                raise HipInvalidValueError(f"'{self.name}' waited on its own stream from a host callback")
            self.state.run_queued(self)
            self.wait_finished()
        if self.error is not None or self.skipped:
            self.state.raise_pending()
            # Reported already (another thread synchronized): the waiter must still fail.
            if self.error is not None:
                _raise_from_task(self.error, self.name, self.state.label)
            raise LaunchFailureError(
                f"{self.name} on {self.state.label} did not run: earlier work on the stream failed")


class _State:
    """What a stream's worker shares with the Stream object (the worker holds no Stream)."""

    def __init__(self, device: _device.Device, ident: int, non_blocking: bool, label: str):
        self.device = device
        self.ident = ident
        self.non_blocking = non_blocking
        self.label = label
        # A plain lock (entered directly on the hot paths) under the condition the worker waits on.
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.items: collections.deque[Task | None] = collections.deque()
        self.last: Task | None = None
        self.error: tuple[BaseException, Task] | None = None
        self.thread: threading.Thread | None = None
        self.destroyed = False
        self.busy = False  # a task is running (on the worker, or inline on an enqueuing thread)
        self.capture: Any = None  # the rocmath.graph capture the stream is in
        self.capture_blockers = 0  # (the null stream) blocking streams of its device that capture
        # Destroyed, capturing, or a null stream whose device captures: enqueue's one test of the unusual.
        self.slow = False

    def refresh_slow(self) -> None:
        self.slow = self.destroyed or self.capture is not None or self.capture_blockers > 0

    def start(self) -> None:
        self.thread = threading.Thread(target=_worker, args=(self,), name=f"rocmath-{self.label}", daemon=True)
        self.thread.start()

    def raise_pending(self) -> None:
        if self.error is None:  # set before the failed task is marked done: a waiter sees it
            return
        with self.lock:
            pending, self.error = self.error, None
        if pending is not None:
            _raise_from_task(pending[0], pending[1].name, self.label)

    def wait_idle(self) -> None:
        last = self.last
        if last is not None and not last.finished and _local.state is not self:
            self.run_queued(last)
            last.wait_finished()

    def run_taken(self, task: Task) -> None:
        """Run ``task``, taken from the queue with ``busy`` set, on the calling thread (the worker,
        or an enqueuing or waiting thread), then clear ``busy``.  While it runs the thread counts
        as the stream's worker: a wait for the stream from inside (a finalizer run by the garbage
        collector, say) must not wait for itself.  One function for the whole run: it is on the
        path of every launch."""
        outer = _local.state
        _local.state = self
        try:
            if self.error is not None and not task.always_run:
                task.skipped = True
            else:
                info = task.info
                # Only the timeline and the profile logging layer read the times (events take their own).
                if _trace._recorders or (info is not None and "profile" in info):
                    _timed_run(self, task)
                else:
                    try:
                        task.fn()
                    except BaseException as exc:
                        _failed(self, task, exc)
            task.fn = _noop
            task.keep = None
            task.deps = _NO_DEPS
            task.finish()
        finally:
            _local.state = outer
            lock = self.lock  # (acquire/release: a ``with`` block costs twice as much on this path)
            lock.acquire()
            try:
                self.busy = False
                if self.items:  # the worker waits for queued work the stream was busy with
                    self.cond.notify_all()
            finally:
                lock.release()

    def run_queued(self, until: Task) -> None:
        """Run this stream's queued work, in order, on the calling thread, which is about to
        wait for it anyway, up to ``until`` — as long as the worker has not started it and
        nothing it depends on is pending.  The order and the results are the worker's; the
        waiter just does not sleep through two thread switches (the worker's wake-up, then
        its own) after a launch it synchronizes at once."""
        if until.finished:
            return
        while True:
            with self.lock:
                if self.busy or not self.items:
                    return
                task = self.items[0]
                # Host callbacks stay on the stream's own thread (HIP runs them on a runtime thread).
                if (task is None or (task.info or {}).get("cat") == "callback"
                        or any(not d.finished for d in task.deps)):
                    return
                self.items.popleft()
                self.busy = True
            self.run_taken(task)
            if task is until:
                return


def _raise_from_task(exc: BaseException, op: str, where: str) -> None:
    # (A task running several operations, a graph's run of small nodes, names the one that failed.)
    prefix = f"{getattr(exc, 'rocmath_op', op)} on {where}: "
    if isinstance(exc, RocmathError):
        raise type(exc)(prefix + exc.message, arg=exc.arg, index=exc.index) from exc
    raise LaunchFailureError(f"{prefix}{type(exc).__name__}: {exc}") from exc


def _worker(state: _State) -> None:
    _local.state = state
    while True:
        with state.cond:
            while not state.items or state.busy:
                state.cond.wait()
            task = state.items.popleft()
            if task is None:
                return
            state.busy = True
        for dep in task.deps:
            dep.wait_finished()
        state.run_taken(task)


#: A finished task's dependencies: none (its own are let go).
_NO_DEPS: tuple[Task, ...] = ()


def _failed(state: _State, task: Task, exc: BaseException) -> None:
    """``task`` raised ``exc``: the stream's pending error, if it has none yet."""
    # The error outlives the task (the stream's last task keeps it): its frames must not keep
    # the kernel's views, and with them device allocations, alive.
    task.error = without_frames(exc)
    with state.cond:
        if state.error is None:
            state.error = (exc, task)
    _record_last_error(state.device, exc)


def _timed_run(state: _State, task: Task) -> None:
    """Run ``task`` with its start and end times, for the timeline and the profile logging layer."""
    info = task.info
    task.start_ns = time.perf_counter_ns()
    try:
        task.fn()
    except BaseException as exc:
        _failed(state, task, exc)
    task.end_ns = time.perf_counter_ns()
    if info is not None and "profile" in info:
        table, key = info["profile"]
        props = state.device.properties
        table.ran(key, task.end_ns - task.start_ns, 1e9 * _model_seconds(info, props), props.name)
    if _trace._recorders:  # (trace.recording(), without the call on every task)
        _record(state, task)


def _model_seconds(info: dict[str, Any], props: Any) -> float:
    from .roofline import model_seconds

    return model_seconds(info.get("flops", 0.0), info.get("bytes", 0.0), info.get("dtype"), props)


def _record(state: _State, task: Task) -> None:
    info = dict(task.info or {})
    cat = info.pop("cat", "work")
    info.pop("profile", None)
    if cat == "kernel" and (info.get("flops") or info.get("bytes")):
        props = state.device.properties
        info[f"roofline model us ({props.name})"] = round(1e6 * _model_seconds(info, props), 3)
    if task.error is not None:
        info["error"] = type(task.error).__name__
    dev = state.device
    _trace.emit(task.name, cat, dev.index, _track(dev), state.ident, state.label, task.start_ns, task.end_ns, info)


def _record_wait(dev: _device.Device, what: str, start_ns: int) -> None:
    _trace.emit(f"wait: {what}", "host wait", dev.index, _track(dev), _trace.HOST_TID, "host", start_ns,
                time.perf_counter_ns())


def _track(dev: _device.Device) -> str:
    return f"device {dev.index} ({dev.properties.gcnArchName}, simulated)"


def _noop() -> None:
    return None


_last_error: dict[int, HipStatus | Any] = {}


def _async_status(exc: BaseException) -> Any:
    """The status asynchronous work that raised ``exc`` reports: what synchronize raises."""
    return status_of(exc) if isinstance(exc, RocmathError) else HipStatus.hipErrorLaunchFailure


def _record_last_error(device: _device.Device, exc: BaseException) -> None:
    _last_error[device.index] = _async_status(exc)


def get_last_error() -> Any:
    """The status of the last failed asynchronous operation on the current device, then reset
    (``hipGetLastError``).  ``HipStatus.hipSuccess`` when nothing failed."""
    return _last_error.pop(_device.get_device(), HipStatus.hipSuccess)


def peek_at_last_error() -> Any:
    """As :func:`get_last_error`, without resetting it (``hipPeekAtLastError``)."""
    return _last_error.get(_device.get_device(), HipStatus.hipSuccess)


def _finalize_state(state: _State) -> None:
    with state.cond:
        state.items.append(None)
        state.cond.notify()


class Stream:
    """An ordered queue of device work (``hipStream_t``).

    Parameters
    ----------
    device
        The device whose work it queues (the current device when None).
    non_blocking
        As ``hipStreamNonBlocking``: do not synchronize with the null stream.
    priority
        Kept for the API (``hipStreamCreateWithPriority``); all priorities run alike.

    Use as a context manager to make it the current stream of the calling thread::

        with rocmath.Stream() as s:
            x = rocmath.to_device(a)   # enqueued on s
        s.synchronize()
    """

    _state: _State

    def __init__(self, device: int | None = None, *, non_blocking: bool = False, priority: int = 0):
        dev = _device.get_device_object(device)
        ident = next(_ids)
        self._init(dev, _State(dev, ident, non_blocking, f"stream {ident} of device {dev.index}"))
        self.priority = priority
        with dev._lock:
            if dev.streams is None:
                dev.streams = weakref.WeakSet()
            dev.streams.add(self._state)  # the state outlives the Stream while its worker has work
        weakref.finalize(self, _finalize_state, self._state)

    def _init(self, dev: _device.Device, state: _State) -> None:
        self._state = state
        self.device = dev
        self.priority = 0

    @classmethod
    def _make_null(cls, dev: _device.Device) -> Stream:
        s = cls.__new__(cls)
        s._init(dev, _State(dev, 0, False, f"the null stream of device {dev.index}"))
        return s

    # -- identity --------------------------------------------------------------------------

    @property
    def is_null(self) -> bool:
        return self._state.ident == 0

    @property
    def ident(self) -> int:
        """A small integer naming the stream (0 for the null stream)."""
        return self._state.ident

    @property
    def non_blocking(self) -> bool:
        return self._state.non_blocking

    def __repr__(self) -> str:
        return f"<rocmath Stream: {self._state.label}>"

    def _check_alive(self) -> None:
        if self._state.destroyed:
            raise HipInvalidHandleError(f"{self._state.label} was destroyed", arg="stream")
        if self.device.retired:
            raise HipInvalidHandleError(f"{self._state.label}: its device was replaced by rocmath.configure",
                                        arg="stream")

    # -- enqueue ---------------------------------------------------------------------------

    def enqueue(self, fn: Callable[[], Any], name: str, *, deps: Iterable[Task] = (), keep: Any = None,
                always_run: bool = False, inline: bool = False, info: dict[str, Any] | None = None) -> Task:
        """Queue ``fn`` to run after all earlier work on this stream; returns its :class:`Task`.

        ``always_run`` work (callbacks, event records) runs even when the stream has a pending error.
        ``inline`` work (small kernels and copies) runs at once on the calling thread when the
        stream is idle and nothing it must wait for is pending: the order is the same as through
        the worker, and a tiny call does not pay for two thread switches.  ``info`` is what the
        timeline (:mod:`rocmath.trace`) shows: its category (``"cat"``) and arguments.

        On a capturing stream nothing is queued: the work becomes a node of the capture's graph and
        a :class:`rocmath.graph.CapturedTask` is returned (see :mod:`rocmath.graph`).
        """
        state = self._state
        dev = self.device
        if state.slow or dev.retired:
            self._check_alive()
            if state.capture is not None and info is not _OUTSIDE_CAPTURE:
                from . import graph

                return graph.captured_enqueue(self, fn, name, deps, keep, always_run, inline, info)
            if state.capture_blockers:
                from . import graph

                graph.check_null_stream(state, name, info)
        if inline and not deps:
            task = self.run_now(fn, name, info)
            if task is not None:
                return task
        # Two locks taken with acquire/release: this runs on every launch, and a ``with`` block
        # costs twice as much (200 against 90 ns here).
        dev_lock, lock = dev._lock, state.lock
        dev_lock.acquire()
        try:
            wait_for = [t for t in deps if not t.finished] if deps else []
            _implicit_waits(state, dev, wait_for)
            task = Task(fn, name, wait_for, keep, state, info, always_run)
            lock.acquire()
            try:
                if state.thread is None:
                    state.start()
                state.items.append(task)
                state.cond.notify()
                state.last = task
            finally:
                lock.release()
        finally:
            dev_lock.release()
        return task

    def run_now(self, fn: Callable[[], Any], name: str, info: dict[str, Any] | None = None) -> Task | None:
        """Run ``fn`` at once on the calling thread, in the stream's order, if the stream is idle
        and nothing it must wait for is pending (no error either, no capture); its finished (or
        failed) :class:`Task`, or None when the work must be queued (:meth:`enqueue`) instead.
        The inline case of :meth:`enqueue`, called directly by replays of small launches: a tiny
        call then does not pay for two thread switches, nor for the queue."""
        state = self._state
        dev = self.device
        if state.slow or dev.retired or not _INLINE:
            return None
        dev_lock, lock = dev._lock, state.lock
        dev_lock.acquire()
        try:
            if state.ident == 0 or not state.non_blocking:
                waits: list[Task] = []
                _implicit_waits(state, dev, waits)
                if waits:
                    return None
            lock.acquire()
            try:
                if state.items or state.busy or state.error is not None:
                    return None
                state.busy = True
                state.last = task = Task(fn, name, _NO_DEPS, None, state, info)
            finally:
                lock.release()
        finally:
            dev_lock.release()
        state.run_taken(task)
        return task

    def synchronize(self) -> None:
        """Wait for all work queued so far; raise the first error it hit (then clear it)."""
        state = self._state
        if state.destroyed or self.device.retired:
            self._check_alive()
        if _capturing and state.ident:
            from . import graph

            graph.check_stream_sync(state, "synchronize")
        if _memory._deferred or _graph_released:
            _memory_safe_point()
        t0 = time.perf_counter_ns() if _trace._recorders else 0
        state.wait_idle()
        if t0:
            _record_wait(self.device, f"synchronize {self._state.label}", t0)
        if state.error is not None:
            state.raise_pending()
        _after_sync(self.device)

    def query(self) -> bool:
        """True when all queued work has run (``hipStreamQuery`` success), False when not ready."""
        self._check_alive()
        if _capturing and self._state.ident:
            from . import graph

            graph.check_stream_sync(self._state, "query")
        last = self._state.last
        return last is None or last.finished

    def wait_event(self, event: Event) -> None:
        """Make later work on this stream wait for the work ``event`` marks (``hipStreamWaitEvent``).

        An event recorded on a capturing stream makes this stream join the capture (its later work is
        captured after the event's nodes); see :mod:`rocmath.graph`."""
        if not isinstance(event, Event):
            raise HipInvalidHandleError("expected an Event", arg="event")
        if _capturing:
            from . import graph

            if graph.wait_event(self, event):
                return
        task = event._task
        if task is not None:
            # On a capturing stream the wait is the stream's own, not the graph's (as in HIP).
            self.enqueue(_noop, "wait_event", deps=[task], info=_OUTSIDE_CAPTURE)

    def add_callback(self, callback: Callable[[Stream, Any, Any], Any], user_data: Any = None) -> None:
        """Call ``callback(stream, status, user_data)`` on the host once earlier work is done
        (``hipStreamAddCallback``).  ``status`` is the stream's pending error status, if any."""
        me = weakref.ref(self)
        state = self._state

        def run() -> None:
            status = HipStatus.hipSuccess if state.error is None else _async_status(state.error[0])
            callback(me() or self, status, user_data)

        self.enqueue(run, f"callback {getattr(callback, '__name__', 'host function')}", always_run=True,
                     info={"cat": "callback"})

    def launch_host_func(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the host in stream order (``hipLaunchHostFunc``)."""
        self.enqueue(lambda: fn(*args), f"host function {getattr(fn, '__name__', '')}".strip(),
                     info={"cat": "callback"})

    def destroy(self) -> None:
        """Release the stream (``hipStreamDestroy``); queued work still completes."""
        if self.is_null:
            raise HipInvalidHandleError("the null stream cannot be destroyed", arg="stream")
        self._check_alive()
        if self._state.capture is not None:
            from . import graph

            graph.forget_stream(self._state)
        self._state.destroyed = True
        self._state.refresh_slow()
        _finalize_state(self._state)

    # -- capture (rocmath.graph) -----------------------------------------------------------------

    def begin_capture(self, mode: Any = 0) -> None:
        """Capture the stream's work into a graph instead of running it (``hipStreamBeginCapture``).

        Parameters
        ----------
        mode
            A :class:`rocmath.graph.CaptureMode` (or its value, or ``"global"``, ``"thread_local"``,
            ``"relaxed"``): which calls the capture forbids meanwhile.

        Raises
        ------
        StreamCaptureUnsupportedError
            On the null stream.
        IllegalStateError
            When the stream captures already.
        """
        from . import graph

        graph.begin_capture(self, mode)

    def end_capture(self) -> Any:
        """End the capture this stream began; returns its :class:`rocmath.graph.Graph`
        (``hipStreamEndCapture``).  See :func:`rocmath.graph.end_capture` for its errors."""
        from . import graph

        return graph.end_capture(self)

    def capture_status(self) -> Any:
        """The stream's :class:`rocmath.graph.CaptureStatus` (``hipStreamIsCapturing``)."""
        from . import graph

        return graph.capture_status(self)

    def is_capturing(self) -> bool:
        """Whether the stream captures (as CuPy's ``Stream.is_capturing``).

        Raises
        ------
        StreamCaptureInvalidatedError
            When its capture was invalidated.
        """
        from .errors import StreamCaptureInvalidatedError
        from .graph import CaptureStatus

        status = self.capture_status()
        if status is CaptureStatus.invalidated:
            raise StreamCaptureInvalidatedError(f"the capture on {self._state.label} was invalidated", arg="stream")
        return status is CaptureStatus.active

    # -- current stream ----------------------------------------------------------------------

    def __enter__(self) -> Stream:
        self._check_alive()
        stack = _stack()
        stack.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _stack().pop()


def _stack() -> list[Stream]:
    stack = _local.stack
    if stack is None:
        stack = _local.stack = []
    return stack


def current_stream() -> Stream:
    """The calling thread's current stream: the innermost ``with stream:`` of the current
    device, else that device's null stream."""
    dev = _device.get_device()
    for s in reversed(_stack()):
        if s.device.index == dev:
            return s
    return _device.get_device_object(dev).null_stream


def as_stream(stream: Any) -> Stream:
    """Normalise a stream argument: a Stream, None (current stream) or 0 (the null stream)."""
    if stream is None:
        return current_stream()
    if isinstance(stream, Stream):
        stream._check_alive()
        return stream
    if isinstance(stream, int) and not isinstance(stream, bool) and stream == 0:
        return _device.get_device_object().null_stream
    raise HipInvalidHandleError(f"not a stream: {stream!r}", arg="stream")


def null_stream(device: int | None = None) -> Stream:
    """The legacy null stream of ``device`` (current device when None)."""
    return _device.get_device_object(device).null_stream


def _implicit_waits(state: _State, dev: _device.Device, out: list[Task]) -> None:
    """Add to ``out`` the unfinished work of other streams that work queued on ``state`` now waits
    for (HIP's null-stream rules: the null stream waits for every blocking stream, a blocking
    stream for the null stream); called under the device lock."""
    if state.ident == 0:
        streams = dev.streams
        if streams is not None and streams.data:  # (WeakSet's own len() is Python code)
            for other in _live(streams):
                last = other.last
                if not other.non_blocking and last is not None and not last.finished:
                    out.append(last)
    elif not state.non_blocking and dev._null_stream is not None:
        last = dev._null_stream._state.last
        if last is not None and not last.finished:
            out.append(last)


def _live(states: Any) -> list[_State]:
    """The live members of a WeakSet of stream states.  Iterating the WeakSet itself runs a
    Python generator under an iteration guard (1-4 us, on every null-stream launch and
    synchronize); a copy of its set of references is one C call, safe from the removals the
    garbage collector may make meanwhile."""
    return [st for ref in states.data.copy() if (st := ref()) is not None]


def _device_states(dev: _device.Device) -> list[_State]:
    states = [dev.null_stream._state]
    if dev.streams is not None:
        states += _live(dev.streams)
    return states


def in_stream_work() -> bool:
    """Whether this thread is running a stream's work (a worker, or a caller running it inline)."""
    return _local.state is not None


def wait_device_idle(device: int) -> None:
    """Wait for all work on a device without raising its errors (used by ``free``).  During a stream
    capture it is an unsafe call (see :func:`rocmath.graph.check_unsafe`)."""
    if _capturing:
        from . import graph

        graph.check_unsafe("a free")
    for state in _device_states(_device.get_device_object(device)):
        state.wait_idle()


def _memory_safe_point() -> None:
    if _graph_released:
        release_graph_memory()
    _memory.release_deferred()


#: The info of the one wait a capturing stream queues for itself (on an event recorded outside a capture).
_OUTSIDE_CAPTURE: dict[str, Any] = {"cat": "wait"}


def defer_graph_release(frees: list[Callable[[], Any]], ptrs: list[int]) -> None:
    """Hand over the memory a graph kept (its deferred frees, its adopted workspaces) once nothing uses
    it: lock-free, as a finalizer must be; the next synchronize gives it back."""
    if frees or ptrs:
        _graph_released.append((frees, ptrs))


def release_graph_memory() -> None:
    """Give back the memory :func:`defer_graph_release` collected: run the frees, free the workspaces
    after the device's queued work (:func:`rocmath.memory.free_later`)."""
    while _graph_released:
        try:
            frees, ptrs = _graph_released.popleft()
        except IndexError:
            return
        for free in frees:
            try:
                free()
            except RocmathError as exc:  # freed twice meanwhile: nothing left to give back
                import warnings

                warnings.warn(f"rocmath: a graph's deferred free: {exc}", RuntimeWarning, stacklevel=2)
        for ptr in ptrs:
            _memory.free_later(ptr)


def _after_sync(dev: _device.Device) -> None:
    _mempool.synchronized(dev.index)
    if _memory._checking:
        _memory.check_all_guards(dev.index)


@atexit.register
def _drain_at_exit() -> None:
    # Workers are daemon threads: let queued work finish before the interpreter tears down
    # the modules (and numba) under a running kernel.
    for dev in _device._registry.devices or ():
        if not dev.retired:
            for state in _device_states(dev):
                last = state.last
                if last is not None:
                    last.wait_finished(timeout=60)


def device_synchronize(device: int | None = None) -> None:
    """Wait for all work on the device (``hipDeviceSynchronize``) and raise the first error.

    Every stream's pending error is cleared; the first is raised, the others are chained
    as its notes.
    """
    dev = _device.get_device_object(device)
    if _capturing:
        from . import graph

        graph.check_device_sync()
    _memory_safe_point()
    states = _device_states(dev)
    t0 = time.perf_counter_ns()
    for state in states:
        state.wait_idle()
    if _trace.recording():
        _record_wait(dev, f"device_synchronize {dev.index}", t0)
    errors: list[BaseException] = []
    for state in states:
        try:
            state.raise_pending()
        except RocmathError as exc:
            errors.append(exc)
    _after_sync(dev)
    if errors:
        first = errors[0]
        for other in errors[1:]:
            first.add_note(f"also: {other}")
        raise first


class Event:
    """A marker in a stream's work (``hipEvent_t``), with timing.

    Parameters
    ----------
    device
        The device (current device when None).
    timing
        False is ``hipEventDisableTiming``: :func:`elapsed_time` then refuses it.
    """

    def __init__(self, device: int | None = None, *, timing: bool = True):
        self.device = _device.get_device_object(device)
        self.timing = timing
        self._task: Task | None = None
        self._time_ns = 0
        self._state: _State | None = None  # the stream it was last recorded on
        self._captured: Any = None  # (capture, its nodes) when last recorded during a capture

    def record(self, stream: Any = None) -> Event:
        """Mark all work queued on ``stream`` so far (``hipEventRecord``).  On a capturing stream the event
        marks the capture's current nodes instead (a captured event, which other streams may wait on to
        join the capture)."""
        s = as_stream(stream)
        if s._state.capture is not None:
            from . import graph

            graph.record_event(self, s)
            return self
        holder: list[int] = [0]

        def mark() -> None:
            holder[0] = time.perf_counter_ns()
            self._time_ns = holder[0]

        self._time_ns = 0
        self._task = s.enqueue(mark, "event record", always_run=True, info={"cat": "event"})
        self._state, self._captured = s._state, None
        return self

    def synchronize(self) -> None:
        """Wait until the marked work is done; raise the stream's pending error."""
        if _capturing:
            from . import graph

            graph.check_event_sync(self, query=False)
        if self._task is not None:
            if _local.state is not self._task.state:
                self._task.state.run_queued(self._task)
            self._task.wait_finished()
            self._task.state.raise_pending()

    def query(self) -> bool:
        """True when the marked work is done (or the event was never recorded)."""
        if _capturing:
            from . import graph

            graph.check_event_sync(self, query=True)
        return self._task is None or self._task.finished

    def __repr__(self) -> str:
        done = self._task is None or self._task.finished  # (not query(): a repr must not invalidate a capture)
        return f"<rocmath Event on device {self.device.index}, {'done' if done else 'pending'}>"


def elapsed_time(start: Event, end: Event) -> float:
    """Milliseconds between two recorded events (``hipEventElapsedTime``).

    Raises
    ------
    HipInvalidHandleError
        If either event was never recorded or was made with ``timing=False``.
    NotReadyError
        If either event has not completed yet.
    """
    for name, ev in (("start", start), ("stop", end)):
        if not isinstance(ev, Event) or ev._task is None or not ev.timing:
            raise HipInvalidHandleError("event was not recorded with timing enabled", arg=name)
    if not (start._task.finished and end._task.finished):  # type: ignore[union-attr]
        raise NotReadyError("event has not completed yet", arg="stop")
    return (end._time_ns - start._time_ns) / 1e6
