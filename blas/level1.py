"""Level-1 BLAS: vector-vector operations, in rocBLAS's check order and quick returns."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from . import _kernels_l1 as k
from ._api import Call, Routine


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
