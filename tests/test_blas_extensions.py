"""rocBLAS BLAS-like extensions: dgmm, geam and gemmt in every precision and flavour.

Results are checked against numpy on host copies of the inputs; every device matrix
has poisoned padding (and margins, and batch gaps) that must survive bit for bit;
inputs must come back unchanged; operands a call must not read hold NaN sentinels
that must not reach the result; gemmt's other triangle must stay bit-identical.
Bad arguments raise the rocBLAS status exception naming the argument, in rocBLAS's
check order, and leave the output untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath.blas import _kernels_ext, create_handle, destroy_handle, extensions, set_pointer_mode
from rocmath.blas._manifest import EXTENSIONS
from rocmath.blas._types import Fill, Operation, PointerMode, Side
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D

PLAIN, BATCHED, STRIDED = "", "_batched", "_strided_batched"
FLAVOURS = (PLAIN, BATCHED, STRIDED)
TRANS = {"N": 0, "T": 1, "C": 2, 111: 0, 112: 1, 113: 2}  # any form of an operation -> 0, 1, 2


# --- fixtures and helpers ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def handles() -> Iterator[dict[bool, Any]]:
    """{device_mode: handle}."""
    host, dev = create_handle(), create_handle()
    set_pointer_mode(dev, PointerMode.device)
    yield {False: host, True: dev}
    rm.device_synchronize()
    destroy_handle(host)
    destroy_handle(dev)


def fn(precision: Any, routine: str, flavour: str = PLAIN) -> Any:
    return getattr(extensions, f"{precision.letter}{routine}{flavour}")


def op(a: np.ndarray, trans: Any) -> np.ndarray:
    """op() of a stack of matrices (batch, rows, cols)."""
    t = TRANS[trans]
    if t == 0:
        return a
    a = np.swapaxes(a, -1, -2)
    return a.conj() if t == 2 else a


def bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(np.ascontiguousarray(a).view(np.uint8),
                                                 np.ascontiguousarray(b).view(np.uint8))


class Mats:
    """A stack of host matrices (batch, rows, cols) in device memory in one flavour, padding poisoned.

    plain: one matrix; strided: one allocation (stride = ld * cols + pad, or 0: one matrix
    shared by every entry); batched: one allocation per entry and a device array of pointers.
    """

    def __init__(self, stack: ExitStack, host: np.ndarray, ld: int, flavour: str, *, pad: int = 0,
                 shared: bool = False):
        self.host, self.flavour, self.shared = host, flavour, shared
        batch, _, cols = host.shape
        self.stride = 0 if shared else ld * cols + pad
        if flavour == PLAIN or shared:
            self.parts = [stack.enter_context(rt.poisoned_device_matrix(host[0], ld))]
        elif flavour == STRIDED:
            self.parts = [stack.enter_context(rt.poisoned_device_matrix(host, ld, stride=self.stride))]
        else:
            self.parts = [stack.enter_context(rt.poisoned_device_matrix(host[b], ld)) for b in range(batch)]
        if flavour == BATCHED:
            self.ptrs = rm.to_device(np.array([p.ptr for p in self.parts], dtype=np.uint64))
            self.arg: Any = self.ptrs
        else:
            self.arg = self.parts[0].ptr

    def args(self) -> tuple[Any, ...]:
        """What follows the leading dimension: the stride in the strided flavour."""
        return (self.stride,) if self.flavour == STRIDED else ()

    def get(self) -> np.ndarray:
        if self.flavour == PLAIN or self.shared:
            return np.broadcast_to(self.parts[0].get(), self.host.shape)
        if self.flavour == STRIDED:
            return self.parts[0].get()
        return np.stack([p.get() for p in self.parts]) if self.parts else self.host.copy()

    def poison(self) -> None:
        for p in self.parts:
            p.poison()

    def check(self, *, logical: bool = False) -> None:
        for p in self.parts:
            p.check_untouched(logical=logical)


class Vecs:
    """A stack of host vectors (batch, n) with increment ``inc`` (0: one element, read n times)."""

    def __init__(self, stack: ExitStack, host: np.ndarray, inc: int, flavour: str, *, pad: int = 0):
        self.flavour = flavour
        batch = host.shape[0]
        stored = host[:, :1] if inc == 0 else host
        step = inc or 1
        self.stride = abs(step) * stored.shape[1] + pad
        if flavour == PLAIN:
            self.parts = [stack.enter_context(rt.poisoned_device_vector(stored[0], step))]
        elif flavour == STRIDED:
            self.parts = [stack.enter_context(rt.poisoned_device_vector(stored, step, stride=self.stride))]
        else:
            self.parts = [stack.enter_context(rt.poisoned_device_vector(stored[b], step)) for b in range(batch)]
        if flavour == BATCHED:
            self.arg: Any = rm.to_device(np.array([p.ptr for p in self.parts], dtype=np.uint64))
        else:
            self.arg = self.parts[0].ptr

    def args(self) -> tuple[Any, ...]:
        return (self.stride,) if self.flavour == STRIDED else ()

    def check(self) -> None:
        for p in self.parts:
            p.check_untouched(logical=True)


def scalar_arg(value: Any, precision: Any, device_mode: bool) -> Any:
    """alpha/beta as the pointer mode wants it: the number, or a device pointer to it."""
    if not device_mode:
        return value
    return rm.to_device(np.array([value], dtype=precision.compute_dtype))


def batch_tail(flavour: str, batch: int) -> tuple[Any, ...]:
    return () if flavour == PLAIN else (batch,)


@dataclass
class Common:
    precision: Any
    flavour: str
    batch: int
    device_mode: bool


def draw_common(data: st.DataObject, precision: Any, flavour: str, max_batch: int = 3) -> Common:
    batch = 1 if flavour == PLAIN else data.draw(rt.batch_counts(max_value=max_batch), label="batch_count")
    return Common(precision, flavour, batch, data.draw(st.booleans(), label="device pointer mode"))


def host(data: st.DataObject, precision: Any, shape: tuple[int, ...]) -> np.ndarray:
    return data.draw(rt.host_arrays(precision, shape), label="host data")


every_precision = pytest.mark.parametrize("precision", SDCZ, ids=lambda p: p.letter)
every_flavour = pytest.mark.parametrize("flavour", FLAVOURS, ids=["plain", "batched", "strided"])
EXAMPLES = rt.examples(10)  # per precision and flavour


def enum_form(data: st.DataObject, member: Any) -> Any:
    """An enum argument as the member, its integer or its BLAS letter."""
    return data.draw(st.sampled_from([member, int(member), member.letter]), label=f"{type(member).__name__}")


# --- dgmm ------------------------------------------------------------------------------------------


@every_precision
@every_flavour
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_dgmm_matches_numpy(handles: dict[bool, Any], precision: Any, flavour: str, data: st.DataObject) -> None:
    cm = draw_common(data, precision, flavour)
    p, fl, batch = cm.precision, cm.flavour, cm.batch
    side_member = data.draw(st.sampled_from([Side.left, Side.right]))
    right = side_member is Side.right
    side = enum_form(data, side_member)
    m, n = data.draw(rt.sizes(max_value=9)), data.draw(rt.sizes(max_value=9))
    lda = data.draw(rt.leading_dimensions(m, max_padding=3))
    in_place = data.draw(st.booleans(), label="in place")
    ldc = lda if in_place else data.draw(rt.leading_dimensions(m, max_padding=3))
    incx = data.draw(rt.increments(max_abs=3, allow_zero=True))
    kx = n if right else m
    a = host(data, p, (batch, m, n))
    x = host(data, p, (batch, kx))
    with ExitStack() as stack:
        A = Mats(stack, a, lda, fl, pad=data.draw(st.integers(0, 3)))
        X = Vecs(stack, x, incx, fl, pad=data.draw(st.integers(0, 2)))
        Cm = A if in_place else Mats(stack, np.zeros((batch, m, n), p.dtype), ldc, fl, pad=1)
        if not in_place:
            Cm.poison()  # dgmm only writes C
        fn(p, "dgmm", fl)(handles[cm.device_mode], side, m, n, A.arg, lda, *A.args(), X.arg, incx, *X.args(),
                          Cm.arg, ldc, *Cm.args(), *batch_tail(fl, batch))
        got = Cm.get()
        Cm.check()
        X.check()
        if not in_place:
            A.check(logical=True)
        if not (batch and m and n):  # quick return: nothing written
            Cm.check(logical=True)
            return
    wide = np.complex128 if p.is_complex else np.float64
    xs = (np.broadcast_to(x[:, :1], x.shape) if incx == 0 else x).astype(wide)
    want = a.astype(wide) * (xs[:, None, :] if right else xs[:, :, None])
    rt.assert_close(got, want, p, "elementwise", scale=rt.scale_of(p, np.abs(a) * np.abs(xs).max()))


@every_precision
def test_dgmm_negative_and_zero_increments(handles: dict[bool, Any], precision: Any) -> None:
    rng = np.random.default_rng(1)
    m, n, lda = 5, 4, 7
    a = rng.uniform(-1, 1, (1, m, n)).astype(precision.dtype)
    x = (rng.uniform(-1, 1, 6) + (1j * rng.uniform(-1, 1, 6) if precision.is_complex else 0)).astype(precision.dtype)
    with ExitStack() as stack:
        A = Mats(stack, a, lda, PLAIN)
        for side, k in ((Side.left, m), (Side.right, n)):
            for inc in (-2, 0, 1):
                xv = x[:k] if inc else x[:1]
                X = stack.enter_context(rt.poisoned_device_vector(xv, inc or 1))
                Cm = Mats(stack, np.zeros((1, m, n), precision.dtype), m, PLAIN)
                fn(precision, "dgmm")(handles[False], side, m, n, A.arg, lda, X.ptr, inc, Cm.arg, m)
                d = xv if inc else np.full(k, xv[0])  # logical order: x[i] (reversed storage for inc < 0)
                want = a * (d[None, None, :] if side is Side.right else d[None, :, None])
                rt.assert_close(Cm.get(), want, precision, "elementwise")


# --- geam ------------------------------------------------------------------------------------------


@every_precision
@every_flavour
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_geam_matches_numpy(handles: dict[bool, Any], precision: Any, flavour: str, data: st.DataObject) -> None:
    cm = draw_common(data, precision, flavour)
    p, fl, batch = cm.precision, cm.flavour, cm.batch
    ta = enum_form(data, Operation(data.draw(rt.operations(), label="transA")))
    tb = enum_form(data, Operation(data.draw(rt.operations(), label="transB")))
    m, n = data.draw(rt.sizes(max_value=9)), data.draw(rt.sizes(max_value=9))
    alpha, beta = data.draw(rt.scalars(p), label="alpha"), data.draw(rt.scalars(p), label="beta")
    ra, ca = (m, n) if TRANS[ta] == 0 else (n, m)
    rb, cb = (m, n) if TRANS[tb] == 0 else (n, m)
    lda = data.draw(rt.leading_dimensions(ra, max_padding=3))
    ldb = data.draw(rt.leading_dimensions(rb, max_padding=3))
    ldc = data.draw(rt.leading_dimensions(m, max_padding=3))
    shared_a = fl == STRIDED and batch > 1 and data.draw(st.booleans(), label="stride_a 0")
    a = host(data, p, (batch, ra, ca))
    if shared_a:
        a = np.broadcast_to(a[:1], a.shape).copy()
    b = host(data, p, (batch, rb, cb))
    with ExitStack() as stack:
        A = Mats(stack, a, lda, fl, pad=2, shared=shared_a)
        B = Mats(stack, b, ldb, fl, pad=data.draw(st.integers(0, 3)))
        Cm = Mats(stack, np.zeros((batch, m, n), p.dtype), ldc, fl, pad=1)
        Cm.poison()  # geam never reads C
        if alpha == 0:
            A.poison()  # not read: its NaN must not reach C
        if beta == 0:
            B.poison()
        al = scalar_arg(alpha, p, cm.device_mode)
        be = scalar_arg(beta, p, cm.device_mode)
        args = (handles[cm.device_mode], ta, tb, m, n, al, A.arg, lda, *A.args(), be, B.arg, ldb, *B.args(), Cm.arg,
                ldc, *Cm.args(), *batch_tail(fl, batch))
        if fl == BATCHED and batch == 0 and any(ld != ldc or TRANS[t] != 0 for ld, t in ((lda, ta), (ldb, tb))):
            # No entries: the pointer arrays are all null, and rocBLAS compares the bare pointers, so
            # C "is" A and B: a transpose or another leading dimension is invalid_size (rocblas_geam.hpp).
            expect(RocblasInvalidSizeError, "C", fn(p, "geam", fl), *args)
            return
        fn(p, "geam", fl)(*args)
        got = Cm.get()
        A.check(logical=True)
        B.check(logical=True)
        Cm.check()
        if not (batch and m and n):
            Cm.check(logical=True)
            return
        wide = np.complex128 if p.is_complex else np.float64
        ta_term = alpha.astype(wide) * op(a, ta) if alpha != 0 else 0
        tb_term = beta.astype(wide) * op(b, tb) if beta != 0 else 0
        want = np.zeros((batch, m, n), wide) + ta_term + tb_term
        rt.assert_close(got, want, p, "elementwise", scale=rt.scale_of(p, ta_term, tb_term))


@every_precision
@every_flavour
@pytest.mark.parametrize("which", ["A", "B"])
def test_geam_in_place(handles: dict[bool, Any], precision: Any, flavour: str, which: str) -> None:
    """C may be A (or B) itself with the same leading dimension and no transpose."""
    rng = np.random.default_rng(2)
    batch = 1 if flavour == PLAIN else 2
    m, n, ld = 6, 5, 8
    a = rng.uniform(-1, 1, (batch, m, n)).astype(precision.dtype)
    b = rng.uniform(-1, 1, (batch, n, m)).astype(precision.dtype)
    alpha, beta = precision.compute_dtype.type(1.5), precision.compute_dtype.type(-0.5)
    f = fn(precision, "geam", flavour)
    with ExitStack() as stack:
        Cm, B = Mats(stack, a, ld, flavour, pad=1), Mats(stack, b, ld, flavour)
        tail = batch_tail(flavour, batch)
        if which == "A":  # C := alpha C + beta B^T
            f(handles[False], "N", "T", m, n, alpha, Cm.arg, ld, *Cm.args(), beta, B.arg, ld, *B.args(), Cm.arg, ld,
              *Cm.args(), *tail)
        else:  # C := alpha B^T + beta C
            f(handles[False], "T", "N", m, n, alpha, B.arg, ld, *B.args(), beta, Cm.arg, ld, *Cm.args(), Cm.arg, ld,
              *Cm.args(), *tail)
        got = Cm.get()
        Cm.check()
        B.check(logical=True)
    bt = np.swapaxes(b, 1, 2)
    want = alpha * a + beta * bt if which == "A" else alpha * bt + beta * a
    rt.assert_close(got, want, precision, "elementwise", scale=rt.scale_of(precision, alpha * a, beta * bt))


# --- gemmt -----------------------------------------------------------------------------------------


def run_gemmt(handles: dict[bool, Any], data: st.DataObject, cm: Common, n: int, kk: int, *,
              pad: int = 3) -> None:
    p, fl, batch = cm.precision, cm.flavour, cm.batch
    uplo_member = data.draw(st.sampled_from([Fill.upper, Fill.lower]))
    lower = uplo_member is Fill.lower
    uplo = enum_form(data, uplo_member)
    ta = enum_form(data, Operation(data.draw(rt.operations(), label="transA")))
    tb = enum_form(data, Operation(data.draw(rt.operations(), label="transB")))
    alpha, beta = data.draw(rt.scalars(p), label="alpha"), data.draw(rt.scalars(p), label="beta")
    ra, ca = (n, kk) if TRANS[ta] == 0 else (kk, n)
    rb, cb = (kk, n) if TRANS[tb] == 0 else (n, kk)
    lda = data.draw(rt.leading_dimensions(ra, max_padding=pad))
    ldb = data.draw(rt.leading_dimensions(rb, max_padding=pad))
    ldc = data.draw(rt.leading_dimensions(n, max_padding=pad))
    a, b = host(data, p, (batch, ra, ca)), host(data, p, (batch, rb, cb))
    c = host(data, p, (batch, n, n))
    tri = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
    c[:, ~tri] = rt.sentinel_value(p)  # the other triangle: never read, never written
    calc = kk > 0 and alpha != 0
    with ExitStack() as stack:
        A = Mats(stack, a, lda, fl, pad=1)
        B = Mats(stack, b, ldb, fl, pad=2)
        Cm = Mats(stack, c, ldc, fl, pad=data.draw(st.integers(0, 3)))
        if not calc:
            A.poison()
            B.poison()
        if beta == 0:
            Cm.poison()  # C is not read
        before = Cm.get().copy()
        al = scalar_arg(alpha, p, cm.device_mode)
        be = scalar_arg(beta, p, cm.device_mode)
        fn(p, "gemmt", fl)(handles[cm.device_mode], uplo, ta, tb, n, kk, al, A.arg, lda, *A.args(), B.arg, ldb,
                           *B.args(), be, Cm.arg, ldc, *Cm.args(), *batch_tail(fl, batch))
        got = Cm.get()
        A.check(logical=True)
        B.check(logical=True)
        Cm.check()
    assert bits_equal(got[:, ~tri], before[:, ~tri]), "gemmt touched the other triangle of C"
    if not (batch and n):
        assert bits_equal(got, before)
        return
    if not calc and beta == 1:  # nothing to do: C bit-identical
        assert bits_equal(got, before)
        return
    wide = np.complex128 if p.is_complex else np.float64
    prod = np.matmul(op(a, ta).astype(wide), op(b, tb).astype(wide))
    abs_prod = np.matmul(np.abs(op(a, ta)).astype(np.float64), np.abs(op(b, tb)).astype(np.float64))
    with np.errstate(invalid="ignore"):  # the other triangle holds NaN sentinels
        ab_term = alpha.astype(wide) * prod if calc else np.zeros_like(prod)
        c_term = beta.astype(wide) * c if beta != 0 else np.zeros_like(prod)
        want = ab_term + c_term
    scale = rt.scale_of(p, (abs(alpha) * abs_prod)[:, tri] if calc else 0, c_term[:, tri])
    rt.assert_close(got[:, tri], want[:, tri], p, "reduction", max(kk, 1), scale=scale)


@every_precision
@every_flavour
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_gemmt_matches_numpy(handles: dict[bool, Any], precision: Any, flavour: str, data: st.DataObject) -> None:
    cm = draw_common(data, precision, flavour)
    run_gemmt(handles, data, cm, data.draw(rt.sizes(max_value=9), label="n"),
              data.draw(rt.sizes(max_value=7), label="k"))


@contextmanager
def small_blocks() -> Iterator[None]:
    """Make gemmt take its large-problem path on any size, with blocks of 4 columns."""
    saved = extensions.GEMMT_LARGE_WORK, extensions.GEMMT_BLOCK_COLUMNS
    extensions.GEMMT_LARGE_WORK, extensions.GEMMT_BLOCK_COLUMNS = 0, 4
    try:
        yield
    finally:
        extensions.GEMMT_LARGE_WORK, extensions.GEMMT_BLOCK_COLUMNS = saved


@every_precision
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_gemmt_large_path(handles: dict[bool, Any], precision: Any, data: st.DataObject) -> None:
    """The path for large problems (blocked BLAS products), made to run on small ones with small blocks."""
    cm = draw_common(data, precision, data.draw(st.sampled_from(FLAVOURS)), max_batch=2)
    with small_blocks():
        run_gemmt(handles, data, cm, data.draw(st.integers(1, 13), label="n"),
                  data.draw(st.integers(1, 9), label="k"))


def test_gemmt_large_problem(handles: dict[bool, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A problem past the threshold, odd sizes, padded: the large-problem path, same answer as numpy."""
    calls = []
    blocked = _kernels_ext.gemmt_large
    monkeypatch.setattr(_kernels_ext, "gemmt_large", lambda *args: calls.append(1) or blocked(*args))
    n, kk = 133, 61  # 3 column blocks, the last partial
    assert n * n * kk >= extensions.GEMMT_LARGE_WORK
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (1, kk, n))
    b = rng.uniform(-1, 1, (1, kk, n))
    c = rng.uniform(-1, 1, (1, n, n))
    low = np.tril(np.ones((n, n), bool))
    c[:, ~low] = rt.sentinel_value(D)
    with ExitStack() as stack:
        A, B, Cm = Mats(stack, a, kk + 1, PLAIN), Mats(stack, b, kk, PLAIN), Mats(stack, c, n + 2, PLAIN)
        extensions.dgemmt(handles[False], "L", "T", "N", n, kk, 2.0, A.arg, kk + 1, B.arg, kk, -1.0, Cm.arg, n + 2)
        got = Cm.get()
        Cm.check()
    assert calls == [1]
    with np.errstate(invalid="ignore"):
        want = 2.0 * np.swapaxes(a, 1, 2) @ b - c
    rt.assert_close(got[:, low], want[:, low], D, "reduction", kk)
    assert bits_equal(got[:, ~low], c[:, ~low])


