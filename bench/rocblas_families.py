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
do nothing for ``incx <= 0``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.linalg import solve_triangular

if TYPE_CHECKING:
    from .rocblas_cli import Problem

__all__ = ["FAMILIES", "Family", "Operand", "Reference"]


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
    """

    key: str
    shape: Callable[[Problem], tuple[int, ...]]
    ld: str
    io: str = "in"
    kind: str = "general"

    @property
    def vector(self) -> bool:
        return self.ld.startswith("inc")


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
        maximum, ``"host"`` one column (no scalars), ``"xy"`` x and y apart (rot).
    plain_columns
        Columns of the plain form when they are not the derived ones.
    aliases
        Output -> input it overwrites unless ``--outofplace`` (gemm_ex's D is C, trmm's C is B).
    adjust_ld
        Raise a too small leading dimension given (rocblas-bench does so for gemm).
    ex_roles
        ``_ex`` families: operand -> the type flag giving its type.
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


def _rank_k(hermitian: bool, two: bool) -> Reference:
    def ref(p: Problem, o: dict[str, np.ndarray], s: dict[str, Any]) -> dict[str, Any]:
        a = _op(o["a"], p.trans_a)
        b = _op(o["b"], p.trans_a) if two else a
        h = (lambda x: np.swapaxes(x, -1, -2).conj()) if hermitian else (lambda x: np.swapaxes(x, -1, -2))
        alpha = s["alpha"]
        prod = alpha * (a @ h(b))
        if two:
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


def _rank_family(hermitian: bool, two: bool, columns: str, flops: Callable[[Problem], float]) -> Family:
    def ab(p: Problem) -> tuple[int, int]:
        return _stored(p.trans_a, p.n, p.k)

    operands = (Operand("a", ab, "lda"), *((Operand("b", ab, "ldb"),) if two else ()),
                Operand("c", lambda p: (p.n, p.n), "ldc", "inout", "hermitian" if hermitian else "general"))
    return Family(operands, columns, _rank_k(hermitian, two), depth=lambda p: p.k * (2 if two else 1),
                  flops=flops, scalars=("alpha", "beta"))


def _symm_family(hermitian: bool, flops: Callable[[Problem], float]) -> Family:
    return Family((Operand("a", lambda p: (_ka(p), _ka(p)), "lda", kind="hermitian" if hermitian else "general"),
                   Operand("b", lambda p: (p.m, p.n), "ldb"), Operand("c", lambda p: (p.m, p.n), "ldc", "inout")),
                  _SYMM, _symm(hermitian), depth=_ka, flops=flops, scalars=("alpha", "beta"))


def _symv_family(hermitian: bool, flops: Callable[[Problem], float], gbytes: Callable[[Problem], float]) -> Family:
    return Family((Operand("a", lambda p: (p.n, p.n), "lda", kind="hermitian" if hermitian else "general"), _VX,
                   Operand("y", lambda p: (p.n,), "incy", "inout")), _SYMV, _symv(hermitian), depth=lambda p: p.n,
                  flops=flops, gbytes=gbytes, scalars=("alpha", "beta"))


def _real(p: Any) -> Any:
    return p.real


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
    # Level 2
    "gemv": Family((Operand("a", lambda p: (p.m, p.n), "lda"),
                    Operand("x", lambda p: (p.n if p.trans_a == "N" else p.m,), "incx"),
                    Operand("y", lambda p: (p.m if p.trans_a == "N" else p.n,), "incy", "inout")),
                   "transA,M,N,alpha,lda,stride_a,incx,stride_x,beta,incy,stride_y,batch_count", _ref_gemv,
                   depth=lambda p: p.n if p.trans_a == "N" else p.m, scalars=("alpha", "beta"),
                   flops=lambda p: _giga(_cx(p, 2, 8) * p.m * p.n + _cx(p, 2, 6) * (p.m if p.trans_a == "N" else p.n)),
                   gbytes=lambda p: _giga(p.size * (p.m * p.n + 2 * (p.n if p.trans_a == "N" else p.m)))),
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
}
