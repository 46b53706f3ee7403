"""rocSOLVER's sparse refactorization (solver/refact.py): csrrf_sumlu, csrrf_splitlu, csrrf_analysis, csrrf_refactlu,
csrrf_refactchol and csrrf_solve, in s and d.

Results are judged against SciPy: the bundle of splu's factors (splu's perm_r / perm_c are the inverses of
rocSOLVER's pivP / pivQ), refactlu on a new matrix of the same pattern against the unpivoted LU of its
permutation and against splu of the new matrix (same permutations), solve against spsolve, refactchol against a
dense Cholesky of a permuted SPD matrix whose factor has fill.  Argument checks follow rocSOLVER's argCheck:
one case per check, in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import rocmath as rm
from rocmath import blas
from rocmath.errors import (
    MemoryAccessFault,
    RocblasInternalError,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import D, Precision, S
from rocmath.solver import auxiliary as aux
from rocmath.solver import refact
from rocmath.solver._types import RfinfoMode

TOL = {S: 2e-4, D: 1e-11}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


@pytest.fixture
def rfinfo(handle: Any) -> Iterator[Any]:
    r = aux.create_rfinfo(handle)
    yield r
    aux.destroy_rfinfo(r)


def fn(name: str, p: Precision) -> Any:
    return getattr(refact, f"{p.letter}csrrf_{name}")


def dev(x: np.ndarray, dtype: Any = None) -> Any:
    return rm.to_device(np.ascontiguousarray(x, dtype=dtype))


def csr(m: sp.spmatrix, p: Precision) -> tuple[Any, Any, Any, int]:
    m = sp.csr_matrix(m)
    m.sort_indices()
    return dev(m.indptr, np.int32), dev(m.indices, np.int32), dev(m.data, p.dtype), m.nnz


def host_csr(ptr: Any, ind: Any, val: Any, n: int) -> np.ndarray:
    p = ptr.get()
    return sp.csr_matrix((val.get()[:p[-1]], ind.get()[:p[-1]], p), shape=(n, n)).toarray()


def general(n: int, seed: int) -> sp.csr_matrix:
    """A nonsymmetric sparse matrix, columns dominated by their diagonal (splu keeps its pivots under small changes)."""
    a = sp.random(n, n, density=0.12, random_state=seed, format="csr")
    return sp.csr_matrix(a + sp.diags(np.abs(a).sum(axis=0).A1 + 1.0))


def perturbed(a: sp.csr_matrix, seed: int) -> sp.csr_matrix:
    b = a.copy()
    b.data = b.data * (1 + 0.2 * np.random.default_rng(seed).uniform(-1, 1, b.nnz))
    return b


def lu_setup(a: sp.csr_matrix) -> tuple[Any, np.ndarray, np.ndarray]:
    lu = sla.splu(sp.csc_matrix(a))
    return lu, np.argsort(lu.perm_r).astype(np.int32), np.argsort(lu.perm_c).astype(np.int32)


def bundle(handle: Any, p: Precision, lu: Any, n: int) -> tuple[Any, Any, Any, int]:
    """T = (L - I) + U of splu's factors, by sumlu."""
    pL, iL, vL, nnzL = csr(lu.L, p)
    pU, iU, vU, nnzU = csr(lu.U, p)
    nnzT = nnzL - n + nnzU
    T = rm.empty(n + 1, np.int32), rm.empty(nnzT, np.int32), rm.empty(nnzT, p.dtype)
    fn("sumlu", p)(handle, n, nnzL, pL, iL, vL, nnzU, pU, iU, vU, *T)
    return (*T, nnzT)


