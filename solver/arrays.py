"""The Pythonic layer: SciPy-style linear algebra on DeviceArrays, batched over leading axes.

``cholesky``, ``cho_factor``/``cho_solve``, ``lu_factor``/``lu_solve``, ``solve``,
``inv`` and ``eigh`` (syevd/heevd) take DeviceArrays of shape ``(..., n, n)``; ``qr``
(geqrf, orgqr/ungqr), ``svd`` (gesvd) and ``lstsq`` (gels) ``(..., m, n)``; right-hand
sides are ``(..., n, k)``, or ``(n,)`` for one vector, as NumPy 2's ``solve``.  Any of
them may be in C or F order or any view whose matrices have a unit stride on one axis;
leading axes are a batch, broadcast between the operands.  Each call is one rocSOLVER
call: plain, ``_strided_batched`` when the batch has a uniform stride, ``_batched``
(device pointer arrays) otherwise.  Outputs are new arrays (each matrix column-major,
batch axes outermost) unless ``overwrite_a``/``overwrite_b`` lets a column-major input
be worked on in place, as SciPy's flags do; inputs that are only read (the factors of
``cho_solve``/``lu_solve``) are read where they are.

Numerical failure is data, as in rocSOLVER and CuPy: nothing synchronizes, and each
result that can fail carries ``info`` (:class:`InfoArray`): a device int32 array of the
batch shape, ``info > 0`` where an entry is not positive definite (``cholesky``,
``cho_factor``: the order of the failing leading minor), singular (``lu_factor``,
``solve``, ``inv``: the first zero pivot, 1-based), rank-deficient (``lstsq``: the first
zero on R's diagonal) or did not converge (``eigh``, ``svd``: how many off-diagonal
elements did not); such an entry's values are LAPACK's partial results (``solve`` leaves
its right-hand side as it was, ``inv`` the LU factors).
Inside ``with errstate(linalg="raise"):`` every call waits for its ``info`` and raises
:class:`LinAlgError` (also a ``numpy.linalg.LinAlgError``) naming the failing entries,
as SciPy does and as ``cupyx.errstate(linalg="raise")`` makes CuPy do.

Pivots are 0-based, as SciPy's (rocSOLVER's ``ipiv`` is 1-based).  Calls run on the
current stream (``with rocmath.Stream():``) through the thread's handle
(:func:`rocmath.blas.arrays.get_handle`), unless ``handle=`` is given.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

import rocmath
from rocmath import DeviceArray
from rocmath.blas._handle import BlasHandle
from rocmath.blas.arrays import _as_column_major, _Batch, _f_empty, _NeedsCopy, _OwnedPtr, _pointer_array, get_handle
from rocmath.errors import RocblasStatus, RocmathError
from rocmath.precision import Precision

from . import _kernels_qr as _kq
from . import cholesky as _chol
from . import eig as _eig
from . import lu as _lu
from . import qr as _qr
from ._types import Evect, Fill, Svect, Workmode

__all__ = ["InfoArray", "LinAlgError", "cho_factor", "cho_solve", "cholesky", "eigh", "errstate", "geterr", "inv",
           "lstsq", "lu_factor", "lu_solve", "qr", "solve", "svd"]

_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


# --- errors and errstate ---------------------------------------------------------------------------


class LinAlgError(RocmathError, np.linalg.LinAlgError):
    """Some batch entries are singular or not positive definite (raised only under
    ``errstate(linalg="raise")``).

    rocSOLVER itself returns success in this case: the failure is numerical and is
    reported in ``info``, so :attr:`status` is ``success``.

    Parameters
    ----------
    message
        What failed, in words.
    entries
        The batch indices (tuples over the leading axes) of the failing entries.
    info
        Their ``info`` values, in the same order.
    """

    status = RocblasStatus.success

    def __init__(self, message: str = "", *, entries: tuple[tuple[int, ...], ...] = (),
                 info: tuple[int, ...] = ()):
        self.entries = tuple(entries)
        self.info = tuple(info)
        super().__init__(message)

    def _format(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_linalg, (self.message, self.entries, self.info))


def _rebuild_linalg(message: str, entries: tuple[tuple[int, ...], ...], info: tuple[int, ...]) -> LinAlgError:
    return LinAlgError(message, entries=entries, info=info)


_LINALG: contextvars.ContextVar[str] = contextvars.ContextVar("rocmath_solver_linalg", default="ignore")


@contextmanager
def errstate(*, linalg: str | None = None) -> Iterator[None]:
    """What the calls of this module do when an entry fails numerically, within the block.

    Parameters
    ----------
    linalg
        ``"ignore"`` (the default outside any block): nothing is checked, nothing waits;
        ``info`` is on each result.  ``"raise"``: each call waits for its ``info`` and
        raises :class:`LinAlgError` if any entry failed.  None keeps the current mode.

    The mode is per thread (and per asyncio task); blocks nest.
    """
    if linalg not in (None, "ignore", "raise"):
        raise ValueError(f"linalg must be 'ignore' or 'raise', got {linalg!r}")
    token = _LINALG.set(linalg or _LINALG.get())
    try:
        yield
    finally:
        _LINALG.reset(token)


def geterr() -> dict[str, str]:
    """The current error mode, ``{"linalg": "ignore" | "raise"}``."""
    return {"linalg": _LINALG.get()}


class InfoArray(DeviceArray):
    """A result DeviceArray with the ``info`` of the call that made it.

    Attributes
    ----------
    info
        Device int32 array of the batch shape (0-d without batch axes): 0 for success,
        > 0 where the entry failed numerically (see the module).  Reading it (``.get()``)
        waits for the call.  Views of the result do not carry it.
    """

    info: DeviceArray


def _with_info(arr: DeviceArray, info: DeviceArray) -> InfoArray:
    out = InfoArray._view(arr.ptr, arr.shape, arr.dtype, arr.strides, arr.device, arr._root())
    out.info = info
    return out  # type: ignore[return-value]


def _check_info(info: DeviceArray, h: BlasHandle, what: str) -> None:
    """Under errstate(linalg="raise"): wait for info and raise for failed entries."""
    if _LINALG.get() != "raise" or info.size == 0:
        return
    values = np.atleast_1d(info.get(stream=h.stream)).reshape(info.shape or (1,))
    bad = np.argwhere(values > 0)
    if not len(bad):
        return
    entries = tuple(tuple(int(i) for i in idx) for idx in bad) if info.ndim else ((),)
    codes = tuple(int(values[tuple(idx)]) for idx in bad)
    shown = ", ".join(f"{e or '()'}: {c}" for e, c in list(zip(entries, codes, strict=True))[:8])
    more = f" (and {len(entries) - 8} more)" if len(entries) > 8 else ""
    raise LinAlgError(f"{what} in {len(entries)} of {max(info.size, 1)} batch entries (entry: info) "
                      f"{shown}{more}", entries=entries, info=codes)


# --- operands ----------------------------------------------------------------------------------


def _handle(handle: BlasHandle | None) -> BlasHandle:
    return get_handle() if handle is None else handle


def _matrices(a: Any, name: str) -> DeviceArray:
    if not isinstance(a, DeviceArray):
        raise TypeError(f"{name} must be a rocmath.DeviceArray, got {type(a).__name__}")
    if a.ndim < 2:
        raise ValueError(f"{name} must have at least 2 axes, got shape {a.shape}")
    return a


def _square(a: Any, name: str = "a") -> DeviceArray:
    a = _matrices(a, name)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name} must be square in its last two axes, got shape {a.shape}")
    return a


def _dtype(*dtypes: np.dtype[Any]) -> np.dtype[Any]:
    """The element type of the computation: as NumPy's linalg (integers and bools as float64)."""
    for dt in dtypes:
        if dt.kind not in "biufc" or dt == np.float16 or dt.itemsize > 16:
            raise TypeError(f"array type {dt} is not supported in linalg")
    out = np.result_type(*(dt if dt.kind in "fc" else np.float64 for dt in dtypes))
    return out if out in _DTYPES else np.dtype(np.complex128 if out.kind == "c" else np.float64)


