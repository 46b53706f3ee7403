"""rocSOLVER's LAPACK-like auxiliaries of the blocked reductions and of the partial SVD: labrd, latrd, lasyf, bdsvdx.

Plain functions only (rocsolver-functions.h declares no batched forms of these), each with
rocSOLVER's name, parameter order and check order (``rocsolver_<routine>_argCheck`` in
library/src/auxiliary/rocauxiliary_<routine>.hpp):

- ``<p>labrd(m, n, k, A, lda, D, E, tauq, taup, X, ldx, Y, ldy)`` (s, d, c, z): the first ``k``
  rows and columns of A reduced to bidiagonal form (upper when m >= n, lower otherwise) and the
  m x k and n x k matrices X and Y of the block update ``A := A - V Y^H - X U^H``.
- ``<p>latrd(uplo, n, k, A, lda, E, tau, W, ldw)`` (s, d, c, z; Hermitian for c, z): the first
  (lower) or last (upper) ``k`` columns of A reduced to tridiagonal form and the n x k W of the
  update ``A := A - V W^H - W V^H``.
- ``<p>lasyf(uplo, n, nb, kb, A, lda, ipiv, info)`` (s, d, c, z; complex symmetric, not
  Hermitian): a Bunch-Kaufman factorization of ``nb`` (or ``nb - 1``: ``kb``) columns, the last
  (upper) or first (lower), with the trailing part updated.
- ``<p>bdsvdx(uplo, svect, srange, n, D, E, vl, vu, il, iu, nsv, S, Z, ldz, ifail, info)`` (s, d):
  the singular values of an n x n bidiagonal B (all, those in ``[vl, vu)``, or the il-th through
  iu-th largest) and optionally the vectors, ``Z = [U; V]`` (2n x nsv).

The work is LAPACK's ``?labrd``/``?latrd``/``?lasyf``/``?bdsvdx`` on each call's operands in
place, called by numba kernels through :func:`rocmath.solver._lapack.external` (``?bdsvdx`` is
not in ``scipy.linalg.cython_lapack``: :func:`ensure_bdsvdx` registers it from the LAPACK
library scipy is built on).  What rocSOLVER's code does, and where it and LAPACK's differ:

labrd (rocauxiliary_labrd.hpp) is LAPACK's xLABRD step for step (the same gemv sequence, the
reflectors by larfg, D/E copied from A and the diagonal (superdiagonal) element set to 1 where
LAPACK sets it, the last row/column steps skipped where LAPACK skips them).  Checks: ``m < 0``,
``n < 0``, ``k < 0``, ``k > min(m, n)``, ``lda < m``, ``ldx < m``, ``ldy < n`` (invalid_size), then
A (``m, n > 0``), D, E, tauq, taup (``k > 0``), X (``m, k > 0``), Y (``n, k > 0``)
(invalid_pointer).  Quick return: ``m``, ``n`` or ``k`` zero touches nothing.

latrd (rocauxiliary_latrd.hpp) is LAPACK's xLATRD (symv/hemv, larfg, the ``-tau/2 (w . v)``
correction), except at ``k = n``: LAPACK skips the reflector of the last reduced column (there is
none), rocSOLVER's loop still copies the element "past" it into ``E`` and sets it to 1 (lower:
``E[n - 1]`` and ``A(n, n - 1)``, one past the arrays E and A's last column; upper: ``E[-1]`` and
``A[-1]``) -- writes outside the arguments, which rocmath does not reproduce: ``k = n`` is LAPACK's.
Checks: uplo (invalid_value); ``n < 0``, ``k < 0``, ``k > n``, ``lda < n``, ``ldw < n``
(invalid_size); A, E, tau (``n > 0``), W (``n, k > 0``) (invalid_pointer).  Quick return: ``n``
or ``k`` zero touches nothing.

lasyf (rocauxiliary_lasyf.hpp) is LAPACK's xLASYF in one device kernel: the same loop bounds
(upper: while ``k > n - nb`` or ``nb == n``; lower: while ``k < nb - 1`` or ``nb == n``), the same
``alpha = (1 + sqrt(17)) / 8`` choice on ``|re| + |im|`` maxima, LAPACK's 1-based ``ipiv`` (a 2x2
block: two equal negative entries; only the last (upper) / first (lower) ``kb`` written), ``kb``
(``n - k`` / ``k - 1`` of LAPACK's final k: ``nb`` or ``nb - 1``), ``info`` the first zero pivot
column (1-based), the trailing block update by ``nb``-column panels and the partial undoing of the
interchanges; its W is ``n x nb`` elements of workspace.  Its size check allows ``nb`` from 0
to n (the documented ``nb >= 2`` is not checked): with ``nb == 1 < n`` no column is factored
(kb = 0, info = 0, A and ipiv unchanged), which rocmath returns without calling LAPACK (whose
undo loop would read ``ipiv`` out of bounds then).  Checks: uplo (invalid_value); ``n < 0``,
``nb < 0``, ``nb > n``, ``lda < n`` (invalid_size); kb (always), A, ipiv (``n > 0``), info
(always) (invalid_pointer).  Quick return: ``n == 0`` or ``nb == 0`` sets kb and info to 0.

bdsvdx (rocauxiliary_bdsvdx.hpp) computes the eigenvalues of the 2n x 2n Golub-Kahan (TGK)
matrix (zero diagonal, off-diagonal ``d1, e1, d2, ..., dn``) by stebz -- the range ``(-vu, -vl]``
for srange value, the indices il..iu (all: 1..n) of the ascending ones -- so ``S = -lambda``:
the singular values in ``[vl, vu)`` or the il-th through iu-th *largest*, descending, as LAPACK's
xBDSVDX; nsv is capped at n.  With vectors, stein's TGK eigenvectors z (unit, each with its
largest-magnitude element positive, the first of equal ones) give ``U = sqrt(2) z[odd]``,
``V = -sqrt(2) z[even]`` (upper; lower: ``U = sqrt(2) z[even]``, ``V = -sqrt(2) z[odd]``, 0-based):
rocmath takes LAPACK's vectors and flips each pair (u, v) to that sign.  ``info`` is stebz's
(no vectors) or stein's count of vectors that did not converge, their indices in ``ifail`` (first
nsv elements, zero on success): here LAPACK's info and, when it is > 0, IWORK.  LAPACK's n = 1 shortcut
selects ``|d1|`` in ``(vl, vu]``; rocSOLVER's stebz, and so rocmath, in ``[vl, vu)`` as for any n.  Where the
two differ beyond rounding (rocmath is LAPACK's): an exactly zero singular value, where rocSOLVER's TGK eigenvalue pair
``+-0`` may be counted twice in a value range and its stein vectors are not split evenly between
U and V, and LAPACK's internal-error ``info = 2n + 1``.  Checks: uplo, svect (none or singular),
srange (invalid_value); ``n < 0``; ``ldz < 1`` (no vectors) or ``ldz < 2n``; a value range with
``vl < 0`` or ``vl >= vu``; an index range with ``iu > n`` or (``n > 0`` and) ``il > iu``, then with
``il < 1`` or ``iu < 0`` (invalid_size); D, S (``n > 0``), E (``n > 1``), info, nsv (always), then
Z, ifail (vectors and ``n > 0``) (invalid_pointer).  Quick returns: info := 0 first; ``n == 0``
then returns (nsv not written).  D and E are read only; S's first nsv elements, Z's first 2n rows
of its first nsv columns and ifail's first nsv elements are written, nothing else.  Workspace:
LAPACK's arrays (S and Z scratch, WORK 14n, IWORK 12n).

The kernels: four small numba functions (cache=True) calling the LAPACK symbols; a call's
Fortran argument cells are host scratch.  labrd and latrd take no workspace (LAPACK's need none).
"""

