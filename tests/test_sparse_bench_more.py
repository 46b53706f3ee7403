"""rocmath-bench sparse: bsrmv, ellmv, hybmv, bsrsv, csrsm, spsv, csrilu0, csric0, spgemm and COO spmm.

Each function runs at a small size with ``-v 1``: its columns, its sizes and the verification (the
rocmath result against the SciPy reference); a deliberately wrong rocmath routine fails the
verification with exit status 1.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import rocmath as rm
import rocmath.sparse as rs
from rocmath.bench import cli
from rocmath.bench.rocsparse_cli import UsageError, balanced_matrix, parse_args

TAIL = ["GFlop/s", "GB/s", "msec", "iter", "verified", "function", "import", "ctype", "itype", "jtype", "ref-msec",
        "ratio", "ratio-lo", "ratio-hi"]
SOLVE = ["alpha", "trans", "diag_type", "fill_mode"]


def _run(*argv: str) -> tuple[int, dict[str, str], list[str]]:
    """Exit status, the table's row by column and the column names."""
    out = io.StringIO()
    status = cli.main(["sparse", *argv], out=out)
    lines = [ln for ln in out.getvalue().splitlines() if ln and not ln.startswith("Device")]
    if status != 0 or len(lines) < 2:
        return status, {}, []
    names = lines[-2].replace("analysis msec", "analysis_msec").split()
    return status, dict(zip(names, lines[-1].split(), strict=True)), names


def test_new_flags_and_defaults():
    a = parse_args(["-f", "bsrmv"])
    assert (a.blockdim, a.direction, a.hybpart, a.hybellwidth) == (2, 0, 0, 0)
    a = parse_args(["-f", "hybmv", "--hybpart", "1", "--hybellwidth", "3", "--blockdim", "4", "--direction", "1"])
    assert (a.blockdim, a.direction, a.hybpart, a.hybellwidth) == (4, 1, 1, 3)
    assert parse_args(["-f", "spgemm", "--indextype", "m"]).indextype == "m"
    for bad in (["--direction", "2"], ["--hybpart", "3"], ["-f", "bsrsv", "--blockdim", "0"],
                ["--hybellwidth", "-1"], ["-f", "csrilu0", "--indextype", "m"], ["-f", "bsrxmv"]):
        with pytest.raises(UsageError):
            parse_args(bad)


def test_balanced_matrix_spreads_rows():
    a = balanced_matrix(10, 8, 25, np.random.default_rng(0))
    assert a.nnz == 25 and sorted(set(np.diff(a.indptr))) == [2, 3]
    full = balanced_matrix(4, 5, 18, np.random.default_rng(1))  # rows more than half full
    assert full.nnz == 18 and np.diff(full.indptr).tolist() == [5, 5, 4, 4]
    assert np.all(full.data != 0) and balanced_matrix(3, 4, 99, np.random.default_rng(2)).nnz == 12


@pytest.mark.parametrize("argv, columns, expect", [
    (["-f", "bsrmv", "-r", "s", "-m", "20", "-n", "15", "-z", "60", "--blockdim", "3", "--direction", "1",
      "--beta", "1"], ["M", "N", "nnzb_A", "bdim_A", "bdir_A", "alpha", "beta"],
     {"M": "21", "N": "15", "nnzb_A": "7", "bdim_A": "3", "bdir_A": "column"}),
    (["-f", "bsrmv", "-r", "d", "--dimx", "5", "--dimy", "5", "--indexbaseA", "1"],
     ["M", "N", "nnzb_A", "bdim_A", "bdir_A", "alpha", "beta"], {"M": "26", "import": "L2D", "bdir_A": "row"}),
    (["-f", "ellmv", "-r", "d", "-m", "30", "-n", "20", "-z", "90", "--transposeA", "T", "--indexbaseA", "1"],
     ["M", "N", "ell_nnz", "ell_width", "alpha", "beta"], {"ell_nnz": "90", "ell_width": "3"}),
    (["-f", "hybmv", "-r", "c", "-m", "30", "-n", "20", "-z", "100", "--hybpart", "1", "--hybellwidth", "2"],
     ["M", "N", "nnz", "alpha", "beta", "partition", "ell_width"], {"nnz": "100", "partition": "user",
                                                                   "ell_width": "2"}),
    (["-f", "hybmv", "-r", "d", "--dimx", "6", "--dimy", "5", "--transposeA", "T", "--beta", "0.5"],
     ["M", "N", "nnz", "alpha", "beta", "partition"], {"M": "30", "partition": "auto"}),
    (["-f", "bsrsv", "-r", "d", "-m", "20", "-z", "80", "--blockdim", "3", "--uplo", "U", "--transposeA", "T"],
     ["M", "nnz", "bdim_A", "bdir_A", *SOLVE, "analysis_policy", "analysis_msec"],
     {"M": "21", "nnz": "81", "fill_mode": "upper"}),
    (["-f", "csrsm", "-r", "d", "-m", "30", "-z", "100", "-k", "4", "--transposeB", "T", "--alpha", "2"],
     ["M", "nnz", "nrhs", "alpha", "transA", "transB", "diag_type", "fill_mode", "analysis_policy", "analysis_msec"],
     {"M": "30", "nnz": "100", "nrhs": "4", "transB": "T"}),
    (["-f", "spsv", "-r", "d", "-m", "30", "-z", "100", "--uplo", "U", "--diag", "U", "--indexbaseA", "1"],
     ["M", "nnz", *SOLVE, "analysis_msec", "algorithm", "format"],
     {"nnz": "100", "format": "coo", "diag_type": "unit"}),
    (["-f", "spsv", "-r", "d", "--dimx", "5", "--dimy", "5", "--format", "2", "--indextype", "m",
      "--transposeA", "C"], ["M", "nnz", *SOLVE, "analysis_msec", "algorithm", "format"],
     {"M": "25", "format": "csr", "itype": "i64", "jtype": "i32"}),
    (["-f", "csrilu0", "-r", "d", "--dimx", "6", "--dimy", "6", "--indexbaseA", "1"],
     ["M", "nnz", "analysis_policy", "solve_policy", "analysis_msec"], {"M": "36", "nnz": "156"}),
    (["-f", "csric0", "-r", "z", "-m", "30", "-z", "150"],
     ["M", "nnz", "analysis_policy", "solve_policy", "analysis_msec"], {"M": "30", "nnz": "150"}),
    (["-f", "spgemm", "-r", "d", "--format", "2", "-m", "20", "-n", "15", "-k", "10", "-z", "40", "--beta", "1",
      "--indextype", "m", "--indexbaseA", "1"],
     ["M", "N", "K", "nnz_A", "nnz_B", "nnz_C", "nnz_D", "alpha", "beta", "analysis_msec"],
     {"M": "20", "N": "15", "K": "10", "nnz_A": "40", "nnz_D": "40"}),
])
def test_run_verified(argv, columns, expect):
    status, row, names = _run(*argv, "-v", "1", "-i", "1")
    assert status == 0
    assert names == columns + TAIL
    assert row["verified"] == "yes" and row["function"] == argv[1] and row["iter"] == "1"
    assert row["ctype"] == {"s": "f32_r", "d": "f64_r", "c": "f32_c", "z": "f64_c"}[argv[3]]
    assert all(row[k] == v for k, v in expect.items()), (row, expect)
    # Times print with two decimals, as rocsparse-bench prints them: a reference call of a few microseconds
    # (scipy.sparse on these small matrices) is 0.00.
    assert float(row["msec"]) >= 0 and float(row["ref-msec"]) >= 0


