"""``rocmath-info``: list the simulated devices and their properties, like ``rocminfo``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .device import ARCH_PROFILES, get_device_count, get_device_properties
from .kernel import threading_layer
from .memory import checking_enabled, mem_get_info


def _fmt(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v:,.0f}" for k, v in value.items())
    if isinstance(value, tuple):
        return " x ".join(str(v) for v in value)
    return str(value)


def report() -> str:
    """The text ``rocmath-info`` prints."""
    lines = [f"rocmath {__version__}: simulated ROCm devices (kernels run on this host's CPU)",
             f"numba threading layer: {threading_layer()}; checking mode: {'on' if checking_enabled() else 'off'}",
             ""]
    for i in range(get_device_count()):
        props = get_device_properties(i)
        free, total = mem_get_info(i)
        lines.append(f"Device {i}: {props.name}")
        lines.append(f"  {'memory free / total':<24}{free:,} / {total:,} bytes")
        for name in props.field_names():
            value = getattr(props, name)
            label = {"peak_gflops": "peak GFLOP/s (real GPU)", "peak_bandwidth_gbs": "peak GB/s (real GPU)"}.get(
                name, name)
            lines.append(f"  {label:<24}{_fmt(value)}")
        lines.append("")
    lines.append(f"architecture profiles: {', '.join(ARCH_PROFILES)} (ROCMATH_ARCH); "
                 "ROCMATH_DEVICE_COUNT and ROCMATH_DEVICE_MEMORY set count and size")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rocmath-info``."""
    parser = argparse.ArgumentParser(prog="rocmath-info", description=__doc__)
    parser.parse_args(argv)
    sys.stdout.write(report() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
