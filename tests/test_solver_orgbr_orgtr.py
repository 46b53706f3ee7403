"""rocSOLVER's orgbr/ungbr, orgtr/ungtr, ormtr/unmtr and the QL routines they rest on (org2l/orgql,
orm2l/ormql; ung*/unm* for complex).

Inputs are rocmath's own reductions (gebrd, sytrd/hetrd) and QL factorization (geqlf); outputs are compared
with LAPACK's xORGBR, xORGTR, xORMTR, xORGQL, xORMQL run on the same inputs (scipy's LAPACK through the
function pointers of ``scipy.linalg.cython_lapack``, as scipy.linalg.lapack wraps none of them), and
judged by LAPACK's orthogonality ratio ``||I - Q^H Q|| / (n eps) < 30``.  Operands sit in poisoned buffers
whose padding must survive (read-only ones keep their bits); sizes cover 1, the shifted branches of orgbr,
both fills and sides, and one size past ``SMALL`` (the LAPACK path) per routine.  Every argument check of
rocSOLVER's ``*_argCheck`` has one case, in its order; quick returns touch nothing.
"""

from __future__ import annotations

import ctypes
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg.cython_lapack as cython_lapack
from test_solver_lu import Matrix, closing, random
from test_solver_qr import Tau, call, fn, padded, rel, same_bits, wide

import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _kernels_qr as kq
from rocmath.solver._lapack import _capsule_address

BIG = kq.SMALL + 4  # the LAPACK path of the QR kernels
COLUMN, ROW = solver.Storev.column_wise, solver.Storev.row_wise


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def tol(p: Precision, n: int) -> float:
    return 30 * max(n, 1) * p.eps


def ctrans(p: Precision) -> str:
    return "C" if p.is_complex else "T"


# --- LAPACK references ----------------------------------------------------------------------------------


def lapack(p: Precision, name: str, *args: Any) -> None:
    """LAPACK's ``p + name`` (``or`` -> ``un`` for complex) on host operands: str -> char*, int -> int*,
    ndarray -> its data; a work array, its length and info are appended."""
    real = name.replace("or", "un", 1) if p.is_complex and name.startswith("or") else name
    fn_ = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * (len(args) + 3)))(
        _capsule_address(cython_lapack.__pyx_capi__[p.letter + real]))
    keep: list[Any] = []
    ptrs: list[Any] = []
    for a in args:
        if isinstance(a, str):
            keep.append(ctypes.c_char(a.encode()))
        elif isinstance(a, int):
            keep.append(ctypes.c_int(a))
        else:
            ptrs.append(a.ctypes.data)
            continue
        ptrs.append(ctypes.addressof(keep[-1]))
    lwork = 4096 * 16
    work = np.zeros(lwork, p.dtype)
    lw, info = ctypes.c_int(lwork), ctypes.c_int(0)
    fn_(*ptrs, work.ctypes.data, ctypes.addressof(lw), ctypes.addressof(info))
    assert info.value == 0


def fortran(a: np.ndarray) -> np.ndarray:
    return np.array(a, order="F", copy=True)


