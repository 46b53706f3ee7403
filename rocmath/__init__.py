"""rocmath: AMD ROCm's math libraries on a simulated GPU device.

This package is the runtime every library stands on: simulated devices, device
memory, streams and events, stream capture and graphs, the kernel launcher,
DeviceArray, the base handle, the precision table and the exception hierarchy.  The libraries live in
``rocmath.blas``, ``rocmath.solver``, ``rocmath.fft`` and ``rocmath.sparse``; the
testing kit in ``rocmath.testing`` and the bench harness in ``rocmath.bench``.
"""

from __future__ import annotations

from . import errors, precision
from .array import DeviceArray, empty, empty_like, full, to_device, zeros
from .device import (
    ARCH_PROFILES,
    DeviceProperties,
    configure,
    get_device,
    get_device_count,
    get_device_properties,
    set_device,
)
from .errors import MemoryAccessFault, OutOfMemoryError, RocmathError
from .graph import CaptureMode, CaptureStatus, Graph, GraphExec
from .handle import AtomicsMode, Handle, LayerMode, PointerMode
from .kernel import kernel  # importing it selects numba's thread-safe layer
from .launch import Buffer, LaunchRecord, buffer, launch, profile
from .memory import (
    MemcpyKind,
    checking,
    checking_enabled,
    free,
    free_async,
    free_host,
    host_view,
    malloc,
    malloc_async,
    malloc_host,
    malloc_managed,
    mem_get_info,
    memcpy,
    memcpy_async,
    memset,
    memset_async,
    pointer_attributes,
    set_checking,
)
from .precision import Precision
from .stream import (
    Event,
    Stream,
    current_stream,
    device_synchronize,
    elapsed_time,
    get_last_error,
    null_stream,
    peek_at_last_error,
)
from .trace import trace

__version__ = "0.1.0"

__all__ = [
    "ARCH_PROFILES", "AtomicsMode", "Buffer", "CaptureMode", "CaptureStatus", "DeviceArray", "DeviceProperties",
    "Event", "Graph", "GraphExec", "Handle", "LaunchRecord", "LayerMode", "MemcpyKind", "MemoryAccessFault",
    "OutOfMemoryError", "PointerMode",
    "Precision", "RocmathError", "Stream", "buffer", "checking", "checking_enabled", "configure",
    "current_stream", "device_synchronize", "elapsed_time", "empty", "empty_like", "errors", "free",
    "free_async", "free_host", "full", "get_device", "get_device_count", "get_device_properties",
    "get_last_error", "host_view", "kernel", "launch", "malloc", "malloc_async", "malloc_host",
    "malloc_managed", "mem_get_info", "memcpy", "memcpy_async", "memset", "memset_async", "null_stream",
    "peek_at_last_error", "pointer_attributes", "precision", "profile", "set_checking", "set_device",
    "to_device", "trace", "zeros",
]
