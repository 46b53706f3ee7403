"""rocmath.sparse's matrix-vector kernels of the block formats (bsrmv, ellmv, hybmv's ELL and COO parts, the
generic spmv of BSR and ELL descriptors): against scipy.sparse, and bitwise equal to the kernels they stand in for
(the any-columns block-row kernel, the serial COO scatter), whatever the block dimension, direction, index base and
type, ELL padding or row partition; beta == 0 never reads y, alpha == 0 with beta == 1 leaves it alone, and the
memory around y stays untouched."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded, product_scale, random_csr, scalar, vec

import rocmath as rm
import rocmath.sparse as rs
import rocmath.sparse._kernels_formats as kf
from rocmath.precision import SDCZ, D, Precision
from rocmath.testing import assert_close, examples


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def _descr(base: int) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    return d


def _bsr(rng: np.random.Generator, mb: int, nb: int, bd: int, density: float, dtype) -> sp.bsr_matrix:
    """A random ``mb x nb`` block matrix of dense ``bd x bd`` blocks (explicit zeros included), block columns
    sorted."""
    pattern = sp.random(mb, nb, density=density, format="csr", random_state=rng)
    pattern.sort_indices()
    blocks = vec(rng, pattern.nnz * bd * bd, dtype).reshape(-1, bd, bd)
    return sp.bsr_matrix((blocks, pattern.indices, pattern.indptr), shape=(mb * bd, nb * bd))


def _bsr_arrays(b: sp.bsr_matrix, direction: int, base: int, it) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rocSPARSE's BSR arrays (host): blocks row-major (direction 0) or column-major (1), indices rebased."""
    blocks = b.data if direction == 0 else b.data.transpose(0, 2, 1)
    return np.ascontiguousarray(blocks).ravel(), (b.indptr + base).astype(it), (b.indices + base).astype(it)


def _y0(rng: np.random.Generator, n: int, dtype, beta) -> np.ndarray:
    """The initial y: with beta == 0 it is NaN, which must never reach the result."""
    y0 = vec(rng, n, dtype)
    if beta == 0:
        y0[:] = np.nan
    return y0


def _expected(alpha, beta, ax: np.ndarray, y0: np.ndarray) -> np.ndarray:
    if alpha == 0 and beta == 1:
        return y0
    return alpha * ax if beta == 0 else alpha * ax + beta * y0


def _scalar_args(h, p: Precision, device_mode: bool, alpha, beta):
    """alpha and beta as the routines take them; device mode reaches the kernels' own alpha/beta rules."""
    if not device_mode:
        rs.set_pointer_mode(h, rs.PointerMode.host)
        return alpha, beta
    rs.set_pointer_mode(h, rs.PointerMode.device)
    return rm.to_device(np.array([alpha], p.dtype)), rm.to_device(np.array([beta], p.dtype))


@st.composite
def bsr_problems(draw):
    return dict(bd=draw(st.sampled_from([*range(1, 10), 16])), mb=draw(st.sampled_from([1, 5, 23, 300])),
                nb=draw(st.sampled_from([1, 4, 17])), density=draw(st.sampled_from([0.0, 0.2, 0.7])),
                direction=draw(st.sampled_from([0, 1])), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])),
                ab=draw(st.sampled_from([(1.5, 0.0), (-0.5, 2.0), (0.0, 0.0), (0.0, 1.0), (2.0, 1.0)])),
                device_mode=draw(st.booleans()), analysed=draw(st.booleans()), inf=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(60))
