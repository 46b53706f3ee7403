"""The orthogonal (unitary) matrices of the QL factorization and of the two reductions: org2l/orgql,
orm2l/ormql (ung*/unm* for complex); orgbr/ungbr (Q or P^H of gebrd); orgtr/ungtr and ormtr/unmtr (Q of
sytrd/hetrd).

Precisions and flavours are rocSOLVER's: s, d for org*/orm*, c, z for ung*/unm*, plain only (the
prototypes of rocsolver-functions.h; the Householder scalars are the array they call ``ipiv``).
Semantics are LAPACK's xORG2L/xORGQL, xORM2L/xORMQL, xORGBR, xORGTR and xORMTR, built as rocSOLVER builds
them (library/src/auxiliary/rocauxiliary_orgbr_ungbr.hpp, _orgtr_ungtr.hpp, _ormtr_unmtr.hpp) out of
the QR and LQ routines:

- orgbr, column-wise (Q of gebrd of an m x k matrix): orgqr(m, n, k) when m >= k; otherwise the
  vectors, below the first subdiagonal, move one column right, Q's first row and column become e1 and
  orgqr(m - 1, m - 1, m - 1) runs on the rest.  Row-wise (P^H of gebrd of a k x n matrix): orglq(m, n, k)
  when n > k; otherwise the vectors, right of the first superdiagonal, move one row down, e1 in the
  first row and column, orglq(n - 1, n - 1, n - 1) on the rest.
- orgtr, lower (sytrd's QR form, vectors below the subdiagonal): as orgbr column-wise with m = k = n;
  upper (the QL form, vectors above the superdiagonal): the vectors move one column left, the last row
  and column become e_n, orgql(n - 1, n - 1, n - 1) on the leading block.
- ormtr: ormql (upper) or ormqr (lower) with the nq - 1 vectors of A (nq = m from the left, n from the
  right) on C without its first (lower) or last (upper) row (left) or column (right).

The QL routines reuse the QR kernels of :mod:`rocmath.solver._kernels_qr` on reversed views (J
reverses rows and columns): orgql of A is J orgqr(J A J) J with the scalars in reverse order, and op(Q)
C = J op(Q') J C for Q' = J Q J, the QR matrix of the reversed vectors (from the right, C's columns are
reversed).  No kernel of its own: the reversed views are strided arrays as a padded matrix is, so the
compiled kernels serve.

Check order, pointer checks and quick returns follow each routine's ``*_argCheck`` (orgbr:
``rocsolver_orgbr_argCheck``; orgtr: ``rocsolver_orgtr_argCheck``; ormtr: ``rocsolver_ormtr_argCheck``;
org2l/orgql: ``rocsolver_org2l_orgql_argCheck``; orm2l/ormql: ``rocsolver_orm2l_ormql_argCheck``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_qr as kq
from ._api import SolverCall, SolverRoutine, bind, public_names
from ._types import Fill, Operation, Side, Storev
from .qr import _check_generate, _operation

_P = {"ipiv": "strideP"}


class _Dims(NamedTuple):
    """The checked sizes of one call; ``kind`` selects the branch (see the module docstring)."""

    m: int
    n: int
    k: int
    kind: str
    batch: int = 1


def _size(c: SolverCall, name: str, bad: bool, why: str) -> None:
    if bad:
        raise c.invalid_size(name, why)


def _flops(c: SolverCall, muladds: float) -> float:
    return muladds * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, elements: float) -> float:
    return 2.0 * c.precision.itemsize * elements


# --- launch bodies: numpy around the QR kernels --------------------------------------------------------


def _reversed_tau(tau: np.ndarray) -> np.ndarray:
    # Contiguous, as the forward scalars are: the kernels see the argument types they were compiled for.
    return np.ascontiguousarray(tau[:, ::-1])


def generate_ql(A: np.ndarray, tau: np.ndarray, k: int, ws: np.ndarray | None = None) -> None:
    """xORGQL on every entry of A (m x n, n <= m): the last n columns of H(k)...H(1), the vectors in
    A's last k columns; orgqr of the reversed matrix with the scalars reversed."""
    kq.generate("qr", A[:, ::-1, ::-1], _reversed_tau(tau), k, ws)


