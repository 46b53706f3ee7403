"""Replays of identical csrmv calls (rocmath.plans): the same results and errors as first calls."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs
from rocmath.plans import Plan


@pytest.fixture
def replays(monkeypatch):
    runs: list[None] = []  # (not the arguments: the test of what plans keep alive would see them)
    run = Plan.run
    monkeypatch.setattr(Plan, "run", lambda self, args: runs.append(None) or run(self, args))
    return runs


def _matrix(seed: int, m: int = 40, n: int = 30) -> tuple[sp.csr_matrix, tuple[rm.DeviceArray, ...]]:
    a = sp.random(m, n, density=0.2, format="csr", random_state=seed, dtype=np.float64)
    a.sort_indices()
    return a, (rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32)))


def test_a_repeated_csrmv_is_replayed_with_the_same_bits(replays):
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(1)
    x = rm.to_device(np.random.default_rng(2).standard_normal(30))
    outs = []
    for _ in range(4):  # seen, planned, replayed, replayed
        y = rm.to_device(np.full(40, 7.0))
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.5, d, *arrays, None, x, 0.5, y)
        outs.append(y.get())
    assert len(replays) == 0  # every call above had a new y: a new key
    y = rm.to_device(np.full(40, 7.0))
    for _ in range(4):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.5, d, *arrays, None, x, 0.5, y)
    assert len(replays) == 2
    expected = np.full(40, 7.0)
    for _ in range(4):
        expected = 1.5 * (a @ x.get()) + 0.5 * expected
    np.testing.assert_allclose(y.get(), expected, rtol=1e-13)
    assert all(np.array_equal(outs[0].view(np.uint64), o.view(np.uint64)) for o in outs[1:])


def test_a_changed_descriptor_or_analysis_is_a_first_call_again(replays):
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(3)
    b, other = _matrix(4)
    x, y = rm.to_device(np.ones(30)), rm.zeros(40)
    info = rs.create_mat_info()
    rs.dcsrmv_analysis(h, "N", 40, 30, a.nnz, d, *arrays, info)
    for _ in range(3):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.0, d, *arrays, info, x, 0.0, y)
    assert len(replays) == 1
    np.testing.assert_allclose(y.get(), a @ np.ones(30), rtol=1e-13)
    # The info analysed for another matrix: the call fails as a first call does.
    rs.dcsrmv_analysis(h, "N", 40, 30, b.nnz, d, *other, info)
    with pytest.raises(rs.SparseError):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.0, d, *arrays, info, x, 0.0, y)
    # One-based arrays under a descriptor now saying so.
    rs.set_mat_index_base(d, rs.IndexBase.one)
    one_based = (arrays[0], rm.to_device(a.indptr.astype(np.int32) + 1), rm.to_device(a.indices.astype(np.int32) + 1))
    for _ in range(3):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 2.0, d, *one_based, None, x, 0.0, y)
    np.testing.assert_allclose(y.get(), 2 * (a @ np.ones(30)), rtol=1e-13)
    assert len(replays) == 2


def test_a_freed_argument_fails_as_on_a_first_call(replays):
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(5)
    ptr = rm.malloc(30 * 8)
    x, y = rm.DeviceArray.from_pointer(ptr, 30), rm.zeros(40)
    rm.memcpy(ptr, np.ones(30), 30 * 8)
    for _ in range(2):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.0, d, *arrays, None, x, 0.0, y)
    np.testing.assert_allclose(y.get(), a @ np.ones(30), rtol=1e-13)
    rm.free(ptr)
    with pytest.raises(rm.RocmathError):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.0, d, *arrays, None, x, 0.0, y)
    assert len(replays) == 0


@pytest.mark.usefixtures("young_garbage")
def test_transposed_products_are_not_replayed_and_plans_keep_nothing_alive(replays):
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(6)
    x, y = rm.to_device(np.arange(40.0)), rm.zeros(30)
    for _ in range(3):  # two launches (scatter, gather): never a plan
        rs.dcsrmv(h, "T", 40, 30, a.nnz, 1.0, d, *arrays, None, x, 0.0, y)
    assert len(replays) == 0
    np.testing.assert_allclose(y.get(), a.T @ np.arange(40.0), rtol=1e-13)
    xn, yn = rm.to_device(np.ones(30)), rm.zeros(40)
    for _ in range(3):
        rs.dcsrmv(h, "N", 40, 30, a.nnz, 1.0, d, *arrays, None, xn, 0.0, yn)
    assert len(replays) == 1
    refs = [weakref.ref(v) for v in (*arrays, xn, yn, d)]
    del arrays, xn, yn, d
    rm.device_synchronize()
    gc.collect()
    assert all(r() is None for r in refs)


def test_a_descriptor_changed_in_place_is_a_first_call_again(replays):
    # The same arrays, the same descriptor object, its matrix type changed: symmetric (lower) now.
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(7, 30, 30)
    x, y = rm.to_device(np.arange(30.0)), rm.zeros(30)
    for _ in range(3):
        rs.dcsrmv(h, "N", 30, 30, a.nnz, 1.0, d, *arrays, None, x, 0.0, y)
    assert len(replays) == 1
    np.testing.assert_allclose(y.get(), a @ np.arange(30.0), rtol=1e-13)
    rs.set_mat_type(d, rs.MatrixType.symmetric)
    rs.dcsrmv(h, "N", 30, 30, a.nnz, 1.0, d, *arrays, None, x, 0.0, y)
    fresh, expected = rs.create_mat_descr(), rm.zeros(30)  # the same call, first made on a fresh handle
    rs.set_mat_type(fresh, rs.MatrixType.symmetric)
    rs.dcsrmv(rs.create_handle(), "N", 30, 30, a.nnz, 1.0, fresh, *arrays, None, x, 0.0, expected)
    assert np.array_equal(y.get(), expected.get())
    assert not np.allclose(y.get(), a @ np.arange(30.0))
    assert len(replays) == 1


def test_bsrmv_and_ellmv_replays_give_first_calls_bits(replays):
    rng = np.random.default_rng(9)
    a = sp.random(24, 18, density=0.3, format="csr", random_state=9, dtype=np.float64)
    bsr = a.tobsr(blocksize=(3, 3))
    bsr.sort_indices()
    mb, nb, nnzb = 8, 6, bsr.indices.size
    x = rm.to_device(rng.standard_normal(18))
    blocks = (rm.to_device(np.ascontiguousarray(bsr.data.transpose(0, 2, 1)).ravel()),  # column-major blocks
              rm.to_device(bsr.indptr.astype(np.int32)), rm.to_device(bsr.indices.astype(np.int32)))
    width = int(np.diff(a.indptr).max())
    col = np.full((24, width), -1, np.int32)
    val = np.zeros((24, width))
    for i in range(24):
        cols, vals = a.indices[a.indptr[i]:a.indptr[i + 1]], a.data[a.indptr[i]:a.indptr[i + 1]]
        col[i, :cols.size], val[i, :cols.size] = cols, vals
    ell = (rm.to_device(val.T.ravel()), rm.to_device(col.T.ravel()))  # ELL: column-major m x width

    def calls(h, d, y_bsr, y_ell):
        rs.dbsrmv(h, rs.Direction.column, "N", mb, nb, nnzb, 1.0, d, *blocks, 3, None, x, 0.5, y_bsr)
        rs.dellmv(h, "N", 24, 18, 1.0, d, *ell, width, x, 0.5, y_ell)

    h, d = rs.create_handle(), rs.create_mat_descr()
    y_bsr, y_ell = rm.to_device(np.ones(24)), rm.to_device(np.ones(24))
    for _ in range(3):
        calls(h, d, y_bsr, y_ell)
    assert len(replays) == 2
    fresh = [rm.to_device(np.ones(24)), rm.to_device(np.ones(24))]
    for _ in range(3):  # the same sequence of first calls, each on a new handle
        calls(rs.create_handle(), rs.create_mat_descr(), *fresh)
    assert len(replays) == 2
    for got, want in zip((y_bsr, y_ell), fresh, strict=True):
        assert np.array_equal(got.get().view(np.uint64), want.get().view(np.uint64))
    expected = np.ones(24)
    for _ in range(3):
        expected = a @ x.get() + 0.5 * expected
    np.testing.assert_allclose(y_ell.get(), expected, rtol=1e-13)


# --- the generic products' compute stage ------------------------------------------------------------


def _generic(a: sp.csr_matrix, arrays: tuple[rm.DeviceArray, ...]) -> rs.SpMatDescr:
    m, n = a.shape
    return rs.create_csr_descr(m, n, a.nnz, arrays[1], arrays[2], arrays[0], rs.IndexType.i32, rs.IndexType.i32, 0,
                               rs.Datatype.f64_r)


def test_a_repeated_spmm_is_replayed_with_the_same_bits_and_size(replays):
    h = rs.create_handle()
    a, arrays = _matrix(11)
    b = np.random.default_rng(12).standard_normal((30, 9))
    A = _generic(a, arrays)
    B = rs.create_dnmat_descr(30, 9, 9, rm.to_device(b), rs.Datatype.f64_r, rs.Order.row)
    dc = rm.zeros((40, 9))
    C = rs.create_dnmat_descr(40, 9, 9, dc, rs.Datatype.f64_r, rs.Order.row)
    args = (h, rs.Operation.none, rs.Operation.none, 1.0, A, B, 0.0, C, rs.Datatype.f64_r, rs.SpMMAlg.default,
            rs.SpMMStage.compute)
    outs, sizes = [], []
    for _ in range(4):  # seen, planned, replayed, replayed
        sizes.append(rs.spmm(*args))
        outs.append(dc.get())
    assert len(replays) == 2 and sizes == [0] * 4
    np.testing.assert_allclose(outs[0], a @ b, rtol=1e-13)
    assert all(np.array_equal(outs[0].view(np.uint64), o.view(np.uint64)) for o in outs[1:])
    # Another B behind the same descriptor: a first call again.
    b2 = b[::-1].copy()
    rs.dnmat_set_values(B, rm.to_device(b2))
    rs.spmm(*args)
    np.testing.assert_allclose(dc.get(), a @ b2, rtol=1e-13)
    assert len(replays) == 2
    # beta -0.0 against 0.0 (equal keys): the sign is checked before a replay.
    rs.spmm(*args[:6], -0.0, *args[7:])
    assert len(replays) == 2


def test_spmv_replays_follow_the_matrix_descriptor_and_analysis_inside_the_sparse_descriptor(replays):
    h = rs.create_handle()
    a, arrays = _matrix(13, 30, 30)
    A = _generic(a, arrays)
    x = rs.create_dnvec_descr(30, rm.to_device(np.arange(30.0)), rs.Datatype.f64_r)
    dy = rm.zeros(30)
    y = rs.create_dnvec_descr(30, dy, rs.Datatype.f64_r)
    temp = rm.zeros(4096, np.uint8)  # (the symmetric product's partial sums)

    def call(stage=rs.SpMVStage.compute):
        return rs.spmv(h, rs.Operation.none, 1.0, A, x, 0.0, y, rs.Datatype.f64_r, rs.SpMVAlg.default, stage, None,
                       temp)

    for _ in range(3):
        call()
    assert len(replays) == 1
    np.testing.assert_allclose(dy.get(), a @ np.arange(30.0), rtol=1e-13)
    # Symmetric (lower) now: the matrix descriptor inside A changed, A's own attributes did not.
    rs.spmat_set_attribute(A, rs.SpMatAttribute.matrix_type, rs.MatrixType.symmetric)
    call()
    fresh, expected = _generic(a, arrays), rm.zeros(30)  # the same call, first made on a fresh handle
    rs.spmat_set_attribute(fresh, rs.SpMatAttribute.matrix_type, rs.MatrixType.symmetric)
    rs.spmv(rs.create_handle(), rs.Operation.none, 1.0, fresh, x, 0.0,
            rs.create_dnvec_descr(30, expected, rs.Datatype.f64_r), rs.Datatype.f64_r, rs.SpMVAlg.default,
            rs.SpMVStage.compute, None, temp)
    assert np.array_equal(dy.get(), expected.get())
    assert not np.allclose(dy.get(), a @ np.arange(30.0))
    assert len(replays) == 1
    # The analysis (preprocess stage) goes into A's info: the analysed product is a first call again.
    rs.spmat_set_attribute(A, rs.SpMatAttribute.matrix_type, rs.MatrixType.general)
    for _ in range(2):
        call()
    assert len(replays) == 1
    call(rs.SpMVStage.preprocess)
    call()
    np.testing.assert_allclose(dy.get(), a @ np.arange(30.0), rtol=1e-13)
    assert len(replays) == 1


def test_generic_calls_with_a_host_size_array_are_not_replayed(replays):
    h = rs.create_handle()
    a, arrays = _matrix(14)
    A = _generic(a, arrays)
    x = rs.create_dnvec_descr(30, rm.to_device(np.ones(30)), rs.Datatype.f64_r)
    y = rs.create_dnvec_descr(40, rm.zeros(40), rs.Datatype.f64_r)
    size = np.zeros(1, np.int64)
    for _ in range(3):
        rs.spmv(h, rs.Operation.none, 1.0, A, x, 0.0, y, rs.Datatype.f64_r, rs.SpMVAlg.default,
                rs.SpMVStage.compute, size)
    assert len(replays) == 0 and size[0] == 0
    np.testing.assert_allclose(rs.dnvec_get_values(y).get(), a @ np.ones(30), rtol=1e-13)


def test_csrmm_replays_give_first_calls_bits(replays):
    h, d = rs.create_handle(), rs.create_mat_descr()
    a, arrays = _matrix(15)
    b = rm.to_device(np.asfortranarray(np.random.default_rng(16).standard_normal((30, 11))))
    c = rm.to_device(np.zeros((40, 11), order="F"))
    outs = []
    for _ in range(4):  # seen, planned, replayed, replayed
        rs.dcsrmm(h, "N", "N", 40, 11, 30, a.nnz, 2.0, d, *arrays, b, 30, 0.0, c, 40)
        outs.append(c.get())
    assert len(replays) == 2
    np.testing.assert_allclose(outs[0], 2.0 * (a @ b.get()), rtol=1e-13)
    assert all(np.array_equal(outs[0].view(np.uint64), o.view(np.uint64)) for o in outs[1:])
    # One-based arrays under the descriptor now saying so: a first call again.
    rs.set_mat_index_base(d, rs.IndexBase.one)
    one_based = (arrays[0], rm.to_device(a.indptr.astype(np.int32) + 1), rm.to_device(a.indices.astype(np.int32) + 1))
    rs.dcsrmm(h, "N", "N", 40, 11, 30, a.nnz, 1.0, d, *one_based, b, 30, 0.0, c, 40)
    np.testing.assert_allclose(c.get(), a @ b.get(), rtol=1e-13)
    assert len(replays) == 2
    # The transpose is two launches (scatter, gather): never a plan.
    ct = rm.to_device(np.zeros((30, 11), order="F"))
    bt = rm.to_device(np.asfortranarray(np.ones((40, 11))))
    for _ in range(3):
        rs.dcsrmm(h, "T", "N", 40, 11, 30, a.nnz, 1.0, d, *one_based, bt, 40, 0.0, ct, 30)
    np.testing.assert_allclose(ct.get(), a.T @ np.ones((40, 11)), rtol=1e-13)
    assert len(replays) == 2
