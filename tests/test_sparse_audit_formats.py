"""Audit of the ELL / HYB / BSR formats, gemvi / gemmi and prune routines against rocSPARSE's sources: the
discrepancies found, each test naming the rocSPARSE file that shows the expected behaviour."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs

FLT_MIN = float(np.finfo(np.float32).tiny)


def _handle(device_mode: bool) -> rs.SparseHandle:
    h = rs.create_handle()
    if device_mode:
        rs.set_pointer_mode(h, rs.PointerMode.device)
    return h


def _threshold(h, dtype, value: float):
    """The threshold argument in the handle's pointer mode."""
    if rs.get_pointer_mode(h) is rs.PointerMode.device:
        return rm.to_device(np.array([value], dtype))
    return dtype.type(value)


def _csr(dtype):
    """A 2 x 2 CSR matrix whose values include FLT_MIN itself and an explicit zero."""
    val = np.array([1.0, FLT_MIN, -2.0, 0.0], dtype)
    return rm.to_device(val), rm.to_device(np.array([0, 2, 4], np.int32)), rm.to_device(np.array([0, 1, 0, 1],
                                                                                                  np.int32))


@pytest.mark.parametrize("device_mode", [False, True])
@pytest.mark.parametrize("letter", ["s", "d"])
def test_prune_csr2csr_nnz_rejects_a_negative_threshold(letter, device_mode):
    # rocsparse_prune_csr2csr.cpp: prune_csr2csr_nnz copies the threshold to the host (either pointer mode) and
    # counts with nnz_compress_template, which (rocsparse_nnz_compress.cpp) returns invalid_value for a negative
    # one, after the threshold and nnz_total_dev_host_ptr null checks and before writing anything.
    dtype = np.dtype(np.float32 if letter == "s" else np.float64)
    nnz_fn = getattr(rs, f"{letter}prune_csr2csr_nnz")
    h, d = _handle(device_mode), rs.create_mat_descr()
    val, ptr, col = _csr(dtype)
    thr = _threshold(h, dtype, -0.5)
    ptr_c, total = rm.to_device(np.full(3, 9, np.int32)), rm.to_device(np.full(1, -7, np.int32))
    with pytest.raises(rs.SparseInvalidValueError) as err:
        nnz_fn(h, 2, 2, 4, d, val, ptr, col, thr, d, ptr_c, total if device_mode else None, None)
    assert (err.value.arg, err.value.index) == ("threshold", 9)
    assert np.all(ptr_c.get() == 9) and total.get()[0] == -7
    if device_mode:  # the null total is found first
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            nnz_fn(h, 2, 2, 4, d, val, ptr, col, thr, d, ptr_c, None, None)
        assert err.value.arg == "nnz_total_dev_host_ptr"
    # the quick return (nnz_A == 0) comes first and reads no threshold
    out = nnz_fn(h, 2, 2, 0, d, None, rm.to_device(np.zeros(3, np.int32)), None, thr, d, ptr_c,
                 total if device_mode else None, None)
    assert np.array_equal(ptr_c.get(), [0, 0, 0]) and (total.get()[0] if device_mode else out) == 0
    # the conversion itself does not check the sign: every entry above FLT_MIN is kept
    vc, cc = rm.to_device(np.zeros(2, dtype)), rm.to_device(np.zeros(2, np.int32))
    getattr(rs, f"{letter}prune_csr2csr")(h, 2, 2, 4, d, val, ptr, col, thr, d, vc, rm.to_device(
        np.array([0, 1, 2], np.int32)), cc, None)
    assert np.array_equal(vc.get(), [1.0, -2.0]) and np.array_equal(cc.get(), [0, 0])


