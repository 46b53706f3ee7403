"""rocSOLVER's bisection family (rocmath.solver.bisection): stebz, stein, syevx/heevx, sygvx/hegvx.

stebz is compared with LAPACK's ?stebz (scipy.linalg.lapack) given rocSOLVER's abstol (0: twice the underflow
threshold): the same nev, nsplit, isplit and iblock, W equal, and within the tolerance of the exact eigenvalues.
stein's vectors are LAPACK's ?stein ones (same starting vectors), checked by residual ratio and orthogonality.
syevx/sygvx are compared with scipy.linalg.eigh subsets (spectra on a grid of halves, so value ranges have exact
counts) and LAPACK's ?syevx/?heevx; vectors by LAPACK's ratios below 30.  Operands live in poisoned allocations
with one more entry than batch_count: padding, gaps and that entry must keep their bits; W, Z and ifail past nev
keep theirs.  Argument errors follow rocSOLVER's argCheck order, one case per check.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
import scipy.linalg.lapack as ll
from test_solver_eigx import (
    ERANGE,
    EVECT,
    FLAVOURS,
    SUFFIX,
    THRESHOLD,
    Matrix,
    PerEntry,
    Vector,
    _closing,
    check_generalized,
    hermitian,
    pencil,
    spectrum,
    wide,
    with_junk,
)

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    MemoryAccessFault,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, C, D, Precision, S, Z
from rocmath.solver import bisection as bz

SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError
RANGE_CODE = {"A": 0, "V": 1, "I": 2}  # scipy's ?stebz range argument


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def tridiagonal(p: Precision, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A random (D, E) of p's real type with two split points (a zero and a negligible off-diagonal)."""
    rng = np.random.default_rng(seed)
    real = p.real.dtype
    d = rng.standard_normal(n).astype(real)
    e = rng.standard_normal(n - 1).astype(real)
    if n > 6:
        e[2], e[5] = 0, 1e-30
    return d, e


def mapped(abstol: float, real: Any) -> float:
    return 2 * float(np.finfo(real).tiny) if abstol == 0 else abstol


def device(x: np.ndarray) -> Any:
    return rt.poisoned_device_vector(x)


# --- stebz ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", (S, D), ids=lambda p: p.letter)
@pytest.mark.parametrize("erange", "AVI")
@pytest.mark.parametrize("order", "BE")
@pytest.mark.parametrize("abstol", (0.0, 1e-3, -1.0))
def test_stebz_matches_lapack(handle: Any, p: Precision, erange: str, order: str, abstol: float) -> None:
    n = 11
    d, e = tridiagonal(p, n, 7)
    real = p.real.dtype
    vl, vu, il, iu = -0.7, 1.1, 3, 9
    m, w, ib, isp, rinfo = getattr(ll, p.letter + "stebz")(d, e, RANGE_CODE[erange], vl, vu, il, iu,
                                                           mapped(abstol, real), order.encode())
    assert rinfo == 0
    with ExitStack() as stack:
        Dv, Ev = stack.enter_context(device(d)), stack.enter_context(device(e))
        W = stack.enter_context(device(np.full(n, 7, real)))
        IB, IS = (stack.enter_context(device(np.full(n, -9, np.int32))) for _ in range(2))
        nev, nsplit, info = (stack.enter_context(_closing(PerEntry(1, np.int32))) for _ in range(3))
        getattr(bz, p.letter + "stebz")(handle, ERANGE[erange], 241 if order == "B" else 242, n, vl, vu, il, iu,
                                        abstol, Dv.ptr, Ev.ptr, nev.arg, nsplit.arg, W.ptr, IB.ptr, IS.ptr, info.arg)
        got_m, ns = int(nev.get()[0]), int(nsplit.get()[0])
        assert (got_m, ns, int(info.get()[0])) == (m, 3, 0)
        got_w, got_ib, got_is = W.get(), IB.get(), IS.get()
        for buf in (Dv, Ev, W, IB, IS):
            buf.check_untouched()
        assert (Dv.get() == d).all() and (Ev.get() == e).all()
    assert (got_w[:m] == w[:m]).all() and (got_ib[:m] == ib[:m]).all() and (got_is[:ns] == isp[:ns]).all()
    assert (got_w[m:] == 7).all() and (got_ib[m:] == -9).all() and (got_is[ns:] == -9).all(), "written past nev"
    # within the tolerance of the exact eigenvalues (abstol < 0: eps times the Gershgorin bound)
    # (numpy's dense eigvalsh: scipy 1.13's eigvalsh_tridiagonal was 6.7e-15 off it, LAPACK's stebz 1.8e-15)
    exact = np.linalg.eigvalsh(np.diag(d.astype(float)) + np.diag(e.astype(float), 1) + np.diag(e.astype(float), -1))
    sel = {"A": exact, "V": exact[(exact > vl) & (exact <= vu)], "I": exact[il - 1:iu]}[erange]
    eps = float(np.finfo(real).eps)
    tnorm = np.abs(np.concatenate([[0], e])) + np.abs(np.concatenate([e, [0]])) + np.abs(d)
    tol = max(abstol, 0) + 4 * eps * tnorm.max()
    assert np.abs(np.sort(got_w[:m]) - sel).max() <= tol


