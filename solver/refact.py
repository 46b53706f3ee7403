"""Sparse refactorization (rocsolver-functions.h "Refactorization functions"; library/src/refact): csrrf_sumlu,
csrrf_splitlu, csrrf_analysis, csrrf_refactlu, csrrf_refactchol and csrrf_solve, in s and d, plain only.

Every matrix is square (n x n), zero-based CSR with rocblas_int (int32) offsets and columns, each row's columns
sorted; the permutations ``pivP`` and ``pivQ`` are zero-based: row ``i`` of the factored matrix is row
``pivP[i]`` of A, its column ``j`` is column ``pivQ[j]`` of A (``T ~ A[pivP][:, pivQ]``; Cholesky:
``A[pivQ][:, pivQ]``).  SciPy's ``splu`` gives ``perm_r`` and ``perm_c`` as the inverses of these
(``pivP = argsort(perm_r)``, ``pivQ = argsort(perm_c)``).

What each routine does, as rocSOLVER's sources do (rocrefact_csrrf_*.hpp):

- **sumlu**: ``T = (L - I) + U``: each row of T is the row of L without its last stored entry (the unit
  diagonal, last in a sorted row of a lower triangle) followed by the row of U; ``ptrT = ptrL - i + ptrU``,
  nnzT = nnzL - n + nnzU.  ``n == 0`` returns; ``nnzL == n`` and ``nnzU == 0`` (nothing but the diagonal)
  only zeroes ptrT.  No workspace.
- **splitlu**: the reverse: the entries of a row of T left of the diagonal go to L, followed by a unit
  diagonal, those on and right of it to U.  ``n == 0`` returns; ``nnzT == 0`` writes the identity as L
  (``ptrL = 0..n``, ``indL = 0..n-1``, ``valL = 1``) and an empty U (``ptrU = 0``).  The workspace holds two
  counts per row (rocSOLVER's, beside rocPRIM's scan storage, which has no counterpart here).  nnzL and
  nnzU follow from T's data: the routine reads ptrT and indT first (blocking until they are known, as
  rocmath.sparse's analyses do), so that the outputs are sized exactly.
- **analysis**: neither M nor the permutations are read (they are only checked for null).  It runs rocSPARSE's
  csrilu0_analysis (lu mode) or csric0_analysis (cholesky mode) of T on the rfinfo's T descriptor and info
  with ``analysis_policy_force``; with ``nrhs > 0`` also csrsm_analysis of L (infoL) and of U (lu: U's
  descriptor, infoU; cholesky: L's descriptor conjugate-transposed, infoU) with the rfinfo's reuse policy;
  then records the rfinfo as analysed, in its mode.  ``n == 0`` returns before that (nothing recorded).
- **refactlu**: the rfinfo must have been analysed in lu mode and still be in it (else internal_error, after
  the quick return ``n == 0``); the inverse of pivQ goes to the workspace, valT := 0, each entry of P A Q^T
  found in T's pattern (a missing one is dropped) is added there, then rocSPARSE's csrilu0 factors T in
  place: the LU of P A Q^T when T's pattern holds its fill.
- **refactchol**: the same in cholesky mode with Q^T A Q and csric0: only A's lower triangle is read (each
  row up to its first entry right of the diagonal), an entry landing above T's diagonal goes, conjugated,
  to its mirror; valT is zeroed whole, csric0 writes the lower triangle.
- **solve**: the rfinfo analysed in its current mode (else internal_error, after the quick return
  ``n == 0 || nrhs == 0``); B's rows are gathered by pivP (cholesky: pivQ) through a temporary in the
  workspace, solved by two csrsm_solve (L then U; cholesky: L then L^H), then scattered by pivQ: X
  overwrites B.  A permutation entry outside ``0..n-1`` is skipped by the gather and scatter, as there.

Check order (the ``*_argCheck``): handle; sizes (``n < 0``, then the others in the C order, ``ldb < n``);
[a size query stops here]; pointers (rfinfo first where there is one; then rocSOLVER's conditions); the
workspace (a user workspace too small: memory_error; rocSOLVER allocates in ``*_impl``, before its template
runs; an empty problem needs none); quick return; rfinfo state; launch.  rocSPARSE's statuses come back as
rocBLAS's (rocsparse2rocblas_status: the same names, any other internal_error).  In a size query a null
rfinfo (or array) counts as the buffer sizes rocSPARSE would not report: zero.

The permutation and scatter steps are NumPy bodies launched on the handle's stream; offsets that would
address outside their arrays, and permutation entries outside ``0..n-1`` where rocSOLVER indexes with them,
raise MemoryAccessFault (at the next synchronize).  The factorizations and solves are rocmath.sparse's
csrilu0, csric0 and csrsm on the rfinfo's handle (created on the rocBLAS handle's stream), taking their
temp_buffer from this routine's workspace, as rocSOLVER does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rocmath.errors import (
    MemoryAccessFault,
    RocblasError,
    RocblasInternalError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasNotImplementedError,
)
from rocmath.launch import Buffer
from rocmath.precision import D, S

from ._api import SolverCall, SolverRoutine, bind, public_names
from ._types import RfinfoMode
from ._workspace import rounded
from .auxiliary import Rfinfo

_INT = np.dtype(np.int32)


class _Dims(NamedTuple):
    """The checked sizes of one call (the ones a routine has not are 0)."""

    n: int
    nnz1: int = 0  # nnzL, nnzM or nnzA
    nnz2: int = 0  # nnzU or nnzT
    nrhs: int = 0
    ldb: int = 0


# --- rocSPARSE through the rfinfo ----------------------------------------------------------------------------

_FROM_SPARSE: dict[str, type[RocblasError]] = {
    "invalid_handle": RocblasInvalidHandleError, "not_implemented": RocblasNotImplementedError,
    "invalid_pointer": RocblasInvalidPointerError, "invalid_size": RocblasInvalidSizeError,
    "memory_error": RocblasMemoryError, "invalid_value": RocblasInvalidValueError,
}


def _sparse(c: SolverCall, name: str, *args: Any) -> Any:
    """``rocsparse_<p><name>(*args)``, a rocSPARSE status other than success raised as the rocBLAS one
    rocSOLVER returns for it (ROCSPARSE_CHECK: rocsparse2rocblas_status)."""
    from rocmath import sparse
    from rocmath.sparse._types import SparseError

    fn = getattr(sparse, f"{c.precision.letter}{name}")
    try:
        return fn(*args)
    except SparseError as exc:
        cls = _FROM_SPARSE.get(exc.status.name, RocblasInternalError)
        raise cls(f"rocsparse_{c.precision.letter}{name}: {exc.message}") from exc


def _size_of(c: SolverCall, name: str, *args: Any) -> int:
    """A rocSPARSE ``*_buffer_size`` as rocSOLVER's getMemorySize calls it: its status unchecked (a failed
    query leaves the size 0)."""
    from rocmath import sparse
    from rocmath.sparse._types import SparseError

    try:
        return int(getattr(sparse, f"{c.precision.letter}{name}")(*args))
    except (SparseError, TypeError):
        return 0


def _p(c: SolverCall, name: str) -> int:
    """A pointer argument as an int, 0 for anything that is not one (size queries do not check them)."""
    try:
        return c.ptr(name)
    except RocblasError:
        return 0


def _valid_rfinfo(c: SolverCall) -> Rfinfo | None:
    r = c.values["rfinfo"]
    return r if isinstance(r, Rfinfo) and not r.destroyed else None


def _rfinfo(c: SolverCall) -> Rfinfo:
    """The rfinfo argument: null (or no live rfinfo) is invalid_pointer."""
    c.require("rfinfo")
    r = _valid_rfinfo(c)
    if r is None:
        what = "destroyed" if isinstance(c.values["rfinfo"], Rfinfo) else "not an rfinfo from create_rfinfo()"
        raise c.invalid_pointer("rfinfo", f"the rfinfo is {what}")
    return r


def _csrsm_sizes(c: SolverCall, r: Rfinfo, n: int, nrhs: int, nnzT: int, ldb: int) -> tuple[int, int]:
    """csrsm_buffer_size of the two triangular solves (lu: L, U; cholesky: L, L^H)."""
    from rocmath.sparse import Operation

    common = (n, nrhs, nnzT, 1.0)
    arrays = (_p(c, "valT"), _p(c, "ptrT"), _p(c, "indT"), _p(c, "B"), ldb)
    none = Operation.none
    first = _size_of(c, "csrsm_buffer_size", r.sphandle, none, none, *common, r.descrL, *arrays, r.infoL,
                     r.solve_policy)
    if r.mode is RfinfoMode.lu:
        second = _size_of(c, "csrsm_buffer_size", r.sphandle, none, none, *common, r.descrU, *arrays, r.infoU,
                          r.solve_policy)
    else:
        second = _size_of(c, "csrsm_buffer_size", r.sphandle, Operation.conjugate_transpose, none, *common,
                          r.descrL, *arrays, r.infoU, r.solve_policy)
    return first, second


def _factor_size(c: SolverCall, r: Rfinfo, kind: str, n: int, nnzT: int) -> int:
    """csrilu0_buffer_size / csric0_buffer_size of T."""
    return _size_of(c, f"{kind}_buffer_size", r.sphandle, n, nnzT, r.descrT, _p(c, "valT"), _p(c, "ptrT"),
                    _p(c, "indT"), r.infoT)


# --- host helpers of the launch bodies ----------------------------------------------------------------------


def _fault(op: str, name: str, why: str) -> MemoryAccessFault:
    return MemoryAccessFault(f"rocsolver_{op}: argument '{name}': {why}")


def _offsets(op: str, name: str, ptr: np.ndarray, nnz: int) -> np.ndarray:
    """CSR offsets as int64, refused (MemoryAccessFault) where they would address outside the nnz entries."""
    p = ptr.astype(np.int64)
    bad = np.flatnonzero((p < 0) | (p > nnz))
    if bad.size:
        raise _fault(op, name, f"offset {int(p[bad[0]])} at position {int(bad[0])} is outside [0, {nnz}]")
    dec = np.flatnonzero(np.diff(p) < 0)
    if dec.size:
        raise _fault(op, name, f"offsets decrease at position {int(dec[0]) + 1}")
    return p


def _in_range(op: str, name: str, values: np.ndarray, n: int) -> None:
    bad = np.flatnonzero((values < 0) | (values >= n))
    if bad.size:
        raise _fault(op, name, f"element {int(bad[0])} is {int(values[bad[0]])}, outside [0, {n})")


def _segments(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries of the CSR rows ``rows`` in turn: (entry positions, index into ``rows`` of each)."""
    starts, lens = ptr[rows], ptr[rows + 1] - ptr[rows]
    owner = np.repeat(np.arange(rows.size), lens)
    first = np.cumsum(lens) - lens
    pos = starts[owner] + (np.arange(owner.size) - first[owner])
    return pos, owner