from __future__ import annotations

import ctypes
import glob
import math
import os
import threading
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from rocmath.errors import RocblasNotImplementedError
from rocmath.precision import C, D, S, Z

from . import _lapack
from ._api import PLAIN, SolverCall, SolverRoutine, bind, public_names
from ._kernels_lu import _KIND, _colmajor, _finish, _ld, _vector_rows
from ._types import Fill, Srange, Svect
from ._workspace import host_carve, layout, scratch
from .eig import range_args

_INT = np.dtype(np.int32)
_FILLS = (Fill.upper, Fill.lower)

# --- kernels: LAPACK per call -------------------------------------------------------------------

_slabrd, _dlabrd, _clabrd, _zlabrd = (_lapack.external(p + "labrd", 13) for p in "sdcz")
_slatrd, _dlatrd, _clatrd, _zlatrd = (_lapack.external(p + "latrd", 9) for p in "sdcz")
_slasyf, _dlasyf, _clasyf, _zlasyf = (_lapack.external(p + "lasyf", 10) for p in "sdcz")
_sbdsvdx, _dbdsvdx = (_lapack.external(p + "bdsvdx", 17) for p in "sd")

_jit = njit(nogil=True, error_model="numpy", cache=True)


@_jit
def _labrd(kind, p):  # type: ignore[no-untyped-def]
    # p: the 13 argument addresses (Fortran takes every argument by reference).
    if kind == 0:
        _slabrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12])
    elif kind == 1:
        _dlabrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12])
    elif kind == 2:
        _clabrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12])
    else:
        _zlabrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12])


