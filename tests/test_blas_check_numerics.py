"""ROCBLAS_CHECK_NUMERICS: NaN/Inf/denormal scans around kernels."""

from __future__ import annotations

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
from rocmath import errors


@pytest.fixture
def handle(monkeypatch):
    monkeypatch.setenv("ROCBLAS_CHECK_NUMERICS", "4")  # fail
    h = blas.create_handle()
    yield h
    h.destroy()


def test_env_sets_fail_mode_and_nan_input_fails_at_synchronize(handle):
    assert handle.check_numerics == blas.CheckNumericsMode.fail
    x = rm.to_device(np.array([1.0, np.nan, 2.0]))
    y = rm.zeros(3)
    blas.daxpy(handle, 3, 1.0, x, 1, y, 1)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN") as info:
        handle.stream.synchronize()
    assert info.value.status == errors.RocblasStatus.check_numerics_fail


def test_clean_data_passes_and_denormals_follow_only_nan_inf(handle):
    x = rm.to_device(np.array([1.0, 5e-324]))  # the smallest double denormal
    y = rm.zeros(2)
    handle.check_numerics = blas.CheckNumericsMode.fail | blas.CheckNumericsMode.only_nan_inf
    blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    handle.stream.synchronize()
    handle.check_numerics = blas.CheckNumericsMode.fail
    blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal"):
        handle.stream.synchronize()


def test_warn_mode_warns_and_computes(handle):
    handle.check_numerics = blas.CheckNumericsMode.warn
    x = rm.to_device(np.array([np.inf, 1.0]))
    y = rm.zeros(2)
    with pytest.warns(RuntimeWarning, match="Inf"):
        blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
        handle.stream.synchronize()
    np.testing.assert_array_equal(y.get(), [np.inf, 1.0])


# --- only the data a routine uses is scanned: a symmetric or triangular operand's other triangle
# (and a unit diagonal) may hold anything, as in rocBLAS -------------------------------------------

N = 4


def _matrix_with_nan(where: str, unit_diagonal_nan: bool = False) -> np.ndarray:
    """A well-conditioned column-major n x n matrix with NaN strictly above or below the diagonal."""
    a = np.eye(N) * 4 + 0.25
    rows, cols = np.triu_indices(N, 1) if where == "upper" else np.tril_indices(N, -1)
    a[rows, cols] = np.nan
    if unit_diagonal_nan:
        a[np.arange(N), np.arange(N)] = np.nan
    return np.asfortranarray(a)


def _call(h, routine, a, b, c):
    """Run a routine whose data is the lower triangle of A (or C, written: syrk, gemmt)."""
    x, y = rm.to_device(np.ones(N)), rm.zeros(N)
    {
        "trsm": lambda: blas.dtrsm(h, "L", "L", "N", "N", N, N, 1.0, a, N, b, N),
        "trsm_unit": lambda: blas.dtrsm(h, "L", "L", "N", "U", N, N, 1.0, a, N, b, N),
        "trmm": lambda: blas.dtrmm(h, "L", "L", "N", "N", N, N, 1.0, a, N, b, N, b, N),
        "trtri": lambda: blas.dtrtri(h, "L", "N", N, a, N, c, N),
        "symm": lambda: blas.dsymm(h, "L", "L", N, N, 1.0, a, N, b, N, 0.0, c, N),
        "symv": lambda: blas.dsymv(h, "L", N, 1.0, a, N, x, 1, 0.0, y, 1),
        "trsv": lambda: blas.dtrsv(h, "L", "N", "N", N, a, N, x, 1),
        "syrk": lambda: blas.dsyrk(h, "L", "N", N, N, 1.0, b, N, 1.0, a, N),
        "gemmt": lambda: blas.dgemmt(h, "L", "N", "N", N, N, 1.0, b, N, b, N, 1.0, a, N),
    }[routine]()


ROUTINES = ("trsm", "trsm_unit", "trmm", "trtri", "symm", "symv", "trsv", "syrk", "gemmt")


@pytest.mark.parametrize("routine", ROUTINES)
def test_the_other_triangle_is_not_scanned(handle, routine):
    a = rm.to_device(_matrix_with_nan("upper", unit_diagonal_nan=False))
    b, c = rm.to_device(np.asfortranarray(np.ones((N, N)))), rm.zeros((N, N), order="F")
    _call(handle, routine, a, b, c)
    handle.stream.synchronize()  # NaN only in the unused upper triangle: passes


@pytest.mark.parametrize("routine", ROUTINES)
def test_nan_in_the_data_triangle_fails(handle, routine):
    a = rm.to_device(_matrix_with_nan("lower"))
    b, c = rm.to_device(np.asfortranarray(np.ones((N, N)))), rm.zeros((N, N), order="F")
    _call(handle, routine, a, b, c)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN"):
        handle.stream.synchronize()


def test_a_unit_diagonal_is_not_scanned(handle):
    a = rm.to_device(_matrix_with_nan("upper", unit_diagonal_nan=True))
    b = rm.to_device(np.asfortranarray(np.ones((N, N))))
    blas.dtrsm(handle, "L", "L", "N", "U", N, N, 1.0, a, N, b, N)
    handle.stream.synchronize()
    blas.dtrsm(handle, "L", "L", "N", "N", N, N, 1.0, a, N, b, N)  # a non-unit diagonal is data
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN"):
        handle.stream.synchronize()