def _inverse(invq: np.ndarray, pivQ: np.ndarray) -> np.ndarray:
    """rf_ipvec: ``inv[pivQ[i]] = i`` (entries no pivot names: -1)."""
    invq[:] = -1
    invq[pivQ] = np.arange(pivQ.size, dtype=invq.dtype)
    return invq.astype(np.int64)


def _add_into(ptrT: np.ndarray, indT: np.ndarray, valT: np.ndarray, rows: np.ndarray, cols: np.ndarray,
              vals: np.ndarray, n: int) -> None:
    """valT[(row, col)] += val for each triple whose position T's pattern holds (rf_search; others dropped)."""
    rowT = np.repeat(np.arange(n, dtype=np.int64), np.diff(ptrT))
    colT = indT[ptrT[0]:ptrT[n]].astype(np.int64)
    keyT = np.where((colT >= 0) & (colT < n), rowT * n + colT, -1)  # a column outside T matches nothing
    order = np.argsort(keyT, kind="stable")
    sk = keyT[order]
    order += ptrT[0]
    keep = cols >= 0
    key = rows[keep] * n + cols[keep]
    at = np.searchsorted(sk, key)
    found = at < sk.size
    found[found] = sk[at[found]] == key[found]
    np.add.at(valT, order[at[found]], vals[keep][found])


