"""``hip.hip``: the HIP runtime as hip-python binds it, over rocmath's simulated devices.

Every function returns a tuple whose first element is a :class:`hipError_t` member,
followed by the C out-parameters (``hipMalloc(size) -> (err, DeviceArray)``);
functions without out-parameters return ``(err,)``.  Enum-typed parameters must be
members of this module's enums (a plain int raises ``TypeError``, as in hip-python).
``#define`` constants are module ints.

Semantics are rocmath's: streams are real ordered queues, events time the actual
work, copies and fills are checked against the allocations they touch.  One
simplification: ``hipMemcpyKind`` is validated but the direction always comes from
the pointers (the AMD runtime does the same).  ``hipStreamPerThread`` is the calling
thread's own blocking stream on the current device, and ``hipMallocAsync`` allocates
from the device's stream-ordered memory pool (both in :mod:`rocmath.hip._hip_runtime2`,
which adds the rest of the runtime API at the end of this module).  Pinned
(``hipHostMalloc``) and managed (``hipMallocManaged``) memory is returned at the real
host address of its backing store, so ctypes and numpy can read it directly, as on a
GPU system.  Memory registered with ``hipHostRegister`` is known to the runtime (pointer
attributes, address range, device pointer) but copies treat it as pageable memory:
correct, just not overlapped with the host.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

import rocmath
from rocmath import memory as _memory
from rocmath import mempool
from rocmath import multi as _multi
from rocmath import stream as _stream_module
from rocmath.device import Device, get_device_object, get_device_properties
from rocmath.errors import (
    ContextIsDestroyedError,
    HipError,
    HipInvalidHandleError,
    HipInvalidValueError,
    HipNotSupportedError,
    HipStatus,
    InvalidDeviceError,
    InvalidDevicePointerError,
)
from rocmath.memory import MemoryKind, address_space
from rocmath.stream import Event, Stream, wait_device_idle

from ._api import StatusTable, binding, last_exception
from ._types import (
    CStr,
    DeviceArray,
    Pointer,
    Properties,
    _c_int,
    _c_typed,
    _set_properties,
    _Struct,
    c_enum,
    check_enum,
    host_mapped,
    pointer_value,
    resolve,
    unmap_host,
)
from ._types import host_bytes as _host_bytes

_MODULE = __name__

# --- enums -----------------------------------------------------------------------------------------

hipError_t = c_enum("hipError_t", [
    ("hipSuccess", 0), ("hipErrorInvalidValue", 1), ("hipErrorOutOfMemory", 2), ("hipErrorMemoryAllocation", 2),
    ("hipErrorNotInitialized", 3), ("hipErrorInitializationError", 3), ("hipErrorDeinitialized", 4),
    ("hipErrorProfilerDisabled", 5), ("hipErrorProfilerNotInitialized", 6), ("hipErrorProfilerAlreadyStarted", 7),
    ("hipErrorProfilerAlreadyStopped", 8), ("hipErrorInvalidConfiguration", 9), ("hipErrorInvalidPitchValue", 12),
    ("hipErrorInvalidSymbol", 13), ("hipErrorInvalidDevicePointer", 17), ("hipErrorInvalidMemcpyDirection", 21),
    ("hipErrorInsufficientDriver", 35), ("hipErrorMissingConfiguration", 52), ("hipErrorPriorLaunchFailure", 53),
    ("hipErrorInvalidDeviceFunction", 98), ("hipErrorNoDevice", 100), ("hipErrorInvalidDevice", 101),
    ("hipErrorInvalidImage", 200), ("hipErrorInvalidContext", 201), ("hipErrorContextAlreadyCurrent", 202),
    ("hipErrorMapFailed", 205), ("hipErrorMapBufferObjectFailed", 205), ("hipErrorUnmapFailed", 206),
    ("hipErrorArrayIsMapped", 207), ("hipErrorAlreadyMapped", 208), ("hipErrorNoBinaryForGpu", 209),
    ("hipErrorAlreadyAcquired", 210), ("hipErrorNotMapped", 211), ("hipErrorNotMappedAsArray", 212),
    ("hipErrorNotMappedAsPointer", 213), ("hipErrorECCNotCorrectable", 214), ("hipErrorUnsupportedLimit", 215),
    ("hipErrorContextAlreadyInUse", 216), ("hipErrorPeerAccessUnsupported", 217), ("hipErrorInvalidKernelFile", 218),
    ("hipErrorInvalidGraphicsContext", 219), ("hipErrorInvalidSource", 300), ("hipErrorFileNotFound", 301),
    ("hipErrorSharedObjectSymbolNotFound", 302), ("hipErrorSharedObjectInitFailed", 303),
    ("hipErrorOperatingSystem", 304), ("hipErrorInvalidHandle", 400), ("hipErrorInvalidResourceHandle", 400),
    ("hipErrorIllegalState", 401), ("hipErrorNotFound", 500), ("hipErrorNotReady", 600),
    ("hipErrorIllegalAddress", 700), ("hipErrorLaunchOutOfResources", 701), ("hipErrorLaunchTimeOut", 702),
    ("hipErrorPeerAccessAlreadyEnabled", 704), ("hipErrorPeerAccessNotEnabled", 705),
    ("hipErrorSetOnActiveProcess", 708), ("hipErrorContextIsDestroyed", 709), ("hipErrorAssert", 710),
    ("hipErrorHostMemoryAlreadyRegistered", 712), ("hipErrorHostMemoryNotRegistered", 713),
    ("hipErrorLaunchFailure", 719), ("hipErrorCooperativeLaunchTooLarge", 720), ("hipErrorNotSupported", 801),
    ("hipErrorStreamCaptureUnsupported", 900), ("hipErrorStreamCaptureInvalidated", 901),
    ("hipErrorStreamCaptureMerge", 902), ("hipErrorStreamCaptureUnmatched", 903),
    ("hipErrorStreamCaptureUnjoined", 904), ("hipErrorStreamCaptureIsolation", 905),
    ("hipErrorStreamCaptureImplicit", 906), ("hipErrorCapturedEvent", 907),
    ("hipErrorStreamCaptureWrongThread", 908), ("hipErrorGraphExecUpdateFailure", 910), ("hipErrorUnknown", 999),
    ("hipErrorRuntimeMemory", 1052), ("hipErrorRuntimeOther", 1053), ("hipErrorTbd", 1054),
], _MODULE, "``hipError_t``: HIP error codes (hip_runtime_api.h values).")

hipMemcpyKind = c_enum("hipMemcpyKind", [
    ("hipMemcpyHostToHost", 0), ("hipMemcpyHostToDevice", 1), ("hipMemcpyDeviceToHost", 2),
    ("hipMemcpyDeviceToDevice", 3), ("hipMemcpyDefault", 4), ("hipMemcpyDeviceToDeviceNoCU", 1024),
], _MODULE, "``hipMemcpyKind``: copy directions.")

hipDataType = c_enum("hipDataType", [
    ("HIP_R_32F", 0), ("HIP_R_64F", 1), ("HIP_R_16F", 2), ("HIP_R_8I", 3), ("HIP_C_32F", 4), ("HIP_C_64F", 5),
    ("HIP_C_16F", 6), ("HIP_C_8I", 7), ("HIP_R_8U", 8), ("HIP_C_8U", 9), ("HIP_R_32I", 10), ("HIP_C_32I", 11),
    ("HIP_R_32U", 12), ("HIP_C_32U", 13), ("HIP_R_16BF", 14), ("HIP_C_16BF", 15), ("HIP_R_4I", 16), ("HIP_C_4I", 17),
    ("HIP_R_4U", 18), ("HIP_C_4U", 19), ("HIP_R_16I", 20), ("HIP_C_16I", 21), ("HIP_R_16U", 22), ("HIP_C_16U", 23),
    ("HIP_R_64I", 24), ("HIP_C_64I", 25), ("HIP_R_64U", 26), ("HIP_C_64U", 27), ("HIP_R_8F_E4M3_FNUZ", 1000),
    ("HIP_R_8F_E5M2_FNUZ", 1001),
], _MODULE, "``hipDataType`` (library_types.h): element types of the math libraries' ``_v2``/Ex APIs.")

# hipDeviceAttribute_t is numbered implicitly in the header: these lists are in header order.
_CUDA_ATTRIBUTES = [
    "AccessPolicyMaxWindowSize", "AsyncEngineCount", "CanMapHostMemory", "CanUseHostPointerForRegisteredMem",
    "ClockRate", "ComputeMode", "ComputePreemptionSupported", "ConcurrentKernels", "ConcurrentManagedAccess",
    "CooperativeLaunch", "CooperativeMultiDeviceLaunch", "DeviceOverlap", "DirectManagedMemAccessFromHost",
    "GlobalL1CacheSupported", "HostNativeAtomicSupported", "Integrated", "IsMultiGpuBoard", "KernelExecTimeout",
    "L2CacheSize", "LocalL1CacheSupported", "Luid", "LuidDeviceNodeMask", "ComputeCapabilityMajor", "ManagedMemory",
    "MaxBlocksPerMultiProcessor", "MaxBlockDimX", "MaxBlockDimY", "MaxBlockDimZ", "MaxGridDimX", "MaxGridDimY",
    "MaxGridDimZ", "MaxSurface1D", "MaxSurface1DLayered", "MaxSurface2D", "MaxSurface2DLayered", "MaxSurface3D",
    "MaxSurfaceCubemap", "MaxSurfaceCubemapLayered", "MaxTexture1DWidth", "MaxTexture1DLayered", "MaxTexture1DLinear",
    "MaxTexture1DMipmap", "MaxTexture2DWidth", "MaxTexture2DHeight", "MaxTexture2DGather", "MaxTexture2DLayered",
    "MaxTexture2DLinear", "MaxTexture2DMipmap", "MaxTexture3DWidth", "MaxTexture3DHeight", "MaxTexture3DDepth",
    "MaxTexture3DAlt", "MaxTextureCubemap", "MaxTextureCubemapLayered", "MaxThreadsDim", "MaxThreadsPerBlock",
    "MaxThreadsPerMultiProcessor", "MaxPitch", "MemoryBusWidth", "MemoryClockRate", "ComputeCapabilityMinor",
    "MultiGpuBoardGroupID", "MultiprocessorCount", "Unused1", "PageableMemoryAccess",
    "PageableMemoryAccessUsesHostPageTables", "PciBusId", "PciDeviceId", "PciDomainID", "PersistingL2CacheMaxSize",
    "MaxRegistersPerBlock", "MaxRegistersPerMultiprocessor", "ReservedSharedMemPerBlock", "MaxSharedMemoryPerBlock",
    "SharedMemPerBlockOptin", "SharedMemPerMultiprocessor", "SingleToDoublePrecisionPerfRatio",
    "StreamPrioritiesSupported", "SurfaceAlignment", "TccDriver", "TextureAlignment", "TexturePitchAlignment",
    "TotalConstantMemory", "TotalGlobalMem", "UnifiedAddressing", "Unused2", "WarpSize", "MemoryPoolsSupported",
    "VirtualMemoryManagementSupported", "HostRegisterSupported", "MemoryPoolSupportedHandleTypes",
]
_AMD_ATTRIBUTES = [
    "ClockInstructionRate", "Unused3", "MaxSharedMemoryPerMultiprocessor", "Unused4", "Unused5", "HdpMemFlushCntl",
    "HdpRegFlushCntl", "CooperativeMultiDeviceUnmatchedFunc", "CooperativeMultiDeviceUnmatchedGridDim",
    "CooperativeMultiDeviceUnmatchedBlockDim", "CooperativeMultiDeviceUnmatchedSharedMem", "IsLargeBar",
    "AsicRevision", "CanUseStreamWaitValue", "ImageSupport", "PhysicalMultiProcessorCount", "FineGrainSupport",
    "WallClockRate",
]
hipDeviceAttribute_t = c_enum("hipDeviceAttribute_t", [
    ("hipDeviceAttributeCudaCompatibleBegin", 0), ("hipDeviceAttributeEccEnabled", 0),
    *((f"hipDeviceAttribute{n}", i) for i, n in enumerate(_CUDA_ATTRIBUTES, start=1)),
    ("hipDeviceAttributePciDomainId", 1 + _CUDA_ATTRIBUTES.index("PciDomainID")),
    ("hipDeviceAttributeCudaCompatibleEnd", 9999), ("hipDeviceAttributeAmdSpecificBegin", 10000),
    *((f"hipDeviceAttribute{n}", i) for i, n in enumerate(_AMD_ATTRIBUTES, start=10000)),
    ("hipDeviceAttributeAmdSpecificEnd", 19999), ("hipDeviceAttributeVendorSpecificBegin", 20000),
], _MODULE, "``hipDeviceAttribute_t``: device attributes for :func:`hipDeviceGetAttribute`.")

hipMemoryType = c_enum("hipMemoryType", [
    ("hipMemoryTypeUnregistered", 0), ("hipMemoryTypeHost", 1), ("hipMemoryTypeDevice", 2),
    ("hipMemoryTypeManaged", 3), ("hipMemoryTypeArray", 10), ("hipMemoryTypeUnified", 11),
], _MODULE, "``hipMemoryType``: what a pointer points into (:class:`hipPointerAttribute_t`'s ``type``).")

hipMemoryAdvise = c_enum("hipMemoryAdvise", [
    ("hipMemAdviseSetReadMostly", 1), ("hipMemAdviseUnsetReadMostly", 2), ("hipMemAdviseSetPreferredLocation", 3),
    ("hipMemAdviseUnsetPreferredLocation", 4), ("hipMemAdviseSetAccessedBy", 5), ("hipMemAdviseUnsetAccessedBy", 6),
    ("hipMemAdviseSetCoarseGrain", 100), ("hipMemAdviseUnsetCoarseGrain", 101),
], _MODULE, "``hipMemoryAdvise``: advice for :func:`hipMemAdvise`.")

hipLimit_t = c_enum("hipLimit_t", [
    ("hipLimitStackSize", 0x0), ("hipLimitPrintfFifoSize", 0x1), ("hipLimitMallocHeapSize", 0x2),
    ("hipLimitRange", 0x3),
], _MODULE, "``hipLimit_t``: device limits for :func:`hipDeviceGetLimit` / :func:`hipDeviceSetLimit`.")

# --- #define constants ------------------------------------------------------------------------------

HIP_VERSION_MAJOR = 6
HIP_VERSION_MINOR = 2
HIP_VERSION_PATCH = 41133
HIP_VERSION = HIP_VERSION_MAJOR * 10_000_000 + HIP_VERSION_MINOR * 100_000 + HIP_VERSION_PATCH
hipStreamDefault = 0x0
hipStreamNonBlocking = 0x1
hipEventDefault = 0x0
hipEventBlockingSync = 0x1
hipEventDisableTiming = 0x2
hipEventInterprocess = 0x4
hipEventReleaseToDevice = 0x40000000
hipEventReleaseToSystem = 0x80000000
hipHostMallocDefault = 0x0
hipHostMallocPortable = 0x1
hipHostMallocMapped = 0x2
hipHostMallocWriteCombined = 0x4
hipHostMallocNumaUser = 0x20000000
hipHostMallocCoherent = 0x40000000
hipHostMallocNonCoherent = 0x80000000
hipMemAttachGlobal = 0x01
hipMemAttachHost = 0x02
hipMemAttachSingle = 0x04
hipDeviceMallocDefault = 0x0
hipDeviceMallocFinegrained = 0x1
hipMallocSignalMemory = 0x2
hipHostRegisterDefault = 0x0
hipHostRegisterPortable = 0x1
hipHostRegisterMapped = 0x2
hipHostRegisterIoMemory = 0x4
hipExtHostRegisterCoarseGrained = 0x8
hipDeviceScheduleAuto = 0x0
hipDeviceScheduleSpin = 0x1
hipDeviceScheduleYield = 0x2
hipDeviceScheduleBlockingSync = 0x4
hipDeviceScheduleMask = 0x7
hipDeviceMapHost = 0x8
hipDeviceLmemResizeToMax = 0x10
hipArrayDefault = 0x00
hipArrayLayered = 0x01
hipArraySurfaceLoadStore = 0x02
hipArrayCubemap = 0x04
hipArrayTextureGather = 0x08
hipOccupancyDefault = 0x00
hipCooperativeLaunchMultiDeviceNoPreSync = 0x01
hipCooperativeLaunchMultiDeviceNoPostSync = 0x02
hipCpuDeviceId = -1
hipInvalidDeviceId = -2
hipExtAnyOrderLaunch = 0x01
hipStreamWaitValueGte = 0x0
hipStreamWaitValueEq = 0x1
hipStreamWaitValueAnd = 0x2
hipStreamWaitValueNor = 0x3
hipIpcMemLazyEnablePeerAccess = 0x01
HIP_IPC_HANDLE_SIZE = 64
HIP_LAUNCH_PARAM_BUFFER_POINTER = 0x01
HIP_LAUNCH_PARAM_BUFFER_SIZE = 0x02
HIP_LAUNCH_PARAM_END = 0x03
#: The null stream's special handles (``hipStreamLegacy``, ``hipStreamPerThread``).
hipStreamLegacy = 1
hipStreamPerThread = 2

# --- status table: one decorator for the whole module ----------------------------------------------

_last = threading.local()


def _record(status: Any) -> None:
    # A few HIP functions return some failures without HIP_RETURN: those are not the thread's last error.
    if not getattr(last_exception(), "unrecorded", False):
        _last.error = status


def _unrecorded(exc: HipError) -> HipError:
    """``exc``, a failure HIP returns with a bare ``return`` (the thread's last error stays as it was)."""
    exc.unrecorded = True  # type: ignore[attr-defined]
    return exc


def _hip_status(exc: BaseException) -> Any:
    if isinstance(exc, MemoryError) and not isinstance(exc, rocmath.RocmathError):
        return hipError_t.hipErrorOutOfMemory
    status = getattr(exc, "status", None)
    if isinstance(status, (HipStatus, hipError_t)):
        return hipError_t(int(status))
    return hipError_t.hipErrorUnknown


_HIP = StatusTable(hipError_t.hipSuccess, _hip_status, on_failure=_record)


def _size(value: Any, arg: str) -> int:
    n = _c_int(value, arg)
    if n < 0:
        raise OverflowError(f"can't convert negative value to size_t (argument '{arg}')")
    return n


# Runtime errors whose hipError_t rocmath.errors has no exception class for (``_hip_status`` maps
# their ``status``, a hipError_t member, directly).


class InvalidPitchValueError(HipError, ValueError):
    """A pitch smaller than the row width of a 2D copy (``hipErrorInvalidPitchValue``)."""

    status = hipError_t.hipErrorInvalidPitchValue  # type: ignore[assignment]


class NotFoundError(HipError):
    """No allocation holds the pointer (``hipErrorNotFound``)."""

    status = hipError_t.hipErrorNotFound  # type: ignore[assignment]


class UnsupportedLimitError(HipError):
    """A :class:`hipLimit_t` the device does not support (``hipErrorUnsupportedLimit``)."""

    status = hipError_t.hipErrorUnsupportedLimit  # type: ignore[assignment]


class HostMemoryAlreadyRegisteredError(HipError):
    """``hipHostRegister`` of host memory already registered (``hipErrorHostMemoryAlreadyRegistered``)."""

    status = hipError_t.hipErrorHostMemoryAlreadyRegistered  # type: ignore[assignment]


class HostMemoryNotRegisteredError(HipError):
    """``hipHostUnregister`` of memory never registered (``hipErrorHostMemoryNotRegistered``)."""

    status = hipError_t.hipErrorHostMemoryNotRegistered  # type: ignore[assignment]


# --- handles: streams and events ---------------------------------------------------------------------

# Streams and events are opaque pointers in C; these addresses lie in a region rocmath's
# memory never uses, and the registry keeps a handle valid until it is destroyed.
_HANDLE_BASE = 0x7E << 44
_handle_ids = itertools.count(1)
_handles: dict[int, Any] = {}
_handles_lock = threading.Lock()


def _register(obj: Any) -> int:
    with _handles_lock:
        address = _HANDLE_BASE + 64 * next(_handle_ids)
        _handles[address] = obj
    return address


class ihipStream_t(Pointer):
    """``hipStream_t``: a handle to a rocmath :class:`~rocmath.Stream`."""

    _stream: Stream | None = None  # (a fromPtr copy has none: the registered handle holds it)

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self._stream: Stream | None = None

    @classmethod
    def _wrap(cls, stream: Stream) -> ihipStream_t:
        obj = cls()
        obj._stream = stream
        obj._ptr = _register(obj)
        return obj

    @property
    def stream(self) -> Stream:
        """The rocmath stream behind the handle."""
        return _as_stream(self)

    def __repr__(self) -> str:
        return f"<ihipStream_t object, ptr: {self._ptr}>"


class ihipEvent_t(Pointer):
    """``hipEvent_t``: a handle to a rocmath :class:`~rocmath.Event`."""

    _event: Event | None = None  # (a fromPtr copy has none: the registered handle holds it)

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self._event: Event | None = None

    @classmethod
    def _wrap(cls, event: Event) -> ihipEvent_t:
        obj = cls()
        obj._event = event
        obj._ptr = _register(obj)
        return obj

    def __repr__(self) -> str:
        return f"<ihipEvent_t object, ptr: {self._ptr}>"


def _lookup(obj: Any, cls: type, what: str) -> Any:
    """The registered handle of class ``cls`` at ``obj``'s address (``obj`` itself, or the handle a
    ``fromPtr`` copy or an integer points to)."""
    address = pointer_value(obj)
    found = _handles.get(address)
    if not isinstance(found, cls):
        raise HipInvalidHandleError(f"0x{address:x} is not a live {what}", arg=what)
    return found


def _as_stream(obj: Any) -> Stream:
    """A stream argument: NULL and ``hipStreamLegacy`` mean the null stream, ``hipStreamPerThread`` the
    calling thread's default stream on the current device."""
    if isinstance(obj, Stream):
        return obj
    if obj is None:
        return rocmath.null_stream()
    if not isinstance(obj, ihipStream_t) or obj._stream is None:
        address = pointer_value(obj)
        if address in (0, hipStreamLegacy):
            return rocmath.null_stream()
        if address == hipStreamPerThread:
            return _runtime2.per_thread_stream()
    stream = _lookup(obj, ihipStream_t, "stream")._stream
    assert stream is not None
    return stream


def _as_event(obj: Any) -> Event:
    event = _lookup(obj, ihipEvent_t, "event")._event
    assert event is not None
    return event


def _raw_address(obj: Any) -> int | None:
    """The address a stream or event argument passes to C, None for a rocmath object or a live handle."""
    if isinstance(obj, (Stream, Event)) or (isinstance(obj, ihipStream_t) and obj._stream is not None) or \
            (isinstance(obj, ihipEvent_t) and obj._event is not None):
        return None
    return 0 if obj is None else pointer_value(obj)


def _is_null_stream(obj: Any) -> bool:
    """NULL or ``hipStreamLegacy``: the null stream."""
    return obj.is_null if isinstance(obj, Stream) else _raw_address(obj) in (0, hipStreamLegacy)


def _valid_stream(obj: Any) -> Stream:
    """A stream argument where HIP checks ``hip::isValid``: NULL, ``hipStreamLegacy`` and ``hipStreamPerThread``
    are valid; a handle of no live stream (destroyed, unknown, or of a device ``rocmath.configure`` replaced) is
    ``hipErrorContextIsDestroyed``."""
    try:
        s = _as_stream(obj)
        s._check_alive()
    except HipInvalidHandleError as exc:
        raise ContextIsDestroyedError(exc.message, arg="stream") from None
    return s


def as_stream(obj: Any) -> Stream:
    """The rocmath stream a hip-python stream argument designates (for the library bindings)."""
    return _as_stream(obj)


def wrap_stream(stream: Stream) -> ihipStream_t | None:
    """The ``hipStream_t`` of a rocmath stream (None for the null stream)."""
    if stream.is_null:
        return None
    with _handles_lock:
        for obj in _handles.values():
            if isinstance(obj, ihipStream_t) and obj._stream is stream:
                return obj
    return ihipStream_t._wrap(stream)


# --- structs -----------------------------------------------------------------------------------------


class dim3(Properties):
    """``dim3``: x, y, z (default 1); indexable (``block[0]``) and unpackable (``*grid``).

    Like hip-python's setters, which take C unsigned ints, floats are truncated.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        self.x = self.y = self.z = 1
        _set_properties(self, self.PROPERTIES(), args, kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("x", "y", "z"):
            value = int(value)
            if not 0 <= value < 2**32:
                raise OverflowError(f"dim3.{name}={value} does not fit an unsigned int")
        super().__setattr__(name, value)

    @staticmethod
    def PROPERTIES() -> list[str]:
        """The member names."""
        return ["x", "y", "z"]

    def __getitem__(self, item: Any) -> int:
        if isinstance(item, int):
            if not 0 <= item < 3:
                raise IndexError()
            return getattr(self, "xyz"[item])
        raise ValueError("'item' type must be 'int'")

    def __repr__(self) -> str:
        return f"<dim3 x={self.x} y={self.y} z={self.z}>"


# Values the simulated device reports beyond rocmath's DeviceProperties: AMD GPUs hold 2048
# threads per compute unit, and shared memory and registers are per compute unit as per block.
_AMD_THREADS_PER_CU = 2048


def _property_values(device: int) -> dict[str, Any]:
    p = get_device_properties(device)
    return {
        "name": p.name.encode(), "uuid": f"rocmath-gpu-{device:04d}".encode()[:16], "luid": bytes(8),
        "luidDeviceNodeMask": 0, "totalGlobalMem": p.totalGlobalMem, "sharedMemPerBlock": p.sharedMemPerBlock,
        "regsPerBlock": p.regsPerBlock, "warpSize": p.warpSize, "memPitch": 2**31 - 1,
        "maxThreadsPerBlock": p.maxThreadsPerBlock, "maxThreadsDim": list(p.maxThreadsDim),
        "maxGridSize": list(p.maxGridSize), "clockRate": p.clockRate, "totalConstMem": p.totalConstMem,
        "major": p.major, "minor": p.minor, "textureAlignment": _memory.ALIGN, "texturePitchAlignment": _memory.ALIGN,
        "deviceOverlap": int(p.asyncEngineCount > 0), "multiProcessorCount": p.multiProcessorCount,
        "kernelExecTimeoutEnabled": 0, "integrated": 0, "canMapHostMemory": p.canMapHostMemory, "computeMode": 0,
        "surfaceAlignment": _memory.ALIGN, "concurrentKernels": p.concurrentKernels, "ECCEnabled": 0,
        "pciBusID": p.pciBusID, "pciDeviceID": p.pciDeviceID, "pciDomainID": p.pciDomainID, "tccDriver": 0,
        "asyncEngineCount": p.asyncEngineCount, "unifiedAddressing": p.unifiedAddressing,
        "memoryClockRate": p.memoryClockRate, "memoryBusWidth": p.memoryBusWidth, "l2CacheSize": p.l2CacheSize,
        "persistingL2CacheMaxSize": 0, "maxThreadsPerMultiProcessor": _AMD_THREADS_PER_CU,
        "streamPrioritiesSupported": 1, "globalL1CacheSupported": 1, "localL1CacheSupported": 1,
        "sharedMemPerMultiprocessor": p.sharedMemPerBlock, "regsPerMultiprocessor": p.regsPerBlock,
        "managedMemory": p.managedMemory, "isMultiGpuBoard": p.isMultiGpuBoard, "multiGpuBoardGroupID": 0,
        "hostNativeAtomicSupported": 1, "singleToDoublePrecisionPerfRatio": 0, "pageableMemoryAccess": 0,
        "concurrentManagedAccess": p.managedMemory, "computePreemptionSupported": 0,
        "canUseHostPointerForRegisteredMem": 0, "cooperativeLaunch": 0, "cooperativeMultiDeviceLaunch": 0,
        "sharedMemPerBlockOptin": p.sharedMemPerBlock, "pageableMemoryAccessUsesHostPageTables": 0,
        "directManagedMemAccessFromHost": 1, "maxBlocksPerMultiProcessor": _AMD_THREADS_PER_CU // p.warpSize,
        "accessPolicyMaxWindowSize": 0, "reservedSharedMemPerBlock": 0, "hostRegisterSupported": 0,
        "sparseHipArraySupported": 0, "hostRegisterReadOnlySupported": 0, "timelineSemaphoreInteropSupported": 0,
        "memoryPoolsSupported": 1, "gpuDirectRDMASupported": 0, "gpuDirectRDMAFlushWritesOptions": 0,
        "gpuDirectRDMAWritesOrdering": 0, "memoryPoolSupportedHandleTypes": 0, "deferredMappingHipArraySupported": 0,
        "ipcEventSupported": 0, "clusterLaunch": 0, "unifiedFunctionPointers": 0,
        "gcnArchName": p.gcnArchName.encode(), "maxSharedMemoryPerMultiProcessor": p.sharedMemPerBlock,
        "clockInstructionRate": p.clockRate, "cooperativeMultiDeviceUnmatchedFunc": 0,
        "cooperativeMultiDeviceUnmatchedGridDim": 0, "cooperativeMultiDeviceUnmatchedBlockDim": 0,
        "cooperativeMultiDeviceUnmatchedSharedMem": 0, "isLargeBar": 0, "asicRevision": 0,
    }


class hipDeviceProp_t:
    """``hipDeviceProp_t``: filled by :func:`hipGetDeviceProperties`; ``name`` and
    ``gcnArchName`` are bytes, array members are lists.  Texture and surface limits are not
    modelled (the simulated device has no texture units)."""

    def __init__(self, **kwargs: Any):
        for key, value in kwargs.items():
            if key not in _fields():
                raise KeyError(f"'{key}' is no valid property name")
            setattr(self, key, value)

    @staticmethod
    def PROPERTIES() -> list[str]:
        """The member names."""
        return list(_fields())

    def __getitem__(self, item: str) -> Any:
        return getattr(self, item)

    def __contains__(self, item: Any) -> bool:
        return item in _fields()

    def __repr__(self) -> str:
        name = getattr(self, "name", b"")
        return f"<hipDeviceProp_t name={name!r}>"


_FIELDS: tuple[str, ...] = ()  # the member names, known once a device exists (devices load on first use)


def _fields() -> tuple[str, ...]:
    global _FIELDS
    if not _FIELDS:
        _FIELDS = tuple(_property_values(rocmath.get_device()).keys())
    return _FIELDS


def _fill(props: hipDeviceProp_t, device: int) -> None:
    _fields()
    for key, value in _property_values(device).items():
        setattr(props, key, value)


# hipDeviceAttribute_t -> hipDeviceProp_t member (and index, for array members).
_ATTRIBUTE_FIELDS: dict[str, str | tuple[str, int]] = {
    "EccEnabled": "ECCEnabled", "AccessPolicyMaxWindowSize": "accessPolicyMaxWindowSize",
    "AsyncEngineCount": "asyncEngineCount", "CanMapHostMemory": "canMapHostMemory",
    "CanUseHostPointerForRegisteredMem": "canUseHostPointerForRegisteredMem", "ClockRate": "clockRate",
    "ComputeMode": "computeMode", "ComputePreemptionSupported": "computePreemptionSupported",
    "ConcurrentKernels": "concurrentKernels", "ConcurrentManagedAccess": "concurrentManagedAccess",
    "CooperativeLaunch": "cooperativeLaunch", "CooperativeMultiDeviceLaunch": "cooperativeMultiDeviceLaunch",
    "DeviceOverlap": "deviceOverlap", "DirectManagedMemAccessFromHost": "directManagedMemAccessFromHost",
    "GlobalL1CacheSupported": "globalL1CacheSupported", "HostNativeAtomicSupported": "hostNativeAtomicSupported",
    "Integrated": "integrated", "IsMultiGpuBoard": "isMultiGpuBoard", "KernelExecTimeout": "kernelExecTimeoutEnabled",
    "L2CacheSize": "l2CacheSize", "LocalL1CacheSupported": "localL1CacheSupported",
    "LuidDeviceNodeMask": "luidDeviceNodeMask", "ComputeCapabilityMajor": "major", "ManagedMemory": "managedMemory",
    "MaxBlocksPerMultiProcessor": "maxBlocksPerMultiProcessor", "MaxBlockDimX": ("maxThreadsDim", 0),
    "MaxBlockDimY": ("maxThreadsDim", 1), "MaxBlockDimZ": ("maxThreadsDim", 2), "MaxGridDimX": ("maxGridSize", 0),
    "MaxGridDimY": ("maxGridSize", 1), "MaxGridDimZ": ("maxGridSize", 2), "MaxThreadsPerBlock": "maxThreadsPerBlock",
    "MaxThreadsPerMultiProcessor": "maxThreadsPerMultiProcessor", "MaxPitch": "memPitch",
    "MemoryBusWidth": "memoryBusWidth", "MemoryClockRate": "memoryClockRate", "ComputeCapabilityMinor": "minor",
    "MultiGpuBoardGroupID": "multiGpuBoardGroupID", "MultiprocessorCount": "multiProcessorCount",
    "PageableMemoryAccess": "pageableMemoryAccess",
    "PageableMemoryAccessUsesHostPageTables": "pageableMemoryAccessUsesHostPageTables", "PciBusId": "pciBusID",
    "PciDeviceId": "pciDeviceID", "PciDomainID": "pciDomainID", "PersistingL2CacheMaxSize": "persistingL2CacheMaxSize",
    "MaxRegistersPerBlock": "regsPerBlock", "MaxRegistersPerMultiprocessor": "regsPerMultiprocessor",
    "ReservedSharedMemPerBlock": "reservedSharedMemPerBlock", "MaxSharedMemoryPerBlock": "sharedMemPerBlock",
    "SharedMemPerBlockOptin": "sharedMemPerBlockOptin", "SharedMemPerMultiprocessor": "sharedMemPerMultiprocessor",
    "SingleToDoublePrecisionPerfRatio": "singleToDoublePrecisionPerfRatio",
    "StreamPrioritiesSupported": "streamPrioritiesSupported", "SurfaceAlignment": "surfaceAlignment",
    "TccDriver": "tccDriver", "TextureAlignment": "textureAlignment", "TexturePitchAlignment": "texturePitchAlignment",
    "TotalConstantMemory": "totalConstMem", "TotalGlobalMem": "totalGlobalMem",
    "UnifiedAddressing": "unifiedAddressing", "WarpSize": "warpSize", "MemoryPoolsSupported": "memoryPoolsSupported",
    "HostRegisterSupported": "hostRegisterSupported",
    "MemoryPoolSupportedHandleTypes": "memoryPoolSupportedHandleTypes",
    "ClockInstructionRate": "clockInstructionRate",
    "MaxSharedMemoryPerMultiprocessor": "maxSharedMemoryPerMultiProcessor",
    "CooperativeMultiDeviceUnmatchedFunc": "cooperativeMultiDeviceUnmatchedFunc",
    "CooperativeMultiDeviceUnmatchedGridDim": "cooperativeMultiDeviceUnmatchedGridDim",
    "CooperativeMultiDeviceUnmatchedBlockDim": "cooperativeMultiDeviceUnmatchedBlockDim",
    "CooperativeMultiDeviceUnmatchedSharedMem": "cooperativeMultiDeviceUnmatchedSharedMem",
    "IsLargeBar": "isLargeBar", "AsicRevision": "asicRevision", "PhysicalMultiProcessorCount": "multiProcessorCount",
    "WallClockRate": "clockInstructionRate",
}


# --- device management ---------------------------------------------------------------------------------


@binding(_HIP)
def hipInit(flags: int) -> None:
    """Initialize the runtime (nothing to do: devices come up on first use)."""
    _c_int(flags, "flags")


@binding(_HIP, 1)
def hipDriverGetVersion() -> int:
    """The HIP version the runtime implements."""
    return HIP_VERSION


@binding(_HIP, 1)
def hipRuntimeGetVersion() -> int:
    """The HIP version the runtime implements."""
    return HIP_VERSION


@binding(_HIP, 1)
def hipGetDeviceCount() -> int:
    """Number of simulated devices."""
    return rocmath.get_device_count()


@binding(_HIP)
def hipSetDevice(deviceId: int) -> None:
    """Make ``deviceId`` the calling thread's current device."""
    rocmath.set_device(_c_int(deviceId, "deviceId"))


@binding(_HIP, 1)
def hipGetDevice() -> int:
    """The calling thread's current device."""
    return rocmath.get_device()


@binding(_HIP, 1)
def hipDeviceGet(ordinal: int) -> int:
    """The device handle (its index) of device ``ordinal``."""
    return get_device_object(_c_int(ordinal, "ordinal")).index


@binding(_HIP, 1)
def hipDeviceGetName(len: int, device: int) -> bytes:
    """The device name, truncated to ``len - 1`` bytes; no such device is ``hipErrorInvalidDevice``, then a
    ``len`` below 1 ``hipErrorInvalidValue``."""
    size = _c_typed(len, "len", "int")
    name = get_device_properties(_c_typed(device, "device", "int")).name.encode()
    if size <= 0:
        raise HipInvalidValueError(f"len must be positive, got {size}", arg="len")
    return name[: size - 1]


@binding(_HIP, 1)
def hipDeviceTotalMem(device: int) -> int:
    """Total memory of ``device`` in bytes."""
    return get_device_properties(_c_int(device, "device")).totalGlobalMem


@binding(_HIP, 2)
def hipDeviceComputeCapability(device: int) -> tuple[int, int]:
    """``(major, minor)`` of ``device``."""
    p = get_device_properties(_c_int(device, "device"))
    return p.major, p.minor


@binding(_HIP, 1)
def hipDeviceGetAttribute(attr: Any, deviceId: int) -> int:
    """The value of one :class:`hipDeviceAttribute_t` of a device.

    Attributes the simulated device does not model (textures, surfaces...) give
    ``hipErrorInvalidValue``.
    """
    check_enum(attr, hipDeviceAttribute_t, "attr")
    values = _property_values(get_device_object(_c_int(deviceId, "deviceId")).index)
    where = _ATTRIBUTE_FIELDS.get(attr.name.removeprefix("hipDeviceAttribute"))
    if where is None:
        raise HipInvalidValueError(f"{attr.name} is not modelled by the simulated device", arg="attr")
    if isinstance(where, tuple):
        return int(values[where[0]][where[1]])
    return int(values[where])


@binding(_HIP)
def _get_device_properties_into(prop: hipDeviceProp_t, deviceId: int) -> None:
    if not isinstance(prop, hipDeviceProp_t):
        raise TypeError("argument 'prop' must be of type 'hipDeviceProp_t'")
    _fill(prop, get_device_object(_c_int(deviceId, "deviceId")).index)


@binding(_HIP, 1)
def _get_device_properties(deviceId: int) -> hipDeviceProp_t:
    props = hipDeviceProp_t()
    _fill(props, get_device_object(_c_int(deviceId, "deviceId")).index)
    return props


def hipGetDeviceProperties(*args: Any) -> tuple[Any, ...]:
    """Device properties, in both hip-python generations.

    ``hipGetDeviceProperties(props, deviceId) -> (err,)`` fills a :class:`hipDeviceProp_t`
    (hip-python <= 6.x); ``hipGetDeviceProperties(deviceId) -> (err, props)`` returns a new
    one (``rocm.bindings``).
    """
    if len(args) == 1:
        return _get_device_properties(args[0])
    if len(args) == 2:
        return _get_device_properties_into(*args)
    raise TypeError(f"hipGetDeviceProperties() takes 1 or 2 arguments ({len(args)} given)")


@binding(_HIP)
def hipDeviceSynchronize() -> None:
    """Wait for all work on the current device; report the first asynchronous error.  The device's memory
    pools then give their freed blocks beyond the release threshold back (as after any synchronize here)."""
    rocmath.device_synchronize()


@binding(_HIP)
def hipDeviceReset() -> None:
    """Reset the current device as HIP's Device::Reset does, once its work is done (its errors cleared): its
    memory pools give all their memory back and are gone (a new default pool is current), its streams of this
    module are destroyed (their handles then give ``hipErrorContextIsDestroyed``), its flags are
    ``hipDeviceScheduleSpin`` again.  Other allocations stay: rocmath's own objects (library handles, arrays)
    may still own device memory, which HIP's reset would free under them."""
    with contextlib.suppress(rocmath.RocmathError):
        rocmath.device_synchronize()
    rocmath.get_last_error()
    dev = get_device_object()
    mempool.reset_device(dev)
    with _handles_lock:
        streams = [h for h in _handles.values() if isinstance(h, ihipStream_t) and h._stream is not None
                   and h._stream.device is dev]
    for handle in streams:
        assert handle._stream is not None
        if not handle._stream._state.destroyed:
            handle._stream.destroy()
        with _handles_lock:
            _handles.pop(handle._ptr, None)
    mine = (_runtime2._per_thread.streams or {}).get(dev.index)
    if mine is not None and mine.device is dev and not mine._state.destroyed:
        mine.destroy()  # the calling thread's per-thread stream: made anew on its next use (HIP's clear_spt)
    _settings()["flags"] = _DEFAULT_FLAGS


# --- errors ------------------------------------------------------------------------------------------------


def hipGetLastError() -> tuple[Any]:
    """The last error of a runtime call or of asynchronous work on this thread, then reset."""
    mine = getattr(_last, "error", None)
    _last.error = None
    async_error = rocmath.get_last_error()
    if mine is not None:
        return (mine,)
    return (hipError_t(int(async_error)),)


def hipPeekAtLastError() -> tuple[Any]:
    """As :func:`hipGetLastError`, without resetting."""
    mine = getattr(_last, "error", None)
    if mine is not None:
        return (mine,)
    return (hipError_t(int(rocmath.peek_at_last_error())),)


def hipGetErrorName(hip_error: Any) -> tuple[Any, CStr]:
    """The enumerator name of an error (``"hipErrorInvalidValue"``), always with ``hipSuccess`` and without
    touching the last error.  HIP's name table (hip_error.cpp's ihipGetErrorName) has every ``hipError_t``
    member, an alias by its first name (``hipErrorMemoryAllocation`` reads ``"hipErrorOutOfMemory"``); only a code
    that is no member, which hip-python cannot pass, would read ``"hipErrorUnknown"``."""
    check_enum(hip_error, hipError_t, "hip_error")
    return (hipError_t.hipSuccess, CStr(hipError_t(int(hip_error)).name))


def hipGetErrorString(hipError: Any) -> tuple[Any, CStr]:
    """The AMD runtime's description of an error (``"invalid argument"``: hip_error.cpp's ihipGetErrorString), always
    with ``hipSuccess``; a code it has no words for (``hipErrorTbd``) reads ``"unknown error"``."""
    check_enum(hipError, hipError_t, "hipError")
    text = _runtime2.ERROR_STRINGS.get(hipError_t(int(hipError)).name, "unknown error")
    return (hipError_t.hipSuccess, CStr(text))


# --- memory --------------------------------------------------------------------------------------------------

#: rocmath address -> (device current at the allocation, allocation flags) of hipHostMalloc and
#: hipExtMallocWithFlags memory, for :func:`hipPointerGetAttributes` and :func:`hipHostGetFlags`.
_alloc_meta: dict[int, tuple[int, int]] = {}


def _device_array(address: int, nbytes: int) -> DeviceArray | None:
    if address == 0:
        return None
    arr = DeviceArray.fromPtr(address)
    assert isinstance(arr, DeviceArray)
    return arr.configure(_force=True, shape=(nbytes,))  # type: ignore[return-value]


def _capture_unsafe(op: str) -> None:
    """HIP's CHECK_STREAM_CAPTURE_SUPPORTED: allocations and host-memory registration are refused during a
    stream capture (by its mode; :func:`rocmath.graph.check_unsafe`), the capture invalidated."""
    if _stream_module._capturing:
        from rocmath import graph

        graph.check_unsafe(op)


@binding(_HIP, 1)
def hipMalloc(size: int) -> DeviceArray | None:
    """Device memory of ``size`` bytes, as a :class:`DeviceArray` (None for size 0)."""
    _capture_unsafe("hipMalloc")
    n = _size(size, "size")
    return _device_array(rocmath.malloc(n), n)


#: hipExtMallocWithFlags's flags (hipDeviceMallocUncached and hipDeviceMallocContiguous, 3 and 4, are #defines
#: hip-python 6.2 does not export).
_EXT_MALLOC_FLAGS = (hipDeviceMallocDefault, hipDeviceMallocFinegrained, hipMallocSignalMemory, 0x3, 0x4)


@binding(_HIP, 1)
def hipExtMallocWithFlags(sizeBytes: int, flags: int) -> DeviceArray | None:
    """:func:`hipMalloc` with one allocation flag (each allocates plain device memory here): a flag other than
    ``hipDeviceMallocDefault``, ``Finegrained``, ``Uncached`` (3), ``Contiguous`` (4) or ``hipMallocSignalMemory``,
    or signal memory of another size than 8 bytes, is ``hipErrorInvalidValue``."""
    n = _size(sizeBytes, "sizeBytes")
    flags = _c_typed(flags, "flags", "unsigned int")
    if flags not in _EXT_MALLOC_FLAGS or (flags == hipMallocSignalMemory and n != 8):
        raise HipInvalidValueError(f"flags 0x{flags:x} with {n} bytes: one flag, signal memory of 8 bytes",
                                   arg="flags")
    ptr = rocmath.malloc(n)
    if ptr:
        _alloc_meta[ptr] = (rocmath.get_device(), flags)
    return _device_array(ptr, n)


@binding(_HIP, 1)
def hipMallocManaged(size: int, flags: int = hipMemAttachGlobal) -> DeviceArray | None:
    """Managed memory: one address the host and the device both use (the real host address of
    its storage, so the host may read and write it directly).  A zero size, or flags other than
    ``hipMemAttachGlobal`` or ``hipMemAttachHost``, is ``hipErrorInvalidValue``."""
    n = _size(size, "size")
    f = _c_typed(flags, "flags", "unsigned int")
    _capture_unsafe("hipMallocManaged")
    if n == 0 or f not in (hipMemAttachGlobal, hipMemAttachHost):
        raise HipInvalidValueError(f"size {n} and flags 0x{f:x}: a positive size, hipMemAttachGlobal or Host",
                                   arg="size" if n == 0 else "flags")
    ptr = rocmath.malloc_managed(n)
    return _device_array(host_mapped(ptr), n) if ptr else None


def _host_malloc(size: Any, flags: Any, op: str, most: int | None = None) -> Pointer | None:
    """HIP's ihipHostMalloc (after ``hipHostAlloc``'s flag bound ``most``): size 0 gives NULL, then both coherence
    flags at once are ``hipErrorInvalidValue``."""
    n = _size(size, "size")
    f = _c_typed(flags, "flags", "unsigned int")
    _capture_unsafe(op)
    if most is not None and f > most:
        raise HipInvalidValueError(f"flags 0x{f:x} exceed 0x{most:x}", arg="flags")
    if n == 0:
        return None
    if f & hipHostMallocCoherent and f & hipHostMallocNonCoherent:
        raise HipInvalidValueError("hipHostMallocCoherent and hipHostMallocNonCoherent exclude each other",
                                   arg="flags")
    ptr = rocmath.malloc_host(n)
    _alloc_meta[ptr] = (rocmath.get_device(), f)
    return Pointer.fromPtr(host_mapped(ptr))


@binding(_HIP, 1)
def hipHostMalloc(size: int, flags: int = hipHostMallocDefault) -> Pointer | None:
    """Pinned host memory: copies from and to it are truly asynchronous.  The pointer is a real
    host address (read it with ctypes or numpy).  Size 0 gives None; ``hipHostMallocCoherent`` with
    ``hipHostMallocNonCoherent`` is ``hipErrorInvalidValue``."""
    return _host_malloc(size, flags, "hipHostMalloc")


@binding(_HIP, 1)
def hipHostAlloc(size: int, flags: int) -> Pointer | None:
    """:func:`hipHostMalloc` (deprecated) with flags among ``hipHostAllocPortable``, ``Mapped`` and
    ``WriteCombined`` only (a larger value is ``hipErrorInvalidValue``)."""
    return _host_malloc(size, flags, "hipHostAlloc",
                        most=hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined)


hipMallocHost = hipHostMalloc


def _memory_object(obj: Any) -> tuple[int, int] | None:
    """``(offset, size)`` of the memory object HIP's getMemoryObject finds for a pointer argument: a live allocation
    (a memory pool's block included, freed to its pool or not) or a registered host range; None for any other
    memory (pageable or freed)."""
    r = resolve(obj)
    if r.address == 0:
        return None
    if r.device:
        alloc = address_space.find(r.address)
        return None if alloc is None or not alloc.live else (r.address - alloc.ptr, alloc.nbytes)
    found = _registered_at(r.address)
    return None if found is None else (r.address - found[0], found[1].size)


def _free(ptr: Any, op: str) -> None:
    """HIP's ihipFree, behind ``hipFree`` and ``hipHostFree`` alike: NULL does nothing; memory of the runtime
    (device, managed or pinned) is freed once the work of its device is done, a memory pool's block goes back to
    its pool; any other pointer (pageable or freed memory) is ``hipErrorInvalidValue``.  Registered host memory
    is refused (``hipErrorInvalidDevicePointer``: unregister it), and so is a pointer inside an allocation but
    not at its start (HIP would hand it to the allocator's free)."""
    r = resolve(ptr)
    if r.address == 0:
        return
    if _memory_object(ptr) is None:
        raise HipInvalidValueError(f"{op}: 0x{r.address:x} is no memory of the runtime (pageable or freed)",
                                   arg="ptr")
    if not r.device:
        raise InvalidDevicePointerError(f"{op}: 0x{r.address:x} is registered host memory (hipHostUnregister it)",
                                        arg="ptr")
    if _runtime2.free_to_pool(r.address):
        return
    alloc = address_space.find(r.address)
    assert alloc is not None
    if alloc.kind is MemoryKind.HOST:
        device = _alloc_meta.get(alloc.ptr, (-1, 0))[0]
        if 0 <= device < rocmath.get_device_count():
            wait_device_idle(device)
        rocmath.free_host(r.address)
    else:
        rocmath.free(r.address)
    _alloc_meta.pop(r.address, None)
    _pitch_shapes.pop(r.address, None)
    raw = pointer_value(ptr)
    if raw != r.address:
        unmap_host(raw)


@binding(_HIP)
def hipFree(ptr: Any) -> None:
    """Free memory of the runtime (waiting for its device's work first, a memory pool's block going back to its
    pool, as in HIP); NULL does nothing, any other pointer is ``hipErrorInvalidValue``."""
    _free(ptr, "hipFree")


@binding(_HIP)
def hipHostFree(ptr: Any) -> None:
    """Free pinned host memory (as :func:`hipFree`, which frees any memory of the runtime: HIP's hipHostFree is
    its ihipFree)."""
    _capture_unsafe("hipHostFree")
    _free(ptr, "hipHostFree")


hipFreeHost = hipHostFree


@binding(_HIP, 2)
def hipMemGetInfo() -> tuple[int, int]:
    """``(free, total)`` bytes of the current device."""
    return rocmath.mem_get_info()


def _copy_side(obj: Any, nbytes: int, arg: str) -> Any:
    """What rocmath's memcpy takes for one side: a rocmath address or a host byte array."""
    r = resolve(obj)
    if r.device or r.address == 0:
        return r.address
    if r.host is not None:
        return r.host
    try:
        return _host_bytes(r.address, nbytes, what=arg)
    except ValueError as exc:
        raise HipInvalidValueError(str(exc), arg=arg) from None


def _kind(kind: Any) -> None:
    # The kind is checked as hip-python does; the direction comes from the pointers, as in
    # the AMD runtime (programs that name the wrong direction still copy correctly there).
    check_enum(kind, hipMemcpyKind, "kind")


def _check_copy(dst: Any, src: Any, n: int, kind: Any) -> bool:
    """HIP's ihipMemcpy checks, in its order: a zero size copies nothing (whatever the pointers), a NULL side, a size
    past either side's memory object, or two pageable sides with a kind other than host-to-host or default (the
    device does not reach pageable memory) are ``hipErrorInvalidValue``, a default copy onto itself copies
    nothing.  True when there is something to copy."""
    if n == 0:
        return False
    d, s = resolve(dst), resolve(src)
    if d.address == 0 or s.address == 0:
        raise HipInvalidValueError("dst and src must be non-NULL", arg="dst" if d.address == 0 else "src")
    dobj, sobj = _memory_object(dst), _memory_object(src)
    for obj, arg in ((sobj, "src"), (dobj, "dst")):
        if obj is not None and n > obj[1] - obj[0]:
            raise HipInvalidValueError(f"{n} bytes from offset {obj[0]} run past the {obj[1]} bytes of its "
                                       "allocation", arg=arg)
    if dobj is None and sobj is None and kind not in (hipMemcpyKind.hipMemcpyHostToHost,
                                                      hipMemcpyKind.hipMemcpyDefault):
        raise HipInvalidValueError(f"two pageable host sides need hipMemcpyHostToHost or hipMemcpyDefault, not "
                                   f"{kind.name}", arg="kind")
    return not (d.address == s.address and kind == hipMemcpyKind.hipMemcpyDefault)


@binding(_HIP)
def hipMemcpy(dst: Any, src: Any, sizeBytes: int, kind: Any) -> None:
    """Copy ``sizeBytes`` bytes, synchronously; host sides are buffers or host addresses.  Checked as HIP checks
    it (:func:`_check_copy`): a size past an allocation is ``hipErrorInvalidValue``, before anything is copied."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    if _check_copy(dst, src, n, kind):
        rocmath.memcpy(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n)


@binding(_HIP)
def hipMemcpyAsync(dst: Any, src: Any, sizeBytes: int, kind: Any, stream: Any) -> None:
    """Stream-ordered copy (pageable host memory is staged, as in HIP); a destroyed stream is
    ``hipErrorContextIsDestroyed``, then checked as :func:`hipMemcpy`."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    s = _valid_stream(stream)
    if _check_copy(dst, src, n, kind):
        rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=s)


