"""rocSOLVER's symmetric indefinite factorization: sytf2 and sytrf (Bunch-Kaufman), from rocmath.solver.sytrf.

Judged three ways: against scipy's LAPACK ``?sytrf`` (the same pivots, info and bits: the
same LAPACK code runs, unblocked up to rocSOLVER's switch size of 128 columns, blocked beyond);
against a transcription of rocSOLVER's own device code (roclapack_sytf2.hpp), which must make
the same pivot choices, so that LAPACK's answers are rocSOLVER's; and by the reconstruction
ratio ``||A - U D U^T||_1 / (n ||A||_1 eps) < 30`` with ``U`` rebuilt from LAPACK's documented
format (``U = P(n) U(n) ... P(k) U(k) ...``, so ``U D U^T`` is ``P^T (triangular D triangular^T)
P``).  Complex matrices are symmetric, not Hermitian.  The triangle a routine does not
reference holds NaN and must keep its bits; padding, strided gaps and an entry past
``batch_count`` must keep theirs.  Argument checking (rocSOLVER's order, one case per check)
and size queries are at the end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import Matrix, Vector, closing, info_array, random, same_bits, wide

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import sytrf as sy

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
ROUTINES = ("sytf2", "sytrf")
UPPER, LOWER = 121, 122  # rocblas_fill
INT_SENTINEL = rt.sentinel_value(np.int32)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    return getattr(sy, f"{p.letter}{routine}{SUFFIX[flavour]}")


# --- data and references ----------------------------------------------------------------------------


def symmetric(p: Precision, batch: int, n: int, rng: np.random.Generator, upper: bool, *,
              zero_diagonal: bool = False, singular: tuple[int, ...] = ()) -> np.ndarray:
    """Random symmetric (complex: symmetric, not Hermitian) matrices in their ``upper``/lower
    triangle, NaN in the other one.  ``zero_diagonal`` forces 2x2 pivots; entries in ``singular``
    get a zero row and column (an exactly zero D(k, k) somewhere: info > 0)."""
    x = wide(random(p, (batch, n, n), rng))
    a = x + np.swapaxes(x, -1, -2)
    if zero_diagonal and n:
        a[:, np.arange(n), np.arange(n)] = 0
    for e in singular:
        if n:
            j = int(rng.integers(0, n))
            a[e, j, :] = a[e, :, j] = 0
    keep = np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool)
    return np.where(keep, a, np.nan).astype(p.dtype)


def full(a: np.ndarray, upper: bool) -> np.ndarray:
    """The symmetric matrices whose ``upper``/lower triangle ``a`` holds (wide)."""
    t = wide(np.nan_to_num(a))
    t = np.triu(t) if upper else np.tril(t)
    return t + np.swapaxes(t, -1, -2) - t * np.eye(a.shape[-1])


def other(a: np.ndarray, upper: bool) -> np.ndarray:
    """The elements of the triangle a routine working on ``upper``/lower must not reference."""
    n = a.shape[-1]
    mask = np.tri(n, n, -1, dtype=bool) if upper else np.tri(n, n, -1, dtype=bool).T
    return a[..., mask]


def mine(a: np.ndarray, upper: bool) -> np.ndarray:
    """The elements of the ``upper``/lower triangle (the factors)."""
    n = a.shape[-1]
    mask = np.tri(n, dtype=bool).T if upper else np.tri(n, dtype=bool)
    return a[..., mask]


def lapack_sytrf(a: np.ndarray, upper: bool, blocked: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scipy's LAPACK ?sytrf on each entry: (factors, 1-based ipiv, info).  Unblocked (?sytf2)
    unless ``blocked`` and n > the switch size: lwork = n (LAPACK then takes block size n)
    or n * 64 (?lasyf panels of 64 columns)."""
    sytrf = lapack.get_lapack_funcs("sytrf", dtype=a.dtype)
    n = a.shape[-1]
    lwork = n * sy.NB if blocked and n > sy.SWITCH else max(n, 1)
    out = [sytrf(np.asfortranarray(np.nan_to_num(x)), lower=int(not upper), lwork=lwork) for x in a]
    f = np.stack([o[0] for o in out]) if out else a.copy()
    piv = np.stack([o[1] for o in out]) if out else np.zeros((0, n), np.int32)
    return f, piv, np.array([o[2] for o in out], dtype=np.int32)


