"""Audit of four rocmath.sparse behaviours against rocSPARSE's source: the one zero pivot of a mat_info, the
format getters on descriptors of other formats, csrgemm's checks before the handle's, and spmv / spmm with
buffer_size and temp_buffer both null (each test names the rocSPARSE file and lines it follows)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
import scipy.sparse as sp
from hip_util import check, to_device, to_host

import rocmath as rm
import rocmath.sparse as rs
from rocmath.hip import hip, hipsparse

N = rs.Operation.none
FORCE, AUTO = rs.AnalysisPolicy.force, rs.SolvePolicy.auto
SENTINEL = -7
I32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
BASE0 = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO


def _csr(dense: np.ndarray, base: int = 0, explicit_zero: tuple[int, int] | None = None):
    """Device (val, row_ptr, col_ind) of ``dense``'s nonzeros (and of an explicitly stored zero)."""
    a = sp.csr_matrix(dense)
    if explicit_zero is not None:
        a[explicit_zero] = 0.0  # an entry of ``dense``: stays stored
    a.sort_indices()
    return (a.nnz, rm.to_device(a.data.astype(np.float64)), rm.to_device(a.indptr.astype(np.int32) + base),
            rm.to_device(a.indices.astype(np.int32) + base))


#: Row 2 has no diagonal entry: a structural zero pivot.
MISSING = np.array([[2.0, 0, 0, 0], [1, 2, 0, 0], [1, 1, 0, 0], [0, 0, 1, 2]])
#: Every diagonal entry is there (:func:`_csr` may store row 1's as an explicit 0: a numerical zero pivot).
FULL = np.array([[2.0, 0, 0, 0], [1, 4, 0, 0], [1, 1, 3, 0], [0, 0, 1, 2]])


@pytest.fixture
def env():
    """A handle, a general descriptor, a fresh mat_info and a temp_buffer; the handle is destroyed after."""
    h = rs.create_handle()
    yield h, rs.create_mat_descr(), rs.create_mat_info(), rm.empty(4096, np.uint8)
    rs.destroy_handle(h)


def _pivot(query, *args) -> int:
    """A host-mode ``*_zero_pivot`` query's position: -1 returned, or the position of the zero_pivot status."""
    try:
        return query(*args, None)
    except rs.SparseZeroPivotError as err:
        assert err.status is rs.Status.zero_pivot
        return err.position


def _all_pivots(h, descr, info) -> dict[str, int]:
    return {"csrsv": _pivot(rs.csrsv_zero_pivot, h, descr, info), "csrsm": _pivot(rs.csrsm_zero_pivot, h, info),
            "bsrsv": _pivot(rs.bsrsv_zero_pivot, h, info), "csrilu0": _pivot(rs.csrilu0_zero_pivot, h, info),
            "csric0": _pivot(rs.csric0_zero_pivot, h, info), "bsrilu0": _pivot(rs.bsrilu0_zero_pivot, h, info)}


def _csrsv_analysis(h, descr, info, buf, arrays):
    nnz, v, p, i = arrays
    rs.dcsrsv_analysis(h, N, 4, nnz, descr, v, p, i, info, FORCE, AUTO, buf)


def _ilu0_analysis(h, descr, info, buf, arrays):
    nnz, v, p, i = arrays
    rs.dcsrilu0_analysis(h, 4, nnz, descr, v, p, i, info, FORCE, AUTO, buf)


# --- 1. one zero pivot per mat_info ---------------------------------------------------------------------


