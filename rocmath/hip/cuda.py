"""``cuda.cuda`` / ``cuda.cudart``: hip-python-as-cuda's CUDA names for :mod:`rocmath.hip.hip`.

hip-python's ``hip-python-as-cuda`` package lets CUDA Python programs run on HIP: its
``cuda.cuda`` and ``cuda.cudart`` modules (identical in content) make every CUDA name an
alias of the HIP object, so ``cudart.cudaMalloc is hip.hipMalloc`` and calls return
``hipError_t`` statuses.  This module is built the same way, from :mod:`rocmath.hip.hip`, and
defines the names hip-python-as-cuda 6.2 defines whose HIP object rocmath has, and no others:

* functions and ``#define`` constants: ``cudaX`` aliases ``hipX`` by rule, except the HIP-only
  names in :data:`HIP_ONLY` and the per-thread-stream ``_spt`` variants (hip-python-as-cuda has
  none); the driver API's and renamed runtime names come from one table, :data:`RENAMED`
  (hipify's mapping, as in hip-python 6.2);
* structs and handles: a CUDA name of a HIP struct or handle class (``cudaPitchedPtr``,
  ``CUmemPoolProps``, ``CUstream_st``...) is a subclass of it, as hip-python-as-cuda's are, so
  constructing one gives an object HIP's functions accept; a CUDA name of a HIP typedef
  (``CUuuid``, ``cudaStream_t``, ``CUmemoryPool``...) is the class itself;
* enums: each CUDA enum class (``cudaError_t``, ``CUresult``, ``cudaMemPoolAttr``,
  ``CUpointer_attribute``...) derives from the HIP enum's base (``_hipError_t__Base``), so
  HIP's enum-typed parameters accept its members; its members are the HIP ones (first, so
  ``.name`` is the HIP name) plus the CUDA spellings: ``cudaErrorX``/``CUDA_ERROR_X`` by rule
  from ``hipErrorX`` (and so on, per enum), all of a member's spellings from
  :data:`RENAMED_MEMBERS` where the rules do not give them, none for :data:`HIP_ONLY_MEMBERS`;
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

__all__ = ["HIP_PYTHON", "hip", "hip_python_mod"]

HIP_PYTHON = True
hip_python_mod = hip

#: HIP names of :mod:`rocmath.hip.hip` whose ``cudaX`` spelling is not a CUDA name (besides the ``_spt`` variants
#: and the enums of ``_ENUM_RULES``, which the rule leaves out).
HIP_ONLY = frozenset({
    "hipInit", "hipDeviceGet", "hipDeviceGetName", "hipDeviceTotalMem", "hipDeviceComputeCapability",
    "hipExtMallocWithFlags", "hipHostMalloc", "hipHostFree", "hipMemcpyHtoD", "hipMemcpyDtoH", "hipMemcpyDtoD",
    "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync", "hipMemcpyDtoDAsync", "hipMemcpyWithStream", "hipMemsetD8",
    "hipStreamLegacy", "hipStreamPerThread", "hipDeviceMallocDefault", "hipDeviceMallocFinegrained",
    "hipMallocSignalMemory", "hipEventReleaseToDevice", "hipEventReleaseToSystem", "hipExtAnyOrderLaunch",
    "hipExtHostRegisterCoarseGrained", "hipStreamWaitValueGte", "hipStreamWaitValueEq", "hipStreamWaitValueAnd",
    "hipStreamWaitValueNor", "hipHostMallocDefault", "hipHostMallocPortable", "hipHostMallocMapped",
    "hipHostMallocWriteCombined", "hipHostMallocNumaUser", "hipHostMallocCoherent", "hipHostMallocNonCoherent",
    "hipExtGetLastError", "hipExtGetLinkTypeAndHopCount", "hipExtStreamCreateWithCUMask", "hipExtStreamGetCUMask",
    "hipGetStreamDeviceId", "hipSetValidDevices", "hipMemRangeCoherencyMode",
    # driver-API-only functions and handles (their cu*/CU* names are in RENAMED)
    "hipMemAllocPitch", "hipMemsetD8Async", "hipMemsetD16", "hipMemsetD16Async", "hipMemsetD32", "hipMemsetD32Async",
    "hipMemPtrGetInfo", "hipMemGetAddressRange", "hipStreamGetDevice", "hipMemAllocHost", "hipMemcpyParam2D",
    "hipMemcpyParam2DAsync", "hipDrvMemcpy2DUnaligned", "hipDrvMemcpy3D", "hipDrvMemcpy3DAsync",
    "hipDrvGetErrorName", "hipDrvGetErrorString", "hipDrvPointerGetAttributes", "hipPointerGetAttribute",
    "hipPointerSetAttribute", "hipStreamWaitValue32", "hipStreamWaitValue64", "hipStreamWriteValue32",
    "hipStreamWriteValue64", "hipDeviceGetUuid", "hipCtx_t", "hipCtxCreate", "hipCtxDestroy", "hipCtxPushCurrent",
    "hipCtxPopCurrent", "hipCtxSetCurrent", "hipCtxGetCurrent", "hipCtxGetDevice", "hipCtxGetApiVersion",
    "hipCtxGetCacheConfig", "hipCtxSetCacheConfig", "hipCtxGetSharedMemConfig", "hipCtxSetSharedMemConfig",
    "hipCtxSynchronize", "hipCtxGetFlags", "hipCtxEnablePeerAccess", "hipCtxDisablePeerAccess",
    "hipDevicePrimaryCtxGetState", "hipDevicePrimaryCtxRelease", "hipDevicePrimaryCtxRetain",
    "hipDevicePrimaryCtxReset", "hipDevicePrimaryCtxSetFlags",
    # structs whose CUDA names are others (in RENAMED)
    "hipDeviceProp_t", "hipPointerAttribute_t", "hipUUID", "hipUUID_t",
    # graphs and stream capture
    "hipDrvGraphAddMemcpyNode", "hipDrvGraphAddMemsetNode", "hipStreamGetCaptureInfo_v2", "hipGraphNode",
    "hipGraphExec", "hipUserObject", "hipGraphNodeParams_union_0", "hipGraphKernelNodePortDefault",
    "hipGraphKernelNodePortLaunchCompletion", "hipGraphKernelNodePortProgrammatic", "hipKernelNodeAttrID",
    "hipKernelNodeAttrValue", "hipKernelNodeAttributeAccessPolicyWindow", "hipKernelNodeAttributeCooperative",
    "hipKernelNodeAttributePriority",
    # arrays: driver-API functions (their cu* names are in RENAMED) and copies hip-python-as-cuda has no name for
    "hipArrayCreate", "hipArray3DCreate", "hipArrayDestroy", "hipArrayGetDescriptor", "hipArray3DGetDescriptor",
    "hipMemcpyHtoA", "hipMemcpyAtoH", "hipMemcpyHtoAAsync", "hipMemcpyAtoHAsync", "hipMemcpyAtoD", "hipMemcpyDtoA",
    "hipMemcpyAtoA", "hipMemcpy2DArrayToArray",
})

#: HIP name -> the CUDA names (driver API, renamed runtime functions and constants, struct and handle types)
#: aliasing it (subclassing it, for a struct or handle class).
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
hipDeviceGetUuid: cuDeviceGetUuid cuDeviceGetUuid_v2
hipDeviceGetP2PAttribute: cuDeviceGetP2PAttribute
hipDeviceGetPCIBusId: cuDeviceGetPCIBusId
hipDeviceGetByPCIBusId: cuDeviceGetByPCIBusId
hipDeviceSynchronize: cudaThreadSynchronize
hipDeviceReset: cudaThreadExit
hipGetDeviceCount: cuDeviceGetCount
hipDeviceGetAttribute: cuDeviceGetAttribute
hipDeviceGetCacheConfig: cudaThreadGetCacheConfig
hipDeviceSetCacheConfig: cudaThreadSetCacheConfig
hipDeviceGetLimit: cuCtxGetLimit
hipDeviceSetLimit: cuCtxSetLimit
hipDeviceGetStreamPriorityRange: cuCtxGetStreamPriorityRange
hipDeviceGetDefaultMemPool: cuDeviceGetDefaultMemPool
hipDeviceGetMemPool: cuDeviceGetMemPool
hipDeviceSetMemPool: cuDeviceSetMemPool
hipDeviceCanAccessPeer: cuDeviceCanAccessPeer
hipDrvGetErrorName: cuGetErrorName
hipDrvGetErrorString: cuGetErrorString
hipProfilerStart: cuProfilerStart
hipProfilerStop: cuProfilerStop
hipCtxCreate: cuCtxCreate cuCtxCreate_v2
hipCtxDestroy: cuCtxDestroy cuCtxDestroy_v2
hipCtxPushCurrent: cuCtxPushCurrent cuCtxPushCurrent_v2
hipCtxPopCurrent: cuCtxPopCurrent cuCtxPopCurrent_v2
hipCtxSetCurrent: cuCtxSetCurrent
hipCtxGetCurrent: cuCtxGetCurrent
hipCtxGetDevice: cuCtxGetDevice
hipCtxGetApiVersion: cuCtxGetApiVersion
hipCtxGetCacheConfig: cuCtxGetCacheConfig
hipCtxSetCacheConfig: cuCtxSetCacheConfig
hipCtxGetSharedMemConfig: cuCtxGetSharedMemConfig
hipCtxSetSharedMemConfig: cuCtxSetSharedMemConfig
hipCtxSynchronize: cuCtxSynchronize
hipCtxGetFlags: cuCtxGetFlags
hipCtxEnablePeerAccess: cuCtxEnablePeerAccess
hipCtxDisablePeerAccess: cuCtxDisablePeerAccess
hipDevicePrimaryCtxGetState: cuDevicePrimaryCtxGetState
hipDevicePrimaryCtxRelease: cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
hipDevicePrimaryCtxRetain: cuDevicePrimaryCtxRetain
hipDevicePrimaryCtxReset: cuDevicePrimaryCtxReset cuDevicePrimaryCtxReset_v2
hipDevicePrimaryCtxSetFlags: cuDevicePrimaryCtxSetFlags cuDevicePrimaryCtxSetFlags_v2
hipStreamCreateWithFlags: cuStreamCreate
hipStreamCreateWithPriority: cuStreamCreateWithPriority
hipStreamDestroy: cuStreamDestroy cuStreamDestroy_v2
hipStreamQuery: cuStreamQuery
hipStreamSynchronize: cuStreamSynchronize
hipStreamWaitEvent: cuStreamWaitEvent
hipStreamGetFlags: cuStreamGetFlags
hipStreamGetPriority: cuStreamGetPriority
hipStreamAddCallback: cuStreamAddCallback
hipStreamAttachMemAsync: cuStreamAttachMemAsync
hipStreamWaitValue32: cuStreamWaitValue32 cuStreamWaitValue32_v2
hipStreamWaitValue64: cuStreamWaitValue64 cuStreamWaitValue64_v2
hipStreamWriteValue32: cuStreamWriteValue32 cuStreamWriteValue32_v2
hipStreamWriteValue64: cuStreamWriteValue64 cuStreamWriteValue64_v2
hipLaunchHostFunc: cuLaunchHostFunc
hipEventCreateWithFlags: cuEventCreate
hipEventRecord: cuEventRecord
hipEventDestroy: cuEventDestroy cuEventDestroy_v2
hipEventSynchronize: cuEventSynchronize
hipEventElapsedTime: cuEventElapsedTime
hipEventQuery: cuEventQuery
hipMalloc: cuMemAlloc cuMemAlloc_v2
hipHostMalloc: cudaMallocHost
hipMemAllocHost: cuMemAllocHost cuMemAllocHost_v2
hipMallocManaged: cuMemAllocManaged
hipMallocAsync: cuMemAllocAsync
hipFreeAsync: cuMemFreeAsync
hipMallocFromPoolAsync: cuMemAllocFromPoolAsync
hipHostAlloc: cuMemHostAlloc
hipHostGetDevicePointer: cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
hipFree: cuMemFree cuMemFree_v2
hipHostFree: cuMemFreeHost cudaFreeHost
hipHostRegister: cuMemHostRegister cuMemHostRegister_v2
hipHostUnregister: cuMemHostUnregister
hipHostGetFlags: cuMemHostGetFlags
hipMemAllocPitch: cuMemAllocPitch cuMemAllocPitch_v2
hipMemGetInfo: cuMemGetInfo cuMemGetInfo_v2
hipMemGetAddressRange: cuMemGetAddressRange cuMemGetAddressRange_v2
hipMemPrefetchAsync: cuMemPrefetchAsync
hipMemAdvise: cuMemAdvise
hipMemRangeGetAttribute: cuMemRangeGetAttribute
hipMemRangeGetAttributes: cuMemRangeGetAttributes
hipMemPoolCreate: cuMemPoolCreate
hipMemPoolDestroy: cuMemPoolDestroy
hipMemPoolTrimTo: cuMemPoolTrimTo
hipMemPoolSetAttribute: cuMemPoolSetAttribute
hipMemPoolGetAttribute: cuMemPoolGetAttribute
hipMemPoolSetAccess: cuMemPoolSetAccess
hipMemPoolGetAccess: cuMemPoolGetAccess
hipMemPoolExportToShareableHandle: cuMemPoolExportToShareableHandle
hipMemPoolImportFromShareableHandle: cuMemPoolImportFromShareableHandle
hipMemcpyHtoD: cuMemcpyHtoD cuMemcpyHtoD_v2
hipMemcpyDtoH: cuMemcpyDtoH cuMemcpyDtoH_v2
hipMemcpyDtoD: cuMemcpyDtoD cuMemcpyDtoD_v2
hipMemcpyHtoDAsync: cuMemcpyHtoDAsync cuMemcpyHtoDAsync_v2
hipMemcpyDtoHAsync: cuMemcpyDtoHAsync cuMemcpyDtoHAsync_v2
hipMemcpyDtoDAsync: cuMemcpyDtoDAsync cuMemcpyDtoDAsync_v2
hipMemcpyParam2D: cuMemcpy2D cuMemcpy2D_v2
hipMemcpyParam2DAsync: cuMemcpy2DAsync cuMemcpy2DAsync_v2
hipDrvMemcpy2DUnaligned: cuMemcpy2DUnaligned cuMemcpy2DUnaligned_v2
hipDrvMemcpy3D: cuMemcpy3D cuMemcpy3D_v2
hipDrvMemcpy3DAsync: cuMemcpy3DAsync cuMemcpy3DAsync_v2
hipMemsetD8: cuMemsetD8 cuMemsetD8_v2
hipMemsetD8Async: cuMemsetD8Async
hipMemsetD16: cuMemsetD16 cuMemsetD16_v2
hipMemsetD16Async: cuMemsetD16Async
hipMemsetD32: cuMemsetD32 cuMemsetD32_v2
hipMemsetD32Async: cuMemsetD32Async
hipPointerGetAttribute: cuPointerGetAttribute
hipPointerSetAttribute: cuPointerSetAttribute
hipDrvPointerGetAttributes: cuPointerGetAttributes
hipIpcGetMemHandle: cuIpcGetMemHandle
hipIpcOpenMemHandle: cuIpcOpenMemHandle
hipIpcCloseMemHandle: cuIpcCloseMemHandle
ihipStream_t: CUstream_st
ihipEvent_t: CUevent_st
hipCtx_t: CUcontext
ihipCtx_t: CUctx_st
hipMemPool_t: CUmemoryPool
ihipMemPoolHandle_t: CUmemPoolHandle_st
hipIpcMemHandle_t: CUipcMemHandle CUipcMemHandle_v1
hipIpcMemHandle_st: CUipcMemHandle_st
hipIpcEventHandle_t: CUipcEventHandle CUipcEventHandle_v1
hipIpcEventHandle_st: CUipcEventHandle_st
hipUUID: CUuuid cudaUUID_t
hipUUID_t: CUuuid_st
hipDeviceProp_t: cudaDeviceProp
hipPointerAttribute_t: cudaPointerAttributes
hipStreamCallback_t: CUstreamCallback
hip_Memcpy2D: CUDA_MEMCPY2D CUDA_MEMCPY2D_st CUDA_MEMCPY2D_v1 CUDA_MEMCPY2D_v1_st CUDA_MEMCPY2D_v2
HIP_MEMCPY3D: CUDA_MEMCPY3D CUDA_MEMCPY3D_st CUDA_MEMCPY3D_v1 CUDA_MEMCPY3D_v1_st CUDA_MEMCPY3D_v2
hipMemLocation: CUmemLocation CUmemLocation_st CUmemLocation_v1
hipMemAccessDesc: CUmemAccessDesc CUmemAccessDesc_st CUmemAccessDesc_v1
hipMemPoolProps: CUmemPoolProps CUmemPoolProps_st CUmemPoolProps_v1
hipMemPoolPtrExportData: CUmemPoolPtrExportData CUmemPoolPtrExportData_st CUmemPoolPtrExportData_v1
hipGraph_t: CUgraph
hipGraphNode_t: CUgraphNode
hipGraphExec_t: CUgraphExec
hipUserObject_t: CUuserObject
hipStreamBeginCapture: cuStreamBeginCapture cuStreamBeginCapture_v2
hipStreamBeginCaptureToGraph: cuStreamBeginCaptureToGraph
hipStreamEndCapture: cuStreamEndCapture
hipStreamGetCaptureInfo: cuStreamGetCaptureInfo
hipStreamGetCaptureInfo_v2: cuStreamGetCaptureInfo_v2
hipStreamIsCapturing: cuStreamIsCapturing
hipStreamUpdateCaptureDependencies: cuStreamUpdateCaptureDependencies
hipThreadExchangeStreamCaptureMode: cuThreadExchangeStreamCaptureMode
hipGraphCreate: cuGraphCreate
hipGraphDestroy: cuGraphDestroy
hipGraphAddDependencies: cuGraphAddDependencies
hipGraphRemoveDependencies: cuGraphRemoveDependencies
hipGraphGetEdges: cuGraphGetEdges
hipGraphGetNodes: cuGraphGetNodes
hipGraphGetRootNodes: cuGraphGetRootNodes
hipGraphNodeGetDependencies: cuGraphNodeGetDependencies
hipGraphNodeGetDependentNodes: cuGraphNodeGetDependentNodes
hipGraphNodeGetType: cuGraphNodeGetType
hipGraphDestroyNode: cuGraphDestroyNode
hipGraphClone: cuGraphClone
hipGraphNodeFindInClone: cuGraphNodeFindInClone
hipGraphInstantiate: cuGraphInstantiate cuGraphInstantiate_v2
hipGraphInstantiateWithFlags: cuGraphInstantiateWithFlags
hipGraphInstantiateWithParams: cuGraphInstantiateWithParams
hipGraphLaunch: cuGraphLaunch
hipGraphUpload: cuGraphUpload
hipGraphAddNode: cuGraphAddNode
hipGraphExecDestroy: cuGraphExecDestroy
hipGraphExecUpdate: cuGraphExecUpdate
hipGraphAddKernelNode: cuGraphAddKernelNode
hipGraphKernelNodeGetParams: cuGraphKernelNodeGetParams
hipGraphKernelNodeSetParams: cuGraphKernelNodeSetParams
hipGraphExecKernelNodeSetParams: cuGraphExecKernelNodeSetParams
hipDrvGraphAddMemcpyNode: cuGraphAddMemcpyNode
hipGraphKernelNodeSetAttribute: cuGraphKernelNodeSetAttribute
hipGraphKernelNodeGetAttribute: cuGraphKernelNodeGetAttribute
hipGraphMemsetNodeGetParams: cuGraphMemsetNodeGetParams
hipGraphMemsetNodeSetParams: cuGraphMemsetNodeSetParams
hipGraphAddHostNode: cuGraphAddHostNode
hipGraphHostNodeGetParams: cuGraphHostNodeGetParams
hipGraphHostNodeSetParams: cuGraphHostNodeSetParams
hipGraphExecHostNodeSetParams: cuGraphExecHostNodeSetParams
hipGraphAddChildGraphNode: cuGraphAddChildGraphNode
hipGraphChildGraphNodeGetGraph: cuGraphChildGraphNodeGetGraph
hipGraphExecChildGraphNodeSetParams: cuGraphExecChildGraphNodeSetParams
hipGraphAddEmptyNode: cuGraphAddEmptyNode
hipGraphAddEventRecordNode: cuGraphAddEventRecordNode
hipGraphEventRecordNodeGetEvent: cuGraphEventRecordNodeGetEvent
hipGraphEventRecordNodeSetEvent: cuGraphEventRecordNodeSetEvent
hipGraphExecEventRecordNodeSetEvent: cuGraphExecEventRecordNodeSetEvent
hipGraphAddEventWaitNode: cuGraphAddEventWaitNode
hipGraphEventWaitNodeGetEvent: cuGraphEventWaitNodeGetEvent
hipGraphEventWaitNodeSetEvent: cuGraphEventWaitNodeSetEvent
hipGraphExecEventWaitNodeSetEvent: cuGraphExecEventWaitNodeSetEvent
hipGraphAddMemAllocNode: cuGraphAddMemAllocNode
hipGraphMemAllocNodeGetParams: cuGraphMemAllocNodeGetParams
hipGraphMemFreeNodeGetParams: cuGraphMemFreeNodeGetParams
hipDeviceGetGraphMemAttribute: cuDeviceGetGraphMemAttribute
hipDeviceSetGraphMemAttribute: cuDeviceSetGraphMemAttribute
hipDeviceGraphMemTrim: cuDeviceGraphMemTrim
hipUserObjectCreate: cuUserObjectCreate
hipUserObjectRelease: cuUserObjectRelease
hipUserObjectRetain: cuUserObjectRetain
hipGraphRetainUserObject: cuGraphRetainUserObject
hipGraphReleaseUserObject: cuGraphReleaseUserObject
hipGraphDebugDotPrint: cuGraphDebugDotPrint
hipGraphKernelNodeCopyAttributes: cuGraphKernelNodeCopyAttributes
hipGraphNodeSetEnabled: cuGraphNodeSetEnabled
hipGraphNodeGetEnabled: cuGraphNodeGetEnabled
hipGraphAddExternalSemaphoresWaitNode: cuGraphAddExternalSemaphoresWaitNode
hipGraphAddExternalSemaphoresSignalNode: cuGraphAddExternalSemaphoresSignalNode
hipGraphExternalSemaphoresSignalNodeSetParams: cuGraphExternalSemaphoresSignalNodeSetParams
hipGraphExternalSemaphoresWaitNodeSetParams: cuGraphExternalSemaphoresWaitNodeSetParams
hipGraphExternalSemaphoresSignalNodeGetParams: cuGraphExternalSemaphoresSignalNodeGetParams
hipGraphExternalSemaphoresWaitNodeGetParams: cuGraphExternalSemaphoresWaitNodeGetParams
hipGraphExecExternalSemaphoresSignalNodeSetParams: cuGraphExecExternalSemaphoresSignalNodeSetParams
hipGraphExecExternalSemaphoresWaitNodeSetParams: cuGraphExecExternalSemaphoresWaitNodeSetParams
hipDrvGraphAddMemsetNode: cuGraphAddMemsetNode
ihipGraph: CUgraph_st
hipGraphNode: CUgraphNode_st
hipGraphExec: CUgraphExec_st
hipUserObject: CUuserObject_st
hipHostFn_t: CUhostFn
hipHostNodeParams: CUDA_HOST_NODE_PARAMS CUDA_HOST_NODE_PARAMS_st CUDA_HOST_NODE_PARAMS_v1
hipKernelNodeParams: CUDA_KERNEL_NODE_PARAMS CUDA_KERNEL_NODE_PARAMS_st CUDA_KERNEL_NODE_PARAMS_v1
hipMemAllocNodeParams: CUDA_MEM_ALLOC_NODE_PARAMS CUDA_MEM_ALLOC_NODE_PARAMS_st CUDA_MEM_ALLOC_NODE_PARAMS_v1
 CUDA_MEM_ALLOC_NODE_PARAMS_v1_st
hipAccessPolicyWindow: CUaccessPolicyWindow CUaccessPolicyWindow_st
hipLaunchAttributeValue: CUlaunchAttributeValue CUlaunchAttributeValue_union
HIP_MEMSET_NODE_PARAMS: CUDA_MEMSET_NODE_PARAMS CUDA_MEMSET_NODE_PARAMS_st CUDA_MEMSET_NODE_PARAMS_v1
hipGraphInstantiateParams: CUDA_GRAPH_INSTANTIATE_PARAMS CUDA_GRAPH_INSTANTIATE_PARAMS_st cudaGraphInstantiateParams_st
hipExternalSemaphoreSignalNodeParams: CUDA_EXT_SEM_SIGNAL_NODE_PARAMS CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_st
 CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2 CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2_st
 cudaExternalSemaphoreSignalNodeParamsV2
hipExternalSemaphoreWaitNodeParams: CUDA_EXT_SEM_WAIT_NODE_PARAMS CUDA_EXT_SEM_WAIT_NODE_PARAMS_st
 CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2 CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2_st
 cudaExternalSemaphoreWaitNodeParamsV2
hipMemcpyNodeParams: CUDA_MEMCPY_NODE_PARAMS CUDA_MEMCPY_NODE_PARAMS_st
hipChildGraphNodeParams: CUDA_CHILD_GRAPH_NODE_PARAMS CUDA_CHILD_GRAPH_NODE_PARAMS_st
hipEventWaitNodeParams: CUDA_EVENT_WAIT_NODE_PARAMS CUDA_EVENT_WAIT_NODE_PARAMS_st
hipEventRecordNodeParams: CUDA_EVENT_RECORD_NODE_PARAMS CUDA_EVENT_RECORD_NODE_PARAMS_st
hipMemFreeNodeParams: CUDA_MEM_FREE_NODE_PARAMS CUDA_MEM_FREE_NODE_PARAMS_st
hipGraphNodeParams: CUgraphNodeParams CUgraphNodeParams_st
hipGraphEdgeData: CUgraphEdgeData CUgraphEdgeData_st cudaGraphEdgeData_st
hipArrayCreate: cuArrayCreate cuArrayCreate_v2
hipArray3DCreate: cuArray3DCreate cuArray3DCreate_v2
hipArrayDestroy: cuArrayDestroy
hipArrayGetDescriptor: cuArrayGetDescriptor cuArrayGetDescriptor_v2
hipArray3DGetDescriptor: cuArray3DGetDescriptor cuArray3DGetDescriptor_v2
hipMemcpyHtoA: cuMemcpyHtoA cuMemcpyHtoA_v2
hipMemcpyAtoH: cuMemcpyAtoH cuMemcpyAtoH_v2
hipArray: CUarray_st
hipArray_t: CUarray
HIP_ARRAY_DESCRIPTOR: CUDA_ARRAY_DESCRIPTOR CUDA_ARRAY_DESCRIPTOR_st CUDA_ARRAY_DESCRIPTOR_v1
 CUDA_ARRAY_DESCRIPTOR_v1_st CUDA_ARRAY_DESCRIPTOR_v2
HIP_ARRAY3D_DESCRIPTOR: CUDA_ARRAY3D_DESCRIPTOR CUDA_ARRAY3D_DESCRIPTOR_st CUDA_ARRAY3D_DESCRIPTOR_v2
""".strip().replace("\n ", " ").splitlines())}

