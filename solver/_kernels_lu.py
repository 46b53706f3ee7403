"""LU-family kernels: getrf (with and without pivoting), getrs, gesv, getri, laswp.

Two kinds of entries, chosen by size only (so a given problem always takes the same
path and gives the same bits):

- *small* entries (``min(m, n) <= SMALL``) run as numba code, many at a time: a
  chunked ``prange`` over the batch, each chunk copying one entry (getrf: up to
  ``LANES``) at a time into a contiguous scratch matrix (its chunk's part of the
  workspace) stored column-major (``w[c, i] = A[i, c]``, so columns are contiguous
  and the loops vectorise), factoring or solving it there and copying it back.  The
  LU is right-looking, with a column block of ``NB`` (beyond ``UNBLOCKED`` columns in
  gesv's): its update of the trailing columns is one fused rank-NB pass per column,
  done in the same order as the unblocked algorithm's rank-1 updates, so it gives the
  same bits.  getrf factors entries of at most ``LANE_MAX`` rows and columns ``LANES``
  at a time, one per vector lane (:func:`getrf_small`: each step of the LU is vector
  code across the entries, every lane doing the unblocked algorithm's operations in
  its order), and larger ones one at a time with spare rows below each column, so that
  the row loops run over whole vectors (:func:`getrf_single`); getrs solves with the
  factors where they are.
- *large* entries are handed to LAPACK (scipy's OpenBLAS, through the symbols
  :func:`~rocmath.solver._lapack.ensure_lapack` registers) in place, one after
  another, each threaded by OpenBLAS, as rocmath.blas does with gemm.  LAPACK has no
  LU without pivoting, so large ``getrf_npvt`` entries run a blocked right-looking
  LU here: the panel in numba, the triangular solve and the trailing update through
  the host BLAS (``rocmath_?trsm``, ``rocmath_?gemm``).

Semantics are LAPACK's (and rocSOLVER's): 1-based pivots, the pivot is the first
entry of largest ``|re| + |im|`` (LAPACK's i?amax), ``info`` is the first exact
zero pivot and the factorization goes on past it (the zero pivot's column is left
unscaled); getrs/getri read pivots from the device, so a pivot outside
``1..n`` would address memory outside the matrix: it is refused with
MemoryAccessFault when the work runs (only the pivots rocSOLVER reads: in-place
getri's column interchanges read ipiv[1..n-1] of the regular entries only; laswp
also refuses a moving row past lda).  getri and gesv leave the outputs of a
singular entry as they were.

Scratch memory (the small kernels' matrices and pivots, the integer argument cells of
the LAPACK calls, the panel of the blocked LU, getri's work array) is carved out of the
handle's workspace (:mod:`rocmath.solver._workspace`); ``*_workspace`` give the bytes,
computed by the same code the launch bodies use.  The launch bodies at the end get the
operands as ``(batch, rows, cols)`` views and the workspace as a byte array.
"""

from __future__ import annotations

import functools
from typing import Any

import llvmlite.ir as ir
import numpy as np
from numba import njit, prange
from numba.core import cgutils, types
from numba.extending import intrinsic

from rocmath.batch import flat_entries, flat_span
from rocmath.errors import MemoryAccessFault
from rocmath.kernel import chunk, kernel, prefetch

from ._lapack import ensure_lapack, external
from ._workspace import carve, carve2, chunk_count, chunk_of, host_carve, layout, rounded, scratch

OP_N, OP_T, OP_C = ord("N"), ord("T"), ord("C")

#: Column block of the small LU (its trailing update is a fused rank-NB pass) ...
NB = 4
#: ... for matrices of more than UNBLOCKED columns: narrower ones run faster unblocked.
UNBLOCKED = 16
#: Entries with min(m, n) (getrf) or n (getrs, gesv, getri) up to SMALL run as numba code.
SMALL = 64
#: getrf entries with at most LANE_MAX rows and columns (that do not overlap) are factored LANES
#: at a time, one per vector lane, in at most LANE_CHUNKS chunks (each holding LANES whole matrices
#: of scratch: plenty of chunks for a few threads, a bounded workspace).  (20,000 entries, against
#: one at a time: 20 x 20 9.4-9.8 against 13.0-13.6 ms, 24 x 24 14.5-15.6 against 17.8-19.0; at 28
#: and 32 the same, with 32 as LANE_MAX.)  getrs solves batches of at least LANES entries so when
#: they are transposed or of order at most SOLVE_LANE_MAX (20,000 entries, same process, op = N:
#: 8 x 8 1.1-1.5 against 1.4-1.7 ms one entry at a time, 16 x 16 3.1-3.5 against 3.0-3.7, 24 x 24
#: 5.3-5.7 against 4.6-4.8, 64 x 64 29.2 against 26.5; op = T, 32 x 32 8.8 against 12.6 ms, 64 x 64
#: 28.3 against 57.4: the running sums of its solves advance LANES entries at a time).
LANES = 8
LANE_MAX = 24
SOLVE_LANE_MAX = 8
LANE_CHUNKS = 16
#: Column block of the large blocked LU without pivoting.
NB_LARGE = 64
#: Column block LAPACK's getri is given workspace for (lwork = n * NB_GETRI).
NB_GETRI = 64

_KIND = {np.dtype(np.float32): 0, np.dtype(np.float64): 1, np.dtype(np.complex64): 2, np.dtype(np.complex128): 3}

_sgetrf, _dgetrf, _cgetrf, _zgetrf = (external(p + "getrf", 6) for p in "sdcz")
_sgetrs, _dgetrs, _cgetrs, _zgetrs = (external(p + "getrs", 9) for p in "sdcz")
_sgesv, _dgesv, _cgesv, _zgesv = (external(p + "gesv", 8) for p in "sdcz")
_sgetri, _dgetri, _cgetri, _zgetri = (external(p + "getri", 7) for p in "sdcz")
_strsm, _dtrsm, _ctrsm, _ztrsm = (external(p + "trsm", 11) for p in "sdcz")
_sgemm, _dgemm, _cgemm, _zgemm = (external(p + "gemm", 13) for p in "sdcz")

_jit = njit(nogil=True, error_model="numpy", cache=True)
_inline = njit(nogil=True, error_model="numpy", cache=True, inline="always")
# Inner loops run over unsigned indices: numba then drops its negative-index wraparound, which
# keeps LLVM from vectorising them (slices would too, but each costs a reference count).
_U = np.uintp


# --- numba: one entry in contiguous scratch ------------------------------------------------------


@_jit
def _cabs1(x):  # type: ignore[no-untyped-def]
    # LAPACK's i?amax measure: |re| + |im| (|x| for real x).
    return abs(x.real) + abs(x.imag)


@intrinsic
def _ordinal(typingctx, x):  # type: ignore[no-untyped-def]
    """The bits of a float as a signed integer of its width: for x >= 0 ordered as the values, and
    every NaN above +inf."""
    if not isinstance(x, types.Float):
        return None
    ity = types.int32 if x.bitwidth == 32 else types.int64

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], context.get_value_type(ity))

    return ity(x), codegen


@_inline
def _pivot_row(W, t, o, j, m):  # type: ignore[no-untyped-def]
    """LAPACK's i?amax over rows j..m-1 of the column at W[t, o:]: the first row of largest
    _cabs1 (a NaN wins only at j).  The largest measure's bits come from an integer max (a vector
    reduction; a float one would need fast-math), then its first row from an integer min over the
    rows that hold it (another vector reduction: a scan stopping at the row mispredicted its exit
    and compared one row a turn).  The sequential search's compare-and-select chain waited on every
    row.  A NaN somewhere (its bits are the largest) leaves the choice to the sequential search."""
    big = _ordinal(_cabs1(W[t, _U(o + j)]))
    for i in range(j + 1, m):
        big = max(big, _ordinal(_cabs1(W[t, _U(o + i)])))
    p = m
    for i in range(j, m):
        p = min(p, i if _ordinal(_cabs1(W[t, _U(o + i)])) == big else m)
    best = _cabs1(W[t, _U(o + p)])
    if best != best:
        p = j
        best = _cabs1(W[t, _U(o + j)])
        for i in range(j + 1, m):
            v = _cabs1(W[t, _U(o + i)])
            if v > best:
                best = v
                p = i
    return p


@_jit
def _load(w, A, e, r0, c0):  # type: ignore[no-untyped-def]
    # w[c, i] = A[e, r0 + i, c0 + c]: a column-major copy of a block of entry e (indexed, not
    # sliced: a slice costs a reference count, much for small entries).
    for c in range(w.shape[0]):
        for i in range(w.shape[1]):
            w[c, i] = A[e, r0 + i, c0 + c]


@_jit
def _store(A, e, r0, c0, w):  # type: ignore[no-untyped-def]
    for c in range(w.shape[0]):
        for i in range(w.shape[1]):
            A[e, r0 + i, c0 + c] = w[c, i]


@_jit
def _lu(w, piv, pivot, one, sfmin):  # type: ignore[no-untyped-def]
    """LU of the m x n matrix held column-major in w (n x m), in place; piv gets the
    1-based pivots (when pivoting).  Returns info: the first zero pivot, 1-based, or 0."""
    n, m = w.shape
    k = min(m, n)
    info = 0
    step = NB if n > UNBLOCKED else max(n, 1)
    for j0 in range(0, k, step):
        jb = min(step, k - j0)
        lo = j0 + jb
        for j in range(j0, lo):
            if pivot:
                p = j
                best = _cabs1(w[j, j])
                for i in range(j + 1, m):
                    v = _cabs1(w[j, i])
                    if v > best:
                        best = v
                        p = i
                piv[j] = p + 1
                if p != j:
                    for c in range(n):
                        t = w[c, j]
                        w[c, j] = w[c, p]
                        w[c, p] = t
            d = w[j, j]
            if d == 0:
                if info == 0:
                    info = j + 1
            elif abs(d) >= sfmin:
                r = one / d
                for i in range(_U(j + 1), _U(m)):
                    w[j, i] *= r
            else:
                for i in range(_U(j + 1), _U(m)):
                    w[j, i] /= d
            for c in range(j + 1, lo):  # the rest of the panel
                t = w[c, j]
                for i in range(_U(j + 1), _U(m)):
                    w[c, i] -= t * w[j, i]
        for c in range(lo, n):
            # Rows j0..lo-1 of column c: the panel's rank-1 updates, in their order (unit L11).
            for q in range(j0, lo):
                t = w[c, q]
                for q2 in range(q + 1, lo):
                    w[c, q2] -= t * w[q, q2]
            # The rows below: one fused pass, the rank-1 updates' sums in the same order.
            if jb == NB:
                t0, t1, t2, t3 = w[c, j0], w[c, j0 + 1], w[c, j0 + 2], w[c, j0 + 3]
                for i in range(_U(lo), _U(m)):
                    w[c, i] = w[c, i] - t0 * w[j0, i] - t1 * w[j0 + 1, i] - t2 * w[j0 + 2, i] - t3 * w[j0 + 3, i]
            else:
                for q in range(j0, lo):
                    t = w[c, q]
                    for i in range(_U(lo), _U(m)):
                        w[c, i] -= t * w[q, i]
    return info


