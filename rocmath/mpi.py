"""Distributed dense linear algebra over MPI: SUMMA gemm on a 2-D block-cyclic layout.

MPI (mpi4py, over any MPI; ``pip install mpi4py mpich`` gives one that ``mpiexec -n 2``
runs on a fresh machine) moves the data; rocmath.blas does every local gemm on a
simulated device of the rank's process (device ``rank % ROCMATH_DEVICE_COUNT``).  The
layout is ScaLAPACK's: a ``pr x pc`` process grid, ``nb x nb`` blocks dealt out
cyclically, block ``(I, J)`` on process ``(I mod pr, J mod pc)``.

:func:`summa` is the algorithm of van de Geijn and Watts: for each block column ``k`` of
A (block row of B), the grid column owning it broadcasts its piece of the panel along
the process rows, the grid row owning B's panel broadcasts along the process columns, and
every process adds ``A_panel @ B_panel`` to its block of C.  MPI buffers are host
memory (rocFFT's and heFFTe's "not GPU-aware" mode): panels are staged to the device.
Every broadcast is counted: :class:`CommStats` has the bytes each rank received, and
:func:`summa_volume` the model ``itemsize * k * (m (pc - 1) + n (pr - 1))`` they add up to.

mpi4py is imported on first use; run programs with ``mpiexec -n P python prog.py``
(:func:`find_mpiexec` finds the ``mpiexec`` that goes with this Python).

Examples
--------
>>> from rocmath import mpi                                              # doctest: +SKIP
>>> grid = mpi.ProcessGrid()                       # all ranks of COMM_WORLD, near square
>>> a = mpi.DistributedMatrix.from_global(A, grid, nb=64)   # every rank takes its blocks
>>> c, stats = mpi.summa(a, mpi.DistributedMatrix.from_global(B, grid, nb=64))
>>> C = c.to_global()                                       # on every rank
"""

from __future__ import annotations

import math
import os
import shutil
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["CommStats", "DistributedMatrix", "ProcessGrid", "find_mpiexec", "local_indices", "summa", "summa_volume"]


def _mpi() -> Any:
    try:
        from mpi4py import MPI
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("rocmath.mpi needs mpi4py and an MPI: pip install mpi4py mpich") from exc
    return MPI


def find_mpiexec() -> str | None:
    """The ``mpiexec`` that launches ranks of this Python: the one installed beside the
    interpreter (the ``mpich`` wheel's, found also when its virtual environment is not
    activated), else the first on ``PATH``; None when there is none."""
    return shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which("mpiexec")


def _grid_shape(size: int) -> tuple[int, int]:
    """The most square ``pr x pc = size`` with ``pr <= pc``."""
    pr = math.isqrt(size)
    while size % pr:
        pr -= 1
    return pr, size // pr


class ProcessGrid:
    """A ``pr x pc`` grid of the ranks of a communicator, row-major (rank = row * pc + col).

    Parameters
    ----------
    comm
        An mpi4py communicator (``MPI.COMM_WORLD`` when None).
    shape
        ``(pr, pc)`` with ``pr * pc == comm.size`` (the most square one when None).
    """

    def __init__(self, comm: Any = None, shape: tuple[int, int] | None = None):
        mpi = _mpi()
        self.comm = mpi.COMM_WORLD if comm is None else comm
        size = self.comm.Get_size()
        self.shape = _grid_shape(size) if shape is None else (int(shape[0]), int(shape[1]))
        if self.shape[0] * self.shape[1] != size or min(self.shape) < 1:
            raise ValueError(f"a {self.shape[0]} x {self.shape[1]} grid does not have {size} ranks")
        self.rank = self.comm.Get_rank()
        self.row, self.col = divmod(self.rank, self.shape[1])
        # Broadcasts along a process row (A's panels) and a process column (B's panels).
        self.row_comm = self.comm.Split(self.row, self.col)
        self.col_comm = self.comm.Split(self.col, self.row)

    @property
    def pr(self) -> int:
        return self.shape[0]

    @property
    def pc(self) -> int:
        return self.shape[1]


