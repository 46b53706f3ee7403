"""rocmath.sparse general BSR (rectangular blocks) and compress routines: csr2gebsr (with its buffer size and nnz
stage), gebsr2csr, gebsr2gebsc, gebsr2gebsr, gebsrmv, gebsrmm, nnz_compress / csr2csr_compress, cscsort and
inverse_permutation, against scipy.sparse and numpy; statuses in rocSPARSE's check order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded, product_scale, random_csr, scalar, vec

import rocmath as rm
import rocmath.sparse as rs
from rocmath.errors import MemoryAccessFault
from rocmath.precision import SDCZ, D, Precision
from rocmath.testing import assert_close, examples

FLT_MIN = float(np.finfo(np.float32).tiny)
ROW, COL = rs.Direction.row, rs.Direction.column


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def descr(base: int = 0, **kw) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    if "type" in kw:
        rs.set_mat_type(d, kw["type"])
    if "storage" in kw:
        rs.set_mat_storage_mode(d, kw["storage"])
    return d


def itype_for(draw, p: Precision):
    """int64 indices for double precision only (every kernel compiles one extra index type, not four)."""
    return np.int64 if p is D and draw(st.booleans()) else np.int32


def dev_csr(a: sp.csr_matrix, base: int, it):
    return (rm.to_device(a.data), rm.to_device((a.indptr + base).astype(it)),
            rm.to_device((a.indices + base).astype(it)))


def padded_dense(a, rbd: int, cbd: int) -> np.ndarray:
    """``a`` (dense or sparse) zero-padded to multiples of the block dimensions."""
    a = a.toarray() if sp.issparse(a) else np.asarray(a)
    m, n = a.shape
    out = np.zeros((-(-m // rbd) * rbd, -(-n // cbd) * cbd), a.dtype)
    out[:m, :n] = a
    return out


def scipy_bsr(dense: np.ndarray, rbd: int, cbd: int) -> sp.bsr_matrix:
    """scipy's BSR form (rectangular blocks) of a padded dense matrix: the blocks holding a nonzero, sorted."""
    ref = sp.bsr_matrix(dense, blocksize=(rbd, cbd))
    ref.sort_indices()
    return ref


def layout(blocks: np.ndarray, direction) -> np.ndarray:
    """``(nnzb, rbd, cbd)`` blocks as rocSPARSE stores them: row-major (direction row) or column-major."""
    return np.ascontiguousarray(blocks if direction is ROW else blocks.transpose(0, 2, 1)).ravel()


def unlayout(flat: np.ndarray, rbd: int, cbd: int, direction) -> np.ndarray:
    if direction is ROW:
        return flat.reshape(-1, rbd, cbd)
    return flat.reshape(-1, cbd, rbd).transpose(0, 2, 1)


def dev_gebsr(ref: sp.bsr_matrix, base: int, direction, it, dtype):
    return (rm.to_device(layout(ref.data.astype(dtype), direction)), rm.to_device((ref.indptr + base).astype(it)),
            rm.to_device((ref.indices + base).astype(it)))


def random_gebsr(rng, mb: int, nb: int, rbd: int, cbd: int, density: float, dtype) -> tuple[np.ndarray, sp.bsr_matrix]:
    """A random mb x nb GEBSR matrix (some stored blocks may hold zeros) as (its dense matrix, scipy's BSR of it with
    every stored block kept)."""
    a = random_csr(rng, mb * rbd, nb * cbd, density, dtype)
    ref = scipy_bsr(a.toarray(), rbd, cbd) if mb and nb else sp.bsr_matrix((mb * rbd, nb * cbd), blocksize=(rbd, cbd))
    ref.sort_indices()
    return ref.toarray(), ref


def device_scalars(h, p: Precision, device_mode: bool, alpha, beta):
    if not device_mode:
        rs.set_pointer_mode(h, rs.PointerMode.host)
        return scalar(p, alpha), scalar(p, beta)
    rs.set_pointer_mode(h, rs.PointerMode.device)
    return (rm.to_device(np.array([scalar(p, alpha)], p.dtype)), rm.to_device(np.array([scalar(p, beta)], p.dtype)))


# --- csr2gebsr / gebsr2csr ---------------------------------------------------------------------------------


@st.composite
def csr2gebsr_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(p=p, it=itype_for(draw, p), m=draw(st.sampled_from([0, 1, 5, 9])),
                n=draw(st.sampled_from([0, 1, 4, 10])), rbd=draw(st.integers(1, 4)), cbd=draw(st.integers(1, 4)),
                direction=draw(st.sampled_from([ROW, COL])), density=draw(st.sampled_from([0.0, 0.2, 0.6])),
                bases=draw(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1]))),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(60), derandomize=True)
