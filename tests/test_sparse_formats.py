"""rocmath.sparse ELL, HYB and BSR formats (conversions, ellmv / hybmv / bsrmv / bsrmm), prune, gemvi / gemmi and
the generic COO (AoS), ELL, BSR and blocked-ELL descriptors with spmv / spmm, against scipy.sparse and numpy;
statuses in rocSPARSE's check order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import OPS, _scalars, margins_untouched, padded, product_scale, random_csr, scalar, vec

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, D, Precision, S
from rocmath.testing import assert_close, examples


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def _descr(base: int = 0, **kw) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    if "type" in kw:
        rs.set_mat_type(d, kw["type"])
    if "storage" in kw:
        rs.set_mat_storage_mode(d, kw["storage"])
    return d


def _csr(a: sp.csr_matrix, base: int, it) -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
    return (rm.to_device(a.data), rm.to_device((a.indptr + base).astype(it)),
            rm.to_device((a.indices + base).astype(it)))


def _itype(draw, p: Precision):
    """int64 indices for double precision only: every kernel then compiles one extra index type, not four."""
    return np.int64 if p is D and draw(st.booleans()) else np.int32


def ell_reference(a: sp.csr_matrix, width: int, base: int) -> tuple[np.ndarray, np.ndarray]:
    """rocSPARSE's ELL arrays of a sorted CSR matrix: column-major, padding -1 and 0."""
    m = a.shape[0]
    col = np.full((width, m), -1, np.int64)
    val = np.zeros((width, m), a.dtype)
    for i in range(m):
        s, e = a.indptr[i], a.indptr[i + 1]
        k = min(e - s, width)
        col[:k, i] = a.indices[s:s + k] + base
        val[:k, i] = a.data[s:s + k]
    return col.ravel(), val.ravel()


def _expected(p: Precision, alpha, beta, op_a: np.ndarray, x: np.ndarray, y0: np.ndarray, device_mode: bool):
    a_, b_ = scalar(p, alpha), scalar(p, beta)
    if a_ == 0 and b_ == 1 and not device_mode:
        return y0
    return a_ * (op_a @ x) + (b_ * y0 if b_ != 0 else 0)


# --- ELL ---------------------------------------------------------------------------------------------------


@st.composite
def ell_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(m=draw(st.sampled_from([0, 1, 5, 17])), n=draw(st.sampled_from([0, 1, 4, 9])),
                density=draw(st.sampled_from([0.0, 0.3, 0.8])), p=p, itype=_itype(draw, p),
                bases=draw(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1]))),
                trans=draw(st.sampled_from(list(rs.Operation))), alpha=draw(st.sampled_from([1.0, 0.0, -1.5 + 0.5j])),
                beta=draw(st.sampled_from([0.0, 1.0, 0.25j - 2])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(ell_problems())
def test_csr_ell_roundtrip_and_ellmv(q):
    p, m, n, it = q["p"], q["m"], q["n"], q["itype"]
    cb, eb = q["bases"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    h = rs.create_handle()
    dc, de = _descr(cb), _descr(eb)
    v, ptr, col = _csr(a, cb, it)
    longest = int(np.diff(a.indptr).max()) if m else 0
    # csr2ell_width: returned in host mode, written to the device in device mode
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        w_dev = rm.to_device(np.full(1, -7, it))
        assert rs.csr2ell_width(h, m, dc, ptr, de, w_dev) is None
        width = int(w_dev.get()[0])
    else:
        width = rs.csr2ell_width(h, m, dc, ptr, de, None)
    assert width == longest
    col_ref, val_ref = ell_reference(a, width, eb)
    ec_full, ec = padded(np.zeros(m * width, it))
    ev_full, ev = padded(np.zeros(m * width, p.dtype))
    _fn(p, "csr2ell")(h, m, dc, v, ptr, col, de, width, ev, ec)
    assert np.array_equal(ec.get(), col_ref) and np.array_equal(ev.get(), val_ref)
    margins_untouched(ec_full, m * width)
    margins_untouched(ev_full, m * width)
    # ell2csr_nnz + ell2csr give the CSR matrix back
    p_full, ptr2 = padded(np.full(m + 1, -3, it))
    out = rm.to_device(np.full(1, -7, it))
    got = rs.ell2csr_nnz(h, m, n, de, width, ec, dc, ptr2, out)
    nnz = int(out.get()[0]) if q["device_mode"] else got
    assert nnz == a.nnz
    assert np.array_equal(ptr2.get(), a.indptr + cb)
    margins_untouched(p_full, m + 1)
    v2_full, v2 = padded(np.zeros(nnz, p.dtype))
    c2_full, c2 = padded(np.zeros(nnz, it))
    _fn(p, "ell2csr")(h, m, n, de, width, ev, ec, dc, v2, ptr2, c2)
    if m and n and width:
        assert np.array_equal(c2.get(), a.indices + cb) and np.array_equal(v2.get(), a.data)
    margins_untouched(v2_full, nnz)
    margins_untouched(c2_full, nnz)
    # ellmv against scipy, every operation
    opa = OPS[q["trans"]](a)
    x, y0 = vec(rng, opa.shape[1], p.dtype), vec(rng, opa.shape[0], p.dtype)
    if q["beta"] == 0:
        y0[:] = np.nan  # beta == 0 must not read y
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    y_full, y = padded(y0)
    _fn(p, "ellmv")(h, q["trans"], m, n, alpha, de, ev, ec, width, rm.to_device(x), beta, y)
    expected = _expected(p, q["alpha"], q["beta"], opa, x, y0, q["device_mode"])
    # errors are relative to the terms summed, which can cancel to much less than them
    terms = _expected(p, abs(scalar(p, q["alpha"])), abs(scalar(p, q["beta"])), abs(opa), abs(x),
                      np.nan_to_num(abs(y0)), False)
    assert_close(y.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, n),
                 scale=max(1.0, float(np.max(terms, initial=0))))
    margins_untouched(y_full, y0.size)


def test_ell2csr_stops_a_row_at_its_first_padding_entry():
    h = rs.create_handle()
    # row 0: (col 1, 1.0), padding, then a stray entry that must be ignored; row 1: two entries
    col = rm.to_device(np.array([1, 0, -1, 2, 0, -1], np.int32))
    val = rm.to_device(np.array([1.0, 2.0, 0.0, 3.0, 9.0, 0.0]))
    ptr = rm.empty(3, np.int32)
    assert rs.ell2csr_nnz(h, 2, 3, _descr(), 3, col, _descr(), ptr, None) == 3
    cv, cc = rm.empty(3), rm.empty(3, np.int32)
    rs.dell2csr(h, 2, 3, _descr(), 3, val, col, _descr(), cv, ptr, cc)
    assert np.array_equal(ptr.get(), [0, 1, 3]) and np.array_equal(cc.get(), [1, 0, 2])
    assert np.array_equal(cv.get(), [1.0, 2.0, 3.0])
    y = rm.zeros(2)
    rs.dellmv(h, "N", 2, 3, 1.0, _descr(), val, col, 3, rm.to_device(np.ones(3)), 0.0, y)
    assert np.array_equal(y.get(), [1.0, 5.0])


def test_csr2ell_narrower_than_the_rows_keeps_their_first_entries():
    h = rs.create_handle()
    a = sp.csr_matrix(np.array([[1.0, 2.0, 3.0], [0.0, 4.0, 0.0]]))
    v, ptr, col = _csr(a, 0, np.int32)
    ec, ev = rm.empty(2, np.int32), rm.empty(2)
    rs.dcsr2ell(h, 2, _descr(), v, ptr, col, _descr(1), 1, ev, ec)
    assert np.array_equal(ec.get(), [1, 2]) and np.array_equal(ev.get(), [1.0, 4.0])


# --- HYB ---------------------------------------------------------------------------------------------------


@st.composite
def hyb_problems(draw):
    m, n = draw(st.sampled_from([0, 1, 2, 6, 19])), draw(st.sampled_from([0, 1, 5, 12]))
    return dict(m=m, n=n, density=draw(st.sampled_from([0.0, 0.2, 0.6])), p=draw(st.sampled_from(SDCZ)),
                base=draw(st.sampled_from([0, 1])), partition=draw(st.sampled_from(list(rs.HybPartition))),
                user_width=draw(st.integers(0, 5)), trans=draw(st.sampled_from(list(rs.Operation))),
                skew=draw(st.booleans()), device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(hyb_problems())
def test_csr_hyb_roundtrip_and_hybmv(q):
    p, m, n, base = q["p"], q["m"], q["n"], q["base"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    if q["skew"] and m and n:  # one full row: long rows go to the COO part
        dense = a.toarray()
        dense[0] = vec(rng, n, p.dtype)
        a = sp.csr_matrix(dense)
        a.sort_indices()
    h, d = rs.create_handle(), _descr(base)
    v, ptr, col = _csr(a, base, np.int32)
    lengths = np.diff(a.indptr)
    limit = 2 * (a.nnz - 1) // m + 1 if a.nnz else 0
    part = q["partition"]
    width = {rs.HybPartition.auto: -(-a.nnz // m) if a.nnz else 0, rs.HybPartition.user: q["user_width"],
             rs.HybPartition.max: int(lengths.max()) if m else 0}[part]
    hyb = rs.create_hyb_mat()
    if m and n and width > limit:
        with pytest.raises(rs.SparseInvalidValueError) as err:
            _fn(p, "csr2hyb")(h, m, n, d, v, ptr, col, hyb, q["user_width"], part)
        assert err.value.index == (9 if part is rs.HybPartition.user else 10)
        assert (hyb.m, hyb.n, hyb.ell_width, hyb.coo_nnz) == (0, 0, 0, 0)  # left untouched
        return
    _fn(p, "csr2hyb")(h, m, n, d, v, ptr, col, hyb, q["user_width"], part)
    if not (m and n):
        assert (hyb.m, hyb.n, hyb.ell_nnz, hyb.coo_nnz) == (m, n, 0, 0)
    else:
        coo_nnz = 0 if part is rs.HybPartition.max else int(np.maximum(lengths - width, 0).sum())
        assert (hyb.m, hyb.n, hyb.ell_width, hyb.ell_nnz, hyb.coo_nnz) == (m, n, width, m * width, coo_nnz)
        col_ref, val_ref = ell_reference(a, width, base)
        if width:
            assert np.array_equal(hyb.ell_col_ind.get(), np.where(col_ref >= 0, col_ref, -1))
            assert np.array_equal(hyb.ell_val.get(), val_ref)
        if coo_nnz:  # the entries beyond the width, in row order
            rows = np.repeat(np.arange(m), lengths)
            rank = np.arange(a.nnz) - a.indptr[rows]
            keep = rank >= width
            assert np.array_equal(hyb.coo_row_ind.get(), rows[keep] + base)
            assert np.array_equal(hyb.coo_col_ind.get(), a.indices[keep] + base)
            assert np.array_equal(hyb.coo_val.get(), a.data[keep])
    # hyb2csr gives the CSR matrix back
    size = rs.hyb2csr_buffer_size(h, d, hyb, ptr)
    temp = rm.empty(size, np.uint8) if size else None
    p_full, ptr2 = padded(np.full(m + 1, -3, np.int32))
    v2_full, v2 = padded(np.zeros(a.nnz, p.dtype))
    c2_full, c2 = padded(np.zeros(a.nnz, np.int32))
    _fn(p, "hyb2csr")(h, d, hyb, v2, ptr2, c2, temp)
    assert np.array_equal(ptr2.get(), a.indptr + base)
    if m and n:
        assert np.array_equal(c2.get(), a.indices + base) and np.array_equal(v2.get(), a.data)
    for full, length in ((p_full, m + 1), (v2_full, a.nnz), (c2_full, a.nnz)):
        margins_untouched(full, length)
    # hybmv against scipy
    opa = OPS[q["trans"]](a)
    x, y0 = vec(rng, opa.shape[1], p.dtype), vec(rng, opa.shape[0], p.dtype)
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], -1.5 + 0.5j, 0.5)
    y_full, y = padded(y0)
    _fn(p, "hybmv")(h, q["trans"], alpha, d, hyb, rm.to_device(x), beta, y)
    expected = _expected(p, -1.5 + 0.5j, 0.5, opa, x, y0, q["device_mode"])
    assert_close(y.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, n),
                 scale=product_scale(p, -1.5 + 0.5j, opa, x, 0.5, y0))
    margins_untouched(y_full, y0.size)
    rs.destroy_hyb_mat(hyb)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        _fn(p, "hybmv")(h, q["trans"], alpha, d, hyb, rm.to_device(x), beta, y)
    assert err.value.index == 5


def test_hyb_of_an_empty_matrix_and_precision_checks():
    h, d = rs.create_handle(), _descr()
    hyb = rs.create_hyb_mat()
    ptr = rm.to_device(np.zeros(4, np.int32))
    rs.dcsr2hyb(h, 3, 4, d, rm.empty(1), ptr, rm.empty(1, np.int32), hyb, 0, rs.HybPartition.auto)
    assert (hyb.m, hyb.n, hyb.ell_width, hyb.coo_nnz) == (3, 4, 0, 0)  # rocSPARSE's formula would give width 1
    y = rm.to_device(np.arange(3.0))
    rs.dhybmv(h, "N", 1.0, d, hyb, rm.to_device(np.ones(4)), 2.0, y)
    assert np.array_equal(y.get(), 2 * np.arange(3.0))
    out = rm.to_device(np.full(4, 9, np.int32))
    rs.dhyb2csr(h, d, hyb, None, out, None, None)
    assert np.array_equal(out.get(), [0, 0, 0, 0])
    a = sp.csr_matrix(np.eye(3))
    rs.dcsr2hyb(h, 3, 3, d, *_csr(a, 0, np.int32), hyb, 1, rs.HybPartition.user)
    with pytest.raises(rs.SparseTypeMismatchError) as err:
        rs.shybmv(h, "N", 1.0, d, hyb, rm.to_device(np.ones(3, np.float32)), 0.0, rm.zeros(3, np.float32))
    assert err.value.index == 5


# --- BSR ---------------------------------------------------------------------------------------------------


@st.composite
def bsr_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(m=draw(st.sampled_from([0, 1, 4, 7, 13])), n=draw(st.sampled_from([0, 1, 3, 8, 10])),
                bd=draw(st.integers(1, 4)), direction=draw(st.sampled_from(list(rs.Direction))),
                density=draw(st.sampled_from([0.0, 0.15, 0.5])), p=p, itype=_itype(draw, p),
                bases=draw(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1]))),
                trans_b=draw(st.sampled_from([rs.Operation.none, rs.Operation.transpose])),
                k=draw(st.sampled_from([1, 3])), device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


