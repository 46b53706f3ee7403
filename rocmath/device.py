"""Simulated devices: their number, properties and the calling thread's current device.

Configured by environment variables read at first use, or by :func:`configure`:

``ROCMATH_DEVICE_COUNT``
    How many devices (default 1).
``ROCMATH_DEVICE_MEMORY``
    Memory of each device, in bytes or with a unit (``512MiB``, ``8GiB``, ``16GB``).
    Default: the profile's memory, capped at half of this machine's RAM.
``ROCMATH_ARCH``
    The architecture profile (``gfx942`` by default; see :data:`ARCH_PROFILES`).

As in HIP, the current device is per host thread and starts at 0.
"""

from __future__ import annotations

import operator
import os
import re
import threading
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import HipInvalidValueError, InvalidDeviceError

GiB = 1 << 30
MiB = 1 << 20


@dataclass(frozen=True)
class DeviceProperties:
    """The fields of ``hipDeviceProp_t`` that matter to math libraries.

    The compute and bandwidth peaks at the end are those of the real GPU the
    profile is named after; the bench's roofline model uses them.  They say
    nothing about how fast the simulation runs.
    """

    name: str
    gcnArchName: str
    totalGlobalMem: int
    multiProcessorCount: int
    warpSize: int
    maxThreadsPerBlock: int
    maxThreadsDim: tuple[int, int, int]
    maxGridSize: tuple[int, int, int]
    sharedMemPerBlock: int
    regsPerBlock: int
    clockRate: int  # kHz
    memoryClockRate: int  # kHz
    memoryBusWidth: int  # bits
    l2CacheSize: int
    totalConstMem: int
    major: int
    minor: int
    pciDomainID: int
    pciBusID: int
    pciDeviceID: int
    isMultiGpuBoard: int
    concurrentKernels: int
    managedMemory: int
    canMapHostMemory: int
    asyncEngineCount: int
    unifiedAddressing: int
    peak_gflops: dict[str, float] = field(default_factory=dict, compare=False)
    peak_bandwidth_gbs: float = 0.0

    def field_names(self) -> list[str]:
        """The property names, as hip-python's ``hipDeviceProp_t.PROPERTIES()``."""
        return [f.name for f in fields(self)]


def _profile(
    name: str, arch: str, mem_gib: int, cus: int, warp: int, clock_mhz: int, l2_mib: int,
    major: int, minor: int, pci_device: int, bus_width: int, mem_clock_mhz: int,
    gflops: dict[str, float], bandwidth: float,
) -> DeviceProperties:
    return DeviceProperties(
        name=name, gcnArchName=arch, totalGlobalMem=mem_gib * GiB, multiProcessorCount=cus,
        warpSize=warp, maxThreadsPerBlock=1024, maxThreadsDim=(1024, 1024, 1024),
        maxGridSize=(2**31 - 1, 65536, 65536), sharedMemPerBlock=65536, regsPerBlock=65536,
        clockRate=clock_mhz * 1000, memoryClockRate=mem_clock_mhz * 1000, memoryBusWidth=bus_width,
        l2CacheSize=l2_mib * MiB, totalConstMem=2 * GiB - 1, major=major, minor=minor,
        pciDomainID=0, pciBusID=0, pciDeviceID=pci_device, isMultiGpuBoard=0, concurrentKernels=1,
        managedMemory=1, canMapHostMemory=1, asyncEngineCount=2, unifiedAddressing=1,
        peak_gflops=gflops, peak_bandwidth_gbs=bandwidth,
    )


#: Architecture profiles, keyed by the short gfx name.
ARCH_PROFILES: dict[str, DeviceProperties] = {
    "gfx942": _profile("AMD Instinct MI300X", "gfx942:sramecc+:xnack-", 192, 304, 64, 2100, 4,
                       9, 4, 0x74A1, 8192, 1300,
                       {"f64": 81_700.0, "f32": 163_400.0, "f16": 1_307_400.0}, 5300.0),
    "gfx90a": _profile("AMD Instinct MI210", "gfx90a:sramecc+:xnack-", 64, 104, 64, 1700, 8,
                       9, 0, 0x740F, 4096, 1600,
                       {"f64": 22_600.0, "f32": 22_600.0, "f16": 181_000.0}, 1600.0),
    "gfx908": _profile("AMD Instinct MI100", "gfx908:sramecc+:xnack-", 32, 120, 64, 1502, 8,
                       9, 0, 0x738C, 4096, 1200,
                       {"f64": 11_500.0, "f32": 23_100.0, "f16": 184_600.0}, 1230.0),
    "gfx1100": _profile("AMD Radeon RX 7900 XTX", "gfx1100", 24, 96, 32, 2500, 6,
                        11, 0, 0x744C, 384, 2500,
                        {"f64": 1_900.0, "f32": 61_400.0, "f16": 122_800.0}, 960.0),
}

DEFAULT_ARCH = "gfx942"


def parse_bytes(text: str | int) -> int:
    """Parse ``"8GiB"``, ``"512MB"``, ``"1e9"`` or an int into a byte count."""
    if isinstance(text, int):
        return text
    m = re.fullmatch(r"\s*([0-9.eE+]+)\s*([KMGT]?)(i?)B?\s*", str(text), flags=re.IGNORECASE)
    if not m:
        raise HipInvalidValueError(f"cannot read a memory size from {text!r}", arg="memory")
    value, unit, binary = float(m.group(1)), m.group(2).upper(), m.group(3)
    base = 1024 if binary else 1000
    return int(value * base ** " KMGT".index(unit or " "))