def _copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    dst[...] = src


def _stack(a: DeviceArray, shape: tuple[int, ...], dtype: np.dtype[Any], h: BlasHandle) -> DeviceArray:
    """A new array of ``shape`` (each matrix column-major, batch axes outermost) holding ``a``
    broadcast and converted to ``dtype``."""
    out = _f_empty(shape, dtype)
    if out.size:
        rocmath.launch(_copy_into, out, a, name="solver operand copy", stream=h.stream, bytes=2.0 * out.nbytes,
                       kind="copy")
    return out


def _in_place(a: DeviceArray, shape: tuple[int, ...], dtype: np.dtype[Any]) -> bool:
    """Whether ``a`` can be the output itself: the right shape and type, column-major
    matrices, and batch entries that do not overlap."""
    if a.shape != shape or a.dtype != dtype or a.size == 0:
        return False
    try:
        order, ld = _as_column_major(a)
    except _NeedsCopy:
        return False
    if order != "N" or any(s % a.itemsize for s in a.strides):
        return False
    span = ld * (shape[-1] - 1) + shape[-2]  # elements one matrix spans
    for step, count in sorted((abs(s) // a.itemsize, m) for s, m in zip(a.strides[:-2], shape[:-2], strict=True)
                              if m > 1):
        if step < span:  # this batch axis steps into what the axes inside it span
            return False
        span += step * (count - 1)
    return True


def _output(a: DeviceArray, shape: tuple[int, ...], dtype: np.dtype[Any], overwrite: bool,
            h: BlasHandle) -> DeviceArray:
    """The array a routine writes its result into: ``a`` itself if allowed and possible, else a copy."""
    return a if overwrite and _in_place(a, shape, dtype) else _stack(a, shape, dtype, h)


class _Operand:
    """A stack of column-major matrices as a rocSOLVER argument over ``batch_shape``."""

    def __init__(self, arr: DeviceArray, batch_shape: tuple[int, ...]):
        self.arr = arr
        self.ld = _as_column_major(arr)[1]
        self.batch = _Batch(arr, 2, batch_shape)

    def pointer(self, flavour: str, stream: Any) -> Any:
        if flavour == "_batched":  # (on the call's stream: the handle's)
            return _pointer_array(self.batch, self.arr.ptr, stream)
        return _OwnedPtr(self.arr.ptr, self.arr)

    @property
    def stride(self) -> int:
        return self.batch.uniform or 0


def _flavour(batch_shape: tuple[int, ...], *operands: _Operand) -> str:
    if not batch_shape:
        return ""
    return "_strided_batched" if all(o.batch.uniform is not None for o in operands) else "_batched"


_MODULES = (_chol, _lu, _qr, _eig)


def _call(name: str, p: Precision, h: BlasHandle, batch_shape: tuple[int, ...], arrays: dict[str, DeviceArray],
          single: dict[str, DeviceArray] | None = None, **values: Any) -> None:
    """Call ``<p><name><flavour>`` with matrices (their pointers, leading dimensions and strides),
    the other arguments by name (vectors with ``strideP``), ``batch_count`` from the batch shape.
    ``single`` matrices (gesvd's U and V) are one device array with a stride in both batched
    flavours, as rocSOLVER declares them."""
    matrices = {key: _Operand(arr, batch_shape) for key, arr in arrays.items()}
    flavour = _flavour(batch_shape, *matrices.values())
    fname = f"{p.letter}{name}{flavour}"
    f = next(getattr(m, fname) for m in _MODULES if hasattr(m, fname))
    for key, op in matrices.items():
        values[key] = op.pointer(flavour, h.stream)
        values[f"ld{key.lower()}"], values[f"stride{key}"] = op.ld, op.stride
    for key, arr in (single or {}).items():
        op = _Operand(arr, batch_shape)
        values[key], values[f"ld{key.lower()}"], values[f"stride{key}"] = op.pointer("", h.stream), op.ld, op.stride
    values["batch_count"] = int(math.prod(batch_shape)) if batch_shape else 1
    f(h, *(values[k] for k in list(f.__signature__.parameters)[1:]))


def _batch_of(*arrays: DeviceArray) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*(x.shape[:-2] for x in arrays)))
    except ValueError:
        raise ValueError(f"batch shapes do not broadcast: {[x.shape for x in arrays]}") from None