def _bsr_reference(a: sp.csr_matrix, bd: int) -> tuple[np.ndarray, sp.bsr_matrix]:
    """The zero-padded dense matrix and its scipy BSR form (random_csr stores no zero values, so scipy's blocks
    are exactly the blocks holding stored entries)."""
    m, n = a.shape
    mb, nb = -(-m // bd), -(-n // bd)
    dense = np.zeros((mb * bd, nb * bd), a.dtype)
    dense[:m, :n] = a.toarray()
    ref = sp.bsr_matrix(dense, blocksize=(bd, bd)) if mb and nb else None
    if ref is not None:
        ref.sort_indices()
    return dense, ref


@settings(max_examples=examples(50))
@given(bsr_problems())
def test_csr_bsr_roundtrip_bsrmv_and_bsrmm(q):
    p, m, n, bd, it = q["p"], q["m"], q["n"], q["bd"], q["itype"]
    cb, bb = q["bases"]
    direction = q["direction"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    dense, ref = _bsr_reference(a, bd)
    mb, nb = -(-m // bd), -(-n // bd)
    h, dc, db = rs.create_handle(), _descr(cb), _descr(bb)
    v, ptr, col = _csr(a, cb, it)
    bp_full, bp = padded(np.full(mb + 1, -3, it))
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        out = rm.to_device(np.full(1, -7, it))
        assert rs.csr2bsr_nnz(h, direction, m, n, dc, ptr, col, bd, db, bp, out) is None
        nnzb = int(out.get()[0])
        rs.set_pointer_mode(h, rs.PointerMode.host)
    else:
        nnzb = rs.csr2bsr_nnz(h, direction, m, n, dc, ptr, col, bd, db, bp, None)
    margins_untouched(bp_full, mb + 1)
    if not (m and n):
        assert nnzb == 0 and np.array_equal(bp.get(), np.full(mb + 1, bb))
        return
    assert nnzb == ref.indices.size
    assert np.array_equal(bp.get(), ref.indptr + bb)
    bv_full, bv = padded(np.full(nnzb * bd * bd, 5, p.dtype))
    bc_full, bc = padded(np.zeros(nnzb, it))
    _fn(p, "csr2bsr")(h, direction, m, n, dc, v, ptr, col, bd, db, bv, bp, bc)
    assert np.array_equal(bc.get(), ref.indices + bb)
    blocks = ref.data if direction is rs.Direction.row else ref.data.transpose(0, 2, 1)
    assert np.array_equal(bv.get(), blocks.ravel())
    margins_untouched(bv_full, nnzb * bd * bd)
    margins_untouched(bc_full, nnzb)
    # bsr2csr: every element of every block, an (mb bd) x (nb bd) matrix
    nnz2 = nnzb * bd * bd
    cv_full, cv = padded(np.zeros(nnz2, p.dtype))
    cp, cc = rm.empty(mb * bd + 1, it), rm.empty(nnz2, it)
    _fn(p, "bsr2csr")(h, direction, mb, nb, db, bv, bp, bc, bd, dc, cv, cp, cc)
    back = sp.csr_matrix((cv.get(), cc.get() - cb, cp.get() - cb), shape=dense.shape)
    assert back.nnz == nnz2 and np.array_equal(back.toarray(), dense)
    assert np.all(np.diff(cc.get().reshape(-1, bd), axis=1) == 1)  # columns ascending within a block
    margins_untouched(cv_full, nnz2)
    # bsrmv
    x, y0 = vec(rng, nb * bd, p.dtype), vec(rng, mb * bd, p.dtype)
    y_full, y = padded(y0)
    alpha, beta = scalar(p, 2.0 - 1j), scalar(p, -0.5)
    _fn(p, "bsrmv")(h, direction, "N", mb, nb, nnzb, alpha, db, bv, bp, bc, bd, None, rm.to_device(x), beta, y)
    assert_close(y.get(), (alpha * (dense @ x) + beta * y0).astype(p.dtype), p, "reduction", max(1, n),
                 scale=product_scale(p, alpha, dense, x, beta, y0))
    margins_untouched(y_full, y0.size)
    # bsrmm, column-major B (or B^T) and C with padding rows that must survive
    kk, tb = q["k"], q["trans_b"]
    B = vec(rng, nb * bd * kk, p.dtype).reshape(nb * bd, kk)
    stored = B if tb is rs.Operation.none else B.T
    ldb, ldc = stored.shape[0] + 2, mb * bd + 1
    b_img = np.full((stored.shape[1], ldb), 3.5, p.dtype)
    b_img[:, :stored.shape[0]] = stored.T
    C0 = vec(rng, mb * bd * kk, p.dtype).reshape(mb * bd, kk)
    c_img = np.full((kk, ldc), -2.5, p.dtype)
    c_img[:, :mb * bd] = C0.T
    dC = rm.to_device(c_img.ravel())
    _fn(p, "bsrmm")(h, direction, "N", tb, mb, kk, nb, nnzb, alpha, db, bv, bp, bc, bd, rm.to_device(b_img.ravel()),
                    ldb, beta, dC, ldc)
    got = dC.get().reshape(kk, ldc)
    assert_close(got[:, :mb * bd].T, (alpha * (dense @ B) + beta * C0).astype(p.dtype), p, "reduction", max(1, n),
                 scale=product_scale(p, alpha, dense, B, beta, C0))
    assert np.all(got[:, mb * bd:] == -2.5)


def test_csr2bsr_nnz_quick_return_fills_the_row_pointer():
    h = rs.create_handle()
    bp = rm.to_device(np.full(3, -1, np.int32))
    assert rs.csr2bsr_nnz(h, 0, 4, 0, None, None, None, 2, _descr(1), bp, None) == 0
    assert np.array_equal(bp.get(), [1, 1, 1])
    cp = rm.to_device(np.full(7, -1, np.int32))
    rs.dbsr2csr(h, 1, 2, 0, _descr(), None, _i(3), None, 3, _descr(1), None, cp, None)
    assert np.array_equal(cp.get(), np.ones(7))


def test_blocked_products_are_bitwise_deterministic():
    rng = np.random.default_rng(5)
    a = random_csr(rng, 600, 500, 0.02, np.float64)
    h, d = rs.create_handle(), _descr()
    v, ptr, col = _csr(a, 0, np.int32)
    bp = rm.empty(301, np.int32)
    nnzb = rs.csr2bsr_nnz(h, 0, 600, 500, d, ptr, col, 2, d, bp, None)
    bv, bc = rm.empty(nnzb * 4), rm.empty(nnzb, np.int32)
    rs.dcsr2bsr(h, 0, 600, 500, d, v, ptr, col, 2, d, bv, bp, bc)
    x = rm.to_device(rng.standard_normal(500))
    outs = []
    for _ in range(3):
        y = rm.zeros(600)
        rs.dbsrmv(h, 0, "N", 300, 250, nnzb, 1.0, d, bv, bp, bc, 2, None, x, 0.0, y)
        outs.append(y.get().view(np.uint64))
    assert all(np.array_equal(outs[0], o) for o in outs[1:])


# --- prune -------------------------------------------------------------------------------------------------


@st.composite
def prune_problems(draw):
    return dict(m=draw(st.sampled_from([0, 1, 4, 11])), n=draw(st.sampled_from([0, 1, 3, 9])),
                pad=draw(st.sampled_from([0, 2])), p=draw(st.sampled_from([S, D])), base=draw(st.sampled_from([0, 1])),
                threshold=draw(st.sampled_from([-1.0, 0.0, 0.4, 1.2, 5.0])),
                percentage=draw(st.sampled_from([0.0, 12.5, 50.0, 99.0, 100.0])),
                density=draw(st.sampled_from([0.0, 0.4, 1.0])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


def _kept(values: np.ndarray, threshold) -> np.ndarray:
    return np.abs(values) > threshold


def _masked_csr(a: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The CSR arrays of the entries of the dense ``a`` where ``mask`` holds (zeros included)."""
    rows, cols = np.nonzero(mask)
    return np.searchsorted(rows, np.arange(a.shape[0] + 1)), cols, a[rows, cols]


def _percentile(values: np.ndarray, percentage: float, dtype) -> np.generic:
    count = values.size
    t = np.dtype(dtype).type
    pos = max(min(int(np.ceil(t(count) * (t(percentage) / t(100)))) - 1, count - 1), 0)
    return np.sort(np.abs(values).ravel())[pos]


def _prune_outputs(h, p, nnz_call, call, m: int, base: int, device_mode: bool) -> tuple[np.ndarray, ...]:
    """Run a prune's nnz stage then its conversion into padded arrays; the row pointer, columns and values."""
    ptr_full, ptr = padded(np.full(m + 1, -3, np.int32))
    total = rm.to_device(np.full(1, -7, np.int32))
    got = nnz_call(ptr, total if device_mode else None)
    nnz = int(total.get()[0]) if device_mode else got
    assert got is None if device_mode else isinstance(got, int)
    v_full, v = padded(np.zeros(nnz, p.dtype))
    c_full, c = padded(np.zeros(nnz, np.int32))
    call(v, ptr, c)
    for full, length in ((ptr_full, m + 1), (v_full, nnz), (c_full, nnz)):
        margins_untouched(full, length)
    return ptr.get(), c.get(), v.get()


@settings(max_examples=examples(40))
@given(prune_problems())
def test_prune_dense2csr_by_threshold_and_percentage(q):
    p, m, n, base = q["p"], q["m"], q["n"], q["base"]
    rng = np.random.default_rng(q["seed"])
    a = rng.standard_normal((m, n)).astype(p.dtype)
    a[rng.random((m, n)) >= q["density"]] = 0
    lda = m + q["pad"]
    img = np.full((n, lda), 7.5, p.dtype)
    img[:, :m] = a.T
    dA = rm.to_device(img.ravel())
    h, d = rs.create_handle(), _descr(base)
    keep = []
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        thr = rm.to_device(np.array([q["threshold"]], p.dtype))
        keep.append(thr)
    else:
        thr = p.dtype.type(q["threshold"])
    row_ptr = rm.to_device(np.zeros(m + 1, np.int32))
    assert _fn(p, "prune_dense2csr_buffer_size")(h, m, n, dA, lda, thr, d, None, row_ptr, None) == 0
    ptr, col, val = _prune_outputs(
        h, p, lambda ptr, total: _fn(p, "prune_dense2csr_nnz")(h, m, n, dA, lda, thr, d, ptr, total, None),
        lambda v, ptr, c: _fn(p, "prune_dense2csr")(h, m, n, dA, lda, thr, d, v, ptr, c, None), m, base,
        q["device_mode"])
    indptr, indices, data = _masked_csr(a, _kept(a, p.dtype.type(q["threshold"])))
    if m and n:
        assert np.array_equal(ptr, indptr + base) and np.array_equal(col, indices + base)
        assert np.array_equal(val, data)
    else:
        assert np.array_equal(ptr, np.full(m + 1, base))
    # by percentage: the threshold is the magnitude at the percentage's position; temp_buffer carries it
    info = rs.create_mat_info()
    pct = q["percentage"]
    size = _fn(p, "prune_dense2csr_by_percentage_buffer_size")(h, m, n, dA, lda, pct, d, None, row_ptr, None, info)
    assert size == 2 * m * n * p.dtype.itemsize
    temp = rm.empty(max(size, 1), np.uint8)
    ptr, col, val = _prune_outputs(
        h, p, lambda ptr, total: _fn(p, "prune_dense2csr_nnz_by_percentage")(h, m, n, dA, lda, pct, d, ptr, total,
                                                                               info, temp),
        lambda v, ptr, c: _fn(p, "prune_dense2csr_by_percentage")(h, m, n, dA, lda, pct, d, v, ptr, c, info, temp),
        m, base, q["device_mode"])
    if m and n:
        indptr, indices, data = _masked_csr(a, _kept(a, _percentile(a, pct, p.dtype)))
        assert np.array_equal(ptr, indptr + base) and np.array_equal(col, indices + base)
        assert np.array_equal(val, data)
    assert np.array_equal(dA.get(), img.ravel())  # A and its padding are only read


@settings(max_examples=examples(40))
@given(prune_problems(), st.sampled_from([0, 1]))
def test_prune_csr2csr_by_threshold_and_percentage(q, base_a):
    p, m, n, base = q["p"], q["m"], q["n"], q["base"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    v, ptr_a, col_a = _csr(a, base_a, np.int32)
    h, da, dc = rs.create_handle(), _descr(base_a), _descr(base)
    keep = []
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        thr = rm.to_device(np.array([q["threshold"]], p.dtype))
        keep.append(thr)
    else:
        thr = p.dtype.type(q["threshold"])
    A = (m, n, a.nnz, da, v, ptr_a, col_a)
    assert _fn(p, "prune_csr2csr_buffer_size")(h, *A, thr, dc, None, ptr_a, None) == 0
    rows = np.repeat(np.arange(m), np.diff(a.indptr))
    rejected = q["threshold"] < 0 and m and n and a.nnz
    if rejected:
        # rocSPARSE's count (rocsparse_nnz_compress.cpp) rejects a negative threshold, writing nothing
        ptr_c, total = rm.to_device(np.full(m + 1, -3, np.int32)), rm.to_device(np.full(1, -7, np.int32))
        with pytest.raises(rs.SparseInvalidValueError):
            _fn(p, "prune_csr2csr_nnz")(h, *A, thr, dc, ptr_c, total if q["device_mode"] else None, None)
        assert np.all(ptr_c.get() == -3) and total.get()[0] == -7
    else:
        ptr, col, val = _prune_outputs(
            h, p, lambda ptr, total: _fn(p, "prune_csr2csr_nnz")(h, *A, thr, dc, ptr, total, None),
            lambda vc, ptr, cc: _fn(p, "prune_csr2csr")(h, *A, thr, dc, vc, ptr, cc, None), m, base,
            q["device_mode"])
    kept = _kept(a.data, p.dtype.type(q["threshold"]))
    if m and n and not rejected:
        assert np.array_equal(ptr, np.searchsorted(rows[kept], np.arange(m + 1)) + base)
        assert np.array_equal(col, a.indices[kept] + base) and np.array_equal(val, a.data[kept])
    info = rs.create_mat_info()
    pct = q["percentage"]
    size = _fn(p, "prune_csr2csr_by_percentage_buffer_size")(h, *A, pct, dc, None, ptr_a, None, info)
    assert size == max(2 * a.nnz * p.dtype.itemsize, 512)
    temp = rm.empty(size, np.uint8)
    ptr, col, val = _prune_outputs(
        h, p, lambda ptr, total: _fn(p, "prune_csr2csr_nnz_by_percentage")(h, *A, pct, dc, ptr, total, info, temp),
        lambda vc, ptr, cc: _fn(p, "prune_csr2csr_by_percentage")(h, *A, pct, dc, vc, ptr, cc, info, temp), m, base,
        q["device_mode"])
    if m and n and a.nnz:
        kept = _kept(a.data, _percentile(a.data, pct, p.dtype))
        assert np.array_equal(ptr, np.searchsorted(rows[kept], np.arange(m + 1)) + base)
        assert np.array_equal(col, a.indices[kept] + base) and np.array_equal(val, a.data[kept])


# --- gemvi / gemmi -----------------------------------------------------------------------------------------


@st.composite
def gemi_problems(draw):
    return dict(m=draw(st.sampled_from([0, 1, 5, 13])), n=draw(st.sampled_from([0, 1, 4, 9])),
                k=draw(st.sampled_from([0, 1, 6])), pad=draw(st.sampled_from([0, 3])), p=draw(st.sampled_from(SDCZ)),
                base=draw(st.sampled_from([0, 1])), density=draw(st.sampled_from([0.0, 0.3, 1.0])),
                alpha=draw(st.sampled_from([1.0, 0.0, 0.5 - 2j])), beta=draw(st.sampled_from([0.0, 1.0, -1.5j])),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


def _column_major(a: np.ndarray, ld: int, fill) -> tuple[rm.DeviceArray, np.ndarray]:
    m, n = a.shape
    img = np.full((n, ld), fill, a.dtype)
    img[:, :m] = a.T
    return rm.to_device(img.ravel()), img


@settings(max_examples=examples(40))
@given(gemi_problems())
def test_gemvi_and_gemmi_match_numpy(q):
    p, m, n, kd, base = q["p"], q["m"], q["n"], q["k"], q["base"]
    rng = np.random.default_rng(q["seed"])
    h = rs.create_handle()
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    # gemvi: y := alpha A x + beta y, x sparse of length n
    A = vec(rng, m * n, p.dtype).reshape(m, n)
    lda = m + q["pad"]
    dA, a_img = _column_major(A, lda, 4.5)
    nnz = round(q["density"] * n)
    x_ind = np.sort(rng.choice(n, nnz, replace=False))
    x_val = vec(rng, nnz, p.dtype)
    y0 = vec(rng, m, p.dtype)
    if q["beta"] == 0:
        y0[:] = np.nan
    assert _fn(p, "gemvi_buffer_size")(h, "N", m, n, nnz) == 0
    y_full, y = padded(y0)
    _fn(p, "gemvi")(h, "N", m, n, alpha, dA, lda, nnz, rm.to_device(x_val), rm.to_device((x_ind + base).astype(
        np.int32)), beta, y, base, None)
    xd = np.zeros(n, p.dtype)
    xd[x_ind] = x_val
    expected = _expected(p, q["alpha"], q["beta"], A, xd, y0, q["device_mode"]) if m else y0
    scale = product_scale(p, scalar(p, q["alpha"]), A, xd, scalar(p, q["beta"]), y0)
    assert_close(y.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, n), scale=scale)
    margins_untouched(y_full, m)
    assert np.array_equal(dA.get(), a_img.ravel())
    # gemmi: C := alpha A B^T + beta C, A m x k dense, B n x k CSR
    A2 = vec(rng, m * kd, p.dtype).reshape(m, kd)
    dA2, _ = _column_major(A2, lda, 4.5)
    B = random_csr(rng, n, kd, q["density"], p.dtype)
    C0 = vec(rng, m * n, p.dtype).reshape(m, n)
    if q["beta"] == 0:
        C0[:] = np.nan
    ldc = m + q["pad"] if m else 1
    dC, c_img = _column_major(C0, ldc, -6.5)
    _fn(p, "gemmi")(h, "N", "T", m, n, kd, B.nnz, alpha, dA2, max(lda, 1), _descr(base), rm.to_device(B.data),
                    rm.to_device((B.indptr + base).astype(np.int32)), rm.to_device((B.indices + base).astype(np.int32)),
                    beta, dC, ldc)
    got = dC.get().reshape(n, ldc)
    if m and n:
        a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
        if a_ == 0 and b_ == 1 and not q["device_mode"]:
            expected = C0
        else:
            expected = a_ * (A2 @ B.toarray().T) + (b_ * C0 if b_ != 0 else 0)
        scale = product_scale(p, a_, A2, B.T, b_, C0)
        assert_close(got[:, :m].T, np.asarray(expected, p.dtype), p, "reduction", max(1, kd), scale=scale)
    assert np.array_equal(got[:, m:], c_img[:, m:])


# --- generic descriptors, spmv and spmm --------------------------------------------------------------------


def _vec_descr(values: np.ndarray, dt):
    d = rm.to_device(values)
    return rs.create_dnvec_descr(values.size, d, dt), d


@st.composite
def generic_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(m=draw(st.sampled_from([0, 1, 6, 15])), n=draw(st.sampled_from([0, 1, 5, 11])),
                bd=draw(st.integers(1, 3)), density=draw(st.sampled_from([0.0, 0.3, 0.8])), p=p,
                itype=_itype(draw, p), base=draw(st.sampled_from([0, 1])),
                direction=draw(st.sampled_from(list(rs.Direction))), trans=draw(st.sampled_from(list(rs.Operation))),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(generic_problems(), st.sampled_from([rs.Format.coo_aos, rs.Format.ell, rs.Format.bsr]))
def test_generic_spmv_on_coo_aos_ell_and_bsr(q, fmt):
    p, m, n, it, base, bd = q["p"], q["m"], q["n"], q["itype"], q["base"], q["bd"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    itype, dt = rs.IndexType.of(it), rs.Datatype.of(p.dtype)
    op = q["trans"]
    if fmt is rs.Format.coo_aos:
        o = a.tocoo()
        ind = np.empty(2 * o.nnz, it)
        ind[0::2], ind[1::2] = o.row + base, o.col + base
        arrays = (rm.to_device(ind), rm.to_device(o.data))
        mat = rs.create_coo_aos_descr(m, n, o.nnz, *arrays, itype, base, dt)
        assert rs.coo_aos_get(mat)[:5] == (m, n, o.nnz, arrays[0], arrays[1])
        dense, alg = a.toarray(), rs.SpMVAlg.coo
    elif fmt is rs.Format.ell:
        width = int(np.diff(a.indptr).max()) if m else 0
        width = min(width, n)
        col, val = ell_reference(a, width, base)
        arrays = (rm.to_device(col.astype(it)), rm.to_device(val))
        mat = rs.create_ell_descr(m, n, *arrays, width, itype, base, dt)
        assert rs.ell_get(mat) == (m, n, arrays[0], arrays[1], width, itype, base, dt)
        assert rs.spmat_get_size(mat) == (m, n, m * width)
        dense, alg = a.toarray(), rs.SpMVAlg.ell
    else:
        dense, ref = _bsr_reference(a, bd)
        mb, nb = dense.shape[0] // bd, dense.shape[1] // bd
        ptr = ref.indptr if ref is not None else np.zeros(mb + 1, int)
        cols = ref.indices if ref is not None else np.zeros(0, int)
        blocks = ref.data if ref is not None else np.zeros((0, bd, bd), p.dtype)
        if q["direction"] is rs.Direction.column:
            blocks = blocks.transpose(0, 2, 1)
        arrays = (rm.to_device((ptr + base).astype(it)), rm.to_device((cols + base).astype(it)),
                  rm.to_device(np.ascontiguousarray(blocks).ravel()))
        mat = rs.create_bsr_descr(mb, nb, cols.size, q["direction"], bd, *arrays, itype, itype, base, dt)
        assert rs.bsr_get(mat)[:5] == (mb, nb, cols.size, q["direction"], bd)
        alg = rs.SpMVAlg.bsr
        if op is not rs.Operation.none:  # rocSPARSE's BSR spmv: operation none only (buffer size still answers)
            x, y = _vec_descr(np.zeros(dense.shape[0], p.dtype), dt), _vec_descr(np.zeros(dense.shape[1], p.dtype), dt)
            assert rs.spmv(rs.create_handle(), op, 1.0, mat, x[0], 0.0, y[0], dt, alg, rs.SpMVStage.buffer_size) == 0
            with pytest.raises(rs.SparseNotImplementedError) as err:
                rs.spmv(rs.create_handle(), op, 1.0, mat, x[0], 0.0, y[0], dt, alg, rs.SpMVStage.compute)
            assert err.value.index == 2
            op = rs.Operation.none
    opa = OPS[op](dense)
    x, y0 = vec(rng, opa.shape[1], p.dtype), vec(rng, opa.shape[0], p.dtype)
    vx, _ = _vec_descr(x, dt)
    y_full, dy = padded(y0)
    vy = rs.create_dnvec_descr(y0.size, dy, dt)
    h = rs.create_handle()
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], 0.5 - 1j, -2.0)
    out = np.zeros(1, np.int64)
    size = rs.spmv(h, op, alpha, mat, vx, beta, vy, dt, alg, rs.SpMVStage.buffer_size, out)
    assert size == out[0] >= 0
    temp = rm.empty(size, np.uint8) if size else None
    rs.spmv(h, op, alpha, mat, vx, beta, vy, dt, alg, rs.SpMVStage.preprocess, temp_buffer=temp)
    rs.spmv(h, op, alpha, mat, vx, beta, vy, dt, 0, rs.SpMVStage.compute, temp_buffer=temp)
    expected = _expected(p, 0.5 - 1j, -2.0, opa, x, y0, q["device_mode"])
    assert_close(dy.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, n),
                 scale=product_scale(p, 0.5 - 1j, opa, x, -2.0, y0))
    margins_untouched(y_full, y0.size)


@settings(max_examples=examples(30))
@given(generic_problems(), st.booleans(), st.sampled_from(list(rs.Order)), st.sampled_from(list(rs.Order)))
def test_generic_spmm_on_bsr_and_blocked_ell(q, bell, order_b, order_c):
    p, it, base, bd = q["p"], q["itype"], q["base"], q["bd"]
    m, n = q["m"], q["n"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    dense, ref = _bsr_reference(a, bd)
    mb, nb = dense.shape[0] // bd, dense.shape[1] // bd
    ptr = ref.indptr if ref is not None else np.zeros(mb + 1, int)
    cols = ref.indices if ref is not None else np.zeros(0, int)
    blocks = ref.data if ref is not None else np.zeros((0, bd, bd), p.dtype)
    if q["direction"] is rs.Direction.column:
        blocks = blocks.transpose(0, 2, 1)
    itype, dt = rs.IndexType.of(it), rs.Datatype.of(p.dtype)
    trans_b = q["trans"] if bell else [rs.Operation.none, rs.Operation.transpose][q["seed"] % 2]
    if bell:  # the same blocks as blocked ELL: column-major over block rows, -1 pads
        width = int(np.diff(ptr).max()) if mb else 0
        bcol = np.full((width, mb), -1, np.int64)
        bval = np.zeros((width, mb, bd, bd), p.dtype)
        for r in range(mb):
            for t, kk in enumerate(range(ptr[r], ptr[r + 1])):
                bcol[t, r], bval[t, r] = cols[kk] + base, blocks[kk]
        arrays = (rm.to_device(bcol.ravel().astype(it)), rm.to_device(bval.ravel()))
        mat = rs.create_bell_descr(mb * bd, nb * bd, q["direction"], bd, width * bd, *arrays, itype, base, dt)
        assert rs.bell_get(mat) == (mb * bd, nb * bd, q["direction"], bd, width * bd, *arrays, itype, base, dt)
        alg = rs.SpMMAlg.bell
    else:
        arrays = (rm.to_device((ptr + base).astype(it)), rm.to_device((cols + base).astype(it)),
                  rm.to_device(np.ascontiguousarray(blocks).ravel()))
        mat = rs.create_bsr_descr(mb, nb, cols.size, q["direction"], bd, *arrays, itype, itype, base, dt)
        alg = rs.SpMMAlg.bsr
    k = 1 + q["seed"] % 3
    B = vec(rng, nb * bd * k, p.dtype).reshape(nb * bd, k)
    stored = B if trans_b is rs.Operation.none else (B.T if trans_b is rs.Operation.transpose else B.conj().T)
    C0 = vec(rng, mb * bd * k, p.dtype).reshape(mb * bd, k)

    def dn(x: np.ndarray, order):
        host = x if order is rs.Order.row else x.T
        d = rm.to_device(np.ascontiguousarray(host).ravel())
        return rs.create_dnmat_descr(x.shape[0], x.shape[1], max(1, host.shape[1]), d, dt, order), d

    mB, _ = dn(stored, order_b)
    mC, dC = dn(C0, order_c)
    h = rs.create_handle()
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], 1.5, 0.5 + 1j)
    assert rs.spmm(h, "N", trans_b, alpha, mat, mB, beta, mC, dt, alg, rs.SpMMStage.buffer_size) == 0
    rs.spmm(h, "N", trans_b, alpha, mat, mB, beta, mC, dt, alg, rs.SpMMStage.preprocess)
    rs.spmm(h, "N", trans_b, alpha, mat, mB, beta, mC, dt, 0, rs.SpMMStage.compute)
    got = dC.get().reshape(C0.shape if order_c is rs.Order.row else C0.T.shape)
    got = got if order_c is rs.Order.row else got.T
    expected = scalar(p, 1.5) * (dense @ B) + scalar(p, 0.5 + 1j) * C0
    assert_close(got, expected.astype(p.dtype), p, "reduction", max(1, n),
                 scale=product_scale(p, 1.5, dense, B, scalar(p, 0.5 + 1j), C0))


def test_generic_descriptor_accessors_and_set_pointers():
    it, dt = rs.IndexType.i32, rs.Datatype.f64_r
    ind, val = rm.to_device(np.array([0, 1, 1, 0], np.int32)), rm.to_device(np.ones(2))
    aos = rs.create_coo_aos_descr(2, 2, 2, ind, val, it, 1, dt)
    assert rs.spmat_get_format(aos) is rs.Format.coo_aos and rs.spmat_get_index_base(aos) is rs.IndexBase.one
    ind2, val2 = rm.to_device(np.array([1, 1, 0, 0], np.int32)), rm.to_device(np.zeros(2))
    rs.coo_aos_set_pointers(aos, ind2, val2)
    assert rs.coo_aos_get(aos) == (2, 2, 2, ind2, val2, it, rs.IndexBase.one, dt)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.coo_aos_set_pointers(aos, None, val2)
    assert err.value.index == 2
    ell = rs.create_ell_descr(2, 3, None, None, 0, it, 0, dt)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.ell_set_pointers(ell, ind, None)  # rocSPARSE: non-null whatever the width
    assert err.value.index == 3
    rs.ell_set_pointers(ell, ind, val)
    assert rs.ell_get(ell)[2:5] == (ind, val, 0)
    bsr = rs.create_bsr_descr(1, 1, 0, rs.Direction.column, 2, ind, None, None, it, it, 0, dt)
    rs.bsr_set_pointers(bsr, ind, None, None)  # no blocks: the block arrays may be null
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.bsr_set_pointers(bsr, None, None, None)
    assert err.value.index == 2
    assert rs.bsr_get(bsr)[3:5] == (rs.Direction.column, 2)
    # rocsparse_auxiliary.cpp's getters do not check the format (test_sparse_audit_misc.py has the details)
    assert rs.csr_get(bsr) == (1, 1, 0, ind, None, None, it, it, rs.IndexBase.zero, dt)
    assert rs.bell_get(ell) == (2, 3, rs.Direction.row, 0, 0, ind, val, it, rs.IndexBase.zero, dt)
    for name in ("csr_get", "coo_aos_get", "bsr_get", "ell_set_pointers", "csc_set_pointers"):
        fn = getattr(rs, name)
        assert fn.__name__ == name and f"rocsparse_{name}" in fn.__doc__


def _i(n: int = 4):
    return rm.to_device(np.zeros(n, np.int32))


def _a(n: int = 4):
    return rm.to_device(np.ones(n))


IT, DT = rs.IndexType.i32, rs.Datatype.f64_r
SYM, UNSORTED = dict(type=rs.MatrixType.symmetric), dict(storage=rs.StorageMode.unsorted)


def _device(h):
    rs.set_pointer_mode(h, rs.PointerMode.device)
    return h


def _hyb(coo: bool = True):
    """A 2 x 3 HYB matrix of doubles, with (coo) a COO part."""
    h, hyb = rs.create_handle(), rs.create_hyb_mat()
    a = sp.csr_matrix(np.array([[1.0, 2.0, 3.0], [0.0, 4.0, 0.0]]))
    rs.dcsr2hyb(h, 2, 3, _descr(), *_csr(a, 0, np.int32), hyb, 1, 1 if coo else 2)
    return hyb


def _skew():
    """A 4 x 4 CSR matrix whose longest row (4) exceeds rocSPARSE's bound 2 (nnz - 1) / m + 1 = 3."""
    a = sp.csr_matrix(np.array([[1.0, 1, 1, 1], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]))
    return _csr(a, 0, np.int32)


def _generic(fmt: str):
    x, y = rs.create_dnvec_descr(4, _a(), DT), rs.create_dnvec_descr(4, _a(), DT)
    if fmt == "ell":
        mat = rs.create_ell_descr(4, 4, _i(4), _a(4), 1, IT, 0, DT)
    elif fmt == "bell":
        mat = rs.create_bell_descr(4, 4, 0, 2, 2, _i(2), _a(8), IT, 0, DT)
    else:
        mat = rs.create_bsr_descr(2, 2, 1, 0, 2, rm.to_device(np.array([0, 1, 1], np.int32)), _i(1), _a(4), IT, IT,
                                  0, DT)
    return mat, x, y


def _dnmat(rows: int, cols: int):
    return rs.create_dnmat_descr(rows, cols, rows, _a(rows * cols), DT, rs.Order.column)


def _spmm(fmt: str, **over):
    mat = _generic(fmt)[0]
    args = dict(handle=rs.create_handle(), trans_A="N", trans_B="N", alpha=1.0, mat_A=mat, mat_B=_dnmat(4, 2),
                beta=0.0, mat_C=_dnmat(4, 2), compute_type=DT, alg=0, stage=rs.SpMMStage.compute)
    args.update(over)
    return rs.spmm(**args)


def _spmv(fmt: str, **over):
    mat, x, y = _generic(fmt)
    args = dict(handle=rs.create_handle(), trans="N", alpha=1.0, mat=mat, x=x, beta=0.0, y=y, compute_type=DT, alg=0,
                stage=rs.SpMVStage.compute)
    args.update(over)
    return rs.spmv(**args)


STATUS_CASES = [
    # csr2ell_width(handle, m, csr_descr, csr_row_ptr, ell_descr, ell_width)
    (lambda h: rs.csr2ell_width(h, -1, None, None, None, None), rs.Status.invalid_size, 2),
    (lambda h: rs.csr2ell_width(h, 2, None, None, None, None), rs.Status.invalid_pointer, 3),
    (lambda h: rs.csr2ell_width(h, 2, _descr(**SYM), None, None, None), rs.Status.not_implemented, 3),
    (lambda h: rs.csr2ell_width(h, 2, _descr(**UNSORTED), None, None, None), rs.Status.requires_sorted_storage, 3),
    (lambda h: rs.csr2ell_width(h, 2, _descr(), None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.csr2ell_width(h, 2, _descr(), _i(3), None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.csr2ell_width(_device(h), 2, _descr(), _i(3), _descr(), None), rs.Status.invalid_pointer, 6),
    # csr2ell(handle, m, csr_descr, csr_val, csr_row_ptr, csr_col_ind, ell_descr, ell_width, ell_val, ell_col_ind)
    (lambda h: rs.dcsr2ell(h, -1, None, None, None, None, None, 1, None, None), rs.Status.invalid_size, 2),
    (lambda h: rs.dcsr2ell(h, 2, None, None, None, None, None, -1, None, None), rs.Status.invalid_size, 8),
    (lambda h: rs.dcsr2ell(h, 0, None, None, None, None, None, 3, None, None), rs.Status.success, 0),
    (lambda h: rs.dcsr2ell(h, 2, None, None, None, None, _descr(), 1, None, None), rs.Status.invalid_pointer, 3),
    (lambda h: rs.dcsr2ell(h, 2, _descr(), None, None, None, _descr(**SYM), 1, None, None),
     rs.Status.not_implemented, 7),
    (lambda h: rs.dcsr2ell(h, 2, _descr(), None, _i(3), _i(), _descr(), 1, _a(), _i()), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dcsr2ell(h, 2, _descr(), _a(), None, _i(), _descr(), 1, _a(), _i()), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcsr2ell(h, 2, _descr(), _a(), _i(3), _i(), _descr(), 1, _a(), None),
     rs.Status.invalid_pointer, 10),
    # ell2csr_nnz(handle, m, n, ell_descr, ell_width, ell_col_ind, csr_descr, csr_row_ptr, csr_nnz)
    (lambda h: rs.ell2csr_nnz(h, 2, -1, None, 1, None, None, None, None), rs.Status.invalid_size, 3),
    (lambda h: rs.ell2csr_nnz(h, 2, 2, None, -1, None, None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.ell2csr_nnz(h, 2, 2, _descr(), -1, None, None, None, None), rs.Status.invalid_size, 5),
    (lambda h: rs.ell2csr_nnz(h, 2, 2, _descr(), 1, None, _descr(**UNSORTED), None, None),
     rs.Status.requires_sorted_storage, 7),
    (lambda h: rs.ell2csr_nnz(h, 2, 2, _descr(), 1, None, _descr(), _i(3), None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.ell2csr_nnz(h, 2, 2, _descr(), 1, _i(2), _descr(), None, None), rs.Status.invalid_pointer, 8),
    (lambda h: rs.ell2csr_nnz(_device(h), 2, 2, _descr(), 1, _i(2), _descr(), _i(3), None),
     rs.Status.invalid_pointer, 9),
    # ell2csr(handle, m, n, ell_descr, ell_width, ell_val, ell_col_ind, csr_descr, csr_val, csr_row_ptr, csr_col_ind)
    (lambda h: rs.dell2csr(h, 2, 2, _descr(), 1, None, _i(), _descr(), _a(), _i(3), _i()), rs.Status.invalid_pointer,
     6),
    (lambda h: rs.dell2csr(h, 2, 2, _descr(), 1, _a(), _i(), _descr(), None, _i(3), _i()), rs.Status.invalid_pointer,
     9),
    (lambda h: rs.dell2csr(h, 2, 2, _descr(), 1, _a(), _i(), _descr(), _a(), _i(3), None), rs.Status.invalid_pointer,
     11),
    (lambda h: rs.dell2csr(h, 2, 0, _descr(), 1, None, None, _descr(), None, None, None), rs.Status.success, 0),
    # ellmv(handle, trans, m, n, alpha, descr, ell_val, ell_col_ind, ell_width, x, beta, y)
    (lambda h: rs.dellmv(h, 9, 2, 2, 1.0, None, None, None, 1, None, 0.0, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dellmv(h, 9, 2, 2, 1.0, _descr(), None, None, 1, None, 0.0, None), rs.Status.invalid_value, 2),
    (lambda h: rs.dellmv(h, "N", 2, 2, 1.0, _descr(**SYM), None, None, 1, None, 0.0, None),
     rs.Status.not_implemented, 6),
    (lambda h: rs.dellmv(h, "N", -2, 2, 1.0, _descr(), None, None, 1, None, 0.0, None), rs.Status.invalid_size, 3),
    (lambda h: rs.dellmv(h, "N", 2, 0, 1.0, _descr(), None, None, 1, None, 0.0, None), rs.Status.invalid_size, 9),
    (lambda h: rs.dellmv(h, "N", 2, 0, 1.0, _descr(), None, None, 0, None, None, None), rs.Status.invalid_pointer, 11),
    (lambda h: rs.dellmv(h, "N", 2, 2, None, _descr(), _a(), _i(), 1, _a(2), 0.0, _a(2)), rs.Status.invalid_pointer,
     5),
    (lambda h: rs.dellmv(h, "N", 2, 2, 1.0, _descr(), None, _i(), 1, _a(2), 0.0, _a(2)), rs.Status.invalid_pointer,
     7),
    (lambda h: rs.dellmv(h, "N", 2, 2, 1.0, _descr(), _a(), _i(), 1, None, 0.0, _a(2)), rs.Status.invalid_pointer,
     10),
    (lambda h: rs.dellmv(h, "N", 2, 2, 0.0, _descr(), None, None, 1, None, 1.0, None), rs.Status.success, 0),
    # csr2hyb(handle, m, n, descr, csr_val, csr_row_ptr, csr_col_ind, hyb, user_ell_width, partition_type)
    (lambda h: rs.dcsr2hyb(h, 2, -1, None, None, None, None, None, 0, 0), rs.Status.invalid_size, 3),
    (lambda h: rs.dcsr2hyb(h, 2, 2, None, None, None, None, None, 0, 0), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dcsr2hyb(h, 2, 2, _descr(), None, None, None, None, 0, 0), rs.Status.invalid_pointer, 8),
    (lambda h: rs.dcsr2hyb(h, 2, 2, _descr(), None, None, None, rs.create_hyb_mat(), 0, 3), rs.Status.invalid_value,
     10),
    (lambda h: rs.dcsr2hyb(h, 2, 2, _descr(), None, _i(3), _i(), rs.create_hyb_mat(), 0, 0),
     rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcsr2hyb(h, 2, 2, _descr(), _a(), _i(3), None, rs.create_hyb_mat(), 0, 0),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.dcsr2hyb(h, 2, 2, _descr(), _a(), None, _i(), rs.create_hyb_mat(), 0, 0),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.dcsr2hyb(h, 4, 4, _descr(), *_skew(), rs.create_hyb_mat(), 4, 1), rs.Status.invalid_value, 9),
    (lambda h: rs.dcsr2hyb(h, 4, 4, _descr(), *_skew(), rs.create_hyb_mat(), -1, 1), rs.Status.invalid_value, 9),
    (lambda h: rs.dcsr2hyb(h, 4, 4, _descr(), *_skew(), rs.create_hyb_mat(), 0, 2), rs.Status.invalid_value, 10),
    # hyb2csr_buffer_size(handle, descr, hyb, csr_row_ptr) / hyb2csr(handle, descr, hyb, val, row_ptr, col_ind, temp)
    (lambda h: rs.hyb2csr_buffer_size(h, None, None, None), rs.Status.invalid_pointer, 2),
    (lambda h: rs.hyb2csr_buffer_size(h, _descr(**SYM), None, None), rs.Status.not_implemented, 2),
    (lambda h: rs.hyb2csr_buffer_size(h, _descr(), None, None), rs.Status.invalid_pointer, 3),
    (lambda h: rs.hyb2csr_buffer_size(h, _descr(), _hyb(), None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dhyb2csr(h, _descr(), _hyb(), _a(), None, _i(), _a()), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dhyb2csr(h, _descr(), _hyb(), _a(), _i(3), _i(), None), rs.Status.success, 0),  # no temp_buffer
    (lambda h: rs.dhyb2csr(h, _descr(), _hyb(False), _a(), _i(3), _i(), None), rs.Status.success, 0),
    (lambda h: rs.shyb2csr(h, _descr(), _hyb(), _a(), _i(3), _i(), _a(64)), rs.Status.type_mismatch, 3),
    # hybmv(handle, trans, alpha, descr, hyb, x, beta, y)
    (lambda h: rs.dhybmv(h, 9, None, None, None, None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dhybmv(h, 9, None, _descr(), None, None, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dhybmv(h, 9, None, _descr(), _hyb(), None, None, None), rs.Status.invalid_value, 2),
    (lambda h: rs.dhybmv(h, "N", None, _descr(**UNSORTED), _hyb(), None, None, None),
     rs.Status.requires_sorted_storage, 4),
    (lambda h: rs.dhybmv(h, "N", None, _descr(), _hyb(), None, 0.0, None), rs.Status.invalid_pointer, 3),
    (lambda h: rs.dhybmv(h, "N", 1.0, _descr(), _hyb(), None, 0.0, _a(2)), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dhybmv(h, "N", 1.0, _descr(), _hyb(), _a(3), 0.0, None), rs.Status.invalid_pointer, 8),
    # csr2bsr_nnz(handle, dir, m, n, csr_descr, csr_row_ptr, csr_col_ind, block_dim, bsr_descr, bsr_row_ptr, bsr_nnz)
    (lambda h: rs.csr2bsr_nnz(h, 2, 2, 2, None, None, None, 1, None, None, None), rs.Status.invalid_value, 2),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, -2, None, None, None, 1, None, None, None), rs.Status.invalid_size, 4),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, None, None, None, 0, None, None, None), rs.Status.invalid_size, 8),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, None, None, None, 1, None, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, _descr(**SYM), None, None, 1, None, None, None),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, _descr(), None, None, 1, _descr(**UNSORTED), None, None),
     rs.Status.requires_sorted_storage, 9),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, _descr(), None, None, 1, _descr(), None, None), rs.Status.invalid_pointer,
     6),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, _descr(), _i(3), None, 1, _descr(), None, None), rs.Status.invalid_pointer,
     10),
    (lambda h: rs.csr2bsr_nnz(_device(h), 0, 2, 2, _descr(), _i(3), None, 1, _descr(), _i(3), None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.csr2bsr_nnz(h, 0, 2, 2, _descr(), rm.to_device(np.array([0, 1, 2], np.int32)), None, 1, _descr(),
                              _i(3), None), rs.Status.invalid_pointer, 7),
    # csr2bsr(handle, dir, m, n, csr_descr, csr_val, csr_row_ptr, csr_col_ind, block_dim, bsr_descr, bsr_val,
    #         bsr_row_ptr, bsr_col_ind)
    (lambda h: rs.dcsr2bsr(h, 0, 2, 2, None, None, None, None, 0, None, None, None, None), rs.Status.invalid_pointer,
     5),
    (lambda h: rs.dcsr2bsr(h, 0, 2, 2, _descr(), None, None, None, 0, None, None, None, None), rs.Status.invalid_size,
     9),
    (lambda h: rs.dcsr2bsr(h, 0, 2, 2, _descr(), None, None, None, 1, _descr(), None, None, None),
     rs.Status.invalid_pointer, 12),
    (lambda h: rs.dcsr2bsr(h, 0, 2, 2, _descr(), None, None, None, 1, _descr(), None, _i(3), None),
     rs.Status.success, 0),  # no blocks (the row pointer holds zeros)
    (lambda h: rs.dcsr2bsr(h, 0, 2, 2, _descr(), None, None, None, 1, _descr(), None,
                           rm.to_device(np.array([0, 1, 1], np.int32)), _i(1)), rs.Status.invalid_pointer, 11),
    # bsr2csr(handle, dir, mb, nb, bsr_descr, bsr_val, bsr_row_ptr, bsr_col_ind, block_dim, csr_descr, csr_val,
    #         csr_row_ptr, csr_col_ind)
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(**SYM | UNSORTED), None, None, None, 1, None, None, None, None),
     rs.Status.requires_sorted_storage, 5),
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(**SYM), None, None, None, 1, None, None, None, None),
     rs.Status.not_implemented, 5),
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(), None, None, None, 1, None, None, None, None),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(), None, _i(3), None, 1, _descr(**SYM), None, None, None),
     rs.Status.not_implemented, 10),
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(), None, _i(3), None, 1, _descr(), None, None, None),
     rs.Status.invalid_pointer, 12),
    (lambda h: rs.dbsr2csr(h, 0, 2, 2, _descr(), None, _i(3), None, 1, _descr(), None, _i(3), None),
     rs.Status.invalid_pointer, 6),
    # bsrmv(handle, dir, trans, mb, nb, nnzb, alpha, descr, bsr_val, bsr_row_ptr, bsr_col_ind, block_dim, info, x,
    #       beta, y)
    (lambda h: rs.dbsrmv(h, 5, "T", 1, 1, 1, 1.0, None, None, None, None, 2, None, None, 0.0, None),
     rs.Status.invalid_pointer, 8),
    (lambda h: rs.dbsrmv(h, 5, "T", 1, 1, 1, 1.0, _descr(), None, None, None, 2, None, None, 0.0, None),
     rs.Status.invalid_value, 2),
    (lambda h: rs.dbsrmv(h, 0, "T", 1, 1, 1, 1.0, _descr(), None, None, None, 2, None, None, 0.0, None),
     rs.Status.not_implemented, 3),
    (lambda h: rs.dbsrmv(h, 0, "N", 1, 1, 1, 1.0, _descr(**SYM), None, None, None, 2, None, None, 0.0, None),
     rs.Status.not_implemented, 8),
    (lambda h: rs.dbsrmv(h, 0, "N", 1, 1, 1, 1.0, _descr(), None, None, None, 0, None, None, 0.0, None),
     rs.Status.invalid_size, 12),
    (lambda h: rs.dbsrmv(h, 0, "N", 1, 1, 1, None, _descr(), None, None, None, 2, None, None, 0.0, None),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.dbsrmv(h, 0, "N", 1, 1, 1, 1.0, _descr(), None, _i(2), _i(1), 2, None, _a(2), 0.0, _a(2)),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.dbsrmv(h, 0, "N", 1, 1, 1, 1.0, _descr(), _a(), _i(2), _i(1), 2, None, _a(2), 0.0, None),
     rs.Status.invalid_pointer, 16),
    # bsrmm(handle, dir, trans_A, trans_B, mb, n, kb, nnzb, alpha, descr, bsr_val, bsr_row_ptr, bsr_col_ind,
    #       block_dim, B, ldb, beta, C, ldc)
    (lambda h: rs.dbsrmm(h, 0, "T", "N", 1, 1, 1, 1, 1.0, None, None, None, None, 1, None, 1, 0.0, None, 1),
     rs.Status.not_implemented, 3),
    (lambda h: rs.dbsrmm(h, 0, "N", "C", 1, 1, 1, 1, 1.0, None, None, None, None, 1, None, 1, 0.0, None, 1),
     rs.Status.not_implemented, 4),
    (lambda h: rs.dbsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, None, None, None, None, 1, None, 1, 0.0, None, 1),
     rs.Status.invalid_pointer, 10),
    (lambda h: rs.dbsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, _descr(), _a(), _i(2), _i(1), 0, None, 1, 0.0, None, 1),
     rs.Status.invalid_size, 14),
    (lambda h: rs.dbsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, _descr(), _a(), _i(2), _i(1), 2, None, 2, 0.0, _a(), 2),
     rs.Status.invalid_pointer, 15),
    (lambda h: rs.dbsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, _descr(), _a(), _i(2), _i(1), 2, _a(), 2, 0.0, _a(), 1),
     rs.Status.invalid_size, 19),
    (lambda h: rs.dbsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, _descr(), _a(), _i(2), _i(1), 2, _a(), 1, 0.0, _a(), 2),
     rs.Status.invalid_size, 16),
    # gemvi(handle, trans, m, n, alpha, A, lda, nnz, x_val, x_ind, beta, y, idx_base, temp_buffer)
    (lambda h: rs.dgemvi(h, 9, 2, 2, 1.0, None, 2, 1, None, None, 0.0, None, 0, None), rs.Status.invalid_value, 2),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, None, 2, 1, None, None, 0.0, None, 4, None), rs.Status.invalid_value, 13),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, None, 2, 3, None, None, 0.0, None, 0, None), rs.Status.invalid_size, 8),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, None, 1, 1, None, None, 0.0, None, 0, None), rs.Status.invalid_size, 7),
    (lambda h: rs.dgemvi(h, "N", 0, 2, None, None, 0, 1, None, None, None, None, 0, None), rs.Status.success, 0),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, None, 2, 1, None, None, 0.0, None, 0, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, _a(), 2, 1, _a(1), None, 0.0, _a(2), 0, None), rs.Status.invalid_pointer,
     10),
    (lambda h: rs.dgemvi(h, "N", 2, 2, 1.0, _a(), 2, 1, _a(1), _i(1), 0.0, None, 0, None), rs.Status.invalid_pointer,
     12),
    (lambda h: rs.dgemvi(h, "T", 2, 2, 1.0, _a(), 2, 1, _a(1), _i(1), 0.0, _a(2), 0, None),
     rs.Status.not_implemented, 2),
    # gemmi(handle, trans_A, trans_B, m, n, k, nnz, alpha, A, lda, descr, csr_val, csr_row_ptr, csr_col_ind, beta, C,
    #       ldc)
    (lambda h: rs.dgemmi(h, "N", "N", 0, 2, 2, 1, None, None, 1, None, None, None, None, None, None, 1),
     rs.Status.success, 0),
    (lambda h: rs.dgemmi(h, "T", "T", 2, 2, 2, 1, None, None, 1, None, None, None, None, None, None, 1),
     rs.Status.not_implemented, 2),
    (lambda h: rs.dgemmi(h, "N", "N", 2, 2, 2, 1, None, None, 1, None, None, None, None, None, None, 1),
     rs.Status.not_implemented, 3),
    (lambda h: rs.dgemmi(h, "N", "T", 2, 2, 2, 1, None, None, 1, None, None, None, None, None, None, 1),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dgemmi(h, "N", "T", 2, 2, 2, 1, 1.0, None, 1, _descr(), None, None, None, None, None, 1),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.dgemmi(h, "N", "T", 2, 2, 2, 1, 1.0, _a(), 1, _descr(), None, None, None, None, None, 1),
     rs.Status.invalid_size, 10),
    (lambda h: rs.dgemmi(h, "N", "T", 2, 2, 2, 1, 1.0, _a(), 2, _descr(), _a(1), _i(3), _i(1), 0.0, _a(), 1),
     rs.Status.invalid_size, 17),
    # prune_dense2csr_nnz(handle, m, n, A, lda, threshold, descr, csr_row_ptr, nnz_total_dev_host_ptr, temp_buffer)
    (lambda h: rs.dprune_dense2csr_nnz(h, 2, 2, None, 2, 0.5, None, None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dprune_dense2csr_nnz(h, 2, 2, _a(), 1, 0.5, None, None, None, None), rs.Status.invalid_size, 5),
    (lambda h: rs.dprune_dense2csr_nnz(h, 2, 2, _a(), 2, None, None, None, None, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dprune_dense2csr_nnz(h, 2, 2, _a(), 2, 0.5, _descr(**UNSORTED), None, None, None),
     rs.Status.requires_sorted_storage, 7),
    (lambda h: rs.dprune_dense2csr_nnz(h, 2, 2, _a(), 2, 0.5, _descr(), None, None, None), rs.Status.invalid_pointer,
     8),
    (lambda h: rs.dprune_dense2csr_nnz(_device(h), 2, 2, _a(), 2, _a(1), _descr(), _i(3), None, None),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.dprune_dense2csr(h, 2, 2, None, 2, 0.5, _descr(), None, _i(3), None, None),
     rs.Status.invalid_pointer, 4),
    # prune by percentage: (..., percentage, descr, [csr_val,] csr_row_ptr, [csr_col_ind | nnz_total], info, [temp])
    (lambda h: rs.dprune_dense2csr_by_percentage_buffer_size(h, 2, 2, _a(), 2, 101, _descr(), None, _i(3), None,
                                                              None), rs.Status.invalid_value, 6),
    (lambda h: rs.dprune_dense2csr_by_percentage_buffer_size(h, 2, 2, _a(), 2, 10, _descr(), None, _i(3), None,
                                                              None), rs.Status.invalid_pointer, 11),
    (lambda h: rs.dprune_dense2csr_nnz_by_percentage(h, 2, 2, _a(), 2, 10, _descr(), _i(3), None,
                                                     rs.create_mat_info(), None), rs.Status.invalid_pointer, 11),
    (lambda h: rs.dprune_dense2csr_by_percentage(h, 2, 2, _a(), 2, 10, _descr(), None, _i(3), None, None, None),
     rs.Status.invalid_pointer, 11),
    # prune_csr2csr_nnz(handle, m, n, nnz_A, descr_A, val_A, row_ptr_A, col_ind_A, threshold, descr_C, row_ptr_C,
    #                   nnz_total_dev_host_ptr, temp_buffer)
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, -1, None, None, None, None, 0.5, None, None, None, None),
     rs.Status.invalid_size, 4),
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, 1, None, None, None, None, 0.5, None, None, None, None),
     rs.Status.invalid_pointer, 5),
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, 1, _descr(), None, None, None, 0.5, None, None, None, None),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), 0.5, None, None, None, None),
     rs.Status.invalid_pointer, 10),
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), 0.5, _descr(), None, None, None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.sprune_csr2csr_nnz(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), None, _descr(), _i(3), None, None),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.sprune_csr2csr_nnz_by_percentage(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), -1, _descr(), _i(3),
                                                   None, None, None), rs.Status.invalid_value, 9),
    (lambda h: rs.sprune_csr2csr_nnz_by_percentage(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), 5, _descr(), _i(3),
                                                   None, None, None), rs.Status.invalid_pointer, 13),
    (lambda h: rs.sprune_csr2csr_nnz_by_percentage(h, 2, 2, 1, _descr(), _a(1), _i(3), _i(1), 5, _descr(), _i(3),
                                                   None, rs.create_mat_info(), None), rs.Status.invalid_pointer, 14),
    # generic descriptors (the descriptor out-parameter is #1)
    (lambda h: rs.create_ell_descr(2, 2, None, None, 3, IT, 0, DT), rs.Status.invalid_pointer, 4),
    (lambda h: rs.create_ell_descr(2, 2, _i(), _a(), 3, IT, 0, DT), rs.Status.invalid_size, 6),
    (lambda h: rs.create_ell_descr(2, 2, _i(), _a(), 2, 9, 0, DT), rs.Status.invalid_value, 7),
    (lambda h: rs.create_bsr_descr(1, 1, 2, 0, 1, None, None, None, IT, IT, 0, DT), rs.Status.invalid_size, 4),
    (lambda h: rs.create_bsr_descr(1, 1, 1, 2, 1, None, None, None, IT, IT, 0, DT), rs.Status.invalid_value, 5),
    (lambda h: rs.create_bsr_descr(1, 1, 1, 0, 0, None, None, None, IT, IT, 0, DT), rs.Status.invalid_size, 6),
    (lambda h: rs.create_bsr_descr(1, 1, 1, 0, 1, None, None, None, IT, IT, 0, DT), rs.Status.invalid_pointer, 7),
    (lambda h: rs.create_bsr_descr(1, 1, 1, 0, 1, _i(2), _i(1), _a(1), IT, IT, 2, DT), rs.Status.invalid_value, 12),
    (lambda h: rs.create_bell_descr(4, 4, 0, 0, 2, None, None, IT, 0, DT), rs.Status.invalid_size, 5),
    (lambda h: rs.create_bell_descr(4, 4, 0, 2, 6, None, None, IT, 0, DT), rs.Status.invalid_size, 6),
    (lambda h: rs.create_bell_descr(4, 4, 0, 2, 2, None, None, IT, 0, DT), rs.Status.invalid_pointer, 7),
    (lambda h: rs.create_coo_aos_descr(1, 1, 2, None, None, IT, 0, DT), rs.Status.invalid_size, 4),
    (lambda h: rs.create_coo_aos_descr(2, 2, 1, None, None, IT, 0, DT), rs.Status.invalid_pointer, 5),
    (lambda h: rs.create_coo_aos_descr(2, 2, 1, _i(2), _a(1), IT, 0, 1), rs.Status.invalid_value, 9),
    # spmv(handle, trans, alpha, mat, x, beta, y, compute_type, alg, stage) / spmm(..., mat_A #5, ..., alg #10)
    (lambda h: _spmv("bell"), rs.Status.invalid_value, 9),
    (lambda h: _spmv("ell", alg=rs.SpMVAlg.csr_adaptive), rs.Status.invalid_value, 9),
    (lambda h: _spmv("bsr", alg=rs.SpMVAlg.ell), rs.Status.invalid_value, 9),
    (lambda h: _spmv("bsr", trans="T"), rs.Status.not_implemented, 2),
    (lambda h: _spmm("ell"), rs.Status.not_implemented, 5),
    (lambda h: _spmm("bsr", alg=rs.SpMMAlg.bell), rs.Status.invalid_value, 10),
    (lambda h: _spmm("bsr", trans_A="T", mat_C=_dnmat(4, 2)), rs.Status.not_implemented, 2),
    (lambda h: _spmm("bsr", trans_B="C", mat_B=_dnmat(2, 4)), rs.Status.not_implemented, 3),
    (lambda h: _spmm("bell", mat_C=_dnmat(5, 2)), rs.Status.invalid_size, 8),
    (lambda h: _spmm("bell", mat_A=rs.create_bell_descr(5, 4, 0, 2, 2, _i(2), _a(8), IT, 0, DT)),
     rs.Status.invalid_size, 5),
]


