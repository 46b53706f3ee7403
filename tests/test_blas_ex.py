"""rocBLAS _ex functions and hgemm (rocmath.blas.ex).

Accuracy is checked against numpy references computed in float64/complex128 on host
copies of the inputs as stored (half and bfloat16 decoded), with the tolerance of the
output's storage precision (rocmath.testing.tol); int8 -> int32 gemm must be exact.
Every supported type combination runs in the three flavours; operands live in poisoned
padded buffers (padding, batch gaps, margins must keep their sentinel bits; inputs stay
unchanged bit for bit; outputs are poisoned and must be written).  Argument checking
(status, argument named, rocBLAS's check order, outputs untouched) is tested separately.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath.blas import Datatype as DT
from rocmath.blas import GeamExOperation, PointerMode, _manifest, create_handle, destroy_handle, ex, set_pointer_mode
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasNotImplementedError,
)
from rocmath.precision import BF16, C, D, H, Precision, S, Z, from_bfloat16, to_bfloat16

FLAVOURS = ("plain", "batched", "strided")
SUFFIX = {"plain": "", "batched": "_batched", "strided": "_strided_batched"}
PREC: dict[DT, Precision] = {DT.f16_r: H, DT.bf16_r: BF16, DT.f32_r: S, DT.f64_r: D, DT.f32_c: C, DT.f64_c: Z,
                             DT.i8_r: ex.I8, DT.i32_r: ex.I32}
GEMM_COMBOS = [(DT.f64_r, DT.f64_r, DT.f64_r), (DT.f32_r, DT.f32_r, DT.f32_r), (DT.f16_r, DT.f16_r, DT.f16_r),
               (DT.f16_r, DT.f16_r, DT.f32_r), (DT.f16_r, DT.f32_r, DT.f32_r), (DT.bf16_r, DT.bf16_r, DT.f32_r),
               (DT.bf16_r, DT.f32_r, DT.f32_r), (DT.i8_r, DT.i32_r, DT.i32_r), (DT.f32_c, DT.f32_c, DT.f32_c),
               (DT.f64_c, DT.f64_c, DT.f64_c)]
#: (alpha, beta) per compute type; half ones are rounded to half by the call.
SCALARS = {H: (0.7, -1.25), S: (1.3, -0.6), D: (1.3, -0.6), ex.I32: (3, -2), C: (0.8 - 0.6j, 0.5 + 0.25j),
           Z: (0.8 - 0.6j, 0.5 + 0.25j)}


def ids(combo: tuple[DT, ...]) -> str:
    return "-".join(t.name for t in combo)


@pytest.fixture(scope="module")
def handle() -> Any:
    hnd = create_handle()
    yield hnd
    destroy_handle(hnd)


# --- data ------------------------------------------------------------------------------------------


def store(x: Any, p: Precision) -> np.ndarray:
    """float64/complex128 host values in p's storage type (bfloat16 as its bits)."""
    x = np.asarray(x)
    if p is BF16:
        return to_bfloat16(x.astype(np.float32))
    return x.astype(p.dtype)


def wide(x: Any, p: Precision) -> np.ndarray:
    """Stored values as float64 (complex128 for complex precisions)."""
    x = np.asarray(x)
    if p is BF16:
        return from_bfloat16(x).astype(np.float64)
    return x.astype(np.complex128 if p.is_complex else np.float64)


def rounded(value: Any, p: Precision) -> Any:
    """A scalar as the call sees it: rounded to p."""
    return wide(store(np.array([value]), p), p)[0]


def rnd(rng: np.random.Generator, shape: tuple[int, ...], p: Precision) -> np.ndarray:
    """Random values in p's storage type."""
    if p is ex.I8:
        return rng.integers(-128, 128, shape).astype(np.int8)
    if p is ex.I32:
        return rng.integers(-1000, 1000, shape).astype(np.int32)
    x = rng.standard_normal(shape)
    if p.is_complex:
        x = x + 1j * rng.standard_normal(shape)
    return store(x, p)


def op(x: np.ndarray, t: str) -> np.ndarray:
    if t == "N":
        return x
    xt = np.swapaxes(x, -1, -2)
    return xt.conj() if t == "C" else xt


_OPEN: list[Any] = []


@pytest.fixture(autouse=True)
def _close_buffers() -> Any:
    """Free every padded buffer when its test ends, not whenever the garbage collector runs:
    a padded buffer's finalizer waits for the device, and if the collector runs it inside a
    kernel launched inline on this thread (during a numba compilation), that wait never ends."""
    yield
    while _OPEN:
        _OPEN.pop().close()


def entries(ref: np.ndarray, flavour: str) -> np.ndarray:
    """The batch entries a flavour's call covers: plain calls take the first one."""
    return ref[:1] if flavour == "plain" else ref


class Dev:
    """A host stack in device memory in one flavour, padding and batch gaps poisoned: matrices
    ``(batch, rows, cols)`` with leading dimension ``ld``, or vectors ``(batch, n)`` with ``inc``.
    ``arg`` is what the call gets: the first entry's pointer, or a device array of pointers.  ``p``: a
    precision or a dtype; ``sentinel``: the poison value (default the dtype's)."""

    def __init__(self, host: np.ndarray, p: Any, flavour: str, *, ld: int | None = None,
                 inc: int | None = None, gap: int = 3, sentinel: Any = None):
        self.p, self.flavour, self.shape = p, flavour, host.shape
        if inc is not None:
            self.ld, per = inc, abs(inc) * host.shape[1]

            def make(x: np.ndarray, **kw: Any) -> Any:
                return rt.poisoned_device_vector(x, inc, precision=p, sentinel=sentinel, **kw)
        else:
            assert ld is not None
            self.ld, per = ld, ld * host.shape[2]

            def make(x: np.ndarray, **kw: Any) -> Any:
                return rt.poisoned_device_matrix(x, ld, precision=p, sentinel=sentinel, **kw)
        self.stride = 0
        if flavour == "plain":
            self.parts = [make(host[0])]
            self.arg: Any = self.parts[0].ptr
        elif flavour == "strided":
            self.stride = per + gap
            self.parts = [make(host, stride=self.stride)]
            self.arg = self.parts[0].ptr
        else:
            self.parts = [make(e) for e in host]
            self.arg = rm.to_device(np.array([q.ptr for q in self.parts], dtype=np.uint64))
        _OPEN.extend(self.parts)

    @property
    def tail(self) -> tuple[int, ...]:
        """The stride argument a strided call takes after the array's leading dimension (none otherwise)."""
        return (self.stride,) if self.flavour == "strided" else ()

    def get(self) -> np.ndarray:
        if self.flavour == "strided":
            return self.parts[0].get()
        return np.stack([q.get() for q in self.parts])

    def poison(self) -> None:
        for q in self.parts:
            q.poison()

    def check(self, *, logical: bool = False) -> None:
        for q in self.parts:
            q.check_untouched(logical=logical)

    def written(self) -> None:
        for q in self.parts:
            rt.assert_written(q)


def invoke(h: Any, name: str, flavour: str, batch: int, arrays: dict[str, tuple[Any, str, str]], **kw: Any) -> Any:
    """Call ``<name><flavour>_ex`` by keyword: each array gives its pointer, leading dimension or
    increment (under the name given) and, strided, its stride."""
    fn = getattr(ex, f"{name}{SUFFIX[flavour]}_ex")
    for arg, (dev, ld_name, stride_name) in arrays.items():
        kw[arg] = None if dev is None else dev.arg
        if dev is not None:
            kw[ld_name] = dev.ld
        if flavour == "strided":
            kw[stride_name] = 0 if dev is None else dev.stride
    if flavour != "plain":
        kw["batch_count"] = batch
    return fn(h, **kw)


def gemm_arrays(A: Any, B: Any, Cd: Any, Dd: Any) -> dict[str, tuple[Any, str, str]]:
    return {"a": (A, "lda", "stride_a"), "b": (B, "ldb", "stride_b"), "c": (Cd, "ldc", "stride_c"),
            "d": (Dd, "ldd", "stride_d")}


def device_scalar(value: Any, p: Precision) -> Any:
    return rm.to_device(store(np.array([value]), p))


# --- gemm_ex ---------------------------------------------------------------------------------------