# --- launch bodies -------------------------------------------------------------------------------------------


def _sumlu_body(op: str, n: int, nnzL: int, nnzU: int, ptrL: np.ndarray, indL: np.ndarray, valL: np.ndarray,
                ptrU: np.ndarray, indU: np.ndarray, valU: np.ndarray, ptrT: np.ndarray, indT: np.ndarray,
                valT: np.ndarray) -> None:
    lp, up = _offsets(op, "ptrL", ptrL, nnzL), _offsets(op, "ptrU", ptrU, nnzU)
    tp = lp - np.arange(n + 1) + up
    nnzT = indT.size
    rows = np.arange(n)
    # L without the last entry of each row (its unit diagonal), at the start of T's row.
    pos, owner = _segments(lp, rows)
    keep = pos != lp[owner + 1] - 1
    dst_l = tp[owner[keep]] + (pos[keep] - lp[owner[keep]])
    # U at the end of T's row.
    upos, uowner = _segments(up, rows)
    dst_u = tp[uowner + 1] - (up[uowner + 1] - upos)
    for name, dst in (("indT", dst_l), ("indT", dst_u)):
        bad = np.flatnonzero((dst < 0) | (dst >= nnzT))
        if bad.size:
            raise _fault(op, name, f"entry {int(dst[bad[0]])} is outside the {nnzT} entries of T")
    ptrT[:] = tp
    indT[dst_l], valT[dst_l] = indL[pos[keep]], valL[pos[keep]]
    indT[dst_u], valT[dst_u] = indU[upos], valU[upos]


