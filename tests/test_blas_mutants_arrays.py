"""rocmath.blas.arrays and rocmath.blas.beta: behaviours a mutation-testing pass found
test_blas_arrays.py, test_blas_gemm_ex3.py and test_blas_gemm_solutions.py leaving open.

The Pythonic layer (rocmath.blas.arrays), against NumPy on the same data:

- Which rocBLAS call a batch becomes (the module docstring: strided batched when the batch has one
  uniform stride, batched otherwise), for batches of two axes and for a vector pair whose batches
  differ in kind (one uniform, one not).
- Views whose matrices are padded (a leading dimension larger than the matrix, row- or
  column-major, as operands and as ``out=``), the padding holding a sentinel that must survive.
- Conjugate transposes of row-major operands (``trans_a``/``trans_b`` ``'C'`` on C-order data,
  plain and batched), which BLAS has no form for.
- Zero strides on the last axis for n = 2 (nrm2, asum) and for iamax/iamin (``first`` of equal
  values is index 0, as ``np.argmax``), an axpy ``y`` that cannot hold the broadcast result (as
  NumPy's ``y += x`` refuses it), an ``x`` sharing ``y``'s first address with other strides.
- scal's alpha: a NumPy complex scalar on real data is refused; an int or NumPy real alpha on
  complex data scales the parts apart (zdscal: ``inf + 1j`` times 2 is ``inf + 2j``, not NaN).
- The per-thread handles: a destroyed one is replaced, another thread gets its own.
- ``out=`` with a 1-D operand is refused before anything is written.

gemm_ex3 and the solution queries (rocmath.blas.beta):

- The type table against the module docstring's list, written out here again, and the float8
  formats half and float operands are rounded into per composite compute type (a run whose
  reference takes the formats from this file's table, not from the module's).
- ``SR_SEED_A/B/C`` read as strtol reads them (leading blanks, a sign, saturating to a 64-bit long, wrapping
  to uint32),
  checked through a stochastic gemm's bits; ``stochastic_rounding`` among other flag bits.
- The device-memory size query's exact workspace (one byte per element of a rounded operand, in
  64-byte blocks) and the small-matrix kernel's bounds (m < 4, n < 4 with its transposes).
- Alignment of b, c and d (invalid_size naming the pointer), D untouched.
- A gfx950 device passes the arch check (rocBLAS: ``getArch() < 1000``).
- get_solutions: in a size query only f16/bf16 inputs *computed in f32* are checked; a read-only
  ``list_array`` is invalid_pointer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from test_blas_ex import _close_buffers, expect  # noqa: F401  (_close_buffers: a fixture)
from test_blas_gemm_ex3 import run
from test_blas_gemm_solutions import problem, untouched
from test_float8 import nearest

import rocmath as rm
from rocmath import blas
from rocmath.blas import ComputeType as CT
from rocmath.blas import Datatype as DT
from rocmath.blas import GemmFlags, beta, level1, level3
from rocmath.blas import arrays as A
from rocmath.errors import (
    RocblasArchMismatchError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasNotImplementedError,
    RocblasStatus,
)
from rocmath.float8 import BF8, F8, VALUES, from_f8

SENTINEL = -1234.5  # finite, exact in every precision


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    hnd = blas.create_handle()
    yield hnd
    blas.destroy_handle(hnd)


def ints(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float64) -> np.ndarray:
    """Small integers (complex: small integer parts): products and their sums are exact."""
    v = rng.integers(-3, 4, shape).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.integers(-3, 4, shape)
    return v.astype(dtype)


def spy(monkeypatch: pytest.MonkeyPatch, module: Any, names: list[str]) -> list[str]:
    """Record the calls of module's routines ``names`` (the array layer looks them up at each call)."""
    calls: list[str] = []
    for name in names:
        orig = getattr(module, name)

        def wrapper(*args: Any, _orig: Callable[..., Any] = orig, _name: str = name, **kw: Any) -> Any:
            calls.append(_name)
            return _orig(*args, **kw)

        monkeypatch.setattr(module, name, wrapper)
    return calls


