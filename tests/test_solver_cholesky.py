"""rocSOLVER's Cholesky/triangular family: potf2/potrf, potrs, posv, potri, trtri, lauum.

Judged as LAPACK's test suite does, by scale-free ratios below 30 (``||A - L L^H|| / (n
||A|| eps)``, the backward error of a solve, ``||I - A inv(A)|| / (n ||A|| ||inv(A)||
eps)``), and against scipy's LAPACK for ``info`` on batches mixing positive definite
members with members whose leading minor of a random order is clearly not.  Every
matrix lives in a poisoned buffer (padded leading dimension, gaps between strided
entries) whose padding must keep its sentinel bits; the triangle a routine does not
reference holds NaN, which must neither leak into the results nor change.  Small sizes
take the numba path (LAPACK's unblocked potf2: what it leaves in a failing entry is
checked bit for bit), large ones LAPACK itself (the same bits as scipy's).  Argument
checking (rocSOLVER's order, the argument named) is tested at the end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import FLAVOURS, Matrix, call, closing, fn, info_array, random, same_bits, wide

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, S, Z
from rocmath.solver import _kernels_chol as kc

BIG = kc.SMALL + 6  # the LAPACK path
small = rt.sizes(max_value=12)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


# --- data --------------------------------------------------------------------------------------


def triangle(a: np.ndarray, upper: bool) -> np.ndarray:
    return np.triu(a) if upper else np.tril(a)


def other(a: np.ndarray, upper: bool) -> np.ndarray:
    """The elements a routine working on the ``upper``/lower triangle must not touch."""
    n = a.shape[-1]
    mask = np.tri(n, n, -1, dtype=bool) if upper else np.tri(n, n, -1, dtype=bool).T
    return a[..., mask]


def hermitian(a: np.ndarray, upper: bool) -> np.ndarray:
    """The Hermitian matrix whose ``upper``/lower triangle ``a`` holds (the diagonal's real part)."""
    t = triangle(wide(a), upper)
    n = a.shape[-1]
    h = t + np.conj(np.swapaxes(t, -1, -2))
    d = np.arange(n)
    h[..., d, d] = np.real(t[..., d, d])
    return h


def hpd(p: Precision, batch: int, n: int, rng: np.random.Generator, upper: bool,
        bad: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """(A, expected info): Hermitian positive definite matrices in their ``upper``/lower
    triangle, NaN in the other one (and noise in a complex diagonal's imaginary part, which
    LAPACK ignores).  Entries in ``bad`` get A(k, k) = -1 for a random k: every leading minor
    up to order k is positive definite, the one of order k + 1 clearly not (info = k + 1)."""
    x = random(p, (batch, n, n), rng)
    a = wide(x) @ np.conj(np.swapaxes(wide(x), -1, -2)) / max(n, 1) + np.eye(n)
    info = np.zeros(batch, np.int32)
    for e in bad:
        if n:
            k = int(rng.integers(0, n))
            a[e, k, k] = -1
            info[e] = k + 1
    out = np.where(np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool), a, np.nan).astype(p.dtype)
    if p.is_complex and n:
        d = np.arange(n)
        out[:, d, d] += 1j * rng.uniform(-1, 1, (batch, n)).astype(p.dtype)
    return out, info


def chol_ratio(a: np.ndarray, got: np.ndarray, upper: bool, p: Precision) -> float:
    """LAPACK's xPOT01: ||A - L L^H||_1 / (n ||A||_1 eps) (A = U^H U for upper), worst entry."""
    if a.size == 0:
        return 0.0
    h = hermitian(a, upper)
    f = triangle(wide(got), upper)
    prod = np.conj(np.swapaxes(f, -1, -2)) @ f if upper else f @ np.conj(np.swapaxes(f, -1, -2))
    norm = lambda x: np.abs(x).sum(axis=-2).max(axis=-1)  # noqa: E731
    n = a.shape[-1]
    return float(np.max(norm(h - prod) / (n * norm(h) * p.eps)))


def inverse_ratio(a: np.ndarray, inv: np.ndarray, p: Precision) -> float:
    """LAPACK's xGET03/xPOT03: ||I - A inv(A)||_1 / (n ||A||_1 ||inv(A)||_1 eps)."""
    n = a.shape[-1]
    norm = lambda x: np.abs(x).sum(axis=-2).max(axis=-1)  # noqa: E731
    resid = norm(np.eye(n) - wide(a) @ wide(inv))
    return float(np.max(resid / (n * norm(wide(a)) * norm(wide(inv)) * p.eps)))


def lapack_potrf(a: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """scipy's LAPACK potrf on each entry (the other triangle as it was): (factor, info)."""
    potrf = lapack.get_lapack_funcs("potrf", dtype=a.dtype)
    out = [potrf(np.asfortranarray(x), lower=not upper, clean=0) for x in a]
    got = np.stack([o[0] for o in out]) if out else a.copy()
    return got, np.array([o[1] for o in out], dtype=np.int32)


def factor_of(p: Precision, batch: int, n: int, rng: np.random.Generator, upper: bool,
              singular: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(A, its Cholesky factor in the ``upper``/lower triangle with NaN in the other, info of
    potri): ``singular`` entries get an exact zero at a random place of the factor's diagonal."""
    a, _ = hpd(p, batch, n, rng, upper)
    f, _ = lapack_potrf(np.where(np.isnan(a), 0, a), upper)
    f = np.where(np.isnan(a), np.nan, f).astype(p.dtype)
    info = np.zeros(batch, np.int32)
    for e in singular:
        if n:
            j = int(rng.integers(0, n))
            f[e, j, j] = 0
            info[e] = j + 1
    return hermitian(a, upper), f, info


@st.composite
def setup(draw: st.DrawFn, precisions: tuple[Precision, ...] = SDCZ) -> tuple[Precision, str, int, int, int, bool]:
    """(precision, flavour, batch count, gap between strided entries, seed, upper)."""
    p = draw(st.sampled_from(precisions))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, 4))
    return p, flavour, batch, draw(st.integers(0, 2)), draw(st.integers(0, 2**32 - 1)), draw(st.booleans())


def bad_members(draw: st.DrawFn, batch: int) -> tuple[int, ...]:
    return tuple(e for e in range(batch) if draw(st.booleans()) and draw(st.booleans()))


def uplo(upper: bool) -> str:
    return "U" if upper else "L"


# --- potf2, potrf ------------------------------------------------------------------------------


def run_potrf(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, lda: int, upper: bool,
              gap: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(A after the routine, info); padding and info checked."""
    batch, n, _ = a.shape
    A, info = Matrix(a, lda, flavour, gap), info_array(batch)
    with closing(A, info):
        call(handle, routine, p, flavour, batch, uplo=uplo(upper), n=n, A=A, info=info)
        A.check()
        info.check_untouched()
        return A.get(), info.get()[:, 0]


def untouched_after_failure(a: np.ndarray, got: np.ndarray, j: int, upper: bool) -> bool:
    """LAPACK's unblocked potf2 failing at column j (0-based): the triangle's columns after j
    and column j below the diagonal (upper: rows) are as they were."""
    n = a.shape[-1]
    keep = np.zeros((n, n), bool)
    keep[j + 1:, j:] = True  # lower: rows below j of columns j..
    keep &= np.tri(n, dtype=bool)
    if upper:
        keep = keep.T
    return same_bits(a[keep], got[keep])


@settings(max_examples=rt.examples(50))
@given(st.data())
def test_potrf_info_and_factor(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed, upper = data.draw(setup())
    routine = data.draw(st.sampled_from(("potrf", "potf2")))
    n = data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=3))
    rng = np.random.default_rng(seed)
    a, expected = hpd(p, batch, n, rng, upper, bad_members(data.draw, batch))
    got, info = run_potrf(handle, routine, p, flavour, a, lda, upper, gap)
    assert same_bits(other(got, upper), other(a, upper))  # the other triangle (NaN) is never touched
    assert np.array_equal(info, expected)
    if n == 0 or batch == 0:
        assert same_bits(got, a)
        return
    _, ref_info = lapack_potrf(np.where(np.isnan(a), 0, a), upper)
    assert np.array_equal(info, ref_info)
    ok = info == 0
    if ok.any():
        assert chol_ratio(a[ok], got[ok], upper, p) < rt.RESIDUAL_THRESHOLD
        d = np.arange(n)
        assert (got[ok][:, d, d].imag == 0).all() and (got[ok][:, d, d].real > 0).all()
    for e in np.flatnonzero(~ok):
        j = int(info[e]) - 1
        lead = slice(0, j)
        assert chol_ratio(a[e:e + 1, lead, lead], got[e:e + 1, lead, lead], upper, p) < rt.RESIDUAL_THRESHOLD
        assert got[e, j, j].real <= 0 and got[e, j, j].imag == 0  # LAPACK leaves the non-positive ajj there
        assert untouched_after_failure(a[e], got[e], j, upper)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("upper", (True, False))
def test_potrf_large_goes_to_lapack(handle: Any, p: Precision, upper: bool) -> None:
    # A padded strided batch with a member that is not positive definite: LAPACK's own info and bits.
    rng = np.random.default_rng(int(upper))
    a, expected = hpd(p, 3, BIG, rng, upper, bad=(1,))
    got, info = run_potrf(handle, "potrf", p, "strided", a, BIG + 1, upper, gap=3)
    ref, ref_info = lapack_potrf(a, upper)
    assert np.array_equal(info, expected) and np.array_equal(info, ref_info) and info[1] > 0
    assert same_bits(got, ref)
    assert chol_ratio(a[::2], got[::2], upper, p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize(("p", "sizes"), [(D, (4, 6, 8, 10)), (S, (3, 4, 5)), (Z, (6, 9))])
def test_potrf_hilbert(handle: Any, p: Precision, sizes: tuple[int, ...]) -> None:
    # Ill-conditioned (cond(H10) ~ 1e13) but positive definite in the working precision.
    for n in sizes:
        h = scipy.linalg.hilbert(n).astype(p.dtype)[None]
        for upper in (True, False):
            got, info = run_potrf(handle, "potrf", p, "plain", h, n + 2, upper)
            assert info[0] == 0
            assert chol_ratio(h, got, upper, p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
def test_potrs_from_flat_views_gives_the_entry_kernels_bits(p: Precision) -> None:
    # potrs of entries that do not overlap runs in parallel chunks, eight entries at a time in the
    # lanes of vectors (11: a last group of three); the entry-after-entry kernel (overlapping entries)
    # does the same operations: the same bits.  Zeros in b: columns the forward solve skips, in some
    # lanes of a step and not in others.
    rng = np.random.default_rng(9)
    for n, nrhs in ((1, 2), (8, 1), (17, 3), (33, 1), (64, 2)):
        nb = 11
        g = random(p, (nb, n, n), rng)
        a = (g @ np.conj(g.transpose(0, 2, 1)) + n * np.eye(n)).astype(p.dtype)
        b = random(p, (nb, n, nrhs), rng)
        b[rng.random(b.shape) < 0.3] = 0
        for upper in (False, True):
            A, info = a.copy(), np.zeros(nb, np.int32)
            kc.potrf(A, info, upper, False)
            out = []
            for serial in (False, True):
                B = b.copy()
                kc.potrs(A, B, upper, serial)
                out.append(B)
            assert same_bits(out[0], out[1]), (p, n, nrhs, upper)
            x = np.linalg.solve(a.astype(np.complex128), b)
            assert np.abs(out[0] - x).max() <= 1e3 * n * p.eps * max(1.0, np.abs(x).max()), (p, n, upper)


@pytest.mark.parametrize("p", SDCZ)
def test_posv_through_potrf_and_potrs_gives_the_entry_kernels_bits(p: Precision) -> None:
    # posv runs potrf's and potrs's kernels on entries that do not overlap, and entry after entry
    # (factor, then solve) on overlapping ones: the same bits and info either way, the B of an entry
    # that is not positive definite left as it was.
    rng = np.random.default_rng(23)
    for n, nrhs in ((3, 2), (kc.FIXED, 1), (13, 3), (kc.LANE_MAX, 1)):
        nb = 2 * kc.LANES + 3
        g = random(p, (nb, n, n), rng)
        a = (g @ np.conj(g.transpose(0, 2, 1)) + n * np.eye(n)).astype(p.dtype)
        a[4, n - 1, n - 1] = -1  # the last leading minor
        a[6, 0, 0] = np.nan
        b = random(p, (nb, n, nrhs), rng)
        for upper in (False, True):
            out = []
            for serial in (False, True):
                A, B, info = a.copy(), b.copy(), np.zeros(nb, np.int32)
                kc.posv(A, B, info, upper, serial)
                out.append((A, B, info))
            (a1, b1, i1), (a2, b2, i2) = out
            assert same_bits(a1, a2) and same_bits(b1, b2) and np.array_equal(i1, i2), (p, n, upper)
            assert i1[4] == n and i1[6] == 1 and same_bits(b1[4], b[4]) and same_bits(b1[6], b[6])
            assert not i1[np.r_[:4, 7:nb]].any()


@pytest.mark.parametrize("n", (8, 16, 33, 64))
def test_large_batches_of_small_matrices(handle: Any, n: int) -> None:
    batch = 1500
    rng = np.random.default_rng(n)
    bad = tuple(rng.choice(batch, 40, replace=False))
    a, expected = hpd(D, batch, n, rng, False, bad)
    got, info = run_potrf(handle, "potrf", D, "strided", a, n, False)
    assert np.array_equal(info, expected)
    assert np.array_equal(info, lapack_potrf(np.where(np.isnan(a), 0, a), False)[1])
    assert chol_ratio(a[info == 0], got[info == 0], False, D) < rt.RESIDUAL_THRESHOLD


def test_bitwise_deterministic_across_runs_and_flavours(handle: Any) -> None:
    batch, n = 3000, 12
    rng = np.random.default_rng(3)
    a, _ = hpd(D, batch, n, rng, True, bad=(5, 17))
    results = [run_potrf(handle, "potrf", D, flavour, a, n, True) for flavour in ("strided", "strided", "batched")]
    assert all(same_bits(r[0], results[0][0]) and np.array_equal(r[1], results[0][1]) for r in results)


def test_stride_zero_is_factored_in_entry_order(handle: Any) -> None:
    # strideA = 0: the same matrix factored three times in a row, as on one thread; the second
    # pass meets the factor's diagonal where it expects A's (still positive definite here).
    a, _ = hpd(D, 1, 5, np.random.default_rng(2), False)
    A = Matrix(a, 5, "strided")
    info = rm.zeros(3, np.int32)
    with closing(A):
        solver.dpotrf_strided_batched(handle, "L", 5, A.arg, 5, 0, info, 3)
        expected = a.copy()
        for _ in range(3):
            kc.potrf(expected, np.zeros(1, np.int32), False, serial=True)
        assert same_bits(A.get(), expected)


def test_grouped_small_potrf_gives_the_one_at_a_time_bits() -> None:
    # Entries of order at most FIXED that do not overlap are factored GROUP at a time, right-looking
    # in lockstep; overlapping ones (serial) by potf2 one after another: the same bits and info
    # (failed members keep their columns from the failed one on), a partial last group, every
    # precision and both triangles.
    rng = np.random.default_rng(13)
    batch = 2 * kc.GROUP + 3
    for p in SDCZ:
        for n in (kc.FIXED, 5):
            for upper in (False, True):
                a, expected = hpd(p, batch, n, rng, upper, bad=(1, 6))
                out = []
                for serial in (False, True):
                    A, info = a.copy(), np.zeros(batch, np.int32)
                    kc.potrf(A, info, upper, serial)
                    out.append((A, info))
                assert same_bits(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1]), (p, n, upper)
                assert np.array_equal(out[0][1], expected)


def test_lane_potrf_gives_the_one_at_a_time_bits() -> None:
    # Entries of order FIXED < n <= LANE_MAX that do not overlap are factored LANES at a time, one per
    # vector lane, right-looking in panels; overlapping ones (serial) by potf2 one after another: the
    # same bits and info (failed members, at their first, a middle or their last column, keep their
    # columns from the failed one on), a partial last group, column-major entries with padding rows
    # (lda = n + 3) that stay as they were, every precision and both triangles.
    rng = np.random.default_rng(17)
    batch = 2 * kc.LANES + 3
    for p in SDCZ:
        for n in (kc.FIXED + 1, 13, 16, 31, kc.LANE_MAX):
            for upper in (False, True):
                a, expected = hpd(p, batch, n, rng, upper, bad=(1, 6, batch - 1))
                for e, k in ((2, 0), (9, n - 1)):  # the first and the last column fail
                    a[e, k, k] = -1
                    expected[e] = k + 1
                out = []
                for serial in (False, True):
                    store = np.full((batch, n, n + 3), np.nan, p.dtype)  # [entry, column, row]
                    A = store[:, :, :n].transpose(0, 2, 1)
                    A[...] = a
                    info = np.zeros(batch, np.int32)
                    kc.potrf(A, info, upper, serial)
                    out.append((store, info))
                assert same_bits(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1]), (p, n, upper)
                assert np.array_equal(out[0][1], expected)
                assert np.isnan(out[0][0][:, :, n:]).all()


# --- potrs, posv ---------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_potrs(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed, upper = data.draw(setup())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)  # sometimes the LAPACK path
    nrhs = data.draw(rt.sizes(max_value=4))
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    h, f, _ = factor_of(p, batch, n, rng, upper)
    b = random(p, (batch, n, nrhs), rng)
    A, B = Matrix(f, lda, flavour, gap), Matrix(b, ldb, flavour, gap)
    with closing(A, B):
        call(handle, "potrs", p, flavour, batch, uplo=uplo(upper), n=n, nrhs=nrhs, A=A, B=B)
        A.check(logical=True)
        B.check()
        x = B.get()
    if n == 0 or nrhs == 0 or batch == 0:
        assert same_bits(x, b)
        return
    assert not np.isnan(x).any()
    assert rt.backward_error(h, x, b, precision=p) < rt.RESIDUAL_THRESHOLD


@settings(max_examples=rt.examples(16))
@given(st.data())
def test_potrs_batches_in_vector_lanes(handle: Any, data: st.DataObject) -> None:
    # Batches of LANES entries and more run LANES at a time, one per vector lane: through the API
    # (padded leading dimensions, gaps between entries, arrays of pointers, a last partial group),
    # the bits of the entry-after-entry kernel, which reads only the factor's triangle (NaN in the
    # other) as they must.
    p = data.draw(st.sampled_from(SDCZ))
    flavour = data.draw(st.sampled_from(("batched", "strided")))
    batch = data.draw(st.integers(kc.LANES, 2 * kc.LANES + 3))
    n, nrhs = data.draw(st.sampled_from((3, 8, 13, kc.LANE_MAX))), data.draw(st.integers(1, 3))
    gap, seed, upper = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2**32 - 1)), data.draw(st.booleans())
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    h, f, _ = factor_of(p, batch, n, rng, upper)
    b = random(p, (batch, n, nrhs), rng)
    # Zeros: columns the solves skip, in some lanes only; whole right-hand sides of +0 and -0 show
    # a skipped update (-0 - (-0) = +0) from none.
    zero = (rng.random(b.shape) < 0.2) | (rng.random((batch, 1, nrhs)) < 0.2)
    b[zero] = np.where(rng.random(b.shape) < 0.5, 0.0, -0.0)[zero]
    A, B = Matrix(f, lda, flavour, gap), Matrix(b, ldb, flavour, gap)
    with closing(A, B):
        call(handle, "potrs", p, flavour, batch, uplo=uplo(upper), n=n, nrhs=nrhs, A=A, B=B)
        A.check(logical=True)
        B.check()
        x = B.get()
    one_by_one = b.copy()
    kc.potrs(f.copy(), one_by_one, upper, True)
    assert same_bits(x, one_by_one)
    assert rt.backward_error(h, x, b, precision=p) < rt.RESIDUAL_THRESHOLD


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_posv(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed, upper = data.draw(setup())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)
    nrhs = data.draw(rt.sizes(max_value=3))
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a, expected = hpd(p, batch, n, rng, upper, bad_members(data.draw, batch))
    b = random(p, (batch, n, nrhs), rng)
    A, B, info = Matrix(a, lda, flavour, gap), Matrix(b, ldb, flavour, gap), info_array(batch)
    with closing(A, B, info):
        call(handle, "posv", p, flavour, batch, uplo=uplo(upper), n=n, nrhs=nrhs, A=A, B=B, info=info)
        A.check()
        B.check()
        info.check_untouched()
        got, x, inf = A.get(), B.get(), info.get()[:, 0]
    if n == 0 or nrhs == 0:  # rocSOLVER: info = 0 and A is not factored
        assert np.array_equal(inf, np.zeros(batch)) and same_bits(got, a) and same_bits(x, b)
        return
    assert np.array_equal(inf, expected)
    factored, _ = run_potrf(handle, "potrf", p, "strided", a, n, upper)
    assert same_bits(got, factored)  # A gets potrf's factorization
    for e in range(batch):
        if inf[e]:
            assert same_bits(x[e], b[e])  # B of an entry that is not positive definite is left as it was
        else:
            assert rt.backward_error(hermitian(a[e], upper), x[e], b[e], precision=p) < rt.RESIDUAL_THRESHOLD


# --- potri, trtri, lauum -------------------------------------------------------------------------


def run_in_place(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, lda: int, gap: int = 0,
                 **args: Any) -> tuple[np.ndarray, np.ndarray]:
    batch, n, _ = a.shape
    A, info = Matrix(a, lda, flavour, gap), info_array(batch)
    with closing(A, info):
        call(handle, routine, p, flavour, batch, n=n, A=A, info=info, **args)
        A.check()
        info.check_untouched()
        return A.get(), info.get()[:, 0]


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_potri(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed, upper = data.draw(setup())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    h, f, expected = factor_of(p, batch, n, rng, upper, bad_members(data.draw, batch))
    got, info = run_in_place(handle, "potri", p, flavour, f, lda, gap, uplo=uplo(upper))
    assert np.array_equal(info, expected)
    assert same_bits(other(got, upper), other(f, upper))
    if n == 0:
        assert same_bits(got, f)
        return
    for e in range(batch):
        if info[e]:
            assert same_bits(got[e], f[e])  # a singular factor is left as it was
        else:
            inv = hermitian(got[e], upper)
            assert inverse_ratio(h[e], inv, p) < rt.RESIDUAL_THRESHOLD


def triangular(p: Precision, batch: int, n: int, rng: np.random.Generator, upper: bool, unit: bool,
               singular: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(T the routine stores, the triangular matrix it stands for, info): well-conditioned,
    NaN in the other triangle (and, for a unit diagonal, on the diagonal)."""
    t = triangle(random(p, (batch, n, n), rng), upper) / max(n, 1) + 2 * np.eye(n, dtype=p.dtype)
    info = np.zeros(batch, np.int32)
    if not unit:
        for e in singular:
            if n:
                j = int(rng.integers(0, n))
                t[e, j, j] = 0
                info[e] = j + 1
    logical = t.copy()
    d = np.arange(n)
    if unit:
        logical[:, d, d] = 1
    stored = np.where(np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool), t, np.nan).astype(p.dtype)
    if unit:
        stored[:, d, d] = np.nan
    return stored, logical, info


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_trtri(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed, upper = data.draw(setup())
    unit = data.draw(st.booleans())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    stored, t, expected = triangular(p, batch, n, rng, upper, unit, bad_members(data.draw, batch))
    got, info = run_in_place(handle, "trtri", p, flavour, stored, lda, gap, uplo=uplo(upper),
                             diag="U" if unit else "N")
    assert np.array_equal(info, expected)
    assert same_bits(other(got, upper), other(stored, upper))
    d = np.arange(n)
    if unit:
        assert same_bits(got[:, d, d], stored[:, d, d])  # a unit diagonal is neither read nor written
    if n == 0:
        assert same_bits(got, stored)
        return
    for e in range(batch):
        if info[e]:
            assert same_bits(got[e], stored[e])
        else:
            inv = triangle(np.where(np.isnan(got[e]), 0, got[e]), upper)
            if unit:
                inv[d, d] = 1
            assert inverse_ratio(t[e], inv, p) < rt.RESIDUAL_THRESHOLD


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_lauum(handle: Any, data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    upper = data.draw(st.booleans())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)
    lda = data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    stored, t, _ = triangular(p, 1, n, rng, upper, False, ())
    A = Matrix(stored, lda, "plain")
    with closing(A):
        fn("lauum", p)(handle, uplo(upper), n, A.arg, lda)
        A.check()
        got = A.get()
    assert same_bits(other(got, upper), other(stored, upper))
    if n == 0:
        return
    tw = wide(t[0])
    ref = tw @ np.conj(tw.T) if upper else np.conj(tw.T) @ tw
    res = hermitian(got[0], upper)
    # rocSOLVER's lauum test: ||R - ref|| / (||ref|| eps) (tolerance 1); here n-scaled, threshold 30.
    norm = lambda x: np.abs(x).sum(axis=0).max()  # noqa: E731
    assert norm(res - ref) / (n * norm(ref) * p.eps) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("upper", (True, False))
def test_large_entries_give_lapacks_bits(handle: Any, p: Precision, upper: bool) -> None:
    # potrs, posv, potri, trtri, lauum beyond SMALL are scipy's LAPACK on the same data.
    rng = np.random.default_rng(7)
    lo = not upper
    _, f, _ = factor_of(p, 2, BIG, rng, upper, singular=(1,))
    f0 = np.where(np.isnan(f), 0, f)
    b = random(p, (2, BIG, 3), rng)
    ref = lapack.get_lapack_funcs(("potrs", "potri", "trtri", "lauum", "posv"), dtype=p.dtype)
    A, B = Matrix(f0[:1], BIG + 1, "strided"), Matrix(b[:1], BIG, "strided")
    with closing(A, B):
        call(handle, "potrs", p, "strided", 1, uplo=uplo(upper), n=BIG, nrhs=3, A=A, B=B)
        assert same_bits(B.get()[0], ref[0](f0[0], b[0], lower=lo)[0])
    got, info = run_in_place(handle, "potri", p, "batched", f0, BIG + 2, uplo=uplo(upper))
    assert info[1] > 0 and same_bits(got[1], f0[1])
    assert same_bits(got[0], ref[1](f0[0], lower=lo)[0])
    got, info = run_in_place(handle, "trtri", p, "strided", f0, BIG, 2, uplo=uplo(upper), diag="N")
    assert info[1] > 0 and same_bits(got[0], ref[2](f0[0], lower=lo)[0])
    if not p.is_complex:  # LAPACK's zlauum reads only the real part of the diagonal; see test_lauum
        A = Matrix(f0[:1], BIG + 3, "plain")
        with closing(A):
            fn("lauum", p)(handle, uplo(upper), BIG, A.arg, BIG + 3)
            assert same_bits(A.get()[0], ref[3](f0[0], lower=lo)[0])
    a, _ = hpd(p, 1, BIG, rng, upper)
    a0 = np.where(np.isnan(a), 0, a)
    A, B, info = Matrix(a0, BIG, "batched"), Matrix(b[:1], BIG + 1, "batched"), info_array(1)
    with closing(A, B, info):
        call(handle, "posv", p, "batched", 1, uplo=uplo(upper), n=BIG, nrhs=3, A=A, B=B, info=info)
        c, x, _ = ref[4](a0[0], b[0], lower=lo)
        assert same_bits(A.get()[0], c) and same_bits(B.get()[0], x)


@pytest.mark.slow
@pytest.mark.parametrize("p", (D, Z))
def test_one_large_matrix(handle: Any, p: Precision) -> None:
    n = 1024
    rng = np.random.default_rng(1)
    for upper in (True, False):
        a, _ = hpd(p, 1, n, rng, upper)
        got, info = run_potrf(handle, "potrf", p, "plain", a, n, upper)
        assert info[0] == 0 and chol_ratio(a, got, upper, p) < rt.RESIDUAL_THRESHOLD


# --- argument checking ---------------------------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the
    exception class and the argument it names (and its position); nothing may change."""
    rng = np.random.default_rng(0)
    mats = {name: rt.poisoned_device_matrix(hpd(D, 1, 4, rng, False)[0][0], 4) for name in "AB"}
    info = rt.poisoned_device_vector(np.zeros(1, np.int32))

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(uplo="L", diag="N", n=4, nrhs=4, lda=4, ldb=4, strideA=16, strideB=16,
                                    batch_count=1, info=info.ptr)
        for name, mat in mats.items():
            base[name] = mat.ptr
        f = fn(routine, D, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2  # its position in the C prototype (handle is #1)
        for buf in (*mats.values(), info):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), info):
        buf.close()


BAD_ARGUMENTS = [
    # potrf-like: uplo, then sizes (n, lda), then pointers (A, info)
    ("potrf", VALUE, "uplo", dict(uplo="X")),
    ("potrf", VALUE, "uplo", dict(uplo=123)),  # rocblas_fill_full is not allowed
    ("potrf", SIZE, "n", dict(n=-1)),
    ("potrf", SIZE, "lda", dict(lda=3)),
    ("potrf", POINTER, "A", dict(A=None)),
    ("potrf", POINTER, "info", dict(info=None)),
    ("potrf", POINTER, "info", dict(n=0, A=None, info=None)),  # info is needed even for an empty matrix
    ("potf2", SIZE, "lda", dict(lda=0)),
    ("potf2", POINTER, "A", dict(A=0)),
    ("potri", VALUE, "uplo", dict(uplo=None)),
    ("potri", SIZE, "lda", dict(n=5)),
    ("potri", POINTER, "A", dict(A=None)),
    ("potri", POINTER, "info", dict(info=None)),
    # potrs: uplo, sizes (n, nrhs, lda, ldb), pointers (A, B; no info)
    ("potrs", VALUE, "uplo", dict(uplo="N")),
    ("potrs", SIZE, "n", dict(n=-1)),
    ("potrs", SIZE, "nrhs", dict(nrhs=-1)),
    ("potrs", SIZE, "lda", dict(lda=3)),
    ("potrs", SIZE, "ldb", dict(ldb=3)),
    ("potrs", POINTER, "A", dict(A=None)),
    ("potrs", POINTER, "B", dict(B=None)),
    # posv
    ("posv", SIZE, "nrhs", dict(nrhs=-2)),
    ("posv", SIZE, "ldb", dict(ldb=2)),
    ("posv", POINTER, "A", dict(A=None)),
    ("posv", POINTER, "B", dict(B=None)),
    ("posv", POINTER, "info", dict(info=None)),
    ("posv", POINTER, "info", dict(n=0, A=None, B=None, info=None)),
    # trtri: uplo, diag, sizes, pointers
    ("trtri", VALUE, "uplo", dict(uplo="F")),
    ("trtri", VALUE, "diag", dict(diag="X")),
    ("trtri", VALUE, "diag", dict(diag=133)),
    ("trtri", SIZE, "n", dict(n=-1)),
    ("trtri", SIZE, "lda", dict(lda=1)),
    ("trtri", POINTER, "A", dict(A=None)),
    ("trtri", POINTER, "info", dict(info=None)),
    # lauum: uplo, sizes, A only
    ("lauum", VALUE, "uplo", dict(uplo="X")),
    ("lauum", SIZE, "n", dict(n=-1)),
    ("lauum", SIZE, "lda", dict(lda=3)),
    ("lauum", POINTER, "A", dict(A=None)),
    # rocSOLVER's order: values beat sizes beat pointers; sizes beat the quick return
    ("potrf", VALUE, "uplo", dict(uplo="X", n=-1, A=None)),
    ("trtri", VALUE, "uplo", dict(uplo="X", diag="X")),
    ("trtri", VALUE, "diag", dict(diag="X", n=-1)),
    ("potrs", SIZE, "n", dict(n=-1, nrhs=-1, A=None, B=None)),
    ("potrs", SIZE, "lda", dict(lda=3, ldb=3, A=None)),
    ("posv", SIZE, "lda", dict(nrhs=0, lda=3, A=None)),
    ("potrf", SIZE, "lda", dict(n=3, lda=2, A=None, info=None)),
]


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


BATCHED_ROUTINES = ("potf2", "potrf", "potrs", "posv", "potri", "trtri")


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in BATCHED_ROUTINES:
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, A=None)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)  # the matrix is needed whatever the count
    for routine in ("potrf", "posv", "potri", "trtri"):
        bad(routine, flavour, POINTER, "info", info=None)


def test_potrs_needs_b_only_with_right_hand_sides(handle: Any) -> None:
    f = rt.poisoned_device_matrix(np.eye(3), 3)
    with closing(f):
        solver.dpotrs(handle, "U", 3, 0, f.ptr, 3, None, 3)
        solver.dpotrs(handle, "U", 0, 2, None, 1, None, 1)
        f.check_untouched(logical=True)


def test_invalid_handle() -> None:
    for h in (None, object()):
        with pytest.raises(RocblasInvalidHandleError):
            solver.dpotrf(h, "X", -1, 0, 0, 0)  # the handle is checked first
    h = blas.create_handle()
    blas.destroy_handle(h)
    with pytest.raises(RocblasInvalidHandleError):
        solver.zlauum(h, "U", 1, 0, 1)


@pytest.mark.parametrize("routine", BATCHED_ROUTINES)
def test_quick_returns(handle: Any, routine: str) -> None:
    # batch_count == 0: nothing is touched (info neither), null arrays are fine; an empty matrix:
    # info := 0 for every entry, nothing else touched.
    f = fn(routine, D, "strided")
    params = list(inspect.signature(f).parameters)[1:]
    info = info_array(3)
    with closing(info):
        args = {name: {"uplo": "U", "diag": "N"}.get(name, 0) for name in params}
        f(handle, **args)
        info.check_untouched()
        if "info" in params:
            empty = {"info": info.ptr, "batch_count": 3, "nrhs": 2, "lda": 1, "ldb": 1}
            f(handle, **(args | {k: v for k, v in empty.items() if k in params}))
            assert np.array_equal(info.get(), np.zeros((3, 1)))


def test_posv_without_right_hand_sides_does_not_factor(handle: Any) -> None:
    a, _ = hpd(D, 1, 3, np.random.default_rng(1), False)
    A, info = Matrix(a, 3, "plain"), info_array(1)
    with closing(A, info):
        solver.dposv(handle, "L", 3, 0, A.arg, 3, None, 3, info.ptr)
        A.check(logical=True)
        assert info.get()[0, 0] == 0


def test_size_queries_skip_pointer_checks(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert solver.dpotrf(handle, "U", 1024, None, 1024, None) is RocblasStatus.size_increased
        assert solver.zpotri_strided_batched(handle, "L", 8, None, 8, 64, None, 10) is RocblasStatus.size_increased
        assert solver.strtri(handle, "U", "N", 8, None, 8, None) is RocblasStatus.size_unchanged
        assert solver.dpotrs(handle, "U", 8, 0, None, 8, None, 8) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            solver.dlauum(handle, "U", 8, None, 7)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == max(kc.workspace(kc.POTRF, 1024, 0, 1, 8), kc.workspace(kc.POTRI, 8, 0, 10, 16))


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(solver.dpotrf_batched) == ["handle", "uplo", "n", "A", "lda", "info", "batch_count"]
    assert names(solver.zpotf2_strided_batched) == ["handle", "uplo", "n", "A", "lda", "strideA", "info",
                                                    "batch_count"]
    assert names(solver.spotrs_strided_batched) == ["handle", "uplo", "n", "nrhs", "A", "lda", "strideA", "B", "ldb",
                                                    "strideB", "batch_count"]
    assert names(solver.cposv_batched) == ["handle", "uplo", "n", "nrhs", "A", "lda", "B", "ldb", "info",
                                           "batch_count"]
    assert names(solver.dtrtri_strided_batched) == ["handle", "uplo", "diag", "n", "A", "lda", "strideA", "info",
                                                    "batch_count"]
    assert names(solver.zpotri) == ["handle", "uplo", "n", "A", "lda", "info"]
    assert names(solver.dlauum) == ["handle", "uplo", "n", "A", "lda"]
    assert not hasattr(solver, "dlauum_batched")
    assert "rocsolver_dpotrf(" in solver.dpotrf.__doc__