@pytest.mark.parametrize("device_mode", [False, True])
@pytest.mark.parametrize("letter", ["s", "d"])
def test_prune_csr2csr_drops_magnitudes_up_to_flt_min(letter, device_mode):
    # csr2csr_compress_device.h / nnz_compress_device.h: prune_csr2csr (and its by_percentage form) keeps
    # |a| > threshold AND |a| > FLT_MIN (float's smallest normal, in either precision); prune_dense2csr_device.h
    # compares with the threshold alone.
    dtype = np.dtype(np.float32 if letter == "s" else np.float64)
    h, d = _handle(device_mode), rs.create_mat_descr()
    val, ptr, col = _csr(dtype)
    thr = _threshold(h, dtype, 0.0)
    ptr_c, total = rm.to_device(np.full(3, 9, np.int32)), rm.to_device(np.full(1, -7, np.int32))
    out = getattr(rs, f"{letter}prune_csr2csr_nnz")(h, 2, 2, 4, d, val, ptr, col, thr, d, ptr_c,
                                                     total if device_mode else None, None)
    assert (total.get()[0] if device_mode else out) == 2
    assert np.array_equal(ptr_c.get(), [0, 1, 2])
    vc, cc = rm.to_device(np.zeros(2, dtype)), rm.to_device(np.zeros(2, np.int32))
    getattr(rs, f"{letter}prune_csr2csr")(h, 2, 2, 4, d, val, ptr, col, thr, d, vc, ptr_c, cc, None)
    assert np.array_equal(vc.get(), [1.0, -2.0]) and np.array_equal(cc.get(), [0, 0])
    if device_mode:
        assert thr.get()[0] == 0  # the caller's threshold is not changed
    # by percentage: 25 % of 4 magnitudes -> the smallest (0) is the threshold; FLT_MIN still applies
    h = rs.create_handle()
    info, temp = rs.create_mat_info(), rm.empty(512, np.uint8)
    ptr_p = rm.to_device(np.full(3, 9, np.int32))
    n = getattr(rs, f"{letter}prune_csr2csr_nnz_by_percentage")(h, 2, 2, 4, d, val, ptr, col, 25.0, d, ptr_p, None,
                                                                 info, temp)
    assert n == 2 and np.array_equal(ptr_p.get(), [0, 1, 2])
    vc, cc = rm.to_device(np.zeros(2, dtype)), rm.to_device(np.zeros(2, np.int32))
    getattr(rs, f"{letter}prune_csr2csr_by_percentage")(h, 2, 2, 4, d, val, ptr, col, 25.0, d, vc, ptr_p, cc, info,
                                                        temp)
    assert np.array_equal(vc.get(), [1.0, -2.0])
    # a dense prune keeps the tiny (nonzero) value
    dense = rm.to_device(np.array([1.0, FLT_MIN, 0.0, -2.0], dtype))  # column-major [[1, 0], [FLT_MIN, -2]]
    ptr_d = rm.to_device(np.zeros(3, np.int32))
    assert getattr(rs, f"{letter}prune_dense2csr_nnz")(h, 2, 2, dense, 2, dtype.type(0), d, ptr_d, None, None) == 3


def test_gemvi_buffer_size_checks_nothing():
    # rocsparse_gemvi.cpp: rocsparse_Xgemvi_buffer_size writes 0 and returns success without checking any
    # argument, the handle included.
    for fn in (rs.sgemvi_buffer_size, rs.dgemvi_buffer_size, rs.cgemvi_buffer_size, rs.zgemvi_buffer_size):
        assert fn(None, 999, -1, -2, -3) == 0
        assert fn(rs.create_handle(), "N", 4, 3, 2) == 0


def test_bsrmv_analysis_of_larger_blocks_leaves_csrmvs_analysis_alone():
    # rocsparse_bsrmv.cpp: bsrmv_analysis runs csrmv's analysis for 1 x 1 blocks only and keeps nothing for
    # larger ones, so a csrmv analysis in the same info survives and csrmv on its own matrix still runs.
    h, d, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    a = sp.random(6, 6, 0.5, random_state=2, format="csr")
    a.sort_indices()
    av, ap, ac = rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32))
    rs.dcsrmv_analysis(h, "N", 6, 6, a.nnz, d, av, ap, ac, info)
    b = sp.bsr_matrix(sp.random(4, 4, 0.6, random_state=3, format="csr").toarray(), blocksize=(2, 2))
    b.sort_indices()
    bv = rm.to_device(np.ascontiguousarray(b.data.transpose(0, 2, 1)).reshape(-1))  # column-major blocks
    bp, bc = rm.to_device(b.indptr.astype(np.int32)), rm.to_device(b.indices.astype(np.int32))
    rs.dbsrmv_analysis(h, rs.Direction.column, "N", 2, 2, b.indices.size, d, bv, bp, bc, 2, info)
    x, y = rm.to_device(np.arange(6.0)), rm.zeros(6)
    rs.dcsrmv(h, "N", 6, 6, a.nnz, 1.0, d, av, ap, ac, info, x, 0.0, y)
    np.testing.assert_allclose(y.get(), a @ np.arange(6.0), rtol=1e-14)
    xb, yb = rm.to_device(np.ones(4)), rm.zeros(4)
    rs.dbsrmv(h, rs.Direction.column, "N", 2, 2, b.indices.size, 1.0, d, bv, bp, bc, 2, info, xb, 0.0, yb)
    np.testing.assert_allclose(yb.get(), b @ np.ones(4), rtol=1e-14)
    rs.bsrmv_clear(h, info)
    assert info.csrmv is None and info.bsrmv is None
