"""Exceptions mirroring the ROCm status codes.

Inside rocmath every failure is an exception whose ``.status`` is the ROCm status
enum member it stands for (``hipError_t`` for the runtime, ``rocblas_status`` for
the handle-based libraries).  Only the HIP compatibility layer turns exceptions
back into status tuples, through :func:`status_of`.

Argument errors name the argument (``arg``) and, where the C API has one, its
1-based position (``index``), as rocSPARSE's ``ROCSPARSE_CHECKARG`` does.
"""

from __future__ import annotations

import enum
import traceback
from typing import Any, ClassVar


class HipStatus(enum.IntEnum):
    """``hipError_t`` values (hip_runtime_api.h)."""

    hipSuccess = 0
    hipErrorInvalidValue = 1
    hipErrorOutOfMemory = 2
    hipErrorNotInitialized = 3
    hipErrorDeinitialized = 4
    hipErrorInvalidConfiguration = 9
    hipErrorInvalidSymbol = 13
    hipErrorInvalidDevicePointer = 17
    hipErrorInvalidMemcpyDirection = 21
    hipErrorInvalidDeviceFunction = 98
    hipErrorNoDevice = 100
    hipErrorInvalidDevice = 101
    hipErrorInvalidImage = 200
    hipErrorInvalidContext = 201
    hipErrorInvalidHandle = 400
    hipErrorIllegalState = 401
    hipErrorNotFound = 500
    hipErrorNotReady = 600
    hipErrorIllegalAddress = 700
    hipErrorPeerAccessAlreadyEnabled = 704
    hipErrorPeerAccessNotEnabled = 705
    hipErrorContextIsDestroyed = 709
    hipErrorLaunchFailure = 719
    hipErrorNotSupported = 801
    hipErrorStreamCaptureUnsupported = 900
    hipErrorStreamCaptureInvalidated = 901
    hipErrorStreamCaptureMerge = 902
    hipErrorStreamCaptureUnmatched = 903
    hipErrorStreamCaptureUnjoined = 904
    hipErrorStreamCaptureIsolation = 905
    hipErrorStreamCaptureImplicit = 906
    hipErrorCapturedEvent = 907
    hipErrorStreamCaptureWrongThread = 908
    hipErrorGraphExecUpdateFailure = 910
    hipErrorUnknown = 999


class RocblasStatus(enum.IntEnum):
    """``rocblas_status`` values (rocblas-types.h); rocSOLVER uses them too."""

    success = 0
    invalid_handle = 1
    not_implemented = 2
    invalid_pointer = 3
    invalid_size = 4
    memory_error = 5
    internal_error = 6
    perf_degraded = 7
    size_query_mismatch = 8
    size_increased = 9
    size_unchanged = 10
    invalid_value = 11
    continue_ = 12
    check_numerics_fail = 13
    excluded_from_build = 14
    arch_mismatch = 15

    def to_string(self) -> str:
        """The C enumerator name, as ``rocblas_status_to_string`` returns it."""
        return "rocblas_status_" + self.name.rstrip("_")


class RocmathError(Exception):
    """Base of every rocmath exception.

    Parameters
    ----------
    message
        What went wrong, in words.
    arg
        Name of the offending argument, if one argument is to blame.
    index
        1-based position of that argument in the C prototype, if known.
    """

    status: ClassVar[enum.IntEnum]

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        status = cls.__dict__.get("status")
        if not cls.__dict__.get("__doc__") and status is not None:  # one class per status: say which
            name = status.to_string() if hasattr(status, "to_string") else status.name
            cls.__doc__ = f"``{name}`` ({int(status)}) as an exception: what the C call returns."

    def __init__(self, message: str = "", *, arg: str | None = None, index: int | None = None):
        self.message = message
        self.arg = arg
        self.index = index
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.arg is not None:
            where = f"argument '{self.arg}'" + (f" (#{self.index})" if self.index is not None else "")
            where += ": "
        return f"{where}{self.message} [{self.status.name}]"

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments do not survive the default Exception pickling.
        return (_rebuild, (type(self), self.message, self.arg, self.index))


