"""Preconditioners, triangular solves with several right-hand sides, banded solvers and colouring,
in rocSPARSE's stages and check order.

- csrilu0 / csric0 / bsrilu0 (``*_buffer_size``, ``*_analysis``, the factorization, ``*_zero_pivot``,
  ``*_clear``; csrilu0 and csric0 also ``*_singular_pivot``, ``*_set_tolerance``,
  ``*_get_tolerance``; csrilu0 and bsrilu0 ``*_numeric_boost``, and for s / c the ``ds`` / ``dc``
  variants whose tolerance is a double, compared as such): incomplete factorizations with no
  fill-in, in place, rows scheduled by the level analysis of the lower triangle.  ILU0 leaves the
  unit lower factor in the strictly lower part and U in the rest (BSR: the same on the block
  pattern, each block dense); IC0 leaves L with ``A ~ L L^H`` in the lower triangle (the upper
  one untouched).  Complex IC0 follows the Hermitian factorization (rocSPARSE 6.3's kernel
  conjugates the other factor in its off-diagonal sums, which is no Cholesky factor unless those
  sums are real).  A pivot is a diagonal entry of U or L: a zero one (or a missing diagonal, found
  by the analysis unless the descriptor's diagonal is unit) is reported by ``*_zero_pivot`` as its
  (block) row plus the index base; a row depending on it is left partly factored.
- csrsm (``op(A) op(X) = alpha op(B)``, X overwriting the column-major B) and bsrsv
  (``y := op(A)^-1 alpha x``, op none or transpose): the triangle the descriptor's fill mode
  selects, transposed solves on the transposed structure built by the analysis, whose values are
  gathered into temp_buffer at each solve.  With ``trans_B`` conjugate-transpose the result is the
  documented ``X`` (rocSPARSE 6.3 stores its conjugate when ``nrhs > 1``).
- gtsv (LU with partial pivoting, as LAPACK's gtsv), gtsv_no_pivot, gtsv_interleaved_batch
  (thomas, lu, qr; default qr) and gpsv_interleaved_batch (pentadiagonal, qr): the matrices'
  diagonals are only read, the right-hand sides overwritten with the solutions; the first
  sub-diagonal entries and last super-diagonal entries of each system are not used.
- csrcolor: rocSPARSE's Jones-Plassmann-Luby colouring (its hash, its rounds), so the colours are
  rocSPARSE's; ``m == 0 || nnz == 0`` returns at once without writing anything (as rocSPARSE).

Analyses live in the ``mat_info``, per routine. The zero pivot is the info's one (``MatInfo.zero_pivot``,
shared with csrsv and spsv / spsm), as rocSPARSE's ``mat_info`` has one: every analysis that runs (not one
the reuse policy takes over from the info: its own, or another routine's of the same triangle, by
rocSPARSE's rules in ``_solve.SHARED_ANALYSES``) resets it and records its structural pivot, solves and
factorizations lower it, a unit-diagonal solve resets it first, and ``*_clear`` keeps it. csrsm_zero_pivot
and bsrsv_zero_pivot report it once any analysis made it; csrilu0_zero_pivot, csric0_zero_pivot and
bsrilu0_zero_pivot (and the singular-pivot queries) only while the routine's own analysis is in the info (-1
otherwise), whichever routine wrote the pivot last. The singular pivot (csrilu0, csric0: set to the zero
pivot by their analyses), the singular tolerance and the numeric boost are shared as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels_precond as kp
from . import _kernels_solve as ks
from ._api import Call, Routine, bind, host_scalar, is_null
from ._formats import _block_dim
from ._handle import MatDescr, MatInfo, check_descr, check_general_sorted, check_info
from ._solve import (
    TriangleAnalysis,
    _copy,
    _new_pivot,
    _round256,
    _set,
    analyse_triangle,
    analysis_of,
    launch_thomas,
    pivot_query,
    read_pivot,
    report_position,
    shared_analysis,
    singular_pivot_slot,
    triangle_buffer_size,
    zero_pivot_answer,
    zero_pivot_slot,
)
from ._types import (
    AnalysisPolicy,
    DiagType,
    Direction,
    FillMode,
    GpsvInterleavedAlg,
    GtsvInterleavedAlg,
    Operation,
    SolvePolicy,
    SparseInvalidValueError,
    SparseNotImplementedError,
)
from ._validate import check_csr

__all__ = [
    "bsrilu0_clear", "bsrilu0_zero_pivot", "bsrsv_clear", "bsrsv_zero_pivot", "cbsrilu0", "cbsrilu0_analysis",
    "cbsrilu0_buffer_size", "cbsrilu0_numeric_boost", "cbsrsv_analysis", "cbsrsv_buffer_size", "cbsrsv_solve",
    "ccsrcolor", "ccsric0", "ccsric0_analysis", "ccsric0_buffer_size", "ccsrilu0", "ccsrilu0_analysis",
    "ccsrilu0_buffer_size", "ccsrilu0_numeric_boost", "ccsrsm_analysis", "ccsrsm_buffer_size", "ccsrsm_solve",
    "cgpsv_interleaved_batch", "cgpsv_interleaved_batch_buffer_size", "cgtsv", "cgtsv_buffer_size",
    "cgtsv_interleaved_batch", "cgtsv_interleaved_batch_buffer_size", "cgtsv_no_pivot", "cgtsv_no_pivot_buffer_size",
    "csric0_clear", "csric0_get_tolerance", "csric0_set_tolerance", "csric0_singular_pivot", "csric0_zero_pivot",
    "csrilu0_clear", "csrilu0_get_tolerance", "csrilu0_set_tolerance", "csrilu0_singular_pivot", "csrilu0_zero_pivot",
    "csrsm_clear", "csrsm_zero_pivot", "dbsrilu0", "dbsrilu0_analysis", "dbsrilu0_buffer_size",
    "dbsrilu0_numeric_boost", "dbsrsv_analysis", "dbsrsv_buffer_size", "dbsrsv_solve", "dcbsrilu0_numeric_boost",
    "dccsrilu0_numeric_boost", "dcsrcolor", "dcsric0", "dcsric0_analysis", "dcsric0_buffer_size", "dcsrilu0",
    "dcsrilu0_analysis", "dcsrilu0_buffer_size", "dcsrilu0_numeric_boost", "dcsrsm_analysis", "dcsrsm_buffer_size",
    "dcsrsm_solve", "dgpsv_interleaved_batch", "dgpsv_interleaved_batch_buffer_size", "dgtsv", "dgtsv_buffer_size",
    "dgtsv_interleaved_batch", "dgtsv_interleaved_batch_buffer_size", "dgtsv_no_pivot", "dgtsv_no_pivot_buffer_size",
    "dsbsrilu0_numeric_boost", "dscsrilu0_numeric_boost", "sbsrilu0", "sbsrilu0_analysis", "sbsrilu0_buffer_size",
    "sbsrilu0_numeric_boost", "sbsrsv_analysis", "sbsrsv_buffer_size", "sbsrsv_solve", "scsrcolor", "scsric0",
    "scsric0_analysis", "scsric0_buffer_size", "scsrilu0", "scsrilu0_analysis", "scsrilu0_buffer_size",
    "scsrilu0_numeric_boost", "scsrsm_analysis", "scsrsm_buffer_size", "scsrsm_solve", "sgpsv_interleaved_batch",
    "sgpsv_interleaved_batch_buffer_size", "sgtsv", "sgtsv_buffer_size", "sgtsv_interleaved_batch",
    "sgtsv_interleaved_batch_buffer_size", "sgtsv_no_pivot", "sgtsv_no_pivot_buffer_size", "zbsrilu0",
    "zbsrilu0_analysis", "zbsrilu0_buffer_size", "zbsrilu0_numeric_boost", "zbsrsv_analysis", "zbsrsv_buffer_size",
    "zbsrsv_solve", "zcsrcolor", "zcsric0", "zcsric0_analysis", "zcsric0_buffer_size", "zcsrilu0", "zcsrilu0_analysis",
    "zcsrilu0_buffer_size", "zcsrilu0_numeric_boost", "zcsrsm_analysis", "zcsrsm_buffer_size", "zcsrsm_solve",
    "zgpsv_interleaved_batch", "zgpsv_interleaved_batch_buffer_size", "zgtsv", "zgtsv_buffer_size",
    "zgtsv_interleaved_batch", "zgtsv_interleaved_batch_buffer_size", "zgtsv_no_pivot", "zgtsv_no_pivot_buffer_size",
]

# --- what a mat_info keeps -----------------------------------------------------------------------


@dataclass
class Boost:
    """``*_numeric_boost``'s setting: host values, or device views read when the factorization runs; the
    tolerance is of the precision's real type, or double (``double_tol``: the ds / dc variants)."""

    host: bool
    tol: Any
    val: Any
    dtype: np.dtype[Any]
    double_tol: bool = False


