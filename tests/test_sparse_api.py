"""rocmath.sparse: enums, handle, descriptors, csrmm/spmm, conversions and the Pythonic layer."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.linalg import cg, gmres
from test_sparse_level2 import OPS, product_scale, random_csr, scalar

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, D
from rocmath.testing import assert_close, examples


def test_enum_values_are_rocsparse_own():
    assert (rs.FillMode.lower, rs.FillMode.upper) == (0, 1)
    assert rs.Operation.conjugate_transpose == 113 and rs.IndexType.i64 == 3 and rs.Datatype.f64_c == 155
    assert rs.Status.zero_pivot == 9 and rs.Status.requires_sorted_storage == 12
    assert rs.Status.invalid_value.to_string() == "rocsparse_status_invalid_value"
    assert rs.error_for_status(4) is rs.SparseInvalidSizeError and rs.SparseInvalidSizeError.status == 4
    assert (rs.SpMVAlg.csr_lrb, rs.SpMMAlg.csr_merge_path, rs.SpGEMMStage.numeric) == (7, 9, 5)


def test_errors_pickle():
    import pickle

    e = rs.SparseInvalidSizeError("m < 0", arg="m", index=3)
    e2 = pickle.loads(pickle.dumps(e))
    assert (type(e2), e2.arg, e2.index, e2.status) == (rs.SparseInvalidSizeError, "m", 3, rs.Status.invalid_size)


def test_handle_lifecycle():
    h = rs.create_handle()
    s = rm.Stream()
    rs.set_stream(h, s)
    assert rs.get_stream(h) is s
    assert rs.get_pointer_mode(h) is rs.PointerMode.host
    rs.set_pointer_mode(h, 1)
    assert rs.get_pointer_mode(h) is rs.PointerMode.device
    with pytest.raises(rs.SparseInvalidValueError):
        rs.set_pointer_mode(h, 5)
    assert rs.get_version(h) > 0
    rs.destroy_handle(h)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.get_stream(h)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dcsrmv(h, "N", 0, 0, 0, 1.0, rs.create_mat_descr(), None, None, None, None, None, 0.0, None)
    s.destroy()


def test_mat_descr_defaults_setters_and_copy():
    d = rs.create_mat_descr()
    assert (rs.get_mat_type(d), rs.get_mat_index_base(d), rs.get_mat_fill_mode(d), rs.get_mat_diag_type(d),
            rs.get_mat_storage_mode(d)) == (0, 0, rs.FillMode.lower, rs.DiagType.non_unit, rs.StorageMode.sorted)
    rs.set_mat_index_base(d, 1)
    rs.set_mat_fill_mode(d, rs.FillMode.upper)
    rs.set_mat_diag_type(d, 1)
    rs.set_mat_type(d, rs.MatrixType.triangular)
    rs.set_mat_storage_mode(d, 1)
    for setter in (rs.set_mat_index_base, rs.set_mat_fill_mode, rs.set_mat_diag_type, rs.set_mat_type,
                   rs.set_mat_storage_mode):
        with pytest.raises(rs.SparseInvalidValueError) as err:
            setter(d, 121)  # rocBLAS's fill value is not a rocSPARSE one
        assert err.value.index == 2
    e = rs.create_mat_descr()
    rs.copy_mat_descr(e, d)
    assert (e.base, e.fill_mode, e.diag_type, e.type, e.storage_mode) == (1, 1, 1, 3, 1)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.copy_mat_descr(e, e)
    rs.destroy_mat_descr(d)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.set_mat_type(d, 0)
    info = rs.create_mat_info()
    rs.destroy_mat_info(info)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.destroy_mat_info(info)


def test_generic_descriptors():
    ptr, ind, val = rm.zeros(4, np.int64), rm.zeros(3, np.int64), rm.zeros(3)
    m = rs.create_csr_descr(3, 5, 3, ptr, ind, val, rs.IndexType.i64, rs.IndexType.i64, 1, rs.Datatype.f64_r)
    assert rs.csr_get(m) == (3, 5, 3, ptr, ind, val, rs.IndexType.i64, rs.IndexType.i64, rs.IndexBase.one,
                             rs.Datatype.f64_r)
    assert rs.spmat_get_size(m) == (3, 5, 3) and rs.spmat_get_format(m) is rs.Format.csr
    assert rs.spmat_get_index_base(m) is rs.IndexBase.one and rs.spmat_get_values(m) is val
    rs.spmat_set_attribute(m, rs.SpMatAttribute.fill_mode, rs.FillMode.upper)
    assert rs.spmat_get_attribute(m, rs.SpMatAttribute.fill_mode) is rs.FillMode.upper
    with pytest.raises(rs.SparseInvalidValueError):
        rs.spmat_set_attribute(m, rs.SpMatAttribute.matrix_type, 9)
    rs.csr_set_pointers(m, ptr, ind, val)
    # rocsparse_auxiliary.cpp's coo_get does not check the format: a CSR descriptor's fields come back
    assert rs.coo_get(m) == (3, 5, 3, ptr, ind, val, rs.IndexType.i64, rs.IndexBase.one, rs.Datatype.f64_r)
    c = rs.create_csc_descr(3, 5, 3, rm.zeros(6, np.int32), ind, val, 2, 3, 0, rs.Datatype.f64_r)
    assert rs.csc_get(c)[6:8] == (rs.IndexType.i32, rs.IndexType.i64)
    o = rs.create_coo_descr(3, 5, 3, ind, ind, val, rs.IndexType.i64, 0, rs.Datatype.f64_r)
    assert rs.coo_get(o)[:3] == (3, 5, 3)
    v = rs.create_dnvec_descr(3, val, rs.Datatype.f64_r)
    assert rs.dnvec_get(v) == (3, val, rs.Datatype.f64_r)
    d = rs.create_dnmat_descr(3, 2, 3, rm.zeros(6), rs.Datatype.f64_r, rs.Order.column)
    assert rs.dnmat_get(d)[:3] == (3, 2, 3)
    for destroy, obj in ((rs.destroy_spmat_descr, m), (rs.destroy_dnvec_descr, v), (rs.destroy_dnmat_descr, d)):
        destroy(obj)
        with pytest.raises(rs.SparseInvalidPointerError):
            destroy(obj)


@pytest.mark.parametrize(("call", "status", "index"), [
    (lambda: rs.create_csr_descr(-1, 2, 0, None, None, None, 2, 2, 0, 152), rs.Status.invalid_size, 2),
    (lambda: rs.create_csr_descr(2, 2, 5, None, None, None, 2, 2, 0, 152), rs.Status.invalid_size, 4),
    (lambda: rs.create_csr_descr(2, 2, 1, None, None, None, 2, 2, 0, 152), rs.Status.invalid_pointer, 5),
    (lambda: rs.create_csr_descr(0, 2, 0, None, None, None, 7, 2, 0, 152), rs.Status.invalid_value, 8),
    (lambda: rs.create_csr_descr(0, 2, 0, None, None, None, 2, 2, 2, 152), rs.Status.invalid_value, 10),
    (lambda: rs.create_csr_descr(0, 2, 0, None, None, None, 2, 2, 0, 153), rs.Status.invalid_value, 11),
    (lambda: rs.create_coo_descr(2, 2, 1, 1 << 60, None, None, 2, 0, 152), rs.Status.invalid_pointer, 6),
    (lambda: rs.create_dnvec_descr(2, None, 152), rs.Status.invalid_pointer, 3),
    (lambda: rs.create_dnmat_descr(3, 2, 2, None, 152, rs.Order.column), rs.Status.invalid_size, 4),
    (lambda: rs.create_dnmat_descr(3, 2, 2, None, 152, 5), rs.Status.invalid_value, 7),
])
def test_generic_descriptor_checks(call, status, index):
    with pytest.raises(rs.SparseError) as err:
        call()
    assert (err.value.status, err.value.index) == (status, index)


@st.composite
def mm_problems(draw):
    return dict(m=draw(st.sampled_from([0, 1, 9, 40])), k=draw(st.sampled_from([0, 1, 12, 33])),
                n=draw(st.sampled_from([0, 1, 8, 17])), density=draw(st.sampled_from([0.0, 0.1, 0.5])),
                p=draw(st.sampled_from(SDCZ)), trans_a=draw(st.sampled_from(list(rs.Operation))),
                trans_b=draw(st.sampled_from(list(rs.Operation))), beta=draw(st.sampled_from([0.0, 1.5])),
                base=draw(st.sampled_from([0, 1])), seed=draw(st.integers(0, 2**16)))


def _dense(rng, shape, p):
    a = rng.standard_normal(shape)
    if p.is_complex:
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(p.dtype)


@settings(max_examples=examples(30))
@given(mm_problems())
def test_csrmm_matches_scipy(q):
    p, m, n, kk = q["p"], q["m"], q["n"], q["k"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, kk, q["density"], p.dtype)
    opa = OPS[q["trans_a"]](a)
    b = _dense(rng, (opa.shape[1], n), p)
    bstore = b if q["trans_b"] is rs.Operation.none else (b.T if q["trans_b"] is rs.Operation.transpose else b.T.conj())
    c0 = _dense(rng, (opa.shape[0], n), p)
    if q["beta"] == 0:
        c0[:] = np.nan
    ldb = bstore.shape[0] + 2
    bpad = np.zeros((ldb, bstore.shape[1]), p.dtype)
    bpad[: bstore.shape[0]] = bstore
    dC = rm.to_device(np.asfortranarray(c0))
    h, d = rs.create_handle(), rs.create_mat_descr()
    rs.set_mat_index_base(d, q["base"])
    base = q["base"]
    getattr(rs, f"{p.letter}csrmm")(h, q["trans_a"], q["trans_b"], m, n, kk, a.nnz, scalar(p, 2 - 1j), d,
                                    rm.to_device(a.data), rm.to_device((a.indptr + base).astype(np.int32)),
                                    rm.to_device((a.indices + base).astype(np.int32)),
                                    rm.to_device(np.asfortranarray(bpad)), ldb, q["beta"], dC, max(1, opa.shape[0]))
    expected = scalar(p, 2 - 1j) * (opa @ b) + (q["beta"] * c0 if q["beta"] else 0)
    scale = product_scale(p, scalar(p, 2 - 1j), opa, b, q["beta"], c0)
    assert_close(dC.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, kk), scale=scale)


@pytest.mark.parametrize(("p", "order"), [(p, "C") for p in SDCZ] + [(D, "F")],
                         ids=lambda v: getattr(v, "letter", v))
@pytest.mark.parametrize("width", [8, 9, 15, 16, 24, 31])
@pytest.mark.parametrize(("conj_a", "conj_b", "beta"), [(False, False, 0.0), (True, True, 1.5), (False, True, -1.0)])
def test_csrmm_panels_add_as_the_accumulator_vector(p, order, width, conj_a, conj_b, beta):
    # From eight columns on, csrmm runs panels of eight columns in registers, the last one of a width
    # that is not a multiple of eight overlapping the one before; narrower C runs the accumulator
    # vector.  Each entry of C must come out bit for bit the same either way (beta applied once to
    # the overlapped columns), and the columns of the buffer past C's width untouched.
    from rocmath.sparse import _kernels as k

    rng = np.random.default_rng(width)
    a = random_csr(rng, 300, 200, 0.05, p.dtype)
    a.indices = a.indices.astype(np.int32)
    a.indptr = a.indptr.astype(np.int32)
    b = np.asarray(_dense(rng, (200, width), p), order=order)
    c = _dense(rng, (300, width + 3), p)
    alpha, beta_v = np.array([scalar(p, 2 - 1j)], p.dtype), np.array([beta], p.dtype)
    bounds = k.uniform_bounds(300, 7)
    assert k.csrmm_kernel(width) is k.csrmm_panels and k.csrmm_kernel(7) is k.csrmm_rows
    panels, rows = c.copy(), np.asarray(c[:, :width], order=order)
    k.csrmm_panels(conj_a, conj_b, alpha, a.data, a.indptr, a.indices, 0, b, beta_v, panels[:, :width], bounds, 2)
    k.csrmm_rows(conj_a, conj_b, alpha, a.data, a.indptr, a.indices, 0, b, beta_v, rows, bounds, 2)
    assert np.array_equal(np.ascontiguousarray(panels[:, :width]).view(np.uint8),
                          np.ascontiguousarray(rows).view(np.uint8))
    assert np.array_equal(panels[:, width:].view(np.uint8), c[:, width:].view(np.uint8))
    op_a = a.conj() if conj_a else a
    expected = alpha[0] * (op_a @ (b.conj() if conj_b else b)) + beta * c[:, :width]
    assert_close(rows, np.asarray(expected, p.dtype), p, "reduction", 200)


def test_csrmm_checks():
    h, d = rs.create_handle(), rs.create_mat_descr()
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.dcsrmm(h, "N", 3, 2, 2, 2, 0, 1.0, d, None, None, None, None, 2, 0.0, None, 2)
    assert err.value.index == 3
    with pytest.raises(rs.SparseInvalidSizeError) as err:
        rs.dcsrmm(h, "N", "N", 2, 2, -2, 0, 1.0, d, None, None, None, None, 2, 0.0, None, 2)
    assert err.value.index == 6
    with pytest.raises(rs.SparseInvalidSizeError) as err:
        rs.dcsrmm(h, "N", "N", 2, 2, 2, 0, 1.0, d, None, rm.zeros(3, np.int32), None, rm.zeros(4), 2, 0.0,
                  rm.zeros(4), 1)
    assert err.value.index == 17
    c = rm.to_device(np.full((2, 2), np.nan, order="F"))
    rs.dcsrmm(h, "N", "N", 2, 2, 0, 0, 1.0, d, None, rm.zeros(3, np.int32), None, None, 1, 0.0, c, 2)
    # k == 0 is a quick return after the CSR arrays: C := beta C, B never looked at
    assert np.array_equal(c.get(), np.zeros((2, 2)))


@settings(max_examples=examples(25))
@given(mm_problems(), st.sampled_from([rs.Order.row, rs.Order.column]), st.booleans())
def test_generic_spmm(q, order, csc):
    p, m, n, kk = q["p"], q["m"], q["n"], q["k"]
    rng = np.random.default_rng(q["seed"])
    a = random_csr(rng, m, kk, q["density"], p.dtype)
    opa = OPS[q["trans_a"]](a)
    b = _dense(rng, (opa.shape[1], n), p)
    bstore = b if q["trans_b"] is rs.Operation.none else (b.T if q["trans_b"] is rs.Operation.transpose else b.T.conj())
    c0 = _dense(rng, (opa.shape[0], n), p)
    dt = rs.Datatype.of(p.dtype)
    it = rs.IndexType.i32
    if csc:
        s = a.tocsc()
        s.sort_indices()
        mat = rs.create_csc_descr(m, kk, s.nnz, rm.to_device(s.indptr.astype(np.int32)),
                                  rm.to_device(s.indices.astype(np.int32)), rm.to_device(s.data), it, it, 0, dt)
    else:
        mat = rs.create_csr_descr(m, kk, a.nnz, rm.to_device(a.indptr.astype(np.int32)),
                                  rm.to_device(a.indices.astype(np.int32)), rm.to_device(a.data), it, it, 0, dt)
    layout = "C" if order is rs.Order.row else "F"

    def desc(host):
        r, c = host.shape
        return rs.create_dnmat_descr(r, c, max(1, c if order is rs.Order.row else r),
                                     rm.to_device(np.asarray(host, order=layout)), dt, order)

    B, Cd = desc(bstore), desc(c0)
    h = rs.create_handle()
    size = rs.spmm(h, q["trans_a"], q["trans_b"], scalar(p, 0.5j + 1), mat, B, q["beta"], Cd, dt, 0,
                   rs.SpMMStage.buffer_size)
    tmp = rm.empty(max(1, size), np.uint8)
    rs.spmm(h, q["trans_a"], q["trans_b"], scalar(p, 0.5j + 1), mat, B, q["beta"], Cd, dt, 0, rs.SpMMStage.preprocess,
            None, tmp)
    rs.spmm(h, q["trans_a"], q["trans_b"], scalar(p, 0.5j + 1), mat, B, q["beta"], Cd, dt, 0, rs.SpMMStage.compute,
            None, tmp)
    expected = scalar(p, 0.5j + 1) * (opa @ b) + q["beta"] * c0
    scale = product_scale(p, scalar(p, 0.5j + 1), opa, b, q["beta"], c0)
    assert_close(Cd.values.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, m, kk), scale=scale)


@settings(max_examples=examples(25))
@given(st.sampled_from([0, 1, 5, 50]), st.sampled_from([0, 1, 6, 40]), st.sampled_from([0.0, 0.1, 0.6]),
       st.sampled_from([0, 1]), st.sampled_from([np.int32, np.int64]), st.sampled_from(SDCZ), st.integers(0, 999))
def test_conversions_roundtrip(m, n, density, base, it, p, seed):
    rng = np.random.default_rng(seed)
    a = random_csr(rng, m, n, density, p.dtype)
    h = rs.create_handle()
    ptr = rm.to_device((a.indptr + base).astype(it))
    coo_row = rm.empty(a.nnz, it)
    rs.csr2coo(h, ptr, a.nnz, m, coo_row, base)
    assert np.array_equal(coo_row.get(), a.tocoo().row + base)
    back = rm.empty(m + 1, it)
    rs.coo2csr(h, coo_row, a.nnz, m, back, base)
    assert np.array_equal(back.get(), a.indptr + base)
    assert rs.csr2csc_buffer_size(h, m, n, a.nnz, ptr, rm.to_device((a.indices + base).astype(it)), 1) >= 0
    cval, crow, cptr = rm.empty(a.nnz, p.dtype), rm.empty(a.nnz, it), rm.empty(n + 1, it)
    tmp = rm.empty(max(1, 4 * (n + 1)), np.uint8)
    getattr(rs, f"{p.letter}csr2csc")(h, m, n, a.nnz, rm.to_device(a.data), ptr,
                                      rm.to_device((a.indices + base).astype(it)), cval, crow, cptr,
                                      rs.Action.numeric, base, tmp)
    ref = a.tocsc()
    ref.sort_indices()
    assert np.array_equal(cptr.get(), ref.indptr + base)
    if a.nnz and m and n:
        assert np.array_equal(crow.get(), ref.indices + base)
        assert np.array_equal(cval.get(), ref.data)
    perm = rm.empty(a.nnz, np.int32)
    rs.create_identity_permutation(h, a.nnz, perm)
    assert np.array_equal(perm.get(), np.arange(a.nnz))


@pytest.mark.parametrize("layout", ["banded", "scattered"])
@pytest.mark.parametrize("base", [0, 1])
@pytest.mark.parametrize("it", [np.int32, np.int64])
def test_csr2csc_past_the_bucketed_column_count_matches_scipy(layout, base, it):
    # More columns than BUCKETED_KEYS: row chunks in parallel; through column buckets when the
    # entries lie far from the diagonal (whose sampling must not be fooled by empty rows) and take
    # more than BUCKETED_BYTES (the kernel's last argument: 0 below sends this small matrix there).
    from rocmath.sparse import _kernels as k

    rng = np.random.default_rng(7)
    m, n = 3000, k.BUCKETED_KEYS + 4321
    lengths = rng.integers(0, 40, m) * (rng.random(m) < 0.8)
    rows = np.repeat(np.arange(m), lengths)
    cols = (rows * (n // m) + rng.integers(-300, 300, rows.size) if layout == "banded"
            else rng.integers(0, n, rows.size)) % n
    a = sp.csr_matrix((rng.standard_normal(rows.size), (rows, cols)), shape=(m, n))
    a.sum_duplicates()
    assert k._scattered(a.indptr, a.indices, 0, n, 1 << k.BUCKET_SHIFT) == (layout == "scattered")
    h = rs.create_handle()
    ptr, ind = rm.to_device((a.indptr + base).astype(it)), rm.to_device((a.indices + base).astype(it))
    ref = a.tocsc()
    for action in (rs.Action.numeric, rs.Action.symbolic):
        cval = rm.to_device(np.full(a.nnz, 7.0))
        crow, cptr = rm.empty(a.nnz, it), rm.empty(n + 1, it)
        rs.dcsr2csc(h, m, n, a.nnz, rm.to_device(a.data), ptr, ind, cval, crow, cptr, action, base,
                    rm.empty(max(1, rs.csr2csc_buffer_size(h, m, n, a.nnz, ptr, ind, action)), np.uint8))
        assert np.array_equal(cptr.get(), ref.indptr + base) and np.array_equal(crow.get(), ref.indices + base)
        want = ref.data if action == rs.Action.numeric else np.full(a.nnz, 7.0)  # symbolic: values untouched
        assert np.array_equal(cval.get(), want)
    # The kernel itself, every entry past the byte threshold: values, no values, a block format's
    # rows of words (gebsr2gebsc), each moved whole.
    rp, ci = (a.indptr + base).astype(it), (a.indices + base).astype(it)
    source = sp.csr_matrix((np.arange(a.nnz, dtype=float), a.indices, a.indptr), shape=(m, n)).tocsc().data
    source = source.astype(np.int64)
    words = np.arange(3 * a.nnz, dtype=np.uint32).reshape(a.nnz, 3)
    for values in (a.data, None, words):
        out = np.zeros_like(values) if values is not None else np.zeros(0)
        t_ind, t_ptr = np.empty(a.nnz, it), np.empty(n + 1, it)
        k.csr_transpose(values is not None, values if values is not None else np.zeros(0), rp, ci, base, out, t_ind,
                        t_ptr, 0)
        assert np.array_equal(t_ptr, ref.indptr + base) and np.array_equal(t_ind, ref.indices + base)
        if values is not None:
            assert np.array_equal(out, values[source])


def test_conversion_check_order():
    h = rs.create_handle()
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.csr2coo(h, None, -1, 2, None, 3)
    assert err.value.index == 6
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.coo2csr(h, None, 2, 2, None, 0)
    assert err.value.index == 2
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsr2csc(h, 2, 2, 1, rm.zeros(1), rm.zeros(3, np.int32), rm.zeros(1, np.int32), rm.zeros(1),
                    rm.zeros(1, np.int32), rm.zeros(3, np.int32), 1, 0, None)
    assert err.value.index == 13


# --- the Pythonic layer ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_matrix_classes(p):
    rng = np.random.default_rng(5)
    a = random_csr(rng, 30, 20, 0.2, p.dtype)
    x = rng.standard_normal(20).astype(p.dtype)
    X = rng.standard_normal((20, 8)).astype(p.dtype)
    d = rs.csr_matrix(a)
    assert rs.issparse(d) and d.shape == (30, 20) and d.nnz == a.nnz and "CSR" in repr(d)
    assert abs(d.get() - a).max() == 0
    for mat in (d, d.tocsc(), rs.csc_matrix(a), rs.coo_matrix(a), d.tocoo()):
        assert_close((mat @ rm.to_device(x)).get(), (a @ x).astype(p.dtype), p, "reduction", 20)
    assert_close((d @ rm.to_device(X)).get(), (a @ X).astype(p.dtype), p, "reduction", 20)
    assert_close((d.tocsc() @ rm.to_device(X)).get(), (a @ X).astype(p.dtype), p, "reduction", 20)
    y = rng.standard_normal(30).astype(p.dtype)
    assert_close((d.T @ rm.to_device(y)).get(), (a.T @ y).astype(p.dtype), p, "reduction", 30)
    assert_close((rs.coo_matrix(a).T @ rm.to_device(y)).get(), (a.T @ y).astype(p.dtype), p, "reduction", 30)
    assert abs(d.tocsc().tocsr().get() - a).max() == 0
    assert abs(d.tocoo().get() - a).max() == 0
    with pytest.raises(ValueError):
        d @ rm.to_device(np.ones(7, p.dtype))
    with pytest.raises(TypeError):
        d @ np.ones(20)
    for shape in ((5, 3), (0, 3), (5, 0)):  # no entries: zeros, whatever y's memory held
        empty = rs.csr_matrix(sp.csr_matrix(shape, dtype=p.dtype))
        out = empty @ rm.to_device(np.ones(shape[1], p.dtype))
        assert out.shape == (shape[0],) and not np.any(out.get())


def test_aslinearoperator_runs_scipy_solvers_on_the_device():
    k = 30
    e = np.ones(k)
    t = sp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1])
    lap = (sp.kron(sp.identity(k), t) + sp.kron(t, sp.identity(k))).tocsr()
    b = np.random.default_rng(0).standard_normal(k * k)
    op = rs.aslinearoperator(rs.csr_matrix(lap))
    x, info = cg(op, b, rtol=1e-10, maxiter=2000)
    assert info == 0 and np.linalg.norm(lap @ x - b) <= 1e-8 * np.linalg.norm(b)
    nonsym = (lap + sp.diags([0.3 * np.ones(k * k - 1)], [1], shape=lap.shape)).tocsr()
    x, info = gmres(rs.aslinearoperator(nonsym), b, rtol=1e-10, restart=200, maxiter=50)
    assert info == 0 and np.linalg.norm(nonsym @ x - b) <= 1e-7 * np.linalg.norm(b)
    assert np.allclose(op.rmatvec(b), lap.T @ b)


def test_linear_operator_matvecs_replay_one_product_and_return_fresh_arrays(monkeypatch):
    # Each thread's matvecs go through the same device vectors (so the product is replayed); the
    # host arrays they return are the caller's to keep.
    from rocmath.plans import Plan

    runs = []
    run = Plan.run
    monkeypatch.setattr(Plan, "run", lambda self, args: runs.append(None) or run(self, args))
    rng = np.random.default_rng(8)
    a = random_csr(rng, 50, 40, 0.1, np.float64)
    op = rs.aslinearoperator(a)
    vs = [rng.standard_normal(40) for _ in range(4)]
    outs = [op.matvec(v) for v in vs]
    for v, out in zip(vs, outs, strict=True):
        np.testing.assert_allclose(out, a @ v, rtol=1e-13, atol=1e-15)
    assert len(runs) == 2  # seen, planned, replayed, replayed
    with pytest.raises(ValueError):  # a vector of the wrong length: scipy's own check
        op.matvec(np.ones(41))