def _host_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 16 * GiB


class Device:
    """One simulated device.  Obtain them with :func:`get_device_object`, never directly."""

    def __init__(self, index: int, props: DeviceProperties):
        self.index = index
        self.properties = props
        self.retired = False  # set by configure(): streams and handles of it become invalid
        self._lock = threading.RLock()
        self._null_stream: Any = None
        # A WeakSet of the states of non-null streams, filled by stream.py.  A state lives as
        # long as its Stream or its queued work, so a destroyed or dropped stream's work is
        # still waited for by the null stream and by device_synchronize.
        self.streams: Any = None

    @property
    def null_stream(self) -> Any:
        """The legacy null stream of this device (created on first use)."""
        if self._null_stream is None:
            from .stream import Stream

            with self._lock:
                if self._null_stream is None:
                    self._null_stream = Stream._make_null(self)
        return self._null_stream

    def __repr__(self) -> str:
        return f"<rocmath Device {self.index}: {self.properties.name} ({self.properties.gcnArchName})>"


class _Registry:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.devices: list[Device] | None = None

    def get(self) -> list[Device]:
        if self.devices is None:
            with self.lock:
                if self.devices is None:
                    self.devices = _build(
                        int(os.environ.get("ROCMATH_DEVICE_COUNT", "1")),
                        os.environ.get("ROCMATH_DEVICE_MEMORY"),
                        os.environ.get("ROCMATH_ARCH", DEFAULT_ARCH),
                    )
        return self.devices


_registry = _Registry()
_current = threading.local()


def _build(count: int, memory: str | int | None, arch: str) -> list[Device]:
    if count < 1:
        raise HipInvalidValueError(f"device count must be at least 1, got {count}", arg="count")
    key = arch.split(":")[0]
    if key not in ARCH_PROFILES:
        raise HipInvalidValueError(
            f"unknown architecture {arch!r}; known: {', '.join(ARCH_PROFILES)}", arg="arch")
    base = ARCH_PROFILES[key]
    size = parse_bytes(memory) if memory is not None else min(base.totalGlobalMem, _host_memory() // 2)
    if size <= 0:
        raise HipInvalidValueError(f"device memory must be positive, got {size}", arg="memory")
    return [Device(i, replace(base, totalGlobalMem=size, pciBusID=0x10 * (i + 1))) for i in range(count)]


def configure(count: int | None = None, memory: str | int | None = None, arch: str | None = None) -> None:
    """Rebuild the simulated devices.

    Only allowed while no device memory is allocated; every stream and handle
    made before becomes invalid.  Arguments left as None keep the environment's
    (or default) value.
    """
    from .memory import address_space

    with _registry.lock:
        # Build first: a refused configuration leaves devices and address space as they were.
        devices = _build(
            count if count is not None else int(os.environ.get("ROCMATH_DEVICE_COUNT", "1")),
            memory if memory is not None else os.environ.get("ROCMATH_DEVICE_MEMORY"),
            arch if arch is not None else os.environ.get("ROCMATH_ARCH", DEFAULT_ARCH),
        )
        from .handle import release_handle_workspaces

        release_handle_workspaces()
        _settle(_registry.devices or ())
        address_space.reset_for_configure()
        for old in _registry.devices or ():
            old.retired = True
        address_space.bump_epoch()
        _registry.devices = devices
        _current.index = 0


def _settle(devices: list[Device] | tuple[()]) -> None:
    """Run the frees finalizers deferred (a collection may defer more while we wait)."""
    from .memory import _deferred, release_deferred
    from .stream import wait_device_idle

    for _ in range(5):
        release_deferred()
        for dev in devices:
            if not dev.retired:
                wait_device_idle(dev.index)
        if not _deferred:
            return


def get_device_count() -> int:
    """Number of simulated devices (``hipGetDeviceCount``)."""
    return len(_registry.get())


def _check_index(device: int) -> int:
    n = len(_registry.get())
    try:  # any integer, numpy's included (hip-python takes them as C ints); never a bool
        index = operator.index(device) if not isinstance(device, bool) else -1
    except TypeError:
        index = -1
    if not 0 <= index < n:
        raise InvalidDeviceError(f"device {device!r} does not exist ({n} device(s))", arg="device")
    return index


def set_device(device: int) -> None:
    """Make ``device`` the calling thread's current device (``hipSetDevice``)."""
    _current.index = _check_index(device)


def get_device() -> int:
    """The calling thread's current device index (``hipGetDevice``)."""
    index = getattr(_current, "index", 0)
    if index >= len(_registry.get()):
        index = _current.index = 0
    return index


def get_device_object(device: int | None = None) -> Device:
    """The :class:`Device` for an index (the current device when None)."""
    return _registry.get()[get_device() if device is None else _check_index(device)]


def get_device_properties(device: int | None = None) -> DeviceProperties:
    """``hipGetDeviceProperties``: the properties of ``device`` (current device when None)."""
    return get_device_object(device).properties
