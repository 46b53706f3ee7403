"""rocmath.mpi_lu: LU with partial pivoting and its solve on a block-cyclic layout, 1 rank in-process
and 2 or 4 ranks under mpiexec; pivots exactly scipy's, residual ratios, communication = its model."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.linalg

from rocmath import mpi, mpi_lu

# --- the communication models (no MPI needed) -------------------------------------------------------


def test_volume_models():
    none = np.arange(1, 11)  # no row interchanges
    assert mpi_lu.getrf_volume(10, 10, 4, (1, 1), 8, none) == 0
    assert mpi_lu.getrf_volume(0, 5, 4, (2, 2), 8, []) == 0
    # 1 x 2, steps of widths 4, 4, 2: pivots/info along the row, L_kk and L_21 to the other column
    assert mpi_lu.getrf_volume(10, 10, 4, (1, 2), 8, none) == (5 + 5 + 3) * 8 + 8 * (16 + 16) + 8 * (4 * 6 + 4 * 2)
    # 2 x 1: candidates and pivot rows down the column, U_12 to the other row
    cand = 2 * 16
    assert mpi_lu.getrf_volume(10, 10, 4, (2, 1), 8, none) == 10 * cand + 8 * (4 * 4 + 4 * 4 + 2 * 2) + 8 * (
        6 * 4 + 2 * 4)
    # a pivot swapping rows 0 and 5 (process rows 0 and 1 for nb = 4): the panel row, then the other
    # 10 - 4 columns both ways
    swapped = none.copy()
    swapped[0] = 6
    extra = mpi_lu.getrf_volume(10, 10, 4, (2, 1), 8, swapped) - mpi_lu.getrf_volume(10, 10, 4, (2, 1), 8, none)
    assert extra == 8 * 4 + 2 * 8 * 6
    # rows 0 and 9 both on process row 0 (blocks 0 and 2): nothing more
    swapped[0] = 10
    assert mpi_lu.getrf_volume(10, 10, 4, (2, 1), 8, swapped) == mpi_lu.getrf_volume(10, 10, 4, (2, 1), 8, none)
    # the solve on 1 x 2: diagonal blocks twice and the factor's block columns along the row
    diagonal, forward, backward = 2 * (16 + 16 + 4), 4 * 6 + 4 * 2, 4 * 4 + 2 * 8
    assert mpi_lu.getrs_volume(10, 3, 4, (1, 2), 16, none) == 16 * (diagonal + forward + backward)
    assert mpi_lu.getrs_volume(10, 3, 4, (1, 1), 16, none) == 0


# --- one rank in this process -----------------------------------------------------------------------


def _grid() -> mpi.ProcessGrid:
    pytest.importorskip("mpi4py")
    grid = mpi.ProcessGrid()
    if grid.comm.Get_size() != 1:
        pytest.skip("runs as a single process")
    return grid


def _matrix(m: int, n: int, dtype: type, rng: np.random.Generator) -> np.ndarray:
    a = rng.standard_normal((m, n))
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal((m, n))
    return a.astype(dtype)


def _factor_ratio(a: np.ndarray, f: np.ndarray, ipiv: np.ndarray) -> float:
    """``||P A - L U||_1 / (max(m, n) eps ||A||_1)`` (LAPACK's getrf test ratio)."""
    m, n = a.shape
    k = min(m, n)
    lower, upper = np.tril(f[:, :k], -1) + np.eye(m, k), np.triu(f[:k, :])
    pa = a.astype(f.dtype)
    for j, p in enumerate(ipiv - 1):
        pa[[j, p]] = pa[[p, j]]
    eps = np.finfo(f.real.dtype).eps
    return float(np.linalg.norm(pa - lower @ upper, 1) / (max(m, n) * eps * np.linalg.norm(a, 1)))


def test_getrf_getrs_on_one_rank():
    grid = _grid()
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64, np.complex64, np.complex128):
        for m, n, nb in [(13, 13, 4), (9, 14, 3), (15, 6, 4), (1, 1, 5)]:
            A = _matrix(m, n, dtype, rng)
            f, ipiv, info, stats = mpi_lu.getrf(mpi.DistributedMatrix.from_global(A, grid, nb))
            F = f.to_global()
            lu, piv = scipy.linalg.lu_factor(A)
            assert info == 0 and F.dtype == A.dtype and ipiv.dtype == np.int64
            assert np.array_equal(ipiv - 1, piv)
            assert _factor_ratio(A, F, ipiv) < 30
            tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-12
            np.testing.assert_allclose(F, lu, rtol=tol, atol=tol)
            assert stats.total_bytes == 0 == mpi_lu.getrf_volume(m, n, nb, grid.shape, A.itemsize, ipiv)
            if m == n:
                B = _matrix(n, 2, dtype, rng)
                x, st = mpi_lu.getrs(f, ipiv, mpi.DistributedMatrix.from_global(B, grid, nb))
                X = x.to_global()
                eps = np.finfo(X.real.dtype).eps
                ratio = np.linalg.norm(A @ X - B, 1) / (np.linalg.norm(A, 1) * np.linalg.norm(X, 1) * n * eps)
                assert ratio < 30 and st.total_bytes == 0