@binding(_HIP)
def hipMemcpyWithStream(dst: Any, src: Any, sizeBytes: int, kind: Any, stream: Any) -> None:
    """Copy ordered on ``stream``, returning when done; checked as :func:`hipMemcpyAsync`."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    s = _valid_stream(stream)
    if not _check_copy(dst, src, n, kind):
        return
    rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=s)
    if s._state.capture is None:  # captured as a copy node, as HIP does
        s.synchronize()


def _directed(name: str, kind: Any, is_async: bool) -> Any:
    """``hipMemcpyHtoD`` and friends: :func:`hipMemcpy` (or :func:`hipMemcpyAsync`) with the kind of their name."""
    if is_async:
        def copy(dst: Any, src: Any, sizeBytes: int, stream: Any) -> None:
            n = _size(sizeBytes, "sizeBytes")
            s = _valid_stream(stream)
            if _check_copy(dst, src, n, kind):
                rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=s)
    else:
        def copy(dst: Any, src: Any, sizeBytes: int) -> None:  # type: ignore[misc]
            n = _size(sizeBytes, "sizeBytes")
            if _check_copy(dst, src, n, kind):
                rocmath.memcpy(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n)
    copy.__name__ = copy.__qualname__ = name
    copy.__doc__ = f"``{name}``: copy ``sizeBytes`` bytes{' on a stream' if is_async else ''} ({kind.name})."
    return binding(_HIP)(copy)


_K = hipMemcpyKind
hipMemcpyHtoD = _directed("hipMemcpyHtoD", _K.hipMemcpyHostToDevice, False)
hipMemcpyDtoH = _directed("hipMemcpyDtoH", _K.hipMemcpyDeviceToHost, False)
hipMemcpyDtoD = _directed("hipMemcpyDtoD", _K.hipMemcpyDeviceToDevice, False)
hipMemcpyHtoDAsync = _directed("hipMemcpyHtoDAsync", _K.hipMemcpyHostToDevice, True)
hipMemcpyDtoHAsync = _directed("hipMemcpyDtoHAsync", _K.hipMemcpyDeviceToHost, True)
hipMemcpyDtoDAsync = _directed("hipMemcpyDtoDAsync", _K.hipMemcpyDeviceToDevice, True)


@binding(_HIP)
def hipMemset(dst: Any, value: int, sizeBytes: int) -> None:
    """Set ``sizeBytes`` bytes of memory of the runtime to ``value & 0xFF``, synchronously; checked as HIP's
    ihipMemset_validate checks it (:func:`_memset_pattern`)."""
    _memset_pattern(dst, _c_typed(value, "value", "int"), sizeBytes, 1, _SYNC, "hipMemset", "dst")


@binding(_HIP)
def hipMemsetAsync(dst: Any, value: int, sizeBytes: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemset`."""
    _memset_pattern(dst, _c_typed(value, "value", "int"), sizeBytes, 1, stream, "hipMemsetAsync", "dst")


