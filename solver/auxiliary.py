"""rocSOLVER's functions beside the routines: the library version, the multi-level logging session and the
refactorization info object (rocsolver-functions.h: "Build information", "Multi-level logging",
"Refactorization functions").

None takes a precision prefix.  As everywhere in rocmath, a status other than success is raised as the
``rocmath.errors.Rocblas*Error`` standing for it, and what C returns through a pointer is returned.

**Version** (library/src/common/buildinfo.cpp): ``MAJOR.MINOR.PATCH.TWEAK``; here the release of the
rocSOLVER sources followed (:data:`VERSION`) with this rocmath build as the tweak.

**Logging** (library/src/common/rocsolver_logger.cpp).  rocSOLVER logs between :func:`log_begin` and
:func:`log_end` only; every other ``log_*`` function without a begun session, and a second
:func:`log_begin`, is internal_error.  :func:`log_begin` reads the environment once: ``ROCSOLVER_LAYER``
(``rocblas_layer_mode`` bits: 1 trace, 2 bench, 4 profile; default none) and ``ROCSOLVER_LEVELS`` (the max
levels, >= 1; default 1), parsed as C's ``strtol`` with base 0 (a negative layer, one above ``UINT32_MAX``
or levels outside ``1..INT_MAX`` are internal_error, the session being begun all the same, without
logging); the log files: ``ROCSOLVER_LOG_TRACE_PATH``, ``ROCSOLVER_LOG_BENCH_PATH``,
``ROCSOLVER_LOG_PROFILE_PATH``, each else ``ROCSOLVER_LOG_PATH``, else stderr.  Each file is started anew
with rocSOLVER's header (``ROCSOLVER LOG FILE``, the rocSOLVER and rocBLAS version lines).  The session's
layers and max levels then change only through :func:`log_set_layer_mode`, :func:`log_set_max_levels`
(< 1: invalid_value) and :func:`log_restore_defaults` (no layer, one level); its files stay.

The session drives the machinery every rocmath.solver routine already logs through (``solver/_api.py``):
the trace line of each call (nested entries, a routine called from inside another on the same handle,
indented 4 spaces a level and written only down to the max levels), the bench line of the outermost
call, and the profile table (calls and device time per problem, nested entries down to the max levels).
The profile is written, under a ``------- PROFILE -------`` line, by :func:`log_end`,
:func:`log_write_profile` and :func:`log_flush_profile` (which then empties it), each only if the layers
include profile and the table is not empty (so a flush without the profile layer keeps it).
:func:`log_end` is internal_error while a logged routine has not returned.

Without a session, rocmath keeps what rocmath.solver always did (rocSOLVER itself logs nothing then):
each call follows ``ROCSOLVER_LAYER`` and the paths of its moment, and the profile is written at exit.

**Refactorization info** (library/src/refact/rocsolver_rfinfo.cpp): :func:`create_rfinfo` (null handle:
invalid_handle) holds a rocSPARSE handle on the rocBLAS handle's stream, the descriptors of L (lower, unit
diagonal), U (upper, non-unit) and T (general), all zero-based, their ``mat_info`` and the mode
(:attr:`RfinfoMode.lu`); :func:`set_rfinfo_mode` takes lu or cholesky (else invalid_value) and gives L a
non-unit diagonal for Cholesky; a null (or destroyed) rfinfo is invalid_pointer throughout.
"""

from __future__ import annotations

import contextlib
import operator
import os
import re
from typing import Any

import rocmath
from rocmath.blas._handle import check_handle
from rocmath.blas._handle import get_version_string as _rocblas_version
from rocmath.errors import (
    RocblasInternalError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
)
from rocmath.handle import LayerMode
from rocmath.log import Logger

from . import _api
from ._types import RfinfoMode

__all__ = [
    "Rfinfo", "create_rfinfo", "destroy_rfinfo", "get_rfinfo_mode", "get_version_string", "get_version_string_size",
    "log_begin", "log_end", "log_flush_profile", "log_restore_defaults", "log_set_layer_mode",
    "log_set_max_levels", "log_write_profile", "set_rfinfo_mode",
]

#: The rocSOLVER release whose sources these functions follow (CMakeLists.txt ``VERSION_STRING``).
VERSION = "3.28.0"

_UINT32_MAX = 2**32 - 1
_INT_MAX = 2**31 - 1


# --- version -------------------------------------------------------------------------------------------------


class _Omitted:
    def __repr__(self) -> str:
        return "<omitted>"


