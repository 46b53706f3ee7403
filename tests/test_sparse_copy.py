"""rocmath.sparse copy_hyb_mat and copy_mat_info (deep copies, rocSPARSE's rules for what is copied and for a
destination that already holds data), and the ROCSPARSE_LAYER lines of the routines added with them."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from test_sparse_logging import _logged, _read

import rocmath as rm
import rocmath.sparse as rs


def _csr(a: sp.csr_matrix):
    return rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32))


def _hyb(h, a: sp.csr_matrix, width: int) -> rs.HybMat:
    hyb = rs.create_hyb_mat()
    rs.dcsr2hyb(h, *a.shape, rs.create_mat_descr(), *_csr(a), hyb, width, rs.HybPartition.user)
    return hyb


def _hybmv(h, hyb: rs.HybMat, x: np.ndarray) -> np.ndarray:
    y = rm.zeros(hyb.m)
    rs.dhybmv(h, "N", 1.0, rs.create_mat_descr(), hyb, rm.to_device(x), 0.0, y)
    return y.get()


def test_copy_hyb_mat_is_a_deep_copy():
    rng = np.random.default_rng(0)
    a = sp.random(30, 20, density=0.3, random_state=1, format="csr")
    a.sort_indices()
    h = rs.create_handle()
    src = _hyb(h, a, 3)
    assert src.ell_nnz and src.coo_nnz  # both parts
    dest = rs.create_hyb_mat()
    rs.copy_hyb_mat(dest, src)
    fields = ("m", "n", "partition", "ell_width", "ell_nnz", "coo_nnz", "data_type", "index_type")
    assert all(getattr(dest, f) == getattr(src, f) for f in fields)
    for f in ("ell_col_ind", "ell_val", "coo_row_ind", "coo_col_ind", "coo_val"):
        assert getattr(dest, f).ptr != getattr(src, f).ptr
        assert np.array_equal(getattr(dest, f).get(), getattr(src, f).get())
    x = rng.standard_normal(20)
    np.testing.assert_allclose(_hybmv(h, dest, x), a @ x, rtol=1e-12, atol=1e-12)
    # The copy lives on its own: src refilled with another matrix of the same shape, then copied over dest in place.
    b = a.copy()
    b.data = -2 * b.data
    rs.dcsr2hyb(h, *b.shape, rs.create_mat_descr(), *_csr(b), src, 3, rs.HybPartition.user)
    np.testing.assert_allclose(_hybmv(h, dest, x), a @ x, rtol=1e-12, atol=1e-12)
    kept = dest.ell_val.ptr
    rs.copy_hyb_mat(dest, src)
    assert dest.ell_val.ptr == kept
    np.testing.assert_allclose(_hybmv(h, dest, x), b @ x, rtol=1e-12, atol=1e-12)
    rs.destroy_hyb_mat(src)
    np.testing.assert_allclose(_hybmv(h, dest, x), b @ x, rtol=1e-12, atol=1e-12)


def test_copy_hyb_mat_checks():
    h = rs.create_handle()
    a = sp.csr_matrix(np.eye(4))
    src = _hyb(h, a, 1)
    for args, arg, index in (((None, src), "dest", 1), ((rs.create_hyb_mat(), None), "src", 2),
                             ((src, src), "src", 2)):
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            rs.copy_hyb_mat(*args)
        assert (err.value.arg, err.value.index) == (arg, index)
    other = _hyb(h, sp.csr_matrix(np.eye(5)), 1)  # holds a matrix of another shape
    before = other.ell_val.get()
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.copy_hyb_mat(other, src)
    assert (err.value.arg, err.value.index) == ("dest", 1)
    assert other.m == 5 and np.array_equal(other.ell_val.get(), before)
    single = rs.create_hyb_mat()
    rs.scsr2hyb(h, 4, 4, rs.create_mat_descr(), rm.to_device(np.ones(4, np.float32)),
                *_csr(a)[1:], single, 1, rs.HybPartition.user)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.copy_hyb_mat(single, src)  # another precision
    destroyed = rs.create_hyb_mat()
    rs.destroy_hyb_mat(destroyed)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.copy_hyb_mat(destroyed, src)
    empty = rs.create_hyb_mat()
    rs.copy_hyb_mat(empty, rs.create_hyb_mat())  # nothing to copy
    assert (empty.m, empty.ell_val, empty.coo_val) == (0, None, None)


def test_copy_mat_info_copies_analyses_and_pivots():
    h, d = rs.create_handle(), rs.create_mat_descr()
    a = sp.csr_matrix(np.array([[4.0, 1.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 4.0]]))
    v, p, c = _csr(a)
    src = rs.create_mat_info()
    rs.dcsrmv_analysis(h, "N", 3, 3, a.nnz, d, v, p, c, src)
    buf = rm.empty(4096, np.uint8)
    rs.dcsrilu0_analysis(h, 3, a.nnz, d, v, p, c, src, 1, 0, buf)
    rs.dcsrilu0_numeric_boost(h, src, 1, 0.5, 9.0)
    rs.csrilu0_set_tolerance(h, src, 0.25)
    dest = rs.create_mat_info()
    rs.dcsric0_analysis(h, 3, a.nnz, d, v, p, c, dest, 1, 0, buf)  # dest keeps what src lacks
    rs.copy_mat_info(dest, src)
    assert dest.csrmv.bounds.ptr != src.csrmv.bounds.ptr and dest.csrmv.descr is d
    assert np.array_equal(dest.csrmv.bounds.get(), src.csrmv.bounds.get())
    assert ("csrilu0", False, rs.FillMode.lower) in dest.precond.analyses
    assert ("csric0", False, rs.FillMode.lower) in dest.precond.analyses
    assert dest.precond.boost == src.precond.boost and dest.precond.singular_tol == 0.0  # the tolerance stays
    # dest's analysis serves csrmv and csrilu0; their results land in dest's own pivot.
    y = rm.zeros(3)
    rs.dcsrmv(h, "N", 3, 3, a.nnz, 1.0, d, v, p, c, dest, rm.to_device(np.ones(3)), 0.0, y)
    assert np.array_equal(y.get(), a.toarray().sum(axis=1))
    singular = sp.csr_matrix(np.ones((3, 3)))
    sv, sp_, sc = _csr(singular)
    rs.dcsrilu0_numeric_boost(h, src, 0, None, None)
    rs.dcsrilu0_analysis(h, 3, 9, d, sv, sp_, sc, src, 1, 0, buf)
    rs.dcsrilu0(h, 3, 9, d, sv, sp_, sc, src, 0, buf)
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csrilu0_zero_pivot(h, src, None)
    dv = rm.to_device(singular.data)
    rs.dcsrilu0_analysis(h, 3, 9, d, dv, sp_, sc, dest, 1, 0, buf)
    rs.copy_mat_info(dest, src)  # the boost is always copied: off now
    assert dest.precond.boost is None
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csrilu0_zero_pivot(h, dest, None)  # the pivot came along
    rs.csrilu0_clear(h, src)
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csrilu0_zero_pivot(h, dest, None)  # ... and stays when src changes


def test_copy_mat_info_checks():
    info = rs.create_mat_info()
    for args, arg, index in (((None, info), "dest", 1), ((info, None), "src", 2), ((info, info), "src", 2)):
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            rs.copy_mat_info(*args)
        assert (err.value.arg, err.value.index) == (arg, index)
    gone = rs.create_mat_info()
    rs.destroy_mat_info(gone)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.copy_mat_info(gone, info)
    fresh = rs.create_mat_info()
    rs.copy_mat_info(fresh, info)  # nothing to copy
    assert (fresh.csrmv, fresh.csrsv, fresh.csrgemm, fresh.precond) == (None, None, None, None)


def test_new_routines_are_traced_and_have_no_unreplayable_bench_lines(tmp_path, monkeypatch):
    """bsrmv_analysis / bsrmv with info / bsrmv_clear and the ds / dc boosts write trace lines; a mixed-precision
    spmv, one of a format the bench does not build, or a symmetric csrmv writes none to the bench log (it could not
    replay them)."""
    paths = _logged(tmp_path, monkeypatch, "3")
    h = rs.create_handle()
    a = sp.csr_matrix(np.eye(4))
    v, p, c = _csr(a)
    d, info = rs.create_mat_descr(), rs.create_mat_info()
    rs.dbsrmv_analysis(h, 0, "N", 2, 2, 2, d, rm.to_device(np.ones(8)), rm.to_device(np.array([0, 1, 2], np.int32)),
                       rm.to_device(np.array([0, 1], np.int32)), 2, info)
    rs.bsrmv_clear(h, info)
    rs.dscsrilu0_numeric_boost(h, info, 1, 0.5, 2.0)
    f32, f64 = rs.Datatype.f32_r, rs.Datatype.f64_r
    mat = rs.create_csr_descr(4, 4, 4, p, c, rm.to_device(np.ones(4, np.float32)), 2, 2, 0, f32)
    yv = rm.zeros(4)
    x, y = rs.create_dnvec_descr(4, rm.to_device(np.ones(4)), f64), rs.create_dnvec_descr(4, yv, f64)
    rs.spmv(h, "N", 1.0, mat, x, 0.0, y, f64, 0, rs.SpMVStage.compute)
    ell = rs.create_ell_descr(4, 4, rm.to_device(np.arange(4, dtype=np.int32)), v, 1, 2, 0, f64)
    rs.spmv(h, "N", 1.0, ell, x, 0.0, y, f64, 0, rs.SpMVStage.compute)
    sym = rs.create_mat_descr()
    rs.set_mat_type(sym, rs.MatrixType.symmetric)
    rs.dcsrmv(h, "N", 4, 4, 4, 1.0, sym, v, p, c, None, rm.to_device(np.ones(4)), 0.0, yv)  # general ones only
    rm.device_synchronize()
    assert np.array_equal(yv.get(), np.ones(4))
    rs.destroy_handle(h)
    trace = _read(paths["trace"])
    for name in ("rocsparse_dbsrmv_analysis,", "rocsparse_bsrmv_clear,", "rocsparse_dscsrilu0_numeric_boost,"):
        assert sum(ln.startswith(name) for ln in trace) == 1, name
    assert sum(ln.startswith("rocsparse_spmv,") for ln in trace) == 2
    assert not _read(paths["bench"])
