"""ROCSOLVER_LAYER=4: a profile of calls and device time per distinct problem (its bench command)."""

from __future__ import annotations

import re
import shlex
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas, solver
from rocmath.bench.rocsolver_cli import parse
from rocmath.log import close_logs
from rocmath.solver import _api

ROW = re.compile(r'- \{ function: (\w+), calls: (\d+), device_us: ([\d.]+), mean_us: ([\d.]+), '
                 r'(?:roofline_model_us: [\d.]+, roofline_model_of: "[^"]*", )?problem: "(.*)" \}')


def _matrix(n: int) -> Any:
    return rm.to_device(np.asfortranarray(np.eye(n) * n + 1).reshape(-1))


def test_profile_counts_calls_per_problem(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    path = tmp_path / "profile.yaml"
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(tmp_path / "earlier.yaml"))
    _api.log_flush_profile()  # nothing left from earlier tests
    monkeypatch.setenv("ROCSOLVER_LAYER", "4")
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(path))
    h = blas.create_handle()
    ipiv, info = rm.zeros(16, np.int32), rm.zeros(1, np.int32)
    for _ in range(3):
        solver.dgetrf(h, 16, 16, _matrix(16), 16, ipiv, info)
    solver.dgetrf(h, 8, 8, _matrix(8), 8, ipiv, info)  # another problem
    solver.dpotrf(h, "L", 8, _matrix(8), 8, info)
    with pytest.raises(rm.RocmathError):  # an invalid call is not profiled (it ran nothing)
        solver.dgetrf(h, -1, 8, _matrix(8), 8, ipiv, info)
    blas.destroy_handle(h)
    _api.log_flush_profile()
    close_logs()
    rows = {}
    for line in path.read_text().splitlines():
        m = ROW.fullmatch(line)
        assert m, line
        rows[m[5]] = (m[1], int(m[2]), float(m[3]))
    assert len(rows) == 3
    big = rows["rocmath-bench solver -f getrf -r d -m 16 -n 16 --lda 16"]
    assert big[0] == "rocsolver_dgetrf" and big[1] == 3 and big[2] > 0
    assert rows["rocmath-bench solver -f getrf -r d -m 8 -n 8 --lda 8"][1] == 1
    potrf = next(p for p, v in rows.items() if v[0] == "rocsolver_dpotrf")
    function, letter, params, _, _ = parse(shlex.split(potrf)[2:])  # the problem is a command that parses back
    assert (function, letter, params) == ("potrf", "d", {"uplo": "L", "n": "8", "lda": "8"})
    _api.log_flush_profile()  # flushed: an empty table writes nothing more
    close_logs()
    assert len(path.read_text().splitlines()) == 3


def test_no_profile_without_bit_4(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    path = tmp_path / "profile.yaml"
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(tmp_path / "earlier.yaml"))
    _api.log_flush_profile()  # nothing left from earlier tests
    monkeypatch.setenv("ROCSOLVER_LAYER", "3")
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(path))
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(tmp_path / "trace.log"))
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(tmp_path / "bench.log"))
    h = blas.create_handle()
    solver.dpotrf(h, "U", 4, _matrix(4), 4, rm.zeros(1, np.int32))
    blas.destroy_handle(h)
    _api.log_flush_profile()
    close_logs()
    assert not path.exists()