@dataclass
class PrecondInfo:
    """The analyses (by routine, transposed, fill mode), singular tolerance and numeric boost of this
    module's routines, kept in a ``mat_info`` (their pivots are the info's own: ``MatInfo.zero_pivot`` and
    ``MatInfo.singular_pivot``)."""

    analyses: dict[tuple[str, bool, FillMode], TriangleAnalysis] = field(default_factory=dict)
    # As rocSPARSE's copy_mat_info: the boost setting is always copied, the tolerance never.
    singular_tol: float = field(default=0.0, metadata={"copy": "never"})
    boost: Boost | None = field(default=None, metadata={"copy": "always"})


def _state(info: MatInfo) -> PrecondInfo:
    """``info``'s state of these routines, created empty at first use."""
    if not isinstance(info.precond, PrecondInfo):
        info.precond = PrecondInfo()
    return info.precond


def _state_of(info: MatInfo) -> PrecondInfo | None:
    """``info``'s state of these routines, None before any of them used it."""
    return info.precond if isinstance(info.precond, PrecondInfo) else None


# --- shared checks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """Parameter names of a CSR or BSR matrix argument."""

    bsr: bool
    m: str
    nnz: str
    val: str
    row_ptr: str
    col_ind: str


_CSR = _Layout(False, "m", "nnz", "csr_val", "csr_row_ptr", "csr_col_ind")
_BSR = _Layout(True, "mb", "nnzb", "bsr_val", "bsr_row_ptr", "bsr_col_ind")
#: The routines whose analysis schedules the lower triangle's rows (whatever the fill mode).
_FACTORIZATIONS = ("csrilu0", "csric0", "bsrilu0", "bsric0")


def _general_sorted(c: Call) -> MatDescr:
    """The descriptor: present, general, sorted (rocSPARSE's three descriptor checks)."""
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    return check_general_sorted(descr, c.fname, "descr", c.index("descr"))


def _matrix(c: Call, lay: _Layout) -> tuple[int, int, int, MatDescr]:
    """Sizes, descriptor, arrays (and block_dim) in the order of rocSPARSE's factorizations."""
    m, nnz = c.size(lay.m), c.size(lay.nnz)
    descr = _general_sorted(c)
    c.check_array(lay.val, nnz)
    c.check_array(lay.row_ptr, m)
    c.check_array(lay.col_ind, nnz)
    bd = _block_dim(c) if lay.bsr else 1
    return m, nnz, bd, descr


def _int_arg(c: Call, name: str) -> int:
    v = c.values[name]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise c.invalid_size(name, f"must be an integer, got {v!r}")
    return int(v)


def _temp(c: Call, offset: int, dtype: Any, shape: tuple[int, ...]) -> Buffer:
    """A view of temp_buffer ``offset`` bytes in."""
    return Buffer(c.ptr("temp_buffer") + offset, np.dtype(dtype), shape, name="temp_buffer", owner=c["temp_buffer"])


def _analyse(c: Call, lay: _Layout, m: int, nnz: int, descr: MatDescr, kind: str, transposed: bool,
             policy: AnalysisPolicy) -> bool:
    """Level-schedule the triangle ``kind``'s solves use (the factorizations: the lower one's rows; the
    triangular solves: descr's fill mode, of the transposed structure when ``transposed``) into info, unless
    the reuse policy finds one there (its own, or another routine's: :data:`SHARED_ANALYSES`; False
    returned); the info's zero pivot is reset to the first missing diagonal (unless the diagonal is unit),
    index base included."""
    info = check_info(c["info"], "info", c.index("info"))
    st = _state(info)
    fill = FillMode.lower if kind in _FACTORIZATIONS else descr.fill_mode
    key = (kind, transposed, fill)
    found = shared_analysis(info, key) if policy is AnalysisPolicy.reuse else None
    if found is not None and (found.t_ptr is None or transposed):
        st.analyses[key] = found
        return False
    itype = c.index_dtype(lay.row_ptr, lay.col_ind)
    row_ptr, col_ind = c.array(lay.row_ptr, m + 1, itype), c.array(lay.col_ind, nnz, itype)
    check_csr(c, row_ptr, col_ind, int(descr.base), nnz, m)  # checking mode (BSR: block rows and columns)
    # A factorization taking over a transposed upper analysis (rocSPARSE's csrilu0 and csric0 do: the same
    # rows for a structurally symmetric matrix) walks the matrix as given: its schedule is made again, the
    # info's zero pivot left as the reuse leaves it.
    pivot = zero_pivot_slot(info) if found is None else _new_pivot()
    st.analyses[key] = analyse_triangle(c, row_ptr, col_ind, m, nnz, int(descr.base), fill is FillMode.upper,
                                        transposed, descr.diag_type is DiagType.unit, pivot)
    return found is None


def _analysis_of(c: Call, st: PrecondInfo | None, key: tuple[str, bool, FillMode], m: int,
                 nnz: int) -> TriangleAnalysis:
    return analysis_of(c, st.analyses if st is not None else None, key, m, nnz, "info",
                       f"{key[0]}_analysis was not run for this matrix" + (" (transposed)" if key[1] else "")
                       + f", fill mode {key[2].name}")


# --- pivots, tolerance, boost, clear --------------------------------------------------------------


def _own_analysis(info: MatInfo, kind: str) -> bool:
    """Whether ``info`` holds the factorization ``kind``'s analysis (rocSPARSE's ``csrilu0_info`` ...)."""
    st = _state_of(info)
    return st is not None and (kind, False, FillMode.lower) in st.analyses


def _zero_pivot(c: Call, kind: str, factor: bool) -> Any:
    """The info's one zero pivot: the factorizations' queries report it only while their own analysis is in
    the info (rocsparse_csrilu0.cpp, rocsparse_csric0.cpp, rocsparse_bsrilu0.cpp), csrsm's and bsrsv's once
    any analysis made it (rocsparse_csrsm.cpp, rocsparse_bsrsv.cpp)."""
    info = pivot_query(c)
    live = not factor or _own_analysis(info, kind)
    return zero_pivot_answer(c, info.zero_pivot if live else None, "(block) row")


def _singular_pivot(c: Call, kind: str) -> Any:
    info = pivot_query(c)
    pos = -1
    if _own_analysis(info, kind):
        found = [p for p in (read_pivot(c, info.zero_pivot), read_pivot(c, info.singular_pivot)) if p >= 0]
        pos = min(found) if found else -1
    return report_position(c, pos)