def test_stebz_scalar_and_empty(handle: Any) -> None:
    with ExitStack() as stack:
        Dv = stack.enter_context(device(np.array([0.5])))
        W = stack.enter_context(device(np.full(1, 7.0)))
        IB, IS = (stack.enter_context(device(np.full(1, -9, np.int32))) for _ in range(2))
        nev, nsplit, info = (stack.enter_context(_closing(PerEntry(1, np.int32))) for _ in range(3))
        # n = 1, value range (0.5, 1]: excluded (rocSOLVER's case-1 kernel); E may be null
        bz.dstebz(handle, 232, 242, 1, 0.5, 1.0, 0, 0, 0.0, Dv.ptr, None, nev.arg, nsplit.arg, W.ptr, IB.ptr, IS.ptr,
                  info.arg)
        assert (nev.get()[0], nsplit.get()[0], info.get()[0], IS.get()[0], W.get()[0]) == (0, 1, 0, 1, 7.0)
        bz.dstebz(handle, 233, 241, 1, 0.0, 0.0, 1, 1, 0.0, Dv.ptr, None, nev.arg, nsplit.arg, W.ptr, IB.ptr, IS.ptr,
                  info.arg)
        assert (nev.get()[0], W.get()[0], IB.get()[0]) == (1, 0.5, 1)
        # n = 0: nev, nsplit, info := 0; the arrays may be null
        for x in (nev, nsplit, info):
            x.mat.poison()
        bz.sstebz(handle, 231, 241, 0, 0.0, 0.0, 1, 0, 0.0, None, None, nev.arg, nsplit.arg, None, None, None,
                  info.arg)
        assert not nev.get().any() and not nsplit.get().any() and not info.get().any()


