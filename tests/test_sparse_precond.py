"""rocmath.sparse preconditioners (csrilu0, csric0, bsrilu0), csrsm, bsrsv, gtsv / gtsv_no_pivot /
gtsv_interleaved_batch / gpsv_interleaved_batch and csrcolor against dense references and SciPy."""

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
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.testing import examples

TOL = {"s": 2e-3, "d": 1e-10, "c": 2e-3, "z": 1e-10}
SENTINEL = -7.25
N, T, CT = rs.Operation.none, rs.Operation.transpose, rs.Operation.conjugate_transpose


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def wide(p: Precision):
    return np.complex128 if p.is_complex else np.float64


def rnd(rng: np.random.Generator, shape, p: Precision, scale: float = 1.0) -> np.ndarray:
    v = rng.standard_normal(shape) * scale
    if p.is_complex:
        v = v + 1j * rng.standard_normal(shape) * scale
    return v.astype(p.dtype)


def dominant(rng: np.random.Generator, m: int, density: float, p: Precision, hermitian: bool = False) -> sp.csr_matrix:
    """A sorted CSR matrix with a full, strictly dominant diagonal (no zero pivots in ILU0 / IC0)."""
    a = sp.random(m, m, density=density, format="csr", random_state=rng, dtype=np.float64)
    a.data = rng.standard_normal(a.nnz)
    if p.is_complex:
        a = a + 1j * sp.csr_matrix((rng.standard_normal(a.nnz), a.indices, a.indptr), shape=a.shape)
    if hermitian:
        a = a + a.conj().T
    a = sp.csr_matrix(a)
    rows = np.asarray(abs(a).sum(axis=1)).ravel() if m else np.zeros(0)
    a = (a + sp.diags(rows + 1.0 + rng.random(m))).astype(p.dtype).tocsr()
    a.sort_indices()
    return a


def padded(values: np.ndarray, pad: int = 3) -> rm.DeviceArray:
    """A device copy of ``values`` followed by ``pad`` sentinels."""
    return rm.to_device(np.concatenate([values, np.full(pad, SENTINEL, values.dtype)]))


def device_csr(a: sp.csr_matrix, base: int):
    return padded(a.data), rm.to_device((a.indptr + base).astype(np.int32)), \
        rm.to_device((a.indices + base).astype(np.int32))


def setup(base: int = 0, fill: int = 0, unit: bool = False):
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_index_base(descr, base)
    rs.set_mat_fill_mode(descr, fill)
    rs.set_mat_diag_type(descr, rs.DiagType.unit if unit else rs.DiagType.non_unit)
    return h, descr, info


# --- dense references -------------------------------------------------------------------------------


