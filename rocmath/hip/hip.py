"""``hip.hip``: the HIP runtime as hip-python binds it, over rocmath's simulated devices.

Every function returns a tuple whose first element is a :class:`hipError_t` member,
followed by the C out-parameters (``hipMalloc(size) -> (err, DeviceArray)``);
functions without out-parameters return ``(err,)``.  Enum-typed parameters must be
members of this module's enums (a plain int raises ``TypeError``, as in hip-python).
``#define`` constants are module ints.

Semantics are rocmath's: streams are real ordered queues, events time the actual
work, copies and fills are checked against the allocations they touch.  Two
simplifications: ``hipMemcpyKind`` is validated but the direction always comes from
the pointers (the AMD runtime does the same), and ``hipStreamPerThread`` is the null
stream.  Pinned (``hipHostMalloc``) and managed (``hipMallocManaged``) memory is
returned at the real host address of its backing store, so ctypes and numpy can read
it directly, as on a GPU system.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import threading
from typing import Any

import rocmath
from rocmath import memory as _memory
from rocmath.device import get_device_object, get_device_properties
from rocmath.errors import HipInvalidHandleError, HipInvalidValueError, HipStatus, InvalidDevicePointerError
from rocmath.stream import Event, Stream

from ._api import StatusTable, binding
from ._types import (
    CStr,
    DeviceArray,
    Pointer,
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
    _last.error = status


def _hip_status(exc: BaseException) -> Any:
    if isinstance(exc, MemoryError) and not isinstance(exc, rocmath.RocmathError):
        return hipError_t.hipErrorOutOfMemory
    status = getattr(exc, "status", None)
    if isinstance(status, HipStatus):
        return hipError_t(int(status))
    return hipError_t.hipErrorUnknown


_HIP = StatusTable(hipError_t.hipSuccess, _hip_status, on_failure=_record)


def _c_int(value: Any, arg: str) -> int:
    """A C integer argument: Python and numpy ints (no bools, floats or strings)."""
    if isinstance(value, bool):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"an integer is required for argument '{arg}', got {type(value).__name__}") from None


def _size(value: Any, arg: str) -> int:
    n = _c_int(value, arg)
    if n < 0:
        raise OverflowError(f"can't convert negative value to size_t (argument '{arg}')")
    return n


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
    if isinstance(obj, cls) and obj._ptr in _handles:
        return obj
    address = pointer_value(obj)
    found = _handles.get(address)
    if not isinstance(found, cls):
        raise HipInvalidHandleError(f"0x{address:x} is not a live {what}", arg=what)
    return found


def _as_stream(obj: Any) -> Stream:
    """A stream argument: NULL, ``hipStreamLegacy`` or ``hipStreamPerThread`` mean the null stream."""
    if isinstance(obj, Stream):
        return obj
    if obj is None or (not isinstance(obj, ihipStream_t) and pointer_value(obj) in (0, hipStreamLegacy,
                                                                                    hipStreamPerThread)):
        return rocmath.null_stream()
    stream = _lookup(obj, ihipStream_t, "stream")._stream
    assert stream is not None
    return stream


def _as_event(obj: Any) -> Event:
    event = _lookup(obj, ihipEvent_t, "event")._event
    assert event is not None
    return event


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


class dim3:
    """``dim3``: x, y, z (default 1); indexable (``block[0]``) and unpackable (``*grid``).

    Like hip-python's setters, which take C unsigned ints, floats are truncated.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        self.x = self.y = self.z = 1
        names = self.PROPERTIES()
        if len(args) > len(names):
            raise ValueError("More positional arguments specified than this type has properties.")
        for name, value in zip(names, args, strict=False):
            setattr(self, name, value)
        for key, value in kwargs.items():
            if key in names[: len(args)]:
                raise KeyError(f"argument '{key}' has already been specified as positional argument.")
            if key not in names:
                raise KeyError(f"'{key}' is no valid property name. Valid names: 'x', 'y', 'z'")
            setattr(self, key, value)

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

    def __contains__(self, item: Any) -> bool:
        return item in self.PROPERTIES()

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
    """The device name, truncated to ``len - 1`` bytes."""
    name = get_device_properties(_c_int(device, "device")).name.encode()
    return name[: max(_c_int(len, "len") - 1, 0)]


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
    """Wait for all work on the current device; report the first asynchronous error."""
    rocmath.device_synchronize()


