"""rocSOLVER's LU family: getf2/getrf (+ _npvt), getrs, gesv, getri (+ _npvt, _outofplace), laswp.

Results are judged as rocSOLVER's and LAPACK's test suites do: by scale-free residual
ratios (``||P A - L U|| / (n ||A|| eps)``, the backward error of a solve, ``||I - A
inv(A)|| / (n ||A|| ||inv(A)|| eps``) below 30, and against scipy's LAPACK for pivots
and ``info`` on matrices whose pivots are unique (each column has one dominant
entry, in a random row).  Sizes include 0, 1, tall and wide; leading dimensions are
padded and every operand lives in a poisoned buffer whose padding, batch gaps and
margins must keep their sentinel bits, as must read-only inputs; batches mix regular
and singular members, in the three flavours and four precisions.  Large sizes take
the LAPACK/BLAS path, small ones the numba path.  Argument checking (rocSOLVER's
order, the argument named, size queries) is tested separately at the end.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.errors import (
    MemoryAccessFault,
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.log import close_logs
from rocmath.precision import SDCZ, D, Precision, S, Z
from rocmath.solver import _kernels_lu as kl

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
BIG = kl.SMALL + 6  # the LAPACK / blocked path (and, for npvt, two column blocks at most)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    return getattr(solver, f"{p.letter}{routine}{SUFFIX[flavour]}")


# --- operands in every flavour ---------------------------------------------------------------------


class Matrix:
    """A ``(batch, rows, cols)`` host stack on the device as a matrix argument, padding poisoned:
    the first entry's pointer (plain, strided: entries ``ld * cols + gap`` apart) or a device
    array of entry pointers (batched)."""

    def __init__(self, host: np.ndarray, ld: int, flavour: str, gap: int = 0):
        self.flavour, self.ld, self.shape, self.dtype = flavour, ld, host.shape, host.dtype
        self.stride = 0
        if flavour == "plain":
            self.mats = [rt.poisoned_device_matrix(host[0], ld)]
            self.arg: Any = self.mats[0].ptr
        elif flavour == "strided":
            self.mats = [rt.poisoned_device_matrix(host, ld, stride=ld * host.shape[2] + gap)]
            self.stride, self.arg = self.mats[0].stride, self.mats[0].ptr
        else:
            self.mats = [rt.poisoned_device_matrix(h, ld) for h in host]
            self.arg = rm.to_device(np.array([m.ptr for m in self.mats] or [0], dtype=np.uint64))

    def get(self) -> np.ndarray:
        if self.flavour == "strided":
            return self.mats[0].get()
        if not self.mats:
            return np.empty(self.shape, self.dtype)
        return np.stack([m.get() for m in self.mats])

    def check(self, logical: bool = False) -> None:
        for m in self.mats:
            m.check_untouched(logical=logical)

    def close(self) -> None:
        for m in self.mats:
            m.close()


class Vector:
    """A ``(batch, length)`` int32 stack as rocSOLVER's non-matrix arrays (ipiv): one device
    array in every flavour, entries ``length + gap`` apart, gaps poisoned; unwritten elements
    read as the sentinel."""

    def __init__(self, batch: int, length: int, flavour: str, gap: int = 0, host: np.ndarray | None = None):
        data = np.zeros((batch, length, 1), np.int32) if host is None else host.astype(np.int32)[:, :, None]
        if flavour == "plain":
            self.mat = rt.poisoned_device_matrix(data[0], max(1, length))
            self.stride = 0
        else:
            self.mat = rt.poisoned_device_matrix(data, max(1, length), stride=max(1, length) + gap)
            self.stride = self.mat.stride
        if host is None:
            self.mat.poison()
        self.plain = flavour == "plain"
        self.arg = self.mat.ptr

    def get(self) -> np.ndarray:
        data = self.mat.get()
        return (data[None] if self.plain else data)[..., 0]

    def check(self, logical: bool = False) -> None:
        self.mat.check_untouched(logical=logical)

    def close(self) -> None:
        self.mat.close()


def info_array(batch: int) -> rt.PaddedDeviceMatrix:
    """The info output: batch int32 values, poisoned (every one must be written)."""
    info = rt.poisoned_device_matrix(np.zeros((batch, 1), np.int32))
    info.poison()
    return info


@contextmanager
def closing(*operands: Any) -> Iterator[None]:
    try:
        yield
    finally:
        for operand in operands:
            operand.close()


def call(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> None:
    """Call ``routine`` with plain values and operands: a Matrix gives its pointer, leading
    dimension (``ld<name>``) and stride (``stride<name>``); a Vector (ipiv) its pointer and
    ``strideP``; info its pointer."""
    f = fn(routine, p, flavour)
    names = list(inspect.signature(f).parameters)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for name, value in args.items():
        if isinstance(value, Matrix):
            values[name], values[f"ld{name.lower()}"] = value.arg, value.ld
            values[f"stride{name}"] = value.stride
        elif isinstance(value, Vector):
            values[name], values["strideP"] = value.arg, value.stride
        elif isinstance(value, rt.PaddedDeviceMatrix):
            values[name] = value.ptr
        else:
            values[name] = value
    f(**{n: values[n] for n in names})


# --- data ----------------------------------------------------------------------------------------


def random(p: Precision, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(-1, 1, shape)
    if p.is_complex:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(p.dtype)


def separated(p: Precision, batch: int, m: int, n: int, rng: np.random.Generator,
              singular: tuple[int, ...] = ()) -> np.ndarray:
    """Matrices whose partial-pivoting choices are unique: small entries plus one dominant
    entry per column (of distinct magnitudes, in distinct random rows), so every pivot
    search has one clear winner.  Entries in ``singular`` get an all-zero column (an exact
    zero pivot there)."""
    a = 0.1 * random(p, (batch, m, n), rng)
    k = min(m, n)
    for e in range(batch):
        rows = rng.permutation(m)[:k]
        a[e, rows, np.arange(k)] += (4.0 + np.arange(k)) * rng.choice((-1, 1), k)
        if e in singular and n > 0:
            a[e, :, rng.integers(0, n)] = 0
    return a


def dominant(p: Precision, batch: int, m: int, n: int, rng: np.random.Generator,
             singular: tuple[int, ...] = ()) -> np.ndarray:
    """Diagonally dominant matrices (stable without pivoting); ``singular`` entries get an
    all-zero column."""
    a = random(p, (batch, m, n), rng) + (max(m, n) + 1) * np.eye(m, n, dtype=p.dtype)
    for e in singular:
        if n > 0:
            a[e, :, rng.integers(0, n)] = 0
    return a


def lapack_getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scipy's LAPACK getrf on each entry: (LU, 1-based pivots, info)."""
    getrf = lapack.get_lapack_funcs("getrf", dtype=a.dtype)
    out = [getrf(np.asfortranarray(x)) for x in a]
    k = min(a.shape[1:])
    lu = np.stack([o[0] for o in out]) if out else a.copy()
    piv = np.stack([o[1][:k] + 1 for o in out]) if out else np.zeros((0, k), np.int32)
    return lu, piv, np.array([o[2] for o in out], dtype=np.int32)


