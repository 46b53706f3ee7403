"""numba kernels of rocmath.sparse.  They check nothing: the routines validated everything.

Determinism: every output element is summed in an order fixed by the inputs alone.  Row
products (CSR, not transposed) sum a row's entries in storage order, whatever the row
partition.  Scattered products (transposed CSR, COO) accumulate into one private dense
copy per chunk (``scratch``, the chunks fixed by the sizes, never by the thread count) and
add the chunks up in chunk order, so no atomics are needed and results are bitwise
reproducible.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange, uintp

from rocmath.kernel import chunk, claim, kernel, prefetch, stack_array, store_fence, store_streaming

from ._kernels_conv import BUCKET_SHIFT, BUCKETED_KEYS, bucket_slots, chunk_slots

# --- partitions ---------------------------------------------------------------------------------


@kernel
def balanced_row_bounds(row_ptr, base, nblocks, bounds):  # pragma: no cover - numba
    """``bounds[b]``: first row of block ``b``, blocks holding about ``nnz / nblocks`` entries each.
    The searches run in parallel (each waits on a cache miss per probe of a large ``row_ptr``),
    then one pass keeps the bounds non-decreasing whatever ``row_ptr`` holds."""
    m = row_ptr.shape[0] - 1
    nnz = row_ptr[m] - row_ptr[0]
    bounds[0] = 0
    for b in prange(1, nblocks):
        bounds[b] = np.searchsorted(row_ptr[: m + 1], row_ptr[0] + (nnz * b) // nblocks)
    for b in range(1, nblocks):
        bounds[b] = min(max(bounds[b], bounds[b - 1]), m)
    bounds[nblocks] = m


def row_bounds_bytes(nblocks: int, m: int) -> float:
    """What :func:`balanced_row_bounds` touches: a cache line per probe of its binary searches."""
    return float(64 * nblocks * max(1, int(m).bit_length()))


def uniform_bounds(m: int, nblocks: int) -> np.ndarray:
    """Rows split evenly in ``nblocks`` blocks (the partition without analysis)."""
    return (np.arange(nblocks + 1, dtype=np.int64) * m) // max(nblocks, 1)


# --- y := beta y ----------------------------------------------------------------------------------


@kernel(contiguous=True)
def scale(beta, y):  # pragma: no cover - numba
    """``y := beta y``; beta == 0 writes zeros (y is not read), beta == 1 leaves y alone."""
    b = beta[0]
    if b == 1:
        return
    n = y.shape[0]
    if b == 0:
        for i in prange(n):
            y[i] = 0
    else:
        for i in prange(n):
            y[i] = b * y[i]


@kernel
def scale2d(beta, c):  # pragma: no cover - numba
    """``C := beta C`` for a 2-D view; beta == 0 writes zeros."""
    b = beta[0]
    if b == 1:
        return
    for i in prange(c.shape[0]):
        for j in range(c.shape[1]):
            c[i, j] = 0 if b == 0 else b * c[i, j]


# --- SpMV ---------------------------------------------------------------------------------------


@njit(nogil=True, cache=True, inline="always")
def _entry(val, j, conj):  # pragma: no cover - numba
    v = val[j]
    return np.conj(v) if conj else v


#: Entries ahead of the rows in progress that csrmv prefetches values and columns from, into every
#: cache level (see rocmath.kernel.prefetch).  Every block prefetches, whatever its columns:
#: measured on one host (medians of 4-6 runs), the 2D Laplacian 14.3 ms with non-temporal
#: prefetches, 12.4 ms without, 10.3 ms with these; the power-law graph 32.7 ms without, 28.6 ms.
PREFETCH_AHEAD = 256


#: csrmv writes a y of at least this many bytes that beta == 0 leaves unread around the caches
#: (:func:`rocmath.kernel.store_streaming`): a plain store first reads the line it writes.  2D
#: Laplacian of 2 x 10^6 rows (16 MB of y), interleaved bench medians: csrmv 8.59 -> 8.12 ms, spmv
#: 6.68 -> 6.46 ms; the power-law graph's 8 MB gained nothing at 4 MiB.  Smaller outputs stay in
#: the caches for whatever reads them next.
STREAMING_Y_BYTES = 8 << 20


@njit(nogil=True, cache=True, inline="always")
def _prefetch_entries(val, col_ind, ahead, until, step):  # pragma: no cover - numba
    """Prefetch the entries ``ahead:until`` (values and columns, a cache line of the wider of the
    two arrays at a time); returns where the next call starts."""
    while ahead < until:
        prefetch(val, ahead)
        prefetch(col_ind, ahead)
        ahead += step
    return ahead


#: Rows at a block's start whose lengths csrmv looks at (read next anyway: a sample spread over
#: the block would cost a cache miss per probe).
SAMPLE_ROWS = 16


@njit(error_model="numpy", nogil=True, cache=True)
def even_rows(row_ptr, lo, hi):  # pragma: no cover - numba
    """True when the first ``SAMPLE_ROWS`` rows among ``lo:hi`` differ in length by at most two
    entries (a stencil, a banded matrix): rows worth advancing four at a time.  Rows of
    scattered lengths (power-law graphs) run one by one: four rows together would stop at the
    shortest and finish the others one by one, the changing trip counts mispredicted."""
    if hi - lo < 4:
        return False
    shortest = longest = row_ptr[lo + 1] - row_ptr[lo]
    for r in range(lo + 1, min(hi, lo + SAMPLE_ROWS)):
        length = row_ptr[r + 1] - row_ptr[r]
        shortest = min(shortest, length)
        longest = max(longest, length)
    return longest - shortest <= 2


@njit(nogil=True, cache=True, inline="always")
def _put_y(y, i, v, nt):  # pragma: no cover - numba
    # y[i] = v, as a streaming store when nt (csrmv_rows fences them).
    if nt:
        store_streaming(y, i, v)
    else:
        y[i] = v


@njit(error_model="numpy", nogil=True, cache=True)
def _rows_one_by_one(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt):  # pragma: no cover - numba
    """csrmv's rows ``i:hi`` one at a time, each in storage order, prefetching entries (a function
    of its own: the compiler then keeps this loop as tight as alone).  ``nt``: y is written with
    streaming stores.  (A copy of the loop for zero-based indices, as :func:`_rows_four_by_four`
    has, gained nothing measurable on the power-law graph and doubled the compile time.)

    A row's first two terms are always computed (from clamped positions) and each added when it
    is the row's (+0.0 when not: the sum starts at +0.0 and so is never -0.0, and adding +0.0
    changes nothing else), so rows of one or two entries, most of a power-law graph's, take no
    branch on their length: only longer rows loop, and mispredict their loop's end."""
    zero = np.zeros(1, y.dtype)[0]
    nnz_end = uintp(val.shape[0])
    last = nnz_end - uintp(1) if nnz_end > 0 else uintp(0)
    paired = nnz_end > 0
    step = 64 // max(val.itemsize, col_ind.itemsize)
    ahead = uintp(row_ptr[i] - base) + uintp(PREFETCH_AHEAD)
    while i < hi:
        j = uintp(row_ptr[i] - base)
        end = uintp(row_ptr[i + 1] - base)
        ahead = _prefetch_entries(val, col_ind, ahead, min(end + uintp(PREFETCH_AHEAD), nnz_end), uintp(step))
        s = zero
        if paired:
            j0, j1 = min(j, last), min(j + uintp(1), last)
            p0 = _entry(val, j0, conj) * x[uintp(col_ind[j0] - base)]
            p1 = _entry(val, j1, conj) * x[uintp(col_ind[j1] - base)]
            s = s + (p0 if j < end else zero)
            s = s + (p1 if j + uintp(1) < end else zero)
            j += uintp(2)
        while j < end:
            s += _entry(val, j, conj) * x[uintp(col_ind[j] - base)]
            j += uintp(1)
        _put_y(y, i, a * s if b == 0 else a * s + b * y[i], nt)
        i += 1


