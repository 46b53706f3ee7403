"""Triangular solves (csrsv) and batched tridiagonal solves (gtsv_no_pivot_strided_batch), in rocSPARSE's check order.

csrsv runs as rocSPARSE's stages: ``csrsv_buffer_size`` (bytes of temp_buffer),
``csrsv_analysis`` (a level schedule of the triangle the descriptor's fill mode selects, kept
in the ``mat_info``, one per fill mode and per op none / op transposed; with the reuse policy the one
there, or another routine's of the same triangle (:data:`SHARED_ANALYSES`), serves instead; a structural zero
pivot, a missing diagonal with a non-unit diagonal type, is recorded), ``csrsv_solve``
(``y := op(T)^-1 alpha x``, the rows of a level in parallel; a numerical zero pivot is
recorded, and treated as one), ``csrsv_zero_pivot`` (the first zero pivot's row, index base
included: returned as -1 when there is none, else raised as :class:`SparseZeroPivotError`
whose ``.position`` holds it, as rocSPARSE returns ``zero_pivot`` after writing it) and
``csrsv_clear``.  The zero pivot is the ``mat_info``'s one (``MatInfo.zero_pivot``), which
csrsm, bsrsv, the factorizations and spsv / spsm on the same info share, as in rocSPARSE: each
analysis that runs resets it and records its structural pivot, solves and factorizations lower
it (a unit-diagonal solve resets it first), and ``csrsv_zero_pivot`` reports it whichever
routine wrote it last.  Only general matrices with sorted storage are accepted (as rocSPARSE); the
entries outside the triangle are ignored.  Transposed solves transpose the structure at
analysis time and gather the values at each solve (into temp_buffer).

gtsv_no_pivot_strided_batch solves ``batch_count`` tridiagonal systems of size ``m >= 2``,
system ``b``'s diagonals and right-hand side starting at element ``b * batch_stride`` of
``dl``, ``d``, ``du`` and ``x`` (``dl[0]`` and ``du[m - 1]`` of each system are not used),
overwriting x with the solution (Thomas algorithm, no pivoting; a zero pivot gives inf / NaN,
as the device's division).

The triangle analysis, the analysis lookup, the pivot queries and the Thomas launch are shared
with the preconditioners' solves (csrsm, bsrsv, gtsv_no_pivot) and the generic spsv / spsm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels_solve as ks
from ._api import Call, Routine, bind
from ._handle import MatDescr, MatInfo, check_descr, check_general_sorted, check_info
from ._types import (
    AnalysisPolicy,
    DiagType,
    FillMode,
    Operation,
    SolvePolicy,
    SparseZeroPivotError,
)
from ._validate import check_csr

__all__ = [
    "ccsrsv_analysis", "ccsrsv_buffer_size", "ccsrsv_solve", "cgtsv_no_pivot_strided_batch",
    "cgtsv_no_pivot_strided_batch_buffer_size", "csrsv_clear", "csrsv_zero_pivot", "dcsrsv_analysis",
    "dcsrsv_buffer_size", "dcsrsv_solve", "dgtsv_no_pivot_strided_batch", "dgtsv_no_pivot_strided_batch_buffer_size",
    "scsrsv_analysis", "scsrsv_buffer_size", "scsrsv_solve", "sgtsv_no_pivot_strided_batch",
    "sgtsv_no_pivot_strided_batch_buffer_size", "zcsrsv_analysis", "zcsrsv_buffer_size", "zcsrsv_solve",
    "zgtsv_no_pivot_strided_batch", "zgtsv_no_pivot_strided_batch_buffer_size",
]

#: Parallel chunks of a batched Thomas solve (at most; fixed by the sizes, so results never depend on threads).
GTSV_MAX_CHUNKS = 64


def _round256(nbytes: int) -> int:
    return ((max(nbytes, 1) - 1) // 256 + 1) * 256


def _set(a: np.ndarray, value: int) -> None:
    a[...] = value


def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    dst[...] = src


# --- triangle analyses (csrsv, csrsm, bsrsv, spsv, spsm) ------------------------------------------


@dataclass
class TriangleAnalysis:
    """One analysed triangle: its level schedule on the structure the solve walks.

    ``t_ptr`` / ``t_ind``: that structure when the analysis built it (op(T)'s transpose, or a 0-based
    int64 copy), None when it is the caller's own arrays; ``perm`` takes the values to the transpose.
    ``base`` is the walked structure's index base (0 for a built one), ``pivot_base`` the matrix's
    (a zero pivot's row is reported plus it).
    """

    m: int
    nnz: int
    upper: bool
    base: int
    pivot_base: int
    split: rocmath.DeviceArray
    diag: rocmath.DeviceArray
    level_ptr: rocmath.DeviceArray
    row_map: rocmath.DeviceArray
    nlevels: int
    t_ptr: rocmath.DeviceArray | None = None
    t_ind: rocmath.DeviceArray | None = None
    perm: rocmath.DeviceArray | None = None


@dataclass
class CsrsvInfo:
    """What the csrsv stages keep in a ``mat_info``: analyses by (transposed, fill mode), and those of spsv
    and spsm on a sparse descriptor's info (``generic``: on a 0-based int64 copy of the structure, whatever
    its index types).  Their zero pivot is the info's (:func:`zero_pivot_slot`)."""

    analyses: dict[tuple[bool, FillMode], TriangleAnalysis] = field(default_factory=dict)
    generic: dict[tuple[bool, FillMode], TriangleAnalysis] = field(default_factory=dict)


