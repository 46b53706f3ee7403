"""The rocSPARSE handle, matrix descriptors and ``mat_info`` (rocsparse-auxiliary.h).

Out-parameters become return values (``create_handle()``, ``create_mat_descr()``), and
getters return the value, as rocSPARSE's ``rocsparse_get_mat_*`` do.  A destroyed handle is
``invalid_handle``; a missing (None) or destroyed descriptor or info is ``invalid_pointer``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, TypeVar

import numpy as np

import rocmath
from rocmath.errors import RocmathError
from rocmath.handle import Handle, PointerMode, Versioned
from rocmath.stream import Stream

from ._types import (
    DiagType,
    FillMode,
    IndexBase,
    MatrixType,
    SparseInvalidHandleError,
    SparseInvalidPointerError,
    SparseInvalidValueError,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    StorageMode,
    as_enum,
)

_T = TypeVar("_T")

__all__ = [
    "MatDescr", "MatInfo", "SparseHandle", "copy_mat_descr", "copy_mat_info", "create_handle", "create_mat_descr",
    "create_mat_info", "destroy_handle", "destroy_mat_descr", "destroy_mat_info", "get_mat_diag_type",
    "get_mat_fill_mode", "get_mat_index_base", "get_mat_storage_mode", "get_mat_type", "get_pointer_mode",
    "get_stream", "get_version", "set_mat_diag_type", "set_mat_fill_mode", "set_mat_index_base",
    "set_mat_storage_mode", "set_mat_type", "set_pointer_mode", "set_stream",
]

#: rocSPARSE's version number encoding (major * 100000 + minor * 100 + patch) of the mirrored release.
VERSION = 300300


class SparseHandle(Handle):
    """A ``rocsparse_handle``: stream, pointer mode and workspace (``ROCSPARSE_LAYER`` logging)."""

    library = "rocsparse"
    layer_env = "ROCSPARSE_LAYER"

    def __init__(self, device: int | None = None, stream: Any = None):
        super().__init__(device, stream)
        self._plans: dict[Any, Any] = {}  # replays of checked calls (rocmath.plans)

    def check(self) -> None:
        try:
            super().check()
        except RocmathError as exc:
            raise SparseInvalidHandleError(exc.message, arg="handle", index=1) from None

    def __repr__(self) -> str:
        return f"<rocsparse handle on {self.stream!r}, pointer mode {self.pointer_mode.name}>"


def check_handle(handle: Any) -> SparseHandle:
    """The first check of every call: a live rocSPARSE handle (``invalid_handle`` otherwise)."""
    if not isinstance(handle, SparseHandle):
        raise SparseInvalidHandleError(f"expected a handle from create_handle(), got {type(handle).__name__}",
                                       arg="handle", index=1)
    handle.check()
    return handle


def create_handle(device: int | None = None) -> SparseHandle:
    """``rocsparse_create_handle``: a handle on the current device's null stream, host pointer mode."""
    return SparseHandle(device)


def destroy_handle(handle: SparseHandle) -> None:
    """``rocsparse_destroy_handle``."""
    check_handle(handle).destroy()


def set_stream(handle: SparseHandle, stream: Any) -> None:
    """``rocsparse_set_stream`` (None or 0: the null stream); a foreign or destroyed stream is invalid_value."""
    h = check_handle(handle)
    try:
        h.set_stream(stream)
    except RocmathError as exc:
        raise SparseInvalidValueError(exc.message, arg="stream", index=2) from None


def get_stream(handle: SparseHandle) -> Stream:
    """``rocsparse_get_stream``."""
    return check_handle(handle).get_stream()


def set_pointer_mode(handle: SparseHandle, mode: Any) -> None:
    """``rocsparse_set_pointer_mode``: where alpha, beta and scalar results live (0 host, 1 device)."""
    h = check_handle(handle)
    h.set_pointer_mode(as_enum(PointerMode, mode, "pointer_mode", 2))


