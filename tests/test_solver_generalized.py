"""rocSOLVER's sygs2/hegs2, sygst/hegst, sygvd/hegvd and ormbr/unmbr (rocmath.solver.generalized).

The reductions are compared with LAPACK's xSYGST/xHEGST (scipy.linalg.lapack) on the referenced triangle,
the other triangle and B must keep their bits; sygvd's eigenvalues with ``scipy.linalg.eigh(a, b,
type=itype)`` and its eigenvectors by the scale-free residual ``||A X - B X L|| / (n ||.|| eps)`` (and its
abx/bax forms) and B-orthonormality, below 30; ormbr with LAPACK's xORMBR/xUNMBR (the function pointers of
``scipy.linalg.cython_lapack``) on rocmath's own gebrd, in both of LAPACK's branches of each of Q and P.
Operands sit in poisoned buffers: padding, batch gaps and an entry past ``batch_count`` must keep their bits;
the triangle a routine does not reference holds junk.  Every argument check of rocSOLVER's ``*_argCheck``
has one case, in its order; quick returns touch nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.linalg.lapack as lapack_
from test_solver_eig import (
    STRIDE_NAMES,
    Matrix,
    Vector,
    closing,
    hermitian,
    per_entry,
    positive_definite,
    random,
    wide,
    with_junk,
)
from test_solver_orgbr_orgtr import fortran, gebrd, lapack, vec
from test_solver_qr import Tau, padded, rel, same_bits

import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _kernels_qr as kq
from rocmath.solver import generalized as gen

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
THRESHOLD = rt.RESIDUAL_THRESHOLD
COLUMN, ROW = 181, 182
BIG = kq.SMALL + 4  # ormqr/ormlq's LAPACK path


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    """``sygst`` -> ``dsygst`` / ``zhegst``; ``ormbr`` -> ``cunmbr`` for complex."""
    if p.is_complex:
        routine = {"sy": "he", "or": "un"}.get(routine[:2], routine[:2]) + routine[2:]
    return getattr(gen, f"{p.letter}{routine}{SUFFIX[flavour]}")


def call(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> Any:
    f = fn(routine, p, flavour)
    names = list(inspect.signature(f).parameters)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for key, value in args.items():
        if isinstance(value, Matrix):
            values[key], values[f"ld{key.lower()}"], values[f"stride{key}"] = value.arg, value.ld, value.stride
        elif isinstance(value, Vector):
            values[key], values[STRIDE_NAMES[key]] = value.arg, value.stride
        elif isinstance(value, Tau):
            values[key], values["strideP"] = value.arg, value.stride
        elif isinstance(value, rt.PaddedDeviceMatrix):
            values[key] = value.ptr
        else:
            values[key] = value
    return f(**{n: values[n] for n in names})


def tol(p: Precision, n: int) -> float:
    return THRESHOLD * max(n, 1) * p.eps


def triangle(n: int, uplo: str) -> np.ndarray:
    return np.triu(np.ones((n, n), bool)) if uplo == "U" else np.tril(np.ones((n, n), bool))


def factor(b: np.ndarray, uplo: str) -> np.ndarray:
    """B's Cholesky factor in its uplo triangle (U with B = U^H U, L with B = L L^H)."""
    low = np.linalg.cholesky(wide(b))
    return (np.swapaxes(low, -1, -2).conj() if uplo == "U" else low).astype(b.dtype)


# --- sygs2/hegs2, sygst/hegst ---------------------------------------------------------------------------


