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


def test_long_problem_lists_show_progress_and_bad_files_exit_2(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from rocmath.bench.report import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    path = tmp_path / "p.yaml"
    path.write_text("- {function: axpy, precision: f32_r, n: 100, iters: 1}\n" * 3)
    tty = Tty()
    monkeypatch.setattr(Progress, "AFTER_NS", 0)  # show at once
    monkeypatch.setattr("sys.stderr", tty)
    assert bench_main(["--yaml", str(path)], out=io.StringIO()) == 0
    assert "[1/3]" in tty.getvalue() and "[2/3]" in tty.getvalue() and tty.getvalue().endswith("\r\x1b[K")
    monkeypatch.undo()
    assert bench_main(["--yaml", str(tmp_path / "missing.yaml")], out=io.StringIO()) == 2
    (tmp_path / "bad.yaml").write_text("- [unclosed\n")
    assert bench_main(["--yaml", str(tmp_path / "bad.yaml")], out=io.StringIO()) == 2
    assert "missing.yaml" in capsys.readouterr().err