def run_gemm_ex(h: Any, combo: tuple[DT, DT, DT], flavour: str, *, m: int, n: int, k: int, batch: int, ta: str,
                tb: str, in_place: bool, device: bool = False, seed: int = 0) -> None:
    a_t, c_t, comp_t = combo
    pa, pc, pcomp = PREC[a_t], PREC[c_t], PREC[comp_t]
    batch = 1 if flavour == "plain" else batch
    rng = np.random.default_rng(seed)
    alpha, beta = SCALARS[pcomp]
    ra, ca = (m, k) if ta == "N" else (k, m)
    rb, cb = (k, n) if tb == "N" else (n, k)
    Ah, Bh, Ch = rnd(rng, (batch, ra, ca), pa), rnd(rng, (batch, rb, cb), pa), rnd(rng, (batch, m, n), pc)
    A = Dev(Ah, pa, flavour, ld=ra + 2)
    B = Dev(Bh, pa, flavour, ld=rb + 1)
    Cd = Dev(Ch, pc, flavour, ld=m + 3)
    Dd = Cd if in_place else Dev(Ch, pc, flavour, ld=m + 1, gap=5)
    if not in_place:
        Dd.poison()
    if device:
        set_pointer_mode(h, PointerMode.device)
        alpha_arg, beta_arg = device_scalar(alpha, pcomp), device_scalar(beta, pcomp)
    else:
        alpha_arg, beta_arg = alpha, beta
    invoke(h, "gemm", flavour, batch, gemm_arrays(A, B, Cd, Dd), transA=ta, transB=tb, m=m, n=n, k=k,
           alpha=alpha_arg, a_type=a_t, b_type=a_t, beta=beta_arg, c_type=c_t, d_type=c_t, compute_type=comp_t,
           algo=0, solution_index=0, flags=0)
    set_pointer_mode(h, PointerMode.host)
    got = Dd.get()
    al, be = rounded(alpha, pcomp), rounded(beta, pcomp)
    Aw, Bw, Cw = wide(Ah, pa), wide(Bh, pa), wide(Ch, pc)
    ref = al * (op(Aw, ta) @ op(Bw, tb)) + be * Cw
    what = f"gemm{SUFFIX[flavour]}_ex {ids(combo)} {ta}{tb} in_place={in_place}"
    if pc is ex.I32:
        np.testing.assert_array_equal(got, ref.astype(np.int64), err_msg=what)
    else:
        scale = float((abs(al) * (np.abs(op(Aw, ta)) @ np.abs(op(Bw, tb))) + abs(be) * np.abs(Cw)).max())
        rt.assert_close(wide(got, pc), ref, pc, "reduction", k, scale=scale, err_msg=what)
    check_gemm_buffers(A, B, Cd, Dd, in_place)


def check_gemm_buffers(A: Dev, B: Dev, Cd: Dev, Dd: Dev, in_place: bool) -> None:
    """After a gemm_ex-like call: the inputs unchanged (C too when D is apart), D written, and
    every buffer's padding, gaps and margins intact."""
    A.check(logical=True)
    B.check(logical=True)
    if not in_place:
        Cd.check(logical=True)
        Dd.written()
    Dd.check()


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("combo", GEMM_COMBOS, ids=ids)
def test_gemm_ex_every_combination(h: Any, combo: tuple[DT, DT, DT], flavour: str) -> None:
    """Every supported combination, D apart from C and D == C, padded leading dimensions,
    transposes (conjugate ones for complex types), 17 x 18 (the BLAS path)."""
    complex_ = PREC[combo[0]].is_complex
    for i, in_place in enumerate((False, True)):
        ta, tb = (("C", "T") if complex_ else ("T", "N")) if i else ("N", "C" if complex_ else "T")
        run_gemm_ex(h, combo, flavour, m=17, n=18, k=6, batch=2, ta=ta, tb=tb, in_place=in_place, seed=i)


@pytest.mark.parametrize("combo", GEMM_COMBOS, ids=ids)
def test_gemm_ex_device_pointer_mode(h: Any, combo: tuple[DT, DT, DT]) -> None:
    """alpha and beta in device memory, of the compute type (half values for an f16 compute type)."""
    for in_place in (False, True):
        run_gemm_ex(h, combo, "plain", m=18, n=17, k=5, batch=1, ta="N", tb="N", in_place=in_place, device=True)
    run_gemm_ex(h, combo, "batched", m=17, n=17, k=4, batch=2, ta="T", tb="N", in_place=False, device=True)


@pytest.mark.parametrize(("m", "n", "k"), [(1, 1, 1), (3, 2, 5), (4, 3, 0), (2, 5, 1)])
@pytest.mark.parametrize("combo", [(DT.f32_r, DT.f32_r, DT.f32_r), (DT.f16_r, DT.f32_r, DT.f32_r)], ids=ids)
def test_gemm_ex_small_sizes_and_k_zero(h: Any, combo: tuple[DT, DT, DT], m: int, n: int, k: int) -> None:
    """Tiny problems (the loop kernel) and k == 0 (D := beta C, no quick return)."""
    for flavour in ("plain", "strided"):
        for in_place in (False, True):
            run_gemm_ex(h, combo, flavour, m=m, n=n, k=k, batch=2, ta="N", tb="T", in_place=in_place)


@pytest.mark.parametrize("combo", [(DT.f32_r, DT.f32_r, DT.f32_r), (DT.f16_r, DT.f16_r, DT.f32_r),
                                   (DT.bf16_r, DT.bf16_r, DT.f32_r), (DT.f64_c, DT.f64_c, DT.f64_c),
                                   (DT.i8_r, DT.i32_r, DT.i32_r)], ids=ids)
@pytest.mark.parametrize("flavour", ["plain", "strided"])
def test_gemm_ex_beta_zero_does_not_read_c(h: Any, combo: tuple[DT, DT, DT], flavour: str) -> None:
    """beta == 0: C, all NaN (or garbage), is not read, and may be null; D is written."""
    a_t, c_t, comp_t = combo
    pa, pc = PREC[a_t], PREC[c_t]
    rng = np.random.default_rng(1)
    m, n, k, batch = 18, 17, 3, 1 if flavour == "plain" else 2
    Ah, Bh = rnd(rng, (batch, m, k), pa), rnd(rng, (batch, k, n), pa)
    A, B = Dev(Ah, pa, flavour, ld=m), Dev(Bh, pa, flavour, ld=k + 1)
    alpha = SCALARS[PREC[comp_t]][0]
    ref = rounded(alpha, PREC[comp_t]) * (wide(Ah, pa) @ wide(Bh, pa))
    for c_null in (False, True):
        Cd = None if c_null else Dev(rnd(rng, (batch, m, n), pc), pc, flavour, ld=m)
        if Cd is not None:
            Cd.poison()
        Dd = Dev(np.zeros((batch, m, n), pc.dtype), pc, flavour, ld=m + 2)
        Dd.poison()
        invoke(h, "gemm", flavour, batch, gemm_arrays(A, B, Cd, Dd), transA="N", transB="N", m=m, n=n, k=k,
               alpha=alpha, a_type=a_t, b_type=a_t, beta=0, c_type=c_t, d_type=c_t, compute_type=comp_t, algo=0,
               solution_index=0, flags=0, **({"ldc": m} if c_null else {}))
        got = Dd.get()
        if pc is ex.I32:
            np.testing.assert_array_equal(got, ref.astype(np.int64))
        else:
            rt.assert_close(wide(got, pc), ref, pc, "reduction", k, scale=float(np.abs(ref).max()))
        Dd.written()
        Dd.check()
        if Cd is not None:
            Cd.check(logical=True)


@pytest.mark.parametrize("combo", [(DT.f32_r, DT.f32_r, DT.f32_r), (DT.bf16_r, DT.f32_r, DT.f32_r),
                                   (DT.i8_r, DT.i32_r, DT.i32_r)], ids=ids)