@njit(error_model="numpy", nogil=True, cache=True)
def _rows_four_by_four(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt):  # pragma: no cover - numba
    """csrmv's rows ``i:hi`` of even lengths four at a time (:func:`_four_rows`); the last up to
    three rows by :func:`_rows_one_by_one`, which sums the same way: each row in storage order.
    Zero-based indices get a copy of the loop with the base a constant: no subtraction per entry,
    and registers left for the four rows' pointers (with the subtractions, six were spilled and
    reloaded on every turn; 2D Laplacian 10.3 -> 9.4 ms)."""
    if base == 0:
        i = _four_rows(conj, a, b, val, row_ptr, col_ind, 0, x, y, i, hi, nt)
    else:
        i = _four_rows(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt)
    if i < hi:
        _rows_one_by_one(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt)


@njit(nogil=True, cache=True, inline="always")
def _four_rows(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt):  # pragma: no cover - numba
    """csrmv's rows from ``i`` four at a time while four remain before ``hi``, so that their four
    dependent chains of additions overlap (one row's chain alone waits on every addition), each
    in storage order, prefetching entries as :func:`_rows_one_by_one`; returns the first row not done."""
    zero = np.zeros(1, y.dtype)[0]
    nnz_end = uintp(val.shape[0])
    step = 64 // max(val.itemsize, col_ind.itemsize)
    ahead = uintp(row_ptr[i] - base) + uintp(PREFETCH_AHEAD)
    while i + 4 <= hi:
        # Unsigned indices: numba then skips its negative-index wraparound test on every access.
        j0, e0 = uintp(row_ptr[i] - base), uintp(row_ptr[i + 1] - base)
        j1, e1 = e0, uintp(row_ptr[i + 2] - base)
        j2, e2 = e1, uintp(row_ptr[i + 3] - base)
        j3, e3 = e2, uintp(row_ptr[i + 4] - base)
        ahead = _prefetch_entries(val, col_ind, ahead, min(e3 + uintp(PREFETCH_AHEAD), nnz_end), uintp(step))
        s0 = s1 = s2 = s3 = zero
        common = min(e0 - j0, e1 - j1, e2 - j2, e3 - j3)
        for t in range(common):
            s0 += _entry(val, j0 + t, conj) * x[uintp(col_ind[j0 + t] - base)]
            s1 += _entry(val, j1 + t, conj) * x[uintp(col_ind[j1 + t] - base)]
            s2 += _entry(val, j2 + t, conj) * x[uintp(col_ind[j2 + t] - base)]
            s3 += _entry(val, j3 + t, conj) * x[uintp(col_ind[j3 + t] - base)]
        for j in range(j0 + common, e0):
            s0 += _entry(val, j, conj) * x[uintp(col_ind[j] - base)]
        for j in range(j1 + common, e1):
            s1 += _entry(val, j, conj) * x[uintp(col_ind[j] - base)]
        for j in range(j2 + common, e2):
            s2 += _entry(val, j, conj) * x[uintp(col_ind[j] - base)]
        for j in range(j3 + common, e3):
            s3 += _entry(val, j, conj) * x[uintp(col_ind[j] - base)]
        if b == 0:
            _put_y(y, i, a * s0, nt)
            _put_y(y, i + 1, a * s1, nt)
            _put_y(y, i + 2, a * s2, nt)
            _put_y(y, i + 3, a * s3, nt)
        else:
            y[i] = a * s0 + b * y[i]
            y[i + 1] = a * s1 + b * y[i + 1]
            y[i + 2] = a * s2 + b * y[i + 2]
            y[i + 3] = a * s3 + b * y[i + 3]
        i += 4
    return i