@_jit
def _swap(x, r, j, p):  # type: ignore[no-untyped-def]
    t = x[r, j]
    x[r, j] = x[r, p]
    x[r, p] = t


@_jit
def _solve(w, ipiv, e, x, trans):  # type: ignore[no-untyped-def]
    """op(A) X = B with A = P L U held column-major in w (n x n), pivots ipiv[e], and B^T in
    x (nrhs x n), in place on x; the triangular solves in reference BLAS trsm's order."""
    n = w.shape[0]
    for r in range(x.shape[0]):
        if trans == OP_N:
            for j in range(n):
                _swap(x, r, j, ipiv[e, j] - 1)
            for j in range(n):  # L y = b, unit diagonal
                t = x[r, j]
                if t != 0:
                    for i in range(_U(j + 1), _U(n)):
                        x[r, i] -= t * w[j, i]
            for j in range(n - 1, -1, -1):  # U x = y
                if x[r, j] != 0:
                    x[r, j] = x[r, j] / w[j, j]
                    t = x[r, j]
                    for i in range(_U(j)):
                        x[r, i] -= t * w[j, i]
            continue
        conj = trans == OP_C
        for j in range(n):  # U^T y = b (U^H)
            s = x[r, j]
            if conj:
                for i in range(j):
                    s -= np.conj(w[j, i]) * x[r, i]
                x[r, j] = s / np.conj(w[j, j])
            else:
                for i in range(j):
                    s -= w[j, i] * x[r, i]
                x[r, j] = s / w[j, j]
        for j in range(n - 1, -1, -1):  # L^T x = y (L^H), unit diagonal
            s = x[r, j]
            if conj:
                for i in range(j + 1, n):
                    s -= np.conj(w[j, i]) * x[r, i]
            else:
                for i in range(j + 1, n):
                    s -= w[j, i] * x[r, i]
            x[r, j] = s
        for j in range(n - 1, -1, -1):
            _swap(x, r, j, ipiv[e, j] - 1)


@_jit
def _inverse(w, ipiv, e, work, pivot, one):  # type: ignore[no-untyped-def]
    """inv(A) from A = P L U held column-major in w (n x n) and pivots ipiv[e], in place, as
    LAPACK's unblocked getri: inv(U), then inv(A) L = inv(U) column by column from the right
    (work: n elements), then the column interchanges.  Returns info (the first zero diagonal
    of U, w then unchanged)."""
    n = w.shape[0]
    for j in range(n):
        if w[j, j] == 0:
            return j + 1
    for j in range(n):  # inv(U), LAPACK's trti2: column j above the diagonal := -inv(U)[:j, :j] U[:j, j] / U[j, j]
        w[j, j] = one / w[j, j]
        ajj = -w[j, j]
        for jj in range(j):  # x := triu(inv(U)[0:j, 0:j]) x, with x = w[j, 0:j]
            t = w[j, jj]
            if t != 0:
                for i in range(_U(jj)):
                    w[j, i] += t * w[jj, i]
                w[j, jj] = t * w[jj, jj]
        for i in range(_U(j)):
            w[j, i] *= ajj
    for j in range(n - 1, -1, -1):
        for i in range(j + 1, n):
            work[i] = w[j, i]
            w[j, i] = 0
        for q in range(j + 1, n):
            t = work[q]
            for i in range(_U(n)):
                w[j, i] -= t * w[q, i]
    if pivot:
        for j in range(n - 2, -1, -1):
            p = ipiv[e, j] - 1
            if p != j:
                for i in range(n):
                    t = w[j, i]
                    w[j, i] = w[p, i]
                    w[p, i] = t
    return 0


# --- numba: small getrf, many entries at a time ------------------------------------------------------
#
# Every array the loops touch is an argument of the kernel and is indexed, never sliced: numba then
# marks the arrays of the prange body as not aliasing (it does not when a body makes views), and
# only then do the loops (inlined into the body) become vector code.  getrf_small's body is a chunk
# function (rocmath.kernel.chunk), whose array arguments are noalias too.  Scratch has one row per chunk.
#
# getrf_small factors entries of at most LANE_MAX rows and columns LANES at a time, one per vector
# lane: element (i, c) of the entry in lane s is W[t, (c * m + i) * LANES + s].  Each step of the
# LU (the pivot search, the division by the pivot, the update) is then a loop over rows and columns
# whose body is one vector of LANES entries: no rows past the entries, no entry's chain of pivot
# search and update to wait for, and every lane does the scalar algorithm's operations in its
# order (the same bits).  Only a lane's row interchange is its own.  Steps go in pairs, the columns
# right of a pair updated by both in one pass (as _lu_one's column blocks, of 2).
# The copies in and out transpose LANES x LANES blocks with shuffles (_lanes_in, _lanes_out) where
# a column has whole blocks of rows, and move the other rows element by element.  A last, partial
# group fills its spare lanes with its first entry (factored along, stored over it: the same bits).
#
# getrf_single factors larger entries, and overlapping ones, one at a time: column-major in W with
# spare rows below the entry, so that every row loop can run over a whole number of vectors (rows
# past the entry compute values nobody reads: they are zero at first and, from sums of zeros, stay
# zero or NaN, so they never win a pivot search and cost no denormal slow path).
#
# The copies add -0 (exact, signed zeros too; signalling NaNs come out quiet): a plain copy loop
# becomes a libc memcpy call per column, which costs more than the copy.

# getrf_small's integer scratch Ix[t]: per lane the info and the pivot search's row, the lanes'
# entry offsets in A, then the pivots (step j's at _PIVOTS + j * LANES); its X[t]: per lane the
# current column's rows j - 1 and j (the multiplicands of a pair's updates), the first step's
# multiplier in row j, 1 / pivot and the pivot.
_INFO, _ARGMAX, _OFFSET, _PIVOTS = 0, LANES, 2 * LANES, 3 * LANES
#: getrs_lanes keeps the right-hand sides' offsets where getrf_small keeps its pivot search's rows (its Ix
#: rows: the factors' offsets at _OFFSET, the pivots' at _PIVOTS).
_RHS_OFFSET = _ARGMAX
_UROW, _UROW2, _L10, _RECIP, _PIVOT = 0, LANES, 2 * LANES, 3 * LANES, 4 * LANES


def _lanes_vector(context: Any, dtype: Any) -> tuple[Any, Any, int]:
    """The LLVM vector of LANES elements of ``dtype`` (complex: real and imaginary parts in
    turn), its scalar type and the scalars per element."""
    if isinstance(dtype, types.Complex):
        scalar, k = context.get_value_type(dtype.underlying_float), 2
    else:
        scalar, k = context.get_value_type(dtype), 1
    return ir.VectorType(scalar, LANES * k), scalar, k


def _address(context: Any, builder: Any, aryty: Any, ary: Any, idxs: list[Any], to: Any) -> Any:
    """A ``to`` pointer to element ``idxs`` of the array (unchecked, as the kernels index)."""
    a = context.make_array(aryty)(context, builder, ary)
    p = cgutils.get_item_pointer2(context, builder, a.data, cgutils.unpack_tuple(builder, a.shape),
                                  cgutils.unpack_tuple(builder, a.strides), aryty.layout, idxs,
                                  wraparound=False, boundscheck=False)
    return builder.bitcast(p, to.as_pointer())


def _transposed(builder: Any, rows: list[Any], k: int) -> list[Any]:
    """The LANES x LANES transpose of ``rows`` (vectors of LANES elements of k scalars): round h
    (LANES / 2, ..., 1) swaps the off-diagonal h x h blocks of every 2h x 2h block, each pair of
    rows by two shuffles."""
    n = LANES
    masks = ir.VectorType(ir.IntType(32), n * k)
    h = n // 2
    while h:
        out = list(rows)
        for r in (r for r in range(n) if not r & h):
            top: list[int] = []
            bottom: list[int] = []
            for c in range(n):
                left = not c & h
                top += [(c if left else n + c - h) * k + q for q in range(k)]
                bottom += [(c + h if left else n + c) * k + q for q in range(k)]
            out[r] = builder.shuffle_vector(rows[r], rows[r + h], ir.Constant(masks, top))
            out[r + h] = builder.shuffle_vector(rows[r], rows[r + h], ir.Constant(masks, bottom))
        rows = out
        h //= 2
    return rows


def _lane_rows(context: Any, builder: Any, Ix: Any, ity: Any, t: Any, io: Any, add: Any) -> list[Any]:
    """The LANES element offsets Ix[t, io + s] + add (Ix: int64, as ``add``)."""
    at = [builder.add(io, ir.Constant(io.type, s)) for s in range(LANES)]
    return [builder.add(builder.load(_address(context, builder, ity, Ix, [t, i], context.get_value_type(ity.dtype))),
                        add) for i in at]


@intrinsic
def _lanes_in(typingctx, W, t, wo, A, Ix, io, add, one):  # type: ignore[no-untyped-def]
    """W[t, wo + r * LANES + s] = A[Ix[t, io + s] + add + r] + one[1].real (-0, as the other copies
    add) for r, s < LANES: LANES rows of LANES entries, a vector load from each entry, transposed."""
    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        W_, t_, wo_, A_, I_, io_, add_, one_ = args
        vec, scalar, k = _lanes_vector(context, sig.args[0].dtype)
        negzero = builder.load(_address(context, builder, sig.args[7], one_, [ir.Constant(io_.type, 1)], scalar))
        splat = builder.insert_element(ir.Constant(vec, ir.Undefined), negzero, ir.Constant(ir.IntType(32), 0))
        splat = builder.shuffle_vector(splat, splat, ir.Constant(ir.VectorType(ir.IntType(32), LANES * k), None))
        rows = [builder.load(_address(context, builder, sig.args[3], A_, [at], vec), align=1)
                for at in _lane_rows(context, builder, I_, sig.args[4], t_, io_, add_)]
        for r, row in enumerate(_transposed(builder, rows, k)):
            at = builder.add(wo_, ir.Constant(wo_.type, r * LANES))
            builder.store(builder.fadd(row, splat), _address(context, builder, sig.args[0], W_, [t_, at], vec), align=1)
        return context.get_dummy_value()

    return types.none(W, types.intp, types.intp, A, Ix, types.intp, types.intp, one), codegen


