"""rocSOLVER's labrd, latrd, lasyf and bdsvdx, from rocmath.solver.auxiliary_lapack.

labrd, latrd and lasyf are judged against the same LAPACK routines of
``scipy.linalg.cython_lapack`` called here through ctypes (their function pointers), on the same
input: every output the same bits.  bdsvdx (not in cython_lapack) by identities: the singular
values of the bidiagonal B (numpy), ``B V = U S`` with orthonormal U and V, the selected range,
and rocSOLVER's sign convention.  Every argument has poisoned padding that must keep its bits;
argument checks (one case per check, rocSOLVER's order), quick returns and size queries are at
the end.
"""

from __future__ import annotations

import ctypes
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision
from rocmath.precision import S as SP
from rocmath.solver import _lapack
from rocmath.solver import auxiliary_lapack as al

UPPER, LOWER = 121, 122  # rocblas_fill
SV_SINGULAR, SV_NONE, SV_ALL = 192, 194, 191  # rocblas_svect
SR_ALL, SR_VALUE, SR_INDEX = 261, 262, 263  # rocblas_srange
REALS = (SP, D)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


@contextmanager
def closing(*operands: Any) -> Iterator[None]:
    try:
        yield
    finally:
        for operand in operands:
            operand.close()


def random(p: Precision, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(-1, 1, shape)
    if p.is_complex:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(p.dtype)


def mat(host: np.ndarray, ld: int | None = None) -> rt.PaddedDeviceMatrix:
    """A column-major device matrix, ``ld`` rows apart (default rows + 2: padding to keep)."""
    return rt.poisoned_device_matrix(host, host.shape[0] + 2 if ld is None else ld)


def vec(host: np.ndarray) -> rt.PaddedDeviceMatrix:
    """A device vector (its margins poisoned)."""
    return rt.poisoned_device_matrix(host[:, None], max(1, host.shape[0]))


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def fortran(a: np.ndarray, ld: int) -> np.ndarray:
    """``a`` in a Fortran-order array of ``ld`` rows (the device operand's layout: OpenBLAS's kernels may
    round differently for another leading dimension)."""
    out = np.zeros((ld, max(1, a.shape[1])), a.dtype, order="F")
    out[: a.shape[0], : a.shape[1]] = a
    return out


def close(got: np.ndarray, want: np.ndarray, p: Precision) -> bool:
    """The same values up to a few roundings (OpenBLAS's kernels may order sums by alignment)."""
    scale = max(1.0, float(np.abs(want).max(initial=0)))
    return bool(np.abs(got.astype(complex) - want.astype(complex)).max(initial=0) <= 64 * np.finfo(p.dtype).eps * scale)


# --- LAPACK through cython_lapack's function pointers --------------------------------------------------


def lapack(name: str, nargs: int) -> Callable[..., None]:
    import scipy.linalg.cython_lapack as cl

    address = _lapack._capsule_address(cl.__pyx_capi__[name])
    return ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * nargs)(address)


def ref(name: str, nargs: int, *args: Any) -> None:
    """Call LAPACK ``name`` with each argument by reference: ints as int32 cells, strings as characters,
    arrays (Fortran order) as their data."""
    keep = []
    ptrs = []
    for x in args:
        if isinstance(x, str):
            x = np.frombuffer(x.encode(), np.uint8).copy()
        elif isinstance(x, (int, np.integer)):
            x = np.array([x], np.int32)
        keep.append(x)
        ptrs.append(x.ctypes.data)
    lapack(name, nargs)(*ptrs)


# --- labrd ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize(("m", "n", "k"), [(7, 5, 3), (5, 7, 3), (6, 6, 6), (4, 9, 4), (9, 4, 4), (1, 1, 1),
                                           (3, 1, 1)])
