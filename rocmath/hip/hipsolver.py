"""``hip.hipsolver``: hipSOLVER's regular API as hip-python binds it, over :mod:`rocmath.solver`.

A ``hipsolverHandle_t`` is a rocBLAS handle, as on AMD.  Each routine comes as
``hipsolver<P><op>_bufferSize(handle, ..., lwork)`` -- the workspace in *bytes*,
written through ``lwork`` (an ``int*``: ``ctypes.c_int``, a one-element int32 array),
or returned as ``(status, lwork)`` when ``lwork`` is omitted -- and
``hipsolver<P><op>(handle, ..., work, lwork, ..., devInfo) -> (status,)``.  As hipSOLVER
does, a given ``work``/``lwork`` becomes the handle's workspace, and without one the
handle sizes its own from the query; ``devInfo`` (device int32) receives LAPACK's info
(routines without an info of their own get it zeroed).  ``uplo`` and ``trans`` are
hipBLAS enums (:class:`hipblasFillMode_t`, :class:`hipblasOperation_t`), ``jobz`` a
:class:`hipsolverEigMode_t`, ``jobu``/``jobv`` characters as ints (``ord('A')``); plain
ints for enum parameters raise ``TypeError``, as in hip-python.

The routines are generated from one table, :data:`FAMILIES` (per family: its
parameters, the rocSOLVER calls its size query makes, the call it computes with), for
the precisions rocmath.solver provides, through :func:`rocmath.hip._api.binding`;
statuses follow hipSOLVER's ``rocblas2hip_status``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

import rocmath
import rocmath.blas as _blas
import rocmath.solver as _solver
from rocmath.blas import BlasHandle
from rocmath.errors import (
    HipError,
    LaunchFailureError,
    MemoryAccessFault,
    RocblasError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidValueError,
    RocblasStatus,
    RocmathError,
)
from rocmath.solver import Evect, Svect, Workmode

from . import hip as _hip
from ._api import StatusTable, binding
from ._lib import Opaque, c_int, find, out_parameters, target_of
from ._types import c_enum, check_enum, device_address
from .hipblas import hipblasFillMode_t, hipblasOperation_t, hipblasSideMode_t

_MODULE = __name__

# --- enums (hipsolver-types.h values) ----------------------------------------------------------

hipsolverStatus_t = c_enum("hipsolverStatus_t", [
    ("HIPSOLVER_STATUS_SUCCESS", 0), ("HIPSOLVER_STATUS_NOT_INITIALIZED", 1), ("HIPSOLVER_STATUS_ALLOC_FAILED", 2),
    ("HIPSOLVER_STATUS_INVALID_VALUE", 3), ("HIPSOLVER_STATUS_MAPPING_ERROR", 4),
    ("HIPSOLVER_STATUS_EXECUTION_FAILED", 5), ("HIPSOLVER_STATUS_INTERNAL_ERROR", 6),
    ("HIPSOLVER_STATUS_NOT_SUPPORTED", 7), ("HIPSOLVER_STATUS_ARCH_MISMATCH", 8),
    ("HIPSOLVER_STATUS_HANDLE_IS_NULLPTR", 9), ("HIPSOLVER_STATUS_INVALID_ENUM", 10), ("HIPSOLVER_STATUS_UNKNOWN", 11),
    ("HIPSOLVER_STATUS_ZERO_PIVOT", 12), ("HIPSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", 13),
], _MODULE, "``hipsolverStatus_t``.")
hipsolverEigMode_t = c_enum("hipsolverEigMode_t", [
    ("HIPSOLVER_EIG_MODE_NOVECTOR", 201), ("HIPSOLVER_EIG_MODE_VECTOR", 202)], _MODULE)
hipsolverEigType_t = c_enum("hipsolverEigType_t", [
    ("HIPSOLVER_EIG_TYPE_1", 211), ("HIPSOLVER_EIG_TYPE_2", 212), ("HIPSOLVER_EIG_TYPE_3", 213)], _MODULE)
hipsolverEigRange_t = c_enum("hipsolverEigRange_t", [
    ("HIPSOLVER_EIG_RANGE_ALL", 221), ("HIPSOLVER_EIG_RANGE_V", 222), ("HIPSOLVER_EIG_RANGE_I", 223)], _MODULE)
#: hipSOLVER's typedefs of the hipBLAS enums.
hipsolverFillMode_t = hipblasFillMode_t
hipsolverOperation_t = hipblasOperation_t
hipsolverSideMode_t = hipblasSideMode_t

#: The hipSOLVER release whose API this follows (ROCm 6.2).
hipsolverVersionMajor = 2
hipsolverVersionMinor = 2
hipsolverVersionPatch = 0

_S = hipsolverStatus_t
_INT_MAX = 2**31 - 1


class HipsolverStatusError(RocmathError):
    """A failure hipSOLVER itself reports (before or instead of a rocBLAS/rocSOLVER status)."""

    status = _S.HIPSOLVER_STATUS_INTERNAL_ERROR

    def __init__(self, status: Any, message: str = "", *, arg: str | None = None):
        self.status = status  # type: ignore[misc]
        super().__init__(message, arg=arg)

    def __reduce__(self) -> tuple[Any, ...]:
        return (HipsolverStatusError, (int(self.status), self.message), {"arg": self.arg})


# --- the status table ---------------------------------------------------------------------------------

#: hipSOLVER's rocblas2hip_status; anything else is UNKNOWN.
ROCBLAS_TO_HIPSOLVER: dict[RocblasStatus, Any] = {
    RocblasStatus.success: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.size_unchanged: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.size_increased: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.invalid_handle: _S.HIPSOLVER_STATUS_NOT_INITIALIZED,
    RocblasStatus.not_implemented: _S.HIPSOLVER_STATUS_NOT_SUPPORTED,
    RocblasStatus.invalid_pointer: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_size: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_value: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.memory_error: _S.HIPSOLVER_STATUS_ALLOC_FAILED,
    RocblasStatus.internal_error: _S.HIPSOLVER_STATUS_INTERNAL_ERROR,
}


def convert_status(status: Any) -> Any:
    """``rocblas2hip_status``: a rocBLAS status as hipSOLVER reports it."""
    try:
        return ROCBLAS_TO_HIPSOLVER.get(RocblasStatus(int(status)), _S.HIPSOLVER_STATUS_UNKNOWN)
    except ValueError:
        return _S.HIPSOLVER_STATUS_UNKNOWN


def _hipsolver_status(exc: BaseException) -> Any:
    if isinstance(exc, HipsolverStatusError):
        return exc.status
    if isinstance(exc, RocblasError):
        return convert_status(exc.status)
    if isinstance(exc, (MemoryAccessFault, LaunchFailureError)):
        # A kernel that would fault: on a GPU the program would crash; here the call fails.
        return _S.HIPSOLVER_STATUS_EXECUTION_FAILED
    if isinstance(exc, MemoryError):  # exception2hip_status: std::bad_alloc
        return _S.HIPSOLVER_STATUS_ALLOC_FAILED
    if isinstance(exc, HipError):
        return _S.HIPSOLVER_STATUS_INTERNAL_ERROR
    return _S.HIPSOLVER_STATUS_INTERNAL_ERROR


_HIPSOLVER = StatusTable(_S.HIPSOLVER_STATUS_SUCCESS, _hipsolver_status)


def _error(message: str, arg: str) -> HipsolverStatusError:
    return HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_VALUE, message, arg=arg)


# --- handles ---------------------------------------------------------------------------------------------


class hipsolverHandle_t(Opaque):
    """A ``hipsolverHandle_t``: on AMD a rocBLAS handle (a :class:`rocmath.blas.BlasHandle`)."""


def _handle(obj: Any) -> BlasHandle:
    """The handle argument: NULL is hipSOLVER's NOT_INITIALIZED, anything else not a live handle rocBLAS's
    invalid_handle (the same status)."""
    target = target_of(obj, hipsolverHandle_t)
    if target is None:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_NOT_INITIALIZED, "null handle", arg="handle")
    if not isinstance(target, BlasHandle):
        raise RocblasInvalidHandleError("not a live hipSOLVER handle", arg="handle", index=1)
    target.check()
    return target


@binding(_HIPSOLVER, 1)
def hipsolverCreate() -> hipsolverHandle_t:
    """A new handle (a rocBLAS handle on the current device's null stream)."""
    return hipsolverHandle_t.new(_blas.create_handle())  # type: ignore[return-value]


@binding(_HIPSOLVER)
def hipsolverDestroy(handle: Any) -> None:
    """Destroy a handle (its queued work still completes)."""
    h = _handle(handle)
    h.destroy()
    found = find(handle, hipsolverHandle_t)
    if found is not None:
        found.release()


@binding(_HIPSOLVER)
def hipsolverSetStream(handle: Any, streamId: Any) -> None:
    """Queue the handle's later work on ``streamId`` (None: the null stream)."""
    h = _handle(handle)
    try:
        stream = _hip.as_stream(streamId)
    except HipError as exc:  # rocblas_set_stream: a bad stream is invalid_value
        raise RocblasInvalidValueError(str(exc), arg="streamId") from exc
    h.set_stream(stream)


def _get_stream(handle: Any, streamId: Any) -> Any:
    return _hip.wrap_stream(_handle(handle).get_stream())


_get_stream.__name__ = _get_stream.__qualname__ = "hipsolverGetStream"
_get_stream.__doc__ = ("hipsolverGetStream(handle, streamId) -> (status,): the handle's stream, written through "
                       "``streamId`` (a hipStream_t*), or returned when it is omitted.")
hipsolverGetStream = out_parameters(_HIPSOLVER, _get_stream, {"streamId": np.dtype(np.uint64)}, _error)


# --- argument conversions (hipsolver_conversions.cpp) -------------------------------------------------

_SVECT = {ord("N"): Svect.none, ord("A"): Svect.all, ord("S"): Svect.singular, ord("O"): Svect.overwrite}
_EVECT = {201: Evect.none, 202: Evect.original}


def _fill(value: Any, arg: str) -> int:
    check_enum(value, hipblasFillMode_t, arg)
    if value.name == "HIPBLAS_FILL_MODE_FULL":
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_ENUM, "a full fill mode has no rocBLAS fill", arg=arg)
    return int(value)


