"""rocmath.sparse Level 2 (csrmv, csrmv_analysis, coomv) and the generic spmv, against scipy.sparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import assert_close, examples, scale_of, sentinel_value

LEGACY = {p.letter: (getattr(rs, f"{p.letter}csrmv"), getattr(rs, f"{p.letter}csrmv_analysis"),
                     getattr(rs, f"{p.letter}coomv")) for p in SDCZ}
OPS = {rs.Operation.none: lambda a: a, rs.Operation.transpose: lambda a: a.T,
       rs.Operation.conjugate_transpose: lambda a: a.conj().T}


def random_csr(rng: np.random.Generator, m: int, n: int, density: float, dtype: np.dtype) -> sp.csr_matrix:
    a = sp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    a.data = rng.standard_normal(a.nnz)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.csr_matrix((rng.standard_normal(a.nnz), a.indices, a.indptr), shape=a.shape)
    a = a.astype(dtype).tocsr()
    a.sort_indices()
    return a


def vec(rng: np.random.Generator, n: int, dtype: np.dtype) -> np.ndarray:
    v = rng.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def scalar(p: Precision, value: complex | None):
    """``value`` in p's kind (its real part for a real precision); None (no such term) stays None."""
    return value if value is None or p.is_complex else value.real


def padded(host: np.ndarray, margin: int = 8) -> tuple[rm.DeviceArray, rm.DeviceArray]:
    """A device copy of ``host`` inside a bigger allocation whose margins hold the sentinel."""
    s = sentinel_value(host.dtype)
    full = np.concatenate([np.full(margin, s, host.dtype), host, np.full(margin, s, host.dtype)])
    d = rm.to_device(full)
    return d, d[margin: margin + host.size]


def margins_untouched(d: rm.DeviceArray, n: int, margin: int = 8) -> None:
    got = d.get().view(np.uint8 if d.dtype.itemsize == 1 else f"u{min(d.dtype.itemsize, 8)}")
    per = max(1, d.dtype.itemsize // 8)
    s = np.full(margin, sentinel_value(d.dtype), d.dtype).view(got.dtype)
    assert np.array_equal(got[: margin * per], s) and np.array_equal(got[(margin + n) * per:], s)


@st.composite
def spmv_problems(draw):
    m = draw(st.sampled_from([0, 1, 2, 7, 33, 120]))
    n = draw(st.sampled_from([0, 1, 3, 16, 65]))
    return dict(m=m, n=n, density=draw(st.sampled_from([0.0, 0.05, 0.3, 1.0])),
                p=draw(st.sampled_from(SDCZ)), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])),
                trans=draw(st.sampled_from(list(rs.Operation))),
                alpha=draw(st.sampled_from([1.0, 0.0, -1.5 + 0.5j])), beta=draw(st.sampled_from([0.0, 1.0, 0.25j - 2])),
                device_mode=draw(st.booleans()), analyse=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


def _scalars(h, p: Precision, device_mode: bool, alpha, beta):
    if not device_mode:
        rs.set_pointer_mode(h, rs.PointerMode.host)
        return scalar(p, alpha), scalar(p, beta), None
    rs.set_pointer_mode(h, rs.PointerMode.device)
    da, db = rm.to_device(np.array([scalar(p, alpha)], p.dtype)), rm.to_device(np.array([scalar(p, beta)], p.dtype))
    return da, db, (da, db)