@binding(_HIP)
def hipMemsetD8(dest: Any, value: int, count: int) -> None:
    """Set ``count`` bytes to ``value`` (an unsigned char)."""
    _memset_pattern(dest, _c_typed(value, "value", "unsigned char"), count, 1, _SYNC, "hipMemsetD8", "dest")


@binding(_HIP, 1)
def hipHostGetDevicePointer(hstPtr: Any, flags: int) -> Pointer:
    """The device-side address of memory of the runtime (pinned, registered, managed or device memory: the same
    address, memory is unified).  Non-zero ``flags``, then any other pointer, is ``hipErrorInvalidValue``."""
    if _c_typed(flags, "flags", "unsigned int") != 0:
        raise HipInvalidValueError("flags must be 0", arg="flags")
    if _memory_object(hstPtr) is None:
        raise HipInvalidValueError("not memory of the runtime (hipHostMalloc, hipHostRegister...)", arg="hstPtr")
    return Pointer.fromPtr(pointer_value(hstPtr))


# --- streams -----------------------------------------------------------------------------------------------


@binding(_HIP, 1)
def hipStreamCreate() -> ihipStream_t:
    """A new blocking stream on the current device."""
    return ihipStream_t._wrap(Stream())


@binding(_HIP, 1)
def hipStreamCreateWithFlags(flags: int) -> ihipStream_t:
    """A new stream; ``hipStreamNonBlocking`` does not synchronize with the null stream."""
    flags = _c_int(flags, "flags")
    return ihipStream_t._wrap(Stream(non_blocking=bool(flags & hipStreamNonBlocking)))


