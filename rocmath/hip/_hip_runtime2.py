"""The rest of ``hip.hip``'s runtime API (beyond graphs, textures, arrays and modules), as the AMD runtime
(ROCm/clr hipamd/src) has it, over rocmath's devices, streams and address space.

:func:`runtime_api` gives :mod:`rocmath.hip.hip` these names (it calls it at its end):

- **The per-thread default stream** (:func:`per_thread_stream`): ``hipStreamPerThread`` is a blocking stream of
  its own for each host thread and device, made on first use (ordered with the null stream as any blocking
  stream; a destroyed one is made anew, as HIP's ``stream_per_thread::get``), and the ``_spt`` functions use it
  where the plain ones use the null stream (NULL and ``hipStreamLegacy`` mean it there).
- **Stream-ordered memory pools**: the runtime's (:mod:`rocmath.mempool`, hip_mempool_impl.cpp's
  ``hip::MemoryPool``, which :func:`rocmath.malloc_async` shares), with HIP's handles (``hipMemPool_t``, made when a
  pool is first named), creation properties, attributes (the pool's used and reserved bytes and their high-water
  marks, the reuse policies, the release threshold), access lists, and ``hipEventSynchronize`` as one more
  synchronization that gives freed blocks back.  Pools are shared across processes as HIP shares them: the pool's
  state in a POSIX shared-memory file (``hipMemPoolExportToShareableHandle`` gives its descriptor).
- **3D and parameter-struct copies and fills** (``hipMemcpy3D``, ``hipDrvMemcpy3D``, ``hipMemcpyParam2D``,
  ``hipMemset3D``...) with hip-python's structs (:class:`hipPitchedPtr`, :class:`hipExtent`, :class:`hipPos`,
  :class:`hipMemcpy3DParms`, :class:`HIP_MEMCPY3D`, :class:`hip_Memcpy2D`), validated as hip_memory.cpp
  validates them (size_t arithmetic wraps as in C); a side may be an array (:mod:`._hip_arrays`: in
  ``hipMemcpy3DParms`` its position and the extent's width count elements, as HIP's getDrvMemcpy3DDesc has
  them).  Each copy or fill is one task on its stream; a region that would still run past its allocation (or
  array) is refused before anything is written.
- **Contexts** (a device's primary context is its only one: ``hipCtx_t`` stands for the device, with a context
  stack per host thread, as hip_context.cpp has it), **device queries** (PCI bus ids, UUIDs, peer attributes
  and links, cache and shared-memory configurations, ``hipChooseDevice``), **errors** (``hipDrvGetErrorName``,
  ``hipDrvGetErrorString``, ``hipExtGetLastError``) and what HIP leaves unsupported, with its statuses.
- **Pointers and stream memory operations**: ``hipPointerGetAttribute`` and friends, ``hipStreamWaitValue32/64``
  (a stream task that blocks the stream until the condition holds on the memory: another stream or the host
  releases it) and ``hipStreamWriteValue32/64``, ``hipStreamAttachMemAsync``, ``hipMemRangeGetAttribute(s)``,
  and the IPC handles (real 64-byte handles; HIP refuses to open one in the process that made it).
"""

from __future__ import annotations

import ctypes
import functools
import inspect
import itertools
import mmap
import os
import re
import struct
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath
from rocmath import memory as _memory
from rocmath import mempool
from rocmath.device import Device, get_device_object, get_device_properties
from rocmath.errors import (
    HipError,
    HipInvalidHandleError,
    HipInvalidValueError,
    HipNotSupportedError,
    InvalidDeviceError,
    InvalidDevicePointerError,
    InvalidMemcpyDirectionError,
    OutOfMemoryError,
)
from rocmath.memory import Allocation, MemoryKind, address_space
from rocmath.mempool import MemoryPool
from rocmath.stream import Stream, wait_device_idle

from ._api import PublicFunctions, binding
from ._types import CStr, DeviceArray, Pointer, _Struct, c_enum, check_enum, pointer_value, resolve

__all__ = ["per_thread_stream", "runtime_api"]

_MODULE = "rocmath.hip.hip"

#: :mod:`rocmath.hip.hip` and :mod:`rocmath.hip._lib`, set by :func:`runtime_api` (this module is imported at the
#: end of ``hip``, whose helpers it uses; importing either here would make the import circular).
_h: Any = None
_lib: Any = None

# --- the functions this module adds: exception-style implementations, bound by runtime_api ------------------

#: The functions this module adds, by name (bound by its ``*_api`` function).
_PUBLIC = _public = PublicFunctions()


def _raw(name: str) -> Callable[..., Any]:
    """The exception-style implementation behind one of ``hip``'s bindings."""
    return getattr(_h, name).__wrapped__  # type: ignore[no-any-return]


class StatusError(HipError):
    """A failure with a ``hipError_t`` status rocmath.errors has no class for (named at the raise)."""

    def __init__(self, status: str, message: str = "", *, arg: str | None = None):
        self.status = _h.hipError_t[status]  # type: ignore[misc]
        super().__init__(message, arg=arg)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.status.name, self.message, self.arg))


def _rebuild(status: str, message: str, arg: str | None) -> StatusError:
    return StatusError(status, message, arg=arg)


def _invalid(message: str, arg: str | None = None) -> HipInvalidValueError:
    return HipInvalidValueError(message, arg=arg)


def _uint(value: Any, arg: str, ctype: str = "size_t") -> int:
    """An unsigned C integer argument (``size_t``, ``unsigned int``...), converted as Cython converts it."""
    return _h._c_typed(value, arg, ctype)  # type: ignore[no-any-return]


_U64 = (1 << 64) - 1


def _wrap(value: int) -> int:
    """``value`` as C's size_t arithmetic leaves it (modulo 2**64)."""
    return value & _U64


def _enum(name: str, members: list[tuple[str, int]], doc: str) -> Any:
    return c_enum(name, members, _MODULE, doc)


# --- enums ------------------------------------------------------------------------------------------------

hipMemPoolAttr = _enum("hipMemPoolAttr", [
    ("hipMemPoolReuseFollowEventDependencies", 0x1), ("hipMemPoolReuseAllowOpportunistic", 0x2),
    ("hipMemPoolReuseAllowInternalDependencies", 0x3), ("hipMemPoolAttrReleaseThreshold", 0x4),
    ("hipMemPoolAttrReservedMemCurrent", 0x5), ("hipMemPoolAttrReservedMemHigh", 0x6),
    ("hipMemPoolAttrUsedMemCurrent", 0x7), ("hipMemPoolAttrUsedMemHigh", 0x8),
], "``hipMemPoolAttr``: attributes of a memory pool (:func:`hipMemPoolGetAttribute`).")
hipMemLocationType = _enum("hipMemLocationType", [
    ("hipMemLocationTypeInvalid", 0), ("hipMemLocationTypeDevice", 1),
], "``hipMemLocationType``: what :class:`hipMemLocation`'s ``id`` names.")
hipMemAccessFlags = _enum("hipMemAccessFlags", [
    ("hipMemAccessFlagsProtNone", 0), ("hipMemAccessFlagsProtRead", 1), ("hipMemAccessFlagsProtReadWrite", 3),
], "``hipMemAccessFlags``: a device's access to a pool's memory.")
hipMemAllocationType = _enum("hipMemAllocationType", [
    ("hipMemAllocationTypeInvalid", 0x0), ("hipMemAllocationTypePinned", 0x1), ("hipMemAllocationTypeMax", 0x7FFFFFFF),
], "``hipMemAllocationType``: the kind of memory a pool hands out.")
hipMemAllocationHandleType = _enum("hipMemAllocationHandleType", [
    ("hipMemHandleTypeNone", 0x0), ("hipMemHandleTypePosixFileDescriptor", 0x1), ("hipMemHandleTypeWin32", 0x2),
    ("hipMemHandleTypeWin32Kmt", 0x4),
], "``hipMemAllocationHandleType``: how a pool may be shared with other processes.")
hipFuncCache_t = _enum("hipFuncCache_t", [
    ("hipFuncCachePreferNone", 0), ("hipFuncCachePreferShared", 1), ("hipFuncCachePreferL1", 2),
    ("hipFuncCachePreferEqual", 3),
], "``hipFuncCache_t``: L1 cache / shared memory preference.")
hipSharedMemConfig = _enum("hipSharedMemConfig", [
    ("hipSharedMemBankSizeDefault", 0), ("hipSharedMemBankSizeFourByte", 1), ("hipSharedMemBankSizeEightByte", 2),
], "``hipSharedMemConfig``: shared memory bank width.")
hipDeviceP2PAttr = _enum("hipDeviceP2PAttr", [
    ("hipDevP2PAttrPerformanceRank", 0), ("hipDevP2PAttrAccessSupported", 1),
    ("hipDevP2PAttrNativeAtomicSupported", 2), ("hipDevP2PAttrHipArrayAccessSupported", 3),
], "``hipDeviceP2PAttr``: attributes of a device pair (:func:`hipDeviceGetP2PAttribute`).")
hipPointer_attribute = _enum("hipPointer_attribute", [
    (f"HIP_POINTER_ATTRIBUTE_{name}", i) for i, name in enumerate((
        "CONTEXT", "MEMORY_TYPE", "DEVICE_POINTER", "HOST_POINTER", "P2P_TOKENS", "SYNC_MEMOPS", "BUFFER_ID",
        "IS_MANAGED", "DEVICE_ORDINAL", "IS_LEGACY_HIP_IPC_CAPABLE", "RANGE_START_ADDR", "RANGE_SIZE", "MAPPED",
        "ALLOWED_HANDLE_TYPES", "IS_GPU_DIRECT_RDMA_CAPABLE", "ACCESS_FLAGS", "MEMPOOL_HANDLE"), start=1)
], "``hipPointer_attribute``: attributes of :func:`hipPointerGetAttribute`.")
hipMemRangeAttribute = _enum("hipMemRangeAttribute", [
    ("hipMemRangeAttributeReadMostly", 1), ("hipMemRangeAttributePreferredLocation", 2),
    ("hipMemRangeAttributeAccessedBy", 3), ("hipMemRangeAttributeLastPrefetchLocation", 4),
    ("hipMemRangeAttributeCoherencyMode", 100),
], "``hipMemRangeAttribute``: attributes of :func:`hipMemRangeGetAttribute`.")
hipMemRangeCoherencyMode = _enum("hipMemRangeCoherencyMode", [
    ("hipMemRangeCoherencyModeFineGrain", 0), ("hipMemRangeCoherencyModeCoarseGrain", 1),
    ("hipMemRangeCoherencyModeIndeterminate", 2),
], "``hipMemRangeCoherencyMode``: what ``hipMemRangeAttributeCoherencyMode`` reports.")
hipDriverProcAddressQueryResult = _enum("hipDriverProcAddressQueryResult", [
    ("HIP_GET_PROC_ADDRESS_SUCCESS", 0), ("HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND", 1),
    ("HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT", 2),
], "``hipDriverProcAddressQueryResult``: :func:`hipGetProcAddress`'s symbol status.")

_ENUMS = (hipMemPoolAttr, hipMemLocationType, hipMemAccessFlags, hipMemAllocationType, hipMemAllocationHandleType,
          hipFuncCache_t, hipSharedMemConfig, hipDeviceP2PAttr, hipPointer_attribute, hipMemRangeAttribute,
          hipMemRangeCoherencyMode, hipDriverProcAddressQueryResult)

# --- structs (members by table: rocmath.hip._types._Struct) -----------------------------------------------


def _read_struct(cls: type[_Struct], obj: Any, arg: str) -> Any:
    """The C struct a struct argument points to (hip-python's ``fromPyobj(obj).getElementPtr()``), None for NULL."""
    address = pointer_value(cls.fromObj(obj)) if not isinstance(obj, cls) else obj._ptr
    if address == 0:
        return None
    if address < 4096:
        raise _invalid(f"{arg} 0x{address:x} is not a valid address", arg)
    return cls._c.from_address(address)


class hipPitchedPtr(_Struct):
    """``hipPitchedPtr``: ``ptr``, ``pitch`` (bytes per row), ``xsize`` (row width), ``ysize`` (rows per slice)."""

    _members = (("ptr", "ptr", None), ("pitch", "size_t", None), ("xsize", "size_t", None),
                ("ysize", "size_t", None))


class hipExtent(_Struct):
    """``hipExtent``: ``width`` (bytes, for linear memory), ``height``, ``depth``."""

    _members = (("width", "size_t", None), ("height", "size_t", None), ("depth", "size_t", None))


class hipPos(_Struct):
    """``hipPos``: ``x`` (bytes, for linear memory), ``y``, ``z``."""

    _members = (("x", "size_t", None), ("y", "size_t", None), ("z", "size_t", None))


class hipMemcpy3DParms(_Struct):
    """``hipMemcpy3DParms``: source and destination positions and pitched pointers, the extent and the kind
    (its ``hipArray_t`` members are in the layout, unexposed, as in hip-python)."""

    _members = (("srcArray", "array", None), ("srcPos", "struct", hipPos), ("srcPtr", "struct", hipPitchedPtr),
                ("dstArray", "array", None), ("dstPos", "struct", hipPos), ("dstPtr", "struct", hipPitchedPtr),
                ("extent", "struct", hipExtent), ("kind", "enum", "hipMemcpyKind"))


def _copy_members(dims: str) -> tuple[tuple[str, str, Any], ...]:
    """The members of ``hip_Memcpy2D`` (``dims`` "2") and ``HIP_MEMCPY3D`` ("3"), in C order."""
    three = dims == "3"
    members: list[tuple[str, str, Any]] = []
    for side in ("src", "dst"):
        members += [(f"{side}XInBytes", "size_t", None), (f"{side}Y", "size_t", None)]
        if three:
            members += [(f"{side}Z", "size_t", None), (f"{side}LOD", "size_t", None)]
        members += [(f"{side}MemoryType", "enum", "hipMemoryType"), (f"{side}Host", "ptr", None),
                    (f"{side}Device", "ptr", None), (f"{side}Array", "array", None), (f"{side}Pitch", "size_t", None)]
        if three:
            members.append((f"{side}Height", "size_t", None))
    members += [("WidthInBytes", "size_t", None), ("Height", "size_t", None)]
    return (*members, ("Depth", "size_t", None)) if three else tuple(members)


class hip_Memcpy2D(_Struct):
    """``hip_Memcpy2D`` (driver API 2D copy description, :func:`hipMemcpyParam2D`)."""

    _members = _copy_members("2")


class HIP_MEMCPY3D(_Struct):
    """``HIP_MEMCPY3D`` (driver API 3D copy description, :func:`hipDrvMemcpy3D`)."""

    _members = _copy_members("3")


class hipMemLocation(_Struct):
    """``hipMemLocation``: ``type`` (a :class:`hipMemLocationType`) and ``id`` (the device)."""

    _members = (("type", "enum", hipMemLocationType), ("id", "int", None))


class hipMemAccessDesc(_Struct):
    """``hipMemAccessDesc``: a ``location`` and the access ``flags`` it gets."""

    _members = (("location", "struct", hipMemLocation), ("flags", "enum", hipMemAccessFlags))