@binding(_HIP)
def hipDeviceReset() -> None:
    """Wait for the current device's work and clear its errors (allocations stay: rocmath
    cannot reset a device with live memory)."""
    with contextlib.suppress(rocmath.RocmathError):
        rocmath.device_synchronize()
    rocmath.get_last_error()


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


_ERROR_STRINGS = {
    "hipSuccess": "no error", "hipErrorInvalidValue": "invalid argument", "hipErrorOutOfMemory": "out of memory",
    "hipErrorNotInitialized": "initialization error", "hipErrorDeinitialized": "driver shutting down",
    "hipErrorInvalidConfiguration": "invalid configuration argument", "hipErrorInvalidSymbol": "invalid device symbol",
    "hipErrorInvalidDevicePointer": "invalid device pointer",
    "hipErrorInvalidMemcpyDirection": "invalid copy direction for memcpy",
    "hipErrorInvalidDeviceFunction": "invalid device function",
    "hipErrorNoDevice": "no ROCm-capable device is detected", "hipErrorInvalidDevice": "invalid device ordinal",
    "hipErrorInvalidImage": "device kernel image is invalid", "hipErrorInvalidContext": "invalid device context",
    "hipErrorInvalidHandle": "invalid resource handle", "hipErrorNotFound": "named symbol not found",
    "hipErrorNotReady": "device not ready", "hipErrorIllegalAddress": "an illegal memory access was encountered",
    "hipErrorLaunchFailure": "unspecified launch failure", "hipErrorNotSupported": "operation not supported",
    "hipErrorUnknown": "unknown error",
}


def hipGetErrorName(hip_error: Any) -> tuple[Any, CStr]:
    """The enumerator name of an error (``"hipErrorInvalidValue"``)."""
    check_enum(hip_error, hipError_t, "hip_error")
    return (hipError_t.hipSuccess, CStr(hip_error.name))


def hipGetErrorString(hipError: Any) -> tuple[Any, CStr]:
    """A short description of an error (``"invalid argument"``)."""
    check_enum(hipError, hipError_t, "hipError")
    text = _ERROR_STRINGS.get(hipError.name)
    if text is None:  # the rarer codes: the name, in words
        words = "".join(f" {c.lower()}" if c.isupper() else c for c in hipError.name.removeprefix("hipError"))
        text = words.strip()
    return (hipError_t.hipSuccess, CStr(text))


# --- memory --------------------------------------------------------------------------------------------------


def _device_array(address: int, nbytes: int) -> DeviceArray | None:
    if address == 0:
        return None
    arr = DeviceArray.fromPtr(address)
    assert isinstance(arr, DeviceArray)
    return arr.configure(_force=True, shape=(nbytes,))  # type: ignore[return-value]


@binding(_HIP, 1)
def hipMalloc(size: int) -> DeviceArray | None:
    """Device memory of ``size`` bytes, as a :class:`DeviceArray` (None for size 0)."""
    n = _size(size, "size")
    return _device_array(rocmath.malloc(n), n)


@binding(_HIP, 1)
def hipExtMallocWithFlags(sizeBytes: int, flags: int) -> DeviceArray | None:
    """:func:`hipMalloc` with allocation flags (all flags allocate plain device memory here)."""
    _c_int(flags, "flags")
    n = _size(sizeBytes, "sizeBytes")
    return _device_array(rocmath.malloc(n), n)


@binding(_HIP, 1)
def hipMallocAsync(size: int, stream: Any) -> DeviceArray | None:
    """Stream-ordered device memory from the device's pool."""
    n = _size(size, "size")
    return _device_array(_memory.malloc_async(n, _as_stream(stream)), n)


@binding(_HIP, 1)
def hipMallocManaged(size: int, flags: int = hipMemAttachGlobal) -> DeviceArray | None:
    """Managed memory: one address the host and the device both use (the real host address of
    its storage, so the host may read and write it directly)."""
    _c_int(flags, "flags")
    n = _size(size, "size")
    ptr = rocmath.malloc_managed(n)
    return _device_array(host_mapped(ptr), n) if ptr else None