def ilu0_reference(dense: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """ILU0 restricted to ``pattern`` (IKJ, dense)."""
    lu = np.where(pattern, dense, 0).astype(np.complex128 if dense.dtype.kind == "c" else np.float64)
    n = lu.shape[0]
    for i in range(n):
        for k in range(i):
            if pattern[i, k]:
                lu[i, k] /= lu[k, k]
                cols = np.nonzero(pattern[i, k + 1:])[0] + k + 1
                lu[i, cols] -= lu[i, k] * lu[k, cols]
    return lu


def ic0_reference(dense: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """IC0 (A ~ L L^H) restricted to the lower triangle of ``pattern``."""
    low = np.tril(pattern)
    lo = np.where(low, dense, 0).astype(np.complex128 if dense.dtype.kind == "c" else np.float64)
    n = lo.shape[0]
    for i in range(n):
        for j in range(i):
            if low[i, j]:
                lo[i, j] = (lo[i, j] - lo[i, :j] @ np.conj(lo[j, :j])) / lo[j, j]
        lo[i, i] = np.sqrt(abs(lo[i, i] - lo[i, :i] @ np.conj(lo[i, :i])))
    return lo


def factor_of(a: sp.csr_matrix, values: np.ndarray) -> np.ndarray:
    return sp.csr_matrix((values, a.indices, a.indptr), shape=a.shape).toarray()


# --- csrilu0 / csric0 ---------------------------------------------------------------------------------


@settings(max_examples=examples(30), deadline=None)
@given(m=st.sampled_from([0, 1, 2, 9, 30]), density=st.sampled_from([0.0, 0.1, 0.3]), p=st.sampled_from(SDCZ),
       base=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
def test_csrilu0_matches_dense_ilu0(m, density, p, base, seed):
    rng = np.random.default_rng(seed)
    a = dominant(rng, m, density, p)
    h, descr, info = setup(base)
    dv, dp, dc = device_csr(a, base)
    size = fn(p, "csrilu0_buffer_size")(h, m, a.nnz, descr, dv, dp, dc, info)
    assert size == (0 if m == 0 else 256 + 3 * 256 * ((4 * m - 1) // 256 + 1))
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "csrilu0_analysis")(h, m, a.nnz, descr, dv, dp, dc, info, rs.AnalysisPolicy.force, rs.SolvePolicy.auto,
                              buf)
    fn(p, "csrilu0")(h, m, a.nnz, descr, dv, dp, dc, info, rs.SolvePolicy.auto, buf)
    got = dv.get()
    assert np.all(got[a.nnz:] == SENTINEL)
    assert np.array_equal(dp.get(), a.indptr + base) and np.array_equal(dc.get(), a.indices + base)
    assert rs.csrilu0_zero_pivot(h, info, None) == -1
    assert rs.csrilu0_singular_pivot(h, info, None) == -1
    if m == 0:
        return
    pattern = a.toarray() != 0
    lu = factor_of(a, got[:a.nnz].astype(wide(p)))
    ref = ilu0_reference(a.toarray().astype(wide(p)), pattern)
    np.testing.assert_allclose(lu, ref, rtol=TOL[p.letter], atol=TOL[p.letter])
    # L U reproduces A on its pattern.
    lower, upper = np.tril(lu, -1) + np.eye(m), np.triu(lu)
    resid = np.where(pattern, lower @ upper - a.toarray(), 0)
    assert np.abs(resid).max() <= 50 * TOL[p.letter] * max(1.0, np.abs(a.toarray()).max())


@settings(max_examples=examples(30), deadline=None)
@given(m=st.sampled_from([0, 1, 2, 9, 30]), density=st.sampled_from([0.0, 0.1, 0.3]), p=st.sampled_from(SDCZ),
       base=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
def test_csric0_matches_dense_ic0(m, density, p, base, seed):
    rng = np.random.default_rng(seed)
    a = dominant(rng, m, density, p, hermitian=True)
    h, descr, info = setup(base)
    dv, dp, dc = device_csr(a, base)
    size = fn(p, "csric0_buffer_size")(h, m, a.nnz, descr, dv, dp, dc, info)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "csric0_analysis")(h, m, a.nnz, descr, dv, dp, dc, info, rs.AnalysisPolicy.reuse, rs.SolvePolicy.auto,
                             buf)
    fn(p, "csric0")(h, m, a.nnz, descr, dv, dp, dc, info, rs.SolvePolicy.auto, buf)
    got = dv.get()
    assert np.all(got[a.nnz:] == SENTINEL)
    assert rs.csric0_zero_pivot(h, info, None) == -1 and rs.csric0_singular_pivot(h, info, None) == -1
    if m == 0:
        return
    full = factor_of(a, got[:a.nnz])
    assert np.array_equal(np.triu(full, 1), np.triu(a.toarray(), 1))  # the strictly upper part is not touched
    lo = np.tril(full).astype(wide(p))
    pattern = a.toarray() != 0
    np.testing.assert_allclose(lo, ic0_reference(a.toarray().astype(wide(p)), pattern), rtol=TOL[p.letter],
                               atol=TOL[p.letter])
    resid = np.where(np.tril(pattern), lo @ lo.conj().T - a.toarray(), 0)
    assert np.abs(resid).max() <= 50 * TOL[p.letter] * np.abs(a.toarray()).max()


# --- bsrilu0 ------------------------------------------------------------------------------------------


def random_bsr(rng: np.random.Generator, mb: int, bd: int, density: float, p: Precision) -> sp.bsr_matrix:
    """A BSR matrix (sorted, every diagonal block present) whose scalar matrix is strictly diagonally dominant."""
    pat = (sp.random(mb, mb, density=density, format="csr", random_state=rng) + sp.identity(mb)).tocsr()
    pat.sort_indices()
    blocks = rnd(rng, (pat.nnz, bd, bd), p).astype(wide(p))
    mat = sp.bsr_matrix((blocks, pat.indices, pat.indptr), shape=(mb * bd, mb * bd))
    rows = np.abs(mat.toarray()).sum(axis=1) if mb else np.zeros(0)
    for i in range(mb):
        q = pat.indptr[i] + np.searchsorted(pat.indices[pat.indptr[i]:pat.indptr[i + 1]], i)
        blocks[q][np.diag_indices(bd)] += rows[i * bd:(i + 1) * bd] + 1.0
    return sp.bsr_matrix((blocks.astype(p.dtype), pat.indices, pat.indptr), shape=(mb * bd, mb * bd))


def bsr_values(b: sp.bsr_matrix, direction: int) -> np.ndarray:
    """rocSPARSE's bsr_val: blocks row-major (direction row) or column-major (direction column)."""
    data = b.data if direction == 0 else b.data.transpose(0, 2, 1)
    return np.ascontiguousarray(data).reshape(-1)


def bsr_from_values(b: sp.bsr_matrix, values: np.ndarray, direction: int) -> np.ndarray:
    bd = b.blocksize[0]
    blocks = values.reshape(-1, bd, bd)
    if direction == 1:
        blocks = blocks.transpose(0, 2, 1)
    return sp.bsr_matrix((blocks, b.indices, b.indptr), shape=b.shape).toarray()


def block_pattern(b: sp.bsr_matrix) -> np.ndarray:
    bd = b.blocksize[0]
    ones = np.ones((b.indices.size, bd, bd))
    return sp.bsr_matrix((ones, b.indices, b.indptr), shape=b.shape).toarray() != 0


@settings(max_examples=examples(30), deadline=None)
@given(mb=st.sampled_from([0, 1, 3, 7]), bd=st.sampled_from([1, 2, 3]), density=st.sampled_from([0.0, 0.2, 0.5]),
       direction=st.sampled_from([0, 1]), p=st.sampled_from(SDCZ), base=st.sampled_from([0, 1]),
       seed=st.integers(0, 2**16))
def test_bsrilu0_is_ilu0_on_the_block_pattern(mb, bd, density, direction, p, base, seed):
    rng = np.random.default_rng(seed)
    b = random_bsr(rng, mb, bd, density, p)
    nnzb = b.indices.size
    h, descr, info = setup(base)
    dv = padded(bsr_values(b, direction))
    dp, dc = rm.to_device((b.indptr + base).astype(np.int32)), rm.to_device((b.indices + base).astype(np.int32))
    args = (direction, mb, nnzb, descr, dv, dp, dc, bd, info)
    size = fn(p, "bsrilu0_buffer_size")(h, *args)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "bsrilu0_analysis")(h, *args, rs.AnalysisPolicy.force, rs.SolvePolicy.auto, buf)
    fn(p, "bsrilu0")(h, *args, rs.SolvePolicy.auto, buf)
    got = dv.get()
    nval = nnzb * bd * bd
    assert np.all(got[nval:] == SENTINEL)
    assert rs.bsrilu0_zero_pivot(h, info, None) == -1
    if mb == 0:
        return
    lu = bsr_from_values(b, got[:nval].astype(wide(p)), direction)
    pattern = block_pattern(b)
    ref = ilu0_reference(b.toarray().astype(wide(p)), pattern)
    np.testing.assert_allclose(lu, ref, rtol=TOL[p.letter], atol=TOL[p.letter])


# --- csrsm --------------------------------------------------------------------------------------------


def triangle(a: sp.csr_matrix, fill: int, unit: bool) -> sp.csr_matrix:
    t = sp.tril(a, -1 if unit else 0) if fill == 0 else sp.triu(a, 1 if unit else 0)
    if unit:
        t = t + sp.identity(a.shape[0], dtype=a.dtype)
    return sp.csr_matrix(t)


def op(mat, trans: rs.Operation):
    return mat if trans is N else (mat.T if trans is T else mat.conj().T)


@settings(max_examples=examples(40), deadline=None)
@given(m=st.sampled_from([0, 1, 5, 40]), nrhs=st.sampled_from([0, 1, 3]), density=st.sampled_from([0.05, 0.3]),
       trans_a=st.sampled_from([N, T, CT]), trans_b=st.sampled_from([N, T, CT]), fill=st.sampled_from([0, 1]),
       unit=st.booleans(), p=st.sampled_from(SDCZ), base=st.sampled_from([0, 1]), pad=st.sampled_from([0, 2]),
       seed=st.integers(0, 2**16))
def test_csrsm_matches_spsolve_triangular(m, nrhs, density, trans_a, trans_b, fill, unit, p, base, pad, seed):
    rng = np.random.default_rng(seed)
    a = dominant(rng, m, density, p)
    rows, cols = (m, nrhs) if trans_b is N else (nrhs, m)  # B as stored, column-major
    ldb = rows + pad
    stored = np.full((ldb, cols), SENTINEL, p.dtype)
    stored[:rows] = rnd(rng, (rows, cols), p)
    dB = rm.to_device(stored.ravel(order="F"))
    alpha = (0.5 - 1.5j) if p.is_complex else -1.5
    h, descr, info = setup(base, fill, unit)
    dv, dp, dc = device_csr(a, base)
    args = (trans_a, trans_b, m, nrhs, a.nnz, alpha, descr, dv, dp, dc, dB, ldb, info)
    size = fn(p, "csrsm_buffer_size")(h, *args, rs.SolvePolicy.auto)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "csrsm_analysis")(h, *args, rs.AnalysisPolicy.force, rs.SolvePolicy.auto, buf)
    fn(p, "csrsm_solve")(h, *args, rs.SolvePolicy.auto, buf)
    out = dB.get().reshape(cols, ldb).T
    assert np.all(out[rows:] == SENTINEL)
    assert rs.csrsm_zero_pivot(h, info, None) == -1
    if m == 0 or nrhs == 0:
        assert np.array_equal(out, stored)
        return
    tri = op(triangle(a.astype(wide(p)), fill, unit), trans_a).tocsr()
    rhs = alpha * op(stored[:rows].astype(wide(p)), trans_b)
    y = sla.spsolve_triangular(tri, rhs, lower=(fill == 0) == (trans_a is N))
    # op(X) = Y: X is Y, Y^T or Y^H, stored where B was.
    np.testing.assert_allclose(out[:rows], op(y, trans_b), rtol=TOL[p.letter], atol=TOL[p.letter])


# --- bsrsv --------------------------------------------------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(mb=st.sampled_from([0, 1, 4, 9]), bd=st.sampled_from([1, 2, 3]), density=st.sampled_from([0.1, 0.4]),
       direction=st.sampled_from([0, 1]), trans=st.sampled_from([N, T]), fill=st.sampled_from([0, 1]),
       unit=st.booleans(), p=st.sampled_from(SDCZ), base=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
def test_bsrsv_matches_spsolve_triangular(mb, bd, density, direction, trans, fill, unit, p, base, seed):
    rng = np.random.default_rng(seed)
    b = random_bsr(rng, mb, bd, density, p)
    n = mb * bd
    nnzb = b.indices.size
    h, descr, info = setup(base, fill, unit)
    dv = rm.to_device(bsr_values(b, direction))
    dp, dc = rm.to_device((b.indptr + base).astype(np.int32)), rm.to_device((b.indices + base).astype(np.int32))
    x = rnd(rng, n, p)
    dx, dy = rm.to_device(x), padded(np.full(n, 3, p.dtype))
    alpha = (2 + 1j) if p.is_complex else 2.0
    head = (direction, trans, mb, nnzb, descr, dv, dp, dc, bd, info)
    size = fn(p, "bsrsv_buffer_size")(h, *head)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "bsrsv_analysis")(h, *head, rs.AnalysisPolicy.force, rs.SolvePolicy.auto, buf)
    fn(p, "bsrsv_solve")(h, direction, trans, mb, nnzb, alpha, descr, dv, dp, dc, bd, info, dx, dy,
                         rs.SolvePolicy.auto, buf)
    y = dy.get()
    assert np.all(y[n:] == SENTINEL) and np.array_equal(dx.get(), x)
    assert rs.bsrsv_zero_pivot(h, info, None) == -1
    if mb == 0:
        assert np.all(y[:n] == 3)
        return
    dense = b.toarray().astype(wide(p))
    tri = np.tril(dense) if fill == 0 else np.triu(dense)
    if unit:
        np.fill_diagonal(tri, 1)
    ref = sla.spsolve_triangular(sp.csr_matrix(op(tri, trans)), alpha * x.astype(wide(p)),
                                 lower=(fill == 0) == (trans is N))
    np.testing.assert_allclose(y[:n], ref, rtol=TOL[p.letter], atol=TOL[p.letter])


def test_triangular_solves_device_alpha_and_reuse():
    """Device pointer mode alpha; analysis reuse; a solve after clear is refused."""
    rng = np.random.default_rng(5)
    a = dominant(rng, 12, 0.3, D)
    h, descr, info = setup()
    dv, dp, dc = device_csr(a, 0)
    B = rng.standard_normal((12, 2))
    dB = rm.to_device(B.ravel(order="F"))
    buf = rm.empty(4096, np.uint8)
    rs.set_pointer_mode(h, rs.PointerMode.device)
    alpha = rm.to_device(np.array([3.0]))
    args = (N, N, 12, 2, a.nnz, alpha, descr, dv, dp, dc, dB, 12, info)
    rs.dcsrsm_analysis(h, *args, rs.AnalysisPolicy.force, 0, buf)
    analysis = info.precond.analyses[("csrsm", False, rs.FillMode.lower)]
    rs.dcsrsm_analysis(h, *args, rs.AnalysisPolicy.reuse, 0, buf)
    assert info.precond.analyses[("csrsm", False, rs.FillMode.lower)] is analysis
    rs.dcsrsm_solve(h, *args, 0, buf)
    X = dB.get().reshape(2, 12).T
    np.testing.assert_allclose(sp.tril(a) @ X, 3 * B, rtol=1e-12, atol=1e-12)
    first = dB.get()
    dB.set(B.ravel(order="F"))
    rs.dcsrsm_solve(h, *args, 0, buf)
    assert np.array_equal(dB.get(), first)  # bitwise reproducible
    pos = rm.to_device(np.array([99], np.int32))
    assert rs.csrsm_zero_pivot(h, info, pos) is None and pos.get()[0] == -1
    rs.csrsm_clear(h, info)
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.dcsrsm_solve(h, *args, 0, buf)
    assert e.value.arg == "info" and e.value.index == 14


# --- zero and singular pivots -------------------------------------------------------------------------


def run_factor(name: str, a: sp.csr_matrix, base: int, info=None, h=None, descr=None):
    h = h or rs.create_handle()
    if descr is None:
        _, descr, _ = setup(base)
    info = info or rs.create_mat_info()
    dv, dp, dc = device_csr(a, base)
    buf = rm.empty(4096, np.uint8)
    getattr(rs, f"d{name}_analysis")(h, a.shape[0], a.nnz, descr, dv, dp, dc, info, rs.AnalysisPolicy.force, 0, buf)
    getattr(rs, f"d{name}")(h, a.shape[0], a.nnz, descr, dv, dp, dc, info, 0, buf)
    return h, info, dv.get()[:a.nnz]


def raises_pivot(query, h, info, position: int) -> None:
    with pytest.raises(rs.SparseZeroPivotError) as err:
        query(h, info, None)
    assert err.value.status is rs.Status.zero_pivot and err.value.position == position


@pytest.mark.parametrize("base", [0, 1])
def test_ilu0_and_ic0_pivots(base):
    # Structural: row 2 has no diagonal entry.
    a = sp.csr_matrix(np.eye(4) + np.tril(np.ones((4, 4)), -1) - np.diag([0, 0, 1, 0]))
    h, info, _ = run_factor("csrilu0", a, base)
    raises_pivot(rs.csrilu0_zero_pivot, h, info, 2 + base)
    # Numerical: u_11 = 1 - 1 * 1 = 0; device pointer mode writes the position too.
    singular = sp.csr_matrix(np.ones((3, 3)))
    h, info, _ = run_factor("csrilu0", singular, base)
    raises_pivot(rs.csrilu0_zero_pivot, h, info, 1 + base)
    assert rs.csrilu0_singular_pivot(h, info, None) == 1 + base
    rs.set_pointer_mode(h, rs.PointerMode.device)
    pos = rm.to_device(np.zeros(1, np.int32))
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csrilu0_zero_pivot(h, info, pos)
    assert pos.get()[0] == 1 + base
    rs.set_pointer_mode(h, rs.PointerMode.host)
    # A small pivot is singular (tolerance shared with csric0), not zero.
    near = sp.csr_matrix(np.array([[1.0, 1.0], [1.0, 1.25]]))
    info = rs.create_mat_info()
    rs.csrilu0_set_tolerance(h, info, 0.5)
    assert rs.csric0_get_tolerance(h, info) == 0.5
    _, info, _ = run_factor("csrilu0", near, base, info, h)
    assert rs.csrilu0_zero_pivot(h, info, None) == -1
    assert rs.csrilu0_singular_pivot(h, info, None) == 1 + base
    # Numeric boost: the zero pivot becomes boost_val (host values, then device pointers).
    for mode in (rs.PointerMode.host, rs.PointerMode.device):
        info = rs.create_mat_info()
        rs.set_pointer_mode(h, mode)
        tol, val = (1e-3, 5.0) if mode is rs.PointerMode.host else \
            (rm.to_device(np.array([1e-3])), rm.to_device(np.array([5.0])))
        rs.dcsrilu0_numeric_boost(h, info, 1, tol, val)
        rs.set_pointer_mode(h, rs.PointerMode.host)
        _, info, got = run_factor("csrilu0", singular, base, info, h)
        assert rs.csrilu0_zero_pivot(h, info, None) == -1
        assert factor_of(singular, got)[1, 1] == 5.0
        rs.dcsrilu0_numeric_boost(h, info, 0, None, None)
        assert info.precond.boost is None
    # IC0: a zero l_11, then a negative square (singular, l_11 = sqrt(3)).
    h, info, _ = run_factor("csric0", sp.csr_matrix(np.ones((2, 2))), base)
    raises_pivot(rs.csric0_zero_pivot, h, info, 1 + base)
    h, info, got = run_factor("csric0", sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 1.0]])), base)
    assert rs.csric0_zero_pivot(h, info, None) == -1 and rs.csric0_singular_pivot(h, info, None) == 1 + base
    assert np.isclose(got[-1], np.sqrt(3.0))
    # clear: the pivot of a cleared analysis reads -1 (as rocSPARSE).
    rs.csric0_clear(h, info)
    assert rs.csric0_zero_pivot(h, info, None) == -1 and rs.csric0_singular_pivot(h, info, None) == -1


