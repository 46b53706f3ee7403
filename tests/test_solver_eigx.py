"""rocSOLVER's subset and generalized Jacobi eigensolvers (rocmath.solver.eigx): syevdx/heevdx, sygvdx/hegvdx,
sygvj/hegvj in every precision and flavour.

Operands are built with a known spectrum (eigenvalues on a grid of halves), so that a value range (vl, vu] drawn
between grid points has an exact eigenvalue count (nev); eigenvalues are compared with scipy.linalg.eigh
(subset_by_value / subset_by_index, type=itype) within ``THRESHOLD * n * eps`` of the problem's scale;
eigenvectors by LAPACK's ratios (``||A Z - Z diag(W)|| / (n ||A|| eps)`` and orthogonality, B-orthogonality for
the generalized problems) below 30.  Every operand lives in a poisoned allocation with one more entry than
batch_count: padding, batch gaps and the entry past batch_count must keep their bits; the triangle the routine
does not reference holds junk.  Argument errors follow rocSOLVER's argCheck order, one case per check.
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

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _kernels_eig as ke
from rocmath.solver import eigx

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
THRESHOLD = rt.RESIDUAL_THRESHOLD
EVECT = {True: 211, False: 213}
ERANGE = {"A": 231, "V": 232, "I": 233}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str) -> Callable[..., Any]:
    if p.is_complex:
        routine = "he" + routine[2:]
    return getattr(eigx, f"{p.letter}{routine}{SUFFIX[flavour]}")


# --- operands: one more entry than batch_count, everything poisoned -----------------------------------


class Matrix:
    """A (batch + extra, rows, cols) stack as a matrix argument: one pointer (plain, strided: entries
    ``ld * cols + gap`` apart) or a device array of entry pointers (batched)."""

    def __init__(self, host: np.ndarray, ld: int, flavour: str, gap: int = 0):
        self.ld, self.host, self.stride = ld, host, 0
        self.strided = flavour == "strided"
        if flavour == "plain":
            self.mats = [rt.poisoned_device_matrix(h, ld) for h in host]
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
        return np.stack([m.get() for m in self.mats]) if self.mats else self.host.copy()

    def check(self, batch: int) -> None:
        """Padding untouched; the entries past ``batch`` keep their values."""
        for m in self.mats:
            m.check_untouched()
        got = self.get()
        assert got[batch:].tobytes() == self.host[batch:].tobytes(), "an entry past batch_count was written"

    def close(self) -> None:
        for m in self.mats:
            m.close()


class Vector:
    """A (batch + extra, length) stack as W: one device array in every flavour, entries ``length + gap`` apart."""

    def __init__(self, host: np.ndarray, flavour: str, gap: int = 0):
        length = host.shape[1]
        self.host = host
        self.mat = rt.poisoned_device_matrix(host[:, :, None], max(1, length), stride=max(1, length) + gap)
        self.stride = 0 if flavour == "plain" else self.mat.stride
        self.arg = self.mat.ptr

    def get(self) -> np.ndarray:
        return self.mat.get()[..., 0]

    def check(self, batch: int) -> None:
        self.mat.check_untouched()
        assert self.get()[batch:].tobytes() == self.host[batch:].tobytes()

    def close(self) -> None:
        self.mat.close()


class PerEntry:
    """nev, info, residual or n_sweeps: batch + 1 poisoned values; the first batch must be written."""

    def __init__(self, batch: int, dtype: Any):
        self.batch = batch
        self.mat = rt.poisoned_device_matrix(np.zeros((batch + 1, 1), dtype))
        self.mat.poison()
        self.arg = self.mat.ptr

    def get(self) -> np.ndarray:
        values = self.mat.get()[:, 0]
        assert values[self.batch:].tobytes() == np.full(1, self.mat.sentinel).tobytes(), "written past batch_count"
        return values[: self.batch]

    def close(self) -> None:
        self.mat.close()


def invoke(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> Any:
    """Call with operands: a Matrix gives its pointer, ``ld<name>`` and ``stride<name>``; a Vector its pointer and
    strideW; a PerEntry its pointer."""
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


# --- data ----------------------------------------------------------------------------------------


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def unitary(p: Precision, n: int, rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if p.is_complex else 0)
    return np.linalg.qr(x)[0]


def spectrum(n: int, rng: np.random.Generator) -> np.ndarray:
    """n distinct eigenvalues on the grid of halves in [-n/2, n/2): value ranges between grid points have exact
    counts."""
    return np.sort(rng.permutation(np.arange(-n, n))[:n]) * 0.5


def hermitian(p: Precision, total: int, lam: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = lam.size
    out = []
    for _ in range(total):
        q = unitary(p, n, rng)
        out.append((q * lam) @ q.conj().T)
    return np.array(out, dtype=p.dtype).reshape(total, n, n)


def positive_definite(p: Precision, total: int, n: int, rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(-1, 1, (total, n, n)) + (1j * rng.uniform(-1, 1, (total, n, n)) if p.is_complex else 0)
    return (x @ np.swapaxes(x, 1, 2).conj() + n * np.eye(n)).astype(p.dtype)


def pencil(p: Precision, total: int, lam: np.ndarray, itype: int, rng: np.random.Generator) -> tuple[np.ndarray,
                                                                                                   np.ndarray]:
    """(A, B) whose generalized problem of type itype has eigenvalues lam: with B = L L^H and M = Q diag(lam) Q^H,
    A = L M L^H (ax) or inv(L^H) M inv(L) (abx, bax)."""
    n = lam.size
    b = positive_definite(p, total, n, rng)
    a = []
    for e in range(total):
        low = np.linalg.cholesky(wide(b[e]))
        q = unitary(p, n, rng)
        m = (q * lam) @ q.conj().T
        if itype == 1:
            x = low @ m @ low.conj().T
        else:
            li = np.linalg.inv(low)
            x = li.conj().T @ m @ li
        a.append((x + x.conj().T) / 2)
    return np.array(a, dtype=p.dtype).reshape(total, n, n), b


def with_junk(a: np.ndarray, uplo: str, rng: np.random.Generator) -> np.ndarray:
    """``a`` with the triangle the routine must not read replaced by junk."""
    n = a.shape[-1]
    keep = np.triu(np.ones((n, n), bool)) if uplo == "U" else np.tril(np.ones((n, n), bool))
    return np.where(keep, a, (1e3 * rng.standard_normal(a.shape)).astype(a.dtype))


@st.composite
def setup(draw: st.DrawFn) -> tuple[Precision, str, int, int, int]:
    """(precision, flavour, batch count, gap between strided entries, seed)."""
    p = draw(st.sampled_from(SDCZ))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, 3))
    return p, flavour, batch, draw(st.integers(0, 2)), draw(st.integers(0, 2**32 - 1))


@st.composite
def ranges(draw: st.DrawFn, n: int) -> tuple[str, float, float, int, int]:
    """(erange letter, vl, vu, il, iu): vl and vu halfway between grid points (or beyond the spectrum)."""
    erange = draw(st.sampled_from("AVI"))
    kl = draw(st.integers(-n - 1, n))
    ku = draw(st.integers(kl + 1, n + 1))
    il = draw(st.integers(1, max(n, 1))) if n else 1
    iu = draw(st.integers(il, n)) if n else 0
    return erange, kl * 0.5 + 0.25, ku * 0.5 + 0.25, il, iu


def reference(values: list[np.ndarray], erange: str, vl: float, vu: float, il: int, iu: int) -> list[np.ndarray]:
    """The selected eigenvalues of each entry, from all of them (ascending)."""
    if erange == "V":
        return [w[(w > vl) & (w <= vu)] for w in values]
    if erange == "I":
        return [w[il - 1:iu] for w in values]
    return values


def scipy_subset(a: np.ndarray, b: np.ndarray | None, itype: int, erange: str, vl: float, vu: float, il: int,
                 iu: int) -> np.ndarray:
    kw: dict[str, Any] = {}
    if erange == "V":
        kw["subset_by_value"] = (vl, vu)
    elif erange == "I":
        kw["subset_by_index"] = (il - 1, iu - 1)
    if b is None:
        return sl.eigh(wide(a), eigvals_only=True, **kw)
    return sl.eigh(wide(a), wide(b), type=itype, eigvals_only=True, **kw)


def check_generalized(a: np.ndarray, b: np.ndarray, w: np.ndarray, x: np.ndarray, itype: int, p: Precision) -> None:
    """LAPACK's residual of the pencil and the B-orthogonality (B^-1 for bax) of the eigenvectors x (n x k)."""
    n, k = x.shape
    if not k:
        return
    aw, bw, xw = wide(a), wide(b), wide(x)
    lhs = {1: aw @ xw, 2: aw @ bw @ xw, 3: bw @ aw @ xw}[itype]
    rhs = (bw @ xw if itype == 1 else xw) * w[None, :]
    norm = np.abs(aw).sum(axis=0).max() * np.abs(bw).sum(axis=0).max() * np.abs(xw).sum(axis=0).max()
    assert np.abs(lhs - rhs).sum(axis=0).max() <= THRESHOLD * n * p.eps * norm
    gram = xw.conj().T @ (np.linalg.inv(bw) if itype == 3 else bw) @ xw
    assert np.abs(gram - np.eye(k)).max() < THRESHOLD * n * p.eps * np.linalg.cond(bw)


