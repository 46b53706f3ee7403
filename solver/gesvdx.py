"""Partial singular value decomposition by range: gesvdx, and hipSOLVER's gesvdx_notransv.

``<p>gesvdx``, ``<p>gesvdx_batched`` and ``<p>gesvdx_strided_batched`` (s, d, c, z) with
rocSOLVER's names, parameters and check order (rocsolver-functions.h;
library/src/lapack/roclapack_gesvdx.hpp), and ``<p>gesvdx_notransv_strided_batched``: the
variant rocSOLVER exports for hipSOLVER's ``gesvdaStridedBatched`` alone
(library/src/lapack/roclapack_gesvdx_notransv_strided_batched.cpp, ``ROCSOLVER_EXPORT`` in
``extern "C"`` but declared in no public header).  It takes the same arguments and returns the
right singular vectors themselves, as the n x nsv columns of V (``ldv >= n``), instead of the
rows of V^H (``ldv >= nsv``).

Which singular values (``srange``): all; those in the half-open interval ``[vl, vu)`` (rocSOLVER's
bdsvdx asks stebz for the eigenvalues of the Golub-Kahan matrix in ``(-vu, -vl]``); or the il-th
through iu-th largest (1-based).  ``left_svect`` and ``right_svect`` are ``singular`` or
``none``.

Checks, in rocSOLVER's order: left_svect, right_svect, then srange (invalid_value); n, m, lda >= m,
ldu >= 1, ldv >= 1, batch_count; ldu >= m for left vectors; ldv >= nsv_max for right vectors
(``iu - il + 1`` for an index range, else min(m, n); notransv: ldv >= n); for a value range
0 <= vl < vu; for an index range il >= 1 and iu >= 0, then iu <= min(m, n) and, unless min(m, n)
= 0, il <= iu (invalid_size); a size query stops there; then pointers: A (m, n > 0), S (nsv_max
> 0), info and nsv (batch_count > 0), ifail (vectors and min(m, n) > 0), U (left vectors, m and
nsv_max > 0), V (right vectors, nsv_max and n > 0) (invalid_pointer).  Quick returns:
batch_count = 0 touches nothing; otherwise info and nsv are set to 0 first, and m = 0 or n = 0
stops there.

Results, per entry: ``nsv`` the values found (min(m, n) for all, ``iu - il + 1`` for an index
range); the first nsv elements of S the selected values, descending (S past nsv is not written);
U's first nsv columns the left vectors and V's first nsv rows (notransv: columns) the right ones,
the rest of the m x nsv_max (nsv_max x n, notransv n x nsv_max) block zero -- rocSOLVER writes
that whole block too, its columns past nsv unspecified (for a value range, where nsv < nsv_max);
``ifail``'s first nsv elements 0 when vectors were computed (not written otherwise, nor past
nsv).  A is destroyed.  ``info`` is 0; an entry whose SVD fails (NaN or Inf in A, or LAPACK's QR
iteration did not converge) reports every selected vector as failed (``info = nsv``,
``ifail[:nsv] = 1..nsv``) or, without vectors or with none selected, ``info = 1`` (stebz's
"bisection did not converge").

How they are computed (no new numba kernels): gesvd's kernel
(:func:`rocmath.solver._kernels_eig.gesvd`: LAPACK's gesdd, or gesvd's QR iteration where gesdd
does not converge) on A in place, into the full singular values and the thin factors (those of
the sides asked for) carved from the handle's workspace; the selected range is then gathered
into S, U, V (conjugate-transposed for notransv), nsv, ifail and info, on the handle's stream in
the same launch.  Entries whose outputs overlap (a stride smaller than an entry) run one after
another, in entry order.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from rocmath.precision import C, D, S, Z

from . import _kernels_eig as ke
from ._api import BATCHED, PLAIN, STRIDED, SolverCall, bind, public_names
from ._types import Srange, Svect
from ._workspace import host_carve, layout, scratch
from .eig import EigRoutine, _Dims, _extent, _serial, _strided_matrix, range_args

_INT = np.dtype(np.int32)
_SIDES = (Svect.singular, Svect.none)
S_, N_ = ord("S"), ord("N")


# --- checks ------------------------------------------------------------------------------------


def _check(c: SolverCall, transv: bool) -> _Dims:
    left, right = c.enum("left_svect", Svect, _SIDES), c.enum("right_svect", Svect, _SIDES)
    srange = c.enum("srange", Srange)
    n, m = c.sizes("n", "m")
    k = min(m, n)
    il = iu = 0
    if srange is Srange.index:
        il, iu = c.int("il"), c.int("iu")
    nsv_max = iu - il + 1 if srange is Srange.index else k
    c.lds(("lda", m), ("ldu", 1), ("ldv", 1))
    (batch,) = c.sizes("batch_count")
    if left is Svect.singular:
        c.lds(("ldu", m))
    if right is Svect.singular:
        c.lds(("ldv", nsv_max if transv else n))
    vl, vu, *_ = range_args(c, srange is Srange.value, srange is Srange.index, k, singular=True,
                            bound="min(m, n)")
    return _Dims(m, n, batch, (left, right, srange, vl, vu, il, iu, nsv_max))


# --- workspace and launch body -----------------------------------------------------------------------


def _shapes(m: int, n: int, left: bool, right: bool) -> tuple[int, int, int]:
    """(k, columns of the U scratch, rows of the V^H scratch)."""
    k = min(m, n)
    return k, k if left else 0, k if right else 0


def _scratch_bytes(m: int, n: int, batch: int, left: bool, right: bool, isz: int, risz: int) -> int:
    """The body's own scratch (all singular values, the thin factors, gesvd's E and info), before gesvd's."""
    k, ucols, vrows = _shapes(m, n, left, right)
    return layout((batch * k, risz), (batch * ucols * m, isz), (batch * vrows * n, isz), (batch * max(k - 1, 0), risz),
                  (batch, 4))