#: Enum members whose CUDA spellings the rules below do not give: all of them (hipify's mapping).
RENAMED_MEMBERS: dict[str, tuple[str, ...]] = {hip_name: tuple(cuda_names.split()) for hip_name, cuda_names in (
    line.split(":") for line in """
hipErrorOutOfMemory: CUDA_ERROR_OUT_OF_MEMORY cudaErrorMemoryAllocation
hipErrorNotInitialized: CUDA_ERROR_NOT_INITIALIZED cudaErrorInitializationError
hipErrorDeinitialized: CUDA_ERROR_DEINITIALIZED cudaErrorCudartUnloading
hipErrorInvalidImage: CUDA_ERROR_INVALID_IMAGE cudaErrorInvalidKernelImage
hipErrorInvalidContext: CUDA_ERROR_INVALID_CONTEXT cudaErrorDeviceUninitialized
hipErrorMapFailed: CUDA_ERROR_MAP_FAILED cudaErrorMapBufferObjectFailed
hipErrorUnmapFailed: CUDA_ERROR_UNMAP_FAILED cudaErrorUnmapBufferObjectFailed
hipErrorNoBinaryForGpu: CUDA_ERROR_NO_BINARY_FOR_GPU cudaErrorNoKernelImageForDevice
hipErrorECCNotCorrectable: CUDA_ERROR_ECC_UNCORRECTABLE cudaErrorECCUncorrectable
hipErrorContextAlreadyInUse: CUDA_ERROR_CONTEXT_ALREADY_IN_USE cudaErrorDeviceAlreadyInUse
hipErrorInvalidKernelFile: CUDA_ERROR_INVALID_PTX cudaErrorInvalidPtx
hipErrorInvalidHandle: CUDA_ERROR_INVALID_HANDLE cudaErrorInvalidResourceHandle
hipErrorNotFound: CUDA_ERROR_NOT_FOUND cudaErrorSymbolNotFound
hipErrorLaunchTimeOut: CUDA_ERROR_LAUNCH_TIMEOUT cudaErrorLaunchTimeout
hipErrorSetOnActiveProcess: CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE cudaErrorSetOnActiveProcess
hipErrorLaunchFailure: CUDA_ERROR_LAUNCH_FAILED cudaErrorLaunchFailure
hipErrorContextAlreadyCurrent: CUDA_ERROR_CONTEXT_ALREADY_CURRENT
hipErrorInvalidConfiguration: cudaErrorInvalidConfiguration
hipErrorInvalidPitchValue: cudaErrorInvalidPitchValue
hipErrorInvalidSymbol: cudaErrorInvalidSymbol
hipErrorInvalidDevicePointer: cudaErrorInvalidDevicePointer
hipErrorInvalidMemcpyDirection: cudaErrorInvalidMemcpyDirection
hipErrorInsufficientDriver: cudaErrorInsufficientDriver
hipErrorMissingConfiguration: cudaErrorMissingConfiguration
hipErrorPriorLaunchFailure: cudaErrorPriorLaunchFailure
hipErrorInvalidDeviceFunction: cudaErrorInvalidDeviceFunction
hipDeviceAttributeAsyncEngineCount: CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT CU_DEVICE_ATTRIBUTE_GPU_OVERLAP
 cudaDevAttrAsyncEngineCount cudaDevAttrGpuOverlap
hipDeviceAttributeGlobalL1CacheSupported: CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED
 cudaDevAttrGlobalL1CacheSupported
hipDeviceAttributeLocalL1CacheSupported: CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED cudaDevAttrLocalL1CacheSupported
hipDeviceAttributeL2CacheSize: CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE cudaDevAttrL2CacheSize
hipDeviceAttributeIsMultiGpuBoard: CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD cudaDevAttrIsMultiGpuBoard
hipDeviceAttributeMultiGpuBoardGroupID: cudaDevAttrMultiGpuBoardGroupID
hipDeviceAttributeMaxThreadsPerMultiProcessor: CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
 cudaDevAttrMaxThreadsPerMultiProcessor
hipDeviceAttributeMemoryBusWidth: CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH cudaDevAttrGlobalMemoryBusWidth
hipDeviceAttributeMultiprocessorCount: CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT cudaDevAttrMultiProcessorCount
hipDeviceAttributePciDomainID: CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID cudaDevAttrPciDomainId
hipDeviceAttributeMaxRegistersPerBlock: CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK
 CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK cudaDevAttrMaxRegistersPerBlock
hipDeviceAttributeMaxSharedMemoryPerBlock: CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK
 CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK cudaDevAttrMaxSharedMemoryPerBlock
hipDeviceAttributeSharedMemPerBlockOptin: CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
 cudaDevAttrMaxSharedMemoryPerBlockOptin
hipDeviceAttributeVirtualMemoryManagementSupported: CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
hipDeviceAttributeCanUseStreamWaitValue: CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR
 CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1 cudaDevAttrReserved94
hipDeviceAttributeMaxSurface1D: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH cudaDevAttrMaxSurface1DWidth
hipDeviceAttributeMaxSurface1DLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH
 cudaDevAttrMaxSurface1DLayeredWidth
hipDeviceAttributeMaxSurface2D: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT
 cudaDevAttrMaxSurface2DWidth cudaDevAttrMaxSurface2DHeight
hipDeviceAttributeMaxSurface2DLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT cudaDevAttrMaxSurface2DLayeredWidth
 cudaDevAttrMaxSurface2DLayeredHeight
hipDeviceAttributeMaxSurface3D: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT
 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH cudaDevAttrMaxSurface3DWidth cudaDevAttrMaxSurface3DHeight
 cudaDevAttrMaxSurface3DDepth
hipDeviceAttributeMaxSurfaceCubemap: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH cudaDevAttrMaxSurfaceCubemapWidth
hipDeviceAttributeMaxSurfaceCubemapLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH
 cudaDevAttrMaxSurfaceCubemapLayeredWidth
hipDeviceAttributeMaxTexture1DWidth: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH cudaDevAttrMaxTexture1DWidth
hipDeviceAttributeMaxTexture1DLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH
 cudaDevAttrMaxTexture1DLayeredWidth
hipDeviceAttributeMaxTexture1DLinear: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH
 cudaDevAttrMaxTexture1DLinearWidth
hipDeviceAttributeMaxTexture1DMipmap: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH
 cudaDevAttrMaxTexture1DMipmappedWidth
hipDeviceAttributeMaxTexture2DWidth: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH cudaDevAttrMaxTexture2DWidth
hipDeviceAttributeMaxTexture2DHeight: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT cudaDevAttrMaxTexture2DHeight
hipDeviceAttributeMaxTexture2DGather: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT cudaDevAttrMaxTexture2DGatherWidth
 cudaDevAttrMaxTexture2DGatherHeight
hipDeviceAttributeMaxTexture2DLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT cudaDevAttrMaxTexture2DLayeredWidth
 cudaDevAttrMaxTexture2DLayeredHeight
hipDeviceAttributeMaxTexture2DLinear: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH
 cudaDevAttrMaxTexture2DLinearWidth cudaDevAttrMaxTexture2DLinearHeight cudaDevAttrMaxTexture2DLinearPitch
hipDeviceAttributeMaxTexture2DMipmap: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT cudaDevAttrMaxTexture2DMipmappedWidth
 cudaDevAttrMaxTexture2DMipmappedHeight
hipDeviceAttributeMaxTexture3DWidth: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH cudaDevAttrMaxTexture3DWidth
hipDeviceAttributeMaxTexture3DHeight: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT cudaDevAttrMaxTexture3DHeight
hipDeviceAttributeMaxTexture3DDepth: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH cudaDevAttrMaxTexture3DDepth
hipDeviceAttributeMaxTexture3DAlt: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE
 CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE
 cudaDevAttrMaxTexture3DWidthAlt cudaDevAttrMaxTexture3DHeightAlt cudaDevAttrMaxTexture3DDepthAlt
hipDeviceAttributeMaxTextureCubemap: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH cudaDevAttrMaxTextureCubemapWidth
hipDeviceAttributeMaxTextureCubemapLayered: CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH
 cudaDevAttrMaxTextureCubemapLayeredWidth
hipDevP2PAttrHipArrayAccessSupported: CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED
 CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED CU_DEVICE_P2P_ATTRIBUTE_ARRAY_ACCESS_ACCESS_SUPPORTED
 cudaDevP2PAttrCudaArrayAccessSupported
HIP_GET_PROC_ADDRESS_SUCCESS: CU_GET_PROC_ADDRESS_SUCCESS cudaDriverEntryPointSuccess
HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND: CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND cudaDriverEntryPointSymbolNotFound
HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT: CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
 cudaDriverEntryPointVersionNotSufficent
hipSharedMemBankSizeDefault: CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE cudaSharedMemBankSizeDefault
hipSharedMemBankSizeFourByte: CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE cudaSharedMemBankSizeFourByte
hipSharedMemBankSizeEightByte: CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE cudaSharedMemBankSizeEightByte
hipMemAccessFlagsProtReadWrite: CU_MEM_ACCESS_FLAGS_PROT_READWRITE cudaMemAccessFlagsProtReadWrite
hipMemHandleTypeWin32Kmt: CU_MEM_HANDLE_TYPE_WIN32_KMT cudaMemHandleTypeWin32Kmt
hipMemoryTypeManaged: cudaMemoryTypeManaged
hipMemoryTypeArray: CU_MEMORYTYPE_ARRAY
hipMemoryTypeUnified: CU_MEMORYTYPE_UNIFIED
HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE: CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE
hipGraphInstantiateMultipleDevicesNotSupported: CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED
 cudaGraphInstantiateMultipleDevicesNotSupported
hipGraphNodeTypeExtSemaphoreSignal: CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL cudaGraphNodeTypeExtSemaphoreSignal
hipGraphNodeTypeExtSemaphoreWait: CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT cudaGraphNodeTypeExtSemaphoreWait
""".strip().replace("\n ", " ").splitlines())}

