"""``hip.hipsolver``: hipSOLVER's regular API as hip-python binds it, over :mod:`rocmath.solver`.

A ``hipsolverHandle_t`` is a rocBLAS handle, as on AMD.  Each routine comes as
``hipsolver<P><op>_bufferSize(handle, ..., lwork, ...)`` -- the workspace in *bytes*,
written through ``lwork`` (an ``int*``: ``ctypes.c_int``, a one-element int32 array; a
``size_t*`` for gels/gesv), or returned as ``(status, lwork)`` when ``lwork`` is omitted --
and ``hipsolver<P><op>(handle, ..., work, lwork, ..., devInfo) -> (status,)``.  As hipSOLVER
does, a given ``work``/``lwork`` becomes the handle's workspace, and without one the handle
sizes its own from the query; the given one serves that call only (hipSOLVER leaves it set
on the handle for later calls, after the program may have freed it).  ``devInfo`` (device
int32, one per problem) receives LAPACK's info (routines without an info of their own get it
zeroed).  ``uplo``, ``trans`` and ``side``
are hipBLAS enums (:class:`hipblasFillMode_t`, :class:`hipblasOperation_t`,
:class:`hipblasSideMode_t`), ``jobz`` a :class:`hipsolverEigMode_t`, ``itype`` a
:class:`hipsolverEigType_t`, ``jobu``/``jobv`` characters as ints (``ord('A')``); plain
ints for enum parameters raise ``TypeError``, as in hip-python.  Integer arguments convert
as hip-python's Cython bindings convert them, before hipSOLVER checks anything (the handle
included): to ``int``, ``size_t`` for gels/gesv's ``lwork``, ``signed char`` for gesvd's
``jobu``/``jobv``; a value the C type cannot hold raises ``OverflowError`` naming the
argument, a non-integer ``TypeError``.

The Jacobi routines (syevj/heevj, gesvdj and their Batched forms) take a parameters object
(``hipsolverCreateSyevjInfo`` / ``hipsolverCreateGesvdjInfo``: tolerance, maximum sweeps,
sorting; afterwards the residual and the sweeps done, ``hipsolverX<kind>GetResidual`` /
``GetSweeps``). Where hipSOLVER calls a rocSOLVER routine rocmath.solver lacks, the routine is
composed of rocmath.solver's and rocmath.blas's, with the same results: ``gesvdj`` (which returns V,
not V^H) runs ``gesvdj`` into a scratch V^H that ``geam`` conjugate-transposes into V; the out-of-
place ``gels``/``gesv`` (X != B) copy B with ``geam`` and solve in place, leaving B unchanged;
``syevdx``/``heevdx`` and ``sygvdx``/``hegvdx`` (rocSOLVER's ``_inplace`` routines on AMD: the
eigenvectors in A, ``nev`` a host ``int*``, abstol 0) run ``syevdx``/``sygvdx`` into a scratch Z (n
x n, with vectors) and a scratch device nev, then copy nev to the host (the handle's stream
synchronized, as rocSOLVER does) and Z's first nev columns into A (``geam``); a NULL ``nev`` is
INVALID_VALUE. ``vl``/``vu`` are C ``float`` in the S/C routines (Cython rounds them on entry),
``double`` in the D/Z ones. Such scratch space is part of the ``_bufferSize`` answer, taken from the
front of a given ``work``.

The routines are generated from one table, :data:`FAMILIES` (per family: its
parameters, the rocSOLVER calls its size query makes, the calls it computes with), for
the precisions rocmath.solver provides, through :func:`rocmath.hip._api.binding`;
statuses follow hipSOLVER's ``rocblas2hip_status``.
"""

from __future__ import annotations

import ctypes
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

import rocmath
import rocmath.blas as _blas
import rocmath.solver as _solver
from rocmath.blas import BlasHandle
from rocmath.errors import (
    RocblasError,
    RocblasInternalError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
    RocmathError,
)
from rocmath.handle import PointerMode
from rocmath.solver import Eform, Erange, Esort, Evect, Fill, Operation, Svect, Workmode

from . import hip as _hip
from ._api import binding
from ._lib import (
    LibraryError,
    Opaque,
    c_double,
    c_int,
    c_integer,
    call_arguments,
    error_factory,
    find,
    library_table,
    out_parameters,
    stream_of,
    target_of,
    write_host,
)
from ._types import c_enum, check_enum, device_address, pointer_value
from .hipblas import hipblasFillMode_t, hipblasOperation_t, hipblasSideMode_t

_MODULE = __name__

# --- enums (hipsolver-types.h values) ----------------------------------------------------------

hipsolverStatus_t = c_enum("hipsolverStatus_t", [
    ("HIPSOLVER_STATUS_SUCCESS", 0), ("HIPSOLVER_STATUS_NOT_INITIALIZED", 1), ("HIPSOLVER_STATUS_ALLOC_FAILED", 2),
    ("HIPSOLVER_STATUS_INVALID_VALUE", 3), ("HIPSOLVER_STATUS_MAPPING_ERROR", 4),
    ("HIPSOLVER_STATUS_EXECUTION_FAILED", 5), ("HIPSOLVER_STATUS_INTERNAL_ERROR", 6),
    ("HIPSOLVER_STATUS_NOT_SUPPORTED", 7), ("HIPSOLVER_STATUS_ARCH_MISMATCH", 8),
    ("HIPSOLVER_STATUS_HANDLE_IS_NULLPTR", 9), ("HIPSOLVER_STATUS_INVALID_ENUM", 10), ("HIPSOLVER_STATUS_UNKNOWN", 11),
    ("HIPSOLVER_STATUS_ZERO_PIVOT", 12), ("HIPSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", 13),
], _MODULE, "``hipsolverStatus_t``.")
hipsolverEigMode_t = c_enum("hipsolverEigMode_t", [
    ("HIPSOLVER_EIG_MODE_NOVECTOR", 201), ("HIPSOLVER_EIG_MODE_VECTOR", 202)], _MODULE)
hipsolverEigType_t = c_enum("hipsolverEigType_t", [
    ("HIPSOLVER_EIG_TYPE_1", 211), ("HIPSOLVER_EIG_TYPE_2", 212), ("HIPSOLVER_EIG_TYPE_3", 213)], _MODULE)
hipsolverEigRange_t = c_enum("hipsolverEigRange_t", [
    ("HIPSOLVER_EIG_RANGE_ALL", 221), ("HIPSOLVER_EIG_RANGE_V", 222), ("HIPSOLVER_EIG_RANGE_I", 223)], _MODULE)
#: hipSOLVER's typedefs of the hipBLAS enums.
hipsolverFillMode_t = hipblasFillMode_t
hipsolverOperation_t = hipblasOperation_t
hipsolverSideMode_t = hipblasSideMode_t

#: The hipSOLVER release whose API this follows (ROCm 6.2).
hipsolverVersionMajor = 2
hipsolverVersionMinor = 2
hipsolverVersionPatch = 0

_S = hipsolverStatus_t
_INT_MAX = 2**31 - 1


class HipsolverStatusError(LibraryError):
    """A failure hipSOLVER itself reports (before or instead of a rocBLAS/rocSOLVER status)."""

    status = _S.HIPSOLVER_STATUS_INTERNAL_ERROR


# --- the status table ---------------------------------------------------------------------------------

