"""The Householder (QR) family: geqr2/geqrf, gelq2/gelqf, geql2/geqlf, gerq2/gerqf; org2r/orgqr, orgl2/orglq
(ung* for complex); orm2r/ormqr, orml2/ormlq (unm*); gels; and the auxiliaries lacgv, larfg, larf, larft, larfb.

Precisions and flavours are rocSOLVER's: the factorizations and gels in s/d/c/z and the
three flavours; org*/orm* (s, d) and ung*/unm* (c, z) plain only; lacgv (c, z) and
larfg/larf/larft/larfb (s/d/c/z) plain only.  The Householder scalars are the array
rocSOLVER's prototypes call ``ipiv`` (``strideP`` apart in both batched flavours).

Semantics are LAPACK's: ``H(i) = I - tau_i v_i v_i^H`` with ``v_i``'s unit entry
implicit; beta (the diagonal of R, L) is real; tau = 0 (H = I) for a column already
zero below its diagonal with a real diagonal entry.  Where rocSOLVER's larfg
(rocauxiliary_larfg.hpp, run_set_taubeta) differs from LAPACK's xLARFG, larfg and the
factorizations of entries with ``min(m, n) <= 64`` (gels included) follow rocSOLVER:
beta = -norm when re(alpha) >= 0, so alpha = -0.0 gives beta <= 0 (LAPACK: >= 0); tau
= 0 with alpha and x left as they are unless ``||x||^2 > 0`` or ``im(alpha)^2 > 0`` in
the working precision (so also for an infinite or NaN alpha with x = 0, a complex
alpha whose imaginary part squares to 0, a NaN in x).  Larger entries run LAPACK
and keep its conventions.  The blocked routines (geqrf...) and their unblocked twins
(geqr2...) give the same results here.  gels follows rocSOLVER: ``info`` is the first
exact zero on the diagonal of R (L); that entry's B is left as it was unless the
solve had already applied Q^H (m >= n, not transposed) or Q (m < n, transposed), as
in LAPACK.  larft writes the whole k x k T (the unused triangle as zeros), and larfb
from the right with a complex trans T uses T^T, both as rocSOLVER does.  Check order
and quick returns follow each routine's ``*_argCheck``.  The work is
:mod:`rocmath.solver._kernels_qr`.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from rocmath.precision import C, D, S, Z

from . import _kernels_qr as kq
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._types import Direct, Operation, Side, Storev


class _Dims(NamedTuple):
    """The checked sizes of one call."""

    m: int
    n: int
    k: int
    batch: int = 1


def _extent(rows: int, cols: int, ld: int) -> int:
    """Elements one column-major entry spans."""
    return 0 if rows == 0 or cols == 0 else ld * (cols - 1) + rows


def _flops(c: SolverCall, muladds: float) -> float:
    """Real flops for the launch record: a complex multiply-add is 8 real flops."""
    return muladds * c.dims.batch * (8 if c.precision.is_complex else 2)


def _bytes(c: SolverCall, *elements: float) -> float:
    return 2.0 * c.dims.batch * c.precision.itemsize * sum(elements)


def _size(c: SolverCall, name: str, bad: bool, why: str) -> None:
    """invalid_size naming ``name`` if ``bad``: rocSOLVER's size conditions, in its order."""
    if bad:
        raise c.invalid_size(name, why)


def _qr_muladds(m: int, n: int) -> float:
    k = min(m, n)
    return m * n * k - (m + n) * k * k / 2 + k**3 / 3


def _operation(c: SolverCall) -> Operation:
    """trans: N, T or C, and only the one of the two that the precision has (T real, C complex)."""
    c.enum("trans", Operation)
    other = Operation.conjugate_transpose if c.precision.is_complex else Operation.transpose
    return c.enum("trans", Operation, (Operation.none, other))


# --- geqr2/geqrf, gelq2/gelqf, geql2/geqlf, gerq2/gerqf ------------------------------------------------


def _check_factor(c: SolverCall) -> _Dims:
    m, n = c.sizes("m", "n")
    c.lds(("lda", m))
    (batch,) = c.sizes("batch_count")
    return _Dims(m, n, min(m, n), batch)


def _factor_workspace(c: SolverCall) -> int:
    m, n, _, batch = c.dims
    return kq.factor_workspace(m, n, batch, c.precision.itemsize)


