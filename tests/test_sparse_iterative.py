"""rocmath.sparse's iterative methods: csritilu0 (against csrilu0's factors), csritsv and spitsv (against SciPy's
triangular solves), their zero pivots, convergence reports and argument checks in rocSPARSE's order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, C, D, Precision, S, Z
from rocmath.testing import examples

N, T, CT = rs.Operation.none, rs.Operation.transpose, rs.Operation.conjugate_transpose
STOP, CORR, RES, HIST = 2, 4, 8, 16
ALL_NORMS = STOP | CORR | RES | HIST
TOL = {"s": 2e-4, "c": 2e-4, "d": 1e-11, "z": 1e-11}


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def dominant(rng: np.random.Generator, m: int, density: float, p: Precision, n: int | None = None) -> sp.csr_matrix:
    """A sorted CSR matrix with a full, strictly dominant diagonal."""
    a = sp.random(m, n or m, density=density, format="csr", random_state=rng, dtype=np.float64)
    a.data = rng.standard_normal(a.nnz)
    if p.is_complex:
        a = a + 1j * sp.csr_matrix((rng.standard_normal(a.nnz), a.indices, a.indptr), shape=a.shape)
    rows = np.asarray(abs(a).sum(axis=1)).ravel()
    a = (sp.csr_matrix(a) + sp.diags(rows + 1.0 + rng.random(m))).astype(p.dtype).tocsr()
    a.sort_indices()
    return a


def dev(a: sp.csr_matrix, base: int = 0):
    return (rm.to_device((a.indptr + base).astype(np.int32)), rm.to_device((a.indices + base).astype(np.int32)),
            rm.to_device(a.data.copy()))


def datatype(p: Precision) -> rs.Datatype:
    return rs.Datatype.of(p.dtype)


def raises(exc, arg, index, f, *args):
    with pytest.raises(exc) as e:
        f(*args)
    assert (e.value.arg, e.value.index) == (arg, index), (e.value.arg, e.value.index, str(e.value))
    return e.value


# --- csritilu0 ----------------------------------------------------------------------------------------


def csrilu0_factors(h, a: sp.csr_matrix, p: Precision, base: int) -> np.ndarray:
    descr, info = rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_index_base(descr, base)
    ptr, ind, val = dev(a, base)
    m = a.shape[0]
    size = fn(p, "csrilu0_buffer_size")(h, m, a.nnz, descr, val, ptr, ind, info)
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "csrilu0_analysis")(h, m, a.nnz, descr, val, ptr, ind, info, rs.AnalysisPolicy.force, 0, buf)
    fn(p, "csrilu0")(h, m, a.nnz, descr, val, ptr, ind, info, 0, buf)
    return val.get()


def itilu0(h, a: sp.csr_matrix, p: Precision, alg: int, option: int, nmaxiter, tol: float, base: int = 0):
    """buffer_size, preprocess and compute; returns (iterations, factors, buffer size, buffer)."""
    m = a.shape[0]
    ptr, ind, val = dev(a, base)
    nmax = nmaxiter if isinstance(nmaxiter, int) else int(nmaxiter[0])
    size = rs.csritilu0_buffer_size(h, alg, option, nmax, m, a.nnz, ptr, ind, base, datatype(p))
    buf = rm.empty(max(size, 1), np.uint8)
    rs.csritilu0_preprocess(h, alg, option, nmax, m, a.nnz, ptr, ind, base, datatype(p), size, buf)
    ilu0 = rm.to_device(a.data.copy())
    n = fn(p, "csritilu0_compute")(h, alg, option, nmaxiter, tol, m, a.nnz, ptr, ind, val, ilu0, base, size, buf)
    assert np.array_equal(val.get(), a.data)  # A is not written
    return n, ilu0.get(), size, buf


@pytest.mark.parametrize("alg", list(rs.Itilu0Alg))
@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_csritilu0_converges_to_csrilu0(alg, p):
    rng = np.random.default_rng(7 + int(alg))
    m = 40
    a = dominant(rng, m, 0.12, p)
    h = rs.create_handle()
    base = int(alg) % 2
    ref = csrilu0_factors(h, a, p, base)
    tol = 1e-6 if p in (S, C) else 1e-14
    n, got, size, buf = itilu0(h, a, p, int(alg), ALL_NORMS, 200, tol, base)
    assert 1 <= n < 200
    np.testing.assert_allclose(got, ref, rtol=TOL[p.letter], atol=TOL[p.letter])
    # The history: the iterations and their norms as the compute stage logged them.
    data = np.full(2 * 200, -1.0, p.real.dtype)
    niter = np.zeros(1, np.int32)
    assert fn(p, "csritilu0_history")(h, alg, niter, data, size, buf) == n == niter[0]
    corr, res = data[:n], data[n:2 * n]
    assert np.all(np.isfinite(corr)) and np.all(np.isfinite(res)) and np.all(data[2 * n:] == -1)
    assert res[0] > 0 and (res[-1] <= tol or corr[-1] <= tol * 10 or res[-1] <= 10 * tol)
    if alg in (rs.Itilu0Alg.sync_split, rs.Itilu0Alg.sync_split_fusion):
        assert n > 2  # a sweep of the previous values: several are needed
        assert corr[-1] <= tol and max(corr[-1], res[-1]) <= tol


def test_csritilu0_sync_sweeps_contract_towards_the_factors():
    """Synchronous sweeps (Jacobi on the ILU0 equations) from A's values: each iteration's residual, logged
    before its sweep, is the residual of the previous iterate; the last factor is the exact ILU0 after at
    most m sweeps (the iteration is nilpotent in exact arithmetic)."""
    rng = np.random.default_rng(3)
    a = dominant(rng, 25, 0.2, D)
    h = rs.create_handle()
    ref = csrilu0_factors(h, a, D, 0)
    n, got, size, buf = itilu0(h, a, D, rs.Itilu0Alg.sync_split, CORR | RES | HIST, 25, 0.0)
    assert n == 25
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    data = np.zeros(50)
    assert rs.dcsritilu0_history(h, rs.Itilu0Alg.sync_split, None, data, size, buf) == 25
    corr, res = data[:25], data[25:]
    assert corr[-1] == 0 and res[-1] < 1e-14 and res[0] > res[-1]


def test_csritilu0_nonconvergence_reports_nmaxiter():
    rng = np.random.default_rng(4)
    a = dominant(rng, 30, 0.2, D)
    h = rs.create_handle()
    nmax = np.array([3], np.int32)
    n, _, size, buf = itilu0(h, a, D, rs.Itilu0Alg.sync_split, ALL_NORMS, nmax, 1e-15)
    assert n == 3 and nmax[0] == 3  # not converged: nmaxiter comes back as it went
    data = np.full(8, -1.0)
    assert rs.dcsritilu0_history(h, 0, None, data, size, buf) == 3
    assert np.all(data[:6] > 0) and np.all(data[6:] == -1)
    # Converged: the iteration that met the tolerance comes back (the in-place sweep is exact at once).
    nmax = np.array([50], np.int64)
    n, *_ = itilu0(h, a, D, rs.Itilu0Alg.default, ALL_NORMS, nmax, 1e-12)
    assert n == nmax[0] < 50


def test_csritilu0_light_run_and_options():
    rng = np.random.default_rng(5)
    a = dominant(rng, 20, 0.2, Z)
    h = rs.create_handle()
    ref = csrilu0_factors(h, a, Z, 0)
    # The in-place algorithm without compute_nrm_residual runs nmaxiter sweeps, no norms, no stopping.
    n, got, size, buf = itilu0(h, a, Z, rs.Itilu0Alg.async_inplace, STOP | HIST, 4, 1.0)
    assert n == 4
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    data = np.full(8, -1.0)
    assert rs.zcsritilu0_history(h, 1, None, data, size, buf) == 4
    assert np.all(data == -1)  # neither norm was asked for
    # Without convergence_history, history is internal_error (rocSPARSE: "not activated").
    _, _, size, buf = itilu0(h, a, Z, rs.Itilu0Alg.async_inplace, RES, 4, 0.0)
    with pytest.raises(rs.SparseInternalError):
        rs.zcsritilu0_history(h, 1, None, data, size, buf)
    # A buffer size of 0: no iterations, as rocSPARSE's.
    assert rs.zcsritilu0_history(h, 1, None, data, 0, None) == 0
    # async_split with the stopping criteria but no residual stops after one sweep (its indicator is 0).
    n, *_ = itilu0(h, a, Z, rs.Itilu0Alg.async_split, STOP, 9, 0.0)
    assert n == 1


def test_csritilu0_deterministic():
    rng = np.random.default_rng(6)
    a = dominant(rng, 35, 0.15, C)
    h = rs.create_handle()
    runs = [itilu0(h, a, C, alg, ALL_NORMS, 30, 1e-5)[:2] for alg in (3, 3, 4, 4)]
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])
    assert runs[2][0] == runs[3][0] and np.array_equal(runs[2][1], runs[3][1])


def test_csritilu0_zero_pivots():
    h = rs.create_handle()
    # A missing diagonal entry: the preprocess stage is zero_pivot.
    a = sp.csr_matrix(np.array([[2.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 3.0]]))
    a.eliminate_zeros()
    ptr, ind, _ = dev(a)
    size = rs.csritilu0_buffer_size(h, 0, 0, 10, 3, a.nnz, ptr, ind, 0, rs.Datatype.f64_r)
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csritilu0_preprocess(h, 0, 0, 10, 3, a.nnz, ptr, ind, 0, rs.Datatype.f64_r, size, rm.empty(size, np.uint8))
    # No entries at all: zero_pivot from every stage, compute returning 0 iterations.
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csritilu0_buffer_size(h, 0, 0, 10, 3, 0, ptr, None, 0, rs.Datatype.f64_r)
    nmax = np.array([10], np.int32)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.dcsritilu0_compute(h, 0, 0, nmax, 0.0, 3, 0, ptr, None, None, None, 0, 0, None)
    assert e.value.niter == 0 and nmax[0] == 0
    # m == 0: nothing to do, 0 iterations.
    assert rs.csritilu0_buffer_size(h, 0, 0, 10, 0, 0, None, None, 0, rs.Datatype.f64_r) == 0
    rs.csritilu0_preprocess(h, 0, 0, 10, 0, 0, None, None, 0, rs.Datatype.f64_r, 0, None)
    assert rs.dcsritilu0_compute(h, 0, 0, 10, 0.0, 0, 0, None, None, None, None, 0, 0, None) == 0
    # An indicator that is not a number (all values zero: 0 / 0): the synchronous algorithms stop with
    # zero_pivot after the iteration, as rocSPARSE's.
    z = sp.csr_matrix((np.zeros(3), np.arange(3), np.arange(4)), shape=(3, 3))
    ptr, ind, val = dev(z)
    size = rs.csritilu0_buffer_size(h, 3, STOP | RES, 10, 3, 3, ptr, ind, 0, rs.Datatype.f64_r)
    buf = rm.empty(size, np.uint8)
    rs.csritilu0_preprocess(h, 3, STOP | RES, 10, 3, 3, ptr, ind, 0, rs.Datatype.f64_r, size, buf)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.dcsritilu0_compute(h, 3, STOP | RES, 10, 1e-3, 3, 3, ptr, ind, val, rm.zeros(3), 0, size, buf)
    assert e.value.niter == 1


def test_csritilu0_bad_arguments():
    rng = np.random.default_rng(8)
    a = dominant(rng, 6, 0.3, D)
    ptr, ind, val = dev(a)
    h = rs.create_handle()
    m, nnz, f64 = 6, a.nnz, rs.Datatype.f64_r
    bs = (0, 0, 10, m, nnz, ptr, ind, 0, f64)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.csritilu0_buffer_size(None, *bs)
    for i, (bad, exc, arg) in enumerate([(9, rs.SparseInvalidValueError, "alg"),
                                         (-1, rs.SparseInvalidValueError, "option"),
                                         (-1, rs.SparseInvalidValueError, "nmaxiter"),
                                         (-1, rs.SparseInvalidSizeError, "m"),
                                         (-1, rs.SparseInvalidSizeError, "nnz"),
                                         (None, rs.SparseInvalidPointerError, "csr_row_ptr"),
                                         (None, rs.SparseInvalidPointerError, "csr_col_ind"),
                                         (7, rs.SparseInvalidValueError, "idx_base"),
                                         (0, rs.SparseInvalidValueError, "datatype")]):
        args = list(bs)
        args[i] = bad
        raises(exc, arg, i + 2, rs.csritilu0_buffer_size, h, *args)
    # Two bad arguments: the first in rocSPARSE's order is reported.
    raises(rs.SparseInvalidValueError, "option", 3, rs.csritilu0_buffer_size, h, 0, -1, -1, -1, nnz, None, ind, 0, f64)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.csritilu0_buffer_size(h, 0, 0, 10, m, nnz, ptr, ind, 0, rs.Datatype.i32_r)
    size = rs.csritilu0_buffer_size(h, *bs)
    buf = rm.zeros(size, np.uint8)  # (zeros: a recycled allocation may hold an earlier layout)
    raises(rs.SparseInvalidPointerError, "buffer", 12, rs.csritilu0_preprocess, h, *bs, size, None)
    raises(rs.SparseInvalidSizeError, "buffer_size", 11, rs.csritilu0_preprocess, h, *bs, 64, buf)
    # compute: alg, option, nmaxiter (a pointer), tol, m, nnz, the four arrays, base, buffer.
    cargs = [0, 0, 10, 0.0, m, nnz, ptr, ind, val, rm.to_device(a.data), 0, size, buf]
    # No preprocess yet: the buffer holds no layout.
    raises(rs.SparseInternalError, "buffer", 14, rs.dcsritilu0_compute, h, *cargs)
    rs.csritilu0_preprocess(h, *bs, size, buf)
    for i, (bad, exc, arg) in enumerate([(5, rs.SparseInvalidValueError, "alg"),
                                         (-2, rs.SparseInvalidValueError, "option"),
                                         (None, rs.SparseInvalidPointerError, "nmaxiter"),
                                         (-1e-3, rs.SparseInvalidValueError, "tol"),
                                         (-1, rs.SparseInvalidSizeError, "m"),
                                         (-1, rs.SparseInvalidSizeError, "nnz"),
                                         (None, rs.SparseInvalidPointerError, "csr_row_ptr"),
                                         (None, rs.SparseInvalidPointerError, "csr_col_ind"),
                                         (None, rs.SparseInvalidPointerError, "csr_val"),
                                         (None, rs.SparseInvalidPointerError, "ilu0"),
                                         (3, rs.SparseInvalidValueError, "idx_base")]):
        args = list(cargs)
        args[i] = bad
        raises(exc, arg, i + 2, rs.dcsritilu0_compute, h, *args)
    raises(rs.SparseInvalidPointerError, "buffer", 14, rs.dcsritilu0_compute, h, *cargs[:-1], None)
    # A buffer prepared for other sizes, or too small for the logs the options ask for.
    raises(rs.SparseInvalidSizeError, "buffer", 14, rs.dcsritilu0_compute, h, 0, 0, 10, 0.0, m - 1, nnz, ptr, ind,
           val, rm.to_device(a.data), 0, size, buf)
    raises(rs.SparseInvalidSizeError, "buffer_size", 13, rs.dcsritilu0_compute, h, 0, ALL_NORMS, 500, 0.0, m, nnz,
           ptr, ind, val, rm.to_device(a.data), 0, size, buf)
    assert rs.dcsritilu0_compute(h, *cargs) == 10
    # history: alg, niter, data (a host array), buffer.
    data = np.zeros(4)
    raises(rs.SparseInvalidValueError, "alg", 2, rs.dcsritilu0_history, h, 8, None, data, size, buf)
    raises(rs.SparseInvalidPointerError, "data", 4, rs.dcsritilu0_history, h, 0, None, None, size, buf)
    raises(rs.SparseInvalidPointerError, "buffer", 6, rs.dcsritilu0_history, h, 0, None, data, size, None)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dcsritilu0_history(None, 0, None, data, size, buf)


# --- csritsv -----------------------------------------------------------------------------------------


def triangle(a: sp.csr_matrix, fill: int, unit: bool) -> sp.csr_matrix:
    t = sp.tril(a, -1 if unit else 0) if fill == 0 else sp.triu(a, 1 if unit else 0)
    if unit:
        t = t + sp.eye(a.shape[0], dtype=a.dtype)
    return sp.csr_matrix(t)


def reference(a: sp.csr_matrix, fill: int, unit: bool, op: rs.Operation, rhs: np.ndarray) -> np.ndarray:
    t = triangle(a, fill, unit)
    if op is T:
        t = t.T
    elif op is CT:
        t = t.conj().T
    lower = (fill == 0) == (op is N)
    return sla.spsolve_triangular(sp.csr_matrix(t).astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                                  rhs, lower=lower)


def itsv_setup(base=0, fill=0, unit=False, mtype=rs.MatrixType.general):
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_index_base(descr, base)
    rs.set_mat_fill_mode(descr, fill)
    rs.set_mat_diag_type(descr, int(unit))
    rs.set_mat_type(descr, mtype)
    return h, descr, info


@settings(max_examples=examples(24), deadline=None, derandomize=True)
@given(p=st.sampled_from(SDCZ), fill=st.sampled_from([0, 1]), unit=st.booleans(), op=st.sampled_from([N, T, CT]),
       base=st.sampled_from([0, 1]), m=st.sampled_from([1, 5, 17]), seed=st.integers(0, 2**16))
def test_csritsv_solves_like_spsolve_triangular(p, fill, unit, op, base, m, seed):
    rng = np.random.default_rng(seed)
    a = dominant(rng, m, 0.3, p)
    h, descr, info = itsv_setup(base, fill, unit)
    ptr, ind, val = dev(a, base)
    size = fn(p, "csritsv_buffer_size")(h, op, m, a.nnz, descr, val, ptr, ind, info)
    isz = p.dtype.itemsize
    assert size == isz * ((1 if unit else 2) * m + 4)
    buf = rm.empty(size, np.uint8)
    fn(p, "csritsv_analysis")(h, op, m, a.nnz, descr, val, ptr, ind, info, rs.AnalysisPolicy.force, 0, buf)
    assert rs.csritsv_zero_pivot(h, descr, info, None) == -1
    x = (rng.standard_normal(m) + (1j * rng.standard_normal(m) if p.is_complex else 0)).astype(p.dtype)
    alpha = p.dtype.type(1.5 - (0.5j if p.is_complex else 0))
    y = rm.zeros(m, p.dtype)
    hist = np.full(m + 3, -1.0)
    tol = 1e-5 if p in (S, C) else 1e-13
    nmax = np.array([m + 2], np.int32)
    n = fn(p, "csritsv_solve")(h, nmax, tol, hist, op, m, a.nnz, alpha, descr, val, ptr, ind, info,
                               rm.to_device(x), y, 0, buf)
    assert n == nmax[0] <= m + 2
    ref = reference(a.astype(np.complex128 if p.is_complex else np.float64), fill, unit, op, alpha * x.astype(ref_t(p)))
    np.testing.assert_allclose(y.get(), ref, rtol=50 * TOL[p.letter], atol=50 * TOL[p.letter])
    assert np.all(hist[:n] >= 0) and np.all(hist[n:] == -1) and hist[n - 1] <= tol
    assert np.array_equal(val.get(), a.data)


def ref_t(p: Precision):
    return np.complex128 if p.is_complex else np.float64


def test_csritsv_jacobi_iterations_without_tolerance():
    """host_tol None: exactly host_nmaxiter iterations; a triangular system's Jacobi iteration is exact after m
    iterations (its error matrix is nilpotent); fewer leave an error the history shows."""
    rng = np.random.default_rng(11)
    m = 12
    a = dominant(rng, m, 0.4, D)
    h, descr, info = itsv_setup()
    ptr, ind, val = dev(a)
    buf = rm.empty(rs.dcsritsv_buffer_size(h, N, m, a.nnz, descr, val, ptr, ind, info), np.uint8)
    rs.dcsritsv_analysis(h, N, m, a.nnz, descr, val, ptr, ind, info, 0, 0, buf)
    x = rng.standard_normal(m)
    ref = reference(a, 0, False, N, x)
    for iters in (2, m + 1):
        y = rm.zeros(m)
        hist = np.zeros(iters)
        assert rs.dcsritsv_solve(h, iters, None, hist, N, m, a.nnz, 1.0, descr, val, ptr, ind, info,
                                 rm.to_device(x), y, 0, buf) == iters
        err = np.abs(y.get() - ref).max()
        assert (err < 1e-12) == (iters > m)
        assert hist[0] == np.abs(x).max()  # the first residual is alpha x - T 0
    # The initial guess is y's content: starting from the solution, the first residual is ~0.
    y = rm.to_device(ref)
    hist = np.zeros(1)
    rs.dcsritsv_solve(h, 1, None, hist, N, m, a.nnz, 1.0, descr, val, ptr, ind, info, rm.to_device(x), y, 0, buf)
    assert hist[0] < 1e-12


def test_csritsv_triangular_matrix_type():
    rng = np.random.default_rng(12)
    m = 9
    a = dominant(rng, m, 0.3, D)
    h = rs.create_handle()
    for fill in (0, 1):
        for unit in (False, True):
            t = sp.csr_matrix(sp.tril(a, -int(unit)) if fill == 0 else sp.triu(a, int(unit)))
            t.sort_indices()
            _, descr, info = itsv_setup(0, fill, unit, rs.MatrixType.triangular)
            ptr, ind, val = dev(t)
            buf = rm.empty(max(rs.dcsritsv_buffer_size(h, N, m, t.nnz, descr, val, ptr, ind, info), 1), np.uint8)
            rs.dcsritsv_analysis(h, N, m, t.nnz, descr, val, ptr, ind, info, 0, 0, buf)
            x = rng.standard_normal(m)
            y = rm.zeros(m)
            rs.dcsritsv_solve(h, 2 * m, 1e-14, None, N, m, t.nnz, 1.0, descr, val, ptr, ind, info, rm.to_device(x), y,
                              0, buf)
            np.testing.assert_allclose(y.get(), reference(a, fill, unit, N, x), rtol=1e-11, atol=1e-11)
    # A unit triangular matrix storing its diagonal: rocSPARSE's analysis is internal_error.
    t = sp.csr_matrix(sp.tril(a))
    _, descr, info = itsv_setup(0, 0, True, rs.MatrixType.triangular)
    ptr, ind, val = dev(t)
    with pytest.raises(rs.SparseInternalError):
        rs.dcsritsv_analysis(h, N, m, t.nnz, descr, val, ptr, ind, info, 0, 0, rm.empty(64, np.uint8))


@pytest.mark.parametrize("base", [0, 1])
def test_csritsv_zero_pivots_by_position(base):
    m = 6
    dense = np.tril(np.arange(1.0, 37.0).reshape(m, m) / 10) + 5 * np.eye(m)
    dense[3, 3] = 0.0  # structural (missing) at row 3
    a = sp.csr_matrix(dense)
    a.eliminate_zeros()
    h, descr, info = itsv_setup(base)
    ptr, ind, val = dev(a, base)
    buf = rm.empty(rs.dcsritsv_buffer_size(h, N, m, a.nnz, descr, val, ptr, ind, info), np.uint8)
    assert rs.csritsv_zero_pivot(h, descr, info, None) == -1  # no analysis yet
    rs.dcsritsv_analysis(h, N, m, a.nnz, descr, val, ptr, ind, info, 0, 0, buf)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.csritsv_zero_pivot(h, descr, info, None)
    assert e.value.position == 3 + base
    y = rm.to_device(np.full(m, 7.0))
    assert rs.dcsritsv_solve(h, 10, 1e-12, None, N, m, a.nnz, 1.0, descr, val, ptr, ind, info,
                             rm.to_device(np.ones(m)), y, 0, buf) == 10
    assert np.all(y.get() == 7.0)  # a zero pivot: y untouched
    # A numerical zero (stored 0 on the diagonal) at row 2 is found by the solve.
    dense2 = dense.copy()
    dense2[3, 3] = 2.0
    b = sp.csr_matrix(dense2)
    bvals = b.data.copy()
    bvals[b.indptr[2] + 2] = 0.0  # row 2's diagonal (third entry of the row)
    ptr, ind, _ = dev(b, base)
    val = rm.to_device(bvals)
    info = rs.create_mat_info()
    rs.dcsritsv_analysis(h, N, m, b.nnz, descr, val, ptr, ind, info, 0, 0, buf)
    assert rs.csritsv_zero_pivot(h, descr, info, None) == -1
    rs.dcsritsv_solve(h, 10, None, None, N, m, b.nnz, 1.0, descr, val, ptr, ind, info, rm.to_device(np.ones(m)), y, 0,
                      buf)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.csritsv_zero_pivot(h, descr, info, None)
    assert e.value.position == 2 + base
    # Device pointer mode writes the position.
    rs.set_pointer_mode(h, rs.PointerMode.device)
    pos = rm.zeros(1, np.int32)
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csritsv_zero_pivot(h, descr, info, pos)
    assert pos.get()[0] == 2 + base
    # A unit diagonal has no pivots: the solve resets the info's.
    rs.set_pointer_mode(h, rs.PointerMode.host)
    rs.set_mat_diag_type(descr, rs.DiagType.unit)
    rs.dcsritsv_solve(h, 10, None, None, N, m, b.nnz, 1.0, descr, val, ptr, ind, info, rm.to_device(np.ones(m)), y, 0,
                      buf)
    assert rs.csritsv_zero_pivot(h, descr, info, None) == -1


def test_csritsv_quick_returns_clear_and_reuse():
    h, descr, info = itsv_setup()
    m = 4
    x = rm.to_device(np.arange(1.0, 5.0))
    # nnz == 0: a unit solve is y = alpha x; a non-unit one records the zero pivot at row 0.
    rs.set_mat_diag_type(descr, rs.DiagType.unit)
    ptr = rm.to_device(np.zeros(m + 1, np.int32))
    rs.dcsritsv_analysis(h, N, m, 0, descr, None, ptr, None, info, 0, 0, None)
    y = rm.zeros(m)
    assert rs.dcsritsv_solve(h, 5, None, None, N, m, 0, 2.0, descr, None, ptr, None, info, x, y, 0, None) == 5
    assert np.array_equal(y.get(), 2 * np.arange(1.0, 5.0))
    rs.set_mat_diag_type(descr, rs.DiagType.non_unit)
    rs.dcsritsv_analysis(h, N, m, 0, descr, None, ptr, None, info, rs.AnalysisPolicy.force, 0, None)
    with pytest.raises(rs.SparseZeroPivotError) as e:
        rs.csritsv_zero_pivot(h, descr, info, None)
    assert e.value.position == 0
    # m == 0: nothing; clear drops the analysis (a solve then wants one), the zero pivot stays.
    assert rs.dcsritsv_solve(h, 5, None, None, N, 0, 0, 1.0, descr, None, None, None, info, None, None, 0, None) == 5
    rs.csritsv_clear(h, descr, info)
    raises(rs.SparseInvalidPointerError, "info", 13, rs.dcsritsv_solve, h, 5, None, None, N, m, 0, 1.0, descr, None,
           ptr, None, info, x, y, 0, None)
    with pytest.raises(rs.SparseZeroPivotError):
        rs.csritsv_zero_pivot(h, descr, info, None)
    raises(rs.SparseInvalidPointerError, "info", 3, rs.csritsv_clear, h, descr, None)
    raises(rs.SparseInvalidPointerError, "descr", 2, rs.csritsv_clear, h, None, info)
    # reuse keeps the analysis (and its pivot); force redoes it.
    a = dominant(np.random.default_rng(1), m, 0.5, D)
    p2, i2, v2 = dev(a)
    rs.dcsritsv_analysis(h, N, m, a.nnz, descr, v2, p2, i2, info, rs.AnalysisPolicy.force, 0, rm.empty(64, np.uint8))
    assert rs.csritsv_zero_pivot(h, descr, info, None) == -1
    kept = info.csritsv
    rs.dcsritsv_analysis(h, N, m, a.nnz, descr, v2, p2, i2, info, rs.AnalysisPolicy.reuse, 0, rm.empty(64, np.uint8))
    assert info.csritsv is kept
    # copy_mat_info copies the analysis.
    other = rs.create_mat_info()
    rs.copy_mat_info(other, info)
    assert isinstance(other.csritsv, rs.CsritsvInfo) and other.csritsv is not kept


def test_csritsv_bad_arguments():
    rng = np.random.default_rng(13)
    m = 5
    a = dominant(rng, m, 0.4, D)
    h, descr, info = itsv_setup()
    ptr, ind, val = dev(a)
    nnz = a.nnz
    head = [N, m, nnz, descr, val, ptr, ind, info]
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dcsritsv_buffer_size(None, *head)
    # buffer_size: descr, info, trans, the descriptor, m, nnz, row_ptr, val, col_ind.
    order = [(3, None, rs.SparseInvalidPointerError, "descr", 5), (7, None, rs.SparseInvalidPointerError, "info", 9),
             (0, 999, rs.SparseInvalidValueError, "trans", 2), (1, -1, rs.SparseInvalidSizeError, "m", 3),
             (2, -1, rs.SparseInvalidSizeError, "nnz", 4), (5, None, rs.SparseInvalidPointerError, "csr_row_ptr", 7),
             (4, None, rs.SparseInvalidPointerError, "csr_val", 6),
             (6, None, rs.SparseInvalidPointerError, "csr_col_ind", 8)]
    for k, (_, _, exc, arg, index) in enumerate(order):
        args = list(head)
        for pos2, bad2, *_ in order[k:]:  # every later argument bad too: the first one is reported
            args[pos2] = bad2
        raises(exc, arg, index, rs.dcsritsv_buffer_size, h, *args)
    sym = rs.create_mat_descr()
    rs.set_mat_type(sym, rs.MatrixType.symmetric)
    raises(rs.SparseNotImplementedError, "descr", 5, rs.dcsritsv_buffer_size, h, N, -1, nnz, sym, val, ptr, ind, info)
    uns = rs.create_mat_descr()
    rs.set_mat_storage_mode(uns, rs.StorageMode.unsorted)
    raises(rs.SparseRequiresSortedStorageError, "descr", 5, rs.dcsritsv_buffer_size, h, N, m, nnz, uns, val, ptr, ind,
           info)
    # analysis: after the enums (trans, analysis, solve) and the descriptor checks, temp_buffer.
    raises(rs.SparseInvalidValueError, "analysis", 10, rs.dcsritsv_analysis, h, N, m, nnz, descr, val, ptr, ind, info,
           7, 9, None)
    raises(rs.SparseInvalidValueError, "solve", 11, rs.dcsritsv_analysis, h, N, m, nnz, descr, val, ptr, ind, info,
           0, 9, None)
    raises(rs.SparseInvalidPointerError, "temp_buffer", 12, rs.dcsritsv_analysis, h, N, m, nnz, descr, val, ptr, ind,
           info, 0, 0, None)
    # solve: descr, info, trans, policy, the descriptor, m, nnz, val, row_ptr, col_ind, temp_buffer, host_nmaxiter,
    # alpha, x, y, then an info without analysis.
    x, y, buf = rm.zeros(m), rm.zeros(m), rm.empty(256, np.uint8)
    good = [5, None, None, N, m, nnz, 1.0, descr, val, ptr, ind, info, x, y, 0, buf]
    checks = [(7, None, rs.SparseInvalidPointerError, "descr"), (11, None, rs.SparseInvalidPointerError, "info"),
              (3, 5, rs.SparseInvalidValueError, "trans"), (14, 3, rs.SparseInvalidValueError, "policy"),
              (4, -1, rs.SparseInvalidSizeError, "m"), (5, -1, rs.SparseInvalidSizeError, "nnz"),
              (8, None, rs.SparseInvalidPointerError, "csr_val"),
              (9, None, rs.SparseInvalidPointerError, "csr_row_ptr"),
              (10, None, rs.SparseInvalidPointerError, "csr_col_ind"),
              (15, None, rs.SparseInvalidPointerError, "temp_buffer"),
              (0, None, rs.SparseInvalidPointerError, "host_nmaxiter"),
              (6, None, rs.SparseInvalidPointerError, "alpha"), (12, None, rs.SparseInvalidPointerError, "x"),
              (13, None, rs.SparseInvalidPointerError, "y")]
    for k, (pos, _, exc, arg) in enumerate(checks):
        args = list(good)
        for pos2, bad2, *_ in checks[k:]:
            args[pos2] = bad2
        raises(exc, arg, pos + 2, rs.dcsritsv_solve, h, *args)
    raises(rs.SparseInvalidPointerError, "info", 13, rs.dcsritsv_solve, h, *good)  # no analysis yet
    # zero_pivot: info, then (device mode) position.
    raises(rs.SparseInvalidPointerError, "info", 3, rs.csritsv_zero_pivot, h, descr, None, None)
    rs.set_pointer_mode(h, rs.PointerMode.device)
    raises(rs.SparseInvalidPointerError, "position", 4, rs.csritsv_zero_pivot, h, None, info, None)


# --- spitsv ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [D, Z], ids=lambda p: p.letter)
@pytest.mark.parametrize("fill,unit,op", [(0, False, N), (1, True, T), (1, False, CT), (0, True, N)])
def test_spitsv_stages(p, fill, unit, op):
    rng = np.random.default_rng(21)
    m = 14
    a = dominant(rng, m, 0.25, p)
    h = rs.create_handle()
    ptr, ind, val = dev(a, 1)
    dt = datatype(p)
    A = rs.create_csr_descr(m, m, a.nnz, ptr, ind, val, rs.IndexType.i32, rs.IndexType.i32, 1, dt)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.fill_mode, fill)
    rs.spmat_set_attribute(A, rs.SpMatAttribute.diag_type, int(unit))
    xh = (rng.standard_normal(m) + (1j * rng.standard_normal(m) if p.is_complex else 0)).astype(p.dtype)
    X = rs.create_dnvec_descr(m, rm.to_device(xh), dt)
    yd = rm.zeros(m, p.dtype)
    Y = rs.create_dnvec_descr(m, yd, dt)
    nmax = np.array([3 * m], np.int32)
    alpha = p.dtype.type(2)
    out = np.zeros(1, np.int64)
    size = rs.spitsv(h, nmax, 1e-13, None, op, alpha, A, X, Y, dt, 0, rs.SpITSVStage.buffer_size, out)
    assert size == out[0] == p.dtype.itemsize * ((1 if unit else 2) * m + 4)
    buf = rm.empty(size, np.uint8)
    assert rs.spitsv(h, nmax, 1e-13, None, op, alpha, A, X, Y, dt, 0, rs.SpITSVStage.preprocess, None, buf) is None
    hist = np.zeros(3 * m)
    n = rs.spitsv(h, nmax, 1e-13, hist, op, alpha, A, X, Y, dt, 0, rs.SpITSVStage.compute, None, buf)
    assert n == nmax[0] < 3 * m and hist[n - 1] <= 1e-13
    np.testing.assert_allclose(yd.get(), reference(a, fill, unit, op, alpha * xh.astype(ref_t(p))), rtol=1e-10,
                               atol=1e-10)
    assert rs.csritsv_zero_pivot(h, A.descr, A.info, None) == -1


def test_spitsv_bad_arguments():
    h = rs.create_handle()
    m = 3
    a = dominant(np.random.default_rng(2), m, 0.5, D)
    ptr, ind, val = dev(a)
    f64, i32 = rs.Datatype.f64_r, rs.IndexType.i32
    A = rs.create_csr_descr(m, m, a.nnz, ptr, ind, val, i32, i32, 0, f64)
    X, Y = rs.create_dnvec_descr(m, rm.zeros(m), f64), rs.create_dnvec_descr(m, rm.zeros(m), f64)
    good = [10, None, None, N, 1.0, A, X, Y, f64, 0, rs.SpITSVStage.compute, None, rm.empty(64, np.uint8)]
    checks = [(5, None, rs.SparseInvalidPointerError, "mat"), (6, None, rs.SparseInvalidPointerError, "x"),
              (7, None, rs.SparseInvalidPointerError, "y"), (4, None, rs.SparseInvalidPointerError, "alpha"),
              (0, None, rs.SparseInvalidPointerError, "host_nmaxiter"), (3, 0, rs.SparseInvalidValueError, "trans"),
              (8, 3, rs.SparseInvalidValueError, "compute_type"), (9, 1, rs.SparseInvalidValueError, "alg"),
              (10, 0, rs.SparseInvalidValueError, "stage")]
    for k, (pos, _, exc, arg) in enumerate(checks):
        args = list(good)
        for pos2, bad2, *_ in checks[k:]:
            args[pos2] = bad2
        raises(exc, arg, pos + 2, rs.spitsv, h, *args)
    raises(rs.SparseInvalidPointerError, "buffer_size", 13, rs.spitsv, h, *good[:10], rs.SpITSVStage.buffer_size,
           None, None)
    with pytest.raises(rs.SparseNotImplementedError):  # mixed precision
        rs.spitsv(h, *good[:8], rs.Datatype.f32_r, *good[9:])
    coo = rs.create_coo_descr(m, m, 0, None, None, None, i32, 0, f64)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.spitsv(h, *good[:5], coo, *good[6:])
    raises(rs.SparseInvalidPointerError, "mat", 7, rs.spitsv, h, *good)  # no preprocess stage yet
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.spitsv(None, *good)


def test_checking_mode_scans_the_structure():
    """ROCMATH_CHECK: a one-based matrix described as zero-based faults before csritilu0's or csritsv's kernels
    walk it, and the analysis is not kept."""
    from rocmath.errors import MemoryAccessFault

    a = dominant(np.random.default_rng(9), 8, 0.3, D)
    h, descr, info = itsv_setup(0)
    ptr, ind, val = dev(a, 1)
    with rm.checking():
        with pytest.raises(MemoryAccessFault):
            rs.dcsritsv_analysis(h, N, 8, a.nnz, descr, val, ptr, ind, info, 0, 0, rm.empty(64, np.uint8))
            rs.get_stream(h).synchronize()
        assert info.csritsv is None
        size = rs.csritilu0_buffer_size(h, 0, 0, 5, 8, a.nnz, ptr, ind, 0, rs.Datatype.f64_r)
        with pytest.raises(MemoryAccessFault):
            rs.csritilu0_preprocess(h, 0, 0, 5, 8, a.nnz, ptr, ind, 0, rs.Datatype.f64_r, size,
                                    rm.zeros(size, np.uint8))
            rs.get_stream(h).synchronize()
