"""rocmath.sparse generic routines -- spvec descriptors, axpby, gather, scatter, rot, spvv, spgemm, spsv, spsm,
sddmm, sparse_to_dense, dense_to_sparse -- against numpy / scipy.sparse, on Matrix Market test matrices
written and read back by rocmath.testing.matrices.

Compile budget: each precision runs with one index type (pair), so every precision and every index type
rocSPARSE instantiates are covered while each kernel compiles a few signatures only.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded, product_scale, scalar

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import C, D, Precision, S, Z
from rocmath.testing import (
    RESIDUAL_THRESHOLD,
    assert_close,
    backward_error,
    examples,
    matrices,
    scale_of,
    sentinel_value,
)

#: (precision, (pointer / row index type, column index type)): one pair per precision.
CASES = [(S, (np.int32, np.int32)), (D, (np.int64, np.int32)), (C, (np.int64, np.int64)), (Z, (np.int32, np.int32))]
#: Sparse vectors and COO have one index type: the pair's first.
OPS = {rs.Operation.none: lambda a: a, rs.Operation.transpose: lambda a: a.T,
       rs.Operation.conjugate_transpose: lambda a: a.conj().T}


def values(rng: np.random.Generator, shape, p: Precision) -> np.ndarray:
    v = rng.standard_normal(shape)
    if p.is_complex:
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(p.dtype)


def random_sparse(rng: np.random.Generator, m: int, n: int, density: float, p: Precision) -> sp.csr_matrix:
    a = sp.random(m, n, density=density, format="csr", random_state=rng)
    a.data = values(rng, a.nnz, p)
    a = sp.csr_matrix(a, dtype=p.dtype)
    a.sort_indices()
    return a


def dt(p: Precision) -> rs.Datatype:
    return rs.Datatype.of(p.dtype)


def sparse_descr(a, fmt: str, base: int, itypes, p: Precision):
    """A device CSR / CSC / COO descriptor of the scipy matrix ``a`` and its device arrays (ptr-or-rows, ind, val)."""
    it, jt = itypes
    m, n = a.shape
    if fmt == "coo":
        c = sp.coo_matrix(sp.csr_matrix(a))  # row-major order: sorted by row, then column
        arrays = (rm.to_device((c.row + base).astype(it)), rm.to_device((c.col + base).astype(it)),
                  rm.to_device(c.data.astype(p.dtype)))
        return rs.create_coo_descr(m, n, c.nnz, *arrays, rs.IndexType.of(it), base, dt(p)), arrays
    s = sp.csc_matrix(a) if fmt == "csc" else sp.csr_matrix(a)
    s.sort_indices()
    arrays = (rm.to_device((s.indptr + base).astype(it)), rm.to_device((s.indices + base).astype(jt)),
              rm.to_device(s.data.astype(p.dtype)))
    create = rs.create_csc_descr if fmt == "csc" else rs.create_csr_descr
    return create(m, n, s.nnz, *arrays, rs.IndexType.of(it), rs.IndexType.of(jt), base, dt(p)), arrays


def dense_descr(host: np.ndarray, order: rs.Order, pad: int, p: Precision):
    """A device dense descriptor of ``host`` whose leading dimension has ``pad`` sentinel elements of padding;
    returns (descr, device array, storage as laid out)."""
    r, c = host.shape
    column = order is rs.Order.column
    ld = max(1, r if column else c) + pad
    store = np.full((c if column else r, ld), sentinel_value(p.dtype), p.dtype)
    if column:
        store[:, :r] = host.T
    else:
        store[:, :c] = host
    d = rm.to_device(store.reshape(-1))
    return rs.create_dnmat_descr(r, c, ld, d, dt(p), order), d, store


def dense_get(d: rm.DeviceArray, store: np.ndarray, shape, order: rs.Order) -> np.ndarray:
    """The matrix in a device dense matrix made by :func:`dense_descr`, after checking its padding is untouched."""
    r, c = shape
    got = d.get().reshape(store.shape) if store.size else store
    inner = r if order is rs.Order.column else c
    assert np.array_equal(got[:, inner:].view(np.uint8), store[:, inner:].view(np.uint8)), "padding was written"
    return got[:, :r].T if order is rs.Order.column else got[:, :c]


@pytest.fixture(scope="module")
def mtx(tmp_path_factory):
    """The rocmath.testing.matrices collection, written as .mtx files and read back."""
    directory = tmp_path_factory.mktemp("mtx")
    matrices.write_collection(directory)
    return matrices.load_collection(directory)


# --- the Matrix Market generator ---------------------------------------------------------------------


def test_matrix_market_collection(tmp_path):
    paths = matrices.write_collection(tmp_path)
    assert sorted(paths) == sorted(matrices.COLLECTION)
    loaded = matrices.load_collection(tmp_path)
    for name, make in matrices.COLLECTION.items():
        a, b = make(), loaded[name]
        assert paths[name].read_text().startswith("%%MatrixMarket matrix coordinate")
        # Exact round trip: structure, values (shortest round-trip decimal) and dtype.
        assert b.dtype == a.dtype and b.shape == a.shape and b.has_sorted_indices
        assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
        assert np.array_equal(a.data, b.data)
        assert make().nnz == a.nnz and np.array_equal(make().data, a.data)  # deterministic
    lap2 = matrices.laplacian_2d(4, 3)
    assert lap2.shape == (12, 12) and abs(lap2 - lap2.T).max() == 0 and lap2.diagonal().tolist() == [4.0] * 12
    assert np.linalg.eigvalsh(lap2.toarray()).min() > 0
    lap3 = matrices.laplacian_3d(3)
    assert lap3.shape == (27, 27) and lap3[13, 13] == 6 and lap3[13].nnz == 7  # the centre has 6 neighbours
    band = matrices.banded(30, 2, 3, seed=4, dtype=np.complex64)
    rows, cols = band.nonzero()
    assert band.dtype == np.complex64 and (cols - rows).min() == -2 and (cols - rows).max() == 3
    off = abs(band - sp.diags(band.diagonal())).sum(axis=1).A.ravel()
    assert np.all(abs(band.diagonal()) > off)  # diagonally dominant
    assert not np.array_equal(matrices.banded(30, 2, 3, seed=5).data, matrices.banded(30, 2, 3, seed=4).data)
    g = matrices.power_law_graph(500, avg_degree=4.0, seed=1)
    degrees = np.diff(g.indptr)
    assert degrees.max() > 8 * degrees.mean() and (degrees == 0).sum() > 50  # hubs and empty rows
    assert matrices.power_law_graph(0).shape == (0, 0)
    single = matrices.read_mtx(matrices.write_mtx(tmp_path / "single", lap2), dtype=np.float32)
    assert single.dtype == np.float32 and (single != lap2).nnz == 0


# --- sparse vectors ------------------------------------------------------------------------------------


def test_spvec_descriptor():
    ind, val = rm.to_device(np.array([1, 4], np.int64)), rm.to_device(np.array([1.0, 2.0]))
    x = rs.create_spvec_descr(6, 2, ind, val, rs.IndexType.i64, 1, rs.Datatype.f64_r)
    assert rs.spvec_get(x) == (6, 2, ind, val, rs.IndexType.i64, rs.IndexBase.one, rs.Datatype.f64_r)
    assert rs.spvec_get_index_base(x) is rs.IndexBase.one and rs.spvec_get_values(x) is val
    other = rm.zeros(2)
    rs.spvec_set_values(x, other)
    assert rs.spvec_get_values(x) is other
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.spvec_set_values(x, None)
    assert (e.value.arg, e.value.index) == ("values", 2)
    rs.destroy_spvec_descr(x)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.spvec_get(x)
    empty = rs.create_spvec_descr(0, 0, None, None, rs.IndexType.i32, 0, rs.Datatype.f32_c)
    assert rs.spvec_get(empty)[:2] == (0, 0)


@pytest.mark.parametrize(("args", "status", "index"), [
    ((-1, 0, None, None, 2, 0, 152), rs.Status.invalid_size, 2),
    ((3, -2, None, None, 2, 0, 152), rs.Status.invalid_size, 3),
    ((3, 4, None, None, 2, 0, 152), rs.Status.invalid_size, 3),
    ((3, 1, None, None, 2, 0, 152), rs.Status.invalid_pointer, 4),
    ((3, 1, 1 << 60, None, 2, 0, 152), rs.Status.invalid_pointer, 5),
    ((3, 0, None, None, 9, 0, 152), rs.Status.invalid_value, 6),
    ((3, 0, None, None, 2, 2, 152), rs.Status.invalid_value, 7),
    ((3, 0, None, None, 2, 0, 150), rs.Status.invalid_value, 8),
])
def test_spvec_descriptor_checks(args, status, index):
    with pytest.raises(rs.SparseError) as e:
        rs.create_spvec_descr(*args)
    assert (e.value.status, e.value.index) == (status, index)


@settings(max_examples=examples(30))
@given(case=st.sampled_from(CASES), n=st.sampled_from([0, 1, 9, 40]), frac=st.sampled_from([0.0, 0.4, 1.0]),
       base=st.sampled_from([0, 1]), device=st.booleans(), seed=st.integers(0, 2**16))
def test_sparse_vector_routines_match_numpy(case, n, frac, base, device, seed):
    p, (it, _) = case
    rng = np.random.default_rng(seed)
    nnz = int(n * frac)
    ind = np.sort(rng.choice(n, nnz, replace=False))  # distinct indices
    xv, y0 = values(rng, nnz, p), values(rng, n, p)
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device if device else rs.PointerMode.host)
    keep = []

    def s(v):
        v = p.dtype.type(scalar(p, v))
        if device:
            keep.append(rm.to_device(np.array([v], p.dtype)))
            return keep[-1]
        return v

    def vectors(x_host, y_host):
        xfull, xd = padded(x_host)
        yfull, yd = padded(y_host)
        x = rs.create_spvec_descr(n, nnz, rm.to_device((ind + base).astype(it)), xd, rs.IndexType.of(it), base,
                                  dt(p))
        return x, rs.create_dnvec_descr(n, yd, dt(p)), (xfull, xd), (yfull, yd)

    def done(*pairs):
        for full, view in pairs:
            margins_untouched(full, view.size)
        return [view.get() for _, view in pairs]

    alpha, beta = 1.5 - 0.5j, 0.25 + 1j
    x, y, xs, ys = vectors(xv, y0)
    rs.axpby(h, s(alpha), x, s(beta), y)
    ref = scalar(p, beta) * y0
    ref[ind] += scalar(p, alpha) * xv
    got_x, got_y = done(xs, ys)
    assert np.array_equal(got_x, xv)
    # beta y + alpha x may cancel: the error is relative to the terms, not to the (small) sum.
    added = np.zeros_like(y0)
    added[ind] = scalar(p, alpha) * xv
    assert_close(got_y, ref, p, "elementwise", scale=scale_of(p, scalar(p, beta) * y0, added))

    x, y, xs, ys = vectors(np.zeros(nnz, p.dtype), y0)
    rs.gather(h, y, x)
    got_x, got_y = done(xs, ys)
    assert np.array_equal(got_x, y0[ind]) and np.array_equal(got_y, y0)

    x, y, xs, ys = vectors(xv, y0)
    rs.scatter(h, x, y)
    ref = y0.copy()
    ref[ind] = xv
    assert np.array_equal(done(xs, ys)[1], ref)

    x, y, xs, ys = vectors(xv, y0)
    cs, sn = scalar(p, 0.6 + 0.1j), scalar(p, 0.8 - 0.3j)
    rs.rot(h, s(cs), s(sn), x, y)
    ref = y0.copy()
    ref[ind] = cs * y0[ind] - sn * xv
    got_x, got_y = done(xs, ys)
    assert_close(got_x, cs * xv + sn * y0[ind], p, "elementwise", scale=scale_of(p, cs * xv, sn * y0[ind]))
    assert_close(got_y, ref, p, "elementwise", scale=scale_of(p, cs * y0[ind], sn * xv))

    x, y, _, _ = vectors(xv, y0)
    size = np.zeros(1, np.int64)
    assert rs.spvv(h, rs.Operation.none, x, y, np.zeros(1), dt(p), size) == 4 and size[0] == 4
    tmp = rm.empty(4, np.uint8)
    for op in (rs.Operation.none, rs.Operation.conjugate_transpose):
        expect = np.sum((np.conj(xv) if op is rs.Operation.conjugate_transpose and p.is_complex else xv) * y0[ind])
        if device:
            res = rm.to_device(np.full(1, np.nan, p.dtype))
            assert rs.spvv(h, op, x, y, res, dt(p), None, tmp) is None
            got = res.get()[0]
        else:
            out = np.full(1, np.nan, p.dtype)
            got = rs.spvv(h, op, x, y, out, dt(p), None, tmp)
            assert out[0] == got
        assert_close(np.array([got]), np.array([expect], p.dtype), p, "reduction", max(1, nnz),
                     scale=max(1.0, float(np.sum(np.abs(xv * y0[ind])))))


def test_sparse_vector_int8_and_statuses():
    h = rs.create_handle()
    ind = rm.to_device(np.array([0, 3, 5], np.int32))
    x8 = rs.create_spvec_descr(6, 3, ind, rm.to_device(np.array([-7, 100, 3], np.int8)), rs.IndexType.i32, 0,
                               rs.Datatype.i8_r)
    yv = rm.to_device(np.arange(6, dtype=np.int8) * 11)
    y8 = rs.create_dnvec_descr(6, yv, rs.Datatype.i8_r)
    tmp = rm.empty(4, np.uint8)
    # int8 vectors, products summed exactly in int32 or float32: -7*0 + 100*33 + 3*55.
    assert rs.spvv(h, "N", x8, y8, np.zeros(1), rs.Datatype.i32_r, None, tmp) == 3465
    rs.scatter(h, x8, y8)
    assert yv.get().tolist() == [-7, 11, 22, 100, 44, 3]
    yv.set(np.arange(6, dtype=np.int8) - 3)
    rs.gather(h, y8, x8)
    assert rs.spvec_get_values(x8).get().tolist() == [-3, 0, 2]
    with pytest.raises(rs.SparseNotImplementedError) as e:
        rs.axpby(h, 1, x8, 1, y8)  # int8 is for gather, scatter and spvv only
    assert (e.value.arg, e.value.index) == ("x", 3)

    xd = rs.create_spvec_descr(6, 3, ind, rm.zeros(3), rs.IndexType.i32, 0, rs.Datatype.f64_r)
    yd = rs.create_dnvec_descr(6, rm.zeros(6), rs.Datatype.f64_r)
    yc = rs.create_dnvec_descr(6, rm.zeros(6, np.complex128), rs.Datatype.f64_c)
    xc = rs.create_spvec_descr(6, 3, ind, rm.zeros(3, np.complex128), rs.IndexType.i32, 0, rs.Datatype.f64_c)
    xu = rs.create_spvec_descr(6, 3, ind, rm.zeros(3), rs.IndexType.u16, 0, rs.Datatype.f64_r)
    cases = [
        (lambda: rs.axpby(None, 1.0, xd, 1.0, yd), rs.Status.invalid_handle, "handle", 1),
        (lambda: rs.axpby(h, None, xd, 1.0, yd), rs.Status.invalid_pointer, "alpha", 2),
        (lambda: rs.axpby(h, 1.0, yd, None, yd), rs.Status.invalid_pointer, "x", 3),
        (lambda: rs.axpby(h, 1.0, xd, None, yd), rs.Status.invalid_pointer, "beta", 4),
        (lambda: rs.axpby(h, 1.0, xd, 1.0, yc), rs.Status.not_implemented, "y", 5),
        (lambda: rs.axpby(h, 1.0, xu, 1.0, yd), rs.Status.not_implemented, "x", 3),
        (lambda: rs.gather(h, xd, xd), rs.Status.invalid_pointer, "y", 2),
        (lambda: rs.gather(h, yc, xd), rs.Status.not_implemented, "x", 3),
        (lambda: rs.scatter(h, xd, None), rs.Status.invalid_pointer, "y", 3),
        (lambda: rs.scatter(h, xd, yc), rs.Status.not_implemented, "y", 3),
        (lambda: rs.rot(h, 1.0, None, xd, yd), rs.Status.invalid_pointer, "s", 3),
        (lambda: rs.rot(h, 1.0, 0.0, xc, yd), rs.Status.not_implemented, "y", 5),
        (lambda: rs.spvv(h, 114, xd, yd, None, 152), rs.Status.invalid_value, "trans", 2),
        (lambda: rs.spvv(h, "N", None, yd, None, 153), rs.Status.invalid_value, "compute_type", 6),
        (lambda: rs.spvv(h, "N", None, yd, None, 152), rs.Status.invalid_pointer, "x", 3),
        (lambda: rs.spvv(h, "N", xd, yd, None, 152), rs.Status.invalid_pointer, "result", 5),
        (lambda: rs.spvv(h, "N", xd, yd, np.zeros(1), 152), rs.Status.invalid_pointer, "buffer_size", 7),
        (lambda: rs.spvv(h, "N", xd, yd, np.zeros(1), 151, None, tmp), rs.Status.not_implemented, "compute_type", 6),
        (lambda: rs.spvv(h, "T", xc, yc, np.zeros(1), 155, None, tmp), rs.Status.not_implemented, "trans", 2),
    ]
    for call, status, arg, index in cases:
        with pytest.raises(rs.SparseError) as e:
            call()
        assert (e.value.status, e.value.arg, e.value.index) == (status, arg, index), (arg, e.value)
    # Quick returns: an empty y does nothing; host c == 1, s == 0 does nothing; nnz == 0 gives a zero dot.
    rs.axpby(h, 1.0, xd, 1.0, rs.create_dnvec_descr(0, None, rs.Datatype.f64_r))
    e0 = rs.create_spvec_descr(6, 0, None, None, rs.IndexType.i64, 0, rs.Datatype.f64_r)
    assert rs.spvv(h, "N", e0, yd, np.ones(1), rs.Datatype.f64_r, None, tmp) == 0


# --- spgemm ----------------------------------------------------------------------------------------------


@st.composite
def spgemm_problems(draw):
    alpha = draw(st.sampled_from([None, 1.0, -0.5 + 2j]))
    beta = draw(st.sampled_from([0.0, 1.5j - 1] if alpha is None else [None, 0.0, 1.5j - 1]))
    return dict(case=draw(st.sampled_from(CASES)), m=draw(st.sampled_from([0, 1, 5, 17])),
                n=draw(st.sampled_from([0, 1, 4, 23])), k=draw(st.sampled_from([0, 1, 9, 30])),
                density=draw(st.sampled_from([0.0, 0.1, 0.4, 1.0])), alpha=alpha, beta=beta,
                bases=draw(st.tuples(*[st.sampled_from([0, 1])] * 4)), device=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


def structure_of(*terms) -> sp.csr_matrix:
    """The union of the terms' structures (explicit zeros from cancellation stay, as in rocSPARSE)."""
    s = sum(abs(t).astype(bool).astype(np.float64) for t in terms)
    s = sp.csr_matrix(s)
    s.eliminate_zeros()
    s.sort_indices()
    return s


