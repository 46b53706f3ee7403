"""What the library bindings (hipBLAS, hipFFT, hipSPARSE, hipSOLVER) share: their status scaffolding,
opaque handles, host out-parameters and the "write it or return it" convention.

- :class:`LibraryError` is the exception a library raises with a status of its own (hipSOLVER's
  ``HIPSOLVER_STATUS_INVALID_ENUM``...); :func:`library_table` builds a library's
  :class:`~rocmath.hip._api.StatusTable` from its statuses and its conversion of the rocm
  library's statuses underneath; :func:`error_factory` the ``error`` callable the helpers
  below report bad host pointers through.

- :class:`Opaque` is a C handle (``hipfftHandle``, ``hipsparseMatDescr_t``,
  ``hipsolverHandle_t``...): an address in the HIP runtime's handle registry standing for
  a rocmath object, so it converts like any hip-python pointer (an ``int``, a
  ``ctypes.c_void_p`` a Create function wrote, a ``Pointer.createRef()``).
- :func:`host_bytes_at`, :func:`read_host` and :func:`write_host` reach the host memory
  behind a pointer argument the way C would dereference it: a Python buffer, a raw host
  address, pinned or managed rocmath memory.  Failures are raised through the caller's
  ``error`` factory, so each library reports them with its own status.
- :func:`stream_of` converts a ``hipStream_t`` argument, reporting a bad one through the
  caller's ``error`` factory.
- :func:`c_integer` converts an integer argument as hip-python's Cython bindings convert it to
  its C type (``int``, ``int64_t``, ``long long``, ``size_t``, ``signed char``...): ``TypeError``
  for a non-integer, ``OverflowError`` naming the argument for a value the type cannot hold,
  raised before the library looks at anything (Cython converts typed arguments on entry).
- :func:`out_parameter` gives a function with one C out-parameter both of hip-python's
  forms: given a pointer, the value is written through it and ``(status,)`` returned;
  called without it, ``(status, value)`` is returned (as ``rocm.bindings`` does for
  out-parameters).
"""

from __future__ import annotations

import ctypes
import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from rocmath.errors import HipError, LaunchFailureError, MemoryAccessFault, RocmathError
from rocmath.memory import MemoryKind, address_space

from . import hip as _hip
from ._api import StatusTable, binding
from ._types import _C_BOUNDS as INT_BOUNDS
from ._types import Pointer, host_bytes, pointer_value, resolve
from ._types import _c_int as c_int
from ._types import _c_typed as c_integer

__all__ = [
    "INT_BOUNDS", "LibraryError", "Opaque", "c_double", "c_int", "c_integer", "error_factory", "find", "host_bytes_at",
    "library_table", "out_parameter", "out_parameters", "read_host", "stream_of", "target_of", "write_host",
]

#: Builds the exception a library raises for a bad host pointer: ``error(message, arg)``.
ErrorFactory = Callable[[str, str], BaseException]


def call_arguments(name: str, names: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments by name, in ``names`` order, from positions and keywords as a Cython ``def`` function
    takes them (hip-python's functions are): ``TypeError`` for too many, unknown, repeated or missing ones."""
    if len(args) > len(names):
        raise TypeError(f"{name}() takes {len(names)} arguments ({len(args)} given)")
    given = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names or key in given:
            raise TypeError(f"{name}() got an unexpected or repeated argument '{key}'")
        given[key] = value
    missing = [n for n in names if n not in given]
    if missing:
        raise TypeError(f"{name}() missing argument(s): {', '.join(missing)}")
    return {n: given[n] for n in names}


def c_double(value: Any, arg: str) -> float:
    """A C ``double`` argument, as Cython converts it: anything with ``__float__`` (TypeError otherwise)."""
    if isinstance(value, (str, bytes, bytearray)) or not hasattr(type(value), "__float__"):
        raise TypeError(f"must be real number, not {type(value).__name__} (argument '{arg}')")
    return float(value)


# --- statuses -----------------------------------------------------------------------------------------------


class LibraryError(RocmathError):
    """A failure a hip library reports with a status of its own (``status``, a member of its status enum).

    Each library subclasses it once, its class attribute ``status`` (the default) fixing the enum.
    """

    def __init__(self, status: Any, message: str = "", *, arg: str | None = None):
        self.status = status  # type: ignore[misc]
        super().__init__(message, arg=arg)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), int(self.status), self.message, self.arg))