def _csrsv_info(info: MatInfo) -> CsrsvInfo:
    """``info``'s csrsv state, created empty at the first analysis."""
    if not isinstance(info.csrsv, CsrsvInfo):
        info.csrsv = CsrsvInfo()
    return info.csrsv


def _new_pivot() -> rocmath.DeviceArray:
    return rocmath.to_device(np.full(1, ks.NO_PIVOT, np.int64))


def zero_pivot_slot(info: MatInfo) -> rocmath.DeviceArray:
    """The zero pivot every analysing routine on ``info`` shares (rocSPARSE's ``mat_info::zero_pivot``),
    created holding no pivot by the first analysis and kept until the info is destroyed."""
    if info.zero_pivot is None:
        info.zero_pivot = _new_pivot()
    return info.zero_pivot


def singular_pivot_slot(info: MatInfo) -> rocmath.DeviceArray:
    """csrilu0's and csric0's singular pivot (rocSPARSE's ``mat_info::singular_pivot``), created as
    :func:`zero_pivot_slot`."""
    if info.singular_pivot is None:
        info.singular_pivot = _new_pivot()
    return info.singular_pivot


def triangle_buffer_size(m: int, index_itemsize: int) -> int:
    """csrsv's temp_buffer bytes for an m-row pattern (not transposed): rocSPARSE documents csrilu0's and
    csric0's as equal, so that one buffer serves them all."""
    return 256 + _round256(4 * m) + _round256(index_itemsize * m) + _round256(4 * m)


def analyse_triangle(c: Call, row_ptr: Any, col_ind: Any, m: int, nnz: int, base: int, upper: bool, transposed: bool,
                     unit: bool, zero_pivot: rocmath.DeviceArray, int64: bool = False) -> TriangleAnalysis:
    """Level-schedule the triangle (``upper`` or lower) of a sorted CSR structure (typed buffers of the
    matrix's index base), or of its transpose; a missing diagonal, unless ``unit``, lowers ``zero_pivot``
    (its row plus ``base``).

    The transpose is built in row_ptr's index type (``int64``: int64), 0-based, with the permutation
    taking the values to it; ``int64`` also copies an untransposed structure to 0-based int64 (spsv and
    spsm: one kernel signature per value type whatever the index types).  Blocks until the schedule is
    known (its number of levels is a host value).
    """
    sbase = base
    t_ptr = t_ind = perm = None
    if transposed or int64:
        ctype = np.dtype(np.int64) if int64 else np.dtype(row_ptr.dtype)
        t_ptr, t_ind = rocmath.empty(m + 1, ctype), rocmath.empty(max(nnz, 1), ctype)
        moved = float(nnz * (col_ind.dtype.itemsize + ctype.itemsize) + (m + 1) * (row_ptr.dtype.itemsize
                                                                                     + ctype.itemsize))
        if transposed:
            perm = rocmath.empty(max(nnz, 1), np.int64)
            c.launch(ks.csr_transpose_perm, row_ptr, col_ind, base, t_ptr, t_ind[:nnz], perm[:nnz],
                     bytes=moved + 8.0 * nnz)
            upper = not upper
        else:
            c.launch(ks.structure_to_int64, row_ptr, col_ind, base, t_ptr, t_ind[:nnz], bytes=moved)
        row_ptr, col_ind, sbase = t_ptr, t_ind[:nnz], 0
    split, diag = rocmath.empty(m, np.int64), rocmath.empty(m, np.int64)
    level_ptr, row_map = rocmath.empty(m + 1, np.int64), rocmath.empty(m, np.int64)
    nlevels = np.zeros(1, np.int64)
    c.launch(ks.csrsv_levels, row_ptr, col_ind, sbase, base, upper, unit, split, diag, level_ptr, row_map,
             zero_pivot, nlevels,
             bytes=float(2 * nnz * col_ind.dtype.itemsize + m * (row_ptr.dtype.itemsize + 40))).wait()
    return TriangleAnalysis(m, nnz, upper, sbase, base, split, diag, level_ptr, row_map, int(nlevels[0]), t_ptr,
                            t_ind, perm)