# --- stein ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("erange", "AI")
def test_stein(handle: Any, p: Precision, erange: str) -> None:
    n, ldz = 10, 12
    d, e = tridiagonal(p, n, 3)
    real = p.real.dtype
    il, iu = (2, 7) if erange == "I" else (1, n)
    m, w, ib, isp, _ = getattr(ll, p.real.letter + "stebz")(d, e, RANGE_CODE[erange], 0, 0, il, iu, 0.0, b"B")
    ref, rinfo = getattr(ll, p.real.letter + "stein")(d, e, w[:m], ib, isp)
    assert rinfo == 0
    with ExitStack() as stack:
        Dv, Ev, W = (stack.enter_context(device(x)) for x in (d, e, w.astype(real)))
        IB, IS = stack.enter_context(device(ib)), stack.enter_context(device(isp))
        Zm = stack.enter_context(_closing(Matrix(np.full((1, n, n), 3, p.dtype), ldz, "plain")))
        F = stack.enter_context(device(np.full(n, -9, np.int32)))
        nev = stack.enter_context(device(np.array([m], np.int32)))
        info = stack.enter_context(_closing(PerEntry(1, np.int32)))
        getattr(bz, p.letter + "stein")(handle, n, Dv.ptr, Ev.ptr, nev.ptr, W.ptr, IB.ptr, IS.ptr, Zm.arg, ldz,
                                        F.ptr, info.arg)
        assert info.get()[0] == 0
        z = Zm.get()[0]
        f = F.get()
        Zm.check(1)
        for buf in (Dv, Ev, W, IB, IS, F, nev):
            buf.check_untouched()
    assert (f[:m] == 0).all() and (f[m:] == -9).all()
    assert (z[:, m:] == 3).all(), "Z past nev was written"
    x = wide(z[:, :m])
    assert np.abs(x.imag).max(initial=0) == 0
    t = np.diag(d.astype(float)) + np.diag(e.astype(float), 1) + np.diag(e.astype(float), -1)
    eps = p.eps
    assert np.abs(t @ x - x * w[:m].astype(float)).max() / (n * np.abs(t).sum(axis=0).max() * eps) < THRESHOLD
    assert np.abs(x.conj().T @ x - np.eye(m)).max() / (n * eps) < THRESHOLD
    assert np.abs(x.real - ref).max() <= 10 * eps  # LAPACK's vectors (same starting vectors, same signs)


def test_stein_quick_returns_and_faults(handle: Any) -> None:
    n = 4
    d, e = np.arange(1.0, n + 1), np.zeros(n - 1)
    with ExitStack() as stack:
        Dv, Ev, W = (stack.enter_context(device(x)) for x in (d, e, d.copy()))
        IB = stack.enter_context(device(np.array([1, 2, 3, 4], np.int32)))
        IS = stack.enter_context(device(np.array([1, 2, 3, 4], np.int32)))
        Zm = stack.enter_context(_closing(Matrix(np.full((1, n, n), 3.0), n, "plain")))
        F = stack.enter_context(device(np.full(n, -9, np.int32)))
        nev = stack.enter_context(device(np.array([0], np.int32)))
        info = stack.enter_context(_closing(PerEntry(1, np.int32)))
        args = (Dv.ptr, Ev.ptr, nev.ptr, W.ptr, IB.ptr, IS.ptr, Zm.arg, n, F.ptr, info.arg)
        bz.dstein(handle, n, *args)  # nev = 0: info := 0, nothing else
        assert info.get()[0] == 0 and (F.get() == -9).all() and (Zm.get() == 3).all()
        info.mat.poison()
        bz.dstein(handle, 0, None, None, nev.ptr, None, None, None, None, 0, None, info.arg)
        assert info.get()[0] == 0
        nev.set(np.array([n], np.int32))
        bz.dstein(handle, n, *args)  # split diagonal matrix: unit vectors
        assert info.get()[0] == 0 and (Zm.get()[0] == np.eye(n)).all() and (F.get() == 0).all()
        nev.set(np.array([n + 1], np.int32))
        bz.dstein(handle, n, *args)
        with pytest.raises(MemoryAccessFault, match="nev"):
            rm.device_synchronize()


# --- syevx/heevx, sygvx/hegvx --------------------------------------------------------------------------


def routine(name: str, p: Precision, flavour: str) -> Callable[..., Any]:
    if p.is_complex:
        name = "he" + name[2:]
    return getattr(bz, f"{p.letter}{name}{SUFFIX[flavour]}")


def invoke(handle: Any, name: str, p: Precision, flavour: str, batch: int, **args: Any) -> Any:
    f = routine(name, p, flavour)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for key, value in args.items():
        if isinstance(value, Matrix):
            values[key], values[f"ld{key.lower()}"], values[f"stride{key}"] = value.arg, value.ld, value.stride
        elif isinstance(value, Vector):
            values[key], values["strideF" if key == "ifail" else f"stride{key}"] = value.arg, value.stride
        elif isinstance(value, PerEntry):
            values[key] = value.arg
        else:
            values[key] = value
    return f(**{q: values[q] for q in inspect.signature(f).parameters})


