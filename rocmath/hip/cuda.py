"""``cuda.cuda`` / ``cuda.cudart``: hip-python-as-cuda's CUDA names for :mod:`rocmath.hip.hip`.

hip-python's ``hip-python-as-cuda`` package lets CUDA Python programs run on HIP: its
``cuda.cuda`` and ``cuda.cudart`` modules (identical in content) make every CUDA name an
alias of the HIP object, so ``cudart.cudaMalloc is hip.hipMalloc`` and calls return
``hipError_t`` statuses.  This module is built the same way, from :mod:`rocmath.hip.hip`:

* functions and ``#define`` constants: ``cudaX`` aliases ``hipX`` by rule (except the
  HIP-only names in :data:`HIP_ONLY`), and the driver API's and renamed runtime names
  come from one table, :data:`RENAMED` (hipify's mapping, as in hip-python 6.2);
* enums: each CUDA enum class (``cudaError_t``, ``CUresult``, ``cudaMemcpyKind``,
  ``cudaDeviceAttr``...) derives from the HIP enum's base (``_hipError_t__Base``), so
  HIP's enum-typed parameters accept its members; its members are the HIP ones (first,
  so ``.name`` is the HIP name) plus the CUDA spellings -- ``cudaErrorX``/``CUDA_ERROR_X``
  by rule from ``hipErrorX``, and the exceptions in :data:`RENAMED_MEMBERS`;
* enum constant hallucination: with ``HIP_PYTHON_<enum>_HALLUCINATE=1`` in the
  environment (or the module variable of that name set true), a CUDA constant with no HIP
  counterpart reads as a fresh value of the enum instead of raising ``AttributeError``.

The runner (``python -m rocmath.hip``) serves this module as ``cuda.cuda``, ``cuda.cudart``,
``cuda.bindings.driver`` and ``cuda.bindings.runtime``; nothing else redirects ``cuda``,
so a real cuda-python install is never shadowed.
"""

from __future__ import annotations

import enum
import os
import re
import types
from typing import Any

from . import hip

__all__ = ["HIP_PYTHON", "HIP_ONLY", "RENAMED", "RENAMED_MEMBERS", "hip", "hip_python_mod"]

HIP_PYTHON = True
hip_python_mod = hip

#: HIP names of :mod:`rocmath.hip.hip` whose ``cudaX`` spelling is not a CUDA name.
HIP_ONLY = frozenset({
    "hipInit", "hipDeviceGet", "hipDeviceGetName", "hipDeviceTotalMem", "hipDeviceComputeCapability",
    "hipExtMallocWithFlags", "hipHostMalloc", "hipHostFree", "hipMemcpyHtoD", "hipMemcpyDtoH", "hipMemcpyDtoD",
    "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync", "hipMemcpyDtoDAsync", "hipMemcpyWithStream", "hipMemsetD8",
    "hipStreamLegacy", "hipStreamPerThread", "hipDeviceMallocDefault", "hipDeviceMallocFinegrained",
    "hipMallocSignalMemory", "hipEventReleaseToDevice", "hipEventReleaseToSystem", "hipExtAnyOrderLaunch",
    "hipExtHostRegisterCoarseGrained", "hipStreamWaitValueGte", "hipStreamWaitValueEq", "hipStreamWaitValueAnd",
    "hipStreamWaitValueNor", "hipHostMallocDefault", "hipHostMallocPortable", "hipHostMallocMapped",
    "hipHostMallocWriteCombined", "hipHostMallocNumaUser", "hipHostMallocCoherent", "hipHostMallocNonCoherent",
    "hipDataType", "hipDeviceAttribute_t", "hipDeviceProp_t", "hipError_t", "hipMemcpyKind",
    # driver-API-only functions (their cu* names are in RENAMED), and types whose CUDA classes are not provided
    "hipMemAllocPitch", "hipMemsetD8Async", "hipMemsetD16", "hipMemsetD16Async", "hipMemsetD32", "hipMemsetD32Async",
    "hipMemPtrGetInfo", "hipMemGetAddressRange", "hipStreamGetDevice", "hipMemoryType", "hipMemoryAdvise",
    "hipLimit_t", "hipPointerAttribute_t", "hipStreamCallback_t",
})