class hipMemPoolProps(_Struct):
    """``hipMemPoolProps``: ``allocType``, ``handleTypes``, ``location``, ``win32SecurityAttributes``,
    ``maxSize`` (0: no limit) and 56 ``reserved`` bytes."""

    _members = (("allocType", "enum", hipMemAllocationType), ("handleTypes", "enum", hipMemAllocationHandleType),
                ("location", "struct", hipMemLocation), ("win32SecurityAttributes", "ptr", None),
                ("maxSize", "size_t", None), ("reserved", "uchars", 56))


class hipMemPoolPtrExportData(_Struct):
    """``hipMemPoolPtrExportData``: 64 opaque bytes describing an exported pool allocation."""

    _members = (("reserved", "uchars", 64),)


class hipIpcMemHandle_st(_Struct):
    """``hipIpcMemHandle_t``: 64 opaque bytes naming device memory for another process."""

    _members = (("reserved", "chars", 64),)


class hipIpcEventHandle_st(_Struct):
    """``hipIpcEventHandle_t``: 64 opaque bytes naming an interprocess event for another process."""

    _members = (("reserved", "chars", 64),)


class hipUUID_t(_Struct):
    """``hipUUID``: a device's 16-byte UUID."""

    _members = (("bytes", "chars", 16),)


# --- opaque handles -----------------------------------------------------------------------------------------


class _Handle(Pointer):
    """An opaque C handle (``hipMemPool_t``, ``hipCtx_t``): an address in the HIP runtime's handle registry
    standing for a runtime object (:attr:`target`)."""

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self.target: Any = None

    @classmethod
    def _new(cls, target: Any) -> Any:
        obj = cls()
        obj.target = target
        obj._ptr = _h._register(obj)
        return obj

    def _release(self) -> None:
        with _h._handles_lock:
            if _h._handles.get(self._ptr) is self:
                del _h._handles[self._ptr]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object, ptr: {self._ptr}>"


def _target(obj: Any, cls: type[_Handle]) -> Any:
    """The object a handle argument stands for: None for NULL, ``False`` for an address no live handle of ``cls``
    has (what C would dereference blindly)."""
    address = pointer_value(obj)
    if address == 0:
        return None
    found = _h._handles.get(address)
    return found.target if isinstance(found, cls) and found.target is not None else False


class ihipMemPoolHandle_t(_Handle):
    """``hipMemPool_t``: a handle to a :class:`MemoryPool`."""


class ihipCtx_t(_Handle):
    """``hipCtx_t``: a handle to a device's primary context (the device itself, as in the AMD runtime)."""


# --- the per-thread default stream --------------------------------------------------------------------------


class _PerThread(threading.local):
    streams: dict[int, Stream] | None = None  # device index -> the thread's stream on it


_per_thread = _PerThread()


def per_thread_stream() -> Stream:
    """The calling thread's default stream on the current device (``hipStreamPerThread``): a blocking stream
    made on first use (again after ``rocmath.configure`` or once destroyed), dropped with the thread."""
    dev = get_device_object()
    streams = _per_thread.streams
    if streams is None:
        streams = _per_thread.streams = {}
    s = streams.get(dev.index)
    if s is None or s.device is not dev or s._state.destroyed:
        s = streams[dev.index] = Stream(dev.index)
    return s


def _spt_stream(stream: Any) -> Any:
    """A ``_spt`` function's stream argument: NULL and ``hipStreamLegacy`` stand for the per-thread stream."""
    if stream is None or (not isinstance(stream, Stream) and pointer_value(stream) in (0, _h.hipStreamLegacy)):
        return _h.hipStreamPerThread
    return stream


def _per_thread_synchronously(run: Callable[[Stream], None]) -> None:
    """A synchronous ``_spt`` call: its work on the per-thread stream (not the null stream), waited for."""
    s = per_thread_stream()
    run(s)
    s.synchronize()


@_public()
def hipMemcpy_spt(dst: Any, src: Any, sizeBytes: int, kind: Any) -> None:
    """:func:`hipMemcpy` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _raw("hipMemcpyAsync")(dst, src, sizeBytes, kind, s))


@_public()
def hipMemset_spt(dst: Any, value: int, sizeBytes: int) -> None:
    """:func:`hipMemset` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _raw("hipMemsetAsync")(dst, value, sizeBytes, s))


@_public()
def hipMemcpy2D_spt(dst: Any, dpitch: int, src: Any, spitch: int, width: int, height: int, kind: Any) -> None:
    """:func:`hipMemcpy2D` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _raw("hipMemcpy2DAsync")(dst, dpitch, src, spitch, width, height, kind, s))


@_public()
def hipMemset2D_spt(dst: Any, pitch: int, value: int, width: int, height: int) -> None:
    """:func:`hipMemset2D` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _raw("hipMemset2DAsync")(dst, pitch, value, width, height, s))


#: The ``_spt`` functions that are their plain function with the per-thread stream for NULL.
_PER_THREAD_VARIANTS = (
    "hipStreamSynchronize", "hipStreamQuery", "hipStreamWaitEvent", "hipStreamGetFlags", "hipStreamGetPriority",
    "hipEventRecord", "hipLaunchHostFunc", "hipStreamAddCallback", "hipMemcpyAsync", "hipMemsetAsync",
    "hipMemcpy2DAsync", "hipMemset2DAsync", "hipMemcpy3DAsync", "hipMemset3DAsync",
)


# --- stream-ordered memory pools (rocmath.mempool's, with HIP's handles, attributes and access) -----------------


def _handle(pool: MemoryPool) -> ihipMemPoolHandle_t:
    """The ``hipMemPool_t`` of ``pool`` (made on first use: a pool the runtime made has none before)."""
    with pool.lock:
        if pool.handle is None:
            pool.handle = ihipMemPoolHandle_t._new(pool)
        return pool.handle  # type: ignore[no-any-return]


def _new_pool(device: Device, props: dict[str, int] | None = None) -> ihipMemPoolHandle_t:
    """A new pool of ``device`` (``hipMemPoolCreate``'s properties, or the defaults) and its handle."""
    return _handle(MemoryPool(device, props))


def _prop(pool: MemoryPool, name: str) -> int:
    """A creation property of ``pool``; a pool made without properties (a default pool) has HIP's defaults:
    pinned device memory, no shareable handle, no maximum size."""
    defaults = {"allocType": int(hipMemAllocationType.hipMemAllocationTypePinned),
                "handleTypes": int(hipMemAllocationHandleType.hipMemHandleTypeNone),
                "location_type": int(hipMemLocationType.hipMemLocationTypeDevice),
                "location_id": pool.device.index, "maxSize": 0}
    return pool.props.get(name, defaults[name])


def _get_attribute(pool: MemoryPool, attr: Any) -> int:
    a = hipMemPoolAttr
    with pool.lock:
        return {a.hipMemPoolReuseFollowEventDependencies: pool.event_dependencies,
                a.hipMemPoolReuseAllowOpportunistic: pool.opportunistic,
                a.hipMemPoolReuseAllowInternalDependencies: pool.internal_dependencies,
                a.hipMemPoolAttrReleaseThreshold: pool.release_threshold,
                a.hipMemPoolAttrReservedMemCurrent: pool.busy_bytes + pool.freed_bytes,
                a.hipMemPoolAttrReservedMemHigh: pool.reserved_high,
                a.hipMemPoolAttrUsedMemCurrent: pool.busy_bytes,
                a.hipMemPoolAttrUsedMemHigh: pool.busy_high}[attr]


def _set_attribute(pool: MemoryPool, attr: Any, value: int) -> None:
    a = hipMemPoolAttr
    with pool.lock:
        if attr in (a.hipMemPoolReuseFollowEventDependencies, a.hipMemPoolReuseAllowOpportunistic,
                    a.hipMemPoolReuseAllowInternalDependencies):
            name = {a.hipMemPoolReuseFollowEventDependencies: "event_dependencies",
                    a.hipMemPoolReuseAllowOpportunistic: "opportunistic",
                    a.hipMemPoolReuseAllowInternalDependencies: "internal_dependencies"}[attr]
            setattr(pool, name, value & 1)  # one-bit fields in HIP's pool state
        elif attr == a.hipMemPoolAttrReleaseThreshold:
            pool.release_threshold = value
        elif attr in (a.hipMemPoolAttrReservedMemHigh, a.hipMemPoolAttrUsedMemHigh):
            if value != 0:
                raise _invalid(f"{attr.name} can only be reset to 0", "value")
            if attr == a.hipMemPoolAttrReservedMemHigh:
                pool.reserved_high = 0
            else:
                pool.busy_high = 0
        else:
            raise _invalid(f"{attr.name} cannot be set", "attr")


def _access_of(pool: MemoryPool, device: int) -> int:
    with pool.lock:
        default = hipMemAccessFlags.hipMemAccessFlagsProtReadWrite if device == pool.device.index else \
            hipMemAccessFlags.hipMemAccessFlagsProtNone
        return pool.access.get(device, int(default))


def _state_bits(pool: MemoryPool) -> int:
    """HIP's pool state word (event dependencies, opportunistic, internal dependencies, interprocess)."""
    interprocess = _prop(pool, "handleTypes") != hipMemAllocationHandleType.hipMemHandleTypeNone
    return (pool.event_dependencies | pool.opportunistic << 1 | pool.internal_dependencies << 2
            | int(interprocess) << 3)


def _set_state_bits(pool: MemoryPool, bits: int) -> None:
    pool.event_dependencies, pool.opportunistic, pool.internal_dependencies = bits & 1, bits >> 1 & 1, bits >> 2 & 1


def _pool_of(obj: Any) -> MemoryPool:
    """The pool a ``hipMemPool_t`` argument names (NULL, or no live pool: ``hipErrorInvalidValue``)."""
    pool = _target(obj, ihipMemPoolHandle_t)
    if not pool or pool.device.retired:
        raise _invalid("mem_pool is NULL or no live memory pool", "mem_pool")
    return pool  # type: ignore[no-any-return]


def free_to_pool(address: int) -> bool:
    """``hipFree`` of ``address``: the device's work done and its pools' released blocks freed, memory of a pool
    goes back to that pool (True) -- HIP's ihipFree; other memory is the caller's to free (False)."""
    alloc = address_space.find(address)
    if alloc is None or not alloc.live or alloc.pooled or alloc.kind is not MemoryKind.DEVICE:
        return False
    wait_device_idle(alloc.device)
    return mempool.free_to_pool(alloc)


def stream_waited(stream: Any, event: Any) -> None:
    """``hipStreamWaitEvent(stream, event)``: with event dependencies followed, ``stream`` may now reuse what the
    event's stream may (Device::AddSafeStream; a NULL ``stream`` adds nothing, as in HIP)."""
    task = getattr(event, "_task", None)
    if stream is None or pointer_value(stream) in (0, _h.hipStreamLegacy) or task is None:
        return
    waiting = _h._as_stream(stream)
    if task.state.device is not waiting.device:
        return
    mempool.follow_event(waiting.device, task.state.ident, waiting.ident)


def _device_array(address: int, nbytes: int) -> DeviceArray | None:
    return _h._device_array(address, nbytes)  # type: ignore[no-any-return]


@_public(1)
def hipMallocAsync(size: int, stream: Any) -> DeviceArray | None:
    """``size`` bytes of device memory from the current pool of ``stream``'s device, usable in ``stream`` order
    (a freed block is reused as :class:`MemoryPool` describes); size 0 gives None."""
    n = _uint(size, "size")
    s = _h._as_stream(stream)
    if n == 0:
        return None
    pool = mempool.pools_of(s.device).current
    assert pool is not None
    return _device_array(pool.allocate(n, s), n)


@_public(1)
def hipMallocFromPoolAsync(size: int, mem_pool: Any, stream: Any) -> DeviceArray | None:
    """:func:`hipMallocAsync` from ``mem_pool``."""
    n = _uint(size, "size")
    pool = _pool_of(mem_pool)
    s = _h._as_stream(stream)
    if n == 0:
        return None
    return _device_array(pool.allocate(n, s), n)


@_public()
def hipFreeAsync(dev_ptr: Any, stream: Any) -> None:
    """Give the memory at ``dev_ptr`` back in ``stream`` order: a pool's block to its pool; any other allocation
    is freed as :func:`hipFree` frees it (HIP's fallback).  NULL, or memory the runtime does not know, is
    ``hipErrorInvalidValue``; a bad stream ``hipErrorInvalidHandle``."""
    if pointer_value(dev_ptr) == 0:
        raise _invalid("dev_ptr is NULL", "dev_ptr")
    s = _h._as_stream(stream)
    r = resolve(dev_ptr)
    alloc = address_space.find(r.address) if r.device else None
    pool = mempool.holding_pool(alloc) if alloc is not None else None
    if pool is not None and pool.free(alloc.ptr, s):  # type: ignore[union-attr]
        return
    if alloc is None or not alloc.live or alloc.pooled or mempool.in_freed_heap(alloc):
        raise _invalid("dev_ptr is no memory of the HIP runtime (or freed already)", "dev_ptr")
    _raw("hipFree")(dev_ptr)


@_public(1)
def hipDeviceGetDefaultMemPool(device: int) -> ihipMemPoolHandle_t:
    """The default pool of ``device`` (``hipErrorInvalidDevice`` for none)."""
    index = _h._device_index(device, "device")
    pool = mempool.pools_of(get_device_object(index)).default
    assert pool is not None
    return _handle(pool)


def _device_below_count(device: Any) -> int:
    """A device argument HIP compares with the count as size_t (negative ones are too large):
    ``hipErrorInvalidValue`` beyond."""
    index = _h._c_typed(device, "device", "int")
    if not 0 <= index < rocmath.get_device_count():
        raise _invalid(f"device {index} does not exist", "device")
    return index  # type: ignore[no-any-return]


@_public(1)
def hipDeviceGetMemPool(device: int) -> ihipMemPoolHandle_t:
    """The current pool of ``device`` (what :func:`hipMallocAsync` allocates from); no such device is
    ``hipErrorInvalidValue`` (HIP's check)."""
    pool = mempool.pools_of(get_device_object(_device_below_count(device))).current
    assert pool is not None
    return _handle(pool)


@_public()
def hipDeviceSetMemPool(device: int, mem_pool: Any) -> None:
    """Make ``mem_pool`` the current pool of ``device``: NULL or no such device is ``hipErrorInvalidValue``, a
    pool of another device ``hipErrorInvalidDevice``."""
    index = _h._c_typed(device, "device", "int")
    pool = _target(mem_pool, ihipMemPoolHandle_t)
    if pool is None or not 0 <= index < rocmath.get_device_count():
        raise _invalid("mem_pool is NULL or the device does not exist", "mem_pool" if pool is None else "device")
    pool = _pool_of(mem_pool)
    if pool.device.index != index:
        raise InvalidDeviceError(f"the pool belongs to device {pool.device.index}, not {index}", arg="device")
    mempool.pools_of(pool.device).current = pool


def _pool_props(props: Any) -> dict[str, int]:
    c = _read_struct(hipMemPoolProps, props, "pool_props")
    if c is None:
        raise _invalid("pool_props is NULL", "pool_props")
    return {"allocType": c.allocType, "handleTypes": c.handleTypes, "location_type": c.location.type,
            "location_id": c.location.id, "maxSize": c.maxSize}


