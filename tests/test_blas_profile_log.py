"""ROCBLAS_LAYER=4: a profile of calls and device time per distinct problem, written at handle destruction."""

from __future__ import annotations

import re

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas


def test_profile_counts_calls_per_problem_and_their_device_time(tmp_path, monkeypatch):
    path = tmp_path / "profile.yaml"
    monkeypatch.setenv("ROCBLAS_LAYER", "4")
    monkeypatch.setenv("ROCBLAS_LOG_PROFILE_PATH", str(path))
    h = blas.create_handle()
    n = 64
    a = rm.to_device(np.asfortranarray(np.ones((n, n))))
    c = rm.zeros((n, n), order="F")
    for _ in range(3):
        blas.dgemm(h, "N", "N", n, n, n, 1.0, a, n, a, n, 0.0, c, n)
    blas.dgemm(h, "N", "T", n, n, n, 1.0, a, n, a, n, 0.0, c, n)  # another problem
    x = rm.to_device(np.ones(n))
    blas.daxpy(h, n, 2.0, x, 1, x, 1)
    blas.destroy_handle(h)
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    rows = {}
    for line in lines:
        m = re.fullmatch(r'- \{ function: (\w+), calls: (\d+), device_us: ([\d.]+), mean_us: ([\d.]+), '
                         r'roofline_model_us: ([\d.]+), roofline_model_of: "AMD Instinct MI300X", '
                         r'problem: "(.*)" \}', line)
        assert m, line
        rows[(m[1], m[6])] = (int(m[2]), float(m[3]), float(m[5]))
    gemm_nn = [v for (f, p), v in rows.items() if f == "rocblas_dgemm" and "--transposeB N" in p]
    assert gemm_nn and gemm_nn[0][0] == 3 and gemm_nn[0][1] > 0
    # The roofline model of 3 dgemm 64^3 on an MI300X (81.7 TFLOP/s fp64, 5.3 TB/s): bandwidth bound
    # at this size, A, B and C moved once.
    one = max(2 * n**3 / 81.7e12, 3 * 8 * n * n / 5.3e12)
    assert gemm_nn[0][2] == pytest.approx(3 * one * 1e6, abs=1e-3)
    assert sorted(v[0] for v in rows.values()) == [1, 1, 3]
    assert any(f == "rocblas_daxpy" for f, _ in rows)
    # Problems are command lines that replay the call.
    assert all(p.startswith("rocmath-bench blas -f ") for _, p in rows)


def test_no_profile_without_the_layer(tmp_path, monkeypatch):
    path = tmp_path / "profile.yaml"
    monkeypatch.setenv("ROCBLAS_LAYER", "1")
    monkeypatch.setenv("ROCBLAS_LOG_PROFILE_PATH", str(path))
    monkeypatch.setenv("ROCBLAS_LOG_TRACE_PATH", str(tmp_path / "trace.txt"))
    h = blas.create_handle()
    x = rm.to_device(np.ones(8))
    blas.dscal(h, 8, 2.0, x, 1)
    blas.destroy_handle(h)
    assert not path.exists()


def test_roofline_model():
    from rocmath.roofline import model_seconds, peak_key

    assert peak_key(np.complex64) == "f32" and peak_key(np.float16) == "f16" and peak_key(np.int32) is None
    # dgemm 1024^3 on an MI300X is compute bound; daxpy of 10^7 is bandwidth bound.
    assert model_seconds(2 * 1024**3, 3 * 8 * 1024**2, np.float64) == pytest.approx(2 * 1024**3 / 81.7e12)
    assert model_seconds(2e7, 24e7, np.float64) == pytest.approx(24e7 / 5.3e12)
    assert model_seconds(2e7, 24e7, np.float64, "gfx908") == pytest.approx(24e7 / 1.23e12)
    with rm.profile() as records:
        x = rm.to_device(np.ones(1000))
        h = blas.create_handle()
        blas.dscal(h, 1000, 2.0, x, 1)
        rm.device_synchronize()
    rec = next(r for r in records if r.name == "rocblas_dscal")
    assert rec.dtype == "float64" and rec.arch == "gfx942"
    assert rec.model_seconds() == pytest.approx(model_seconds(rec.flops, rec.bytes, np.float64))
    blas.destroy_handle(h)


def test_profile_goes_to_rocblas_log_path_started_anew(tmp_path, monkeypatch):
    # handle.cpp open_log_stream: ROCBLAS_LOG_PROFILE_PATH, else ROCBLAS_LOG_PATH (opened with O_TRUNC)
    path = tmp_path / "all.log"
    path.write_text("- { a profile of an earlier run }\n")
    monkeypatch.delenv("ROCBLAS_LOG_PROFILE_PATH", raising=False)
    monkeypatch.setenv("ROCBLAS_LAYER", "4")
    monkeypatch.setenv("ROCBLAS_LOG_PATH", str(path))
    h = blas.create_handle()
    x = rm.to_device(np.ones(8))
    blas.dscal(h, 8, 2.0, x, 1)
    blas.destroy_handle(h)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("- { function: rocblas_dscal, calls: 1,")