# --- bad arguments ---------------------------------------------------------------------------------


def expect(exc_type: type, arg: str, call: Any, *args: Any) -> None:
    with pytest.raises(exc_type) as info:
        call(*args)
    status = {RocblasInvalidValueError: RocblasStatus.invalid_value,
              RocblasInvalidSizeError: RocblasStatus.invalid_size,
              RocblasInvalidPointerError: RocblasStatus.invalid_pointer}[exc_type]
    assert info.value.status == status
    assert info.value.arg == arg, f"expected the error to name {arg!r}, got {info.value.arg!r}: {info.value}"


@pytest.fixture
def dev() -> Iterator[dict[str, Any]]:
    """Device matrices for the bad-argument tests: 6x6 with ld 6, and a vector of 6."""
    with ExitStack() as stack:
        rng = np.random.default_rng(4)
        mats = {name: stack.enter_context(rt.poisoned_device_matrix(rng.uniform(-1, 1, (6, 6)), 6))
                for name in ("A", "B", "C")}
        mats["x"] = stack.enter_context(rt.poisoned_device_vector(rng.uniform(-1, 1, 6)))
        yield mats
        for m in mats.values():
            m.check_untouched(logical=True)  # nothing was written by a failing or quick-returning call


def test_dgmm_bad_arguments(handles: dict[bool, Any], dev: dict[str, Any]) -> None:
    h = handles[False]
    A, x, Cp = dev["A"].ptr, dev["x"].ptr, dev["C"].ptr
    f = extensions.ddgmm
    for side in ("B", Side.both, 999, "X", None, Fill.upper):
        expect(RocblasInvalidValueError, "side", f, h, side, 6, 6, A, 6, x, 1, Cp, 6)
    expect(RocblasInvalidValueError, "side", f, h, Side.both, -1, 6, A, 0, x, 1, Cp, 6)  # enums first
    expect(RocblasInvalidSizeError, "m", f, h, "L", -1, 6, A, 6, x, 1, Cp, 6)
    expect(RocblasInvalidSizeError, "n", f, h, "L", 6, -1, A, 6, x, 1, Cp, 6)
    expect(RocblasInvalidSizeError, "lda", f, h, "L", 6, 6, A, 5, x, 1, Cp, 6)
    expect(RocblasInvalidSizeError, "ldc", f, h, "R", 6, 6, A, 6, x, 1, Cp, 5)
    expect(RocblasInvalidSizeError, "m", f, h, "R", -1, 6, A, 0, x, 1, Cp, 0)  # sizes before leading dims
    expect(RocblasInvalidSizeError, "lda", f, h, "R", 6, 0, None, 5, None, 1, None, 6)  # before quick return
    expect(RocblasInvalidSizeError, "batch_count", extensions.ddgmm_strided_batched, h, "R", 6, 6, A, 6, 0, x, 1,
           0, Cp, 6, 0, -1)
    expect(RocblasInvalidSizeError, "batch_count", extensions.ddgmm_batched, h, "R", 6, 6, None, 6, None, 1,
           None, 6, -1)
    expect(RocblasInvalidPointerError, "A", f, h, "L", 6, 6, None, 6, None, 1, None, 6)  # A, x, C in order
    expect(RocblasInvalidPointerError, "x", f, h, "L", 6, 6, A, 6, None, 1, None, 6)
    expect(RocblasInvalidPointerError, "C", f, h, "L", 6, 6, A, 6, x, 1, 0, 6)
    # Quick returns: anything may be null, lda may be 0 when m == 0 (rocBLAS checks lda < m).
    assert f(h, "L", 0, 6, None, 0, None, 1, None, 0) is None
    assert f(h, "R", 6, 0, None, 6, None, 1, None, 6) is None
    assert extensions.ddgmm_batched(h, "R", 6, 6, None, 6, None, 1, None, 6, 0) is None
    assert extensions.ddgmm_strided_batched(h, "R", 6, 6, None, 6, 0, None, 1, 0, None, 6, 0, 0) is None


