"""``hip.rccl``: RCCL as hip-python 6.2 binds it, over :mod:`rocmath.collectives`.

Functions return ``(ncclResult_t, *outputs)``: ``ncclCommInitRank(nranks, commId, rank) ->
(status, comm)``, ``ncclCommCount(comm) -> (status, count)``, ``ncclAllReduce(sendbuff, recvbuff,
count, datatype, op, comm, stream) -> (status,)``; ``ncclGetErrorString(result)`` and
``ncclGetLastError(comm)`` return ``(CStr,)``.  Where hip-python keeps a C out-parameter as an
argument (``ncclGetUniqueId(uniqueId)``, ``ncclCommInitAll(comm, ndev, devlist)``,
``ncclMemAlloc(ptr, size)``, ``ncclCommGetAsyncError(comm, asyncError)``,
``ncclCommRegister(comm, buff, size, handle)``, ``ncclRedOpCreatePreMulSum(op, ...)``) the value is
written through it (a ``ctypes`` scalar, a host array, a ``Pointer.createRef()``); called without
it the value is returned instead, as the newer ``rocm.bindings`` do.  ``datatype``, ``op``,
``residence`` and ``result`` must be members of this module's enums (plain ints raise
``TypeError``, as in hip-python); a user operator from :func:`ncclRedOpCreatePreMulSum` comes back,
in the returned form, as a member of a subclass of ``_ncclRedOp_t__Base`` (hip-python's check
accepts it).  Integer arguments convert as Cython converts ``int`` and ``unsigned long``
(``OverflowError``/``TypeError`` before RCCL looks at anything).  Every function has its
``pnccl`` profiling twin.

A communicator (:class:`ncclComm`) is one rank of a clique on one simulated device: ranks join
in threads of this process (``ncclCommInitRank`` blocks until all have, unless called in a
group), or all at once with ``ncclCommInitAll``.  Statuses follow RCCL's order of checks; see
:mod:`rocmath.collectives` for the semantics (streams, groups, matching, reduction order,
``NCCL_CHECK_POINTERS``).  As in hip-python, ``ncclCommSplit`` called inside a group returns
``None`` for the new communicator (RCCL writes it only when the group ends).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import rocmath
import rocmath.collectives as _coll
from rocmath.collectives import Communicator, NcclResult
from rocmath.errors import HipError

from . import hip as _hip
from ._api import StatusTable, binding
from ._lib import (
    LibraryError,
    Opaque,
    c_integer,
    error_factory,
    find,
    out_parameters,
    read_host,
    target_of,
    write_host,
)
from ._types import CStr, _Struct, c_enum, check_enum, pointer_value, resolve

_MODULE = __name__

# --- constants and enums (rccl.h, RCCL 6.2.0 = NCCL 2.20.5) ------------------------------------------

NCCL_MAJOR = _coll.VERSION[0]
NCCL_MINOR = _coll.VERSION[1]
NCCL_PATCH = _coll.VERSION[2]
NCCL_SUFFIX = b""
NCCL_VERSION_CODE = _coll.VERSION_CODE
RCCL_BFLOAT16 = 1
RCCL_GATHER_SCATTER = 1
RCCL_ALLTOALLV = 1
NCCL_UNIQUE_ID_BYTES = _coll.UNIQUE_ID_BYTES


def _unsigned(cls: Any) -> Any:
    cls.ctypes_type = staticmethod(lambda: ctypes.c_uint)  # hip-python's enums report c_uint
    return cls


ncclResult_t = _unsigned(c_enum("ncclResult_t", [(m.name, int(m)) for m in NcclResult] + [("ncclNumResults", 8)],
                                _MODULE, "``ncclResult_t``: RCCL's result codes."))
ncclRedOp_dummy_t = _unsigned(c_enum("ncclRedOp_dummy_t", [("ncclNumOps_dummy", 5)], _MODULE))
ncclRedOp_t = _unsigned(c_enum("ncclRedOp_t", [
    ("ncclSum", 0), ("ncclProd", 1), ("ncclMax", 2), ("ncclMin", 3), ("ncclAvg", 4), ("ncclNumOps", _coll.NUM_OPS),
    ("ncclMaxRedOp", _coll.MAX_RED_OP),
], _MODULE, "``ncclRedOp_t``: the built-in reduction operators (user operators take values from ncclNumOps)."))
ncclDataType_t = _unsigned(c_enum("ncclDataType_t", [
    ("ncclInt8", 0), ("ncclChar", 0), ("ncclUint8", 1), ("ncclInt32", 2), ("ncclInt", 2), ("ncclUint32", 3),
    ("ncclInt64", 4), ("ncclUint64", 5), ("ncclFloat16", 6), ("ncclHalf", 6), ("ncclFloat32", 7), ("ncclFloat", 7),
    ("ncclFloat64", 8), ("ncclDouble", 8), ("ncclBfloat16", 9), ("ncclFp8E4M3", 10), ("ncclFp8E5M2", 11),
    ("ncclNumTypes", _coll.NUM_TYPES),
], _MODULE, "``ncclDataType_t``: element types (bfloat16 and fp8 travel as their bits)."))
ncclScalarResidence_t = _unsigned(c_enum("ncclScalarResidence_t", [
    ("ncclScalarDevice", 0), ("ncclScalarHostImmediate", 1)], _MODULE))

_ncclResult_t__Base = ncclResult_t.__mro__[1]
_ncclRedOp_dummy_t__Base = ncclRedOp_dummy_t.__mro__[1]
_ncclRedOp_t__Base = ncclRedOp_t.__mro__[1]
_ncclDataType_t__Base = ncclDataType_t.__mro__[1]
_ncclScalarResidence_t__Base = ncclScalarResidence_t.__mro__[1]
_R = ncclResult_t


class RcclError(LibraryError):
    """A failure the binding reports with ``status`` (a :class:`ncclResult_t` member)."""

    status = _R.ncclInternalError


def _status(exc: BaseException) -> Any:
    if isinstance(exc, RcclError):
        return exc.status
    if isinstance(exc, _coll.CollectiveError):
        return _R(int(exc.status))
    if isinstance(exc, HipError):  # a HIP call RCCL makes failed
        return _R.ncclUnhandledCudaError
    if isinstance(exc, MemoryError):
        return _R.ncclSystemError
    return _R.ncclInternalError


_RCCL = StatusTable(_R.ncclSuccess, _status)
_invalid = error_factory(RcclError, _R.ncclInvalidArgument)
_hip_failed = error_factory(RcclError, _R.ncclUnhandledCudaError)


def _reporting(outputs: int = 0) -> Callable[[Callable[..., Any]], Callable[..., tuple[Any, ...]]]:
    """:func:`binding` for implementations that return their own status (``ncclInProgress`` from
    non-blocking communicators and groups): alone, or first before ``outputs`` values."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
        inner = binding(_RCCL, outputs + 1)(fn)

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
            result = inner(*args, **kwargs)
            if result[0] != _R.ncclSuccess:
                return (result[0], *result[2:])
            return (_R(int(result[1])), *result[2:])

        return call

    return wrap