@pytest.mark.parametrize("base", [0, 1])
def test_bsrilu0_csrsm_bsrsv_pivots(base):
    h, descr, info = setup(base)
    buf = rm.empty(4096, np.uint8)
    # Two block rows of 2 x 2 blocks: (0, 0); (1, 0), (1, 1).
    dp, dc = rm.to_device(np.array([0, 1, 3], np.int32) + base), rm.to_device(np.array([0, 0, 1], np.int32) + base)
    # bsrilu0: block row 1's diagonal block [[1, 1], [1, 1]] is singular (row 0 has no block to update it).
    dv = rm.to_device(np.array([4 * np.eye(2), np.ones((2, 2)), np.ones((2, 2))]).ravel())
    rs.dbsrilu0_analysis(h, 0, 2, 3, descr, dv, dp, dc, 2, info, 1, 0, buf)
    rs.dbsrilu0(h, 0, 2, 3, descr, dv, dp, dc, 2, info, 0, buf)
    raises_pivot(rs.bsrilu0_zero_pivot, h, info, 1 + base)
    # bsrsv: the diagonal block of block row 1 has a zero on its diagonal (also in the transposed solve,
    # which runs on a 0-based transposed structure).
    dv = rm.to_device(np.array([np.eye(2), np.eye(2), [[1.0, 0], [0, 0]]]).ravel())
    for trans in (N, T):
        info = rs.create_mat_info()
        rs.dbsrsv_analysis(h, 0, trans, 2, 3, descr, dv, dp, dc, 2, info, 1, 0, buf)
        y = rm.empty(4)
        rs.dbsrsv_solve(h, 0, trans, 2, 3, 1.0, descr, dv, dp, dc, 2, info, rm.to_device(np.ones(4)), y, 0, buf)
        assert np.isfinite(y.get()).all()
        raises_pivot(rs.bsrsv_zero_pivot, h, info, 1 + base)
    # csrsm: row 2 has no diagonal (structural: found by the analysis, also of the transpose), row 1 an
    # explicit zero one (numerical: found by the solve).
    a = sp.csr_matrix((np.array([2.0, 1.0, 0.0, 1.0, 1.0]), np.array([0, 0, 1, 0, 1]), np.array([0, 1, 3, 5])),
                      shape=(3, 3))
    dv, dp, dc = device_csr(a, base)
    for trans in (N, T):
        info = rs.create_mat_info()
        args = (trans, N, 3, 1, a.nnz, 1.0, descr, dv, dp, dc, rm.to_device(np.ones(3)), 3, info)
        rs.dcsrsm_analysis(h, *args, 1, 0, buf)
        raises_pivot(rs.csrsm_zero_pivot, h, info, 2 + base)
        rs.dcsrsm_solve(h, *args, 0, buf)
        raises_pivot(rs.csrsm_zero_pivot, h, info, 1 + base)
    # A unit diagonal has no pivots.
    rs.set_mat_diag_type(descr, rs.DiagType.unit)
    rs.dcsrsm_analysis(h, *args, 1, 0, buf)
    rs.dcsrsm_solve(h, *args, 0, buf)
    assert rs.csrsm_zero_pivot(h, info, None) == -1