def _svect(value: Any, arg: str) -> Svect:
    code = c_int(value, arg)  # hip-python's ``signed char``: an int (ord('A'))
    if code not in _SVECT:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_VALUE, f"job {code!r} is none of N, A, S, O", arg=arg)
    return _SVECT[code]


#: Parameter -> conversion; the others are device pointers.
_CONVERT: dict[str, Callable[[Any, str], Any]] = {
    **dict.fromkeys(("m", "n", "nrhs", "lda", "ldb", "ldu", "ldv", "lwork"), c_int),
    "uplo": _fill, "trans": lambda v, a: int(check_enum(v, hipblasOperation_t, a)),
    "jobz": lambda v, a: _EVECT[int(check_enum(v, hipsolverEigMode_t, a))], "jobu": _svect, "jobv": _svect,
}


# --- the table ----------------------------------------------------------------------------------------------

Call = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True)
class Family:
    """One hipSOLVER routine in every precision.

    Attributes
    ----------
    ops
        Precision letter -> the operation's name (``syevd`` for S/D, ``heevd`` for C/Z);
        the hipSOLVER and rocSOLVER names share it.
    params
        hip-python's parameters of the computation after ``handle``.
    query
        hip-python's parameters of ``_bufferSize`` after ``handle``, before ``lwork``.
    sizes
        The rocSOLVER calls the size query makes (the first one's failure is the query's).
    run
        The rocSOLVER call that computes.
    zero_info
        Whether hipSOLVER zeroes ``devInfo`` first (rocSOLVER's routine has no info).
    scratch
        Real elements of rocSOLVER's extra array (``E``) the size query adds; 0 for none.
    takes
        Real elements of ``E`` taken from the front of a given ``work`` (or allocated),
        when no ``rwork`` is given (default: ``scratch``).
    """

    ops: dict[str, str]
    params: str
    query: str
    sizes: Callable[[Any], list[Call]]
    run: Callable[[Any], Call]
    zero_info: bool = False
    scratch: Callable[[Any], int] = lambda a: 0
    takes: Callable[[Any], int] | None = None