# --- types -------------------------------------------------------------------------------------------


class ncclComm(Opaque):
    """``ncclComm_t``: a handle to a :class:`rocmath.collectives.Communicator`."""

    @staticmethod
    def PROPERTIES() -> list[str]:
        return []


ncclComm_t = ncclComm
#: Communicator -> its handle (one per communicator, so every call returns the same object).
_wrapped: dict[int, ncclComm] = {}


def _wrap(comm: Communicator | None) -> ncclComm | None:
    if comm is None:
        return None
    handle = _wrapped.get(id(comm))
    if handle is None or handle.target is not comm:
        handle = _wrapped[id(comm)] = ncclComm.new(comm)  # type: ignore[assignment]
    return handle


def _release(comm: Any) -> None:
    handle = find(comm, ncclComm)
    if handle is not None:
        _wrapped.pop(id(handle.target), None)
        handle.release()


def _comm(obj: Any) -> Any:
    """What RCCL receives for a ``comm`` argument: the communicator, None (NULL), or a stray address."""
    return target_of(obj, ncclComm)


class ncclUniqueId(_Struct):
    """``ncclUniqueId``: 128 opaque bytes naming a clique (``internal``, read-only as in hip-python: bytes up
    to the first NUL, as Cython converts ``char[128]``)."""

    _members = (("internal", "chars", NCCL_UNIQUE_ID_BYTES),)