# --- gtsv / gtsv_no_pivot ------------------------------------------------------------------------------


def banded(diagonals: list[np.ndarray], m: int) -> np.ndarray:
    """solve_banded's ab for diagonals from the lowest (offset -len//2) to the highest."""
    k = len(diagonals) // 2
    ab = np.zeros((len(diagonals), m), diagonals[0].dtype)
    for off, v in zip(range(-k, k + 1), diagonals, strict=True):
        row = k - off  # ab[k + i - j, j] = A[i, j]
        if off < 0:
            ab[row, :m + off] = v[-off:]
        elif off > 0:
            ab[row, off:] = v[:m - off]
        else:
            ab[row] = v
    return ab


def dense_of(diagonals: list[np.ndarray], m: int) -> np.ndarray:
    """The dense matrix with ``A[r, r + off] = v[r]`` for the diagonals v (lowest offset first)."""
    k = len(diagonals) // 2
    a = np.zeros((m, m), np.complex128)
    for off, v in zip(range(-k, k + 1), diagonals, strict=True):
        a += np.diag(v[-off:] if off < 0 else v[:m - off], off)
    return a


def check_solution(diagonals, rhs, got, p: Precision) -> None:
    """Residual and agreement with scipy.linalg.solve_banded (tolerances scaled by the condition number)."""
    m = rhs.shape[0]
    wd = [d.astype(wide(p)) for d in diagonals]
    ref = sl.solve_banded((len(wd) // 2, len(wd) // 2), banded(wd, m), rhs.astype(wide(p)))
    a = dense_of(wd, m)
    cond = np.linalg.cond(a)
    eps = np.finfo(p.dtype).eps
    resid = np.abs(a @ got.astype(wide(p)) - rhs).max() / (np.abs(a).max() * max(1.0, np.abs(got).max()))
    assert resid <= 100 * m * eps
    np.testing.assert_allclose(got, ref, rtol=100 * m * eps * cond, atol=100 * m * eps * cond * np.abs(ref).max())


@settings(max_examples=examples(30), deadline=None)
@given(m=st.sampled_from([2, 3, 17]), n=st.sampled_from([0, 1, 3]), pad=st.sampled_from([0, 2]),
       pivot=st.booleans(), p=st.sampled_from(SDCZ), seed=st.integers(0, 2**16))
def test_gtsv_and_gtsv_no_pivot_match_solve_banded(m, n, pad, pivot, p, seed):
    rng = np.random.default_rng(seed)
    dl, du = rnd(rng, m, p), rnd(rng, m, p)
    # With pivoting, a weak diagonal (Gaussian elimination without pivoting would be unstable).
    d = rnd(rng, m, p, 0.05) if pivot else (rnd(rng, m, p) + 4).astype(p.dtype)
    ldb = m + pad
    B = np.full((ldb, n), SENTINEL, p.dtype)
    B[:m] = rnd(rng, (m, n), p)
    dB = rm.to_device(B.ravel(order="F"))
    dd = [rm.to_device(v) for v in (dl, d, du)]
    h = rs.create_handle()
    name = "gtsv" if pivot else "gtsv_no_pivot"
    size = fn(p, f"{name}_buffer_size")(h, m, n, *dd, dB, ldb)
    assert size == (0 if n == 0 or not pivot else ((4 * m * p.dtype.itemsize - 1) // 256 + 1) * 256)
    fn(p, name)(h, m, n, *dd, dB, ldb, rm.empty(max(size, 1), np.uint8))
    out = dB.get().reshape(n, ldb).T
    assert np.all(out[m:] == SENTINEL)
    assert all(np.array_equal(v.get(), w) for v, w in zip(dd, (dl, d, du), strict=True))
    for j in range(n):
        check_solution([dl, d, du], B[:m, j], out[:m, j], p)


@pytest.mark.parametrize("p", [D, Z], ids=lambda p: p.letter)
def test_banded_solvers_zero_pivot_propagates(p):
    """A singular tridiagonal system (its first column zero) gives inf / NaN as the device's division does
    (complex: NaN + NaN j, rocSPARSE's complex division by zero), never an exception (regression: numba
    raised on a complex division by zero in the Thomas solve)."""
    h = rs.create_handle()
    dl, d, du = (np.array(v, p.dtype) for v in ([0, 0, 1, 1], [0, 4, 4, 4], [1, 1, 1, 0]))

    def check(got: np.ndarray) -> None:
        assert not np.isfinite(got[0])
        if p.is_complex:
            assert np.isnan(got[0].real) and np.isnan(got[0].imag)

    for name in ("gtsv", "gtsv_no_pivot"):
        B = rm.to_device(np.ones(4, p.dtype))
        args = (h, 4, 1, *(rm.to_device(v) for v in (dl, d, du)), B, 4)
        size = fn(p, f"{name}_buffer_size")(*args)
        fn(p, name)(*args, rm.empty(max(size, 1), np.uint8))
        check(B.get())
    for alg in rs.GtsvInterleavedAlg:
        x = rm.to_device(np.ones(4, p.dtype))
        args = (h, alg, 4, *(rm.to_device(v) for v in (dl, d, du)), x, 1, 1)
        size = fn(p, "gtsv_interleaved_batch_buffer_size")(*args)
        fn(p, "gtsv_interleaved_batch")(*args, rm.empty(max(size, 1), np.uint8))
        check(x.get())


def interleave(v: np.ndarray, stride: int) -> np.ndarray:
    """(count, m) systems to rocSPARSE's interleaved layout: entry k of system b at k * stride + b."""
    count, m = v.shape
    out = np.full((m, stride), SENTINEL, v.dtype)
    out[:, :count] = v.T
    return out.ravel()


@settings(max_examples=examples(30), deadline=None)
@given(alg=st.sampled_from(list(rs.GtsvInterleavedAlg)), m=st.sampled_from([2, 3, 9]), count=st.sampled_from([0, 1, 5]),
       pad=st.sampled_from([0, 2]), p=st.sampled_from(SDCZ), seed=st.integers(0, 2**16))
def test_gtsv_interleaved_batch_matches_solve_banded(alg, m, count, pad, p, seed):
    rng = np.random.default_rng(seed)
    stride = count + pad
    weak = alg is not rs.GtsvInterleavedAlg.thomas  # lu and qr are stable without a dominant diagonal
    dl, du, x = rnd(rng, (count, m), p), rnd(rng, (count, m), p), rnd(rng, (count, m), p)
    d = rnd(rng, (count, m), p, 0.05) if weak else (rnd(rng, (count, m), p) + 4).astype(p.dtype)
    dl[:, 0] = 0
    du[:, -1] = 0
    host = [interleave(v, max(stride, 1)) for v in (dl, d, du, x)]
    dev = [rm.to_device(v) for v in host]
    h = rs.create_handle()
    size = fn(p, "gtsv_interleaved_batch_buffer_size")(h, alg, m, *dev, count, stride)
    fn(p, "gtsv_interleaved_batch")(h, alg, m, *dev, count, stride, rm.empty(max(size, 1), np.uint8))
    got = dev[3].get().reshape(m, -1)
    assert all(np.array_equal(v.get(), w) for v, w in zip(dev[:3], host[:3], strict=True))
    assert np.all(got[:, count:] == SENTINEL)
    for b in range(count):
        check_solution([dl[b], d[b], du[b]], x[b], got[:, b], p)


@settings(max_examples=examples(25), deadline=None)
@given(m=st.sampled_from([3, 4, 11]), count=st.sampled_from([0, 1, 4]), pad=st.sampled_from([0, 3]),
       p=st.sampled_from(SDCZ), seed=st.integers(0, 2**16))
def test_gpsv_interleaved_batch_matches_solve_banded(m, count, pad, p, seed):
    rng = np.random.default_rng(seed)
    stride = count + pad
    ds, dl, d, du, dw, x = (rnd(rng, (count, m), p) for _ in range(6))
    ds[:, :2] = dl[:, 0] = du[:, -1] = dw[:, -2:] = 0
    host = [interleave(v, max(stride, 1)) for v in (ds, dl, d, du, dw, x)]
    dev = [rm.to_device(v) for v in host]
    h = rs.create_handle()
    alg = rs.GpsvInterleavedAlg.qr
    size = fn(p, "gpsv_interleaved_batch_buffer_size")(h, alg, m, *dev, count, stride)
    fn(p, "gpsv_interleaved_batch")(h, alg, m, *dev, count, stride, rm.empty(max(size, 1), np.uint8))
    got = dev[5].get().reshape(m, -1)
    assert all(np.array_equal(v.get(), w) for v, w in zip(dev[:5], host[:5], strict=True))
    assert np.all(got[:, count:] == SENTINEL)
    for b in range(count):
        check_solution([ds[b], dl[b], d[b], du[b], dw[b]], x[b], got[:, b], p)


# --- csrcolor ----------------------------------------------------------------------------------------


def murmur3(h: int) -> int:
    mask = 0xFFFFFFFF
    h &= mask
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    return h ^ (h >> 16)


def jpl_reference(a: sp.csr_matrix, fraction: float, real) -> tuple[int, np.ndarray]:
    """rocSPARSE's documented algorithm, round by round on snapshots of the colours."""
    m = a.shape[0]
    colors = np.full(m, -1)
    weight = [murmur3(i) for i in range(m)]
    limit = int(real(m) - real(m) * real(fraction))
    color, uncolored = -2, m
    while uncolored > limit:
        color += 2
        snap = colors.copy()
        for row in np.nonzero(snap == -1)[0]:
            nbrs = [c for c in a.indices[a.indptr[row]:a.indptr[row + 1]] if c != row and snap[c] == -1]
            if all(weight[row] > weight[c] for c in nbrs):
                colors[row] = color
            elif all(weight[row] < weight[c] for c in nbrs):
                colors[row] = color + 1
        uncolored = int(np.sum(colors == -1))
    ncolors = max(0, colors.max()) + 1
    left = np.nonzero(colors == -1)[0]
    colors[left] = ncolors + np.arange(left.size)
    return ncolors + left.size, colors


@settings(max_examples=examples(30), deadline=None)
@given(m=st.sampled_from([0, 1, 2, 12, 60]), density=st.sampled_from([0.0, 0.05, 0.3]),
       fraction=st.sampled_from([0.0, 0.5, 0.8, 1.0]), p=st.sampled_from(SDCZ), base=st.sampled_from([0, 1]),
       reorder=st.booleans(), seed=st.integers(0, 2**16))
def test_csrcolor_valid_deterministic_and_as_rocsparse(m, density, fraction, p, base, reorder, seed):
    rng = np.random.default_rng(seed)
    a = sp.random(m, m, density=density, format="csr", random_state=rng)
    a = (a + a.T + sp.identity(m) * (rng.random() < 0.5)).tocsr().astype(p.dtype)
    a.sort_indices()
    h, descr, info = setup(base)
    dv, dp, dc = device_csr(a, base)
    coloring = rm.to_device(np.full(m + 2, -5, np.int32))
    reordering = rm.to_device(np.full(m + 2, -5, np.int32)) if reorder else None
    counted = np.zeros(1, np.int64)
    ncolors = fn(p, "csrcolor")(h, m, a.nnz, descr, dv, dp, dc, fraction, counted, coloring, reordering, info)
    colors = coloring.get()
    assert np.all(colors[m:] == -5)
    if m == 0 or a.nnz == 0:  # rocSPARSE's quick return writes nothing
        assert ncolors is None and np.all(colors == -5) and counted[0] == 0
        return
    colors = colors[:m]
    assert counted[0] == ncolors == colors.max() + 1 and colors.min() >= 0
    rows, cols = a.nonzero()
    off = rows != cols
    assert np.all(colors[rows[off]] != colors[cols[off]])  # a valid colouring
    real = np.float32 if p.real.dtype == np.float32 else np.float64
    expect_n, expect = jpl_reference(a, fraction, real)
    assert ncolors == expect_n and np.array_equal(colors, expect)
    if reorder:
        assert reordering is not None
        got = reordering.get()
        assert np.array_equal(got[:m], np.argsort(colors, kind="stable")) and np.all(got[m:] == -5)
    again = rm.empty(m, np.int32)
    assert fn(p, "csrcolor")(h, m, a.nnz, descr, dv, dp, dc, fraction, None, again, None, info) == ncolors
    assert np.array_equal(again.get(), colors)


# --- statuses ---------------------------------------------------------------------------------------


def expect(exc, call, arg: str, index: int) -> None:
    with pytest.raises(exc) as e:
        call()
    assert e.value.arg == arg and e.value.index == index, (e.value.arg, e.value.index)


def test_factorization_statuses():
    h, descr, info = setup()
    a = sp.identity(3, format="csr")
    dv, dp, dc = device_csr(a, 0)
    buf = rm.empty(4096, np.uint8)
    expect(rs.SparseInvalidHandleError, lambda: rs.dcsrilu0(None, 3, 3, descr, dv, dp, dc, info, 0, buf), "handle", 1)
    expect(rs.SparseInvalidSizeError, lambda: rs.dcsrilu0_analysis(h, -1, 3, descr, dv, dp, dc, info, 0, 0, buf),
           "m", 2)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsric0_buffer_size(h, 3, 3, None, dv, dp, dc, info), "descr", 4)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrilu0_analysis(h, 3, 3, descr, dv, None, dc, info, 0, 0, buf),
           "csr_row_ptr", 6)
    expect(rs.SparseInvalidValueError, lambda: rs.dcsric0_analysis(h, 3, 3, descr, dv, dp, dc, info, 5, 0, buf),
           "analysis", 9)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrilu0_analysis(h, 3, 3, descr, dv, dp, dc, info, 0, 0, None),
           "temp_buffer", 11)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrilu0(h, 3, 3, descr, dv, dp, dc, info, 0, buf), "info", 8)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsric0(h, 3, 3, descr, dv, dp, dc, info, 0, buf), "info", 8)
    rs.dcsrilu0(h, 0, -5, None, None, None, None, None, 9, None)  # m == 0 returns before every other check
    rs.set_mat_type(descr, rs.MatrixType.symmetric)
    expect(rs.SparseNotImplementedError, lambda: rs.dcsric0_analysis(h, 3, 3, descr, dv, dp, dc, info, 0, 0, buf),
           "descr", 4)
    rs.set_mat_type(descr, rs.MatrixType.general)
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)
    expect(rs.SparseRequiresSortedStorageError, lambda: rs.dcsrilu0_buffer_size(h, 3, 3, descr, dv, dp, dc, info),
           "descr", 4)
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    expect(rs.SparseInvalidSizeError, lambda: rs.dbsrilu0_analysis(h, 0, 1, 1, descr, dv, dp, dc, 0, info, 0, 0, buf),
           "block_dim", 9)
    expect(rs.SparseInvalidValueError, lambda: rs.dbsrilu0(h, 2, 1, 1, descr, dv, dp, dc, 1, info, 0, buf), "dir", 2)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsrilu0(h, 0, 1, 1, descr, dv, dp, dc, 1, info, 0, buf), "info",
           10)
    expect(rs.SparseInvalidValueError, lambda: rs.csrilu0_set_tolerance(h, info, -1.0), "tolerance", 3)
    expect(rs.SparseInvalidPointerError, lambda: rs.csric0_zero_pivot(h, None, None), "info", 2)
    rs.set_pointer_mode(h, rs.PointerMode.device)
    expect(rs.SparseInvalidPointerError, lambda: rs.csrilu0_zero_pivot(h, info, None), "position", 3)
    rs.set_pointer_mode(h, rs.PointerMode.host)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrilu0_numeric_boost(h, info, 1, 0.1, None), "boost_val", 5)
    assert rs.dcsrilu0_buffer_size(h, 0, 0, descr, None, None, None, info) == 0
    rs.dcsrilu0_analysis(h, 0, 0, descr, None, None, None, info, 0, 0, None)
    assert rs.csrilu0_zero_pivot(h, info, None) == -1 and rs.csrilu0_get_tolerance(h, info) == 0.0
    rs.bsrilu0_clear(h, info)
    expect(rs.SparseInvalidPointerError, lambda: rs.csrilu0_clear(h, None), "info", 2)