def _factor(c: SolverCall, kind: str) -> None:
    m, n, k, batch = c.dims
    c.require("A", "ipiv", when=m > 0 and n > 0)
    if batch == 0 or m == 0 or n == 0:
        return
    lda = c.int("lda")
    a = c.matrix("A", m, n, lda, writable=True)
    tau = c.vector("ipiv", k, writable=True)
    serial = c.overlapping(("A", _extent(m, n, lda)), ("ipiv", k))
    work = c.workspace_buffer()
    c.launch(kq.factor, kind, a, tau, serial, work, flops=_flops(c, _qr_muladds(m, n) * 2), bytes=_bytes(c, m * n))


_FACTOR_PARAMS = ("m", "n", "A", "lda", "ipiv")
_P = {"ipiv": "strideP"}
_FACTOR_SUMMARY = {
    "qr": "QR factorization A = Q R: R on and above the diagonal, Q = H(1)...H(k) as Householder vectors below "
          "it and their scalars in ipiv (tau), k = min(m, n)",
    "lq": "LQ factorization A = L Q: L on and below the diagonal, Q = H(k)^H...H(1)^H as (conjugated) Householder "
          "vectors right of it and their scalars in ipiv (tau), k = min(m, n)",
    "ql": "QL factorization A = Q L: L in the last min(m, n) rows (columns), Q = H(k)...H(1) as Householder vectors "
          "above it and their scalars in ipiv (tau), k = min(m, n)",
    "rq": "RQ factorization A = R Q: R in the last min(m, n) columns (rows), Q = H(1)^H...H(k)^H as (conjugated) "
          "Householder vectors left of it and their scalars in ipiv (tau), k = min(m, n)",
}


def _factor_routine(name: str, kind: str, blocked: bool) -> SolverRoutine:
    how = "blocked" if blocked else "unblocked"
    return SolverRoutine(name, _FACTOR_PARAMS, {"A": "lda"}, partial(_factor, kind=kind), check=_check_factor,
                         workspace=_factor_workspace, vectors=_P, pointers=(),
                         summary=f"{_FACTOR_SUMMARY[kind]} ({how} algorithm).")


GEQR2, GEQRF = _factor_routine("geqr2", "qr", False), _factor_routine("geqrf", "qr", True)
GELQ2, GELQF = _factor_routine("gelq2", "lq", False), _factor_routine("gelqf", "lq", True)
GEQL2, GEQLF = _factor_routine("geql2", "ql", False), _factor_routine("geqlf", "ql", True)
GERQ2, GERQF = _factor_routine("gerq2", "rq", False), _factor_routine("gerqf", "rq", True)


# --- org2r/orgqr, orgl2/orglq (ung2r/ungqr, ungl2/unglq) ----------------------------------------------


def _check_generate(c: SolverCall, kind: str) -> _Dims:
    m, n, k, lda = (c.int(x) for x in ("m", "n", "k", "lda"))
    _size(c, "m", m < 0, f"must be non-negative, got {m}")
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    if kind == "qr":
        _size(c, "n", n > m, f"must be <= m = {m} (Q has orthonormal columns), got {n}")
        _size(c, "k", k < 0 or k > n, f"must be in 0..n = {n}, got {k}")
    else:
        _size(c, "n", n < m, f"must be >= m = {m} (Q has orthonormal rows), got {n}")
        _size(c, "k", k < 0 or k > m, f"must be in 0..m = {m}, got {k}")
    _size(c, "lda", lda < m, f"must be >= m = {m}, got {lda}")
    return _Dims(m, n, k)


def _generate_workspace(c: SolverCall) -> int:
    m, n, _, batch = c.dims
    return kq.generate_workspace(m, n, batch, c.precision.itemsize)


def _generate(c: SolverCall, kind: str) -> None:
    m, n, k, _ = c.dims
    c.require("ipiv", when=k > 0)
    c.require("A", when=m > 0 and n > 0)
    if m == 0 or n == 0:
        return
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    tau = c.vector("ipiv", k)
    work = c.workspace_buffer()
    c.launch(kq.generate, kind, a, tau, k, work, flops=_flops(c, 2 * m * n * k), bytes=_bytes(c, m * n))


_GENERATE_SUMMARY = {
    "qr": "The m x n matrix Q with orthonormal columns, the first n columns of H(1)...H(k) from the Householder "
          "vectors of geqrf in A and their scalars in ipiv, over A",
    "lq": "The m x n matrix Q with orthonormal rows, the first m rows of H(k)^H...H(1)^H from the Householder "
          "vectors of gelqf in A and their scalars in ipiv, over A",
}


