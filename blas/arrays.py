"""The Pythonic layer: BLAS on DeviceArrays, sizes and layouts read from the arrays.

``matmul(a, b)`` multiplies ``(..., m, k) @ (..., k, n)`` DeviceArrays in C or F
order (or any view whose matrices have a unit stride on one axis), batched over
the leading axes with NumPy's broadcasting; ``dot``, ``vdot``, ``nrm2``... work on
the last axis.  Each call becomes one rocBLAS call: plain, strided batched when the
batch has a uniform stride, batched (an array of device pointers) otherwise.  Row
major data is handled as the transpose of column-major data, never copied.  Products
and dot products of two dtypes are computed in NumPy's common one (float32 @ float64
is float64), as NumPy and CuPy compute them; in-place calls (axpy, scal) keep their
output's dtype and take no other.

Calls run on the current stream (``with rocmath.Stream():``) through a handle per
thread and device, unless ``handle=`` is given.  Reductions return host values (as
NumPy does), so they wait for their result.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

import rocmath
from rocmath import DeviceArray
from rocmath.launch import byte_extent
from rocmath.precision import Precision
from rocmath.stream import current_stream

from . import level1
from ._handle import BlasHandle

__all__ = ["asum", "axpy", "dot", "get_handle", "iamax", "iamin", "matmul", "nrm2", "scal", "vdot", "gemm"]

_local = threading.local()


def get_handle(device: int | None = None) -> BlasHandle:
    """The calling thread's handle for a device (made on first use), on the current stream."""
    index = rocmath.get_device() if device is None else device
    handles = getattr(_local, "handles", None)
    if handles is None:
        handles = _local.handles = {}
    h = handles.get(index)
    if h is None or h._destroyed or h.device.retired:
        h = handles[index] = BlasHandle(index)
    h.set_stream(current_stream())
    return h


def _handle(handle: BlasHandle | None) -> BlasHandle:
    return get_handle() if handle is None else handle


def _routine(module: Any, op: str, precision: Precision, flavour: str, prefix: str | None = None) -> Any:
    return getattr(module, f"{prefix if prefix is not None else precision.letter}{op}{flavour}")


def _check(a: Any, name: str) -> DeviceArray:
    if not isinstance(a, DeviceArray):
        raise TypeError(f"{name} must be a rocmath.DeviceArray, got {type(a).__name__}")
    return a


def _common_dtype(a: DeviceArray, b: DeviceArray) -> np.dtype:
    """The dtype NumPy computes ``a @ b`` or ``dot(a, b)`` in (``np.result_type``), which must be
    one of rocmath's precisions: float16/32/64, complex64/128 (TypeError for the others)."""
    Precision.of(a.dtype)
    if b.dtype == a.dtype:
        return a.dtype
    Precision.of(b.dtype)
    dtype = np.result_type(a.dtype, b.dtype)
    Precision.of(dtype)
    return dtype


def _converted(a: DeviceArray, dtype: np.dtype, stream: Any) -> DeviceArray:
    """``a`` as ``dtype``: itself, or a C-order copy converted on ``stream`` (as NumPy converts
    the operands of a mixed product first)."""
    if a.dtype == dtype:
        return a
    out = rocmath.empty(a.shape, dtype)
    rocmath.launch(_copy_into, out, a, name="dtype conversion", stream=stream)
    return out


class _Batch:
    """How the leading axes of one operand map to a rocBLAS batch."""

    def __init__(self, arr: DeviceArray, core: int, batch_shape: tuple[int, ...]):
        # Broadcast the leading axes to batch_shape (stride 0 for broadcast axes).
        lead = arr.shape[: arr.ndim - core]
        lead_strides = arr.strides[: arr.ndim - core]
        pad = len(batch_shape) - len(lead)
        shape = (1,) * pad + lead
        strides = (0,) * pad + lead_strides
        self.strides = tuple(0 if n == 1 and b != 1 else s for n, s, b in zip(shape, strides, batch_shape,
                                                                               strict=True))
        self.arr = arr
        self.batch_shape = batch_shape
        self.count = int(math.prod(batch_shape)) if batch_shape else 1
        self.uniform = _uniform_stride(batch_shape, self.strides, arr.itemsize)

    def offsets(self) -> np.ndarray:
        """Byte offset of every batch entry, in C order of the batch shape."""
        if not self.batch_shape:
            return np.zeros(1, dtype=np.int64)
        grids = np.indices(self.batch_shape, dtype=np.int64).reshape(len(self.batch_shape), -1)
        return (np.array(self.strides, dtype=np.int64)[:, None] * grids).sum(axis=0)


