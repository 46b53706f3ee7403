"""The rocSOLVER kernels' scratch memory, carved out of the handle's workspace.

rocSOLVER takes every scratch buffer of a routine from the rocBLAS handle's device
workspace (a size query reports the bytes, a user workspace that is too small is
memory_error).  rocmath's solver kernels do the same: each launch body gets the
workspace as one byte buffer ``ws`` and hands it to its numba kernel, which carves
its scratch out of it instead of allocating.

The layout is a fixed function of the sizes, so the bytes a routine declares (its
``workspace`` function, what a size query reports) and the bytes its kernel uses
are computed by the same code:

- a batch runs in at most :func:`chunk_count` chunks (one per thread of a
  ``prange``, the same bound the launch bodies use); chunk ``t`` owns bytes
  ``[t * per, (t + 1) * per)`` of ``ws``, ``per`` being the chunk's scratch;
- inside a chunk (and in the launch bodies) every buffer starts at a multiple of
  :data:`ALIGN` bytes (:func:`carve`, :func:`host_carve`), so buffers are as aligned
  as the workspace, and chunks never share a cache line.

The carved buffers are array headers over the workspace (``numba.carray``), which the
launch keeps alive while the kernel runs.  :func:`scratch` stands in for the workspace
when a launch body is called directly on host arrays (tests).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: Every buffer carved from the workspace starts at a multiple of ALIGN bytes.
ALIGN = 64
#: A batch runs in at most this many chunks (one per thread of a ``prange``).
MAX_CHUNKS = 64
#: Large entries with at least this many multiply-adds run one after another, each threaded by
#: OpenBLAS (one chunk); smaller ones in parallel (as rocmath.blas does).
SERIAL_WORK = 1 << 18

_jit = njit(nogil=True, error_model="numpy", cache=True)


def rounded(nbytes: int) -> int:
    """``nbytes`` rounded up to a multiple of :data:`ALIGN`."""
    return -(-int(nbytes) // ALIGN) * ALIGN


def layout(*parts: tuple[int, int]) -> int:
    """Bytes of consecutive buffers of ``(count, itemsize)`` carved one after another."""
    return sum(rounded(count * isz) for count, isz in parts)


def chunk_count(batch: int, work: float = 0.0) -> int:
    """The most chunks a batch of ``batch`` entries, ``work`` multiply-adds each, runs in (the
    launch bodies' ``_chunks`` use fewer for overlapping entries)."""
    return 1 if batch <= 1 or work >= SERIAL_WORK else min(batch, MAX_CHUNKS)


@intrinsic
def _pointer(typingctx, address):  # type: ignore[no-untyped-def]
    """The integer ``address`` as a ``void*`` (what ``numba.carray`` takes)."""

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.intp), codegen


# carve and carve2 are inlined where they are called: they only build an array header over the
# workspace (cheaper to compile than np.empty, and no compilation per element type and call site).
_inline = njit(nogil=True, error_model="numpy", cache=True, inline="always")


@_inline
def _start(ws, off, nbytes):  # type: ignore[no-untyped-def]
    if off + nbytes > ws.shape[0]:  # the layout and its size formula disagree: never index past ws
        raise RuntimeError("solver kernel scratch runs past its part of the workspace")
    return _pointer(ws.ctypes.data + off), off + (nbytes + ALIGN - 1) // ALIGN * ALIGN


@_inline
def carve(ws, off, count, dtype, isz):  # type: ignore[no-untyped-def]
    """``count`` elements of ``dtype`` (``isz`` bytes each) at byte ``off`` of the byte buffer
    ``ws`` (C-contiguous, 1-D); returns them and the offset of the next buffer."""
    ptr, nxt = _start(ws, off, count * isz)
    return numba.carray(ptr, count, dtype), nxt


@_inline
def carve2(ws, off, rows, cols, dtype, isz):  # type: ignore[no-untyped-def]
    """A C-contiguous ``rows x cols`` matrix of ``dtype`` at byte ``off`` of ``ws``; returns it and
    the offset of the next buffer."""
    ptr, nxt = _start(ws, off, rows * cols * isz)
    return numba.carray(ptr, (rows, cols), dtype), nxt


@_jit
def chunk_of(ws, t, per):  # type: ignore[no-untyped-def]
    """Chunk ``t``'s ``per`` bytes of the workspace."""
    return ws[t * per:(t + 1) * per]


def host_carve(ws: np.ndarray, off: int, shape: tuple[int, ...], dtype: Any,
               order: str = "C") -> tuple[np.ndarray, int]:
    """A ``shape`` array of ``dtype`` (C or Fortran ``order``) at byte ``off`` of ``ws``, for the
    launch bodies; returns it and the offset of the next buffer."""
    dt = np.dtype(dtype)
    count = int(math.prod(shape)) if shape else 1
    nbytes = count * dt.itemsize
    flat = ws[off:off + nbytes].view(dt)
    arr = flat.reshape(shape[::-1]).T if order == "F" else flat.reshape(shape)
    return arr, off + rounded(nbytes)


def scratch(ws: np.ndarray | None, nbytes: int) -> np.ndarray:
    """The workspace a launch body was given (at least ``nbytes``: the kernels index their
    carved buffers unchecked), or host scratch of ``nbytes`` when it is called directly on
    host arrays (no handle)."""
    if ws is None:
        return np.empty(rounded(nbytes), np.uint8)
    if ws.size < nbytes:  # the routine's workspace function and its launch body disagree
        raise RuntimeError(f"solver workspace of {ws.size} bytes, the kernel needs {nbytes}")
    return ws