#: rocsparse_analysis_policy_reuse: an analysis whose routine has none of its own in the info takes over
#: the first of these other routines' analyses the info holds (keys: routine, op transposed, fill mode), in
#: rocSPARSE's order (the reuse branches of rocsparse_{csrsv,bsrsv,csrsm,bsrsm,csrilu0}_analysis.cpp and
#: rocsparse_{csric0,bsrilu0,bsric0}.cpp), and nothing runs: the zero pivot stays.  A conjugate-transposed
#: analysis is the transposed one, as there.  Two of rocSPARSE's branches are taken as meant, not as written:
#: csrsm's and bsrsm's transposed lower analysis taking csrsv's (bsrsv's) stores it as their transposed lower
#: one (rocSPARSE stores it as the untransposed upper one, which the solve then never finds), and bsrilu0
#: taking bsric0's takes it (rocSPARSE clears bsric0's instead and keeps none).  bsrsv takes no bsrsm
#: analysis (those branches are commented out in rocSPARSE).
_L, _U = FillMode.lower, FillMode.upper
SHARED_ANALYSES: dict[tuple[str, bool, FillMode], tuple[tuple[str, bool, FillMode], ...]] = {
    ("csrsv", False, _U): (("csrsm", False, _U),),
    ("csrsv", True, _U): (("csrsm", True, _U),),
    ("csrsv", False, _L): (("csrilu0", False, _L), ("csric0", False, _L), ("csrsm", False, _L)),
    ("csrsv", True, _L): (("csrsm", True, _L),),
    ("csrsm", False, _U): (("csrsv", False, _U),),
    ("csrsm", True, _U): (("csrsv", True, _U),),
    ("csrsm", False, _L): (("csrilu0", False, _L), ("csric0", False, _L), ("csrsv", False, _L)),
    ("csrsm", True, _L): (("csrsv", True, _L),),
    ("csrilu0", False, _L): (("csric0", False, _L), ("csrsv", False, _L), ("csrsv", True, _U), ("csrsm", False, _L),
                             ("csrsm", True, _U)),
    ("csric0", False, _L): (("csrilu0", False, _L), ("csrsv", False, _L), ("csrsv", True, _U), ("csrsm", False, _L),
                            ("csrsm", True, _U)),
    ("bsrsv", False, _L): (("bsric0", False, _L), ("bsrilu0", False, _L)),
    ("bsrsm", False, _L): (("bsrilu0", False, _L), ("bsric0", False, _L), ("bsrsv", False, _L)),
    ("bsrsm", False, _U): (("bsrsv", False, _U),),
    ("bsrsm", True, _U): (("bsrsv", True, _U),),
    ("bsrsm", True, _L): (("bsrsv", True, _L),),
    ("bsrilu0", False, _L): (("bsric0", False, _L), ("bsrsv", False, _L)),
    ("bsric0", False, _L): (("bsrilu0", False, _L), ("bsrsv", False, _L)),
}


def held_analysis(info: MatInfo, key: tuple[str, bool, FillMode]) -> TriangleAnalysis | None:
    """The analysis ``info`` holds for ``key`` (routine, transposed, fill mode), or None: csrsv's in its
    :class:`CsrsvInfo`, the other routines' in the preconditioners' state (rocmath.sparse._precond)."""
    if key[0] == "csrsv":
        st = info.csrsv
        return st.analyses.get(key[1:]) if isinstance(st, CsrsvInfo) else None
    analyses = getattr(info.precond, "analyses", None)
    return analyses.get(key) if analyses is not None else None


def shared_analysis(info: MatInfo, key: tuple[str, bool, FillMode]) -> TriangleAnalysis | None:
    """What the reuse policy finds for ``key``: the routine's own analysis, else the first of
    :data:`SHARED_ANALYSES` ``info`` holds, else None (an analysis must run)."""
    for k in (key, *SHARED_ANALYSES.get(key, ())):
        a = held_analysis(info, k)
        if a is not None:
            return a
    return None