def test_getrf_look_ahead_depth_on_one_rank():
    grid = _grid()
    A = _matrix(40, 33, np.float64, np.random.default_rng(7))
    a = mpi.DistributedMatrix.from_global(A, grid, 8)
    f1, ipiv1, _, _ = mpi_lu.getrf(a)
    f0, ipiv0, _, _ = mpi_lu.getrf(a, depth=0)
    assert np.array_equal(ipiv0, ipiv1) and f0.local.tobytes() == f1.local.tobytes()
    for depth in (2, -1, True, 1.5):
        with pytest.raises(ValueError, match="depth"):
            mpi_lu.getrf(a, depth=depth)


def test_getrf_edge_cases_on_one_rank():
    grid = _grid()
    # singular: LAPACK's info (the first exactly zero pivot), the factorization completed
    A = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 1.0], [3.0, 6.0, 2.0]])
    f, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(A, grid, 2))
    lu, piv, ref_info = scipy.linalg.lapack.dgetrf(A)
    assert info == ref_info == 2 and np.array_equal(ipiv, piv + 1)
    np.testing.assert_allclose(f.to_global(), lu, rtol=1e-15, atol=1e-15)
    # a zero column: no interchange, info = 1
    Z = np.array([[0.0, 1.0], [0.0, 3.0]])
    _, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(Z, grid, 1))
    assert info == 1 and list(ipiv) == [1, 2]
    # a subnormal pivot: the column is divided by it (its reciprocal would overflow), as LAPACK's getf2
    # does (OpenBLAS's getrf, behind scipy, leaves such a matrix as it is: hand-computed reference)
    tiny = 2.0**-1040  # subnormal, exactly
    T = np.array([[tiny, 1.0], [tiny / 2, 2.0], [-tiny, 0.0]])
    f, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(T, grid, 2))
    assert info == 0 and list(ipiv) == [1, 2]
    np.testing.assert_array_equal(f.to_global(), [[tiny, 1.0], [0.5, 1.5], [-1.0, 1.0 / 1.5]])
    # integers are factored in float64; an empty matrix has no pivots
    f, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(np.array([[2, 1], [4, 3]]), grid, 1))
    assert f.local.dtype == np.float64 and list(ipiv) == [2, 2]
    np.testing.assert_allclose(f.to_global(), [[4.0, 3.0], [0.5, -0.5]])
    f, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(np.zeros((0, 3)), grid, 2))
    assert ipiv.size == 0 and info == 0 and f.to_global().shape == (0, 3)
    # getrs refuses what does not fit
    f, ipiv, _, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(np.eye(4) + 1, grid, 2))
    b = mpi.DistributedMatrix.from_global(np.ones((4, 1)), grid, 2)
    with pytest.raises(ValueError, match="pivots"):
        mpi_lu.getrs(f, ipiv[:3], b)
    with pytest.raises(ValueError, match="rows"):
        mpi_lu.getrs(f, ipiv, mpi.DistributedMatrix.from_global(np.ones((4, 1)), grid, 1))
    with pytest.raises(ValueError, match="square"):
        mpi_lu.getrs(mpi.DistributedMatrix.from_global(np.ones((4, 3)), grid, 2), ipiv, b)


# --- several ranks under mpiexec --------------------------------------------------------------------