_OMITTED: Any = _Omitted()


def _version() -> str:
    return f"{VERSION}.rocmath-{rocmath.__version__}"


def get_version_string(buf: Any = _OMITTED, len: int | None = None) -> str:
    """rocsolver_get_version_string(buf, len)

    rocSOLVER's version, ``MAJOR.MINOR.PATCH.TWEAK`` (``3.28.0.rocmath-<version>``), returned as
    :func:`rocmath.blas.get_version_string` returns rocBLAS's.  Given C's arguments: ``buf`` a writable
    bytes-like object (bytearray, numpy uint8 array...) receives the bytes and the terminating NUL; None (or
    0) is invalid_pointer; ``len`` (default: the buffer's size) below :func:`get_version_string_size` is
    invalid_size, as is a ``len`` beyond the buffer.  ``len`` alone checks the size only.
    """
    text = _version()
    data = text.encode() + b"\0"
    need = get_version_string_size()  # (``len`` is C's parameter name here)
    if buf is _OMITTED:
        if len is not None and operator.index(len) < need:
            raise RocblasInvalidSizeError(f"{len} bytes cannot hold the version string ({need})", arg="len", index=2)
        return text
    if buf is None or (isinstance(buf, int) and buf == 0):
        raise RocblasInvalidPointerError("null buffer", arg="buf", index=1)
    view = memoryview(buf).cast("B")
    if view.readonly:
        raise TypeError("buf must be writable")
    size = view.nbytes if len is None else operator.index(len)
    if size < need:
        raise RocblasInvalidSizeError(f"{size} bytes cannot hold the version string ({need})", arg="len", index=2)
    if size > view.nbytes:
        raise RocblasInvalidSizeError(f"{size} exceeds the buffer's {view.nbytes} bytes", arg="len", index=2)
    view[:need] = data
    return text


def get_version_string_size() -> int:
    """rocsolver_get_version_string_size(len)

    The buffer size :func:`get_version_string` needs in C: the string's bytes and the terminating NUL.
    """
    return len(_version().encode()) + 1


# --- multi-level logging -------------------------------------------------------------------------------------

_STRTOL = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?")


def _strtol(text: str) -> int:
    """C's ``strtol(text, 0, 0)``: leading blanks, a sign, a 0x (hex) or 0 (octal) prefix, the longest run of
    digits (what follows is ignored; no digits: 0)."""
    m = _STRTOL.match(text)
    digits = m[2] if m else None
    if not digits:
        return 0
    value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if digits[0] == "0" else int(digits)
    return -value if m[1] == "-" else value  # type: ignore[index]


def _no_session(function: str) -> RocblasInternalError:
    return RocblasInternalError(f"{function}: no logging session (call log_begin first)")


def _begun(function: str) -> _api.LogSession:
    session = _api.current_session()
    if session is None:
        raise _no_session(function)
    return session


def _header() -> str:
    return f"ROCSOLVER LOG FILE\nrocSOLVER Version: {_version()}\nrocBLAS Version: {_rocblas_version()}\n"


def log_begin() -> None:
    """rocsolver_log_begin()

    Begin the logging session: layers from ``ROCSOLVER_LAYER`` (default none), max levels from
    ``ROCSOLVER_LEVELS`` (default 1), files from ``ROCSOLVER_LOG_{TRACE,BENCH,PROFILE}_PATH`` or
    ``ROCSOLVER_LOG_PATH`` (default stderr), each file started anew with rocSOLVER's header.  A session
    already begun, an invalid variable or a file that cannot be opened is internal_error (in the last two
    cases the session is begun, without logging: :func:`log_end` ends it).
    """
    with _api.session_lock:
        if _api.current_session() is not None:
            raise RocblasInternalError("log_begin: a logging session is already begun")
        session = _api.LogSession(Logger("rocsolver"))
        _api.set_session(session)  # begun from here on, whatever fails below (as rocsolver_log_begin_impl)
        layer, levels = os.environ.get("ROCSOLVER_LAYER"), os.environ.get("ROCSOLVER_LEVELS")
        value = 0 if layer is None else _strtol(layer)
        if not 0 <= value <= _UINT32_MAX:
            raise RocblasInternalError(f"log_begin: ROCSOLVER_LAYER={layer!r} is not a layer mode")
        count = 1 if levels is None else _strtol(levels)
        if not 1 <= count <= _INT_MAX:
            raise RocblasInternalError(f"log_begin: ROCSOLVER_LEVELS={levels!r} is not a level count >= 1")
        paths = _api.log_paths()
        for path in dict.fromkeys(p for p in paths.values() if p):  # each file once
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(_header())
            except OSError as exc:
                raise RocblasInternalError(f"log_begin: cannot open the log file {path!r}: {exc}") from None
        session.logger.paths = paths
        session.layer, session.max_levels = LayerMode(value & 7), count