def run_spgemm(h, p, A, B, D, alpha, beta, m, n, c_base, itypes):
    """buffer_size -> nnz -> compute, then symbolic -> numeric into fresh arrays; returns both results as
    (row pointer, columns, values) host arrays and the C descriptor."""
    it, jt = itypes
    ptr_full, ptr = padded(np.zeros(m + 1, it))
    Cd = rs.create_csr_descr(m, n, 0, ptr, None, None, rs.IndexType.of(it), rs.IndexType.of(jt), c_base, dt(p))
    args = (h, "N", "N", alpha, A, B, beta, D, Cd, dt(p), rs.SpGEMMAlg.default)
    size = np.zeros(1, np.int64)
    assert rs.spgemm(*args, rs.SpGEMMStage.buffer_size, size) == size[0]
    tmp = rm.empty(max(1, int(size[0])), np.uint8)
    rs.spgemm(*args, rs.SpGEMMStage.nnz, None, tmp)
    nnz = rs.spmat_get_size(Cd)[2]
    results = []
    for stages in ((rs.SpGEMMStage.compute,), (rs.SpGEMMStage.symbolic, rs.SpGEMMStage.numeric)):
        (ind_full, ind), (val_full, val) = padded(np.full(nnz, -5, jt)), padded(np.full(nnz, np.nan, p.dtype))
        rs.csr_set_pointers(Cd, ptr, ind, val)
        for stage in stages:
            rs.spgemm(*args, stage, None, tmp)
        for full, view in ((ptr_full, ptr), (ind_full, ind), (val_full, val)):
            margins_untouched(full, view.size)
        results.append((ptr.get(), ind.get(), val.get()))
    return results