@given(csr2gebsr_problems())
def test_csr2gebsr_and_gebsr2csr_match_scipy(q):
    p, it, m, n, rbd, cbd, direction = q["p"], q["it"], q["m"], q["n"], q["rbd"], q["cbd"], q["direction"]
    cb, bb = q["bases"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)  # no stored zeros: scipy's blocks are the stored entries' blocks
    mb, nb = -(-m // rbd), -(-n // cbd)
    h, dc, db = rs.create_handle(), descr(cb), descr(bb)
    v, ptr, col = dev_csr(a, cb, it)
    assert fn(p, "csr2gebsr_buffer_size")(h, direction, m, n, dc, v, ptr, col, rbd, cbd) == 0
    bp_full, bp = padded(np.full(mb + 1, -3, it))
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        out = rm.to_device(np.full(1, -7, it))
        assert rs.csr2gebsr_nnz(h, direction, m, n, dc, ptr, col, db, bp, rbd, cbd, out, None) is None
        nnzb = int(out.get()[0])
        rs.set_pointer_mode(h, rs.PointerMode.host)
    else:
        nnzb = rs.csr2gebsr_nnz(h, direction, m, n, dc, ptr, col, db, bp, rbd, cbd, None, None)
    margins_untouched(bp_full, mb + 1)
    if not (m and n):
        assert nnzb == 0 and np.array_equal(bp.get(), np.full(mb + 1, bb))
        return
    dense = padded_dense(a, rbd, cbd)
    ref = scipy_bsr(dense, rbd, cbd)
    assert nnzb == ref.indices.size
    assert np.array_equal(bp.get(), ref.indptr + bb)
    bv_full, bv = padded(np.full(nnzb * rbd * cbd, 5, p.dtype))
    bc_full, bc = padded(np.full(nnzb, -9, it))
    fn(p, "csr2gebsr")(h, direction, m, n, dc, v, ptr, col, db, bv, bp, bc, rbd, cbd, None)
    assert np.array_equal(bc.get(), ref.indices + bb)
    assert np.array_equal(bv.get(), layout(ref.data, direction))
    margins_untouched(bv_full, nnzb * rbd * cbd)
    margins_untouched(bc_full, nnzb)
    # gebsr2csr: every element of every block, an (mb rbd) x (nb cbd) CSR matrix, columns ascending in a block
    nnz2 = nnzb * rbd * cbd
    cv_full, cv = padded(np.zeros(nnz2, p.dtype))
    cc_full, cc = padded(np.zeros(nnz2, it))
    cp_full, cp = padded(np.zeros(mb * rbd + 1, it))
    fn(p, "gebsr2csr")(h, direction, mb, nb, db, bv, bp, bc, rbd, cbd, dc, cv, cp, cc)
    counts = np.repeat(np.diff(ref.indptr) * cbd, rbd)
    assert np.array_equal(cp.get(), np.concatenate([[0], np.cumsum(counts)]) + cb)
    back = sp.csr_matrix((cv.get(), cc.get() - cb, cp.get() - cb), shape=dense.shape)
    assert np.array_equal(back.toarray(), dense)
    assert np.all(np.diff(cc.get().reshape(-1, cbd), axis=1) == 1)
    for full, size in ((cv_full, nnz2), (cc_full, nnz2), (cp_full, mb * rbd + 1)):
        margins_untouched(full, size)


def test_csr2gebsr_keeps_blocks_of_stored_zeros_and_matches_the_header_example():
    # rocsparse_gebsr2csr.h's example: A (4 x 6) in 2 x 3 blocks, direction column; A[0, 2] is a stored zero here,
    # and an extra stored zero at (0, 5) makes block (0, 1) exist with zeros only (blocks follow the structure).
    dense = np.array([[1, 4, 0, 0, 0, 0], [0, 2, 3, 0, 0, 0], [5, 0, 0, 7, 8, 0], [0, 0, 9, 0, 6, 0]], float)
    a = sp.csr_matrix((np.array([1, 4, 0, 0, 2, 3, 5, 7, 8, 9, 6], float),
                       np.array([0, 1, 2, 5, 1, 2, 0, 3, 4, 2, 4]), np.array([0, 4, 6, 9, 11])), shape=dense.shape)
    assert np.array_equal(a.toarray(), dense) and a.nnz == 11
    h, d = rs.create_handle(), descr()
    v, ptr, col = dev_csr(a, 0, np.int32)
    bp = rm.empty(3, np.int32)
    assert rs.csr2gebsr_nnz(h, COL, 4, 6, d, ptr, col, d, bp, 2, 3, None, None) == 4
    assert bp.get().tolist() == [0, 2, 4]
    bv, bc = rm.empty(24), rm.empty(4, np.int32)
    rs.dcsr2gebsr(h, COL, 4, 6, d, v, ptr, col, d, bv, bp, bc, 2, 3, None)
    assert bc.get().tolist() == [0, 1, 0, 1]
    got = bv.get().reshape(4, 6)
    assert got[0].tolist() == [1, 0, 4, 2, 0, 3] and not got[1].any()
    assert got[2:].ravel().tolist() == [5, 0, 0, 0, 0, 9, 7, 0, 8, 6, 0, 0]  # the header's bsr_val
    # the header's own GEBSR matrix back to CSR
    hb = [rm.to_device(np.array(x, t)) for x, t in (([1, 0, 4, 2, 0, 3, 5, 0, 0, 0, 0, 9, 7, 0, 8, 6, 0, 0], float),
                                                    ([0, 1, 3], np.int32), ([0, 0, 1], np.int32))]
    cv, cp, cc = rm.empty(18), rm.empty(5, np.int32), rm.empty(18, np.int32)
    rs.dgebsr2csr(h, COL, 2, 2, d, *hb, 2, 3, d, cv, cp, cc)
    back = sp.csr_matrix((cv.get(), cc.get(), cp.get()), shape=(4, 6))
    assert back.nnz == 18 and np.array_equal(back.toarray(), dense)
    assert cp.get().tolist() == [0, 3, 6, 12, 18]


def test_gebsr_quick_returns_fill_the_pointers():
    h = rs.create_handle()
    bp = rm.to_device(np.full(4, -1, np.int32))
    # m == 0: mb + 1 = 1 entry of the BSR base; n == 0: ceil(m / rbd) + 1 entries
    assert rs.csr2gebsr_nnz(h, 0, 5, 0, descr(), _i(6), None, descr(1), bp, 2, 3, None, None) == 0
    assert bp.get().tolist() == [1, 1, 1, 1]
    rs.set_pointer_mode(h, rs.PointerMode.device)
    out = rm.to_device(np.full(1, 7, np.int32))
    assert rs.csr2gebsr_nnz(h, 0, 0, 5, descr(), None, None, descr(), bp, 2, 3, out, None) is None
    assert out.get()[0] == 0 and bp.get().tolist() == [0, 1, 1, 1]
    rs.set_pointer_mode(h, rs.PointerMode.host)
    cp = rm.to_device(np.full(8, -1, np.int32))
    rs.dgebsr2csr(h, 1, 3, 0, descr(), None, _i(4), None, 2, 5, descr(1), None, cp, None)
    assert cp.get().tolist() == [1] * 7 + [-1]
    cptr = rm.to_device(np.full(4, -1, np.int32))
    rs.dgebsr2gebsc(h, 2, 3, 0, None, None, None, 2, 3, None, None, cptr, 1, 1, None)  # nnzb == 0
    assert cptr.get().tolist() == [1, 1, 1, 1]
    # gebsr2gebsr_nnz without blocks: C's pointer (ceil(mb rbd_A / rbd_C) + 1 entries) and a zero count
    cpc = rm.to_device(np.full(5, -1, np.int32))
    assert rs.gebsr2gebsr_nnz(h, 0, 3, 2, 0, descr(), _i(4), None, 2, 2, descr(1), cpc, 3, 1, None, None) == 0
    assert cpc.get().tolist() == [1, 1, 1, -1, -1]
    # gebsr2gebsr's quick return (mb or nb 0) writes nothing, checks no descriptor
    rs.dgebsr2gebsr(h, 0, 0, 2, 0, None, None, None, None, 2, 2, None, None, None, None, 3, 1, None)


# --- gebsr2gebsc -------------------------------------------------------------------------------------------


@st.composite
def gebsc_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(p=p, it=itype_for(draw, p), mb=draw(st.sampled_from([1, 2, 5])), nb=draw(st.sampled_from([1, 3, 6])),
                rbd=draw(st.integers(1, 3)), cbd=draw(st.integers(1, 4)),
                density=draw(st.sampled_from([0.1, 0.4, 1.0])),
                direction=draw(st.sampled_from([ROW, COL])), base=draw(st.sampled_from([0, 1])),
                numeric=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(50), derandomize=True)
@given(gebsc_problems())
def test_gebsr2gebsc_matches_scipy_transpose(q):
    p, it, mb, nb, rbd, cbd, base = q["p"], q["it"], q["mb"], q["nb"], q["rbd"], q["cbd"], q["base"]
    rng = np.random.default_rng(q["seed"])
    _, ref = random_gebsr(rng, mb, nb, rbd, cbd, q["density"], p.dtype)
    nnzb = ref.indices.size
    h = rs.create_handle()
    bv, bp, bc = dev_gebsr(ref, base, q["direction"], it, p.dtype)
    size = fn(p, "gebsr2gebsc_buffer_size")(h, mb, nb, nnzb, bv, bp, bc, rbd, cbd)
    assert size >= 3 * 4 * nnzb
    temp = rm.empty(max(size, 1), np.uint8)
    sv_full, sv = padded(np.full(nnzb * rbd * cbd, 2.5, p.dtype))
    sr_full, sr = padded(np.full(nnzb, -4, it))
    sp_full, sptr = padded(np.full(nb + 1, -4, it))
    action = rs.Action.numeric if q["numeric"] else rs.Action.symbolic
    fn(p, "gebsr2gebsc")(h, mb, nb, nnzb, bv, bp, bc, rbd, cbd, sv, sr, sptr, action, base, temp)
    t = ref.T.tobsr(blocksize=(cbd, rbd))  # the transpose: block rows ascending within a block column
    t.sort_indices()
    if nnzb:
        assert np.array_equal(sptr.get(), t.indptr + base) and np.array_equal(sr.get(), t.indices + base)
    else:
        assert np.array_equal(sptr.get(), np.full(nb + 1, base))
    if q["numeric"]:
        # the blocks of A, moved (not transposed), in the layout they had
        assert np.array_equal(sv.get(), layout(t.data.transpose(0, 2, 1), q["direction"]))
    else:
        assert np.all(sv.get() == 2.5)
    for full, size in ((sv_full, nnzb * rbd * cbd), (sr_full, nnzb), (sp_full, nb + 1)):
        margins_untouched(full, size)


# --- gebsr2gebsr -------------------------------------------------------------------------------------------


@st.composite
def gebsr2gebsr_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(p=p, it=itype_for(draw, p), mb=draw(st.sampled_from([1, 3, 5])), nb=draw(st.sampled_from([1, 2, 4])),
                dims_a=draw(st.tuples(st.integers(1, 4), st.integers(1, 4))),
                dims_c=draw(st.tuples(st.integers(1, 5), st.integers(1, 5))),
                density=draw(st.sampled_from([0.0, 0.15, 0.5])), direction=draw(st.sampled_from([ROW, COL])),
                bases=draw(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1]))),
                zero_block=draw(st.booleans()), device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(60), derandomize=True)