def test_spmm_coo_verified():
    status, row, _ = _run("-f", "spmm", "-r", "d", "--format", "0", "-m", "20", "-n", "4", "-k", "10", "-z", "40",
                          "--orderC", "0", "--beta", "1", "-v", "1", "-i", "1")
    assert status == 0 and row["format"] == "coo" and row["verified"] == "yes"


def test_formats_and_operations_rocmath_rejects_exit_2():
    for argv in (["-f", "spgemm"], ["-f", "spsv", "--format", "3"], ["-f", "bsrmv", "--transposeA", "T"],
                 ["-f", "bsrsv", "--transposeA", "C"], ["-f", "spgemm", "--format", "2", "--transposeA", "T"],
                 ["-f", "hybmv", "-m", "10", "-n", "10", "-z", "20", "--hybpart", "1", "--hybellwidth", "9"]):
        assert cli.main(["sparse", *argv, "-i", "1"], out=io.StringIO()) == 2, argv


def _scaled(index: int):
    """A wrapper of a routine that passes its scalar argument ``index`` off by 0.1 %."""
    def wrap(orig):
        return lambda *args: orig(*args[:index], args[index] * 1.001, *args[index + 1:])
    return wrap


def _touched(which: str):
    """A wrapper of csrilu0 / csric0 that changes one value after the factorization: the first entry of
    the lower triangle, or the first strictly upper entry (csric0 must leave those as they were)."""
    def wrap(orig):
        def call(*args):
            orig(*args)
            rm.device_synchronize()
            val, ptr, ind = (args[i].get() for i in (4, 5, 6))
            base = ptr[0]
            rows = np.repeat(np.arange(ptr.size - 1), np.diff(ptr))
            k = np.flatnonzero(ind - base > rows if which == "upper" else ind - base <= rows)[0]
            val[k] *= 1.01
            args[4].set(val)
        return call
    return wrap


@pytest.mark.parametrize("name, wrap, argv", [
    ("dbsrmv", _scaled(6), ["-f", "bsrmv", "-m", "12", "-n", "10", "-z", "40"]),
    ("dcsrsm_solve", _scaled(6), ["-f", "csrsm", "-m", "20", "-z", "60", "-k", "2"]),
    ("spsv", _scaled(2), ["-f", "spsv", "-m", "20", "-z", "60"]),
    ("spgemm", _scaled(3), ["-f", "spgemm", "--format", "2", "-m", "12", "-n", "10", "-k", "8", "-z", "30"]),
    ("dcsrilu0", _touched("lower"), ["-f", "csrilu0", "-m", "20", "-z", "70"]),
    ("dcsric0", _touched("upper"), ["-f", "csric0", "-m", "20", "-z", "70"]),
])
def test_a_wrong_result_fails_verification(monkeypatch, capsys, name, wrap, argv):
    monkeypatch.setattr(rs, name, wrap(getattr(rs, name)))
    assert cli.main(["sparse", *argv, "-r", "d", "-v", "1", "-i", "1"], out=io.StringIO()) == 1
    assert "above tolerance" in capsys.readouterr().err