class ncclConfig_v21700(_Struct):
    """``ncclConfig_t``: communicator configuration, zeroed when made (as hip-python's).  A zeroed struct
    (``size`` 0) means all defaults to RCCL; otherwise set ``size``, ``magic`` (0xcafebeef) and ``version``
    as ``NCCL_CONFIG_INITIALIZER`` does.  The layout is :class:`rocmath.collectives`' (a test compares)."""

    _members = (("size", "size_t", None), ("magic", "unsigned int", None), ("version", "unsigned int", None),
                ("blocking", "int", None), ("cgaClusterSize", "int", None), ("minCTAs", "int", None),
                ("maxCTAs", "int", None), ("netName", "cstr", None), ("splitShare", "int", None))


ncclConfig_t = ncclConfig_v21700


def _config(obj: Any) -> Callable[[], _coll.Config] | None:
    """A parser of the ``ncclConfig_t`` an argument points to (None for NULL)."""
    if pointer_value(obj) == 0 and resolve(obj).host is None:
        return None

    def parse() -> _coll.Config:
        def read(n: int) -> bytes:
            raw = read_host(obj, np.uint8, n, "config", _invalid)
            assert raw is not None
            return raw.tobytes()

        return _coll.config_from_bytes(read)

    return parse


# --- argument conversion -----------------------------------------------------------------------------


def _int(value: Any, arg: str) -> int:
    return c_integer(value, arg, "int")


def _size(value: Any, arg: str) -> int:
    return c_integer(value, arg, "size_t")


def _stream(obj: Any) -> Any:
    """The rank's stream: None (NULL, ``hipStreamLegacy``: the null stream of the communicator's
    device), a rocmath stream, or -- for no live stream -- the address, which RCCL's HIP calls refuse."""
    if isinstance(obj, rocmath.Stream):
        return obj
    address = pointer_value(obj)
    if address in (0, _hip.hipStreamLegacy):
        return None
    try:
        return _hip.as_stream(obj)
    except HipError:
        return address


def _buffer(obj: Any) -> int:
    """The address a buffer argument converts to (device memory, or host memory no kernel can reach)."""
    return int(resolve(obj).address)


def _id_bytes(obj: Any) -> bytes | None:
    raw = read_host(obj, np.uint8, NCCL_UNIQUE_ID_BYTES, "commId", _invalid)
    return None if raw is None else raw.tobytes()


class _HostArray:
    """A C array argument (``const size_t[]``, ``const int*``): a list or tuple, or host memory behind a
    pointer, read element by element as RCCL indexes it."""

    def __init__(self, obj: Any, dtype: Any, arg: str):
        self.arg, self.dtype = arg, np.dtype(dtype)
        self.values = list(obj) if isinstance(obj, (list, tuple)) else None
        self.obj = obj

    def __getitem__(self, i: int) -> int:
        if self.values is not None:
            return int(self.values[i])
        if pointer_value(self.obj) == 0 and resolve(self.obj).host is None:
            raise _coll.InvalidArgumentError(f"{self.arg} is NULL", arg=self.arg)
        raw = read_host(self.obj, np.uint8, (i + 1) * self.dtype.itemsize, self.arg, _invalid)
        assert raw is not None
        return int(raw[i * self.dtype.itemsize:].view(self.dtype)[0])


def _user_op(value: int) -> Any:
    """A user operator's value as hip-python's ``op`` checks accept it."""
    try:
        return ncclRedOp_t(value)
    except ValueError:
        return _user_op_class(value)


@functools.lru_cache(maxsize=256)
def _user_op_class(value: int) -> Any:
    base = ncclRedOp_t.__mro__[1]
    return base("ncclUserRedOp", [(f"ncclUserRedOp{value}", value)], module=_MODULE)(value)


# --- version, errors, memory -------------------------------------------------------------------------


@binding(_RCCL, 1)
def ncclGetVersion() -> int:
    """The NCCL version code of RCCL 6.2.0 (22005)."""
    return _coll.version()


