"""gemm_ex3 (rocBLAS's beta API, rocmath.blas.beta): float8 products.

Operands hold values of a narrow range (magnitudes in [1/4, 8]) and alpha, beta are powers of two
or 0, so float32 sums them exactly: every result is compared exactly with a float64 reference,
its float8 roundings done by test_float8's independent ones (a search of the formats' values,
the stochastic rule with rocBLAS's generator written out again).  Operands live in poisoned
padded buffers in all three flavours (test_blas_ex's Dev): padding and gaps keep their bits,
inputs stay unchanged, outputs are written.  Argument checking is tested in rocBLAS's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_blas_ex import GEMM_ORDER, SUFFIX, Dev, _close_buffers, check_gemm_buffers, expect, ids, op  # noqa: F401  (_close_buffers: a fixture)
from test_float8 import f32_bits, nearest, prand_reference, stochastic

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.blas import ComputeType as CT
from rocmath.blas import Datatype as DT
from rocmath.blas import GemmFlags, PointerMode, beta, create_handle, destroy_handle, set_pointer_mode
from rocmath.errors import (
    RocblasArchMismatchError,
    RocblasInvalidSizeError,
    RocblasNotImplementedError,
    RocblasStatus,
)
from rocmath.float8 import BF8, F8, VALUES, from_f8

COMBOS = sorted(beta.GEMM_EX3_TYPES, key=lambda key: tuple(int(t) for t in key))
FLAVOURS = ("plain", "batched", "strided")
FMT = {DT.f8_r: F8, DT.bf8_r: BF8}
DTYPE = {DT.f8_r: np.uint8, DT.bf8_r: np.uint8, DT.f16_r: np.float16, DT.f32_r: np.float32}


@pytest.fixture(scope="module")
def handle() -> Any:
    hnd = create_handle()
    yield hnd
    destroy_handle(hnd)


# --- data and reference ----------------------------------------------------------------------------


def _narrow_codes(fmt: int) -> np.ndarray:
    v = np.abs(VALUES[fmt].astype(np.float64))
    return np.flatnonzero((v >= 0.25) & (v < 8))


def operand(rng: np.random.Generator, shape: tuple[int, ...], t: DT) -> np.ndarray:
    """Host data of type t: float8 codes of magnitudes in [1/4, 8); halves or floats there."""
    if t in FMT:
        return rng.choice(_narrow_codes(FMT[t]), size=shape).astype(np.uint8)
    x = rng.uniform(0.25, 7.5, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    return x.astype(DTYPE[t])


def values(x: np.ndarray, t: DT) -> np.ndarray:
    return from_f8(x, FMT[t]).astype(np.float64) if t in FMT else x.astype(np.float64)


def rounded(x: np.ndarray, fmt: int, sr: tuple[int, int, bool] | None = None) -> np.ndarray:
    """x (batch, rows, cols) rounded into float8 ``fmt``: to nearest, or stochastically with
    (seed, ld, wide): the bits of element (i, j) at offset i + j * ld, from its own bits."""
    out = np.empty(x.shape)
    for b, i, j in np.ndindex(*x.shape):
        v = float(x[b, i, j])
        if sr is None:
            out[b, i, j] = nearest(v, fmt)
        else:
            seed, ld, wide = sr
            bits = f32_bits(v) if wide else int(np.array(x[b, i, j], np.float16).view(np.uint16))
            out[b, i, j] = stochastic(v, fmt, prand_reference(i + j * ld, seed, bits, wide))
    return out


def run(h: Any, combo: tuple[Any, ...], flavour: str, *, m: int, n: int, k: int, batch: int = 2, ta: str = "N",
        tb: str = "N", alpha: float = 0.5, beta_: float = -2.0, sr: bool = False,
        seeds: tuple[int, int, int] = (0, 0, 0), device: bool = False, in_place: bool = False, seed: int = 0) -> None:
    a_t, b_t, c_t, comp = combo
    fa, fb = beta.GEMM_EX3_TYPES[combo]
    batch = 1 if flavour == "plain" else batch
    rng = np.random.default_rng(seed)
    ra, ca = (m, k) if ta == "N" else (k, m)
    rb, cb = (k, n) if tb == "N" else (n, k)
    Ah, Bh = operand(rng, (batch, ra, ca), a_t), operand(rng, (batch, rb, cb), b_t)
    Ch = operand(rng, (batch, m, n), c_t)
    lda, ldb, ldc = ra + 2, rb + 1, m + 3
    sentinel = 0x80 if c_t in FMT else None  # (float8 NaN: finite results never are)
    A, B = Dev(Ah, np.dtype(DTYPE[a_t]), flavour, ld=lda), Dev(Bh, np.dtype(DTYPE[b_t]), flavour, ld=ldb)
    Cd = Dev(Ch, np.dtype(DTYPE[c_t]), flavour, ld=ldc, sentinel=sentinel)
    Dd = Cd if in_place else Dev(Ch, np.dtype(DTYPE[c_t]), flavour, ld=m + 1, gap=5,
                                 sentinel=sentinel)
    if not in_place:
        Dd.poison()
    if device:
        set_pointer_mode(h, PointerMode.device)
        al, be = rm.to_device(np.array([alpha], np.float32)), rm.to_device(np.array([beta_], np.float32))
    else:
        al, be = alpha, beta_
    kw: dict[str, Any] = dict(transA=ta, transB=tb, m=m, n=n, k=k, alpha=al, a=A.arg, a_type=a_t, lda=lda, b=B.arg,
                              b_type=b_t, ldb=ldb, beta=be, c=Cd.arg, c_type=c_t, ldc=ldc, d=Dd.arg, d_type=c_t,
                              ldd=Dd.ld, compute_type=comp, algo=0, solution_index=0,
                              flags=int(GemmFlags.stochastic_rounding) if sr else 0)
    if flavour == "strided":
        kw.update(stride_a=A.stride, stride_b=B.stride, stride_c=Cd.stride, stride_d=Dd.stride)
    if flavour != "plain":
        kw["batch_count"] = batch
    getattr(blas, f"gemm{SUFFIX[flavour]}_ex3")(h, **kw)
    set_pointer_mode(h, PointerMode.host)
    # The reference: A and B in the float8 formats of the product (half and float rounded into it).
    Aq = values(Ah, a_t) if a_t in FMT else rounded(values(Ah, a_t), FMT[fa], (seeds[0], lda, a_t == DT.f32_r) if sr
                                                     else None)
    Bq = values(Bh, b_t) if b_t in FMT else rounded(values(Bh, b_t), FMT[fb], (seeds[1], ldb, b_t == DT.f32_r) if sr
                                                     else None)
    exact = alpha * (op(Aq, ta) @ op(Bq, tb)) + beta_ * values(Ch, c_t)
    if c_t in FMT:
        want = rounded(exact, FMT[c_t], (seeds[2], ldc, True) if sr else None)
    else:
        want = exact.astype(DTYPE[c_t]).astype(np.float64)
    got = values(Dd.get(), c_t)
    what = f"gemm{SUFFIX[flavour]}_ex3 {ids(combo)} {ta}{tb} m={m} n={n} k={k} sr={sr}"
    np.testing.assert_array_equal(got, want, err_msg=what)
    check_gemm_buffers(A, B, Cd, Dd, in_place)


# --- results ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("combo", COMBOS, ids=ids)
def test_every_combination(h: Any, combo: tuple[Any, ...], flavour: str) -> None:
    run(h, combo, flavour, m=5, n=6, k=7, ta="T", tb="N")


@settings(max_examples=rt.examples(40), deadline=None, derandomize=True)
@given(combo=st.sampled_from(COMBOS), flavour=st.sampled_from(FLAVOURS), m=st.integers(1, 9), n=st.integers(1, 9),
       k=st.integers(0, 8), batch=st.integers(1, 3), ta=st.sampled_from("NTC"), tb=st.sampled_from("NTC"),
       alpha=st.sampled_from([1.0, -2.0, 0.5, 0.0]), beta_=st.sampled_from([0.0, 1.0, -0.5, 2.0]),
       device=st.booleans(), seed=st.integers(0, 2**16))
def test_property(handle: Any, combo: tuple[Any, ...], flavour: str, m: int, n: int, k: int, batch: int, ta: str,
                  tb: str, alpha: float, beta_: float, device: bool, seed: int) -> None:
    set_pointer_mode(handle, PointerMode.host)
    run(handle, combo, flavour, m=m, n=n, k=k, batch=batch, ta=ta, tb=tb, alpha=alpha, beta_=beta_, device=device,
        seed=seed)


@settings(max_examples=rt.examples(25), deadline=None, derandomize=True)
@given(combo=st.sampled_from([c for c in COMBOS if c[0] not in FMT or c[1] not in FMT or c[2] in FMT]),
       flavour=st.sampled_from(FLAVOURS), seeds=st.tuples(*[st.integers(0, 2**32 - 1)] * 3), m=st.integers(1, 6),
       n=st.integers(1, 6), k=st.integers(1, 6), seed=st.integers(0, 2**16))
def test_stochastic_rounding(handle: Any, combo: tuple[Any, ...], flavour: str, seeds: tuple[int, int, int], m: int,
                             n: int, k: int, seed: int) -> None:
    # Combinations that round something into float8: a half or float operand, or a float8 D.
    with pytest.MonkeyPatch.context() as mp:
        for name, value in zip(("SR_SEED_A", "SR_SEED_B", "SR_SEED_C"), seeds, strict=True):
            mp.setenv(name, str(value))
        set_pointer_mode(handle, PointerMode.host)
        run(handle, combo, flavour, m=m, n=n, k=k, ta="N", tb="T", sr=True, seeds=seeds, seed=seed)


def test_stochastic_rounding_seeds_default_to_zero(h: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SR_SEED_A", "SR_SEED_B", "SR_SEED_C"):
        monkeypatch.delenv(name, raising=False)
    run(h, (DT.f32_r, DT.f8_r, DT.f8_r, CT.f8_f8_f32), "strided", m=6, n=5, k=4, sr=True)
    monkeypatch.setenv("SR_SEED_A", "12abc")  # strtol: the leading digits
    run(h, (DT.f32_r, DT.f8_r, DT.f8_r, CT.f8_f8_f32), "plain", m=6, n=5, k=4, sr=True, seeds=(12, 0, 0))


@pytest.mark.parametrize(("m", "n", "k"), [(1, 1, 1), (3, 2, 0), (4, 4, 1), (9, 3, 8)])
def test_small_sizes_k_zero_and_in_place(h: Any, m: int, n: int, k: int) -> None:
    for combo in [(DT.f8_r, DT.f8_r, DT.f8_r, CT.f32), (DT.f16_r, DT.f16_r, DT.f16_r, CT.bf8_bf8_f32),
                  (DT.bf8_r, DT.f8_r, DT.f32_r, CT.f32)]:
        run(h, combo, "strided", m=m, n=n, k=k, in_place=True)
        run(h, combo, "plain", m=m, n=n, k=k)


def test_saturates_and_rounds_once(h: Any) -> None:
    # 1 x 16 times 16 x 1 of 7.5s: 900 (f32), saturated to 240 in f8; 7.5 * 7.5 * 2 = 112.5 -> 112 (f8 RNE)
    for k, want_f8 in ((16, 240.0), (2, 112.0)):
        a = np.full((1, 1, k), 0x57, np.uint8)  # f8 0x57: 1.875 * 2^(10 - 8) = 7.5
        A = Dev(a, np.dtype(np.uint8), "plain", ld=1)
        B = Dev(a.transpose(0, 2, 1).copy(), np.dtype(np.uint8), "plain", ld=k)
        D = Dev(np.zeros((1, 1, 1), np.uint8), np.dtype(np.uint8), "plain", ld=1)
        blas.gemm_ex3(h, "N", "N", 1, 1, k, 1.0, A.arg, DT.f8_r, 1, B.arg, DT.f8_r, k, 0.0, None, DT.f8_r, 1, D.arg,
                      DT.f8_r, 1, CT.f32, 0, 0, 0)
        assert from_f8(D.get(), F8).item() == want_f8


def test_beta_zero_does_not_read_c_and_alpha_zero_not_a_b(h: Any) -> None:
    nan = np.full((1, 3, 3), 0x80, np.uint8)
    A = Dev(nan, np.dtype(np.uint8), "plain", ld=3)
    D = Dev(nan, np.dtype(np.uint8), "plain", ld=3)
    for c in (None, A.arg):  # beta == 0: C may be null, or hold NaNs
        blas.gemm_ex3(h, "N", "N", 3, 3, 3, 0.0, None, DT.f8_r, 3, None, DT.f8_r, 3, 0.0, c, DT.f8_r, 3, D.arg,
                      DT.f8_r, 3, CT.f32, 0, 0, 0)
        assert (D.get() == 0).all()
    C = Dev(np.full((1, 3, 3), 0x40, np.uint8), np.dtype(np.uint8), "plain", ld=3)  # 1.0
    blas.gemm_ex3(h, "N", "N", 3, 3, 3, 0.0, A.arg, DT.f8_r, 3, A.arg, DT.f8_r, 3, -2.0, C.arg, DT.f8_r, 3, D.arg,
                  DT.f8_r, 3, CT.f32, 0, 0, 0)  # alpha == 0: the NaNs of A and B are not read
    assert (from_f8(D.get(), F8) == -2.0).all()


def test_nan_operands_propagate(h: Any) -> None:
    a = np.full((1, 2, 2), 0x40, np.uint8)
    a[0, 1, 0] = 0x80
    A = Dev(a, np.dtype(np.uint8), "plain", ld=2)
    D = Dev(np.zeros((1, 2, 2), np.float32), np.dtype(np.float32), "plain", ld=2)
    blas.gemm_ex3(h, "N", "N", 2, 2, 2, 1.0, A.arg, DT.f8_r, 2, A.arg, DT.f8_r, 2, 0.0, None, DT.f32_r, 2, D.arg,
                  DT.f32_r, 2, CT.f32, 0, 0, 0)
    # A = [[1, 1], [NaN, 1]]: only A @ A's (0, 1) = 1 * 1 + 1 * 1 avoids A's (1, 0)
    assert np.isnan(D.get()[0]).tolist() == [[True, False], [True, True]]


# --- arguments -------------------------------------------------------------------------------------


@pytest.fixture
def setup(h: Any) -> dict[str, Any]:
    """A valid f8/f8 -> f32 call (m = n = k = 3) whose D holds a sentinel pattern."""
    A = Dev(np.full((1, 3, 3), 0x40, np.uint8), np.dtype(np.uint8), "plain", ld=3)
    Cd = Dev(np.ones((1, 3, 3), np.float32), np.dtype(np.float32), "plain", ld=3)
    Dd = Dev(np.ones((1, 3, 3), np.float32), np.dtype(np.float32), "plain", ld=3)
    Dd.poison()
    kw = dict(transA="N", transB="N", m=3, n=3, k=3, alpha=1.0, a=A.arg, a_type=DT.f8_r, lda=3, b=A.arg,
              b_type=DT.f8_r, ldb=3, beta=1.0, c=Cd.arg, c_type=DT.f32_r, ldc=3, d=Dd.arg, d_type=DT.f32_r, ldd=3,
              compute_type=CT.f32, algo=0, solution_index=0, flags=0)
    return {"h": h, "kw": kw, "D": Dd, "C": Cd}


ORDER = [
    # (changes, error, argument named): the first rule broken in rocBLAS's order decides.  The compute
    # type comes first (rocBLAS copies alpha and beta to the host in it: its switch knows five);
    ({"compute_type": CT.invalid, "transA": 999, "m": -1}, RocblasNotImplementedError, "compute_type"),
    ({"compute_type": 299, "transA": 999}, RocblasNotImplementedError, "compute_type"),
    ({"compute_type": DT.f32_r, "m": -1}, RocblasNotImplementedError, "compute_type"),  # 151 is no computetype
    # then gemm_ex's rules, transposes to d_type, in gemm_ex's order (validateArgs);
    *[case for case in GEMM_ORDER if case[1] is not RocblasNotImplementedError],
    # then the types, then the pointers' alignment.
    ({"d_type": DT.f16_r, "a": "misaligned"}, RocblasNotImplementedError, "compute_type"),
    ({"compute_type": CT.f8_f8_f32}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.f16_r, "b_type": DT.f16_r}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.f32_r, "b_type": DT.bf8_r, "compute_type": CT.f8_bf8_f32, "a": "misaligned"},
     RocblasInvalidSizeError, "a"),
]


@pytest.mark.parametrize(("changes", "error", "named"), ORDER, ids=range(len(ORDER)))
def test_check_order(setup: dict[str, Any], changes: dict[str, Any], error: type[Exception], named: str) -> None:
    kw = dict(setup["kw"])
    for key, value in changes.items():
        kw[key] = {"C": kw["c"], "misaligned": kw["a"] + 2}.get(value, value) if isinstance(value, str) and \
            key in ("a", "d") else value
    expect(error, blas.gemm_ex3, setup["h"], arg=named, **kw)
    setup["D"].check()
    setup["C"].check()


def test_quick_returns_check_nothing_more(setup: dict[str, Any]) -> None:
    kw = dict(setup["kw"], a=None, b=None, c=None, d=None, alpha=None, beta=None, a_type=DT.f64_r)
    for sizes in ({"m": 0}, {"n": 0}):
        assert blas.gemm_ex3(setup["h"], **{**kw, **sizes}) is None
    assert blas.gemm_strided_batched_ex3(setup["h"], **{**kw, "stride_a": 0, "stride_b": 0, "stride_c": 0,
                                                         "stride_d": 0, "batch_count": 0}) is None
    expect(RocblasInvalidSizeError, blas.gemm_batched_ex3, setup["h"], arg="batch_count", **{**kw, "batch_count": -1})


def test_batched_entries_are_checked_for_alignment(h: Any) -> None:
    x = Dev(np.ones((2, 2, 2), np.float32), np.dtype(np.float32), "batched", ld=2)
    b = Dev(np.full((2, 2, 2), 0x40, np.uint8), np.dtype(np.uint8), "batched", ld=2)
    bad = rm.to_device(np.array([x.parts[0].ptr, x.parts[1].ptr + 2], dtype=np.uint64))
    D = Dev(np.ones((2, 2, 2), np.float32), np.dtype(np.float32), "batched", ld=2)
    D.poison()
    kw = dict(transA="N", transB="N", m=2, n=2, k=2, alpha=1.0, a=bad, a_type=DT.f32_r, lda=2, b=b.arg,
              b_type=DT.bf8_r, ldb=2, beta=0.0, c=None, c_type=DT.f32_r, ldc=2, d=D.arg, d_type=DT.f32_r, ldd=2,
              batch_count=2, compute_type=CT.f8_bf8_f32, algo=0, solution_index=0, flags=0)
    expect(RocblasInvalidSizeError, blas.gemm_batched_ex3, h, arg="a", **kw)
    blas.gemm_batched_ex3(h, **{**kw, "a": x.arg})
    assert (D.get() == 2).all()  # 1 rounded to f8, times bf8 1.0, summed over k = 2


def test_arch_mismatch_comes_first(setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    props = setup["h"].device.properties
    for arch, ok in (("gfx90a:sramecc+:xnack-", False), ("gfx1100", False), ("gfx908", False), ("gfx940", True)):
        monkeypatch.setattr(setup["h"].device, "properties", type(props)(**{**vars(props), "gcnArchName": arch}))
        kw = dict(setup["kw"], compute_type=7, m=-1)  # both wrong, but checked after the device
        if ok:
            expect(RocblasNotImplementedError, blas.gemm_ex3, setup["h"], arg="compute_type", **kw)
        else:
            expect(RocblasArchMismatchError, blas.gemm_ex3, setup["h"], **kw)
    assert [beta.arch_number(a) for a in ("gfx942:sramecc+:xnack-", "gfx90a", "gfx1100")] == [942, 910, 1100]


def test_size_query(setup: dict[str, Any]) -> None:
    h, kw = setup["h"], setup["kw"]
    blas.start_device_memory_size_query(h)
    # f8 inputs need no workspace; floats rounded into f8 do (one byte an element), unless the
    # small-matrix kernel rounds them as it reads; pointers are not checked in a query.
    assert blas.gemm_ex3(h, **{**kw, "a": None}) == RocblasStatus.size_unchanged
    quantized = dict(kw, a_type=DT.f32_r, b_type=DT.bf8_r, compute_type=CT.f8_bf8_f32, m=100, n=50, k=30, lda=100,
                     ldb=30, ldc=100, ldd=100, a=None, c=None)
    assert blas.gemm_ex3(h, **quantized) == RocblasStatus.size_increased
    assert blas.gemm_ex3(h, **{**quantized, "m": 3, "lda": 3, "ldc": 3, "ldd": 3}) == RocblasStatus.size_unchanged
    expect(RocblasNotImplementedError, blas.gemm_ex3, h, arg="compute_type", **{**kw, "c_type": DT.f16_r})
    expect(RocblasInvalidSizeError, blas.gemm_ex3, h, arg="m", **{**kw, "m": -1})
    assert blas.stop_device_memory_size_query(h) >= 100 * 30
    setup["D"].check()


@settings(max_examples=rt.examples(30), deadline=None, derandomize=True)
@given(fa=st.sampled_from([DT.f8_r, DT.bf8_r]), fb=st.sampled_from([DT.f8_r, DT.bf8_r]),
       out=st.sampled_from([DT.f32_r, DT.f16_r]), m=st.integers(1, 12), n=st.integers(1, 12), k=st.integers(1, 40),
       seed=st.integers(0, 2**16))
def test_full_range_codes_against_float64(handle: Any, fa: DT, fb: DT, out: DT, m: int, n: int, k: int,
                                          seed: int) -> None:
    # Every finite code (subnormals and the largest values too), float32 sums against float64: the error
    # is float32's, relative to the size of the terms summed, then the rounding into D's type.
    rng = np.random.default_rng(seed)
    finite = [np.flatnonzero(np.isfinite(VALUES[FMT[t]])).astype(np.uint8) for t in (fa, fb)]
    a = np.asfortranarray(rng.choice(finite[0], size=(m, k)))
    b = np.asfortranarray(rng.choice(finite[1], size=(k, n)))
    A, B = rm.to_device(a), rm.to_device(b)
    D = rm.to_device(np.zeros((m, n), DTYPE[out], order="F"))
    blas.gemm_ex3(handle, "N", "N", m, n, k, 1.0, A, fa, m, B, fb, k, 0.0, None, out, m, D, out, m, CT.f32, 0, 0, 0)
    av, bv = from_f8(a, FMT[fa]).astype(np.float64), from_f8(b, FMT[fb]).astype(np.float64)
    want = av @ bv
    scale = np.abs(av) @ np.abs(bv)
    got = D.get().astype(np.float64)
    with np.errstate(over="ignore"):
        stored = want.astype(DTYPE[out]).astype(np.float64)
    if out is DT.f16_r:  # half rounds to inf from 65520 on: the same infinities (but within the sum's error of it)
        near = np.abs(np.abs(want) - 65520.0) <= k * 2.0**-23 * scale
        assert np.array_equal(np.isinf(got) | near, np.isinf(stored) | near)
        keep = np.isfinite(stored) & np.isfinite(got)
        got, want, scale = got[keep], want[keep], scale[keep]
    eps = float(np.finfo(DTYPE[out]).eps)
    assert np.all(np.abs(got - want) <= k * 2.0**-23 * scale + eps * np.abs(want) + 2.0**-24), (fa, fb, out, m, n, k)