_SDCZ = dict.fromkeys("SDCZ", "")

FAMILIES: dict[str, Family] = {
    "getrf": Family(
        {p: "getrf" for p in _SDCZ}, "m n A lda work lwork devIpiv devInfo", "m n A lda",
        lambda a: [("getrf", (a.m, a.n, None, a.lda, None, None)), ("getrf_npvt", (a.m, a.n, None, a.lda, None))],
        lambda a: (("getrf", (a.m, a.n, a.A, a.lda, a.devIpiv, a.devInfo)) if a.devIpiv
                   else ("getrf_npvt", (a.m, a.n, a.A, a.lda, a.devInfo)))),
    "getrs": Family(
        {p: "getrs" for p in _SDCZ}, "trans n nrhs A lda devIpiv B ldb work lwork devInfo",
        "trans n nrhs A lda devIpiv B ldb",
        lambda a: [("getrs", (a.trans, a.n, a.nrhs, None, a.lda, None, None, a.ldb))],
        lambda a: ("getrs", (a.trans, a.n, a.nrhs, a.A, a.lda, a.devIpiv, a.B, a.ldb)), zero_info=True),
    "potrf": Family(
        {p: "potrf" for p in _SDCZ}, "uplo n A lda work lwork devInfo", "uplo n A lda",
        lambda a: [("potrf", (a.uplo, a.n, None, a.lda, None))],
        lambda a: ("potrf", (a.uplo, a.n, a.A, a.lda, a.devInfo))),
    "potrs": Family(
        {p: "potrs" for p in _SDCZ}, "uplo n nrhs A lda B ldb work lwork devInfo", "uplo n nrhs A lda B ldb",
        lambda a: [("potrs", (a.uplo, a.n, a.nrhs, None, a.lda, None, a.ldb))],
        lambda a: ("potrs", (a.uplo, a.n, a.nrhs, a.A, a.lda, a.B, a.ldb)), zero_info=True),
    "geqrf": Family(
        {p: "geqrf" for p in _SDCZ}, "m n A lda tau work lwork devInfo", "m n A lda",
        lambda a: [("geqrf", (a.m, a.n, None, a.lda, None))],
        lambda a: ("geqrf", (a.m, a.n, a.A, a.lda, a.tau)), zero_info=True),
    "gesvd": Family(
        {p: "gesvd" for p in _SDCZ}, "jobu jobv m n A lda S U ldu V ldv work lwork rwork devInfo", "jobu jobv m n",
        lambda a: [("gesvd", (a.jobu, a.jobv, a.m, a.n, None, a.m, None, None, max(a.m, 1), None, max(a.n, 1), None,
                              Workmode.outofplace, None))],
        lambda a: ("gesvd", (a.jobu, a.jobv, a.m, a.n, a.A, a.lda, a.S, a.U, a.ldu, a.V, a.ldv, a.E,
                             Workmode.outofplace, a.devInfo)),
        scratch=lambda a: max(min(a.m, a.n), 0), takes=lambda a: min(a.m, a.n) if min(a.m, a.n) > 1 else 0),
    "syevd": Family(
        {"S": "syevd", "D": "syevd", "C": "heevd", "Z": "heevd"}, "jobz uplo n A lda W work lwork devInfo",
        "jobz uplo n A lda W",
        lambda a: [(a.op, (a.jobz, a.uplo, a.n, None, a.lda, None, None, None))],
        lambda a: (a.op, (a.jobz, a.uplo, a.n, a.A, a.lda, a.W, a.E, a.devInfo)), scratch=lambda a: max(a.n, 0)),
}

