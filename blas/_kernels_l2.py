"""Level-2 kernels.  Every array is a batch: matrices ``(batch, rows, cols)`` views, vectors
``(batch, n)`` views, scalars 1-element arrays (host values or device memory).

A few numba kernels serve all Level-2 routines, each compiled once per precision:

- :func:`matvec`: ``y := alpha*op(A)*x + beta*y`` for general, banded, triangular and
  packed matrices (gemv, gbmv; trmv/tpmv/tbmv with alpha=1, beta=0), with :func:`gemv_batch`
  for batches of general matrices and :func:`gemv_flat` for one general matrix (batch count 1);
- :func:`symv`: the symmetric and Hermitian products, one pass over the stored triangle;
- :func:`trsv`: triangular solves in full, banded or packed storage (:func:`trsv_blocked`
  for one large full triangle);
- :func:`rank_update`: ger/geru/gerc and the symmetric/Hermitian rank-1/2 updates.

Every storage kind is walked by column: for column ``j`` the stored rows ``lo..hi-1``
of the logical matrix are one contiguous run (:func:`_column`), so inner loops are
contiguous and vectorise.  A conjugate transpose works on ``conj(x)`` and conjugates the
result (``conj(a).x == conj(a.conj(x))`` exactly), so no inner loop conjugates.  Results
are bitwise deterministic whatever the thread count: work is cut into blocks of fixed
size, partial sums are kept per block and added in block order.

The ``run_*`` functions are what the routines launch: they run when the stream reaches
the work, bring the operands into the form the kernels expect (column-major matrices,
precisions the kernels are compiled for) and call the kernels.

Compile time: each kernel compiles once per precision, and a parallel (``prange``) kernel
costs more to compile the bigger it is, so the kernels are small drivers around plain
``njit`` task functions.
"""

from __future__ import annotations

import inspect
from typing import Any

import numba
import numpy as np
from numba import prange, types
from numba.extending import overload

from rocmath.batch import flat_entries
from rocmath.kernel import kernel, pool_threads, renamed
from rocmath.simd import sum_conj_products, sum_products, sum_products4

from ._kernels_l1 import _dot_block, _view

# Storage kinds of the matrix argument.
FULL, BAND, PACKED = 0, 1, 2
# The diagonal of a triangular matrix in a product: as stored, or ones.
DIAG_STORED, DIAG_UNIT = 0, 1

# Fixed blocking (results do not depend on the number of threads).  op(A) = A: tasks of
# RB_N rows x CB_N columns, each an axpy per column into a partial sum per column block.
# op(A) = A^T or A^H: tasks of RB_T rows x CB_T columns, each a dot per column, partial
# sums per row block.  Long column runs keep the hardware prefetchers streaming.
RB_N, CB_N = 4096, 256
# An entry of matvec or symv storing at most ENTRY_TASK_BYTES is one task, its columns in turn into
# one sum: entries a launch of their own runs on one thread (rocmath.launch.STREAM_INLINE_BYTES),
# where blocks and their partial sums only cost (dsbmv of 3000 with 32 diagonals, one thread: 55-61
# -> 46 us with the narrow-band loop below), and batches of ENTRY_TASK_BATCH or more have an entry
# per task to share out (task_bytes).  Fixed by the sizes only, so the bits do not depend on the
# thread count.  (Read when the run_* functions launch the kernels: the tests lower it to reach the
# blocks with small matrices.)
ENTRY_TASK_BYTES = 2 * 1024 * 1024
ENTRY_TASK_BATCH = 8
RB_T, CB_T = 4096, 64
CB_R = 16  # columns per task of a rank update (at least: see RANK_TASK_ELEMENTS)
TRSV_NB = 128  # columns of a diagonal block of the blocked triangular solve
# Columns are taken eight at a time over the rows all eight store when those are at least GROUP_ROWS:
# for shorter runs (a narrow band) the pieces of each column left over cost more than the shared
# pass saves (dgbmv of 3000 with 32 + 32 diagonals: 62 -> 118 us with a 16-row threshold).
GROUP_ROWS = 128
# A rank update's columns go four at a time from this many shared rows: shorter columns, read one
# after another, make one long stream when the leading dimension is the row count, which the
# prefetchers follow better than four short ones (10^2 dger of 300: 2.3-2.6 against 3.0-4.0 ms).
RANK_GROUP_ROWS = 1024
#: General rank updates with fewer rows than this go a row at a time (_rank_task).
RANK_SHORT_ROWS = 4
#: Elements a general rank update's task covers at least (CB_R columns of long ones).
RANK_TASK_ELEMENTS = 8192


@numba.njit(cache=True, inline="always")
def _packed_start(upper, n, j):  # type: ignore[no-untyped-def]
    # Where column j of a packed triangle starts, counted from row 0.
    return j * (j + 1) // 2 if upper else j * (2 * n - j - 1) // 2


@numba.njit(error_model="numpy", cache=True)
def _column(A, b, kind, upper, n, ku, j, r0, r1):  # type: ignore[no-untyped-def]
    """Rows ``r0..r1-1`` of column ``j`` of entry ``b``, as a 1-D view of the storage.

    FULL: ``A[b, i, j]``.  BAND (LAPACK band storage, ``ku`` superdiagonals):
    ``A[b, ku + i - j, j]``.  PACKED (a ``(batch, 1, n(n+1)/2)`` view): column ``j``
    starts at ``j(j+1)/2`` (upper) or ``j(2n-j-1)/2`` (lower), counted from row 0."""
    if kind == PACKED:
        p = _packed_start(upper, n, j)
        return A[b, 0, p + r0:p + r1]
    s = ku - j if kind == BAND else 0
    return A[b, r0 + s:r1 + s, j]


@numba.njit(cache=True, inline="always")
def _column_run(A, b, kind, upper, n, ku, j, r0, r1):  # type: ignore[no-untyped-def]
    """:func:`_column` typed contiguous, for the loops that read it: a view of the storage when
    its elements are adjacent (every kind but a full matrix with strided columns), else a copy.
    (A strided-typed run keeps LLVM's loops scalar; a copy per column cost symv and trmv on
    3000 x 3000 matrices about half their time.)"""
    v = _column(A, b, kind, upper, n, ku, j, r0, r1)
    return _view(v) if _adjacent(v) else np.ascontiguousarray(v)


@numba.njit(cache=True, inline="always")
def _adjacent(v):  # type: ignore[no-untyped-def]
    # Whether a 1-D view's elements are adjacent in memory (then _view types it contiguous).
    return v.shape[0] <= 1 or v.strides[0] == v.itemsize


@numba.njit(cache=True, inline="always")
def _light_heavy(k, count):  # type: ignore[no-untyped-def]
    # The k-th of ``count`` column blocks taken first, last, second, second to last...: a
    # triangle's blocks grow along it, and the threads take static shares of the tasks, so
    # their shares weigh about the same (trmv of 3000: the second thread's three times the first's).
    return k // 2 if k % 2 == 0 else count - 1 - k // 2


@numba.njit(cache=True, inline="always")
def _beta_only(yb, bt, zero):  # type: ignore[no-untyped-def]
    # y := beta*y without reading A or x (alpha == 0); beta == 1: nothing to do, 0: zeros.
    if bt != 1:
        for i in range(yb.shape[0]):
            yb[i] = bt * yb[i] if bt != 0 else zero


@numba.njit(cache=True, inline="always")
def _updated(a, s, bt, yv):  # type: ignore[no-untyped-def]
    # alpha*s + beta*y, y's value left out when beta == 0 (as rocBLAS: a NaN there does not spread).
    return a * s + bt * yv if bt != 0 else a * s


@numba.njit(error_model="numpy", cache=True)
def _one_zero(a):  # type: ignore[no-untyped-def]
    # 1 and 0 of the element type of ``a``.
    e = np.empty(2, dtype=a.dtype)
    e[0] = 1
    e[1] = 0
    return e[0], e[1]


def _divide(s, d):  # type: ignore[no-untyped-def]
    """``s / d``; for complex numbers by Smith's algorithm, as rocBLAS's complex type (numba's
    complex division raises ZeroDivisionError; a GPU gives inf/NaN)."""
    return s / d


