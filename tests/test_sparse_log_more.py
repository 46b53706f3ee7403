"""ROCSPARSE_LAYER=2 bench lines of bsrmv, ellmv, hybmv, bsrsv, csrsm, spsv, csrilu0, csric0, spgemm and COO
spmm: each logged call's line, run through rocmath-bench sparse, rebuilds a problem of the same sizes."""

from __future__ import annotations

import io
import shlex

import numpy as np
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs
from rocmath.bench import cli

D = rs.Datatype.f64_r


def _logged(tmp_path, monkeypatch):
    path = tmp_path / "bench.log"
    monkeypatch.setenv("ROCSPARSE_LAYER", "2")
    monkeypatch.setenv("ROCSPARSE_LOG_BENCH_PATH", str(path))
    return path


def _read(path) -> list[str]:
    from rocmath.log import close_logs

    close_logs()
    return path.read_text().splitlines() if path.exists() else []


def _dev(*arrays):
    return tuple(rm.to_device(np.ascontiguousarray(a)) for a in arrays)


def _csr(a: sp.csr_matrix, base: int = 0, itype=np.int32):
    return _dev(a.data, a.indptr.astype(itype) + base, a.indices.astype(itype) + base)


def _matrix(m: int, n: int, density: float, seed: int, dominant: bool = False) -> sp.csr_matrix:
    a = sp.random(m, n, density=density, random_state=seed, format="csr")
    if dominant:  # full, dominant diagonal (square)
        a = a + sp.diags(abs(a).sum(axis=1).A1 + 1.0)
    a = sp.csr_matrix(a)
    a.sort_indices()
    return a


def _replay(line: str) -> dict[str, str]:
    """Run a bench line (one timed call, verified) and return the table's row."""
    argv = shlex.split(line)
    assert argv[:2] == ["rocmath-bench", "sparse"]
    out = io.StringIO()
    assert cli.main([*argv[1:], "-i", "1", "-v", "1"], out=out) == 0, line
    legend, values = out.getvalue().splitlines()[-2:]
    return dict(zip(legend.replace("analysis msec", "analysis_msec").split(), values.split(), strict=True))


def _bsr(a: sp.spmatrix, bd: int, column: bool = False):
    b = sp.bsr_matrix(a, blocksize=(bd, bd))
    b.sort_indices()
    blocks = b.data.transpose(0, 2, 1) if column else b.data
    return b, _dev(blocks.ravel(), b.indptr.astype(np.int32), b.indices.astype(np.int32))