#: HIP name -> the CUDA names (driver API, renamed runtime functions and constants) aliasing it.
RENAMED: dict[str, tuple[str, ...]] = {hip_name: tuple(cuda_names.split()) for hip_name, cuda_names in (
    line.split(":") for line in """
HIP_LAUNCH_PARAM_BUFFER_POINTER: CU_LAUNCH_PARAM_BUFFER_POINTER
HIP_LAUNCH_PARAM_BUFFER_SIZE: CU_LAUNCH_PARAM_BUFFER_SIZE
HIP_LAUNCH_PARAM_END: CU_LAUNCH_PARAM_END
hipIpcMemLazyEnablePeerAccess: CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
HIP_IPC_HANDLE_SIZE: CUDA_IPC_HANDLE_SIZE CU_IPC_HANDLE_SIZE
hipStreamDefault: CU_STREAM_DEFAULT
hipStreamNonBlocking: CU_STREAM_NON_BLOCKING
hipEventDefault: CU_EVENT_DEFAULT
hipEventBlockingSync: CU_EVENT_BLOCKING_SYNC
hipEventDisableTiming: CU_EVENT_DISABLE_TIMING
hipEventInterprocess: CU_EVENT_INTERPROCESS
hipHostMallocDefault: cudaHostAllocDefault
hipHostMallocPortable: CU_MEMHOSTALLOC_PORTABLE cudaHostAllocPortable
hipHostMallocMapped: CU_MEMHOSTALLOC_DEVICEMAP cudaHostAllocMapped
hipHostMallocWriteCombined: CU_MEMHOSTALLOC_WRITECOMBINED cudaHostAllocWriteCombined
hipMemAttachGlobal: CU_MEM_ATTACH_GLOBAL
hipMemAttachHost: CU_MEM_ATTACH_HOST
hipMemAttachSingle: CU_MEM_ATTACH_SINGLE
hipHostRegisterPortable: CU_MEMHOSTREGISTER_PORTABLE
hipHostRegisterMapped: CU_MEMHOSTREGISTER_DEVICEMAP
hipHostRegisterIoMemory: CU_MEMHOSTREGISTER_IOMEMORY
hipDeviceScheduleAuto: CU_CTX_SCHED_AUTO
hipDeviceScheduleSpin: CU_CTX_SCHED_SPIN
hipDeviceScheduleYield: CU_CTX_SCHED_YIELD
hipDeviceScheduleBlockingSync: CU_CTX_BLOCKING_SYNC CU_CTX_SCHED_BLOCKING_SYNC cudaDeviceBlockingSync
hipDeviceScheduleMask: CU_CTX_SCHED_MASK
hipDeviceMapHost: CU_CTX_MAP_HOST
hipDeviceLmemResizeToMax: CU_CTX_LMEM_RESIZE_TO_MAX
hipArrayLayered: CUDA_ARRAY3D_LAYERED
hipArraySurfaceLoadStore: CUDA_ARRAY3D_SURFACE_LDST
hipArrayCubemap: CUDA_ARRAY3D_CUBEMAP
hipArrayTextureGather: CUDA_ARRAY3D_TEXTURE_GATHER
hipOccupancyDefault: CU_OCCUPANCY_DEFAULT
hipCooperativeLaunchMultiDeviceNoPreSync: CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC
hipCooperativeLaunchMultiDeviceNoPostSync: CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC
hipCpuDeviceId: CU_DEVICE_CPU
hipInvalidDeviceId: CU_DEVICE_INVALID
hipStreamWaitValueGte: CU_STREAM_WAIT_VALUE_GEQ
hipStreamWaitValueEq: CU_STREAM_WAIT_VALUE_EQ
hipStreamWaitValueAnd: CU_STREAM_WAIT_VALUE_AND
hipStreamWaitValueNor: CU_STREAM_WAIT_VALUE_NOR
hipInit: cuInit
hipDriverGetVersion: cuDriverGetVersion
hipDeviceGet: cuDeviceGet
hipDeviceComputeCapability: cuDeviceComputeCapability
hipDeviceGetName: cuDeviceGetName
hipDeviceTotalMem: cuDeviceTotalMem cuDeviceTotalMem_v2
hipDeviceSynchronize: cudaThreadSynchronize
hipDeviceReset: cudaThreadExit
hipGetDeviceCount: cuDeviceGetCount
hipDeviceGetAttribute: cuDeviceGetAttribute
hipStreamCreateWithFlags: cuStreamCreate
hipStreamCreateWithPriority: cuStreamCreateWithPriority
hipStreamDestroy: cuStreamDestroy cuStreamDestroy_v2
hipStreamQuery: cuStreamQuery
hipStreamSynchronize: cuStreamSynchronize
hipStreamWaitEvent: cuStreamWaitEvent
hipStreamGetFlags: cuStreamGetFlags
hipStreamGetPriority: cuStreamGetPriority
hipEventCreateWithFlags: cuEventCreate
hipEventRecord: cuEventRecord
hipEventDestroy: cuEventDestroy cuEventDestroy_v2
hipEventSynchronize: cuEventSynchronize
hipEventElapsedTime: cuEventElapsedTime
hipEventQuery: cuEventQuery
hipMalloc: cuMemAlloc cuMemAlloc_v2
hipHostMalloc: cudaMallocHost
hipMallocManaged: cuMemAllocManaged
hipMallocAsync: cuMemAllocAsync
hipFreeAsync: cuMemFreeAsync
hipHostAlloc: cuMemHostAlloc
hipHostGetDevicePointer: cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
hipFree: cuMemFree cuMemFree_v2
hipHostFree: cuMemFreeHost cudaFreeHost
hipMemcpyHtoD: cuMemcpyHtoD cuMemcpyHtoD_v2
hipMemcpyDtoH: cuMemcpyDtoH cuMemcpyDtoH_v2
hipMemcpyDtoD: cuMemcpyDtoD cuMemcpyDtoD_v2
hipMemcpyHtoDAsync: cuMemcpyHtoDAsync cuMemcpyHtoDAsync_v2
hipMemcpyDtoHAsync: cuMemcpyDtoHAsync cuMemcpyDtoHAsync_v2
hipMemcpyDtoDAsync: cuMemcpyDtoDAsync cuMemcpyDtoDAsync_v2
hipMemsetD8: cuMemsetD8 cuMemsetD8_v2
hipMemGetInfo: cuMemGetInfo cuMemGetInfo_v2
hipLaunchHostFunc: cuLaunchHostFunc
hipMemAllocPitch: cuMemAllocPitch cuMemAllocPitch_v2
hipMemsetD8Async: cuMemsetD8Async
hipMemsetD16: cuMemsetD16 cuMemsetD16_v2
hipMemsetD16Async: cuMemsetD16Async
hipMemsetD32: cuMemsetD32 cuMemsetD32_v2
hipMemsetD32Async: cuMemsetD32Async
hipDeviceCanAccessPeer: cuDeviceCanAccessPeer
hipMemGetAddressRange: cuMemGetAddressRange cuMemGetAddressRange_v2
hipHostRegister: cuMemHostRegister cuMemHostRegister_v2
hipHostUnregister: cuMemHostUnregister
hipHostGetFlags: cuMemHostGetFlags
hipStreamAddCallback: cuStreamAddCallback
hipDeviceGetStreamPriorityRange: cuCtxGetStreamPriorityRange
hipMemPrefetchAsync: cuMemPrefetchAsync
hipMemAdvise: cuMemAdvise
hipDeviceGetLimit: cuCtxGetLimit
hipDeviceSetLimit: cuCtxSetLimit
""".strip().splitlines())}

