"""Level 1 and Level-1 ``_ex`` cases a mutation-testing pass found unguarded by the other tests.

Each test pins a path that small plausible bugs got through unnoticed:

- the reductions (dot, dotc, asum, nrm2, amax, amin) at every block boundary: vectors of
  exactly two blocks (their block sums added up, not left in the partial sums), one element
  either side of a boundary, extremes planted at the boundary (a block's last element searched);
- nrm2 of entries whose squares are subnormal (partly underflowed, not zero): such sums are
  redone scaled, the threshold being ``n * tiny / eps``, not ``tiny * eps``;
- nrm2 over several blocks whose largest entry lies in the last block, earlier blocks zero or
  far smaller: the scale is the largest magnitude of every block;
- batched and strided-batched amax/amin with NaNs: a NaN never wins (nor does a later NaN
  replace a number), a NaN first element is kept, entry by entry as a plain call gives;
- csscal/zdscal on increments other than 1 and in batches: the real alpha scales each part
  apart (rocBLAS's complex-by-real product), bit for bit, with infinities in the data;
- batched amax over complex entries: the first element's magnitude is |re| + |im| too;
- axpy, scal, copy, swap and rot over batches whose entries all differ (strided and pointer
  arrays, either sign of increment): each entry reads its own x and y;
- axpy_ex, scal_ex and rot_ex with a half or bfloat16 scalar type given host values and a
  float32 execution type: the scalars are values of their declared type (0.7 is the half
  nearest 0.7), bit for bit;
- scal_ex of a float32 alpha and half (bfloat16) x: the product is rounded to float32 first,
  then into x's type (a case where rounding the exact product once differs);
- rot_ex of half (bfloat16) data: a product of exactly the largest finite value stays finite.

Vectors live in poisoned padded buffers (rocmath.testing): increment gaps, batch gaps and
margins keep their bits, inputs their values.  Data are small integers or exact powers of two
apart wherever that makes the expected result exact, compared bit for bit; references are
numpy and scipy.linalg.blas computed independently.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
import scipy.linalg.blas as sb
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_blas_ex import Dev, _close_buffers  # noqa: F401  (_close_buffers: a fixture, frees the buffers)

import rocmath as rm
import rocmath.blas as blas
import rocmath.testing as rt
from rocmath.blas import Datatype as DT
from rocmath.blas import PointerMode, ex, set_pointer_mode
from rocmath.blas._kernels_l1 import BLOCK
from rocmath.precision import BF16, SDCZ, C, D, H, Precision, S, Z, from_bfloat16, to_bfloat16

SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
FLAVOURS = tuple(SUFFIX)
#: The name prefix of each reduction per precision.
PREFIX = {"asum": {S: "s", D: "d", C: "sc", Z: "dz"}, "nrm2": {S: "s", D: "d", C: "sc", Z: "dz"},
          "amax": {S: "is", D: "id", C: "ic", Z: "iz"}, "amin": {S: "is", D: "id", C: "ic", Z: "iz"}}
FILL = 12345  # what a device result buffer holds before a call


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    hnd = blas.create_handle()
    yield hnd
    blas.destroy_handle(hnd)


def set_mode(h: Any, mode: str) -> None:
    set_pointer_mode(h, PointerMode.host if mode == "host" else PointerMode.device)


# --- helpers ---------------------------------------------------------------------------------------


class Vecs(Dev):
    """A ``(batch, n)`` host stack on the device with increment ``inc`` in one flavour, gaps poisoned
    (test_blas_ex's :class:`Dev`; ``es`` is unused: Dev's buffers close when the test ends)."""

    def __init__(self, es: ExitStack, host: np.ndarray, inc: int, flavour: str, gap: int = 2,
                 precision: Any = None):
        super().__init__(host, host.dtype if precision is None else precision, flavour, inc=inc, gap=gap)


def count_tail(flavour: str, batch: int) -> tuple[int, ...]:
    return () if flavour == "plain" else (batch,)


def reduce(h: Any, fn: Any, args: tuple[Any, ...], flavour: str, batch: int, mode: str, dtype: Any) -> np.ndarray:
    """Run a reduction in one pointer mode; its ``batch`` results.  In device mode the result buffer
    has a spare element, which must keep its value."""
    set_mode(h, mode)
    try:
        if mode == "host":
            return np.atleast_1d(np.asarray(fn(h, *args, *count_tail(flavour, batch)))).reshape(-1)
        out = rm.to_device(np.full(batch + 1, FILL, dtype=dtype))
        assert fn(h, *args, *count_tail(flavour, batch), out) is None
        got = out.get()
        assert got[batch] == FILL, "a reduction wrote past its results"
        return got[:batch]
    finally:
        set_mode(h, "host")


def ints(rng: np.random.Generator, p: Precision, shape: tuple[int, ...], bound: int = 3) -> np.ndarray:
    """Small integers (complex ones with integer parts): sums of thousands of products are exact."""
    x = rng.integers(-bound, bound + 1, shape).astype(np.float64)
    if p.is_complex:
        x = x + 1j * rng.integers(-bound, bound + 1, shape)
    return x.astype(p.dtype)


def scan(mag: np.ndarray, largest: bool) -> int:
    """Reference BLAS i?amax/i?amin's sequential scan, 1-based: only a strictly better magnitude
    moves it (ties keep the first; a NaN never compares better, so it never wins and a NaN first
    element stays)."""
    best, where = mag[0], 0
    for i in range(1, mag.size):
        if (mag[i] > best) if largest else (mag[i] < best):
            best, where = mag[i], i
    return where + 1


def magnitudes(x: np.ndarray, p: Precision) -> np.ndarray:
    """|re| + |im| in the routine's own real precision (so ties are ties there too)."""
    return np.abs(x.real).astype(p.real.dtype) + np.abs(x.imag).astype(p.real.dtype)