def run_x(handle: Any, p: Precision, flavour: str, a: np.ndarray, batch: int, uplo: str, vectors: bool,
          rng_args: tuple[str, float, float, int, int], abstol: float = 0.0, b: np.ndarray | None = None,
          itype: int = 1) -> tuple[np.ndarray, ...]:
    """syevx (b None) or sygvx on the first ``batch`` entries; returns (nev, W, Z, ifail, info, A, B)."""
    total, n, _ = a.shape
    erange, vl, vu, il, iu = rng_args
    zcols = iu - il + 1 if erange == "I" and n else n
    lda, ldz, gap = n + 1, n + 2, 1
    with ExitStack() as stack:
        A = stack.enter_context(_closing(Matrix(a, lda, flavour, gap)))
        W = stack.enter_context(_closing(Vector(np.full((total, n), 7, p.real.dtype), flavour, gap)))
        F = stack.enter_context(_closing(Vector(np.full((total, n), -9, np.int32), flavour, gap)))
        Zm = stack.enter_context(_closing(Matrix(np.full((total, n, zcols), 3, p.dtype), ldz, flavour, gap)))
        nev, info = (stack.enter_context(_closing(PerEntry(batch, np.int32))) for _ in range(2))
        args: dict[str, Any] = dict(evect=EVECT[vectors], erange=ERANGE[erange], uplo=uplo, n=n, A=A, vl=vl, vu=vu,
                                    il=il, iu=iu, abstol=abstol, nev=nev, W=W, Z=Zm, ifail=F, info=info)
        bm = None
        if b is None:
            invoke(handle, "syevx", p, flavour, batch, **args)
        else:
            Bm = stack.enter_context(_closing(Matrix(b, n, flavour, gap)))
            invoke(handle, "sygvx", p, flavour, batch, itype=220 + itype, B=Bm, **args)
            Bm.check(batch)
            bm = Bm.get()[:batch]
        for x in (A, W, Zm, F):
            x.check(batch)
        if not vectors:
            assert Zm.get().tobytes() == Zm.host.tobytes() and F.get().tobytes() == F.host.tobytes()
        return nev.get(), W.get()[:batch], Zm.get()[:batch], F.get()[:batch], info.get(), A.get()[:batch], bm


RANGES = {"A": ("A", 0.0, 0.0, 0, 0), "V": ("V", -1.25, 0.75, 0, 0), "I": ("I", 0.0, 0.0, 2, 5)}


def select(w: np.ndarray, erange: str) -> np.ndarray:
    _, vl, vu, il, iu = RANGES[erange]
    return {"A": w, "V": w[(w > vl) & (w <= vu)], "I": w[il - 1:iu]}[erange]


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize(("erange", "vectors", "uplo"), [("A", True, "L"), ("V", True, "U"), ("I", False, "L"),
                                                         ("I", True, "U"), ("V", False, "U")])
def test_syevx(handle: Any, p: Precision, flavour: str, erange: str, vectors: bool, uplo: str) -> None:
    n, batch = 7, 1 if flavour == "plain" else 2
    rng = np.random.default_rng(11)
    lam = spectrum(n, rng)
    exact = hermitian(p, batch + 1, lam, rng)
    nev, w, z, f, info, _, _ = run_x(handle, p, flavour, with_junk(exact, uplo, rng), batch, uplo, vectors,
                                     RANGES[erange])
    want = select(lam, erange)
    k = want.size
    assert (nev == k).all() and not info.any()
    lapack = getattr(ll, p.letter + ("heevx" if p.is_complex else "syevx"))
    _, vl, vu, il, iu = RANGES[erange]
    for e in range(batch):
        assert np.abs(w[e, :k] - want).max() <= THRESHOLD * n * p.eps * n
        assert (w[e, k:] == 7).all(), "W past nev was written"
        kw = dict(range=erange.encode(), vl=vl, vu=vu if vu > vl else vl + 1, il=max(il, 1), iu=iu or n)
        rw, _, rm_, _, rinfo = lapack(exact[e], compute_v=0, lower=int(uplo == "L"),
                                      abstol=2 * float(np.finfo(p.real.dtype).tiny), **kw)
        assert rinfo == 0 and rm_ == k and np.allclose(w[e, :k], rw[:k], rtol=0, atol=4 * p.eps * n)
        if vectors:
            x = wide(z[e][:, :k])
            a = wide(exact[e])
            assert np.abs(a @ x - x * w[e, :k]).max() / (n * np.abs(a).sum(axis=0).max() * p.eps) < THRESHOLD
            assert np.abs(x.conj().T @ x - np.eye(k)).max() / (n * p.eps) < THRESHOLD
            assert (f[e, :k] == 0).all() and (f[e, k:] == -9).all()
            assert (z[e][:, k:] == 3).all()