def local_indices(n: int, nb: int, nprocs: int, iproc: int) -> np.ndarray:
    """The global indices of a dimension of ``n`` that process ``iproc`` of ``nprocs`` owns in
    a block-cyclic layout of block size ``nb``, in local order (ScaLAPACK's numroc/indxl2g)."""
    blocks = np.arange(iproc, -(-n // nb), nprocs)
    if blocks.size == 0:
        return np.zeros(0, dtype=np.int64)
    idx = (blocks[:, None] * nb + np.arange(nb)[None, :]).ravel()
    return idx[idx < n].astype(np.int64)


@dataclass
class DistributedMatrix:
    """This rank's part of an ``m x n`` matrix distributed block-cyclically on ``grid``.

    ``local`` holds the rows :func:`local_indices` ``(m, nb, pr, row)`` and the columns
    ``(n, nb, pc, col)`` of the global matrix, in that order.
    """

    local: np.ndarray
    shape: tuple[int, int]
    nb: int
    grid: ProcessGrid

    @property
    def rows(self) -> np.ndarray:
        return local_indices(self.shape[0], self.nb, self.grid.pr, self.grid.row)

    @property
    def cols(self) -> np.ndarray:
        return local_indices(self.shape[1], self.nb, self.grid.pc, self.grid.col)

    @classmethod
    def from_global(cls, a: np.ndarray, grid: ProcessGrid, nb: int) -> DistributedMatrix:
        """This rank's blocks of a global matrix every rank holds."""
        a = np.asarray(a)
        if a.ndim != 2 or nb < 1:
            raise ValueError(f"need a matrix and a block size >= 1, got shape {a.shape} and nb={nb}")
        m, n = a.shape
        rows = local_indices(m, nb, grid.pr, grid.row)
        cols = local_indices(n, nb, grid.pc, grid.col)
        return cls(np.ascontiguousarray(a[np.ix_(rows, cols)]), (m, n), nb, grid)

    @classmethod
    def scatter(cls, a: np.ndarray | None, grid: ProcessGrid, nb: int, root: int = 0) -> DistributedMatrix:
        """Distribute a global matrix held by ``root`` only (``a`` is ignored elsewhere)."""
        comm = grid.comm
        head = (a.shape, a.dtype.str) if comm.Get_rank() == root and a is not None else None
        shape, dtype = comm.bcast(head, root=root)
        if comm.Get_rank() == root:
            assert a is not None
            mine = None
            for r in range(comm.Get_size()):
                prow, pcol = divmod(r, grid.pc)
                piece = np.ascontiguousarray(a[np.ix_(local_indices(shape[0], nb, grid.pr, prow),
                                                      local_indices(shape[1], nb, grid.pc, pcol))])
                if r == root:
                    mine = piece
                else:
                    comm.Send(piece, dest=r, tag=11)
            assert mine is not None
            return cls(mine, tuple(shape), nb, grid)
        rows = local_indices(shape[0], nb, grid.pr, grid.row)
        cols = local_indices(shape[1], nb, grid.pc, grid.col)
        local = np.empty((rows.size, cols.size), dtype=np.dtype(dtype))
        comm.Recv(local, source=root, tag=11)
        return cls(local, tuple(shape), nb, grid)

    def to_global(self) -> np.ndarray:
        """The whole matrix, on every rank (an allgather of the local blocks)."""
        pieces = self.grid.comm.allgather((self.rows, self.cols, self.local))
        out = np.empty(self.shape, dtype=self.local.dtype)
        for rows, cols, local in pieces:
            out[np.ix_(rows, cols)] = local
        return out


@dataclass
class CommStats:
    """What a distributed call communicated.

    Attributes
    ----------
    bytes_received
        Bytes this rank received in the call's broadcasts.
    messages
        Broadcasts this rank took part in.
    total_bytes
        Bytes received summed over all ranks (the call's communication volume).
    seconds
        This rank's wall time in the call.
    """

    bytes_received: int = 0
    messages: int = 0
    total_bytes: int = 0
    seconds: float = 0.0
    per_rank: list[int] = field(default_factory=list)


def summa_volume(m: int, n: int, k: int, grid_shape: tuple[int, int], itemsize: int) -> int:
    """Bytes all ranks receive in :func:`summa` of ``(m x k) @ (k x n)`` on a ``pr x pc`` grid:
    each A panel reaches the ``pc - 1`` other ranks of its process row, each B panel the
    ``pr - 1`` others of its process column."""
    pr, pc = grid_shape
    return itemsize * k * (m * (pc - 1) + n * (pr - 1))


def summa(a: DistributedMatrix, b: DistributedMatrix, c: DistributedMatrix | None = None, *,
          alpha: float = 1.0, beta: float = 0.0) -> tuple[DistributedMatrix, CommStats]:
    """``C = alpha A B + beta C`` on block-cyclic matrices by SUMMA; local gemms by rocmath.blas.

    Parameters
    ----------
    a, b
        ``m x k`` and ``k x n`` on the same grid with the same block size.
    c
        ``m x n`` on that grid (a new zero matrix when None; then ``beta`` is ignored).

    Returns
    -------
    (c, stats)
        C (this rank's part) and what was communicated (:class:`CommStats`; ``total_bytes``
        equals :func:`summa_volume`).
    """
    import rocmath
    import rocmath.blas as blas

    mpi = _mpi()
    grid = a.grid
    if b.grid is not grid or a.nb != b.nb or (c is not None and (c.grid is not grid or c.nb != a.nb)):
        raise ValueError("a, b (and c) must share one grid and one block size")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2 or (c is not None and c.shape != (m, n)):
        raise ValueError(f"shapes do not fit: {a.shape} @ {b.shape}" + (f" into {c.shape}" if c else ""))
    dtype = np.result_type(a.local.dtype, b.local.dtype, *(() if c is None else (c.local.dtype,)))
    t0 = mpi.Wtime()
    rocmath.set_device(grid.rank % rocmath.get_device_count())
    nb = a.nb
    rows = local_indices(m, nb, grid.pr, grid.row)
    cols = local_indices(n, nb, grid.pc, grid.col)
    with blas.BlasHandle() as h:
        if c is None:
            dc = rocmath.zeros((rows.size, cols.size), dtype)
            scale = 0.0
        else:
            dc = rocmath.to_device(c.local.astype(dtype))
            scale = beta
        stats = CommStats()
        for kb in range(-(-k // nb)):
            width = min(nb, k - kb * nb)
            owner_col, owner_row = kb % grid.pc, kb % grid.pr
            panel_a = np.empty((rows.size, width), dtype)
            if grid.col == owner_col:  # my local block column kb // pc is this panel
                start = (kb // grid.pc) * nb
                panel_a[...] = a.local[:, start:start + width]
            panel_b = np.empty((width, cols.size), dtype)
            if grid.row == owner_row:
                start = (kb // grid.pr) * nb
                panel_b[...] = b.local[start:start + width, :]
            grid.row_comm.Bcast(panel_a, root=owner_col)
            grid.col_comm.Bcast(panel_b, root=owner_row)
            stats.messages += 2
            stats.bytes_received += (panel_a.nbytes if grid.col != owner_col else 0) + (
                panel_b.nbytes if grid.row != owner_row else 0)
            if rows.size and cols.size:
                blas.gemm(rocmath.to_device(panel_a), rocmath.to_device(panel_b), dc, alpha=alpha, beta=scale,
                          handle=h)
            scale = 1.0
        if k == 0 and c is not None and beta != 1.0:  # no panel: C = beta C
            dc = rocmath.to_device(c.local.astype(dtype) * beta)
        local = dc.get(stream=h.stream)
    stats.seconds = mpi.Wtime() - t0
    stats.per_rank = grid.comm.allgather(stats.bytes_received)
    stats.total_bytes = int(sum(stats.per_rank))
    return DistributedMatrix(local, (m, n), nb, grid), stats


def _main() -> None:  # pragma: no cover - run under mpiexec by the bench and the tests
    """``mpiexec -n P python -m rocmath.mpi M N K NB [REPEATS]``: time SUMMA, check it on rank 0
    against numpy, print one JSON line (rank 0) with times and communication volume."""
    import json
    import sys

    mpi = _mpi()
    m, n, k, nb = (int(v) for v in sys.argv[1:5])
    repeats = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    grid = ProcessGrid()
    rng = np.random.default_rng(0)
    A = rng.standard_normal((m, k))
    B = rng.standard_normal((k, n))
    da_, db = DistributedMatrix.from_global(A, grid, nb), DistributedMatrix.from_global(B, grid, nb)
    summa(da_, db)  # warm: kernels compiled, pools filled
    times = []
    stats = CommStats()
    for _ in range(repeats):
        grid.comm.Barrier()
        t0 = mpi.Wtime()
        dc, stats = summa(da_, db)
        grid.comm.Barrier()
        times.append(mpi.Wtime() - t0)
    C = dc.to_global()
    if grid.rank == 0:
        err = float(np.abs(C - A @ B).max() / max(1.0, np.abs(A @ B).max()))
        print(json.dumps({"ranks": grid.comm.Get_size(), "grid": list(grid.shape), "m": m, "n": n, "k": k,
                          "nb": nb, "seconds": min(times), "bytes": stats.total_bytes,
                          "model_bytes": summa_volume(m, n, k, grid.shape, 8), "rel_error": err}))


if __name__ == "__main__":  # pragma: no cover
    _main()