def ref_sygst(p: Precision, itype: int, uplo: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    f = lapack_.get_lapack_funcs("hegst" if p.is_complex else "sygst", dtype=p.dtype)
    out, info = f(np.asfortranarray(a), np.asfortranarray(b), itype=itype, lower=int(uplo == "L"))
    assert info == 0
    return out


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("routine", ["sygs2", "sygst"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_sygst_matches_lapack(handle: Any, p: Precision, routine: str, flavour: str) -> None:
    rng = np.random.default_rng(len(routine) + FLAVOURS.index(flavour))
    batch = 1 if flavour == "plain" else 3
    n = 5
    for itype in (1, 2, 3):
        for uplo in "UL":
            a = hermitian(p, batch + 1, n, rng)  # one entry past batch_count (strided: must stay as it was)
            b = factor(positive_definite(p, batch + 1, n, rng), uplo)
            a_in, b_in = with_junk(a, uplo, rng), with_junk(b, uplo, rng)
            host = slice(None) if flavour == "strided" else slice(0, batch)
            A, B = Matrix(a_in[host], n + 2, flavour, gap=3), Matrix(b_in[host], n + 1, flavour, gap=1)
            with closing(A, B):
                call(handle, routine, p, flavour, batch, itype=220 + itype, uplo=uplo, n=n, A=A, B=B)
                A.check()
                B.check(logical=True)  # B is only read
                got = A.get()
            keep = triangle(n, uplo)
            for e in range(batch):
                ref = ref_sygst(p, itype, uplo, a_in[e], b_in[e])
                assert rel(got[e][keep], ref[keep]) < tol(p, n) * np.linalg.cond(wide(b[e])), (itype, uplo, e)
                assert same_bits(got[e][~keep], a_in[e][~keep])  # the other triangle is not referenced
            if flavour == "strided":
                assert same_bits(got[batch], a_in[batch])


def test_sygst_gives_the_standard_problem(handle: Any) -> None:
    """The reduced matrix has the generalized problem's eigenvalues (a larger order, double complex)."""
    p, n, rng = Z, 40, np.random.default_rng(4)
    a, b = hermitian(p, 1, n, rng), positive_definite(p, 1, n, rng)
    for itype in (1, 2, 3):
        for uplo in "UL":
            A, B = Matrix(a, n, "plain"), Matrix(factor(b, uplo), n, "plain")
            with closing(A, B):
                call(handle, "sygst", p, "plain", 1, itype=220 + itype, uplo=uplo, n=n, A=A, B=B)
                c = A.get()[0]
            w = np.linalg.eigvalsh(wide(c), UPLO=uplo)
            ref = sl.eigh(wide(a[0]), wide(b[0]), type=itype, eigvals_only=True)
            assert np.abs(w - ref).max() <= tol(p, n) * np.abs(ref).max() * np.linalg.cond(wide(b[0]))


# --- sygvd/hegvd ---------------------------------------------------------------------------------------


def run_sygvd(handle: Any, p: Precision, flavour: str, a: np.ndarray, b: np.ndarray, batch: int, itype: int,
              uplo: str, vectors: bool, lda: int, ldb: int) -> tuple[np.ndarray, ...]:
    """sygvd on the first ``batch`` entries of a, b (strided: the rest stay in the buffers, untouched)."""
    n = a.shape[1]
    real = p.real.dtype
    host = slice(None) if flavour == "strided" else slice(0, batch)
    total = a[host].shape[0]
    A, B = Matrix(a[host], lda, flavour, gap=2), Matrix(b[host], ldb, flavour, gap=1)
    Dv, Ev = Vector(np.zeros((total, n), real), flavour, gap=1), Vector(np.zeros((total, n), real), flavour)
    info = per_entry(batch, np.int32)
    with closing(A, B, Dv, Ev, info):
        call(handle, "sygvd", p, flavour, batch, itype=220 + itype, evect=211 if vectors else 213, uplo=uplo, n=n,
             A=A, B=B, D=Dv, E=Ev, info=info)
        for x in (A, B, Dv, Ev):
            x.check()
        info.check_untouched()
        return A.get(), B.get(), Dv.get(), info.get()[:, 0]


def check_generalized(p: Precision, a: np.ndarray, b: np.ndarray, x: np.ndarray, w: np.ndarray, itype: int,
                      vectors: bool) -> None:
    """Eigenvalues against scipy; eigenvectors by the residual ratio and B- (bax: B^-1-) orthonormality."""
    batch, n, _ = a.shape
    ref = np.array([sl.eigh(wide(a[e]), wide(b[e]), type=itype, eigvals_only=True) for e in range(batch)])
    scale = np.array([np.linalg.norm(wide(a[e]), 2) * np.linalg.norm(wide(b[e]), 2) for e in range(batch)])
    assert np.all(np.abs(w - ref) <= THRESHOLD * n * p.eps * (scale[:, None] + 1))
    if not vectors:
        return
    aw, bw, xw = wide(a), wide(b), wide(x)
    lhs = {1: aw @ xw, 2: aw @ bw @ xw, 3: bw @ aw @ xw}[itype]
    rhs = (bw @ xw if itype == 1 else xw) * w[:, None, :]
    norm = np.abs(lhs).sum(axis=1).max() + np.abs(rhs).sum(axis=1).max()
    assert np.abs(lhs - rhs).sum(axis=1).max() / (n * p.eps * norm) < THRESHOLD
    gram = np.swapaxes(xw, 1, 2).conj() @ (np.linalg.inv(bw) if itype == 3 else bw) @ xw
    assert np.abs(gram - np.eye(n)).max() < THRESHOLD * n * p.eps * np.linalg.cond(bw).max()


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("vectors", [True, False])
def test_sygvd(handle: Any, p: Precision, flavour: str, vectors: bool) -> None:
    rng = np.random.default_rng(FLAVOURS.index(flavour) * 2 + vectors)
    batch = 1 if flavour == "plain" else 2
    for n in (1, 7):
        for itype in (1, 2, 3):
            for uplo in "UL":
                a, b = hermitian(p, batch + 1, n, rng), positive_definite(p, batch + 1, n, rng)
                a_in, b_in = with_junk(a, uplo, rng), with_junk(b, uplo, rng)
                x, bf, w, info = run_sygvd(handle, p, flavour, a_in, b_in, batch, itype, uplo, vectors, n + 1, n + 2)
                assert np.array_equal(info, np.zeros(batch))
                check_generalized(p, a[:batch], b[:batch], x[:batch], w[:batch], itype, vectors)
                keep = triangle(n, uplo)
                for e in range(batch):  # B gets its factor; its other triangle is not referenced
                    ref = factor(b[e], uplo)
                    assert rel(bf[e][keep], ref[keep]) < tol(p, n) * np.linalg.cond(wide(b[e]))
                    assert same_bits(bf[e][~keep], b_in[e][~keep])
                    if not vectors:
                        assert same_bits(x[e][~keep], a_in[e][~keep])
                if flavour == "strided":  # the entry past batch_count
                    assert same_bits(x[batch], a_in[batch]) and same_bits(bf[batch], b_in[batch])


def test_sygvd_larger_and_repeated_eigenvalues(handle: Any) -> None:
    """Past stedc's small-matrix switch (n > 25: the divide and conquer proper), with a cluster."""
    p, n, rng = D, 40, np.random.default_rng(8)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (q * np.r_[np.full(10, 2.0), np.linspace(-3, 3, n - 10)]) @ q.T
    b = positive_definite(p, 1, n, rng)
    for itype in (1, 3):
        x, _, w, info = run_sygvd(handle, p, "plain", a[None], b, 1, itype, "L", True, n, n)
        assert info[0] == 0
        check_generalized(p, a[None], b, x, w, itype, True)


def test_sygvd_b_not_positive_definite(handle: Any) -> None:
    rng = np.random.default_rng(2)
    a, b = hermitian(D, 3, 5, rng), positive_definite(D, 3, 5, rng)
    b[1, 3, 3] = -100.0  # leading minor 4 fails
    for flavour in ("strided", "batched"):
        x, _, w, info = run_sygvd(handle, D, flavour, a, b, 3, 1, "L", True, 5, 5)
        assert np.array_equal(info, [0, 5 + 4, 0])
        assert not np.array_equal(x[1], a[1])  # rocSOLVER goes on with the partial factor: A is destroyed
        check_generalized(D, a[[0, 2]], b[[0, 2]], x[[0, 2]], w[[0, 2]], 1, True)  # the others are solved


# --- ormbr/unmbr ---------------------------------------------------------------------------------------

#: (vect, side, m, n, k): Q (nq >= k and nq < k) and P (nq > k and nq <= k) from both sides; nq = 1 (Q, P = I).
ORMBR_CASES = [
    ("Q", "L", 5, 3, 4), ("Q", "L", 3, 4, 5), ("Q", "R", 3, 5, 2), ("Q", "R", 4, 2, 3),
    ("P", "L", 5, 3, 3), ("P", "L", 3, 2, 5), ("P", "R", 3, 5, 4), ("P", "R", 4, 4, 4),
    ("Q", "L", 1, 3, 2), ("P", "R", 2, 1, 3),
]


def _check_ormbr(handle: Any, p: Precision, vect: str, side: str, trans: str, m: int, n: int, k: int,
                 seed: int) -> None:
    rng = np.random.default_rng(seed)
    nq = m if side == "L" else n
    shape = (nq, k) if vect == "Q" else (k, nq)  # what gebrd reduced: Q of an nq x k, P of a k x nq matrix
    out, tauq, taup = gebrd(handle, p, random(p, shape, rng))
    tau = np.asarray(tauq if vect == "Q" else taup, p.dtype)
    rows = nq if vect == "Q" else min(nq, k)  # LAPACK's A: nq x k (Q), min(nq, k) x nq (P)
    a = np.array(out[:rows])
    c = random(p, (m, n), rng)
    ref = fortran(c)
    lapack(p, "ormbr", vect, side, trans, m, n, k, fortran(a), max(1, rows), vec(tau), ref, max(1, m))
    A, T, Cm = Matrix(a[None], rows + 1, "plain"), Tau(p, 1, max(len(tau), 1), "plain", host=padded(tau)), \
        Matrix(c[None], m + 2, "plain")
    with closing(A, T, Cm):
        call(handle, "ormbr", p, "plain", 1, storev=COLUMN if vect == "Q" else ROW, side=side, trans=trans, m=m, n=n,
             k=k, A=A, ipiv=T, C=Cm)
        A.check(logical=True)
        T.check(logical=True)
        Cm.check()
        got = Cm.get()[0]
    if nq == 1:
        assert same_bits(got, c)
    assert rel(got, ref) < tol(p, max(m, n)), (vect, side, trans, m, n, k)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("case", ORMBR_CASES, ids=["{}{}-{}x{}-{}".format(*c) for c in ORMBR_CASES])
def test_ormbr_matches_lapack(handle: Any, p: Precision, case: tuple[Any, ...]) -> None:
    vect, side, m, n, k = case
    for trans in ("N", "C" if p.is_complex else "T"):
        _check_ormbr(handle, p, vect, side, trans, m, n, k, seed=m * 100 + n * 10 + k)


@pytest.mark.parametrize("vect", ["Q", "P"])
def test_ormbr_large_goes_to_lapack(handle: Any, vect: str) -> None:
    _check_ormbr(handle, D, vect, "L", "T", BIG, 3, BIG - 2, seed=1)
    _check_ormbr(handle, Z, vect, "R", "N", 3, BIG, BIG, seed=2)


def test_ormbr_applies_the_reduction(handle: Any) -> None:
    """Q^H A P is the bidiagonal matrix gebrd computed (ormbr from the left, then from the right)."""
    p, m, n = Z, 6, 4
    a = random(p, (m, n), np.random.default_rng(3))
    out, tauq, taup = gebrd(handle, p, a)
    Cm = Matrix(a[None], m, "plain")
    Aq, Tq = Matrix(out[None], m, "plain"), Tau(p, 1, n, "plain", host=padded(tauq))
    Ap, Tp = Matrix(out[None, :n], n, "plain"), Tau(p, 1, n, "plain", host=padded(taup))
    with closing(Cm, Aq, Tq, Ap, Tp):
        call(handle, "ormbr", p, "plain", 1, storev=COLUMN, side="L", trans="C", m=m, n=n, k=n, A=Aq, ipiv=Tq, C=Cm)
        call(handle, "ormbr", p, "plain", 1, storev=ROW, side="R", trans="N", m=m, n=n, k=m, A=Ap, ipiv=Tp, C=Cm)
        bd = Cm.get()[0]
    band = np.triu(np.tril(bd, 1))
    assert np.abs(bd - band).max() < tol(p, m) * np.abs(a).max()
    assert rel(np.abs(np.diag(bd)), np.abs(np.diag(out))) < tol(p, m)


# --- quick returns, workspace, signatures ----------------------------------------------------------------


def test_quick_returns(handle: Any) -> None:
    # n = 0 or batch_count = 0: no pointer is needed, nothing is written (sygvd: info := 0 for n = 0).
    gen.dsygst(handle, 221, "U", 0, None, 1, None, 1)
    gen.chegs2_batched(handle, 223, "L", 0, None, 1, None, 1, 5)
    m = rt.poisoned_device_matrix(random(Z, (3, 3), np.random.default_rng(1)), 3)
    with closing(m):  # batch_count = 0 with n > 0: the pointers are checked, nothing is written
        gen.zhegst_strided_batched(handle, 222, "U", 3, m.ptr, 3, 9, m.ptr, 3, 9, 0)
        gen.zhegvd_strided_batched(handle, 221, 211, "L", 3, m.ptr, 3, 9, m.ptr, 3, 9, m.ptr, 3, m.ptr, 3, None, 0)
        m.check_untouched(logical=True)
    info = per_entry(3, np.int32)
    with closing(info):
        gen.dsygvd_batched(handle, 222, 213, "U", 0, None, 1, None, 1, None, 0, None, 0, info.ptr, 3)
        assert np.array_equal(info.get()[:, 0], [0, 0, 0])
        info.check_untouched()
    c = rt.poisoned_device_matrix(random(D, (2, 3), np.random.default_rng(0)), 2)
    a = rt.poisoned_device_matrix(np.ones((2, 2)), 2)
    try:
        gen.dormbr(handle, COLUMN, "L", "N", 2, 3, 0, None, 2, None, c.ptr, 2)  # k = 0: A, ipiv not needed
        gen.dormbr(handle, ROW, "R", "T", 2, 3, 0, a.ptr, 2, None, c.ptr, 2)
        gen.dormbr(handle, COLUMN, "L", "N", 0, 3, 2, None, 1, None, None, 1)  # nq = m = 0: nothing needed
        gen.zunmbr(handle, ROW, "R", "C", 3, 0, 2, None, 1, None, None, 3)  # nq = n = 0
        c.check_untouched(logical=True)
        a.check_untouched(logical=True)
    finally:
        c.close()
        a.close()


def test_size_query_and_signatures(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert gen.dsygvd(handle, 221, 211, "L", 64, None, 64, None, 64, None, None, None) \
            is RocblasStatus.size_increased
        assert gen.dsygvd(handle, 221, 211, "L", 0, None, 1, None, 1, None, None, None) \
            is RocblasStatus.size_unchanged
        assert gen.zhegst(handle, 221, "U", 8, None, 8, None, 8) is RocblasStatus.size_unchanged
        assert gen.dormbr(handle, COLUMN, "L", "N", 8, 8, 4, None, 8, None, None, 8) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            gen.dsygst(handle, 221, "U", 4, None, 3, None, 4)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == gen._sygvd_bytes(64, 1, 8, 8, True)

    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(gen.dsygst_strided_batched) == [
        "handle", "itype", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "batch_count"]
    assert names(gen.chegs2_batched) == ["handle", "itype", "uplo", "n", "A", "lda", "B", "ldb", "batch_count"]
    assert names(gen.zhegvd_batched) == [
        "handle", "itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "D", "strideD", "E", "strideE", "info",
        "batch_count"]
    assert names(gen.ssygvd_strided_batched) == [
        "handle", "itype", "evect", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "D", "strideD", "E",
        "strideE", "info", "batch_count"]
    assert names(gen.dormbr) == ["handle", "storev", "side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"]
    assert len(gen.__all__) == 40 and not any(hasattr(gen, f"dormbr{s}") for s in ("_batched", "_strided_batched"))


def test_invalid_handle() -> None:
    with pytest.raises(RocblasInvalidHandleError):
        gen.dsygvd(None, 221, 211, "L", 4, None, 4, None, 4, None, None, None)
    with pytest.raises(RocblasInvalidHandleError):
        gen.dormbr(0, COLUMN, "L", "N", 4, 4, 4, None, 4, None, None, 4)


# --- argument checking -----------------------------------------------------------------------------------

SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a routine with valid 4x4 arguments but the given changes; expect the exception class and the
    argument it names (and its position); nothing may change."""
    mats = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "B", "C")}
    zmats = {k: rt.poisoned_device_matrix(np.eye(4, dtype=np.complex128), 4) for k in ("A", "B", "C")}
    vecs = {k: rt.poisoned_device_vector(np.zeros(4)) for k in ("D", "E", "ipiv")}
    zvecs = {"ipiv": rt.poisoned_device_vector(np.zeros(4, np.complex128))}
    info = rt.poisoned_device_vector(np.zeros(1, np.int32))
    every = (*mats.values(), *zmats.values(), *vecs.values(), *zvecs.values(), info)

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(itype=221, evect=211, uplo="L", storev=COLUMN, side="L", trans="N", m=4, n=4,
                                    k=4, lda=4, ldb=4, ldc=4, batch_count=1, strideA=16, strideB=16, strideD=4,
                                    strideE=4, strideP=4, info=info.ptr)
        complex_ = routine[0] in "cz"
        base.update({k: v.ptr for k, v in (zmats if complex_ else mats).items()})
        base.update({k: v.ptr for k, v in vecs.items()})
        if complex_:
            base.update({k: v.ptr for k, v in zvecs.items()})
        f = getattr(gen, routine + SUFFIX[flavour])
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{q: changes.get(q, base[q]) for q in params})
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in every:
            buf.check_untouched(logical=True)

    yield check
    for buf in every:
        buf.close()


BAD_ARGUMENTS = [
    # sygs2/sygst: itype, uplo (values); n, lda, ldb (sizes); A, B (pointers, for n > 0)
    ("dsygst", VALUE, "itype", dict(itype=220, uplo=0)),
    ("dsygs2", VALUE, "uplo", dict(uplo=123, n=-1)),  # fill full is not an option
    ("zhegst", SIZE, "n", dict(n=-1, A=None)),
    ("dsygst", SIZE, "lda", dict(lda=3, ldb=3)),
    ("chegs2", SIZE, "ldb", dict(ldb=3, A=None)),
    ("dsygst", POINTER, "A", dict(A=None, B=None)),
    ("zhegs2", POINTER, "B", dict(B=None)),
    # sygvd/hegvd: itype, evect (original or none), uplo; n, lda, ldb; A, B, D, E (n > 0), info
    ("dsygvd", VALUE, "itype", dict(itype=224, evect=0)),
    ("dsygvd", VALUE, "evect", dict(evect=212, uplo=0)),  # tridiagonal is not supported
    ("zhegvd", VALUE, "uplo", dict(uplo=123, n=-1)),
    ("dsygvd", SIZE, "n", dict(n=-1, lda=0)),
    ("ssygvd", SIZE, "lda", dict(lda=3, ldb=3)),
    ("dsygvd", SIZE, "ldb", dict(ldb=3, A=None)),
    ("chegvd", POINTER, "A", dict(A=None, info=None)),
    ("dsygvd", POINTER, "B", dict(B=None, D=None)),
    ("dsygvd", POINTER, "D", dict(D=None, E=None)),
    ("zhegvd", POINTER, "E", dict(E=None, info=None)),
    ("dsygvd", POINTER, "info", dict(info=None)),
    ("dsygvd", POINTER, "info", dict(n=0, A=None, B=None, D=None, E=None, info=None)),
    # ormbr/unmbr: side, trans, trans of the other kind, storev; m, n, k, ldc, lda (by storev); A, ipiv, C
    ("dormbr", VALUE, "side", dict(side=143, trans=0)),  # side both is not an option
    ("dormbr", VALUE, "trans", dict(trans=0, storev=0)),
    ("dormbr", VALUE, "trans", dict(trans="C", storev=0)),  # real: no conjugate transpose
    ("zunmbr", VALUE, "trans", dict(trans="T")),  # complex: no transpose
    ("dormbr", VALUE, "storev", dict(storev=180, m=-1)),
    ("dormbr", SIZE, "m", dict(m=-1, n=-1)),
    ("dormbr", SIZE, "n", dict(n=-1, k=-1)),
    ("dormbr", SIZE, "k", dict(k=-1, ldc=0)),
    ("zunmbr", SIZE, "ldc", dict(ldc=3, lda=0)),
    ("dormbr", SIZE, "lda", dict(lda=3, A=None)),  # column-wise: lda >= nq
    ("dormbr", SIZE, "lda", dict(storev=ROW, side="R", k=2, lda=1)),  # row-wise: lda >= min(nq, k)
    ("dormbr", POINTER, "A", dict(A=None, ipiv=None, C=None)),
    ("zunmbr", POINTER, "A", dict(n=0, A=None, C=None)),  # min(nq, k) > 0: A is needed even for n = 0
    ("zunmbr", POINTER, "ipiv", dict(ipiv=None, C=None)),
    ("dormbr", POINTER, "C", dict(C=None)),
]


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


def test_row_wise_lda_only_needs_min_nq_k(bad: Callable[..., None]) -> None:
    # lda = 2 is enough for P of a 2 x 4 matrix (k = 2 < nq = 4), where column-wise it is not.
    bad("dormbr", "plain", SIZE, "lda", storev=COLUMN, k=2, lda=2)
    bad("dormbr", "plain", POINTER, "C", storev=ROW, k=2, lda=2, C=None)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("dsygs2", "zhegst", "dsygvd", "chegvd"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, A=None)
        bad(routine, flavour, VALUE, "uplo", uplo=0, batch_count=-1)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)
    bad("dsygvd", flavour, POINTER, "info", n=0, A=None, B=None, D=None, E=None, info=None, batch_count=1)
