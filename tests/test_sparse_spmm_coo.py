"""rocmath.sparse: the generic spmm of a COO matrix (its four algorithms, every stage) against scipy.sparse.

The COO matrices are sorted by row, as rocSPARSE's, and hold duplicate entries (which add up, as in
``coo_matrix @ dense``).  The dense operands carry padding in their leading dimension and sentinels around
their allocations, which must survive untouched.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import OPS, _scalars, margins_untouched, padded, product_scale, scalar, vec

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.testing import assert_close, examples, sentinel_value

COO_ALGS = (rs.SpMMAlg.default, rs.SpMMAlg.coo_segmented, rs.SpMMAlg.coo_atomic, rs.SpMMAlg.coo_segmented_atomic)
MARGIN = 8


def coo_entries(rng: np.random.Generator, m: int, k: int, count: int, dtype: np.dtype) -> tuple[np.ndarray, ...]:
    """``count`` random entries of an ``m x k`` matrix, duplicates likely, sorted by row then column."""
    rows = rng.integers(0, max(m, 1), count)
    cols = rng.integers(0, max(k, 1), count)
    order = np.lexsort((cols, rows))
    return rows[order], cols[order], vec(rng, count, dtype)


def coo_descr(m: int, k: int, rows: np.ndarray, cols: np.ndarray, val: np.ndarray, it: type, base: int,
              dt: rs.Datatype) -> tuple[rs.SpMatDescr, list[rm.DeviceArray]]:
    keep = [rm.to_device((rows + base).astype(it)), rm.to_device((cols + base).astype(it)), rm.to_device(val)]
    return rs.create_coo_descr(m, k, val.size, *keep, rs.IndexType.of(it), base, dt), keep


class Dense:
    """A dense matrix stored in ``order`` with ``pad`` extra elements per leading dimension (holding the sentinel),
    inside an allocation with sentinel margins."""

    def __init__(self, x: np.ndarray, order: rs.Order, pad: int, dt: rs.Datatype):
        rows, cols = x.shape
        self.order, self.shape = order, x.shape
        self.lead = cols if order is rs.Order.row else rows
        ld = max(1, self.lead) + pad
        self.store = np.full((rows if order is rs.Order.row else cols, ld), sentinel_value(x.dtype), x.dtype)
        self.store[:, : self.lead] = x if order is rs.Order.row else x.T
        self.full, view = padded(self.store.ravel(), MARGIN)
        self.descr = rs.create_dnmat_descr(rows, cols, ld, view, dt, order)

    def stored(self) -> np.ndarray:
        return self.full.get()[MARGIN: MARGIN + self.store.size].reshape(self.store.shape)

    def get(self) -> np.ndarray:
        """The matrix's elements; asserts that the padding and the margins kept their bits."""
        got = self.stored()
        bits = f"u{min(self.store.dtype.itemsize, 8)}"
        assert np.array_equal(got[:, self.lead:].view(bits), self.store[:, self.lead:].view(bits))
        margins_untouched(self.full, self.store.size, MARGIN)
        data = got[:, : self.lead]
        return data if self.order is rs.Order.row else data.T


@st.composite
def coo_problems(draw):
    return dict(p=draw(st.sampled_from([D, Z])), m=draw(st.sampled_from([0, 1, 4, 13])),
                k=draw(st.sampled_from([0, 1, 5, 9])), n=draw(st.sampled_from([0, 1, 3])),
                fill=draw(st.sampled_from([0.0, 0.3, 1.0])), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])),
                trans_a=draw(st.sampled_from(list(rs.Operation))), trans_b=draw(st.sampled_from(list(rs.Operation))),
                order_b=draw(st.sampled_from(list(rs.Order))), order_c=draw(st.sampled_from(list(rs.Order))),
                pad_b=draw(st.sampled_from([0, 2])), pad_c=draw(st.sampled_from([0, 3])),
                alpha=draw(st.sampled_from([1.5 - 0.5j, 0.0])), beta=draw(st.sampled_from([0.0, 1.0, -0.5 + 0.25j])),
                alg=draw(st.sampled_from(COO_ALGS)), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(60))