def workspace_bytes(m: int, n: int, batch: int, left: bool, right: bool, isz: int, risz: int) -> int:
    """Bytes of workspace a gesvdx call takes: none for an empty problem (as rocSOLVER), else the scratch
    of :func:`partial_svd` and gesvd's kernel's (LAPACK's own workspace query sizes its work arrays)."""
    if m == 0 or n == 0 or batch == 0:
        return 0
    ke.ensure_eig()
    kind = ke.KINDS[isz, risz]
    return (_scratch_bytes(m, n, batch, left, right, isz, risz)
            + ke.gesvd_workspace(kind, S_ if left else N_, S_ if right else N_, m, n, batch, isz, risz))


def _workspace(c: SolverCall) -> int:
    m, n, batch, (left, right, *_) = c.dims
    return workspace_bytes(m, n, batch, left is Svect.singular, right is Svect.singular, c.precision.itemsize,
                           c.precision.real.itemsize)


def _select(s_all: np.ndarray, u_all: np.ndarray, vt_all: np.ndarray, failed: np.ndarray, S: np.ndarray,
            U: np.ndarray, V: np.ndarray, ifail: np.ndarray, nsv: np.ndarray, info: np.ndarray, srange: Srange,
            vl: float, vu: float, il: int, left: bool, right: bool, transv: bool) -> None:
    """Gather the selected range of entries' full SVDs (s_all, u_all, vt_all) into the outputs."""
    nb, k = s_all.shape
    width = S.shape[1]  # nsv_max
    if srange is Srange.value:  # [vl, vu) of values in descending order: a contiguous run
        with np.errstate(invalid="ignore"):
            first = (s_all >= vu).sum(axis=1)
            count = (s_all >= vl).sum(axis=1) - first
    else:
        first = np.full(nb, il - 1 if srange is Srange.index else 0)
        count = np.full(nb, width)
    cols = np.arange(width)
    take = np.minimum(first[:, None] + cols, max(k - 1, 0))
    keep = cols < count[:, None]
    nsv[:] = count
    np.copyto(S, np.take_along_axis(s_all, take, axis=1), where=keep)
    if left:
        u = np.take_along_axis(u_all, take[:, None, :], axis=2)
        U[...] = np.where(keep[:, None, :], u, 0)
    if right:
        vh = np.where(keep[:, :, None], np.take_along_axis(vt_all, take[:, :, None], axis=1), 0)
        V[...] = vh if transv else vh.conj().transpose(0, 2, 1)
    info[:] = 0
    if left or right:
        np.copyto(ifail[:, :width], 0, where=keep)
    for e in np.flatnonzero(failed):
        if (left or right) and count[e] > 0:
            info[e] = count[e]
            ifail[e, : count[e]] = np.arange(1, count[e] + 1)
        else:
            info[e] = 1


