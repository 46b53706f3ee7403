"""rocSOLVER's Jacobi divide-and-conquer eigensolvers (rocmath.solver.eigdj): syevdj/heevdj and sygvdj/hegvdj in
every precision and flavour.

Orders below and from rocSOLVER's SYEVDJ_MIN_DC_SIZE (16) take both of its paths (Jacobi; tridiagonal reduction
and divide and conquer when eigenvectors are asked for).  Eigenvalues are compared with scipy.linalg.eigh
(type=itype) within ``THRESHOLD * n * eps`` of the problem's scale; eigenvectors by LAPACK's ratios (residual and
orthogonality, B-orthogonality for the generalized problems) below 30.  Every operand lives in a poisoned
allocation with one more entry than batch_count: padding, batch gaps and the entry past batch_count must keep
their bits; the triangle the routine does not reference holds junk.  Argument errors follow rocSOLVER's argCheck
order, one case per check.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_eigx import Matrix, PerEntry, Vector, _closing, hermitian, wide, with_junk

import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, C, D, Precision, S
from rocmath.solver import _kernels_eig as ke
from rocmath.solver import eigdj
from rocmath.solver._workspace import rounded

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
THRESHOLD = rt.RESIDUAL_THRESHOLD
EVECT = {True: 211, False: 213}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str) -> Callable[..., Any]:
    if p.is_complex:
        routine = "he" + routine[2:]
    return getattr(eigdj, f"{p.letter}{routine}{SUFFIX[flavour]}")


# --- operands: one more entry than batch_count, everything poisoned -----------------------------------


def invoke(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> Any:
    """Call with operands: a Matrix gives its pointer, ``ld<name>`` and ``stride<name>``; a Vector its pointer and
    strideD; a PerEntry its pointer."""
    f = fn(routine, p, flavour)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for key, value in args.items():
        if isinstance(value, Matrix):
            values[key], values[f"ld{key.lower()}"], values[f"stride{key}"] = value.arg, value.ld, value.stride
        elif isinstance(value, Vector):
            values[key], values[f"stride{key}"] = value.arg, value.stride
        elif isinstance(value, PerEntry):
            values[key] = value.arg
        else:
            values[key] = value
    return f(**{n: values[n] for n in inspect.signature(f).parameters})


def run(handle: Any, p: Precision, flavour: str, a: np.ndarray, batch: int, lda: int, uplo: str, vectors: bool,
        gap: int = 0, b: np.ndarray | None = None, ldb: int = 0, itype: int = 1) -> tuple[np.ndarray, ...]:
    """syevdj (b None) or sygvdj on the first ``batch`` entries of ``a`` (and ``b``); returns (A, D, info, B)."""
    total, n, _ = a.shape
    with ExitStack() as stack:
        A = stack.enter_context(_closing(Matrix(a, lda, flavour, gap)))
        W = stack.enter_context(_closing(Vector(np.full((total, n), 7, p.real.dtype), flavour, gap)))
        info = stack.enter_context(_closing(PerEntry(batch, np.int32)))
        args: dict[str, Any] = dict(evect=EVECT[vectors], uplo=uplo, n=n, A=A, D=W, info=info)
        bout = None
        if b is None:
            invoke(handle, "syevdj", p, flavour, batch, **args)
        else:
            Bm = stack.enter_context(_closing(Matrix(b, ldb, flavour, gap)))
            invoke(handle, "sygvdj", p, flavour, batch, itype=220 + itype, B=Bm, **args)
            Bm.check(batch)
            bout = Bm.get()[:batch]
        A.check(batch)
        W.check(batch)
        return A.get()[:batch], W.get()[:batch], info.get(), bout


# --- data ----------------------------------------------------------------------------------------


def spectrum(n: int, rng: np.random.Generator) -> np.ndarray:
    return np.sort(rng.uniform(-n, n, n))


def pencil(p: Precision, total: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(A Hermitian, B Hermitian positive definite and reasonably conditioned)."""
    x = rng.uniform(-1, 1, (total, n, n)) + (1j * rng.uniform(-1, 1, (total, n, n)) if p.is_complex else 0)
    b = x @ np.swapaxes(x, 1, 2).conj() + n * np.eye(n)
    return hermitian(p, total, spectrum(n, rng), rng), b.astype(p.dtype)


