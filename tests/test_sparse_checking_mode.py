"""Checking mode's scan of the sparse products' index arrays (sparse/_validate.py): a bad row offset or
index raises MemoryAccessFault at the next synchronize and the product is skipped; good matrices give
the same bits as outside checking mode."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.errors import MemoryAccessFault
from rocmath.testing import examples

M, N = 7, 5


def matrix(seed: int = 3) -> sp.csr_matrix:
    a = sp.random(M, N, 0.5, random_state=seed, format="csr")
    a.sort_indices()
    return a


def csrmv(h, a, ptr, ind, y, base=0):
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    rs.dcsrmv(h, "N", M, N, a.nnz, 1.0, d, rm.to_device(a.data), rm.to_device(ptr.astype(np.int32)),
              rm.to_device(ind.astype(np.int32)), None, rm.to_device(np.ones(N)), 0.0, y)


def faults(h, call, *words) -> None:
    """``call`` enqueues a product whose scan fails: the fault comes at synchronize, naming ``words``."""
    call()
    with pytest.raises(MemoryAccessFault) as err:
        h.stream.synchronize()
    for w in words:
        assert w in str(err.value), (w, str(err.value))


@pytest.fixture
def handle():
    h = rs.create_handle()
    h.set_stream(rm.Stream())
    with rm.checking():
        yield h
    h.stream.destroy()


def test_a_one_based_matrix_described_as_zero_based_is_caught(handle):
    a = matrix()
    y0 = np.arange(float(M))
    y = rm.to_device(y0)
    faults(handle, lambda: csrmv(handle, a, a.indptr + 1, a.indices + 1, y), f"csr_row_ptr[{M}] = {a.nnz + 1}",
           f"outside the {a.nnz} stored entries")
    assert np.array_equal(y.get(), y0)  # the product was skipped
    # The same arrays with base one are fine, and give the bits of a run outside checking mode.
    csrmv(handle, a, a.indptr + 1, a.indices + 1, y, base=1)
    handle.stream.synchronize()
    with rm.checking(False):
        y2 = rm.empty(M)
        csrmv(handle, a, a.indptr + 1, a.indices + 1, y2, base=1)
        handle.stream.synchronize()
    assert np.array_equal(y.get(), y2.get()) and np.allclose(y.get(), a @ np.ones(N))


@settings(max_examples=examples(30))
@given(st.integers(0, 10**6), st.sampled_from(["column", "negative column", "decrease", "past nnz", "start"]))
def test_the_first_bad_offset_or_column_is_reported(seed, defect):
    rng = np.random.default_rng(seed)
    a = matrix(seed % 50)
    if a.nnz < 2:
        return
    ptr, ind = a.indptr.copy(), a.indices.copy()
    j = int(rng.integers(0, a.nnz))
    i = int(rng.integers(1, M))
    if defect == "column":
        ind[j] = N + int(rng.integers(0, 3))
        words = (f"csr_col_ind[{j}] = {ind[j]}", f"outside the {N} columns")
    elif defect == "negative column":
        ind[j] = -1
        words = (f"csr_col_ind[{j}] = -1",)
    elif defect == "decrease":
        if ptr[i] == ptr[i - 1] or ptr[i - 1] == 0:  # nothing to lower, or below 0: the other message
            return
        ptr[i] = ptr[i - 1] - 1
        words = (f"csr_row_ptr[{i}] = {ptr[i]} is below",)
    elif defect == "past nnz":
        ptr[M] = a.nnz + 1
        words = (f"csr_row_ptr[{M}] = {a.nnz + 1}",)
    else:
        ptr[0] = -2
        words = ("csr_row_ptr[0] = -2",)
    h = rs.create_handle()
    h.set_stream(rm.Stream())
    with rm.checking():
        y = rm.to_device(np.zeros(M))
        faults(h, lambda: csrmv(h, a, ptr, ind, y), *words)
        assert not np.any(y.get())
    h.stream.destroy()


def test_coomv_csrmm_and_the_generic_products_are_scanned(handle):
    a = matrix()
    c = a.tocoo()
    d = rs.create_mat_descr()
    rows, cols = c.row.astype(np.int32), c.col.astype(np.int32)
    bad_rows = rows.copy()
    bad_rows[3] = M
    y = rm.to_device(np.zeros(M))
    faults(handle, lambda: rs.dcoomv(handle, "N", M, N, c.nnz, 1.0, d, rm.to_device(c.data), rm.to_device(bad_rows),
                                     rm.to_device(cols), rm.to_device(np.ones(N)), 0.0, y),
           f"coo_row_ind[3] = {M}", f"outside the {M} rows")
    bad_cols = a.indices.astype(np.int32)
    bad_cols[-1] = N
    B, C = rm.to_device(np.ones((2, N))), rm.to_device(np.zeros((2, M)))  # column-major N x 2 and M x 2
    faults(handle, lambda: rs.dcsrmm(handle, "N", "N", M, 2, N, a.nnz, 1.0, d, rm.to_device(a.data),
                                     rm.to_device(a.indptr.astype(np.int32)), rm.to_device(bad_cols), B, N, 0.0, C, M),
           f"csr_col_ind[{a.nnz - 1}] = {N}")
    assert not np.any(C.get())
    # The generic spmv on COO: the same scan.
    mat = rs.create_coo_descr(M, N, c.nnz, rm.to_device(bad_rows), rm.to_device(cols), rm.to_device(c.data),
                              rs.IndexType.i32, rs.IndexBase.zero, rs.Datatype.f64_r)
    x, y = rs.create_dnvec_descr(N, rm.to_device(np.ones(N)), rs.Datatype.f64_r), \
        rs.create_dnvec_descr(M, rm.to_device(np.zeros(M)), rs.Datatype.f64_r)
    size = rs.spmv(handle, "N", 1.0, mat, x, 0.0, y, rs.Datatype.f64_r, rs.SpMVAlg.default, rs.SpMVStage.buffer_size)
    tmp = rm.empty(max(1, size), np.uint8)
    faults(handle, lambda: rs.spmv(handle, "N", 1.0, mat, x, 0.0, y, rs.Datatype.f64_r, rs.SpMVAlg.default,
                                   rs.SpMVStage.compute, None, tmp), "outside the 7 rows")


def test_bsrmv_scans_its_block_columns(handle):
    # A 2 x 2 block matrix of 2 x 2 blocks whose last block column index is past the 2 block columns.
    d = rs.create_mat_descr()
    ptr, cols = np.array([0, 1, 2], np.int32), np.array([0, 2], np.int32)
    y0 = np.arange(4.0)
    y = rm.to_device(y0)
    faults(handle, lambda: rs.dbsrmv(handle, rs.Direction.column, "N", 2, 2, 2, 1.0, d, rm.to_device(np.ones(8)),
                                     rm.to_device(ptr), rm.to_device(cols), 2, None, rm.to_device(np.ones(4)), 0.0,
                                     y), "bsr_col_ind[1] = 2", "outside the 2 columns")
    assert np.array_equal(y.get(), y0)