@given(coo_problems())
def test_coo_spmm_matches_scipy(q):
    p, m, k, n = q["p"], q["m"], q["k"], q["n"]
    rng = np.random.default_rng(q["seed"])
    dt = rs.Datatype.of(p.dtype)
    rows, cols, val = coo_entries(rng, m, k, int(q["fill"] * m * k), p.dtype)
    mat, _keep = coo_descr(m, k, rows, cols, val, q["itype"], q["base"], dt)
    opa = OPS[q["trans_a"]](sp.coo_matrix((val, (rows, cols)), shape=(m, k)))
    opb = vec(rng, opa.shape[1] * n, p.dtype).reshape(opa.shape[1], n)
    a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
    host_alpha0 = a_ == 0 and not q["device_mode"]
    if host_alpha0:
        opb[:] = np.nan  # alpha == 0 only scales C: B is never read
    c0 = vec(rng, opa.shape[0] * n, p.dtype).reshape(opa.shape[0], n)
    if b_ == 0:
        c0[:] = np.nan  # beta == 0 never reads C
    stored_b = opb if q["trans_b"] is rs.Operation.none else (
        opb.T if q["trans_b"] is rs.Operation.transpose else opb.conj().T)
    B = Dense(np.ascontiguousarray(stored_b), q["order_b"], q["pad_b"], dt)
    C = Dense(c0, q["order_c"], q["pad_c"], dt)
    h = rs.create_handle()
    alpha, beta, _keep_scalars = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    args = (h, q["trans_a"], q["trans_b"], alpha, mat, B.descr, beta, C.descr, dt, q["alg"])
    out = np.zeros(1, np.int64)
    need = rs.spmm(*args, rs.SpMMStage.buffer_size, out)
    runs = val.size and m and k and n
    # rocSPARSE's COO products ask for no buffer; the transposed ones here hold private accumulators
    assert need == out[0] and (need > 0 if runs and q["trans_a"] is not rs.Operation.none else need == 0)
    temp = rm.empty(need, np.uint8) if need else None  # exactly the size: an overrun faults
    assert rs.spmm(*args, rs.SpMMStage.preprocess, temp_buffer=temp) == need
    assert rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=temp) == need
    got = C.get()
    if a_ == 0 and b_ == 1 and not q["device_mode"]:
        assert np.array_equal(got, c0)  # host alpha == 0, beta == 1: C untouched
        return
    expected = (b_ * c0 if b_ != 0 else np.zeros_like(c0)) + (0 if host_alpha0 else a_ * (opa @ opb))
    scale = product_scale(p, None if host_alpha0 else a_, opa, opb, b_, c0)
    assert_close(got, np.asarray(expected, p.dtype), p, "reduction", max(1, m, k), scale=scale)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_coo_spmm_every_precision(p: Precision):
    """Each uniform precision once: 1-based int32 indices, A transposed (conjugated for complex types)."""
    rng = np.random.default_rng(7)
    dt = rs.Datatype.of(p.dtype)
    rows, cols, val = coo_entries(rng, 6, 4, 11, p.dtype)
    mat, _keep = coo_descr(6, 4, rows, cols, val, np.int32, 1, dt)
    trans = rs.Operation.conjugate_transpose if p.is_complex else rs.Operation.transpose
    opa = OPS[trans](sp.coo_matrix((val, (rows, cols)), shape=(6, 4)))
    b, c0 = vec(rng, 12, p.dtype).reshape(6, 2), vec(rng, 8, p.dtype).reshape(4, 2)
    B, C = Dense(b, rs.Order.column, 1, dt), Dense(c0, rs.Order.column, 1, dt)
    h = rs.create_handle()
    args = (h, trans, rs.Operation.none, scalar(p, 2 - 1j), mat, B.descr, scalar(p, 0.5j - 1), C.descr, dt,
            rs.SpMMAlg.coo_segmented)
    need = rs.spmm(*args, rs.SpMMStage.buffer_size)
    rs.spmm(*args, rs.SpMMStage.compute, None, rm.empty(need, np.uint8))
    expected = scalar(p, 2 - 1j) * (opa @ b) + scalar(p, 0.5j - 1) * c0
    assert_close(C.get(), expected.astype(p.dtype), p, "reduction", 6,
                 scale=product_scale(p, scalar(p, 2 - 1j), opa, b, scalar(p, 0.5j - 1), c0))