@pytest.mark.parametrize("base", [0, 1])
def test_every_analysis_resets_the_one_zero_pivot_every_query_reads(env, base):
    # handle.h:189 (_rocsparse_mat_info::zero_pivot, one for the whole info); every analysis passes
    # &info->zero_pivot to trm_analysis (rocsparse_csrsv_analysis.cpp:649 and 735,
    # rocsparse_csrilu0_analysis.cpp:102-112), which resets it and records the structural pivot
    # (rocsparse_csrsv_analysis.cpp:174-184).  csrsv/csrsm/bsrsv_zero_pivot read it once it exists
    # (rocsparse_csrsv.cpp:50-114, rocsparse_csrsm.cpp:49-110, rocsparse_bsrsv.cpp:56-120); the factorizations'
    # queries only while their own analysis is there (rocsparse_csrilu0.cpp:914-977, rocsparse_csric0.cpp:880-943,
    # rocsparse_bsrilu0.cpp:1064-1125).
    h, descr, info, buf = env
    rs.set_mat_index_base(descr, base)
    assert set(_all_pivots(h, descr, info).values()) == {-1}  # no analysis yet: no pivot
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING, base))
    assert _all_pivots(h, descr, info) == {"csrsv": 2 + base, "csrsm": 2 + base, "bsrsv": 2 + base,
                                           "csrilu0": 2 + base, "csric0": -1, "bsrilu0": -1}
    # csrsv's analysis of a matrix with its whole diagonal resets the pivot csrilu0_zero_pivot reports too.
    _csrsv_analysis(h, descr, info, buf, _csr(FULL, base))
    assert set(_all_pivots(h, descr, info).values()) == {-1}
    # ... and an upper triangle's analysis is the same slot (row 2 is the one without a diagonal).
    rs.set_mat_fill_mode(descr, rs.FillMode.upper)
    _csrsv_analysis(h, descr, info, buf, _csr(MISSING.T, base))
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == 2 + base


def test_solves_lower_the_shared_pivot_and_unit_solves_reset_it(env):
    # rocsparse_csrsv_solve.cpp:122-127: a unit-diagonal solve re-initializes info->zero_pivot; otherwise the
    # kernel lowers it (csrsv_device.h:336-343, atomic_min of the row with a zero diagonal value).
    h, descr, info, buf = env
    nnz, v, p, i = full = _csr(FULL, explicit_zero=(1, 1))
    _csrsv_analysis(h, descr, info, buf, full)
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING))  # last analysis: the pivot is csrilu0's row 2
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == 2
    x, y = rm.to_device(np.ones(4)), rm.to_device(np.full(4, 5.0))
    rs.dcsrsv_solve(h, N, 4, nnz, 1.0, descr, v, p, i, info, x, y, AUTO, buf)
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == 1 == _pivot(rs.csrsv_zero_pivot, h, descr, info)
    unit = rs.create_mat_descr()
    rs.set_mat_diag_type(unit, rs.DiagType.unit)
    rs.dcsrsv_solve(h, N, 4, nnz, 1.0, unit, v, p, i, info, x, y, AUTO, buf)
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == -1 == _pivot(rs.csrsv_zero_pivot, h, descr, info)


def test_clear_keeps_the_shared_pivot(env):
    # rocsparse_csrsv.cpp:121-157 and rocsparse_csrilu0.cpp:771-789 free analyses only (the pivot is freed by
    # destroy_mat_info, rocsparse_auxiliary.cpp:1276-1280); csrilu0_zero_pivot then reads -1 as its analysis is
    # gone (rocsparse_csrilu0.cpp:916-929), csrsv_zero_pivot still reads the pivot.
    h, descr, info, buf = env
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING))
    rs.csrsv_clear(h, descr, info)
    rs.csrsm_clear(h, info)
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == 2 == _pivot(rs.csrsv_zero_pivot, h, descr, info)
    rs.csrilu0_clear(h, info)
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == -1
    assert _pivot(rs.csrsv_zero_pivot, h, descr, info) == 2 == _pivot(rs.bsrsv_zero_pivot, h, info)


def test_singular_pivot_is_kept_when_another_analysis_resets_the_zero_pivot(env):
    # rocsparse_csrilu0_analysis.cpp:114-126: the analysis copies the zero pivot to info->singular_pivot, which
    # csrsv's analysis leaves alone; csrilu0_singular_pivot is min(zero, singular), success in every case
    # (rocsparse_csrilu0.cpp:1017-1054).
    h, descr, info, buf = env
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING))
    _csrsv_analysis(h, descr, info, buf, _csr(FULL))
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == -1
    assert rs.csrilu0_singular_pivot(h, info, None) == 2
    assert rs.csric0_singular_pivot(h, info, None) == -1  # no csric0 analysis (rocsparse_csric0.cpp:970-983)