def _write_profile(session: _api.LogSession, clear: bool) -> None:
    """The profile block, if the profile layer is on and the table not empty (then emptied if ``clear``)."""
    if not session.layer & LayerMode.log_profile:
        return
    with contextlib.suppress(Exception):  # device time is added as work runs; pending errors are the next sync's
        rocmath.device_synchronize()
    if not session.profile.lines():
        return
    logger = session.logger
    logger.write("profile", "------- PROFILE -------")
    if clear:
        session.profile.flush(logger)
    else:
        for line in session.profile.lines():
            logger.write("profile", line)
    logger.write("profile", "")


def log_end() -> None:
    """rocsolver_log_end()

    End the session, first writing its profile (if the layers include profile and it is not empty).
    Without a session, or while a logged routine has not returned, internal_error.
    """
    with _api.session_lock:
        session = _begun("log_end")
        if _api.entries_in_progress():
            raise RocblasInternalError("log_end: a logged routine has not returned yet")
        _write_profile(session, clear=False)
        _api.set_session(None)


def log_set_layer_mode(layer_mode: Any) -> None:
    """rocsolver_log_set_layer_mode(layer_mode)

    The session's layers (``rocblas_layer_mode_flags``: 1 trace, 2 bench, 4 profile; other bits are kept by
    C and mean nothing here).  The log files stay those of :func:`log_begin`.
    """
    with _api.session_lock:
        session = _begun("log_set_layer_mode")
        value = operator.index(layer_mode)
        if not 0 <= value <= _UINT32_MAX:
            raise RocblasInvalidValueError(f"{value} is not a rocblas_layer_mode_flags value (uint32)",
                                           arg="layer_mode", index=1)
        session.layer = LayerMode(value & 7)


def log_set_max_levels(max_levels: Any) -> None:
    """rocsolver_log_set_max_levels(max_levels)

    The deepest nested entry traced and profiled (the outermost routine is level 1): >= 1, else
    invalid_value (checked after the session: without one, internal_error).
    """
    with _api.session_lock:
        session = _begun("log_set_max_levels")
        value = operator.index(max_levels)
        if not 1 <= value <= _INT_MAX:
            raise RocblasInvalidValueError(f"must be >= 1 (a rocblas_int), got {value}", arg="max_levels", index=1)
        session.max_levels = value


def log_restore_defaults() -> None:
    """rocsolver_log_restore_defaults()

    No layer and one level, as a :func:`log_begin` without the environment variables; files and profile stay.
    """
    with _api.session_lock:
        session = _begun("log_restore_defaults")
        session.layer, session.max_levels = LayerMode.none, 1


def log_write_profile() -> None:
    """rocsolver_log_write_profile()

    Write the session's profile (if the layers include profile and it is not empty) and keep it.
    """
    with _api.session_lock:
        _write_profile(_begun("log_write_profile"), clear=False)


def log_flush_profile() -> None:
    """rocsolver_log_flush_profile()

    Write the session's profile (if the layers include profile and it is not empty), then empty it.
    """
    with _api.session_lock:
        _write_profile(_begun("log_flush_profile"), clear=True)


# --- refactorization info ------------------------------------------------------------------------------------


class Rfinfo:
    """A ``rocsolver_rfinfo``: what the refactorization functions (``csrrf_*``) share through rocSPARSE.

    Attributes
    ----------
    sphandle
        A rocSPARSE handle on the rocBLAS handle's stream.
    descrL, descrU, descrT
        The descriptors of L (general, zero-based, lower, unit diagonal in lu mode), U (upper, non-unit)
        and T (general, zero-based).
    infoL, infoU, infoT
        Their analysis data (``rocsparse_mat_info``).
    mode
        :class:`RfinfoMode` (lu when created).
    analyzed, analyzed_mode
        Whether (and for which mode) an analysis has run: not yet.
    """

    def __init__(self, sphandle: Any, descrs: tuple[Any, Any, Any], infos: tuple[Any, Any, Any],
                 policies: tuple[Any, Any]) -> None:
        self.sphandle = sphandle
        self.descrL, self.descrU, self.descrT = descrs
        self.infoL, self.infoU, self.infoT = infos
        self.solve_policy, self.analysis_policy = policies
        self.mode = RfinfoMode.lu
        self.analyzed_mode: RfinfoMode | None = None
        self.analyzed = False
        self.destroyed = False

    def __repr__(self) -> str:
        state = "destroyed" if self.destroyed else self.mode.name
        return f"<rocsolver_rfinfo {state}>"