def test_labrd_is_lapack(handle: Any, p: Precision, m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m * 100 + n * 10 + k)
    a = random(p, (m, n), rng)
    real = p.real.dtype
    x0, y0 = random(p, (m, k), rng), random(p, (n, k), rng)  # X and Y as LAPACK's get them (partly written)
    A, X, Y = mat(a), mat(x0), mat(y0, n + 3)
    Dv, E, TQ, TP = vec(np.zeros(k, real)), vec(np.zeros(k, real)), vec(np.zeros(k, p.dtype)), vec(np.zeros(k, p.dtype))
    for v in (Dv, E, TQ, TP):
        v.poison()
    with closing(A, X, Y, Dv, E, TQ, TP):
        # the reference outputs start as the device's (poisoned): LAPACK leaves the same elements alone
        rd, re, rq, rp = (v.get()[:, 0].copy() for v in (Dv, E, TQ, TP))
        getattr(al, f"{p.letter}labrd")(handle, m, n, k, A.ptr, A.lda, Dv.ptr, E.ptr, TQ.ptr, TP.ptr, X.ptr, X.lda,
                                        Y.ptr, Y.lda)
        ra, rx, ry = fortran(a, A.lda), fortran(x0, X.lda), fortran(y0, Y.lda)
        ref(f"{p.letter}labrd", 13, m, n, k, ra, A.lda, rd, re, rq, rp, rx, X.lda, ry, Y.lda)
        assert same_bits(A.get(), ra[:m]) and same_bits(X.get(), rx[:m]) and same_bits(Y.get(), ry[:n])
        assert same_bits(Dv.get()[:, 0], rd) and same_bits(E.get()[:, 0], re)
        assert same_bits(TQ.get()[:, 0], rq) and same_bits(TP.get()[:, 0], rp)
        for buf in (A, X, Y, Dv, E, TQ, TP):
            buf.check_untouched()


def test_labrd_block_update_completes_gebrd(handle: Any) -> None:
    # The defining identity: after labrd of k columns, A - V Y^T - X U^T restricted to the trailing block
    # is what the reduction continues on; for k = min(m, n) - 1 the trailing block is reduced by one more
    # Householder pair, and the bidiagonal's singular values are A's.
    rng = np.random.default_rng(3)
    m, n, k = 8, 6, 5
    a = rng.standard_normal((m, n))
    A, X, Y = mat(a), mat(np.zeros((m, k))), mat(np.zeros((n, k)))
    Dv, E, TQ, TP = (vec(np.zeros(k)) for _ in range(4))
    with closing(A, X, Y, Dv, E, TQ, TP):
        al.dlabrd(handle, m, n, k, A.ptr, A.lda, Dv.ptr, E.ptr, TQ.ptr, TP.ptr, X.ptr, X.lda, Y.ptr, Y.lda)
        r = A.get()
        d, e, x, y = Dv.get()[:, 0], E.get()[:, 0], X.get(), Y.get()
    v = np.tril(r[:, :k], -1) + np.eye(m, k)
    u = (np.triu(r[:k, :], 2) + np.eye(k, n, 1)).T
    trailing = (r - v @ y.T - x @ u.T)[k:, k:]
    bidiag = np.zeros((m, n))
    bidiag[np.arange(k), np.arange(k)] = d
    bidiag[np.arange(k), np.arange(1, k + 1)] = e
    bidiag[k:, k:] = trailing
    bidiag[k - 1, k] = e[k - 1]
    assert np.allclose(np.linalg.svd(bidiag, compute_uv=False), np.linalg.svd(a, compute_uv=False), atol=1e-12)


# --- latrd ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["U", "L"])
@pytest.mark.parametrize(("n", "k"), [(6, 2), (7, 6), (5, 5), (1, 1), (4, 1)])
def test_latrd_is_lapack(handle: Any, p: Precision, uplo: int, n: int, k: int) -> None:
    rng = np.random.default_rng(n * 10 + k + uplo)
    a = random(p, (n, n), rng)  # only the uplo triangle is a (symmetric/Hermitian) A's; the other is junk
    w0 = random(p, (n, k), rng)
    real = p.real.dtype
    A, W = mat(a), mat(w0)
    E, T = vec(np.zeros(max(n - 1, 0), real)), vec(np.zeros(max(n - 1, 0), p.dtype))
    E.poison()
    T.poison()
    with closing(A, W, E, T):
        re, rt_ = E.get()[:, 0].copy(), T.get()[:, 0].copy()
        getattr(al, f"{p.letter}latrd")(handle, uplo, n, k, A.ptr, A.lda, E.ptr, T.ptr, W.ptr, W.lda)
        ra, rw = fortran(a, A.lda), fortran(w0, W.lda)
        ref(f"{p.letter}latrd", 9, "U" if uplo == UPPER else "L", n, k, ra, A.lda,
            re if n > 1 else np.zeros(1, real), rt_ if n > 1 else np.zeros(1, p.dtype), rw, W.lda)
        assert same_bits(A.get(), ra[:n]) and same_bits(W.get(), rw[:n])
        if n > 1:
            assert same_bits(E.get()[:, 0], re) and same_bits(T.get()[:, 0], rt_)
        for buf in (A, W, E, T):
            buf.check_untouched()


