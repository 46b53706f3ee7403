"""rocmath.fft accuracy over lengths (1, powers of two, smooth, primes, products of large primes),
precisions and directions against numpy.fft in float64, with rocFFT's bound form
c * eps * log2(N) on relative L2 and L-infinity errors; round trips; Parseval; real-input symmetry."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fft_layouts import Case, check_error, run_case

import rocmath as rm
import rocmath.fft as F
from rocmath.testing import examples

TT = F.TransformType
PRIMES = [2, 3, 5, 7, 11, 13, 17, 31, 61, 67, 97, 127, 257, 521, 1031, 4099]


def lengths(max_value: int) -> st.SearchStrategy[int]:
    """1, powers of two, 2-3-5-7 smooth, primes, and products of large primes, up to ``max_value``."""
    pow2 = st.integers(0, max(0, int(math.log2(max_value)))).map(lambda e: 2**e)
    smooth = st.tuples(st.integers(0, 10), st.integers(0, 6), st.integers(0, 4), st.integers(0, 3)).map(
        lambda t: 2**t[0] * 3**t[1] * 5**t[2] * 7**t[3])
    primes = st.sampled_from([p for p in PRIMES if p <= max_value] or [1])
    big = st.tuples(st.sampled_from([67, 97, 127, 257]), st.sampled_from([1, 2, 3, 67, 131])).map(
        lambda t: t[0] * t[1])
    anything = st.integers(1, max_value)
    return st.one_of(st.just(1), pow2, smooth, primes, big, anything).filter(lambda n: 1 <= n <= max_value)


@settings(max_examples=examples(60))
@given(n=lengths(6000), tt=st.sampled_from(list(TT)), precision=st.sampled_from([F.Precision.single,
                                                                                   F.Precision.double]),
       batch=st.integers(1, 3), inplace=st.booleans())
def test_1d_lengths(n: int, tt: TT, precision: F.Precision, batch: int, inplace: bool) -> None:
    case = Case(tt, (n,), batch=batch, precision=precision, inplace=inplace)
    x, y, _ = run_case(case, seed=n)
    check_error(case, x, y)


@settings(max_examples=examples(30))
@given(dims=st.lists(lengths(40), min_size=2, max_size=3).filter(lambda d: math.prod(d) <= 20000),
       tt=st.sampled_from(list(TT)), precision=st.sampled_from([F.Precision.single, F.Precision.double]),
       inplace=st.booleans())
def test_multi_dimensional(dims: list[int], tt: TT, precision: F.Precision, inplace: bool) -> None:
    case = Case(tt, tuple(dims), batch=2, precision=precision, inplace=inplace)
    x, y, _ = run_case(case, seed=len(dims))
    check_error(case, x, y)


@pytest.mark.parametrize("tt", list(TT), ids=lambda t: t.name)
@pytest.mark.parametrize("n", [1, 2, 7, 64, 100, 4099])
def test_half_storage(tt: TT, n: int) -> None:
    case = Case(tt, (n,), batch=2, precision=F.Precision.half)
    x, y, _ = run_case(case)
    check_error(case, x, y)


@pytest.mark.parametrize("lengths", [(1,), (16,), (1000,), (4099,), (30, 7), (5, 6, 7)], ids=str)
@pytest.mark.parametrize("precision", [F.Precision.single, F.Precision.double], ids=lambda p: p.name)
def test_round_trip_and_parseval(lengths: tuple[int, ...], precision: F.Precision) -> None:
    rng = np.random.default_rng(11)
    n = math.prod(lengths)
    shape = (2, *reversed(lengths))
    cdt = np.complex64 if precision == F.Precision.single else np.complex128
    x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cdt)
    eps = float(np.finfo(cdt).eps)
    fwd = F.plan_create(F.ResultPlacement.notinplace, TT.complex_forward, precision, len(lengths), lengths, 2)
    desc = F.plan_description_create()
    F.plan_description_set_scale_factor(desc, 1.0 / n)
    inv = F.plan_create(F.ResultPlacement.inplace, TT.complex_inverse, precision, len(lengths), lengths, 2, desc)
    dx = rm.to_device(x)
    dy = rm.empty(shape, cdt)
    F.execute(fwd, [dx], [dy])
    spectrum = dy.get()
    F.execute(inv, [dy], None)
    back = dy.get()
    tol = 20 * eps * max(1.0, math.log2(n))
    assert np.linalg.norm(back - x) / np.linalg.norm(x) <= tol
    # Parseval: sum |X|^2 = N sum |x|^2.
    ex = np.sum(np.abs(x.astype(np.complex128)) ** 2)
    assert abs(np.sum(np.abs(spectrum.astype(np.complex128)) ** 2) / n - ex) / ex <= tol


@pytest.mark.parametrize("n", [1, 2, 9, 64, 97, 1000])
def test_real_input_symmetry(n: int) -> None:
    # The complex transform of real data is Hermitian; the real transform returns its first half.
    rng = np.random.default_rng(n)
    x = rng.standard_normal((3, n))
    dc = rm.to_device(x.astype(np.complex128))
    full = F.fft(dc).get()
    half = F.rfft(rm.to_device(x)).get()
    np.testing.assert_allclose(full[:, : n // 2 + 1], half, atol=1e-12 * n)
    idx = (-np.arange(n)) % n
    np.testing.assert_allclose(full[:, idx], np.conj(full), atol=1e-12 * n)
    assert np.all(half[:, 0].imag == 0)
    if n % 2 == 0:
        assert np.all(half[:, n // 2].imag == 0)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2**17, 3**10, 5**7, 65537, 99991, 2 * 3 * 5 * 7 * 11 * 13 * 7, 257 * 389])
@pytest.mark.parametrize("tt", list(TT), ids=lambda t: t.name)
def test_large_lengths(n: int, tt: TT) -> None:
    case = Case(tt, (n,), batch=2, precision=F.Precision.double)
    x, y, _ = run_case(case, seed=1)
    check_error(case, x, y)
    case = Case(tt, (n,), batch=1, precision=F.Precision.single, inplace=True)
    x, y, _ = run_case(case, seed=2)
    check_error(case, x, y)


@pytest.mark.slow
@pytest.mark.parametrize("lengths", [(1024, 1024), (128, 128, 128), (1000, 999), (97, 101, 103)], ids=str)
@pytest.mark.parametrize("tt", list(TT), ids=lambda t: t.name)
def test_large_multi_dimensional(lengths: tuple[int, ...], tt: TT) -> None:
    case = Case(tt, lengths, batch=1, precision=F.Precision.double)
    x, y, _ = run_case(case, seed=3)
    check_error(case, x, y)