def _rhs(b: Any, n: int, name: str = "b") -> tuple[DeviceArray, bool]:
    """Right-hand sides as (..., n, k); True if b was one vector (n,)."""
    if not isinstance(b, DeviceArray):
        raise TypeError(f"{name} must be a rocmath.DeviceArray, got {type(b).__name__}")
    vector = b.ndim == 1
    if vector:  # one column: (n, 1) over the same elements
        b = DeviceArray._view(b.ptr, (b.shape[0], 1), b.dtype, (b.strides[0], b.itemsize * max(1, b.shape[0])),
                              b.device, b._root())
    if b.ndim < 2:
        raise ValueError(f"{name} must have at least 1 axis")
    if b.shape[-2] != n:
        raise ValueError(f"{name} has {b.shape[-2]} rows, expected {n} (shape {b.shape})")
    return b, vector


def _info(batch_shape: tuple[int, ...], h: BlasHandle) -> DeviceArray:
    """info of a call, zero (what rocSOLVER writes for empty matrices, which are not launched here)."""
    count = int(math.prod(batch_shape)) if batch_shape else 1
    return rocmath.zeros(count, np.int32, stream=h.stream).reshape(batch_shape)


def _read_only(a: DeviceArray, dtype: np.dtype[Any], h: BlasHandle) -> DeviceArray:
    """``a`` where it is if rocSOLVER can read it (column-major matrices of the type), else a copy."""
    try:
        if a.dtype == dtype and _as_column_major(a)[0] == "N":
            return a
    except _NeedsCopy:
        pass
    return _stack(a, a.shape, dtype, h)


# --- Cholesky ------------------------------------------------------------------------------------


