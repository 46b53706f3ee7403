"""Level-1 kernels.  Every array is a batch: vectors are ``(batch, n)`` views, scalars
1-element arrays (host values or device memory), results ``(batch,)``.

Reductions are bitwise deterministic whatever the thread count: each entry is cut
into fixed blocks of ``BLOCK`` elements summed in order, and the block sums are
added in order (rocBLAS is deterministic with atomics off; so is rocmath, always).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from rocmath.kernel import kernel

BLOCK = 2048


@kernel
def axpy(alpha, x, y):  # type: ignore[no-untyped-def]
    a = alpha[0]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        y[b, i] += a * x[b, i]


@kernel
def scal(alpha, x):  # type: ignore[no-untyped-def]
    a = alpha[0]
    nb, n = x.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        x[b, i] = a * x[b, i]


@kernel
def copy(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        y[b, i] = x[b, i]


@kernel
def swap(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        tmp = x[b, i]
        x[b, i] = y[b, i]
        y[b, i] = tmp


@kernel
def dot(x, y, conjugate, out):  # type: ignore[no-untyped-def]
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        s = part[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            if conjugate:
                s += np.conj(x[b, i]) * y[b, i]
            else:
                s += x[b, i] * y[b, i]
        part[b, k] = s
    for b in range(nb):
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = s


@kernel
def asum(x, out):  # type: ignore[no-untyped-def]
    # rocBLAS's asum of complex vectors is sum(|re| + |im|), as reference BLAS's scasum.
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        s = part[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            v = x[b, i]
            s += abs(v.real) + abs(v.imag)
        part[b, k] = s
    for b in range(nb):
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = s


@kernel
def nrm2(x, out):  # type: ignore[no-untyped-def]
    # Scaled sum of squares (two passes: largest magnitude, then sum of (|x|/scale)^2), so
    # huge and tiny entries neither overflow nor underflow, as reference BLAS's nrm2.
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    big = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        m = big[b, k]
        for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
            v = x[b, i]
            m = max(m, abs(v.real), abs(v.imag))
        big[b, k] = m
    scale = np.zeros(nb, dtype=out.dtype)
    for b in range(nb):
        for k in range(nblk):
            scale[b] = max(scale[b], big[b, k])
    part = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        sc = scale[b]
        s = part[b, k]
        if sc > 0 and np.isfinite(sc):
            for i in range(k * BLOCK, min(n, (k + 1) * BLOCK)):
                v = x[b, i]
                r = v.real / sc
                q = v.imag / sc
                s += r * r + q * q
        part[b, k] = s
    for b in range(nb):
        sc = scale[b]
        if not np.isfinite(sc):
            out[b] = sc  # an inf or NaN entry makes the norm inf or NaN
            continue
        s = part[b, 0] * 0
        for k in range(nblk):
            s += part[b, k]
        out[b] = sc * np.sqrt(s)


@kernel
def iamax(x, find_max, out):  # type: ignore[no-untyped-def]
    # 1-based index of the first element of largest (or smallest) |re| + |im|, as rocBLAS.
    nb, n = x.shape
    for b in prange(nb):
        best = abs(x[b, 0].real) + abs(x[b, 0].imag)
        where = 0
        for i in range(1, n):
            v = abs(x[b, i].real) + abs(x[b, i].imag)
            if (find_max and v > best) or (not find_max and v < best):
                best = v
                where = i
        out[b] = where + 1
