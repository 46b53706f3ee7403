"""Kernels of the runtime itself (DeviceArray fills)."""

from __future__ import annotations

from numba import prange

from .kernel import kernel


@kernel
def fill_flat(out, value):  # type: ignore[no-untyped-def]
    # Contiguous 1-D view of the destination; one prange chunk per thread.
    for i in prange(out.shape[0]):
        out[i] = value