def test_state_is_kept_in_the_mat_info_field():
    """MatInfo.precond holds these routines' state: *_clear frees one routine's analysis (its pivot then
    reads -1, the tolerance stays), destroy_mat_info frees everything."""
    h, descr, info = setup()
    a = sp.csr_matrix(np.array([[2.0, 0.0], [1.0, 0.0]]))  # row 1's pivot is zero
    dv, dp, dc = device_csr(a, 0)
    buf = rm.empty(4096, np.uint8)
    assert info.precond is None
    rs.csrilu0_set_tolerance(h, info, 0.5)
    rs.dcsrilu0_analysis(h, 2, a.nnz, descr, dv, dp, dc, info, 0, 0, buf)
    rs.dcsrilu0(h, 2, a.nnz, descr, dv, dp, dc, info, 0, buf)
    raises_pivot(rs.csrilu0_zero_pivot, h, info, 1)
    assert set(info.precond.analyses) == {("csrilu0", False, rs.FillMode.lower)}
    rs.csrilu0_clear(h, info)
    assert not info.precond.analyses and rs.csrilu0_zero_pivot(h, info, None) == -1
    assert rs.csrilu0_get_tolerance(h, info) == 0.5
    rs.destroy_mat_info(info)
    assert info.precond is None and info.csrsv is None
    expect(rs.SparseInvalidPointerError, lambda: rs.csrilu0_get_tolerance(h, info), "info", 2)


