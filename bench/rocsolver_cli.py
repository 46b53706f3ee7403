"""``rocmath-bench solver``: rocsolver-bench's command line, run on rocmath.solver.

``rocmath-bench solver -f getrf_strided_batched -r d -m 64 -n 64 --lda 64 --strideA 4096 --strideP 64
--batch_count 1000 -i 10`` names the function as rocsolver-bench does (``-f`` the routine with its
flavour, ``-r`` the precision: s, d, c, z or f32_r, f64_r, f32_c, f64_c) and gives every other
argument as ``--<parameter> VALUE`` with rocSOLVER's parameter names (``-m``, ``-n``, ``-k``,
``--nrhs``, ``--lda``, ``--strideA``, ``--strideP``, ``--uplo U``, ``--trans N``, ``--evect V``...),
which is what rocmath.solver's ``ROCSOLVER_LAYER=2`` bench lines write, so they replay here.

Any routine of rocmath.solver runs: its operands are built from the routine's description
(matrices with their leading dimensions, strided vectors such as ``ipiv``/``tau``/``D``, ``info``):
omitted sizes are 128 (``nrhs`` 1), leading dimensions the rows they need at least, strides the
entry sizes, ``batch_count`` 1.  Matrices are symmetric and diagonally dominant (so factorizations
go through: positive definite for potrf), pivots are the identity.  The command times ``-j`` cold
and ``-i`` timed calls between stream synchronizations and prints one CSV row: the arguments,
``gpu_time_us`` (the median), and where a SciPy reference exists (getrf, getrs, gesv, getri, potrf,
potrs, posv, geqrf, gels, syev/heev, syevd/heevd, gesvd: a Python loop over the batch entries on
host copies, as rocsolver-bench's CPU reference), ``cpu_time_us`` and ``ratio = cpu / gpu`` (> 1:
rocmath faster).  rocSOLVER's own enums take rocsolver-bench's letters too (``--evect V``,
``--left_svect A``, ``--fast_alg O``...).

``-v 1`` (rocsolver-bench's ``--verify``) first makes one call on the initial data and checks it,
then puts the data back for the timed calls, and adds rocsolver-bench's ``error`` column: the
relative residual of the result in the 1-norm, as rocSOLVER's tests measure it (``||P A - L U|| /
||A||`` for getrf, the normwise backward error ``||b - A x|| / (||A|| ||x||)`` of a solve, ``||I -
A^-1 A|| / (||A|| ||A^-1||)`` for getri, ``||A - Q R||`` and the orthogonality of Q for geqrf, the
normal equations of gels, eigenvalues against scipy.linalg's on the same matrix and the
eigenvectors' residual for syev/heev(d)); the tolerance is ``30 n eps``.  :data:`VERIFIED` lists
the routines it checks.

Exit status: 0 on success, 1 when the run fails or ``-v 1`` finds an error above tolerance, 2 for
a usage error (unknown function, a parameter the function does not have, ``-v 1`` for a routine it
does not check).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TextIO

import numpy as np

from ._cli_common import UsageError, fmt_g, ratio, ratio_interval, time_each, usage_failure

__all__ = ["VERIFIED", "Command", "UsageError", "main", "parse", "parse_command"]

DEFAULT_SIZE = 128
_PRECISION = {"s": "s", "d": "d", "c": "c", "z": "z", "f32_r": "s", "f64_r": "d", "f32_c": "c", "f64_c": "z"}
_SIZES = ("m", "n", "k", "nrhs", "nv", "nu", "nc")
# rocsolver-bench's defaults
_ENUM_DEFAULTS = {"uplo": "U", "trans": "N", "side": "L", "diag": "N", "left_svect": "N", "right_svect": "N",
                  "fast_alg": "O"}


#: rocsolver-bench's letters of rocSOLVER's own enums, by parameter name (the rocBLAS ones, uplo,
#: trans..., take their letters already).
_ENUM_LETTERS: dict[str, tuple[str, dict[str, str]]] = {
    "evect": ("Evect", {"V": "original", "I": "tridiagonal", "N": "none"}),
    "left_svect": ("Svect", {"A": "all", "S": "singular", "V": "singular", "O": "overwrite", "N": "none"}),
    "right_svect": ("Svect", {"A": "all", "S": "singular", "V": "singular", "O": "overwrite", "N": "none"}),
    "fast_alg": ("Workmode", {"O": "outofplace", "I": "inplace"}),
    "erange": ("Erange", {"A": "all", "V": "value", "I": "index"}),
    "srange": ("Srange", {"A": "all", "V": "value", "I": "index"}),
    "esort": ("Esort", {"N": "none", "A": "ascending"}),
    "eorder": ("Eorder", {"B": "blocks", "E": "entire"}),
    "itype": ("Eform", {"1": "ax", "2": "abx", "3": "bax"}),
    "direct": ("Direct", {"F": "forward_direction", "B": "backward_direction"}),
    "storev": ("Storev", {"C": "column_wise", "R": "row_wise"}),
}


class Command(NamedTuple):
    """A parsed ``rocmath-bench solver`` command line."""

    function: str
    precision: str  # s, d, c or z
    params: dict[str, str]  # the routine's arguments, by rocSOLVER's parameter names, as given
    iters: int
    cold: int
    verify: int  # -v 1: check the result against the CPU reference first


def parse(argv: Sequence[str]) -> tuple[str, str, dict[str, str], int, int]:
    """``(function, precision letter, {parameter: text}, iters, cold_iters)`` of a command line
    (the first five fields of :func:`parse_command`)."""
    return parse_command(argv)[:5]


def parse_command(argv: Sequence[str]) -> Command:
    """The :class:`Command` of a command line: rocsolver-bench's ``-f``, ``-r``, ``-i``, ``-j`` and
    ``-v``, every other flag a routine argument by its rocSOLVER name.

    Raises
    ------
    UsageError
        For no ``-f``, an unknown precision, a flag without value or a bad ``-v``.
    """
    function = precision = None
    params: dict[str, str] = {}
    iters, cold, verify = 10, 2, 0
    it = iter(argv)
    for flag in it:
        if not flag.startswith("-"):
            raise UsageError(f"unexpected argument {flag!r}")
        try:
            value = next(it)
        except StopIteration:
            raise UsageError(f"{flag} needs a value") from None
        name = flag.lstrip("-")
        if name in ("f", "function"):
            function = value
        elif name in ("r", "precision"):
            if value not in _PRECISION:
                raise UsageError(f"unknown precision {value!r} (s, d, c, z, f32_r, f64_r, f32_c, f64_c)")
            precision = _PRECISION[value]
        elif name in ("i", "iters"):
            iters = int(value)
        elif name in ("j", "cold_iters"):
            cold = int(value)
        elif name in ("v", "verify"):
            if value not in ("0", "1"):
                raise UsageError(f"Invalid value for -v or --verify {value} (0 or 1)")
            verify = int(value)
        else:
            params[name] = value
    if function is None:
        raise UsageError("-f FUNCTION is required")
    return Command(function, precision or "s", params, max(iters, 1), max(cold, 0), verify)


def _resolve(function: str, letter: str) -> Any:
    import rocmath.solver as solver

    fn = getattr(solver, f"{letter}{function}", None)
    if fn is None or not hasattr(fn, "routine"):
        raise UsageError(f"rocmath.solver has no {letter}{function}")
    return fn


def _value(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text  # an enum letter (U, N, V...)


def _enum_value(name: str, value: Any) -> Any:
    """rocsolver-bench's letter of a rocSOLVER enum argument as the enum's value; anything else as is."""
    import rocmath.solver as solver

    if name in _ENUM_LETTERS:
        cls, letters = _ENUM_LETTERS[name]
        member = letters.get(str(value).upper())
        if member is not None:
            return int(getattr(solver, cls)[member])
    return value


class _Operands:
    """Device operands of one call, built from the routine's description."""

    def __init__(self, fn: Any, given: dict[str, Any]):
        import rocmath as rm

        self.rm = rm
        routine, flavour = fn.routine, fn.flavour
        self.names = fn.routine.signature(flavour)
        self.dtype = np.dtype(fn.precision.dtype)
        self.batched = flavour.name == "BATCHED"
        unknown = set(given) - set(self.names)
        if unknown:
            raise UsageError(f"{fn.__name__} has no parameter(s) {', '.join(sorted(unknown))}")
        v = dict(given)
        for name in self.names[1:]:
            if name in v:
                continue
            if name in _SIZES:
                v[name] = 1 if name == "nrhs" else DEFAULT_SIZE
            elif name in _ENUM_DEFAULTS:
                v[name] = _ENUM_DEFAULTS[name]
        size = max([int(v[s]) for s in _SIZES if s in v] or [DEFAULT_SIZE])
        rows = max(int(v.get("m", size)), int(v.get("n", size)), 1)
        batch = int(v.setdefault("batch_count", 1)) if "batch_count" in self.names else 1
        rng = np.random.default_rng(69069)
        self.keep: list[Any] = []
        self.host: dict[str, np.ndarray] = {}
        self.batched_entries: dict[str, list[Any]] = {}
        self.layout: dict[str, tuple[int, int, int]] = {}  # matrix -> (ld, columns, entry stride)
        self.vector_counts: dict[str, int] = {}
        self.uploads: list[tuple[Any, np.ndarray]] = []  # every device array and its initial host data
        # Matrices: ld x size entries, symmetric and diagonally dominant.
        for matrix, ld_name in routine.arrays.items():
            ld = int(v.setdefault(ld_name, rows))
            stride_name = routine.matrix_stride(matrix)
            entry = ld * size
            if stride_name in self.names:
                entry = int(v.setdefault(stride_name, entry))
            host = np.zeros((batch, size, max(ld, size)), self.dtype)
            for b in range(batch):
                a = rng.standard_normal((size, size)).astype(self.dtype)
                a = a + a.conj().T + 2 * size * np.eye(size, dtype=self.dtype)
                host[b, :, :size] = a
            cm = np.ascontiguousarray(host[:, :, :ld])  # entry b column-major: row-major (size, ld) = columns
            self.host[matrix] = host[:, :size, :size].transpose(0, 2, 1).copy()
            self.layout[matrix] = (ld, size, entry)
            if self.batched:
                entries = [rm.to_device(cm[b]) for b in range(batch)]
                self.keep.extend(entries)
                self.batched_entries[matrix] = entries
                self.uploads += [(e, cm[b]) for b, e in enumerate(entries)]
                v[matrix] = rm.to_device(np.array([e.ptr for e in entries] or [0], np.uint64))
            else:
                flat = np.zeros(max(entry * (batch - 1) + ld * size, 1), self.dtype)
                for b in range(batch):
                    flat[b * entry:b * entry + ld * size] = cm[b].reshape(-1)
                v[matrix] = rm.to_device(flat)
                self.uploads.append((v[matrix], flat))
            self.keep.append(v[matrix])
        # Strided vectors: ipiv as the identity permutation, the others zero (16 bytes an element
        # is enough for any of their types).
        for vector, stride_name in routine.vectors.items():
            count = rows + 1
            if stride_name in self.names:
                count = int(v.setdefault(stride_name, count))
            if vector == "ipiv" and self.dtype.kind in "fc" and fn.routine.name.startswith(("geq", "gel", "ger",
                                                                                               "org", "orm", "ung",
                                                                                               "unm")):
                arr = np.zeros(count * batch, self.dtype)  # Householder scalars, named ipiv in rocSOLVER
            elif vector == "ipiv":
                arr = np.tile(np.arange(1, count + 1, dtype=np.int32), batch)
            else:
                arr = np.zeros(2 * count * batch, np.complex128).view(np.uint8)
            v[vector] = rm.to_device(arr)
            self.vector_counts[vector] = count
            self.uploads.append((v[vector], arr))
            self.keep.append(v[vector])
        # Singular vectors (U and V: plain strided arrays in every flavour), sized as rocsolver-bench:
        # ldu = m, ldv = n for all right vectors else min(m, n), strides ldu*m and ldv*n.
        self.strided_outputs: set[str] = set()
        if {"U", "ldu", "V", "ldv"} <= set(self.names):
            m_, n_ = int(v.get("m", size)), int(v.get("n", size))
            left, right = str(v["left_svect"]).upper(), str(v["right_svect"]).upper()
            shapes = {"U": (m_, m_ if left == "A" else min(m_, n_), m_),
                      "V": (n_ if right == "A" else min(m_, n_), n_, n_)}
            for name, (ld_default, cols, stride_cols) in shapes.items():
                ld = int(v.setdefault(f"ld{name.lower()}", max(ld_default, 1)))
                entry = ld * stride_cols
                if f"stride{name}" in self.names:
                    entry = int(v.setdefault(f"stride{name}", entry))
                flat = np.zeros(max(entry * (batch - 1) + ld * cols, 1), self.dtype)
                v[name] = rm.to_device(flat)
                self.uploads.append((v[name], flat))
                self.keep.append(v[name])
                self.layout[name] = (ld, cols, entry)
                self.strided_outputs.add(name)
        for pointer in routine.pointers:
            if pointer in self.names and pointer not in v:
                v[pointer] = rm.zeros(max(batch, 1) * 4, np.int32)
                self.uploads.append((v[pointer], np.zeros(max(batch, 1) * 4, np.int32)))
                self.keep.append(v[pointer])
        for name in self.names[1:]:
            if name not in v:
                raise UsageError(f"{fn.__name__}: give --{name} (no default for it)")
        self.values = {n: (_value(x) if isinstance(x, str) else x) for n, x in v.items()}
        self.call_values = {n: _enum_value(n, x) for n, x in self.values.items()}
        self.batch = batch
        n = int(v.get("n", size))
        self.shape = (int(v.get("m", n)), n)  # of A, for the reference

    def reset(self) -> None:
        """Put the initial data back on the device (after a call that overwrote it)."""
        for dev, host in self.uploads:
            dev.set(host)
        self.rm.device_synchronize()

    def matrix(self, name: str, initial: bool = False) -> np.ndarray:
        """A matrix operand's entries, ``(batch, ld, columns)`` with ``[b, i, j] = A_b(i, j)``: as the
        device holds them now (synchronize first), or as they were set up."""
        ld, cols, entry = self.layout[name]
        if initial:
            return self.host[name][:, :ld, :cols] if ld <= cols else np.pad(
                self.host[name], ((0, 0), (0, ld - cols), (0, 0)))
        if self.batched and name not in self.strided_outputs:
            flats = [e.get() for e in self.batched_entries[name]]
        else:
            flat = next(d for d, _ in self.uploads if d is self.values[name]).get()
            flats = [flat[b * entry:b * entry + ld * cols] for b in range(self.batch)]
        return np.stack([f.reshape(cols, ld).T for f in flats]) if flats else np.zeros((0, ld, cols), self.dtype)

    def vector(self, name: str, dtype: Any, initial: bool = False) -> np.ndarray:
        """A strided vector operand (ipiv, tau, D...) as ``(batch, stride)`` elements of ``dtype``."""
        dev, host = next((d, h) for d, h in self.uploads if d is self.values[name])
        raw = host if initial else dev.get()
        if raw.dtype == np.uint8:  # untyped storage: the routine's elements
            raw = raw.view(dtype)
        count = self.vector_counts[name]
        return np.stack([raw[b * count:(b + 1) * count] for b in range(self.batch)])