@_public(1)
def hipMemPoolCreate(pool_props: Any) -> ihipMemPoolHandle_t:
    """A new pool with the given :class:`hipMemPoolProps`: pinned allocations on a device
    (``location.type`` device, ``location.id`` an existing one), else ``hipErrorInvalidValue``."""
    p = _pool_props(pool_props)
    if p["allocType"] != hipMemAllocationType.hipMemAllocationTypePinned:
        raise _invalid("allocType must be hipMemAllocationTypePinned", "pool_props")
    if p["location_type"] != hipMemLocationType.hipMemLocationTypeDevice or \
            not 0 <= p["location_id"] < rocmath.get_device_count():
        raise _invalid("location must be an existing device", "pool_props")
    return _new_pool(get_device_object(p["location_id"]), p)


@_public()
def hipMemPoolDestroy(mem_pool: Any) -> None:
    """Destroy a pool: its released blocks go back to the device, the device's current pool becomes its default
    pool if it was this one; blocks still in use keep the pool alive until they are freed.  NULL, an unknown pool
    or a default pool is ``hipErrorInvalidValue``."""
    pool = _pool_of(mem_pool)
    pools = mempool.pools_of(pool.device)
    if pool is pools.default:
        raise _invalid("a device's default pool cannot be destroyed", "mem_pool")
    pool.release_freed()
    if pool is pools.current:
        pools.current = pools.default
    pool.unref()


@_public()
def hipMemPoolTrimTo(mem_pool: Any, min_bytes_to_hold: int) -> None:
    """Free released blocks of the pool until it holds at most ``min_bytes_to_hold`` bytes of them (blocks whose
    stream-ordered free has not run yet stay)."""
    keep = _uint(min_bytes_to_hold, "min_bytes_to_hold")
    _pool_of(mem_pool).trim_to(keep)


def _error(message: str, arg: str) -> HipInvalidValueError:
    return _invalid(message, arg)


#: C type of each pool attribute's value.
_ATTR_TYPE = {1: np.int32, 2: np.int32, 3: np.int32}


@_public()
def hipMemPoolSetAttribute(mem_pool: Any, attr: Any, value: Any) -> None:
    """Set a pool attribute from the ``int`` (reuse policies, only their lowest bit counts) or ``uint64``
    (release threshold; 0 to reset a high-water mark) ``value`` points to; the current counters cannot be set
    (``hipErrorInvalidValue``)."""
    check_enum(attr, hipMemPoolAttr, "attr")
    pool = _pool_of(mem_pool) if pointer_value(mem_pool) else None
    if pool is None or (pointer_value(value) == 0 and not isinstance(value, ctypes._SimpleCData)):
        raise _invalid("mem_pool and value must be non-NULL", "mem_pool" if pool is None else "value")
    read = _lib.read_host(value, _ATTR_TYPE.get(int(attr), np.uint64), 1, "value", _error)
    _set_attribute(pool, attr, int(read[0]))


@_public()
def hipMemPoolGetAttribute(mem_pool: Any, attr: Any, value: Any) -> None:
    """Write a pool attribute through ``value`` (an ``int`` for the reuse policies, a ``uint64`` otherwise):
    reserved bytes are the pool's blocks (used and released), used bytes those in use, each with its high-water
    mark since the last reset."""
    check_enum(attr, hipMemPoolAttr, "attr")
    pool = _pool_of(mem_pool) if pointer_value(mem_pool) else None
    if pool is None or (pointer_value(value) == 0 and not isinstance(value, ctypes._SimpleCData)):
        raise _invalid("mem_pool and value must be non-NULL", "mem_pool" if pool is None else "value")
    _lib.write_host(value, _get_attribute(pool, attr), _ATTR_TYPE.get(int(attr), np.uint64), "value", _error)


@_public()
def hipMemPoolSetAccess(mem_pool: Any, desc_list: Any, count: int) -> None:
    """Give devices access to the pool's memory: ``count`` :class:`hipMemAccessDesc` at ``desc_list``.  NULL is
    ``hipErrorInvalidValue``; more entries than devices, a device that does not exist or ``ProtNone``
    ``hipErrorInvalidDevice``; other flags above ``ProtReadWrite`` or a location that is no device
    ``hipErrorInvalidValue``.  The pool's own device always keeps read-write access."""
    n = _uint(count, "count")
    if pointer_value(mem_pool) == 0 or pointer_value(desc_list) == 0:
        raise _invalid("mem_pool and desc_list must be non-NULL", "mem_pool" if not pointer_value(mem_pool)
                       else "desc_list")
    pool = _pool_of(mem_pool)
    devices = rocmath.get_device_count()
    if n > devices:
        raise InvalidDeviceError(f"{n} entries for {devices} device(s)", arg="count")
    base = pointer_value(hipMemAccessDesc.fromObj(desc_list))
    for i in range(n):
        d = hipMemAccessDesc._c.from_address(base + i * ctypes.sizeof(hipMemAccessDesc._c))
        if d.location.type != hipMemLocationType.hipMemLocationTypeDevice:
            raise _invalid(f"entry {i} is no device location", "desc_list")
        if not 0 <= d.location.id < devices:
            raise InvalidDeviceError(f"entry {i}: device {d.location.id} does not exist", arg="desc_list")
        if d.flags == hipMemAccessFlags.hipMemAccessFlagsProtNone:
            raise InvalidDeviceError(f"entry {i}: ProtNone cannot be set", arg="desc_list")
        if d.flags > hipMemAccessFlags.hipMemAccessFlagsProtReadWrite:
            raise _invalid(f"entry {i}: flags {d.flags} are no hipMemAccessFlags", "desc_list")
        if d.location.id != pool.device.index:
            with pool.lock:
                pool.access[d.location.id] = d.flags


@_public()
def hipMemPoolGetAccess(flags: Any, mem_pool: Any, location: Any) -> None:
    """Write through ``flags`` (a ``hipMemAccessFlags``, a C int) the access a device location has to the pool:
    its own device read-write, others none until :func:`hipMemPoolSetAccess`.  NULL arguments, or a location that
    is no existing device, are ``hipErrorInvalidValue``."""
    loc = _read_struct(hipMemLocation, location, "location")
    if pointer_value(mem_pool) == 0 or loc is None or (pointer_value(flags) == 0
                                                       and not isinstance(flags, ctypes._SimpleCData)):
        raise _invalid("flags, mem_pool and location must be non-NULL", "mem_pool")
    pool = _pool_of(mem_pool)
    if loc.type != hipMemLocationType.hipMemLocationTypeDevice or not 0 <= loc.id < rocmath.get_device_count():
        raise _invalid("location is no existing device", "location")
    _lib.write_host(flags, _access_of(pool, loc.id), np.int32, "flags", _error)


class _SharedPoolState:
    """A pool's state in POSIX shared memory, as HIP's ``MemoryPool::Export`` shares it: the descriptor, the
    pool's state word and its access list (device, flags) -- what another process's import reads."""

    LAYOUT = struct.Struct("<iII" + "ii" * 32)

    def __init__(self, fd: int, owner: bool):
        self.fd, self.owner = fd, owner
        self.map = mmap.mmap(fd, self.LAYOUT.size)

    @classmethod
    def export(cls, pool: MemoryPool) -> _SharedPoolState:
        fd = os.memfd_create(f"hip_mempool_{_handle(pool)._ptr:x}")
        os.ftruncate(fd, cls.LAYOUT.size)
        shared = cls(fd, owner=True)
        access = sorted(pool.access.items())[:32]
        flat = [v for pair in access for v in pair] + [0] * (64 - 2 * len(access))
        shared.map[:] = cls.LAYOUT.pack(fd, _state_bits(pool), len(access), *flat)
        return shared

    def read(self) -> tuple[int, dict[int, int]]:
        values = self.LAYOUT.unpack(self.map[:])
        access = {values[3 + 2 * i]: values[4 + 2 * i] for i in range(min(values[2], 32))}
        return values[1], access

    def close(self) -> None:
        self.map.close()


@_public()
def hipMemPoolExportToShareableHandle(shared_handle: Any, mem_pool: Any, handle_type: Any, flags: int) -> None:
    """Write through ``shared_handle`` (a C int) a POSIX file descriptor of shared memory holding the pool's state
    and access list (the same descriptor on each export), for :func:`hipMemPoolImportFromShareableHandle` in this
    or another process.  NULL arguments, non-zero flags, or a handle type other than the pool's (or none) are
    ``hipErrorInvalidValue``."""
    check_enum(handle_type, hipMemAllocationHandleType, "handle_type")
    f = _uint(flags, "flags", "unsigned int")
    if pointer_value(mem_pool) == 0 or f != 0 or (pointer_value(shared_handle) == 0
                                                  and not isinstance(shared_handle, ctypes._SimpleCData)):
        raise _invalid("mem_pool and shared_handle must be non-NULL and flags 0", "flags" if f else "mem_pool")
    pool = _pool_of(mem_pool)
    if handle_type != _prop(pool, "handleTypes") or handle_type == hipMemAllocationHandleType.hipMemHandleTypeNone:
        raise _invalid("the pool was not made shareable with this handle type", "handle_type")
    with pool.lock:
        if pool.shared is None:
            pool.shared = _SharedPoolState.export(pool)
        fd = pool.shared.fd
    _lib.write_host(shared_handle, fd, np.int32, "shared_handle", _error)


@_public(1)
def hipMemPoolImportFromShareableHandle(shared_handle: Any, handle_type: Any, flags: int) -> ihipMemPoolHandle_t:
    """A new pool on device 0 with the state and access list of the exported pool whose descriptor is
    ``shared_handle`` (passed as the pointer value, as in C).  NULL, non-zero flags or ``hipMemHandleTypeNone``
    are ``hipErrorInvalidValue``; a descriptor that maps no exported pool state ``hipErrorOutOfMemory``."""
    check_enum(handle_type, hipMemAllocationHandleType, "handle_type")
    f = _uint(flags, "flags", "unsigned int")
    fd = pointer_value(shared_handle)
    if fd == 0 or f != 0:
        raise _invalid("shared_handle must be non-NULL and flags 0", "flags" if f else "shared_handle")
    if handle_type == hipMemAllocationHandleType.hipMemHandleTypeNone:
        raise _invalid("hipMemHandleTypeNone cannot be imported", "handle_type")
    try:
        shared = _SharedPoolState(fd, owner=False)
    except (OSError, ValueError, OverflowError) as exc:
        raise OutOfMemoryError(f"descriptor {fd} maps no shared pool state: {exc}", arg="shared_handle") from None
    try:
        bits, access = shared.read()
    finally:
        shared.close()
    handle = _new_pool(get_device_object(0))
    pool = handle.target
    _set_state_bits(pool, bits)
    devices = rocmath.get_device_count()
    pool.access.update({d: fl for d, fl in access.items() if 0 <= d < devices})
    return handle


# --- 3D and parameter-struct copies and fills ------------------------------------------------------------------


def _memory_type(name: str) -> int:
    return int(_h.hipMemoryType[name])


@dataclass
class _Copy:
    """One side of a copy as HIP_MEMCPY3D describes it."""

    x: int
    y: int
    z: int
    type: int
    host: int
    device: int
    array: int
    pitch: int
    height: int


def _sides_3d(c: Any) -> tuple[_Copy, _Copy, tuple[int, int, int]]:
    """The sides and extent of a ``HIP_MEMCPY3D``."""
    src, dst = (_Copy(getattr(c, f"{s}XInBytes"), getattr(c, f"{s}Y"), getattr(c, f"{s}Z"),
                      getattr(c, f"{s}MemoryType"), getattr(c, f"{s}Host") or 0, getattr(c, f"{s}Device") or 0,
                      getattr(c, f"{s}Array") or 0, getattr(c, f"{s}Pitch"), getattr(c, f"{s}Height"))
                for s in ("src", "dst"))
    return src, dst, (c.WidthInBytes, c.Height, c.Depth)


def _sides_2d(c: Any) -> tuple[_Copy, _Copy, tuple[int, int, int]]:
    """The sides and extent of a ``hip_Memcpy2D`` made 3D (HIP's getDrvMemcpy3DDesc: a zero pitch is the row's
    end, one slice)."""
    sides = [_Copy(getattr(c, f"{s}XInBytes"), getattr(c, f"{s}Y"), 0, getattr(c, f"{s}MemoryType"),
                   getattr(c, f"{s}Host") or 0, getattr(c, f"{s}Device") or 0, getattr(c, f"{s}Array") or 0,
                   getattr(c, f"{s}Pitch") or _wrap(getattr(c, f"{s}XInBytes") + c.WidthInBytes), 0)
             for s in ("src", "dst")]
    return sides[0], sides[1], (c.WidthInBytes, c.Height, 1)


#: hipMemcpyKind -> the memory types of its (source, destination) (HIP's getMemoryType).
_KIND_TYPES = {0: ("Host", "Host"), 1: ("Host", "Device"), 2: ("Device", "Host"), 3: ("Device", "Device"),
               1024: ("Device", "Device"), 4: ("Unified", "Unified")}


def _sides_params(p: Any) -> tuple[_Copy, _Copy, tuple[int, int, int]]:
    """The sides and extent of a validated ``hipMemcpy3DParms`` (HIP's getDrvMemcpy3DDesc): an array side's x
    position and the width are elements of its array (of the destination array when both are), and a layered
    1D array takes its layers as rows (HIP swaps its side's y and z, and the extent's height and depth)."""
    types = _KIND_TYPES[p.kind]
    sides, sizes, layered = [], [], False
    for pos, ptr, array, t in ((p.srcPos, p.srcPtr, p.srcArray, types[0]), (p.dstPos, p.dstPtr, p.dstArray, types[1])):
        if array:
            arr = _live_array(array)
            side = _Copy(_wrap(pos.x * arr.element_size), pos.y, pos.z, _memory_type("hipMemoryTypeArray"), 0, 0,
                         array, 0, 0)
            if arr.flags & 0x01 and not arr.height:  # hipArrayLayered, 1D
                side.y, side.z, layered = side.z, side.y, True
            sizes.append(arr.element_size)
        else:
            side = _Copy(pos.x, pos.y, pos.z, _memory_type(f"hipMemoryType{t}"), ptr.ptr or 0, ptr.ptr or 0, 0,
                         ptr.pitch, ptr.ysize)
        sides.append(side)
    e = p.extent
    width = _wrap(e.width * sizes[-1]) if sizes else e.width
    extent = (width, e.depth, e.height) if layered else (width, e.height, e.depth)
    return sides[0], sides[1], extent


def _live_array(handle: int) -> Any:
    """The array a ``hipMemcpy3DParms`` side names (``hipErrorInvalidValue`` for one no live array has, which
    HIP would read blindly)."""
    arr = _target(handle, _h.hipArray)
    if not arr:
        raise _invalid("an array side names no live array", "p")
    return arr


def _memobj(address: int) -> tuple[int, int] | None:
    """``(offset into it, size)`` of the memory object (allocation or registered range) holding ``address``."""
    if address == 0:
        return None
    known = _h._known(address)
    if known is None:
        return None
    _, offset, what = known
    return offset, (what.size if isinstance(what, _h._Registered) else what.nbytes)


@dataclass
class _Rect:
    """HIP's amd::BufferRect: row and slice pitch, the start and the (relative) end of a region."""

    row: int
    slice: int
    start: int
    end: int


def _rect(side: _Copy, extent: tuple[int, int, int]) -> _Rect:
    """The region one side of a copy covers; ``hipErrorInvalidValue`` when its pitches cannot hold it."""
    w, h, d = extent
    row = side.pitch or w
    slice_ = _wrap(side.pitch * side.height) or _wrap(row * h)
    rect = _Rect(row, slice_, _wrap(side.z * slice_ + side.y * row + side.x),
                 _wrap((d - 1) * slice_ + (h - 1) * row + w))
    if not (row >= w and slice_ >= _wrap(h * row) and slice_ % row == 0):
        raise _invalid(f"pitch {side.pitch} and height {side.height} cannot hold a {w}x{h}x{d} region", "pCopy")
    return rect


