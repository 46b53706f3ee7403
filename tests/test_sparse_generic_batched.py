"""rocmath.sparse generic API: const descriptors (``create_const_*``, ``const_*_get``) and strided batches
(``csr/csc/coo_set_strided_batch``, ``spmat/dnmat_get/set_strided_batch``, the batched spmm), against
rocSPARSE's rules (rocsparse_auxiliary.cpp, rocsparse_spmm.cpp, rocsparse_csrmm.cpp, rocsparse_coomm.cpp,
rocsparse_bellmm.cpp) and loops of scipy.sparse products.

The batched operands keep gaps between their entries and padding in their leading dimensions, inside
allocations with sentinel margins: all of it must keep its bits.  Compile budget: double and double-complex
values, the kernels of the unbatched products (a batch runs them entry by entry) and small C widths.
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
from rocmath.precision import D, Z
from rocmath.testing import assert_close, examples, scale_of, sentinel_value

MARGIN = 8
F64 = rs.Datatype.f64_r
I32 = rs.IndexType.i32


def _bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.uint8)


def _status(exc_info, status: rs.Status, arg: str | None = None, index: int | None = None) -> None:
    err = exc_info.value
    assert err.status is status
    if arg is not None:
        assert err.arg == arg
    if index is not None:
        assert err.index == index


# --- batched operands --------------------------------------------------------------------------------


class DenseBatch:
    """``count`` dense ``rows x cols`` matrices in ``order``, ``pad`` elements of padding per leading dimension and
    ``gap`` elements between entries (all holding the sentinel), inside an allocation with sentinel margins."""

    def __init__(self, xs: np.ndarray, order: rs.Order, pad: int, gap: int, dtype: rs.Datatype,
                 stride_of_one: int | None = None):
        count, rows, cols = xs.shape
        self.order, self.count, self.rows, self.cols = order, count, rows, cols
        lines, self.lead = (rows, cols) if order is rs.Order.row else (cols, rows)
        self.ld = max(1, self.lead) + pad
        self.stride = self.ld * lines + gap
        self.store = np.full(max(1, count * self.stride), sentinel_value(xs.dtype), xs.dtype)
        self.mask = np.zeros(self.store.size, bool)
        for i in range(count):
            block = self.store[i * self.stride: i * self.stride + self.ld * lines].reshape(lines, self.ld)
            block[:, : self.lead] = xs[i] if order is rs.Order.row else xs[i].T
            self.mask[i * self.stride: i * self.stride + self.ld * lines].reshape(lines, self.ld)[:, : self.lead] = True
        self.full, view = padded(self.store, MARGIN)
        self.descr = rs.create_dnmat_descr(rows, cols, self.ld, view, dtype, order)
        if count > 1:
            rs.dnmat_set_strided_batch(self.descr, count, self.stride)
        elif stride_of_one is not None:  # one entry: the stride is not used
            rs.dnmat_set_strided_batch(self.descr, 1, stride_of_one)

    def get(self) -> np.ndarray:
        """The entries; asserts that the padding, the gaps and the margins kept their bits."""
        got = self.full.get()[MARGIN: MARGIN + self.store.size]
        assert np.array_equal(_bits(got[~self.mask]), _bits(self.store[~self.mask]))
        margins_untouched(self.full, self.store.size, MARGIN)
        out = np.empty((self.count, self.rows, self.cols), self.store.dtype)
        lines = self.rows if self.order is rs.Order.row else self.cols
        for i in range(self.count):
            block = got[i * self.stride: i * self.stride + self.ld * lines].reshape(lines, self.ld)[:, : self.lead]
            out[i] = block if self.order is rs.Order.row else block.T
        return out


def random_entries(rng: np.random.Generator, count: int, m: int, k: int, nnz: int, p, duplicates: bool):
    """``count`` ``m x k`` matrices of ``nnz`` entries each (COO: duplicates allowed), as (rows, cols, vals) sorted
    by row then column."""
    out = []
    for _ in range(count):
        if duplicates:
            flat = rng.integers(0, m * k, nnz) if m * k else np.zeros(0, np.int64)
        else:
            flat = rng.choice(m * k, nnz, replace=False) if nnz else np.zeros(0, np.int64)
        rows, cols = np.divmod(np.sort(flat), max(k, 1))
        out.append((rows, cols, vec(rng, nnz, p.dtype)))
    return out


class SparseBatch:
    """A batched CSR, CSC or COO descriptor of ``entries`` (:func:`random_entries`), each entry's arrays followed
    by ``gap`` elements that hold valid but wrong offsets and indices (``base``) and NaN values: a product that
    read them would go wrong, not astray."""

    def __init__(self, fmt: str, m: int, k: int, entries, it: type, base: int, p, gap: int,
                 const: bool = False):
        self.fmt, self.shape, self.entries = fmt, (m, k), entries
        count, nnz = len(entries), entries[0][2].size
        ptrs, inds, vals = [], [], []
        for rows, cols, val in entries:
            if fmt == "coo":
                ptrs.append(rows + base)
                inds.append(cols + base)
                vals.append(val)
                continue
            a = sp.csr_matrix((val, (rows, cols)), shape=(m, k)) if fmt == "csr" else \
                sp.csc_matrix((val, (rows, cols)), shape=(m, k))
            a.sort_indices()
            ptrs.append(a.indptr + base)
            inds.append(a.indices + base)
            vals.append(a.data)
        nan = sentinel_value(p.dtype)
        self.ptr_len = ptrs[0].size
        self.ptr_stride, self.val_stride = self.ptr_len + gap, nnz + gap

        def stack(parts, fill, stride, dtype):
            out = np.full(max(1, count * stride), fill, dtype)
            for i, part in enumerate(parts):
                out[i * stride: i * stride + part.size] = part
            return out

        self.host = (stack(ptrs, base, self.ptr_stride, it), stack(inds, base, self.val_stride, it),
                     stack(vals, nan, self.val_stride, p.dtype))
        self.arrays = [rm.to_device(x) for x in self.host]
        itype, dt = rs.IndexType.of(it), rs.Datatype.of(p.dtype)
        if fmt == "coo":
            make = rs.create_const_coo_descr if const else rs.create_coo_descr
            self.descr = make(m, k, nnz, *self.arrays, itype, base, dt)
        else:
            make = {("csr", False): rs.create_csr_descr, ("csr", True): rs.create_const_csr_descr,
                    ("csc", False): rs.create_csc_descr, ("csc", True): rs.create_const_csc_descr}[fmt, const]
            self.descr = make(m, k, nnz, *self.arrays, itype, itype, base, dt)
        if count > 1 and not const:
            if fmt == "coo":
                rs.coo_set_strided_batch(self.descr, count, self.val_stride)
            elif fmt == "csr":
                rs.csr_set_strided_batch(self.descr, count, self.ptr_stride, self.val_stride)
            else:
                rs.csc_set_strided_batch(self.descr, count, self.ptr_stride, self.val_stride)

    def scipy(self, i: int) -> sp.spmatrix:
        rows, cols, val = self.entries[i]
        return sp.coo_matrix((val, (rows, cols)), shape=self.shape)

    def untouched(self) -> None:
        for d, h in zip(self.arrays, self.host, strict=True):
            assert np.array_equal(_bits(d.get()), _bits(h))


def stored(opb: np.ndarray, trans: rs.Operation) -> np.ndarray:
    """B as stored, given op(B)."""
    return opb if trans is rs.Operation.none else (opb.T if trans is rs.Operation.transpose else opb.conj().T)


# --- const descriptors -------------------------------------------------------------------------------


def test_const_sparse_descriptors_round_trip_their_getters():
    rng = np.random.default_rng(1)
    a = sp.random(4, 5, density=0.5, format="csr", random_state=rng)
    ptr, ind, val = (rm.to_device(x) for x in (a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data))
    args = (4, 5, a.nnz, ptr, ind, val, I32, I32, rs.IndexBase.zero, F64)
    for make, const_make, get, const_get in (
            (rs.create_csr_descr, rs.create_const_csr_descr, rs.csr_get, rs.const_csr_get),
            (rs.create_csc_descr, rs.create_const_csc_descr, rs.csc_get, rs.const_csc_get)):
        mutable, const = make(*args), const_make(*args)
        assert const_get(const) == get(mutable) == const_get(mutable)
        # rocSPARSE's create_const_* leave the mutable data pointers null: the mutable getter returns them so
        assert get(const) == tuple(None if isinstance(x, rm.DeviceArray) else x for x in get(mutable))
        assert rs.spmat_get_values(const) is None and rs.const_spmat_get_values(const) is val
        assert rs.spmat_get_size(const) == rs.spmat_get_size(mutable)
        assert rs.spmat_get_format(const) is rs.spmat_get_format(mutable)
        assert rs.spmat_get_index_base(const) is rs.IndexBase.zero and rs.spmat_get_nnz(const) == a.nnz
        assert rs.spmat_get_attribute(const, rs.SpMatAttribute.fill_mode) is rs.FillMode.lower
        assert rs.spmat_get_strided_batch(const) == 1
        rs.destroy_spmat_descr(const)
    coo_args = (4, 5, a.nnz, ind, ind, val, I32, rs.IndexBase.one, F64)
    mutable, const = rs.create_coo_descr(*coo_args), rs.create_const_coo_descr(*coo_args)
    assert rs.const_coo_get(const) == rs.coo_get(mutable) == rs.const_coo_get(mutable)
    assert rs.coo_get(const)[3:6] == (None, None, None)
    cols, blocks = rm.to_device(np.zeros(4, np.int32)), rm.to_device(np.ones(16))
    bell_args = (4, 4, rs.Direction.column, 2, 2, cols, blocks, I32, rs.IndexBase.zero, F64)
    mutable, const = rs.create_bell_descr(*bell_args), rs.create_const_bell_descr(*bell_args)
    assert rs.const_bell_get(const) == rs.bell_get(mutable)
    assert rs.bell_get(const)[5:7] == (None, None)
    # the formats without a const creator: their const getters on mutable descriptors
    aos = rs.create_coo_aos_descr(4, 5, 2, ind, val, I32, 0, F64)
    assert rs.const_coo_aos_get(aos) == rs.coo_aos_get(aos)
    ell = rs.create_ell_descr(2, 3, ind, val, 1, I32, 0, F64)
    assert rs.const_ell_get(ell) == rs.ell_get(ell)
    bsr = rs.create_bsr_descr(2, 2, 1, rs.Direction.row, 2, ptr, ind, val, I32, I32, 0, F64)
    assert rs.const_bsr_get(bsr) == rs.bsr_get(bsr)


def test_const_dense_and_sparse_vector_descriptors_round_trip():
    v = rm.to_device(np.arange(6.0))
    for make, const_make, get, const_get, get_values, const_get_values, args in (
            (rs.create_dnvec_descr, rs.create_const_dnvec_descr, rs.dnvec_get, rs.const_dnvec_get,
             rs.dnvec_get_values, rs.const_dnvec_get_values, (6, v, F64)),
            (rs.create_dnmat_descr, rs.create_const_dnmat_descr, rs.dnmat_get, rs.const_dnmat_get,
             rs.dnmat_get_values, rs.const_dnmat_get_values, (2, 3, 2, v, F64, rs.Order.column)),
            (rs.create_spvec_descr, rs.create_const_spvec_descr, rs.spvec_get, rs.const_spvec_get,
             rs.spvec_get_values, rs.const_spvec_get_values, (9, 6, v, v, I32, rs.IndexBase.zero, F64))):
        mutable, const = make(*args), const_make(*args)
        assert const_get(const) == get(mutable) == const_get(mutable)
        assert get(const) == tuple(None if x is v else x for x in get(mutable))
        assert get_values(const) is None and const_get_values(const) is v and get_values(mutable) is v
    const = rs.create_const_dnmat_descr(2, 3, 2, v, F64, rs.Order.column)
    assert rs.dnmat_get_strided_batch(const) == (1, 0)
    rs.destroy_dnmat_descr(const)


def test_const_creators_check_in_rocsparse_order():
    v = rm.to_device(np.ones(4))
    # the mutable dnmat checks data_type and order before ld, the const one ld first (rocsparse_auxiliary.cpp)
    with pytest.raises(rs.SparseError) as e:
        rs.create_dnmat_descr(2, 2, 1, v, 99, rs.Order.column)
    _status(e, rs.Status.invalid_value, "data_type", 6)
    with pytest.raises(rs.SparseError) as e:
        rs.create_const_dnmat_descr(2, 2, 1, v, 99, rs.Order.column)
    _status(e, rs.Status.invalid_size, "ld", 4)
    with pytest.raises(rs.SparseError) as e:  # an invalid order: no ld check, then its own check comes last
        rs.create_const_dnmat_descr(2, 2, 1, v, F64, 7)
    _status(e, rs.Status.invalid_value, "order", 7)
    with pytest.raises(rs.SparseError) as e:
        rs.create_const_dnmat_descr(2, 2, 2, None, F64, rs.Order.row)
    _status(e, rs.Status.invalid_pointer, "values", 5)
    # blocked ELL: the const descriptor's arrays are checked against rows * ell_cols * ell_block_dim
    rs.create_const_bell_descr(0, 4, rs.Direction.row, 2, 2, None, None, I32, 0, F64)
    with pytest.raises(rs.SparseError) as e:
        rs.create_bell_descr(0, 4, rs.Direction.row, 2, 2, None, None, I32, 0, F64)
    _status(e, rs.Status.invalid_pointer, "ell_col_ind", 7)
    for make, args, arg, index in ((rs.create_const_csr_descr, (2, 2, 5, v, v, v, I32, I32, 0, F64), "nnz", 4),
                                   (rs.create_const_coo_descr, (2, 2, 1, v, None, v, I32, 0, F64), "coo_col_ind", 6),
                                   (rs.create_const_dnvec_descr, (-1, v, F64), "size", 2),
                                   (rs.create_const_spvec_descr, (2, 3, v, v, I32, 0, F64), "nnz", 3)):
        with pytest.raises(rs.SparseError) as e:
            make(*args)
        assert e.value.arg == arg and e.value.index == index


def _small_csr(const: bool):
    a = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0], [4, 5, 0], [0, 0, 6]]))
    arrays = [rm.to_device(x) for x in (a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data)]
    make = rs.create_const_csr_descr if const else rs.create_csr_descr
    return a, make(4, 3, a.nnz, *arrays, I32, I32, 0, F64), arrays


@pytest.mark.parametrize("trans", [rs.Operation.none, rs.Operation.transpose])
def test_const_inputs_give_the_mutable_descriptors_bits(trans):
    rng = np.random.default_rng(2)
    h = rs.create_handle()
    a, mutable, _keep = _small_csr(False)
    _, const, _keep2 = _small_csr(True)
    xlen, ylen = (3, 4) if trans is rs.Operation.none else (4, 3)
    xh, y0 = rng.standard_normal(xlen), rng.standard_normal(ylen)
    dx = rm.to_device(xh)
    results = []
    for A, X in ((mutable, rs.create_dnvec_descr(xlen, dx, F64)), (const, rs.create_const_dnvec_descr(xlen, dx, F64))):
        dy = rm.to_device(y0)
        Y = rs.create_dnvec_descr(ylen, dy, F64)
        size = rs.spmv(h, trans, 1.5, A, X, -0.5, Y, F64, rs.SpMVAlg.default, rs.SpMVStage.buffer_size)
        temp = rm.empty(size, np.uint8) if size else None
        rs.spmv(h, trans, 1.5, A, X, -0.5, Y, F64, rs.SpMVAlg.default, rs.SpMVStage.preprocess, temp_buffer=temp)
        rs.spmv(h, trans, 1.5, A, X, -0.5, Y, F64, rs.SpMVAlg.default, rs.SpMVStage.compute, temp_buffer=temp)
        results.append(dy.get())
    assert np.array_equal(_bits(results[0]), _bits(results[1]))
    assert_close(results[0], 1.5 * (OPS[trans](a) @ xh) - 0.5 * y0, D, "reduction", 4,
                 scale=product_scale(D, 1.5, OPS[trans](a), xh, 0.5, y0))
    bh, c0 = rng.standard_normal((xlen, 2)), rng.standard_normal((ylen, 2))
    db = rm.to_device(bh.ravel())
    results = []
    for A, Bd in ((mutable, rs.create_dnmat_descr(xlen, 2, 2, db, F64, rs.Order.row)),
                  (const, rs.create_const_dnmat_descr(xlen, 2, 2, db, F64, rs.Order.row))):
        dc = rm.to_device(c0.ravel())
        Cd = rs.create_dnmat_descr(ylen, 2, 2, dc, F64, rs.Order.row)
        args = (h, trans, rs.Operation.none, 2.0, A, Bd, 1.0, Cd, F64, rs.SpMMAlg.default)
        size = rs.spmm(*args, rs.SpMMStage.buffer_size)
        temp = rm.empty(size, np.uint8) if size else None
        rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=temp)
        results.append(dc.get())
    assert np.array_equal(_bits(results[0]), _bits(results[1]))
    assert_close(results[0].reshape(ylen, 2), 2.0 * (OPS[trans](a) @ bh) + c0, D, "reduction", 4,
                 scale=product_scale(D, 2.0, OPS[trans](a), bh, 1.0, c0))


def test_const_sparse_vector_and_matrix_inputs_of_the_other_routines():
    h = rs.create_handle()
    a, const, _keep = _small_csr(True)
    out = rm.to_device(np.full(12, np.nan))
    B = rs.create_dnmat_descr(4, 3, 3, out, F64, rs.Order.row)
    rs.sparse_to_dense(h, const, B, rs.SparseToDenseAlg.default, None, rm.empty(4, np.uint8))
    assert np.array_equal(out.get().reshape(4, 3), a.toarray())
    ind, val = rm.to_device(np.array([0, 2], np.int32)), rm.to_device(np.array([2.0, -1.0]))
    x = rs.create_const_spvec_descr(3, 2, ind, val, I32, 0, F64)
    y = rs.create_const_dnvec_descr(3, rm.to_device(np.array([1.0, 5.0, 7.0])), F64)
    result = np.zeros(1)
    assert rs.spvv(h, rs.Operation.none, x, y, result, F64, None, rm.empty(4, np.uint8)) == 2.0 - 7.0
    dy = rm.to_device(np.zeros(3))
    rs.axpby(h, 1.0, x, 0.0, rs.create_dnvec_descr(3, dy, F64))
    assert np.array_equal(dy.get(), [2.0, 0.0, -1.0])


def test_const_descriptors_are_refused_where_rocsparse_writes():
    h = rs.create_handle()
    _, A, _keep = _small_csr(False)
    _, cA, _keep2 = _small_csr(True)
    v = rm.to_device(np.ones(12))
    y_before = v.get()
    x = rs.create_dnvec_descr(3, v, F64)
    cy = rs.create_const_dnvec_descr(4, v, F64)
    refusals = [
        (lambda: rs.spmv(h, "N", 1.0, A, x, 0.0, cy, F64, rs.SpMVAlg.default, rs.SpMVStage.compute), "y", 7),
        (lambda: rs.spmv(h, "N", 1.0, A, x, 0.0, cy, F64, rs.SpMVAlg.default, rs.SpMVStage.buffer_size), "y", 7),
        (lambda: rs.spmm(h, "N", "N", 1.0, A, rs.create_dnmat_descr(3, 1, 1, v, F64, rs.Order.row), 0.0,
                         rs.create_const_dnmat_descr(4, 1, 1, v, F64, rs.Order.row), F64, rs.SpMMAlg.default,
                         rs.SpMMStage.compute), "mat_C", 8),
        (lambda: rs.spsv(h, "N", 1.0, A, x, cy, F64, rs.SpSVAlg.default, rs.SpSVStage.buffer_size), "y", 6),
        (lambda: rs.spsm(h, "N", "N", 1.0, A, rs.create_dnmat_descr(4, 1, 1, v, F64, rs.Order.row),
                         rs.create_const_dnmat_descr(4, 1, 1, v, F64, rs.Order.row), F64, rs.SpSMAlg.default,
                         rs.SpSMStage.buffer_size), "matC", 7),
        (lambda: rs.sddmm(h, "N", "N", 1.0, rs.create_dnmat_descr(4, 1, 1, v, F64, rs.Order.row),
                          rs.create_dnmat_descr(1, 3, 3, v, F64, rs.Order.row), 0.0, cA, F64,
                          rs.SDDMMAlg.default), "C", 8),
        (lambda: rs.sddmm_buffer_size(h, "N", "N", 1.0, rs.create_dnmat_descr(4, 1, 1, v, F64, rs.Order.row),
                                      rs.create_dnmat_descr(1, 3, 3, v, F64, rs.Order.row), 0.0, cA, F64,
                                      rs.SDDMMAlg.default), "C", 8),
        (lambda: rs.spgemm(h, "N", "N", 1.0, A, A, None, A, cA, F64, rs.SpGEMMAlg.default,
                           rs.SpGEMMStage.buffer_size), "C", 9),
        (lambda: rs.sparse_to_dense(h, A, rs.create_const_dnmat_descr(4, 3, 3, v, F64, rs.Order.row),
                                    rs.SparseToDenseAlg.default, None, v), "mat_B", 3),
        (lambda: rs.dense_to_sparse(h, rs.create_dnmat_descr(4, 3, 3, v, F64, rs.Order.row), cA,
                                    rs.DenseToSparseAlg.default, None, v), "mat_B", 3),
    ]
    sx = rs.create_const_spvec_descr(3, 1, rm.to_device(np.zeros(1, np.int32)), v, I32, 0, F64)
    mx = rs.create_spvec_descr(3, 1, rm.to_device(np.zeros(1, np.int32)), v, I32, 0, F64)
    refusals += [(lambda: rs.axpby(h, 1.0, mx, 1.0, cy), "y", 5), (lambda: rs.gather(h, x, sx), "x", 3),
                 (lambda: rs.scatter(h, sx, cy), "y", 3), (lambda: rs.rot(h, 1.0, 0.5, sx, x), "x", 4),
                 (lambda: rs.rot(h, 1.0, 0.5, mx, cy), "y", 5)]
    for call, arg, index in refusals:
        with pytest.raises(rs.SparseError) as e:
            call()
        _status(e, rs.Status.invalid_pointer, arg, index)
        assert "const" in str(e.value)
    rm.device_synchronize()
    assert np.array_equal(v.get(), y_before)
    # the setters take rocSPARSE's mutable descriptor types
    cd = rs.create_const_dnmat_descr(4, 1, 1, v, F64, rs.Order.row)
    for call in (lambda: rs.csr_set_pointers(cA, *_keep), lambda: rs.spmat_set_values(cA, v),
                 lambda: rs.spmat_set_nnz(cA, 1), lambda: rs.spmat_set_attribute(cA, rs.SpMatAttribute.fill_mode,
                                                                                  rs.FillMode.upper),
                 lambda: rs.csr_set_strided_batch(cA, 2, 5, 6), lambda: rs.spmat_set_strided_batch(cA, 2),
                 lambda: rs.coo_set_strided_batch(cA, 2, 6), lambda: rs.csc_set_strided_batch(cA, 2, 5, 6),
                 lambda: rs.dnvec_set_values(cy, v), lambda: rs.dnmat_set_values(cd, v),
                 lambda: rs.dnmat_set_strided_batch(cd, 2, 4), lambda: rs.spvec_set_values(sx, v)):
        with pytest.raises(rs.SparseError) as e:
            call()
        _status(e, rs.Status.invalid_pointer, "descr", 1)
    assert rs.const_csr_get(cA)[3:6] == tuple(_keep2)
    assert rs.spmat_get_strided_batch(cA) == 1 and rs.dnmat_get_strided_batch(cd) == (1, 0)


# --- strided-batch setters and getters ----------------------------------------------------------------


def test_strided_batch_setters_round_trip_and_check_as_rocsparse():
    _, A, _keep = _small_csr(False)
    assert rs.spmat_get_strided_batch(A) == 1
    assert (A.batch_stride, A.offsets_batch_stride, A.columns_values_batch_stride) == (0, 0, 0)
    rs.csr_set_strided_batch(A, 3, 5, 7)
    assert rs.spmat_get_strided_batch(A) == 3
    assert (A.offsets_batch_stride, A.columns_values_batch_stride, A.batch_stride) == (5, 7, 0)
    rs.spmat_set_strided_batch(A, 2)  # the count alone
    assert rs.spmat_get_strided_batch(A) == 2 and (A.offsets_batch_stride, A.columns_values_batch_stride) == (5, 7)
    rs.coo_set_strided_batch(A, 4, 9)  # no format check, as rocSPARSE: a CSR product never reads batch_stride
    assert (A.batch_count, A.batch_stride) == (4, 9)
    rs.csc_set_strided_batch(A, 1, 0, 0)
    assert (A.batch_count, A.offsets_batch_stride, A.columns_values_batch_stride) == (1, 0, 0)
    for call, arg, index in ((lambda: rs.csr_set_strided_batch(A, 0, 1, 1), "batch_count", 2),
                             (lambda: rs.csr_set_strided_batch(A, 2, -1, 1), "offsets_batch_stride", 3),
                             (lambda: rs.csr_set_strided_batch(A, 2, 1, -1), "columns_values_batch_stride", 4),
                             (lambda: rs.csc_set_strided_batch(A, 2, 1, -3), "rows_values_batch_stride", 4),
                             (lambda: rs.coo_set_strided_batch(A, -2, 1), "batch_count", 2),
                             (lambda: rs.coo_set_strided_batch(A, 2, -1), "batch_stride", 3),
                             (lambda: rs.spmat_set_strided_batch(A, 0), "batch_count", 2),
                             (lambda: rs.spmat_set_strided_batch(A, 2**31), "batch_count", 2),
                             (lambda: rs.spmat_set_strided_batch(None, 2), "descr", 1)):
        with pytest.raises(rs.SparseError) as e:
            call()
        _status(e, rs.Status.invalid_pointer if arg == "descr" else rs.Status.invalid_value, arg, index)
    assert (A.batch_count, A.offsets_batch_stride, A.columns_values_batch_stride) == (1, 0, 0)
    v = rm.to_device(np.zeros(64))
    col = rs.create_dnmat_descr(3, 4, 5, v, F64, rs.Order.column)  # an entry spans ld * cols = 20
    row = rs.create_dnmat_descr(3, 4, 6, v, F64, rs.Order.row)  # ld * rows = 18
    assert rs.dnmat_get_strided_batch(col) == (1, 0)
    rs.dnmat_set_strided_batch(col, 3, 20)
    rs.dnmat_set_strided_batch(row, 3, 18)
    assert rs.dnmat_get_strided_batch(col) == (3, 20) and rs.dnmat_get_strided_batch(row) == (3, 18)
    rs.dnmat_set_strided_batch(col, 1, 2)  # one entry: any stride
    assert rs.dnmat_get_strided_batch(col) == (1, 2)
    for call, arg in ((lambda: rs.dnmat_set_strided_batch(col, 2, 19), "batch_stride"),
                      (lambda: rs.dnmat_set_strided_batch(row, 2, 17), "batch_stride"),
                      (lambda: rs.dnmat_set_strided_batch(row, 2, -1), "batch_stride"),
                      (lambda: rs.dnmat_set_strided_batch(row, 0, 18), "batch_count")):
        with pytest.raises(rs.SparseError) as e:
            call()
        _status(e, rs.Status.invalid_value, arg)
    assert rs.dnmat_get_strided_batch(row) == (3, 18)


# --- batched spmm ------------------------------------------------------------------------------------


@st.composite
def batched_problems(draw):
    fmt = draw(st.sampled_from(["csr", "csc", "coo"]))
    mode = draw(st.sampled_from(["A_Bi", "Ai_B", "Ai_Bi"]))
    count = draw(st.sampled_from([1, 2, 3]))
    return dict(fmt=fmt, mode=mode, count=count, p=draw(st.sampled_from([D, Z])),
                m=draw(st.sampled_from([0, 1, 4, 7])), k=draw(st.sampled_from([0, 1, 5])),
                n=draw(st.sampled_from([0, 1, 3])), fill=draw(st.sampled_from([0.0, 0.4, 1.0])),
                base=draw(st.sampled_from([0, 1])), itype=draw(st.sampled_from([np.int32, np.int64])),
                trans_a=draw(st.sampled_from(list(rs.Operation))), trans_b=draw(st.sampled_from(list(rs.Operation))),
                order_b=draw(st.sampled_from(list(rs.Order))), order_c=draw(st.sampled_from(list(rs.Order))),
                pad=draw(st.sampled_from([0, 2])), gap=draw(st.sampled_from([0, 3])),
                alpha=draw(st.sampled_from([1.5 - 0.5j, 0.0])), beta=draw(st.sampled_from([0.0, 1.0, -0.5 + 0.25j])),
                alg=draw(st.sampled_from(["default", "other"])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


_ALGS = {"csr": rs.SpMMAlg.csr_row_split, "csc": rs.SpMMAlg.csr_merge_path, "coo": rs.SpMMAlg.coo_segmented}


@settings(max_examples=examples(60), derandomize=True, deadline=None)
@given(batched_problems())
def test_batched_spmm_matches_a_loop_of_scipy_products(q):
    p, m, k, n, count = q["p"], q["m"], q["k"], q["n"], q["count"]
    rng = np.random.default_rng(q["seed"])
    count_a = 1 if q["mode"] == "A_Bi" else count
    count_b = 1 if q["mode"] == "Ai_B" else count
    dtype = rs.Datatype.of(p.dtype)
    nnz = int(q["fill"] * m * k)
    A = SparseBatch(q["fmt"], m, k, random_entries(rng, count_a, m, k, nnz, p, q["fmt"] == "coo"), q["itype"],
                    q["base"], p, q["gap"])
    crows, kdim = (m, k) if q["trans_a"] is rs.Operation.none else (k, m)
    opbs = np.stack([vec(rng, kdim * n, p.dtype).reshape(kdim, n) for _ in range(count_b)])
    c0 = np.stack([vec(rng, crows * n, p.dtype).reshape(crows, n) for _ in range(count)])
    a_, b_ = scalar(p, q["alpha"]), scalar(p, q["beta"])
    if b_ == 0:
        c0[:] = np.nan  # beta == 0 never reads C
    B = DenseBatch(np.stack([stored(x, q["trans_b"]) for x in opbs]), q["order_b"], q["pad"], q["gap"], dtype,
                   stride_of_one=7)
    C = DenseBatch(c0, q["order_c"], q["pad"], q["gap"], dtype)
    h = rs.create_handle()
    alpha, beta, _keep = _scalars(h, p, q["device_mode"], q["alpha"], q["beta"])
    alg = rs.SpMMAlg.default if q["alg"] == "default" else _ALGS[q["fmt"]]
    args = (h, q["trans_a"], q["trans_b"], alpha, A.descr, B.descr, beta, C.descr, dtype, alg)
    out = np.zeros(1, np.int64)
    need = rs.spmm(*args, rs.SpMMStage.buffer_size, out)
    assert need == out[0]
    temp = rm.empty(need, np.uint8) if need else None  # exactly the size: an overrun faults
    assert rs.spmm(*args, rs.SpMMStage.preprocess, temp_buffer=temp) == need
    assert rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=temp) == need
    got = C.get()
    B.get()
    A.untouched()
    if a_ == 0 and b_ == 1 and not q["device_mode"]:
        assert np.array_equal(_bits(got), _bits(c0))  # host alpha == 0, beta == 1: C untouched
        return
    for i in range(count):
        opa = OPS[q["trans_a"]](A.scipy(i if count_a > 1 else 0))
        product = opa @ opbs[i if count_b > 1 else 0]
        expected = (b_ * c0[i] if b_ != 0 else np.zeros_like(c0[i])) + a_ * product
        scale = product_scale(p, a_, opa, opbs[i if count_b > 1 else 0], b_, c0[i])
        assert_close(got[i], np.asarray(expected, p.dtype), p, "reduction", max(1, m, k), scale=scale)


@pytest.mark.parametrize("fmt,trans_a,trans_b,mode", [
    ("csr", rs.Operation.none, rs.Operation.none, "Ai_Bi"),
    ("csr", rs.Operation.conjugate_transpose, rs.Operation.transpose, "A_Bi"),
    ("csc", rs.Operation.conjugate_transpose, rs.Operation.none, "Ai_B"),
    ("csc", rs.Operation.none, rs.Operation.conjugate_transpose, "Ai_Bi"),
    ("coo", rs.Operation.none, rs.Operation.none, "Ai_B"),
    ("coo", rs.Operation.transpose, rs.Operation.none, "Ai_Bi"),
])
def test_batched_spmm_is_bitwise_the_product_of_each_entry(fmt, trans_a, trans_b, mode):
    """Each entry of a batch equals, bit for bit, the same spmm on that entry alone (the same kernels run)."""
    p, m, k, n, count = Z, 9, 6, 3, 3
    rng = np.random.default_rng(7)
    dtype = rs.Datatype.of(p.dtype)
    count_a = 1 if mode == "A_Bi" else count
    count_b = 1 if mode == "Ai_B" else count
    entries = random_entries(rng, count_a, m, k, 20, p, fmt == "coo")
    A = SparseBatch(fmt, m, k, entries, np.int64, 1, p, 2)
    crows, kdim = (m, k) if trans_a is rs.Operation.none else (k, m)
    bs = np.stack([vec(rng, kdim * n, p.dtype).reshape(kdim, n) for _ in range(count_b)])
    c0 = np.stack([vec(rng, crows * n, p.dtype).reshape(crows, n) for _ in range(count)])
    B = DenseBatch(np.stack([stored(x, trans_b) for x in bs]), rs.Order.column, 1, 2, dtype)
    C = DenseBatch(c0, rs.Order.row, 0, 1, dtype)
    h = rs.create_handle()
    alpha, beta = 0.75 + 0.5j, -1.25 + 0.0j
    args = (h, trans_a, trans_b, alpha, A.descr, B.descr, beta, C.descr, dtype, rs.SpMMAlg.default)
    need = rs.spmm(*args, rs.SpMMStage.buffer_size)
    temp = rm.empty(need, np.uint8) if need else None
    rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=temp)
    batched = C.get()
    for i in range(count):
        Ai = SparseBatch(fmt, m, k, [entries[i if count_a > 1 else 0]], np.int64, 1, p, 0)
        Bi = DenseBatch(stored(bs[i if count_b > 1 else 0], trans_b)[None], rs.Order.column, 1, 0, dtype)
        Ci = DenseBatch(c0[i][None], rs.Order.row, 0, 0, dtype)
        one = (h, trans_a, trans_b, alpha, Ai.descr, Bi.descr, beta, Ci.descr, dtype, rs.SpMMAlg.default)
        rs.spmm(*one, rs.SpMMStage.compute, temp_buffer=temp)
        assert np.array_equal(_bits(Ci.get()[0]), _bits(batched[i]))


class _I8:
    """The precision-like object :class:`SparseBatch` takes, for int8 values."""

    dtype = np.dtype(np.int8)


def test_batched_spmm_in_mixed_precision():
    """int8 A and B into int32 C, batched (the operands are converted into the compute type first)."""
    rng = np.random.default_rng(3)
    m, k, n, count, nnz = 5, 4, 2, 2, 9
    entries = [(rows, cols, rng.integers(-3, 4, nnz).astype(np.int8))
               for rows, cols, _ in random_entries(rng, count, m, k, nnz, D, False)]
    A = SparseBatch("csr", m, k, entries, np.int32, 0, _I8, 1)
    bs = rng.integers(-5, 6, (count, k, n)).astype(np.int8)
    B = DenseBatch(bs, rs.Order.row, 0, 0, rs.Datatype.i8_r)
    C = DenseBatch(np.ones((count, m, n), np.int32), rs.Order.column, 1, 1, rs.Datatype.i32_r)
    h = rs.create_handle()
    args = (h, "N", "N", np.int32(2), A.descr, B.descr, np.int32(3), C.descr, rs.Datatype.i32_r, rs.SpMMAlg.default)
    rs.spmm(*args, rs.SpMMStage.compute)
    got = C.get()
    for i in range(count):
        dense = A.scipy(i).toarray().astype(np.int64)
        assert np.array_equal(got[i], 2 * (dense @ bs[i].astype(np.int64)) + 3)


def _batched_operands(count_a: int, count_b: int, count_c: int, m: int = 4, k: int = 3, n: int = 2):
    rng = np.random.default_rng(5)
    entries = random_entries(rng, count_a, m, k, min(5, m * k), D, False)
    A = SparseBatch("csr", m, k, entries, np.int32, 0, D, 0)
    B = DenseBatch(rng.standard_normal((count_b, k, n)), rs.Order.row, 0, 0, F64)
    C = DenseBatch(rng.standard_normal((count_c, m, n)), rs.Order.row, 0, 0, F64)
    return A, B, C


@pytest.mark.parametrize("counts,arg", [((1, 10, 5), "mat_C"), ((10, 1, 5), "mat_C"), ((10, 10, 5), "mat_A"),
                                        ((2, 3, 3), "mat_A"), ((1, 1, 2), "mat_C")])
@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_inconsistent_batch_counts_are_invalid_value_at_compute(counts, arg, fmt):
    """rocSPARSE's spmm_batched_*_bad_arg cases: invalid_value at the compute stage (the buffer size and the
    preprocess stage do not look at the batches); C keeps its bits."""
    A, B, C = _batched_operands(*counts)
    if fmt == "coo":
        rows, cols, val = A.entries[0]
        keep = [rm.to_device(x) for x in (rows.astype(np.int32), cols.astype(np.int32), val)]
        A = rs.create_coo_descr(4, 3, val.size, *keep, I32, 0, F64)
        rs.coo_set_strided_batch(A, counts[0], 0)
    else:
        A = A.descr
    before = C.get()
    h = rs.create_handle()
    args = (h, "N", "N", 1.0, A, B.descr, 0.0, C.descr, F64, rs.SpMMAlg.default)
    assert rs.spmm(*args, rs.SpMMStage.buffer_size) == 0
    rs.spmm(*args, rs.SpMMStage.preprocess)
    with pytest.raises(rs.SparseError) as e:
        rs.spmm(*args, rs.SpMMStage.compute)
    _status(e, rs.Status.invalid_value, arg, 5 if arg == "mat_A" else 8)
    assert np.array_equal(_bits(C.get()), _bits(before))


def test_batch_counts_are_checked_after_the_quick_returns():
    """As csrmm_template: an m, n or k of 0 scales every entry of C (batch_count_C of them), and host alpha 0
    with beta 1 returns, both before the batch modes are checked."""
    h = rs.create_handle()
    A, B, C = _batched_operands(1, 2, 3, k=0)  # k == 0: inconsistent counts, but a quick return
    before = C.get()
    rs.spmm(h, "N", "N", 1.0, A.descr, B.descr, -2.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
    assert np.array_equal(C.get(), -2.0 * before)
    A, B, C = _batched_operands(1, 2, 3)
    before = C.get()
    rs.spmm(h, "N", "N", 0.0, A.descr, B.descr, 1.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
    assert np.array_equal(_bits(C.get()), _bits(before))
    # an A without entries (nnz 0) is no quick return: the counts are checked, then C_i := beta C_i
    rng = np.random.default_rng(0)
    A = rs.create_csr_descr(4, 3, 0, rm.to_device(np.zeros(4 * 5, np.int32)), None, None, I32, I32, 0, F64)
    rs.csr_set_strided_batch(A, 2, 5, 0)
    B = DenseBatch(rng.standard_normal((1, 3, 2)), rs.Order.row, 0, 0, F64)
    C = DenseBatch(np.full((2, 4, 2), np.nan), rs.Order.column, 1, 2, F64)
    rs.spmm(h, "N", "N", 1.0, A, B.descr, 0.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
    assert np.array_equal(C.get(), np.zeros((2, 4, 2)))
    rs.spmat_set_strided_batch(A, 3)
    with pytest.raises(rs.SparseError) as e:
        rs.spmm(h, "N", "N", 1.0, A, B.descr, 0.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
    _status(e, rs.Status.invalid_value, "mat_C", 8)


def test_blocked_formats_refuse_batches():
    """Blocked ELL: rocsparse_bellmm's invalid_value for any batch count but 1 (A, B, then C); BSR: rocSPARSE has
    no check and computes entry 0 only: not_implemented."""
    h = rs.create_handle()
    cols, blocks = rm.to_device(np.zeros(2, np.int32)), rm.to_device(np.ones(8))
    bell = rs.create_bell_descr(4, 2, rs.Direction.row, 2, 2, cols, blocks, I32, 0, F64)
    ptr = rm.to_device(np.array([0, 1, 2], np.int32))
    bsr = rs.create_bsr_descr(2, 1, 2, rs.Direction.row, 2, ptr, cols, blocks, I32, I32, 0, F64)
    vb, vc = rm.to_device(np.ones(16)), rm.to_device(np.ones(32))
    for A, status in ((bell, rs.Status.invalid_value), (bsr, rs.Status.not_implemented)):
        for batched, arg, index in (("A", "mat_A", 5), ("B", "mat_B", 6), ("C", "mat_C", 8)):
            B = rs.create_dnmat_descr(2, 2, 2, vb, F64, rs.Order.row)
            C = rs.create_dnmat_descr(4, 2, 2, vc, F64, rs.Order.row)
            rs.spmat_set_strided_batch(A, 2 if batched == "A" else 1)
            if batched == "B":
                rs.dnmat_set_strided_batch(B, 2, 4)
            if batched == "C":
                rs.dnmat_set_strided_batch(C, 2, 8)
            args = (h, "N", "N", 1.0, A, B, 0.0, C, F64, rs.SpMMAlg.default)
            assert rs.spmm(*args, rs.SpMMStage.buffer_size) == 0
            with pytest.raises(rs.SparseError) as e:
                rs.spmm(*args, rs.SpMMStage.compute)
            _status(e, status, arg, index)
        rs.spmat_set_strided_batch(A, 1)
    assert np.array_equal(vc.get(), np.ones(32))


def test_spmv_and_sddmm_use_entry_zero_of_a_batched_descriptor():
    """rocSPARSE's spmv and sddmm pass no batch arguments to their kernels: a batched descriptor is its entry 0."""
    rng = np.random.default_rng(4)
    m, k = 5, 4
    entries = random_entries(rng, 2, m, k, 8, D, False)
    A = SparseBatch("csr", m, k, entries, np.int32, 0, D, 1)
    assert rs.spmat_get_strided_batch(A.descr) == 2
    xh = rng.standard_normal(k)
    dy = rm.to_device(np.zeros(m))
    h = rs.create_handle()
    args = (h, "N", 1.0, A.descr, rs.create_dnvec_descr(k, rm.to_device(xh), F64), 0.0,
            rs.create_dnvec_descr(m, dy, F64), F64, rs.SpMVAlg.default)
    rs.spmv(*args, rs.SpMVStage.preprocess)
    rs.spmv(*args, rs.SpMVStage.compute)
    assert_close(dy.get(), A.scipy(0) @ xh, D, "reduction", k, scale=product_scale(D, 1.0, A.scipy(0), xh, None, None))
    X = DenseBatch(rng.standard_normal((2, m, 2)), rs.Order.row, 0, 0, F64)
    Y = DenseBatch(rng.standard_normal((2, 2, k)), rs.Order.row, 0, 0, F64)
    C = SparseBatch("csr", m, k, entries, np.int32, 0, D, 1)
    rs.sddmm(h, "N", "N", 1.0, X.descr, Y.descr, 0.0, C.descr, F64, rs.SDDMMAlg.default)
    vals = C.arrays[2].get()
    rows, cols, _ = entries[0]
    full = X.get()[0] @ Y.get()[0]
    assert_close(vals[: rows.size], full[rows, cols], D, "reduction", 2,
                 scale=scale_of(D, (np.abs(X.get()[0]) @ np.abs(Y.get()[0]))[rows, cols]))
    assert np.array_equal(_bits(vals[rows.size:]), _bits(C.host[2][rows.size:]))  # entry 1 untouched


