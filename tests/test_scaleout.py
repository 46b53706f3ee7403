"""The strong-scaling bench (rocmath.bench.scaleout): its table, and the ``mpiexec`` entry points it
times (SUMMA, the LU at both look-ahead depths) run through its runner at small sizes; the whole
quick bench in the slow tier."""

from __future__ import annotations

import os

import pytest

from rocmath.bench import scaleout
from rocmath.bench.scaleout import Row
from rocmath.mpi import find_mpiexec


def test_table_speedup_efficiency_and_bytes(capsys):
    scaleout._print([Row("mpi", "LU", 1, 2.0, 0, 0, "grid 1x1"), Row("mpi", "LU", 2, 0.5, 640, 640, "grid 1x2"),
                     Row("dask", "batched", 1, 1.0, 0), Row("dask", "batched", 2, 2.0, 12)])
    header, *lines = capsys.readouterr().out.splitlines()
    assert header.split()[:3] == ["engine", "case", "procs"]
    cells = [line.split() for line in lines]
    # speedup over the same case on 1 process, efficiency = speedup / processes, bytes, model
    assert cells[0][-5:] == ["2.0000", "1.00", "1.00", "0", "0"]
    assert cells[1][-5:] == ["0.5000", "4.00", "2.00", "640", "640"]
    assert cells[2][-4:] == ["1.0000", "1.00", "1.00", "0"]
    assert cells[3][-4:] == ["2.0000", "0.50", "0.25", "12"]  # no model: the column stays empty


def _mpiexec() -> None:
    pytest.importorskip("mpi4py")
    if find_mpiexec() is None:
        pytest.skip("no mpiexec")


def test_mpi_entry_points_at_small_sizes():
    _mpiexec()
    out = scaleout._mpirun(2, ["-m", "rocmath.mpi", "40", "24", "16", "8", "1"])
    assert out is not None and out["ranks"] == 2 and out["rel_error"] < 1e-12
    assert out["bytes"] == out["model_bytes"] == 8 * 16 * (40 * 1 + 24 * 0)  # a 1 x 2 grid: A's panels only
    lu = {}
    for depth in (0, 1):
        res = scaleout._mpirun(2, ["-m", "rocmath.mpi_lu", "48", "8", "1", str(depth)])
        assert res is not None and res["depth"] == depth and res["info"] == 0 and res["residual_ratio"] < 30
        assert res["bytes"] == res["model_bytes"] > 0
        lu[depth] = res
    assert lu[0]["bytes"] == lu[1]["bytes"]  # look-ahead changes the schedule, not the traffic


@pytest.mark.slow
def test_quick_bench_runs_every_case(capsys):
    _mpiexec()
    pytest.importorskip("distributed")
    saved = dict(os.environ)
    try:
        assert scaleout.main(["--quick", "--repeats", "1"]) == 0
    finally:  # main sets one thread and one device per process for its workers and ranks
        os.environ.clear()
        os.environ.update(saved)
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith(("dask ", "mpi "))]
    # dask: batched and blocked dgemm; mpi: SUMMA, LU at depths 0 and 1, FFT; each on 1 and 2 processes
    assert len(rows) == 2 * (2 + 4)
    for row in rows:
        if row.startswith("mpi"):
            *_, moved, model = row.split()
            assert moved == model