#: Enum members without a CUDA spelling (HIP's own, and deprecated HIP aliases of other members).
HIP_ONLY_MEMBERS = frozenset({
    "hipErrorMemoryAllocation", "hipErrorInitializationError", "hipErrorMapBufferObjectFailed",
    "hipErrorInvalidResourceHandle", "hipErrorRuntimeMemory", "hipErrorRuntimeOther", "hipErrorTbd",
    "hipMemcpyDeviceToDeviceNoCU", "hipLimitRange", "hipMemRangeAttributeCoherencyMode", "hipMemAdviseSetCoarseGrain",
    "hipMemAdviseUnsetCoarseGrain", "hipMemoryTypeUnregistered", "hipGraphNodeTypeMemcpyFromSymbol",
    "hipGraphNodeTypeMemcpyToSymbol",
    "HIP_R_4I", "HIP_C_4I", "HIP_R_4U", "HIP_C_4U", "HIP_R_16I", "HIP_C_16I", "HIP_R_16U", "HIP_C_16U", "HIP_R_64I",
    "HIP_C_64I", "HIP_R_64U", "HIP_C_64U", "HIP_R_8F_E4M3_FNUZ", "HIP_R_8F_E5M2_FNUZ",
    *(f"hipDeviceAttribute{name}" for name in (
        "CudaCompatibleBegin", "CudaCompatibleEnd", "AmdSpecificBegin", "AmdSpecificEnd", "VendorSpecificBegin",
        "AccessPolicyMaxWindowSize", "DeviceOverlap", "Luid", "LuidDeviceNodeMask", "MaxBlocksPerMultiProcessor",
        "MaxThreadsDim", "PersistingL2CacheMaxSize", "ReservedSharedMemPerBlock", "SharedMemPerMultiprocessor",
        "TotalGlobalMem", "MemoryPoolSupportedHandleTypes", "PciDomainId", "Unused1", "Unused2", "Unused3", "Unused4",
        "Unused5", "ClockInstructionRate", "HdpMemFlushCntl", "HdpRegFlushCntl",
        "CooperativeMultiDeviceUnmatchedFunc", "CooperativeMultiDeviceUnmatchedGridDim",
        "CooperativeMultiDeviceUnmatchedBlockDim", "CooperativeMultiDeviceUnmatchedSharedMem", "IsLargeBar",
        "AsicRevision", "ImageSupport", "PhysicalMultiProcessorCount", "FineGrainSupport", "WallClockRate")),
})