def ncclGetErrorString(result: Any) -> tuple[CStr]:
    """``(CStr,)``: RCCL's text for a result code."""
    check_enum(result, ncclResult_t, "result")
    return (CStr(_coll.error_string(int(result))),)


def ncclGetLastError(comm: Any) -> tuple[CStr]:
    """``(CStr,)``: the message of the latest failure in the process (``comm`` is unused, as in RCCL)."""
    pointer_value(comm)
    return (CStr(_coll.last_error()),)


def _mem_alloc(ptr: Any, size: int) -> int:
    return rocmath.malloc(size) if size else 0


ncclMemAlloc = out_parameters(_RCCL, _mem_alloc, {"ptr": np.uint64}, _hip_failed, integers={"size": "size_t"})
ncclMemAlloc.__name__ = ncclMemAlloc.__qualname__ = "ncclMemAlloc"
ncclMemAlloc.__doc__ = "``hipMalloc`` of ``size`` bytes (the pointer written through ``ptr``, or returned)."


@binding(_RCCL)
def ncclMemFree(ptr: Any) -> None:
    """``hipFree`` of memory from :func:`ncclMemAlloc` (NULL is accepted)."""
    address = pointer_value(ptr)
    if address:
        rocmath.free(_buffer(ptr))


# --- communicators -----------------------------------------------------------------------------------


@binding(_RCCL)
def ncclGetUniqueId(uniqueId: Any) -> None:
    """Write a new clique's id into ``uniqueId`` (an :class:`ncclUniqueId`, or 128 bytes of host memory)."""
    if pointer_value(uniqueId) == 0 and resolve(uniqueId).host is None:
        raise _coll.InvalidArgumentError("ncclGetUniqueId: out argument is NULL", arg="uniqueId")
    write_host(uniqueId, np.frombuffer(_coll.get_unique_id(), dtype=np.uint8), np.uint8, "uniqueId", _invalid)


@_reporting(1)
def ncclCommInitRankConfig(nranks: int, commId: Any, rank: int, config: Any) -> tuple[Any, ncclComm | None]:
    """This rank's communicator with a configuration (``ncclConfig_t``; NULL: the defaults).  A non-blocking
    configuration returns ``ncclInProgress`` at once (poll :func:`ncclCommGetAsyncError`)."""
    n, r = _int(nranks, "nranks"), _int(rank, "rank")
    status, comm = _coll.init_rank(n, _id_bytes(commId), r, config=_config(config), with_config=True)
    return status, _wrap(comm)


@binding(_RCCL, 1)
def ncclCommInitRank(nranks: int, commId: Any, rank: int) -> ncclComm | None:
    """This rank's communicator in the clique ``commId``, on the current device; blocks until all ``nranks``
    ranks have joined (run each rank in its own thread), unless called inside a group."""
    n, r = _int(nranks, "nranks"), _int(rank, "rank")
    return _wrap(_coll.init_rank(n, _id_bytes(commId), r)[1])


def _init_all(comm: Any, ndev: int, devlist: Any) -> list[ncclComm | None]:
    if devlist is None or (not isinstance(devlist, (list, tuple)) and pointer_value(devlist) == 0
                           and resolve(devlist).host is None):
        devices = None
    else:
        array = _HostArray(devlist, np.int32, "devlist")
        devices = [array[i] for i in range(max(ndev, 0))]
    return [_wrap(c) for c in _coll.init_all(devices, ndev)]


ncclCommInitAll = out_parameters(_RCCL, _init_all, {"comm": np.uint64}, _invalid,
                                 store=lambda comms: np.array([pointer_value(c) for c in comms], dtype=np.uint64),
                                 integers={"ndev": "int"})
ncclCommInitAll.__name__ = ncclCommInitAll.__qualname__ = "ncclCommInitAll"
ncclCommInitAll.__doc__ = ("A clique of ``ndev`` ranks in this process, rank ``i`` on ``devlist[i]`` (the first "
                           "``ndev`` devices for NULL); the handles are written into ``comm`` (``ndev`` pointers), "
                           "or returned as a list.")


@_reporting()
def ncclCommFinalize(comm: Any) -> Any:
    """Wait for the rank's work (``ncclInProgress`` and in the background for a non-blocking communicator)."""
    return _coll.comm_finalize(_comm(comm))