def _rfinfo(rfinfo: Any) -> Rfinfo:
    if rfinfo is None or (isinstance(rfinfo, int) and rfinfo == 0):
        raise RocblasInvalidPointerError("null rfinfo", arg="rfinfo", index=1)
    if not isinstance(rfinfo, Rfinfo):
        raise RocblasInvalidPointerError(f"expected an rfinfo from create_rfinfo(), got {type(rfinfo).__name__}",
                                         arg="rfinfo", index=1)
    if rfinfo.destroyed:
        raise RocblasInvalidPointerError("the rfinfo was destroyed", arg="rfinfo", index=1)
    return rfinfo


def create_rfinfo(handle: Any) -> Rfinfo:
    """rocsolver_create_rfinfo(rfinfo, handle)

    A new refactorization info object (returned: C's ``rfinfo`` output) for the handle: a rocSPARSE handle on
    the handle's stream, L/U/T descriptors and analysis data, mode lu.  A null (or destroyed) handle is
    invalid_handle.
    """
    if handle is None or (isinstance(handle, int) and handle == 0):
        raise RocblasInvalidHandleError("null handle", arg="handle", index=2)
    h = check_handle(handle)
    from rocmath import sparse  # rocSOLVER loads rocSPARSE on first use too

    sphandle = sparse.create_handle(h.device.index)
    sparse.set_stream(sphandle, h.stream)
    descrs = (sparse.create_mat_descr(), sparse.create_mat_descr(), sparse.create_mat_descr())
    for descr, fill, diag in zip(descrs[:2], (sparse.FillMode.lower, sparse.FillMode.upper),
                                 (sparse.DiagType.unit, sparse.DiagType.non_unit), strict=True):
        sparse.set_mat_type(descr, sparse.MatrixType.general)
        sparse.set_mat_index_base(descr, sparse.IndexBase.zero)
        sparse.set_mat_fill_mode(descr, fill)
        sparse.set_mat_diag_type(descr, diag)
    sparse.set_mat_type(descrs[2], sparse.MatrixType.general)
    sparse.set_mat_index_base(descrs[2], sparse.IndexBase.zero)
    infos = (sparse.create_mat_info(), sparse.create_mat_info(), sparse.create_mat_info())
    return Rfinfo(sphandle, descrs, infos, (sparse.SolvePolicy.auto, sparse.AnalysisPolicy.reuse))


def destroy_rfinfo(rfinfo: Any) -> None:
    """rocsolver_destroy_rfinfo(rfinfo)

    Release the object and what it holds (null or already destroyed: invalid_pointer).
    """
    r = _rfinfo(rfinfo)
    from rocmath import sparse

    for info in (r.infoT, r.infoU, r.infoL):
        sparse.destroy_mat_info(info)
    for descr in (r.descrT, r.descrU, r.descrL):
        sparse.destroy_mat_descr(descr)
    sparse.destroy_handle(r.sphandle)
    r.destroyed = True


def set_rfinfo_mode(rfinfo: Any, mode: Any) -> None:
    """rocsolver_set_rfinfo_mode(rfinfo, mode)

    :attr:`RfinfoMode.lu` (L with a unit diagonal) or :attr:`RfinfoMode.cholesky` (non-unit); another value
    is invalid_value, checked after the rfinfo (null: invalid_pointer).
    """
    r = _rfinfo(rfinfo)
    try:
        value = RfinfoMode(operator.index(mode))
    except (TypeError, ValueError):
        raise RocblasInvalidValueError(f"{mode!r} is not a rocsolver_rfinfo_mode (lu 271, cholesky 272)",
                                       arg="mode", index=2) from None
    from rocmath import sparse

    r.mode = value
    sparse.set_mat_diag_type(r.descrL, sparse.DiagType.unit if value is RfinfoMode.lu else sparse.DiagType.non_unit)


def get_rfinfo_mode(rfinfo: Any) -> RfinfoMode:
    """rocsolver_get_rfinfo_mode(rfinfo, mode)

    The object's mode (returned: C's ``mode`` output); a null rfinfo is invalid_pointer.
    """
    return _rfinfo(rfinfo).mode