def apply_ql(left: bool, trans: bool, V: np.ndarray, tau: np.ndarray, Cm: np.ndarray,
             ws: np.ndarray | None = None) -> None:
    """xORMQL: C := op(Q) C (left) or C op(Q) (right) for Q = H(k)...H(1), the vectors in V (nq x k)."""
    cr = Cm[:, ::-1, :] if left else Cm[:, :, ::-1]
    kq.apply("qr", left, trans, V[:, ::-1, ::-1], _reversed_tau(tau), cr, ws)


def _unit_border(A: np.ndarray, first: bool) -> None:
    """The first (or last) row and column of every entry := those of the identity."""
    i = 0 if first else A.shape[1] - 1
    A[:, i, :] = 0
    A[:, :, i] = 0
    A[:, i, i] = 1


def _shift_right(A: np.ndarray) -> None:
    """The vectors below the first subdiagonal move one column right (LAPACK's xORGBR/xORGTR lower)."""
    for j in range(A.shape[2] - 1, 0, -1):
        A[:, j + 1:, j] = A[:, j + 1:, j - 1]
    _unit_border(A, True)


def _shift_down(A: np.ndarray) -> None:
    """The vectors right of the first superdiagonal move one row down (LAPACK's xORGBR row-wise)."""
    for i in range(A.shape[1] - 1, 0, -1):
        A[:, i, i + 1:] = A[:, i - 1, i + 1:]
    _unit_border(A, True)


def _shift_left(A: np.ndarray) -> None:
    """The vectors above the first superdiagonal move one column left (LAPACK's xORGTR upper)."""
    for j in range(A.shape[2] - 1):
        A[:, :j, j] = A[:, :j, j + 1]
    _unit_border(A, False)


def generate_br(A: np.ndarray, tau: np.ndarray, k: int, kind: str, ws: np.ndarray | None = None) -> None:
    """orgbr / orgtr on every entry of A: ``kind`` qr, lq (orgqr, orglq as they are), below (vectors
    shifted right, orgqr on the trailing block), right (shifted down, orglq on the trailing block) or
    above (shifted left, orgql on the leading block)."""
    if kind in ("qr", "lq"):
        kq.generate(kind, A, tau, k, ws)
        return
    {"below": _shift_right, "right": _shift_down, "above": _shift_left}[kind](A)
    if A.shape[1] == 1:
        return
    if kind == "above":
        generate_ql(A[:, :-1, :-1], tau, k, ws)
    else:
        kq.generate("lq" if kind == "right" else "qr", A[:, 1:, 1:], tau, k, ws)


def apply_tr(upper: bool, left: bool, trans: bool, A: np.ndarray, tau: np.ndarray, Cm: np.ndarray,
             ws: np.ndarray | None = None) -> None:
    """ormtr: op(Q) C or C op(Q) with Q of sytrd's nq - 1 vectors in A (nq x nq)."""
    if upper:
        v = A[:, :-1, 1:]
        sub = Cm[:, :-1, :] if left else Cm[:, :, :-1]
        apply_ql(left, trans, v, tau, sub, ws)
    else:
        v = A[:, 1:, :-1]
        sub = Cm[:, 1:, :] if left else Cm[:, :, 1:]
        kq.apply("qr", left, trans, v, tau, sub, ws)


# --- org2l/orgql, orm2l/ormql --------------------------------------------------------------------------


def _check_generate_ql(c: SolverCall) -> _Dims:
    # rocsolver_org2l_orgql_argCheck: m, n (m < n), k (k > n), lda, as org2r's.
    m, n, k, _ = _check_generate(c, "qr")
    return _Dims(m, n, k, "ql")


def _generate_ql_workspace(c: SolverCall) -> int:
    m, n, _, _, batch = c.dims
    return kq.generate_workspace(m, n, batch, c.precision.itemsize)


def _generate_ql(c: SolverCall) -> None:
    m, n, k, _, _ = c.dims
    c.require("ipiv", when=k > 0)
    c.require("A", when=m > 0 and n > 0)
    if m == 0 or n == 0:
        return
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    tau = c.vector("ipiv", k)
    work = c.workspace_buffer()
    c.launch(generate_ql, a, tau, k, work, flops=_flops(c, 2 * m * n * k), bytes=_bytes(c, m * n))