def test_geam_bad_arguments(handles: dict[bool, Any], dev: dict[str, Any]) -> None:
    h = handles[False]
    A, B, Cp = dev["A"].ptr, dev["B"].ptr, dev["C"].ptr
    f = extensions.dgeam
    for bad in (Fill.full, "X", 110, 114, None):
        expect(RocblasInvalidValueError, "transA", f, h, bad, "N", 6, 6, 1.0, A, 6, 1.0, B, 6, Cp, 6)
        expect(RocblasInvalidValueError, "transB", f, h, "N", bad, 6, 6, 1.0, A, 6, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidValueError, "transA", f, h, "X", "X", -1, 6, None, A, 0, None, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "m", f, h, "N", "N", -1, 6, 1.0, A, 6, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "n", f, h, "N", "N", 6, -1, 1.0, A, 6, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "lda", f, h, "N", "N", 6, 5, 1.0, A, 5, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "lda", f, h, "T", "N", 6, 5, 1.0, A, 4, 1.0, B, 6, Cp, 6)  # op(A) 6x5: 5x6
    expect(RocblasInvalidSizeError, "ldb", f, h, "N", "C", 6, 5, 1.0, A, 6, 1.0, B, 4, Cp, 6)
    expect(RocblasInvalidSizeError, "ldc", f, h, "N", "N", 6, 5, 1.0, A, 6, 1.0, B, 6, Cp, 5)
    expect(RocblasInvalidSizeError, "batch_count", extensions.dgeam_batched, h, "N", "N", 6, 6, 1.0, None, 6,
           1.0, None, 6, None, 6, -1)
    # In place needs the same leading dimension and no transpose; checked before the quick return.
    expect(RocblasInvalidSizeError, "C", f, h, "N", "N", 5, 6, 1.0, Cp, 5, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "C", f, h, "T", "N", 6, 6, 1.0, Cp, 6, 1.0, B, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "C", f, h, "N", "N", 6, 6, 1.0, A, 6, 1.0, Cp, 7, Cp, 6)
    expect(RocblasInvalidSizeError, "C", f, h, "N", "C", 6, 6, 1.0, A, 6, 1.0, Cp, 6, Cp, 6)
    expect(RocblasInvalidSizeError, "C", f, h, "N", "N", 0, 6, 1.0, Cp, 7, 1.0, B, 6, Cp, 6)
    # A null A "is" a null C: rocBLAS compares the bare pointers (rocblas_geam_arg_check, rocblas_geam.hpp).
    expect(RocblasInvalidSizeError, "C", f, h, "N", "N", 0, 6, 1.0, None, 1, 1.0, B, 6, None, 2)
    # Null pointers: C, alpha, beta (rocblas_geam.hpp checks C first), then A (alpha != 0) and B (beta != 0).
    expect(RocblasInvalidPointerError, "C", f, h, "N", "N", 6, 6, None, None, 6, None, None, 6, None, 6)
    expect(RocblasInvalidPointerError, "alpha", f, h, "N", "N", 6, 6, None, None, 6, None, None, 6, Cp, 6)
    expect(RocblasInvalidPointerError, "beta", f, h, "N", "N", 6, 6, 1.0, None, 6, None, None, 6, Cp, 6)
    expect(RocblasInvalidPointerError, "C", f, h, "N", "N", 6, 6, 1.0, None, 6, 1.0, None, 6, None, 6)
    expect(RocblasInvalidPointerError, "A", f, h, "N", "N", 6, 6, 1.0, None, 6, 1.0, None, 6, Cp, 6)
    expect(RocblasInvalidPointerError, "B", f, h, "N", "N", 6, 6, 1.0, A, 6, 2.0, None, 6, Cp, 6)
    # Quick returns: everything may be null.
    assert f(h, "N", "N", 0, 6, None, None, 6, None, None, 6, None, 6) is None
    assert f(h, "N", "N", 6, 0, None, None, 6, None, None, 6, None, 6) is None
    # ... but not from the in-place rule: null A and C alias, so a transpose or lda != ldc is
    # invalid_size (rocblas_geam.hpp)
    expect(RocblasInvalidSizeError, "C", f, h, "T", "C", 6, 0, None, None, 0, None, None, 0, None, 6)
    assert extensions.dgeam_strided_batched(h, "N", "N", 6, 6, None, None, 6, 0, None, None, 6, 0, None, 6, 0,
                                            0) is None
    # A device scalar in host pointer mode is refused.
    alpha_d = rm.to_device(np.array([1.0]))
    expect(RocblasInvalidPointerError, "alpha", f, h, "N", "N", 6, 6, alpha_d, A, 6, 1.0, B, 6, Cp, 6)