def test_gemm_ex_alpha_zero_does_not_read_a_b(h: Any, combo: tuple[DT, DT, DT]) -> None:
    """alpha == 0: A and B may be null (D := beta C); C == D with beta == 1 leaves it as it was."""
    a_t, c_t, comp_t = combo
    pc = PREC[c_t]
    rng = np.random.default_rng(2)
    m, n = 18, 3
    Ch = rnd(rng, (1, m, n), pc)
    Cd = Dev(Ch, pc, "plain", ld=m + 1)
    Dd = Dev(np.zeros((1, m, n), pc.dtype), pc, "plain", ld=m)
    beta = SCALARS[PREC[comp_t]][1]
    invoke(h, "gemm", "plain", 1, gemm_arrays(None, None, Cd, Dd), transA="N", transB="N", m=m, n=n, k=4, alpha=0,
           a_type=a_t, b_type=a_t, beta=beta, c_type=c_t, d_type=c_t, compute_type=comp_t, algo=0,
           solution_index=0, flags=0, lda=m, ldb=4)
    ref = rounded(beta, PREC[comp_t]) * wide(Ch, pc)
    if pc is ex.I32:
        np.testing.assert_array_equal(Dd.get(), ref.astype(np.int64))
    else:
        rt.assert_close(wide(Dd.get(), pc), ref, pc, "elementwise")
    invoke(h, "gemm", "plain", 1, gemm_arrays(None, None, Cd, Cd), transA="N", transB="N", m=m, n=n, k=4, alpha=0,
           a_type=a_t, b_type=a_t, beta=1, c_type=c_t, d_type=c_t, compute_type=comp_t, algo=0, solution_index=0,
           flags=0, lda=m, ldb=4)
    Cd.check(logical=True)


def test_gemm_ex_int8_is_exact_and_wraps_like_int32(h: Any) -> None:
    """i8 x i8 -> i32: exact at the int8 extremes, and alpha * sum wraps modulo 2^32 as int32 does."""
    k = 40
    A = Dev(np.full((1, 1, k), -128, np.int8), ex.I8, "plain", ld=1)
    B = Dev(np.full((1, k, 1), -128, np.int8), ex.I8, "plain", ld=k)
    Dd = Dev(np.zeros((1, 1, 1), np.int32), ex.I32, "plain", ld=1)
    kw = dict(transA="N", transB="N", m=1, n=1, k=k, a_type=DT.i8_r, b_type=DT.i8_r, c_type=DT.i32_r,
              d_type=DT.i32_r, compute_type=DT.i32_r, algo=0, solution_index=0, flags=0, ldc=1)
    invoke(h, "gemm", "plain", 1, gemm_arrays(A, B, None, Dd), alpha=1, beta=0, **kw)
    assert int(Dd.get()[0, 0, 0]) == k * 128 * 128
    invoke(h, "gemm", "plain", 1, gemm_arrays(A, B, None, Dd), alpha=2**20, beta=0, **kw)
    expected = (k * 128 * 128 * 2**20 + 2**31) % 2**32 - 2**31
    assert int(Dd.get()[0, 0, 0]) == expected


# --- hgemm -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["host", "device"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_hgemm(h: Any, flavour: str, mode: str) -> None:
    rng = np.random.default_rng(3)
    m, n, k, batch = 17, 18, 9, 2
    Ah, Bh, Ch = rnd(rng, (batch, k, m), H), rnd(rng, (batch, k, n), H), rnd(rng, (batch, m, n), H)
    A, B, Cd = Dev(Ah, H, flavour, ld=k + 1), Dev(Bh, H, flavour, ld=k), Dev(Ch, H, flavour, ld=m + 2)
    alpha, beta = 0.1, -0.3  # not half values: the call rounds them
    args: list[Any] = ["T", "N", m, n, k, alpha, A.arg, A.ld]
    if mode == "device":
        set_pointer_mode(h, PointerMode.device)
        args[5] = device_scalar(alpha, H)
    args += [*((A.stride,) if flavour == "strided" else ()), B.arg, B.ld, *((B.stride,) if flavour == "strided"
                                                                            else ())]
    args += [device_scalar(beta, H) if mode == "device" else beta, Cd.arg, Cd.ld]
    args += [*((Cd.stride,) if flavour == "strided" else ()), *((batch,) if flavour != "plain" else ())]
    getattr(ex, f"hgemm{SUFFIX[flavour]}")(h, *args)
    set_pointer_mode(h, PointerMode.host)
    ref = rounded(alpha, H) * (op(wide(Ah, H), "T") @ wide(Bh, H)) + rounded(beta, H) * wide(Ch, H)
    got = Cd.get()
    assert got.dtype == np.float16
    ref = entries(ref, flavour)
    rt.assert_close(got, ref, H, "reduction", k, scale=float(np.abs(ref).max()))
    A.check(logical=True)
    B.check(logical=True)
    Cd.check()


def test_hgemm_accumulates_in_float32_and_rounds_once(h: Any) -> None:
    """2051 products of 1: a float32 sum is 2051, rounded once to half 2052 (ties to even); a
    half accumulator would stop at 2048.  gemm_ex f16/f16/f16 with an f16 compute type alike."""
    k = 2051
    A = Dev(np.ones((1, 1, k), np.float16), H, "plain", ld=1)
    B = Dev(np.ones((1, k, 1), np.float16), H, "plain", ld=k)
    Cd = Dev(np.zeros((1, 1, 1), np.float16), H, "plain", ld=1)
    ex.hgemm(h, "N", "N", 1, 1, k, 1.0, A.arg, 1, B.arg, k, 0.0, Cd.arg, 1)
    assert Cd.get()[0, 0, 0] == np.float16(2052)
    Dd = Dev(np.zeros((1, 1, 1), np.float16), H, "plain", ld=1)
    Dd.poison()
    invoke(h, "gemm", "plain", 1, gemm_arrays(A, B, None, Dd), transA="N", transB="N", m=1, n=1, k=k, alpha=1,
           a_type=DT.f16_r, b_type=DT.f16_r, beta=0, c_type=DT.f16_r, d_type=DT.f16_r, compute_type=DT.f16_r,
           algo=0, solution_index=0, flags=0, ldc=1)
    assert Dd.get()[0, 0, 0] == np.float16(2052)


# --- Level-1 _ex -----------------------------------------------------------------------------------

AXPY_COMBOS = sorted(ex.AXPY_EX_TYPES)
SCAL_COMBOS = sorted(ex.SCAL_EX_TYPES)
DOT_COMBOS = sorted(ex.DOT_EX_TYPES)
NRM2_COMBOS = sorted(ex.NRM2_EX_TYPES)
ROT_COMBOS = sorted(ex.ROT_EX_TYPES)
L1_N, L1_BATCH = 37, 2


def scalar_value(p: Precision, which: int = 0) -> Any:
    values = (0.7 - 0.4j, -1.3 + 0.2j) if p.is_complex else (0.7, -1.3)
    return values[which]


def host_vec(rng: np.random.Generator, p: Precision) -> np.ndarray:
    return rnd(rng, (L1_BATCH, L1_N), p)


def incs(flavour: str) -> tuple[int, int]:
    return {"plain": (2, -1), "batched": (1, 3), "strided": (-2, 1)}[flavour]


@pytest.mark.parametrize("combo", AXPY_COMBOS, ids=ids)
def test_axpy_ex(h: Any, combo: tuple[DT, ...]) -> None:
    pa, px, py, _ = (PREC[t] for t in combo)
    rng = np.random.default_rng(4)
    alpha = scalar_value(pa)
    for flavour in FLAVOURS:
        incx, incy = incs(flavour)
        xh, yh = host_vec(rng, px), host_vec(rng, py)
        x, y = Dev(xh, px, flavour, inc=incx), Dev(yh, py, flavour, inc=incy)
        invoke(h, "axpy", flavour, L1_BATCH, {"x": (x, "incx", "stridex"), "y": (y, "incy", "stridey")}, n=L1_N,
               alpha=alpha, alpha_type=combo[0], x_type=combo[1], y_type=combo[2], execution_type=combo[3])
        al = rounded(alpha, pa)
        ref = wide(yh, py) + al * wide(xh, px)
        scale = float((np.abs(wide(yh, py)) + abs(al) * np.abs(wide(xh, px))).max())
        rt.assert_close(wide(y.get(), py), entries(ref, flavour), py, "elementwise", scale=scale,
                        err_msg=f"{flavour} {ids(combo)}")
        x.check(logical=True)
        y.check()


