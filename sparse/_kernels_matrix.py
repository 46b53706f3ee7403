"""numba kernels of the array layer (:mod:`rocmath.sparse._matrix`): what its conversions need
beyond rocSPARSE's own routines.  They check nothing; the layer built their arguments."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel

from ._kernels_conv import _sort_segment, bucket_slots, chunk_slots

#: The row count splits the entries in this many chunks, each with a count per row (the output
#: of a stable sort is unique: it never depends on them).
CHUNKS = 2


@njit(error_model="numpy", nogil=True, cache=True)
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


@njit(error_model="numpy", nogil=True, cache=True)
def _offsets(counts, ptr):  # pragma: no cover - numba
    """``ptr := [0, cumulative sums of counts]``: row offsets from row counts."""
    ptr[0] = 0
    for i in range(counts.shape[0]):
        ptr[i + 1] = ptr[i] + counts[i]


@kernel
def group_rows(row, col, val, ptr, grouped, g_col, g_val, shift):  # pragma: no cover - numba
    """First stage of COO to canonical CSR.  The entries are grouped by row (a stable counting
    sort: ``grouped[i]`` the first slot of row i), each row's columns sorted (stable, values
    alongside) and runs of one column merged at the front of the row's slots (each sum left to
    right, in storage order, starting from the first: a lone -0.0 stays -0.0).  ``ptr`` receives
    the canonical row offsets; :func:`compact_rows` then packs the rows.

    Rows come in buckets of ``1 << shift`` (:func:`~._kernels_conv.bucket_shift`): with more than one
    bucket, the entries are first grouped by bucket (a stable counting sort whose writes go to one place
    per bucket), then each bucket, on its own thread and in cache, by row.  Both orders are the stable
    sort's, whose result is unique: the shift never changes the output."""
    nnz = row.shape[0]
    m = ptr.shape[0] - 1
    merged = np.empty(m, np.int64)
    buckets = ((m - 1) >> shift) + 1 if m > 0 else 1
    per = (nnz + CHUNKS - 1) // CHUNKS
    if buckets == 1:
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
        for i in prange(m):
            merged[i] = _sort_and_merge(g_col, g_val, grouped[i], grouped[i + 1])
        _offsets(merged, ptr)
        return
    # Pass 1: the entries grouped by bucket, each entry's row alongside (in b_row).
    counts = np.zeros((CHUNKS, buckets), np.int64)
    for t in prange(CHUNKS):
        for q in range(t * per, min(nnz, (t + 1) * per)):
            counts[t, row[q] >> shift] += 1
    first = np.empty(buckets + 1, np.int64)
    chunk_slots(counts, first)
    b_row = np.empty(nnz, row.dtype)
    for t in prange(CHUNKS):
        for q in range(t * per, min(nnz, (t + 1) * per)):
            r = row[q]
            b = r >> shift
            d = counts[t, b]
            b_row[d] = r
            g_col[d] = col[q]
            g_val[d] = val[q]
            counts[t, b] = d + 1
    # Pass 2, per bucket: its entries grouped by row through scratch, then each row sorted and merged.
    for b in prange(buckets):
        e0, e1 = first[b], first[b + 1]
        r0 = b << shift
        rows = min(m, r0 + (1 << shift)) - r0
        slot = bucket_slots(b_row, e0, e1, r0, rows)
        for i in range(rows):
            grouped[r0 + i] = slot[i]
        s_col = np.empty(e1 - e0, g_col.dtype)
        s_val = np.empty(e1 - e0, g_val.dtype)
        for q in range(e0, e1):
            i = b_row[q] - r0
            d = slot[i] - e0
            s_col[d] = g_col[q]
            s_val[d] = g_val[q]
            slot[i] += 1
        g_col[e0:e1] = s_col
        g_val[e0:e1] = s_val
        for i in range(rows):  # (the next bucket's first slot is e1: its thread may not have written it yet)
            end = grouped[r0 + i + 1] if i + 1 < rows else e1
            merged[r0 + i] = _sort_and_merge(g_col, g_val, grouped[r0 + i], end)
    grouped[m] = nnz
    _offsets(merged, ptr)


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


# --- the array layer's reductions, elementwise maps and constructors ------------------------------

#: A reduction over a whole value array (a COO matrix's entries, a matrix's sum) splits it in this
#: many consecutive slices: fixed, so that its bits never depend on the thread count.
SPLITS = 64


@kernel
def keep_nonzero(ptr, val, kept, pos, fill):  # pragma: no cover - numba
    """The nonzero values of each segment ``val[ptr[i]:ptr[i + 1]]`` (NaN is nonzero).  First pass
    (``fill`` false): ``kept`` receives their offsets (``kept[i + 1] - kept[i]`` of them in segment
    i).  Second pass: ``pos[kept[i]:kept[i + 1]]`` receives their positions, in storage order."""
    m = ptr.shape[0] - 1
    if not fill:
        counts = np.empty(m, np.int64)
        for i in prange(m):
            c = 0
            for q in range(ptr[i], ptr[i + 1]):
                if val[q] != 0:
                    c += 1
            counts[i] = c
        _offsets(counts, kept)
    else:
        for i in prange(m):
            w = kept[i]
            for q in range(ptr[i], ptr[i + 1]):
                if val[q] != 0:
                    pos[w] = q
                    w += 1