@pytest.mark.parametrize("device_mode", [False, True], ids=["host", "device"])
def test_geam_unread_operands_may_be_null(handles: dict[bool, Any], device_mode: bool) -> None:
    h = handles[device_mode]
    rng = np.random.default_rng(5)
    a, b = rng.uniform(-1, 1, (1, 4, 3)), rng.uniform(-1, 1, (1, 4, 3))
    with ExitStack() as stack:
        A, B = Mats(stack, a, 5, PLAIN), Mats(stack, b, 4, PLAIN)
        Cm = Mats(stack, np.zeros((1, 4, 3)), 4, PLAIN)
        zero, two = (scalar_arg(v, D, device_mode) for v in (0.0, 2.0))
        Cm.poison()
        extensions.dgeam(h, "N", "N", 4, 3, zero, None, 5, two, B.arg, 4, Cm.arg, 4)
        rt.assert_close(Cm.get(), 2 * b, D, "elementwise")
        Cm.poison()
        extensions.dgeam(h, "N", "N", 4, 3, two, A.arg, 5, zero, None, 4, Cm.arg, 4)
        rt.assert_close(Cm.get(), 2 * a, D, "elementwise")
        Cm.poison()
        extensions.dgeam(h, "N", "N", 4, 3, zero, None, 5, zero, None, 4, Cm.arg, 4)
        assert bits_equal(Cm.get(), np.zeros((1, 4, 3)))
        Cm.check()