def check_standard(a: np.ndarray, w: np.ndarray, x: np.ndarray | None, p: Precision) -> None:
    n = a.shape[0]
    ref = sl.eigh(wide(a), eigvals_only=True)
    assert np.all(np.abs(w - ref) <= THRESHOLD * n * p.eps * (np.linalg.norm(wide(a), 2) + 1))
    assert np.all(np.diff(w) >= 0), "eigenvalues not ascending"
    if x is not None:
        assert rt.eigh_residual_ratio(a, w, x, precision=p) < THRESHOLD
        assert rt.orthogonality_ratio(x, precision=p) < THRESHOLD


def check_generalized(a: np.ndarray, b: np.ndarray, w: np.ndarray, x: np.ndarray | None, itype: int,
                      p: Precision) -> None:
    """Eigenvalues against scipy; LAPACK's residual of the pencil and the B-orthogonality (B^-1 for bax)."""
    n = a.shape[0]
    aw, bw = wide(a), wide(b)
    ref = sl.eigh(aw, bw, type=itype, eigvals_only=True)
    assert np.all(np.abs(w - ref) <= THRESHOLD * n * p.eps * (np.linalg.norm(aw, 2) * np.linalg.norm(bw, 2) + 1))
    assert np.all(np.diff(w) >= 0), "eigenvalues not ascending"
    if x is None:
        return
    xw = wide(x)
    lhs = {1: aw @ xw, 2: aw @ bw @ xw, 3: bw @ aw @ xw}[itype]
    rhs = (bw @ xw if itype == 1 else xw) * w[None, :]
    norm = np.abs(aw).sum(axis=0).max() * np.abs(bw).sum(axis=0).max() * np.abs(xw).sum(axis=0).max()
    assert np.abs(lhs - rhs).sum(axis=0).max() <= THRESHOLD * n * p.eps * norm
    gram = xw.conj().T @ (np.linalg.inv(bw) if itype == 3 else bw) @ xw
    assert np.abs(gram - np.eye(n)).max() < THRESHOLD * n * p.eps * np.linalg.cond(bw)


@st.composite
def setup(draw: st.DrawFn) -> tuple[Precision, str, int, int, int, int]:
    """(precision, flavour, batch count, gap between strided entries, order, seed): orders on both sides of
    SYEVDJ_MIN_DC_SIZE."""
    p = draw(st.sampled_from(SDCZ))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, 3))
    n = draw(st.one_of(rt.sizes(max_value=9), st.integers(eigdj.SYEVDJ_MIN_DC_SIZE - 1, 20)))
    return p, flavour, batch, draw(st.integers(0, 2)), n, draw(st.integers(0, 2**32 - 1))


# --- syevdj/heevdj ---------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_syevdj(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, n, seed = data.draw(setup())
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    uplo, vectors = data.draw(st.sampled_from("UL")), data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    a = hermitian(p, batch + 1, spectrum(n, rng), rng)
    x, w, info, _ = run(handle, p, flavour, with_junk(a, uplo, rng), batch, lda, uplo, vectors, gap)
    assert np.array_equal(info, np.zeros(batch))
    for e in range(batch if n else 0):
        check_standard(a[e], w[e], x[e] if vectors else None, p)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_syevdj_larger_entries(handle: Any, p: Precision) -> None:
    # Divide and conquer with repeated eigenvalues (n = 40 with vectors); Jacobi past the blocked switch (58)
    # without them.
    rng = np.random.default_rng(3)
    lam = np.repeat(spectrum(20, rng), 2)
    a = hermitian(p, 3, lam, rng)
    x, w, info, _ = run(handle, p, "strided", a, 2, 41, "L", True, 1)
    assert info.tolist() == [0, 0]
    for e in range(2):
        check_standard(a[e], w[e], x[e], p)
    a = hermitian(p, 2, spectrum(64, rng), rng)
    _, w, info, _ = run(handle, p, "batched", with_junk(a, "U", rng), 1, 64, "U", False)
    assert info.tolist() == [0]
    check_standard(a[0], w[0], None, p)


