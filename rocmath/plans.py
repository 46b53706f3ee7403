"""Replays of identical library calls: the plans a handle keeps.

A library call whose work is one launch, decided by its arguments and its handle's state
alone, is recorded (``launch(..., record=recorded())``) and kept on the handle as a :class:`Plan`,
keyed on the call's arguments, the second time the key comes (:func:`planned_call`); the
libraries' entry points look a call up with :func:`find_plan` first.  When the same
call comes again on the same handle state it runs its checked launch again
(:class:`rocmath.launch.Replay`): the argument checks, operand descriptions and address lookups
are not redone, only the liveness of the allocations the launch was checked against, and that
only when the address space's epoch moved (something was freed, pooled or handed out again, or
checking mode or the devices changed) since the plan was last found good.

What a plan depends on is in its key or checked before it runs: the argument values (device
arrays by pointer, objects with a ``state_version`` by identity and version) with their types,
the signs of floating zeros, the handle's state version (any attribute set to another object
changes it: stream, pointer mode, logging layers, modes, workspace, destroy), the device, the
memory checker, and the allocations (each in the use it had: a pool's block handed out again at
the same address is checked anew).  A call that read device data back and decided its launch by it
(rocBLAS's gemm copies alpha and beta to the host in device pointer mode) records what it read
(:func:`read_back`): its plan reads again before it runs, and runs only on the same values.
Plans hold no caller objects, so they never keep arrays or freed memory alive.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from . import memory as _memory
from .array import DeviceArray
from .launch import Replay
from .log import _current as _profiled

__all__ = ["PLAN_LIMIT", "Plan", "admit", "find_plan", "plan_key", "planned_call", "recorded", "remember",
           "read_back", "unreplayable"]

_space = _memory.address_space

#: Plans a handle keeps; past it the oldest goes (calls on ever new sub-arrays make new keys).
PLAN_LIMIT = 128

_PLAIN = frozenset((int, float, complex, str, bool, type(None)))


class Plan:
    """A checked call's launch, replayed when the same arguments come again on the same handle
    state (made on a live handle in host pointer mode without logging layers or checks), with
    what the call returned (``result``: a generic sparse routine's buffer size, or None).
    Floating zeros compare equal whatever their sign, so their signs are checked too."""

    __slots__ = ("epoch", "reads", "replay", "result", "version", "zeros")

    def __init__(self, replay: Replay, args: tuple[Any, ...], handle: Any, result: Any = None):
        self.replay = replay
        self.result = result
        self.version = handle.state_version
        self.zeros = _zero_signs(args)
        self.epoch = -1  # the address space's epoch its allocations and modes were last found good at
        self.reads: tuple[tuple[Callable[[], Any], Any], ...] = ()  # see read_back

    def matches(self, handle: Any, args: tuple[Any, ...]) -> bool:
        """Whether this plan may run for ``args`` (whose key, types included, it was found under) on
        ``handle`` now.  Its allocations, the device and checking mode are looked at only when the
        address space's epoch moved since they were last found good (a free, a pool's block
        handed out, a mode change): a replay in a loop does not walk them on every call."""
        if handle.state_version != self.version or _profiled.entry is not None:
            return False
        if self.epoch != _space.epoch:
            epoch = _space.epoch  # read first: a free during the look bumps it past this value
            if handle.device.retired or _memory._checking or not self.replay.usable():
                return False
            self.epoch = epoch
        # (A value that was not zero is not one now: the key holds it.  So only the positions of the
        # recorded zeros are looked at, not every argument: 4 -> 0.3 us of a replayed dgemv.)
        for i, neg_re, neg_im in self.zeros:
            z = complex(args[i])
            if (math.copysign(1.0, z.real) < 0) != neg_re or (math.copysign(1.0, z.imag) < 0) != neg_im:
                return False
        return not self.reads or self._reads_hold()

    def _reads_hold(self) -> bool:
        # Read back again now (after the work before it on the stream, as the call read it): any other
        # value, or an error (a freed pointer), and the call goes the first way, which reports it.
        for reread, value in self.reads:
            try:
                if reread() != value:
                    return False
            except Exception:
                return False
        return True

    def run(self, args: tuple[Any, ...]) -> Any:
        """Enqueue the launch again (``args`` stay alive until it ran); returns its task."""
        return self.replay.run(args)


def plan_key(name: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The key of a call of routine ``name``: the name, then the call's arguments after the handle as
    plain values (see :func:`_plain`), each after its type, in one flat tuple (``name, type, value,
    type, value, ...``; device arrays by pointer): numbers equal across types (2, 2.0,
    ``np.float32(2)``, True) make different keys, so a plan found under a key has its call's types.
    Flat, as nested tuples cost one each to make and to hash on every call.  Raises TypeError for an
    argument that cannot be part of a key (the call is then not replayed)."""
    key = [name]
    add = key.append
    for a in args[1:]:
        t = type(a)
        add(t)
        add(a if t in _PLAIN else a.ptr if t is DeviceArray else _plain(a))
    return tuple(key)


def remember(plans: dict[Any, Any], key: Any, plan: Any) -> None:
    """Keep ``plan`` under ``key``, dropping the oldest plan past :data:`PLAN_LIMIT`."""
    if len(plans) >= PLAN_LIMIT:
        del plans[next(iter(plans))]
    plans[key] = plan