@overload(_divide, inline="always")
def _divide_impl(s, d):  # type: ignore[no-untyped-def]
    if not isinstance(d, types.Complex):
        return lambda s, d: s / d
    real = np.float32 if d == types.complex64 else np.float64
    cplx = np.complex64 if d == types.complex64 else np.complex128

    def smith(s, d):  # type: ignore[no-untyped-def]
        one = real(1)
        if abs(d.real) > abs(d.imag):
            ratio = d.imag / d.real
            scale = one / (d.real + d.imag * ratio)
            return cplx(complex((s.real + s.imag * ratio) * scale, (s.imag - s.real * ratio) * scale))
        ratio = d.real / d.imag
        scale = one / (d.real * ratio + d.imag)
        return cplx(complex((s.real * ratio + s.imag) * scale, (s.imag * ratio - s.real) * scale))
    return smith


def _axpy(p, c, t):  # type: ignore[no-untyped-def]
    """p += c * t over two contiguous runs of equal length (numba's: :func:`_fused_for_reals`)."""
    for i in range(p.shape[0]):
        p[i] += c[i] * t


def _axpy4(p, c0, c1, c2, c3, t0, t1, t2, t3):  # type: ignore[no-untyped-def]
    """Four axpys into p in one pass (four column streams at once), each element's four updates in
    turn: the same operations, in the same order, as four calls of :func:`_axpy`."""
    for i in range(p.shape[0]):
        v = p[i]
        v += c0[i] * t0
        v += c1[i] * t1
        v += c2[i] * t2
        v += c3[i] * t3
        p[i] = v


def _axpy8(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7):  # type: ignore[no-untyped-def]
    """Eight axpys into p in one pass (eight column streams at once), each element's updates in
    turn: the same operations, in the same order, as eight calls of :func:`_axpy`."""
    for i in range(p.shape[0]):
        v = p[i]
        v += c0[i] * t0
        v += c1[i] * t1
        v += c2[i] * t2
        v += c3[i] * t3
        v += c4[i] * t4
        v += c5[i] * t5
        v += c6[i] * t6
        v += c7[i] * t7
        p[i] = v


def _fused_for_reals(fn: Any, flags: set[str] | None = None, by: str | None = None, once: bool = False) -> None:
    """Make ``fn`` numba's, compiled with contraction (an FMA per product) for real arrays (the
    type of its array argument named ``by``, the first when None) and without for complex ones;
    ``flags``: more fast-math flags for both.  ``once``: each variant is one cached function that
    callers call (a kernel and its serial twin link the same code), not compiled into each caller:
    for a large function called a few times per launch (compiled into both, symv's task doubled its
    twin's compile time).
    An element's update needs no reassociation to vectorize.  A complex product's parts leave LLVM
    a choice of which product to fuse with the addition, and it chose differently in a kernel and
    in its serial twin (bits of zsymv differed); rounded one operation at a time, the bits are the
    same wherever the loop is compiled."""
    names = list(inspect.signature(fn).parameters)
    arg = 0 if by is None else names.index(by)
    # (Reassociation lets LLVM vectorise dot products; contraction gives FMAs.  Neither assumes
    # finite values, so NaN and inf propagate as on the device.)
    more = set(flags or ())
    # (Stated for both: a function without ``fastmath`` takes its first caller's.)
    options = {True: {"fastmath": {"contract"} | more}, False: {"fastmath": more or False}}

    def typer(fused: bool) -> Any:
        impl = fn
        if once:  # a call of the variant compiled on its own (named apart: one cache index each)
            twin = renamed(fn, f"{fn.__qualname__}_{'fused' if fused else 'unfused'}")
            scope = {"variant": numba.njit(cache=True, error_model="numpy", **options[fused])(twin)}
            exec(f"def impl({', '.join(names)}):\n    return variant({', '.join(names)})", scope)
            impl = scope["impl"]

        def pick(*args):  # type: ignore[no-untyped-def]
            return impl if isinstance(args[arg].dtype, types.Complex) != fused else None
        pick.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]  # (numba matches it with fn's)
        return pick

    overload(fn, jit_options=options[True])(typer(True))
    overload(fn, jit_options=options[False])(typer(False))


_fused_for_reals(_axpy)
_fused_for_reals(_axpy4)
_fused_for_reals(_axpy8)


@numba.njit(cache=True, inline="always")
def _reached(i0, i1, j0, j1, kl, ku):  # type: ignore[no-untyped-def]
    # The rows of i0..i1-1 that columns j0..j1-1 of a matrix with kl sub- and ku superdiagonals reach.
    return max(i0, j0 - ku), min(i1, j1 + kl)


@numba.njit(cache=True, inline="always")
def _flat_entry(A, b, kind):  # type: ignore[no-untyped-def]
    # Entry b's storage as one contiguous 1-D array and its leading dimension: element (i, j) of
    # the logical matrix at flat[_base(...) + i] (no view per column in the loops that read it).
    if kind == PACKED:
        return np.ascontiguousarray(A[b, 0]), 0
    E = A[b]
    rows, cols = E.shape
    if rows > 1 and cols > 1 and E.strides[0] != E.itemsize:
        E = np.asfortranarray(E)  # (columns not contiguous: a copy whose columns are)
    ld = E.strides[1] // E.itemsize if cols > 1 else rows
    size = ld * (cols - 1) + rows if rows > 0 and cols > 0 else 0
    return np.ascontiguousarray(np.lib.stride_tricks.as_strided(E, shape=(size,), strides=(E.itemsize,))), ld


@numba.njit(cache=True, inline="always")
def _base(kind, upper, n, ld, ku, j):  # type: ignore[no-untyped-def]
    # Where column j of the logical matrix starts in _flat_entry's array, counted from row 0
    # (FULL: A[i, j]; BAND, LAPACK band storage: A[ku + i - j, j]; PACKED: the packed triangle).
    if kind == PACKED:
        return _packed_start(upper, n, j)
    return j * ld + (ku - j if kind == BAND else 0)


@numba.njit(cache=True, inline="always")
def _around(q, r0, r1, s0, s1):  # type: ignore[no-untyped-def]
    # Run q (0, 1) of rows r0..r1-1 outside the shared rows s0..s1-1 (all of them when none are shared).
    if q == 0:
        return r0, (min(r1, s0) if s0 < s1 else r1)
    return max(r0, s1), r1


@numba.njit(cache=True, inline="always")
def _eight_columns(flat, kind, upper, n, ld, ku, j, s0, s1):  # type: ignore[no-untyped-def]
    # Rows s0..s1-1 of columns j..j+7 (_flat_entry's array), as eight slices.
    o = (_base(kind, upper, n, ld, ku, j), _base(kind, upper, n, ld, ku, j + 1), _base(kind, upper, n, ld, ku, j + 2),
         _base(kind, upper, n, ld, ku, j + 3), _base(kind, upper, n, ld, ku, j + 4),
         _base(kind, upper, n, ld, ku, j + 5), _base(kind, upper, n, ld, ku, j + 6),
         _base(kind, upper, n, ld, ku, j + 7))
    return (flat[o[0] + s0:o[0] + s1], flat[o[1] + s0:o[1] + s1], flat[o[2] + s0:o[2] + s1],
            flat[o[3] + s0:o[3] + s1], flat[o[4] + s0:o[4] + s1], flat[o[5] + s0:o[5] + s1],
            flat[o[6] + s0:o[6] + s1], flat[o[7] + s0:o[7] + s1])