def _within(rect: _Rect, obj: tuple[int, int], arg: str) -> None:
    """The region must lie inside its memory object (HIP's validateRegion)."""
    offset, size = obj
    start = _wrap(rect.start + offset)
    if not (rect.end > 0 and start < size and start + rect.end <= size):
        raise _invalid(f"the region [{start}, +{rect.end}) runs past the {size} bytes of its allocation", arg)


def _resolve_type(side: _Copy) -> tuple[str, int]:
    """The side's memory type after HIP's ihipCopyMemParamSet, and its address: memory the runtime knows is copied
    as device memory, other memory as (pageable) host memory."""
    kind = _h.hipMemoryType(side.type).name.removeprefix("hipMemoryType") if side.type in \
        {int(m) for m in _h.hipMemoryType} else "?"
    if kind == "Unified":
        return ("Device", side.device) if _memobj(side.device) is not None else ("Host", side.device)
    if kind == "Host":
        return ("Device", side.host) if _memobj(side.host) is not None else ("Host", side.host)
    return kind, side.device


def _strided(flat: np.ndarray, rect: _Rect, extent: tuple[int, int, int]) -> np.ndarray:
    """The ``depth x height x width`` bytes a region covers, as a view of a flat byte array starting at 0."""
    w, h, d = extent
    return np.lib.stride_tricks.as_strided(flat[rect.start:], shape=(d, h, w), strides=(rect.slice, rect.row, 1))


def _check_sides(src: _Copy, dst: _Copy, extent: tuple[int, int, int],
                 arg: str) -> tuple[tuple[str, int, _Rect], tuple[str, int, _Rect]]:
    """HIP's checks of a (non-empty) region copy's sides, in ihipMemcpyParam3D's order: ``(memory type, address,
    region)`` of the source and the destination; ``hipErrorInvalidValue`` for an array side, a NULL side, a
    side named device memory the runtime does not know, pitches that cannot hold the region or a region past
    its allocation."""
    (stype, saddr), (dtype, daddr) = _resolve_type(src), _resolve_type(dst)
    if {stype, dtype} - {"Host", "Device", "Array"}:
        raise _invalid("a memory type names no memory", arg)
    if "Array" in (stype, dtype):
        return _array_sides(src, dst, extent, (stype, saddr), (dtype, daddr), arg)
    if stype == "Host" and dtype == "Host":
        if saddr == 0 or daddr == 0:
            raise _invalid("srcHost and dstHost must be non-NULL", arg)
        srect, drect = _rect(src, extent), _rect(dst, extent)
    else:
        sobj = _memobj(saddr) if stype == "Device" else None
        dobj = _memobj(daddr) if dtype == "Device" else None
        if (sobj is None if stype == "Device" else saddr == 0) or (dobj is None if dtype == "Device" else daddr == 0):
            raise _invalid("a side is NULL, or device memory the runtime does not know", arg)
        srect = _rect(src, extent)
        if sobj is not None:
            _within(srect, sobj, arg)
        drect = _rect(dst, extent)
        if dobj is not None:
            _within(drect, dobj, arg)
    return (stype, saddr, srect), (dtype, daddr, drect)


def _array_sides(src: _Copy, dst: _Copy, extent: tuple[int, int, int], s: tuple[str, int], d: tuple[str, int],
                 arg: str) -> tuple[tuple[str, int, _Rect], tuple[str, int, _Rect]]:
    """A copy with an array side (HIP's ihipMemcpy{HtoA,AtoH,DtoA,AtoD,AtoA}Validate): the array's storage is a
    device side (:func:`._hip_arrays.array_side`), the other side checked as HIP checks it there."""
    from ._hip_arrays import array_side

    sides = []
    for side, (kind, address) in ((src, s), (dst, d)):
        if kind == "Array":
            ptr, rect = array_side(side, extent, arg)
            sides.append(("Device", ptr, rect))
            continue
        if address == 0 or (kind == "Device" and _memobj(address) is None):
            raise _invalid("a side is NULL, or device memory the runtime does not know", arg)
        rect = _rect(side, extent)
        if kind == "Device":
            _within(rect, _memobj(address), arg)  # type: ignore[arg-type]
        sides.append((kind, address, rect))
    return sides[0], sides[1]


def check_copy_2d(dst: int, dpitch: int, src: int, spitch: int, width: int, height: int, kind: int) -> None:
    """The checks ``hipMemcpy2D`` makes of its sides once its width fits both pitches (HIP's ihipMemcpy2D: a
    ``hip_Memcpy2D`` of the two pointers, with the memory types ``kind`` names, copied by ihipMemcpyParam3D)."""
    types = _KIND_TYPES[kind]
    sides = [_Copy(0, 0, 0, _memory_type(f"hipMemoryType{t}"), address, address, 0, pitch, 0)
             for t, address, pitch in ((types[0], src, spitch), (types[1], dst, dpitch))]
    _check_sides(sides[0], sides[1], (width, height, 1), "dst")


