"""``hip.roctx``: roctracer's ROCTX annotations as hip-python 6.2 binds them, into rocmath's timeline.

``roctxMarkA(message)`` marks an instant; ``roctxRangePushA(message) -> (level,)`` opens a range
nested on the calling thread (levels from 0) and ``roctxRangePop() -> (level,)`` closes the
innermost one, returning its level, or -1 when the thread has none open; ``roctxRangeStartA(message)
-> (id,)`` opens a range with a process-wide id (from 1) that ``roctxRangeStop(id)`` closes, from any
thread.  ``roctxMarkA`` and ``roctxRangeStop`` return None, as the generated bindings of these
``void`` functions do.  The levels and ids are kept as roctracer keeps them (src/roctx/roctx.cpp),
whether or not anything records.

While a timeline records (:func:`rocmath.trace`, ``ROCMATH_TRACE``) the annotations appear on its
``host threads`` track, one row per host thread: marks as instant events, ranges as spans (a
start/stop range on the row of the thread that started it); otherwise they cost next to nothing.
``message`` is a ``str``, ``bytes``, a ``CStr``, None, or the address of a C string.
"""

from __future__ import annotations

import ctypes
import importlib
import itertools
import operator
import threading
import time
from typing import Any

from ._types import CStr, Pointer, pointer_value

# The timeline module (``rocmath.trace`` the attribute is its recording function).
_trace = importlib.import_module("rocmath.trace")

ROCTX_VERSION_MAJOR = 4
ROCTX_VERSION_MINOR = 1

_CAT = "roctx"
_PROCESS = "host threads"
_NULL_PAGE = 4096


class _Thread(threading.local):
    def __init__(self) -> None:
        self.ranges: list[tuple[str, int]] = []  # (message, start ns) of the open nested ranges


_local = _Thread()
_ids = itertools.count(1)
_started: dict[int, tuple[str, int, int, str]] = {}  # id -> (message, start ns, thread id, row)
_started_lock = threading.Lock()


def _text(message: Any) -> str:
    """A ``const char*`` argument as text (hip-python's CStr conversion)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    if isinstance(message, (bytes, bytearray, CStr)):
        return bytes(message).split(b"\0", 1)[0].decode("utf-8", "replace")
    if isinstance(message, (int, Pointer, ctypes.c_void_p, ctypes.c_char_p)):
        address = int(message.value or 0) if isinstance(message, ctypes.c_char_p) else pointer_value(message)
        if address == 0:
            return ""
        if address < _NULL_PAGE:
            raise ValueError(f"message 0x{address:x} is not a valid host address")
        return (ctypes.string_at(address) or b"").decode("utf-8", "replace")
    raise TypeError(f"unsupported input type for 'message': '{type(message)}'")


def _row() -> tuple[int, str]:
    return threading.get_native_id(), threading.current_thread().name


def roctx_version_major() -> tuple[int]:
    """``(ROCTX_VERSION_MAJOR,)``."""
    return (ROCTX_VERSION_MAJOR,)


def roctx_version_minor() -> tuple[int]:
    """``(ROCTX_VERSION_MINOR,)``."""
    return (ROCTX_VERSION_MINOR,)


def roctxMarkA(message: Any) -> None:
    """Mark an instant on the calling thread."""
    text = _text(message)
    if _trace.recording():
        tid, row = _row()
        _trace.instant(text, _CAT, _trace.HOST_PID, _PROCESS, tid, row, time.perf_counter_ns())


def roctxRangePushA(message: Any) -> tuple[int]:
    """Open a range nested on the calling thread; ``(level,)`` it starts at (0-based)."""
    text = _text(message)
    level = len(_local.ranges)
    _local.ranges.append((text, time.perf_counter_ns()))
    return (level,)


def roctxRangePop() -> tuple[int]:
    """Close the calling thread's innermost range; ``(level,)`` it was started at, ``(-1,)`` if none is open."""
    if not _local.ranges:
        return (-1,)
    text, start = _local.ranges.pop()
    if _trace.recording():
        tid, row = _row()
        _trace.emit(text, _CAT, _trace.HOST_PID, _PROCESS, tid, row, start, time.perf_counter_ns(),
                    {"level": len(_local.ranges)})
    return (len(_local.ranges),)


def roctxRangeStartA(message: Any) -> tuple[int]:
    """Open a process range (stoppable from any thread); ``(id,)``, unique in the process."""
    text = _text(message)
    range_id = next(_ids)
    tid, row = _row()
    with _started_lock:
        _started[range_id] = (text, time.perf_counter_ns(), tid, row)
    return (range_id,)


def roctxRangeStop(id: int) -> None:
    """Close the process range ``id`` (an unknown id is ignored)."""
    try:  # Cython's conversion of an ``unsigned long`` argument
        range_id = operator.index(id)
    except TypeError:
        raise TypeError(f"an integer is required for argument 'id', got {type(id).__name__}") from None
    if range_id < 0:
        raise OverflowError("can't convert negative value to unsigned long (argument 'id')")
    if range_id >= 1 << 64:
        raise OverflowError("value too large to convert to unsigned long (argument 'id')")
    with _started_lock:
        entry = _started.pop(range_id, None)
    if entry is not None and _trace.recording():
        text, start, tid, row = entry
        _trace.emit(text, _CAT, _trace.HOST_PID, _PROCESS, tid, row, start, time.perf_counter_ns(), {"id": range_id})


#: hip-python 6.2's ``roctx.__all__``.
__all__ = [
    "ROCTX_VERSION_MAJOR", "ROCTX_VERSION_MINOR", "roctx_version_major", "roctx_version_minor", "roctxMarkA",
    "roctxRangePushA", "roctxRangePop", "roctxRangeStartA", "roctxRangeStop",
]