def _ql_generate_routine(name: str, blocked: bool) -> SolverRoutine:
    how = "blocked" if blocked else "unblocked"
    return SolverRoutine(name, ("m", "n", "k", "A", "lda", "ipiv"), {"A": "lda"}, _generate_ql,
                         check=_check_generate_ql, workspace=_generate_ql_workspace, vectors=_P, pointers=(),
                         summary="The m x n matrix Q with orthonormal columns, the last n columns of H(k)...H(1) from "
                                 "the Householder vectors of geqlf in the last k columns of A and their scalars in "
                                 f"ipiv, over A ({how} algorithm).")


ORG2L, ORGQL = _ql_generate_routine("org2l", False), _ql_generate_routine("orgql", True)
UNG2L, UNGQL = _ql_generate_routine("ung2l", False), _ql_generate_routine("ungql", True)


class _ApplyDims(NamedTuple):
    m: int
    n: int
    k: int
    left: bool
    trans: bool
    batch: int = 1


def _check_apply_ql(c: SolverCall) -> _ApplyDims:
    # rocsolver_orm2l_ormql_argCheck: side, trans (and T for complex, C for real); m, n, k, ldc; then lda
    # before k > nq (ormqr's check has them the other way round).
    side = c.enum("side", Side, (Side.left, Side.right))
    trans = _operation(c)
    left = side is Side.left
    m, n, k, lda, ldc = (c.int(x) for x in ("m", "n", "k", "lda", "ldc"))
    for name, value in (("m", m), ("n", n), ("k", k)):
        _size(c, name, value < 0, f"must be non-negative, got {value}")
    _size(c, "ldc", ldc < m, f"must be >= m = {m}, got {ldc}")
    nq, what = (m, "m") if left else (n, "n")
    _size(c, "lda", lda < nq, f"must be >= {what} = {nq}, got {lda}")
    _size(c, "k", k > nq, f"must be <= {what} = {nq}, got {k}")
    return _ApplyDims(m, n, k, left, trans is not Operation.none)


def _apply_ql_workspace(c: SolverCall) -> int:
    m, n, k, left, _, batch = c.dims
    return kq.apply_workspace(left, m, n, k, batch, c.precision.itemsize)


def _apply_ql(c: SolverCall) -> None:
    m, n, k, left, trans, _ = c.dims
    nq = m if left else n
    c.require("C", when=m > 0 and n > 0)
    c.require("ipiv", when=k > 0)
    c.require("A", when=nq > 0 and k > 0)
    if m == 0 or n == 0 or k == 0:
        return
    v = c.matrix("A", nq, k, c.int("lda"))
    tau = c.vector("ipiv", k)
    cm = c.matrix("C", m, n, c.int("ldc"), writable=True)
    work = c.workspace_buffer()
    c.launch(apply_ql, left, trans, v, tau, cm, work, flops=_flops(c, 2 * m * n * k), bytes=_bytes(c, m * n))


def _ql_apply_routine(name: str, blocked: bool) -> SolverRoutine:
    how = "blocked" if blocked else "unblocked"
    return SolverRoutine(name, ("side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"),
                         {"A": "lda", "C": "ldc"}, _apply_ql, check=_check_apply_ql, workspace=_apply_ql_workspace,
                         vectors=_P, pointers=(),
                         summary="C := op(Q) C (side left) or C op(Q) (right) for Q = H(k)...H(1) of geqlf "
                                 "(Householder vectors in the columns of A, A(nq - k + i, i) their implicit unit "
                                 f"entry; scalars in ipiv); op is none or the (conjugate) transpose ({how} "
                                 "algorithm).")


ORM2L, ORMQL = _ql_apply_routine("orm2l", False), _ql_apply_routine("ormql", True)
UNM2L, UNMQL = _ql_apply_routine("unm2l", False), _ql_apply_routine("unmql", True)


# --- orgbr/ungbr ----------------------------------------------------------------------------------------


def _check_orgbr(c: SolverCall) -> _Dims:
    # rocsolver_orgbr_argCheck: storev; m, n, k, lda; then n in min(m, k)..m (column-wise) or m in
    # min(n, k)..n (row-wise).
    row = c.enum("storev", Storev) is Storev.row_wise
    m, n, k, lda = (c.int(x) for x in ("m", "n", "k", "lda"))
    for name, value in (("m", m), ("n", n), ("k", k)):
        _size(c, name, value < 0, f"must be non-negative, got {value}")
    _size(c, "lda", lda < m, f"must be >= m = {m}, got {lda}")
    if row:
        _size(c, "m", m > n or m < min(n, k), f"must be in min(n, k)..n = {min(n, k)}..{n} (row-wise), got {m}")
        kind = "lq" if n > k else "right"
    else:
        _size(c, "n", n > m or n < min(m, k), f"must be in min(m, k)..m = {min(m, k)}..{m} (column-wise), got {n}")
        kind = "qr" if m >= k else "below"
    return _Dims(m, n, k, kind)