# --- arrays: which rocBLAS call a batch becomes ------------------------------------------------------


GEMMS = ["dgemm", "dgemm_batched", "dgemm_strided_batched"]


def test_a_uniform_batch_of_two_axes_is_one_strided_batched_call(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    a, b = ints(rng, (2, 3, 4, 5)), ints(rng, (2, 3, 5, 2))
    calls = spy(monkeypatch, level3, GEMMS)
    got = A.matmul(rm.to_device(a), rm.to_device(b)).get()
    np.testing.assert_array_equal(got, a @ b)
    assert calls == ["dgemm_strided_batched"]
    # Batch axes with no single stride (the first 3 of each row of a (2, 6) batch): one batched call.
    big = ints(rng, (2, 6, 4, 5))
    calls.clear()
    got = A.matmul(rm.to_device(big)[:, :3], rm.to_device(b)).get()
    np.testing.assert_array_equal(got, big[:, :3] @ b)
    assert calls == ["dgemm_batched"]
    calls2 = spy(monkeypatch, level1, ["dnrm2_strided_batched", "dnrm2_batched"])
    x = np.arange(30.0).reshape(2, 3, 5)
    np.testing.assert_allclose(A.nrm2(rm.to_device(x)), np.linalg.norm(x, axis=-1), rtol=1e-15)
    assert calls2 == ["dnrm2_strided_batched"]


def test_vector_pairs_whose_batches_differ_in_kind_go_batched(monkeypatch: pytest.MonkeyPatch) -> None:
    # x's batch has no one stride (rows 0, 1 of each of 3 blocks of 4), y's has: pointer arrays.
    rng = np.random.default_rng(12)
    xh, yh = ints(rng, (3, 4, 5)), ints(rng, (3, 2, 5))
    x, y = rm.to_device(xh)[:, :2], rm.to_device(yh)
    calls = spy(monkeypatch, level1, ["ddot_strided_batched", "ddot_batched"])
    np.testing.assert_array_equal(A.dot(x, y), (xh[:, :2] * yh).sum(-1))
    np.testing.assert_array_equal(A.dot(y, x), (xh[:, :2] * yh).sum(-1))
    assert calls == ["ddot_batched", "ddot_batched"]
    np.testing.assert_array_equal(x.get(), xh[:, :2])


# --- arrays: padded matrices, conjugate transposes ----------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
def test_padded_sub_matrix_views_read_and_write_in_place(order: str) -> None:
    # A sub-block of a larger matrix: one axis of unit stride, the other the parent's leading
    # dimension (larger than the block).  As operands and as out=, the parent's rest untouched.
    rng = np.random.default_rng(13)
    pa, pb = ints(rng, (7, 9)), ints(rng, (6, 8))
    mk = np.asfortranarray if order == "F" else np.ascontiguousarray
    da, db = rm.to_device(mk(pa)), rm.to_device(mk(pb))
    a, b = da[1:4, 2:7], db[:5, 1:3]  # (3, 5) @ (5, 2)
    parent = np.full((6, 5), SENTINEL)
    dc = rm.to_device(mk(parent))
    out = dc[2:5, 1:3]
    got = A.matmul(a, b, out=out)
    assert got is out
    want = parent.copy()
    want[2:5, 1:3] = pa[1:4, 2:7] @ pb[:5, 1:3]
    np.testing.assert_array_equal(dc.get(), want)
    np.testing.assert_array_equal(A.matmul(a, b).get(), pa[1:4, 2:7] @ pb[:5, 1:3])
    np.testing.assert_array_equal(da.get(), pa)  # operands unchanged
    np.testing.assert_array_equal(db.get(), pb)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_conjugate_transposes_of_row_major_operands(batch: tuple[int, ...]) -> None:
    rng = np.random.default_rng(14)
    a, b = ints(rng, (*batch, 4, 3), np.complex128), ints(rng, (*batch, 2, 4), np.complex128)
    c = ints(rng, (*batch, 3, 2), np.complex128)
    da, db, dc = rm.to_device(a), rm.to_device(b), rm.to_device(c)  # all C order
    got = A.gemm(da, db, dc, alpha=2.0, beta=-1.0, trans_a="C", trans_b="C")
    assert got is dc

    def ct(x: np.ndarray) -> np.ndarray:
        return np.conj(np.swapaxes(x, -1, -2))

    np.testing.assert_array_equal(dc.get(), 2.0 * ct(a) @ ct(b) - c)
    b2 = ints(rng, (*batch, 4, 2), np.complex128)
    np.testing.assert_array_equal(A.gemm(da, rm.to_device(b2), trans_a="C").get(), ct(a) @ b2)
    a2 = ints(rng, (*batch, 3, 4), np.complex128)
    np.testing.assert_array_equal(A.gemm(rm.to_device(a2), db, trans_b="C").get(), a2 @ ct(b))
    np.testing.assert_array_equal(da.get(), a)
    np.testing.assert_array_equal(db.get(), b)


# --- arrays: vectors with zero and shared strides ------------------------------------------------------


def test_zero_strides_on_the_last_axis() -> None:
    base = rm.to_device(np.array([3.0, -1.0, 2.0]))
    for n in (2, 3):  # (each of the n elements is base[0])
        rep = rm.DeviceArray.from_pointer(base.ptr, (n,), np.float64, strides=(0,))
        host = np.full(n, 3.0)
        assert A.nrm2(rep) == pytest.approx(np.linalg.norm(host), rel=1e-15)
        assert A.asum(rep) == np.abs(host).sum()
        assert A.iamax(rep) == np.argmax(np.abs(host)) == 0
        assert A.iamin(rep) == np.argmin(np.abs(host)) == 0
    rows = rm.DeviceArray.from_pointer(base.ptr, (2, 3), np.float64, strides=(8, 0))  # rows of base[0], base[1]
    np.testing.assert_array_equal(A.iamax(rows), [0, 0])
    np.testing.assert_array_equal(A.asum(rows), [9.0, 3.0])
    np.testing.assert_array_equal(base.get(), [3.0, -1.0, 2.0])


def test_axpy_refuses_a_y_that_cannot_hold_the_broadcast_result() -> None:
    x, y = np.ones((3, 5)), np.zeros((1, 5))
    with pytest.raises(ValueError):  # numpy: a (1, 5) output cannot hold (3, 5)
        y += 2.0 * x
    dy = rm.to_device(np.zeros((1, 5)))
    with pytest.raises(ValueError, match="cannot hold"):
        A.axpy(2.0, rm.to_device(x), dy)
    np.testing.assert_array_equal(dy.get(), np.zeros((1, 5)))


def test_axpy_x_sharing_y_first_address_with_other_strides_is_read_as_it_was() -> None:
    # y is every other element of z, x the first half of z: x starts where y does, but is not y.
    zh = np.arange(1.0, 9.0)
    z = rm.to_device(zh)
    A.axpy(2.0, z[:4], z[::2])
    want = zh.copy()
    want[::2] += 2.0 * want[:4]  # numpy reads an overlapping operand as it was
    np.testing.assert_array_equal(z.get(), want)


# --- arrays: scal's alpha ---------------------------------------------------------------------------


def test_scal_alpha_kinds() -> None:
    x = rm.to_device(np.ones(3))
    for alpha in (np.complex64(1j), np.complex128(2 + 1j), np.array(1j)):
        with pytest.raises(TypeError, match="complex alpha"):
            A.scal(alpha, x)
    np.testing.assert_array_equal(x.get(), np.ones(3))
    # A real alpha of any kind on complex data scales the parts apart (zdscal): no 0 * inf.
    xh = np.array([np.inf + 1j, complex(1.0, -np.inf), 3 - 2j])
    want = np.empty_like(xh)
    for alpha in (2, np.float32(2.0), np.int64(2), 2.0):
        want.real, want.imag = xh.real * 2.0, xh.imag * 2.0
        np.testing.assert_array_equal(A.scal(alpha, rm.to_device(xh)).get(), want)


# --- arrays: handles, out= with vectors --------------------------------------------------------------


def test_handles_per_thread_and_a_destroyed_one_is_replaced() -> None:
    h = A.get_handle()
    assert A.get_handle() is h
    other: list[Any] = []
    t = threading.Thread(target=lambda: other.append(A.get_handle()))
    t.start()
    t.join()
    assert other[0] is not h
    blas.destroy_handle(h)
    h2 = A.get_handle()
    assert h2 is not h
    eye = rm.to_device(np.eye(2))
    np.testing.assert_array_equal(A.matmul(eye, eye).get(), np.eye(2))


def test_out_with_a_vector_operand_is_refused_untouched() -> None:
    out = rm.to_device(np.full((1, 3), SENTINEL))
    v, m = rm.to_device(np.ones(2)), rm.to_device(np.ones((2, 3)))
    with pytest.raises(ValueError, match="1-D"):
        A.matmul(v, m, out=out)
    np.testing.assert_array_equal(out.get(), np.full((1, 3), SENTINEL))


# --- gemm_ex3: types and formats ---------------------------------------------------------------------

F8T, BF8T, F16T, F32T = DT.f8_r, DT.bf8_r, DT.f16_r, DT.f32_r
#: The module docstring's list, written out again: (a_type, b_type, c_type = d_type, compute_type).
DOC_TYPES = {
    *((a, b, out, CT.f32) for a, b in ((F8T, F8T), (BF8T, BF8T), (F8T, BF8T), (BF8T, F8T)) for out in (F32T, F16T)),
    (F8T, F8T, F8T, CT.f32), (BF8T, BF8T, BF8T, CT.f32), (F8T, BF8T, BF8T, CT.f32), (BF8T, F8T, BF8T, CT.f32),
    *((F16T, F16T, F16T, comp) for comp in (CT.f8_f8_f32, CT.f8_bf8_f32, CT.bf8_f8_f32, CT.bf8_bf8_f32)),
    (F8T, F32T, F8T, CT.f8_f8_f32), (F32T, F8T, F8T, CT.f8_f8_f32),
    (F32T, BF8T, BF8T, CT.f8_bf8_f32), (F32T, BF8T, F32T, CT.f8_bf8_f32),
    (BF8T, F32T, F32T, CT.bf8_f8_f32),
    (BF8T, F32T, BF8T, CT.bf8_bf8_f32),
}
#: The float8 formats A and B enter the product in: the composite type's name, else their own.
COMPOSITE = {CT.f8_f8_f32: (F8, F8), CT.f8_bf8_f32: (F8, BF8), CT.bf8_f8_f32: (BF8, F8), CT.bf8_bf8_f32: (BF8, BF8)}


def doc_formats(combo: tuple[Any, ...]) -> tuple[int, int]:
    a_t, b_t, _, comp = combo
    if comp is CT.f32:
        return (F8 if a_t is F8T else BF8), (F8 if b_t is F8T else BF8)
    return COMPOSITE[comp]


def test_the_type_table_is_the_documented_one() -> None:
    assert set(beta.GEMM_EX3_TYPES) == DOC_TYPES
    fmt = {F8T: F8, BF8T: BF8}
    for combo, formats in beta.GEMM_EX3_TYPES.items():
        assert tuple(fmt[t] for t in formats) == doc_formats(combo), combo


def _gemm_f8(h: Any, combo: tuple[Any, ...], a: np.ndarray, b: np.ndarray, *, flags: int = 0) -> np.ndarray:
    """D := A @ B (alpha 1, beta 0, no C) of F-order host operands, D returned as float64."""
    a_t, b_t, out_t, comp = combo
    m, k = a.shape
    n = b.shape[1]
    host_out = np.zeros((m, n), {F32T: np.float32, F16T: np.float16}.get(out_t, np.uint8), order="F")
    da, db, dd = (rm.to_device(np.asfortranarray(x)) for x in (a, b, host_out))
    blas.gemm_ex3(h, "N", "N", m, n, k, 1.0, da, a_t, m, db, b_t, k, 0.0, None, out_t, m, dd, out_t, m, comp, 0, 0,
                  flags)
    return dd.get().astype(np.float64)


@pytest.mark.parametrize("combo", sorted((c for c in DOC_TYPES if F16T in c[:2] or F32T in c[:2]),
                                         key=lambda c: tuple(int(t) for t in c)),
                         ids=lambda c: "-".join(t.name for t in c))
def test_half_and_float_operands_are_rounded_into_the_composite_formats(h: Any, combo: tuple[Any, ...]) -> None:
    # Values whose E4M3 and E5M2 roundings differ (1.1 -> 1.125 in f8, 1.0 in bf8); the reference
    # rounds with this file's formats.  D is f32 or f16 where the table allows, else read back.
    a_t, b_t, out_t, _ = combo
    fa, fb = doc_formats(combo)
    vals = np.array([1.1, -2.3, 0.6, 3.7, -1.4, 0.3])
    a = np.resize(vals, (3, 4)).astype({F16T: np.float16, F32T: np.float32}.get(a_t, np.float64))
    b = np.resize(vals[::-1], (4, 2)).astype({F16T: np.float16, F32T: np.float32}.get(b_t, np.float64))
    if a_t in (F8T, BF8T):  # float8 operands: codes of the rounded values
        a = np.array([[_code(nearest(float(v), fa), fa) for v in row] for row in a], np.uint8)
    if b_t in (F8T, BF8T):
        b = np.array([[_code(nearest(float(v), fb), fb) for v in row] for row in b], np.uint8)
    qa = _values(a, a_t, fa)
    qb = _values(b, b_t, fb)
    exact = qa @ qb
    if out_t in (F8T, BF8T):
        want = np.vectorize(lambda v: nearest(float(v), F8 if out_t is F8T else BF8))(exact)
        got = _f8_values(_gemm_f8(h, combo, a, b).astype(np.uint8), F8 if out_t is F8T else BF8)
    else:
        want = exact.astype({F32T: np.float32, F16T: np.float16}[out_t]).astype(np.float64)
        got = _gemm_f8(h, combo, a, b)
    np.testing.assert_array_equal(got, want)
    other = {F8: BF8, BF8: F8}
    swapped = _values(a, a_t, other[fa]) @ _values(b, b_t, other[fb])
    assert not np.array_equal(exact, swapped)  # (the data tells the formats apart)


def _code(value: float, fmt: int) -> int:
    return int(np.flatnonzero(VALUES[fmt] == value)[0])


def _f8_values(codes: np.ndarray, fmt: int) -> np.ndarray:
    return from_f8(codes, fmt).astype(np.float64)


def _values(x: np.ndarray, t: Any, fmt: int) -> np.ndarray:
    """An operand's values in the product: float8 codes decoded, others rounded to nearest into fmt."""
    if t in (F8T, BF8T):
        return _f8_values(x, fmt)
    return np.vectorize(lambda v: nearest(float(v), fmt))(x.astype(np.float64))


# --- gemm_ex3: stochastic rounding's seeds and flag ---------------------------------------------------

SR_COMBO = (F32T, F8T, F8T, CT.f8_f8_f32)  # A rounded into f8 with SR_SEED_A, D with SR_SEED_C


@pytest.mark.parametrize(("text", "seed"), [("-5", 2**32 - 5), ("  1048575", 2**20 - 1), ("\t+1048575x", 2**20 - 1),
                                            ("30065819647", 2**20 - 1), ("-", 0), ("x12", 0), ("0x10", 0),
                                            ("99999999999999999999", 2**32 - 1), ("-99999999999999999999", 0)])
def test_sr_seed_is_read_as_strtol_reads_it(h: Any, monkeypatch: pytest.MonkeyPatch, text: str, seed: int) -> None:
    # (Seeds with their low 20 bits set: the bits a float -> f8 rounding's decision takes from the seed.
    # 30065819647 is 7 * 2**32 + 2**20 - 1, wrapped to uint32; strtol saturates what a 64-bit long
    # cannot hold, to LONG_MAX (uint32: 2**32 - 1) and LONG_MIN (0); base 10: "0x10" is 0.)
    monkeypatch.setenv("SR_SEED_A", text)
    monkeypatch.setenv("SR_SEED_C", text)
    monkeypatch.delenv("SR_SEED_B", raising=False)
    assert (beta.sr_seed("SR_SEED_A"), beta.sr_seed("SR_SEED_B")) == (seed, 0)
    run(h, SR_COMBO, "plain", m=5, n=4, k=3, sr=True, seeds=(seed, 0, seed), seed=3)


def test_stochastic_rounding_among_other_flag_bits(h: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("SR_SEED_A", "91"), ("SR_SEED_B", "0"), ("SR_SEED_C", "17")):
        monkeypatch.setenv(name, value)
    plain = blas.gemm_ex3
    others = int(GemmFlags.use_cu_efficiency | GemmFlags.fp16_alt_impl | GemmFlags.fp16_alt_impl_rnz)

    def with_bits(*args: Any, **kw: Any) -> Any:
        return plain(*args, **{**kw, "flags": kw["flags"] | others})

    monkeypatch.setattr(blas, "gemm_ex3", with_bits)  # (run calls rocmath.blas.gemm_ex3 by name)
    run(h, SR_COMBO, "plain", m=6, n=5, k=4, sr=True, seeds=(91, 0, 17), seed=4)
    run(h, SR_COMBO, "plain", m=6, n=5, k=4, sr=False, seed=4)  # other bits alone: to nearest


# --- gemm_ex3: size query, alignment, arch -------------------------------------------------------------


def _ws(*nbytes: int) -> int:
    return sum(-(-n // 64) * 64 for n in nbytes)


@pytest.mark.parametrize(("combo", "ta", "tb", "m", "n", "need"), [
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "N", "N", 100, 50, _ws(100 * 30)),   # A: m x k bytes
    ((F8T, F32T, F8T, CT.f8_f8_f32), "N", "N", 100, 50, _ws(30 * 50)),       # B: k x n bytes
    ((F16T, F16T, F16T, CT.bf8_f8_f32), "T", "N", 10, 20, _ws(10 * 30, 30 * 20)),
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "N", "N", 4, 50, _ws(4 * 30)),       # m == 4: not the small kernel
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "N", "N", 3, 50, 0),                 # m < 4 with transA N: small
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "N", "T", 100, 3, 0),                # n < 4, N T: small
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "T", "T", 100, 3, 0),                # n < 4, T T: small
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "C", "T", 100, 3, _ws(100 * 30)),    # transA C: not small
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "T", "N", 100, 3, _ws(100 * 30)),    # transB N: not small
    ((F32T, BF8T, F32T, CT.f8_bf8_f32), "T", "T", 100, 4, _ws(100 * 30)),
])
def test_size_query_workspace(h: Any, combo: tuple[Any, ...], ta: str, tb: str, m: int, n: int, need: int) -> None:
    k = 30
    a_t, b_t, out_t, comp = combo
    lda, ldb = (m if ta == "N" else k), (k if tb == "N" else n)
    blas.start_device_memory_size_query(h)
    try:
        status = blas.gemm_ex3(h, ta, tb, m, n, k, 1.0, None, a_t, lda, None, b_t, ldb, 0.0, None, out_t, m, None,
                               out_t, m, comp, 0, 0, 0)
    finally:
        got = blas.stop_device_memory_size_query(h)
    assert got == need
    assert status == (RocblasStatus.size_increased if need else RocblasStatus.size_unchanged)