def get_pointer_mode(handle: SparseHandle) -> PointerMode:
    """``rocsparse_get_pointer_mode``."""
    return check_handle(handle).get_pointer_mode()


def get_version(handle: SparseHandle) -> int:
    """``rocsparse_get_version``: ``major * 100000 + minor * 100 + patch``."""
    check_handle(handle)
    return VERSION


# --- matrix descriptors ----------------------------------------------------------------------------


@dataclass
class MatDescr(Versioned):
    """A ``rocsparse_mat_descr``: the properties legacy routines read from a matrix."""

    type: MatrixType = MatrixType.general
    base: IndexBase = IndexBase.zero
    fill_mode: FillMode = FillMode.lower
    diag_type: DiagType = DiagType.non_unit
    storage_mode: StorageMode = StorageMode.sorted
    destroyed: bool = field(default=False, repr=False, compare=False)


def check_live(obj: Any, cls: type[_T], what: str, arg: str, index: int | None) -> _T:
    """``obj`` when it is a live (not destroyed) ``cls``, else ``invalid_pointer`` naming the argument:
    the check of every opaque object (descriptors, mat_info, hyb_mat)."""
    if not isinstance(obj, cls) or getattr(obj, "destroyed", False):
        got = "null" if obj is None else ("destroyed" if isinstance(obj, cls) else type(obj).__name__)
        raise SparseInvalidPointerError(f"expected {what}, got {got}", arg=arg, index=index)
    return obj


def check_descr(descr: Any, arg: str = "descr", index: int | None = 1) -> MatDescr:
    """A live matrix descriptor, or ``invalid_pointer``."""
    return check_live(descr, MatDescr, "a matrix descriptor", arg, index)


def check_general_sorted(descr: MatDescr, fname: str, arg: str, index: int | None, *, general: bool = True,
                         sorted_: bool = True, storage_first: bool = False) -> MatDescr:
    """A descriptor the routine ``fname`` can use: a general matrix (``not_implemented`` otherwise) with sorted
    storage (``requires_sorted_storage``), each check only when asked, in rocSPARSE's order for the routine
    (``storage_first``: the storage mode first)."""
    checks = [general and "type", sorted_ and "storage"]
    for check in (reversed(checks) if storage_first else checks):
        if check == "type" and descr.type is not MatrixType.general:
            raise SparseNotImplementedError(f"{fname} supports general matrices, got {descr.type.name}", arg=arg,
                                            index=index)
        if check == "storage" and descr.storage_mode is not StorageMode.sorted:
            raise SparseRequiresSortedStorageError(f"{fname} requires sorted storage", arg=arg, index=index)
    return descr


def create_mat_descr() -> MatDescr:
    """``rocsparse_create_mat_descr``: general, index base zero, fill lower, non-unit diagonal, sorted."""
    return MatDescr()


def destroy_mat_descr(descr: MatDescr) -> None:
    """``rocsparse_destroy_mat_descr``."""
    check_descr(descr).destroyed = True


def copy_mat_descr(dest: MatDescr, src: MatDescr) -> None:
    """``rocsparse_copy_mat_descr``: copying a descriptor onto itself is invalid_pointer."""
    check_descr(dest, "dest", 1)
    check_descr(src, "src", 2)
    if dest is src:
        raise SparseInvalidPointerError("source and destination are the same descriptor", arg="src", index=2)
    dest.type, dest.base, dest.fill_mode = src.type, src.base, src.fill_mode
    dest.diag_type, dest.storage_mode = src.diag_type, src.storage_mode


def set_mat_index_base(descr: MatDescr, base: Any) -> None:
    """``rocsparse_set_mat_index_base``."""
    check_descr(descr).base = as_enum(IndexBase, base, "base", 2)


def get_mat_index_base(descr: MatDescr) -> IndexBase:
    """``rocsparse_get_mat_index_base`` (a null descriptor reads as base zero, as in rocSPARSE)."""
    return descr.base if isinstance(descr, MatDescr) else IndexBase.zero


