"""hipSOLVER's compatibility API -- the cuSOLVER-like ``hipsolverDn*`` names of hipsolver-dense.h
(formerly hipsolver-compat.h) and hipsolver-dense64.h -- derived from :mod:`rocmath.hip.hipsolver`.

On AMD nearly every ``hipsolverDn<name>`` calls the regular ``hipsolver<name>`` with the same arguments,
so each one here is its regular twin's binding behind a function of its own (its ``__name__``, hip-python
6.2's parameter names in ``__signature__``, positions or keywords).  The twins are whatever
``rocmath.hip.hipsolver`` exports when it imports this module (:func:`compat_api`, called at its end):
the handle and Jacobi-parameter functions, and every routine of its ``MANIFEST``, so a family added to
its ``FAMILIES`` table gets its Dn names with nothing to do here.  Where hipSOLVER's Dn function departs
from the regular one, :data:`DEPARTURES` says how (per ``FAMILIES`` key and size query or not):

- ``Dn<P>getrf`` has no ``lwork``: hipSOLVER asks ``<P>getrf_bufferSize`` and calls ``<P>getrf`` with
  ``work`` and that size (a failing query's status is the call's);
- ``Dn<P>getrs``, ``potrs``, ``potrsBatched``, ``potrfBatched`` have no ``work``/``lwork``: the regular
  routine runs with NULL and 0, on the handle's own workspace; none of the four has a Dn ``_bufferSize``;
- ``Dn<P>syevd``/``heevd`` (and their query) call the eigenvalues ``W`` (the regular API: ``D``);
- ``Dn<PP>gels_bufferSize``/``gesv_bufferSize`` take a ``work`` argument hipSOLVER does not use;
- ``Dn<P>gesvd_bufferSize(handle, m, n, lwork)`` has no ``jobu``/``jobv``: the size is the largest
  of the regular query's over the fifteen valid job pairs (all of ``N A S O`` but ``O``/``O``), the
  first failing query's status the call's.

Written out here, as hipsolver_dense64.cpp has them: ``hipsolverDnCreateParams`` /
``DestroyParams`` (a :class:`hipsolverDnParams_t`: the function and algorithm settings,
``HIPSOLVERDN_GETRF`` / ``HIPSOLVER_ALG_0``), ``hipsolverDnSetAdvOptions`` (NOT_SUPPORTED, always),
and the 64-bit generic LU: ``hipsolverDnXgetrf_bufferSize`` / ``hipsolverDnXgetrf`` /
``hipsolverDnXgetrs`` take ``int64_t`` sizes, ``hipDataType`` element types (``HIP_R_32F``,
``HIP_R_64F``, ``HIP_C_32F``, ``HIP_C_64F``; the data and compute types alike, else INVALID_ENUM) and
int64 pivots, over rocmath.solver's ILP64 ``getrf_64`` / ``getrf_npvt_64`` (a NULL ``devIpiv``) /
``getrs_64``.  Their ``params`` is only checked for NULL (hipSOLVER never reads it); the host workspace
is ignored (0 bytes asked).  ``devInfo`` stays an ``int`` as in hipSOLVER (which calls rocSOLVER's
internal ``getrf_info32``): rocmath's ``getrf_64`` writes an int64 info into 8 stream-ordered scratch
bytes (outside the ``lworkOnDevice`` workspace), whose low half is then copied to ``devInfo`` on the
handle's stream.

``hipsolverDn<P>gesvdaStridedBatched`` and its ``_bufferSize`` (no regular twin) are written out too, as
hipsolver.cpp has them on AMD: rocSOLVER's ``<p>gesvdx_notransv_strided_batched`` (rocmath.solver:
the partial SVD by index range returning V, n x rank, not V^H) with both sides ``singular`` for
``HIPSOLVER_EIG_MODE_VECTOR`` (``none`` otherwise), ``srange`` index, ``vl = vu = 0``, ``il = 1``, ``iu = rank``,
``strideF = min(m, n)`` and ``devInfo`` as its info.  The ``rank`` largest singular values land in S; a rank
outside ``1..min(m, n)`` (0 allowed when min(m, n) = 0), ``ldv < n`` with vectors and the other rocSOLVER checks
are INVALID_VALUE.  ``A`` is ``const`` in the prototype but rocSOLVER destroys it (hipSOLVER casts the
``const`` away), so it does here.  ``hRnrmF`` (cuSOLVER's residual norms, host doubles) is never written, as on
AMD.  The query answers rocSOLVER's workspace plus an int per entry (nsv) and ``min(m, n)`` per entry (ifail),
each rounded to 64 bytes as ``rocblas_set_optimal_device_memory_size`` rounds them (more than INT_MAX:
INTERNAL_ERROR; a failing rocSOLVER query's status is the answer's, ``lwork`` then 0).  A given ``work``/``lwork``
holds nsv and ifail at its front (unaligned, as hipSOLVER places them) and serves as the workspace after them
(what remains of ``lwork``: hipSOLVER passes all of it on, past the end of ``work``, which rocmath's bounds
checks refuse); without one, the query's size becomes the handle's workspace and nsv/ifail are stream-ordered
allocations.

Not bound (:data:`UNAVAILABLE`, ``hipsolver.DN_UNAVAILABLE``): the Dn names of :data:`PENDING`'s families, whose
regular twins are missing (none now: all 240 of hip-python 6.2's Dn names are bound); a family listed there is
bound as soon as ``rocmath.hip.hipsolver`` exports its twin.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType, SimpleNamespace
from typing import Any

import numpy as np

import rocmath
import rocmath.solver as _solver
from rocmath.solver import Srange, Svect

from . import hip as _hip
from ._api import binding, last_exception
from ._lib import INT_BOUNDS, Opaque, c_integer, call_arguments, find, out_parameters, write_host
from ._types import c_enum, check_enum, device_address, pointer_value
from .hipblas import hipblasOperation_t

__all__ = ["DEPARTURES", "PENDING", "Departure", "compat_api", "hipsolverAlgMode_t", "hipsolverDnFunction_t",
           "hipsolverDnParams_t", "DnParams"]

_MODULE = "rocmath.hip.hipsolver"  # where hip-python has them

# --- hipsolver-types.h's Dn enums ---------------------------------------------------------------------------

hipsolverAlgMode_t = c_enum("hipsolverAlgMode_t", [("HIPSOLVER_ALG_0", 231), ("HIPSOLVER_ALG_1", 232)], _MODULE,
                            "``hipsolverAlgMode_t``: the algorithm hipsolverDnSetAdvOptions would select.")
hipsolverDnFunction_t = c_enum("hipsolverDnFunction_t", [("HIPSOLVERDN_GETRF", 0)], _MODULE,
                               "``hipsolverDnFunction_t``: the routine hipsolverDnSetAdvOptions would configure.")


@dataclass
class DnParams:
    """hipSOLVER's ``hipsolverParams`` (what a ``hipsolverDnParams_t`` points to): the function and algorithm
    hipsolverDnSetAdvOptions would set (it never does on AMD)."""

    func: Any = hipsolverDnFunction_t.HIPSOLVERDN_GETRF
    alg: Any = hipsolverAlgMode_t.HIPSOLVER_ALG_0


class hipsolverDnParams_t(Opaque):
    """A ``hipsolverDnParams_t`` (its :attr:`target` a :class:`DnParams`)."""


# --- the departures ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Departure:
    """How a Dn function departs from its regular twin (the default: not at all).

    Attributes
    ----------
    absent
        The compatibility API has no such function (the regular API alone has it).
    rename
        Dn parameter -> the twin's name of it.
    fixed
        Twin parameters the Dn function lacks -> the value hipSOLVER passes.
    queried
        A twin parameter the Dn function lacks, set from the twin's size query (``lwork``).
    ignored
        Dn parameters the twin lacks (hipSOLVER does not use them) -> the twin parameter each comes before.
    build
        The Dn function written out, ``build(name, twin, regular) -> function`` (``regular``: the
        regular module), where the derivation does not fit.
    note
        What hipSOLVER does, for the docstring.
    """

    absent: bool = False
    rename: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    queried: str | None = None
    ignored: Mapping[str, str] = field(default_factory=dict)
    build: Callable[[str, Callable[..., tuple[Any, ...]], Any], Callable[..., tuple[Any, ...]]] | None = None
    note: str = ""


#: The 15 (jobu, jobv) pairs hipsolverDn<P>gesvd_bufferSize asks the regular query about, in hipSOLVER's order.
GESVD_JOBS = tuple((u, v) for u, v in itertools.product("NASO", repeat=2) if (u, v) != ("O", "O"))


def _status_error(regular: Any, status: Any, what: str) -> Exception:
    """A failed twin call's status as an exception (its own exception, if any, as the cause's message)."""
    cause = last_exception()
    return regular.HipsolverStatusError(status, f"{what}: {cause}" if cause is not None else what)


def _gesvd_query(name: str, twin: Callable[..., tuple[Any, ...]], regular: Any) -> Callable[..., tuple[Any, ...]]:
    """hipsolverDn<P>gesvd_bufferSize(handle, m, n, lwork): the largest of the twin's answers over
    :data:`GESVD_JOBS`."""

    def impl(handle: Any, m: Any, n: Any, lwork: Any) -> int:
        best = 0
        for jobu, jobv in GESVD_JOBS:
            status, size = twin(handle, ord(jobu), ord(jobv), m, n)
            if status != regular.hipsolverStatus_t.HIPSOLVER_STATUS_SUCCESS:
                raise _status_error(regular, status, f"{twin.__name__} (jobu {jobu}, jobv {jobv})")
            best = max(best, size)
        return best

    impl.__name__ = impl.__qualname__ = name
    impl.__doc__ = (f"{name}(handle, m, n, lwork) -> (hipsolverStatus_t,): the workspace bytes of "
                    f"{name.removesuffix('_bufferSize')} whatever its jobs: the largest of {twin.__name__}'s over "
                    "the 15 valid (jobu, jobv) pairs; written through ``lwork`` (int*) or returned.")
    return out_parameters(regular._HIPSOLVER, impl, {"lwork": np.dtype(np.int32)}, regular._error,
                                  integers={"m": "int", "n": "int"})


_NO_WORK = Departure(fixed=MappingProxyType({"work": None, "lwork": 0}),
                     note="no work/lwork: hipSOLVER passes NULL and 0, so the handle's own workspace serves")
_NO_QUERY = Departure(absent=True, note="the compatibility API has no size query for it")
_W = Departure(rename=MappingProxyType({"W": "D"}), note="the eigenvalues are ``W`` (the regular API's ``D``)")
_WORK_UNUSED = Departure(ignored=MappingProxyType({"work": "lwork"}), note="``work`` is accepted and not used")

#: (FAMILIES key, is the size query) -> how the Dn function departs from its twin; the others call it unchanged.
DEPARTURES: dict[tuple[str, bool], Departure] = {
    ("getrf", False): Departure(queried="lwork", note="no lwork: hipSOLVER asks the twin's size query and calls "
                                                      "the twin with ``work`` and that size"),
    ("getrs", True): _NO_QUERY, ("getrs", False): _NO_WORK,
    ("potrs", True): _NO_QUERY, ("potrs", False): _NO_WORK,
    ("potrsBatched", True): _NO_QUERY, ("potrsBatched", False): _NO_WORK,
    ("potrfBatched", True): _NO_QUERY, ("potrfBatched", False): _NO_WORK,
    ("syevd", True): _W, ("syevd", False): _W,
    ("gels", True): _WORK_UNUSED, ("gesv", True): _WORK_UNUSED,
    ("gesvd", True): Departure(build=_gesvd_query, note="no jobu/jobv"),
}

#: hipSOLVER's compatibility routines whose regular twins rocmath.hip.hipsolver may lack: FAMILIES-style key ->
#: (the operation per precision letter, whether a ``_bufferSize`` comes with it).  Their Dn names are in
#: :data:`UNAVAILABLE` until the regular ones exist.
PENDING: dict[str, tuple[dict[str, str], bool]] = {}  # none: every regular twin exists


def dn_name(regular_name: str) -> str:
    """``hipsolverSgetrf`` -> ``hipsolverDnSgetrf``."""
    return "hipsolverDn" + regular_name.removeprefix("hipsolver")


# --- deriving a Dn function from its twin ----------------------------------------------------------------------


def _arguments(name: str, names: tuple[str, ...], outs: tuple[str, ...], args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments by name: all of ``names`` (hip-python's call), or all but the out-parameters ``outs``
    (rocmath's call returning their values), by position or keyword."""
    full = len(args) + len(kwargs) >= len(names) or any(o in kwargs for o in outs)
    return call_arguments(name, names if full else tuple(n for n in names if n not in outs), args, kwargs)