def _orgbr_reflectors(dims: _Dims) -> int:
    """The Householder scalars the generation reads: k, or one fewer than the order of the shifted Q."""
    m, n, k, kind, _ = dims
    return {"qr": k, "lq": k, "below": m - 1, "right": n - 1}[kind]


def _orgbr_workspace(c: SolverCall) -> int:
    m, n, _, kind, batch = c.dims
    if kind in ("below", "right"):
        m, n = m - 1, n - 1
    return kq.generate_workspace(m, n, batch, c.precision.itemsize)


def _orgbr(c: SolverCall) -> None:
    m, n, k, kind, _ = c.dims
    c.require("A", when=m > 0 and n > 0)
    c.require("ipiv", when=min(n if kind in ("lq", "right") else m, k) > 0)
    if m == 0 or n == 0:
        return
    count = _orgbr_reflectors(c.dims)
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    tau = c.vector("ipiv", count)
    work = c.workspace_buffer()
    c.launch(generate_br, a, tau, count, kind, work, flops=_flops(c, 2 * m * n * count), bytes=_bytes(c, m * n))


def _orgbr_routine(name: str) -> SolverRoutine:
    return SolverRoutine(name, ("storev", "m", "n", "k", "A", "lda", "ipiv"), {"A": "lda"}, _orgbr,
                         check=_check_orgbr, workspace=_orgbr_workspace, vectors=_P, pointers=(),
                         summary="The orthonormal Q (storev column-wise: m x n, from gebrd of an m x k matrix, its "
                                 "Householder vectors in A and scalars tauq in ipiv) or P^H (row-wise: m x n, from "
                                 "gebrd of a k x n matrix, scalars taup) of the bidiagonal reduction, over A.")


ORGBR, UNGBR = _orgbr_routine("orgbr"), _orgbr_routine("ungbr")


# --- orgtr/ungtr ----------------------------------------------------------------------------------------


def _check_orgtr(c: SolverCall) -> _Dims:
    # rocsolver_orgtr_argCheck: uplo (upper, lower); n, lda.
    uplo = c.enum("uplo", Fill, (Fill.upper, Fill.lower))
    n, lda = c.int("n"), c.int("lda")
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "lda", lda < n, f"must be >= n = {n}, got {lda}")
    return _Dims(n, n, max(n - 1, 0), "above" if uplo is Fill.upper else "below")


def _orgtr_workspace(c: SolverCall) -> int:
    n = c.dims.n
    return kq.generate_workspace(n - 1, n - 1, c.dims.batch, c.precision.itemsize) if n else 0


def _orgtr(c: SolverCall) -> None:
    n, _, k, kind, _ = c.dims
    c.require("A", when=n > 0)
    c.require("ipiv", when=n > 1)
    if n == 0:
        return
    a = c.matrix("A", n, n, c.int("lda"), writable=True)
    tau = c.vector("ipiv", k)
    work = c.workspace_buffer()
    c.launch(generate_br, a, tau, k, kind, work, flops=_flops(c, 4.0 * n**3 / 3), bytes=_bytes(c, n * n))


def _orgtr_routine(name: str) -> SolverRoutine:
    return SolverRoutine(name, ("uplo", "n", "A", "lda", "ipiv"), {"A": "lda"}, _orgtr, check=_check_orgtr,
                         workspace=_orgtr_workspace, vectors=_P, pointers=(),
                         summary="The n x n orthonormal Q of the tridiagonal reduction sytrd/hetrd (uplo upper: Q = "
                                 "H(n-1)...H(1), vectors above the superdiagonal; lower: Q = H(1)...H(n-1), below "
                                 "the subdiagonal; the n - 1 scalars in ipiv), over A.")


ORGTR, UNGTR = _orgtr_routine("orgtr"), _orgtr_routine("ungtr")


# --- ormtr/unmtr ----------------------------------------------------------------------------------------


class _TrDims(NamedTuple):
    m: int
    n: int
    nq: int
    left: bool
    upper: bool
    trans: bool
    batch: int = 1