@kernel
def segment_sums(ptr, val, out):  # pragma: no cover - numba
    """``out[i] := sum of val[ptr[i]:ptr[i + 1]]``, left to right from zero (an empty segment: 0)."""
    for i in prange(out.shape[0]):
        out[i] = 0
        for q in range(ptr[i], ptr[i + 1]):
            out[i] += val[q]


@kernel
def csr_diagonal(ptr, ind, val, k, out):  # pragma: no cover - numba
    """``out[t] := A[i, i + k]`` for the rows ``i = t + max(0, -k)`` of a CSR matrix: the sum of the
    row's entries in that column (duplicates included, in storage order from zero; none: 0)."""
    first = -k if k < 0 else 0
    for t in prange(out.shape[0]):
        i = first + t
        j = i + k
        out[t] = 0
        for q in range(ptr[i], ptr[i + 1]):
            if ind[q] == j:
                out[t] += val[q]


@kernel
def intersect(a_ptr, a_ind, a_val, b_ptr, b_ind, b_val, ptr, ind, val, fill):  # pragma: no cover - numba
    """The elementwise product of two CSR matrices of sorted rows without duplicates: the products
    of the positions both store, those that are nonzero (scipy's).  First pass (``fill`` false):
    ``ptr`` receives the row offsets; second pass: ``ind`` and ``val`` the entries, rows sorted."""
    m = ptr.shape[0] - 1
    counts = np.empty(0 if fill else m, np.int64)
    for i in prange(m):
        p, p_end, q, q_end = a_ptr[i], a_ptr[i + 1], b_ptr[i], b_ptr[i + 1]
        w = ptr[i] if fill else 0
        while p < p_end and q < q_end:
            if a_ind[p] < b_ind[q]:
                p += 1
            elif b_ind[q] < a_ind[p]:
                q += 1
            else:
                v = a_val[p] * b_val[q]
                if v != 0:
                    if fill:
                        ind[w] = a_ind[p]
                        val[w] = v
                    w += 1
                p += 1
                q += 1
        if not fill:
            counts[i] = w
    if not fill:
        _offsets(counts, ptr)


@kernel
def diagonals_csr(offsets, starts, strides, vals, n, ptr, ind, val, fill):  # pragma: no cover - numba
    """A CSR matrix of ``ptr.shape[0] - 1`` rows and ``n`` columns from diagonals, ``offsets``
    increasing: element t of diagonal j (at row ``t + max(0, -offsets[j])``) is
    ``vals[starts[j] + strides[j] t]`` (a stride 0 repeats one value); zeros are left out (scipy's
    DIA conversions drop them).  First pass (``fill`` false): ``ptr``; second pass: ``ind`` and
    ``val``, each row's columns increasing."""
    m = ptr.shape[0] - 1
    d = offsets.shape[0]
    counts = np.empty(0 if fill else m, np.int64)
    for i in prange(m):
        w = ptr[i] if fill else 0
        for j in range(d):
            off = offsets[j]
            col = i + off
            if 0 <= col < n:
                v = vals[starts[j] + strides[j] * (i + off if off < 0 else i)]
                if v != 0:
                    if fill:
                        ind[w] = col
                        val[w] = v
                    w += 1
        if not fill:
            counts[i] = w
    if not fill:
        _offsets(counts, ptr)


# --- elementwise maps of the values: numpy's ufuncs ----------------------------------------------------
# astype, conj, scaling, abs, imag and power run numpy's own ufuncs on the device views (as
# DeviceArray.copy runs np.copyto): bitwise numpy's values, which scipy's methods give (complex
# powers included), and no numba compile per pair of value types.  They are memory bound.  As a
# device's kernels they raise no floating-point warnings (overflow, 0 ** -1: the IEEE values stay).


def converted(src: np.ndarray, dst: np.ndarray) -> None:
    """``dst := src`` in ``dst``'s type (numpy's ``astype``: complex to real keeps the real part)."""
    with np.errstate(all="ignore"):
        np.copyto(dst, src.real if src.dtype.kind == "c" and dst.dtype.kind != "c" else src, casting="unsafe")


def conjugated(src: np.ndarray, dst: np.ndarray) -> None:
    """``dst := conj(src)``."""
    np.conjugate(src, out=dst)


def scaled(src: np.ndarray, s: Any, dst: np.ndarray) -> None:
    """``dst := src s`` (``s`` of ``dst``'s type)."""
    with np.errstate(all="ignore"):
        np.multiply(src, s, out=dst)


def absolute(src: np.ndarray, dst: np.ndarray) -> None:
    """``dst := |src|`` (of complex values: their modulus, real)."""
    with np.errstate(all="ignore"):
        np.absolute(src, out=dst)


def imaginary(src: np.ndarray, dst: np.ndarray) -> None:
    """``dst := src.imag`` (of real values: zeros)."""
    np.copyto(dst, src.imag)


def powered(src: np.ndarray, n: Any, dst: np.ndarray) -> None:
    """``dst := src ** n`` as numpy's ``data ** n`` (``dst`` of its result type)."""
    with np.errstate(all="ignore"):
        np.power(src, n, out=dst)