def _rebuild(cls: type[RocmathError], message: str, arg: str | None, index: int | None) -> RocmathError:
    return cls(message, arg=arg, index=index)


# --- HIP runtime errors -------------------------------------------------------------------


class HipError(RocmathError):
    """An error the HIP runtime would report as a ``hipError_t``."""

    status = HipStatus.hipErrorUnknown


class HipInvalidValueError(HipError, ValueError):
    status = HipStatus.hipErrorInvalidValue


class OutOfMemoryError(HipError, MemoryError):
    """Device memory exhausted; the message gives the bytes asked and free."""

    status = HipStatus.hipErrorOutOfMemory


class HipNotInitializedError(HipError):
    status = HipStatus.hipErrorNotInitialized


class InvalidDevicePointerError(HipError, ValueError):
    """A pointer that is not (or no longer) inside a live allocation, or a double free."""

    status = HipStatus.hipErrorInvalidDevicePointer


class InvalidMemcpyDirectionError(HipError, ValueError):
    status = HipStatus.hipErrorInvalidMemcpyDirection


class InvalidDeviceError(HipError, ValueError):
    status = HipStatus.hipErrorInvalidDevice


class HipInvalidHandleError(HipError, ValueError):
    """A destroyed or foreign stream, event or handle."""

    status = HipStatus.hipErrorInvalidHandle


class NotReadyError(HipError):
    status = HipStatus.hipErrorNotReady


class MemoryAccessFault(HipError):
    """An access outside the live allocation it targets (``hipErrorIllegalAddress``)."""

    status = HipStatus.hipErrorIllegalAddress


class PeerAccessAlreadyEnabledError(HipError):
    """``enable_peer_access`` for a peer whose memory the device can already reach."""

    status = HipStatus.hipErrorPeerAccessAlreadyEnabled


class PeerAccessNotEnabledError(HipError):
    """``disable_peer_access`` for a peer whose access was never enabled."""

    status = HipStatus.hipErrorPeerAccessNotEnabled


class LaunchFailureError(HipError):
    """A kernel or host callback raised while running on a stream."""

    status = HipStatus.hipErrorLaunchFailure


class HipNotSupportedError(HipError):
    status = HipStatus.hipErrorNotSupported


class IllegalStateError(HipError):
    """An operation the object's state does not allow: ending a capture the stream is not in, destroying a
    destroyed graph (``hipErrorIllegalState``)."""

    status = HipStatus.hipErrorIllegalState


class ContextIsDestroyedError(HipError):
    """A stream handle that names no live stream, where HIP's graph and capture functions check it
    (``hipErrorContextIsDestroyed``)."""

    status = HipStatus.hipErrorContextIsDestroyed


# --- stream capture and graphs (rocmath.graph) ----------------------------------------------


class StreamCaptureUnsupportedError(HipError):
    """An operation not allowed while a stream captures (synchronizing it, a device synchronize,
    an unsafe call in global or thread-local mode), or a capture on the null stream
    (``hipErrorStreamCaptureUnsupported``)."""

    status = HipStatus.hipErrorStreamCaptureUnsupported


class StreamCaptureInvalidatedError(HipError):
    """Work on, or the end of, a capture an earlier illegal operation invalidated
    (``hipErrorStreamCaptureInvalidated``)."""

    status = HipStatus.hipErrorStreamCaptureInvalidated


class StreamCaptureMergeError(HipError):
    """A stream capturing one sequence waited on an event of another (``hipErrorStreamCaptureMerge``)."""

    status = HipStatus.hipErrorStreamCaptureMerge


class StreamCaptureUnmatchedError(HipError):
    """A capture ended on a stream other than the one that began it (``hipErrorStreamCaptureUnmatched``)."""

    status = HipStatus.hipErrorStreamCaptureUnmatched


class StreamCaptureUnjoinedError(HipError):
    """A capture ended while a stream it forked had not been joined back
    (``hipErrorStreamCaptureUnjoined``)."""

    status = HipStatus.hipErrorStreamCaptureUnjoined


class StreamCaptureIsolationError(HipError):
    """A capturing stream made to depend on work outside its capture, or on an event of a capturing
    stream recorded before its capture began (``hipErrorStreamCaptureIsolation``)."""

    status = HipStatus.hipErrorStreamCaptureIsolation