@pytest.mark.parametrize("ct", [rs.Datatype.i32_r, rs.Datatype.f32_r], ids=lambda t: t.name)
def test_coo_spmm_int8_into_int32_and_float(ct):
    """rocSPARSE's mixed spmm types hold for COO too: int8 A and B into an int32 or float C (exact results)."""
    rng = np.random.default_rng(5)
    rows, cols, _ = coo_entries(rng, 5, 4, 9, np.float64)
    val = rng.integers(-9, 10, rows.size).astype(np.int8)
    mat, _keep = coo_descr(5, 4, rows, cols, val, np.int64, 0, rs.Datatype.i8_r)
    b = rng.integers(-9, 10, (4, 3)).astype(np.int8)
    c0 = rng.integers(-9, 10, (5, 3)).astype(ct.dtype)
    B, C = Dense(b, rs.Order.row, 0, rs.Datatype.i8_r), Dense(c0, rs.Order.row, 1, ct)
    h = rs.create_handle()
    args = (h, "N", "N", 2.0, mat, B.descr, -1.0, C.descr, ct, rs.SpMMAlg.coo_atomic)
    need = rs.spmm(*args, rs.SpMMStage.buffer_size)
    rs.spmm(*args, rs.SpMMStage.compute, None, rm.empty(need, np.uint8))
    a = sp.coo_matrix((val.astype(np.int64), (rows, cols)), shape=(5, 4))
    assert np.array_equal(C.get(), (2 * (a @ b.astype(np.int64)) - c0).astype(ct.dtype))


@pytest.mark.parametrize("trans", [rs.Operation.none, rs.Operation.transpose], ids=lambda t: t.name)
def test_coo_spmm_is_bitwise_deterministic_and_equals_csr(trans):
    """Enough entries for several private accumulators in the transposed product: two runs give the same bits,
    and so does the CSR matrix of the same arrays (COO spmm runs CSR's kernels on its row pointer)."""
    rng = np.random.default_rng(11)
    m, k, n = 400, 300, 2
    rows, cols, val = coo_entries(rng, m, k, 70_000, np.float64)
    dt, i32 = rs.Datatype.f64_r, rs.IndexType.i32
    coo, _keep = coo_descr(m, k, rows, cols, val, np.int32, 0, dt)
    ptr = np.searchsorted(rows, np.arange(m + 1)).astype(np.int32)
    csr_keep = [rm.to_device(ptr), rm.to_device(cols.astype(np.int32)), rm.to_device(val)]
    csr = rs.create_csr_descr(m, k, val.size, *csr_keep, i32, i32, 0, dt)
    opa = OPS[trans](sp.coo_matrix((val, (rows, cols)), shape=(m, k)))
    b = vec(rng, opa.shape[1] * n, np.float64).reshape(opa.shape[1], n)
    c0 = vec(rng, opa.shape[0] * n, np.float64).reshape(opa.shape[0], n)
    h = rs.create_handle()
    results = []
    for mat in (coo, coo, csr):
        B, C = Dense(b, rs.Order.column, 0, dt), Dense(c0, rs.Order.column, 0, dt)
        args = (h, trans, "N", 0.75, mat, B.descr, 0.5, C.descr, dt, 0)
        need = rs.spmm(*args, rs.SpMMStage.buffer_size)
        rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=rm.empty(need, np.uint8) if need else None)
        results.append(C.get())
    assert np.array_equal(results[0], results[1]) and np.array_equal(results[0], results[2])
    assert_close(results[0], 0.75 * (opa @ b) + 0.5 * c0, D, "reduction", m)


