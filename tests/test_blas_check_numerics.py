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


def test_env_sets_fail_mode_and_a_nan_input_fails_the_call(handle):
    # rocBLAS scans the inputs before the kernel and copies its findings back: the call itself
    # returns check_numerics_fail, and the kernel did not run.
    assert handle.check_numerics == blas.CheckNumericsMode.fail
    x = rm.to_device(np.array([1.0, np.nan, 2.0]))
    y = rm.zeros(3)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN in input 'x'") as info:
        blas.daxpy(handle, 3, 1.0, x, 1, y, 1)
    assert info.value.status == errors.RocblasStatus.check_numerics_fail
    handle.stream.synchronize()  # (nothing left pending)
    np.testing.assert_array_equal(y.get(), 0)


def test_an_abnormal_output_fails_after_the_kernel(handle):
    x, y = rm.to_device(np.array([1e308, 1.0])), rm.to_device(np.array([1e308, 1.0]))
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="Inf in output 'y'"):
        blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    np.testing.assert_array_equal(y.get(), [np.inf, 2.0])


def test_clean_data_passes_and_denormals_follow_only_nan_inf(handle):
    x = rm.to_device(np.array([1.0, 5e-324]))  # the smallest double denormal
    y = rm.zeros(2)
    handle.check_numerics = blas.CheckNumericsMode.fail | blas.CheckNumericsMode.only_nan_inf
    blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    handle.check_numerics = blas.CheckNumericsMode.fail
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal"):
        blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    # A half subnormal (6e-8 < float16's smallest normal 6.1e-5) is one, though the kernel computes in float32.
    hx = rm.to_device(np.array([1.0, 6e-8], np.float16))
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal in input 'x'"):
        blas.haxpy(handle, 2, np.float16(1.0), hx, 1, rm.zeros(2, np.float16), 1)


def test_scalars_and_results_are_not_scanned(handle):
    # rocBLAS checks the vectors and matrices, not alpha/beta nor a reduction's result.
    c = rm.to_device(np.asfortranarray(np.ones((2, 2))))
    blas.dgemm(handle, "N", "N", 2, 2, 0, np.nan, None, 2, None, 1, 2.0, c, 2)  # (k == 0: alpha unused)
    np.testing.assert_array_equal(c.get(), 2.0)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="output 'y'"):  # what alpha leads to is
        blas.daxpy(handle, 3, np.nan, rm.to_device(np.ones(3)), 1, rm.zeros(3), 1)
    big = rm.to_device(np.full(4, 1e308))
    assert blas.dasum(handle, 4, big, 1) == np.inf


@pytest.mark.parametrize("trans", ["N", "T"])
def test_a_plain_gemv_scans_its_matrix_and_vectors(handle, trans):
    # dgemv's one-entry path (host mode, unit increments) too: a NaN in A (not in its padding
    # rows), x or y (beta != 0) fails the call before the kernel, y untouched.
    n, lda = 3, 5
    a = np.asfortranarray(np.ones((lda, n)))
    a[n:, :] = np.nan  # rows past m: padding, never scanned
    x, y = np.ones(n), np.arange(1.0, n + 1)
    blas.dgemv(handle, trans, n, n, 1.0, rm.to_device(a), lda, rm.to_device(x), 1, 1.0, dy := rm.to_device(y), 1)
    np.testing.assert_array_equal(dy.get(), y + n)
    for name in ("A", "x", "y"):
        bad = {"A": a.copy(order="F"), "x": x.copy(), "y": y.copy()}
        bad[name][(1, 2) if name == "A" else 1] = np.nan
        dy = rm.to_device(bad["y"])
        with pytest.raises(errors.RocblasCheckNumericsFailError, match=f"NaN in input '{name}'"):
            blas.dgemv(handle, trans, n, n, 1.0, rm.to_device(bad["A"]), lda, rm.to_device(bad["x"]), 1, 1.0, dy, 1)
        np.testing.assert_array_equal(dy.get(), bad["y"])


