"""The base library handle: stream, pointer mode, workspace and logging flags.

rocBLAS, rocSOLVER, rocSPARSE and rocFFT handles specialise :class:`Handle`.
A handle owns all mutable library state (nothing in rocmath depends on a module
global), binds to the device current when it is made, and, like a rocBLAS handle,
is meant to be used by one host thread at a time.

Workspace follows rocBLAS's model: by default the handle manages it, one buffer
per (handle, stream), grown on demand with stream-ordered frees so work already
queued keeps its buffer; :meth:`Handle.set_workspace` hands it user memory
instead; between :meth:`Handle.start_device_memory_size_query` and
:meth:`Handle.stop_device_memory_size_query` calls only report what they would need.
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import os
import weakref
from collections.abc import Iterator
from typing import Any

from . import device as _device
from . import memory as _memory
from .errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasSizeQueryMismatchError,
    RocblasStatus,
)
from .log import Logger, ProfileTable
from .stream import Stream, as_stream


class PointerMode(enum.IntEnum):
    """Where scalars (alpha, beta, results) live: ``rocblas_pointer_mode``."""

    host = 0
    device = 1


class AtomicsMode(enum.IntEnum):
    """``rocblas_atomics_mode``; rocmath's default is ``not_allowed`` (bitwise reproducible)."""

    not_allowed = 0
    allowed = 1


class LayerMode(enum.IntFlag):
    """``rocblas_layer_mode`` logging bits."""

    none = 0
    log_trace = 1
    log_bench = 2
    log_profile = 4


WORKSPACE_ALIGN = 64


def c_strtol(text: str, unsigned: bool = False, base: int = 0) -> int:
    """``strtol(text, nullptr, base)`` (``strtoul`` if ``unsigned``), ``base`` 0 or 10, as C libraries
    read their environment: leading blanks, a sign, then with ``base`` 0 ``0x`` hexadecimal, ``0``
    octal or decimal digits (with ``base`` 10 decimal digits only) up to the first other character
    (``"2junk"`` is 2, ``"08"`` is 0 in base 0, no digits 0).  Out of range values saturate as in C
    (a 64-bit ``long``); ``strtoul`` wraps a negative value modulo 2**64."""
    t = text.lstrip(" \t\n\v\f\r")
    negative = t[:1] == "-"
    t = t[1:] if t[:1] in "+-" else t
    digits = "0123456789"
    if base == 0:  # the prefix tells
        if t[:2].lower() == "0x" and t[2:3] and t[2:3].lower() in "0123456789abcdef":
            base, digits, t = 16, "0123456789abcdef", t[2:]
        elif t[:1] == "0":
            base, digits = 8, "01234567"
        else:
            base = 10
    end = 0
    while end < len(t) and t[end].lower() in digits:
        end += 1
    value = int(t[:end], base) if end else 0
    if unsigned:
        if value > 2**64 - 1:
            return 2**64 - 1
        return (-value) % 2**64 if negative else value
    value = -value if negative else value
    return max(-(2**63), min(value, 2**63 - 1))