# --- reductions at every block boundary ------------------------------------------------------------

#: Lengths either side of the reductions' block boundaries: one block, exactly two (the case whose
#: block sums must still be added up), two and one element, three and more.
BOUNDARY_N = (BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 1, 3 * BLOCK, 3 * BLOCK + 1,
              4 * BLOCK + 5)


@settings(max_examples=rt.examples(30), deadline=None)
@example(p=D, n=2 * BLOCK, op="dot", flavour="plain", batch=1, mode="host", inc=1, seed=0)  # exactly two blocks
@example(p=C, n=BLOCK + 1, op="asum", flavour="strided", batch=2, mode="device", inc=2, seed=1)
@given(p=st.sampled_from(SDCZ), n=st.sampled_from(BOUNDARY_N), op=st.sampled_from(("dot", "asum", "nrm2")),
       flavour=st.sampled_from(FLAVOURS), batch=st.integers(1, 3), mode=st.sampled_from(("host", "device")),
       inc=st.sampled_from((1, 2)), seed=st.integers(0, 2**32 - 1))
def test_sums_at_every_block_boundary_are_exact(handle: Any, p: Precision, n: int, op: str, flavour: str,
                                                batch: int, mode: str, inc: int, seed: int) -> None:
    # Integer data: every block sum and their total are exact, so a block left out, counted twice or
    # never added to the result shows, bit for bit.  dot of complex data is dotc (conj(x) . y).
    batch = 1 if flavour == "plain" else batch
    rng = np.random.default_rng(seed)
    xh, yh = ints(rng, p, (batch, n)), ints(rng, p, (batch, n))
    with ExitStack() as es:
        x = Vecs(es, xh, inc, flavour)
        xw = xh.astype(np.complex128 if p.is_complex else np.float64)
        if op == "dot":
            y = Vecs(es, yh, -inc, flavour, gap=3)  # (y read from its far end)
            name = f"{p.letter}dot{'c' if p.is_complex else ''}{SUFFIX[flavour]}"
            got = reduce(handle, getattr(blas, name), (n, x.arg, inc, *x.tail, y.arg, -inc, *y.tail), flavour, batch,
                         mode, p.dtype)
            want = (np.conj(xw) * yh).sum(axis=1)
            y.check(logical=True)
        else:
            fn = getattr(blas, f"{PREFIX[op][p]}{op}{SUFFIX[flavour]}")
            got = reduce(handle, fn, (n, x.arg, inc, *x.tail), flavour, batch, mode, p.real.dtype)
            parts = (np.abs(xw.real) + np.abs(xw.imag)) if op == "asum" else xw.real**2 + xw.imag**2
            want = parts.sum(axis=1)
            if op == "nrm2":
                want = np.sqrt(want.astype(p.real.dtype))  # the exact sum's root, rounded once
        np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg=f"{op} n={n}")
        x.check(logical=True)