#: Enum members whose CUDA spellings the rules below do not produce (hipify's mapping).
RENAMED_MEMBERS: dict[str, tuple[str, ...]] = {hip_name: tuple(cuda_names.split()) for hip_name, cuda_names in (
    line.split(":") for line in """
hipErrorOutOfMemory: cudaErrorMemoryAllocation
hipErrorNotInitialized: cudaErrorInitializationError
hipErrorDeinitialized: cudaErrorCudartUnloading
hipErrorInvalidImage: cudaErrorInvalidKernelImage
hipErrorInvalidContext: cudaErrorDeviceUninitialized
hipErrorMapFailed: cudaErrorMapBufferObjectFailed
hipErrorUnmapFailed: cudaErrorUnmapBufferObjectFailed
hipErrorNoBinaryForGpu: cudaErrorNoKernelImageForDevice
hipErrorECCNotCorrectable: CUDA_ERROR_ECC_UNCORRECTABLE cudaErrorECCUncorrectable
hipErrorContextAlreadyInUse: cudaErrorDeviceAlreadyInUse
hipErrorInvalidKernelFile: CUDA_ERROR_INVALID_PTX cudaErrorInvalidPtx
hipErrorInvalidHandle: cudaErrorInvalidResourceHandle
hipErrorNotFound: cudaErrorSymbolNotFound
hipErrorLaunchTimeOut: CUDA_ERROR_LAUNCH_TIMEOUT cudaErrorLaunchTimeout
hipErrorSetOnActiveProcess: CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE
hipErrorLaunchFailure: CUDA_ERROR_LAUNCH_FAILED
hipDeviceAttributeAsyncEngineCount: CU_DEVICE_ATTRIBUTE_GPU_OVERLAP cudaDevAttrGpuOverlap
hipDeviceAttributeIsMultiGpuBoard: CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD
hipDeviceAttributeMaxThreadsPerMultiProcessor: CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
hipDeviceAttributeMemoryBusWidth: CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH cudaDevAttrGlobalMemoryBusWidth
hipDeviceAttributeMultiprocessorCount: cudaDevAttrMultiProcessorCount
hipDeviceAttributePciDomainID: cudaDevAttrPciDomainId
hipDeviceAttributeMaxRegistersPerBlock: CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK
hipDeviceAttributeMaxSharedMemoryPerBlock: CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK
hipDeviceAttributeSharedMemPerBlockOptin: CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
 cudaDevAttrMaxSharedMemoryPerBlockOptin
""".strip().replace("\n ", " ").splitlines())}