#: hipSOLVER's rocblas2hip_status; anything else is UNKNOWN.
ROCBLAS_TO_HIPSOLVER: dict[RocblasStatus, Any] = {
    RocblasStatus.success: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.size_unchanged: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.size_increased: _S.HIPSOLVER_STATUS_SUCCESS,
    RocblasStatus.invalid_handle: _S.HIPSOLVER_STATUS_NOT_INITIALIZED,
    RocblasStatus.not_implemented: _S.HIPSOLVER_STATUS_NOT_SUPPORTED,
    RocblasStatus.invalid_pointer: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_size: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.invalid_value: _S.HIPSOLVER_STATUS_INVALID_VALUE,
    RocblasStatus.memory_error: _S.HIPSOLVER_STATUS_ALLOC_FAILED,
    RocblasStatus.internal_error: _S.HIPSOLVER_STATUS_INTERNAL_ERROR,
}


def convert_status(status: Any) -> Any:
    """``rocblas2hip_status``: a rocBLAS status as hipSOLVER reports it."""
    try:
        return ROCBLAS_TO_HIPSOLVER.get(RocblasStatus(int(status)), _S.HIPSOLVER_STATUS_UNKNOWN)
    except ValueError:
        return _S.HIPSOLVER_STATUS_UNKNOWN


# exception2hip_status: std::bad_alloc is ALLOC_FAILED, any other exception (a HIP failure) INTERNAL_ERROR.
_HIPSOLVER = library_table(_S.HIPSOLVER_STATUS_SUCCESS, error=HipsolverStatusError, backend=RocblasError,
                           convert=convert_status, execution_failed=_S.HIPSOLVER_STATUS_EXECUTION_FAILED,
                           alloc_failed=_S.HIPSOLVER_STATUS_ALLOC_FAILED,
                           internal_error=_S.HIPSOLVER_STATUS_INTERNAL_ERROR)
_error = error_factory(HipsolverStatusError, _S.HIPSOLVER_STATUS_INVALID_VALUE)


def _value_error(message: str, arg: str) -> RocblasInvalidValueError:
    return RocblasInvalidValueError(message, arg=arg)


# --- handles ---------------------------------------------------------------------------------------------


class hipsolverHandle_t(Opaque):
    """A ``hipsolverHandle_t``: on AMD a rocBLAS handle (a :class:`rocmath.blas.BlasHandle`)."""


def _handle(obj: Any) -> BlasHandle:
    """The handle argument: NULL is hipSOLVER's NOT_INITIALIZED, anything else not a live handle rocBLAS's
    invalid_handle (the same status)."""
    target = target_of(obj, hipsolverHandle_t)
    if target is None:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_NOT_INITIALIZED, "null handle", arg="handle")
    if not isinstance(target, BlasHandle):
        raise RocblasInvalidHandleError("not a live hipSOLVER handle", arg="handle", index=1)
    target.check()
    return target


@binding(_HIPSOLVER, 1)
def hipsolverCreate() -> hipsolverHandle_t:
    """A new handle (a rocBLAS handle on the current device's null stream)."""
    return hipsolverHandle_t.new(_blas.create_handle())  # type: ignore[return-value]


@binding(_HIPSOLVER)
def hipsolverDestroy(handle: Any) -> None:
    """Destroy a handle (its queued work still completes)."""
    h = _handle(handle)
    h.destroy()
    found = find(handle, hipsolverHandle_t)
    if found is not None:
        found.release()


@binding(_HIPSOLVER)
def hipsolverSetStream(handle: Any, streamId: Any) -> None:
    """Queue the handle's later work on ``streamId`` (None: the null stream)."""
    h = _handle(handle)
    h.set_stream(stream_of(streamId, "streamId", _value_error))  # rocblas_set_stream: a bad stream is invalid_value


def _get_stream(handle: Any, streamId: Any) -> Any:
    return _hip.wrap_stream(_handle(handle).get_stream())


_get_stream.__name__ = _get_stream.__qualname__ = "hipsolverGetStream"
_get_stream.__doc__ = ("hipsolverGetStream(handle, streamId) -> (status,): the handle's stream, written through "
                       "``streamId`` (a hipStream_t*), or returned when it is omitted.")
hipsolverGetStream = out_parameters(_HIPSOLVER, _get_stream, {"streamId": np.dtype(np.uint64)}, _error)


# --- the Jacobi parameters (syevj, gesvdj) -----------------------------------------------------------


@dataclass
class JacobiParams:
    """hipSOLVER's ``hipsolverSyevjInfo`` / ``hipsolverGesvdjInfo``: the settings of a Jacobi routine and,
    after one ran, its residuals and sweeps (device memory the parameters own, grown on demand).

    Attributes
    ----------
    max_sweeps, tolerance, sort_eig
        hipSOLVER's defaults: 100 sweeps, tolerance 0 (the routine's own: machine epsilon), sorted.
    capacity
        Problems the device memory holds (0: none yet).
    residual, n_sweeps
        Device addresses: ``capacity`` residuals (``float`` when ``is_float``, else ``double``), then
        ``capacity`` int32 sweep counts.
    is_batched, is_float
        What the last routine was: a Batched one (its results cannot be read back), single precision.
    """

    max_sweeps: int = 100
    tolerance: float = 0.0
    sort_eig: bool = True
    capacity: int = 0
    residual: int = 0
    n_sweeps: int = 0
    is_batched: bool = False
    is_float: bool = False

    def prepare(self, count: int, batched: bool, single: bool) -> None:
        """Hold the results of ``count`` problems (hipSOLVER's ``malloc``: grows, never shrinks)."""
        if self.capacity < count:
            self.free()
            # Residuals first: 8-byte aligned whatever the count (hipSOLVER puts the ints first).
            base = rocmath.malloc(12 * count)
            self.residual, self.n_sweeps, self.capacity = base, base + 8 * count, count
        self.is_batched, self.is_float = batched, single

    def free(self) -> None:
        """Release the device memory."""
        if self.capacity > 0:
            rocmath.free(self.residual)
            self.capacity, self.residual, self.n_sweeps = 0, 0, 0


class _JacobiInfo(Opaque):
    """A Jacobi parameters object (its :attr:`target` a :class:`JacobiParams`)."""


class hipsolverSyevjInfo_t(_JacobiInfo):
    """A ``hipsolverSyevjInfo_t``."""


class hipsolverGesvdjInfo_t(_JacobiInfo):
    """A ``hipsolverGesvdjInfo_t``."""


def _params(obj: Any, arg: str) -> JacobiParams:
    """A parameters argument: NULL and anything not a live parameters object are INVALID_VALUE (the two
    kinds share hipSOLVER's layout, so either serves)."""
    found = find(obj, _JacobiInfo)
    if found is None:
        what = "null" if pointer_value(obj) == 0 else "not a live syevj/gesvdj info"
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_VALUE, what, arg=arg)
    return found.target  # type: ignore[no-any-return]


