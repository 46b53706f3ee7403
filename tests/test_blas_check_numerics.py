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