@binding(_HIP, 1)
def hipStreamCreateWithPriority(flags: int, priority: int) -> ihipStream_t:
    """A new stream with a priority (kept; all priorities run alike)."""
    flags = _c_int(flags, "flags")
    return ihipStream_t._wrap(Stream(non_blocking=bool(flags & hipStreamNonBlocking),
                                     priority=_c_int(priority, "priority")))


@binding(_HIP)
def hipStreamDestroy(stream: Any) -> None:
    """Release a stream; work already queued still completes.  NULL (or ``hipStreamLegacy``) is
    ``hipErrorInvalidHandle``, ``hipStreamPerThread`` ``hipErrorInvalidResourceHandle`` (the same code), a handle
    of no live stream ``hipErrorContextIsDestroyed``."""
    if _is_null_stream(stream) or _raw_address(stream) == hipStreamPerThread:
        raise HipInvalidHandleError("NULL and hipStreamPerThread cannot be destroyed", arg="stream")
    s = _valid_stream(stream)
    s.destroy()
    with _handles_lock:
        for address in [a for a, h in _handles.items() if isinstance(h, ihipStream_t) and h._stream is s]:
            del _handles[address]


@binding(_HIP)
def hipStreamSynchronize(stream: Any) -> None:
    """Wait for the stream's work; report its first error (a handle of no live stream is
    ``hipErrorContextIsDestroyed``).  The device's memory pools then give their freed blocks beyond the release
    threshold back, as after any synchronization of the runtime."""
    _valid_stream(stream).synchronize()


