"""Level-1 BLAS: vector-vector operations, in rocBLAS's check order and quick returns."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

import rocmath
from rocmath.errors import RocblasNotImplementedError
from rocmath.precision import BF16, C, D, H, S, Z

from . import _kernels_l1 as k
from ._api import BATCHED, PLAIN, STRIDED, Call, Routine, _looks_like_pointer, bind, public_names


def _zero_results(c: Call, count: int, dtype: Any) -> Any:
    """Reductions with nothing to reduce write 0 to their result(s), in host or device memory."""
    out, host = c.results(count, dtype)
    task = None if host is not None else c.launch(_fill_zero, out)
    return c.finish_results(task, host)


def _fill_zero(out: np.ndarray) -> None:
    out[...] = 0


# --- axpy, scal, copy, swap ----------------------------------------------------------------


def _axpy(c: Call) -> None:
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    if n <= 0 or c.batches() <= 0:
        return
    alpha = c.scalar("alpha")
    a = c.host_scalar("alpha")
    if a is not None and a == 0:
        return
    if c.host_mode and (c.is_null("x") or c.is_null("y")):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    if c.null_array_alpha(("x", "y")) == 0:
        return  # (rocBLAS's kernel skips a device alpha of 0, if(alpha): the null arrays are not read)
    x = c.vector("x", n, incx)
    y = c.vector("y", n, incy, writable=True)
    if c.precision is H:
        # rocBLAS's half axpy is a fused multiply-add in half (rocblas_fmadd_half2): one rounding of
        # alpha*x + y.  In double the product and the sum are exact for every result a half can hold,
        # so rounding the double result once gives its bits; float32 rounded twice (0x3C01 became 0x3C02).
        alpha, x, y = (_in_double(v) for v in (alpha, x, y))
    size = c.precision.itemsize * n * c.batch_count
    c.launch(k.axpy, alpha, x, y, flops=2 * n * c.batch_count * (4 if c.precision.is_complex else 1),
             bytes=3 * size)


def _in_double(v: Any) -> Any:
    """A half operand or scalar as the kernel's float64 (host scalars: an array; device ones and vectors:
    operands converted on the way in and out)."""
    if isinstance(v, np.ndarray):
        return v.astype(np.float64)
    return replace(v, compute_dtype=np.dtype(np.float64))


AXPY = Routine("axpy", ("n", "alpha", "x", "incx", "y", "incy"), {"x": "incx", "y": "incy"}, _axpy,
               summary="y := alpha*x + y.")


def _scal(c: Call, real_alpha: bool = False) -> None:
    n, incx = c.int("n"), c.int("incx")
    if n <= 0 or incx <= 0 or c.batches() <= 0:
        return
    real = c.precision.real.dtype if real_alpha else None
    alpha = c.scalar("alpha", real)
    if c.is_null("x"):
        raise c.invalid_pointer("x")
    if c.host_scalar("alpha", real) == 1:  # rocBLAS's quick return, before check-numerics (rocblas_scal_imp.hpp)
        return
    x = c.vector("x", n, incx, writable=True)
    c.launch(k.scal, alpha, x, flops=n * c.batch_count * (1 if not c.precision.is_complex else 6 - 4 * real_alpha),
             bytes=2 * c.precision.itemsize * n * c.batch_count)


SCAL = Routine("scal", ("n", "alpha", "x", "incx"), {"x": "incx"}, _scal, summary="x := alpha*x.")
SCAL_REAL = Routine("scal", ("n", "alpha", "x", "incx"), {"x": "incx"}, partial(_scal, real_alpha=True),
                    summary="x := alpha*x with a real alpha and a complex x.")


def _copy(c: Call) -> None:
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    if n <= 0 or c.batches() <= 0:
        return
    if c.is_null("x") or c.is_null("y"):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    c.launch(k.copy, c.vector("x", n, incx), c.vector("y", n, incy, writable=True),
             bytes=2 * c.precision.itemsize * n * c.batch_count)


COPY = Routine("copy", ("n", "x", "incx", "y", "incy"), {"x": "incx", "y": "incy"}, _copy, summary="y := x.")


def _swap(c: Call) -> None:
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    if n <= 0 or c.batches() <= 0:
        return
    if c.is_null("x") or c.is_null("y"):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    c.launch(k.swap, c.vector("x", n, incx, writable=True), c.vector("y", n, incy, writable=True),
             bytes=4 * c.precision.itemsize * n * c.batch_count)


SWAP = Routine("swap", ("n", "x", "incx", "y", "incy"), {"x": "incx", "y": "incy"}, _swap,
               summary="Exchange x and y.")


# --- reductions ------------------------------------------------------------------------------


def _dot(c: Call, conjugate: bool = False) -> Any:
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    count = max(c.batches(), 0)
    result = c.routine.result or "result"
    if count == 0:  # the batched forms return before they look at the result pointer
        return _zero_results(c, 0, c.dtype) if c.host_mode else None
    device_result_null = not c.host_mode and c.is_null(result)
    if n <= 0:
        if device_result_null:
            raise c.invalid_pointer(result)
        return _zero_results(c, count, c.dtype)
    if c.is_null("x") or c.is_null("y") or device_result_null:
        raise c.invalid_pointer("x" if c.is_null("x") else "y" if c.is_null("y") else result)
    x, y = c.vector("x", n, incx), c.vector("y", n, incy)
    out, host = c.results(count, c.dtype)
    task = c.launch(k.dot, x, y, conjugate, out, flops=2 * n * count * (4 if c.precision.is_complex else 1),
                    bytes=2 * c.precision.itemsize * n * count)
    return c.finish_results(task, host)


def _reduction_bytes(c: Call, block: int, item: int, n_only: bool = False) -> int:
    """rocBLAS's reduction workspace, computed before any check: ``item`` bytes per block of
    ``block`` elements and one more, per batch entry (rocblas_reduction_workspace_size,
    rocblas_single_pass_reduction_workspace_size: rocblas_reduction.hpp); none for an empty
    problem (``n <= 0``, ``incx <= 0`` unless ``n_only``, ``batch_count <= 0``)."""
    n, count = c.int("n"), c.batches()
    if n <= 0 or count <= 0 or (not n_only and c.int("incx") <= 0):
        return 0
    return item * ((n - 1) // block + 2) * count


def _dot_bytes(c: Call) -> int:
    # ROCBLAS_DOT_NB (512) times the elements per thread (8, 4, 2 for 2-, 4-, 8+-byte types),
    # partial sums in the type of the result (float for bfloat16): rocblas_dot_imp.hpp, rocblas_dot.hpp
    size = c.precision.itemsize
    per_thread = 2 if size >= 8 else 4 if size >= 4 else 8
    return _reduction_bytes(c, 512 * per_thread, 4 if c.precision is BF16 else size, n_only=True)


_DOT_PARAMS = ("n", "x", "incx", "y", "incy", "result")
DOT = Routine("dot", _DOT_PARAMS, {"x": "incx", "y": "incy"}, _dot, result="result", workspace=_dot_bytes,
              summary="result := x . y (returned in host pointer mode).")
DOTU = Routine("dotu", _DOT_PARAMS, {"x": "incx", "y": "incy"}, _dot, result="result", workspace=_dot_bytes,
               summary="result := x . y, unconjugated (returned in host pointer mode).")
DOTC = Routine("dotc", _DOT_PARAMS, {"x": "incx", "y": "incy"}, partial(_dot, conjugate=True), result="result",
               workspace=_dot_bytes, summary="result := conj(x) . y (returned in host pointer mode).")


def _reduce(c: Call, kernel: Any, flops_per: int, result_dtype: Any, extra: tuple[Any, ...] = ()) -> Any:
    n, incx = c.int("n"), c.int("incx")
    count = max(c.batches(), 0)
    result = c.routine.result or "result"
    if not c.host_mode and c.is_null(result):
        raise c.invalid_pointer(result)
    if n <= 0 or incx <= 0 or count == 0:
        return _zero_results(c, count, result_dtype)
    if c.is_null("x"):
        raise c.invalid_pointer("x")
    out, host = c.results(count, result_dtype)
    task = c.launch(kernel, c.vector("x", n, incx), *extra, out, flops=flops_per * n * count,
                    bytes=c.precision.itemsize * n * count)
    return c.finish_results(task, host)


_RED_PARAMS = ("n", "x", "incx", "result")


def _asum(c: Call) -> Any:
    return _reduce(c, k.asum, 2, c.precision.real.dtype)


def _nrm2(c: Call) -> Any:
    # Below n * tiny / eps, squares lost to underflow could matter: such sums are redone scaled.
    real = np.finfo(c.precision.real.compute_dtype)
    safe = real.dtype.type(max(c.int("n"), 1) * float(real.tiny) / float(real.eps))
    return _reduce(c, k.nrm2, 2, c.precision.real.dtype, (safe,))


def _iamax(c: Call, find_max: bool = True) -> Any:
    # The index is a rocblas_int, an int64_t in the _64 functions (8 bytes written in device mode).
    return _reduce(c, k.iamax, 1, np.int64 if c.ilp64 else np.int32, (find_max,))


def _sum_bytes(c: Call) -> int:
    # ROCBLAS_ASUM_NB = ROCBLAS_NRM2_NB = 512, real partial sums (rocblas_asum_imp.hpp, rocblas_nrm2_imp.hpp)
    return _reduction_bytes(c, 512, c.precision.real.itemsize)


def _index_bytes(c: Call) -> int:
    # ROCBLAS_IAMAX_NB = 1024; partials are rocblas_index_value_t: an int32 index, then the
    # real value, aligned to it (8 or 16 bytes): rocblas_iamax_imp.hpp, rocblas_iamin_imp.hpp
    return _reduction_bytes(c, 1024, 2 * max(4, c.precision.real.itemsize))


ASUM = Routine("asum", _RED_PARAMS, {"x": "incx"}, _asum, result="result", workspace=_sum_bytes,
               summary="result := sum(|Re x_i| + |Im x_i|) (returned in host pointer mode).")
NRM2 = Routine("nrm2", _RED_PARAMS, {"x": "incx"}, _nrm2, result="result", workspace=_sum_bytes,
               summary="result := ||x||_2, overflow-safe (returned in host pointer mode).")
AMAX = Routine("amax", _RED_PARAMS, {"x": "incx"}, _iamax, result="result", workspace=_index_bytes,
               summary="result := 1-based index of the first largest |Re x_i| + |Im x_i|.")
AMIN = Routine("amin", _RED_PARAMS, {"x": "incx"}, partial(_iamax, find_max=False), result="result",
               workspace=_index_bytes,
               summary="result := 1-based index of the first smallest |Re x_i| + |Im x_i|.")



# --- rotations -------------------------------------------------------------------------------


def _rot(c: Call, real_s: bool = False, rounding: tuple[int, int, float] | None = None) -> None:
    """rot's body; ``rounding`` (rot_ex of half or bfloat16 data): the storage type's significant
    bits, least exponent and largest finite value, each product rounded to it (:func:`k.rot_rounded`)."""
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    if n <= 0 or c.batches() <= 0:
        return
    real = c.precision.real.dtype
    cs = c.scalar("c", real)
    sn = c.scalar("s", real if real_s else None)
    if c.is_null("x") or c.is_null("y"):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    x = c.vector("x", n, incx, writable=True)
    y = c.vector("y", n, incy, writable=True)
    work = {"flops": 6 * n * c.batch_count * (4 if c.precision.is_complex else 1),
            "bytes": 4 * c.precision.itemsize * n * c.batch_count}
    if rounding is None:
        c.launch(k.rot, x, y, cs, sn, **work)
    else:
        c.launch(k.rot_rounded, x, y, cs, sn, *rounding, **work)


_ROT_PARAMS = ("n", "x", "incx", "y", "incy", "c", "s")
ROT = Routine("rot", _ROT_PARAMS, {"x": "incx", "y": "incy"}, _rot,
              summary="Apply the plane rotation (c, s): x := c*x + s*y, y := c*y - conj(s)*x.")
ROT_REAL = Routine("rot", _ROT_PARAMS, {"x": "incx", "y": "incy"}, partial(_rot, real_s=True),
                   summary="Apply a real plane rotation (c, s) to complex vectors x and y.")


def _host_batch(c: Call, name: str, width: int, dtype: Any) -> np.ndarray:
    """Host-mode rotg/rotmg/rotm operands: a number (plain calls) or an array with one
    value (or ``width`` values) per batch entry; returned as a (batch, width) array."""
    value = c[name]
    count = c.batches()
    if value is None:
        raise c.invalid_pointer(name)
    if isinstance(value, rocmath.DeviceArray) or (
            isinstance(value, (int, np.integer)) and not isinstance(value, bool) and _looks_like_pointer(int(value))):
        raise c.invalid_pointer(name, "a device pointer was given in host pointer mode; pass the values, or set "
                                      "device pointer mode")
    arr = np.array(value, dtype=dtype).reshape(-1)
    if c.flavour is STRIDED:  # entry b at b * stride, whatever the storage holds beyond the last entry
        stride = c.stride(name)
        if stride < 0 or arr.size < (count - 1) * stride + width:
            raise c.invalid_size(name, f"{arr.size} value(s) hold no {count} entries of {width} at stride {stride}")
        arr = np.stack([arr[b * stride: b * stride + width] for b in range(count)])
    if arr.size != count * width:
        raise c.invalid_size(name, f"expected {width} value(s) per batch entry for {count} entries")
    return arr.reshape(count, width)


def _scalar_operands(c: Call, names: tuple[str, ...], dtypes: tuple[Any, ...], widths: tuple[int, ...]) -> list[Any]:
    for name in names:
        if c.is_null(name) and not (c.host_mode and name in ("c", "s")):
            raise c.invalid_pointer(name)
    return [c.vector(n, w, 1, writable=True, dtype=dt) for n, dt, w in zip(names, dtypes, widths, strict=True)]


def _rotg(c: Call) -> Any:
    if c.batches() <= 0:
        return None
    real = c.precision.real.dtype
    dtypes = (c.dtype, c.dtype, real, c.dtype)
    kern = k.rotg_complex if c.precision.is_complex else k.rotg
    if c.host_mode:
        # As in rocBLAS, host-mode scalars are computed on the host, at once.
        a, b = _host_batch(c, "a", 1, c.dtype), _host_batch(c, "b", 1, c.dtype)
        cs = np.zeros_like(a, dtype=real)
        sn = np.zeros_like(a)
        kern(a, b, cs, sn)
        if c.flavour is PLAIN:
            return a[0, 0], b[0, 0], cs[0, 0], sn[0, 0]
        return a[:, 0], b[:, 0], cs[:, 0], sn[:, 0]
    c.launch(kern, *_scalar_operands(c, ("a", "b", "c", "s"), dtypes, (1, 1, 1, 1)))
    return None


ROTG = Routine("rotg", ("a", "b", "c", "s"), {"a": "a", "b": "b", "c": "c", "s": "s"}, _rotg, optional=("c", "s"),
               summary="Construct a Givens rotation: host mode returns (r, z, c, s) (b unchanged for complex).")


def _rotm(c: Call) -> None:
    n, incx, incy = c.int("n"), c.int("incx"), c.int("incy")
    if n <= 0 or c.batches() <= 0:
        return
    if c.is_null("param"):
        raise c.invalid_pointer("param")
    param: Any = None
    if not c.host_mode:
        param = _scalar_operands(c, ("param",), (c.dtype,), (5,))[0]
    elif c.flavour is PLAIN or (c.flavour is STRIDED and c.stride("param") == 0):
        # rocBLAS reads a host param only for its quick return on the identity, and not for
        # the batched form (rocblas_rotm_quick_return_param)
        param = _host_batch(c, "param", 5, c.dtype)
        if param[0, 0] == -2:
            return
    if c.is_null("x") or c.is_null("y"):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    if c.host_mode and c.flavour is not PLAIN:
        # rocBLAS has no host-mode kernel for the batched forms (rocblas_rotm_kernels.cpp)
        raise RocblasNotImplementedError(f"rocblas_{c.public_name} does not implement a param in host memory; use "
                                         "device pointer mode", arg="param", index=c.index("param"))
    c.launch(k.rotm, c.vector("x", n, incx, writable=True), c.vector("y", n, incy, writable=True), param,
             flops=6 * n * c.batch_count, bytes=4 * c.precision.itemsize * n * c.batch_count)


ROTM = Routine("rotm", ("n", "x", "incx", "y", "incy", "param"), {"x": "incx", "y": "incy", "param": "param"},
               _rotm, summary="Apply the modified Givens transformation param = (flag, h11, h21, h12, h22).")


def _rotmg(c: Call) -> Any:
    if c.batches() <= 0:
        return None
    names = ("d1", "d2", "x1", "y1", "param")
    if c.host_mode:
        d1, d2, x1 = (_host_batch(c, n, 1, c.dtype) for n in names[:3])
        y1 = _host_batch(c, "y1", 1, c.dtype)
        param = np.zeros((d1.shape[0], 5), dtype=c.dtype)
        if c["param"] is not None:
            param[:] = _host_batch(c, "param", 5, c.dtype)
        k.rotmg(d1, d2, x1, y1, param)
        if c.flavour is PLAIN:
            return d1[0, 0], d2[0, 0], x1[0, 0], param[0]
        return d1[:, 0], d2[:, 0], x1[:, 0], param
    c.launch(k.rotmg, *_scalar_operands(c, names, (c.dtype,) * 5, (1, 1, 1, 1, 5)))
    return None


ROTMG = Routine("rotmg", ("d1", "d2", "x1", "y1", "param"),
                {"d1": "d1", "d2": "d2", "x1": "x1", "y1": "y1", "param": "param"}, _rotmg, optional=("param",),
                summary="Construct a modified Givens rotation: host mode returns (d1, d2, x1, param).")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
haxpy = bind(AXPY, H)
haxpy_batched = bind(AXPY, H, BATCHED)
haxpy_strided_batched = bind(AXPY, H, STRIDED)
saxpy = bind(AXPY, S)
daxpy = bind(AXPY, D)
caxpy = bind(AXPY, C)
zaxpy = bind(AXPY, Z)
saxpy_batched = bind(AXPY, S, BATCHED)
daxpy_batched = bind(AXPY, D, BATCHED)
caxpy_batched = bind(AXPY, C, BATCHED)
zaxpy_batched = bind(AXPY, Z, BATCHED)
saxpy_strided_batched = bind(AXPY, S, STRIDED)
daxpy_strided_batched = bind(AXPY, D, STRIDED)
caxpy_strided_batched = bind(AXPY, C, STRIDED)
zaxpy_strided_batched = bind(AXPY, Z, STRIDED)
sscal = bind(SCAL, S)
dscal = bind(SCAL, D)
cscal = bind(SCAL, C)
zscal = bind(SCAL, Z)
sscal_batched = bind(SCAL, S, BATCHED)
dscal_batched = bind(SCAL, D, BATCHED)
cscal_batched = bind(SCAL, C, BATCHED)
zscal_batched = bind(SCAL, Z, BATCHED)
sscal_strided_batched = bind(SCAL, S, STRIDED)
dscal_strided_batched = bind(SCAL, D, STRIDED)
cscal_strided_batched = bind(SCAL, C, STRIDED)
zscal_strided_batched = bind(SCAL, Z, STRIDED)
csscal = bind(SCAL_REAL, C, prefix="cs")
zdscal = bind(SCAL_REAL, Z, prefix="zd")
csscal_batched = bind(SCAL_REAL, C, BATCHED, prefix="cs")
zdscal_batched = bind(SCAL_REAL, Z, BATCHED, prefix="zd")
csscal_strided_batched = bind(SCAL_REAL, C, STRIDED, prefix="cs")
zdscal_strided_batched = bind(SCAL_REAL, Z, STRIDED, prefix="zd")
scopy = bind(COPY, S)
dcopy = bind(COPY, D)
ccopy = bind(COPY, C)
zcopy = bind(COPY, Z)
scopy_batched = bind(COPY, S, BATCHED)
dcopy_batched = bind(COPY, D, BATCHED)
ccopy_batched = bind(COPY, C, BATCHED)
zcopy_batched = bind(COPY, Z, BATCHED)
scopy_strided_batched = bind(COPY, S, STRIDED)
dcopy_strided_batched = bind(COPY, D, STRIDED)
ccopy_strided_batched = bind(COPY, C, STRIDED)
zcopy_strided_batched = bind(COPY, Z, STRIDED)
sswap = bind(SWAP, S)
dswap = bind(SWAP, D)
cswap = bind(SWAP, C)
zswap = bind(SWAP, Z)
sswap_batched = bind(SWAP, S, BATCHED)
dswap_batched = bind(SWAP, D, BATCHED)
cswap_batched = bind(SWAP, C, BATCHED)
zswap_batched = bind(SWAP, Z, BATCHED)
sswap_strided_batched = bind(SWAP, S, STRIDED)
dswap_strided_batched = bind(SWAP, D, STRIDED)
cswap_strided_batched = bind(SWAP, C, STRIDED)
zswap_strided_batched = bind(SWAP, Z, STRIDED)
hdot = bind(DOT, H)
hdot_batched = bind(DOT, H, BATCHED)
hdot_strided_batched = bind(DOT, H, STRIDED)
bfdot = bind(DOT, BF16)
bfdot_batched = bind(DOT, BF16, BATCHED)
bfdot_strided_batched = bind(DOT, BF16, STRIDED)
sdot = bind(DOT, S)
ddot = bind(DOT, D)
sdot_batched = bind(DOT, S, BATCHED)
ddot_batched = bind(DOT, D, BATCHED)
sdot_strided_batched = bind(DOT, S, STRIDED)
ddot_strided_batched = bind(DOT, D, STRIDED)
cdotu = bind(DOTU, C)
zdotu = bind(DOTU, Z)
cdotu_batched = bind(DOTU, C, BATCHED)
zdotu_batched = bind(DOTU, Z, BATCHED)
cdotu_strided_batched = bind(DOTU, C, STRIDED)
zdotu_strided_batched = bind(DOTU, Z, STRIDED)
cdotc = bind(DOTC, C)
zdotc = bind(DOTC, Z)
cdotc_batched = bind(DOTC, C, BATCHED)
zdotc_batched = bind(DOTC, Z, BATCHED)
cdotc_strided_batched = bind(DOTC, C, STRIDED)
zdotc_strided_batched = bind(DOTC, Z, STRIDED)
sasum = bind(ASUM, S)
dasum = bind(ASUM, D)
scasum = bind(ASUM, C, prefix="sc")
dzasum = bind(ASUM, Z, prefix="dz")
sasum_batched = bind(ASUM, S, BATCHED)
dasum_batched = bind(ASUM, D, BATCHED)
scasum_batched = bind(ASUM, C, BATCHED, prefix="sc")
dzasum_batched = bind(ASUM, Z, BATCHED, prefix="dz")
sasum_strided_batched = bind(ASUM, S, STRIDED)
dasum_strided_batched = bind(ASUM, D, STRIDED)
scasum_strided_batched = bind(ASUM, C, STRIDED, prefix="sc")
dzasum_strided_batched = bind(ASUM, Z, STRIDED, prefix="dz")
snrm2 = bind(NRM2, S)
dnrm2 = bind(NRM2, D)
scnrm2 = bind(NRM2, C, prefix="sc")
dznrm2 = bind(NRM2, Z, prefix="dz")
snrm2_batched = bind(NRM2, S, BATCHED)
dnrm2_batched = bind(NRM2, D, BATCHED)
scnrm2_batched = bind(NRM2, C, BATCHED, prefix="sc")
dznrm2_batched = bind(NRM2, Z, BATCHED, prefix="dz")
snrm2_strided_batched = bind(NRM2, S, STRIDED)
dnrm2_strided_batched = bind(NRM2, D, STRIDED)
scnrm2_strided_batched = bind(NRM2, C, STRIDED, prefix="sc")
dznrm2_strided_batched = bind(NRM2, Z, STRIDED, prefix="dz")
isamax = bind(AMAX, S, prefix="is")
idamax = bind(AMAX, D, prefix="id")
icamax = bind(AMAX, C, prefix="ic")
izamax = bind(AMAX, Z, prefix="iz")
isamax_batched = bind(AMAX, S, BATCHED, prefix="is")
idamax_batched = bind(AMAX, D, BATCHED, prefix="id")
icamax_batched = bind(AMAX, C, BATCHED, prefix="ic")
izamax_batched = bind(AMAX, Z, BATCHED, prefix="iz")
isamax_strided_batched = bind(AMAX, S, STRIDED, prefix="is")
idamax_strided_batched = bind(AMAX, D, STRIDED, prefix="id")
icamax_strided_batched = bind(AMAX, C, STRIDED, prefix="ic")
izamax_strided_batched = bind(AMAX, Z, STRIDED, prefix="iz")
isamin = bind(AMIN, S, prefix="is")
idamin = bind(AMIN, D, prefix="id")
icamin = bind(AMIN, C, prefix="ic")
izamin = bind(AMIN, Z, prefix="iz")
isamin_batched = bind(AMIN, S, BATCHED, prefix="is")
idamin_batched = bind(AMIN, D, BATCHED, prefix="id")
icamin_batched = bind(AMIN, C, BATCHED, prefix="ic")
izamin_batched = bind(AMIN, Z, BATCHED, prefix="iz")
isamin_strided_batched = bind(AMIN, S, STRIDED, prefix="is")
idamin_strided_batched = bind(AMIN, D, STRIDED, prefix="id")
icamin_strided_batched = bind(AMIN, C, STRIDED, prefix="ic")
izamin_strided_batched = bind(AMIN, Z, STRIDED, prefix="iz")
srot = bind(ROT, S)
drot = bind(ROT, D)
crot = bind(ROT, C)
zrot = bind(ROT, Z)
srot_batched = bind(ROT, S, BATCHED)
drot_batched = bind(ROT, D, BATCHED)
crot_batched = bind(ROT, C, BATCHED)
zrot_batched = bind(ROT, Z, BATCHED)
srot_strided_batched = bind(ROT, S, STRIDED)
drot_strided_batched = bind(ROT, D, STRIDED)
crot_strided_batched = bind(ROT, C, STRIDED)
zrot_strided_batched = bind(ROT, Z, STRIDED)
csrot = bind(ROT_REAL, C, prefix="cs")
zdrot = bind(ROT_REAL, Z, prefix="zd")
csrot_batched = bind(ROT_REAL, C, BATCHED, prefix="cs")
zdrot_batched = bind(ROT_REAL, Z, BATCHED, prefix="zd")
csrot_strided_batched = bind(ROT_REAL, C, STRIDED, prefix="cs")
zdrot_strided_batched = bind(ROT_REAL, Z, STRIDED, prefix="zd")
srotg = bind(ROTG, S)
drotg = bind(ROTG, D)
crotg = bind(ROTG, C)
zrotg = bind(ROTG, Z)
srotg_batched = bind(ROTG, S, BATCHED)
drotg_batched = bind(ROTG, D, BATCHED)
crotg_batched = bind(ROTG, C, BATCHED)
zrotg_batched = bind(ROTG, Z, BATCHED)
srotg_strided_batched = bind(ROTG, S, STRIDED)
drotg_strided_batched = bind(ROTG, D, STRIDED)
crotg_strided_batched = bind(ROTG, C, STRIDED)
zrotg_strided_batched = bind(ROTG, Z, STRIDED)
srotm = bind(ROTM, S)
drotm = bind(ROTM, D)
srotm_batched = bind(ROTM, S, BATCHED)
drotm_batched = bind(ROTM, D, BATCHED)
srotm_strided_batched = bind(ROTM, S, STRIDED)
drotm_strided_batched = bind(ROTM, D, STRIDED)
srotmg = bind(ROTMG, S)
drotmg = bind(ROTMG, D)
srotmg_batched = bind(ROTMG, S, BATCHED)
drotmg_batched = bind(ROTMG, D, BATCHED)
srotmg_strided_batched = bind(ROTMG, S, STRIDED)
drotmg_strided_batched = bind(ROTMG, D, STRIDED)
# rocBLAS's ILP64 API: the same routines with int64_t sizes (bind(..., ilp64=True)).
haxpy_64 = bind(AXPY, H, ilp64=True)
haxpy_batched_64 = bind(AXPY, H, BATCHED, ilp64=True)
haxpy_strided_batched_64 = bind(AXPY, H, STRIDED, ilp64=True)
saxpy_64 = bind(AXPY, S, ilp64=True)
daxpy_64 = bind(AXPY, D, ilp64=True)
caxpy_64 = bind(AXPY, C, ilp64=True)
zaxpy_64 = bind(AXPY, Z, ilp64=True)
saxpy_batched_64 = bind(AXPY, S, BATCHED, ilp64=True)
daxpy_batched_64 = bind(AXPY, D, BATCHED, ilp64=True)
caxpy_batched_64 = bind(AXPY, C, BATCHED, ilp64=True)
zaxpy_batched_64 = bind(AXPY, Z, BATCHED, ilp64=True)
saxpy_strided_batched_64 = bind(AXPY, S, STRIDED, ilp64=True)
daxpy_strided_batched_64 = bind(AXPY, D, STRIDED, ilp64=True)
caxpy_strided_batched_64 = bind(AXPY, C, STRIDED, ilp64=True)
zaxpy_strided_batched_64 = bind(AXPY, Z, STRIDED, ilp64=True)
sscal_64 = bind(SCAL, S, ilp64=True)
dscal_64 = bind(SCAL, D, ilp64=True)
cscal_64 = bind(SCAL, C, ilp64=True)
zscal_64 = bind(SCAL, Z, ilp64=True)
sscal_batched_64 = bind(SCAL, S, BATCHED, ilp64=True)
dscal_batched_64 = bind(SCAL, D, BATCHED, ilp64=True)
cscal_batched_64 = bind(SCAL, C, BATCHED, ilp64=True)
zscal_batched_64 = bind(SCAL, Z, BATCHED, ilp64=True)
sscal_strided_batched_64 = bind(SCAL, S, STRIDED, ilp64=True)
dscal_strided_batched_64 = bind(SCAL, D, STRIDED, ilp64=True)
cscal_strided_batched_64 = bind(SCAL, C, STRIDED, ilp64=True)
zscal_strided_batched_64 = bind(SCAL, Z, STRIDED, ilp64=True)
csscal_64 = bind(SCAL_REAL, C, prefix="cs", ilp64=True)
zdscal_64 = bind(SCAL_REAL, Z, prefix="zd", ilp64=True)
csscal_batched_64 = bind(SCAL_REAL, C, BATCHED, prefix="cs", ilp64=True)
zdscal_batched_64 = bind(SCAL_REAL, Z, BATCHED, prefix="zd", ilp64=True)
csscal_strided_batched_64 = bind(SCAL_REAL, C, STRIDED, prefix="cs", ilp64=True)
zdscal_strided_batched_64 = bind(SCAL_REAL, Z, STRIDED, prefix="zd", ilp64=True)
scopy_64 = bind(COPY, S, ilp64=True)
dcopy_64 = bind(COPY, D, ilp64=True)
ccopy_64 = bind(COPY, C, ilp64=True)
zcopy_64 = bind(COPY, Z, ilp64=True)
scopy_batched_64 = bind(COPY, S, BATCHED, ilp64=True)
dcopy_batched_64 = bind(COPY, D, BATCHED, ilp64=True)
ccopy_batched_64 = bind(COPY, C, BATCHED, ilp64=True)
zcopy_batched_64 = bind(COPY, Z, BATCHED, ilp64=True)
scopy_strided_batched_64 = bind(COPY, S, STRIDED, ilp64=True)
dcopy_strided_batched_64 = bind(COPY, D, STRIDED, ilp64=True)
ccopy_strided_batched_64 = bind(COPY, C, STRIDED, ilp64=True)
zcopy_strided_batched_64 = bind(COPY, Z, STRIDED, ilp64=True)
sswap_64 = bind(SWAP, S, ilp64=True)
dswap_64 = bind(SWAP, D, ilp64=True)
cswap_64 = bind(SWAP, C, ilp64=True)
zswap_64 = bind(SWAP, Z, ilp64=True)
sswap_batched_64 = bind(SWAP, S, BATCHED, ilp64=True)
dswap_batched_64 = bind(SWAP, D, BATCHED, ilp64=True)
cswap_batched_64 = bind(SWAP, C, BATCHED, ilp64=True)
zswap_batched_64 = bind(SWAP, Z, BATCHED, ilp64=True)
sswap_strided_batched_64 = bind(SWAP, S, STRIDED, ilp64=True)
dswap_strided_batched_64 = bind(SWAP, D, STRIDED, ilp64=True)
cswap_strided_batched_64 = bind(SWAP, C, STRIDED, ilp64=True)
zswap_strided_batched_64 = bind(SWAP, Z, STRIDED, ilp64=True)
hdot_64 = bind(DOT, H, ilp64=True)
hdot_batched_64 = bind(DOT, H, BATCHED, ilp64=True)
hdot_strided_batched_64 = bind(DOT, H, STRIDED, ilp64=True)
bfdot_64 = bind(DOT, BF16, ilp64=True)
bfdot_batched_64 = bind(DOT, BF16, BATCHED, ilp64=True)
bfdot_strided_batched_64 = bind(DOT, BF16, STRIDED, ilp64=True)
sdot_64 = bind(DOT, S, ilp64=True)
ddot_64 = bind(DOT, D, ilp64=True)
sdot_batched_64 = bind(DOT, S, BATCHED, ilp64=True)
ddot_batched_64 = bind(DOT, D, BATCHED, ilp64=True)
sdot_strided_batched_64 = bind(DOT, S, STRIDED, ilp64=True)
ddot_strided_batched_64 = bind(DOT, D, STRIDED, ilp64=True)
cdotu_64 = bind(DOTU, C, ilp64=True)
zdotu_64 = bind(DOTU, Z, ilp64=True)
cdotu_batched_64 = bind(DOTU, C, BATCHED, ilp64=True)
zdotu_batched_64 = bind(DOTU, Z, BATCHED, ilp64=True)
cdotu_strided_batched_64 = bind(DOTU, C, STRIDED, ilp64=True)
zdotu_strided_batched_64 = bind(DOTU, Z, STRIDED, ilp64=True)
cdotc_64 = bind(DOTC, C, ilp64=True)
zdotc_64 = bind(DOTC, Z, ilp64=True)
cdotc_batched_64 = bind(DOTC, C, BATCHED, ilp64=True)
zdotc_batched_64 = bind(DOTC, Z, BATCHED, ilp64=True)
cdotc_strided_batched_64 = bind(DOTC, C, STRIDED, ilp64=True)
zdotc_strided_batched_64 = bind(DOTC, Z, STRIDED, ilp64=True)
sasum_64 = bind(ASUM, S, ilp64=True)
dasum_64 = bind(ASUM, D, ilp64=True)
scasum_64 = bind(ASUM, C, prefix="sc", ilp64=True)
dzasum_64 = bind(ASUM, Z, prefix="dz", ilp64=True)
sasum_batched_64 = bind(ASUM, S, BATCHED, ilp64=True)
dasum_batched_64 = bind(ASUM, D, BATCHED, ilp64=True)
scasum_batched_64 = bind(ASUM, C, BATCHED, prefix="sc", ilp64=True)
dzasum_batched_64 = bind(ASUM, Z, BATCHED, prefix="dz", ilp64=True)
sasum_strided_batched_64 = bind(ASUM, S, STRIDED, ilp64=True)
dasum_strided_batched_64 = bind(ASUM, D, STRIDED, ilp64=True)
scasum_strided_batched_64 = bind(ASUM, C, STRIDED, prefix="sc", ilp64=True)
dzasum_strided_batched_64 = bind(ASUM, Z, STRIDED, prefix="dz", ilp64=True)
snrm2_64 = bind(NRM2, S, ilp64=True)
dnrm2_64 = bind(NRM2, D, ilp64=True)
scnrm2_64 = bind(NRM2, C, prefix="sc", ilp64=True)
dznrm2_64 = bind(NRM2, Z, prefix="dz", ilp64=True)
snrm2_batched_64 = bind(NRM2, S, BATCHED, ilp64=True)
dnrm2_batched_64 = bind(NRM2, D, BATCHED, ilp64=True)
scnrm2_batched_64 = bind(NRM2, C, BATCHED, prefix="sc", ilp64=True)
dznrm2_batched_64 = bind(NRM2, Z, BATCHED, prefix="dz", ilp64=True)
snrm2_strided_batched_64 = bind(NRM2, S, STRIDED, ilp64=True)
dnrm2_strided_batched_64 = bind(NRM2, D, STRIDED, ilp64=True)
scnrm2_strided_batched_64 = bind(NRM2, C, STRIDED, prefix="sc", ilp64=True)
dznrm2_strided_batched_64 = bind(NRM2, Z, STRIDED, prefix="dz", ilp64=True)
isamax_64 = bind(AMAX, S, prefix="is", ilp64=True)
idamax_64 = bind(AMAX, D, prefix="id", ilp64=True)
icamax_64 = bind(AMAX, C, prefix="ic", ilp64=True)
izamax_64 = bind(AMAX, Z, prefix="iz", ilp64=True)
isamax_batched_64 = bind(AMAX, S, BATCHED, prefix="is", ilp64=True)
idamax_batched_64 = bind(AMAX, D, BATCHED, prefix="id", ilp64=True)
icamax_batched_64 = bind(AMAX, C, BATCHED, prefix="ic", ilp64=True)
izamax_batched_64 = bind(AMAX, Z, BATCHED, prefix="iz", ilp64=True)
isamax_strided_batched_64 = bind(AMAX, S, STRIDED, prefix="is", ilp64=True)
idamax_strided_batched_64 = bind(AMAX, D, STRIDED, prefix="id", ilp64=True)
icamax_strided_batched_64 = bind(AMAX, C, STRIDED, prefix="ic", ilp64=True)
izamax_strided_batched_64 = bind(AMAX, Z, STRIDED, prefix="iz", ilp64=True)
isamin_64 = bind(AMIN, S, prefix="is", ilp64=True)
idamin_64 = bind(AMIN, D, prefix="id", ilp64=True)
icamin_64 = bind(AMIN, C, prefix="ic", ilp64=True)
izamin_64 = bind(AMIN, Z, prefix="iz", ilp64=True)
isamin_batched_64 = bind(AMIN, S, BATCHED, prefix="is", ilp64=True)
idamin_batched_64 = bind(AMIN, D, BATCHED, prefix="id", ilp64=True)
icamin_batched_64 = bind(AMIN, C, BATCHED, prefix="ic", ilp64=True)
izamin_batched_64 = bind(AMIN, Z, BATCHED, prefix="iz", ilp64=True)
isamin_strided_batched_64 = bind(AMIN, S, STRIDED, prefix="is", ilp64=True)
idamin_strided_batched_64 = bind(AMIN, D, STRIDED, prefix="id", ilp64=True)
icamin_strided_batched_64 = bind(AMIN, C, STRIDED, prefix="ic", ilp64=True)
izamin_strided_batched_64 = bind(AMIN, Z, STRIDED, prefix="iz", ilp64=True)
srot_64 = bind(ROT, S, ilp64=True)
drot_64 = bind(ROT, D, ilp64=True)
crot_64 = bind(ROT, C, ilp64=True)
zrot_64 = bind(ROT, Z, ilp64=True)
srot_batched_64 = bind(ROT, S, BATCHED, ilp64=True)
drot_batched_64 = bind(ROT, D, BATCHED, ilp64=True)
crot_batched_64 = bind(ROT, C, BATCHED, ilp64=True)
zrot_batched_64 = bind(ROT, Z, BATCHED, ilp64=True)
srot_strided_batched_64 = bind(ROT, S, STRIDED, ilp64=True)
drot_strided_batched_64 = bind(ROT, D, STRIDED, ilp64=True)
crot_strided_batched_64 = bind(ROT, C, STRIDED, ilp64=True)
zrot_strided_batched_64 = bind(ROT, Z, STRIDED, ilp64=True)
csrot_64 = bind(ROT_REAL, C, prefix="cs", ilp64=True)
zdrot_64 = bind(ROT_REAL, Z, prefix="zd", ilp64=True)
csrot_batched_64 = bind(ROT_REAL, C, BATCHED, prefix="cs", ilp64=True)
zdrot_batched_64 = bind(ROT_REAL, Z, BATCHED, prefix="zd", ilp64=True)
csrot_strided_batched_64 = bind(ROT_REAL, C, STRIDED, prefix="cs", ilp64=True)
zdrot_strided_batched_64 = bind(ROT_REAL, Z, STRIDED, prefix="zd", ilp64=True)
srotg_64 = bind(ROTG, S, ilp64=True)
drotg_64 = bind(ROTG, D, ilp64=True)
crotg_64 = bind(ROTG, C, ilp64=True)
zrotg_64 = bind(ROTG, Z, ilp64=True)
srotg_batched_64 = bind(ROTG, S, BATCHED, ilp64=True)
drotg_batched_64 = bind(ROTG, D, BATCHED, ilp64=True)
crotg_batched_64 = bind(ROTG, C, BATCHED, ilp64=True)
zrotg_batched_64 = bind(ROTG, Z, BATCHED, ilp64=True)
srotg_strided_batched_64 = bind(ROTG, S, STRIDED, ilp64=True)
drotg_strided_batched_64 = bind(ROTG, D, STRIDED, ilp64=True)
crotg_strided_batched_64 = bind(ROTG, C, STRIDED, ilp64=True)
zrotg_strided_batched_64 = bind(ROTG, Z, STRIDED, ilp64=True)
srotm_64 = bind(ROTM, S, ilp64=True)
drotm_64 = bind(ROTM, D, ilp64=True)
srotm_batched_64 = bind(ROTM, S, BATCHED, ilp64=True)
drotm_batched_64 = bind(ROTM, D, BATCHED, ilp64=True)
srotm_strided_batched_64 = bind(ROTM, S, STRIDED, ilp64=True)
drotm_strided_batched_64 = bind(ROTM, D, STRIDED, ilp64=True)
srotmg_64 = bind(ROTMG, S, ilp64=True)
drotmg_64 = bind(ROTMG, D, ilp64=True)
srotmg_batched_64 = bind(ROTMG, S, BATCHED, ilp64=True)
drotmg_batched_64 = bind(ROTMG, D, BATCHED, ilp64=True)
srotmg_strided_batched_64 = bind(ROTMG, S, STRIDED, ilp64=True)
drotmg_strided_batched_64 = bind(ROTMG, D, STRIDED, ilp64=True)
# fmt: on

__all__ = public_names(globals())