@given(gebsr2gebsr_problems())
def test_gebsr2gebsr_matches_scipy(q):
    p, it, mb, nb, direction = q["p"], q["it"], q["mb"], q["nb"], q["direction"]
    (ra, ca), (rc, cc_) = q["dims_a"], q["dims_c"]
    ba, bc_base = q["bases"]
    rng = np.random.default_rng(q["seed"])
    dense, ref = random_gebsr(rng, mb, nb, ra, ca, q["density"], p.dtype)
    if q["zero_block"] and ref.indices.size:
        ref.data[0] = 0  # a stored block of zeros still makes C's blocks that overlap it
    dense = ref.toarray()
    nnzb = ref.indices.size
    h, da, dc = rs.create_handle(), descr(ba), descr(bc_base)
    av, ap, ac = dev_gebsr(ref, ba, direction, it, p.dtype)
    assert fn(p, "gebsr2gebsr_buffer_size")(h, direction, mb, nb, nnzb, da, av, ap, ac, ra, ca, rc, cc_) == 0
    m = mb * ra
    mbc = -(-m // rc)
    # C's structure: the C blocks overlapping a stored block of A
    mask = np.zeros(dense.shape)
    for r in range(mb):
        for k in range(ref.indptr[r], ref.indptr[r + 1]):
            mask[r * ra:(r + 1) * ra, ref.indices[k] * ca:(ref.indices[k] + 1) * ca] = 1
    cref = scipy_bsr(padded_dense(mask, rc, cc_), rc, cc_)
    values = padded_dense(dense, rc, cc_)
    cp_full, cp = padded(np.full(mbc + 1, -2, it))
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        out = rm.to_device(np.full(1, -7, it))
        assert rs.gebsr2gebsr_nnz(h, direction, mb, nb, nnzb, da, ap, ac, ra, ca, dc, cp, rc, cc_, out, None) is None
        nnzc = int(out.get()[0])
        rs.set_pointer_mode(h, rs.PointerMode.host)
    else:
        nnzc = rs.gebsr2gebsr_nnz(h, direction, mb, nb, nnzb, da, ap, ac, ra, ca, dc, cp, rc, cc_, None, None)
    margins_untouched(cp_full, mbc + 1)
    assert nnzc == cref.indices.size
    assert np.array_equal(cp.get(), cref.indptr + bc_base)
    cv_full, cv = padded(np.full(nnzc * rc * cc_, 7, p.dtype))
    ci_full, ci = padded(np.full(nnzc, -5, it))
    fn(p, "gebsr2gebsr")(h, direction, mb, nb, nnzb, da, av, ap, ac, ra, ca, dc, cv, cp, ci, rc, cc_, None)
    assert np.array_equal(ci.get(), cref.indices + bc_base)
    blocks = unlayout(cv.get(), rc, cc_, direction)
    got = sp.bsr_matrix((blocks, cref.indices, cref.indptr), shape=values.shape).toarray() if nnzc else 0 * values
    assert np.array_equal(got, values)
    margins_untouched(cv_full, nnzc * rc * cc_)
    margins_untouched(ci_full, nnzc)


def test_gebsr2gebsr_large_row_blocks_need_rocsparse_temp_buffer():
    rng = np.random.default_rng(11)
    dense, ref = random_gebsr(rng, 3, 2, 20, 3, 0.1, np.float64)
    h, d = rs.create_handle(), descr()
    av, ap, ac = dev_gebsr(ref, 0, ROW, np.int32, np.float64)
    nnzb = ref.indices.size
    size = rs.dgebsr2gebsr_buffer_size(h, ROW, 3, 2, nnzb, d, av, ap, ac, 20, 3, 33, 2)
    assert size == 4 * (60 + 1) + (4 + 8) * 60 * nnzb  # rocSPARSE's: its intermediate CSR matrix
    cp = rm.empty(3, np.int32)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.gebsr2gebsr_nnz(h, ROW, 3, 2, nnzb, d, ap, ac, 20, 3, d, cp, 33, 2, None, None)
    assert err.value.index == 16
    temp = rm.empty(size, np.uint8)
    nnzc = rs.gebsr2gebsr_nnz(h, ROW, 3, 2, nnzb, d, ap, ac, 20, 3, d, cp, 33, 2, None, temp)
    cv, ci = rm.empty(nnzc * 66), rm.empty(nnzc, np.int32)
    rs.dgebsr2gebsr(h, ROW, 3, 2, nnzb, d, av, ap, ac, 20, 3, d, cv, cp, ci, 33, 2, temp)
    got = sp.bsr_matrix((cv.get().reshape(-1, 33, 2), ci.get(), cp.get()), shape=(66, 6)).toarray()
    assert np.array_equal(got[:60], dense) and not got[60:].any()


# --- gebsrmv / gebsrmm -------------------------------------------------------------------------------------


@st.composite
def product_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(p=p, it=itype_for(draw, p), mb=draw(st.sampled_from([0, 1, 4, 9])),
                nb=draw(st.sampled_from([0, 1, 3, 7])), rbd=draw(st.integers(1, 4)), cbd=draw(st.integers(1, 5)),
                density=draw(st.sampled_from([0.0, 0.2, 0.7])), direction=draw(st.sampled_from([ROW, COL])),
                base=draw(st.sampled_from([0, 1])), alpha=draw(st.sampled_from([1.0, 0.0, -1.5 + 0.5j])),
                beta=draw(st.sampled_from([0.0, 1.0, 0.25j - 2])), device_mode=draw(st.booleans()),
                trans_b=draw(st.sampled_from([rs.Operation.none, rs.Operation.transpose])),
                k=draw(st.sampled_from([1, 3])), seed=draw(st.integers(0, 2**16)))


def expected(p: Precision, alpha, beta, A: np.ndarray, X: np.ndarray, Y0: np.ndarray):
    a_, b_ = scalar(p, alpha), scalar(p, beta)
    if a_ == 0 and b_ == 1:
        return Y0
    return (a_ * (A @ X) + (b_ * Y0 if b_ != 0 else 0)).astype(p.dtype)


@settings(max_examples=examples(60), derandomize=True)
@given(product_problems())
def test_gebsrmv_matches_scipy(q):
    p, it, mb, nb, rbd, cbd, direction = q["p"], q["it"], q["mb"], q["nb"], q["rbd"], q["cbd"], q["direction"]
    rng = np.random.default_rng(q["seed"])
    dense, ref = random_gebsr(rng, mb, nb, rbd, cbd, q["density"], p.dtype)
    nnzb = ref.indices.size
    h, d = rs.create_handle(), descr(q["base"])
    bv, bp, bc = dev_gebsr(ref, q["base"], direction, it, p.dtype)
    x = vec(rng, nb * cbd, p.dtype)
    y0 = vec(rng, mb * rbd, p.dtype)
    if scalar(p, q["beta"]) == 0:
        y0[:] = np.nan  # beta == 0 never reads y
    y_full, y = padded(y0.copy())
    alpha, beta = device_scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    fn(p, "gebsrmv")(h, direction, "N", mb, nb, nnzb, alpha, d, bv, bp, bc, rbd, cbd, rm.to_device(x), beta, y)
    if nb == 0:  # the quick return: y := beta y
        want = y0 * scalar(p, q["beta"]) if scalar(p, q["beta"]) != 0 else np.zeros_like(y0)
        assert_close(y.get(), want.astype(p.dtype), p, "elementwise")
    else:
        want = expected(p, q["alpha"], q["beta"], dense, x, y0)
        scale = product_scale(p, abs(scalar(p, q["alpha"])), dense, x, abs(scalar(p, q["beta"])), np.nan_to_num(y0))
        assert_close(y.get(), want, p, "reduction", max(1, nb * cbd), scale=scale)
    margins_untouched(y_full, mb * rbd)


@settings(max_examples=examples(60), derandomize=True)
@given(product_problems())
def test_gebsrmm_matches_scipy(q):
    p, it, mb, kb, rbd, cbd, direction = q["p"], q["it"], q["mb"], q["nb"], q["rbd"], q["cbd"], q["direction"]
    k, tb = q["k"], q["trans_b"]
    rng = np.random.default_rng(q["seed"])
    dense, ref = random_gebsr(rng, mb, kb, rbd, cbd, q["density"], p.dtype)
    nnzb = ref.indices.size
    h, d = rs.create_handle(), descr(q["base"])
    bv, bp, bc = dev_gebsr(ref, q["base"], direction, it, p.dtype)
    m, kdim = mb * rbd, kb * cbd
    B = vec(rng, kdim * k, p.dtype).reshape(kdim, k)
    stored = B if tb is rs.Operation.none else B.T
    ldb, ldc = stored.shape[0] + 2, m + 1
    b_img = np.full((stored.shape[1], ldb), 3.5, p.dtype)
    b_img[:, :stored.shape[0]] = stored.T
    C0 = vec(rng, m * k, p.dtype).reshape(m, k)
    if scalar(p, q["beta"]) == 0:
        C0[:] = np.nan
    c_img = np.full((k, ldc), -2.5, p.dtype)
    c_img[:, :m] = C0.T
    dC = rm.to_device(c_img.ravel())
    alpha, beta = device_scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    fn(p, "gebsrmm")(h, direction, "N", tb, mb, k, kb, nnzb, alpha, d, bv, bp, bc, rbd, cbd,
                     rm.to_device(b_img.ravel()), ldb, beta, dC, ldc)
    got = dC.get().reshape(k, ldc)
    assert np.all(got[:, m:] == -2.5)  # the padding rows of C
    if kb == 0:
        want = C0 * scalar(p, q["beta"]) if scalar(p, q["beta"]) != 0 else np.zeros_like(C0)
        assert_close(got[:, :m].T, want.astype(p.dtype), p, "elementwise")
        return
    want = expected(p, q["alpha"], q["beta"], dense, B, C0)
    scale = product_scale(p, abs(scalar(p, q["alpha"])), dense, B, abs(scalar(p, q["beta"])), np.nan_to_num(C0))
    assert_close(got[:, :m].T, want, p, "reduction", max(1, kdim), scale=scale)
    # each column is gebsrmv's product of that column, bit for bit
    for j in range(k if mb else 0):
        y = rm.to_device(np.ascontiguousarray(C0[:, j]))
        fn(p, "gebsrmv")(h, direction, "N", mb, kb, nnzb, alpha, d, bv, bp, bc, rbd, cbd,
                         rm.to_device(np.ascontiguousarray(B[:, j])), beta, y)
        assert np.array_equal(y.get().view(np.uint8), got[j, :m].view(np.uint8))


def test_gebsr_products_alpha0_beta1_leave_the_output_alone():
    rng = np.random.default_rng(2)
    _, ref = random_gebsr(rng, 3, 4, 2, 3, 0.5, np.float64)
    h, d = rs.create_handle(), descr()
    bv, bp, bc = dev_gebsr(ref, 0, ROW, np.int32, np.float64)
    x = rm.to_device(np.full(12, np.inf))
    y0 = rng.standard_normal(6)
    y = rm.to_device(y0)
    rs.dgebsrmv(h, ROW, "N", 3, 4, ref.indices.size, 0.0, d, bv, bp, bc, 2, 3, x, 1.0, y)
    assert np.array_equal(y.get(), y0)
    C = rm.to_device(np.tile(y0, 2))
    rs.dgebsrmm(h, ROW, "N", "T", 3, 2, 4, ref.indices.size, 0.0, d, bv, bp, bc, 2, 3,
                rm.to_device(np.full(24, np.inf)), 2, 1.0, C, 6)
    assert np.array_equal(C.get(), np.tile(y0, 2))


def test_large_gebsr_products_run_in_parallel_bitwise_reproducibly():
    # Large enough that the launches run the parallel kernels (small ones run their serial twins).
    rng = np.random.default_rng(5)
    a = sp.random(6000, 2000, density=0.004, format="csr", random_state=rng)
    ref = a.tobsr(blocksize=(3, 2))
    ref.sort_indices()
    nnzb = ref.indices.size
    assert nnzb * (6 * 8 + 4) > 1 << 20
    h, d = rs.create_handle(), descr()
    bv, bp, bc = dev_gebsr(ref, 0, COL, np.int32, np.float64)
    X = rng.standard_normal((2000, 4))
    outs = []
    for _ in range(2):
        y = rm.zeros(6000)
        rs.dgebsrmv(h, COL, "N", 2000, 1000, nnzb, 1.0, d, bv, bp, bc, 3, 2, rm.to_device(X[:, 1].copy()), 0.0, y)
        outs.append(y.get())
    assert np.array_equal(outs[0].view(np.uint64), outs[1].view(np.uint64))
    assert_close(outs[0], a @ X[:, 1], D, "reduction", 2000, scale=float((abs(a) @ abs(X[:, 1])).max()))
    C = rm.zeros(6000 * 4)
    rs.dgebsrmm(h, COL, "N", "N", 2000, 4, 1000, nnzb, 1.0, d, bv, bp, bc, 3, 2, rm.to_device(X.T.ravel()), 2000,
                0.0, C, 6000)
    got = C.get().reshape(4, 6000)
    assert np.array_equal(got[1].view(np.uint64), outs[0].view(np.uint64))  # gebsrmv's bits, column by column
    assert_close(got.T, a @ X, D, "reduction", 2000, scale=float((abs(a) @ abs(X)).max()))


@pytest.mark.parametrize("dims", [(2, 3), (3, 3)])
def test_repeated_gebsrmv_calls_replay_correctly(dims):
    # gebsrmv is one launch decided by its arguments: the same call again on the same handle becomes a kept plan,
    # replayed with the vectors' current contents
    r, c = dims
    rng = np.random.default_rng(r * c)
    dense, ref = random_gebsr(rng, 8, 5, r, c, 0.3, np.float64)
    h, d = rs.create_handle(), descr()
    bv, bp, bc = dev_gebsr(ref, 0, ROW, np.int32, np.float64)
    x, y = rm.empty(5 * c), rm.empty(8 * r)
    for _ in range(4):
        xs, ys = rng.standard_normal(5 * c), rng.standard_normal(8 * r)
        rm.memcpy(x, xs, xs.nbytes)
        rm.memcpy(y, ys, ys.nbytes)
        rs.dgebsrmv(h, ROW, "N", 8, 5, ref.indices.size, 2.0, d, bv, bp, bc, r, c, x, -1.0, y)
        assert_close(y.get(), 2 * (dense @ xs) - ys, D, "reduction", 5 * c)
    assert len(h._plans) == 1


def test_checking_mode_catches_a_block_column_outside_the_matrix():
    h, d = rs.create_handle(), descr()
    bv = rm.to_device(np.ones(12))
    bp, bc = rm.to_device(np.array([0, 1, 2], np.int32)), rm.to_device(np.array([0, 5], np.int32))
    y = rm.to_device(np.full(4, 3.0))
    with rm.checking():
        rs.dgebsrmv(h, ROW, "N", 2, 2, 2, 1.0, d, bv, bp, bc, 2, 3, rm.to_device(np.ones(6)), 0.0, y)
        with pytest.raises(MemoryAccessFault) as err:
            h.stream.synchronize()
    assert "bsr_col_ind" in str(err.value)
    assert np.all(y.get() == 3.0)  # the product was skipped


# --- nnz_compress / csr2csr_compress -----------------------------------------------------------------------


@st.composite
def compress_problems(draw):
    p = draw(st.sampled_from(SDCZ))
    return dict(p=p, it=itype_for(draw, p), m=draw(st.sampled_from([0, 1, 4, 9])), n=draw(st.sampled_from([0, 1, 5])),
                density=draw(st.sampled_from([0.0, 0.3, 0.9])), base=draw(st.sampled_from([0, 1])),
                tol=draw(st.sampled_from([0.0, 0.5, 1.0, FLT_MIN, 2.0 - 3.0j])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


def with_special_values(rng, a: sp.csr_matrix) -> sp.csr_matrix:
    """``a`` with some stored zeros, tiny values at and below FLT_MIN, values exactly 0.5 and 1 and a duplicate
    entry, the columns still ascending."""
    a = a.copy()
    if a.nnz:
        picks = rng.choice(a.nnz, size=min(a.nnz, 6), replace=False)
        for idx, v in zip(picks, [0.0, FLT_MIN, FLT_MIN / 4, 0.5, -1.0, 1e-300], strict=False):
            a.data[idx] = v
        row = int(np.searchsorted(a.indptr, picks[0], side="right") - 1)
        dup = a.indptr[row]  # repeat a row's first entry right after it
        a = sp.csr_matrix((np.insert(a.data, dup, a.data[dup]), np.insert(a.indices, dup, a.indices[dup]),
                           a.indptr + (np.arange(a.shape[0] + 1) > row)), shape=a.shape)
    return a


def kept(values: np.ndarray, p: Precision, tol) -> np.ndarray:
    """rocSPARSE's rule: |a| > real(tol) and |a| > FLT_MIN, in the precision."""
    t = np.real(p.dtype.type(tol))
    mag = np.abs(values.astype(p.dtype))
    return (mag > t) & (mag > FLT_MIN)


@settings(max_examples=examples(60), derandomize=True)
@given(compress_problems())
def test_nnz_compress_and_csr2csr_compress_match_a_numpy_filter(q):
    p, it, m, n, base = q["p"], q["it"], q["m"], q["n"], q["base"]
    tol = scalar(p, q["tol"])
    rng = np.random.default_rng(q["seed"])
    a = with_special_values(rng, random_csr(rng, m, n, q["density"], p.dtype))
    nnz_a = a.data.size
    h, d = rs.create_handle(), descr(base)
    v, ptr, col = dev_csr(a, base, it)
    keep = kept(a.data, p, tol)
    sums = np.concatenate([[0], np.cumsum(keep)])
    per_row = sums[a.indptr[1:]] - sums[a.indptr[:-1]]
    npr_full, npr = padded(np.full(m, -1, it))
    if q["device_mode"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        out = rm.to_device(np.full(1, -7, it))
        assert fn(p, "nnz_compress")(h, m, d, v, ptr, npr, out, tol) is None
        nnz_c = int(out.get()[0])
        rs.set_pointer_mode(h, rs.PointerMode.host)
    else:
        nnz_c = fn(p, "nnz_compress")(h, m, d, v, ptr, npr, None, tol)
    assert nnz_c == int(keep.sum())
    margins_untouched(npr_full, m)
    if m:
        assert np.array_equal(npr.get(), per_row)
    cp_full, cp = padded(np.full(m + 1, -1, it))
    cv_full, cv = padded(np.full(nnz_c, 9, p.dtype))
    cc_full, cc = padded(np.full(nnz_c, -9, it))
    fn(p, "csr2csr_compress")(h, m, n, d, v, ptr, col, nnz_a, npr, cv, cp, cc, tol)
    margins_untouched(cp_full, m + 1)
    margins_untouched(cv_full, nnz_c)
    margins_untouched(cc_full, nnz_c)
    if not (m and n):
        assert np.all(cp.get() == -1)  # the quick return writes nothing
        return
    assert np.array_equal(cp.get(), np.concatenate([[0], np.cumsum(per_row)]) + base)
    assert np.array_equal(cv.get(), a.data[keep]) and np.array_equal(cc.get(), a.indices[keep] + base)


def test_csr2csr_compress_takes_nnz_per_row_as_given_and_packs_in_storage_order():
    # The header's example (tol 0: the stored zeros go), then counts from another tolerance: the row pointer
    # follows them and the kept entries are packed in storage order up to the end of C's arrays.
    h, d = rs.create_handle(), descr()
    ptr = rm.to_device(np.array([0, 3, 5, 8], np.int32))
    col = rm.to_device(np.array([0, 1, 3, 1, 2, 0, 3, 4], np.int32))
    val = rm.to_device(np.array([1, 0, 3, 4, 0, 6, 7, 0], np.float32))
    npr = rm.empty(3, np.int32)
    assert rs.snnz_compress(h, 3, d, val, ptr, npr, None, 0.0) == 5
    assert npr.get().tolist() == [2, 1, 2]
    cp, cv, cc = rm.empty(4, np.int32), rm.empty(5, np.float32), rm.empty(5, np.int32)
    rs.scsr2csr_compress(h, 3, 5, d, val, ptr, col, 8, npr, cv, cp, cc, 0.0)
    assert cp.get().tolist() == [0, 2, 3, 5]
    assert cv.get().tolist() == [1, 3, 4, 6, 7] and cc.get().tolist() == [0, 3, 1, 0, 3]
    counts = rm.to_device(np.array([1, 0, 1], np.int32))  # fewer than kept: C's arrays end after 2 entries
    c2v_full, c2v = padded(np.zeros(2, np.float32))
    c2c = rm.empty(2, np.int32)
    rs.scsr2csr_compress(h, 3, 5, d, val, ptr, col, 8, counts, c2v, cp, c2c, 0.0)
    assert cp.get().tolist() == [0, 1, 1, 2]
    assert c2v.get().tolist() == [1, 3] and c2c.get().tolist() == [0, 3]
    margins_untouched(c2v_full, 2)


def test_compress_tolerance_rule():
    h, d = rs.create_handle(), descr()
    vals = np.array([0.5, -0.5, 0.50001, np.nan, 1e-39, FLT_MIN, 2 * FLT_MIN, 0.0])
    ptr = rm.to_device(np.array([0, 8], np.int32))
    npr = rm.empty(1, np.int32)
    # strict comparisons: 0.5 goes at tol 0.5; NaN never stays; FLT_MIN and below go even at tol 0
    assert rs.dnnz_compress(h, 1, d, rm.to_device(vals), ptr, npr, None, 0.5) == 1
    assert rs.dnnz_compress(h, 1, d, rm.to_device(vals), ptr, npr, None, 0.0) == 4
    # complex: the magnitude against the real part of tol
    cvals = rm.to_device(np.array([3 + 4j, 0.1j, 1 + 0j], np.complex128))
    cptr = rm.to_device(np.array([0, 3], np.int32))
    assert rs.znnz_compress(h, 1, d, cvals, cptr, npr, None, 1.0 - 7j) == 1
    assert rs.znnz_compress(h, 1, d, cvals, cptr, npr, None, 0.05 + 9j) == 3
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.znnz_compress(h, 1, d, cvals, cptr, npr, None, -0.5 + 1j)
    assert err.value.index == 8
    with pytest.raises(rs.SparseInvalidValueError):
        rs.dnnz_compress(h, 1, d, rm.to_device(vals), ptr, npr, None, 1j)  # no real number


# --- cscsort / inverse_permutation -------------------------------------------------------------------------


@settings(max_examples=examples(40), derandomize=True)
@given(m=st.sampled_from([1, 3, 8]), n=st.sampled_from([1, 4, 9]), density=st.sampled_from([0.2, 0.6, 1.0]),
       base=st.sampled_from([0, 1]), with_perm=st.booleans(), it=st.sampled_from([np.int32, np.int64]),
       seed=st.integers(0, 2**16))
def test_cscsort_matches_a_stable_lexsort(m, n, density, base, with_perm, it, seed):
    rng = np.random.default_rng(seed)
    a = sp.random(m, n, density=density, format="csc", random_state=rng)
    nnz = a.nnz
    cols = np.repeat(np.arange(n), np.diff(a.indptr))
    rows = a.indices.copy()
    for j in range(n):  # shuffle each column's rows (with a repeated row, to see the sort is stable)
        s, e = a.indptr[j], a.indptr[j + 1]
        rows[s:e] = rng.permutation(rows[s:e])
        if e - s >= 2:
            rows[s + 1] = rows[s]
    h = rs.create_handle()
    cptr, rind = rm.to_device((a.indptr + base).astype(it)), rm.to_device((rows + base).astype(it))
    size = rs.cscsort_buffer_size(h, m, n, nnz, cptr, rind)
    assert size == rs.csrsort_buffer_size(h, n, m, nnz, cptr, rind)
    temp = rm.empty(max(size, 1), np.uint8)
    perm_full, perm = padded(np.arange(nnz, dtype=it))
    rs.cscsort(h, m, n, nnz, descr(base), cptr, rind, perm if with_perm else None, temp)
    order = np.lexsort((rows, cols))  # stable: equal rows keep their order
    assert np.array_equal(rind.get(), rows[order] + base)
    if with_perm:
        assert np.array_equal(perm.get(), order)
    else:
        assert np.array_equal(perm.get(), np.arange(nnz))
    margins_untouched(perm_full, nnz)


@pytest.mark.parametrize("base", [0, 1])
@pytest.mark.parametrize("it", [np.int32, np.int64])
def test_inverse_permutation(base, it):
    rng = np.random.default_rng(base)
    p = rng.permutation(50)
    h = rs.create_handle()
    q_full, q = padded(np.full(50, -1, it))
    rs.inverse_permutation(h, 50, rm.to_device((p + base).astype(it)), q, base)
    want = np.empty(50, int)
    want[p] = np.arange(50)
    assert np.array_equal(q.get(), want + base)
    assert np.array_equal(q.get()[p] - base, np.arange(50))
    margins_untouched(q_full, 50)
    rs.inverse_permutation(h, 0, None, None, base)  # n == 0: nothing to do


def test_inverse_permutation_checking_mode_catches_an_index_outside_q():
    h = rs.create_handle()
    q = rm.to_device(np.full(3, -1, np.int32))
    with rm.checking():
        rs.inverse_permutation(h, 3, rm.to_device(np.array([0, 3, 1], np.int32)), q, 0)
        with pytest.raises(MemoryAccessFault):
            h.stream.synchronize()
    assert np.all(q.get() == -1)


# --- statuses in rocSPARSE's check order -------------------------------------------------------------------


def _i(n: int = 4, v: int = 0):
    return rm.to_device(np.full(n, v, np.int32))


def _a(n: int = 4):
    return rm.to_device(np.ones(n))


def _device(h):
    rs.set_pointer_mode(h, rs.PointerMode.device)
    return h


SYM, UNSORTED = dict(type=rs.MatrixType.symmetric), dict(storage=rs.StorageMode.unsorted)
PTR2 = [0, 1, 2]  # two rows, one entry each

STATUS_CASES = [
    # csr2gebsr_buffer_size(handle, dir, m, n, csr_descr, csr_val, csr_row_ptr, csr_col_ind, rbd, cbd)
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 5, -1, 2, None, None, None, None, 0, 0), rs.Status.invalid_value, 2),
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, -1, None, None, None, None, 0, 0), rs.Status.invalid_size, 4),
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, None, None, None, None, 0, 0), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, descr(**UNSORTED), None, None, None, 0, 0),
     rs.Status.requires_sorted_storage, 5),
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, descr(**SYM), None, None, None, 0, 0), rs.Status.invalid_pointer,
     7),  # a symmetric descriptor is fine here
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, descr(), None, _i(3, 1), None, 0, 0), rs.Status.invalid_size,
     9),  # the row pointer spans nothing: no arrays needed
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, descr(), None, rm.to_device(np.array(PTR2, np.int32)), _i(2), 1,
                                         0), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dcsr2gebsr_buffer_size(h, 0, 2, 2, descr(), _a(2), _i(3), None, 2, -1), rs.Status.invalid_size, 10),
    # csr2gebsr_nnz(handle, dir, m, n, csr_descr, csr_row_ptr, csr_col_ind, bsr_descr, bsr_row_ptr, rbd, cbd,
    #               bsr_nnz_devhost, temp_buffer)
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), None, None, None, None, 0, 0, None, None),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, None, None, 0, 0, None, None),
     rs.Status.invalid_pointer, 8),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, descr(**UNSORTED), None, 0, 0, None, None),
     rs.Status.requires_sorted_storage, 8),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, descr(), None, 0, 0, None, None),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, descr(), _i(3), 0, 0, None, None),
     rs.Status.invalid_size, 10),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, descr(), _i(3), 1, 0, None, None),
     rs.Status.invalid_size, 11),
    (lambda h: rs.csr2gebsr_nnz(_device(h), 0, 2, 2, descr(), _i(3), None, descr(), _i(3), 1, 2, None, None),
     rs.Status.invalid_pointer, 12),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), rm.to_device(np.array(PTR2, np.int32)), None, descr(), _i(3), 1,
                                2, None, None), rs.Status.invalid_pointer, 7),
    (lambda h: rs.csr2gebsr_nnz(h, 0, 2, 2, descr(), _i(3), None, descr(), _i(3), 1, 2, None, None),
     rs.Status.success, 0),  # no entries: the column indices may be null
    # csr2gebsr(handle, dir, m, n, csr_descr, csr_val, csr_row_ptr, csr_col_ind, bsr_descr, bsr_val, bsr_row_ptr,
    #           bsr_col_ind, rbd, cbd, temp_buffer)
    (lambda h: rs.dcsr2gebsr(h, 0, 2, 2, descr(), None, _i(3), None, None, None, None, None, 0, 0, None),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.dcsr2gebsr(h, 0, 2, 2, descr(), None, _i(3), None, descr(), None, None, None, 0, 0, None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dcsr2gebsr(h, 0, 2, 2, descr(), None, _i(3), None, descr(), None, _i(3), None, 0, 0, None),
     rs.Status.invalid_size, 13),
    (lambda h: rs.dcsr2gebsr(h, 0, 0, 2, descr(), None, None, None, descr(), None, None, None, 1, 1, None),
     rs.Status.success, 0),
    (lambda h: rs.dcsr2gebsr(h, 0, 2, 2, descr(), None, _i(3), None, descr(), None,
                             rm.to_device(np.array([0, 1], np.int32)), None, 2, 3, None),
     rs.Status.invalid_pointer, 10),
    (lambda h: rs.dcsr2gebsr(h, 0, 2, 2, descr(), None, _i(3), None, descr(), _a(6),
                             rm.to_device(np.array([0, 1], np.int32)), None, 2, 3, None),
     rs.Status.invalid_pointer, 12),
    # gebsr2csr(handle, dir, mb, nb, bsr_descr, bsr_val, bsr_row_ptr, bsr_col_ind, rbd, cbd, csr_descr, csr_val,
    #           csr_row_ptr, csr_col_ind)
    (lambda h: rs.dgebsr2csr(h, 0, -1, 2, None, None, None, None, 0, 0, None, None, None, None),
     rs.Status.invalid_size, 3),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(**SYM | UNSORTED), None, None, None, 0, 0, None, None, None, None),
     rs.Status.requires_sorted_storage, 5),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(**SYM), None, None, None, 0, 0, None, None, None, None),
     rs.Status.not_implemented, 5),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, None, None, 0, 0, None, None, None, None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, None, None, 0, 0, descr(**SYM), None, None, None),
     rs.Status.not_implemented, 11),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, None, None, 0, 0, descr(), None, None, None),
     rs.Status.invalid_size, 9),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, None, None, 2, 3, descr(), None, None, None),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, _i(3), None, 2, 3, descr(), None, None, None),
     rs.Status.invalid_pointer, 13),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, _i(3, 1), None, 2, 3, descr(1), None, _i(5), None),
     rs.Status.success, 0),  # no blocks
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), None, rm.to_device(np.array([0, 1, 1], np.int32)), None, 2, 3,
                             descr(), None, _i(5), None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dgebsr2csr(h, 0, 2, 2, descr(), _a(6), rm.to_device(np.array([0, 1, 1], np.int32)), _i(1), 2, 3,
                             descr(), _a(6), _i(5), None), rs.Status.invalid_pointer, 14),
    # gebsr2gebsc_buffer_size(handle, mb, nb, nnzb, bsr_val, bsr_row_ptr, bsr_col_ind, rbd, cbd)
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 2, 2, -1, None, None, None, 0, 0), rs.Status.invalid_size, 4),
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 2, 2, 1, None, None, None, 0, -1), rs.Status.invalid_size, 9),
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 2, 2, 1, None, None, None, 0, 1), rs.Status.invalid_size, 8),
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 0, 2, 1, None, None, None, 1, 1), rs.Status.success, 0),
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 2, 2, 1, None, None, None, 1, 1), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dgebsr2gebsc_buffer_size(h, 2, 2, 1, _a(1), None, None, 1, 1), rs.Status.invalid_pointer, 6),
    # gebsr2gebsc(handle, mb, nb, nnzb, bsr_val, bsr_row_ptr, bsr_col_ind, rbd, cbd, bsc_val, bsc_row_ind,
    #             bsc_col_ptr, copy_values, idx_base, temp_buffer)
    (lambda h: rs.dgebsr2gebsc(h, -1, 2, 1, None, None, None, 1, 1, None, None, None, 7, 1, None),
     rs.Status.invalid_value, 13),
    (lambda h: rs.dgebsr2gebsc(h, -1, 2, 1, None, None, None, 1, 1, None, None, None, 0, 5, None),
     rs.Status.invalid_value, 14),
    (lambda h: rs.dgebsr2gebsc(h, -1, 2, 1, None, None, None, 1, 1, None, None, None, 0, 0, None),
     rs.Status.invalid_size, 2),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, None, None, 0, -2, None, None, None, 0, 0, None),
     rs.Status.invalid_size, 9),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, None, None, 1, 1, None, None, None, 0, 0, None),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, _i(3), _i(1), 1, 1, None, None, None, 0, 0, None),
     rs.Status.invalid_pointer, 12),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, _i(3), _i(1), 1, 1, None, None, _i(3), 0, 0, None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, _i(3), _i(1), 1, 1, None, _i(1), _i(3), 0, 0, None),
     rs.Status.invalid_pointer, 15),  # symbolic: no values needed
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, None, _i(3), _i(1), 1, 1, None, _i(1), _i(3), 1, 0, None),
     rs.Status.invalid_pointer, 5),
    (lambda h: rs.dgebsr2gebsc(h, 2, 2, 1, _a(1), _i(3), _i(1), 1, 1, None, _i(1), _i(3), 1, 0, None),
     rs.Status.invalid_pointer, 10),
    # gebsr2gebsr_buffer_size(handle, dir, mb, nb, nnzb, descr_A, bsr_val_A, bsr_row_ptr_A, bsr_col_ind_A, rbd_A,
    #                         cbd_A, rbd_C, cbd_C)
    (lambda h: rs.dgebsr2gebsr_buffer_size(h, 0, 2, 2, 1, None, None, None, None, 1, 1, 0, 1),
     rs.Status.invalid_size, 12),
    (lambda h: rs.dgebsr2gebsr_buffer_size(h, 0, 2, 2, 1, None, None, None, None, 1, 1, 1, 1),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.dgebsr2gebsr_buffer_size(h, 0, 2, 2, 1, descr(**SYM | UNSORTED), None, None, None, 1, 1, 1, 1),
     rs.Status.requires_sorted_storage, 6),
    (lambda h: rs.dgebsr2gebsr_buffer_size(h, 0, 2, 2, 1, descr(), None, None, None, 1, 1, 1, 1),
     rs.Status.invalid_pointer, 7),
    # gebsr2gebsr_nnz(handle, dir, mb, nb, nnzb, descr_A, bsr_row_ptr_A, bsr_col_ind_A, rbd_A, cbd_A, descr_C,
    #                 bsr_row_ptr_C, rbd_C, cbd_C, nnz_total_dev_host_ptr, temp_buffer)
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(**SYM | UNSORTED), None, None, 0, 0, None, None, 0, 0, None,
                                  None), rs.Status.not_implemented, 6),
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(), None, None, 0, 0, None, None, 0, 0, None, None),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(), _i(3), _i(1), 0, 0, None, None, 0, 0, None, None),
     rs.Status.invalid_size, 9),
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(), _i(3), _i(1), 1, 1, None, None, 0, 0, None, None),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(), _i(3), _i(1), 1, 1, descr(), None, 0, 0, None, None),
     rs.Status.invalid_pointer, 12),
    (lambda h: rs.gebsr2gebsr_nnz(h, 0, 2, 2, 1, descr(), _i(3), _i(1), 1, 1, descr(), _i(3), 1, 0, None, None),
     rs.Status.invalid_size, 14),
    (lambda h: rs.gebsr2gebsr_nnz(_device(h), 0, 2, 2, 1, descr(), _i(3), _i(1), 1, 1, descr(), _i(3), 1, 1, None,
                                  None), rs.Status.invalid_pointer, 15),
    # gebsr2gebsr(handle, dir, mb, nb, nnzb, descr_A, bsr_val_A, bsr_row_ptr_A, bsr_col_ind_A, rbd_A, cbd_A, descr_C,
    #             bsr_val_C, bsr_row_ptr_C, bsr_col_ind_C, rbd_C, cbd_C, temp_buffer)
    (lambda h: rs.dgebsr2gebsr(h, 0, 2, 2, 1, None, None, None, None, 1, 1, None, None, None, None, 1, 0, None),
     rs.Status.invalid_size, 17),
    (lambda h: rs.dgebsr2gebsr(h, 0, 2, 2, 1, None, None, None, None, 1, 1, None, None, None, None, 1, 1, None),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.dgebsr2gebsr(h, 0, 2, 2, 1, descr(), _a(1), _i(3), _i(1), 1, 1, descr(**UNSORTED), None, None,
                               None, 1, 1, None), rs.Status.requires_sorted_storage, 12),
    (lambda h: rs.dgebsr2gebsr(h, 0, 2, 2, 1, descr(), _a(1), _i(3), _i(1), 1, 1, descr(), None, None, None, 1, 1,
                               None), rs.Status.invalid_pointer, 14),
    (lambda h: rs.dgebsr2gebsr(h, 0, 2, 2, 1, descr(), _a(1), _i(3), _i(1), 1, 1, descr(), None,
                               rm.to_device(np.array([0, 1, 1], np.int32)), None, 1, 1, None),
     rs.Status.invalid_pointer, 13),
    # gebsrmv(handle, dir, trans, mb, nb, nnzb, alpha, descr, bsr_val, bsr_row_ptr, bsr_col_ind, rbd, cbd, x, beta, y)
    (lambda h: rs.dgebsrmv(h, 9, 9, -1, 2, 1, None, None, None, None, None, 0, 0, None, None, None),
     rs.Status.invalid_pointer, 8),  # the descriptor first
    (lambda h: rs.dgebsrmv(h, 9, 9, -1, 2, 1, None, descr(), None, None, None, 0, 0, None, None, None),
     rs.Status.invalid_value, 2),
    (lambda h: rs.dgebsrmv(h, 0, "T", -1, 2, 1, None, descr(**SYM), None, None, None, 0, 0, None, None, None),
     rs.Status.not_implemented, 3),
    (lambda h: rs.dgebsrmv(h, 0, "N", -1, 2, 1, None, descr(**SYM | UNSORTED), None, None, None, 0, 0, None, None,
                           None), rs.Status.not_implemented, 8),
    (lambda h: rs.dgebsrmv(h, 0, "N", -1, 2, 1, None, descr(**UNSORTED), None, None, None, 0, 0, None, None, None),
     rs.Status.requires_sorted_storage, 8),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 2, 1, None, descr(), None, None, None, 1, 0, None, None, None),
     rs.Status.invalid_size, 13),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 0, 1, None, descr(), None, None, None, 1, 2, None, None, None),
     rs.Status.invalid_pointer, 15),  # the quick return scales y by beta
    (lambda h: rs.dgebsrmv(h, 0, "N", 0, 0, 1, None, descr(), None, None, None, 1, 2, None, None, None),
     rs.Status.success, 0),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 2, 1, None, descr(), None, None, None, 1, 2, None, None, None),
     rs.Status.invalid_pointer, 7),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 2, 1, 1.0, descr(), _a(2), _i(3), _i(1), 1, 2, None, None, None),
     rs.Status.invalid_pointer, 14),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 2, 1, 1.0, descr(), _a(2), _i(3), _i(1), 1, 2, _a(4), None, None),
     rs.Status.invalid_pointer, 15),
    (lambda h: rs.dgebsrmv(h, 0, "N", 2, 2, 1, 1.0, descr(), _a(2), _i(3), _i(1), 1, 2, _a(4), 0.0, None),
     rs.Status.invalid_pointer, 16),
    # gebsrmm(handle, dir, trans_A, trans_B, mb, n, kb, nnzb, alpha, descr, bsr_val, bsr_row_ptr, bsr_col_ind, rbd,
    #         cbd, B, ldb, beta, C, ldc)
    (lambda h: rs.dgebsrmm(h, 9, 9, 9, -1, 1, 1, 1, None, None, None, None, None, 0, 0, None, 0, None, None, 0),
     rs.Status.invalid_pointer, 10),
    (lambda h: rs.dgebsrmm(h, 0, "N", 9, -1, 1, 1, 1, None, descr(**SYM), None, None, None, 0, 0, None, 0, None, None,
                           0), rs.Status.invalid_value, 4),
    (lambda h: rs.dgebsrmm(h, 0, "T", "C", -1, 1, 1, 1, None, descr(**SYM), None, None, None, 0, 0, None, 0, None,
                           None, 0), rs.Status.not_implemented, 10),
    (lambda h: rs.dgebsrmm(h, 0, "T", "C", -1, 1, 1, 1, None, descr(), None, None, None, 0, 0, None, 0, None, None, 0),
     rs.Status.not_implemented, 3),
    (lambda h: rs.dgebsrmm(h, 0, "N", "C", -1, 1, 1, 1, None, descr(), None, None, None, 0, 0, None, 0, None, None, 0),
     rs.Status.not_implemented, 4),
    (lambda h: rs.dgebsrmm(h, 0, "N", "T", 1, 1, 1, 1, None, descr(), None, None, None, 0, -1, None, 0, None, None, 0),
     rs.Status.invalid_size, 15),  # both signs before either zero
    (lambda h: rs.dgebsrmm(h, 0, "N", "T", 1, 1, 1, 1, None, descr(), None, None, None, 1, 1, None, 0, None, None, 0),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dgebsrmm(h, 0, "N", "N", 1, 1, 0, 1, None, descr(), _a(1), _i(2), _i(1), 2, 1, None, 0, 0.0, _a(2),
                           1), rs.Status.invalid_size, 20),  # the quick return's scaling checks ldc first
    (lambda h: rs.dgebsrmm(h, 0, "N", "N", 1, 1, 1, 1, None, descr(), _a(2), _i(2), _i(1), 2, 1, None, 0, None, None,
                           0), rs.Status.invalid_pointer, 9),
    (lambda h: rs.dgebsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, descr(), _a(2), _i(2), _i(1), 2, 1, _a(1), 0, 1.0, _a(2),
                           1), rs.Status.invalid_size, 20),
    (lambda h: rs.dgebsrmm(h, 0, "N", "N", 1, 1, 1, 1, 1.0, descr(), _a(2), _i(2), _i(1), 2, 1, _a(1), 0, 1.0, _a(2),
                           2), rs.Status.invalid_size, 17),
    (lambda h: rs.dgebsrmm(h, 0, "N", "T", 1, 3, 1, 1, 1.0, descr(), _a(2), _i(2), _i(1), 2, 1, _a(3), 2, 1.0, _a(6),
                           2), rs.Status.invalid_size, 17),  # trans_B: ldb >= n
    # nnz_compress(handle, m, descr_A, csr_val_A, csr_row_ptr_A, nnz_per_row, nnz_C, tol)
    (lambda h: rs.dnnz_compress(h, -1, None, None, None, None, None, -1.0), rs.Status.invalid_size, 2),
    (lambda h: rs.dnnz_compress(h, 1, descr(**UNSORTED), None, None, None, None, -1.0),
     rs.Status.requires_sorted_storage, 3),
    (lambda h: rs.dnnz_compress(h, 0, descr(**SYM), None, None, None, None, -1.0), rs.Status.invalid_value, 8),
    (lambda h: rs.dnnz_compress(h, 0, descr(), None, None, None, None, 0.0), rs.Status.success, 0),
    (lambda h: rs.dnnz_compress(h, 1, descr(), None, None, None, None, 0.0), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dnnz_compress(h, 1, descr(), None, _i(2), None, None, 0.0), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dnnz_compress(_device(h), 1, descr(), None, _i(2), _i(1), None, 0.0), rs.Status.invalid_pointer, 7),
    (lambda h: rs.dnnz_compress(h, 1, descr(), None, rm.to_device(np.array([2, 0], np.int32)), _i(1), None, 0.0),
     rs.Status.invalid_size, 5),  # the row pointer spans a negative count
    (lambda h: rs.dnnz_compress(h, 1, descr(), None, rm.to_device(np.array([0, 2], np.int32)), _i(1), None, 0.0),
     rs.Status.invalid_pointer, 4),
    # csr2csr_compress(handle, m, n, descr_A, csr_val_A, csr_row_ptr_A, csr_col_ind_A, nnz_A, nnz_per_row, csr_val_C,
    #                  csr_row_ptr_C, csr_col_ind_C, tol)
    (lambda h: rs.dcsr2csr_compress(h, -1, 1, None, None, None, None, 1, None, None, None, None, -1.0),
     rs.Status.invalid_pointer, 4),  # the descriptor first
    (lambda h: rs.dcsr2csr_compress(h, -1, 1, descr(**UNSORTED), None, None, None, 1, None, None, None, None, -1.0),
     rs.Status.requires_sorted_storage, 4),
    (lambda h: rs.dcsr2csr_compress(h, -1, 1, descr(), None, None, None, 1, None, None, None, None, -1.0),
     rs.Status.invalid_size, 2),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), None, None, None, -1, None, None, None, None, -1.0),
     rs.Status.invalid_pointer, 6),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), None, _i(2), None, -1, None, None, None, None, -1.0),
     rs.Status.invalid_size, 8),  # nnz_A's arrays are checked before its sign
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), None, _i(2), None, 1, None, None, None, None, -1.0),
     rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), _a(1), _i(2), _i(1), 1, None, None, None, None, -1.0),
     rs.Status.invalid_pointer, 9),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), _a(1), _i(2), _i(1), 1, _i(1), None, None, None, -1.0),
     rs.Status.invalid_pointer, 11),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), _a(1), _i(2), _i(1), 1, _i(1), None, _i(2), None, -1.0),
     rs.Status.invalid_value, 13),
    (lambda h: rs.dcsr2csr_compress(h, 1, 0, descr(), _a(1), _i(2), _i(1), 1, _i(1), None, _i(2), None, 0.0),
     rs.Status.success, 0),
    (lambda h: rs.dcsr2csr_compress(h, 1, 1, descr(), _a(1), _i(2), _i(1), 1, _i(1, 1), None, _i(2), None, 0.0),
     rs.Status.invalid_pointer, 10),  # checked against the count C's row pointer spans, once it is written
    # cscsort_buffer_size(handle, m, n, nnz, csc_col_ptr, csc_row_ind)
    (lambda h: rs.cscsort_buffer_size(h, 1, -1, 1, None, None), rs.Status.invalid_size, 3),
    (lambda h: rs.cscsort_buffer_size(h, 1, 1, 1, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.cscsort_buffer_size(h, 1, 1, 1, _i(2), None), rs.Status.invalid_pointer, 6),
    # cscsort(handle, m, n, nnz, descr, csc_col_ptr, csc_row_ind, perm, temp_buffer)
    (lambda h: rs.cscsort(h, 1, 1, -1, None, None, None, None, None), rs.Status.invalid_size, 4),
    (lambda h: rs.cscsort(h, 1, 1, 1, None, None, None, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.cscsort(h, 1, 1, 1, descr(), None, None, None, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.cscsort(h, 1, 1, 1, descr(), _i(2), None, None, None), rs.Status.invalid_pointer, 7),
    (lambda h: rs.cscsort(h, 1, 1, 1, descr(), _i(2), _i(1), None, None), rs.Status.invalid_pointer, 9),
    (lambda h: rs.cscsort(h, 0, 1, 1, descr(), _i(2), _i(1), None, _i(1)), rs.Status.success, 0),
    # inverse_permutation(handle, n, p, q, base)
    (lambda h: rs.inverse_permutation(h, -1, None, None, 7), rs.Status.invalid_size, 2),
    (lambda h: rs.inverse_permutation(h, 1, None, None, 7), rs.Status.invalid_pointer, 3),
    (lambda h: rs.inverse_permutation(h, 1, _i(1), None, 7), rs.Status.invalid_pointer, 4),
    (lambda h: rs.inverse_permutation(h, 1, _i(1), _i(1), 7), rs.Status.invalid_value, 5),
    (lambda h: rs.inverse_permutation(h, 0, None, None, 7), rs.Status.invalid_value, 5),
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


def test_invalid_handle_comes_first():
    for call in (lambda: rs.dgebsrmv(None, 9, 9, -1, 2, 1, None, None, None, None, None, 0, 0, None, None, None),
                 lambda: rs.csr2gebsr_nnz(None, 9, -1, 2, None, None, None, None, None, 0, 0, None, None),
                 lambda: rs.inverse_permutation(None, -1, None, None, 9)):
        with pytest.raises(rs.SparseInvalidHandleError):
            call()


def test_trace_lines_name_the_routines(tmp_path, monkeypatch):
    from rocmath.log import close_logs

    path = tmp_path / "trace.log"
    monkeypatch.setenv("ROCSPARSE_LAYER", "1")
    monkeypatch.setenv("ROCSPARSE_LOG_TRACE_PATH", str(path))
    h = rs.create_handle()
    p = rm.to_device(np.array([1, 0], np.int32))
    q = rm.empty(2, np.int32)
    rs.inverse_permutation(h, 2, p, q, 0)
    rs.dnnz_compress(h, 0, descr(), None, None, None, None, 0.25)
    close_logs()
    lines = path.read_text().splitlines()
    assert lines[0].startswith("rocsparse_inverse_permutation,")
    assert lines[0].endswith(f",2,0x{p.ptr:x},0x{q.ptr:x},0")
    assert lines[1].startswith("rocsparse_dnnz_compress,") and lines[1].endswith(",0.25")
    assert q.get().tolist() == [1, 0]