def _rebuild(cls: type[LibraryError], status: int, message: str, arg: str | None) -> LibraryError:
    return cls(type(cls.status)(status), message, arg=arg)


def error_factory(cls: type[LibraryError], status: Any) -> ErrorFactory:
    """``error(message, arg)``: a ``cls`` failure with ``status`` (what the host-pointer helpers raise)."""

    def error(message: str, arg: str) -> LibraryError:
        return cls(status, message, arg=arg)

    return error


def library_table(success: Any, *, error: type[LibraryError], execution_failed: Any, alloc_failed: Any,
                  internal_error: Any, backend: type[RocmathError] | None = None,
                  convert: Callable[[Any], Any] | None = None,
                  hip: Callable[[HipError], Any] | None = None) -> StatusTable:
    """A library's status table: which status each rocmath exception stands for.

    Parameters
    ----------
    success
        The status of a call that raised nothing.
    error
        The library's own failures: they carry their status.
    execution_failed
        A kernel that would fault (on a GPU the program would crash; here the call fails).
    alloc_failed
        Memory exhaustion (``MemoryError``, device or host).
    internal_error
        Anything else.
    backend, convert
        The failures of the rocm library underneath (rocBLAS's, rocSPARSE's) and the library's
        conversion of their status (none: hipFFT converts rocFFT's where it calls rocFFT).
    hip
        Other HIP runtime failures' status (default ``internal_error``).

    Returns
    -------
    StatusTable
        The table :func:`~rocmath.hip._api.binding` consults: the library's own failures, the
        backend's, faults, memory exhaustion, other HIP failures, anything else.
    """

    def status(exc: BaseException) -> Any:
        if isinstance(exc, error):
            return exc.status
        if backend is not None and isinstance(exc, backend):
            assert convert is not None
            return convert(exc.status)
        if isinstance(exc, (MemoryAccessFault, LaunchFailureError)):
            return execution_failed
        if isinstance(exc, MemoryError):
            return alloc_failed
        if isinstance(exc, HipError) and hip is not None:
            return hip(exc)
        return internal_error

    return StatusTable(success, status)


# --- opaque handles -------------------------------------------------------------------------------


class Opaque(Pointer):
    """An opaque C handle standing for a rocmath object (its :attr:`target`).

    Created handles are registered in the HIP runtime's handle registry, so the address
    alone (an ``int``, a ``ctypes.c_void_p``...) finds the object again; :meth:`release`
    unregisters it.
    """

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self.target: Any = None

    @classmethod
    def new(cls, target: Any) -> Opaque:
        """Register ``target`` under a fresh address."""
        obj = cls()
        obj.target = target
        obj._ptr = _hip._register(obj)
        return obj

    def release(self) -> None:
        """Forget the handle (its address no longer designates anything)."""
        with _hip._handles_lock:
            if _hip._handles.get(self._ptr) is self:
                del _hip._handles[self._ptr]
        self.target = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object, _ptr={self._ptr}>"


def find(obj: Any, cls: type[Opaque]) -> Opaque | None:
    """The live registered handle of class ``cls`` an argument designates (None if it designates none)."""
    if isinstance(obj, cls) and obj.target is not None and _hip._handles.get(obj._ptr) is obj:
        return obj
    found = _hip._handles.get(pointer_value(obj))
    return found if isinstance(found, cls) and found.target is not None else None