# --- sumlu, splitlu ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [S, D])
def test_sumlu_and_splitlu_round_trip_splu_factors(handle: Any, p: Precision) -> None:
    n = 40
    lu, _, _ = lu_setup(general(n, 1))
    ptrT, indT, valT, nnzT = bundle(handle, p, lu, n)
    L, U = lu.L.toarray(), lu.U.toarray()
    T = host_csr(ptrT, indT, valT, n)
    assert np.array_equal(T, (L - np.eye(n) + U).astype(p.dtype))
    assert ptrT.get()[-1] == nnzT
    # splitlu's outputs sized exactly (nnzL, nnzU from T): nothing past them is written.
    nnzL, nnzU = lu.L.nnz, lu.U.nnz
    ptrL, indL, valL = rm.empty(n + 1, np.int32), rm.empty(nnzL, np.int32), rm.empty(nnzL, p.dtype)
    ptrU, indU, valU = rm.empty(n + 1, np.int32), rm.empty(nnzU, np.int32), rm.empty(nnzU, p.dtype)
    fn("splitlu", p)(handle, n, nnzT, ptrT, indT, valT, ptrL, indL, valL, ptrU, indU, valU)
    assert ptrL.get()[-1] == nnzL and ptrU.get()[-1] == nnzU
    assert np.array_equal(host_csr(ptrL, indL, valL, n), L.astype(p.dtype))
    assert np.array_equal(host_csr(ptrU, indU, valU, n), U.astype(p.dtype))
    # Each row of L ends with its unit diagonal.
    pl = ptrL.get()
    assert np.array_equal(indL.get()[pl[1:] - 1], np.arange(n)) and np.all(valL.get()[pl[1:] - 1] == 1)


def test_sumlu_splitlu_quick_returns(handle: Any) -> None:
    n = 5
    eye = dev(np.arange(n + 1), np.int32), dev(np.arange(n), np.int32), dev(np.ones(n))
    ptrU = dev(np.zeros(n + 1), np.int32)
    ptrT = dev(np.full(n + 1, 7), np.int32)
    # L = I, U empty: T has no entries, ptrT := 0 (indT, valT may be null).
    refact.dcsrrf_sumlu(handle, n, n, *eye, 0, ptrU, None, None, ptrT, None, None)
    assert np.array_equal(ptrT.get(), np.zeros(n + 1))
    # n = 0: nothing is touched.
    untouched = dev(np.full(3, 9), np.int32)
    refact.dcsrrf_sumlu(handle, 0, 0, untouched, None, None, 0, untouched, None, None, untouched, None, None)
    refact.dcsrrf_splitlu(handle, 0, 0, untouched, None, None, untouched, None, None, untouched, None, None)
    assert np.array_equal(untouched.get(), np.full(3, 9))
    # nnzT = 0: L = I, U empty (indU, valU may be null).
    ptrL, indL, valL = rm.empty(n + 1, np.int32), rm.empty(n, np.int32), rm.empty(n)
    ptrU2 = dev(np.full(n + 1, 3), np.int32)
    refact.dcsrrf_splitlu(handle, n, 0, ptrT, None, None, ptrL, indL, valL, ptrU2, None, None)
    assert np.array_equal(ptrL.get(), np.arange(n + 1)) and np.array_equal(indL.get(), np.arange(n))
    assert np.array_equal(valL.get(), np.ones(n)) and np.array_equal(ptrU2.get(), np.zeros(n + 1))


# --- analysis, refactlu, solve -------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [S, D])
def test_refactlu_reproduces_splu_of_the_new_matrix_and_solve_matches_spsolve(handle: Any, rfinfo: Any,
                                                                             p: Precision) -> None:
    n, nrhs, ldb = 40, 3, 43
    a = general(n, 2)
    lu, pivP, pivQ = lu_setup(a)
    ptrT, indT, valT, nnzT = bundle(handle, p, lu, n)
    pA, iA, vA, nnzA = csr(a, p)
    dP, dQ = dev(pivP), dev(pivQ)
    rng = np.random.default_rng(3)
    b = rng.standard_normal((nrhs, ldb))  # column-major ldb x nrhs, rows n.. are padding
    B = dev(b, p.dtype)
    fn("analysis", p)(handle, n, nrhs, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dP, dQ, B, ldb, rfinfo)
    assert rfinfo.analyzed and rfinfo.analyzed_mode is RfinfoMode.lu
    a2 = perturbed(a, 4)
    pA2, iA2, vA2, _ = csr(a2, p)
    fn("refactlu", p)(handle, n, nnzA, pA2, iA2, vA2, nnzT, ptrT, indT, valT, dP, dQ, rfinfo)
    T = host_csr(ptrT, indT, valT, n)
    L, U = np.tril(T, -1) + np.eye(n), np.triu(T)
    A2 = a2.toarray()
    tol = TOL[p] * np.abs(A2).max()
    # The LU without pivoting of P A2 Q^T ...
    ref = sla.splu(sp.csc_matrix(A2[pivP][:, pivQ]), permc_spec="NATURAL", diag_pivot_thresh=0.0)
    assert np.array_equal(ref.perm_r, np.arange(n))
    assert np.abs(L - ref.L.toarray()).max() < tol and np.abs(U - ref.U.toarray()).max() < tol
    # ... which is splu's of A2 itself, whose pivots are those of A.
    lu2 = sla.splu(sp.csc_matrix(A2))
    assert np.array_equal(lu2.perm_r, lu.perm_r) and np.array_equal(lu2.perm_c, lu.perm_c)
    assert np.abs(L - lu2.L.toarray()).max() < tol and np.abs(U - lu2.U.toarray()).max() < tol
    fn("solve", p)(handle, n, nrhs, nnzT, ptrT, indT, valT, dP, dQ, B, ldb, rfinfo)
    x = B.get()
    want = sla.spsolve(sp.csc_matrix(A2), b[:, :n].T)
    assert np.abs(x[:, :n].T - want).max() < 10 * TOL[p] * np.abs(want).max()
    assert np.array_equal(x[:, n:], b[:, n:].astype(p.dtype))  # ldb padding untouched


