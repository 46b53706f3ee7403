"""Symmetric indefinite factorization: sytf2 (unblocked) and sytrf (blocked), Bunch-Kaufman pivoting.

``A = U D U^T`` (uplo upper) or ``A = L D L^T`` (lower) of a *symmetric* matrix, the complex
precisions included (transposes, not conjugate transposes: rocSOLVER has no Hermitian
``hetrf``), with ``D`` block diagonal of 1x1 and 2x2 blocks and ``U``/``L`` products of
permutations and unit triangular factors, stored over the ``uplo`` triangle of A in
LAPACK's ``?sytrf`` format; the other triangle is neither read nor written.

rocSOLVER's routines (library/src/lapack/roclapack_sytf2.hpp, roclapack_sytrf.hpp,
auxiliary/rocauxiliary_lasyf.hpp) are LAPACK's algorithm: the Bunch-Kaufman
choice with ``alpha = (1 + sqrt(17)) / 8``, column and row maxima by ``|re| + |im|``
(the first of equal maxima), and LAPACK's 1-based ``ipiv``: ``ipiv[k] = p > 0``, a 1x1
block after rows and columns k and p were interchanged; a 2x2 block has ``ipiv[k] =
ipiv[k-1] = -p`` (upper: rows/columns k-1 and p interchanged) or ``ipiv[k] = ipiv[k+1] =
-p`` (lower: k+1 and p).  ``info = k > 0`` when ``D(k, k)`` is exactly zero (a zero
column at step k: the step is skipped, ``ipiv[k] = k``, and the factorization goes on),
the first such step in the order the factorization runs: from the last column down for
upper, from the first up for lower.  So the work is LAPACK's, per entry, through scipy's
LAPACK (registered by :func:`~rocmath.solver._lapack.ensure_lapack`): sytf2 is ``?sytf2``; sytrf is ``?sytf2`` too up to
rocSOLVER's ``SYTRF_SYTF2_SWITCHSIZE`` (128) columns, where rocSOLVER's sytrf runs its
unblocked code alone, and ``?sytrf`` (``?lasyf`` panels of 64 columns) beyond.  Where the
two differ: beyond 128 columns rocSOLVER's panels go on until at most 128 columns remain,
LAPACK's until 64 do (the same pivot rule: different rounding only); a NaN on the diagonal
is LAPACK's info (the step skipped), where rocSOLVER's code, which has no NaN test, would
pivot on.

Check order (``rocsolver_sytf2_sytrf_argCheck``): uplo (invalid_value), ``n < 0``, ``lda <
n``, ``batch_count < 0`` (invalid_size), [a size query returns here], then ``A`` and ``ipiv``
when ``n > 0``, ``info`` when ``batch_count > 0`` (invalid_pointer).  Quick returns:
nothing for ``batch_count == 0``; ``n == 0`` sets info to 0.  No ``_64`` forms (rocSOLVER
has none).  Workspace: none for sytf2 (rocSOLVER's takes none); for sytrf beyond the switch
size, LAPACK's ``n * 64`` elements per entry running at once.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel
from rocmath.precision import C, D, S, Z

from . import _lapack
from ._api import BATCHED, STRIDED, SolverCall, SolverRoutine, bind, public_names
from ._kernels_lu import _CELLS, _KIND, _addresses, _cells, _colmajor, _finish, _ld, _vector_rows
from ._types import Fill
from ._workspace import carve, chunk_count, chunk_of, layout, scratch

#: rocSOLVER's SYTRF_SYTF2_SWITCHSIZE (library/src/include/ideal_sizes.hpp): sytrf of at most this
#: many columns is the unblocked algorithm.
SWITCH = 128
#: LAPACK's block size for ?sytrf (ILAENV; rocSOLVER's SYTRF_BLOCKSIZE is 64 too): its work array
#: is n * NB elements.
NB = 64

# --- kernels: LAPACK per entry --------------------------------------------------------------------

_ssytf2, _dsytf2, _csytf2, _zsytf2 = (_lapack.external(p + "sytf2", 6) for p in "sdcz")
_ssytrf, _dsytrf, _csytrf, _zsytrf = (_lapack.external(p + "sytrf", 8) for p in "sdcz")


_jit = njit(nogil=True, error_model="numpy", cache=True)


@_jit
def _factor(kind, blocked, pa, pp, pi, ch, iv, pw):  # type: ignore[no-untyped-def]
    # ch[0]: uplo; iv: n, lda, lwork (int32 cells: Fortran takes every argument by address).
    s, i = ch.ctypes.data, iv.ctypes.data
    if blocked:
        if kind == 0:
            _ssytrf(s, i, pa, i + 4, pp, pw, i + 8, pi)
        elif kind == 1:
            _dsytrf(s, i, pa, i + 4, pp, pw, i + 8, pi)
        elif kind == 2:
            _csytrf(s, i, pa, i + 4, pp, pw, i + 8, pi)
        else:
            _zsytrf(s, i, pa, i + 4, pp, pw, i + 8, pi)
    elif kind == 0:
        _ssytf2(s, i, pa, i + 4, pp, pi)
    elif kind == 1:
        _dsytf2(s, i, pa, i + 4, pp, pi)
    elif kind == 2:
        _csytf2(s, i, pa, i + 4, pp, pi)
    else:
        _zsytf2(s, i, pa, i + 4, pp, pi)


@_jit
def _factor_range(kind, blocked, uplo, n, pa, lda, pp, pi, cells, work, lwork, isz, lo, hi):  # type: ignore[no-untyped-def]
    ch, iv, _ = _cells(cells)
    ch[0] = uplo
    iv[0], iv[1], iv[2] = n, lda, lwork
    w, _ = carve(work, 0, lwork * isz if blocked else 0, np.uint8, 1)
    pw = w.ctypes.data
    for e in range(lo, hi):
        _factor(kind, blocked, pa[e], pp[e], pi[e], ch, iv, pw)


@kernel
def sytrf_entries(kind, blocked, uplo, n, pa, lda, pp, pi, cells, work, wper, lwork, isz, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (addresses pa[e], pp[e], pi[e]): LAPACK ?sytrf (``blocked``) or ?sytf2 in place;
    chunk t's argument cells at ``cells[t * _CELLS:]``, its work array (blocked: ``lwork``
    elements of ``isz`` bytes) at ``work[t * wper:]``."""
    nb = pa.shape[0]
    if nchunk <= 1:
        _factor_range(kind, blocked, uplo, n, pa, lda, pp, pi, cells, work, lwork, isz, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _factor_range(kind, blocked, uplo, n, pa, lda, pp, pi, chunk_of(cells, t, _CELLS), chunk_of(work, t, wper),
                      lwork, isz, t * per, min(nb, (t + 1) * per))


def _work(n: int) -> float:
    """Multiply-adds of one entry (what decides between parallel and serial entries)."""
    return n**3 / 3


def _work_bytes(n: int, itemsize: int, blocked: bool) -> int:
    """One chunk's part of the workspace: LAPACK's work array (blocked only)."""
    return layout((n * NB, itemsize)) if blocked else 0


def workspace(n: int, batch: int, itemsize: int, blocked: bool) -> int:
    """Bytes of workspace :func:`factor` uses: ``?sytrf``'s ``n * NB``-element work array per
    chunk of entries when ``blocked`` and ``n > SWITCH``; otherwise none (as rocSOLVER's)."""
    if batch == 0 or n == 0 or not (blocked and n > SWITCH):
        return 0
    return chunk_count(batch, _work(n)) * _work_bytes(n, itemsize, True)


def factor(A: np.ndarray, ipiv: np.ndarray, info: np.ndarray, upper: bool, blocked: bool, serial: bool,
           ws: np.ndarray | None = None) -> None:
    """The launch body: every entry of A ((batch, n, n) views) factored in place, pivots into
    ``ipiv`` ((batch, n) int32), ``info`` ((batch,) int32); ``blocked``: sytrf (blocked beyond
    SWITCH columns); ``serial``: entries in order (overlapping outputs); ``ws``: the workspace
    (:func:`workspace` bytes).  LAPACK's argument cells are host scratch (rocSOLVER's sytf2
    takes no workspace)."""
    nb, n, _ = A.shape
    blocked = blocked and n > SWITCH
    _lapack.ensure_lapack()
    a = _colmajor(A)
    p = _vector_rows(ipiv)
    nchunk = 1 if serial else chunk_count(nb, _work(n))
    wper = _work_bytes(n, a.itemsize, blocked)
    work = scratch(ws, nchunk * wper)
    cells = np.zeros(nchunk * _CELLS, np.uint8)
    sytrf_entries(_KIND[a.dtype], blocked, ord("U" if upper else "L"), n, _addresses(a), _ld(a), _addresses(p),
                  _addresses(info[:, None]), cells, work, wper, n * NB if blocked else 1, a.itemsize, nchunk)
    _finish(ipiv, p)
    _finish(A, a)


# --- the routines ---------------------------------------------------------------------------------


class _Dims(NamedTuple):
    """The checked sizes and options of one call."""

    upper: bool
    n: int
    batch: int


def _check(c: SolverCall) -> _Dims:
    upper = c.enum("uplo", Fill, (Fill.upper, Fill.lower)) is Fill.upper
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(upper, n, batch)


def _workspace(c: SolverCall, blocked: bool) -> int:
    return workspace(c.dims.n, c.dims.batch, c.precision.itemsize, blocked)


def _sytrf(c: SolverCall, blocked: bool) -> None:
    upper, n, batch = c.dims
    c.require("A", "ipiv", when=n > 0)
    c.require("info", when=batch > 0)
    if c.nothing_to_do(batch, n):
        return
    lda = c.int("lda")
    a = c.matrix("A", n, n, lda, writable=True)
    piv = c.vector("ipiv", n, writable=True, dtype=np.int32)
    serial = c.overlapping(("A", lda * (n - 1) + n), ("ipiv", n))
    work = c.workspace_buffer()
    scale = 8 if c.precision.is_complex else 2  # real flops of a multiply-add
    c.launch(factor, a, piv, c.info(), upper, blocked, serial, work, flops=scale * batch * _work(n),
             bytes=2.0 * batch * c.precision.itemsize * n * n / 2)


_PARAMS = ("uplo", "n", "A", "lda", "ipiv", "info")
_SUMMARY = ("Symmetric indefinite factorization A = U D U^T (uplo upper) or L D L^T (lower), complex "
            "symmetric too, by Bunch-Kaufman diagonal pivoting ({how}); LAPACK's ?sytrf format and 1-based "
            "ipiv (a 2x2 block: two equal negative entries); info = the first exactly zero D(k, k).")
SYTF2 = SolverRoutine("sytf2", _PARAMS, {"A": "lda"}, partial(_sytrf, blocked=False), check=_check,
                      workspace=partial(_workspace, blocked=False), vectors={"ipiv": "strideP"},
                      summary=_SUMMARY.format(how="unblocked algorithm"))
SYTRF = SolverRoutine("sytrf", _PARAMS, {"A": "lda"}, partial(_sytrf, blocked=True), check=_check,
                      workspace=partial(_workspace, blocked=True), vectors={"ipiv": "strideP"},
                      summary=_SUMMARY.format(how="blocked algorithm"))


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
ssytf2 = bind(SYTF2, S)
dsytf2 = bind(SYTF2, D)
csytf2 = bind(SYTF2, C)
zsytf2 = bind(SYTF2, Z)
ssytf2_batched = bind(SYTF2, S, BATCHED)
dsytf2_batched = bind(SYTF2, D, BATCHED)
csytf2_batched = bind(SYTF2, C, BATCHED)
zsytf2_batched = bind(SYTF2, Z, BATCHED)
ssytf2_strided_batched = bind(SYTF2, S, STRIDED)
dsytf2_strided_batched = bind(SYTF2, D, STRIDED)
csytf2_strided_batched = bind(SYTF2, C, STRIDED)
zsytf2_strided_batched = bind(SYTF2, Z, STRIDED)
ssytrf = bind(SYTRF, S)
dsytrf = bind(SYTRF, D)
csytrf = bind(SYTRF, C)
zsytrf = bind(SYTRF, Z)
ssytrf_batched = bind(SYTRF, S, BATCHED)
dsytrf_batched = bind(SYTRF, D, BATCHED)
csytrf_batched = bind(SYTRF, C, BATCHED)
zsytrf_batched = bind(SYTRF, Z, BATCHED)
ssytrf_strided_batched = bind(SYTRF, S, STRIDED)
dsytrf_strided_batched = bind(SYTRF, D, STRIDED)
csytrf_strided_batched = bind(SYTRF, C, STRIDED)
zsytrf_strided_batched = bind(SYTRF, Z, STRIDED)
# fmt: on

__all__ = public_names(globals())