def test_syevdj_n1_scalar_case(handle: Any) -> None:
    a = np.array([[[2.5 + 3.0j]], [[9.0]]], dtype=np.complex64)
    x, w, info, _ = run(handle, C, "strided", a, 1, 1, "U", True)
    assert w[0, 0] == 2.5 and x[0, 0, 0] == 1 and info[0] == 0  # the real part; the vector 1
    x, w, info, _ = run(handle, C, "plain", a, 1, 1, "U", False)
    assert w[0, 0] == 2.5 and x[0, 0, 0] == a[0, 0, 0] and info[0] == 0  # A untouched without vectors


def test_syevdj_not_converged(handle: Any) -> None:
    # Past order 58 rocSOLVER's Jacobi convergence test is strict: a NaN never converges (info = 1).
    a = np.stack([np.eye(60), np.eye(60)])
    a[0, 5, 5] = np.nan
    _, w, info, _ = run(handle, D, "batched", a, 2, 60, "L", False)
    assert info.tolist() == [1, 0] and np.all(w[1] == 1)


# --- sygvdj/hegvdj ---------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_sygvdj(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, n, seed = data.draw(setup())
    lda, ldb = (data.draw(rt.leading_dimensions(n, max_padding=2)) for _ in range(2))
    itype, uplo, vectors = data.draw(st.sampled_from((1, 2, 3))), data.draw(st.sampled_from("UL")), \
        data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    a, b = pencil(p, batch + 1, n, rng)
    x, w, info, bf = run(handle, p, flavour, with_junk(a, uplo, rng), batch, lda, uplo, vectors, gap,
                         with_junk(b, uplo, rng), ldb, itype)
    assert np.array_equal(info, np.zeros(batch))
    for e in range(batch if n else 0):
        check_generalized(a[e], b[e], w[e], x[e] if vectors else None, itype, p)
        # B gets its Cholesky factor (the uplo triangle)
        low = np.linalg.cholesky(wide(b[e]))
        got = np.tril(bf[e]) if uplo == "L" else np.triu(bf[e]).conj().T
        assert np.abs(got - low).max() <= THRESHOLD * n * p.eps * np.abs(low).max()


@pytest.mark.parametrize("n", (5, 20))
def test_sygvdj_b_not_positive_definite(handle: Any, n: int) -> None:
    rng = np.random.default_rng(2)
    a, b = pencil(D, 4, n, rng)
    b[1, 3, 3] = -100.0 * n  # leading minor 4 fails
    _, w, info, _ = run(handle, D, "batched", a, 3, n, "L", True, 0, b, n, 1)
    assert info.tolist() == [0, n + 4, 0]
    for e in (0, 2):
        assert np.allclose(w[e], sl.eigh(a[e], b[e], eigvals_only=True))


def test_sygvdj_n1(handle: Any) -> None:
    a, b = np.array([[[3.0]], [[0.0]]]), np.array([[[4.0]], [[0.0]]])
    x, w, info, bf = run(handle, D, "plain", a, 1, 1, "L", True, 0, b, 1, 1)
    assert w[0, 0] == 0.75 and x[0, 0, 0] == 0.5 and bf[0, 0, 0] == 2.0 and info[0] == 0
    x, w, info, _ = run(handle, S, "strided", a.astype(np.float32), 1, 1, "U", False, 0, b.astype(np.float32), 1, 3)
    assert w[0, 0] == 12.0 and info[0] == 0  # B A x = l x: l = 4 * 3