def partial_svd(A: np.ndarray, S: np.ndarray, U: np.ndarray, V: np.ndarray, ifail: np.ndarray, nsv: np.ndarray,
                info: np.ndarray, ws: np.ndarray | None = None, *, srange: Srange, vl: float, vu: float, il: int,
                left: bool, right: bool, transv: bool, serial: bool) -> None:
    """The launch body: every entry (m, n >= 1) of A by gesvd's kernel into the workspace, then its selected range
    into S (nsv_max values), U (m x nsv_max), V (transv: nsv_max x n rows of V^H; else n x nsv_max), ifail, nsv
    and info; ``serial``: outputs overlap between entries, so they are written entry by entry, in order."""
    nb, m, n = A.shape
    real = S.dtype
    k, ucols, vrows = _shapes(m, n, left, right)
    isz, risz = A.itemsize, real.itemsize
    need = workspace_bytes(m, n, nb, left, right, isz, risz)
    ws = scratch(ws, need)
    s_all, off = host_carve(ws, 0, (nb, k), real)
    u_t, off = host_carve(ws, off, (nb, ucols, m), A.dtype)
    vt_t, off = host_carve(ws, off, (nb, n, vrows), A.dtype)
    e, off = host_carve(ws, off, (nb, max(k - 1, 0)), real)
    done, off = host_carve(ws, off, (nb,), _INT)
    # column-major entries (what LAPACK writes); an empty stand-in for a side not asked for
    u_all = u_t.transpose(0, 2, 1) if ucols else np.zeros((nb, 0, 0), A.dtype)
    vt_all = vt_t.transpose(0, 2, 1) if vrows else np.zeros((nb, 0, 0), A.dtype)
    ke.gesvd(A, s_all, u_all, vt_all, e, done, S_ if left else N_, S_ if right else N_, serial, ws[off:])
    failed = done > 0
    if not serial:
        _select(s_all, u_all, vt_all, failed, S, U, V, ifail, nsv, info, srange, vl, vu, il, left, right, transv)
        return
    for b in range(nb):
        one = slice(b, b + 1)
        _select(s_all[one], u_all[one], vt_all[one], failed[one], S[one], U[one], V[one], ifail[one], nsv[one],
                info[one], srange, vl, vu, il, left, right, transv)


def _zero(*arrays: np.ndarray) -> None:
    for x in arrays:
        x[...] = 0


# --- the routine -------------------------------------------------------------------------------------


def _gesvdx(c: SolverCall, transv: bool) -> None:
    m, n, batch, (left, right, srange, vl, vu, il, _, nsv_max) = c.dims
    k = min(m, n)
    lvec, rvec = left is Svect.singular, right is Svect.singular
    c.require("A", when=m > 0 and n > 0)
    c.require("S", when=nsv_max != 0)
    c.require("info", "nsv", when=batch > 0)
    c.require("ifail", when=(lvec or rvec) and k > 0)
    c.require("U", when=lvec and m > 0 and nsv_max != 0)
    c.require("V", when=rvec and nsv_max != 0 and n > 0)
    if batch == 0:
        return
    nsv = c.array("nsv", batch, _INT)
    if k == 0:  # rocSOLVER: info := 0, nsv := 0, then the quick return
        c.launch(_zero, c.info(), nsv, bytes=8.0 * batch)
        return
    real = c.precision.real.dtype
    a = c.matrix("A", m, n, c.int("lda"), writable=True)
    s = c.vector("S", nsv_max, writable=True, dtype=real)
    f = c.vector("ifail", k, writable=True, dtype=_INT) if lvec or rvec else np.zeros((batch, k), _INT)
    vshape = (nsv_max, n) if transv else (n, nsv_max)
    u = _strided_matrix(c, "U", m, nsv_max) if lvec else np.zeros((batch, 0, 0), c.dtype)
    v = _strided_matrix(c, "V", *vshape) if rvec else np.zeros((batch, 0, 0), c.dtype)
    serial = _serial(c, ("A", _extent(m, n, c.int("lda"))), ("S", nsv_max), ("ifail", k if lvec or rvec else 0),
                     ("U", _extent(m, nsv_max, c.int("ldu")) if lvec else 0),
                     ("V", _extent(*vshape, c.int("ldv")) if rvec else 0))
    work = c.workspace_buffer()
    body = partial(partial_svd, srange=srange, vl=vl, vu=vu, il=il, left=lvec, right=rvec, transv=transv,
                   serial=serial)
    muladds = 4.0 * m * n * k + 8.0 * k**3
    c.launch(body, a, s, u, v, f, nsv, c.info(), work, flops=muladds * batch * (8 if c.precision.is_complex else 2),
             bytes=2.0 * batch * c.precision.itemsize * (m * n + nsv_max * ((m if lvec else 0) + (n if rvec else 0))))