# --- lasyf ---------------------------------------------------------------------------------------


def symmetric(p: Precision, n: int, rng: np.random.Generator, *, zero_diagonal: bool = False,
              zero_column: int | None = None) -> np.ndarray:
    x = random(p, (n, n), rng)
    a = x + x.T  # complex symmetric, not Hermitian
    if zero_diagonal:
        a[np.arange(n), np.arange(n)] = 0
    if zero_column is not None:
        a[zero_column, :] = a[:, zero_column] = 0
    return a


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["U", "L"])
@pytest.mark.parametrize(("n", "nb", "kind"), [(8, 3, "random"), (8, 4, "zero_diagonal"), (7, 7, "random"),
                                               (6, 6, "zero_diagonal"), (9, 2, "random"), (6, 4, "singular"),
                                               (1, 1, "random")])
def test_lasyf_is_lapack(handle: Any, p: Precision, uplo: int, n: int, nb: int, kind: str) -> None:
    rng = np.random.default_rng(n * 10 + nb + uplo)
    zero_col = (n - 1 if uplo == UPPER else 0) if kind == "singular" else None  # the first step's column
    a = symmetric(p, n, rng, zero_diagonal=kind == "zero_diagonal", zero_column=zero_col)
    A = mat(a)
    piv = rt.poisoned_device_vector(np.zeros(n, np.int32))
    piv.poison()
    kb, info = vec(np.zeros(1, np.int32)), vec(np.zeros(1, np.int32))
    kb.poison()
    info.poison()
    with closing(A, piv, kb, info):
        rp = piv.get().copy()
        getattr(al, f"{p.letter}lasyf")(handle, uplo, n, nb, kb.ptr, A.ptr, A.lda, piv.ptr, info.ptr)
        ra, w = fortran(a, A.lda), np.zeros((n, nb), p.dtype, order="F")
        rkb, rinfo = np.zeros(1, np.int32), np.zeros(1, np.int32)
        ref(f"{p.letter}lasyf", 10, "U" if uplo == UPPER else "L", n, nb, rkb, ra, A.lda, rp, w, n, rinfo)
        assert same_bits(A.get(), ra[:n]) and same_bits(piv.get(), rp)
        assert int(kb.get()[0, 0]) == rkb[0] and int(info.get()[0, 0]) == rinfo[0]
        assert rkb[0] in ((nb, nb - 1) if nb < n else (n,))
        if kind == "singular":
            assert rinfo[0] > 0
        for buf in (A, piv, kb, info):
            buf.check_untouched()


@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["U", "L"])
def test_lasyf_nb1_factors_nothing(handle: Any, uplo: int) -> None:
    # rocSOLVER checks nb <= n only: nb = 1 < n runs no step of its loops (kb = info = 0, nothing else written).
    a = symmetric(D, 5, np.random.default_rng(4))
    A, piv, kb, info = mat(a), rt.poisoned_device_vector(np.zeros(5, np.int32)), vec(np.ones(1, np.int32)), \
        vec(np.ones(1, np.int32))
    with closing(A, piv, kb, info):
        al.dlasyf(handle, uplo, 5, 1, kb.ptr, A.ptr, A.lda, piv.ptr, info.ptr)
        assert kb.get()[0, 0] == 0 and info.get()[0, 0] == 0
        A.check_untouched(logical=True)
        piv.check_untouched(logical=True)


# --- bdsvdx --------------------------------------------------------------------------------------