def _snake(camel: str) -> str:
    """``InvalidValue`` -> ``INVALID_VALUE`` (digits stay with their word: ``Texture2D`` -> ``TEXTURE2D``)."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", camel).upper()


# Each HIP enum -> its CUDA classes and the rules giving a member's CUDA spellings.
_ENUM_RULES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str, bool], ...]]] = {
    "hipError_t": (("cudaError_t", "cudaError", "cudaError_enum", "CUresult"),
                   (("hipSuccess", "cudaSuccess", False), ("hipSuccess", "CUDA_SUCCESS", False),
                    ("hipError", "cudaError", False), ("hipError", "CUDA_ERROR_", True))),
    "hipMemcpyKind": (("cudaMemcpyKind",), (("hipMemcpy", "cudaMemcpy", False),)),
    "hipDeviceAttribute_t": (("cudaDeviceAttr", "CUdevice_attribute", "CUdevice_attribute_enum"),
                             (("hipDeviceAttribute", "cudaDevAttr", False),
                              ("hipDeviceAttribute", "CU_DEVICE_ATTRIBUTE_", True))),
    "hipDataType": (("cudaDataType", "cudaDataType_t", "cublasDataType_t"), (("HIP_", "CUDA_", False),)),
}


def _cuda_spellings(hip_name: str, rules: tuple[tuple[str, str, bool], ...]) -> list[str]:
    names = [cuda + (_snake(hip_name[len(prefix):]) if snake else hip_name[len(prefix):])
             for prefix, cuda, snake in rules if hip_name.startswith(prefix)]
    return [*names, *RENAMED_MEMBERS.get(hip_name, ())]


def _hallucinate(name: str) -> bool:
    value = os.environ.get(f"HIP_PYTHON_{name}_HALLUCINATE", "false").lower()
    if value not in ("true", "1", "t", "y", "yes", "false", "0", "f", "n", "no"):
        raise RuntimeError(f"HIP_PYTHON_{name}_HALLUCINATE must be a yes/no value, got {value!r}")
    return value in ("true", "1", "t", "y", "yes")


class _Hallucinated:
    """A CUDA enum constant without a HIP counterpart: a value no member has, passing ``isinstance``."""

    def __init__(self, cls: type, name: str, value: int):
        self._cls, self.name, self.value = cls, name, value

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(x, cudaError_t) holds, as in hip-python
        return self._cls

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hallucinated) and other.name == self.name and other._cls is self._cls

    def __hash__(self) -> int:
        return hash((self._cls.__name__, self.name))

    def __repr__(self) -> str:
        return f"<{self._cls.__name__}.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"{self._cls.__name__}.{self.name}"


class _CudaEnumMeta(type(hip.hipError_t)):  # type: ignore[misc]
    """The CUDA enums' metaclass: unknown constants are hallucinated when the enum's switch is on."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_") or not globals().get(f"HIP_PYTHON_{cls.__name__}_HALLUCINATE", False):
            raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")
        made = cls.__dict__["_hallucinated"]
        if name not in made:
            used = {int(v) for v in cls._value2member_map_} | {h.value for h in made.values()}
            value = min(used) + 1
            while value in used:
                value += 1
            made[name] = _Hallucinated(cls, name, value)
        return made[name]