def test_overlapping_d_last_entry_wins(handle: Any) -> None:
    # strideD = 0: every entry writes the same D; entries then run in order and the last one's values stay.
    rng = np.random.default_rng(5)
    a, b = pencil(D, 3, 6, rng)
    for routine, extra in (("dsyevdj_strided_batched", ()), ("dsygvdj_strided_batched", ("B",))):
        mats = {k: rt.poisoned_device_matrix(x, 6, stride=36) for k, x in (("A", a), ("B", b))}
        d, info = rt.poisoned_device_vector(np.zeros(6)), PerEntry(3, np.int32)
        try:
            f = getattr(eigdj, routine)
            args = [handle] + ([221] if extra else []) + [211, "L", 6, mats["A"].ptr, 6, 36]
            args += [mats["B"].ptr, 6, 36] if extra else []
            f(*args, d.ptr, 0, info.arg, 3)
            ref = sl.eigh(a[2], b[2], eigvals_only=True) if extra else sl.eigh(a[2], eigvals_only=True)
            assert np.allclose(d.get(), ref) and not info.get().any()
        finally:
            for m in (*mats.values(), d, info):
                m.close()


# --- quick returns ---------------------------------------------------------------------------------


def test_quick_returns_follow_rocsolver(handle: Any) -> None:
    info = PerEntry(2, np.int32)
    try:
        # n = 0: info := 0 (A, B and D may be null)
        eigdj.dsyevdj_strided_batched(handle, 211, "L", 0, None, 1, 1, None, 1, info.arg, 2)
        assert not info.get().any()
        info.mat.poison()
        eigdj.chegvdj_batched(handle, 223, 213, "U", 0, None, 1, None, 1, None, 1, info.arg, 2)
        assert not info.get().any()
        # batch_count = 0: nothing happens; info may be null, but A, B and D are checked by n alone
        info.mat.poison()
        mat, vec = rt.poisoned_device_matrix(np.eye(4), 4), rt.poisoned_device_vector(np.zeros(4))
        with mat, vec:
            eigdj.zheevdj_batched(handle, 211, "U", 4, mat.ptr, 4, vec.ptr, 4, None, 0)
            eigdj.dsygvdj_strided_batched(handle, 221, 211, "U", 4, mat.ptr, 4, 16, mat.ptr, 4, 16, vec.ptr, 4, None,
                                          0)
            with pytest.raises(RocblasInvalidPointerError):
                eigdj.dsyevdj_batched(handle, 211, "U", 4, None, 4, vec.ptr, 4, None, 0)
            mat.check_untouched(logical=True)
            vec.check_untouched(logical=True)
        info.mat.check_untouched(logical=True)
    finally:
        info.close()


