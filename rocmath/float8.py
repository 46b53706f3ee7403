"""8-bit floating point: rocBLAS's ``rocblas_f8`` and ``rocblas_bf8`` as on gfx942.

Both are the "FNUZ" encodings of the MI300 series: ``f8`` is E4M3 (exponent bias 8, largest
finite value 240), ``bf8`` is E5M2 (bias 16, largest 57344).  Neither has infinities or a
negative zero; the one NaN is ``0x80``.  numpy has no such types: the bits are stored as
``uint8`` (the ``f8_r``/``bf8_r`` datatypes of :mod:`rocmath.blas`).

Rounding into them, as rocBLAS's conversions with clipping (the default of its build):

- a NaN or an infinity becomes ``0x80`` (NaN);
- a finite value rounds to the nearest representable one, ties to even, and saturates at the
  largest finite value of its sign (nothing rounds to NaN); a zero result is ``0x00``;
- *stochastic rounding* (``rng``, 32 random bits): the value's float32 significand, aligned to
  the target's precision (bits shifted out below it are dropped first, as rocBLAS's software
  conversion does), gets the low ``23 - mantissa_bits`` bits of ``rng`` added to the bits it
  loses, and is truncated: it rounds away from zero with probability the lost fraction.

:func:`prand` is rocBLAS's generator of those random bits for ``gemm_ex3``'s stochastic
rounding: a hash of the element's position, a seed and the value's bits.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, prange

from .kernel import kernel

__all__ = ["BF8", "F8", "F8_MAX", "TINY", "VALUES", "from_f8", "to_f8"]

F8 = 0  #: format code of ``rocblas_f8`` (E4M3, FNUZ)
BF8 = 1  #: format code of ``rocblas_bf8`` (E5M2, FNUZ)

_MANTISSA = (3, 2)
_EXPONENT = (4, 5)
NAN_CODE = 0x80


def _values(mantissa: int, exponent: int) -> np.ndarray:
    """The value of each of the 256 codes, from the encoding's definition."""
    bias = 1 << (exponent - 1)
    codes = np.arange(256)
    field = (codes >> mantissa) & ((1 << exponent) - 1)
    frac = (codes & ((1 << mantissa) - 1)).astype(np.float64)
    magnitude = np.where(field == 0, frac * 2.0 ** (1 - bias - mantissa),
                         (1 + frac / (1 << mantissa)) * np.exp2(field - bias))
    values = np.where(codes & 0x80, -magnitude, magnitude).astype(np.float32)
    values[NAN_CODE] = np.nan
    return values


#: ``VALUES[fmt][code]``: the float32 value of each code of each format (exact).
VALUES = np.stack([_values(_MANTISSA[f], _EXPONENT[f]) for f in (F8, BF8)])
#: The largest finite value of each format (code 0x7F: 240 and 57344).
F8_MAX = tuple(float(VALUES[f][0x7F]) for f in (F8, BF8))
#: The smallest normal value of each format (its first code with exponent field 1: 2^-7, 2^-15).
TINY = tuple(float(VALUES[f][1 << _MANTISSA[f]]) for f in (F8, BF8))