def test_zero_pivot_queries_in_device_pointer_mode(env):
    # rocsparse_csrsv.cpp:52-64 and 67-91 / rocsparse_csrilu0.cpp:916-957: device mode writes -1 or the pivot to
    # position (then returns zero_pivot); a factorization query without its analysis writes -1 and succeeds.
    h, descr, info, buf = env
    rs.set_pointer_mode(h, rs.PointerMode.device)
    pos = rm.to_device(np.full(2, SENTINEL, np.int32))
    assert rs.csrsv_zero_pivot(h, descr, info, pos) is None
    assert list(pos.get()) == [-1, SENTINEL]
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.csrilu0_zero_pivot(h, info, None)
    assert (err.value.arg, err.value.index) == ("position", 3)
    rs.set_pointer_mode(h, rs.PointerMode.host)
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING))
    rs.set_pointer_mode(h, rs.PointerMode.device)
    for query, args in ((rs.csrsv_zero_pivot, (h, descr, info)), (rs.csrsm_zero_pivot, (h, info)),
                        (rs.csrilu0_zero_pivot, (h, info))):
        pos = rm.to_device(np.full(2, SENTINEL, np.int32))
        with pytest.raises(rs.SparseZeroPivotError) as zp:
            query(*args, pos)
        assert zp.value.status is rs.Status.zero_pivot and zp.value.position == 2
        assert list(pos.get()) == [2, SENTINEL]
    pos = rm.to_device(np.full(2, SENTINEL, np.int32))
    assert rs.csric0_zero_pivot(h, info, pos) is None
    assert list(pos.get()) == [-1, SENTINEL]


def test_block_and_multi_rhs_routines_share_the_pivot(env):
    # rocsparse_bsrilu0.cpp:253-262, rocsparse_bsrsv_analysis.cpp:163-175 and 230-242,
    # rocsparse_csrsm_analysis.cpp:136-148 and 225-237: the same &info->zero_pivot, so csrilu0_zero_pivot (its
    # analysis still there) reports bsrilu0's block row, and csrsm's analysis resets it.
    h, descr, info, buf = env
    _ilu0_analysis(h, descr, info, buf, _csr(MISSING))
    # 2 x 2 blocks: block row 1 has no diagonal block.
    bp, bc = rm.to_device(np.array([0, 1, 2], np.int32)), rm.to_device(np.array([0, 0], np.int32))
    bv = rm.to_device(np.ones(8))
    rs.dbsrilu0_analysis(h, rs.Direction.row, 2, 2, descr, bv, bp, bc, 2, info, FORCE, AUTO, buf)
    assert _pivot(rs.csrilu0_zero_pivot, h, info) == 1 == _pivot(rs.bsrilu0_zero_pivot, h, info)
    nnz, v, p, i = _csr(FULL)
    B = rm.to_device(np.ones(4))
    rs.dcsrsm_analysis(h, N, N, 4, 1, nnz, 1.0, descr, v, p, i, B, 4, info, FORCE, AUTO, buf)
    assert set(_all_pivots(h, descr, info).values()) == {-1}


def test_spsv_zero_pivot_is_its_descriptors_info_pivot(env):
    # rocsparse_spsv.cpp:89-131 and 138-172: spsv's stages are csrsv's on mat->info, so its zero pivot is that
    # info's: any query of the info reads it, and another routine's analysis there resets it.
    h, _, _, buf = env
    nnz, v, p, i = _csr(FULL, explicit_zero=(1, 1))
    ct = rs.Datatype.f64_r
    A = rs.create_csr_descr(4, 4, nnz, p, i, v, rs.IndexType.i32, rs.IndexType.i32, 0, ct)
    x, y = rs.create_dnvec_descr(4, rm.to_device(np.ones(4)), ct), rs.create_dnvec_descr(4, rm.zeros(4), ct)
    args = (h, N, 1.0, A, x, y, ct, rs.SpSVAlg.default)
    size = rs.spsv(*args, rs.SpSVStage.buffer_size)
    temp = rm.empty(size, np.uint8)
    rs.spsv(*args, rs.SpSVStage.preprocess, None, temp)
    rs.spsv(*args, rs.SpSVStage.compute, None, temp)
    assert _pivot(rs.csrsm_zero_pivot, h, A.info) == 1 == _pivot(rs.bsrsv_zero_pivot, h, A.info)
    _ilu0_analysis(h, A.descr, A.info, buf, _csr(FULL))
    assert _pivot(rs.csrsv_zero_pivot, h, A.descr, A.info) == -1