# --- argument checking -----------------------------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a routine with valid 4x4 arguments but the given changes; expect the exception class and the
    argument it names (and its position); nothing may change."""
    mats = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "B")}
    bufs = {"D": rt.poisoned_device_vector(np.zeros(4)), "info": rt.poisoned_device_vector(np.zeros(1, np.int32))}

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(itype=221, evect=211, uplo="L", n=4, lda=4, ldb=4, batch_count=1, strideA=16,
                                    strideB=16, strideD=4)
        base.update({k: v.ptr for k, v in (*mats.items(), *bufs.items())})
        f = getattr(eigdj, routine + SUFFIX[flavour])
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{q: changes.get(q, base[q]) for q in params})
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in (*mats.values(), *bufs.values()):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), *bufs.values()):
        buf.close()


# rocsolver_syevdj_heevdj_argCheck, roclapack_syevdj_heevdj.hpp: one case per check, in its order.
SYEVDJ_CHECKS = [
    (VALUE, "evect", dict(evect=212, uplo=0, n=-1, A=None)),  # tridiagonal is not supported
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1, lda=-5)),
    (SIZE, "lda", dict(lda=3, A=None)),
    (POINTER, "A", dict(A=None, D=None)),
    (POINTER, "D", dict(D=None, info=None)),
    (POINTER, "info", dict(info=None)),
]
# rocsolver_sygvdj_hegvdj_argCheck: itype first, ldb after lda, B after A.
SYGVDJ_CHECKS = [
    (VALUE, "itype", dict(itype=224, evect=0)),
    (VALUE, "evect", dict(evect=212, uplo=0)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1)),
    (SIZE, "lda", dict(lda=3, ldb=3)),
    (SIZE, "ldb", dict(ldb=3, A=None)),
    (POINTER, "A", dict(A=None, B=None)),
    (POINTER, "B", dict(B=None, D=None)),
    (POINTER, "D", dict(D=None, info=None)),
    (POINTER, "info", dict(info=None)),
]
BAD_ARGUMENTS = ([("dsyevdj", *x) for x in SYEVDJ_CHECKS] + [("cheevdj", *x) for x in SYEVDJ_CHECKS[:2]]
                 + [("zhegvdj", *x) for x in SYGVDJ_CHECKS] + [("ssygvdj", *x) for x in SYGVDJ_CHECKS[:1]] + [
    # pointers only where the sizes need them
    ("dsyevdj", POINTER, "info", dict(n=0, A=None, D=None, info=None)),
    ("dsygvdj", POINTER, "info", dict(n=0, A=None, B=None, D=None, info=None)),
    ("ssyevdj", POINTER, "A", dict(evect=213, A=None)),  # pointers are the same without vectors
])


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("ssyevdj", "zheevdj", "dsygvdj", "chegvdj"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, A=None)  # the last size, before pointers
        bad(routine, flavour, SIZE, "lda", lda=3, batch_count=-1)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)  # n alone needs A
        bad(routine, flavour, POINTER, "info", info=None)


def test_size_query_and_signatures(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert eigdj.dsyevdj(handle, 211, "L", 64, None, 64, None, None) is RocblasStatus.size_increased
        assert eigdj.dsyevdj(handle, 211, "L", 1, None, 1, None, None) is RocblasStatus.size_unchanged  # scalar
        assert eigdj.zhegvdj(handle, 221, 211, "L", 0, None, 1, None, 1, None, None) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            eigdj.dsygvdj(handle, 221, 211, "L", 4, None, 4, None, 3, None, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == rounded(64 * 8) + ke.syev_workspace(64, 1, 8, 8, True, True)  # E and syevd's

    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    # rocsolver-functions.h
    assert names(eigdj.ssyevdj) == ["handle", "evect", "uplo", "n", "A", "lda", "D", "info"]
    assert names(eigdj.zheevdj_batched) == ["handle", "evect", "uplo", "n", "A", "lda", "D", "strideD", "info",
                                            "batch_count"]
    assert names(eigdj.dsyevdj_strided_batched) == ["handle", "evect", "uplo", "n", "A", "lda", "strideA", "D",
                                                    "strideD", "info", "batch_count"]
    assert names(eigdj.chegvdj) == ["handle", "itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "D", "info"]
    assert names(eigdj.dsygvdj_batched) == ["handle", "itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "D",
                                            "strideD", "info", "batch_count"]
    assert names(eigdj.zhegvdj_strided_batched) == [
        "handle", "itype", "evect", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "D", "strideD", "info",
        "batch_count"]
    assert sorted(eigdj.__all__) == sorted(f"{p}{r}{s}" for p, r in (("s", "syevdj"), ("d", "syevdj"), ("c", "heevdj"),
                                                                     ("z", "heevdj"), ("s", "sygvdj"), ("d", "sygvdj"),
                                                                     ("c", "hegvdj"), ("z", "hegvdj"))
                                           for s in SUFFIX.values())