def _set_tolerance(c: Call) -> None:
    info = check_info(c["info"], "info", c.index("info"))
    tol = c.values["tolerance"]
    try:
        value = float(tol)
    except (TypeError, ValueError):
        raise c.invalid_value("tolerance", f"expected a number, got {type(tol).__name__}") from None
    if value < 0:  # as rocSPARSE's test: a NaN is stored (no pivot is then singular)
        raise c.invalid_value("tolerance", f"must be non-negative, got {tol!r}")
    _state(info).singular_tol = value


def _get_tolerance(c: Call) -> float:
    info = check_info(c["info"], "info", c.index("info"))
    st = _state_of(info)
    return st.singular_tol if st is not None else 0.0


def _clear(c: Call, kind: str) -> None:
    info = check_info(c["info"], "info", c.index("info"))
    st = _state_of(info)
    if st is not None:
        for key in [k for k in st.analyses if k[0] == kind]:
            del st.analyses[key]


def _numeric_boost(c: Call, double_tol: bool) -> None:
    info = check_info(c["info"], "info", c.index("info"))
    st = _state(info)
    st.boost = None
    enable = c.values["enable_boost"]
    if isinstance(enable, (bool, int, np.integer)) and not int(enable):
        return
    if not isinstance(enable, (bool, int, np.integer)):
        raise c.invalid_value("enable_boost", f"expected an int, got {type(enable).__name__}")
    c.pointer("boost_tol")
    c.pointer("boost_val")
    real = np.dtype(np.float64) if double_tol else np.dtype(c.dtype.type(0).real.dtype)
    if c.host_mode:
        st.boost = Boost(True, host_scalar(c["boost_tol"], real, "boost_tol", c.index("boost_tol")),
                         host_scalar(c["boost_val"], c.dtype, "boost_val", c.index("boost_val")), c.dtype, double_tol)
    else:
        st.boost = Boost(False, c.array("boost_tol", 1, real), c.array("boost_val", 1), c.dtype, double_tol)


def _boost_args(c: Call, st: PrecondInfo) -> tuple[bool, Any, Any]:
    """The factorization kernel's boost arguments.  The tolerance goes in double whatever the precision: comparing
    a pivot's magnitude with a tolerance of its own real type gives the same answer in double, and the ds / dc
    variants' double tolerance is compared as it is, as rocSPARSE does."""
    b = st.boost
    if b is None:
        return False, np.zeros(1, np.float64), np.zeros(1, c.dtype)
    if b.host:
        return True, np.array([b.tol], np.float64), np.array([b.val], c.dtype)
    if b.dtype != c.dtype:
        raise SparseInvalidValueError(f"the numeric boost is set for {b.dtype} on the device, not {c.dtype}",
                                      arg="info", index=c.index("info"))
    if b.double_tol or b.tol.dtype == np.float64:
        return True, b.tol, b.val
    tol = rocmath.empty(1, np.float64)
    c.launch(_copy, b.tol, tol, bytes=12.0)  # read when the factorization runs, as the value itself
    return True, tol, b.val


_INFO_ONLY = ("info",)
_PIVOT_PARAMS = ("info", "position")
_ZP_DOC = ("The info's zero pivot's (block) row, index base included, whichever routine on the info recorded it "
           "last: -1 when there is none (host pointer mode returns it, device mode writes it to position, a "
           "rocsparse_int), else SparseZeroPivotError with .position (also written in device mode).")
_SP_DOC = ("The first singular pivot's row (|pivot| <= the tolerance, or a zero pivot), index base included, -1 "
           "when there is none: returned in host pointer mode, written to position in device mode.")


# --- csrilu0 / csric0 / bsrilu0 --------------------------------------------------------------------


def _factor_buffer_size(c: Call, lay: _Layout) -> int:
    if lay.bsr:
        c.enum("dir", Direction)
    m, _, _, _ = _matrix(c, lay)
    check_info(c["info"], "info", c.index("info"))
    if m == 0:
        return 0
    # csrsv's size for the same pattern; the factorizations keep one int32 pivot flag per (block) row in it.
    return triangle_buffer_size(m, c.index_dtype(lay.row_ptr, lay.col_ind).itemsize)


def _factor_analysis(c: Call, lay: _Layout, kind: str, singular: bool) -> None:
    if lay.bsr:
        c.enum("dir", Direction)
    m, nnz, _, descr = _matrix(c, lay)
    info = check_info(c["info"], "info", c.index("info"))
    policy = c.enum("analysis", AnalysisPolicy)
    c.enum("solve", SolvePolicy)
    c.check_array("temp_buffer", m)
    if m == 0:
        return
    if _analyse(c, lay, m, nnz, descr, kind, False, policy) and singular:
        c.launch(_copy, zero_pivot_slot(info), singular_pivot_slot(info), bytes=8.0)


def _factorize(c: Call, lay: _Layout, kind: str) -> None:
    if kind == "csrilu0" and c.size("m") == 0:  # csrilu0 returns before its other checks
        return
    if lay.bsr:
        c.enum("dir", Direction)
    m, nnz, bd, descr = _matrix(c, lay)
    info = check_info(c["info"], "info", c.index("info"))
    c.enum("policy", SolvePolicy)
    c.check_array("temp_buffer", m)
    if m == 0:
        return
    st = _state_of(info)
    a = _analysis_of(c, st, (kind, False, FillMode.lower), m, nnz)
    assert st is not None
    itype = c.index_dtype(lay.row_ptr, lay.col_ind)
    nval = nnz * bd * bd
    val = c.array(lay.val, nval)
    row_ptr, col_ind = c.array(lay.row_ptr, m + 1, itype), c.array(lay.col_ind, nnz, itype)
    flags = _temp(c, 0, np.int32, (m,))
    isz = c.dtype.itemsize
    moved = float(2 * nval * isz + nnz * itype.itemsize + m * 40)
    zp = zero_pivot_slot(info)
    sp = singular_pivot_slot(info) if kind != "bsrilu0" else np.full(1, ks.NO_PIVOT, np.int64)
    if kind == "csric0":
        check_csr(c, row_ptr, col_ind, int(descr.base), nnz, m)  # checking mode: before the values are factored
        c.launch(kp.ic0, val, row_ptr, col_ind, a.base, a.diag, st.singular_tol, flags, zp, sp,
                 flops=float(2 * nnz) * (4.0 if c.dtype.kind == "c" else 1.0), bytes=moved)
        return
    direction = c.enum("dir", Direction) if lay.bsr else Direction.row
    boost, btol, bval = _boost_args(c, st)
    check_csr(c, row_ptr, col_ind, int(descr.base), nnz, m)  # checking mode (BSR: block rows and columns)
    c.launch(kp.ilu0, direction is Direction.row, bd, val, row_ptr, col_ind, a.base, a.diag, boost, btol, bval,
             st.singular_tol, flags, zp, sp,
             flops=float(2 * nval * bd) * (4.0 if c.dtype.kind == "c" else 1.0), bytes=moved)