def _generate_routine(name: str, kind: str, blocked: bool) -> SolverRoutine:
    how = "blocked" if blocked else "unblocked"
    return SolverRoutine(name, ("m", "n", "k", "A", "lda", "ipiv"), {"A": "lda"}, partial(_generate, kind=kind),
                         check=partial(_check_generate, kind=kind), workspace=_generate_workspace, vectors=_P,
                         pointers=(),
                         summary=f"{_GENERATE_SUMMARY[kind]} ({how} algorithm).")


ORG2R, ORGQR = _generate_routine("org2r", "qr", False), _generate_routine("orgqr", "qr", True)
UNG2R, UNGQR = _generate_routine("ung2r", "qr", False), _generate_routine("ungqr", "qr", True)
ORGL2, ORGLQ = _generate_routine("orgl2", "lq", False), _generate_routine("orglq", "lq", True)
UNGL2, UNGLQ = _generate_routine("ungl2", "lq", False), _generate_routine("unglq", "lq", True)


# --- orm2r/ormqr, orml2/ormlq (unm2r/unmqr, unml2/unmlq) ----------------------------------------------


class _ApplyDims(NamedTuple):
    m: int
    n: int
    k: int
    batch: int
    left: bool
    trans: bool


def _check_apply(c: SolverCall, kind: str) -> _ApplyDims:
    side = c.enum("side", Side, (Side.left, Side.right))
    trans = _operation(c)
    left = side is Side.left
    m, n, k, lda, ldc = (c.int(x) for x in ("m", "n", "k", "lda", "ldc"))
    for name, value in (("m", m), ("n", n), ("k", k)):
        _size(c, name, value < 0, f"must be non-negative, got {value}")
    _size(c, "ldc", ldc < m, f"must be >= m = {m}, got {ldc}")
    nq = m if left else n
    if kind == "lq":
        _size(c, "lda", lda < k, f"must be >= k = {k}, got {lda}")
    _size(c, "k", k > nq, f"must be <= {'m' if left else 'n'} = {nq}, got {k}")
    if kind == "qr":
        _size(c, "lda", lda < nq, f"must be >= {'m' if left else 'n'} = {nq}, got {lda}")
    return _ApplyDims(m, n, k, 1, left, trans is not Operation.none)


def _apply_workspace(c: SolverCall) -> int:
    m, n, k, batch, left, _ = c.dims
    return kq.apply_workspace(left, m, n, k, batch, c.precision.itemsize)


def _apply(c: SolverCall, kind: str) -> None:
    m, n, k, _, left, trans = c.dims
    nq = m if left else n
    c.require("C", when=m > 0 and n > 0)
    c.require("ipiv", when=k > 0)
    c.require("A", when=nq > 0 and k > 0)
    if m == 0 or n == 0 or k == 0:
        return
    rows, cols = (nq, k) if kind == "qr" else (k, nq)
    v = c.matrix("A", rows, cols, c.int("lda"))
    tau = c.vector("ipiv", k)
    cm = c.matrix("C", m, n, c.int("ldc"), writable=True)
    work = c.workspace_buffer()
    c.launch(kq.apply, kind, left, trans, v, tau, cm, work, flops=_flops(c, 2 * m * n * k), bytes=_bytes(c, m * n))


_APPLY_SUMMARY = {
    "qr": "C := op(Q) C (side left) or C op(Q) (right) for Q = H(1)...H(k) of geqrf (Householder vectors in the "
          "columns of A, scalars in ipiv)",
    "lq": "C := op(Q) C (side left) or C op(Q) (right) for Q = H(k)^H...H(1)^H of gelqf (Householder vectors in the "
          "rows of A, scalars in ipiv)",
}


def _apply_routine(name: str, kind: str, blocked: bool) -> SolverRoutine:
    how = "blocked" if blocked else "unblocked"
    return SolverRoutine(name, ("side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"),
                         {"A": "lda", "C": "ldc"}, partial(_apply, kind=kind), check=partial(_check_apply, kind=kind),
                         workspace=_apply_workspace, vectors=_P, pointers=(),
                         summary=f"{_APPLY_SUMMARY[kind]}; op is none or the (conjugate) transpose ({how} "
                                 "algorithm).")


ORM2R, ORMQR = _apply_routine("orm2r", "qr", False), _apply_routine("ormqr", "qr", True)
UNM2R, UNMQR = _apply_routine("unm2r", "qr", False), _apply_routine("unmqr", "qr", True)
ORML2, ORMLQ = _apply_routine("orml2", "lq", False), _apply_routine("ormlq", "lq", True)
UNML2, UNMLQ = _apply_routine("unml2", "lq", False), _apply_routine("unmlq", "lq", True)