@binding(_HIP, 1)
def hipHostMalloc(size: int, flags: int = hipHostMallocDefault) -> Pointer | None:
    """Pinned host memory: copies from and to it are truly asynchronous.  The pointer is a real
    host address (read it with ctypes or numpy)."""
    _c_int(flags, "flags")
    n = _size(size, "size")
    ptr = rocmath.malloc_host(n)
    return Pointer.fromPtr(host_mapped(ptr)) if ptr else None


hipMallocHost = hipHostMalloc
hipHostAlloc = hipHostMalloc


def _free_target(ptr: Any) -> tuple[int, int]:
    """(rocmath address, mapped host address or 0) of a pointer given to a free function."""
    r = resolve(ptr)
    if r.address == 0:
        return 0, 0
    if not r.device:
        raise InvalidDevicePointerError(f"0x{r.address:x} was not allocated by the HIP runtime", arg="ptr")
    raw = pointer_value(ptr)
    return r.address, (raw if raw != r.address else 0)


@binding(_HIP)
def hipFree(ptr: Any) -> None:
    """Free device or managed memory (waits for the device's work first); NULL does nothing."""
    address, mapped = _free_target(ptr)
    rocmath.free(address)
    if mapped:
        unmap_host(mapped)


@binding(_HIP)
def hipFreeAsync(dev_ptr: Any, stream: Any) -> None:
    """Return memory to the pool once ``stream`` reaches this point."""
    address, _ = _free_target(dev_ptr)
    _memory.free_async(address, _as_stream(stream))


@binding(_HIP)
def hipHostFree(ptr: Any) -> None:
    """Free pinned host memory."""
    address, mapped = _free_target(ptr)
    rocmath.free_host(address)
    if mapped:
        unmap_host(mapped)


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


@binding(_HIP)
def hipMemcpy(dst: Any, src: Any, sizeBytes: int, kind: Any) -> None:
    """Copy ``sizeBytes`` bytes, synchronously; host sides are buffers or host addresses."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    rocmath.memcpy(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n)


@binding(_HIP)
def hipMemcpyAsync(dst: Any, src: Any, sizeBytes: int, kind: Any, stream: Any) -> None:
    """Stream-ordered copy (pageable host memory is staged, as in HIP)."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=_as_stream(stream))


@binding(_HIP)
def hipMemcpyWithStream(dst: Any, src: Any, sizeBytes: int, kind: Any, stream: Any) -> None:
    """Copy ordered on ``stream``, returning when done."""
    _kind(kind)
    n = _size(sizeBytes, "sizeBytes")
    s = _as_stream(stream)
    rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=s)
    s.synchronize()


def _directed(name: str, is_async: bool) -> Any:
    """``hipMemcpyHtoD`` and friends: :func:`hipMemcpy` without a kind argument."""
    if is_async:
        def copy(dst: Any, src: Any, sizeBytes: int, stream: Any) -> None:
            n = _size(sizeBytes, "sizeBytes")
            rocmath.memcpy_async(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n, stream=_as_stream(stream))
    else:
        def copy(dst: Any, src: Any, sizeBytes: int) -> None:  # type: ignore[misc]
            n = _size(sizeBytes, "sizeBytes")
            rocmath.memcpy(_copy_side(dst, n, "dst"), _copy_side(src, n, "src"), n)
    copy.__name__ = copy.__qualname__ = name
    copy.__doc__ = f"``{name}``: copy ``sizeBytes`` bytes{' on a stream' if is_async else ''}."
    return binding(_HIP)(copy)


hipMemcpyHtoD = _directed("hipMemcpyHtoD", False)
hipMemcpyDtoH = _directed("hipMemcpyDtoH", False)
hipMemcpyDtoD = _directed("hipMemcpyDtoD", False)
hipMemcpyHtoDAsync = _directed("hipMemcpyHtoDAsync", True)
hipMemcpyDtoHAsync = _directed("hipMemcpyDtoHAsync", True)
hipMemcpyDtoDAsync = _directed("hipMemcpyDtoDAsync", True)


@binding(_HIP)
def hipMemset(dst: Any, value: int, sizeBytes: int) -> None:
    """Set ``sizeBytes`` bytes of device memory to ``value & 0xFF``, synchronously."""
    n = _size(sizeBytes, "sizeBytes")
    rocmath.memset(_copy_side(dst, n, "dst"), _c_int(value, "value"), n)