def _columns(p, flat, ld, kind, upper, n, kl, ku, unit, i0, i1, j0, j1, xb, trans, zero, po):  # type: ignore[no-untyped-def]
    # Columns j0..j1-1, rows i0..i1-1 of op(A) x for a matrix whose column j holds rows
    # j-ku..j+kl (general, triangular, banded, packed; ``unit``: a unit diagonal, not stored), into p
    # (A^T: p[j] for column j; A: p[i - po] for row i, the block's partial sums from row po on).
    # (numba's: _fused_for_reals, the dots reassociated to vectorize.)
    # Eight columns a pass over the rows they all store, off the diagonal (eight streams from memory
    # at once: one column at a time read a triangle at half the bandwidth), then the rest of each
    # column.  Columns are slices of one flat array and every loop is written out here: a call per
    # column (or numba's inlining of one) ran dgbmv of 3000 x 65 at half this speed.  (Slices,
    # which LLVM knows are in bounds: flat indexed by o + i kept the loops scalar.)
    j = j0
    while j < j1:
        w = 8 if j + 8 <= j1 else 1
        s0, s1 = max(i0, j + w - 1 - ku), min(i1, j + kl + 1)
        if unit:  # (its term is not in the stored columns)
            if kl == 0:
                s1 = min(s1, j)
            elif ku == 0:
                s0 = max(s0, j + w)
            else:
                s1 = s0
        if w == 8 and s1 - s0 >= GROUP_ROWS:
            c0, c1, c2, c3, c4, c5, c6, c7 = _eight_columns(flat, kind, upper, n, ld, ku, j, s0, s1)
            if trans:  # p[j..j+7] += A[s0:s1, j..j+7]^T x[s0:s1]: one pass over x
                v = xb[s0:s1]
                d0 = d1 = d2 = d3 = d4 = d5 = d6 = d7 = zero
                for i in range(s1 - s0):
                    e = v[i]
                    d0 += c0[i] * e
                    d1 += c1[i] * e
                    d2 += c2[i] * e
                    d3 += c3[i] * e
                    d4 += c4[i] * e
                    d5 += c5[i] * e
                    d6 += c6[i] * e
                    d7 += c7[i] * e
                p[j] += d0
                p[j + 1] += d1
                p[j + 2] += d2
                p[j + 3] += d3
                p[j + 4] += d4
                p[j + 5] += d5
                p[j + 6] += d6
                p[j + 7] += d7
            else:  # p[s0:s1] += A[s0:s1, j..j+7] x[j..j+7]: one pass over p
                _axpy8(p[s0 - po:s1 - po], c0, c1, c2, c3, c4, c5, c6, c7, xb[j], xb[j + 1], xb[j + 2], xb[j + 3],
                       xb[j + 4], xb[j + 5], xb[j + 6], xb[j + 7])
        else:
            s1 = s0
        for c in range(w):  # the rest of each column: its rows outside the shared ones and a unit diagonal
            jc = j + c
            o = _base(kind, upper, n, ld, ku, jc)
            r0, r1 = max(i0, jc - ku), min(i1, jc + kl + 1)
            d = unit and r0 <= jc < r1
            # Pieces lo..hi-1 up to the next row left out (no tuple of cuts: most columns, a narrow
            # band's all, are one piece, and its loop's set-up is most of a short column's time).
            lo = r0
            while lo < r1:
                hi = r1
                if s0 < s1 and lo < s1:
                    if lo >= s0:
                        lo = s1
                        continue
                    hi = min(hi, s0)
                if d and lo <= jc:
                    if lo == jc:
                        lo = jc + 1
                        continue
                    hi = min(hi, jc)
                # rows lo..hi-1: p[lo:hi] += A[lo:hi, jc] x_jc (shifted by po), or p[jc] += A[lo:hi, jc] . x[lo:hi]
                col = flat[o + lo:o + hi]
                if trans:
                    v = xb[lo:hi]
                    acc = zero
                    for i in range(hi - lo):
                        acc += col[i] * v[i]
                    p[jc] += acc
                else:
                    pp = p[lo - po:hi - po]
                    t = xb[jc]
                    for i in range(hi - lo):
                        pp[i] += col[i] * t
                lo = hi
            if d:
                p[jc - po] += xb[jc]  # (po is 0 for A^T)
        j += w


_fused_for_reals(_columns, {"reassoc"})


@numba.njit(error_model="numpy", cache=True)
def _matvec_task(t, nrb, ncb, rbs, cbs, m, n, trans, conj, kind, upper, kl, ku, diag, A, xc, part, zero,
                 a, bt, y):  # type: ignore[no-untyped-def]
    # One block of rows x columns of op(A)*x into the partial sums ``part``; a task whose
    # block is the whole sum (one partial) finishes its part of y itself.
    b = t // (nrb * ncb)
    r = t - b * (nrb * ncb)
    rb = r // ncb
    cb = r - rb * ncb
    cb = _light_heavy(cb, ncb)  # (a band's and a general matrix's blocks weigh the same)
    i0 = rb * rbs
    i1 = min(m, i0 + rbs)
    j0 = cb * cbs
    j1 = min(n, j0 + cbs)
    xb = xc[b]
    p = part[b, rb] if trans else part[b, cb]
    # Each task owns its slice of the partial sums: columns j0..j1-1 (A^T) or the rows of i0..i1-1
    # its columns reach (A; all of them when it finishes y itself).  A's column blocks keep only the
    # rows they reach, from row po on (see _matvec_setup).
    lo, hi = (j0, j1) if trans else (i0, i1) if ncb == 1 else _reached(i0, i1, j0, j1, kl, ku)
    po = 0 if trans or ncb == 1 else _reached(0, m, j0, j1, kl, ku)[0]
    for i in range(lo, hi):
        p[i - po] = zero
    flat, ld = _flat_entry(A, b, kind)
    _columns(p, flat, ld, kind, upper, n, kl, ku, diag == DIAG_UNIT, i0, i1, j0, j1, xb, trans, zero, po)
    if conj and trans:
        for j in range(j0, j1):
            p[j] = np.conj(p[j])
    if (nrb if trans else ncb) == 1:
        for i in range(lo, hi):
            y[b, i] = _updated(a, p[i], bt, y[b, i])


@numba.njit(error_model="numpy", cache=True)
def _matvec_setup(trans, conj, kl, ku, alpha, x, beta, y, task_bytes):  # type: ignore[no-untyped-def]
    # The serial part of matvec before its parallel loop (kept out of the parallel kernel,
    # whose compile time grows with its size): alpha == 0, the blocking, the partial sums.  A's
    # column blocks (several) keep the rows they reach only, cbs + kl + ku at most: full-length rows
    # made a band's partial sums n^2 / cbs elements (31 GB for n = 10^6).
    nb, leny = y.shape
    a = alpha[0]
    bt = beta[0]
    zero = _one_zero(y)[1]
    if a == 0:
        for b in range(nb):
            _beta_only(y[b], bt, zero)
    m = x.shape[1] if trans else leny
    n = leny if trans else x.shape[1]
    rbs = RB_T if trans else RB_N
    cbs = CB_T if trans else CB_N
    # A band narrower than a row block: one row block (more would be tasks whose columns reach none
    # of their rows, n^2 / (rbs * cbs) of them, 0.4 s of dgbmv with n = 10^6).
    if kl + ku + cbs <= rbs:
        rbs = max(m, 1)
    if _one_task(n, min(m, kl + ku + 1), y, task_bytes):
        rbs, cbs = max(m, 1), max(n, 1)
    nrb = (m + rbs - 1) // rbs
    ncb = (n + cbs - 1) // cbs
    width = leny if trans or ncb == 1 else min(leny, cbs + kl + ku)
    part = np.empty((nb, nrb if trans else ncb, width), dtype=y.dtype)
    xc = np.conj(x) if conj else np.ascontiguousarray(x)  # contiguous; A^H x = conj(A^T conj(x))
    tasks = 0 if a == 0 else nb * nrb * ncb
    return tasks, nrb, ncb, rbs, cbs, m, n, a, bt, zero, part, xc


@numba.njit(cache=True, inline="always")
def _blocks_added(part, b, s, every, cbs, m, n, kl, ku):  # type: ignore[no-untyped-def]
    # s := entry b's partial sums added in block order, each over the rows its block has: every row,
    # or those its cbs columns reach in an m x n matrix with kl/ku off-diagonals, kept from the first
    # of them on.  Row by row (a loop over the blocks inside one over the rows read them 24 KB apart).
    s[:] = 0
    for q in range(part.shape[1]):
        lo, hi = (0, s.shape[0]) if every else _reached(0, m, q * cbs, min(n, (q + 1) * cbs), kl, ku)
        for i in range(lo, hi):
            s[i] += part[b, q, i - lo]


@numba.njit(error_model="numpy", cache=True)
def _matvec_finish(part, trans, cbs, m, n, kl, ku, a, bt, y):  # type: ignore[no-untyped-def]
    # Several partial sums per element: added in block order (all rows for A^T; for A those its
    # columns reach).
    if part.shape[1] < 2:
        return
    s = np.empty(y.shape[1], dtype=y.dtype)
    for b in range(y.shape[0]):
        _blocks_added(part, b, s, trans, cbs, m, n, kl, ku)
        for i in range(y.shape[1]):
            y[b, i] = _updated(a, s[i], bt, y[b, i])


