"""Helpers shared by the hip-python-style tests: status checking and host<->device copies."""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.hip import hip

K = hip.hipMemcpyKind


def check(result: tuple[Any, ...]) -> Any:
    """Raise on a failed status (any library's); return the outputs (one unwrapped)."""
    err, rest = result[0], result[1:]
    if err != 0:
        raise RuntimeError(err.name)
    return rest[0] if len(rest) == 1 else rest


def to_device(a: np.ndarray) -> Any:
    """A hipMalloc'd copy of a host array."""
    d = check(hip.hipMalloc(a.nbytes))
    check(hip.hipMemcpy(d, a, a.nbytes, K.hipMemcpyHostToDevice))
    return d


def to_host(d: Any, like: np.ndarray) -> np.ndarray:
    """Device memory copied into a new array shaped and typed like ``like``."""
    out = np.empty_like(like)
    check(hip.hipMemcpy(out, d, out.nbytes, K.hipMemcpyDeviceToHost))
    return out
