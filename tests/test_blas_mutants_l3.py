"""Level 3 cases a mutation-testing pass found unguarded by the other Level 3 tests.

Each test pins a path that small plausible bugs got through unnoticed:

- gemm past the small-entry loops (a dimension > SMALL) in batches, with an operand of a single
  column (k == 1 and op(B) transposed): BLAS's leading dimension of such an operand is the rows
  BLAS checks for, not the (meaningless) column stride;
- syrkx and herkx with n beyond one column block (RANKX_BLOCK) and op(A), op(B) transposed:
  the block columns' and row blocks' offsets into A and B step by lda and ldb (which differ here);
- trsm and trmm from the right in batches, with lda < m: A's leading dimension spans n rows;
- dgmm with a negative incx (x read from its far end, reference-BLAS order) and with incx 0;
- geam with beta == 0 (B unread, op(A) still transposed or conjugated) and its in-place rule
  (C may be A or B only with the same leading dimension).

Every operand lives in a poisoned padded buffer (padding and batch gaps keep their bits, inputs
are unchanged, the triangle of C syrkx/herkx do not own keeps its bits).  The data are small
integers, so every result is exact in every precision and is compared bit for bit with a numpy
reference computed in double precision.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_blas_ex import Dev, _close_buffers  # noqa: F401  (_close_buffers: a fixture, frees the buffers)
from test_blas_level3 import op, wide

import rocmath as rm
import rocmath.testing as rt
from rocmath.blas import _kernels_l3 as k3
from rocmath.blas import create_handle, destroy_handle, extensions, level3
from rocmath.errors import RocblasInvalidSizeError
from rocmath.precision import SDCZ, C, Precision, Z

SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = create_handle()
    yield h
    destroy_handle(h)


# --- helpers ---------------------------------------------------------------------------------------


def ints(rng: np.random.Generator, p: Precision, shape: tuple[int, ...], bound: int = 3) -> np.ndarray:
    """Small integers (complex ones with integer parts): every sum of a few products is exact."""
    x = rng.integers(-bound, bound + 1, shape).astype(np.float64)
    if p.is_complex:
        x = x + 1j * rng.integers(-bound, bound + 1, shape)
    return x.astype(p.dtype)


def exact(got: np.ndarray, expected: np.ndarray) -> None:
    """``got`` equals the double-precision ``expected`` rounded to its type (exact here: small integers)."""
    np.testing.assert_array_equal(got, expected.astype(got.dtype))


class Stack(Dev):
    """A ``(batch, rows, cols)`` host stack on the device in one flavour, padding poisoned
    (test_blas_ex's :class:`Dev`; ``es`` is unused: Dev's buffers close when the test ends)."""

    def __init__(self, es: ExitStack, host: np.ndarray, ld: int, flavour: str, gap: int = 1):
        super().__init__(host, host.dtype, flavour, ld=ld, gap=gap)


def batch_tail(flavour: str, batch: int) -> tuple[int, ...]:
    return () if flavour == "plain" else (batch,)


# --- gemm of small entries: every row count's tiles ------------------------------------------------------

#: Rows across gemm_cols (<= COLS), gemm_small's short-column path (op(A) padded to a 64-byte vector:
#: f32 entries of 9-15 rows) and its row tiles (16, 8, 4, 1), to SMALL.
SMALL_ROWS = (*range(1, 18), 23, 31, 33, 47, 48, k3.SMALL - 1, k3.SMALL)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_gemm_small_entries_every_height_and_width(handle: Any, p: Precision) -> None:
    # Each row count with every width of 1-9 columns (the 4-column blocks and the n % 4 columns left),
    # a lone entry (the loops straight from the stream) and a strided batch of two, in turn.
    rng = np.random.default_rng(11)
    k, combos = 3, [(ta, tb) for ta in "NTC" for tb in "NTC"]
    for i, m in enumerate(SMALL_ROWS):
        for n in range(1, 10):
            ta, tb = combos[(i + n) % len(combos)]
            flavour = ("plain", "strided")[(i + n) % 2]
            batch = 1 if flavour == "plain" else 2
            sa, sb = ((m, k) if ta == "N" else (k, m)), ((k, n) if tb == "N" else (n, k))
            a, b, c = ints(rng, p, (batch, *sa)), ints(rng, p, (batch, *sb)), ints(rng, p, (batch, m, n))
            with ExitStack() as es:
                A, B, Cm = Stack(es, a, sa[0] + 1, flavour), Stack(es, b, sb[0], flavour), Stack(es, c, m + 2, flavour)
                f = getattr(level3, f"{p.letter}gemm{SUFFIX[flavour]}")
                f(handle, ta, tb, m, n, k, -1, A.arg, A.ld, *A.tail, B.arg, B.ld, *B.tail, 2, Cm.arg, Cm.ld,
                  *Cm.tail, *batch_tail(flavour, batch))
                got = Cm.get()
                Cm.check(logical=False)
            exact(got, 2 * wide(c) - op(wide(a), ta) @ op(wide(b), tb))


# --- gemm past SMALL with single-column operands -----------------------------------------------------

beyond_small = st.sampled_from((1, 2, 5, k3.SMALL + 1, k3.SMALL + 6))


@settings(deadline=None, max_examples=rt.examples(16))
@given(p=st.sampled_from(SDCZ), flavour=st.sampled_from(("strided", "batched")), batch=st.integers(2, 3),
       ta=st.sampled_from("NTC"), tb=st.sampled_from("NTC"), m=beyond_small, n=beyond_small,
       k=st.integers(1, 2), pads=st.tuples(*[st.integers(0, 2)] * 3), seed=st.integers(0, 2**16))
def test_gemm_batches_past_small_with_single_column_operands(handle: Any, p: Precision, flavour: str, batch: int,
                                                             ta: str, tb: str, m: int, n: int, k: int,
                                                             pads: tuple[int, int, int], seed: int) -> None:
    # A batch (not a lone entry) of problems past the small-gemm loops goes through BLAS per entry with
    # leading dimensions worked out from the operands' views: a stored A or B of one column
    # (op(B) transposed with k == 1: B is n x 1) has no column stride to take them from.
    if max(m, n) <= k3.SMALL:
        m = k3.SMALL + 1
    rng = np.random.default_rng(seed)
    sa, sb = ((m, k) if ta == "N" else (k, m)), ((k, n) if tb == "N" else (n, k))
    a, b, c = ints(rng, p, (batch, *sa)), ints(rng, p, (batch, *sb)), ints(rng, p, (batch, m, n))
    with ExitStack() as es:
        A, B = Stack(es, a, sa[0] + pads[0], flavour), Stack(es, b, sb[0] + pads[1], flavour)
        Cm = Stack(es, c, m + pads[2], flavour)
        f = getattr(level3, f"{p.letter}gemm{SUFFIX[flavour]}")
        f(handle, ta, tb, m, n, k, 2, A.arg, A.ld, *A.tail, B.arg, B.ld, *B.tail, -1, Cm.arg, Cm.ld, *Cm.tail,
          batch)
        got = Cm.get()
        A.check(logical=True)
        B.check(logical=True)
        Cm.check(logical=False)
    exact(got, 2 * (op(wide(a), ta) @ op(wide(b), tb)) - wide(c))


# --- syrkx and herkx across column blocks, transposed ---------------------------------------------------


@st.composite
def rankx_case(draw: st.DrawFn) -> dict[str, Any]:
    routine = draw(st.sampled_from(("syrkx", "herkx")))
    p = draw(st.sampled_from((C, Z) if routine == "herkx" else SDCZ))
    trans = draw(st.sampled_from("NC" if routine == "herkx" else ("NT" if p.is_complex else "NTC")))
    n, k = k3.RANKX_BLOCK + draw(st.integers(1, 12)), draw(st.integers(1, 3))
    rows = n if trans == "N" else k
    lda = rows + draw(st.integers(0, 2))
    ldb = rows + draw(st.integers(3, 5))  # never lda: a step by the wrong one shows
    return dict(routine=routine, p=p, trans=trans, uplo=draw(st.sampled_from("UL")), n=n, k=k, lda=lda, ldb=ldb,
                ldc=n + draw(st.integers(0, 2)), flavour=draw(st.sampled_from(tuple(SUFFIX))),
                beta=draw(st.sampled_from((0, 1, -2))), seed=draw(st.integers(0, 2**16)))


@settings(deadline=None, max_examples=rt.examples(12))
@given(case=rankx_case())
def test_syrkx_herkx_transposed_across_column_blocks(handle: Any, case: dict[str, Any]) -> None:
    # syrkx/herkx run as gemm by column blocks of RANKX_BLOCK: a block's rows start r0 rows (or, op(A)
    # transposed, r0 columns) into A, its columns c0 into B; only the lower triangle's blocks (and the
    # upper's past the first) have r0, c0 > 0.
    routine, p, trans, uplo, n, k = (case[x] for x in ("routine", "p", "trans", "uplo", "n", "k"))
    flavour, beta = case["flavour"], case["beta"]
    batch = 1 if flavour == "plain" else 2
    rng = np.random.default_rng(case["seed"])
    shape = (n, k) if trans == "N" else (k, n)
    a, b, c = ints(rng, p, (batch, *shape)), ints(rng, p, (batch, *shape)), ints(rng, p, (batch, n, n))
    alpha = 2 - 1j if p.is_complex else 2
    with ExitStack() as es:
        A, B = Stack(es, a, case["lda"], flavour), Stack(es, b, case["ldb"], flavour)
        Cm = Stack(es, c, case["ldc"], flavour)
        if beta == 0:
            Cm.poison()  # beta == 0: C is not read, and its other triangle keeps the sentinel
        before = Cm.get()
        f = getattr(level3, f"{p.letter}{routine}{SUFFIX[flavour]}")
        f(handle, uplo, trans, n, k, alpha, A.arg, A.ld, *A.tail, B.arg, B.ld, *B.tail, beta, Cm.arg, Cm.ld,
          *Cm.tail, *batch_tail(flavour, batch))
        got = Cm.get()
        A.check(logical=True)
        B.check(logical=True)
        Cm.check(logical=False)
    t = "C" if routine == "herkx" else "T"
    x, y = op(wide(a), "N" if trans == "N" else t), op(wide(b), "N" if trans == "N" else t)
    expected = alpha * (x @ op(y, t)) + (0 if beta == 0 else beta * wide(before))
    own = np.triu(np.ones((n, n), bool)) if uplo == "U" else np.tril(np.ones((n, n), bool))
    if routine == "herkx":
        d = np.arange(n)
        expected[..., d, d] = expected[..., d, d].real
    assert np.ascontiguousarray(got[..., ~own]).tobytes() == np.ascontiguousarray(before[..., ~own]).tobytes(), \
        "the other triangle of C changed"
    exact(got[..., own], expected[..., own])


# --- trsm and trmm from the right, batched, lda < m -----------------------------------------------------


def integer_triangle(rng: np.random.Generator, p: Precision, batch: int, n: int, uplo: str,
                     diag: str) -> tuple[np.ndarray, np.ndarray]:
    """(stored A, the triangle it means): diagonal +-1 and small integers off it, so that solves stay in
    small integers; NaN where the routine must not read (the other triangle; a unit diagonal)."""
    t = ints(rng, p, (batch, n, n), bound=1)
    t = np.triu(t) if uplo == "U" else np.tril(t)
    d = np.arange(n)
    t[..., d, d] = rng.choice((-1, 1), (batch, n))
    if diag == "U":
        t[..., d, d] = 1
    stored = t.copy()
    other = ~(np.triu(np.ones((n, n), bool)) if uplo == "U" else np.tril(np.ones((n, n), bool)))
    stored[..., other] = np.nan
    if diag == "U":
        stored[..., d, d] = np.nan
    return stored, t


@settings(deadline=None, max_examples=rt.examples(20))
@given(p=st.sampled_from(SDCZ), flavour=st.sampled_from(("strided", "batched")), side=st.sampled_from("LR"),
       uplo=st.sampled_from("UL"), ta=st.sampled_from("NTC"), diag=st.sampled_from("NU"),
       m=st.integers(1, 7), n=st.integers(1, 7), pad=st.integers(0, 1), seed=st.integers(0, 2**16))
def test_trsm_trmm_batches_with_lda_of_the_triangle(handle: Any, p: Precision, flavour: str, side: str, uplo: str,
                                                    ta: str, diag: str, m: int, n: int, pad: int, seed: int) -> None:
    # The triangle is ka x ka (ka = n from the right): its lda may be less than m.
    batch, ka = 2, (m if side == "L" else n)
    rng = np.random.default_rng(seed)
    stored, t = integer_triangle(rng, p, batch, ka, uplo, diag)
    x = ints(rng, p, (batch, m, n))
    ot = op(wide(t), ta)
    b = (ot @ wide(x) if side == "L" else wide(x) @ ot).astype(p.dtype)  # exact: integers
    with ExitStack() as es:
        A, B = Stack(es, stored, ka + pad, flavour), Stack(es, b, m + 1, flavour)
        getattr(level3, f"{p.letter}trsm{SUFFIX[flavour]}")(handle, side, uplo, ta, diag, m, n, 1, A.arg, A.ld,
                                                           *A.tail, B.arg, B.ld, *B.tail, batch)
        solved = B.get()
        A.check(logical=True)
        B.check(logical=False)
        Cm = Stack(es, np.zeros_like(x), m, flavour)
        Cm.poison()  # trmm writes C without reading it
        Xm = Stack(es, x, m + 2, flavour)
        getattr(level3, f"{p.letter}trmm{SUFFIX[flavour]}")(handle, side, uplo, ta, diag, m, n, 2, A.arg, A.ld,
                                                           *A.tail, Xm.arg, Xm.ld, *Xm.tail, Cm.arg, Cm.ld,
                                                           *Cm.tail, batch)
        product = Cm.get()
        A.check(logical=True)
        Xm.check(logical=True)
        Cm.check(logical=False)
    exact(solved, wide(x))
    exact(product, 2 * wide(b))


# --- dgmm ------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=rt.examples(24))
@given(p=st.sampled_from(SDCZ), flavour=st.sampled_from(tuple(SUFFIX)), side=st.sampled_from("LR"),
       m=st.integers(1, 6), n=st.integers(1, 6), incx=st.sampled_from((-3, -2, -1, 0, 1, 2)),
       in_place=st.booleans(), seed=st.integers(0, 2**16))
def test_dgmm_increments(handle: Any, p: Precision, flavour: str, side: str, m: int, n: int, incx: int,
                         in_place: bool, seed: int) -> None:
    # incx < 0: element i of x is stored (len - 1 - i) |incx| past the pointer (reference BLAS);
    # incx == 0: every element is x[0].  C may be A itself.
    batch = 1 if flavour == "plain" else 2
    rng = np.random.default_rng(seed)
    kx = n if side == "R" else m
    a, x = ints(rng, p, (batch, m, n)), ints(rng, p, (batch, kx))
    stored = x[:, :1] if incx == 0 else x
    with ExitStack() as es:
        A = Stack(es, a, m + 1, flavour)
        step = incx or 1
        xstride = abs(step) * stored.shape[1] + 1
        if flavour == "batched":
            xs = [es.enter_context(rt.poisoned_device_vector(v, step)) for v in stored]
            xarg: Any = rm.to_device(np.array([v.ptr for v in xs], dtype=np.uint64))
        else:
            xs = [es.enter_context(rt.poisoned_device_vector(stored if flavour == "strided" else stored[0], step,
                                                             stride=xstride if flavour == "strided" else None))]
            xarg = xs[0].ptr
        Cm = A if in_place else Stack(es, np.zeros_like(a), m + 2, flavour)
        if not in_place:
            Cm.poison()
        f = getattr(extensions, f"{p.letter}dgmm{SUFFIX[flavour]}")
        f(handle, side, m, n, A.arg, A.ld, *A.tail, xarg, incx, *((xstride,) if flavour == "strided" else ()),
          Cm.arg, Cm.ld, *Cm.tail, *batch_tail(flavour, batch))
        got = Cm.get()
        Cm.check(logical=False)
        if not in_place:
            A.check(logical=True)
        for v in xs:
            v.check_untouched(logical=True)
    d = wide(np.broadcast_to(x[:, :1], x.shape) if incx == 0 else x)
    exact(got, wide(a) * (d[:, None, :] if side == "R" else d[:, :, None]))


# --- geam ------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=rt.examples(24))
@given(p=st.sampled_from(SDCZ), flavour=st.sampled_from(tuple(SUFFIX)), ta=st.sampled_from("NTC"),
       tb=st.sampled_from("NTC"), m=st.integers(1, 6), n=st.integers(1, 6), alpha=st.sampled_from((0, 1, -2)),
       beta=st.sampled_from((0, 1, 3)), seed=st.integers(0, 2**16))
def test_geam_every_scalar_zero_case(handle: Any, p: Precision, flavour: str, ta: str, tb: str, m: int, n: int,
                                     alpha: int, beta: int, seed: int) -> None:
    # A zero alpha (beta) means A (B) is not read: it holds the sentinel here; the other operand's op()
    # (transpose, conjugate transpose) still applies.
    batch = 1 if flavour == "plain" else 2
    rng = np.random.default_rng(seed)
    sa, sb = ((m, n) if ta == "N" else (n, m)), ((m, n) if tb == "N" else (n, m))
    a, b = ints(rng, p, (batch, *sa)), ints(rng, p, (batch, *sb))
    with ExitStack() as es:
        A, B = Stack(es, a, sa[0] + 1, flavour), Stack(es, b, sb[0] + 2, flavour)
        Cm = Stack(es, np.zeros((batch, m, n), p.dtype), m, flavour)
        Cm.poison()
        if alpha == 0:
            A.poison()
        if beta == 0:
            B.poison()
        f = getattr(extensions, f"{p.letter}geam{SUFFIX[flavour]}")
        f(handle, ta, tb, m, n, alpha, A.arg, A.ld, *A.tail, beta, B.arg, B.ld, *B.tail, Cm.arg, Cm.ld, *Cm.tail,
          *batch_tail(flavour, batch))
        got = Cm.get()
        A.check(logical=True)
        B.check(logical=True)
        Cm.check(logical=False)
    expected = np.zeros((batch, m, n))
    if alpha:
        expected = expected + alpha * op(wide(a), ta)
    if beta:
        expected = expected + beta * op(wide(b), tb)
    exact(got, expected)


@pytest.mark.parametrize("which", ("A", "B"))
@pytest.mark.parametrize("ld_delta", (-1, 1))
def test_geam_in_place_needs_the_same_leading_dimension(handle: Any, which: str, ld_delta: int) -> None:
    # rocblas_geam_arg_check: C == A with lda != ldc (either way) is invalid_size; nothing is written.
    m, n, ldc = 3, 4, 4
    rng = np.random.default_rng(5)
    with ExitStack() as es:
        Cm = es.enter_context(rt.poisoned_device_matrix(ints(rng, Z, (m, n)), ldc))
        other = es.enter_context(rt.poisoned_device_matrix(ints(rng, Z, (m, n)), m))
        ld = ldc + ld_delta
        args = ((Cm.ptr, ld, other.ptr, m) if which == "A" else (other.ptr, m, Cm.ptr, ld))
        with pytest.raises(RocblasInvalidSizeError) as err:
            extensions.zgeam(handle, "N", "N", m, n, 1.0, args[0], args[1], 2.0, args[2], args[3], Cm.ptr, ldc)
        assert err.value.arg == "C"
        Cm.check_untouched(logical=True)
        other.check_untouched(logical=True)