def test_geam_device_mode_null_operand_that_is_read(handles: dict[bool, Any]) -> None:
    """Device pointer mode: a null A with alpha != 0 on the device is invalid_pointer (the call reads
    alpha back to decide; on a GPU the kernel would fault); nothing is written."""
    with ExitStack() as stack:
        B = Mats(stack, np.ones((1, 4, 3)), 4, PLAIN)
        Cm = Mats(stack, np.zeros((1, 4, 3)), 4, PLAIN)
        one, zero = scalar_arg(1.0, D, True), scalar_arg(0.0, D, True)
        expect(RocblasInvalidPointerError, "A", extensions.dgeam, handles[True], "N", "N", 4, 3, one, None, 4, one,
               B.arg, 4, Cm.arg, 4)
        expect(RocblasInvalidPointerError, "B", extensions.dgeam, handles[True], "N", "N", 4, 3, zero, None, 4, one,
               None, 4, Cm.arg, 4)
        expect(RocblasInvalidPointerError, "C", extensions.dgeam, handles[True], "N", "N", 4, 3, zero, None, 4, zero,
               None, 4, None, 4)
        expect(RocblasInvalidPointerError, "alpha", extensions.dgeam, handles[True], "N", "N", 4, 3, 0, None, 4,
               zero, None, 4, Cm.arg, 4)  # a 0 pointer is null in device mode
        Cm.check(logical=True)
        B.check(logical=True)


