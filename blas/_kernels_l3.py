"""Level-3 kernels: each batch entry is handed to the reference BLAS routine of the same name.

The BLAS is the one scipy ships (OpenBLAS), called through the Fortran-API function
pointers of ``scipy.linalg.cython_blas`` / ``cython_lapack``.  :func:`ensure_blas`
registers them once as LLVM symbols (``rocmath_dgemm``...), so compiled code calls
them by name, as numba calls its own helpers, and numba's on-disk cache stays valid
across processes (an address baked into the code would not be).  BLAS works on the
device memory in place, with the caller's leading dimensions: no copies.

Two layers:

- the numba kernels (``gemm_entries``...) loop over the entries of a batch given as
  arrays of entry addresses, and call BLAS on each.  They only pass pointers, so one
  compiled kernel serves all four precisions (``kind`` picks the routine at run time)
  and every trans/uplo/side/diag (BLAS letter codes).  Small entries run in parallel
  (a chunked ``prange``, scratch allocated per chunk: per-entry allocations contend);
  large ones run one after another, each threaded by OpenBLAS.  Only gemm of small entries
  (every dimension <= ``SMALL``) is numba loops (``gemm_small``, register-tiled, compiled per
  precision): a BLAS call per entry costs more than their work, and OpenBLAS called from
  several threads at once serializes on its buffer pool.  The same loops whatever the batch
  count: an entry has the same bits alone, in a batch, or in a batch split across devices.
- the launch bodies (``gemm``, ``rank_k``, ``trsm``, ``trtri``) get the operands as
  ``(batch, rows, cols)`` views and do the dtype-specific bits with numpy: make entries
  column-major (gathered pointer-array entries are row-major), restore what BLAS may
  not touch, then call a numba kernel.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

import numpy as np
from llvmlite.binding import get_host_cpu_features
from numba import njit, prange, types
from numba.core import config as numba_config

from rocmath.batch import flat_entries
from rocmath.kernel import chunk, claim, kernel, pool_threads, stack_array

OP_N, OP_T, OP_C = ord("N"), ord("T"), ord("C")
UPPER, LOWER = ord("U"), ord("L")
LEFT, RIGHT = ord("L"), ord("R")
UNIT = ord("U")

# Routine codes of the shared kernels.
GEMM, SYMM, HEMM, TRMM = 0, 1, 2, 3
SYRK, HERK, SYR2K, HER2K, SYRKX, HERKX = 0, 1, 2, 3, 4, 5

#: Entries with at least this many multiply-adds run one at a time, each threaded by
#: OpenBLAS (whose own threshold for threading gemm is 65536 * 4); smaller ones in parallel.
SERIAL_WORK = 1 << 18
MAX_CHUNKS = 64
#: gemm entries with every dimension at most SMALL run as register-tiled loops (gemm_small),
#: in parallel when the whole batch has at least PARALLEL_WORK multiply-adds.
SMALL = 64
#: Entries with at most this many rows (real: more than half as many) go to gemm_cols.
COLS = 8
PARALLEL_WORK = 1 << 15
#: Column block of syrkx/herkx: the part of a block column off its diagonal block is one
#: gemm; only the diagonal blocks compute (and then restore) elements of the other triangle.
RANKX_BLOCK = 128

#: The precision code the BLAS-calling kernels take (``kind``).
KIND = {np.dtype(np.float32): 0, np.dtype(np.float64): 1, np.dtype(np.complex64): 2, np.dtype(np.complex128): 3}

# --- the BLAS entry points -----------------------------------------------------------------------

_VP = types.voidptr


def _ext(name: str, nargs: int) -> types.ExternalFunction:
    # Fortran API: every argument is a pointer (char*, int*, scalar*, array).
    return types.ExternalFunction(f"rocmath_{name}", types.void(*([_VP] * nargs)))


_sgemm, _dgemm, _cgemm, _zgemm = (_ext(p + "gemm", 13) for p in "sdcz")
_ssymm, _dsymm, _csymm, _zsymm = (_ext(p + "symm", 12) for p in "sdcz")
_chemm, _zhemm = (_ext(p + "hemm", 12) for p in "cz")
_ssyrk, _dsyrk, _csyrk, _zsyrk = (_ext(p + "syrk", 10) for p in "sdcz")
_cherk, _zherk = (_ext(p + "herk", 10) for p in "cz")
_ssyr2k, _dsyr2k, _csyr2k, _zsyr2k = (_ext(p + "syr2k", 12) for p in "sdcz")
_cher2k, _zher2k = (_ext(p + "her2k", 12) for p in "cz")
_strmm, _dtrmm, _ctrmm, _ztrmm = (_ext(p + "trmm", 11) for p in "sdcz")
_strsm, _dtrsm, _ctrsm, _ztrsm = (_ext(p + "trsm", 11) for p in "sdcz")
_strtri, _dtrtri, _ctrtri, _ztrtri = (_ext(p + "trtri", 6) for p in "sdcz")

_BLAS = {"gemm": "sdcz", "symm": "sdcz", "hemm": "cz", "syrk": "sdcz", "herk": "cz", "syr2k": "sdcz",
         "her2k": "cz", "trmm": "sdcz", "trsm": "sdcz"}
_registered = False
_lock = threading.Lock()


def _capsule_address(capsule: object) -> int:
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get_pointer(capsule, get_name(capsule)))


def ensure_blas() -> None:
    """Register scipy's BLAS/LAPACK routines as the symbols the kernels call.

    Runs before every Level-3 launch (after the first time it only checks a flag), so
    before any kernel is compiled or loaded from the cache; lazy, so that
    ``import rocmath.blas`` does not import scipy.linalg.
    """
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        import llvmlite.binding as ll
        import scipy.linalg.cython_blas as cblas
        import scipy.linalg.cython_lapack as clapack

        for name, letters in _BLAS.items():
            for p in letters:
                ll.add_symbol(f"rocmath_{p}{name}", _capsule_address(cblas.__pyx_capi__[p + name]))
        for p in "sdcz":
            ll.add_symbol(f"rocmath_{p}trtri", _capsule_address(clapack.__pyx_capi__[p + "trtri"]))
        _registered = True


# --- numba: BLAS on each entry, given by address ---------------------------------------------------

_jit = njit(nogil=True, error_model="numpy")


@_jit
def _gemm(kind, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):  # type: ignore[no-untyped-def]
    if kind == 0:
        _sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 1:
        _dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 2:
        _cgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    else:
        _zgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)


@_jit
def _symm(kind, herm, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc):  # type: ignore[no-untyped-def]
    if kind == 0:
        _ssymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 1:
        _dsymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 2 and herm:
        _chemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 2:
        _csymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
    elif herm:
        _zhemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
    else:
        _zsymm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)


@_jit
def _trxm(kind, solve, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb):  # type: ignore[no-untyped-def]
    # trmm or trsm, both in place on b.
    if solve:
        if kind == 0:
            _strsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
        elif kind == 1:
            _dtrsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
        elif kind == 2:
            _ctrsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
        else:
            _ztrsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
    elif kind == 0:
        _strmm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
    elif kind == 1:
        _dtrmm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
    elif kind == 2:
        _ctrmm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)
    else:
        _ztrmm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb)


@_jit
def _rank(kind, which, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc):  # type: ignore[no-untyped-def]
    # syrk/herk (b unused) or syr2k/her2k.
    if which <= HERK:  # SYRK or HERK
        if kind == 0:
            _ssyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
        elif kind == 1:
            _dsyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
        elif kind == 2 and which == HERK:
            _cherk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
        elif kind == 2:
            _csyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
        elif which == HERK:
            _zherk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
        else:
            _zsyrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
    elif kind == 0:
        _ssyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 1:
        _dsyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 2 and which == HER2K:
        _cher2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif kind == 2:
        _csyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    elif which == HER2K:
        _zher2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    else:
        _zsyr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)


@_jit
def _gemm_range(which, kind, c1, c2, c3, c4, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, lo, hi):  # type: ignore[no-untyped-def]
    ch = np.empty(4, np.uint8)
    ch[0], ch[1], ch[2], ch[3] = c1, c2, c3, c4
    iv = np.empty(8, np.int32)
    iv[0], iv[1], iv[2], iv[3], iv[4], iv[5] = m, n, k, lda, ldb, ldc
    s, i = ch.ctypes.data, iv.ctypes.data
    for e in range(lo, hi):
        if which == GEMM:
            _gemm(kind, s, s + 1, i, i + 4, i + 8, alpha, pa[e], i + 12, pb[e], i + 16, beta, pc[e], i + 20)
        elif which == TRMM:
            _trxm(kind, False, s, s + 1, s + 2, s + 3, i, i + 4, alpha, pa[e], i + 12, pc[e], i + 20)
        else:
            _symm(kind, which == HEMM, s, s + 1, i, i + 4, alpha, pa[e], i + 12, pb[e], i + 16, beta, pc[e], i + 20)


@kernel
def gemm_entries(which, kind, c1, c2, c3, c4, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc,  # type: ignore[no-untyped-def]
                 nchunk):
    """Entry e: gemm (c1, c2 = transA, transB), symm/hemm (side, uplo) or trmm in place on
    C (side, uplo, transA, diag).  ``pa``, ``pb``, ``pc`` hold entry addresses; alpha and
    beta are addresses too.  One chunk runs on the calling thread (no prange: idle
    workers spinning would take cores from OpenBLAS's threads)."""
    nb = pc.shape[0]
    if nchunk <= 1:
        _gemm_range(which, kind, c1, c2, c3, c4, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _gemm_range(which, kind, c1, c2, c3, c4, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, t * per,
                    min(nb, (t + 1) * per))


#: one_entry's codes past gemm_entries' (GEMM, SYMM, HEMM, TRMM): trsm, and rank-k routine r as RANK + r.
TRSM, RANK = 4, 8


@kernel(parallel=False)
def one_entry(which, kind, c1, c2, c3, c4, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc):  # type: ignore[no-untyped-def]
    """One column-major entry (a plain call, a strided batch of one) by BLAS, launched as it is:
    no launch body between the stream and BLAS (the body's numpy and kernel lookup took 7 of a
    16 x 16 dgemm's 15 us).  ``which``: GEMM, SYMM, HEMM, TRMM (out of place: C := B first,
    unless B is C or not read), TRSM (in place on C; B unused), or RANK + SYRK, HERK, SYR2K,
    HER2K; c1-c4 their BLAS letters (transA, transB / side, uplo / side, uplo, transA, diag /
    uplo, trans).  A, B and C are (1, rows, cols) views with the call's leading dimensions,
    alpha and beta 1-element arrays of the scalars (herk's real, her2k's beta real).  ``k``
    is 0 when A and B are not to be read.  The entry kernels' loops, over this one entry."""
    at = np.empty(3, np.int64)  # the entry's addresses, as the loops take a batch's
    at[0], at[1], at[2] = A.ctypes.data, B.ctypes.data, C.ctypes.data
    pa, pb, pc = at[0:1], at[1:2], at[2:3]
    al, be = alpha.ctypes.data, beta.ctypes.data
    if which == TRSM:
        _tr_range(True, kind, c1, c2, c3, c4, m, n, al, pa, lda, pc, ldc, 0, 1)
    elif which >= RANK:  # n x n, k
        _rank_range(which - RANK, kind, c1, c2, n, k, al, pa, lda, pb, ldb, be, pc, ldc, C.itemsize, 0, 1)
    else:
        if which == TRMM and B.size and at[1] != at[2]:  # (gemm_entries' trmm is in place on C: C := B first)
            for j in range(n):
                for r in range(m):
                    C[0, r, j] = B[0, r, j]
        _gemm_range(which, kind, c1, c2, c3, c4, m, n, k, al, pa, lda, pb, ldb, be, pc, ldc, 0, 1)


@_jit
def _rank_range(which, kind, uplo, trans, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, isz, lo, hi):  # type: ignore[no-untyped-def]
    # syrkx/herkx: op(Y)^T (^H) for rows of op(B); row r0 of op(X) starts r0 elements (or r0
    # columns) into X.
    opy = (OP_C if which == HERKX else OP_T) if trans == OP_N else OP_N
    astep = isz if trans == OP_N else lda * isz
    bstep = isz if trans == OP_N else ldb * isz
    ch = np.empty(4, np.uint8)
    ch[0], ch[1], ch[2], ch[3] = uplo, trans, opy, 0
    iv = np.empty(8, np.int32)
    iv[0], iv[1], iv[2], iv[3], iv[4] = n, k, lda, ldb, ldc
    s, i = ch.ctypes.data, iv.ctypes.data
    for e in range(lo, hi):
        if which < SYRKX:
            _rank(kind, which, s, s + 1, i, i + 4, alpha, pa[e], i + 8, pb[e], i + 12, beta, pc[e], i + 16)
            continue
        for c0 in range(0, n, RANKX_BLOCK):
            c1 = min(n, c0 + RANKX_BLOCK)
            r0, r1 = (0, c1) if uplo == UPPER else (c0, n)  # rows of C in the block column
            iv[5], iv[6] = r1 - r0, c1 - c0
            _gemm(kind, s + 1, s + 2, i + 20, i + 24, i + 4, alpha, pa[e] + r0 * astep, i + 8,
                  pb[e] + c0 * bstep, i + 12, beta, pc[e] + (r0 + c0 * ldc) * isz, i + 16)


@kernel
def rank_entries(which, kind, uplo, trans, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, isz,  # type: ignore[no-untyped-def]
                 nchunk):
    """Entry e: syrk/herk/syr2k/her2k, or syrkx/herkx as gemm by column blocks of
    RANKX_BLOCK (beta then points to a value of C's type; the diagonal blocks are computed
    whole, the caller restores their other triangle)."""
    nb = pc.shape[0]
    if nchunk <= 1:
        _rank_range(which, kind, uplo, trans, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, isz, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _rank_range(which, kind, uplo, trans, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc, isz, t * per,
                    min(nb, (t + 1) * per))


@_jit
def _tr_range(solve, kind, side, uplo, ta, diag, m, n, alpha, pa, lda, pb, ldb, lo, hi):  # type: ignore[no-untyped-def]
    ch = np.empty(4, np.uint8)
    ch[0], ch[1], ch[2], ch[3] = side, uplo, ta, diag
    iv = np.empty(4, np.int32)
    iv[0], iv[1], iv[2], iv[3] = m, n, lda, ldb
    s, i = ch.ctypes.data, iv.ctypes.data
    for e in range(lo, hi):
        _trxm(kind, solve, s, s + 1, s + 2, s + 3, i, i + 4, alpha, pa[e], i + 8, pb[e], i + 12)


@kernel
def tr_entries(solve, kind, side, uplo, ta, diag, m, n, alpha, pa, lda, pb, ldb, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: trsm (``solve``) or trmm, in place on B."""
    nb = pb.shape[0]
    if nchunk <= 1:
        _tr_range(solve, kind, side, uplo, ta, diag, m, n, alpha, pa, lda, pb, ldb, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _tr_range(solve, kind, side, uplo, ta, diag, m, n, alpha, pa, lda, pb, ldb, t * per, min(nb, (t + 1) * per))


@_jit
def _trtri_range(kind, uplo, diag, n, pa, lda, lo, hi):  # type: ignore[no-untyped-def]
    ch = np.empty(2, np.uint8)
    ch[0], ch[1] = uplo, diag
    iv = np.empty(4, np.int32)
    iv[0], iv[1] = n, lda
    s, i = ch.ctypes.data, iv.ctypes.data
    for e in range(lo, hi):
        if kind == 0:
            _strtri(s, s + 1, i, pa[e], i + 4, i + 8)
        elif kind == 1:
            _dtrtri(s, s + 1, i, pa[e], i + 4, i + 8)
        elif kind == 2:
            _ctrtri(s, s + 1, i, pa[e], i + 4, i + 8)
        else:
            _ztrtri(s, s + 1, i, pa[e], i + 4, i + 8)


@kernel
def trtri_entries(kind, uplo, diag, n, pa, lda, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK trtri in place (a singular entry, none from :func:`trtri`, is left as it was)."""
    nb = pa.shape[0]
    if nchunk <= 1:
        _trtri_range(kind, uplo, diag, n, pa, lda, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _trtri_range(kind, uplo, diag, n, pa, lda, t * per, min(nb, (t + 1) * per))


@kernel
def triangle_copy(A, w, upper, unit):  # type: ignore[no-untyped-def]
    """w := the upper (lower) triangle of A, zeros elsewhere, ones on the diagonal if ``unit``
    and in place of its zeros (rocBLAS's trtri takes a zero pivot's inverse as 1 and goes on:
    rocblas_trtri_device; its blocked inverse is then the inverse of A with those entries 1);
    column by column in parallel (np.triu and a copy took two thirds of dtrtri of 1024)."""
    nb, n = w.shape[0], w.shape[1]
    for t in prange(nb * n):
        e = t // n
        j = t - e * n
        lo, hi = (0, j + 1) if upper else (j, n)
        for i in range(n):
            w[e, i, j] = A[e, i, j] if lo <= i < hi else 0
        if unit or w[e, j, j] == 0:
            w[e, j, j] = 1


_inline = njit(nogil=True, error_model="numpy", inline="always")


# Flat indices are computed in int64 and used as uint64: numba then skips the wrap-around of
# negative indices, whose per-element select would keep the loops from vectorizing.


#: Whether tiles of 8-byte elements (f64, c64) are 16 rows high, as f32's are: 4 x 2 of AVX-512's 32 vector
#: registers hold them (with AVX2's 16, 4 x 4 would spill).  On one Zen 5 core a 64 x 64 dgemm entry took
#: 5.6 us against 15.8 with 8-row tiles (OpenBLAS 10.6); batches of 32 x 32 and 64 x 64 dgemm and
#: cgemm entries ran 1.25-1.35x faster.  The height changes no bits: each element is its own sum in the
#: order of k.  A global, frozen into the compiled code, whose cache numba keys on the CPU's features.
WIDE_TILES = "+avx512f" in (numba_config.CPU_FEATURES or get_host_cpu_features().flatten())
#: The least 64-byte vector rows (``64 // itemsize``) of an element type whose tiles are 16 rows high.
WIDE_PAD = 8 if WIDE_TILES else 16

#: The shape of gemm_small's accumulator tile (4 columns of up to 16 rows), as stack_array takes it.
_TILE = ((0,) * 16,) * 4


@_inline
def _store(W, alpha, beta, acc, jj, C, o):  # type: ignore[no-untyped-def]
    if beta == 0:  # beta == 0: C is not read
        for i in range(W):
            C[np.uint64(o + i)] = alpha * acc[jj, i]
    else:
        for i in range(W):
            C[np.uint64(o + i)] = alpha * acc[jj, i] + beta * C[np.uint64(o + i)]


@_inline
def _store_rows(rows, alpha, beta, acc, jj, C, o):  # type: ignore[no-untyped-def]
    if beta == 0:
        for i in range(rows):
            C[np.uint64(o + i)] = alpha * acc[jj, i]
    else:
        for i in range(rows):
            C[np.uint64(o + i)] = alpha * acc[jj, i] + beta * C[np.uint64(o + i)]


@_inline
def _padded(W, X, xo, m, k, Y, yo, ldy, n, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    """All of C for an entry with m < W rows, from op(A) copied to X with W rows (zeros past
    m): full-vector tiles of W rows, of which m are stored.  Tiles of fewer rows than a vector
    vectorize badly (LLVM unrolls them before its loop vectorizer sees them)."""
    for j in range(0, n - 3, 4):
        for jj in range(4):
            for i in range(W):
                acc[jj, i] = 0
        for q in range(k):
            b0, b1 = Y[np.uint64(yo + q + j * ldy)], Y[np.uint64(yo + q + (j + 1) * ldy)]
            b2, b3 = Y[np.uint64(yo + q + (j + 2) * ldy)], Y[np.uint64(yo + q + (j + 3) * ldy)]
            xq = xo + q * W
            for i in range(W):
                a = X[np.uint64(xq + i)]
                acc[0, i] += a * b0
                acc[1, i] += a * b1
                acc[2, i] += a * b2
                acc[3, i] += a * b3
        for jj in range(4):
            _store_rows(m, alpha, beta, acc, jj, C, oc + (j + jj) * ldc)
    for j in range(n - n % 4, n):
        for i in range(W):
            acc[0, i] = 0
        for q in range(k):
            b = Y[np.uint64(yo + q + j * ldy)]
            xq = xo + q * W
            for i in range(W):
                acc[0, i] += X[np.uint64(xq + i)] * b
        _store_rows(m, alpha, beta, acc, 0, C, oc + j * ldc)


@_inline
def _tile4(W, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    """C[i0:i0+W, j:j+4] := alpha X[i0:i0+W, :k] Y[:k, j:j+4] + beta C[...] for one entry (X, Y
    column-major at offsets xo, yo).  W is a constant where this is inlined: the row loops
    unroll into vector registers, where the 4 x W accumulators stay."""
    for jj in range(4):
        for i in range(W):
            acc[jj, i] = 0
    for q in range(k):
        b0, b1 = Y[np.uint64(yo + q + j * ldy)], Y[np.uint64(yo + q + (j + 1) * ldy)]
        b2, b3 = Y[np.uint64(yo + q + (j + 2) * ldy)], Y[np.uint64(yo + q + (j + 3) * ldy)]
        xq = xo + q * ldx + i0
        for i in range(W):
            a = X[np.uint64(xq + i)]
            acc[0, i] += a * b0
            acc[1, i] += a * b1
            acc[2, i] += a * b2
            acc[3, i] += a * b3
    for jj in range(4):
        _store(W, alpha, beta, acc, jj, C, oc + (j + jj) * ldc + i0)


@_inline
def _tile1(W, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    """As _tile4 for one column (the last n % 4)."""
    for i in range(W):
        acc[0, i] = 0
    for q in range(k):
        b = Y[np.uint64(yo + q + j * ldy)]
        xq = xo + q * ldx + i0
        for i in range(W):
            acc[0, i] += X[np.uint64(xq + i)] * b
    _store(W, alpha, beta, acc, 0, C, oc + j * ldc + i0)


@_inline
def _rows4(wide, X, xo, ldx, m, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    # Row tiles of 16 (``wide``: f32; f64 and c64 with AVX-512, see WIDE_TILES), 8, 4, then 1.
    i0 = 0
    if wide:
        while i0 + 16 <= m:
            _tile4(16, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
            i0 += 16
    while i0 + 8 <= m:
        _tile4(8, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
        i0 += 8
    if i0 + 4 <= m:
        _tile4(4, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
        i0 += 4
    while i0 < m:
        _tile4(1, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
        i0 += 1


@_inline
def _rows1(X, xo, ldx, m, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    i0 = 0
    while i0 + 8 <= m:
        _tile1(8, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
        i0 += 8
    while i0 < m:
        _tile1(1, X, xo, ldx, i0, k, Y, yo, ldy, j, alpha, beta, C, oc, ldc, acc)
        i0 += 1


@_inline
def _load_a(A, o, lda, ta, m, k, W, wo, ld):  # type: ignore[no-untyped-def]
    """op(A) of one entry (m x k, from offset o) column-major into W at wo with leading
    dimension ld >= m, rows m..ld zero (full vectors for short columns)."""
    for q in range(k):
        for i in range(m):
            v = A[np.uint64(o + i + q * lda)] if ta == OP_N else A[np.uint64(o + q + i * lda)]
            W[np.uint64(wo + q * ld + i)] = np.conj(v) if ta == OP_C else v
        for i in range(m, ld):
            W[np.uint64(wo + q * ld + i)] = 0


@_inline
def _load_b(B, o, ldb, tb, k, n, W, wo):  # type: ignore[no-untyped-def]
    """op(B) of one transposed entry (k x n) column-major into W at wo (leading dimension k)."""
    for q in range(k):
        for j in range(n):
            v = B[np.uint64(o + j + q * ldb)]
            W[np.uint64(wo + q + j * k)] = np.conj(v) if tb == OP_C else v


@chunk
def _gemm_small_thread(ta, tb, al, be, A, B, C, WA, WB, nb, m, n, k, lda, ldb, ldc, sa, sb, sc, nchunk, vec,  # type: ignore[no-untyped-def]
                       following, t):
    """Thread t's part of :func:`gemm_small`: the chunks of entries it claims, in its part of WA and WB."""
    pad = len(vec)  # rows of one 64-byte vector, a constant of the compiled code (the tuple's type)
    # 16-row tiles (see _rows4).  A plain comparison: with ``pad >= 16 or (pad >= 8 and WIDE_TILES)``
    # here, numba compiled the kernel right for the first dtype of a process and wrong for the next
    # (test_gemm_batches_of_small_entries_on_the_thread_team).
    wide = pad >= WIDE_PAD
    per = (nb + nchunk - 1) // nchunk
    w = np.int64(t)
    acc = stack_array(_TILE, C.dtype)  # in registers once the tile loops unroll
    c = claim(following, 1)
    while c < nchunk:
        for e in range(c * per, min(nb, (c + 1) * per)):
            if pad // 2 < m < pad:  # short columns: op(A) padded to one vector's rows, in thread t's part of WA
                xo = w * pad * k
                _load_a(A, e * sa, lda, ta, m, k, WA, xo, pad)
                Y, yo, ldy = B, e * sb, ldb
                if tb != OP_N:
                    Y, yo, ldy = WB, w * k * n, k
                    _load_b(B, e * sb, ldb, tb, k, n, WB, yo)
                _padded(pad, WA, xo, m, k, Y, yo, ldy, n, al, be, C, e * sc, ldc, acc)
                continue
            X, xo, ldx = A, e * sa, lda
            if ta != OP_N:
                X, xo, ldx = WA, w * m * k, m
                _load_a(A, e * sa, lda, ta, m, k, WA, xo, m)
            Y, yo, ldy = B, e * sb, ldb
            if tb != OP_N:
                Y, yo, ldy = WB, w * k * n, k
                _load_b(B, e * sb, ldb, tb, k, n, WB, yo)
            oc = e * sc
            for j in range(0, n - 3, 4):
                _rows4(wide, X, xo, ldx, m, k, Y, yo, ldy, j, al, be, C, oc, ldc, acc)
            for j in range(n - n % 4, n):
                _rows1(X, xo, ldx, m, k, Y, yo, ldy, j, al, be, C, oc, ldc, acc)
        c = claim(following, 1)


@kernel(contiguous=True, slp=True)
def gemm_small(ta, tb, alpha, beta, A, B, C, WA, WB, nb, m, n, k, lda, ldb, ldc, sa, sb, sc, nchunk, vec, threads):  # type: ignore[no-untyped-def]
    """gemm of small entries (every dimension <= SMALL) as register-tiled loops, a BLAS call
    costing more than their work.  A, B and C are flat contiguous views from each operand's
    first element; entry e's starts at e * sa (sb, sc), column j at j * ld.  A transposed op(A)
    (op(B)) is first copied column-major into thread t's part of WA (WB); so is op(A) of entries
    with fewer rows than a 64-byte vector holds (``len(vec)``, a tuple so that the compiled code
    knows it), zero-padded to full vectors.  One compilation per precision.  The ``threads``
    threads (at most ``nchunk``: each has a part of WA and WB) claim the ``nchunk`` chunks of
    entries one after another (:func:`rocmath.kernel.claim`), so that a thread slowed by other
    work on its core does fewer.

    The 4-column tiles accumulate in a stack array (:func:`rocmath.kernel.stack_array`) that LLVM
    keeps in registers once the tile loops unroll, and the SLP vectorizer makes vectors of them:
    f32 64 x 64 entries ran at 112 GFLOP/s on two cores against 50 with the tile in heap memory
    (stored on every update).  A thread's loops are one chunk function (:func:`rocmath.kernel.chunk`,
    its arrays noalias as a prange body's: the loads of A and B need not wait for the stores to C),
    which the serial twin calls too: compiled once, not again by numba's parfor passes and the twin."""
    following = np.zeros(1, np.int64)
    for t in prange(threads):
        _gemm_small_thread(ta, tb, alpha[0], beta[0], A, B, C, WA, WB, nb, m, n, k, lda, ldb, ldc, sa, sb, sc,
                           nchunk, vec, following, np.uintp(t))


@_inline
def _cols(R, X, xo, ldx, Y, yo, ldy, rows, n, k, alpha, beta, C, oc, ldc, acc):  # type: ignore[no-untyped-def]
    """C[:rows, :n] := alpha X[:R, :k] Y[:k, :n] + beta C for one entry, a column at a time
    with R (a constant) accumulators, of which the first ``rows`` are stored."""
    for j in range(n):
        for i in range(R):
            acc[i] = 0
        for q in range(k):
            b = Y[np.uint64(yo + q + j * ldy)]
            xq = xo + q * ldx
            for i in range(R):
                acc[i] += X[np.uint64(xq + i)] * b
        o = oc + j * ldc
        if beta == 0:
            for i in range(rows):
                C[np.uint64(o + i)] = alpha * acc[i]
        else:
            for i in range(rows):
                C[np.uint64(o + i)] = alpha * acc[i] + beta * C[np.uint64(o + i)]


@kernel(contiguous=True, slp=True)
def gemm_cols(ta, tb, alpha, beta, A, B, C, WA, WB, nb, m, n, k, lda, ldb, ldc, sa, sb, sc, nchunk, vec, threads):  # type: ignore[no-untyped-def]
    """gemm of entries with m <= R = ``len(vec)`` rows (a compile-time constant), a column
    of C at a time in R accumulators that the SLP vectorizer turns into one vector register
    (the 4-column tiles of gemm_small stay scalar code at these heights).  op(A) of short or
    transposed entries is first copied to chunk t's part of WA with R rows (zeros past m);
    op(B) of transposed entries to WB.  Each of the four (A or WA) x (B or WB) combinations
    is its own inlined loop nest: choosing the array at run time keeps LLVM from vectorizing.  Threads
    claim the chunks of entries and have parts of WA and WB, as in :func:`gemm_small`."""
    al, be = alpha[0], beta[0]
    R = len(vec)
    copy_a = m < R or ta != OP_N
    per = (nb + nchunk - 1) // nchunk
    following = np.zeros(1, np.int64)
    for t in prange(threads):
        acc = np.empty(R, C.dtype)
        xo, yo = t * R * k, t * k * n
        c = claim(following, 1)
        while c < nchunk:
            for e in range(c * per, min(nb, (c + 1) * per)):
                if copy_a:
                    _load_a(A, e * sa, lda, ta, m, k, WA, xo, R)
                if tb != OP_N:
                    _load_b(B, e * sb, ldb, tb, k, n, WB, yo)
                if copy_a:
                    if tb == OP_N:
                        _cols(R, WA, xo, R, B, e * sb, ldb, m, n, k, al, be, C, e * sc, ldc, acc)
                    else:
                        _cols(R, WA, xo, R, WB, yo, k, m, n, k, al, be, C, e * sc, ldc, acc)
                elif tb == OP_N:
                    _cols(R, A, e * sa, lda, B, e * sb, ldb, m, n, k, al, be, C, e * sc, ldc, acc)
                else:
                    _cols(R, A, e * sa, lda, WB, yo, k, m, n, k, al, be, C, e * sc, ldc, acc)
            c = claim(following, 1)


# --- launch bodies: numpy around the numba kernels --------------------------------------------------


def _colmajor(x: np.ndarray) -> np.ndarray:
    """``x`` if every entry is column-major with a leading dimension >= rows, else a
    column-major copy (gathered pointer-array entries are row-major)."""
    _, r, c = x.shape
    isz = x.itemsize
    s1, s2 = x.strides[1], x.strides[2]
    if (r <= 1 or s1 == isz) and (c <= 1 or (s2 >= r * isz and s2 % isz == 0)):
        return x
    y = np.empty((x.shape[0], c, r), x.dtype).transpose(0, 2, 1)
    y[...] = x
    return y


@njit(nogil=True, cache=True)
def _entries(x):  # type: ignore[no-untyped-def]
    """The address of every entry.  Compiled (one version per array type): ``x.ctypes`` in Python
    costs 1 us an array, and a call's entries and scalars took 11 us of a 32 x 32 dgemm's 20."""
    return np.int64(x.ctypes.data) + np.arange(x.shape[0]) * np.int64(x.strides[0])


def _ld(x: np.ndarray, need: int) -> int:
    """The leading dimension BLAS gets: the column stride, and at least max(1, rows BLAS
    checks for); placeholders and single columns have no meaningful stride."""
    ld = max(1, need)
    if x.shape[2] > 1:
        ld = max(ld, x.strides[2] // x.itemsize)
    return ld


def _chunks(nb: int, work: int) -> int:
    return 1 if nb <= 1 or work >= SERIAL_WORK else min(nb, MAX_CHUNKS)


def _finish(out: np.ndarray, work: np.ndarray) -> None:
    if work is not out:
        out[...] = work


@njit(nogil=True, cache=True)
def _addr(scalar):  # type: ignore[no-untyped-def]
    return np.int64(scalar.ctypes.data)


def gemm(which: int, c1: int, c2: int, c3: int, c4: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray,
         beta: np.ndarray, C: np.ndarray) -> None:
    """gemm (c1, c2 = transA, transB), symm/hemm (side, uplo), or rocBLAS's out-of-place
    trmm (side, uplo, transA, diag; beta unused): C := B, then BLAS trmm in place on C.
    An empty (0 x 0) A or B is a placeholder not read (gemm: k = 0, C := beta C)."""
    ensure_blas()
    nb, m, n = C.shape
    if which == GEMM and max(m, n, A.shape[1], A.shape[2]) <= SMALL and _small_gemm(c1, c2, alpha, A, B, beta, C):
        return
    a, b, c = _colmajor(A), _colmajor(B), _colmajor(C)
    kind = KIND[c.dtype]
    if which == GEMM:
        k = a.shape[2] if c1 == OP_N else a.shape[1]
        lda, ldb = _ld(a, m if c1 == OP_N else k), _ld(b, k if c2 == OP_N else n)
        work = m * n * k
    else:
        k = 0
        ka = m if c1 == LEFT else n
        lda, ldb, work = _ld(a, ka), _ld(b, m), m * n * ka
        if which == TRMM and b.size and b.ctypes.data != c.ctypes.data:
            c[...] = b
    gemm_entries(which, kind, c1, c2, c3, c4, m, n, k, _addr(alpha), _entries(a), lda, _entries(b), ldb,
                 _addr(beta), _entries(c), _ld(c, m), _chunks(nb, work))
    _finish(C, c)


def _small_gemm(ta: int, tb: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray, beta: np.ndarray,
                C: np.ndarray) -> bool:
    """gemm of small entries by gemm_small, when all three operands are strided batches of
    column-major entries (device strided batches and gathered pointer-array entries are)."""
    fa, fb, fc = flat_entries(A), flat_entries(B), flat_entries(C)
    if fa is None or fb is None or fc is None:
        return False
    nb, m, n = C.shape
    k = A.shape[2] if ta == OP_N else A.shape[1]
    (a, lda, sa), (b, ldb, sb), (c, ldc, sc) = fa, fb, fc
    # Entries of C that overlap (a zero stride, say) are written in order, on one thread.
    parallel = nb > 1 and nb * m * n * k >= PARALLEL_WORK and sc >= (n - 1) * ldc + m
    nchunk = min(nb, MAX_CHUNKS) if parallel else 1
    loops, wa, wb, vec = small_gemm_loops(ta, tb, C.dtype, m, n, k, nchunk)
    loops(ta, tb, alpha, beta, a, b, c, wa, wb, nb, m, n, k, lda, ldb, ldc, sa, sb, sc, nchunk, vec,
          min(nchunk, pool_threads()))
    return True


def small_gemm_loops(ta: int, tb: int, dtype: np.dtype[Any], m: int, n: int, k: int,
                     nchunk: int) -> tuple[Any, np.ndarray, np.ndarray, tuple[int, ...]]:
    """The loops of a gemm of small entries with ``m`` rows (gemm_cols for at most COLS, real ones
    more than half as many; else gemm_small), their scratch WA and WB for ``nchunk`` chunks, and
    the tuple whose length is their vectors' rows (a constant of the compiled code)."""
    if m <= COLS and (m > COLS // 2 or dtype.kind == "c"):
        copy_a = m < COLS or ta != OP_N
        loops, wa, vec = gemm_cols, nchunk * COLS * k if copy_a else 0, (0,) * COLS
    else:
        pad = 64 // dtype.itemsize  # op(A) of entries with pad/2 < m < pad rows is copied, padded to pad rows
        wa = nchunk * (pad * k if pad // 2 < m < pad else m * k if ta != OP_N else 0)
        loops, vec = gemm_small, (0,) * pad
    return loops, np.empty(wa, dtype), np.empty(nchunk * k * n if tb != OP_N else 0, dtype), vec


def _other_triangle_of_blocks(n: int, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the elements of the diagonal RANKX_BLOCK blocks off the uplo triangle."""
    rows, cols = [], []
    for c0 in range(0, n, RANKX_BLOCK):
        jb = min(n, c0 + RANKX_BLOCK) - c0
        r, q = np.tril_indices(jb, -1) if upper else np.triu_indices(jb, 1)
        rows.append(r + c0)
        cols.append(q + c0)
    return np.concatenate(rows), np.concatenate(cols)


def rank_k(which: int, uplo: int, trans: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray, beta: np.ndarray,
           C: np.ndarray) -> None:
    """syrk/herk (B unused), syr2k/her2k, syrkx/herkx on the uplo triangle of C; the other
    triangle keeps its bits.  An empty (0 x 0) A is a placeholder not read (k = 0)."""
    ensure_blas()
    a, c = _colmajor(A), _colmajor(C)
    b = a if which in (SYRK, HERK) else _colmajor(B)
    nb, n = c.shape[0], c.shape[1]
    kind = KIND[c.dtype]
    k = a.shape[2] if trans == OP_N else a.shape[1]
    need = n if trans == OP_N else k
    saved: Any = None
    if which >= SYRKX:
        beta = np.array([beta[0]], dtype=c.dtype)  # herkx's real beta, as gemm's
        if n > 1:
            saved = _other_triangle_of_blocks(n, uplo == UPPER)
            saved = (*saved, c[:, saved[0], saved[1]])
    rank_entries(which, kind, uplo, trans, n, k, _addr(alpha), _entries(a), _ld(a, need), _entries(b),
                 _ld(b, need), _addr(beta), _entries(c), _ld(c, n), c.itemsize, _chunks(nb, n * n * k))
    if saved is not None:
        c[:, saved[0], saved[1]] = saved[2]
    if which == HERKX:  # as herk: the diagonal of a Hermitian matrix is real
        d = np.arange(n)
        c[:, d, d] = c[:, d, d].real
    _finish(C, c)


def trsm(side: int, uplo: int, ta: int, diag: int, alpha: np.ndarray, A: np.ndarray, B: np.ndarray) -> None:
    """B := alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), in place.  An empty
    (0 x 0) A is a placeholder for alpha == 0 (B := 0)."""
    ensure_blas()
    a, b = _colmajor(A), _colmajor(B)
    nb, m, n = b.shape
    ka = m if side == LEFT else n
    tr_entries(True, KIND[b.dtype], side, uplo, ta, diag, m, n, _addr(alpha), _entries(a), _ld(a, ka),
               _entries(b), _ld(b, m), _chunks(nb, ka * m * n))
    _finish(B, b)


def trtri(uplo: int, diag: int, A: np.ndarray, invA: np.ndarray) -> None:
    """invA := the inverse of the uplo triangle of A; the other triangle of invA is set
    to 0 and, for a unit diagonal, the diagonal to 1 (as rocBLAS).  A zero on A's diagonal is
    taken as 1, as rocBLAS takes its inverse (:func:`triangle_copy`)."""
    ensure_blas()
    w = _colmajor(invA)
    n = w.shape[1]
    triangle_copy(A, w, uplo == UPPER, diag == UNIT)
    trtri_entries(KIND[w.dtype], uplo, diag, n, _entries(w), _ld(w, n), _chunks(w.shape[0], n * n * n // 3))
    _finish(invA, w)