def spd(n: int, seed: int) -> sp.csr_matrix:
    a = sp.random(n, n, density=0.08, random_state=seed, format="csr")
    s = a + a.T
    return sp.csr_matrix(s + sp.diags(np.abs(s).sum(axis=1).A1 + 1.0))


def cholesky_pattern(b: np.ndarray) -> np.ndarray:
    """The lower triangle's pattern after symbolic Cholesky elimination (fill included)."""
    pat = np.tril(b != 0)
    for k in range(b.shape[0]):
        rows = np.flatnonzero(pat[k + 1:, k]) + k + 1
        pat[np.ix_(rows, rows)] |= np.tril(np.ones((rows.size, rows.size), bool))
    return pat


@pytest.mark.parametrize("p", [S, D])
def test_refactchol_against_dense_cholesky_and_solve(handle: Any, rfinfo: Any, p: Precision) -> None:
    n, nrhs = 36, 2
    a = spd(n, 5)
    pivQ = np.random.default_rng(6).permutation(n).astype(np.int32)
    A = a.toarray()
    pat = cholesky_pattern(A[pivQ][:, pivQ])
    assert pat.sum() > np.tril(A[pivQ][:, pivQ] != 0).sum()  # the factor has fill
    Lm = np.linalg.cholesky(A[pivQ][:, pivQ]) * pat
    rows, cols = np.nonzero(pat)
    ptrT, indT, valT, nnzT = csr(sp.csr_matrix((Lm[rows, cols], (rows, cols)), shape=(n, n)), p)  # zeros kept
    pA, iA, vA, nnzA = csr(a, p)
    dQ = dev(pivQ)
    aux.set_rfinfo_mode(rfinfo, RfinfoMode.cholesky)
    b = np.random.default_rng(7).standard_normal((nrhs, n))
    B = dev(b, p.dtype)
    fn("analysis", p)(handle, n, nrhs, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, None, dQ, B, n, rfinfo)
    a2 = perturbed(a, 8)
    a2 = sp.csr_matrix((a2 + a2.T) / 2)
    A2 = a2.toarray()
    poisoned = a2.copy()
    poisoned.sort_indices()
    rows = np.repeat(np.arange(n), np.diff(poisoned.indptr))
    poisoned.data[poisoned.indices > rows] = 1e6  # the strictly upper triangle is not read
    pA2, iA2, vA2, _ = csr(poisoned, p)
    fn("refactchol", p)(handle, n, nnzA, pA2, iA2, vA2, nnzT, ptrT, indT, valT, dQ, rfinfo)
    L = np.tril(host_csr(ptrT, indT, valT, n))
    want = np.linalg.cholesky(A2[pivQ][:, pivQ])
    assert np.abs(L - want).max() < TOL[p] * np.abs(want).max()
    fn("solve", p)(handle, n, nrhs, nnzT, ptrT, indT, valT, None, dQ, B, n, rfinfo)
    x = np.linalg.solve(A2, b.T)
    assert np.abs(B.get().T - x).max() < 10 * TOL[p] * np.abs(x).max()