def _check_ormtr(c: SolverCall) -> _TrDims:
    # rocsolver_ormtr_argCheck: side, trans (and T for complex, C for real), uplo; m, n, ldc, lda (>= nq).
    side = c.enum("side", Side, (Side.left, Side.right))
    trans = _operation(c)
    uplo = c.enum("uplo", Fill, (Fill.upper, Fill.lower))
    left = side is Side.left
    m, n, lda, ldc = (c.int(x) for x in ("m", "n", "lda", "ldc"))
    _size(c, "m", m < 0, f"must be non-negative, got {m}")
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "ldc", ldc < m, f"must be >= m = {m}, got {ldc}")
    nq, what = (m, "m") if left else (n, "n")
    _size(c, "lda", lda < nq, f"must be >= {what} = {nq}, got {lda}")
    return _TrDims(m, n, nq, left, uplo is Fill.upper, trans is not Operation.none)


def _ormtr_sub(dims: _TrDims) -> tuple[int, int]:
    """The rows and columns of C that Q of order nq - 1 applies to."""
    m, n, _, left, *_ = dims
    return (m - 1, n) if left else (m, n - 1)


def _ormtr_workspace(c: SolverCall) -> int:
    rows, cols = _ormtr_sub(c.dims)
    return kq.apply_workspace(c.dims.left, rows, cols, c.dims.nq - 1, c.dims.batch, c.precision.itemsize)


def _ormtr(c: SolverCall) -> None:
    m, n, nq, left, upper, trans, _ = c.dims
    c.require("A", when=nq > 0)
    c.require("ipiv", when=nq > 1)
    c.require("C", when=m > 0 and n > 0)
    if m == 0 or n == 0 or nq == 1:  # nq = 1: Q = I (rocSOLVER's ormqr/ormql of no reflectors returns at once)
        return
    work = c.workspace_buffer()
    a = c.matrix("A", nq, nq, c.int("lda"))
    tau = c.vector("ipiv", nq - 1)
    cm = c.matrix("C", m, n, c.int("ldc"), writable=True)
    c.launch(apply_tr, upper, left, trans, a, tau, cm, work, flops=_flops(c, 2 * m * n * (nq - 1)),
             bytes=_bytes(c, m * n))


def _ormtr_routine(name: str) -> SolverRoutine:
    return SolverRoutine(name, ("side", "uplo", "trans", "m", "n", "A", "lda", "ipiv", "C", "ldc"),
                         {"A": "lda", "C": "ldc"}, _ormtr, check=_check_ormtr, workspace=_ormtr_workspace,
                         vectors=_P, pointers=(),
                         summary="C := op(Q) C (side left, Q of order m) or C op(Q) (right, order n) for the Q of the "
                                 "tridiagonal reduction sytrd/hetrd (uplo as given to it; Householder vectors in A, "
                                 "the nq - 1 scalars in ipiv); op is none or the (conjugate) transpose.")


ORMTR, UNMTR = _ormtr_routine("ormtr"), _ormtr_routine("unmtr")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sorg2l = bind(ORG2L, S)
dorg2l = bind(ORG2L, D)
cung2l = bind(UNG2L, C)
zung2l = bind(UNG2L, Z)
sorgql = bind(ORGQL, S)
dorgql = bind(ORGQL, D)
cungql = bind(UNGQL, C)
zungql = bind(UNGQL, Z)
sorm2l = bind(ORM2L, S)
dorm2l = bind(ORM2L, D)
cunm2l = bind(UNM2L, C)
zunm2l = bind(UNM2L, Z)
sormql = bind(ORMQL, S)
dormql = bind(ORMQL, D)
cunmql = bind(UNMQL, C)
zunmql = bind(UNMQL, Z)
sorgbr = bind(ORGBR, S)
dorgbr = bind(ORGBR, D)
cungbr = bind(UNGBR, C)
zungbr = bind(UNGBR, Z)
sorgtr = bind(ORGTR, S)
dorgtr = bind(ORGTR, D)
cungtr = bind(UNGTR, C)
zungtr = bind(UNGTR, Z)
sormtr = bind(ORMTR, S)
dormtr = bind(ORMTR, D)
cunmtr = bind(UNMTR, C)
zunmtr = bind(UNMTR, Z)
# fmt: on

__all__ = public_names(globals())
