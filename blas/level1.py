"""Level-1 BLAS: vector-vector operations, in rocBLAS's check order and quick returns."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_l1 as k
from ._api import BATCHED, STRIDED, Call, Routine, bind, public_names


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
    x = c.vector("x", n, incx)
    y = c.vector("y", n, incy, writable=True)
    size = c.precision.itemsize * n * c.batch_count
    c.launch(k.axpy, alpha, x, y, flops=2 * n * c.batch_count * (4 if c.precision.is_complex else 1),
             bytes=3 * size)


AXPY = Routine("axpy", ("n", "alpha", "x", "incx", "y", "incy"), {"x": "incx", "y": "incy"}, _axpy,
               summary="y := alpha*x + y.")


def _scal(c: Call, real_alpha: bool = False) -> None:
    n, incx = c.int("n"), c.int("incx")
    if n <= 0 or incx <= 0 or c.batches() <= 0:
        return
    alpha = c.scalar("alpha", c.precision.real.dtype if real_alpha else None)
    if c.is_null("x"):
        raise c.invalid_pointer("x")
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
    if not c.host_mode and c.is_null("result"):
        raise c.invalid_pointer("result")
    if n <= 0 or count == 0:
        return _zero_results(c, count, c.dtype)
    if c.is_null("x") or c.is_null("y"):
        raise c.invalid_pointer("x" if c.is_null("x") else "y")
    x, y = c.vector("x", n, incx), c.vector("y", n, incy)
    out, host = c.results(count, c.dtype)
    task = c.launch(k.dot, x, y, conjugate, out, flops=2 * n * count * (4 if c.precision.is_complex else 1),
                    bytes=2 * c.precision.itemsize * n * count)
    return c.finish_results(task, host)


_DOT_PARAMS = ("n", "x", "incx", "y", "incy", "result")
DOT = Routine("dot", _DOT_PARAMS, {"x": "incx", "y": "incy"}, _dot, result="result",
              summary="result := x . y (returned in host pointer mode).")
DOTU = Routine("dotu", _DOT_PARAMS, {"x": "incx", "y": "incy"}, _dot, result="result",
               summary="result := x . y, unconjugated (returned in host pointer mode).")
DOTC = Routine("dotc", _DOT_PARAMS, {"x": "incx", "y": "incy"}, partial(_dot, conjugate=True), result="result",
               summary="result := conj(x) . y (returned in host pointer mode).")


def _reduce(c: Call, kernel: Any, flops_per: int, result_dtype: Any, extra: tuple[Any, ...] = ()) -> Any:
    n, incx = c.int("n"), c.int("incx")
    count = max(c.batches(), 0)
    if not c.host_mode and c.is_null("result"):
        raise c.invalid_pointer("result")
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
    return _reduce(c, k.nrm2, 2, c.precision.real.dtype)


def _iamax(c: Call, find_max: bool = True) -> Any:
    return _reduce(c, k.iamax, 1, np.int32, (find_max,))


ASUM = Routine("asum", _RED_PARAMS, {"x": "incx"}, _asum, result="result",
               summary="result := sum(|Re x_i| + |Im x_i|) (returned in host pointer mode).")
NRM2 = Routine("nrm2", _RED_PARAMS, {"x": "incx"}, _nrm2, result="result",
               summary="result := ||x||_2, overflow-safe (returned in host pointer mode).")
AMAX = Routine("amax", _RED_PARAMS, {"x": "incx"}, _iamax, result="result",
               summary="result := 1-based index of the first largest |Re x_i| + |Im x_i|.")
AMIN = Routine("amin", _RED_PARAMS, {"x": "incx"}, partial(_iamax, find_max=False), result="result",
               summary="result := 1-based index of the first smallest |Re x_i| + |Im x_i|.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
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
# fmt: on

__all__ = public_names(globals())