def _potrf(a: DeviceArray, lower: bool, overwrite_a: bool, handle: BlasHandle | None) -> tuple[DeviceArray, Any]:
    a = _square(a)
    h = _handle(handle)
    dtype = _dtype(a.dtype)
    batch_shape = a.shape[:-2]
    c = _output(a, a.shape, dtype, overwrite_a, h)
    info = _info(batch_shape, h)
    if c.size:
        _call("potrf", Precision.of(dtype), h, batch_shape, {"A": c}, uplo="L" if lower else "U",
              n=a.shape[-1], info=info)
    return c, (info, h)


def cholesky(a: DeviceArray, lower: bool = False, *, overwrite_a: bool = False,
             handle: BlasHandle | None = None) -> InfoArray:
    """The Cholesky factor of Hermitian positive definite matrices, as ``scipy.linalg.cholesky``.

    Parameters
    ----------
    a
        ``(..., n, n)``; only its upper (``lower=False``) or lower triangle is read.
    lower
        Return L with ``a = L L^H`` instead of U with ``a = U^H U``.
    overwrite_a
        Work in ``a`` itself when it is a column-major stack of the computation's type.
    handle
        The rocBLAS handle (default: the thread's, on the current stream).

    Returns
    -------
    InfoArray
        The factor (the other triangle zeroed); ``.info`` > 0 where an entry is not positive
        definite (the order of its failing leading minor; that entry then holds LAPACK's
        partial factorization).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry is not positive definite.
    """
    c, (info, h) = _potrf(a, lower, overwrite_a, handle)
    if c.size:
        rocmath.launch(_tril if lower else _triu, c, name="cholesky clean", stream=h.stream, bytes=1.0 * c.nbytes)
    _check_info(info, h, "the matrix is not positive definite")
    return _with_info(c, info)


def _tril(x: np.ndarray) -> None:
    x[...] = np.tril(x)


def _triu(x: np.ndarray) -> None:
    x[...] = np.triu(x)


def cho_factor(a: DeviceArray, lower: bool = False, *, overwrite_a: bool = False,
               handle: BlasHandle | None = None) -> tuple[InfoArray, bool]:
    """The Cholesky factorization for :func:`cho_solve`, as ``scipy.linalg.cho_factor``.

    Returns
    -------
    (c, lower)
        ``c`` holds the factor in its ``lower`` or upper triangle; the other triangle is
        ``a``'s.  ``c.info`` as for :func:`cholesky`.
    """
    c, (info, h) = _potrf(a, lower, overwrite_a, handle)
    _check_info(info, h, "the matrix is not positive definite")
    return _with_info(c, info), lower


def cho_solve(c_and_lower: tuple[DeviceArray, bool], b: DeviceArray, *, overwrite_b: bool = False,
              handle: BlasHandle | None = None) -> DeviceArray:
    """Solve ``A x = b`` given the Cholesky factorization of A, as ``scipy.linalg.cho_solve``.

    Parameters
    ----------
    c_and_lower
        ``(c, lower)`` from :func:`cho_factor` (or :func:`cholesky`'s factor and its ``lower``).
    b
        ``(..., n, k)`` right-hand sides, or one vector ``(n,)``; batch axes broadcast with c's.
    overwrite_b
        Put the solution in ``b`` itself when possible.

    Returns
    -------
    DeviceArray
        The solutions, of b's shape (broadcast).
    """
    c, lower = c_and_lower
    c = _square(c, "c")
    h = _handle(handle)
    n = c.shape[-1]
    b2, vector = _rhs(b, n)
    dtype = _dtype(c.dtype, b2.dtype)
    batch_shape = _batch_of(c, b2)
    c = _read_only(c, dtype, h)
    x = _output(b2, (*batch_shape, *b2.shape[-2:]), dtype, overwrite_b, h)
    if x.size:
        _call("potrs", Precision.of(dtype), h, batch_shape, {"A": c, "B": x},
              uplo="L" if lower else "U", n=n, nrhs=x.shape[-1])
    return x.reshape(x.shape[:-1]) if vector else x


# --- LU ------------------------------------------------------------------------------------------


def _plus_one(dst: np.ndarray, src: np.ndarray) -> None:
    np.add(src, 1, out=dst)


def _minus_one(x: np.ndarray) -> None:
    x -= 1


def _getrf(a: DeviceArray, overwrite_a: bool, h: BlasHandle) -> tuple[DeviceArray, DeviceArray, DeviceArray, Precision]:
    """LU factors (in place or a copy), 1-based pivots, info."""
    dtype = _dtype(a.dtype)
    batch_shape = a.shape[:-2]
    lu = _output(a, a.shape, dtype, overwrite_a, h)
    m, n = a.shape[-2:]
    ipiv = rocmath.empty((*batch_shape, min(m, n)), np.int32)
    info = _info(batch_shape, h)
    p = Precision.of(dtype)
    if lu.size:
        _call("getrf", p, h, batch_shape, {"A": lu}, m=m, n=n, ipiv=ipiv, strideP=min(m, n),
              info=info)
    return lu, ipiv, info, p