def test_triangular_solve_statuses():
    h, descr, info = setup()
    a = sp.identity(4, format="csr")
    dv, dp, dc = device_csr(a, 0)
    dB, buf = rm.empty(8), rm.empty(4096, np.uint8)
    sm = (N, N, 4, 2, 4, 1.0, descr, dv, dp, dc, dB, 4, info)
    expect(rs.SparseInvalidValueError, lambda: rs.dcsrsm_buffer_size(h, 9, *sm[1:], 0), "trans_A", 2)
    expect(rs.SparseInvalidSizeError, lambda: rs.dcsrsm_solve(h, *sm[:11], 3, info, 0, buf), "ldb", 13)
    expect(rs.SparseInvalidSizeError, lambda: rs.dcsrsm_solve(h, N, T, 4, 2, 4, 1.0, descr, dv, dp, dc, dB, 1, info,
                                                              0, buf), "ldb", 13)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrsm_analysis(h, *sm, 0, 0, None), "temp_buffer", 17)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrsm_solve(h, *sm[:5], None, *sm[6:], 0, buf), "alpha", 7)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrsm_solve(h, *sm, 0, buf), "info", 14)
    assert rs.dcsrsm_buffer_size(h, N, N, 0, 2, 0, 1.0, None, None, None, None, None, 0, None, 0) == 0
    rs.dcsrsm_solve(h, N, N, 4, 0, 4, None, None, None, None, None, None, 4, None, 0, None)  # nrhs == 0
    bsv = (0, N, 4, 4, descr, dv, dp, dc, 1, info)
    expect(rs.SparseNotImplementedError, lambda: rs.dbsrsv_analysis(h, 0, CT, *bsv[2:], 0, 0, buf), "trans", 3)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsrsv_analysis(h, *bsv[:4], None, *bsv[5:], 0, 0, buf),
           "descr", 6)
    expect(rs.SparseInvalidSizeError, lambda: rs.dbsrsv_solve(h, 0, N, 4, 4, 1.0, descr, dv, dp, dc, 0, info, dv,
                                                              dB, 0, buf), "block_dim", 11)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsrsv_solve(h, 0, N, 4, 4, 1.0, descr, dv, dp, dc, 1, info, dv,
                                                                 dB, 0, buf), "info", 12)
    expect(rs.SparseInvalidSizeError, lambda: rs.dbsrsv_buffer_size(h, 0, N, 4, 4, descr, dv, dp, dc, -1, info),
           "block_dim", 10)
    rs.bsrsv_clear(h, info)
    assert rs.bsrsv_zero_pivot(h, info, None) == -1