@kernel(contiguous=True)
def csrmv_rows(conj, alpha, val, row_ptr, col_ind, base, x, beta, y, bounds, threads):  # pragma: no cover - numba
    """``y := alpha op(A) x + beta y`` for op = none (conj: conjugate A), the rows in
    ``len(bounds) - 1`` blocks shared by ``threads`` threads, each claiming the next block when
    done with one (:func:`rocmath.kernel.claim`: a slower thread takes fewer).  Each row sums its
    entries in storage order; blocks of rows of even lengths (:func:`even_rows`) advance four rows
    together (:func:`_rows_four_by_four`), the others row by row (:func:`_rows_one_by_one`).
    beta == 0 never reads y, and writes one of STREAMING_Y_BYTES or more around the caches.  A
    device-mode alpha == 0 with beta == 1 returns at once, as rocSPARSE's kernels (inf or NaN in A
    or x does not reach y)."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:
        return
    nt = b == 0 and y.shape[0] * y.itemsize >= STREAMING_Y_BYTES
    blocks = bounds.shape[0] - 1
    following = np.zeros(1, np.int64)
    for _thread in prange(threads):
        blk = claim(following, 1)
        while blk < blocks:
            i, hi = bounds[blk], bounds[blk + 1]
            if i < hi and even_rows(row_ptr, i, hi):
                _rows_four_by_four(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt)
            elif i < hi:
                _rows_one_by_one(conj, a, b, val, row_ptr, col_ind, base, x, y, i, hi, nt)
            blk = claim(following, 1)
        if nt:
            store_fence()  # the streaming stores land before the parallel region ends


@kernel(contiguous=True)
def csr_scatter(conj, skip_diag, val, row_ptr, col_ind, base, x, scratch):  # pragma: no cover - numba
    """``scratch[c] := sum over the rows i of chunk c of op(A[i, :]) * x[i]`` (A transposed, conj:
    conjugated; skip_diag leaves out the diagonal).  Chunks hold about equal numbers of entries."""
    nchunks = scratch.shape[0]
    m = row_ptr.shape[0] - 1
    nnz = row_ptr[m] - row_ptr[0]
    for c in prange(nchunks):
        lo = np.searchsorted(row_ptr, row_ptr[0] + (nnz * c) // nchunks)
        hi = np.searchsorted(row_ptr, row_ptr[0] + (nnz * (c + 1)) // nchunks) if c + 1 < nchunks else m
        lo = min(lo, m)
        hi = min(hi, m)
        acc = scratch[c]
        for k in range(acc.shape[0]):
            acc[k] = 0
        for i in range(lo, hi):
            xi = x[i]
            j = uintp(row_ptr[i] - base)
            end = uintp(row_ptr[i + 1] - base)
            while j < end:
                col = uintp(col_ind[j] - base)
                if not (skip_diag and col == i):
                    v = np.conj(val[j]) if conj else val[j]
                    acc[col] += v * xi
                j += uintp(1)


@kernel(contiguous=True)
def coo_scatter(transposed, conj, val, row_ind, col_ind, base, x, scratch):  # pragma: no cover - numba
    """``scratch[c] := op(A_c) x`` for the entries of chunk c (equal shares of the entries, any order;
    duplicates add up)."""
    nchunks = scratch.shape[0]
    nnz = val.shape[0]
    for c in prange(nchunks):
        lo = (nnz * c) // nchunks
        hi = (nnz * (c + 1)) // nchunks
        acc = scratch[c]
        for k in range(acc.shape[0]):
            acc[k] = 0
        if transposed:
            for j in range(lo, hi):
                v = np.conj(val[j]) if conj else val[j]
                acc[uintp(col_ind[j] - base)] += v * x[uintp(row_ind[j] - base)]
        else:
            for j in range(lo, hi):
                acc[uintp(row_ind[j] - base)] += val[j] * x[uintp(col_ind[j] - base)]


@kernel(contiguous=True)
def gather_chunks(alpha, scratch, beta, y):  # pragma: no cover - numba
    """``y := alpha sum_c scratch[c] + beta y``, the chunks added in order; beta == 0 never reads y.
    alpha == 0 (a device-mode one) never reads scratch: y := beta y, as rocSPARSE's scattered
    products, which scale y and then add nothing (inf or NaN in A or x does not reach y)."""
    a = alpha[0]
    b = beta[0]
    nchunks = scratch.shape[0]
    if a == 0:
        for k in prange(y.shape[0]):
            y[k] = 0 if b == 0 else b * y[k]
        return
    for k in prange(y.shape[0]):
        s = scratch[0, k]
        for c in range(1, nchunks):
            s += scratch[c, k]
        if b == 0:
            y[k] = a * s
        else:
            y[k] = a * s + b * y[k]


# --- SpMM ---------------------------------------------------------------------------------------

#: csrmm on C of at least PANEL columns runs panels of PANEL columns in registers, two per pass (csrmm_panels).
PANEL = 8
_PANELS = (0,) * (2 * PANEL)  # the shape of csrmm_panels' accumulators (rocmath.kernel.stack_array)


@njit(nogil=True, cache=True, inline="always")
def _csrmm_block(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, lo, hi, acc):  # pragma: no cover
    """csrmm's rows ``lo:hi``, each accumulated in ``acc`` (a private vector of C's width)."""
    ncols = uintp(C.shape[1])
    for i in range(lo, hi):
        for jj in range(ncols):
            acc[jj] = 0
        for j in range(uintp(row_ptr[i] - base), uintp(row_ptr[i + 1] - base)):
            v = np.conj(val[j]) if conj_a else val[j]
            r = uintp(col_ind[j] - base)
            if conj_b:
                for jj in range(ncols):
                    acc[jj] += v * np.conj(B[r, jj])
            else:
                for jj in range(ncols):
                    acc[jj] += v * B[r, jj]
        if b == 0:
            for jj in range(ncols):
                C[i, jj] = a * acc[jj]
        else:
            for jj in range(ncols):
                C[i, jj] = a * acc[jj] + b * C[i, jj]


@njit(nogil=True, cache=True, inline="always")
def _bv(B, r, c, conj):  # pragma: no cover - numba
    """``B[r, c]``, conjugated if ``conj``."""
    v = B[r, c]
    return np.conj(v) if conj else v


@njit(nogil=True, cache=True, inline="always")
def _put(C, i, c, s, a, b, store):  # pragma: no cover - numba
    """``C[i, c] := a s + b C[i, c]`` if ``store`` (b == 0: C not read)."""
    if store:
        C[i, c] = a * s if b == 0 else a * s + b * C[i, c]


@njit(nogil=True, cache=True, inline="always")
def _csrmm_pass(P, conj_a, conj_b, a, b, val, col_ind, base, B, C, i, j0, j1, q, last, acc):  # pragma: no cover
    """Row i's columns from ``q`` in ``P`` (a constant) panels of eight, in one pass over its
    entries ``j0:j1``, the 8 P sums in ``acc`` (registers: a stack array, the loops unrolled).
    Panel t starts at column min(q + 8 t, last): a panel past the last multiple of eight ends at
    the last column, overlapping the one before, and stores only the columns that one did not,
    so no row of B is read past its end."""
    for e in range(PANEL * P):
        acc[e] = 0
    for j in range(j0, j1):
        v = np.conj(val[j]) if conj_a else val[j]
        r = uintp(col_ind[j] - base)
        for t in range(P):
            p = min(q + uintp(PANEL * t), last)
            for e in range(PANEL):
                acc[PANEL * t + e] += v * _bv(B, r, p + uintp(e), conj_b)
    for t in range(P):
        p = min(q + uintp(PANEL * t), last)
        for e in range(PANEL):
            _put(C, i, p + uintp(e), acc[PANEL * t + e], a, b, p + uintp(e) >= q + uintp(PANEL * t))


@njit(nogil=True, cache=True, inline="always")
def _csrmm_panels(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, lo, hi, acc):  # pragma: no cover
    """csrmm's rows ``lo:hi`` of a C at least eight columns wide, sixteen columns per pass over a row's
    entries (:func:`_csrmm_pass`; eight for the last up to eight).  Each entry of C adds its terms in
    the same order as :func:`_csrmm_block`."""
    ncols = uintp(C.shape[1])
    last = ncols - uintp(PANEL)
    for i in range(lo, hi):
        j0 = uintp(row_ptr[i] - base)
        j1 = uintp(row_ptr[i + 1] - base)
        q = uintp(0)
        while q + uintp(PANEL) < ncols:
            _csrmm_pass(2, conj_a, conj_b, a, b, val, col_ind, base, B, C, i, j0, j1, q, last, acc)
            q += uintp(2 * PANEL)
        if q < ncols:
            _csrmm_pass(1, conj_a, conj_b, a, b, val, col_ind, base, B, C, i, j0, j1, q, last, acc)


@chunk
def _csrmm_rows_thread(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, bounds, following):  # pragma: no cover
    """One thread of :func:`csrmm_rows`: claims row blocks until none is left."""
    blocks = bounds.shape[0] - 1
    acc = np.zeros(C.shape[1], C.dtype)
    blk = claim(following, 1)
    while blk < blocks:
        _csrmm_block(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, uintp(bounds[blk]),
                     uintp(bounds[blk + 1]), acc)
        blk = claim(following, 1)


@chunk
def _csrmm_panels_thread(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, bounds,
                         following):  # pragma: no cover
    """One thread of :func:`csrmm_panels` (its accumulators on this function's stack)."""
    blocks = bounds.shape[0] - 1
    acc = stack_array(_PANELS, C.dtype)
    blk = claim(following, 1)
    while blk < blocks:
        _csrmm_panels(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, uintp(bounds[blk]),
                      uintp(bounds[blk + 1]), acc)
        blk = claim(following, 1)


@kernel(contiguous=True)
def csrmm_rows(conj_a, conj_b, alpha, val, row_ptr, col_ind, base, B, beta, C, bounds, threads):  # pragma: no cover
    """``C := alpha op(A) B + beta C`` (op = none or conjugate), B and C 2-D views indexed [row, column],
    one row of C at a time accumulated in a private vector; the row blocks of ``bounds`` shared by
    ``threads`` threads, each claiming the next when done with one (as :func:`csrmv_rows`).  beta == 0
    never reads C.  Row-major B and C keep their C layout (``contiguous``), so the loops over the
    columns vectorize."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:  # device-mode alpha 0, beta 1: C as it was (see csrmv_rows)
        return
    following = np.zeros(1, np.int64)
    for _thread in prange(threads):
        _csrmm_rows_thread(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, bounds, following)


@kernel(contiguous=True, slp=True)
def csrmm_panels(conj_a, conj_b, alpha, val, row_ptr, col_ind, base, B, beta, C, bounds, threads):  # pragma: no cover
    """:func:`csrmm_rows` for a C of at least eight columns (:func:`csrmm_kernel`), bit for bit the
    same, sixteen columns per pass over a row's entries in registers (:func:`_csrmm_panels`).  The SLP
    vectorizer turns the sums into vector code: without it the scalar code held fewer B rows in
    flight than the accumulator vector and ran the power-law graph 7-14 % slower in the bench."""
    a = alpha[0]
    b = beta[0]
    if a == 0 and b == 1:  # device-mode alpha 0, beta 1: C as it was (see csrmv_rows)
        return
    following = np.zeros(1, np.int64)
    for _thread in prange(threads):
        _csrmm_panels_thread(conj_a, conj_b, a, b, val, row_ptr, col_ind, base, B, C, bounds, following)


def csrmm_kernel(ncols: int) -> Any:
    """The csrmm row kernel for a C of ``ncols`` columns: :func:`csrmm_panels` from eight columns on,
    else :func:`csrmm_rows`.  Measured against each other in one process between scipy products
    (which evict the caches, as in the bench), f64, 1M-nonzero 2D Laplacian / power-law graph, ms:
    8 columns 2.59 -> 1.85 / 3.68 -> 2.94, 9 3.93 -> 2.24 / 4.08 -> 3.19, 13 3.88 -> 2.39 / 4.37 ->
    3.70, 16 2.97 -> 2.69 / 5.07 -> 4.66, 27 5.23 -> 4.51 / 16.2 -> 13.6, 63 11.4 -> 10.0 / 41.0 ->
    37.2.  Passes of four panels (32 columns) spilled: 20-40 % slower than two."""
    return csrmm_panels if ncols >= PANEL else csrmm_rows


@kernel
def csrmm_scatter(conj_a, conj_b, val, row_ptr, col_ind, base, B, scratch):  # pragma: no cover - numba
    """``scratch[c] := op(A_c)^T B_c`` over the rows of chunk c (equal shares of the entries)."""
    nchunks = scratch.shape[0]
    m = row_ptr.shape[0] - 1
    nnz = row_ptr[m] - row_ptr[0]
    ncols = scratch.shape[2]
    for c in prange(nchunks):
        lo = min(np.searchsorted(row_ptr, row_ptr[0] + (nnz * c) // nchunks), m)
        hi = min(np.searchsorted(row_ptr, row_ptr[0] + (nnz * (c + 1)) // nchunks), m) if c + 1 < nchunks else m
        acc = scratch[c]
        for k in range(acc.shape[0]):
            for jj in range(ncols):
                acc[k, jj] = 0
        for i in range(lo, hi):
            for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
                v = np.conj(val[j]) if conj_a else val[j]
                col = col_ind[j] - base
                for jj in range(ncols):
                    bij = np.conj(B[i, jj]) if conj_b else B[i, jj]
                    acc[col, jj] += v * bij


@kernel
def gather_chunks2d(alpha, scratch, beta, C):  # pragma: no cover - numba
    """``C := alpha sum_c scratch[c] + beta C``, chunks added in order; beta == 0 never reads C;
    alpha == 0 never reads scratch (see :func:`gather_chunks`)."""
    a = alpha[0]
    b = beta[0]
    if a == 0:
        for k in prange(C.shape[0]):
            for jj in range(C.shape[1]):
                C[k, jj] = 0 if b == 0 else b * C[k, jj]
        return
    for k in prange(C.shape[0]):
        for jj in range(C.shape[1]):
            s = scratch[0, k, jj]
            for c in range(1, scratch.shape[0]):
                s += scratch[c, k, jj]
            C[k, jj] = a * s if b == 0 else a * s + b * C[k, jj]


# --- conversions --------------------------------------------------------------------------------


@kernel(contiguous=True)
def csr_to_coo_rows(row_ptr, base, coo_row):  # pragma: no cover - numba
    m = row_ptr.shape[0] - 1
    for i in prange(m):
        for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
            coo_row[j] = i + base


@kernel(contiguous=True)
def coo_rows_to_ptr(coo_row, base, row_ptr):  # pragma: no cover - numba
    """Row pointer of row-sorted COO row indices (a binary search per row)."""
    m = row_ptr.shape[0] - 1
    for i in prange(m + 1):
        row_ptr[i] = np.searchsorted(coo_row, i + base) + base


#: csr_transpose runs in parallel past BUCKETED_KEYS columns, through buckets of columns
#: (:mod:`._kernels_conv`) when its entries also lie mostly far from the diagonal (:func:`_scattered`).
#: The bench's csr2csc at 10^7 entries: Laplacian 39.7 -> 26.8-31.5 ms, power-law graph 195 -> 124-127 ms.
#: Row chunks of about equal entries a parallel transpose splits the rows in.
TRANSPOSE_CHUNKS = 2
#: Rows :func:`_scattered` samples.
SCATTER_SAMPLE_ROWS = 1024


@njit(error_model="numpy", nogil=True, cache=True)
def _row_chunks(row_ptr, chunks):  # pragma: no cover - numba
    """First rows of ``chunks`` row ranges of about equal entries, then the row count."""
    m = row_ptr.shape[0] - 1
    nnz = row_ptr[m] - row_ptr[0]
    lo = np.empty(chunks + 1, np.int64)
    for t in range(chunks):
        lo[t] = np.searchsorted(row_ptr, row_ptr[0] + (nnz * t) // chunks)
    lo[chunks] = m
    for t in range(1, chunks + 1):
        lo[t] = min(max(lo[t], lo[t - 1]), m)
    return lo


@njit(error_model="numpy", nogil=True, cache=True)
def _scattered(row_ptr, col_ind, base, n, width):  # pragma: no cover - numba
    """Whether most entries of :data:`SCATTER_SAMPLE_ROWS` rows spread evenly are farther than
    ``width`` columns from the row's place on the diagonal (row i's at column i * n / m)."""
    m = row_ptr.shape[0] - 1
    far = near = 0
    for k in range(min(m, SCATTER_SAMPLE_ROWS)):
        i = (k * m) // min(m, SCATTER_SAMPLE_ROWS)
        diag = (i * n) // m
        for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
            if abs(col_ind[j] - base - diag) > width:
                far += 1
            else:
                near += 1
    return far > near


@kernel(contiguous=True)
def csr_transpose(copy_values, val, row_ptr, col_ind, base, t_val, t_ind, t_ptr, bucket_bytes):  # pragma: no cover
    """CSR to CSC (a stable counting sort: row indices ascending within each column).  Past
    :data:`BUCKETED_KEYS` columns (up to them, in one chunk), row chunks of about equal entries count and
    place their entries in parallel (each chunk's entries after the previous chunks' in every column); scattered entries
    first go to buckets of columns (one place per bucket), each bucket then sorted by column on its
    own thread, in cache, straight into the output, when they take more than ``bucket_bytes`` (callers
    pass :data:`BUCKETED_BYTES`).  Every way gives the stable sort's result."""
    m = row_ptr.shape[0] - 1
    n = t_ptr.shape[0] - 1
    nnz = row_ptr[m] - row_ptr[0]
    chunks = TRANSPOSE_CHUNKS if n > BUCKETED_KEYS else 1
    lo = _row_chunks(row_ptr, chunks)
    shift = BUCKET_SHIFT
    words = t_val.size // t_val.shape[0] if copy_values and t_val.shape[0] else 0  # (rows of words: blocks)
    entry_bytes = nnz * (2 * col_ind.itemsize + words * t_val.itemsize)
    if n <= BUCKETED_KEYS or entry_bytes <= bucket_bytes or not _scattered(row_ptr, col_ind, base, n, 1 << shift):
        counts = np.zeros((chunks, n), t_ptr.dtype)  # (the index type holds every slot)
        for t in prange(chunks):
            for j in range(row_ptr[lo[t]] - base, row_ptr[lo[t + 1]] - base):
                counts[t, col_ind[j] - base] += 1
        chunk_slots(counts, t_ptr)
        for t in prange(chunks):
            for i in range(lo[t], lo[t + 1]):
                for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
                    col = col_ind[j] - base
                    dst = counts[t, col]
                    counts[t, col] = dst + 1
                    t_ind[dst] = i + base
                    if copy_values:
                        t_val[dst] = val[j]
        if base:
            for k in prange(n + 1):
                t_ptr[k] += base
        return
    buckets = ((n - 1) >> shift) + 1
    counts = np.zeros((chunks, buckets), np.int64)
    for t in prange(chunks):
        for j in range(row_ptr[lo[t]] - base, row_ptr[lo[t + 1]] - base):
            counts[t, (col_ind[j] - base) >> shift] += 1
    first = np.empty(buckets + 1, np.int64)
    chunk_slots(counts, first)
    b_row = np.empty(nnz, col_ind.dtype)
    b_col = np.empty(nnz, col_ind.dtype)
    b_val = np.empty_like(val[:nnz] if copy_values else val[:0])  # (a block format's values: rows of words)
    for t in prange(chunks):
        for i in range(lo[t], lo[t + 1]):
            for j in range(row_ptr[i] - base, row_ptr[i + 1] - base):
                col = col_ind[j] - base
                b = col >> shift
                dst = counts[t, b]
                counts[t, b] = dst + 1
                b_row[dst] = i
                b_col[dst] = col
                if copy_values:
                    b_val[dst] = val[j]
    for b in prange(buckets):
        c0 = b << shift
        cols = min(n, c0 + (1 << shift)) - c0
        e0, e1 = first[b], first[b + 1]
        slot = bucket_slots(b_col, e0, e1, c0, cols)
        for k in range(cols):
            t_ptr[c0 + k] = slot[k] + base
        for q in range(e0, e1):
            k = b_col[q] - c0
            dst = slot[k]
            slot[k] = dst + 1
            t_ind[dst] = b_row[q] + base
            if copy_values:
                t_val[dst] = b_val[q]
    t_ptr[n] = nnz + base


@kernel(contiguous=True)
def identity(p):  # pragma: no cover - numba
    for i in prange(p.shape[0]):
        p[i] = i
