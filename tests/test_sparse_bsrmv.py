"""rocmath.sparse bsrmv with its analysis (bsrmv_analysis / bsrmv with info / bsrmv_clear and the deprecated _ex
names): results against scipy.sparse, bitwise equal with and without analysis, the analysed partition really
used, statuses in rocSPARSE's check order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded, product_scale, random_csr, scalar, vec

import rocmath as rm
import rocmath.sparse as rs
import rocmath.sparse._formats as formats
from rocmath.precision import SDCZ, Precision
from rocmath.testing import assert_close, examples


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def bsr(a: sp.csr_matrix, bd: int, base: int, direction: rs.Direction, it=np.int32):
    """``a`` (its sizes multiples of ``bd``) as rocSPARSE's BSR arrays on the device, and its block count."""
    b = a.tobsr(blocksize=(bd, bd))
    b.sort_indices()
    blocks = b.data if direction is rs.Direction.row else b.data.transpose(0, 2, 1)
    return (rm.to_device(np.ascontiguousarray(blocks).ravel()), rm.to_device((b.indptr + base).astype(it)),
            rm.to_device((b.indices + base).astype(it)), b.indices.size)


def descr(base: int = 0, storage: rs.StorageMode = rs.StorageMode.sorted) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    rs.set_mat_storage_mode(d, storage)
    return d


@settings(max_examples=examples(30))
@given(p=st.sampled_from(SDCZ), mb=st.sampled_from([1, 3, 20]), nb=st.sampled_from([1, 4, 11]),
       bd=st.sampled_from([1, 2, 3]), density=st.sampled_from([0.05, 0.3, 1.0]), base=st.sampled_from([0, 1]),
       direction=st.sampled_from(list(rs.Direction)), ex=st.booleans(), seed=st.integers(0, 2**16))
def test_bsrmv_with_analysis_matches_scipy_and_the_plain_product(p, mb, nb, bd, density, base, direction, ex, seed):
    rng = np.random.default_rng(seed)
    a = random_csr(rng, mb * bd, nb * bd, density, p.dtype)
    bv, bp, bc, nnzb = bsr(a, bd, base, direction)
    h, d, info = rs.create_handle(), descr(base), rs.create_mat_info()
    suffix = "_ex" if ex else ""
    fn(p, f"bsrmv{suffix}_analysis")(h, direction, "N", mb, nb, nnzb, d, bv, bp, bc, bd, info)
    if nnzb:  # 1 x 1 blocks: csrmv's analysis; larger ones: rocmath's own slot
        kept = info.csrmv if bd == 1 else info.bsrmv
        assert kept is not None and kept.bounds.get()[-1] == mb
    x, y0 = vec(rng, nb * bd, p.dtype), vec(rng, mb * bd, p.dtype)
    alpha, beta = scalar(p, 1.5 - 0.5j), scalar(p, -0.25)
    y_full, y = padded(y0)
    fn(p, f"bsrmv{suffix}")(h, direction, "N", mb, nb, nnzb, alpha, d, bv, bp, bc, bd, info, rm.to_device(x), beta, y)
    assert_close(y.get(), (alpha * (a @ x) + beta * y0).astype(p.dtype), p, "reduction", max(1, nb * bd),
                 scale=product_scale(p, alpha, a, x, beta, y0))
    margins_untouched(y_full, y0.size)
    plain = rm.to_device(y0)
    fn(p, "bsrmv")(h, direction, "N", mb, nb, nnzb, alpha, d, bv, bp, bc, bd, None, rm.to_device(x), beta, plain)
    assert np.array_equal(plain.get(), y.get())  # each block row sums in storage order, whatever the partition
    (rs.bsrmv_ex_clear if ex else rs.bsrmv_clear)(h, info)
    assert info.csrmv is None and info.bsrmv is None


def _spy(monkeypatch) -> list:
    """Record the block-row partition each block_rows launch gets."""
    seen = []
    kernel = formats.kf.block_rows

    def spy(*args):
        seen.append(np.array(args[-1]))
        return kernel(*args)

    monkeypatch.setattr(formats.kf, "block_rows", spy)
    return seen


