"""The array layer's conversions on the device (rocmath.sparse.csr_matrix / csc_matrix / coo_matrix,
after cupyx's spmatrix): COO to CSR/CSC summing duplicates, sum_duplicates, sort_indices, the
canonical-format flags, constructors from device matrices, astype, conj and H, against scipy.sparse."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import examples


def integer_values(rng: np.random.Generator, count: int, dtype: np.dtype) -> np.ndarray:
    """Small integers (sums of them are exact in every precision), complex ones with an imaginary part."""
    v = rng.integers(-4, 5, count).astype(dtype)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.integers(-4, 5, count).astype(dtype)
    return v


@st.composite
def coo_inputs(draw):
    p: Precision = draw(st.sampled_from(SDCZ))
    m, n = draw(st.sampled_from([0, 1, 4, 9])), draw(st.sampled_from([0, 1, 3, 8]))
    nnz = 0 if m * n == 0 else draw(st.sampled_from([0, 1, 5, 30, 100]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    # Few distinct positions: many duplicates, in no order.
    rows, cols = rng.integers(0, max(m, 1), nnz), rng.integers(0, max(n, 1), nnz)
    itype = draw(st.sampled_from([np.int32, np.int64]))
    return p, (m, n), integer_values(rng, nnz, p.dtype), rows.astype(itype), cols.astype(itype)


def canonical(h: sp.spmatrix, fmt: str) -> sp.spmatrix:
    out = h.asformat(fmt, copy=True)
    out.sum_duplicates()
    return out


@settings(max_examples=examples(60))
@given(coo_inputs())
def test_coo_to_csr_and_csc_sum_duplicates_on_the_device_as_scipy(q):
    p, shape, v, r, c = q
    h = sp.coo_matrix((v, (r, c)), shape=shape)
    d = rs.coo_matrix((v, (r, c)), shape)
    before = [x.get().copy() for x in (d.data, d.row, d.col)]
    for fmt, conv in (("csr", d.tocsr), ("csc", d.tocsc)):
        got, ref = conv(), canonical(h, fmt)
        assert got.format == fmt and got.shape == shape and got.has_canonical_format
        assert got.indices.dtype == r.dtype and got.dtype == p.dtype
        assert np.array_equal(got.indptr.get(), ref.indptr) and np.array_equal(got.indices.get(), ref.indices)
        assert np.array_equal(got.data.get(), ref.data)  # integer values: exact sums
    # The COO matrix itself is untouched (a conversion works on copies).
    assert all(np.array_equal(x.get(), b) for x, b in zip((d.data, d.row, d.col), before, strict=True))
    # sum_duplicates in place: sorted by row, then column, as scipy's.
    d.sum_duplicates()
    ref = h.copy()
    ref.sum_duplicates()
    assert d.has_canonical_format and d.nnz == ref.nnz
    order = np.lexsort((ref.col, ref.row))
    for got, want in ((d.row, ref.row[order]), (d.col, ref.col[order]), (d.data, ref.data[order])):
        assert np.array_equal(got.get(), want)


def test_duplicates_are_summed_left_to_right_in_storage_order():
    # (1e16 + 1) - 1e16 is 0 left to right; another order would give 1 (or 2).
    v = np.array([5.0, 1e16, 2.0, 1.0, -1e16, 1.0])
    r = np.array([1, 0, 1, 0, 0, 0])
    c = np.array([1, 2, 0, 2, 2, 2])
    d = rs.coo_matrix((v, (r, c)), (2, 3))
    a = d.tocsr()
    assert np.array_equal(a.indptr.get(), [0, 1, 3]) and np.array_equal(a.indices.get(), [2, 0, 1])
    assert np.array_equal(a.data.get(), [((1e16 + 1.0) - 1e16) + 1.0, 2.0, 5.0])
    # A lone -0.0 stays -0.0 (its sum starts from the entry, not from +0.0).
    z = rs.coo_matrix((np.array([-0.0]), (np.array([0]), np.array([0]))), (1, 1)).tocsr()
    assert np.signbit(z.data.get()[0])


@settings(max_examples=examples(60))
@given(st.integers(0, 40), st.integers(1, 12), st.integers(0, 300), st.sampled_from([0, 1, 2, 3, 5]),
       st.sampled_from([np.int32, np.int64]), st.integers(0, 2**16))
def test_row_buckets_never_change_the_grouping(m, n, nnz, shift, itype, seed):
    # group_rows by buckets of 1 << shift rows (what the launcher picks for many rows) against the
    # direct counting sort (one bucket), element for element: slots, row offsets, merged columns and
    # sums (signed zeros and values whose sums depend on their order included).
    from rocmath.sparse import _kernels_matrix as km
    from rocmath.sparse._kernels_conv import ONE_BUCKET

    rng = np.random.default_rng(seed)
    nnz = nnz if m else 0
    r = rng.integers(0, max(m, 1), nnz).astype(itype)
    c = rng.integers(0, n, nnz).astype(itype)
    v = rng.choice([1e16, -1e16, 1.0, -0.0, 0.5, 3.0], nnz) * rng.integers(1, 4, nnz)

    def grouped(s):
        out = (np.empty(m + 1, itype), np.full(m + 1, -1, np.int64), np.zeros(nnz, itype), np.zeros(nnz))
        km.group_rows(r, c, v, out[0], out[1], out[2], out[3], s)
        return out

    ptr, slots, cols, vals = grouped(ONE_BUCKET)
    ptr_b, slots_b, cols_b, vals_b = grouped(shift)
    assert np.array_equal(ptr, ptr_b) and np.array_equal(slots, slots_b)
    for i in range(m):
        k = slice(slots[i], slots[i] + ptr[i + 1] - ptr[i])
        assert np.array_equal(cols[k], cols_b[k])
        assert np.array_equal(vals[k].view(np.int64), vals_b[k].view(np.int64))
    # and the merged rows are scipy's (sorted columns, each duplicate's sum)
    ref = sp.coo_matrix((v, (r, c)), shape=(m, n)).tocsr()
    ref.sum_duplicates()
    assert np.array_equal(ptr, ref.indptr)


def test_conversions_read_nothing_back_but_a_count(monkeypatch):
    sizes: list[int] = []
    get = rm.DeviceArray.get
    monkeypatch.setattr(rm.DeviceArray, "get", lambda self, *a, **k: sizes.append(self.size) or get(self, *a, **k))
    rng = np.random.default_rng(3)
    v = rng.standard_normal(200)
    d = rs.coo_matrix((v, (rng.integers(0, 20, 200), rng.integers(0, 10, 200))), (20, 10))
    d.tocsr().tocsc().tocoo()
    h = rs.csr_matrix(d.astype(np.float32)).conj().H
    assert h.format == "csc" and h.has_canonical_format
    assert sizes and max(sizes) == 1  # the merged entries' count, nothing else


def uncanonical(v, r, c, shape, fmt):
    """The CSR (CSC) matrix of these entries, grouped by row (column) in storage order: duplicates
    kept, indices unsorted (scipy's own conversions would sum and sort them)."""
    major, minor = (r, c) if fmt == "csr" else (c, r)
    order = np.argsort(major, kind="stable")
    ptr = np.zeros(shape[0 if fmt == "csr" else 1] + 1, r.dtype)
    np.cumsum(np.bincount(major, minlength=len(ptr) - 1), out=ptr[1:])
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    h = cls((v[order], minor[order], ptr), shape=shape)
    assert h.nnz == len(v)
    return h


@settings(max_examples=examples(40))
@given(coo_inputs(), st.sampled_from(["csr", "csc"]))
def test_compressed_flags_sort_indices_and_sum_duplicates(q, fmt):
    _, shape, v, r, c = q
    h = uncanonical(v, r, c, shape, fmt)
    cls = rs.csr_matrix if fmt == "csr" else rs.csc_matrix
    d = cls((h.data, h.indices, h.indptr), shape)
    ref = h.copy()
    assert d.has_sorted_indices == bool(ref.has_sorted_indices)
    assert d.has_canonical_format == bool(ref.has_canonical_format)
    s = d.copy()
    s.sort_indices()
    assert s.has_sorted_indices and np.array_equal(s.indptr.get(), h.indptr)
    ptr = h.indptr
    for i in range(len(ptr) - 1):  # a stable sort of each row (column): duplicates keep their order
        order = np.argsort(h.indices[ptr[i]:ptr[i + 1]], kind="stable")
        assert np.array_equal(s.indices.get()[ptr[i]:ptr[i + 1]], h.indices[ptr[i]:ptr[i + 1]][order])
        assert np.array_equal(s.data.get()[ptr[i]:ptr[i + 1]], h.data[ptr[i]:ptr[i + 1]][order])
    assert np.array_equal(d.indices.get(), h.indices)  # the copy was sorted, not d
    d.sum_duplicates()
    ref.sum_duplicates()
    assert d.has_canonical_format
    for got, want in ((d.indptr, ref.indptr), (d.indices, ref.indices), (d.data, ref.data)):
        assert np.array_equal(got.get(), want)


FORMATS = ("csr", "csc", "coo")
CLASSES = {"csr": rs.csr_matrix, "csc": rs.csc_matrix, "coo": rs.coo_matrix}


@pytest.mark.parametrize("src", FORMATS)
@pytest.mark.parametrize("dst", FORMATS)
def test_constructors_convert_device_matrices_on_the_device(src, dst):
    rng = np.random.default_rng(11)
    h = sp.random(9, 6, 0.4, random_state=rng, format="coo")
    h.data = integer_values(rng, h.nnz, np.float64)
    a = CLASSES[src](h)
    b = CLASSES[dst](a)
    assert b.format == dst and b.shape == a.shape and np.array_equal(b.get().toarray(), h.toarray())
    arrays = ("data", "row", "col") if dst == "coo" else ("data", "indices", "indptr")
    if src == dst:  # the same format shares its arrays unless copy=True, as cupyx's
        assert all(getattr(b, x).ptr == getattr(a, x).ptr for x in arrays)
        c = CLASSES[dst](a, copy=True)
        assert all(getattr(c, x).ptr != getattr(a, x).ptr for x in arrays)
        assert np.array_equal(c.get().toarray(), h.toarray())
    f = CLASSES[dst](a, dtype=np.complex64)
    assert f.dtype == np.complex64 and np.array_equal(f.get().toarray(), h.toarray().astype(np.complex64))


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("fmt", FORMATS)
def test_astype_conj_and_H_match_numpy(p, fmt):
    rng = np.random.default_rng(5)
    h = sp.random(7, 4, 0.5, random_state=rng, format=fmt, dtype=np.float64)
    h.data = h.data.astype(p.dtype)
    if p.is_complex:
        h.data = h.data + 1j * rng.standard_normal(h.nnz).astype(p.dtype)
    d = CLASSES[fmt](h)
    dense = h.toarray()
    for target in (np.float32, np.float64, np.complex64, np.complex128):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            want = dense.astype(target)  # complex to real: the real part
        got = d.astype(target)
        assert got.dtype == target and got.format == fmt and np.array_equal(got.get().toarray(), want)
    assert np.array_equal(d.conj().get().toarray(), dense.conj())
    assert np.array_equal(d.conjugate().get().toarray(), dense.conj())
    assert np.array_equal(d.H.get().toarray(), dense.conj().T)
    c = d.copy()
    assert np.array_equal(c.get().toarray(), dense) and c.data.ptr != d.data.ptr
    assert np.array_equal(d.get().toarray(), dense)  # untouched


def test_products_with_mixed_types_convert_on_the_device():
    rng = np.random.default_rng(2)
    h = sp.random(12, 9, 0.3, random_state=rng, format="csr", dtype=np.float32)
    x = rng.standard_normal(9)
    X = rng.standard_normal((9, 3))
    for fmt in ("csr", "csc"):
        d = CLASSES[fmt](h)
        y = d @ rm.to_device(x)
        assert y.dtype == np.float64 and np.allclose(y.get(), h.astype(np.float64) @ x, rtol=1e-13, atol=1e-13)
        Y = d @ rm.to_device(X)
        assert Y.dtype == np.float64 and np.allclose(Y.get(), h.astype(np.float64) @ X, rtol=1e-13, atol=1e-13)