@pytest.mark.parametrize("combo", SCAL_COMBOS, ids=ids)
def test_scal_ex(h: Any, combo: tuple[DT, ...]) -> None:
    pa, px, _ = (PREC[t] for t in combo)
    rng = np.random.default_rng(5)
    alpha = scalar_value(pa)
    for flavour in FLAVOURS:
        xh = host_vec(rng, px)
        x = Dev(xh, px, flavour, inc=2)
        invoke(h, "scal", flavour, L1_BATCH, {"x": (x, "incx", "stridex")}, n=L1_N, alpha=alpha,
               alpha_type=combo[0], x_type=combo[1], execution_type=combo[2])
        ref = rounded(alpha, pa) * wide(xh, px)
        rt.assert_close(wide(x.get(), px), entries(ref, flavour), px, "elementwise", err_msg=f"{flavour} {ids(combo)}")
        x.check()


@pytest.mark.parametrize("conjugate", [False, True])
@pytest.mark.parametrize("combo", DOT_COMBOS, ids=ids)
def test_dot_ex(h: Any, combo: tuple[DT, ...], conjugate: bool) -> None:
    px, py, pr, _ = (PREC[t] for t in combo)
    rng = np.random.default_rng(6)
    for flavour in FLAVOURS:
        incx, incy = incs(flavour)
        xh, yh = host_vec(rng, px), host_vec(rng, py)
        x, y = Dev(xh, px, flavour, inc=incx), Dev(yh, py, flavour, inc=incy)
        got = invoke(h, "dotc" if conjugate else "dot", flavour, L1_BATCH,
                     {"x": (x, "incx", "stride_x"), "y": (y, "incy", "stride_y")}, n=L1_N, x_type=combo[0],
                     y_type=combo[1], result_type=combo[2], execution_type=combo[3])
        xw, yw = wide(xh, px), wide(yh, py)
        ref = ((xw.conj() if conjugate else xw) * yw).sum(axis=1)
        got = np.atleast_1d(np.asarray(got))
        if pr is BF16:
            got = from_bfloat16(to_bfloat16(got))  # the float32 value of a bfloat16
        assert got.dtype == (np.float32 if pr is BF16 else pr.dtype)
        scale = float((np.abs(xw) * np.abs(yw)).sum(axis=1).max())
        rt.assert_close(got, entries(ref, flavour), pr, "reduction", L1_N, scale=scale,
                        err_msg=f"{flavour} {ids(combo)}")
        x.check(logical=True)
        y.check(logical=True)


def test_dot_ex_computes_in_the_execution_type(h: Any) -> None:
    """f32 inputs, f64 result and execution: products and sums in double, not float."""
    xh = np.array([[1 + 2.0**-20, 2.0**20, -(2.0**20)]], dtype=np.float32)
    x = Dev(xh, S, "plain", inc=1)
    got = ex.dot_ex(h, 3, x.arg, DT.f32_r, 1, x.arg, DT.f32_r, 1, None, DT.f64_r, DT.f64_r)
    assert isinstance(got, np.float64)
    assert got == float(xh.astype(np.float64)[0] @ xh.astype(np.float64)[0])


@pytest.mark.parametrize("combo", NRM2_COMBOS, ids=ids)
def test_nrm2_ex(h: Any, combo: tuple[DT, ...]) -> None:
    px, pr, _ = (PREC[t] for t in combo)
    rng = np.random.default_rng(7)
    for flavour in FLAVOURS:
        xh = host_vec(rng, px)
        x = Dev(xh, px, flavour, inc=2)
        got = invoke(h, "nrm2", flavour, L1_BATCH, {"x": (x, "incx", "stride_x")}, n=L1_N, x_type=combo[0],
                     result_type=combo[1], execution_type=combo[2])
        ref = np.linalg.norm(wide(xh, px), axis=1)
        got = np.atleast_1d(np.asarray(got, dtype=np.float64))
        rt.assert_close(got, entries(ref, flavour), pr, "reduction", L1_N,
                        err_msg=f"{flavour} {ids(combo)}")
        x.check(logical=True)


@pytest.mark.parametrize("combo", ROT_COMBOS, ids=ids)
def test_rot_ex(h: Any, combo: tuple[DT, ...]) -> None:
    px, py, pcs, _ = (PREC[t] for t in combo)
    rng = np.random.default_rng(8)
    cv, sv = (0.6 + 5j, 0.8 - 0.1j) if pcs.is_complex else (0.6, 0.8)  # c's imaginary part is ignored
    for flavour in FLAVOURS:
        incx, incy = incs(flavour)
        xh, yh = host_vec(rng, px), host_vec(rng, py)
        x, y = Dev(xh, px, flavour, inc=incx), Dev(yh, py, flavour, inc=incy)
        invoke(h, "rot", flavour, L1_BATCH, {"x": (x, "incx", "stride_x"), "y": (y, "incy", "stride_y")}, n=L1_N,
               c=cv, s=sv, x_type=combo[0], y_type=combo[1], cs_type=combo[2], execution_type=combo[3])
        c_r, s_r = np.real(rounded(cv, pcs)), rounded(sv, pcs)
        xw, yw = wide(xh, px), wide(yh, py)
        scale = float((np.abs(xw) + np.abs(yw)).max()) * 2
        rt.assert_close(wide(x.get(), px), entries(c_r * xw + s_r * yw, flavour), px, "elementwise", scale=scale)
        rt.assert_close(wide(y.get(), py), entries(c_r * yw - np.conj(s_r) * xw, flavour), py, "elementwise",
                        scale=scale)
        x.check()
        y.check()


def _storage_round(v: np.ndarray, p: Precision) -> np.ndarray:
    """float32 values rounded to p's storage type (numpy's float16 cast; rocBLAS's float_to_bfloat16), as float32."""
    with np.errstate(over="ignore"):
        return wide(store(v, p), p).astype(np.float32)


@settings(max_examples=rt.examples(40), deadline=None, derandomize=True)
@given(p=st.sampled_from((H, BF16)), seed=st.integers(0, 2**32 - 1), strided=st.booleans())
def test_rot_ex_rounds_each_product_to_the_storage_type(handle: Any, p: Precision, seed: int, strided: bool) -> None:
    """rot_ex of half/bfloat16 data multiplies in the storage type (rocBLAS multiplies two halves, or two
    bfloat16s, then widens to the float32 execution type): each product rounded, overflowing to inf
    past the type's range (300 * 300 in half), the sum and difference in float32, then rounded once more.
    Compared bit for bit with numpy products rounded so; magnitudes near the type's limits (subnormal
    products, overflow) included."""
    rng = np.random.default_rng(seed)
    dt = DT.f16_r if p is H else DT.bf16_r
    n, batch = 37, 3 if strided else 1
    limit = 2.0**15 if p is H else 2.0**127
    mags = np.array([limit ** -1.2, limit ** -0.6, 1.0, limit ** 0.3, limit ** 0.55, limit ** 0.9])

    def values(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * rng.choice(mags, shape)).astype(np.float32)

    xh, yh = store(values(batch, n), p), store(values(batch, n), p)
    ch, sh = store(values(1), p), store(values(1), p)
    x, y = rm.to_device(xh), rm.to_device(yh)
    set_pointer_mode(handle, PointerMode.device)
    try:
        c, s = rm.to_device(ch), rm.to_device(sh)
        if strided:
            ex.rot_strided_batched_ex(handle, n, x, dt, 1, n, y, dt, 1, n, c, s, dt, batch, DT.f32_r)
        else:
            ex.rot_ex(handle, n, x, dt, 1, y, dt, 1, c, s, dt, DT.f32_r)
    finally:
        set_pointer_mode(handle, PointerMode.host)
    xf, yf, cf, sf = (wide(v, p).astype(np.float32) for v in (xh, yh, ch, sh))
    with np.errstate(over="ignore", invalid="ignore"):
        want_x = _storage_round(_storage_round(cf * xf, p) + _storage_round(sf * yf, p), p)
        want_y = _storage_round(_storage_round(cf * yf, p) - _storage_round(sf * xf, p), p)
    np.testing.assert_array_equal(wide(x.get(), p).astype(np.float32), want_x)
    np.testing.assert_array_equal(wide(y.get(), p).astype(np.float32), want_y)