@given(bsr_problems())
def test_bsrmv_matches_scipy_and_the_block_row_kernel(q):
    """Every block dimension and direction: bsrmv against scipy's BSR product (which multiplies a block's
    zeros too, so infinities in x give the same NaNs), and bitwise equal to the any-columns kernel on the same
    partition (the analysed one or the even split) and to bsrmm with one strided column of B (which runs that
    kernel)."""
    p, bd, mb, nb, base, it = D, q["bd"], q["mb"], q["nb"], q["base"], q["itype"]
    rng = np.random.default_rng(q["seed"])
    b = _bsr(rng, mb, nb, bd, q["density"], p.dtype)
    val, ptr, col = _bsr_arrays(b, q["direction"], base, it)
    nnzb = col.size
    x = vec(rng, nb * bd, p.dtype)
    if q["inf"]:
        x[rng.integers(0, x.size)] = np.inf
    alpha, beta = q["ab"]
    y0 = _y0(rng, mb * bd, p.dtype, beta)
    h, d = rs.create_handle(), _descr(base)
    dv, dp, dc = rm.to_device(val), rm.to_device(ptr), rm.to_device(col)
    info = None
    if q["analysed"]:
        info = rs.create_mat_info()
        rs.dbsrmv_analysis(h, q["direction"], "N", mb, nb, nnzb, d, dv, dp, dc, bd, info)
    a_, b_ = _scalar_args(h, p, q["device_mode"], alpha, beta)
    y_full, y = padded(y0)
    dx = rm.to_device(x)
    rs.dbsrmv(h, q["direction"], "N", mb, nb, nnzb, a_, d, dv, dp, dc, bd, info, dx, b_, y)
    with np.errstate(invalid="ignore"):  # (infinities in x meet a block's zeros)
        expected = _expected(alpha, beta, b @ x, y0)
        scale = product_scale(p, alpha, b, x, beta, y0)  # the terms each row adds
    assert_close(y.get(), expected, p, "reduction", max(1, nb * bd), scale=scale)
    margins_untouched(y_full, y0.size)
    if nnzb and not (alpha == 0 and beta == 1):
        kept = None if info is None else info.csrmv if bd == 1 else info.bsrmv
        bounds = kept.bounds.get() if kept is not None else \
            (np.arange(min(mb, 256) + 1) * mb) // min(mb, 256)
        general = y0.copy().reshape(-1, 1)
        kf.block_columns(q["direction"], False, np.array([alpha]), ptr, base, -1, col, val, bd, x.reshape(-1, 1),
                         np.array([beta]), general, bounds)
        assert np.array_equal(y.get().view(np.uint64), general[:, 0].view(np.uint64))
        # bsrmm with B transposed (ldb 3): x is a strided column, so the any-columns kernel runs it
        b_img = np.zeros((nb * bd, 3))
        b_img[:, 0] = x
        c = rm.to_device(y0.copy())
        rs.dbsrmm(h, q["direction"], "N", "T", mb, 1, nb, nnzb, a_, d, dv, dp, dc, bd, rm.to_device(b_img.ravel()), 3,
                  b_, c, mb * bd)
        assert np.array_equal(c.get().view(np.uint64), y.get().view(np.uint64))


@st.composite
def ell_problems(draw):
    return dict(m=draw(st.sampled_from([1, 7, 40, 2500])), n=draw(st.sampled_from([1, 5, 60])),
                width=draw(st.sampled_from([0, 1, 3, 8])), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])), holes=draw(st.sampled_from([0.0, 0.2, 0.6])),
                ab=draw(st.sampled_from([(1.5, 0.0), (-0.5, 2.0), (0.0, 3.0), (0.0, 1.0)])),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(ell_problems())