def _reference(function: str) -> Callable[[np.ndarray], Any] | None:
    """The SciPy reference of a routine on one host entry (None when there is none)."""
    import scipy.linalg as sl

    base = function.split("_batched")[0].split("_strided")[0]
    table: dict[str, Callable[[np.ndarray], Any]] = {
        "getrf": lambda a: sl.lu_factor(a, check_finite=False),
        "getf2": lambda a: sl.lu_factor(a, check_finite=False),
        "getrs": lambda a: sl.lu_solve(sl.lu_factor(a, check_finite=False), a[:, :1], check_finite=False),
        "gesv": lambda a: sl.solve(a, a[:, :1], check_finite=False),
        "getri": lambda a: sl.inv(a, check_finite=False),
        "potrf": lambda a: sl.cholesky(a, check_finite=False),
        "potf2": lambda a: sl.cholesky(a, check_finite=False),
        "potrs": lambda a: sl.cho_solve(sl.cho_factor(a, check_finite=False), a[:, :1], check_finite=False),
        "posv": lambda a: sl.solve(a, a[:, :1], assume_a="pos", check_finite=False),
        "geqrf": lambda a: sl.qr(a, mode="raw", check_finite=False),
        "gels": lambda a: sl.lstsq(a, a[:, :1], check_finite=False),
        "syev": lambda a: sl.eigh(a, check_finite=False), "heev": lambda a: sl.eigh(a, check_finite=False),
        "syevd": lambda a: sl.eigh(a, check_finite=False), "heevd": lambda a: sl.eigh(a, check_finite=False),
        "gesvd": lambda a: sl.svd(a, check_finite=False),
    }
    return table.get(base)