@binding(_HIP)
def hipMemsetAsync(dst: Any, value: int, sizeBytes: int, stream: Any) -> None:
    """Stream-ordered :func:`hipMemset`."""
    n = _size(sizeBytes, "sizeBytes")
    rocmath.memset_async(_copy_side(dst, n, "dst"), _c_int(value, "value"), n, _as_stream(stream))


@binding(_HIP)
def hipMemsetD8(dest: Any, value: int, count: int) -> None:
    """Set ``count`` bytes to ``value``."""
    n = _size(count, "count")
    rocmath.memset(_copy_side(dest, n, "dest"), _c_int(value, "value"), n)


@binding(_HIP, 1)
def hipHostGetDevicePointer(hstPtr: Any, flags: int) -> Pointer:
    """The device-side address of pinned host memory (the same address: memory is unified)."""
    _c_int(flags, "flags")
    r = resolve(hstPtr)
    if not r.device:
        raise HipInvalidValueError("not memory from hipHostMalloc", arg="hstPtr")
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
    """Release a stream; work already queued still completes."""
    handle = _lookup(stream, ihipStream_t, "stream")
    assert handle._stream is not None
    handle._stream.destroy()
    with _handles_lock:
        _handles.pop(handle._ptr, None)


@binding(_HIP)
def hipStreamSynchronize(stream: Any) -> None:
    """Wait for the stream's work; report its first error."""
    _as_stream(stream).synchronize()


@binding(_HIP)
def hipStreamQuery(stream: Any) -> None:
    """``hipSuccess`` when the stream's work is done, ``hipErrorNotReady`` otherwise."""
    if not _as_stream(stream).query():
        raise rocmath.errors.NotReadyError("work is still queued on the stream", arg="stream")


@binding(_HIP)
def hipStreamWaitEvent(stream: Any, event: Any, flags: int = 0) -> None:
    """Make later work on ``stream`` wait for the work ``event`` captured."""
    _c_int(flags, "flags")
    _as_stream(stream).wait_event(_as_event(event))


@binding(_HIP, 1)
def hipStreamGetFlags(stream: Any) -> int:
    """``hipStreamNonBlocking`` or ``hipStreamDefault``."""
    return hipStreamNonBlocking if _as_stream(stream).non_blocking else hipStreamDefault


@binding(_HIP, 1)
def hipStreamGetPriority(stream: Any) -> int:
    """The priority the stream was created with."""
    return _as_stream(stream).priority


@binding(_HIP)
def hipLaunchHostFunc(stream: Any, fn: Any, userData: Any) -> None:
    """Call ``fn(userData)`` on the host in stream order (``fn`` is a Python callable)."""
    if not callable(fn):
        raise HipInvalidValueError("fn must be callable", arg="fn")
    _as_stream(stream).launch_host_func(fn, userData)


# --- events --------------------------------------------------------------------------------------------------


@binding(_HIP, 1)
def hipEventCreate() -> ihipEvent_t:
    """A new timing event on the current device."""
    return ihipEvent_t._wrap(Event())


@binding(_HIP, 1)
def hipEventCreateWithFlags(flags: int) -> ihipEvent_t:
    """A new event; ``hipEventDisableTiming`` makes it unusable for :func:`hipEventElapsedTime`."""
    flags = _c_int(flags, "flags")
    return ihipEvent_t._wrap(Event(timing=not flags & hipEventDisableTiming))


@binding(_HIP)
def hipEventRecord(event: Any, stream: Any = None) -> None:
    """Capture the work queued on ``stream`` so far."""
    _as_event(event).record(_as_stream(stream))


@binding(_HIP)
def hipEventSynchronize(event: Any) -> None:
    """Wait until the captured work is done."""
    _as_event(event).synchronize()


@binding(_HIP)
def hipEventQuery(event: Any) -> None:
    """``hipSuccess`` when the captured work is done, ``hipErrorNotReady`` otherwise."""
    if not _as_event(event).query():
        raise rocmath.errors.NotReadyError("the event's work is still running", arg="event")


@binding(_HIP, 1)
def hipEventElapsedTime(start: Any, stop: Any) -> float:
    """Milliseconds between two completed events."""
    return float(rocmath.elapsed_time(_as_event(start), _as_event(stop)))


@binding(_HIP)
def hipEventDestroy(event: Any) -> None:
    """Release an event."""
    handle = _lookup(event, ihipEvent_t, "event")
    with _handles_lock:
        _handles.pop(handle._ptr, None)