def test_coo_spmm_quick_returns():
    """As the CSR path: an empty product scales C by beta (beta == 0 writes zeros, temp_buffer may be None);
    host alpha == 0 with beta == 1 leaves C alone; a host alpha == 0 reads neither A nor B."""
    dt = rs.Datatype.f64_r
    h = rs.create_handle()
    empty, _k1 = coo_descr(3, 2, np.zeros(0, int), np.zeros(0, int), np.zeros(0), np.int32, 0, dt)
    B = Dense(np.ones((2, 2)), rs.Order.column, 0, dt)
    C = Dense(np.full((3, 2), np.nan), rs.Order.column, 1, dt)
    for stage in rs.SpMMStage:
        assert rs.spmm(h, "N", "N", 1.0, empty, B.descr, 0.0, C.descr, dt, rs.SpMMAlg.coo_segmented, stage) == 0
    assert np.array_equal(C.get(), np.zeros((3, 2)))
    rows, cols = np.array([0, 2, 2]), np.array([1, 0, 1])
    mat, _k2 = coo_descr(3, 2, rows, cols, np.array([np.inf, 1.0, 2.0]), np.int32, 0, dt)
    B = Dense(np.full((2, 2), np.nan), rs.Order.row, 1, dt)
    C = Dense(np.full((3, 2), np.nan), rs.Order.row, 0, dt)
    rs.spmm(h, "N", "N", 0.0, mat, B.descr, 1.0, C.descr, dt, 0, rs.SpMMStage.compute)  # no temp_buffer needed
    assert np.isnan(C.get()).all()
    c0 = np.arange(6.0).reshape(3, 2)
    C = Dense(c0, rs.Order.row, 0, dt)
    rs.spmm(h, "N", "N", 0.0, mat, B.descr, -2.0, C.descr, dt, rs.SpMMAlg.coo_atomic, rs.SpMMStage.compute)
    assert np.array_equal(C.get(), -2.0 * c0)
    # as rocSPARSE, a non-transposed COO product asks for no buffer and runs without one
    B = Dense(np.array([[1.0, 2.0], [3.0, 4.0]]), rs.Order.row, 0, dt)
    for alg in (rs.SpMMAlg.default, rs.SpMMAlg.coo_segmented):
        C = Dense(c0, rs.Order.row, 0, dt)
        assert rs.spmm(h, "N", "N", 1.0, mat, B.descr, 1.0, C.descr, dt, alg, rs.SpMMStage.buffer_size) == 0
        rs.spmm(h, "N", "N", 1.0, mat, B.descr, 1.0, C.descr, dt, alg, rs.SpMMStage.compute)
        np.testing.assert_array_equal(C.get(), c0 + np.array([[np.inf, np.inf], [0, 0], [7.0, 10.0]]))


def _coo(m: int = 3, k: int = 2, storage: rs.StorageMode = rs.StorageMode.sorted,
         mtype: rs.MatrixType = rs.MatrixType.general) -> rs.SpMatDescr:
    mat, _ = coo_descr(m, k, np.array([0, 1, 2]), np.array([1, 0, 1]), np.array([1.0, 2.0, 3.0]), np.int32, 0,
                       rs.Datatype.f64_r)  # the descriptor keeps its device arrays alive
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.storage_mode, storage)
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.matrix_type, mtype)
    return mat


def _dn(rows: int, cols: int, dt: rs.Datatype = rs.Datatype.f64_r) -> rs.DnMatDescr:
    return rs.create_dnmat_descr(rows, cols, rows, rm.to_device(np.full(rows * cols, 5, dt.dtype)), dt,
                                 rs.Order.column)