def _split_count_body(op: str, n: int, nnzT: int, ptrT: np.ndarray, indT: np.ndarray, counts: np.ndarray,
                      totals: np.ndarray) -> None:
    """Entries per row of L (with the unit diagonal) and of U, in the workspace; their sums to the host."""
    tp = _offsets(op, "ptrT", ptrT, nnzT)
    row = np.repeat(np.arange(n), np.diff(tp))
    upper = indT[tp[0]:tp[n]] >= row
    nzu = np.bincount(row[upper], minlength=n)
    counts[0] = np.diff(tp) - nzu + 1
    counts[1] = nzu
    totals[0], totals[1] = counts[0].sum(), counts[1].sum()


def _split_copy_body(n: int, ptrT: np.ndarray, indT: np.ndarray, valT: np.ndarray, counts: np.ndarray,
                     ptrL: np.ndarray, indL: np.ndarray, valL: np.ndarray, ptrU: np.ndarray, indU: np.ndarray,
                     valU: np.ndarray) -> None:
    tp = ptrT.astype(np.int64)
    lp = np.concatenate(([0], np.cumsum(counts[0], dtype=np.int64)))
    up = np.concatenate(([0], np.cumsum(counts[1], dtype=np.int64)))
    ptrL[:], ptrU[:] = lp, up
    pos, row = _segments(tp, np.arange(n))
    upper = indT[pos] >= row
    lo, hi = pos[~upper], pos[upper]
    dst_l = lp[row[~upper]] + (lo - tp[row[~upper]])
    ustart = tp[row[upper] + 1] - counts[1][row[upper]]
    dst_u = up[row[upper]] + (hi - ustart)
    indL[dst_l], valL[dst_l] = indT[lo], valT[lo]
    diag = lp[1:] - 1
    indL[diag], valL[diag] = np.arange(n), 1
    indU[dst_u], valU[dst_u] = indT[hi], valT[hi]


def _split_identity_body(n: int, ptrL: np.ndarray, indL: np.ndarray, valL: np.ndarray, ptrU: np.ndarray) -> None:
    ptrU[:] = 0
    ptrL[:] = np.arange(n + 1)
    indL[:] = np.arange(n)
    valL[:] = 1


def _zero_body(x: np.ndarray) -> None:
    x[:] = 0


def _scatter_lu_body(op: str, n: int, nnzA: int, pivP: np.ndarray, pivQ: np.ndarray, ptrA: np.ndarray,
                     indA: np.ndarray, valA: np.ndarray, ptrT: np.ndarray, indT: np.ndarray, valT: np.ndarray,
                     invq_ws: np.ndarray) -> None:
    """rf_ipvec then valT := 0, valT += P A Q^T on T's pattern (rf_add_PAQ)."""
    _in_range(op, "pivQ", pivQ, n)
    _in_range(op, "pivP", pivP, n)
    invq = _inverse(invq_ws, pivQ)
    valT[:] = 0
    ap, tp = _offsets(op, "ptrA", ptrA, nnzA), _offsets(op, "ptrT", ptrT, valT.size)
    pos, owner = _segments(ap, pivP.astype(np.int64))
    _in_range(op, "indA", indA[pos], n)
    _add_into(tp, indT, valT, owner.astype(np.int64), invq[indA[pos]], valA[pos], n)


def _scatter_chol_body(op: str, n: int, nnzA: int, pivQ: np.ndarray, ptrA: np.ndarray, indA: np.ndarray,
                       valA: np.ndarray, ptrT: np.ndarray, indT: np.ndarray, valT: np.ndarray,
                       invq_ws: np.ndarray) -> None:
    """rf_ipvec then valT := 0, valT += Q^T A Q's lower triangle on T's pattern (rf_add_QAQ)."""
    _in_range(op, "pivQ", pivQ, n)
    invq = _inverse(invq_ws, pivQ)
    valT[:] = 0
    ap, tp = _offsets(op, "ptrA", ptrA, nnzA), _offsets(op, "ptrT", ptrT, valT.size)
    old_rows = pivQ.astype(np.int64)
    pos, owner = _segments(ap, old_rows)
    cols_old = indA[pos].astype(np.int64)
    # Each row is read up to its first entry right of the diagonal (A's lower triangle, rows sorted).
    right = (cols_old > old_rows[owner]).astype(np.int64)
    seen = np.cumsum(right)
    before = seen - right
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if owner.size else np.zeros(0, np.int64)
    base = np.zeros(owner.size, np.int64)
    if owner.size:
        base = np.repeat(before[starts], np.diff(np.r_[starts, owner.size]))
    keep = (seen - base) == 0
    pos, owner, cols_old = pos[keep], owner[keep], cols_old[keep]
    _in_range(op, "indA", cols_old, n)
    rows, cols, vals = owner.astype(np.int64), invq[cols_old], valA[pos]
    up = rows < cols
    rows, cols = np.where(up, cols, rows), np.where(up, rows, cols)
    vals = np.where(up, np.conj(vals), vals)
    _add_into(tp, indT, valT, rows, cols, vals, n)