def first_zero_column(a: np.ndarray) -> int:
    """LAPACK's info for a matrix whose only defect is zero columns: the first one, 1-based."""
    k = min(a.shape)
    zero = [j for j in range(k) if not a[:, j].any()]
    return zero[0] + 1 if zero else 0


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


# --- strategies --------------------------------------------------------------------------------

small = rt.sizes(max_value=9)


@st.composite
def setup(draw: st.DrawFn, precisions: tuple[Precision, ...] = SDCZ) -> tuple[Precision, str, int, int, int]:
    """(precision, flavour, batch count, gap between strided entries, seed)."""
    p = draw(st.sampled_from(precisions))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, 4))
    return p, flavour, batch, draw(st.integers(0, 2)), draw(st.integers(0, 2**32 - 1))


def singular_members(draw: st.DrawFn, batch: int) -> tuple[int, ...]:
    return tuple(e for e in range(batch) if draw(st.booleans()) and draw(st.booleans()))


# --- getf2, getrf ------------------------------------------------------------------------------


def run_getrf(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, lda: int, gap: int = 0,
              pgap: int = 0) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Run a getrf-like routine on the stack ``a``; return (A, ipiv or None, info), every
    operand's padding checked."""
    batch, m, n = a.shape
    pivot = "npvt" not in routine
    A = Matrix(a, lda, flavour, gap)
    P = Vector(batch, min(m, n), flavour, pgap)
    info = info_array(batch)
    with closing(A, P, info):
        args: dict[str, Any] = dict(m=m, n=n, A=A, info=info)
        if pivot:
            args["ipiv"] = P
        call(handle, routine, p, flavour, batch, **args)
        A.check()
        P.check(logical=not pivot)  # npvt: not even the pivot array is written
        info.check_untouched()
        return A.get(), P.get() if pivot else None, info.get()[:, 0]


@settings(max_examples=rt.examples(50))
@given(st.data())
def test_getrf_pivots_and_info_match_lapack(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(("getrf", "getf2")))
    m, n = data.draw(small), data.draw(small)
    lda = data.draw(rt.leading_dimensions(m, max_padding=3))
    rng = np.random.default_rng(seed)
    a = separated(p, batch, m, n, rng, singular_members(data.draw, batch))
    got, piv, info = run_getrf(handle, routine, p, flavour, a, lda, gap, data.draw(st.integers(0, 2)))
    if m == 0 or n == 0:
        assert np.array_equal(info, np.zeros(batch)) and same_bits(got, a)
        return
    _, ref_piv, ref_info = lapack_getrf(a)
    assert np.array_equal(piv, ref_piv)
    assert np.array_equal(info, ref_info)
    assert np.array_equal(info, [first_zero_column(x) for x in a])
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), ipiv=piv, precision=p) < rt.RESIDUAL_THRESHOLD


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_getrf_random_matrices_factor_accurately(handle: Any, data: st.DataObject) -> None:
    # Random (not separated) entries: pivots may differ from LAPACK's on near-ties; the factors
    # must still reproduce P A.
    p, flavour, batch, gap, seed = data.draw(setup())
    m, n = data.draw(rt.sizes(max_value=24)), data.draw(rt.sizes(max_value=24))
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    got, piv, info = run_getrf(handle, "getrf", p, flavour, a, lda, gap)
    if batch and min(m, n):
        assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), ipiv=piv, precision=p) < rt.RESIDUAL_THRESHOLD
        # Partial pivoting bounds the multipliers (by |re| + |im|, so sqrt(2) in modulus).
        assert (np.abs(np.tril(got, -1)) <= (np.sqrt(2) if p.is_complex else 1) * (1 + 4 * p.eps)).all()
        assert np.array_equal(info, np.zeros(batch))


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_getrf_npvt(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(("getrf_npvt", "getf2_npvt")))
    m, n = data.draw(small), data.draw(small)
    lda = data.draw(rt.leading_dimensions(m, max_padding=3))
    singular = singular_members(data.draw, batch)
    a = dominant(p, batch, m, n, np.random.default_rng(seed), singular)
    got, _, info = run_getrf(handle, routine, p, flavour, a, lda, gap)
    assert np.array_equal(info, [first_zero_column(x) for x in a])
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("m", "n"), [(BIG, BIG), (BIG + 9, BIG), (BIG, BIG + 11)])
def test_getrf_large_goes_to_lapack(handle: Any, p: Precision, m: int, n: int) -> None:
    # One padded strided batch with a singular member: LAPACK's own pivots, info and bits.
    rng = np.random.default_rng(m * n)
    a = separated(p, 2, m, n, rng, singular=(1,))
    got, piv, info = run_getrf(handle, "getrf", p, "strided", a, m + 1, gap=3)
    ref, ref_piv, ref_info = lapack_getrf(a)
    assert np.array_equal(piv, ref_piv) and np.array_equal(info, ref_info) and info[1] > 0
    assert same_bits(got, ref)  # the same LAPACK on the same data


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("m", "n"), [(BIG, BIG), (BIG + 9, BIG), (BIG, 2 * kl.NB_LARGE + 5)])
def test_getrf_npvt_large_blocked(handle: Any, p: Precision, m: int, n: int) -> None:
    rng = np.random.default_rng(m + n)
    a = dominant(p, 2, m, n, rng)
    a[1, :, kl.NB_LARGE + 2] = 0  # a zero pivot in the second column block
    got, _, info = run_getrf(handle, "getrf_npvt", p, "batched", a, m + 2)
    assert np.array_equal(info, [0, kl.NB_LARGE + 3])
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), precision=p) < rt.RESIDUAL_THRESHOLD
    # Without pivoting the leading block's LU is the LU of the leading block: the first panel
    # is factored by the small-entry code, so it has the same bits.
    lead = a[:, : kl.NB_LARGE, : kl.NB_LARGE].copy()
    sub, _, _ = run_getrf(handle, "getrf_npvt", p, "strided", lead, kl.NB_LARGE)
    assert same_bits(got[:, : kl.NB_LARGE, : kl.NB_LARGE], sub)


def test_blocked_small_lu_gives_the_unblocked_bits() -> None:
    # The fused rank-NB trailing update sums in the rank-1 updates' order: same bits as a
    # plain right-looking LU written out here (tall, then wide).
    rng = np.random.default_rng(5)
    for m, n in ((kl.UNBLOCKED + 13, kl.UNBLOCKED + 7), (kl.UNBLOCKED + 2, kl.UNBLOCKED + 9)):
        k = min(m, n)
        a = rng.standard_normal((3, m, n))
        A = a.copy()
        ipiv, info = np.zeros((3, k), np.int32), np.zeros(3, np.int32)
        kl.getrf(A, ipiv, info, serial=False)
        for e in range(3):
            w = a[e].copy()
            for j in range(k):
                p = int(np.argmax(np.abs(w[j:, j]))) + j
                w[[j, p]] = w[[p, j]]
                w[j + 1:, j] *= 1.0 / w[j, j]
                for c in range(j + 1, n):
                    w[j + 1:, c] -= w[j, c] * w[j + 1:, j]
                assert ipiv[e, j] == p + 1
            assert same_bits(A[e], w)