@settings(max_examples=examples(50))
@given(spmv_problems())
def test_csrmv_matches_scipy(q):
    p, m, n = q["p"], q["m"], q["n"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    opa = OPS[q["trans"]](a)
    x = vec(rng, opa.shape[1], p.dtype)
    y0 = vec(rng, opa.shape[0], p.dtype)
    if q["beta"] == 0:
        y0[:] = np.nan  # beta == 0 must not read y
    h = rs.create_handle()
    descr = rs.create_mat_descr()
    rs.set_mat_index_base(descr, q["base"])
    base, it = q["base"], q["itype"]
    dv = rm.to_device(a.data)
    dp = rm.to_device((a.indptr + base).astype(it))
    dc = rm.to_device((a.indices + base).astype(it))
    dx = rm.to_device(x)
    yfull, dy = padded(y0)
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    csrmv, analysis, _ = LEGACY[p.letter]
    info = None
    if q["analyse"]:
        info = rs.create_mat_info()
        analysis(h, q["trans"], m, n, a.nnz, descr, dv, dp, dc, info)
    csrmv(h, q["trans"], m, n, a.nnz, alpha, descr, dv, dp, dc, info, dx, beta, dy)
    a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
    quick = a_ == 0 and b_ == 1 and not q["device_mode"]
    expected = y0 if quick else a_ * (opa @ x) + (b_ * y0 if b_ != 0 else 0)
    got = dy.get()
    if b_ == 1 and a_ == 0:
        assert np.array_equal(got, expected, equal_nan=True)
    else:
        assert_close(got, np.asarray(expected, p.dtype), p, "reduction", max(1, m, n),
                     scale=product_scale(p, a_, opa, x, b_, y0))
    margins_untouched(yfull, y0.size)


def magnitudes(a):
    """``|a|`` elementwise; a sparse matrix's stored values one by one (scipy's abs sums a COO's duplicates
    first, in place: duplicates of opposite signs would cancel)."""
    if not sp.issparse(a):
        return np.abs(a)
    m = a.copy()
    m.data = np.abs(m.data)
    return m


def product_scale(p, alpha, opa, x, beta, y0):
    """The size of the terms of ``alpha op(A) x + beta y`` (a None scalar: no such term), for assert_close's
    ``scale`` in precision ``p``: a product's errors are relative to it, not to a sum that cancels."""
    def dense(t):
        return t.toarray() if sp.issparse(t) else t

    terms = [] if alpha is None else [abs(alpha) * dense(magnitudes(opa) @ magnitudes(x))]
    return scale_of(p, *terms, *([] if beta is None else [abs(beta) * dense(magnitudes(y0))]))


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("trans", list(rs.Operation), ids=lambda t: t.name)
def test_csrmv_symmetric_reads_one_triangle(p, trans):
    rng = np.random.default_rng(3)
    full = random_csr(rng, 40, 40, 0.2, p.dtype)
    full = (full + full.T).tocsr()
    lower = sp.tril(full, format="csr")
    lower.sort_indices()
    x, y = vec(rng, 40, p.dtype), vec(rng, 40, p.dtype)
    h, d = rs.create_handle(), rs.create_mat_descr()
    rs.set_mat_type(d, rs.MatrixType.symmetric)
    dy = rm.to_device(y)
    LEGACY[p.letter][0](h, trans, 40, 40, lower.nnz, scalar(p, 2.0), d, rm.to_device(lower.data),
                        rm.to_device(lower.indptr.astype(np.int32)), rm.to_device(lower.indices.astype(np.int32)),
                        None, rm.to_device(x), scalar(p, 0.5), dy)
    expected = 2.0 * (OPS[trans](full) @ x) + 0.5 * y
    assert_close(dy.get(), expected.astype(p.dtype), p, "reduction", 40)


@settings(max_examples=examples(40))
@given(spmv_problems())
def test_coomv_matches_scipy_with_duplicates_and_any_order(q):
    p, m, n = q["p"], q["m"], q["n"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype).tocoo()
    order = rng.permutation(a.nnz)
    extra = rng.integers(0, a.nnz, size=a.nnz // 3) if a.nnz else np.zeros(0, int)
    rows = np.concatenate([a.row[order], a.row[extra]])
    cols = np.concatenate([a.col[order], a.col[extra]])
    vals = np.concatenate([a.data[order], a.data[extra]])
    dup = sp.coo_matrix((vals, (rows, cols)), shape=(m, n))
    opa = OPS[q["trans"]](dup.tocsr())
    x, y0 = vec(rng, opa.shape[1], p.dtype), vec(rng, opa.shape[0], p.dtype)
    h, d = rs.create_handle(), rs.create_mat_descr()
    rs.set_mat_index_base(d, q["base"])
    dy = rm.to_device(y0)
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    it, base = q["itype"], q["base"]
    LEGACY[p.letter][2](h, q["trans"], m, n, vals.size, alpha, d, rm.to_device(vals.astype(p.dtype)),
                        rm.to_device((rows + base).astype(it)), rm.to_device((cols + base).astype(it)),
                        rm.to_device(x), beta, dy)
    a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
    expected = y0 if (a_ == 0 and b_ == 1 and not q["device_mode"]) else a_ * (opa @ x) + b_ * y0
    assert_close(dy.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, vals.size),
                 scale=product_scale(p, a_, opa, x, b_, y0))


@settings(max_examples=examples(40))
@given(spmv_problems(), st.sampled_from([rs.Format.csr, rs.Format.csc, rs.Format.coo]),
       st.sampled_from([0, 2, 3, 7]))
def test_generic_spmv_stages(q, fmt, alg):
    p, m, n = q["p"], q["m"], q["n"]
    if fmt is rs.Format.coo:
        alg = {0: 0, 2: 1, 3: 5, 7: 0}[alg]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, n, q["density"], p.dtype)
    opa = OPS[q["trans"]](a)
    x, y0 = vec(rng, opa.shape[1], p.dtype), vec(rng, opa.shape[0], p.dtype)
    it, base = q["itype"], q["base"]
    itype = rs.IndexType.of(it)
    dtype = rs.Datatype.of(p.dtype)
    if fmt is rs.Format.csr:
        arrays = (rm.to_device((a.indptr + base).astype(it)), rm.to_device((a.indices + base).astype(it)),
                  rm.to_device(a.data))
        mat = rs.create_csr_descr(m, n, a.nnz, *arrays, itype, itype, base, dtype)
    elif fmt is rs.Format.csc:
        c = a.tocsc()
        c.sort_indices()
        arrays = (rm.to_device((c.indptr + base).astype(it)), rm.to_device((c.indices + base).astype(it)),
                  rm.to_device(c.data))
        mat = rs.create_csc_descr(m, n, a.nnz, *arrays, itype, itype, base, dtype)
    else:
        o = a.tocoo()
        arrays = (rm.to_device((o.row + base).astype(it)), rm.to_device((o.col + base).astype(it)),
                  rm.to_device(o.data))
        mat = rs.create_coo_descr(m, n, a.nnz, *arrays, itype, base, dtype)
    dx, dy = rm.to_device(x), rm.to_device(y0)
    vx, vy = rs.create_dnvec_descr(x.size, dx, dtype), rs.create_dnvec_descr(y0.size, dy, dtype)
    h = rs.create_handle()
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    out = np.zeros(1, np.int64)
    size = rs.spmv(h, q["trans"], alpha, mat, vx, beta, vy, dtype, alg, rs.SpMVStage.buffer_size, out)
    assert size == out[0] >= 0
    tmp = rm.empty(max(size, 1), np.uint8)
    rs.spmv(h, q["trans"], alpha, mat, vx, beta, vy, dtype, alg, rs.SpMVStage.preprocess, None, tmp)
    for _ in range(2):  # the analysis is reused
        dy.set(y0)
        rs.spmv(h, q["trans"], alpha, mat, vx, beta, vy, dtype, alg, rs.SpMVStage.compute, None, tmp)
        a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
        expected = y0 if (a_ == 0 and b_ == 1 and not q["device_mode"]) else a_ * (opa @ x) + b_ * y0
        assert_close(dy.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, n),
                     scale=product_scale(p, a_, opa, x, b_, y0))