@binding(_HIP)
def hipStreamQuery(stream: Any) -> None:
    """``hipSuccess`` when the stream's work is done, ``hipErrorNotReady`` otherwise (a handle of no live stream is
    ``hipErrorContextIsDestroyed``)."""
    if not _valid_stream(stream).query():
        raise rocmath.errors.NotReadyError("work is still queued on the stream", arg="stream")


@binding(_HIP)
def hipStreamWaitEvent(stream: Any, event: Any, flags: int = 0) -> None:
    """Make later work on ``stream`` wait for the work ``event`` captured.  A NULL event or a handle of no live
    stream is ``hipErrorInvalidHandle``; non-zero ``flags`` ``hipErrorInvalidValue``, unless the event's stream is
    gone (HIP then takes its work as done: success) or it was recorded in a capture."""
    f = _c_typed(flags, "flags", "unsigned int")
    if _raw_address(event) == 0:
        raise HipInvalidHandleError("event is NULL", arg="event")
    try:
        s = _valid_stream(stream)
    except ContextIsDestroyedError as exc:
        raise HipInvalidHandleError(exc.message, arg="stream") from None
    e = _as_event(event)
    gone = e._state is not None and e._state.destroyed
    if f and not gone and e._captured is None:
        raise HipInvalidValueError("flags must be 0", arg="flags")
    s.wait_event(e)  # (the work of a destroyed stream is waited for all the same: it still runs here)
    if not gone:
        _runtime2.stream_waited(stream, e)


@binding(_HIP, 1)
def hipStreamGetFlags(stream: Any) -> int:
    """``hipStreamNonBlocking`` or ``hipStreamDefault``; the null stream (NULL) is ``hipErrorInvalidValue``, a
    handle of no live stream ``hipErrorContextIsDestroyed``."""
    if _is_null_stream(stream):
        raise HipInvalidValueError("the null stream has no flags", arg="stream")
    return hipStreamNonBlocking if _valid_stream(stream).non_blocking else hipStreamDefault


@binding(_HIP, 1)
def hipStreamGetPriority(stream: Any) -> int:
    """The priority the stream was created with (0 for the null stream); a handle of no live stream is
    ``hipErrorContextIsDestroyed``."""
    if _is_null_stream(stream):
        return 0
    return _valid_stream(stream).priority


@binding(_HIP)
def hipLaunchHostFunc(stream: Any, fn: Any, userData: Any) -> None:
    """Call ``fn(userData)`` on the host in stream order (``fn`` is a Python callable: anything else is
    ``hipErrorInvalidValue``, then a handle of no live stream ``hipErrorContextIsDestroyed``)."""
    if not callable(fn):
        raise HipInvalidValueError("fn must be callable", arg="fn")
    _valid_stream(stream).launch_host_func(fn, userData)


# --- events --------------------------------------------------------------------------------------------------


@binding(_HIP, 1)
def hipEventCreate() -> ihipEvent_t:
    """A new timing event on the current device."""
    return ihipEvent_t._wrap(Event())


#: hipEventDisableSystemFence, a #define hip-python 6.2 does not export, and the flags an event may have.
_EVENT_DISABLE_SYSTEM_FENCE = 0x20000000
_EVENT_RELEASE_FLAGS = hipEventReleaseToDevice | hipEventReleaseToSystem | _EVENT_DISABLE_SYSTEM_FENCE
_EVENT_FLAGS = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | _EVENT_RELEASE_FLAGS


@binding(_HIP, 1)
def hipEventCreateWithFlags(flags: int) -> ihipEvent_t:
    """A new event; ``hipEventDisableTiming`` makes it unusable for :func:`hipEventElapsedTime`.  Unknown flags,
    more than one release flag (``hipEventReleaseToDevice``, ``ToSystem``, ``DisableSystemFence``), or
    ``hipEventInterprocess`` without ``hipEventDisableTiming`` are ``hipErrorInvalidValue``."""
    f = _c_typed(flags, "flags", "unsigned int")
    release = f & _EVENT_RELEASE_FLAGS
    if f & ~_EVENT_FLAGS or release & (release - 1) or (f & hipEventInterprocess and not f & hipEventDisableTiming):
        raise HipInvalidValueError(f"flags 0x{f:x} are no valid event flags", arg="flags")
    return ihipEvent_t._wrap(Event(timing=not f & hipEventDisableTiming))


@binding(_HIP)
def hipEventRecord(event: Any, stream: Any = None) -> None:
    """Capture the work queued on ``stream`` so far.  A NULL event is ``hipErrorInvalidHandle``, a handle of no
    live stream ``hipErrorContextIsDestroyed``, an event of another device than the stream's (outside a capture)
    ``hipErrorInvalidHandle``."""
    if _raw_address(event) == 0:
        raise HipInvalidHandleError("event is NULL", arg="event")
    s = _valid_stream(stream)
    e = _as_event(event)
    if s._state.capture is None and e.device is not s.device:
        raise HipInvalidHandleError(f"the event is device {e.device.index}'s, the stream device {s.device.index}'s",
                                    arg="event")
    e.record(s)


@binding(_HIP)
def hipEventSynchronize(event: Any) -> None:
    """Wait until the captured work is done."""
    e = _as_event(event)
    e.synchronize()
    mempool.synchronized(e.device.index)  # (an event's synchronize is no synchronization of the runtime's)


