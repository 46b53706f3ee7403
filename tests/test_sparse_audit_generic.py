"""Audit of the generic API and its descriptors against rocSPARSE's source (statuses, check order, what a call
leaves in memory).  Each test names the rocSPARSE file it checks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs

DT = rs.Datatype.f64_r
I32, I64, U16 = rs.IndexType.i32, rs.IndexType.i64, rs.IndexType.u16
A3 = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0], [4, 0, 5]]))


def _csr(row_dtype=np.int32, col_dtype=np.int32):
    arrays = (rm.to_device(A3.indptr.astype(row_dtype)), rm.to_device(A3.indices.astype(col_dtype)),
              rm.to_device(A3.data))
    return rs.create_csr_descr(3, 3, A3.nnz, *arrays, rs.IndexType.of(row_dtype), rs.IndexType.of(col_dtype), 0,
                               DT), arrays


def _vec(n: int, value: float = 1.0):
    a = rm.to_device(np.full(n, value))
    return rs.create_dnvec_descr(n, a, DT), a


def _mat(rows: int, cols: int, value: float = 1.0):
    a = rm.to_device(np.full(rows * cols, value))
    return rs.create_dnmat_descr(rows, cols, max(1, rows), a, DT, rs.Order.column), a


def _ell(rows: int = 3, cols: int = 3, width: int = 1):
    col = rm.to_device(np.arange(rows * width, dtype=np.int32) % max(cols, 1)) if rows * width else None
    val = rm.to_device(np.ones(rows * width)) if rows * width else None
    return rs.create_ell_descr(rows, cols, col, val, width, I32, 0, DT), (col, val)


def _status(call):
    with pytest.raises(rs.SparseError) as err:
        call()
    return err.value.status, err.value.index


# --- spmv / spmm index types ------------------------------------------------------------------------


@pytest.mark.parametrize("types", [(np.uint16, np.uint16), (np.int32, np.int64)])
def test_spmv_index_types_without_code_are_not_implemented(types):
    # rocsparse_spmv.cpp, spmv_dynamic_dispatch: u16 indices, or i32 offsets with i64 columns, are
    # not_implemented, before the value types and the algorithm are looked at.
    mat, _ = _csr(*types)
    x, _ = _vec(3)
    y, ya = _vec(3, 2.0)
    h = rs.create_handle()
    for alg, ct in ((rs.SpMVAlg.default, DT), (rs.SpMVAlg.ell, DT), (rs.SpMVAlg.default, rs.Datatype.f32_r)):
        assert _status(lambda a=alg, t=ct: rs.spmv(h, "N", 1.0, mat, x, 0.0, y, t, a, rs.SpMVStage.buffer_size)) == (
            rs.Status.not_implemented, 4)
    assert np.array_equal(ya.get(), np.full(3, 2.0))


def test_spmv_and_spmm_take_i64_offsets_with_i32_columns():
    # rocsparse_spmv.cpp / rocsparse_spmm.cpp: (i64, i32) is one of the instantiated index pairs.
    mat, _ = _csr(np.int64, np.int32)
    x, _ = _vec(3)
    y, ya = _vec(3, 2.0)
    h = rs.create_handle()
    rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.compute)
    assert np.array_equal(ya.get(), A3 @ np.ones(3))
    B, _ = _mat(3, 2)
    C, ca = _mat(3, 2, 5.0)
    rs.spmm(h, "N", "N", 1.0, mat, B, 0.0, C, DT, 0, rs.SpMMStage.compute)
    assert np.array_equal(ca.get(), np.tile(A3 @ np.ones(3), 2))


@pytest.mark.parametrize("types", [(np.uint16, np.uint16), (np.int32, np.int64)])
def test_spmm_index_types_without_code_are_not_implemented(types):
    # rocsparse_spmm.cpp, spmm_dynamic_dispatch: the same index dispatch as spmv (mat_A is #5).
    mat, _ = _csr(*types)
    B, _ = _mat(3, 2)
    C, ca = _mat(3, 2, 5.0)
    h = rs.create_handle()
    assert _status(lambda: rs.spmm(h, "N", "N", 1.0, mat, B, 0.0, C, DT, 0, rs.SpMMStage.compute)) == (
        rs.Status.not_implemented, 5)
    assert np.array_equal(ca.get(), np.full(6, 5.0))


def test_spmv_index_types_are_checked_before_the_algorithm():
    # rocsparse_spmv.cpp: spmv_dynamic_dispatch runs before check_spmv_alg, so a u16 blocked-ELL matrix is
    # not_implemented, not invalid_value (every algorithm is invalid for blocked ELL).
    bell = rs.create_bell_descr(2, 2, 0, 1, 1, rm.to_device(np.zeros(2, np.uint16)), rm.to_device(np.ones(2)), U16,
                                0, DT)
    x, _ = _vec(2)
    y, _ = _vec(2)
    h = rs.create_handle()
    assert _status(lambda: rs.spmv(h, "N", 1.0, bell, x, 0.0, y, DT, 0, rs.SpMVStage.compute)) == (
        rs.Status.not_implemented, 4)


# --- spmv of ELL / COO (AoS) / BSR: the checks of their templates -----------------------------------


def test_spmv_ell_unsorted_is_requires_sorted_storage_at_compute():
    # rocsparse_ellmv.cpp, ellmv_template: storage mode unsorted -> requires_sorted_storage; rocsparse_spmv.cpp
    # runs it at the compute stage only (buffer_size writes 0, preprocess does nothing).
    mat, _ = _ell()
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.storage_mode, rs.StorageMode.unsorted)
    x, _ = _vec(3)
    y, ya = _vec(3, 2.0)
    h = rs.create_handle()
    size = np.array([77], np.uint64)
    assert rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.buffer_size, size) == 0 and size[0] == 0
    rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.preprocess)
    assert _status(lambda: rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.compute)) == (
        rs.Status.requires_sorted_storage, 4)
    assert np.array_equal(ya.get(), np.full(3, 2.0))


def test_spmv_ell_width_without_rows_is_invalid_size():
    # rocsparse_ellmv.cpp, ellmv_template: ell_width != 0 with m == 0 or n == 0 is invalid_size (before the
    # quick return that scales y).
    mat, _ = _ell(rows=0, cols=3, width=2)
    x, _ = _vec(3)
    y, ya = _vec(3, 2.0)
    h = rs.create_handle()
    assert _status(lambda: rs.spmv(h, "T", 1.0, mat, x, 0.5, y, DT, 0, rs.SpMVStage.compute)) == (
        rs.Status.invalid_size, 4)
    assert np.array_equal(ya.get(), np.full(3, 2.0))
    empty, _ = _ell(rows=0, cols=3, width=0)  # no width: the quick return scales y by beta
    rs.spmv(h, "T", 1.0, empty, x, 0.5, y, DT, 0, rs.SpMVStage.compute)
    assert np.array_equal(ya.get(), np.full(3, 1.0))


@pytest.mark.parametrize("fmt", ["ell", "coo_aos"])
def test_spmv_blocked_formats_check_the_matrix_type_at_compute_only(fmt):
    # rocsparse_spmv.cpp: ELL and COO (AoS) buffer_size and preprocess return success whatever the matrix;
    # ellmv_template / coomv_aos_template reject a non-general one at compute (not_implemented).
    if fmt == "ell":
        mat, _ = _ell()
    else:
        mat = rs.create_coo_aos_descr(3, 3, 1, rm.to_device(np.zeros(2, np.int32)), rm.to_device(np.ones(1)), I32, 0,
                                      DT)
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.matrix_type, rs.MatrixType.symmetric)
    x, _ = _vec(3)
    y, _ = _vec(3)
    h = rs.create_handle()
    assert rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.buffer_size) == 0
    assert rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.preprocess) == 0
    assert _status(lambda: rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.compute)) == (
        rs.Status.not_implemented, 4)


def test_spmv_bsr_preprocess_checks_as_bsrmv_analysis():
    # rocsparse_spmv.cpp: BSR preprocess with the default algorithm runs bsrmv_analysis_template (rocsparse_bsrmv.cpp):
    # trans != none, then a non-general matrix, are not_implemented; the bsr algorithm skips the analysis.
    ptr, col = rm.to_device(np.array([0, 1], np.int32)), rm.to_device(np.zeros(1, np.int32))
    mat = rs.create_bsr_descr(1, 1, 1, 0, 2, ptr, col, rm.to_device(np.ones(4)), I32, I32, 0, DT)
    rs.spmat_set_attribute(mat, rs.SpMatAttribute.matrix_type, rs.MatrixType.symmetric)
    x, _ = _vec(2)
    y, _ = _vec(2)
    h = rs.create_handle()
    assert rs.spmv(h, "T", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.buffer_size) == 0
    assert rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, rs.SpMVAlg.bsr, rs.SpMVStage.preprocess) == 0
    assert _status(lambda: rs.spmv(h, "T", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.preprocess)) == (
        rs.Status.not_implemented, 2)
    assert _status(lambda: rs.spmv(h, "N", 1.0, mat, x, 0.0, y, DT, 0, rs.SpMVStage.preprocess)) == (
        rs.Status.not_implemented, 4)


# --- descriptors ------------------------------------------------------------------------------------


def test_spmat_get_nnz_counts_values_of_block_formats():
    # rocsparse_auxiliary.cpp, rocsparse_spmat_get_nnz: BSR nnzb * block_dim^2, blocked ELL
    # ell_cols * rows * block_dim^2, ELL rows * ell_width; spmat_get_size keeps the stored nnz.
    ptr, col = rm.to_device(np.array([0, 1, 2], np.int32)), rm.to_device(np.zeros(2, np.int32))
    bsr = rs.create_bsr_descr(2, 1, 2, 0, 3, ptr, col, rm.to_device(np.ones(18)), I32, I32, 0, DT)
    assert rs.spmat_get_nnz(bsr) == 18 and rs.spmat_get_size(bsr) == (2, 1, 2)
    bell = rs.create_bell_descr(4, 4, 0, 2, 2, rm.to_device(np.zeros(4, np.int32)), rm.to_device(np.ones(16)), I32, 0,
                                DT)
    assert rs.spmat_get_nnz(bell) == 2 * 4 * 4 and rs.spmat_get_size(bell) == (4, 4, 0)
    ell, _ = _ell(rows=3, cols=3, width=2)
    assert rs.spmat_get_nnz(ell) == 6
    csr, _ = _csr()
    assert rs.spmat_get_nnz(csr) == A3.nnz


def test_spmat_set_nnz_of_ell_formats_is_invalid_value():
    # rocsparse_auxiliary.cpp, rocsparse_spmat_set_nnz: the size first (invalid_size), then ELL and blocked ELL
    # are invalid_value (their count follows from the width); the descriptor keeps its nnz.
    ell, _ = _ell(rows=3, cols=3, width=1)
    bell = rs.create_bell_descr(2, 2, 0, 1, 1, rm.to_device(np.zeros(2, np.int32)), rm.to_device(np.ones(2)), I32, 0,
                                DT)
    for mat, nnz in ((ell, 3), (bell, 0)):
        assert _status(lambda m=mat: rs.spmat_set_nnz(m, -1)) == (rs.Status.invalid_size, 2)
        assert _status(lambda m=mat: rs.spmat_set_nnz(m, 1)) == (rs.Status.invalid_value, 1)
        assert rs.spmat_get_size(mat)[2] == nnz
    csr, _ = _csr()
    rs.spmat_set_nnz(csr, 2)
    assert rs.spmat_get_size(csr)[2] == 2


def test_set_values_needs_a_pointer_whatever_the_size():
    # rocsparse_auxiliary.cpp: rocsparse_spmat_set_values, rocsparse_dnvec_set_values and rocsparse_dnmat_set_values
    # check values with ROCSPARSE_CHECKARG_POINTER (not against the size).
    empty = rs.create_csr_descr(2, 2, 0, rm.to_device(np.zeros(3, np.int32)), None, None, I32, I32, 0, DT)
    vec = rs.create_dnvec_descr(0, None, DT)
    mat = rs.create_dnmat_descr(0, 0, 1, None, DT, rs.Order.column)
    for call in (lambda: rs.spmat_set_values(empty, None), lambda: rs.dnvec_set_values(vec, None),
                 lambda: rs.dnmat_set_values(mat, None)):
        assert _status(call) == (rs.Status.invalid_pointer, 2)
    a = rm.to_device(np.ones(1))
    rs.spmat_set_values(empty, a)
    rs.dnvec_set_values(vec, a)
    rs.dnmat_set_values(mat, a)
    assert rs.spmat_get_values(empty) is a and rs.dnvec_get_values(vec) is a and rs.dnmat_get_values(mat) is a


def test_set_pointers_needs_the_offsets_and_coo_arrays_whatever_the_sizes():
    # rocsparse_auxiliary.cpp: csr/csc/bsr_set_pointers check the offsets with ROCSPARSE_CHECKARG_POINTER and the
    # other two arrays only when nnz > 0; coo_set_pointers checks all three with ROCSPARSE_CHECKARG_POINTER.
    csr = rs.create_csr_descr(0, 2, 0, None, None, None, I32, I32, 0, DT)
    assert _status(lambda: rs.csr_set_pointers(csr, None, None, None)) == (rs.Status.invalid_pointer, 2)
    ptr = rm.to_device(np.zeros(1, np.int32))
    rs.csr_set_pointers(csr, ptr, None, None)
    assert rs.csr_get(csr)[3] is ptr
    csc = rs.create_csc_descr(2, 0, 0, None, None, None, I32, I32, 0, DT)
    assert _status(lambda: rs.csc_set_pointers(csc, None, None, None)) == (rs.Status.invalid_pointer, 2)
    rs.csc_set_pointers(csc, ptr, None, None)
    coo = rs.create_coo_descr(2, 2, 0, None, None, None, I32, 0, DT)
    ind, val = rm.to_device(np.zeros(1, np.int32)), rm.to_device(np.zeros(1))
    for args, index in (((None, ind, val), 2), ((ind, None, val), 3), ((ind, ind, None), 4)):
        assert _status(lambda a=args: rs.coo_set_pointers(coo, *a)) == (rs.Status.invalid_pointer, index)
    rs.coo_set_pointers(coo, ind, ind, val)
    assert rs.coo_get(coo)[3:6] == (ind, ind, val)


def test_spmat_set_attribute_null_data_is_invalid_pointer():
    # rocsparse_auxiliary.cpp, rocsparse_spmat_set_attribute: the attribute (invalid_value), then the data
    # pointer (invalid_pointer, #3), then the value (invalid_value).
    csr, _ = _csr()
    assert _status(lambda: rs.spmat_set_attribute(csr, 9, None)) == (rs.Status.invalid_value, 2)
    assert _status(lambda: rs.spmat_set_attribute(csr, rs.SpMatAttribute.fill_mode, None)) == (
        rs.Status.invalid_pointer, 3)
    assert _status(lambda: rs.spmat_set_attribute(csr, rs.SpMatAttribute.fill_mode, 7)) == (
        rs.Status.invalid_value, 3)
    assert rs.spmat_get_attribute(csr, rs.SpMatAttribute.fill_mode) is rs.FillMode.lower
