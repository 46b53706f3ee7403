"""Audit of rocmath.sparse's preconditioner and extra routines against rocSPARSE's sources: statuses, check
order and quick returns (csrilu0 / csric0 tolerances, csrgemm's three stages)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

import rocmath as rm
import rocmath.sparse as rs

SENTINEL = -7


def _dev(a: sp.csr_matrix):
    return (rm.to_device(a.data.astype(np.float64)), rm.to_device(a.indptr.astype(np.int32)),
            rm.to_device(a.indices.astype(np.int32)))


def _status(exc: pytest.ExceptionInfo, status: rs.Status, arg: str | None = None) -> None:
    assert exc.value.status is status
    if arg is not None:
        assert exc.value.arg == arg


# --- csrilu0 / csric0 tolerance -----------------------------------------------------------------------


# rocsparse_csrilu0.cpp / rocsparse_csric0.cpp, *_set_tolerance: only ``tol < 0`` is invalid_value, so a NaN
# is stored (and then marks no pivot as singular).
@pytest.mark.parametrize("kind", ["csrilu0", "csric0"])
def test_set_tolerance_rejects_only_negative_values(kind):
    h, info = rs.create_handle(), rs.create_mat_info()
    setter, getter = getattr(rs, f"{kind}_set_tolerance"), getattr(rs, f"{kind}_get_tolerance")
    with pytest.raises(rs.SparseInvalidValueError):
        setter(h, info, -1e-300)
    assert getter(h, info) == 0.0
    setter(h, info, float("nan"))
    assert math.isnan(getter(h, info))
    # The factorization still runs and reports no singular pivot.
    a = sp.csr_matrix(np.array([[4.0, 1.0], [1.0, 4.0]]))
    v, p, i = _dev(a)
    descr = rs.create_mat_descr()
    buf = rm.empty(4096, np.uint8)
    getattr(rs, f"d{kind}_analysis")(h, 2, a.nnz, descr, v, p, i, info, rs.AnalysisPolicy.force,
                                     rs.SolvePolicy.auto, buf)
    getattr(rs, f"d{kind}")(h, 2, a.nnz, descr, v, p, i, info, rs.SolvePolicy.auto, buf)
    assert getattr(rs, f"{kind}_singular_pivot")(h, info, None) == -1


# --- csrgemm ------------------------------------------------------------------------------------------

_BS = ("trans_A", "trans_B", "m", "n", "k", "alpha", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A", "descr_B",
       "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "beta", "descr_D", "nnz_D", "csr_row_ptr_D", "csr_col_ind_D",
       "info_C")
_NNZ = ("trans_A", "trans_B", "m", "n", "k", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A", "descr_B", "nnz_B",
        "csr_row_ptr_B", "csr_col_ind_B", "descr_D", "nnz_D", "csr_row_ptr_D", "csr_col_ind_D", "descr_C",
        "csr_row_ptr_C", "nnz_C", "info_C", "temp_buffer")


def _gemm(**change):
    """Every csrgemm argument for C := alpha I I (4 x 4), with ``change`` applied; pick a stage's with _pick."""
    v, p, i = _dev(sp.identity(4, format="csr"))  # per call: module-level device arrays would outlive the tests
    args = dict(trans_A="N", trans_B="N", m=4, n=4, k=4, alpha=1.0, descr_A=rs.create_mat_descr(), nnz_A=4,
                csr_val_A=v, csr_row_ptr_A=p, csr_col_ind_A=i, descr_B=rs.create_mat_descr(), nnz_B=4, csr_val_B=v,
                csr_row_ptr_B=p, csr_col_ind_B=i, beta=None, descr_D=rs.create_mat_descr(), nnz_D=4, csr_val_D=v,
                csr_row_ptr_D=p, csr_col_ind_D=i, descr_C=rs.create_mat_descr(), csr_val_C=rm.empty(4),
                csr_row_ptr_C=rm.to_device(np.full(5, SENTINEL, np.int32)),
                csr_col_ind_C=rm.empty(4, np.int32), nnz_C=None, info_C=rs.create_mat_info(),
                temp_buffer=rm.empty(256, np.uint8))
    args.update(change)
    return args


def _pick(args, names):
    return {k: args[k] for k in names}


def _compute_args(args):
    return {k: args[k] for k in rs.dcsrgemm.__signature__.parameters if k != "handle"}


def _symmetric():
    d = rs.create_mat_descr()
    rs.set_mat_type(d, rs.MatrixType.symmetric)
    return d


# rocsparse_csrgemm_buffer_size.cpp: alpha and beta both null is found after the operation and size checks
# (the "neither" case checks trans_A, trans_B, m, n, k first).
@pytest.mark.parametrize("change, status, arg", [
    (dict(m=-1), rs.Status.invalid_size, "m"),
    (dict(k=-3), rs.Status.invalid_size, "k"),
    (dict(trans_B=9), rs.Status.invalid_value, "trans_B"),
    (dict(trans_A="T"), rs.Status.invalid_pointer, None),  # no operation check in this case
])
def test_csrgemm_buffer_size_null_scalars_checked_after_sizes(change, status, arg):
    with pytest.raises(rs.SparseError) as exc:
        rs.dcsrgemm_buffer_size(rs.create_handle(), **_pick(_gemm(alpha=None, **change), _BS))
    _status(exc, status, arg)


# rocsparse_csrgemm_buffer_size.cpp, mult case: the descriptors' types are checked after all the pointers and
# arrays, and the operations before the quick return (m == 0).
def test_csrgemm_buffer_size_mult_check_order():
    h = rs.create_handle()
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgemm_buffer_size(h, **_pick(_gemm(descr_A=_symmetric(), csr_row_ptr_A=None), _BS))
    assert exc.value.arg == "csr_row_ptr_A"
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgemm_buffer_size(h, **_pick(_gemm(descr_B=_symmetric(), csr_col_ind_B=None), _BS))
    assert exc.value.arg == "csr_col_ind_B"
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.dcsrgemm_buffer_size(h, **_pick(_gemm(trans_A="T", m=0), _BS))
    assert exc.value.arg == "trans_A"


