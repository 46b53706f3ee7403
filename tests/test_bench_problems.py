"""rocmath-bench --yaml: problem lists (profile logs, rocblas-bench's YAML form, other libraries) in one process."""

from __future__ import annotations

import io
from typing import Any

import pytest

from rocmath.bench.cli import main as bench_main
from rocmath.bench.problems import commands


def test_the_three_forms_become_commands() -> None:
    assert commands([{"problem": "rocmath-bench blas -f scal -r d -n 100"}]) == [["blas", "-f", "scal", "-r", "d",
                                                                                  "-n", "100"]]
    assert commands([{"rocblas_function": "rocblas_dgemm", "transA": "N", "M": 8, "lda": 9}]) == [
        ["blas", "-f", "gemm", "-r", "d", "--transposeA", "N", "-m", "8", "--lda", "9"]]
    assert commands([{"rocsolver_function": "rocsolver_sgetrf", "m": 4}]) == [["solver", "-f", "getrf", "-r", "s",
                                                                               "-m", "4"]]
    assert commands([{"library": "solver", "function": "potrf", "precision": "d", "n": 8}]) == [
        ["solver", "-f", "potrf", "-r", "d", "-n", "8"]]
    with pytest.raises(ValueError):
        commands([{"M": 3}])


def test_a_yaml_file_runs_in_one_process(tmp_path: Any) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("- rocblas_function: rocblas_dgemm\n  transA: N\n  transB: T\n  M: 16\n  N: 8\n  K: 4\n"
                    "- {function: axpy, precision: f32_r, n: 100}\n"
                    '- problem: "rocmath-bench solver -f getrf -r d -m 8 -n 8"\n')
    out = io.StringIO()
    assert bench_main(["--yaml", str(path)], out=out) == 0, out.getvalue()
    text = out.getvalue()
    assert text.count("# rocmath-bench ") == 3 and "gpu_time_us" in text and "rocblas-Gflops" in text