def bidiagonal(d: np.ndarray, e: np.ndarray, upper: bool) -> np.ndarray:
    b = np.diag(d.astype(np.float64))
    return b + (np.diag(e.astype(np.float64), 1) if upper else np.diag(e.astype(np.float64), -1))


def run_bdsvdx(handle: Any, p: Precision, uplo: int, svect: int, srange: int, d: np.ndarray, e: np.ndarray,
               vl: float = 0.0, vu: float = 0.0, il: int = 0, iu: int = 0) -> tuple[int, np.ndarray, np.ndarray | None,
                                                                                      np.ndarray, int]:
    n = d.shape[0]
    real = p.dtype
    Dv, E = vec(d.astype(real)), vec(e.astype(real))
    nsv, info = vec(np.zeros(1, np.int32)), vec(np.zeros(1, np.int32))
    S, F = vec(np.zeros(n, real)), vec(np.zeros(n, np.int32))
    Zm = mat(np.zeros((2 * n, n), real), 2 * n + 3)
    for buf in (nsv, info, S, F, Zm):
        buf.poison()
    with closing(Dv, E, nsv, info, S, F, Zm):
        getattr(al, f"{p.letter}bdsvdx")(handle, uplo, svect, srange, n, Dv.ptr, E.ptr, vl, vu, il, iu, nsv.ptr,
                                         S.ptr, Zm.ptr, Zm.lda, F.ptr, info.ptr)
        count = int(nsv.get()[0, 0])
        s, z, f = S.get()[:, 0], Zm.get(), F.get()[:, 0]
        sentinel = rt.sentinel_value(real)
        assert same_bits(s[count:], np.full(n - count, sentinel, real))  # only nsv values written
        if svect == SV_SINGULAR:
            assert same_bits(z[:, count:], np.full((2 * n, n - count), sentinel, real))
            assert not f[:count].any()
        else:
            Zm.check_untouched(logical=False)
            assert same_bits(z, np.full((2 * n, n), sentinel, real))
            F.check_untouched()
        Dv.check_untouched(logical=True)
        E.check_untouched(logical=True)
        for buf in (nsv, info, S, F, Zm):
            buf.check_untouched()
        return count, s[:count], z[:, :count] if svect == SV_SINGULAR else None, f, int(info.get()[0, 0])


def check_vectors(b: np.ndarray, s: np.ndarray, z: np.ndarray, upper: bool, p: Precision) -> None:
    n = b.shape[0]
    u, v = z[:n].astype(np.float64), z[n:].astype(np.float64)
    tol = 50 * n * np.finfo(p.dtype).eps * max(1.0, np.abs(b).max())
    assert np.abs(b @ v - u * s).max(initial=0) < tol
    assert np.abs(u.T @ u - np.eye(len(s))).max(initial=0) < tol
    assert np.abs(v.T @ v - np.eye(len(s))).max(initial=0) < tol
    # rocSOLVER's sign: the Golub-Kahan eigenvector (-v, u interleaved for upper; u, -v for lower) has its
    # largest element positive.
    tgk = np.empty_like(z)
    tgk[0::2], tgk[1::2] = (-v, u) if upper else (u, -v)
    top = np.argmax(np.abs(tgk), axis=0)
    assert (tgk[top, np.arange(len(s))] > 0).all()


@pytest.mark.parametrize("p", REALS, ids=lambda p: p.letter)
@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["U", "L"])
@pytest.mark.parametrize("svect", [SV_SINGULAR, SV_NONE], ids=["vectors", "values"])
def test_bdsvdx_ranges(handle: Any, p: Precision, uplo: int, svect: int) -> None:
    rng = np.random.default_rng(uplo + svect)
    n = 7
    d, e = rng.uniform(-2, 2, n).astype(p.dtype), rng.uniform(-2, 2, n - 1).astype(p.dtype)
    b = bidiagonal(d, e, uplo == UPPER)
    sigma = np.linalg.svd(b, compute_uv=False)  # descending
    tol = 50 * n * np.finfo(p.dtype).eps * sigma[0]
    cases = [(SR_ALL, {}, np.arange(n)), (SR_INDEX, dict(il=2, iu=5), np.arange(1, 5)),
             (SR_INDEX, dict(il=1, iu=1), np.arange(1)), (SR_INDEX, dict(il=n, iu=n), np.arange(n - 1, n))]
    vl, vu = (sigma[5] + sigma[4]) / 2, (sigma[1] + sigma[2]) / 2  # [vl, vu) holds sigma[2..4]
    cases.append((SR_VALUE, dict(vl=vl, vu=vu), np.arange(2, 5)))
    cases.append((SR_VALUE, dict(vl=0.0, vu=sigma[0] * 2), np.arange(n)))
    cases.append((SR_VALUE, dict(vl=sigma[0] * 2, vu=sigma[0] * 3), np.arange(0)))
    for srange, args, want in cases:
        count, s, z, _, info = run_bdsvdx(handle, p, uplo, svect, srange, d, e, **args)
        assert info == 0 and count == len(want), (srange, args)
        assert np.abs(s - sigma[want]).max(initial=0) < tol
        if z is not None:
            check_vectors(b, s.astype(np.float64), z, uplo == UPPER, p)