_PARAMS = ("left_svect", "right_svect", "srange", "m", "n", "A", "lda", "vl", "vu", "il", "iu", "nsv", "S", "U", "ldu",
           "V", "ldv", "ifail", "info")
_SUMMARY = ("Partial singular value decomposition A = U S V^H by range (srange all; value: the singular values in "
            "[vl, vu); index: the il-th through iu-th largest): nsv values found, descending in S; left and right "
            "vectors singular or none, {v}; ifail's first nsv elements 0 when vectors were computed; A is destroyed; "
            "info = vectors that did not converge.")
GESVDX = EigRoutine("gesvdx", _PARAMS, {"A": "lda"}, partial(_gesvdx, transv=True), check=partial(_check, transv=True),
                    workspace=_workspace, vectors={"S": "strideS", "ifail": "strideF"},
                    pointers=("info", "nsv", "U", "V"), strided={"U": ("ldu", "strideU"), "V": ("ldv", "strideV")},
                    summary=_SUMMARY.format(v="V getting the nsv rows of V^H (ldv >= nsv)"))
GESVDX_NOTRANSV = EigRoutine(
    "gesvdx_notransv", _PARAMS, {"A": "lda"}, partial(_gesvdx, transv=False), check=partial(_check, transv=False),
    workspace=_workspace, vectors={"S": "strideS", "ifail": "strideF"}, pointers=("info", "nsv", "U", "V"),
    strided={"U": ("ldu", "strideU"), "V": ("ldv", "strideV")},
    summary=_SUMMARY.format(v="V getting the nsv right singular vectors as columns, not transposed (ldv >= n); "
                              "rocSOLVER's internal variant for hipSOLVER's gesvdaStridedBatched"))


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
sgesvdx = bind(GESVDX, S, PLAIN)
dgesvdx = bind(GESVDX, D, PLAIN)
cgesvdx = bind(GESVDX, C, PLAIN)
zgesvdx = bind(GESVDX, Z, PLAIN)
sgesvdx_batched = bind(GESVDX, S, BATCHED)
dgesvdx_batched = bind(GESVDX, D, BATCHED)
cgesvdx_batched = bind(GESVDX, C, BATCHED)
zgesvdx_batched = bind(GESVDX, Z, BATCHED)
sgesvdx_strided_batched = bind(GESVDX, S, STRIDED)
dgesvdx_strided_batched = bind(GESVDX, D, STRIDED)
cgesvdx_strided_batched = bind(GESVDX, C, STRIDED)
zgesvdx_strided_batched = bind(GESVDX, Z, STRIDED)
sgesvdx_notransv_strided_batched = bind(GESVDX_NOTRANSV, S, STRIDED)
dgesvdx_notransv_strided_batched = bind(GESVDX_NOTRANSV, D, STRIDED)
cgesvdx_notransv_strided_batched = bind(GESVDX_NOTRANSV, C, STRIDED)
zgesvdx_notransv_strided_batched = bind(GESVDX_NOTRANSV, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
