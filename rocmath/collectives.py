"""Collective communication among the simulated devices: RCCL's communicators, collectives and transfers.

A communicator clique is a set of ranks, one per device, made by :func:`init_rank` (each rank in
its own host thread, joining a :func:`get_unique_id`; the call blocks until all ``nranks`` have
joined, as NCCL's bootstrap does), :func:`init_all` (one process, a list of devices) or
:func:`comm_split`.  Collectives (:func:`all_reduce`, :func:`broadcast`, :func:`reduce`,
:func:`all_gather`, :func:`reduce_scatter`; :func:`gather`, :func:`scatter`, :func:`all_to_all`
and :func:`all_to_allv` built from point-to-point :func:`send`/:func:`recv`, as RCCL builds
them) are stream-ordered work on each rank's stream over each rank's device memory.

Semantics follow RCCL 6.2 (src/enqueue.cc, src/group.cc, src/init.cc, src/misc/argcheck.cc):

- Argument checks in RCCL's order: communicator (NULL, unusable), root/peer range, data type,
  reduction operation, then -- only when ``NCCL_CHECK_POINTERS=1`` is set when the communicator is
  made, RCCL's default being off -- that buffers are device-visible memory (device memory of the
  communicator's device, managed or pinned memory).  Without the check a bad buffer faults the
  work on the stream, as a kernel would.
- Group semantics (:func:`group_start`/:func:`group_end`, per host thread, nestable): calls in a
  group are checked when made and launched together at the outermost end, one launch per
  communicator; a failed call poisons the group (its end fails and discards everything).  Within a
  group, point-to-point operations progress together, so a ring of sends and receives cannot
  deadlock; outside one a send waits for its receive.  Collectives match across ranks in issue
  order (within a group in RCCL's sorted order); sends match receives per peer pair in order.
- A launch is one task on the rank's stream (other streams of the group wait for it, and it for
  them).  It posts each operation to a rendezvous shared by the participating ranks -- inputs
  copied as the rank's stream reaches them, outputs located -- and the rank that completes a
  rendezvous moves all of its data; every participant's task finishes once its operations are
  complete.  Posting never blocks, so the stream workers wait only for their peers' work.
- Reductions combine the ranks' contributions in rank order, element type by element type as the
  device kernels do (``ncclAvg``: pre-multiplied by ``1/nranks`` for floating types, summed then
  divided for integers; :func:`red_op_create_pre_mul_sum`), so results are bitwise reproducible.
- In-place variants (``sendbuff == recvbuff``, or at the rank's block for gather-like operations)
  read every input before any output of the launch is written.
- ``ncclFp8E4M3``/``ncclFp8E5M2`` move like any bytes; their reductions (fp8 arithmetic) are not
  simulated and are refused with ``ncclInvalidArgument``.

Failures are exceptions carrying RCCL's ``ncclResult_t`` value (:class:`CollectiveError`);
:func:`last_error` is the text of the latest one (``ncclGetLastError``).
"""

from __future__ import annotations

import ctypes
import enum
import itertools
import os
import secrets
import struct
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import device as _device
from .errors import HipError, LaunchFailureError, MemoryAccessFault, RocmathError
from .memory import MemoryKind, address_space
from .precision import from_bfloat16, to_bfloat16
from .stream import Event, Stream

__all__ = [
    "CONFIG_MAGIC", "CONFIG_UNDEF_INT", "Communicator", "CollectiveError", "Config", "DataType",
    "InvalidArgumentError", "InvalidUsageError", "MAX_RED_OP", "NUM_OPS", "NUM_TYPES", "NcclResult", "RedOp",
    "ScalarResidence", "SPLIT_NOCOLOR", "UNIQUE_ID_BYTES", "UnhandledHipError", "VERSION_CODE", "all_gather",
    "all_reduce", "all_to_all", "all_to_allv", "broadcast", "comm_abort", "comm_count", "comm_deregister",
    "comm_destroy", "comm_device", "comm_finalize", "comm_get_async_error", "comm_register", "comm_split",
    "comm_user_rank", "config_from_bytes", "ensure_ready", "error_string", "gather", "get_unique_id", "group",
    "group_end", "group_start", "init_all", "init_rank", "last_error", "recv", "red_op_create_pre_mul_sum",
    "red_op_destroy", "reduce", "reduce_scatter", "scatter", "send", "version",
]


class NcclResult(enum.IntEnum):
    """``ncclResult_t`` values (nccl.h)."""

    ncclSuccess = 0
    ncclUnhandledCudaError = 1
    ncclSystemError = 2
    ncclInternalError = 3
    ncclInvalidArgument = 4
    ncclInvalidUsage = 5
    ncclRemoteError = 6
    ncclInProgress = 7


class DataType(enum.IntEnum):
    """``ncclDataType_t`` values (``ncclChar``, ``ncclInt``, ``ncclHalf``... are aliases of these)."""

    int8 = 0
    uint8 = 1
    int32 = 2
    uint32 = 3
    int64 = 4
    uint64 = 5
    float16 = 6
    float32 = 7
    float64 = 8
    bfloat16 = 9
    fp8_e4m3 = 10
    fp8_e5m2 = 11


class RedOp(enum.IntEnum):
    """The built-in ``ncclRedOp_t`` values; user operators take values from :data:`NUM_OPS` up."""

    sum = 0
    prod = 1
    max = 2
    min = 3
    avg = 4


class ScalarResidence(enum.IntEnum):
    """``ncclScalarResidence_t``: where a pre-multiplier lives."""

    device = 0
    host_immediate = 1


NUM_OPS = 5
NUM_TYPES = 12
MAX_RED_OP = 0x7FFFFFFF
SPLIT_NOCOLOR = -1
UNIQUE_ID_BYTES = 128
CONFIG_MAGIC = 0xCAFEBEEF
CONFIG_UNDEF_INT = -(1 << 31)
#: RCCL 6.2.0 is NCCL 2.20.5: ``NCCL_VERSION(2, 20, 5)``.
VERSION = (2, 20, 5)
VERSION_CODE = VERSION[0] * 10000 + VERSION[1] * 100 + VERSION[2]
#: MAXCHANNELS, the default ``maxCTAs``.
_MAX_CHANNELS = 64
_PAGE = 4096


def _nccl_version(x: int, y: int, z: int) -> int:
    return x * 1000 + y * 100 + z if x <= 2 and y <= 8 else x * 10000 + y * 100 + z


def version() -> int:
    """``ncclGetVersion``: the NCCL version code RCCL reports."""
    return VERSION_CODE


# --- errors --------------------------------------------------------------------------------------

_last_lock = threading.Lock()
_last_text = ""


class CollectiveError(RocmathError):
    """A failure RCCL reports with an ``ncclResult_t`` (its :attr:`status`).  Making one records its
    message as the process's last error (``ncclGetLastError``), as RCCL's warnings do."""

    status = NcclResult.ncclInternalError

    def __init__(self, message: str = "", *, arg: str | None = None, index: int | None = None):
        global _last_text
        super().__init__(message, arg=arg, index=index)
        with _last_lock:
            _last_text = message


class InvalidArgumentError(CollectiveError, ValueError):
    status = NcclResult.ncclInvalidArgument


class InvalidUsageError(CollectiveError):
    status = NcclResult.ncclInvalidUsage


class UnhandledHipError(CollectiveError):
    """A HIP call RCCL makes failed (``ncclUnhandledCudaError``)."""

    status = NcclResult.ncclUnhandledCudaError


class NcclSystemError(CollectiveError):
    status = NcclResult.ncclSystemError


_ERRORS: dict[int, type[CollectiveError]] = {
    int(NcclResult.ncclUnhandledCudaError): UnhandledHipError, int(NcclResult.ncclSystemError): NcclSystemError,
    int(NcclResult.ncclInternalError): CollectiveError, int(NcclResult.ncclInvalidArgument): InvalidArgumentError,
    int(NcclResult.ncclInvalidUsage): InvalidUsageError,
}


def _error_of(result: int, message: str) -> CollectiveError:
    return _ERRORS.get(int(result), CollectiveError)(message)


def last_error() -> str:
    """The message of the latest failure (``ncclGetLastError``; empty before any)."""
    return _last_text