@settings(max_examples=examples(40))
@given(spgemm_problems())
def test_spgemm_matches_scipy(q):
    p, itypes = q["case"]
    m, n, kd = q["m"], q["n"], q["k"]
    rng = np.random.default_rng(q["seed"])
    a, b, d = (random_sparse(rng, m, kd, q["density"], p), random_sparse(rng, kd, n, q["density"], p),
               random_sparse(rng, m, n, q["density"] / 2, p))
    ba, bb, bd, bc = q["bases"]
    (A, _), (B, _), (D, _) = (sparse_descr(a, "csr", ba, itypes, p), sparse_descr(b, "csr", bb, itypes, p),
                              sparse_descr(d, "csr", bd, itypes, p))
    h = rs.create_handle()
    keep = []

    def arg(v):
        if v is None:
            return None
        if q["device"]:
            keep.append(rm.to_device(np.array([scalar(p, v)], p.dtype)))
            return keep[-1]
        return scalar(p, v)

    if q["device"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
    (ptr, ind, val), (_, ind2, val2) = run_spgemm(h, p, A, B, D, arg(q["alpha"]), arg(q["beta"]), m, n, bc,
                                                     itypes)
    expected = sp.csr_matrix((m, n), dtype=p.dtype)
    terms = []
    if q["alpha"] is not None and kd:
        expected = expected + scalar(p, q["alpha"]) * (a @ b)
        terms.append(abs(a).astype(bool).astype(float) @ abs(b).astype(bool).astype(float))
    if q["beta"] is not None:
        expected = expected + scalar(p, q["beta"]) * d
        terms.append(d)
    struct = structure_of(sp.csr_matrix((m, n)), *terms)
    assert np.array_equal(ptr - bc, struct.indptr) and np.array_equal(ind - bc, struct.indices)
    got = sp.csr_matrix((val, ind - bc, ptr - bc), shape=(m, n))
    scale = product_scale(p, scalar(p, q["alpha"]), a, b, scalar(p, q["beta"]), d)
    assert_close(got.toarray(), np.asarray(expected.toarray(), p.dtype), p, "reduction", max(1, kd), scale=scale)
    # symbolic + numeric: the same structure and bitwise the same values (NaN-free: both are finite).
    assert np.array_equal(ind2, ind) and np.array_equal(val2.view(np.uint8), val.view(np.uint8))


def test_spgemm_on_matrix_market_matrices(mtx):
    h = rs.create_handle()
    for name_a, name_b, name_d in (("laplace2d_8", "laplace2d_8", "powerlaw_150_complex"),
                                   ("powerlaw_200", "powerlaw_200", "powerlaw_200"),
                                   ("laplace3d_5", "laplace3d_5", "laplace3d_5")):
        a, b = mtx[name_a].astype(np.complex128), mtx[name_b].astype(np.complex128)
        d = sp.csr_matrix(mtx[name_d][: a.shape[0], : b.shape[1]], dtype=np.complex128)
        descrs = [sparse_descr(x, "csr", 1, (np.int32, np.int32), Z)[0] for x in (a, b, d)]
        (ptr, ind, val), (_, _, val2) = run_spgemm(h, Z, *descrs, 0.5 - 1j, 2.0, a.shape[0], b.shape[1], 0,
                                                   (np.int32, np.int32))
        got = sp.csr_matrix((val, ind, ptr), shape=(a.shape[0], b.shape[1]))
        assert_close(got.toarray(), ((0.5 - 1j) * (a @ b) + 2 * d).toarray(), Z, "reduction", 8)
        assert np.array_equal(val, val2)


def _spgemm_parts():
    a = sp.identity(4, format="csr")
    mk = lambda: sparse_descr(a, "csr", 0, (np.int32, np.int32), D)[0]  # noqa: E731
    return mk(), mk(), mk(), rs.create_csr_descr(4, 4, 0, rm.zeros(5, np.int32), None, None, 2, 2, 0, 152)


def test_spgemm_statuses():
    h = rs.create_handle()
    A, B, Dm, Cm = _spgemm_parts()
    coo = rs.create_coo_descr(4, 4, 0, None, None, None, 2, 0, 152)
    i64 = rs.create_csr_descr(4, 4, 0, rm.zeros(5, np.int64), None, None, 3, 3, 0, 152)
    f32 = rs.create_csr_descr(4, 4, 0, rm.zeros(5, np.int32), None, None, 2, 2, 0, 151)
    wide = rs.create_csr_descr(4, 6, 0, rm.zeros(5, np.int32), None, None, 2, 2, 0, 152)
    gen = rs.MatrixType.symmetric
    bs = rs.SpGEMMStage.buffer_size

    def call(trans_a="N", alpha=1.0, a=A, b=B, beta=None, d=Dm, c=Cm, ct=152, alg=0, stage=bs, tmp=None):
        return rs.spgemm(h, trans_a, "N", alpha, a, b, beta, d, c, ct, alg, stage, None, tmp)

    cases = [
        (lambda: call(trans_a=7), rs.Status.invalid_value, "trans_A", 2),
        (lambda: call(a=None), rs.Status.invalid_pointer, "A", 5),
        (lambda: call(d=None), rs.Status.invalid_pointer, "D", 8),
        (lambda: call(ct=99), rs.Status.invalid_value, "compute_type", 10),
        (lambda: call(alg=1), rs.Status.invalid_value, "alg", 11),
        (lambda: call(stage=0), rs.Status.invalid_value, "stage", 12),
        (lambda: call(b=coo), rs.Status.not_implemented, "B", 6),
        (lambda: call(c=f32), rs.Status.not_implemented, "C", 9),
        (lambda: call(d=i64), rs.Status.type_mismatch, "D", 8),
        (lambda: call(alpha=None), rs.Status.invalid_pointer, "alpha", 4),
        (lambda: call(trans_a="T"), rs.Status.not_implemented, "trans_A", 2),
        (lambda: call(c=wide), rs.Status.invalid_size, "C", 9),
        (lambda: call(stage=rs.SpGEMMStage.nnz, c=_spgemm_parts()[3]), rs.Status.invalid_pointer, "C", 9),
    ]
    for fn, status, arg, index in cases:
        with pytest.raises(rs.SparseError) as e:
            fn()
        assert (e.value.status, e.value.arg, e.value.index) == (status, arg, index), (arg, e.value)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.matrix_type, gen)
    with pytest.raises(rs.SparseNotImplementedError) as e:
        call()
    assert e.value.arg == "A"
    # Only beta: the product takes no part, nor does A's type; C := beta D.
    size = call(alpha=None, beta=2.0)
    call(alpha=None, beta=2.0, stage=rs.SpGEMMStage.nnz, tmp=rm.empty(size, np.uint8))
    assert rs.spmat_get_size(Cm)[2] == 4
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        call(alpha=None, beta=2.0, stage=rs.SpGEMMStage.compute)  # C has no columns nor values yet
    assert e.value.arg == "C"


