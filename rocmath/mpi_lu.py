"""Distributed LU with partial pivoting (ScaLAPACK's pxgetrf) and its solve (pxgetrs) on the
2-D block-cyclic layout of :mod:`rocmath.mpi`.

:func:`getrf` is the right-looking blocked algorithm with HPL's look-ahead.  At block step ``k``
(columns ``j0 = k nb .. j0 + w - 1``, ``w = min(nb, min(m, n) - j0)``), with
``(prow, pcol) = (k mod pr, k mod pc)``:

1. **Panel** (the ranks of process column ``pcol``), one column ``j`` at a time, as LAPACK's
   getf2: each rank finds its candidate pivot among its rows ``>= j`` with rocmath.blas
   i?amax (``|Re| + |Im|``, as BLAS); the candidates are allgathered in the column (16 bytes
   each) and the largest wins, the smallest row index among equals (LAPACK's choice); the
   owner of the pivot row broadcasts its panel row down the column and, when rows ``j`` and
   ``p`` live on different ranks, the owner of row ``j`` sends its old row to the owner of
   row ``p`` (on one rank: rocmath.blas swap); every rank then scales its part of column ``j``
   by the reciprocal of the pivot (scal; a division below ``tiny``, as LAPACK) and updates the
   rest of its panel rows (ger/geru).  A zero pivot sets ``info`` and skips the scaling.
   On a grid of one process row the panel is all on one rank: rocmath.solver getrf
   factors it there (the same partial pivoting, no messages).
2. **Panel broadcast**: the step's ``w`` pivots and its ``info`` (``w + 1`` int64) and, when
   columns lie right of the step, the panel's rows from ``j0`` (``L_kk`` on process row
   ``prow``, then ``L_21``) are broadcast along the process rows, nonblocking (``Ibcast``),
   so every rank holds the global 1-based ``ipiv``.
3. **Row swaps** outside the panel (LAPACK's laswp, left and right of it): a swap of rows on
   two process rows is one exchange of their local row pieces within each process column
   (on one process row: rocmath.solver laswp).
4. **U block row**: process row ``prow`` solves ``U_12 = L_kk^{-1} A_12`` on its columns
   right of the panel (rocmath.blas trsm).
5. **Trailing update**: ``U_12`` is broadcast down the process columns and every rank updates
   ``A_22 -= L_21 U_12`` (rocmath.blas gemm).  **Look-ahead** (``depth=1``, HPL's depth 1): the
   process column of panel ``k + 1`` updates that panel's columns first, factors it (step 1)
   and starts its broadcast (step 2), and only then queues the rest of its update, while the
   other process columns queue their whole update.  The gemms run on the stream's worker
   thread, asynchronously to the rank's host thread, which meanwhile waits for the next
   panel's broadcast, so the broadcast moves while the update runs and the ranks that do not
   factor panel ``k + 1`` never wait for it behind the rest of step ``k``'s update.
   ``depth=0`` factors panel ``k + 1`` after the whole update, with the same two gemms: the
   same pivots, the same bits and the same bytes.

:func:`getrs` solves ``A X = B`` with the factors: the row swaps on B, then the block
forward (unit ``L``) and backward (``U``) substitutions, each block step broadcasting the
diagonal block along its process row (trsm there), the factor's block column along the
process rows and the solved block row of X down the process columns (gemm).

MPI buffers are host memory; the local matrices stay on the rank's simulated device
(``rank % ROCMATH_DEVICE_COUNT``) for the whole call and panels are staged through the host.
Every broadcast is an ``Ibcast`` completed by testing it with short sleeps in between: MPI's
own waits spin, and would take the core the rank's stream worker needs for the work queued
before the wait.

Communication model (bytes received, summed over all ranks; :func:`getrf_volume`,
:func:`getrs_volume`), with ``s`` the item size, ``P = pr pc``, and for a step
``b = m - j0 - w`` rows below it, ``r = n - j0 - w`` columns right of it, ``x`` the pivots
``p != j`` whose rows live on different process rows::

    getrf, every step:  w pr (pr - 1) 16 + w (pr - 1) w s           (candidates, pivot rows)
                        + x w s + x 2 (n - w) s                     (panel and outside swaps)
                        + pr (pc - 1) (w + 1) 8                     (pivots and info)
             if r > 0:  (pc - 1) w w s                              (the panel's L_kk)
      if r > 0, b > 0:  (pc - 1) b w s + (pr - 1) r w s             (the panel's L_21, U_12)
    getrs (n x nrhs):   x 2 nrhs s over all pivots,
                        forward step:  (pc - 1) w w s + [b > 0] ((pc - 1) b w s + (pr - 1) w nrhs s)
                        backward step: (pc - 1) w w s + [j0 > 0] ((pc - 1) j0 w s + (pr - 1) w nrhs s)

Examples
--------
>>> from rocmath import mpi, mpi_lu                                     # doctest: +SKIP
>>> grid = mpi.ProcessGrid()
>>> a = mpi.DistributedMatrix.from_global(A, grid, nb=64)
>>> lu, ipiv, info, stats = mpi_lu.getrf(a)        # ipiv: global, 1-based, on every rank
>>> x, _ = mpi_lu.getrs(lu, ipiv, mpi.DistributedMatrix.from_global(B, grid, nb=64))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .mpi import CommStats, DistributedMatrix, ProcessGrid, _mpi, local_indices

__all__ = ["getrf", "getrf_volume", "getrs", "getrs_volume"]

_CANDIDATE = 16  # bytes of a pivot candidate: (magnitude, global row) as two float64
#: Seconds between two tests of a pending broadcast.
_POLL = 5e-5


def _swapped_rows(ipiv: np.ndarray, nb: int, pr: int) -> np.ndarray:
    """Whether each pivot ``j <-> ipiv[j] - 1`` exchanges rows of two process rows."""
    j = np.arange(len(ipiv))
    p = np.asarray(ipiv, dtype=np.int64) - 1
    return (p != j) & ((p // nb) % pr != (j // nb) % pr)


def getrf_volume(m: int, n: int, nb: int, grid_shape: tuple[int, int], itemsize: int, ipiv: Any) -> int:
    """Bytes all ranks receive in :func:`getrf` of an ``m x n`` matrix, block size ``nb``, on a
    ``pr x pc`` grid, given the pivots it returned (the model of the module docstring).

    Parameters
    ----------
    m, n, nb
        The matrix's shape and block size.
    grid_shape
        ``(pr, pc)``.
    itemsize
        Bytes of one element of the factored matrix.
    ipiv
        The 1-based pivots :func:`getrf` returned (``min(m, n)`` of them).

    Returns
    -------
    int
        The sum over ranks of :attr:`CommStats.bytes_received`.
    """
    pr, pc = grid_shape
    mn = min(m, n)
    crossed = _swapped_rows(np.asarray(ipiv)[:mn], nb, pr)
    total = 0
    for j0 in range(0, mn, nb):
        w = min(nb, mn - j0)
        below, right = m - j0 - w, n - j0 - w
        x = int(crossed[j0:j0 + w].sum())
        total += w * pr * (pr - 1) * _CANDIDATE + w * (pr - 1) * w * itemsize
        total += x * w * itemsize + x * 2 * (n - w) * itemsize
        total += pr * (pc - 1) * (w + 1) * 8
        if right > 0:
            total += (pc - 1) * w * w * itemsize
            if below > 0:
                total += (pc - 1) * below * w * itemsize + (pr - 1) * right * w * itemsize
    return total


def getrs_volume(n: int, nrhs: int, nb: int, grid_shape: tuple[int, int], itemsize: int, ipiv: Any) -> int:
    """Bytes all ranks receive in :func:`getrs` with an ``n x n`` factorization and ``nrhs``
    right-hand sides (the model of the module docstring).

    Parameters
    ----------
    n, nrhs, nb
        Order of the system, columns of B, block size.
    grid_shape
        ``(pr, pc)``.
    itemsize
        Bytes of one element of the solution.
    ipiv
        The 1-based pivots of the factorization.

    Returns
    -------
    int
        The sum over ranks of :attr:`CommStats.bytes_received`.
    """
    pr, pc = grid_shape
    total = int(_swapped_rows(np.asarray(ipiv)[:n], nb, pr).sum()) * 2 * nrhs * itemsize
    for j0 in range(0, n, nb):
        w = min(nb, n - j0)
        below = n - j0 - w
        total += 2 * (pc - 1) * w * w * itemsize
        if below > 0:
            total += (pc - 1) * below * w * itemsize + (pr - 1) * w * nrhs * itemsize
        if j0 > 0:
            total += (pc - 1) * j0 * w * itemsize + (pr - 1) * w * nrhs * itemsize
    return total


@dataclass
class _Local:
    """This rank's device copy of a block-cyclic matrix and what the steps need to address it."""

    grid: ProcessGrid
    nb: int
    rows: np.ndarray
    cols: np.ndarray
    d: Any  # DeviceArray, column-major
    handle: Any
    stats: CommStats

    @property
    def ld(self) -> int:
        return max(1, self.rows.size)

    def first_row(self, g: int) -> int:
        """Local index of this rank's first row with global index ``>= g``."""
        return int(np.searchsorted(self.rows, g))

    def first_col(self, g: int) -> int:
        return int(np.searchsorted(self.cols, g))

    def owner_row(self, g: int) -> int:
        """The process row holding global row ``g``."""
        return (g // self.nb) % self.grid.pr

    def get(self, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
        out = np.empty((r1 - r0, c1 - c0), self.d.dtype, order="F")
        if out.size:
            self.d[r0:r1, c0:c1].get(stream=self.handle.stream, out=out)
        return out

    def set(self, r0: int, c0: int, values: np.ndarray) -> None:
        if values.size:
            self.d[r0:r0 + values.shape[0], c0:c0 + values.shape[1]].set(values, stream=self.handle.stream)

    def bcast(self, comm: Any, buf: np.ndarray, root: int) -> None:
        """Broadcast counted as received by every rank but the root."""
        _wait([comm.Ibcast(buf, root=root)])
        self.stats.messages += 1
        self.stats.bytes_received += 0 if comm.Get_rank() == root else buf.nbytes

    def swap_rows(self, j: int, p: int, ranges: list[tuple[int, int]], swap: Any) -> None:
        """Swap global rows ``j`` and ``p`` on the local columns ``ranges`` (collective over the
        process column: the two owners exchange their pieces when they differ)."""
        ranges = [(c0, c1) for c0, c1 in ranges if c1 > c0]
        if j == p or not ranges:
            return
        oj, op = self.owner_row(j), self.owner_row(p)
        me = self.grid.row
        if oj == op == me:
            lj, lp = self.first_row(j), self.first_row(p)
            for c0, c1 in ranges:
                swap(self.handle, c1 - c0, self.d[lj:lj + 1, c0:c1], self.ld, self.d[lp:lp + 1, c0:c1], self.ld)
        elif me in (oj, op) and oj != op:
            mine, other = (j, op) if me == oj else (p, oj)
            r = self.first_row(mine)
            piece = np.concatenate([self.get(r, r + 1, c0, c1) for c0, c1 in ranges], axis=1)
            theirs = np.empty_like(piece)
            self.grid.col_comm.Sendrecv(np.ascontiguousarray(piece), dest=other, recvbuf=theirs, source=other)
            self.stats.messages += 1
            self.stats.bytes_received += theirs.nbytes
            at = 0
            for c0, c1 in ranges:
                self.set(r, c0, np.asfortranarray(theirs[:, at:at + c1 - c0]))
                at += c1 - c0


def _wait(requests: list[Any]) -> None:
    """Complete MPI requests, sleeping between tests rather than spinning in MPI's wait: the
    work this rank queued before runs on its stream's worker thread and needs the core."""
    test = _mpi().Request.Testall
    while not test(requests):
        time.sleep(_POLL)


def _routines(dtype: np.dtype[Any]) -> dict[str, Any]:
    import rocmath.blas as blas
    import rocmath.solver as solver
    from rocmath.precision import Precision

    p = Precision.of(dtype)
    return {"getrf": getattr(solver, f"{p.letter}getrf"), "laswp": getattr(solver, f"{p.letter}laswp"),
            "iamax": getattr(blas, f"i{p.letter}amax"), "swap": getattr(blas, f"{p.letter}swap"),
            "scal": getattr(blas, f"{p.letter}scal"), "trsm": getattr(blas, f"{p.letter}trsm"),
            "gemm": getattr(blas, f"{p.letter}gemm"),
            "ger": getattr(blas, f"{p.letter}geru" if p.is_complex else f"{p.letter}ger")}


def getrf(a: DistributedMatrix, *, depth: int = 1) -> tuple[DistributedMatrix, np.ndarray, int, CommStats]:
    """LU factorization with partial pivoting ``A = P L U`` of a block-cyclic matrix.

    The right-looking blocked algorithm of the module docstring (ScaLAPACK's pxgetrf, with
    HPL's look-ahead); local work by rocmath.blas on each rank's simulated device.
    Collective: every rank of ``a.grid`` must call it.

    Parameters
    ----------
    a
        This rank's part of an ``m x n`` matrix.  Integer matrices are factored in float64,
        float16 in float32.
    depth
        Look-ahead depth, as HPL's: 1 factors panel ``k + 1`` as soon as its own columns are
        updated and broadcasts it while the rest of step ``k``'s trailing update runs; 0
        factors it after the whole update.  The pivots, the factors and the bytes moved are
        the same.

    Returns
    -------
    (lu, ipiv, info, stats)
        ``lu``: this rank's part of the factors, ``L`` (unit diagonal, not stored) below the
        diagonal and ``U`` on and above it, as LAPACK's getrf leaves them.  ``ipiv``: the
        ``min(m, n)`` global 1-based pivots, the same on every rank (row ``j`` was interchanged
        with row ``ipiv[j]``; scipy's ``lu_factor`` returns ``ipiv - 1``).  ``info``: 0, or the
        1-based index of the first exactly zero pivot (``U`` is singular; the factorization is
        completed, as LAPACK's).  ``stats``: what was communicated (``total_bytes`` equals
        :func:`getrf_volume` of the returned pivots).

    Raises
    ------
    ValueError
        If ``depth`` is not 0 or 1.
    """
    import rocmath
    import rocmath.blas as blas

    if isinstance(depth, bool) or depth not in (0, 1):
        raise ValueError(f"depth must be 0 or 1, got {depth!r}")
    mpi = _mpi()
    grid = a.grid
    m, n = a.shape
    nb = a.nb
    mn = min(m, n)
    dtype = np.result_type(a.local.dtype, np.float32)
    fn = _routines(dtype)
    t0 = mpi.Wtime()
    rocmath.set_device(grid.rank % rocmath.get_device_count())
    stats = CommStats()
    ipiv = np.zeros(mn, np.int64)
    info = 0
    rows = local_indices(m, nb, grid.pr, grid.row)
    cols = local_indices(n, nb, grid.pc, grid.col)
    lm, ln = rows.size, cols.size
    with blas.BlasHandle() as h:
        s = h.stream
        d = rocmath.empty((lm, ln), dtype, "F")
        if d.size:
            d.set(a.local.astype(dtype), stream=s)
        loc = _Local(grid, nb, rows, cols, d, h, stats)
        ld = loc.ld
        # 1. the first panel, factored and on its way along the process rows
        nxt = _Panel(loc, fn, m, n, 0, min(nb, mn)) if mn else None
        for j0 in range(0, mn, nb):
            k = j0 // nb
            w = min(nb, mn - j0)
            prow, pcol = k % grid.pr, k % grid.pc
            lr, lc, lc_right = loc.first_row(j0), loc.first_col(j0), loc.first_col(j0 + w)
            # 2. the step's pivots and info (and its panel) on every rank
            assert nxt is not None
            panel, nxt = nxt, None
            panel.wait()
            steps = panel.steps
            ipiv[j0:j0 + w] = steps[:w]
            info = info or int(steps[w])
            # 3. the same row swaps left and right of the panel
            outside = [(c0, c1) for c0, c1 in ([(0, lc), (lc + w, ln)] if grid.col == pcol else [(0, ln)]) if c1 > c0]
            if grid.pr == 1 and outside:
                dsteps = rocmath.to_device(np.concatenate([np.zeros(j0, np.int32), steps[:w].astype(np.int32)]),
                                           stream=s)
                for c0, c1 in outside:
                    fn["laswp"](h, c1 - c0, d[:, c0:c1], ld, j0 + 1, j0 + w, dsteps, 1)
            elif grid.pr > 1:
                for jj in range(w):
                    loc.swap_rows(j0 + jj, int(steps[jj]) - 1, outside, fn["swap"])
            right, below = n - j0 - w, m - j0 - w
            if right == 0:
                continue
            nr = ln - lc_right
            # 4. U_12 = L_kk^{-1} A_12 on process row prow (L_kk: the panel's first w rows there)
            if grid.row == prow and nr:
                fn["trsm"](h, "L", "L", "N", "U", w, nr, 1.0, rocmath.to_device(np.asfortranarray(panel.rows[:w]),
                                                                                stream=s), w,
                           d[lr:lr + w, lc_right:], ld)
            if below == 0:
                continue
            # 5. U_12 down the process columns, then A_22 -= L_21 U_12
            u12 = loc.get(lr, lr + w, lc_right, ln) if grid.row == prow else np.empty((w, nr), dtype, order="F")
            loc.bcast(grid.col_comm, u12, prow)
            rb = loc.first_row(j0 + w)
            l21 = panel.rows[w:] if grid.row == prow else panel.rows  # this rank's rows below the step
            ops = (rocmath.to_device(np.asfortranarray(l21), stream=s), rocmath.to_device(u12, stream=s), rb,
                   lc_right) if lm - rb and nr else None
            j1 = j0 + w
            w1 = min(nb, mn - j1)
            # The next panel's columns first (the same two gemms at either depth: the same bits)
            first = lc_right
            if j1 < mn and grid.col == (k + 1) % grid.pc:
                first = lc_right + w1
                _update(loc, fn, ops, lc_right, first)
            if j1 < mn and depth:
                # look-ahead: the next panel factored and on its way while the rest of the update,
                # queued behind it on the stream, runs
                nxt = _Panel(loc, fn, m, n, j1, w1)
            _update(loc, fn, ops, first, ln)
            if j1 < mn and not depth:
                nxt = _Panel(loc, fn, m, n, j1, w1)
        out = d.get(stream=s) if d.size else np.empty((lm, ln), dtype)
    stats.seconds = mpi.Wtime() - t0
    stats.per_rank = grid.comm.allgather(stats.bytes_received)
    stats.total_bytes = int(sum(stats.per_rank))
    return DistributedMatrix(np.ascontiguousarray(out), (m, n), nb, grid), ipiv, info, stats


def _update(loc: _Local, fn: dict[str, Any], ops: tuple[Any, Any, int, int] | None, c0: int, c1: int) -> None:
    """``A_22 -= L_21 U_12`` on this rank's local columns ``c0 .. c1 - 1`` (``ops``: ``L_21`` and
    ``U_12`` on the device, the first local row below the step, the first local column right of
    it; None when this rank holds no part of ``A_22``)."""
    if ops is None or c1 <= c0:
        return
    dl, du, rb, lc_right = ops
    rows, w = dl.shape
    fn["gemm"](loc.handle, "N", "N", rows, c1 - c0, w, -1.0, dl, rows, du[:, c0 - lc_right:c1 - lc_right], w, 1.0,
               loc.d[rb:, c0:c1], loc.ld)


class _Panel:
    """Block step ``j0``'s panel: factored by its process column (step 1), then its pivots and
    info and, when columns lie right of it, its rows from ``j0`` (``L_kk`` on process row
    ``k mod pr``, then ``L_21``) broadcast along the process rows without blocking (step 2);
    :meth:`wait` completes the broadcasts."""

    def __init__(self, loc: _Local, fn: dict[str, Any], m: int, n: int, j0: int, w: int):
        import rocmath

        grid, h, d = loc.grid, loc.handle, loc.d
        self.loc = loc
        self.root = (j0 // loc.nb) % grid.pc
        self.steps = np.zeros(w + 1, np.int64)  # the step's 1-based pivots, then its info
        lr, lc, lm = loc.first_row(j0), loc.first_col(j0), loc.rows.size
        mine = grid.col == self.root
        if mine and grid.pr == 1:
            # All its rows on this rank: rocmath.solver getrf factors it (the same pivots).
            s = h.stream
            dpiv, dinfo = rocmath.zeros(w, np.int32, stream=s), rocmath.zeros(1, np.int32, stream=s)
            fn["getrf"](h, m - j0, w, d[lr:, lc:lc + w], loc.ld, dpiv, dinfo)
            self.steps[:w] = dpiv.get(stream=s).astype(np.int64) + j0
            step_info = int(dinfo.get(stream=s)[0])
            self.steps[w] = j0 + step_info if step_info else 0
        elif mine:
            _panel(loc, fn, m, j0, w, lc, self.steps)
        buffers = [self.steps]
        if n - j0 - w > 0:
            self.rows = loc.get(lr, lm, lc, lc + w) if mine else np.empty((lm - lr, w), d.dtype, order="F")
            buffers.append(self.rows)
        self.buffers = buffers
        self.requests = [grid.row_comm.Ibcast(b, root=self.root) for b in buffers]
        loc.stats.messages += len(buffers)

    def wait(self) -> None:
        _wait(self.requests)
        if self.loc.grid.col != self.root:
            self.loc.stats.bytes_received += sum(b.nbytes for b in self.buffers)


def _panel(loc: _Local, fn: dict[str, Any], m: int, j0: int, w: int, lc: int, steps: np.ndarray) -> None:
    """Factor the panel (global columns ``j0 .. j0 + w - 1``, local columns from ``lc``) on its
    process column, one column at a time (LAPACK's getf2 with the rows spread over the column's
    ranks); writes the 1-based pivots into ``steps[:w]`` and the first zero pivot into ``steps[w]``."""
    import rocmath

    grid, h, d, rows = loc.grid, loc.handle, loc.d, loc.rows
    lm, ld, dtype = rows.size, loc.ld, d.dtype
    sfmin = np.finfo(dtype).tiny
    for jj in range(w):
        j, c = j0 + jj, lc + jj
        # the pivot: every rank's candidate (largest |Re| + |Im| of its rows >= j), the largest
        # winning, the smallest row among equals (the first one, as i?amax picks)
        rj = loc.first_row(j)
        cand = np.array([-1.0, float(m)])
        if rj < lm:
            at = rj + int(fn["iamax"](h, lm - rj, d[rj:, c], 1)) - 1
            v = loc.get(at, at + 1, c, c + 1)[0, 0]
            cand[:] = float(np.abs(v.real) + np.abs(v.imag)), float(rows[at])
        everyone = np.empty((grid.pr, 2))
        grid.col_comm.Allgather(cand, everyone)
        loc.stats.messages += 1
        loc.stats.bytes_received += everyone.nbytes - cand.nbytes
        top = everyone[:, 0].max()
        p = int(everyone[everyone[:, 0] == top, 1].min())
        # the pivot row to every rank of the column, rows j and p interchanged
        op = loc.owner_row(p)
        if grid.row == op:
            new = loc.get(loc.first_row(p), loc.first_row(p) + 1, lc, lc + w)
        else:
            new = np.empty((1, w), dtype, order="F")
        loc.bcast(grid.col_comm, new, op)
        if loc.owner_row(j) == op:
            loc.swap_rows(j, p, [(lc, lc + w)], fn["swap"])
        else:
            _panel_swap(loc, j, p, new, lc)
        steps[jj] = p + 1
        # the multipliers, then the rest of the panel
        pivot = new[0, jj]
        r1 = loc.first_row(j + 1)
        if pivot == 0:
            steps[w] = steps[w] or j + 1
        elif r1 < lm:
            if np.abs(pivot) >= sfmin:
                fn["scal"](h, lm - r1, dtype.type(1) / pivot, d[r1:, c], 1)
            else:  # 1/pivot would overflow: divide, as LAPACK's getf2
                loc.set(r1, c, loc.get(r1, lm, c, c + 1) / pivot)
        if jj + 1 < w and r1 < lm:
            fn["ger"](h, lm - r1, w - jj - 1, -1.0, d[r1:, c], 1,
                      rocmath.to_device(np.ascontiguousarray(new[0, jj + 1:]), stream=h.stream), 1,
                      d[r1:, c + 1:lc + w], ld)


def _panel_swap(loc: _Local, j: int, p: int, new: np.ndarray, lc: int) -> None:
    """Rows ``j`` and ``p`` of the panel on different process rows: the owner of ``j`` takes the
    broadcast pivot row and sends its old row to the owner of ``p``."""
    grid = loc.grid
    oj, op = loc.owner_row(j), loc.owner_row(p)
    w = new.shape[1]
    if grid.row == oj:
        r = loc.first_row(j)
        old = np.ascontiguousarray(loc.get(r, r + 1, lc, lc + w))
        grid.col_comm.Send(old, dest=op)
        loc.set(r, lc, new)
    elif grid.row == op:
        old = np.empty((1, w), new.dtype)
        grid.col_comm.Recv(old, source=oj)
        loc.stats.messages += 1
        loc.stats.bytes_received += old.nbytes
        loc.set(loc.first_row(p), lc, np.asfortranarray(old))


def getrs(lu: DistributedMatrix, ipiv: Any, b: DistributedMatrix) -> tuple[DistributedMatrix, CommStats]:
    """Solve ``A X = B`` with the factors of :func:`getrf` (ScaLAPACK's pxgetrs, no transpose).

    Collective: every rank of the grid must call it.

    Parameters
    ----------
    lu
        This rank's part of the ``n x n`` factors from :func:`getrf`.
    ipiv
        Their global 1-based pivots (``n`` of them).
    b
        This rank's part of the ``n x nrhs`` right-hand sides, on the same grid with the same
        block size.

    Returns
    -------
    (x, stats)
        This rank's part of the solution (in the common type of ``lu`` and ``b``) and what was
        communicated (``total_bytes`` equals :func:`getrs_volume`).  A singular ``U`` (getrf's
        ``info > 0``) gives infinities or NaNs, as LAPACK's getrs does.

    Raises
    ------
    ValueError
        If ``lu`` is not square, ``ipiv`` has not ``n`` entries, or ``b`` does not fit.
    """
    import rocmath
    import rocmath.blas as blas

    mpi = _mpi()
    grid = lu.grid
    n, n2 = lu.shape
    nb = lu.nb
    piv = np.asarray(ipiv, dtype=np.int64)
    if n != n2:
        raise ValueError(f"getrs needs a square factorization, got shape {lu.shape}")
    if piv.shape != (n,) or (n and (piv.min() < 1 or piv.max() > n)):
        raise ValueError(f"ipiv must hold {n} pivots in 1..{n}, got shape {piv.shape}")
    if b.grid is not grid or b.nb != nb or b.shape[0] != n:
        raise ValueError(f"b ({b.shape}, nb={b.nb}) must have {n} rows on the factors' grid with nb={nb}")
    nrhs = b.shape[1]
    dtype = np.result_type(lu.local.dtype, b.local.dtype, np.float32)
    fn = _routines(dtype)
    t0 = mpi.Wtime()
    rocmath.set_device(grid.rank % rocmath.get_device_count())
    stats = CommStats()
    rows = local_indices(n, nb, grid.pr, grid.row)
    fcols = local_indices(n, nb, grid.pc, grid.col)
    lm, lf, lx = rows.size, fcols.size, b.local.shape[1]
    with blas.BlasHandle() as h:
        s = h.stream
        f = rocmath.empty((lm, lf), dtype, "F")
        x = rocmath.empty((lm, lx), dtype, "F")
        if f.size:
            f.set(lu.local.astype(dtype), stream=s)
        if x.size:
            x.set(b.local.astype(dtype), stream=s)
        fac = _Local(grid, nb, rows, fcols, f, h, stats)
        sol = _Local(grid, nb, rows, local_indices(nrhs, nb, grid.pc, grid.col), x, h, stats)
        if grid.pr == 1 and lx and n:
            fn["laswp"](h, lx, x, sol.ld, 1, n, rocmath.to_device(piv.astype(np.int32), stream=s), 1)
        elif grid.pr > 1:
            for j in range(n):
                sol.swap_rows(j, int(piv[j]) - 1, [(0, lx)], fn["swap"])
        blocks = list(range(0, n, nb))
        for lower in (True, False):
            for j0 in blocks if lower else blocks[::-1]:
                k = j0 // nb
                w = min(nb, n - j0)
                prow, pcol = k % grid.pr, k % grid.pc
                lr, lc = fac.first_row(j0), fac.first_col(j0)
                # X_k = T_kk^{-1} B_k on process row prow
                if grid.row == prow:
                    tkk = fac.get(lr, lr + w, lc, lc + w) if grid.col == pcol else np.empty((w, w), dtype, order="F")
                    fac.bcast(grid.row_comm, tkk, pcol)
                    if lx:
                        fn["trsm"](h, "L", "L" if lower else "U", "N", "U" if lower else "N", w, lx, 1.0,
                                   rocmath.to_device(tkk, stream=s), w, x[lr:lr + w, :], sol.ld)
                # B_i -= T_ik X_k for the blocks still to solve (below, or above)
                r0, r1 = (fac.first_row(j0 + w), lm) if lower else (0, lr)
                if (n - j0 - w if lower else j0) == 0:
                    continue
                tcol = fac.get(r0, r1, lc, lc + w) if grid.col == pcol else np.empty((r1 - r0, w), dtype, order="F")
                fac.bcast(grid.row_comm, tcol, pcol)
                xk = sol.get(lr, lr + w, 0, lx) if grid.row == prow else np.empty((w, lx), dtype, order="F")
                fac.bcast(grid.col_comm, xk, prow)
                if r1 > r0 and lx:
                    fn["gemm"](h, "N", "N", r1 - r0, lx, w, -1.0, rocmath.to_device(tcol, stream=s), r1 - r0,
                               rocmath.to_device(xk, stream=s), w, 1.0, x[r0:r1, :], sol.ld)
        out = x.get(stream=s) if x.size else np.empty((lm, lx), dtype)
    stats.seconds = mpi.Wtime() - t0
    stats.per_rank = grid.comm.allgather(stats.bytes_received)
    stats.total_bytes = int(sum(stats.per_rank))
    return DistributedMatrix(np.ascontiguousarray(out), (n, nrhs), nb, grid), stats


def _main() -> None:  # pragma: no cover - run under mpiexec by the bench
    """``mpiexec -n P python -m rocmath.mpi_lu N NB [REPEATS [DEPTH]]``: time :func:`getrf` of a
    random matrix (look-ahead ``DEPTH``, 1 by default), check it on rank 0, print one JSON line
    (rank 0) with the best time, the communication volume, its model and the residual ratio
    ``||P L U - A||_1 / (n eps ||A||_1)``."""
    import json
    import sys

    mpi = _mpi()
    n, nb = int(sys.argv[1]), int(sys.argv[2])
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    grid = ProcessGrid()
    A = np.random.default_rng(0).standard_normal((n, n))
    a = DistributedMatrix.from_global(A, grid, nb)
    getrf(a, depth=depth)  # warm: kernels compiled, pools filled
    times = []
    for _ in range(repeats):
        grid.comm.Barrier()
        t0 = mpi.Wtime()
        f, ipiv, info, stats = getrf(a, depth=depth)
        grid.comm.Barrier()
        times.append(mpi.Wtime() - t0)
    F = f.to_global()
    if grid.rank == 0:
        L, U = np.tril(F, -1) + np.eye(n), np.triu(F)
        PA = A.copy()
        for j, p in enumerate(ipiv - 1):
            PA[[j, p]] = PA[[p, j]]
        ratio = float(np.linalg.norm(PA - L @ U, 1) / (max(1, n) * np.finfo(float).eps * np.linalg.norm(A, 1)))
        print(json.dumps({"ranks": grid.comm.Get_size(), "grid": list(grid.shape), "n": n, "nb": nb, "depth": depth,
                          "info": info, "seconds": min(times), "bytes": stats.total_bytes,
                          "model_bytes": getrf_volume(n, n, nb, grid.shape, 8, ipiv), "residual_ratio": ratio}))


if __name__ == "__main__":  # pragma: no cover
    _main()
