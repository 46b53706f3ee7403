"""ROCSPARSE_LAYER: trace lines, bench lines that replay through rocmath-bench sparse, profile lines."""

from __future__ import annotations

import io
import re
import shlex

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs
from rocmath.bench import cli


def _logged(tmp_path, monkeypatch, layer: str):
    paths = {k: tmp_path / f"{k}.log" for k in ("trace", "bench", "profile")}
    monkeypatch.setenv("ROCSPARSE_LAYER", layer)
    for k, p in paths.items():
        monkeypatch.setenv(f"ROCSPARSE_LOG_{k.upper()}_PATH", str(p))
    return paths


def _csr(a: sp.csr_matrix):
    return rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32))


def _read(path) -> list[str]:
    from rocmath.log import close_logs

    close_logs()
    return path.read_text().splitlines() if path.exists() else []


def _calls(h):
    a = sp.random(20, 15, density=0.2, random_state=1, format="csr")
    a.sort_indices()
    descr = rs.create_mat_descr()
    dv, dp, dc = _csr(a)
    x, y = rm.to_device(np.ones(15)), rm.zeros(20)
    rs.dcsrmv(h, "N", 20, 15, a.nnz, 2.0, descr, dv, dp, dc, None, x, 0.5, y)
    rs.dcsrmv(h, "N", 20, 15, a.nnz, 2.0, descr, dv, dp, dc, None, x, 0.5, y)
    yi = rm.to_device(np.arange(1, 11, dtype=np.int32))
    v, big = rm.to_device(np.ones(10)), rm.zeros(30)
    rs.daxpyi(h, 10, 3.0, v, yi, big, 1)
    lo = sp.csr_matrix(sp.tril(a[:15, :15]) + sp.identity(15) * 4)
    lo.sort_indices()
    sd = rs.create_mat_descr()
    info = rs.create_mat_info()
    lv, lp, lc = _csr(lo)
    buf = rm.empty(max(1, rs.dcsrsv_buffer_size(h, "N", 15, lo.nnz, sd, lv, lp, lc, info)), np.uint8)
    rs.dcsrsv_analysis(h, "N", 15, lo.nnz, sd, lv, lp, lc, info, 1, 0, buf)
    rs.dcsrsv_solve(h, "N", 15, lo.nnz, 1.0, sd, lv, lp, lc, info, x, rm.zeros(15), 0, buf)
    d = rm.to_device(np.full(8 * 3, 4.0))
    off = rm.to_device(np.ones(8 * 3))
    rs.dgtsv_no_pivot_strided_batch(h, 8, off, d, off, rm.to_device(np.ones(8 * 3)), 3, 8, None)
    rm.device_synchronize()
    return a


def test_trace_lines(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "1")
    h = rs.create_handle()
    a = _calls(h)
    rs.destroy_handle(h)
    lines = _read(paths["trace"])
    mv = [ln for ln in lines if ln.startswith("rocsparse_dcsrmv,")]
    assert len(mv) == 2
    fields = mv[0].split(",")
    # function, handle, trans (111), m, n, nnz, alpha, descr, val, ptr, ind, info (null), x, beta, y
    assert len(fields) == 15 and fields[1].startswith("0x")
    assert fields[2:7] == ["N", "20", "15", str(a.nnz), "2.0"] and fields[11] == "0" and fields[13] == "0.5"
    assert all(f.startswith("0x") for f in (fields[7], fields[8], fields[12], fields[14]))
    assert any(ln.startswith("rocsparse_dcsrsv_analysis,") for ln in lines)
    assert any(ln.startswith("rocsparse_daxpyi,") for ln in lines)
    assert not _read(paths["bench"]) and not _read(paths["profile"])


def test_bench_lines_replay_through_the_cli(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "2")
    h = rs.create_handle()
    a = _calls(h)
    rs.destroy_handle(h)
    lines = _read(paths["bench"])
    assert f"rocmath-bench sparse -f csrmv -r d -m 20 -n 15 -z {a.nnz} --alpha 2 --beta 0.5 --transposeA N " \
           "--indexbaseA 0" in lines
    assert "rocmath-bench sparse -f axpyi -r d -z 10 --indexbaseA 1 --alpha 3" in lines
    assert any(ln.startswith("rocmath-bench sparse -f csrsv -r d -m 15 ") and "--uplo L --diag N" in ln
               for ln in lines)
    assert "rocmath-bench sparse -f gtsv_no_pivot_strided_batch -r d -m 8 --batch_count 3 --batch_stride 8" in lines
    assert not any("buffer_size" in ln or "analysis" in ln for ln in lines)  # no bench line for auxiliary steps
    monkeypatch.setenv("ROCSPARSE_LAYER", "0")
    for line in dict.fromkeys(lines):
        argv = shlex.split(line)
        assert argv[:2] == ["rocmath-bench", "sparse"]
        out = io.StringIO()
        assert cli.main([*argv[1:], "-i", "1", "-v", "1"], out=out) == 0, line
        legend, values = out.getvalue().splitlines()[-2:]
        row = dict(zip(legend.replace("analysis msec", "analysis_msec").split(), values.split(), strict=True))
        if argv[3] == "csrmv":  # the replayed problem has the logged sizes and scalars
            assert (row["M"], row["N"], row["nnz"], row["alpha"], row["beta"]) == ("20", "15", str(a.nnz), "2.00",
                                                                                  "0.50")