@_jit
def _latrd(kind, p):  # type: ignore[no-untyped-def]
    if kind == 0:
        _slatrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    elif kind == 1:
        _dlatrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    elif kind == 2:
        _clatrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    else:
        _zlatrd(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])


@_jit
def _lasyf(kind, p):  # type: ignore[no-untyped-def]
    if kind == 0:
        _slasyf(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
    elif kind == 1:
        _dlasyf(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
    elif kind == 2:
        _clasyf(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
    else:
        _zlasyf(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])


@_jit
def _bdsvdx(kind, p):  # type: ignore[no-untyped-def]
    if kind == 0:
        _sbdsvdx(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                 p[15], p[16])
    else:
        _dbdsvdx(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                 p[15], p[16])


_bdsvdx_lock = threading.Lock()
_bdsvdx_ready = False


def _lapack_libraries() -> list[str]:
    """Shared libraries that may hold scipy's LAPACK: the wheel's bundled OpenBLAS first, then any LAPACK-like
    library mapped into the process (a scipy built on a system LAPACK)."""
    import scipy

    found = sorted(glob.glob(os.path.join(os.path.dirname(scipy.__file__), os.pardir, "scipy.libs", "*.so*")))
    try:
        with open("/proc/self/maps") as maps:
            mapped = {line.split()[-1] for line in maps if line.rstrip().endswith((".so", ".dylib")) or ".so." in line}
    except OSError:
        mapped = set()
    keys = ("lapack", "openblas", "mkl", "blis", "flame")
    found += sorted(path for path in mapped if any(k in os.path.basename(path).lower() for k in keys))
    return [path for path in found if "64_" not in os.path.basename(path)]  # not an ILP64 build


def ensure_bdsvdx() -> None:
    """Register ``rocmath_sbdsvdx``/``rocmath_dbdsvdx`` (LAPACK's LP64 ?bdsvdx, which
    scipy.linalg.cython_lapack does not export) from the library scipy's LAPACK comes from; also
    :func:`~rocmath.solver._lapack.ensure_lapack`.  RocblasNotImplementedError when none has it."""
    global _bdsvdx_ready
    _lapack.ensure_lapack()
    if _bdsvdx_ready:
        return
    with _bdsvdx_lock:
        if _bdsvdx_ready:
            return
        import llvmlite.binding as ll
        import scipy.linalg.cython_lapack  # noqa: F401  (loads scipy's LAPACK)

        for path in _lapack_libraries():
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            for prefix in ("scipy_", ""):
                try:
                    found = {p: ctypes.cast(getattr(lib, f"{prefix}{p}bdsvdx_"), ctypes.c_void_p).value for p in "sd"}
                except AttributeError:
                    continue
                for p, address in found.items():
                    ll.add_symbol(f"rocmath_{p}bdsvdx", address)
                _bdsvdx_ready = True
                return
        raise RocblasNotImplementedError("bdsvdx: LAPACK's ?bdsvdx was not found in the library scipy uses")


def _addresses(*arrays: np.ndarray) -> list[int]:
    return [int(x.ctypes.data) for x in arrays]


def _cells(*values: int) -> np.ndarray:
    """Fortran's by-reference integer arguments (int32, LP64)."""
    return np.array(values, dtype=np.int32)


def _char(letter: str) -> np.ndarray:
    return np.frombuffer(letter.encode(), dtype=np.uint8).copy()


# --- launch bodies ------------------------------------------------------------------------------


def labrd_body(A: np.ndarray, Dv: np.ndarray, Ev: np.ndarray, TQ: np.ndarray, TP: np.ndarray, X: np.ndarray,
               Y: np.ndarray, *, k: int) -> None:
    """LAPACK ?labrd on each entry: A (batch, m, n), D/E (batch, k) real, tauq/taup (batch, k), X (batch, m, k),
    Y (batch, n, k), in place."""
    _lapack.ensure_lapack()
    nb, m, n = A.shape
    for b in range(nb):
        one = slice(b, b + 1)
        a, x, y = _colmajor(A[one]), _colmajor(X[one]), _colmajor(Y[one])
        d, e, tq, tp = (_vector_rows(v[one]) for v in (Dv, Ev, TQ, TP))
        iv = _cells(m, n, k, _ld(a), _ld(x), _ld(y))
        c0 = int(iv.ctypes.data)
        args = [c0, c0 + 4, c0 + 8, *_addresses(a), c0 + 12, *_addresses(d, e, tq, tp, x), c0 + 16,
                *_addresses(y), c0 + 20]
        _labrd(_KIND[a.dtype], np.array(args, np.int64))
        for out, work in ((A[one], a), (X[one], x), (Y[one], y), (Dv[one], d), (Ev[one], e), (TQ[one], tq),
                          (TP[one], tp)):
            _finish(out, work)


def latrd_body(A: np.ndarray, Ev: np.ndarray, Tau: np.ndarray, W: np.ndarray, *, upper: bool, k: int) -> None:
    """LAPACK ?latrd on each entry: A (batch, n, n), E (batch, n-1) real, tau (batch, n-1), W (batch, n, k)."""
    _lapack.ensure_lapack()
    nb, n, _ = A.shape
    ch = _char("U" if upper else "L")
    for b in range(nb):
        one = slice(b, b + 1)
        a, w = _colmajor(A[one]), _colmajor(W[one])
        e, tau = _vector_rows(Ev[one]), _vector_rows(Tau[one])
        if e.size == 0:  # n = 1: LAPACK reads neither; give it valid addresses
            e, tau = np.zeros((1, 1), e.dtype), np.zeros((1, 1), tau.dtype)
        iv = _cells(n, k, _ld(a), _ld(w))
        c0 = int(iv.ctypes.data)
        args = [int(ch.ctypes.data), c0, c0 + 4, *_addresses(a), c0 + 8, *_addresses(e, tau, w), c0 + 12]
        _latrd(_KIND[a.dtype], np.array(args, np.int64))
        _finish(A[one], a)
        _finish(W[one], w)
        if Ev.shape[1]:
            _finish(Ev[one], e)
            _finish(Tau[one], tau)


def lasyf_body(A: np.ndarray, ipiv: np.ndarray, kb: np.ndarray, info: np.ndarray, ws: np.ndarray | None = None, *,
               upper: bool, nb: int) -> None:
    """LAPACK ?lasyf on each entry: A (batch, n, n), ipiv (batch, n) int32, kb and info (batch,) int32; its
    W (n x nb) carved from the workspace ``ws``."""
    _lapack.ensure_lapack()
    count, n, _ = A.shape
    if nb == 1 and n > 1:  # rocSOLVER's loops factor nothing: kb = info = 0, A and ipiv as they were
        kb[:] = 0
        info[:] = 0
        return
    work = scratch(ws, lasyf_workspace(n, nb, A.itemsize))
    w, _ = host_carve(work, 0, (n * nb,), A.dtype)
    ch = _char("U" if upper else "L")
    for b in range(count):
        one = slice(b, b + 1)
        a, p = _colmajor(A[one]), _vector_rows(ipiv[one])
        iv = _cells(n, nb, 0, _ld(a), max(1, n), 0)  # n, nb, kb, lda, ldw, info
        c0 = int(iv.ctypes.data)
        args = [int(ch.ctypes.data), c0, c0 + 4, c0 + 8, *_addresses(a), c0 + 12, *_addresses(p, w), c0 + 16,
                c0 + 20]
        _lasyf(_KIND[a.dtype], np.array(args, np.int64))
        kb[b], info[b] = iv[2], iv[5]
        _finish(A[one], a)
        _finish(ipiv[one], p)


def bdsvdx_workspace(n: int, vectors: bool, risz: int) -> int:
    """Bytes of LAPACK's arrays: S (n) and, with vectors, Z (2n x (n + 1): LAPACK needs nsv + 1 columns)
    scratch, WORK (14n), IWORK (12n); none for n = 0."""
    if n == 0:
        return 0
    return layout((n, risz), (2 * n * (n + 1) if vectors else 1, risz), (14 * n, risz), (12 * n, 4))


def _sign_convention(z: np.ndarray, upper: bool) -> None:
    """Flip each column (u; v) of z (2n x nsv) to rocSOLVER's sign: the TGK eigenvector stein returns
    (interleaved ``-v`` and ``u`` for upper, ``u`` and ``-v`` for lower) has its largest-magnitude
    element (the first of equal ones) positive."""
    n = z.shape[0] // 2
    u, v = z[:n], z[n:]
    tgk = np.empty_like(z)
    first, second = (-v, u) if upper else (u, -v)
    tgk[0::2], tgk[1::2] = first, second
    if not z.shape[1]:
        return
    top = np.argmax(np.abs(tgk), axis=0)
    flip = tgk[top, np.arange(z.shape[1])] < 0
    z[:, flip] *= -1


def bdsvdx_body(Dv: np.ndarray, Ev: np.ndarray, nsv: np.ndarray, Sv: np.ndarray, Zm: np.ndarray, ifail: np.ndarray,
                info: np.ndarray, ws: np.ndarray | None = None, *, upper: bool, vectors: bool, srange: Srange,
                vl: float, vu: float, il: int, iu: int) -> None:
    """LAPACK ?bdsvdx on each entry (n >= 1): D (batch, n), E (batch, n - 1) read; nsv, info (batch,) int32;
    S (batch, n), Z (batch, 2n, n), ifail (batch, n) written in their first nsv elements / columns only."""
    count, n = Dv.shape
    real = Dv.dtype
    risz = real.itemsize
    ensure_bdsvdx()
    work = scratch(ws, bdsvdx_workspace(n, vectors, risz))
    s_t, off = host_carve(work, 0, (n,), real)
    z_t, off = host_carve(work, off, (2 * n, n + 1) if vectors else (1, 1), real, order="F")
    w_t, off = host_carve(work, off, (14 * n,), real)
    i_t, _ = host_carve(work, off, (12 * n,), _INT)
    # LAPACK's n = 1 shortcut selects |d| in (vl, vu]; rocSOLVER's stebz on the 2 x 2 TGK matrix takes [vl, vu) as
    # for any n: ask LAPACK for all (one value) and select here.
    pick = n == 1 and srange is Srange.value
    letters = _char(("U" if upper else "L") + ("V" if vectors else "N") + ("A" if pick else srange.letter.upper()))
    scalars = np.array([vl, vu], real)
    for b in range(count):
        info[b] = 0
        if srange is Srange.value and (math.isnan(vl) or math.isnan(vu)):  # selects nothing
            nsv[b] = 0
            continue
        d = np.ascontiguousarray(Dv[b])
        e = np.ascontiguousarray(Ev[b]) if n > 1 else np.zeros(1, real)
        iv = _cells(n, il if srange is Srange.index else 1, iu if srange is Srange.index else n, 0,
                    2 * n if vectors else 1, 0)  # n, il, iu, ns, ldz, info
        c0, l0 = int(iv.ctypes.data), int(letters.ctypes.data)
        args = [l0, l0 + 1, l0 + 2, c0, *_addresses(d, e), *_addresses(scalars), int(scalars.ctypes.data) + risz,
                c0 + 4, c0 + 8, c0 + 12, *_addresses(s_t, z_t), c0 + 16, *_addresses(w_t, i_t), c0 + 20]
        _bdsvdx(0 if real == np.float32 else 1, np.array(args, np.int64))
        found, status = min(int(iv[3]), n), int(iv[5])
        if pick and found and not vl <= s_t[0] < vu:
            found = 0
        nsv[b], info[b] = found, status
        Sv[b, :found] = s_t[:found]
        if vectors:
            z = z_t[:, :found].copy()
            _sign_convention(z, upper)
            Zm[b, :, :found] = z
            # zeros, or (info > 0) the indices of the vectors that did not converge (LAPACK's n = 1 shortcut
            # leaves IWORK as it was)
            ifail[b, :found] = i_t[:found] if status > 0 else 0


# --- the routines -------------------------------------------------------------------------------


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    m: int
    n: int
    k: int
    opts: tuple[Any, ...] = ()


def _uplo(c: SolverCall) -> bool:
    """Whether uplo is upper (invalid_value unless upper or lower)."""
    return c.enum("uplo", Fill, _FILLS) is Fill.upper


def _flops(c: SolverCall, muladds: float) -> float:
    return muladds * (8 if c.precision.is_complex else 2)


# labrd


def _check_labrd(c: SolverCall) -> _Dims:
    m, n, k = c.sizes("m", "n", "k")
    if k > min(m, n):
        raise c.invalid_size("k", f"must be <= min(m, n) = {min(m, n)}, got {k}")
    c.lds(("lda", m), ("ldx", m), ("ldy", n))
    return _Dims(m, n, k)


def _labrd_impl(c: SolverCall) -> None:
    m, n, k, _ = c.dims
    c.require("A", when=m > 0 and n > 0)
    c.require("D", "E", "tauq", "taup", when=k > 0)
    c.require("X", when=m > 0 and k > 0)
    c.require("Y", when=n > 0 and k > 0)
    if m == 0 or n == 0 or k == 0:
        return
    real = c.precision.real.dtype
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    d, e = (c.vector(name, k, writable=True, dtype=real) for name in ("D", "E"))
    tq, tp = (c.vector(name, k, writable=True) for name in ("tauq", "taup"))
    x = c.matrix("X", m, k, c.int("ldx"), writable=True)
    y = c.matrix("Y", n, k, c.int("ldy"), writable=True)
    _lapack.ensure_lapack()
    c.launch(partial(labrd_body, k=k), a, d, e, tq, tp, x, y, flops=_flops(c, 4.0 * m * n * k),
             bytes=2.0 * c.precision.itemsize * (m * n + (m + n) * k))


LABRD = SolverRoutine("labrd", ("m", "n", "k", "A", "lda", "D", "E", "tauq", "taup", "X", "ldx", "Y", "ldy"),
                      {"A": "lda", "X": "ldx", "Y": "ldy"}, _labrd_impl, check=_check_labrd,
                      vectors={"D": "strideD", "E": "strideE", "tauq": "strideQ", "taup": "strideP"}, pointers=(),
                      summary="Partial bidiagonalization (LAPACK's ?labrd): the first k rows and columns of the m x n "
                              "A reduced to bidiagonal form (upper when m >= n, lower otherwise), D, E its "
                              "diagonal and off-diagonal, tauq and taup the Householder scalars of Q and P, and X "
                              "(m x k), Y (n x k) for the update A := A - V Y^H - X U^H.")


# latrd


def _check_latrd(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    n, k = c.sizes("n", "k")
    if k > n:
        raise c.invalid_size("k", f"must be <= n = {n}, got {k}")
    c.lds(("lda", n), ("ldw", n))
    return _Dims(n, n, k, (upper,))


def _latrd_impl(c: SolverCall) -> None:
    n, _, k, (upper,) = c.dims
    c.require("A", "E", "tau", when=n > 0)
    c.require("W", when=n > 0 and k > 0)
    if n == 0 or k == 0:
        return
    a = c.matrix("A", n, n, c.int("lda"), writable=True)
    e = c.vector("E", n - 1, writable=True, dtype=c.precision.real.dtype)
    tau = c.vector("tau", n - 1, writable=True)
    w = c.matrix("W", n, k, c.int("ldw"), writable=True)
    _lapack.ensure_lapack()
    c.launch(partial(latrd_body, upper=upper, k=k), a, e, tau, w, flops=_flops(c, 2.0 * n * n * k),
             bytes=2.0 * c.precision.itemsize * (n * n / 2 + n * k))


LATRD = SolverRoutine("latrd", ("uplo", "n", "k", "A", "lda", "E", "tau", "W", "ldw"), {"A": "lda", "W": "ldw"},
                      _latrd_impl, check=_check_latrd, vectors={"E": "strideE", "tau": "strideP"}, pointers=(),
                      summary="Partial tridiagonalization (LAPACK's ?latrd) of the symmetric/Hermitian A (its uplo "
                              "triangle): the last (upper) or first (lower) k columns reduced, E the off-diagonal "
                              "elements and tau the Householder scalars of that block (n - 1 each), W (n x k) for "
                              "the update A := A - V W^H - W V^H.")


# lasyf


def lasyf_workspace(n: int, nb: int, itemsize: int) -> int:
    """Bytes of W (n x nb elements: rocSOLVER's and LAPACK's); none for an empty problem."""
    return 0 if n == 0 or nb == 0 else layout((n * nb, itemsize))


def _check_lasyf(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    n, nb = c.sizes("n", "nb")
    if nb > n:
        raise c.invalid_size("nb", f"must be <= n = {n}, got {nb}")
    c.lds(("lda", n))
    return _Dims(n, n, nb, (upper,))


def _lasyf_workspace(c: SolverCall) -> int:
    return lasyf_workspace(c.dims.n, c.dims.k, c.precision.itemsize)


def _zero(*arrays: np.ndarray) -> None:
    for x in arrays:
        x[...] = 0


def _lasyf_impl(c: SolverCall) -> None:
    n, _, nb, (upper,) = c.dims
    c.require("kb")
    c.require("A", "ipiv", when=n > 0)
    c.require("info")
    kb, info = c.array("kb", 1, _INT), c.info()
    if n == 0 or nb == 0:
        c.launch(_zero, kb, info, bytes=8.0)
        return
    a = c.matrix("A", n, n, c.int("lda"), writable=True)
    piv = c.vector("ipiv", n, writable=True, dtype=_INT)
    work = c.workspace_buffer()
    _lapack.ensure_lapack()
    c.launch(partial(lasyf_body, upper=upper, nb=nb), a, piv, kb, info, work, flops=_flops(c, n * n * nb),
             bytes=2.0 * c.precision.itemsize * n * n / 2)


LASYF = SolverRoutine("lasyf", ("uplo", "n", "nb", "kb", "A", "lda", "ipiv", "info"), {"A": "lda"}, _lasyf_impl,
                      check=_check_lasyf, workspace=_lasyf_workspace, vectors={"ipiv": "strideP"},
                      pointers=("info", "kb"),
                      summary="Partial symmetric indefinite factorization (LAPACK's ?lasyf, Bunch-Kaufman; complex "
                              "symmetric, not Hermitian): nb columns (kb = nb or nb - 1 when a 2x2 block would "
                              "cross) factored, the last (upper) or first (lower), the rest of A updated; 1-based "
                              "ipiv of those kb columns; info = the first zero pivot column.")


# bdsvdx


def _check_bdsvdx(c: SolverCall) -> _Dims:
    upper = _uplo(c)
    svect = c.enum("svect", Svect, (Svect.none, Svect.singular))
    srange = c.enum("srange", Srange)
    (n,) = c.sizes("n")
    vectors = svect is Svect.singular
    c.lds(("ldz", 2 * n if vectors else 1))
    vl, vu, il, iu = range_args(c, srange is Srange.value, srange is Srange.index, n, bounds_first=True,
                                singular=True)
    if srange is not Srange.index:
        il = 0
    return _Dims(n, n, n, (upper, vectors, srange, vl, vu, il, iu))


def _bdsvdx_workspace(c: SolverCall) -> int:
    return bdsvdx_workspace(c.dims.n, c.dims.opts[1], c.precision.real.itemsize)


def _bdsvdx_impl(c: SolverCall) -> None:
    n = c.dims.n
    upper, vectors, srange, vl, vu, il, iu = c.dims.opts
    c.require("D", "S", when=n > 0)
    c.require("E", when=n > 1)
    c.require("info", "nsv")
    c.require("Z", "ifail", when=vectors and n > 0)
    info = c.info()
    if n == 0:  # rocSOLVER: info := 0, then the quick return (nsv not written)
        c.launch(_zero, info, bytes=4.0)
        return
    real = c.precision.real.dtype
    d = c.vector("D", n, dtype=real)
    e = c.vector("E", n - 1, dtype=real)
    nsv = c.array("nsv", 1, _INT)
    s = c.vector("S", n, writable=True, dtype=real)
    z = c.matrix("Z", 2 * n, n, c.int("ldz"), writable=True) if vectors else np.zeros((1, 0, 0), real)
    f = c.vector("ifail", n, writable=True, dtype=_INT) if vectors else np.zeros((1, 0), _INT)
    work = c.workspace_buffer()
    ensure_bdsvdx()
    body = partial(bdsvdx_body, upper=upper, vectors=vectors, srange=srange, vl=vl, vu=vu, il=il, iu=iu)
    c.launch(body, d, e, nsv, s, z, f, info, work, flops=_flops(c, (40.0 + (8.0 * n if vectors else 0.0)) * n * n),
             bytes=2.0 * c.precision.itemsize * (2 * n + (2 * n * n if vectors else 0)))


BDSVDX = SolverRoutine("bdsvdx", ("uplo", "svect", "srange", "n", "D", "E", "vl", "vu", "il", "iu", "nsv", "S", "Z",
                                  "ldz", "ifail", "info"),
                       {"Z": "ldz"}, _bdsvdx_impl, check=_check_bdsvdx, workspace=_bdsvdx_workspace,
                       vectors={"D": "strideD", "E": "strideE", "S": "strideS", "ifail": "strideF"},
                       pointers=("info", "nsv"),
                       summary="Singular values of the n x n upper or lower bidiagonal matrix (D, E) by range (srange "
                               "all; value: those in [vl, vu); index: the il-th through iu-th largest), descending "
                               "in S, nsv found, by bisection on its Golub-Kahan matrix (LAPACK's ?bdsvdx); with "
                               "svect singular, Z = [U; V] (2n x nsv); ifail's first nsv elements 0; info = vectors "
                               "that did not converge.")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
slabrd = bind(LABRD, S, PLAIN)
dlabrd = bind(LABRD, D, PLAIN)
clabrd = bind(LABRD, C, PLAIN)
zlabrd = bind(LABRD, Z, PLAIN)
slatrd = bind(LATRD, S, PLAIN)
dlatrd = bind(LATRD, D, PLAIN)
clatrd = bind(LATRD, C, PLAIN)
zlatrd = bind(LATRD, Z, PLAIN)
slasyf = bind(LASYF, S, PLAIN)
dlasyf = bind(LASYF, D, PLAIN)
clasyf = bind(LASYF, C, PLAIN)
zlasyf = bind(LASYF, Z, PLAIN)
sbdsvdx = bind(BDSVDX, S, PLAIN)
dbdsvdx = bind(BDSVDX, D, PLAIN)
# fmt: on

__all__ = public_names(globals())