def test_syevx_negative_abstol_takes_bisection(handle: Any) -> None:
    """abstol < 0 with all eigenvalues: bisection (LAPACK's range (-huge, huge]), eps * ||T|| accurate."""
    n = 9
    rng = np.random.default_rng(5)
    lam = spectrum(n, rng)
    a = hermitian(D, 2, lam, rng)
    for erange in ("A", "I"):
        nev, w, _, f, info, _, _ = run_x(handle, D, "strided", a, 1, "L", True, ("I", 0.0, 0.0, 1, n)
                                         if erange == "I" else RANGES["A"], abstol=-1.0)
        assert nev[0] == n and info[0] == 0 and (f[0] == 0).all()
        assert np.abs(w[0] - lam).max() <= 8 * n * D.eps * np.abs(lam).max()
        ref = ll.dsyevx(a[0], range=b"V", vl=-np.finfo(float).max, vu=np.finfo(float).max, abstol=-1.0,
                        lower=1)[0][:n]
        assert np.allclose(w[0], ref, rtol=0, atol=4 * n * D.eps)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("itype", (1, 2, 3))
def test_sygvx(handle: Any, p: Precision, flavour: str, itype: int) -> None:
    n, batch = 6, 1 if flavour == "plain" else 2
    rng = np.random.default_rng(itype)
    lam = spectrum(n, rng)
    a, b = pencil(p, batch + 1, lam, itype, rng)
    uplo = "U" if itype != 2 else "L"
    erange = "IVA"[itype - 1]
    nev, w, z, f, info, _, bf = run_x(handle, p, flavour, with_junk(a, uplo, rng), batch, uplo, True, RANGES[erange],
                                      b=with_junk(b, uplo, rng), itype=itype)
    want = select(lam, erange)
    k = want.size
    assert (nev == k).all() and not info.any()
    for e in range(batch):
        bw = wide(b[e])
        assert np.abs(w[e, :k] - want).max() <= THRESHOLD * n * p.eps * np.linalg.cond(bw) * np.abs(lam).max()
        check_generalized(a[e], b[e], w[e, :k].astype(float), z[e][:, :k], itype, p)
        assert (f[e, :k] == 0).all() and (f[e, k:] == -9).all() and (z[e][:, k:] == 3).all()
        chol = np.linalg.cholesky(bw)
        fac = np.triu(wide(bf[e])) if uplo == "U" else np.tril(wide(bf[e]))
        want_f = chol.conj().T if uplo == "U" else chol
        assert np.abs(fac - want_f).max() <= THRESHOLD * n * p.eps * np.abs(want_f).max()


def test_sygvx_b_not_positive_definite(handle: Any) -> None:
    n = 5
    rng = np.random.default_rng(2)
    a, b = pencil(Z, 3, spectrum(n, rng), 1, rng)
    b[1, 2, 2] = -50.0  # entry 1: leading minor of order 3 is not positive definite
    nev, w, z, f, info, a_out, _ = run_x(handle, Z, "strided", a, 2, "L", True, RANGES["A"], b=b, itype=1)
    assert info.tolist() == [0, n + 3] and nev.tolist() == [n, 0]
    assert (w[1] == 7).all() and (z[1] == 3).all() and (f[1] == -9).all()
    assert a_out[1].tobytes() == a[1].tobytes()