@settings(max_examples=rt.examples(20), deadline=None)
@given(p=st.sampled_from(SDCZ), n=st.sampled_from(BOUNDARY_N), at=st.sampled_from((-2, -1, 0, 1)),
       seed=st.integers(0, 2**32 - 1))
def test_amax_amin_find_extremes_planted_at_a_block_boundary(handle: Any, p: Precision, n: int, at: int,
                                                             seed: int) -> None:
    # One vector's blocks are searched apart and compared in order: the largest (smallest) element
    # planted just before, at or after each boundary, a tie for it in the block after.
    rng = np.random.default_rng(seed)
    x = ints(rng, p, (n,))
    x[x == 0] = 1
    for k in range(1, (n - 1) // BLOCK + 1):
        i = k * BLOCK + at
        if 0 <= i < n:
            x[i] = 9 * (k + 1)
            x[min(n - 1, i + BLOCK // 2)] = -9 * (k + 1)  # a later tie of the same magnitude
            x[i - 3] = 0
    mag = magnitudes(x, p)
    with ExitStack() as es:
        v = Vecs(es, x[None], 1, "plain")
        for name, largest in (("amax", True), ("amin", False)):
            got = getattr(blas, f"{PREFIX[name][p]}{name}")(handle, n, v.arg, 1)
            assert got == scan(mag, largest) == 1 + (np.argmax(mag) if largest else np.argmin(mag)), name
        v.check(logical=True)


# --- nrm2: scaling -----------------------------------------------------------------------------------


def _nrm2_fn(p: Precision, flavour: str) -> Any:
    return getattr(blas, f"{PREFIX['nrm2'][p]}nrm2{SUFFIX[flavour]}")


#: Exponents putting the squares of entries of magnitude [2^e, 2^(e+1)) among the subnormals, a
#: dozen significant bits or fewer left in each (not all gone: they do not simply vanish).
SUBNORMAL_SQUARES = {S: (-73, -71), D: (-535, -528)}


@settings(max_examples=rt.examples(25), deadline=None)
@given(p=st.sampled_from(SDCZ), n=st.integers(1, 40), flavour=st.sampled_from(FLAVOURS), batch=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_nrm2_of_partly_underflowing_squares_is_accurate(handle: Any, p: Precision, n: int, flavour: str,
                                                         batch: int, seed: int, data: st.DataObject) -> None:
    # Entries 2^e m (m of full precision in [1, 2)) whose squares keep only a few bits: the plain sum
    # of squares is far from exact, so the entry must be redone scaled.  The reference scales by an
    # exact power of two: 2^e ||m||.
    batch = 1 if flavour == "plain" else batch
    lo, hi = SUBNORMAL_SQUARES[p.real]
    e = data.draw(st.integers(lo, hi), label="exponent")
    rng = np.random.default_rng(seed)
    m = rng.uniform(1, 2, (batch, n)) * rng.choice([-1, 1], (batch, n))
    if p.is_complex:
        m = m + 1j * rng.uniform(1, 2, (batch, n))
    m = m.astype(p.dtype)
    xh = (m * p.real.dtype.type(2.0**e)).astype(p.dtype)
    np.testing.assert_array_equal(xh / p.real.dtype.type(2.0**e), m)  # the scaling is exact
    want = np.linalg.norm(m.astype(np.complex128), axis=1) * 2.0**e
    with ExitStack() as es:
        x = Vecs(es, xh, 2, flavour)
        got = reduce(handle, _nrm2_fn(p, flavour), (n, x.arg, 2, *x.tail), flavour, batch, "host", p.real.dtype)
        np.testing.assert_allclose(got, want, rtol=4 * (n + 2) * p.eps, atol=0)
        x.check(logical=True)
    if flavour == "plain" and p in (S, D):
        ref = (sb.dnrm2 if p is D else sb.snrm2)(xh[0])
        np.testing.assert_allclose(got[0], ref, rtol=4 * (n + 2) * p.eps)


@settings(max_examples=rt.examples(20), deadline=None)
@given(p=st.sampled_from(SDCZ), blocks=st.integers(2, 3), huge=st.booleans(),
       earlier=st.sampled_from(("zero", "small")), flavour=st.sampled_from(("plain", "strided")),
       seed=st.integers(0, 2**32 - 1))
def test_nrm2_scales_by_the_largest_entry_of_every_block(handle: Any, p: Precision, blocks: int, huge: bool,
                                                         earlier: str, flavour: str, seed: int) -> None:
    # Overflowing (huge) or underflowing (tiny) entries only in the last block; the earlier blocks zero
    # or far smaller.  The scale must come from the last block too: from the earlier ones alone it
    # would be 0 (a norm of 0), or (huge data) make (x / scale)^2 overflow.  Powers of two scale the
    # small-integer data exactly: the reference is big * ||m||.
    rng = np.random.default_rng(seed)
    n = (blocks - 1) * BLOCK + int(rng.integers(1, BLOCK))
    batch = 1 if flavour == "plain" else 2
    fi = np.finfo(p.real.dtype)
    big = 2.0 ** (fi.maxexp - 6) if huge else 2.0 ** (fi.minexp + 2)
    m = np.zeros((batch, n), np.complex128 if p.is_complex else np.float64)
    if earlier == "small":  # huge: (7 / small)^2 overflows; tiny: the least subnormal
        m[:, : (blocks - 1) * BLOCK] = 2.0 ** -(fi.maxexp // 2 + 4) if huge else 2.0 ** -(fi.nmant + 2)
    last = np.arange((blocks - 1) * BLOCK, n)
    for b in range(batch):
        spots = rng.choice(last, min(4, last.size), replace=False)
        m[b, spots] = rng.integers(1, 8, spots.size) * rng.choice([-1, 1], spots.size)
        if p.is_complex:
            m[b, spots] += 1j * rng.integers(-7, 8, spots.size)
    xh = (m * big).astype(p.dtype)
    np.testing.assert_array_equal(xh.astype(m.dtype) / big, m)  # exact
    want = np.linalg.norm(m, axis=1) * big
    with ExitStack() as es:
        x = Vecs(es, xh, 1, flavour)
        got = reduce(handle, _nrm2_fn(p, flavour), (n, x.arg, 1, *x.tail), flavour, batch, "host", p.real.dtype)
        assert np.isfinite(got).all() and (got > 0).all(), got
        np.testing.assert_allclose(got, want, rtol=8 * p.eps)
        x.check(logical=True)


# --- batched amax / amin with NaNs --------------------------------------------------------------------


@settings(max_examples=rt.examples(30), deadline=None)
@given(p=st.sampled_from(SDCZ), n=st.integers(1, 24), flavour=st.sampled_from(("strided", "batched")),
       batch=st.integers(2, 4), inc=st.sampled_from((1, 2)), mode=st.sampled_from(("host", "device")),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_batched_amax_amin_leave_nans_out(handle: Any, p: Precision, n: int, flavour: str, batch: int, inc: int,
                                          mode: str, seed: int, data: st.DataObject) -> None:
    # Each entry is scanned on its own: a NaN magnitude never wins and never replaces the best so far;
    # a NaN first element is the answer (nothing compares better than it); an all-NaN entry gives 1.
    rng = np.random.default_rng(seed)
    xh = ints(rng, p, (batch, n))
    for b in range(batch):
        spots = data.draw(st.lists(st.integers(0, n - 1), max_size=3), label=f"NaNs of entry {b}")
        for i in spots:
            if p.is_complex and data.draw(st.booleans(), label="NaN imaginary part only"):
                xh[b, i] = complex(xh[b, i].real, np.nan)
            else:
                xh[b, i] = np.nan
    if data.draw(st.booleans(), label="an infinity"):
        xh[0, n - 1] = np.inf
    mag = magnitudes(xh, p)
    with ExitStack() as es:
        x = Vecs(es, xh, inc, flavour)
        plain = Vecs(es, xh, inc, "batched")  # each entry alone, through a plain call
        for name, largest in (("amax", True), ("amin", False)):
            fn = getattr(blas, f"{PREFIX[name][p]}{name}{SUFFIX[flavour]}")
            got = reduce(handle, fn, (n, x.arg, inc, *x.tail), flavour, batch, mode, np.int32)
            want = [scan(mag[b], largest) for b in range(batch)]
            alone = [getattr(blas, f"{PREFIX[name][p]}{name}")(handle, n, v.ptr, inc) for v in plain.parts]
            np.testing.assert_array_equal(got, want, err_msg=name)
            np.testing.assert_array_equal(alone, want, err_msg=f"{name} (plain)")
        x.check(logical=True)


# --- csscal / zdscal on other increments and in batches ----------------------------------------------


def _non_finite(p: Precision, count: int) -> np.ndarray:
    vals = np.array([np.inf, -0.0, 1.5, -np.inf, 0.0, 2.0, -3.0, 0.25])
    v = np.resize(vals, count).astype(p.real.dtype)
    out = np.empty(count, p.dtype)
    out.real, out.imag = v, np.roll(v, 3)
    return out


def _parts(a: Any, v: np.ndarray) -> np.ndarray:
    out = np.empty_like(v)
    out.real, out.imag = a * v.real, a * v.imag
    return out


@pytest.mark.parametrize("p", [C, Z], ids=lambda p: p.letter)
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("inc", [1, 2, 3])
@pytest.mark.parametrize("mode", ["host", "device"])
def test_real_alpha_scales_each_part_at_every_increment(handle: Any, p: Precision, flavour: str, inc: int,
                                                        mode: str) -> None:
    # (inf + 1j) * 2 is inf + 2j (each part scaled), not the complex product's inf + nan j, whatever
    # the layout: one vector through a stride, or a batch of them.
    n, batch = 9, 1 if flavour == "plain" else 3
    r = p.real.dtype.type
    xh = np.stack([np.roll(_non_finite(p, n), b) for b in range(batch)])
    fn = getattr(blas, f"{'cs' if p is C else 'zd'}scal{SUFFIX[flavour]}")
    with ExitStack() as es:
        x = Vecs(es, xh, inc, flavour)
        set_mode(handle, mode)
        try:
            alpha = r(-2.5) if mode == "host" else rm.to_device(np.array([-2.5], p.real.dtype))
            assert fn(handle, n, alpha, x.arg, inc, *x.tail, *count_tail(flavour, batch)) is None
            handle.stream.synchronize()
        finally:
            set_mode(handle, "host")
        with np.errstate(invalid="ignore"):
            want = _parts(r(-2.5), xh)
        assert x.get().reshape(batch, n).tobytes() == want.tobytes()
        x.check()


# --- elementwise routines over batches ---------------------------------------------------------------


@settings(max_examples=rt.examples(30), deadline=None)
@given(p=st.sampled_from(SDCZ), op=st.sampled_from(("axpy", "scal", "copy", "swap", "rot")),
       flavour=st.sampled_from(("strided", "batched")), batch=st.integers(2, 4), n=st.integers(1, 12),
       incx=st.sampled_from((1, 2, -1, -2)), incy=st.sampled_from((1, 3, -1)), mode=st.sampled_from(("host", "device")),
       seed=st.integers(0, 2**32 - 1))
def test_elementwise_batches_use_each_entrys_own_operands(handle: Any, p: Precision, op: str, flavour: str, batch: int,
                                                          n: int, incx: int, incy: int, mode: str, seed: int) -> None:
    # Every entry of x differs (and of y): an entry computed from another entry's x or y, or left out,
    # shows.  Small integers and integer scalars: every result is exact, compared bit for bit.
    rng = np.random.default_rng(seed)
    xh, yh = ints(rng, p, (batch, n)), ints(rng, p, (batch, n))
    xh[:, 0] = np.arange(1, batch + 1) * 4  # no two entries alike
    r = p.real.dtype.type
    alpha = p.dtype.type(3 - 2j if p.is_complex else -3)
    c, sn = r(2), p.dtype.type(1 + 2j if p.is_complex else -1)
    xw, yw = xh.astype(np.complex128), yh.astype(np.complex128)
    want_x, want_y = xw, yw
    if op == "axpy":
        want_y = yw + complex(alpha) * xw
    elif op == "scal":
        want_x = complex(alpha) * xw
    elif op == "copy":
        want_y = xw
    elif op == "swap":
        want_x, want_y = yw, xw
    else:
        want_x, want_y = 2 * xw + complex(sn) * yw, 2 * yw - np.conj(complex(sn)) * xw
    tail = count_tail(flavour, batch)
    with ExitStack() as es:
        x, y = Vecs(es, xh, incx, flavour), Vecs(es, yh, incy, flavour, gap=1)
        set_mode(handle, mode)
        keep: list[Any] = []

        def scalar(v: Any) -> Any:
            if mode == "host":
                return v
            keep.append(rm.to_device(np.array([v])))
            return keep[-1]

        fn = getattr(blas, f"{p.letter}{op}{SUFFIX[flavour]}")
        xa, ya = (x.arg, incx, *x.tail), (y.arg, incy, *y.tail)
        try:
            if op == "axpy":
                fn(handle, n, scalar(alpha), *xa, *ya, *tail)
            elif op == "scal":
                # (scal's incx <= 0 is a quick return: a reversed x is scaled through |incx|, the same elements)
                fn(handle, n, scalar(alpha), x.arg, abs(incx), *x.tail, *tail)
            elif op == "rot":
                fn(handle, n, *xa, *ya, scalar(c), scalar(sn), *tail)
            else:
                fn(handle, n, *xa, *ya, *tail)
            handle.stream.synchronize()
        finally:
            set_mode(handle, "host")
        got_x, got_y = x.get().reshape(batch, n), y.get().reshape(batch, n)
        np.testing.assert_array_equal(got_x, want_x.astype(p.dtype) if p.is_complex else want_x.real.astype(p.dtype))
        np.testing.assert_array_equal(got_y, want_y.astype(p.dtype) if p.is_complex else want_y.real.astype(p.dtype))
        x.check()
        y.check()


# --- _ex scalars in their declared storage type ------------------------------------------------------


def _half_or_bf16(v: np.ndarray, p: Precision) -> np.ndarray:
    """float32 values rounded to p's storage type (bfloat16 as rocBLAS rounds: to nearest even), as float32."""
    if p is BF16:
        return from_bfloat16(to_bfloat16(np.asarray(v, np.float32)))
    return np.asarray(v, np.float32).astype(np.float16).astype(np.float32)


def _stored(v: np.ndarray, p: Precision) -> np.ndarray:
    return to_bfloat16(v) if p is BF16 else np.asarray(v, np.float32).astype(np.float16)


def _values(stored: np.ndarray, p: Precision) -> np.ndarray:
    return from_bfloat16(stored) if p is BF16 else stored.astype(np.float32)


@pytest.mark.parametrize("p", [H, BF16], ids=["f16", "bf16"])
@pytest.mark.parametrize("flavour", ["plain", "strided"])
def test_ex_host_scalars_are_values_of_their_declared_type(handle: Any, p: Precision, flavour: str) -> None:
    # A half (bfloat16) alpha, c or s given as a host number is that type's value nearest it, even when
    # the execution type is float32: 0.7 is 0.7001953125 as a half.  Products of two halves (two
    # bfloat16s) are exact in float32, so each expected result is computed in float32 and rounded into
    # the storage type just as the routine does: bit for bit.
    dt = DT.f16_r if p is H else DT.bf16_r
    n, batch = 29, 1 if flavour == "plain" else 2
    rng = np.random.default_rng(12)
    xs = _stored(rng.integers(-300, 301, (batch, n)) / 8.0, p)
    ys = _stored(rng.integers(-300, 301, (batch, n)) / 8.0, p)
    xv, yv = _values(xs, p), _values(ys, p)
    alpha, c, s = 0.7, 0.6, -0.8
    a16, c16, s16 = (_half_or_bf16(np.array([v], np.float32), p)[0] for v in (alpha, c, s))
    assert a16 != np.float32(alpha) and c16 != np.float32(c)  # the roundings matter here
    tail = count_tail(flavour, batch)
    sfx = SUFFIX[flavour]
    with ExitStack() as es:
        # scal_ex (alpha of the storage type, x, execution f32)
        x = Vecs(es, xs, 1, flavour, precision=p)
        getattr(ex, f"scal{sfx}_ex")(handle, n, alpha, dt, x.arg, dt, 1, *x.tail, *tail, DT.f32_r)
        np.testing.assert_array_equal(x.get().reshape(batch, n), _stored(a16 * xv, p), err_msg="scal_ex")
        x.check()
        # axpy_ex: y + alpha x in float32, rounded once into y's type
        x, y = Vecs(es, xs, 1, flavour, precision=p), Vecs(es, ys, 2, flavour, precision=p)
        getattr(ex, f"axpy{sfx}_ex")(handle, n, alpha, dt, x.arg, dt, 1, *x.tail, y.arg, dt, 2, *y.tail, *tail,
                                     DT.f32_r)
        np.testing.assert_array_equal(y.get().reshape(batch, n), _stored(yv + a16 * xv, p), err_msg="axpy_ex")
        x.check(logical=True)
        y.check()
        # rot_ex: each product one of the storage type, the sum and difference float32
        x, y = Vecs(es, xs, 1, flavour, precision=p), Vecs(es, ys, 1, flavour, precision=p)
        getattr(ex, f"rot{sfx}_ex")(handle, n, x.arg, dt, 1, *x.tail, y.arg, dt, 1, *y.tail, c, s, dt, *tail,
                                    DT.f32_r)
        want_x = _half_or_bf16(c16 * xv, p) + _half_or_bf16(s16 * yv, p)
        want_y = _half_or_bf16(c16 * yv, p) - _half_or_bf16(s16 * xv, p)
        np.testing.assert_array_equal(x.get().reshape(batch, n), _stored(want_x, p), err_msg="rot_ex x")
        np.testing.assert_array_equal(y.get().reshape(batch, n), _stored(want_y, p), err_msg="rot_ex y")
        x.check()
        y.check()


@pytest.mark.parametrize("p", [H, BF16], ids=["f16", "bf16"])
def test_scal_ex_of_a_float_alpha_rounds_through_float32(handle: Any, p: Precision) -> None:
    # A float32 alpha times a half (bfloat16) x executes in float32: the product is rounded to float32,
    # then into x's type (rocBLAS's Tx(Tex(alpha) * Tex(x))).  Here that rounds twice: the float32
    # product lands on a tie of the storage type that the exact product lies just above, so rounding the
    # exact product once would give the other neighbour.
    bits = 11 if p is H else 8
    x0, tie = 1 + 2.0 ** (1 - bits), 1 + 2.0 ** -bits
    alpha = np.float32(tie / x0)
    for _ in range(8):  # the float32 alpha whose float32 product is the tie, the exact one above it
        if np.float32(alpha * np.float32(x0)) == tie and float(alpha) * x0 > tie:
            break
        alpha = np.nextafter(alpha, np.float32(2), dtype=np.float32)
    assert np.float32(alpha * np.float32(x0)) == tie and float(alpha) * x0 > tie
    dt = DT.f16_r if p is H else DT.bf16_r
    rng = np.random.default_rng(13)
    xs = _stored(np.concatenate([[x0, -x0, x0], rng.integers(-40, 41, 13) / 4.0]), p)
    xv = _values(xs, p)
    want = _stored(alpha * xv, p)  # float32 products, rounded into the storage type
    # The ties round to even (1); the exact products, above them, would round to x0.
    np.testing.assert_array_equal(_values(want[:3], p), [1.0, -1.0, 1.0])
    with ExitStack() as es:
        x = Vecs(es, xs[None], 2, "plain", precision=p)
        ex.scal_ex(handle, xs.size, float(alpha), DT.f32_r, x.arg, dt, 2, DT.f32_r)
        np.testing.assert_array_equal(x.get().reshape(-1), want)
        x.check()


@pytest.mark.parametrize("p", [H, BF16], ids=["f16", "bf16"])
@pytest.mark.parametrize("flavour", ["plain", "strided"])
def test_rot_ex_products_at_the_largest_finite_value_stay_finite(handle: Any, p: Precision, flavour: str) -> None:
    # rot_ex of half (bfloat16) data rounds each product into the storage type, infinite only *past* its
    # largest finite value: c x of exactly that value stays it.
    big = float(np.finfo(np.float16).max) if p is H else float(from_bfloat16(np.array([0x7F7F], np.uint16))[0])
    dt = DT.f16_r if p is H else DT.bf16_r
    batch = 1 if flavour == "plain" else 2
    xs = _stored(np.array([[big, -big, big / 2, -big / 2, 1.0, 3.0]] * batch, np.float32), p)
    ys = _stored(np.array([[1.0, -2.0, 0.5, 0.0, big, -big]] * batch, np.float32), p)
    for c, s in ((1.0, 0.0), (2.0, 0.0), (0.0, 1.0)):
        with ExitStack() as es:
            x, y = Vecs(es, xs, 1, flavour, precision=p), Vecs(es, ys, -1, flavour, precision=p)
            getattr(ex, f"rot{SUFFIX[flavour]}_ex")(handle, 6, x.arg, dt, 1, *x.tail, y.arg, dt, -1, *y.tail, c, s,
                                                   dt, *count_tail(flavour, batch), DT.f32_r)
            xv, yv = _values(xs, p), _values(ys, p)
            with np.errstate(over="ignore", invalid="ignore"):
                want_x = _half_or_bf16(c * xv, p) + _half_or_bf16(s * yv, p)
                want_y = _half_or_bf16(c * yv, p) - _half_or_bf16(s * xv, p)
            if c == 1.0 or s == 1.0:
                assert np.isfinite(want_x).all() and np.isfinite(want_y).all()
            np.testing.assert_array_equal(x.get().reshape(batch, 6), _stored(want_x, p), err_msg=f"x, c={c} s={s}")
            np.testing.assert_array_equal(y.get().reshape(batch, 6), _stored(want_y, p), err_msg=f"y, c={c} s={s}")
            x.check()
            y.check()
