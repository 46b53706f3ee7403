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

Any routine of rocmath.solver runs (all 878 with a precision letter; rocSOLVER's version, logging and
rfinfo functions are no benchmarks, rocsolver-bench has none of them): its operands are built from
the routine's description, sized and filled as rocsolver-bench's testing_*.hpp do.  Omitted arguments
take rocsolver-bench's defaults: ``m`` and ``n`` each other's (128 when neither is given: rocsolver-bench
has none), ``k`` as many reflectors as the matrix allows (``m`` or ``n`` by side for orm*/unm*),
``nrhs = n``, leading dimensions the rows of their matrix (``ldu = m``, ``ldv = n`` for all right
singular vectors else ``min(m, n)``; bdsqr's 1 for an empty V, U or C, bdsvdx's ``ldz = 2 n``), strides
``ld`` times the columns (gesvd's ``strideU`` ``ldu * m``) and ``min(m, n)`` elements for a vector (one
less for an off-diagonal ``E`` and sytrd's ``tau``), ``batch_count`` 1, the increments 1, ``--uplo U``,
``--trans N``, ``--evect N``, ``--esort A``, ``--itype 1``, ``--left_svect``/``--right_svect``/``--svect
N``, ``--fast_alg O``, ``--direct F``, ``--eorder E``, ``--erange``/``--srange A``, ``--abstol 0``,
``--max_sweeps 100``, lasyf's ``nb = n``, stein's ``--nev`` min(n, 5), bdsqr's ``nv``, ``nu``, ``nc`` 0;
where rocsolver-bench has no default, ``--side L``, ``--storev C``, laswp's ``k1 = 1``, ``k2 = n`` and
geblttr*'s ``nb = 32``, ``nblocks = 20``.  rocSOLVER's own enums take rocsolver-bench's letters
(``--evect V``, ``--left_svect A``...) or their values; ``--device`` selects the device.

The data are rocSOLVER's tests' kind (random, seeded): matrices Hermitian and diagonally dominant (so
factorizations go through: positive definite for potrf and as sygv's B), pivots the identity; for the
routines that read another one's output, what it leaves: Householder vectors with valid scalars
``tau_i = 2 / ||v_i||^2`` where org*/orm*/larft read them (larfb's T from them, as larft makes it;
larf's alpha for its x), tridiagonal and bidiagonal ``D``, ``E`` shifted and split as rocSOLVER's tests
do (stein's eigenvalues by LAPACK's stebz; steqr's and stedc's C and bdsqr's V, U, C the identity),
sygst's B a Cholesky factor, laswp's pivots random in ``1..lda``, geblttrf's block tridiagonal M
diagonally dominant (geblttrs's A, B, C its factors, X the right-hand sides ``M X_true``).  The csrrf
functions read rocsolver-bench's sparse matrices from files (clients/sparsedata/); here an equivalent
one is generated: a 2D Laplacian's pattern with a nonsymmetric perturbation of its values (symmetric
positive definite in Cholesky mode), factored by SciPy's splu (COLAMD; minimum degree with diagonal
pivots for Cholesky) into ``T = (L - I) + U`` (or ``L``) and the zero-based ``pivP``/``pivQ`` (splu's
``perm_r``/``perm_c`` inverted, see rocmath.solver.refact); ``--nnzA`` (analysis ``--nnzM``, solve
``--nnzT``) asks for a nonzero count (random entries added to, or a sparser pattern than, the
Laplacian's) and the row shows the counts used, as rocsolver-bench shows its closest file's;
sumlu's L and U and splitlu's T are random triangles of the counts given (``nnzL = nnzU = 3 n``,
``nnzT = 5 n`` by default), as rocSOLVER's random_sparse_matrix makes them.  analysis and solve take
rocsolver-bench's ``--rfinfo_mode 1`` (LU) or ``2`` (Cholesky); refactlu, refactchol and solve run
csrrf_analysis once before their calls (untimed, as rocsolver-bench).

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
for gesvd/gesvdj, ``||M - L U|| / ||M||`` blockwise for geblttrf and the backward error of geblttrs,
``||P A Q^T - L U|| / ||A||`` for csrrf_refactlu (``||Q^T A Q - L L^T||`` refactchol), csrrf_solve's
backward error, and sumlu's and splitlu's outputs against their exact values); the tolerance is
``30 n eps`` (0 for the exact ones).  A nonzero ``info`` (or a Jacobi routine's
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
# rocsolver-bench's defaults (its option table; side and storev, which have none there, are L and C here)
_ENUM_DEFAULTS = {"uplo": "U", "trans": "N", "side": "L", "diag": "N", "left_svect": "N", "right_svect": "N",
                  "svect": "N", "fast_alg": "O", "evect": "N", "esort": "A", "itype": "1", "direct": "F",
                  "eorder": "E", "erange": "A", "srange": "A", "storev": "C"}
_NUMBER_DEFAULTS = {"abstol": 0, "max_sweeps": 100, "inca": 1, "incb": 1, "incc": 1, "incx": 1}
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


def _enum_class(name: str) -> Any:
    """The enum class of argument ``name`` (rocSOLVER's own or rocBLAS's), None for a non-enum."""
    from rocmath.solver._types import ENUM_ARGUMENTS, Svect

    return ENUM_ARGUMENTS.get(name, Svect if name == "svect" else None)  # bdsvdx's svect: a rocblas_svect too


def _enum_value(name: str, value: Any) -> Any:
    """rocsolver-bench's letter of a rocSOLVER enum argument as the enum's value; a value of the enum
    and any other argument as is.

    Raises
    ------
    UsageError
        For neither a letter nor a value of the enum (as rocsolver-bench's ``validate_*``).
    """
    from rocmath.solver._types import Evect

    cls = _enum_class(name)
    if cls is not None and cls.__module__ == Evect.__module__:  # rocBLAS's take letters as is
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


def _option(v: dict[str, Any], name: str) -> str:
    """The letter of enum argument ``name`` in ``v`` (rocSOLVER's or rocBLAS's); a value no member has as
    given (the routine rejects it)."""
    from rocmath.blas import _types as blas_types

    cls, value = _enum_class(name), v[name]
    try:
        if cls.__module__ == blas_types.__name__:
            return str(blas_types.as_enum(cls, value, name).letter)
        return str(cls(int(_enum_value(name, value))).letter)
    except (ValueError, blas_types.RocblasInvalidValueError):
        return str(value)


def _family(base: str) -> str:
    """The real-precision name of a routine (un* as or*, he* as sy*): how its operands are laid out."""
    for complex_name, real_name in (("ung", "org"), ("unm", "orm"), ("he", "sy")):
        if base.startswith(complex_name):
            return real_name + base[len(complex_name):]
    return base


def _default_sizes(family: str, names: Sequence[str], v: dict[str, Any]) -> None:
    """rocsolver-bench's sizes where the command line gives none (its testing_*.hpp): m and n each other's
    (a square matrix; both 128 when neither is given), k as many reflectors as the matrix allows (nq for
    orm*/unm*: m for side L, else n), nrhs = n (0 for csrrf_analysis, nb for geblttrs), lasyf's nb = n,
    bdsqr's nv, nu, nc 0, stein's nev min(n, 5); where rocsolver-bench has no default, the 128 of the
    sizes, k1 = 1 and k2 = n (laswp), and geblttr*'s nb = 32, nblocks = 20 (a large case of rocSOLVER's
    tests: 128 blocks of 128 take minutes on the simulated device)."""
    def put(name: str, value: int) -> None:
        if name in names:
            v.setdefault(name, value)

    if {"m", "n"} <= set(names) and ("m" in v or "n" in v):
        v.setdefault("m", v.get("n"))
        v.setdefault("n", v["m"])
    put("m", DEFAULT_SIZE)
    put("n", DEFAULT_SIZE)
    n = int(v.get("n", DEFAULT_SIZE))
    m = int(v.get("m", n))
    if family.startswith("orm") and family != "ormtr":
        put("k", m if _option(v, "side") == "L" else n)
    put("k", min(m, n))
    put("nb", n if family == "lasyf" else 32)  # geblttr*: one of rocSOLVER's large test cases, nb 32, nblocks 20
    put("nblocks", 20)
    put("nrhs", 0 if family == "csrrf_analysis" else int(v["nb"]) if family.startswith("geblttrs") else n)
    for name in ("nu", "nv", "nc"):
        put(name, 0)
    put("k1", 1)
    put("k2", n)
    if family == "stein":
        v.setdefault("nev", min(n, 5))


def _nsv_max(v: dict[str, Any], order: int) -> int:
    """The singular values a partial SVD may find: iu - il + 1 for an index range, else ``order``."""
    return int(v["iu"]) - int(v["il"]) + 1 if _option(v, "srange") == "I" else order


def _shapes(family: str, v: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """``(rows, columns)`` of each matrix operand a routine may have, as rocsolver-bench allocates them
    (its leading dimensions default to the rows, at least 1, its strides to ld times the columns)."""
    n = int(v.get("n", 0))
    m = int(v.get("m", n))
    k, nrhs, mn = int(v.get("k", 0)), int(v.get("nrhs", 0)), min(m, n)
    nq = m if "side" in v and _option(v, "side") == "L" else n
    s = {"A": (m, n), "B": (n, n), "C": (n, n), "Z": (n, n)}
    if family in ("getrs", "gesv", "potrs", "posv", "csrrf_analysis", "csrrf_solve"):
        s["B"] = (n, nrhs)
    elif family == "gels":
        s["B"] = (max(m, n), nrhs)
    if family.startswith("orm"):
        s["C"] = (m, n)
        s["A"] = {"ormtr": (nq, nq), "orml2": (k, nq), "ormlq": (k, nq)}.get(family, (nq, k))
        if family == "ormbr":
            r = min(nq, k)
            s["A"] = (nq, r) if _option(v, "storev") == "C" else (r, nq)
    elif family in ("larft", "larfb"):
        order = nq if family == "larfb" else n
        s["V"] = (order, k) if _option(v, "storev") == "C" else (k, order)
        s["T"] = (k, k)
    elif family == "labrd":
        s |= {"X": (m, k), "Y": (n, k)}
    elif family == "latrd":
        s["W"] = (n, k)
    elif family == "bdsqr":
        nv, nu, nc = int(v["nv"]), int(v["nu"]), int(v["nc"])
        s |= {"V": (n if nv else 0, nv), "U": (nu, n), "C": (n if nc else 0, nc)}
    elif family == "bdsvdx":
        s["Z"] = (2 * n, n)
    elif family == "laswp":
        s["A"] = (int(v["k2"]), n)
    elif family.startswith("geblttr"):
        nb, nblocks = int(v["nb"]), int(v["nblocks"])
        s |= {name: (nb, nb * nblocks) for name in "ABC"} | {"X": (nb, nrhs * nblocks)}
    elif family in ("gesvd", "gesvdj"):
        left, right = (_option(v, f"{side}_svect") == "A" for side in ("left", "right"))
        s |= {"U": (m, m if left else mn), "V": (n if right else mn, n)}
    elif family.startswith("gesvdx"):
        nsv = _nsv_max(v, mn)
        s |= {"U": (m, nsv), "V": (n, nsv) if family.endswith("notransv") else (nsv, n)}
    return s


#: The size arguments (rocsolver-bench's size options and csrrf's counts).
_SIZE_NAMES = ("m", "n", "k", "nrhs", "nb", "nblocks", "nu", "nv", "nc", "k1", "k2", "nev", "batch_count", "nnzA",
               "nnzM", "nnzT", "nnzL", "nnzU")

#: Matrices whose stride default is not ld times their columns: gesvd's U (ldu * m, whatever it holds).
_STRIDE_COLUMNS = {("gesvd", "U"): lambda v: int(v["m"])}


def _vector_count(family: str, name: str, v: dict[str, Any]) -> int:
    """Elements of a strided vector operand: rocsolver-bench's stride default (and its size in a plain call)."""
    n = int(v.get("n", 0))
    m = int(v.get("m", n))
    mn, k = min(m, n), int(v.get("k", 0))
    if family == "labrd":
        return k
    if family in ("sytd2", "sytrd", "latrd") and name != "D":
        return max(n - 1, 0)
    if family in ("gebd2", "gebrd", "gesvd") and name == "E":
        return max(mn - 1, 0)
    if name == "S" and (family == "bdsvdx" or family.startswith("gesvdx")):
        return _nsv_max(v, mn)
    if family in _HOUSEHOLDER:
        return len(_reflectors(family, v)[2])
    return mn


# --- Householder reflectors (org*, orm*, larft, larfb) -------------------------------------------------------


#: The routines that read Householder vectors and their scalars (as the QR, LQ, QL, bidiagonal or tridiagonal
#: reductions leave them).
_HOUSEHOLDER = ("org2r", "orgqr", "org2l", "orgql", "orgl2", "orglq", "orgbr", "orgtr", "orm2r", "ormqr", "orm2l",
                "ormql", "orml2", "ormlq", "ormbr", "ormtr", "larft", "larfb")


def _reflectors(family: str, v: dict[str, Any]) -> tuple[str, bool, list[tuple[int, int, int, int]]]:
    """Where a routine reads its Householder vectors: ``(matrix, by columns, [(line, unit, lo, hi)])``, the
    i-th vector in column (or row) ``line`` with its implicit unit element at ``unit`` and its stored part
    at ``lo:hi`` of that line (LAPACK's layouts: below the diagonal for QR, above the unit for QL, right
    of the diagonal for LQ, left of the unit for RQ; one further off for gebrd's and sytrd's shifted forms)."""
    n = int(v.get("n", 0))
    m = int(v.get("m", n))
    k = int(v.get("k", 0))
    storev = _option(v, "storev") if "storev" in v else "C"
    nq = m if "side" in v and _option(v, "side") == "L" else n
    rows, cols = _shapes(family, v)["V" if family in ("larft", "larfb") else "A"]

    def forward(count: int, shift: int, end: int) -> list[tuple[int, int, int, int]]:  # QR or LQ
        return [(i, i + shift - 1, i + shift, end) for i in range(max(count, 0))]

    def backward(count: int, first_line: int, first_unit: int) -> list[tuple[int, int, int, int]]:  # QL or RQ
        return [(first_line + i, first_unit + i, 0, first_unit + i) for i in range(max(count, 0))]

    if family in ("org2r", "orgqr", "orm2r", "ormqr"):
        return "A", True, forward(k, 1, rows)
    if family in ("orgl2", "orglq", "orml2", "ormlq"):
        return "A", False, forward(k, 1, cols)
    if family in ("org2l", "orgql"):
        return "A", True, backward(k, n - k, m - k)
    if family in ("orm2l", "ormql"):
        return "A", True, backward(k, 0, nq - k)
    if family in ("orgtr", "ormtr"):
        order = n if family == "orgtr" else nq
        upper = _option(v, "uplo") == "U"
        return "A", True, backward(order - 1, 1, 0) if upper else forward(order - 1, 2, rows)
    if family in ("orgbr", "ormbr"):  # gebrd's Q (columns) or P (rows), one further off past k
        rows_q, cols_p = (m, n) if family == "orgbr" else (nq, nq)
        if storev == "C":
            return "A", True, forward(k, 1, rows) if rows_q >= k else forward(rows_q - 1, 2, rows)
        return "A", False, forward(k, 1, cols) if cols_p > k else forward(cols_p - 1, 2, cols)
    # larft and larfb: V of order rows (columns) and k vectors, forward or backward
    order = rows if storev == "C" else cols
    if _option(v, "direct") == "F":
        return "V", storev == "C", forward(k, 1, order)
    return "V", storev == "C", backward(k, 0, order - k)


def _reflector_vectors(a: np.ndarray, by_columns: bool, spots: list[tuple[int, int, int, int]],
                       order: int) -> np.ndarray:
    """The full Householder vectors ``(batch, order, count)`` (unit element, stored part, zeros elsewhere)
    of the spots :func:`_reflectors` names; a row holds a vector's conjugate, as LAPACK's row-wise forms."""
    vecs = np.zeros((a.shape[0], order, len(spots)), a.dtype)
    for i, (line, unit, lo, hi) in enumerate(spots):
        vecs[:, unit, i] = 1
        vecs[:, lo:hi, i] = a[:, lo:hi, line] if by_columns else a[:, line, lo:hi].conj()
    return vecs


def _triangular_factor(vecs: np.ndarray, tau: np.ndarray, forward: bool) -> np.ndarray:
    """larft's T of the reflectors ``H_i = I - tau_i v_i v_i^H`` (LAPACK's recurrence): upper for a forward
    product ``H_1 H_2 ... H_k = I - V T V^H``, lower for a backward one."""
    batch, _, k = vecs.shape
    gram = np.swapaxes(vecs, -1, -2).conj() @ vecs
    t = np.zeros((batch, k, k), vecs.dtype)
    for i in range(k) if forward else reversed(range(k)):
        t[:, i, i] = tau[:, i]
        rest = slice(0, i) if forward else slice(i + 1, k)
        t[:, rest, i] = -tau[:, i, None] * np.einsum("bij,bj->bi", t[:, rest, rest], gram[:, rest, i])
    return t


# --- sparse refactorization (csrrf_*) ---------------------------------------------------------------------


def _sparse_matrix(n: int, nnz: int | None, spd: bool, dtype: np.dtype[Any], rng: np.random.Generator) -> Any:
    """The matrix the csrrf_* operands come from, in place of rocsolver-bench's files (clients/sparsedata/):
    the 5-point 2D Laplacian's pattern (of a ceil(sqrt(n)) wide grid, its leading n x n block), or with a
    given nonzero count the tridiagonal's or the diagonal's below it, plus random off-diagonal entries up
    to that count (in mirrored pairs when symmetric).  Off-diagonal values are -U(0.5, 1.5), independent
    of their mirror's (a nonsymmetric perturbation of the Laplacian) unless ``spd``; each diagonal entry
    is its row's absolute sum plus one, so the matrix is diagonally dominant (positive definite if spd)."""
    import scipy.sparse as sp

    from rocmath.testing.matrices import laplacian_2d

    width = max(math.isqrt(max(n - 1, 0)) + 1, 1)
    pattern = sp.csr_matrix(laplacian_2d(width, -(-n // width))[:n, :n] != 0) if n else sp.csr_matrix((0, 0))
    if nnz is not None and nnz < pattern.nnz:
        pattern = sp.csr_matrix(sp.diags([1, 1, 1], [-1, 0, 1], shape=(n, n)) != 0 if nnz >= 3 * n - 2
                                else sp.identity(n, format="csr") != 0)
    rows, cols = pattern.nonzero()
    off = rows != cols
    rows, cols = rows[off], cols[off]
    if nnz is not None and nnz > pattern.nnz:  # random extra off-diagonal positions, up to the count asked
        taken = set((rows * n + cols).tolist())
        want = (min(nnz, n * n) - pattern.nnz) // (2 if spd else 1)
        extra: list[int] = []
        while len(extra) < want:
            i, j = rng.integers(0, n, size=(2, 2 * (want - len(extra)) + 8))
            for a, b in zip(i.tolist(), j.tolist(), strict=True):
                if spd:
                    a, b = max(a, b), min(a, b)
                if a != b and a * n + b not in taken and len(extra) < want:
                    taken.add(a * n + b)
                    extra.append(a * n + b)
        rows = np.concatenate([rows, np.array(extra, int) // n])
        cols = np.concatenate([cols, np.array(extra, int) % n])
        if spd:  # the mirror of each new entry
            new = slice(rows.size - len(extra), rows.size)
            rows, cols = np.concatenate([rows, cols[new]]), np.concatenate([cols, rows[new]])
    values = -rng.uniform(0.5, 1.5, rows.size)
    a = sp.coo_matrix((values, (rows, cols)), shape=(n, n)).tocsr()
    if spd:
        a = sp.csr_matrix(sp.tril(a, -1) + sp.tril(a, -1).T)
    dominance = np.asarray(abs(a).sum(axis=1)).ravel() + 1.0
    a = sp.csr_matrix(a + sp.diags(dominance, 0, shape=(n, n)), dtype=dtype)
    a.sort_indices()
    return a


def _random_triangle(n: int, nnz: int, lower: bool, rng: np.random.Generator, dtype: np.dtype[Any]) -> Any:
    """A random sparse triangle with ``nnz`` entries of values U(1, 10), as rocSOLVER's
    random_sparse_matrix: lower with a unit diagonal (all n of its entries among nnz), or upper with
    its entries anywhere on and above the diagonal."""
    import scipy.sparse as sp

    if lower:
        slots = n * (n - 1) // 2
        t = rng.choice(slots, size=min(max(nnz - n, 0), slots), replace=False) if slots else np.zeros(0, int)
        i = ((1 + np.sqrt(1 + 8 * t)) // 2).astype(int)  # strictly lower positions, row by row
        i -= (i * (i - 1) // 2 > t).astype(int)
        i += ((i + 1) * i // 2 <= t).astype(int)
        rows, cols = np.concatenate([i, np.arange(n)]), np.concatenate([t - i * (i - 1) // 2, np.arange(n)])
        vals = np.concatenate([rng.uniform(1, 10, t.size), np.ones(n)])
    else:
        slots = n * (n + 1) // 2
        t = rng.choice(slots, size=min(max(nnz, 0), slots), replace=False) if slots else np.zeros(0, int)
        j = ((np.sqrt(1 + 8 * t) - 1) // 2).astype(int)  # positions of the lower triangle, transposed
        j -= (j * (j + 1) // 2 > t).astype(int)
        j += ((j + 1) * (j + 2) // 2 <= t).astype(int)
        rows, cols, vals = t - j * (j + 1) // 2, j, rng.uniform(1, 10, t.size)
    m = sp.csr_matrix((vals, (rows, cols)), shape=(n, n), dtype=dtype)
    m.sort_indices()
    return m


def _csr_parts(m: Any, name: str) -> dict[str, np.ndarray]:
    """``{ptrX, indX, valX}`` of a CSR matrix (int32 offsets and columns, as rocSOLVER's)."""
    return {f"ptr{name}": m.indptr.astype(np.int32), f"ind{name}": m.indices.astype(np.int32),
            f"val{name}": m.data.copy()}


def _refactorization(family: str, v: dict[str, Any], dtype: np.dtype[Any], rng: np.random.Generator,
                     ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The host operands of a csrrf_* routine, as rocSOLVER's csrrf tests set them up: the sparse matrix
    (A, or M for analysis; SciPy's splu factors it, the rfinfo mode's way: P A Q^T = L U with COLAMD, or
    Q^T A Q = L L^T with minimum degree and diagonal pivots), T = (L - I) + U (or L) and the zero-based
    permutations (splu's perm_r and perm_c inverted); sumlu's L and U and splitlu's T random triangles of
    the counts asked (nnzL = nnzU = 3 n, nnzT = 5 n by default), as theirs.  Also sets the counts in ``v``
    and returns what the check needs (A, the factors)."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as sla

    n = int(v["n"])
    if family in ("csrrf_sumlu", "csrrf_splitlu"):
        cap = n * (n + 1) // 2
        if family == "csrrf_sumlu":
            nnz_l, nnz_u = (min(max(int(v.get(name, 3 * n)), 0), cap) for name in ("nnzL", "nnzU"))
        else:  # a random share of nnzT for U, the rest (with the unit diagonal) for L, as rocsolver-bench
            nnz_t = min(int(v.get("nnzT", 5 * n)), n * n)
            nnz_u = int(rng.integers(max(0, nnz_t - n * (n - 1) // 2), min(nnz_t, cap) + 1)) if nnz_t else 0
            nnz_l = n + nnz_t - nnz_u
        lo, up = _random_triangle(n, nnz_l, True, rng, dtype), _random_triangle(n, nnz_u, False, rng, dtype)
        t = sp.csr_matrix(lo - sp.identity(n, dtype=dtype) + up)
        t.sort_indices()
        v.update(nnzL=lo.nnz, nnzU=up.nnz, nnzT=t.nnz)
        if family == "csrrf_sumlu":
            host = _csr_parts(lo, "L") | _csr_parts(up, "U") | {"ptrT": np.zeros(n + 1, np.int32),
                                                                "indT": np.zeros(t.nnz, np.int32),
                                                                "valT": np.zeros(t.nnz, dtype)}
        else:
            host = _csr_parts(t, "T") | {f"{p}{x}": np.zeros(n + 1 if p == "ptr" else nnz, np.int32 if p != "val"
                                                             else dtype)
                                         for x, nnz in (("L", lo.nnz), ("U", up.nnz)) for p in ("ptr", "ind", "val")}
        return host, {"L": lo, "U": up, "T": t}
    cholesky = family == "csrrf_refactchol" or (family in ("csrrf_analysis", "csrrf_solve")
                                               and str(v.get("rfinfo_mode", "1")) == "2")
    given = {"csrrf_analysis": "nnzM", "csrrf_solve": "nnzT"}.get(family, "nnzA")  # solve: rocsolver-bench's
    a = _sparse_matrix(n, int(v[given]) if given in v else None, cholesky, dtype, rng)  # case is by nnzT
    if cholesky:  # minimum degree on A + A^T, then Cholesky (unit L D L^T with diagonal pivots) of Q^T A Q
        options = {"SymmetricMode": True}
        order = sla.splu(sp.csc_matrix(a, dtype=np.float64), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                         options=options).perm_c if n else np.zeros(0, int)
        piv_q = np.argsort(order).astype(np.int32)
        piv_p = piv_q
        lu = sla.splu(sp.csc_matrix(a[piv_q][:, piv_q], dtype=np.float64), permc_spec="NATURAL",
                      diag_pivot_thresh=0.0, options=options) if n else None
        if lu is not None and not (np.array_equal(lu.perm_r, np.arange(n)) and np.array_equal(lu.perm_c,
                                                                                                np.arange(n))):
            raise RuntimeError("splu reordered the symmetric factorization")  # SuperLU keeps it in this mode
        t = sp.csr_matrix(lu.L @ sp.diags(np.sqrt(lu.U.diagonal())), dtype=dtype) if lu is not None else \
            sp.csr_matrix((0, 0), dtype=dtype)
    else:
        lu = sla.splu(sp.csc_matrix(a, dtype=np.float64), permc_spec="COLAMD") if n else None
        piv_p, piv_q = ((np.argsort(lu.perm_r).astype(np.int32), np.argsort(lu.perm_c).astype(np.int32))
                        if lu is not None else (np.zeros(0, np.int32),) * 2)
        t = sp.csr_matrix(lu.L - sp.identity(n) + lu.U, dtype=dtype) if lu is not None else \
            sp.csr_matrix((0, 0), dtype=dtype)
    t.sort_indices()
    v.update({given: a.nnz, "nnzT": t.nnz} if family != "csrrf_solve" else {"nnzT": t.nnz})
    host = _csr_parts(a, "M" if family == "csrrf_analysis" else "A") | _csr_parts(t, "T") | {"pivP": piv_p,
                                                                                              "pivQ": piv_q}
    if family in ("csrrf_refactlu", "csrrf_refactchol"):
        host["valT"][:] = 0  # their output: what the check reads is theirs alone
    return host, {"A": a, "T": t, "cholesky": cholesky}


# --- block tridiagonal systems (geblttrf_npvt, geblttrs_npvt) -------------------------------------------------


def _blocks(x: np.ndarray, nb: int, count: int) -> np.ndarray:
    """``(batch, count, rows, width)`` blocks of a ``(batch, rows, count * width)`` operand."""
    batch, rows, cols = x.shape
    width = cols // count if count else nb
    return x[:, :, :count * width].reshape(batch, rows, count, width).transpose(0, 2, 1, 3)


def _lu_unpivoted(s: np.ndarray) -> np.ndarray:
    """The LU factors without pivoting (getrf_npvt's packed form) of each ``(..., nb, nb)`` matrix."""
    s = s.copy()
    for j in range(s.shape[-1]):
        s[..., j + 1:, j] /= s[..., j, j, None]
        s[..., j + 1:, j + 1:] -= s[..., j + 1:, j, None] * s[..., j, None, j + 1:]
    return s


def _block_product(a: np.ndarray, b: np.ndarray, c: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``M X`` blockwise, M block tridiagonal with ``(batch, nblocks, nb, nb)`` blocks A (below), B, C (above)
    and X ``(batch, nblocks, nb, nrhs)``."""
    y = b @ x
    y[:, 1:] += a[:, :-1] @ x[:, :-1]
    y[:, :-1] += c[:, :-1] @ x[:, 1:]
    return y


def _block_tridiagonal(family: str, v: dict[str, Any], h: dict[str, np.ndarray], rng: np.random.Generator,
                       ) -> dict[str, Any]:
    """geblttrf's and geblttrs's operands, as rocSOLVER's tests make them: M block tridiagonal and
    diagonally dominant (so that no pivoting is needed: off-diagonal entries U(-1, 1), 3 nb + 1 added to
    B's diagonal); for geblttrs, A, B, C hold M's factors (geblttrf's, computed here) and X the right-hand
    sides M X_true.  Returns the blocks of M for the check."""
    nb, nblocks = int(v["nb"]), int(v["nblocks"])
    dtype = h["B"].dtype

    def uniform(shape: tuple[int, ...]) -> np.ndarray:
        x = rng.uniform(-1, 1, shape)
        return (x + 1j * rng.uniform(-1, 1, shape) if dtype.kind == "c" else x).astype(dtype)

    shape = h["B"].shape
    for name in "ABC":
        h[name] = uniform(shape)
        if name != "B" and nblocks:  # the last blocks of A and C are not part of M
            _blocks(h[name], nb, nblocks)[:, -1] = 0
    diag = _blocks(h["B"], nb, nblocks)
    idx = np.arange(nb)
    diag[:, :, idx, idx] += 3 * nb + 1
    m = {name: _blocks(h[name], nb, nblocks).copy() for name in "ABC"}
    if family.startswith("geblttrs"):
        nrhs = int(v["nrhs"])
        x_true = uniform((shape[0], nblocks, nb, nrhs))
        rhs = _block_product(m["A"], m["B"], m["C"], x_true)
        h["X"] = rhs.transpose(0, 2, 1, 3).reshape(shape[0], nb, nblocks * nrhs)
        blocks = {name: _blocks(h[name], nb, nblocks) for name in "BC"}  # views: factored in place
        for k in range(nblocks):
            s = m["B"][:, 0] if k == 0 else m["B"][:, k] - m["A"][:, k - 1] @ blocks["C"][:, k - 1]
            packed = _lu_unpivoted(s)
            blocks["B"][:, k] = packed
            if k + 1 < nblocks:
                u = np.linalg.solve(np.tril(packed, -1) + np.eye(nb), m["C"][:, k])
                blocks["C"][:, k] = np.linalg.solve(np.triu(packed), u)  # inv(S_k) C_k
    return m


# --- the operands -------------------------------------------------------------------------------------------


def _random_hermitian(rng: np.random.Generator, size: int, dtype: np.dtype[Any]) -> np.ndarray:
    """``R + R^H`` with R standard normal, each diagonal entry raised by 2 size (or its row's absolute sum
    plus one, if more): Hermitian (symmetric) and strictly diagonally dominant with a positive diagonal, so
    positive definite."""
    r = rng.standard_normal((size, size))
    if dtype.kind == "c":
        r = r + 1j * rng.standard_normal((size, size))
    h = r + r.conj().T
    return (h + np.diag(np.maximum(np.abs(h).sum(axis=1) + 1, 2 * size))).astype(dtype)


def _tridiagonal(family: str, v: dict[str, Any], h: dict[str, np.ndarray], rng: np.random.Generator) -> None:
    """D and E of the tridiagonal and bidiagonal routines, as rocSOLVER's tests set them (its integers
    U{1..10} shifted): sterf, steqr, stedc D + 400, E - 5 with splits at n/2 - 1 and n/2; stebz, stein and
    bdsvdx D + 10 (negated at n/7, n/5, n/3), (E - 5) / 10 with splits at n/4, n/2 and n - 1, so that the
    eigenvalues are in [-20, 20]; bdsqr D - 4, E - 5."""
    n = int(v["n"])
    d, e = (rng.integers(1, 11, h[name].shape).astype(h[name].dtype) for name in ("D", "E"))
    if family in ("sterf", "steqr", "stedc"):
        d += 400
        e -= 5
        if n >= 2:
            e[:, [n // 2 - 1, n // 2]] = 0
    elif family == "bdsqr":
        d -= 4
        e -= 5
    else:
        d += 10
        d[:, [i for i in {n // 7, n // 5, n // 3} if i < n]] *= -1
        e = (e - 5) / 10
        e[:, [i for i in {n // 4, n // 2, n - 1} if 0 <= i < e.shape[1]]] = 0
    h["D"], h["E"] = d, e


def _identity(x: np.ndarray) -> None:
    idx = np.arange(min(x.shape[1:]))
    x[...] = 0
    x[:, idx, idx] = 1


def _prepare(family: str, v: dict[str, Any], h: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, Any]:
    """Make the generic operands (Hermitian diagonally dominant matrices, zero vectors, identity pivots) the
    routine's meaningful input where it needs more, as rocSOLVER's tests do; returns what its check needs."""
    if family in _HOUSEHOLDER:  # valid reflectors: tau_i = 2 / ||v_i||^2 for the vectors stored in A (or V)
        name, by_columns, spots = _reflectors(family, v)
        lines, length = h[name].shape[:0:-1] if by_columns else h[name].shape[1:]
        spots = [s for s in spots if 0 <= s[0] < lines and 0 <= s[1] < length]  # (sizes the routine refuses)
        vecs = _reflector_vectors(h[name], by_columns, spots, max(h[name].shape[1:]))
        tau = (2 / (np.abs(vecs) ** 2).sum(axis=1)).astype(h[name].dtype)
        if family == "larfb":
            h["T"] = _triangular_factor(vecs, tau, _option(v, "direct") == "F")
        else:
            key = "tau" if family == "larft" else "ipiv"
            h[key][:, :tau.shape[1]] = tau
    elif family in ("sterf", "steqr", "stedc", "stebz", "stein", "bdsqr", "bdsvdx"):
        _tridiagonal(family, v, h, rng)
        if family in ("steqr", "stedc") and _option(v, "evect") == "V":
            _identity(h["C"])  # the eigenvectors of the tridiagonal matrix itself
        if family == "bdsqr":
            for name in "VUC":
                _identity(h[name])
        if family == "stein":  # stebz's largest nev eigenvalues by blocks (LAPACK's, through SciPy)
            import scipy.linalg.lapack as lapack

            n, nev = int(v["n"]), int(v["nev"])
            if not 0 <= nev <= n:
                raise UsageError(f"--nev {nev}: must be in 0..n = {n}")
            if nev:
                found, w, iblock, isplit, _ = lapack.dstebz(h["D"][0].astype(np.float64), h["E"][0, :n - 1].astype(
                    np.float64), 2, 0.0, 0.0, n - nev + 1, n, 0.0, b"B")
                h["W"][0, :n], h["iblock"][0, :n], h["isplit"][0, :n] = w, iblock, isplit
                h["nev"][0, 0] = found
    elif family in ("sygs2", "sygst"):  # B holds the Cholesky factor of a positive definite matrix
        factor = np.linalg.cholesky(h["B"])
        h["B"] = factor if _option(v, "uplo") == "L" else np.swapaxes(factor, -1, -2).conj()
    elif family == "laswp":  # pivots in 1..lda, as rocSOLVER's test
        h["ipiv"][:] = rng.integers(1, max(int(v["lda"]), 1) + 1, h["ipiv"].shape)
    elif family == "larf":  # x and alpha a reflector: alpha = 2 / ||x||^2 over x's incx-strided elements
        order = int(v["m"]) if _option(v, "side") == "L" else int(v["n"])
        x = h["x"][0, ::max(abs(int(v["incx"])), 1)][:order]
        h["alpha"][0, 0] = 2 / max(float((np.abs(x) ** 2).sum()), 1e-300)
    elif family.startswith("geblttr"):
        return _block_tridiagonal(family, v, h, rng)
    return {}


class _Matrix(NamedTuple):
    """Where a matrix operand lives: its logical size, leading dimension, row increment (interleaved
    forms), the distance between batch entries, and whether it is an array of pointers (``_batched``)."""

    rows: int
    cols: int
    ld: int
    inc: int
    entry: int
    pointers: bool


def _index(m: _Matrix, rows: int, batch: int) -> np.ndarray:
    """The element offsets of ``(batch, rows, cols)`` of a strided matrix operand (one entry for pointers)."""
    b = np.arange(1 if m.pointers else batch)[:, None, None] * m.entry
    return b + np.arange(rows)[None, :, None] * m.inc + np.arange(m.cols)[None, None, :] * m.ld


class _Operands:
    """Device operands of one call, built from the routine's description with rocsolver-bench's sizes
    and rocSOLVER's tests' data (see the module docstring)."""

    def __init__(self, fn: Any, given: dict[str, Any]):
        import rocmath as rm

        self.rm = rm
        routine, flavour = fn.routine, fn.flavour
        self.names = routine.signature(flavour)
        self.dtype = np.dtype(fn.precision.dtype)
        self.int_dtype = np.dtype(np.int64 if getattr(fn, "ilp64", False) else np.int32)  # ipiv, info
        self.batched = flavour.name == "BATCHED"
        self.letter = fn.precision.letter
        self.family = family = _family(routine.name.removesuffix("_interleaved"))
        extra = {"rfinfo_mode"} if family in ("csrrf_analysis", "csrrf_solve") else set()
        unknown = set(given) - set(self.names) - extra
        if unknown:
            raise UsageError(f"{fn.__name__} has no parameter(s) {', '.join(sorted(unknown))}")
        if str(given.get("rfinfo_mode", "1")) not in ("1", "2"):
            raise UsageError(f"Invalid value for --rfinfo_mode {given['rfinfo_mode']} (1 = LU, 2 = Cholesky)")
        v = dict(given)
        for name in self.names[1:]:
            if name in _ENUM_DEFAULTS:
                v.setdefault(name, _ENUM_DEFAULTS[name])
            elif name in _NUMBER_DEFAULTS:
                v.setdefault(name, _NUMBER_DEFAULTS[name])
        for name in self.names[1:]:
            if _enum_class(name) is not None:
                _enum_value(name, v[name])  # rocsolver-bench's validate_*: a bad letter is a usage error
        _default_sizes(family, self.names, v)
        # The partial decompositions' range (rocsolver-bench's testing defaults: vl = 0, vu = 1 for a value
        # range, il = iu = 1 for an index range, else 0).
        kind = str(v.get("erange", v.get("srange", "A"))).upper()[:1]
        for name, default in (("vl", 0), ("vu", 1 if kind == "V" else 0), ("il", 1 if kind == "I" else 0),
                              ("iu", 1 if kind == "I" else 0)):
            if name in self.names:
                v.setdefault(name, default)
        batch = max(int(v.setdefault("batch_count", 1)), 0) if "batch_count" in self.names else 1
        self.batch = batch
        rng = np.random.default_rng(69069)
        real = np.dtype(np.finfo(self.dtype).dtype)
        shapes = _shapes(family, v)
        # Matrices: the routine's own (arrays of pointers in _batched) and the plain ones among its pointers
        # that have a leading dimension (gesvd's U and V, the interleaved forms' A, B, C, X).
        self.layout: dict[str, tuple[int, int, int]] = {}  # matrix -> (ld, columns, entry stride)
        self.matrices: dict[str, _Matrix] = {}
        h: dict[str, np.ndarray] = {}
        for name in self.names[1:]:
            ld_name = routine.arrays.get(name, f"ld{name.lower()}")
            if name not in routine.arrays and not (name in routine.pointers and ld_name in self.names):
                continue
            rows, cols = (max(x, 0) for x in shapes.get(name, (int(v.get("n", 0)),) * 2))  # (a size < 0: none)
            ld = int(v.setdefault(ld_name, max(rows, 1)))
            inc = int(v.get(f"inc{name.lower()}", 1))
            stride_name = routine.matrix_stride(name) if name in routine.arrays else f"stride{name}"
            entry = ld * cols
            if stride_name in self.names:
                stride_cols = _STRIDE_COLUMNS[family, name](v) if (family, name) in _STRIDE_COLUMNS else cols
                entry = int(v.setdefault(stride_name, ld * stride_cols))
            pointers = self.batched and name in routine.arrays
            self.matrices[name] = _Matrix(rows, cols, ld, inc, entry, pointers)
            self.layout[name] = (ld, cols, entry)
            size = max(rows, cols)
            h[name] = np.zeros((batch, rows, cols), self.dtype)
            for b in range(batch if size else 0):
                h[name][b] = _random_hermitian(rng, size, self.dtype)[:rows, :cols]
        # Strided vectors: zero (LU pivots: the identity), of rocsolver-bench's stride default each.
        self.vector_counts: dict[str, int] = {}
        self.vector_types: dict[str, np.dtype[Any]] = {}
        for vector, stride_name in routine.vectors.items():
            count = max(_vector_count(family, vector, v), 0)
            if stride_name in self.names:
                count = max(int(v.setdefault(stride_name, count)), 0)
            dtype = (real if vector in ("D", "E", "S", "W") else self.dtype if vector.startswith("tau") or (
                vector == "ipiv" and family.startswith(("geq", "gel", "ger", "org", "orm")))
                else self.int_dtype if vector == "ipiv" else np.dtype(np.int32))
            self.vector_counts[vector], self.vector_types[vector] = count, dtype
            h[vector] = np.zeros((batch, count), dtype)
            if dtype.kind == "i" and vector == "ipiv":
                h[vector][:] = np.arange(1, count + 1)
        # Other pointers: csrrf's sparse operands, the Householder helpers' x, alpha, tau, laswp's pivots,
        # stein's nev; outputs (info, counts) zero, 16 bytes an entry.
        pointer_data: dict[str, np.ndarray] = {}
        self.check: dict[str, Any] = {}
        self.sizes_valid = sizes_valid = all(int(v[s]) >= 0 for s in _SIZE_NAMES if s in v)  # else refused
        if family.startswith("csrrf") and sizes_valid:
            pointer_data, self.check = _refactorization(family, v, real, rng)
        for name in ("nnzA", "nnzM", "nnzT", "nnzL", "nnzU"):
            if name in self.names:
                v.setdefault(name, 0)  # (not generated for sizes the routine refuses)
        incx = max(abs(int(v.get("incx", 1))), 1)
        n = int(v.get("n", 0))
        order = {"larf": int(v["m"]) if "side" in v and _option(v, "side") == "L" else n,
                 "larfg": max(n - 1, 0)}.get(family, n)
        for pointer in routine.pointers:
            if pointer in self.matrices or pointer in pointer_data or pointer == "rfinfo":
                continue
            if pointer == "x":  # random, its incx-strided elements
                pointer_data[pointer] = rng.standard_normal(max(order * incx, 1)).astype(self.dtype)
            elif pointer in ("alpha", "tau"):
                pointer_data[pointer] = rng.standard_normal(max(int(v.get("k", 1)), 1)).astype(self.dtype)
            elif pointer == "ipiv":  # laswp's: k1 + (k2 - k1) |incx| entries
                k1, k2 = int(v["k1"]), int(v["k2"])
                pointer_data[pointer] = np.zeros(max(k1 + (k2 - k1) * incx, 1), np.int32)
            elif pointer == "nev" and family == "stein":
                pointer_data[pointer] = np.zeros(4, np.int32)
            else:
                pointer_data[pointer] = np.zeros(max(batch, 1) * 4, np.int32)
        h |= {name: arr[None] for name, arr in pointer_data.items()}
        if sizes_valid:
            self.check |= _prepare(family, v, h, rng)
        # To the device.
        self.keep: list[Any] = []
        self.host: dict[str, np.ndarray] = {}
        self.batched_entries: dict[str, list[Any]] = {}
        self.uploads: list[tuple[Any, np.ndarray]] = []  # every device array and its initial host data
        self._flat_index: dict[str, np.ndarray] = {}
        self._stored: dict[str, list[tuple[Any, np.ndarray]]] = {}  # matrix -> its device arrays, initial data
        for name, m in self.matrices.items():
            data = h[name].astype(self.dtype)
            placeable = m.ld >= 0 and m.inc >= 1 and m.entry >= 0
            if m.pointers:
                idx = _index(m, min(m.rows, m.ld), 1)[0]  # (an ld below the rows is the routine's to refuse)
                data = data[:, :idx.shape[0]]
                entries = []
                self._stored[name] = []
                for b in range(batch):
                    cm = np.zeros((m.cols, m.ld) if m.ld * m.cols > 0 else 1, self.dtype)  # column-major
                    if placeable:
                        cm.reshape(-1)[idx] = data[b]
                    entries.append(rm.to_device(cm))
                    self.uploads.append((entries[-1], cm))
                    self._stored[name].append((entries[-1], cm))
                self.keep.extend(entries)
                self.batched_entries[name] = entries
                v[name] = rm.to_device(np.array([e.ptr for e in entries] or [0], np.uint64))
            else:
                idx = _index(m, m.rows, batch)
                last = int(idx.max()) + 1 if idx.size and placeable else 0
                flat = np.zeros(max(last, (batch - 1) * m.entry + m.ld * m.cols if batch and placeable else 0, 1),
                                self.dtype)
                if placeable:
                    flat[idx] = data
                v[name] = rm.to_device(flat)
                self.uploads.append((v[name], flat))
                self._stored[name] = [(v[name], flat)]
            self.keep.append(v[name])
            shown = m.ld if m.inc == 1 else m.rows  # a column-major matrix with its padding rows
            self._flat_index[name] = _index(m, max(shown, 0), batch) if placeable else np.zeros((batch, 0, m.cols),
                                                                                                 int)
            self.host[name] = self._read(name, initial=True)
        for vector, count in self.vector_counts.items():
            raw = np.zeros(16 * max(count * batch, 1), np.uint8)  # room for any element type
            raw.view(self.vector_types[vector])[:count * batch] = h[vector].reshape(-1)
            v[vector] = rm.to_device(raw)
            self.uploads.append((v[vector], raw))
            self.keep.append(v[vector])
        for name in pointer_data:
            if name in routine.pointers:
                data = h[name][0]
                v[name] = rm.to_device(data)
                self.uploads.append((v[name], data))
                self.keep.append(v[name])
        self.rfinfo: Any = None
        for name in self.names[1:]:
            if name not in v and name != "rfinfo":
                raise UsageError(f"{fn.__name__}: give --{name} (no default for it)")
        self.values = {n: (_value(x) if isinstance(x, str) else x) for n, x in v.items()}
        self.call_values = {n: _enum_value(n, x) for n, x in self.values.items()}
        n = int(v.get("n", 0))
        self.shape = (int(v.get("m", n)), n)  # of A, for the reference

    def attach(self, handle: Any) -> None:
        """What a call needs from the handle: csrrf's rfinfo (in its mode), analysed beforehand (untimed, as
        rocsolver-bench) for refactlu, refactchol and solve."""
        if "rfinfo" not in self.names:
            return
        import rocmath.solver as solver

        self.rfinfo = solver.create_rfinfo(handle)
        self.call_values["rfinfo"] = self.values["rfinfo"] = self.rfinfo
        if self.check.get("cholesky"):
            solver.set_rfinfo_mode(self.rfinfo, solver.RfinfoMode.cholesky)
        if self.family != "csrrf_analysis" and self.sizes_valid:  # (else the routine refuses them first)
            v = self.call_values
            analysis = getattr(solver, f"{self.letter}csrrf_analysis")
            b = v.get("B")
            analysis(handle, v["n"], v.get("nrhs", 0) if b is not None else 0, v.get("nnzA", v["nnzT"]),
                     v.get("ptrA", v["ptrT"]), v.get("indA", v["indT"]), v.get("valA", v["valT"]), v["nnzT"],
                     v["ptrT"], v["indT"], v["valT"], v.get("pivP", v["pivQ"]), v["pivQ"], b, v.get("ldb", v["n"]),
                     self.rfinfo)
            handle.stream.synchronize()

    def release(self) -> None:
        """Destroy what :meth:`attach` made."""
        if self.rfinfo is not None:
            import rocmath.solver as solver

            solver.destroy_rfinfo(self.rfinfo)
            self.rfinfo = None

    def reset(self) -> None:
        """Put the initial data back on the device (after a call that overwrote it)."""
        for dev, host in self.uploads:
            dev.set(host)
        self.rm.device_synchronize()

    def _read(self, name: str, initial: bool) -> np.ndarray:
        m, idx = self.matrices[name], self._flat_index[name]
        stored = self._stored[name]
        if m.pointers:
            flats = [host if initial else dev.get() for dev, host in stored]
            return np.stack([f.reshape(-1)[idx[0]] for f in flats]) if flats else np.zeros((0, *idx.shape[1:]),
                                                                                           self.dtype)
        dev, host = stored[0]
        return (host if initial else dev.get())[idx]

    def matrix(self, name: str, initial: bool = False) -> np.ndarray:
        """A matrix operand's entries, ``(batch, ld, columns)`` with ``[b, i, j] = A_b(i, j)`` (``rows`` for an
        interleaved one): as the device holds them now (synchronize first), or as they were set up."""
        return self.host[name] if initial else self._read(name, initial=False)

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
    return function.removesuffix("_64").split("_batched")[0].split("_strided")[0].split("_interleaved")[0]


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
    if base.startswith("geblttr"):
        return _verify_block_tridiagonal(base, ops)
    if base.startswith("csrrf"):
        return _verify_refactorization(base, ops)
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


def _block_norm1(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The 1-norm of each block tridiagonal matrix of ``(batch, nblocks, nb, nb)`` blocks A (below the
    diagonal: A_k in block row k + 1), B, C (above: C_k in block row k)."""
    sums = np.abs(b).sum(axis=-2) + np.abs(a).sum(axis=-2)
    sums[:, 1:] += np.abs(c[:, :-1]).sum(axis=-2)
    return sums.max(axis=(1, 2), initial=0.0)


def _verify_block_tridiagonal(base: str, ops: _Operands) -> tuple[float, float]:
    """geblttrf: ``||M - L U|| / ||M||`` blockwise (L's diagonal blocks S_k from B's packed LU factors, its
    sub-diagonal A; U's identity diagonal, U_k in C above); geblttrs: the backward error of ``M X = R``."""
    from rocmath.testing.tolerance import RESIDUAL_THRESHOLD

    v = ops.values
    nb, nblocks = int(v["nb"]), int(v["nblocks"])
    tol = RESIDUAL_THRESHOLD * max(nb * nblocks, 1) * float(np.finfo(ops.dtype).eps)
    m = {name: _wide(ops.check[name]) for name in "ABC"}
    norm = _block_norm1(m["A"], m["B"], m["C"])

    def blocks(name: str, initial: bool = False) -> np.ndarray:
        return _blocks(_wide(ops.matrix(name, initial))[:, :nb], nb, nblocks)

    if base == "geblttrs_npvt":
        x, rhs = blocks("X"), blocks("X", initial=True)
        resid = np.abs(rhs - _block_product(m["A"], m["B"], m["C"], x)).sum(axis=(1, 2))
        return _worst(resid, norm[:, None] * np.abs(x).sum(axis=(1, 2))), tol
    a, packed, u = blocks("A"), blocks("B"), blocks("C")
    s = (np.tril(packed, -1) + np.eye(nb)) @ np.triu(packed)
    resid_b = m["B"] - s
    resid_b[:, 1:] -= a[:, :-1] @ u[:, :-1]
    resid_c, resid_a = m["C"] - s @ u, m["A"] - a
    resid_c[:, -1:] = resid_a[:, -1:] = 0  # (the last blocks of A and C are not part of M)
    return _worst(_block_norm1(resid_a, resid_b, resid_c), norm), tol


def _verify_refactorization(base: str, ops: _Operands) -> tuple[float, float]:
    """csrrf_sumlu and csrrf_splitlu: their outputs against T = (L - I) + U built on the host (exact, as
    theirs are copies); refactlu: ``||P A Q^T - L U|| / ||A||``, refactchol ``||Q^T A Q - L L^T|| / ||A||``
    with the factors read from T; solve: the backward error of ``A X = B``."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as sla

    from rocmath.testing.tolerance import RESIDUAL_THRESHOLD

    v, check = ops.values, ops.check
    n = int(v["n"])
    tol = RESIDUAL_THRESHOLD * max(n, 1) * float(np.finfo(ops.dtype).eps)

    def read(name: str) -> Any:
        ptr = v[f"ptr{name}"].get()
        nnz = int(ptr[-1]) if ptr.size and 0 <= ptr[-1] <= v[f"ind{name}"].size else 0
        return sp.csr_matrix((v[f"val{name}"].get()[:nnz], v[f"ind{name}"].get()[:nnz], ptr), shape=(n, n))

    def same(got: Any, want: Any) -> float:  # 0 for an exact copy, else inf
        exact = all(np.array_equal(getattr(got, f), getattr(want, f)) for f in ("indptr", "indices", "data"))
        return 0.0 if exact else math.inf

    if base == "csrrf_sumlu":
        return same(read("T"), check["T"]), 0.0
    if base == "csrrf_splitlu":
        return max(same(read("L"), check["L"]), same(read("U"), check["U"])), 0.0
    a = sp.csr_matrix(check["A"], dtype=np.float64)
    norm = sla.norm(a, 1) if n else 0.0
    if base == "csrrf_solve":
        x = ops.matrix("B")[0, :n].astype(np.float64)
        b = ops.matrix("B", initial=True)[0, :n].astype(np.float64)
        resid = np.abs(b - a @ x).sum(axis=0)
        return _worst(resid, norm * np.abs(x).sum(axis=0)), tol
    t = sp.csr_matrix(read("T"), dtype=np.float64)
    piv_q = v["pivQ"].get()
    if base == "csrrf_refactlu":
        piv_p = v["pivP"].get()
        factors = (sp.tril(t, -1) + sp.identity(n)) @ sp.triu(t)
        target = a[piv_p][:, piv_q]
    else:
        low = sp.tril(t)
        factors, target = low @ low.T, a[piv_q][:, piv_q]
    return _worst(np.array(sla.norm(target - factors, 1) if n else 0.0), np.array(norm)), tol


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


#: The routines ``-v 1`` checks (each also ``_batched`` and ``_strided_batched``, geblttr* ``_interleaved_batched``).
VERIFIED = ("getrf", "getf2", "getrf_npvt", "getf2_npvt", "getrs", "gesv", "getri", "getri_outofplace", "getri_npvt",
            "getri_npvt_outofplace", "potrf", "potf2", "potrs", "posv", "geqrf", "geqr2", "gels", "syev", "heev",
            "syevd", "heevd", "syevj", "heevj", "sygv", "hegv", "gesvd", "gesvdj", "geblttrf_npvt", "geblttrs_npvt",
            "csrrf_sumlu", "csrrf_splitlu", "csrrf_refactlu", "csrrf_refactchol", "csrrf_solve")


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
    try:
        ops.attach(handle)
    except rocmath.RocmathError as exc:
        ops.release()
        blas.destroy_handle(handle)
        sys.stderr.write(f"{prog}: {fn.__name__}: preparing the operands: {exc}\n")
        return 1
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
        ops.release()
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