def test_bdsvdx_n1_and_graded(handle: Any) -> None:
    for d in (np.array([-3.0]), np.array([0.5])):
        count, s, z, _, info = run_bdsvdx(handle, D, UPPER, SV_SINGULAR, SR_ALL, d, np.zeros(0))
        assert (count, info) == (1, 0) and s[0] == abs(d[0])
        check_vectors(bidiagonal(d, np.zeros(0), True), s, z, True, D)
    # [vl, vu) for n = 1 too (rocSOLVER's stebz on the 2 x 2 Golub-Kahan matrix; LAPACK's shortcut takes (vl, vu])
    for vl, vu, want in ((2.0, 3.0, 1), (1.0, 2.0, 0), (1.5, 2.5, 1)):
        for svect in (SV_SINGULAR, SV_NONE):
            count, s, _, _, info = run_bdsvdx(handle, D, LOWER, svect, SR_VALUE, np.array([-2.0]), np.zeros(0),
                                              vl=vl, vu=vu)
            assert (count, info) == (want, 0) and (not want or s[0] == 2.0)
    d, e = 10.0 ** -np.arange(6), np.full(5, 0.5)
    count, s, z, _, info = run_bdsvdx(handle, D, LOWER, SV_SINGULAR, SR_INDEX, d, e, il=2, iu=4)
    b = bidiagonal(d, e, False)
    assert count == 3 and np.allclose(s, np.linalg.svd(b, compute_uv=False)[1:4], rtol=1e-12)
    check_vectors(b, s, z, False, D)


# --- argument checks, quick returns, size queries ----------------------------------------------------------


def _expect(f: Callable[..., Any], handle: Any, error: type[Exception], arg: str, args: dict[str, Any]) -> None:
    params = list(inspect.signature(f).parameters)[1:]
    with pytest.raises(error) as err:
        f(handle, **{name: args[name] for name in params})
    assert err.value.arg == arg, f"expected {arg!r} to be named, got {err.value}"
    assert err.value.index == params.index(arg) + 2
    assert err.value.status == error.status  # type: ignore[attr-defined]


SIZE, POINTER, VALUE = RocblasInvalidSizeError, RocblasInvalidPointerError, RocblasInvalidValueError

LABRD_BAD = [(SIZE, "m", dict(m=-1)), (SIZE, "n", dict(n=-1)), (SIZE, "k", dict(k=-1)), (SIZE, "k", dict(k=7)),
             (SIZE, "lda", dict(lda=5)), (SIZE, "ldx", dict(ldx=5)), (SIZE, "ldy", dict(ldy=3)),
             (POINTER, "A", dict(A=None)), (POINTER, "D", dict(D=None)), (POINTER, "E", dict(E=None)),
             (POINTER, "tauq", dict(tauq=None)), (POINTER, "taup", dict(taup=None)), (POINTER, "X", dict(X=None)),
             (POINTER, "Y", dict(Y=None))]
LATRD_BAD = [(VALUE, "uplo", dict(uplo=123)), (SIZE, "n", dict(n=-1)), (SIZE, "k", dict(k=-1)),
             (SIZE, "k", dict(k=7)), (SIZE, "lda", dict(lda=5)), (SIZE, "ldw", dict(ldw=5)),
             (POINTER, "A", dict(A=None)), (POINTER, "E", dict(E=None)), (POINTER, "tau", dict(tau=None)),
             (POINTER, "W", dict(W=None))]