def _jacobi_api(kind: str, cls: type[_JacobiInfo]) -> dict[str, Callable[..., tuple[Any, ...]]]:
    """hipsolverCreate<Kind>Info, Destroy<Kind>Info and hipsolverX<kind>Set*/Get* for one kind."""
    title = kind.capitalize()

    def create(info: Any) -> _JacobiInfo:
        return cls.new(JacobiParams())  # type: ignore[return-value]

    def destroy(info: Any) -> None:
        _params(info, "info").free()
        found = find(info, _JacobiInfo)
        if found is not None:
            found.release()

    def set_max_sweeps(info: Any, max_sweeps: Any) -> None:
        n = c_integer(max_sweeps, "max_sweeps", "int")
        p = _params(info, "info")
        if n <= 0:
            raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_VALUE, f"must be positive, got {n}",
                                       arg="max_sweeps")
        p.max_sweeps = n

    def set_sort_eig(info: Any, sort_eig: Any) -> None:
        flag = c_integer(sort_eig, "sort_eig", "int")
        _params(info, "info").sort_eig = flag != 0

    def set_tolerance(info: Any, tolerance: Any) -> None:
        value = c_double(tolerance, "tolerance")
        _params(info, "info").tolerance = value

    def results(handle: Any, info: Any) -> JacobiParams:
        if target_of(handle, hipsolverHandle_t) is None:
            raise HipsolverStatusError(_S.HIPSOLVER_STATUS_HANDLE_IS_NULLPTR, "null handle", arg="handle")
        p = _params(info, "info")
        if p.is_batched:
            raise HipsolverStatusError(_S.HIPSOLVER_STATUS_NOT_SUPPORTED, "the last routine was batched", arg="info")
        if p.capacity <= 0:
            raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INTERNAL_ERROR, f"no {kind} routine has run", arg="info")
        return p

    def get_residual(handle: Any, info: Any, residual: Any) -> float:
        p = results(handle, info)
        out = np.zeros(1, np.float32 if p.is_float else np.float64)
        rocmath.memcpy(out, p.residual, out.nbytes)  # hipMemcpy: waits for the routine
        return float(out[0])

    def get_sweeps(handle: Any, info: Any, executed_sweeps: Any) -> int:
        p = results(handle, info)
        out = np.zeros(1, np.int32)
        rocmath.memcpy(out, p.n_sweeps, out.nbytes)
        return int(out[0])

    made: dict[str, Callable[..., tuple[Any, ...]]] = {}
    for name, fn, doc, out in (
        (f"hipsolverCreate{title}Info", create, f"a new {kind} parameters object (defaults: 100 sweeps, "
         "tolerance 0, sorted), written through ``info`` or returned", ("info", np.uint64)),
        (f"hipsolverDestroy{title}Info", destroy, "free the parameters object and its device memory", None),
        (f"hipsolverX{kind}SetMaxSweeps", set_max_sweeps, "the maximum number of sweeps (> 0)", None),
        (f"hipsolverX{kind}SetSortEig", set_sort_eig, "whether syevjBatched sorts its eigenvalues (non-zero: "
         "ascending; the other Jacobi routines always sort, as on AMD)", None),
        (f"hipsolverX{kind}SetTolerance", set_tolerance, "the convergence tolerance (<= 0: machine epsilon)", None),
        (f"hipsolverX{kind}GetResidual", get_residual, f"the residual of the last non-batched {kind} (a double, "
         "written through ``residual`` or returned)", ("residual", np.float64)),
        (f"hipsolverX{kind}GetSweeps", get_sweeps, f"the sweeps the last non-batched {kind} ran (an int, written "
         "through ``executed_sweeps`` or returned)", ("executed_sweeps", np.int32)),
    ):
        params = tuple(inspect.signature(fn).parameters)
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"{name}({', '.join(params)}) -> (hipsolverStatus_t,): {doc}."
        if out is None:
            made[name] = binding(_HIPSOLVER)(fn)
        else:  # the new object's address, or the number read back
            store = pointer_value if out[0] == "info" else float if out[1] is np.float64 else int
            made[name] = out_parameters(_HIPSOLVER, fn, {out[0]: np.dtype(out[1])}, _error, store=store)
    return made


# --- argument conversions (hipsolver_conversions.cpp) -------------------------------------------------

_SVECT = {ord("N"): Svect.none, ord("A"): Svect.all, ord("S"): Svect.singular, ord("O"): Svect.overwrite}
_EVECT = {201: Evect.none, 202: Evect.original}
_EFORM = {211: Eform.ax, 212: Eform.abx, 213: Eform.bax}
_ERANGE = {221: Erange.all, 222: Erange.value, 223: Erange.index}


def _fill(value: Any, arg: str) -> int:
    check_enum(value, hipblasFillMode_t, arg)
    if value.name == "HIPBLAS_FILL_MODE_FULL":
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_ENUM, "a full fill mode has no rocBLAS fill", arg=arg)
    return int(value)


def _side(value: Any, arg: str) -> int:
    check_enum(value, hipblasSideMode_t, arg)
    if value.name == "HIPBLAS_SIDE_BOTH":
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_ENUM, "side both has no rocBLAS side", arg=arg)
    return int(value)


def _svect(value: Any, arg: str) -> Svect:
    code = c_integer(value, arg, "signed char")  # hip-python's ``signed char``: an int (ord('A'))
    if code not in _SVECT:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INVALID_VALUE, f"job {code!r} is none of N, A, S, O", arg=arg)
    return _SVECT[code]


#: The C types of the integer parameters (hipsolver-functions.h): ``int``, but ``size_t`` for the ``lwork`` of the
#: ``wide`` families' computations (gels, gesv) and ``signed char`` for gesvd's ``jobu``/``jobv``.  Cython converts
#: them on entry (:func:`_integers`), before hipSOLVER checks anything.
_INT_TYPES: dict[str, str] = {
    **dict.fromkeys(("m", "n", "k", "nrhs", "lda", "ldb", "ldc", "ldu", "ldv", "ldx", "lwork", "econ", "batch_count",
                     "il", "iu"), "int"),
    "jobu": "signed char", "jobv": "signed char",
}

#: Parameter -> conversion; the others are device pointers.  The integers arrive converted (on entry: by
#: :func:`_integers`, or the size queries' ``out_parameters``).
_CONVERT: dict[str, Callable[[Any, str], Any]] = {
    **dict.fromkeys((n for n, t in _INT_TYPES.items() if t != "signed char"), c_int),
    "uplo": _fill, "side": _side, "trans": lambda v, a: int(check_enum(v, hipblasOperation_t, a)),
    "jobz": lambda v, a: _EVECT[int(check_enum(v, hipsolverEigMode_t, a))], "jobu": _svect, "jobv": _svect,
    "itype": lambda v, a: _EFORM[int(check_enum(v, hipsolverEigType_t, a))], "params": _params,
    "niters": lambda v, a: None,  # hipSOLVER on AMD never writes it
    "range": lambda v, a: _ERANGE[int(check_enum(v, hipsolverEigRange_t, a))],
    "vl": c_double, "vu": c_double,  # converted on entry (:func:`_c_real`): float for S/C, double for D/Z
    "nev": lambda v, a: v,  # a host int*: written as it is given (a ctypes.c_int is its own storage)
}

#: The real scalar parameters: C ``float`` in the S/C routines, ``double`` in the D/Z ones (hipsolver-functions.h).
_REALS = ("vl", "vu")


def _real_types(letter: str, names: tuple[str, ...]) -> dict[str, str]:
    return {n: "float" if letter in "SC" else "double" for n in names if n in _REALS}


def _c_real(value: Any, arg: str, ctype: str) -> float:
    """A C ``float``/``double`` argument as Cython converts it (a ``float`` rounded to single precision)."""
    x = c_double(value, arg)
    if ctype == "float":
        with np.errstate(over="ignore"):
            x = float(np.float32(x))
    return x


def _c_value(value: Any, arg: str, ctype: str) -> Any:
    return _c_real(value, arg, ctype) if ctype in ("float", "double") else c_integer(value, arg, ctype)


# --- the table ----------------------------------------------------------------------------------------------

#: One routine call: (name, arguments after the handle); ``blas:`` names are rocmath.blas's, the others
#: rocmath.solver's (both with the precision letter in front).
Call = tuple[str | Callable[..., Any], tuple[Any, ...]]