# --- gels ----------------------------------------------------------------------------------------


class _GelsDims(NamedTuple):
    m: int
    n: int
    nrhs: int
    batch: int
    trans: bool


def _check_gels(c: SolverCall) -> _GelsDims:
    trans = _operation(c)
    m, n, nrhs = c.sizes("m", "n", "nrhs")
    c.lds(("lda", m), ("ldb", m), ("ldb", n))
    (batch,) = c.sizes("batch_count")
    return _GelsDims(m, n, nrhs, batch, trans is not Operation.none)


def _gels_workspace(c: SolverCall) -> int:
    m, n, nrhs, batch, _ = c.dims
    return kq.gels_workspace(m, n, nrhs, batch, c.precision.itemsize)


def _gels(c: SolverCall) -> None:
    m, n, nrhs, batch, trans = c.dims
    c.require("A", when=m > 0 and n > 0)
    c.require("B", when=(m > 0 or n > 0) and nrhs > 0)
    c.require("info", when=batch > 0)
    if batch == 0:
        return
    work = c.workspace_buffer()  # before info is written: a too small user workspace changes nothing
    c.reset_info()
    if nrhs == 0:
        return
    rows, ldb = max(m, n), c.int("ldb")
    b = c.matrix("B", rows, nrhs, ldb, writable=True)
    if m == 0 or n == 0:  # rocSOLVER: the solution of an empty system is zero
        c.launch(kq.zero, b, bytes=c.precision.itemsize * batch * rows * nrhs)
        return
    lda = c.int("lda")
    a = c.matrix("A", m, n, lda, writable=True)
    serial = c.overlapping(("A", _extent(m, n, lda)), ("B", _extent(rows, nrhs, ldb)))
    c.launch(kq.gels, a, b, c.info(), trans, serial, work,
             flops=_flops(c, 2 * _qr_muladds(m, n) + 2 * rows * min(m, n) * nrhs + min(m, n) ** 2 * nrhs / 2),
             bytes=_bytes(c, m * n, rows * nrhs))


GELS = SolverRoutine("gels", ("trans", "m", "n", "nrhs", "A", "lda", "B", "ldb", "info"), {"A": "lda", "B": "ldb"},
                     _gels, check=_check_gels, workspace=_gels_workspace,
                     summary="Least squares solution of the overdetermined, or minimum norm solution of the "
                             "underdetermined, system op(A) X = B for A of full rank, through its QR (m >= n) or LQ "
                             "(m < n) factorization (over A); X over B (ldb >= max(m, n)); info = first zero on the "
                             "diagonal of R (L).")


# --- lacgv, larfg, larf, larft, larfb ----------------------------------------------------------------


def _check_lacgv(c: SolverCall) -> _Dims:
    (n,) = c.sizes("n")
    _size(c, "incx", c.int("incx") == 0, "must not be 0")
    return _Dims(n, n, 0)


def _lacgv(c: SolverCall) -> None:
    n = c.dims.n
    c.require("x", when=n > 0)
    if n == 0:
        return
    c.launch(kq.lacgv, c.vector("x", n, c.int("incx"), writable=True), bytes=2.0 * c.precision.itemsize * n)


LACGV = SolverRoutine("lacgv", ("n", "x", "incx"), {}, _lacgv, check=_check_lacgv, pointers=("x",),
                      summary="x := conj(x) for the n elements of the complex vector x (incx < 0: in reverse order).")


def _check_larfg(c: SolverCall) -> _Dims:
    n, incx = c.int("n"), c.int("incx")
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "incx", incx < 1, f"must be positive, got {incx}")
    return _Dims(n, n, 0)


def _larfg(c: SolverCall) -> None:
    n = c.dims.n
    c.require("x", when=n > 1)
    c.require("alpha", "tau", when=n > 0)
    if n == 0:
        return
    x = c.vector("x", n - 1, c.int("incx"), writable=True) if n > 1 else None
    c.launch(kq.larfg, c.array("alpha", 1, c.dtype), x, c.array("tau", 1, c.dtype),
             flops=_flops(c, 2 * n), bytes=2.0 * c.precision.itemsize * n)


LARFG = SolverRoutine("larfg", ("n", "alpha", "x", "incx", "tau"), {}, _larfg, check=_check_larfg,
                      pointers=("alpha", "x", "tau"),
                      summary="Householder reflector H = I - tau [1; v] [1; v]^H of order n with H^H [alpha; x] = "
                              "[beta; 0]: beta (real, -norm for re(alpha) >= 0) over alpha, v over x, tau (0, alpha "
                              "and x left as they are, unless ||x||^2 > 0 or im(alpha)^2 > 0).")