def _gather_body(piv: np.ndarray, B: np.ndarray, temp: np.ndarray) -> None:
    """rf_gather: temp[i] = B[piv[i]] for the valid entries, then B = temp."""
    n = piv.size
    ok = (piv >= 0) & (piv < n)
    temp[ok] = B[piv[ok]]
    B[...] = temp


def _scatter_body(piv: np.ndarray, B: np.ndarray, temp: np.ndarray) -> None:
    """rf_scatter: temp[piv[i]] = B[i] for the valid entries, then B = temp."""
    n = piv.size
    ok = (piv >= 0) & (piv < n)
    temp[piv[ok]] = B[ok]
    B[...] = temp


# --- csrrf_sumlu ---------------------------------------------------------------------------------------------


def _check_sumlu(c: SolverCall) -> _Dims:
    (n,) = c.sizes("n")
    nnzL = c.int("nnzL")
    if nnzL < n:
        raise c.invalid_size("nnzL", f"must be >= n = {n} (L stores its unit diagonal), got {nnzL}")
    (nnzU,) = c.sizes("nnzU")
    return _Dims(n, nnzL, nnzU)


def _sumlu(c: SolverCall) -> None:
    n, nnzL, nnzU = c.dims[:3]
    c.require("ptrL", "ptrU", "ptrT")
    c.require("indL", "valL", when=nnzL > 0)
    c.require("indU", "valU", when=nnzU > 0)
    c.require("indT", "valT", when=nnzL > n or nnzU > 0)
    if n == 0:
        return
    if nnzL == n and nnzU == 0:  # T has no entries: its offsets are zero
        c.launch(_zero_body, c.array("ptrT", n + 1, _INT), bytes=4.0 * (n + 1))
        return
    nnzT = nnzL - n + nnzU
    c.launch(_sumlu_body, c.public_name, n, nnzL, nnzU,
             c.array("ptrL", n + 1, _INT), c.array("indL", nnzL, _INT), c.array("valL", nnzL, c.dtype),
             c.array("ptrU", n + 1, _INT), c.array("indU", nnzU, _INT), c.array("valU", nnzU, c.dtype),
             c.array("ptrT", n + 1, _INT), c.array("indT", nnzT, _INT), c.array("valT", nnzT, c.dtype),
             bytes=float(3 * 4 * (n + 1) + 2 * (4 + c.precision.itemsize) * (nnzL + nnzU)))


_POINTERS_SUMLU = ("ptrL", "indL", "valL", "ptrU", "indU", "valU", "ptrT", "indT", "valT")
CSRRF_SUMLU = SolverRoutine(
    "csrrf_sumlu", ("n", "nnzL", *_POINTERS_SUMLU[:3], "nnzU", *_POINTERS_SUMLU[3:]), {}, _sumlu,
    check=_check_sumlu, pointers=_POINTERS_SUMLU,
    summary="Bundle the sparse LU factors L (unit lower, diagonal stored) and U into T = (L - I) + U (CSR).")


# --- csrrf_splitlu -------------------------------------------------------------------------------------------


def _check_splitlu(c: SolverCall) -> _Dims:
    n, nnzT = c.sizes("n", "nnzT")
    return _Dims(n, 0, nnzT)


def _splitlu_workspace(c: SolverCall) -> int:
    n, _, nnzT = c.dims[:3]
    return 0 if n == 0 or nnzT == 0 else 2 * _INT.itemsize * n


def _splitlu(c: SolverCall) -> None:
    n, _, nnzT = c.dims[:3]
    c.require("ptrL", "ptrU", "ptrT")
    c.require("indT", "valT", "indU", "valU", when=nnzT > 0)
    c.require("indL", "valL", when=n > 0 or nnzT > 0)
    if n == 0:
        return
    if nnzT == 0:  # L = I, U empty
        c.launch(_split_identity_body, n, c.array("ptrL", n + 1, _INT), c.array("indL", n, _INT),
                 c.array("valL", n, c.dtype), c.array("ptrU", n + 1, _INT),
                 bytes=float(4 * (3 * n + 2) + c.precision.itemsize * n))
        return
    ws = c.workspace_buffer()
    counts = Buffer(ws.ptr, _INT, (2, n), name="workspace")
    totals = np.zeros(2, np.int64)
    ptrT, indT = c.array("ptrT", n + 1, _INT), c.array("indT", nnzT, _INT)
    c.launch(_split_count_body, c.public_name, n, nnzT, ptrT, indT, counts, totals,
             bytes=float(4 * (n + 1 + nnzT + 2 * n))).wait()  # L's and U's sizes size the outputs
    nnzL, nnzU = int(totals[0]), int(totals[1])
    c.launch(_split_copy_body, n, ptrT, indT, c.array("valT", nnzT, c.dtype), counts,
             c.array("ptrL", n + 1, _INT), c.array("indL", nnzL, _INT), c.array("valL", nnzL, c.dtype),
             c.array("ptrU", n + 1, _INT), c.array("indU", nnzU, _INT), c.array("valU", nnzU, c.dtype),
             bytes=float(2 * (4 + c.precision.itemsize) * (nnzT + n) + 4 * 4 * (n + 1)))