def test_x_quick_returns(handle: Any) -> None:
    nev, info = PerEntry(2, np.int32), PerEntry(2, np.int32)
    try:
        bz.dsyevx_strided_batched(handle, 211, 233, "L", 0, None, 1, 1, 0.0, 0.0, 1, 0, 0.0, nev.arg, None, 1, None,
                                  1, 1, None, 1, info.arg, 2)
        assert not nev.get().any() and not info.get().any()
        nev.mat.poison()
        info.mat.poison()
        bz.chegvx_batched(handle, 223, 213, 231, "U", 0, None, 1, None, 1, 0.0, 0.0, 0, 0, 0.0, nev.arg, None, 1,
                          None, 1, None, 1, info.arg, 2)
        assert not nev.get().any() and not info.get().any()
        nev.mat.poison()
        info.mat.poison()
        mat, vec = rt.poisoned_device_matrix(np.eye(4), 4), rt.poisoned_device_vector(np.zeros(4))
        with mat, vec:  # batch_count = 0: nothing is touched; nev, info may be null, A, W may not
            bz.dsyevx_batched(handle, 211, 231, "U", 4, mat.ptr, 4, 0.0, 0.0, 0, 0, 0.0, None, vec.ptr, 4, mat.ptr,
                              4, vec.ptr, 4, None, 0)
            with pytest.raises(POINTER):
                bz.dsygvx_batched(handle, 221, 211, 231, "U", 4, mat.ptr, 4, None, 4, 0.0, 0.0, 0, 0, 0.0, None,
                                  vec.ptr, 4, mat.ptr, 4, vec.ptr, 4, None, 0)
            mat.check_untouched(logical=True)
            vec.check_untouched(logical=True)
        nev.mat.check_untouched(logical=True)
        info.mat.check_untouched(logical=True)
    finally:
        nev.close()
        info.close()