def _check_larf(c: SolverCall) -> _Dims:
    side = c.enum("side", Side, (Side.left, Side.right))
    m, n, lda, incx = (c.int(x) for x in ("m", "n", "lda", "incx"))
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "m", m < 0, f"must be non-negative, got {m}")
    _size(c, "lda", lda < m, f"must be >= m = {m}, got {lda}")
    _size(c, "incx", incx == 0, "must not be 0")
    return _Dims(m, n, m if side is Side.left else n)


def _larf(c: SolverCall) -> None:
    m, n, length, _ = c.dims  # length: of x, m (left) or n (right)
    c.require("A", when=m > 0 and n > 0)
    c.require("alpha", "x", when=length > 0)
    if m == 0 or n == 0:
        return
    x = c.vector("x", length, c.int("incx"))
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    c.launch(kq.larf, c.enum("side", Side) is Side.left, x, c.array("alpha", 1, c.dtype), a,
             flops=_flops(c, 2 * m * n), bytes=_bytes(c, m * n))


LARF = SolverRoutine("larf", ("side", "m", "n", "x", "incx", "alpha", "A", "lda"), {"A": "lda"}, _larf,
                     check=_check_larf, pointers=("x", "alpha"),
                     summary="A := H A (side left) or A H (right) for H = I - alpha x x^H, x used whole; alpha = 0 "
                             "leaves A as it is.")


class _BlockDims(NamedTuple):
    m: int
    n: int
    k: int
    batch: int
    forward: bool
    rowwise: bool


def _check_larft(c: SolverCall) -> _BlockDims:
    direct = c.enum("direct", Direct)
    storev = c.enum("storev", Storev)
    rowwise = storev is Storev.row_wise
    n, k, ldv, ldt = (c.int(x) for x in ("n", "k", "ldv", "ldt"))
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "k", k < 1, f"must be positive, got {k}")
    _size(c, "ldt", ldt < k, f"must be >= k = {k}, got {ldt}")
    need = k if rowwise else n
    _size(c, "ldv", ldv < need, f"must be >= {'k' if rowwise else 'n'} = {need}, got {ldv}")
    return _BlockDims(n, n, k, 1, direct is Direct.forward_direction, rowwise)


def _larft(c: SolverCall) -> None:
    n, _, k, _, forward, rowwise = c.dims
    c.require("V", when=n > 0)
    c.require("tau", "T")
    if n == 0:
        return
    rows, cols = (k, n) if rowwise else (n, k)
    v = c.matrix("V", rows, cols, c.int("ldv"))
    t = c.matrix("T", k, k, c.int("ldt"), writable=True)
    c.launch(kq.larft, forward, rowwise, v, c.array("tau", k, c.dtype), t, flops=_flops(c, n * k * k),
             bytes=_bytes(c, n * k, k * k))


LARFT = SolverRoutine("larft", ("direct", "storev", "n", "k", "V", "ldv", "tau", "T", "ldt"),
                      {"V": "ldv", "T": "ldt"}, _larft, check=_check_larft, pointers=("tau",),
                      summary="Triangular factor T of the block reflector H = H(1)...H(k) (forward) or H(k)...H(1) "
                              "(backward), H = I - V T V^H (column-wise vectors) or I - V^H T V (row-wise); T upper "
                              "(forward) or lower (backward) triangular, its other triangle set to zero.")


def _check_larfb(c: SolverCall) -> _BlockDims:
    side = c.enum("side", Side, (Side.left, Side.right))
    c.enum("trans", Operation)
    direct = c.enum("direct", Direct)
    storev = c.enum("storev", Storev)
    left, rowwise = side is Side.left, storev is Storev.row_wise
    m, n, k, ldv, ldt, lda = (c.int(x) for x in ("m", "n", "k", "ldv", "ldt", "lda"))
    _size(c, "m", m < 0, f"must be non-negative, got {m}")
    _size(c, "n", n < 0, f"must be non-negative, got {n}")
    _size(c, "k", k < 1, f"must be positive, got {k}")
    _size(c, "lda", lda < m, f"must be >= m = {m}, got {lda}")
    _size(c, "ldt", ldt < k, f"must be >= k = {k}, got {ldt}")
    need = k if rowwise else (m if left else n)
    _size(c, "ldv", ldv < need, f"must be >= {need}, got {ldv}")
    return _BlockDims(m, n, k, 1, direct is Direct.forward_direction, rowwise)


