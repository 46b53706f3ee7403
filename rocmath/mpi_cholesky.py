"""Distributed blocked Cholesky (ScaLAPACK's pxpotrf) on the 2-D block-cyclic layout of :mod:`rocmath.mpi`.

:func:`potrf` is the right-looking blocked algorithm.  For the lower factor ``A = L L^H``, at
block step ``k`` (columns ``k nb .. k nb + w - 1``, ``w = min(nb, n - k nb)``):

1. the owner of the diagonal block, process ``(k mod pr, k mod pc)``, factors it with
   ``rocmath.solver`` potrf on its simulated device, and broadcasts the step's info (one
   ``int64``) to every rank, as ScaLAPACK's pxpotf2 does, so that every rank stops at the
   same step and returns the same ``info``;
2. the factored diagonal block ``L_kk`` is broadcast down its process column;
3. the ranks of that process column solve their part of the panel,
   ``L_ik = A_ik L_kk^{-H}`` for ``i > k``, with ``rocmath.blas`` trsm;
4. each process row broadcasts its piece of the panel along the row (every rank then holds
   ``L_ik`` for the block rows it owns), and each process column gathers, with one
   allgather, the blocks ``L_jk`` of the block columns it owns (the "transposed" panel);
5. every rank updates the lower triangle of its trailing blocks,
   ``A_ij -= L_ik L_jk^H`` for ``i >= j > k``: ``rocmath.blas`` syrk/herk on the diagonal
   blocks it owns, gemm below them.

The upper factor ``A = U^H U`` is the same algorithm on the conjugate transpose: the local
blocks of ``A^H`` on the transposed ``pc x pr`` grid are the conjugate transposes of this
rank's blocks, and the grid's row and column communicators swap roles; no data moves between
ranks for it.

As in LAPACK, only the ``lower`` (or upper) triangle is read and written; the other triangle
is returned untouched.  MPI buffers are host memory; the local matrix stays on the rank's
device for the whole factorization (device ``rank % ROCMATH_DEVICE_COUNT``) and panels are
staged through the host.

Communication model (bytes received, summed over all ranks; :func:`potrf_volume`), with
``P = pr pc`` ranks, ``s`` the item size and ``b_k = n - k nb - w_k`` the rows below block
``k`` (``pr`` and ``pc`` swapped for the upper factor)::

    every step k run:          8 (P - 1)                                   (the info broadcast)
    every step k with b_k > 0: s w_k (w_k (pr - 1) + b_k (pc - 1) + b_k (pr - 1))

A failing step (``info > 0``) ends the factorization after its info broadcast.

Examples
--------
>>> from rocmath import mpi, mpi_cholesky                               # doctest: +SKIP
>>> grid = mpi.ProcessGrid()
>>> a = mpi.DistributedMatrix.from_global(A, grid, nb=64)
>>> l, info, stats = mpi_cholesky.potrf(a)          # info == 0: np.tril(l.to_global()) is L
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .mpi import CommStats, DistributedMatrix, _mpi, local_indices

__all__ = ["potrf", "potrf_volume"]


@dataclass(frozen=True)
class _Axes:
    """The process grid as the lower-factor algorithm sees it (transposed for the upper factor).

    ``row_comm`` joins the ranks of one process row (rank in it = ``col``), ``col_comm`` those
    of one process column (rank in it = ``row``); ``root(r, c)`` is the rank in ``comm`` of the
    process at ``(r, c)`` of this view.
    """

    row: int
    col: int
    pr: int
    pc: int
    row_comm: Any
    col_comm: Any
    comm: Any
    transposed: bool

    def root(self, r: int, c: int) -> int:
        return c * self.pr + r if self.transposed else r * self.pc + c


def _axes(a: DistributedMatrix, lower: bool) -> _Axes:
    g = a.grid
    if lower:
        return _Axes(g.row, g.col, g.pr, g.pc, g.row_comm, g.col_comm, g.comm, False)
    return _Axes(g.col, g.row, g.pc, g.pr, g.col_comm, g.row_comm, g.comm, True)


def potrf_volume(n: int, nb: int, grid_shape: tuple[int, int], itemsize: int, info: int = 0,
                 lower: bool = True) -> int:
    """Bytes all ranks receive in :func:`potrf` of an ``n x n`` matrix, block size ``nb``, on a
    ``pr x pc`` grid (the model of the module docstring).

    Parameters
    ----------
    n, nb
        Order of the matrix and block size.
    grid_shape
        ``(pr, pc)``.
    itemsize
        Bytes of one element of the factored matrix.
    info
        The ``info`` the call returned: a failure at column ``info`` stops after the info
        broadcast of its block step.
    lower
        The factor computed (the upper one runs on the transposed grid).

    Returns
    -------
    int
        The sum over ranks of :attr:`CommStats.bytes_received`.
    """
    pr, pc = grid_shape if lower else grid_shape[::-1]
    nblocks = -(-n // nb) if n > 0 else 0
    last = nblocks if info <= 0 else (info - 1) // nb + 1  # steps run
    total = 0
    for k in range(last):
        total += 8 * (pr * pc - 1)
        failed = info > 0 and k == last - 1
        w = min(nb, n - k * nb)
        below = n - k * nb - w
        if not failed and below > 0:
            total += itemsize * w * (w * (pr - 1) + below * (pc - 1) + below * (pr - 1))
    return total


def potrf(a: DistributedMatrix, lower: bool = True) -> tuple[DistributedMatrix, int, CommStats]:
    """Cholesky factorization of a Hermitian positive definite block-cyclic matrix.

    ``A = L L^H`` (``lower``) or ``A = U^H U``, by the right-looking blocked algorithm of the
    module docstring; rocmath.solver potrf factors the diagonal blocks, rocmath.blas trsm
    solves the panels and syrk/herk and gemm update the trailing matrix, on each rank's
    simulated device.  Collective: every rank of ``a.grid`` must call it.

    Parameters
    ----------
    a
        This rank's part of a square ``n x n`` matrix; only its ``lower`` (or upper)
        triangle is read.  Integer matrices are factored in float64, float16 in float32.
    lower
        Compute the lower factor (else the upper one).

    Returns
    -------
    (factor, info, stats)
        ``factor``: this rank's part of the result, the factor in the ``lower`` (upper)
        triangle and the other triangle as it was in ``a``.  ``info``: 0 on success, else
        ``j > 0``, the order of the first leading minor that is not positive definite (as
        LAPACK reports it; the same on every rank, never raised); the factorization stopped
        at the block step holding column ``j``, the columns before it factored.  ``stats``:
        what was communicated (:class:`rocmath.mpi.CommStats`; ``total_bytes`` equals
        :func:`potrf_volume` of the call's ``info``).

    Raises
    ------
    ValueError
        If ``a`` is not square.
    """
    import rocmath
    import rocmath.blas as blas
    import rocmath.solver as solver
    from rocmath.precision import Precision

    mpi = _mpi()
    n, n2 = a.shape
    if n != n2:
        raise ValueError(f"potrf needs a square matrix, got shape {a.shape}")
    nb = a.nb
    grid = a.grid
    ax = _axes(a, lower)
    dtype = np.result_type(a.local.dtype, np.float32)
    p = Precision.of(dtype)
    t0 = mpi.Wtime()
    rocmath.set_device(grid.rank % rocmath.get_device_count())
    # The lower-factor view: this rank's blocks of A (or of A^H on the transposed grid).
    local = a.local.astype(dtype) if lower else a.local.T.conj().astype(dtype)
    rows = local_indices(n, nb, ax.pr, ax.row)
    cols = local_indices(n, nb, ax.pc, ax.col)
    lm, ln = rows.size, cols.size
    ld = max(1, lm)
    ctrans = "C" if p.is_complex else "T"
    rank_k = getattr(blas, f"{p.letter}herk" if p.is_complex else f"{p.letter}syrk")
    gemm, trsm = getattr(blas, f"{p.letter}gemm"), getattr(blas, f"{p.letter}trsm")
    factor = getattr(solver, f"{p.letter}potrf")
    stats = CommStats()
    info = 0
    with blas.BlasHandle() as h:
        s = h.stream
        d = rocmath.empty((lm, ln), dtype, "F")
        if d.size:
            d.set(local, stream=s)
        dinfo = rocmath.zeros(1, np.int32, stream=s)
        flag = np.zeros(1, np.int64)
        for k in range(-(-n // nb) if n else 0):
            k0 = k * nb
            w = min(nb, n - k0)
            below = n - k0 - w
            prow, pcol = k % ax.pr, k % ax.pc
            lr, lr_below = (int(v) for v in np.searchsorted(rows, [k0, k0 + w]))
            lc, lc_below = (int(v) for v in np.searchsorted(cols, [k0, k0 + w]))
            owner = ax.row == prow and ax.col == pcol
            # 1. the diagonal block, and its info for everyone
            if owner:
                factor(h, "L", w, d[lr:lr + w, lc:lc + w], ld, dinfo)
                flag[0] = int(dinfo.get(stream=s)[0])
            ax.comm.Bcast(flag, root=ax.root(prow, pcol))
            stats.messages += 1
            stats.bytes_received += 0 if owner else flag.nbytes
            if flag[0] > 0:
                info = k0 + int(flag[0])
                break
            if below == 0:
                continue
            mb = lm - lr_below  # my rows below the diagonal block
            panel = np.empty((mb, w), dtype)
            # 2-3. L_kk down the process column, the panel solved there
            if ax.col == pcol:
                diag = np.empty((w, w), dtype, order="F")
                if ax.row == prow:
                    d[lr:lr + w, lc:lc + w].get(stream=s, out=diag)
                ax.col_comm.Bcast(diag, root=prow)
                stats.messages += 1
                stats.bytes_received += 0 if ax.row == prow else diag.nbytes
                if mb:
                    target = d[lr_below:, lc:lc + w]
                    trsm(h, "R", "L", ctrans, "N", mb, w, 1.0, rocmath.to_device(diag, stream=s), w, target, ld)
                    panel[...] = target.get(stream=s)
            # 4. the panel along the process rows, then its transpose within the process columns
            ax.row_comm.Bcast(panel, root=pcol)
            stats.messages += 1
            stats.bytes_received += 0 if ax.col == pcol else panel.nbytes
            lcol = _transposed_panel(panel, rows[lr_below:], k0 + w, n, nb, ax, stats)
            # 5. the trailing lower triangle, one local block column at a time
            if mb and ln - lc_below:
                drow = rocmath.to_device(np.asfortranarray(panel), stream=s)
                dcol = rocmath.to_device(np.asfortranarray(lcol), stream=s)
                ldr, ldc = max(1, mb), max(1, ln - lc_below)
                for c0 in range(lc_below, ln, nb):
                    c1 = min(c0 + nb, ln)
                    j0 = int(cols[c0])  # first global column of block j
                    r0 = int(np.searchsorted(rows, j0))
                    if r0 == lm:
                        continue
                    col_piece = dcol[c0 - lc_below:c1 - lc_below, :]
                    if int(rows[r0]) == j0:  # I own the diagonal block (j, j)
                        rank_k(h, "L", "N", c1 - c0, w, -1.0, drow[r0 - lr_below:, :], ldr, 1.0,
                               d[r0:r0 + c1 - c0, c0:c1], ld)
                        r0 += c1 - c0
                    if r0 < lm:
                        gemm(h, "N", ctrans, lm - r0, c1 - c0, w, -1.0, drow[r0 - lr_below:, :], ldr, col_piece,
                             ldc, 1.0, d[r0:, c0:c1], ld)
        out = d.get(stream=s) if d.size else np.empty((lm, ln), dtype)
    result = np.ascontiguousarray(out if lower else out.T.conj())
    stats.seconds = mpi.Wtime() - t0
    stats.per_rank = grid.comm.allgather(stats.bytes_received)
    stats.total_bytes = int(sum(stats.per_rank))
    return DistributedMatrix(result, (n, n), nb, grid), info, stats


def _transposed_panel(panel: np.ndarray, panel_rows: np.ndarray, start: int, n: int, nb: int, ax: _Axes,
                      stats: CommStats) -> np.ndarray:
    """The panel rows ``L_jk`` for this rank's block columns ``j`` below the step (global
    columns from ``start``), gathered within the process column from the process rows that
    own them (each rank of the column contributes its rows ``g`` with ``(g // nb) mod pc ==
    col``); in the order of this rank's local columns."""
    w = panel.shape[1]
    mine = ((panel_rows // nb) % ax.pc) == ax.col
    send = np.ascontiguousarray(panel[mine])
    everyone = np.arange(start, n)
    blocks = everyone // nb
    sources = [everyone[(blocks % ax.pr == r) & (blocks % ax.pc == ax.col)] for r in range(ax.pr)]
    counts = [src.size * w for src in sources]
    recv = np.empty((sum(src.size for src in sources), w), panel.dtype)
    ax.col_comm.Allgatherv(send, [recv, counts])
    stats.messages += 1
    stats.bytes_received += recv.nbytes - send.nbytes
    order = np.argsort(np.concatenate(sources), kind="stable")
    return recv[order]


def _main() -> None:  # pragma: no cover - run under mpiexec by hand and by benches
    """``mpiexec -n P python -m rocmath.mpi_cholesky N NB [REPEATS]``: time :func:`potrf` of a
    random SPD matrix, check it on rank 0, print one JSON line (rank 0) with the best time, the
    communication volume, its model and the residual ratio ``||A - L L^T||_1 / (n eps ||A||_1)``."""
    import json
    import sys

    from .mpi import ProcessGrid

    mpi = _mpi()
    n, nb = int(sys.argv[1]), int(sys.argv[2])
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    grid = ProcessGrid()
    x = np.random.default_rng(0).standard_normal((n, n))
    A = x @ x.T + n * np.eye(n)
    a = DistributedMatrix.from_global(A, grid, nb)
    potrf(a)  # warm: kernels compiled, pools filled
    times = []
    for _ in range(repeats):
        grid.comm.Barrier()
        t0 = mpi.Wtime()
        f, info, stats = potrf(a)
        grid.comm.Barrier()
        times.append(mpi.Wtime() - t0)
    L = np.tril(f.to_global())
    if grid.rank == 0:
        ratio = float(np.linalg.norm(A - L @ L.T, 1) / (max(1, n) * np.finfo(float).eps * np.linalg.norm(A, 1)))
        print(json.dumps({"ranks": grid.comm.Get_size(), "grid": list(grid.shape), "n": n, "nb": nb, "info": info,
                          "seconds": min(times), "bytes": stats.total_bytes,
                          "model_bytes": potrf_volume(n, nb, grid.shape, 8, info), "residual_ratio": ratio}))


if __name__ == "__main__":  # pragma: no cover
    _main()