small = rt.sizes(max_value=9)


# --- syevdx/heevdx ---------------------------------------------------------------------------------


def run_syevdx(handle: Any, p: Precision, flavour: str, a: np.ndarray, batch: int, lda: int, ldz: int, uplo: str,
               vectors: bool, rng_args: tuple[str, float, float, int, int], gap: int = 0,
               b: np.ndarray | None = None, ldb: int = 0, itype: int = 1) -> tuple[np.ndarray, ...]:
    """syevdx (b None) or sygvdx on the first ``batch`` entries of ``a`` (and ``b``); returns (nev, W, Z, info, B)."""
    total, n, _ = a.shape
    erange, vl, vu, il, iu = rng_args
    zcols = iu - il + 1 if erange == "I" and n else n
    real = p.real.dtype
    with ExitStack() as stack:
        A = stack.enter_context(_closing(Matrix(a, lda, flavour, gap)))
        W = stack.enter_context(_closing(Vector(np.full((total, n), 7, real), flavour, gap)))
        Zm = stack.enter_context(_closing(Matrix(np.full((total, n, zcols), 3, p.dtype), ldz, flavour, gap)))
        nev, info = (stack.enter_context(_closing(PerEntry(batch, np.int32))) for _ in range(2))
        args: dict[str, Any] = dict(evect=EVECT[vectors], erange=ERANGE[erange], uplo=uplo, n=n, A=A, vl=vl, vu=vu,
                                    il=il, iu=iu, nev=nev, W=W, Z=Zm, info=info)
        if b is None:
            invoke(handle, "syevdx", p, flavour, batch, **args)
        else:
            Bm = stack.enter_context(_closing(Matrix(b, ldb, flavour, gap)))
            invoke(handle, "sygvdx", p, flavour, batch, itype=220 + itype, B=Bm, **args)
            Bm.check(batch)
        A.check(batch)
        W.check(batch)
        Zm.check(batch)
        if not vectors:
            assert Zm.get().tobytes() == Zm.host.tobytes(), "Z is not referenced without vectors"
        return nev.get(), W.get()[:batch], Zm.get()[:batch], info.get()


