"""rocmath-bench solver: rocsolver-bench's command line over any rocmath.solver routine, and
ROCSOLVER_LAYER=2 bench lines that replay through it."""

from __future__ import annotations

import io
import shlex
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas, solver
from rocmath.bench.cli import main as bench_main
from rocmath.bench.rocsolver_cli import UsageError, parse
from rocmath.log import close_logs


def _run(line: str) -> tuple[int, str]:
    out = io.StringIO()
    status = bench_main(shlex.split(line), out=out)
    return status, out.getvalue()


def test_parse_reads_rocsolver_bench_flags() -> None:
    assert parse(["-f", "getrf", "-r", "f64_r", "-m", "4", "--lda", "5", "-i", "3", "-j", "0"]) == (
        "getrf", "d", {"m": "4", "lda": "5"}, 3, 0)
    with pytest.raises(UsageError):
        parse(["-m", "4"])
    with pytest.raises(UsageError):
        parse(["-f", "getrf", "-r", "q"])


@pytest.mark.parametrize("line", [
    "solver -f getrf_strided_batched -r d -m 16 -n 16 --batch_count 50 -i 2",
    "solver -f getrf_batched -r s -m 8 -n 6 --batch_count 20 -i 2",
    "solver -f getrs -r z --trans C -n 24 --nrhs 3 -i 2",
    "solver -f gesv -r c -n 20 --nrhs 2 -i 2",
    "solver -f getri -r d -n 12 -i 2",
])
def test_routines_run_with_a_reference_ratio(line: str) -> None:
    status, text = _run(line)
    assert status == 0, text
    header, row = text.splitlines()[1:3]
    cols = dict(zip(header.split(","), row.split(","), strict=True))
    assert float(cols["gpu_time_us"]) > 0 and float(cols["ratio"]) > 0


def test_usage_errors_exit_2() -> None:
    assert _run("solver -f nothing -r d")[0] == 2
    assert _run("solver -f getrf -r d --bogus 1")[0] == 2


def test_bench_lines_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    bench = tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "2")
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    h = blas.create_handle()
    a = rm.to_device(np.asfortranarray(np.eye(6) * 3 + 1).reshape(-1))
    ipiv, info = rm.zeros(6, np.int32), rm.zeros(1, np.int32)
    solver.dgetrf(h, 6, 6, a, 6, ipiv, info)
    b = rm.to_device(np.ones(6 * 2))
    solver.dgetrs(h, "T", 6, 2, a, 6, ipiv, b, 6)
    blas.destroy_handle(h)
    close_logs()
    lines = bench.read_text().splitlines()
    assert lines[0].startswith("rocmath-bench solver -f getrf -r d")
    monkeypatch.delenv("ROCSOLVER_LAYER")
    for line in lines:
        status, text = _run(line.removeprefix("rocmath-bench "))
        assert status == 0, (line, text)
