"""rocSOLVER's symmetric eigenvalue and SVD family: sterf, steqr, stedc, bdsqr, sytd2/sytrd (hetd2/hetrd),
gebd2/gebrd, syev/heev, syevd/heevd, syevj/heevj, sygv/hegv, gesvd, gesvdj.

Results are judged by LAPACK's scale-free ratios below 30 (``||A V - V L|| / (n ||A|| eps)``,
``||I - V^H V|| / (n eps)``, ``||A - U S V^H|| / (max(m, n) ||A|| eps)``) and against scipy where outputs
are unique (eigenvalues, singular values, info).  Operands live in poisoned buffers: padding, batch gaps
and margins must keep their sentinel bits; the triangle a symmetric routine does not reference holds
junk that must not matter.  Sizes include 0 and 1, flavours and precisions are drawn, batches mix
members; structured matrices (repeated eigenvalues, graded, rank-deficient) have their own tests.
Argument checking follows rocSOLVER's order and is tested at the end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _kernels_eig as ke

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
THRESHOLD = rt.RESIDUAL_THRESHOLD
SY = {"s": "sy", "d": "sy", "c": "he", "z": "he"}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def name(routine: str, p: Precision) -> str:
    """``syev`` -> ``dsyev`` / ``zheev`` (the Hermitian name for complex precisions)."""
    if routine.startswith("sy") and p.is_complex:
        routine = "he" + routine[2:]
    return f"{p.letter}{routine}"


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    return getattr(solver, name(routine, p) + SUFFIX[flavour])


# --- operands ------------------------------------------------------------------------------------


class Matrix:
    """A (batch, rows, cols) stack as a matrix argument with poisoned padding: one pointer (plain,
    strided; entries ``ld * cols + gap`` apart) or a device array of entry pointers (batched, unless
    ``single``: gesvd's U and V are one strided array in both batched forms)."""

    def __init__(self, host: np.ndarray, ld: int, flavour: str, gap: int = 0, single: bool = False):
        self.ld, self.shape, self.dtype, self.stride = ld, host.shape, host.dtype, 0
        self.strided = flavour == "strided" or (single and flavour == "batched")
        if flavour == "plain":
            self.mats = [rt.poisoned_device_matrix(host[0], ld)]
            self.arg: Any = self.mats[0].ptr
        elif self.strided:
            self.mats = [rt.poisoned_device_matrix(host, ld, stride=ld * max(1, host.shape[2]) + gap)]
            self.stride, self.arg = self.mats[0].stride, self.mats[0].ptr
        else:
            self.mats = [rt.poisoned_device_matrix(h, ld) for h in host]
            self.arg = rm.to_device(np.array([m.ptr for m in self.mats] or [0], dtype=np.uint64))

    def get(self) -> np.ndarray:
        if self.strided:
            return self.mats[0].get()
        if len(self.mats) == 1 and self.shape[0] == 1:
            return self.mats[0].get()[None]
        if not self.mats:
            return np.empty(self.shape, self.dtype)
        return np.stack([m.get() for m in self.mats])

    def check(self, logical: bool = False) -> None:
        for m in self.mats:
            m.check_untouched(logical=logical)

    def close(self) -> None:
        for m in self.mats:
            m.close()


class Vector:
    """A (batch, length) stack as a non-matrix array (D, E, S, tau...): one device array in every
    flavour, entries ``length + gap`` apart, gaps poisoned."""

    def __init__(self, host: np.ndarray, flavour: str, gap: int = 0):
        length = host.shape[1]
        data = host[:, :, None]
        if flavour == "plain":
            self.mat = rt.poisoned_device_matrix(data[0], max(1, length))
            self.stride = 0
        else:
            self.mat = rt.poisoned_device_matrix(data, max(1, length), stride=max(1, length) + gap)
            self.stride = self.mat.stride
        self.plain, self.arg = flavour == "plain", self.mat.ptr

    def get(self) -> np.ndarray:
        data = self.mat.get()
        return (data[None] if self.plain else data)[..., 0]

    def check(self, logical: bool = False) -> None:
        self.mat.check_untouched(logical=logical)

    def close(self) -> None:
        self.mat.close()


def per_entry(batch: int, dtype: Any) -> rt.PaddedDeviceMatrix:
    """info, residual or n_sweeps: batch values, poisoned (every one must be written)."""
    out = rt.poisoned_device_matrix(np.zeros((batch, 1), dtype))
    out.poison()
    return out


@contextmanager
def closing(*operands: Any) -> Iterator[None]:
    try:
        yield
    finally:
        for operand in operands:
            operand.close()


STRIDE_NAMES = {"D": "strideD", "E": "strideE", "tau": "strideP", "tauq": "strideQ", "taup": "strideP",
                "S": "strideS", "W": "strideW"}


def call(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> Any:
    """Call with plain values and operands: a Matrix gives pointer, ``ld<name>`` and ``stride<name>``; a
    Vector its pointer and stride; a padded matrix (info...) its pointer."""
    f = fn(routine, p, flavour)
    names = list(inspect.signature(f).parameters)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for key, value in args.items():
        if isinstance(value, Matrix):
            values[key], values[f"ld{key.lower()}"], values[f"stride{key}"] = value.arg, value.ld, value.stride
        elif isinstance(value, Vector):
            values[key], values[STRIDE_NAMES[key]] = value.arg, value.stride
        elif isinstance(value, rt.PaddedDeviceMatrix):
            values[key] = value.ptr
        else:
            values[key] = value
    return f(**{n: values[n] for n in names})


# --- data ----------------------------------------------------------------------------------------


def random(p: Precision, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(-1, 1, shape)
    if p.is_complex:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(p.dtype)


def hermitian(p: Precision, batch: int, n: int, rng: np.random.Generator) -> np.ndarray:
    a = random(p, (batch, n, n), rng)
    return (a + np.swapaxes(a, 1, 2).conj()) / 2


def with_junk(a: np.ndarray, uplo: str, rng: np.random.Generator) -> np.ndarray:
    """``a`` with the triangle the routine must not read replaced by junk."""
    n = a.shape[-1]
    keep = np.triu(np.ones((n, n), bool)) if uplo == "U" else np.tril(np.ones((n, n), bool))
    junk = 1e3 * rng.standard_normal(a.shape).astype(a.dtype)
    return np.where(keep, a, junk)


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def eigvals(a: np.ndarray) -> np.ndarray:
    return np.array([np.linalg.eigvalsh(wide(x)) for x in a]).reshape(a.shape[0], a.shape[-1])


def singvals(a: np.ndarray) -> np.ndarray:
    k = min(a.shape[1:])
    return np.array([np.linalg.svd(wide(x), compute_uv=False) for x in a]).reshape(a.shape[0], k)


def close_values(got: np.ndarray, ref: np.ndarray, scale: np.ndarray, p: Precision, n: int) -> bool:
    """Eigen/singular values within ``THRESHOLD * n * eps * ||A||`` (their perturbation bound)."""
    return bool(np.all(np.abs(got - ref) <= THRESHOLD * max(n, 1) * p.eps * (scale[:, None] + p.real.eps)))


def norm2(a: np.ndarray) -> np.ndarray:
    return np.array([np.linalg.norm(wide(x), 2) if x.size else 0.0 for x in a])


@st.composite
def setup(draw: st.DrawFn, max_batch: int = 3) -> tuple[Precision, str, int, int, int]:
    """(precision, flavour, batch count, gap between strided entries, seed)."""
    p = draw(st.sampled_from(SDCZ))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, max_batch))
    return p, flavour, batch, draw(st.integers(0, 2)), draw(st.integers(0, 2**32 - 1))


small = rt.sizes(max_value=9)


# --- syev/heev, syevd/heevd --------------------------------------------------------------------------


def run_syev(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, lda: int, uplo: str,
             vectors: bool, gap: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    batch, n, _ = a.shape
    real = p.real.dtype
    A, Dv, Ev = Matrix(a, lda, flavour, gap), Vector(np.zeros((batch, n), real), flavour, gap), \
        Vector(np.zeros((batch, n), real), flavour, gap)
    info = per_entry(batch, np.int32)
    with closing(A, Dv, Ev, info):
        call(handle, routine, p, flavour, batch, evect=211 if vectors else 213, uplo=uplo, n=n, A=A, D=Dv, E=Ev,
             info=info)
        for x in (A, Dv, Ev):
            x.check()
        if batch:
            info.check_untouched()
        return A.get(), Dv.get(), Ev.get(), info.get()[:, 0]


def check_eigen(a: np.ndarray, w: np.ndarray, v: np.ndarray | None, p: Precision) -> None:
    n = a.shape[-1]
    if not a.shape[0] or not n:
        return
    assert np.all(np.diff(w, axis=1) >= 0), "eigenvalues must be ascending"
    assert close_values(w, eigvals(a), norm2(a), p, n)
    if v is not None:
        assert rt.eigh_residual_ratio(a, w, v, precision=p) < THRESHOLD
        assert rt.orthogonality_ratio(v, precision=p) < THRESHOLD


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_syev_syevd(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(("syev", "syevd")))
    n = data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    uplo, vectors = data.draw(st.sampled_from("UL")), data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    a = hermitian(p, batch, n, rng)
    got, w, _, info = run_syev(handle, routine, p, flavour, with_junk(a, uplo, rng), lda, uplo, vectors, gap)
    assert np.array_equal(info, np.zeros(batch))
    check_eigen(a, w, got if vectors else None, p)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("routine", ("syev", "syevd"))
def test_syev_larger_entries(handle: Any, p: Precision, routine: str) -> None:
    # Past numba's threads: entries one after another, each through LAPACK threaded by OpenBLAS.
    rng = np.random.default_rng(3)
    n = 70
    a = hermitian(p, 2, n, rng)
    got, w, _, info = run_syev(handle, routine, p, "strided", a, n + 3, "L", True, gap=5)
    assert np.array_equal(info, [0, 0])
    check_eigen(a, w, got, p)


def test_syev_n1_scalar_case(handle: Any) -> None:
    a = np.array([[[3.0 + 2.0j]], [[-1.0 - 5.0j]]])
    got, w, _, info = run_syev(handle, "syevd", Z, "strided", a, 1, "U", True)
    assert np.array_equal(w[:, 0], [3.0, -1.0]) and np.array_equal(got[:, 0, 0], [1, 1]) and not info.any()


# --- structured matrices -------------------------------------------------------------------------


def unitary(p: Precision, n: int, rng: np.random.Generator) -> np.ndarray:
    q, _ = np.linalg.qr(wide(random(p, (n, n), rng)))
    return q


@pytest.mark.parametrize("p", (D, Z))
@pytest.mark.parametrize("routine", ("syev", "syevd", "syevj"))
def test_repeated_and_graded_eigenvalues(handle: Any, p: Precision, routine: str) -> None:
    rng = np.random.default_rng(7)
    n = 12
    q = unitary(p, n, rng)
    spectra = [np.repeat([1.0, -2.0, 5.0], 4), 10.0 ** -np.arange(n), np.zeros(n)]
    a = np.stack([(q * lam) @ q.conj().T for lam in spectra]).astype(p.dtype)
    a = (a + np.swapaxes(a, 1, 2).conj()) / 2
    if routine == "syevj":
        w, v, info, _, _ = run_syevj(handle, p, "strided", a, n, "L", True, True, 0.0, 100)
    else:
        v, w, _, info = run_syev(handle, routine, p, "strided", a, n, "L", True)
    assert not info.any()
    check_eigen(a, w, v, p)
    assert np.allclose(w[0], np.sort(spectra[0]), atol=50 * n * p.eps)


# --- syevj/heevj ---------------------------------------------------------------------------------


def run_syevj(handle: Any, p: Precision, flavour: str, a: np.ndarray, lda: int, uplo: str, vectors: bool,
              ascending: bool, abstol: float, max_sweeps: int, gap: int = 0) -> tuple[np.ndarray, ...]:
    batch, n, _ = a.shape
    real = p.real.dtype
    A, W = Matrix(a, lda, flavour, gap), Vector(np.zeros((batch, n), real), flavour, gap)
    info, res, sweeps = per_entry(batch, np.int32), per_entry(batch, real), per_entry(batch, np.int32)
    with closing(A, W, info, res, sweeps):
        call(handle, "syevj", p, flavour, batch, esort=252 if ascending else 251, evect=211 if vectors else 213,
             uplo=uplo, n=n, A=A, abstol=abstol, residual=res, max_sweeps=max_sweeps, n_sweeps=sweeps, W=W,
             info=info)
        A.check(logical=not vectors)
        W.check()
        if batch:
            for x in (info, res, sweeps):
                x.check_untouched()
        return W.get(), A.get(), info.get()[:, 0], res.get()[:, 0], sweeps.get()[:, 0]


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_syevj(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    n = data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    uplo, vectors, ascending = data.draw(st.sampled_from("UL")), data.draw(st.booleans()), data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    a = hermitian(p, batch, n, rng)
    w, v, info, res, sweeps = run_syevj(handle, p, flavour, with_junk(a, uplo, rng), lda, uplo, vectors, ascending,
                                        data.draw(st.sampled_from((0.0, -1.0))), 100, gap)
    if not batch:
        return
    assert np.array_equal(info, np.zeros(batch))
    fro = np.sqrt((np.abs(wide(a)) ** 2).sum(axis=(1, 2)))
    assert np.all(res <= p.real.eps * fro + p.real.eps * 1e-30) and np.all(sweeps <= 100)
    if n <= 1:
        assert np.array_equal(sweeps, np.zeros(batch)) and np.array_equal(res, np.zeros(batch))
    order = np.argsort(w, axis=1, kind="stable")
    if ascending:
        assert np.array_equal(order, np.tile(np.arange(n), (batch, 1)))
    sorted_w = np.take_along_axis(w, order, 1)
    vs = np.take_along_axis(v, np.broadcast_to(order[:, None, :], v.shape), 2) if vectors else None
    check_eigen(a, sorted_w, vs, p)


def test_syevj_stops_after_max_sweeps(handle: Any) -> None:
    rng = np.random.default_rng(1)
    a = hermitian(D, 2, 10, rng)
    _, _, info, res, sweeps = run_syevj(handle, D, "batched", a, 10, "U", False, True, 1e-300, 1)
    assert np.array_equal(info, [1, 1]) and np.array_equal(sweeps, [1, 1]) and np.all(res > 0)
    _, _, info, _, sweeps = run_syevj(handle, D, "batched", a, 10, "U", False, True, 1e-3, 100)
    assert np.array_equal(info, [0, 0]) and np.all((sweeps > 0) & (sweeps < 100))  # a loose tolerance


# --- sygv/hegv -----------------------------------------------------------------------------------


def positive_definite(p: Precision, batch: int, n: int, rng: np.random.Generator) -> np.ndarray:
    x = random(p, (batch, n, n), rng)
    return (wide(x) @ np.swapaxes(wide(x), 1, 2).conj() + n * np.eye(n)).astype(p.dtype)


def run_sygv(handle: Any, p: Precision, flavour: str, a: np.ndarray, b: np.ndarray, itype: int, uplo: str,
             vectors: bool, lda: int, ldb: int) -> tuple[np.ndarray, ...]:
    batch, n, _ = a.shape
    real = p.real.dtype
    A, B = Matrix(a, lda, flavour), Matrix(b, ldb, flavour)
    Dv, Ev = Vector(np.zeros((batch, n), real), flavour), Vector(np.zeros((batch, n), real), flavour)
    info = per_entry(batch, np.int32)
    with closing(A, B, Dv, Ev, info):
        call(handle, "sygv", p, flavour, batch, itype=220 + itype, evect=211 if vectors else 213, uplo=uplo, n=n,
             A=A, B=B, D=Dv, E=Ev, info=info)
        for x in (A, B, Dv, Ev):
            x.check()
        return A.get(), Dv.get(), info.get()[:, 0]


@settings(max_examples=rt.examples(24))
@given(st.data())
def test_sygv(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, _, seed = data.draw(setup())
    n = data.draw(small)
    itype, uplo, vectors = data.draw(st.sampled_from((1, 2, 3))), data.draw(st.sampled_from("UL")), \
        data.draw(st.booleans())
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a, b = hermitian(p, batch, n, rng), positive_definite(p, batch, n, rng)
    x, w, info = run_sygv(handle, p, flavour, with_junk(a, uplo, rng), with_junk(b, uplo, rng), itype, uplo, vectors,
                          lda, ldb)
    if not batch or not n:
        assert np.array_equal(info, np.zeros(batch))
        return
    assert np.array_equal(info, np.zeros(batch))
    ref = np.array([sl.eigh(wide(a[e]), wide(b[e]), type=itype, eigvals_only=True) for e in range(batch)])
    scale = np.array([np.linalg.norm(wide(a[e]), 2) * np.linalg.norm(wide(b[e]), 2) for e in range(batch)])
    assert np.all(np.abs(w - ref) <= THRESHOLD * n * p.eps * (scale[:, None] + 1))
    if vectors:
        aw, bw, xw = wide(a), wide(b), wide(x)
        lhs = {1: aw @ xw, 2: aw @ bw @ xw, 3: bw @ aw @ xw}[itype]
        rhs = (bw @ xw if itype == 1 else xw) * w[:, None, :]
        norm = np.abs(lhs).sum(axis=1).max() + np.abs(rhs).sum(axis=1).max()
        assert np.abs(lhs - rhs).sum(axis=1).max() / (n * p.eps * norm) < THRESHOLD
        gram = np.swapaxes(xw, 1, 2).conj() @ (np.linalg.inv(bw) if itype == 3 else bw) @ xw
        assert np.abs(gram - np.eye(n)).max() < THRESHOLD * n * p.eps * np.linalg.cond(bw).max()


def test_sygv_b_not_positive_definite(handle: Any) -> None:
    rng = np.random.default_rng(2)
    a, b = hermitian(D, 3, 5, rng), positive_definite(D, 3, 5, rng)
    b[1, 3, 3] = -100.0  # leading minor 4 fails
    x, _, info = run_sygv(handle, D, "strided", a, b, 1, "L", True, 5, 5)
    assert np.array_equal(info, [0, 5 + 4, 0])
    assert not np.array_equal(x[1], a[1])  # rocSOLVER goes on with the partial factor: A is destroyed


# --- gesvd, gesvdj -------------------------------------------------------------------------------


SVECT = {"A": 191, "S": 192, "O": 193, "N": 194}


def run_svd(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, left: str, right: str, lda: int,
            pad: int = 0, gap: int = 0) -> dict[str, np.ndarray]:
    """Run gesvd / gesvdj; returns what it produced (U, Vh from their arrays or from A for overwrite)."""
    batch, m, n = a.shape
    k = min(m, n)
    real = p.real.dtype
    ucols = {"A": m, "S": k}.get(left, 0)
    vrows = {"A": n, "S": k}.get(right, 0)
    ldu, ldv = max(1, m if left in "AS" else 1) + pad, max(1, vrows) + pad
    A = Matrix(a, lda, flavour, gap)
    U = Matrix(np.zeros((batch, m if ucols else 0, ucols), p.dtype), ldu, flavour, gap, single=True)
    V = Matrix(np.zeros((batch, vrows, n if vrows else 0), p.dtype), ldv, flavour, gap, single=True)
    S, E = Vector(np.zeros((batch, k), real), flavour, gap), Vector(np.zeros((batch, max(k - 1, 0)), real), flavour)
    info = per_entry(batch, np.int32)
    extra = [per_entry(batch, real), per_entry(batch, np.int32)] if routine == "gesvdj" else []
    with closing(A, U, V, S, E, info, *extra):
        args: dict[str, Any] = dict(left_svect=SVECT[left], right_svect=SVECT[right], m=m, n=n, A=A, S=S, U=U, V=V,
                                    info=info)
        if routine == "gesvd":
            args.update(E=E, fast_alg=201)
        else:
            args.update(abstol=0.0, residual=extra[0], max_sweeps=100, n_sweeps=extra[1])
        call(handle, routine, p, flavour, batch, **args)
        for x in (A, U, V, S):
            x.check(logical=x is A and routine == "gesvdj")
        out = dict(A=A.get(), U=U.get(), V=V.get(), S=S.get(), E=E.get(), info=info.get()[:, 0])
        if extra:
            out.update(residual=extra[0].get()[:, 0], n_sweeps=extra[1].get()[:, 0])
        return out


def check_svd(a: np.ndarray, out: dict[str, np.ndarray], left: str, right: str, p: Precision) -> None:
    m, n = a.shape[1:]
    k = min(m, n)
    s = out["S"]
    assert np.all(np.diff(s, axis=1) <= 0) and np.all(s >= 0), "singular values must be descending, >= 0"
    assert close_values(s, singvals(a), norm2(a), p, max(m, n))
    u = out["U"] if left in "AS" else out["A"][:, :, :k] if left == "O" else None
    vh = out["V"] if right in "AS" else out["A"][:, :k, :] if right == "O" else None
    for q in (u, vh):
        if q is not None:
            assert rt.orthogonality_ratio(q, precision=p) < THRESHOLD
    if u is not None and vh is not None:
        assert rt.svd_residual_ratio(a, u, s, vh, precision=p) < THRESHOLD


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_gesvd(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    m, n = data.draw(small), data.draw(small)
    left, right = data.draw(st.sampled_from("ASON")), data.draw(st.sampled_from("ASON"))
    if left == right == "O":
        right = "N"
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    out = run_svd(handle, "gesvd", p, flavour, a, left, right, lda, data.draw(st.integers(0, 2)), gap)
    if not (batch and m and n):
        return
    assert np.array_equal(out["info"], np.zeros(batch)) and not out["E"].any()
    check_svd(a, out, left, right, p)


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_gesvdj(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    m, n = data.draw(small), data.draw(small)
    left, right = data.draw(st.sampled_from("ASN")), data.draw(st.sampled_from("ASN"))
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    out = run_svd(handle, "gesvdj", p, flavour, a, left, right, lda, data.draw(st.integers(0, 2)), gap)
    if not batch:
        return
    assert np.array_equal(out["info"], np.zeros(batch))
    if not (m and n):
        assert not out["residual"].any() and not out["n_sweeps"].any()
        return
    gram = np.sqrt((np.abs(wide(a) @ np.swapaxes(wide(a), 1, 2).conj()) ** 2).sum(axis=(1, 2)))
    assert np.all(out["residual"] <= 2 * p.real.eps * gram + 1e-30)
    check_svd(a, out, left, right, p)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("m", "n"), [(70, 70), (90, 66), (66, 90)])
def test_gesvd_larger_entries(handle: Any, p: Precision, m: int, n: int) -> None:
    a = random(p, (2, m, n), np.random.default_rng(m * n))
    for left, right in (("A", "A"), ("S", "O"), ("N", "N")):
        out = run_svd(handle, "gesvd", p, "batched", a, left, right, m + 1, pad=1)
        assert not out["info"].any()
        check_svd(a, out, left, right, p)


@pytest.mark.parametrize("routine", ("gesvd", "gesvdj"))
@pytest.mark.parametrize("p", (D, Z))
def test_rank_deficient_svd(handle: Any, p: Precision, routine: str) -> None:
    rng = np.random.default_rng(4)
    m, n, r = 11, 7, 3
    a = (wide(random(p, (2, m, r), rng)) @ wide(random(p, (2, r, n), rng))).astype(p.dtype)
    out = run_svd(handle, routine, p, "strided", a, "A", "A", m)
    assert not out["info"].any()
    check_svd(a, out, "A", "A", p)
    assert np.all(out["S"][:, r:] <= 50 * p.eps * out["S"][:, :1])


# --- reductions: sytd2/sytrd, gebd2/gebrd ------------------------------------------------------------


@settings(max_examples=rt.examples(24))
@given(st.data())
def test_sytrd(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(("sytrd", "sytd2")))
    n, uplo = data.draw(small), data.draw(st.sampled_from("UL"))
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a = hermitian(p, batch, n, rng)
    real = p.real.dtype
    A = Matrix(with_junk(a, uplo, rng), lda, flavour, gap)
    Dv, Ev = Vector(np.zeros((batch, n), real), flavour, gap), Vector(np.zeros((batch, max(n - 1, 0)), real), flavour)
    tau = Vector(np.zeros((batch, max(n - 1, 0)), p.dtype), flavour, gap)
    with closing(A, Dv, Ev, tau):
        call(handle, routine, p, flavour, batch, uplo=uplo, n=n, A=A, D=Dv, E=Ev, tau=tau)
        for x in (A, Dv, Ev, tau):
            x.check()
        got, d, e, t = A.get(), Dv.get(), Ev.get(), tau.get()
    if not (batch and n):
        return
    # sytrd: LAPACK's own routine on the same data gives the same bits; T has A's eigenvalues.
    f = lapack.get_lapack_funcs("hetrd" if p.is_complex else "sytrd", dtype=p.dtype)
    for j in range(batch):
        if routine == "sytrd":
            ref = f(np.asfortranarray(a[j]), lower=uplo == "L", lwork=max(1, n * 64))
            part = np.triu if uplo == "U" else np.tril  # the reflectors; the other triangle is untouched junk
            assert np.array_equal(part(ref[0]), part(got[j])) and np.array_equal(ref[1], d[j])
            assert np.array_equal(ref[2], e[j]) and np.array_equal(ref[3], t[j])
        tri = np.diag(wide(d[j])) + np.diag(wide(e[j]), 1) + np.diag(wide(e[j]), -1)
        assert close_values(np.linalg.eigvalsh(tri)[None], eigvals(a[j:j + 1]), norm2(a[j:j + 1]), p, n)
    assert got.shape == a.shape


@settings(max_examples=rt.examples(24))
@given(st.data())
def test_gebrd(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(("gebrd", "gebd2")))
    m, n = data.draw(small), data.draw(small)
    k = min(m, n)
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    real = p.real.dtype
    A = Matrix(a, lda, flavour, gap)
    Dv, Ev = Vector(np.zeros((batch, k), real), flavour, gap), Vector(np.zeros((batch, max(k - 1, 0)), real), flavour)
    tq, tp = Vector(np.zeros((batch, k), p.dtype), flavour, gap), Vector(np.zeros((batch, k), p.dtype), flavour)
    with closing(A, Dv, Ev, tq, tp):
        call(handle, routine, p, flavour, batch, m=m, n=n, A=A, D=Dv, E=Ev, tauq=tq, taup=tp)
        for x in (A, Dv, Ev, tq, tp):
            x.check()
        d, e = Dv.get(), Ev.get()
    if not (batch and k):
        return
    # B (upper when m >= n, lower otherwise) has A's singular values
    off = 1 if m >= n else -1
    bidiag = np.stack([np.diag(wide(d[j])) + np.diag(wide(e[j]), off) for j in range(batch)])
    assert close_values(singvals(bidiag), singvals(a), norm2(a), p, max(m, n))


# --- tridiagonal / bidiagonal auxiliaries ----------------------------------------------------------------


def tridiagonal(p: Precision, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    real = p.real.dtype
    return rng.uniform(-1, 1, n).astype(real), rng.uniform(-1, 1, max(n - 1, 0)).astype(real)


TRIDIAGONAL = [(p, r, ev) for p in SDCZ for r in ("sterf", "steqr", "stedc")
               for ev in ("none", "original", "tridiagonal") if r != "sterf" or (not p.is_complex and ev == "none")]


@pytest.mark.parametrize(("p", "routine", "evect"), TRIDIAGONAL, ids=lambda x: getattr(x, "letter", x))
@pytest.mark.parametrize("n", (0, 1, 2, 9, 40))
def test_tridiagonal_eigensolvers(handle: Any, p: Precision, routine: str, evect: str, n: int) -> None:
    rng = np.random.default_rng(n)
    d, e = tridiagonal(p, n, rng)
    q = unitary(p, n, rng).astype(p.dtype) if n else np.zeros((0, 0), p.dtype)
    Dv, Ev, info = Vector(d[None], "plain"), Vector(e[None], "plain"), per_entry(1, np.int32)
    C = Matrix(q[None], n + 2, "plain")
    with closing(Dv, Ev, info, C):
        if routine == "sterf":
            fn(routine, p)(handle, n, Dv.arg, Ev.arg, info.ptr)
        else:
            code = {"none": 213, "original": 211, "tridiagonal": 212}[evect]
            fn(routine, p)(handle, code, n, Dv.arg, Ev.arg, C.arg, n + 2, info.ptr)
        C.check(logical=evect == "none")
        w, z = Dv.get()[0], C.get()[0]
        assert info.get()[0, 0] == 0
    if n == 0:
        return
    t = np.diag(wide(d)) + np.diag(wide(e), 1) + np.diag(wide(e), -1)
    assert np.all(np.diff(w) >= 0)
    assert close_values(w[None], np.linalg.eigvalsh(t)[None], norm2(t[None]), p, n)
    if evect == "tridiagonal":
        check_eigen(t[None], w[None], z[None], p)
    elif evect == "original":  # C := Q Z: the eigenvectors of Q T Q^H
        check_eigen((wide(q) @ t @ wide(q).conj().T)[None], w[None], z[None], p)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("uplo", "UL")
@pytest.mark.parametrize("n", (1, 2, 8, 30))
def test_bdsqr(handle: Any, p: Precision, uplo: str, n: int) -> None:
    rng = np.random.default_rng(n)
    d, e = tridiagonal(p, n, rng)
    b = np.diag(wide(d)) + np.diag(wide(e), 1 if uplo == "U" else -1)
    nv, nu, nc = n, n + 2, 3
    v0, u0, c0 = np.eye(n, nv, dtype=p.dtype), np.eye(nu, n, dtype=p.dtype), random(p, (n, nc), rng)
    Dv, Ev, info = Vector(d[None], "plain"), Vector(e[None], "plain"), per_entry(1, np.int32)
    V, U, C = Matrix(v0[None], n + 1, "plain"), Matrix(u0[None], nu, "plain"), Matrix(c0[None], n, "plain")
    with closing(Dv, Ev, info, V, U, C):
        fn("bdsqr", p)(handle, uplo, n, nv, nu, nc, Dv.arg, Ev.arg, V.arg, n + 1, U.arg, nu, C.arg, n, info.ptr)
        for x in (V, U, C):
            x.check()
        s, vh, u, c = Dv.get()[0], V.get()[0], U.get()[0], C.get()[0]
        assert info.get()[0, 0] == 0
    assert np.all(np.diff(s) <= 0) and np.all(s >= 0)
    assert close_values(s[None], singvals(b[None]), norm2(b[None]), p, n)
    # U(top n rows) S V^H reproduces B; C := Q^H C with B = Q S P^H
    assert rt.svd_residual_ratio(b[None], u[None, :n], s[None], vh[None], precision=p) < THRESHOLD
    assert np.allclose(wide(c), wide(u[:n]).conj().T @ wide(c0), atol=THRESHOLD * n * p.eps)


def test_bdsqr_nan_input(handle: Any) -> None:
    d, e = np.array([1.0, np.nan, 2.0]), np.array([0.5, 0.5])
    Dv, Ev, info = Vector(d[None], "plain"), Vector(e[None], "plain"), per_entry(1, np.int32)
    with closing(Dv, Ev, info):
        solver.dbdsqr(handle, "U", 3, 0, 0, 0, Dv.arg, Ev.arg, None, 1, None, 1, None, 1, info.ptr)
        assert np.isnan(Dv.get()).all() and np.isnan(Ev.get()).all() and info.get()[0, 0] == 3


# --- many small entries, determinism --------------------------------------------------------------


@pytest.mark.parametrize("routine", ("syevd", "syevj", "gesvd"))
def test_large_batches_are_bitwise_deterministic(handle: Any, routine: str) -> None:
    # Entries are split over threads; the split must not change any bit.
    rng = np.random.default_rng(8)
    batch, n = 1500, 8
    a = hermitian(D, batch, n, rng)
    if routine == "gesvd":
        first = run_svd(handle, "gesvd", D, "strided", a, "S", "S", n)
        again = run_svd(handle, "gesvd", D, "batched", a[:7], "S", "S", n)
        assert all(np.array_equal(first[k][:7], again[k]) for k in ("S", "U", "V"))
        check_svd(a[:50], {k: v[:50] for k, v in first.items()}, "S", "S", D)
        return
    if routine == "syevj":
        w, v, info, _, _ = run_syevj(handle, D, "strided", a, n, "L", True, True, 0.0, 100)
        w2, v2, _, _, _ = run_syevj(handle, D, "plain", a[5:6], n, "L", True, True, 0.0, 100)
    else:
        v, w, _, info = run_syev(handle, routine, D, "strided", a, n, "L", True)
        v2, w2, _, _ = run_syev(handle, routine, D, "plain", a[5:6], n, "L", True)
    assert not info.any() and np.array_equal(w[5], w2[0]) and np.array_equal(v[5], v2[0])
    check_eigen(a[:50], w[:50], v[:50], D)


@pytest.mark.slow
@pytest.mark.parametrize("p", (D, Z))
def test_one_large_matrix(handle: Any, p: Precision) -> None:
    n = 512
    rng = np.random.default_rng(0)
    a = hermitian(p, 1, n, rng)
    v, w, _, info = run_syev(handle, "syevd", p, "plain", a, n, "U", True)
    assert info[0] == 0
    check_eigen(a, w, v, p)
    b = random(p, (1, n, n), rng)
    out = run_svd(handle, "gesvd", p, "plain", b, "A", "A", n)
    check_svd(b, out, "A", "A", p)


# --- quick returns -------------------------------------------------------------------------------


def test_quick_returns_follow_rocsolver(handle: Any) -> None:
    info, res, sweeps = per_entry(2, np.int32), per_entry(2, np.float64), per_entry(2, np.int32)
    with closing(info, res, sweeps):
        # an empty gesvd (and bdsqr) touches nothing, info included
        solver.dgesvd_strided_batched(handle, 194, 194, 0, 3, A=None, lda=1, strideA=0, S=None, strideS=1, U=None,
                                      ldu=1, strideU=1, V=None, ldv=1, strideV=1, E=None, strideE=1, fast_alg=201,
                                      info=info.ptr, batch_count=2)
        solver.dbdsqr(handle, "U", 0, 0, 0, 0, None, None, None, 1, None, 1, None, 1, info.ptr)
        info.check_untouched(logical=False)
        assert np.all(info.get() != 0)
        # an empty syev sets info := 0
        solver.dsyev_strided_batched(handle, 213, "L", 0, None, 1, 1, None, 1, None, 1, info.ptr, 2)
        assert not info.get().any()
        # an empty syevj also zeroes residual and n_sweeps
        solver.dsyevj_strided_batched(handle, 252, 213, "L", 0, None, 1, 1, 0.0, res.ptr, 5, sweeps.ptr, None, 1,
                                      info.ptr, 2)
        assert not res.get().any() and not sweeps.get().any()
        # batch_count == 0: nothing, null pointers fine
        solver.zheevd_batched(handle, 211, "U", 0, None, 4, None, 4, None, 4, None, 0)


def test_steqr_n1_sets_c_to_one(handle: Any) -> None:
    Dv, Ev, info = Vector(np.array([[2.5]]), "plain"), Vector(np.zeros((1, 0)), "plain"), per_entry(1, np.int32)
    C = Matrix(np.array([[[7.0]]]), 1, "plain")
    with closing(Dv, Ev, info, C):
        solver.dsteqr(handle, 211, 1, Dv.arg, Ev.arg, C.arg, 1, info.ptr)
        assert C.get()[0, 0, 0] == 1 and Dv.get()[0, 0] == 2.5 and info.get()[0, 0] == 0


# --- argument checking ---------------------------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the exception
    class and the argument it names (and its position); nothing may change."""
    mats = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "B", "C", "U", "V")}
    vecs = {k: rt.poisoned_device_vector(np.zeros(4)) for k in ("D", "E", "S", "W", "tau", "tauq", "taup",
                                                                "residual")}
    ints = {k: rt.poisoned_device_vector(np.zeros(1, np.int32)) for k in ("info", "n_sweeps")}

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(uplo="L", evect=211, esort=252, itype=221, left_svect=191, right_svect=191,
                                    fast_alg=201, m=4, n=4, nv=4, nu=4, nc=4, lda=4, ldb=4, ldc=4, ldu=4, ldv=4,
                                    abstol=0.0, max_sweeps=10, batch_count=1)
        for key in ("strideA", "strideB", "strideU", "strideV"):
            base[key] = 16
        for key in ("strideD", "strideE", "strideS", "strideW", "strideP", "strideQ"):
            base[key] = 4
        for group in (mats, vecs, ints):
            base.update({k: v.ptr for k, v in group.items()})
        f = getattr(solver, routine + SUFFIX[flavour])
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{p: changes.get(p, base[p]) for p in params})
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in (*mats.values(), *vecs.values(), *ints.values()):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), *vecs.values(), *ints.values()):
        buf.close()


BAD_ARGUMENTS = [
    # syev/syevd: evect, uplo (values), n, lda (sizes), A, D, E, info (pointers)
    ("dsyev", VALUE, "evect", dict(evect=212)),  # tridiagonal is not supported
    ("dsyev", VALUE, "uplo", dict(uplo=123)),
    ("dsyevd", SIZE, "n", dict(n=-1)),
    ("dsyevd", SIZE, "lda", dict(lda=3)),
    ("zheevd", POINTER, "A", dict(A=None)),
    ("dsyev", POINTER, "D", dict(D=None)),
    ("dsyev", POINTER, "E", dict(E=None)),
    ("cheev", POINTER, "info", dict(info=None)),
    ("dsyev", POINTER, "info", dict(n=0, A=None, D=None, E=None, info=None)),
    ("dsyev", VALUE, "evect", dict(evect=212, n=-1, A=None)),  # values before sizes before pointers
    ("dsyevd", SIZE, "lda", dict(lda=2, A=None)),
    # syevj: esort first, max_sweeps a size, residual and n_sweeps needed even for n = 0
    ("dsyevj", VALUE, "esort", dict(esort=250, evect=0)),
    ("dsyevj", VALUE, "evect", dict(evect=212)),
    ("dsyevj", SIZE, "max_sweeps", dict(max_sweeps=0)),
    ("dsyevj", POINTER, "W", dict(W=None)),
    ("dsyevj", POINTER, "residual", dict(n=0, A=None, W=None, residual=None)),
    ("zheevj", POINTER, "n_sweeps", dict(n_sweeps=None)),
    # sygv: itype, evect, uplo; n, lda, ldb; A, B, D, E, info
    ("dsygv", VALUE, "itype", dict(itype=224, evect=0)),
    ("dsygv", VALUE, "evect", dict(evect=212)),
    ("dsygv", VALUE, "uplo", dict(uplo=123)),
    ("dsygv", SIZE, "ldb", dict(ldb=3)),
    ("zhegv", POINTER, "B", dict(B=None)),
    ("dsygv", POINTER, "E", dict(E=None)),
    # gesvd: both overwrite is invalid_value; sizes n, m, lda, ldu, ldv; pointers by need
    ("dgesvd", VALUE, "left_svect", dict(left_svect=190)),
    ("dgesvd", VALUE, "right_svect", dict(left_svect=193, right_svect=193)),
    ("dgesvd", SIZE, "n", dict(n=-1, m=-1)),
    ("dgesvd", SIZE, "lda", dict(lda=3)),
    ("dgesvd", SIZE, "ldu", dict(ldu=3)),
    ("dgesvd", SIZE, "ldv", dict(ldv=3)),
    ("dgesvd", SIZE, "ldv", dict(right_svect=192, m=3, lda=3, ldv=2)),
    ("dgesvd", POINTER, "A", dict(A=None)),
    ("dgesvd", POINTER, "E", dict(E=None)),
    ("dgesvd", POINTER, "S", dict(S=None)),
    ("dgesvd", POINTER, "U", dict(U=None)),
    ("dgesvd", POINTER, "V", dict(V=None)),
    ("zgesvd", POINTER, "info", dict(info=None)),
    # ldu/ldv only matter for vectors that are stored there
    ("dgesvd", POINTER, "A", dict(left_svect=194, right_svect=193, ldu=1, ldv=1, U=None, V=None, A=None)),
    # gesvdj: overwrite is not accepted
    ("dgesvdj", VALUE, "left_svect", dict(left_svect=193)),
    ("dgesvdj", VALUE, "right_svect", dict(right_svect=193)),
    ("dgesvdj", SIZE, "max_sweeps", dict(max_sweeps=-1)),
    ("dgesvdj", POINTER, "residual", dict(residual=None)),
    ("dgesvdj", POINTER, "V", dict(V=None)),
    # reductions
    ("dsytrd", VALUE, "uplo", dict(uplo="X")),
    ("dsytd2", SIZE, "lda", dict(lda=3)),
    ("chetrd", POINTER, "tau", dict(tau=None)),
    ("dsytrd", POINTER, "D", dict(n=1, lda=1, D=None, E=None, tau=None)),
    ("dgebrd", SIZE, "m", dict(m=-1)),
    ("dgebd2", POINTER, "tauq", dict(tauq=None)),
    ("zgebrd", POINTER, "E", dict(E=None)),
    # tridiagonal / bidiagonal
    ("dsterf", SIZE, "n", dict(n=-1)),
    ("dsterf", POINTER, "info", dict(n=0, D=None, E=None, info=None)),
    ("dsteqr", VALUE, "evect", dict(evect=214)),
    ("dsteqr", SIZE, "ldc", dict(ldc=3)),
    ("zstedc", POINTER, "C", dict(C=None)),
    ("dbdsqr", VALUE, "uplo", dict(uplo=123)),
    ("dbdsqr", SIZE, "nc", dict(nc=-1)),
    ("dbdsqr", SIZE, "ldu", dict(ldu=3)),
    ("dbdsqr", SIZE, "ldc", dict(ldc=3)),
    ("dbdsqr", POINTER, "V", dict(V=None)),
    ("dbdsqr", POINTER, "info", dict(n=0, info=None)),
]


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("dsyev", "zheevd", "dsyevj", "dsygv", "dgesvd", "cgesvdj", "dsytrd", "dgebrd"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)


def test_fast_alg_is_not_validated(handle: Any) -> None:
    # rocSOLVER only compares fast_alg with outofplace: any value runs.
    a = random(D, (1, 4, 3), np.random.default_rng(0))
    A, S, info = Matrix(a, 4, "plain"), Vector(np.zeros((1, 3)), "plain"), per_entry(1, np.int32)
    E = Vector(np.zeros((1, 2)), "plain")
    with closing(A, S, E, info):
        solver.dgesvd(handle, 194, 194, 4, 3, A.arg, 4, S.arg, None, 1, None, 1, E.arg, 12345, info.ptr)
        assert np.allclose(S.get()[0], np.linalg.svd(a[0], compute_uv=False))


def test_size_query_and_signatures(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert solver.dsyevd(handle, 211, "L", 512, None, 512, None, None, None) is RocblasStatus.size_increased
        assert solver.dsyevd(handle, 211, "L", 0, None, 1, None, None, None) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            solver.dgesvd(handle, 191, 191, 4, 4, None, 3, None, None, 4, None, 4, None, 201, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == ke.syev_workspace(512, 1, 8, 8, True, True)

    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(solver.dgesvd_batched) == [
        "handle", "left_svect", "right_svect", "m", "n", "A", "lda", "S", "strideS", "U", "ldu", "strideU", "V",
        "ldv", "strideV", "E", "strideE", "fast_alg", "info", "batch_count"]
    assert names(solver.zgesvdj_strided_batched) == [
        "handle", "left_svect", "right_svect", "m", "n", "A", "lda", "strideA", "abstol", "residual", "max_sweeps",
        "n_sweeps", "S", "strideS", "U", "ldu", "strideU", "V", "ldv", "strideV", "info", "batch_count"]
    assert names(solver.cheevj_batched) == [
        "handle", "esort", "evect", "uplo", "n", "A", "lda", "abstol", "residual", "max_sweeps", "n_sweeps", "W",
        "strideW", "info", "batch_count"]
    assert names(solver.dsygv_strided_batched) == [
        "handle", "itype", "evect", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "D", "strideD", "E",
        "strideE", "info", "batch_count"]
    assert names(solver.sgebrd_batched) == [
        "handle", "m", "n", "A", "lda", "D", "strideD", "E", "strideE", "tauq", "strideQ", "taup", "strideP",
        "batch_count"]
    assert names(solver.zhetrd_strided_batched) == [
        "handle", "uplo", "n", "A", "lda", "strideA", "D", "strideD", "E", "strideE", "tau", "strideP", "batch_count"]
    assert names(solver.dbdsqr) == ["handle", "uplo", "n", "nv", "nu", "nc", "D", "E", "V", "ldv", "U", "ldu", "C",
                                    "ldc", "info"]
    assert names(solver.cstedc) == ["handle", "evect", "n", "D", "E", "C", "ldc", "info"]