class _Seen:
    """What a handle keeps for a key seen once: never matches."""

    __slots__ = ()

    def matches(self, handle: Any, args: tuple[Any, ...]) -> bool:
        return False


_SEEN = _Seen()


def admit(plans: dict[Any, Any], key: Any) -> bool:
    """Whether a first-path call under ``key`` is recorded as a plan: from the second time the key
    comes.  Calls that never repeat (an array layer's fresh outputs, new sub-arrays) then pay a
    dictionary entry instead of the making of a plan each."""
    if key in plans:
        return True
    remember(plans, key, _SEEN)
    return False


class _Recording(threading.local):
    """``recording.launches``: the list the launches of a call that may become a plan go to, per thread
    (None outside such a call: the class default; a missing attribute of a plain ``threading.local``
    read with ``getattr(..., None)`` costs a caught AttributeError, on every launch)."""

    launches: list[Any] | None = None
    reads: list[Any] | None = None  # the recorded call's read_back values


recording = _Recording()


def recorded() -> list[Any] | None:
    """The list the launches of the call being recorded go to (``launch(..., record=recorded())``),
    or None when no call is."""
    return recording.launches


def unreplayable() -> None:
    """The call being recorded depends on device data in a way no replay can check: it never becomes a plan."""
    launches = recorded()
    if launches is not None:
        launches.append(None)


def read_back(reread: Callable[[], Any], value: Any) -> None:
    """The call being recorded read device data back at the call and decided its launch by ``value`` (a
    scalar copied to the host, as rocBLAS's gemm copies alpha and beta in device pointer mode): a plan of
    it runs only while ``reread()``, called when the plan is about to run, gives a value equal to it
    (compare bytes: NaN and signed zeros).  ``reread`` must hold no caller objects."""
    reads = recording.reads
    if reads is not None:
        reads.append((reread, value))


def find_plan(name: str, args: tuple[Any, ...]) -> tuple[Any, Any]:
    """``(key, plan)`` for a call of routine ``name`` with positional ``args`` (a handle first): the key
    its plan is kept under (None: the call cannot be replayed) and the plan that may run for it now
    (None: none)."""
    plans = getattr(args[0], "_plans", None) if args else None
    if plans is None:
        return None, None
    try:
        key = plan_key(name, args)
        plan = plans.get(key)
    except TypeError:  # an argument that cannot be part of a key (a host array): not replayed
        return None, None
    if plan is None or recording.launches is not None:
        # (Inside a recorded call a nested one goes the first way: its launches and reads are the outer's.)
        return key, None
    return key, (plan if plan.matches(args[0], args) else None)


def planned_call(handle: Any, key: Any, call: Callable[[], Any], make: Callable[[Replay, Any], Plan | None]) -> Any:
    """``call()``; on the second sighting of ``key`` (:func:`admit`; None: never) without memory
    checks its launches are recorded, and a call of exactly one launch is kept as the plan
    ``make(replay, result)`` returns (None: not kept).  Launches of recorded calls nested inside
    go to the outer recording too, so that a call of several never becomes a plan."""
    if key is None or _memory._checking or not admit(handle._plans, key):
        return call()
    outer, outer_reads = recorded(), recording.reads
    recording.launches, recording.reads = launches, reads = [], []
    try:
        out = call()
    finally:
        recording.launches, recording.reads = outer, outer_reads
        if outer is not None:
            outer.extend(launches)
        if outer_reads is not None:
            outer_reads.extend(reads)
    replay = Replay.of(launches)
    plan = make(replay, out) if replay is not None else None
    if plan is not None:
        plan.reads = tuple(reads)
        remember(handle._plans, key, plan)
    return out


def _plain(a: Any) -> Any:
    """A plan must not keep the caller's objects alive: device arrays go in the key by pointer,
    int subclasses (enums, pointers that carry their owner along) as ints, numpy scalars as
    they are, objects with a ``state_version`` (descriptors) by identity and version (the
    version comes from one counter for all objects, so a new object at a freed one's address
    never matches), with the versions of the objects their ``versioned_parts()`` name; any
    other object raises TypeError."""
    if isinstance(a, DeviceArray):
        return a.ptr
    if isinstance(a, int):
        return int(a)
    if isinstance(a, (np.number, np.bool_)):
        return a
    version = getattr(a, "state_version", None)
    if version is not None:
        parts = getattr(a, "versioned_parts", None)
        if parts is not None:  # objects inside it (a sparse matrix's descriptor and analysis) change it too
            return type(a), id(a), version, *[p.state_version for p in parts()]
        return type(a), id(a), version
    raise TypeError(f"{type(a).__name__} arguments are not replayed")


def _zero_signs(args: tuple[Any, ...]) -> tuple[tuple[int, bool, bool], ...]:
    """(position, sign bits) of the floating-point zeros among ``args``."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, (float, complex, np.inexact)) and a == 0:
            z = complex(a)
            out.append((i, math.copysign(1.0, z.real) < 0, math.copysign(1.0, z.imag) < 0))
    return tuple(out)
