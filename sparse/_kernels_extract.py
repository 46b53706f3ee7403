"""numba kernels of extract and sparse_to_sparse (:mod:`._extract`): the triangle counts and copies of extract,
and the index moves of the generic conversions that the legacy conversion kernels (:mod:`._kernels_formats`,
:mod:`._kernels`) do not cover.

They check nothing: the routines validated everything.  They are serial (they move memory; a serial kernel
compiles in a fraction of a parallel one's time) and move values as machine words (``(count, words)``
views), so each compiles once per index type for every value type.
"""

from __future__ import annotations

from rocmath.kernel import kernel


@kernel(parallel=False)
def extract_count(ptr, ind, base, before, unit, tptr, tbase, nnz):  # pragma: no cover - numba
    """extract's analysis: ``tptr`` the target's offsets (base ``tbase``) of the entries of each sequence (row of
    a CSR matrix, column of a CSC one) on the kept side of the diagonal; ``nnz[0]`` their number."""
    n = ptr.shape[0] - 1
    s = 0
    tptr[0] = tbase
    for i in range(n):
        for k in range(ptr[i] - base, ptr[i + 1] - base):
            j = ind[k] - base
            if (i > j if unit else i >= j) if before else (i < j if unit else i <= j):
                s += 1
        tptr[i + 1] = s + tbase
    nnz[0] = s


@kernel(parallel=False)
def extract_fill(ptr, ind, val, base, before, unit, tptr, tbase, tind, tval):  # pragma: no cover - numba
    """extract's compute: the kept entries of each sequence, in storage order, from ``tptr[i] - tbase`` on."""
    n = ptr.shape[0] - 1
    nw = val.shape[1]
    for i in range(n):
        dst = tptr[i] - tbase
        for k in range(ptr[i] - base, ptr[i + 1] - base):
            j = ind[k] - base
            if (i > j if unit else i >= j) if before else (i < j if unit else i <= j):
                tind[dst] = j + tbase
                for w in range(nw):
                    tval[dst, w] = val[k, w]
                dst += 1


@kernel(parallel=False)
def cast_copy(src, dst):  # pragma: no cover - numba
    """``dst := src`` element by element (any strides, converting the type): rocSPARSE's convert_array."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel(parallel=False)
def expand_rows(ptr, base, rows):  # pragma: no cover - numba
    """The row index (plus ``base``) of every entry of a compressed pointer (``rows`` may be strided)."""
    n = ptr.shape[0] - 1
    for i in range(n):
        for k in range(ptr[i] - base, ptr[i + 1] - base):
            rows[k] = i + base


@kernel(parallel=False)
def compress_rows(rows, base, ptr):  # pragma: no cover - numba
    """The compressed pointer (base ``base``) of row-sorted row indices (``rows`` may be strided): each row's
    entries counted, rows outside the matrix left out."""
    n = ptr.shape[0] - 1
    for i in range(n + 1):
        ptr[i] = 0
    for k in range(rows.shape[0]):
        r = rows[k] - base
        if 0 <= r < n:
            ptr[r + 1] += 1
    ptr[0] = base
    for i in range(n):
        ptr[i + 1] += ptr[i]
