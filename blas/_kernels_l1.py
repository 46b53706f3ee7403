"""Level-1 kernels.  Every array is a batch: vectors are ``(batch, n)`` views, scalars
1-element arrays (host values or device memory), results ``(batch,)``.

Reductions are bitwise deterministic whatever the thread count: each entry is cut
into fixed blocks of ``BLOCK`` elements summed in order, and the block sums are
added in order (rocBLAS is deterministic with atomics off; so is rocmath, always).
"""

from __future__ import annotations

import math

import numpy as np
from numba import carray, njit, prange, types
from numba.extending import overload

from rocmath._kernels import _voidptr
from rocmath.kernel import claim, kernel, written
from rocmath.simd import (
    first_magnitude,
    largest_magnitude,
    smallest_magnitude,
    sum_conj_products,
    sum_magnitudes,
    sum_products,
    sum_squares,
)

BLOCK = 2048
#: The most blocks a thread of a reduction claims at a time (see _claims).
CLAIM = 64
#: The most parts a reduction's runs of blocks are cut into (see _claims).
PARTS = 64


# Elementwise kernels: one long vector is split across threads; a batch is split by entry.  A
# single vector of unit stride is read and written through typed contiguous views (_row; written()
# keeps numba from deleting their loops): with the stride a run-time value LLVM keeps the loop
# scalar (daxpy of 2^20 elements: one element a turn).


@njit(nogil=True, cache=True, inline="always")
def _view(v):  # type: ignore[no-untyped-def]
    # A 1-D array whose elements are adjacent, typed as contiguous (no copy).
    return carray(_voidptr(np.uint64(v.ctypes.data)), (v.shape[0],), v.dtype)


@njit(nogil=True, cache=True, inline="always")
def _row(a, b):  # type: ignore[no-untyped-def]
    # Row b of a (batch, n) array whose rows are contiguous, typed as contiguous.
    return _view(a[b])


@njit(nogil=True, cache=True, inline="always")
def _run(a, b, lo, hi):  # type: ignore[no-untyped-def]
    # Elements lo..hi-1 of row b, typed contiguous: a view when the row's elements are adjacent
    # (unit increments), else a copy (ddot_strided_batched of 10^5 vectors of 16 spent half its
    # time copying each).
    if a.shape[1] <= 1 or a.strides[1] == a.itemsize:
        return _row(a, b)[lo:hi]
    return np.ascontiguousarray(a[b, lo:hi])


@njit(nogil=True, cache=True, inline="always")
def _contiguous(a):  # type: ignore[no-untyped-def]
    return a.shape[0] == 1 and (a.shape[1] <= 1 or a.strides[1] == a.itemsize)


def _times(a, v):  # type: ignore[no-untyped-def]
    """``a * v``; a real ``a`` scales a complex ``v``'s parts apart, as rocBLAS's product of a complex
    by a real (rocblas-complex-types.h): (inf + 1j) * 2 is inf + 2j, where the product of two
    complex numbers would give inf + nan j (0 * inf in the imaginary part)."""


@overload(_times, inline="always")
def _times_impl(a, v):  # type: ignore[no-untyped-def]
    if isinstance(a, types.Float) and isinstance(v, types.Complex):
        make = np.complex64 if v.bitwidth == 64 else np.complex128
        return lambda a, v: make(complex(a * v.real, a * v.imag))
    return lambda a, v: a * v


@kernel
def axpy(alpha, x, y):  # type: ignore[no-untyped-def]
    a = alpha[0]
    if a == 0:  # (a device alpha: rocBLAS's kernel skips y's update, if(alpha))
        return
    nb, n = y.shape
    if _contiguous(x) and _contiguous(y):
        xc, yc = _row(x, 0), _row(y, 0)
        for i in prange(n):
            yc[i] += a * xc[i]
        written(yc)
    elif nb == 1:
        x0 = x[0]
        y0 = y[0]
        for i in prange(n):
            y0[i] += a * x0[i]
    else:
        for b in prange(nb):
            for i in range(n):
                y[b, i] += a * x[b, i]