def test_level1_ex_device_pointer_mode(h: Any) -> None:
    """Device scalars in their declared types, device results in the result type."""
    rng = np.random.default_rng(9)
    xh, yh = host_vec(rng, H)[:1], host_vec(rng, H)[:1]
    x, y = Dev(xh, H, "plain", inc=1), Dev(yh, H, "plain", inc=1)
    set_pointer_mode(h, PointerMode.device)
    ex.axpy_ex(h, L1_N, device_scalar(0.3, H), DT.f16_r, x.arg, DT.f16_r, 1, y.arg, DT.f16_r, 1, DT.f32_r)
    set_pointer_mode(h, PointerMode.host)
    rt.assert_close(wide(y.get(), H), wide(yh, H) + rounded(0.3, H) * wide(xh, H), H, "elementwise",
                    scale=float(np.abs(wide(yh, H)).max() + np.abs(wide(xh, H)).max()))
    # scal with a real alpha and a complex x
    zh = rnd(rng, (1, L1_N), C)
    z = Dev(zh, C, "plain", inc=1)
    set_pointer_mode(h, PointerMode.device)
    ex.scal_ex(h, L1_N, device_scalar(-2.5, S), DT.f32_r, z.arg, DT.f32_c, 1, DT.f32_c)
    # bf16 dot into a bf16 device result; nrm2 of complex into a real device result
    bh = rnd(rng, (1, L1_N), BF16)
    b = Dev(bh, BF16, "plain", inc=1)
    res = rm.to_device(np.full(2, 0xFFFF, np.uint16))
    ex.dot_ex(h, L1_N, b.arg, DT.bf16_r, 1, b.arg, DT.bf16_r, 1, res, DT.bf16_r, DT.f32_r)
    nres = rm.to_device(np.full(2, -1.0, np.float32))
    ex.nrm2_ex(h, L1_N, z.arg, DT.f32_c, 1, nres, DT.f32_r, DT.f32_r)
    # rot with complex c (its real part is used) and s
    ex.rot_ex(h, L1_N, x.arg, DT.f16_r, 1, y.arg, DT.f16_r, 1, device_scalar(0.6, H), device_scalar(0.8, H),
              DT.f16_r, DT.f32_r)
    set_pointer_mode(h, PointerMode.host)
    rt.assert_close(z.get()[0], -2.5 * zh[0], C, "elementwise")
    bw = wide(bh, BF16)[0]
    got = from_bfloat16(res.get())
    rt.assert_close(got[:1], [bw @ bw], BF16, "reduction", L1_N)
    assert res.get()[1] == 0xFFFF  # one result only
    rt.assert_close(nres.get()[:1], [np.linalg.norm(2.5 * zh[0])], S, "reduction", L1_N)
    assert nres.get()[1] == -1.0


def test_rot_ex_complex_c_in_device_memory(h: Any) -> None:
    rng = np.random.default_rng(10)
    xh, yh = rnd(rng, (1, 5), Z), rnd(rng, (1, 5), Z)
    x, y = Dev(xh, Z, "plain", inc=1), Dev(yh, Z, "plain", inc=1)
    set_pointer_mode(h, PointerMode.device)
    ex.rot_ex(h, 5, x.arg, DT.f64_c, 1, y.arg, DT.f64_c, 1, device_scalar(0.6 + 9j, Z), device_scalar(0.8j, Z),
              DT.f64_c, DT.f64_c)
    set_pointer_mode(h, PointerMode.host)
    rt.assert_close(x.get()[0], 0.6 * xh[0] + 0.8j * yh[0], Z, "elementwise")
    rt.assert_close(y.get()[0], 0.6 * yh[0] + 0.8j * xh[0], Z, "elementwise")


# --- trsm_ex ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("comp", sorted(ex.TRSM_EX_TYPES), ids=str)
def test_trsm_ex(h: Any, comp: DT) -> None:
    p = PREC[comp]
    rng = np.random.default_rng(11)
    m, n = 6, 4
    for flavour in FLAVOURS:
        batch = 1 if flavour == "plain" else 2
        for side, uplo, trans, with_inv in (("L", "U", "N", False), ("R", "L", "C" if p.is_complex else "T", True)):
            ka = m if side == "L" else n
            T = rnd(rng, (batch, ka, ka), p)
            T = store(wide(T, p) + 4 * ka * np.eye(ka), p)
            Bh = rnd(rng, (batch, m, n), p)
            A, B = Dev(T, p, flavour, ld=ka + 1), Dev(Bh, p, flavour, ld=m + 2)
            inv = Dev(rnd(rng, (batch, ka, ka), p), p, flavour, ld=ka) if with_inv else None
            invoke(h, "trsm", flavour, batch, {"A": (A, "lda", "stride_A"), "B": (B, "ldb", "stride_B"),
                                               "invA": (inv, "invA_size", "stride_invA")},
                   side=side, uplo=uplo, transA=trans, diag="N", m=m, n=n, alpha=1.5, compute_type=comp,
                   **({} if with_inv else {"invA_size": 0}))
            Tw = wide(T, p)
            Tw = np.triu(Tw) if uplo == "U" else np.tril(Tw)
            opT = op(Tw, trans)
            X = wide(B.get(), p)
            residual = (opT @ X if side == "L" else X @ opT) - 1.5 * wide(Bh, p)
            rt.assert_close(residual, np.zeros_like(residual), p, "reduction", ka,
                            scale=float(np.abs(1.5 * wide(Bh, p)).max()), err_msg=f"{flavour} {side}{uplo}{trans}")
            A.check(logical=True)
            B.check()


# --- geam_ex ---------------------------------------------------------------------------------------


def geam_reference(operation: GeamExOperation, alpha: float, A: np.ndarray, B: np.ndarray, beta: float,
                   Cw: np.ndarray) -> np.ndarray:
    bc = beta * Cw
    if operation is GeamExOperation.min_plus:
        return np.minimum(bc, (alpha * A[:, :, None] + alpha * B[None, :, :]).min(axis=1))
    return bc + np.minimum(alpha * A[:, :, None], alpha * B[None, :, :]).sum(axis=1)


@pytest.mark.parametrize("operation", list(GeamExOperation), ids=lambda o: o.name)
@pytest.mark.parametrize("dtype", sorted(ex.GEAM_EX_TYPES), ids=str)
def test_geam_ex(h: Any, dtype: DT, operation: GeamExOperation) -> None:
    p = PREC[dtype]
    rng = np.random.default_rng(12)
    m, n, k = 5, 6, 7
    for ta, tb, in_place, mode in (("N", "N", False, "host"), ("T", "T", True, "host"), ("T", "N", False, "device")):
        Ah = rnd(rng, (1, m, k) if ta == "N" else (1, k, m), p)
        Bh = rnd(rng, (1, k, n) if tb == "N" else (1, n, k), p)
        Ch = rnd(rng, (1, m, n), p)
        A, B, Cd = Dev(Ah, p, "plain", ld=Ah.shape[1] + 1), Dev(Bh, p, "plain", ld=Bh.shape[1]), Dev(Ch, p, "plain",
                                                                                                       ld=m + 2)
        Dd = Cd if in_place else Dev(Ch, p, "plain", ld=m)
        if not in_place:
            Dd.poison()
        alpha, beta = 0.75, -1.5
        if mode == "device":
            set_pointer_mode(h, PointerMode.device)
        scal = device_scalar if mode == "device" else (lambda v, _p: v)
        ex.geam_ex(h, ta, tb, m, n, k, scal(alpha, p), A.arg, dtype, A.ld, B.arg, dtype, B.ld, scal(beta, p), Cd.arg,
                   dtype, Cd.ld, Dd.arg, dtype, Dd.ld, dtype, operation)
        set_pointer_mode(h, PointerMode.host)
        ref = geam_reference(operation, alpha, op(wide(Ah, p), ta)[0], op(wide(Bh, p), tb)[0], beta, wide(Ch, p)[0])
        rt.assert_close(wide(Dd.get(), p)[0], ref, p, "reduction", k, scale=float(np.abs(ref).max() + 1),
                        err_msg=f"{ta}{tb} in_place={in_place} {mode}")
        A.check(logical=True)
        B.check(logical=True)
        if not in_place:
            Cd.check(logical=True)
        Dd.check()