LASYF_BAD = [(VALUE, "uplo", dict(uplo=0)), (SIZE, "n", dict(n=-1)), (SIZE, "nb", dict(nb=-1)),
             (SIZE, "nb", dict(nb=7)), (SIZE, "lda", dict(lda=5)), (POINTER, "kb", dict(kb=None)),
             (POINTER, "A", dict(A=None)), (POINTER, "ipiv", dict(ipiv=None)), (POINTER, "info", dict(info=None))]
BDSVDX_BAD = [(VALUE, "uplo", dict(uplo=123)), (VALUE, "svect", dict(svect=SV_ALL)), (VALUE, "srange", dict(srange=1)),
              (SIZE, "n", dict(n=-1)), (SIZE, "ldz", dict(ldz=11)), (SIZE, "ldz", dict(svect=SV_NONE, ldz=0)),
              (SIZE, "vl", dict(srange=SR_VALUE, vl=-1.0, vu=1.0)), (SIZE, "vu", dict(srange=SR_VALUE, vl=1.0, vu=1.0)),
              (SIZE, "iu", dict(srange=SR_INDEX, il=1, iu=7)), (SIZE, "il", dict(srange=SR_INDEX, il=3, iu=2)),
              (SIZE, "il", dict(srange=SR_INDEX, il=0, iu=2)), (SIZE, "iu", dict(n=0, srange=SR_INDEX, il=1, iu=-1)),
              (POINTER, "D", dict(D=None)), (POINTER, "S", dict(S=None)), (POINTER, "E", dict(E=None)),
              (POINTER, "info", dict(info=None)), (POINTER, "nsv", dict(nsv=None)), (POINTER, "Z", dict(Z=None)),
              (POINTER, "ifail", dict(ifail=None))]


@pytest.fixture(scope="module")
def operands() -> Iterator[dict[str, Any]]:
    """Valid device operands for 6 x 6 double problems (all poisoned: nothing may be written by a bad call)."""
    bufs = {name: rt.poisoned_device_vector(np.zeros(size, dtype)) for name, size, dtype in
            [("A", 36, np.float64), ("X", 36, np.float64), ("Y", 36, np.float64), ("D", 6, np.float64),
             ("E", 6, np.float64), ("tau", 6, np.float64), ("ipiv", 6, np.int32), ("int", 1, np.int32),
             ("int2", 1, np.int32), ("Z", 72, np.float64), ("S", 6, np.float64), ("ifail", 6, np.int32)]}
    for buf in bufs.values():
        buf.poison()
    yield bufs
    for buf in bufs.values():
        buf.check_untouched(logical=True)
        buf.close()


def test_argument_checks_in_rocsolver_order(handle: Any, operands: dict[str, Any]) -> None:
    o = {k: v.ptr for k, v in operands.items()}
    base = dict(m=6, n=6, k=4, A=o["A"], lda=6, D=o["D"], E=o["E"], tauq=o["tau"], taup=o["S"], X=o["X"], ldx=6,
                Y=o["Y"], ldy=6)
    for error, arg, changes in LABRD_BAD:
        _expect(al.dlabrd, handle, error, arg, {**base, **changes})
    base = dict(uplo=LOWER, n=6, k=3, A=o["A"], lda=6, E=o["E"], tau=o["tau"], W=o["X"], ldw=6)
    for error, arg, changes in LATRD_BAD:
        _expect(al.dlatrd, handle, error, arg, {**base, **changes})
    base = dict(uplo=UPPER, n=6, nb=3, kb=o["int"], A=o["A"], lda=6, ipiv=o["ipiv"], info=o["int2"])
    for error, arg, changes in LASYF_BAD:
        _expect(al.dlasyf, handle, error, arg, {**base, **changes})
    base = dict(uplo=UPPER, svect=SV_SINGULAR, srange=SR_ALL, n=6, D=o["D"], E=o["E"], vl=0.0, vu=0.0, il=0, iu=0,
                nsv=o["int"], S=o["S"], Z=o["Z"], ldz=12, ifail=o["ifail"], info=o["int2"])
    for error, arg, changes in BDSVDX_BAD:
        _expect(al.dbdsvdx, handle, error, arg, {**base, **changes})