@intrinsic
def _lanes_out(typingctx, A, Ix, io, add, W, t, wo):  # type: ignore[no-untyped-def]
    """A[Ix[t, io + s] + add + r] = W[t, wo + r * LANES + s] for r, s < LANES (_lanes_in's
    inverse, without the -0)."""
    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        A_, I_, io_, add_, W_, t_, wo_ = args
        vec, _, k = _lanes_vector(context, sig.args[4].dtype)
        rows = [builder.load(_address(context, builder, sig.args[4], W_,
                                      [t_, builder.add(wo_, ir.Constant(wo_.type, r * LANES))], vec), align=1)
                for r in range(LANES)]
        for at, row in zip(_lane_rows(context, builder, I_, sig.args[1], t_, io_, add_),
                           _transposed(builder, rows, k), strict=True):
            builder.store(row, _address(context, builder, sig.args[0], A_, [at], vec), align=1)
        return context.get_dummy_value()

    return types.none(A, Ix, types.intp, types.intp, W, types.intp, types.intp), codegen


# The update's row loops leave by a second exit (i >= m): LLVM's loop vectoriser then leaves them
# alone (for some element types it vectorises across rows, with gathers), the SLP vectoriser makes
# each row one vector operation, and two rows a turn halve the loop's overhead.


@_inline
def _update1(W, L, X, t, cc, i):  # type: ignore[no-untyped-def]
    # Row i of the column at cc: step j's rank-1 update.
    for s in range(LANES):
        W[t, _U((cc + i) * LANES + s)] = W[t, _U((cc + i) * LANES + s)] - X[t, _UROW + s] * L[t, _U(i * LANES + s)]


@_inline
def _update2(W, L, X, t, cc, m, i):  # type: ignore[no-untyped-def]
    # Row i of the column at cc: steps j - 1's and j's rank-1 updates, in their order.
    for s in range(LANES):
        w = W[t, _U((cc + i) * LANES + s)] - X[t, _UROW + s] * L[t, _U((m + i) * LANES + s)]
        W[t, _U((cc + i) * LANES + s)] = w - X[t, _UROW2 + s] * L[t, _U(i * LANES + s)]


@_inline
def _prefetch_plan(A, count, span, parts):  # type: ignore[no-untyped-def]
    """(elements per cache line, lines per entry, lines per part) for :func:`_prefetch_part`."""
    pf_line = 64 // A.itemsize
    pf_lines = (span + pf_line - 1) // pf_line
    return pf_line, pf_lines, (count * pf_lines + parts - 1) // parts


@_inline
def _prefetch_part(A, first, count, stride, plan, part):  # type: ignore[no-untyped-def]
    # Part ``part`` of the cache lines of ``count`` entries of A (the first at ``first``, ``stride``
    # apart; ``plan`` from _prefetch_plan): the next entries' loads, spread over the steps of the
    # current entries' LU so that their copy in finds them in cache (the copies waited on memory).
    # (No tuple chosen by a conditional expression, ``lo, hi = (a, b) if c else (d, e)``: in a trial,
    # that one line in a prefetch loop inlined into potrf's lane kernel made the whole kernel 2.4x
    # slower; two conditional expressions, one a value, did not.)
    pf_line, pf_lines, pf_share = plan
    pf_a, pf_b = part * pf_share, min(count * pf_lines, (part + 1) * pf_share)
    pf_e = 0 if pf_a < pf_lines else pf_a // pf_lines  # (a division costs more than a step's prefetches)
    while pf_a < pf_b:
        pf_o = first + pf_e * stride
        for pf_q in range(pf_a - pf_e * pf_lines, min(pf_lines, pf_b - pf_e * pf_lines)):
            prefetch(A, pf_o + pf_q * pf_line)
        pf_e += 1
        pf_a = pf_e * pf_lines