@dataclass(frozen=True)
class Family:
    """One hipSOLVER routine in every precision.

    Attributes
    ----------
    ops
        Precision letter -> hipSOLVER's name of the operation (``syevd`` for S/D, ``heevd`` for C/Z).
    params
        hip-python's parameters of the computation after ``handle``.
    query
        hip-python's parameters of ``_bufferSize`` after ``handle`` (``lwork`` among them).
    sizes
        The rocSOLVER calls the size query makes (the first one's failure is the query's).
    run
        The calls that compute (one or a list).
    roc
        hipSOLVER operation -> the rocSOLVER routine, where the names differ (``a.op`` is the latter).
    zero_info
        Whether hipSOLVER zeroes ``devInfo`` first (rocSOLVER's routine has no info), one per problem.
    scratch
        Bytes of device memory besides rocSOLVER's workspace the size query adds (rocSOLVER's ``E``, a
        temporary of a composition); 0 for none.
    takes
        Bytes of scratch taken from the front of a given ``work`` (or allocated) when no ``rwork`` is
        given (default: ``scratch``); ``a.E`` is its address.
    check
        hipSOLVER-level checks of a composition ``check(a, query)``: rocSOLVER's checks of the routine it
        replaces (sizes; pointers too outside a size query).
    twice
        The precision letter is written twice (``hipsolverDDgels``).
    wide
        ``lwork`` is a ``size_t`` (no INT_MAX limit).
    manage
        Bytes hipSOLVER adds to the queried size when the handle manages the workspace (sygvj's
        ``sizeof(float) * n``).
    """

    ops: dict[str, str]
    params: str
    query: str
    sizes: Callable[[Any], list[Call]]
    run: Callable[[Any], Call | list[Call]]
    roc: dict[str, str] = field(default_factory=dict)
    zero_info: bool = False
    scratch: Callable[[Any], int] = lambda a: 0
    takes: Callable[[Any], int] | None = None
    check: Callable[[Any, bool], None] | None = None
    twice: bool = False
    wide: bool = False
    manage: Callable[[Any], int] = lambda a: 0


def _count(*dims: int) -> int:
    """The product of the dimensions, 0 when one is not positive."""
    total = 1
    for d in dims:
        total *= max(d, 0)
    return total


def _copy(rows: int, cols: int, src: Any, lds: int, dst: Any, ldd: int, trans: Operation = Operation.none,
          batch: tuple[int, int, int] | None = None) -> list[Call]:
    """geam calls copying (``trans``: conjugate-transposing) a ``rows x cols`` result; none when it is empty."""
    if rows <= 0 or cols <= 0:
        return []
    if batch is None:
        return [("blas:geam", (trans, Operation.none, rows, cols, 1, src, lds, 0, None, ldd, dst, ldd))]
    stride_src, stride_dst, count = batch
    return [("blas:geam_strided_batched", (trans, Operation.none, rows, cols, 1, src, lds, stride_src, 0, None, ldd,
                                           stride_dst, dst, ldd, stride_dst, count))]


def _size_error(arg: str, message: str) -> RocblasInvalidSizeError:
    return RocblasInvalidSizeError(message, arg=arg)


def _require(a: Any, *pairs: tuple[str, bool]) -> None:
    for name, needed in pairs:
        if needed and not getattr(a, name):
            raise RocblasInvalidPointerError("null pointer", arg=name)


def _check_gels(a: Any, query: bool) -> None:
    """rocSOLVER's gels_outofplace checks (X apart from B; the in-place call checks itself)."""
    if not query and a.B == a.X:
        return
    if a.ldb < a.m or a.ldx < a.n:
        raise _size_error("ldb" if a.ldb < a.m else "ldx", f"ldb must be >= m = {a.m} and ldx >= n = {a.n}")
    for name, value, least in (("m", a.m, 0), ("n", a.n, 0), ("nrhs", a.nrhs, 0), ("lda", a.lda, a.m)):
        if value < least:
            raise _size_error(name, f"must be >= {least}, got {value}")
    if not query:
        _require(a, ("A", a.m * a.n > 0), ("B", a.m * a.nrhs > 0), ("X", a.n * a.nrhs > 0), ("devInfo", True))


def _check_gesv(a: Any, query: bool) -> None:
    """rocSOLVER's gesv_outofplace checks (X apart from B; the in-place call checks itself)."""
    if not query and a.B == a.X:
        return
    for name, value, least in (("n", a.n, 0), ("nrhs", a.nrhs, 0), ("lda", a.lda, a.n), ("ldb", a.ldb, a.n),
                               ("ldx", a.ldx, a.n)):
        if value < least:
            raise _size_error(name, f"must be >= {least}, got {value}")
    if not query:
        _require(a, ("A", a.n > 0), ("devIpiv", a.n > 0), ("B", a.n * a.nrhs > 0), ("X", a.n * a.nrhs > 0),
                 ("devInfo", True))


def _svd_job(a: Any) -> Svect:
    """hip2rocblas_evect2svect: no vectors, the economy ones (``econ``), or all."""
    if a.jobz is Evect.none:
        return Svect.none
    return Svect.singular if getattr(a, "econ", 0) else Svect.all


def _vrows(a: Any) -> int:
    """Rows of V^H (columns of hipSOLVER's V) gesvdj computes."""
    return {Svect.all: a.n, Svect.singular: min(a.m, a.n)}.get(_svd_job(a), 0)


def _check_gesvdj(a: Any, query: bool) -> None:
    """rocSOLVER's gesvdj_notransv check of V (n rows, not V^H's) before rocmath.solver's gesvdj checks the rest."""
    if _svd_job(a) is not Svect.none and a.ldv < a.n:
        raise _size_error("ldv", f"must be >= n = {a.n} for the right singular vectors, got {a.ldv}")
    if not query:
        _require(a, ("V", _count(_vrows(a), a.n) > 0))


def _gesvdj_calls(a: Any, batched: bool, query: bool = False) -> list[Call]:
    """gesvdj into the scratch V^H (``vrows`` rows), then V := (V^H)^H; the size query's call alone."""
    job, vrows, k, p = _svd_job(a), _vrows(a), min(a.m, a.n), a.params
    ldvt = max(vrows, 1)
    A, S, U, vt, info = (None,) * 5 if query else (a.A, a.S, a.U, a.E if vrows else None, a.devInfo)
    res, sweeps = (None, None) if query else (p.residual or None, p.n_sweeps or None)
    if not batched:
        return [("gesvdj", (job, job, a.m, a.n, A, a.lda, p.tolerance, res, p.max_sweeps, sweeps, S, U, a.ldu, vt,
                            ldvt, info)),
                *([] if query else _copy(a.n, vrows, vt, ldvt, a.V, a.ldv, Operation.conjugate_transpose))]
    return [("gesvdj_strided_batched", (job, job, a.m, a.n, A, a.lda, a.lda * a.n, p.tolerance, res, p.max_sweeps,
                                        sweeps, S, k, U, a.ldu, a.ldu * a.m, vt, ldvt, vrows * a.n, info,
                                        a.batch_count)),
            *([] if query else _copy(a.n, vrows, vt, ldvt, a.V, a.ldv, Operation.conjugate_transpose,
                                     (vrows * a.n, a.ldv * a.n, a.batch_count)))]


def _gels_scratch(a: Any) -> int:
    """Bytes of B's copy (max(m, n) x nrhs) an out-of-place gels solves in."""
    return a.item * max(a.m, a.n) * max(a.nrhs, 0) if min(a.m, a.n) >= 0 else 0


def _gels_calls(a: Any) -> list[Call]:
    """In place when X is B; else B copied to the scratch (max(m, n) rows), solved there, the n rows copied to X."""
    if a.B == a.X:
        return [("gels", (Operation.none, a.m, a.n, a.nrhs, a.A, a.lda, a.B, a.ldb, a.devInfo))]
    ldt = max(a.m, a.n, 1)
    return [*_copy(a.m, a.nrhs, a.B, a.ldb, a.E, ldt),
            ("gels", (Operation.none, a.m, a.n, a.nrhs, a.A, a.lda, a.E, ldt, a.devInfo)),
            *_copy(a.n, a.nrhs, a.E, ldt, a.X, a.ldx)]