@pytest.mark.parametrize("case", range(len(STATUS_CASES)))
def test_statuses_in_rocsparse_order(case):
    call, status, index = STATUS_CASES[case]
    h = rs.create_handle()
    if status is rs.Status.success:
        call(h)
        return
    with pytest.raises(rs.SparseError) as err:
        call(h)
    assert (err.value.status, err.value.index) == (status, index)


def test_symmetric_matrices_are_not_implemented_in_generic_products():
    mat, x, y = _generic("ell")
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.matrix_type, rs.MatrixType.symmetric)
    with pytest.raises(rs.SparseNotImplementedError) as err:
        rs.spmv(rs.create_handle(), "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.compute)
    assert err.value.index == 4


def test_hyb_mat_lifecycle():
    hyb = rs.create_hyb_mat()
    assert (hyb.m, hyb.n, hyb.partition, hyb.ell_nnz, hyb.coo_nnz) == (0, 0, rs.HybPartition.auto, 0, 0)
    full = _hyb()
    assert (full.ell_width, full.coo_nnz) == (1, 2) and full.ell_val is not None
    rs.destroy_hyb_mat(full)
    assert full.ell_val is None and full.coo_val is None
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.destroy_hyb_mat(full)
    assert err.value.index == 1
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.hyb2csr_buffer_size(rs.create_handle(), _descr(), full, None)


@pytest.mark.slow
@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_formats_large(p):
    rng = np.random.default_rng(17)
    m, n = 40_000, 30_000
    a = random_csr(rng, m, n, 2e-4, p.dtype)
    h, d = rs.create_handle(), _descr()
    v, ptr, col = _csr(a, 0, np.int32)
    x = vec(rng, n, p.dtype)
    width = rs.csr2ell_width(h, m, d, ptr, d, None)
    ev, ec = rm.empty(m * width, p.dtype), rm.empty(m * width, np.int32)
    _fn(p, "csr2ell")(h, m, d, v, ptr, col, d, width, ev, ec)
    y = rm.empty(m, p.dtype)
    _fn(p, "ellmv")(h, "N", m, n, scalar(p, 1.0), d, ev, ec, width, rm.to_device(x), scalar(p, 0.0), y)
    assert_close(y.get(), (a @ x).astype(p.dtype), p, "reduction", n)
    hyb = rs.create_hyb_mat()
    _fn(p, "csr2hyb")(h, m, n, d, v, ptr, col, hyb, 0, rs.HybPartition.auto)
    yt = rm.empty(n, p.dtype)
    xt = vec(rng, m, p.dtype)
    _fn(p, "hybmv")(h, "T", scalar(p, 1.0), d, hyb, rm.to_device(xt), scalar(p, 0.0), yt)
    assert_close(yt.get(), (a.T @ xt).astype(p.dtype), p, "reduction", m)
    bp = rm.empty(m // 4 + 1, np.int32)
    nnzb = rs.csr2bsr_nnz(h, 0, m, n, d, ptr, col, 4, d, bp, None)
    bv, bc = rm.empty(nnzb * 16, p.dtype), rm.empty(nnzb, np.int32)
    _fn(p, "csr2bsr")(h, 1, m, n, d, v, ptr, col, 4, d, bv, bp, bc)
    _fn(p, "bsrmv")(h, 1, "N", m // 4, n // 4, nnzb, scalar(p, 1.0), d, bv, bp, bc, 4, None, rm.to_device(x),
                    scalar(p, 0.0), y)
    assert_close(y.get(), (a @ x).astype(p.dtype), p, "reduction", n)