# --- spsv / spsm -----------------------------------------------------------------------------------------


TRIANGLE_SOURCES = ("laplace2d_5x11", "banded_60_3_2", "banded_40_0_4_complex", "powerlaw_150_complex", "one",
                    "empty")


def triangle_source(mtx, name: str, p: Precision) -> sp.csr_matrix:
    """A square test matrix made diagonally dominant (well-conditioned triangles)."""
    if name in ("one", "empty"):
        return sp.csr_matrix(np.full((1, 1), 2.0) if name == "one" else np.zeros((0, 0)), dtype=p.dtype)
    a = mtx[name]
    a = a if p.is_complex else a.real
    a = sp.csr_matrix(a + sp.diags(np.asarray(abs(a).sum(axis=1)).ravel() + 1.0), dtype=p.dtype)
    a.sort_indices()
    return a


@st.composite
def triangular_problems(draw):
    return dict(case=draw(st.sampled_from(CASES)), name=draw(st.sampled_from(TRIANGLE_SOURCES)),
                fmt=draw(st.sampled_from(["csr", "coo"])), trans=draw(st.sampled_from(list(rs.Operation))),
                fill=draw(st.sampled_from(list(rs.FillMode))), unit=draw(st.booleans()),
                base=draw(st.sampled_from([0, 1])), alpha=draw(st.sampled_from([1.0, -2.5 + 0.5j])),
                device=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


def triangle(a: sp.csr_matrix, fill: rs.FillMode, unit: bool) -> np.ndarray:
    t = (sp.triu(a) if fill is rs.FillMode.upper else sp.tril(a)).toarray()
    if unit:
        np.fill_diagonal(t, 1)
    return t


def prepare_triangle(mtx, q):
    p, itypes = q["case"]
    a = triangle_source(mtx, q["name"], p)
    A, _ = sparse_descr(a, q["fmt"], q["base"], itypes, p)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.fill_mode, q["fill"])
    rs.spmat_set_attribute(A, rs.SpMatAttribute.diag_type, rs.DiagType.unit if q["unit"] else rs.DiagType.non_unit)
    h = rs.create_handle()
    keep = []
    alpha = scalar(p, q["alpha"])
    if q["device"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        keep.append(rm.to_device(np.array([alpha], p.dtype)))
    return p, a, A, h, (keep[0] if keep else alpha), OPS[q["trans"]](triangle(a, q["fill"], q["unit"])), keep


@settings(max_examples=examples(40))
@given(triangular_problems())
def test_spsv_solves(mtx, q):
    p, a, A, h, alpha, opt, _keep = prepare_triangle(mtx, q)
    m = a.shape[0]
    rng = np.random.default_rng(q["seed"])
    x = values(rng, m, p)
    y_full, y = padded(np.full(m, np.nan, p.dtype))
    X, Y = rs.create_dnvec_descr(m, rm.to_device(x), dt(p)), rs.create_dnvec_descr(m, y, dt(p))
    args = (h, q["trans"], alpha, A, X, Y, dt(p), rs.SpSVAlg.default)
    size = rs.spsv(*args, rs.SpSVStage.buffer_size)
    assert size >= 4
    tmp = rm.empty(size, np.uint8)
    rs.spsv(*args, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(*args, rs.SpSVStage.compute, None, tmp)
    margins_untouched(y_full, m)
    got = y.get()
    assert backward_error(opt, got, scalar(p, q["alpha"]) * x, precision=p) < RESIDUAL_THRESHOLD
    # A second solve reuses the analysis and gives the same bits.
    rs.spsv(*args, rs.SpSVStage.compute, None, tmp)
    assert np.array_equal(y.get().view(np.uint8), got.view(np.uint8))


@settings(max_examples=examples(40))
@given(triangular_problems(), st.sampled_from([0, 1, 3]), st.sampled_from(list(rs.Operation)),
       st.sampled_from(list(rs.Order)), st.sampled_from(list(rs.Order)))
def test_spsm_solves(mtx, q, nrhs, trans_b, order_b, order_c):
    p, a, A, h, alpha, opt, _keep = prepare_triangle(mtx, q)
    m = a.shape[0]
    rng = np.random.default_rng(q["seed"])
    rhs = values(rng, (m, nrhs), p)  # op(B)
    stored = rhs if trans_b is rs.Operation.none else (rhs.T if trans_b is rs.Operation.transpose else rhs.T.conj())
    Bd, _, _ = dense_descr(stored, order_b, 2, p)
    Cd, cdev, cstore = dense_descr(np.full((m, nrhs), np.nan, p.dtype), order_c, 3, p)
    args = (h, q["trans"], trans_b, alpha, A, Bd, Cd, dt(p), rs.SpSMAlg.default)
    size = rs.spsm(*args, rs.SpSMStage.buffer_size)
    tmp = rm.empty(max(size, 1), np.uint8)
    rs.spsm(*args, rs.SpSMStage.preprocess, None, tmp)
    rs.spsm(*args, rs.SpSMStage.compute, None, tmp)
    got = dense_get(cdev, cstore, (m, nrhs), order_c)
    if m and nrhs:
        assert backward_error(opt, got, scalar(p, q["alpha"]) * rhs, precision=p) < RESIDUAL_THRESHOLD


def test_spsm_matches_spsv_and_reports_zero_pivots():
    h = rs.create_handle()
    # Row 1 stores its diagonal as an explicit zero: a numerical zero pivot, counted as one.
    t = sp.csr_matrix((np.array([2.0, 1, 0, 3, 4]), np.array([0, 0, 1, 1, 2]), np.array([0, 1, 3, 5])), shape=(3, 3))
    A, _ = sparse_descr(t, "csr", 1, (np.int64, np.int32), D)
    x = np.array([2.0, 5, 7])
    X, Y = rs.create_dnvec_descr(3, rm.to_device(x), 152), rs.create_dnvec_descr(3, rm.zeros(3), 152)
    size = rs.spsv(h, "N", 1.0, A, X, Y, 152, 0, rs.SpSVStage.buffer_size)
    tmp = rm.empty(size, np.uint8)
    rs.spsv(h, "N", 1.0, A, X, Y, 152, 0, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(h, "N", 1.0, A, X, Y, 152, 0, rs.SpSVStage.compute, None, tmp)
    # Row 1's zero pivot counts as one: y = [1, 5 - 1, (7 - 3 * 4) / 4].
    assert np.array_equal(Y.values.get(), [1.0, 4.0, -1.25])
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.csrsv_zero_pivot(h, A.descr, A.info, None)
    assert e.value.position == 2  # row 1, index base one
    B, _, _ = dense_descr(x[:, None], rs.Order.column, 0, D)
    Cd, cdev, cstore = dense_descr(np.zeros((3, 1)), rs.Order.row, 0, D)
    rs.spsm(h, "N", "N", 1.0, A, B, Cd, 152, 0, rs.SpSMStage.preprocess, None, tmp)
    rs.spsm(h, "N", "N", 1.0, A, B, Cd, 152, 0, rs.SpSMStage.compute, None, tmp)
    assert np.array_equal(dense_get(cdev, cstore, (3, 1), rs.Order.row)[:, 0], Y.values.get())
    # The analyses live in A's mat_info beside csrsv's; csrsv_clear frees them (compute then needs a new
    # preprocess stage).
    assert set(A.info.csrsv.generic) == {(False, rs.FillMode.lower)} and not A.info.csrsv.analyses
    rs.csrsv_clear(h, A.descr, A.info)
    assert not A.info.csrsv.generic
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.spsv(h, "N", 1.0, A, X, Y, 152, 0, rs.SpSVStage.compute, None, tmp)
    assert e.value.arg == "mat"
    # A transposed solve reports the same zero pivot, index base included (its structure is a 0-based copy).
    At, _ = sparse_descr(t, "csr", 1, (np.int64, np.int32), D)
    tmp = rm.empty(rs.spsv(h, "T", 1.0, At, X, Y, 152, 0, rs.SpSVStage.buffer_size), np.uint8)
    rs.spsv(h, "T", 1.0, At, X, Y, 152, 0, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(h, "T", 1.0, At, X, Y, 152, 0, rs.SpSVStage.compute, None, tmp)
    one = t.toarray()
    one[1, 1] = 1.0
    np.testing.assert_allclose(Y.values.get(), np.linalg.solve(one.T, x), rtol=1e-14)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.csrsv_zero_pivot(h, At.descr, At.info, None)
    assert e.value.position == 2


def test_triangular_statuses():
    h = rs.create_handle()
    t = sp.csr_matrix(np.eye(3))
    A, _ = sparse_descr(t, "csr", 0, (np.int32, np.int32), D)
    rect, _ = sparse_descr(sp.csr_matrix(np.ones((3, 4))), "csr", 0, (np.int32, np.int32), D)
    csc, _ = sparse_descr(t, "csc", 0, (np.int32, np.int32), D)
    X = rs.create_dnvec_descr(3, rm.zeros(3), 152)
    short = rs.create_dnvec_descr(2, rm.zeros(2), 152)
    Xs = rs.create_dnvec_descr(3, rm.zeros(3, np.float32), 151)
    B = rs.create_dnmat_descr(3, 2, 3, rm.zeros(6), 152, rs.Order.column)
    B4 = rs.create_dnmat_descr(4, 2, 4, rm.zeros(8), 152, rs.Order.column)
    bs, comp = rs.SpSVStage.buffer_size, rs.SpSVStage.compute
    cases = [
        (lambda: rs.spsv(h, 9, 1.0, A, X, X, 152, 0, bs), rs.Status.invalid_value, "trans", 2),
        (lambda: rs.spsv(h, "N", None, A, X, X, 152, 0, bs), rs.Status.invalid_pointer, "alpha", 3),
        (lambda: rs.spsv(h, "N", 1.0, X, X, X, 152, 0, bs), rs.Status.invalid_pointer, "mat", 4),
        (lambda: rs.spsv(h, "N", 1.0, A, X, None, 152, 0, bs), rs.Status.invalid_pointer, "y", 6),
        (lambda: rs.spsv(h, "N", 1.0, A, X, X, 152, 1, bs), rs.Status.invalid_value, "alg", 8),
        (lambda: rs.spsv(h, "N", 1.0, A, X, X, 152, 0, 4), rs.Status.invalid_value, "stage", 9),
        (lambda: rs.spsv(h, "N", 1.0, A, Xs, X, 152, 0, bs), rs.Status.not_implemented, "x", 5),
        (lambda: rs.spsv(h, "N", 1.0, csc, X, X, 152, 0, bs), rs.Status.not_implemented, "mat", 4),
        (lambda: rs.spsv(h, "N", 1.0, rect, X, X, 152, 0, bs), rs.Status.invalid_size, "mat", 4),
        (lambda: rs.spsv(h, "N", 1.0, A, X, short, 152, 0, bs), rs.Status.invalid_size, "y", 6),
        (lambda: rs.spsv(h, "N", 1.0, A, X, X, 152, 0, comp), rs.Status.invalid_pointer, "temp_buffer", 11),
        (lambda: rs.spsv(h, "N", 1.0, A, X, X, 152, 0, comp, None, rm.empty(4, np.uint8)),
         rs.Status.invalid_pointer, "mat", 4),  # no preprocess stage yet
        (lambda: rs.spsm(h, "N", "N", 1.0, A, B, None, 152, 0, 1), rs.Status.invalid_pointer, "matC", 7),
        (lambda: rs.spsm(h, "N", "N", 1.0, A, B, B, 151, 0, 1), rs.Status.not_implemented, "compute_type", 8),
        (lambda: rs.spsm(h, "N", "N", 1.0, A, B4, B, 152, 0, 1), rs.Status.invalid_size, "matB", 6),
        (lambda: rs.spsm(h, "N", "T", 1.0, A, B, B, 152, 0, 1), rs.Status.invalid_size, "matB", 6),
    ]
    for fn, status, arg, index in cases:
        with pytest.raises(rs.SparseError) as e:
            fn()
        assert (e.value.status, e.value.arg, e.value.index) == (status, arg, index), (arg, e.value)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.storage_mode, rs.StorageMode.unsorted)
    with pytest.raises(rs.SparseRequiresSortedStorageError) as e:
        rs.spsv(h, "N", 1.0, A, X, X, 152, 0, bs)
    assert e.value.arg == "mat"


# --- sddmm -----------------------------------------------------------------------------------------------


@st.composite
def sddmm_problems(draw):
    return dict(case=draw(st.sampled_from(CASES)), m=draw(st.sampled_from([0, 1, 6, 19])),
                n=draw(st.sampled_from([0, 1, 5, 12])), k=draw(st.sampled_from([0, 1, 3, 16])),
                density=draw(st.sampled_from([0.0, 0.2, 1.0])), fmt=draw(st.sampled_from(["csr", "csc", "coo"])),
                trans=draw(st.tuples(*[st.sampled_from([rs.Operation.none, rs.Operation.transpose])] * 2)),
                orders=draw(st.tuples(*[st.sampled_from(list(rs.Order))] * 2)),
                alpha=draw(st.sampled_from([1.0, 0.0, 2.0 - 1j])), beta=draw(st.sampled_from([0.0, 1.0, -0.5j])),
                alg=draw(st.sampled_from(list(rs.SDDMMAlg))), base=draw(st.sampled_from([0, 1])),
                device=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(sddmm_problems())
def test_sddmm_matches_numpy(q):
    p, itypes = q["case"]
    m, n, kd = q["m"], q["n"], q["k"]
    rng = np.random.default_rng(q["seed"])
    opa, opb = values(rng, (m, kd), p), values(rng, (kd, n), p)
    a_st = opa if q["trans"][0] is rs.Operation.none else opa.T
    b_st = opb if q["trans"][1] is rs.Operation.none else opb.T
    A, _, _ = dense_descr(a_st, q["orders"][0], 1, p)
    B, _, _ = dense_descr(b_st, q["orders"][1], 0, p)
    c = random_sparse(rng, m, n, q["density"], p)
    alpha, beta = scalar(p, q["alpha"]), scalar(p, q["beta"])
    if beta == 0:
        c.data[:] = np.nan  # beta == 0: C's values are not read
    Cs, (_, _, stored) = sparse_descr(c, q["fmt"], q["base"], itypes, p)
    before = stored.get()
    cval_full, cval = padded(before)  # C's values inside sentinel margins
    rs.spmat_set_values(Cs, cval)
    h = rs.create_handle()
    keep = []
    if q["device"]:
        rs.set_pointer_mode(h, rs.PointerMode.device)
        keep = [rm.to_device(np.array([v], p.dtype)) for v in (alpha, beta)]
    args = (h, *q["trans"], *(keep or (alpha, beta))[:1], A, B, *(keep or (alpha, beta))[1:], Cs, dt(p), q["alg"])
    size = np.zeros(1, np.int64)
    assert rs.sddmm_buffer_size(*args, size) == size[0]
    tmp = rm.empty(max(1, int(size[0])), np.uint8)
    rs.sddmm_preprocess(*args, tmp)
    rs.sddmm(*args, tmp)
    # The entries in the descriptor's storage order (CSC: by column; COO: row-major).
    s = sp.csc_matrix(c) if q["fmt"] == "csc" else sp.csr_matrix(c)
    s.sort_indices()
    rows, cols = (s.indices, np.repeat(np.arange(n), np.diff(s.indptr))) if q["fmt"] == "csc" else \
        (np.repeat(np.arange(m), np.diff(s.indptr)), s.indices)
    product = (opa @ opb)[rows, cols]
    expected = before if alpha == 0 and beta == 1 else alpha * product + (beta * before if beta != 0 else 0)
    margins_untouched(cval_full, cval.size)
    assert_close(cval.get(), np.asarray(expected, p.dtype), p, "reduction", max(1, kd),
                 scale=max(1.0, float(np.abs(before).max(initial=0) if beta != 0 else 0.0), float(kd)))


def test_sddmm_statuses():
    h = rs.create_handle()
    A = rs.create_dnmat_descr(3, 2, 3, rm.zeros(6), 152, rs.Order.column)
    B = rs.create_dnmat_descr(2, 4, 2, rm.zeros(8), 152, rs.Order.column)
    Cm, _ = sparse_descr(sp.csr_matrix(np.ones((3, 4))), "csr", 0, (np.int32, np.int32), D)
    Cw, _ = sparse_descr(sp.csr_matrix(np.ones((3, 5))), "csr", 0, (np.int32, np.int32), D)
    Ce = rs.create_csr_descr(3, 4, 0, rm.zeros(4, np.int32), None, None, 2, 2, 0, 152)
    cases = [
        (lambda: rs.sddmm_buffer_size(h, "N", 0, 1.0, A, B, 0.0, Cm, 152, 0), rs.Status.invalid_value, "trans_B", 3),
        (lambda: rs.sddmm_buffer_size(h, "N", "N", 1.0, A, B, None, Cm, 152, 0), rs.Status.invalid_pointer, "beta",
         7),
        (lambda: rs.sddmm(h, "N", "N", 1.0, A, Cm, 0.0, Cm, 152, 0), rs.Status.invalid_pointer, "B", 6),
        (lambda: rs.sddmm(h, "N", "N", 1.0, A, B, 0.0, Cm, 151, 0), rs.Status.not_implemented, "compute_type", 9),
        (lambda: rs.sddmm(h, "N", "N", 1.0, A, B, 0.0, Cm, 152, 2), rs.Status.invalid_value, "alg", 10),
        (lambda: rs.sddmm(h, "C", "N", 1.0, A, B, 0.0, Cm, 152, 0), rs.Status.not_implemented, "trans_A", 2),
        (lambda: rs.sddmm(h, "T", "N", 1.0, A, B, 0.0, Cm, 152, 0), rs.Status.invalid_size, "A", 5),
        (lambda: rs.sddmm(h, "N", "N", 1.0, A, B, 0.0, Cw, 152, 0), rs.Status.invalid_size, "B", 6),
        (lambda: rs.sddmm(h, "N", "N", 1.0, A, B, 0.0, Cm, 152, 1), rs.Status.invalid_pointer, "temp_buffer", 11),
    ]
    for fn, status, arg, index in cases:
        with pytest.raises(rs.SparseError) as e:
            fn()
        assert (e.value.status, e.value.arg, e.value.index) == (status, arg, index), (arg, e.value)
    rs.sddmm(h, "T", "N", 1.0, A, B, 0.0, Ce, 152, 0)  # C has no entries: a quick return before any size check


# --- sparse_to_dense / dense_to_sparse ---------------------------------------------------------------------


@settings(max_examples=examples(40))
@given(case=st.sampled_from(CASES), m=st.sampled_from([0, 1, 6, 19]), n=st.sampled_from([0, 1, 7, 12]),
       density=st.sampled_from([0.0, 0.3, 1.0]), fmt=st.sampled_from(["csr", "csc", "coo"]),
       order=st.sampled_from(list(rs.Order)), base=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
def test_dense_sparse_round_trip(case, m, n, density, fmt, order, base, seed):
    p, itypes = case
    it, jt = itypes if fmt != "coo" else (itypes[0], itypes[0])
    rng = np.random.default_rng(seed)
    a = random_sparse(rng, m, n, density, p)
    h = rs.create_handle()
    tmp4 = rm.empty(4, np.uint8)
    # sparse -> dense: the m x n part is overwritten, the padding is not.
    A, _ = sparse_descr(a, fmt, base, itypes, p)
    Bd, bdev, bstore = dense_descr(np.full((m, n), np.nan, p.dtype), order, 2, p)
    size = np.zeros(1, np.int64)
    assert rs.sparse_to_dense(h, A, Bd, rs.SparseToDenseAlg.default, size) == 4 and size[0] == 4
    rs.sparse_to_dense(h, A, Bd, rs.SparseToDenseAlg.default, None, tmp4)
    dense = dense_get(bdev, bstore, (m, n), order)
    assert np.array_equal(dense, a.toarray())
    # dense -> sparse in three calls: size, analysis (nnz), compute.
    count = n if fmt == "csc" else m
    ptr_full, ptr = padded(np.full(count + 1, -3, it)) if fmt != "coo" else (None, None)
    if fmt == "csr":
        S_ = rs.create_csr_descr(m, n, 0, ptr, None, None, rs.IndexType.of(it), rs.IndexType.of(jt), base, dt(p))
    elif fmt == "csc":
        S_ = rs.create_csc_descr(m, n, 0, ptr, None, None, rs.IndexType.of(it), rs.IndexType.of(jt), base, dt(p))
    else:
        S_ = rs.create_coo_descr(m, n, 0, None, None, None, rs.IndexType.of(it), base, dt(p))
    need = rs.dense_to_sparse(h, Bd, S_, rs.DenseToSparseAlg.default, size)
    assert need == size[0] == np.dtype(it).itemsize * count
    tmp = rm.empty(max(need, 1), np.uint8)
    rs.dense_to_sparse(h, Bd, S_, rs.DenseToSparseAlg.default, None, tmp)
    nnz = rs.spmat_get_size(S_)[2]
    assert nnz == a.nnz
    (ind_full, ind), (val_full, val) = padded(np.full(nnz, -3, jt)), padded(np.full(nnz, np.nan, p.dtype))
    if fmt == "coo":
        ptr_full, ptr = padded(np.full(nnz, -3, it))
        rs.coo_set_pointers(S_, ptr, ind, val)
    else:
        (rs.csc_set_pointers if fmt == "csc" else rs.csr_set_pointers)(S_, ptr, ind, val)
    rs.dense_to_sparse(h, Bd, S_, rs.DenseToSparseAlg.default, size, tmp)
    for full, view in ((ptr_full, ptr), (ind_full, ind), (val_full, val)):
        margins_untouched(full, view.size)
    if fmt == "coo":
        got = sp.coo_matrix((val.get(), (ptr.get() - base, ind.get() - base)), shape=(m, n))
        ref = sp.coo_matrix(a)
        assert np.array_equal(ptr.get() - base, ref.row) and np.array_equal(ind.get() - base, ref.col)
    else:
        make = sp.csc_matrix if fmt == "csc" else sp.csr_matrix
        ref = make(a)
        ref.sort_indices()
        got = make((val.get(), ind.get() - base, ptr.get() - base), shape=(m, n))
        assert np.array_equal(ptr.get() - base, ref.indptr) and np.array_equal(ind.get() - base, ref.indices)
    assert np.array_equal(got.toarray(), a.toarray())


def test_conversion_statuses():
    h = rs.create_handle()
    A, _ = sparse_descr(sp.csr_matrix(np.eye(3)), "csr", 0, (np.int32, np.int32), D)
    B = rs.create_dnmat_descr(3, 3, 3, rm.zeros(9), 152, rs.Order.column)
    Bs = rs.create_dnmat_descr(3, 3, 3, rm.zeros(9, np.float32), 151, rs.Order.column)
    B2 = rs.create_dnmat_descr(3, 2, 3, rm.zeros(6), 152, rs.Order.column)
    Au = rs.create_csr_descr(3, 3, 0, rm.zeros(4, np.int32), None, None, rs.IndexType.i32, rs.IndexType.i64, 0, 152)
    tmp = rm.zeros(64, np.uint8)  # as a dense_to_sparse analysis buffer: no nonzeros counted
    cases = [
        (lambda: rs.sparse_to_dense(h, B, B, 0, None, tmp), rs.Status.invalid_pointer, "mat_A", 2),
        (lambda: rs.sparse_to_dense(h, A, A, 0, None, tmp), rs.Status.invalid_pointer, "mat_B", 3),
        (lambda: rs.sparse_to_dense(h, A, B, 1, None, tmp), rs.Status.invalid_value, "alg", 4),
        (lambda: rs.sparse_to_dense(h, A, B, 0), rs.Status.invalid_pointer, "buffer_size", 5),
        (lambda: rs.sparse_to_dense(h, Au, B, 0, None, tmp), rs.Status.not_implemented, "mat_A", 2),
        (lambda: rs.sparse_to_dense(h, A, Bs, 0, None, tmp), rs.Status.not_implemented, "mat_B", 3),
        (lambda: rs.sparse_to_dense(h, A, B2, 0, None, tmp), rs.Status.invalid_size, "mat_B", 3),
        (lambda: rs.dense_to_sparse(h, A, A, 0, None, tmp), rs.Status.invalid_pointer, "mat_A", 2),
        (lambda: rs.dense_to_sparse(h, B, A, 0), rs.Status.invalid_pointer, "buffer_size", 5),
        (lambda: rs.dense_to_sparse(h, Bs, A, 0, None, tmp), rs.Status.not_implemented, "mat_A", 2),
        (lambda: rs.dense_to_sparse(h, B, A, 0, np.zeros(1), tmp), rs.Status.invalid_size, "mat_B", 3),
    ]
    for fn, status, arg, index in cases:
        with pytest.raises(rs.SparseError) as e:
            fn()
        assert (e.value.status, e.value.arg, e.value.index) == (status, arg, index), (arg, e.value)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.storage_mode, rs.StorageMode.unsorted)
    with pytest.raises(rs.SparseRequiresSortedStorageError):
        rs.sparse_to_dense(h, A, B, 0, None, tmp)


# --- stress (slow) -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_generic_routines_on_large_matrices():
    h = rs.create_handle()
    ind = rm.to_device(np.array([2, 0], np.int64))
    x8 = rs.create_spvec_descr(3, 2, ind, rm.to_device(np.array([-128, 127], np.int8)), 3, 0, rs.Datatype.i8_r)
    y8 = rs.create_dnvec_descr(3, rm.to_device(np.array([5, 0, -128], np.int8)), rs.Datatype.i8_r)
    assert rs.spvv(h, "T", x8, y8, np.zeros(1), rs.Datatype.f32_r, None, rm.empty(4, np.uint8)) == 16384 + 635
    a = matrices.laplacian_3d(24)  # 13824 x 13824
    g = matrices.power_law_graph(20000, avg_degree=8.0, seed=9)
    for x, y in ((a, a), (g, g)):
        (ptr, ind, val), (_, _, val2) = run_spgemm(h, D, sparse_descr(x, "csr", 0, (np.int64, np.int32), D)[0],
                                                   sparse_descr(y, "csr", 0, (np.int64, np.int32), D)[0],
                                                   sparse_descr(x, "csr", 0, (np.int64, np.int32), D)[0], 1.0, -1.0,
                                                   x.shape[0], y.shape[1], 0, (np.int64, np.int32))
        got = sp.csr_matrix((val, ind, ptr), shape=(x.shape[0], y.shape[1]))
        assert abs(got - (x @ y - x)).max() <= 1e-12 * max(1.0, abs(x @ y).max())
        assert np.array_equal(val, val2)
    A, _ = sparse_descr(sp.csr_matrix(a), "csr", 1, (np.int64, np.int64), D)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.fill_mode, rs.FillMode.upper)
    m, nrhs = a.shape[0], 8
    rhs = np.random.default_rng(1).standard_normal((m, nrhs))
    Bd, _, _ = dense_descr(rhs, rs.Order.column, 0, D)
    Cd, cdev, cstore = dense_descr(np.zeros((m, nrhs)), rs.Order.row, 0, D)
    args = (h, "T", "N", 1.0, A, Bd, Cd, 152, 0)
    tmp = rm.empty(rs.spsm(*args, rs.SpSMStage.buffer_size), np.uint8)
    rs.spsm(*args, rs.SpSMStage.preprocess, None, tmp)
    rs.spsm(*args, rs.SpSMStage.compute, None, tmp)
    got = dense_get(cdev, cstore, (m, nrhs), rs.Order.row)
    residual = rhs - sp.triu(a).T @ got
    assert np.abs(residual).max() <= 100 * np.finfo(np.float64).eps * np.abs(rhs).max() * 8