def test_copy_mat_info_copies_the_pivots_it_has(env):
    # rocsparse_auxiliary.cpp:976-1006 and 1008-1037: src's zero and singular pivots replace dest's, or dest keeps
    # its own when src has none.
    h, descr, src, buf = env
    _ilu0_analysis(h, descr, src, buf, _csr(MISSING))
    dest = rs.create_mat_info()
    rs.copy_mat_info(dest, src)
    _csrsv_analysis(h, descr, src, buf, _csr(FULL))  # src's pivot changes, dest's copy does not
    assert _pivot(rs.csrilu0_zero_pivot, h, dest) == 2 == rs.csrilu0_singular_pivot(h, dest, None)
    assert _pivot(rs.csrilu0_zero_pivot, h, src) == -1
    rs.copy_mat_info(dest, rs.create_mat_info())  # nothing to copy: dest's pivots stay
    assert _pivot(rs.csrsv_zero_pivot, h, descr, dest) == 2


# --- 2. <format>_get on a descriptor of another format ---------------------------------------------------


def test_getters_read_any_format_as_rocsparse():
    # rocsparse_auxiliary.cpp:2454-3132: every getter checks descr (null, init) and its out-pointers only, and
    # returns the descriptor's fields; what a format leaves unset is zero (the fields of
    # _rocsparse_spmat_descr, handle.h:436-475, as the create functions, rocsparse_auxiliary.cpp:1635-2400,
    # leave them): null arrays, ell_width / ell_cols / block_dim 0, block_dir 0 (row).
    it64, it32, one, dt = rs.IndexType.i64, rs.IndexType.i32, rs.IndexBase.one, rs.Datatype.f64_r
    ptr, ind, val = rm.zeros(4, np.int64), rm.zeros(2, np.int32), rm.zeros(2)
    csr = rs.create_csr_descr(3, 4, 2, ptr, ind, val, it64, it32, one, dt)
    assert rs.coo_get(csr) == (3, 4, 2, ptr, ind, val, it64, one, dt)
    assert rs.coo_aos_get(csr) == (3, 4, 2, None, val, it64, one, dt)
    assert rs.csc_get(csr) == (3, 4, 2, ind, ptr, val, it32, it64, one, dt)
    assert rs.ell_get(csr) == (3, 4, ind, val, 0, it64, one, dt)
    assert rs.bell_get(csr) == (3, 4, rs.Direction.row, 0, 0, ind, val, it64, one, dt)
    assert rs.bsr_get(csr) == (3, 4, 2, rs.Direction.row, 0, ptr, ind, val, it64, it32, one, dt)
    # ELL: no row array, nnz = rows * width (rocsparse_auxiliary.cpp:2155-2177)
    ell = rs.create_ell_descr(3, 4, ind, val, 2, it32, 0, dt)
    assert rs.csr_get(ell) == (3, 4, 6, None, ind, val, it32, it32, rs.IndexBase.zero, dt)
    # COO (AoS): its pairs only in ind_data (rocsparse_auxiliary.cpp:1795-1812)
    aos = rs.create_coo_aos_descr(3, 4, 2, ind, val, it32, 0, dt)
    assert rs.coo_get(aos) == (3, 4, 2, None, None, val, it32, rs.IndexBase.zero, dt)
    # BSR: blocks, block_dim and direction (rocsparse_auxiliary.cpp:2385-2405); blocked ELL: nnz 0
    bsr = rs.create_bsr_descr(1, 2, 2, rs.Direction.column, 3, ptr, ind, val, it64, it32, one, dt)
    assert rs.bell_get(bsr) == (1, 2, rs.Direction.column, 3, 0, ind, val, it64, one, dt)
    bell = rs.create_bell_descr(4, 4, rs.Direction.column, 2, 2, ind, val, it32, 0, dt)
    assert rs.bsr_get(bell) == (4, 4, 0, rs.Direction.column, 2, None, ind, val, it32, it32, rs.IndexBase.zero, dt)
    # reading changes nothing
    assert rs.spmat_get_format(csr) is rs.Format.csr and rs.csr_get(csr) == (3, 4, 2, ptr, ind, val, it64, it32, one,
                                                                             dt)