def analysis_of(c: Call, analyses: dict[Any, TriangleAnalysis] | None, key: Any, m: int, nnz: int, arg: str,
                missing: str) -> TriangleAnalysis:
    """The analysis a solve needs: ``invalid_pointer`` naming ``arg`` (why: ``missing``) when there is none,
    ``invalid_size`` when it was made for other sizes."""
    a = analyses.get(key) if analyses is not None else None
    if a is None:
        raise c.invalid_pointer(arg, missing)
    if (a.m, a.nnz) != (m, nnz):
        raise c.invalid_size(arg, f"analysed {a.m} rows and {a.nnz} nonzeros, called with {m} and {nnz}")
    return a


# --- zero pivot queries ---------------------------------------------------------------------------


def pivot_query(c: Call) -> MatInfo:
    """A pivot query's first checks: its info, then (device pointer mode) its position pointer."""
    info = check_info(c["info"], "info", c.index("info"))
    if not c.host_mode:
        c.pointer("position")
    return info


def read_pivot(c: Call, pivot: rocmath.DeviceArray | None) -> int:
    """A pivot's value on the host (-1 for none): blocking, as rocSPARSE's queries."""
    host = np.full(1, ks.NO_PIVOT, np.int64)
    if pivot is not None:
        c.launch(_copy, pivot, host, bytes=8.0).wait()
    return -1 if host[0] == ks.NO_PIVOT else int(host[0])


def report_position(c: Call, pos: int) -> Any:
    """Host mode returns the position; device mode writes it to ``position`` (a rocsparse_int)."""
    if c.host_mode:
        return pos
    c.launch(_set, c.array("position", 1, np.int32), pos, bytes=4.0)
    return None


def zero_pivot_answer(c: Call, pivot: rocmath.DeviceArray | None, what: str = "row") -> Any:
    """A ``*_zero_pivot`` query's answer: the position reported (-1 for none) and, when there is a zero
    pivot, :class:`SparseZeroPivotError` with ``.position``, as rocSPARSE returns ``zero_pivot`` after
    writing it."""
    pos = read_pivot(c, pivot)
    out = report_position(c, pos)
    if pos >= 0:
        err = SparseZeroPivotError(f"zero pivot in {what} {pos} (index base included)", arg="info",
                                   index=c.index("info"))
        err.position = pos  # type: ignore[attr-defined]
        raise err
    return out


# --- csrsv_buffer_size -----------------------------------------------------------------------------


def _csrsv_head(c: Call, *policies: str) -> tuple[MatDescr, MatInfo, Operation, int, int]:
    """The csrsv stages' first checks, in rocSPARSE's order: descr, info, trans, the stage's policies, the
    descriptor's type and storage, m and nnz.  Returns ``(descr, info, trans, m, nnz)``."""
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    trans = c.enum("trans", Operation)
    for name in policies:
        c.enum(name, AnalysisPolicy if name == "analysis" else SolvePolicy)
    check_general_sorted(descr, c.fname, "descr", c.index("descr"))
    return descr, info, trans, c.size("m"), c.size("nnz")


def _csrsv_buffer_size(c: Call) -> int:
    _, _, trans, m, nnz = _csrsv_head(c)
    if m == 0:
        return 0
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    idx = c.index_dtype("csr_row_ptr", "csr_col_ind").itemsize
    size = triangle_buffer_size(m, idx)
    if trans is not Operation.none:
        # The transposed values gathered at each solve.
        size = max(size, _round256(idx * nnz) + _round256(max(idx, c.dtype.itemsize) * nnz))
    return size


