"""How a rocSPARSE routine is written once and bound to its s/d/c/z names.

A routine is a :class:`Routine`: its C parameter list after the handle and one generic
implementation taking a :class:`Call`.  :func:`bind` makes the public function of one
precision, so each public name is one visible line::

    scsrmv = bind(CSRMV, S)

Every public function checks the handle first (after :attr:`Routine.before_handle`'s checks for the
few routines rocSPARSE checks something else first), then runs the routine's body: its
argument checks in rocSPARSE's order (the :class:`Call` helpers raise the status
exceptions naming the argument and its 1-based position), its quick returns, its
buffer sizing and its launch.  Kernels never check anything.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath
from rocmath.arguments import Arguments, bind_arguments
from rocmath.launch import Buffer, launch
from rocmath.plans import Plan, find_plan, planned_call, recorded
from rocmath.precision import Precision
from rocmath.stream import Task

from . import _debug
from ._handle import SparseHandle, check_handle
from ._types import (
    SparseInvalidHandleError,
    SparseInvalidPointerError,
    SparseInvalidSizeError,
    SparseInvalidValueError,
    as_enum,
)

__all__ = ["Call", "Routine", "bind", "is_null", "pointer_of"]

#: Index dtypes a legacy routine accepts from DeviceArrays (raw pointers are rocsparse_int, int32).
INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def is_null(value: Any) -> bool:
    """None or a 0 pointer."""
    if value is None:
        return True
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and int(value) == 0


def pointer_of(value: Any) -> int:
    """A device pointer argument (DeviceArray, int or None) as an int."""
    if value is None:
        return 0
    if isinstance(value, rocmath.DeviceArray):
        return value.ptr
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"expected a device pointer or DeviceArray, got {type(value).__name__}")


@dataclass(frozen=True)
class Routine:
    """A rocSPARSE routine, written once: its name without precision letter, its C parameters after
    the handle, its generic body and a one-line summary for the docstrings."""

    name: str
    params: tuple[str, ...]
    impl: Callable[[Call], Any]
    summary: str = ""
    #: Calls of one launch decided by their arguments alone (products) may be replayed
    #: (:mod:`rocmath.plans`); a call of several launches never is.
    replay: bool = False
    #: The checks rocSPARSE makes before its handle check (csrgemm_buffer_size's and csrgemm_nnz's of
    #: info_C), run when the handle is invalid so that their statuses come first; the body runs them
    #: itself otherwise (after ROCSPARSE_LAYER's trace, which rocSPARSE also writes first).
    before_handle: Callable[[Call], Any] | None = None


class Call(Arguments):
    """One call of a bound routine: its arguments and the checking helpers its body uses."""

    handle: SparseHandle

    # -- checks --------------------------------------------------------------------------------------

    def enum(self, name: str, cls: Any, allowed: tuple[Any, ...] | None = None) -> Any:
        return as_enum(cls, self.values[name], name, self.index(name), allowed)

    def size(self, name: str) -> int:
        """A size argument: an integer >= 0 (invalid_size otherwise)."""
        v = self.values[name]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise SparseInvalidSizeError(f"must be an integer, got {v!r}", arg=name, index=self.index(name))
        if v < 0:
            raise SparseInvalidSizeError(f"must be non-negative, got {v}", arg=name, index=self.index(name))
        return int(v)

    def invalid_size(self, name: str, why: str) -> SparseInvalidSizeError:
        return SparseInvalidSizeError(why, arg=name, index=self.index(name))

    def invalid_value(self, name: str, why: str) -> SparseInvalidValueError:
        return SparseInvalidValueError(why, arg=name, index=self.index(name))

    def invalid_pointer(self, name: str, why: str = "null pointer") -> SparseInvalidPointerError:
        return SparseInvalidPointerError(why, arg=name, index=self.index(name))

    def pointer(self, name: str) -> Any:
        """``ROCSPARSE_CHECKARG_POINTER``: the argument must not be null."""
        v = self.values[name]
        if is_null(v):
            raise self.invalid_pointer(name)
        return v

    def ptr(self, name: str) -> int:
        try:
            return pointer_of(self.values[name])
        except TypeError as exc:
            raise self.invalid_pointer(name, str(exc)) from None

    def check_array(self, name: str, length: int) -> None:
        """``ROCSPARSE_CHECKARG_ARRAY``: non-null when ``length > 0``."""
        if length > 0 and is_null(self.values[name]):
            raise self.invalid_pointer(name, f"null array of length {length}")

    def index_dtype(self, *names: str) -> np.dtype[Any]:
        """The index type of index arrays: a DeviceArray's own dtype (int32 or int64), else
        rocsparse_int (int32).  All of ``names`` must agree."""
        found = []
        for name in names:
            v = self.values[name]
            if isinstance(v, rocmath.DeviceArray):
                if v.dtype not in INDEX_DTYPES:
                    raise SparseInvalidValueError(f"index arrays must be int32 or int64, got {v.dtype}", arg=name,
                                                  index=self.index(name))
                found.append(v.dtype)
        if len(set(found)) > 1:
            raise SparseInvalidValueError("index arrays of different types", arg=names[-1],
                                          index=self.index(names[-1]))
        return found[0] if found else INDEX_DTYPES[0]

    # -- operands ------------------------------------------------------------------------------------

    def array(self, name: str, length: int, dtype: Any = None) -> Buffer:
        """A 1-D device array argument of ``length`` elements (checked when launched)."""
        dt = np.dtype(dtype or self.dtype)
        return Buffer(self.ptr(name) if length else 0, dt, (length,), name=name, owner=self.values[name])

    def scalar(self, name: str) -> Any:
        """A scalar for the kernel: a 1-element host array in host mode, a device view in device mode."""
        value = self.pointer(name)
        if self.host_mode:
            return np.array([host_scalar(value, self.dtype, name, self.index(name))], dtype=self.dtype)
        return Buffer(self.ptr(name), self.dtype, (1,), name=name, owner=value)

    def host_value(self, name: str) -> Any:
        """The scalar's value in host mode (for the quick-return rules); None in device mode."""
        if not self.host_mode:
            return None
        return host_scalar(self.pointer(name), self.dtype, name, self.index(name))

    def alpha0_beta1(self) -> bool:
        """The products' quick return: host pointer mode with ``alpha == 0`` and ``beta == 1`` (the output
        stays as it is; device-mode scalars are never read on the host).  A null scalar takes no quick
        return: its own check comes later, as in rocSPARSE's quick-return functions."""
        return bool(self.host_mode and not is_null(self.values["alpha"]) and not is_null(self.values["beta"])
                    and self.host_value("alpha") == 0 and self.host_value("beta") == 1)

    # -- launching -----------------------------------------------------------------------------------

    def launch(self, kernel: Callable[..., Any], *args: Any, flops: float = 0.0, bytes: float = 0.0) -> Task:
        """Enqueue ``kernel(*args)`` on the handle's stream, named after the rocSPARSE function (recorded
        when the call may become a plan: :func:`rocmath.plans.planned_call`)."""
        return launch(kernel, *args, name=f"rocsparse_{self.fname}", stream=self.handle.stream, flops=flops,
                      bytes=bytes, record=recorded())

    def workspace(self, nbytes: int, dtype: Any, shape: tuple[int, ...], name: str = "workspace") -> Buffer:
        """Scratch device memory from the handle for this call."""
        ptr = self.handle.workspace(nbytes) if nbytes else 0
        return Buffer(ptr, np.dtype(dtype), shape, name=name)