def _cuda_enum(cls_name: str, hip_enum: type[enum.IntEnum], rules: tuple[tuple[str, str, bool], ...]) -> type:
    """A CUDA enum deriving from ``hip_enum``'s base: the HIP members, then their CUDA spellings."""
    members = [(n, int(m)) for n, m in hip_enum.__members__.items()]
    taken = {n for n, _ in members}
    for hip_name, value in list(members):
        for cuda_name in _cuda_spellings(hip_name, rules):
            if cuda_name not in taken:
                taken.add(cuda_name)
                members.append((cuda_name, value))

    def body(ns: Any) -> None:
        for n, v in members:
            ns[n] = v

    cls = types.new_class(cls_name, (hip_enum.__mro__[1],), {"metaclass": _CudaEnumMeta}, body)
    cls.__module__ = __name__
    cls.__doc__ = f"``{cls_name}``: :class:`~rocmath.hip.hip.{hip_enum.__name__}` with CUDA's names."
    type.__setattr__(cls, "_hallucinated", {})
    return cls


def _build() -> dict[str, Any]:
    names: dict[str, Any] = {}
    for hip_name, obj in vars(hip).items():
        if hip_name.startswith("hip") and hip_name[3:4].isupper() and hip_name not in HIP_ONLY:
            names["cuda" + hip_name[3:]] = obj
    for hip_name, cuda_names in RENAMED.items():
        for cuda_name in cuda_names:
            names[cuda_name] = getattr(hip, hip_name)
    for hip_enum_name, (cuda_classes, rules) in _ENUM_RULES.items():
        for cls_name in cuda_classes:
            names[cls_name] = _cuda_enum(cls_name, getattr(hip, hip_enum_name), rules)
            names[f"HIP_PYTHON_{cls_name}_HALLUCINATE"] = _hallucinate(cls_name)
    # Handle types and structs: the HIP classes, and CUDA subclasses where CUDA names the struct.
    names.update(cudaStream_t=hip.ihipStream_t, CUstream=hip.ihipStream_t, cudaEvent_t=hip.ihipEvent_t,
                 CUevent=hip.ihipEvent_t, dim3=hip.dim3)
    for cls_name, base in (("CUstream_st", hip.ihipStream_t), ("CUevent_st", hip.ihipEvent_t),
                           ("cudaDeviceProp", hip.hipDeviceProp_t)):
        names[cls_name] = type(cls_name, (base,), {"__module__": __name__,
                                                   "__doc__": f"``{cls_name}``: {base.__name__}."})
    return names


_NAMES = _build()
globals().update(_NAMES)
__all__ += sorted(_NAMES)