def _memcpy_param_3d(src: _Copy, dst: _Copy, extent: tuple[int, int, int], stream: Any, is_async: bool,
                     op: str) -> None:
    """HIP's ihipMemcpyParam3D: check the stream and the sides, then copy the region as one stream task."""
    s = _stream_or_destroyed(stream)
    w, h, d = extent
    if w == 0 or h == 0 or d == 0:
        return
    array = _target(dst.array if dst.type == _memory_type("hipMemoryTypeArray") else src.array, _h.hipArray) \
        if _memory_type("hipMemoryTypeArray") in (src.type, dst.type) else None
    if array:  # HIP copies whole elements of an array
        extent = (w // array.element_size * array.element_size, h, d)
    (_, saddr, srect), (dtype, daddr, drect) = _check_sides(src, dst, extent, "pCopy")
    original = {int(src.type), int(dst.type)}
    wait = not is_async and original != {_memory_type("hipMemoryTypeDevice")}
    _copy_regions(daddr, drect, saddr, srect, extent, s, wait or dtype == "Host", op)


def _copy_regions(dst: int, drect: _Rect, src: int, srect: _Rect, extent: tuple[int, int, int], stream: Stream,
                  wait: bool, op: str) -> None:
    """Copy a region as one task on ``stream`` (a pageable source staged at the call), waiting when ``wait``."""
    w, h, d = extent
    d_extent, s_extent = drect.start + drect.end, srect.start + srect.end
    dside = _memory._side(_h._copy_side(dst, d_extent, "dst"), d_extent, op, "dst", writable=True)
    sside = _memory._side(_h._copy_side(src, s_extent, "src"), s_extent, op, "src", writable=False)
    if not wait and sside.pageable:
        sside = _memory._Side(None, sside.nbytes_view(s_extent).copy())

    def run() -> None:
        np.copyto(_strided(dside.nbytes_view(d_extent), drect, extent),
                  _strided(sside.nbytes_view(s_extent), srect, extent))
        for side in (dside, sside):
            if side.span is not None:
                side.span.alloc.last_op = op

    nbytes = w * h * d
    done = stream.enqueue(run, op, keep=(dside, sside), inline=nbytes <= _memory._INLINE_BYTES,
                          info=_memory._copy_info(dside, sside, nbytes))
    if wait or dside.pageable:
        done.wait()


def _stream_or_destroyed(stream: Any) -> Stream:
    """A stream argument the copy functions check as HIP's isValid does: ``hipErrorContextIsDestroyed``."""
    return _h._valid_stream(stream)  # type: ignore[no-any-return]


def _param_2d(pCopy: Any, stream: Any, is_async: bool, op: str) -> None:
    c = _read_struct(hip_Memcpy2D, pCopy, "pCopy")
    if c is None:
        raise _invalid("pCopy is NULL", "pCopy")
    _memcpy_param_3d(*_sides_2d(c), stream, is_async, op)


@_public()
def hipMemcpyParam2D(pCopy: Any) -> None:
    """The 2D copy a :class:`hip_Memcpy2D` describes (offsets, memory types, pitches; a zero pitch is the row's
    end), synchronously.  Pageable memory is a host side, memory the runtime knows a device side whatever type is
    named; a region past its allocation, pitches that cannot hold it or a side without memory are
    ``hipErrorInvalidValue``."""
    _param_2d(pCopy, None, False, "hipMemcpyParam2D")


@_public()
def hipMemcpyParam2DAsync(pCopy: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpyParam2D`."""
    _param_2d(pCopy, stream, True, "hipMemcpyParam2DAsync")


@_public()
def hipDrvMemcpy2DUnaligned(pCopy: Any) -> None:
    """:func:`hipMemcpyParam2D` (the AMD runtime has no alignment constraint to relax)."""
    _param_2d(pCopy, None, False, "hipDrvMemcpy2DUnaligned")


def _drv_3d(pCopy: Any, stream: Any, is_async: bool, op: str) -> None:
    c = _read_struct(HIP_MEMCPY3D, pCopy, "pCopy")
    if c is None:
        raise _invalid("pCopy is NULL", "pCopy")
    _memcpy_param_3d(*_sides_3d(c), stream, is_async, op)


@_public()
def hipDrvMemcpy3D(pCopy: Any) -> None:
    """The 3D copy a :class:`HIP_MEMCPY3D` describes (a slice is ``pitch * height`` bytes; a zero height makes
    slices ``pitch * Height``), synchronously; checked as :func:`hipMemcpyParam2D`."""
    _drv_3d(pCopy, None, False, "hipDrvMemcpy3D")


@_public()
def hipDrvMemcpy3DAsync(pCopy: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipDrvMemcpy3D`."""
    _drv_3d(pCopy, stream, True, "hipDrvMemcpy3DAsync")


#: The largest pitch a 3D copy takes (HIP: below min(maxMemAllocSize, INT32_MAX)).
_MAX_PITCH = (1 << 31) - 1


def _check_params(p: Any) -> None:
    """HIP's ihipMemcpy3D_validate, in its order."""
    if (p.srcArray and p.srcPtr.ptr) or (p.dstArray and p.dstPtr.ptr):
        raise _invalid("a side names both an array and a pointer", "p")
    if (not p.srcArray and not p.srcPtr.ptr) or (not p.dstArray and not p.dstPtr.ptr):
        raise _invalid("each side needs an array or a pointer", "p")
    if p.srcArray and p.dstArray and _live_array(p.srcArray).element_size != _live_array(p.dstArray).element_size:
        raise _invalid("two arrays of different element sizes", "p")
    if p.srcPtr.pitch < p.srcPtr.xsize or p.dstPtr.pitch < p.dstPtr.xsize:
        raise StatusError("hipErrorInvalidPitchValue", "a pitch is smaller than its row width (xsize)", arg="p")
    if p.dstPtr.pitch >= _MAX_PITCH or p.srcPtr.pitch >= _MAX_PITCH:
        raise _invalid(f"pitches must be below {_MAX_PITCH}", "p")
    if not p.srcArray and not p.dstArray:  # HIP checks the pointers' bounds here only without arrays
        e = p.extent
        if _wrap(e.width + p.dstPos.x) > p.dstPtr.pitch or _wrap(e.width + p.srcPos.x) > p.srcPtr.pitch:
            raise _invalid("the extent's width from its position runs past a pitch", "p")
        total = _wrap(e.width * e.height * e.depth)
        for ptr, pos in ((p.dstPtr, p.dstPos), (p.srcPtr, p.srcPos)):
            obj = _memobj(ptr.ptr or 0)
            if obj is None or ptr.xsize == 0 or ptr.ysize == 0:
                continue
            alloc = address_space.find(resolve(ptr.ptr).address)
            shape = _h._pitch_shapes.get(alloc.ptr) if alloc is not None else None
            if shape is None:  # linear memory: its depth in xsize x ysize slices
                depth = obj[1] // _wrap(ptr.xsize * ptr.ysize)
                room = _wrap(ptr.xsize * _wrap(ptr.ysize - pos.y) * _wrap(depth - pos.z))
            else:
                pitch, _, height, depth = shape
                room = _wrap(pitch * _wrap(height - pos.y) * _wrap(depth - pos.z))
            if room < total:
                raise _invalid("the extent runs past the pitched allocation", "p")
    if p.kind > 4 and p.kind != 1024:
        raise InvalidMemcpyDirectionError(f"{p.kind} is no hipMemcpyKind", arg="p")
    src, dst = p.srcPtr.ptr or 0, p.dstPtr.ptr or 0
    if src and dst and _memobj(src) is None and _memobj(dst) is None and p.kind not in (0, 4):
        # the device does not reach pageable memory (xnack-): host-to-host copies only as such
        raise _invalid("two pageable host sides need hipMemcpyHostToHost or hipMemcpyDefault", "p")


def _memcpy_3d(p: Any, stream: Any, is_async: bool, op: str) -> None:
    c = _read_struct(hipMemcpy3DParms, p, "p")
    if c is None:
        raise _invalid("p is NULL", "p")
    _check_params(c)
    _memcpy_param_3d(*_sides_params(c), stream, is_async, op)


@_public()
def hipMemcpy3D(p: Any) -> None:
    """The 3D copy a :class:`hipMemcpy3DParms` describes: ``extent.width`` bytes by ``height`` rows by ``depth``
    slices, from ``srcPtr`` at ``srcPos`` to ``dstPtr`` at ``dstPos`` (rows ``pitch`` bytes apart, slices
    ``pitch * ysize``); the bytes between them stay as they were.  A side may instead be an array
    (``srcArray``/``dstArray``, reached through the raw struct as in hip-python): its ``x`` position and the
    extent's width then count its elements (the destination array's when both are arrays).  Checked as HIP checks
    it: a side needs exactly one of an array and a pointer and two arrays the same element size
    (``hipErrorInvalidValue``), a pitch below its ``xsize`` is ``hipErrorInvalidPitchValue``, a width past a pitch
    or an extent past a pitched allocation (checked when no side is an array) ``hipErrorInvalidValue``, a bad kind
    ``hipErrorInvalidMemcpyDirection``; a region past an array is ``hipErrorInvalidValue``."""
    _memcpy_3d(p, None, False, "hipMemcpy3D")


@_public()
def hipMemcpy3DAsync(p: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipMemcpy3D` (a pageable source is staged at the call, a pageable destination makes
    the call wait, as in HIP)."""
    _memcpy_3d(p, stream, True, "hipMemcpy3DAsync")


@_public()
def hipMemcpy3D_spt(p: Any) -> None:
    """:func:`hipMemcpy3D` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _memcpy_3d(p, s, False, "hipMemcpy3D_spt"))


def _memset_3d(pitchedDevPtr: Any, value: int, extent: Any, stream: Any, is_async: bool, op: str) -> None:
    """HIP's ihipMemset3D of the structs' members (:func:`memset_pitched`)."""
    ps, ext = _read_struct(hipPitchedPtr, pitchedDevPtr, "pitchedDevPtr"), _read_struct(hipExtent, extent, "extent")
    byte = _h._c_typed(value, "value", "int") & 0xFF
    if ps is None or ext is None:
        raise _invalid("pitchedDevPtr and extent are passed by value: they cannot be NULL",
                       "extent" if ps is not None else "pitchedDevPtr")
    memset_pitched(ps.ptr or 0, ps.pitch, ps.xsize, ps.ysize, (ext.width, ext.height, ext.depth), byte, stream,
                   is_async, op, "pitchedDevPtr")


def memset_pitched(ptr: Any, pitch: int, xsize: int, ysize: int, extent: tuple[int, int, int], byte: int,
                   stream: Any, is_async: bool, op: str, arg: str) -> None:
    """HIP's ihipMemset3D (``hipMemset3D``, and ``hipMemset2D`` as the one slice ``{dst, pitch, width, height}``
    of ``{width, height, 1}``): check the fill, then set it as one task on the stream."""
    s = _h._as_stream(stream)
    w, h, d = extent
    size_bytes = _wrap(w * h * d)
    if size_bytes == 0:
        return
    obj = _memobj(resolve(ptr).address)
    if obj is None or size_bytes > obj[1] - obj[0]:
        raise _invalid("no memory of the runtime holding width * height * depth bytes", arg)
    alloc = address_space.find(resolve(ptr).address)
    shape = _h._pitch_shapes.get(alloc.ptr) if alloc is not None else None
    if pitch == (shape[0] if shape else 0) and h > (shape[2] if shape else 0):
        raise _invalid("the extent's height exceeds the pitched allocation's", "extent")
    if pitch == w:  # one contiguous run (slices of extent.height rows)
        rect, region = _Rect(w, w * h, 0, size_bytes), (size_bytes, 1, 1)
    else:
        if pitch == 0 or pitch < xsize:
            raise _invalid("the pitch is 0 or smaller than xsize", arg)
        rect, region = _Rect(pitch, _wrap(pitch * ysize), 0, 0), (w, h, d)
        rect.end = (d - 1) * rect.slice + (h - 1) * rect.row + w
    extent_bytes = rect.end if pitch != w else size_bytes
    side = _memory._side(_h._copy_side(ptr, extent_bytes, "dst"), extent_bytes, op, "dst", writable=True)

    def run() -> None:
        _strided(side.nbytes_view(extent_bytes), rect, region).fill(byte)
        if side.span is not None:
            side.span.alloc.last_op = op

    device_memory = side.span is not None and side.span.alloc.kind is MemoryKind.DEVICE
    done = s.enqueue(run, op, keep=side, inline=size_bytes <= _memory._INLINE_BYTES,
                     info={"cat": "memset", "bytes": size_bytes})
    if not is_async and not (obj[0] == 0 and device_memory):  # HIP waits but for device memory at its start
        done.wait()


@_public()
def hipMemset3D(pitchedDevPtr: Any, value: int, extent: Any) -> None:
    """Set ``extent.width`` bytes by ``height`` rows by ``depth`` slices of a :class:`hipPitchedPtr` (rows
    ``pitch`` bytes apart, slices ``pitch * ysize``) to ``value & 0xFF``; with ``pitch == extent.width`` the
    ``width * height * depth`` bytes from ``ptr`` (HIP's fast path).  Memory the runtime does not know, fewer than
    ``width * height * depth`` bytes left in the allocation, a height beyond a pitched allocation's or a pitch below
    ``xsize`` are ``hipErrorInvalidValue``."""
    _memset_3d(pitchedDevPtr, value, extent, None, False, "hipMemset3D")


@_public()
def hipMemset3DAsync(pitchedDevPtr: Any, value: int, extent: Any, stream: Any) -> None:
    """Stream-ordered :func:`hipMemset3D`."""
    _memset_3d(pitchedDevPtr, value, extent, stream, True, "hipMemset3DAsync")


@_public()
def hipMemset3D_spt(pitchedDevPtr: Any, value: int, extent: Any) -> None:
    """:func:`hipMemset3D` on the calling thread's default stream."""
    _per_thread_synchronously(lambda s: _memset_3d(pitchedDevPtr, value, extent, s, False, "hipMemset3D_spt"))


@_public()
def hipMalloc3D(pitchedDevPtr: Any, extent: Any) -> None:
    """Device memory for ``extent.depth`` slices of ``height`` rows of ``width`` bytes, written into the
    :class:`hipPitchedPtr` ``pitchedDevPtr``: ``ptr``, ``pitch`` (the width rounded up to 256 bytes, as
    :func:`hipMallocPitch`), ``xsize`` (the width) and ``ysize`` (the height).  A zero extent allocates nothing
    (``ptr`` NULL, ``pitch`` 0); a NULL ``pitchedDevPtr`` is ``hipErrorInvalidValue``."""
    out = _read_struct(hipPitchedPtr, pitchedDevPtr, "pitchedDevPtr")
    ext = _read_struct(hipExtent, extent, "extent")
    if out is None:
        raise _invalid("pitchedDevPtr is NULL", "pitchedDevPtr")
    if ext is None:
        raise _invalid("extent is passed by value: it cannot be NULL", "extent")
    w, h, d = ext.width, ext.height, ext.depth
    if w > _U64 - _h.PITCH_ALIGNMENT:
        raise _invalid(f"a width of {w} bytes overflows the pitch", "extent")
    ptr, pitch = _h._pitched(w, h, d)
    out.ptr, out.pitch, out.xsize, out.ysize = (int(ptr) if ptr else None), pitch, w, h


# --- contexts: a device's primary context is the device (hip_context.cpp) --------------------------------------

_contexts: weakref.WeakKeyDictionary[Device, ihipCtx_t] = weakref.WeakKeyDictionary()
_contexts_lock = threading.Lock()


class _ContextStack(threading.local):
    stack: list[Device] | None = None


_context_stack = _ContextStack()


def _stack() -> list[Device]:
    stack = _context_stack.stack
    if stack is None:
        stack = _context_stack.stack = []
    return stack


def _forget_retired(table: weakref.WeakKeyDictionary[Device, Any]) -> None:
    """Drop the entries (and their handles) of devices ``rocmath.configure`` replaced (the values would keep them
    alive)."""
    for device in [d for d in list(table.keys()) if d.retired]:
        handle = table.pop(device, None)
        if isinstance(handle, _Handle):
            handle._release()


def _context(device: Device) -> ihipCtx_t:
    """The handle of a device's (primary) context."""
    with _contexts_lock:
        ctx = _contexts.get(device)
        if ctx is None:
            _forget_retired(_contexts)
            ctx = _contexts[device] = ihipCtx_t._new(device)
        return ctx


def _context_device(ctx: Any, arg: str = "ctx") -> Device | None:
    """The device a ``hipCtx_t`` stands for (None for NULL).  HIP casts any other pointer to a device; here it is
    ``hipErrorInvalidContext``."""
    device = _target(ctx, ihipCtx_t)
    if device is False or (device is not None and device.retired):
        raise StatusError("hipErrorInvalidContext", "ctx is no device context", arg=arg)
    return device  # type: ignore[no-any-return]


def _set_device_flags(device: Device, flags: int) -> None:
    """The flags :func:`hipGetDeviceFlags` reports for ``device`` (hip.py keeps them per device)."""
    with _h._settings_lock:
        _h._device_settings.setdefault(device, {"flags": _h._DEFAULT_FLAGS, "stack": _h._DEFAULT_STACK,
                                                "heap": _h._DEFAULT_HEAP})["flags"] = flags


@_public(1)
def hipCtxCreate(flags: int, device: int) -> ihipCtx_t:
    """The primary context of ``device``, pushed on the calling thread's context stack (the current device is
    unchanged, as in HIP); ``flags`` become the device's flags.  No such device is ``hipErrorInvalidValue``."""
    f = _uint(flags, "flags", "unsigned int")
    dev = get_device_object(_device_below_count(device))
    _set_device_flags(dev, f)
    _stack().append(dev)
    return _context(dev)


@_public()
def hipCtxDestroy(ctx: Any) -> None:
    """Release a context: popped when it is the top of the calling thread's stack (a primary context lives on).
    NULL is ``hipErrorInvalidValue``."""
    if pointer_value(ctx) == 0:
        raise _invalid("ctx is NULL", "ctx")
    device = _target(ctx, ihipCtx_t)
    stack = _stack()
    if device and stack and stack[-1] is device:
        stack.pop()


@_public()
def hipCtxSetCurrent(ctx: Any) -> None:
    """Replace the top of the calling thread's context stack with ``ctx`` and make its device current (NULL only
    pops)."""
    device = _context_device(ctx)
    stack = _stack()
    if device is not None:
        rocmath.set_device(device.index)
    if stack:
        stack.pop()
    if device is not None:
        stack.append(device)


@_public(1)
def hipCtxGetCurrent() -> ihipCtx_t:
    """The context of the calling thread's current device."""
    return _context(get_device_object())


@_public()
def hipCtxPushCurrent(ctx: Any) -> None:
    """Make ``ctx``'s device current and push it on the calling thread's context stack (NULL:
    ``hipErrorInvalidContext``)."""
    device = _context_device(ctx)
    if device is None:
        raise StatusError("hipErrorInvalidContext", "ctx is NULL", arg="ctx")
    rocmath.set_device(device.index)
    _stack().append(device)


@_public(1)
def hipCtxPopCurrent() -> ihipCtx_t:
    """Pop the calling thread's context stack and return the context popped (the current device stays, as in
    HIP); an empty stack is ``hipErrorInvalidContext``."""
    stack = _stack()
    if not stack:
        raise StatusError("hipErrorInvalidContext", "the context stack is empty")
    return _context(stack.pop())


@_public(1)
def hipCtxGetDevice() -> int:
    """The device of the current context (the current device)."""
    return rocmath.get_device()


@_public(1)
def hipCtxGetSharedMemConfig() -> Any:
    """``hipSharedMemBankSizeFourByte``, the AMD devices' bank width."""
    return hipSharedMemConfig.hipSharedMemBankSizeFourByte


def _unsupported(what: str) -> HipNotSupportedError:
    return HipNotSupportedError(f"{what} is not supported by the AMD runtime")


@_public(1)
def hipCtxGetApiVersion(ctx: Any) -> int:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    raise _unsupported("hipCtxGetApiVersion")


@_public(1)
def hipCtxGetCacheConfig() -> Any:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    raise _unsupported("hipCtxGetCacheConfig")


@_public()
def hipCtxSetCacheConfig(cacheConfig: Any) -> None:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    check_enum(cacheConfig, hipFuncCache_t, "cacheConfig")
    raise _unsupported("hipCtxSetCacheConfig")


@_public()
def hipCtxSetSharedMemConfig(config: Any) -> None:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    check_enum(config, hipSharedMemConfig, "config")
    raise _unsupported("hipCtxSetSharedMemConfig")


@_public()
def hipCtxSynchronize() -> None:
    """``hipErrorNotSupported`` (as in the AMD runtime: use :func:`hipDeviceSynchronize`)."""
    raise _unsupported("hipCtxSynchronize")


@_public(1)
def hipCtxGetFlags() -> int:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    raise _unsupported("hipCtxGetFlags")


@_public()
def hipCtxEnablePeerAccess(peerCtx: Any, flags: int) -> None:
    """Accepted and ignored, as in the AMD runtime (:func:`hipDeviceEnablePeerAccess` does the work)."""
    _uint(flags, "flags", "unsigned int")


@_public()
def hipCtxDisablePeerAccess(peerCtx: Any) -> None:
    """Accepted and ignored, as in the AMD runtime (:func:`hipDeviceDisablePeerAccess` does the work)."""


def _device_unsigned(dev: Any, arg: str = "dev") -> Device:
    """A device argument HIP compares with the count as unsigned: ``hipErrorInvalidDevice`` beyond."""
    index = _h._c_typed(dev, arg, "int")
    if not 0 <= index < rocmath.get_device_count():
        raise InvalidDeviceError(f"device {index} does not exist", arg=arg)
    return get_device_object(index)


_active: weakref.WeakSet[Device] = weakref.WeakSet()


def _device_active(device: Device) -> bool:
    """Whether work was ever queued on the device (HIP's GetActiveStatus: a stream of it was used), sticky."""
    if device in _active:
        return True
    null = device._null_stream
    states = [null._state] if null is not None else []
    if device.streams is not None:
        states += [ref() for ref in device.streams.data.copy()]
    if any(st is not None and st.last is not None for st in states):
        _active.add(device)
        return True
    return False


@_public(2)
def hipDevicePrimaryCtxGetState(dev: int) -> tuple[int, int]:
    """``(flags, active)`` of a device's primary context: flags 0 (as the AMD runtime reports), active 1 once
    work was queued on the device."""
    device = _device_unsigned(dev)
    return 0, int(_device_active(device))


@_public()
def hipDevicePrimaryCtxRelease(dev: int) -> None:
    """Accepted (the primary context lives with the device); no such device is ``hipErrorInvalidDevice``."""
    _device_unsigned(dev)


@_public(1)
def hipDevicePrimaryCtxRetain(dev: int) -> ihipCtx_t:
    """The primary context of ``dev`` (``hipErrorInvalidDevice`` for no such device)."""
    return _context(_device_unsigned(dev))


@_public()
def hipDevicePrimaryCtxReset(dev: int) -> None:
    """Accepted, whatever the device (as in the AMD runtime)."""
    _h._c_typed(dev, "dev", "int")


@_public()
def hipDevicePrimaryCtxSetFlags(dev: int, flags: int) -> None:
    """``hipErrorContextAlreadyInUse`` (the primary context is always active in the AMD runtime);
    ``hipErrorInvalidDevice`` for no such device."""
    _uint(flags, "flags", "unsigned int")
    _device_unsigned(dev)
    raise StatusError("hipErrorContextAlreadyInUse", "the primary context is active")


# --- device queries ----------------------------------------------------------------------------------------------

#: hipDeviceProp_t members hipChooseDevice compares (a device matches when it has at least the value asked).
_CHOOSE_FIELDS = ("major", "minor", "totalGlobalMem", "sharedMemPerBlock", "maxThreadsPerBlock", "totalConstMem",
                  "multiProcessorCount", "maxThreadsPerMultiProcessor", "memoryClockRate", "memoryBusWidth",
                  "l2CacheSize", "regsPerBlock", "maxSharedMemoryPerMultiProcessor", "warpSize")


@_public(1)
def hipChooseDevice(prop: Any) -> int:
    """The device that best matches the non-zero members of ``prop`` (a :class:`hipDeviceProp_t`) among
    ``major``, ``minor``, ``totalGlobalMem``, ``sharedMemPerBlock``, ``maxThreadsPerBlock``, ``totalConstMem``,
    ``multiProcessorCount``, ``maxThreadsPerMultiProcessor``, ``memoryClockRate``, ``memoryBusWidth``,
    ``l2CacheSize``, ``regsPerBlock``, ``maxSharedMemoryPerMultiProcessor`` and ``warpSize``: the first one
    meeting all of them with most of them set, else 0.  NULL is ``hipErrorInvalidValue``."""
    if prop is None:
        raise _invalid("prop is NULL", "prop")
    if not isinstance(prop, _h.hipDeviceProp_t):
        raise TypeError("argument 'prop' must be of type 'hipDeviceProp_t'")
    best, most = 0, 0
    for i in range(rocmath.get_device_count()):
        values = _h._property_values(i)
        wanted = [(name, int(getattr(prop, name, 0) or 0)) for name in _CHOOSE_FIELDS]
        wanted = [(name, v) for name, v in wanted if v != 0]
        matched = sum(1 for name, v in wanted if int(values[name]) >= v)
        if matched == len(wanted):
            best = i if matched > most else best
            most = max(most, matched)
    return best


def _pci_fields(device: int) -> tuple[int, int, int, int]:
    """(domain, bus, device, function) of a device, as hipDeviceProp_t reports them (function 0)."""
    p = get_device_properties(device)
    return p.pciDomainID, p.pciBusID, p.pciDeviceID, 0


@_public(None)
def hipDeviceGetPCIBusId(len: int, device: int) -> tuple[Any, CStr | None]:
    """``domain:bus:device.function`` of ``device`` (``%04x:%02x:%02x.%01x`` of its hipDeviceProp_t's PCI
    members), at most ``len - 1`` characters.  No such device is ``hipErrorInvalidDevice``; a ``len`` of 12 or less
    is ``hipErrorInvalidValue`` with the truncated string still returned, as HIP still writes it."""
    n = _h._c_typed(len, "len", "int")
    try:
        index = _h._device_index(device, "device")
    except HipError as exc:
        _h._record(_h._hip_status(exc))
        return (_h._hip_status(exc), None)
    text = "{:04x}:{:02x}:{:02x}.{:01x}".format(*_pci_fields(index))[: max(n - 1, 0)]
    if n <= 12:
        _h._record(_h.hipError_t.hipErrorInvalidValue)
        return (_h.hipError_t.hipErrorInvalidValue, CStr(text))
    return (_h.hipError_t.hipSuccess, CStr(text))


def _scan_hex(text: str, widths: tuple[int, ...], separators: str) -> list[int]:
    """What C's sscanf with ``%0Nx`` conversions separated by ``separators`` reads (stopping at the first
    mismatch)."""
    values: list[int] = []
    pos = 0
    for i, width in enumerate(widths):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        m = re.match(rf"[0-9a-fA-F]{{1,{width}}}", text[pos:])
        if m is None:
            break
        values.append(int(m.group(), 16))
        pos += m.end()
        if i < len(separators):
            if text[pos:pos + 1] != separators[i]:
                break
            pos += 1
    return values


@_public(1)
def hipDeviceGetByPCIBusId(pciBusId: Any) -> int:
    """The device whose PCI ``domain:bus:device.function`` is ``pciBusId`` (read as ``%04x:%02x:%02x.%01x``);
    NULL, an id that does not parse or that no device has is ``hipErrorInvalidValue``."""
    if pciBusId is None or (not isinstance(pciBusId, (str, bytes, CStr)) and pointer_value(pciBusId) == 0):
        raise _invalid("pciBusId is NULL", "pciBusId")
    text = pciBusId.decode() if isinstance(pciBusId, (bytes, CStr)) else str(pciBusId) \
        if isinstance(pciBusId, str) else ctypes.string_at(pointer_value(pciBusId)).decode()
    fields = _scan_hex(text, (4, 2, 2, 1), "::.")
    if len(fields) == 4:
        for i in range(rocmath.get_device_count()):
            if _pci_fields(i) == tuple(fields):
                return i
    raise _invalid(f"no device has PCI bus id {text!r}", "pciBusId")


@_public(1)
def hipDeviceGetUuid(device: int) -> hipUUID_t:
    """The 16-byte UUID of ``device`` (what ``hipDeviceProp_t.uuid`` holds); no such device is
    ``hipErrorInvalidDevice``."""
    index = _h._device_index(device, "device")
    uuid = hipUUID_t()
    uuid._store.bytes = _h._property_values(index)["uuid"][:16].ljust(16, b"\0")
    return uuid


#: The link between two simulated devices: one xGMI hop (multi.py: the devices are one hive).  HSA's link type
#: numbering (HSA_AMD_LINK_INFO_TYPE_XGMI), and the ROCr NUMA distance of a direct xGMI link (15: one hop of 13).
_XGMI, _XGMI_DISTANCE, _XGMI_HOP = 4, 15, 13


def _link(device1: int, device2: int) -> tuple[int, int, int]:
    """(link type, hop count, atomic support) between two devices (HIP's findLinkInfo): none to itself."""
    n = rocmath.get_device_count()
    if not (0 <= device1 < n and 0 <= device2 < n):
        raise InvalidDeviceError(f"devices {device1}, {device2}: {n} device(s)", arg="device")
    if device1 == device2:
        return -1, 0, 1
    return _XGMI, _XGMI_DISTANCE // _XGMI_HOP, 1


@_public(2)
def hipExtGetLinkTypeAndHopCount(device1: int, device2: int) -> tuple[int, int]:
    """``(linktype, hopcount)`` between two distinct devices: HSA's xGMI link type (4) and one hop (the simulated
    devices are one xGMI hive).  The same device twice or a negative one is ``hipErrorInvalidValue``, one beyond
    the count ``hipErrorInvalidDevice``."""
    d1, d2 = _h._c_typed(device1, "device1", "int"), _h._c_typed(device2, "device2", "int")
    if d1 == d2 or d1 < 0 or d2 < 0:
        raise _invalid("two distinct, non-negative devices are needed", "device2" if d1 == d2 else "device1")
    kind, hops, _ = _link(d1, d2)
    return kind, hops


@_public(1)
def hipDeviceGetP2PAttribute(attr: Any, srcDevice: int, dstDevice: int) -> int:
    """An attribute of the link from ``srcDevice`` to ``dstDevice``: the performance rank (as HIP reports it: the
    link type), access supported (1: any two devices reach each other), native atomics (1), array access
    (access, for devices of one architecture).  The same device twice or one beyond the count is
    ``hipErrorInvalidDevice``."""
    check_enum(attr, hipDeviceP2PAttr, "attr")
    src, dst = _h._c_typed(srcDevice, "srcDevice", "int"), _h._c_typed(dstDevice, "dstDevice", "int")
    n = rocmath.get_device_count()
    if src == dst or src >= n or dst >= n:
        raise InvalidDeviceError(f"devices {src} and {dst} are no pair of {n} device(s)", arg="dstDevice")
    if attr in (hipDeviceP2PAttr.hipDevP2PAttrAccessSupported, hipDeviceP2PAttr.hipDevP2PAttrHipArrayAccessSupported):
        if src < 0 or dst < 0:
            raise InvalidDeviceError(f"device {min(src, dst)} does not exist", arg="srcDevice")
        if attr == hipDeviceP2PAttr.hipDevP2PAttrHipArrayAccessSupported and \
                get_device_properties(src).gcnArchName != get_device_properties(dst).gcnArchName:
            return 0
        return 1
    kind, _, atomics = _link(src, dst)
    return kind if attr == hipDeviceP2PAttr.hipDevP2PAttrPerformanceRank else atomics


@_public(1)
def hipDeviceGetCacheConfig() -> Any:
    """``hipFuncCachePreferNone`` (the AMD runtime has no cache configuration)."""
    return hipFuncCache_t.hipFuncCachePreferNone


@_public()
def hipDeviceSetCacheConfig(cacheConfig: Any) -> None:
    """Accepted and ignored, as in the AMD runtime (there is no cache configuration to set)."""
    check_enum(cacheConfig, hipFuncCache_t, "cacheConfig")


@_public(1)
def hipDeviceGetSharedMemConfig() -> Any:
    """``hipSharedMemBankSizeFourByte``, the AMD devices' bank width."""
    return hipSharedMemConfig.hipSharedMemBankSizeFourByte


@_public()
def hipDeviceSetSharedMemConfig(config: Any) -> None:
    """Accepted and ignored, as in the AMD runtime."""
    check_enum(config, hipSharedMemConfig, "config")


@_public(1)
def hipSetValidDevices(len: int) -> int:
    """``hipErrorNotSupported`` (as in the AMD runtime)."""
    _h._c_typed(len, "len", "int")
    raise _unsupported("hipSetValidDevices")


@_public(None)
def hipGetStreamDeviceId(stream: Any) -> tuple[Any, int]:
    """``(hipSuccess, device)``: the device of ``stream`` (the current device for NULL), -1 for no stream."""
    try:
        return (_h.hipError_t.hipSuccess, _h._as_stream(stream).device.index)
    except HipInvalidHandleError:
        return (_h.hipError_t.hipSuccess, -1)


_cu_masks: weakref.WeakKeyDictionary[Stream, list[int]] = weakref.WeakKeyDictionary()


def _default_cu_mask() -> list[int]:
    """All compute units of the current device, 32 per word."""
    cus = get_device_properties().multiProcessorCount
    return [(1 << min(32, cus - 32 * w)) - 1 for w in range(-(-cus // 32))]


@_public(1)
def hipExtStreamCreateWithCUMask(cuMaskSize: int, cuMask: Any = None) -> Any:
    """A new blocking stream restricted to the compute units whose bits ``cuMask`` (``cuMaskSize`` 32-bit words)
    sets; work runs alike (the simulation has no units to restrict), :func:`hipExtStreamGetCUMask` reports the
    mask.  A zero size or NULL mask is ``hipErrorInvalidValue``.  (hip-python 6.2 passes an uninitialized word for
    the mask; here it is an argument: a buffer or sequence of the words.)"""
    n = _uint(cuMaskSize, "cuMaskSize", "unsigned int")
    if n == 0 or cuMask is None:
        raise _invalid("cuMaskSize must be positive and cuMask non-NULL", "cuMask" if n else "cuMaskSize")
    if isinstance(cuMask, (list, tuple)):
        words = [int(w) & 0xFFFFFFFF for w in cuMask][:n]
        if len(words) < n:
            raise _invalid(f"cuMask holds {len(words)} words, not {n}", "cuMask")
    else:
        words = [int(w) for w in _lib.read_host(cuMask, np.uint32, n, "cuMask", _error)]
    stream = Stream()
    _cu_masks[stream] = words
    return _h.ihipStream_t._wrap(stream)


@_public(1)
def hipExtStreamGetCUMask(stream: Any, cuMaskSize: int, cuMask: Any = None) -> Any:
    """The CU mask of ``stream`` (the stream's own ANDed with the device's, the device's for NULL, the per-thread
    stream or a stream without one): written into ``cuMask`` when given, else returned as a list of
    ``cuMaskSize`` words.  A size below the device's words (one per 32 CUs) is ``hipErrorInvalidValue``."""
    n = _uint(cuMaskSize, "cuMaskSize", "unsigned int")
    default = _default_cu_mask()
    if n < len(default):
        raise _invalid(f"cuMaskSize {n} is below the {len(default)} words of the device's mask", "cuMaskSize")
    address = pointer_value(stream) if stream is not None else 0
    own = [] if address in (0, _h.hipStreamPerThread) else _cu_masks.get(_h._as_stream(stream), [])
    mask = [a & b for a, b in zip(own, default, strict=False)]
    if not any(mask):
        mask = default
    words = mask + [0] * (n - len(mask))
    if cuMask is not None:
        _lib.write_host(cuMask, words[: len(mask)], np.uint32, "cuMask", _error)
    return words


# --- errors ----------------------------------------------------------------------------------------------------

#: hipError_t -> the AMD runtime's description (hip_error.cpp's ihipGetErrorString); other codes read
#: "unknown error".
ERROR_STRINGS: dict[str, str] = {
    "hipSuccess": "no error", "hipErrorInvalidValue": "invalid argument", "hipErrorOutOfMemory": "out of memory",
    "hipErrorNotInitialized": "initialization error", "hipErrorDeinitialized": "driver shutting down",
    "hipErrorProfilerDisabled": "profiler disabled while using external profiling tool",
    "hipErrorProfilerNotInitialized": "profiler is not initialized",
    "hipErrorProfilerAlreadyStarted": "profiler already started",
    "hipErrorProfilerAlreadyStopped": "profiler already stopped",
    "hipErrorInvalidConfiguration": "invalid configuration argument",
    "hipErrorInvalidPitchValue": "invalid pitch argument", "hipErrorInvalidSymbol": "invalid device symbol",
    "hipErrorInvalidDevicePointer": "invalid device pointer",
    "hipErrorInvalidMemcpyDirection": "invalid copy direction for memcpy",
    "hipErrorInsufficientDriver": "driver version is insufficient for runtime version",
    "hipErrorMissingConfiguration": "__global__ function call is not configured",
    "hipErrorPriorLaunchFailure": "unspecified launch failure in prior launch",
    "hipErrorInvalidDeviceFunction": "invalid device function",
    "hipErrorNoDevice": "no ROCm-capable device is detected",
    "hipErrorInvalidDevice": "invalid device ordinal", "hipErrorInvalidImage": "device kernel image is invalid",
    "hipErrorInvalidContext": "invalid device context",
    "hipErrorContextAlreadyCurrent": "context is already current context",
    "hipErrorMapFailed": "mapping of buffer object failed", "hipErrorUnmapFailed": "unmapping of buffer object failed",
    "hipErrorArrayIsMapped": "array is mapped", "hipErrorAlreadyMapped": "resource already mapped",
    "hipErrorNoBinaryForGpu": "no kernel image is available for execution on the device",
    "hipErrorAlreadyAcquired": "resource already acquired", "hipErrorNotMapped": "resource not mapped",
    "hipErrorNotMappedAsArray": "resource not mapped as array",
    "hipErrorNotMappedAsPointer": "resource not mapped as pointer",
    "hipErrorECCNotCorrectable": "uncorrectable ECC error encountered",
    "hipErrorUnsupportedLimit": "limit is not supported on this architecture",
    "hipErrorContextAlreadyInUse": "exclusive-thread device already in use by a different thread",
    "hipErrorPeerAccessUnsupported": "peer access is not supported between these two devices",
    "hipErrorInvalidKernelFile": "invalid kernel file",
    "hipErrorInvalidGraphicsContext": "invalid OpenGL or DirectX context",
    "hipErrorInvalidSource": "device kernel image is invalid", "hipErrorFileNotFound": "file not found",
    "hipErrorSharedObjectSymbolNotFound": "shared object symbol not found",
    "hipErrorSharedObjectInitFailed": "shared object initialization failed",
    "hipErrorOperatingSystem": "OS call failed or operation not supported on this OS",
    "hipErrorInvalidHandle": "invalid resource handle",
    "hipErrorIllegalState": "the operation cannot be performed in the present state",
    "hipErrorNotFound": "named symbol not found", "hipErrorNotReady": "device not ready",
    "hipErrorIllegalAddress": "an illegal memory access was encountered",
    "hipErrorLaunchOutOfResources": "too many resources requested for launch",
    "hipErrorLaunchTimeOut": "the launch timed out and was terminated",
    "hipErrorPeerAccessAlreadyEnabled": "peer access is already enabled",
    "hipErrorPeerAccessNotEnabled": "peer access has not been enabled",
    "hipErrorSetOnActiveProcess": "cannot set while device is active in this process",
    "hipErrorContextIsDestroyed": "context is destroyed", "hipErrorAssert": "device-side assert triggered",
    "hipErrorHostMemoryAlreadyRegistered": "part or all of the requested memory range is already mapped",
    "hipErrorHostMemoryNotRegistered": "pointer does not correspond to a registered memory region",
    "hipErrorLaunchFailure": "unspecified launch failure",
    "hipErrorCooperativeLaunchTooLarge": "too many blocks in cooperative launch",
    "hipErrorNotSupported": "operation not supported",
    "hipErrorStreamCaptureUnsupported": "operation not permitted when stream is capturing",
    "hipErrorStreamCaptureInvalidated": "operation failed due to a previous error during capture",
    "hipErrorStreamCaptureMerge": "operation would result in a merge of separate capture sequences",
    "hipErrorStreamCaptureUnmatched": "capture was not ended in the same stream as it began",
    "hipErrorStreamCaptureUnjoined": "capturing stream has unjoined work",
    "hipErrorStreamCaptureIsolation": "dependency created on uncaptured work in another stream",
    "hipErrorStreamCaptureImplicit":
        "operation would make the legacy stream depend on a capturing blocking stream",
    "hipErrorCapturedEvent": "operation not permitted on an event last recorded in a capturing stream",
    "hipErrorStreamCaptureWrongThread": "attempt to terminate a thread-local capture sequence from another thread",
    "hipErrorGraphExecUpdateFailure": "the graph update was not performed because it included changes which "
                                      "violated constraints specific to instantiated graph update",
    "hipErrorRuntimeMemory": "runtime memory call returned error",
    "hipErrorRuntimeOther": "runtime call other than memory returned error", "hipErrorUnknown": "unknown error",
}


@_public(None)
def hipDrvGetErrorName(hipError: Any) -> tuple[Any, CStr]:
    """``(hipSuccess, name)`` of an error code (``"hipErrorInvalidValue"``)."""
    check_enum(hipError, _h.hipError_t, "hipError")
    return (_h.hipError_t.hipSuccess, CStr(_h.hipError_t(int(hipError)).name))


@_public(None)
def hipDrvGetErrorString(hipError: Any) -> tuple[Any, CStr]:
    """``(status, description)`` of an error code, the AMD runtime's words; a code it has no words for reads
    "unknown error" with ``hipErrorInvalidValue``."""
    check_enum(hipError, _h.hipError_t, "hipError")
    text = ERROR_STRINGS.get(_h.hipError_t(int(hipError)).name)
    if text is None:  # (not the thread's last error: hip_error.cpp returns it without HIP_RETURN)
        return (_h.hipError_t.hipErrorInvalidValue, CStr("unknown error"))
    return (_h.hipError_t.hipSuccess, CStr(text))


@_public(None)
def hipExtGetLastError() -> tuple[Any]:
    """As :func:`hipGetLastError`: the last error of the thread, then reset."""
    return _h.hipGetLastError()  # type: ignore[no-any-return]


@_public()
def hipProfilerStart() -> None:
    """``hipErrorNotSupported`` (deprecated in HIP: use roctracer; rocmath's :mod:`rocmath.trace` records a
    timeline)."""
    raise _unsupported("hipProfilerStart")


@_public()
def hipProfilerStop() -> None:
    """``hipErrorNotSupported`` (deprecated in HIP, as :func:`hipProfilerStart`)."""
    raise _unsupported("hipProfilerStop")


@_public(1)
def hipMemAllocHost(size: int) -> Pointer | None:
    """:func:`hipHostMalloc` with default flags (driver API)."""
    return _raw("hipHostMalloc")(_uint(size, "size"), 0)  # type: ignore[no-any-return]


# --- pointer attributes --------------------------------------------------------------------------------------------

#: Per memory object (keyed by its start; allocations also by their serial, addresses are not reused) the
#: ``HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS`` flag and the buffer ids of registered ranges.
_sync_memops: dict[int, tuple[int, int]] = {}
_range_ids: dict[int, int] = {}
_range_id_counter = itertools.count(1 << 31)


def _object_key(what: Any, base: int) -> tuple[int, int]:
    return (what.ptr, what.serial) if isinstance(what, Allocation) else (base, -1)


def _attribute(attribute: Any, ptr: Any) -> tuple[str | None, Any, Any]:
    """``(failure status or None, value written, its dtype)`` of one pointer attribute (HIP's
    ihipPointerGetAttributes: a failure still writes its default value, except the unsupported ones)."""
    a = hipPointer_attribute
    known = _h._known(ptr)
    raw = pointer_value(ptr)
    what = known[2] if known is not None else None
    registered = isinstance(what, _h._Registered)
    host_like = registered or (what is not None and what.kind is not MemoryKind.DEVICE)
    if attribute in (a.HIP_POINTER_ATTRIBUTE_CONTEXT, a.HIP_POINTER_ATTRIBUTE_P2P_TOKENS,
                     a.HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE, a.HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES,
                     a.HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, a.HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE):
        return "hipErrorNotSupported", None, None
    if attribute == a.HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        flags = 0
        if what is not None and not registered:
            flags = _h._alloc_meta.get(what.ptr, (0, 0))[1]
        elif registered:
            flags = what.flags
        return None, flags, np.uint32
    failure = "hipErrorInvalidValue" if known is None else None
    if attribute == a.HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
        kind = "Host" if host_like else "Device"
        return failure, (0 if known is None else _memory_type(f"hipMemoryType{kind}")), np.uint32
    if attribute == a.HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
        return failure, (0 if known is None else raw), np.uint64
    if attribute == a.HIP_POINTER_ATTRIBUTE_HOST_POINTER:
        if known is None or not host_like:
            return "hipErrorInvalidValue", 0, np.uint64
        return None, raw, np.uint64
    if attribute == a.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        if known is None:
            return failure, 0, np.uint8
        key = _object_key(what, known[0])
        entry = _sync_memops.get(key[0])
        return None, int(entry is not None and entry[0] == key[1] and entry[1]), np.uint8
    if attribute == a.HIP_POINTER_ATTRIBUTE_BUFFER_ID:
        if known is None:
            return failure, 0, np.uint32
        if registered:
            return None, _range_ids.setdefault(known[0], next(_range_id_counter)) & 0xFFFFFFFF, np.uint32
        return None, what.serial & 0xFFFFFFFF, np.uint32
    if attribute == a.HIP_POINTER_ATTRIBUTE_IS_MANAGED:
        return failure, int(what is not None and not registered and what.kind is MemoryKind.MANAGED), np.uint8
    if attribute == a.HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        if known is None:
            return failure, _h.hipInvalidDeviceId, np.int32
        if registered:
            return None, what.device, np.int32
        return None, _h._alloc_meta.get(what.ptr, (what.device if what.device >= 0 else 0, 0))[0], np.int32
    if attribute == a.HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        return failure, (0 if known is None else known[0]), np.uint64
    if attribute == a.HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
        size = 0 if known is None else (what.size if registered else what.nbytes)
        return failure, size & 0xFFFFFFFF, np.uint32  # a 32-bit field in HIP
    if attribute == a.HIP_POINTER_ATTRIBUTE_MAPPED:
        return failure, int(known is not None), np.uint8
    raise _invalid(f"{attribute} is no pointer attribute", "attribute")


def _status_error(status: str, message: str, arg: str) -> HipError:
    if status == "hipErrorNotSupported":
        return HipNotSupportedError(message, arg=arg)
    return _invalid(message, arg) if status == "hipErrorInvalidValue" else StatusError(status, message, arg=arg)


@_public()
def hipPointerGetAttribute(data: Any, attribute: Any, ptr: Any) -> None:
    """Write one attribute of the memory ``ptr`` points into through ``data``: memory type (a 32-bit
    hipMemoryType: host for pinned, managed and registered memory), device and host pointers and the range's start
    (64-bit addresses), its size (32 bits, as in HIP), the buffer id, whether it is managed or mapped and the
    SYNC_MEMOPS flag (bytes), the device ordinal (int), the allocation flags.  Memory the runtime does not know
    gets the defaults written and ``hipErrorInvalidValue`` (the access flags read 0 with success); the attributes
    HIP does not support are ``hipErrorNotSupported``.  NULL ``data`` or ``ptr`` is ``hipErrorInvalidValue``."""
    check_enum(attribute, hipPointer_attribute, "attribute")
    if pointer_value(ptr) == 0 or (pointer_value(data) == 0 and not isinstance(data, ctypes._SimpleCData)):
        raise _invalid("data and ptr must be non-NULL", "ptr" if pointer_value(ptr) == 0 else "data")
    failure, value, dtype = _attribute(attribute, ptr)
    if dtype is not None:
        _lib.write_host(data, value, dtype, "data", _error)
    if failure is not None:
        raise _status_error(failure, f"{attribute.name} of 0x{pointer_value(ptr):x}", "ptr")


@_public()
def hipPointerSetAttribute(value: Any, attribute: Any, ptr: Any) -> None:
    """Set ``HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS`` (the unsigned int ``value`` points to: 0 or 1) of the memory
    ``ptr`` points into -- the only attribute HIP sets (others: ``hipErrorInvalidValue``); NULL arguments are
    ``hipErrorInvalidValue``, memory the runtime does not know ``hipErrorInvalidDevicePointer``."""
    check_enum(attribute, hipPointer_attribute, "attribute")
    if pointer_value(ptr) == 0 or (pointer_value(value) == 0 and not isinstance(value, ctypes._SimpleCData)):
        raise _invalid("value and ptr must be non-NULL", "ptr" if pointer_value(ptr) == 0 else "value")
    if attribute != hipPointer_attribute.HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        raise _invalid(f"{attribute.name} cannot be set", "attribute")
    flag = int(_lib.read_host(value, np.uint32, 1, "value", _error)[0])
    if flag not in (0, 1):
        raise _invalid(f"SYNC_MEMOPS is 0 or 1, not {flag}", "value")
    known = _h._known(ptr)
    if known is None:
        raise InvalidDevicePointerError(f"0x{pointer_value(ptr):x} is no memory of the HIP runtime", arg="ptr")
    ptr_key, serial = _object_key(known[2], known[0])
    _sync_memops[ptr_key] = (serial, flag)


@_public(1)
def hipDrvPointerGetAttributes(numAttributes: int, attributes: Any, ptr: Any) -> Pointer:
    """Several attributes at once (``numAttributes`` hipPointer_attribute values, C ints, at ``attributes``),
    with HIP's success whatever each attribute gives (failed ones hold their defaults).  hip-python 6.2 returns
    the C ``void** data``; here it is an array of ``numAttributes`` pointers, each to an 8-byte slot holding one
    attribute's value (read with ``ctypes``), owned by the returned :class:`Pointer`."""
    n = _uint(numAttributes, "numAttributes", "unsigned int")
    if n == 0 or pointer_value(attributes) == 0 or pointer_value(ptr) == 0:
        raise _invalid("numAttributes must be positive, attributes and ptr non-NULL", "numAttributes")
    codes = _lib.read_host(attributes, np.int32, n, "attributes", _error)
    slots = np.zeros(n, dtype=np.uint64)
    table = (ctypes.c_void_p * n)(*(slots.ctypes.data + 8 * i for i in range(n)))
    for i, code in enumerate(codes):
        try:
            attribute = hipPointer_attribute(int(code))
        except ValueError:
            continue
        _, value, dtype = _attribute(attribute, ptr)
        if dtype is not None:
            slots[i:i + 1].view(np.uint8)[:np.dtype(dtype).itemsize] = np.array([value], dtype=dtype).view(np.uint8)
    data = Pointer.fromPtr(ctypes.addressof(table))
    data._keep = (table, slots)
    return data


# --- stream memory operations ----------------------------------------------------------------------------------

_WAIT_FLAGS = {0: "Gte", 1: "Eq", 2: "And", 3: "Nor"}


def _stream_operation(stream: Any, ptr: Any, nbytes: int, op: str) -> tuple[Stream, Any]:
    """HIP's ihipStreamOperation checks: NULL ``ptr``, then the stream (``hipErrorContextIsDestroyed``), then
    memory the runtime does not know (``hipErrorInvalidValue``); the word must lie inside its memory."""
    if pointer_value(ptr) == 0:
        raise _invalid("ptr is NULL", "ptr")
    s = _stream_or_destroyed(stream)
    if _memobj(pointer_value(ptr)) is None:
        raise _invalid("ptr is no memory of the HIP runtime", "ptr")
    return s, _memory._side(_h._copy_side(ptr, nbytes, "ptr"), nbytes, op, "ptr", writable=True)


def _wait_value(stream: Any, ptr: Any, value: int, flags: int, mask: int, bits: int, op: str) -> None:
    dtype = np.uint32 if bits == 32 else np.uint64
    full = (1 << bits) - 1
    s, side = _stream_operation(stream, ptr, bits // 8, op)
    if flags not in _WAIT_FLAGS:
        raise _invalid(f"flags {flags} is no hipStreamWaitValue condition", "flags")
    cond = _WAIT_FLAGS[flags]

    def holds() -> bool:
        x = int(side.nbytes_view(bits // 8).view(dtype)[0]) & mask
        if cond == "Gte":
            return x >= value
        if cond == "Eq":
            return x == value
        if cond == "And":
            return (x & value) != 0
        return (~(x | (value & mask)) & full) != 0

    def wait() -> None:
        pause = 1e-5
        while not holds():  # the stream stays here (later work waits) until another stream or the host writes
            time.sleep(pause)
            pause = min(pause * 2, 1e-3)

    s.enqueue(wait, op, keep=side, info={"cat": "wait", "bytes": bits // 8})


@_public()
def hipStreamWaitValue32(stream: Any, ptr: Any, value: int, flags: int, mask: int) -> None:
    """Make later work on ``stream`` wait until the 32-bit word at ``ptr`` satisfies ``flags``:
    ``hipStreamWaitValueGte`` ``(*ptr & mask) >= value``, ``Eq`` ``== value``, ``And`` ``(*ptr & mask & value) !=
    0``, ``Nor`` ``~((*ptr & mask) | (value & mask)) != 0``.  The stream blocks in place until another stream
    (:func:`hipStreamWriteValue32`) or the host writes the word; other streams run on.  ``ptr`` NULL or no memory
    of the runtime, or another flag, is ``hipErrorInvalidValue``; a bad stream ``hipErrorContextIsDestroyed``."""
    _wait_value(stream, ptr, _uint(value, "value", "unsigned int"), _uint(flags, "flags", "unsigned int"),
                _uint(mask, "mask", "unsigned int"), 32, "hipStreamWaitValue32")


@_public()
def hipStreamWaitValue64(stream: Any, ptr: Any, value: int, flags: int, mask: int) -> None:
    """:func:`hipStreamWaitValue32` on a 64-bit word."""
    _wait_value(stream, ptr, _uint(value, "value"), _uint(flags, "flags", "unsigned int"), _uint(mask, "mask"), 64,
                "hipStreamWaitValue64")


def _write_value(stream: Any, ptr: Any, value: int, bits: int, op: str) -> None:
    s, side = _stream_operation(stream, ptr, bits // 8, op)
    word = np.array([value], dtype=np.uint32 if bits == 32 else np.uint64).view(np.uint8)

    def write() -> None:
        side.nbytes_view(bits // 8)[:] = word

    s.enqueue(write, op, keep=side, inline=True, info={"cat": "memset", "bytes": bits // 8})


@_public()
def hipStreamWriteValue32(stream: Any, ptr: Any, value: int, flags: int) -> None:
    """Write the 32-bit ``value`` to ``ptr`` in ``stream`` order (after earlier work, before later work): what a
    :func:`hipStreamWaitValue32` on another stream can wait for.  ``flags`` is unused, as in HIP."""
    _uint(flags, "flags", "unsigned int")
    _write_value(stream, ptr, _uint(value, "value", "unsigned int"), 32, "hipStreamWriteValue32")


@_public()
def hipStreamWriteValue64(stream: Any, ptr: Any, value: int, flags: int) -> None:
    """:func:`hipStreamWriteValue32` with a 64-bit value."""
    _uint(flags, "flags", "unsigned int")
    _write_value(stream, ptr, _uint(value, "value"), 64, "hipStreamWriteValue64")


@_public()
def hipStreamAttachMemAsync(stream: Any, dev_ptr: Any, length: int, flags: int) -> None:
    """Attach managed memory to a stream (accepted after HIP's checks: memory is unified here, as on AMD
    where HIP does nothing more).  NULL ``dev_ptr``, flags other than one of ``hipMemAttachGlobal``/``Host``/
    ``Single`` (``Single`` needs a stream), pageable memory (the device does not reach it) or a non-zero
    ``length`` other than a managed or pinned allocation's size are ``hipErrorInvalidValue``; a bad stream
    ``hipErrorContextIsDestroyed``."""
    n = _uint(length, "length")
    f = _uint(flags, "flags", "unsigned int")
    if pointer_value(dev_ptr) == 0:
        raise _invalid("dev_ptr is NULL", "dev_ptr")
    _stream_or_destroyed(stream)
    if f not in (_h.hipMemAttachGlobal, _h.hipMemAttachHost, _h.hipMemAttachSingle):
        raise _invalid(f"flags 0x{f:x} is not one attach flag", "flags")
    if f == _h.hipMemAttachSingle and (stream is None or pointer_value(stream) == 0):
        raise _invalid("hipMemAttachSingle needs a stream", "stream")
    known = _h._known(dev_ptr)
    if known is None:
        raise _invalid("pageable memory: the device does not reach it (no XNACK)", "dev_ptr")
    what = known[2]
    if not isinstance(what, _h._Registered) and what.kind is not MemoryKind.DEVICE and n != 0 and n != what.nbytes:
        raise _invalid(f"length {n} is not the allocation's {what.nbytes} bytes", "length")


# --- unified memory ranges: advice and prefetches as HMM keeps them per page ---------------------------------

_PAGE = 4096


@dataclass(eq=False)
class _Pages:
    """Per page of a managed allocation: read-mostly, preferred location, devices with in-place access (bit ``d +
    1``; bit 0 the CPU), last prefetch location, coarse-grained."""

    serial: int
    read_mostly: np.ndarray
    preferred: np.ndarray
    accessed: np.ndarray
    prefetched: np.ndarray
    coarse: np.ndarray


_pages: dict[int, _Pages] = {}
_pages_lock = threading.Lock()


def _pages_of(alloc: Allocation) -> _Pages:
    n = max(-(-alloc.nbytes // _PAGE), 1)
    with _pages_lock:
        state = _pages.get(alloc.ptr)
        if state is None or state.serial != alloc.serial:
            invalid = np.full(n, _h.hipInvalidDeviceId, dtype=np.int32)
            state = _pages[alloc.ptr] = _Pages(alloc.serial, np.zeros(n, bool), invalid.copy(),
                                               np.zeros(n, np.int64), invalid.copy(), np.zeros(n, bool))
        return state


def _page_range(ptr: Any, count: int) -> tuple[_Pages, slice] | None:
    """The pages of managed memory ``[ptr, ptr + count)`` covers (None for other memory)."""
    known = _h._known(ptr)
    if known is None or isinstance(known[2], _h._Registered) or known[2].kind is not MemoryKind.MANAGED:
        return None
    offset = known[1]
    return _pages_of(known[2]), slice(offset // _PAGE, -(-(offset + count) // _PAGE))


def _location_bit(device: int) -> int:
    return 1 if device == _h.hipCpuDeviceId else 1 << (device + 1)


def advised(dev_ptr: Any, count: int, advice: Any, device: int) -> None:
    """Record a :func:`hipMemAdvise` on managed memory (what :func:`hipMemRangeGetAttribute` reports)."""
    found = _page_range(dev_ptr, count)
    if found is None:
        return
    pages, where = found
    a = _h.hipMemoryAdvise
    if advice in (a.hipMemAdviseSetReadMostly, a.hipMemAdviseUnsetReadMostly):
        pages.read_mostly[where] = advice == a.hipMemAdviseSetReadMostly
    elif advice == a.hipMemAdviseSetPreferredLocation:
        pages.preferred[where] = device
    elif advice == a.hipMemAdviseUnsetPreferredLocation:
        pages.preferred[where] = _h.hipInvalidDeviceId
    elif advice == a.hipMemAdviseSetAccessedBy:
        pages.accessed[where] |= _location_bit(device)
    elif advice == a.hipMemAdviseUnsetAccessedBy:
        pages.accessed[where] &= ~_location_bit(device)
    else:
        pages.coarse[where] = advice == a.hipMemAdviseSetCoarseGrain


def prefetched(dev_ptr: Any, count: int, device: int) -> None:
    """Record a :func:`hipMemPrefetchAsync` of managed memory (its last prefetch location)."""
    found = _page_range(dev_ptr, count)
    if found is not None:
        found[0].prefetched[found[1]] = device


def _uniform(values: np.ndarray) -> int:
    return int(values[0]) if values.size and (values == values[0]).all() else _h.hipInvalidDeviceId


def _range_attribute(attribute: Any, size: int, pages: _Pages, where: slice) -> np.ndarray:
    """One range attribute as HIP writes it into ``size`` bytes (``hipErrorInvalidValue`` for a wrong size)."""
    r = hipMemRangeAttribute
    if attribute == r.hipMemRangeAttributeCoherencyMode:
        coarse = pages.coarse[where]
        mode = hipMemRangeCoherencyMode
        value = mode.hipMemRangeCoherencyModeIndeterminate if coarse.any() and not coarse.all() else \
            (mode.hipMemRangeCoherencyModeCoarseGrain if coarse.all() else mode.hipMemRangeCoherencyModeFineGrain)
        return np.array([int(value)], dtype=np.uint32)
    if attribute == r.hipMemRangeAttributeAccessedBy:
        if size % 4:
            raise _invalid(f"data_size {size} is no multiple of 4", "data_size")
        common = np.bitwise_and.reduce(pages.accessed[where]) if pages.accessed[where].size else 0
        devices = [d for d in range(rocmath.get_device_count()) if common & _location_bit(d)]
        devices += [_h.hipCpuDeviceId] if common & 1 else []
        return np.array(devices[: size // 4], dtype=np.int32)
    if size != 4:
        raise _invalid(f"{attribute.name} is 4 bytes, not {size}", "data_size")
    if attribute == r.hipMemRangeAttributeReadMostly:
        return np.array([int(pages.read_mostly[where].all())], dtype=np.uint32)
    values = pages.preferred if attribute == r.hipMemRangeAttributePreferredLocation else pages.prefetched
    return np.array([_uniform(values[where])], dtype=np.int32)


def _range_of(dev_ptr: Any, count: int) -> tuple[_Pages, slice]:
    found = _page_range(dev_ptr, count)
    known = _h._known(dev_ptr)
    if found is None or known is None or known[2].nbytes - known[1] < count:
        raise _invalid("[dev_ptr, dev_ptr + count) is no range of managed memory", "dev_ptr")
    return found


@_public()
def hipMemRangeGetAttribute(data: Any, data_size: int, attribute: Any, dev_ptr: Any, count: int) -> None:
    """Write into ``data`` (``data_size`` bytes) one attribute of a range of managed memory, as HMM reports it
    from the advice and prefetches given: read-mostly (1 when every page is), the preferred and the last prefetch
    location (the device, ``hipCpuDeviceId``, or ``hipInvalidDeviceId`` when the pages differ or none was set),
    the devices with access to the whole range (as many as fit), the coherency mode.  NULL, a zero size or count,
    memory other than managed, a range past the allocation or a size the attribute does not take are
    ``hipErrorInvalidValue``."""
    size, n = _uint(data_size, "data_size"), _uint(count, "count")
    check_enum(attribute, hipMemRangeAttribute, "attribute")
    if pointer_value(data) == 0 or size == 0 or pointer_value(dev_ptr) == 0 or n == 0:
        raise _invalid("data, data_size, dev_ptr and count must be non-zero", "data")
    pages, where = _range_of(dev_ptr, n)
    values = _range_attribute(attribute, size, pages, where)
    if values.size:
        _lib.write_host(data, values, values.dtype, "data", _error)


@_public(2)
def hipMemRangeGetAttributes(attributes: Any, num_attributes: int, dev_ptr: Any, count: int) -> tuple[Pointer, Any]:
    """Several range attributes at once (``num_attributes`` hipMemRangeAttribute values, C ints, at
    ``attributes``), checked as :func:`hipMemRangeGetAttribute`.  hip-python 6.2 returns the C ``void** data`` and
    ``size_t* data_sizes``; here ``data`` is an array of ``num_attributes`` pointers, each to its attribute's
    value (4 bytes; one 4-byte entry per device and the CPU for ``AccessedBy``), and ``data_sizes`` a list of
    their sizes, both owned by the returned objects."""
    k, n = _uint(num_attributes, "num_attributes"), _uint(count, "count")
    if pointer_value(attributes) == 0 or k == 0 or pointer_value(dev_ptr) == 0 or n == 0:
        raise _invalid("attributes, num_attributes, dev_ptr and count must be non-zero", "attributes")
    codes = _lib.read_host(attributes, np.int32, k, "attributes", _error)
    pages, where = _range_of(dev_ptr, n)
    sizes = [4 * (rocmath.get_device_count() + 1) if c == hipMemRangeAttribute.hipMemRangeAttributeAccessedBy else 4
             for c in codes]
    buffers = [np.zeros(size // 4, dtype=np.int32) for size in sizes]
    for code, size, buffer in zip(codes, sizes, buffers, strict=True):
        try:
            attribute = hipMemRangeAttribute(int(code))
        except ValueError:
            raise _invalid(f"{int(code)} is no hipMemRangeAttribute", "attributes") from None
        values = _range_attribute(attribute, size, pages, where)
        buffer.view(np.uint8)[: values.nbytes] = values.view(np.uint8)
    table = (ctypes.c_void_p * k)(*(b.ctypes.data for b in buffers))
    data = Pointer.fromPtr(ctypes.addressof(table))
    data._keep = (table, buffers)
    return data, sizes


# --- IPC handles ---------------------------------------------------------------------------------------------

#: ihipIpcMemHandle_t: a 32-byte ROCr handle (here: a tag, the allocation's address and serial), the size, the
#: offset into the allocation and the owner's process id, in HIP's 64 bytes.
_IPC_MEM = struct.Struct("<8sQQ8sQQi12x")
_IPC_TAG = b"rocmath\0"


@_public(1)
def hipIpcGetMemHandle(devPtr: Any) -> hipIpcMemHandle_st:
    """A handle other processes open device memory by (HIP's layout: the allocation, its size, ``devPtr``'s
    offset into it, this process's id).  NULL, or memory that is no allocation of the runtime, is
    ``hipErrorInvalidValue``."""
    if pointer_value(devPtr) == 0:
        raise _invalid("devPtr is NULL", "devPtr")
    known = _h._known(devPtr)
    if known is None or isinstance(known[2], _h._Registered):
        raise _invalid("devPtr is no allocation of the HIP runtime", "devPtr")
    alloc = known[2]
    handle = hipIpcMemHandle_st()
    ctypes.memmove(handle._ptr, _IPC_MEM.pack(_IPC_TAG, alloc.ptr, alloc.serial, bytes(8), alloc.nbytes, known[1],
                                              os.getpid()), _IPC_MEM.size)
    return handle


@_public(1)
def hipIpcOpenMemHandle(handle: Any, flags: int) -> Pointer:
    """Map memory another process exported.  Flags other than ``hipIpcMemLazyEnablePeerAccess`` or an empty
    handle are ``hipErrorInvalidValue``; a handle this process made is ``hipErrorInvalidContext`` (HIP refuses to
    open its own); another process's memory cannot be reached by this process's simulated devices:
    ``hipErrorInvalidDevicePointer`` (HIP's status when the attach fails)."""
    f = _uint(flags, "flags", "unsigned int")
    if f != _h.hipIpcMemLazyEnablePeerAccess:
        raise _invalid("flags must be hipIpcMemLazyEnablePeerAccess", "flags")
    c = _read_struct(hipIpcMemHandle_st, handle, "handle")
    if c is None:
        raise _invalid("the handle is passed by value: it cannot be NULL", "handle")
    _, _, _, _, size, _, pid = _IPC_MEM.unpack(bytes(ctypes.string_at(ctypes.addressof(c), _IPC_MEM.size)))
    if size == 0:
        raise _invalid("the handle names no memory", "handle")
    if pid == os.getpid():
        raise StatusError("hipErrorInvalidContext", "the handle was made by this process", arg="handle")
    raise InvalidDevicePointerError("the memory of another process is out of this process's simulated devices' "
                                       "reach", arg="handle")


@_public()
def hipIpcCloseMemHandle(devPtr: Any) -> None:
    """Unmap memory opened by :func:`hipIpcOpenMemHandle` (after the null stream's work); NULL, or memory not
    opened that way -- all memory here, since none can be opened -- is ``hipErrorInvalidValue``."""
    rocmath.null_stream().synchronize()
    if pointer_value(devPtr) == 0:
        raise _invalid("devPtr is NULL", "devPtr")
    raise _invalid("devPtr was not opened by hipIpcOpenMemHandle", "devPtr")


# --- the names for rocmath.hip.hip ---------------------------------------------------------------------------


def runtime_api(hip_module: Any) -> dict[str, Any]:
    """The names this module adds to :mod:`rocmath.hip.hip` (its functions bound to the HIP runtime's status
    table, the ``_spt`` variants, enums, structs and handle types, and hip-python's type aliases)."""
    global _h, _lib
    _h = hip_module
    from . import _lib as lib

    _lib = lib
    names: dict[str, Any] = {}
    for name, (fn, outputs) in _PUBLIC.items():
        names[name] = fn if outputs is None else binding(_h._HIP, outputs)(fn)
    for plain in _PER_THREAD_VARIANTS:
        target = names.get(plain) or getattr(_h, plain)
        names[f"{plain}_spt"] = _per_thread_variant_of(f"{plain}_spt", plain, target)
    names.update({cls.__name__: cls for cls in _ENUMS})
    for cls in (hipPitchedPtr, hipExtent, hipPos, hipMemcpy3DParms, hip_Memcpy2D, HIP_MEMCPY3D, hipMemLocation,
                hipMemAccessDesc, hipMemPoolProps, hipMemPoolPtrExportData, hipIpcMemHandle_st, hipIpcEventHandle_st,
                hipUUID_t, ihipMemPoolHandle_t, ihipCtx_t):
        names[cls.__name__] = cls
    names.update(hipMemPool_t=ihipMemPoolHandle_t, hipCtx_t=ihipCtx_t, hipIpcMemHandle_t=hipIpcMemHandle_st,
                 hipIpcEventHandle_t=hipIpcEventHandle_st, hipUUID=hipUUID_t)
    return names


def _per_thread_variant_of(name: str, plain: str, target: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
    """:func:`_per_thread_variant` over ``target`` (a function of this module or of ``hip``)."""
    signature = inspect.signature(target)

    @functools.wraps(target)
    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        bound.arguments["stream"] = _spt_stream(bound.arguments["stream"])
        return target(*bound.args, **bound.kwargs)  # type: ignore[no-any-return]

    call.__name__ = call.__qualname__ = name
    call.__doc__ = (f"``{name}``: :func:`{plain}` on the calling thread's default stream when ``stream`` is NULL "
                    "or ``hipStreamLegacy``.")
    return call