def host_scalar(value: Any, dtype: np.dtype[Any], name: str, index: int) -> Any:
    """A host-mode scalar's value; a device pointer or DeviceArray given instead is invalid_pointer."""
    if isinstance(value, np.ndarray) and value.size >= 1:
        value = value.reshape(-1)[0]
    if isinstance(value, rocmath.DeviceArray) or (
            isinstance(value, (int, np.integer)) and not isinstance(value, bool) and _looks_like_pointer(int(value))):
        raise SparseInvalidPointerError(
            "a device pointer was given in host pointer mode; pass the value, or set device pointer mode",
            arg=name, index=index)
    try:
        return dtype.type(value)
    except (TypeError, ValueError):
        raise SparseInvalidPointerError(f"expected a number, got {type(value).__name__}", arg=name,
                                        index=index) from None


def _looks_like_pointer(value: int) -> bool:
    from rocmath.memory import address_space

    return value >= 1 << 44 and address_space.find(value) is not None


def bind(routine: Routine, precision: Precision | None, *, prefix: str | None = None) -> Callable[..., Any]:
    """Make the public function of one (routine, precision); ``precision=None`` for routines without
    a precision letter (``csrmv_clear``, ``csr2coo``...)."""
    names = ("handle", *routine.params)
    letter = prefix if prefix is not None else (precision.letter if precision is not None else "")
    fname = f"{letter}{routine.name}"

    def entry(*args: Any, **kwargs: Any) -> Any:
        if _debug.active:  # rocsparse_enable_debug_*: reports and a synchronization around the call
            return _debug.run(fname, args[0] if args else kwargs.get("handle"), lambda: call(*args, **kwargs))
        return call(*args, **kwargs)

    def call(*args: Any, **kwargs: Any) -> Any:
        key = None
        if routine.replay and not kwargs:
            key, plan = find_plan(fname, args)
            if plan is not None:
                plan.run(args)
                return None
        values = bind_arguments(fname, names, args, kwargs)
        try:
            handle = check_handle(values["handle"])
        except SparseInvalidHandleError:
            if routine.before_handle is not None:
                routine.before_handle(Call(fname, precision, names, values))
            raise
        if handle.layer_mode:  # ROCSPARSE_LAYER: trace, bench and profile (after the handle check, as rocSPARSE)
            from ._log import logged_call

            return logged_call(handle, fname, routine.name, letter, names, values,
                               lambda: routine.impl(Call(fname, precision, names, values)))
        c = Call(fname, precision, names, values)
        return planned_call(handle, key if c.host_mode else None, lambda: routine.impl(c),
                            lambda replay, out: Plan(replay, args, handle) if out is None else None)

    entry.__name__ = entry.__qualname__ = fname
    entry.__module__ = "rocmath.sparse"
    entry.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
    kind = f"Precision {precision.datatype}. " if precision is not None else ""
    entry.__doc__ = (f"rocsparse_{fname}({', '.join(names)})\n\n{routine.summary}\n\n"
                     f"{kind}Raises the rocSPARSE status exceptions of rocmath.sparse in rocSPARSE's check order; "
                     "see rocmath.sparse for the conventions.")
    return entry