SCRIPT = textwrap.dedent("""
    import numpy as np
    import scipy.linalg
    from mpi4py import MPI
    from rocmath import mpi, mpi_lu

    size = MPI.COMM_WORLD.Get_size()
    grid_shapes = {2: [(1, 2), (2, 1)], 4: [(2, 2), (1, 4), (4, 1)]}[size]
    rng = np.random.default_rng(3)

    def matrix(m, n, dtype):
        a = rng.standard_normal((m, n))
        if np.issubdtype(dtype, np.complexfloating):
            a = a + 1j * rng.standard_normal((m, n))
        return a.astype(dtype)

    CASES = [(23, 23, 4, np.float64), (16, 16, 8, np.complex128), (10, 13, 3, np.float64),
             (17, 9, 4, np.complex128), (5, 5, 7, np.float64)] + EXTRA
    if MPI.COMM_WORLD.Get_rank() == 0:  # compile the local kernels once (a cold cache), the others load them
        alone = mpi.ProcessGrid(MPI.COMM_SELF)
        for dtype in {np.dtype(c[3]) for c in CASES}:
            w = (np.eye(6) + np.tri(6, k=-1)).astype(dtype)
            f, ipiv, _, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(w, alone, 2))
            mpi_lu.getrs(f, ipiv, mpi.DistributedMatrix.from_global(w, alone, 2))
    MPI.COMM_WORLD.Barrier()
    for shape in grid_shapes:
        grid = mpi.ProcessGrid(shape=shape)
        for (m, n, nb, dtype) in CASES:
            A = matrix(m, n, dtype)
            a = mpi.DistributedMatrix.scatter(A if grid.rank == 0 else None, grid, nb)
            f, ipiv, info, stats = mpi_lu.getrf(a)
            F = f.to_global()
            assert grid.comm.allgather((info, ipiv.tolist())) == [(0, ipiv.tolist())] * size
            # without look-ahead: only the schedule differs (the same pivots, bits and bytes)
            f0, ipiv0, info0, stats0 = mpi_lu.getrf(a, depth=0)
            assert np.array_equal(ipiv0, ipiv) and info0 == info and stats0.total_bytes == stats.total_bytes
            assert f0.local.tobytes() == f.local.tobytes(), (shape, m, n, nb)
            model = mpi_lu.getrf_volume(m, n, nb, grid.shape, np.dtype(dtype).itemsize, ipiv)
            assert stats.total_bytes == model, (shape, m, n, nb, stats.total_bytes, model)
            if grid.rank == 0:
                lu, piv = scipy.linalg.lu_factor(A)
                assert np.array_equal(ipiv - 1, piv), (shape, m, n, ipiv - 1, piv)
                k = min(m, n)
                L, U = np.tril(F[:, :k], -1) + np.eye(m, k), np.triu(F[:k, :])
                PA = A.copy()
                for j, p in enumerate(ipiv - 1):
                    PA[[j, p]] = PA[[p, j]]
                eps = np.finfo(F.real.dtype).eps
                ratio = np.linalg.norm(PA - L @ U, 1) / (max(m, n) * eps * np.linalg.norm(A, 1))
                assert ratio < 30, (shape, m, n, dtype, ratio)
            if m == n:
                B = matrix(n, 3, dtype)
                x, st = mpi_lu.getrs(f, ipiv, mpi.DistributedMatrix.from_global(B, grid, nb))
                X = x.to_global()
                assert st.total_bytes == mpi_lu.getrs_volume(n, 3, nb, grid.shape, np.dtype(dtype).itemsize, ipiv)
                if grid.rank == 0:
                    eps = np.finfo(X.real.dtype).eps
                    ratio = np.linalg.norm(A @ X - B, 1) / (np.linalg.norm(A, 1) * np.linalg.norm(X, 1) * n * eps)
                    assert ratio < 30, (shape, n, dtype, ratio)
        # singular on every rank alike
        S = matrix(9, 9, np.float64)
        S[:, 4] = 0.0  # column 5 stays exactly zero: its pivot is 0
        f, ipiv, info, stats = mpi_lu.getrf(mpi.DistributedMatrix.from_global(S, grid, 2))
        ref_info = scipy.linalg.lapack.dgetrf(S)[2]
        assert grid.comm.allgather(info) == [ref_info] * size and ref_info == 5
        assert stats.total_bytes == mpi_lu.getrf_volume(9, 9, 2, grid.shape, 8, ipiv)
        # a subnormal pivot: divided by, not scaled by its (overflowing) reciprocal
        tiny = 2.0**-1040
        T = np.array([[tiny, 1.0], [tiny / 2, 2.0], [-tiny, 0.0]])
        f, ipiv, info, _ = mpi_lu.getrf(mpi.DistributedMatrix.from_global(T, grid, 1))
        assert info == 0 and list(ipiv) == [1, 2]
        assert np.array_equal(f.to_global(), [[tiny, 1.0], [0.5, 1.5], [-1.0, 1.0 / 1.5]])
    if MPI.COMM_WORLD.Get_rank() == 0:
        print("lu ok", size)
""")


def _mpiexec() -> str:
    pytest.importorskip("mpi4py")
    exe = mpi.find_mpiexec()
    if exe is None:
        pytest.skip("no mpiexec")
    return exe


def _run(tmp_path, ranks: int, extra: str) -> None:
    exe = _mpiexec()
    script = tmp_path / "lu_check.py"
    script.write_text(f"import numpy as np\nEXTRA = {extra}\n" + SCRIPT)
    # One thread per rank: the ranks share this machine's cores.
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([exe, "-n", str(ranks), sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"lu ok {ranks}" in proc.stdout


def test_getrf_getrs_under_mpiexec(tmp_path):
    _run(tmp_path, 2, "[]")


@pytest.mark.slow
def test_getrf_getrs_under_mpiexec_four_ranks_all_precisions(tmp_path):
    _run(tmp_path, 4, "[(31, 31, 2, np.float32), (12, 12, 4, np.complex64), (64, 48, 8, np.float64)]")
