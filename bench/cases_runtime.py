"""Bench cases of the runtime itself: copies, fills and launch latency.

Byte counts are memory traffic, reads plus writes (as rocBLAS counts for
memory-bound routines and STREAM for copies): a copy of n bytes moves 2n, a fill
of n bytes moves n.  The reference does the same work with NumPy on host memory,
so the ratio shows what the simulated device's runtime costs over plain NumPy.
Transfers use pinned host memory (``malloc_host``), as hipBusBandwidth does by
default; the ``_pageable`` variants (full suite) use ordinary ndarrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import rocmath as rm

from .case import Problem
from .registry import bench_case

MiB = 1 << 20
SEED = 20240601

# Quick sizes keep the whole quick suite (with cold compilation) far below a minute
# on two cores; full sizes reach past the last-level cache.
_COPY_SIZES = {"quick": [8 * MiB], "full": [64 * 1024, 8 * MiB, 128 * MiB]}
_FILL_SIZES = {"quick": [1 << 20], "full": [1 << 13, 1 << 20, 1 << 24]}


def _label_bytes(n: int) -> str:
    if n >= MiB and n % MiB == 0:
        return f"{n // MiB} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} B"


def _random_bytes(n: int) -> np.ndarray:
    return np.random.default_rng(SEED).integers(0, 256, size=n, dtype=np.uint8)


def _closer(stream: rm.Stream, *frees: Any) -> Any:
    def teardown() -> None:
        stream.synchronize()
        for free in frees:
            free()
        stream.destroy()
    return teardown


def _host_copy(src: np.ndarray) -> Any:
    dst = np.empty_like(src)

    def reference() -> np.ndarray:
        np.copyto(dst, src)
        return dst
    return reference


# --- transfers -------------------------------------------------------------------------------


def _h2d(nbytes: int, pinned: bool) -> Problem:
    data = _random_bytes(nbytes)
    s = rm.Stream()
    dst = rm.empty(nbytes, np.uint8)
    frees = []
    if pinned:
        hptr = rm.malloc_host(nbytes)
        rm.host_view(hptr, nbytes)[:] = data
        src: Any = hptr
        frees.append(lambda: rm.free_host(hptr))
    else:
        src = data.copy()

    def run() -> rm.DeviceArray:
        rm.memcpy_async(dst, src, nbytes, rm.MemcpyKind.HostToDevice, stream=s)
        return dst

    return Problem(run=run, reference=_host_copy(data), bytes=2 * nbytes, stream=s,
                   label=_label_bytes(nbytes), teardown=_closer(s, *frees))


def _d2h(nbytes: int, pinned: bool) -> Problem:
    data = _random_bytes(nbytes)
    s = rm.Stream()
    src = rm.to_device(data, s)
    frees = []
    if pinned:
        hptr = rm.malloc_host(nbytes)
        dst: Any = hptr
        out = rm.host_view(hptr, nbytes)
        frees.append(lambda: rm.free_host(hptr))
    else:
        dst = out = np.zeros(nbytes, np.uint8)
    s.synchronize()

    def run() -> None:
        rm.memcpy_async(dst, src, nbytes, rm.MemcpyKind.DeviceToHost, stream=s)

    return Problem(run=run, reference=_host_copy(data), result=lambda _: out.copy(), bytes=2 * nbytes,
                   stream=s, label=_label_bytes(nbytes), teardown=_closer(s, *frees))


@bench_case("runtime.memcpy_h2d", sizes=_COPY_SIZES)
def memcpy_h2d(nbytes: int) -> Problem:
    """memcpy_async pinned host -> device (GB/s, reads+writes) vs numpy copy of equal bytes."""
    return _h2d(nbytes, pinned=True)


@bench_case("runtime.memcpy_d2h", sizes=_COPY_SIZES)
def memcpy_d2h(nbytes: int) -> Problem:
    """memcpy_async device -> pinned host (GB/s, reads+writes) vs numpy copy of equal bytes."""
    return _d2h(nbytes, pinned=True)


@bench_case("runtime.memcpy_h2d_pageable", sizes={"full": [8 * MiB, 128 * MiB]})
def memcpy_h2d_pageable(nbytes: int) -> Problem:
    """memcpy_async pageable ndarray -> device (staged at the call) vs numpy copy."""
    return _h2d(nbytes, pinned=False)


@bench_case("runtime.memcpy_d2h_pageable", sizes={"full": [8 * MiB, 128 * MiB]})
def memcpy_d2h_pageable(nbytes: int) -> Problem:
    """memcpy_async device -> pageable ndarray (returns when done) vs numpy copy."""
    return _d2h(nbytes, pinned=False)


@bench_case("runtime.memcpy_d2d", sizes=_COPY_SIZES)
def memcpy_d2d(nbytes: int) -> Problem:
    """memcpy_async device -> device (GB/s, reads+writes) vs numpy copy of equal bytes."""
    data = _random_bytes(nbytes)
    s = rm.Stream()
    src = rm.to_device(data, s)
    dst = rm.empty(nbytes, np.uint8)

    def run() -> rm.DeviceArray:
        rm.memcpy_async(dst.ptr, src.ptr, nbytes, rm.MemcpyKind.DeviceToDevice, stream=s)
        return dst

    return Problem(run=run, reference=_host_copy(data), bytes=2 * nbytes, stream=s,
                   label=_label_bytes(nbytes), teardown=_closer(s))


# --- fills -----------------------------------------------------------------------------------


@bench_case("runtime.memset", sizes=_COPY_SIZES)
def memset(nbytes: int) -> Problem:
    """memset_async of device bytes (GB/s, writes) vs ndarray.fill."""
    value = 0x5A
    s = rm.Stream()
    dst = rm.to_device(_random_bytes(nbytes), s)  # random, so a memset that does nothing fails
    host = _random_bytes(nbytes)

    def run() -> rm.DeviceArray:
        rm.memset_async(dst.ptr, value, nbytes, stream=s)
        return dst

    def reference() -> np.ndarray:
        host.fill(value)
        return host

    return Problem(run=run, reference=reference, bytes=nbytes, stream=s, label=_label_bytes(nbytes),
                   teardown=_closer(s))


@bench_case("runtime.fill", sizes=_FILL_SIZES)
def fill(n: int) -> Problem:
    """DeviceArray.fill of float64 (numba kernel fill_flat via rocmath.launch) vs ndarray.fill."""
    value = 3.25
    s = rm.Stream()
    dst = rm.to_device(np.random.default_rng(SEED).standard_normal(n), s)
    host = np.empty(n)

    def run() -> rm.DeviceArray:
        dst.fill(value, stream=s)
        return dst

    def reference() -> np.ndarray:
        host.fill(value)
        return host

    return Problem(run=run, reference=reference, bytes=8 * n, stream=s, label=f"{n} f64", teardown=_closer(s))


@bench_case("runtime.full", sizes=_FILL_SIZES)
def full(n: int) -> Problem:
    """rocmath.full (allocate + fill kernel) of float64 vs np.full."""
    value = -1.5
    s = rm.Stream()
    return Problem(run=lambda: rm.full(n, value, stream=s), reference=lambda: np.full(n, value), bytes=8 * n,
                   stream=s, label=f"{n} f64", teardown=_closer(s))


# --- strided copy ------------------------------------------------------------------------------


@bench_case("runtime.copy_strided", sizes={"quick": [1024], "full": [256, 1024, 2048]})
def copy_strided(m: int) -> Problem:
    """DeviceArray.copy of a non-contiguous [::2, ::2] view (m x m f64) vs numpy copy of the same view."""
    s = rm.Stream()
    host = np.random.default_rng(SEED).standard_normal((2 * m, 2 * m))
    base = rm.to_device(host, s)
    view = base[::2, ::2]
    hview = host[::2, ::2]
    return Problem(run=lambda: view.copy(stream=s), reference=hview.copy, bytes=2 * 8 * m * m, stream=s,
                   label=f"{m}x{m} f64", teardown=_closer(s))


# --- launch latency ----------------------------------------------------------------------------


@rm.kernel(parallel=False)
def _touch(out, value):  # type: ignore[no-untyped-def]
    # The smallest kernel that still has an observable effect.
    out[0] = value


def _python_touch(out: np.ndarray, value: float) -> None:
    out[0] = value


def _latency(kernel: Any, name: str) -> Problem:
    s = rm.Stream()
    dst = rm.zeros(1, stream=s)
    host = np.zeros(1)

    def run() -> rm.DeviceArray:
        rm.launch(kernel, dst, 1.0, name=name, stream=s)
        return dst

    def reference() -> np.ndarray:
        kernel(host, 1.0)
        return host

    return Problem(run=run, reference=reference, stream=s, label="1 f64", teardown=_closer(s))


@bench_case("runtime.launch_latency", sizes={"quick": [1], "full": [1]})
def launch_latency(_: int) -> Problem:
    """launch of a one-element numba kernel on a stream + synchronize vs calling the kernel directly."""
    return _latency(_touch, "bench.touch")


@bench_case("runtime.launch_latency_python", sizes={"full": [1]})
def launch_latency_python(_: int) -> Problem:
    """launch of a one-element Python function on a stream + synchronize vs calling it directly."""
    return _latency(_python_touch, "bench.python_touch")