def vec(tau: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(padded(tau)[0])


def ref_orgbr(p: Precision, vect: str, m: int, n: int, k: int, a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    out = fortran(a)
    lapack(p, "orgbr", vect, m, n, k, out, max(1, m), vec(tau))
    return out


def ref_orgtr(p: Precision, uplo: str, a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    out = fortran(a)
    lapack(p, "orgtr", uplo, a.shape[0], out, max(1, a.shape[0]), vec(tau))
    return out


def ref_ormtr(p: Precision, side: str, uplo: str, trans: str, a: np.ndarray, tau: np.ndarray,
              c: np.ndarray) -> np.ndarray:
    out = fortran(c)
    lapack(p, "ormtr", side, uplo, trans, c.shape[0], c.shape[1], fortran(a), max(1, a.shape[0]), vec(tau), out,
           max(1, c.shape[0]))
    return out


# --- rocmath's reductions (the inputs) --------------------------------------------------------------------


def vector(p: Precision, n: int, real: bool = False) -> rt.PaddedDeviceMatrix:
    dtype = p.real.dtype if real else p.dtype
    v = rt.poisoned_device_matrix(np.zeros((max(n, 1), 1), dtype))
    v.poison()
    return v


def gebrd(handle: Any, p: Precision, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rocmath's gebrd of a: (A with the vectors, tauq, taup)."""
    m, n = a.shape
    k = min(m, n)
    A, Dv, Ev, tq, tp = Matrix(a[None], max(m, 1), "plain"), vector(p, k, True), vector(p, k - 1, True), \
        vector(p, k), vector(p, k)
    with closing(A, Dv, Ev, tq, tp):
        call(handle, "gebrd", p, "plain", 1, m=m, n=n, A=A, D=Dv, E=Ev, tauq=tq, taup=tp)
        return A.get()[0], tq.get()[:k, 0], tp.get()[:k, 0]


def sytrd(handle: Any, p: Precision, uplo: str, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rocmath's sytrd/hetrd of the Hermitian a: (A with the vectors, tau)."""
    n = a.shape[0]
    A, Dv, Ev, t = Matrix(a[None], max(n, 1), "plain"), vector(p, n, True), vector(p, n - 1, True), \
        vector(p, n - 1)
    with closing(A, Dv, Ev, t):
        routine = "hetrd" if p.is_complex else "sytrd"
        call(handle, routine, p, "plain", 1, uplo=uplo, n=n, A=A, D=Dv, E=Ev, tau=t)
        return A.get()[0], t.get()[:max(n - 1, 0), 0]


def hermitian(p: Precision, n: int, rng: np.random.Generator) -> np.ndarray:
    a = random(p, (n, n), rng)
    return ((a + a.conj().T) / 2).astype(p.dtype)


# --- orgbr/ungbr -------------------------------------------------------------------------------------------

#: (storev, rows and columns of the matrix gebrd reduced, m, n of the call): Q of an m x k matrix (column-wise),
#: P^H of a k x n one (row-wise), in both of rocSOLVER's branches (m >= k / m < k; n > k / n <= k).
ORGBR_CASES = [
    ("Q", 6, 4, 6, 4), ("Q", 6, 4, 6, 6), ("Q", 5, 5, 5, 5), ("Q", 4, 6, 4, 4), ("Q", 1, 3, 1, 1), ("Q", 3, 0, 3, 2),
    ("P", 4, 6, 4, 6), ("P", 4, 6, 6, 6), ("P", 5, 5, 5, 5), ("P", 6, 4, 4, 4), ("P", 3, 1, 1, 1), ("P", 0, 3, 2, 3),
]


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("case", ORGBR_CASES, ids=[f"{c[0]}{c[1]}x{c[2]}-{c[3]}x{c[4]}" for c in ORGBR_CASES])
def test_orgbr_matches_lapack(handle: Any, p: Precision, case: tuple[Any, ...]) -> None:
    vect, rows, cols, m, n = case
    rng = np.random.default_rng(rows * 10 + cols)
    k = cols if vect == "Q" else rows  # the other dimension of the reduced matrix
    src = random(p, (rows, cols), rng)
    if min(rows, cols) > 0:
        out, tauq, taup = gebrd(handle, p, src)
    else:
        out, tauq, taup = src, np.zeros(0, p.dtype), np.zeros(0, p.dtype)
    tau = tauq if vect == "Q" else taup
    a = random(p, (m, n), rng)  # what the vectors do not fill is whatever was there
    r, c = min(m, rows), min(n, cols)
    a[:r, :c] = out[:r, :c]
    _check_orgbr(handle, p, vect, m, n, k, a, tau, lda=m + 2)


def _check_orgbr(handle: Any, p: Precision, vect: str, m: int, n: int, k: int, a: np.ndarray, tau: np.ndarray,
                 lda: int) -> None:
    ref = ref_orgbr(p, vect, m, n, k, a, tau)
    A, T = Matrix(a[None], lda, "plain"), Tau(p, 1, max(len(tau), 1), "plain", host=padded(tau))
    with closing(A, T):
        call(handle, "orgbr", p, "plain", 1, storev=COLUMN if vect == "Q" else ROW, m=m, n=n, k=k, A=A, ipiv=T)
        A.check()
        T.check(logical=True)
        q = A.get()[0]
    assert rel(q, ref) < tol(p, max(m, n))
    assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("vect", ["Q", "P"])
def test_orgbr_large_goes_to_lapack(handle: Any, vect: str) -> None:
    p, rng = D, np.random.default_rng(5)
    for rows, cols in ((BIG, BIG - 2), (BIG - 2, BIG)):
        out, tauq, taup = gebrd(handle, p, random(p, (rows, cols), rng))
        if vect == "Q":
            k, m = cols, rows
            n = min(m, k)
            _check_orgbr(handle, p, "Q", m, n, k, out[:, :n], tauq, lda=m + 1)
        else:
            k, n = rows, cols
            m = min(n, k)
            _check_orgbr(handle, p, "P", m, n, k, out[:m], taup, lda=m + 1)


def test_orgbr_gives_the_bidiagonal_reduction(handle: Any) -> None:
    """A = Q B P^H with the square Q and P^H from orgbr, B bidiagonal (upper for m >= n, lower otherwise)."""
    p, rng = Z, np.random.default_rng(7)
    for m, n in ((6, 4), (4, 6)):
        a = random(p, (m, n), rng)
        out, tauq, taup = gebrd(handle, p, a)
        # Q (m x m) from the reduction of an m x n matrix (k = n), P^H (n x n) with k = m.
        q_in = np.hstack([out, np.zeros((m, m - n), p.dtype)]) if m > n else np.array(out[:, :m])
        p_in = np.vstack([out, np.zeros((n - m, n), p.dtype)]) if m < n else np.array(out[:n])
        got = {}
        for storev, mat, tau, size, k in ((COLUMN, q_in, tauq, m, n), (ROW, p_in, taup, n, m)):
            M, T = Matrix(mat[None], size, "plain"), Tau(p, 1, len(tau), "plain", host=padded(tau))
            with closing(M, T):
                call(handle, "orgbr", p, "plain", 1, storev=storev, m=size, n=size, k=k, A=M, ipiv=T)
                got[storev] = M.get()[0]
        b = got[COLUMN].conj().T @ wide(a) @ got[ROW].conj().T
        band = np.triu(np.tril(b, 1)) if m >= n else np.tril(np.triu(b, -1))
        assert np.abs(b - band).max() < tol(p, max(m, n)) * np.abs(a).max()


# --- orgtr/ungtr -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("uplo", ["U", "L"])
@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_orgtr_matches_lapack(handle: Any, p: Precision, uplo: str, n: int) -> None:
    rng = np.random.default_rng(n)
    h = hermitian(p, n, rng)
    out, tau = sytrd(handle, p, uplo, h)
    _check_orgtr(handle, p, uplo, h, out, tau, lda=n + 3)


def _check_orgtr(handle: Any, p: Precision, uplo: str, h: np.ndarray, out: np.ndarray, tau: np.ndarray,
                 lda: int) -> None:
    n = h.shape[0]
    ref = ref_orgtr(p, uplo, out, tau)
    A, T = Matrix(out[None], lda, "plain"), Tau(p, 1, max(n - 1, 1), "plain", host=padded(tau))
    with closing(A, T):
        call(handle, "orgtr", p, "plain", 1, uplo=uplo, n=n, A=A, ipiv=T)
        A.check()
        T.check(logical=True)
        q = A.get()[0]
    assert rel(q, ref) < tol(p, n)
    assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD
    t = q.conj().T @ wide(h) @ q  # tridiagonal
    assert np.abs(t - np.triu(np.tril(t, 1), -1)).max() < tol(p, n) * max(np.abs(h).max(), 1)


@pytest.mark.parametrize("uplo", ["U", "L"])
def test_orgtr_large_goes_to_lapack(handle: Any, uplo: str) -> None:
    p = D
    h = hermitian(p, BIG, np.random.default_rng(3))
    out, tau = sytrd(handle, p, uplo, h)
    _check_orgtr(handle, p, uplo, h, out, tau, lda=BIG)


# --- ormtr/unmtr -------------------------------------------------------------------------------------------


def _check_ormtr(handle: Any, p: Precision, side: str, uplo: str, trans: str, m: int, n: int, seed: int,
                 lda_pad: int = 1, ldc_pad: int = 2) -> None:
    rng = np.random.default_rng(seed)
    nq = m if side == "L" else n
    out, tau = sytrd(handle, p, uplo, hermitian(p, nq, rng)) if nq else (np.zeros((0, 0), p.dtype), np.zeros(0))
    tau = np.asarray(tau, p.dtype)
    c = random(p, (m, n), rng)
    ref = ref_ormtr(p, side, uplo, trans, out, tau, c)
    A, T, Cm = Matrix(out[None], nq + lda_pad, "plain"), Tau(p, 1, max(nq - 1, 1), "plain", host=padded(tau)), \
        Matrix(c[None], m + ldc_pad, "plain")
    with closing(A, T, Cm):
        call(handle, "ormtr", p, "plain", 1, side=side, uplo=uplo, trans=trans, m=m, n=n, A=A, ipiv=T, C=Cm)
        A.check(logical=True)
        T.check(logical=True)
        Cm.check()
        got = Cm.get()[0]
    if nq <= 1:
        assert same_bits(got, c)
    assert rel(got, ref) < tol(p, max(m, n))


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("side", ["L", "R"])
@pytest.mark.parametrize("uplo", ["U", "L"])
def test_ormtr_matches_lapack(handle: Any, p: Precision, side: str, uplo: str) -> None:
    for trans in ("N", ctrans(p)):
        for m, n in ((5, 3), (3, 5), (1, 4), (4, 1)):
            _check_ormtr(handle, p, side, uplo, trans, m, n, seed=m * 7 + n)


@pytest.mark.parametrize("side", ["L", "R"])
@pytest.mark.parametrize("uplo", ["U", "L"])
def test_ormtr_large_goes_to_lapack(handle: Any, side: str, uplo: str) -> None:
    m, n = (BIG, 3) if side == "L" else (3, BIG)
    _check_ormtr(handle, D, side, uplo, "T", m, n, seed=11, lda_pad=0, ldc_pad=0)


# --- org2l/orgql, orm2l/ormql ------------------------------------------------------------------------------


def geqlf(handle: Any, p: Precision, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = a.shape
    A, T = Matrix(a[None], max(m, 1), "plain"), Tau(p, 1, max(min(m, n), 1), "plain")
    with closing(A, T):
        call(handle, "geqlf", p, "plain", 1, m=m, n=n, A=A, ipiv=T)
        return A.get()[0], T.get()[0, :min(m, n)]


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("routine", ["org2l", "orgql"])
def test_orgql_matches_lapack(handle: Any, p: Precision, routine: str) -> None:
    for m, n, k in ((6, 4, 4), (6, 4, 2), (5, 5, 5), (3, 1, 0), (BIG, 5, 5)):
        out, tau = geqlf(handle, p, random(p, (m, n), np.random.default_rng(m + n + k)))
        tau = np.asarray(tau[n - k:] if k else tau[:0], p.dtype)  # the last k vectors are H(1)...H(k)
        a = np.array(out)
        ref = fortran(a)
        lapack(p, "orgql", m, n, k, ref, m, vec(tau))
        A, T = Matrix(a[None], m + 1, "plain"), Tau(p, 1, max(k, 1), "plain", host=padded(tau))
        with closing(A, T):
            call(handle, routine, p, "plain", 1, m=m, n=n, k=k, A=A, ipiv=T)
            A.check()
            T.check(logical=True)
            q = A.get()[0]
        assert rel(q, ref) < tol(p, m), (m, n, k)
        assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("routine", ["orm2l", "ormql"])
def test_ormql_matches_lapack(handle: Any, p: Precision, routine: str) -> None:
    for side, trans, m, n, k in (("L", "N", 6, 3, 4), ("L", ctrans(p), 5, 2, 5), ("R", "N", 3, 6, 4),
                                 ("R", ctrans(p), 2, 5, 1), ("L", "N", 4, 3, 0), ("R", ctrans(p), 3, BIG, 3)):
        rng = np.random.default_rng(m * n + k)
        nq = m if side == "L" else n
        out, tau = geqlf(handle, p, random(p, (nq, k), rng)) if k else (random(p, (nq, 1), rng), np.zeros(0))
        tau = np.asarray(tau, p.dtype)
        c = random(p, (m, n), rng)
        ref = fortran(c)
        lapack(p, "ormql", side, trans, m, n, k, fortran(out), nq, vec(tau), ref, m)
        A, T, Cm = Matrix(out[None], nq + 2, "plain"), Tau(p, 1, max(k, 1), "plain", host=padded(tau)), \
            Matrix(c[None], m + 1, "plain")
        with closing(A, T, Cm):
            call(handle, routine, p, "plain", 1, side=side, trans=trans, m=m, n=n, k=k, A=A, ipiv=T, C=Cm)
            A.check(logical=True)
            T.check(logical=True)
            Cm.check()
            got = Cm.get()[0]
        assert rel(got, ref) < tol(p, max(m, n)), (side, trans, m, n, k)


# --- quick returns and the workspace -----------------------------------------------------------------------


def test_quick_returns_touch_nothing(handle: Any) -> None:
    """Empty problems accept null pointers where rocSOLVER does not need them, and write nothing."""
    solver.dorgbr(handle, COLUMN, 0, 0, 0, None, 1, None)
    solver.dorgbr(handle, ROW, 0, 3, 0, None, 1, None)
    solver.zungbr(handle, COLUMN, 3, 0, 0, None, 3, None)
    solver.dorgtr(handle, "U", 0, None, 1, None)
    solver.cunmtr(handle, "L", "U", "C", 0, 3, None, 1, None, None, 1)  # nq = 0
    solver.dorgql(handle, 3, 0, 0, None, 3, None)
    solver.sormql(handle, "L", "N", 0, 3, 0, None, 1, None, None, 1)
    # Given operands stay as they were.
    c = rt.poisoned_device_matrix(random(D, (2, 3), np.random.default_rng(0)), 2)
    a = rt.poisoned_device_matrix(np.ones((1, 1)), 1)
    try:
        solver.dormtr(handle, "L", "U", "T", 1, 3, a.ptr, 1, None, c.ptr, 1)  # nq = 1: Q = I, ipiv not needed
        solver.dormtr(handle, "L", "U", "T", 0, 3, a.ptr, 1, None, c.ptr, 1)
        c.check_untouched(logical=True)
        a.check_untouched(logical=True)
    finally:
        c.close()
        a.close()
    # n = 1: Q = [1] (LAPACK's too), ipiv not read.
    one = rt.poisoned_device_matrix(np.full((1, 1), 7.0), 2)
    try:
        solver.dorgtr(handle, "L", 1, one.ptr, 2, None)
        one.check_untouched()
        assert one.get()[0, 0] == 1
    finally:
        one.close()


def test_size_query_reports_the_workspace(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert solver.dorgbr(handle, COLUMN, 8, 8, 4, None, 8, None) is RocblasStatus.size_increased
        assert solver.dorgtr(handle, "U", 0, None, 1, None) is RocblasStatus.size_unchanged
        assert solver.zunmtr(handle, "L", "U", "C", 1, 4, None, 1, None, None, 1) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            solver.dormtr(handle, "L", "U", "N", 4, 4, None, 3, None, None, 4)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == kq.generate_workspace(8, 8, 1, 8)
    blas.start_device_memory_size_query(handle)
    try:
        solver.dormtr(handle, "R", "L", "N", 3, 9, None, 9, None, None, 3)
        solver.dorgtr(handle, "L", 9, None, 9, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == max(kq.apply_workspace(False, 3, 8, 8, 1, 8), kq.generate_workspace(8, 8, 1, 8))


def test_a_small_user_workspace_is_refused_before_anything_is_written() -> None:
    h = blas.create_handle()
    ws = rt.poisoned_device_matrix(np.zeros((8, 1)), 8)
    a = rt.poisoned_device_matrix(hermitian(D, 6, np.random.default_rng(1)), 6)
    tau = rt.poisoned_device_matrix(np.ones((5, 1)), 5)
    try:
        blas.set_workspace(h, ws.ptr, 8)
        with pytest.raises(RocblasMemoryError):
            solver.dorgtr(h, "L", 6, a.ptr, 6, tau.ptr)
        a.check_untouched(logical=True)
    finally:
        blas.destroy_handle(h)
        for x in (ws, a, tau):
            x.close()


# --- argument checking -------------------------------------------------------------------------------------

SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a routine with valid 4x4 arguments but the given changes; expect the exception and the argument it
    names (and its position); nothing may change."""
    rng = np.random.default_rng(0)
    bufs = {p: {name: rt.poisoned_device_matrix(random(p, (4, 4), rng), 4) for name in ("A", "C", "T")}
            for p in (D, Z)}

    def check(routine: str, error: type[Exception], arg: str, p: Precision = D, **changes: Any) -> None:
        mats = bufs[p]
        base: dict[str, Any] = dict(storev=COLUMN, side="L", uplo="U", trans="N", m=4, n=4, k=2, lda=4, ldc=4,
                                    A=mats["A"].ptr, C=mats["C"].ptr, ipiv=mats["T"].ptr)
        f = fn(routine, p)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in mats.values():
            buf.check_untouched(logical=True)

    yield check
    for mats in bufs.values():
        for buf in mats.values():
            buf.close()


BAD_ARGUMENTS = [
    # orgbr: storev; m, n, k, lda; n in min(m, k)..m (column-wise) / m in min(n, k)..n (row-wise); A, ipiv
    ("orgbr", VALUE, "storev", dict(storev=solver.Direct.forward_direction, m=-1)),
    ("orgbr", SIZE, "m", dict(m=-1, n=-1)),
    ("orgbr", SIZE, "n", dict(n=-1, k=-1)),
    ("orgbr", SIZE, "k", dict(k=-1, lda=0)),
    ("orgbr", SIZE, "lda", dict(lda=3, n=5)),
    ("orgbr", SIZE, "n", dict(n=5, lda=4)),
    ("orgbr", SIZE, "n", dict(n=3, k=4)),
    ("orgbr", SIZE, "m", dict(storev=ROW, m=3, n=4, k=4)),
    ("orgbr", SIZE, "m", dict(storev=ROW, m=5, lda=5, n=4)),
    ("orgbr", POINTER, "A", dict(A=None, ipiv=None)),
    ("orgbr", POINTER, "ipiv", dict(ipiv=None)),
    ("orgbr", POINTER, "ipiv", dict(storev=ROW, ipiv=None), Z),
    # orgtr: uplo; n, lda; A, ipiv (n > 1)
    ("orgtr", VALUE, "uplo", dict(uplo=solver.Fill.full, n=-1)),
    ("orgtr", VALUE, "uplo", dict(uplo=999)),
    ("orgtr", SIZE, "n", dict(n=-1)),
    ("orgtr", SIZE, "lda", dict(lda=3)),
    ("orgtr", POINTER, "A", dict(A=None, ipiv=None), Z),
    ("orgtr", POINTER, "ipiv", dict(ipiv=None)),
    # ormtr: side, trans (T for complex, C for real), uplo; m, n, ldc, lda (>= nq); A, ipiv, C
    ("ormtr", VALUE, "side", dict(side=solver.Side.both, trans=999, uplo=999)),
    ("ormtr", VALUE, "trans", dict(trans=999, uplo=999)),
    ("ormtr", VALUE, "trans", dict(trans="C", uplo=999)),
    ("ormtr", VALUE, "trans", dict(trans="T", uplo=999), Z),
    ("ormtr", VALUE, "uplo", dict(uplo=solver.Fill.full, m=-1)),
    ("ormtr", SIZE, "m", dict(m=-1, n=-1)),
    ("ormtr", SIZE, "n", dict(n=-1, ldc=1)),
    ("ormtr", SIZE, "ldc", dict(ldc=3, lda=3)),
    ("ormtr", SIZE, "lda", dict(lda=3)),
    ("ormtr", SIZE, "lda", dict(side="R", m=2, n=5, lda=4)),
    ("ormtr", POINTER, "A", dict(A=None, ipiv=None, C=None)),
    ("ormtr", POINTER, "ipiv", dict(ipiv=None, C=None), Z),
    ("ormtr", POINTER, "C", dict(C=None)),
    ("ormtr", POINTER, "A", dict(side="R", m=0, A=None, C=None)),  # m = 0 still needs A of order nq = n
    # orgql: m, n (m < n), k (0..n), lda; ipiv before A
    ("orgql", SIZE, "n", dict(n=5)),
    ("org2l", SIZE, "k", dict(k=5)),
    ("orgql", SIZE, "lda", dict(m=5, lda=4)),
    ("orgql", POINTER, "ipiv", dict(ipiv=None, A=None), Z),
    ("orgql", POINTER, "A", dict(A=None)),
    # ormql: side, trans; m, n, k, ldc; lda before k > nq; C, ipiv, A
    ("ormql", VALUE, "side", dict(side="X", trans="X")),
    ("ormql", VALUE, "trans", dict(trans="T"), Z),
    ("orm2l", SIZE, "k", dict(k=-1, ldc=1)),
    ("ormql", SIZE, "ldc", dict(ldc=3, lda=3)),
    ("ormql", SIZE, "lda", dict(lda=3, k=5)),
    ("ormql", SIZE, "k", dict(side="R", n=3, k=4)),
    ("ormql", POINTER, "C", dict(C=None, ipiv=None, A=None)),
    ("ormql", POINTER, "ipiv", dict(ipiv=None, A=None)),
    ("orm2l", POINTER, "A", dict(A=None), Z),
]


@pytest.mark.parametrize("case", BAD_ARGUMENTS, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], case: tuple[Any, ...]) -> None:
    routine, error, arg, changes, *p = case
    bad(routine, error, arg, *p, **changes)


def test_invalid_handle() -> None:
    with pytest.raises(RocblasInvalidHandleError):
        solver.dorgbr(None, 999, -1, 0, 0, None, 0, None)
    with pytest.raises(RocblasInvalidHandleError):
        solver.zunmtr(object(), "L", "U", "C", 1, 1, None, 1, None, None, 1)


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(solver.sorgbr) == ["handle", "storev", "m", "n", "k", "A", "lda", "ipiv"]
    assert names(solver.zungtr) == ["handle", "uplo", "n", "A", "lda", "ipiv"]
    assert names(solver.cunmtr) == ["handle", "side", "uplo", "trans", "m", "n", "A", "lda", "ipiv", "C", "ldc"]
    assert names(solver.dorgql) == ["handle", "m", "n", "k", "A", "lda", "ipiv"]
    assert names(solver.zunm2l) == ["handle", "side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"]
    for name in ("dorgbr_batched", "sungbr", "corgtr", "dormtr_strided_batched", "dorgbr_64"):
        assert not hasattr(solver, name)
