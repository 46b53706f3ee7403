"""rocmath.hip.hipsolver's refactorization API (hipsolverRf*, rocmath/hip/_hipsolver_rf.py), as hipSOLVER's AMD
backend has it (hipsolver_refactor.cpp): the workflow hipSOLVER's documentation describes -- factor A on the host
(SciPy's splu gives L, U and the permutations), RfSetupHost / RfSetupDevice, RfAnalyze, RfRefactor, RfResetValues
with a new A of the same pattern, RfRefactor, RfSolve -- judged against SciPy; the factor extraction, the getters
(defaults), the setters and batch functions (NOT_SUPPORTED on AMD), and the statuses of bad arguments in
hipSOLVER's order.  hip-python 6.2's parameter names throughout (some calls by keyword)."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from hip_util import check, to_device, to_host

from rocmath.hip import hip, hipsolver

S = hipsolver.hipsolverStatus_t
N = 24
RF_NAMES = ("Create", "Destroy", "SetupDevice", "SetupHost", "AccessBundledFactorsDevice", "Analyze",
            "ExtractBundledFactorsHost", "ExtractSplitFactorsHost", "Get_Algs", "GetMatrixFormat",
            "GetNumericBoostReport", "GetNumericProperties", "GetResetValuesFastMode", "Refactor", "ResetValues",
            "SetAlgs", "SetMatrixFormat", "SetNumericProperties", "SetResetValuesFastMode", "Solve", "BatchSetupHost",
            "BatchAnalyze", "BatchRefactor", "BatchResetValues", "BatchSolve", "BatchZeroPivot")


# --- fixtures ------------------------------------------------------------------------------------------------------


class Device:
    """Device copies made by a test, freed at its end."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []

    def put(self, a: np.ndarray) -> Any:
        d = to_device(np.ascontiguousarray(a)) if a.nbytes else check(hip.hipMalloc(8))
        self.ptrs.append(d)
        return d

    def free(self) -> None:
        for d in self.ptrs:
            check(hip.hipFree(d))
        self.ptrs.clear()


@pytest.fixture
def dev() -> Iterator[Device]:
    d = Device()
    yield d
    d.free()


@pytest.fixture
def rf() -> Iterator[Any]:
    h = check(hipsolver.hipsolverRfCreate())
    yield h
    check(hipsolver.hipsolverRfDestroy(h))


def matrix(seed: int) -> sp.csr_matrix:
    """A nonsymmetric sparse matrix whose columns are dominated by their diagonal."""
    a = sp.random(N, N, density=0.15, random_state=seed, format="csr")
    a = sp.csr_matrix(a + sp.diags(np.abs(a).sum(axis=0).A1 + 1.0))
    a.sort_indices()
    return a


def same_pattern(a: sp.csr_matrix, seed: int) -> sp.csr_matrix:
    b = a.copy()
    b.data = b.data * (1.0 + 0.2 * np.random.default_rng(seed).standard_normal(b.nnz))
    return b


class Factors:
    """splu's factors of A in rocSOLVER's terms: P A Q^T = L U, L and U in sorted CSR, P and Q zero-based."""

    def __init__(self, a: sp.csr_matrix) -> None:
        lu = sla.splu(a.tocsc(), permc_spec="COLAMD")
        self.L, self.U = sp.csr_matrix(lu.L), sp.csr_matrix(lu.U)
        self.L.sort_indices()
        self.U.sort_indices()
        self.P = np.argsort(lu.perm_r).astype(np.int32)
        self.Q = np.argsort(lu.perm_c).astype(np.int32)