@kernel
def matvec(trans, conj, kind, upper, kl, ku, diag, alpha, A, x, beta, y, task_bytes, copy_x):  # type: ignore[no-untyped-def]
    # y := alpha*op(A)*x + beta*y, op(A) = A, A^T or (conj) A^H.  The logical A is m x n;
    # column j holds rows max(0, j-ku) .. min(m, j+kl+1)-1 (all of them for a general
    # matrix).  beta == 0 never reads y; alpha == 0 never reads A or x (may be empty then).
    # copy_x: x is y (trmv's x := op(A) x), the product taken from a copy of it (rocBLAS's workspace).
    if copy_x:
        x = x.copy()
    tasks, nrb, ncb, rbs, cbs, m, n, a, bt, zero, part, xc = _matvec_setup(trans, conj, kl, ku, alpha, x, beta, y,
                                                                          task_bytes)
    for t in prange(tasks):
        # np.int64: the parallel loop's index is unsigned, and the task would compile twice.
        _matvec_task(np.int64(t), nrb, ncb, rbs, cbs, m, n, trans, conj, kind, upper, kl, ku, diag, A, xc, part,
                     zero, a, bt, y)
    if tasks:
        _matvec_finish(part, trans, cbs, m, n, kl, ku, a, bt, y)


SYMV_CB = 64  # columns per task of a symmetric (Hermitian) product


@numba.njit(cache=True, inline="always")
def _one_task(columns, rows, y, task_bytes):  # type: ignore[no-untyped-def]
    # Whether an entry of ``columns`` stored columns of at most ``rows`` elements is one task (at
    # most ``task_bytes``, the launcher's ENTRY_TASK_BYTES): its columns in turn into one sum.
    return columns * rows * y.itemsize <= task_bytes


@numba.njit(cache=True, inline="always")
def _both_uses(col, pp, v, t, acc, herm):  # type: ignore[no-untyped-def]
    # A stored column's two uses in one loop: pp += col * t, and acc plus col . v (conj(col) for a
    # Hermitian A) returned.  Inlined into _symv_task (numba's IR: its fast-math flags; a compiled
    # call per column ran dsbmv of 3000 with 32 diagonals 2x slower); one loop for both, the dot
    # reassociated to vectorize: 77 -> 64 us against an axpy and a dot.
    for i in range(col.shape[0]):
        e = col[i]
        pp[i] += e * t
        acc += (np.conj(e) if herm else e) * v[i]
    return acc


def _axpy8_dots(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7, v, herm, zero):  # type: ignore[no-untyped-def]
    """:func:`_axpy8` into p, and the eight columns' dots with v (conjugated for a Hermitian A)
    returned: real ones in the same pass (dsymv of 500 on one thread 40 -> 24 us), complex ones
    after it, each by :func:`_dot_block` (in the pass they took 1.5x as long: zhemv of 500 81 -> 122)."""


@overload(_axpy8_dots, inline="always")
def _axpy8_dots_impl(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7, v, herm, zero):  # type: ignore[no-untyped-def]
    return _axpy8_then_dots if isinstance(p.dtype, types.Complex) else _axpy8_with_dots


def _axpy8_then_dots(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7, v, herm, zero):  # type: ignore[no-untyped-def]
    _axpy8(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7)
    return (_dot_block(c0, v, herm, zero), _dot_block(c1, v, herm, zero), _dot_block(c2, v, herm, zero),
            _dot_block(c3, v, herm, zero), _dot_block(c4, v, herm, zero), _dot_block(c5, v, herm, zero),
            _dot_block(c6, v, herm, zero), _dot_block(c7, v, herm, zero))


def _axpy8_with_dots(p, c0, c1, c2, c3, c4, c5, c6, c7, t0, t1, t2, t3, t4, t5, t6, t7, v, herm, zero):  # type: ignore[no-untyped-def]
    d0 = d1 = d2 = d3 = d4 = d5 = d6 = d7 = zero
    for i in range(p.shape[0]):
        xi = v[i]
        e0, e1, e2, e3 = c0[i], c1[i], c2[i], c3[i]
        e4, e5, e6, e7 = c4[i], c5[i], c6[i], c7[i]
        q = p[i]
        q += e0 * t0
        q += e1 * t1
        q += e2 * t2
        q += e3 * t3
        q += e4 * t4
        q += e5 * t5
        q += e6 * t6
        q += e7 * t7
        p[i] = q
        d0 += e0 * xi
        d1 += e1 * xi
        d2 += e2 * xi
        d3 += e3 * xi
        d4 += e4 * xi
        d5 += e5 * xi
        d6 += e6 * xi
        d7 += e7 * xi
    return d0, d1, d2, d3, d4, d5, d6, d7


def _symv_task(t, ncb, cbs, kind, upper, k, herm, A, xc, part, dots, one, zero):  # type: ignore[no-untyped-def]
    # One block of columns of the stored triangle (k off-diagonals), each read once for both of
    # its uses: the column times x_j into the block's partial sums (the stored part's product) and
    # its dot with x (the mirrored part's, conjugated for a Hermitian A), plus the diagonal, into
    # dots[j].  Eight columns a pass over the rows they all store when there are GROUP_ROWS of them
    # (eight streams from memory at once: one column at a time read the triangle at half the
    # bandwidth), then the rest of each column.
    b = t // ncb
    cb = _light_heavy(t - b * ncb, ncb)
    n = xc.shape[1]
    ku = k if upper else 0
    j0 = cb * cbs
    j1 = min(n, j0 + cbs)
    p = part[b, cb]
    lo, hi = _reached(0, n, j0, j1, 0 if upper else k, ku)  # the rows the block's columns reach
    po = lo  # (the block's partial sums start at its first row: see symv)
    for i in range(lo, hi):
        p[i - po] = zero
    xb = xc[b]
    flat, ld = _flat_entry(A, b, kind)
    for j in range(j0, j1):
        d = flat[_base(kind, upper, n, ld, ku, j) + j]
        dots[b, j] = (one * d.real if herm else d) * xb[j]
    if k - 7 < GROUP_ROWS:  # no eight columns share GROUP_ROWS rows (a narrow band): each column whole,
        for jc in range(j0, j1):  # as below, without its passes and pieces (dsbmv of 3000, 32: 49 -> 41 us)
            o = _base(kind, upper, n, ld, ku, jc)
            lo, hi = (max(0, jc - k), jc) if upper else (jc + 1, min(n, jc + k + 1))
            dots[b, jc] = _both_uses(flat[o + lo:o + hi], p[lo - po:hi - po], xb[lo:hi], xb[jc], dots[b, jc], herm)
        return
    j = j0
    while j < j1:
        w = 8 if j + 8 <= j1 else 1  # columns of this pass
        s0, s1 = (max(0, j + w - 1 - k), j) if upper else (j + w, min(n, j + k + 1))  # rows they all store
        if w == 8 and s1 - s0 >= GROUP_ROWS:
            c0, c1, c2, c3, c4, c5, c6, c7 = _eight_columns(flat, kind, upper, n, ld, ku, j, s0, s1)
            d0, d1, d2, d3, d4, d5, d6, d7 = _axpy8_dots(
                p[s0 - po:s1 - po], c0, c1, c2, c3, c4, c5, c6, c7, xb[j], xb[j + 1], xb[j + 2], xb[j + 3],
                xb[j + 4], xb[j + 5], xb[j + 6], xb[j + 7], xb[s0:s1], herm, zero)
            dots[b, j] += d0
            dots[b, j + 1] += d1
            dots[b, j + 2] += d2
            dots[b, j + 3] += d3
            dots[b, j + 4] += d4
            dots[b, j + 5] += d5
            dots[b, j + 6] += d6
            dots[b, j + 7] += d7
        else:
            s1 = s0
        for c in range(w):  # the rest of each column (all of it, or the rows above and below s0..s1-1)
            jc = j + c
            o = _base(kind, upper, n, ld, ku, jc)
            r0, r1 = (max(0, jc - k), jc) if upper else (jc + 1, min(n, jc + k + 1))  # its stored rows
            for q in range(2 if s0 < s1 else 1):
                lo, hi = _around(q, r0, r1, s0, s1)
                if lo < hi:
                    dots[b, jc] = _both_uses(flat[o + lo:o + hi], p[lo - po:hi - po], xb[lo:hi], xb[jc], dots[b, jc],
                                             herm)
        j += w