def _gesv_calls(a: Any) -> list[Call]:
    """In place when X is B; else B copied to X and solved there."""
    if a.B == a.X:
        return [("gesv", (a.n, a.nrhs, a.A, a.lda, a.devIpiv, a.B, a.ldb, a.devInfo))]
    return [*_copy(a.n, a.nrhs, a.B, a.ldb, a.X, a.ldx),
            ("gesv", (a.n, a.nrhs, a.A, a.lda, a.devIpiv, a.X, a.ldx, a.devInfo))]


def _esort(a: Any) -> Esort:
    """hipSOLVER sorts a single syevj always, a batched one as the parameters say."""
    return Esort.ascending if a.params.sort_eig or not hasattr(a, "batch_count") else Esort.none


def _storev(a: Any) -> Any:
    """hip2rocblas_side2storev: orgbr's ``side`` (left; right: both is INVALID_ENUM on entry) as rocSOLVER's storev."""
    return _solver.Storev.column_wise if a.side == _solver.Side.left else _solver.Storev.row_wise


def _rounded(nbytes: int) -> int:
    """``nbytes`` rounded up to 64 bytes, as rocBLAS rounds the device memory it hands out."""
    return -(-max(nbytes, 0) // 64) * 64


def _evdx_z_bytes(a: Any) -> int:
    """Bytes of the scratch Z (n x n) the subset eigensolvers compute the eigenvectors into (none without)."""
    return _rounded(a.item * _count(a.n, a.n)) if a.jobz is Evect.original else 0


def _evdx_scratch(a: Any) -> int:
    """syevdx/sygvdx: rocSOLVER's ``_inplace`` routines (eigenvectors in A, nev to the host) run as rocmath's
    syevdx/sygvdx into a scratch Z, then a scratch device nev (64 bytes)."""
    return _evdx_z_bytes(a) + _rounded(4)


def _evdx_call(a: Any, query: bool = False) -> Call:
    """rocmath's syevdx/sygvdx for hipSOLVER's ``_inplace`` call: Z (ldz = n) and nev in the scratch; the size
    query's with NULL pointers."""
    vectors = a.jobz is Evect.original
    z = None if query or not vectors else a.E
    nev = None if query else a.E + _evdx_z_bytes(a)
    A, W, info = (None, None, None) if query else (a.A, a.W, a.devInfo)
    head = (a.jobz, a.range, a.uplo, a.n, A, a.lda)
    if hasattr(a, "itype"):
        head = (a.itype, *head, None if query else a.B, a.ldb)
    return (a.op, (*head, a.vl, a.vu, a.il, a.iu, nev, W, z, max(a.n, 1), info))


def _evdx_finish(h: BlasHandle, a: Any) -> None:
    """The end of rocSOLVER's ``_inplace`` routines: nev to the host (hipMemcpyAsync on the handle's stream, then
    hipStreamSynchronize), here before the first nev columns of Z are copied into A (geam)."""
    nev = np.zeros(1, np.int32)
    rocmath.memcpy_async(nev, a.E + _evdx_z_bytes(a), 4, stream=h.stream)
    h.stream.synchronize()
    if a.jobz is Evect.original:
        for name, args in _copy(a.n, int(nev[0]), a.E, max(a.n, 1), a.A, a.lda):
            _routine(a.letter, name)(h, *args)
    write_host(a.nev, nev, np.int32, "nev", _error)


def _evdx_calls(a: Any) -> list[Call]:
    return [_evdx_call(a), (_evdx_finish, (a,))]


def _check_evdx(a: Any, query: bool) -> None:
    """The host nev of rocSOLVER's ``_inplace`` checks (the others are rocmath's syevdx/sygvdx's, which
    takes its nev from the scratch): NULL is invalid_pointer -- after the size checks, which the call makes."""
    if query or isinstance(a.nev, ctypes._SimpleCData) or pointer_value(a.nev) != 0:
        return
    n, index = a.n, a.range is Erange.index
    if (n < 0 or a.lda < n or getattr(a, "ldb", n) < n or (a.range is Erange.value and a.vl >= a.vu)
            or (index and (a.il < 1 or a.iu < 0 or a.iu > n or (n > 0 and a.il > a.iu)))):
        return
    raise RocblasInvalidPointerError("null nev", arg="nev")


_SDCZ = dict.fromkeys("SDCZ", "")
_SYHE = {"S": "sy", "D": "sy", "C": "he", "Z": "he"}
_ORUN = {"S": "or", "D": "or", "C": "un", "Z": "un"}


def _each(op: str, prefixes: dict[str, str] = _SDCZ) -> dict[str, str]:
    return {p: f"{prefix}{op}" for p, prefix in prefixes.items()}


FAMILIES: dict[str, Family] = {
    "getrf": Family(
        _each("getrf"), "m n A lda work lwork devIpiv devInfo", "m n A lda lwork",
        lambda a: [("getrf", (a.m, a.n, None, a.lda, None, None)), ("getrf_npvt", (a.m, a.n, None, a.lda, None))],
        lambda a: (("getrf", (a.m, a.n, a.A, a.lda, a.devIpiv, a.devInfo)) if a.devIpiv
                   else ("getrf_npvt", (a.m, a.n, a.A, a.lda, a.devInfo)))),
    "getrs": Family(
        _each("getrs"), "trans n nrhs A lda devIpiv B ldb work lwork devInfo",
        "trans n nrhs A lda devIpiv B ldb lwork",
        lambda a: [("getrs", (a.trans, a.n, a.nrhs, None, a.lda, None, None, a.ldb))],
        lambda a: ("getrs", (a.trans, a.n, a.nrhs, a.A, a.lda, a.devIpiv, a.B, a.ldb)), zero_info=True),
    "potrf": Family(
        _each("potrf"), "uplo n A lda work lwork devInfo", "uplo n A lda lwork",
        lambda a: [("potrf", (a.uplo, a.n, None, a.lda, None))],
        lambda a: ("potrf", (a.uplo, a.n, a.A, a.lda, a.devInfo))),
    "potrs": Family(
        _each("potrs"), "uplo n nrhs A lda B ldb work lwork devInfo", "uplo n nrhs A lda B ldb lwork",
        lambda a: [("potrs", (a.uplo, a.n, a.nrhs, None, a.lda, None, a.ldb))],
        lambda a: ("potrs", (a.uplo, a.n, a.nrhs, a.A, a.lda, a.B, a.ldb)), zero_info=True),
    "potrfBatched": Family(
        _each("potrfBatched"), "uplo n A lda work lwork devInfo batch_count", "uplo n A lda lwork batch_count",
        lambda a: [(a.op, (a.uplo, a.n, None, a.lda, None, a.batch_count))],
        lambda a: (a.op, (a.uplo, a.n, a.A, a.lda, a.devInfo, a.batch_count)),
        roc={"potrfBatched": "potrf_batched"}),
    "potrsBatched": Family(
        _each("potrsBatched"), "uplo n nrhs A lda B ldb work lwork devInfo batch_count",
        "uplo n nrhs A lda B ldb lwork batch_count",
        lambda a: [(a.op, (a.uplo, a.n, a.nrhs, None, a.lda, None, a.ldb, a.batch_count))],
        lambda a: (a.op, (a.uplo, a.n, a.nrhs, a.A, a.lda, a.B, a.ldb, a.batch_count)),
        roc={"potrsBatched": "potrs_batched"}, zero_info=True),
    "potri": Family(
        _each("potri"), "uplo n A lda work lwork devInfo", "uplo n A lda lwork",
        lambda a: [("potri", (a.uplo, a.n, None, a.lda, None))],
        lambda a: ("potri", (a.uplo, a.n, a.A, a.lda, a.devInfo))),
    "geqrf": Family(
        _each("geqrf"), "m n A lda tau work lwork devInfo", "m n A lda lwork",
        lambda a: [("geqrf", (a.m, a.n, None, a.lda, None))],
        lambda a: ("geqrf", (a.m, a.n, a.A, a.lda, a.tau)), zero_info=True),
    "orgqr": Family(
        _each("gqr", _ORUN), "m n k A lda tau work lwork devInfo", "m n k A lda tau lwork",
        lambda a: [(a.op, (a.m, a.n, a.k, None, a.lda, None))],
        lambda a: (a.op, (a.m, a.n, a.k, a.A, a.lda, a.tau)), zero_info=True),
    "ormqr": Family(
        _each("mqr", _ORUN), "side trans m n k A lda tau C ldc work lwork devInfo",
        "side trans m n k A lda tau C ldc lwork",
        lambda a: [(a.op, (a.side, a.trans, a.m, a.n, a.k, None, a.lda, None, None, a.ldc))],
        lambda a: (a.op, (a.side, a.trans, a.m, a.n, a.k, a.A, a.lda, a.tau, a.C, a.ldc)), zero_info=True),
    "orgbr": Family(
        # ``side`` is rocSOLVER's storev (hip2rocblas_side2storev): left column-wise (Q), right row-wise (P^H).
        _each("gbr", _ORUN), "side m n k A lda tau work lwork devInfo", "side m n k A lda tau lwork",
        lambda a: [(a.op, (_storev(a), a.m, a.n, a.k, None, a.lda, None))],
        lambda a: (a.op, (_storev(a), a.m, a.n, a.k, a.A, a.lda, a.tau)), zero_info=True),
    "orgtr": Family(
        _each("gtr", _ORUN), "uplo n A lda tau work lwork devInfo", "uplo n A lda tau lwork",
        lambda a: [(a.op, (a.uplo, a.n, None, a.lda, None))],
        lambda a: (a.op, (a.uplo, a.n, a.A, a.lda, a.tau)), zero_info=True),
    "ormtr": Family(
        _each("mtr", _ORUN), "side uplo trans m n A lda tau C ldc work lwork devInfo",
        "side uplo trans m n A lda tau C ldc lwork",
        lambda a: [(a.op, (a.side, a.uplo, a.trans, a.m, a.n, None, a.lda, None, None, a.ldc))],
        lambda a: (a.op, (a.side, a.uplo, a.trans, a.m, a.n, a.A, a.lda, a.tau, a.C, a.ldc)), zero_info=True),
    "gels": Family(
        _each("gels"), "m n nrhs A lda B ldb X ldx work lwork niters devInfo", "m n nrhs A lda B ldb X ldx lwork",
        lambda a: [("gels", (Operation.none, a.m, a.n, a.nrhs, None, a.lda, None, max(a.m, a.n, 1), None))],
        _gels_calls, scratch=_gels_scratch, takes=lambda a: 0 if a.B == a.X else _gels_scratch(a),
        check=_check_gels, twice=True, wide=True),
    "gesv": Family(
        _each("gesv"), "n nrhs A lda devIpiv B ldb X ldx work lwork niters devInfo",
        "n nrhs A lda devIpiv B ldb X ldx lwork",
        lambda a: [("gesv", (a.n, a.nrhs, None, a.lda, None, None, max(a.n, 1), None))],
        _gesv_calls, check=_check_gesv, twice=True, wide=True),
    "gebrd": Family(
        _each("gebrd"), "m n A lda D E tauq taup work lwork devInfo", "m n lwork",
        # hipSOLVER's query passes lda = m
        lambda a: [("gebrd", (a.m, a.n, None, a.m, None, None, None, None))],
        lambda a: ("gebrd", (a.m, a.n, a.A, a.lda, a.D, a.E_, a.tauq, a.taup)), zero_info=True),
    "sytrd": Family(
        _each("trd", _SYHE), "uplo n A lda D E tau work lwork devInfo", "uplo n A lda D E tau lwork",
        lambda a: [(a.op, (a.uplo, a.n, None, a.lda, None, None, None))],
        lambda a: (a.op, (a.uplo, a.n, a.A, a.lda, a.D, a.E_, a.tau)), zero_info=True),
    "gesvd": Family(
        _each("gesvd"), "jobu jobv m n A lda S U ldu V ldv work lwork rwork devInfo", "jobu jobv m n lwork",
        lambda a: [("gesvd", (a.jobu, a.jobv, a.m, a.n, None, a.m, None, None, max(a.m, 1), None, max(a.n, 1), None,
                              Workmode.outofplace, None))],
        lambda a: ("gesvd", (a.jobu, a.jobv, a.m, a.n, a.A, a.lda, a.S, a.U, a.ldu, a.V, a.ldv, a.E,
                             Workmode.outofplace, a.devInfo)),
        scratch=lambda a: a.real * max(min(a.m, a.n), 0),
        takes=lambda a: a.real * min(a.m, a.n) if min(a.m, a.n) > 1 else 0),
    "gesvdj": Family(
        _each("gesvdj"), "jobz econ m n A lda S U ldu V ldv work lwork devInfo params",
        "jobz econ m n A lda S U ldu V ldv lwork params",
        lambda a: _gesvdj_calls(a, False, query=True), lambda a: _gesvdj_calls(a, False),
        scratch=lambda a: a.item * _count(_vrows(a), a.n), check=_check_gesvdj),
    "gesvdjBatched": Family(
        _each("gesvdjBatched"), "jobz m n A lda S U ldu V ldv work lwork devInfo params batch_count",
        "jobz m n A lda S U ldu V ldv lwork params batch_count",
        lambda a: _gesvdj_calls(a, True, query=True), lambda a: _gesvdj_calls(a, True),
        roc={"gesvdjBatched": "gesvdj_strided_batched"},
        scratch=lambda a: a.item * _count(_vrows(a), a.n, a.batch_count), check=_check_gesvdj),
    "syevd": Family(
        # The eigenvalues are ``D`` here (hipsolver.h), ``W`` in the other eigensolvers.
        _each("evd", _SYHE), "jobz uplo n A lda D work lwork devInfo", "jobz uplo n A lda D lwork",
        lambda a: [(a.op, (a.jobz, a.uplo, a.n, None, a.lda, None, None, None))],
        lambda a: (a.op, (a.jobz, a.uplo, a.n, a.A, a.lda, a.D, a.E, a.devInfo)),
        scratch=lambda a: a.real * max(a.n, 0)),
    "sygvd": Family(
        _each("gvd", _SYHE), "itype jobz uplo n A lda B ldb W work lwork devInfo",
        "itype jobz uplo n A lda B ldb W lwork",
        lambda a: [(a.op, (a.itype, a.jobz, a.uplo, a.n, None, a.lda, None, a.ldb, None, None, None))],
        lambda a: (a.op, (a.itype, a.jobz, a.uplo, a.n, a.A, a.lda, a.B, a.ldb, a.W, a.E, a.devInfo)),
        scratch=lambda a: a.real * max(a.n, 0)),
    "syevj": Family(
        _each("evj", _SYHE), "jobz uplo n A lda W work lwork devInfo params", "jobz uplo n A lda W lwork params",
        lambda a: [(a.op, (_esort(a), a.jobz, a.uplo, a.n, None, a.lda, a.params.tolerance, None,
                           a.params.max_sweeps, None, None, None))],
        lambda a: (a.op, (_esort(a), a.jobz, a.uplo, a.n, a.A, a.lda, a.params.tolerance, a.params.residual or None,
                          a.params.max_sweeps, a.params.n_sweeps or None, a.W, a.devInfo))),
    "syevjBatched": Family(
        _each("evjBatched", _SYHE), "jobz uplo n A lda W work lwork devInfo params batch_count",
        "jobz uplo n A lda W lwork params batch_count",
        lambda a: [(a.op, (_esort(a), a.jobz, a.uplo, a.n, None, a.lda, a.lda * a.n, a.params.tolerance, None,
                           a.params.max_sweeps, None, None, a.n, None, a.batch_count))],
        lambda a: (a.op, (_esort(a), a.jobz, a.uplo, a.n, a.A, a.lda, a.lda * a.n, a.params.tolerance,
                          a.params.residual or None, a.params.max_sweeps, a.params.n_sweeps or None, a.W, a.n,
                          a.devInfo, a.batch_count)),
        roc={"syevjBatched": "syevj_strided_batched", "heevjBatched": "heevj_strided_batched"}),
    "syevdx": Family(
        # rocsolver_<p>syevdx_inplace (abstol 0, nev a host int*) over rocmath's syevdx: see _evdx_scratch
        _each("evdx", _SYHE), "jobz range uplo n A lda vl vu il iu nev W work lwork devInfo",
        "jobz range uplo n A lda vl vu il iu nev W lwork",
        lambda a: [_evdx_call(a, query=True)], _evdx_calls, scratch=_evdx_scratch, check=_check_evdx),
    "sygvdx": Family(
        _each("gvdx", _SYHE), "itype jobz range uplo n A lda B ldb vl vu il iu nev W work lwork devInfo",
        "itype jobz range uplo n A lda B ldb vl vu il iu nev W lwork",
        lambda a: [_evdx_call(a, query=True)], _evdx_calls, scratch=_evdx_scratch, check=_check_evdx),
    "sygvj": Family(
        _each("gvj", _SYHE), "itype jobz uplo n A lda B ldb W work lwork devInfo params",
        "itype jobz uplo n A lda B ldb W lwork params",
        lambda a: [(a.op, (a.itype, a.jobz, a.uplo, a.n, None, a.lda, None, a.ldb, a.params.tolerance, None,
                           a.params.max_sweeps, None, None, None))],
        lambda a: (a.op, (a.itype, a.jobz, a.uplo, a.n, a.A, a.lda, a.B, a.ldb, a.params.tolerance,
                          a.params.residual or None, a.params.max_sweeps, a.params.n_sweeps or None, a.W, a.devInfo)),
        manage=lambda a: 4 * a.n),  # hipsolverManageWorkspace(handle, lwork + sizeof(float) * n), every precision
    "sytrf": Family(
        # The query has no uplo: hipSOLVER asks for rocblas_fill_upper's size.
        _each("sytrf"), "uplo n A lda ipiv work lwork devInfo", "n A lda lwork",
        lambda a: [("sytrf", (Fill.upper, a.n, None, a.lda, None, None))],
        lambda a: ("sytrf", (a.uplo, a.n, a.A, a.lda, a.ipiv, a.devInfo))),
}

_REAL_SIZE = {"S": 4, "D": 8, "C": 4, "Z": 8}


def _args(letter: str, op: str, names: tuple[str, ...], values: tuple[Any, ...]) -> SimpleNamespace:
    """The arguments as rocmath takes them, with ``op`` (the rocSOLVER routine) and element sizes.

    ``params`` is converted first: hipSOLVER checks it before anything else.  An ``E`` parameter
    (gebrd's, sytrd's) is ``E_``: ``E`` is the scratch address.
    """
    real = _REAL_SIZE[letter]
    a = SimpleNamespace(op=op, letter=letter, E=None, real=real, item=real * (2 if letter in "CZ" else 1))
    given = dict(zip(names, values, strict=True))
    for name in sorted(names, key=lambda n: n != "params"):
        value, convert = given[name], _CONVERT.get(name)
        setattr(a, "E_" if name == "E" else name, convert(value, name) if convert is not None
                else device_address(value))
    return a


def _routine(letter: str, name: str | Callable[..., Any]) -> Callable[..., Any]:
    if callable(name):  # a step of hipSOLVER's own (called with the handle first)
        return name
    module, _, op = name.rpartition(":")
    return getattr(_blas if module else _solver, f"{letter.lower()}{op}")  # type: ignore[no-any-return]


def _calls(calls: Call | list[Call]) -> list[Call]:
    return calls if isinstance(calls, list) else [calls]


def _query(h: BlasHandle, letter: str, family: Family, a: SimpleNamespace) -> int:
    """hipSOLVER's ``_bufferSize``: the bytes of the rocSOLVER calls' device-memory size query, plus scratch."""
    if family.check is not None:
        family.check(a, True)
    first: BaseException | None = None
    h.start_device_memory_size_query()
    try:
        for i, (name, args) in enumerate(family.sizes(a)):
            try:
                _routine(letter, name)(h, *args)
            except RocmathError as exc:
                if i == 0:
                    first = exc
    finally:
        size = h.stop_device_memory_size_query()
    if first is not None:
        raise first
    extra = family.scratch(a)
    if extra:
        # rocblas_set_optimal_device_memory_size(handle, size, size_E): both, rounded, summed.
        h.start_device_memory_size_query()
        h.size_query(size, extra)
        size = h.stop_device_memory_size_query()
    if size > _INT_MAX and not family.wide:
        raise HipsolverStatusError(_S.HIPSOLVER_STATUS_INTERNAL_ERROR, f"workspace of {size} bytes exceeds int")
    return size


def _manage_workspace(h: BlasHandle, need: int) -> None:
    """``hipsolverManageWorkspace``: grow the handle's workspace to ``need`` bytes."""
    current = 0 if h.is_managing_device_memory() else h.get_device_memory_size()
    if need > current:
        h.set_device_memory_size(need)


def _zero_info(h: BlasHandle, info: Any, count: int) -> None:
    """``hipsolverZeroInfo``: ``count`` zeros into ``devInfo`` on the handle's stream."""
    if not info:
        raise RocblasInvalidPointerError("null devInfo", arg="devInfo")
    if count < 0:  # hipMemsetAsync of a negative (huge unsigned) size fails: rocblas_status_internal_error
        raise RocblasInternalError(f"cannot zero {count} infos", arg="batch_count")
    rocmath.memset_async(info, 0, 4 * count, h.stream)


def _int_types(family: Family, names: tuple[str, ...], query: bool) -> dict[str, str]:
    """The C type of each integer parameter of a family's size query (``lwork`` is its ``int*``/``size_t*`` out-
    parameter there) or computation (``lwork`` a ``size_t`` in the ``wide`` families)."""
    types = {n: _INT_TYPES[n] for n in names if n in _INT_TYPES}
    if "lwork" in types:
        if query:
            del types["lwork"]
        elif family.wide:
            types["lwork"] = "size_t"
    return types


def _integers(types: dict[str, str], names: tuple[str, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The integer arguments converted to their C types, in order, as Cython converts them on entry (TypeError,
    OverflowError naming the argument); the others as given."""
    return tuple(_c_value(v, n, types[n]) if n in types else v for n, v in zip(names, values, strict=True))


def _signature(params: tuple[str, ...]) -> inspect.Signature:
    return inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])


def _bind_query(name: str, letter: str, family: Family) -> Callable[..., tuple[Any, ...]]:
    names = tuple(family.query.split())
    op = family.ops[letter]
    types = _int_types(family, names, True)

    def impl(handle: Any, *args: Any) -> int:  # the integers arrive converted (out_parameters' ``integers``)
        h = _handle(handle)
        given = tuple(n for n in names if n != "lwork")
        values = tuple(v for n, v in zip(names, args, strict=True) if n != "lwork")
        return _query(h, letter, family, _args(letter, family.roc.get(op, op), given, values))

    params = ("handle", *names)
    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = _signature(params)  # type: ignore[attr-defined]
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsolverStatus_t,): the workspace bytes of "
                    f"{name.removesuffix('_bufferSize')}, written through ``lwork`` "
                    f"({'size_t' if family.wide else 'int'}*) or returned when it is omitted.")
    lwork = np.dtype(np.uint64 if family.wide else np.int32)
    # hipSOLVER checks the handle, then a NULL lwork, then the rest.
    bound = out_parameters(_HIPSOLVER, impl, {"lwork": lwork}, _error, integers=types,
                           before=lambda given: _handle(given["handle"]))
    reals = _real_types(letter, names)
    return _on_entry(bound, params, {**types, **reals}) if reals else bound


def _on_entry(fn: Callable[..., tuple[Any, ...]], params: tuple[str, ...],
              types: dict[str, str]) -> Callable[..., tuple[Any, ...]]:
    """A size query binding with its ``float``/``double`` parameters converted on entry among the integers, in
    parameter order, as Cython converts them (the integers again by ``fn``: the same values); ``lwork`` may be
    left out (rocmath's form, returning it)."""
    others = tuple(p for p in params if p != "lwork")

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        order = params if len(args) + len(kwargs) == len(params) else others
        args = tuple(_c_value(v, n, types[n]) if n in types else v for n, v in zip(order, args, strict=False)) + \
            args[len(order):]
        kwargs = {k: _c_value(v, k, types[k]) if k in types else v for k, v in kwargs.items()}
        return fn(*args, **kwargs)

    return call


def _bind_compute(name: str, letter: str, family: Family) -> Callable[..., tuple[Any, ...]]:
    names = tuple(family.params.split())
    op = family.ops[letter]
    roc = family.roc.get(op, op)
    types = {**_int_types(family, names, False), **_real_types(letter, names)}

    def impl(*args: Any, **kwargs: Any) -> None:
        given = call_arguments(name, ("handle", *names), args, kwargs)
        handle = given.pop("handle")
        args = _integers(types, names, tuple(given.values()))
        h = _handle(handle)
        a = _args(letter, roc, names, args)
        rwork = getattr(a, "rwork", 0)
        extra = 0 if rwork else (family.takes or family.scratch)(a)
        a.E = rwork or None
        owned = 0
        user = bool(a.work and a.lwork)
        if user:
            work, lwork = a.work, a.lwork
            if extra:
                # The scratch comes from the front of work; the workspace is what remains (hipSOLVER passes
                # the full lwork on, past the end of work, which rocmath's bounds checks refuse).
                a.E, work = work, work + extra
                lwork = max(lwork - extra, 0)
            h.set_workspace(work, lwork)
        else:
            _manage_workspace(h, _query(h, letter, family, a) + family.manage(a))
            if extra:
                owned = a.E = rocmath.malloc_async(extra, h.stream)
        try:
            if family.check is not None:
                family.check(a, False)
            if family.zero_info:
                _zero_info(h, a.devInfo, getattr(a, "batch_count", 1))
            if "params" in names:
                a.params.prepare(getattr(a, "batch_count", 1), "batch_count" in names, letter in "SC")
            with h.use_pointer_mode(PointerMode.host):  # geam's alpha and beta are numbers
                for call, call_args in _calls(family.run(a)):
                    _routine(letter, call)(h, *call_args)
        finally:
            if owned:
                rocmath.free_async(owned, h.stream)
            if user:
                # The given work serves this call only: hipSOLVER leaves it set on the rocBLAS handle, where a
                # later call without one would use memory the program may have freed since.
                h.set_workspace(0, 0)

    params = ("handle", *names)
    impl.__name__ = impl.__qualname__ = name
    impl.__signature__ = _signature(params)  # type: ignore[attr-defined]
    impl.__doc__ = (f"{name}({', '.join(params)}) -> (hipsolverStatus_t,)\n\nhipSOLVER over rocmath.solver."
                    f"{letter.lower()}{roc}: ``work``/``lwork`` (bytes) as the handle's workspace, or the handle's "
                    "own; info in ``devInfo``.")
    fn = binding(_HIPSOLVER)(impl)
    fn.__signature__ = impl.__signature__  # type: ignore[attr-defined]
    return fn


def _names() -> dict[str, tuple[str, Family, bool]]:
    """hipSOLVER name -> (precision, family, is the size query), for the routines rocmath.solver has."""
    out: dict[str, tuple[str, Family, bool]] = {}
    for family in FAMILIES.values():
        for letter, op in family.ops.items():
            if hasattr(_solver, f"{letter.lower()}{family.roc.get(op, op)}"):
                base = f"hipsolver{letter * (2 if family.twice else 1)}{op}"
                out[f"{base}_bufferSize"] = (letter, family, True)
                out[base] = (letter, family, False)
    return out


MANIFEST = _names()
#: The families' names whose rocSOLVER routines rocmath.solver lacks (none are bound).
UNAVAILABLE = sorted({f"hipsolver{p * (2 if fam.twice else 1)}{op}" for fam in FAMILIES.values()
                      for p, op in fam.ops.items()} - set(MANIFEST))
_BOUND = {name: (_bind_query if query else _bind_compute)(name, letter, family)
          for name, (letter, family, query) in MANIFEST.items()}
_JACOBI = {**_jacobi_api("syevj", hipsolverSyevjInfo_t), **_jacobi_api("gesvdj", hipsolverGesvdjInfo_t)}
globals().update(_BOUND, **_JACOBI)

__all__ = sorted([
    *_BOUND, *_JACOBI, "hipsolverCreate", "hipsolverDestroy", "hipsolverSetStream", "hipsolverGetStream",
    "hipsolverStatus_t", "hipsolverEigMode_t", "hipsolverEigType_t", "hipsolverEigRange_t", "hipsolverFillMode_t",
    "hipsolverOperation_t", "hipsolverSideMode_t", "hipblasFillMode_t", "hipblasOperation_t", "hipblasSideMode_t",
    "hipsolverHandle_t", "hipsolverSyevjInfo_t", "hipsolverGesvdjInfo_t", "JacobiParams", "HipsolverStatusError",
    "ROCBLAS_TO_HIPSOLVER", "convert_status", "FAMILIES", "MANIFEST", "UNAVAILABLE", "Family",
    "hipsolverVersionMajor", "hipsolverVersionMinor", "hipsolverVersionPatch",
])

# --- the compatibility API (hipsolverDn*), derived from the names above by rocmath.hip._hipsolver_dn ---------------
from ._hipsolver_dn import compat_api as _compat_api  # noqa: E402

_DN = _compat_api()
globals().update(_DN)
__all__ = sorted([*__all__, *_DN])

# --- the refactorization API (hipsolverRf*), over rocmath.solver's csrrf_* by rocmath.hip._hipsolver_rf ------------
from ._hipsolver_rf import rf_api as _rf_api  # noqa: E402

_RF = _rf_api()
globals().update(_RF)
__all__ = sorted([*__all__, *_RF])

# --- the sparse API (hipsolverSp*: csrlsvchol), over csrrf_* by rocmath.hip._hipsolver_sp -------------------------
from ._hipsolver_sp import sp_api as _sp_api  # noqa: E402

_SP = _sp_api()
globals().update(_SP)
__all__ = sorted([*__all__, *_SP])