@_inline
def _lu_lanes(W, L, X, B, Ix, t, m, n, pivot, one, sfmin, A, nxt, count, sa, span):  # type: ignore[no-untyped-def]
    """LU of the LANES entries of chunk t (lane s: element (i, c) in W[t, (c * m + i) * LANES +
    s]), in each lane :func:`_lu`'s operations in its order, right-looking in column blocks of 2.
    L[t, i * LANES + s]: the current column's multipliers, L[t, (m + i) * LANES + s] the previous
    one's; X, B (the pivot search's best |re| + |im|) and Ix as laid out above."""
    k = min(m, n)
    for s in range(LANES):
        Ix[t, _INFO + s] = 0
    pf_plan = _prefetch_plan(A, count, span, (k + 1) // 2)
    for j in range(k):
        jc = j * m
        _prefetch_part(A, nxt, count, sa, pf_plan, j)
        if pivot:
            for s in range(LANES):
                B[t, s] = _cabs1(W[t, _U((jc + j) * LANES + s)])
                Ix[t, _ARGMAX + s] = j
            for i in range(j + 1, m):
                for s in range(LANES):
                    v = _cabs1(W[t, _U((jc + i) * LANES + s)])
                    more = v > B[t, s]
                    B[t, s] = v if more else B[t, s]
                    Ix[t, _ARGMAX + s] = i if more else Ix[t, _ARGMAX + s]
            moved = 0
            for s in range(LANES):
                p = Ix[t, _ARGMAX + s]
                Ix[t, _PIVOTS + j * LANES + s] = p + 1
                moved += 0 if p == j else 1
            if moved:  # every lane's interchange, without a branch per lane (j with j: unchanged)
                for c in range(n):
                    for s in range(LANES):
                        p = Ix[t, _ARGMAX + s]
                        x = W[t, _U((c * m + j) * LANES + s)]
                        W[t, _U((c * m + j) * LANES + s)] = W[t, _U((c * m + p) * LANES + s)]
                        W[t, _U((c * m + p) * LANES + s)] = x
        for s in range(LANES):
            d = W[t, _U((jc + j) * LANES + s)]
            X[t, _PIVOT + s] = d
            X[t, _RECIP + s] = one / (d if d != 0 else one)  # (a zero pivot's column is left unscaled)
        special = 0  # lanes with a zero, tiny or NaN pivot
        for s in range(LANES):
            d = X[t, _PIVOT + s]
            info = Ix[t, _INFO + s]
            Ix[t, _INFO + s] = j + 1 if (d == 0) & (info == 0) else info
            special += 0 if abs(d) >= sfmin else 1
        if special == 0:
            for i in range(j + 1, m):
                for s in range(LANES):
                    x = W[t, _U((jc + i) * LANES + s)] * X[t, _RECIP + s]
                    W[t, _U((jc + i) * LANES + s)] = x
                    L[t, _U(i * LANES + s)] = x
        else:
            for i in range(j + 1, m):
                for s in range(LANES):
                    x = W[t, _U((jc + i) * LANES + s)]
                    d = X[t, _PIVOT + s]
                    if abs(d) >= sfmin:
                        x = x * X[t, _RECIP + s]
                    elif d != 0:
                        x = x / d
                    W[t, _U((jc + i) * LANES + s)] = x
                    L[t, _U(i * LANES + s)] = x
        if j % 2 == 1:
            # The second step of a pair: columns j + 1.. get both steps' updates in one pass (row j
            # first: step j - 1's update of it, the multiplicand of step j's), in their order.
            j0 = j - 1
            for s in range(LANES):
                X[t, _L10 + s] = W[t, _U((j0 * m + j) * LANES + s)]
            for i in range(j + 1, m):  # step j - 1's multipliers, after this step's interchange
                for s in range(LANES):
                    L[t, _U((m + i) * LANES + s)] = W[t, _U((j0 * m + i) * LANES + s)]
            for c in range(j + 1, n):
                cc = c * m
                for s in range(LANES):
                    u = W[t, _U((cc + j0) * LANES + s)]
                    X[t, _UROW + s] = u
                    x = W[t, _U((cc + j) * LANES + s)] - u * X[t, _L10 + s]
                    X[t, _UROW2 + s] = x
                    W[t, _U((cc + j) * LANES + s)] = x
                for i in range(j + 1, LANE_MAX, 2):
                    if i >= m:
                        break
                    _update2(W, L, X, t, cc, m, i)
                    if i + 1 >= m:
                        break
                    _update2(W, L, X, t, cc, m, i + 1)
            continue
        # The first step of a pair updates the pair's second column (all the columns right of it
        # when it is the last step).
        for c in range(j + 1, n if j + 1 == k else j + 2):
            cc = c * m
            for s in range(LANES):
                X[t, _UROW + s] = W[t, _U((cc + j) * LANES + s)]
            for i in range(j + 1, LANE_MAX, 2):
                if i >= m:
                    break
                _update1(W, L, X, t, cc, i)
                if i + 1 >= m:
                    break
                _update1(W, L, X, t, cc, i + 1)


@_inline
def _rows8(rows):  # type: ignore[no-untyped-def]
    # ``rows`` rounded up to whole vectors of 8 (the spare rows below the entry take the rest).
    return (rows + 7) & -8


@_jit
def _lu_one(W, L, P, t, S, m, n, pivot, one, sfmin, A, nxt, span):  # type: ignore[no-untyped-def]
    """LU of the entry held column-major in W[t] (columns of S >= m + 7 rows), right-looking in
    column blocks of NB: the panel unblocked, then each trailing column's NB rows of U (an
    unrolled triangular solve) and its rows below in one fused rank-NB pass, the rank-1 updates'
    sums in their order (the unblocked algorithm's bits).  L[t] holds the panel's multipliers
    below it (NB columns of S) and the current column's (after them).  The first half of the steps
    prefetch the next entry (``span`` elements of A from ``nxt``; none when ``nxt`` < 0).  Returns
    info."""
    k = min(m, n)
    info = 0
    plan = _prefetch_plan(A, 1, span, (k + 1) // 2)
    for j0 in range(0, k, NB):
        jb = min(NB, k - j0)
        lo = j0 + jb
        for j in range(j0, lo):
            jo = j * S
            if nxt >= 0:
                _prefetch_part(A, nxt, 1, 0, plan, j)
            if pivot:
                p = _pivot_row(W, t, jo, j, m)
                P[t, j] = p + 1
                if p != j:
                    for c in range(n):
                        x = W[t, _U(c * S + j)]
                        W[t, _U(c * S + j)] = W[t, _U(c * S + p)]
                        W[t, _U(c * S + p)] = x
            d = W[t, _U(jo + j)]
            r8 = _rows8(m - j - 1)
            lq = NB * S
            if d == 0:
                if info == 0:
                    info = j + 1
                for i in range(r8):
                    L[t, _U(lq + i)] = W[t, _U(jo + j + 1 + i)]
            elif abs(d) >= sfmin:
                r = one / d
                for i in range(r8):
                    x = W[t, _U(jo + j + 1 + i)] * r
                    W[t, _U(jo + j + 1 + i)] = x
                    L[t, _U(lq + i)] = x
            else:
                for i in range(r8):
                    x = W[t, _U(jo + j + 1 + i)] / d
                    W[t, _U(jo + j + 1 + i)] = x
                    L[t, _U(lq + i)] = x
            for c in range(j + 1, lo):  # the rest of the panel
                co = c * S + j + 1
                u = W[t, _U(co - 1)]
                for i in range(r8):
                    W[t, _U(co + i)] = W[t, _U(co + i)] - u * L[t, _U(lq + i)]
        if lo >= n:
            continue
        r8 = _rows8(m - lo)
        for q in range(jb):  # the panel's multipliers below it, after all its interchanges
            for i in range(r8):
                L[t, _U(q * S + i)] = W[t, _U((j0 + q) * S + lo + i)]
        if jb == NB:
            l10, l20, l30 = W[t, _U(j0 * S + j0 + 1)], W[t, _U(j0 * S + j0 + 2)], W[t, _U(j0 * S + j0 + 3)]
            l21, l31 = W[t, _U((j0 + 1) * S + j0 + 2)], W[t, _U((j0 + 1) * S + j0 + 3)]
            l32 = W[t, _U((j0 + 2) * S + j0 + 3)]
            for c in range(lo, n):
                co = c * S + j0
                u0 = W[t, _U(co)]
                u1 = W[t, _U(co + 1)] - u0 * l10
                u2 = W[t, _U(co + 2)] - u0 * l20 - u1 * l21
                u3 = W[t, _U(co + 3)] - u0 * l30 - u1 * l31 - u2 * l32
                W[t, _U(co + 1)] = u1
                W[t, _U(co + 2)] = u2
                W[t, _U(co + 3)] = u3
                co += NB
                for i in range(r8):
                    W[t, _U(co + i)] = (W[t, _U(co + i)] - u0 * L[t, _U(i)] - u1 * L[t, _U(S + i)]
                                        - u2 * L[t, _U(2 * S + i)] - u3 * L[t, _U(3 * S + i)])
        else:
            for c in range(lo, n):
                co = c * S
                for q in range(j0, lo):  # rows j0..lo-1 of column c (unit L11)
                    u = W[t, _U(co + q)]
                    for q2 in range(q + 1, lo):
                        W[t, _U(co + q2)] -= u * W[t, _U(q * S + q2)]
                for q in range(jb):
                    u = W[t, _U(co + j0 + q)]
                    for i in range(r8):
                        W[t, _U(co + lo + i)] = W[t, _U(co + lo + i)] - u * L[t, _U(q * S + i)]
    return info


@functools.lru_cache(256)  # (launch bodies ask on every launch)
def _getrf_small_parts(m: int, n: int, isz: int) -> tuple[int, int, int, int]:
    """Elements of one chunk's row of W, L, X (``isz`` bytes each) and Ix (int64), each a whole
    number of ALIGN bytes: room for getrf_small's LANES entries and for getrf_single's one of this
    size (getrf_small's for min(m, LANE_MAX) x min(n, LANE_MAX) beyond: the workspace grows with
    the size).  Its B, LANES reals, takes 64 bytes."""
    ml, nl = min(m, LANE_MAX), min(n, LANE_MAX)
    S = _rows8(m + 7)
    w = max(LANES * ml * nl, n * S)
    lr = max(2 * LANES * ml, (NB + 1) * S)
    x = 5 * LANES
    ni = max(_PIVOTS + LANES * min(ml, nl), min(m, n))
    return tuple(rounded(c * s) // s for c, s in ((w, isz), (lr, isz), (x, isz), (ni, 8)))  # type: ignore[return-value]


@functools.lru_cache(256)
def _getrf_small_bytes(m: int, n: int, isz: int) -> int:
    """Scratch of one chunk of getrf_small and getrf_single: W, L, X, B and Ix."""
    w, lr, x, ni = _getrf_small_parts(m, n, isz)
    return layout((w, isz), (lr, isz), (x, isz), (LANES, 8), (ni, 8))


@_inline
def _lane_share(nb, nchunk):  # type: ignore[no-untyped-def]
    """Entries per chunk of a lane kernel: whole groups of LANES."""
    return ((nb + nchunk - 1) // nchunk + LANES - 1) // LANES * LANES


@_inline
def _lane_offsets(Ix, t, io, e0, hi, sa):  # type: ignore[no-untyped-def]
    """Ix[t, io + s] := the offset (entry stride ``sa``) of lane s's entry in the group from e0 (the
    lanes past hi repeat its first entry); returns how many lanes hold entries of their own."""
    g = min(LANES, hi - e0)
    for s in range(LANES):
        Ix[t, io + s] = (e0 + (s if s < g else 0)) * sa
    return g


@chunk
def _getrf_small_chunk(A, sa, lda, m, n, ipiv, sp, info, pivot, one, sfmin, W, L, X, B, Ix, nb, nchunk,
                       t):  # type: ignore[no-untyped-def]
    """One chunk of :func:`getrf_small`."""
    k = min(m, n)
    whole = m & -LANES  # the rows in whole blocks, transposed as such
    per = _lane_share(nb, nchunk)
    lo, hi = t * per, min(nb, (t + 1) * per)
    for e0 in range(lo, hi, LANES):
        g = _lane_offsets(Ix, t, _OFFSET, e0, hi, sa)
        for c in range(n):
            for i in range(0, whole, LANES):
                _lanes_in(W, t, (c * m + i) * LANES, A, Ix, _OFFSET, c * lda + i, one)
            for i in range(whole, m):
                for s in range(LANES):
                    W[t, _U((c * m + i) * LANES + s)] = A[_U(Ix[t, _OFFSET + s] + c * lda + i)] + one[1]
        _lu_lanes(W, L, X, B, Ix, t, m, n, pivot, one[0], sfmin, A, (e0 + LANES) * sa,
                  max(0, min(LANES, hi - e0 - LANES)), sa, (n - 1) * lda + m)
        for c in range(n):
            for i in range(0, whole, LANES):
                _lanes_out(A, Ix, _OFFSET, c * lda + i, W, t, (c * m + i) * LANES)
        for s in range(g):
            e = e0 + s
            o = e * sa
            for c in range(n):
                for i in range(whole, m):
                    A[_U(o + c * lda + i)] = W[t, _U((c * m + i) * LANES + s)] + one[1]
            info[e] = Ix[t, _INFO + s]
            if pivot:
                for j in range(k):
                    ipiv[_U(e * sp + j)] = Ix[t, _U(_PIVOTS + j * LANES + s)]


@kernel(contiguous=True, slp=True)
def getrf_small(A, sa, lda, m, n, ipiv, sp, info, pivot, one, sfmin, W, L, X, B, Ix, nb, nchunk):  # type: ignore[no-untyped-def]
    """LU of the nb m x n entries of A (at most LANE_MAX rows and columns, not overlapping),
    column-major from A's flat view (entry e at e * sa, column c at c * lda), in place, LANES at a
    time (:func:`_lu_lanes`); pivots to ipiv[e * sp:] (when pivoting), info[e].  Chunk t of nchunk
    takes a contiguous range of whole groups and row t of the scratch.  ``one``: 1 and -0 in the
    element type."""
    for t in prange(nchunk):
        _getrf_small_chunk(A, sa, lda, m, n, ipiv, sp, info, pivot, one, sfmin, W, L, X, B, Ix, nb, nchunk, _U(t))


@kernel(contiguous=True, slp=True)
def getrf_single(A, sa, lda, m, n, ipiv, sp, info, pivot, one, sfmin, W, L, P, nb, nchunk):  # type: ignore[no-untyped-def]
    """LU of the nb m x n entries of A, laid out as for :func:`getrf_small`, one after another
    (:func:`_lu_one`; pivots through P).  Chunk t of nchunk takes a contiguous range of entries
    and row t of the scratch."""
    k = min(m, n)
    per = (nb + nchunk - 1) // nchunk
    S = _rows8(m + 7)
    for t in prange(nchunk):
        for i in range(W.shape[1]):  # the spare rows start at zero
            W[t, i] = 0
        hi = min(nb, (t + 1) * per)
        for e in range(t * per, hi):
            o = e * sa
            for c in range(n):
                for i in range(m):
                    W[t, _U(c * S + i)] = A[_U(o + c * lda + i)] + one[1]
            info[e] = _lu_one(W, L, P, np.int64(t), S, m, n, pivot, one[0], sfmin, A, o + sa if e + 1 < hi else -1,
                              (n - 1) * lda + m)
            for c in range(n):
                for i in range(m):
                    A[_U(o + c * lda + i)] = W[t, _U(c * S + i)] + one[1]
            if pivot:
                for j in range(k):
                    ipiv[e * sp + j] = P[t, j]


# --- numba: small entries, many at a time ----------------------------------------------------------


def _solve_small_bytes(n: int, nrhs: int, isz: int, pivots: bool) -> int:
    """Scratch of one chunk of gesv_small (``pivots``): the entry, the right-hand sides (nrhs x n)
    and the pivots."""
    return layout((n * n, isz), (nrhs * n, isz), (n if pivots else 0, 4))


@_inline
def _solve_flat(A, ao, lda, ipiv, po, X, t, n, nrhs, trans):  # type: ignore[no-untyped-def]
    """op(A) X = B with A = P L U read in place (column c at A[ao + c * lda]), pivots at
    ipiv[po:], and B^T in row t of X (right-hand side r at r * n), in place on X: _solve's
    operations in its order, on the device memory instead of a copy."""
    for r in range(nrhs):
        xo = r * n
        if trans == OP_N:
            for j in range(n):
                p = ipiv[po + j] - 1
                v = X[t, _U(xo + j)]
                X[t, _U(xo + j)] = X[t, _U(xo + p)]
                X[t, _U(xo + p)] = v
            for j in range(n):  # L y = b, unit diagonal
                v = X[t, _U(xo + j)]
                if v != 0:
                    co = ao + j * lda
                    for i in range(j + 1, n):
                        X[t, _U(xo + i)] -= v * A[_U(co + i)]
            for j in range(n - 1, -1, -1):  # U x = y
                if X[t, _U(xo + j)] != 0:
                    co = ao + j * lda
                    v = X[t, _U(xo + j)] / A[_U(co + j)]
                    X[t, _U(xo + j)] = v
                    for i in range(j):
                        X[t, _U(xo + i)] -= v * A[_U(co + i)]
            continue
        conj = trans == OP_C
        for j in range(n):  # U^T y = b (U^H)
            co = ao + j * lda
            s = X[t, _U(xo + j)]
            if conj:
                for i in range(j):
                    s -= np.conj(A[_U(co + i)]) * X[t, _U(xo + i)]
                X[t, _U(xo + j)] = s / np.conj(A[_U(co + j)])
            else:
                for i in range(j):
                    s -= A[_U(co + i)] * X[t, _U(xo + i)]
                X[t, _U(xo + j)] = s / A[_U(co + j)]
        for j in range(n - 1, -1, -1):  # L^T x = y (L^H), unit diagonal
            co = ao + j * lda
            s = X[t, _U(xo + j)]
            if conj:
                for i in range(j + 1, n):
                    s -= np.conj(A[_U(co + i)]) * X[t, _U(xo + i)]
            else:
                for i in range(j + 1, n):
                    s -= A[_U(co + i)] * X[t, _U(xo + i)]
            X[t, _U(xo + j)] = s
        for j in range(n - 1, -1, -1):
            p = ipiv[po + j] - 1
            v = X[t, _U(xo + j)]
            X[t, _U(xo + j)] = X[t, _U(xo + p)]
            X[t, _U(xo + p)] = v


@chunk
def _getrs_small_chunk(A, sa, lda, ipiv, sp, B, sb, ldb, X, one, trans, n, nrhs, nb, nchunk,
                       t):  # type: ignore[no-untyped-def]
    """One chunk of :func:`getrs_small`."""
    per = (nb + nchunk - 1) // nchunk
    for e in range(t * per, min(nb, (t + 1) * per)):
        ob = e * sb
        for r in range(nrhs):
            for i in range(n):
                X[t, _U(r * n + i)] = B[_U(ob + r * ldb + i)] + one[1]
        _solve_flat(A, e * sa, lda, ipiv, e * sp, X, t, n, nrhs, trans)
        for r in range(nrhs):
            for i in range(n):
                B[_U(ob + r * ldb + i)] = X[t, _U(r * n + i)] + one[1]


@kernel(contiguous=True)
def getrs_small(A, sa, lda, ipiv, sp, B, sb, ldb, X, one, trans, n, nrhs, nb, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: op(A_e) X = B_e with A_e's LU (read in place from A's flat view: entry e at e * sa,
    column c at c * lda) and pivots (ipiv[e * sp:]), X overwriting B_e (B's flat view, likewise);
    the right-hand sides are solved in row t of X, t the chunk.  ``one``: 1 and -0 (adding -0
    copies exactly, and keeps the copies from becoming memcpy calls)."""
    for t in prange(nchunk):
        _getrs_small_chunk(A, sa, lda, ipiv, sp, B, sb, ldb, X, one, trans, n, nrhs, nb, nchunk, _U(t))


# --- getrs, LANES entries at a time ---------------------------------------------------------------
#
# As getrf_small: the LU factors and right-hand sides of LANES entries side by side, one entry per
# vector lane, so that the solves' dependent steps (the divisions, the running sums of the transposed
# solves) advance LANES entries at once; each lane does _solve_flat's operations in its order (with
# A's conjugate loaded for op = C), so the bits are getrs_small's.


@_inline
def _divide_lanes(X, W, V, Z, t, xj, d):  # type: ignore[no-untyped-def]
    # X[t, xj + s] /= W[t, d + s] where it is not zero (a zero leaves its column out); V[t] := the
    # results, Z[t] := the values before.  (Both operands read first: selects, which vectorise, not
    # branches.)
    for s in range(LANES):
        x = X[t, xj + _U(s)]
        q = x / W[t, d + _U(s)]
        Z[t, s] = x
        x = x if x == 0 else q
        X[t, xj + _U(s)] = x
        V[t, s] = x


@_inline
def _update_lanes(X, W, V, Z, t, xo, o, lo, hi):  # type: ignore[no-untyped-def]
    # Rows lo..hi-1 (of LANES elements) of X[t, xo:] -= V[t] times those of W[t, o:], in the lanes
    # where Z[t] is not zero (the others as they were, whatever W holds).
    ln = _U(LANES)
    for i in range(lo, hi):
        for s in range(LANES):
            y = X[t, xo + i * ln + _U(s)]
            u = y - V[t, s] * W[t, o + i * ln + _U(s)]
            X[t, xo + i * ln + _U(s)] = y if Z[t, s] == 0 else u


@_inline
def _dot_lanes(X, W, V, t, xo, o, lo, hi, conj):  # type: ignore[no-untyped-def]
    # V[t] -= rows lo..hi-1 of W[t, o:] (conjugated if ``conj``, a constant of each call) times those
    # of X[t, xo:], row after row.
    ln = _U(LANES)
    for i in range(lo, hi):
        for s in range(LANES):
            w = W[t, o + i * ln + _U(s)]
            V[t, s] = V[t, s] - (np.conj(w) if conj else w) * X[t, xo + i * ln + _U(s)]


@_inline
def _columns_in(X, t, B, Ix, io, n, nrhs, ldb, one):  # type: ignore[no-untyped-def]
    # X[t, (r * n + i) * LANES + s] := element (i, r) of lane s's n x nrhs matrix (the entry at
    # Ix[t, io + s] of B's flat view, columns ldb apart: right-hand sides, or a whole factor): whole
    # blocks of LANES rows transposed, the rest one by one.
    whole = n & -LANES
    for r in range(nrhs):
        for i in range(0, whole, LANES):
            _lanes_in(X, t, (r * n + i) * LANES, B, Ix, io, r * ldb + i, one)
        for i in range(whole, n):
            for s in range(LANES):
                X[t, _U((r * n + i) * LANES + s)] = B[_U(Ix[t, io + s] + r * ldb + i)]


@_inline
def _columns_out(B, Ix, io, X, t, n, nrhs, ldb, g):  # type: ignore[no-untyped-def]
    # The inverse of _columns_in for the first g lanes (a whole block writes every lane: those past
    # g repeat the first entry, and write its values again).
    whole = n & -LANES
    for r in range(nrhs):
        for i in range(0, whole, LANES):
            _lanes_out(B, Ix, io, r * ldb + i, X, t, (r * n + i) * LANES)
        for i in range(whole, n):
            for s in range(g):
                B[_U(Ix[t, io + s] + r * ldb + i)] = X[t, _U((r * n + i) * LANES + s)]


@_inline
def _getrs_lanes(W, X, V, Z, Ix, t, n, nrhs, trans, ipiv):  # type: ignore[no-untyped-def]
    """_solve_flat on the LANES entries of chunk t: op(A)'s LU in W (element (i, c) of lane s at
    W[t, (c * n + i) * LANES + s], conjugated for op = C), right-hand side r's element i at
    X[t, (r * n + i) * LANES + s], pivots of lane s from ipiv[Ix[t, _PIVOTS + s]:].  V[t], Z[t]: LANES
    elements each (multipliers or running sums; the values that decide a skipped column)."""
    t = _U(t)
    un = _U(n)
    ln = _U(LANES)
    cs = un * ln
    for r in range(_U(nrhs)):
        xo = r * cs
        if trans == OP_N:
            _interchange_lanes(X, Ix, t, xo, n, ipiv, False)
            for j in range(un):  # L y = b, unit diagonal; a zero y(j) skips its column
                for s in range(LANES):
                    V[t, s] = X[t, xo + j * ln + _U(s)]
                _update_lanes(X, W, V, V, t, xo, j * cs, j + _U(1), un)
            for jj in range(n - 1, -1, -1):  # U x = y
                j = _U(jj)
                _divide_lanes(X, W, V, Z, t, xo + j * ln, j * cs + j * ln)
                _update_lanes(X, W, V, Z, t, xo, j * cs, _U(0), j)
            continue
        for j in range(un):  # U^T y = b by dot products
            for s in range(LANES):
                V[t, s] = X[t, xo + j * ln + _U(s)]
            _dot_lanes(X, W, V, t, xo, j * cs, _U(0), j, False)
            d = j * cs + j * ln
            for s in range(LANES):
                X[t, xo + j * ln + _U(s)] = V[t, s] / W[t, d + _U(s)]
        for jj in range(n - 1, -1, -1):  # L^T x = y, unit diagonal
            j = _U(jj)
            for s in range(LANES):
                V[t, s] = X[t, xo + j * ln + _U(s)]
            _dot_lanes(X, W, V, t, xo, j * cs, j + _U(1), un, False)
            for s in range(LANES):
                X[t, xo + j * ln + _U(s)] = V[t, s]
        _interchange_lanes(X, Ix, t, xo, n, ipiv, True)


@_inline
def _interchange_lanes(X, Ix, t, xo, n, ipiv, backward):  # type: ignore[no-untyped-def]
    # Each lane's row interchanges (its own pivots), in order, or in reverse order.
    for jj in range(n):
        j = n - 1 - jj if backward else jj
        for s in range(LANES):
            p = ipiv[_U(Ix[t, _PIVOTS + s] + j)] - 1
            at = xo + _U(j * LANES + s)
            to = xo + _U(p * LANES + s)
            v = X[t, at]
            X[t, at] = X[t, to]
            X[t, to] = v


@functools.lru_cache(256)
def solve_lane_bytes(n: int, nrhs: int, batch: int, isz: int) -> int:
    """Scratch of a lane solver (getrs_lanes, the Cholesky module's potrs_lanes) on ``batch`` entries of
    order n with nrhs right-hand sides: per chunk the factors W, the right-hand sides X, V, Z (LANES
    elements each) and Ix (offsets of A, B and the pivots), as :func:`solve_lane_scratch` carves them."""
    return lane_chunks(batch) * layout(*((c, isz) for c in _solve_lane_counts(n, nrhs)), (_PIVOTS + LANES, 8))


def _solve_lane_counts(n: int, nrhs: int) -> tuple[int, int, int, int]:
    return n * n * LANES, nrhs * n * LANES, LANES, LANES


@functools.lru_cache(256)
def _solve_lane_rows(n: int, nrhs: int, isz: int) -> tuple[int, ...]:
    """Elements of one chunk's row of W, X, V and Z: whole multiples of ALIGN bytes."""
    return tuple(rounded(count * isz) // isz for count in _solve_lane_counts(n, nrhs))


def solve_lane_scratch(ws: np.ndarray, n: int, nrhs: int, nchunk: int, dtype: Any) -> tuple[np.ndarray, ...]:
    """(W, X, V, Z, Ix), one row per chunk, carved from ``ws`` as :func:`solve_lane_bytes` sizes them."""
    parts, off = [], 0
    for row in _solve_lane_rows(n, nrhs, np.dtype(dtype).itemsize):
        part, off = host_carve(ws, off, (nchunk, row), dtype)
        parts.append(part)
    Ix, _ = host_carve(ws, off, (nchunk, _PIVOTS + LANES), np.int64)
    return (*parts, Ix)


def lane_chunks(batch: int) -> int:
    """Chunks a lane kernel splits a batch in: at most LANE_CHUNKS, and none without a whole group."""
    return max(1, min(chunk_count(batch), -(-batch // LANES), LANE_CHUNKS))


@kernel(contiguous=True, slp=True, loops=False)
def getrs_lanes(A, sa, lda, ipiv, sp, B, sb, ldb, one, trans, n, nrhs, W, X, V, Z, Ix, nb,
                nchunk):  # type: ignore[no-untyped-def]
    """getrs_small's solves, LANES entries at a time (:func:`_getrs_lanes`); chunk t of nchunk takes a
    contiguous range of whole groups and row t of the scratch; the lanes past a last, partial group
    repeat its first entry and write its solution again."""
    per = _lane_share(nb, nchunk)
    for t in prange(nchunk):
        lo, hi = t * per, min(nb, (t + 1) * per)
        for e0 in range(lo, hi, LANES):
            g = _lane_offsets(Ix, t, _OFFSET, e0, hi, sa)
            _lane_offsets(Ix, t, _RHS_OFFSET, e0, hi, sb)
            _lane_offsets(Ix, t, _PIVOTS, e0, hi, sp)
            _columns_in(W, t, A, Ix, _OFFSET, n, n, lda, one)
            if trans == OP_C:
                for i in range(n * n):
                    for s in range(LANES):
                        W[t, _U(i * LANES + s)] = np.conj(W[t, _U(i * LANES + s)])
            _columns_in(X, t, B, Ix, _RHS_OFFSET, n, nrhs, ldb, one)
            _getrs_lanes(W, X, V, Z, Ix, t, n, nrhs, trans, ipiv)
            _columns_out(B, Ix, _RHS_OFFSET, X, t, n, nrhs, ldb, g)


def _getrs_small_row(n: int, nrhs: int, isz: int) -> int:
    """Elements of one chunk's row of getrs_small's X (a whole number of ALIGN bytes)."""
    return rounded(n * nrhs * isz) // isz


def _getrs_small_bytes(n: int, nrhs: int, isz: int) -> int:
    """Scratch of one chunk of getrs_small: the right-hand sides (nrhs x n)."""
    return layout((_getrs_small_row(n, nrhs, isz), isz))


@_jit
def _gesv_range(A, ipiv, B, info, one, sfmin, ws, lo, hi):  # type: ignore[no-untyped-def]
    n, nrhs = B.shape[1], B.shape[2]
    w, o = carve2(ws, 0, n, n, A.dtype, A.itemsize)
    x, o = carve2(ws, o, nrhs, n, B.dtype, B.itemsize)
    piv, o = carve(ws, o, n, np.int32, 4)
    for e in range(lo, hi):
        _load(w, A, e, 0, 0)
        info[e] = _lu(w, piv, True, one, sfmin)
        _store(A, e, 0, 0, w)
        for j in range(n):
            ipiv[e, j] = piv[j]
        if info[e] == 0:  # a singular entry's B is left as it was
            _load(x, B, e, 0, 0)
            _solve(w, ipiv, e, x, OP_N)
            _store(B, e, 0, 0, x)


@kernel
def gesv_small(A, ipiv, B, info, one, sfmin, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LU of A_e in place (pivots, info), then X overwriting B_e if A_e is regular."""
    nb = A.shape[0]
    if nchunk <= 1:
        _gesv_range(A, ipiv, B, info, one[0], sfmin, ws, np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _gesv_range(A, ipiv, B, info, one[0], sfmin, chunk_of(ws, t, wper), t * per, min(nb, (t + 1) * per))


def _getri_small_bytes(n: int, isz: int) -> int:
    """Scratch of one chunk of getri_small: the entry and LAPACK getri's n-element work array."""
    return layout((n * n, isz), (n, isz))


@_jit
def _getri_range(A, ipiv, C, info, ws, pivot, one, lo, hi):  # type: ignore[no-untyped-def]
    n = A.shape[1]
    w, o = carve2(ws, 0, n, n, A.dtype, A.itemsize)
    work, o = carve(ws, o, n, A.dtype, A.itemsize)
    for e in range(lo, hi):
        _load(w, A, e, 0, 0)
        info[e] = _inverse(w, ipiv, e, work, pivot, one)
        if info[e] == 0:  # a singular entry's output is left as it was
            _store(C, e, 0, 0, w)


@kernel
def getri_small(A, ipiv, C, info, ws, wper, pivot, one, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: C_e := inverse of A_e from its LU and pivots (C may be A)."""
    nb = A.shape[0]
    if nchunk <= 1:
        _getri_range(A, ipiv, C, info, ws, pivot, one[0], np.int64(0), nb)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _getri_range(A, ipiv, C, info, chunk_of(ws, t, wper), pivot, one[0], t * per, min(nb, (t + 1) * per))


@kernel(parallel=False)
def laswp_rows(A, ipiv, k1, k2, inc):  # type: ignore[no-untyped-def]
    """Row interchanges i <-> ipiv[k1 - 1 + (i - k1) |inc|] for i = k1..k2 (1-based), in
    reverse order when inc < 0, on every column of A."""
    step = abs(inc)
    first, last, d = (k1, k2 + 1, 1) if inc > 0 else (k2, k1 - 1, -1)
    for i in range(first, last, d):
        p = ipiv[k1 - 1 + (i - k1) * step] - 1
        if p != i - 1:
            for c in range(A.shape[1]):
                t = A[i - 1, c]
                A[i - 1, c] = A[p, c]
                A[p, c] = t


# --- numba: large entries through LAPACK / BLAS -----------------------------------------------------


@_jit
def _getrf_lapack(kind, m, n, pa, lda, pp, pi, iv):  # type: ignore[no-untyped-def]
    iv[0], iv[1], iv[2] = m, n, lda
    i = iv.ctypes.data
    if kind == 0:
        _sgetrf(i, i + 4, pa, i + 8, pp, pi)
    elif kind == 1:
        _dgetrf(i, i + 4, pa, i + 8, pp, pi)
    elif kind == 2:
        _cgetrf(i, i + 4, pa, i + 8, pp, pi)
    else:
        _zgetrf(i, i + 4, pa, i + 8, pp, pi)


#: Scratch of one chunk of the LAPACK kernels: the integer (and character) argument cells.
_CELLS = layout((8, 1), (8, 4))


@_jit
def _cells(ws):  # type: ignore[no-untyped-def]
    # A chunk's argument cells: 8 characters, 8 int32 (Fortran takes every argument by address).
    ch, o = carve(ws, 0, 8, np.uint8, 1)
    iv, o = carve(ws, o, 8, np.int32, 4)
    return ch, iv, o


@kernel
def getrf_entries(kind, m, n, pa, lda, pp, pi, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e (addresses pa[e], pp[e], pi[e]): LAPACK getrf in place."""
    nb = pa.shape[0]
    if nchunk <= 1:
        _, iv, _ = _cells(ws)
        for e in range(nb):
            _getrf_lapack(kind, m, n, pa[e], lda, pp[e], pi[e], iv)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _, iv, _ = _cells(chunk_of(ws, t, wper))
        for e in range(t * per, min(nb, (t + 1) * per)):
            _getrf_lapack(kind, m, n, pa[e], lda, pp[e], pi[e], iv)


@_jit
def _getrs_lapack(kind, trans, n, nrhs, pa, lda, pp, pb, ldb, ch, iv):  # type: ignore[no-untyped-def]
    ch[0] = trans
    iv[0], iv[1], iv[2], iv[3] = n, nrhs, lda, ldb
    s, i = ch.ctypes.data, iv.ctypes.data
    if kind == 0:
        _sgetrs(s, i, i + 4, pa, i + 8, pp, pb, i + 12, i + 16)
    elif kind == 1:
        _dgetrs(s, i, i + 4, pa, i + 8, pp, pb, i + 12, i + 16)
    elif kind == 2:
        _cgetrs(s, i, i + 4, pa, i + 8, pp, pb, i + 12, i + 16)
    else:
        _zgetrs(s, i, i + 4, pa, i + 8, pp, pb, i + 12, i + 16)


@kernel
def getrs_entries(kind, trans, n, nrhs, pa, lda, pp, pb, ldb, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK getrs, X overwriting B."""
    nb = pa.shape[0]
    if nchunk <= 1:
        ch, iv, _ = _cells(ws)
        for e in range(nb):
            _getrs_lapack(kind, trans, n, nrhs, pa[e], lda, pp[e], pb[e], ldb, ch, iv)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        ch, iv, _ = _cells(chunk_of(ws, t, wper))
        for e in range(t * per, min(nb, (t + 1) * per)):
            _getrs_lapack(kind, trans, n, nrhs, pa[e], lda, pp[e], pb[e], ldb, ch, iv)


@_jit
def _gesv_lapack(kind, n, nrhs, pa, lda, pp, pb, ldb, pi, iv):  # type: ignore[no-untyped-def]
    iv[0], iv[1], iv[2], iv[3] = n, nrhs, lda, ldb
    i = iv.ctypes.data
    if kind == 0:
        _sgesv(i, i + 4, pa, i + 8, pp, pb, i + 12, pi)
    elif kind == 1:
        _dgesv(i, i + 4, pa, i + 8, pp, pb, i + 12, pi)
    elif kind == 2:
        _cgesv(i, i + 4, pa, i + 8, pp, pb, i + 12, pi)
    else:
        _zgesv(i, i + 4, pa, i + 8, pp, pb, i + 12, pi)


@kernel
def gesv_entries(kind, n, nrhs, pa, lda, pp, pb, ldb, pi, ws, wper, nchunk):  # type: ignore[no-untyped-def]
    """Entry e: LAPACK gesv (B is not solved for a singular entry)."""
    nb = pa.shape[0]
    if nchunk <= 1:
        _, iv, _ = _cells(ws)
        for e in range(nb):
            _gesv_lapack(kind, n, nrhs, pa[e], lda, pp[e], pb[e], ldb, pi[e], iv)
        return
    per = (nb + nchunk - 1) // nchunk
    for t in prange(nchunk):
        _, iv, _ = _cells(chunk_of(ws, t, wper))
        for e in range(t * per, min(nb, (t + 1) * per)):
            _gesv_lapack(kind, n, nrhs, pa[e], lda, pp[e], pb[e], ldb, pi[e], iv)


@kernel(parallel=False)
def getri_entries(kind, n, pa, lda, pp, pi, ws, isz):  # type: ignore[no-untyped-def]
    """Entry e, one after another (they share the workspace): LAPACK getri in place (a
    singular entry is left as it was); its work array is n * NB_GETRI elements of ``isz``
    bytes after the argument cells."""
    _, iv, o = _cells(ws)
    lwork = n * NB_GETRI
    work, _ = carve(ws, o, lwork * isz, np.uint8, 1)
    pwork = work.ctypes.data
    iv[0], iv[1], iv[2] = n, lda, lwork
    i = iv.ctypes.data
    for e in range(pa.shape[0]):
        if kind == 0:
            _sgetri(i, pa[e], i + 4, pp[e], pwork, i + 8, pi[e])
        elif kind == 1:
            _dgetri(i, pa[e], i + 4, pp[e], pwork, i + 8, pi[e])
        elif kind == 2:
            _cgetri(i, pa[e], i + 4, pp[e], pwork, i + 8, pi[e])
        else:
            _zgetri(i, pa[e], i + 4, pp[e], pwork, i + 8, pi[e])


@_jit
def _trsm_gemm(kind, ch, iv, one, minus_one, pa, pb, pc, blas_gemm):  # type: ignore[no-untyped-def]
    # ch: side, uplo, trans, diag letters (trsm) / transA, transB (gemm) at ch[4], ch[5].
    # iv: m, n, k, lda, ldb, ldc.
    s, i = ch.ctypes.data, iv.ctypes.data
    o, mo = one.ctypes.data, minus_one.ctypes.data
    if not blas_gemm:
        if kind == 0:
            _strsm(s, s + 1, s + 2, s + 3, i, i + 4, o, pa, i + 12, pb, i + 16)
        elif kind == 1:
            _dtrsm(s, s + 1, s + 2, s + 3, i, i + 4, o, pa, i + 12, pb, i + 16)
        elif kind == 2:
            _ctrsm(s, s + 1, s + 2, s + 3, i, i + 4, o, pa, i + 12, pb, i + 16)
        else:
            _ztrsm(s, s + 1, s + 2, s + 3, i, i + 4, o, pa, i + 12, pb, i + 16)
    elif kind == 0:
        _sgemm(s + 4, s + 5, i, i + 4, i + 8, mo, pa, i + 12, pb, i + 16, o, pc, i + 20)
    elif kind == 1:
        _dgemm(s + 4, s + 5, i, i + 4, i + 8, mo, pa, i + 12, pb, i + 16, o, pc, i + 20)
    elif kind == 2:
        _cgemm(s + 4, s + 5, i, i + 4, i + 8, mo, pa, i + 12, pb, i + 16, o, pc, i + 20)
    else:
        _zgemm(s + 4, s + 5, i, i + 4, i + 8, mo, pa, i + 12, pb, i + 16, o, pc, i + 20)


def _npvt_blocked_bytes(m: int, isz: int) -> int:
    """Scratch of getrf_npvt_blocked: the argument cells and one panel (NB_LARGE x m)."""
    return _CELLS + layout((NB_LARGE * m, isz))


@kernel(parallel=False)
def getrf_npvt_blocked(kind, A, pa, lda, info, one, minus_one, sfmin, ws):  # type: ignore[no-untyped-def]
    """Entry e (A[e], at address pa[e]): blocked right-looking LU without pivoting, in
    place.  Panels of NB_LARGE columns are factored in scratch (from ws) by :func:`_lu`;
    then A12 := inv(L11) A12 (trsm) and A22 -= A21 A12 (gemm) through the host BLAS."""
    nb, m, n = A.shape
    k = min(m, n)
    isz = A.itemsize
    ch, iv, o = _cells(ws)
    ch[0], ch[1], ch[2], ch[3], ch[4], ch[5] = ord("L"), ord("L"), OP_N, ord("U"), OP_N, OP_N
    piv, panel = carve(ws, o, 0, np.int32, 4)  # no pivots; the panel (NB_LARGE x m at most) follows
    for e in range(nb):
        first = 0
        for j0 in range(0, k, NB_LARGE):
            jb = min(NB_LARGE, k - j0)
            w, _ = carve2(ws, panel, jb, m - j0, A.dtype, isz)
            _load(w, A, e, j0, j0)
            r = _lu(w, piv, False, one[0], sfmin)
            _store(A, e, j0, j0, w)
            if first == 0 and r != 0:
                first = j0 + r
            rest = n - j0 - jb
            if rest <= 0:
                continue
            a11 = pa[e] + (j0 + j0 * lda) * isz
            a12 = pa[e] + (j0 + (j0 + jb) * lda) * isz
            iv[0], iv[1], iv[3], iv[4] = jb, rest, lda, lda
            _trsm_gemm(kind, ch, iv, one, minus_one, a11, a12, 0, False)
            below = m - j0 - jb
            if below > 0:
                a21 = pa[e] + (j0 + jb + j0 * lda) * isz
                a22 = pa[e] + (j0 + jb + (j0 + jb) * lda) * isz
                iv[0], iv[1], iv[2], iv[3], iv[4], iv[5] = below, rest, jb, lda, lda, lda
                _trsm_gemm(kind, ch, iv, one, minus_one, a21, a12, a22, True)
        info[e] = first


# --- launch bodies: numpy around the numba kernels --------------------------------------------------


def _colmajor(x: np.ndarray) -> np.ndarray:
    """``x`` if every entry is column-major (what LAPACK reads), else a column-major copy."""
    _, r, c = x.shape
    isz = x.itemsize
    s1, s2 = x.strides[1], x.strides[2]
    if (r <= 1 or s1 == isz) and (c <= 1 or (s2 >= r * isz and s2 % isz == 0)):
        return x
    y = np.empty((x.shape[0], c, r), x.dtype).transpose(0, 2, 1)
    y[...] = x
    return y


def _vector_rows(x: np.ndarray) -> np.ndarray:
    """``x`` (batch, n) if each entry's elements are contiguous, else a contiguous copy."""
    if x.shape[1] <= 1 or x.strides[1] == x.itemsize:
        return x
    return np.ascontiguousarray(x)


def _flat_colmajor(x: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, int, int]]:
    """``x`` (or a column-major copy) and its flat view, leading dimension and entry stride
    (:func:`rocmath.batch.flat_entries`)."""
    a = _colmajor(x)
    f = flat_entries(a)
    if f is None:  # a negative entry stride
        a = np.empty((x.shape[0], x.shape[2], x.shape[1]), x.dtype).transpose(0, 2, 1)
        a[...] = x
        f = flat_entries(a)
    assert f is not None
    return a, f


def _flat_rows(x: np.ndarray) -> tuple[np.ndarray, int]:
    """The rows of ``x`` (batch, k), each contiguous, as one flat span from its first element and
    the stride between rows, in elements (an array typed C-contiguous: one compilation)."""
    nb, k = x.shape
    if x.size == 0:
        return np.zeros(1, x.dtype), 0
    s0 = x.strides[0] // x.itemsize if nb > 1 else 0
    if s0 < 0:
        return _flat_rows(np.ascontiguousarray(x))
    return flat_span(x, (nb - 1) * s0 + k), s0


def _addresses(x: np.ndarray) -> np.ndarray:
    """The address of every entry along the first axis."""
    return np.int64(x.ctypes.data) + np.arange(x.shape[0], dtype=np.int64) * np.int64(x.strides[0])


def _ld(x: np.ndarray) -> int:
    """The leading dimension LAPACK gets: the column stride, at least max(1, rows)."""
    ld = max(1, x.shape[1])
    if x.shape[2] > 1:
        ld = max(ld, x.strides[2] // x.itemsize)
    return ld


def _finish(out: np.ndarray, work: np.ndarray) -> None:
    if work is not out:
        out[...] = work


def _chunks(nb: int, serial: bool, work: int = 0) -> int:
    # At most chunk_count(nb, work): the bound the *_workspace functions size the workspace for.
    return 1 if serial else chunk_count(nb, work)


def _one(dtype: np.dtype[Any]) -> np.ndarray:
    return np.ones(1, dtype)


def _one_negzero(dtype: np.dtype[Any]) -> np.ndarray:
    # -0 (both parts of a complex one): adding it copies a value exactly.
    return np.array([1, complex(-0.0, -0.0) if np.dtype(dtype).kind == "c" else -0.0], dtype)


def _sfmin(dtype: np.dtype[Any]) -> float:
    # LAPACK's dlamch('S'): the smallest number whose reciprocal does not overflow.
    return float(np.finfo(dtype).tiny)


def _check_pivots(ipiv: np.ndarray, rows: int) -> None:
    """Pivots read from the device must address rows 1..rows of the matrix: anything else
    would reach outside it, which a GPU reports as a memory fault."""
    if ipiv.size == 0:
        return
    bad = (ipiv < 1) | (ipiv > rows)
    if bad.any():
        e, j = (int(v) for v in np.argwhere(bad)[0])
        raise MemoryAccessFault(f"argument 'ipiv': entry {e}, pivot {j + 1} is {int(ipiv[e, j])}, outside 1..{rows} "
                                "(rows of the matrix)")


def _no_pivots(nb: int) -> np.ndarray:
    return np.zeros((nb, 0), np.int32)


# --- workspace: the bytes each launch body carves (the routines' workspace functions) ---------------


def getrf_workspace(m: int, n: int, batch: int, itemsize: int, pivot: bool = True) -> int:
    """Bytes of workspace :func:`getrf` uses: per chunk the entry and its pivots (small entries)
    or LAPACK's argument cells (large ones); the argument cells and one panel for the blocked
    LU without pivoting."""
    k = min(m, n)
    if batch == 0 or k == 0:
        return 0
    if k <= SMALL:
        return chunk_count(batch) * _getrf_small_bytes(m, n, itemsize)
    if not pivot:
        return _npvt_blocked_bytes(m, itemsize)
    return chunk_count(batch, m * n * k) * _CELLS


def getrs_workspace(n: int, nrhs: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`getrs` uses: per chunk the entry and its right-hand sides (small
    entries) or LAPACK's argument cells."""
    if batch == 0 or n == 0 or nrhs == 0:
        return 0
    if n <= SMALL:
        lanes = solve_lane_bytes(n, nrhs, batch, itemsize) if batch >= LANES else 0
        return max(chunk_count(batch) * _getrs_small_bytes(n, nrhs, itemsize), lanes)
    return chunk_count(batch, n * n * nrhs) * _CELLS


def gesv_workspace(n: int, nrhs: int, batch: int, itemsize: int) -> int:
    """Bytes of workspace :func:`gesv` uses: small entries getrf's then getrs's (or, overlapping
    ones, the entry, its right-hand sides and pivots per chunk), large ones LAPACK's cells."""
    if batch == 0 or n == 0 or nrhs == 0:
        return 0
    if n <= SMALL:
        return max(chunk_count(batch) * _solve_small_bytes(n, nrhs, itemsize, True),
                   getrf_workspace(n, n, batch, itemsize), getrs_workspace(n, nrhs, batch, itemsize))
    return chunk_count(batch, n * n * (n + nrhs)) * _CELLS


def getri_workspace(n: int, batch: int, itemsize: int, pivot: bool = True) -> int:
    """Bytes of workspace :func:`getri` uses: per chunk the entry and an n-element work array
    (small entries); for large ones LAPACK's work array (n * NB_GETRI elements, the entries run
    one at a time) and, without pivoting, the identity pivots LAPACK's getri reads."""
    if n == 0 or batch == 0:
        return 0
    if n <= SMALL:
        return chunk_count(batch) * _getri_small_bytes(n, itemsize)
    return (0 if pivot else rounded(4 * batch * n)) + _CELLS + layout((n * NB_GETRI, itemsize))


# --- launch bodies --------------------------------------------------------------------------------


def getrf(A: np.ndarray, ipiv: np.ndarray | None, info: np.ndarray, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """LU of every entry of A in place, pivoted when ``ipiv`` is given ((batch, min(m, n)));
    ``serial`` processes entries in order (overlapping outputs); ``ws``: the workspace
    (:func:`getrf_workspace` bytes)."""
    nb, m, n = A.shape
    k = min(m, n)
    isz = A.itemsize
    pivot = ipiv is not None
    if k <= SMALL:
        a, (flat, ld, sa) = _flat_colmajor(A)
        p = _vector_rows(ipiv) if ipiv is not None else _no_pivots(nb)
        pflat, sp = _flat_rows(p)
        nchunk = _chunks(nb, serial)
        w, lr, x, ni = _getrf_small_parts(m, n, isz)
        ws = scratch(ws, nchunk * _getrf_small_bytes(m, n, isz))
        W, off = host_carve(ws, 0, (nchunk, w), a.dtype)
        L, off = host_carve(ws, off, (nchunk, lr), a.dtype)
        X, off = host_carve(ws, off, (nchunk, x), a.dtype)
        B, off = host_carve(ws, off, (nchunk, LANES), np.finfo(a.dtype).dtype)
        Ix, _ = host_carve(ws, off, (nchunk, ni), np.int64)
        args = (flat, sa, ld, m, n, pflat, sp, info, pivot, _one_negzero(a.dtype), _sfmin(a.dtype))
        if max(m, n) <= LANE_MAX and not serial:
            getrf_small(*args, W, L, X, B, Ix, nb, nchunk)
        else:
            getrf_single(*args, W, L, Ix, nb, nchunk)
        if ipiv is not None:
            _finish(ipiv, p)
        _finish(A, a)
        return
    ensure_lapack()
    a = _colmajor(A)
    if ipiv is None:
        getrf_npvt_blocked(_KIND[a.dtype], a, _addresses(a), _ld(a), info, _one(a.dtype), -_one(a.dtype),
                           _sfmin(a.dtype), scratch(ws, _npvt_blocked_bytes(m, isz)))
    else:
        p = _vector_rows(ipiv)
        nchunk = _chunks(nb, serial, m * n * k)
        getrf_entries(_KIND[a.dtype], m, n, _addresses(a), _ld(a), _addresses(p), _addresses(info[:, None]),
                      scratch(ws, nchunk * _CELLS), _CELLS, nchunk)
        _finish(ipiv, p)
    _finish(A, a)


def getrs(trans: int, A: np.ndarray, ipiv: np.ndarray, B: np.ndarray, serial: bool,
          ws: np.ndarray | None = None, factored: bool = False) -> None:
    """op(A_e) X = B_e for every entry with A_e's LU and pivots, X over B_e (``factored``: the pivots
    are getrf's of this launch, in range by construction, so not checked again)."""
    nb, n, nrhs = B.shape
    if not factored:
        _check_pivots(ipiv, n)
    if n <= SMALL:
        a, (fa, lda, sa) = _flat_colmajor(A)
        b, (fb, ldb, sb) = _flat_colmajor(B)
        pf, sp = _flat_rows(_vector_rows(ipiv))
        if nb >= LANES and not serial and (trans != OP_N or n <= SOLVE_LANE_MAX):
            nchunk = lane_chunks(nb)
            ws = scratch(ws, solve_lane_bytes(n, nrhs, nb, A.itemsize))
            getrs_lanes(fa, sa, lda, pf, sp, fb, sb, ldb, _one_negzero(a.dtype), trans, n, nrhs,
                        *solve_lane_scratch(ws, n, nrhs, nchunk, a.dtype), nb, nchunk)
            _finish(B, b)
            return
        nchunk = _chunks(nb, serial)
        ws = scratch(ws, nchunk * _getrs_small_bytes(n, nrhs, A.itemsize))
        X, _ = host_carve(ws, 0, (nchunk, _getrs_small_row(n, nrhs, A.itemsize)), B.dtype)
        getrs_small(fa, sa, lda, pf, sp, fb, sb, ldb, X, _one_negzero(B.dtype), trans, n, nrhs, nb, nchunk)
        _finish(B, b)
        return
    ensure_lapack()
    a, b, p = _colmajor(A), _colmajor(B), _vector_rows(ipiv)
    nchunk = _chunks(nb, serial, n * n * nrhs)
    getrs_entries(_KIND[a.dtype], trans, n, nrhs, _addresses(a), _ld(a), _addresses(p), _addresses(b), _ld(b),
                  scratch(ws, nchunk * _CELLS), _CELLS, nchunk)
    _finish(B, b)


def gesv(A: np.ndarray, ipiv: np.ndarray, B: np.ndarray, info: np.ndarray, serial: bool,
         ws: np.ndarray | None = None) -> None:
    """LU of every A_e in place (pivots, info), then X over B_e for the regular ones."""
    nb, n, nrhs = B.shape
    if n <= SMALL and not serial:
        # getrf's and getrs's kernels (the lanes, the blocked one-at-a-time LU: gesv_small's
        # operations in its order, the same bits, 3x faster at 32 x 32); a singular entry's B
        # is not solved (copies of the regular entries' when there is one).
        getrf(A, ipiv, info, False, ws)
        if not info.any():
            getrs(OP_N, A, ipiv, B, False, ws, True)
        elif (regular := np.flatnonzero(info == 0)).size:
            solved = B[regular]
            getrs(OP_N, A[regular], ipiv[regular], solved, False, ws, True)
            B[regular] = solved
        return
    if n <= SMALL:  # overlapping entries: each entry's LU and solve before the next one's
        nchunk, per = _chunks(nb, serial), _solve_small_bytes(n, nrhs, A.itemsize, True)
        gesv_small(A, ipiv, B, info, _one(A.dtype), _sfmin(A.dtype), scratch(ws, nchunk * per), per, nchunk)
        return
    ensure_lapack()
    a, b, p = _colmajor(A), _colmajor(B), _vector_rows(ipiv)
    nchunk = _chunks(nb, serial, n * n * (n + nrhs))
    gesv_entries(_KIND[a.dtype], n, nrhs, _addresses(a), _ld(a), _addresses(p), _addresses(b), _ld(b),
                 _addresses(info[:, None]), scratch(ws, nchunk * _CELLS), _CELLS, nchunk)
    _finish(A, a)
    _finish(ipiv, p)
    _finish(B, b)


def getri(A: np.ndarray, ipiv: np.ndarray | None, C: np.ndarray | None, info: np.ndarray, serial: bool,
          ws: np.ndarray | None = None) -> None:
    """C_e := inverse of A_e from its LU (and pivots, unless None); in place when C is None.
    A singular entry (a zero on U's diagonal: info) leaves its output as it was."""
    nb, n, _ = A.shape
    out = C is not None
    if C is None:
        C = A
    if ipiv is not None:
        if out:  # getrs's row interchanges (rocSOLVER's out-of-place getri) read every pivot of every entry
            _check_pivots(ipiv, n)
        else:  # the column interchanges read pivots 1..n-1, and only those of the regular entries
            d = np.arange(n)
            regular = ~(A[:, d, d] == 0).any(axis=1)
            _check_pivots(np.where(regular[:, None], ipiv[:, :n - 1], 1), n)
    isz = A.itemsize
    if n <= SMALL:
        piv = ipiv if ipiv is not None else _no_pivots(nb)
        nchunk, per = _chunks(nb, serial), _getri_small_bytes(n, isz)
        getri_small(A, piv, C, info, scratch(ws, nchunk * per), per, ipiv is not None, _one(A.dtype), nchunk)
        return
    ensure_lapack()
    ws = scratch(ws, getri_workspace(n, nb, isz, ipiv is not None))
    # LAPACK inverts in place and checks U's diagonal first; here the check comes first so an
    # out-of-place C of a singular entry is not touched either.
    d = np.arange(n)
    zero = A[:, d, d] == 0
    info[...] = np.where(zero.any(axis=1), zero.argmax(axis=1) + 1, 0)
    regular = np.flatnonzero(info == 0)
    if out:
        C[regular] = A[regular]
    c = _colmajor(C)
    if ipiv is not None:
        p, off = _vector_rows(ipiv), 0
    else:  # LAPACK's getri always interchanges: the identity pivots
        p, off = host_carve(ws, 0, (nb, n), np.int32)
        p[...] = np.arange(1, n + 1, dtype=np.int32)
    getri_entries(_KIND[c.dtype], n, _addresses(c)[regular], _ld(c), _addresses(p)[regular],
                  _addresses(info[:, None])[regular], ws[off:], isz)
    _finish(C, c)


def laswp(A: np.ndarray, ipiv: np.ndarray, k1: int, k2: int, inc: int) -> None:
    """LAPACK/rocSOLVER laswp on A (lda x n: pivots may name any row up to lda).  Only a row
    that moves (pivot != row) is accessed, so only such a row and its pivot must lie in 1..lda;
    k2 is not checked against lda, so a moving row past it is a MemoryAccessFault."""
    lda = A.shape[1]
    rows = np.arange(k1, k2 + 1)
    used = ipiv[k1 - 1 + (rows - k1) * abs(inc)]
    moved = used != rows
    _check_pivots(np.where(moved, used, 1)[None, :], lda)
    past = rows[moved & (rows > lda)]
    if past.size:
        raise MemoryAccessFault(f"argument 'k2': row {int(past[0])} is interchanged (with row "
                                f"{int(used[past[0] - k1])}), outside 1..{lda} (rows of the matrix)")
    laswp_rows(A[0], ipiv, k1, k2, inc)
