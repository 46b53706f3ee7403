"""Level 1: axpyi, doti, dotci, gthr, gthrz, sctr, roti (a sparse vector x_val/x_ind against a dense y), in
rocSPARSE's check order.

The dense vector's length is not an argument: a DeviceArray y is read as its own length, a raw
pointer as the rest of its allocation (the launch checks every access stays inside).  Index
arrays are rocsparse_int (int32) for raw pointers, or the DeviceArray's own int32/int64 type.
doti/dotci return the result in host pointer mode (``result`` is then ignored) and write it to
the ``result`` device pointer in device pointer mode.  Their sums run in a fixed order (chunks
fixed by nnz, added in order): results are bitwise reproducible.  Duplicate indices in sctr,
gthrz and roti: the last entry wins (as on one GPU thread per entry, only less arbitrary).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

import rocmath
from rocmath.kernel import kernel
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from ._api import Call, Routine, bind, is_null
from ._types import IndexBase
from ._validate import check_indices

__all__ = [
    "caxpyi", "cdotci", "cdoti", "cgthr", "cgthrz", "csctr", "daxpyi", "ddoti", "dgthr", "dgthrz", "droti", "dsctr",
    "saxpyi", "sdoti", "sgthr", "sgthrz", "sroti", "ssctr", "zaxpyi", "zdotci", "zdoti", "zgthr", "zgthrz", "zsctr",
]

#: Partial sums of doti: at most this many, each of at least DOT_CHUNK entries.
DOT_CHUNKS = 64
DOT_CHUNK = 1 << 14


def _dense(c: Call, name: str) -> Buffer:
    """The dense vector y: a DeviceArray's own length, or the rest of a raw pointer's allocation."""
    v = c.values[name]
    if isinstance(v, rocmath.DeviceArray):
        return Buffer(v.ptr, c.dtype, (v.size,), name=name, owner=v)
    from rocmath.memory import address_space

    ptr = c.ptr(name)
    alloc = address_space.find(ptr)
    n = 0 if alloc is None else (alloc.ptr + alloc.nbytes - ptr) // c.dtype.itemsize
    return Buffer(ptr, c.dtype, (max(int(n), 1),), name=name, owner=v)


def _sparse(c: Call, nnz: int) -> tuple[Buffer, Buffer]:
    itype = c.index_dtype("x_ind")
    return c.array("x_val", nnz), c.array("x_ind", nnz, itype)


# --- kernels -----------------------------------------------------------------------------------------


@kernel(parallel=False, contiguous=True)
def _axpyi(alpha, x_val, x_ind, base, y):  # pragma: no cover - numba
    a = alpha[0]
    if a == 0:  # a device-mode alpha of 0 leaves y alone (x_val's inf / NaN included), as rocSPARSE's kernel
        return
    for k in range(x_val.shape[0]):  # serial: duplicate indices add up in order, without races
        y[x_ind[k] - base] += a * x_val[k]


@kernel(contiguous=True)
def _doti(conj, x_val, x_ind, base, y, nchunks, out):  # pragma: no cover - numba
    nnz = x_val.shape[0]
    parts = np.zeros(nchunks, out.dtype)
    for ch in prange(nchunks):
        s = parts[ch]
        for k in range((nnz * ch) // nchunks, (nnz * (ch + 1)) // nchunks):
            v = np.conj(x_val[k]) if conj else x_val[k]
            s += v * y[x_ind[k] - base]
        parts[ch] = s
    total = parts[0]
    for ch in range(1, nchunks):
        total += parts[ch]
    out[0] = total


@kernel(contiguous=True)
def _gthr(zero, y, x_val, x_ind, base):  # pragma: no cover - numba
    for k in prange(x_val.shape[0]):
        x_val[k] = y[x_ind[k] - base]
    if zero:
        for k in range(x_val.shape[0]):
            y[x_ind[k] - base] = 0


@kernel(parallel=False, contiguous=True)
def _sctr(x_val, x_ind, base, y):  # pragma: no cover - numba
    for k in range(x_val.shape[0]):
        y[x_ind[k] - base] = x_val[k]


@kernel(parallel=False, contiguous=True)
def _roti(x_val, x_ind, base, y, c, s):  # pragma: no cover - numba
    cc = c[0]
    ss = s[0]
    if cc == 1 and ss == 0:  # the identity (device-mode c, s) leaves x and y alone, inf / NaN included
        return
    for k in range(x_val.shape[0]):
        i = x_ind[k] - base
        xr = x_val[k]
        yr = y[i]
        x_val[k] = cc * xr + ss * yr
        y[i] = cc * yr - ss * xr


# --- axpyi -------------------------------------------------------------------------------------------


def _axpyi_impl(c: Call) -> None:
    base = c.enum("idx_base", IndexBase)
    nnz = c.size("nnz")
    if nnz == 0:
        return
    c.pointer("alpha")
    if c.host_mode and c.host_value("alpha") == 0:
        return
    c.pointer("x_val")
    c.pointer("x_ind")
    c.pointer("y")
    val, ind = _sparse(c, nnz)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    c.launch(_axpyi, c.scalar("alpha"), val, ind, int(base), y,
             flops=2.0 * nnz, bytes=float(nnz * (3 * c.dtype.itemsize + ind.dtype.itemsize)))


AXPYI = Routine("axpyi", ("nnz", "alpha", "x_val", "x_ind", "y", "idx_base"), _axpyi_impl,
                "y[x_ind] += alpha x_val for a sparse x.")

saxpyi = bind(AXPYI, S)
daxpyi = bind(AXPYI, D)
caxpyi = bind(AXPYI, C)
zaxpyi = bind(AXPYI, Z)


# --- doti / dotci ------------------------------------------------------------------------------------


def _dot(c: Call, conj: bool) -> Any:
    base = c.enum("idx_base", IndexBase)
    nnz = c.size("nnz")
    device = not c.host_mode
    if nnz == 0 and (not device or not is_null(c.values["result"])):
        if not device:
            return c.dtype.type(0)
        c.launch(_zero, c.array("result", 1), bytes=float(c.dtype.itemsize))
        return None
    c.pointer("x_val")
    c.pointer("x_ind")
    c.pointer("y")
    if device:
        c.pointer("result")
    val, ind = _sparse(c, nnz)
    nchunks = int(max(1, min(DOT_CHUNKS, nnz // DOT_CHUNK)))
    out = c.array("result", 1) if device else np.zeros(1, c.dtype)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    task = c.launch(_doti, conj, val, ind, int(base), y, nchunks, out,
                    flops=nnz * (8.0 if c.dtype.kind == "c" else 2.0),
                    bytes=float(nnz * (2 * c.dtype.itemsize + ind.dtype.itemsize)))
    if device:
        return None
    task.wait()
    return out[0]


def _zero(a: np.ndarray) -> None:
    a[...] = 0


_DOT_PARAMS = ("nnz", "x_val", "x_ind", "y", "result", "idx_base")
DOTI = Routine("doti", _DOT_PARAMS, lambda c: _dot(c, False),
               "sum x_val * y[x_ind]: returned in host pointer mode, written to result in device pointer mode.")
DOTCI = Routine("dotci", _DOT_PARAMS, lambda c: _dot(c, True),
                "sum conj(x_val) * y[x_ind]: returned in host pointer mode, written to result in device mode.")

sdoti = bind(DOTI, S)
ddoti = bind(DOTI, D)
cdoti = bind(DOTI, C)
zdoti = bind(DOTI, Z)
cdotci = bind(DOTCI, C)
zdotci = bind(DOTCI, Z)


# --- gthr / gthrz / sctr -----------------------------------------------------------------------------


def _gthr_impl(c: Call) -> None:
    base = c.enum("idx_base", IndexBase)
    nnz = c.size("nnz")
    if nnz == 0:
        return
    c.pointer("y")
    c.pointer("x_val")
    c.pointer("x_ind")
    val, ind = _sparse(c, nnz)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    c.launch(_gthr, False, y, val, ind, int(base),
             bytes=float(nnz * (2 * c.dtype.itemsize + ind.dtype.itemsize)))


def _gthrz_impl(c: Call) -> None:
    nnz = c.size("nnz")
    for name in ("y", "x_val", "x_ind"):
        c.check_array(name, nnz)
    base = c.enum("idx_base", IndexBase)
    if nnz == 0:
        return
    val, ind = _sparse(c, nnz)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    c.launch(_gthr, True, y, val, ind, int(base),
             bytes=float(nnz * (3 * c.dtype.itemsize + ind.dtype.itemsize)))


_GTHR_PARAMS = ("nnz", "y", "x_val", "x_ind", "idx_base")
GTHR = Routine("gthr", _GTHR_PARAMS, _gthr_impl, "x_val := y[x_ind].")
GTHRZ = Routine("gthrz", _GTHR_PARAMS, _gthrz_impl, "x_val := y[x_ind], then y[x_ind] := 0.")

sgthr = bind(GTHR, S)
dgthr = bind(GTHR, D)
cgthr = bind(GTHR, C)
zgthr = bind(GTHR, Z)
sgthrz = bind(GTHRZ, S)
dgthrz = bind(GTHRZ, D)
cgthrz = bind(GTHRZ, C)
zgthrz = bind(GTHRZ, Z)


def _sctr_impl(c: Call) -> None:
    nnz = c.size("nnz")
    for name in ("x_val", "x_ind", "y"):
        c.check_array(name, nnz)
    base = c.enum("idx_base", IndexBase)
    if nnz == 0:
        return
    val, ind = _sparse(c, nnz)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    c.launch(_sctr, val, ind, int(base), y,
             bytes=float(nnz * (2 * c.dtype.itemsize + ind.dtype.itemsize)))


SCTR = Routine("sctr", ("nnz", "x_val", "x_ind", "y", "idx_base"), _sctr_impl, "y[x_ind] := x_val.")

ssctr = bind(SCTR, S)
dsctr = bind(SCTR, D)
csctr = bind(SCTR, C)
zsctr = bind(SCTR, Z)


# --- roti --------------------------------------------------------------------------------------------


def _roti_impl(c: Call) -> None:
    nnz = c.size("nnz")
    for name in ("x_val", "x_ind", "y"):
        c.check_array(name, nnz)
    c.pointer("c")
    c.pointer("s")
    base = c.enum("idx_base", IndexBase)
    if nnz == 0:
        return
    if c.host_mode and c.host_value("c") == 1 and c.host_value("s") == 0:
        return
    val, ind = _sparse(c, nnz)
    y = _dense(c, "y")
    check_indices(c, ind, int(base), y.shape[0], "entries of y")
    c.launch(_roti, val, ind, int(base), y, c.scalar("c"), c.scalar("s"), flops=6.0 * nnz,
             bytes=float(nnz * (4 * c.dtype.itemsize + ind.dtype.itemsize)))


ROTI = Routine("roti", ("nnz", "x_val", "x_ind", "y", "c", "s", "idx_base"), _roti_impl,
               "Givens rotation of a sparse x and a dense y: x_val, y[x_ind] := c x_val + s y[x_ind], "
               "c y[x_ind] - s x_val.")

sroti = bind(ROTI, S)
droti = bind(ROTI, D)