class _closing:
    def __init__(self, operand: Any):
        self.operand = operand

    def __enter__(self) -> Any:
        return self.operand

    def __exit__(self, *exc: Any) -> None:
        self.operand.close()


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_syevdx(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    n = data.draw(small)
    lda, ldz = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    uplo, vectors = data.draw(st.sampled_from("UL")), data.draw(st.booleans())
    sel = data.draw(ranges(n))
    rng = np.random.default_rng(seed)
    lam = spectrum(n, rng)
    a = hermitian(p, batch + 1, lam, rng)
    nev, w, z, info = run_syevdx(handle, p, flavour, with_junk(a, uplo, rng), batch, lda, ldz, uplo, vectors, sel,
                                 gap)
    assert np.array_equal(info, np.zeros(batch))
    expected = reference([lam] * batch, *sel)
    assert nev.tolist() == [x.size for x in expected]
    for e in range(batch if n else 0):
        k = int(nev[e])
        ref = scipy_subset(a[e], None, 1, *sel)
        assert ref.size == k
        scale = np.linalg.norm(wide(a[e]), 2) + 1
        assert np.all(np.abs(w[e, :k] - ref) <= THRESHOLD * n * p.eps * scale)
        if vectors and k:
            assert rt.eigh_residual_ratio(a[e], w[e, :k], z[e][:, :k], precision=p) < THRESHOLD
            assert rt.orthogonality_ratio(z[e][:, :k], precision=p) < THRESHOLD


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_syevdx_larger_entries(handle: Any, p: Precision) -> None:
    # Orders past rocSOLVER's SYEVDX_MIN_DC_SIZE (16), repeated eigenvalues, a value range.
    rng = np.random.default_rng(3)
    n = 40
    lam = np.repeat(spectrum(n // 2, rng), 2)
    a = hermitian(p, 3, lam, rng)
    sel = ("V", -2.25, 3.25, 1, 0)
    nev, w, z, info = run_syevdx(handle, p, "strided", a, 2, n + 1, n + 2, "L", True, sel, 1)
    assert np.array_equal(info, [0, 0]) and nev.tolist() == [int(((lam > -2.25) & (lam <= 3.25)).sum())] * 2
    for e in range(2):
        k = int(nev[e])
        assert np.allclose(w[e, :k], scipy_subset(a[e], None, 1, *sel), atol=THRESHOLD * n * p.eps * n)
        assert rt.eigh_residual_ratio(a[e], w[e, :k], z[e][:, :k], precision=p) < THRESHOLD
        assert rt.orthogonality_ratio(z[e][:, :k], precision=p) < THRESHOLD


# --- sygvdx/hegvdx ---------------------------------------------------------------------------------


@settings(max_examples=rt.examples(36))
@given(st.data())
def test_sygvdx(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    n = data.draw(small)
    lda, ldb, ldz = (data.draw(rt.leading_dimensions(n, max_padding=2)) for _ in range(3))
    itype, uplo, vectors = data.draw(st.sampled_from((1, 2, 3))), data.draw(st.sampled_from("UL")), \
        data.draw(st.booleans())
    sel = data.draw(ranges(n))
    rng = np.random.default_rng(seed)
    lam = spectrum(n, rng)
    a, b = pencil(p, batch + 1, lam, itype, rng)
    nev, w, z, info = run_syevdx(handle, p, flavour, with_junk(a, uplo, rng), batch, lda, ldz, uplo, vectors, sel,
                                 gap, with_junk(b, uplo, rng), ldb, itype)
    assert np.array_equal(info, np.zeros(batch))
    expected = reference([lam] * batch, *sel)
    assert nev.tolist() == [x.size for x in expected]
    for e in range(batch if n else 0):
        k = int(nev[e])
        ref = scipy_subset(a[e], b[e], itype, *sel)
        assert ref.size == k
        scale = np.linalg.norm(wide(a[e]), 2) * np.linalg.norm(wide(b[e]), 2) + 1
        assert np.all(np.abs(w[e, :k] - ref) <= THRESHOLD * n * p.eps * scale)
        if vectors:
            check_generalized(a[e], b[e], w[e, :k], z[e][:, :k], itype, p)


def test_sygvdx_b_not_positive_definite(handle: Any) -> None:
    rng = np.random.default_rng(2)
    lam = spectrum(5, rng)
    a, b = pencil(D, 4, lam, 1, rng)
    b[1, 3, 3] = -100.0  # leading minor 4 fails
    nev, w, _, info = run_syevdx(handle, D, "batched", a, 3, 5, 5, "L", True, ("A", 0, 0, 1, 0), 0, b, 5, 1)
    assert info.tolist() == [0, 5 + 4, 0]
    assert nev.tolist() == [5, 0, 5]  # rocSOLVER's sygvx_update_info: nev = 0 with info > n
    assert np.allclose(w[0], lam) and np.allclose(w[2], lam)


# --- sygvj/hegvj -----------------------------------------------------------------------------------


def run_sygvj(handle: Any, p: Precision, flavour: str, a: np.ndarray, b: np.ndarray, batch: int, itype: int,
              uplo: str, vectors: bool, lda: int, ldb: int, abstol: float = 0.0, max_sweeps: int = 100,
              gap: int = 0) -> tuple[np.ndarray, ...]:
    total, n, _ = a.shape
    real = p.real.dtype
    with ExitStack() as stack:
        A = stack.enter_context(_closing(Matrix(a, lda, flavour, gap)))
        Bm = stack.enter_context(_closing(Matrix(b, ldb, flavour, gap)))
        W = stack.enter_context(_closing(Vector(np.full((total, n), 7, real), flavour, gap)))
        info, sweeps = (stack.enter_context(_closing(PerEntry(batch, np.int32))) for _ in range(2))
        res = stack.enter_context(_closing(PerEntry(batch, real)))
        invoke(handle, "sygvj", p, flavour, batch, itype=220 + itype, evect=EVECT[vectors], uplo=uplo, n=n, A=A,
               B=Bm, abstol=abstol, residual=res, max_sweeps=max_sweeps, n_sweeps=sweeps, W=W, info=info)
        for x in (A, Bm, W):
            x.check(batch)
        return A.get()[:batch], W.get()[:batch], info.get(), res.get(), sweeps.get()


@settings(max_examples=rt.examples(36))
@given(st.data())
def test_sygvj(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    n = data.draw(small)
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    itype, uplo, vectors = data.draw(st.sampled_from((1, 2, 3))), data.draw(st.sampled_from("UL")), \
        data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    a, b = pencil(p, batch + 1, spectrum(n, rng), itype, rng)
    x, w, info, res, sweeps = run_sygvj(handle, p, flavour, with_junk(a, uplo, rng), with_junk(b, uplo, rng), batch,
                                        itype, uplo, vectors, lda, ldb, gap=gap)
    assert np.array_equal(info, np.zeros(batch))
    if not n:
        assert not res.any() and not sweeps.any()
        return
    assert np.all(sweeps <= 100) and np.all(res >= 0)
    for e in range(batch):
        ref = sl.eigh(wide(a[e]), wide(b[e]), type=itype, eigvals_only=True)
        scale = np.linalg.norm(wide(a[e]), 2) * np.linalg.norm(wide(b[e]), 2) + 1
        assert np.all(np.abs(w[e] - ref) <= THRESHOLD * n * p.eps * scale)
        if vectors:
            check_generalized(a[e], b[e], w[e], x[e], itype, p)


def test_sygvj_max_sweeps_and_b_not_positive_definite(handle: Any) -> None:
    rng = np.random.default_rng(4)
    a, b = pencil(Z, 3, spectrum(6, rng), 2, rng)
    _, _, info, res, sweeps = run_sygvj(handle, Z, "strided", a, b, 2, 2, "U", False, 6, 6, abstol=1e-300,
                                        max_sweeps=1)
    assert info.tolist() == [1, 1] and sweeps.tolist() == [1, 1] and np.all(res > 0)
    b[0, 2, 2] = -50.0
    _, _, info, _, _ = run_sygvj(handle, Z, "batched", a, b, 2, 1, "U", True, 6, 6)
    assert info.tolist() == [6 + 3, 0]


def test_sygvj_n1(handle: Any) -> None:
    a, b = np.array([[[3.0]], [[0.0]]]), np.array([[[4.0]], [[0.0]]])
    x, w, info, res, sweeps = run_sygvj(handle, D, "plain", a, b, 1, 1, "L", True, 1, 1)
    assert w[0, 0] == 0.75 and x[0, 0, 0] == 0.5 and info[0] == 0 and res[0] == 0 and sweeps[0] == 0


# --- quick returns ---------------------------------------------------------------------------------


def test_quick_returns_follow_rocsolver(handle: Any) -> None:
    nev, info, res, sweeps = PerEntry(2, np.int32), PerEntry(2, np.int32), PerEntry(2, np.float64), \
        PerEntry(2, np.int32)
    try:
        # n = 0: info and nev := 0 (nothing else needed: null A, W, Z)
        eigx.dsyevdx_strided_batched(handle, 211, 233, "L", 0, None, 1, 1, 0.0, 0.0, 1, 0, nev.arg, None, 1, None, 1,
                                     1, info.arg, 2)
        assert not nev.get().any() and not info.get().any()
        nev.mat.poison()
        info.mat.poison()
        eigx.chegvdx_batched(handle, 223, 213, 231, "U", 0, None, 1, None, 1, 0.0, 0.0, 0, 0, nev.arg, None, 1, None,
                             1, info.arg, 2)
        assert not nev.get().any() and not info.get().any()
        # sygvj n = 0 also zeroes residual and n_sweeps
        info.mat.poison()
        eigx.dsygvj_strided_batched(handle, 221, 211, "L", 0, None, 1, 1, None, 1, 1, 0.0, res.arg, 5, sweeps.arg,
                                    None, 1, info.arg, 2)
        assert not res.get().any() and not sweeps.get().any() and not info.get().any()
        # batch_count = 0: nothing happens; nev, info, residual and n_sweeps may be null, but A, B, W and Z are
        # checked by n alone (rocSOLVER's ``n && !A``)
        for m in (nev, info, res, sweeps):
            m.mat.poison()
        mat, vec = rt.poisoned_device_matrix(np.eye(4), 4), rt.poisoned_device_vector(np.zeros(4))
        with mat, vec:
            eigx.dsyevdx_batched(handle, 211, 231, "U", 4, mat.ptr, 4, 0.0, 0.0, 0, 0, None, vec.ptr, 4, mat.ptr, 4,
                                 None, 0)
            eigx.dsygvdx_strided_batched(handle, 221, 211, 232, "U", 4, mat.ptr, 4, 16, mat.ptr, 4, 16, 0.0, 1.0, 0,
                                         0, None, vec.ptr, 4, mat.ptr, 4, 16, None, 0)
            eigx.dsygvj_batched(handle, 221, 211, "U", 4, mat.ptr, 4, mat.ptr, 4, 0.0, None, 5, None, vec.ptr, 4,
                                None, 0)
            with pytest.raises(RocblasInvalidPointerError):
                eigx.dsyevdx_batched(handle, 211, 231, "U", 4, None, 4, 0.0, 0.0, 0, 0, None, vec.ptr, 4, mat.ptr,
                                     4, None, 0)
            mat.check_untouched(logical=True)
            vec.check_untouched(logical=True)
        for m in (nev, info, res, sweeps):
            m.mat.check_untouched(logical=True)
    finally:
        for m in (nev, info, res, sweeps):
            m.close()


# --- argument checking -----------------------------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a routine with valid 4x4 arguments but the given changes; expect the exception class and the
    argument it names (and its position); nothing may change."""
    mats = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "B", "Z")}
    vecs = {k: rt.poisoned_device_vector(np.zeros(4)) for k in ("W", "residual")}
    ints = {k: rt.poisoned_device_vector(np.zeros(1, np.int32)) for k in ("info", "nev", "n_sweeps")}

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(itype=221, evect=211, erange=231, uplo="L", n=4, lda=4, ldb=4, ldz=4, vl=0.0,
                                    vu=1.0, il=1, iu=4, abstol=0.0, max_sweeps=10, batch_count=1, strideA=16,
                                    strideB=16, strideZ=16, strideW=4)
        for group in (mats, vecs, ints):
            base.update({k: v.ptr for k, v in group.items()})
        f = getattr(eigx, routine + SUFFIX[flavour])
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{q: changes.get(q, base[q]) for q in params})
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in (*mats.values(), *vecs.values(), *ints.values()):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), *vecs.values(), *ints.values()):
        buf.close()


# rocsolver_syevdx_heevdx_argCheck, roclapack_syevdx_heevdx.hpp: one case per check, in its order.
SYEVDX_CHECKS = [
    (VALUE, "evect", dict(evect=212, erange=0, uplo=0, n=-1, A=None)),
    (VALUE, "erange", dict(erange=234, uplo=0, n=-1)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1, lda=-5)),
    (SIZE, "lda", dict(lda=3, ldz=3)),
    (SIZE, "ldz", dict(ldz=3, erange=232, vl=1.0, vu=0.0)),
    (SIZE, "vl", dict(erange=232, vl=1.0, vu=1.0, A=None)),
    (SIZE, "il", dict(erange=233, il=0, iu=-1)),
    (SIZE, "iu", dict(erange=233, il=1, iu=-1)),
    (SIZE, "iu", dict(erange=233, il=1, iu=5)),
    (SIZE, "il", dict(erange=233, il=3, iu=2, A=None)),
    (POINTER, "A", dict(A=None, W=None)),
    (POINTER, "W", dict(W=None, nev=None)),
    (POINTER, "nev", dict(nev=None, info=None, Z=None)),
    (POINTER, "info", dict(info=None, Z=None)),
    (POINTER, "Z", dict(Z=None)),
]
# rocsolver_sygvdx_hegvdx_argCheck: itype first, ldb after lda, B after A.
SYGVDX_CHECKS = [
    (VALUE, "itype", dict(itype=224, evect=0)),
    (VALUE, "evect", dict(evect=212, erange=0)),
    (VALUE, "erange", dict(erange=230, uplo=0)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1)),
    (SIZE, "lda", dict(lda=3, ldb=3)),
    (SIZE, "ldb", dict(ldb=3, ldz=3)),
    (SIZE, "ldz", dict(ldz=3, erange=233, il=0)),
    (SIZE, "vl", dict(erange=232, vl=2.0, vu=1.0)),
    (SIZE, "il", dict(erange=233, il=0, iu=0)),
    (SIZE, "iu", dict(erange=233, iu=-1)),
    (SIZE, "iu", dict(erange=233, il=1, iu=6)),
    (SIZE, "il", dict(erange=233, il=4, iu=3)),
    (POINTER, "A", dict(A=None, B=None)),
    (POINTER, "B", dict(B=None, W=None)),
    (POINTER, "W", dict(W=None, nev=None)),
    (POINTER, "nev", dict(nev=None, info=None)),
    (POINTER, "info", dict(info=None, Z=None)),
    (POINTER, "Z", dict(Z=None)),
]
# rocsolver_sygvj_hegvj_argCheck: max_sweeps is a size, checked before batch_count; abstol is not checked.
SYGVJ_CHECKS = [
    (VALUE, "itype", dict(itype=220, evect=0)),
    (VALUE, "evect", dict(evect=212, uplo=0)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1)),
    (SIZE, "lda", dict(lda=3, ldb=3)),
    (SIZE, "ldb", dict(ldb=3, max_sweeps=0)),
    (SIZE, "max_sweeps", dict(max_sweeps=0, A=None)),
    (POINTER, "A", dict(A=None, B=None)),
    (POINTER, "B", dict(B=None, W=None)),
    (POINTER, "W", dict(W=None, residual=None)),
    (POINTER, "residual", dict(residual=None, n_sweeps=None)),
    (POINTER, "n_sweeps", dict(n_sweeps=None, info=None)),
    (POINTER, "info", dict(info=None)),
]
BAD_ARGUMENTS = ([("dsyevdx", *x) for x in SYEVDX_CHECKS] + [("zhegvdx", *x) for x in SYGVDX_CHECKS]
                 + [("ssygvj", *x) for x in SYGVJ_CHECKS] + [
    # pointers only where the sizes need them
    ("dsyevdx", POINTER, "nev", dict(n=0, A=None, W=None, Z=None, nev=None)),
    ("chegvj", POINTER, "residual", dict(n=0, A=None, B=None, W=None, residual=None)),
    ("dsygvdx", POINTER, "info", dict(evect=213, Z=None, ldz=1, info=None)),  # no Z nor ldz check without vectors
    ("dsyevdx", POINTER, "A", dict(erange=233, vl=1.0, vu=0.0, A=None)),  # vl, vu ignored unless erange value
    ("dsyevdx", POINTER, "A", dict(erange=231, il=0, iu=-3, A=None)),  # il, iu ignored unless erange index
])


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("dsyevdx", "cheevdx", "dsygvdx", "zhegvdx", "ssygvj", "chegvj"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)
        bad(routine, flavour, POINTER, "info", info=None, Z=None, evect=213)
    bad("dsyevdx", flavour, SIZE, "batch_count", batch_count=-1, erange=232, vl=1.0, vu=1.0)  # before vl, vu


def test_size_query_and_signatures(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert eigx.dsyevdx(handle, 211, 231, "L", 64, None, 64, 0.0, 0.0, 0, 0, None, None, None, 64,
                            None) is RocblasStatus.size_increased
        assert eigx.dsyevdx(handle, 211, 231, "L", 0, None, 1, 0.0, 0.0, 0, 0, None, None, None, 1,
                            None) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            eigx.dsygvj(handle, 221, 211, "L", 4, None, 4, None, 4, 0.0, None, 0, None, None, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == 2 * 64 * 8 + ke.syev_workspace(64, 1, 8, 8, True, True)  # D, E and syevd's

    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    # rocsolver-functions.h
    assert names(eigx.zheevdx_batched) == [
        "handle", "evect", "erange", "uplo", "n", "A", "lda", "vl", "vu", "il", "iu", "nev", "W", "strideW", "Z",
        "ldz", "info", "batch_count"]
    assert names(eigx.ssygvdx_strided_batched) == [
        "handle", "itype", "evect", "erange", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "vl", "vu",
        "il", "iu", "nev", "W", "strideW", "Z", "ldz", "strideZ", "info", "batch_count"]
    assert names(eigx.chegvj_strided_batched) == [
        "handle", "itype", "evect", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB", "abstol", "residual",
        "max_sweeps", "n_sweeps", "W", "strideW", "info", "batch_count"]
    assert names(eigx.dsygvj) == ["handle", "itype", "evect", "uplo", "n", "A", "lda", "B", "ldb", "abstol",
                                  "residual", "max_sweeps", "n_sweeps", "W", "info"]
    assert len(eigx.__all__) == 36