@pytest.mark.parametrize("operation", list(GeamExOperation), ids=lambda o: o.name)
def test_geam_ex_zero_scalars_and_k_zero(h: Any, operation: GeamExOperation) -> None:
    """alpha == 0: A and B are not read (null), min_plus gives min(beta C, 0), plus_min beta C;
    k == 0: beta C; beta == 0: C is not read (null)."""
    rng = np.random.default_rng(13)
    m, n = 4, 3
    Ch = rnd(rng, (1, m, n), S)
    Cd = Dev(Ch, S, "plain", ld=m)
    Dd = Dev(Ch, S, "plain", ld=m)
    common = dict(a_type=DT.f32_r, b_type=DT.f32_r, c_type=DT.f32_r, d_type=DT.f32_r, compute_type=DT.f32_r,
                  geam_ex_op=operation, lda=m, ldb=5, ldc=m, ldd=m, transA="N", transB="N", m=m, n=n)
    Cw = wide(Ch, S)[0]
    ex.geam_ex(h, k=5, alpha=0.0, A=None, B=None, beta=2.0, C=Cd.arg, D=Dd.arg, **common)
    want = np.minimum(2 * Cw, 0) if operation is GeamExOperation.min_plus else 2 * Cw
    np.testing.assert_array_equal(Dd.get()[0], want.astype(np.float32))
    ex.geam_ex(h, k=0, alpha=None, A=None, B=None, beta=3.0, C=Cd.arg, D=Dd.arg, **common)
    np.testing.assert_array_equal(Dd.get()[0], (3 * Cw).astype(np.float32))
    A = Dev(np.ones((1, m, 5), np.float32), S, "plain", ld=m)
    B = Dev(np.full((1, 5, n), -3, np.float32), S, "plain", ld=5)
    Dd.poison()
    ex.geam_ex(h, k=5, alpha=1.0, A=A.arg, B=B.arg, beta=0.0, C=None, D=Dd.arg, **common)
    # min(0, min_q(1 - 3)) and 0 + sum_q min(1, -3)
    np.testing.assert_array_equal(Dd.get()[0], np.full((m, n), -2.0 if operation is GeamExOperation.min_plus
                                                        else -15.0))
    Cd.check(logical=True)


# --- the surface -----------------------------------------------------------------------------------


def test_every_ex_name_and_signature() -> None:
    expected = {f"{o}{f}_ex" for o in _manifest.EX for f in _manifest.FLAVOURS} | set(_manifest.EX_PLAIN_ONLY)
    expected |= {f"hgemm{f}" for f in _manifest.FLAVOURS}
    expected |= {f"{n}_64" for n in expected if not n.startswith(("trsm_", "geam_"))}
    assert set(ex.__all__) == expected
    for name in expected:
        fn = getattr(ex, name)
        assert fn.__name__ == name and fn.__module__ == "rocmath.blas"
    sig = lambda name: list(inspect.signature(getattr(ex, name)).parameters)  # noqa: E731
    assert sig("gemm_batched_ex")[19:22] == ["ldd", "batch_count", "compute_type"]
    assert sig("gemm_strided_batched_ex")[8:11] == ["a_type", "lda", "stride_a"]
    assert sig("axpy_strided_batched_ex")[-4:] == ["incy", "stridey", "batch_count", "execution_type"]
    assert sig("dot_batched_ex")[-5:] == ["incy", "batch_count", "result", "result_type", "execution_type"]
    assert sig("nrm2_strided_batched_ex")[-6:] == ["incx", "stride_x", "batch_count", "results", "result_type",
                                                   "execution_type"]
    assert sig("rot_batched_ex")[-3:] == ["cs_type", "batch_count", "execution_type"]
    assert sig("scal_strided_batched_ex")[-4:] == ["incx", "stridex", "batch_count", "execution_type"]
    assert sig("trsm_strided_batched_ex")[-8:] == ["B", "ldb", "stride_B", "batch_count", "invA", "invA_size",
                                                   "stride_invA", "compute_type"]
    assert sig("hgemm_strided_batched")[-3:] == ["ldc", "stride_c", "batch_count"]
    assert sig("geam_ex")[-2:] == ["compute_type", "geam_ex_op"]


def test_datatypes_accept_members_and_values(h: Any) -> None:
    xh = np.arange(4, dtype=np.float32)[None]
    x = Dev(xh, S, "plain", inc=1)
    assert ex.dot_ex(h, 4, x.arg, 151, 1, x.arg, DT.f32_r, 1, None, int(DT.f32_r), 151) == 14.0


# --- bad arguments ---------------------------------------------------------------------------------


@pytest.fixture
def gemm_setup(h: Any) -> dict[str, Any]:
    """A valid f32 gemm_ex call (m = n = k = 3) whose D holds a sentinel pattern."""
    A = Dev(np.ones((1, 3, 3), np.float32), S, "plain", ld=3)
    Cd = Dev(np.ones((1, 3, 3), np.float32), S, "plain", ld=3)
    Dd = Dev(np.ones((1, 3, 3), np.float32), S, "plain", ld=3)
    Dd.poison()
    kw = dict(transA="N", transB="N", m=3, n=3, k=3, alpha=1.0, a=A.arg, a_type=DT.f32_r, lda=3, b=A.arg,
              b_type=DT.f32_r, ldb=3, beta=1.0, c=Cd.arg, c_type=DT.f32_r, ldc=3, d=Dd.arg, d_type=DT.f32_r, ldd=3,
              compute_type=DT.f32_r, algo=0, solution_index=0, flags=0)
    return {"h": h, "kw": kw, "D": Dd, "C": Cd}


def expect(err: type[Exception], fn: Any, *args: Any, arg: str | None = None, **kw: Any) -> None:
    with pytest.raises(err) as info:
        fn(*args, **kw)
    if arg is not None:
        assert info.value.arg == arg, f"named {info.value.arg!r}, expected {arg!r}"  # type: ignore[attr-defined]


GEMM_ORDER = [
    # (changes, error, argument named): each case breaks rules in several places; the first
    # in rocBLAS's order decides.
    ({"compute_type": DT.f16_c, "transA": 999, "m": -1}, RocblasNotImplementedError, "compute_type"),
    # An unknown compute type has no case in rocblas_copy_alpha_beta_to_host_if_on_device's switch
    # (rocblas_gemm_ex.hpp), which runs first; other datatypes are not validated before the type
    # dispatch (rocblas_gemm_ex_kernels.cpp), nor is algo (rocblas_gemm_ex_imp.hpp).
    ({"compute_type": 7777, "transA": 999, "m": -1}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": 12345, "transA": 999}, RocblasInvalidValueError, "transA"),
    ({"transA": 999, "m": -1}, RocblasInvalidValueError, "transA"),
    ({"transB": "X", "k": -1}, RocblasInvalidValueError, "transB"),
    ({"algo": 7, "m": -1}, RocblasInvalidSizeError, "m"),
    ({"m": -1, "ldc": 0}, RocblasInvalidSizeError, "m"),
    ({"k": -2, "lda": 0}, RocblasInvalidSizeError, "k"),
    ({"ldc": 2, "ldd": 2, "lda": 1}, RocblasInvalidSizeError, "ldc"),
    ({"ldd": 2, "lda": 1}, RocblasInvalidSizeError, "ldd"),
    ({"lda": 2, "ldb": 1}, RocblasInvalidSizeError, "lda"),
    ({"transA": "T", "lda": 2}, RocblasInvalidSizeError, "lda"),
    ({"ldb": 2, "alpha": None}, RocblasInvalidSizeError, "ldb"),
    ({"alpha": None, "beta": None, "a_type": DT.f64_r}, RocblasInvalidPointerError, "alpha"),
    ({"beta": None, "d": None}, RocblasInvalidPointerError, "beta"),
    ({"d": None, "c": None, "a_type": DT.f64_r}, RocblasInvalidPointerError, "d"),
    ({"c": None, "a": None, "a_type": DT.f64_r}, RocblasInvalidPointerError, "c"),
    ({"a": None, "c_type": DT.f64_r}, RocblasInvalidPointerError, "a"),
    ({"b": 0, "c_type": DT.f64_r}, RocblasInvalidPointerError, "b"),
    ({"d": "C", "ldd": 4, "c_type": DT.f64_r}, RocblasInvalidSizeError, "ldd"),
    ({"d": "C", "d_type": DT.f64_r}, RocblasInvalidValueError, "d_type"),
    ({"a_type": DT.f64_r}, RocblasNotImplementedError, "compute_type"),
    ({"c_type": DT.f16_r, "d_type": DT.f16_r}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.f16_r, "b_type": DT.bf16_r}, RocblasNotImplementedError, "compute_type"),
    ({"c_type": DT.f64_r, "d_type": DT.f32_r}, RocblasNotImplementedError, "compute_type"),
    ({"a_type": DT.i8_r, "b_type": DT.i8_r, "c_type": DT.i32_r, "d_type": DT.i32_r}, RocblasNotImplementedError,
     "compute_type"),
    ({"a_type": DT.bf16_r, "b_type": DT.bf16_r, "c_type": DT.bf16_r, "d_type": DT.bf16_r, "compute_type": DT.f16_r},
     RocblasNotImplementedError, "compute_type"),
    ({"compute_type": DT.bf16_r}, RocblasNotImplementedError, "compute_type"),
]