@pytest.mark.parametrize("name", ["a", "b", "c", "d"])
def test_each_pointer_is_checked_for_alignment(h: Any, name: str) -> None:
    # f16 everywhere (f8_f8_f32 composite): every pointer must be 2-byte aligned.
    bufs = {x: rm.to_device(np.full(16, 1.5, np.float16)) for x in "abc"}
    d = rm.to_device(np.full(16, SENTINEL, np.float16))
    ptrs = {x: v.ptr for x, v in bufs.items()} | {"d": d.ptr}
    ptrs[name] += 1
    expect(RocblasInvalidSizeError, blas.gemm_ex3, h, "N", "N", 3, 3, 3, 1.0, ptrs["a"], F16T, 3, ptrs["b"], F16T, 3,
           1.0, ptrs["c"], F16T, 3, ptrs["d"], F16T, 3, CT.f8_f8_f32, 0, 0, 0, arg=name)
    np.testing.assert_array_equal(d.get(), np.full(16, SENTINEL, np.float16))
    # aligned, the same call runs: 1.5 is exact in f8, 3 * 2.25 + 1.5 = 8.25
    blas.gemm_ex3(h, "N", "N", 3, 3, 3, 1.0, bufs["a"].ptr, F16T, 3, bufs["b"].ptr, F16T, 3, 1.0, bufs["c"].ptr, F16T,
                  3, d.ptr, F16T, 3, CT.f8_f8_f32, 0, 0, 0)
    np.testing.assert_array_equal(d.get()[:9], np.full(9, 8.25, np.float16))
    np.testing.assert_array_equal(d.get()[9:], np.full(7, SENTINEL, np.float16))


