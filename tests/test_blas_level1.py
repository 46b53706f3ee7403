"""rocBLAS Level 1 (rocmath.blas.level1): accuracy against host references, memory safety,
determinism, quick returns and argument checking, in every precision, flavour and pointer mode.

Operands live in sentinel-poisoned device buffers (rocmath.testing): everything a routine
may not touch (increment gaps, batch gaps, margins) is checked bit for bit afterwards, and
read-only inputs must keep their logical elements bit for bit too.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.linalg.blas as sb
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.blas as blas
import rocmath.testing as rt
from rocmath import errors
from rocmath.blas import _kernels_l1 as kernels
from rocmath.blas import _manifest, level1
from rocmath.errors import RocblasNotImplementedError, RocblasStatus
from rocmath.precision import BF16, C, D, H, S, Z, from_bfloat16, to_bfloat16

SUFFIX = {"plain": "", "batched": "_batched", "strided": "_strided_batched"}
FLAVOURS = tuple(SUFFIX)
MODES = ("host", "device")
BLOCK = kernels.BLOCK
BIG_N = 2 * BLOCK + 37  # crosses two reduction block boundaries
FILL = {np.dtype(np.int32): -7}  # what a device result buffer holds before a call
# Half pointer-array (_batched) operands fail in rocmath's gather kernel (numba has no float16):
# see test_half_precision_batched_flavour.
HALF_FLAVOURS = ("plain", "strided")


@pytest.fixture(scope="module")
def handle():
    h = blas.create_handle()
    yield h
    blas.set_pointer_mode(h, blas.PointerMode.host)
    blas.destroy_handle(h)


# --- helpers ------------------------------------------------------------------------------------


def routine(op: str, p, flavour: str = "plain", prefix: str | None = None):
    return getattr(blas, f"{prefix if prefix is not None else p.letter}{op}{SUFFIX[flavour]}")


def wide(a, p) -> np.ndarray:
    """Host data of precision ``p`` as float64 / complex128 (bfloat16 bits decoded)."""
    a = np.asarray(a)
    if p is BF16:
        return from_bfloat16(a).astype(np.float64)
    return a.astype(np.complex128 if p.is_complex else np.float64)


def set_mode(h, mode: str) -> None:
    blas.set_pointer_mode(h, blas.PointerMode.host if mode == "host" else blas.PointerMode.device)


class Vec:
    """One vector argument (``bc`` entries of ``n`` logical elements) in one flavour.

    ``inc == 0`` stores one element per entry (BLAS reads x[0] n times); ``shared`` makes every
    batch entry read entry 0 (stride 0, or the same pointer in every slot of a pointer array).
    ``logical`` is what the routine must see, ``(bc, n)``.
    """

    def __init__(self, p, data, inc: int, flavour: str, *, pad: int = 0, shared: bool = False,
                 as_int: bool = False):
        data = np.asarray(data)
        bc, n = data.shape
        shared = shared and bc > 0
        self.p, self.inc, self.flavour, self.bc, self.n = p, inc, flavour, bc, n
        stored = data[:, : min(n, 1)] if inc == 0 else data
        if shared:
            stored = stored[:1]
        logical = np.repeat(stored[:, :1], n, axis=1) if inc == 0 else stored
        self.logical = np.repeat(logical[:1], bc, axis=0) if shared else logical
        sinc = inc or 1
        ns = stored.shape[1]
        self.stride = 0
        if flavour == "plain":
            self.bufs = [rt.poisoned_device_vector(stored[0], sinc, precision=p)]
            self.arg = self.bufs[0].ptr
        elif flavour == "strided":
            if shared:
                self.bufs = [rt.poisoned_device_vector(stored[:1].reshape(1, ns), sinc, precision=p)]
            else:
                self.stride = abs(sinc) * ns + pad
                self.bufs = [rt.poisoned_device_vector(stored, sinc, stride=self.stride, precision=p)]
            self.arg = self.bufs[0].ptr
        else:
            self.bufs = [rt.poisoned_device_vector(e, sinc, precision=p) for e in stored]
            ptrs = [self.bufs[0 if shared else b].ptr for b in range(bc)]
            self.ptrs = rm.to_device(np.array(ptrs, dtype=np.uint64)) if bc else None
            self.arg = (self.ptrs.ptr if as_int else self.ptrs) if bc else None

    def get(self) -> np.ndarray:
        """The stored entries, logical order, ``(entries, stored n)``."""
        if self.flavour == "batched":
            return np.stack([b.get() for b in self.bufs]) if self.bufs else np.zeros((0, self.n), self.p.dtype)
        out = self.bufs[0].get()
        return out if out.ndim == 2 else out[None]

    def check(self, *, logical: bool = False) -> None:
        """Padding, gaps and margins untouched; with ``logical`` the data too (read-only inputs)."""
        for b in self.bufs:
            b.check_untouched(logical=logical)


def call(fn, h, flavour: str, bc: int, **kw):
    """Call a bound routine by keyword; Vec arguments give their pointer (and stride)."""
    args = {}
    for k, v in kw.items():
        if isinstance(v, Vec):
            args[k] = v.arg
            if flavour == "strided":
                args[f"stride_{k}"] = v.stride
        else:
            args[k] = v
    if flavour != "plain":
        args["batch_count"] = bc
    return fn(h, **args)


def device_scalar(value, dtype, as_int: bool, keep: list):
    d = rm.to_device(np.array([value], dtype=dtype))
    keep.append(d)
    return d.ptr if as_int else d


def reduce_call(fn, h, flavour, bc, mode, dtype, **kw):
    """Run a reduction; returns ``(results (bc,), device buffer or None)``.  In device mode the
    result buffer has one spare element, which must stay as it was."""
    if mode == "host":
        out = call(fn, h, flavour, bc, **kw)
        return np.atleast_1d(np.asarray(out)).reshape(-1), None
    dt = np.dtype(dtype)
    buf = rm.to_device(np.full(bc + 1, FILL.get(dt, 12345.0), dtype=dt))
    assert call(fn, h, flavour, bc, result=buf, **kw) is None
    got = buf.get()
    assert got[bc] == FILL.get(dt, 12345.0), "a reduction wrote past its batch_count results"
    return got[:bc], buf


@st.composite
def layouts(draw, max_n: int = 24, flavours=FLAVOURS):
    """``(n, flavour, batch_count, pointer mode)``."""
    n = draw(rt.sizes(0, max_n))
    flavour = draw(st.sampled_from(flavours))
    bc = 1 if flavour == "plain" else draw(rt.batch_counts(min_value=0, max_value=3))
    return n, flavour, bc, draw(st.sampled_from(MODES))


def shared_flag(draw, flavour: str) -> bool:
    return flavour != "plain" and draw(st.booleans())


def host_data(draw, p, shape, *, integer: bool = False):
    return draw(rt.host_arrays(p, shape, integer_valued=integer))


# --- axpy, scal, copy, swap -----------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(data=st.data())
def test_axpy(handle, data):
    p = data.draw(st.sampled_from([S, D, C, Z, H]), label="precision")
    n, flavour, bc, mode = data.draw(layouts(flavours=HALF_FLAVOURS if p is H else FLAVOURS), label="layout")
    incx = data.draw(rt.increments(max_abs=3, allow_zero=True), label="incx")
    incy = data.draw(rt.increments(max_abs=3), label="incy")
    alpha = data.draw(rt.scalars(p), label="alpha")
    x = Vec(p, host_data(data.draw, p, (bc, n)), incx, flavour, pad=data.draw(st.integers(0, 3)),
            shared=shared_flag(data.draw, flavour), as_int=data.draw(st.booleans()))
    y = Vec(p, host_data(data.draw, p, (bc, n)), incy, flavour, pad=data.draw(st.integers(0, 3)))
    set_mode(handle, mode)
    keep: list = []
    a = alpha if mode == "host" else device_scalar(alpha, p.dtype, data.draw(st.booleans()), keep)
    assert call(routine("axpy", p, flavour), handle, flavour, bc, n=n, alpha=a, x=x, incx=incx, y=y,
                incy=incy) is None
    used = wide(np.array(alpha).astype(p.dtype), p)  # a half alpha is a half value
    expected = wide(y.logical, p) + used * wide(x.logical, p)
    if alpha == 0:
        expected = wide(y.logical, p)  # host: quick return; device: rocBLAS's kernel skips (if(alpha))
    # y + a*x may cancel: the error is relative to the operands, not to the (small) result.
    operands = np.abs(wide(y.logical, p)) + np.abs(used * wide(x.logical, p))
    rt.assert_close(y.get(), expected, p, "elementwise", scale=max(float(operands.max(initial=0)), 1e-300))
    x.check(logical=True)
    y.check()


@settings(max_examples=rt.examples(35))
@given(data=st.data())
def test_scal(handle, data):
    p, prefix, real_alpha = data.draw(st.sampled_from(
        [(S, None, False), (D, None, False), (C, None, False), (Z, None, False), (C, "cs", True), (Z, "zd", True)]),
        label="routine")
    n, flavour, bc, mode = data.draw(layouts(), label="layout")
    incx = data.draw(st.integers(1, 3), label="incx")
    ap = p.real if real_alpha else p
    alpha = data.draw(rt.scalars(ap), label="alpha")
    x = Vec(p, host_data(data.draw, p, (bc, n)), incx, flavour, pad=data.draw(st.integers(0, 3)))
    set_mode(handle, mode)
    keep: list = []
    a = alpha if mode == "host" else device_scalar(alpha, ap.dtype, data.draw(st.booleans()), keep)
    call(routine("scal", p, flavour, prefix), handle, flavour, bc, n=n, alpha=a, x=x, incx=incx)
    expected = wide(np.array(alpha).astype(ap.dtype), ap) * wide(x.logical, p)
    # A subnormal alpha makes subnormal products, exact only to the subnormal spacing.
    finite = np.abs(expected[np.isfinite(expected)])
    scale = max(float(finite.max(initial=0)), float(np.finfo(p.real.dtype).tiny))
    rt.assert_close(x.get(), expected, p, "elementwise", scale=scale)
    x.check()


def _non_finite(p, count: int) -> np.ndarray:
    """``count`` elements of precision ``p`` with infinities, NaNs and signed zeros in them."""
    vals = np.array([np.inf, -0.0, np.nan, 1.5, -np.inf, 0.0, 2.0, -3.0])
    v = np.resize(vals, count).astype(p.real.dtype)
    if not p.is_complex:
        return v
    out = np.empty(count, p.dtype)
    out.real, out.imag = v, np.roll(v, 3)
    return out


@pytest.mark.parametrize("p", [S, D, C, Z], ids=lambda p: p.letter)
def test_device_alpha_of_one_or_zero_leaves_the_vector_bitwise_untouched(handle, p):
    # rocBLAS's kernels test a device alpha: axpy updates y only if(alpha), scal writes x only
    # if(alpha != 1).  0 * inf and (1 + 0j) * (inf + 1j) would put NaNs in, -0.0 + 0 would lose a sign.
    n, bc = 8, 3
    x, y = _non_finite(p, n * bc), np.roll(_non_finite(p, n * bc), 5)
    keep: list = []
    set_mode(handle, "device")
    try:
        zero, one = device_scalar(0, p.dtype, True, keep), device_scalar(1, p.dtype, False, keep)
        dx, dy = rm.to_device(x), rm.to_device(y)
        routine("axpy", p)(handle, n, zero, dx, 1, dy, 1)
        routine("axpy", p, "strided")(handle, n, zero, dx, 1, n, dy, 1, n, bc)
        routine("scal", p)(handle, n, one, dx, 1)
        routine("scal", p, "strided")(handle, n, one, dy, 1, n, bc)
        routine("axpy", p)(handle, n, zero, None, 1, dy, 1)  # (x is not read: it may be null; y too)
        routine("axpy", p, "strided")(handle, n, zero, dx, 1, n, None, 1, n, bc)
        assert dx.get().tobytes() == x.tobytes() and dy.get().tobytes() == y.tobytes()
        with pytest.raises(errors.HipError):  # a nonzero alpha reads them: a fault on the device
            routine("axpy", p)(handle, n, one, None, 1, dy, 1)
    finally:
        set_mode(handle, "host")


@pytest.mark.parametrize("p", [C, Z], ids=lambda p: p.letter)
@pytest.mark.parametrize("mode", MODES)
def test_a_real_scalar_scales_a_complex_vector_part_by_part(handle, p, mode):
    # rocBLAS multiplies a complex by a real part by part (rocblas-complex-types.h): (inf + 1j) * 2
    # is inf + 2j, not the inf + nan j of a complex product with 2 + 0j.  So do cs/zdscal, cs/zdrot
    # and c/zrot's real c.
    n = 8
    x, y = _non_finite(p, n), np.roll(_non_finite(p, n), 3)
    r = p.real.dtype.type

    def parts(a, v: np.ndarray) -> np.ndarray:
        out = np.empty_like(v)
        out.real, out.imag = a * v.real, a * v.imag
        return out

    set_mode(handle, mode)
    keep: list = []

    def scalar(value, dtype):
        return value if mode == "host" else device_scalar(value, dtype, False, keep)

    try:
        with np.errstate(invalid="ignore"):
            dx = rm.to_device(x)
            routine("scal", p, prefix="cs" if p is C else "zd")(handle, n, scalar(r(2), p.real.dtype), dx, 1)
            assert dx.get().tobytes() == parts(r(2), x).tobytes()
            c, s = r(0.75), r(-0.5)
            dx, dy = rm.to_device(x), rm.to_device(y)
            routine("rot", p, prefix="cs" if p is C else "zd")(handle, n, dx, 1, dy, 1, scalar(c, p.real.dtype),
                                                               scalar(s, p.real.dtype))
            assert dx.get().tobytes() == (parts(c, x) + parts(s, y)).tobytes()
            assert dy.get().tobytes() == (parts(c, y) - parts(s, x)).tobytes()
            yf = (np.arange(n) - 3.5).astype(p.dtype)  # finite: (0 + 0j) * yf is a (signed) zero
            dx, dy = rm.to_device(x), rm.to_device(yf)
            routine("rot", p)(handle, n, dx, 1, dy, 1, scalar(r(1), p.real.dtype), scalar(0, p.dtype))
            assert dx.get().tobytes() == (parts(r(1), x) + np.zeros(n, p.dtype) * yf).tobytes()
    finally:
        set_mode(handle, "host")


@pytest.mark.parametrize("incx", [0, -1, -3])
@pytest.mark.parametrize("mode", MODES)
def test_scal_nonpositive_increment_is_a_no_op(handle, incx, mode):
    set_mode(handle, mode)
    data = np.arange(1.0, 6.0)
    x = rt.poisoned_device_vector(data)
    keep: list = []
    alpha = 3.0 if mode == "host" else device_scalar(3.0, np.float64, False, keep)
    assert blas.dscal(handle, 5, alpha, x.ptr, incx) is None
    blas.zdscal_strided_batched(handle, 5, alpha, x.ptr, incx, 5, 1)  # wrong type: never read
    x.check_untouched(logical=True)
    # ... even with a null x or alpha: the quick return comes first.
    blas.dscal(handle, 5, None, None, incx)
    blas.dscal(handle, 0, None, None, 1)
    blas.dscal_batched(handle, 5, None, None, 1, 0)


@settings(max_examples=rt.examples(30))
@given(data=st.data())
def test_copy_and_swap(handle, data):
    p = data.draw(rt.precisions(), label="precision")
    op = data.draw(st.sampled_from(["copy", "swap"]), label="op")
    n, flavour, bc, mode = data.draw(layouts(), label="layout")
    incx = data.draw(rt.increments(max_abs=3, allow_zero=op == "copy"), label="incx")
    incy = data.draw(rt.increments(max_abs=3), label="incy")
    x = Vec(p, host_data(data.draw, p, (bc, n)), incx, flavour, pad=data.draw(st.integers(0, 3)),
            shared=op == "copy" and shared_flag(data.draw, flavour))
    y = Vec(p, host_data(data.draw, p, (bc, n)), incy, flavour, pad=data.draw(st.integers(0, 3)))
    set_mode(handle, mode)  # neither routine has scalars: the mode must not matter
    x0, y0 = x.logical.copy(), y.logical.copy()
    call(routine(op, p, flavour), handle, flavour, bc, n=n, x=x, incx=incx, y=y, incy=incy)
    if op == "copy":
        np.testing.assert_array_equal(y.get(), x0)
        x.check(logical=True)
    else:
        np.testing.assert_array_equal(x.get(), y0)
        np.testing.assert_array_equal(y.get(), x0)
        x.check()
    y.check()


# --- dot ------------------------------------------------------------------------------------------


DOTS = [("dot", S, False), ("dot", D, False), ("dot", H, False), ("dot", BF16, False),
        ("dotu", C, False), ("dotu", Z, False), ("dotc", C, True), ("dotc", Z, True)]


@settings(max_examples=rt.examples(40))
@given(data=st.data())
def test_dot(handle, data):
    op, p, conj = data.draw(st.sampled_from(DOTS), label="routine")
    n, flavour, bc, mode = data.draw(layouts(max_n=40, flavours=HALF_FLAVOURS if p is H else FLAVOURS),
                                     label="layout")
    incx = data.draw(rt.increments(max_abs=3, allow_zero=True), label="incx")
    incy = data.draw(rt.increments(max_abs=3, allow_zero=True), label="incy")
    integer = data.draw(st.booleans())
    x = Vec(p, host_data(data.draw, p, (bc, n), integer=integer), incx, flavour, pad=data.draw(st.integers(0, 3)),
            shared=shared_flag(data.draw, flavour), as_int=data.draw(st.booleans()))
    y = Vec(p, host_data(data.draw, p, (bc, n), integer=integer), incy, flavour, pad=data.draw(st.integers(0, 3)),
            shared=shared_flag(data.draw, flavour))
    set_mode(handle, mode)
    got, _ = reduce_call(routine(op, p, flavour), handle, flavour, bc, mode, p.dtype, n=n, x=x, incx=incx, y=y,
                         incy=incy)
    # bfloat16 results come back as float32 values in host mode, as bfloat16 bits in device memory.
    got = wide(got, p) if got.dtype == p.dtype else got.astype(np.float64)
    xw, yw = wide(x.logical, p), wide(y.logical, p)
    expected = ((np.conj(xw) if conj else xw) * yw).sum(axis=1)
    scale = max(float((np.abs(xw) * np.abs(yw)).sum(axis=1).max(initial=0)), 1.0)
    rt.assert_close(got, expected, p, "reduction", max(n, 1), scale=scale)
    x.check(logical=True)
    y.check(logical=True)


def test_dot_against_scipy_and_host_result_buffer(handle):
    set_mode(handle, "host")
    rng = np.random.default_rng(1)
    xz = rng.standard_normal(37) + 1j * rng.standard_normal(37)
    yz = rng.standard_normal(37) - 1j * rng.standard_normal(37)
    dx, dy = rm.to_device(xz), rm.to_device(yz)
    assert blas.zdotc(handle, 37, dx, 1, dy, 1) == pytest.approx(sb.zdotc(xz, yz), rel=1e-13)
    assert blas.zdotu(handle, 37, dx, 1, dy, 1) == pytest.approx(sb.zdotu(xz, yz), rel=1e-13)
    # Negative increments as reference BLAS: x[i] is at (n - 1 - i) * |incx|.
    assert blas.zdotc(handle, 12, dx, -3, dy, 2) == pytest.approx(np.vdot(xz[0:34:3][::-1], yz[0:24:2]), rel=1e-13)
    xd = rng.standard_normal(37)
    ddx = rm.to_device(xd)
    assert blas.ddot(handle, 37, ddx, 1, ddx, 1) == pytest.approx(sb.ddot(xd, xd), rel=1e-13)
    # A host result buffer, as in C, is filled too.
    res = np.full(3, 7.0)
    px = rm.to_device(np.array([ddx.ptr] * 3, dtype=np.uint64))
    out = blas.ddot_batched(handle, 37, px, 1, px, 1, 3, res)
    np.testing.assert_array_equal(res, out)
    assert res[0] == pytest.approx(sb.ddot(xd, xd), rel=1e-13)


# --- asum, nrm2, amax, amin -----------------------------------------------------------------------


REDUCTIONS = {  # op -> the name prefix of each precision
    "asum": {S: "s", D: "d", C: "sc", Z: "dz"},
    "nrm2": {S: "s", D: "d", C: "sc", Z: "dz"},
    "amax": {S: "is", D: "id", C: "ic", Z: "iz"},
    "amin": {S: "is", D: "id", C: "ic", Z: "iz"},
}


def reduction_reference(op: str, logical: np.ndarray, p) -> np.ndarray:
    if op in ("amax", "amin"):
        # |re| + |im| in the routine's own real precision, so ties are ties there too.
        mag = np.abs(logical.real).astype(p.real.dtype) + np.abs(logical.imag).astype(p.real.dtype)
        if logical.shape[1] == 0:
            return np.zeros(logical.shape[0], np.int32)
        return ((np.argmax if op == "amax" else np.argmin)(mag, axis=1) + 1).astype(np.int32)
    w = wide(logical, p)
    if op == "asum":
        return (np.abs(w.real) + np.abs(w.imag)).sum(axis=1)
    return np.sqrt((np.abs(w) ** 2).sum(axis=1))


def result_dtype(op: str, p) -> np.dtype:
    return np.dtype(np.int32) if op in ("amax", "amin") else p.real.dtype


@settings(max_examples=rt.examples(50))
@given(data=st.data())
def test_reductions(handle, data):
    op = data.draw(st.sampled_from(sorted(REDUCTIONS)), label="op")
    p = data.draw(rt.precisions(), label="precision")
    n, flavour, bc, mode = data.draw(layouts(max_n=40), label="layout")
    incx = data.draw(st.integers(1, 3), label="incx")
    x = Vec(p, host_data(data.draw, p, (bc, n), integer=data.draw(st.booleans())), incx, flavour,
            pad=data.draw(st.integers(0, 3)), shared=shared_flag(data.draw, flavour),
            as_int=data.draw(st.booleans()))
    set_mode(handle, mode)
    fn = routine(op, p, flavour, REDUCTIONS[op][p])
    got, _ = reduce_call(fn, handle, flavour, bc, mode, result_dtype(op, p), n=n, x=x, incx=incx)
    expected = reduction_reference(op, x.logical, p)
    if op in ("amax", "amin"):
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, expected)
    else:
        assert got.dtype == p.real.dtype
        rt.assert_close(got, expected, p, "reduction", max(n, 1))
    x.check(logical=True)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n, incx", [(0, 1), (-3, 1), (4, 0), (4, -1), (4, -2)])
def test_reductions_of_nothing_are_zero(handle, mode, n, incx):
    """n <= 0 or incx <= 0: every result is 0 (the device buffer is overwritten), x is never
    read, so a null x is fine."""
    set_mode(handle, mode)
    for op, table in REDUCTIONS.items():
        for p, prefix in table.items():
            for flavour, bc in (("plain", 1), ("batched", 3), ("strided", 2)):
                fn = routine(op, p, flavour, prefix)
                args = dict(n=n, x=None, incx=incx)
                if flavour == "strided":
                    args["stride_x"] = 4
                got, _ = reduce_call(fn, handle, flavour, bc, mode, result_dtype(op, p), **args)
                assert got.shape == (bc,) and (got == 0).all(), (fn.__name__, got)
    # dot has no increment rule: only n <= 0 is a quick return (x and y may be null then).
    if n <= 0:
        for fn, dt in ((blas.ddot, np.float64), (blas.zdotc, np.complex128), (blas.cdotu, np.complex64),
                       (blas.hdot, np.float16), (blas.bfdot, np.uint16)):
            got, _ = reduce_call(fn, handle, "plain", 1, mode, dt, n=n, x=None, incx=1, y=None, incy=1)
            assert got[0] == 0


@pytest.mark.parametrize("mode", MODES)
def test_reductions_with_zero_batch_count_write_nothing(handle, mode):
    set_mode(handle, mode)
    for fn in (blas.dnrm2_batched, blas.idamax_strided_batched, blas.dzasum_batched):
        args = dict(n=3, x=None, incx=1)
        if "strided" in fn.__name__:
            args["stride_x"] = 3
        got, _ = reduce_call(fn, handle, "batched", 0, mode, np.float64 if "nrm2" in fn.__name__ or "asum" in
                             fn.__name__ else np.int32, **args)
        assert got.shape == (0,)
    got, _ = reduce_call(blas.ddot_batched, handle, "batched", 0, mode, np.float64, n=3, x=None, incx=1, y=None,
                         incy=1)
    assert got.shape == (0,)


def test_iamax_iamin_ties_give_the_first_index(handle):
    set_mode(handle, "host")
    x = rm.to_device(np.array([1.0, -3.0, 3.0, 2.0, -3.0, 0.5, -0.5]))
    assert blas.idamax(handle, 7, x, 1) == 2
    assert blas.idamin(handle, 7, x, 1) == 6
    assert blas.idamax(handle, 3, x, 2) == 2  # x[0], x[2], x[4] = 1, 3, -3
    assert blas.idamin(handle, 2, x, 5) == 2  # 1, 0.5
    z = rm.to_device(np.array([1 + 2j, 3 + 0j, -2 - 1j, 0.5 + 0.5j, -1 + 0j], dtype=np.complex64))
    assert blas.icamax(handle, 5, z, 1) == 1  # |re| + |im| = 3, 3, 3, 1, 1
    assert blas.icamin(handle, 5, z, 1) == 4
    s = rm.to_device(np.array([2.0, 2.0, 2.0], dtype=np.float32))
    assert blas.isamax(handle, 3, s, 1) == 1 and blas.isamin(handle, 3, s, 1) == 1
    assert isinstance(blas.isamax(handle, 3, s, 1), (int, np.integer))
    # scipy's reference idamax agrees (it is 0-based).
    rng = np.random.default_rng(7)
    v = rng.integers(-4, 5, size=50).astype(np.float64)
    assert blas.idamax(handle, 50, rm.to_device(v), 1) == sb.idamax(v) + 1


def _scan_extreme(mag: np.ndarray, largest: bool) -> int:
    """The sequential scan's answer (reference BLAS i?amax/i?amin), 1-based: a strictly better
    magnitude moves it, so ties keep the first and NaNs never win (nor lose to a NaN first)."""
    best, where = mag[0], 0
    for i in range(1, mag.size):
        if (mag[i] > best) if largest else (mag[i] < best):
            best, where = mag[i], i
    return where + 1


@settings(max_examples=rt.examples(25))
@given(data=st.data())
def test_iamax_iamin_of_one_long_vector_match_the_sequential_scan(handle, data):
    # One vector runs in parallel blocks (rocmath.simd's lanes): planted ties in other blocks, NaNs
    # (first element too, whole blocks), infinities and equal magnitudes of complex entries.
    p = data.draw(st.sampled_from([S, D, C, Z]), label="precision")
    n = data.draw(st.integers(BLOCK + 1, 3 * BLOCK + 40), label="n")
    incx = data.draw(st.sampled_from([1, 2]), label="incx")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    x = rng.integers(-50, 51, n).astype(p.dtype)
    if p.is_complex:
        x = x + 1j * rng.integers(-50, 51, n)
    spots = st.lists(st.integers(0, n - 1), max_size=4)
    for value in (60.0, 0.0, np.inf, np.nan):  # ties for the largest / smallest, infinities, NaNs
        for i in data.draw(spots, label=f"at {value}"):
            x[i] = value
    if data.draw(st.booleans(), label="a NaN block"):
        x[BLOCK:2 * BLOCK] = np.nan
    x = x.astype(p.dtype)
    mag = np.abs(x.real).astype(p.real.dtype) + np.abs(x.imag).astype(p.real.dtype)
    stored = np.zeros(n * incx, p.dtype)
    stored[::incx] = x
    dx = rm.to_device(stored)
    set_mode(handle, "host")
    for largest, name in ((True, "amax"), (False, "amin")):
        fn = getattr(blas, f"{REDUCTIONS[name][p]}{name}")
        assert fn(handle, n, dx, incx) == _scan_extreme(mag, largest), name
    np.testing.assert_array_equal(dx.get(), stored)


@pytest.mark.parametrize("p", [S, D, C, Z], ids=lambda p: p.letter)
def test_nrm2_does_not_overflow_or_underflow(handle, p):
    set_mode(handle, "host")
    fn = routine("nrm2", p, prefix=REDUCTIONS["nrm2"][p])
    big, tiny = (1e300, 1e-300) if p.real is D else (1e38, 1e-38)
    # Entries whose squares overflow, and normal entries whose squares underflow.
    for scale in (big / 16, tiny):
        v = np.array([3.0, -4.0, 12.0, 0.0]) * scale
        if p.is_complex:
            v = v * (1 + 1j) / np.sqrt(2)
        got = fn(handle, 4, rm.to_device(v.astype(p.dtype)), 1)
        assert np.isfinite(got) and got > 0
        assert got == pytest.approx(13.0 * scale, rel=10 * p.eps)
    # Huge and tiny entries together: the tiny ones vanish, nothing overflows.
    v = np.array([big, tiny, -big, tiny], dtype=p.dtype)
    assert fn(handle, 4, rm.to_device(v), 1) == pytest.approx(np.sqrt(2) * big, rel=10 * p.eps)
    # Inf gives inf; NaN anywhere gives NaN (as reference BLAS and numpy), whatever else is there.
    for vals, want in (([1.0, np.inf, 2.0], np.inf), ([np.inf, np.nan], np.nan), ([np.nan, np.inf], np.nan),
                       ([1.0, np.nan], np.nan), ([np.nan, 1.0], np.nan), ([-np.inf, big], np.inf)):
        got = fn(handle, len(vals), rm.to_device(np.array(vals, dtype=p.dtype)), 1)
        assert (np.isnan(got) and np.isnan(want)) or got == want, (vals, got)
    if p is D:
        w = np.array([1e300, -2e300, 1e-300, 5.0])
        assert fn(handle, 4, rm.to_device(w), 1) == pytest.approx(np.sqrt(5.0) * 1e300, rel=1e-14)


@pytest.mark.parametrize("n", [5, BLOCK + 3], ids=["one-block", "two-blocks"])
def test_batched_nrm2_rescales_only_the_entries_that_need_it(handle, n):
    # Entries of one block sum straight into the results (no partial sums): a batch mixing plain,
    # huge, tiny and NaN entries gives each entry what a call of its own gives.
    set_mode(handle, "host")
    rng = np.random.default_rng(4)
    xs = rng.standard_normal((5, n))
    xs[1] *= 1e300
    xs[2] *= 1e-300
    xs[3, n // 2] = np.nan
    xs[4, 0] = np.inf
    got = blas.dnrm2_strided_batched(handle, n, rm.to_device(xs), 1, n, 5)
    alone = [blas.dnrm2(handle, n, rm.to_device(v), 1) for v in xs]
    np.testing.assert_array_equal(got, alone)
    np.testing.assert_allclose(got[:3], np.linalg.norm(xs[:3] / [[1], [1e300], [1e-300]], axis=1) * [1, 1e300, 1e-300],
                               rtol=1e-14)
    assert np.isnan(got[3]) and got[4] == np.inf


@pytest.mark.parametrize("p", [S, D, C, Z], ids=lambda p: p.letter)
def test_reductions_are_bitwise_deterministic_across_layouts(handle, p):
    """Block-crossing sizes: same bits on every run, and whatever the flavour or batch
    position of the same data; accurate against numpy."""
    set_mode(handle, "host")
    rng = np.random.default_rng(11)
    n = BIG_N
    xs = rng.standard_normal((3, n)) + (1j * rng.standard_normal((3, n)) if p.is_complex else 0)
    xs = xs.astype(p.dtype)
    ys = (rng.standard_normal((3, n)) + (1j * rng.standard_normal((3, n)) if p.is_complex else 0)).astype(p.dtype)
    flat_x, flat_y = rm.to_device(xs), rm.to_device(ys)
    plain_x, plain_y = rm.to_device(xs[1]), rm.to_device(ys[1])
    pre = REDUCTIONS["nrm2"][p]
    dot = "dotc" if p.is_complex else "dot"
    ptr_x = rm.to_device(np.array([flat_x.ptr + b * n * p.itemsize for b in range(3)], np.uint64))
    ptr_y = rm.to_device(np.array([flat_y.ptr + b * n * p.itemsize for b in range(3)], np.uint64))
    ref = {"asum": (np.abs(xs.real) + np.abs(xs.imag)).astype(np.float64).sum(axis=1),
           "nrm2": np.linalg.norm(xs.astype(np.complex128), axis=1),
           dot: (np.conj(xs.astype(np.complex128)) * ys).sum(axis=1)}
    for op in ("asum", "nrm2", dot):
        pr = None if op == dot else pre
        two = {"x": plain_x, "incx": 1} if op != dot else {"x": plain_x, "incx": 1, "y": plain_y, "incy": 1}
        first = routine(op, p, prefix=pr)(handle, n, **two)
        again = routine(op, p, prefix=pr)(handle, n, **two)
        if op == dot:
            strided = routine(op, p, "strided", pr)(handle, n, flat_x, 1, n, flat_y, 1, n, 3)
            batched = routine(op, p, "batched", pr)(handle, n, ptr_x, 1, ptr_y, 1, 3)
        else:
            strided = routine(op, p, "strided", pr)(handle, n, flat_x, 1, n, 3)
            batched = routine(op, p, "batched", pr)(handle, n, ptr_x, 1, 3)
        assert np.asarray(first).tobytes() == np.asarray(again).tobytes()
        assert np.asarray(first).tobytes() == strided[1].tobytes() == batched[1].tobytes(), op
        assert strided.tobytes() == batched.tobytes()
        scale = np.abs(xs).sum() if op != "nrm2" else None
        rt.assert_close(strided, ref[op], p, "reduction", n, scale=scale)
    # amax/amin over block-crossing sizes too, with a tie for the maximum planted past the first block.
    xs[:, BLOCK + 5] = xs[:, 3 * BLOCK // 2] = 9.0
    flat_x = rm.to_device(xs)
    ptr_x = rm.to_device(np.array([flat_x.ptr + b * n * p.itemsize for b in range(3)], np.uint64))
    for op in ("amax", "amin"):
        pr = REDUCTIONS[op][p]
        want = reduction_reference(op, xs, p)
        np.testing.assert_array_equal(routine(op, p, "strided", pr)(handle, n, flat_x, 1, n, 3), want)
        np.testing.assert_array_equal(routine(op, p, "batched", pr)(handle, n, ptr_x, 1, 3), want)
    assert (reduction_reference("amax", xs, p) == BLOCK + 6).all()


@pytest.mark.parametrize("p", [pytest.param(S, marks=pytest.mark.slow), D], ids=lambda p: p.letter)
@pytest.mark.parametrize("batch", [1, 3])
def test_team_reductions_claim_every_block_once(handle, p, batch):
    """Vectors past the inline size run on the thread team, whose threads claim runs of blocks:
    integer-valued data gives exact sums, so a block skipped or summed twice shows; the bits are
    the same on one thread, on two, and in the serial twin."""
    import numba

    set_mode(handle, "host")
    rng = np.random.default_rng(5)
    n = 300 * BLOCK + 7  # > 2 MiB of f32 per vector (launches up to 2 MiB run inline, on one thread); 18 blocks a claim
    xs = rng.integers(-3, 4, (batch, n)).astype(p.dtype)
    ys = rng.integers(-3, 4, (batch, n)).astype(p.dtype)
    dx, dy = rm.to_device(xs), rm.to_device(ys)
    exact = {"dot": (xs.astype(np.int64) * ys).sum(axis=1), "asum": np.abs(xs.astype(np.int64)).sum(axis=1),
             "nrm2": (xs.astype(np.int64) ** 2).sum(axis=1)}

    def run(op):
        if op == "dot":
            return np.asarray(routine(op, p, "strided")(handle, n, dx, 1, n, dy, 1, n, batch))
        return np.asarray(routine(op, p, "strided")(handle, n, dx, 1, n, batch))

    before = numba.get_num_threads()

    def on_one_thread(call):
        numba.set_num_threads(1)
        try:
            return call()
        finally:
            numba.set_num_threads(before)

    for op in ("dot", "asum", "nrm2"):
        two = run(op)
        one = on_one_thread(lambda op=op: run(op))
        want = np.sqrt(exact[op].astype(np.float64)) if op == "nrm2" else exact[op]
        np.testing.assert_array_equal(two, want.astype(p.dtype), err_msg=op)
        assert one.tobytes() == two.tobytes(), op
    x2 = xs.copy()
    part = np.zeros(batch, p.dtype)
    kernels.asum.serial_entry_point(x2, part)(x2, part)
    np.testing.assert_array_equal(part, exact["asum"].astype(p.dtype))
    if batch == 1:  # one vector: iamax/iamin's blocks, claimed as the sums' are
        v = np.where(xs[0] == 0, 1, xs[0]).astype(p.dtype)  # magnitudes 1..3: the planted ones are unique
        late = rng.choice(np.arange(150 * BLOCK, n), 3, replace=False)
        v[late[0]], v[late[1]], v[late[2]] = -7, 0, 7  # two largest (the first wins), the smallest
        first7 = min(late[0], late[2])
        dv = rm.to_device(v)
        for name, want in (("amax", first7 + 1), ("amin", late[1] + 1)):
            fn = getattr(blas, f"{REDUCTIONS[name][p]}{name}")
            got_two = fn(handle, n, dv, 1)
            got_one = on_one_thread(lambda fn=fn: fn(handle, n, dv, 1))
            assert got_two == got_one == want, name


@settings(max_examples=rt.examples(8), deadline=None)
@example(n=3, share=0.2, seed=1)  # 2 * 10^5 blocks: PARTS parts of about 49 runs each
@given(n=st.integers(1, 3 * BLOCK), share=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_team_reductions_claim_every_block_of_every_part(handle, n, share, seed):
    """Batches of many blocks: the team's threads claim runs of blocks part after part (a part per
    thread's share, then the others'), parts of one run up to PARTS parts of many.  Exact integer
    sums show a block skipped, summed twice or summed into the wrong entry; one thread gives
    the same bits as two."""
    import numba

    least = (1 << 17) // n + 1  # past the 2 MiB of operands a launch runs inline on one thread
    batch = least + int(share * max(0, (1 << 20) // n - least))
    set_mode(handle, "host")
    rng = np.random.default_rng(seed)
    xs = rng.integers(-3, 4, (batch, n)).astype(np.float64)
    ys = rng.integers(-3, 4, (batch, n)).astype(np.float64)
    dx, dy = rm.to_device(xs), rm.to_device(ys)
    want = (xs.astype(np.int64) * ys).sum(axis=1).astype(np.float64)
    two = np.asarray(blas.ddot_strided_batched(handle, n, dx, 1, n, dy, 1, n, batch))
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = np.asarray(blas.ddot_strided_batched(handle, n, dx, 1, n, dy, 1, n, batch))
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(two, want)
    assert one.tobytes() == two.tobytes()


# --- rotations ------------------------------------------------------------------------------------


ROTS = [(S, None, S), (D, None, D), (C, None, C), (Z, None, Z), (C, "cs", S), (Z, "zd", D)]


@settings(max_examples=rt.examples(40))
@given(data=st.data())
def test_rot(handle, data):
    p, prefix, sp = data.draw(st.sampled_from(ROTS), label="routine")
    n, flavour, bc, mode = data.draw(layouts(), label="layout")
    incx = data.draw(rt.increments(max_abs=3), label="incx")
    incy = data.draw(rt.increments(max_abs=3), label="incy")
    theta = data.draw(st.floats(-4, 4), label="theta")
    phase = data.draw(st.floats(-4, 4), label="phase") if sp.is_complex else 0.0
    c, s = np.cos(theta), np.sin(theta) * np.exp(1j * phase)
    c = p.real.dtype.type(c)
    s = sp.dtype.type(s if sp.is_complex else s.real)
    x = Vec(p, host_data(data.draw, p, (bc, n)), incx, flavour, pad=data.draw(st.integers(0, 3)))
    y = Vec(p, host_data(data.draw, p, (bc, n)), incy, flavour, pad=data.draw(st.integers(0, 3)))
    set_mode(handle, mode)
    keep: list = []
    if mode == "device":
        ca, sa = device_scalar(c, p.real.dtype, data.draw(st.booleans()), keep), device_scalar(s, sp.dtype, False, keep)
    else:
        ca, sa = c, s
    xw, yw = wide(x.logical, p), wide(y.logical, p)
    call(routine("rot", p, flavour, prefix), handle, flavour, bc, n=n, x=x, incx=incx, y=y, incy=incy, c=ca, s=sa)
    cw, sw = np.float64(c), np.complex128(s)
    rt.assert_close(x.get(), cw * xw + sw * yw, p, "elementwise", scale=2.0)
    rt.assert_close(y.get(), cw * yw - np.conj(sw) * xw, p, "elementwise", scale=2.0)
    x.check()
    y.check()


def test_rot_against_scipy(handle):
    set_mode(handle, "host")
    rng = np.random.default_rng(3)
    for fn, ref, dt in ((blas.drot, sb.drot, np.float64), (blas.srot, sb.srot, np.float32),
                        (blas.csrot, sb.csrot, np.complex64), (blas.zdrot, sb.zdrot, np.complex128)):
        xv = (rng.standard_normal(9) + (1j * rng.standard_normal(9) if np.iscomplexobj(dt(0)) else 0)).astype(dt)
        yv = (rng.standard_normal(9) + (1j * rng.standard_normal(9) if np.iscomplexobj(dt(0)) else 0)).astype(dt)
        dx, dy = rm.to_device(xv), rm.to_device(yv)
        fn(handle, 4, dx, 2, dy, -2, 0.6, 0.8)
        rx, ry = ref(xv, yv, 0.6, 0.8, n=4, incx=2, incy=-2)
        tol = 1e-6 if dt(0).real.dtype == np.float32 else 1e-14
        np.testing.assert_allclose(dx.get(), rx, rtol=tol, atol=tol)
        np.testing.assert_allclose(dy.get(), ry, rtol=tol, atol=tol)
    # c and s given as Python ints are values, not pointers: c = 0, s = 1 swaps (with a sign).
    dx, dy = rm.to_device(np.array([1.0, 2.0])), rm.to_device(np.array([3.0, 4.0]))
    blas.drot(handle, 2, dx, 1, dy, 1, 0, 1)
    np.testing.assert_array_equal(dx.get(), [3.0, 4.0])
    np.testing.assert_array_equal(dy.get(), [-1.0, -2.0])


def host_param_array(params: np.ndarray, flavour: str, stride: int, shared: bool) -> np.ndarray:
    """rotm/rotmg ``param`` in host pointer mode: 5 values, or one block per batch entry."""
    if flavour == "plain":
        return params[0].copy()
    if flavour == "batched":
        return params.reshape(-1).copy()
    if shared:
        return params[0].copy()
    out = np.zeros(max(len(params) * stride, 5), params.dtype)
    for b, blk in enumerate(params):
        out[b * stride: b * stride + 5] = blk
    return out


@st.composite
def rotm_params(draw, p):
    flag = draw(st.sampled_from([-2.0, -1.0, 0.0, 1.0]))
    h = draw(rt.host_arrays(p, 4))
    return np.array([flag, *h], dtype=p.dtype)


@settings(max_examples=rt.examples(35))
@given(data=st.data())
def test_rotm(handle, data):
    p = data.draw(st.sampled_from([S, D]), label="precision")
    n, flavour, bc, mode = data.draw(layouts(), label="layout")
    incx = data.draw(rt.increments(max_abs=3), label="incx")
    incy = data.draw(rt.increments(max_abs=3), label="incy")
    shared = shared_flag(data.draw, flavour)
    params = np.stack([data.draw(rotm_params(p)) for _ in range(1 if shared else bc)]) if bc else np.zeros((0, 5))
    params = params.astype(p.dtype)
    x = Vec(p, host_data(data.draw, p, (bc, n)), incx, flavour, pad=data.draw(st.integers(0, 3)))
    y = Vec(p, host_data(data.draw, p, (bc, n)), incy, flavour, pad=data.draw(st.integers(0, 3)))
    pad = data.draw(st.integers(0, 3))
    set_mode(handle, mode)
    full = np.repeat(params[:1], bc, axis=0) if shared else params  # (bc, 5)
    if mode == "device":
        pv = Vec(p, full, 1, flavour, pad=pad, shared=shared)
        param, stride = pv.arg, pv.stride
    else:
        stride = 0 if shared else 5 + pad
        param = host_param_array(full, flavour, stride, shared) if bc else np.zeros(5, p.dtype)
        host_before = param.copy()
    kw = dict(n=n, x=x, incx=incx, y=y, incy=incy, param=param)
    if flavour == "strided":
        kw["stride_param"] = stride
    xw, yw = x.logical.copy(), y.logical.copy()
    identity = flavour == "strided" and stride == 0 and bc and full[0, 0] == -2
    if mode == "host" and flavour != "plain" and n > 0 and bc > 0 and not identity:
        # rocBLAS's batched rotm forms take no param in host memory (rocblas_rotm_kernels.cpp:
        # not_implemented, after the quick returns and pointer checks)
        with pytest.raises(RocblasNotImplementedError):
            call(routine("rotm", p, flavour), handle, flavour, bc, **kw)
        np.testing.assert_array_equal(x.get(), xw)
        np.testing.assert_array_equal(y.get(), yw)
        x.check()
        y.check()
        return
    call(routine("rotm", p, flavour), handle, flavour, bc, **kw)
    ref = sb.drotm if p is D else sb.srotm
    gx, gy = x.get(), y.get()
    for b in range(bc if n else 0):
        rx, ry = ref(xw[b], yw[b], full[b])
        rt.assert_close(gx[b], rx, p, "elementwise", scale=4.0)
        rt.assert_close(gy[b], ry, p, "elementwise", scale=4.0)
    x.check()
    y.check()
    if mode == "device":
        pv.check(logical=True)
    else:
        np.testing.assert_array_equal(param, host_before)


@pytest.mark.parametrize("mode", MODES)
def test_rotm_each_flag(handle, mode):
    set_mode(handle, mode)
    xv, yv = np.array([1.0, 2.0, -3.0]), np.array([0.5, -1.0, 4.0])
    for flag in (-2.0, -1.0, 0.0, 1.0, 2.0):
        param = np.array([flag, 2.0, 3.0, 5.0, 7.0])
        h11, h21, h12, h22 = {-1.0: (2, 3, 5, 7), 0.0: (1, 3, 5, 1)}.get(flag, (2, -1, 1, 7))
        if flag == -2.0:
            ex, ey = xv, yv
        else:
            ex, ey = h11 * xv + h12 * yv, h21 * xv + h22 * yv
        rx, ry = sb.drotm(xv, yv, param)
        np.testing.assert_allclose(rx, ex)
        np.testing.assert_allclose(ry, ey)
        dx, dy = rm.to_device(xv), rm.to_device(yv)
        keep = rm.to_device(param)
        blas.drotm(handle, 3, dx, 1, dy, 1, param if mode == "host" else keep)
        np.testing.assert_array_equal(dx.get(), ex)
        np.testing.assert_array_equal(dy.get(), ey)


@pytest.mark.parametrize("p", [S, D], ids=lambda p: p.letter)
@pytest.mark.parametrize("inc", [1, -2])
def test_rotm_of_one_long_vector_in_parallel_keeps_each_bit(handle, p, inc):
    # One vector runs element-parallel with H read once; each element is what it always was:
    # computed in double (the implied 1.0s are doubles) and rounded to the precision once.
    set_mode(handle, "host")
    n = 3 * BLOCK + 11
    rng = np.random.default_rng(11)
    xv, yv = rng.standard_normal(n).astype(p.dtype), rng.standard_normal(n).astype(p.dtype)
    for flag in (-1.0, 0.0, 1.0):
        param = np.array([flag, 0.3, -1.7, 2.9, 0.45], p.dtype)
        h11, h21, h12, h22 = {-1.0: param[1:], 0.0: (1.0, param[2], param[3], 1.0)}.get(
            flag, (param[1], -1.0, 1.0, param[4]))
        h11, h21, h12, h22 = (np.float64(h) for h in (h11, h21, h12, h22))
        wide_x, wide_y = xv.astype(np.float64), yv.astype(np.float64)
        want_x = (h11 * wide_x + h12 * wide_y).astype(p.dtype)
        want_y = (h21 * wide_x + h22 * wide_y).astype(p.dtype)
        stored_x = np.zeros(n * abs(inc), p.dtype)
        stored_y = np.full(n * abs(inc), 7, p.dtype)
        stored_x[::abs(inc)], stored_y[::abs(inc)] = (xv, yv) if inc > 0 else (xv[::-1], yv[::-1])
        dx, dy = rm.to_device(stored_x), rm.to_device(stored_y)
        getattr(blas, f"{p.letter}rotm")(handle, n, dx, inc, dy, inc, param)
        gx, gy = dx.get()[::abs(inc)], dy.get()[::abs(inc)]
        if inc < 0:
            gx, gy = gx[::-1], gy[::-1]
        np.testing.assert_array_equal(gx, want_x)
        np.testing.assert_array_equal(gy, want_y)
        if abs(inc) > 1:  # the gaps stay as they were
            assert (dy.get()[1::abs(inc)] == 7).all() and (dx.get()[1::abs(inc)] == 0).all()


def rotg_reference(a, b, p):
    """``(r, z, c, s)`` of rocBLAS/reference xROTG, computed in double."""
    if p.is_complex:
        a, b = complex(a), complex(b)
        if abs(a) == 0:
            return b, b, 0.0, 1.0
        norm = np.hypot(abs(a), abs(b))
        alpha = a / abs(a)
        return alpha * norm, b, abs(a) / norm, alpha * np.conj(b) / norm
    a, b = float(a), float(b)
    if a == 0 and b == 0:
        return 0.0, 0.0, 1.0, 0.0
    roe = a if abs(a) > abs(b) else b
    r = np.copysign(np.hypot(a, b), roe)
    c, s = a / r, b / r
    c32 = float(p.dtype.type(c))  # z = 1/c is taken from c in the routine's precision (it may underflow)
    z = s if abs(a) > abs(b) else (1 / c32 if c32 != 0 else 1.0)
    return r, z, c, s


ROTG_EDGES = [(0.0, 0.0), (0.0, 2.0), (0.0, -2.0), (3.0, 0.0), (-3.0, 0.0), (3.0, 4.0), (-3.0, 4.0), (3.0, -4.0),
              (-4.0, 3.0), (4.0, -3.0), (-4.0, -3.0), (1.0, 1.0), (-1.0, 1.0), (1e-30, 1e30), (1e200, 1e200)]


@pytest.mark.parametrize("p", [S, D, C, Z], ids=lambda p: p.letter)
def test_rotg_edge_cases(handle, p):
    set_mode(handle, "host")
    fn = routine("rotg", p)
    cases = ROTG_EDGES + ([(1 + 2j, 3 - 1j), (0j, 1 - 1j), (1j, 0j), (-2 + 0.5j, 1e-3j)] if p.is_complex else [])
    for a, b in cases:
        if p.real is S and max(abs(a), abs(b)) > 1e30:
            continue
        r, z, c, s = fn(handle, p.dtype.type(a), p.dtype.type(b))
        er, ez, ec, es = rotg_reference(p.dtype.type(a), p.dtype.type(b), p)
        tol = 10 * p.eps
        assert np.asarray(c).dtype == p.real.dtype and np.asarray(s).dtype == p.dtype
        assert c == pytest.approx(ec, rel=tol, abs=tol) and s == pytest.approx(es, rel=tol, abs=tol), (a, b)
        assert r == pytest.approx(er, rel=tol), (a, b)
        assert z == pytest.approx(ez, rel=tol, abs=tol), (a, b)
        # The rotation zeroes b and preserves the norm.
        assert abs(c) ** 2 + abs(s) ** 2 == pytest.approx(1.0, rel=tol)
        assert abs(-np.conj(s) * complex(a) + c * complex(b)) <= tol * max(abs(a), abs(b), 1e-300)
        if not p.is_complex and not (a == 0 and b == 0):
            sc, ss = (sb.drotg if p is D else sb.srotg)(a, b)  # scipy's reference c, s
            assert (c, s) == pytest.approx((sc, ss), rel=tol, abs=tol), (a, b)
        if p.is_complex and a != 0 and b != 0:
            sc, ss = (sb.zrotg if p is Z else sb.crotg)(a, b)
            assert (c, s) == pytest.approx((sc.real, ss), rel=tol, abs=tol), (a, b)


@settings(max_examples=rt.examples(30))
@given(data=st.data())
def test_rotg_flavours_and_modes(handle, data):
    p = data.draw(rt.precisions(), label="precision")
    flavour = data.draw(st.sampled_from(FLAVOURS), label="flavour")
    bc = 1 if flavour == "plain" else data.draw(st.integers(0, 3), label="batch_count")
    mode = data.draw(st.sampled_from(MODES), label="mode")
    ab = data.draw(rt.host_arrays(p, (2, bc)), label="a, b")
    zero = data.draw(st.sampled_from(["none", "a", "b", "both"]))
    if zero in ("a", "both"):
        ab[0] = 0
    if zero in ("b", "both"):
        ab[1] = 0
    set_mode(handle, mode)
    fn = routine("rotg", p, flavour)
    if mode == "host":
        if flavour == "plain":
            out = fn(handle, ab[0, 0], ab[1, 0])
            got = [np.array([v]) for v in out]
        else:
            kw = {"a": ab[0].copy(), "b": ab[1].copy(), "batch_count": bc}
            if flavour == "strided":
                kw.update(stride_a=1, stride_b=1, stride_c=1, stride_s=1)
            out = fn(handle, **kw)
            if bc == 0:
                assert out is None or all(len(v) == 0 for v in out)
                return
            got = [np.asarray(v) for v in out]
    else:
        pads = [data.draw(st.integers(0, 2)) for _ in range(4)]
        vecs = [Vec(pp, v.reshape(bc, 1), 1, flavour, pad=pad)
                for pp, v, pad in zip((p, p, p.real, p), (ab[0], ab[1], np.zeros(bc), np.zeros(bc)), pads,
                                      strict=True)]
        assert call(fn, handle, flavour, bc, a=vecs[0], b=vecs[1], c=vecs[2], s=vecs[3]) is None
        got = [v.get().reshape(-1) for v in vecs]
        for v in vecs:
            v.check()
    for b in range(bc):
        want = rotg_reference(ab[0, b], ab[1, b], p)
        for g, w in zip(got, want, strict=True):
            assert g[b] == pytest.approx(w, rel=10 * p.eps, abs=10 * p.eps), (b, got, want)


def rotmg_check(d1, d2, x1, y1, out, p):
    """The modified Givens invariants: H [x1, y1] = [x1', 0] and H^T D' H = D."""
    nd1, nd2, nx1, param = out
    flag = param[0]
    if flag == -2:
        h = np.eye(2)
    elif flag == -1:
        h = np.array([[param[1], param[3]], [param[2], param[4]]])
    elif flag == 0:
        h = np.array([[1.0, param[3]], [param[2], 1.0]])
    else:
        h = np.array([[param[1], 1.0], [-1.0, param[4]]])
    h = h.astype(np.float64)
    v = h @ np.array([x1, y1], dtype=np.float64)
    tol = 1e3 * p.eps
    if flag != -2:
        assert abs(v[1]) <= tol * (np.abs(h[1]) @ np.abs([x1, y1])), (param, v)
        assert v[0] == pytest.approx(nx1, rel=tol)
    # Every term of (H^T D' H)_ij is bounded by sqrt(d_i d_j): compare with that scale.
    dd = h.T @ np.diag([float(nd1), float(nd2)]) @ h
    scale = np.sqrt(np.outer([d1, d2], [d1, d2]))
    assert (np.abs(dd - np.diag([d1, d2])) <= tol * scale).all(), (param, dd, (d1, d2))


ROTMG_CASES = [(1.0, 2.0, 3.0, 4.0), (2.0, 1.0, 4.0, 3.0), (1.0, 1.0, 1.0, 1.0), (1e-20, 1.0, 1.0, 1.0),
               (1e20, 1e-20, 3.0, 1.0), (1.0, 1e-30, 1.0, 1e-3), (1e-15, 2.0, 1e-3, 1.0), (5.0, 1e12, 1e-4, 2.0),
               (1e-9, 1e-9, 1.0, -1.0), (1e8, 1e8, -2.0, 3.0), (0.0, 1.0, 1.0, 1.0), (1.0, 0.0, 1.0, 1.0),
               (1.0, 1.0, 0.0, 1.0), (1.0, 1.0, 1.0, 0.0), (1.0, -1.0, 1.0, 2.0), (-1.0, 1.0, 1.0, 1.0),
               (3.0, 2.0, -1.0, -5.0)]


@pytest.mark.parametrize("p", [S, D], ids=lambda p: p.letter)
def test_rotmg_against_scipy_and_invariants(handle, p):
    set_mode(handle, "host")
    ref = sb.drotmg if p is D else sb.srotmg
    for case in ROTMG_CASES:
        d1, d2, x1, y1 = (p.dtype.type(v) for v in case)
        if p is S and max(abs(v) for v in case if v) > 1e18:
            continue
        out = blas.drotmg(handle, d1, d2, x1, y1) if p is D else blas.srotmg(handle, d1, d2, x1, y1)
        assert out[3].dtype == p.dtype
        flag = out[3][0]
        if d1 == 0:  # degenerate (d1' or d2' is 0); OpenBLAS special-cases it, reference BLAS does not
            assert flag == 1 and list(out[3][[1, 4]]) == [0.0, x1 / y1], out
            assert (out[0], out[1], out[2]) == (d2, 0.0, y1)
            continue
        expected = ref(d1, d2, x1, y1)
        assert flag == expected[0], (case, out[3], expected)
        used = {-1.0: [1, 2, 3, 4], 0.0: [2, 3], 1.0: [1, 4], -2.0: []}[float(flag)]
        np.testing.assert_allclose(out[3][used], expected[used], rtol=20 * p.eps, err_msg=str(case))
        if d1 > 0 and d2 > 0:
            rotmg_check(float(d1), float(d2), float(x1), float(y1), out, p)
        if d1 < 0:  # rotmg zeroes everything
            assert out[0] == out[1] == out[2] == 0 and flag == -1
        if float(d2) * float(y1) == 0:  # flag -2: d1, d2, x1 untouched
            assert flag == -2 and (out[0], out[1], out[2]) == (d1, d2, x1)


@settings(max_examples=rt.examples(30))
@given(data=st.data())
def test_rotmg_flavours_and_modes(handle, data):
    p = data.draw(st.sampled_from([S, D]), label="precision")
    flavour = data.draw(st.sampled_from(FLAVOURS), label="flavour")
    bc = 1 if flavour == "plain" else data.draw(st.integers(0, 3), label="batch_count")
    mode = data.draw(st.sampled_from(MODES), label="mode")
    mag = st.floats(-6 if p is S else -12, 6 if p is S else 12).map(lambda e: 10.0**e)
    vals = np.array([[data.draw(mag) for _ in range(bc)] for _ in range(2)]
                    + [[data.draw(st.floats(0.1, 3)) * data.draw(st.sampled_from([1, -1])) for _ in range(bc)]
                       for _ in range(2)], dtype=p.dtype).reshape(4, bc)
    set_mode(handle, mode)
    fn = routine("rotmg", p, flavour)
    if mode == "host":
        if flavour == "plain":
            d1, d2, x1, param = fn(handle, *vals[:, 0])
            got = [np.array([d1]), np.array([d2]), np.array([x1]), param[None]]
        else:
            kw = {k: vals[i].copy() for i, k in enumerate(("d1", "d2", "x1", "y1"))}
            kw["batch_count"] = bc
            if flavour == "strided":
                kw.update(stride_d1=1, stride_d2=1, stride_x1=1, stride_y1=1, stride_param=5)
            out = fn(handle, **kw)
            if bc == 0:
                assert out is None or all(len(v) == 0 for v in out)
                return
            got = list(out)
    else:
        vecs = [Vec(p, vals[i].reshape(bc, 1), 1, flavour, pad=data.draw(st.integers(0, 2))) for i in range(4)]
        pv = Vec(p, np.zeros((bc, 5), p.dtype), 1, flavour, pad=data.draw(st.integers(0, 2)))
        call(fn, handle, flavour, bc, d1=vecs[0], d2=vecs[1], x1=vecs[2], y1=vecs[3], param=pv)
        got = [v.get().reshape(-1) for v in vecs[:3]] + [pv.get()]
        vecs[3].check(logical=True)  # y1 is read only
        for v in [*vecs[:3], pv]:
            v.check()
    ref = sb.drotmg if p is D else sb.srotmg
    for b in range(bc):
        d1, d2, x1, y1 = (float(v) for v in vals[:, b])
        out = (got[0][b], got[1][b], got[2][b], np.asarray(got[3][b], dtype=np.float64))
        assert out[3][0] == ref(*vals[:, b])[0]
        rotmg_check(d1, d2, x1, y1, out, p)


# --- argument checking ---------------------------------------------------------------------------


def _vectors():
    x = rt.poisoned_device_vector(np.arange(1.0, 9.0))
    y = rt.poisoned_device_vector(np.arange(-8.0, 0.0))
    return x, y


def _assert_raises_named(exc_type, arg, index, fn, *args, **kw):
    with pytest.raises(exc_type) as info:
        fn(*args, **kw)
    assert info.value.arg == arg and info.value.index == index, (info.value.arg, info.value.index, str(info.value))
    assert f"'{arg}'" in str(info.value)
    return info.value


@pytest.mark.parametrize("bad", ["none", "destroyed", "object", "int", "sparse"])
def test_invalid_handle(bad):
    import rocmath.sparse as sparse

    h = blas.create_handle()
    if bad == "destroyed":
        blas.destroy_handle(h)
        with pytest.raises(errors.RocblasInvalidHandleError):
            blas.destroy_handle(h)
    other = sparse.create_handle() if bad == "sparse" else None  # another library's handle
    value = {"none": None, "destroyed": h, "object": object(), "int": 0, "sparse": other}[bad]
    x, y = _vectors()
    calls = [(blas.daxpy, (value, 8, 2.0, x.ptr, 1, y.ptr, 1)), (blas.ddot, (value, 8, x.ptr, 1, y.ptr, 1)),
             (blas.dnrm2_batched, (value, 8, x.ptr, 1, 1)), (blas.drotg, (value, 1.0, 2.0)),
             (blas.zdscal_strided_batched, (value, 2, 1.0, x.ptr, 1, 4, 1)), (blas.drotmg, (value, 1.0, 1.0, 1.0, 1.0)),
             (blas.set_pointer_mode, (value, 0)), (blas.get_stream, (value,))]
    for fn, args in calls:
        err = _assert_raises_named(errors.RocblasInvalidHandleError, "handle", 1, fn, *args)
        assert err.status == RocblasStatus.invalid_handle
    x.check_untouched(logical=True)
    y.check_untouched(logical=True)
    if bad != "destroyed":
        blas.destroy_handle(h)
    if other is not None:
        sparse.destroy_handle(other)


# (function, keyword arguments with one problem, expected argument, its 1-based C position)
NULL_CASES = [
    ("daxpy", dict(n=8, alpha=None, x="x", incx=1, y="y", incy=1), "alpha", 3),
    ("daxpy", dict(n=8, alpha=2.0, x=None, incx=1, y="y", incy=1), "x", 4),
    ("daxpy", dict(n=8, alpha=2.0, x="x", incx=1, y=0, incy=1), "y", 6),
    ("caxpy_batched", dict(n=8, alpha=None, x="px", incx=1, y="py", incy=1, batch_count=1), "alpha", 3),
    ("daxpy_strided_batched", dict(n=4, alpha=1.0, x="x", incx=1, stride_x=4, y=None, incy=1, stride_y=4,
                                   batch_count=2), "y", 7),
    ("dscal", dict(n=8, alpha=None, x="x", incx=1), "alpha", 3),
    ("zdscal", dict(n=4, alpha=2.0, x=None, incx=1), "x", 4),
    ("dscal_strided_batched", dict(n=4, alpha=2.0, x=None, incx=1, stride_x=4, batch_count=2), "x", 4),
    ("dcopy", dict(n=8, x=None, incx=1, y="y", incy=1), "x", 3),
    ("dcopy", dict(n=8, x="x", incx=1, y=None, incy=1), "y", 5),
    ("dswap_batched", dict(n=8, x="px", incx=1, y=None, incy=1, batch_count=1), "y", 5),
    ("ddot", dict(n=8, x=None, incx=1, y="y", incy=1), "x", 3),
    ("ddot", dict(n=8, x="x", incx=1, y=None, incy=1), "y", 5),
    ("ddot_strided_batched", dict(n=4, x="x", incx=1, stride_x=4, y=None, incy=1, stride_y=4, batch_count=2), "y", 6),
    ("dnrm2", dict(n=8, x=None, incx=1), "x", 3),
    ("dzasum_batched", dict(n=8, x=None, incx=1, batch_count=2), "x", 3),
    ("idamin_strided_batched", dict(n=4, x=None, incx=1, stride_x=4, batch_count=2), "x", 3),
    ("drot", dict(n=8, x="x", incx=1, y="y", incy=1, c=None, s=0.0), "c", 7),
    ("drot", dict(n=8, x="x", incx=1, y="y", incy=1, c=1.0, s=None), "s", 8),
    ("zdrot", dict(n=8, x=None, incx=1, y="y", incy=1, c=1.0, s=0.0), "x", 3),
    ("drot_strided_batched", dict(n=4, x="x", incx=1, stride_x=4, y="y", incy=1, stride_y=4, c=None, s=0.0,
                                  batch_count=2), "c", 9),
    ("drotm", dict(n=8, x="x", incx=1, y="y", incy=1, param=None), "param", 7),
    ("drotm", dict(n=8, x=None, incx=1, y="y", incy=1, param=np.array([-1.0, 1, 0, 0, 1])), "x", 3),
    ("drotm_strided_batched", dict(n=4, x="x", incx=1, stride_x=4, y="y", incy=1, stride_y=4, param=None,
                                   stride_param=5, batch_count=1), "param", 9),
    ("drotg", dict(a=None, b=1.0), "a", 2),
    ("zrotg", dict(a=1.0, b=None), "b", 3),
    ("drotmg", dict(d1=None, d2=1.0, x1=1.0, y1=1.0), "d1", 2),
    ("srotmg", dict(d1=1.0, d2=1.0, x1=1.0, y1=None), "y1", 5),
]

DEVICE_NULL_CASES = [
    ("daxpy", dict(n=8, alpha=None, x="x", incx=1, y="y", incy=1), "alpha", 3),
    ("ddot", dict(n=8, x="x", incx=1, y="y", incy=1, result=None), "result", 7),
    ("ddot", dict(n=0, x=None, incx=1, y=None, incy=1, result=None), "result", 7),  # result is checked first
    ("dnrm2", dict(n=8, x=None, incx=1, result=None), "result", 5),
    ("idamax", dict(n=-1, x=None, incx=1, result=0), "result", 5),
    ("dasum_batched", dict(n=8, x="px", incx=1, batch_count=2, result=None), "result", 6),
    ("dnrm2_strided_batched", dict(n=4, x="x", incx=1, stride_x=4, batch_count=2, result=None), "result", 7),
    ("drot", dict(n=8, x="x", incx=1, y="y", incy=1, c="dev", s=None), "s", 8),
    ("drotm", dict(n=8, x="x", incx=1, y="y", incy=1, param=None), "param", 7),
    ("drotg", dict(a="dev", b="dev", c="dev", s=None), "s", 5),
    ("drotg_batched", dict(a="pdev", b=None, c="pdev", s="pdev", batch_count=1), "b", 3),
    ("drotmg", dict(d1="dev", d2="dev", x1="dev", y1="dev", param=None), "param", 6),
    ("drotmg_strided_batched", dict(d1="dev", stride_d1=1, d2=None, stride_d2=1, x1="dev", stride_x1=1, y1="dev",
                                    stride_y1=1, param="dev", stride_param=5, batch_count=1), "d2", 4),
]


def _materialise(kw, x, y, keep):
    out = {}
    for k, v in kw.items():
        if isinstance(v, str):
            if v in ("x", "y"):
                v = (x if v == "x" else y).ptr
            elif v in ("px", "py"):
                arr = rm.to_device(np.array([(x if v == "px" else y).ptr] * 2, np.uint64))
                keep.append(arr)
                v = arr
            else:  # "dev" / "pdev": a spare device scalar (or a pointer array to it)
                d = rm.to_device(np.ones(5))
                keep.append(d)
                v = d if v == "dev" else rm.to_device(np.array([d.ptr], np.uint64))
                keep.append(v)
        out[k] = v
    return out


@pytest.mark.parametrize("mode", MODES)
def test_null_pointers_are_invalid_pointer_naming_the_argument(handle, mode):
    set_mode(handle, mode)
    for name, kw, arg, index in (NULL_CASES if mode == "host" else DEVICE_NULL_CASES):
        x, y = _vectors()
        keep: list = []
        args = _materialise(kw, x, y, keep)
        snap = [rt.snapshot(k) for k in keep if isinstance(k, rm.DeviceArray)]
        err = _assert_raises_named(errors.RocblasInvalidPointerError, arg, index, getattr(blas, name), handle, **args)
        assert err.status == RocblasStatus.invalid_pointer, name
        assert list(inspect.signature(getattr(blas, name)).parameters)[index - 1] == arg, name
        x.check_untouched(logical=True)
        y.check_untouched(logical=True)
        for s in snap:
            rt.assert_unchanged(s)


@pytest.mark.parametrize("mode", MODES)
def test_quick_returns_come_before_null_checks(handle, mode):
    set_mode(handle, mode)
    x, y = _vectors()
    # n == 0 or batch_count == 0: every pointer may be null.
    blas.daxpy(handle, 0, None, None, 1, None, 1)
    blas.daxpy(handle, -5, None, None, 1, None, 1)
    blas.zaxpy_batched(handle, 4, None, None, 1, None, 1, 0)
    blas.saxpy_strided_batched(handle, 4, None, None, 1, 4, None, 1, 4, -1)
    blas.dcopy(handle, 0, None, 1, None, 1)
    blas.cswap_batched(handle, 3, None, 1, None, 1, 0)
    blas.drot(handle, 0, None, 1, None, 1, None, None)
    blas.csrot_strided_batched(handle, 3, None, 1, 3, None, 1, 3, None, None, 0)
    blas.drotm(handle, 0, None, 1, None, 1, None)
    blas.drotm_batched(handle, 3, None, 1, None, 1, None, 0)
    assert blas.drotg_batched(handle, None, None, None, None, 0) is None
    assert blas.drotmg_strided_batched(handle, None, 1, None, 1, None, 1, None, 1, None, 5, 0) is None
    if mode == "host":
        # alpha == 0 in host mode: x and y are never read, and may be null.
        blas.daxpy(handle, 8, 0.0, None, 1, None, 1)
        blas.zaxpy(handle, 8, 0, None, 1, None, 1)
        blas.daxpy_batched(handle, 8, 0.0, None, 1, None, 1, 3)
        # rotm with flag -2 in host mode is the identity: x and y are not needed.
        blas.drotm(handle, 8, None, 1, None, 1, np.array([-2.0, 1, 2, 3, 4]))
    x.check_untouched(logical=True)
    y.check_untouched(logical=True)


def test_device_pointer_as_host_scalar_is_refused(handle):
    set_mode(handle, "host")
    x, y = _vectors()
    alpha = rm.to_device(np.array([2.0]))
    for value in (alpha, alpha.ptr):
        _assert_raises_named(errors.RocblasInvalidPointerError, "alpha", 3, blas.daxpy, handle, 8, value, x.ptr, 1,
                             y.ptr, 1)
        _assert_raises_named(errors.RocblasInvalidPointerError, "alpha", 3, blas.dscal, handle, 8, value, x.ptr, 1)
        _assert_raises_named(errors.RocblasInvalidPointerError, "c", 7, blas.drot, handle, 8, x.ptr, 1, y.ptr, 1,
                             value, 0.0)
        _assert_raises_named(errors.RocblasInvalidPointerError, "a", 2, blas.drotg, handle, value, 1.0)
        _assert_raises_named(errors.RocblasInvalidPointerError, "d1", 2, blas.drotmg, handle, value, 1.0, 1.0, 1.0)
    # ... and a host number in device mode is not a pointer.
    set_mode(handle, "device")
    _assert_raises_named(errors.RocblasInvalidPointerError, "alpha", 3, blas.daxpy, handle, 8, 2.5, x.ptr, 1,
                         y.ptr, 1)
    x.check_untouched(logical=True)
    y.check_untouched(logical=True)
    rt.assert_unchanged(rt.snapshot(alpha))


def test_out_of_bounds_is_refused_before_anything_runs(handle):
    set_mode(handle, "host")
    # Exact-size allocations (no margins): one element too far leaves the allocation.
    x, y = rm.to_device(np.arange(1.0, 9.0)), rm.to_device(np.arange(-8.0, 0.0))
    before = [rt.snapshot(x), rt.snapshot(y)]
    cases = [
        (blas.daxpy, (handle, 9, 2.0, x.ptr, 1, y.ptr, 1)),
        (blas.daxpy, (handle, 5, 2.0, x.ptr, 1, y.ptr, 2)),  # y needs 9 elements
        (blas.dcopy, (handle, 3, x.ptr, 4, y.ptr, 1)),
        (blas.dswap, (handle, 8, x.ptr, 1, y.ptr + 8, 1)),
        (blas.dscal_strided_batched, (handle, 4, 2.0, x.ptr, 1, 5, 2)),
        (blas.ddot, (handle, 8, x.ptr, 1, y.ptr, 2)),
        (blas.dnrm2, (handle, 9, x.ptr, 1)),
        (blas.idamax_strided_batched, (handle, 4, x.ptr, 1, 4, 3)),
        (blas.drotm, (handle, 3, x.ptr, 4, y.ptr, 1, np.array([-1.0, 1, 0, 0, 1]))),
        (blas.daxpy_batched, (handle, 8, 1.0, rm.to_device(np.array([x.ptr], np.uint64)), 1,
                              rm.to_device(np.array([y.ptr], np.uint64)), 1, 2)),  # pointer array too short
    ]
    for fn, args in cases:
        with pytest.raises(rm.MemoryAccessFault) as info:
            fn(*args)
        assert fn.__name__ in str(info.value)
        for snap in before:
            rt.assert_unchanged(snap)
    # A pointer outside every allocation is an invalid device pointer, named.
    for fn, args, arg in ((blas.drot, (handle, 8, x.ptr, 1, y.ptr - 8, 1, 1.0, 0.0), "y"),
                          (blas.dnrm2, (handle, 2, x.ptr + 64, 1), "x")):
        with pytest.raises(errors.InvalidDevicePointerError) as info:
            fn(*args)
        assert info.value.arg == arg
    for snap in before:
        rt.assert_unchanged(snap)


def test_out_of_bounds_with_negative_increment_is_a_memory_access_fault(handle):
    set_mode(handle, "host")
    x, y = rm.to_device(np.arange(1.0, 9.0)), rm.to_device(np.arange(-8.0, 0.0))
    before = [rt.snapshot(x), rt.snapshot(y)]
    for fn, args in ((blas.daxpy, (handle, 5, 2.0, x.ptr, -2, y.ptr, 1)),  # x needs 9 elements from x.ptr
                     (blas.ddot, (handle, 8, x.ptr, 1, y.ptr, -2))):
        with pytest.raises(rm.MemoryAccessFault):
            fn(*args)
        for snap in before:
            rt.assert_unchanged(snap)


def test_batched_entry_out_of_bounds_faults_and_writes_nothing(handle):
    set_mode(handle, "host")
    x, y = _vectors()
    short = rm.to_device(np.ones(4))  # exact size: reading 8 elements leaves the allocation
    px = rm.to_device(np.array([x.ptr, short.ptr], np.uint64))
    py = rm.to_device(np.array([y.ptr, y.ptr], np.uint64))
    with pytest.raises(rm.MemoryAccessFault):
        blas.daxpy_batched(handle, 8, 1.0, px, 1, py, 1, 2)
        handle.stream.synchronize()
    rm.get_last_error()
    x.check_untouched(logical=True)
    y.check_untouched(logical=True)
    np.testing.assert_array_equal(short.get(), np.ones(4))


def test_size_query_touches_nothing(handle):
    x, y = _vectors()
    for mode in MODES:
        set_mode(handle, mode)
        # The reductions ask for their workspace from the raw sizes, before any check (rocBLAS's
        # rocblas_*_imp.hpp), the others answer at once with none; nothing runs.
        reductions = [lambda: blas.ddot(handle, 8, x.ptr, 1, y.ptr, 1), lambda: blas.hdot(handle, 8, None, 1, None, 1),
                      lambda: blas.dnrm2(handle, 10**9, x.ptr, 1),
                      lambda: blas.idamax_strided_batched(handle, 8, x.ptr, 1, 8, 4),
                      lambda: blas.dzasum_batched(handle, 8, None, 1, 2)]
        alone = []
        for f in reductions:
            blas.start_device_memory_size_query(handle)
            try:
                assert f() == RocblasStatus.size_increased
            finally:
                alone.append(blas.stop_device_memory_size_query(handle))
        blas.start_device_memory_size_query(handle)
        try:
            results = [
                blas.daxpy(handle, 8, 2.0, x.ptr, 1, y.ptr, 1), blas.daxpy(handle, 8, None, None, 1, None, 1),
                blas.sscal(handle, -1, None, None, 0), blas.zcopy_batched(handle, 8, None, 1, None, 1, 5),
                blas.dswap(handle, 8, x.ptr, 1, y.ptr, 1),
                blas.drot(handle, 8, x.ptr, 1, y.ptr, 1, None, None), blas.drotg(handle, None, None),
                blas.drotm(handle, 8, x.ptr, 1, y.ptr, 1, None), blas.srotmg(handle, None, None, None, None),
                blas.haxpy_strided_batched(handle, 8, 1.0, None, 1, 8, None, 1, 8, 3),
            ]
            for f in reductions:
                f()
        finally:
            size = blas.stop_device_memory_size_query(handle)
        assert all(r == RocblasStatus.size_unchanged for r in results), results
        assert all(a > 0 and a % 64 == 0 for a in alone) and size == max(alone), (alone, size)
        assert not blas.is_device_memory_size_query(handle)
    x.check_untouched(logical=True)
    y.check_untouched(logical=True)


# --- the bindings -------------------------------------------------------------------------------


def test_every_level1_name_is_bound_with_rocblas_argument_order():
    names = set(level1.__all__)
    lp64 = {f"{p}{op}{f}" for op, precs in _manifest.LEVEL1.items() for p in precs.split() for f in SUFFIX.values()}
    assert names == lp64 | {f"{n}_64" for n in lp64}
    assert len(lp64) == 3 * 57
    sig = {n: list(inspect.signature(getattr(blas, n)).parameters) for n in names}
    assert sig["saxpy_strided_batched"] == ["handle", "n", "alpha", "x", "incx", "stride_x", "y", "incy", "stride_y",
                                            "batch_count"]
    assert sig["sdot_batched"] == ["handle", "n", "x", "incx", "y", "incy", "batch_count", "result"]
    assert sig["snrm2_strided_batched"] == ["handle", "n", "x", "incx", "stride_x", "batch_count", "result"]
    assert sig["isamax_batched"] == ["handle", "n", "x", "incx", "batch_count", "result"]
    assert sig["sscal_strided_batched"] == ["handle", "n", "alpha", "x", "incx", "stride_x", "batch_count"]
    assert sig["srot_batched"] == ["handle", "n", "x", "incx", "y", "incy", "c", "s", "batch_count"]
    assert sig["srot_strided_batched"] == ["handle", "n", "x", "incx", "stride_x", "y", "incy", "stride_y", "c", "s",
                                           "batch_count"]
    assert sig["srotg_strided_batched"] == ["handle", "a", "stride_a", "b", "stride_b", "c", "stride_c", "s",
                                            "stride_s", "batch_count"]
    assert sig["srotm_strided_batched"] == ["handle", "n", "x", "incx", "stride_x", "y", "incy", "stride_y", "param",
                                            "stride_param", "batch_count"]
    assert sig["srotmg_strided_batched"] == ["handle", "d1", "stride_d1", "d2", "stride_d2", "x1", "stride_x1", "y1",
                                             "stride_y1", "param", "stride_param", "batch_count"]
    assert sig["csrot"] == sig["zdrot"] == sig["crot"] == sig["drot"]
    for n in names:
        assert getattr(blas, n).__name__ == n and f"rocblas_{n}(" in getattr(blas, n).__doc__


def test_half_and_bfloat16_dot_and_axpy_round_to_storage(handle):
    set_mode(handle, "host")
    xh = np.array([1.0, 2.0, 3.0, 0.1], dtype=np.float16)
    yh = np.array([0.5, -1.0, 4.0, 0.3], dtype=np.float16)
    got = blas.hdot(handle, 4, rm.to_device(xh), 1, rm.to_device(yh), 1)
    assert got.dtype == np.float16
    assert got == np.float16((xh.astype(np.float32) * yh.astype(np.float32)).sum())
    xb, yb = to_bfloat16(np.array([1.5, 2.0, -3.0])), to_bfloat16(np.array([2.0, 0.25, 1.0]))
    assert blas.bfdot(handle, 3, rm.to_device(xb), 1, rm.to_device(yb), 1) == 3.0 + 0.5 - 3.0
    # A host result buffer, as in C, gets the storage type's bits (bfloat16: in uint16s)
    out = np.full(2, 7, np.uint16)
    blas.bfdot(handle, 3, rm.to_device(xb), 1, rm.to_device(xb), 1, out)
    np.testing.assert_array_equal(out, [to_bfloat16(np.array([2.25 + 4.0 + 9.0]))[0], 7])
    out16 = np.zeros(1, np.float16)
    blas.hdot(handle, 4, rm.to_device(xh), 1, rm.to_device(yh), 1, out16)
    assert out16[0] == got
    dy = rm.to_device(yh)
    blas.haxpy(handle, 4, 0.1, rm.to_device(xh), 1, dy, 1)  # alpha is rounded to half first
    expect = (yh.astype(np.float64) + np.float64(np.float16(0.1)) * xh.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(dy.get(), expect)


@settings(max_examples=rt.examples(30), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), device=st.booleans(), flavour=st.sampled_from(("plain", "strided", "ex")))
def test_haxpy_is_one_fused_multiply_add_in_half(handle, seed, device, flavour):
    """haxpy (and axpy_ex executed in f16) round alpha*x + y once, as rocBLAS's fused multiply-add
    of halves: numpy's exact double result rounded to half, bit for bit; float32 arithmetic would round
    twice (1 + 2^-10 plus (1 - 2^-10) 2^-11 (1 + 2^-10) rounds down, through float32 it rounds up).
    Overflow past 65504 is inf; untouched entries beyond n stay."""
    rng = np.random.default_rng(seed)
    n = 257
    mags = np.array([2.0**-20, 2.0**-8, 1.0, 2.0**6, 2.0**12])
    xh = (rng.standard_normal(n) * rng.choice(mags, n)).astype(np.float16)
    yh = (rng.standard_normal(n + 3) * rng.choice(mags, n + 3)).astype(np.float16)
    xh[:2], yh[:2] = 1 + 2**-10, 1 + 2**-10  # the double-rounding case
    alpha = np.float16(2**-11 * (1 - 2**-10)) if seed % 2 else np.float16(rng.standard_normal() * 64)
    a = rm.to_device(np.array([alpha])) if device else alpha
    x, y = rm.to_device(xh), rm.to_device(yh)
    blas.set_pointer_mode(handle, blas.PointerMode.device if device else blas.PointerMode.host)
    try:
        if flavour == "plain":
            blas.haxpy(handle, n, a, x, 1, y, 1)
        elif flavour == "strided":
            blas.haxpy_strided_batched(handle, n, a, x, 1, n, y, 1, n, 1)
        else:
            f16 = blas.Datatype.f16_r
            blas.axpy_ex(handle, n, a, f16, x, f16, 1, y, f16, 1, f16)
    finally:
        blas.set_pointer_mode(handle, blas.PointerMode.host)
    with np.errstate(over="ignore"):
        want = (np.float64(alpha) * xh.astype(np.float64) + yh[:n].astype(np.float64)).astype(np.float16)
    got = y.get()
    np.testing.assert_array_equal(got[:n].view(np.uint16), want.view(np.uint16))
    np.testing.assert_array_equal(got[n:].view(np.uint16), yh[n:].view(np.uint16))


@pytest.mark.parametrize("fn", ["haxpy_batched", "hdot_batched"])
def test_half_precision_batched_flavour(handle, fn):
    set_mode(handle, "host")
    x = rm.to_device(np.array([1, 2, 3], dtype=np.float16))
    px = rm.to_device(np.array([x.ptr, x.ptr], np.uint64))
    y = rm.to_device(np.zeros(3, np.float16))
    py = rm.to_device(np.array([y.ptr], np.uint64))
    if fn == "haxpy_batched":
        blas.haxpy_batched(handle, 3, 1.0, px, 1, py, 1, 1)
        handle.stream.synchronize()
    else:
        out = getattr(blas, fn)(handle, 3, px, 1, px, 1, 2)
    if fn == "haxpy_batched":
        np.testing.assert_array_equal(y.get(), [1, 2, 3])
    else:
        np.testing.assert_array_equal(np.asarray(out, dtype=np.float64), [14.0, 14.0])


def test_kernels_compile_once_per_dtype():
    """Different increments, strides, flavours and pointer modes reuse one compiled kernel per
    dtype combination (run last: it looks at everything the tests above compiled)."""
    h = blas.create_handle()
    alive = []  # device memory the queued launches use, kept until they ran
    for p, dt in ((S, np.float32), (D, np.float64)):
        x = rm.to_device(np.ones(12, dt))
        y = rm.to_device(np.ones(12, dt))
        px = rm.to_device(np.array([x.ptr, x.ptr], np.uint64))
        py = rm.to_device(np.array([y.ptr + 8 * dt(0).itemsize, y.ptr], np.uint64))
        alive += [x, y, px, py]
        for mode in MODES:
            set_mode(h, mode)
            alpha = 1.0 if mode == "host" else rm.to_device(np.array([1.0], dt))
            alive.append(alpha)
            routine("axpy", p)(h, 4, alpha, x, 1, y, 1)
            routine("axpy", p)(h, 3, alpha, x, -2, y, 3)
            routine("axpy", p)(h, 4, alpha, x, 0, y, 1)
            routine("axpy", p, "strided")(h, 3, alpha, x, 2, 1, y, 1, 4, 3)
            routine("axpy", p, "strided")(h, 3, alpha, x, 1, 0, y, -1, 3, 2)
            routine("axpy", p, "batched")(h, 4, alpha, px, 1, py, 1, 2)
    set_mode(h, "host")
    blas.haxpy(h, 2, 1.0, rm.to_device(np.ones(2, np.float16)), 1, rm.to_device(np.ones(2, np.float16)), 1)
    rm.device_synchronize()
    blas.destroy_handle(h)
    del alive
    for name in ("axpy", "scal", "copy", "swap", "dot", "asum", "nrm2", "iamax", "rot", "rotm", "rotg",
                 "rotg_complex", "rotmg"):
        sigs = getattr(kernels, name).signatures
        keys = [tuple(str(getattr(t, "dtype", t)) for t in sig) for sig in sigs]
        assert len(keys) == len(set(keys)), f"{name} compiled twice for the same dtypes: {sigs}"
    dtypes = {str(sig[2].dtype) for sig in kernels.axpy.signatures}
    assert len(kernels.axpy.signatures) == len(dtypes) <= 4
    assert {"float32", "float64"} <= dtypes