def unpack(f: np.ndarray, ipiv: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """(U, D) of one factored matrix from LAPACK's format: A = U D U^T, U = P(n) U(n) ... P(k)
    U(k) ... for upper (k decreasing), L = P(1) L(1) ... P(k) L(k) ... for lower (k increasing);
    P(k) interchanges k and |ipiv(k)| (k - 1 and -ipiv(k) after a 2x2 block for upper, k + 1 for
    lower); U(k) is the identity but for v, the multipliers of column k (columns k-1, k) above
    the block, stored over A (L(k): below it)."""
    f = wide(f)
    n = f.shape[-1]
    m, d = np.eye(n, dtype=f.dtype), np.zeros((n, n), f.dtype)
    k = n - 1 if upper else 0
    while 0 <= k < n:
        s = 1 if ipiv[k] > 0 else 2
        first = k - s + 1 if upper else k  # the block's first row and column
        cols = slice(first, first + s)
        d[cols, cols] = np.triu(f[cols, cols]) if upper else np.tril(f[cols, cols])
        d[cols, cols] += np.swapaxes(d[cols, cols], 0, 1) * (1 - np.eye(s))
        swap = (first if upper else k + s - 1, abs(int(ipiv[k])) - 1)  # P(k): these two
        m[:, [swap[0], swap[1]]] = m[:, [swap[1], swap[0]]]
        v = f[:first, cols] if upper else f[first + s:, cols]  # U(k) - I = v in those columns
        w = m[:, :first] if upper else m[:, first + s:]
        m[:, cols] += (w[:, :, None] * v[None]).sum(axis=1)  # w @ v, without BLAS threads (cheap)
        k = k - s if upper else k + s
    return m, d


def reconstruction_ratio(a: np.ndarray, got: np.ndarray, ipiv: np.ndarray, upper: bool, p: Precision) -> float:
    """||A - U D U^T||_1 / (n ||A||_1 eps), the worst entry of the batch (0 for empty ones)."""
    n = a.shape[-1]
    if a.shape[0] == 0 or n == 0:
        return 0.0
    worst = 0.0
    norm = lambda x: np.abs(x).sum(axis=0).max()  # noqa: E731
    for x, f, piv in zip(full(a, upper), got, ipiv, strict=True):
        u, d = unpack(f, piv, upper)
        resid = norm(x - u @ d @ u.T)
        worst = max(worst, resid / (n * max(norm(x), np.finfo(float).tiny) * p.eps))
    return worst


def rocsolver_sytf2(a: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """rocSOLVER's sytf2_device_upper/_lower (library/src/lapack/roclapack_sytf2.hpp) on one
    symmetric matrix (zeros in the other triangle), one thread, in its order of operations:
    (factors, ipiv, info).  Its own pivot choices, to compare with LAPACK's: alpha = (1 +
    sqrt(17)) / 8, maxima by |re| + |im| (aabs), the first of equal maxima (iamax)."""
    a = wide(a).copy()
    n = a.shape[0]
    alpha = (1 + np.sqrt(17.0)) / 8
    ipiv, info = np.zeros(n, np.int64), 0

    def aabs(x: Any) -> Any:
        return np.abs(np.real(x)) + np.abs(np.imag(x))

    def swap(r1: Any, c1: Any, r2: Any, c2: Any) -> None:
        t = a[r1, c1].copy()
        a[r1, c1] = a[r2, c2]
        a[r2, c2] = t

    k = n - 1 if upper else 0
    while 0 <= k < n:
        kstep, kp = 1, k
        col = a[:k, k] if upper else a[k + 1:, k]
        imax = int(np.argmax(aabs(col))) + (0 if upper else k + 1) if col.size else -1
        colmax, absakk = (aabs(col).max() if col.size else 0.0), aabs(a[k, k])
        if max(absakk, colmax) == 0:
            info = info or k + 1
        else:
            if not absakk >= alpha * colmax:  # as written there (a NaN takes this branch)
                if upper:
                    rowmax = aabs(a[imax, imax + 1:k + 1]).max()
                    if imax > 0:
                        rowmax = max(rowmax, aabs(a[:imax, imax]).max())
                else:
                    rowmax = aabs(a[imax, k:imax]).max()
                    if imax < n - 1:
                        rowmax = max(rowmax, aabs(a[imax + 1:, imax]).max())
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif aabs(a[imax, imax]) >= alpha * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k - kstep + 1 if upper else k + kstep - 1
            if kp != kk:
                swap(kk, kk, kp, kp)
                if kstep == 2:
                    swap(kk, k, kp, k)
                if upper:
                    swap(slice(0, kp), kk, slice(0, kp), kp)
                    between = np.arange(kp + 1, kk)
                else:
                    swap(slice(kp + 1, n), kk, slice(kp + 1, n), kp)
                    between = np.arange(kk + 1, kp)
                swap(between, kk, kp, between)
            if kstep == 1 and upper:
                r1 = 1 / a[k, k]
                for j in range(k):
                    a[:j + 1, j] += a[:j + 1, k] * (-r1 * a[j, k])
                a[:k, k] *= r1
            elif kstep == 1 and k < n - 1:
                r1 = 1 / a[k, k]
                for j in range(k + 1, n):
                    a[j:, j] += a[j:, k] * (-r1 * a[j, k])
                a[k + 1:, k] *= r1
            elif kstep == 2:
                near, far = (k - 1, k) if upper else (k + 1, k)  # the block's other column, this one
                d12 = a[k - 1, k] if upper else a[k + 1, k]
                d22, d11 = a[near, near] / d12, a[far, far] / d12
                d12 = 1 / ((d11 * d22 - 1) * d12)
                rows = range(k - 2, -1, -1) if upper else range(k + 2, n)
                w = {j: (d12 * (d11 * a[j, near] - a[j, far]), d12 * (d22 * a[j, far] - a[j, near])) for j in rows}
                for j in rows:
                    part = slice(0, j + 1) if upper else slice(j, n)
                    a[part, j] = a[part, j] - a[part, far] * w[j][1] - a[part, near] * w[j][0]
                for j in rows:
                    a[j, near], a[j, far] = w[j]
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k - 1 if upper else k + 1] = -(kp + 1)
        k = k - kstep if upper else k + kstep
    return a, ipiv, info


# --- operands and calls --------------------------------------------------------------------------------


def run(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, upper: bool, lda: int, *,
        batch: int | None = None, gap: int = 0, pgap: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run ``routine`` on the stack ``a`` (its first ``batch`` entries; the rest must be left as
    they are, with their pivots and info); return (A, ipiv, info) of the whole stack, every
    operand's padding checked, ipiv and info of the entries run all written."""
    total, n, _ = a.shape
    batch = total if batch is None else batch
    A = Matrix(a, lda, flavour, gap)
    P = Vector(total, n, flavour, pgap)
    info = info_array(total)
    with closing(A, P, info):
        f = fn(routine, p, flavour)
        values: dict[str, Any] = dict(handle=handle, uplo=UPPER if upper else LOWER, n=n, A=A.arg, lda=lda,
                                      strideA=A.stride, ipiv=P.arg, strideP=P.stride, info=info.ptr,
                                      batch_count=batch)
        f(**{name: values[name] for name in inspect.signature(f).parameters})
        A.check()
        P.check()
        info.check_untouched()
        got, piv, inf = A.get(), P.get(), info.get()[:, 0]
    assert same_bits(got[batch:], a[batch:]) and (piv[batch:] == INT_SENTINEL).all()
    assert (inf[batch:] == INT_SENTINEL).all()
    if n:
        assert (piv[:batch] != INT_SENTINEL).all()
    return got, piv, inf


def check_against_lapack(a: np.ndarray, got: np.ndarray, piv: np.ndarray, info: np.ndarray, upper: bool,
                         blocked: bool, p: Precision, residual: bool = True) -> None:
    """scipy's LAPACK's ipiv, info and factors (the same bits), the other triangle's bits kept
    and (``residual``) U D U^T reproducing A."""
    ref, ref_piv, ref_info = lapack_sytrf(a, upper, blocked)
    assert np.array_equal(piv, ref_piv)
    assert np.array_equal(info, ref_info)
    assert same_bits(mine(got, upper), mine(ref, upper))
    assert same_bits(other(got, upper), other(a, upper))
    if residual:
        assert reconstruction_ratio(a, got, piv, upper, p) < rt.RESIDUAL_THRESHOLD


# --- factorizations ---------------------------------------------------------------------------------------


@settings(max_examples=rt.examples(60))
@given(st.data())
def test_matches_lapack(handle: Any, data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    flavour = data.draw(st.sampled_from(FLAVOURS))
    routine, upper = data.draw(st.sampled_from(ROUTINES)), data.draw(st.booleans())
    batch = 1 if flavour == "plain" else data.draw(st.integers(0, 3))
    n = data.draw(rt.sizes(max_value=9))
    lda = data.draw(rt.leading_dimensions(n, max_padding=3))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    singular = tuple(e for e in range(batch) if data.draw(st.booleans()))
    a = symmetric(p, batch + (flavour != "plain"), n, rng, upper, zero_diagonal=data.draw(st.booleans()),
                  singular=singular)
    got, piv, info = run(handle, routine, p, flavour, a, upper, lda, batch=batch, gap=data.draw(st.integers(0, 2)),
                         pgap=data.draw(st.integers(0, 2)))
    got, piv, info, a = got[:batch], piv[:batch], info[:batch], a[:batch]
    if n == 0:
        assert np.array_equal(info, np.zeros(batch))
        return
    check_against_lapack(a, got, piv, info, upper, routine == "sytrf", p)
    assert all(info[e] > 0 for e in singular)


@pytest.mark.parametrize("upper", (True, False))
@pytest.mark.parametrize("p", (D, Z))
def test_rocsolver_pivots_are_lapacks(handle: Any, p: Precision, upper: bool) -> None:
    # rocSOLVER's device code, transcribed, makes the pivot choices LAPACK makes: the same ipiv
    # and info on random, zero-diagonal (2x2 blocks) and singular matrices, factors equal up to
    # rounding (its 2x2 update computes 1 / ((d11 d22 - 1) d12) where LAPACK divides twice).
    rng = np.random.default_rng(7 + upper)
    for n in (1, 2, 3, 5, 8, 11):
        batch = 12
        a = np.concatenate([symmetric(p, batch // 2, n, rng, upper, singular=(0, 1)),
                            symmetric(p, batch // 2, n, rng, upper, zero_diagonal=True, singular=(2,))])
        got, piv, info = run(handle, "sytf2", p, "strided", a, upper, n)
        two_by_two = 0
        for e in range(batch):
            f, ref_piv, ref_info = rocsolver_sytf2(np.where(np.isnan(a[e]), 0, a[e]), upper)
            assert np.array_equal(piv[e], ref_piv), (n, e)
            assert info[e] == ref_info
            scale = np.abs(mine(f, upper)).max()
            np.testing.assert_allclose(mine(wide(got[e]), upper), mine(f, upper), rtol=0, atol=1e-10 * scale)
            two_by_two += int((piv[e] < 0).sum())
        assert (info[[0, 1, batch // 2 + 2]] > 0).all()
        assert n < 2 or two_by_two > 0


@pytest.mark.parametrize("routine", ROUTINES)
def test_known_factorizations(handle: Any, routine: str) -> None:
    # A 2x2 block without interchange; an indefinite diagonal (1x1 blocks, info 0); the zero
    # matrix: info is the first zero D(k, k) in the factorization's order (the last column for
    # upper, the first for lower), ipiv the identity.
    cases = [(np.array([[0.0, 1], [1, 0]]), [-1, -1], [-2, -2], 0, 0),
             (np.diag([1.0, -1.0]), [1, 2], [1, 2], 0, 0),
             (np.zeros((3, 3)), [1, 2, 3], [1, 2, 3], 3, 1)]
    for x, piv_u, piv_l, info_u, info_l in cases:
        for upper, ref_piv, ref_info in ((True, piv_u, info_u), (False, piv_l, info_l)):
            a = np.where(np.tri(len(x), dtype=bool).T if upper else np.tri(len(x), dtype=bool), x, np.nan)
            got, piv, info = run(handle, routine, D, "plain", a[None], upper, len(x) + 1)
            assert piv[0].tolist() == ref_piv and info[0] == ref_info
            assert np.array_equal(mine(got, upper), mine(a[None], upper))  # D = A, no multipliers (-0 is 0)


def test_nan_on_the_diagonal_is_lapacks_info(handle: Any) -> None:
    # LAPACK (3.2 on) skips a step whose diagonal is NaN and reports it in info, as a zero column.
    # rocSOLVER's device code has no NaN test: here it would interchange 1 and 2 (NaN >= alpha *
    # colmax is false), spread the NaN and report info 0.  The results are LAPACK's.
    a = np.array([[[1.0, 1.0], [np.nan, np.nan]]])  # upper triangle [[1, 1], [., NaN]]
    got, piv, info = run(handle, "sytrf", D, "plain", a, True, 2)
    assert piv[0].tolist() == [1, 2] and info[0] == 2
    assert got[0, 0, 0] == 1 and got[0, 0, 1] == 1


@pytest.mark.parametrize("p", SDCZ)
def test_sytrf_blocks_beyond_the_switch_size(handle: Any, p: Precision) -> None:
    # n > 128: LAPACK's blocked ?sytrf (its bits; padded strided batches with a singular member);
    # at most 128 columns the unblocked one, as rocSOLVER's sytrf, and sytf2 at any size.
    rng = np.random.default_rng(3)
    n = sy.SWITCH + 5
    for upper in (True, False):
        a = symmetric(p, 2, n, rng, upper, singular=(1,))
        got, piv, info = run(handle, "sytrf", p, "strided", a, upper, n + 1, gap=3)
        check_against_lapack(a, got, piv, info, upper, True, p)
        assert info[0] == 0 and info[1] > 0
    routine, n = ("sytf2", sy.SWITCH + 1) if p in (D, Z) else ("sytrf", sy.SWITCH)
    a = symmetric(p, 1, n, rng, False)
    got, piv, info = run(handle, routine, p, "batched", a, False, n)
    check_against_lapack(a, got, piv, info, False, False, p, residual=False)


def test_large_batches_and_overlapping_entries(handle: Any) -> None:
    # Many entries run in parallel chunks: the bits of one at a time.  strideP = 0: every entry
    # writes the same pivots, in entry order (the last one's remain).
    rng = np.random.default_rng(11)
    a = symmetric(D, 3000, 6, rng, True, singular=(5,))
    got, piv, info = run(handle, "sytrf", D, "strided", a, True, 6)
    ref, ref_piv, ref_info = lapack_sytrf(a, True, True)
    assert np.array_equal(piv, ref_piv) and np.array_equal(info, ref_info) and info[5] > 0
    assert same_bits(mine(got, True), mine(ref, True))
    A = Matrix(a[:4], 6, "strided")
    ipiv, info_d = rm.zeros(6, np.int32), rm.zeros(4, np.int32)
    with closing(A):
        sy.dsytf2_strided_batched(handle, UPPER, 6, A.arg, 6, A.stride, ipiv, 0, info_d, 4)
        assert np.array_equal(ipiv.get(), ref_piv[3]) and np.array_equal(info_d.get(), ref_info[:4])


# --- argument checking, quick returns, size queries -------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the exception
    class and the argument it names (and its position); nothing may change."""
    A = rt.poisoned_device_matrix(np.nan_to_num(symmetric(D, 2, 4, np.random.default_rng(0), False)), 4)
    piv = rt.poisoned_device_vector(np.zeros(8, np.int32))
    info = rt.poisoned_device_vector(np.zeros(2, np.int32))
    ptrs = rm.to_device(np.array([A.ptr, A.ptr + 16 * 8], np.uint64))

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(uplo=LOWER, n=4, A=ptrs if flavour == "batched" else A.ptr, lda=4, strideA=16,
                                    ipiv=piv.ptr, strideP=4, info=info.ptr, batch_count=2)
        f = fn(routine, D, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2  # its position in the C prototype (handle is #1)
        assert err.value.status == error.status  # type: ignore[attr-defined]
        for buf in (A, piv, info):
            buf.check_untouched(logical=True)

    yield check
    for buf in (A, piv, info):
        buf.close()


# rocsolver_sytf2_sytrf_argCheck: 1. uplo; 2. n, lda, batch_count; 3. A (n > 0), ipiv (n > 0),
# info (batch_count > 0).  Each check alone, then each beating the ones after it.
BAD_ARGUMENTS = [
    ("plain", VALUE, "uplo", dict(uplo=123)),  # rocblas_fill_full
    ("plain", VALUE, "uplo", dict(uplo="X")),
    ("plain", SIZE, "n", dict(n=-1)),
    ("plain", SIZE, "lda", dict(lda=3)),
    ("strided", SIZE, "batch_count", dict(batch_count=-1)),
    ("plain", POINTER, "A", dict(A=None)),
    ("plain", POINTER, "ipiv", dict(ipiv=None)),
    ("plain", POINTER, "info", dict(info=None)),
    ("batched", POINTER, "info", dict(n=0, A=None, ipiv=None, info=None)),  # info is needed even when n == 0
    ("strided", POINTER, "A", dict(A=None, batch_count=0, info=None)),  # A and ipiv whatever the count
    ("batched", POINTER, "ipiv", dict(ipiv=None, batch_count=0)),
    ("plain", VALUE, "uplo", dict(uplo=0, n=-1, lda=-1, A=None)),
    ("strided", SIZE, "n", dict(n=-1, lda=-2, batch_count=-1, A=None)),
    ("batched", SIZE, "lda", dict(lda=3, batch_count=-1, info=None)),
    ("strided", SIZE, "batch_count", dict(batch_count=-1, A=None, ipiv=None, info=None)),
    ("plain", POINTER, "A", dict(A=None, ipiv=None, info=None)),
    ("batched", POINTER, "ipiv", dict(ipiv=None, info=None)),
]


@pytest.mark.parametrize("routine", ROUTINES)
@pytest.mark.parametrize(("flavour", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{f}-{a}-{i}" for i, (f, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, flavour: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, flavour, error, arg, **changes)


def test_invalid_handle() -> None:
    for h in (None, object()):
        with pytest.raises(RocblasInvalidHandleError):
            sy.dsytrf(h, UPPER, 4, 0, 4, 0, 0)
    h = blas.create_handle()
    blas.destroy_handle(h)
    with pytest.raises(RocblasInvalidHandleError):
        sy.zsytf2_batched(h, 0, -1, None, 0, None, 0, None, -1)  # the handle is checked first


@pytest.mark.parametrize("routine", ROUTINES)
def test_quick_returns(handle: Any, routine: str) -> None:
    # batch_count == 0: nothing is touched, info may be null (A and ipiv may not: n > 0); n == 0:
    # info := 0 for every entry, A and ipiv may be null.
    f = fn(routine, D, "strided")
    info = info_array(3)
    A, P = Matrix(symmetric(D, 1, 4, np.random.default_rng(1), True), 4, "strided"), Vector(1, 4, "strided")
    with closing(info, A, P):
        f(handle, UPPER, 4, A.arg, 4, 16, P.arg, 4, None, 0)
        A.check(logical=True)
        P.check(logical=True)
        info.check_untouched()
        f(handle, LOWER, 0, None, 0, 0, None, 0, info.ptr, 3)
        assert np.array_equal(info.get(), np.zeros((3, 1)))


def test_size_queries_and_user_workspace() -> None:
    h = blas.create_handle()
    try:
        blas.start_device_memory_size_query(h)
        # Null pointers are fine during a query (sizes still checked); sytf2 takes no workspace, nor
        # sytrf up to the switch size (rocSOLVER's too: its sytrf is then sytf2).
        assert sy.dsytf2(h, UPPER, 1000, None, 1000, None, None) is RocblasStatus.size_unchanged
        assert sy.zsytrf_strided_batched(h, LOWER, sy.SWITCH, None, sy.SWITCH, 0, None, 0, None, 9) is \
            RocblasStatus.size_unchanged
        assert sy.dsytrf(h, UPPER, 200, None, 200, None, None) is RocblasStatus.size_increased
        with pytest.raises(RocblasInvalidSizeError):
            sy.dsytf2(h, UPPER, 8, None, 7, None, None)
        size = blas.stop_device_memory_size_query(h)
        need = sy.workspace(200, 1, 8, True)
        assert size == -(-need // 64) * 64 and need >= 200 * sy.NB * 8
        # A user workspace one element short: memory_error before anything is written.
        n = sy.SWITCH + 1
        a = symmetric(D, 1, n, np.random.default_rng(2), True)
        A, piv, info = Matrix(a, n, "plain"), Vector(1, n, "plain"), info_array(1)
        ws = rm.malloc(sy.workspace(n, 1, 8, True))
        with closing(A, piv, info):
            blas.set_workspace(h, ws, sy.workspace(n, 1, 8, True) - 8)
            with pytest.raises(RocblasMemoryError):
                sy.dsytrf(h, UPPER, n, A.arg, n, piv.arg, info.ptr)
            A.check(logical=True)
            info.check_untouched(logical=True)
            sy.dsytf2(h, UPPER, n, A.arg, n, piv.arg, info.ptr)  # needs none
            assert info.get()[0, 0] == 0
    finally:
        blas.destroy_handle(h)
    rm.free(ws)


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    for routine in ROUTINES:
        for p in SDCZ:
            assert names(fn(routine, p)) == ["handle", "uplo", "n", "A", "lda", "ipiv", "info"]
            assert names(fn(routine, p, "batched")) == ["handle", "uplo", "n", "A", "lda", "ipiv", "strideP", "info",
                                                        "batch_count"]
            assert names(fn(routine, p, "strided")) == ["handle", "uplo", "n", "A", "lda", "strideA", "ipiv",
                                                        "strideP", "info", "batch_count"]
    assert len(sy.__all__) == 24 and not any(name.endswith("_64") for name in sy.__all__)  # rocSOLVER has no _64
    assert sy.csytrf.__module__ == "rocmath.solver" and "rocsolver_csytrf(" in sy.csytrf.__doc__