def target_of(obj: Any, cls: type[Opaque]) -> Any:
    """What the library underneath receives for a handle argument: the rocmath object, None for
    NULL, or the raw address of anything else (the library's own check then rejects it, as the
    C library would reject a pointer that is not one of its objects)."""
    found = find(obj, cls)
    if found is not None:
        return found.target
    address = pointer_value(obj)
    return None if address == 0 else address


# --- host memory behind pointer arguments ------------------------------------------------------


def host_bytes_at(obj: Any, nbytes: int, arg: str, error: ErrorFactory) -> np.ndarray | None:
    """A writable uint8 view of ``nbytes`` of host memory a pointer argument designates (None for NULL).

    Raises (through ``error``) for device memory, for buffers too small and for addresses in
    the null page: C would fault there.
    """
    r = resolve(obj)
    if r.address == 0 and r.host is None:
        return None
    if r.host is not None:
        if r.host.nbytes < nbytes:
            raise error(f"host buffer holds {r.host.nbytes} bytes, needs {nbytes}", arg)
        return r.host[:nbytes]
    if r.device:
        alloc = address_space.find(r.address)
        if alloc is None or alloc.kind is MemoryKind.DEVICE or not alloc.live:
            raise error("a device pointer where the function reads or writes host memory", arg)
        offset = r.address - alloc.ptr
        if offset + nbytes > alloc.nbytes:
            raise error(f"{nbytes} bytes run past {alloc.describe()}", arg)
        return alloc.bytes_view(offset, nbytes)
    try:
        return host_bytes(r.address, nbytes, what=arg)
    except ValueError as exc:
        raise error(str(exc), arg) from None


def read_host(obj: Any, dtype: Any, count: int, arg: str, error: ErrorFactory) -> np.ndarray | None:
    """``count`` values of ``dtype`` behind a host pointer (a copy; None for NULL)."""
    dt = np.dtype(dtype)
    nbytes = count * dt.itemsize
    if type(obj) in _SCALAR_CTYPES and ctypes.sizeof(obj) >= nbytes:
        # A ctypes number (c_double alpha, c_int value): its own bytes, as C reads through its address,
        # without resolving it as a pointer argument (3 us of a hipblasDgemm, per scalar).
        return np.frombuffer(obj, np.uint8, nbytes).view(dt).copy()
    raw = host_bytes_at(obj, nbytes, arg, error)
    return None if raw is None else raw.view(dt).copy()


#: ctypes numbers read_host reads directly (not c_void_p and the string types: those are pointers).
_SCALAR_CTYPES = frozenset((ctypes.c_double, ctypes.c_float, ctypes.c_int8, ctypes.c_int16, ctypes.c_int32,
                            ctypes.c_int64, ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64))


def write_host(obj: Any, values: Any, dtype: Any, arg: str, error: ErrorFactory) -> None:
    """Store values through a host pointer (a ctypes scalar given one value is set directly); NULL raises."""
    dt = np.dtype(dtype)
    data = np.ascontiguousarray(np.asarray(values).astype(dt, copy=False).reshape(-1))
    if isinstance(obj, ctypes._SimpleCData) and data.size == 1 and dt.kind != "c":
        # One value into a ctypes scalar (c_int, c_size_t, c_void_p as a void**...): its value is the storage.
        # More values, or a complex one, go through its bytes (too few: an error, where C would overrun).
        obj.value = data[0].item()
        return
    raw = host_bytes_at(obj, data.nbytes, arg, error)
    if raw is None:
        raise error("null pointer", arg)
    raw[:] = data.view(np.uint8)


def stream_of(obj: Any, arg: str, error: ErrorFactory) -> Any:
    """The rocmath stream a ``hipStream_t`` argument designates (None: the null stream); a bad one is
    reported through ``error`` (each library's status for it: rocBLAS's invalid_value, hipFFT's
    INVALID_VALUE...)."""
    try:
        return _hip.as_stream(obj)
    except HipError as exc:
        raise error(str(exc), arg) from exc