@kernel
def scal(alpha, x):  # type: ignore[no-untyped-def]
    a = alpha[0]
    if a == 1:  # (a device alpha: rocBLAS's kernel writes nothing, if(alpha != 1))
        return
    nb, n = x.shape
    if _contiguous(x):
        xc = _row(x, 0)
        for i in prange(n):
            xc[i] = _times(a, xc[i])
        written(xc)
    elif nb == 1:
        x0 = x[0]
        for i in prange(n):
            x0[i] = _times(a, x0[i])
    else:
        for b in prange(nb):
            for i in range(n):
                x[b, i] = _times(a, x[b, i])


@kernel
def copy(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    if _contiguous(x) and _contiguous(y):
        xc, yc = _row(x, 0), _row(y, 0)
        for i in prange(n):
            yc[i] = xc[i]
        written(yc)
    elif nb == 1:
        x0 = x[0]
        y0 = y[0]
        for i in prange(n):
            y0[i] = x0[i]
    else:
        for b in prange(nb):
            for i in range(n):
                y[b, i] = x[b, i]


@kernel
def swap(x, y):  # type: ignore[no-untyped-def]
    nb, n = y.shape
    if _contiguous(x) and _contiguous(y):
        xc, yc = _row(x, 0), _row(y, 0)
        for i in prange(n):
            tmp = xc[i]
            xc[i] = yc[i]
            yc[i] = tmp
        written(xc)
        written(yc)
    elif nb == 1:
        x0 = x[0]
        y0 = y[0]
        for i in prange(n):
            tmp = x0[i]
            x0[i] = y0[i]
            y0[i] = tmp
    else:
        for b in prange(nb):
            for i in range(n):
                tmp = x[b, i]
                x[b, i] = y[b, i]
                y[b, i] = tmp


# Reductions.  Blocks of BLOCK elements are summed in one fixed order (in 256-bit lanes by
# rocmath.simd, the same on every machine) and block sums are added in order, so results are
# bitwise reproducible whatever the thread count.
# Unit-increment rows are read through typed contiguous views (_run); other layouts copy each
# block to a contiguous buffer first, so every layout sums in the same order.
# The threads claim runs of blocks (rocmath.kernel.claim) rather than a static half each: on a
# VM a thread that starts late (its team woke from sleep) or whose vCPU the host shares does
# fewer, and which thread sums a block never changes its bits.  The runs are cut into up to
# PARTS parts of consecutive runs, each with its own counter; the prange has one iteration per
# part, and iteration t claims the runs of part t, then of the parts after it (_next_run).  A
# team's threads thus start in contiguous shares (numba gives each thread consecutive
# iterations), each reading one forward stream, and help with the others' parts when theirs are
# claimed.  Interleaved with numpy on 10^7 doubles, each read cold, 2 vCPUs: claims from one
# counter instead of a static half took ddot from 0.96-1.10x to 1.01-1.22x np.dot and dnrm2 from
# 0.75-0.99x to 0.96-1.04x np.linalg.norm.  Parts instead of one counter (a thread's runs no longer
# alternate with the other's) made the ddot and dnrm2 kernels 1-2 % faster again (interleaved
# A/B of the kernels alone), and the calls, in rocmath-bench compare: dnrm2 4 % at 10^7 and 6 % at
# 2^20, idamax 7-9 % and 16-20 %, ddot the same and 19 %.
# Runs of 4 blocks (64 KiB) read 0.71-0.93x (each jump to another run starts the hardware
# prefetcher's stream again), of 256 about as 64.

_block = njit(nogil=True, cache=True, error_model="numpy", fastmath={"reassoc", "contract"})


@njit(error_model="numpy", nogil=True, cache=True)
def _combine(part, out):  # type: ignore[no-untyped-def]
    # out[b] := the block sums of entry b in order (nothing to add when the sums went to out: one block).
    if part.shape[1] < 2:
        return
    for b in range(part.shape[0]):
        s = part[b, 0]
        for k in range(1, part.shape[1]):
            s += part[b, k]
        out[b] = s


@njit(nogil=True, cache=True, inline="always")
def _partial_sums(nb, n, dtype):  # type: ignore[no-untyped-def]
    # The block sums' array of nb entries of n elements; none when an entry is one block: its sum
    # goes to the result at once (a batch-sized array, fresh pages each call, and the pass adding
    # it up took a quarter of ddot_strided_batched of 10^5 x 16).
    nblk = (n + BLOCK - 1) // BLOCK
    return np.zeros((nb, nblk) if nblk > 1 else (0, 1), dtype=dtype)


@njit(nogil=True, cache=True, inline="always")
def _claims(total):  # type: ignore[no-untyped-def]
    # How ``total`` blocks are handed out (see the comment above): the parts' claim counters, blocks
    # per run (CLAIM, or fewer so there are 16 runs when there are enough blocks: 3 runs of 64 on
    # two threads would leave one idle a third of the time) and the number of parts.  Part p's
    # next run is at 16 p, its end at 16 p + 1 (128 bytes apart: two threads' claims do not share
    # a line); the last entry is the flag "every run claimed".
    per = max(1, min(CLAIM, total // 16))
    runs = (total + per - 1) // per
    parts = min(PARTS, runs)
    counters = np.zeros(16 * parts + 1, np.int64)
    for p in range(parts):
        counters[16 * p] = p * runs // parts
        counters[16 * p + 1] = (p + 1) * runs // parts
    return counters, per, parts


@njit(nogil=True, cache=True, inline="always")
def _next_run(counters, t, j, per, parts, total):  # type: ignore[no-untyped-def]
    # The next run iteration t of ``for t in prange(parts)`` claims, blocks lo..hi-1 of 0..total-1
    # (lo >= hi: none left), and the j to call again with: from part t + j, the iteration's own
    # part at j = 0, else from the first part after it with runs left.  A part's counter is read
    # before it is claimed from, so that an exhausted one costs no atomic (a stale read is a
    # smaller count: a claim that finds nothing); a search that finds none left raises the flag,
    # which the later calls return on.
    if counters[-1] != 0:
        return total, total, j
    while j < parts:
        p = t + j
        if p >= parts:
            p -= parts
        end = counters[16 * p + 1]
        if counters[16 * p] < end:
            r = claim(counters[16 * p:16 * p + 1], 1)
            if r < end:
                return r * per, min(total, (r + 1) * per), j
        j += 1
    counters[-1] = 1
    return total, total, j


@njit(nogil=True, cache=True, inline="always")
def _dot_block(x, y, conjugate, s):  # type: ignore[no-untyped-def]
    # ``s`` plus the dot product of two contiguous blocks, conjugating ``x`` if asked.  Inlined, as
    # every per-block sum: a compiled call per block of 2048 doubles ran the sum of squares of 10^7
    # of them 10 % slower than the same sum inlined into the prange body.
    return s + (sum_conj_products(x, y) if conjugate else sum_products(x, y))


def _block_sum(x, y, b, lo, hi, squares, conjugate, zero):  # type: ignore[no-untyped-def]
    """Elements lo..hi-1 of row b summed: their dot product with y's (conjugating x's if asked) from
    ``zero``, or with y None the sum of re^2 + im^2 (``squares``: nrm2's first pass) or of
    |re| + |im| (asum, as reference scasum).  Chosen by y's type, when the kernel compiles."""


@overload(_block_sum, inline="always")
def _block_sum_impl(x, y, b, lo, hi, squares, conjugate, zero):  # type: ignore[no-untyped-def]
    if isinstance(y, types.NoneType):
        return lambda x, y, b, lo, hi, squares, conjugate, zero: (
            sum_squares(_run(x, b, lo, hi)) if squares else sum_magnitudes(_run(x, b, lo, hi)))
    return lambda x, y, b, lo, hi, squares, conjugate, zero: _dot_block(_run(x, b, lo, hi), _run(y, b, lo, hi),
                                                                        conjugate, zero)


@njit(nogil=True, cache=True, inline="always")
def _block_sums(x, y, squares, conjugate, part, out):  # type: ignore[no-untyped-def]
    # The block sums (_block_sum) of each batch entry, in the one summation order of every layout,
    # into part (_partial_sums), or into out when an entry is one block.  Inlined into its kernels
    # (numba's IR): its prange loop is theirs, parallel in the kernel, serial in its twin.  (A
    # parallel helper would make the twin enter a parallel region, and numba's cache drops the
    # thread pool's start from code that links a helper loaded from the cache.)
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    total = nb * nblk
    zero = out.dtype.type(0)
    counters, per, parts = _claims(total)
    for t in prange(parts):
        lo, hi, j = _next_run(counters, t, 0, per, parts, total)
        while lo < hi:
            for q in range(lo, hi):
                b = q // nblk
                k = q - b * nblk
                s = _block_sum(x, y, b, k * BLOCK, min(n, (k + 1) * BLOCK), squares, conjugate, zero)
                if nblk == 1:
                    out[b] = s
                else:
                    part[b, k] = s
            lo, hi, j = _next_run(counters, t, j, per, parts, total)


@kernel
def dot(x, y, conjugate, out):  # type: ignore[no-untyped-def]
    part = _partial_sums(x.shape[0], x.shape[1], out.dtype)
    _block_sums(x, y, False, conjugate, part, out)
    _combine(part, out)


@kernel
def asum(x, out):  # type: ignore[no-untyped-def]
    part = _partial_sums(x.shape[0], x.shape[1], out.dtype)
    _block_sums(x, None, False, False, part, out)
    _combine(part, out)


@_block
def _max_block(x, m):  # type: ignore[no-untyped-def]
    for i in range(x.shape[0]):
        m = max(m, abs(x[i].real), abs(x[i].imag))
    return m


@_block
def _scaled_block(x, inv, s):  # type: ignore[no-untyped-def]
    for i in range(x.shape[0]):
        r = x[i].real * inv
        q = x[i].imag * inv
        s += r * r + q * q
    return s


@kernel
def nrm2(x, safe, out):  # type: ignore[no-untyped-def]
    # A first (vectorised) pass sums plain squares.  A NaN sum means a NaN entry; a finite sum
    # of at least `safe` (n * tiny / eps, from the caller) lost at most eps to underflow, so its
    # square root is the answer.  Otherwise (overflow, an infinite entry, or tiny entries) the
    # entry is redone as reference BLAS does: largest magnitude, then sum of (|x|/scale)^2.
    nb, n = x.shape
    nblk = (n + BLOCK - 1) // BLOCK
    part = _partial_sums(nb, n, out.dtype)
    _block_sums(x, None, True, False, part, out)
    _combine(part, out)  # out holds the sums of squares now, each replaced by its root below
    rescale = np.zeros(nb, dtype=np.bool_)
    for b in range(nb):
        if np.isnan(out[b]) or (np.isfinite(out[b]) and out[b] >= safe):
            out[b] = np.sqrt(out[b])
        else:
            rescale[b] = True
    if not rescale.any():  # the usual case: no parallel region for the passes below (each wakes the team)
        return
    if nblk == 1:  # (the scaled sums go to part)
        part = np.zeros((nb, nblk), dtype=out.dtype)
    big = np.zeros((nb, nblk), dtype=out.dtype)
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        if rescale[b]:
            big[b, k] = _max_block(x[b, k * BLOCK:min(n, (k + 1) * BLOCK)], big[b, k])
    scale = np.zeros(nb, dtype=out.dtype)
    for b in range(nb):
        if rescale[b]:
            m = big[b, 0]
            for k in range(1, nblk):
                m = max(m, big[b, k])
            scale[b] = m
            if not np.isfinite(m) or m == 0:
                out[b] = m
                rescale[b] = False
    for t in prange(nb * nblk):
        b = t // nblk
        k = t - b * nblk
        if rescale[b]:
            part[b, k] = _scaled_block(np.ascontiguousarray(x[b, k * BLOCK:min(n, (k + 1) * BLOCK)]), 1 / scale[b],
                                       big[b, k] * 0)
    for b in range(nb):
        if rescale[b]:
            s = part[b, 0]
            for k in range(1, nblk):
                s += part[b, k]
            out[b] = scale[b] * np.sqrt(s)


@njit(nogil=True, cache=True, inline="always")
def _extreme_block(x, find_max, lo):  # type: ignore[no-untyped-def]
    # A block's largest (smallest) |re| + |im| without NaNs (NaN: it has no other) and the index
    # of its first element of that magnitude (-1: none).
    m = largest_magnitude(x) if find_max else smallest_magnitude(x)
    i = first_magnitude(x, m)
    return m, (lo + i if i >= 0 else i)


@kernel
def iamax(x, find_max, out):  # type: ignore[no-untyped-def]
    # 1-based index of the first element of largest (or smallest) |re| + |im|, as rocBLAS: a NaN
    # magnitude never wins, but a NaN first element does (nothing compares better than it).  One
    # vector: its blocks find their best and its first element in parallel (in 256-bit lanes), then
    # the blocks are compared in order, a tie keeping the earlier: the sequential scan's answer
    # (scipy's idamax of 10^7 doubles ran 2.5x faster than that scan on one thread).  A batch: one
    # scan per entry.
    nb, n = x.shape
    if nb > 1:
        for b in prange(nb):
            best = abs(x[b, 0].real) + abs(x[b, 0].imag)
            where = 0
            for i in range(1, n):
                v = abs(x[b, i].real) + abs(x[b, i].imag)
                if (find_max and v > best) or (not find_max and v < best):
                    best = v
                    where = i
            out[b] = where + 1
        return
    nblk = (n + BLOCK - 1) // BLOCK
    bests = np.empty(nblk, dtype=x.real.dtype)
    wheres = np.empty(nblk, dtype=np.int64)
    # Runs of blocks claimed as the sums' are (_block_sums): 10^7 doubles read cold, interleaved with
    # scipy's idamax, took 2.35 ms (median) against 3.08 with a static half per thread.
    counters, per, parts = _claims(nblk)
    for t in prange(parts):
        lo, hi, j = _next_run(counters, t, 0, per, parts, nblk)
        while lo < hi:
            for k in range(lo, hi):
                lo_k = k * BLOCK
                bests[k], wheres[k] = _extreme_block(_run(x, 0, lo_k, min(n, lo_k + BLOCK)), find_max, lo_k)
            lo, hi, j = _next_run(counters, t, j, per, parts, nblk)
    pick = 0
    if not np.isnan(abs(x[0, 0].real) + abs(x[0, 0].imag)):  # then block 0 has a number
        m = bests[0]
        pick = wheres[0]
        for k in range(1, nblk):
            if wheres[k] >= 0 and ((find_max and bests[k] > m) or (not find_max and bests[k] < m)):
                m = bests[k]
                pick = wheres[k]
    out[0] = pick + 1


@njit(nogil=True, cache=True, inline="always")
def _rotated(cc, ss, xv, yv):  # type: ignore[no-untyped-def]
    # (c*x + s*y, c*y - conj(s)*x)  (c real, s real or complex; a real one scales x and y part by part)
    return _times(cc, xv) + _times(ss, yv), _times(cc, yv) - _times(np.conj(ss), xv)


@kernel
def rot(x, y, c, s):  # type: ignore[no-untyped-def]
    cc = c[0]
    ss = s[0]
    nb, n = y.shape
    if _contiguous(x) and _contiguous(y):
        xc, yc = _row(x, 0), _row(y, 0)
        for i in prange(n):
            xc[i], yc[i] = _rotated(cc, ss, xc[i], yc[i])
        written(xc)
        written(yc)
        return
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        x[b, i], y[b, i] = _rotated(cc, ss, x[b, i], y[b, i])


@njit(nogil=True, cache=True, inline="always")
def _to_storage(v, bits, emin, big):  # type: ignore[no-untyped-def]
    # v rounded to the nearest value with `bits` significant bits (ties to even), at least frexp's
    # exponent emin (subnormals), beyond `big` infinite: a float32 product rounded to half or
    # bfloat16.  Powers of two scale exactly, so rint does the one rounding.
    a = np.float64(v)
    if a == 0.0 or not np.isfinite(a):
        return v
    e = max(math.frexp(a)[1], emin)
    r = math.ldexp(np.rint(math.ldexp(a, bits - e)), e - bits)
    return np.float32(math.copysign(np.inf, r) if abs(r) > big else r)


@kernel
def rot_rounded(x, y, c, s, bits, emin, big):  # type: ignore[no-untyped-def]
    """rot of half or bfloat16 data computed in float32, as rocBLAS's rot_ex does it: each of the
    four products is one of the storage type (two halves multiply to a half, two bfloat16s to a
    bfloat16: rounded, past the largest finite value infinite), their sum and difference float32."""
    cc = c[0]
    ss = s[0]
    nb, n = y.shape
    for t in prange(nb * n):
        b = t // n
        i = t - b * n
        xv, yv = x[b, i], y[b, i]
        x[b, i] = _to_storage(cc * xv, bits, emin, big) + _to_storage(ss * yv, bits, emin, big)
        y[b, i] = _to_storage(cc * yv, bits, emin, big) - _to_storage(ss * xv, bits, emin, big)


@njit(nogil=True, cache=True, inline="always")
def _rotm_h(param, b):  # type: ignore[no-untyped-def]
    # (h11, h21, h12, h22) of entry b's param = (flag, h11, h21, h12, h22): any negative flag but -2
    # (the identity, the caller's) the full H (as rocblas_rotm_kernels.hpp and reference BLAS), 0
    # and the rest imply entries.  The implied 1.0s make all four double, as they always were.
    flag = param[b, 0]
    if flag < 0.0:
        return param[b, 1], param[b, 2], param[b, 3], param[b, 4]
    if flag == 0.0:
        return 1.0, param[b, 2], param[b, 3], 1.0
    return param[b, 1], -1.0, 1.0, param[b, 4]


@njit(nogil=True, cache=True, inline="always")
def _rotm_applied(h11, h21, h12, h22, xv, yv):  # type: ignore[no-untyped-def]
    return h11 * xv + h12 * yv, h21 * xv + h22 * yv


@kernel
def rotm(x, y, param):  # type: ignore[no-untyped-def]
    # One vector: H once, the elements in parallel (through contiguous views when unit-stride: drotm
    # of 10^7 doubles took 26 ms as one loop over batch x elements, a division and H's branches per
    # element, against 6.5 for scipy's).  A batch: one entry per iteration.
    nb, n = y.shape
    if nb == 1:
        if param[0, 0] == -2.0:
            return
        h11, h21, h12, h22 = _rotm_h(param, 0)
        if _contiguous(x) and _contiguous(y):
            xc, yc = _row(x, 0), _row(y, 0)
            for i in prange(n):
                xc[i], yc[i] = _rotm_applied(h11, h21, h12, h22, xc[i], yc[i])
            written(xc)
            written(yc)
            return
        x0 = x[0]
        y0 = y[0]
        for i in prange(n):
            x0[i], y0[i] = _rotm_applied(h11, h21, h12, h22, x0[i], y0[i])
        return
    for b in prange(nb):
        if param[b, 0] == -2.0:
            continue
        h11, h21, h12, h22 = _rotm_h(param, b)
        for i in range(n):
            x[b, i], y[b, i] = _rotm_applied(h11, h21, h12, h22, x[b, i], y[b, i])


@kernel(parallel=False)
def rotg(a, b, c, s):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTG for real entries; a, b, c, s are (batch, 1): a becomes r, b z.
    for e in range(a.shape[0]):
        av = a[e, 0]
        bv = b[e, 0]
        roe = av if abs(av) > abs(bv) else bv
        scale = abs(av) + abs(bv)
        if scale == 0.0:
            c[e, 0] = 1.0
            s[e, 0] = 0.0
            a[e, 0] = 0.0
            b[e, 0] = 0.0
            continue
        r = np.copysign(scale * np.sqrt((av / scale) ** 2 + (bv / scale) ** 2), roe)
        cv = av / r
        sv = bv / r
        # Two separate tests, as rocblas_rotg_calc: with a NaN in a or b neither holds, z stays 1.
        z = 1.0
        if abs(av) > abs(bv):
            z = sv
        if abs(bv) >= abs(av) and cv != 0.0:
            z = 1.0 / cv
        c[e, 0] = cv
        s[e, 0] = sv
        a[e, 0] = r
        b[e, 0] = z


@kernel(parallel=False)
def rotg_complex(a, b, c, s):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTG for complex entries: a becomes r; b is left alone.
    for e in range(a.shape[0]):
        av = a[e, 0]
        bv = b[e, 0]
        aa = abs(av)
        if aa == 0.0:
            c[e, 0] = 0.0
            s[e, 0] = 1.0
            a[e, 0] = bv
            continue
        scale = aa + abs(bv)
        norm = scale * np.sqrt(abs(av / scale) ** 2 + abs(bv / scale) ** 2)
        alpha = av / aa
        c[e, 0] = aa / norm
        s[e, 0] = alpha * np.conj(bv) / norm
        a[e, 0] = alpha * norm


@kernel(parallel=False)
def rotmg(d1, d2, x1, y1, param):  # type: ignore[no-untyped-def]
    # Reference BLAS xROTMG on each entry (d1, d2, x1, y1 are (batch, 1); param (batch, 5)).
    gam = 4096.0
    gamsq = gam * gam
    rgamsq = 1.0 / gamsq
    for e in range(d1.shape[0]):
        dd1 = d1[e, 0]
        dd2 = d2[e, 0]
        dx1 = x1[e, 0]
        dy1 = y1[e, 0]
        h11 = 0.0
        h12 = 0.0
        h21 = 0.0
        h22 = 0.0
        flag = 0.0
        if dd1 < 0.0:
            flag = -1.0
            dd1 = 0.0
            dd2 = 0.0
            dx1 = 0.0
        else:
            p2 = dd2 * dy1
            if p2 == 0.0:
                param[e, 0] = -2.0
                continue
            p1 = dd1 * dx1
            q2 = p2 * dy1
            q1 = p1 * dx1
            if abs(q1) > abs(q2):
                h21 = -dy1 / dx1
                h12 = p2 / p1
                u = 1.0 - h12 * h21
                if u > 0.0:
                    flag = 0.0
                    dd1 = dd1 / u
                    dd2 = dd2 / u
                    dx1 = dx1 * u
                else:
                    flag = -1.0
                    h11 = 0.0
                    h12 = 0.0
                    h21 = 0.0
                    h22 = 0.0
                    dd1 = 0.0
                    dd2 = 0.0
                    dx1 = 0.0
            elif q2 < 0.0:
                flag = -1.0
                h11 = 0.0
                h12 = 0.0
                h21 = 0.0
                h22 = 0.0
                dd1 = 0.0
                dd2 = 0.0
                dx1 = 0.0
            else:
                flag = 1.0
                h11 = p1 / p2
                h22 = dx1 / dy1
                u = 1.0 + h11 * h22
                temp = dd2 / u
                dd2 = dd1 / u
                dd1 = temp
                dx1 = dy1 * u
            # Rescaling makes H explicit (flag -1): only on the first pass does it fill in the
            # entries flags 0 and 1 imply; later passes must keep the scaled ones (the structured
            # reference loop resets h21, h12 on every pass, so H no longer zeroes y1).
            if dd1 != 0.0:
                while dd1 <= rgamsq or dd1 >= gamsq:
                    if flag == 0.0:
                        h11 = 1.0
                        h22 = 1.0
                    elif flag > 0.0:
                        h21 = -1.0
                        h12 = 1.0
                    flag = -1.0
                    if dd1 <= rgamsq:
                        dd1 *= gam * gam
                        dx1 /= gam
                        h11 /= gam
                        h12 /= gam
                    else:
                        dd1 /= gam * gam
                        dx1 *= gam
                        h11 *= gam
                        h12 *= gam
            if dd2 != 0.0:
                while abs(dd2) <= rgamsq or abs(dd2) >= gamsq:
                    if flag == 0.0:
                        h11 = 1.0
                        h22 = 1.0
                    elif flag > 0.0:
                        h21 = -1.0
                        h12 = 1.0
                    flag = -1.0
                    if abs(dd2) <= rgamsq:
                        dd2 *= gam * gam
                        h21 /= gam
                        h22 /= gam
                    else:
                        dd2 /= gam * gam
                        h21 *= gam
                        h22 *= gam
        if flag < 0.0:
            param[e, 1] = h11
            param[e, 2] = h21
            param[e, 3] = h12
            param[e, 4] = h22
        elif flag == 0.0:
            param[e, 2] = h21
            param[e, 3] = h12
        else:
            param[e, 1] = h11
            param[e, 4] = h22
        param[e, 0] = flag
        d1[e, 0] = dd1
        d2[e, 0] = dd2
        x1[e, 0] = dx1