def test_bsrmv_runs_on_the_analysed_partition(monkeypatch):
    """A power-law-like matrix: the analysis balances block rows by stored blocks, and bsrmv launches on exactly
    that partition (without info: rows split evenly)."""
    rng = np.random.default_rng(7)
    mb, nb, bd = 600, 40, 2
    lengths = np.minimum(nb, 1 + (rng.pareto(1.2, mb) * 2).astype(int))
    lengths[:5] = nb  # a few dense block rows
    rows = np.repeat(np.arange(mb), lengths)
    cols = np.concatenate([rng.choice(nb, k, replace=False) for k in lengths])
    pattern = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(mb, nb))
    a = sp.kron(pattern, np.ones((bd, bd)), format="csr")
    a.data = rng.standard_normal(a.nnz)
    bv, bp, bc, nnzb = bsr(a, bd, 0, rs.Direction.column)
    h, d, info = rs.create_handle(), descr(), rs.create_mat_info()
    rs.dbsrmv_analysis(h, rs.Direction.column, "N", mb, nb, nnzb, d, bv, bp, bc, bd, info)
    assert info.csrmv is None  # larger blocks keep rocmath's partition apart from csrmv's analysis
    bounds = info.bsrmv.bounds.get()
    assert bounds[0] == 0 and bounds[-1] == mb and np.all(np.diff(bounds) >= 0)
    per_group = np.diff(np.concatenate([[0], np.cumsum(lengths)])[bounds])
    nblocks = bounds.size - 1
    assert nblocks == -(-nnzb * bd * bd // rs._level2.ANALYSIS_BLOCK_NNZ)
    assert per_group.max() <= nnzb / nblocks + nb  # balanced to within one block row
    seen = _spy(monkeypatch)
    x, y = rm.to_device(rng.standard_normal(nb * bd)), rm.zeros(mb * bd)
    rs.dbsrmv(h, rs.Direction.column, "N", mb, nb, nnzb, 1.0, d, bv, bp, bc, bd, info, x, 0.0, y)
    rs.dbsrmv(h, rs.Direction.column, "N", mb, nb, nnzb, 1.0, d, bv, bp, bc, bd, None, x, 0.0, y)
    rm.device_synchronize()
    assert np.array_equal(seen[0], bounds)
    assert np.array_equal(seen[1], (np.arange(257) * mb) // 256)
    np.testing.assert_allclose(y.get(), a @ x.get(), rtol=1e-12, atol=1e-12)
    # The generic spmv of a BSR descriptor: its preprocess stage (default algorithm) is this analysis.
    f64, i32 = rs.Datatype.f64_r, rs.IndexType.i32
    mat = rs.create_bsr_descr(mb, nb, nnzb, rs.Direction.column, bd, bp, bc, bv, i32, i32, 0, f64)
    X, Y = rs.create_dnvec_descr(nb * bd, x, f64), rs.create_dnvec_descr(mb * bd, y, f64)
    for stage in rs.SpMVStage:
        assert rs.spmv(h, "N", 2.0, mat, X, 0.0, Y, f64, rs.SpMVAlg.default, stage) == 0
    rm.device_synchronize()
    assert np.array_equal(mat.info.csrmv.bounds.get(), bounds) and np.array_equal(seen[2], bounds)
    np.testing.assert_allclose(y.get(), 2 * (a @ x.get()), rtol=1e-12, atol=1e-12)


def test_bsrmv_analysis_of_another_matrix():
    """1 x 1 blocks: an analysis of another matrix is an error (rocSPARSE's csrmv path checks it); larger blocks:
    it is not used (rocSPARSE ignores the info there).  Unsorted storage is never analysed nor uses one."""
    a = sp.csr_matrix(np.arange(1.0, 17.0).reshape(4, 4))
    h, d, info = rs.create_handle(), descr(), rs.create_mat_info()
    x = rm.to_device(np.ones(4))
    v1, p1, c1, n1 = bsr(a, 1, 0, rs.Direction.row)
    v2, p2, c2, n2 = bsr(a, 2, 0, rs.Direction.row)
    rs.dbsrmv_analysis(h, 0, "N", 4, 4, n1, d, v1, p1, c1, 1, info)  # a CSR matrix's analysis
    y = rm.zeros(4)
    rs.dbsrmv(h, 0, "N", 2, 2, n2, 1.0, d, v2, p2, c2, 2, info, x, 0.0, y)  # not this one's: not used
    assert np.array_equal(y.get(), a.toarray().sum(axis=1))
    with pytest.raises(rs.SparseInvalidSizeError) as err:
        rs.dbsrmv(h, 0, "N", 4, 4, n1 - 1, 1.0, d, v1, p1, c1, 1, info, x, 0.0, y)
    assert (err.value.arg, err.value.index) == ("info", 13)
    with pytest.raises(rs.SparseInvalidValueError):
        rs.dbsrmv(h, 0, "N", 4, 4, n1, 1.0, descr(), v1, p1, c1, 1, info, x, 0.0, y)  # another descriptor
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.dbsrmv(h, 0, "N", 4, 4, n1, 1.0, d, v1, rm.to_device(p1.get()), c1, 1, info, x, 0.0, y)
    # csrmv uses (and csrmv_clear frees) the same analysis, as rocSPARSE keeps them in one place.
    rs.dcsrmv(h, "N", 4, 4, n1, 1.0, d, v1, p1, c1, info, x, 0.0, y)
    assert np.array_equal(y.get(), a.toarray().sum(axis=1))
    rs.csrmv_clear(h, info)
    assert info.csrmv is None
    unsorted = descr(storage=rs.StorageMode.unsorted)
    rs.dbsrmv_analysis(h, 0, "N", 2, 2, n2, unsorted, v2, p2, c2, 2, info)
    assert info.csrmv is None
    rs.dbsrmv_analysis(h, 0, "N", 4, 4, n1, d, v1, p1, c1, 1, info)
    rs.dbsrmv(h, 0, "N", 2, 2, n2, 2.0, unsorted, v2, p2, c2, 2, info, x, 0.0, y)
    assert np.array_equal(y.get(), 2 * a.toarray().sum(axis=1))


def _i(*v):
    return rm.to_device(np.array(v or [0], np.int32))


def _a(n=4):
    return rm.zeros(n)


# bsrmv_analysis(handle, dir, trans, mb, nb, nnzb, descr, bsr_val, bsr_row_ptr, bsr_col_ind, block_dim, info)
ANALYSIS_ERRORS = [
    (lambda h, d, i: rs.dbsrmv_analysis(h, 9, "T", 1, 1, 1, None, None, None, None, 0, None),
     rs.SparseInvalidPointerError, "descr", 7),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 9, "T", 1, 1, 1, d, None, None, None, 0, None),
     rs.SparseInvalidPointerError, "info", 12),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 9, "T", 1, 1, 1, d, None, None, None, 0, i),
     rs.SparseInvalidValueError, "dir", 2),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, 9, 1, 1, 1, d, None, None, None, 0, i),
     rs.SparseInvalidValueError, "trans", 3),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "T", 1, 1, 1, d, None, None, None, 0, i),
     rs.SparseNotImplementedError, "trans", 3),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "N", -1, 1, 1, d, None, None, None, 0, i),
     rs.SparseInvalidSizeError, "mb", 4),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "N", 1, 1, 1, d, None, None, None, 0, i),
     rs.SparseInvalidSizeError, "block_dim", 11),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "N", 1, 1, 1, d, None, _i(0, 1), _i(), 2, i),
     rs.SparseInvalidPointerError, "bsr_val", 8),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "N", 1, 1, 1, d, _a(), None, _i(), 2, i),
     rs.SparseInvalidPointerError, "bsr_row_ptr", 9),
    (lambda h, d, i: rs.dbsrmv_analysis(h, 0, "N", 1, 1, 1, d, _a(), _i(0, 1), None, 2, i),
     rs.SparseInvalidPointerError, "bsr_col_ind", 10),
]


