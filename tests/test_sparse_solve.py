"""rocmath.sparse csrsv (analysis, solve, zero pivot, clear) and gtsv_no_pivot_strided_batch against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import examples

TOL = {"s": 2e-3, "d": 1e-10, "c": 2e-3, "z": 1e-10}


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def triangular_problem(rng: np.random.Generator, m: int, density: float, dtype) -> sp.csr_matrix:
    """A general sorted CSR matrix with a well-conditioned diagonal (entries on both sides of it)."""
    a = sp.random(m, m, density=density, format="csr", random_state=rng, dtype=np.float64)
    a.data = rng.standard_normal(a.nnz) * 0.3
    if np.dtype(dtype).kind == "c":
        a = a + 0.3j * sp.csr_matrix((rng.standard_normal(a.nnz), a.indices, a.indptr), shape=a.shape)
    a = (a + sp.diags(np.full(m, 4.0) + rng.random(m))).astype(dtype).tocsr()
    a.sort_indices()
    return a


def device_csr(a: sp.csr_matrix, itype=np.int32, base: int = 0):
    return (rm.to_device(a.data), rm.to_device((a.indptr + base).astype(itype)),
            rm.to_device((a.indices + base).astype(itype)))


def reference(a: sp.csr_matrix, fill: int, unit: bool, trans: rs.Operation, rhs: np.ndarray) -> np.ndarray:
    t = sp.tril(a, -1 if unit else 0) if fill == 0 else sp.triu(a, 1 if unit else 0)
    if unit:
        t = t + sp.identity(a.shape[0], dtype=a.dtype)
    if trans is rs.Operation.transpose:
        t = t.T
    elif trans is rs.Operation.conjugate_transpose:
        t = t.conj().T
    lower = (fill == 0) == (trans is rs.Operation.none)
    return sla.spsolve_triangular(t.tocsr(), rhs, lower=lower)


def solve(h, p: Precision, a: sp.csr_matrix, descr, info, trans, alpha, x: np.ndarray, itype=np.int32, base=0):
    m = a.shape[0]
    dv, dp, dc = device_csr(a, itype, base)
    size = fn(p, "csrsv_buffer_size")(h, trans, m, a.nnz, descr, dv, dp, dc, info)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "csrsv_analysis")(h, trans, m, a.nnz, descr, dv, dp, dc, info, rs.AnalysisPolicy.force,
                            rs.SolvePolicy.auto, buf)
    dy = rm.to_device(np.full(m, 7, p.dtype))
    fn(p, "csrsv_solve")(h, trans, m, a.nnz, alpha, descr, dv, dp, dc, info, rm.to_device(x), dy,
                         rs.SolvePolicy.auto, buf)
    return dy.get()


@settings(max_examples=examples(40), deadline=None)
@given(m=st.sampled_from([1, 2, 5, 40, 130]), density=st.sampled_from([0.0, 0.05, 0.3]),
       p=st.sampled_from(SDCZ), fill=st.sampled_from([0, 1]), unit=st.booleans(),
       trans=st.sampled_from(list(rs.Operation)), base=st.sampled_from([0, 1]),
       itype=st.sampled_from([np.int32, np.int64]), seed=st.integers(0, 2**16))
def test_csrsv_matches_scipy(m, density, p, fill, unit, trans, base, itype, seed):
    rng = np.random.default_rng(seed)
    a = triangular_problem(rng, m, density, p.dtype)
    x = (rng.standard_normal(m) + (1j * rng.standard_normal(m) if p.is_complex else 0)).astype(p.dtype)
    alpha = (1.5 - 0.5j) if p.is_complex else 1.5
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_fill_mode(descr, fill)
    rs.set_mat_diag_type(descr, rs.DiagType.unit if unit else rs.DiagType.non_unit)
    rs.set_mat_index_base(descr, base)
    y = solve(h, p, a, descr, info, trans, alpha, x, itype, base)
    ref = reference(a.astype(np.complex128 if p.is_complex else np.float64), fill, unit, trans, alpha * x)
    np.testing.assert_allclose(y, ref, rtol=TOL[p.letter], atol=TOL[p.letter])
    assert rs.csrsv_zero_pivot(h, descr, info, None) == -1


def test_csrsv_residual_laplacian_and_levels_in_parallel():
    """A big lower triangle with wide levels (rows run in parallel), checked by its residual."""
    rng = np.random.default_rng(3)
    m = 60000
    a = sp.random(m, m, density=2e-5, format="csr", random_state=rng) + sp.diags(np.full(m, 3.0))
    a = a.tocsr()
    a.sort_indices()
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    x = rng.standard_normal(m)
    y = solve(h, rm.precision.D, a, descr, info, rs.Operation.none, 1.0, x)
    assert info.csrsv.analyses[(False, rs.FillMode.lower)].nlevels < m // 10
    np.testing.assert_allclose(sp.tril(a) @ y, x, rtol=1e-10, atol=1e-10)
    # Deterministic: the same bits again.
    assert np.array_equal(y, solve(h, rm.precision.D, a, descr, info, rs.Operation.none, 1.0, x))


@pytest.mark.parametrize("trans", list(rs.Operation), ids=lambda t: t.name)
@pytest.mark.parametrize("base", [0, 1])
def test_csrsv_zero_pivots_by_position(base, trans):
    """Zero pivots are reported as their row plus the index base, whatever the operation (a transposed
    analysis runs on a 0-based transposed structure: regression for positions reported 0-based)."""
    p = rm.precision.Z if trans is rs.Operation.conjugate_transpose else rm.precision.D
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_index_base(descr, base)
    d = sp.diags(np.arange(1.0, 7.0)).tocsr()
    # Structural: row 4's diagonal is missing (found by the analysis).
    a = sp.csr_matrix(d.toarray() - np.diag([0, 0, 0, 0, 5, 0]) + np.tril(np.ones((6, 6)), -1)).astype(p.dtype)
    a.sort_indices()
    solve(h, p, a, descr, info, trans, 1.0, np.ones(6, p.dtype), base=base)
    with pytest.raises(rs.SparseZeroPivotError) as err:
        rs.csrsv_zero_pivot(h, descr, info, None)
    assert err.value.status is rs.Status.zero_pivot and err.value.position == 4 + base
    # Numerical: row 2's diagonal is an explicit zero (found by the solve, treated as one).
    b = sp.csr_matrix(np.tril(np.ones((6, 6)))).astype(p.dtype)
    b.data[b.indptr[3] - 1] = 0.0
    info2 = rs.create_mat_info()
    y = solve(h, p, b, descr, info2, trans, 1.0, np.ones(6, p.dtype), base=base)
    assert np.isfinite(y).all()
    b_one = b.tolil()
    b_one[2, 2] = 1.0
    np.testing.assert_allclose(y, reference(sp.csr_matrix(b_one), 0, False, trans, np.ones(6)), rtol=1e-12)
    with pytest.raises(rs.SparseZeroPivotError) as err:
        rs.csrsv_zero_pivot(h, descr, info2, None)
    assert err.value.position == 2 + base
    # Device pointer mode writes the position (and still returns zero_pivot).
    rs.set_pointer_mode(h, rs.PointerMode.device)
    pos = rm.to_device(np.zeros(1, np.int32))
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csrsv_zero_pivot(h, descr, info2, pos)
    assert pos.get()[0] == 2 + base
    # A unit diagonal ignores the diagonal: no zero pivot.
    rs.set_pointer_mode(h, rs.PointerMode.host)
    rs.set_mat_diag_type(descr, rs.DiagType.unit)
    solve(h, p, b, descr, info2, trans, 1.0, np.ones(6, p.dtype), base=base)
    assert rs.csrsv_zero_pivot(h, descr, info2, None) == -1
    # No analysis at all: -1.
    assert rs.csrsv_zero_pivot(h, descr, rs.create_mat_info(), None) == -1


def test_csrsv_statuses_and_clear():
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    a = sp.identity(4, format="csr")
    dv, dp, dc = device_csr(a)
    buf = rm.empty(4096, np.uint8)
    N = rs.Operation.none
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.dcsrsv_buffer_size(h, N, 4, 4, None, dv, dp, dc, info)
    assert e.value.index == 5
    with pytest.raises(rs.SparseInvalidValueError) as e:
        rs.dcsrsv_analysis(h, 7, 4, 4, descr, dv, dp, dc, info, 0, 0, buf)
    assert e.value.arg == "trans"
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.dcsrsv_analysis(h, N, -1, 4, descr, dv, dp, dc, info, 0, 0, buf)
    rs.set_mat_type(descr, rs.MatrixType.triangular)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.dcsrsv_analysis(h, N, 4, 4, descr, dv, dp, dc, info, 0, 0, buf)
    rs.set_mat_type(descr, rs.MatrixType.general)
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)
    with pytest.raises(rs.SparseRequiresSortedStorageError):
        rs.dcsrsv_solve(h, N, 4, 4, 1.0, descr, dv, dp, dc, info, dv, dv, 0, buf)
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    assert rs.dcsrsv_buffer_size(h, N, 0, 0, descr, None, None, None, info) == 0
    rs.dcsrsv_analysis(h, N, 0, 0, descr, None, None, None, info, 0, 0, None)  # quick return
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.dcsrsv_analysis(h, N, 4, 4, descr, dv, dp, dc, info, 0, 0, None)
    assert e.value.arg == "temp_buffer"
    with pytest.raises(rs.SparseInvalidPointerError) as e:  # solve before analysis
        rs.dcsrsv_solve(h, N, 4, 4, 1.0, descr, dv, dp, dc, info, dv, rm.empty(4), 0, buf)
    assert e.value.arg == "info"
    rs.dcsrsv_analysis(h, N, 4, 4, descr, dv, dp, dc, info, 0, 0, buf)
    y = rm.empty(4)
    rs.dcsrsv_solve(h, N, 4, 4, 2.0, descr, dv, dp, dc, info, rm.to_device(np.arange(4.0)), y, 0, buf)
    assert np.array_equal(y.get(), 2 * np.arange(4.0))
    rs.csrsv_clear(h, descr, info)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.dcsrsv_solve(h, N, 4, 4, 1.0, descr, dv, dp, dc, info, dv, y, 0, buf)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.csrsv_clear(h, descr, None)


# --- gtsv_no_pivot_strided_batch ---------------------------------------------------------------------


@settings(max_examples=examples(30), deadline=None)
@given(m=st.sampled_from([2, 3, 17, 600]), count=st.sampled_from([0, 1, 5, 40]), pad=st.sampled_from([0, 3]),
       p=st.sampled_from(SDCZ), seed=st.integers(0, 2**16))
def test_gtsv_no_pivot_strided_batch_matches_solve_banded(m, count, pad, p, seed):
    rng = np.random.default_rng(seed)
    stride = m + pad
    total = stride * max(count, 1)

    def rnd(scale=1.0, shift=0.0):
        v = rng.standard_normal(total) * scale + shift
        if p.is_complex:
            v = v + 1j * rng.standard_normal(total) * scale
        return v.astype(p.dtype)

    dl, d, du, x = rnd(), rnd(0.5, 5.0), rnd(), rnd()
    h = rs.create_handle()
    size = fn(p, "gtsv_no_pivot_strided_batch_buffer_size")(h, m, dl, d, du, x, count, stride)
    assert size == (0 if m <= 512 or count == 0 else 8 * (((p.dtype.itemsize * m * count - 1) // 256 + 1) * 256))
    dx = rm.to_device(x)
    fn(p, "gtsv_no_pivot_strided_batch")(h, m, rm.to_device(dl), rm.to_device(d), rm.to_device(du), dx, count,
                                         stride, rm.empty(max(size, 1), np.uint8))
    got = dx.get()
    for b in range(count):
        s = slice(b * stride, b * stride + m)
        ab = np.zeros((3, m), np.complex128 if p.is_complex else np.float64)
        ab[0, 1:], ab[1], ab[2, :-1] = du[s][:-1], d[s], dl[s][1:]
        np.testing.assert_allclose(got[s], sl.solve_banded((1, 1), ab, x[s]), rtol=TOL[p.letter] * 10,
                                   atol=TOL[p.letter] * 10)
        assert np.array_equal(got[b * stride + m: (b + 1) * stride], x[b * stride + m: (b + 1) * stride])
    if count == 0:
        assert np.array_equal(got, x)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_gtsv_no_pivot_strided_batch_zero_pivot_propagates(p):
    """A zero pivot gives what the device's division gives, not an exception (regression: numba raised on a
    complex division by zero): real inf, then NaN; complex NaN + NaN j (rocSPARSE's complex division by 0).
    The batch's other systems are solved as usual."""
    m = 4
    d = np.full(2 * m, 4, p.dtype)
    d[0] = 0  # system 0's first pivot
    ones = np.ones(2 * m, p.dtype)
    dx = rm.to_device(ones)
    fn(p, "gtsv_no_pivot_strided_batch")(rs.create_handle(), m, rm.to_device(ones), rm.to_device(d),
                                         rm.to_device(ones), dx, 2, m, None)
    got = dx.get()
    assert np.isnan(got[:m].real).all()
    if p.is_complex:
        assert np.isnan(got[:m].imag).all()
    ab = np.array([np.r_[0, ones[m + 1:]], d[m:], np.r_[ones[m:-1], 0]]).astype(np.complex128)
    np.testing.assert_allclose(got[m:], sl.solve_banded((1, 1), ab, ones[m:]), rtol=TOL[p.letter])


def test_gtsv_statuses():
    h = rs.create_handle()
    d = rm.empty(16)
    f = rs.dgtsv_no_pivot_strided_batch
    with pytest.raises(rs.SparseInvalidSizeError) as e:
        f(h, 1, d, d, d, d, 1, 4, None)
    assert e.value.arg == "m" and e.value.index == 2
    with pytest.raises(rs.SparseInvalidSizeError) as e:
        f(h, 4, d, d, d, d, 1, 3, None)
    assert e.value.arg == "batch_stride"
    with pytest.raises(rs.SparseInvalidSizeError) as e:
        f(h, 4, d, d, d, d, -1, 4, None)
    assert e.value.arg == "batch_count"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        f(h, 4, d, None, d, d, 1, 4, None)
    assert e.value.arg == "d"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        f(h, 600, d, d, d, d, 0, 600, None)
    assert e.value.arg == "temp_buffer"
    f(h, 4, None, None, None, None, 0, 4, None)  # batch_count 0: nothing to do