_fused_for_reals(_symv_task, {"reassoc"}, by="xc", once=True)


@kernel
def symv(kind, upper, k, herm, alpha, A, x, beta, y, task_bytes):  # type: ignore[no-untyped-def]
    # y := alpha*A*x + beta*y for a symmetric (Hermitian) A given by its stored triangle (k
    # off-diagonals; full, banded or packed storage), read once: dsymv of 3000 took 3.7 ms as two
    # passes (A x and A^T x over the triangle), OpenBLAS's 1.1-1.3.  Fixed column blocks and their
    # partial sums added in block order: the bits do not depend on the thread count.  beta == 0
    # never reads y; alpha == 0 never reads A or x.
    nb, n = y.shape
    a = alpha[0]
    bt = beta[0]
    one, zero = _one_zero(y)
    if a == 0:
        for b in range(nb):
            _beta_only(y[b], bt, zero)
        return
    cbs = max(n, 1) if _one_task(n, k + 1, y, task_bytes) else SYMV_CB
    ncb = (n + cbs - 1) // cbs
    xc = np.ascontiguousarray(x)
    # Each block's partial sums over the rows it reaches only (cbs + k at most): full-length
    # rows made n^2 / SYMV_CB of them, 5 GB for a band of n = 200,000 (13.6 s), too many at 10^6.
    part = np.empty((nb, ncb, min(n, cbs + k)), dtype=y.dtype)
    dots = np.empty((nb, n), dtype=y.dtype)
    for t in prange(nb * ncb):
        _symv_task(np.int64(t), ncb, cbs, kind, upper, k, herm, A, xc, part, dots, one, zero)
    s = np.empty(n, dtype=y.dtype)
    for b in range(nb):
        _blocks_added(part, b, s, False, cbs, n, n, 0 if upper else k, k if upper else 0)
        for i in range(n):
            y[b, i] = _updated(a, s[i] + dots[b, i], bt, y[b, i])


@numba.njit(cache=True, inline="always")
def _solved_piece(q, lo, hi, down):  # type: ignore[no-untyped-def]
    # Piece q of rows lo..hi-1 cut at multiples of TRSV_NB, counted top down or bottom up.
    first, last = lo // TRSV_NB, (hi - 1) // TRSV_NB
    c = first + q if down else last - q
    return max(lo, c * TRSV_NB), min(hi, (c + 1) * TRSV_NB)


@numba.njit(cache=True, inline="always")
def _solved_pieces(lo, hi):  # type: ignore[no-untyped-def]
    return (hi - 1) // TRSV_NB - lo // TRSV_NB + 1 if hi > lo else 0


@numba.njit(cache=True, inline="always")
def _minus_solved(s, col, r0, w, lo, hi, down):  # type: ignore[no-untyped-def]
    # s - A[lo:hi, j] . w[lo:hi] (col: column j from row r0) in a transposed solve: a dot per piece
    # of the rows cut at multiples of TRSV_NB, the pieces in the order the solve reached their rows
    # (top down for an upper triangle, bottom up for a lower one) and each in rocmath.simd's order,
    # so that the blocked solve (trsv_blocked) can take the pieces of the blocks solved before in
    # parallel and keep each bit.
    for q in range(_solved_pieces(lo, hi)):
        i0, i1 = _solved_piece(q, lo, hi, down)
        s -= sum_products(col[i0 - r0:i1 - r0], w[i0:i1])
    return s


def _dots4(c0, c1, c2, c3, v):  # type: ignore[no-untyped-def]
    """``(sum_products(c0, v), ..., sum_products(c3, v))``, the same bits: real columns in one pass
    (rocmath.simd.sum_products4, v loaded once for the four), complex ones in turn."""


@overload(_dots4, inline="always")
def _dots4_impl(c0, c1, c2, c3, v):  # type: ignore[no-untyped-def]
    if isinstance(v.dtype, types.Complex):
        return lambda c0, c1, c2, c3, v: (sum_products(c0, v), sum_products(c1, v), sum_products(c2, v),
                                          sum_products(c3, v))
    return lambda c0, c1, c2, c3, v: sum_products4(c0, c1, c2, c3, v)


@numba.njit(error_model="numpy", cache=True)
def _minus_solved4(w, A, upper, n, j, lo, hi):  # type: ignore[no-untyped-def]
    # _minus_solved for columns j..j+3 of a full triangle (rows lo..hi-1, all solved) into w[j..j+3],
    # piece by piece, the four columns' dots with it together (four streams from memory at once, the
    # piece of w read once for them), each column's in its order.
    c0 = _column_run(A, 0, FULL, upper, n, 0, j, lo, hi)
    c1 = _column_run(A, 0, FULL, upper, n, 0, j + 1, lo, hi)
    c2 = _column_run(A, 0, FULL, upper, n, 0, j + 2, lo, hi)
    c3 = _column_run(A, 0, FULL, upper, n, 0, j + 3, lo, hi)
    s0, s1, s2, s3 = w[j], w[j + 1], w[j + 2], w[j + 3]
    for q in range(_solved_pieces(lo, hi)):
        i0, i1 = _solved_piece(q, lo, hi, upper)
        d0, d1, d2, d3 = _dots4(c0[i0 - lo:i1 - lo], c1[i0 - lo:i1 - lo], c2[i0 - lo:i1 - lo], c3[i0 - lo:i1 - lo],
                                w[i0:i1])
        s0 -= d0
        s1 -= d1
        s2 -= d2
        s3 -= d3
    w[j], w[j + 1], w[j + 2], w[j + 3] = s0, s1, s2, s3


@numba.njit(cache=True, inline="always")
def _solved_step(w, col, r0, j, r1, trans, upper, unit):  # type: ignore[no-untyped-def]
    # Step j of a substitution on column j (col: its rows r0..r1-1 of those it stores, diagonal
    # included).  op T: w_j = (w_j - sum_{i != j} A[i, j] w_i) / A[j, j] over those rows.  op N:
    # w_j /= A[j, j], then w_i -= w_j A[i, j] along them.
    s = w[j]
    if trans:
        s = _minus_solved(s, col, r0, w, r0, j, True) if upper else _minus_solved(s, col, r0, w, j + 1, r1, False)
        w[j] = s if unit else _divide(s, col[j - r0])
        return
    if not unit:
        s = _divide(s, col[j - r0])
    w[j] = s
    if upper:
        _axpy(w[r0:j], col[:j - r0], -s)
    else:
        _axpy(w[j + 1:r1], col[j - r0 + 1:], -s)


@numba.njit(error_model="numpy", cache=True)
def _trsv_entry(trans, conj, kind, upper, k, unit, A, x, b, w):  # type: ignore[no-untyped-def]
    # Solve op(A_b) x_b = x_b in the contiguous copy w; op = N or T, A^H as A^T on conj(x)
    # (exact: Smith's division commutes with conj).  op(A) lower (N lower, T upper): forward
    # substitution.
    n = w.shape[0]
    for i in range(n):
        w[i] = np.conj(x[b, i]) if conj else x[b, i]
    kl = 0 if upper else k
    ku = k if upper else 0
    forward = upper == trans
    for step in range(n):
        j = step if forward else n - 1 - step
        r0 = max(0, j - ku)
        r1 = min(n, j + kl + 1)
        _solved_step(w, _column_run(A, b, kind, upper, n, ku, j, r0, r1), r0, j, r1, trans, upper, unit)
    for i in range(n):
        x[b, i] = np.conj(w[i]) if conj else w[i]


@kernel
def trsv(trans, conj, kind, upper, k, unit, A, x):  # type: ignore[no-untyped-def]
    # x := op(A)^-1 x for a triangular A with k off-diagonals (n-1 for full and packed
    # storage), one batch entry per task.  No singularity check: a zero diagonal gives inf/NaN.
    work = np.empty(x.shape, dtype=x.dtype)
    for b in prange(x.shape[0]):
        _trsv_entry(trans, conj, kind, upper, k, unit, A, x, np.int64(b), work[b])


