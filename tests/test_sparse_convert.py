"""rocmath.sparse dense <-> sparse conversions (nnz, dense2csr/csc/coo, csr/csc/coo2dense) and the index sorts
(csrsort, coosort_by_row/_by_column), against numpy and scipy.sparse; statuses in rocSPARSE's check order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import examples


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def _descr(base: int = 0) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    return d


def _dense(rng: np.random.Generator, m: int, n: int, density: float, dtype) -> np.ndarray:
    """A random m x n matrix with about ``density`` nonzeros, some rows and columns all zero."""
    a = rng.standard_normal((m, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((m, n))
    a[rng.random((m, n)) >= density] = 0
    if m > 2:
        a[rng.integers(0, m)] = 0
    if n > 2:
        a[:, rng.integers(0, n)] = 0
    return a.astype(dtype)


def _column_major(a: np.ndarray, ld: int, fill: float = 7.5) -> tuple[rm.DeviceArray, np.ndarray]:
    """``a`` stored column-major with leading dimension ``ld``, padding rows set to ``fill``; also the host image."""
    m, n = a.shape
    img = np.full((n, ld), fill, a.dtype)
    img[:, :m] = a.T
    return rm.to_device(img.ravel()), img


@st.composite
def dense_problems(draw):
    m, n = draw(st.sampled_from([0, 1, 3, 17])), draw(st.sampled_from([0, 1, 4, 29]))
    return dict(m=m, n=n, pad=draw(st.sampled_from([0, 3])), density=draw(st.sampled_from([0.0, 0.2, 0.7, 1.0])),
                p=draw(st.sampled_from(SDCZ)), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(60))
@given(dense_problems())
def test_nnz_and_dense_roundtrips_match_scipy(q):
    p, m, n, base, it = q["p"], q["m"], q["n"], q["base"], q["itype"]
    a = _dense(np.random.default_rng(q["seed"]), m, n, q["density"], p.dtype)
    ld = m + q["pad"]
    dA, img = _column_major(a, ld)
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device if q["device_mode"] else rs.PointerMode.host)
    d = _descr(base)
    ref = sp.csr_matrix(a)
    ref_c = sp.csc_matrix(a)
    for direction, count, expect in ((rs.Direction.row, m, np.diff(ref.indptr)),
                                     (rs.Direction.column, n, np.diff(ref_c.indptr))):
        counts_full, counts = padded(np.full(count, -3, it))
        total_dev = rm.to_device(np.full(1, -1, it))
        got = _fn(p, "nnz")(h, direction, m, n, d, dA, ld, counts, total_dev if q["device_mode"] else None)
        total = int(total_dev.get()[0]) if q["device_mode"] else got
        assert got is None if q["device_mode"] else isinstance(got, int)
        assert total == np.count_nonzero(a)
        assert np.array_equal(counts.get(), expect)
        margins_untouched(counts_full, count)
    assert np.array_equal(dA.get(), img.ravel())  # nnz reads A only

    nnz = np.count_nonzero(a)
    per_row, per_col = rm.to_device(np.diff(ref.indptr).astype(it)), rm.to_device(np.diff(ref_c.indptr).astype(it))
    # dense2csr / csr2dense
    v_full, v = padded(np.zeros(nnz, p.dtype))
    p_full, ptr = padded(np.zeros(m + 1, it))
    i_full, ind = padded(np.zeros(nnz, it))
    _fn(p, "dense2csr")(h, m, n, d, dA, ld, per_row, v, ptr, ind)
    if m and n:
        assert np.array_equal(ptr.get(), ref.indptr + base)
        assert np.array_equal(ind.get(), ref.indices + base)
        assert np.array_equal(v.get(), ref.data)
    for full, dev in ((v_full, v), (p_full, ptr), (i_full, ind)):
        margins_untouched(full, dev.size)
    out, out_img = _column_major(np.full((m, n), 3.25, p.dtype), ld, fill=-9.5)
    _fn(p, "csr2dense")(h, m, n, d, v, ptr, ind, out, ld)
    expect_img = out_img.copy()
    expect_img[:, :m] = a.T if m and n else expect_img[:, :m]
    assert np.array_equal(out.get(), expect_img.ravel())
    # dense2csc / csc2dense
    cv, cp, ci = rm.empty(nnz, p.dtype), rm.empty(n + 1, it), rm.empty(nnz, it)
    _fn(p, "dense2csc")(h, m, n, d, dA, ld, per_col, cv, cp, ci)
    if m and n:
        assert np.array_equal(cp.get(), ref_c.indptr + base)
        assert np.array_equal(ci.get(), ref_c.indices + base)
        assert np.array_equal(cv.get(), ref_c.data)
        out, out_img = _column_major(np.full((m, n), 3.25, p.dtype), ld, fill=-9.5)
        _fn(p, "csc2dense")(h, m, n, d, cv, cp, ci, out, ld)
        expect_img = out_img.copy()
        expect_img[:, :m] = a.T
        assert np.array_equal(out.get(), expect_img.ravel())
    # dense2coo / coo2dense
    ov, orow, ocol = rm.empty(nnz, p.dtype), rm.empty(nnz, it), rm.empty(nnz, it)
    _fn(p, "dense2coo")(h, m, n, d, dA, ld, per_row, ov, orow, ocol)
    if m and n:
        coo = ref.tocoo()
        assert np.array_equal(orow.get(), coo.row + base)
        assert np.array_equal(ocol.get(), coo.col + base)
        assert np.array_equal(ov.get(), coo.data)
        out, out_img = _column_major(np.full((m, n), 3.25, p.dtype), ld, fill=-9.5)
        _fn(p, "coo2dense")(h, m, n, nnz, d, ov, orow, ocol, out, ld)
        expect_img = out_img.copy()
        expect_img[:, :m] = a.T
        assert np.array_equal(out.get(), expect_img.ravel())


def test_dense2csr_quick_return_sets_the_pointer_to_base():
    h = rs.create_handle()
    ptr = rm.to_device(np.full(4, -1, np.int32))
    rs.sdense2csr(h, 3, 0, _descr(1), None, 3, None, None, ptr, None)
    assert np.array_equal(ptr.get(), [1, 1, 1, 1])
    counts = rm.to_device(np.full(3, -1, np.int32))
    assert rs.dnnz(h, rs.Direction.row, 3, 0, None, None, 3, counts, None) == 0
    assert np.array_equal(counts.get(), [0, 0, 0])


def test_coo2dense_duplicates_keep_the_last_entry():
    h = rs.create_handle()
    rows, cols = rm.to_device(np.array([0, 1, 0], np.int32)), rm.to_device(np.array([1, 0, 1], np.int32))
    vals = rm.to_device(np.array([1.0, 2.0, 3.0]))
    out = rm.to_device(np.full(4, 9.0))
    rs.dcoo2dense(h, 2, 2, 3, _descr(), vals, rows, cols, out, 2)
    assert np.array_equal(out.get().reshape(2, 2).T, [[0.0, 3.0], [2.0, 0.0]])


@st.composite
def sort_problems(draw):
    m, n = draw(st.sampled_from([1, 2, 9, 40])), draw(st.sampled_from([1, 3, 50]))
    return dict(m=m, n=n, nnz=draw(st.sampled_from([0, 1, 7, 120])), base=draw(st.sampled_from([0, 1])),
                itype=draw(st.sampled_from([np.int32, np.int64])), with_perm=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(sort_problems())
def test_csrsort_is_a_stable_per_row_sort(q):
    m, n, nnz, base, it = q["m"], q["n"], q["nnz"], q["base"], q["itype"]
    rng = np.random.default_rng(q["seed"])
    rows = np.sort(rng.integers(0, m, nnz))
    cols = rng.integers(0, n, nnz)  # unsorted, with duplicates
    ptr = np.searchsorted(rows, np.arange(m + 1)).astype(it) + base
    h = rs.create_handle()
    dptr, dcol = rm.to_device(ptr), rm.to_device((cols + base).astype(it))
    size = rs.csrsort_buffer_size(h, m, n, nnz, dptr, dcol)
    assert size == 0 if nnz == 0 else size > 0
    perm = rm.to_device(np.arange(nnz, dtype=it)) if q["with_perm"] else None
    rs.csrsort(h, m, n, nnz, _descr(base), dptr, dcol, perm, rm.empty(max(1, size), np.uint8))
    order = np.lexsort((cols, rows))
    assert np.array_equal(dcol.get(), cols[order] + base)
    assert np.array_equal(dptr.get(), ptr)
    if perm is not None:
        assert np.array_equal(perm.get(), order)


@settings(max_examples=examples(40))
@given(sort_problems(), st.booleans())
def test_coosort_is_a_stable_lexicographic_sort(q, by_row):
    m, n, nnz, base, it = q["m"], q["n"], q["nnz"], q["base"], q["itype"]
    rng = np.random.default_rng(q["seed"])
    rows, cols = rng.integers(0, m, nnz), rng.integers(0, n, nnz)
    h = rs.create_handle()
    drow, dcol = rm.to_device((rows + base).astype(it)), rm.to_device((cols + base).astype(it))
    size = rs.coosort_buffer_size(h, m, n, nnz, drow, dcol)
    perm = rm.to_device(np.arange(nnz, dtype=it)) if q["with_perm"] else None
    sort = rs.coosort_by_row if by_row else rs.coosort_by_column
    sort(h, m, n, nnz, drow, dcol, perm, rm.empty(max(1, size), np.uint8))
    order = np.lexsort((cols, rows)) if by_row else np.lexsort((rows, cols))
    assert np.array_equal(drow.get(), rows[order] + base)
    assert np.array_equal(dcol.get(), cols[order] + base)
    if perm is not None:
        assert np.array_equal(perm.get(), order)


# --- statuses, in rocSPARSE's check order -----------------------------------------------------------


def _a():
    return rm.to_device(np.ones(4))


def _i(n=4):
    return rm.to_device(np.zeros(n, np.int32))


def _d(**kw) -> rs.MatDescr:
    d = rs.create_mat_descr()
    if "type" in kw:
        rs.set_mat_type(d, kw["type"])
    if "storage" in kw:
        rs.set_mat_storage_mode(d, kw["storage"])
    return d


SYM, UNSORTED = dict(type=rs.MatrixType.symmetric), dict(storage=rs.StorageMode.unsorted)

STATUS_CASES = [
    # nnz(handle, dir, m, n, descr, A, ld, nnz_per_row_columns, nnz_total)
    (lambda h: rs.dnnz(h, 5, 2, 2, _d(), _a(), 2, _i(), None), rs.Status.invalid_value, 2),
    (lambda h: rs.dnnz(h, 0, -1, 2, _d(), _a(), 2, _i(), None), rs.Status.invalid_size, 3),
    (lambda h: rs.dnnz(h, 0, 2, -1, _d(), _a(), 2, _i(), None), rs.Status.invalid_size, 4),
    (lambda h: rs.dnnz(h, 0, 2, 2, None, None, 1, None, None), rs.Status.invalid_size, 7),
    (lambda h: rs.dnnz(h, 0, 2, 2, None, _a(), 2, _i(), None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dnnz(h, 0, 2, 2, _d(**SYM), None, 2, None, None), rs.Status.not_implemented, 5),
    (lambda h: rs.dnnz(h, 0, 2, 2, _d(**UNSORTED), None, 2, None, None), rs.Status.requires_sorted_storage, 5),
    (lambda h: rs.dnnz(h, 0, 2, 2, _d(), None, 2, None, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dnnz(h, 0, 2, 2, _d(), _a(), 2, None, None), rs.Status.invalid_pointer, 8),
    # dense2csr(handle, m, n, descr, A, ld, nnz_per_rows, csr_val, csr_row_ptr, csr_col_ind)
    (lambda h: rs.ddense2csr(h, -1, 2, None, None, 2, None, None, None, None), rs.Status.invalid_size, 2),
    (lambda h: rs.ddense2csr(h, 2, 2, None, None, 1, None, None, None, None), rs.Status.invalid_size, 6),
    (lambda h: rs.ddense2csr(h, 2, 2, None, None, 2, None, None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(**UNSORTED | SYM), None, 2, None, None, None, None),
     rs.Status.requires_sorted_storage, 4),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(**SYM), None, 2, None, None, None, None), rs.Status.not_implemented, 4),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(), None, 2, _i(), _a(), _i(), _i()), rs.Status.invalid_pointer, 5),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(), _a(), 2, None, _a(), _i(), _i()), rs.Status.invalid_pointer, 7),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(), _a(), 2, _i(), None, _i(), _i()), rs.Status.invalid_pointer, 8),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(), _a(), 2, _i(), _a(), None, _i()), rs.Status.invalid_pointer, 9),
    (lambda h: rs.ddense2csr(h, 2, 2, _d(), _a(), 2, _i(), _a(), _i(), None), rs.Status.invalid_pointer, 10),
    # csr2dense(handle, m, n, descr, csr_val, csr_row_ptr, csr_col_ind, A, ld): descr first
    (lambda h: rs.dcsr2dense(h, -1, 2, None, None, None, None, None, 2), rs.Status.invalid_pointer, 4),
    (lambda h: rs.dcsr2dense(h, -1, 2, _d(), None, None, None, None, 2), rs.Status.invalid_size, 2),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(**SYM), None, None, None, None, 1), rs.Status.invalid_size, 9),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(**SYM | UNSORTED), None, None, None, None, 2),
     rs.Status.requires_sorted_storage, 4),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(**SYM), None, None, None, None, 2), rs.Status.not_implemented, 4),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(), None, None, None, None, 2), rs.Status.invalid_pointer, 6),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(), None, _i(3), _i(), _a(), 2), rs.Status.success, 0),  # nnz = 0
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(), None, rm.to_device(np.array([0, 1, 2], np.int32)), _i(), _a(), 2),
     rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcsr2dense(h, 2, 2, _d(), _a(), _i(3), _i(), None, 2), rs.Status.invalid_pointer, 8),
    # dense2coo(handle, m, n, descr, A, ld, nnz_per_rows, coo_val, coo_row_ind, coo_col_ind)
    (lambda h: rs.ddense2coo(h, 2, 2, None, None, 1, None, None, None, None), rs.Status.invalid_pointer, 4),
    (lambda h: rs.ddense2coo(h, 2, 2, _d(**UNSORTED), None, 1, None, None, None, None),
     rs.Status.requires_sorted_storage, 4),
    (lambda h: rs.ddense2coo(h, 2, 2, _d(**SYM), None, 1, None, None, None, None), rs.Status.invalid_size, 6),
    (lambda h: rs.ddense2coo(h, 2, 2, _d(**SYM), None, 2, None, None, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.ddense2coo(h, 2, 2, _d(**SYM), _a(), 2, _i(), _a(), _i(), None), rs.Status.invalid_pointer, 10),
    (lambda h: rs.ddense2coo(h, 2, 2, _d(**SYM), _a(), 2, _i(), _a(), _i(), _i()), rs.Status.not_implemented, 4),
    # coo2dense(handle, m, n, nnz, descr, coo_val, coo_row_ind, coo_col_ind, A, ld)
    (lambda h: rs.dcoo2dense(h, 2, 2, -1, None, None, None, None, None, 1), rs.Status.invalid_size, 10),
    (lambda h: rs.dcoo2dense(h, 2, 0, -1, None, None, None, None, None, 2), rs.Status.success, 0),
    (lambda h: rs.dcoo2dense(h, 2, 2, -1, None, None, None, None, None, 2), rs.Status.invalid_size, 4),
    (lambda h: rs.dcoo2dense(h, 2, 2, 1, None, None, None, None, None, 2), rs.Status.invalid_pointer, 5),
    (lambda h: rs.dcoo2dense(h, 2, 2, 1, _d(), _a(), _i(), None, None, 2), rs.Status.invalid_pointer, 8),
    (lambda h: rs.dcoo2dense(h, 2, 2, 0, _d(), None, None, None, None, 2), rs.Status.invalid_pointer, 9),
    # csrsort(handle, m, n, nnz, descr, csr_row_ptr, csr_col_ind, perm, temp_buffer)
    (lambda h: rs.csrsort(h, 2, 2, -1, None, None, None, None, None), rs.Status.invalid_size, 4),
    (lambda h: rs.csrsort(h, 2, 2, 1, None, None, None, None, None), rs.Status.invalid_pointer, 5),
    (lambda h: rs.csrsort(h, 2, 2, 1, _d(), None, None, None, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.csrsort(h, 2, 2, 1, _d(), _i(3), _i(1), None, None), rs.Status.invalid_pointer, 9),
    (lambda h: rs.csrsort(h, 0, 2, 0, _d(), None, None, None, None), rs.Status.success, 0),
    (lambda h: rs.csrsort_buffer_size(h, 2, 2, 1, _i(3), None), rs.Status.invalid_pointer, 6),
    # coosort_by_row / coosort_by_column(handle, m, n, nnz, coo_row_ind, coo_col_ind, perm, temp_buffer)
    (lambda h: rs.coosort_by_row(h, 2, -2, 1, None, None, None, None), rs.Status.invalid_size, 3),
    (lambda h: rs.coosort_by_column(h, 2, 2, 1, _i(1), None, None, None), rs.Status.invalid_pointer, 6),
    (lambda h: rs.coosort_by_row(h, 2, 2, 1, _i(1), _i(1), None, None), rs.Status.invalid_pointer, 8),
    (lambda h: rs.coosort_buffer_size(h, 2, 2, 1, None, _i(1)), rs.Status.invalid_pointer, 5),
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
    assert err.value.status is status
    assert err.value.index == index


def test_nnz_device_mode_needs_the_total_pointer():
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.snnz(h, rs.Direction.column, 2, 2, _d(), rm.to_device(np.ones(4, np.float32)), 2, _i(2), None)
    assert err.value.index == 9


@pytest.mark.parametrize(("m", "n", "nnz"), [(10**6, 10**6, 40), (3, 1000, 600)],
                         ids=["rows far outnumber entries", "long rows"])
def test_coosort_of_sparse_keys_and_long_runs(m, n, nnz):
    # A million rows for 40 entries: merge sorts instead of a count per row; three rows of ~200
    # entries: each run sorted by a merge sort instead of by insertion.
    rng = np.random.default_rng(7)
    rows, cols = rng.integers(0, m, nnz), rng.integers(0, n, nnz)
    h = rs.create_handle()
    for by_row in (True, False):
        drow, dcol = rm.to_device(rows.astype(np.int32)), rm.to_device(cols.astype(np.int32))
        perm = rm.to_device(np.arange(nnz, dtype=np.int32))
        size = rs.coosort_buffer_size(h, m, n, nnz, drow, dcol)
        (rs.coosort_by_row if by_row else rs.coosort_by_column)(h, m, n, nnz, drow, dcol, perm,
                                                                 rm.empty(max(1, size), np.uint8))
        order = np.lexsort((cols, rows)) if by_row else np.lexsort((rows, cols))
        assert np.array_equal(drow.get(), rows[order]) and np.array_equal(dcol.get(), cols[order])
        assert np.array_equal(perm.get(), order)