def csr(m: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return m.indptr.astype(np.int32), m.indices.astype(np.int32), m.data.astype(np.float64)


def setup_args(a: sp.csr_matrix, f: Factors) -> list[Any]:
    """RfSetupHost's arguments before the handle, as host arrays."""
    return [N, a.nnz, *csr(a), f.L.nnz, *csr(f.L), f.U.nnz, *csr(f.U), f.P, f.Q]


def host_ints(address: int, count: int, dtype: Any = np.int32) -> np.ndarray:
    """``count`` values at a host address the handle owns (a copy)."""
    ctype = ctypes.c_int if dtype == np.int32 else ctypes.c_double
    return np.ctypeslib.as_array((ctype * count).from_address(address)).copy() if count else np.zeros(0, dtype)


def as_dense(ptr: np.ndarray, ind: np.ndarray, val: np.ndarray) -> np.ndarray:
    return sp.csr_matrix((val, ind, ptr), shape=(N, N)).toarray()


def permuted(a: sp.csr_matrix, f: Factors) -> np.ndarray:
    return a.toarray()[f.P][:, f.Q]


# --- names and enums -----------------------------------------------------------------------------------------------


def test_names_and_enums():
    for short in RF_NAMES:
        name = f"hipsolverRf{short}"
        fn = getattr(hipsolver, name)
        assert callable(fn) and fn.__name__ == name and name in hipsolver.__all__
    assert len(RF_NAMES) == 26
    E = hipsolver
    assert (E.hipsolverRfFactorization_t.HIPSOLVERRF_FACTORIZATION_ALG2, E.hipsolverRfMatrixFormat_t.
            HIPSOLVERRF_MATRIX_FORMAT_CSC, E.hipsolverRfTriangularSolve_t.HIPSOLVERRF_TRIANGULAR_SOLVE_ALG1,
            E.hipsolverRfUnitDiagonal_t.HIPSOLVERRF_UNIT_DIAGONAL_ASSUMED_U) == (2, 1, 1, 3)
    for enum in ("hipsolverRfNumericBoostReport_t", "hipsolverRfResetValuesFastMode_t", "hipsolverRfHandle_t"):
        assert enum in hipsolver.__all__
    assert [p for p in hipsolver.hipsolverRfSetupHost.__signature__.parameters][:6] == [
        "n", "nnzA", "h_csrRowPtrA", "h_csrColIndA", "h_csrValA", "nnzL"]
    assert " ".join(hipsolver.hipsolverRfSolve.__signature__.parameters) == "handle P Q nrhs Temp ldt XF ldxf"


# --- the workflow ---------------------------------------------------------------------------------------------------


def test_refactorization_workflow_host_setup(rf, dev):
    a = matrix(1)
    f = Factors(a)
    check(hipsolver.hipsolverRfSetupHost(*setup_args(a, f), rf))
    check(hipsolver.hipsolverRfAnalyze(rf))
    check(hipsolver.hipsolverRfRefactor(rf))
    # The bundle of A's own refactorization: (L - I) + U of P A Q^T.
    nnzM, Mp, Mi, Mx = check(hipsolver.hipsolverRfExtractBundledFactorsHost(rf))
    assert nnzM == f.L.nnz - N + f.U.nnz
    ptr = host_ints(Mp, N + 1)
    T = as_dense(ptr, host_ints(Mi, nnzM), host_ints(Mx, nnzM, np.float64))
    L1, U1 = np.tril(T, -1) + np.eye(N), np.triu(T)
    np.testing.assert_allclose(L1 @ U1, permuted(a, f), atol=1e-12)
    np.testing.assert_allclose(L1, f.L.toarray(), atol=1e-12)

    # A new matrix of the same pattern: its values (on the device), refactor, solve.
    a2 = same_pattern(a, 2)
    ptr2, ind2, val2 = csr(a2)
    dptr, dind, dval = dev.put(ptr2), dev.put(ind2), dev.put(val2)
    check(hipsolver.hipsolverRfResetValues(N, a2.nnz, dptr, dind, dval, dev.put(f.P), dev.put(f.Q), rf))
    check(hipsolver.hipsolverRfRefactor(rf))
    B = np.asfortranarray(np.random.default_rng(3).standard_normal((N, 2)))
    ldxf = N + 3
    XF = np.zeros((ldxf, 2), order="F")
    XF[:N] = B
    dX = dev.put(XF.T.copy())  # column-major with ldxf rows
    temp = dev.put(np.zeros(N * 2))
    check(hipsolver.hipsolverRfSolve(rf, None, None, 2, temp, N, dX, ldxf))  # P, Q, Temp not used on AMD
    X = to_host(dX, XF.T.copy()).T
    np.testing.assert_allclose(X[:N], sla.spsolve(a2.tocsc(), B), rtol=1e-9, atol=1e-11)
    np.testing.assert_array_equal(X[N:], 0.0)

    # The split factors, written through ctypes out-parameters: P A2 Q^T = L U.
    outs = [ctypes.c_int() if i % 4 == 0 else ctypes.c_void_p() for i in range(8)]
    check(hipsolver.hipsolverRfExtractSplitFactorsHost(rf, *outs))
    (nnzL, Lp, Li, Lx), (nnzU, Up, Ui, Ux) = ([o.value for o in outs[:4]], [o.value for o in outs[4:]])
    assert (nnzL, nnzU) == (f.L.nnz, f.U.nnz)
    L = as_dense(host_ints(Lp, N + 1), host_ints(Li, nnzL), host_ints(Lx, nnzL, np.float64))
    U = as_dense(host_ints(Up, N + 1), host_ints(Ui, nnzU), host_ints(Ux, nnzU, np.float64))
    np.testing.assert_array_equal(np.diag(L), 1.0)
    assert np.allclose(np.triu(L, 1), 0) and np.allclose(np.tril(U, -1), 0)
    np.testing.assert_allclose(L @ U, permuted(a2, f), atol=1e-12)

    # The device bundle is the same T; by keyword, hip-python's names.
    nnzM, Mp, Mi, Mx = check(hipsolver.hipsolverRfAccessBundledFactorsDevice(handle=rf))
    T2 = as_dense(to_host(Mp, np.zeros(N + 1, np.int32)), to_host(Mi, np.zeros(nnzM, np.int32)),
                  to_host(Mx, np.zeros(nnzM)))
    np.testing.assert_allclose(T2, np.tril(L, -1) + U, atol=0)


def test_device_setup_matches_host_setup(rf, dev):
    a = matrix(4)
    f = Factors(a)
    args = setup_args(a, f)
    device_args = [x if isinstance(x, int) else dev.put(x) for x in args]
    names = [p for p in hipsolver.hipsolverRfSetupDevice.__signature__.parameters][:-1]
    check(hipsolver.hipsolverRfSetupDevice(**dict(zip(names, device_args, strict=True)), handle=rf))
    check(hipsolver.hipsolverRfAnalyze(handle=rf))
    a2 = same_pattern(a, 5)
    _, _, val2 = csr(a2)
    check(hipsolver.hipsolverRfResetValues(n=N, nnzA=a2.nnz, csrRowPtrA=device_args[2], csrColIndA=device_args[3],
                                           csrValA=dev.put(val2), P=device_args[-2], Q=device_args[-1], handle=rf))
    check(hipsolver.hipsolverRfRefactor(rf))
    b = np.random.default_rng(6).standard_normal(N)
    db = dev.put(b)
    check(hipsolver.hipsolverRfSolve(handle=rf, P=None, Q=None, nrhs=1, Temp=None, ldt=N, XF=db, ldxf=N))
    np.testing.assert_allclose(to_host(db, b), sla.spsolve(a2.tocsc(), b), rtol=1e-9)
    # The same handle set up again from the host (same sizes: the buffers are kept) gives the same factors.
    nnz, mp, mi, mx = check(hipsolver.hipsolverRfExtractBundledFactorsHost(rf))
    first = as_dense(host_ints(mp, N + 1), host_ints(mi, nnz), host_ints(mx, nnz, np.float64))
    args[4] = a2.data.astype(np.float64)
    check(hipsolver.hipsolverRfSetupHost(*args, rf))
    check(hipsolver.hipsolverRfAnalyze(rf))
    check(hipsolver.hipsolverRfRefactor(rf))
    nnz2, mp2, mi2, mx2 = check(hipsolver.hipsolverRfExtractBundledFactorsHost(rf))
    assert (nnz2, mp2) == (nnz, mp)  # the handle's host buffer, reused
    np.testing.assert_allclose(as_dense(host_ints(mp2, N + 1), host_ints(mi2, nnz2), host_ints(mx2, nnz2, np.float64)),
                               first, rtol=1e-13, atol=1e-14)


# --- getters, setters, batch ----------------------------------------------------------------------------------------


def test_getters_report_the_defaults(rf):
    E = hipsolver
    assert hipsolver.hipsolverRfGet_Algs(rf) == (S.HIPSOLVER_STATUS_SUCCESS,
                                                 E.hipsolverRfFactorization_t.HIPSOLVERRF_FACTORIZATION_ALG0,
                                                 E.hipsolverRfTriangularSolve_t.HIPSOLVERRF_TRIANGULAR_SOLVE_ALG1)
    assert check(hipsolver.hipsolverRfGetMatrixFormat(rf)) == (
        E.hipsolverRfMatrixFormat_t.HIPSOLVERRF_MATRIX_FORMAT_CSR,
        E.hipsolverRfUnitDiagonal_t.HIPSOLVERRF_UNIT_DIAGONAL_STORED_L)
    assert check(hipsolver.hipsolverRfGetNumericProperties(rf)) == (0.0, 0.0)
    assert check(hipsolver.hipsolverRfGetNumericBoostReport(rf)) == 0
    assert check(hipsolver.hipsolverRfGetResetValuesFastMode(rf)) == 0
    fmt, diag = ctypes.c_int(-1), np.full(1, -1, np.int32)
    check(hipsolver.hipsolverRfGetMatrixFormat(handle=rf, format=fmt, diag=diag))
    assert (fmt.value, diag[0]) == (0, 0)
    zero, boost = ctypes.c_double(7), ctypes.c_double(7)
    check(hipsolver.hipsolverRfGetNumericProperties(rf, zero, boost))
    assert (zero.value, boost.value) == (0.0, 0.0)
    fast = ctypes.c_int(5)
    check(hipsolver.hipsolverRfGetResetValuesFastMode(rf, fast))
    assert fast.value == 0
    # The handle first, then each output.
    assert hipsolver.hipsolverRfGet_Algs(None, None, None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert hipsolver.hipsolverRfGet_Algs(rf, ctypes.c_int(), None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverRfGetNumericBoostReport(rf, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverRfGetNumericBoostReport(None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)


def test_setters_and_batch_functions_are_not_supported(rf):
    E = hipsolver
    NS = (S.HIPSOLVER_STATUS_NOT_SUPPORTED,)
    assert hipsolver.hipsolverRfSetAlgs(rf, E.hipsolverRfFactorization_t.HIPSOLVERRF_FACTORIZATION_ALG1,
                                        E.hipsolverRfTriangularSolve_t.HIPSOLVERRF_TRIANGULAR_SOLVE_ALG2) == NS
    assert hipsolver.hipsolverRfSetMatrixFormat(None, E.hipsolverRfMatrixFormat_t.HIPSOLVERRF_MATRIX_FORMAT_CSR,
                                                E.hipsolverRfUnitDiagonal_t.HIPSOLVERRF_UNIT_DIAGONAL_STORED_U) == NS
    assert hipsolver.hipsolverRfSetNumericProperties(rf, effective_zero=1e-14, boost_val=1e-8) == NS
    assert hipsolver.hipsolverRfSetResetValuesFastMode(
        rf, E.hipsolverRfResetValuesFastMode_t.HIPSOLVERRF_RESET_VALUES_FAST_MODE_ON) == NS
    # Nothing changed.
    assert check(hipsolver.hipsolverRfGetResetValuesFastMode(rf)) == 0
    assert check(hipsolver.hipsolverRfGetNumericProperties(rf)) == (0.0, 0.0)
    # hip-python's conversions come first: enums must be the enums, integers fit a C int, doubles convert.
    with pytest.raises(TypeError, match="fact_alg"):
        hipsolver.hipsolverRfSetAlgs(rf, 0, E.hipsolverRfTriangularSolve_t.HIPSOLVERRF_TRIANGULAR_SOLVE_ALG1)
    with pytest.raises(TypeError):
        hipsolver.hipsolverRfSetNumericProperties(rf, "0", 0.0)
    with pytest.raises(OverflowError, match="batchSize"):
        hipsolver.hipsolverRfBatchResetValues(2**31, 1, 1, None, None, None, None, None, rf)
    x = np.zeros(4)
    assert hipsolver.hipsolverRfBatchSetupHost(2, N, 3, x, x, x, 3, x, x, x, 3, x, x, x, x, x, rf) == NS
    for name in ("BatchAnalyze", "BatchRefactor"):
        assert getattr(hipsolver, f"hipsolverRf{name}")(rf) == NS
    assert hipsolver.hipsolverRfBatchResetValues(2, N, 3, x, x, x, x, x, handle=rf) == NS
    assert hipsolver.hipsolverRfBatchSolve(rf, x, x, 1, x, N, x, N) == NS
    assert hipsolver.hipsolverRfBatchZeroPivot(handle=rf, position=ctypes.c_int()) == NS


# --- statuses, in hipSOLVER's order ---------------------------------------------------------------------------------


def test_setup_statuses(rf):
    a = matrix(7)
    f = Factors(a)
    args = setup_args(a, f)
    IV, NI = (S.HIPSOLVER_STATUS_INVALID_VALUE,), (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    nulled = [None if isinstance(x, np.ndarray) else x for x in args]
    assert hipsolver.hipsolverRfSetupHost(*nulled, None) == NI  # the handle first
    for i in (2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14):  # each array: A's, L's, U's, P, Q
        bad = list(args)
        bad[i] = None
        assert hipsolver.hipsolverRfSetupHost(*bad, rf) == IV, i
    for i in (0, 1, 5, 9):  # then a negative size
        bad = list(args)
        bad[i] = -1
        assert hipsolver.hipsolverRfSetupHost(*bad, rf) == IV, i
    bad = list(args)
    bad[5] = N - 1  # nnzL < n: rocSOLVER's csrrf_sumlu says invalid_size
    assert hipsolver.hipsolverRfSetupHost(*bad, rf) == IV
    with pytest.raises(OverflowError, match="nnzA"):
        hipsolver.hipsolverRfSetupDevice(N, 2**31, *([None] * 13), rf)


def test_statuses_before_and_after_setup(rf, dev):
    IE, IV, NI = (S.HIPSOLVER_STATUS_INTERNAL_ERROR,), (S.HIPSOLVER_STATUS_INVALID_VALUE,), \
        (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    x = dev.put(np.zeros(N + 1, np.int32))
    # No setup yet: no device buffer.
    for fn in (hipsolver.hipsolverRfAnalyze, hipsolver.hipsolverRfRefactor):
        assert fn(rf) == IE and fn(None) == NI
    assert hipsolver.hipsolverRfSolve(rf, None, None, 1, None, N, x, N) == IE
    assert hipsolver.hipsolverRfExtractBundledFactorsHost(rf) == (IE[0], None, None, None, None)
    assert hipsolver.hipsolverRfAccessBundledFactorsDevice(rf, *[ctypes.c_int(), None, None, None]) == IV
    assert hipsolver.hipsolverRfExtractSplitFactorsHost(rf) == (IE[0], *[None] * 8)
    assert hipsolver.hipsolverRfResetValues(0, 0, x, x, x, x, x, rf) == IE  # the sizes match (0), no buffer
    assert hipsolver.hipsolverRfResetValues(0, 0, x, x, None, x, x, rf) == IV
    assert hipsolver.hipsolverRfResetValues(1, 0, x, x, x, x, x, rf) == IV
    # A fresh handle set up for an empty problem allocates nothing (hipSOLVER's copies have no destination).
    e = np.zeros(1, np.int32)
    assert hipsolver.hipsolverRfSetupHost(0, 0, e, e, e, 0, e, e, e, 0, e, e, e, e, e, rf) == IE
    assert hipsolver.hipsolverRfAnalyze(rf) == IE
    # After a real setup: ResetValues's sizes must be the setup's; Solve's ldxf at least n.
    a = matrix(8)
    f = Factors(a)
    check(hipsolver.hipsolverRfSetupHost(*setup_args(a, f), rf))
    check(hipsolver.hipsolverRfAnalyze(rf))
    ptr, ind, val = (dev.put(v) for v in csr(a))
    assert hipsolver.hipsolverRfResetValues(N + 1, a.nnz, ptr, ind, val, x, x, rf) == IV
    assert hipsolver.hipsolverRfResetValues(N, a.nnz - 1, ptr, ind, val, x, x, rf) == IV
    db = dev.put(np.ones(N))
    assert hipsolver.hipsolverRfSolve(rf, None, None, 1, None, N, db, N - 1) == IV
    assert hipsolver.hipsolverRfSolve(rf, None, None, 1, None, N, None, N) == IV
    assert hipsolver.hipsolverRfDestroy(None) == IV


def test_solve_before_refactor_uses_the_setup_factors(rf, dev):
    # Analyze then Solve: T is sumlu's bundle of the given L and U (the factors of A itself).
    a = matrix(9)
    f = Factors(a)
    check(hipsolver.hipsolverRfSetupHost(*setup_args(a, f), rf))
    check(hipsolver.hipsolverRfAnalyze(rf))
    b = np.arange(1.0, N + 1)
    db = dev.put(b)
    check(hipsolver.hipsolverRfSolve(rf, None, None, 1, None, N, db, N))
    np.testing.assert_allclose(to_host(db, b), sla.spsolve(a.tocsc(), b), rtol=1e-9)