_ERROR_STRINGS = {
    0: "no error",
    1: "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
    2: "unhandled system error (run with NCCL_DEBUG=INFO for details)",
    3: "internal error - please report this issue to the NCCL developers",
    4: "invalid argument (run with NCCL_DEBUG=WARN for details)",
    5: "invalid usage (run with NCCL_DEBUG=WARN for details)",
    6: "remote process exited or there was a network error",
    7: "NCCL operation in progress",
}


def error_string(result: int) -> str:
    """``ncclGetErrorString``: RCCL's text for a result code."""
    return _ERROR_STRINGS.get(int(result), "unknown result code")


# --- data types and reductions ---------------------------------------------------------------------

_STORAGE: dict[int, np.dtype[Any]] = {
    DataType.int8: np.dtype(np.int8), DataType.uint8: np.dtype(np.uint8), DataType.int32: np.dtype(np.int32),
    DataType.uint32: np.dtype(np.uint32), DataType.int64: np.dtype(np.int64), DataType.uint64: np.dtype(np.uint64),
    DataType.float16: np.dtype(np.float16), DataType.float32: np.dtype(np.float32),
    DataType.float64: np.dtype(np.float64),
    # numpy has no bfloat16 or fp8: their bits travel as unsigned integers (rocmath.precision's convention).
    DataType.bfloat16: np.dtype(np.uint16), DataType.fp8_e4m3: np.dtype(np.uint8),
    DataType.fp8_e5m2: np.dtype(np.uint8),
}
_FP8 = (DataType.fp8_e4m3, DataType.fp8_e5m2)
_INTEGER = (DataType.int8, DataType.uint8, DataType.int32, DataType.uint32, DataType.int64, DataType.uint64)
_FUNC = {"Broadcast": 0, "Reduce": 1, "AllGather": 2, "ReduceScatter": 3, "AllReduce": 4}
_REDUCING = ("Reduce", "ReduceScatter", "AllReduce")
#: ncclDevRedOp_t: the device operator each ncclRedOp_t becomes (its order sorts a group's collectives).
_DEV_OP = {"sum": 0, "prod": 1, "minmax": 2, "premulsum": 3, "sumpostdiv": 4}


def type_size(datatype: int) -> int:
    """Bytes per element of a valid ``ncclDataType_t``."""
    return _STORAGE[int(datatype)].itemsize


