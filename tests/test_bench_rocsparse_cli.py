"""rocmath-bench sparse: rocsparse-bench's flags, its table, and a run per routine family."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from rocmath.bench import cli
from rocmath.bench.rocsparse_cli import UsageError, laplacian, parse_args, random_matrix, table

TAIL = ["GFlop/s", "GB/s", "msec", "iter", "verified", "function", "import", "ctype", "itype", "jtype", "ref-msec",
        "ratio", "ratio-lo", "ratio-hi"]


def _run(*argv: str) -> tuple[int, list[str], list[str]]:
    out = io.StringIO()
    status = cli.main(["sparse", *argv], out=out)
    lines = [ln for ln in out.getvalue().splitlines() if ln and not ln.startswith("Device")]
    if status != 0 or len(lines) < 2:
        return status, [], []
    legend, values = lines[-2], lines[-1]
    names = legend.replace("analysis msec", "analysis_msec").split()
    return status, names, values.split()


def test_defaults_are_rocsparse_bench_s():
    a = parse_args([])
    assert (a.function, a.precision, a.M, a.N, a.K, a.nnz) == ("axpyi", "s", 128, 128, 128, 32)
    assert (a.alpha, a.beta, a.transposeA, a.indexbaseA, a.iters, a.uplo, a.diag) == (1.0, 0.0, "N", 0, 10, "L", "N")
    assert (a.format, a.order, a.orderB, a.batch_count, a.batch_stride, a.indextype) == (0, 1, 1, 128, 128, "s")


def test_flags_and_short_forms():
    a = parse_args(["-f", "csrmv", "-r", "f64_r", "-m", "7", "-n", "9", "-z", "20", "--alpha", "2", "--beta", "1",
                    "--transposeA", "t", "--indexbaseA", "1", "-i", "3", "--laplacian-dim", "4,5,6"])
    assert (a.function, a.precision, a.M, a.N, a.nnz, a.alpha, a.beta) == ("csrmv", "d", 7, 9, 20, 2.0, 1.0)
    assert (a.transposeA, a.indexbaseA, a.iters, a.dimx, a.dimy, a.dimz) == ("T", 1, 3, 4, 5, 6)
    for bad in (["-f", "nosuch"], ["-r", "q"], ["--bogus", "1"], ["--indexbaseA", "2"], ["-m", "-1"],
                ["-f", "roti", "-r", "c"], ["--laplacian-dim", "4"], ["-f", "csrmv", "--indextype", "m"]):
        with pytest.raises(UsageError):
            parse_args(bad)


def test_matrices():
    a = laplacian(3, 4)
    assert a.shape == (12, 12) and a.nnz == 12 + 2 * (2 * 4 + 3 * 3)
    assert np.allclose(a.diagonal(), 4) and np.allclose(a.sum(axis=1).A1[4], 0)  # x=1, y=1: interior
    b = laplacian(3, 3, 3)
    assert b.shape == (27, 27) and b.diagonal()[13] == 6 and b.getnnz(axis=1)[13] == 7
    r = random_matrix(10, 8, 25, np.random.default_rng(0))
    assert r.shape == (10, 8) and r.nnz == 25


def test_table_layout():
    text = table([("M", 3), ("alpha", 1.0), ("function", "csrmv"), ("x", "a_value_longer_than_width")])
    legend, values = text.splitlines()
    assert legend.startswith("M" + " " * 11 + "alpha" + " " * 7)  # longest name (8) + 4
    assert values.split() == ["3", "1.00", "csrmv", "a_value_longer_than_width"]


@pytest.mark.parametrize("argv, columns", [
    (["-f", "axpyi", "-r", "d", "-n", "1000", "-z", "100"], ["nnz", "alpha"]),
    (["-f", "doti", "-r", "s"], ["nnz"]),
    (["-f", "dotci", "-r", "z"], ["nnz"]),
    (["-f", "gthrz", "-r", "c", "--indexbaseA", "1"], ["nnz"]),
    (["-f", "sctr", "-r", "d"], ["nnz"]),
    (["-f", "roti", "-r", "d", "--alpha", "0.6", "--beta", "0.8"], ["nnz", "c", "s"]),
    (["-f", "csrmv", "-r", "d", "--dimx", "12", "--dimy", "10", "--beta", "0.5", "--spmv_alg", "2"],
     ["M", "N", "nnz", "alpha", "beta", "algorithm"]),
    (["-f", "coomv", "-r", "z", "-m", "40", "-n", "30", "-z", "200", "--transposeA", "C"],
     ["M", "N", "nnz", "alpha", "beta"]),
    (["-f", "spmv", "-r", "s", "--format", "3", "--laplacian-dim", "4,4,4"],
     ["M", "N", "nnz", "alpha", "beta", "algorithm", "format"]),
    (["-f", "csrsv", "-r", "d", "--dimx", "10", "--dimy", "10", "--uplo", "U", "--transposeA", "T"],
     ["M", "nnz", "alpha", "trans", "diag_type", "fill_mode", "analysis_policy", "analysis_msec"]),
    (["-f", "csrmm", "-r", "c", "-m", "30", "-n", "4", "-k", "20", "-z", "90", "--transposeB", "T"],
     ["M", "N", "K", "nnz", "alpha", "beta", "transA", "transB"]),
    (["-f", "spmm", "-r", "d", "--format", "2", "-n", "6", "--orderB", "0", "--orderC", "0", "--indextype", "m"],
     ["M", "N", "K", "nnz", "alpha", "beta", "transA", "transB", "algorithm", "format"]),
    (["-f", "csrgemm", "-r", "d", "--dimx", "8", "--dimy", "8", "--beta", "1"],
     ["M", "N", "K", "nnz_A", "nnz_B", "nnz_C", "nnz_D", "alpha", "beta"]),
    (["-f", "gtsv_no_pivot_strided_batch", "-r", "d", "-m", "50", "--batch_count", "6", "--batch_stride", "64"],
     ["M", "batch_count", "batch_stride"]),
])
def test_run_per_family_verified(argv, columns):
    status, names, values = _run(*argv, "-v", "1", "-i", "2")
    assert status == 0
    assert names == columns + TAIL
    row = dict(zip(names, values, strict=True))
    assert row["verified"] == "yes" and row["function"] == argv[1] and row["iter"] == "2"
    assert float(row["msec"]) >= 0 and float(row["ref-msec"]) >= 0
    assert row["ctype"] == {"s": "f32_r", "d": "f64_r", "c": "f32_c", "z": "f64_c"}[argv[3]]


def test_matrix_market_file_and_import_name(tmp_path):
    path = tmp_path / "mine.mtx"
    scipy.io.mmwrite(str(path), sp.random(30, 20, density=0.2, random_state=3))
    status, names, values = _run("-f", "csrmv", "-r", "d", "--mtx", str(path), "-v", "1", "-i", "1")
    row = dict(zip(names, values, strict=True))
    assert status == 0 and row["import"] == "mine" and (row["M"], row["N"], row["nnz"]) == ("30", "20", "120")


def test_laplacian_overrides_sizes_and_random_is_default():
    _, names, values = _run("-f", "coomv", "-r", "s", "--dimx", "5", "--dimy", "6", "-m", "3", "-i", "1")
    row = dict(zip(names, values, strict=True))
    assert (row["M"], row["import"]) == ("30", "L2D")
    _, names, values = _run("-f", "coomv", "-r", "s", "-m", "9", "-n", "11", "-z", "17", "-i", "1")
    row = dict(zip(names, values, strict=True))
    assert (row["M"], row["N"], row["nnz"], row["import"]) == ("9", "11", "17", "rand")


def test_usage_errors_exit_2(capsys):
    assert cli.main(["sparse", "-f", "spmv", "--format", "4"], out=io.StringIO()) == 2
    assert cli.main(["sparse", "--nope"], out=io.StringIO()) == 2
    assert "rocmath-bench sparse" in capsys.readouterr().err
    out = io.StringIO()
    assert cli.main(["sparse", "-h"], out=out) == 0 and "--transposeA" in out.getvalue()