_REAL_SIZE = {"S": 4, "D": 8, "C": 4, "Z": 8}


def _args(letter: str, op: str, names: tuple[str, ...], values: tuple[Any, ...]) -> SimpleNamespace:
    a = SimpleNamespace(op=op, E=None)
    for name, value in zip(names, values, strict=True):
        convert = _CONVERT.get(name)
        setattr(a, name, convert(value, name) if convert is not None else device_address(value))
    return a


def _rocsolver(letter: str, call: Call) -> Callable[..., Any]:
    return getattr(_solver, f"{letter.lower()}{call[0]}")  # type: ignore[no-any-return]


def _query(h: BlasHandle, letter: str, family: Family, a: SimpleNamespace) -> int:
    """hipSOLVER's ``_bufferSize``: the bytes of the rocSOLVER calls' device-memory size query."""
    first: BaseException | None = None
    h.start_device_memory_size_query()
    try:
        for i, call in enumerate(family.sizes(a)):
            try:
                _rocsolver(letter, call)(h, *call[1])
            except RocmathError as exc:
                if i == 0:
                    first = exc
    finally:
        size = h.stop_device_memory_size_query()
    if first is not None:
        raise first
    extra = family.scratch(a) * _REAL_SIZE[letter]
    if extra:
        # rocblas_set_optimal_device_memory_size(handle, size, size_E): both, rounded, summed.
        h.start_device_memory_size_query()
        h.size_query(size, extra)
        size = h.stop_device_memory_size_query()
    if size > _INT_MAX:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INTERNAL_ERROR, f"workspace of {size} bytes exceeds int")
    return size


def _manage_workspace(h: BlasHandle, need: int) -> None:
    """``hipsolverManageWorkspace``: grow the handle's workspace to ``need`` bytes."""
    current = 0 if h.is_managing_device_memory() else h.get_device_memory_size()
    if need > current:
        h.set_device_memory_size(need)