_CSR_FACTOR = ("m", "nnz", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info")
_BSR_FACTOR = ("dir", "mb", "nnzb", "descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind", "block_dim", "info")
_ANALYSIS_TAIL = ("analysis", "solve", "temp_buffer")
_COMPUTE_TAIL = ("policy", "temp_buffer")
_BOOST_PARAMS = ("info", "enable_boost", "boost_tol", "boost_val")
_BOOST_DOC = ("enable_boost != 0: csrilu0 and bsrilu0 (the setting is shared, as in rocSPARSE) replace a pivot with "
              "|pivot| <= boost_tol by boost_val (host values, or device pointers read when the factorization runs); "
              "0: off.  boost_tol is {tol}.")


def _factorization(kind: str, lay: _Layout, singular: bool, analysis_doc: str,
                   factor_doc: str) -> tuple[Routine, Routine, Routine]:
    """The buffer_size, analysis and factorization stages of csrilu0, csric0 or bsrilu0 (``singular``: the
    analysis also resets the singular pivot)."""
    params = _BSR_FACTOR if lay.bsr else _CSR_FACTOR
    return (Routine(f"{kind}_buffer_size", params, lambda c: _factor_buffer_size(c, lay),
                    f"Bytes of temp_buffer {kind}_analysis and {kind} need (returned): csrsv_buffer_size's for the "
                    "same pattern, so one buffer serves both."),
            Routine(f"{kind}_analysis", params + _ANALYSIS_TAIL, lambda c: _factor_analysis(c, lay, kind, singular),
                    analysis_doc),
            Routine(kind, params + _COMPUTE_TAIL, lambda c: _factorize(c, lay, kind), factor_doc))


def _boost(kind: str, double_tol: bool) -> Routine:
    """``{kind}_numeric_boost``; ``double_tol``: the variant with a double tolerance (``ds`` / ``dc`` names)."""
    return Routine(f"{kind}_numeric_boost", _BOOST_PARAMS, lambda c: _numeric_boost(c, double_tol),
                   _BOOST_DOC.format(tol="a double" if double_tol else "a real of the precision"))


CSRILU0_BUFFER_SIZE, CSRILU0_ANALYSIS, CSRILU0 = _factorization(
    "csrilu0", _CSR, True,
    "Level-schedule a sorted CSR matrix's rows for csrilu0; records a structural zero pivot (a missing diagonal) in "
    "info.",
    "Incomplete LU factorization with no fill-in and no pivoting of a sorted CSR matrix, in place (L unit lower in "
    "the strictly lower part, U in the rest); pivots recorded in info.")
scsrilu0_buffer_size = bind(CSRILU0_BUFFER_SIZE, S)
dcsrilu0_buffer_size = bind(CSRILU0_BUFFER_SIZE, D)
ccsrilu0_buffer_size = bind(CSRILU0_BUFFER_SIZE, C)
zcsrilu0_buffer_size = bind(CSRILU0_BUFFER_SIZE, Z)
scsrilu0_analysis = bind(CSRILU0_ANALYSIS, S)
dcsrilu0_analysis = bind(CSRILU0_ANALYSIS, D)
ccsrilu0_analysis = bind(CSRILU0_ANALYSIS, C)
zcsrilu0_analysis = bind(CSRILU0_ANALYSIS, Z)
scsrilu0 = bind(CSRILU0, S)
dcsrilu0 = bind(CSRILU0, D)
ccsrilu0 = bind(CSRILU0, C)
zcsrilu0 = bind(CSRILU0, Z)

CSRILU0_BOOST, CSRILU0_BOOST_DOUBLE_TOL = _boost("csrilu0", False), _boost("csrilu0", True)
scsrilu0_numeric_boost = bind(CSRILU0_BOOST, S)
dcsrilu0_numeric_boost = bind(CSRILU0_BOOST, D)
ccsrilu0_numeric_boost = bind(CSRILU0_BOOST, C)
zcsrilu0_numeric_boost = bind(CSRILU0_BOOST, Z)
dscsrilu0_numeric_boost = bind(CSRILU0_BOOST_DOUBLE_TOL, S, prefix="ds")
dccsrilu0_numeric_boost = bind(CSRILU0_BOOST_DOUBLE_TOL, C, prefix="dc")

csrilu0_zero_pivot = bind(Routine("csrilu0_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "csrilu0", True),
                                  _ZP_DOC), None)
csrilu0_singular_pivot = bind(Routine("csrilu0_singular_pivot", _PIVOT_PARAMS,
                                      lambda c: _singular_pivot(c, "csrilu0"), _SP_DOC), None)
csrilu0_set_tolerance = bind(Routine("csrilu0_set_tolerance", ("info", "tolerance"), _set_tolerance,
                                     "The singular-pivot tolerance (>= 0, default 0) of csrilu0 and csric0."), None)
csrilu0_get_tolerance = bind(Routine("csrilu0_get_tolerance", _INFO_ONLY, _get_tolerance,
                                     "The singular-pivot tolerance (returned)."), None)
csrilu0_clear = bind(Routine("csrilu0_clear", _INFO_ONLY, lambda c: _clear(c, "csrilu0"),
                             "Free csrilu0's analysis in info (csrilu0_zero_pivot then reads -1; the info's zero pivot "
                             "stays)."), None)

CSRIC0_BUFFER_SIZE, CSRIC0_ANALYSIS, CSRIC0 = _factorization(
    "csric0", _CSR, True,
    "Level-schedule a sorted CSR matrix's lower triangle for csric0; records a structural zero pivot in info.",
    "Incomplete Cholesky factorization with no fill-in of a sorted CSR matrix's lower triangle, in place "
    "(A ~ L L^H); pivots recorded in info.")
scsric0_buffer_size = bind(CSRIC0_BUFFER_SIZE, S)
dcsric0_buffer_size = bind(CSRIC0_BUFFER_SIZE, D)
ccsric0_buffer_size = bind(CSRIC0_BUFFER_SIZE, C)
zcsric0_buffer_size = bind(CSRIC0_BUFFER_SIZE, Z)
scsric0_analysis = bind(CSRIC0_ANALYSIS, S)
dcsric0_analysis = bind(CSRIC0_ANALYSIS, D)
ccsric0_analysis = bind(CSRIC0_ANALYSIS, C)
zcsric0_analysis = bind(CSRIC0_ANALYSIS, Z)
scsric0 = bind(CSRIC0, S)
dcsric0 = bind(CSRIC0, D)
ccsric0 = bind(CSRIC0, C)
zcsric0 = bind(CSRIC0, Z)

csric0_zero_pivot = bind(Routine("csric0_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "csric0", True),
                                 _ZP_DOC), None)
csric0_singular_pivot = bind(Routine("csric0_singular_pivot", _PIVOT_PARAMS, lambda c: _singular_pivot(c, "csric0"),
                                     _SP_DOC), None)
csric0_set_tolerance = bind(Routine("csric0_set_tolerance", ("info", "tolerance"), _set_tolerance,
                                    "The singular-pivot tolerance (>= 0, default 0) of csric0 and csrilu0."), None)
csric0_get_tolerance = bind(Routine("csric0_get_tolerance", _INFO_ONLY, _get_tolerance,
                                    "The singular-pivot tolerance (returned)."), None)
csric0_clear = bind(Routine("csric0_clear", _INFO_ONLY, lambda c: _clear(c, "csric0"),
                            "Free csric0's analysis in info (csric0_zero_pivot then reads -1; the info's zero pivot "
                            "stays)."), None)

BSRILU0_BUFFER_SIZE, BSRILU0_ANALYSIS, BSRILU0 = _factorization(
    "bsrilu0", _BSR, False,
    "Level-schedule a sorted BSR matrix's block rows for bsrilu0; records a structural zero pivot (a missing diagonal "
    "block) in info.",
    "Incomplete LU factorization with no fill-in of a sorted BSR matrix (blocks dense, dir their storage order), in "
    "place; a zero pivot is reported by block row.")
sbsrilu0_buffer_size = bind(BSRILU0_BUFFER_SIZE, S)
dbsrilu0_buffer_size = bind(BSRILU0_BUFFER_SIZE, D)
cbsrilu0_buffer_size = bind(BSRILU0_BUFFER_SIZE, C)
zbsrilu0_buffer_size = bind(BSRILU0_BUFFER_SIZE, Z)
sbsrilu0_analysis = bind(BSRILU0_ANALYSIS, S)
dbsrilu0_analysis = bind(BSRILU0_ANALYSIS, D)
cbsrilu0_analysis = bind(BSRILU0_ANALYSIS, C)
zbsrilu0_analysis = bind(BSRILU0_ANALYSIS, Z)
sbsrilu0 = bind(BSRILU0, S)
dbsrilu0 = bind(BSRILU0, D)
cbsrilu0 = bind(BSRILU0, C)
zbsrilu0 = bind(BSRILU0, Z)

BSRILU0_BOOST, BSRILU0_BOOST_DOUBLE_TOL = _boost("bsrilu0", False), _boost("bsrilu0", True)
sbsrilu0_numeric_boost = bind(BSRILU0_BOOST, S)
dbsrilu0_numeric_boost = bind(BSRILU0_BOOST, D)
cbsrilu0_numeric_boost = bind(BSRILU0_BOOST, C)
zbsrilu0_numeric_boost = bind(BSRILU0_BOOST, Z)
dsbsrilu0_numeric_boost = bind(BSRILU0_BOOST_DOUBLE_TOL, S, prefix="ds")
dcbsrilu0_numeric_boost = bind(BSRILU0_BOOST_DOUBLE_TOL, C, prefix="dc")

bsrilu0_zero_pivot = bind(Routine("bsrilu0_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "bsrilu0", True),
                                  _ZP_DOC), None)
bsrilu0_clear = bind(Routine("bsrilu0_clear", _INFO_ONLY, lambda c: _clear(c, "bsrilu0"),
                             "Free bsrilu0's analysis in info (bsrilu0_zero_pivot then reads -1; the info's zero pivot "
                             "stays)."), None)


# --- csrsm -----------------------------------------------------------------------------------------


def _csrsm_check(c: Call, stage: str) -> tuple[Operation, Operation, int, int, int, int, MatDescr | None]:
    """rocSPARSE's csrsm checks up to the quick return (``descr`` None when it returns), then the rest."""
    trans_a, trans_b = c.enum("trans_A", Operation), c.enum("trans_B", Operation)
    m, nrhs, nnz = c.size("m"), c.size("nrhs"), c.size("nnz")
    ldb = _int_arg(c, "ldb")
    if trans_b is Operation.none and ldb < m:
        raise c.invalid_size("ldb", f"must be >= m = {m}, got {ldb}")
    if trans_b is not Operation.none and ldb < nrhs:
        raise c.invalid_size("ldb", f"must be >= nrhs = {nrhs} for a transposed B, got {ldb}")
    if m == 0 or nrhs == 0:
        return trans_a, trans_b, m, nrhs, nnz, ldb, None
    descr = _general_sorted(c)
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    check_info(c["info"], "info", c.index("info"))
    if stage == "analysis":
        c.enum("analysis", AnalysisPolicy)
        c.enum("solve", SolvePolicy)
    else:
        c.enum("policy", SolvePolicy)
    if stage == "solve":
        c.pointer("temp_buffer")
    c.pointer("alpha")
    c.pointer("B")
    if stage == "analysis":
        c.pointer("temp_buffer")
    return trans_a, trans_b, m, nrhs, nnz, ldb, descr


def _csrsm_buffer_size(c: Call) -> int:
    trans_a, _, m, _, nnz, _, descr = _csrsm_check(c, "buffer_size")
    if descr is None:
        return 0
    return _trsm_buffer_size(c, trans_a, m, nnz)


def _csrsm_analysis(c: Call) -> None:
    trans_a, _, m, _, nnz, _, descr = _csrsm_check(c, "analysis")
    if descr is None:
        return
    _analyse(c, _CSR, m, nnz, descr, "csrsm", trans_a is not Operation.none, c.enum("analysis", AnalysisPolicy))


def _trsm_buffer_size(c: Call, trans: Operation, m: int, nval: int) -> int:
    """csrsm's and bsrsv's temp_buffer: one int32 pivot flag per (block) row, then for a transposed solve the
    ``nval`` values gathered in the transposed order at each solve (the layout :func:`_launch_trsm` uses)."""
    return _round256(4 * m) + (_round256(c.dtype.itemsize * nval) if trans is not Operation.none else 0)


def _launch_trsm(c: Call, lay: _Layout, kind: str, trans: Operation, m: int, nnz: int, bd: int, row_major: bool,
                 descr: MatDescr, conj_b: bool, X: Buffer, Y: Buffer) -> None:
    """The analysed triangle's solve ``Y := op(T)^-1 alpha X`` (conj_b: of the conjugated system)."""
    info = check_info(c["info"], "info", c.index("info"))
    st = _state_of(info)
    transposed = trans is not Operation.none
    a = _analysis_of(c, st, (kind, transposed, descr.fill_mode), m, nnz)
    zp = zero_pivot_slot(info)
    itype = c.index_dtype(lay.row_ptr, lay.col_ind)
    if not transposed:  # checking mode: the caller's arrays, which the solve walks (a transposed one the analysis's)
        check_csr(c, c.array(lay.row_ptr, m + 1, itype), c.array(lay.col_ind, nnz, itype), int(descr.base), nnz, m)
    unit = descr.diag_type is DiagType.unit
    if unit:  # a unit diagonal has no pivots, not even the structural ones of the analysis
        c.launch(_set, zp, ks.NO_PIVOT, bytes=8.0)
    nval = nnz * bd * bd
    val = c.array(lay.val, nval)
    if transposed:
        assert a.t_ptr is not None and a.t_ind is not None and a.perm is not None
        row_ptr, col_ind, perm = a.t_ptr, a.t_ind[:nnz], a.perm[:nnz]
        tval: Any = _temp(c, _round256(4 * m), c.dtype, (nval,))
        row_major = not row_major  # a gathered block read in the other order is the block transposed
    else:
        row_ptr, col_ind = c.array(lay.row_ptr, m + 1, itype), c.array(lay.col_ind, nnz, itype)
        perm, tval = np.zeros(1, np.int64), np.zeros(1, c.dtype)
    cj = (trans is Operation.conjugate_transpose) != conj_b
    nrhs = X.shape[1]
    isz = c.dtype.itemsize
    c.launch(kp.trsm, c.scalar("alpha"), conj_b, cj, row_major, bd, val, transposed, perm, tval, row_ptr, col_ind,
             a.base, a.pivot_base, a.upper, unit, a.split, a.diag, a.level_ptr, a.row_map, a.nlevels, X, Y,
             _temp(c, 0, np.int32, (m,)), zp,
             flops=float(nval * nrhs) * (8.0 if c.dtype.kind == "c" else 2.0),
             bytes=float(nval * isz * (3 if transposed else 1) + nnz * itype.itemsize + 2 * m * bd * nrhs * isz))


def _csrsm_solve(c: Call) -> None:
    trans_a, trans_b, m, nrhs, nnz, ldb, descr = _csrsm_check(c, "solve")
    if descr is None:
        return
    isz = c.dtype.itemsize
    # op(B) as an m x nrhs view of B's memory: B itself (column-major), or the transpose of the nrhs x m B.
    strides = (isz, ldb * isz) if trans_b is Operation.none else (ldb * isz, isz)
    X = Buffer(c.ptr("B"), c.dtype, (m, nrhs), strides, name="B", owner=c["B"])
    _launch_trsm(c, _CSR, "csrsm", trans_a, m, nnz, 1, True, descr, trans_b is Operation.conjugate_transpose, X, X)


_CSRSM_HEAD = ("trans_A", "trans_B", "m", "nrhs", "nnz", "alpha", "descr", "csr_val", "csr_row_ptr", "csr_col_ind",
               "B", "ldb", "info")

CSRSM_BUFFER_SIZE = Routine("csrsm_buffer_size", (*_CSRSM_HEAD, "policy"), _csrsm_buffer_size,
                            "Bytes of temp_buffer csrsm_analysis and csrsm_solve need (returned).")
scsrsm_buffer_size = bind(CSRSM_BUFFER_SIZE, S)
dcsrsm_buffer_size = bind(CSRSM_BUFFER_SIZE, D)
ccsrsm_buffer_size = bind(CSRSM_BUFFER_SIZE, C)
zcsrsm_buffer_size = bind(CSRSM_BUFFER_SIZE, Z)

CSRSM_ANALYSIS = Routine("csrsm_analysis", _CSRSM_HEAD + _ANALYSIS_TAIL, _csrsm_analysis,
                         "Level-schedule the triangle (descr's fill mode) of a sorted CSR matrix, or of its "
                         "transpose, for csrsm_solve; records a structural zero pivot in info.")
scsrsm_analysis = bind(CSRSM_ANALYSIS, S)
dcsrsm_analysis = bind(CSRSM_ANALYSIS, D)
ccsrsm_analysis = bind(CSRSM_ANALYSIS, C)
zcsrsm_analysis = bind(CSRSM_ANALYSIS, Z)

CSRSM_SOLVE = Routine("csrsm_solve", _CSRSM_HEAD + _COMPUTE_TAIL, _csrsm_solve,
                      "Solve op(T) op(X) = alpha op(B) for the analysed triangle T, X overwriting the column-major "
                      "B (m x nrhs, or nrhs x m when trans_B transposes).")
scsrsm_solve = bind(CSRSM_SOLVE, S)
dcsrsm_solve = bind(CSRSM_SOLVE, D)
ccsrsm_solve = bind(CSRSM_SOLVE, C)
zcsrsm_solve = bind(CSRSM_SOLVE, Z)

csrsm_zero_pivot = bind(Routine("csrsm_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "csrsm", False),
                                _ZP_DOC), None)
csrsm_clear = bind(Routine("csrsm_clear", _INFO_ONLY, lambda c: _clear(c, "csrsm"),
                           "Free the csrsm analyses kept in info (the info's zero pivot stays)."), None)


# --- bsrsv -----------------------------------------------------------------------------------------


def _bsrsv_trans(c: Call) -> Operation:
    trans = c.enum("trans", Operation)
    if trans is Operation.conjugate_transpose:
        raise SparseNotImplementedError("bsrsv supports op none and transpose", arg="trans", index=c.index("trans"))
    return trans


def _bsrsv_buffer_size(c: Call) -> int:
    c.enum("dir", Direction)
    trans = c.enum("trans", Operation)
    mb, nnzb, bd, _ = _matrix(c, _BSR)
    check_info(c["info"], "info", c.index("info"))
    if mb == 0:
        return 0
    return _trsm_buffer_size(c, trans, mb, nnzb * bd * bd)


def _bsrsv_head(c: Call, policies: tuple[str, ...]) -> tuple[Operation, int, int, int, MatDescr]:
    """bsrsv_analysis's and bsrsv_solve's first checks: descr, info, the enums, the operation, sizes."""
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    check_info(c["info"], "info", c.index("info"))
    c.enum("dir", Direction)
    c.enum("trans", Operation)
    for name in policies:
        c.enum(name, AnalysisPolicy if name == "analysis" else SolvePolicy)
    trans = _bsrsv_trans(c)
    _general_sorted(c)
    mb, nnzb = c.size("mb"), c.size("nnzb")
    return trans, mb, nnzb, _block_dim(c), descr


def _bsrsv_analysis(c: Call) -> None:
    trans, mb, nnzb, _, descr = _bsrsv_head(c, ("analysis", "solve"))
    if mb == 0:
        return
    c.pointer("bsr_row_ptr")
    c.pointer("temp_buffer")
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_col_ind", nnzb)
    _analyse(c, _BSR, mb, nnzb, descr, "bsrsv", trans is not Operation.none, c.enum("analysis", AnalysisPolicy))


def _bsrsv_solve(c: Call) -> None:
    trans, mb, nnzb, bd, descr = _bsrsv_head(c, ("policy",))
    c.check_array("bsr_row_ptr", mb)
    c.check_array("x", mb)
    c.check_array("y", mb)
    if mb == 0:
        return
    c.pointer("alpha")
    c.pointer("temp_buffer")
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_col_ind", nnzb)
    n, isz = mb * bd, c.dtype.itemsize
    X = Buffer(c.ptr("x"), c.dtype, (n, 1), (isz, isz), name="x", owner=c["x"])
    Y = Buffer(c.ptr("y"), c.dtype, (n, 1), (isz, isz), name="y", owner=c["y"])
    _launch_trsm(c, _BSR, "bsrsv", trans, mb, nnzb, bd, c.enum("dir", Direction) is Direction.row, descr, False, X, Y)


_BSRSV_HEAD = ("dir", "trans", "mb", "nnzb", "descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind", "block_dim", "info")

BSRSV_BUFFER_SIZE = Routine("bsrsv_buffer_size", _BSRSV_HEAD, _bsrsv_buffer_size,
                            "Bytes of temp_buffer bsrsv_analysis and bsrsv_solve need (returned).")
sbsrsv_buffer_size = bind(BSRSV_BUFFER_SIZE, S)
dbsrsv_buffer_size = bind(BSRSV_BUFFER_SIZE, D)
cbsrsv_buffer_size = bind(BSRSV_BUFFER_SIZE, C)
zbsrsv_buffer_size = bind(BSRSV_BUFFER_SIZE, Z)

BSRSV_ANALYSIS = Routine("bsrsv_analysis", _BSRSV_HEAD + _ANALYSIS_TAIL, _bsrsv_analysis,
                         "Level-schedule the block triangle (descr's fill mode) of a sorted BSR matrix, or of its "
                         "transpose, for bsrsv_solve; records a structural zero pivot (by block row) in info.")
sbsrsv_analysis = bind(BSRSV_ANALYSIS, S)
dbsrsv_analysis = bind(BSRSV_ANALYSIS, D)
cbsrsv_analysis = bind(BSRSV_ANALYSIS, C)
zbsrsv_analysis = bind(BSRSV_ANALYSIS, Z)

BSRSV_SOLVE = Routine("bsrsv_solve", ("dir", "trans", "mb", "nnzb", "alpha", "descr", "bsr_val", "bsr_row_ptr",
                                      "bsr_col_ind", "block_dim", "info", "x", "y", "policy", "temp_buffer"),
                      _bsrsv_solve,
                      "y := op(T)^-1 alpha x for the analysed triangle T of a sorted BSR matrix (op none or "
                      "transpose; the diagonal blocks' triangles).")
sbsrsv_solve = bind(BSRSV_SOLVE, S)
dbsrsv_solve = bind(BSRSV_SOLVE, D)
cbsrsv_solve = bind(BSRSV_SOLVE, C)
zbsrsv_solve = bind(BSRSV_SOLVE, Z)

bsrsv_zero_pivot = bind(Routine("bsrsv_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "bsrsv", False),
                                _ZP_DOC), None)
bsrsv_clear = bind(Routine("bsrsv_clear", _INFO_ONLY, lambda c: _clear(c, "bsrsv"),
                           "Free the bsrsv analyses kept in info (the info's zero pivot stays)."), None)


# --- gtsv / gtsv_no_pivot --------------------------------------------------------------------------


def _gtsv_check(c: Call, buffer_size: bool) -> tuple[int, int, int]:
    m = c.size("m")
    if m <= 1:
        raise c.invalid_size("m", f"must be at least 2, got {m}")
    n = c.size("n")
    ldb = c.size("ldb") if buffer_size else _int_arg(c, "ldb")
    if ldb < max(1, m):
        raise c.invalid_size("ldb", f"must be >= max(1, m) = {max(1, m)}, got {ldb}")
    for name in ("dl", "d", "du", "B"):
        c.check_array(name, n)
    return m, n, ldb


def _shared_diagonal(c: Call, name: str, m: int, count: int) -> Buffer:
    """One diagonal seen as ``count`` identical rows (stride 0)."""
    return Buffer(c.ptr(name), c.dtype, (count, m), (0, c.dtype.itemsize), name=name, owner=c[name])


def _gtsv_buffer_size(c: Call) -> int:
    m, n, _ = _gtsv_check(c, True)
    # The working band of the LU factorization: four entries per row.
    return 0 if n == 0 else _round256(4 * m * c.dtype.itemsize)


def _gtsv(c: Call) -> None:
    m, n, ldb = _gtsv_check(c, False)
    c.check_array("temp_buffer", n)
    if n == 0:
        return
    isz = c.dtype.itemsize
    dl, d, du = (_shared_diagonal(c, name, m, 1) for name in ("dl", "d", "du"))
    X = Buffer(c.ptr("B"), c.dtype, (1, m, n), (0, isz, ldb * isz), name="B", owner=c["B"])
    c.launch(kp.band_solve, kp.BAND_LU, 1, dl, dl, d, du, du, X, _temp(c, 0, c.dtype, (m, 4)),
             flops=float(m * (3 + 5 * n)) * (4.0 if c.dtype.kind == "c" else 1.0),
             bytes=float((3 * m + 2 * m * n + 8 * m) * isz))


_GTSV_PARAMS = ("m", "n", "dl", "d", "du", "B", "ldb")

GTSV_BUFFER_SIZE = Routine("gtsv_buffer_size", _GTSV_PARAMS, _gtsv_buffer_size,
                           "Bytes of temp_buffer gtsv needs (returned; 0 when n == 0).")
sgtsv_buffer_size = bind(GTSV_BUFFER_SIZE, S)
dgtsv_buffer_size = bind(GTSV_BUFFER_SIZE, D)
cgtsv_buffer_size = bind(GTSV_BUFFER_SIZE, C)
zgtsv_buffer_size = bind(GTSV_BUFFER_SIZE, Z)

GTSV = Routine("gtsv", (*_GTSV_PARAMS, "temp_buffer"), _gtsv,
               "Solve the tridiagonal system (dl, d, du) X = B for n right-hand sides in place in the column-major "
               "B, by LU with partial pivoting (the diagonals are only read).")
sgtsv = bind(GTSV, S)
dgtsv = bind(GTSV, D)
cgtsv = bind(GTSV, C)
zgtsv = bind(GTSV, Z)


def _gtsv_no_pivot_buffer_size(c: Call) -> int:
    m, n, _ = _gtsv_check(c, True)
    if n == 0 or m <= 512:
        return 0
    # rocSPARSE's size (its cyclic-reduction stages); the Thomas solve shared with
    # gtsv_no_pivot_strided_batch needs none of it.
    isz = c.dtype.itemsize
    return 6 * _round256(isz * m) + 2 * _round256(isz * m * n)


def _gtsv_no_pivot(c: Call) -> None:
    m, n, ldb = _gtsv_check(c, False)
    if m > 512 and is_null(c["temp_buffer"]):
        raise c.invalid_pointer("temp_buffer", "required for m > 512")
    if n == 0:
        return
    isz = c.dtype.itemsize
    X = Buffer(c.ptr("B"), c.dtype, (n, m), (ldb * isz, isz), name="B", owner=c["B"])
    launch_thomas(c, *(_shared_diagonal(c, name, m, n) for name in ("dl", "d", "du")), X,
                  moved=float((3 * m + 2 * m * n) * isz))


GTSV_NO_PIVOT_BUFFER_SIZE = Routine("gtsv_no_pivot_buffer_size", _GTSV_PARAMS, _gtsv_no_pivot_buffer_size,
                                    "Bytes of temp_buffer gtsv_no_pivot needs (returned; 0 for m <= 512).")
sgtsv_no_pivot_buffer_size = bind(GTSV_NO_PIVOT_BUFFER_SIZE, S)
dgtsv_no_pivot_buffer_size = bind(GTSV_NO_PIVOT_BUFFER_SIZE, D)
cgtsv_no_pivot_buffer_size = bind(GTSV_NO_PIVOT_BUFFER_SIZE, C)
zgtsv_no_pivot_buffer_size = bind(GTSV_NO_PIVOT_BUFFER_SIZE, Z)

GTSV_NO_PIVOT = Routine("gtsv_no_pivot", (*_GTSV_PARAMS, "temp_buffer"), _gtsv_no_pivot,
                        "Solve the tridiagonal system (dl, d, du) X = B for n right-hand sides in place in the "
                        "column-major B, without pivoting.")
sgtsv_no_pivot = bind(GTSV_NO_PIVOT, S)
dgtsv_no_pivot = bind(GTSV_NO_PIVOT, D)
cgtsv_no_pivot = bind(GTSV_NO_PIVOT, C)
zgtsv_no_pivot = bind(GTSV_NO_PIVOT, Z)


# --- gtsv_interleaved_batch / gpsv_interleaved_batch -----------------------------------------------


def _interleaved_check(c: Call, diagonals: tuple[str, ...], penta: bool) -> tuple[int, int, int]:
    """rocSPARSE's order after alg: m, then batch_count, batch_stride and the arrays (gtsv), or the arrays
    and then batch_count, batch_stride (gpsv)."""
    m = c.size("m")
    if m < (3 if penta else 2):
        raise c.invalid_size("m", f"must be at least {3 if penta else 2}, got {m}")
    if penta:
        raw = c.values["batch_count"]
        length = int(raw) if isinstance(raw, (int, np.integer)) and not isinstance(raw, bool) else 0
        for name in (*diagonals, "x"):
            c.check_array(name, length)
    count = c.size("batch_count")
    stride = c.size("batch_stride") if penta else _int_arg(c, "batch_stride")
    if stride < count:
        raise c.invalid_size("batch_stride", f"must be >= batch_count = {count}, got {stride}")
    if not penta:
        for name in (*diagonals, "x"):
            c.check_array(name, count)
    return m, count, stride


def _interleaved(c: Call, name: str, m: int, count: int, stride: int, rhs: bool = False) -> Buffer:
    """System b's entries ``name[k * stride + b]`` as row b of a (count, m) view (``rhs``: (count, m, 1))."""
    isz = c.dtype.itemsize
    shape, strides = ((count, m, 1), (isz, stride * isz, isz)) if rhs else ((count, m), (isz, stride * isz))
    return Buffer(c.ptr(name), c.dtype, shape, strides, name=name, owner=c[name])


def _gtsv_interleaved_buffer_size(c: Call) -> int:
    alg = c.enum("alg", GtsvInterleavedAlg)
    m, count, _ = _interleaved_check(c, ("dl", "d", "du"), False)
    if count == 0:
        return 0
    isz = c.dtype.itemsize
    if alg is GtsvInterleavedAlg.thomas:
        # rocSPARSE's size (its c' and x' arrays); the Thomas solve shared with
        # gtsv_no_pivot_strided_batch keeps them in its own scratch.
        return 2 * _round256(isz * m * count)
    return _round256(isz * m * 4)  # the working band of one system


def _gtsv_interleaved(c: Call) -> None:
    alg = c.enum("alg", GtsvInterleavedAlg)
    m, count, stride = _interleaved_check(c, ("dl", "d", "du"), False)
    c.check_array("temp_buffer", count)
    if count == 0:
        return
    dl, d, du = (_interleaved(c, name, m, count, stride) for name in ("dl", "d", "du"))
    isz = c.dtype.itemsize
    cx = 4.0 if c.dtype.kind == "c" else 1.0
    if alg is GtsvInterleavedAlg.thomas:
        launch_thomas(c, dl, d, du, _interleaved(c, "x", m, count, stride), moved=float(5 * m * count * isz))
        return
    band = kp.BAND_LU if alg is GtsvInterleavedAlg.lu else kp.BAND_QR
    c.launch(kp.band_solve, band, 1, dl, dl, d, du, du, _interleaved(c, "x", m, count, stride, rhs=True),
             _temp(c, 0, c.dtype, (m, 4)), flops=float(16 * m * count) * cx,
             bytes=float(5 * m * count * isz + 8 * m * isz))


_GTSV_IB = ("alg", "m", "dl", "d", "du", "x", "batch_count", "batch_stride")

GTSV_INTERLEAVED_BUFFER_SIZE = Routine("gtsv_interleaved_batch_buffer_size", _GTSV_IB, _gtsv_interleaved_buffer_size,
                                       "Bytes of temp_buffer gtsv_interleaved_batch needs for alg (returned).")
sgtsv_interleaved_batch_buffer_size = bind(GTSV_INTERLEAVED_BUFFER_SIZE, S)
dgtsv_interleaved_batch_buffer_size = bind(GTSV_INTERLEAVED_BUFFER_SIZE, D)
cgtsv_interleaved_batch_buffer_size = bind(GTSV_INTERLEAVED_BUFFER_SIZE, C)
zgtsv_interleaved_batch_buffer_size = bind(GTSV_INTERLEAVED_BUFFER_SIZE, Z)

GTSV_INTERLEAVED = Routine("gtsv_interleaved_batch", (*_GTSV_IB, "temp_buffer"), _gtsv_interleaved,
                           "Solve batch_count tridiagonal systems stored interleaved (entry k of system b at "
                           "k * batch_stride + b) in place in x: thomas (no pivoting), lu (partial pivoting) or qr "
                           "(Givens; also the default).")
sgtsv_interleaved_batch = bind(GTSV_INTERLEAVED, S)
dgtsv_interleaved_batch = bind(GTSV_INTERLEAVED, D)
cgtsv_interleaved_batch = bind(GTSV_INTERLEAVED, C)
zgtsv_interleaved_batch = bind(GTSV_INTERLEAVED, Z)


def _gpsv_buffer_size(c: Call) -> int:
    c.enum("alg", GpsvInterleavedAlg)
    m, count, _ = _interleaved_check(c, ("ds", "dl", "d", "du", "dw"), True)
    return 0 if count == 0 else _round256(c.dtype.itemsize * m * 7)  # the working band of one system


def _gpsv(c: Call) -> None:
    c.enum("alg", GpsvInterleavedAlg)
    m, count, stride = _interleaved_check(c, ("ds", "dl", "d", "du", "dw"), True)
    c.check_array("temp_buffer", count)
    if count == 0:
        return
    diags = [_interleaved(c, name, m, count, stride) for name in ("ds", "dl", "d", "du", "dw")]
    isz = c.dtype.itemsize
    c.launch(kp.band_solve, kp.BAND_QR, 2, *diags, _interleaved(c, "x", m, count, stride, rhs=True),
             _temp(c, 0, c.dtype, (m, 7)), flops=float(60 * m * count) * (4.0 if c.dtype.kind == "c" else 1.0),
             bytes=float(7 * m * count * isz + 14 * m * isz))


_GPSV_IB = ("alg", "m", "ds", "dl", "d", "du", "dw", "x", "batch_count", "batch_stride")

GPSV_INTERLEAVED_BUFFER_SIZE = Routine("gpsv_interleaved_batch_buffer_size", _GPSV_IB, _gpsv_buffer_size,
                                       "Bytes of temp_buffer gpsv_interleaved_batch needs (returned).")
sgpsv_interleaved_batch_buffer_size = bind(GPSV_INTERLEAVED_BUFFER_SIZE, S)
dgpsv_interleaved_batch_buffer_size = bind(GPSV_INTERLEAVED_BUFFER_SIZE, D)
cgpsv_interleaved_batch_buffer_size = bind(GPSV_INTERLEAVED_BUFFER_SIZE, C)
zgpsv_interleaved_batch_buffer_size = bind(GPSV_INTERLEAVED_BUFFER_SIZE, Z)

GPSV_INTERLEAVED = Routine("gpsv_interleaved_batch", (*_GPSV_IB, "temp_buffer"), _gpsv,
                           "Solve batch_count pentadiagonal systems (ds, dl, d, du, dw) stored interleaved in place "
                           "in x, by Givens QR (m >= 3).")
sgpsv_interleaved_batch = bind(GPSV_INTERLEAVED, S)
dgpsv_interleaved_batch = bind(GPSV_INTERLEAVED, D)
cgpsv_interleaved_batch = bind(GPSV_INTERLEAVED, C)
zgpsv_interleaved_batch = bind(GPSV_INTERLEAVED, Z)


# --- csrcolor --------------------------------------------------------------------------------------


def _csrcolor(c: Call) -> int | None:
    m, nnz = c.size("m"), c.size("nnz")
    if m == 0 or nnz == 0:
        return None  # rocSPARSE returns without writing ncolors, coloring or reordering
    _general_sorted(c)
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    real = np.dtype(c.dtype.type(0).real.dtype)
    frac = host_scalar(c.pointer("fraction_to_color"), real, "fraction_to_color", c.index("fraction_to_color"))
    ncolors_out = c["ncolors"]
    if ncolors_out is not None and not (isinstance(ncolors_out, np.ndarray) and ncolors_out.size >= 1):
        raise c.invalid_pointer("ncolors", "expected None or a host integer array (the count is also returned)")
    c.check_array("coloring", m)
    check_info(c["info"], "info", c.index("info"))
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind", "coloring", "reordering")
    # rocSPARSE's ``m - m * fraction``, in the precision's real type, truncated to an int.
    max_uncolored = int(real.type(m) - real.type(m) * frac)
    want = not is_null(c["reordering"])
    reordering: Any = c.array("reordering", m, itype) if want else np.zeros(1, itype)
    out = np.zeros(1, np.int64)
    base = int(_descr_base(c))
    row_ptr, col_ind = c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype)
    check_csr(c, row_ptr, col_ind, base, nnz, m)  # checking mode: a column picks a vertex's colour and weight
    c.launch(kp.csrcolor, row_ptr, col_ind, base, max_uncolored, c.array("coloring", m, itype), want, reordering, out,
             bytes=float(nnz * itype.itemsize * 4 + m * 24)).wait()
    ncolors = int(out[0])
    if isinstance(ncolors_out, np.ndarray):
        ncolors_out.reshape(-1)[0] = ncolors
    return ncolors


def _descr_base(c: Call) -> int:
    return int(check_descr(c["descr"], "descr", c.index("descr")).base)


CSRCOLOR = Routine("csrcolor", ("m", "nnz", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "fraction_to_color",
                                "ncolors", "coloring", "reordering", "info"), _csrcolor,
                   "Colour the graph of a sorted CSR matrix with a symmetric pattern (no two neighbours share a "
                   "colour) until at most (1 - fraction_to_color) m vertices are left, which get colours of their "
                   "own; returns the number of colours (also written to ncolors when it is a host array), "
                   "coloring gets the colours and reordering (unless None) the vertices grouped by colour.")
scsrcolor = bind(CSRCOLOR, S)
dcsrcolor = bind(CSRCOLOR, D)
ccsrcolor = bind(CSRCOLOR, C)
zcsrcolor = bind(CSRCOLOR, Z)