def _renamed_type_error(exc: TypeError, twin: str, name: str) -> TypeError:
    message = str(exc)
    return TypeError(message.replace(f"{twin}()", f"{name}()")) if f"{twin}()" in message else exc


def _alias(name: str, twin: Callable[..., tuple[Any, ...]], regular: Any) -> Callable[..., tuple[Any, ...]]:
    """A Dn function with its twin's parameters: the twin under another name."""

    params = tuple(inspect.signature(twin).parameters)

    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        unknown = [k for k in kwargs if k not in params]
        if unknown or len(args) + len(kwargs) > len(params):
            raise TypeError(f"{name}() takes {len(params)} arguments ({len(args) + len(kwargs)} given"
                            + (f", unexpected {', '.join(unknown)})" if unknown else ")"))
        try:
            return twin(*args, **kwargs)
        except TypeError as exc:  # the twin's own argument errors name the Dn function
            raise _renamed_type_error(exc, twin.__name__, name) from None

    return _finish(call, name, twin, params, regular, "calls it unchanged")


def _derived(name: str, twin: Callable[..., tuple[Any, ...]], query: bool, dep: Departure,
             query_twin: Callable[..., tuple[Any, ...]] | None, regular: Any) -> Callable[..., tuple[Any, ...]]:
    """A Dn routine from its twin and its departure (parameters renamed, dropped, added)."""
    twin_params = tuple(inspect.signature(twin).parameters)
    dn_of = {t: d for d, t in dep.rename.items()}
    params: list[str] = []
    for p in twin_params:
        params += [extra for extra, before in dep.ignored.items() if before == p]
        if p not in dep.fixed and p != dep.queried:
            params.append(dn_of.get(p, p))
    names = tuple(params)
    outs = ("lwork",) if query else ()  # the regular size queries' one out-parameter
    asked = () if query_twin is None else tuple(p for p in inspect.signature(query_twin).parameters if p != "lwork")
    success = regular.hipsolverStatus_t.HIPSOLVER_STATUS_SUCCESS

    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        given = _arguments(name, names, outs, args, kwargs)
        forward = {dep.rename.get(k, k): v for k, v in given.items() if k not in dep.ignored}
        forward.update(dep.fixed)
        if dep.queried is not None:
            assert query_twin is not None
            status, size = query_twin(**{p: forward[p] for p in asked})
            if status != success:
                return (status,)
            forward[dep.queried] = size
        return twin(**forward)

    return _finish(call, name, twin, names, regular, dep.note or "calls it unchanged")


