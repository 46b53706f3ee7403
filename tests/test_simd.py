"""rocmath.simd: the sums in 256-bit lanes of the Level-1 reductions, against exact sums and
against the one summation order its docstring gives (bit for bit)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from rocmath.simd import (
    ACCUMULATORS,
    VECTOR_BYTES,
    first_magnitude,
    largest_magnitude,
    smallest_magnitude,
    sum_conj_products,
    sum_magnitudes,
    sum_products,
    sum_products4,
    sum_squares,
)


@njit(cache=False)
def _products(x, y):  # type: ignore[no-untyped-def]
    return sum_products(x, y)


@njit(cache=False)
def _four_products(c, x):  # type: ignore[no-untyped-def]
    return sum_products4(c[0], c[1], c[2], c[3], x)


@njit(cache=False)
def _conj_products(x, y):  # type: ignore[no-untyped-def]
    return sum_conj_products(x, y)


@njit(cache=False)
def _squares(x):  # type: ignore[no-untyped-def]
    return sum_squares(x)


@njit(cache=False)
def _magnitudes(x):  # type: ignore[no-untyped-def]
    return sum_magnitudes(x)


@njit(cache=False)
def _largest(x):  # type: ignore[no-untyped-def]
    return largest_magnitude(x)


@njit(cache=False)
def _smallest(x):  # type: ignore[no-untyped-def]
    return smallest_magnitude(x)


@njit(cache=False)
def _first(x, m):  # type: ignore[no-untyped-def]
    return first_magnitude(x, m)


REAL = (np.float32, np.float64)
ALL = (*REAL, np.complex64, np.complex128)


def _integers(draw: st.DrawFn, dtype: type, n: int) -> np.ndarray:
    # Small integers: every partial sum is exact in either precision, so any order gives the exact sum.
    ints = st.integers(-40, 40)
    re = np.array(draw(st.lists(ints, min_size=n, max_size=n)), dtype=float)
    if np.dtype(dtype).kind == "c":
        im = np.array(draw(st.lists(ints, min_size=n, max_size=n)), dtype=float)
        return (re + 1j * im).astype(dtype)
    return re.astype(dtype)


@given(st.data(), st.sampled_from(ALL), st.integers(0, 150))
def test_sums_of_integers_are_exact(data: st.DataObject, dtype: type, n: int) -> None:
    x = _integers(data.draw, dtype, n)
    y = _integers(data.draw, dtype, n)
    wide = x.astype(np.complex128)
    assert _squares(x) == float(np.sum(wide.real ** 2 + wide.imag ** 2))
    assert _magnitudes(x) == float(np.sum(np.abs(wide.real) + np.abs(wide.imag)))
    assert _products(x, y) == np.dot(x.astype(np.complex128), y.astype(np.complex128))
    assert _conj_products(x, y) == np.vdot(x.astype(np.complex128), y.astype(np.complex128))
    assert type(_products(x, y)) is type(np.dtype(dtype).type(0).item())


def _fma(a: float, b: float, c: float) -> float:
    # Correctly rounded a*b + c in float64 (Python's int / int true division rounds correctly).
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def _in_order(vals: list[float], other: list[float] | None, square: bool) -> float:
    """The documented order, in float64, one operation at a time."""
    lanes = VECTOR_BYTES // 8
    step = ACCUMULATORS * lanes
    n = len(vals)
    end = n - n % step
    acc = [[0.0] * lanes for _ in range(ACCUMULATORS)]
    for i in range(end):
        k, lane = (i // lanes) % ACCUMULATORS, i % lanes
        b = vals[i] if square else other[i]  # type: ignore[index]
        acc[k][lane] = _fma(vals[i], b, acc[k][lane])
    while len(acc) > 1:  # accumulators pairwise, lane by lane
        acc = [[p + q for p, q in zip(acc[j], acc[j + 1], strict=True)] for j in range(0, len(acc), 2)]
    parts = acc[0]
    while len(parts) > 1:  # then the lanes pairwise
        parts = [parts[j] + parts[j + 1] for j in range(0, len(parts), 2)]
    tail = 0.0
    for i in range(end, n):
        tail = _fma(vals[i], vals[i] if square else other[i], tail)  # type: ignore[index]
    return parts[0] + tail


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 47, 64, 100])
def test_the_summation_order_is_the_documented_one(n: int) -> None:
    # Random doubles: a different order (or a product rounded before its sum) changes the last bits.
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
    y = rng.standard_normal(n)
    assert _products(x, y) == _in_order(list(x), list(y), square=False)
    assert _squares(x) == _in_order(list(x), None, square=True)
    z = (x + 1j * y)  # complex: its real and imaginary parts, interleaved, as 2n reals
    assert _squares(z) == _in_order(list(z.view(np.float64)), None, square=True)


@pytest.mark.parametrize("dtype", REAL)
def test_magnitudes_in_the_documented_order(dtype: type) -> None:
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(203) * 10.0 ** rng.integers(-4, 5, 203)).astype(dtype)
    lanes = VECTOR_BYTES // x.itemsize
    step = ACCUMULATORS * lanes
    end = x.size - x.size % step
    acc = np.zeros((ACCUMULATORS, lanes), dtype)
    for start in range(0, end, step):
        acc += np.abs(x[start:start + step]).reshape(ACCUMULATORS, lanes)
    while acc.shape[0] > 1:
        acc = acc[0::2] + acc[1::2]
    parts = acc[0]
    while parts.size > 1:
        parts = parts[0::2] + parts[1::2]
    tail = dtype(0)
    for v in np.abs(x[end:]):
        tail = dtype(tail + v)
    assert _magnitudes(x) == dtype(parts[0] + tail)


def test_special_values_propagate() -> None:
    for n in (3, 40):  # the tail loop and the vector loop
        x = np.ones(n)
        x[1] = np.nan
        assert np.isnan(_squares(x)) and np.isnan(_magnitudes(x)) and np.isnan(_products(x, np.ones(n)))
        x[1] = -np.inf
        assert _squares(x) == np.inf and _magnitudes(x) == np.inf and _products(x, np.ones(n)) == -np.inf
    assert _products(np.array([-0.0]), np.array([1.0])) == 0.0  # the sums start at +0, as before


def test_views_of_other_layouts_are_not_accepted() -> None:
    # Strided views are not contiguous: the intrinsics do not type for them (callers copy a block first).
    from numba.core.errors import TypingError

    with pytest.raises(TypingError):
        _squares(np.ones(10)[::2])


@given(st.data(), st.sampled_from(ALL), st.integers(0, 150))
def test_extreme_magnitudes_leave_nans_out(data: st.DataObject, dtype: type, n: int) -> None:
    x = _integers(data.draw, dtype, n)
    for i in data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=6)) if n else []:
        x[i] = np.nan if data.draw(st.booleans()) else np.inf
    real = np.dtype(dtype).type(0).real.dtype
    mag = np.abs(x.real).astype(real) + np.abs(x.imag).astype(real)
    numbers = mag[~np.isnan(mag)]
    for got, want in ((_largest(x), numbers.max() if numbers.size else np.nan),
                      (_smallest(x), numbers.min() if numbers.size else np.nan)):
        assert (np.isnan(got) and np.isnan(want)) or got == want
        assert type(got) is type(real.type(0).item())


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize(("values", "largest", "smallest"), [
    ([], np.nan, np.nan),
    ([np.nan] * 37, np.nan, np.nan),
    ([np.inf] * 37, np.inf, np.inf),
    ([np.nan, np.inf] * 18 + [np.nan], np.inf, np.inf),  # the smallest number is +inf: not "none"
    ([np.nan] * 36 + [np.inf], np.inf, np.inf),  # in the scalar tail
    ([np.nan] * 20 + [0.0] + [np.nan] * 16, 0.0, 0.0),
    ([-0.0] * 37, 0.0, 0.0),
    ([np.nan] * 35 + [np.inf, 3.0], np.inf, 3.0),
])
def test_extreme_magnitudes_at_their_bounds(dtype: type, values: list[float], largest: float,
                                             smallest: float) -> None:
    """Vectors whose answer is where the lanes start (nothing passed -1 or +inf), past a vector's
    worth of elements: all NaN (or none) is NaN, all +inf (among NaNs) is +inf."""
    x = np.array(values, dtype=dtype)
    for got, want in ((_largest(x), largest), (_smallest(x), smallest)):
        assert (np.isnan(got) and np.isnan(want)) or (got == want and not np.signbit(got)), (got, want)


@given(st.data(), st.sampled_from(ALL), st.integers(0, 70))
def test_first_magnitude_is_the_first_index(data: st.DataObject, dtype: type, n: int) -> None:
    x = _integers(data.draw, dtype, n)
    real = np.dtype(dtype).type(0).real.dtype
    for i in data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=3)) if n else []:
        x[i] = np.nan
    mag = np.abs(x.real).astype(real) + np.abs(x.imag).astype(real)
    m = real.type(data.draw(st.integers(0, 90)))
    hits = np.flatnonzero(mag == m)
    assert _first(x, m) == (hits[0] if hits.size else -1)
    assert _first(x, real.type(np.nan)) == -1


def _complex_in_order(x: np.ndarray, y: np.ndarray, conjugate: bool) -> complex:
    """The documented order of a complex dot (rocmath.simd._complex_products), in float64."""
    lanes = VECTOR_BYTES // 8
    step = ACCUMULATORS * lanes
    xr, yr = list(x.view(np.float64)), list(y.view(np.float64))
    n = len(xr)
    end = n - n % step
    straight = [[0.0] * lanes for _ in range(ACCUMULATORS)]
    crossed = [[0.0] * lanes for _ in range(ACCUMULATORS)]
    for r in range(end):
        k, lane = (r // lanes) % ACCUMULATORS, r % lanes
        straight[k][lane] = _fma(xr[r], yr[r], straight[k][lane])
        crossed[k][lane] = _fma(xr[r], yr[r ^ 1], crossed[k][lane])

    def pairwise(vals: list[float]) -> float:
        while len(vals) > 1:
            vals = [vals[j] + vals[j + 1] for j in range(0, len(vals), 2)]
        return vals[0]

    def lane_sums(acc: list[list[float]]) -> tuple[float, float]:
        while len(acc) > 1:
            acc = [[p + q for p, q in zip(acc[j], acc[j + 1], strict=True)] for j in range(0, len(acc), 2)]
        return pairwise(acc[0][0::2]), pairwise(acc[0][1::2])

    rr, ii = lane_sums(straight)
    ri, ir = lane_sums(crossed)
    t = [0.0] * 4
    for r in range(end, n, 2):
        t = [_fma(xr[r], yr[r], t[0]), _fma(xr[r + 1], yr[r + 1], t[1]),
             _fma(xr[r], yr[r + 1], t[2]), _fma(xr[r + 1], yr[r], t[3])]
    rr, ii, ri, ir = rr + t[0], ii + t[1], ri + t[2], ir + t[3]
    return complex(rr + ii, ri - ir) if conjugate else complex(rr - ii, ri + ir)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 40])
def test_complex_products_in_the_documented_order(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
    y = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n) + 1j * rng.standard_normal(n)
    assert _products(x, y) == _complex_in_order(x, y, conjugate=False)
    assert _conj_products(x, y) == _complex_in_order(x, y, conjugate=True)


@given(st.data(), st.sampled_from(REAL), st.integers(0, 150))
def test_four_columns_at_once_are_the_bits_of_one_at_a_time(data: st.DataObject, dtype: type, n: int) -> None:
    # sum_products4 streams four columns in one loop (a transposed gemv's): each sum in
    # sum_products' own order, so the same bits; NaN and inf too.
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    c = rng.standard_normal((4, n)).astype(dtype) * data.draw(st.sampled_from([1.0, 1e30, 1e-30]))
    x = rng.standard_normal(n).astype(dtype)
    if n and data.draw(st.booleans()):
        c[data.draw(st.integers(0, 3)), data.draw(st.integers(0, n - 1))] = data.draw(st.sampled_from([np.nan, np.inf]))
    got = np.array(_four_products(c, x))
    want = np.array([_products(c[k], x) for k in range(4)])
    assert got.tobytes() == want.tobytes()
