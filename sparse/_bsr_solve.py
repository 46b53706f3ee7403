"""BSR triangular solves with several right-hand sides (bsrsm), the incomplete Cholesky factorization of a
BSR matrix (bsric0), the masked BSR product (bsrxmv) and the padding of the last diagonal block
(bsrpad_value), in rocSPARSE's check order, with its statuses, quick returns and analysis sharing.

- bsrsm (``bsrsm_buffer_size``, ``bsrsm_analysis``, ``bsrsm_solve``, ``bsrsm_zero_pivot``,
  ``bsrsm_clear``): ``op(A) op(X) = alpha op(B)`` for the triangle of an ``mb x mb`` sorted BSR matrix
  the descriptor's fill mode selects (the diagonal blocks' triangles; unit or non-unit diagonal; blocks in
  ``dir`` order), ``op`` of trans_A and of trans_X none or transpose.  B (``ldb``) is only read, X
  (``ldx``) gets the solution: with trans_X none both are ``m x nrhs`` column-major (``m = mb block_dim``),
  with trans_X transpose ``nrhs x m``; the rows (columns) beyond those of each column of B and X are not
  touched.  It runs csrsm's and bsrsv's level-scheduled block solve (the analysis of the triangle, of the
  transposed structure for trans_A transpose, whose blocks are gathered into temp_buffer at each solve).
  rocSPARSE documents conjugate-transpose trans_A / trans_X as not implemented but checks for neither
  (its solve then walks the caller's structure on the transpose's schedule, and treats trans_X conjugate
  transpose as transpose): they raise ``not_implemented`` here, after every check rocSPARSE makes.
- bsric0 (``bsric0_buffer_size``, ``bsric0_analysis``, ``bsric0``, ``bsric0_zero_pivot``,
  ``bsric0_clear``): in place, the blocks left of the diagonal and the diagonal blocks' lower triangles
  become L with ``A ~ L L^H`` on that block pattern (no fill-in); the blocks right of the diagonal and the
  diagonal blocks' strict upper triangles are not touched.  Complex matrices follow the Hermitian
  factorization, as csric0 does (rocSPARSE's kernel conjugates the other factor in its sums, the
  conjugate of a Cholesky factor's entry); ``l_ii := sqrt(|a_ii - sum |l_ik|^2|)`` as rocSPARSE.  A zero
  pivot divides as 1 (as rocSPARSE's kernel); it, or a block row without diagonal block (whatever the
  diagonal type), is reported by block row plus the index base.
- bsrxmv: ``y := alpha A x + beta y`` on the block rows ``bsr_mask_ptr`` names (minus the index base;
  every block row when it is null, None or 0, which ``size_of_mask == 0`` allows; an empty device array is a
  mask of no rows), block row i's blocks from
  ``bsr_row_ptr[i]`` to ``bsr_end_ptr[i]`` (both of ``mb`` entries); the other block rows of y are not
  touched.  Operation none and ``block_dim > 1`` only (not_implemented otherwise, the block dimension
  checked before its own size check, as rocSPARSE).  ``mb == 0 || nb == 0`` scales the masked rows (all
  rows without a mask) by beta, multiplying (a NaN stays NaN), as rocSPARSE; its null beta or y is
  ``invalid_pointer`` (rocSPARSE: when both are null; one alone would be dereferenced), and with
  ``mb == 0`` nothing is written.  A block row named twice in the mask is updated twice, in mask order.
- bsrpad_value: for a BSR matrix of ``m`` rows padded to ``mb block_dim`` (``(mb - 1) block_dim < m <=
  mb block_dim``, invalid_size on m otherwise), ``value`` on the diagonal entries of the padding
  (``m % block_dim .. block_dim - 1``) of block row mb - 1's block in block column mb - 1: the last block of
  that row when the storage is sorted (nothing if it is in another column), the last one in that column
  otherwise, as rocSPARSE's two kernels.  ``value`` is a number whatever the pointer mode (rocSPARSE takes it
  by value).

Analyses live in the ``mat_info`` beside those of the other preconditioners (``PrecondInfo.analyses``) and
share its one zero pivot. With the reuse policy an analysis of the same triangle another routine made is taken
over instead of a new one (the zero pivot then stays as it is), by rocSPARSE's rules
(``rocmath.sparse._solve.SHARED_ANALYSES``). ``bsrsm_clear`` frees the non-transposed analyses only, as
rocSPARSE's (the transposed ones stay until the info is destroyed); ``bsrsm_zero_pivot`` reports the info's
pivot once any analysis made it, ``bsric0_zero_pivot`` only while bsric0's analysis is in the info. A solve or
factorization without its analysis raises ``invalid_pointer`` on info (rocSPARSE: bsric0 does; bsrsm reads a
null analysis).

Checking mode (``ROCMATH_CHECK=1``) scans the structures before the kernels read them: the analyses,
an untransposed solve and the factorization the BSR structure (block columns below mb); bsrxmv the mask
(below mb), the masked rows' offsets (within nnzb) and the block columns those rows cover (below nb);
bsrpad_value the block row offsets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rocmath.launch import Buffer
from rocmath.memory import checking_enabled
from rocmath.precision import C, D, S, Z

from . import _kernels_bsr_solve as kb
from ._api import Call, Routine, bind, host_scalar, is_null
from ._formats import _block_dim, _nothing_to_do
from ._handle import MatDescr, check_descr, check_general_sorted, check_info
from ._precond import (
    _ANALYSIS_TAIL,
    _BSR,
    _BSR_FACTOR,
    _COMPUTE_TAIL,
    _INFO_ONLY,
    _PIVOT_PARAMS,
    _ZP_DOC,
    _analyse,
    _analysis_of,
    _clear,
    _factor_buffer_size,
    _general_sorted,
    _launch_trsm,
    _matrix,
    _state_of,
    _temp,
    _zero_pivot,
)
from ._solve import _round256, zero_pivot_slot
from ._types import (
    AnalysisPolicy,
    Direction,
    FillMode,
    Operation,
    SolvePolicy,
    SparseNotImplementedError,
    StorageMode,
)
from ._validate import _fault, _indices, check_csr, check_offsets

__all__ = [
    "bsric0_clear", "bsric0_zero_pivot", "bsrsm_clear", "bsrsm_zero_pivot", "cbsric0", "cbsric0_analysis",
    "cbsric0_buffer_size", "cbsrpad_value", "cbsrsm_analysis", "cbsrsm_buffer_size", "cbsrsm_solve", "cbsrxmv",
    "dbsric0", "dbsric0_analysis", "dbsric0_buffer_size", "dbsrpad_value", "dbsrsm_analysis", "dbsrsm_buffer_size",
    "dbsrsm_solve", "dbsrxmv", "sbsric0", "sbsric0_analysis", "sbsric0_buffer_size", "sbsrpad_value",
    "sbsrsm_analysis", "sbsrsm_buffer_size", "sbsrsm_solve", "sbsrxmv", "zbsric0", "zbsric0_analysis",
    "zbsric0_buffer_size", "zbsrpad_value", "zbsrsm_analysis", "zbsrsm_buffer_size", "zbsrsm_solve", "zbsrxmv",
]

_LOWER, _UPPER = FillMode.lower, FillMode.upper
#: Right-hand-side columns per group in rocSPARSE's bsrsm (its buffer holds a done flag per group and block row).
_NCOL = 16


# --- analyses shared between routines ----------------------------------------------------------------------


# --- bsrsm -----------------------------------------------------------------------------------------------


def _bsrsm_check(c: Call, stage: str) -> tuple[Operation, Operation, int, int, int, int, MatDescr] | None:
    """rocSPARSE's bsrsm checks of ``stage`` (buffer_size, analysis or solve) in its order; None for the
    quick return (``mb == 0 || nrhs == 0``).  A conjugate-transpose operation, documented as not implemented,
    is refused last.  Returns ``(trans_A, trans_X, mb, nrhs, nnzb, block_dim, descr)``."""
    c.enum("dir", Direction)
    trans_a, trans_x = c.enum("trans_A", Operation), c.enum("trans_X", Operation)
    mb, nrhs = c.size("mb"), c.size("nrhs")
    if mb == 0 or nrhs == 0:
        return None
    nnzb = c.size("nnzb")
    if stage == "solve":
        c.pointer("alpha")
    descr = _general_sorted(c)
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    bd = _block_dim(c)
    check_info(c["info"], "info", c.index("info"))
    if stage == "analysis":
        c.enum("analysis", AnalysisPolicy)
        c.enum("solve", SolvePolicy)
        c.pointer("temp_buffer")
    elif stage == "solve":
        rows = mb * bd if trans_x is Operation.none else nrhs
        for array, ld in (("B", "ldb"), ("X", "ldx")):
            c.pointer(array)
            if c.size(ld) < rows:
                raise c.invalid_size(ld, f"must be >= {'m = mb * block_dim' if trans_x is Operation.none else 'nrhs'}"
                                         f" = {rows}, got {c[ld]}")
        c.enum("policy", SolvePolicy)
        c.pointer("temp_buffer")
    for name, trans in (("trans_A", trans_a), ("trans_X", trans_x)):
        if trans is Operation.conjugate_transpose:
            raise SparseNotImplementedError(f"{c.fname} supports operations none and transpose", arg=name,
                                            index=c.index(name))
    return trans_a, trans_x, mb, nrhs, nnzb, bd, descr


def _bsrsm_buffer_size(c: Call) -> int:
    checked = _bsrsm_check(c, "buffer_size")
    if checked is None:
        return 0
    trans_a, trans_x, mb, nrhs, nnzb, bd, _ = checked
    isz = c.dtype.itemsize
    # rocSPARSE's layout without its sort's scratch: done flags per group of 16 right-hand sides, two
    # per-row arrays, the transposed right-hand sides (trans_X none), the transposed structure and values
    # (trans_A transpose).  What the solve here keeps in it (a pivot flag per block row, the gathered
    # transposed blocks) fits.
    size = 256 + _round256(4 * mb * ((nrhs - 1) // _NCOL + 1)) + 2 * _round256(4 * mb)
    if trans_x is Operation.none:
        size += _round256(isz * mb * bd * nrhs)
    if trans_a is Operation.transpose:
        size += _round256(4 * nnzb) + _round256(isz * nnzb * bd * bd)
    return size


def _bsrsm_analysis(c: Call) -> None:
    checked = _bsrsm_check(c, "analysis")
    if checked is None:
        return
    trans_a, _, mb, _, nnzb, _, descr = checked
    transposed = trans_a is not Operation.none
    _analyse(c, _BSR, mb, nnzb, descr, "bsrsm", transposed, c.enum("analysis", AnalysisPolicy))


def _bsrsm_solve(c: Call) -> None:
    checked = _bsrsm_check(c, "solve")
    if checked is None:
        return
    trans_a, trans_x, mb, nrhs, nnzb, bd, descr = checked
    isz, n = c.dtype.itemsize, mb * bd
    # op(B) and op(X) as m x nrhs views: B and X themselves (column-major), or the transposes of the nrhs x m ones.
    views = []
    for array, ld in (("B", "ldb"), ("X", "ldx")):
        lead = int(c[ld]) * isz
        strides = (isz, lead) if trans_x is Operation.none else (lead, isz)
        views.append(Buffer(c.ptr(array), c.dtype, (n, nrhs), strides, name=array, owner=c[array]))
    _launch_trsm(c, _BSR, "bsrsm", trans_a, mb, nnzb, bd, c.enum("dir", Direction) is Direction.row, descr, False,
                 *views)


def _bsrsm_clear(c: Call) -> None:
    info = check_info(c["info"], "info", c.index("info"))
    st = _state_of(info)
    if st is not None:
        for fill in (_LOWER, _UPPER):  # rocsparse_bsrsm_clear: the non-transposed analyses only
            st.analyses.pop(("bsrsm", False, fill), None)


_BSRSM_HEAD = ("dir", "trans_A", "trans_X", "mb", "nrhs", "nnzb", "descr", "bsr_val", "bsr_row_ptr", "bsr_col_ind",
               "block_dim", "info")

BSRSM_BUFFER_SIZE = Routine("bsrsm_buffer_size", _BSRSM_HEAD, _bsrsm_buffer_size,
                            "Bytes of temp_buffer bsrsm_analysis and bsrsm_solve need (returned; 0 when mb == 0 or "
                            "nrhs == 0).")
sbsrsm_buffer_size = bind(BSRSM_BUFFER_SIZE, S)
dbsrsm_buffer_size = bind(BSRSM_BUFFER_SIZE, D)
cbsrsm_buffer_size = bind(BSRSM_BUFFER_SIZE, C)
zbsrsm_buffer_size = bind(BSRSM_BUFFER_SIZE, Z)

BSRSM_ANALYSIS = Routine("bsrsm_analysis", _BSRSM_HEAD + _ANALYSIS_TAIL, _bsrsm_analysis,
                         "Level-schedule the block triangle (descr's fill mode) of a sorted BSR matrix, or of its "
                         "transpose (trans_A), for bsrsm_solve; records a structural zero pivot (by block row) in "
                         "info.  The reuse policy takes over bsrilu0's, bsric0's or bsrsv's analysis of the same "
                         "triangle.")
sbsrsm_analysis = bind(BSRSM_ANALYSIS, S)
dbsrsm_analysis = bind(BSRSM_ANALYSIS, D)
cbsrsm_analysis = bind(BSRSM_ANALYSIS, C)
zbsrsm_analysis = bind(BSRSM_ANALYSIS, Z)

BSRSM_SOLVE = Routine("bsrsm_solve", ("dir", "trans_A", "trans_X", "mb", "nrhs", "nnzb", "alpha", "descr", "bsr_val",
                                      "bsr_row_ptr", "bsr_col_ind", "block_dim", "info", "B", "ldb", "X", "ldx",
                                      "policy", "temp_buffer"), _bsrsm_solve,
                      "Solve op(T) op(X) = alpha op(B) for the analysed block triangle T of a sorted BSR matrix (op "
                      "none or transpose; B only read; X and B m x nrhs column-major, or nrhs x m for trans_X "
                      "transpose).")
sbsrsm_solve = bind(BSRSM_SOLVE, S)
dbsrsm_solve = bind(BSRSM_SOLVE, D)
cbsrsm_solve = bind(BSRSM_SOLVE, C)
zbsrsm_solve = bind(BSRSM_SOLVE, Z)

bsrsm_zero_pivot = bind(Routine("bsrsm_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "bsrsm", False),
                                _ZP_DOC), None)
bsrsm_clear = bind(Routine("bsrsm_clear", _INFO_ONLY, _bsrsm_clear,
                           "Free the non-transposed bsrsm analyses kept in info, as rocSPARSE (the transposed ones "
                           "and the info's zero pivot stay)."), None)


# --- bsric0 ----------------------------------------------------------------------------------------------


def _bsric0_analysis(c: Call) -> None:
    c.enum("dir", Direction)
    mb, nnzb, _, descr = _matrix(c, _BSR)
    check_info(c["info"], "info", c.index("info"))
    policy = c.enum("analysis", AnalysisPolicy)
    c.enum("solve", SolvePolicy)
    c.check_array("temp_buffer", mb)
    if mb == 0:
        return
    _analyse(c, _BSR, mb, nnzb, descr, "bsric0", False, policy)


def _bsric0(c: Call) -> None:
    direction = c.enum("dir", Direction)
    mb, nnzb, bd, descr = _matrix(c, _BSR)
    info = check_info(c["info"], "info", c.index("info"))
    c.enum("policy", SolvePolicy)
    c.check_array("temp_buffer", mb)
    if mb == 0:
        return
    a = _analysis_of(c, _state_of(info), ("bsric0", False, _LOWER), mb, nnzb)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    row_ptr, col_ind = c.array("bsr_row_ptr", mb + 1, itype), c.array("bsr_col_ind", nnzb, itype)
    check_csr(c, row_ptr, col_ind, int(descr.base), nnzb, mb)  # checking mode: before the values are factored
    nval, isz = nnzb * bd * bd, c.dtype.itemsize
    c.launch(kb.bsric0, direction is Direction.row, bd, c.array("bsr_val", nval), row_ptr, col_ind, a.base, a.diag,
             _temp(c, 0, np.int32, (mb,)), zero_pivot_slot(info),
             flops=float(2 * nval * bd) * (4.0 if c.dtype.kind == "c" else 1.0),
             bytes=float(2 * nval * isz + nnzb * itype.itemsize + mb * 24))


BSRIC0_BUFFER_SIZE = Routine("bsric0_buffer_size", _BSR_FACTOR, lambda c: _factor_buffer_size(c, _BSR),
                             "Bytes of temp_buffer bsric0_analysis and bsric0 need (returned): csrsv_buffer_size's "
                             "for the block pattern, as rocSPARSE.")
sbsric0_buffer_size = bind(BSRIC0_BUFFER_SIZE, S)
dbsric0_buffer_size = bind(BSRIC0_BUFFER_SIZE, D)
cbsric0_buffer_size = bind(BSRIC0_BUFFER_SIZE, C)
zbsric0_buffer_size = bind(BSRIC0_BUFFER_SIZE, Z)

BSRIC0_ANALYSIS = Routine("bsric0_analysis", _BSR_FACTOR + _ANALYSIS_TAIL, _bsric0_analysis,
                          "Level-schedule a sorted BSR matrix's block rows for bsric0; records a structural zero pivot "
                          "(a missing diagonal block) in info.  The reuse policy takes over bsrilu0's or bsrsv's "
                          "(lower, op none) analysis.")
sbsric0_analysis = bind(BSRIC0_ANALYSIS, S)
dbsric0_analysis = bind(BSRIC0_ANALYSIS, D)
cbsric0_analysis = bind(BSRIC0_ANALYSIS, C)
zbsric0_analysis = bind(BSRIC0_ANALYSIS, Z)

BSRIC0 = Routine("bsric0", _BSR_FACTOR + _COMPUTE_TAIL, _bsric0,
                 "Incomplete Cholesky factorization with no fill-in of a sorted BSR matrix (blocks dense, dir their "
                 "storage order), in place: A ~ L L^H on the lower block pattern (the rest untouched); a zero pivot "
                 "is reported by block row.")
sbsric0 = bind(BSRIC0, S)
dbsric0 = bind(BSRIC0, D)
cbsric0 = bind(BSRIC0, C)
zbsric0 = bind(BSRIC0, Z)

bsric0_zero_pivot = bind(Routine("bsric0_zero_pivot", _PIVOT_PARAMS, lambda c: _zero_pivot(c, "bsric0", True),
                                 _ZP_DOC), None)
bsric0_clear = bind(Routine("bsric0_clear", _INFO_ONLY, lambda c: _clear(c, "bsric0"),
                            "Free bsric0's analysis in info (bsric0_zero_pivot then reads -1; the info's zero pivot "
                            "stays)."), None)


# --- bsrxmv ----------------------------------------------------------------------------------------------


def _scan_masked_rows(mask: np.ndarray, use_mask: bool, nrows: int, row_ptr: np.ndarray, end_ptr: np.ndarray,
                      col_ind: np.ndarray, base: int, mb: int, nb: int, nnzb: int) -> None:
    """Checking mode's scan of what bsrxmv addresses: the mask's block rows, their offsets, their block columns."""
    out = np.empty(2, np.int64)
    if use_mask:
        _indices("bsr_mask_ptr", mask, base, mb, nrows, "block rows", out)
        rows = mask[:nrows].astype(np.int64) - base
    else:
        rows = np.arange(nrows, dtype=np.int64)
    bounds = []
    for name, ptr in (("bsr_row_ptr", row_ptr), ("bsr_end_ptr", end_ptr)):
        offsets = ptr[rows].astype(np.int64) - base
        bad = np.flatnonzero((offsets < 0) | (offsets > nnzb))
        if bad.size:
            r = int(rows[bad[0]])
            raise _fault(f"{name}[{r}] = {int(ptr[r])} points outside the {nnzb} stored blocks (index base {base})")
        bounds.append(offsets)
    lengths = np.maximum(bounds[1] - bounds[0], 0)
    starts = np.repeat(bounds[0] - np.cumsum(lengths) + lengths, lengths)
    positions = starts + np.arange(int(lengths.sum()), dtype=np.int64)
    cols = col_ind[positions].astype(np.int64) - base
    bad = np.flatnonzero((cols < 0) | (cols >= nb))
    if bad.size:
        j = int(positions[bad[0]])
        raise _fault(f"bsr_col_ind[{j}] = {int(col_ind[j])} is outside the {nb} block columns (index base {base})")


def _bsrxmv(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    direction = c.enum("dir", Direction)
    if c.enum("trans", Operation) is not Operation.none:
        raise SparseNotImplementedError("bsrxmv supports operation none only", arg="trans", index=c.index("trans"))
    raw = c["block_dim"]
    if isinstance(raw, (int, np.integer)) and not isinstance(raw, bool) and raw == 1:
        raise SparseNotImplementedError("bsrxmv does not support block_dim == 1", arg="block_dim",
                                        index=c.index("block_dim"))
    check_general_sorted(descr, c.fname, "descr", c.index("descr"))
    nmask, mb, nb, nnzb = c.size("size_of_mask"), c.size("mb"), c.size("nb"), c.size("nnzb")
    bd = _block_dim(c)
    use_mask = not is_null(c["bsr_mask_ptr"])
    nrows = nmask if use_mask else mb
    itype = c.index_dtype("bsr_mask_ptr", "bsr_row_ptr", "bsr_end_ptr", "bsr_col_ind")
    mask: Any = c.array("bsr_mask_ptr", nmask, itype) if use_mask else np.zeros(1, itype)
    none, base = np.zeros(1, itype), int(descr.base)
    if mb == 0 or nb == 0:
        if bd * nrows > 0:
            c.pointer("beta")
            c.pointer("y")
            if mb > 0:  # (mb == 0: y has no rows to scale)
                c.launch(kb.bsrxmv, False, True, bd, c.scalar("beta"), np.zeros(1, c.dtype), use_mask, mask, nrows,
                         none, none, none, base, np.zeros(1, c.dtype), c.scalar("beta"), c.array("y", mb * bd),
                         bytes=float(2 * nrows * bd * c.dtype.itemsize))
        return
    if _nothing_to_do(c):
        return
    c.check_array("bsr_mask_ptr", nmask)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_end_ptr", mb)
    c.check_array("x", nb)
    c.check_array("y", mb)
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_col_ind", nnzb)
    row_ptr, end_ptr = c.array("bsr_row_ptr", mb, itype), c.array("bsr_end_ptr", mb, itype)
    col_ind = c.array("bsr_col_ind", nnzb, itype)
    if checking_enabled():
        c.launch(_scan_masked_rows, mask, use_mask, nrows, row_ptr, end_ptr, col_ind, base, mb, nb, nnzb,
                 bytes=float((nrows * 3 + nnzb) * itype.itemsize))
    nval, isz = nnzb * bd * bd, c.dtype.itemsize
    c.launch(kb.bsrxmv, True, direction is Direction.row, bd, c.scalar("alpha"), c.array("bsr_val", nval), use_mask,
             mask, nrows, row_ptr, end_ptr, col_ind, base, c.array("x", nb * bd), c.scalar("beta"),
             c.array("y", mb * bd),
             flops=float(2 * nval) * (4.0 if c.dtype.kind == "c" else 1.0),
             bytes=float(nval * isz + nnzb * itype.itemsize + (nb + 2 * mb) * bd * isz))


BSRXMV = Routine("bsrxmv", ("dir", "trans", "size_of_mask", "mb", "nb", "nnzb", "alpha", "descr", "bsr_val",
                            "bsr_mask_ptr", "bsr_row_ptr", "bsr_end_ptr", "bsr_col_ind", "block_dim", "x", "beta",
                            "y"), _bsrxmv,
                 "y := alpha A x + beta y on the block rows bsr_mask_ptr names (all when it is null) for a BSR matrix "
                 "whose block row i runs from bsr_row_ptr[i] to bsr_end_ptr[i] (operation none, block_dim > 1); the "
                 "other rows of y are not touched.", replay=True)
sbsrxmv = bind(BSRXMV, S)
dbsrxmv = bind(BSRXMV, D)
cbsrxmv = bind(BSRXMV, C)
zbsrxmv = bind(BSRXMV, Z)


# --- bsrpad_value ----------------------------------------------------------------------------------------


def _bsrpad_value(c: Call) -> None:
    m, mb, nnzb = c.size("m"), c.size("mb"), c.size("nnzb")
    bd = _block_dim(c)
    descr = check_descr(c["bsr_descr"], "bsr_descr", c.index("bsr_descr"))
    c.check_array("bsr_val", nnzb)
    c.check_array("bsr_row_ptr", mb)
    c.check_array("bsr_col_ind", nnzb)
    if mb * bd < m:
        raise c.invalid_size("m", f"must be <= mb * block_dim = {mb * bd}, got {m}")
    if m <= (mb - 1) * bd:
        raise c.invalid_size("m", f"must be > (mb - 1) * block_dim = {(mb - 1) * bd}, got {m}")
    if mb == 0 or nnzb == 0 or mb * bd == m:
        return
    value = np.array([host_scalar(c["value"], c.dtype, "value", c.index("value"))], c.dtype)
    itype = c.index_dtype("bsr_row_ptr", "bsr_col_ind")
    base = int(descr.base)
    row_ptr = c.array("bsr_row_ptr", mb + 1, itype)
    check_offsets(c, row_ptr, base, nnzb)  # checking mode: the kernel reads the last block row's blocks
    c.launch(kb.bsrpad_value, descr.storage_mode is StorageMode.sorted, m, mb, bd, value, base,
             c.array("bsr_val", nnzb * bd * bd), row_ptr, c.array("bsr_col_ind", nnzb, itype),
             bytes=float(2 * itype.itemsize + bd * c.dtype.itemsize))


BSRPAD_VALUE = Routine("bsrpad_value", ("m", "mb", "nnzb", "block_dim", "value", "bsr_descr", "bsr_val",
                                        "bsr_row_ptr", "bsr_col_ind"), _bsrpad_value,
                       "Set the diagonal of the padding (rows m .. mb * block_dim - 1) of block row mb - 1's diagonal "
                       "block to value (a number, whatever the pointer mode).")
sbsrpad_value = bind(BSRPAD_VALUE, S)
dbsrpad_value = bind(BSRPAD_VALUE, D)
cbsrpad_value = bind(BSRPAD_VALUE, C)
zbsrpad_value = bind(BSRPAD_VALUE, Z)