def lu_factor(a: DeviceArray, *, overwrite_a: bool = False,
              handle: BlasHandle | None = None) -> tuple[InfoArray, DeviceArray]:
    """LU factorization with partial pivoting, as ``scipy.linalg.lu_factor``.

    Parameters
    ----------
    a
        ``(..., m, n)``.

    Returns
    -------
    (lu, piv)
        ``lu`` holds U and the unit-diagonal L; ``piv`` (int32, ``(..., min(m, n))``) the
        0-based row interchanges.  ``lu.info`` > 0 where U has an exact zero on its diagonal
        (the first one, 1-based; the factorization is complete all the same).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry is singular.
    """
    a = _matrices(a, "a")
    h = _handle(handle)
    lu, ipiv, info, _ = _getrf(a, overwrite_a, h)
    if ipiv.size:
        rocmath.launch(_minus_one, ipiv, name="lu_factor pivots", stream=h.stream, bytes=2.0 * ipiv.nbytes)
    _check_info(info, h, "the matrix is singular")
    return _with_info(lu, info), ipiv


def lu_solve(lu_and_piv: tuple[DeviceArray, DeviceArray], b: DeviceArray, trans: int = 0, *,
             overwrite_b: bool = False, handle: BlasHandle | None = None) -> DeviceArray:
    """Solve ``op(A) x = b`` given the LU factorization of A, as ``scipy.linalg.lu_solve``.

    Parameters
    ----------
    lu_and_piv
        ``(lu, piv)`` from :func:`lu_factor` (0-based pivots).
    b
        ``(..., n, k)`` right-hand sides, or one vector ``(n,)``.
    trans
        0: ``A x = b``, 1: ``A^T x = b``, 2: ``A^H x = b``.
    """
    lu, piv = lu_and_piv
    lu = _square(lu, "lu")
    if trans not in (0, 1, 2):
        raise ValueError(f"trans must be 0, 1 or 2, got {trans!r}")
    h = _handle(handle)
    n = lu.shape[-1]
    b2, vector = _rhs(b, n)
    dtype = _dtype(lu.dtype, b2.dtype)
    batch_shape = _batch_of(lu, b2)
    if not isinstance(piv, DeviceArray) or piv.shape[-1:] != (n,) or piv.dtype.kind not in "iu":
        raise ValueError(f"piv must be an integer DeviceArray of shape (..., {n})")
    if _batch_of(lu, b2, piv[..., None]) != batch_shape:
        raise ValueError(f"piv of shape {piv.shape} does not broadcast to the batch {batch_shape}")
    lu = _read_only(lu, dtype, h)
    x = _output(b2, (*batch_shape, *b2.shape[-2:]), dtype, overwrite_b, h)
    ipiv = rocmath.empty((*batch_shape, n), np.int32)
    if x.size:
        rocmath.launch(_plus_one, ipiv, piv, name="lu_solve pivots", stream=h.stream, bytes=2.0 * ipiv.nbytes)
        _call("getrs", Precision.of(dtype), h, batch_shape, {"A": lu, "B": x},
              trans="NTC"[trans], n=n, nrhs=x.shape[-1], ipiv=ipiv, strideP=n)
    return x.reshape(x.shape[:-1]) if vector else x


def solve(a: DeviceArray, b: DeviceArray, *, overwrite_a: bool = False, overwrite_b: bool = False,
          handle: BlasHandle | None = None) -> InfoArray:
    """Solve ``a x = b`` for square a, as ``numpy.linalg.solve`` (LU with partial pivoting).

    Parameters
    ----------
    a
        ``(..., n, n)``.
    b
        ``(..., n, k)`` right-hand sides, or one vector ``(n,)``; batch axes broadcast with a's.

    Returns
    -------
    InfoArray
        The solutions; ``.info`` > 0 where an entry of a is singular (its x is then b as given).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry is singular.
    """
    a = _square(a)
    h = _handle(handle)
    n = a.shape[-1]
    b2, vector = _rhs(b, n)
    dtype = _dtype(a.dtype, b2.dtype)
    batch_shape = _batch_of(a, b2)
    lu = _output(a, (*batch_shape, n, n), dtype, overwrite_a, h)
    x = _output(b2, (*batch_shape, *b2.shape[-2:]), dtype, overwrite_b, h)
    ipiv = rocmath.empty((*batch_shape, n), np.int32)
    info = _info(batch_shape, h)
    if lu.size and x.size:
        _call("gesv", Precision.of(dtype), h, batch_shape, {"A": lu, "B": x},
              n=n, nrhs=x.shape[-1], ipiv=ipiv, strideP=n, info=info)
    _check_info(info, h, "the matrix is singular")
    return _with_info(x.reshape(x.shape[:-1]) if vector else x, info)