_BS_PARAMS = ("trans", "m", "nnz", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info")
CSRSV_BUFFER_SIZE = Routine("csrsv_buffer_size", _BS_PARAMS, _csrsv_buffer_size,
                            "Bytes of temp_buffer csrsv_analysis and csrsv_solve need (returned).")

scsrsv_buffer_size = bind(CSRSV_BUFFER_SIZE, S)
dcsrsv_buffer_size = bind(CSRSV_BUFFER_SIZE, D)
ccsrsv_buffer_size = bind(CSRSV_BUFFER_SIZE, C)
zcsrsv_buffer_size = bind(CSRSV_BUFFER_SIZE, Z)


# --- csrsv_analysis --------------------------------------------------------------------------------


def _csrsv_analysis(c: Call) -> None:
    descr, info, trans, m, nnz = _csrsv_head(c, "analysis", "solve")
    if m == 0:
        return
    c.pointer("temp_buffer")
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    state = _csrsv_info(info)
    transposed = trans is not Operation.none
    key = (transposed, descr.fill_mode)
    if c.enum("analysis", AnalysisPolicy) is AnalysisPolicy.reuse:
        found = shared_analysis(info, ("csrsv", *key))
        if found is not None:
            state.analyses[key] = found
            return
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    check_csr(c, row_ptr, col_ind, int(descr.base), nnz, m)
    state.analyses[key] = analyse_triangle(c, row_ptr, col_ind, m, nnz, int(descr.base),
                                           descr.fill_mode is FillMode.upper, transposed,
                                           descr.diag_type is DiagType.unit, zero_pivot_slot(info))


_AN_PARAMS = ("trans", "m", "nnz", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info", "analysis", "solve",
              "temp_buffer")
CSRSV_ANALYSIS = Routine("csrsv_analysis", _AN_PARAMS, _csrsv_analysis,
                         "Level-schedule the triangle (descr's fill mode) of a sorted CSR matrix for csrsv_solve; "
                         "records a structural zero pivot in info.")

scsrsv_analysis = bind(CSRSV_ANALYSIS, S)
dcsrsv_analysis = bind(CSRSV_ANALYSIS, D)
ccsrsv_analysis = bind(CSRSV_ANALYSIS, C)
zcsrsv_analysis = bind(CSRSV_ANALYSIS, Z)


# --- csrsv_solve -----------------------------------------------------------------------------------


def _csrsv_solve(c: Call) -> None:
    descr, info, trans, m, nnz = _csrsv_head(c, "policy")
    if m == 0:
        return
    c.check_array("x", m)
    c.check_array("y", m)
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    c.pointer("temp_buffer")
    c.pointer("alpha")
    transposed = trans is not Operation.none
    state = info.csrsv if isinstance(info.csrsv, CsrsvInfo) else None
    a = analysis_of(c, state.analyses if state is not None else None, (transposed, descr.fill_mode), m, nnz, "info",
                    f"csrsv_analysis was not run for this fill mode and {trans.name}")
    pivot = zero_pivot_slot(info)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    if not transposed:  # checking mode: the caller's arrays, which the solve walks (a transposed one the analysis's)
        check_csr(c, c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype), int(descr.base), nnz, m)
    unit = descr.diag_type is DiagType.unit
    if unit:  # a unit diagonal has no pivots: the analysis's structural one goes too
        c.launch(_set, pivot, ks.NO_PIVOT, bytes=8.0)
    val = c.array("csr_val", nnz)
    isz = c.dtype.itemsize
    if transposed:
        assert a.t_ptr is not None and a.t_ind is not None and a.perm is not None
        tval = c.array("temp_buffer", nnz)
        c.launch(ks.gather_values, trans is Operation.conjugate_transpose, val, a.perm[:nnz], tval,
                 bytes=float(nnz * (2 * isz + 8)))
        val, row_ptr, col_ind = tval, a.t_ptr, a.t_ind[:nnz]
    else:
        row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    c.launch(ks.csrsv_solve, c.scalar("alpha"), val, row_ptr, col_ind, a.base, a.pivot_base, a.upper, unit, a.split,
             a.diag, a.level_ptr, a.row_map, a.nlevels, c.array("x", m), c.array("y", m), pivot,
             flops=float(nnz) * (8.0 if c.dtype.kind == "c" else 2.0),
             bytes=float(nnz * (isz + itype.itemsize) + m * (3 * isz + 32)))


_SOLVE_PARAMS = ("trans", "m", "nnz", "alpha", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info", "x", "y",
                 "policy", "temp_buffer")
CSRSV_SOLVE = Routine("csrsv_solve", _SOLVE_PARAMS, _csrsv_solve,
                      "y := op(T)^-1 alpha x for the analysed triangle T of a sorted CSR matrix (level by level).")

scsrsv_solve = bind(CSRSV_SOLVE, S)
dcsrsv_solve = bind(CSRSV_SOLVE, D)
ccsrsv_solve = bind(CSRSV_SOLVE, C)
zcsrsv_solve = bind(CSRSV_SOLVE, Z)


# --- csrsv_zero_pivot / csrsv_clear ----------------------------------------------------------------


def _csrsv_zero_pivot(c: Call) -> Any:
    # rocsparse_csrsv.cpp: the info's zero pivot whichever routine analysed it (-1 before any analysis).
    return zero_pivot_answer(c, pivot_query(c).zero_pivot)