def test_ellmv_stops_each_row_at_its_first_padding_entry(q):
    """ELL arrays with padding (-1, or any column outside [0, n)) anywhere in a row, valid entries after it
    included: each row ends at its first padding entry (scipy on the truncated rows), bitwise as the
    any-columns kernel; slabs of rows cross at m = 2500.  The same arrays as a blocked-ELL matrix of 1 x 1
    blocks (spmm, one column): padding is skipped there, the entries after it count."""
    p, m, n, width, base, it = D, q["m"], q["n"], q["width"], q["base"], q["itype"]
    rng = np.random.default_rng(q["seed"])
    col = rng.integers(0, n, (width, m))
    pad = rng.random((width, m)) < q["holes"]
    col = np.where(pad, rng.choice([-1, -7, n + base, n + 3 + base], (width, m)), col + base).astype(it)
    val = vec(rng, width * m, p.dtype).reshape(width, m)
    val[col == -1] = 0  # rocSPARSE's padding; the other out-of-range columns keep a value that must not count
    first = np.where(pad.any(axis=0), pad.argmax(axis=0), width) if width else np.zeros(m, int)  # row lengths
    rows, slots = np.nonzero(np.arange(width)[None, :] < first[:, None])
    a = sp.csr_matrix((val[slots, rows], (rows, col[slots, rows] - base)), shape=(m, n))
    x = vec(rng, n, p.dtype)
    alpha, beta = q["ab"]
    y0 = _y0(rng, m, p.dtype, beta)
    h = rs.create_handle()
    a_, b_ = _scalar_args(h, p, q["device_mode"], alpha, beta)
    y_full, y = padded(y0)
    rs.dellmv(h, "N", m, n, a_, _descr(base), rm.to_device(val.ravel()), rm.to_device(col.ravel()), width,
              rm.to_device(x), b_, y)
    assert_close(y.get(), _expected(alpha, beta, a @ x, y0), p, "reduction", max(1, width),
                 scale=product_scale(p, alpha, a, x, beta, y0))
    margins_untouched(y_full, m)
    if width and not (alpha == 0 and beta == 1):
        general = y0.copy().reshape(-1, 1)
        kf.block_columns(0, True, np.array([alpha]), np.zeros(0, it), base, width, col.ravel(), val.ravel(), 1,
                         x.reshape(-1, 1), np.array([beta]), general, (np.arange(257) * m) // 256)
        assert np.array_equal(y.get().view(np.uint64), general[:, 0].view(np.uint64))
    if 0 < width <= n:
        rows, slots = np.nonzero(~pad.T)
        skipped = sp.csr_matrix((val[slots, rows], (rows, col[slots, rows] - base)), shape=(m, n))
        dt = rs.Datatype.f64_r
        mat = rs.create_bell_descr(m, n, rs.Direction.row, 1, width, rm.to_device(col.ravel()),
                                   rm.to_device(val.ravel()), rs.IndexType.of(it), base, dt)
        c_full, c = padded(y0)
        mb = rs.create_dnmat_descr(n, 1, n, rm.to_device(x), dt, rs.Order.column)
        mc = rs.create_dnmat_descr(m, 1, m, c, dt, rs.Order.column)
        rs.spmm(h, "N", "N", a_, mat, mb, b_, mc, dt, rs.SpMMAlg.bell, rs.SpMMStage.compute)
        assert_close(c.get(), _expected(alpha, beta, skipped @ x, y0), p, "reduction", width,
                     scale=product_scale(p, alpha, skipped, x, beta, y0))
        margins_untouched(c_full, m)


@settings(max_examples=examples(25))
@given(m=st.sampled_from([40, 300, 3000]), width=st.sampled_from([0, 1, 2]), base=st.sampled_from([0, 1]),
       itype=st.sampled_from([np.int32, np.int64]), ab=st.sampled_from([(1.5, 0.0), (-0.5, 2.0), (0.0, 3.0)]),
       device_mode=st.booleans(), seed=st.integers(0, 2**16))
def test_hybmv_coo_part_runs_by_rows(m, width, base, itype, ab, device_mode, seed):
    """A HYB matrix whose COO part holds most entries (rows of very different lengths; 3000 rows: several parallel
    chunks): hybmv against scipy, bitwise equal to the serial scatter of the COO part after the ELL part."""
    p = D
    rng = np.random.default_rng(seed)
    lengths = np.minimum(80, rng.geometric(0.15, m))
    rows = np.repeat(np.arange(m), lengths)
    cols = np.concatenate([rng.choice(90, k, replace=False) for k in lengths])
    a = sp.csr_matrix((vec(rng, rows.size, p.dtype), (rows, cols)), shape=(m, 90))
    a.sort_indices()
    h, d = rs.create_handle(), _descr(base)
    hyb = rs.create_hyb_mat()
    rs.dcsr2hyb(h, m, 90, d, rm.to_device(a.data), rm.to_device((a.indptr + base).astype(itype)),
                rm.to_device((a.indices + base).astype(itype)), hyb, width, rs.HybPartition.user)
    assert hyb.coo_nnz > 0
    x = vec(rng, 90, p.dtype)
    alpha, beta = ab
    y0 = _y0(rng, m, p.dtype, beta)
    a_, b_ = _scalar_args(h, p, device_mode, alpha, beta)
    y_full, y = padded(y0)
    rs.dhybmv(h, "N", a_, d, hyb, rm.to_device(x), b_, y)
    assert_close(y.get(), _expected(alpha, beta, a @ x, y0), p, "reduction", 90,
                 scale=product_scale(p, alpha, a, x, beta, y0))
    margins_untouched(y_full, m)
    serial = y0.copy()
    one = np.ones(1)
    if width:
        rs.set_pointer_mode(h, rs.PointerMode.host)
        ell = rm.to_device(serial)
        rs.dellmv(h, "N", m, 90, alpha, d, hyb.ell_val, hyb.ell_col_ind, width, rm.to_device(x), beta, ell)
        serial = ell.get()
    kf.scatter_product(False, False, np.array([alpha]), np.zeros(0, itype), hyb.coo_row_ind.get(),
                       hyb.coo_col_ind.get(), base, -2, hyb.coo_val.get(), x, one if width else np.array([beta]),
                       serial)
    assert np.array_equal(y.get().view(np.uint64), serial.view(np.uint64))


def test_every_precision_once():
    """bsrmv (block dimension 3 and 4, both directions), ellmv with padding, hybmv with an ELL and a COO part,
    and the generic spmv of BSR and ELL descriptors, in every precision; beta == 0 with NaN in y."""
    rng = np.random.default_rng(11)
    for p in SDCZ:
        h = rs.create_handle()
        alpha = scalar(p, 1.5 - 0.5j)
        for bd, direction in ((3, 0), (4, 1)):
            b = _bsr(rng, 9, 7, bd, 0.4, p.dtype)
            val, ptr, col = _bsr_arrays(b, direction, 1, np.int32)
            x = vec(rng, 7 * bd, p.dtype)
            y_full, y = padded(np.full(9 * bd, np.nan, p.dtype))
            dv, dp, dc = rm.to_device(val), rm.to_device(ptr), rm.to_device(col)
            _fn(p, "bsrmv")(h, direction, "N", 9, 7, col.size, alpha, _descr(1), dv, dp, dc, bd, None,
                            rm.to_device(x), 0.0, y)
            assert_close(y.get(), alpha * (b @ x), p, "reduction", 7 * bd)
            margins_untouched(y_full, 9 * bd)
            mat = rs.create_bsr_descr(9, 7, col.size, rs.Direction(direction), bd, dp, dc, dv, rs.IndexType.i32,
                                      rs.IndexType.i32, 1, rs.Datatype.of(p.dtype))
            yv = rm.to_device(np.full(9 * bd, np.nan, p.dtype))
            X, Y = rs.create_dnvec_descr(7 * bd, rm.to_device(x), rs.Datatype.of(p.dtype)), \
                rs.create_dnvec_descr(9 * bd, yv, rs.Datatype.of(p.dtype))
            for stage in rs.SpMVStage:
                rs.spmv(h, "N", alpha, mat, X, 0.0, Y, rs.Datatype.of(p.dtype), rs.SpMVAlg.default, stage)
            assert np.array_equal(yv.get(), y.get())
        # ELL with padding, directly and through a descriptor
        m, n, width = 30, 11, 4
        col = np.where(rng.random((width, m)) < 0.3, -1, rng.integers(0, n, (width, m))).astype(np.int32)
        val = np.where(col >= 0, vec(rng, width * m, p.dtype).reshape(width, m), 0).astype(p.dtype)
        first = np.where((col < 0).any(axis=0), (col < 0).argmax(axis=0), width)
        rows, slots = np.nonzero(np.arange(width)[None, :] < first[:, None])
        a = sp.csr_matrix((val[slots, rows], (rows, col[slots, rows])), shape=(m, n))
        x = vec(rng, n, p.dtype)
        y_full, y = padded(np.full(m, np.nan, p.dtype))
        dv, dc = rm.to_device(val.ravel()), rm.to_device(col.ravel())
        _fn(p, "ellmv")(h, "N", m, n, alpha, _descr(0), dv, dc, width, rm.to_device(x), 0.0, y)
        assert_close(y.get(), alpha * (a @ x), p, "reduction", width)
        margins_untouched(y_full, m)
        mat = rs.create_ell_descr(m, n, dc, dv, width, rs.IndexType.i32, 0, rs.Datatype.of(p.dtype))
        yv = rm.to_device(np.full(m, np.nan, p.dtype))
        X, Y = rs.create_dnvec_descr(n, rm.to_device(x), rs.Datatype.of(p.dtype)), \
            rs.create_dnvec_descr(m, yv, rs.Datatype.of(p.dtype))
        rs.spmv(h, "N", alpha, mat, X, 0.0, Y, rs.Datatype.of(p.dtype), rs.SpMVAlg.default, rs.SpMVStage.compute)
        assert np.array_equal(yv.get(), y.get())
        # HYB: ELL width 1, the rest in the COO part
        a = random_csr(rng, 25, 13, 0.4, p.dtype)
        d, hyb = _descr(0), rs.create_hyb_mat()
        _fn(p, "csr2hyb")(h, 25, 13, d, rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)),
                          rm.to_device(a.indices.astype(np.int32)), hyb, 1, rs.HybPartition.user)
        assert hyb.ell_nnz and hyb.coo_nnz
        x = vec(rng, 13, p.dtype)
        y_full, y = padded(np.full(25, np.nan, p.dtype))
        _fn(p, "hybmv")(h, "N", alpha, d, hyb, rm.to_device(x), 0.0, y)
        assert_close(y.get(), alpha * (a @ x), p, "reduction", 13)
        margins_untouched(y_full, 25)
