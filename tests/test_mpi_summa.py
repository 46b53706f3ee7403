"""rocmath.mpi: SUMMA gemm on a block-cyclic layout, 1 rank in-process and 2 or 4 ranks under mpiexec."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from rocmath import mpi

# --- layout and model (no MPI needed) ---------------------------------------------------------------


@pytest.mark.parametrize("n, nb, p", [(10, 3, 2), (7, 8, 3), (64, 4, 4), (0, 2, 2), (5, 1, 5)])
def test_local_indices_partition_every_dimension(n, nb, p):
    parts = [mpi.local_indices(n, nb, p, i) for i in range(p)]
    assert np.array_equal(np.sort(np.concatenate(parts)), np.arange(n))
    for i, idx in enumerate(parts):
        assert all((g // nb) % p == i for g in idx)  # block g // nb lives on process (g // nb) mod p
        assert np.all(np.diff(idx) > 0)


def test_grid_shapes_and_volume_model():
    assert [mpi._grid_shape(s) for s in (1, 2, 4, 6, 7, 12)] == [(1, 1), (1, 2), (2, 2), (2, 3), (1, 7), (3, 4)]
    assert mpi.summa_volume(100, 60, 80, (1, 1), 8) == 0
    assert mpi.summa_volume(100, 60, 80, (2, 2), 8) == 8 * 80 * (100 + 60)
    assert mpi.summa_volume(100, 60, 80, (1, 2), 4) == 4 * 80 * 100


def test_find_mpiexec_prefers_the_one_beside_python(tmp_path, monkeypatch):
    # a virtual environment with the mpich wheel, not activated: its mpiexec is not on PATH
    beside, on_path = tmp_path / "venv" / "bin", tmp_path / "usr" / "bin"
    for folder in (beside, on_path):
        folder.mkdir(parents=True)
        (folder / "mpiexec").write_text("#!/bin/sh\n")
        (folder / "mpiexec").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(beside / "python"))
    monkeypatch.setenv("PATH", str(on_path))
    assert mpi.find_mpiexec() == str(beside / "mpiexec")
    (beside / "mpiexec").unlink()
    assert mpi.find_mpiexec() == str(on_path / "mpiexec")
    (on_path / "mpiexec").unlink()
    assert mpi.find_mpiexec() is None


# --- one rank in this process -----------------------------------------------------------------------


def test_summa_on_one_rank():
    pytest.importorskip("mpi4py")
    grid = mpi.ProcessGrid()
    if grid.comm.Get_size() != 1:
        pytest.skip("runs as a single process")
    rng = np.random.default_rng(0)
    A, B, C = rng.standard_normal((37, 23)), rng.standard_normal((23, 19)), rng.standard_normal((37, 19))
    a, b = mpi.DistributedMatrix.from_global(A, grid, 5), mpi.DistributedMatrix.from_global(B, grid, 5)
    c, stats = mpi.summa(a, b, mpi.DistributedMatrix.from_global(C, grid, 5), alpha=2.0, beta=-1.0)
    np.testing.assert_allclose(c.to_global(), 2 * A @ B - C, rtol=1e-12, atol=1e-12)
    assert stats.total_bytes == 0 and stats.messages == 2 * 5
    with pytest.raises(ValueError, match="do not fit"):
        mpi.summa(a, a)
    with pytest.raises(ValueError, match="block size"):
        mpi.summa(a, mpi.DistributedMatrix.from_global(B, grid, 4))
    with pytest.raises(ValueError, match="grid"):
        mpi.ProcessGrid(shape=(2, 1))


# --- several ranks under mpiexec --------------------------------------------------------------------

SCRIPT = textwrap.dedent("""
    import numpy as np
    from rocmath import mpi

    grid_shapes = {1: [(1, 1)], 2: [(1, 2), (2, 1)], 4: [(2, 2), (1, 4), (4, 1)]}
    from mpi4py import MPI
    size = MPI.COMM_WORLD.Get_size()
    rng = np.random.default_rng(42)
    for shape in grid_shapes[size]:
        grid = mpi.ProcessGrid(shape=shape)
        for (m, n, k, nb, dtype) in [(45, 33, 29, 4, np.float64), (16, 16, 16, 8, np.float64),
                                     (20, 11, 17, 3, np.complex128), (9, 7, 5, 16, np.float32)]:
            A = rng.standard_normal((m, k)).astype(dtype)
            B = rng.standard_normal((k, n)).astype(dtype)
            C = rng.standard_normal((m, n)).astype(dtype)
            a = mpi.DistributedMatrix.scatter(A if grid.rank == 0 else None, grid, nb)
            b = mpi.DistributedMatrix.from_global(B, grid, nb)
            c0 = mpi.DistributedMatrix.from_global(C, grid, nb)
            c, stats = mpi.summa(a, b, c0, alpha=0.5, beta=2.0)
            got = c.to_global()
            tol = 1e-4 if dtype == np.float32 else 1e-12
            np.testing.assert_allclose(got, 0.5 * A @ B + 2.0 * C, rtol=tol, atol=tol)
            model = mpi.summa_volume(m, n, k, grid.shape, np.dtype(dtype).itemsize)
            assert stats.total_bytes == model, (stats.total_bytes, model)
            assert len(stats.per_rank) == size
    if MPI.COMM_WORLD.Get_rank() == 0:
        print("summa ok", size)
""")


def _mpiexec() -> str:
    pytest.importorskip("mpi4py")
    exe = mpi.find_mpiexec()
    if exe is None:
        pytest.skip("no mpiexec")
    return exe


@pytest.mark.parametrize("ranks", [2, 4])
def test_summa_under_mpiexec(tmp_path, ranks):
    exe = _mpiexec()
    script = tmp_path / "summa_check.py"
    script.write_text(SCRIPT)
    # One thread per rank: the ranks share this machine's cores.
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([exe, "-n", str(ranks), sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"summa ok {ranks}" in proc.stdout