def _round(nbytes: int) -> int:
    return -(-int(nbytes) // WORKSPACE_ALIGN) * WORKSPACE_ALIGN


def _free_workspace(ptr: int, stream: Stream) -> None:
    """Give a workspace buffer back in the order of the stream that used it; if that stream
    was destroyed meanwhile, free it at once (``free`` waits for the work still queued)."""
    if stream._state.destroyed:
        _memory.free(ptr)
    else:
        _memory.free_async(ptr, stream)


def _release_workspaces(workspaces: dict[int, tuple[int, int, Stream]], later: bool = False) -> None:
    """Free the workspaces (stream-ordered); ``later``: with :func:`rocmath.memory.free_later`, without
    blocking or taking a lock, as a dropped handle's finalizer must: the garbage collector runs it on
    whatever thread allocates, a stream's worker in the middle of a launch included."""
    for ptr, _, stream in workspaces.values():
        if not stream.device.retired:
            if later:
                _memory.free_later(ptr)
            else:
                _free_workspace(ptr, stream)
    workspaces.clear()


_live_handles: weakref.WeakSet[Handle] = weakref.WeakSet()
_versions = itertools.count(1)
_UNSET = object()


def release_handle_workspaces() -> None:
    """Give back the workspace every live handle manages (``rocmath.configure`` does, before
    it checks for live allocations): the handles become invalid with their devices, and memory
    a handle manages is not an allocation of the user's.  A workspace given with
    ``set_workspace`` is the user's and stays."""
    for h in list(_live_handles):
        h._release_workspaces()


class Versioned:
    """An object whose ``state_version`` changes whenever an attribute is set to another object
    (for a handle: stream, pointer mode, layers, workspace, destroy...; for a descriptor: its
    properties), drawn from one counter for all objects: what was decided on one state holds
    while the version stays the same (:mod:`rocmath.plans`).  Setting the object an attribute
    already holds (the array layers set their handle's stream on every call) changes nothing."""

    state_version = 0

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get(name, _UNSET) is value:
            return
        object.__setattr__(self, name, value)
        object.__setattr__(self, "state_version", next(_versions))


class Handle(Versioned):
    """State shared by one library's calls.

    Parameters
    ----------
    device
        Device the handle binds to (the current device when None).
    stream
        Initial stream (the device's null stream when None).

    Notes
    -----
    ``layer_env`` names the environment variable giving the initial logging
    layer (``ROCBLAS_LAYER`` for rocBLAS handles), and ``library`` the name used in
    log lines; subclasses override both.
    """

    library = "rocmath"
    layer_env = "ROCMATH_LAYER"

    def __init__(self, device: int | None = None, stream: Any = None):
        self.device = _device.get_device_object(device)
        self._stream: Stream = self.device.null_stream if stream in (None, 0) else as_stream(stream)
        self._pointer_mode = PointerMode.host
        self.atomics_mode = self._env_atomics_mode(os.environ.get("ROCBLAS_DEFAULT_ATOMICS_MODE"))
        self.layer_mode = self._env_layer_mode(os.environ.get(self.layer_env))
        self.logger = self._make_logger()
        self._workspaces: dict[int, tuple[int, int, Stream]] = {}
        self._user_workspace: tuple[int, int] | None = None
        self._query: int | None = None
        self._destroyed = False
        self._profile: ProfileTable | None = None
        # A handle dropped without destroy() still gives its workspace back.
        weakref.finalize(self, _release_workspaces, self._workspaces, True)
        _live_handles.add(self)

    # -- environment (subclasses apply their library's rules) ----------------------------------

    @staticmethod
    def _env_atomics_mode(text: str | None) -> AtomicsMode:
        """The initial atomics mode from ``ROCBLAS_DEFAULT_ATOMICS_MODE``: ``"1"`` allows them."""
        return AtomicsMode(int(text)) if text in ("0", "1") else AtomicsMode.not_allowed

    @staticmethod
    def _env_layer_mode(text: str | None) -> LayerMode:
        """The initial logging layers from ``layer_env`` (a Python integer literal; else none)."""
        try:
            return LayerMode(int(text or "0", 0) & 7)
        except ValueError:
            return LayerMode.none

    def _make_logger(self) -> Logger:
        return Logger(self.library)

    # -- lifecycle ----------------------------------------------------------------------------

    def check(self) -> None:
        """Raise if the handle was destroyed (the first check of every library call)."""
        if self._destroyed:
            raise RocblasInvalidHandleError("the handle was destroyed", arg="handle", index=1)
        if self.device.retired:
            raise RocblasInvalidHandleError("the handle's device was replaced by rocmath.configure",
                                            arg="handle", index=1)

    def destroy(self) -> None:
        """Release the handle and its workspace (stream-ordered); write its profile log."""
        self.check()
        self._release_workspaces()
        self._destroyed = True
        if self._profile is not None:
            with contextlib.suppress(Exception):  # pending errors belong to the next synchronize
                self.stream.synchronize()
            self._profile.flush(self.logger)

    def profile_table(self) -> ProfileTable:
        """The table of the profile logging layer (``log_profile``), written when the handle is
        destroyed (or collected, or at exit)."""
        if self._profile is None:
            self._profile = ProfileTable()
            weakref.finalize(self, self._profile.flush, self.logger)
        return self._profile

    def __enter__(self) -> Handle:
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._destroyed:
            self.destroy()

    # -- stream ---------------------------------------------------------------------------------

    @property
    def stream(self) -> Stream:
        """The stream the handle's work is queued on."""
        return self._stream

    def set_stream(self, stream: Any) -> None:
        """Queue later work on ``stream`` (None or 0 for the null stream)."""
        from .errors import HipInvalidHandleError, RocblasInvalidValueError

        self.check()
        try:
            s = self.device.null_stream if stream in (None, 0) else as_stream(stream)
        except HipInvalidHandleError as exc:  # rocblas_set_stream: an invalid stream is invalid_value
            raise RocblasInvalidValueError(exc.message, arg="stream") from exc
        if s.device is not self.device:
            raise RocblasInvalidValueError(
                f"stream belongs to device {s.device.index}, the handle to device {self.device.index}", arg="stream")
        self._stream = s

    def get_stream(self) -> Stream:
        self.check()
        return self._stream

    @contextlib.contextmanager
    def on_stream(self, stream: Any) -> Iterator[Handle]:
        """Run a block with the handle on ``stream``, restoring the previous stream after."""
        old = self._stream
        self.set_stream(stream)
        try:
            yield self
        finally:
            self._stream = old

    # -- pointer mode ------------------------------------------------------------------------

    @property
    def pointer_mode(self) -> PointerMode:
        return self._pointer_mode

    def set_pointer_mode(self, mode: Any) -> None:
        """Where scalars live from now on; as in rocBLAS the value is not validated beyond
        being a pointer mode (0 host, 1 device)."""
        self.check()
        try:
            self._pointer_mode = PointerMode(int(mode))
        except (ValueError, TypeError):
            # rocBLAS stores any value unchecked; refusing it here catches the bug at its source.
            raise RocblasInvalidValueError(f"{mode!r} is not a pointer mode (0 host, 1 device)", arg="mode") from None

    def get_pointer_mode(self) -> PointerMode:
        self.check()
        return self._pointer_mode

    @contextlib.contextmanager
    def use_pointer_mode(self, mode: Any) -> Iterator[Handle]:
        """Run a block in pointer mode ``mode``, restoring the previous mode after."""
        old = self._pointer_mode
        self.set_pointer_mode(mode)
        try:
            yield self
        finally:
            self._pointer_mode = old

    def set_atomics_mode(self, mode: Any) -> None:
        self.check()
        # rocBLAS stores any value (rocblas_set_atomics_mode: a C enum holds any int); only
        # not_allowed keeps its kernels off atomics.
        value = int(mode)
        self.atomics_mode = AtomicsMode(value) if value in AtomicsMode._value2member_map_ else value

    def get_atomics_mode(self) -> AtomicsMode | int:
        self.check()
        return self.atomics_mode

    # -- workspace ------------------------------------------------------------------------------

    def start_device_memory_size_query(self) -> None:
        """Begin a size query: later calls only report their workspace needs."""
        self.check()
        if self._query is not None:
            raise RocblasSizeQueryMismatchError("a device memory size query is already running")
        self._query = 0

    def stop_device_memory_size_query(self) -> int:
        """End a size query and return the largest workspace any call asked for, in bytes."""
        self.check()
        if self._query is None:
            raise RocblasSizeQueryMismatchError("no device memory size query is running")
        size, self._query = self._query, None
        return size

    def is_device_memory_size_query(self) -> bool:
        return self._query is not None

    def size_query(self, *nbytes: int) -> RocblasStatus | None:
        """Called by a routine before it allocates: during a query, record its need (each
        buffer rounded up to 64 bytes, then summed) and return ``size_increased`` or
        ``size_unchanged``, which the routine returns at once; otherwise None."""
        if self._query is None:
            return None
        need = sum(_round(n) for n in nbytes)
        if need > self._query:
            self._query = need
            return RocblasStatus.size_increased
        return RocblasStatus.size_unchanged

    def workspace(self, nbytes: int) -> int:
        """A device pointer to at least ``nbytes`` of scratch memory for work on the current stream.

        Raises
        ------
        RocblasMemoryError
            If the user-provided workspace is smaller than ``nbytes``.
        """
        self.check()
        if nbytes <= 0:
            return 0
        if self._user_workspace is not None:
            ptr, size = self._user_workspace
            if size < nbytes:
                raise RocblasMemoryError(
                    f"the workspace set with set_workspace holds {size} bytes; this call needs {nbytes}")
            return ptr
        key = self._stream.ident
        have = self._workspaces.get(key)
        if have is not None and have[1] >= nbytes:
            return have[0]
        size = _round(max(nbytes, 2 * have[1] if have else 0))
        if have is not None:
            _free_workspace(have[0], have[2])
        ptr = _memory.malloc_async(size, self._stream)
        if _memory.checking_enabled():
            _memory.memset_async(ptr, _memory.POISON_BYTE, size, self._stream)
        self._workspaces[key] = (ptr, size, self._stream)
        return ptr

    def _release_workspaces(self) -> None:
        _release_workspaces(self._workspaces)

    def set_workspace(self, ptr: int, nbytes: int) -> None:
        """Use ``nbytes`` of user memory at ``ptr`` as workspace; ``(0, 0)`` gives management back."""
        self.check()
        self._release_workspaces()
        if ptr and nbytes:
            try:
                _memory.address_space.span(int(ptr), 0, int(nbytes), op="set_workspace", arg="addr")
            except Exception as exc:
                raise RocblasInvalidPointerError(str(exc), arg="addr") from exc
            self._user_workspace = (int(ptr), int(nbytes))
        else:
            self._user_workspace = None

    def get_device_memory_size(self) -> int:
        """Bytes of workspace the handle holds for its current stream (or the user's size)."""
        self.check()
        if self._user_workspace is not None:
            return self._user_workspace[1]
        have = self._workspaces.get(self._stream.ident)
        return have[1] if have else 0

    def is_managing_device_memory(self) -> bool:
        return self._user_workspace is None