_POINTERS_SPLITLU = ("ptrT", "indT", "valT", "ptrL", "indL", "valL", "ptrU", "indU", "valU")
CSRRF_SPLITLU = SolverRoutine(
    "csrrf_splitlu", ("n", "nnzT", *_POINTERS_SPLITLU), {}, _splitlu, check=_check_splitlu,
    workspace=_splitlu_workspace, pointers=_POINTERS_SPLITLU,
    summary="Split a bundle T = (L - I) + U into L (unit lower, diagonal stored last in each row) and U (CSR).")


# --- csrrf_analysis ------------------------------------------------------------------------------------------


def _check_analysis(c: SolverCall) -> _Dims:
    n, nnzM, nnzT, nrhs = c.sizes("n", "nnzM", "nnzT", "nrhs")
    c.lds(("ldb", n))
    return _Dims(n, nnzM, nnzT, nrhs, c.int("ldb"))


def _analysis_workspace(c: SolverCall) -> int:
    n, _, nnzT, nrhs, ldb = c.dims
    r = _valid_rfinfo(c)
    if n == 0 or r is None:
        return 0
    kind = "csrilu0" if r.mode is RfinfoMode.lu else "csric0"
    sizes = [_factor_size(c, r, kind, n, nnzT)]
    if nrhs > 0:
        sizes += _csrsm_sizes(c, r, n, nrhs, nnzT, ldb)
    return max(sizes)


def _analysis(c: SolverCall) -> None:
    from rocmath.sparse import AnalysisPolicy, Operation

    n, _, nnzT, nrhs, ldb = c.dims
    r = _rfinfo(c)
    c.require("ptrM", "ptrT")
    c.require("indM", "valM", when=c.dims.nnz1 > 0)
    c.require("indT", "valT", when=nnzT > 0)
    c.require("B", when=n > 0 and nrhs > 0)
    if n > 0:
        c.require(*(("pivP",) if r.mode is RfinfoMode.lu else ()), "pivQ")
    work = c.workspace_buffer().ptr  # (none for n = 0)
    if n == 0:
        return
    T = (_p(c, "valT"), _p(c, "ptrT"), _p(c, "indT"))
    kind = "csrilu0" if r.mode is RfinfoMode.lu else "csric0"
    _sparse(c, f"{kind}_analysis", r.sphandle, n, nnzT, r.descrT, *T, r.infoT, AnalysisPolicy.force,
            r.solve_policy, work)
    if nrhs > 0:
        none = Operation.none
        common = (n, nrhs, nnzT, 1.0)
        rest = (_p(c, "B"), ldb)
        _sparse(c, "csrsm_analysis", r.sphandle, none, none, *common, r.descrL, *T, *rest, r.infoL,
                r.analysis_policy, r.solve_policy, work)
        if r.mode is RfinfoMode.lu:
            _sparse(c, "csrsm_analysis", r.sphandle, none, none, *common, r.descrU, *T, *rest, r.infoU,
                    r.analysis_policy, r.solve_policy, work)
        else:
            _sparse(c, "csrsm_analysis", r.sphandle, Operation.conjugate_transpose, none, *common, r.descrL, *T,
                    *rest, r.infoU, r.analysis_policy, r.solve_policy, work)
    r.analyzed = True
    r.analyzed_mode = r.mode


_POINTERS_ANALYSIS = ("ptrM", "indM", "valM", "ptrT", "indT", "valT", "pivP", "pivQ", "B", "rfinfo")
CSRRF_ANALYSIS = SolverRoutine(
    "csrrf_analysis", ("n", "nrhs", "nnzM", "ptrM", "indM", "valM", "nnzT", "ptrT", "indT", "valT", "pivP", "pivQ",
                       "B", "ldb", "rfinfo"), {"B": "ldb"}, _analysis, check=_check_analysis,
    workspace=_analysis_workspace, pointers=_POINTERS_ANALYSIS,
    summary="Analyse the bundled factors T of a sparse LU (or Cholesky, in the rfinfo's mode) for refactlu/"
            "refactchol and, with nrhs > 0, for solve; the result is kept in rfinfo.")


# --- csrrf_refactlu and csrrf_refactchol ---------------------------------------------------------------------