def test_gfx950_passes_the_arch_check(h: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # rocBLAS (rocblas_gemm_ex3.cpp): arch_mismatch unless getArch() < 1000 (and from gfx94x on).
    props = h.device.properties
    for arch, ok in (("gfx950", True), ("gfx942:sramecc+:xnack-", True), ("gfx1010", False), ("gfx1200", False)):
        monkeypatch.setattr(h.device, "properties", type(props)(**{**vars(props), "gcnArchName": arch}))
        args = ("N", "N", -1, 3, 3, 1.0, None, F8T, 3, None, F8T, 3, 0.0, None, F32T, 3, None, F32T, 3, 7, 0, 0, 0)
        if ok:  # past the device: the unknown compute type 7 comes next
            expect(RocblasNotImplementedError, blas.gemm_ex3, h, *args, arg="compute_type")
        else:
            expect(RocblasArchMismatchError, blas.gemm_ex3, h, *args)


# --- get_solutions -------------------------------------------------------------------------------------


def test_size_query_checks_only_half_inputs_computed_in_float(h: Any) -> None:
    half = problem("plain", (DT.f16_r, DT.f16_r, DT.f16_r))  # computed in f16: answered at once
    hpa = problem("plain", (DT.f16_r, DT.f16_r, DT.f32_r))
    blas.start_device_memory_size_query(h)
    try:
        for bad in ({"m": -1}, {"transA": 999}, {"ldc": 1}):
            assert blas.gemm_ex_get_solutions(h, **{**half["kw"], **bad}) == RocblasStatus.size_unchanged
        expect(RocblasInvalidSizeError, blas.gemm_ex_get_solutions, h, arg="m", **{**hpa["kw"], "m": -1})
    finally:
        assert blas.stop_device_memory_size_query(h) == 0
    untouched(half)
    untouched(hpa)


def test_a_read_only_list_array_is_invalid_pointer(h: Any) -> None:
    p = problem("plain")
    out = np.zeros(2, np.int32)
    out.flags.writeable = False
    expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions, h, arg="list_array", **p["kw"], list_array=out,
           list_size=2)
    expect(RocblasInvalidPointerError, blas.gemm_ex_get_solutions_by_type, h, F32T, F32T, F32T, 0, out, 2,
           arg="list_array")
    np.testing.assert_array_equal(out, [0, 0])
    untouched(p)
