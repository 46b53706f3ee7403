"""``rocmath-bench solver``: rocsolver-bench's command line, run on rocmath.solver.

``rocmath-bench solver -f getrf_strided_batched -r d -m 64 -n 64 --lda 64 --strideA 4096 --strideP 64
--batch_count 1000 -i 10`` names the function as rocsolver-bench does (``-f`` the routine with its
flavour, ``-r`` the precision: s, d, c, z or f32_r, f64_r, f32_c, f64_c) and gives every other
argument as ``--<parameter> VALUE`` with rocSOLVER's parameter names (``-m``, ``-n``, ``-k``,
``--nrhs``, ``--lda``, ``--strideA``, ``--strideP``, ``--uplo U``, ``--trans N``, ``--evect V``...),
which is what rocmath.solver's ``ROCSOLVER_LAYER=2`` bench lines write, so they replay here.  A
function of rocSOLVER's ILP64 API runs as rocsolver-bench names it, with ``_64`` after the flavour
(``-f getf2_strided_batched_64``): its ``ipiv`` and ``info`` are then int64 (its own calls log
the LP64 line, as rocSOLVER's do, so a logged line replays the LP64 function).

Any routine of rocmath.solver runs: its operands are built from the routine's description
(matrices with their leading dimensions, strided vectors such as ``ipiv``/``tau``/``D``, ``info``).
Omitted arguments take rocsolver-bench's defaults: sizes 128 (``nrhs`` 1), leading dimensions the
rows needed (``ldu = m``, ``ldv = n`` for all right singular vectors else ``min(m, n)``), strides
``ld`` times the columns used and ``min(m, n)`` elements for a vector (one less for an
off-diagonal ``E``), ``batch_count`` 1, ``--uplo U``, ``--trans N``, ``--evect N``, ``--esort A``,
``--itype 1``, ``--left_svect``/``--right_svect N``, ``--fast_alg O``, ``--abstol 0``,
``--max_sweeps 100``.  rocSOLVER's own enums take rocsolver-bench's letters (``--evect V``,
``--left_svect A``...) or their values; ``--device`` selects the device.  Matrices are symmetric and
diagonally dominant (so factorizations go through: positive definite for potrf and as sygv's B),
pivots are the identity.

As rocsolver-bench, every timed call starts from the initial data (put back untimed); the command
makes ``-j`` cold calls, then ``-i`` timed ones, the first five of them alternating with the SciPy
reference where one exists (getrf, getrs, gesv, getri, potrf, potrs, posv, geqrf, gels,
syev/heev(d), syevj/heevj, sygv/hegv, gesvd, gesvdj: a Python loop over the batch entries on host
copies, computing the vectors the call's options ask for, as rocsolver-bench's CPU reference).  It
prints one CSV row: the arguments, ``gpu_time_us`` (the median), ``cpu_time_us`` (the reference's
median), ``ratio = cpu / gpu`` (> 1: rocmath faster) and ``ratio-lo``/``ratio-hi``, the ratio's
bootstrap 95 % interval.

``-v 1`` (rocsolver-bench's ``--verify``) first makes one call on the initial data and checks it,
and adds rocsolver-bench's ``error`` column: the relative residual of the result in the 1-norm,
as rocSOLVER's tests measure it (``||P A - L U|| / ||A||`` for getrf, the normwise backward error
``||b - A x|| / (||A|| ||x||)`` of a solve, ``||I - A^-1 A|| / (||A|| ||A^-1||)`` for getri, ``||A -
Q R||`` and the orthogonality of Q for geqrf, the normal equations of gels; eigenvalues and singular
values against scipy.linalg's on the same matrix, the eigenvectors' residual and orthogonality
(B-orthonormality for sygv/hegv), the reconstruction ``U S V^H`` and the orthogonality of U and V
for gesvd/gesvdj); the tolerance is ``30 n eps``.  A nonzero ``info`` (or a Jacobi routine's
residual below 0 or sweeps beyond ``max_sweeps``) makes the error infinite.  :data:`VERIFIED`
lists the routines it checks.

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

from ._cli_common import UsageError, fmt_g, ratio, ratio_interval, select_device, time_each, usage_failure
from .report import Progress

__all__ = ["VERIFIED", "Command", "UsageError", "main", "parse", "parse_command"]

DEFAULT_SIZE = 128
_PRECISION = {"s": "s", "d": "d", "c": "c", "z": "z", "f32_r": "s", "f64_r": "d", "f32_c": "c", "f64_c": "z"}
_SIZES = ("m", "n", "k", "nrhs", "nv", "nu", "nc")
# rocsolver-bench's defaults (its option table; side, which has none there, is L here)
_ENUM_DEFAULTS = {"uplo": "U", "trans": "N", "side": "L", "diag": "N", "left_svect": "N", "right_svect": "N",
                  "svect": "N", "fast_alg": "O", "evect": "N", "esort": "A", "itype": "1", "direct": "F",
                  "eorder": "E", "erange": "A", "srange": "A"}
_NUMBER_DEFAULTS = {"abstol": 0, "max_sweeps": 100}
#: Routines whose ``E`` is an off-diagonal (min(m, n) - 1 elements), and whose ``tau`` has n - 1 too.
_TRIDIAGONAL = ("sytrd", "sytd2", "hetrd", "hetd2")
_OFF_DIAGONAL = ("gesvd", "gebrd", "gebd2", *_TRIDIAGONAL)
#: rocsolver-bench's options that are not routine arguments, taken at their defaults only.
_TOOL_OPTIONS = ("perf", "singular", "mem_query", "profile", "profile_kernels")
#: Timed calls of the reference at most (a Python loop over the batch: it can take long).
REFERENCE_TRIALS = 5


#: Letters rocsolver-bench takes besides the members' own: V for singular vectors.
_LETTER_ALIASES = {"Svect": {"V": "singular"}}


class Command(NamedTuple):
    """A parsed ``rocmath-bench solver`` command line."""

    function: str
    precision: str  # s, d, c or z
    params: dict[str, str]  # the routine's arguments, by rocSOLVER's parameter names, as given
    iters: int
    cold: int
    verify: int  # -v 1: check the result against the CPU reference first
    device: int = 0  # --device


def parse(argv: Sequence[str]) -> tuple[str, str, dict[str, str], int, int]:
    """``(function, precision letter, {parameter: text}, iters, cold_iters)`` of a command line
    (the first five fields of :func:`parse_command`)."""
    return parse_command(argv)[:5]


def parse_command(argv: Sequence[str]) -> Command:
    """The :class:`Command` of a command line: rocsolver-bench's ``-f``, ``-r``, ``-i``, ``-j``,
    ``-v`` and ``--device``, every other flag a routine argument by its rocSOLVER name.
    rocsolver-bench's ``--perf``, ``--singular``, ``--mem_query``, ``--profile`` and
    ``--profile_kernels`` are taken at their default, 0.

    Raises
    ------
    UsageError
        For no ``-f``, an unknown precision, a flag without value, a bad ``-v`` or ``--device``, or
        one of the tool's options not 0.
    """
    function = precision = None
    params: dict[str, str] = {}
    iters, cold, verify, device = 10, 2, 0, 0
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
        elif name == "device":
            if not value.isdigit():
                raise UsageError(f"Invalid value for --device {value}")
            device = int(value)
        elif name in _TOOL_OPTIONS:
            if value != "0":
                raise UsageError(f"rocmath-bench solver takes rocsolver-bench's --{name} at its default 0 only")
        else:
            params[name] = value
    if function is None:
        raise UsageError("-f FUNCTION is required")
    return Command(function, precision or "s", params, max(iters, 1), max(cold, 0), verify, device)


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
    """rocsolver-bench's letter of a rocSOLVER enum argument as the enum's value; a value of the enum
    and any other argument as is.

    Raises
    ------
    UsageError
        For neither a letter nor a value of the enum (as rocsolver-bench's ``validate_*``).
    """
    from rocmath.solver._types import ENUM_ARGUMENTS

    cls = ENUM_ARGUMENTS.get(name)
    if cls is not None and cls.__module__ == ENUM_ARGUMENTS["evect"].__module__:  # rocBLAS's take letters as is
        aliases = _LETTER_ALIASES.get(cls.__name__, {})
        letters = {m.letter: m for m in cls} | {k: cls[v] for k, v in aliases.items()}  # type: ignore[attr-defined]
        member = letters.get(str(value).upper())
        if member is not None:
            return int(member)
        try:
            cls(int(value))
        except (TypeError, ValueError):
            raise UsageError(f"Invalid value for --{name} {value} (one of {', '.join(letters)})") from None
    return value


class _Operands:
    """Device operands of one call, built from the routine's description."""

    def __init__(self, fn: Any, given: dict[str, Any]):
        import rocmath as rm

        self.rm = rm
        routine, flavour = fn.routine, fn.flavour
        self.names = fn.routine.signature(flavour)
        self.dtype = np.dtype(fn.precision.dtype)
        self.int_dtype = np.dtype(np.int64 if getattr(fn, "ilp64", False) else np.int32)  # ipiv, info
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
            elif name in _NUMBER_DEFAULTS:
                v[name] = _NUMBER_DEFAULTS[name]
        # The partial decompositions' range (rocsolver-bench's testing defaults: vl = 0, vu = 1 for a value
        # range, il = iu = 1 for an index range, else 0).
        kind = str(v.get("erange", v.get("srange", "A"))).upper()[:1]
        for name, default in (("vl", 0), ("vu", 1 if kind == "V" else 0), ("il", 1 if kind == "I" else 0),
                              ("iu", 1 if kind == "I" else 0)):
            if name in self.names and name not in v:
                v[name] = default
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
            if stride_name in self.names:  # rocsolver-bench's default: ld times the columns the routine uses
                used = int(v["nrhs"]) if matrix == "B" and "nrhs" in v else int(v.get("n", size))
                entry = int(v.setdefault(stride_name, ld * used))
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
        # A strided flavour's vector strides default to rocsolver-bench's: min(m, n) elements (n for
        # the routines without m), one less for a bidiagonal's or tridiagonal's off-diagonal.
        k = min([int(v[d]) for d in ("m", "n") if d in v] or [size])
        for vector, stride_name in routine.vectors.items():
            count = rows + 1
            if stride_name in self.names:
                short = (vector == "E" and routine.name in _OFF_DIAGONAL) or (
                    vector == "tau" and routine.name in _TRIDIAGONAL)
                count = int(v.setdefault(stride_name, max(k - 1, 0) if short else k))
            if vector == "ipiv" and self.dtype.kind in "fc" and fn.routine.name.startswith(("geq", "gel", "ger",
                                                                                               "org", "orm", "ung",
                                                                                               "unm")):
                arr = np.zeros(max(count * batch, 1), self.dtype)  # Householder scalars, named ipiv in rocSOLVER
            elif vector == "ipiv":
                arr = (np.tile(np.arange(1, count + 1, dtype=self.int_dtype), batch) if count * batch
                       else np.ones(1, self.int_dtype))
            else:
                arr = np.zeros(2 * max(count * batch, 1), np.complex128).view(np.uint8)
            v[vector] = rm.to_device(arr)
            self.vector_counts[vector] = count
            self.uploads.append((v[vector], arr))
            self.keep.append(v[vector])
        # Singular vectors (U and V: plain strided arrays in every flavour), sized as rocsolver-bench:
        # ldu = m, ldv = n for all right vectors else min(m, n), strides ldu*m and ldv*n.
        self.strided_outputs: set[str] = set()
        if {"U", "ldu", "V", "ldv"} <= set(self.names):
            m_, n_ = int(v.get("m", size)), int(v.get("n", size))
            import rocmath.solver as solver

            left, right = (solver.Svect(int(_enum_value(f"{side}_svect", _value(str(v[f"{side}_svect"])))))
                           is solver.Svect.all for side in ("left", "right"))
            u_cols = m_ if left else min(m_, n_)
            # (ld, columns, columns of the default stride); gesvdj's U stride is ldu * columns
            shapes = {"U": (m_, u_cols, u_cols if routine.name == "gesvdj" else m_),
                      "V": (n_ if right else min(m_, n_), n_, n_)}
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
                if pointer in ("x", "alpha", "tau"):  # larf's, larfg's, lacgv's, larft's: random, rows x |incx|
                    count = (rows + 1) * max(abs(int(v.get("incx", 1))), 1) * max(batch, 1)
                    arr = rng.standard_normal(count).astype(self.dtype)
                else:  # info, the Jacobi counts: 16 bytes an entry (room for an int64 info)
                    arr = np.zeros(max(batch, 1) * 4, np.int32)
                v[pointer] = rm.to_device(arr)
                self.uploads.append((v[pointer], arr))
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


def _enum(ops: _Operands, name: str, cls: Any) -> Any:
    """The member of rocSOLVER enum ``cls`` the call passes as argument ``name``."""
    return cls(int(ops.call_values[name]))


#: scipy.linalg.eigh's ``type`` of each generalized problem form.
_ITYPES = {"ax": 1, "abx": 2, "bax": 3}


def _svd_options(ops: _Operands) -> tuple[bool, bool]:
    """``(compute_uv, full_matrices)`` of scipy.linalg.svd for gesvd(j)'s ``left_svect``/``right_svect``."""
    import rocmath.solver as solver

    sides = {_enum(ops, f"{side}_svect", solver.Svect) for side in ("left", "right")}
    return sides != {solver.Svect.none}, solver.Svect.all in sides


def _reference(function: str, ops: _Operands) -> Callable[[int], Any] | None:
    """The SciPy reference of a routine on batch entry ``b`` of the host copies of its initial
    operands (None when there is none); it computes what the call's options ask for (singular
    vectors, eigenvectors), as rocsolver-bench's CPU reference does."""
    import scipy.linalg as sl

    import rocmath.solver as solver

    if "A" not in ops.host:  # larfg, lacgv, sterf...: no matrix A to run a reference on
        return None
    m, n = ops.shape
    a = ops.host["A"][:, :m, :n]
    base = _base(function)
    if base in ("gesvd", "gesvdj"):
        uv, full = _svd_options(ops)
        return lambda b: sl.svd(a[b], full_matrices=full, compute_uv=uv, check_finite=False)
    if base in ("syev", "heev", "syevd", "heevd", "syevj", "heevj", "sygv", "hegv"):
        values_only = _enum(ops, "evect", solver.Evect) is solver.Evect.none
        if base in ("sygv", "hegv"):
            bm, itype = ops.host["B"][:, :n, :n], _ITYPES[_enum(ops, "itype", solver.Eform).name]
            return lambda b: sl.eigh(a[b], bm[b], type=itype, eigvals_only=values_only, check_finite=False)
        return lambda b: sl.eigh(a[b], eigvals_only=values_only, check_finite=False)
    table: dict[str, Callable[[np.ndarray], Any]] = {
        "getrf": lambda x: sl.lu_factor(x, check_finite=False),
        "getf2": lambda x: sl.lu_factor(x, check_finite=False),
        "getrs": lambda x: sl.lu_solve(sl.lu_factor(x, check_finite=False), x[:, :1], check_finite=False),
        "gesv": lambda x: sl.solve(x, x[:, :1], check_finite=False),
        "getri": lambda x: sl.inv(x, check_finite=False),
        "potrf": lambda x: sl.cholesky(x, check_finite=False),
        "potf2": lambda x: sl.cholesky(x, check_finite=False),
        "potrs": lambda x: sl.cho_solve(sl.cho_factor(x, check_finite=False), x[:, :1], check_finite=False),
        "posv": lambda x: sl.solve(x, x[:, :1], assume_a="pos", check_finite=False),
        "geqrf": lambda x: sl.qr(x, mode="raw", check_finite=False),
        "gels": lambda x: sl.lstsq(x, x[:, :1], check_finite=False),
    }
    ref = table.get(base)
    return None if ref is None else (lambda b: ref(a[b]))


# --- verification (-v 1) ---------------------------------------------------------------------------


def _base(function: str) -> str:
    """The routine of a function name: without its flavour and ``_64``."""
    return function.removesuffix("_64").split("_batched")[0].split("_strided")[0]


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
        perm = ipiv_to_perm(ops.vector("ipiv", ops.int_dtype, initial)[:, :k], m)
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

    import rocmath.solver as solver

    real = np.finfo(ops.dtype).dtype
    if base in ("gesvd", "gesvdj"):
        # Singular values against scipy's (||S - S_ref|| / ||S_ref||, as rocSOLVER's test); with both
        # vector sets, the reconstruction U diag(S) V^H and the orthogonality of U and V.
        k = min(m, n)
        s_got = ops.vector("S", real)[:, :k].astype(np.float64)
        expected = np.stack([sl.svdvals(a0[b, :m, :n]) for b in range(ops.batch)]) if k else s_got
        error = _worst(np.linalg.norm(s_got - expected, axis=-1), np.linalg.norm(expected, axis=-1))
        sides = {_enum(ops, f"{side}_svect", solver.Svect) for side in ("left", "right")}
        if k and sides <= {solver.Svect.all, solver.Svect.singular}:
            u, vh = cur("U")[:, :m, :k], cur("V")[:, :k, :n]
            recon = (u * s_got[:, None, :]) @ vh
            error = max(error, _worst(_norm1(a0[:, :m, :n] - recon), _norm1(a0[:, :m, :n])), _orthogonality(u),
                        _orthogonality(np.swapaxes(vh, -1, -2).conj()))
        return error, RESIDUAL_THRESHOLD * max(m, n, 1) * eps
    vectors = _enum(ops, "evect", solver.Evect) is solver.Evect.original
    if base in ("sygv", "hegv"):
        # Eigenvalues of the pencil against scipy's; eigenvectors by the residual of their problem
        # type and their B-normalization (Z^H B Z = I, or Z^H B^-1 Z = I for B A x = l x).
        itype = _ITYPES[_enum(ops, "itype", solver.Eform).name]
        a_, b_ = a0[:, :n, :n], _wide(ops.matrix("B", initial=True))[:, :n, :n]
        d = ops.vector("D", real)[:, :n].astype(np.float64)
        expected = np.stack([sl.eigh(a_[b], b_[b], type=itype, eigvals_only=True) for b in range(ops.batch)]) if n \
            else d
        spread = np.abs(expected).max(axis=-1, initial=0.0)
        error = _worst(np.abs(d - expected).max(axis=-1, initial=0.0), spread)
        if vectors and n:
            z = cur("A")[:, :n, :n]
            na, nb, nz = _norm1(a_), _norm1(b_), _norm1(z)
            if itype == 1:
                resid, scale = a_ @ z - b_ @ z * d[:, None, :], (na + nb * spread) * nz
            else:
                resid = (a_ @ b_ if itype == 2 else b_ @ a_) @ z - z * d[:, None, :]
                scale = (na * nb + spread) * nz
            gram = np.swapaxes(z, -1, -2).conj() @ (b_ @ z if itype != 3 else np.linalg.solve(b_, z))
            error = max(error, _worst(_norm1(resid), scale), _worst(_norm1(np.eye(n) - gram), np.full(ops.batch, n)))
        return error, RESIDUAL_THRESHOLD * max(n, 1) * eps
    # syev, heev, syevd, heevd, syevj, heevj: eigenvalues against scipy's (sorted: syevj's --esort N
    # leaves them unsorted), eigenvectors by residual and orthogonality.
    d = ops.vector("W" if base in ("syevj", "heevj") else "D", real)[:, :n].astype(np.float64)
    expected = np.stack([sl.eigvalsh(a0[b, :n, :n]) for b in range(ops.batch)]) if n else d
    scale = _norm1(a0[:, :n, :n])
    error = _worst(np.abs(np.sort(d, axis=-1) - expected).max(axis=-1, initial=0.0), scale)
    if vectors:
        vec = cur("A")[:, :n, :n]
        error = max(error, _worst(_norm1(a0[:, :n, :n] @ vec - vec * d[:, None, :]), scale), _orthogonality(vec))
    return error, RESIDUAL_THRESHOLD * max(n, 1) * eps


def _outputs_valid(ops: _Operands) -> bool:
    """Whether the call reported success: ``info`` 0 for every batch entry and, for the Jacobi
    routines, a residual >= 0 and at most ``max_sweeps`` sweeps (as rocSOLVER's tests check)."""
    batch = max(ops.batch, 1)
    if "info" in ops.values and np.any(ops.values["info"].get().view(ops.int_dtype)[:batch] != 0):
        return False
    if "n_sweeps" in ops.values:
        sweeps = ops.values["n_sweeps"].get()[:batch]
        residual = ops.values["residual"].get().view(np.finfo(ops.dtype).dtype)[:batch]
        return bool(np.all((sweeps >= 0) & (sweeps <= int(ops.values["max_sweeps"])) & (residual >= 0)))
    return True


#: The routines ``-v 1`` checks (each also ``_batched`` and ``_strided_batched``).
VERIFIED = ("getrf", "getf2", "getrf_npvt", "getf2_npvt", "getrs", "gesv", "getri", "getri_outofplace", "getri_npvt",
            "getri_npvt_outofplace", "potrf", "potf2", "potrs", "posv", "geqrf", "geqr2", "gels", "syev", "heev",
            "syevd", "heevd", "syevj", "heevj", "sygv", "hegv", "gesvd", "gesvdj")


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
        select_device(cmd.device, "Invalid Device ID")
        ops = _Operands(fn, {k: _value(x) for k, x in cmd.params.items()})
    except UsageError as exc:
        return usage_failure(prog, exc)
    import rocmath
    from rocmath import blas

    from .timing import median

    handle = blas.create_handle()
    args = [handle, *(ops.call_values[n] for n in ops.names[1:])]
    ref = _reference(cmd.function, ops)

    def call() -> None:
        fn(*args)
        handle.stream.synchronize()

    def reference() -> None:  # a Python loop over the batch entries, as rocsolver-bench's CPU reference
        assert ref is not None
        for b in range(ops.batch):
            ref(b)

    checked: tuple[float, float] | None = None
    progress = Progress(cmd.cold + cmd.iters)
    try:
        if cmd.verify:  # one call on the initial data, checked
            call()
            checked = _verify(cmd.function, ops)
            if not _outputs_valid(ops):  # a nonzero info (or a Jacobi routine's bad sweeps) fails the check
                checked = (math.inf, checked[1])
        # As rocsolver-bench, every timed call starts from the initial data (put back untimed); the
        # first calls alternate with the reference's (A B A B ...), the rest are rocmath's alone.
        both = min(cmd.iters, REFERENCE_TRIALS) if ref is not None else 0
        time_each([call], 0, cold=cmd.cold, before=ops.reset, progress=progress)
        paired = time_each([call, reference], both, before=ops.reset, progress=progress) if both else [[], []]
        times = paired[0] + time_each([call], cmd.iters - both, before=ops.reset, progress=progress)[0]
    except rocmath.RocmathError as exc:
        sys.stderr.write(f"{prog}: {fn.__name__}: {exc}\n")
        return 1
    finally:
        progress.clear()
        blas.destroy_handle(handle)
    gpu_us = median(times) / 1e3
    columns = [n for n in ops.names[1:] if not _is_pointer(fn, n)]
    header = [*columns, "gpu_time_us"]
    row = [*(str(ops.values[n]) for n in columns), f"{gpu_us:.3f}"]
    if ref is not None:
        cpu_us = median(paired[1]) / 1e3
        lo, hi = ratio_interval(paired[1], times)
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