# rocsparse_csrgemm_buffer_size.cpp, scal case (beta only): k is not checked, descr_D comes before nnz_D, and
# the buffer size is 0 (rocsparse_csrgemm_scal_buffer_size.cpp); rocsparse_csrgemm_nnz.cpp and
# rocsparse_csrgemm.cpp then never check temp_buffer in this case.
def test_csrgemm_scal_case_needs_no_buffer():
    h = rs.create_handle()
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgemm_buffer_size(h, **_pick(_gemm(alpha=None, beta=1.0, nnz_D=-1, descr_D=None), _BS))
    assert exc.value.arg == "descr_D"
    args = _gemm(alpha=None, beta=2.0, temp_buffer=None)
    assert rs.dcsrgemm_buffer_size(h, **_pick({**args, "k": -1}, _BS)) == 0  # (the nnz stage does check k)
    assert rs.dcsrgemm_buffer_size(h, **_pick(args, _BS)) == 0
    assert rs.csrgemm_nnz(h, **_pick(args, _NNZ)) == 4
    assert list(args["csr_row_ptr_C"].get()) == [0, 1, 2, 3, 4]
    rs.dcsrgemm(h, **_compute_args(args))
    assert list(args["csr_val_C"].get()) == [2.0] * 4 and list(args["csr_col_ind_C"].get()) == [0, 1, 2, 3]


# rocsparse_csrgemm_nnz.cpp, mult case: the quick return (m == 0 or n == 0: nnz_C = 0, C's row pointer at
# descr_C's base) comes before the operation and temp_buffer checks.
def test_csrgemm_nnz_quick_return_before_operation_and_buffer():
    h = rs.create_handle()
    args = _gemm()
    rs.dcsrgemm_buffer_size(h, **_pick(args, _BS))
    base_one = rs.create_mat_descr()
    rs.set_mat_index_base(base_one, rs.IndexBase.one)
    row_ptr_c = rm.to_device(np.full(6, SENTINEL, np.int32))
    got = rs.csrgemm_nnz(h, **_pick({**args, "n": 0, "trans_A": "T", "temp_buffer": None, "descr_C": base_one,
                                     "csr_row_ptr_C": row_ptr_c}, _NNZ))
    assert got == 0
    assert list(row_ptr_c.get()) == [1] * 5 + [SENTINEL]  # m + 1 entries written
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.csrgemm_nnz(h, **_pick({**args, "trans_A": "T", "temp_buffer": None}, _NNZ))
    assert exc.value.arg == "trans_A"
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.csrgemm_nnz(h, **_pick({**args, "temp_buffer": None}, _NNZ))
    assert exc.value.arg == "temp_buffer"


# rocsparse_csrgemm.cpp: trans_A, trans_B, m, n, k come before info_C; in the mult case temp_buffer before the
# operations, both after the quick return; the "neither" case checks nothing more and writes nothing.
def test_csrgemm_compute_check_order():
    h = rs.create_handle()
    with pytest.raises(rs.SparseInvalidSizeError) as exc:
        rs.dcsrgemm(h, **_compute_args(_gemm(m=-1, info_C=None)))
    assert exc.value.arg == "m"
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgemm(h, **_compute_args(_gemm(info_C=rs.create_mat_info())))
    assert exc.value.arg == "info_C"
    args = _gemm()
    rs.dcsrgemm_buffer_size(h, **_pick(args, _BS))
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgemm(h, **_compute_args({**args, "trans_A": "T", "temp_buffer": None}))
    assert exc.value.arg == "temp_buffer"
    with pytest.raises(rs.SparseNotImplementedError):
        rs.dcsrgemm(h, **_compute_args({**args, "trans_A": "T"}))
    rs.dcsrgemm(h, **_compute_args({**args, "m": 0, "trans_A": "T", "temp_buffer": None}))  # quick return
    none = _gemm(k=0)  # alpha given but nothing to multiply, no beta
    assert rs.dcsrgemm_buffer_size(h, **_pick(none, _BS)) == 0
    rs.dcsrgemm(h, **_compute_args({**none, "descr_C": None, "csr_val_C": None, "csr_col_ind_C": None,
                                    "csr_row_ptr_C": None, "temp_buffer": None}))
    # nnz: C's row pointer at descr_C's base, descr_C read only when the row pointer is given.
    assert rs.csrgemm_nnz(h, **_pick({**none, "m": 0, "descr_C": None, "csr_row_ptr_C": None}, _NNZ)) == 0
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.csrgemm_nnz(h, **_pick({**none, "csr_row_ptr_C": None}, _NNZ))
    assert exc.value.arg == "csr_row_ptr_C"
    assert rs.csrgemm_nnz(h, **_pick(none, _NNZ)) == 0
    assert list(none["csr_row_ptr_C"].get()) == [0] * 5


# rocsparse_csrgemm_buffer_size.cpp: info_C's case is recorded before the checks, so csrgemm_nnz accepts an
# info whose buffer_size call failed.
def test_csrgemm_failed_buffer_size_still_records_the_case():
    h = rs.create_handle()
    args = _gemm()
    with pytest.raises(rs.SparseNotImplementedError):
        rs.dcsrgemm_buffer_size(h, **_pick({**args, "descr_B": _symmetric()}, _BS))
    assert rs.csrgemm_nnz(h, **_pick(args, _NNZ)) == 4