# --- verification (-v 1) ---------------------------------------------------------------------------


def _base(function: str) -> str:
    return function.split("_batched")[0].split("_strided")[0]


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def _norm1(x: np.ndarray) -> np.ndarray:
    """The 1-norm (largest column sum) of each matrix of a ``(batch, rows, cols)`` stack."""
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        return np.zeros(x.shape[:-2])
    return np.abs(x).sum(axis=-2).max(axis=-1)


def _worst(residual: np.ndarray, scale: np.ndarray) -> float:
    """``max(residual / scale)`` over the batch (0 / 0 is 0, a NaN is infinite)."""
    residual, scale = np.broadcast_arrays(np.asarray(residual, float), np.asarray(scale, float))
    if residual.size == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(scale > 0, residual / np.where(scale > 0, scale, 1), np.where(residual > 0, np.inf, 0.0))
    return math.inf if np.isnan(r).any() else float(r.max())


def _backward_error(a: np.ndarray, x: np.ndarray, b: np.ndarray) -> float:
    """LAPACK's xGET02 measure without eps: ``max_j ||b_j - A x_j||_1 / (||A||_1 ||x_j||_1)``."""
    resid = np.abs(b - a @ x).sum(axis=-2)
    return _worst(resid, _norm1(a)[:, None] * np.abs(x).sum(axis=-2))