def test_batched_spmm_writes_no_bench_line(tmp_path, monkeypatch):
    paths = {key: tmp_path / f"{key}.log" for key in ("trace", "bench")}
    monkeypatch.setenv("ROCSPARSE_LAYER", "3")
    for key, path in paths.items():
        monkeypatch.setenv(f"ROCSPARSE_LOG_{key.upper()}_PATH", str(path))
    h = rs.create_handle()
    for count in (1, 2):
        A, B, C = _batched_operands(count, count, count)
        rs.spmm(h, "N", "N", 1.0, A.descr, B.descr, 0.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
    from rocmath.log import close_logs

    close_logs()
    assert len([x for x in paths["trace"].read_text().splitlines() if x.startswith("rocsparse_spmm")]) == 2
    bench = paths["bench"].read_text().splitlines()
    assert len(bench) == 1 and "-f spmm" in bench[0]


@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_checking_mode_scans_every_entry_of_a_batched_matrix(fmt):
    """In checking mode each entry of A is scanned before the product (CSR: offsets and columns; COO: columns, its
    row pointer being built by binary searches): a column past k in entry 1 faults and C keeps its bits."""
    from rocmath.errors import MemoryAccessFault

    A, B, C = _batched_operands(2, 2, 2)
    if fmt == "coo":
        rows = np.concatenate([e[0] for e in A.entries]).astype(np.int32)
        cols = np.concatenate([e[1] for e in A.entries]).astype(np.int32)
        keep = [rm.to_device(rows), rm.to_device(cols), rm.to_device(np.concatenate([e[2] for e in A.entries]))]
        descr = rs.create_coo_descr(4, 3, rows.size // 2, *keep, I32, 0, F64)
        rs.coo_set_strided_batch(descr, 2, rows.size // 2)
        bad, at = keep[1], rows.size // 2 + 1
    else:
        descr, bad, at = A.descr, A.arrays[1], A.val_stride + 1
    host = bad.get()
    host[at] = 3  # k == 3: one past the last column
    bad.set(host)
    before = C.get()
    h = rs.create_handle()
    h.set_stream(rm.Stream())
    try:
        with rm.checking():
            rs.spmm(h, "N", "N", 1.0, descr, B.descr, 0.0, C.descr, F64, rs.SpMMAlg.default, rs.SpMMStage.compute)
            with pytest.raises(MemoryAccessFault) as err:
                h.stream.synchronize()
        assert "col_ind" in str(err.value) and "= 3" in str(err.value)
        assert np.array_equal(_bits(C.get()), _bits(before))
    finally:
        h.stream.destroy()