def test_getters_still_check_the_descriptor():
    # rocsparse_auxiliary.cpp:2466, 2641 (ROCSPARSE_CHECKARG_POINTER(0, descr)) and 2807 (bsr_get): a null
    # descriptor is invalid_pointer; rocmath's destroyed descriptor is the same.
    d = rs.create_coo_descr(2, 2, 0, None, None, None, rs.IndexType.i32, 0, rs.Datatype.f32_r)
    rs.destroy_spmat_descr(d)
    for get in (rs.csr_get, rs.coo_get, rs.bsr_get):
        for bad in (None, d):
            with pytest.raises(rs.SparseInvalidPointerError) as err:
                get(bad)
            assert (err.value.arg, err.value.index) == ("descr", 1)


def test_hipsparse_getters_read_other_formats():
    # hipSPARSE's hipsparseCooGet is rocsparse_coo_get, which checks no format (rocsparse_auxiliary.cpp:2454-2495).
    dp, di, dv = (to_device(a) for a in (np.array([0, 1, 2], np.int32), np.array([1, 0], np.int32), np.ones(2)))
    mat = check(hipsparse.hipsparseCreateCsr(2, 2, 2, dp, di, dv, I32, I32, BASE0, hip.hipDataType.HIP_R_64F))
    assert hipsparse.hipsparseCooGet(mat) == (hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS, 2, 2, 2, int(dp),
                                              int(di), int(dv), I32, BASE0, hip.hipDataType.HIP_R_64F)
    check(hipsparse.hipsparseDestroySpMat(mat))
    for d in (dp, di, dv):
        check(hip.hipFree(d))


# --- 3. csrgemm: info_C before the handle ------------------------------------------------------------------

_GEMM_BS = ("trans_A", "trans_B", "m", "n", "k", "alpha", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A",
            "descr_B", "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "beta", "descr_D", "nnz_D", "csr_row_ptr_D",
            "csr_col_ind_D", "info_C")
_GEMM_NNZ = ("trans_A", "trans_B", "m", "n", "k", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A", "descr_B",
             "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "descr_D", "nnz_D", "csr_row_ptr_D", "csr_col_ind_D",
             "descr_C", "csr_row_ptr_C", "nnz_C", "info_C", "temp_buffer")


def _gemm(**change):
    """C := alpha I I (+ beta I): every csrgemm argument (4 x 4 identities), with ``change`` applied."""
    v, p, i = rm.to_device(np.ones(4)), rm.to_device(np.arange(5, dtype=np.int32)), rm.to_device(
        np.arange(4, dtype=np.int32))
    args = dict(trans_A=N, trans_B=N, m=4, n=4, k=4, alpha=1.0, descr_A=rs.create_mat_descr(), nnz_A=4, csr_val_A=v,
                csr_row_ptr_A=p, csr_col_ind_A=i, descr_B=rs.create_mat_descr(), nnz_B=4, csr_val_B=v,
                csr_row_ptr_B=p, csr_col_ind_B=i, beta=None, descr_D=rs.create_mat_descr(), nnz_D=4, csr_val_D=v,
                csr_row_ptr_D=p, csr_col_ind_D=i, descr_C=rs.create_mat_descr(), csr_val_C=rm.empty(4),
                csr_row_ptr_C=rm.to_device(np.full(5, SENTINEL, np.int32)), csr_col_ind_C=rm.empty(4, np.int32),
                nnz_C=None, info_C=rs.create_mat_info(), temp_buffer=rm.empty(256, np.uint8))
    args.update(change)
    return args


def _pick(args, names):
    return {k: args[k] for k in names}


def _dead_handle():
    h = rs.create_handle()
    rs.destroy_handle(h)
    return h


@pytest.mark.parametrize("bad_handle", ["destroyed", None])
def test_csrgemm_buffer_size_checks_and_writes_info_C_before_the_handle(bad_handle):
    # rocsparse_csrgemm_buffer_size.cpp:442-447: info_C is checked (invalid_pointer) and its case re-recorded
    # before csrgemm_buffer_size_checkarg's handle check (line 86).
    h = _dead_handle() if bad_handle == "destroyed" else None
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dcsrgemm_buffer_size(h, **_pick(_gemm(info_C=None), _GEMM_BS))
    assert (err.value.arg, err.value.index) == ("info_C", 21)
    good = rs.create_handle()
    args = _gemm()
    assert rs.dcsrgemm_buffer_size(good, **_pick(args, _GEMM_BS)) > 0  # mult case: the nnz stage needs temp_buffer
    with pytest.raises(rs.SparseInvalidHandleError) as err:  # now only D scaled, recorded before the handle's check
        rs.dcsrgemm_buffer_size(h, **_pick({**args, "alpha": None, "beta": 2.0}, _GEMM_BS))
    assert (err.value.arg, err.value.index) == ("handle", 1)
    assert args["info_C"].csrgemm.mul is False and args["info_C"].csrgemm.add is True
    # so the nnz stage runs the scal case, which needs no temp_buffer (rocsparse_csrgemm_nnz.cpp:742-782)
    assert rs.csrgemm_nnz(good, **_pick({**args, "temp_buffer": None}, _GEMM_NNZ)) == 4
    assert list(args["csr_row_ptr_C"].get()) == [0, 1, 2, 3, 4]
    rs.destroy_handle(good)