def _snake(camel: str) -> str:
    """``InvalidValue`` -> ``INVALID_VALUE`` (digits stay with their word: ``Texture2D`` -> ``TEXTURE2D``)."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", camel).upper()


# Each HIP enum -> its CUDA classes and the rules giving a member's CUDA spellings: (HIP prefix, CUDA prefix,
# whether the rest goes to upper snake case).
_ENUM_RULES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str, bool], ...]]] = {
    "hipError_t": (("cudaError_t", "cudaError", "cudaError_enum", "CUresult"),
                   (("hipSuccess", "cudaSuccess", False), ("hipSuccess", "CUDA_SUCCESS", False),
                    ("hipError", "cudaError", False), ("hipError", "CUDA_ERROR_", True))),
    "hipMemcpyKind": (("cudaMemcpyKind",), (("hipMemcpy", "cudaMemcpy", False),)),
    "hipDeviceAttribute_t": (("cudaDeviceAttr", "CUdevice_attribute", "CUdevice_attribute_enum"),
                             (("hipDeviceAttribute", "cudaDevAttr", False),
                              ("hipDeviceAttribute", "CU_DEVICE_ATTRIBUTE_", True))),
    "hipDataType": (("cudaDataType", "cudaDataType_t", "cublasDataType_t"), (("HIP_", "CUDA_", False),)),
    "hipDeviceP2PAttr": (("cudaDeviceP2PAttr", "CUdevice_P2PAttribute", "CUdevice_P2PAttribute_enum"),
                         (("hipDevP2PAttr", "cudaDevP2PAttr", False),
                          ("hipDevP2PAttr", "CU_DEVICE_P2P_ATTRIBUTE_", True))),
    "hipFuncCache_t": (("cudaFuncCache", "CUfunc_cache", "CUfunc_cache_enum"),
                       (("hipFuncCache", "cudaFuncCache", False), ("hipFuncCache", "CU_FUNC_CACHE_", True))),
    "hipSharedMemConfig": (("cudaSharedMemConfig", "CUsharedconfig", "CUsharedconfig_enum"), ()),
    "hipLimit_t": (("cudaLimit", "CUlimit", "CUlimit_enum"),
                   (("hipLimit", "cudaLimit", False), ("hipLimit", "CU_LIMIT_", True))),
    "hipMemoryType": (("cudaMemoryType", "CUmemorytype", "CUmemorytype_enum"),
                      (("hipMemoryType", "cudaMemoryType", False), ("hipMemoryType", "CU_MEMORYTYPE_", True))),
    "hipMemoryAdvise": (("cudaMemoryAdvise", "CUmem_advise", "CUmem_advise_enum"),
                        (("hipMemAdvise", "cudaMemAdvise", False), ("hipMemAdvise", "CU_MEM_ADVISE_", True))),
    "hipMemRangeAttribute": (("cudaMemRangeAttribute", "CUmem_range_attribute", "CUmem_range_attribute_enum"),
                             (("hipMemRangeAttribute", "cudaMemRangeAttribute", False),
                              ("hipMemRangeAttribute", "CU_MEM_RANGE_ATTRIBUTE_", True))),
    "hipPointer_attribute": (("CUpointer_attribute", "CUpointer_attribute_enum"),
                             (("HIP_POINTER_ATTRIBUTE_", "CU_POINTER_ATTRIBUTE_", False),)),
    "hipMemPoolAttr": (("cudaMemPoolAttr", "CUmemPool_attribute", "CUmemPool_attribute_enum"),
                       (("hipMemPool", "cudaMemPool", False), ("hipMemPoolAttr", "CU_MEMPOOL_ATTR_", True),
                        ("hipMemPoolReuse", "CU_MEMPOOL_ATTR_REUSE_", True))),
    "hipMemLocationType": (("cudaMemLocationType", "CUmemLocationType", "CUmemLocationType_enum"),
                           (("hipMemLocationType", "cudaMemLocationType", False),
                            ("hipMemLocationType", "CU_MEM_LOCATION_TYPE_", True))),
    "hipMemAccessFlags": (("cudaMemAccessFlags", "CUmemAccess_flags", "CUmemAccess_flags_enum"),
                          (("hipMemAccessFlags", "cudaMemAccessFlags", False),
                           ("hipMemAccessFlags", "CU_MEM_ACCESS_FLAGS_", True))),
    "hipMemAllocationType": (("cudaMemAllocationType", "CUmemAllocationType", "CUmemAllocationType_enum"),
                             (("hipMemAllocationType", "cudaMemAllocationType", False),
                              ("hipMemAllocationType", "CU_MEM_ALLOCATION_TYPE_", True))),
    "hipMemAllocationHandleType": (("cudaMemAllocationHandleType", "CUmemAllocationHandleType",
                                    "CUmemAllocationHandleType_enum"),
                                   (("hipMemHandleType", "cudaMemHandleType", False),
                                    ("hipMemHandleType", "CU_MEM_HANDLE_TYPE_", True))),
    "hipDriverProcAddressQueryResult": (("cudaDriverEntryPointQueryResult", "CUdriverProcAddressQueryResult",
                                         "CUdriverProcAddressQueryResult_enum"), ()),
    "hipGraphNodeType": (("cudaGraphNodeType", "CUgraphNodeType", "CUgraphNodeType_enum"),
                         (("hipGraphNodeType", "cudaGraphNodeType", False),
                          ("hipGraphNodeType", "CU_GRAPH_NODE_TYPE_", True))),
    "hipGraphExecUpdateResult": (("cudaGraphExecUpdateResult", "CUgraphExecUpdateResult",
                                  "CUgraphExecUpdateResult_enum"),
                                 (("hipGraphExecUpdate", "cudaGraphExecUpdate", False),
                                  ("hipGraphExecUpdate", "CU_GRAPH_EXEC_UPDATE_", True))),
    "hipGraphInstantiateFlags": (("cudaGraphInstantiateFlags", "CUgraphInstantiate_flags",
                                  "CUgraphInstantiate_flags_enum"),
                                 (("hipGraphInstantiateFlag", "cudaGraphInstantiateFlag", False),
                                  ("hipGraphInstantiateFlag", "CUDA_GRAPH_INSTANTIATE_FLAG_", True))),
    "hipGraphInstantiateResult": (("cudaGraphInstantiateResult", "CUgraphInstantiateResult",
                                   "CUgraphInstantiateResult_enum"),
                                  (("hipGraphInstantiate", "cudaGraphInstantiate", False),
                                   ("hipGraphInstantiate", "CUDA_GRAPH_INSTANTIATE_", True))),
    "hipGraphDebugDotFlags": (("cudaGraphDebugDotFlags", "CUgraphDebugDot_flags", "CUgraphDebugDot_flags_enum"),
                              (("hipGraphDebugDotFlags", "cudaGraphDebugDotFlags", False),
                               ("hipGraphDebugDotFlags", "CU_GRAPH_DEBUG_DOT_FLAGS_", True))),
    "hipGraphDependencyType": (("cudaGraphDependencyType", "cudaGraphDependencyType_enum", "CUgraphDependencyType",
                                "CUgraphDependencyType_enum"),
                               (("hipGraphDependencyType", "cudaGraphDependencyType", False),
                                ("hipGraphDependencyType", "CU_GRAPH_DEPENDENCY_TYPE_", True))),
    "hipGraphMemAttributeType": (("cudaGraphMemAttributeType", "CUgraphMem_attribute", "CUgraphMem_attribute_enum"),
                                 (("hipGraphMemAttr", "cudaGraphMemAttr", False),
                                  ("hipGraphMemAttr", "CU_GRAPH_MEM_ATTR_", True))),
    "hipStreamCaptureMode": (("cudaStreamCaptureMode", "CUstreamCaptureMode", "CUstreamCaptureMode_enum"),
                             (("hipStreamCaptureMode", "cudaStreamCaptureMode", False),
                              ("hipStreamCaptureMode", "CU_STREAM_CAPTURE_MODE_", True))),
    "hipStreamCaptureStatus": (("cudaStreamCaptureStatus", "CUstreamCaptureStatus", "CUstreamCaptureStatus_enum"),
                               (("hipStreamCaptureStatus", "cudaStreamCaptureStatus", False),
                                ("hipStreamCaptureStatus", "CU_STREAM_CAPTURE_STATUS_", True))),
    "hipStreamUpdateCaptureDependenciesFlags": (("cudaStreamUpdateCaptureDependenciesFlags",
                                                 "CUstreamUpdateCaptureDependencies_flags",
                                                 "CUstreamUpdateCaptureDependencies_flags_enum"),
                                                (("hipStream", "cudaStream", False),
                                                 ("hipStream", "CU_STREAM_", True))),
    "hipUserObjectFlags": (("cudaUserObjectFlags", "CUuserObject_flags", "CUuserObject_flags_enum"),
                           (("hipUserObject", "cudaUserObject", False), ("hipUserObject", "CU_USER_OBJECT_", True))),
    "hipUserObjectRetainFlags": (("cudaUserObjectRetainFlags", "CUuserObjectRetain_flags",
                                  "CUuserObjectRetain_flags_enum"),
                                 (("hipGraphUserObject", "cudaGraphUserObject", False),
                                  ("hipGraphUserObject", "CU_GRAPH_USER_OBJECT_", True))),
    "hipAccessProperty": (("cudaAccessProperty", "CUaccessProperty", "CUaccessProperty_enum"),
                          (("hipAccessProperty", "cudaAccessProperty", False),
                           ("hipAccessProperty", "CU_ACCESS_PROPERTY_", True))),
    "hipLaunchAttributeID": (("cudaLaunchAttributeID", "CUlaunchAttributeID", "CUlaunchAttributeID_enum"),
                             (("hipLaunchAttribute", "cudaLaunchAttribute", False),
                              ("hipLaunchAttribute", "CU_LAUNCH_ATTRIBUTE_", True))),
    "hipChannelFormatKind": (("cudaChannelFormatKind",), (("hipChannelFormatKind", "cudaChannelFormatKind", False),)),
    "hipArray_Format": (("CUarray_format", "CUarray_format_enum"), (("HIP_AD_FORMAT_", "CU_AD_FORMAT_", False),)),
}


def _cuda_spellings(hip_name: str, rules: tuple[tuple[str, str, bool], ...]) -> tuple[str, ...]:
    if hip_name in HIP_ONLY_MEMBERS:
        return ()
    if hip_name in RENAMED_MEMBERS:
        return RENAMED_MEMBERS[hip_name]
    return tuple(cuda + (_snake(hip_name[len(prefix):]) if snake else hip_name[len(prefix):])
                 for prefix, cuda, snake in rules if hip_name.startswith(prefix))


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


def _cuda_object(cuda_name: str, hip_name: str) -> Any:
    """The object ``cuda_name`` stands for: a subclass of a HIP struct or handle class named by ``hip_name`` (as
    hip-python-as-cuda's ``cdef class`` wrappers are), else the HIP object (functions, constants, typedefs)."""
    obj = getattr(hip, hip_name)
    if isinstance(obj, type) and obj.__name__ == hip_name and not issubclass(obj, enum.Enum):
        return type(cuda_name, (obj,), {"__module__": __name__, "__doc__": f"``{cuda_name}``: {hip_name}."})
    return obj


def _build() -> dict[str, Any]:
    names: dict[str, Any] = {}
    for hip_name in vars(hip):
        if (hip_name.startswith("hip") and hip_name[3:4].isupper() and hip_name not in HIP_ONLY
                and hip_name not in _ENUM_RULES and not hip_name.endswith("_spt")):
            names["cuda" + hip_name[3:]] = _cuda_object("cuda" + hip_name[3:], hip_name)
    for hip_name, cuda_names in RENAMED.items():
        for cuda_name in cuda_names:
            names[cuda_name] = _cuda_object(cuda_name, hip_name)
    # hip-python's typedefs hipStream_t and hipEvent_t (which rocmath.hip.hip leaves out) name the handle classes.
    names.update(cudaStream_t=hip.ihipStream_t, CUstream=hip.ihipStream_t, cudaEvent_t=hip.ihipEvent_t,
                 CUevent=hip.ihipEvent_t)
    for hip_enum_name, (cuda_classes, rules) in _ENUM_RULES.items():
        for cls_name in cuda_classes:
            names[cls_name] = _cuda_enum(cls_name, getattr(hip, hip_enum_name), rules)
            names[f"HIP_PYTHON_{cls_name}_HALLUCINATE"] = _hallucinate(cls_name)
    return names


_NAMES = _build()
globals().update(_NAMES)
__all__ += sorted(_NAMES)