@binding(_RCCL)
def ncclCommDestroy(comm: Any) -> None:
    """Wait for the rank's work (unless finalized) and free the communicator."""
    _coll.comm_destroy(_comm(comm))
    _release(comm)


@binding(_RCCL)
def ncclCommAbort(comm: Any) -> None:
    """Stop the rank's pending work and free the communicator."""
    _coll.comm_abort(_comm(comm))
    _release(comm)


@binding(_RCCL, 1)
def ncclCommSplit(comm: Any, color: int, key: int, config: Any) -> ncclComm | None:
    """A communicator of the ranks of ``comm`` with the same ``color`` (ordered by ``key``; -1 leaves the rank
    out: None).  Every rank must call it; in a group the new communicator is made at the group's end and
    this returns None, as hip-python does."""
    c, k = _int(color, "color"), _int(key, "key")
    return _wrap(_coll.comm_split(_comm(comm), c, k, _config(config)))


def _get_async_error(comm: Any, asyncError: Any) -> Any:
    return ncclResult_t(int(_coll.comm_get_async_error(_comm(comm))))


ncclCommGetAsyncError = out_parameters(_RCCL, _get_async_error, {"asyncError": np.int32}, _invalid,
                                       null_first=False)
ncclCommGetAsyncError.__name__ = ncclCommGetAsyncError.__qualname__ = "ncclCommGetAsyncError"
ncclCommGetAsyncError.__doc__ = ("The communicator's asynchronous state (``ncclInProgress`` while a non-blocking "
                                 "operation runs), written through ``asyncError`` or returned.")


@binding(_RCCL, 1)
def ncclCommCount(comm: Any) -> int:
    """The number of ranks of the communicator's clique."""
    return _coll.comm_count(_comm(comm))


@binding(_RCCL, 1)
def ncclCommCuDevice(comm: Any) -> int:
    """The device of the communicator."""
    return _coll.comm_device(_comm(comm))


@binding(_RCCL, 1)
def ncclCommUserRank(comm: Any) -> int:
    """The communicator's rank in its clique."""
    return _coll.comm_user_rank(_comm(comm))


def _register(comm: Any, buff: Any, size: int, handle: Any) -> int | None:
    return _coll.comm_register(_comm(comm), _buffer(buff), size)


ncclCommRegister = out_parameters(_RCCL, _register, {"handle": np.uint64}, _invalid, null_first=False,
                                  integers={"size": "size_t"}, store=lambda h: 0 if h is None else int(h))
ncclCommRegister.__name__ = ncclCommRegister.__qualname__ = "ncclCommRegister"
ncclCommRegister.__doc__ = "Register a buffer with the communicator; the registration handle is written or returned."


@binding(_RCCL)
def ncclCommDeregister(comm: Any, handle: Any) -> None:
    """Drop a registration (``ncclInvalidUsage`` for a handle the communicator did not give)."""
    _coll.comm_deregister(_comm(comm), pointer_value(handle))


# --- user reduction operators ------------------------------------------------------------------------


def _pre_mul_sum(op: Any, scalar: Any, datatype: Any, residence: Any, comm: Any) -> Any:
    check_enum(datatype, ncclDataType_t, "datatype")
    check_enum(residence, ncclScalarResidence_t, "residence")
    c = _coll.ensure_ready(_comm(comm))  # RCCL checks the communicator before it reads the scalar
    value: bytes | int = _buffer(scalar)
    if int(residence) == int(ncclScalarResidence_t.ncclScalarHostImmediate):
        if not 0 <= int(datatype) < _coll.NUM_TYPES:
            raise _coll.InvalidArgumentError(f"invalid type {int(datatype)}", arg="datatype")
        raw = read_host(scalar, np.uint8, _coll.type_size(int(datatype)), "scalar", _invalid)
        if raw is None:
            raise _coll.InvalidArgumentError("scalar is NULL", arg="scalar")
        value = raw.tobytes()
    return _user_op(_coll.red_op_create_pre_mul_sum(value, int(datatype), int(residence), c))