def inv(a: DeviceArray, *, overwrite_a: bool = False, handle: BlasHandle | None = None) -> InfoArray:
    """The inverse of square matrices, as ``scipy.linalg.inv`` (getrf then getri).

    Returns
    -------
    InfoArray
        The inverses; ``.info`` > 0 where an entry is singular (it then holds its LU factors).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry is singular.
    """
    a = _square(a)
    h = _handle(handle)
    out, ipiv, info, p = _getrf(a, overwrite_a, h)
    batch_shape = a.shape[:-2]
    if out.size:
        # getri rewrites info with the same value getrf wrote (the first zero on U's diagonal).
        _call("getri", p, h, batch_shape, {"A": out}, n=a.shape[-1], ipiv=ipiv,
              strideP=a.shape[-1], info=info)
    _check_info(info, h, "the matrix is singular")
    return _with_info(out, info)


# --- QR and least squares -------------------------------------------------------------------------


def _upper(dst: np.ndarray, src: np.ndarray) -> None:
    # R: the first rows of src's upper trapezoid (rows beyond src's are zero).
    r = min(dst.shape[-2], src.shape[-2])
    dst[..., :r, :] = np.triu(src[..., :r, :])
    dst[..., r:, :] = 0


def _first_columns(dst: np.ndarray, src: np.ndarray) -> None:
    # The k Householder vectors of src into the columns of a wider Q (the rest orgqr overwrites).
    k = min(src.shape[-2:])
    dst[..., :k] = src[..., :k]
    dst[..., k:] = 0


def _orgqr(q: np.ndarray, tau: np.ndarray, count: int, k: int, ws: np.ndarray) -> None:
    # q and tau are new arrays with a uniform batch stride (column-major matrices, batch axes
    # outermost), so these reshapes are views.
    _kq.generate("qr", q.reshape(count, *q.shape[-2:]), tau.reshape(count, k), k, ws)


def _geqrf(a: DeviceArray, overwrite_a: bool, h: BlasHandle) -> tuple[DeviceArray, DeviceArray, Precision]:
    """The QR factorization of a (in place or a copy) as geqrf leaves it, and tau."""
    dtype = _dtype(a.dtype)
    batch_shape = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    f = _output(a, a.shape, dtype, overwrite_a, h)
    tau = rocmath.empty((*batch_shape, k), dtype)
    p = Precision.of(dtype)
    if f.size:
        _call("geqrf", p, h, batch_shape, {"A": f}, m=m, n=n, ipiv=tau, strideP=k)
    return f, tau, p


def qr(a: DeviceArray, mode: str = "reduced", *, overwrite_a: bool = False,
       handle: BlasHandle | None = None) -> Any:
    """The QR factorization ``a = Q R``, as ``numpy.linalg.qr`` (Householder, geqrf).

    Parameters
    ----------
    a
        ``(..., m, n)``.
    mode
        ``"reduced"``: ``(Q, R)`` of shapes ``(..., m, k)``, ``(..., k, n)``, ``k = min(m, n)``;
        ``"complete"``: ``(..., m, m)``, ``(..., m, n)``; ``"r"``: R only, ``(..., k, n)``;
        ``"raw"``: ``(h, tau)`` as NumPy's: ``h`` ``(..., n, m)`` is the transpose of what
        LAPACK's geqrf leaves (R on and above the diagonal, the Householder vectors below it),
        ``tau`` ``(..., k)`` the Householder scalars.
    overwrite_a
        Work in ``a`` itself when it is a column-major stack of the computation's type (it
        then holds geqrf's output, or Q in reduced mode with ``m >= n``).

    Returns
    -------
    DeviceArray or tuple of DeviceArrays
        As chosen by ``mode``.  QR does not fail: there is no ``info``.

    Notes
    -----
    Q comes from orgqr/ungqr's kernel run over the whole batch (rocSOLVER has those routines
    unbatched only).
    """
    a = _matrices(a, "a")
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"mode must be 'reduced', 'complete', 'r' or 'raw', got {mode!r}")
    h = _handle(handle)
    f, tau, p = _geqrf(a, overwrite_a, h)
    batch_shape = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "raw":
        return f.transpose(*range(f.ndim - 2), f.ndim - 1, f.ndim - 2), tau
    rows = m if mode == "complete" else k
    r = _f_empty((*batch_shape, rows, n), f.dtype)
    if r.size:
        rocmath.launch(_upper, r, f, name="qr R", stream=h.stream, bytes=2.0 * r.nbytes)
    if mode == "r":
        return r
    cols = m if mode == "complete" else k
    count = int(math.prod(batch_shape)) if batch_shape else 1
    if cols == n:  # Q has a's shape: orgqr over geqrf's output
        q = f
    else:
        q = _f_empty((*batch_shape, m, cols), f.dtype)
        if q.size:
            rocmath.launch(_first_columns, q, f, name="qr Q", stream=h.stream, bytes=2.0 * q.nbytes)
    if q.size:
        # The kernel's scratch comes from the handle's workspace, as orgqr's does.
        need = _kq.generate_workspace(m, cols, count, p.itemsize)
        ws = rocmath.buffer(h.workspace(need), np.uint8, need, name="workspace")
        rocmath.launch(_orgqr, q, tau, count, k, ws, name=f"rocsolver_{p.letter}{'ung' if p.is_complex else 'org'}qr",
                       stream=h.stream, flops=(8.0 if p.is_complex else 2.0) * count * m * cols * k,
                       bytes=2.0 * q.nbytes)
    return q, r