def _aos() -> rs.SpMatDescr:
    ind = rm.to_device(np.array([0, 1, 1, 0, 2, 1], np.int32))
    return rs.create_coo_aos_descr(3, 2, 3, ind, rm.to_device(np.ones(3)), rs.IndexType.i32, 0, rs.Datatype.f64_r)


def _mixed() -> rs.SpMatDescr:
    i = rm.to_device(np.array([0, 1], np.int32))
    return rs.create_coo_descr(3, 2, 2, i, i, rm.to_device(np.ones(2, np.float32)), rs.IndexType.i32, 0,
                               rs.Datatype.f32_r)


# spmm(handle, trans_A #2, trans_B #3, alpha #4, mat_A #5, mat_B #6, beta #7, mat_C #8, compute_type #9, alg #10,
#      stage #11, buffer_size #12, temp_buffer #13)
STATUS_CASES = [
    (dict(trans_A=5), rs.Status.invalid_value, 2),
    (dict(trans_B=7), rs.Status.invalid_value, 3),
    (dict(alpha=None), rs.Status.invalid_pointer, 4),
    (dict(mat_A=None), rs.Status.invalid_pointer, 5),
    (dict(beta=None), rs.Status.invalid_pointer, 7),
    (dict(compute_type=rs.Datatype.f32_r), rs.Status.not_implemented, 9),
    (dict(alg=42), rs.Status.invalid_value, 10),
    (dict(stage=0), rs.Status.invalid_value, 11),
    (dict(mat_A=_mixed), rs.Status.not_implemented, 9),  # f32 A with f64 B and C: spmv only
    (dict(alg=rs.SpMMAlg.csr), rs.Status.invalid_value, 10),  # a CSR algorithm for a COO matrix
    (dict(alg=rs.SpMMAlg.csr_merge_path), rs.Status.invalid_value, 10),
    (dict(alg=rs.SpMMAlg.bsr), rs.Status.invalid_value, 10),
    (dict(alg=rs.SpMMAlg.bell), rs.Status.invalid_value, 10),
    (dict(mat_A=lambda: _coo(mtype=rs.MatrixType.symmetric)), rs.Status.not_implemented, 5),
    (dict(mat_A=lambda: _coo(storage=rs.StorageMode.unsorted)), rs.Status.requires_sorted_storage, 5),
    (dict(mat_A=_aos), rs.Status.not_implemented, 5),  # COO (AoS) spmm: rocSPARSE's not_implemented
    (dict(mat_C=lambda: _dn(4, 2)), rs.Status.invalid_size, 8),  # C must have op(A)'s rows
    (dict(mat_B=lambda: _dn(3, 2)), rs.Status.invalid_size, 8),  # op(B) must have op(A)'s columns
    (dict(trans_A="T"), rs.Status.invalid_size, 8),  # op(A) is 2 x 3 now
    (dict(trans_B="T"), rs.Status.invalid_size, 8),  # op(B) is 2 x 2: C's columns differ
]


@pytest.mark.parametrize("case", range(len(STATUS_CASES)))
def test_coo_spmm_statuses_in_rocsparse_order(case):
    over, status, index = STATUS_CASES[case]
    C = _dn(3, 4)
    args = dict(handle=rs.create_handle(), trans_A="N", trans_B="N", alpha=1.0, mat_A=_coo(), mat_B=_dn(2, 4),
                beta=0.0, mat_C=C, compute_type=rs.Datatype.f64_r, alg=rs.SpMMAlg.default,
                stage=rs.SpMMStage.compute, buffer_size=None, temp_buffer=rm.empty(4096, np.uint8))
    args.update({key: value() if callable(value) else value for key, value in over.items()})
    with pytest.raises(rs.SparseError) as err:
        rs.spmm(**args)
    assert (err.value.status, err.value.index) == (status, index)
    assert np.array_equal(C.values.get(), np.full(12, 5.0))  # C untouched