def _binary(datatype: int, kind: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The element operation the device kernels apply for ``datatype`` (arrays of its storage dtype):
    integers wrap, floating types round to their own precision after each operation, bfloat16 is
    computed in float32 and rounded back (hip_bfloat16's arithmetic), max/min ignore NaNs (fmax/fmin)."""
    if datatype in _INTEGER:
        fn = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
    else:
        fn = {"sum": np.add, "prod": np.multiply, "max": np.fmax, "min": np.fmin}[kind]
    if datatype == DataType.bfloat16:
        return lambda a, b: to_bfloat16(fn(from_bfloat16(a), from_bfloat16(b)))
    return fn


def _trunc_div(x: np.ndarray, n: int) -> np.ndarray:
    """``x / n`` as C divides integers (toward zero), in ``x``'s type."""
    q = np.floor_divide(x, x.dtype.type(n))
    if x.dtype.kind == "i":
        q = q + ((np.remainder(x, x.dtype.type(n)) != 0) & (x < 0)).astype(x.dtype)
    return q


@dataclass(frozen=True)
class _OpSpec:
    """What a reduction operator is on the device (hostToDevRedOp's ncclDevRedOpFull): the device
    operator, and for pre-multiplication the scalar (its bytes, or the device address to read it from)."""

    kind: str  # "sum", "prod", "max", "min", "premulsum", "sumpostdiv"
    scalar: bytes | None = None
    scalar_address: int = 0
    divisor: int = 1

    @property
    def dev_op(self) -> int:
        return _DEV_OP["minmax" if self.kind in ("max", "min") else self.kind]

    def matches(self, other: _OpSpec) -> bool:
        return self.kind == other.kind and self.divisor == other.divisor


def _avg_spec(datatype: int, nranks: int) -> _OpSpec:
    if datatype in _INTEGER:
        return _OpSpec("sumpostdiv", divisor=nranks)
    inv = 1.0 / nranks
    if datatype == DataType.bfloat16:
        raw = to_bfloat16(np.float32(inv)).tobytes()
    else:
        raw = np.asarray(inv if datatype == DataType.float64 else np.float32(inv), dtype=_STORAGE[datatype]).tobytes()
    return _OpSpec("premulsum", scalar=raw)


def _reduce(inputs: Sequence[np.ndarray], datatype: int, specs: Sequence[_OpSpec], scalars: Sequence[bytes | None],
            nranks: int) -> np.ndarray:
    """The reduction of the ranks' contributions (storage-typed arrays), in rank order."""
    spec = specs[0]
    with np.errstate(all="ignore"):
        values = list(inputs)
        if spec.kind == "premulsum":
            mul = _binary(datatype, "prod")
            dt = _STORAGE[datatype]
            values = [mul(v, np.frombuffer(s or b"", dtype=dt, count=1)) for v, s in zip(values, scalars, strict=True)]
        combine = _binary(datatype, "sum" if spec.kind in ("premulsum", "sumpostdiv") else spec.kind)
        acc = np.array(values[0], copy=True)
        for v in values[1:]:
            acc = combine(acc, v)
        if spec.kind == "sumpostdiv":
            acc = _trunc_div(acc, spec.divisor)
    return np.asarray(acc, dtype=_STORAGE[datatype])


# --- configuration ---------------------------------------------------------------------------------


class _ConfigStruct(ctypes.Structure):
    """``ncclConfig_v21700``'s C layout."""

    _fields_ = [("size", ctypes.c_size_t), ("magic", ctypes.c_uint), ("version", ctypes.c_uint),
                ("blocking", ctypes.c_int), ("cgaClusterSize", ctypes.c_int), ("minCTAs", ctypes.c_int),
                ("maxCTAs", ctypes.c_int), ("netName", ctypes.c_char_p), ("splitShare", ctypes.c_int)]


CONFIG_SIZE = ctypes.sizeof(_ConfigStruct)


def _initializer() -> _ConfigStruct:
    """``NCCL_CONFIG_INITIALIZER``."""
    u = CONFIG_UNDEF_INT
    return _ConfigStruct(CONFIG_SIZE, CONFIG_MAGIC, _nccl_version(*VERSION), u, u, u, u, None, u)


@dataclass(frozen=True)
class Config:
    """A communicator's configuration after RCCL's defaults are applied (``ncclConfig_t``)."""

    blocking: int = 1
    cga_cluster_size: int = 4
    min_ctas: int = 1
    max_ctas: int = _MAX_CHANNELS
    net_name: bytes | None = None
    split_share: int = 0


def config_from_bytes(read: Callable[[int], bytes] | None) -> Config:
    """``parseCommConfig``: the configuration a user's ``ncclConfig_t`` asks for.

    ``read(n)`` gives the first ``n`` bytes of the user's struct (None: no struct, all defaults).
    As RCCL does, only the first ``size`` bytes (its first member) are taken over the initializer's
    values, older struct versions keep the defaults of later members, and each attribute is checked.

    Raises
    ------
    InvalidArgumentError
        A struct not made with ``NCCL_CONFIG_INITIALIZER`` (wrong magic) or an attribute out of range.
    """
    cfg = _initializer()
    default = _initializer()
    if read is not None:
        size = struct.unpack("<Q", read(8))[0]
        size = min(size, CONFIG_SIZE)
        raw = bytearray(bytes(cfg))
        raw[:size] = read(size)[:size]
        cfg = _ConfigStruct.from_buffer_copy(bytes(raw))
        if cfg.magic != CONFIG_MAGIC:
            raise InvalidArgumentError("ncclConfig_t was not initialized from NCCL_CONFIG_INITIALIZER (magic "
                                       f"0x{cfg.magic:x})", arg="config")
        if cfg.version < _nccl_version(2, 14, 0):
            cfg.blocking = default.blocking
        if cfg.version < _nccl_version(2, 17, 0):
            cfg.cgaClusterSize, cfg.minCTAs, cfg.maxCTAs = default.cgaClusterSize, default.minCTAs, default.maxCTAs
            cfg.netName = default.netName
    u = CONFIG_UNDEF_INT
    if cfg.blocking not in (u, 0, 1):
        raise InvalidArgumentError(f"config blocking must be 0 or 1, got {cfg.blocking}", arg="config")
    if cfg.cgaClusterSize != u and cfg.cgaClusterSize < 0:
        raise InvalidArgumentError(f"config cgaClusterSize must not be negative, got {cfg.cgaClusterSize}",
                                   arg="config")
    if ((cfg.minCTAs != u and cfg.minCTAs <= 0) or (cfg.maxCTAs != u and cfg.maxCTAs <= 0)
            or cfg.minCTAs > cfg.maxCTAs):
        raise InvalidArgumentError(f"config minCTAs/maxCTAs {cfg.minCTAs}/{cfg.maxCTAs} are invalid", arg="config")
    if cfg.splitShare not in (u, 0, 1):
        raise InvalidArgumentError(f"config splitShare must be 0 or 1, got {cfg.splitShare}", arg="config")

    def pick(value: Any, fallback: Any, undef: Any = u) -> Any:
        return fallback if value == undef else value

    return Config(pick(cfg.blocking, 1), pick(cfg.cgaClusterSize, 4), pick(cfg.minCTAs, 1),
                  pick(cfg.maxCTAs, _MAX_CHANNELS), cfg.netName, pick(cfg.splitShare, 0))


# --- communicators and cliques ---------------------------------------------------------------------

_id_counter = itertools.count(1)


def get_unique_id() -> bytes:
    """``ncclGetUniqueId``: 128 bytes naming a new clique (a random magic and this process's address)."""
    magic = secrets.randbits(64) | 1
    body = struct.pack("<QQQ", magic, os.getpid(), next(_id_counter)) + b"rocmath"
    return body.ljust(UNIQUE_ID_BYTES, b"\0")


@dataclass
class _Rendezvous:
    """One operation as all its participants see it: their posts, then completion."""

    expected: int
    posts: dict[Any, Any] = field(default_factory=dict)
    done: bool = False
    errors: dict[Any, BaseException] = field(default_factory=dict)


class _Clique:
    """The ranks of one communicator: their comms and the rendezvous of their operations."""

    def __init__(self, nranks: int, ident: bytes):
        self.nranks = nranks
        self.ident = ident
        self.comms: list[Communicator | None] = [None] * nranks
        self.cond = threading.Condition(threading.Lock())
        self.table: dict[Any, _Rendezvous] = {}
        self.splits: dict[int, _SplitEntry] = {}


@dataclass
class _Forming:
    """A clique whose ranks are still joining (NCCL's bootstrap root)."""

    nranks: int
    members: dict[int, Communicator] = field(default_factory=dict)
    clique: _Clique | None = None
    failed: BaseException | None = None


_forming: dict[bytes, _Forming] = {}
_forming_cond = threading.Condition(threading.Lock())


@dataclass
class _UserOp:
    datatype: int
    spec: _OpSpec


@dataclass
class _Registration:
    addr: int
    pages: int
    refs: int = 1


class Communicator:
    """One rank of a clique (``ncclComm_t``).

    Until its initialization has run (in a group, or in the background for a non-blocking
    configuration) ``rank``, ``nranks`` and ``device`` read 0, as RCCL's zeroed struct does.
    """

    def __init__(self, config: Config, check_pointers: bool):
        self.config = config
        self.check_pointers = check_pointers
        self.rank = 0
        self.nranks = 0
        self.device = 0
        self.clique: _Clique | None = None
        self.async_result = NcclResult.ncclSuccess
        self.initialized = False
        self.aborted = False
        self.destroyed = False
        self.finalized = False
        # A 32-bit hash standing for the C struct's address (user operator handles are mangled with it).
        self.hash = secrets.randbits(32) & MAX_RED_OP
        self._user_ops: dict[int, _UserOp] = {}
        self._free_ops: list[int] = []
        self._next_op = 0
        self._registrations: list[_Registration] = []
        # Operations of the current group, and the counters that match them with the peers'.
        self._colls: list[_Coll] = []
        self._p2ps: list[_P2p] = []
        self._streams: list[Stream] = []
        self._coll_seq = 0
        self._sends: dict[int, int] = {}
        self._recvs: dict[int, int] = {}
        self._split_seq = 0
        self._inflight: list[Any] = []
        self._job: threading.Thread | None = None

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else "aborted" if self.aborted else (
            "ready" if self.initialized else "initializing")
        return f"<rocmath Communicator rank {self.rank}/{self.nranks} on device {self.device} ({state})>"

    # -- state --------------------------------------------------------------------------------

    def _ensure_ready(self) -> None:
        """``ncclCommEnsureReady``: a pending non-blocking operation or an asynchronous error makes the
        communicator unusable (in progress reads as an invalid argument)."""
        if self.aborted:
            return
        result = self.async_result
        if result != NcclResult.ncclSuccess:
            if result == NcclResult.ncclInProgress:
                raise InvalidArgumentError("the communicator is used before its previous operation returned "
                                           "ncclSuccess", arg="comm")
            raise _error_of(result, "the communicator is used after an asynchronous error")
        job = self._job
        if job is not None:
            job.join()
            self._job = None

    def _track(self, task: Any) -> None:
        self._inflight = [t for t in self._inflight if not t.finished]
        self._inflight.append(task)

    def _quiesce(self) -> None:
        """Wait for all the work this rank launched (``commDestroySync``)."""
        for task in list(self._inflight):
            task.wait_finished()
        self._inflight.clear()


def _comm(comm: Any, what: str = "comm") -> Communicator:
    """``PtrCheck(comm)``: the communicator an argument names."""
    if comm is None or (isinstance(comm, int) and comm == 0):
        raise InvalidArgumentError(f"{what} argument is NULL", arg=what)
    if not isinstance(comm, Communicator):
        raise InvalidArgumentError(f"{what} is not a communicator", arg=what)
    if comm.destroyed:
        raise InvalidArgumentError(f"{what} has already been destroyed", arg=what)
    return comm


def _check_pointers_env() -> bool:
    return os.environ.get("NCCL_CHECK_POINTERS", "0").strip() == "1"


# --- groups ----------------------------------------------------------------------------------------


@dataclass
class _Job:
    """An initialization, split or finalization RCCL runs at the end of a group (ncclAsyncJob)."""

    comm: Communicator | None
    fn: Callable[[], None]
    error: BaseException | None = None

    def run(self) -> None:
        try:
            self.fn()
        except CollectiveError as exc:
            self.error = exc
        except HipError as exc:
            self.error = UnhandledHipError(f"{type(exc).__name__}: {exc.message}")


class _Group(threading.local):
    depth = 0
    error: CollectiveError | None = None
    blocking = -1

    def __init__(self) -> None:
        self.comms: list[Communicator] = []
        self.jobs: list[_Job] = []


_group = _Group()


def group_start() -> None:
    """``ncclGroupStart``: calls until the matching :func:`group_end` are launched together."""
    _group.depth += 1


def _group_error(exc: CollectiveError) -> None:
    """``ncclGroupErrCheck``: inside a group, a failure is remembered for its end."""
    if _group.depth > 0 and _group.error is None:
        _group.error = exc


def _cleanup(error: CollectiveError) -> None:
    """``groupCleanup``: forget the group's operations and jobs (their communicators keep the error when
    non-blocking)."""
    for comm in _group.comms:
        comm._colls, comm._p2ps, comm._streams = [], [], []
        if not comm.config.blocking:
            comm.async_result = error.status
    for job in _group.jobs:
        if job.comm is not None and not job.comm.config.blocking:
            job.comm.async_result = error.status
    _reset()


def _reset() -> None:
    _group.comms, _group.jobs = [], []
    _group.error, _group.blocking = None, -1


def _run_jobs(jobs: list[_Job]) -> None:
    """Run the jobs at once (each may wait for its peers' jobs); the first failure aborts the others."""
    if len(jobs) == 1:
        jobs[0].run()
    else:
        threads = [threading.Thread(target=j.run, name="rocmath-nccl-job", daemon=True) for j in jobs]
        for t in threads:
            t.start()
        pending = list(zip(jobs, threads, strict=True))
        failed = False
        while pending:
            still = []
            for job, t in pending:
                t.join(timeout=0.001)
                if t.is_alive():
                    still.append((job, t))
                elif job.error is not None and not failed:
                    failed = True
                    for other, _ in pending:  # the abort flag of every other job's communicator
                        _abort_forming(other.comm)
            pending = still
    first = next((j.error for j in jobs if j.error is not None), None)
    if first is not None:
        raise first


def _group_launch(jobs: list[_Job], comms: list[Communicator]) -> None:
    saved = _device.get_device()  # a job run on this thread sets its rank's device
    try:
        _run_jobs(jobs)
        for comm in comms:
            _launch(comm)
    finally:
        _device.set_device(saved)


def group_end() -> NcclResult:
    """``ncclGroupEnd``: at the outermost end, run the group's jobs then launch its operations.

    Returns ``ncclInProgress`` when the group holds jobs of non-blocking communicators (they go on in
    the background; :func:`comm_get_async_error` tells when they are done), ``ncclSuccess`` otherwise.

    Raises
    ------
    InvalidUsageError
        Outside a group.
    CollectiveError
        The group's first failure (of a call in it, or of a job); the group is discarded.
    """
    if _group.depth == 0:
        raise InvalidUsageError("ncclGroupEnd: not in a group call")
    _group.depth -= 1
    if _group.depth > 0:
        return NcclResult.ncclSuccess
    if _group.error is not None:
        err = _group.error
        _cleanup(err)
        raise err
    jobs, comms = list(_group.jobs), list(_group.comms)
    if not jobs and not comms:
        _reset()
        return NcclResult.ncclSuccess
    if _group.blocking == 0 and jobs:
        for c in [j.comm for j in jobs] + comms:
            if c is not None:
                c.async_result = NcclResult.ncclInProgress
        _reset()

        def background() -> None:
            result = NcclResult.ncclSuccess
            try:
                _group_launch(jobs, comms)
            except CollectiveError as exc:
                result = exc.status
                for comm in comms:
                    comm._colls, comm._p2ps, comm._streams = [], [], []
            for c in [j.comm for j in jobs] + comms:
                if c is not None:
                    c.async_result = result

        thread = threading.Thread(target=background, name="rocmath-nccl-group", daemon=True)
        for c in [j.comm for j in jobs] + comms:
            if c is not None:
                c._job = thread
        thread.start()
        return NcclResult.ncclInProgress
    _reset()
    try:
        _group_launch(jobs, comms)
    except CollectiveError as exc:
        for comm in comms:
            comm._colls, comm._p2ps, comm._streams = [], [], []
        raise exc from None
    return NcclResult.ncclSuccess


@contextmanager
def group() -> Iterator[None]:
    """``with group():`` is :func:`group_start` ... :func:`group_end`."""
    group_start()
    try:
        yield
    finally:
        group_end()


def _async_launch(job: _Job) -> None:
    """``ncclAsyncLaunch``: run now outside a group, else at its end (blocking and non-blocking
    communicators may not share a group)."""
    if _group.depth == 0:
        job.run()
        if job.error is not None:
            raise job.error
        return
    blocking = 1 if job.comm is None else job.comm.config.blocking
    _group.jobs.append(job)
    if _group.blocking == -1:
        _group.blocking = blocking
    elif _group.blocking != blocking:
        raise InvalidArgumentError("blocking and non-blocking communicators are not allowed in the same group")


def _implicit(body: Callable[[], Any], comm: Communicator | None) -> Any:
    """Run ``body`` between ncclGroupStartInternal and ncclGroupEndInternal, as RCCL's entry points do:
    a failure inside an explicit group is remembered for its end, and the call reports it."""
    _group.depth += 1
    err: CollectiveError | None = None
    out = None
    try:
        out = body()
    except CollectiveError as exc:
        err = exc
        _group_error(exc)
    except HipError as exc:
        err = UnhandledHipError(f"{type(exc).__name__}: {exc.message}")
        _group_error(err)
    status = NcclResult.ncclSuccess
    try:
        status = group_end()  # raises the remembered failure when this was the outermost level
    except CollectiveError as exc:
        err = err or exc
    if err is not None:
        if comm is not None and not comm.config.blocking:  # a non-blocking communicator keeps it
            comm.async_result = err.status
        raise err
    return status, out


# --- initialization ----------------------------------------------------------------------------------


def _abort_forming(comm: Communicator | None) -> None:
    if comm is None:
        return
    with _forming_cond:
        comm.aborted = True
        _forming_cond.notify_all()


def _join(comm: Communicator, nranks: int, ident: bytes, rank: int, device: int) -> None:
    """``ncclCommInitRankFunc``: join the clique ``ident``, waiting for all its ranks."""
    try:
        _device.set_device(device)
    except RocmathError as exc:
        raise UnhandledHipError(f"hipSetDevice({device}) failed: {exc.message}") from None
    with _forming_cond:
        forming = _forming.get(ident)
        if forming is None:
            forming = _forming[ident] = _Forming(nranks)
        if forming.nranks != nranks:
            raise InvalidUsageError(f"rank {rank} joins a clique of {forming.nranks} ranks with nranks={nranks}")
        if rank in forming.members:
            raise InvalidUsageError(f"rank {rank} joined the clique twice")
        forming.members[rank] = comm
        comm.device = device
        if len(forming.members) == nranks:
            clique = _Clique(nranks, ident)
            for r, c in forming.members.items():
                clique.comms[r] = c
            forming.clique = clique
            del _forming[ident]
            _forming_cond.notify_all()
        while forming.clique is None and not comm.aborted:
            _forming_cond.wait()
        if forming.clique is None:
            forming.members.pop(rank, None)
            if not forming.members and _forming.get(ident) is forming:
                del _forming[ident]
            raise CollectiveError(f"rank {rank}: initialization aborted")
        clique = forming.clique
    _bind(comm, clique, rank)


def _bind(comm: Communicator, clique: _Clique, rank: int) -> None:
    """The rank's place in its clique (and RCCL's duplicate-device check)."""
    for r, other in enumerate(clique.comms):
        if r != rank and other is not None and other.device == comm.device:
            raise InvalidUsageError(f"duplicate GPU detected: rank {rank} and rank {r} both on device {comm.device}")
    comm.clique, comm.rank, comm.nranks = clique, rank, clique.nranks
    comm.initialized = True


def init_rank(nranks: int, unique_id: bytes | None, rank: int, *, config: Callable[[], Config] | None = None,
              with_config: bool = False, device: int | None = None) -> tuple[NcclResult, Communicator]:
    """``ncclCommInitRank`` (``with_config=False``) / ``ncclCommInitRankConfig``: this rank's communicator on
    ``device`` (the calling thread's current device when None).

    ``config`` parses the user's ``ncclConfig_t`` (:func:`config_from_bytes`; None: the defaults); it
    runs after the rank checks, where RCCL parses it.  Outside a group the call blocks until all
    ``nranks`` ranks of ``unique_id`` have joined (from other threads); inside one, the joins of the
    group run together at its end.  A non-blocking configuration returns at once with
    ``ncclInProgress``.

    Raises
    ------
    InvalidArgumentError
        ``nranks < 1`` or ``rank`` outside ``[0, nranks)``; a NULL ``unique_id``; a bad configuration.
    InvalidUsageError
        Two ranks of the clique on one device; a rank joining twice; ``nranks`` disagreeing.
    """
    dev = _device.get_device() if device is None else device

    def body() -> Communicator:
        if unique_id is None:
            raise InvalidArgumentError("commId is NULL", arg="commId")
        if nranks < 1 or rank < 0 or rank >= nranks:
            raise InvalidArgumentError(f"invalid rank requested: {rank}/{nranks}", arg="rank")
        cfg = config() if config is not None else Config()
        comm = Communicator(cfg, _check_pointers_env())
        ident = bytes(unique_id).ljust(UNIQUE_ID_BYTES, b"\0")[:UNIQUE_ID_BYTES]
        _async_launch(_Job(comm, lambda: _join(comm, nranks, ident, rank, dev)))
        return comm

    if not with_config:  # ncclCommInitRank opens no group of its own
        try:
            return NcclResult.ncclSuccess, body()
        except CollectiveError as exc:
            _group_error(exc)
            raise
    status, comm = _implicit(body, None)
    if not comm.config.blocking:  # RCCL answers with the communicator's state (in progress, or done)
        return NcclResult(comm.async_result), comm
    return status, comm


def init_all(devices: Sequence[int] | None, ndev: int) -> list[Communicator]:
    """``ncclCommInitAll``: a clique of ``ndev`` ranks in this process, rank ``i`` on ``devices[i]``
    (the first ``ndev`` devices when None).

    Raises
    ------
    InvalidArgumentError
        ``ndev < 0``.
    UnhandledHipError
        A device index that names no device.
    InvalidUsageError
        A device listed twice.
    """
    if ndev < 0:
        raise InvalidArgumentError(f"invalid device count requested: {ndev}", arg="ndev")
    total = _device.get_device_count()
    if devices is not None:
        seen: set[int] = set()
        for d in devices[:ndev]:
            if d < 0 or d >= total:
                raise UnhandledHipError(f"device {d} does not exist ({total} device(s))", arg="devlist")
            if d in seen:
                raise InvalidUsageError(f"device {d} is listed twice", arg="devlist")
            seen.add(d)
    ident = get_unique_id()
    group_start()
    comms = [_make_rank(ndev, ident, i, devices[i] if devices is not None else i) for i in range(ndev)]
    group_end()
    return comms


def _make_rank(nranks: int, ident: bytes, rank: int, device: int) -> Communicator:
    comm = Communicator(Config(), _check_pointers_env())
    _async_launch(_Job(comm, lambda: _join(comm, nranks, ident, rank, device)))
    return comm


def comm_split(comm: Any, color: int, key: int, config: Callable[[], Config] | None = None,
               out: Callable[[Communicator | None], None] | None = None) -> Communicator | None:
    """``ncclCommSplit``: ranks of ``comm`` with the same ``color`` form a new clique, ordered by
    ``key`` (ties: by their rank in ``comm``); :data:`SPLIT_NOCOLOR` leaves the rank out (None).

    Every rank of ``comm`` must call it: outside a group it blocks until all have; inside one the
    split runs at the group's end and ``out`` receives the new communicator then (None is returned
    until then, as RCCL leaves ``*newcomm`` NULL).  ``config`` parses the new communicator's
    configuration (after the checks of ``comm``, where RCCL parses it); without it the new
    communicator inherits ``comm``'s.
    """
    result: list[Communicator | None] = [None]

    def body() -> None:
        parent = _comm(comm)
        parent._ensure_ready()
        child = None
        if color != SPLIT_NOCOLOR:
            child = Communicator(config() if config is not None else parent.config, parent.check_pointers)
            child.device = parent.device

        def run() -> None:
            made = _split(parent, color, key, child)
            result[0] = made
            if out is not None:
                out(made)

        _async_launch(_Job(parent, run))

    _implicit(body, None)
    return result[0]


def _split(parent: Communicator, color: int, key: int, child: Communicator | None) -> Communicator | None:
    """``commGetSplitInfo`` + the child's initialization: an allgather of (color, key) over the parent,
    then the ranks of each color ordered by key (ties: by parent rank) form a clique."""
    clique = parent.clique
    assert clique is not None
    seq = parent._split_seq
    parent._split_seq += 1
    with clique.cond:
        entry = clique.splits.setdefault(seq, _SplitEntry())
        entry.posts[parent.rank] = (color, key, child)
        if len(entry.posts) == clique.nranks:
            entry.made = _split_cliques(clique, seq, entry.posts)
            clique.cond.notify_all()
        while entry.made is None and not parent.aborted:
            clique.cond.wait()
        if entry.made is None:
            entry.posts.pop(parent.rank, None)
            raise CollectiveError(f"rank {parent.rank}: split aborted")
        entry.readers += 1
        if entry.readers == clique.nranks:
            del clique.splits[seq]
        made = entry.made
    if child is None:
        return None
    new_clique, new_rank = made[parent.rank]
    _bind(child, new_clique, new_rank)
    return child


@dataclass
class _SplitEntry:
    posts: dict[int, tuple[int, int, Communicator | None]] = field(default_factory=dict)
    made: dict[int, tuple[_Clique, int]] | None = None
    readers: int = 0


def _split_cliques(clique: _Clique, seq: int, posts: dict[int, tuple[int, int, Communicator | None]]
                   ) -> dict[int, tuple[_Clique, int]]:
    made: dict[int, tuple[_Clique, int]] = {}
    colors: dict[int, list[int]] = {}
    for r in range(clique.nranks):
        if posts[r][0] != SPLIT_NOCOLOR:
            colors.setdefault(posts[r][0], []).append(r)
    for c, members in colors.items():
        ordered = sorted(members, key=lambda r: posts[r][1])  # stable: ties keep the parent's order
        child = _Clique(len(ordered), clique.ident + struct.pack("<qq", seq, c))
        for i, r in enumerate(ordered):
            child.comms[i] = posts[r][2]
            made[r] = (child, i)
    return made


# --- queries and teardown ---------------------------------------------------------------------------


def ensure_ready(comm: Any) -> Communicator:
    """The communicator an argument names, usable (``PtrCheck`` and ``ncclCommEnsureReady``)."""
    c = _comm(comm)
    c._ensure_ready()
    return c


def comm_count(comm: Any) -> int:
    """``ncclCommCount``."""
    c = _comm(comm)
    c._ensure_ready()
    return c.nranks


def comm_device(comm: Any) -> int:
    """``ncclCommCuDevice``."""
    c = _comm(comm)
    c._ensure_ready()
    return c.device


def comm_user_rank(comm: Any) -> int:
    """``ncclCommUserRank``."""
    c = _comm(comm)
    c._ensure_ready()
    return c.rank


def comm_get_async_error(comm: Any) -> NcclResult:
    """``ncclCommGetAsyncError``: ``ncclInProgress`` while a non-blocking operation runs, then its result."""
    return NcclResult(_comm(comm).async_result)


def comm_finalize(comm: Any) -> NcclResult:
    """``ncclCommFinalize``: wait for all the work the rank launched (in the background for a non-blocking
    communicator: ``ncclInProgress``).  NULL is accepted.

    Raises
    ------
    InvalidArgumentError
        A communicator finalized already.
    """
    if comm is None:
        return NcclResult.ncclSuccess
    c = _comm(comm)

    def body() -> None:
        c._ensure_ready()
        if c.finalized:
            raise InvalidArgumentError("the communicator is finalized already", arg="comm")

        def run() -> None:
            c._quiesce()
            c.finalized = True

        _async_launch(_Job(c, run))

    status, _ = _implicit(body, c)
    return status if c.config.blocking else NcclResult(c.async_result)


def comm_destroy(comm: Any) -> None:
    """``ncclCommDestroy``: wait for the rank's work unless finalized or aborted, then free it.  NULL is
    accepted; a destroyed communicator is an invalid argument."""
    if comm is None:
        return
    c = _comm(comm)
    c._ensure_ready()
    if c.async_result == NcclResult.ncclSuccess and not c.aborted and not c.finalized:
        c._quiesce()
    _free(c)


def comm_abort(comm: Any) -> None:
    """``ncclCommAbort``: the rank's pending work stops waiting for its peers (what it had not moved yet
    is left undone) and the communicator is freed.  NULL is accepted."""
    if comm is None:
        return
    c = _comm(comm)
    _abort_forming(c)
    clique = c.clique
    if clique is not None:
        with clique.cond:
            c.aborted = True
            clique.cond.notify_all()
    job = c._job
    if job is not None:
        job.join()
        c._job = None
    _free(c)


def _free(c: Communicator) -> None:
    c.destroyed = True
    c._user_ops.clear()
    c._registrations.clear()


def comm_register(comm: Any, buff: int, size: int) -> int | None:
    """``ncclCommRegister``: note a buffer for zero-copy use; returns the registration (one per range of
    pages: registering a range inside a registered one counts a reference to it)."""
    c = _comm(comm)
    if c.check_pointers:
        _pointer_check(c, buff, "buff", "ncclCommRegister")
    if os.environ.get("NCCL_LOCAL_REGISTER", "1").strip() == "0":
        return None
    addr = buff & -_PAGE
    pages = (buff + size - addr + _PAGE - 1) // _PAGE
    for reg in c._registrations:
        if reg.addr <= addr and (addr - reg.addr) // _PAGE + pages <= reg.pages:
            reg.refs += 1
            return _handle_of(reg)
    reg = _Registration(addr, pages)
    c._registrations.append(reg)
    c._registrations.sort(key=lambda r: r.addr)
    return _handle_of(reg)


_registration_ids: weakref.WeakValueDictionary[int, _Registration] = weakref.WeakValueDictionary()
_registration_counter = itertools.count(1)


def _handle_of(reg: _Registration) -> int:
    for k, v in _registration_ids.items():
        if v is reg:
            return k
    handle = 0x7D << 44 | next(_registration_counter) << 4
    _registration_ids[handle] = reg
    return handle


def comm_deregister(comm: Any, handle: int) -> None:
    """``ncclCommDeregister``: drop a reference to a registration.

    Raises
    ------
    InvalidUsageError
        A handle this communicator did not give.
    """
    c = _comm(comm)
    reg = _registration_ids.get(handle)
    if reg is None or all(r is not reg for r in c._registrations):
        raise InvalidUsageError("deregister: could not find the handle", arg="handle")
    reg.refs -= 1
    if reg.refs == 0:
        c._registrations = [r for r in c._registrations if r is not reg]


# --- user reduction operators ----------------------------------------------------------------------


def _mangle(comm: Communicator, op: int) -> int:
    """``ncclUserRedOpMangle``: XOR with the communicator's hash, its own inverse, built-ins preserved."""
    if op < NUM_OPS:
        return op
    op1 = comm.hash ^ op
    return op if op1 < NUM_OPS else op1


def red_op_create_pre_mul_sum(scalar: bytes | int, datatype: int, residence: int, comm: Any) -> int:
    """``ncclRedOpCreatePreMulSum``: an operator that multiplies each rank's input by its scalar, then sums.

    ``scalar`` is the value's bytes for ``ncclScalarHostImmediate`` (read now) or a device address
    for ``ncclScalarDevice`` (read when each collective runs).  Returns the operator's handle, valid
    for collectives of ``comm`` with ``datatype``.
    """
    c = _comm(comm)
    c._ensure_ready()
    if c._free_ops:
        ix = c._free_ops.pop()
    else:
        ix, c._next_op = c._next_op, c._next_op + 1
    if residence == ScalarResidence.host_immediate:
        spec = _OpSpec("premulsum", scalar=bytes(scalar))  # type: ignore[arg-type]
    else:
        spec = _OpSpec("premulsum", scalar_address=int(scalar))  # type: ignore[arg-type]
    c._user_ops[ix] = _UserOp(int(datatype), spec)
    return _mangle(c, NUM_OPS + ix)


def red_op_destroy(op: int, comm: Any) -> None:
    """``ncclRedOpDestroy``.

    Raises
    ------
    InvalidArgumentError
        A built-in operator, a value outside ``ncclRedOp_t``, a NULL communicator, an operator the
        communicator does not know.
    """
    if 0 <= op < NUM_OPS:
        raise InvalidArgumentError("ncclRedOpDestroy: the operator is a built-in", arg="op")
    if op < 0 or op > MAX_RED_OP:
        raise InvalidArgumentError(f"ncclRedOpDestroy: operator {op} is garbage", arg="op")
    if comm is None or (isinstance(comm, int) and comm == 0):
        raise InvalidArgumentError("ncclRedOpDestroy: invalid communicator", arg="comm")
    c = _comm(comm)
    ix = _mangle(c, op) - NUM_OPS
    if ix not in c._user_ops:
        raise InvalidArgumentError("ncclRedOpDestroy: operator unknown to this communicator", arg="op")
    del c._user_ops[ix]
    c._free_ops.append(ix)


# --- operations ------------------------------------------------------------------------------------


@dataclass
class _Coll:
    """One collective of a rank, as enqueued (ncclInfo after hostToDevRedOp)."""

    func: str
    sendbuff: int
    recvbuff: int
    count: int
    datatype: int
    spec: _OpSpec
    root: int
    stream: Stream
    seq: int = -1
    runs: int = 0

    @property
    def sort_key(self) -> tuple[int, int, int, int]:
        return (_FUNC[self.func], self.datatype, self.spec.dev_op, self.count)

    def describe(self) -> tuple[Any, ...]:
        return (self.func, self.count, self.datatype, self.root, self.spec.kind, self.spec.divisor)


@dataclass
class _P2p:
    send: bool
    buff: int
    nbytes: int
    peer: int
    stream: Stream
    index: int = -1
    runs: int = 0


def _info_name(func: str) -> str:
    return f"nccl{func}"


def _type_ok(datatype: int) -> bool:
    return 0 <= datatype < NUM_TYPES


def _pointer_check(c: Communicator, address: int, arg: str, op: str) -> None:
    """``CudaPtrCheck``: device-visible memory (HIP has a device pointer for it), and device memory must be
    the communicator's device's."""
    alloc = address_space.find(address) if address else None
    if alloc is None or not alloc.live or alloc.pooled:
        raise InvalidArgumentError(f"{op}: {arg} 0x{address:x} is not a valid pointer", arg=arg)
    if alloc.kind is MemoryKind.DEVICE and alloc.device != c.device:
        raise InvalidArgumentError(f"{op}: {arg} allocated on device {alloc.device} mismatches with the "
                                   f"communicator's device {c.device}", arg=arg)


def _args_check(c: Communicator, func: str, send: int, recv: int, count: int, datatype: int, op: int,
                root: int) -> None:
    """``ArgsCheck``: root, type, operator, then (``NCCL_CHECK_POINTERS=1``) the buffers."""
    name = _info_name(func)
    if root < 0 or root >= c.nranks:
        raise InvalidArgumentError(f"{name}: invalid root {root} (root should be in the 0..{c.nranks} range)",
                                   arg="peer" if func in ("Send", "Recv") else "root")
    if not _type_ok(datatype):
        raise InvalidArgumentError(f"{name}: invalid type {datatype}", arg="datatype")
    if op < 0 or op > MAX_RED_OP:
        raise InvalidArgumentError(f"{name}: invalid reduction operation {op}", arg="op")
    if op >= NUM_OPS and (_mangle(c, op) - NUM_OPS) not in c._user_ops:
        raise InvalidArgumentError(f"{name}: reduction operation {op} unknown to this communicator", arg="op")
    if c.check_pointers:
        if func in ("Send", "Recv"):
            if count > 0:
                _pointer_check(c, recv, "buff", name)
        else:
            if func != "Broadcast" or c.rank == root:
                _pointer_check(c, send, "sendbuff", name)
            if func != "Reduce" or c.rank == root:
                _pointer_check(c, recv, "recvbuff", name)


def _op_spec(c: Communicator, op: int, datatype: int) -> _OpSpec:
    """``hostToDevRedOp``."""
    if op < NUM_OPS:
        kind = RedOp(op).name
        if kind == "avg":
            return _avg_spec(datatype, c.nranks)
        return _OpSpec(kind)
    user = c._user_ops[_mangle(c, op) - NUM_OPS]
    if user.datatype != datatype:
        raise InvalidArgumentError("the data type given to a user-created ncclRedOp_t does not match the "
                                   "reduction's data type", arg="datatype")
    return user.spec


def _stream_of(c: Communicator, stream: Any) -> Stream:
    """The rank's stream: None is the null stream of the communicator's device."""
    if stream is None:
        return _device.get_device_object(c.device).null_stream
    if isinstance(stream, Stream):
        stream._check_alive()
        return stream
    raise UnhandledHipError(f"hipStreamGetCaptureInfo: {stream!r} is not a stream", arg="stream")


def _append_stream(c: Communicator, stream: Stream) -> None:
    """A communicator's streams in one group must all be uncaptured or all captured by one graph."""
    if not c._streams:
        c._streams.append(stream)
        return
    capture = stream._state.capture
    if capture is not c._streams[0]._state.capture:
        raise InvalidUsageError("streams given to a communicator within a group must either be all uncaptured "
                                "or all captured by the same graph", arg="stream")
    if all(s is not stream for s in c._streams):
        c._streams.append(stream)


def _join_group(c: Communicator) -> None:
    if all(x is not c for x in _group.comms):
        _group.comms.append(c)
    _group.blocking = c.config.blocking


def _enqueue(func: str, send: int, recv: int, count: int, datatype: int, op: int, root: int, comm: Any,
             stream: Any) -> None:
    """``ncclEnqueueCheck`` for one operation (collective or point-to-point)."""

    def body() -> None:
        c = _comm(comm)
        c._ensure_ready()
        _args_check(c, func, send, recv, count, datatype, op, root)
        if func in ("Send", "Recv"):
            s = _stream_of(c, stream)
            _join_group(c)
            counter = c._sends if func == "Send" else c._recvs
            index = counter.get(root, 0)
            counter[root] = index + 1
            c._p2ps.append(_P2p(func == "Send", recv, count * type_size(datatype), root, s, index))
            _append_stream(c, s)
            return
        if count == 0:
            return
        spec = _op_spec(c, op, datatype)
        if func in _REDUCING and datatype in _FP8:
            raise InvalidArgumentError(f"{_info_name(func)}: fp8 reductions are not simulated", arg="datatype")
        s = _stream_of(c, stream)
        _join_group(c)
        c._colls.append(_Coll(func, send, recv, count, datatype, spec, root, s))
        _append_stream(c, s)

    c = comm if isinstance(comm, Communicator) else None
    _implicit(body, c)


def all_reduce(sendbuff: int, recvbuff: int, count: int, datatype: int, op: int, comm: Any, stream: Any) -> None:
    """``ncclAllReduce``: every rank's ``recvbuff`` gets the reduction of all ``sendbuff``s."""
    _enqueue("AllReduce", sendbuff, recvbuff, count, datatype, op, 0, comm, stream)


def broadcast(sendbuff: int, recvbuff: int, count: int, datatype: int, root: int, comm: Any, stream: Any) -> None:
    """``ncclBroadcast`` (``ncclBcast`` is the in-place form): ``root``'s ``sendbuff`` to every ``recvbuff``."""
    _enqueue("Broadcast", sendbuff, recvbuff, count, datatype, RedOp.sum, root, comm, stream)


def reduce(sendbuff: int, recvbuff: int, count: int, datatype: int, op: int, root: int, comm: Any,
           stream: Any) -> None:
    """``ncclReduce``: the reduction of all ``sendbuff``s into ``root``'s ``recvbuff``."""
    _enqueue("Reduce", sendbuff, recvbuff, count, datatype, op, root, comm, stream)


def all_gather(sendbuff: int, recvbuff: int, sendcount: int, datatype: int, comm: Any, stream: Any) -> None:
    """``ncclAllGather``: rank ``i``'s ``sendcount`` elements at offset ``i*sendcount`` of every ``recvbuff``."""
    _enqueue("AllGather", sendbuff, recvbuff, sendcount, datatype, RedOp.sum, 0, comm, stream)


def reduce_scatter(sendbuff: int, recvbuff: int, recvcount: int, datatype: int, op: int, comm: Any,
                   stream: Any) -> None:
    """``ncclReduceScatter``: rank ``i`` gets block ``i`` of the reduction of the ``sendbuff``s."""
    _enqueue("ReduceScatter", sendbuff, recvbuff, recvcount, datatype, op, 0, comm, stream)


def send(sendbuff: int, count: int, datatype: int, peer: int, comm: Any, stream: Any) -> None:
    """``ncclSend``: to ``peer``, matching its ``count``-element :func:`recv` from this rank."""
    group_start()
    try:
        _enqueue("Send", 0, sendbuff, count, datatype, RedOp.sum, peer, comm, stream)
    finally:
        group_end()


def recv(recvbuff: int, count: int, datatype: int, peer: int, comm: Any, stream: Any) -> None:
    """``ncclRecv``: from ``peer``, matching its :func:`send` to this rank."""
    group_start()
    try:
        _enqueue("Recv", 0, recvbuff, count, datatype, RedOp.sum, peer, comm, stream)
    finally:
        group_end()


def _group_end_reporting(error: CollectiveError | None) -> None:
    try:
        group_end()
    except CollectiveError:
        if error is None:
            raise
    if error is not None:
        raise error


def _rooted(at_root: str, blocks: int, each: str, own: int, count: int, datatype: int, root: int, comm: Any,
            stream: Any) -> None:
    """Gather and scatter as RCCL builds them, in one group: on ``root``, ``at_root`` ("Recv" or "Send") of
    block r of ``blocks`` with every rank r; on every rank, ``each`` of ``own`` with the root."""
    nranks = comm_count(comm)
    if count == 0:
        return
    rank = comm_user_rank(comm)
    step = count * type_size(datatype) if _type_ok(datatype) else 0
    _p2p_group([*((at_root, blocks + r * step, r) for r in range(nranks) if rank == root),
                (each, own, root)], count, datatype, comm, stream)


def gather(sendbuff: int, recvbuff: int, sendcount: int, datatype: int, root: int, comm: Any,
           stream: Any) -> None:
    """``ncclGather`` (RCCL: receives on ``root`` and one send per rank, in a group)."""
    _rooted("Recv", recvbuff, "Send", sendbuff, sendcount, datatype, root, comm, stream)


def scatter(sendbuff: int, recvbuff: int, recvcount: int, datatype: int, root: int, comm: Any,
            stream: Any) -> None:
    """``ncclScatter`` (RCCL: sends from ``root`` and one receive per rank, in a group)."""
    _rooted("Send", sendbuff, "Recv", recvbuff, recvcount, datatype, root, comm, stream)


def all_to_all(sendbuff: int, recvbuff: int, count: int, datatype: int, comm: Any, stream: Any) -> None:
    """``ncclAllToAll``: block ``j`` of rank ``i``'s ``sendbuff`` to block ``i`` of rank ``j``'s ``recvbuff``
    (sends and receives in a group, as RCCL does; in place is not supported)."""
    nranks = comm_count(comm)
    if count == 0:
        return
    step = count * type_size(datatype) if _type_ok(datatype) else 0
    ops: list[tuple[str, int, int]] = []
    for r in range(nranks):
        ops += [("Send", sendbuff + r * step, r), ("Recv", recvbuff + r * step, r)]
    _p2p_group(ops, count, datatype, comm, stream)


def all_to_allv(sendbuff: int, sendcounts: Sequence[int], sdispls: Sequence[int], recvbuff: int,
                recvcounts: Sequence[int], rdispls: Sequence[int], datatype: int, comm: Any, stream: Any) -> None:
    """``ncclAllToAllv``: ``sendcounts[j]`` elements from offset ``sdispls[j]`` to rank ``j``, received at
    ``rdispls[j]`` (counts and offsets in elements); zero counts send or receive nothing."""
    nranks = comm_count(comm)
    size = type_size(datatype) if _type_ok(datatype) else 0
    group_start()
    error: CollectiveError | None = None
    try:
        for r in range(nranks):
            if sendcounts[r]:
                send(sendbuff + sdispls[r] * size, sendcounts[r], datatype, r, comm, stream)
            if recvcounts[r]:
                recv(recvbuff + rdispls[r] * size, recvcounts[r], datatype, r, comm, stream)
    except CollectiveError as exc:
        error = exc
    _group_end_reporting(error)


def _p2p_group(ops: list[tuple[str, int, int]], count: int, datatype: int, comm: Any, stream: Any) -> None:
    group_start()
    error: CollectiveError | None = None
    try:
        for kind, buff, peer in ops:
            (send if kind == "Send" else recv)(buff, count, datatype, peer, comm, stream)
    except CollectiveError as exc:
        error = exc
    _group_end_reporting(error)


# --- launch and execution ---------------------------------------------------------------------------


def _launch(c: Communicator) -> None:
    """``doLaunches`` for one communicator: one task on the first stream, the others joined to it."""
    colls, p2ps, streams = c._colls, c._p2ps, c._streams
    c._colls, c._p2ps, c._streams = [], [], []
    if not colls and not p2ps:
        return
    # collCmp + ncclIntruQueueSortEnqueue: descending keys, equal keys latest first.
    colls = sorted(colls, key=lambda x: x.sort_key)[::-1]
    for x in colls:
        x.seq, c._coll_seq = c._coll_seq, c._coll_seq + 1
    main = streams[0]
    for other in streams[1:]:
        main.wait_event(Event(other.device.index).record(other))
    clique = c.clique
    assert clique is not None
    names = [x.func for x in colls] + ["Send" if p.send else "Recv" for p in p2ps]
    name = _info_name(names[0]) if len(names) == 1 else f"ncclGroup({', '.join(names)})"
    moved = sum(x.count * type_size(x.datatype) for x in colls) + sum(p.nbytes for p in p2ps)
    info = {"cat": "collective", "bytes": moved, "rank": c.rank, "nranks": c.nranks}
    captured = main._state.capture is not None  # (a captured launch runs when its graph does)
    task = main.enqueue(lambda: _execute(c, clique, colls, p2ps), name, keep=(colls, p2ps), always_run=True,
                        info=info)
    if not captured:
        c._track(task)
    if len(streams) > 1:
        done = Event(main.device.index).record(main)
        for other in streams[1:]:
            other.wait_event(done)


def _span_view(address: int, nbytes: int, what: str) -> np.ndarray:
    """The bytes a kernel would touch: live device-visible rocmath memory (device of any device,
    managed, pinned), else the access faults."""
    if nbytes == 0:
        return np.empty(0, dtype=np.uint8)
    alloc = address_space.find(address) if address else None
    if alloc is None:
        raise MemoryAccessFault(f"{what}: 0x{address:x} is not device-accessible memory")
    span = address_space.span(address, 0, nbytes, op=what, arg=what)
    return span.alloc.bytes_view(span.offset, nbytes)


@dataclass
class _Post:
    """A rank's part of one operation: its input (copied as its stream reached it) and output bytes."""

    rank: int
    desc: tuple[Any, ...] = ()
    data: np.ndarray | None = None
    out: np.ndarray | None = None
    scalar: bytes | None = None
    spec: _OpSpec | None = None
    error: BaseException | None = None


def _prepare_coll(c: Communicator, x: _Coll) -> _Post:
    size = type_size(x.datatype)
    n = c.nranks
    post = _Post(c.rank, x.describe(), spec=x.spec)
    try:
        in_elems = {"AllReduce": x.count, "Reduce": x.count, "Broadcast": x.count if c.rank == x.root else 0,
                    "AllGather": x.count, "ReduceScatter": x.count * n}[x.func]
        out_elems = {"AllReduce": x.count, "Reduce": x.count if c.rank == x.root else 0, "Broadcast": x.count,
                     "AllGather": x.count * n, "ReduceScatter": x.count}[x.func]
        name = _info_name(x.func)
        post.data = _span_view(x.sendbuff, in_elems * size, f"{name} sendbuff").copy()
        post.out = _span_view(x.recvbuff, out_elems * size, f"{name} recvbuff")
        if x.spec.kind == "premulsum":
            post.scalar = x.spec.scalar if x.spec.scalar is not None else \
                _span_view(x.spec.scalar_address, size, f"{name} scalar").tobytes()
    except BaseException as exc:  # the peers must not wait for a part that faulted
        post.error = exc
    return post


def _complete_coll(rv: _Rendezvous, nranks: int) -> None:
    posts = [rv.posts[r] for r in range(nranks)]
    desc = posts[0].desc
    if any(p.desc != desc for p in posts):
        detail = "; ".join(f"rank {p.rank}: {p.desc[0]} count {p.desc[1]} type {p.desc[2]} root {p.desc[3]} "
                           f"op {p.desc[4]}" for p in posts)
        raise LaunchFailureError(f"the ranks' collectives do not match ({detail})")
    func, count, datatype, root = desc[0], desc[1], desc[2], desc[3]
    dt = _STORAGE[datatype]

    def typed(p: _Post) -> np.ndarray:
        assert p.data is not None
        return p.data.view(dt)

    if func == "Broadcast":
        src = posts[root].data
        results = {p.rank: src for p in posts}
    elif func == "AllGather":
        whole = np.concatenate([p.data for p in posts]) if posts else np.empty(0, np.uint8)  # type: ignore[misc]
        results = {p.rank: whole for p in posts}
    else:
        specs = [p.spec for p in posts]
        scalars = [p.scalar for p in posts]
        red = _reduce([typed(p) for p in posts], datatype, specs, scalars, nranks).view(np.uint8)  # type: ignore[arg-type]
        if func == "AllReduce":
            results = {p.rank: red for p in posts}
        elif func == "Reduce":
            results = {root: red}
        else:  # ReduceScatter
            block = count * dt.itemsize
            results = {p.rank: red[p.rank * block:(p.rank + 1) * block] for p in posts}
    for p in posts:
        if p.rank in results and p.out is not None and p.out.size:
            p.out[:] = results[p.rank]


def _complete(rv: _Rendezvous, kind: str, nranks: int) -> None:
    """Move the data of a rendezvous all of whose parts are posted (on the thread of the last poster)."""
    failed = {who: p.error for who, p in rv.posts.items() if p.error is not None}
    if failed:
        first = next(iter(failed.items()))
        for who in rv.posts:
            rv.errors[who] = failed.get(who) or LaunchFailureError(
                f"the peer's part ({first[0]}) failed: {type(first[1]).__name__}: {first[1]}")
        return
    try:
        if kind == "coll":
            _complete_coll(rv, nranks)
        else:
            snd, rcv = rv.posts["send"], rv.posts["recv"]
            assert snd.data is not None and rcv.out is not None
            if snd.data.size != rcv.out.size:
                raise LaunchFailureError(f"a send of {snd.data.size} bytes from rank {snd.rank} met a receive of "
                                         f"{rcv.out.size} bytes on rank {rcv.rank}")
            if rcv.out.size:
                rcv.out[:] = snd.data
    except BaseException as exc:
        for who in rv.posts:
            rv.errors[who] = exc


def _execute(c: Communicator, clique: _Clique, colls: list[_Coll], p2ps: list[_P2p]) -> None:
    """A launch on the rank's stream: post every operation, complete those this rank completes, then wait
    for the rest (or for an abort of the communicator)."""
    mine: list[tuple[_Rendezvous, Any]] = []
    finish: list[tuple[_Rendezvous, str]] = []
    posts: list[tuple[Any, int, Any, _Post]] = []
    for x in colls:
        posts.append((("coll", x.seq, x.runs), clique.nranks, c.rank, _prepare_coll(c, x)))
        x.runs += 1  # a graph replays the launch: its k-th run meets the peers' k-th
    for p in p2ps:
        post = _Post(c.rank)
        try:
            if p.send:
                post.data = _span_view(p.buff, p.nbytes, "ncclSend sendbuff").copy()
            else:
                post.out = _span_view(p.buff, p.nbytes, "ncclRecv recvbuff")
        except BaseException as exc:
            post.error = exc
        src, dst = (c.rank, p.peer) if p.send else (p.peer, c.rank)
        posts.append((("p2p", src, dst, p.index, p.runs), 2, "send" if p.send else "recv", post))
        p.runs += 1
    with clique.cond:
        for key, expected, who, post in posts:
            rv = clique.table.get(key)
            if rv is None:
                rv = clique.table[key] = _Rendezvous(expected)
            rv.posts[who] = post
            mine.append((rv, who))
            if len(rv.posts) == rv.expected:
                del clique.table[key]
                finish.append((rv, key[0]))
    for rv, kind in finish:
        _complete(rv, kind, clique.nranks)
    with clique.cond:
        for rv, _ in finish:
            rv.done = True
        if finish:
            clique.cond.notify_all()
        while not all(rv.done for rv, _ in mine) and not c.aborted:
            clique.cond.wait()
    if c.aborted:
        return
    for rv, who in mine:
        err = rv.errors.get(who)
        if err is not None:
            raise err


