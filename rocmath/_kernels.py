"""Kernels of the runtime itself: DeviceArray fills, and the gather/scatter that gives
batched (pointer-array) operands the same strided form as the other flavours."""

from __future__ import annotations

import numpy as np
from numba import carray, njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from .kernel import kernel


@kernel(contiguous=True)
def fill_flat(out, value):  # type: ignore[no-untyped-def]
    # Contiguous 1-D view of the destination (typed so: with the stride a run-time value the
    # stores stayed scalar, one element a turn); one prange chunk per thread.
    for i in prange(out.shape[0]):
        out[i] = value


@intrinsic
def _voidptr(typingctx, addr):  # type: ignore[no-untyped-def]
    # A host address (uint64) as a void pointer, so carray can view memory given by address.
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(types.uint64), codegen


@kernel
def gather_entries(dst, addrs, rs, cs, lo, extent):  # type: ignore[no-untyped-def]
    # dst[b, i, j] = entry b's element (i, j): addrs[b] + (i*rs + j*cs) elements; lo <= 0 is the
    # lowest element offset any (i, j) reaches, extent the span, so carray starts at a valid byte.
    isz = dst.itemsize
    for b in prange(dst.shape[0]):
        src = carray(_voidptr(addrs[b] - np.uint64(-lo * isz)), (extent,), dst.dtype)
        for j in range(dst.shape[2]):
            for i in range(dst.shape[1]):
                dst[b, i, j] = src[i * rs + j * cs - lo]


@kernel
def scatter_entries(src, addrs, rs, cs, lo, extent):  # type: ignore[no-untyped-def]
    # The inverse of gather_entries: write only the logical elements back.
    isz = src.itemsize
    for b in prange(src.shape[0]):
        dst = carray(_voidptr(addrs[b] - np.uint64(-lo * isz)), (extent,), src.dtype)
        for j in range(src.shape[2]):
            for i in range(src.shape[1]):
                dst[i * rs + j * cs - lo] = src[b, i, j]


@njit(cache=True, nogil=True)
def entries_apart(addrs, nbytes):  # type: ignore[no-untyped-def]
    """Whether entries of ``nbytes`` at ``addrs`` are in increasing order and do not overlap:
    then scattering them in parallel writes each byte once, and in any order the same."""
    for b in range(1, addrs.shape[0]):  # noqa: SIM110 - (numba compiles loops, not generators)
        if addrs[b] < addrs[b - 1] or addrs[b] - addrs[b - 1] < nbytes:
            return False
    return True