def test_rfinfo_state_is_internal_error(handle: Any, rfinfo: Any) -> None:
    n = 10
    a = general(n, 9)
    lu, pivP, pivQ = lu_setup(a)
    ptrT, indT, valT, nnzT = bundle(handle, D, lu, n)
    pA, iA, vA, nnzA = csr(a, D)
    dP, dQ, B = dev(pivP), dev(pivQ), rm.empty(n)
    refactlu = (handle, n, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dP, dQ, rfinfo)
    solve = (handle, n, 1, nnzT, ptrT, indT, valT, dP, dQ, B, n, rfinfo)
    for call, args in ((refact.dcsrrf_refactlu, refactlu), (refact.dcsrrf_solve, solve)):
        with pytest.raises(RocblasInternalError):  # not analysed
            call(*args)
    refact.dcsrrf_refactlu(handle, 0, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dP, dQ, rfinfo)  # n = 0 first
    refact.dcsrrf_analysis(handle, n, 1, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dP, dQ, B, n, rfinfo)
    refact.dcsrrf_refactlu(*refactlu)
    with pytest.raises(RocblasInternalError):  # analysed in lu mode
        refact.dcsrrf_refactchol(handle, n, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dQ, rfinfo)
    aux.set_rfinfo_mode(rfinfo, RfinfoMode.cholesky)  # no longer in the analysed mode
    for call, args in ((refact.dcsrrf_refactlu, refactlu), (refact.dcsrrf_solve, solve)):
        with pytest.raises(RocblasInternalError):
            call(*args)
    refact.dcsrrf_solve(handle, n, 0, nnzT, ptrT, indT, valT, dP, dQ, B, n, rfinfo)  # nrhs = 0 returns first


def test_a_too_small_user_workspace_comes_before_the_rfinfo_state(rfinfo: Any) -> None:
    n = 10
    h = blas.create_handle()
    small = rm.malloc(64)
    try:
        lu, pivP, pivQ = lu_setup(general(n, 12))
        ptrT, indT, valT, nnzT = bundle(h, D, lu, n)
        pA, iA, vA, nnzA = csr(general(n, 12), D)
        blas.set_workspace(h, small, 64)
        with pytest.raises(RocblasMemoryError):  # not analysed, but the workspace is taken first
            refact.dcsrrf_refactlu(h, n, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dev(pivP), dev(pivQ), rfinfo)
    finally:
        blas.destroy_handle(h)
        rm.free(small)


def test_a_permutation_outside_the_matrix_faults(handle: Any, rfinfo: Any) -> None:
    n = 8
    a = general(n, 10)
    lu, pivP, pivQ = lu_setup(a)
    ptrT, indT, valT, nnzT = bundle(handle, D, lu, n)
    pA, iA, vA, nnzA = csr(a, D)
    refact.dcsrrf_analysis(handle, n, 0, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dev(pivP), dev(pivQ), None, n,
                           rfinfo)
    bad = pivQ.copy()
    bad[3] = n
    refact.dcsrrf_refactlu(handle, n, nnzA, pA, iA, vA, nnzT, ptrT, indT, valT, dev(pivP), dev(bad), rfinfo)
    with pytest.raises(MemoryAccessFault, match="pivQ"):
        rm.device_synchronize()


# --- argument checks -----------------------------------------------------------------------------------------


def _expect(exc: type[Exception], arg: str | None, call: Any, *args: Any) -> None:
    with pytest.raises(exc) as e:
        call(*args)
    if arg is not None:
        assert e.value.arg == arg, (e.value, arg)