def _pivoted(ops: _Operands, lu: np.ndarray, m: int, initial: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(L U, perm)`` of packed LU factors: ``P A = L U`` with ``P A = A[perm]`` (rocSOLVER's 1-based
    ``ipiv``, the identity for the _npvt routines)."""
    from rocmath.testing.tolerance import ipiv_to_perm, unpack_lu

    lo, up = unpack_lu(lu)
    k = min(lu.shape[-2:])
    if "ipiv" in ops.vector_counts:
        perm = ipiv_to_perm(ops.vector("ipiv", np.int32, initial)[:, :k], m)
    else:
        perm = np.tile(np.arange(m), (lu.shape[0], 1))
    return lo @ up, perm


def _unpermute(pa: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``A`` from ``P A`` (rows ``perm``)."""
    a = np.empty_like(pa)
    np.put_along_axis(a, perm[..., None], pa, axis=-2)
    return a


def _op(a: np.ndarray, trans: Any) -> np.ndarray:
    t = _letter(trans, "Operation")
    return a if t == "N" else (np.swapaxes(a, -1, -2) if t == "T" else np.swapaxes(a, -1, -2).conj())


def _letter(value: Any, enum: str) -> str:
    """A rocBLAS enum argument (letter or value) as its letter."""
    from rocmath.blas import _types

    return _types.as_enum(getattr(_types, enum), value, "").letter


def _householder_q(factored: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """``Q = H_1 H_2 ... H_k`` of geqrf's Householder vectors (below the diagonal, unit first
    element) and scalars: ``H_i = I - tau_i v_i v_i^H``."""
    batch, m, _ = factored.shape
    q = np.tile(np.eye(m, dtype=factored.dtype), (batch, 1, 1))
    for i in range(tau.shape[-1]):
        v = np.zeros((batch, m), factored.dtype)
        v[:, i] = 1
        v[:, i + 1:] = factored[:, i + 1:, i]
        qv = np.einsum("bij,bj->bi", q, v)
        q -= tau[:, i, None, None] * qv[:, :, None] * v.conj()[:, None, :]
    return q


def _orthogonality(q: np.ndarray) -> float:
    """``||I - Q^H Q||_1 / columns``, the worst of the batch."""
    k = q.shape[-1]
    gram = np.swapaxes(q, -1, -2).conj() @ q
    return _worst(_norm1(np.eye(k) - gram), np.full(q.shape[0], max(k, 1)))


def _verify(function: str, ops: _Operands) -> tuple[float, float]:
    """``(error, tolerance)`` of the call just made, as rocSOLVER's tests measure it: the relative
    residual of the factorization or solution (``||P A - L U|| / ||A||``, the normwise backward
    error of a solve...; eigenvalues against scipy.linalg on the same input), in the 1-norm;
    the tolerance is ``30 n eps``, the threshold of LAPACK's test ratios."""
    from rocmath.testing.tolerance import RESIDUAL_THRESHOLD

    base = _base(function)
    v = ops.values
    eps = float(np.finfo(ops.dtype).eps)
    n = int(v.get("n", 0))
    m = int(v.get("m", n))
    nrhs = int(v.get("nrhs", 1))
    a0 = _wide(ops.matrix("A", initial=True))

    def cur(name: str) -> np.ndarray:
        return _wide(ops.matrix(name))

    if base in ("getrf", "getf2", "getrf_npvt", "getf2_npvt"):
        lu_, perm = _pivoted(ops, cur("A")[:, :m, :n], m, initial=False)
        pa = np.take_along_axis(a0[:, :m, :n], perm[..., None], axis=-2)
        return _worst(_norm1(pa - lu_), _norm1(a0[:, :m, :n])), RESIDUAL_THRESHOLD * max(m, n, 1) * eps
    if base in ("getrs", "gesv", "potrs", "posv"):
        if base == "getrs":  # A holds the LU factors: the system is A = P^-1 L U
            lu_, perm = _pivoted(ops, a0[:, :n, :n], n, initial=True)
            matrix = _op(_unpermute(lu_, perm), v["trans"])
        elif base == "potrs":  # A holds the Cholesky factor
            f = np.triu(a0[:, :n, :n]) if _letter(v["uplo"], "Fill") == "U" else np.tril(a0[:, :n, :n])
            h = np.swapaxes(f, -1, -2).conj()
            matrix = h @ f if _letter(v["uplo"], "Fill") == "U" else f @ h
        else:
            matrix = a0[:, :n, :n]
        b0 = _wide(ops.matrix("B", initial=True))[:, :n, :nrhs]
        return _backward_error(matrix, cur("B")[:, :n, :nrhs], b0), RESIDUAL_THRESHOLD * max(n, 1) * eps
    if base in ("getri", "getri_outofplace", "getri_npvt", "getri_npvt_outofplace"):
        lu_, perm = _pivoted(ops, a0[:, :n, :n], n, initial=True)
        matrix = _unpermute(lu_, perm)
        inv = cur("C" if base.endswith("outofplace") else "A")[:, :n, :n]
        resid = _norm1(np.eye(n) - inv @ matrix)
        return _worst(resid, _norm1(matrix) * _norm1(inv)), RESIDUAL_THRESHOLD * max(n, 1) * eps
    if base in ("potrf", "potf2"):
        upper = _letter(v["uplo"], "Fill") == "U"
        f = np.triu(cur("A")[:, :n, :n]) if upper else np.tril(cur("A")[:, :n, :n])
        h = np.swapaxes(f, -1, -2).conj()
        recon = h @ f if upper else f @ h
        return _worst(_norm1(a0[:, :n, :n] - recon), _norm1(a0[:, :n, :n])), RESIDUAL_THRESHOLD * max(n, 1) * eps
    if base in ("geqrf", "geqr2"):
        out = cur("A")[:, :m, :n]
        k = min(m, n)
        tau = _wide(ops.vector("ipiv", ops.dtype))[:, :k]
        q = _householder_q(out, tau)
        error = max(_worst(_norm1(a0[:, :m, :n] - q @ np.triu(out)), _norm1(a0[:, :m, :n])), _orthogonality(q))
        return error, RESIDUAL_THRESHOLD * max(m, n, 1) * eps
    if base == "gels":
        opa = _op(a0[:, :m, :n], v["trans"])
        p, q_ = opa.shape[-2:]
        b0 = _wide(ops.matrix("B", initial=True))[:, :p, :nrhs]
        x = cur("B")[:, :q_, :nrhs]
        if p < q_:  # underdetermined: the system holds exactly
            return _backward_error(opa, x, b0), RESIDUAL_THRESHOLD * max(m, n, 1) * eps
        # Least squares: the normal equations' residual (LAPACK's xQRT17 measure without eps).
        normal = _norm1(np.swapaxes(opa, -1, -2).conj() @ (b0 - opa @ x))
        return (_worst(normal, _norm1(opa) * (_norm1(opa) * _norm1(x) + _norm1(b0))),
                RESIDUAL_THRESHOLD * max(m, n, nrhs, 1) * eps)
    import scipy.linalg as sl

    if base == "gesvd":
        # Singular values against scipy's (||S - S_ref|| / ||S_ref||, as rocSOLVER's test); with both
        # vector sets, the reconstruction U diag(S) V^H and the orthogonality of U and V.
        import rocmath.solver as solver

        k = min(m, n)
        real = np.finfo(ops.dtype).dtype
        s_got = ops.vector("S", real)[:, :k].astype(np.float64)
        expected = np.stack([sl.svdvals(a0[b, :m, :n]) for b in range(ops.batch)]) if k else s_got
        error = _worst(np.linalg.norm(s_got - expected, axis=-1), np.linalg.norm(expected, axis=-1))
        sides = {solver.Svect(int(ops.call_values[f"{side}_svect"])) for side in ("left", "right")}
        if k and sides <= {solver.Svect.all, solver.Svect.singular}:
            u, vh = cur("U")[:, :m, :k], cur("V")[:, :k, :n]
            recon = (u * s_got[:, None, :]) @ vh
            error = max(error, _worst(_norm1(a0[:, :m, :n] - recon), _norm1(a0[:, :m, :n])), _orthogonality(u),
                        _orthogonality(np.swapaxes(vh, -1, -2).conj()))
        return error, RESIDUAL_THRESHOLD * max(m, n, 1) * eps
    # syev, heev, syevd, heevd: eigenvalues against scipy's, eigenvectors by residual and orthogonality

    import rocmath.solver as solver

    real = np.finfo(ops.dtype).dtype
    d = ops.vector("D", real)[:, :n].astype(np.float64)
    expected = np.stack([sl.eigvalsh(a0[b, :n, :n]) for b in range(ops.batch)]) if n else d
    scale = _norm1(a0[:, :n, :n])
    error = _worst(np.abs(d - expected).max(axis=-1, initial=0.0), scale)
    if solver.Evect(int(ops.call_values["evect"])) is solver.Evect.original:
        vec = cur("A")[:, :n, :n]
        error = max(error, _worst(_norm1(a0[:, :n, :n] @ vec - vec * d[:, None, :]), scale), _orthogonality(vec))
    return error, RESIDUAL_THRESHOLD * max(n, 1) * eps


#: The routines ``-v 1`` checks (each also ``_batched`` and ``_strided_batched``).
VERIFIED = ("getrf", "getf2", "getrf_npvt", "getf2_npvt", "getrs", "gesv", "getri", "getri_outofplace", "getri_npvt",
            "getri_npvt_outofplace", "potrf", "potf2", "potrs", "posv", "geqrf", "geqr2", "gels", "syev", "heev",
            "syevd", "heevd", "gesvd")


# --- running -------------------------------------------------------------------------------------


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Entry of ``rocmath-bench solver``; returns the exit status."""
    prog = "rocmath-bench solver"
    out = out or sys.stdout
    try:
        cmd = parse_command(argv)
        fn = _resolve(cmd.function, cmd.precision)
        if cmd.verify and _base(cmd.function) not in VERIFIED:
            raise UsageError(f"-v 1: rocmath-bench solver verifies {', '.join(VERIFIED)} (and their batched "
                             f"forms), not {cmd.function}")
        ops = _Operands(fn, {k: _value(x) for k, x in cmd.params.items()})
    except UsageError as exc:
        return usage_failure(prog, exc)
    import rocmath
    from rocmath import blas

    from .timing import median

    handle = blas.create_handle()
    args = [handle, *(ops.call_values[n] for n in ops.names[1:])]

    def call() -> None:
        fn(*args)
        handle.stream.synchronize()

    checked: tuple[float, float] | None = None
    try:
        if cmd.verify:  # one call on the initial data, checked, then the data back for the timed calls
            call()
            checked = _verify(cmd.function, ops)
            ops.reset()
        times = time_each([call], cmd.iters, cold=cmd.cold)[0]
    except rocmath.RocmathError as exc:
        sys.stderr.write(f"{prog}: {fn.__name__}: {exc}\n")
        return 1
    finally:
        blas.destroy_handle(handle)
    gpu_us = median(times) / 1e3
    columns = [n for n in ops.names[1:] if not _is_pointer(fn, n)]
    cells = [str(ops.values[n]) for n in columns]
    ref = _reference(cmd.function)
    header = [*columns, "gpu_time_us"]
    row = [*cells, f"{gpu_us:.3f}"]
    if ref is not None:
        m, n = ops.shape
        host = next(iter(ops.host.values()))[:, :m, :n]

        def reference() -> None:  # a Python loop over the batch entries, as rocsolver-bench's CPU reference
            for b in range(ops.batch):
                ref(host[b])

        ref_times = time_each([reference], max(1, min(cmd.iters, 5)))[0]
        cpu_us = median(ref_times) / 1e3
        lo, hi = ratio_interval(ref_times, times)
        header += ["cpu_time_us", "ratio", "ratio-lo", "ratio-hi"]
        row += [f"{cpu_us:.3f}", f"{ratio(cpu_us, gpu_us):.3f}", f"{lo:.3f}", f"{hi:.3f}"]
    if checked is not None:
        header.append("error")
        row.append(fmt_g(checked[0]))
    out.write(f"{fn.__name__} ({fn.precision.datatype}), {cmd.iters} timed calls after {cmd.cold} cold\n")
    out.write(",".join(header) + "\n" + ",".join(row) + "\n")
    if checked is not None and not checked[0] <= checked[1]:
        sys.stderr.write(f"{prog}: {fn.__name__}: error {fmt_g(checked[0])} above tolerance {fmt_g(checked[1])}\n")
        return 1
    return 0


def _is_pointer(fn: Any, name: str) -> bool:
    r = fn.routine
    return name in r.arrays or name in r.vectors or name in r.pointers
