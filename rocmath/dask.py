"""rocmath as the per-chunk engine of dask.array.

Dask does the scheduling, the data movement and the scale-out (a thread pool on a
laptop, ``distributed`` on a cluster); rocmath does the arithmetic of every chunk on a
simulated device.  Nothing here schedules anything itself.

- Batched calls on stacks chunked along their batch axes (the leading ones; the matrix
  or transform axes are made single chunks first, as ``dask.array.fft`` asks its users to):
  :func:`matmul`, :func:`solve`, :func:`cholesky`, :func:`inv`, and the transforms
  :func:`fft`, :func:`ifft`, :func:`rfft`, :func:`irfft`.  Each chunk is one batched
  rocmath call.
- Blocked dense algorithms on 2-D arrays: :func:`matmul` of two matrices chunked along
  both axes (block ``C[i, j]`` accumulates ``A[i, k] @ B[k, j]`` over ``k`` on one device,
  in ``k`` order, so the result does not depend on the scheduler), and :func:`tsqr`, the
  direct tall-and-skinny QR (Benson, Gleich, Demmel) of an array chunked along its rows:
  a QR per row block, one QR of the stacked R factors, one gemm per block for Q.

Every chunk runs on one of the worker's simulated devices: each worker thread takes the
next device in turn (``ROCMATH_DEVICE_COUNT`` devices per worker process), so concurrent
chunks run on different devices; the kernels, and so the bits, do not depend on which.
Results equal NumPy's to rounding.  Failures are raised as NumPy raises them (a singular
or not positive definite entry is a ``numpy.linalg.LinAlgError``).  ``dask`` is imported
on first use (``pip install 'rocmath[dask]'``).

Examples
--------
>>> import dask.array as da, rocmath.dask as rd                                 # doctest: +SKIP
>>> a = da.random.default_rng(0).standard_normal((1000, 8, 8), chunks=(250, 8, 8))  # doctest: +SKIP
>>> rd.matmul(a, a).compute().shape                                             # doctest: +SKIP
(1000, 8, 8)
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import string
import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["cholesky", "device_of_thread", "fft", "ifft", "inv", "irfft", "matmul", "qr", "rfft", "solve", "tsqr"]


def _da() -> Any:
    """``dask.array``, imported on first use."""
    if "dask.array" in sys.modules:
        return sys.modules["dask.array"]
    # dask probes for the optional PyPI package "sparse"; run from a checkout of rocmath (its
    # folder on sys.path), that name finds the folder of rocmath.sparse, which must never be
    # imported as a top-level package.  Hide it for the probe.
    hide = False
    if "sparse" not in sys.modules:
        spec = importlib.util.find_spec("sparse")
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        hide = spec is not None and spec.origin is not None and os.path.dirname(
            os.path.dirname(os.path.abspath(spec.origin))) == here
    if hide:
        sys.modules["sparse"] = None  # type: ignore[assignment]  # makes "import sparse" fail
    try:
        import dask.array as da
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("rocmath.dask needs dask: pip install 'rocmath[dask]'") from exc
    finally:
        if hide:
            del sys.modules["sparse"]
    return da


# --- which device a chunk runs on --------------------------------------------------------------------

_local = threading.local()
_turn = itertools.count()
_turn_lock = threading.Lock()


def device_of_thread() -> int:
    """The simulated device the calling worker thread runs its chunks on, made current.

    New threads take the devices in turn, so the threads of a worker's pool spread over
    its devices.
    """
    import rocmath

    count = rocmath.get_device_count()
    dev = getattr(_local, "device", None)
    if dev is None or dev >= count:
        with _turn_lock:
            dev = _local.device = next(_turn) % count
    rocmath.set_device(dev)
    return dev


@contextlib.contextmanager
def _chunk_handle() -> Iterator[Any]:
    """A rocBLAS handle for one chunk on the thread's device and stream, destroyed after it:
    its workspace goes back stream-ordered instead of living as long as the worker thread."""
    import rocmath
    from rocmath.blas import BlasHandle

    dev = device_of_thread()
    streams = getattr(_local, "streams", None)
    if streams is None:
        streams = _local.streams = {}
    stream = streams.get(dev)
    if stream is None or stream.device.retired:
        stream = streams[dev] = rocmath.Stream(dev, non_blocking=True)
    with BlasHandle(dev, stream) as h, stream:
        yield h


def _up(x: np.ndarray, dtype: np.dtype[Any]) -> Any:
    import rocmath

    return rocmath.to_device(np.asarray(x, dtype=dtype))


def _float(*dtypes: Any) -> np.dtype[Any]:
    """The type the work is done in, as NumPy's linear algebra picks it (integers: float64)."""
    dt = np.result_type(*dtypes)
    if dt.kind not in "fc":
        return np.dtype(np.float64)
    if dt.itemsize < 4:
        return np.dtype(np.float32)
    return dt