@njit(cache=True, nogil=True, inline="always")
def encode(x, fmt, stochastic, rng):  # type: ignore[no-untyped-def]
    """The code of float ``x`` in format ``fmt``: round to nearest even, or stochastically with
    the random bits ``rng``; saturating; NaN and infinities to 0x80."""
    if not math.isfinite(x):
        return np.uint8(NAN_CODE)
    a = abs(float(x))
    if a == 0.0:
        return np.uint8(0)
    wm = _MANTISSA[fmt]
    we = _EXPONENT[fmt]
    lowest = 1 - (1 << (we - 1))  # the exponent of the smallest normal (and of the subnormals' quantum)
    top = math.frexp(a)[1] - 1  # a is in [2^top, 2^(top + 1))
    e = max(top, lowest)
    scaled = math.ldexp(a, wm - e)  # a in quanta of the target at exponent e: exact (a float32 times 2^k)
    if stochastic:
        lost = 23 - wm
        t = math.floor(math.ldexp(scaled, lost))  # the aligned significand; bits below it dropped
        r = (t >> lost) + ((((t & ((1 << lost) - 1)) + (rng & ((1 << lost) - 1))) >> lost) & 1)
    else:
        kept = math.floor(scaled)
        frac = scaled - kept
        r = int(kept)
        if frac > 0.5 or (frac == 0.5 and r & 1):
            r += 1
    if r >= 1 << (wm + 1):  # rounded up into the next binade
        r >>= 1
        e += 1
    if r < 1 << wm:  # subnormal (e is the lowest exponent), or zero
        code = r
    else:
        field = e - lowest + 1
        # past the top exponent: saturate at the largest finite value (0x7F)
        code = 0x7F if field > (1 << we) - 1 else (field << wm) | (r - (1 << wm))
    if code != 0 and x < 0:
        code |= 0x80
    return np.uint8(code)


@njit(cache=True, nogil=True, inline="always")
def prand(tid, seed, bits, wide):  # type: ignore[no-untyped-def]
    """rocBLAS's 32 random bits for stochastic rounding (``prand_generator``) of the element at
    offset ``tid`` with ``seed``: a hash of the low 16 bits of the value's bit pattern ``bits``
    (xor its high 16 bits when ``wide``: a float32 value), of ``tid`` and of ``seed``."""
    mask = 0xFFFFFFFF
    h = bits & 0xFFFF
    if wide:
        h ^= (bits >> 16) & 0xFFFF
    h = ((h & 31) << 11) | (h >> 5)
    h = (h * 0x7000149) & mask
    return (h ^ 0x13371337 ^ ((tid * 229791) & mask) ^ seed) & mask


@kernel
def quantize(x, bits, wide, fmt, stochastic, seed, ld, out):  # type: ignore[no-untyped-def]
    """out[b, i, j] := the code of x[b, i, j] (float32) in format ``fmt``; stochastic rounding
    draws :func:`prand` of offset ``i + j * ld``, ``seed`` and ``bits[b, i, j]``."""
    nb, m, n = x.shape
    for t in prange(nb * n):
        b = t // n
        j = t - b * n
        for i in range(m):
            rng = prand(np.int64(i) + np.int64(j) * ld, seed, np.int64(bits[b, i, j]), wide) if stochastic else 0
            out[b, i, j] = encode(x[b, i, j], fmt, stochastic, rng)


def to_f8(x: Any, fmt: int = F8, *, stochastic: bool = False, seed: int = 0) -> np.ndarray:
    """Round values to ``f8`` (``fmt=F8``) or ``bf8`` (``fmt=BF8``) codes, as uint8.

    Parameters
    ----------
    x
        Values (converted to float32 first, as rocBLAS converts a half or a double).
    fmt
        :data:`F8` or :data:`BF8`.
    stochastic
        Stochastic rounding with :func:`prand`'s bits for each element's flat (C-order) offset
        and ``seed``, instead of rounding to nearest even.
    seed
        The generator's 32-bit seed.

    Returns
    -------
    numpy.ndarray
        uint8 codes, of ``x``'s shape.
    """
    f = np.asarray(x, dtype=np.float32)
    flat = np.ascontiguousarray(f.reshape(1, -1, 1))
    out = np.empty(flat.shape, dtype=np.uint8)
    if flat.size:
        quantize(flat, flat.view(np.uint32), True, int(fmt), bool(stochastic), int(seed) & 0xFFFFFFFF,
                 np.int64(1), out)
    return out.reshape(f.shape)


def from_f8(codes: Any, fmt: int = F8) -> np.ndarray:
    """The float32 values of ``f8`` (``fmt=F8``) or ``bf8`` (``fmt=BF8``) codes (exact)."""
    return VALUES[int(fmt)][np.asarray(codes, dtype=np.uint8)]