def set_mat_type(descr: MatDescr, type: Any) -> None:
    """``rocsparse_set_mat_type``."""
    check_descr(descr).type = as_enum(MatrixType, type, "type", 2)


def get_mat_type(descr: MatDescr) -> MatrixType:
    """``rocsparse_get_mat_type`` (general for a null descriptor)."""
    return descr.type if isinstance(descr, MatDescr) else MatrixType.general


def set_mat_fill_mode(descr: MatDescr, fill_mode: Any) -> None:
    """``rocsparse_set_mat_fill_mode`` (lower 0, upper 1)."""
    check_descr(descr).fill_mode = as_enum(FillMode, fill_mode, "fill_mode", 2)


def get_mat_fill_mode(descr: MatDescr) -> FillMode:
    """``rocsparse_get_mat_fill_mode`` (lower for a null descriptor)."""
    return descr.fill_mode if isinstance(descr, MatDescr) else FillMode.lower


def set_mat_diag_type(descr: MatDescr, diag_type: Any) -> None:
    """``rocsparse_set_mat_diag_type``."""
    check_descr(descr).diag_type = as_enum(DiagType, diag_type, "diag_type", 2)


def get_mat_diag_type(descr: MatDescr) -> DiagType:
    """``rocsparse_get_mat_diag_type`` (non-unit for a null descriptor)."""
    return descr.diag_type if isinstance(descr, MatDescr) else DiagType.non_unit


def set_mat_storage_mode(descr: MatDescr, storage_mode: Any) -> None:
    """``rocsparse_set_mat_storage_mode``."""
    check_descr(descr).storage_mode = as_enum(StorageMode, storage_mode, "storage_mode", 2)


def get_mat_storage_mode(descr: MatDescr) -> StorageMode:
    """``rocsparse_get_mat_storage_mode`` (sorted for a null descriptor)."""
    return descr.storage_mode if isinstance(descr, MatDescr) else StorageMode.sorted


# --- mat_info ------------------------------------------------------------------------------------


@dataclass
class MatInfo(Versioned):
    """A ``rocsparse_mat_info``: analysis data of the routines that have an analysis step.

    Attributes
    ----------
    csrmv
        ``csrmv_analysis`` / ``bsrmv_analysis`` (1 x 1 blocks) results, one place for both as in rocSPARSE
        (:class:`rocmath.sparse._level2.CsrmvAnalysis`), or None.
    bsrmv
        rocmath's own partition of a matrix of larger blocks from ``bsrmv_analysis`` (rocSPARSE keeps
        nothing for those: csrmv never sees it), or None.
    csrsv
        ``csrsv_analysis`` results, and those of the generic triangular solves (spsv, spsm) on a
        sparse descriptor's info (:class:`rocmath.sparse._solve.CsrsvInfo`), or None.
    csrgemm
        What ``csrgemm_buffer_size`` recorded (:class:`rocmath.sparse._extra.CsrgemmInfo`) or None.
    precond
        The analyses, singular tolerance and numeric boost of the preconditioners and of csrsm /
        bsrsv (:class:`rocmath.sparse._precond.PrecondInfo`), or None.
    zero_pivot
        The info's one zero pivot (a 1-element int64 device array, ``NO_PIVOT`` for none), as
        rocSPARSE's ``mat_info`` has one for all its routines: created by the first analysis of
        csrsv, csrsm, bsrsv, csrilu0, csric0, bsrilu0 or the generic spsv / spsm, reset and set by
        every analysis that runs, lowered by their solves and factorizations (reset first by a
        unit-diagonal solve), kept by ``*_clear``; None before any analysis.
    singular_pivot
        csrilu0's and csric0's singular pivot (their analyses set it to the zero pivot), or None.
    csritsv
        ``csritsv_analysis`` results (:class:`rocmath.sparse._iterative.CsritsvInfo`), spitsv's on a
        sparse descriptor's info, or None.
    """

    csrmv: Any = None
    bsrmv: Any = None
    csrsv: Any = None
    csrgemm: Any = None
    precond: Any = None
    zero_pivot: Any = None
    singular_pivot: Any = None
    csritsv: Any = None
    destroyed: bool = field(default=False, repr=False, compare=False)


