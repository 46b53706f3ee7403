"""The function families of ``rocmath-bench blas``: one entry per rocblas-bench function.

An entry (:class:`Family`) says which arrays the function takes (:class:`Operand`: their
sizes from m, n, k and the side or transpose, the leading dimension or increment naming
each, whether they are written), the CSV columns rocblas-bench prints for it, the flop
and byte counts of rocBLAS's clients (flops.hpp, bytes.hpp), the NumPy/SciPy reference
and how verification errors are reported.  The plain, ``_batched`` and
``_strided_batched`` forms, and every precision, come from the same entry.

References work on operands stacked by batch entry (``(batch, rows, cols)`` matrices,
``(batch, n)`` vectors) in the type the reference computes in, and return the new
values of the outputs (``"result"`` for reductions), as BLAS defines them: ``beta == 0``
never reads C, the Hermitian updates give a real diagonal, the x-only Level-1 routines
do nothing for ``incx <= 0``.  Band and packed operands (gbmv, sbmv, tpsv, spr, ...) reach
the references as full matrices, so those families reuse the full-storage references.
gemm_ex3's 8-bit float operands have no Precision: a :class:`Float8` stands in for one
(uint8 codes, float32 values), and its reference rounds A, B and D as the call does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from scipy.linalg import get_blas_funcs, solve_triangular

from rocmath import float8

if TYPE_CHECKING:
    from .rocblas_cli import Problem

__all__ = ["FAMILIES", "FLOAT8", "Family", "Float8", "Layout", "Operand", "Reference", "ex3_formats", "ex3_key"]


@dataclass(frozen=True)
class Operand:
    """One array argument of a family.

    Attributes
    ----------
    key
        The parameter name, lower-cased (``"a"``, ``"x"``).
    shape
        ``(rows, cols)`` of a matrix or ``(n,)`` of a vector, from the problem.
    ld
        The parameter giving its leading dimension (``"lda"``) or increment (``"incx"``).
    io
        ``"in"``, ``"out"`` or ``"inout"``.
    kind
        ``"general"``; ``"triangular"`` for the matrix of a solve (made well conditioned);
        ``"hermitian"`` (real diagonal).
    unpack
        Band and packed storage: the entries it stores of its full matrix (:data:`Layout`);
        references see (and return) the full matrix.  A packed operand has no ``ld`` (``""``):
        it is a contiguous vector.
    flag
        The letter of the rocblas-bench flags (``--stride_<flag>``, ``--ld<flag>``) when not
        ``key`` (trtri's invA takes lda's, rotg's s is ``--stride_d``).
    host
        In host pointer mode passed as host values (rotg's and rotmg's operands, rotm's param):
        a number or array of the plain form, one entry per batch entry of ``_batched``, the
        strided storage of ``_strided_batched``.
    """

    key: str
    shape: Callable[[Problem], tuple[int, ...]]
    ld: str
    io: str = "in"
    kind: str = "general"
    unpack: Callable[[Problem], Layout] | None = None
    flag: str = ""
    host: bool = False

    @property
    def vector(self) -> bool:
        return self.ld.startswith("inc") or not self.ld

    @property
    def bench(self) -> str:
        """The letter of its rocblas-bench stride and leading dimension flags."""
        return self.flag or self.key


#: Where a band or packed operand keeps its full matrix's entries: (the stored positions, an
#: index tuple over the operand's (rows, cols) or (n,) entry, the rows and columns in the full
#: matrix, the full matrix's shape).
Layout = tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, tuple[int, int]]


Reference = Callable[["Problem", dict[str, np.ndarray], dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Family:
    """One rocblas-bench function family (plain, ``_batched``, ``_strided_batched``).

    Attributes
    ----------
    operands
        The array arguments.
    columns
        rocblas-bench's argument columns of the strided batched form; the batched form drops
        the strides, the plain form also ``batch_count`` (unless ``plain_columns``).
    reference
        NumPy/SciPy on stacked ``(batch, ...)`` operands and the scalars; returns the new
        values of the outputs (``"result"`` for reductions).
    depth
        The length of the sums behind each output element (scales the tolerance).
    flops, gbytes
        Gflop and GB per batch entry, as rocBLAS's flops.hpp and bytes.hpp count them
        (None: the column is not printed).
    scalars
        The scalar arguments (alpha, beta; rot's c, s).
    result
        Reductions: the precision of the result given the routine's precision (a dtype for
        iamax's indices).
    norms
        How ``-v`` reports errors: ``"pair"`` host and device pointer mode, ``"max"`` their
        maximum, ``"host"`` one column (no scalars), ``"xy"`` x and y apart (rot, rotm),
        ``"sum"`` host and device, each the sum over the outputs (rotg, rotmg).
    plain_columns
        Columns of the plain form when they are not the derived ones.
    aliases
        Output -> input it overwrites unless ``--outofplace`` (gemm_ex's D is C, trmm's C is B).
    adjust_ld
        Raise a too small leading dimension given (rocblas-bench does so for gemm).
    ex_roles
        Operand (or ``"result"``) -> the type flag giving its type: every ``_ex`` family's, and
        gemv's y (``--c_type`` of the mixed hss/tss forms), where the routine has that flag.
    init
        Sets up the drawn data for check (or timing, 0) ``case``: ``init(problem, entries,
        case)`` changes the stacked entries (reference types) in place (rotg's first a and b
        are --alpha and --beta, rotm's param comes from rotmg).
    cases
        How many data cases ``-v`` checks, its errors summed over them (rotm: its four flags).
    returns
        Host pointer mode: the ``host`` operands whose new values the call returns, in order.
    device_timed
        Whether rocblas-bench times the form in device pointer mode (default: host).
    host_mode
        Whether rocBLAS runs the form in host pointer mode at all (rotm's batched forms do not):
        if not, ``-v`` checks device mode alone and reports only its errors.
    bare_plain
        The plain form prints rocblas-bench's bare ``rocblas-us,CPU-us`` line, no argument columns.
    """

    operands: tuple[Operand, ...]
    columns: str
    reference: Reference
    depth: Callable[[Problem], int] = lambda p: 1
    flops: Callable[[Problem], float] | None = None
    gbytes: Callable[[Problem], float] | None = None
    scalars: tuple[str, ...] = ()
    result: Callable[[Any], Any] | None = None
    norms: str = "pair"
    plain_columns: str | None = None
    aliases: tuple[tuple[str, str], ...] = ()
    adjust_ld: bool = False
    ex_roles: Mapping[str, str] | None = None
    init: Callable[[Problem, dict[str, np.ndarray], int], None] | None = None
    cases: int = 1
    returns: tuple[str, ...] = ()
    device_timed: Callable[[Problem], bool] = lambda p: False
    host_mode: Callable[[Problem], bool] = lambda p: True
    bare_plain: bool = False


def _op(x: np.ndarray, trans: str) -> np.ndarray:
    """op(X) of stacked matrices."""
    if trans == "N":
        return x
    t = np.swapaxes(x, -1, -2)
    return t.conj() if trans == "C" else t


def _stored(trans: str, rows: int, cols: int) -> tuple[int, int]:
    """The stored shape of a matrix whose op() is ``rows x cols``."""
    return (rows, cols) if trans == "N" else (cols, rows)


def _triangle(x: np.ndarray, uplo: str, diag: str = "N") -> np.ndarray:
    t = np.triu(x) if uplo == "U" else np.tril(x)
    if diag == "U":
        n = x.shape[-1]
        t = t - t * np.eye(n) + np.eye(n, dtype=x.dtype)
    return t


def _full(x: np.ndarray, uplo: str, hermitian: bool) -> np.ndarray:
    """The symmetric (Hermitian) matrix stored in the ``uplo`` triangle."""
    strict = np.triu(x, 1) if uplo == "U" else np.tril(x, -1)
    mirror = np.swapaxes(strict, -1, -2)
    d = np.diagonal(x, axis1=-2, axis2=-1)
    if hermitian:
        mirror, d = mirror.conj(), d.real
    return strict + mirror + np.eye(x.shape[-1]) * d[..., None, :]


def _merge(old: np.ndarray, new: np.ndarray, uplo: str, hermitian: bool = False) -> np.ndarray:
    """``old`` with its ``uplo`` triangle replaced by ``new``'s (a real diagonal if Hermitian)."""
    n = old.shape[-1]
    mask = np.triu(np.ones((n, n), dtype=bool)) if uplo == "U" else np.tril(np.ones((n, n), dtype=bool))
    if hermitian:
        new = new - 1j * np.eye(n) * np.diagonal(new, axis1=-2, axis2=-1).imag[..., None, :]
    return np.where(mask, new, old)


def _plus_beta(value: np.ndarray, old: np.ndarray, beta: Any) -> np.ndarray:
    """``value + beta * old``; beta == 0 never reads ``old`` (as BLAS)."""
    return value + beta * old if beta != 0 else value


def _solve(a: np.ndarray, b: np.ndarray, uplo: str, trans: str, diag: str, side: str) -> np.ndarray:
    """op(A) X = B (left) or X op(A) = B (right) for each entry, with SciPy's triangular solve."""
    out = np.empty_like(b)
    lower, unit = uplo == "L", diag == "U"
    for e in range(b.shape[0]):
        if side == "L":
            out[e] = solve_triangular(a[e], b[e], trans="NTC".index(trans), lower=lower, unit_diagonal=unit,
                                      check_finite=False)
        else:  # X op(A) = B  <=>  op(A)^T X^T = B^T
            ae, how = (a[e].conj(), 0) if trans == "C" else (a[e], 1 if trans == "N" else 0)
            out[e] = solve_triangular(ae, b[e].T, trans=how, lower=lower, unit_diagonal=unit, check_finite=False).T
    return out


def _dot(conj: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        x = o["x"].conj() if conj else o["x"]
        return {"result": np.sum(x * o["y"], axis=-1)}

    return ref


def _index(find_max: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        mag = np.abs(o["x"].real) + np.abs(o["x"].imag)
        if mag.shape[-1] == 0:
            return {"result": np.zeros(mag.shape[0], dtype=np.int64)}
        return {"result": (np.argmax(mag, axis=-1) if find_max else np.argmin(mag, axis=-1)) + 1}

    return ref


def _ger(conj: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        y = o["y"].conj() if conj else o["y"]
        return {"a": o["a"] + s["alpha"] * o["x"][..., :, None] * y[..., None, :]}

    return ref


def _symv(hermitian: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        ax = (_full(o["a"], p.uplo, hermitian) @ o["x"][..., None])[..., 0]
        return {"y": _plus_beta(s["alpha"] * ax, o["y"], s["beta"])}

    return ref


def _rank_k(hermitian: bool, two: bool, kx: bool = False) -> Reference:
    """syrk/herk; syr2k/her2k (``two``); syrkx/herkx (``kx``: op(A) op(B)^T alone)."""

    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        a = _op(o["a"], p.trans_a)
        b = _op(o["b"], p.trans_a) if two else a
        h = (lambda x: np.swapaxes(x, -1, -2).conj()) if hermitian else (lambda x: np.swapaxes(x, -1, -2))
        alpha = s["alpha"]
        prod = alpha * (a @ h(b))
        if two and not kx:
            prod = prod + (np.conj(alpha) if hermitian else alpha) * (b @ h(a))
        return {"c": _merge(o["c"], _plus_beta(prod, o["c"], s["beta"]), p.uplo, hermitian)}

    return ref


def _symm(hermitian: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        a = _full(o["a"], p.uplo, hermitian)
        prod = a @ o["b"] if p.side == "L" else o["b"] @ a
        return {"c": _plus_beta(s["alpha"] * prod, o["c"], s["beta"])}

    return ref


def _gemm(out: str) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        prod = _op(o["a"], p.trans_a) @ _op(o["b"], p.trans_b)
        return {out: _plus_beta(s["alpha"] * prod, o["c"], s["beta"])}

    return ref


def _x_only(ref: Reference, reduction: bool) -> Reference:
    """rocBLAS's x-only Level-1 routines do nothing for ``incx <= 0`` (reductions give 0)."""

    def wrapped(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        if p.ld["incx"] > 0:
            return ref(p, o, s)
        return {"result": np.zeros(o["x"].shape[0])} if reduction else {"x": o["x"]}

    return wrapped


def _ref_rot(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    c, sn, x, y = s["c"], s["s"], o["x"], o["y"]
    return {"x": c * x + sn * y, "y": c * y - np.conj(sn) * x}


def _ref_gemv(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    ax = (_op(o["a"], p.trans_a) @ o["x"][..., None])[..., 0]
    return {"y": _plus_beta(s["alpha"] * ax, o["y"], s["beta"])}


def _ref_trsv(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    return {"x": _solve(o["a"], o["x"][..., None], p.uplo, p.trans_a, p.diag, "L")[..., 0]}


def _ref_trmv(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    return {"x": (_op(_triangle(o["a"], p.uplo, p.diag), p.trans_a) @ o["x"][..., None])[..., 0]}


def _ref_trsm(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    return {"b": _solve(o["a"], s["alpha"] * o["b"], p.uplo, p.trans_a, p.diag, p.side)}


def _ref_trmm(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    t = _op(_triangle(o["a"], p.uplo, p.diag), p.trans_a)
    return {"c": s["alpha"] * (t @ o["b"] if p.side == "L" else o["b"] @ t)}


def _ref_geam(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    a = s["alpha"] * _op(o["a"], p.trans_a) if s["alpha"] != 0 else 0
    b = s["beta"] * _op(o["b"], p.trans_b) if s["beta"] != 0 else 0
    return {"c": np.zeros(o["c"].shape, o["c"].dtype) + a + b}


def _giga(count: float) -> float:
    return count / 1e9


def _cx(p: Problem, real: float, complex_: float) -> float:
    return complex_ if p.complex else real


def _tri(n: int) -> int:
    return n * (n + 1) // 2


def _ka(p: Problem) -> int:
    """The order of A in side-dependent routines."""
    return p.m if p.side == "L" else p.n


_VX = Operand("x", lambda p: (p.n,), "incx")
_VY = Operand("y", lambda p: (p.n,), "incy")
_L1_XY = "N,incx,incy,stride_x,stride_y,batch_count"
_L1_X = "N,incx,stride_x,batch_count"
_TRSV = "uplo,transA,diag,N,lda,stride_a,incx,stride_x,batch_count"
_SYMV = "uplo,N,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count"
_GEMM = "transA,transB,M,N,K,alpha,lda,stride_a,beta,ldb,stride_b,ldc,stride_c,batch_count"
_RANK = "uplo,transA,N,K,alpha,lda,stride_a,beta,ldc,stride_c,batch_count"
_SYMM = "side,uplo,M,N,alpha,lda,stride_a,ldb,stride_b,beta,ldc,stride_c,batch_count"
_TRSM = "side,uplo,transA,diag,M,N,alpha,lda,stride_a,ldb,stride_b,batch_count"

_GEMM_OPERANDS = (Operand("a", lambda p: _stored(p.trans_a, p.m, p.k), "lda"),
                  Operand("b", lambda p: _stored(p.trans_b, p.k, p.n), "ldb"),
                  Operand("c", lambda p: (p.m, p.n), "ldc", "inout"))
_SQUARE_A = Operand("a", lambda p: (p.n, p.n), "lda")
_TRSM_OPERANDS = (Operand("a", lambda p: (_ka(p), _ka(p)), "lda", kind="triangular"),
                  Operand("b", lambda p: (p.m, p.n), "ldb", "inout"))


def _rank_family(hermitian: bool, two: bool, columns: str, flops: Callable[[Problem], float],
                 kx: bool = False) -> Family:
    def ab(p: Problem) -> tuple[int, int]:
        return _stored(p.trans_a, p.n, p.k)

    operands = (Operand("a", ab, "lda"), *((Operand("b", ab, "ldb"),) if two else ()),
                Operand("c", lambda p: (p.n, p.n), "ldc", "inout", "hermitian" if hermitian else "general"))
    return Family(operands, columns, _rank_k(hermitian, two, kx), depth=lambda p: p.k * (2 if two and not kx else 1),
                  flops=flops, scalars=("alpha", "beta"))


def _symm_family(hermitian: bool, flops: Callable[[Problem], float]) -> Family:
    return Family((Operand("a", lambda p: (_ka(p), _ka(p)), "lda", kind="hermitian" if hermitian else "general"),
                   Operand("b", lambda p: (p.m, p.n), "ldb"), Operand("c", lambda p: (p.m, p.n), "ldc", "inout")),
                  _SYMM, _symm(hermitian), depth=_ka, flops=flops, scalars=("alpha", "beta"))


def _symv_family(hermitian: bool, flops: Callable[[Problem], float], gbytes: Callable[[Problem], float] | None = None,
                 a: Operand | None = None, columns: str = _SYMV) -> Family:
    """symv/hemv; with ``a`` (band or packed storage) sbmv/hbmv, spmv/hpmv."""
    a = a or Operand("a", lambda p: (p.n, p.n), "lda")
    return Family((replace(a, kind="hermitian" if hermitian else "general"), _VX, Operand("y", lambda p: (p.n,), "incy",
                                                                                           "inout")),
                  columns, _symv(hermitian), depth=lambda p: p.n, flops=flops, gbytes=gbytes, scalars=("alpha", "beta"))


# --- band and packed storage (BLAS's: band by columns, packed triangles by columns) ---------------


def _band_of(rows: int, cols: int, kl: int, ku: int) -> Layout:
    """A ``rows x cols`` band of ``kl`` sub- and ``ku`` super-diagonals: entry (i, j) at row ku + i - j."""
    d = np.subtract.outer(np.arange(rows), np.arange(cols))
    i, j = np.nonzero((d <= kl) & (-d <= ku))
    return (ku + i - j, j), i, j, (rows, cols)


def _band(p: Problem) -> Layout:
    """gbmv's general band."""
    return _band_of(p.m, p.n, p.args.kl, p.args.ku)


def _tri_band(p: Problem) -> Layout:
    """The ``uplo`` triangle of a symmetric or triangular band of k off-diagonals (sbmv, tbmv)."""
    return _band_of(p.n, p.n, 0 if p.uplo == "U" else p.k, p.k if p.uplo == "U" else 0)


def _packed(p: Problem) -> Layout:
    """The ``uplo`` triangle packed by columns (spmv, tpmv, spr)."""
    n = p.n
    upper = p.uplo == "U"
    i, j = np.nonzero(np.triu(np.ones((n, n), bool)) if upper else np.tril(np.ones((n, n), bool)))
    return ((i + j * (j + 1) // 2 if upper else i + (2 * n - j - 1) * j // 2),), i, j, (n, n)


def _band_a(rows: Callable[[Problem], int], layout: Callable[[Problem], Layout]) -> Operand:
    return Operand("a", lambda p: (rows(p), p.n), "lda", unpack=layout)


_PACKED_A = Operand("a", lambda p: (_tri(p.n),), "", unpack=_packed)
_TRI_BAND_A = _band_a(lambda p: p.k + 1, _tri_band)


def _rank_1(hermitian: bool, two: bool) -> Reference:
    """syr/her (x x^T, x x^H) and syr2/her2 on A's ``uplo`` triangle."""

    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        def outer(u: np.ndarray, v: np.ndarray) -> np.ndarray:
            return u[..., :, None] * (v.conj() if hermitian else v)[..., None, :]

        alpha, x = s["alpha"], o["x"]
        upd = alpha * outer(x, o["y"]) + (np.conj(alpha) if hermitian else alpha) * outer(o["y"], x) if two \
            else alpha * outer(x, x)
        return {"a": _merge(o["a"], o["a"] + upd, p.uplo, hermitian)}

    return ref


def _rank_1_family(hermitian: bool, two: bool, a: Operand, columns: str, flops: Callable[[Problem], float]) -> Family:
    """syr, syr2, her, her2 (``a`` full) and spr, spr2, hpr, hpr2 (``a`` packed)."""
    vectors = (_VX, _VY) if two else (_VX,)
    return Family((*vectors, replace(a, io="inout", kind="hermitian" if hermitian else "general")), columns,
                  _rank_1(hermitian, two), depth=lambda p: 2 if two else 1, flops=flops, scalars=("alpha",))


def _triangular_family(solve: bool, a: Operand, columns: str, flops: Callable[[Problem], float]) -> Family:
    """trmv/trsv on band (tbmv, tbsv) or packed (tpmv, tpsv) storage."""
    return Family((replace(a, kind="triangular" if solve else "general"), Operand("x", lambda p: (p.n,), "incx",
                                                                                    "inout")),
                  columns, _ref_trsv if solve else _ref_trmv, depth=lambda p: p.n, flops=flops)


def _ref_gemmt(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    return {"c": _merge(o["c"], _gemm("c")(p, o, s)["c"], p.uplo)}


def _ref_trtri(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    inv = np.linalg.inv(_triangle(o["a"], p.uplo, p.diag)) if o["a"].size else o["a"]
    return {"inva": _triangle(inv, p.uplo)}  # the other triangle is set to 0


def _ref_dgmm(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    return {"c": o["a"] * (o["x"][..., None, :] if p.side == "R" else o["x"][..., :, None])}


def _ref_geam_ex(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    """The tropical products: min-plus (``--geam_ex_op 0``) or plus-min, with C's fmin (NaN loses)."""
    alpha, beta, min_plus = s["alpha"], s["beta"], p.args.geam_ex_op == 0
    c = beta * o["c"] if beta != 0 else np.zeros_like(o["c"])
    if p.k == 0 or (alpha == 0 and not min_plus):
        return {"d": c}
    if alpha == 0:
        return {"d": np.fmin(c, 0)}
    a = alpha * _op(o["a"], p.trans_a)[..., :, :, None]  # (batch, m, k, 1)
    b = alpha * _op(o["b"], p.trans_b)[..., None, :, :]  # (batch, 1, k, n)
    if min_plus:
        return {"d": np.fmin(c, np.fmin.reduce(a + b, axis=-2))}
    return {"d": c + np.sum(np.fmin(a, b), axis=-2)}


# --- gemm_ex3: float8 operands (rocBLAS's beta API) --------------------------------------------


@dataclass(frozen=True)
class Float8:
    """An 8-bit float type of gemm_ex3 where the CLI takes a :class:`~rocmath.precision.Precision`
    (rocmath has none for them): :mod:`rocmath.float8` codes stored as uint8, their values float32.

    Attributes
    ----------
    datatype
        ``f8_r`` or ``bf8_r``.
    fmt
        The :mod:`rocmath.float8` format (:data:`~rocmath.float8.F8`, :data:`~rocmath.float8.BF8`).
    eps
        The tolerance rocBLAS's clients give it (``get_epsilon``: its unit roundoff).
    """

    datatype: str
    fmt: int
    eps: float
    dtype: ClassVar[np.dtype[Any]] = np.dtype(np.uint8)
    compute_dtype: ClassVar[np.dtype[Any]] = np.dtype(np.float32)
    is_complex: ClassVar[bool] = False
    itemsize: ClassVar[int] = 1


#: The float8 datatypes by name.
FLOAT8 = {"f8_r": Float8("f8_r", float8.F8, 2.0**-4), "bf8_r": Float8("bf8_r", float8.BF8, 2.0**-3)}
_STOCHASTIC = 0x20  # rocblas_gemm_flags_stochastic_rounding


def ex3_key(types: Mapping[str, str]) -> tuple[Any, ...]:
    """gemm_ex3's type combination (a_type, b_type, c_type, composite compute type), as
    :data:`rocmath.blas.beta.GEMM_EX3_TYPES` keys it (its c_type is d_type)."""
    from rocmath.blas import ComputeType, Datatype

    return (*(Datatype[types[r]] for r in ("a_type", "b_type", "c_type")),
            ComputeType[types["composite_compute_type"]])


def ex3_formats(p: Problem) -> tuple[Float8, Float8]:
    """The float8 types A and B enter gemm_ex3's product in (its compute type's)."""
    from rocmath.blas.beta import GEMM_EX3_TYPES

    fa, fb = GEMM_EX3_TYPES[ex3_key(p.types)]
    return FLOAT8[fa.name], FLOAT8[fb.name]


def _quantize(x: np.ndarray, bits: np.ndarray, wide: bool, fmt: Float8, stochastic: bool, seed: str,
              ld: int) -> np.ndarray:
    """Stacked float32 entries rounded into ``fmt`` as gemm_ex3 rounds them: to nearest, or
    stochastically from the bits of each value and its offset ``i + j * ld`` in its entry."""
    from rocmath.blas.beta import sr_seed

    if not stochastic:
        return float8.to_f8(x, fmt.fmt)
    codes = np.empty(x.shape, np.uint8)
    if x.size:
        float8.quantize(np.ascontiguousarray(x), np.ascontiguousarray(bits), wide, fmt.fmt, True, sr_seed(seed),
                        np.int64(ld), codes)
    return codes


def _ex3_operand(x: np.ndarray, datatype: str, fmt: Float8, stochastic: bool, seed: str, ld: int) -> np.ndarray:
    """An operand's values as they enter the product: a float8 one's own, a half or float one's
    rounded into the compute type's format first."""
    if datatype in FLOAT8:
        return x.astype(np.float64)
    x32 = np.ascontiguousarray(x, dtype=np.float32)
    wide = datatype == "f32_r"
    bits = x32.view(np.uint32) if wide else x32.astype(np.float16).view(np.uint16)  # exact: x is a half
    return float8.from_f8(_quantize(x32, bits, wide, fmt, stochastic, seed, ld), fmt.fmt).astype(np.float64)


def _ref_gemm_ex3(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    """gemm_ex3 in float64 from the operands' values (A and B in their compute formats), D rounded
    into its type (stochastically with the flag, from the float32 result's bits and seed C)."""
    fa, fb = ex3_formats(p)
    sr = bool(p.args.flags & _STOCHASTIC)
    a = _ex3_operand(o["a"], p.types["a_type"], fa, sr, "SR_SEED_A", p.ld["lda"])
    b = _ex3_operand(o["b"], p.types["b_type"], fb, sr, "SR_SEED_B", p.ld["ldb"])
    value = _plus_beta(float(s["alpha"]) * (_op(a, p.trans_a) @ _op(b, p.trans_b)), o["c"].astype(np.float64),
                       float(s["beta"]))
    d_type = p.types["d_type"]
    if d_type not in FLOAT8:
        return {"d": value.astype(np.float32 if d_type == "f32_r" else np.float16)}
    v32 = value.astype(np.float32)
    codes = _quantize(v32, v32.view(np.uint32), True, FLOAT8[d_type], sr, "SR_SEED_C", p.ld["ldc"])
    return {"d": float8.from_f8(codes, FLOAT8[d_type].fmt)}


# --- rotg, rotm, rotmg: scalar operands, host values in host pointer mode -----------------------


def _ref_rotg(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    """SciPy's ?rotg gives c and s; r and z (real: b's new value) follow from them as BLAS defines them."""
    a, b = o["a"][:, 0], o["b"][:, 0]
    rotg = get_blas_funcs("rotg", dtype=a.dtype)
    cs = [rotg(ai, bi) for ai, bi in zip(a, b, strict=True)]
    c = np.array([v[0].real for v in cs], dtype=o["c"].dtype)  # crotg's complex c: garbage imaginary part
    sn = np.array([v[1] for v in cs], dtype=a.dtype)
    if p.complex:  # a == 0: BLAS's (and rocBLAS's) c = 0, s = 1, r = b; SciPy's OpenBLAS takes s = conj(b)/|b|
        c[a == 0], sn[a == 0] = 0, 1
    r = c * a + sn * b
    if p.complex:
        z = b  # complex rotg leaves b alone
    else:  # z = s if |a| > |b|, else 1/c (1 when c == 0); 0 when a = b = 0
        z = np.where(np.abs(a) > np.abs(b), sn, np.divide(1, c, out=np.ones_like(c), where=c != 0))
        z = np.where(np.abs(a) + np.abs(b) == 0, 0, z).astype(a.dtype)
    return {"a": r[:, None], "b": z[:, None], "c": c[:, None], "s": sn[:, None]}


def _ref_rotm(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    x, y = o["x"].copy(), o["y"].copy()
    if x.shape[-1] > 0:  # SciPy's ?rotm rejects empty vectors
        rotm = get_blas_funcs("rotm", dtype=x.dtype)
        for e in range(x.shape[0]):
            x[e], y[e] = rotm(x[e], y[e], o["param"][e])
    return {"x": x, "y": y}


#: The entries of param (flag, h11, h21, h12, h22) each rotmg flag sets; the others keep their values.
_ROTMG_SETS = {-1.0: [1, 2, 3, 4], 0.0: [2, 3], 1.0: [1, 4], -2.0: []}


def _rotmg_param(d1: Any, d2: Any, x1: Any, y1: Any, old: np.ndarray) -> np.ndarray:
    """``old`` with the entries SciPy's ?rotmg sets (its other entries are zeros, BLAS leaves them)."""
    # BLAS (and rocBLAS) test d1 < 0 (all zero, flag -1) before d2 * y1 == 0; SciPy's OpenBLAS the other way
    new = np.array([-1, 0, 0, 0, 0], old.dtype) if d1 < 0 else get_blas_funcs("rotmg", dtype=old.dtype)(d1, d2, x1, y1)
    out = old.copy()
    out[0] = new[0]
    out[_ROTMG_SETS[float(new[0])]] = new[_ROTMG_SETS[float(new[0])]]
    return out


def _ref_rotmg(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
    """SciPy's ?rotmg gives param alone; the new d1, d2, x1 follow from H: H (x1, y1) = (x1', 0) and
    H^T diag(d1', d2') H = diag(d1, d2) (rescaling by gamma keeps both), H = 0 zeroes them (flag -1)."""
    d1, d2, x1, y1 = (o[k][:, 0] for k in ("d1", "d2", "x1", "y1"))
    param = np.stack([_rotmg_param(*v, o["param"][e]) for e, v in enumerate(zip(d1, d2, x1, y1, strict=True))]) \
        if d1.size else o["param"].copy()
    q = param.astype(np.float64)
    flag = q[:, 0]
    one, zero = np.ones_like(flag), np.zeros_like(flag)
    h11 = np.select([flag == 0, flag == -2], [one, one], q[:, 1])
    h21 = np.select([flag == 1, flag == -2], [-one, zero], q[:, 2])
    h12 = np.select([flag == 1, flag == -2], [one, zero], q[:, 3])
    h22 = np.select([flag == 0, flag == -2], [one, one], q[:, 4])
    det = h11 * h22 - h12 * h21
    safe = np.where(det != 0, det, 1)
    # H^-1 = [[h22, -h12], [-h21, h11]] / det; diag(H^-T D H^-1)
    e1 = np.where(det != 0, (d1 * h22 ** 2 + d2 * h21 ** 2) / safe ** 2, 0)
    e2 = np.where(det != 0, (d1 * h12 ** 2 + d2 * h11 ** 2) / safe ** 2, 0)
    nx1 = h11 * x1 + h12 * y1
    dt = o["d1"].dtype
    return {"d1": e1.astype(dt)[:, None], "d2": e2.astype(dt)[:, None], "x1": nx1.astype(dt)[:, None],
            "y1": o["y1"].copy(), "param": param}


def _init_rotg(p: Problem, entries: dict[str, np.ndarray], case: int) -> None:
    """rocblas-bench reuses --alpha and --beta as the first a and b, with c = s = 0 (testing_rotg*.hpp)."""
    if entries["a"].shape[0]:
        a = p.args
        entries["a"][0, 0] = complex(a.alpha, a.alphai) if p.complex else a.alpha
        entries["b"][0, 0] = complex(a.beta, a.betai) if p.complex else a.beta
        entries["c"][0, 0] = entries["s"][0, 0] = 0


#: The flags rocblas-bench checks rotm with (timing uses the first).
_ROTM_FLAGS = (-1.0, 0.0, 1.0, -2.0)


def _init_rotm(p: Problem, entries: dict[str, np.ndarray], case: int) -> None:
    """As rocblas-bench: each param is rotmg's (from zeros) on four drawn values, then its flag is the case's."""
    param = entries["param"]
    for e in range(param.shape[0]):
        param[e] = _rotmg_param(*param[e, :4], np.zeros(5, param.dtype))
    param[:, 0] = _ROTM_FLAGS[case]


def _scalar_operand(key: str, io: str, width: int = 1, flag: str = "") -> Operand:
    return Operand(key, lambda p: (width,), "", io, flag=flag, host=True)


_ROTG = Family((_scalar_operand("a", "inout"), _scalar_operand("b", "inout"), _scalar_operand("c", "out"),
                _scalar_operand("s", "out", flag="d")),
               "stride_a,stride_b,stride_c,stride_d,batch_count", _ref_rotg, norms="sum",
               ex_roles={"c": "b_type"},  # c is real: --b_type (crotg: --a_type f32_c --b_type f32_r)
               init=_init_rotg, returns=("a", "b", "c", "s"), device_timed=lambda p: bool(p.flavour),
               bare_plain=True)
_ROTM = Family((Operand("x", lambda p: (p.n,), "incx", "inout"), Operand("y", lambda p: (p.n,), "incy", "inout"),
                _scalar_operand("param", "in", 5, "c")),  # rocblas-bench's stride_param is --stride_c
               _L1_XY, _ref_rotm, norms="xy", flops=lambda p: _giga(6 * p.n),  # flag -1, as timed
               gbytes=lambda p: _giga(4 * p.size * p.n), init=_init_rotm, cases=len(_ROTM_FLAGS),
               device_timed=lambda p: True, host_mode=lambda p: not p.flavour)
_ROTMG = Family((_scalar_operand("d1", "inout", flag="a"), _scalar_operand("d2", "inout", flag="b"),
                 _scalar_operand("x1", "inout", flag="x"), _scalar_operand("y1", "in", flag="y"),
                 _scalar_operand("param", "inout", 5, "c")),
                "stride_a,stride_b,stride_x,stride_y,stride_c,batch_count", _ref_rotmg, norms="sum",
                returns=("d1", "d2", "x1", "param"), device_timed=lambda p: bool(p.flavour), bare_plain=True)


def _ex(family: Family, columns: str | None = None, **roles: str) -> Family:
    """The ``_ex`` form of a Level-1 family: its operands' (and result's) types from type flags."""
    return replace(family, ex_roles=roles, columns=columns or family.columns)


def _sym_band_flops(p: Problem) -> float:
    k1 = min(p.k, p.n)
    return _giga(_cx(p, 2, 8) * ((2 * k1 + 1) * p.n - k1 * (k1 + 1)) + _cx(p, 2, 8) * p.n)


def _tri_band_flops(p: Problem) -> float:
    k1 = min(p.k, p.n)
    return _giga(_cx(p, 1, 4) * (2 * p.n * k1 - k1 * (k1 + 1) + p.n))


def _gbmv_flops(p: Problem) -> float:
    dim = p.n if p.trans_a == "N" else p.m
    k1, k2 = min(dim, p.args.kl), min(dim, p.args.ku)
    d = (2 * k1 * dim - k1 * (k1 + 1)) + dim + (2 * k2 * dim - k2 * (k2 + 1)) + 2 * dim
    return _giga(d + _cx(p, 2, 8) * dim)


def _real(p: Any) -> Any:
    return p.real


_GEMV = Family((Operand("a", lambda p: (p.m, p.n), "lda"),
               Operand("x", lambda p: (p.n if p.trans_a == "N" else p.m,), "incx"),
               Operand("y", lambda p: (p.m if p.trans_a == "N" else p.n,), "incy", "inout")),
              "transA,M,N,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count", _ref_gemv,
              depth=lambda p: p.n if p.trans_a == "N" else p.m, scalars=("alpha", "beta"),
              flops=lambda p: _giga(_cx(p, 2, 8) * p.m * p.n + _cx(p, 2, 6) * (p.m if p.trans_a == "N" else p.n)),
              gbytes=lambda p: _giga(p.size * (p.m * p.n + 2 * (p.n if p.trans_a == "N" else p.m))),
              ex_roles={"y": "c_type"})  # hss/tss: y is f32 (--c_type)

#: rocblas-bench function (without flavour) -> its family.
FAMILIES: dict[str, Family] = {
    # Level 1
    "axpy": Family((_VX, Operand("y", lambda p: (p.n,), "incy", "inout")),
                   "N,alpha,incx,incy,stride_x,stride_y,batch_count",
                   lambda p, o, s: {"y": o["y"] + s["alpha"] * o["x"]},
                   flops=lambda p: _giga(_cx(p, 2, 8) * p.n), gbytes=lambda p: _giga(3 * p.size * p.n),
                   scalars=("alpha",)),
    "dot": Family((_VX, _VY), _L1_XY + ",algo", _dot(False), depth=lambda p: p.n, result=lambda q: q,
                  flops=lambda p: _giga(_cx(p, 2, 8) * p.n), gbytes=lambda p: _giga(2 * p.size * p.n)),
    "dotc": Family((_VX, _VY), _L1_XY + ",algo", _dot(True), depth=lambda p: p.n, result=lambda q: q,
                   flops=lambda p: _giga(_cx(p, 2, 9) * p.n), gbytes=lambda p: _giga(2 * p.size * p.n)),
    "nrm2": Family((_VX,), _L1_X, _x_only(lambda p, o, s: {"result": np.linalg.norm(o["x"], axis=-1)}, True),
                   depth=lambda p: p.n, result=_real, flops=lambda p: _giga(_cx(p, 2, 8) * p.n),
                   gbytes=lambda p: _giga(p.size * p.n)),
    "asum": Family((_VX,), _L1_X,
                   _x_only(lambda p, o, s: {"result": np.sum(np.abs(o["x"].real) + np.abs(o["x"].imag), -1)}, True),
                   depth=lambda p: p.n, result=_real, flops=lambda p: _giga(_cx(p, 2, 4) * p.n),
                   gbytes=lambda p: _giga(p.size * p.n)),
    "scal": Family((Operand("x", lambda p: (p.n,), "incx", "inout"),), "N,alpha,incx,stride_x,batch_count",
                   _x_only(lambda p, o, s: {"x": s["alpha"] * o["x"]}, False),
                   flops=lambda p: _giga((1 if not p.complex else 2 if p.real_alpha else 6) * p.n),
                   gbytes=lambda p: _giga(2 * p.size * p.n), scalars=("alpha",)),
    "iamax": Family((_VX,), _L1_X, _x_only(_index(True), True), result=lambda q: np.dtype(np.int32),
                    gbytes=lambda p: _giga(p.size * p.n)),
    "iamin": Family((_VX,), _L1_X, _x_only(_index(False), True), result=lambda q: np.dtype(np.int32),
                    gbytes=lambda p: _giga(p.size * p.n)),
    "copy": Family((_VX, Operand("y", lambda p: (p.n,), "incy", "out")), _L1_XY,
                   lambda p, o, s: {"y": o["x"].copy()}, gbytes=lambda p: _giga(2 * p.size * p.n), norms="host"),
    "swap": Family((Operand("x", lambda p: (p.n,), "incx", "inout"), Operand("y", lambda p: (p.n,), "incy", "inout")),
                   _L1_XY, lambda p, o, s: {"x": o["y"].copy(), "y": o["x"].copy()},
                   gbytes=lambda p: _giga(4 * p.size * p.n), norms="host"),
    "rot": Family((Operand("x", lambda p: (p.n,), "incx", "inout"), Operand("y", lambda p: (p.n,), "incy", "inout")),
                  _L1_XY, _ref_rot, scalars=("c", "s"), norms="xy",
                  flops=lambda p: _giga((6 if not p.complex else 12 if p.real_s else 20) * p.n),
                  gbytes=lambda p: _giga(4 * p.size * p.n)),
    "rotg": _ROTG,
    "rotm": _ROTM,
    "rotmg": _ROTMG,
    # Level 2
    "gemv": _GEMV,
    **{name: Family((Operand("x", lambda p: (p.m,), "incx"), Operand("y", lambda p: (p.n,), "incy"),
                     Operand("a", lambda p: (p.m, p.n), "lda", "inout")),
                    "M,N,alpha,lda,stride_a,incx,stride_x,incy,stride_y,batch_count", _ger(name == "gerc"),
                    scalars=("alpha",), gbytes=lambda p: _giga(p.size * (p.m * p.n + p.m + p.n)),
                    flops=lambda p: _giga(6 * (p.m * p.n + min(p.m, p.n)) + 2 * p.m * p.n if p.complex
                                          else 2 * p.m * p.n + min(p.m, p.n)))
       for name in ("ger", "geru", "gerc")},
    "trsv": Family((Operand("a", lambda p: (p.n, p.n), "lda", kind="triangular"),
                    Operand("x", lambda p: (p.n,), "incx", "inout")), _TRSV, _ref_trsv, depth=lambda p: p.n,
                   flops=lambda p: _giga(_cx(p, 1, 4) * p.n * p.n)),
    "trmv": Family((_SQUARE_A, Operand("x", lambda p: (p.n,), "incx", "inout")), _TRSV, _ref_trmv,
                   depth=lambda p: p.n, flops=lambda p: _giga(_cx(p, 1, 4) * p.n * p.n),
                   gbytes=lambda p: _giga(p.size * (_tri(p.n) + 2 * p.n))),
    "symv": _symv_family(False, lambda p: _giga(_cx(p, 1, 4) * (2 * p.n * p.n + 2 * p.n)),
                         lambda p: _giga(p.size * (_tri(p.n) + p.n))),
    "hemv": _symv_family(True, lambda p: _giga(8 * p.n * p.n + 8 * p.n),
                         lambda p: _giga(p.size * (_tri(p.n) + 3 * p.n))),
    "gbmv": replace(_GEMV, operands=(_band_a(lambda p: p.args.kl + p.args.ku + 1, _band), *_GEMV.operands[1:]),
                    columns="transA,M,N,KL,KU,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count",
                    flops=_gbmv_flops, gbytes=None),
    "sbmv": _symv_family(False, _sym_band_flops, a=_TRI_BAND_A,
                         columns="uplo,N,K,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count"),
    "hbmv": _symv_family(True, _sym_band_flops, a=_TRI_BAND_A,
                         columns="uplo,N,K,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count"),
    "spmv": _symv_family(False, lambda p: _giga(2 * p.n * p.n + 2 * p.n), a=_PACKED_A),
    "hpmv": _symv_family(True, lambda p: _giga(8 * p.n * p.n + 8 * p.n), a=_PACKED_A),
    "tbmv": _triangular_family(False, _TRI_BAND_A, "uplo,transA,diag,N,K,lda,stride_a,incx,stride_x,batch_count",
                               _tri_band_flops),
    "tbsv": _triangular_family(True, _TRI_BAND_A, "uplo,transA,diag,N,K,lda,stride_a,incx,stride_x,batch_count",
                               _tri_band_flops),
    "tpmv": _triangular_family(False, _PACKED_A, "uplo,transA,diag,N,stride_a,incx,stride_x,batch_count",
                               lambda p: _giga(_cx(p, 1, 4) * p.n * p.n)),
    "tpsv": _triangular_family(True, _PACKED_A, "uplo,transA,diag,N,stride_a,incx,stride_x,batch_count",
                               lambda p: _giga(_cx(p, 1, 4) * p.n * p.n)),
    "syr": _rank_1_family(False, False, _SQUARE_A, "uplo,N,alpha,lda,stride_a,incx,stride_x,batch_count",
                          lambda p: _giga(p.n * (p.n + 1) + p.n)),
    "her": _rank_1_family(True, False, _SQUARE_A, "uplo,N,alpha,lda,stride_a,incx,stride_x,batch_count",
                          lambda p: _giga(4 * p.n * p.n)),
    "syr2": _rank_1_family(False, True, _SQUARE_A, "uplo,N,alpha,lda,stride_a,incx,stride_x,incy,stride_y,batch_count",
                           lambda p: _giga(2 * (p.n + 1) * p.n + 2 * p.n)),
    "her2": _rank_1_family(True, True, _SQUARE_A, "uplo,N,alpha,lda,stride_a,incx,stride_x,incy,stride_y,batch_count",
                           lambda p: _giga(8 * (p.n + 1) * p.n)),
    "spr": _rank_1_family(False, False, _PACKED_A, "uplo,N,alpha,stride_a,incx,stride_x,batch_count",
                          lambda p: _giga(p.n * (p.n + 1) + p.n)),
    "hpr": _rank_1_family(True, False, _PACKED_A, "uplo,N,alpha,stride_a,incx,stride_x,batch_count",
                          lambda p: _giga(4 * p.n * p.n)),
    "spr2": _rank_1_family(False, True, _PACKED_A, "uplo,N,alpha,stride_a,incx,stride_x,incy,stride_y,batch_count",
                           lambda p: _giga(2 * (p.n + 1) * p.n + 2 * p.n)),
    "hpr2": _rank_1_family(True, True, _PACKED_A, "uplo,N,alpha,stride_a,incx,stride_x,incy,stride_y,batch_count",
                           lambda p: _giga(8 * (p.n + 1) * p.n)),
    # Level 3
    "gemm": Family(_GEMM_OPERANDS, _GEMM, _gemm("c"), depth=lambda p: p.k, scalars=("alpha", "beta"), norms="max",
                   flops=lambda p: _giga(_cx(p, 2, 8) * p.m * p.n * max(p.k, 1)), adjust_ld=True),
    "gemm_ex": Family((*_GEMM_OPERANDS[:2], Operand("c", lambda p: (p.m, p.n), "ldc", "inout"),  # D is C in place
                       Operand("d", lambda p: (p.m, p.n), "ldd", "out")),
                      "transA,transB,M,N,K,alpha,lda,stride_a,beta,ldb,stride_b,ldc,stride_c,ldd,stride_d,batch_count",
                      _gemm("d"), depth=lambda p: p.k, scalars=("alpha", "beta"), norms="max",
                      flops=lambda p: _giga(_cx(p, 2, 8) * p.m * p.n * max(p.k, 1)), adjust_ld=True,
                      plain_columns="transA,transB,M,N,K,alpha,lda,beta,ldb,ldc,ldd,batch_count",
                      aliases=(("d", "c"),),
                      ex_roles={"a": "a_type", "b": "b_type", "c": "c_type", "d": "d_type"}),
    "trsm": Family(_TRSM_OPERANDS, _TRSM, _ref_trsm, depth=_ka, scalars=("alpha",),
                   flops=lambda p: _giga(_cx(p, 1, 4) * p.m * p.n * _ka(p))),
    "trsm_ex": Family(_TRSM_OPERANDS, _TRSM, _ref_trsm, depth=_ka, scalars=("alpha",),
                      flops=lambda p: _giga(_cx(p, 1, 4) * p.m * p.n * _ka(p)),
                      ex_roles={"a": "a_type", "b": "a_type"}),  # its one type is -r (a_type)
    "trmm": Family((Operand("a", lambda p: (_ka(p), _ka(p)), "lda"), Operand("b", lambda p: (p.m, p.n), "ldb"),
                    Operand("c", lambda p: (p.m, p.n), "ldc", "out")),
                   "side,uplo,transA,diag,M,N,alpha,lda,stride_a,ldb,stride_b,ldc,stride_c,batch_count", _ref_trmm,
                   depth=_ka, scalars=("alpha",), flops=lambda p: _giga(_cx(p, 1, 4) * p.m * p.n * _ka(p)),
                   plain_columns="side,uplo,transA,diag,M,N,alpha,lda,ldb,ldc,outofplace", aliases=(("c", "b"),)),
    "syrk": _rank_family(False, False, _RANK, lambda p: _giga(_cx(p, 1, 4) * p.n * p.n * p.k)),
    "herk": _rank_family(True, False, _RANK, lambda p: _giga(4 * p.n * p.n * p.k)),
    "syr2k": _rank_family(False, True, "uplo,transA,N,K,alpha,lda,stride_a,ldb,beta,stride_b,ldc,stride_c,batch_count",
                          lambda p: _giga(_cx(p, 2, 8) * p.n * p.n * p.k)),
    "her2k": _rank_family(True, True, "uplo,transA,N,K,alpha,lda,stride_a,ldb,stride_b,beta,ldc,stride_c,batch_count",
                          lambda p: _giga(8 * p.n * p.n * p.k)),
    "symm": _symm_family(False, lambda p: _giga(_cx(p, 2, 8) * p.m * p.n * _ka(p))),
    "hemm": _symm_family(True, lambda p: _giga(8 * p.m * p.n * _ka(p))),
    "geam": Family((Operand("a", lambda p: _stored(p.trans_a, p.m, p.n), "lda"),
                    Operand("b", lambda p: _stored(p.trans_b, p.m, p.n), "ldb"),
                    Operand("c", lambda p: (p.m, p.n), "ldc", "out")),
                   "transA,transB,M,N,alpha,lda,stride_a,beta,ldb,stride_b,ldc,stride_c,batch_count", _ref_geam,
                   scalars=("alpha", "beta"), flops=lambda p: _giga(_cx(p, 3, 14) * p.m * p.n)),
    "syrkx": _rank_family(False, True, "uplo,transA,N,K,alpha,lda,stride_a,ldb,beta,stride_b,ldc,stride_c,batch_count",
                          lambda p: _giga(_cx(p, 1, 4) * p.n * (p.n + 1) * p.k), kx=True),
    "herkx": _rank_family(True, True, "uplo,transA,N,K,alpha,lda,stride_a,ldb,stride_b,beta,ldc,stride_c,batch_count",
                          lambda p: _giga(4 * p.n * p.n * p.k), kx=True),
    "gemmt": Family((Operand("a", lambda p: _stored(p.trans_a, p.n, p.k), "lda"),
                     Operand("b", lambda p: _stored(p.trans_b, p.k, p.n), "ldb"),
                     Operand("c", lambda p: (p.n, p.n), "ldc", "inout")),
                    "uplo,transA,transB,N,K,alpha,lda,stride_a,ldb,beta,stride_b,ldc,stride_c,batch_count", _ref_gemmt,
                    depth=lambda p: p.k, scalars=("alpha", "beta"),
                    flops=lambda p: _giga(_cx(p, 1, 4) * p.n * (p.n + 1) * p.k)),
    "trtri": Family((Operand("a", lambda p: (p.n, p.n), "lda", kind="triangular"),
                     Operand("inva", lambda p: (p.n, p.n), "ldinvA", "out", flag="a")),  # rocblas-bench: invA as A
                    "uplo,diag,N,lda,stride_a,batch_count", _ref_trtri, depth=lambda p: p.n,
                    flops=lambda p: _giga(_cx(p, 1, 8) * p.n ** 3 / 3)),
    "dgmm": Family((Operand("a", lambda p: (p.m, p.n), "lda"),
                    Operand("x", lambda p: (p.n if p.side == "R" else p.m,), "incx"),
                    Operand("c", lambda p: (p.m, p.n), "ldc", "out")),
                   "side,M,N,lda,stride_a,incx,ldc,stride_c,batch_count", _ref_dgmm,
                   flops=lambda p: _giga(_cx(p, 1, 6) * p.m * p.n)),
    "geam_ex": Family((Operand("a", lambda p: _stored(p.trans_a, p.m, p.k), "lda"),
                       Operand("b", lambda p: _stored(p.trans_b, p.k, p.n), "ldb"),
                       Operand("c", lambda p: (p.m, p.n), "ldc"), Operand("d", lambda p: (p.m, p.n), "ldd", "out")),
                      "transA,transB,M,N,K,alpha,lda,ldb,beta,ldc,ldd", _ref_geam_ex, depth=lambda p: p.k,
                      scalars=("alpha", "beta"), flops=lambda p: _giga(3 * p.m * p.n * p.k),
                      plain_columns="transA,transB,M,N,K,alpha,lda,ldb,beta,ldc,ldd",
                      ex_roles={"a": "a_type", "b": "b_type", "c": "c_type", "d": "d_type"}),
}

# The _ex forms of Level 1 (their type flags as rocBLAS's bench lines give them) and the band, packed
# and rank-1 forms of Level 2 reuse the entries above.
FAMILIES.update({
    "axpy_ex": _ex(FAMILIES["axpy"], x="b_type", y="c_type"),
    "dot_ex": _ex(FAMILIES["dot"], x="a_type", y="b_type", result="c_type"),
    "dotc_ex": _ex(FAMILIES["dotc"], x="a_type", y="b_type", result="c_type"),
    "nrm2_ex": _ex(FAMILIES["nrm2"], x="a_type", result="b_type"),
    "scal_ex": _ex(FAMILIES["scal"], x="b_type"),
    "rot_ex": _ex(FAMILIES["rot"], "N,incx,stride_x,incy,stride_y,batch_count", x="a_type", y="b_type"),
    # rocBLAS's beta API: gemm_ex's arguments, columns and flops (rocblas-bench's testing_gemm*_ex3.hpp)
    "gemm_ex3": replace(FAMILIES["gemm_ex"], reference=_ref_gemm_ex3),
})