def _finish(fn: Callable[..., tuple[Any, ...]], name: str, twin: Callable[..., Any], params: tuple[str, ...],
            regular: Any, how: str) -> Callable[..., tuple[Any, ...]]:
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = _MODULE
    fn.__signature__ = regular._signature(params)  # type: ignore[attr-defined]
    fn.__doc__ = (f"{name}({', '.join(params)}) -> (hipsolverStatus_t, ...)\n\nhipSOLVER's compatibility name of "
                  f"{twin.__name__}: {how}.")
    return fn


# --- the functions written out (hipsolver_dense64.cpp) ---------------------------------------------------------

#: hipDataType name -> the precision letter of the routines it selects (data and compute type alike).
_LETTERS = {"HIP_R_32F": "S", "HIP_R_64F": "D", "HIP_C_32F": "C", "HIP_C_64F": "Z"}


def _written_out(regular: Any) -> dict[str, Callable[..., tuple[Any, ...]]]:
    """DnCreateParams, DnDestroyParams, DnSetAdvOptions, DnXgetrf_bufferSize, DnXgetrf, DnXgetrs."""
    hs, S = regular, regular.hipsolverStatus_t
    table, Error = hs._HIPSOLVER, hs.HipsolverStatusError

    def create_params(params: Any) -> Opaque:
        return hipsolverDnParams_t.new(DnParams())

    def destroy_params(params: Any) -> None:
        found = find(params, hipsolverDnParams_t)
        if found is None:  # NULL (hipSOLVER's check) or not a live object (C would delete garbage)
            what = "null" if pointer_value(params) == 0 else "not a live hipsolverDnParams_t"
            raise Error(S.HIPSOLVER_STATUS_INVALID_VALUE, what, arg="params")
        found.release()

    def set_adv_options(params: Any, func: Any, alg: Any) -> None:
        raise Error(S.HIPSOLVER_STATUS_NOT_SUPPORTED, "hipSOLVER has no advanced options on AMD")

    def handle_and_params(given: dict[str, Any]) -> None:
        if pointer_value(given["handle"]) == 0:
            raise Error(S.HIPSOLVER_STATUS_NOT_INITIALIZED, "null handle", arg="handle")
        if pointer_value(given["params"]) == 0:
            raise Error(S.HIPSOLVER_STATUS_INVALID_VALUE, "null params", arg="params")

    def letter(*types: Any) -> str:
        names = {t.name for t in types}
        if len(names) != 1 or next(iter(names)) not in _LETTERS:
            raise Error(S.HIPSOLVER_STATUS_INVALID_ENUM, f"data types {', '.join(sorted(names))}: none or not one of "
                        "HIP_R_32F, HIP_R_64F, HIP_C_32F, HIP_C_64F", arg="dataTypeA")
        return _LETTERS[next(iter(names))]

    def size(h: Any, p: str, calls: list[tuple[str, tuple[Any, ...]]]) -> int:
        """The rocSOLVER ILP64 calls' workspace (hipsolver's ``_query``: the first call's failure is raised)."""
        family = hs.Family(ops={}, params="", query="", sizes=lambda a: calls, run=lambda a: [], wide=True)
        return hs._query(h, p, family, SimpleNamespace())

    def getrf_sizes(g: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        return [("getrf_64", (g["m"], g["n"], None, g["lda"], None, None)),
                ("getrf_npvt_64", (g["m"], g["n"], None, g["lda"], None))]

    def xgetrf_buffer_size(given: dict[str, Any], write: bool) -> tuple[int, int]:
        handle_and_params(given)
        if write:
            for out in ("lworkOnDevice", "lworkOnHost"):  # both checked, then both zeroed, before anything else
                if pointer_value(given[out]) == 0:
                    raise Error(S.HIPSOLVER_STATUS_INVALID_VALUE, "null pointer", arg=out)
            for out in ("lworkOnDevice", "lworkOnHost"):
                write_host(given[out], 0, np.uint64, out, hs._error)
        p = letter(given["dataTypeA"], given["computeType"])
        device = size(hs._handle(given["handle"]), p, getrf_sizes(given))
        if write:
            write_host(given["lworkOnDevice"], device, np.uint64, "lworkOnDevice", hs._error)
        return device, 0

    def xgetrf(given: dict[str, Any]) -> None:
        handle_and_params(given)
        work, lwork = device_address(given["workOnDevice"]), given["lworkOnDevice"]
        user = bool(work and lwork)
        if user:  # rocblas_set_workspace (the handle's check) comes first, then the types
            h = hs._handle(given["handle"])
            h.set_workspace(work, lwork)
        info64 = 0
        try:
            p = letter(given["dataTypeA"], given["computeType"])
            if not user:  # the size query: the types, then the handle
                h = hs._handle(given["handle"])
                hs._manage_workspace(h, size(h, p, getrf_sizes(given)))
            ipiv, info = device_address(given["devIpiv"]), device_address(given["devInfo"])
            A, m, n, lda = device_address(given["A"]), given["m"], given["n"], given["lda"]
            info64 = rocmath.malloc_async(8, h.stream) if info else 0
            if ipiv:
                hs._routine(p, "getrf_64")(h, m, n, A, lda, ipiv, info64 or None)
            else:
                hs._routine(p, "getrf_npvt_64")(h, m, n, A, lda, info64 or None)
            if info:  # getrf_info32's int info: the int64 one's low half (little-endian; 0 <= info <= min(m, n))
                rocmath.memcpy_async(info, info64, 4, stream=h.stream)
        finally:
            if info64:
                rocmath.free_async(info64, h.stream)
            if user:  # the given workspace serves this call only, as in the regular binding
                h.set_workspace(0, 0)

    def xgetrs(given: dict[str, Any]) -> None:
        handle_and_params(given)
        p = letter(given["dataTypeA"], given["dataTypeB"])
        h = hs._handle(given["handle"])
        trans, n, nrhs, lda, ldb = (int(given["trans"]), given["n"], given["nrhs"], given["lda"], given["ldb"])
        hs._manage_workspace(h, size(h, p, [("getrs_64", (trans, n, nrhs, None, lda, None, None, ldb))]))
        hs._zero_info(h, device_address(given["devInfo"]), 1)
        hs._routine(p, "getrs_64")(h, trans, n, nrhs, device_address(given["A"]), lda,
                                   device_address(given["devIpiv"]), device_address(given["B"]), ldb)

    made: dict[str, Callable[..., tuple[Any, ...]]] = {}
    for name, fn, doc, out in (
        ("hipsolverDnCreateParams", create_params, "a new parameters object (HIPSOLVERDN_GETRF, HIPSOLVER_ALG_0), "
         "written through ``params`` or returned", "params"),
        ("hipsolverDnDestroyParams", destroy_params, "free the parameters object (NULL: INVALID_VALUE)", None),
        ("hipsolverDnSetAdvOptions", set_adv_options, "NOT_SUPPORTED, as hipSOLVER on AMD", None),
    ):
        params = tuple(inspect.signature(fn).parameters)
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"{name}({', '.join(params)}) -> (hipsolverStatus_t,): {doc}."
        if out is None:
            made[name] = binding(table)(fn)
        else:
            made[name] = out_parameters(table, fn, {out: np.dtype(np.uint64)}, hs._error)
    adv = made["hipsolverDnSetAdvOptions"]

    def set_adv(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        given = call_arguments("hipsolverDnSetAdvOptions", ("params", "func", "alg"), args, kwargs)
        check_enum(given["func"], hipsolverDnFunction_t, "func")
        check_enum(given["alg"], hipsolverAlgMode_t, "alg")
        return adv(**given)

    made["hipsolverDnSetAdvOptions"] = _copy_meta(set_adv, adv)

    int64 = dict.fromkeys(("m", "n", "nrhs", "lda", "ldb"), "int64_t")
    specs: tuple[tuple[str, str, dict[str, str], tuple[str, ...], tuple[str, ...], Any, str], ...] = (
        ("hipsolverDnXgetrf_bufferSize",
         "handle params m n dataTypeA A lda computeType lworkOnDevice lworkOnHost", int64,
         ("dataTypeA", "computeType"), ("lworkOnDevice", "lworkOnHost"), xgetrf_buffer_size,
         "the device workspace bytes of hipsolverDnXgetrf (rocmath.solver's getrf_64 and getrf_npvt_64 queries) "
         "and 0 host bytes, written through ``lworkOnDevice``/``lworkOnHost`` (size_t*) or returned"),
        ("hipsolverDnXgetrf",
         "handle params m n dataTypeA A lda devIpiv computeType workOnDevice lworkOnDevice workOnHost lworkOnHost "
         "devInfo", {**int64, "lworkOnDevice": "size_t", "lworkOnHost": "size_t"}, ("dataTypeA", "computeType"), (),
         xgetrf, "P A = L U in the precision of ``dataTypeA`` (= ``computeType``) over rocmath.solver's getrf_64 "
         "(int64 ``devIpiv``; NULL: getrf_npvt_64), ``workOnDevice``/``lworkOnDevice`` the workspace (else the "
         "handle's own), info in ``devInfo`` (int)"),
        ("hipsolverDnXgetrs",
         "handle params trans n nrhs dataTypeA A lda devIpiv dataTypeB B ldb devInfo", int64,
         ("trans", "dataTypeA", "dataTypeB"), (), xgetrs,
         "solve op(A) X = B with hipsolverDnXgetrf's factors (int64 ``devIpiv``) over rocmath.solver's getrs_64, "
         "on the handle's workspace; ``devInfo`` zeroed"),
    )
    for name, params, ints, enums, outs, impl, doc in (*specs, *_gesvda_specs(regular)):
        made[name] = _generic(name, tuple(params.split()), ints, enums, outs, impl, doc, table, regular)
    return made


# --- gesvdaStridedBatched (hipsolver.cpp, amd_detail) --------------------------------------------------------------

_GESVDA_QUERY = "handle jobz rank m n A lda strideA S strideS U ldu strideU V ldv strideV lwork batch_count"
_GESVDA = ("handle jobz rank m n A lda strideA S strideS U ldu strideU V ldv strideV work lwork devInfo hRnrmF "
           "batch_count")
#: Its integers' C types (hip-python 6.2: ``int``, the strides ``long long``).
_GESVDA_INTS = {**dict.fromkeys(("rank", "m", "n", "lda", "ldu", "ldv", "lwork", "batch_count"), "int"),
                **dict.fromkeys(("strideA", "strideS", "strideU", "strideV"), "long long")}
_ALIGN = 64  # rocBLAS's device memory chunk: rocblas_set_optimal_device_memory_size rounds each size to it


def _rounded(nbytes: int) -> int:
    return -(-nbytes // _ALIGN) * _ALIGN


def _gesvda_specs(regular: Any) -> list[tuple[str, str, dict[str, str], tuple[str, ...], tuple[str, ...], Any, str]]:
    """hipsolverDn<P>gesvdaStridedBatched_bufferSize and hipsolverDn<P>gesvdaStridedBatched, P in S D C Z."""
    hs, S = regular, regular.hipsolverStatus_t
    Error = hs.HipsolverStatusError
    vector = regular.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR

    def routine(p: str) -> Callable[..., Any]:
        return getattr(_solver, f"{p.lower()}gesvdx_notransv_strided_batched")  # type: ignore[no-any-return]

    def svect(g: dict[str, Any]) -> Svect:
        """hip2rocblas_evect2svect(jobz, 1): the economy vectors (singular) or none."""
        return Svect.singular if int(g["jobz"]) == int(vector) else Svect.none

    def rocsolver_args(g: dict[str, Any], nsv: int, ifail: int, strideF: int) -> tuple[Any, ...]:
        """gesvdx_notransv_strided_batched's arguments after the handle: both sides alike, srange index, vl = vu = 0,
        il = 1, iu = rank (NULL pointers as None)."""
        job = svect(g)
        ptr = {k: device_address(g[k]) or None for k in ("A", "S", "U", "V", "devInfo") if k in g}
        return (job, job, Srange.index, g["m"], g["n"], ptr.get("A"), g["lda"], g["strideA"], 0, 0, 1, g["rank"],
                nsv or None, ptr.get("S"), g["strideS"], ptr.get("U"), g["ldu"], g["strideU"], ptr.get("V"), g["ldv"],
                g["strideV"], ifail or None, strideF, ptr.get("devInfo"), g["batch_count"])

    def size(h: Any, p: str, g: dict[str, Any]) -> int:
        """The bytes hipSOLVER's query answers: rocSOLVER's size query (its pointers NULL, strideF n), then that size,
        nsv's and ifail's, each rounded, summed; a failing rocSOLVER query's status is the answer."""
        m, n, batch = g["m"], g["n"], g["batch_count"]
        h.start_device_memory_size_query()
        try:
            routine(p)(h, *rocsolver_args({**g, "A": None, "S": None, "U": None, "V": None}, 0, 0, n))
        finally:
            need = h.stop_device_memory_size_query()
        need = sum(_rounded(x) for x in (need, 4 * batch, 4 * min(m, n) * batch))
        if need > INT_BOUNDS["int"][1]:
            raise Error(S.HIPSOLVER_STATUS_INTERNAL_ERROR, f"workspace of {need} bytes exceeds int")
        return need

    def buffer_size(p: str, given: dict[str, Any], write: bool) -> int:
        if pointer_value(given["handle"]) == 0:
            raise Error(S.HIPSOLVER_STATUS_NOT_INITIALIZED, "null handle", arg="handle")
        if write:  # checked, then zeroed, before anything else: a failing query leaves 0 there
            if pointer_value(given["lwork"]) == 0:
                raise Error(S.HIPSOLVER_STATUS_INVALID_VALUE, "null pointer", arg="lwork")
            write_host(given["lwork"], 0, np.int32, "lwork", hs._error)
        need = size(hs._handle(given["handle"]), p, given)
        if write:
            write_host(given["lwork"], need, np.int32, "lwork", hs._error)
        return need

    def compute(p: str, given: dict[str, Any]) -> None:
        h = hs._handle(given["handle"])  # NULL: NOT_INITIALIZED; not a handle: rocBLAS's invalid_handle (the same)
        m, n, batch = given["m"], given["n"], given["batch_count"]
        k = min(m, n)
        work, lwork = device_address(given["work"]), given["lwork"]
        user, owned = bool(work and lwork), 0
        if user:  # nsv, then ifail, at the front of work (each only when it holds something); the rest is workspace
            nsv = work
            ifail = nsv + (4 * batch if batch > 0 else 0)
            rest = ifail + (4 * k * batch if k * batch > 0 else 0)
            h.set_workspace(rest, max(lwork - (rest - work), 0))
        else:
            hs._manage_workspace(h, size(h, p, given))
            nbytes = _rounded(4 * batch)
            total = nbytes + _rounded(4 * k * batch)
            owned = rocmath.malloc_async(total, h.stream) if total else 0
            nsv, ifail = owned, owned + nbytes if owned else 0
        try:
            routine(p)(h, *rocsolver_args(given, nsv, ifail, k))
        finally:
            if owned:
                rocmath.free_async(owned, h.stream)
            if user:  # the given work serves this call only (see the regular API)
                h.set_workspace(0, 0)

    specs = []
    for p in "SDCZ":
        name = f"hipsolverDn{p}gesvdaStridedBatched"
        query_ints = {k: v for k, v in _GESVDA_INTS.items() if k != "lwork"}
        specs += [
            (f"{name}_bufferSize", _GESVDA_QUERY, query_ints, ("jobz",), ("lwork",), partial(buffer_size, p),
             f"the workspace bytes of {name} (rocSOLVER's {p.lower()}gesvdx_notransv_strided_batched query, plus nsv "
             "and ifail), written through ``lwork`` (int*) or returned"),
            (name, _GESVDA, _GESVDA_INTS, ("jobz",), (), partial(compute, p),
             f"the ``rank`` largest singular values of each m x n entry of A (destroyed) in S, descending, and with "
             f"HIPSOLVER_EIG_MODE_VECTOR their left vectors in U (m x rank) and right vectors in V (n x rank, not "
             f"transposed), over rocmath.solver's {p.lower()}gesvdx_notransv_strided_batched; ``work``/``lwork`` "
             "(bytes) or the handle's workspace; info per entry in ``devInfo``; ``hRnrmF`` not written"),
        ]
    return specs


def _copy_meta(fn: Callable[..., tuple[Any, ...]], like: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
    fn.__name__ = fn.__qualname__ = like.__name__
    fn.__doc__ = like.__doc__
    fn.__module__ = _MODULE
    fn.__signature__ = inspect.signature(like)  # type: ignore[attr-defined]
    return fn


def _generic(name: str, names: tuple[str, ...], ints: dict[str, str], enums: tuple[str, ...], outs: tuple[str, ...],
             impl: Callable[..., Any], doc: str, table: Any, regular: Any) -> Callable[..., tuple[Any, ...]]:
    """A written-out function as hip-python calls it: integers converted and enums checked on entry (Cython's
    ``long``/``unsigned long``; ``isinstance`` checks, in parameter order), then the status of ``impl(given)``
    -- or, with out-parameters, of ``impl(given, write)`` (``write``: hip-python's call, ``impl`` writes
    them; else rocmath's call without them, their values returned)."""
    enum_types = {"trans": hipblasOperation_t, "dataTypeA": _hip.hipDataType, "dataTypeB": _hip.hipDataType,
                  "computeType": _hip.hipDataType, "jobz": regular.hipsolverEigMode_t}

    def written(given: dict[str, Any]) -> None:
        impl(given, True)

    def returned(given: dict[str, Any]) -> Any:
        return impl(given, False)

    def plain(given: dict[str, Any]) -> None:
        impl(given)

    for f in (written, returned, plain):
        f.__name__ = f.__qualname__ = name
    bound_written, bound_returned, bound_plain = (binding(table)(written), binding(table, len(outs))(returned),
                                                  binding(table)(plain))

    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        given = _arguments(name, names, outs, args, kwargs)
        for n in names:
            if n in ints and n in given:
                given[n] = c_integer(given[n], n, ints[n])
        for n in enums:
            check_enum(given[n], enum_types[n], n)
        if not outs:
            return bound_plain(given)
        return bound_written(given) if all(o in given for o in outs) else bound_returned(given)

    call.__name__ = call.__qualname__ = name
    call.__module__ = _MODULE
    call.__signature__ = regular._signature(names)  # type: ignore[attr-defined]
    call.__doc__ = f"{name}({', '.join(names)}) -> (hipsolverStatus_t, ...): {doc}."
    return call


# --- the API ---------------------------------------------------------------------------------------------------


def compat_api() -> dict[str, Any]:
    """The compatibility API over what :mod:`rocmath.hip.hipsolver` exports now (it calls this at its end):
    every Dn function, the Dn enums, :data:`DN_MANIFEST` (Dn name -> its regular twin's name, None for the
    functions written out) and :data:`DN_UNAVAILABLE` (the Dn names not bound), for its namespace and
    ``__all__``."""
    from . import hipsolver as regular  # at its end: everything but this API is defined

    key_of = {id(family): key for key, family in regular.FAMILIES.items()}
    made: dict[str, Callable[..., tuple[Any, ...]]] = {}
    manifest: dict[str, str | None] = {}
    for name in regular.__all__:
        twin = getattr(regular, name)
        if not name.startswith("hipsolver") or isinstance(twin, type) or not callable(twin):
            continue
        dn = dn_name(name)
        if name not in regular.MANIFEST:  # handles, streams, Jacobi parameters: the same function
            made[dn] = _alias(dn, twin, regular)
        else:
            _letter, family, query = regular.MANIFEST[name]
            dep = DEPARTURES.get((key_of[id(family)], query), Departure())
            if dep.absent:
                continue
            if dep.build is not None:
                made[dn] = dep.build(dn, twin, regular)
            else:
                query_twin = getattr(regular, f"{name}_bufferSize") if dep.queried else None
                made[dn] = _derived(dn, twin, query, dep, query_twin, regular)
        manifest[dn] = name
    written = _written_out(regular)
    made.update(written)
    manifest.update(dict.fromkeys(written))
    unavailable = set()
    for ops, has_query in PENDING.values():
        for p, op in ops.items():
            base = f"hipsolverDn{p}{op}"
            unavailable |= {base, f"{base}_bufferSize"} if has_query else {base}
    for key, family in regular.FAMILIES.items():  # families whose rocSOLVER routines rocmath lacks
        for p, op in family.ops.items():
            base = f"hipsolver{p * (2 if family.twice else 1)}{op}"
            if base in regular.UNAVAILABLE:
                unavailable.add(dn_name(base))
                if not DEPARTURES.get((key, True), Departure()).absent:
                    unavailable.add(dn_name(f"{base}_bufferSize"))
    global DN_MANIFEST, UNAVAILABLE
    DN_MANIFEST = dict(sorted(manifest.items()))
    UNAVAILABLE = sorted(unavailable - set(made))
    return {**made, "hipsolverAlgMode_t": hipsolverAlgMode_t, "hipsolverDnFunction_t": hipsolverDnFunction_t,
            "hipsolverDnParams_t": hipsolverDnParams_t, "DN_MANIFEST": DN_MANIFEST, "DN_UNAVAILABLE": UNAVAILABLE}


#: Dn name -> its regular twin's name (None: written out here); filled by :func:`compat_api`.
DN_MANIFEST: dict[str, str | None] = {}
#: The compatibility API's names not bound (their regular twins or rocSOLVER routines are missing); filled by
#: :func:`compat_api`, exported as ``hipsolver.DN_UNAVAILABLE``.
UNAVAILABLE: list[str] = []