@pytest.mark.parametrize("bad_handle", ["destroyed", None])
def test_csrgemm_nnz_checks_info_C_before_the_handle(bad_handle):
    # rocsparse_csrgemm_nnz.cpp:579-581: info_C null, or without csrgemm_buffer_size's record, is invalid_pointer
    # before any case's handle check (lines 588, 674, 745, 790); C's row pointer is not written.
    h = _dead_handle() if bad_handle == "destroyed" else None
    args = _gemm()
    for info in (None, rs.create_mat_info()):
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            rs.csrgemm_nnz(h, **_pick({**args, "info_C": info}, _GEMM_NNZ))
        assert (err.value.arg, err.value.index) == ("info_C", 22)
    good = rs.create_handle()
    rs.dcsrgemm_buffer_size(good, **_pick(args, _GEMM_BS))
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.csrgemm_nnz(h, **_pick(args, _GEMM_NNZ))
    assert list(args["csr_row_ptr_C"].get()) == [SENTINEL] * 5
    rs.destroy_handle(good)


def test_csrgemm_checks_the_handle_before_info_C():
    # rocsparse_csrgemm.cpp:311-319: the compute stage checks the handle, the operations and sizes, then info_C.
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dcsrgemm(_dead_handle(), **{k: v for k, v in _gemm(info_C=None).items() if k != "nnz_C"})
    with pytest.raises(rs.SparseInvalidSizeError) as err:
        rs.dcsrgemm(rs.create_handle(), **{k: v for k, v in _gemm(info_C=None, k=-1).items() if k != "nnz_C"})
    assert err.value.arg == "k"


# --- 4. spmv / spmm with buffer_size and temp_buffer null ---------------------------------------------------


def _spmv_args(h):
    ct = rs.Datatype.f64_r
    nnz, v, p, i = _csr(FULL)
    A = rs.create_csr_descr(4, 4, nnz, p, i, v, rs.IndexType.i32, rs.IndexType.i32, 0, ct)
    y = rm.to_device(np.full(4, 3.0))
    return (h, N, 1.0, A, rs.create_dnvec_descr(4, rm.to_device(np.ones(4)), ct), 0.0, rs.create_dnvec_descr(4, y, ct),
            ct, rs.SpMVAlg.default), y


def test_spmv_with_buffer_size_and_temp_buffer_null_is_invalid_pointer(env):
    # rocsparse_spmv.cpp:845-861: after the enums (stage the last), buffer_size and temp_buffer both null is
    # invalid_pointer naming buffer_size (#10 after the handle), at every stage, before the type dispatch.
    h = env[0]
    args, y = _spmv_args(h)
    for stage in rs.SpMVStage:
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            rs.spmv(*args, stage, None, None)
        assert (err.value.arg, err.value.index) == ("buffer_size", 11)
    with pytest.raises(rs.SparseInvalidValueError) as err:  # the stage's enum check comes first
        rs.spmv(*args, 99, None, None)
    assert err.value.arg == "stage"
    f32 = (*args[:7], rs.Datatype.f32_r, args[8])  # an f32 compute type with f64 operands: not_implemented later
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.spmv(*f32, rs.SpMVStage.compute, None, None)
    assert list(y.get()) == [3.0] * 4
    # one of them given: the stages run (the size is returned whatever buffer_size is)
    size = np.zeros(1, np.uint64)
    assert rs.spmv(*args, rs.SpMVStage.buffer_size, size) == 0 == size[0]
    assert rs.spmv(*args, rs.SpMVStage.compute, None, rm.empty(1, np.uint8)) == 0
    assert rs.spmv(*args, rs.SpMVStage.compute, size, None) == 0
    assert rs.spmv(*args, rs.SpMVStage.compute) == 0  # buffer_size omitted: a valid pointer
    np.testing.assert_array_equal(y.get(), FULL @ np.ones(4))