@numba.njit(error_model="numpy", cache=True)
def _trsv_update(w, A, upper, j0, j1, r0, r1):  # type: ignore[no-untyped-def]
    # Rows r0..r1-1 of w get the solved block j0..j1-1's columns, in the serial solve's order.
    n = w.shape[0]
    ws = w[r0:r1]
    step = 0
    while step + 4 <= j1 - j0:
        ja = j1 - 1 - step if upper else j0 + step
        d = -1 if upper else 1
        _axpy4(ws, _column_run(A, 0, FULL, upper, n, 0, ja, r0, r1),
               _column_run(A, 0, FULL, upper, n, 0, ja + d, r0, r1),
               _column_run(A, 0, FULL, upper, n, 0, ja + 2 * d, r0, r1),
               _column_run(A, 0, FULL, upper, n, 0, ja + 3 * d, r0, r1),
               -w[ja], -w[ja + d], -w[ja + 2 * d], -w[ja + 3 * d])
        step += 4
    while step < j1 - j0:
        j = j1 - 1 - step if upper else j0 + step
        _axpy(ws, _column_run(A, 0, FULL, upper, n, 0, j, r0, r1), -w[j])
        step += 1


@kernel
def trsv_blocked(trans, conj, upper, unit, A, x, parts):  # type: ignore[no-untyped-def]
    # x := op(A)^-1 x for one large triangular A in full storage, by diagonal blocks of TRSV_NB
    # columns.  op N: a block solved serially, then the rows beyond it updated by its columns in
    # ``parts`` parallel chunks (the thread count), four columns a pass.  op T (C: on conj(x)):
    # first each column of the block takes its dots with the rows solved before (_minus_solved's
    # pieces), the columns in ``parts`` parallel chunks, then the block is solved serially.  Every
    # element sees the same operations in the same order as in the one-column-at-a-time solve
    # (trsv's), whatever the chunks, so the bits are the same (dtrsv of 3000 ran 2.6 ms serially,
    # OpenBLAS's 1.7-1.9).
    n = x.shape[1]
    w = np.empty(n, dtype=x.dtype)
    for i in range(n):
        w[i] = np.conj(x[0, i]) if conj else x[0, i]
    nblk = (n + TRSV_NB - 1) // TRSV_NB
    forward = upper == trans
    for step in range(nblk):
        blk = step if forward else nblk - 1 - step
        j0 = blk * TRSV_NB
        j1 = min(n, j0 + TRSV_NB)
        if trans:
            lo, hi = (0, j0) if upper else (j1, n)  # the rows solved before
            per = (j1 - j0 + parts - 1) // parts
            for c in prange(parts):
                j, jend = j0 + c * per, min(j1, j0 + (c + 1) * per) if lo < hi else 0
                while j + 4 <= jend:
                    _minus_solved4(w, A, upper, n, j, lo, hi)
                    j += 4
                while j < jend:
                    w[j] = _minus_solved(w[j], _column_run(A, 0, FULL, upper, n, 0, j, lo, hi), lo, w, lo, hi, upper)
                    j += 1
        for jj in range(j1 - j0):  # the block itself, as the column-by-column solve
            j = j0 + jj if forward else j1 - 1 - jj
            r0, r1 = (j0, j + 1) if upper else (j, j1)
            _solved_step(w, _column_run(A, 0, FULL, upper, n, 0, j, r0, r1), r0, j, r1, trans, upper, unit)
        if trans:
            continue
        lo, hi = (0, j0) if upper else (j1, n)
        per = (hi - lo + parts - 1) // parts
        for c in prange(parts):
            r0 = lo + c * per
            r1 = min(hi, r0 + per)
            if r0 < r1:
                _trsv_update(w, A, upper, j0, j1, r0, r1)
    for i in range(n):
        x[0, i] = np.conj(w[i]) if conj else w[i]


@numba.njit(cache=True, inline="always")
def _rank4(c0, c1, c2, c3, xs, ys, s0, s1, s2, s3, u0, u1, u2, u3, two):  # type: ignore[no-untyped-def]
    # Four columns of a rank update in one pass: c_k += xs s_k (+ ys u_k), element by element.
    if two:
        for i in range(xs.shape[0]):
            xi, yi = xs[i], ys[i]
            c0[i] += xi * s0 + yi * u0
            c1[i] += xi * s1 + yi * u1
            c2[i] += xi * s2 + yi * u2
            c3[i] += xi * s3 + yi * u3
    else:
        for i in range(xs.shape[0]):
            xi = xs[i]
            c0[i] += xi * s0
            c1[i] += xi * s1
            c2[i] += xi * s2
            c3[i] += xi * s3


@numba.njit(cache=True, inline="always")
def _rank1(c, xs, ys, s, u, two):  # type: ignore[no-untyped-def]
    # One column of a rank update: c += xs s (+ ys u), element by element.
    if two:
        for i in range(xs.shape[0]):
            c[i] += xs[i] * s + ys[i] * u
    else:
        for i in range(xs.shape[0]):
            c[i] += xs[i] * s


@numba.njit(cache=True, inline="always")
def _rank_scales(a, a2, x, y, j, herm, conj_y):  # type: ignore[no-untyped-def]
    # What column j of a rank update adds: x times alpha op(y_j), and y times alpha' op(x_j).
    return a * (np.conj(y[j]) if herm or conj_y else y[j]), a2 * (np.conj(x[j]) if herm else x[j])


@numba.njit(error_model="numpy", cache=True)
def _rank_task(t, ncb, cbs, kind, upper, general, herm, two, conj_y, a, x, y, A):  # type: ignore[no-untyped-def]
    # Columns of one block of one entry: A[:, j] += x op(y_j) alpha [+ y op(x_j) alpha'], x and y
    # contiguous, A's columns unit-stride (run_rank_update).  A triangle's blocks are taken light
    # and heavy in turn.  Four columns a pass over the rows they all store, when RANK_GROUP_ROWS or
    # more (four streams at once: dger of 3000 ran 1.4 ms against 2.1 one column at a time,
    # OpenBLAS 2.3), then the rest of each; columns as slices of one flat array, so the loops
    # vectorize.
    b = t // ncb
    k = t - b * ncb
    cb = k if general else _light_heavy(k, ncb)
    m = x.shape[1]
    n = y.shape[1]
    a2 = np.conj(a) if herm else a
    xb = x[b]
    yb = y[b]
    flat, ld = _flat_entry(A, b, kind)
    j = cb * cbs
    j1 = min(n, (cb + 1) * cbs)
    if general and m < RANK_SHORT_ROWS:
        # Columns this short: a row at a time along the block (the same element updates, in the same
        # order per element); a column's slices and loop set-up cost several times its few updates
        # (dger of 1 x 10^6: 7.7 ms column by column, 2.5 row by row; OpenBLAS 2.2).  (A general
        # update, ger/geru/gerc, has the one term x op(y_j) alpha.)
        for i in range(m):
            for jc in range(j, j1):
                flat[jc * ld + i] += xb[i] * _rank_scales(a, a2, xb, yb, jc, herm, conj_y)[0]
        return
    while j < j1:
        w = 4 if j + 4 <= j1 else 1
        # The rows every column of the pass stores: column j holds 0..m-1 (general), 0..j (upper)
        # or j..n-1 (lower).
        s0, s1 = (0, m) if general else (0, j + 1) if upper else (j + w - 1, n)
        if w == 4 and s1 - s0 >= RANK_GROUP_ROWS:
            o0, o1 = _base(kind, upper, n, ld, 0, j), _base(kind, upper, n, ld, 0, j + 1)
            o2, o3 = _base(kind, upper, n, ld, 0, j + 2), _base(kind, upper, n, ld, 0, j + 3)
            s_0, u_0 = _rank_scales(a, a2, xb, yb, j, herm, conj_y)
            s_1, u_1 = _rank_scales(a, a2, xb, yb, j + 1, herm, conj_y)
            s_2, u_2 = _rank_scales(a, a2, xb, yb, j + 2, herm, conj_y)
            s_3, u_3 = _rank_scales(a, a2, xb, yb, j + 3, herm, conj_y)
            _rank4(flat[o0 + s0:o0 + s1], flat[o1 + s0:o1 + s1], flat[o2 + s0:o2 + s1], flat[o3 + s0:o3 + s1],
                   xb[s0:s1], yb[s0:s1], s_0, s_1, s_2, s_3, u_0, u_1, u_2, u_3, two)
        else:
            s1 = s0
        for c in range(w):  # the rest of each column
            jc = j + c
            r0, r1 = (0, m) if general else (0, jc + 1) if upper else (jc, n)
            o = _base(kind, upper, n, ld, 0, jc)
            sj, uj = _rank_scales(a, a2, xb, yb, jc, herm, conj_y)
            for q in range(2 if s0 < s1 else 1):
                lo, hi = _around(q, r0, r1, s0, s1)
                if lo < hi:
                    _rank1(flat[o + lo:o + hi], xb[lo:hi], yb[lo:hi], sj, uj, two)
            if herm:  # reference BLAS: a real diagonal, real(a_jj) + real(x_j s (+ y_j u)): that sum's real part
                flat[o + jc] = flat[o + jc].real
        j += w


