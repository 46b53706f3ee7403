"""hipBLAS's solver functions (``hipblas<P>getrf``, ``getrs``, ``getriBatched``, ``geqrf``, ``gels`` and their
Batched / StridedBatched forms), over :mod:`rocmath.solver`, as hipBLAS's rocBLAS backend
(library/src/amd_detail/hipblas.cpp) maps them onto rocSOLVER.

:data:`FAMILIES` has one row per hipBLAS family: hip-python 6.2's parameters after ``handle``, the
rocSOLVER call hipBLAS makes (its routine and arguments, by hipBLAS parameter name: ``getrf`` passes
``n`` as both ``m`` and ``n``, the Batched forms ``n`` as the pivots' ``strideP``), the call it makes
instead when ``ipiv`` is NULL (getrf, getriBatched: the no-pivoting ``_npvt`` routines) and
hipBLAS's own argument checks.  Each row gives ``hipblas{S,D,C,Z}<family>`` and the ``_v2`` forms of
the complex ones (hip complex types, same layout): :func:`names`.  One factory, :func:`_bind`, makes
them all.

What hipBLAS adds to rocSOLVER, reproduced here:

- getrs, geqrf and gels (every flavour) take a *host* ``int* info``: NULL is
  ``HIPBLAS_STATUS_INVALID_VALUE`` before anything else, the handle included; otherwise hipBLAS checks
  the arguments in its order and writes ``-i`` (``i`` the failing argument's position after the
  handle) or 0 through it, then calls rocSOLVER *whatever it found*, so the status is rocSOLVER's:
  ``lda = 0`` with ``n = 0`` gives ``info = -5`` and ``HIPBLAS_STATUS_SUCCESS`` (rocSOLVER's own checks
  are ``lda < n``).  hipBLAS's checks are ``lda, ldb < max(1, n)`` for getrs, ``lda < max(1, m)`` for
  geqrf, ``lda < m``, ``ldb < max(m, n)`` and a NULL ``deviceInfo`` (with entries to solve) for gels,
  whose ``trans`` must be N or T (real) / N or C (complex).  gels's LAPACK info per problem goes to the
  device array ``deviceInfo``.
- getrf and getriBatched's ``info`` is rocSOLVER's device array; NULL ``ipiv`` selects the ``_npvt``
  routine (getriBatched's is ``getri_npvt_outofplace_batched``); in getrfBatched, getrsBatched and
  getriBatched ``ipiv`` is one device array, ``n`` apart per entry.
- geqrfBatched takes ``tau`` (hip-python's ``ipiv``) as a device array of pointers, one per entry:
  hipBLAS calls rocSOLVER's unpublished ``geqrf_ptr_batched``, which runs ``geqrf_batched`` into a
  scratch array (``min(m, n)`` apart per entry) and copies each entry's Householder scalars through its
  pointer.  Here: :func:`rocmath.solver.<p>geqrf_batched` into scratch device memory on the handle's
  stream, then :func:`rocmath.blas.<p>copy_batched` through the pointers.  Its checks are geqrf_batched's
  (sizes, then NULL ``A`` or ``tau`` with work to do, then the quick return); the scratch exists only
  past them.

Integers convert as hip-python's Cython does (``int``, the strides ``long``), before anything else;
``trans`` must be a :class:`hipblasOperation_t` (``TypeError`` otherwise); statuses follow hipBLAS's
rocBLAS conversion (:func:`rocmath.hip.hipblas.convert_status`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

from rocmath.blas import BlasHandle

from ._api import binding
from ._lib import c_integer, call_arguments, target_of
from ._types import ListOfInt, ListOfPointer, check_enum, pointer_value, resolve

__all__ = ["FAMILIES", "Family", "functions", "list_adapter", "names"]

#: A hipBLAS argument check: (the parameter it is about, whether it fails).  A failure writes ``-position``.
Check = tuple[str, Callable[[SimpleNamespace], bool]]

_OPS = ("HIPBLAS_OP_N", "HIPBLAS_OP_T", "HIPBLAS_OP_C")

#: getrs (every flavour): hipBLAS's checks, in its order (``trans`` always passes: hip-python admits only the enum).
GETRS: tuple[Check, ...] = (
    ("trans", lambda a: a.trans.name not in _OPS),
    ("n", lambda a: a.n < 0),
    ("nrhs", lambda a: a.nrhs < 0),
    ("A", lambda a: a.null.A and a.n != 0),
    ("lda", lambda a: a.lda < max(1, a.n)),
    ("ipiv", lambda a: a.null.ipiv and a.n != 0),
    ("B", lambda a: a.null.B and a.n * a.nrhs != 0),
    ("ldb", lambda a: a.ldb < max(1, a.n)),
    ("batchCount", lambda a: a.batchCount < 0),
)
#: geqrf (every flavour); ``ipiv`` is tau.
GEQRF: tuple[Check, ...] = (
    ("m", lambda a: a.m < 0),
    ("n", lambda a: a.n < 0),
    ("A", lambda a: a.null.A and a.m * a.n != 0),
    ("lda", lambda a: a.lda < max(1, a.m)),
    ("ipiv", lambda a: a.null.ipiv and a.m * a.n != 0),
    ("batchCount", lambda a: a.batchCount < 0),
)
#: gels (every flavour): real trans N or T, complex N or C.
GELS: tuple[Check, ...] = (
    ("trans", lambda a: a.trans.name not in (_OPS[::2] if a.complex else _OPS[:2])),
    ("m", lambda a: a.m < 0),
    ("n", lambda a: a.n < 0),
    ("nrhs", lambda a: a.nrhs < 0),
    ("A", lambda a: a.null.A and a.m * a.n != 0),
    ("lda", lambda a: a.lda < a.m),
    ("B", lambda a: a.null.B and (a.m * a.nrhs != 0 or a.n * a.nrhs != 0)),
    ("ldb", lambda a: a.ldb < a.m or a.ldb < a.n),
    ("deviceInfo", lambda a: a.null.deviceInfo and a.batchCount != 0),
    ("batchCount", lambda a: a.batchCount < 0),
)


@dataclass(frozen=True)
class Family:
    """One hipBLAS solver family.

    Attributes
    ----------
    params
        hip-python 6.2's parameters after ``handle``.
    call
        ``"<routine>: <arguments>"``: the rocmath.solver routine (without its precision letter) hipBLAS calls
        and its arguments after the handle, each a parameter of ``params`` (a parameter may recur).
    npvt
        The call when ``ipiv`` is NULL (none: ``ipiv`` is passed on as it is).
    checks
        hipBLAS's own checks, writing the host ``info`` (none: ``info`` is rocSOLVER's device array).
    """

    params: str
    call: str
    npvt: str = ""
    checks: tuple[Check, ...] = ()


#: Every hipBLAS solver family, as hipblas.cpp maps it onto rocSOLVER.
FAMILIES: dict[str, Family] = {
    "getrf": Family("n A lda ipiv info", "getrf: n n A lda ipiv info", "getrf_npvt: n n A lda info"),
    "getrfBatched": Family("n A lda ipiv info batchCount", "getrf_batched: n n A lda ipiv n info batchCount",
                           "getrf_npvt_batched: n n A lda info batchCount"),
    "getrfStridedBatched": Family("n A lda strideA ipiv strideP info batchCount",
                                  "getrf_strided_batched: n n A lda strideA ipiv strideP info batchCount",
                                  "getrf_npvt_strided_batched: n n A lda strideA info batchCount"),
    "getrs": Family("trans n nrhs A lda ipiv B ldb info", "getrs: trans n nrhs A lda ipiv B ldb", checks=GETRS),
    "getrsBatched": Family("trans n nrhs A lda ipiv B ldb info batchCount",
                           "getrs_batched: trans n nrhs A lda ipiv n B ldb batchCount", checks=GETRS),
    "getrsStridedBatched": Family(
        "trans n nrhs A lda strideA ipiv strideP B ldb strideB info batchCount",
        "getrs_strided_batched: trans n nrhs A lda strideA ipiv strideP B ldb strideB batchCount", checks=GETRS),
    "getriBatched": Family("n A lda ipiv C ldc info batchCount",
                           "getri_outofplace_batched: n A lda ipiv n C ldc info batchCount",
                           "getri_npvt_outofplace_batched: n A lda C ldc info batchCount"),
    "geqrf": Family("m n A lda ipiv info", "geqrf: m n A lda ipiv", checks=GEQRF),
    "geqrfBatched": Family("m n A lda ipiv info batchCount", "geqrf_ptr_batched: m n A lda ipiv batchCount",
                           checks=GEQRF),
    "geqrfStridedBatched": Family("m n A lda strideA ipiv strideP info batchCount",
                                  "geqrf_strided_batched: m n A lda strideA ipiv strideP batchCount", checks=GEQRF),
    "gels": Family("trans m n nrhs A lda B ldb info deviceInfo", "gels: trans m n nrhs A lda B ldb deviceInfo",
                   checks=GELS),
    "gelsBatched": Family("trans m n nrhs A lda B ldb info deviceInfo batchCount",
                          "gels_batched: trans m n nrhs A lda B ldb deviceInfo batchCount", checks=GELS),
    "gelsStridedBatched": Family(
        "trans m n nrhs A lda strideA B ldb strideB info deviceInfo batchCount",
        "gels_strided_batched: trans m n nrhs A lda strideA B ldb strideB deviceInfo batchCount", checks=GELS),
}

#: hip-python's C integer types of the integer parameters (``hipblasStride`` is ``long``: int64).
_INTS = {"n": "int", "m": "int", "nrhs": "int", "lda": "int", "ldb": "int", "ldc": "int", "batchCount": "int",
         "strideA": "int64_t", "strideP": "int64_t", "strideB": "int64_t"}
_DTYPES = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}


def list_adapter(family: str, letter: str, param: str) -> Any:
    """The ``hip._util.types`` adapter hip-python 6.2 converts a solver parameter with, if not ``Pointer``.

    ``info``, ``deviceInfo`` and the pivots ``ipiv`` (``int*``) take a :class:`~rocmath.hip._types.ListOfInt`,
    the real Batched families' ``A``/``B``/``C`` (``float* const A[]``) a
    :class:`~rocmath.hip._types.ListOfPointer`; geqrf's ``ipiv`` (tau) and the complex families' arrays
    (``hipblasComplex* const A[]``) stay ``Pointer``.

    Parameters
    ----------
    family
        The family (a key of :data:`FAMILIES`).
    letter
        The precision letter (``S``, ``D``, ``C``, ``Z``).
    param
        The hip-python parameter name.

    Returns
    -------
    type or None
        ``ListOfInt``, ``ListOfPointer`` or None (plain ``Pointer`` conversion).
    """
    if param in ("info", "deviceInfo") or (param == "ipiv" and not family.startswith("geqrf")):
        return ListOfInt
    batched = family.endswith("Batched") and not family.endswith("StridedBatched")
    if param in ("A", "B", "C") and batched and letter in "SD":
        return ListOfPointer
    return None


def names() -> dict[str, tuple[str, str]]:
    """Every hipBLAS solver function name -> (its family, its precision letter)."""
    out: dict[str, tuple[str, str]] = {}
    for family in FAMILIES:
        for p in "SDCZ":
            out[f"hipblas{p}{family}"] = (family, p)
        for p in "CZ":
            out[f"hipblas{p}{family}_v2"] = (family, p)
    return out


def _split(call: str) -> tuple[str, tuple[str, ...]]:
    routine, _, args = call.partition(":")
    return routine.strip(), tuple(args.split())


def _geqrf_ptr_batched(letter: str) -> Callable[..., None]:
    """rocSOLVER's ``geqrf_ptr_batched``: geqrf_batched into scratch, then each entry's tau through its pointer."""
    import rocmath
    import rocmath.blas as blas
    import rocmath.solver as solver
    from rocmath.errors import RocmathError

    factor, copy = getattr(solver, f"{letter}geqrf_batched"), getattr(blas, f"{letter}copy_batched")
    item = np.dtype(_DTYPES[letter.upper()]).itemsize

    def live(handle: Any) -> bool:
        try:
            return isinstance(handle, BlasHandle) and handle.check() is None
        except RocmathError:
            return False

    def run(handle: Any, m: int, n: int, A: Any, lda: int, tau: Any, batch_count: int) -> None:
        k = min(m, n)
        if not (live(handle) and m > 0 and n > 0 and lda >= m and batch_count > 0 and A and tau):
            # geqrf_batched's checks and quick returns are the routine's: nothing reaches tau.
            factor(handle, m, n, A, lda, tau, max(k, 0), batch_count)
            return
        stream = handle.stream
        table = -(-k * batch_count * item // 8) * 8
        scratch = rocmath.malloc_async(table + 8 * batch_count, stream)
        try:
            rocmath.memcpy_async(scratch + table, scratch + np.arange(batch_count, dtype=np.uint64) * (k * item),
                                 8 * batch_count, stream=stream)
            factor(handle, m, n, A, lda, scratch, k, batch_count)
            copy(handle, k, scratch + table, 1, tau, 1, batch_count)
        finally:
            rocmath.free_async(scratch, stream)

    return run


def _routine(letter: str, routine: str) -> Callable[..., None]:
    if routine == "geqrf_ptr_batched":
        return _geqrf_ptr_batched(letter)
    import rocmath.solver as solver

    return getattr(solver, f"{letter}{routine}")  # type: ignore[no-any-return]


def _bind(name: str, family: Family, letter: str) -> Callable[..., tuple[Any, ...]]:
    """The hip-python function ``name`` of ``family`` in precision ``letter``."""
    from . import hipblas as hb

    params = tuple(family.params.split())
    hip_names = ("handle", *params)
    routine, args = _split(family.call)
    npvt_routine, npvt_args = _split(family.npvt) if family.npvt else ("", ())
    complex_ = letter in "CZ"
    family_name = name.removeprefix(f"hipblas{letter}").removesuffix("_v2")
    lists = tuple((p, a) for p in params if (a := list_adapter(family_name, letter, p)) is not None)
    targets: dict[str, Callable[..., None]] = {}

    def target(routine: str) -> Callable[..., None]:
        if routine not in targets:  # rocmath.solver loads on the first call
            targets[routine] = _routine(letter.lower(), routine)
        return targets[routine]

    def impl(*a: Any, **kw: Any) -> None:
        given = call_arguments(name, hip_names, a, kw)
        # Cython converts the integers on entry, then hip-python checks the enum's type.
        values = {p: c_integer(v, p, _INTS[p]) if p in _INTS else v for p, v in given.items()}
        if "trans" in values:
            check_enum(values["trans"], hb.hipblasOperation_t, "trans")
        for p, adapter in lists:  # hip-python builds the C arrays of list arguments as it calls hipBLAS
            if isinstance(values[p], (list, tuple)):
                values[p] = adapter.fromObj(values[p])
        # NULL pointers (a ctypes scalar is host storage: c_int(0) is not NULL, c_void_p(0) is).
        null = SimpleNamespace(**{p: pointer_value(values[p]) == 0 for p in params if p not in _INTS and p != "trans"})
        if family.checks:
            if null.info:
                raise hb.HipblasStatusError(hb.hipblasStatus_t.HIPBLAS_STATUS_INVALID_VALUE, "null pointer",
                                            arg="info")
            ns = SimpleNamespace(**{"batchCount": 1, **values}, null=null, complex=complex_)
            code = next((-(params.index(p) + 1) for p, failed in family.checks if p in params and failed(ns)), 0)
            hb._write(values["info"], code, np.dtype(np.int32), "info")
        pivots = not (family.npvt and null.ipiv)
        call, call_args = (routine, args) if pivots else (npvt_routine, npvt_args)
        handle = values["handle"]
        handle = handle if isinstance(handle, BlasHandle) else target_of(handle, hb.hipblasHandle_t)

        def arg(p: str) -> Any:
            v = values[p]
            if p in _INTS or p == "trans":
                return int(v)
            return None if getattr(null, p) else resolve(v).address

        target(call)(handle, *(arg(p) for p in call_args))

    impl.__name__ = impl.__qualname__ = name
    lo = letter.lower()
    via = (f"rocmath.solver.{lo}geqrf_batched into scratch, tau copied by rocmath.blas.{lo}copy_batched"
           if routine == "geqrf_ptr_batched" else f"rocmath.solver.{lo}{routine}")
    via += f" (NULL ipiv: {lo}{npvt_routine})" if family.npvt else ""
    info = (" ``info`` is a host int: hipBLAS's argument check (0, or -i for the i-th argument after the "
            "handle)." if family.checks else "")
    impl.__doc__ = (f"{name}({', '.join(hip_names)}) -> (hipblasStatus_t,)\n\nhipBLAS over {via}.{info} "
                    "See rocmath.hip._hipblas_solver.")
    fn = binding(hb._HIPBLAS)(impl)
    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(h, inspect.Parameter.POSITIONAL_OR_KEYWORD) for h in hip_names])
    return fn


def functions() -> dict[str, Callable[..., tuple[Any, ...]]]:
    """Every hipBLAS solver function, by name (called by :mod:`rocmath.hip.hipblas` as it loads)."""
    return {name: _bind(name, FAMILIES[family], letter) for name, (family, letter) in names().items()}
