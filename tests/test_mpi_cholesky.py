"""rocmath.mpi_cholesky: blocked Cholesky on a block-cyclic layout, 1 rank in-process and 2 or 4 ranks under mpiexec."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.linalg

from rocmath import mpi, mpi_cholesky

# --- the communication model (no MPI needed) --------------------------------------------------------


def test_volume_model():
    assert mpi_cholesky.potrf_volume(100, 8, (1, 1), 8) == 0
    assert mpi_cholesky.potrf_volume(0, 8, (2, 2), 8) == 0
    # one block: only the info broadcast
    assert mpi_cholesky.potrf_volume(5, 8, (2, 2), 16) == 8 * 3
    # n = 10, nb = 4 on 1 x 2: steps of widths 4, 4, 2 with 6, 2, 0 rows below
    info_bytes = 3 * 8 * 1
    assert mpi_cholesky.potrf_volume(10, 4, (1, 2), 8) == info_bytes + 8 * (4 * 6 + 4 * 2)
    # on 2 x 1 the diagonal block and the transposed panel travel instead
    assert mpi_cholesky.potrf_volume(10, 4, (2, 1), 8) == info_bytes + 8 * (4 * (4 + 6) + 4 * (4 + 2))
    # the upper factor runs on the transposed grid
    assert mpi_cholesky.potrf_volume(10, 4, (2, 1), 8, lower=False) == mpi_cholesky.potrf_volume(10, 4, (1, 2), 8)
    # a failure in the second block step: first step in full, then the info broadcast only
    assert mpi_cholesky.potrf_volume(10, 4, (1, 2), 8, info=6) == 2 * 8 + 8 * 4 * 6


# --- one rank in this process -----------------------------------------------------------------------


def _hpd(n: int, dtype: type, rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal((n, n))
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal((n, n))
    return (x @ x.conj().T + n * np.eye(n)).astype(dtype)


def _residual_ratio(a: np.ndarray, f: np.ndarray, lower: bool) -> float:
    """``||A - L L^H|| / (n eps ||A||)`` (or ``U^H U``) for the factor in the ``lower`` triangle of f."""
    t = np.tril(f) if lower else np.triu(f)
    prod = t @ t.conj().T if lower else t.conj().T @ t
    eps = np.finfo(f.real.dtype).eps
    return float(np.linalg.norm(a - prod, 1) / (max(1, a.shape[0]) * eps * np.linalg.norm(a, 1)))


def test_potrf_on_one_rank():
    pytest.importorskip("mpi4py")
    grid = mpi.ProcessGrid()
    if grid.comm.Get_size() != 1:
        pytest.skip("runs as a single process")
    rng = np.random.default_rng(0)
    for dtype in (np.float64, np.complex128, np.float32):
        for n, nb in [(13, 4), (16, 16), (7, 3), (1, 5)]:
            A = _hpd(n, dtype, rng)
            for lower in (True, False):
                f, info, stats = mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(A, grid, nb), lower=lower)
                F = f.to_global()
                assert info == 0 and F.dtype == A.dtype
                assert _residual_ratio(A, F, lower) < 10
                if dtype != np.float32:
                    got = np.tril(F) if lower else np.triu(F)
                    np.testing.assert_allclose(got, scipy.linalg.cholesky(A, lower=lower), rtol=1e-12, atol=1e-12)
                # the other triangle is never touched, as in LAPACK
                if lower:
                    assert np.array_equal(np.triu(F, 1), np.triu(A, 1))
                else:
                    assert np.array_equal(np.tril(F, -1), np.tril(A, -1))
                steps = -(-n // nb)  # 4 collectives a step (info, L_kk, panel, transpose), the last one only info
                assert stats.total_bytes == 0 and stats.messages == 4 * steps - 3


def test_potrf_edge_cases_on_one_rank():
    pytest.importorskip("mpi4py")
    grid = mpi.ProcessGrid()
    if grid.comm.Get_size() != 1:
        pytest.skip("runs as a single process")
    f, info, _ = mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(np.zeros((0, 0)), grid, 4))
    assert info == 0 and f.to_global().shape == (0, 0)
    # integers are factored in float64
    f, info, _ = mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(np.array([[4, 2], [2, 5]]), grid, 1))
    np.testing.assert_allclose(np.tril(f.to_global()), [[2.0, 0.0], [1.0, 2.0]])
    assert f.local.dtype == np.float64
    with pytest.raises(ValueError, match="square"):
        mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(np.ones((3, 4)), grid, 2))
    # not positive definite: LAPACK's info, the columns before the failing block factored
    A = _hpd(11, np.float64, np.random.default_rng(1))
    A[8, 8] = -100.0
    ref_info = scipy.linalg.lapack.dpotrf(A, lower=1)[1]
    for lower in (True, False):
        f, info, stats = mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(A, grid, 3), lower=lower)
        assert info == ref_info == 9
        assert stats.messages == 4 + 4 + 1  # stopped at the info of the third block step
        L = scipy.linalg.cholesky(A[:6, :6], lower=True)
        got = f.to_global() if lower else f.to_global().conj().T
        np.testing.assert_allclose(np.tril(got[:6, :6]), L, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got[6:, :6], scipy.linalg.solve_triangular(L, A[:6, 6:], lower=True).T,
                                   rtol=1e-12, atol=1e-12)


# --- several ranks under mpiexec --------------------------------------------------------------------

SCRIPT = textwrap.dedent("""
    import numpy as np
    import scipy.linalg
    from mpi4py import MPI
    from rocmath import mpi, mpi_cholesky

    size = MPI.COMM_WORLD.Get_size()
    grid_shapes = {2: [(1, 2), (2, 1)], 4: [(2, 2), (1, 4), (4, 1)]}[size]
    rng = np.random.default_rng(7)

    def hpd(n, dtype):
        x = rng.standard_normal((n, n))
        if np.issubdtype(dtype, np.complexfloating):
            x = x + 1j * rng.standard_normal((n, n))
        return (x @ x.conj().T + n * np.eye(n)).astype(dtype)

    for shape in grid_shapes:
        grid = mpi.ProcessGrid(shape=shape)
        for (n, nb, dtype) in [(23, 4, np.float64), (16, 8, np.complex128), (10, 3, np.complex128),
                               (5, 7, np.float64), (31, 2, np.float64), (20, 5, np.float32)]:
            A = hpd(n, dtype)
            for lower in (True, False):
                a = mpi.DistributedMatrix.scatter(A if grid.rank == 0 else None, grid, nb)
                f, info, stats = mpi_cholesky.potrf(a, lower=lower)
                F = f.to_global()
                model = mpi_cholesky.potrf_volume(n, nb, grid.shape, np.dtype(dtype).itemsize, info, lower)
                assert stats.total_bytes == model, (shape, n, nb, lower, stats.total_bytes, model)
                assert len(stats.per_rank) == size
                assert grid.comm.allgather(info) == [0] * size
                if grid.rank == 0:
                    t = np.tril(F) if lower else np.triu(F)
                    prod = t @ t.conj().T if lower else t.conj().T @ t
                    eps = np.finfo(F.real.dtype).eps
                    ratio = np.linalg.norm(A - prod, 1) / (n * eps * np.linalg.norm(A, 1))
                    assert ratio < 10, (shape, n, nb, dtype, lower, ratio)
                    if dtype != np.float32:
                        np.testing.assert_allclose(t, scipy.linalg.cholesky(A, lower=lower), rtol=1e-12,
                                                   atol=1e-12)
                    other = np.triu(F, 1) if lower else np.tril(F, -1)
                    assert np.array_equal(other, np.triu(A, 1) if lower else np.tril(A, -1))
        # not positive definite: LAPACK's info on every rank, communication stopped with it
        for n, nb, bad in [(12, 3, 6), (13, 4, 12), (9, 2, 0)]:
            A = hpd(n, np.float64)
            A[bad, bad] = -1e3
            ref_info = scipy.linalg.lapack.dpotrf(A, lower=1)[1]
            assert ref_info == bad + 1
            for lower in (True, False):
                f, info, stats = mpi_cholesky.potrf(mpi.DistributedMatrix.from_global(A, grid, nb), lower=lower)
                assert grid.comm.allgather(info) == [ref_info] * size
                assert stats.total_bytes == mpi_cholesky.potrf_volume(n, nb, grid.shape, 8, info, lower)
    if MPI.COMM_WORLD.Get_rank() == 0:
        print("cholesky ok", size)
""")


def _mpiexec() -> str:
    pytest.importorskip("mpi4py")
    exe = mpi.find_mpiexec()
    if exe is None:
        pytest.skip("no mpiexec")
    return exe


@pytest.mark.parametrize("ranks", [2, 4])
def test_potrf_under_mpiexec(tmp_path, ranks):
    exe = _mpiexec()
    script = tmp_path / "cholesky_check.py"
    script.write_text(SCRIPT)
    # One thread per rank: the ranks share this machine's cores.
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([exe, "-n", str(ranks), sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"cholesky ok {ranks}" in proc.stdout