@kernel
def rank_update(kind, upper, general, herm, two, conj_y, alpha, x, y, A):  # type: ignore[no-untyped-def]
    # A += alpha x op(y)^T [+ alpha' y op(x)^T] on the stored part of A, column by column:
    # ger/geru (general), gerc (conj_y), syr/syr2, her/her2 (herm: conjugates, alpha' =
    # conj(alpha), real diagonal), full or packed.  One-vector updates pass y = x.  As
    # rocBLAS's kernels, alpha == 0 (device pointer mode) returns at once.
    # A general matrix's short columns go more to a task (the element updates do not depend on the
    # split): dger of 8 x 10^5 made 6250 tasks of 128 elements.
    cbs = max(CB_R, RANK_TASK_ELEMENTS // max(x.shape[1], 1)) if general else CB_R
    ncb = (y.shape[1] + cbs - 1) // cbs
    a = alpha[0]
    tasks = A.shape[0] * ncb
    if a == 0:
        tasks = 0
    xc = np.ascontiguousarray(x)
    yc = np.ascontiguousarray(y)
    for t in prange(tasks):
        _rank_task(np.int64(t), ncb, cbs, kind, upper, general, herm, two, conj_y, a, xc, yc, A)


#: Entries of a batched gemv go in at most this many chunks, each with scratch of its own.
GEMV_CHUNKS = 256

#: The large gemv's column panels (a fixed number, not the thread count: a row's sum is then the
#: same bits on every machine) and the fewest columns a panel has.
GEMV_PANELS = 2
GEMV_PANEL_COLUMNS = 64


@kernel
def gemv_batch(trans, conj, alpha, A, x, beta, y):  # type: ignore[no-untyped-def]
    """``y_b := alpha op(A_b) x_b + beta y_b`` for a batch of general matrices with unit-stride
    columns, one entry at a time in chunks of entries: op(A) = A as columns times x_j added into
    an accumulator (in order of j for each row), A^T and A^H as each column's dot with x in
    rocmath.simd's order (in order for columns shorter than 16).  Scratch is per chunk: arrays
    for the whole batch, fresh pages each call, took 3/4 of 10^5 gemv of 8 x 8 (8.3 ms against
    numpy.matmul's 4.9).  beta == 0 never reads y; alpha == 0 never reads A or x."""
    nb, m, n = A.shape
    a = alpha[0]
    bt = beta[0]
    zero = _one_zero(y)[1]
    leny = y.shape[1]
    per = (nb + GEMV_CHUNKS - 1) // GEMV_CHUNKS
    for c in prange((nb + per - 1) // per):
        acc = np.empty(leny, dtype=y.dtype)
        xs = np.empty(x.shape[1], dtype=x.dtype)
        for b in range(c * per, min(nb, (c + 1) * per)):
            yb = y[b]
            if a == 0:
                _beta_only(yb, bt, zero)
                continue
            if trans and m < 16:  # short columns: dots in order (the lanes' set-up cost more than the sums)
                for j in range(n):
                    d = zero
                    for i in range(m):
                        d += (np.conj(A[b, i, j]) if conj else A[b, i, j]) * x[b, i]
                    acc[j] = d
            elif trans:
                xr = x[b]
                if not _adjacent(xr):
                    for i in range(xr.shape[0]):
                        xs[i] = xr[i]
                    xr = xs
                xv = _view(xr)
                for j in range(n):
                    col = _view(A[b, :, j])
                    acc[j] = sum_conj_products(col, xv) if conj else sum_products(col, xv)
            else:
                for i in range(m):
                    acc[i] = zero
                for j in range(n):
                    t = x[b, j]
                    for i in range(m):
                        acc[i] += A[b, i, j] * t
            for i in range(leny):
                yb[i] = _updated(a, acc[i], bt, yb[i])


# --- what the routines launch ----------------------------------------------------------------


def column_major(A: np.ndarray) -> np.ndarray:
    """``A`` with unit-stride columns: gathered pointer-array entries are row-major staging
    copies; another copy makes their columns contiguous for the kernels."""
    if A.shape[1] > 1 and A.shape[2] > 1 and A.strides[1] != A.itemsize:
        return np.ascontiguousarray(A.transpose(0, 2, 1)).transpose(0, 2, 1)
    return A


def task_bytes(nb: int) -> int:
    """The ``task_bytes`` of matvec and symv for a batch of ``nb`` entries: ENTRY_TASK_BYTES for one
    entry (a launch of at most that size runs on one thread) or ENTRY_TASK_BATCH and more, enough
    tasks to share out; else 0, column blocks (three entries of 2 MiB on two threads would leave one
    idle a third of the time).  A fixed count, not the thread count: the same bits on every machine."""
    return ENTRY_TASK_BYTES if nb == 1 or nb >= ENTRY_TASK_BATCH else 0


def trsv_is_blocked(kind: int, nb: int, n: int) -> bool:
    """Whether trsv solves by diagonal blocks (one large dense entry) rather than in one pass."""
    return kind == FULL and nb == 1 and n >= 4 * TRSV_NB


def run_matvec(trans: bool, conj: bool, kind: int, upper: bool, kl: int, ku: int, diag: int,
               alpha: np.ndarray, A: np.ndarray, x: np.ndarray, beta: np.ndarray, y: np.ndarray) -> None:
    """gemv, gbmv (and the mixed-precision gemv, on float32 copies): ``y := alpha*op(A)*x + beta*y``."""
    A = column_major(A)
    _, m, n = A.shape
    if kind == FULL and A.shape[0] > 1 and m > 0 and n > 0 and (m == 1 or A.strides[1] == A.itemsize):
        gemv_batch(trans, conj, alpha, A, x, beta, y)
        return
    matvec(trans, conj, kind, upper, kl, ku, diag, alpha, A, x, beta, y, task_bytes(A.shape[0]), False)


def run_symv(herm: bool, kind: int, upper: bool, k: int, alpha: np.ndarray, A: np.ndarray, x: np.ndarray,
             beta: np.ndarray, y: np.ndarray) -> None:
    """symv, spmv, sbmv, hemv, hpmv, hbmv from the stored triangle (diagonal included, ``k``
    off-diagonals): ``y := alpha*A*x + beta*y``."""
    symv(kind, upper, k, herm, alpha, column_major(A), x, beta, y, task_bytes(A.shape[0]))


def run_trmv(trans: bool, conj: bool, kind: int, upper: bool, k: int, unit: bool, A: np.ndarray,
             x: np.ndarray) -> None:
    """trmv, tpmv, tbmv on entries gathered through pointer arrays: ``x := op(A)*x`` (column-major
    entries launch :func:`matvec` themselves: :func:`trmv_args`)."""
    matvec(*trmv_args(trans, conj, kind, upper, k, unit, column_major(A), x, A.shape[0]))


def trmv_args(trans: bool, conj: bool, kind: int, upper: bool, k: int, unit: bool, A: Any, x: Any,
              nb: int) -> tuple[Any, ...]:
    """:func:`matvec`'s arguments for trmv, tpmv, tbmv on ``nb`` entries: ``x := op(A)*x`` from a copy of x."""
    kl, ku = (0, k) if upper else (k, 0)
    dtype = x.dtype if isinstance(x, np.ndarray) else x.kernel_dtype
    one = np.ones(1, dtype)
    return (trans, conj, kind, upper, kl, ku, DIAG_UNIT if unit else DIAG_STORED, one, A, x, one - one, x,
            task_bytes(nb), True)


def run_trsv(trans: bool, conj: bool, kind: int, upper: bool, k: int, unit: bool, A: np.ndarray,
             x: np.ndarray) -> None:
    """trsv, tpsv, tbsv: ``x := op(A)^-1 * x``."""
    A = column_major(A)
    if trsv_is_blocked(kind, A.shape[0], A.shape[2]) and A.strides[1] == A.itemsize:
        trsv_blocked(trans, conj, upper, unit, A, x, pool_threads())
        return
    trsv(trans, conj, kind, upper, k, unit, A, x)


def run_rank_update(kind: int, upper: bool, general: bool, herm: bool, two: bool, conj_y: bool,
                    alpha: np.ndarray, x: np.ndarray, y: np.ndarray | None, A: np.ndarray) -> None:
    """ger/geru/gerc, syr/syr2/her/her2, spr/spr2/hpr/hpr2 (y None: a one-vector update)."""
    # A real alpha (her, hpr) as a complex one: one compiled kernel per precision.  Entries staged
    # row-major (gathered pointer arrays) are updated in a column-major copy, copied back.
    work = column_major(A) if kind != PACKED else A
    rank_update(kind, upper, general, herm, two, conj_y, alpha.astype(A.dtype), x, x if y is None else y, work)
    if work is not A:
        A[...] = work


# --- one dense gemv ---------------------------------------------------------------------------

def gemv_flat(trans, conj, alpha, beta, A, lda, m, n, x, y, blocks):  # type: ignore[no-untyped-def]
    """One dense gemv, ``y := alpha op(A) x + beta y``, A given as a flat contiguous view
    from its first element (column j at j * lda), x contiguous, in ``blocks`` parallel blocks (the
    thread count: :func:`rocmath.kernel.pool_threads`).  Not transposed: the columns in
    ``GEMV_PANELS`` panels (one when there are fewer than ``2 * GEMV_PANEL_COLUMNS``), each summed
    into an accumulator of its own, then added in panel order; the threads share the panels out,
    splitting their rows when there are more threads than panels.  Each task streams its columns 8 at
    a time into its accumulator, which stays in cache (one read and write of it per 8 columns; 4 at
    a time measured 1-11 % slower at 2048^2-4096^2).  Whole columns of one region of A per thread, with
    FMA contraction, against threads sharing every column by rows: 1-10 % faster at 2048^2, even at
    3163^2 and 4096^2, 2-6 % on 64 x 65536, 256 x 16384 and 65536 x 256 (kernels timed in shuffled
    order: the one timed right after numpy's pays ~10 % for it).  Transposed:
    blocks of columns, each a dot product of contiguous vectors (vectorized, summed in the one
    order of the Level-1 reductions).  A row's or column's sum does not depend on the blocks, so
    the bits are the same whatever the thread count.  Array indices are used as uint64, without
    numba's wrap-around of negative indices, which would keep the loops from vectorizing.
    ``alpha == 0`` (a device scalar) never reads A or x."""
    al, be = alpha[0], beta[0]
    if al == 0:
        _beta_only(y, be, y.dtype.type(0))
        return
    if trans == 0:
        panels = GEMV_PANELS if n >= 2 * GEMV_PANEL_COLUMNS else 1
        rblocks = max(1, (blocks + panels - 1) // panels)
        per = (m + rblocks - 1) // rblocks
        cols = (n + panels - 1) // panels
        part = np.empty((panels, m), y.dtype)
        for t in prange(panels * rblocks):
            p = t // rblocks
            lo = (t - p * rblocks) * per
            w = min(m, lo + per) - lo
            if w <= 0:
                continue
            acc = part[p, lo:lo + w]
            for i in range(w):
                acc[i] = 0
            j, end = p * cols, min(n, (p + 1) * cols)
            while j + 8 <= end:
                x0, x1, x2, x3 = x[j], x[j + 1], x[j + 2], x[j + 3]
                x4, x5, x6, x7 = x[j + 4], x[j + 5], x[j + 6], x[j + 7]
                o0 = j * lda + lo
                o1, o2, o3, o4 = o0 + lda, o0 + 2 * lda, o0 + 3 * lda, o0 + 4 * lda
                o5, o6, o7 = o0 + 5 * lda, o0 + 6 * lda, o0 + 7 * lda
                for i in range(w):
                    acc[i] += ((A[np.uint64(o0 + i)] * x0 + A[np.uint64(o1 + i)] * x1
                                + A[np.uint64(o2 + i)] * x2 + A[np.uint64(o3 + i)] * x3)
                               + (A[np.uint64(o4 + i)] * x4 + A[np.uint64(o5 + i)] * x5
                                  + A[np.uint64(o6 + i)] * x6 + A[np.uint64(o7 + i)] * x7))
                j += 8
            while j < end:
                xj, o = x[j], j * lda + lo
                for i in range(w):
                    acc[i] += A[np.uint64(o + i)] * xj
                j += 1
        for i in range(m):
            s = part[0, i]
            for p in range(1, panels):
                s += part[p, i]
            y[i] = _updated(al, s, be, y[i])
    else:
        per = (n + blocks - 1) // blocks
        for b in prange(blocks):
            _column_dots(A, lda, m, b * per, min(n, (b + 1) * per), x, conj, al, be, y)


#: Real gemv_flat with FMA contraction, complex without, as :func:`_fused_for_reals` (LLVM's choice of
#: which part of a complex product to fuse differed between a kernel and its serial twin).
gemv_flat_complex = kernel(contiguous=True)(renamed(gemv_flat, "gemv_flat_complex"))
gemv_flat = kernel(contiguous=True, fastmath={"contract"})(gemv_flat)


def gemv_flat_for(dtype: Any) -> Any:
    """The gemv_flat kernel for matrices of ``dtype``."""
    return gemv_flat_complex if np.dtype(dtype).kind == "c" else gemv_flat


def _column_dots(A, lda, m, j0, j1, x, conj, al, be, y):  # type: ignore[no-untyped-def]
    """y[j] := al * (column j of the flat A) . x + be * y[j] for columns j0..j1-1 (conj: the
    columns conjugated), each dot in rocmath.simd's order: real columns four at a time
    (sum_products4, the same bits as one at a time: dgemv T of 3163^2 from memory streamed one
    column per thread at 32 GB/s where numpy's took 33), complex ones one at a time."""


@overload(_column_dots, inline="always")
def _column_dots_impl(A, lda, m, j0, j1, x, conj, al, be, y):  # type: ignore[no-untyped-def]
    if isinstance(A.dtype, types.Complex):
        return lambda A, lda, m, j0, j1, x, conj, al, be, y: _one_column_dots(A, lda, m, j0, j1, x, conj, al, be, y)
    return lambda A, lda, m, j0, j1, x, conj, al, be, y: _four_column_dots(A, lda, m, j0, j1, x, conj, al, be, y)


@numba.njit(cache=True, inline="always")
def _one_column_dots(A, lda, m, j0, j1, x, conj, al, be, y):  # type: ignore[no-untyped-def]
    for j in range(j0, j1):
        o = j * lda
        y[j] = _updated(al, _dot_block(A[o:o + m], x, conj, y.dtype.type(0)), be, y[j])


@numba.njit(cache=True, inline="always")
def _four_column_dots(A, lda, m, j0, j1, x, conj, al, be, y):  # type: ignore[no-untyped-def]
    j = j0
    while j + 4 <= j1:
        o = j * lda
        d0, d1, d2, d3 = sum_products4(A[o:o + m], A[o + lda:o + lda + m], A[o + 2 * lda:o + 2 * lda + m],
                                       A[o + 3 * lda:o + 3 * lda + m], x)
        y[j] = _updated(al, d0, be, y[j])
        y[j + 1] = _updated(al, d1, be, y[j + 1])
        y[j + 2] = _updated(al, d2, be, y[j + 2])
        y[j + 3] = _updated(al, d3, be, y[j + 3])
        j += 4
    _one_column_dots(A, lda, m, j, j1, x, conj, al, be, y)


def run_gemv_large(trans: int, alpha: np.ndarray, A: np.ndarray, x: np.ndarray, beta: np.ndarray,
                   y: np.ndarray) -> None:
    """gemv of one column-major entry (``trans``: 0 N, 1 T, 2 C) by :func:`gemv_flat`."""
    _, m, n = A.shape
    flat, lda, _ = flat_entries(A)  # type: ignore[misc]  # one column-major entry (c.matrix)
    gemv_flat_for(y.dtype)(trans, trans == 2, alpha.astype(y.dtype), beta.astype(y.dtype), flat, lda, m, n,
              np.ascontiguousarray(x[0]), y[0], pool_threads())