def _residues(out: np.ndarray, x: np.ndarray, n: int) -> None:
    out[...] = (np.abs(x[..., n:, :]) ** 2).sum(axis=-2)


def _pad_rows(dst: np.ndarray, src: np.ndarray) -> None:
    dst[..., : src.shape[-2], :] = src
    dst[..., src.shape[-2]:, :] = 0


def lstsq(a: DeviceArray, b: DeviceArray, *, overwrite_a: bool = False, overwrite_b: bool = False,
          handle: BlasHandle | None = None) -> tuple[InfoArray, DeviceArray, int, None]:
    """Least squares solutions of ``a x = b`` for ``a`` of full rank, as ``scipy.linalg.lstsq``
    with a QR driver (gels: QR for ``m >= n``, the minimum norm solution through LQ for
    ``m < n``).

    Parameters
    ----------
    a
        ``(..., m, n)``, of full rank ``min(m, n)``.
    b
        ``(..., m, k)`` right-hand sides, or one vector ``(m,)``; batch axes broadcast with a's.
    overwrite_a, overwrite_b
        Work in ``a`` (b, when ``m >= n``) itself when the layout allows it.

    Returns
    -------
    (x, residues, rank, s)
        ``x`` ``(..., n, k)`` (``(..., n)`` for a vector b) with ``.info`` > 0 where an entry
        of a is found rank-deficient (an exact zero on R's or L's diagonal; its x is then
        meaningless); ``residues`` the squared 2-norms of the columns of ``b - a x``, real,
        ``(..., k)`` (``(...,)`` for a vector b) when ``m > n``, else ``(..., 0)``; ``rank`` is
        ``min(m, n)``, what gels assumes; ``s`` is None, as SciPy's QR driver (gelsy) gives.

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry is rank-deficient.
    """
    a = _matrices(a, "a")
    h = _handle(handle)
    m, n = a.shape[-2:]
    b2, vector = _rhs(b, m)
    dtype = _dtype(a.dtype, b2.dtype)
    batch_shape = _batch_of(a, b2)
    nrhs = b2.shape[-1]
    f = _output(a, (*batch_shape, m, n), dtype, overwrite_a, h)
    if n <= m:
        x = _output(b2, (*batch_shape, m, nrhs), dtype, overwrite_b, h)
    else:  # gels needs room for the n rows of the solution
        x = _f_empty((*batch_shape, n, nrhs), dtype)
        if x.size:
            rocmath.launch(_pad_rows, x, b2, name="lstsq operand copy", stream=h.stream, bytes=2.0 * x.nbytes,
                           kind="copy")
    info = _info(batch_shape, h)
    p = Precision.of(dtype)
    if f.size and x.size:  # (an empty a: x is zero, padded above, or has no rows)
        _call("gels", p, h, batch_shape, {"A": f, "B": x}, trans="N", m=m, n=n, nrhs=nrhs, info=info)
    solution = x[..., :n, :]
    residues = rocmath.empty((*batch_shape, nrhs if m > n else 0), p.real.dtype)
    if residues.size:
        rocmath.launch(_residues, residues, x, n, name="lstsq residues", stream=h.stream, bytes=1.0 * x.nbytes)
    if vector:
        solution = solution.reshape(solution.shape[:-1])
        residues = residues.reshape(residues.shape[:-1]) if m > n else residues
    _check_info(info, h, "the matrix does not have full rank")
    return _with_info(solution, info), residues, min(m, n), None


# --- symmetric eigenproblem, SVD ---------------------------------------------------------------------