class StreamCaptureImplicitError(HipError):
    """Null-stream work that would synchronize implicitly with a capturing blocking stream
    (``hipErrorStreamCaptureImplicit``)."""

    status = HipStatus.hipErrorStreamCaptureImplicit


class CapturedEventError(HipError):
    """Synchronizing with or querying an event of a capturing stream (``hipErrorCapturedEvent``)."""

    status = HipStatus.hipErrorCapturedEvent


class StreamCaptureWrongThreadError(HipError):
    """A global or thread-local capture ended from another thread than the one that began it
    (``hipErrorStreamCaptureWrongThread``)."""

    status = HipStatus.hipErrorStreamCaptureWrongThread


class GraphExecUpdateFailureError(HipError):
    """An executable graph that cannot take a graph's parameters (``hipErrorGraphExecUpdateFailure``);
    ``result`` and ``node`` say why and where."""

    status = HipStatus.hipErrorGraphExecUpdateFailure
    result: Any = None
    node: Any = None


# --- rocBLAS-status errors (rocBLAS, rocSOLVER, and the base handle) ------------------------


class RocblasError(RocmathError):
    """An error a rocBLAS/rocSOLVER call would return as a ``rocblas_status``."""

    status = RocblasStatus.internal_error


class RocblasInvalidHandleError(RocblasError, ValueError):
    status = RocblasStatus.invalid_handle


class RocblasNotImplementedError(RocblasError, NotImplementedError):
    status = RocblasStatus.not_implemented


class RocblasInvalidPointerError(RocblasError, ValueError):
    status = RocblasStatus.invalid_pointer


class RocblasInvalidSizeError(RocblasError, ValueError):
    status = RocblasStatus.invalid_size


class RocblasMemoryError(RocblasError, MemoryError):
    status = RocblasStatus.memory_error


class RocblasInternalError(RocblasError):
    status = RocblasStatus.internal_error


class RocblasSizeQueryMismatchError(RocblasError):
    status = RocblasStatus.size_query_mismatch


class RocblasInvalidValueError(RocblasError, ValueError):
    status = RocblasStatus.invalid_value


class RocblasCheckNumericsFailError(RocblasError, FloatingPointError):
    status = RocblasStatus.check_numerics_fail


class RocblasExcludedFromBuildError(RocblasError):
    status = RocblasStatus.excluded_from_build


class RocblasArchMismatchError(RocblasError):
    status = RocblasStatus.arch_mismatch


_Key = tuple[type, int]


def _leaf_classes(base: type[RocmathError]) -> dict[_Key, type[RocmathError]]:
    # IntEnums of different families compare equal by value, so key on (enum class, value).
    found: dict[_Key, type[RocmathError]] = {(type(base.status), int(base.status)): base}
    for sub in base.__subclasses__():
        found.update(_leaf_classes(sub))
    return found


_BY_STATUS: dict[_Key, type[RocmathError]] = {
    **_leaf_classes(HipError),
    **_leaf_classes(RocblasError),
}


def error_for_status(status: enum.IntEnum) -> type[RocmathError]:
    """The exception class that stands for ``status`` (the family base when none is specific)."""
    key = (type(status), int(status))
    if key in _BY_STATUS:
        return _BY_STATUS[key]
    if isinstance(status, HipStatus):
        return HipError
    return RocblasError


def status_of(exc: BaseException) -> enum.IntEnum:
    """The ROCm status an exception maps to; non-rocmath exceptions are unknown/internal errors."""
    if isinstance(exc, RocmathError):
        return exc.status
    return HipStatus.hipErrorUnknown


def without_frames(exc: BaseException) -> BaseException:
    """``exc``, kept past its handling (a stream's pending error, a binding's last exception),
    without its traceback, nor its causes' and contexts'.  Their frames, each linked to its
    caller's, hold the failed call's arguments and locals: kept, a descriptor the program destroyed
    and the device buffers it owned stayed allocated until the next failure."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if e.__traceback__ is not None:
            traceback.clear_frames(e.__traceback__)
            e.__traceback__ = None
        todo += [e.__cause__, e.__context__]
    return exc