@binding(_HIP)
def hipEventQuery(event: Any) -> None:
    """``hipSuccess`` when the captured work is done, ``hipErrorNotReady`` otherwise."""
    if not _as_event(event).query():
        raise rocmath.errors.NotReadyError("the event's work is still running", arg="event")


@binding(_HIP, 1)
def hipEventElapsedTime(start: Any, stop: Any) -> float:
    """Milliseconds between two completed events: events of two devices, or one never recorded or without timing,
    are ``hipErrorInvalidHandle``, one not done yet ``hipErrorNotReady``."""
    first, last = _as_event(start), _as_event(stop)
    if first.device is not last.device:
        raise HipInvalidHandleError("the events are of two devices", arg="stop")
    return float(rocmath.elapsed_time(first, last))


@binding(_HIP)
def hipEventDestroy(event: Any) -> None:
    """Release an event: NULL is ``hipErrorInvalidHandle``, a handle of no live event
    ``hipErrorContextIsDestroyed`` (not made the last error: HIP returns it without HIP_RETURN)."""
    if _raw_address(event) == 0:
        raise HipInvalidHandleError("event is NULL", arg="event")
    try:
        handle = _lookup(event, ihipEvent_t, "event")
    except HipInvalidHandleError as exc:
        raise _unrecorded(ContextIsDestroyedError(exc.message, arg="event")) from None
    with _handles_lock:
        _handles.pop(handle._ptr, None)


# --- pitched memory and 2D copies and fills ----------------------------------------------------------------

#: Row alignment of pitched allocations: the AMD runtime aligns the pitch to the device's image pitch
#: alignment (``imagePitchAlignment_``, 256 bytes on ROCm devices), which is also what
#: ``hipDeviceProp_t.texturePitchAlignment`` reports.
PITCH_ALIGNMENT = 256


#: Pitched allocations (their start) -> (pitch, width, height, depth): what HIP keeps with them for the 3D
#: copies' and fills' checks.
_pitch_shapes: dict[int, tuple[int, int, int, int]] = {}