def _bind_query(name: str, letter: str, family: Family) -> Callable[..., tuple[Any, ...]]:
    names = tuple(family.query.split())

    def impl(handle: Any, *args: Any) -> int:
        h = _handle(handle)
        return _query(h, letter, family, _args(letter, family.ops[letter], names, args[:-1]))

    params = ("handle", *names, "lwork")
    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsolverStatus_t,): the workspace bytes of "
                    f"hipsolver{letter}{family.ops[letter]}, written through ``lwork`` (int*) or returned when it is "
                    "omitted.")
    return out_parameters(_HIPSOLVER, impl, {"lwork": np.dtype(np.int32)}, _error)


def _bind_compute(name: str, letter: str, family: Family) -> Callable[..., tuple[Any, ...]]:
    names = tuple(family.params.split())
    query_names = tuple(family.query.split())

    def impl(handle: Any, *args: Any) -> None:
        if len(args) != len(names):
            raise TypeError(f"{name}() takes {len(names) + 1} arguments ({len(args) + 1} given)")
        h = _handle(handle)
        a = _args(letter, family.ops[letter], names, args)
        rwork = getattr(a, "rwork", 0)
        extra = 0 if rwork else (family.takes or family.scratch)(a)
        a.E = rwork or None
        owned = 0
        if a.work and a.lwork:
            work, lwork = a.work, a.lwork
            if extra:
                # rocSOLVER's E comes from the front of work; the workspace is what remains (hipSOLVER passes
                # the full lwork on, past the end of work, which rocmath's bounds checks refuse).
                a.E, work = work, work + extra * _REAL_SIZE[letter]
                lwork = max(lwork - extra * _REAL_SIZE[letter], 0)
            h.set_workspace(work, lwork)
        else:
            need = _query(h, letter, family, SimpleNamespace(**{n: getattr(a, n) for n in query_names},
                                                             op=a.op, E=None))
            _manage_workspace(h, need)
            if extra:
                owned = a.E = rocmath.malloc_async(extra * _REAL_SIZE[letter], h.stream)
        try:
            if family.zero_info:
                if not a.devInfo:
                    raise RocblasInvalidPointerError("null devInfo", arg="devInfo")
                rocmath.memset_async(a.devInfo, 0, 4, h.stream)
            call = family.run(a)
            _rocsolver(letter, call)(h, *call[1])
        finally:
            if owned:
                rocmath.free_async(owned, h.stream)

    params = ("handle", *names)
    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsolverStatus_t,)\n\nhipSOLVER over rocmath.solver."
                    f"{letter.lower()}{family.ops[letter]}: ``work``/``lwork`` (bytes) as the handle's workspace, or "
                    "the handle's own; info in ``devInfo``.")
    fn = binding(_HIPSOLVER)(impl)
    fn.__signature__ = impl.__signature__  # type: ignore[attr-defined]
    return fn


def _names() -> dict[str, tuple[str, Family, bool]]:
    """hipSOLVER name -> (precision, family, is the size query), for the routines rocmath.solver has."""
    out: dict[str, tuple[str, Family, bool]] = {}
    for family in FAMILIES.values():
        for letter, op in family.ops.items():
            if hasattr(_solver, f"{letter.lower()}{op}"):
                out[f"hipsolver{letter}{op}_bufferSize"] = (letter, family, True)
                out[f"hipsolver{letter}{op}"] = (letter, family, False)
    return out


MANIFEST = _names()
#: The families' names whose rocSOLVER routines rocmath.solver lacks (none are bound).
UNAVAILABLE = sorted({f"hipsolver{p}{op}" for fam in FAMILIES.values() for p, op in fam.ops.items()} -
                     set(MANIFEST))
_BOUND = {name: (_bind_query if query else _bind_compute)(name, letter, family)
          for name, (letter, family, query) in MANIFEST.items()}
globals().update(_BOUND)

__all__ = sorted([
    *_BOUND, "hipsolverCreate", "hipsolverDestroy", "hipsolverSetStream", "hipsolverGetStream", "hipsolverStatus_t",
    "hipsolverEigMode_t", "hipsolverEigType_t", "hipsolverEigRange_t", "hipsolverFillMode_t", "hipsolverOperation_t",
    "hipsolverSideMode_t", "hipblasFillMode_t", "hipblasOperation_t", "hipblasSideMode_t", "hipsolverHandle_t",
    "HipsolverStatusError", "ROCBLAS_TO_HIPSOLVER", "convert_status", "FAMILIES", "MANIFEST", "UNAVAILABLE",
    "Family", "hipsolverVersionMajor", "hipsolverVersionMinor", "hipsolverVersionPatch",
])