def _check_refact(c: SolverCall) -> _Dims:
    n, nnzA, nnzT = c.sizes("n", "nnzA", "nnzT")
    return _Dims(n, nnzA, nnzT)


def _refact_workspace(c: SolverCall, kind: str) -> int:
    n, _, nnzT = c.dims[:3]
    if n == 0:
        return 0
    r = _valid_rfinfo(c)
    factor = _factor_size(c, r, kind, n, nnzT) if r is not None else 0
    return max(factor, _INT.itemsize * n)  # at least the inverse of pivQ


def _refact(c: SolverCall, mode: RfinfoMode) -> None:
    from rocmath.sparse import SolvePolicy

    n, nnzA, nnzT = c.dims[:3]
    r = _rfinfo(c)
    c.require("ptrA", "ptrT")
    c.require(*(("pivP",) if mode is RfinfoMode.lu else ()), "pivQ", when=n > 0)
    c.require("indA", "valA", when=nnzA > 0)
    c.require("indT", "valT", when=nnzT > 0)
    ws = c.workspace_buffer()  # rocSOLVER allocates before its template looks at the rfinfo (none for n = 0)
    if n == 0:
        return
    if not r.analyzed or r.analyzed_mode is not mode or r.mode is not mode:
        raise RocblasInternalError(f"the rfinfo was not analysed in {mode.name} mode (csrrf_analysis), or is no "
                                   f"longer in it (mode {r.mode.name}, analysed: "
                                   f"{r.analyzed_mode.name if r.analyzed_mode is not None else 'no'})")
    invq = Buffer(ws.ptr, _INT, (n,), name="workspace")
    ptrT, indT, valT = c.array("ptrT", n + 1, _INT), c.array("indT", nnzT, _INT), c.array("valT", nnzT, c.dtype)
    ptrA, indA, valA = c.array("ptrA", n + 1, _INT), c.array("indA", nnzA, _INT), c.array("valA", nnzA, c.dtype)
    moved = float(4 * (3 * n + 2) + (4 + c.precision.itemsize) * (nnzA + nnzT) + c.precision.itemsize * nnzT)
    if mode is RfinfoMode.lu:
        c.launch(_scatter_lu_body, c.public_name, n, nnzA, c.array("pivP", n, _INT), c.array("pivQ", n, _INT),
                 ptrA, indA, valA, ptrT, indT, valT, invq, bytes=moved)
        kind = "csrilu0"
    else:
        c.launch(_scatter_chol_body, c.public_name, n, nnzA, c.array("pivQ", n, _INT), ptrA, indA, valA, ptrT,
                 indT, valT, invq, bytes=moved)
        kind = "csric0"
    _sparse(c, kind, r.sphandle, n, nnzT, r.descrT, _p(c, "valT"), _p(c, "ptrT"), _p(c, "indT"), r.infoT,
            SolvePolicy.auto, ws.ptr)


_POINTERS_REFACTLU = ("ptrA", "indA", "valA", "ptrT", "indT", "valT", "pivP", "pivQ", "rfinfo")
CSRRF_REFACTLU = SolverRoutine(
    "csrrf_refactlu", ("n", "nnzA", "ptrA", "indA", "valA", "nnzT", "ptrT", "indT", "valT", "pivP", "pivQ",
                       "rfinfo"), {}, lambda c: _refact(c, RfinfoMode.lu), check=_check_refact,
    workspace=lambda c: _refact_workspace(c, "csrilu0"), pointers=_POINTERS_REFACTLU,
    summary="Refactorize: T := the LU factors (L - I) + U of P A Q^T on T's pattern (analysed by csrrf_analysis "
            "in lu mode), A having the pattern of the matrix first factored.")
_POINTERS_REFACTCHOL = ("ptrA", "indA", "valA", "ptrT", "indT", "valT", "pivQ", "rfinfo")
CSRRF_REFACTCHOL = SolverRoutine(
    "csrrf_refactchol", ("n", "nnzA", "ptrA", "indA", "valA", "nnzT", "ptrT", "indT", "valT", "pivQ", "rfinfo"),
    {}, lambda c: _refact(c, RfinfoMode.cholesky), check=_check_refact,
    workspace=lambda c: _refact_workspace(c, "csric0"), pointers=_POINTERS_REFACTCHOL,
    summary="Refactorize: T's lower triangle := the Cholesky factor L of Q^T A Q on T's pattern (analysed by "
            "csrrf_analysis in cholesky mode); A's strictly upper triangle is not read.")


# --- csrrf_solve ---------------------------------------------------------------------------------------------


def _check_solve(c: SolverCall) -> _Dims:
    n, nrhs, nnzT = c.sizes("n", "nrhs", "nnzT")
    c.lds(("ldb", n))
    return _Dims(n, 0, nnzT, nrhs, c.int("ldb"))