def test_sumlu_splitlu_checks(handle: Any) -> None:
    x = rm.empty(8, np.int32)
    v = rm.empty(8)
    sumlu = refact.dcsrrf_sumlu

    def s(**kw: Any) -> tuple[Any, ...]:
        args = dict(handle=handle, n=2, nnzL=3, ptrL=x, indL=x, valL=v, nnzU=2, ptrU=x, indU=x, valU=v, ptrT=x,
                    indT=x, valT=v)
        args.update(kw)
        return tuple(args.values())

    _expect(RocblasInvalidHandleError, None, sumlu, *s(handle=None, n=-1))
    for kw, arg in (({"n": -1, "nnzL": -5}, "n"), ({"nnzL": 1, "nnzU": -1}, "nnzL"), ({"nnzU": -1}, "nnzU")):
        _expect(RocblasInvalidSizeError, arg, sumlu, *s(**kw))
    for kw, arg in (({"ptrL": None, "indT": None}, "ptrL"), ({"ptrU": None}, "ptrU"), ({"ptrT": None}, "ptrT"),
                    ({"indL": None, "valU": None}, "indL"), ({"valL": None}, "valL"), ({"indU": None}, "indU"),
                    ({"valU": None}, "valU"), ({"indT": None}, "indT"), ({"valT": None}, "valT")):
        _expect(RocblasInvalidPointerError, arg, sumlu, *s(**kw))
    sumlu(*s(n=0, nnzL=0, nnzU=0, indL=None, valL=None, indU=None, valU=None, indT=None, valT=None))

    split = refact.dcsrrf_splitlu

    def t(**kw: Any) -> tuple[Any, ...]:
        args = dict(handle=handle, n=2, nnzT=3, ptrT=x, indT=x, valT=v, ptrL=x, indL=x, valL=v, ptrU=x, indU=x,
                    valU=v)
        args.update(kw)
        return tuple(args.values())

    _expect(RocblasInvalidHandleError, None, split, *t(handle=None, n=-1))
    _expect(RocblasInvalidSizeError, "n", split, *t(n=-1, nnzT=-1))
    _expect(RocblasInvalidSizeError, "nnzT", split, *t(nnzT=-1))
    for kw, arg in (({"ptrL": None, "indT": None}, "ptrL"), ({"ptrU": None}, "ptrU"), ({"ptrT": None}, "ptrT"),
                    ({"indT": None, "indL": None}, "indT"), ({"valT": None}, "valT"), ({"indU": None}, "indU"),
                    ({"valU": None}, "valU"), ({"indL": None}, "indL"), ({"valL": None}, "valL")):
        _expect(RocblasInvalidPointerError, arg, split, *t(**kw))