def test_banded_and_packed_matrices_are_not_scanned(handle):
    n, k = 4, 1
    band = rm.to_device(np.asfortranarray(np.full((2 * k + 1, n), np.nan)))
    x, y = rm.to_device(np.ones(n)), rm.zeros(n)
    blas.dgbmv(handle, "N", n, n, k, k, 0.0, band, 2 * k + 1, x, 1, 0.0, y, 1)  # NaN band: not looked at
    blas.dtpmv(handle, "U", "N", "N", n, rm.to_device(np.ones(n * (n + 1) // 2)), rm.to_device(np.ones(n)), 1)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="input 'x'"):
        blas.dgbmv(handle, "N", n, n, k, k, 1.0, band, 2 * k + 1, rm.to_device(np.full(n, np.nan)), 1, 0.0, y, 1)


def test_info_and_warn_modes_print_rocblas_lines(handle, capfd):
    x, y = rm.to_device(np.array([0.0, 1.0])), rm.zeros(2)
    handle.check_numerics = blas.CheckNumericsMode.info  # every scanned operand, clean or not
    blas.daxpy(handle, 2, 1.0, x, 1, y, 1)
    handle.stream.synchronize()
    err = capfd.readouterr().err.splitlines()
    assert err == ["Function name:\trocblas_daxpy :- Input :\t has_NaN 0 has_zero 1 has_Inf 0 has_denorm 0"] * 2 + [
        "Function name:\trocblas_daxpy :- Output :\t has_NaN 0 has_zero 1 has_Inf 0 has_denorm 0"]
    handle.check_numerics = blas.CheckNumericsMode.warn  # abnormal operands only, every call
    inf = rm.to_device(np.array([np.inf, 1.0]))
    for _ in range(2):
        blas.daxpy(handle, 2, 1.0, inf, 1, rm.zeros(2), 1)
    handle.stream.synchronize()
    err = capfd.readouterr().err.splitlines()
    assert err == ["Function name:\trocblas_daxpy :- Input :\t has_NaN 0 has_zero 0 has_Inf 1 has_denorm 0",
                   "Function name:\trocblas_daxpy :- Output :\t has_NaN 0 has_zero 0 has_Inf 1 has_denorm 0"] * 2


# --- only the data a routine uses is scanned: a symmetric or triangular operand's other triangle
# may hold anything, as in rocBLAS (whose scan of the triangle includes a unit diagonal) ----------

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
    _call(handle, routine, a, b, c)  # NaN only in the unused upper triangle: passes
    handle.stream.synchronize()


@pytest.mark.parametrize("routine", ROUTINES)
def test_nan_in_the_data_triangle_fails(handle, routine):
    a = rm.to_device(_matrix_with_nan("lower"))
    b, c = rm.to_device(np.asfortranarray(np.ones((N, N)))), rm.zeros((N, N), order="F")
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN"):
        _call(handle, routine, a, b, c)


def test_a_unit_diagonal_is_scanned_as_rocblas_does(handle):
    a = rm.to_device(_matrix_with_nan("upper", unit_diagonal_nan=True))
    b = rm.to_device(np.asfortranarray(np.ones((N, N))))
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN in input 'A'"):
        blas.dtrsm(handle, "L", "L", "N", "U", N, N, 1.0, a, N, b, N)


def _f8_call(h, a_codes, d, d_type=blas.Datatype.f32_r):
    """gemm_ex3 of 2x2 f8 matrices: D := A A (beta 0: C is not an operand)."""
    a = rm.to_device(np.asfortranarray(np.array(a_codes, np.uint8)))
    blas.gemm_ex3(h, "N", "N", 2, 2, 2, 1.0, a, blas.Datatype.f8_r, 2, a, blas.Datatype.f8_r, 2, 0.0, None, d_type, 2,
                  d, d_type, 2, blas.ComputeType.f32, 0, 0, 0)


def test_gemm_ex3_scans_float8_codes(handle):
    # rocblas_f8's NaN is 0x80 (isinf says so too); codes below 0x08 (f8's smallest normal) are denormals.
    d = rm.to_device(np.full((2, 2), np.nan, np.float32, order="F"))  # D apart from C: not scanned before
    _f8_call(handle, [[0x40, 0x38], [0x48, 0x40]], d)
    np.testing.assert_array_equal(d.get(), [[2, 1], [4, 2]])  # A = [[1, .5], [2, 1]]
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN, Inf in input 'a'"):
        _f8_call(handle, [[0x40, 0x80], [0x40, 0x40]], d)
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="denormal in input 'a'"):
        _f8_call(handle, [[0x40, 0x87], [0x40, 0x40]], d)
    handle.check_numerics = blas.CheckNumericsMode.fail | blas.CheckNumericsMode.only_nan_inf
    _f8_call(handle, [[0x40, 0x87], [0x40, 0x40]], d)
    handle.check_numerics = blas.CheckNumericsMode.fail
    # 0x7F (240) squared saturates to 240 in an f8 D: nothing abnormal comes out
    d8 = rm.to_device(np.full((2, 2), 0x80, np.uint8, order="F"))
    _f8_call(handle, [[0x7F, 0x40], [0x40, 0x40]], d8, blas.Datatype.f8_r)
    np.testing.assert_array_equal(d8.get()[0], [0x7F, 0x7F])


def test_gemm_ex_does_not_scan_d_apart_from_c_before(handle):
    # rocBLAS's gemm_ex scans A, B and C before the kernel and D after it.
    a = rm.to_device(np.asfortranarray(np.eye(2, dtype=np.float32)))
    d = rm.to_device(np.full((2, 2), np.nan, np.float32, order="F"))
    f32 = blas.Datatype.f32_r
    blas.gemm_ex(handle, "N", "N", 2, 2, 2, 1.0, a, f32, 2, a, f32, 2, 0.0, a, f32, 2, d, f32, 2, f32, 0, 0, 0)
    np.testing.assert_array_equal(d.get(), np.eye(2))
    c = rm.to_device(np.full((2, 2), np.nan, np.float32, order="F"))
    with pytest.raises(errors.RocblasCheckNumericsFailError, match="NaN in input 'c'"):
        blas.gemm_ex(handle, "N", "N", 2, 2, 2, 1.0, a, f32, 2, a, f32, 2, 1.0, c, f32, 2, d, f32, 2, f32, 0, 0, 0)