def _complex(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.result_type(dt, np.complex64)


def _as_dask(x: Any) -> Any:
    da = _da()
    return x if isinstance(x, da.Array) else da.from_array(np.asarray(x))


def _whole(x: Any, *axes: int) -> Any:
    """``x`` with each of ``axes`` in one chunk (the axes a kernel works along)."""
    return x.rechunk({ax % x.ndim: -1 for ax in axes})


def _letters(count: int) -> str:
    return string.ascii_lowercase[:count]


# --- per-chunk functions (module level: they travel to worker processes by name) ----------------------


def _chunk_matmul(a: np.ndarray, b: np.ndarray, work: np.dtype[Any]) -> np.ndarray:
    import rocmath.blas as blas

    with _chunk_handle() as h:
        return blas.matmul(_up(a, work), _up(b, work), handle=h).get()


def _chunk_gemm_sum(a_blocks: Any, b_blocks: Any, work: np.dtype[Any]) -> np.ndarray:
    """``sum_k A[k] @ B[k]`` on one device, accumulated in ``k`` order by gemm with beta = 1."""
    import rocmath.blas as blas

    if isinstance(a_blocks, np.ndarray):  # one block along the inner axis
        a_blocks, b_blocks = [a_blocks], [b_blocks]
    with _chunk_handle() as h:
        c = None
        for x, y in zip(a_blocks, b_blocks, strict=True):
            dx, dy = _up(x, work), _up(y, work)
            c = blas.gemm(dx, dy, handle=h) if c is None else blas.gemm(dx, dy, c, beta=1.0, handle=h)
        assert c is not None
        return c.get()


def _chunk_solve(a: np.ndarray, b: np.ndarray, work: np.dtype[Any]) -> np.ndarray:
    import rocmath.solver as solver

    with _chunk_handle() as h, solver.errstate(linalg="raise"):  # a singular entry raises, as NumPy's
        return solver.solve(_up(a, work), _up(b, work), handle=h).get()


def _chunk_cholesky(a: np.ndarray, lower: bool, work: np.dtype[Any]) -> np.ndarray:
    import rocmath.solver as solver

    with _chunk_handle() as h, solver.errstate(linalg="raise"):
        return solver.cholesky(_up(a, work), lower=lower, handle=h).get()


def _chunk_inv(a: np.ndarray, work: np.dtype[Any]) -> np.ndarray:
    import rocmath.solver as solver

    with _chunk_handle() as h, solver.errstate(linalg="raise"):
        return solver.inv(_up(a, work), handle=h).get()


def _chunk_fft(x: np.ndarray, name: str, n: int | None, axis: int, norm: str | None,
               work: np.dtype[Any]) -> np.ndarray:
    import rocmath.fft as rfft

    with _chunk_handle():  # the thread's device and stream
        return getattr(rfft, name)(_up(x, work), n=n, axis=axis, norm=norm).get()


def _chunk_qr(a: np.ndarray, work: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The reduced QR of one tall block by rocSOLVER's geqrf and orgqr/ungqr."""
    import rocmath
    import rocmath.solver as solver
    from rocmath.precision import Precision

    m, n = a.shape
    p = Precision.of(work)
    with _chunk_handle() as h:
        da_ = rocmath.to_device(np.asfortranarray(a, dtype=work))
        tau = rocmath.zeros(max(min(m, n), 1), work)
        getattr(solver, f"{p.letter}geqrf")(h, m, n, da_, m, tau)
        r = np.triu(da_.get()[:n])
        generate = "orgqr" if p.letter in "sd" else "ungqr"
        getattr(solver, f"{p.letter}{generate}")(h, m, n, n, da_, m, tau)
        return da_.get(), r


def _chunk_qr_both(a: np.ndarray, work: np.dtype[Any]) -> np.ndarray:
    """Q and R of a block stacked as one array ``[Q; R]`` (one task makes both)."""
    q, r = _chunk_qr(a, work)
    return np.concatenate([q, r], axis=0)


def _chunk_times(q: np.ndarray, q2: np.ndarray, work: np.dtype[Any]) -> np.ndarray:
    import rocmath.blas as blas

    with _chunk_handle() as h:
        return blas.matmul(_up(q, work), _up(q2, work), handle=h).get()


# --- batched calls -----------------------------------------------------------------------------------


def matmul(a: Any, b: Any) -> Any:
    """``a @ b`` on dask arrays, every block product by rocmath.blas.

    Two matrices (2-D) may be chunked along both axes: the product is blocked, block
    ``(i, j)`` summing ``a[i, k] @ b[k, j]`` over the chunks ``k`` of the inner axis (made
    to agree between ``a`` and ``b``) on one device.  Stacks ``(..., m, k) @ (..., k, n)``
    with equal batch shapes are chunked along the batch axes only (the last two axes of
    each become one chunk): one strided batched gemm per chunk.
    """
    da = _da()
    a, b = _as_dask(a), _as_dask(b)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("matmul needs arrays of at least 2 axes")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: inner dimensions differ: {a.shape} @ {b.shape}")
    work = _float(a.dtype, b.dtype)
    meta = np.empty((0,) * max(a.ndim, 2), work)
    if a.ndim == 2 and b.ndim == 2:
        return da.blockwise(_chunk_gemm_sum, "ij", a, "ik", b, "kj", concatenate=False, dtype=work, meta=meta,
                            work=work)
    if a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"matmul: batch shapes differ: {a.shape[:-2]} and {b.shape[:-2]} (broadcast them first)")
    batch = _letters(a.ndim - 2)
    return da.blockwise(_chunk_matmul, batch + "xz", _whole(a, -2, -1), batch + "xy", _whole(b, -2, -1),
                        batch + "yz", concatenate=True, dtype=work, meta=meta, work=work)


def _square_stack(a: Any, what: str) -> Any:
    a = _as_dask(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{what} needs square matrices (..., n, n), got shape {a.shape}")
    return _whole(a, -2, -1)


def solve(a: Any, b: Any) -> Any:
    """Solve ``a x = b`` for stacks ``a`` ``(..., n, n)`` and ``b`` ``(..., n, k)`` (or ``b``
    ``(n,)`` for one matrix), as ``numpy.linalg.solve``; one batched gesv per chunk of the
    batch axes.

    Raises
    ------
    numpy.linalg.LinAlgError
        When computed, if an entry is singular.
    """
    da = _da()
    a = _square_stack(a, "solve")
    b = _as_dask(b)
    vector = b.ndim == 1
    if vector and a.ndim != 2:
        raise ValueError("a vector right-hand side goes with one matrix; give stacks of (..., n, k) columns")
    if vector:
        b = b[:, None]
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: right-hand side {b.shape} does not fit {a.shape}")
    work = _float(a.dtype, b.dtype)
    batch = _letters(a.ndim - 2)
    x = da.blockwise(_chunk_solve, batch + "xz", a, batch + "xy", _whole(b, -2, -1), batch + "yz", concatenate=True,
                     dtype=work, meta=np.empty((0,) * a.ndim, work), work=work)
    return x[:, 0] if vector else x


def cholesky(a: Any, lower: bool = False) -> Any:
    """The Cholesky factors of a stack of Hermitian positive definite matrices: upper ``U``
    (``a = U^H U``) or, with ``lower``, ``L`` (``a = L L^H``, NumPy's), as
    ``dask.array.linalg.cholesky``; one batched potrf per chunk of the batch axes.

    Raises
    ------
    numpy.linalg.LinAlgError
        When computed, if an entry is not positive definite.
    """
    a = _square_stack(a, "cholesky")
    work = _float(a.dtype)
    return a.map_blocks(_chunk_cholesky, lower, work=work, dtype=work, meta=np.empty((0,) * a.ndim, work))


def inv(a: Any) -> Any:
    """The inverses of a stack of square matrices (``numpy.linalg.inv``); one batched
    getrf + getri per chunk of the batch axes."""
    a = _square_stack(a, "inv")
    work = _float(a.dtype)
    return a.map_blocks(_chunk_inv, work=work, dtype=work, meta=np.empty((0,) * a.ndim, work))


def _transform(name: str, x: Any, n: int | None, axis: int, norm: str | None) -> Any:
    x = _as_dask(x)
    ax = axis % x.ndim
    x = _whole(x, ax)
    length = x.shape[ax]
    if name in ("fft", "ifft"):
        work, out = _complex(_float(x.dtype)), n if n is not None else length
        result = work
    elif name == "rfft":
        work = _float(x.dtype)
        if work.kind == "c":
            raise TypeError("rfft takes real input")
        out = (n if n is not None else length) // 2 + 1
        result = _complex(work)
    else:  # irfft
        work = _complex(_float(x.dtype))
        out = n if n is not None else 2 * (length - 1)
        result = np.dtype(work.char.lower())
    chunks = tuple((out,) if i == ax else c for i, c in enumerate(x.chunks))
    return x.map_blocks(_chunk_fft, name, n, ax, norm, work=work, chunks=chunks, dtype=result,
                        meta=np.empty((0,) * x.ndim, result))


def fft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """``numpy.fft.fft`` along ``axis`` (made one chunk), every chunk by rocmath.fft."""
    return _transform("fft", x, n, axis, norm)


def ifft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """``numpy.fft.ifft`` along ``axis`` (made one chunk), every chunk by rocmath.fft."""
    return _transform("ifft", x, n, axis, norm)


def rfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """``numpy.fft.rfft`` along ``axis`` (made one chunk), every chunk by rocmath.fft."""
    return _transform("rfft", x, n, axis, norm)


def irfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """``numpy.fft.irfft`` along ``axis`` (made one chunk), every chunk by rocmath.fft."""
    return _transform("irfft", x, n, axis, norm)


# --- tall-and-skinny QR --------------------------------------------------------------------------------


def tsqr(a: Any) -> tuple[Any, Any]:
    """The reduced QR factorization of a tall-and-skinny matrix chunked along its rows.

    The direct TSQR: each row block ``A_i = Q_i R_i`` (rocSOLVER geqrf + orgqr on a
    device), the stacked ``[R_1; ...; R_k] = Q' R`` (one more QR), and ``Q = diag(Q_i) Q'``
    block by block (a gemm each).  Every row block must have at least as many rows as
    ``a`` has columns (dask.array.linalg.tsqr's condition too).

    Returns
    -------
    (q, r)
        ``q`` ``(m, n)`` chunked as ``a``'s rows, ``r`` ``(n, n)`` upper triangular, with
        ``q @ r == a`` and ``q^H q == I`` to rounding.  As LAPACK's, the signs of R's
        diagonal are not made positive.
    """
    da = _da()
    a = _whole(_as_dask(a), -1)
    if a.ndim != 2:
        raise ValueError(f"tsqr needs a matrix, got shape {a.shape}")
    n = a.shape[1]
    rows = a.chunks[0]
    if min(rows) < n:
        raise ValueError(f"tsqr: every row block needs at least {n} rows (the columns); got blocks of {rows}: "
                         "rechunk the rows")
    work = _float(a.dtype)
    # One task per block makes Q_i and R_i, stacked as [Q_i; R_i].
    both = a.map_blocks(_chunk_qr_both, work=work, chunks=(tuple(r + n for r in rows), (n,)), dtype=work,
                        meta=np.empty((0, 0), work))
    q1 = [both.blocks[i][:r] for i, r in enumerate(rows)]
    r1 = da.concatenate([both.blocks[i][r:] for i, r in enumerate(rows)], axis=0).rechunk(-1)
    # The stacked R factors (k n x n) are small: one task.
    both2 = r1.map_blocks(_chunk_qr_both, work=work, chunks=((len(rows) * n + n,), (n,)), dtype=work,
                          meta=np.empty((0, 0), work))
    q2 = both2[: len(rows) * n]
    r = both2[len(rows) * n:]
    q = da.concatenate([
        da.blockwise(_chunk_times, "ij", q1[i], "ik", q2[i * n:(i + 1) * n].rechunk(-1), "kj", concatenate=True,
                     dtype=work, meta=np.empty((0, 0), work), work=work)
        for i in range(len(rows))], axis=0)
    return q, r


qr = tsqr
