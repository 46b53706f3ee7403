"""Shared pieces of the FFT kernels: numba's compile options, unsigned index constants,
twiddle loads and the power-of-two butterflies (the odd-prime ones are generated in
:mod:`rocmath.fft._stages`).

Indices are unsigned (``uint64``) throughout: numba then emits no negative-index
wraparound, which is what lets LLVM vectorize the inner loops.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from rocmath.kernel import NoAliasCompiler

_jit = njit(nogil=True, cache=True, error_model="numpy")
#: For functions whose array arguments never overlap (the radix stages, the fast copies).
_jit_noalias = njit(nogil=True, cache=True, error_model="numpy", pipeline_class=NoAliasCompiler)
#: Inlined into their callers at numba's IR level (butterflies, loop bodies): a constant
#: argument at the call site is then a constant of the inlined loop.
_inline = njit(nogil=True, cache=True, error_model="numpy", inline="always")

R8 = math.sqrt(0.5)
U1, U2, U3, U4, U5, U6, U7, U8, U9, U10, U11, U12, U13 = (np.uint64(i) for i in range(1, 14))


@_inline
def _tw(tw, toff, k, m, p):  # type: ignore[no-untyped-def]
    """Twiddle ``k`` (1-based) of index ``p`` of a stage whose twiddles start at pair ``toff``."""
    w = U2 * (toff + (k - U1) * m + p)
    return tw[w], tw[w + U1]


@_inline
def _bf2(a0r, a0i, a1r, a1i):  # type: ignore[no-untyped-def]
    return a0r + a1r, a0i + a1i, a0r - a1r, a0i - a1i


@_inline
def _bf4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i):  # type: ignore[no-untyped-def]
    t0r = a0r + a2r
    t0i = a0i + a2i
    t1r = a0r - a2r
    t1i = a0i - a2i
    t2r = a1r + a3r
    t2i = a1i + a3i
    t3r = a1r - a3r
    t3i = a1i - a3i
    return (t0r + t2r, t0i + t2i, t1r + t3i, t1i - t3r, t0r - t2r, t0i - t2i, t1r - t3i, t1i + t3r)


@_inline
def _bf8(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i, a4r, a4i, a5r, a5i, a6r, a6i, a7r, a7i, h):  # type: ignore[no-untyped-def]
    # Two radix-4 butterflies on the even and the odd inputs, joined by w8^k = 1, (1-i)/sqrt2, -i, -(1+i)/sqrt2.
    E0r, E0i, E1r, E1i, E2r, E2i, E3r, E3i = _bf4(a0r, a0i, a2r, a2i, a4r, a4i, a6r, a6i)
    O0r, O0i, O1r, O1i, O2r, O2i, O3r, O3i = _bf4(a1r, a1i, a3r, a3i, a5r, a5i, a7r, a7i)
    P1r = h * (O1r + O1i)
    P1i = h * (O1i - O1r)
    P3r = h * (O3i - O3r)
    P3i = -h * (O3r + O3i)
    return (E0r + O0r, E0i + O0i, E1r + P1r, E1i + P1i, E2r + O2i, E2i - O2r, E3r + P3r, E3i + P3i,
            E0r - O0r, E0i - O0i, E1r - P1r, E1i - P1i, E2r - O2i, E2i + O2r, E3r - P3r, E3i - P3i)