@pytest.mark.parametrize("call, error, arg, index", ANALYSIS_ERRORS)
def test_bsrmv_analysis_check_order(call, error, arg, index):
    h, d, info = rs.create_handle(), descr(), rs.create_mat_info()
    with pytest.raises(error) as err:
        call(h, d, info)
    assert (err.value.arg, err.value.index) == (arg, index)
    assert info.csrmv is None


def test_bsrmv_analysis_other_checks():
    h, info = rs.create_handle(), rs.create_mat_info()
    sym = descr()
    rs.set_mat_type(sym, rs.MatrixType.symmetric)
    with pytest.raises(rs.SparseNotImplementedError) as err:
        rs.sbsrmv_analysis(h, 0, "N", 1, 1, 1, sym, None, None, None, 2, info)
    assert err.value.arg == "descr"
    rs.zbsrmv_analysis(h, 0, "N", 0, 3, 5, descr(), None, None, None, 2, info)  # quick return: no arrays read
    rs.cbsrmv_analysis(h, 1, "N", 3, 3, 0, descr(), None, None, None, 2, info)
    assert info.csrmv is None
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dbsrmv_analysis(None, 0, "N", 1, 1, 1, descr(), None, None, None, 2, info)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.bsrmv_clear(h, None)
    assert err.value.index == 2
    destroyed = rs.create_mat_info()
    rs.destroy_mat_info(destroyed)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.bsrmv_ex_clear(h, destroyed)