def test_spmm_with_buffer_size_and_temp_buffer_null_is_invalid_pointer(env):
    # rocsparse_spmm.cpp:882-911: compute_type against C's type, alg and stage, then buffer_size and temp_buffer
    # both null (invalid_pointer naming buffer_size, #11 after the handle), then at the buffer_size stage a null
    # buffer_size whatever temp_buffer is.
    h = env[0]
    ct = rs.Datatype.f64_r
    nnz, v, p, i = _csr(FULL)
    A = rs.create_csr_descr(4, 4, nnz, p, i, v, rs.IndexType.i32, rs.IndexType.i32, 0, ct)
    c = rm.to_device(np.full(8, 3.0))
    B = rs.create_dnmat_descr(4, 2, 4, rm.to_device(np.ones(8)), ct, rs.Order.column)
    C = rs.create_dnmat_descr(4, 2, 4, c, ct, rs.Order.column)
    args = (h, N, N, 1.0, A, B, 0.0, C, ct, rs.SpMMAlg.default)
    for stage in rs.SpMMStage:
        with pytest.raises(rs.SparseInvalidPointerError) as err:
            rs.spmm(*args, stage, None, None)
        assert (err.value.arg, err.value.index) == ("buffer_size", 12)
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.spmm(*args, rs.SpMMStage.buffer_size, None, rm.empty(1, np.uint8))
    assert err.value.arg == "buffer_size"
    with pytest.raises(rs.SparseNotImplementedError) as err:  # compute_type against C's type comes first
        rs.spmm(*args[:8], rs.Datatype.f32_r, args[9], rs.SpMMStage.compute, None, None)
    assert err.value.arg == "compute_type"
    assert list(c.get()) == [3.0] * 8
    assert rs.spmm(*args, rs.SpMMStage.compute, None, rm.empty(1, np.uint8)) == 0
    np.testing.assert_array_equal(c.get().reshape(2, 4).T, FULL @ np.ones((4, 2)))


def test_hipsparse_spmv_and_spmm_pass_a_buffer_size_pointer():
    # hipSPARSE's library/src/amd_detail/hipsparse.cpp passes &bufferSize to rocsparse_spmv's preprocess and
    # compute stages (lines 14282-14284, 14309-14311; spmm's 14366-14368, 14395-14397), so a NULL
    # externalBuffer of a product needing none is no error.
    h = check(hipsparse.hipsparseCreate())
    F64 = hip.hipDataType.HIP_R_64F
    a = sp.csr_matrix(FULL)
    arrays = [to_device(x) for x in (a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data, np.ones(4),
                                     np.zeros(4))]
    dp, di, dv, dx, dy = arrays
    mat = check(hipsparse.hipsparseCreateCsr(4, 4, a.nnz, dp, di, dv, I32, I32, BASE0, F64))
    vx, vy = check(hipsparse.hipsparseCreateDnVec(4, dx, F64)), check(hipsparse.hipsparseCreateDnVec(4, dy, F64))
    one, zero = ctypes.c_double(1.0), ctypes.c_double(0.0)
    nop, alg = hipsparse.hipsparseOperation_t.HIPSPARSE_OPERATION_NON_TRANSPOSE, \
        hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    assert hipsparse.hipsparseSpMV_bufferSize(h, nop, one, mat, vx, zero, vy, F64, alg)[1] == 0
    check(hipsparse.hipsparseSpMV_preprocess(h, nop, one, mat, vx, zero, vy, F64, alg, None))
    check(hipsparse.hipsparseSpMV(h, nop, one, mat, vx, zero, vy, F64, alg, None))
    np.testing.assert_array_equal(to_host(dy, np.zeros(4)), FULL @ np.ones(4))
    for d in (vx, vy):
        check(hipsparse.hipsparseDestroyDnVec(d))
    check(hipsparse.hipsparseDestroySpMat(mat))
    for d in arrays:
        check(hip.hipFree(d))
    check(hipsparse.hipsparseDestroy(h))
