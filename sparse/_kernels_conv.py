"""numba kernels of the dense <-> sparse conversions and the index sorts (:mod:`._conversion2`).

They check nothing: the routines validated everything.  Dense matrices arrive as 2-D views
indexed ``[row, column]`` of the rows being compressed (the transposed view for the
column-oriented CSC routines), so one kernel serves both directions.  Results are
deterministic: counts are integers, every row of a view is written by one thread in
storage order, scatters with duplicate coordinates keep the last entry in storage order,
and the sorts are stable (ties keep their input order, as rocPRIM's radix sorts).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rocmath.kernel import kernel


@kernel
def count_rows(A, counts, total):  # pragma: no cover - numba
    """``counts[i]``: the nonzeros (``!= 0``, so NaN counts) of row ``i`` of the view; ``total[0]`` their sum."""
    m, n = A.shape
    for i in prange(m):
        c = 0
        for j in range(n):
            if A[i, j] != 0:
                c += 1
        counts[i] = c
    s = 0
    for i in range(m):
        s += counts[i]
    total[0] = s


@kernel(parallel=False, contiguous=True)
def counts_to_ptr(counts, base, ptr, total):  # pragma: no cover - numba
    """``ptr := base + [0, cumsum(counts)]``; ``total[0]`` the number of entries it spans."""
    m = counts.shape[0]
    s = 0
    ptr[0] = base
    for i in range(m):
        s += counts[i]
        ptr[i + 1] = s + base
    total[0] = s


@kernel
def dense_to_compressed(A, base, ptr, val, ind):  # pragma: no cover - numba
    """Row ``i`` of the view into ``val``/``ind`` from ``ptr[i] - base`` on, columns ascending; at most
    ``ptr[i + 1] - ptr[i]`` entries are written (the extent the caller's counts declared)."""
    m, n = A.shape
    for i in prange(m):
        dst = ptr[i] - base
        end = ptr[i + 1] - base
        for j in range(n):
            if dst >= end:
                break
            v = A[i, j]
            if v != 0:
                val[dst] = v
                ind[dst] = j + base
                dst += 1


@kernel
def compressed_to_dense(ptr, ind, base, val, A):  # pragma: no cover - numba
    """Row ``i`` of the view := zeros, then its CSR entries (a duplicate column keeps the last one)."""
    m, n = A.shape
    for i in prange(m):
        for j in range(n):
            A[i, j] = 0
        for k in range(ptr[i] - base, ptr[i + 1] - base):
            A[i, ind[k] - base] = val[k]


@kernel
def zero2d(A):  # pragma: no cover - numba
    """``A := 0`` for a 2-D view (its padding is not touched)."""
    m, n = A.shape
    for j in prange(n):
        for i in range(m):
            A[i, j] = 0


@kernel(parallel=False)
def coo_scatter_dense(row, col, base, val, A):  # pragma: no cover - numba
    """``A[row[k], col[k]] := val[k]`` in storage order (a duplicate keeps the last entry)."""
    for k in range(val.shape[0]):
        A[row[k] - base, col[k] - base] = val[k]


@kernel
def sort_segments(ptr, base, ind, with_perm, perm):  # pragma: no cover - numba
    """Stable sort of ``ind`` within each segment ``[ptr[i] - base, ptr[i + 1] - base)``, ``perm``
    (when ``with_perm``) permuted alongside."""
    m = ptr.shape[0] - 1
    for i in prange(m):
        a = ptr[i] - base
        b = ptr[i + 1] - base
        if b - a < 2:
            continue
        keys = ind[a:b].copy()
        order = np.argsort(keys, kind="mergesort")
        for t in range(b - a):
            ind[a + t] = keys[order[t]]
        if with_perm:
            p = perm[a:b].copy()
            for t in range(b - a):
                perm[a + t] = p[order[t]]


#: sort_pairs' counting sort splits the entries in this many chunks, each with a count per key
#: (the output of a stable sort is unique: it never depends on them).
SORT_CHUNKS = 2

#: Segments up to this long are sorted by insertion, longer ones by a merge sort.
INSERTION_SORT_MAX = 48


@njit(error_model="numpy", nogil=True, cache=True)
def _sort_pairs_by_comparison(major, minor):  # pragma: no cover - numba
    """The order of a stable sort of the pairs ``(major, minor)`` (two merge sorts)."""
    nnz = major.shape[0]
    o1 = np.argsort(minor, kind="mergesort")
    keys = np.empty(nnz, major.dtype)
    for t in range(nnz):
        keys[t] = major[o1[t]]
    o2 = np.argsort(keys, kind="mergesort")
    order = np.empty(nnz, np.int64)
    for t in range(nnz):
        order[t] = o1[o2[t]]
    return order


@njit(error_model="numpy", nogil=True, cache=True)
def chunk_slots(counts, ptr):  # pragma: no cover - numba
    """The slots of a stable counting sort whose entries are split in chunks: ``counts[t, v]`` (the
    entries of key v in chunk t) becomes the first slot of those entries (keys in order, then
    chunks); ``ptr[v]`` the first slot of key v, ``ptr[-1]`` the entry count."""
    start = 0
    for v in range(counts.shape[1]):
        ptr[v] = start
        for t in range(counts.shape[0]):
            c = counts[t, v]
            counts[t, v] = start
            start += c
    ptr[counts.shape[1]] = start


#: The two-pass counting sorts (COO to CSR's rows, csr_transpose's columns): past BUCKETED_KEYS keys and
#: BUCKETED_BYTES of entries, a counting sort straight to the keys scatters every entry to a random cache
#: line of the output (and of the chunks' counts), which then no longer fit the caches; the entries go to
#: buckets of ``1 << BUCKET_SHIFT`` keys first (one write position per bucket), each bucket then sorted on
#: its own thread, in cache.  Kernel times, direct / bucketed: COO to CSR of 10^7 entries on 10^6 rows 250
#: / 197 ms, even at 3 x 10^6 (48 MB), 1.2x slower at 10^6; the power-law graph's transpose (two row
#: chunks / buckets) 150 / 108 ms at 10^7 entries, 22 / 18 ms at 3 x 10^6, 3.9 / 6.3 ms at 10^6.
BUCKET_SHIFT = 11
BUCKETED_KEYS = 1 << 16
BUCKETED_BYTES = 48 << 20
#: A shift that puts every key in one bucket.
ONE_BUCKET = 62


def bucket_shift(keys: int, entry_bytes: int) -> int:
    """The bucket shift of a two-pass counting sort of ``entry_bytes`` of entries on ``keys`` keys:
    :data:`BUCKET_SHIFT` past :data:`BUCKETED_KEYS` and :data:`BUCKETED_BYTES`, else :data:`ONE_BUCKET`."""
    return BUCKET_SHIFT if keys > BUCKETED_KEYS and entry_bytes > BUCKETED_BYTES else ONE_BUCKET


@njit(error_model="numpy", nogil=True, cache=True)
def bucket_slots(keys, e0, e1, k0, count):  # pragma: no cover - numba
    """The slots of a stable counting sort of one bucket, the entries ``e0:e1`` with keys ``keys[q]``
    among ``k0 .. k0 + count - 1``: element i the first slot of key ``k0 + i`` (from ``e0``), element
    ``count`` the bucket's end."""
    slot = np.zeros(count + 1, np.int64)
    for q in range(e0, e1):
        slot[keys[q] - k0 + 1] += 1
    slot[0] = e0
    for i in range(1, count + 1):
        slot[i] += slot[i - 1]
    return slot


@njit(error_model="numpy", nogil=True, cache=True)
def _sort_segment(key, order, lo, hi):  # pragma: no cover - numba
    """Stable sort of ``key[lo:hi]``, ``order[lo:hi]`` (any array: values too) alongside."""
    if hi - lo > INSERTION_SORT_MAX:
        o = np.argsort(key[lo:hi], kind="mergesort")
        k = key[lo:hi].copy()
        e = order[lo:hi].copy()
        for t in range(hi - lo):
            key[lo + t] = k[o[t]]
            order[lo + t] = e[o[t]]
        return
    for q in range(lo + 1, hi):
        v, e = key[q], order[q]
        r = q
        while r > lo and key[r - 1] > v:  # strictly greater: ties keep their order
            key[r] = key[r - 1]
            order[r] = order[r - 1]
            r -= 1
        key[r] = v
        order[r] = e


@kernel
def sort_pairs(major, minor, with_perm, perm):  # pragma: no cover - numba
    """Stable sort of the pairs ``(major, minor)`` by major then minor, ``perm`` (when ``with_perm``)
    permuted alongside: a counting sort by major (when its range is within a few times the entry
    count, else two merge sorts), then each major's run sorted by minor."""
    nnz = major.shape[0]
    if nnz < 2:
        return
    per = (nnz + SORT_CHUNKS - 1) // SORT_CHUNKS
    highest = np.zeros(SORT_CHUNKS, np.int64)
    for t in prange(SORT_CHUNKS):
        h = 0
        for q in range(t * per, min(nnz, (t + 1) * per)):
            h = max(h, major[q])
        highest[t] = h
    keys = highest.max() + 1
    if keys > 4 * nnz + 4096:  # counts would cost more memory than the entries
        order = _sort_pairs_by_comparison(major, minor)
        b = minor.copy()
        for t in prange(nnz):
            minor[t] = b[order[t]]
        a = major.copy()
        for t in prange(nnz):
            major[t] = a[order[t]]
    else:
        order = np.empty(nnz, np.int64)
        counts = np.zeros((SORT_CHUNKS, keys), np.int64)
        for t in prange(SORT_CHUNKS):
            for q in range(t * per, min(nnz, (t + 1) * per)):
                counts[t, major[q]] += 1
        ptr = np.empty(keys + 1, np.int64)
        chunk_slots(counts, ptr)
        b = minor.copy()
        for t in prange(SORT_CHUNKS):
            for q in range(t * per, min(nnz, (t + 1) * per)):
                v = major[q]
                d = counts[t, v]
                order[d] = q
                minor[d] = b[q]
                counts[t, v] = d + 1
        for v in prange(keys):
            _sort_segment(minor, order, ptr[v], ptr[v + 1])
            for q in range(ptr[v], ptr[v + 1]):
                major[q] = v
    if with_perm:
        p = perm.copy()
        for t in prange(nnz):
            perm[t] = p[order[t]]