ncclRedOpCreatePreMulSum = out_parameters(_RCCL, _pre_mul_sum, {"op": np.int32}, _invalid, null_first=False)
ncclRedOpCreatePreMulSum.__name__ = ncclRedOpCreatePreMulSum.__qualname__ = "ncclRedOpCreatePreMulSum"
ncclRedOpCreatePreMulSum.__doc__ = ("A reduction operator multiplying each rank's input by its ``scalar`` before "
                                    "summing, for ``comm`` and ``datatype``; written through ``op`` (a C int) or "
                                    "returned as an ``op`` the collectives accept.")


@binding(_RCCL)
def ncclRedOpDestroy(op: Any, comm: Any) -> None:
    """Destroy a user operator of ``comm``."""
    check_enum(op, ncclRedOp_t, "op")
    _coll.red_op_destroy(int(op), _comm(comm))


# --- collectives -------------------------------------------------------------------------------------


def _checked(datatype: Any, op: Any = None) -> tuple[int, int]:
    check_enum(datatype, ncclDataType_t, "datatype")
    if op is not None:
        check_enum(op, ncclRedOp_t, "op")
    return int(datatype), int(op) if op is not None else 0


@binding(_RCCL)
def ncclReduce(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, op: Any, root: int, comm: Any,
               stream: Any) -> None:
    """Reduce every rank's ``count`` elements into ``root``'s ``recvbuff`` (NULL elsewhere is allowed)."""
    n, r = _size(count, "count"), _int(root, "root")
    dt, o = _checked(datatype, op)
    _coll.reduce(_buffer(sendbuff), _buffer(recvbuff), n, dt, o, r, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclBcast(buff: Any, count: int, datatype: Any, root: int, comm: Any, stream: Any) -> None:
    """In-place broadcast of ``root``'s ``buff`` (deprecated form of :func:`ncclBroadcast`)."""
    n, r = _size(count, "count"), _int(root, "root")
    dt, _ = _checked(datatype)
    b = _buffer(buff)
    _coll.broadcast(b, b, n, dt, r, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclBroadcast(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, root: int, comm: Any,
                  stream: Any) -> None:
    """``root``'s ``sendbuff`` into every rank's ``recvbuff`` (``sendbuff`` may be NULL off the root)."""
    n, r = _size(count, "count"), _int(root, "root")
    dt, _ = _checked(datatype)
    _coll.broadcast(_buffer(sendbuff), _buffer(recvbuff), n, dt, r, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclAllReduce(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, op: Any, comm: Any,
                  stream: Any) -> None:
    """Every rank's ``recvbuff`` gets the reduction of all ranks' ``sendbuff`` (in place when equal)."""
    n = _size(count, "count")
    dt, o = _checked(datatype, op)
    _coll.all_reduce(_buffer(sendbuff), _buffer(recvbuff), n, dt, o, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclReduceScatter(sendbuff: Any, recvbuff: Any, recvcount: int, datatype: Any, op: Any, comm: Any,
                      stream: Any) -> None:
    """Rank ``i`` gets block ``i`` (``recvcount`` elements) of the reduction of the ``sendbuff``s."""
    n = _size(recvcount, "recvcount")
    dt, o = _checked(datatype, op)
    _coll.reduce_scatter(_buffer(sendbuff), _buffer(recvbuff), n, dt, o, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclAllGather(sendbuff: Any, recvbuff: Any, sendcount: int, datatype: Any, comm: Any, stream: Any) -> None:
    """Rank ``i``'s ``sendcount`` elements at offset ``i*sendcount`` of every ``recvbuff``."""
    n = _size(sendcount, "sendcount")
    dt, _ = _checked(datatype)
    _coll.all_gather(_buffer(sendbuff), _buffer(recvbuff), n, dt, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclSend(sendbuff: Any, count: int, datatype: Any, peer: int, comm: Any, stream: Any) -> None:
    """Send ``count`` elements to ``peer`` (which receives the same count from this rank)."""
    n, p = _size(count, "count"), _int(peer, "peer")
    dt, _ = _checked(datatype)
    _coll.send(_buffer(sendbuff), n, dt, p, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclRecv(recvbuff: Any, count: int, datatype: Any, peer: int, comm: Any, stream: Any) -> None:
    """Receive ``count`` elements from ``peer``."""
    n, p = _size(count, "count"), _int(peer, "peer")
    dt, _ = _checked(datatype)
    _coll.recv(_buffer(recvbuff), n, dt, p, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclGather(sendbuff: Any, recvbuff: Any, sendcount: int, datatype: Any, root: int, comm: Any,
               stream: Any) -> None:
    """``root`` gathers rank ``i``'s ``sendcount`` elements at offset ``i*sendcount`` of its ``recvbuff``."""
    n, r = _size(sendcount, "sendcount"), _int(root, "root")
    dt, _ = _checked(datatype)
    _coll.gather(_buffer(sendbuff), _buffer(recvbuff), n, dt, r, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclScatter(sendbuff: Any, recvbuff: Any, recvcount: int, datatype: Any, root: int, comm: Any,
                stream: Any) -> None:
    """Rank ``i`` receives block ``i`` (``recvcount`` elements) of ``root``'s ``sendbuff``."""
    n, r = _size(recvcount, "recvcount"), _int(root, "root")
    dt, _ = _checked(datatype)
    _coll.scatter(_buffer(sendbuff), _buffer(recvbuff), n, dt, r, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclAllToAll(sendbuff: Any, recvbuff: Any, count: int, datatype: Any, comm: Any, stream: Any) -> None:
    """Block ``j`` of rank ``i``'s ``sendbuff`` becomes block ``i`` of rank ``j``'s ``recvbuff``."""
    n = _size(count, "count")
    dt, _ = _checked(datatype)
    _coll.all_to_all(_buffer(sendbuff), _buffer(recvbuff), n, dt, _comm(comm), _stream(stream))


@binding(_RCCL)
def ncclAllToAllv(sendbuff: Any, sendcounts: Any, sdispls: Any, recvbuff: Any, recvcounts: Any, rdispls: Any,
                  datatype: Any, comm: Any, stream: Any) -> None:
    """``sendcounts[j]`` elements from ``sdispls[j]`` go to rank ``j``, arriving at its ``rdispls[i]``
    (arrays of ``size_t``: lists, or host memory)."""
    dt, _ = _checked(datatype)
    arrays = [_HostArray(a, np.uint64, name) for a, name in ((sendcounts, "sendcounts"), (sdispls, "sdispls"),
                                                             (recvcounts, "recvcounts"), (rdispls, "rdispls"))]
    _coll.all_to_allv(_buffer(sendbuff), arrays[0], arrays[1], _buffer(recvbuff), arrays[2], arrays[3], dt,
                      _comm(comm), _stream(stream))


# --- groups ------------------------------------------------------------------------------------------


@binding(_RCCL)
def ncclGroupStart() -> None:
    """Start a group: RCCL calls until the matching :func:`ncclGroupEnd` are launched together."""
    _coll.group_start()


@_reporting()
def ncclGroupEnd() -> Any:
    """End a group (``ncclInvalidUsage`` outside one); at the outermost end its calls are launched."""
    return _coll.group_end()


# --- profiling twins ---------------------------------------------------------------------------------


def _pnccl(fn: Callable[..., tuple[Any, ...]]) -> Callable[..., tuple[Any, ...]]:
    """The ``pnccl`` twin of an API function (same behaviour, RCCL's profiling entry point)."""

    @functools.wraps(fn)
    def twin(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        return fn(*args, **kwargs)

    twin.__name__ = twin.__qualname__ = "p" + fn.__name__
    return twin


pncclMemAlloc = _pnccl(ncclMemAlloc)
pncclMemFree = _pnccl(ncclMemFree)
pncclGetVersion = _pnccl(ncclGetVersion)
pncclGetUniqueId = _pnccl(ncclGetUniqueId)
pncclCommInitRankConfig = _pnccl(ncclCommInitRankConfig)
pncclCommInitRank = _pnccl(ncclCommInitRank)
pncclCommInitAll = _pnccl(ncclCommInitAll)
pncclCommFinalize = _pnccl(ncclCommFinalize)
pncclCommDestroy = _pnccl(ncclCommDestroy)
pncclCommAbort = _pnccl(ncclCommAbort)
pncclCommSplit = _pnccl(ncclCommSplit)
pncclGetErrorString = _pnccl(ncclGetErrorString)
pncclGetLastError = _pnccl(ncclGetLastError)
pncclCommGetAsyncError = _pnccl(ncclCommGetAsyncError)
pncclCommCount = _pnccl(ncclCommCount)
pncclCommCuDevice = _pnccl(ncclCommCuDevice)
pncclCommUserRank = _pnccl(ncclCommUserRank)
pncclCommRegister = _pnccl(ncclCommRegister)
pncclCommDeregister = _pnccl(ncclCommDeregister)
pncclRedOpCreatePreMulSum = _pnccl(ncclRedOpCreatePreMulSum)
pncclRedOpDestroy = _pnccl(ncclRedOpDestroy)
pncclReduce = _pnccl(ncclReduce)
pncclBcast = _pnccl(ncclBcast)
pncclBroadcast = _pnccl(ncclBroadcast)
pncclAllReduce = _pnccl(ncclAllReduce)
pncclReduceScatter = _pnccl(ncclReduceScatter)
pncclAllGather = _pnccl(ncclAllGather)
pncclSend = _pnccl(ncclSend)
pncclRecv = _pnccl(ncclRecv)
pncclGather = _pnccl(ncclGather)
pncclScatter = _pnccl(ncclScatter)
pncclAllToAll = _pnccl(ncclAllToAll)
pncclAllToAllv = _pnccl(ncclAllToAllv)
pncclGroupStart = _pnccl(ncclGroupStart)
pncclGroupEnd = _pnccl(ncclGroupEnd)

#: hip-python 6.2's ``rccl.__all__``, in its order.
__all__ = [
    "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", "NCCL_SUFFIX", "NCCL_VERSION_CODE", "RCCL_BFLOAT16",
    "RCCL_GATHER_SCATTER", "RCCL_ALLTOALLV", "NCCL_UNIQUE_ID_BYTES", "ncclComm", "ncclComm_t", "ncclUniqueId",
    "_ncclResult_t__Base", "ncclResult_t", "ncclConfig_v21700", "ncclConfig_t", "ncclMemAlloc", "pncclMemAlloc",
    "ncclMemFree", "pncclMemFree", "ncclGetVersion", "pncclGetVersion", "ncclGetUniqueId", "pncclGetUniqueId",
    "ncclCommInitRankConfig", "pncclCommInitRankConfig", "ncclCommInitRank", "pncclCommInitRank",
    "ncclCommInitAll", "pncclCommInitAll", "ncclCommFinalize", "pncclCommFinalize", "ncclCommDestroy",
    "pncclCommDestroy", "ncclCommAbort", "pncclCommAbort", "ncclCommSplit", "pncclCommSplit", "ncclGetErrorString",
    "pncclGetErrorString", "ncclGetLastError", "pncclGetLastError", "ncclCommGetAsyncError",
    "pncclCommGetAsyncError", "ncclCommCount", "pncclCommCount", "ncclCommCuDevice", "pncclCommCuDevice",
    "ncclCommUserRank", "pncclCommUserRank", "ncclCommRegister", "pncclCommRegister", "ncclCommDeregister",
    "pncclCommDeregister", "_ncclRedOp_dummy_t__Base", "ncclRedOp_dummy_t", "_ncclRedOp_t__Base", "ncclRedOp_t",
    "_ncclDataType_t__Base", "ncclDataType_t", "_ncclScalarResidence_t__Base", "ncclScalarResidence_t",
    "ncclRedOpCreatePreMulSum", "pncclRedOpCreatePreMulSum", "ncclRedOpDestroy", "pncclRedOpDestroy", "ncclReduce",
    "pncclReduce", "ncclBcast", "pncclBcast", "ncclBroadcast", "pncclBroadcast", "ncclAllReduce", "pncclAllReduce",
    "ncclReduceScatter", "pncclReduceScatter", "ncclAllGather", "pncclAllGather", "ncclSend", "pncclSend",
    "ncclRecv", "pncclRecv", "ncclGather", "pncclGather", "ncclScatter", "pncclScatter", "ncclAllToAll",
    "pncclAllToAll", "ncclAllToAllv", "pncclAllToAllv", "ncclGroupStart", "pncclGroupStart", "ncclGroupEnd",
    "pncclGroupEnd",
]
