"""Audit of rocmath.sparse Level 1/2/3 and csrsv / gtsv_no_pivot_strided_batch against rocSPARSE's source:
check order, statuses and device-mode scalar behaviour (each test names the rocSPARSE file it checks)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs


def dev(v: float) -> rm.DeviceArray:
    return rm.to_device(np.array([v]))


# --- Level 1 -------------------------------------------------------------------------------------


def test_axpyi_device_alpha_zero_leaves_y_alone():
    # rocsparse_axpyi.cpp: axpyi_kernel loads alpha and does nothing when it is 0 (no 0 * inf = NaN in y).
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device)
    y = rm.to_device(np.arange(4.0))
    rs.daxpyi(h, 2, dev(0.0), rm.to_device(np.array([np.inf, np.nan])), rm.to_device(np.array([0, 2], np.int32)),
              y, 0)
    assert np.array_equal(y.get(), np.arange(4.0))


def test_roti_device_identity_rotation_leaves_x_and_y_alone():
    # rocsparse_roti.cpp: roti_kernel returns when c == 1 and s == 0, so inf / NaN in y do not reach x.
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device)
    x = rm.to_device(np.array([1.0, 2.0]))
    y0 = np.array([np.inf, 1.0, np.nan, 3.0])
    y = rm.to_device(y0)
    rs.droti(h, 2, x, rm.to_device(np.array([0, 2], np.int32)), y, dev(1.0), dev(0.0), 0)
    assert np.array_equal(x.get(), [1.0, 2.0])
    np.testing.assert_array_equal(y.get(), y0)


@pytest.mark.parametrize(("name", "args", "status", "arg"), [
    # rocsparse_axpyi.cpp / rocsparse_doti.cpp / rocsparse_gthr.cpp: the index base before nnz.
    ("daxpyi", (-1, 1.0, None, None, None, 7), rs.Status.invalid_value, "idx_base"),
    ("ddoti", (-1, None, None, None, None, 7), rs.Status.invalid_value, "idx_base"),
    ("dgthr", (-1, None, None, None, 7), rs.Status.invalid_value, "idx_base"),
    # rocsparse_gthrz.cpp / rocsparse_sctr.cpp / rocsparse_roti.cpp: nnz and the arrays before the base.
    ("dgthrz", (-1, None, None, None, 7), rs.Status.invalid_size, "nnz"),
    ("dsctr", (2, None, None, None, 7), rs.Status.invalid_pointer, "x_val"),
    ("droti", (0, None, None, None, None, 0.0, 7), rs.Status.invalid_pointer, "c"),
])
def test_level1_check_order(name, args, status, arg):
    with pytest.raises(rs.SparseError) as err:
        getattr(rs, name)(rs.create_handle(), *args)
    assert err.value.status == status and err.value.arg == arg


def test_doti_device_mode_nnz0_with_null_result_goes_on_to_the_pointer_checks():
    # rocsparse_doti.cpp: nnz == 0 returns (zeroing result) only when result is not null.
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.ddoti(h, 0, None, None, None, None, 0)
    assert err.value.arg == "x_val"
    res = dev(5.0)
    rs.ddoti(h, 0, None, None, None, res, 0)
    assert res.get()[0] == 0


# --- Level 2 -------------------------------------------------------------------------------------


def _identity():
    a = sp.identity(4, format="csr")
    return (rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32)))


@pytest.mark.parametrize(("mtype", "storage", "m", "n", "nnz", "status"), [
    (rs.MatrixType.hermitian, 0, -1, 4, 4, rs.Status.not_implemented),
    (rs.MatrixType.general, 1, 4, 4, -1, rs.Status.requires_sorted_storage),
    (rs.MatrixType.symmetric, 0, -1, 4, 4, rs.Status.invalid_size),
])
def test_csrmv_analysis_checks_the_descriptor_before_the_sizes(mtype, storage, m, n, nnz, status):
    # rocsparse_csrmv.cpp (rocsparse_csrmv_analysis_impl): descr type, squareness and storage come before
    # ROCSPARSE_CHECKARG_SIZE of m, n, nnz (csrmv itself checks the sizes first).
    d = rs.create_mat_descr()
    rs.set_mat_type(d, mtype)
    rs.set_mat_storage_mode(d, storage)
    info = rs.create_mat_info()
    with pytest.raises(rs.SparseError) as err:
        rs.dcsrmv_analysis(rs.create_handle(), "N", m, n, nnz, d, *_identity(), info)
    assert err.value.status == status and err.value.arg == "descr" and err.value.index == 6
    assert info.csrmv is None
    # The operation is still checked before the descriptor.
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.dcsrmv_analysis(rs.create_handle(), 9, m, n, nnz, d, *_identity(), info)
    assert err.value.arg == "trans"


def test_csrmv_after_a_transposed_analysis():
    # rocsparse_csrmv.cpp / rocsparse_csrmv_template_adaptive.cpp: a transposed product never uses the
    # analysis; a non-transposed one on an analysis made for another operation is invalid_value.
    h, d, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    arrays = _identity()
    rs.dcsrmv_analysis(h, "T", 4, 4, 4, d, *arrays, info)
    y = rm.zeros(4)
    rs.dcsrmv(h, "T", 4, 4, 4, 1.0, d, *arrays, info, rm.to_device(np.arange(4.0)), 0.0, y)
    assert np.array_equal(y.get(), np.arange(4.0))
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.dcsrmv(h, "N", 4, 4, 4, 1.0, d, *arrays, info, rm.to_device(np.arange(4.0)), 0.0, y)
    assert err.value.arg == "info"


# --- Level 3 -------------------------------------------------------------------------------------


def _csrmm(h, alpha, B, ldb, beta, C, ldc=4):
    val, rp, ci = _identity()
    return rs.dcsrmm(h, "N", "N", 4, 2, 4, 4, alpha, rs.create_mat_descr(), val, rp, ci, B, ldb, beta, C, ldc)


def test_csrmm_alpha0_beta1_quick_return_needs_both_scalars():
    # rocsparse_csrmm.cpp (csrmm_quickreturn): host alpha == 0 && beta == 1 returns only when both pointers
    # are non-null; otherwise the checks go on in order: alpha, B, ldb, beta, C, ldc.
    h = rs.create_handle()
    B = rm.to_device(np.ones(8))
    C = rm.to_device(np.arange(8.0))
    with pytest.raises(rs.SparseInvalidSizeError) as err:
        _csrmm(h, 0.0, B, -1, None, C)
    assert err.value.arg == "ldb"
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        _csrmm(h, 0.0, None, 4, None, C)
    assert err.value.arg == "B"
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        _csrmm(h, 0.0, B, 4, None, C)
    assert err.value.arg == "beta"
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        _csrmm(h, None, B, 4, 1.0, C)
    assert err.value.arg == "alpha"
    # Both given: nothing else is looked at, C stays as it is.
    _csrmm(h, 0.0, None, -1, 1.0, None, -1)
    assert np.array_equal(C.get(), np.arange(8.0))


def test_csrmm_quick_return_requires_c_and_beta_and_scales_c():
    # rocsparse_csrmm.cpp (csrmm_quickreturn): k == 0 with a non-empty C needs C and beta (invalid_pointer),
    # then C := beta C; alpha, B and ldb are never looked at; nnz == 0 alone is no quick return.
    h = rs.create_handle()
    d = rs.create_mat_descr()
    rp = rm.to_device(np.zeros(5, np.int32))
    C = rm.to_device(np.arange(8.0))
    for C_, beta in ((None, 2.0), (C, None)):
        with pytest.raises(rs.SparseInvalidPointerError):
            rs.dcsrmm(h, "N", "N", 4, 2, 0, 0, None, d, None, rp, None, None, -1, beta, C_, 4)
    rs.dcsrmm(h, "N", "N", 4, 2, 0, 0, None, d, None, rp, None, None, -1, 2.0, C, 4)
    assert np.array_equal(C.get(), 2 * np.arange(8.0))
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrmm(h, "N", "N", 4, 2, 4, 0, None, d, None, rp, None, None, -1, 2.0, C, 4)
    assert err.value.arg == "alpha"


@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("beta", [1.0, 2.0, 0.0])
def test_products_with_a_device_alpha_of_zero_keep_inf_and_nan_out(trans, beta):
    # rocsparse_csrmv_template_stream.cpp: a row kernel runs only when alpha != 0 || beta != 1; the transposed
    # product (and coomv, rocsparse_coomv.cpp) scales y by beta, then adds only when alpha != 0. csrmm
    # (rocsparse_csrmm.cpp) likewise leaves C alone on alpha == 0, beta == 1.
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device)
    a = sp.csr_matrix(np.array([[np.inf, 1.0], [0.0, 2.0]]))
    x = rm.to_device(np.array([np.nan, 1.0]))
    y0 = np.array([3.0, 4.0])
    d = rs.create_mat_descr()
    val, rp = rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32))
    ci = rm.to_device(a.indices.astype(np.int32))
    coo = a.tocoo()
    ri = rm.to_device(coo.row.astype(np.int32))
    expected = beta * y0
    if trans == "N" and beta != 1:  # the row kernel runs: 0 * inf and 0 * NaN reach y, as on the device
        expected = None
    y = rm.to_device(y0)
    rs.dcsrmv(h, trans, 2, 2, a.nnz, dev(0.0), d, val, rp, ci, None, x, dev(beta), y)
    if expected is not None:
        assert np.array_equal(y.get(), expected)
    y = rm.to_device(y0)
    rs.dcoomv(h, trans, 2, 2, a.nnz, dev(0.0), d, rm.to_device(coo.data), ri, rm.to_device(coo.col.astype(np.int32)),
              x, dev(beta), y)
    assert np.array_equal(y.get(), beta * y0)
    if beta == 1:
        B = rm.to_device(np.array([[np.nan, 1.0], [np.inf, 2.0]]).T.copy())
        C0 = np.arange(4.0)
        C = rm.to_device(C0)
        rs.dcsrmm(h, trans, "N", 2, 2, 2, a.nnz, dev(0.0), d, val, rp, ci, B, 2, dev(beta), C, 2)
        assert np.array_equal(C.get(), C0)


# --- csrsv / gtsv_no_pivot_strided_batch ---------------------------------------------------------


def test_csrsv_stage_check_order():
    # rocsparse_csrsv_analysis.cpp / rocsparse_csrsv_solve.cpp: descr, info, trans, the policies, the matrix
    # type, the storage mode, m, nnz; then (m > 0) temp_buffer and the arrays (analysis), or x, y, the arrays,
    # temp_buffer and alpha (solve).
    h, info = rs.create_handle(), rs.create_mat_info()
    d = rs.create_mat_descr()
    rs.set_mat_type(d, rs.MatrixType.triangular)
    with pytest.raises(rs.SparseInvalidValueError) as err:
        rs.dcsrsv_analysis(h, "N", -1, 0, d, None, None, None, info, 0, 5, None)
    assert err.value.arg == "solve"
    with pytest.raises(rs.SparseNotImplementedError):
        rs.dcsrsv_analysis(h, "N", -1, 0, d, None, None, None, info, 0, 0, None)
    d = rs.create_mat_descr()
    rs.dcsrsv_analysis(h, "N", 0, 0, d, None, None, None, info, 0, 0, None)  # m == 0: nothing else is checked
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrsv_solve(h, "N", 2, 2, None, d, None, None, None, info, rm.zeros(2), rm.zeros(2), 0, None)
    assert err.value.arg == "csr_val"
    val, rp, ci = _identity()
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrsv_solve(h, "N", 4, 4, None, d, val, rp, ci, info, rm.zeros(4), rm.zeros(4), 0, rm.zeros(64))
    assert err.value.arg == "alpha"
    # Not analysed: invalid_pointer (the trm info is null).
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrsv_solve(h, "N", 4, 4, 1.0, d, val, rp, ci, info, rm.zeros(4), rm.zeros(4), 0, rm.zeros(64))
    assert err.value.arg == "info"


@pytest.mark.parametrize(("args", "arg"), [
    # rocsparse_gtsv_no_pivot_strided_batch.cpp: m, m <= 1, batch_stride < m, batch_count, the arrays, then
    # (m > 512) temp_buffer, all before the batch_count == 0 quick return.
    ((1, None, None, None, None, -1, 0, None), "m"),
    ((4, None, None, None, None, -1, 3, None), "batch_stride"),
    ((4, None, None, None, None, -1, 4, None), "batch_count"),
    ((4, 1, 1, 1, None, 1, 4, None), "x"),
    ((600, None, None, None, None, 0, 600, None), "temp_buffer"),
])
def test_gtsv_no_pivot_strided_batch_check_order(args, arg):
    with pytest.raises(rs.SparseError) as err:
        rs.dgtsv_no_pivot_strided_batch(rs.create_handle(), *args)
    assert err.value.arg == arg


def test_gtsv_no_pivot_strided_batch_buffer_size():
    # rocsparse_gtsv_no_pivot_strided_batch.cpp: 0 for batch_count == 0 or m <= 512, else eight arrays of
    # m * batch_count values, each rounded up to 256 bytes.
    f = rs.dgtsv_no_pivot_strided_batch_buffer_size
    h = rs.create_handle()
    assert f(h, 600, None, None, None, None, 0, 600) == 0
    assert f(h, 512, 1, 1, 1, 1, 3, 512) == 0
    assert f(h, 600, 1, 1, 1, 1, 2, 600) == 8 * (((8 * 600 * 2 - 1) // 256 + 1) * 256)