def test_csrmv_is_bitwise_deterministic():
    rng = np.random.default_rng(7)
    a = random_csr(rng, 3000, 2000, 0.02, np.float64)
    x = vec(rng, 3000, np.float64)
    h, d = rs.create_handle(), rs.create_mat_descr()
    args = (rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32)))
    outs = []
    for _ in range(3):
        dy = rm.zeros(2000)
        rs.dcsrmv(h, "T", 3000, 2000, a.nnz, 1.0, d, *args, None, rm.to_device(x), 0.0, dy)
        outs.append(dy.get())
    assert all(np.array_equal(outs[0].view(np.uint64), o.view(np.uint64)) for o in outs[1:])


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("spread", [False, True], ids=["banded", "spread"])
@pytest.mark.parametrize("even", [False, True], ids=["uneven", "even"])
@pytest.mark.parametrize("base", [0, 1])
def test_csrmv_rows_sum_in_storage_order_however_they_run(p, spread, even, base):
    # Blocks of rows of even lengths advance four rows at a time, the others one row at a time,
    # over columns close together or spread over 4 MiB of x, with zero- and one-based indices (each
    # a loop of its own): all give each row's storage-order sum (alpha 1, beta 0), bit for bit.
    from rocmath.sparse._kernels import even_rows

    rng = np.random.default_rng(3)
    m, width = 3000, 9
    n = (4 << 20) // p.dtype.itemsize if spread else m + width
    lengths = rng.integers(6, width, m) if even else rng.integers(0, width, m)
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    if spread:
        cols = np.concatenate([np.sort(rng.choice(n, k, replace=False)) for k in lengths])
    else:
        cols = np.concatenate([i + np.sort(rng.choice(width, k, replace=False)) for i, k in enumerate(lengths)])
    cols = cols.astype(np.int32)
    val, x = vec(rng, ptr[-1], p.dtype), vec(rng, n, p.dtype)
    val[::7] = -0.0  # rows whose one product is -0.0 sum to +0.0
    if p.dtype.kind == "f":  # inf * -0.0 gives NaN (complex inf products: numba's rules are C99's, not numpy's)
        x[::101] = np.inf
    assert even_rows(ptr, 0, m) is even
    expected = np.empty(m, p.dtype)
    with np.errstate(invalid="ignore"):
        for i in range(m):
            total = p.dtype.type(0)
            for j in range(ptr[i], ptr[i + 1]):
                total += val[j] * x[cols[j]]
            expected[i] = total
    h, d = rs.create_handle(), rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    dy = rm.to_device(np.full(m, np.nan, p.dtype))
    LEGACY[p.letter][0](h, "N", m, n, int(ptr[-1]), scalar(p, 1.0), d, rm.to_device(val), rm.to_device(ptr + base),
                        rm.to_device(cols + base), None, rm.to_device(x), scalar(p, 0.0), dy)
    assert np.array_equal(dy.get().view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("p", SDCZ[1:3], ids=lambda p: p.letter)
@pytest.mark.parametrize("even", [False, True], ids=["uneven", "even"])
def test_csrmv_writes_a_large_y_around_the_caches_exactly(p, even):
    # A y of STREAMING_Y_BYTES or more with beta == 0 is written by streaming stores (fenced at the
    # end of every block), rows four at a time or one by one: integer-valued sums are exact.  With
    # beta != 0 (y read) the plain stores run.
    from rocmath.sparse._kernels import STREAMING_Y_BYTES

    rng = np.random.default_rng(4)
    m = STREAMING_Y_BYTES // p.dtype.itemsize + 5
    lengths = np.full(m, 3) if even else rng.integers(0, 5, m)
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    cols = rng.integers(0, m, int(ptr[-1])).astype(np.int32)
    val = rng.integers(-4, 5, int(ptr[-1])).astype(p.dtype)
    x = rng.integers(-4, 5, m).astype(p.dtype)
    a = sp.csr_matrix((val, cols, ptr), shape=(m, m))
    h, d = rs.create_handle(), rs.create_mat_descr()
    args = (rm.to_device(val), rm.to_device(ptr), rm.to_device(cols), None, rm.to_device(x))
    for beta in (0.0, 1.0):
        y0 = rng.integers(-4, 5, m).astype(p.dtype)
        dy = rm.to_device(y0)
        LEGACY[p.letter][0](h, "N", m, m, int(ptr[-1]), scalar(p, 2.0), d, *args, scalar(p, beta), dy)
        assert np.array_equal(dy.get(), 2 * (a @ x) + beta * y0)


# --- bad arguments: the exact status, in rocSPARSE's order ------------------------------------------


def _csrmv_args(**over):
    a = sp.identity(4, format="csr")
    args = dict(handle=rs.create_handle(), trans=rs.Operation.none, m=4, n=4, nnz=4, alpha=1.0,
                descr=rs.create_mat_descr(), csr_val=rm.to_device(a.data),
                csr_row_ptr=rm.to_device(a.indptr.astype(np.int32)),
                csr_col_ind=rm.to_device(a.indices.astype(np.int32)), info=None, x=rm.to_device(np.ones(4)),
                beta=0.0, y=rm.zeros(4))
    args.update(over)
    return args


@pytest.mark.parametrize(("over", "status", "index"), [
    (dict(handle=None), rs.Status.invalid_handle, 1),
    (dict(trans=7), rs.Status.invalid_value, 2),
    (dict(trans=7, m=-1), rs.Status.invalid_value, 2),
    (dict(m=-1), rs.Status.invalid_size, 3),
    (dict(n=-1, alpha=None), rs.Status.invalid_size, 4),
    (dict(nnz=-1), rs.Status.invalid_size, 5),
    (dict(alpha=None, descr=None), rs.Status.invalid_pointer, 6),
    (dict(descr=None, csr_val=None), rs.Status.invalid_pointer, 7),
    (dict(csr_val=None, x=None), rs.Status.invalid_pointer, 8),
    (dict(csr_row_ptr=None), rs.Status.invalid_pointer, 9),
    (dict(csr_col_ind=0), rs.Status.invalid_pointer, 10),
    (dict(x=None, beta=None), rs.Status.invalid_pointer, 12),
    (dict(beta=None, y=None), rs.Status.invalid_pointer, 13),
    (dict(y=None), rs.Status.invalid_pointer, 14),
])
def test_csrmv_bad_arguments(over, status, index):
    with pytest.raises(rs.SparseError) as err:
        rs.dcsrmv(**_csrmv_args(**over))
    assert err.value.status == status and err.value.index == index


@pytest.mark.parametrize(("mtype", "m", "storage", "status"), [
    (rs.MatrixType.hermitian, 4, 0, rs.Status.not_implemented),
    (rs.MatrixType.symmetric, 3, 0, rs.Status.invalid_size),
    (rs.MatrixType.triangular, 3, 0, rs.Status.invalid_size),
    (rs.MatrixType.general, 4, 1, rs.Status.requires_sorted_storage),
])
def test_csrmv_descriptor_rules(mtype, m, storage, status):
    d = rs.create_mat_descr()
    rs.set_mat_type(d, mtype)
    rs.set_mat_storage_mode(d, storage)
    with pytest.raises(rs.SparseError) as err:
        rs.dcsrmv(**_csrmv_args(descr=d, m=m))
    assert err.value.status == status and err.value.index == 7


def test_csrmv_quick_returns():
    # nnz == 0: y := beta y, null matrix arrays are fine; beta == 0 writes zeros over NaN.
    y = rm.to_device(np.full(4, np.nan))
    rs.dcsrmv(**_csrmv_args(nnz=0, csr_val=None, csr_col_ind=None, y=y))
    assert np.array_equal(y.get(), np.zeros(4))
    y = rm.to_device(np.arange(4.0))
    rs.dcsrmv(**_csrmv_args(nnz=0, csr_val=None, csr_col_ind=None, y=y, beta=2.0))
    assert np.array_equal(y.get(), 2 * np.arange(4.0))
    # alpha == 0 and beta == 1 in host mode: nothing is read or written.
    y = rm.to_device(np.arange(4.0))
    rs.dcsrmv(**_csrmv_args(alpha=0.0, beta=1.0, y=y))
    assert np.array_equal(y.get(), np.arange(4.0))


def test_csrmv_analysis_checks_and_mismatch():
    a = _csrmv_args()
    info = rs.create_mat_info()
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrmv_analysis(a["handle"], "N", 4, 4, 4, None, a["csr_val"], a["csr_row_ptr"], a["csr_col_ind"], info)
    assert err.value.index == 6
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrmv_analysis(a["handle"], "N", 4, 4, 4, a["descr"], a["csr_val"], a["csr_row_ptr"], a["csr_col_ind"],
                           None)
    assert err.value.index == 10
    rs.dcsrmv_analysis(a["handle"], "N", 4, 4, 4, a["descr"], a["csr_val"], a["csr_row_ptr"], a["csr_col_ind"], info)
    with pytest.raises(rs.SparseInvalidValueError):
        rs.dcsrmv(**_csrmv_args(handle=a["handle"], info=info, csr_val=a["csr_val"], csr_row_ptr=a["csr_row_ptr"],
                                csr_col_ind=a["csr_col_ind"]))  # another descriptor
    rs.dcsrmv(**{**a, "info": info})
    assert np.array_equal(a["y"].get(), np.ones(4))
    rs.csrmv_clear(a["handle"], info)
    assert info.csrmv is None
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.csrmv_clear(a["handle"], None)


def test_coomv_check_order():
    h, d = rs.create_handle(), rs.create_mat_descr()
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcoomv(h, 9, 2, 2, 1, 1.0, None, None, None, None, None, 0.0, None)
    assert err.value.index == 7  # descr before the enum
    rs.set_mat_type(d, rs.MatrixType.symmetric)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.dcoomv(h, "N", 2, 2, 1, 1.0, d, None, None, None, None, 0.0, None)
    d = rs.create_mat_descr()
    rs.dcoomv(h, "N", 2, 2, 1, 0.0, d, None, None, None, None, 1.0, None)  # host alpha 0, beta 1: before arrays
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcoomv(h, "N", 2, 2, 1, 1.0, d, None, None, None, None, 0.0, rm.zeros(2))
    assert err.value.index == 11


def test_spmv_bad_arguments():
    h = rs.create_handle()
    a = sp.identity(3, format="csr")
    it, dt = rs.IndexType.i32, rs.Datatype.f64_r
    mat = rs.create_csr_descr(3, 3, 3, rm.to_device(a.indptr.astype(np.int32)),
                              rm.to_device(a.indices.astype(np.int32)), rm.to_device(a.data), it, it, 0, dt)
    x = rs.create_dnvec_descr(3, rm.to_device(np.ones(3)), dt)
    y = rs.create_dnvec_descr(3, rm.zeros(3), dt)
    cases = [
        (dict(trans=5), rs.Status.invalid_value, 2), (dict(alpha=None), rs.Status.invalid_pointer, 3),
        (dict(mat=None), rs.Status.invalid_pointer, 4), (dict(x=None), rs.Status.invalid_pointer, 5),
        (dict(beta=None), rs.Status.invalid_pointer, 6), (dict(y=None), rs.Status.invalid_pointer, 7),
        (dict(compute_type=1), rs.Status.invalid_value, 8), (dict(alg=99), rs.Status.invalid_value, 9),
        (dict(stage=0), rs.Status.invalid_value, 10), (dict(compute_type=dt.f32_r), rs.Status.not_implemented, 8),
        (dict(alg=rs.SpMVAlg.coo), rs.Status.invalid_value, 9),
    ]
    for over, status, index in cases:
        args = dict(handle=h, trans=0 + rs.Operation.none, alpha=1.0, mat=mat, x=x, beta=0.0, y=y, compute_type=dt,
                    alg=0, stage=rs.SpMVStage.compute)
        args.update(over)
        with pytest.raises(rs.SparseError) as err:
            rs.spmv(**args)
        assert (err.value.status, err.value.index) == (status, index), over


@pytest.mark.slow
@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_csrmv_large(p):
    rng = np.random.default_rng(11)
    a = random_csr(rng, 200_000, 150_000, 5e-5, p.dtype)
    x = vec(rng, 150_000, p.dtype)
    h, d, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    args = (rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32)))
    LEGACY[p.letter][1](h, "N", 200_000, 150_000, a.nnz, d, *args, info)
    dy = rm.empty(200_000, p.dtype)
    LEGACY[p.letter][0](h, "N", 200_000, 150_000, a.nnz, scalar(p, 1.0), d, *args, info, rm.to_device(x),
                        scalar(p, 0.0), dy)
    assert_close(dy.get(), (a @ x).astype(p.dtype), p, "reduction", 150_000)


@pytest.mark.parametrize("seed", range(3))
def test_balanced_row_bounds_split_rows_by_entries(seed):
    # The analysis's partition: non-decreasing bounds from 0 to m, each block starting at the first
    # row at or past its share of the entries (the searches run in parallel; one pass orders them).
    from rocmath.sparse._kernels import balanced_row_bounds

    rng = np.random.default_rng(seed)
    m, nblocks = 5000, 37
    ptr = np.concatenate([[0], np.cumsum(rng.pareto(1.1, m).astype(np.int64) + rng.integers(0, 2, m))])
    bounds = np.empty(nblocks + 1, np.int64)
    balanced_row_bounds(ptr, 0, nblocks, bounds)
    nnz = ptr[-1]
    expected = [0] + [min(int(np.searchsorted(ptr, (nnz * b) // nblocks)), m) for b in range(1, nblocks)] + [m]
    np.testing.assert_array_equal(bounds, np.maximum.accumulate(expected))
    bad = ptr.copy()
    bad[m // 2] = nnz + 5  # not a row pointer array: the bounds still never go back
    balanced_row_bounds(bad, 0, nblocks, bounds)
    assert np.all(np.diff(bounds) >= 0) and bounds[0] == 0 and bounds[-1] == m