def test_gemmt_bad_arguments(handles: dict[bool, Any], dev: dict[str, Any]) -> None:
    h = handles[False]
    A, B, Cp = dev["A"].ptr, dev["B"].ptr, dev["C"].ptr
    f = extensions.dgemmt
    for bad in (Fill.full, "F", "X", 120, None):
        expect(RocblasInvalidValueError, "uplo", f, h, bad, "N", "N", 6, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    for bad in (Fill.full, "X", 114):
        expect(RocblasInvalidValueError, "transA", f, h, "U", bad, "N", 6, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
        expect(RocblasInvalidValueError, "transB", f, h, "U", "N", bad, 6, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    # rocBLAS checks the operations before uplo.
    expect(RocblasInvalidValueError, "transA", f, h, "X", "X", "N", 6, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidValueError, "transB", f, h, "X", "N", "X", -1, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "n", f, h, "U", "N", "N", -1, 6, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "k", f, h, "U", "N", "N", 6, -1, 1.0, A, 6, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "lda", f, h, "U", "N", "N", 6, 4, 1.0, A, 5, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "lda", f, h, "L", "T", "N", 6, 4, 1.0, A, 3, B, 6, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "ldb", f, h, "L", "N", "N", 6, 4, 1.0, A, 6, B, 3, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "ldb", f, h, "L", "N", "C", 6, 4, 1.0, A, 6, B, 5, 1.0, Cp, 6)
    expect(RocblasInvalidSizeError, "ldc", f, h, "L", "N", "N", 6, 4, 1.0, A, 6, B, 6, 1.0, Cp, 5)
    expect(RocblasInvalidSizeError, "n", f, h, "L", "N", "N", -1, 4, 1.0, A, 0, B, 6, 1.0, Cp, 0)
    expect(RocblasInvalidSizeError, "batch_count", extensions.dgemmt_strided_batched, h, "L", "N", "N", 6, 4,
           1.0, A, 6, 0, B, 6, 0, 1.0, Cp, 6, 0, -1)
    expect(RocblasInvalidSizeError, "ldc", f, h, "L", "N", "N", 6, 0, None, None, 6, None, 0, None, None, 5)
    # Null pointers: alpha (when k > 0), beta; then A, B, C only where dereferenced.
    expect(RocblasInvalidPointerError, "alpha", f, h, "U", "N", "N", 6, 4, None, A, 6, B, 6, None, Cp, 6)
    expect(RocblasInvalidPointerError, "beta", f, h, "U", "N", "N", 6, 0, None, None, 6, None, 6, None, None, 6)
    expect(RocblasInvalidPointerError, "A", f, h, "U", "N", "N", 6, 4, 1.0, None, 6, None, 6, 1.0, None, 6)
    expect(RocblasInvalidPointerError, "B", f, h, "U", "N", "N", 6, 4, 1.0, A, 6, None, 6, 1.0, None, 6)
    expect(RocblasInvalidPointerError, "C", f, h, "U", "N", "N", 6, 4, 1.0, A, 6, B, 6, 1.0, None, 6)
    expect(RocblasInvalidPointerError, "C", f, h, "U", "N", "N", 6, 4, 0.0, None, 6, None, 6, 2.0, None, 6)
    expect(RocblasInvalidPointerError, "C", f, h, "U", "N", "N", 6, 0, None, None, 6, None, 6, 0.0, None, 6)
    # Quick returns: n == 0 or batch_count == 0; alpha op(A) op(B) vanishing with beta == 1.
    assert f(h, "U", "N", "N", 0, 4, None, None, 6, None, 6, None, None, 6) is None
    assert f(h, "U", "T", "C", 6, 4, 0.0, None, 4, None, 6, 1.0, None, 6) is None
    assert f(h, "L", "N", "N", 6, 0, None, None, 6, None, 0, 1.0, None, 6) is None
    assert extensions.dgemmt_batched(h, "L", "N", "N", 6, 4, None, None, 6, None, 6, None, None, 6, 0) is None


@pytest.mark.parametrize("device_mode", [False, True], ids=["host", "device"])
def test_gemmt_k_zero_scales_by_beta(handles: dict[bool, Any], device_mode: bool) -> None:
    """k == 0 is no quick return: the triangle is scaled by beta (alpha may be null); beta == 0 zeroes it
    without reading C."""
    n = 5
    c = np.arange(1.0, 1.0 + n * n).reshape(1, n, n)
    up = np.triu(np.ones((n, n), bool))
    with ExitStack() as stack:
        Cm = Mats(stack, c, n + 1, PLAIN)
        three, zero = (scalar_arg(v, D, device_mode) for v in (3.0, 0.0))
        extensions.dgemmt(handles[device_mode], "U", "N", "N", n, 0, None, None, n, None, 1, three, Cm.arg, n + 1)
        got = Cm.get()
        assert bits_equal(got[:, up], 3 * c[:, up]) and bits_equal(got[:, ~up], c[:, ~up])
        Cm.poison()
        extensions.dgemmt(handles[device_mode], "U", "N", "N", n, 0, None, None, n, None, 1, zero, Cm.arg, n + 1)
        got = Cm.get()
        assert bits_equal(got[:, up], np.zeros((1, int(up.sum()))))
        rt.assert_written(got[:, up])
        Cm.check()


def test_gemmt_device_mode_nulls(handles: dict[bool, Any]) -> None:
    """Device pointer mode: arrays the scalars make unneeded may be null; needed ones are invalid_pointer."""
    h = handles[True]
    f = extensions.dgemmt
    with ExitStack() as stack:
        zero, one, two = (scalar_arg(v, D, True) for v in (0.0, 1.0, 2.0))
        assert f(h, "L", "N", "N", 4, 3, zero, None, 4, None, 3, one, None, 4) is None  # nothing to do
        assert f(h, "L", "N", "N", 4, 0, None, None, 4, None, 0, one, None, 4) is None
        Cm = Mats(stack, np.ones((1, 4, 4)), 4, PLAIN)
        A = Mats(stack, np.ones((1, 4, 3)), 4, PLAIN)
        expect(RocblasInvalidPointerError, "A", f, h, "L", "N", "N", 4, 3, one, None, 4, None, 3, one, Cm.arg, 4)
        expect(RocblasInvalidPointerError, "B", f, h, "L", "N", "N", 4, 3, one, A.arg, 4, None, 3, one, Cm.arg, 4)
        expect(RocblasInvalidPointerError, "C", f, h, "L", "N", "N", 4, 3, zero, None, 4, None, 3, two, None, 4)
        expect(RocblasInvalidPointerError, "alpha", f, h, "L", "N", "N", 4, 3, None, None, 4, None, 3, None, None, 4)
        expect(RocblasInvalidPointerError, "beta", f, h, "L", "N", "N", 4, 3, one, None, 4, None, 3, 0, None, 4)
        Cm.check(logical=True)
        # alpha == 0 on the device: A and B may be null; the triangle is scaled by beta.
        f(h, "L", "N", "N", 4, 3, zero, None, 4, None, 3, two, Cm.arg, 4)
        got = Cm.get()
        low = np.tril(np.ones((4, 4), bool))
        assert bits_equal(got[:, low], np.full((1, 10), 2.0)) and bits_equal(got[:, ~low], np.ones((1, 6)))


def test_host_mode_zero_scalars_may_be_python_ints(handles: dict[bool, Any]) -> None:
    """In host pointer mode 0 is the value zero, not a null pointer."""
    h = handles[False]
    with ExitStack() as stack:
        Cm = Mats(stack, np.ones((1, 3, 3)), 3, PLAIN)
        assert extensions.dgemmt(h, "U", "T", "C", 3, 4, 0, None, 4, None, 3, 1, None, 3) is None
        extensions.dgemmt(h, "U", "N", "N", 3, 4, 0, None, 3, None, 4, 0, Cm.arg, 3)
        got = Cm.get()
        up = np.triu(np.ones((3, 3), bool))
        assert bits_equal(got[:, up], np.zeros((1, 6))) and bits_equal(got[:, ~up], np.ones((1, 3)))
        extensions.dgeam(h, "N", "N", 3, 3, 0, None, 3, 0, None, 3, Cm.arg, 3)
        assert bits_equal(Cm.get(), np.zeros((1, 3, 3)))


def test_signatures_and_names() -> None:
    import inspect

    assert "stride_a" in inspect.signature(extensions.sgeam_strided_batched).parameters
    assert list(inspect.signature(extensions.zgemmt_strided_batched).parameters) == [
        "handle", "uplo", "transA", "transB", "n", "k", "alpha", "A", "lda", "stride_a", "B", "ldb", "stride_b",
        "beta", "C", "ldc", "stride_c", "batch_count"]
    assert list(inspect.signature(extensions.cdgmm_strided_batched).parameters) == [
        "handle", "side", "m", "n", "A", "lda", "stride_a", "x", "incx", "stride_x", "C", "ldc", "stride_c",
        "batch_count"]
    assert list(inspect.signature(extensions.dgeam_batched).parameters) == [
        "handle", "transA", "transB", "m", "n", "alpha", "A", "lda", "beta", "B", "ldb", "C", "ldc", "batch_count"]
    names = {f"{p}{op}{fl}" for op, precs in EXTENSIONS.items() for p in precs.split() for fl in FLAVOURS}
    names |= {f"{n}_64" for n in names}  # ILP64 twins of all
    assert set(extensions.__all__) == names  # the manifest's extensions, every precision and flavour
    for name in names:
        f = getattr(extensions, name)
        assert f.__name__ == name and f.__doc__.startswith(f"rocblas_{name}(handle, ")