def eigh(a: DeviceArray, lower: bool = True, eigvals_only: bool = False, *, overwrite_a: bool = False,
         handle: BlasHandle | None = None) -> Any:
    """Eigenvalues and eigenvectors of real symmetric or complex Hermitian matrices, as
    ``scipy.linalg.eigh`` (syevd/heevd: tridiagonal reduction, divide and conquer).

    Parameters
    ----------
    a
        ``(..., n, n)``; only its lower (``lower=True``) or upper triangle is read.
    lower
        Which triangle of a is read.
    eigvals_only
        Return the eigenvalues only (no eigenvectors are computed).
    overwrite_a
        Work in ``a`` itself (it then holds the eigenvectors, or is destroyed) when it is a
        column-major stack of the computation's type.

    Returns
    -------
    w, or (w, v)
        ``w`` ``(..., n)`` the eigenvalues, real, ascending; ``v`` ``(..., n, n)`` the
        normalized eigenvectors in its columns (``v[..., :, i]`` for ``w[..., i]``).  Each has
        ``.info``: > 0 where the algorithm did not converge (the number of off-diagonal
        elements of the tridiagonal form that did not).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry did not converge.
    """
    a = _square(a)
    h = _handle(handle)
    dtype = _dtype(a.dtype)
    batch_shape = a.shape[:-2]
    n = a.shape[-1]
    p = Precision.of(dtype)
    v = _output(a, a.shape, dtype, overwrite_a, h)
    w = rocmath.empty((*batch_shape, n), p.real.dtype)
    e = rocmath.empty((*batch_shape, n), p.real.dtype)
    info = _info(batch_shape, h)
    if v.size:
        _call("heevd" if p.is_complex else "syevd", p, h, batch_shape, {"A": v},
              evect=Evect.none if eigvals_only else Evect.original, uplo=Fill.lower if lower else Fill.upper,
              n=n, D=w, strideD=n, E=e, strideE=n, info=info)
    _check_info(info, h, "the eigenvalue computation did not converge")
    if eigvals_only:
        return _with_info(w, info)
    return _with_info(w, info), _with_info(v, info)


def _eye(x: np.ndarray) -> None:
    x[...] = np.eye(x.shape[-2], x.shape[-1], dtype=x.dtype)


def svd(a: DeviceArray, full_matrices: bool = True, compute_uv: bool = True, *, overwrite_a: bool = False,
        handle: BlasHandle | None = None) -> Any:
    """The singular value decomposition ``a = U diag(s) Vh``, as ``numpy.linalg.svd`` and
    ``scipy.linalg.svd`` (gesvd: bidiagonal reduction, implicit QR).

    Parameters
    ----------
    a
        ``(..., m, n)``.
    full_matrices
        U ``(..., m, m)`` and Vh ``(..., n, n)``; otherwise ``(..., m, k)`` and ``(..., k, n)``,
        ``k = min(m, n)``.
    compute_uv
        Compute U and Vh; otherwise return s only.
    overwrite_a
        Let ``a`` be destroyed when it is a column-major stack of the computation's type.

    Returns
    -------
    (U, s, Vh), or s
        ``s`` ``(..., k)`` the singular values, real, descending.  Each result has ``.info``:
        > 0 where the algorithm did not converge (the number of superdiagonal elements of the
        bidiagonal form that did not).

    Raises
    ------
    LinAlgError
        Under ``errstate(linalg="raise")``, if an entry did not converge.
    """
    a = _matrices(a, "a")
    h = _handle(handle)
    dtype = _dtype(a.dtype)
    batch_shape = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    p = Precision.of(dtype)
    work = _output(a, a.shape, dtype, overwrite_a, h)
    s = rocmath.empty((*batch_shape, k), p.real.dtype)
    e = rocmath.empty((*batch_shape, max(k - 1, 1)), p.real.dtype)
    info = _info(batch_shape, h)
    how = Svect.all if full_matrices else Svect.singular
    ucols, vrows = (m, n) if full_matrices else (k, k)
    u = _f_empty((*batch_shape, m, ucols), dtype) if compute_uv else None
    vh = _f_empty((*batch_shape, vrows, n), dtype) if compute_uv else None
    if work.size:
        single = {"U": u, "V": vh} if u is not None and vh is not None and u.size and vh.size else {}
        _call("gesvd", p, h, batch_shape, {"A": work}, single,
              left_svect=how if compute_uv else Svect.none, right_svect=how if compute_uv else Svect.none,
              m=m, n=n, S=s, strideS=k, E=e, strideE=max(k - 1, 1), fast_alg=Workmode.outofplace, info=info,
              **({} if single else {"U": None, "ldu": 1, "strideU": 1, "V": None, "ldv": 1, "strideV": 1}))
    else:  # an empty matrix: complete U and Vh are identities (gesvd returns before touching them)
        for x in (u, vh):
            if x is not None and x.size:
                rocmath.launch(_eye, x, name="svd identity", stream=h.stream, bytes=1.0 * x.nbytes)
    _check_info(info, h, "the SVD did not converge")
    if not compute_uv:
        return _with_info(s, info)
    return _with_info(u, info), _with_info(s, info), _with_info(vh, info)  # type: ignore[arg-type]