csrsv_zero_pivot = bind(Routine("csrsv_zero_pivot", ("descr", "info", "position"), _csrsv_zero_pivot,
                                "The info's zero pivot's row (index base included), whichever routine recorded it "
                                "last (csrsv, csrsm, bsrsv, the factorizations, spsv, spsm): -1 when there is none "
                                "or no analysis ran (host pointer mode returns it, device mode writes it to "
                                "position, a rocsparse_int), else SparseZeroPivotError with .position (also written "
                                "in device mode)."), None)


def _csrsv_clear(c: Call) -> None:
    check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    if isinstance(info.csrsv, CsrsvInfo):
        info.csrsv.analyses.clear()
        info.csrsv.generic.clear()


csrsv_clear = bind(Routine("csrsv_clear", ("descr", "info"), _csrsv_clear,
                           "Free the csrsv analyses kept in info, spsv's and spsm's included (the zero pivot "
                           "stays, as in rocSPARSE)."), None)


# --- gtsv_no_pivot_strided_batch -------------------------------------------------------------------


def _check_gtsv(c: Call) -> tuple[int, int, int]:
    m = c.size("m")
    if m <= 1:
        raise c.invalid_size("m", f"must be at least 2, got {m}")
    stride = c.values["batch_stride"]
    if isinstance(stride, (int, np.integer)) and not isinstance(stride, bool) and stride < m:
        raise c.invalid_size("batch_stride", f"must be at least m = {m}, got {stride}")
    stride = c.size("batch_stride")
    count = c.size("batch_count")
    for name in ("dl", "d", "du", "x"):
        c.check_array(name, count)
    return m, count, stride


def _gtsv_buffer_size(c: Call) -> int:
    m, count, _ = _check_gtsv(c)
    if count == 0 or m <= 512:
        return 0
    return 8 * _round256(c.dtype.itemsize * m * count)


GTSV_BS = Routine("gtsv_no_pivot_strided_batch_buffer_size", ("m", "dl", "d", "du", "x", "batch_count",
                                                               "batch_stride"), _gtsv_buffer_size,
                  "Bytes of temp_buffer gtsv_no_pivot_strided_batch needs (returned; 0 for m <= 512).")

sgtsv_no_pivot_strided_batch_buffer_size = bind(GTSV_BS, S)
dgtsv_no_pivot_strided_batch_buffer_size = bind(GTSV_BS, D)
cgtsv_no_pivot_strided_batch_buffer_size = bind(GTSV_BS, C)
zgtsv_no_pivot_strided_batch_buffer_size = bind(GTSV_BS, Z)


def _strided(c: Call, name: str, m: int, count: int, stride: int) -> Buffer:
    isz = c.dtype.itemsize
    return Buffer(c.ptr(name), c.dtype, (count, m), (stride * isz, isz), name=name, owner=c.values[name])


def launch_thomas(c: Call, dl: Buffer, d: Buffer, du: Buffer, X: Buffer, moved: float) -> None:
    """Enqueue the Thomas solve (no pivoting) of the ``count x m`` systems ``X`` in place, system b's diagonals
    ``dl[b], d[b], du[b]`` (any strides), the batch in parallel chunks (gtsv_no_pivot and its batched forms)."""
    count, m = X.shape
    c.launch(ks.gtsv_nopivot_batch, dl, d, du, X, c.dtype.type(1), int(min(GTSV_MAX_CHUNKS, count)),
             flops=float(8 * m * count) * (4.0 if c.dtype.kind == "c" else 1.0), bytes=moved)


def _gtsv(c: Call) -> None:
    m, count, stride = _check_gtsv(c)
    if m > 512:
        c.pointer("temp_buffer")
    if count == 0:
        return
    launch_thomas(c, *(_strided(c, n, m, count, stride) for n in ("dl", "d", "du", "x")),
                  moved=float(6 * m * count * c.dtype.itemsize))


GTSV = Routine("gtsv_no_pivot_strided_batch", ("m", "dl", "d", "du", "x", "batch_count", "batch_stride",
                                               "temp_buffer"), _gtsv,
               "Solve batch_count tridiagonal systems (strided by batch_stride) in place in x, without pivoting.")

sgtsv_no_pivot_strided_batch = bind(GTSV, S)
dgtsv_no_pivot_strided_batch = bind(GTSV, D)
cgtsv_no_pivot_strided_batch = bind(GTSV, C)
zgtsv_no_pivot_strided_batch = bind(GTSV, Z)