def test_analysis_refact_solve_checks(handle: Any, rfinfo: Any) -> None:
    x, v = rm.empty(8, np.int32), rm.empty(8)
    analysis = refact.dcsrrf_analysis

    def a(**kw: Any) -> tuple[Any, ...]:
        args = dict(handle=handle, n=2, nrhs=1, nnzM=2, ptrM=x, indM=x, valM=v, nnzT=2, ptrT=x, indT=x, valT=v,
                    pivP=x, pivQ=x, B=v, ldb=2, rfinfo=rfinfo)
        args.update(kw)
        return tuple(args.values())

    _expect(RocblasInvalidHandleError, None, analysis, *a(handle=None, n=-1))
    for kw, arg in (({"n": -1, "ldb": -3}, "n"), ({"nnzM": -1, "nnzT": -1}, "nnzM"), ({"nnzT": -1, "nrhs": -1}, "nnzT"),
                    ({"nrhs": -1, "ldb": 1}, "nrhs"), ({"ldb": 1}, "ldb")):
        _expect(RocblasInvalidSizeError, arg, analysis, *a(**kw))
    for kw, arg in (({"rfinfo": None, "ptrM": None}, "rfinfo"), ({"ptrM": None, "ptrT": None}, "ptrM"),
                    ({"ptrT": None}, "ptrT"), ({"indM": None, "indT": None}, "indM"), ({"valM": None}, "valM"),
                    ({"indT": None}, "indT"), ({"valT": None}, "valT"), ({"B": None, "pivP": None}, "B"),
                    ({"pivP": None, "pivQ": None}, "pivP"), ({"pivQ": None}, "pivQ")):
        _expect(RocblasInvalidPointerError, arg, analysis, *a(**kw))
    analysis(*a(n=0, nrhs=0, nnzM=0, nnzT=0, indM=None, valM=None, indT=None, valT=None, pivP=None, pivQ=None,
                B=None, ldb=0))
    assert not rfinfo.analyzed  # n = 0 returns before recording anything

    lu = refact.dcsrrf_refactlu

    def r(**kw: Any) -> tuple[Any, ...]:
        args = dict(handle=handle, n=2, nnzA=2, ptrA=x, indA=x, valA=v, nnzT=2, ptrT=x, indT=x, valT=v, pivP=x,
                    pivQ=x, rfinfo=rfinfo)
        args.update(kw)
        return tuple(args.values())

    _expect(RocblasInvalidHandleError, None, lu, *r(handle=None))
    for kw, arg in (({"n": -1, "nnzA": -1}, "n"), ({"nnzA": -1, "nnzT": -1}, "nnzA"), ({"nnzT": -1}, "nnzT")):
        _expect(RocblasInvalidSizeError, arg, lu, *r(**kw))
    for kw, arg in (({"rfinfo": None, "ptrA": None}, "rfinfo"), ({"ptrA": None, "ptrT": None}, "ptrA"),
                    ({"ptrT": None, "pivP": None}, "ptrT"), ({"pivP": None, "indA": None}, "pivP"),
                    ({"pivQ": None, "indA": None}, "pivQ"), ({"indA": None, "indT": None}, "indA"),
                    ({"valA": None}, "valA"), ({"indT": None}, "indT"), ({"valT": None}, "valT")):
        _expect(RocblasInvalidPointerError, arg, lu, *r(**kw))
    chol = refact.dcsrrf_refactchol
    _expect(RocblasInvalidPointerError, "pivQ", chol, handle, 2, 2, x, x, v, 2, x, x, v, None, rfinfo)

    solve = refact.dcsrrf_solve

    def q(**kw: Any) -> tuple[Any, ...]:
        args = dict(handle=handle, n=2, nrhs=1, nnzT=2, ptrT=x, indT=x, valT=v, pivP=x, pivQ=x, B=v, ldb=2,
                    rfinfo=rfinfo)
        args.update(kw)
        return tuple(args.values())

    _expect(RocblasInvalidHandleError, None, solve, *q(handle=None))
    for kw, arg in (({"n": -1, "nrhs": -1}, "n"), ({"nrhs": -1, "nnzT": -1}, "nrhs"), ({"nnzT": -1, "ldb": 0}, "nnzT"),
                    ({"ldb": 1}, "ldb")):
        _expect(RocblasInvalidSizeError, arg, solve, *q(**kw))
    for kw, arg in (({"rfinfo": None, "ptrT": None}, "rfinfo"), ({"ptrT": None, "indT": None}, "ptrT"),
                    ({"indT": None, "B": None}, "indT"), ({"valT": None}, "valT"), ({"B": None, "pivP": None}, "B"),
                    ({"pivP": None, "pivQ": None}, "pivP"), ({"pivQ": None}, "pivQ")):
        _expect(RocblasInvalidPointerError, arg, solve, *q(**kw))
    aux.set_rfinfo_mode(rfinfo, RfinfoMode.cholesky)  # pivP is not needed in cholesky mode
    _expect(RocblasInvalidPointerError, "pivQ", solve, *q(pivP=None, pivQ=None))
    aux.destroy_rfinfo(aux.create_rfinfo(handle))
    stale = aux.create_rfinfo(handle)
    aux.destroy_rfinfo(stale)
    _expect(RocblasInvalidPointerError, "rfinfo", solve, *q(rfinfo=stale))


def test_size_query_skips_pointer_checks(handle: Any, rfinfo: Any) -> None:
    n = 12
    lu, _, _ = lu_setup(general(n, 11))
    ptrT, indT, valT, nnzT = bundle(handle, D, lu, n)
    blas.start_device_memory_size_query(handle)
    try:
        assert refact.dcsrrf_sumlu(handle, n, n, None, None, None, 0, None, None, None, None, None, None) \
            is RocblasStatus.size_unchanged
        assert refact.dcsrrf_splitlu(handle, n, nnzT, None, None, None, None, None, None, None, None, None) \
            is RocblasStatus.size_increased  # two counts per row
        assert refact.dcsrrf_refactlu(handle, n, 5, None, None, None, nnzT, ptrT, indT, valT, None, None, None) \
            is RocblasStatus.size_unchanged  # a null rfinfo: rocSPARSE's share unknown, n ints
        assert refact.dcsrrf_refactlu(handle, n, 5, None, None, None, nnzT, ptrT, indT, valT, None, None, rfinfo) \
            is RocblasStatus.size_increased  # csrilu0's buffer
        assert refact.dcsrrf_solve(handle, n, 40, nnzT, ptrT, indT, valT, None, None, rm.empty(40 * n), n, rfinfo) \
            is RocblasStatus.size_increased  # csrsm's buffer and the n x nrhs temporary of the permutations
        with pytest.raises(RocblasInvalidSizeError):
            refact.dcsrrf_solve(handle, n, 4, nnzT, None, None, None, None, None, None, n - 1, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size > 8 * 40 * n