def test_small_lanes_give_the_one_at_a_time_bits() -> None:
    # Entries of at most LANES rows and columns (one block of rows, no spare ones) factored LANES at a
    # time give the one-at-a-time LU's bits, pivots and info, with singular members, ties between
    # pivot candidates and a partial last group, in every precision (tall, wide and square).
    rng = np.random.default_rng(12)
    batch = 3 * kl.LANES + 2
    for p in SDCZ:
        for m, n in ((kl.LANES, kl.LANES), (kl.LANES, 3), (4, kl.LANES - 1)):
            k = min(m, n)
            a = random(p, (batch, m, n), rng)
            a[1, :, 0] = 0  # info 1
            a[2, :, n - 1] = a[2, :, 0]  # a zero pivot late, or none
            a[3] = np.round(2 * a[3])  # ties between |re| + |im|
            out = []
            for serial in (False, True):
                A, ipiv, info = a.copy(), np.zeros((batch, k), np.int32), np.zeros(batch, np.int32)
                kl.getrf(A, ipiv, info, serial)
                out.append((A, ipiv, info))
            (a1, p1, i1), (a2, p2, i2) = out
            assert same_bits(a1, a2) and np.array_equal(p1, p2) and np.array_equal(i1, i2), (p, m, n)
            assert i1[1] == 1


# --- getrs ---------------------------------------------------------------------------------------


