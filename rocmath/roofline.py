"""A roofline model of a real GPU, for comparing what the simulated device measured on the CPU.

:func:`model_seconds` is the time a kernel would take at best on a device profile
(:data:`rocmath.ARCH_PROFILES`: peak FLOP/s per precision and memory bandwidth):
``max(flops / peak(precision), bytes / bandwidth)``.  It is a model, not a measurement: a
lower bound that ignores launch latency, caches and occupancy.  Launch records, the
``log_profile`` layer and the timeline show it beside the measured CPU time, labelled
with the profile it models.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .device import ARCH_PROFILES, DeviceProperties

__all__ = ["model_seconds", "peak_key"]


def peak_key(dtype: Any) -> str | None:
    """The precision whose peak FLOP/s a kernel on ``dtype`` runs at (``"f64"``, ``"f32"``,
    ``"f16"``); None for types without one (integers, no dtype)."""
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return "f32" if dt.itemsize == 8 else "f64"
    if dt.kind == "f":
        return {2: "f16", 4: "f32", 8: "f64"}.get(dt.itemsize)
    if dt.kind in "ui" and dt.itemsize == 2:  # bfloat16 travels as uint16 bits
        return "f16"
    return None


def model_seconds(flops: float, nbytes: float, dtype: Any, arch: str | DeviceProperties = "gfx942") -> float:
    """The roofline time of a kernel on a real device profile (seconds; a model).

    Parameters
    ----------
    flops, nbytes
        The work and the memory traffic of the kernel.
    dtype
        Its precision (complex counts as its real part's).  Without a peak for it, the
        memory bound alone.
    arch
        A key of :data:`rocmath.ARCH_PROFILES` (``"gfx942"``: MI300X) or its properties.
    """
    props = ARCH_PROFILES[arch.split(":")[0]] if isinstance(arch, str) else arch
    memory = nbytes / (props.peak_bandwidth_gbs * 1e9) if props.peak_bandwidth_gbs else 0.0
    key = peak_key(dtype)
    peak = props.peak_gflops.get(key, 0.0) if key else 0.0
    compute = flops / (peak * 1e9) if peak and flops else 0.0
    return max(memory, compute)