def _solve_sizes(c: SolverCall) -> tuple[int, int]:
    """(csrsm's buffer, the permutation's temporary) bytes."""
    n, _, nnzT, nrhs, ldb = c.dims
    if n == 0 or nrhs == 0:
        return 0, 0
    r = _valid_rfinfo(c)
    work = max(_csrsm_sizes(c, r, n, nrhs, nnzT, ldb)) if r is not None else 0
    return work, c.precision.itemsize * n * nrhs


def _solve_workspace(c: SolverCall) -> int:
    work, temp = _solve_sizes(c)
    return rounded(work) + rounded(temp) if temp else 0


def _solve(c: SolverCall) -> None:
    from rocmath.sparse import Operation

    n, _, nnzT, nrhs, ldb = c.dims
    r = _rfinfo(c)
    c.require("ptrT")
    c.require("indT", "valT", when=nnzT > 0)
    c.require("B", when=n * nrhs > 0)
    if n > 0:
        c.require(*(("pivP",) if r.mode is RfinfoMode.lu else ()), "pivQ")
    work_bytes, _ = _solve_sizes(c)
    ws = c.workspace_buffer()  # before the quick return and the rfinfo's state, as rocSOLVER (none when empty)
    if n == 0 or nrhs == 0:
        return
    if not r.analyzed or r.analyzed_mode is not r.mode:
        raise RocblasInternalError(f"the rfinfo was not analysed (csrrf_analysis) in its mode ({r.mode.name})")
    isz = c.precision.itemsize
    temp = Buffer(ws.ptr + rounded(work_bytes), c.dtype, (n, nrhs), (isz, isz * n), name="workspace")
    B = Buffer(c.ptr("B"), c.dtype, (n, nrhs), (isz, isz * ldb), name="B", owner=c.values["B"])
    pivot = "pivP" if r.mode is RfinfoMode.lu else "pivQ"
    moved = float(4 * isz * n * nrhs + 4 * n)
    c.launch(_gather_body, c.array(pivot, n, _INT), B, temp, bytes=moved)
    none = Operation.none
    T = (_p(c, "valT"), _p(c, "ptrT"), _p(c, "indT"))
    rest = (c.ptr("B"), ldb)
    _sparse(c, "csrsm_solve", r.sphandle, none, none, n, nrhs, nnzT, 1.0, r.descrL, *T, *rest, r.infoL,
            r.solve_policy, ws.ptr)
    if r.mode is RfinfoMode.lu:
        _sparse(c, "csrsm_solve", r.sphandle, none, none, n, nrhs, nnzT, 1.0, r.descrU, *T, *rest, r.infoU,
                r.solve_policy, ws.ptr)
    else:
        _sparse(c, "csrsm_solve", r.sphandle, Operation.conjugate_transpose, none, n, nrhs, nnzT, 1.0, r.descrL,
                *T, *rest, r.infoU, r.solve_policy, ws.ptr)
    c.launch(_scatter_body, c.array("pivQ", n, _INT), B, temp, bytes=moved)


_POINTERS_SOLVE = ("ptrT", "indT", "valT", "pivP", "pivQ", "B", "rfinfo")
CSRRF_SOLVE = SolverRoutine(
    "csrrf_solve", ("n", "nrhs", "nnzT", "ptrT", "indT", "valT", "pivP", "pivQ", "B", "ldb", "rfinfo"),
    {"B": "ldb"}, _solve, check=_check_solve, workspace=_solve_workspace, pointers=_POINTERS_SOLVE,
    summary="Solve A X = B with the factors T of P A Q^T = L U (or Q^T A Q = L L^T, in the rfinfo's mode) and "
            "the permutations; X overwrites the column-major B.")


# fmt: off
scsrrf_sumlu = bind(CSRRF_SUMLU, S)
dcsrrf_sumlu = bind(CSRRF_SUMLU, D)
scsrrf_splitlu = bind(CSRRF_SPLITLU, S)
dcsrrf_splitlu = bind(CSRRF_SPLITLU, D)
scsrrf_analysis = bind(CSRRF_ANALYSIS, S)
dcsrrf_analysis = bind(CSRRF_ANALYSIS, D)
scsrrf_refactlu = bind(CSRRF_REFACTLU, S)
dcsrrf_refactlu = bind(CSRRF_REFACTLU, D)
scsrrf_refactchol = bind(CSRRF_REFACTCHOL, S)
dcsrrf_refactchol = bind(CSRRF_REFACTCHOL, D)
scsrrf_solve = bind(CSRRF_SOLVE, S)
dcsrrf_solve = bind(CSRRF_SOLVE, D)
# fmt: on

__all__ = public_names(globals())