def _pitched(width: int, height: int, depth: int = 1) -> tuple[Pointer | None, int]:
    if width == 0 or height == 0 or depth == 0:
        return None, 0  # no allocation (HIP leaves the pitch unset; 0 here)
    pitch = -(-width // PITCH_ALIGNMENT) * PITCH_ALIGNMENT
    ptr = rocmath.malloc(pitch * height * depth)
    _pitch_shapes[ptr] = (pitch, width, height, depth)
    return Pointer.fromPtr(ptr), pitch


@binding(_HIP, 2)
def hipMallocPitch(width: int, height: int) -> tuple[Pointer | None, int]:
    """Device memory for ``height`` rows of ``width`` bytes, each row starting ``pitch`` bytes after the
    previous one; ``(err, ptr, pitch)``.  The pitch is ``width`` rounded up to 256 bytes, as the AMD runtime
    rounds it; a zero width or height allocates nothing (``ptr`` None)."""
    _capture_unsafe("hipMallocPitch")
    return _pitched(_size(width, "width"), _size(height, "height"))


@binding(_HIP, 2)
def hipMemAllocPitch(widthInBytes: int, height: int, elementSizeBytes: int) -> tuple[Pointer | None, int]:
    """:func:`hipMallocPitch` (driver API): a zero size or an ``elementSizeBytes`` other than 4, 8 or 16
    is ``hipErrorInvalidValue``."""
    _capture_unsafe("hipMemAllocPitch")
    width = _size(widthInBytes, "widthInBytes")
    rows = _size(height, "height")
    element = _c_typed(elementSizeBytes, "elementSizeBytes", "unsigned int")
    if width == 0 or rows == 0:
        raise HipInvalidValueError("widthInBytes and height must be positive", arg="widthInBytes")
    if element not in (4, 8, 16):
        raise HipInvalidValueError(f"elementSizeBytes must be 4, 8 or 16, got {element}", arg="elementSizeBytes")
    return _pitched(width, rows)


#: Marks the synchronous calls (their stream argument is absent, not NULL).
_SYNC = object()


def _rows(flat: np.ndarray, pitch: int, width: int, height: int) -> np.ndarray:
    """``height`` rows of ``width`` bytes, ``pitch`` bytes apart, of a flat byte view (no copy)."""
    return np.lib.stride_tricks.as_strided(flat, shape=(height, width), strides=(pitch, 1))


def _run_on(d: Any, s: Any, task: Callable[[], None], name: str, nbytes: int, stream: Stream | None,
            info: dict[str, Any]) -> None:
    """Run one copy or fill task as rocmath's 1D copies run it: a synchronous call (``stream`` None) runs
    at once when both sides are pageable host memory, else on the null stream of the memory's device,
    waiting for it; an asynchronous one is ordered on ``stream`` and waits only when the destination is
    pageable host memory (as HIP does)."""
    if stream is None and d.span is None and s.span is None:
        task()
        return
    target = _memory._stream_for(d, s, stream, sync=stream is None)
    done = target.enqueue(task, name, keep=(d, s), inline=nbytes <= _memory._INLINE_BYTES, info=info)
    if stream is None or d.pageable:
        done.wait()


def _memcpy2d(dst: Any, dpitch: int, src: Any, spitch: int, width: int, height: int, kind: Any,
              stream: Any, op: str) -> None:
    """HIP's hipMemcpy2D_common: a handle of no live stream is ``hipErrorInvalidValue`` (its
    hipMemcpy2DValidateParams), nothing to copy is success, a width above a pitch ``hipErrorInvalidPitchValue``,
    then the sides are checked as ihipMemcpyParam3D checks them (:func:`_hip_runtime2.check_copy_2d`)."""
    _kind(kind)
    dp, sp = _size(dpitch, "dpitch"), _size(spitch, "spitch")
    w, h = _size(width, "width"), _size(height, "height")
    st = None
    if stream is not _SYNC:
        try:
            st = _valid_stream(stream)
        except ContextIsDestroyedError as exc:
            raise HipInvalidValueError(exc.message, arg="stream") from None
    if w == 0 or h == 0:
        return
    if w > dp or w > sp:
        raise InvalidPitchValueError(f"{op}: width {w} is larger than dpitch {dp} or spitch {sp}", arg="width")
    _runtime2.check_copy_2d(resolve(dst).address, dp, resolve(src).address, sp, w, h, int(kind))
    d_extent, s_extent = (h - 1) * dp + w, (h - 1) * sp + w
    d = _memory._side(_copy_side(dst, d_extent, "dst"), d_extent, op, "dst", writable=True)
    s = _memory._side(_copy_side(src, s_extent, "src"), s_extent, op, "src", writable=False)
    if st is not None and s.pageable:  # a pageable source is staged at the call, as HIP stages it
        s = _memory._Side(None, s.nbytes_view(s_extent).copy())

    def run() -> None:
        np.copyto(_rows(d.nbytes_view(d_extent), dp, w, h), _rows(s.nbytes_view(s_extent), sp, w, h))
        for side in (d, s):
            if side.span is not None:
                side.span.alloc.last_op = op

    _run_on(d, s, run, op, w * h, st, _memory._copy_info(d, s, w * h))


@binding(_HIP)
def hipMemcpy2D(dst: Any, dpitch: int, src: Any, spitch: int, width: int, height: int, kind: Any) -> None:
    """Copy ``height`` rows of ``width`` bytes from rows ``spitch`` bytes apart to rows ``dpitch`` bytes
    apart, synchronously; bytes between the rows stay as they were.

    ``width`` larger than either pitch is ``hipErrorInvalidPitchValue``; rows running past an allocation, a NULL
    side, or a side ``kind`` names device memory that is pageable host memory are ``hipErrorInvalidValue`` (HIP's
    checks), rows past a host buffer ``hipErrorIllegalAddress``; nothing is copied then.
    """
    _memcpy2d(dst, dpitch, src, spitch, width, height, kind, _SYNC, "hipMemcpy2D")


@binding(_HIP)
def hipMemcpy2DAsync(dst: Any, dpitch: int, src: Any, spitch: int, width: int, height: int, kind: Any,
                     stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpy2D`: one task on ``stream`` (a pageable host source is staged at
    the call, a pageable host destination makes the call wait, as in HIP)."""
    _memcpy2d(dst, dpitch, src, spitch, width, height, kind, stream, "hipMemcpy2DAsync")


def _memset2d(dst: Any, pitch: int, value: int, width: int, height: int, stream: Any, op: str) -> None:
    """HIP's hipMemset2D: its 3D fill of the one slice ``{dst, pitch, width, height}``."""
    p = _size(pitch, "pitch")
    byte = _c_typed(value, "value", "int") & 0xFF
    w, h = _size(width, "width"), _size(height, "height")
    is_async = stream is not _SYNC
    _runtime2.memset_pitched(dst, p, w, h, (w, h, 1), byte, stream if is_async else None, is_async, op, "dst")


@binding(_HIP)
def hipMemset2D(dst: Any, pitch: int, value: int, width: int, height: int) -> None:
    """Set ``height`` rows of ``width`` bytes, ``pitch`` bytes apart, to ``value & 0xFF``; the bytes
    between the rows stay as they were.  Checked as HIP checks it: memory the runtime does not know, fewer than
    ``width * height`` bytes left in the allocation, more rows than a pitched allocation has (at its pitch), or a
    pitch below the width are ``hipErrorInvalidValue``."""
    _memset2d(dst, pitch, value, width, height, _SYNC, "hipMemset2D")


@binding(_HIP)
def hipMemset2DAsync(dst: Any, pitch: int, value: int, width: int, height: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemset2D` (one task)."""
    _memset2d(dst, pitch, value, width, height, stream, "hipMemset2DAsync")


def _memset_pattern(dest: Any, value: int, count: int, itemsize: int, stream: Any, op: str, arg: str) -> None:
    """Fill ``count`` items of ``itemsize`` bytes with ``value`` (its low bytes, little endian), after HIP's
    ihipMemset_validate: nothing to fill is success (whatever the pointer), a NULL pointer, memory the runtime
    does not know (pageable or freed) or a fill past the allocation are ``hipErrorInvalidValue``.  Registered
    host memory is the runtime's: it is filled in stream order, the call waiting for it."""
    n = (_size(count, "count") * itemsize) & ((1 << 64) - 1)  # size_t arithmetic
    st = None if stream is _SYNC else _as_stream(stream)
    if n == 0:
        return
    obj = _memory_object(dest)
    if obj is None or n > obj[1] - obj[0]:
        raise HipInvalidValueError(f"{op}: {n} bytes are no memory of the runtime (NULL, pageable or freed) or run "
                                   "past its allocation", arg=arg)
    d = _memory._side(_copy_side(dest, n, arg), n, op, arg, writable=True)
    dtype = {1: np.uint8, 2: np.dtype("<u2"), 4: np.dtype("<u4")}[itemsize]
    pattern = value & ((1 << (8 * itemsize)) - 1)

    def run() -> None:
        d.nbytes_view(n).view(dtype).fill(pattern)
        if d.span is not None:
            d.span.alloc.last_op = op

    if st is None and d.span is None:  # registered host memory: ordered on the null stream all the same
        st = rocmath.null_stream()
    _run_on(d, d, run, op, n, st, {"cat": "memset", "bytes": n})


@binding(_HIP)
def hipMemsetD8Async(dest: Any, value: int, count: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemsetD8`."""
    _memset_pattern(dest, _c_typed(value, "value", "unsigned char"), count, 1, stream, "hipMemsetD8Async", "dest")


@binding(_HIP)
def hipMemsetD16(dest: Any, value: int, count: int) -> None:
    """Set ``count`` 16-bit words to ``value`` (an unsigned short)."""
    _memset_pattern(dest, _c_typed(value, "value", "unsigned short"), count, 2, _SYNC, "hipMemsetD16", "dest")


@binding(_HIP)
def hipMemsetD16Async(dest: Any, value: int, count: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemsetD16`."""
    _memset_pattern(dest, _c_typed(value, "value", "unsigned short"), count, 2, stream, "hipMemsetD16Async",
                    "dest")


@binding(_HIP)
def hipMemsetD32(dest: Any, value: int, count: int) -> None:
    """Set ``count`` 32-bit words to ``value`` (a C ``int``: pass ``0xDEADBEEF`` as ``-559038737``, or
    wrap it with ``ctypes.c_int(...).value``)."""
    _memset_pattern(dest, _c_typed(value, "value", "int"), count, 4, _SYNC, "hipMemsetD32", "dest")


@binding(_HIP)
def hipMemsetD32Async(dst: Any, value: int, count: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemsetD32`."""
    _memset_pattern(dst, _c_typed(value, "value", "int"), count, 4, stream, "hipMemsetD32Async", "dst")


# --- peer access and peer copies ---------------------------------------------------------------------------


def _device_index(value: Any, arg: str) -> int:
    index = _c_typed(value, arg, "int")
    if not 0 <= index < rocmath.get_device_count():
        raise InvalidDeviceError(f"device {index} does not exist ({rocmath.get_device_count()} device(s))", arg=arg)
    return index


@binding(_HIP, 1)
def hipDeviceCanAccessPeer(deviceId: int, peerDeviceId: int) -> int:
    """1 when ``deviceId`` can map ``peerDeviceId``'s memory (any two distinct simulated devices can);
    0 for a device and itself (checked first, as the AMD runtime does)."""
    device = _c_typed(deviceId, "deviceId", "int")
    peer = _c_typed(peerDeviceId, "peerDeviceId", "int")
    if device == peer:
        return 0
    _device_index(device, "deviceId")
    _device_index(peer, "peerDeviceId")
    return 1


def _peer_of_current(peerDeviceId: Any) -> int:
    peer = _c_typed(peerDeviceId, "peerDeviceId", "int")
    if peer == rocmath.get_device():
        raise InvalidDeviceError(f"device {peer} cannot be its own peer", arg="peerDeviceId")
    return _device_index(peer, "peerDeviceId")


@binding(_HIP)
def hipDeviceEnablePeerAccess(peerDeviceId: int, flags: int) -> None:
    """Let the current device reach ``peerDeviceId``'s memory (one-way).  Non-zero ``flags`` is
    ``hipErrorInvalidValue``, itself or a missing device ``hipErrorInvalidDevice``, a second enable
    ``hipErrorPeerAccessAlreadyEnabled``."""
    if _c_typed(flags, "flags", "unsigned int") != 0:
        raise HipInvalidValueError("flags must be 0", arg="flags")
    _multi.enable_peer_access(_peer_of_current(peerDeviceId))


@binding(_HIP)
def hipDeviceDisablePeerAccess(peerDeviceId: int) -> None:
    """Withdraw the current device's access to ``peerDeviceId`` (``hipErrorPeerAccessNotEnabled`` when it
    was not enabled)."""
    _multi.disable_peer_access(_peer_of_current(peerDeviceId))


def _peer_pointer(obj: Any) -> Any:
    r = resolve(obj)
    return r.host if r.host is not None else r.address


def _on_device(obj: Any, device: int) -> bool:
    """Whether ``obj`` points into device or managed memory of ``device``."""
    r = resolve(obj)
    alloc = address_space.find(r.address) if r.device else None
    return alloc is not None and alloc.kind is not MemoryKind.HOST and alloc.device == device


def _peer_args(dstDeviceId: Any, srcDeviceId: Any, sizeBytes: Any, src_arg: str) -> tuple[int, int, int]:
    """``(dst device, src device, size)`` of a peer copy: a device index naming none is
    ``hipErrorInvalidDevice``."""
    d = _c_typed(dstDeviceId, "dstDeviceId", "int")
    s = _c_typed(srcDeviceId, src_arg, "int")
    n = _size(sizeBytes, "sizeBytes")
    _device_index(s, src_arg)
    _device_index(d, "dstDeviceId")
    return d, s, n


def _peer_copy(dst: Any, d: int, src: Any, s: int, n: int, stream: Stream | None) -> None:
    """A checked peer copy: between memory of the devices named, after their work (or on ``stream``); any other
    pointers are copied as :func:`hipMemcpy` (or :func:`hipMemcpyAsync`) copies them, as HIP copies them."""
    if _on_device(dst, d) and _on_device(src, s):
        if stream is None:
            _multi.memcpy_peer(_peer_pointer(dst), d, _peer_pointer(src), s, n)
        else:
            _multi.memcpy_peer_async(_peer_pointer(dst), d, _peer_pointer(src), s, n, stream)
    elif stream is None:
        rocmath.memcpy(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n)
    else:
        rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=stream)


@binding(_HIP)
def hipMemcpyPeer(dst: Any, dstDeviceId: int, src: Any, srcDeviceId: int, sizeBytes: int) -> None:
    """Copy ``sizeBytes`` from ``src`` on ``srcDeviceId`` to ``dst`` on ``dstDeviceId`` after all earlier
    work of both devices, returning when done.  As in HIP, the device indices are only checked to name devices
    (``hipErrorInvalidDevice``), then the copy is checked as :func:`hipMemcpy` checks a device-to-device one and
    goes where the pointers are."""
    d, s, n = _peer_args(dstDeviceId, srcDeviceId, sizeBytes, "srcDeviceId")
    if _check_copy(dst, src, n, hipMemcpyKind.hipMemcpyDeviceToDevice):
        _peer_copy(dst, d, src, s, n, None)


@binding(_HIP)
def hipMemcpyPeerAsync(dst: Any, dstDeviceId: int, src: Any, srcDevice: int, sizeBytes: int, stream: Any) -> None:
    """:func:`hipMemcpyPeer` ordered on ``stream`` only (order the other device's work with events); a handle of
    no live stream is ``hipErrorContextIsDestroyed`` (not made the last error: HIP returns it bare)."""
    d, s, n = _peer_args(dstDeviceId, srcDevice, sizeBytes, "srcDevice")
    try:
        st = _valid_stream(stream)
    except ContextIsDestroyedError as exc:
        raise _unrecorded(exc) from None
    if _check_copy(dst, src, n, hipMemcpyKind.hipMemcpyDeviceToDevice):
        _peer_copy(dst, d, src, s, n, st)


# --- pointer attributes and address ranges -----------------------------------------------------------------


class hipPointerAttribute_t(_Struct):
    """``hipPointerAttribute_t``, as hip-python wraps it: a :class:`Pointer` to the C struct (hip_runtime_api.h),
    which ``hipPointerAttribute_t()`` allocates (and owns); ``fromObj`` adapts an address or a buffer of the
    struct's size.  Members: ``type`` (a :class:`hipMemoryType`), ``device``, ``devicePointer`` and
    ``hostPointer`` (Pointers), ``isManaged``, ``allocationFlags``."""

    _members = (("type", "enum", hipMemoryType), ("device", "int", None), ("devicePointer", "ptr", None),
                ("hostPointer", "ptr", None), ("isManaged", "int", None), ("allocationFlags", "unsigned int", None))


class _Registered:
    """A ``hipHostRegister`` range: its size, flags, the device current then, and the buffer it came from."""

    __slots__ = ("device", "flags", "keep", "size")

    def __init__(self, size: int, flags: int, device: int, keep: Any):
        self.size, self.flags, self.device, self.keep = size, flags, device, keep


_registered: dict[int, _Registered] = {}
_registered_lock = threading.Lock()


def _registered_at(address: int) -> tuple[int, _Registered] | None:
    """The registered range holding host ``address``: ``(start, entry)``."""
    with _registered_lock:
        for start, entry in _registered.items():
            if start <= address < start + entry.size:
                return start, entry
    return None


def _known(ptr: Any) -> tuple[int, int, Any] | None:
    """What the runtime knows of a pointer: ``(user-visible base, offset, allocation or registered range)``,
    None when it is no live allocation's and no registered range's (the AMD runtime's memory-object lookup)."""
    r = resolve(ptr)
    if r.address == 0:
        return None
    raw = pointer_value(ptr) if r.host is None else r.address
    if r.device:
        alloc = address_space.find(r.address)
        if alloc is None or not alloc.live or alloc.pooled:
            return None
        offset = r.address - alloc.ptr
        return raw - offset, offset, alloc
    found = _registered_at(r.address)
    if found is None:
        return None
    start, entry = found
    return start, r.address - start, entry


def _struct_target(attributes: Any) -> Any:
    if isinstance(attributes, hipPointerAttribute_t):
        return attributes._at(0)
    r = resolve(attributes)
    if r.address == 0:
        raise HipInvalidValueError("attributes is NULL", arg="attributes")
    if r.device or (r.host is not None and r.host.nbytes < ctypes.sizeof(hipPointerAttribute_t._c)):
        raise HipInvalidValueError("attributes must be host memory holding a hipPointerAttribute_t",
                                   arg="attributes")
    _host_bytes(r.address, ctypes.sizeof(hipPointerAttribute_t._c), what="attributes")  # refuses the null page
    return hipPointerAttribute_t._c.from_address(r.address)


@binding(_HIP)
def hipPointerGetAttributes(attributes: Any, ptr: Any) -> None:
    """Fill ``attributes`` (a :class:`hipPointerAttribute_t`) with what ``ptr`` points into.

    Device memory: ``hipMemoryTypeDevice``, no host pointer; pinned (``hipHostMalloc``) and registered
    host memory: ``hipMemoryTypeHost``, host and device pointer the same address; managed memory:
    ``hipMemoryTypeManaged``, ``isManaged`` 1.  Any other pointer (pageable or freed memory) is
    ``hipMemoryTypeUnregistered`` on device ``hipInvalidDeviceId``, with success, as the AMD runtime
    answers; a NULL ``ptr`` or ``attributes`` is ``hipErrorInvalidValue``.
    """
    target = _struct_target(attributes)
    if pointer_value(ptr) == 0:
        raise HipInvalidValueError("ptr is NULL", arg="ptr")
    known = _known(ptr)
    raw = pointer_value(ptr)
    ctypes.memset(ctypes.addressof(target), 0, ctypes.sizeof(target))
    if known is None:
        target.type, target.device = int(hipMemoryType.hipMemoryTypeUnregistered), hipInvalidDeviceId
        return
    _, _, what = known
    target.devicePointer = raw
    if isinstance(what, _Registered):
        target.type, target.device, target.allocationFlags = int(hipMemoryType.hipMemoryTypeHost), what.device, \
            what.flags
        target.hostPointer = raw
        return
    device, flags = _alloc_meta.get(what.ptr, (what.device if what.device >= 0 else rocmath.get_device(), 0))
    target.device, target.allocationFlags = device, flags
    if what.kind is MemoryKind.DEVICE:
        target.type = int(hipMemoryType.hipMemoryTypeDevice)
    else:
        target.hostPointer = raw
        managed = what.kind is MemoryKind.MANAGED
        target.type = int(hipMemoryType.hipMemoryTypeManaged if managed else hipMemoryType.hipMemoryTypeHost)
        target.isManaged = int(managed)


@binding(_HIP, 1)
def hipMemPtrGetInfo(ptr: Any) -> int:
    """The size of the whole allocation (or registered range) ``ptr`` points into."""
    known = _known(ptr)
    if known is None:
        raise HipInvalidValueError("ptr is not memory of the HIP runtime", arg="ptr")
    return known[2].size if isinstance(known[2], _Registered) else known[2].nbytes


@binding(_HIP, 2)
def hipMemGetAddressRange(dptr: Any) -> tuple[Pointer, int]:
    """``(base, size)`` of the allocation ``dptr`` points into (``hipErrorNotFound`` for any other pointer)."""
    known = _known(dptr)
    if known is None:
        raise NotFoundError("dptr is in no allocation", arg="dptr")
    base, _, what = known
    return Pointer.fromPtr(base), (what.size if isinstance(what, _Registered) else what.nbytes)


# --- registered host memory ------------------------------------------------------------------------------


@binding(_HIP)
def hipHostRegister(hostPtr: Any, sizeBytes: int, flags: int) -> None:
    """Register ``sizeBytes`` of host memory with the runtime (page-lock it): it then has pointer
    attributes and an address range, and :func:`hipHostGetDevicePointer` gives its (same) device address.
    Copies from and to it stay correct and synchronous as pageable ones (the simulation keeps no
    separate page-locked path).  The buffer object given is kept alive until :func:`hipHostUnregister`.
    Library calls (hipblas, hipsolver, hipsparse, hipfft) take pointers into it as device pointers, as a
    GPU system's device reaches registered memory: their kernels read and write its bytes in place.

    NULL, a zero size or flags above 15 are ``hipErrorInvalidValue``; a range overlapping a registered
    one (or pinned memory) is ``hipErrorHostMemoryAlreadyRegistered``.
    """
    _capture_unsafe("hipHostRegister")
    n = _size(sizeBytes, "sizeBytes")
    f = _c_typed(flags, "flags", "unsigned int")
    r = resolve(hostPtr)
    if r.address == 0 or n == 0 or f > 15:
        raise HipInvalidValueError("hostPtr must be non-NULL, sizeBytes positive and flags at most 15",
                                   arg="hostPtr" if r.address == 0 else ("sizeBytes" if n == 0 else "flags"))
    if r.device:
        alloc = address_space.find(r.address)
        if alloc is not None and alloc.kind is not MemoryKind.DEVICE:
            raise HostMemoryAlreadyRegisteredError("pinned or managed memory is registered already", arg="hostPtr")
        raise HipInvalidValueError("device memory cannot be registered as host memory", arg="hostPtr")
    if r.host is not None and r.host.nbytes < n:
        raise HipInvalidValueError(f"the buffer holds {r.host.nbytes} bytes, not {n}", arg="sizeBytes")
    _host_bytes(r.address, n, what="hostPtr")  # refuses the null page
    with _registered_lock:
        for start, entry in _registered.items():
            if start < r.address + n and r.address < start + entry.size:
                raise HostMemoryAlreadyRegisteredError(
                    f"[0x{r.address:x}, +{n}) overlaps the registered range 0x{start:x} of {entry.size} bytes",
                    arg="hostPtr")
        _registered[r.address] = _Registered(n, f, rocmath.get_device(), hostPtr if r.host is not None else None)
        # Device-accessible where it is, as on a GPU system: hipblas/hipsolver/... calls take its pointers.
        address_space.adopt(r.address, n, rocmath.get_device())


@binding(_HIP)
def hipHostUnregister(hostPtr: Any) -> None:
    """Unregister memory of :func:`hipHostRegister` (after the device's queued work, as HIP waits for it);
    ``hipErrorHostMemoryNotRegistered`` for a pointer that does not start a registered range."""
    r = resolve(hostPtr)
    if r.address == 0:
        raise HipInvalidValueError("hostPtr is NULL", arg="hostPtr")
    with _registered_lock:
        entry = None if r.device else _registered.get(r.address)
    if entry is None:
        raise HostMemoryNotRegisteredError(f"0x{r.address:x} starts no registered range", arg="hostPtr")
    if entry.device < rocmath.get_device_count():
        wait_device_idle(entry.device)
    with _registered_lock:
        _registered.pop(r.address, None)
        address_space.disown(r.address)


@binding(_HIP, 1)
def hipHostGetFlags(hostPtr: Any) -> int:
    """The flags ``hostPtr``'s memory was allocated with: pinned (``hipHostMalloc``), managed or signal memory
    (``hipMallocSignalMemory``) only.  Other device memory, unknown pointers and, as in the AMD runtime,
    registered memory are ``hipErrorInvalidValue``."""
    known = _known(hostPtr)
    # HIP's test: fine-grained system memory, which device memory is only as hipMallocSignalMemory
    if known is None or isinstance(known[2], _Registered) or (
            known[2].kind is MemoryKind.DEVICE and _alloc_meta.get(known[2].ptr, (0, 0))[1] != hipMallocSignalMemory):
        raise HipInvalidValueError("hostPtr is not memory of hipHostMalloc or hipMallocManaged", arg="hostPtr")
    return _alloc_meta.get(known[2].ptr, (0, 0))[1]


# --- streams: callbacks, devices, priorities --------------------------------------------------------------


class hipStreamCallback_t(Pointer):
    """``hipStreamCallback_t``: a C function pointer ``void (*)(hipStream_t, hipError_t, void*)``."""

    def __repr__(self) -> str:
        return f"<hipStreamCallback_t object, ptr: {self._ptr}>"


#: The C type of a stream callback, for callbacks given as function addresses.
_STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)


def _stream_callback(callback: Any, stream: Any, userData: Any) -> tuple[Callable[[Any], None], str]:
    """The host function a callback argument stands for, called with the stream's status.

    A ctypes function pointer (or the address of one: an int, ``c_void_p`` or :class:`Pointer`, what
    hip-python passes to C) is called as C would call it, with the stream handle's address, the status as
    an int and ``userData``'s address; any other Python callable gets the ``stream`` and ``userData``
    objects given here and a :class:`hipError_t`.
    """
    name = getattr(callback, "__name__", "stream callback")
    if isinstance(callback, ctypes._CFuncPtr) or not callable(callback):
        fn = callback if isinstance(callback, ctypes._CFuncPtr) else None
        if fn is None:
            address = pointer_value(callback)
            if address == 0:
                raise HipInvalidValueError("callback is NULL", arg="callback")
            fn = _STREAM_CALLBACK(address)
        stream_address = pointer_value(stream) if stream is not None else 0
        user_address = pointer_value(userData)

        def c_call(status: Any) -> None:
            fn(ctypes.c_void_p(stream_address or None), ctypes.c_int(int(status)),
               ctypes.c_void_p(user_address or None))

        return c_call, name
    return (lambda status: callback(stream, hipError_t(int(status)), userData)), name


@binding(_HIP)
def hipStreamAddCallback(stream: Any, callback: Any, userData: Any, flags: int) -> None:
    """Call ``callback(stream, status, userData)`` on the host once all work queued on ``stream`` so far is
    done; later work on the stream waits for it.  ``status`` is ``hipSuccess``, or the error of earlier
    failed work (the callback still runs).  ``callback`` is a ctypes function pointer or its address (as
    hip-python passes it to C) or any Python callable; non-zero ``flags`` or a NULL callback is
    ``hipErrorInvalidValue``, then a handle of no live stream ``hipErrorContextIsDestroyed``."""
    if _c_typed(flags, "flags", "unsigned int") != 0:
        raise HipInvalidValueError("flags must be 0", arg="flags")
    if callback is None:
        raise HipInvalidValueError("callback is NULL", arg="callback")
    call, name = _stream_callback(callback, stream, userData)
    s = _valid_stream(stream)

    def run(_stream: Any, status: Any, _data: Any) -> None:
        call(status)

    run.__name__ = name
    s.add_callback(run)


@binding(_HIP, 1)
def hipStreamGetDevice(stream: Any) -> int:
    """The device of ``stream`` (the current device for the null stream); a handle of no live stream is
    ``hipErrorContextIsDestroyed``."""
    return _valid_stream(stream).device.index


#: ``hip::Stream::Priority``: Low = 1 is the least priority, High = -1 the greatest.
_LEAST_PRIORITY, _GREATEST_PRIORITY = 1, -1


@binding(_HIP, 2)
def hipDeviceGetStreamPriorityRange() -> tuple[int, int]:
    """``(leastPriority, greatestPriority)``: ``(1, -1)``, the AMD runtime's stream priorities."""
    return _LEAST_PRIORITY, _GREATEST_PRIORITY


# --- unified memory hints --------------------------------------------------------------------------------


def _hint_range(dev_ptr: Any, count: int) -> Any:
    """The allocation a prefetch or advice covers (None for memory the runtime does not know), after
    HIP's checks: NULL or a zero count, and a range past the allocation, are ``hipErrorInvalidValue``."""
    if pointer_value(dev_ptr) == 0 or count == 0:
        raise HipInvalidValueError("dev_ptr must be non-NULL and count positive",
                                   arg="dev_ptr" if count else "count")
    known = _known(dev_ptr)
    if known is None:
        return None
    _, offset, what = known
    size = what.size if isinstance(what, _Registered) else what.nbytes
    if count > size - offset:
        raise HipInvalidValueError(f"[{offset}, {offset + count}) runs past the {size} bytes of the allocation",
                                   arg="count")
    return what


@binding(_HIP)
def hipMemPrefetchAsync(dev_ptr: Any, count: int, device: int, stream: Any) -> None:
    """Migrate managed memory to ``device`` (``hipCpuDeviceId`` for the host) in stream order.  Memory
    is unified here, so this only orders a marker on ``stream`` (the target device's null stream for
    NULL); pageable host memory is ``hipErrorNotSupported`` on a device without XNACK, as on gfx942."""
    n = _size(count, "count")
    dev = _c_typed(device, "device", "int")
    what = _hint_range(dev_ptr, n)
    st = None if stream is None or pointer_value(stream) == hipStreamLegacy else _as_stream(stream)
    if dev != hipCpuDeviceId:
        dev = _device_index(dev, "device")
    if what is None and dev != hipCpuDeviceId:
        raise HipNotSupportedError("prefetching pageable host memory needs XNACK", arg="dev_ptr")
    if st is None:
        st = rocmath.null_stream(rocmath.get_device() if dev == hipCpuDeviceId else dev)
    st.enqueue(lambda: None, "hipMemPrefetchAsync", info={"cat": "prefetch", "bytes": n})
    _runtime2.prefetched(dev_ptr, n, dev)  # the range's last prefetch location (hipMemRangeGetAttribute)


@binding(_HIP)
def hipMemAdvise(dev_ptr: Any, count: int, advice: Any, device: int) -> None:
    """Advise the runtime about a managed range (accepted and checked; memory is unified here, so advice
    changes nothing).  A device naming none is ``hipErrorInvalidDevice`` (except for the read-mostly
    advice, which ignores it), memory the runtime does not know ``hipErrorInvalidValue``."""
    check_enum(advice, hipMemoryAdvise, "advice")
    n = _size(count, "count")
    dev = _c_typed(device, "device", "int")
    read_mostly = advice in (hipMemoryAdvise.hipMemAdviseSetReadMostly, hipMemoryAdvise.hipMemAdviseUnsetReadMostly)
    if not read_mostly and dev != hipCpuDeviceId:
        _device_index(dev, "device")
    if _hint_range(dev_ptr, n) is None:
        raise HipInvalidValueError("dev_ptr is not memory of the HIP runtime", arg="dev_ptr")
    _runtime2.advised(dev_ptr, n, advice, dev)  # what hipMemRangeGetAttribute reports


# --- device flags and limits --------------------------------------------------------------------------------

#: The AMD runtime's defaults: scheduling flag hipDeviceScheduleSpin, a 1 KiB stack per thread
#: (settable up to 128 KiB - 16, rounded up to 16 bytes) and an 8 MiB device malloc heap.
_DEFAULT_FLAGS = hipDeviceScheduleSpin
_DEFAULT_STACK = 1024
_MAX_STACK = 128 * 1024 - 16
_DEFAULT_HEAP = 8 << 20

# Keyed by the Device object: rocmath.configure() (new devices) starts from the defaults again.
_device_settings: weakref.WeakKeyDictionary[Device, dict[str, int]] = weakref.WeakKeyDictionary()
_settings_lock = threading.Lock()


def _settings() -> dict[str, int]:
    dev = get_device_object()
    with _settings_lock:
        return _device_settings.setdefault(dev, {"flags": _DEFAULT_FLAGS, "stack": _DEFAULT_STACK,
                                                 "heap": _DEFAULT_HEAP})


@binding(_HIP, 1)
def hipGetDeviceFlags() -> int:
    """The current device's scheduling flag (``hipDeviceScheduleSpin`` until set)."""
    return _settings()["flags"]


@binding(_HIP)
def hipSetDeviceFlags(flags: int) -> None:
    """Set the current device's flags: at most one of ``hipDeviceScheduleSpin``/``Yield``/``BlockingSync``,
    plus ``hipDeviceMapHost`` and ``hipDeviceLmemResizeToMax``; anything else is ``hipErrorInvalidValue``.
    As the AMD runtime does, only the scheduling part is kept (what :func:`hipGetDeviceFlags` returns)."""
    f = _c_typed(flags, "flags", "unsigned int")
    schedule = f & hipDeviceScheduleMask
    if schedule not in (hipDeviceScheduleAuto, hipDeviceScheduleSpin, hipDeviceScheduleYield,
                        hipDeviceScheduleBlockingSync):
        raise HipInvalidValueError(f"only one scheduling flag may be set, got 0x{schedule:x}", arg="flags")
    if f & ~(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax):
        raise HipInvalidValueError(f"unsupported flags 0x{f:x}", arg="flags")
    _settings()["flags"] = schedule


@binding(_HIP, 1)
def hipDeviceGetLimit(limit: Any) -> int:
    """``hipLimitStackSize`` (bytes per thread) or ``hipLimitMallocHeapSize`` of the current device;
    ``hipLimitPrintfFifoSize`` is ``hipErrorUnsupportedLimit``, ``hipLimitRange`` ``hipErrorInvalidValue``."""
    check_enum(limit, hipLimit_t, "limit")
    if limit >= hipLimit_t.hipLimitRange:
        raise HipInvalidValueError(f"{limit.name} is no limit", arg="limit")
    if limit == hipLimit_t.hipLimitStackSize:
        return _settings()["stack"]
    if limit == hipLimit_t.hipLimitMallocHeapSize:
        return _settings()["heap"]
    raise UnsupportedLimitError(f"{limit.name} is not supported", arg="limit")


@binding(_HIP)
def hipDeviceSetLimit(limit: Any, value: int) -> None:
    """Set a limit of the current device: the stack size (at most 128 KiB - 16 bytes per thread, rounded
    up to 16) or the malloc heap size (less than the device's memory); other values are
    ``hipErrorInvalidValue``, ``hipLimitPrintfFifoSize`` ``hipErrorUnsupportedLimit``."""
    check_enum(limit, hipLimit_t, "limit")
    v = _size(value, "value")
    if limit >= hipLimit_t.hipLimitRange:
        raise HipInvalidValueError(f"{limit.name} is no limit", arg="limit")
    if limit == hipLimit_t.hipLimitStackSize:
        if v > _MAX_STACK:
            raise HipInvalidValueError(f"a stack of {v} bytes exceeds {_MAX_STACK}", arg="value")
        _settings()["stack"] = -(-v // 16) * 16
    elif limit == hipLimit_t.hipLimitMallocHeapSize:
        total = get_device_properties().totalGlobalMem
        if v >= total:
            raise HipInvalidValueError(f"a heap of {v} bytes does not fit the device's {total}", arg="value")
        _settings()["heap"] = v
    else:
        raise UnsupportedLimitError(f"{limit.name} is not supported", arg="limit")


# --- the rest of the runtime API (per-thread stream, memory pools, 3D copies, contexts...) ---------------------
from . import _hip_runtime2 as _runtime2  # noqa: E402

globals().update(_runtime2.runtime_api(sys.modules[__name__]))

from ._hip_graph import graph_api as _graph_api  # noqa: E402

globals().update(_graph_api(sys.modules[__name__]))

from ._hip_arrays import arrays_api as _arrays_api  # noqa: E402

globals().update(_arrays_api(sys.modules[__name__]))