# --- argument checking ---------------------------------------------------------------------------------


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call with valid 4x4 arguments but the given changes: the exception class and the argument it names;
    nothing may change."""
    mats = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "B", "Z")}
    vecs = {k: rt.poisoned_device_vector(np.ones(4)) for k in ("D", "E", "W")}
    ints = {k: rt.poisoned_device_vector(np.ones(4, np.int32)) for k in ("info", "nev", "nsplit", "iblock",
                                                                            "isplit", "ifail")}

    def check(name: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(itype=221, evect=211, erange=231, eorder=241, uplo="L", n=4, lda=4, ldb=4, ldz=4,
                                    vl=0.0, vu=1.0, il=1, iu=4, abstol=0.0, batch_count=1, strideA=16, strideB=16,
                                    strideZ=16, strideW=4, strideF=4)
        for group in (mats, vecs, ints):
            base.update({k: v.ptr for k, v in group.items()})
        f = getattr(bz, name + SUFFIX[flavour])
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{q: changes.get(q, base[q]) for q in params})
        assert err.value.arg == arg, f"{name}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in (*mats.values(), *vecs.values(), *ints.values()):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), *vecs.values(), *ints.values()):
        buf.close()


# rocsolver_stebz_argCheck (rocauxiliary_stebz.hpp): index bounds before the signs; pointers D, W, iblock,
# isplit (n), E (n > 1), then info, nev, nsplit.
STEBZ_CHECKS = [
    (VALUE, "erange", dict(erange=230, eorder=0, n=-1)),
    (VALUE, "eorder", dict(eorder=243, n=-1)),
    (SIZE, "n", dict(n=-1, erange=232, vl=1.0, vu=0.0)),
    (SIZE, "vl", dict(erange=232, vl=1.0, vu=1.0, D=None)),
    (SIZE, "iu", dict(erange=233, il=0, iu=5)),
    (SIZE, "il", dict(erange=233, il=3, iu=2)),
    (SIZE, "il", dict(erange=233, il=0, iu=0)),
    (SIZE, "iu", dict(erange=233, n=0, il=1, iu=-1)),  # (n > 0: il <= iu < 0 fails il <= iu or il >= 1 first)
    (POINTER, "D", dict(D=None, W=None)),
    (POINTER, "W", dict(W=None, iblock=None)),
    (POINTER, "iblock", dict(iblock=None, isplit=None)),
    (POINTER, "isplit", dict(isplit=None, E=None)),
    (POINTER, "E", dict(E=None, info=None)),
    (POINTER, "info", dict(info=None, nev=None)),
    (POINTER, "nev", dict(nev=None, nsplit=None)),
    (POINTER, "nsplit", dict(nsplit=None)),
]
# rocsolver_stein_argCheck (rocauxiliary_stein.hpp): no enums; n, ldz; D, E, nev, W, iblock, isplit, Z, ifail, info.
STEIN_CHECKS = [
    (SIZE, "n", dict(n=-1, ldz=-1)),
    (SIZE, "ldz", dict(ldz=3, D=None)),
    (POINTER, "D", dict(D=None, E=None)),
    (POINTER, "E", dict(E=None, nev=None)),
    (POINTER, "nev", dict(nev=None, W=None)),
    (POINTER, "W", dict(W=None, iblock=None)),
    (POINTER, "iblock", dict(iblock=None, isplit=None)),
    (POINTER, "isplit", dict(isplit=None, Z=None)),
    (POINTER, "Z", dict(Z=None, ifail=None)),
    (POINTER, "ifail", dict(ifail=None, info=None)),
    (POINTER, "info", dict(info=None)),
]
# rocsolver_syevx_heevx_argCheck (roclapack_syevx_heevx.hpp): signs before the index bounds; Z, ifail last.
SYEVX_CHECKS = [
    (VALUE, "evect", dict(evect=212, erange=0, uplo=0, n=-1)),
    (VALUE, "erange", dict(erange=234, uplo=0, n=-1)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1, lda=-5)),
    (SIZE, "lda", dict(lda=3, ldz=3)),
    (SIZE, "ldz", dict(ldz=3, erange=232, vl=1.0, vu=0.0)),
    (SIZE, "vl", dict(erange=232, vl=1.0, vu=1.0, A=None)),
    (SIZE, "il", dict(erange=233, il=0, iu=5)),
    (SIZE, "iu", dict(erange=233, il=1, iu=-1)),
    (SIZE, "iu", dict(erange=233, il=1, iu=5)),
    (SIZE, "il", dict(erange=233, il=3, iu=2, A=None)),
    (POINTER, "A", dict(A=None, W=None)),
    (POINTER, "W", dict(W=None, nev=None)),
    (POINTER, "nev", dict(nev=None, info=None, Z=None)),
    (POINTER, "info", dict(info=None, Z=None)),
    (POINTER, "Z", dict(Z=None, ifail=None)),
    (POINTER, "ifail", dict(ifail=None)),
]
# rocsolver_sygvx_hegvx_argCheck (roclapack_sygvx_hegvx.hpp): itype first, ldb after lda, B after A.
SYGVX_CHECKS = [
    (VALUE, "itype", dict(itype=224, evect=0)),
    (VALUE, "evect", dict(evect=212, erange=0)),
    (VALUE, "erange", dict(erange=230, uplo=0)),
    (VALUE, "uplo", dict(uplo=123, n=-1)),
    (SIZE, "n", dict(n=-1)),
    (SIZE, "lda", dict(lda=3, ldb=3)),
    (SIZE, "ldb", dict(ldb=3, ldz=3)),
    (SIZE, "ldz", dict(ldz=3, erange=233, il=0)),
    (SIZE, "vl", dict(erange=232, vl=2.0, vu=1.0)),
    (SIZE, "il", dict(erange=233, il=0, iu=9)),
    (SIZE, "iu", dict(erange=233, iu=-1)),
    (SIZE, "iu", dict(erange=233, il=1, iu=6)),
    (SIZE, "il", dict(erange=233, il=4, iu=3)),
    (POINTER, "A", dict(A=None, B=None)),
    (POINTER, "B", dict(B=None, W=None)),
    (POINTER, "W", dict(W=None, nev=None)),
    (POINTER, "nev", dict(nev=None, info=None)),
    (POINTER, "info", dict(info=None, Z=None)),
    (POINTER, "Z", dict(Z=None, ifail=None)),
    (POINTER, "ifail", dict(ifail=None)),
]
BAD_ARGUMENTS = ([("dstebz", *x) for x in STEBZ_CHECKS] + [("cstein", *x) for x in STEIN_CHECKS]
                 + [("dsyevx", *x) for x in SYEVX_CHECKS] + [("zhegvx", *x) for x in SYGVX_CHECKS] + [
    # pointers only where the sizes need them
    ("sstebz", POINTER, "info", dict(n=0, D=None, W=None, iblock=None, isplit=None, E=None, info=None)),
    ("sstebz", POINTER, "info", dict(n=1, E=None, info=None)),
    ("zstein", POINTER, "nev", dict(n=0, D=None, E=None, W=None, nev=None)),
    ("ssyevx", POINTER, "info", dict(evect=213, Z=None, ifail=None, ldz=1, info=None)),
    ("chegvx", POINTER, "nev", dict(n=0, A=None, B=None, W=None, Z=None, nev=None)),
    ("dsyevx", POINTER, "A", dict(erange=233, vl=1.0, vu=0.0, A=None)),  # vl, vu ignored unless erange value
    ("dstebz", POINTER, "D", dict(erange=231, il=0, iu=-3, D=None)),  # il, iu ignored unless erange index
])


@pytest.mark.parametrize(("name", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], name: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(name, "plain", error, arg, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for name in ("ssyevx", "zheevx", "dsygvx", "chegvx"):
        bad(name, flavour, SIZE, "batch_count", batch_count=-1)
        bad(name, flavour, POINTER, "A", A=None, batch_count=0)
        bad(name, flavour, POINTER, "info", info=None, Z=None, evect=213)
    bad("dsyevx", flavour, SIZE, "batch_count", batch_count=-1, erange=232, vl=1.0, vu=1.0)  # before vl, vu


def test_size_query_and_names(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert bz.dsyevx(handle, 211, 231, "L", 32, None, 32, 0.0, 0.0, 0, 0, 0.0, None, None, None, 32, None,
                         None) is RocblasStatus.size_increased
        assert bz.dsyevx(handle, 211, 231, "L", 0, None, 1, 0.0, 0.0, 0, 0, 0.0, None, None, None, 1, None,
                         None) is RocblasStatus.size_unchanged
        bz.dstebz(handle, 231, 241, 16, 0.0, 0.0, 0, 0, 0.0, None, None, None, None, None, None, None, None)
        bz.zstein(handle, 16, None, None, None, None, None, None, None, 16, None, None)
        with pytest.raises(SIZE):
            bz.dsygvx(handle, 221, 211, 231, "L", 4, None, 3, None, 4, 0.0, 0.0, 0, 0, 0.0, None, None, None, 4, None,
                      None)
    finally:
        blas.stop_device_memory_size_query(handle)
    assert set(bz.__all__) == {f"{p}{r}{f}" for r, ps, fl in (("stebz", "sd", ("",)), ("stein", "sdcz", ("",)),
                                                              ("syevx", "sd", SUFFIX.values()),
                                                              ("heevx", "cz", SUFFIX.values()),
                                                              ("sygvx", "sd", SUFFIX.values()),
                                                              ("hegvx", "cz", SUFFIX.values()))
                               for p in ps for f in fl}
    params = list(inspect.signature(bz.zhegvx_strided_batched).parameters)
    assert params == ["handle", "itype", "evect", "erange", "uplo", "n", "A", "lda", "strideA", "B", "ldb", "strideB",
                      "vl", "vu", "il", "iu", "abstol", "nev", "W", "strideW", "Z", "ldz", "strideZ", "ifail",
                      "strideF", "info", "batch_count"]
    assert list(inspect.signature(bz.ssyevx_batched).parameters)[-8:] == ["W", "strideW", "Z", "ldz", "ifail",
                                                                          "strideF", "info", "batch_count"]
    assert C.letter == "c" and S.letter == "s"