def test_banded_and_colour_statuses():
    h = rs.create_handle()
    v, buf = rm.empty(64), rm.empty(4096, np.uint8)
    expect(rs.SparseInvalidSizeError, lambda: rs.dgtsv(h, 1, 1, v, v, v, v, 1, buf), "m", 2)
    expect(rs.SparseInvalidSizeError, lambda: rs.zgtsv_buffer_size(h, 4, 1, v, v, v, v, 3), "ldb", 8)
    expect(rs.SparseInvalidPointerError, lambda: rs.dgtsv(h, 4, 1, v, None, v, v, 4, buf), "d", 5)
    expect(rs.SparseInvalidPointerError, lambda: rs.dgtsv(h, 4, 1, v, v, v, v, 4, None), "temp_buffer", 9)
    expect(rs.SparseInvalidPointerError, lambda: rs.dgtsv_no_pivot(h, 600, 1, v, v, v, v, 600, None),
           "temp_buffer", 9)
    assert rs.dgtsv_no_pivot_buffer_size(h, 600, 2, v, v, v, v, 600) == 6 * 4864 + 2 * 9728
    rs.dgtsv(h, 4, 0, None, None, None, None, 4, None)  # n == 0
    ib = (rs.GtsvInterleavedAlg.lu, 4, v, v, v, v)
    expect(rs.SparseInvalidValueError, lambda: rs.sgtsv_interleaved_batch(h, 7, *ib[1:], 2, 2, buf), "alg", 2)
    expect(rs.SparseInvalidSizeError, lambda: rs.dgtsv_interleaved_batch(h, *ib, 3, 2, buf), "batch_stride", 9)
    expect(rs.SparseInvalidPointerError, lambda: rs.dgtsv_interleaved_batch(h, *ib, 2, 2, None), "temp_buffer", 10)
    rs.dgtsv_interleaved_batch(h, rs.GtsvInterleavedAlg.qr, 4, None, None, None, None, 0, 0, None)
    pv = (rs.GpsvInterleavedAlg.qr, 3, v, v, v, v, v, v)
    expect(rs.SparseInvalidSizeError, lambda: rs.dgpsv_interleaved_batch(h, pv[0], 2, *pv[2:], 1, 1, buf), "m", 3)
    expect(rs.SparseInvalidPointerError, lambda: rs.dgpsv_interleaved_batch(h, *pv[:4], None, *pv[5:], 1, 1, buf),
           "d", 6)
    expect(rs.SparseInvalidSizeError, lambda: rs.dgpsv_interleaved_batch_buffer_size(h, *pv, 2, 1), "batch_stride", 11)
    _, descr, info = setup()
    a = sp.identity(3, format="csr")
    dv, dp, dc = device_csr(a, 0)
    col = rm.empty(3, np.int32)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrcolor(h, 3, 3, descr, dv, dp, dc, None, None, col, None, info),
           "fraction_to_color", 8)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrcolor(h, 3, 3, descr, dv, dp, dc, 1.0, None, None, None, info),
           "coloring", 10)
    expect(rs.SparseInvalidPointerError, lambda: rs.dcsrcolor(h, 3, 3, descr, dv, dp, dc, 1.0, None, col, None, None),
           "info", 12)
    expect(rs.SparseInvalidSizeError, lambda: rs.dcsrcolor(h, 3, -1, descr, dv, dp, dc, 1.0, None, col, None, info),
           "nnz", 3)
    assert rs.dcsrcolor(h, 3, 3, descr, dv, dp, dc, 1.0, None, col, None, info) == 1  # no edges: one colour
    assert np.array_equal(col.get(), [0, 0, 0])