def check_info(info: Any, arg: str = "info", index: int | None = 1) -> MatInfo:
    """A live ``mat_info``, or ``invalid_pointer``."""
    return check_live(info, MatInfo, "a mat_info", arg, index)


def create_mat_info() -> MatInfo:
    """``rocsparse_create_mat_info``: empty analysis data."""
    return MatInfo()


def destroy_mat_info(info: MatInfo) -> None:
    """``rocsparse_destroy_mat_info``: frees every analysis it holds."""
    i = check_info(info)
    i.csrmv = i.bsrmv = i.csrsv = i.csrgemm = i.precond = i.zero_pivot = i.singular_pivot = i.csritsv = None
    i.destroyed = True


def copy_mat_info(dest: MatInfo, src: MatInfo) -> None:
    """``rocsparse_copy_mat_info``: copy the analysis data ``src`` holds into ``dest`` (device arrays copied,
    synchronously).

    As rocSPARSE: each analysis (and pivot) ``src`` holds replaces ``dest``'s, those it lacks stay in ``dest``;
    the numeric boost setting is always ``src``'s (off included); the singular-pivot tolerance is not copied.
    Analyses keep naming the matrix descriptor and arrays they were made with.

    Raises
    ------
    SparseInvalidPointerError
        For a null or destroyed ``dest`` (#1) or ``src`` (#2), or ``src`` being ``dest``.
    """
    d = check_info(dest, "dest", 1)
    s = check_info(src, "src", 2)
    if d is s:
        raise SparseInvalidPointerError("source and destination are the same mat_info", arg="src", index=2)
    for f in ("csrmv", "bsrmv", "csrsv", "csrgemm", "precond", "zero_pivot", "singular_pivot", "csritsv"):
        setattr(d, f, _merged(getattr(d, f), getattr(s, f)))


def _merged(old: Any, new: Any) -> Any:
    """``new`` deep-copied over ``old``: what ``new`` holds replaces, what it lacks (None, absent keys) stays.
    A dataclass field's ``metadata["copy"]`` may say ``"always"`` (None too) or ``"never"``."""
    if new is None:
        return old
    if is_dataclass(new) and type(old) is type(new):
        out = copy.copy(old)
        for f in fields(new):
            rule = f.metadata.get("copy")
            value = getattr(new, f.name)
            if rule != "never":
                object.__setattr__(out, f.name, _deep(value) if rule == "always" else _merged(getattr(old, f.name),
                                                                                              value))
        return out
    if isinstance(new, dict) and isinstance(old, dict):
        return {**old, **{k: _deep(v) for k, v in new.items()}}
    return _deep(new)


def _deep(obj: Any) -> Any:
    """A copy of analysis data with its own device arrays (descriptors and user pointers stay shared)."""
    if isinstance(obj, rocmath.DeviceArray):
        if not obj.is_contiguous:
            return obj.copy()
        out = rocmath.empty(obj.shape, obj.dtype)
        from rocmath.memory import memcpy

        memcpy(out, obj, obj.nbytes)
        return out
    if isinstance(obj, MatDescr):
        return obj
    if is_dataclass(obj) and not isinstance(obj, type) and not obj.__dataclass_params__.frozen:  # type: ignore
        out = copy.copy(obj)
        for f in fields(obj):
            setattr(out, f.name, _deep(getattr(obj, f.name)))
        return out
    if isinstance(obj, dict):
        return {k: _deep(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_deep(v) for v in obj)
    if isinstance(obj, np.ndarray):
        return obj.copy()
    return obj
