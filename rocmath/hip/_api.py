"""The one place where rocmath exceptions become binding status tuples.

Inside rocmath every failure is an exception.  hip-python functions instead return a
tuple ``(status, *outputs)``; :func:`binding` wraps an implementation written in the
exception style and produces that tuple, with each library's status table
(:class:`StatusTable`) deciding which status an exception stands for.

Exceptions outside the table's families (``TypeError`` for a plain int given to an
enum parameter, bugs) propagate, as they do from hip-python's own argument checks.
The exception behind the last failed call of the thread is kept
(:func:`last_exception`), and ``ROCMATH_HIP_TRACE=1`` prints each one, so a status
never hides its message.
"""

from __future__ import annotations

import enum
import functools
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rocmath.errors import RocmathError, without_frames

__all__ = ["StatusTable", "binding", "last_exception"]

_local = threading.local()
_TRACE = os.environ.get("ROCMATH_HIP_TRACE", "0").lower() not in ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class StatusTable:
    """How one library reports failures.

    Attributes
    ----------
    success
        The status of a call that raised nothing.
    convert
        Exception -> status, for the exception families in ``catches``.
    catches
        The exception types that become statuses (others propagate).
    on_failure
        Called with each failure status (the HIP runtime records its last error).
    """

    success: enum.IntEnum
    convert: Callable[[BaseException], enum.IntEnum]
    catches: tuple[type[BaseException], ...] = (RocmathError, MemoryError)
    on_failure: Callable[[enum.IntEnum], None] | None = field(default=None)


class PublicFunctions(dict[str, tuple[Callable[..., Any], "int | None"]]):
    """The hip-python functions a module writes exception-style, by name, with the number of values each
    returns after the status (None: the function returns its whole tuple itself), for its ``*_api`` function
    to bind.  Calling it with that number gives the decorator that registers a function."""

    def __call__(self, outputs: int | None = 0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
            self[fn.__name__] = (fn, outputs)
            return fn

        return mark


def last_exception() -> BaseException | None:
    """The exception behind the calling thread's last failed binding call (None if none failed)."""
    return getattr(_local, "exc", None)


def binding(table: StatusTable, outputs: int = 0) -> Callable[[Callable[..., Any]], Callable[..., tuple[Any, ...]]]:
    """Decorate an exception-style implementation into a hip-python function.

    The implementation returns nothing (``outputs=0``), one value, or a tuple of
    ``outputs`` values; the binding returns ``(status, *values)``, with None for each
    value when the call failed.
    """

    def wrap(fn: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
            try:
                out = fn(*args, **kwargs)
            except table.catches as exc:
                status = table.convert(exc)
                _local.exc = without_frames(exc)
                if _TRACE:
                    sys.stderr.write(f"[rocmath.hip] {fn.__name__}: {status.name}: {type(exc).__name__}: {exc}\n")
                if table.on_failure is not None:
                    table.on_failure(status)
                return (status, *([None] * outputs))
            if outputs == 0:
                return (table.success,)
            if outputs == 1:
                return (table.success, out)
            return (table.success, *out)

        return call

    return wrap