def test_profile_lines_per_distinct_problem(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "4")
    h = rs.create_handle()
    _calls(h)
    rs.destroy_handle(h)
    lines = _read(paths["profile"])
    rows = {}
    for line in lines:
        m = re.fullmatch(r'- \{ function: (\w+), calls: (\d+), device_us: ([\d.]+), mean_us: ([\d.]+), '
                         r'(?:roofline_model_us: [\d.]+, roofline_model_of: "[^"]*", )?problem: "(.*)" \}', line)
        assert m, line
        rows[m[1]] = (int(m[2]), float(m[3]), m[5])
    calls, device_us, problem = rows["rocsparse_dcsrmv"]
    assert calls == 2 and device_us > 0 and problem.startswith("rocmath-bench sparse -f csrmv -r d -m 20")
    assert rows["rocsparse_daxpyi"][0] == 1
    # Routines with no bench command are profiled under their plain arguments.
    assert rows["rocsparse_dcsrsv_analysis"][2].startswith("rocsparse_dcsrsv_analysis trans=N m=15 ")
    assert not _read(paths["trace"]) and not _read(paths["bench"])


def test_no_logging_without_the_layer(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "0")
    h = rs.create_handle()
    _calls(h)
    rs.destroy_handle(h)
    assert not any(p.exists() for p in paths.values())


def test_generic_spmv_and_spmm_are_logged_and_replay(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "3")
    h = rs.create_handle()
    a = sp.random(20, 15, density=0.2, random_state=2, format="csr")
    a.sort_indices()
    ct = rs.Datatype.f64_r
    mat = rs.create_csr_descr(20, 15, a.nnz, rm.to_device(a.indptr.astype(np.int64)),
                              rm.to_device(a.indices.astype(np.int32)), rm.to_device(a.data), rs.IndexType.i64,
                              rs.IndexType.i32, 0, ct)
    x, y = rs.create_dnvec_descr(15, rm.to_device(np.ones(15)), ct), rs.create_dnvec_descr(20, rm.zeros(20), ct)
    args = (h, "N", 2.0, mat, x, 0.5, y, ct, rs.SpMVAlg.csr_stream)
    need = rs.spmv(*args, rs.SpMVStage.buffer_size)
    rs.spmv(*args, rs.SpMVStage.compute, temp_buffer=rm.empty(need, np.uint8) if need else None)
    b, c = rm.to_device(np.ones(15 * 3)), rm.zeros(20 * 3)
    mb = rs.create_dnmat_descr(15, 3, 15, b, ct, rs.Order.column)
    mc = rs.create_dnmat_descr(20, 3, 3, c, ct, rs.Order.row)
    rs.spmm(h, "N", "N", 1.0, mat, mb, 0.0, mc, ct, rs.SpMMAlg.default, rs.SpMMStage.compute)
    rm.device_synchronize()
    np.testing.assert_allclose(c.get().reshape(20, 3), a @ np.ones((15, 3)), rtol=1e-12)
    rs.destroy_handle(h)
    trace = _read(paths["trace"])
    spmv = [ln.split(",") for ln in trace if ln.startswith("rocsparse_spmv,")]
    # function, handle, trans, alpha, mat, x, beta, y, compute_type, alg, stage, buffer_size, temp_buffer
    assert len(spmv) == 2 and all(len(f) == 13 for f in spmv)
    assert [f[10] for f in spmv] == ["1", "3"] and spmv[0][2:4] == ["N", "2.0"] and spmv[0][8:10] == ["152", "3"]
    assert sum(ln.startswith("rocsparse_spmm,") for ln in trace) == 1
    bench = _read(paths["bench"])
    # one line per compute stage (the buffer_size stage is an auxiliary step)
    assert bench == [f"rocmath-bench sparse -f spmv -r d -m 20 -n 15 -z {a.nnz} --alpha 2 --beta 0.5 --transposeA N "
                     "--indexbaseA 0 --format 2 --indextype m --spmv_alg 3",
                     f"rocmath-bench sparse -f spmm -r d -m 20 -n 3 -k 15 -z {a.nnz} --alpha 1 --beta 0 "
                     "--transposeA N --transposeB N --orderB 1 --orderC 0 --indexbaseA 0 --format 2 --indextype m "
                     "--spmm_alg 0"]
    monkeypatch.setenv("ROCSPARSE_LAYER", "0")
    for line in bench:
        out = io.StringIO()
        assert cli.main([*shlex.split(line)[1:], "-i", "1", "-v", "1"], out=out) == 0, line
        legend, values = out.getvalue().splitlines()[-2:]
        row = dict(zip(legend.split(), values.split(), strict=False))
        assert (row["M"], row["nnz"], row["alpha"]) == ("20", str(a.nnz), "2.00" if "spmv" in line else "1.00")


def test_generic_spmv_invalid_call_is_traced_and_still_fails(tmp_path, monkeypatch):
    paths = _logged(tmp_path, monkeypatch, "3")
    h = rs.create_handle()
    ct = rs.Datatype.f64_r
    x = rs.create_dnvec_descr(4, rm.zeros(4), ct)
    with pytest.raises(rs.SparseInvalidPointerError, match="'mat'"):
        rs.spmv(h, "N", 1.0, None, x, 0.0, x, ct, rs.SpMVAlg.default, rs.SpMVStage.compute)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.spmv(None, "N", 1.0, None, x, 0.0, x, ct, rs.SpMVAlg.default, rs.SpMVStage.compute)
    rs.destroy_handle(h)
    assert [ln.split(",")[4] for ln in _read(paths["trace"])] == ["0"]  # after the handle check, as rocSPARSE
    assert not _read(paths["bench"])