# --- out-parameters ----------------------------------------------------------------------------


def out_parameters(table: StatusTable, fn: Callable[..., Any], outs: dict[str, Any], error: ErrorFactory,
                   store: Callable[[Any], Any] = pointer_value, *, null_first: bool = True,
                   integers: dict[str, str] | None = None,
                   before: Callable[[dict[str, Any]], Any] | None = None) -> Callable[..., tuple[Any, ...]]:
    """Bind ``fn`` in both forms of its C out-parameters ``outs`` (name -> the C type's dtype).

    ``fn`` is an exception-style implementation whose parameters include the out-parameters
    (it ignores them) and which returns their values (a tuple when there are several).
    Called with every argument, the binding writes ``store(value)`` through each
    out-parameter and returns ``(status,)``; called without them (positionally: the others
    only), it returns ``(status, *values)``.  A NULL out-parameter is reported through
    ``error`` before ``fn`` runs, or with ``null_first=False`` after ``fn``'s own checks (a
    getter whose handle the C library checks first, as rocBLAS's do).  ``store`` defaults to the
    C value of handles, enums and integers alike (:func:`~rocmath.hip._types.pointer_value`).
    ``integers`` (parameter -> C type) are converted first, in parameter order, by :func:`c_integer`
    (Cython converts them on entry: their ``TypeError``/``OverflowError`` comes before any status, a
    NULL out-parameter's included); ``fn`` receives them converted.  ``before`` (given the arguments by name)
    runs ahead of the NULL out-parameter checks: a check the C library makes first (hipSOLVER's handle).
    """
    names = tuple(inspect.signature(fn).parameters)
    others = tuple(n for n in names if n not in outs)
    ints = dict(integers or {})

    def values_of(result: Any) -> tuple[Any, ...]:
        return tuple(result) if len(outs) > 1 else (result,)

    def written(*args: Any) -> None:
        given = dict(zip(names, args, strict=True))
        if before is not None:
            before(given)
        for name in outs if null_first else ():  # a ctypes scalar is storage here (its value is what it receives)
            if not isinstance(given[name], ctypes._SimpleCData) and pointer_value(given[name]) == 0:
                raise error("null pointer", name)
        for (name, dtype), value in zip(outs.items(), values_of(fn(*args)), strict=True):
            write_host(given[name], store(value), dtype, name, error)

    def returned(*args: Any) -> Any:
        given = dict(zip(others, args, strict=True))
        return fn(*(given.get(n) for n in names))

    for wrapper in (written, returned):
        functools.update_wrapper(wrapper, fn)
    with_outs, without_outs = binding(table)(written), binding(table, len(outs))(returned)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        full = len(args) + len(kwargs) == len(names)
        given = dict(zip(names if full else others, args, strict=False))
        for key, value in kwargs.items():
            if key not in names or key in given:
                raise TypeError(f"{fn.__name__}() got an unexpected or repeated argument '{key}'")
            given[key] = value
        for name in (n for n in names if n in ints and n in given):
            given[name] = c_integer(given[name], name, ints[name])
        if all(n in given for n in names) and len(args) <= len(names):
            return with_outs(*(given[n] for n in names))
        if all(n in given for n in others) and not any(n in given for n in outs):
            return without_outs(*(given[n] for n in others))
        raise TypeError(f"{fn.__name__}() takes {len(others)} arguments, or {len(names)} with the "
                        f"out-parameters {', '.join(outs)} ({len(args) + len(kwargs)} given)")

    call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
    return call


def out_parameter(table: StatusTable, fn: Callable[..., Any], out: str, dtype: Any,
                  error: ErrorFactory) -> Callable[..., tuple[Any, ...]]:
    """:func:`out_parameters` for one out-parameter."""
    return out_parameters(table, fn, {out: dtype}, error)