def _legacy_calls(h) -> dict[str, tuple[str, dict[str, str]]]:
    """One call of each legacy routine; returns per function its expected line prefix and replayed sizes."""
    expect = {}
    # bsrmv: 6 x 4 blocks of 2, column-major blocks
    a = _matrix(12, 8, 0.3, 1)
    b, (bv, bp, bi) = _bsr(a, 2, column=True)
    descr = rs.create_mat_descr()
    rs.dbsrmv(h, rs.Direction.column, "N", 6, 4, b.nnz // 4, 2.0, descr, bv, bp, bi, 2, None,
              rm.to_device(np.ones(8)), 0.5, rm.zeros(12))
    nnzb = b.indptr[-1]
    expect["bsrmv"] = (f"-f bsrmv -r d -m 12 -n 8 -z {nnzb * 4} --blockdim 2 --direction 1 --alpha 2 --beta 0.5 "
                       "--transposeA N --indexbaseA 0", {"M": "12", "N": "8", "nnzb_A": str(nnzb), "bdim_A": "2",
                                                         "bdir_A": "column"})
    # ellmv: 10 x 7 of width 3, rows 0-4 padded after two entries, one-based
    rng = np.random.default_rng(0)
    col = np.stack([rng.choice(7, 3, replace=False) for _ in range(10)], axis=1).astype(np.int32) + 1
    col[2, :5] = -1
    val = np.where(col > 0, rng.uniform(-1, 1, col.shape), 0.0)
    ed = rs.create_mat_descr()
    rs.set_mat_index_base(ed, 1)
    rs.dellmv(h, "T", 10, 7, 1.0, ed, *_dev(val.ravel(), col.ravel()), 3, rm.to_device(np.ones(10)), 0.0,
              rm.zeros(7))
    expect["ellmv"] = ("-f ellmv -r d -m 10 -n 7 -z 30 --alpha 1 --beta 0 --transposeA T --indexbaseA 1",
                       {"M": "10", "N": "7", "ell_nnz": "30", "ell_width": "3"})
    # hybmv: an uneven 12 x 9 matrix, auto partition (ELL part and COO part)
    hm = sp.csr_matrix(_matrix(12, 9, 0.2, 3) + sp.csr_matrix((np.ones(9), (np.zeros(9, int), np.arange(9))),
                                                                 shape=(12, 9)))
    hm.sort_indices()
    hyb, hd = rs.create_hyb_mat(), rs.create_mat_descr()
    rs.dcsr2hyb(h, 12, 9, hd, *_csr(hm), hyb, 0, rs.HybPartition.auto)
    rs.dhybmv(h, "N", 1.5, hd, hyb, rm.to_device(np.ones(9)), 0.0, rm.zeros(12))
    width, coo = hyb.ell_width, hyb.coo_nnz
    assert width > 0 and coo > 0
    expect["hybmv"] = (f"-f hybmv -r d -m 12 -n 9 -z {12 * width + coo} --hybpart 1 --hybellwidth {width} "
                       "--alpha 1.5 --beta 0 --transposeA N --indexbaseA 0",
                       {"M": "12", "N": "9", "nnz": str(12 * width + coo), "partition": "user",
                        "ell_width": str(width)})
    # bsrsv: a block lower triangle of 5 x 5 blocks of 2
    t = sp.tril(_matrix(10, 10, 0.3, 4, dominant=True))
    tb, (tv, tp, ti) = _bsr(t, 2)
    sd, info = rs.create_mat_descr(), rs.create_mat_info()
    head = (h, rs.Direction.row, "N", 5, tb.nnz // 4)
    need = rs.dbsrsv_buffer_size(*head, sd, tv, tp, ti, 2, info)
    tmp = rm.empty(max(need, 1), np.uint8)
    rs.dbsrsv_analysis(*head, sd, tv, tp, ti, 2, info, 0, 0, tmp)
    rs.dbsrsv_solve(*head, 1.0, sd, tv, tp, ti, 2, info, rm.to_device(np.ones(10)), rm.zeros(10), 0, tmp)
    nnzb = tb.indptr[-1]
    expect["bsrsv"] = (f"-f bsrsv -r d -m 10 -z {nnzb * 4} --blockdim 2 --direction 0 --alpha 1 --transposeA N "
                       "--uplo L --diag N --indexbaseA 0", {"M": "10", "nnz": str(nnzb * 4), "bdim_A": "2"})
    # csrsm: an upper triangle, 3 right-hand sides stored transposed (nrhs x m, ldb 4)
    u = sp.csr_matrix(sp.triu(_matrix(12, 12, 0.25, 5, dominant=True)))
    u.sort_indices()
    md, minfo = rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_fill_mode(md, rs.FillMode.upper)
    B = rm.to_device(np.ones(4 * 12))
    args = (h, "N", "T", 12, 3, u.nnz, 2.0, md, *_csr(u), B, 4, minfo)
    tmp = rm.empty(max(rs.dcsrsm_buffer_size(*args, 0), 1), np.uint8)
    rs.dcsrsm_analysis(*args, 0, 0, tmp)
    rs.dcsrsm_solve(*args, 0, tmp)
    expect["csrsm"] = (f"-f csrsm -r d -m 12 -k 3 -z {u.nnz} --alpha 2 --transposeA N --transposeB T --uplo U "
                       "--diag N --indexbaseA 0", {"M": "12", "nnz": str(u.nnz), "nrhs": "3", "transB": "T",
                                                   "fill_mode": "upper"})
    # csrilu0 (one-based) and csric0 (a symmetric matrix)
    g = _matrix(15, 15, 0.2, 6, dominant=True)
    s = sp.csr_matrix(g + g.T)
    s.sort_indices()
    for name, mat, base in (("csrilu0", g, 1), ("csric0", s, 0)):
        fd, finfo = rs.create_mat_descr(), rs.create_mat_info()
        rs.set_mat_index_base(fd, base)
        fargs = (h, 15, mat.nnz, fd, *_csr(mat, base), finfo)
        tmp = rm.empty(max(getattr(rs, f"d{name}_buffer_size")(*fargs), 1), np.uint8)
        getattr(rs, f"d{name}_analysis")(*fargs, 0, 0, tmp)
        getattr(rs, f"d{name}")(*fargs, 0, tmp)
        expect[name] = (f"-f {name} -r d -m 15 -z {mat.nnz} --indexbaseA {base}", {"M": "15", "nnz": str(mat.nnz)})
    rm.device_synchronize()
    return expect


def test_legacy_routines_replay(tmp_path, monkeypatch):
    path = _logged(tmp_path, monkeypatch)
    h = rs.create_handle()
    expect = _legacy_calls(h)
    rs.destroy_handle(h)
    lines = _read(path)
    # one line per computing call: no buffer size, analysis or conversion (csr2hyb) step writes one
    assert len(lines) == len(expect)
    monkeypatch.setenv("ROCSPARSE_LAYER", "0")
    for function, (command, sizes) in expect.items():
        line = f"rocmath-bench sparse {command}"
        assert line in lines, (line, lines)
        row = _replay(line)
        assert row["function"] == function and all(row[k] == v for k, v in sizes.items()), (function, row)


def _generic_calls(h) -> list[tuple[str, dict[str, str]]]:
    """spsv (COO, upper, unit), spgemm (i64 / i32 CSR, with and without D); returns the lines expected and
    the replayed sizes."""
    expect = []
    u = sp.csr_matrix(sp.triu(_matrix(12, 12, 0.25, 7, dominant=True)))
    c = u.tocoo()
    A = rs.create_coo_descr(12, 12, u.nnz, *_dev(c.row.astype(np.int32), c.col.astype(np.int32), c.data),
                            rs.IndexType.i32, 0, D)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.fill_mode, rs.FillMode.upper)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.diag_type, rs.DiagType.unit)
    x, y = rs.create_dnvec_descr(12, rm.to_device(np.ones(12)), D), rs.create_dnvec_descr(12, rm.zeros(12), D)
    args = (h, "N", 1.0, A, x, y, D, rs.SpSVAlg.default)
    tmp = rm.empty(rs.spsv(*args, rs.SpSVStage.buffer_size), np.uint8)
    rs.spsv(*args, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(*args, rs.SpSVStage.compute, None, tmp)
    expect.append((f"-f spsv -r d -m 12 -z {u.nnz} --alpha 1 --transposeA N --uplo U --diag U --indexbaseA 0 "
                   "--format 0 --indextype s", {"M": "12", "nnz": str(u.nnz), "format": "coo", "fill_mode": "upper",
                                                "diag_type": "unit"}))

    def csr(a):
        return rs.create_csr_descr(*a.shape, a.nnz, *_dev(a.indptr.astype(np.int64), a.indices.astype(np.int32),
                                                          a.data), rs.IndexType.i64, rs.IndexType.i32, 0, D)

    a, b, d = _matrix(10, 8, 0.3, 8), _matrix(8, 6, 0.3, 9), _matrix(10, 6, 0.3, 10)
    for beta, dm in ((1.0, d), (None, sp.csr_matrix((10, 6)))):
        Cd = rs.create_csr_descr(10, 6, 0, rm.zeros(11, np.int64), None, None, rs.IndexType.i64, rs.IndexType.i32,
                                 0, D)
        gargs = (h, "N", "N", 2.0, csr(a), csr(b), beta, csr(dm), Cd, D, rs.SpGEMMAlg.default)
        tmp = rm.empty(max(rs.spgemm(*gargs, rs.SpGEMMStage.buffer_size), 1), np.uint8)
        rs.spgemm(*gargs, rs.SpGEMMStage.nnz, None, tmp)
        nnz_c = rs.spmat_get_size(Cd)[2]
        rs.csr_set_pointers(Cd, Cd.row_data, rm.empty(nnz_c, np.int32), rm.empty(nnz_c))
        rs.spgemm(*gargs, rs.SpGEMMStage.compute, None, tmp)
        flags = "--alpha 2 --beta 1" if beta else "--alpha 2"
        expect.append((f"-f spgemm -r d -m 10 -n 6 -k 8 -z {a.nnz} {flags} --transposeA N --transposeB N "
                       "--indexbaseA 0 --format 2 --indextype m",
                       {"M": "10", "N": "6", "K": "8", "nnz_A": str(a.nnz), "nnz_D": str(a.nnz if beta else 0)}))
    rm.device_synchronize()
    return expect


def test_generic_spsv_and_spgemm_replay(tmp_path, monkeypatch):
    path = _logged(tmp_path, monkeypatch)
    h = rs.create_handle()
    expect = _generic_calls(h)
    rs.destroy_handle(h)
    lines = _read(path)
    assert lines == [f"rocmath-bench sparse {command}" for command, _ in expect]  # compute stages only
    monkeypatch.setenv("ROCSPARSE_LAYER", "0")
    for line, (_, sizes) in zip(lines, expect, strict=True):
        row = _replay(line)
        assert all(row[k] == v for k, v in sizes.items()), (line, row)


def test_spmm_on_coo_replays(tmp_path, monkeypatch):
    path = _logged(tmp_path, monkeypatch)
    h = rs.create_handle()
    a = _matrix(10, 8, 0.3, 11).tocoo()
    A = rs.create_coo_descr(10, 8, a.nnz, *_dev(a.row.astype(np.int64), a.col.astype(np.int64), a.data),
                            rs.IndexType.i64, 0, D)
    mb = rs.create_dnmat_descr(8, 3, 8, rm.to_device(np.ones(24)), D, rs.Order.column)
    mc = rs.create_dnmat_descr(10, 3, 3, rm.zeros(30), D, rs.Order.row)
    rs.spmm(h, "N", "N", 1.0, A, mb, 0.0, mc, D, rs.SpMMAlg.default, rs.SpMMStage.compute)
    rm.device_synchronize()
    rs.destroy_handle(h)
    lines = _read(path)
    assert lines == [f"rocmath-bench sparse -f spmm -r d -m 10 -n 3 -k 8 -z {a.nnz} --alpha 1 --beta 0 "
                     "--transposeA N --transposeB N --orderB 1 --orderC 0 --indexbaseA 0 --format 0 --indextype d "
                     "--spmm_alg 0"]
    monkeypatch.setenv("ROCSPARSE_LAYER", "0")
    row = _replay(lines[0])
    assert (row["M"], row["N"], row["K"], row["nnz"], row["format"], row["itype"]) == ("10", "3", "8", str(a.nnz),
                                                                                       "coo", "i64")


def test_an_spgemm_without_its_product_writes_no_line(tmp_path, monkeypatch):
    path = _logged(tmp_path, monkeypatch)
    h = rs.create_handle()
    a = _matrix(8, 8, 0.3, 12, dominant=True)
    # spgemm without its product (alpha null): C := beta D; the symbolic stage neither
    d = rs.create_csr_descr(8, 8, a.nnz, *_dev(a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data),
                            rs.IndexType.i32, rs.IndexType.i32, 0, D)
    Cd = rs.create_csr_descr(8, 8, 0, rm.zeros(9, np.int32), None, None, rs.IndexType.i32, rs.IndexType.i32, 0, D)
    gargs = (h, "N", "N", None, d, d, 2.0, d, Cd, D, rs.SpGEMMAlg.default)
    tmp = rm.empty(max(rs.spgemm(*gargs, rs.SpGEMMStage.buffer_size), 1), np.uint8)
    rs.spgemm(*gargs, rs.SpGEMMStage.nnz, None, tmp)
    nnz_c = rs.spmat_get_size(Cd)[2]
    rs.csr_set_pointers(Cd, Cd.row_data, rm.empty(nnz_c, np.int32), rm.empty(nnz_c))
    rs.spgemm(*gargs, rs.SpGEMMStage.compute, None, tmp)
    rs.spgemm(*gargs, rs.SpGEMMStage.symbolic, None, tmp)
    rm.device_synchronize()
    np.testing.assert_allclose(Cd.val_data.get(), 2.0 * a.data)
    rs.destroy_handle(h)
    assert _read(path) == []