def _uniform_stride(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> int | None:
    """The one element stride that walks all entries in C order, or None if there is none."""
    dims = [(n, s) for n, s in zip(shape, strides, strict=True) if n != 1]
    if not dims:
        return 0
    step = dims[-1][1]
    expect = step
    for n, s in reversed(dims):
        if s != expect:
            return None
        expect = s * n
    if step % itemsize:
        return None
    return step // itemsize


class _OwnedPtr(int):
    """A device pointer that keeps the arrays it points into alive: rocBLAS calls keep their
    arguments until the work ran, and this makes that cover addresses computed here."""

    owner: Any

    def __new__(cls, value: int, owner: Any) -> _OwnedPtr:
        obj = super().__new__(cls, value)
        obj.owner = owner
        return obj


def _pointer_array(batch: _Batch, first: int, stream: Any) -> _OwnedPtr:
    # (On the stream of the call that reads it: the handle's, which need not be the current one.)
    ptrs = (np.int64(first) + batch.offsets()).astype(np.uint64)
    dev = rocmath.to_device(ptrs, stream)
    return _OwnedPtr(dev.ptr, (dev, batch.arr))


# --- Level 1 on the last axis ---------------------------------------------------------------


def _vector_call(op: str, x: DeviceArray, y: DeviceArray | None, scalars: tuple[Any, ...], handle: Any,
                 prefix: str | None = None, reduction: bool = True) -> Any:
    """Run a Level-1 routine over the last axis of x (and y), batched over the others."""
    _check(x, "x")
    if x.ndim == 0:
        raise ValueError("x must have at least one axis")
    n = x.shape[-1]
    p = Precision.of(x.dtype)
    arrays = [x] if y is None else [x, _check(y, "y")]
    if y is not None and y.dtype != x.dtype and not reduction:
        raise TypeError(f"x and y differ in dtype: {x.dtype} and {y.dtype}")
    if y is not None and y.shape[-1] != n:
        raise ValueError(f"last axes differ: {x.shape} and {y.shape}")
    batch_shape = np.broadcast_shapes(*(a.shape[:-1] for a in arrays))
    if y is not None and not reduction and batch_shape != y.shape[:-1]:
        raise ValueError(f"y of shape {y.shape} cannot hold the broadcast result {(*batch_shape, n)}")
    h = _handle(handle)
    if y is not None and y.dtype != x.dtype:  # a mixed reduction: both in their common dtype
        dtype = _common_dtype(x, y)
        x, y = arrays[:] = [_converted(a, dtype, h.stream) for a in arrays]
        p = Precision.of(dtype)
    if op in _ORDER_FREE and n > 1 and x.strides[-1] == 0:
        # rocBLAS's nrm2, asum and scal take no incx <= 0 (a zero stride repeats one element here)
        if not reduction:
            raise ValueError("x has a zero stride on its last axis: scaling it in place would scale one element "
                             f"{n} times")
        x = arrays[0] = x.copy(stream=h.stream)
    batches = [_Batch(a, 1, batch_shape) for a in arrays]
    args: list[Any] = []
    incs = []
    for a in arrays:
        inc = a.strides[-1] // a.itemsize if n > 1 else 1  # (one element: any stride reads it)
        if inc < 0 and op in _ORDER_FREE:
            inc = -inc  # rocBLAS wants incx > 0 here; the order does not matter
        incs.append(inc)
    flavour = "" if not batch_shape else "_strided_batched"
    if batch_shape and any(b.uniform is None for b in batches):
        flavour = "_batched"
    fn = _routine(level1, op, p, flavour, prefix)
    for a, b, inc in zip(arrays, batches, incs, strict=True):
        step = a.strides[-1] // a.itemsize if n > 1 else 0
        low = _OwnedPtr(a.ptr + min(0, (n - 1) * step) * a.itemsize, a)  # rocBLAS wants the lowest address
        if flavour == "_batched":
            args.append((_pointer_array(b, low, h.stream), inc))
        elif flavour:
            args.append((low, inc, b.uniform))
        else:
            args.append((low, inc))
    flat: list[Any] = [h, n, *scalars]
    for item in args:
        flat.extend(item)
    if flavour:
        flat.append(int(math.prod(batch_shape)))
    out = fn(*flat)
    if reduction and flavour:
        return np.asarray(out).reshape(batch_shape)
    return out


#: Operations whose result does not depend on the order of the elements.
_ORDER_FREE = frozenset({"nrm2", "asum", "scal"})


def dot(x: DeviceArray, y: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """``sum(x * y)`` over the last axis (unconjugated for complex), batched over the others.
    Operands of two dtypes are computed in NumPy's common one (``np.result_type``)."""
    op = "dotu" if Precision.of(_common_dtype(_check(x, "x"), _check(y, "y"))).is_complex else "dot"
    return _vector_call(op, x, y, (), handle)


def vdot(x: DeviceArray, y: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """``sum(conj(x) * y)`` over the last axis, batched over the others (in the operands' common
    dtype, as :func:`dot`)."""
    if not Precision.of(_check(x, "x").dtype).is_complex:
        return dot(x, y, handle=handle)  # (conj(x) is x)
    return _vector_call("dotc", x, y, (), handle)


def _no_half(x: DeviceArray, op: str) -> Precision:
    p = Precision.of(_check(x, "x").dtype)
    if p.storage_only:
        raise TypeError(f"rocBLAS has no {p.dtype} {op} (its _ex functions take half and bfloat16 data)")
    return p


def nrm2(x: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """The 2-norm over the last axis (overflow-safe), batched over the others."""
    p = _no_half(x, "nrm2")
    return _vector_call("nrm2", x, None, (), handle, prefix={"c": "sc", "z": "dz"}.get(p.letter))


def asum(x: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """``sum(|Re x| + |Im x|)`` over the last axis, batched over the others."""
    p = _no_half(x, "asum")
    return _vector_call("asum", x, None, (), handle, prefix={"c": "sc", "z": "dz"}.get(p.letter))


def _extreme(op: str, x: DeviceArray, handle: BlasHandle | None) -> Any:
    p = _no_half(x, f"i{op}")
    if x.ndim and x.shape[-1] == 0:
        raise ValueError(f"i{op} of an empty last axis (numpy's argmax raises too)")
    h = _handle(handle)
    if x.ndim and x.shape[-1] > 1 and x.strides[-1] <= 0:
        # rocBLAS's amax/amin need incx > 0, and "first" depends on the order: copy reversed views.
        x = x.copy(stream=h.stream)
    return np.asarray(_vector_call(op, x, None, (), h, prefix="i" + p.letter)) - 1


def iamax(x: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """0-based index of the first largest ``|Re x| + |Im x|`` on the last axis (NumPy-style)."""
    return _extreme("amax", x, handle)


def iamin(x: DeviceArray, *, handle: BlasHandle | None = None) -> Any:
    """0-based index of the first smallest ``|Re x| + |Im x|`` on the last axis (NumPy-style)."""
    return _extreme("amin", x, handle)


def axpy(alpha: Any, x: DeviceArray, y: DeviceArray, *, handle: BlasHandle | None = None) -> DeviceArray:
    """``y += alpha * x`` in place over the last axis (x broadcast over y's leading axes).  As
    NumPy's ``y += alpha * x``, an x that overlaps y other than as y itself is read as it was
    before the call (from a copy)."""
    if _overlap(_check(x, "x"), _check(y, "y")) and not (x.ptr == y.ptr and x.strides == y.strides):
        x = x.copy(stream=_handle(handle).stream)
    _vector_call("axpy", x, y, (alpha,), handle, reduction=False)
    return y


def _overlap(a: DeviceArray, b: DeviceArray) -> bool:
    """Whether the bytes two arrays span intersect."""
    if a.size == 0 or b.size == 0:
        return False
    (alo, ahi), (blo, bhi) = (byte_extent(v.shape, v.strides, v.itemsize) for v in (a, b))
    return a.ptr + alo < b.ptr + bhi and b.ptr + blo < a.ptr + ahi


def scal(alpha: Any, x: DeviceArray, *, handle: BlasHandle | None = None) -> DeviceArray:
    """``x *= alpha`` in place."""
    p = Precision.of(_check(x, "x").dtype)
    if not p.is_complex and np.iscomplexobj(alpha):
        raise TypeError(f"a complex alpha cannot scale {x.dtype} data in place")
    real_alpha = p.is_complex and np.isrealobj(alpha)
    prefix = {"c": "cs", "z": "zd"}[p.letter] if real_alpha else None
    _vector_call("scal", x, None, (alpha,), handle, prefix=prefix, reduction=False)
    return x


# --- matrices -----------------------------------------------------------------------------------


def _f_empty(shape: tuple[int, ...], dtype: Any) -> DeviceArray:
    """An array whose matrices (last two axes) are column-major, batch axes outermost."""
    t = rocmath.empty((*shape[:-2], shape[-1], shape[-2]), dtype)
    return t.transpose(*range(len(shape) - 2), len(shape) - 1, len(shape) - 2)


def _f_copy(a: DeviceArray, stream: Any) -> DeviceArray:
    out = _f_empty(a.shape, a.dtype)
    rocmath.launch(_copy_into, out, a, name="matrix layout copy", stream=stream)
    return out


class _NeedsCopy(Exception):
    """Neither axis of the matrices has a unit stride: BLAS cannot read them in place."""


def _contiguous_matrices(a: DeviceArray, stream: Any) -> DeviceArray:
    try:
        _as_column_major(a)
        return a
    except _NeedsCopy:
        return a.copy(stream=stream)


def _in_place(c: DeviceArray) -> bool:
    """Whether BLAS can write ``c``'s matrices where they are (one axis of unit stride)."""
    try:
        _as_column_major(c)
        return True
    except _NeedsCopy:
        return False


def _as_column_major(a: DeviceArray) -> tuple[str, int]:
    """How the last two axes of ``a`` read as a column-major matrix: ('N', ld) when columns are
    contiguous, ('T', ld) when rows are (row-major data is the transpose of column-major)."""
    isz = a.itemsize
    rs, cs = a.strides[-2], a.strides[-1]
    rows, cols = a.shape[-2], a.shape[-1]
    if (rs == isz or rows == 1) and cs % isz == 0 and cs // isz >= max(1, rows):
        return "N", max(cs // isz, rows, 1)
    if (cs == isz or cols == 1) and rs % isz == 0 and rs // isz >= max(1, cols):
        return "T", max(rs // isz, cols, 1)
    raise _NeedsCopy


def gemm(a: DeviceArray, b: DeviceArray, c: DeviceArray | None = None, *, alpha: Any = 1.0, beta: Any = 0.0,
         trans_a: str = "N", trans_b: str = "N", handle: BlasHandle | None = None) -> DeviceArray:
    """``c = alpha * op(a) @ op(b) + beta * c``, batched over the leading axes.

    ``op`` is ``'N'`` (as is), ``'T'`` (transpose) or ``'C'`` (conjugate transpose) of
    the last two axes.  Without ``c`` a new C-order array is returned (``beta`` must be 0).
    ``a`` and ``b`` of two dtypes are computed in NumPy's common one (``np.result_type``,
    the one converted to it first), which is ``c``'s.
    """
    from . import ex, level3

    _check(a, "a")
    _check(b, "b")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("gemm needs matrices (at least 2 axes); use dot for vectors")
    dtype = _common_dtype(a, b)
    p = Precision.of(dtype)
    ta, tb = str(trans_a).upper(), str(trans_b).upper()
    for name, t in (("trans_a", ta), ("trans_b", tb)):
        if t not in ("N", "T", "C"):
            raise ValueError(f"{name} must be 'N', 'T' or 'C', got {t!r}")
    m, k = (a.shape[-2], a.shape[-1]) if ta == "N" else (a.shape[-1], a.shape[-2])
    k2, n = (b.shape[-2], b.shape[-1]) if tb == "N" else (b.shape[-1], b.shape[-2])
    if k != k2:
        raise ValueError(f"inner dimensions differ: op(a) is {m}x{k}, op(b) is {k2}x{n}")
    batch_shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if c is None:
        if beta != 0:
            raise ValueError("beta != 0 needs c")
        c = rocmath.empty((*batch_shape, m, n), dtype)
    else:
        _check(c, "c")
        if c.shape != (*batch_shape, m, n) or c.dtype != dtype:
            raise ValueError(f"c has shape {c.shape} {c.dtype}, expected {(*batch_shape, m, n)} {dtype}")
    if m == 0 or n == 0 or c.size == 0:
        return c
    h = _handle(handle)
    s = h.stream  # every copy made here goes on the call's stream, in order with it
    a, b = _converted(a, dtype, s), _converted(b, dtype, s)
    # BLAS reads column-major matrices; row-major data is the transpose of column-major data.
    # conj(X) has no BLAS op, so a conjugate transpose of row-major data is copied to F order.
    a, b = _contiguous_matrices(a, s), _contiguous_matrices(b, s)
    if ta == "C" and _as_column_major(a)[0] == "T":
        a = a.copy("F", stream=s) if a.ndim == 2 else _f_copy(a, s)
    if tb == "C" and _as_column_major(b)[0] == "T":
        b = b.copy("F", stream=s) if b.ndim == 2 else _f_copy(b, s)
    fa, lda = _as_column_major(a)
    fb, ldb = _as_column_major(b)
    flip = {"N": "T", "T": "N"}
    opa = ta if fa == "N" else flip[ta]
    opb = tb if fb == "N" else flip[tb]
    # A row-major C is the column-major C^T = op(B)^T op(A)^T; with a conjugate op that has no
    # BLAS form, so the product goes to an F-order temporary copied into c.
    # So does a c whose matrices have no axis of unit stride (a view, or a 3-D F-order array).
    target = None
    if not _in_place(c) or (_as_column_major(c)[0] == "T" and "C" in (opa, opb)):
        target = c
        c = rocmath.empty(c.shape, c.dtype, "F") if c.ndim == 2 else _f_empty(c.shape, c.dtype)
        if beta != 0:
            rocmath.launch(_copy_into, c, target, name="gemm c copy", stream=s)
    c_order, ldc = _as_column_major(c)
    ba, bb, bc = _Batch(a, 2, batch_shape), _Batch(b, 2, batch_shape), _Batch(c, 2, batch_shape)
    if c_order == "T":  # C^T (n x m) = op(B)^T op(A)^T
        first, second = (b, opb, ldb, bb), (a, opa, lda, ba)
        mm, nn = n, m
        op1, op2 = flip[opb], flip[opa]
    else:
        first, second = (a, opa, lda, ba), (b, opb, ldb, bb)
        mm, nn = m, n
        op1, op2 = opa, opb
    count = bc.count
    module = ex if p.storage_only else level3  # (hgemm: rocblas.blas.ex)
    if not batch_shape:
        fn = getattr(module, f"{p.letter}gemm")
        fn(h, op1, op2, mm, nn, k, alpha, first[0], first[2], second[0], second[2], beta, c, ldc)
    elif all(x.uniform is not None for x in (ba, bb, bc)):
        fn = getattr(module, f"{p.letter}gemm_strided_batched")
        fn(h, op1, op2, mm, nn, k, alpha, first[0], first[2], first[3].uniform, second[0], second[2],
           second[3].uniform, beta, c, ldc, bc.uniform, count)
    else:
        fn = getattr(module, f"{p.letter}gemm_batched")
        fn(h, op1, op2, mm, nn, k, alpha, _pointer_array(first[3], first[0].ptr, s), first[2],
           _pointer_array(second[3], second[0].ptr, s), second[2], beta, _pointer_array(bc, c.ptr, s), ldc, count)
    if target is not None:
        rocmath.launch(_copy_into, target, c, name="gemm result copy", stream=s)
        return target
    return c


def _copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    dst[...] = src


def matmul(a: DeviceArray, b: DeviceArray, out: DeviceArray | None = None, *,
           handle: BlasHandle | None = None) -> DeviceArray:
    """``a @ b`` with NumPy's matmul rules for arrays of 2 or more axes (batched, broadcast).

    1-D operands are treated as NumPy does (a vector on the left is a row, on the right
    a column; that axis is removed from the result).
    """
    _check(a, "a")
    _check(b, "b")
    squeeze: list[int] = []
    if a.ndim == 1:
        a = a.reshape(1, a.shape[0])
        squeeze.append(-2)
    if b.ndim == 1:
        b = b.reshape(b.shape[0], 1)
        squeeze.append(-1)
    if out is not None and squeeze:
        raise ValueError("out= is not supported with 1-D operands")
    c = gemm(a, b, out, handle=handle)
    if squeeze:
        shape = list(c.shape)
        for axis in sorted(squeeze):
            shape.pop(axis if axis == -1 else len(shape) - 2)
        c = c.reshape(tuple(shape))
    return c