@pytest.mark.parametrize(("changes", "error", "arg"), GEMM_ORDER, ids=lambda v: "")
def test_gemm_ex_check_order(gemm_setup: dict[str, Any], changes: dict[str, Any], error: type[Exception],
                             arg: str) -> None:
    kw = {**gemm_setup["kw"], **changes}
    if kw["d"] == "C":
        kw["d"] = kw["c"]
    before = rt.snapshot(gemm_setup["D"].parts[0])
    before_c = rt.snapshot(gemm_setup["C"].parts[0])
    expect(error, ex.gemm_ex, gemm_setup["h"], arg=arg, **kw)
    rt.assert_unchanged(before)
    rt.assert_unchanged(before_c)


def test_gemm_ex_misaligned_pointers_are_invalid_size(gemm_setup: dict[str, Any]) -> None:
    # rocBLAS casts a, b, c and d to their types only when aligned for them (gemm_ex_typecasting):
    # after the type dispatch (an unsupported combination is not_implemented first).
    h, kw = gemm_setup["h"], gemm_setup["kw"]
    before = rt.snapshot(gemm_setup["D"].parts[0])
    ptrs = {name: int(getattr(kw[name], "ptr", kw[name])) for name in ("a", "b", "c", "d")}
    for name in ptrs:
        expect(RocblasInvalidSizeError, ex.gemm_ex, h, **{**kw, name: ptrs[name] + 2}, arg=name)
    expect(RocblasNotImplementedError, ex.gemm_ex, h, **{**kw, "a": ptrs["a"] + 2, "a_type": DT.f64_r},
           arg="compute_type")
    rt.assert_unchanged(before)
    ex.gemm_ex(h, **{**kw, "beta": 0.0, "c": None})  # a null pointer is aligned
    # A batched call's arrays of pointers: to a pointer's 8 bytes.
    entries = rm.to_device(np.array([ptrs["a"]], np.uint64))
    outs = rm.to_device(np.array([ptrs["d"]], np.uint64))
    batched = {**kw, "a": entries, "b": entries, "c": outs, "d": outs, "batch_count": 1}
    ex.gemm_batched_ex(h, **batched)
    expect(RocblasInvalidSizeError, ex.gemm_batched_ex, h, **{**batched, "b": entries.ptr + 4}, arg="b")


def test_gemm_ex_quick_returns_and_null_rules(gemm_setup: dict[str, Any]) -> None:
    h, kw, Dd = gemm_setup["h"], gemm_setup["kw"], gemm_setup["D"]
    before = rt.snapshot(Dd.parts[0])
    # m, n or batch_count 0: success before pointers and type combinations are looked at
    for empty in ({"m": 0}, {"n": 0}):
        ex.gemm_ex(h, **{**kw, **empty, "a": None, "d": None, "alpha": None, "a_type": DT.f64_r})
    ex.gemm_batched_ex(h, **{**kw, "batch_count": 0, "d": None, "a_type": DT.f64_r})
    expect(RocblasInvalidSizeError, ex.gemm_batched_ex, h, **{**kw, "batch_count": -1}, arg="batch_count")
    rt.assert_unchanged(before)
    # k == 0 needs no alpha, A or B; beta == 0 needs no C
    ex.gemm_ex(h, **{**kw, "k": 0, "alpha": None, "a": None, "b": None, "beta": 0.0, "c": None})
    np.testing.assert_array_equal(Dd.get(), 0)
    # device mode: the same rules on the values copied back
    set_pointer_mode(h, PointerMode.device)
    zero, one = rm.to_device(np.zeros(1, np.float32)), rm.to_device(np.ones(1, np.float32))
    ex.gemm_ex(h, **{**kw, "alpha": zero, "a": None, "b": None, "beta": one})
    expect(RocblasInvalidPointerError, ex.gemm_ex, h, **{**kw, "alpha": one, "a": None, "beta": one}, arg="a")
    expect(RocblasInvalidPointerError, ex.gemm_ex, h, **{**kw, "alpha": one, "beta": one, "c": None}, arg="c")
    expect(RocblasInvalidPointerError, ex.gemm_ex, h, **{**kw, "alpha": one, "beta": 0}, arg="beta")
    set_pointer_mode(h, PointerMode.host)
    np.testing.assert_array_equal(Dd.get(), 1)  # D := 0 * AB + 1 * C


def test_hgemm_check_order(h: Any) -> None:
    A = Dev(np.ones((1, 3, 3), np.float16), H, "plain", ld=3)
    before = rt.snapshot(A.parts[0])
    base = dict(transA="N", transB="N", m=3, n=3, k=3, alpha=1.0, A=A.arg, lda=3, B=A.arg, ldb=3, beta=0.5,
                C=A.arg, ldc=3)
    expect(RocblasInvalidValueError, ex.hgemm, h, **{**base, "transA": 3, "m": -1}, arg="transA")
    expect(RocblasInvalidSizeError, ex.hgemm, h, **{**base, "n": -1}, arg="n")
    expect(RocblasInvalidSizeError, ex.hgemm, h, **{**base, "ldc": 2}, arg="ldc")
    expect(RocblasInvalidPointerError, ex.hgemm, h, **{**base, "beta": None}, arg="beta")
    expect(RocblasInvalidPointerError, ex.hgemm, h, **{**base, "B": None}, arg="B")
    ex.hgemm(h, **{**base, "alpha": 0.0, "beta": 1.0, "A": None, "B": None})  # nothing to do
    ex.hgemm(h, **{**base, "m": 0, "C": None})
    rt.assert_unchanged(before)


