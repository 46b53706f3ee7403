"""rocmath.float8: the FNUZ E4M3 / E5M2 formats of gfx942 and rocBLAS's rounding into them.

References are independent of the code under test: the values come from the formats' definition
(sign, biased exponent, mantissa), rounding to nearest is a search of the sorted finite values,
stochastic rounding is the rule on the fraction of the gap a value lies at, and the random bits
are rocBLAS's prand_generator written out again here in plain Python integers.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath.testing as rt
from rocmath import float8
from rocmath.float8 import BF8, F8, VALUES, from_f8, to_f8

FORMATS = {F8: (3, 4, 8), BF8: (2, 5, 16)}  # mantissa bits, exponent bits, bias


def grid(fmt: int) -> np.ndarray:
    """The finite non-negative values of a format, sorted, from its definition."""
    wm, we, bias = FORMATS[fmt]
    out = [m * 2.0 ** (1 - bias - wm) for m in range(1 << wm)]
    out += [(1 + m / (1 << wm)) * 2.0 ** (e - bias) for e in range(1, 1 << we) for m in range(1 << wm)]
    return np.array(sorted(out))


def code_of(value: float, fmt: int) -> int:
    """The code of a value of the format (a search of the definition's table)."""
    wm, we, bias = FORMATS[fmt]
    if value == 0:
        return 0
    for code in range(1, 256):
        if code == 0x80:
            continue
        e, m = (code >> wm) & ((1 << we) - 1), code & ((1 << wm) - 1)
        mag = m * 2.0 ** (1 - bias - wm) if e == 0 else (1 + m / (1 << wm)) * 2.0 ** (e - bias)
        if (-mag if code & 0x80 else mag) == value:
            return code
    raise AssertionError(f"{value} is not a value of format {fmt}")


def neighbours(x: float, fmt: int) -> tuple[float, float]:
    """The format's magnitudes just below-or-at and above |x| (the largest twice past the top)."""
    g = grid(fmt)
    a = abs(x)
    i = int(np.searchsorted(g, a, side="right")) - 1
    return g[i], g[min(i + 1, len(g) - 1)]


def nearest(x: float, fmt: int) -> float:
    """Round to nearest, ties to the even code, saturating."""
    if not np.isfinite(x):
        return float("nan")
    lo, hi = neighbours(x, fmt)
    if abs(x) - lo < hi - abs(x) or lo == hi:
        mag = lo
    elif abs(x) - lo > hi - abs(x):
        mag = hi
    else:
        mag = lo if code_of(lo, fmt) % 2 == 0 else hi
    return -mag if x < 0 and mag != 0 else mag


def prand_reference(tid: int, seed: int, bits: int, wide: bool) -> int:
    """rocBLAS's prand_generator, in Python integers (uint32 arithmetic)."""
    drop = bits & 0xFFFF
    if wide:
        drop ^= bits >> 16
    drop = ((drop & 31) << 11) | (drop >> 5)
    drop = (drop * 0x7000149) & 0xFFFFFFFF
    return (drop ^ 0x13371337 ^ (tid * 229791) ^ seed) & 0xFFFFFFFF


def stochastic(x: float, fmt: int, rng: int) -> float:
    """Stochastic rounding with bits ``rng``: up when the gap's fraction x lies at, truncated to
    23 - wm bits, plus the low 23 - wm bits of rng carries out."""
    if not np.isfinite(x):
        return float("nan")
    wm = FORMATS[fmt][0]
    lost = 23 - wm
    lo, hi = neighbours(x, fmt)
    if lo == hi:  # at or past the largest value
        mag = lo
    else:
        frac = int(np.floor((abs(x) - lo) / (hi - lo) * 2.0**lost))
        mag = hi if frac + (rng & ((1 << lost) - 1)) >= 1 << lost else lo
    return -mag if x < 0 and mag != 0 else mag


def f32_bits(x: float) -> int:
    return int(np.array(x, dtype=np.float32).view(np.uint32))


def test_values_follow_the_definition() -> None:
    for fmt in (F8, BF8):
        finite = np.delete(VALUES[fmt], 0x80)
        assert np.isnan(VALUES[fmt][0x80]) and np.isfinite(finite).all()
        assert np.array_equal(np.unique(np.abs(finite.astype(np.float64))), grid(fmt))
        assert [code_of(float(v), fmt) for v in finite[:5]] == [0, 1, 2, 3, 4]
    assert VALUES[F8][0x7F] == 240 and VALUES[BF8][0x7F] == 57344
    assert VALUES[F8][0x01] == 2.0**-10 and VALUES[BF8][0x01] == 2.0**-17
    assert VALUES[F8][0x40] == 1.0 and VALUES[BF8][0x40] == 1.0 and VALUES[F8][0xC0] == -1.0
    assert list(float8.F8_MAX) == [240.0, 57344.0]


def test_special_values() -> None:
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1e-30, 1e30, -1e30, 240.0, 247.9, 248.0, 256.0]
    assert to_f8(specials, F8).tolist() == [0x80, 0x80, 0x80, 0, 0, 0, 0, 0x7F, 0xFF, 0x7F, 0x7F, 0x7F, 0x7F]
    assert to_f8([57344.0, 61440.0, 1e9, -1e9], BF8).tolist() == [0x7F, 0x7F, 0x7F, 0xFF]
    for fmt in (F8, BF8):  # every code's value converts back to the code (0x80 is NaN's)
        codes = np.arange(256, dtype=np.uint8)
        assert np.array_equal(to_f8(from_f8(codes, fmt), fmt), codes)


_FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=32)


@settings(max_examples=rt.examples(300), deadline=None, derandomize=True)
@given(x=st.one_of(_FLOATS, st.floats(-300.0, 300.0, width=32), st.floats(-2.0**-10, 2.0**-10, width=32)),
       fmt=st.sampled_from((F8, BF8)))
def test_round_to_nearest_even(x: float, fmt: int) -> None:
    assert from_f8(to_f8(x, fmt), fmt) == nearest(float(np.float32(x)), fmt)


@settings(max_examples=rt.examples(100), deadline=None, derandomize=True)
@given(fmt=st.sampled_from((F8, BF8)), seed=st.integers(0, 2**32 - 1))
def test_ties_and_midpoints_of_every_gap(fmt: int, seed: int) -> None:
    g = grid(fmt)
    sign = np.random.default_rng(seed).choice([-1.0, 1.0], size=len(g) - 1)
    mids = sign * (g[1:] + g[:-1]) / 2  # exact in float32: one more bit than the format's
    got = from_f8(to_f8(mids, fmt), fmt)
    assert np.array_equal(got, [nearest(v, fmt) for v in mids])


@settings(max_examples=rt.examples(300), deadline=None, derandomize=True)
@given(x=st.one_of(_FLOATS, st.floats(-300.0, 300.0, width=32), st.floats(-2.0**-10, 2.0**-10, width=32)),
       fmt=st.sampled_from((F8, BF8)), seed=st.integers(0, 2**32 - 1))
def test_stochastic_rounding_rule_and_bits(x: float, fmt: int, seed: int) -> None:
    # to_f8 draws for flat offset 0 with the float32 bits of x.
    rng = prand_reference(0, seed, f32_bits(x), True)
    assert from_f8(to_f8(x, fmt, stochastic=True, seed=seed), fmt) == stochastic(float(np.float32(x)), fmt, rng)


def test_prand_matches_rocblas_generator() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        tid, seed, bits = int(rng.integers(0, 2**40)), int(rng.integers(0, 2**32)), int(rng.integers(0, 2**32))
        assert float8.prand(tid, seed, bits, True) == prand_reference(tid, seed, bits, True)
        assert float8.prand(tid, seed, bits & 0xFFFF, False) == prand_reference(tid, seed, bits & 0xFFFF, False)


def test_stochastic_rounding_is_unbiased_and_repeatable() -> None:
    x = np.full(20000, 1.0 + 1 / 32, dtype=np.float32)  # a quarter of the way from 1 to 1.125 (f8)
    codes = to_f8(x, F8, stochastic=True, seed=7)
    values = from_f8(codes, F8)
    assert set(np.unique(values)) == {1.0, 1.125}
    assert abs(values.mean() - (1 + 1 / 32)) < 0.002  # P(up) = 1/4: sd of the mean ~ 0.0004
    assert np.array_equal(codes, to_f8(x, F8, stochastic=True, seed=7))
    # (the seed is xor-ed into the bits: seeds differing in low bits only rarely round differently)
    assert not np.array_equal(codes, to_f8(x, F8, stochastic=True, seed=7 + (1 << 19)))