# --- large problems ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_large_ilu0_preconditioned_solve_and_batches():
    """A big ILU0 + csrsm (wide levels solved in parallel), int64 indices; a big interleaved batch."""
    rng = np.random.default_rng(11)
    m = 40000
    a = (sp.random(m, m, density=5e-5, format="csr", random_state=rng) + sp.diags(np.full(m, 4.0))).tocsr()
    a.sort_indices()
    h, descr, info = setup(1)
    dv = rm.to_device(a.data)
    dp, dc = rm.to_device(a.indptr.astype(np.int64) + 1), rm.to_device(a.indices.astype(np.int64) + 1)
    buf = rm.empty(rs.dcsrilu0_buffer_size(h, m, a.nnz, descr, dv, dp, dc, info), np.uint8)
    rs.dcsrilu0_analysis(h, m, a.nnz, descr, dv, dp, dc, info, 1, 0, buf)
    rs.dcsrilu0(h, m, a.nnz, descr, dv, dp, dc, info, 0, buf)
    lu = sp.csr_matrix((dv.get(), a.indices, a.indptr), shape=a.shape)
    lower, upper = sp.tril(lu, -1) + sp.identity(m), sp.triu(lu)
    diff = (lower @ upper - a).tocsr()
    assert np.abs(diff.multiply(a != 0)).max() < 1e-12
    b = rng.standard_normal((m, 2))
    for fill, tri in ((0, lower), (1, upper)):
        rs.set_mat_fill_mode(descr, fill)
        rs.set_mat_diag_type(descr, rs.DiagType.unit if fill == 0 else rs.DiagType.non_unit)
        dB = rm.to_device(b.ravel(order="F"))
        args = (N, N, m, 2, a.nnz, 1.0, descr, dv, dp, dc, dB, m, info)
        sbuf = rm.empty(rs.dcsrsm_buffer_size(h, *args, 0), np.uint8)
        rs.dcsrsm_analysis(h, *args, 1, 0, sbuf)
        rs.dcsrsm_solve(h, *args, 0, sbuf)
        x = dB.get().reshape(2, m).T
        np.testing.assert_allclose(tri @ x, b, rtol=1e-10, atol=1e-10)
        b = x
    count, n = 20000, 16
    dl, d, du, x = (rng.standard_normal((count, n)) for _ in range(4))
    dev = [rm.to_device(interleave(v, count)) for v in (dl, d, du, x)]
    size = rs.dgtsv_interleaved_batch_buffer_size(h, rs.GtsvInterleavedAlg.lu, n, *dev, count, count)
    rs.dgtsv_interleaved_batch(h, rs.GtsvInterleavedAlg.lu, n, *dev, count, count, rm.empty(size, np.uint8))
    got = dev[3].get().reshape(n, count)
    for bsys in range(0, count, 997):
        check_solution([dl[bsys], d[bsys], du[bsys]], x[bsys], got[:, bsys], D)