def test_level1_ex_check_order(h: Any) -> None:
    x = Dev(np.arange(1, 5, dtype=np.float32)[None], S, "plain", inc=1)
    y = Dev(np.arange(1, 5, dtype=np.float32)[None], S, "plain", inc=1)
    before = [rt.snapshot(v.parts[0]) for v in (x, y)]
    f32 = DT.f32_r
    axpy = dict(n=4, alpha=2.0, alpha_type=f32, x=x.arg, x_type=f32, incx=1, y=y.arg, y_type=f32, incy=1,
                execution_type=f32)
    # the quick return, alpha, the types, alpha == 0, the vectors; rocBLAS validates no datatype
    # up front (rocblas_axpy_ex_template.hpp): an unknown one is not_implemented at the dispatch
    ex.axpy_ex(h, **{**axpy, "x_type": 1, "n": 0})
    expect(RocblasNotImplementedError, ex.axpy_ex, h, **{**axpy, "x_type": 1})
    ex.axpy_ex(h, **{**axpy, "n": 0, "alpha": None, "x_type": DT.f64_r})
    ex.axpy_batched_ex(h, **{**axpy, "batch_count": 0, "alpha": None, "x_type": DT.f64_r})
    expect(RocblasInvalidPointerError, ex.axpy_ex, h, **{**axpy, "alpha": None, "x_type": DT.f64_r}, arg="alpha")
    expect(RocblasNotImplementedError, ex.axpy_ex, h, **{**axpy, "alpha": 0.0, "x_type": DT.f64_r})
    expect(RocblasNotImplementedError, ex.axpy_ex, h, **{**axpy, "execution_type": DT.f16_r})
    ex.axpy_ex(h, **{**axpy, "alpha": 0.0, "x": None})
    expect(RocblasInvalidPointerError, ex.axpy_ex, h, **{**axpy, "y": None}, arg="y")
    # scal_ex: quick return, types, alpha, alpha == 1 (x not even touched), x
    scal = dict(n=4, alpha=2.0, alpha_type=f32, x=x.arg, x_type=f32, incx=1, execution_type=f32)
    ex.scal_ex(h, **{**scal, "incx": 0, "x_type": DT.f16_c})
    expect(RocblasNotImplementedError, ex.scal_ex, h, **{**scal, "alpha": None, "alpha_type": DT.f64_r})
    expect(RocblasInvalidPointerError, ex.scal_ex, h, **{**scal, "alpha": None}, arg="alpha")
    ex.scal_ex(h, **{**scal, "alpha": 1.0, "x": None})
    expect(RocblasInvalidPointerError, ex.scal_ex, h, **{**scal, "x": None}, arg="x")
    z = Dev(np.zeros((1, 4), np.float32), S, "plain", inc=1)
    z.poison()  # signaling NaNs: any arithmetic on them would change their bits
    ex.scal_ex(h, **{**scal, "alpha": 1.0, "x": z.arg})
    z.check(logical=True)
    # dot_ex: pointers before types; n == 0 gives 0
    dot = dict(n=4, x=x.arg, x_type=f32, incx=1, y=y.arg, y_type=f32, incy=1, result_type=f32, execution_type=f32)
    assert ex.dot_ex(h, **{**dot, "n": 0, "x": None}) == 0
    expect(RocblasInvalidPointerError, ex.dot_ex, h, **{**dot, "x": None, "x_type": DT.i8_r}, arg="x")
    expect(RocblasNotImplementedError, ex.dot_ex, h, **{**dot, "result_type": DT.f64_r})
    expect(RocblasNotImplementedError, ex.dotc_ex, h, **{**dot, "execution_type": DT.f64_r})
    # nrm2_ex, rot_ex
    nrm2 = dict(n=4, x=x.arg, x_type=f32, incx=1, result_type=f32, execution_type=f32)
    assert ex.nrm2_ex(h, **{**nrm2, "incx": -1}) == 0
    expect(RocblasInvalidPointerError, ex.nrm2_ex, h, **{**nrm2, "x": None, "x_type": DT.f64_r}, arg="x")
    expect(RocblasNotImplementedError, ex.nrm2_ex, h, **{**nrm2, "x_type": DT.f32_c, "result_type": DT.f32_c})
    rot = dict(n=4, x=x.arg, x_type=f32, incx=1, y=y.arg, y_type=f32, incy=1, c=0.5, s=0.5, cs_type=f32,
               execution_type=f32)
    ex.rot_ex(h, **{**rot, "n": 0, "x": None, "cs_type": DT.f64_r})
    expect(RocblasInvalidPointerError, ex.rot_ex, h, **{**rot, "s": None, "cs_type": DT.f64_r}, arg="s")
    expect(RocblasNotImplementedError, ex.rot_ex, h, **{**rot, "cs_type": DT.f64_r})
    expect(RocblasNotImplementedError, ex.rot_ex, h, **{**rot, "x_type": DT.f16_r, "y_type": DT.f16_r})
    for b in before:
        rt.assert_unchanged(b)


def test_reductions_ex_device_results(h: Any) -> None:
    x = Dev(np.arange(1, 4, dtype=np.float64)[None], D, "plain", inc=1)
    res = rm.to_device(np.full(3, -7.0))
    set_pointer_mode(h, PointerMode.device)
    expect(RocblasInvalidPointerError, ex.nrm2_ex, h, 0, x.arg, DT.f64_r, 1, None, DT.f64_r, DT.f64_r, arg="results")
    expect(RocblasInvalidPointerError, ex.dot_ex, h, 0, x.arg, DT.f64_r, 1, x.arg, DT.f64_r, 1, 0, DT.f64_r,
           DT.f64_r, arg="result")
    # n == 0: zeros written; batch_count == 0: nothing written
    ex.dot_batched_ex(h, 0, x.arg, DT.f64_r, 1, x.arg, DT.f64_r, 1, 2, res, DT.f64_r, DT.f64_r)
    ex.nrm2_strided_batched_ex(h, 3, x.arg, DT.f64_r, 1, 0, 0, res, DT.f64_r, DT.f64_r)
    set_pointer_mode(h, PointerMode.host)
    np.testing.assert_array_equal(res.get(), [0, 0, -7])
    assert list(ex.nrm2_batched_ex(h, 3, None, DT.f64_r, 1, 0, None, DT.f64_r, DT.f64_r)) == []


def test_trsm_ex_check_order(h: Any) -> None:
    A = Dev(np.eye(3, dtype=np.float32)[None], S, "plain", ld=3)
    base = dict(side="L", uplo="U", transA="N", diag="N", m=3, n=3, alpha=1.0, A=A.arg, lda=3, B=A.arg, ldb=3,
                invA=None, invA_size=0, compute_type=DT.f32_r)
    before = rt.snapshot(A.parts[0])
    expect(RocblasNotImplementedError, ex.trsm_ex, h, **{**base, "compute_type": DT.f16_r, "side": 9},
           arg="compute_type")
    # rocblas_trsm_ex switches on compute_type first; an unknown value is its default case (rocblas_trsm.cpp)
    expect(RocblasNotImplementedError, ex.trsm_ex, h, **{**base, "compute_type": 999, "side": 9}, arg="compute_type")
    expect(RocblasInvalidValueError, ex.trsm_ex, h, **{**base, "side": "B"}, arg="side")
    expect(RocblasInvalidSizeError, ex.trsm_ex, h, **{**base, "lda": 2}, arg="lda")
    expect(RocblasInvalidPointerError, ex.trsm_ex, h, **{**base, "B": None}, arg="B")
    ex.trsm_ex(h, **{**base, "m": 0, "B": None})
    rt.assert_unchanged(before)


def test_geam_ex_check_order(h: Any) -> None:
    M = Dev(np.ones((1, 3, 3), np.float32), S, "plain", ld=3)
    base = dict(transA="N", transB="N", m=3, n=3, k=3, alpha=1.0, A=M.arg, a_type=DT.f32_r, lda=3, B=M.arg,
                b_type=DT.f32_r, ldb=3, beta=1.0, C=M.arg, c_type=DT.f32_r, ldc=3, D=M.arg, d_type=DT.f32_r, ldd=3,
                compute_type=DT.f32_r, geam_ex_op=GeamExOperation.min_plus)
    before = rt.snapshot(M.parts[0])
    expect(RocblasNotImplementedError, ex.geam_ex, h, **{**base, "compute_type": DT.f32_c, "transA": "X"},
           arg="compute_type")
    expect(RocblasInvalidValueError, ex.geam_ex, h, **{**base, "transA": "C"}, arg="transA")
    expect(RocblasInvalidValueError, ex.geam_ex, h, **{**base, "geam_ex_op": 2, "m": -1}, arg="geam_ex_op")
    expect(RocblasInvalidSizeError, ex.geam_ex, h, **{**base, "k": -1}, arg="k")
    expect(RocblasInvalidSizeError, ex.geam_ex, h, **{**base, "ldb": 2}, arg="ldb")
    expect(RocblasInvalidSizeError, ex.geam_ex, h, **{**base, "ldd": 4, "m": 0}, arg="ldd")  # before the quick return
    ex.geam_ex(h, **{**base, "m": 0, "A": None, "a_type": DT.f64_r})
    expect(RocblasInvalidPointerError, ex.geam_ex, h, **{**base, "beta": None, "alpha": None}, arg="beta")
    expect(RocblasInvalidPointerError, ex.geam_ex, h, **{**base, "alpha": None}, arg="alpha")
    expect(RocblasInvalidPointerError, ex.geam_ex, h, **{**base, "B": None, "a_type": DT.f64_r}, arg="B")
    expect(RocblasInvalidPointerError, ex.geam_ex, h, **{**base, "C": None}, arg="C")
    expect(RocblasNotImplementedError, ex.geam_ex, h, **{**base, "a_type": DT.f64_r}, arg="compute_type")
    rt.assert_unchanged(before)