def test_invalid_handle() -> None:
    for h in (None, object()):
        with pytest.raises(RocblasInvalidHandleError):
            al.dlabrd(h, -1, 0, 0, None, 0, None, None, None, None, None, 0, None, 0)  # the handle first
        with pytest.raises(RocblasInvalidHandleError):
            al.sbdsvdx(h, 0, 0, 0, -1, None, None, 0.0, 0.0, 0, 0, None, None, None, 0, None, None)


def test_quick_returns(handle: Any) -> None:
    # labrd/latrd with m, n or k zero: nothing touched, the arrays they would need may be null.
    al.zlabrd(handle, 4, 3, 0, 1, 4, None, None, None, None, None, 4, None, 3)
    al.slabrd(handle, 0, 3, 0, None, 1, None, None, None, None, None, 1, None, 3)
    al.clatrd(handle, UPPER, 3, 0, 1, 3, 1, 1, None, 3)
    al.dlatrd(handle, LOWER, 0, 0, None, 1, None, None, None, 1)
    # lasyf: n == 0 or nb == 0 sets kb and info to 0.
    kb, info = vec(np.ones(1, np.int32)), vec(np.ones(1, np.int32))
    A = mat(np.eye(3))
    with closing(kb, info, A):
        al.slasyf(handle, LOWER, 0, 0, kb.ptr, None, 1, None, info.ptr)
        assert kb.get()[0, 0] == 0 and info.get()[0, 0] == 0
        kb.set(np.ones((1, 1), np.int32))
        info.set(np.ones((1, 1), np.int32))
        al.dlasyf(handle, UPPER, 3, 0, kb.ptr, A.ptr, A.lda, 1, info.ptr)
        assert kb.get()[0, 0] == 0 and info.get()[0, 0] == 0
        A.check_untouched(logical=True)
    # bdsvdx: n == 0 sets info to 0, nsv is not written.
    nsv, info = vec(np.full(1, 7, np.int32)), vec(np.ones(1, np.int32))
    with closing(nsv, info):
        al.dbdsvdx(handle, LOWER, SV_SINGULAR, SR_INDEX, 0, None, None, 0.0, 0.0, 1, 0, nsv.ptr, None, None, 1,
                   None, info.ptr)
        assert info.get()[0, 0] == 0 and nsv.get()[0, 0] == 7
    # a NaN bound passes the checks (as in rocSOLVER) and selects nothing
    count, _, _, _, status = run_bdsvdx(handle, D, UPPER, SV_SINGULAR, SR_VALUE, np.ones(3), np.ones(2), vl=0.0,
                                        vu=float("nan"))
    assert (count, status) == (0, 0)


def test_size_queries() -> None:
    h = blas.create_handle()
    try:
        blas.start_device_memory_size_query(h)
        assert al.dlabrd(h, 9, 9, 4, None, 9, None, None, None, None, None, 9, None, 9) is RocblasStatus.size_unchanged
        assert al.zlatrd(h, UPPER, 9, 4, None, 9, None, None, None, 9) is RocblasStatus.size_unchanged
        assert al.clasyf(h, LOWER, 0, 0, None, None, 1, None, None) is RocblasStatus.size_unchanged
        assert al.zlasyf(h, LOWER, 10, 4, None, None, 10, None, None) is RocblasStatus.size_increased
        assert al.dbdsvdx(h, UPPER, SV_SINGULAR, SR_ALL, 12, None, None, 0.0, 0.0, 0, 0, None, None, None, 24,
                          None, None) is RocblasStatus.size_increased
        with pytest.raises(RocblasInvalidSizeError):
            al.dlasyf(h, LOWER, 4, 5, None, None, 4, None, None)
        size = blas.stop_device_memory_size_query(h)
        assert size >= max(al.lasyf_workspace(10, 4, 16), al.bdsvdx_workspace(12, True, 8))
        assert al.lasyf_workspace(10, 4, 16) >= 10 * 4 * 16
    finally:
        blas.destroy_handle(h)