def _larfb(c: SolverCall) -> None:
    m, n, k, _, forward, rowwise = c.dims
    left = c.enum("side", Side) is Side.left
    nq = m if left else n
    c.require("V", when=nq > 0)
    c.require("A", when=m > 0 and n > 0)
    c.require("T")
    if m == 0 or n == 0:
        return
    rows, cols = (k, nq) if rowwise else (nq, k)
    v = c.matrix("V", rows, cols, c.int("ldv"))
    t = c.matrix("T", k, k, c.int("ldt"))
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    op = c.enum("trans", Operation)
    # From the right, rocSOLVER (as LAPACK's xLARFB) applies op(T) as given: for complex data, trans T is
    # A (I - V T^T V^H), not A H^H; from the left, T is taken as C (rocauxiliary_larfb.hpp, transt).
    conjugate = op is Operation.conjugate_transpose or (left and op is Operation.transpose)
    c.launch(kq.larfb, left, op is not Operation.none, conjugate, forward, rowwise, v, t, a,
             flops=_flops(c, 2 * m * n * k + nq * k * k), bytes=_bytes(c, m * n))


LARFB = SolverRoutine("larfb", ("side", "trans", "direct", "storev", "m", "n", "k", "V", "ldv", "T", "ldt", "A", "lda"),
                      {"V": "ldv", "T": "ldt", "A": "lda"}, _larfb, check=_check_larfb,
                      summary="A := op(H) A (side left) or A op(H) (right) for the block reflector H = I - V T V^H "
                              "(column-wise) or I - V^H T V (row-wise) of larft; op(H) = H^H for trans T or C, "
                              "except from the right with complex trans T, which takes T^T for T (A (I - V T^T V^H) "
                              "column-wise), as rocSOLVER's and LAPACK's larfb do.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgeqr2 = bind(GEQR2, S)
dgeqr2 = bind(GEQR2, D)
cgeqr2 = bind(GEQR2, C)
zgeqr2 = bind(GEQR2, Z)
sgeqr2_batched = bind(GEQR2, S, BATCHED)
dgeqr2_batched = bind(GEQR2, D, BATCHED)
cgeqr2_batched = bind(GEQR2, C, BATCHED)
zgeqr2_batched = bind(GEQR2, Z, BATCHED)
sgeqr2_strided_batched = bind(GEQR2, S, STRIDED)
dgeqr2_strided_batched = bind(GEQR2, D, STRIDED)
cgeqr2_strided_batched = bind(GEQR2, C, STRIDED)
zgeqr2_strided_batched = bind(GEQR2, Z, STRIDED)
sgeqr2_64 = bind(GEQR2, S, ilp64=True)
dgeqr2_64 = bind(GEQR2, D, ilp64=True)
cgeqr2_64 = bind(GEQR2, C, ilp64=True)
zgeqr2_64 = bind(GEQR2, Z, ilp64=True)
sgeqr2_batched_64 = bind(GEQR2, S, BATCHED, ilp64=True)
dgeqr2_batched_64 = bind(GEQR2, D, BATCHED, ilp64=True)
cgeqr2_batched_64 = bind(GEQR2, C, BATCHED, ilp64=True)
zgeqr2_batched_64 = bind(GEQR2, Z, BATCHED, ilp64=True)
sgeqr2_strided_batched_64 = bind(GEQR2, S, STRIDED, ilp64=True)
dgeqr2_strided_batched_64 = bind(GEQR2, D, STRIDED, ilp64=True)
cgeqr2_strided_batched_64 = bind(GEQR2, C, STRIDED, ilp64=True)
zgeqr2_strided_batched_64 = bind(GEQR2, Z, STRIDED, ilp64=True)
sgeqrf = bind(GEQRF, S)
dgeqrf = bind(GEQRF, D)
cgeqrf = bind(GEQRF, C)
zgeqrf = bind(GEQRF, Z)
sgeqrf_batched = bind(GEQRF, S, BATCHED)
dgeqrf_batched = bind(GEQRF, D, BATCHED)
cgeqrf_batched = bind(GEQRF, C, BATCHED)
zgeqrf_batched = bind(GEQRF, Z, BATCHED)
sgeqrf_strided_batched = bind(GEQRF, S, STRIDED)
dgeqrf_strided_batched = bind(GEQRF, D, STRIDED)
cgeqrf_strided_batched = bind(GEQRF, C, STRIDED)
zgeqrf_strided_batched = bind(GEQRF, Z, STRIDED)
sgeqrf_64 = bind(GEQRF, S, ilp64=True)
dgeqrf_64 = bind(GEQRF, D, ilp64=True)
cgeqrf_64 = bind(GEQRF, C, ilp64=True)
zgeqrf_64 = bind(GEQRF, Z, ilp64=True)
sgeqrf_batched_64 = bind(GEQRF, S, BATCHED, ilp64=True)
dgeqrf_batched_64 = bind(GEQRF, D, BATCHED, ilp64=True)
cgeqrf_batched_64 = bind(GEQRF, C, BATCHED, ilp64=True)
zgeqrf_batched_64 = bind(GEQRF, Z, BATCHED, ilp64=True)
sgeqrf_strided_batched_64 = bind(GEQRF, S, STRIDED, ilp64=True)
dgeqrf_strided_batched_64 = bind(GEQRF, D, STRIDED, ilp64=True)
cgeqrf_strided_batched_64 = bind(GEQRF, C, STRIDED, ilp64=True)
zgeqrf_strided_batched_64 = bind(GEQRF, Z, STRIDED, ilp64=True)
sgelq2 = bind(GELQ2, S)
dgelq2 = bind(GELQ2, D)
cgelq2 = bind(GELQ2, C)
zgelq2 = bind(GELQ2, Z)
sgelq2_batched = bind(GELQ2, S, BATCHED)
dgelq2_batched = bind(GELQ2, D, BATCHED)
cgelq2_batched = bind(GELQ2, C, BATCHED)
zgelq2_batched = bind(GELQ2, Z, BATCHED)
sgelq2_strided_batched = bind(GELQ2, S, STRIDED)
dgelq2_strided_batched = bind(GELQ2, D, STRIDED)
cgelq2_strided_batched = bind(GELQ2, C, STRIDED)
zgelq2_strided_batched = bind(GELQ2, Z, STRIDED)
sgelqf = bind(GELQF, S)
dgelqf = bind(GELQF, D)
cgelqf = bind(GELQF, C)
zgelqf = bind(GELQF, Z)
sgelqf_batched = bind(GELQF, S, BATCHED)
dgelqf_batched = bind(GELQF, D, BATCHED)
cgelqf_batched = bind(GELQF, C, BATCHED)
zgelqf_batched = bind(GELQF, Z, BATCHED)
sgelqf_strided_batched = bind(GELQF, S, STRIDED)
dgelqf_strided_batched = bind(GELQF, D, STRIDED)
cgelqf_strided_batched = bind(GELQF, C, STRIDED)
zgelqf_strided_batched = bind(GELQF, Z, STRIDED)
sgeql2 = bind(GEQL2, S)
dgeql2 = bind(GEQL2, D)
cgeql2 = bind(GEQL2, C)
zgeql2 = bind(GEQL2, Z)
sgeql2_batched = bind(GEQL2, S, BATCHED)
dgeql2_batched = bind(GEQL2, D, BATCHED)
cgeql2_batched = bind(GEQL2, C, BATCHED)
zgeql2_batched = bind(GEQL2, Z, BATCHED)
sgeql2_strided_batched = bind(GEQL2, S, STRIDED)
dgeql2_strided_batched = bind(GEQL2, D, STRIDED)
cgeql2_strided_batched = bind(GEQL2, C, STRIDED)
zgeql2_strided_batched = bind(GEQL2, Z, STRIDED)
sgeqlf = bind(GEQLF, S)
dgeqlf = bind(GEQLF, D)
cgeqlf = bind(GEQLF, C)
zgeqlf = bind(GEQLF, Z)
sgeqlf_batched = bind(GEQLF, S, BATCHED)
dgeqlf_batched = bind(GEQLF, D, BATCHED)
cgeqlf_batched = bind(GEQLF, C, BATCHED)
zgeqlf_batched = bind(GEQLF, Z, BATCHED)
sgeqlf_strided_batched = bind(GEQLF, S, STRIDED)
dgeqlf_strided_batched = bind(GEQLF, D, STRIDED)
cgeqlf_strided_batched = bind(GEQLF, C, STRIDED)
zgeqlf_strided_batched = bind(GEQLF, Z, STRIDED)
sgerq2 = bind(GERQ2, S)
dgerq2 = bind(GERQ2, D)
cgerq2 = bind(GERQ2, C)
zgerq2 = bind(GERQ2, Z)
sgerq2_batched = bind(GERQ2, S, BATCHED)
dgerq2_batched = bind(GERQ2, D, BATCHED)
cgerq2_batched = bind(GERQ2, C, BATCHED)
zgerq2_batched = bind(GERQ2, Z, BATCHED)
sgerq2_strided_batched = bind(GERQ2, S, STRIDED)
dgerq2_strided_batched = bind(GERQ2, D, STRIDED)
cgerq2_strided_batched = bind(GERQ2, C, STRIDED)
zgerq2_strided_batched = bind(GERQ2, Z, STRIDED)
sgerqf = bind(GERQF, S)
dgerqf = bind(GERQF, D)
cgerqf = bind(GERQF, C)
zgerqf = bind(GERQF, Z)
sgerqf_batched = bind(GERQF, S, BATCHED)
dgerqf_batched = bind(GERQF, D, BATCHED)
cgerqf_batched = bind(GERQF, C, BATCHED)
zgerqf_batched = bind(GERQF, Z, BATCHED)
sgerqf_strided_batched = bind(GERQF, S, STRIDED)
dgerqf_strided_batched = bind(GERQF, D, STRIDED)
cgerqf_strided_batched = bind(GERQF, C, STRIDED)
zgerqf_strided_batched = bind(GERQF, Z, STRIDED)
sorg2r = bind(ORG2R, S)
dorg2r = bind(ORG2R, D)
cung2r = bind(UNG2R, C)
zung2r = bind(UNG2R, Z)
sorgqr = bind(ORGQR, S)
dorgqr = bind(ORGQR, D)
cungqr = bind(UNGQR, C)
zungqr = bind(UNGQR, Z)
sorgl2 = bind(ORGL2, S)
dorgl2 = bind(ORGL2, D)
cungl2 = bind(UNGL2, C)
zungl2 = bind(UNGL2, Z)
sorglq = bind(ORGLQ, S)
dorglq = bind(ORGLQ, D)
cunglq = bind(UNGLQ, C)
zunglq = bind(UNGLQ, Z)
sorm2r = bind(ORM2R, S)
dorm2r = bind(ORM2R, D)
cunm2r = bind(UNM2R, C)
zunm2r = bind(UNM2R, Z)
sormqr = bind(ORMQR, S)
dormqr = bind(ORMQR, D)
cunmqr = bind(UNMQR, C)
zunmqr = bind(UNMQR, Z)
sorml2 = bind(ORML2, S)
dorml2 = bind(ORML2, D)
cunml2 = bind(UNML2, C)
zunml2 = bind(UNML2, Z)
sormlq = bind(ORMLQ, S)
dormlq = bind(ORMLQ, D)
cunmlq = bind(UNMLQ, C)
zunmlq = bind(UNMLQ, Z)
sgels = bind(GELS, S)
dgels = bind(GELS, D)
cgels = bind(GELS, C)
zgels = bind(GELS, Z)
sgels_batched = bind(GELS, S, BATCHED)
dgels_batched = bind(GELS, D, BATCHED)
cgels_batched = bind(GELS, C, BATCHED)
zgels_batched = bind(GELS, Z, BATCHED)
sgels_strided_batched = bind(GELS, S, STRIDED)
dgels_strided_batched = bind(GELS, D, STRIDED)
cgels_strided_batched = bind(GELS, C, STRIDED)
zgels_strided_batched = bind(GELS, Z, STRIDED)
clacgv = bind(LACGV, C)
zlacgv = bind(LACGV, Z)
clacgv_64 = bind(LACGV, C, ilp64=True)
zlacgv_64 = bind(LACGV, Z, ilp64=True)
slarfg = bind(LARFG, S)
dlarfg = bind(LARFG, D)
clarfg = bind(LARFG, C)
zlarfg = bind(LARFG, Z)
slarfg_64 = bind(LARFG, S, ilp64=True)
dlarfg_64 = bind(LARFG, D, ilp64=True)
clarfg_64 = bind(LARFG, C, ilp64=True)
zlarfg_64 = bind(LARFG, Z, ilp64=True)
slarf = bind(LARF, S)
dlarf = bind(LARF, D)
clarf = bind(LARF, C)
zlarf = bind(LARF, Z)
slarf_64 = bind(LARF, S, ilp64=True)
dlarf_64 = bind(LARF, D, ilp64=True)
clarf_64 = bind(LARF, C, ilp64=True)
zlarf_64 = bind(LARF, Z, ilp64=True)
slarft = bind(LARFT, S)
dlarft = bind(LARFT, D)
clarft = bind(LARFT, C)
zlarft = bind(LARFT, Z)
slarfb = bind(LARFB, S)
dlarfb = bind(LARFB, D)
clarfb = bind(LARFB, C)
zlarfb = bind(LARFB, Z)
# fmt: on

__all__ = public_names(globals())