def op(x: np.ndarray, trans: str) -> np.ndarray:
    if trans == "N":
        return x
    xt = np.swapaxes(x, -1, -2)
    return xt.conj() if trans == "C" else xt


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_getrs(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    trans = data.draw(st.sampled_from("NTC"))
    n, nrhs = data.draw(small), data.draw(rt.sizes(max_value=4))
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a = separated(p, batch, n, n, rng)
    lu, piv, _ = lapack_getrf(a)
    b = random(p, (batch, n, nrhs), rng)
    A, B, P = Matrix(lu, lda, flavour, gap), Matrix(b, ldb, flavour, gap), Vector(batch, n, flavour, 1, piv)
    with closing(A, B, P):
        call(handle, "getrs", p, flavour, batch, trans=trans, n=n, nrhs=nrhs, A=A, ipiv=P, B=B)
        A.check(logical=True)
        P.check(logical=True)
        B.check()
        x = B.get()
    if n == 0 or nrhs == 0 or batch == 0:
        assert same_bits(x, b)
        return
    assert rt.backward_error(op(a, trans), x, b, precision=p) < rt.RESIDUAL_THRESHOLD


@settings(max_examples=rt.examples(16))
@given(st.data())
def test_getrs_batches_in_vector_lanes(handle: Any, data: st.DataObject) -> None:
    # Batches of LANES entries and more, transposed or small, run LANES at a time, one per vector
    # lane: through the API (padded leading dimensions, gaps, arrays of pointers, a last partial
    # group), the bits of the entry-after-entry kernel.
    p = data.draw(st.sampled_from(SDCZ))
    flavour = data.draw(st.sampled_from(("batched", "strided")))
    batch, trans = data.draw(st.integers(kl.LANES, 2 * kl.LANES + 3)), data.draw(st.sampled_from("NTC"))
    n, nrhs = data.draw(st.sampled_from((3, 8, 13, kl.SOLVE_LANE_MAX, 17, kl.SMALL))), data.draw(st.integers(1, 3))
    gap, seed = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2**32 - 1))
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a = separated(p, batch, n, n, rng)
    lu, piv, _ = lapack_getrf(a)
    b = random(p, (batch, n, nrhs), rng)
    # Zeros: columns the solves skip, in some lanes only; whole right-hand sides of +0 and -0 show
    # a skipped update (-0 - (-0) = +0) from none.
    zero = (rng.random(b.shape) < 0.2) | (rng.random((batch, 1, nrhs)) < 0.2)
    b[zero] = np.where(rng.random(b.shape) < 0.5, 0.0, -0.0)[zero]
    A, B, P = Matrix(lu, lda, flavour, gap), Matrix(b, ldb, flavour, gap), Vector(batch, n, flavour, 1, piv)
    with closing(A, B, P):
        call(handle, "getrs", p, flavour, batch, trans=trans, n=n, nrhs=nrhs, A=A, ipiv=P, B=B)
        B.check()
        x = B.get()
    one_by_one = b.copy()
    kl.getrs(ord(trans), lu.copy(), piv.astype(np.int32), one_by_one, True)
    assert same_bits(x, one_by_one)
    assert rt.backward_error(op(a, trans), x, b, precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("trans", "NTC")
def test_getrs_large(handle: Any, p: Precision, trans: str) -> None:
    rng = np.random.default_rng(11)
    a = separated(p, 2, BIG, BIG, rng)
    lu, piv, _ = lapack_getrf(a)
    b = random(p, (2, BIG, 3), rng)
    A, B, P = Matrix(lu, BIG + 1, "batched"), Matrix(b, BIG + 2, "batched"), Vector(2, BIG, "batched", 2, piv)
    with closing(A, B, P):
        call(handle, "getrs", p, "batched", 2, trans=trans, n=BIG, nrhs=3, A=A, ipiv=P, B=B)
        B.check()
        x = B.get()
    getrs = lapack.get_lapack_funcs("getrs", dtype=p.dtype)
    code = {"N": 0, "T": 1, "C": 2}[trans]
    ref = np.stack([getrs(lu[e], piv[e] - 1, b[e], trans=code)[0] for e in range(2)])
    assert same_bits(x, ref)


def test_getrs_pivot_outside_the_matrix_is_a_memory_fault(handle: Any) -> None:
    lu = np.eye(3)[None]
    for bad in (0, 4):
        A, B = Matrix(lu, 3, "plain"), Matrix(np.ones((1, 3, 1)), 3, "plain")
        P = Vector(1, 3, "plain", host=np.array([[1, bad, 3]]))
        with closing(A, B, P):
            call(handle, "getrs", D, "plain", 1, trans="N", n=3, nrhs=1, A=A, ipiv=P, B=B)
            with pytest.raises(MemoryAccessFault, match="ipiv"):
                rm.device_synchronize()


# --- gesv ----------------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_gesv(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    n = BIG if data.draw(st.integers(0, 9)) == 0 else data.draw(small)  # sometimes the LAPACK path
    nrhs = data.draw(rt.sizes(max_value=3))
    lda, ldb = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    singular = singular_members(data.draw, batch)
    a = separated(p, batch, n, n, rng, singular)
    b = random(p, (batch, n, nrhs), rng)
    A, B, P, info = Matrix(a, lda, flavour, gap), Matrix(b, ldb, flavour, gap), Vector(batch, n, flavour), \
        info_array(batch)
    with closing(A, B, P, info):
        call(handle, "gesv", p, flavour, batch, n=n, nrhs=nrhs, A=A, ipiv=P, B=B, info=info)
        for operand in (A, B, P):
            operand.check()
        info.check_untouched()
        got, x, piv, inf = A.get(), B.get(), P.get(), info.get()[:, 0]
    if n == 0 or nrhs == 0:  # rocSOLVER: info = 0 and A is not factored
        assert np.array_equal(inf, np.zeros(batch)) and same_bits(got, a) and same_bits(x, b)
        return
    lu, ref_piv, ref_info = run_getrf(handle, "getrf", p, "strided", a, n)
    assert same_bits(got, lu) and np.array_equal(piv, ref_piv) and np.array_equal(inf, ref_info)
    for e in range(batch):
        if inf[e]:
            assert same_bits(x[e], b[e])  # a singular entry's B is left as it was
        else:
            assert rt.backward_error(a[e], x[e], b[e], precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
def test_gesv_large(handle: Any, p: Precision) -> None:
    rng = np.random.default_rng(6)
    a = separated(p, 3, BIG, BIG, rng, singular=(1,))
    b = random(p, (3, BIG, 2), rng)
    A, B, P, info = Matrix(a, BIG, "batched"), Matrix(b, BIG + 1, "batched"), Vector(3, BIG, "batched"), \
        info_array(3)
    with closing(A, B, P, info):
        call(handle, "gesv", p, "batched", 3, n=BIG, nrhs=2, A=A, ipiv=P, B=B, info=info)
        B.check()
        got, piv, x, inf = A.get(), P.get(), B.get(), info.get()[:, 0]
    ref, ref_piv, ref_info = lapack_getrf(a)
    assert same_bits(got, ref) and np.array_equal(piv, ref_piv)  # LAPACK's gesv factors with its getrf
    assert np.array_equal(inf, ref_info) and inf[1] > 0
    assert same_bits(x[1], b[1])
    for e in (0, 2):
        assert rt.backward_error(a[e], x[e], b[e], precision=p) < rt.RESIDUAL_THRESHOLD


# --- getri, getri_npvt, getri_outofplace, getri_npvt_outofplace ---------------------------------------


def factors(p: Precision, batch: int, n: int, rng: np.random.Generator, pivot: bool,
            singular: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(A, its packed LU, 1-based pivots, info): random well-conditioned unit-lower L and
    upper U, random valid pivots (identity without pivoting); ``singular`` entries get a zero
    on U's diagonal."""
    low = np.tril(random(p, (batch, n, n), rng), -1) / max(n, 1) + np.eye(n, dtype=p.dtype)
    up = np.triu(random(p, (batch, n, n), rng)) / max(n, 1) + 2 * np.eye(n, dtype=p.dtype)
    info = np.zeros(batch, np.int32)
    for e in singular:
        if n:
            j = rng.integers(0, n)
            up[e, j, j] = 0
            info[e] = j + 1
    piv = np.tile(np.arange(1, n + 1, dtype=np.int32), (batch, 1))
    if pivot:
        for e in range(batch):
            piv[e] = rng.integers(np.arange(1, n + 1), n + 1)
    a = wide(low) @ wide(up)
    for e in range(batch):
        for j in range(n - 1, -1, -1):  # A = P^T L U: undo the interchanges, last first
            a[e, [j, piv[e, j] - 1]] = a[e, [piv[e, j] - 1, j]]
    packed = np.tril(low, -1) + up
    return a, packed, piv, info


def inverse_ratio(a: np.ndarray, inv: np.ndarray, p: Precision) -> float:
    """LAPACK's xGET03: ||I - A inv(A)||_1 / (n ||A||_1 ||inv(A)||_1 eps)."""
    n = a.shape[-1]
    norm = lambda x: np.abs(x).sum(axis=-2).max(axis=-1)  # noqa: E731
    resid = norm(np.eye(n) - wide(a) @ wide(inv))
    return float(np.max(resid / (n * norm(wide(a)) * norm(wide(inv)) * p.eps)))


GETRI = ("getri", "getri_npvt", "getri_outofplace", "getri_npvt_outofplace")


def run_getri(handle: Any, routine: str, p: Precision, flavour: str, packed: np.ndarray, piv: np.ndarray,
              lda: int, ldc: int = 0, gap: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(the inverse, info); inputs checked unchanged, outputs' padding checked; a singular
    entry's output must be as it was."""
    batch, n, _ = packed.shape
    pivot, out = "npvt" not in routine, "outofplace" in routine
    A, P, info = Matrix(packed, lda, flavour, gap), Vector(batch, n, flavour, 1, piv), info_array(batch)
    before = np.full_like(packed, 7)
    Cm = Matrix(before, ldc, flavour, gap) if out else None
    with closing(A, P, info, *((Cm,) if Cm else ())):
        args: dict[str, Any] = dict(n=n, A=A, info=info)
        if pivot:
            args["ipiv"] = P
        if Cm is not None:
            args["C"] = Cm
        call(handle, routine, p, flavour, batch, **args)
        A.check(logical=out)
        P.check(logical=True)
        info.check_untouched()
        target = Cm if Cm is not None else A
        target.check()
        inv, inf = target.get(), info.get()[:, 0]
    for e in np.flatnonzero(inf):
        assert same_bits(inv[e], before[e] if out else packed[e])
    return inv, inf


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_getri(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    routine = data.draw(st.sampled_from(GETRI))
    n = data.draw(small)
    lda, ldc = data.draw(rt.leading_dimensions(n, max_padding=2)), data.draw(rt.leading_dimensions(n, max_padding=2))
    rng = np.random.default_rng(seed)
    a, packed, piv, ref_info = factors(p, batch, n, rng, "npvt" not in routine, singular_members(data.draw, batch))
    inv, info = run_getri(handle, routine, p, flavour, packed, piv, lda, ldc, gap)
    assert np.array_equal(info, ref_info)
    regular = info == 0
    if n and regular.any():
        assert inverse_ratio(a[regular], inv[regular], p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("routine", GETRI)
def test_getri_large(handle: Any, p: Precision, routine: str) -> None:
    rng = np.random.default_rng(2)
    a, packed, piv, ref_info = factors(p, 2, BIG, rng, "npvt" not in routine, singular=(0,))
    inv, info = run_getri(handle, routine, p, "strided", packed, piv, BIG + 1, BIG + 2, gap=2)
    assert np.array_equal(info, ref_info) and info[0] > 0
    assert inverse_ratio(a[1:], inv[1:], p) < rt.RESIDUAL_THRESHOLD


# --- laswp ---------------------------------------------------------------------------------------


def laswp_reference(a: np.ndarray, k1: int, k2: int, ipiv: np.ndarray, incx: int) -> np.ndarray:
    out = a.copy()
    rows = range(k1, k2 + 1) if incx > 0 else range(k2, k1 - 1, -1)
    for i in rows:
        p = ipiv[k1 - 1 + (i - k1) * abs(incx)] - 1
        out[[i - 1, p]] = out[[p, i - 1]]
    return out


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_laswp(handle: Any, data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    m, n = data.draw(rt.sizes(min_value=1, max_value=8)), data.draw(small)
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    k1 = data.draw(st.integers(1, m))
    k2 = data.draw(st.integers(k1, m))
    incx = data.draw(st.sampled_from((1, 2, -1, -2)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ipiv = rng.integers(1, lda + 1, k1 + (k2 - k1) * abs(incx)).astype(np.int32)
    a = random(p, (lda, n), rng)  # pivots may name any of the lda rows
    A = rt.poisoned_device_matrix(a, lda)
    P = rt.poisoned_device_vector(ipiv)
    with closing(A, P):
        fn("laswp", p)(handle, n, A.ptr, lda, k1, k2, P.ptr, incx)
        P.check_untouched(logical=True)
        A.check_untouched()
        got = A.get()
    assert same_bits(got, laswp_reference(a, k1, k2, ipiv, incx))


# --- determinism, overlapping entries, large batches ----------------------------------------------


@pytest.mark.parametrize("routine", ("getrf", "getrf_npvt", "gesv", "getri"))
def test_bitwise_deterministic_across_runs_and_flavours(handle: Any, routine: str) -> None:
    # Many entries: the batch is split over threads; results must not depend on the split.
    p, batch, n = D, 3000, 12
    rng = np.random.default_rng(8)
    a = dominant(p, batch, n, n, rng) if "npvt" in routine else separated(p, batch, n, n, rng, singular=(5, 7))
    b = random(p, (batch, n, 2), rng)
    results = []
    for flavour in ("strided", "strided", "batched"):
        A, B, P, info = Matrix(a, n, flavour), Matrix(b, n, flavour), Vector(batch, n, flavour), info_array(batch)
        with closing(A, B, P, info):
            if routine == "gesv":
                call(handle, routine, p, flavour, batch, n=n, nrhs=2, A=A, ipiv=P, B=B, info=info)
            elif routine == "getri":
                call(handle, "getrf", p, flavour, batch, m=n, n=n, A=A, ipiv=P, info=info)
                call(handle, routine, p, flavour, batch, n=n, A=A, ipiv=P, info=info)
            else:
                pivots = {} if "npvt" in routine else {"ipiv": P}
                call(handle, routine, p, flavour, batch, m=n, n=n, A=A, info=info, **pivots)
            results.append((A.get().tobytes(), B.get().tobytes(), P.get().tobytes(), info.get().tobytes()))
    assert results[0] == results[1] == results[2]


def test_overlapping_pivot_entries_run_in_order(handle: Any) -> None:
    # strideP = 0: every entry writes the same pivot vector; entries run in order, so the
    # last entry's pivots are what remains (deterministically).
    rng = np.random.default_rng(4)
    a = separated(D, 5, 6, 6, rng)
    A = Matrix(a, 6, "strided")
    ipiv, info = rm.zeros(6, np.int32), rm.zeros(5, np.int32)
    with closing(A):
        solver.dgetrf_strided_batched(handle, 6, 6, A.arg, 6, A.stride, ipiv, 0, info, 5)
        assert np.array_equal(ipiv.get(), lapack_getrf(a)[1][-1])


def test_stride_zero_matrix_is_factored_in_entry_order(handle: Any) -> None:
    # strideA = 0: the same matrix factored batch_count times in a row, as on one thread.
    rng = np.random.default_rng(9)
    a = dominant(D, 1, 5, 5, rng)
    A = Matrix(a, 5, "strided")
    info = rm.zeros(3, np.int32)
    with closing(A):
        solver.dgetrf_npvt_strided_batched(handle, 5, 5, A.arg, 5, 0, info, 3)
        expected = a.copy()
        for _ in range(3):
            kl.getrf(expected, None, np.zeros(1, np.int32), serial=True)
        assert same_bits(A.get(), expected)


@pytest.mark.parametrize("n", (1, 8, 16, 33, 64))
def test_large_batches_of_small_matrices(handle: Any, n: int) -> None:
    p, batch = D, 2000
    rng = np.random.default_rng(n)
    a = separated(p, batch, n, n, rng, singular=(3,))
    got, piv, info = run_getrf(handle, "getrf", p, "strided", a, n)
    _, ref_piv, ref_info = lapack_getrf(a)
    assert np.array_equal(piv, ref_piv) and np.array_equal(info, ref_info)
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), ipiv=piv, precision=p) < rt.RESIDUAL_THRESHOLD


@pytest.mark.slow
@pytest.mark.parametrize("p", (D, Z))
def test_getrf_getrs_getri_one_large_matrix(handle: Any, p: Precision) -> None:
    n = 1024
    rng = np.random.default_rng(1)
    a = random(p, (1, n, n), rng)
    got, piv, info = run_getrf(handle, "getrf", p, "plain", a, n)
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), ipiv=piv, precision=p) < rt.RESIDUAL_THRESHOLD
    b = random(p, (1, n, 4), rng)
    A, B, P = Matrix(got, n, "plain"), Matrix(b, n, "plain"), Vector(1, n, "plain", host=piv)
    with closing(A, B, P):
        call(handle, "getrs", p, "plain", 1, trans="N", n=n, nrhs=4, A=A, ipiv=P, B=B)
        assert rt.backward_error(a[0], B.get()[0], b[0], precision=p) < rt.RESIDUAL_THRESHOLD
    d = dominant(p, 1, n, n, rng)
    got, _, info = run_getrf(handle, "getrf_npvt", p, "plain", d, n)
    assert info[0] == 0
    assert rt.lu_residual_ratio(d, *rt.unpack_lu(got), precision=p) < rt.RESIDUAL_THRESHOLD


# --- argument checking ---------------------------------------------------------------------------


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the
    exception class and the argument it names (and its position); nothing may change."""
    rng = np.random.default_rng(0)
    mats = {name: rt.poisoned_device_matrix(separated(D, 1, 4, 4, rng)[0], 4) for name in "ABC"}
    piv = rt.poisoned_device_vector(np.arange(1, 5, dtype=np.int32))
    info = rt.poisoned_device_vector(np.zeros(1, np.int32))

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(trans="N", m=4, n=4, nrhs=4, lda=4, ldb=4, ldc=4, k1=1, k2=4, incx=1,
                                    strideA=16, strideB=16, strideC=16, strideP=4, batch_count=1,
                                    ipiv=piv.ptr, info=info.ptr)
        for name, mat in mats.items():
            base[name] = mat.ptr
        f = fn(routine, D, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2  # its position in the C prototype (handle is #1)
        assert err.value.status == error.status  # type: ignore[attr-defined]
        for buf in (*mats.values(), piv, info):
            buf.check_untouched(logical=True)

    yield check
    for buf in (*mats.values(), piv, info):
        buf.close()


BAD_ARGUMENTS = [
    # getrf-like: sizes (m, n, lda) then pointers (A, ipiv, info)
    ("getrf", SIZE, "m", dict(m=-1)),
    ("getrf", SIZE, "n", dict(n=-1)),
    ("getrf", SIZE, "lda", dict(lda=3)),
    ("getrf", SIZE, "lda", dict(m=5, n=3)),
    ("getrf", POINTER, "A", dict(A=None)),
    ("getrf", POINTER, "ipiv", dict(ipiv=0)),
    ("getrf", POINTER, "info", dict(info=None)),
    ("getf2", POINTER, "ipiv", dict(ipiv=None)),
    ("getrf_npvt", SIZE, "lda", dict(lda=0)),
    ("getrf_npvt", POINTER, "A", dict(A=None)),
    ("getf2_npvt", POINTER, "info", dict(info=None)),
    # pointers only where the sizes need them: info is needed even for an empty matrix
    ("getrf", POINTER, "info", dict(m=0, A=None, ipiv=None, info=None)),
    # getrs: trans, sizes, pointers (A, ipiv, B)
    ("getrs", VALUE, "trans", dict(trans="X")),
    ("getrs", VALUE, "trans", dict(trans=114)),
    ("getrs", SIZE, "n", dict(n=-1)),
    ("getrs", SIZE, "nrhs", dict(nrhs=-1)),
    ("getrs", SIZE, "lda", dict(lda=3)),
    ("getrs", SIZE, "ldb", dict(ldb=3)),
    ("getrs", POINTER, "A", dict(A=None)),
    ("getrs", POINTER, "ipiv", dict(ipiv=None)),
    ("getrs", POINTER, "B", dict(B=None)),
    # gesv
    ("gesv", SIZE, "nrhs", dict(nrhs=-2)),
    ("gesv", SIZE, "ldb", dict(ldb=2)),
    ("gesv", POINTER, "A", dict(A=None)),
    ("gesv", POINTER, "ipiv", dict(ipiv=None)),
    ("gesv", POINTER, "B", dict(B=None)),
    ("gesv", POINTER, "info", dict(info=None)),
    ("gesv", POINTER, "info", dict(n=0, A=None, ipiv=None, B=None, info=None)),
    # getri family
    ("getri", SIZE, "n", dict(n=-1)),
    ("getri", SIZE, "lda", dict(lda=3)),
    ("getri", POINTER, "A", dict(A=None)),
    ("getri", POINTER, "ipiv", dict(ipiv=None)),
    ("getri", POINTER, "info", dict(info=None)),
    ("getri_npvt", POINTER, "info", dict(info=None)),
    ("getri_outofplace", SIZE, "ldc", dict(ldc=3)),
    ("getri_outofplace", POINTER, "C", dict(C=None)),
    ("getri_outofplace", POINTER, "ipiv", dict(ipiv=None)),
    ("getri_npvt_outofplace", POINTER, "C", dict(C=None)),
    # laswp: n, lda, k1, k2, incx; then A, ipiv (ipiv even when n == 0)
    ("laswp", SIZE, "n", dict(n=-1)),
    ("laswp", SIZE, "lda", dict(lda=0)),
    ("laswp", SIZE, "k1", dict(k1=0)),
    ("laswp", SIZE, "k2", dict(k2=0)),
    ("laswp", SIZE, "k2", dict(k1=3, k2=2)),
    ("laswp", SIZE, "incx", dict(incx=0)),
    ("laswp", POINTER, "A", dict(A=None)),
    ("laswp", POINTER, "ipiv", dict(ipiv=None)),
    ("laswp", POINTER, "ipiv", dict(n=0, A=None, ipiv=None)),
    # rocSOLVER's order: values beat sizes beat pointers; sizes beat the quick return
    ("getrs", VALUE, "trans", dict(trans="X", n=-1, A=None)),
    ("getrs", SIZE, "n", dict(n=-1, A=None, B=None)),
    ("getrf", SIZE, "lda", dict(m=3, lda=2, A=None, info=None)),
    ("getrf", SIZE, "m", dict(m=-1, n=-1, lda=-1)),
    ("gesv", SIZE, "lda", dict(n=4, nrhs=0, lda=3, A=None)),
    ("laswp", SIZE, "lda", dict(n=0, lda=0, ipiv=None)),
]


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


BATCHED_ROUTINES = ("getf2", "getrf", "getf2_npvt", "getrf_npvt", "getrs", "gesv", *GETRI)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in BATCHED_ROUTINES:
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, A=None)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)  # the matrix is needed whatever the count
    for routine in ("getrf", "gesv", "getri"):
        bad(routine, flavour, POINTER, "info", info=None)


def test_invalid_handle() -> None:
    for h in (None, object()):
        with pytest.raises(RocblasInvalidHandleError):
            solver.dgetrf(h, 4, 4, 0, 4, 0, 0)
    h = blas.create_handle()
    blas.destroy_handle(h)
    with pytest.raises(RocblasInvalidHandleError):
        solver.dgetrs(h, "N", 1, 1, 0, 1, 0, 0, 1)


@pytest.mark.parametrize("routine", BATCHED_ROUTINES)
def test_quick_returns(handle: Any, routine: str) -> None:
    # batch_count == 0: nothing is touched (info neither), null arrays are fine; an empty
    # matrix: info := 0 for every entry, nothing else touched.
    f = fn(routine, D, "strided")
    params = list(inspect.signature(f).parameters)[1:]
    info = info_array(3)
    with closing(info):
        args = {name: "N" if name == "trans" else 0 for name in params}
        f(handle, **args)  # batch_count == 0
        info.check_untouched()
        if "info" in params:
            empty = {"info": info.ptr, "batch_count": 3, "m": 5, "lda": 5, "nrhs": 2}
            f(handle, **(args | {k: v for k, v in empty.items() if k in params}))
            assert np.array_equal(info.get(), np.zeros((3, 1)))


def test_gesv_without_right_hand_sides_does_not_factor(handle: Any) -> None:
    a = separated(D, 1, 3, 3, np.random.default_rng(1))
    A, P, info = Matrix(a, 3, "plain"), Vector(1, 3, "plain"), info_array(1)
    with closing(A, P, info):
        solver.dgesv(handle, 3, 0, A.arg, 3, P.arg, None, 3, info.ptr)  # B may be null: no right-hand side
        A.check(logical=True)
        P.check(logical=True)
        assert info.get()[0, 0] == 0


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(solver.dgetrf_batched) == ["handle", "m", "n", "A", "lda", "ipiv", "strideP", "info", "batch_count"]
    assert names(solver.dgetrf_strided_batched) == ["handle", "m", "n", "A", "lda", "strideA", "ipiv", "strideP",
                                                    "info", "batch_count"]
    assert names(solver.zgetrf_npvt_batched) == ["handle", "m", "n", "A", "lda", "info", "batch_count"]
    assert names(solver.sgetrs_batched) == ["handle", "trans", "n", "nrhs", "A", "lda", "ipiv", "strideP", "B",
                                            "ldb", "batch_count"]
    assert names(solver.cgetrs_strided_batched) == ["handle", "trans", "n", "nrhs", "A", "lda", "strideA", "ipiv",
                                                    "strideP", "B", "ldb", "strideB", "batch_count"]
    assert names(solver.dgesv_strided_batched) == ["handle", "n", "nrhs", "A", "lda", "strideA", "ipiv", "strideP",
                                                   "B", "ldb", "strideB", "info", "batch_count"]
    assert names(solver.dgetri_npvt_outofplace_strided_batched) == [
        "handle", "n", "A", "lda", "strideA", "C", "ldc", "strideC", "info", "batch_count"]
    assert names(solver.dlaswp) == ["handle", "n", "A", "lda", "k1", "k2", "ipiv", "incx"]
    assert solver.dgetrf.__module__ == "rocmath.solver" and "rocsolver_dgetrf(" in solver.dgetrf.__doc__


# --- workspace: size queries, user workspace --------------------------------------------------------


def test_size_query_reports_the_workspace_and_skips_pointer_checks(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        # Null arrays are fine during a query; routines that need no more than the largest need so
        # far (or no workspace at all: laswp) leave the size unchanged.
        assert solver.dgetrf(handle, 1024, 1024, None, 1024, None, None) is RocblasStatus.size_increased
        assert solver.dgetri_strided_batched(handle, 8, None, 8, 64, None, 8, None, 100) is \
            RocblasStatus.size_increased
        assert solver.zgetri(handle, 100, None, 100, None, None) is RocblasStatus.size_increased
        assert solver.dgetri(handle, 8, None, 8, None, None) is RocblasStatus.size_unchanged
        assert solver.dgetrf(handle, 0, 8, None, 1, None, None) is RocblasStatus.size_unchanged
        assert solver.dlaswp(handle, 8, None, 8, 1, 8, None, 1) is RocblasStatus.size_unchanged
        # ... but sizes are still checked (rocSOLVER checks them before answering a query).
        with pytest.raises(RocblasInvalidSizeError):
            solver.dgetri(handle, 8, None, 7, None, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    expected = max(kl.getrf_workspace(1024, 1024, 1, 8), kl.getri_workspace(8, 100, 8),
                   kl.getri_workspace(100, 1, 16))
    assert size == -(-expected // 64) * 64


def test_a_too_small_user_workspace_is_a_memory_error(handle: Any) -> None:
    n = 6
    _, packed, piv, _ = factors(D, 1, n, np.random.default_rng(0), True, ())
    A, P, info = Matrix(packed, n, "plain"), Vector(1, n, "plain", host=piv), info_array(1)
    need = kl.getri_workspace(n, 1, 8)  # the entry and an n-element work array
    small_ws = rm.malloc(need)
    h = blas.create_handle()
    try:
        with closing(A, P, info):
            blas.set_workspace(h, small_ws, need - 8)
            with pytest.raises(RocblasMemoryError):
                solver.dgetri(h, n, A.arg, n, P.arg, info.ptr)
            A.check(logical=True)
            blas.set_workspace(h, small_ws, need)
            solver.dgetri(h, n, A.arg, n, P.arg, info.ptr)
            assert info.get()[0, 0] == 0
    finally:
        blas.destroy_handle(h)
        rm.free(small_ws)


# --- logging -------------------------------------------------------------------------------------


def test_trace_and_bench_logging(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    trace, bench = tmp_path / "trace.log", tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "3")
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(trace))
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    with pytest.raises(RocblasInvalidSizeError):  # logged before it is checked
        solver.dgetrf_strided_batched(handle, 4, 4, 0, 3, 16, 0, 4, 0, 2)
    solver.sgetrs(handle, "T", 0, 0, None, 1, None, None, 1)
    close_logs()
    assert trace.read_text().splitlines() == ["rocsolver_dgetrf_strided_batched,4,4,0,3,16,0,4,0,2",
                                              "rocsolver_sgetrs,T,0,0,0,1,0,0,1"]
    assert bench.read_text().splitlines() == [
        "rocmath-bench solver -f getrf_strided_batched -r d -m 4 -n 4 --lda 3 --strideA 16 --strideP 4 "
        "--batch_count 2",
        "rocmath-bench solver -f getrs -r s --trans T -n 0 --nrhs 0 --lda 1 --ldb 1"]


def test_no_logging_without_the_layer(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    trace = tmp_path / "trace.log"
    monkeypatch.delenv("ROCSOLVER_LAYER", raising=False)
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(trace))
    info = rm.zeros(1, np.int32)
    solver.dgetrf(handle, 0, 0, None, 0, None, info)
    assert not trace.exists()


def getf2_reference(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LAPACK's unblocked LU (getf2), vectorised over the batch of real (count, n, n) matrices:
    the same operations in the same order as the small-entry kernel, so the same bits.
    Returns (LU, 1-based pivots, info)."""
    a = a.copy()
    count, n, _ = a.shape
    rows = np.arange(count)
    piv = np.empty((count, n), np.int32)
    info = np.zeros(count, np.int32)
    sfmin = np.finfo(a.dtype).tiny
    for j in range(n):
        p = j + np.argmax(np.abs(a[:, j:, j]), axis=1)  # the first largest
        piv[:, j] = p + 1
        a[rows, j], a[rows, p] = a[rows, p], a[rows, j].copy()
        d = a[:, j, j]
        info[(d == 0) & (info == 0)] = j + 1
        big, tiny = np.abs(d) >= sfmin, (d != 0) & (np.abs(d) < sfmin)
        with np.errstate(divide="ignore"):
            r = np.where(big, 1 / np.where(big, d, 1), 0)
        a[big, j + 1:, j] *= r[big, None]
        a[tiny, j + 1:, j] /= d[tiny, None]
        a[:, j + 1:, j + 1:] -= a[:, j + 1:, j:j + 1] * a[:, j:j + 1, j + 1:]
    return a, piv, info


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_getrf_a_million_tiny_matrices_mixing_singular_and_regular(handle: Any, n: int) -> None:
    # Small integers: a good share of the entries is exactly singular (some with a zero pivot
    # before the last), the rest regular; info per entry, pivots and factors against LAPACK's
    # getf2 run on the whole stack in NumPy, and info against scipy's LAPACK on a sample.
    count = 10**6
    rng = np.random.default_rng(n)
    a = rng.integers(-1, 3, (count, n, n)).astype(np.float64)
    a[::7] = 0  # whole zero entries: info = 1
    a[1::11, :, -1] = a[1::11, :, 0]  # two equal columns: singular with a pivot
    da = rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)))  # entry e column-major
    ipiv, info = rm.empty((count, n), np.int32), rm.empty(count, np.int32)
    solver.dgetrf_strided_batched(handle, n, n, da, n, n * n, ipiv, n, info, count)
    got_lu, got_piv, got_info = da.get().transpose(0, 2, 1), ipiv.get(), info.get()
    ref_lu, ref_piv, ref_info = getf2_reference(a)
    assert 0.1 * count < np.count_nonzero(ref_info) < 0.9 * count  # really a mix
    assert np.array_equal(got_info, ref_info)
    assert np.array_equal(got_piv, ref_piv)
    assert np.array_equal(got_lu, ref_lu)
    # scipy's OpenBLAS getrf rounds differently (recursive), so its pivots between equal |values|
    # and whether a singular entry's last pivot comes out exactly zero may differ from getf2's;
    # regular entries (integer determinant non-zero) and zero entries are data-independent.
    sample = rng.choice(count, 2000, replace=False)
    scipy_info = np.array([lapack.dgetrf(a[e])[2] for e in sample])
    regular = np.rint(np.linalg.det(a[sample])) != 0
    zero = ~a[sample].any(axis=(1, 2))
    assert regular.any() and zero.any()
    assert not got_info[sample][regular].any() and not scipy_info[regular].any()
    assert (got_info[sample][zero] == 1).all() and (scipy_info[zero] == 1).all()


# --- small getrf, LANES entries at a time ---------------------------------------------------------------

lane_sizes = st.integers(kl.LANES + 1, kl.LANE_MAX)  # a whole block of rows (transposed as one) and more


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_getrf_lanes_match_scipy_lu_factor(handle: Any, data: st.DataObject) -> None:
    # Entries of up to LANE_MAX rows and columns go LANES at a time, one per vector lane (rows in whole
    # LANES x LANES blocks copied by shuffles, the others one by one; batches that end in a partial
    # group): pivots and info as scipy.linalg.lu_factor's, the factors as close as rounding allows,
    # padding, gaps and the pivot array (npvt) untouched; zero pivots (singular members) included.
    p, flavour, _, gap, seed = data.draw(setup())
    batch = 1 if flavour == "plain" else data.draw(st.integers(0, 3 * kl.LANES + 3))
    m, n = data.draw(lane_sizes), data.draw(st.one_of(lane_sizes, rt.sizes(max_value=kl.LANE_MAX)))
    if data.draw(st.booleans()):
        m, n = n, m
    lda = data.draw(rt.leading_dimensions(m, max_padding=3))
    pivot = data.draw(st.booleans())
    rng = np.random.default_rng(seed)
    singular = singular_members(data.draw, batch)
    a = (separated if pivot else dominant)(p, batch, m, n, rng, singular)
    got, piv, info = run_getrf(handle, "getrf" if pivot else "getrf_npvt", p, flavour, a, lda, gap)
    assert np.array_equal(info, [first_zero_column(x) for x in a])
    if not batch or not min(m, n):
        return
    assert rt.lu_residual_ratio(a, *rt.unpack_lu(got), ipiv=piv, precision=p) < rt.RESIDUAL_THRESHOLD
    if not pivot:
        return
    k = min(m, n)
    for e in range(batch):
        with warnings.catch_warnings():  # (singular members: lu_factor warns)
            warnings.simplefilter("ignore", sl.LinAlgWarning)
            # lu_factor takes square and tall matrices; a wide one's pivots are its leading square's.
            ref, ref_piv = sl.lu_factor(a[e, :, :k] if m < n else a[e], check_finite=False)
        assert np.array_equal(piv[e], ref_piv[:k] + 1), e
        if e not in singular:
            scale = np.abs(a[e]).max()
            assert np.abs(got[e, :, :k] - ref[:, :k]).max() <= 64 * max(m, n) * p.eps * scale, e


# float32 and complex128 in the slow tier: their lane kernels' compilations served this test alone
# (16-19 s each from a cold cache); float64 and complex64 keep a real and a complex dtype, two in
# one process (a parfor once compiled wrong for a process's second dtype).
@pytest.mark.parametrize("p", [pytest.param(q, marks=pytest.mark.slow) if q in (S, Z) else q for q in SDCZ],
                         ids=lambda q: q.letter)
def test_gesv_through_getrf_and_getrs_gives_the_one_at_a_time_bits(p: Precision) -> None:
    # gesv runs getrf's and getrs's kernels on entries that do not overlap, and entry after
    # entry (LU, then solve) on overlapping ones: the same bits, pivots and info either way,
    # singular entries' B left as it was (a zero entry, a zero column, a NaN row).
    rng = np.random.default_rng(17)
    for n, nrhs in ((3, 2), (kl.LANE_MAX, 1), (kl.LANE_MAX + 1, 3), (32, 1)):
        nb = 2 * kl.LANES + 3
        a = random(p, (nb, n, n), rng)
        a[3] = 0
        a[5, :, n // 2] = 0
        a[7, 1] = np.nan
        b = random(p, (nb, n, nrhs), rng)
        out = []
        for serial in (False, True):
            A, B = a.copy(), b.copy()
            ipiv, info = np.zeros((nb, n), np.int32), np.zeros(nb, np.int32)
            kl.gesv(A, ipiv, B, info, serial)
            out.append((A, B, ipiv, info))
        (a1, b1, p1, i1), (a2, b2, p2, i2) = out
        assert same_bits(a1, a2) and same_bits(b1, b2), (p, n, nrhs)
        assert np.array_equal(p1, p2) and np.array_equal(i1, i2), (p, n, nrhs)
        assert i1[3] == 1 and i1[5] > 0 and same_bits(b1[3], b[3]) and same_bits(b1[5], b[5])


@pytest.mark.parametrize("p", SDCZ)
def test_lanes_give_the_one_at_a_time_bits(p: Precision) -> None:
    # The LANES-wide LU does in each lane what the one-at-a-time LU (overlapping entries, serial)
    # does, in its order: the same bits, pivots and info, for zero, tiny (below sfmin: divided),
    # NaN and infinite pivots, ties between pivot candidates, whole zero entries, tall, wide and
    # square sizes with and without whole blocks of rows, with and without pivoting, a batch that
    # ends in a partial group, and (double) one split over many chunks.
    rng = np.random.default_rng(31)
    tiny = np.finfo(p.dtype).tiny
    for m, n in ((kl.LANE_MAX, kl.LANE_MAX), (kl.LANE_MAX, 9), (11, kl.LANE_MAX), (13, 13), (9, 10), (5, 12)):
        batch = 3 * kl.LANES + 5 if p is not D or m != n else 150
        k = min(m, n)
        a = random(p, (batch, m, n), rng)
        a[1, :, 0] = 0  # info 1
        a[2, :, n - 1] = a[2, :, 0]  # a zero pivot late, or none
        a[3] = np.round(2 * a[3])  # ties between |re| + |im|
        a[4] *= tiny  # pivots below sfmin: the division branch
        a[5, m // 2, k // 2] = np.nan
        a[6, 0, 1] = np.inf
        a[7] = 0
        a[8, :, 3] *= tiny  # one tiny pivot among normal ones
        for pivot in (True, False):
            out = []
            for serial in (False, True):
                A, info = a.copy(), np.zeros(batch, np.int32)
                ipiv = np.zeros((batch, k), np.int32) if pivot else None
                kl.getrf(A, ipiv, info, serial)
                out.append((A, ipiv, info))
            (a1, p1, i1), (a2, p2, i2) = out
            assert same_bits(a1, a2) and np.array_equal(i1, i2), (p, m, n, pivot)
            assert p1 is None or np.array_equal(p1, p2), (p, m, n)
            assert i1[1] == 1 and i1[7] == 1
