"""numba kernels of the array layer (:mod:`rocmath.sparse._matrix`): what its conversions need
beyond rocSPARSE's own routines.  They check nothing; the layer built their arguments."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

from ._kernels_conv import _sort_segment, chunk_slots

#: The row count splits the entries in this many chunks, each with a count per row (the output
#: of a stable sort is unique: it never depends on them).
CHUNKS = 2


@njit(nogil=True, cache=True)
def _sort_and_merge(col, val, lo, hi):  # pragma: no cover - numba
    """Sort ``col[lo:hi]`` (stable, ``val`` alongside), then merge runs of one column at the front,
    each value the sum of its run's values left to right; returns the count of merged entries."""
    _sort_segment(col, val, lo, hi)
    w = lo
    for q in range(lo + 1, hi):
        if col[q] == col[w]:
            val[w] += val[q]
        else:
            w += 1
            col[w] = col[q]
            val[w] = val[q]
    return w + 1 - lo if hi > lo else 0


@kernel
def group_rows(row, col, val, ptr, grouped, g_col, g_val):  # pragma: no cover - numba
    """First stage of COO to canonical CSR.  The entries are grouped by row (a stable counting
    sort: ``grouped[i]`` the first slot of row i), each row's columns sorted (stable, values
    alongside) and runs of one column merged at the front of the row's slots (each sum left to
    right, in storage order, starting from the first: a lone -0.0 stays -0.0).  ``ptr`` receives
    the canonical row offsets; :func:`compact_rows` then packs the rows."""
    nnz = row.shape[0]
    m = ptr.shape[0] - 1
    per = (nnz + CHUNKS - 1) // CHUNKS
    counts = np.zeros((CHUNKS, m), np.int64)
    for t in prange(CHUNKS):
        for q in range(t * per, min(nnz, (t + 1) * per)):
            counts[t, row[q]] += 1
    chunk_slots(counts, grouped)
    for t in prange(CHUNKS):
        for q in range(t * per, min(nnz, (t + 1) * per)):
            i = row[q]
            d = counts[t, i]
            g_col[d] = col[q]
            g_val[d] = val[q]
            counts[t, i] = d + 1
    merged = np.empty(m, np.int64)
    for i in prange(m):
        merged[i] = _sort_and_merge(g_col, g_val, grouped[i], grouped[i + 1])
    ptr[0] = 0
    for i in range(m):
        ptr[i + 1] = ptr[i] + merged[i]


@kernel
def compact_rows(grouped, g_col, g_val, ptr, col, val):  # pragma: no cover - numba
    """Second stage of COO to canonical CSR (:func:`group_rows`): each row's merged entries packed
    into ``col`` and ``val`` at ``ptr``."""
    for i in prange(ptr.shape[0] - 1):
        src = grouped[i]
        for q in range(ptr[i], ptr[i + 1]):
            col[q] = g_col[src]
            val[q] = g_val[src]
            src += 1


@kernel(contiguous=True)
def cast(src, dst):  # pragma: no cover - numba
    """``dst := src`` converted to ``dst``'s type (to a complex type, or from a real one)."""
    for i in prange(src.shape[0]):
        dst[i] = src[i]


@kernel(contiguous=True)
def cast_real(src, dst):  # pragma: no cover - numba
    """``dst := src.real`` for a real ``dst`` (numpy's ``astype`` of complex values keeps their real part)."""
    for i in prange(src.shape[0]):
        dst[i] = src[i].real


@kernel(contiguous=True)
def conjugate(src, dst):  # pragma: no cover - numba
    """``dst := conj(src)``."""
    for i in prange(src.shape[0]):
        dst[i] = np.conj(src[i])


@kernel(contiguous=True)
def gather(src, perm, dst):  # pragma: no cover - numba
    """``dst[k] := src[perm[k]]``."""
    for q in prange(dst.shape[0]):
        dst[q] = src[perm[q]]


@kernel(contiguous=True)
def segments_sorted(ptr, ind, strict, out):  # pragma: no cover - numba
    """``out[0] := 1`` when the indices of every segment ``ind[ptr[i]:ptr[i + 1]]`` increase (strictly
    when ``strict``: no duplicates either), else 0."""
    m = ptr.shape[0] - 1
    bad = np.zeros(m, np.int8)
    for i in prange(m):
        for q in range(ptr[i] + 1, ptr[i + 1]):
            if ind[q] < ind[q - 1] or (strict and ind[q] == ind[q - 1]):
                bad[i] = 1
                break
    out[0] = 0 if m and bad.max() else 1
