"""rocBLAS Level 3: gemm, symm/hemm, syrk/herk, syr2k/her2k, syrkx/herkx, trmm, trsm, trtri.

Accuracy is checked against numpy references computed in double precision on host
copies of the inputs, over sizes with 0 and 1, padded leading dimensions, all four
precisions, every trans/uplo/side/diag, scalars with 0 and 1, and the three flavours.
Every operand lives in a poisoned padded buffer: padding and batch gaps must keep their
sentinel bits, inputs must be unchanged bit for bit, and so must the triangle of C a
syrk-like routine does not own (and the triangle of A a symmetric or triangular
routine does not read holds NaN, so reading it shows).  Argument checking (status,
argument named, rocBLAS's check order, C untouched) is tested separately.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath.blas import PointerMode, create_handle, destroy_handle, level3, set_pointer_mode
from rocmath.blas import _kernels_l3 as k3
from rocmath.errors import RocblasInvalidPointerError, RocblasInvalidSizeError, RocblasInvalidValueError
from rocmath.precision import SDCZ, C, D, Precision, Z

FLAVOURS = ("plain", "strided", "batched")
SUFFIX = {"plain": "", "strided": "_strided_batched", "batched": "_batched"}
LD = {"A": "lda", "B": "ldb", "C": "ldc", "invA": "ldinvA"}
STRIDE = {"A": "stride_a", "B": "stride_b", "C": "stride_c", "invA": "stride_invA"}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = create_handle()
    yield h
    destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    return getattr(level3, f"{p.letter}{routine}{SUFFIX[flavour]}")


# --- operands in every flavour ---------------------------------------------------------------------


class Operand:
    """A ``(batch, rows, cols)`` host stack on the device in one flavour, padding poisoned.

    ``arg`` is what the call gets: the first entry's pointer (plain, strided) or a device
    array of entry pointers (batched).
    """

    def __init__(self, host: np.ndarray, ld: int, flavour: str, gap: int = 0):
        self.flavour, self.ld = flavour, ld
        self.shape, self.dtype = host.shape, host.dtype
        cols = host.shape[2]
        self.stride = 0
        if flavour == "plain":
            self.mats = [rt.poisoned_device_matrix(host[0], ld)]
            self.arg: Any = self.mats[0].ptr
        elif flavour == "strided":
            self.mats = [rt.poisoned_device_matrix(host, ld, stride=ld * cols + gap)]
            self.stride, self.arg = self.mats[0].stride, self.mats[0].ptr
        else:
            self.mats = [rt.poisoned_device_matrix(h, ld) for h in host]
            self.arg = rm.to_device(np.array([m.ptr for m in self.mats] or [0], dtype=np.uint64))

    def poison(self) -> None:
        for m in self.mats:
            m.poison()

    def get(self) -> np.ndarray:
        if self.flavour == "strided":
            return self.mats[0].get()
        if not self.mats:
            return np.empty(self.shape, self.dtype)
        return np.stack([m.get() for m in self.mats])

    def check(self, logical: bool) -> None:
        for m in self.mats:
            m.check_untouched(logical=logical)

    def close(self) -> None:
        for m in self.mats:
            m.close()


@contextmanager
def operands(flavour: str, gap: int = 0, **specs: tuple[np.ndarray, int]) -> Iterator[dict[str, Operand]]:
    ops = {name: Operand(host, ld, flavour, gap) for name, (host, ld) in specs.items()}
    try:
        yield ops
    finally:
        for operand in ops.values():
            operand.close()


def call(handle: Any, routine: str, p: Precision, flavour: str, ops: dict[str, Operand], batch: int,
         null: tuple[str, ...] = (), **args: Any) -> None:
    """Call ``routine`` with ``args`` plus the operands (their lds, strides) and batch_count."""
    for name, operand in ops.items():
        args[name] = None if name in null else operand.arg
        args[LD[name]] = operand.ld
        if flavour == "strided":
            args[STRIDE[name]] = operand.stride
    if flavour != "plain":
        args["batch_count"] = batch
    fn(routine, p, flavour)(handle, **args)


def finish(ops: dict[str, Operand], outputs: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The outputs' data; every operand's padding checked, inputs checked unchanged."""
    out = {name: ops[name].get() for name in outputs}
    for name, operand in ops.items():
        operand.check(logical=name not in outputs)
    return out


# --- references --------------------------------------------------------------------------------


def wide(x: Any) -> np.ndarray:
    x = np.asarray(x)
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def op(x: np.ndarray, t: str) -> np.ndarray:
    if t == "N":
        return x
    xt = np.swapaxes(x, -1, -2)
    return xt.conj() if t == "C" else xt


def triangle(n: int, uplo: str, strict: bool = False) -> np.ndarray:
    ones = np.ones((n, n), dtype=bool)
    return np.triu(ones, int(strict)) if uplo == "U" else np.tril(ones, -int(strict))


def scaled(beta: Any, c: np.ndarray) -> Any:
    """beta C, where beta == 0 means C is not read (it may hold NaN)."""
    return 0 if beta == 0 else beta * wide(c)


def bound(magnitudes: Any) -> float:
    """The size of the terms a result sums, the scale of its rounding errors (the result
    itself may cancel to something much smaller)."""
    m = np.asarray(magnitudes)
    return float(m.max()) if m.size else 1.0


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def with_nan(a: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``a`` with NaN where ``mask``: elements a routine must not read."""
    out = a.copy()
    out[..., mask] = np.nan
    return out


# --- strategies --------------------------------------------------------------------------------

small = rt.sizes(max_value=6)
flavours = st.sampled_from(FLAVOURS)
uplos = st.sampled_from("UL")
sides = st.sampled_from("LR")
diags = st.sampled_from("NU")


@st.composite
def stack(draw: st.DrawFn, p: Precision, batch: int, rows: int, cols: int) -> tuple[np.ndarray, int]:
    """Host data ``(batch, rows, cols)`` and a (often padded) leading dimension."""
    data = draw(rt.host_arrays(p, (batch, rows, cols)))
    return data, draw(rt.leading_dimensions(rows, max_padding=3))


@st.composite
def setup(draw: st.DrawFn, precisions: tuple[Precision, ...] = SDCZ) -> tuple[Precision, str, int, int]:
    p = draw(st.sampled_from(precisions))
    flavour = draw(flavours)
    batch = 1 if flavour == "plain" else draw(st.integers(0, 3))
    return p, flavour, batch, draw(st.integers(0, 2))


def scalar(p: Precision) -> st.SearchStrategy[Any]:
    # No subnormal alpha or beta: results in the subnormal range have fewer significant bits
    # than any relative tolerance allows.
    return rt.scalars(p, allow_nan=False).filter(lambda v: v == 0 or abs(v) > 1e-30)


# --- gemm ------------------------------------------------------------------------------------


#: Sizes across gemm_cols (rows <= 8), the row tiles (16, 8, 4, 1) and 4-column blocks of the small-gemm loops, to
#: their limit (SMALL) and one past it (BLAS per entry).
tile_sizes = st.sampled_from((1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 31, 33, 48, k3.SMALL, k3.SMALL + 1))


@settings(max_examples=rt.examples(50))
@given(st.data())
def test_gemm(handle: Any, data: st.DataObject) -> None:
    check_gemm(handle, data, small)


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_gemm_register_tiles(handle: Any, data: st.DataObject) -> None:
    check_gemm(handle, data, tile_sizes)


def check_gemm(handle: Any, data: st.DataObject, sizes: st.SearchStrategy[int]) -> None:
    p, flavour, batch, gap = data.draw(setup())
    ta, tb = data.draw(st.sampled_from("NTC")), data.draw(st.sampled_from("NTC"))
    m, n, k = data.draw(sizes), data.draw(sizes), data.draw(sizes)
    alpha, beta = data.draw(scalar(p)), data.draw(scalar(p))
    a, lda = data.draw(stack(p, batch, *((m, k) if ta == "N" else (k, m))))
    b, ldb = data.draw(stack(p, batch, *((k, n) if tb == "N" else (n, k))))
    c, ldc = data.draw(stack(p, batch, m, n))
    null = ("A", "B") if alpha == 0 and data.draw(st.booleans()) else ()
    with operands(flavour, gap, A=(a, lda), B=(b, ldb), C=(c, ldc)) as ops:
        if beta == 0:
            ops["C"].poison()  # beta == 0 must not read C
        before = ops["C"].get()
        call(handle, "gemm", p, flavour, ops, batch, null, transA=ta, transB=tb, m=m, n=n, k=k, alpha=alpha,
             beta=beta)
        got = finish(ops, ("C",))["C"]
    if m == 0 or n == 0 or batch == 0 or (beta == 1 and (alpha == 0 or k == 0)):
        assert same_bits(got, before)  # quick return: C untouched
        return
    expected = alpha * (op(wide(a), ta) @ op(wide(b), tb)) + scaled(beta, c)
    size = abs(alpha) * (np.abs(op(a, ta)) @ np.abs(op(b, tb))) + abs(scaled(beta, c))
    rt.assert_close(got, expected, p, "reduction", k, scale=bound(size))


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("ta", "tb"), [("N", "N"), ("T", "C"), ("C", "T")])
@pytest.mark.parametrize("m", [7, 33])
def test_gemm_batches_of_small_entries_on_the_thread_team(handle: Any, p: Precision, ta: str, tb: str, m: int) -> None:
    # Batches past the inline size run the small-gemm loops' parallel kernel (the hypothesis tests' small
    # batches run its serial twin), here in every precision in one process: a numba parfor compiled for
    # a second dtype once computed wrong sums where the first was right.  Rows 7: the one-column loops
    # (gemm_cols); 33: every tile height of gemm_small.
    batch, n, k = 160, 9, 17
    a = _data(p, batch, *((m, k) if ta == "N" else (k, m)), seed=1)
    b = _data(p, batch, *((k, n) if tb == "N" else (n, k)), seed=2)
    c = _data(p, batch, m, n, seed=3)
    with operands("strided", 5, A=(a, a.shape[1] + 1), B=(b, b.shape[1]), C=(c, m + 2)) as ops:
        call(handle, "gemm", p, "strided", ops, batch, transA=ta, transB=tb, m=m, n=n, k=k, alpha=1.5, beta=-0.5)
        got = finish(ops, ("C",))["C"]
    rt.assert_close(got, 1.5 * op(wide(a), ta) @ op(wide(b), tb) - 0.5 * wide(c), p, "reduction", k)


@pytest.mark.parametrize("p", SDCZ)
def test_gemm_k_zero_scales_c_by_beta(handle: Any, p: Precision) -> None:
    c = np.arange(1, 7, dtype=p.dtype).reshape(1, 2, 3)
    with operands("plain", A=(np.zeros((1, 2, 0), p.dtype), 2), B=(np.zeros((1, 0, 3), p.dtype), 1),
                  C=(c, 4)) as ops:
        call(handle, "gemm", p, "plain", ops, 1, transA="N", transB="N", m=2, n=3, k=0, alpha=5, beta=-2)
        got = finish(ops, ("C",))["C"]
    np.testing.assert_array_equal(got, -2 * c)


@pytest.mark.parametrize("alpha", [np.nan, np.inf])
@pytest.mark.parametrize("n", [3, 70])  # (small problems and the host BLAS's path)
def test_gemm_k_zero_never_uses_alpha(handle: Any, alpha: float, n: int) -> None:
    # rocBLAS takes alpha as 0 when k == 0, in host mode too (tensile_host.cpp): C := beta C, no
    # NaN from alpha times an empty sum.
    c = _data(D, 1, n, n)
    with operands("plain", A=(np.zeros((1, n, 0)), n), B=(np.zeros((1, 0, n)), 1), C=(c, n)) as ops:
        call(handle, "gemm", D, "plain", ops, 1, transA="N", transB="N", m=n, n=n, k=0, alpha=alpha, beta=2.0)
        np.testing.assert_array_equal(finish(ops, ("C",))["C"], 2 * c)


def test_gemm_null_alpha_with_k_zero_scales_c(handle: Any) -> None:
    # rocBLAS: alpha is only needed when k > 0 (or beta == 1).
    c = np.ones((1, 2, 2))
    with operands("plain", A=(np.zeros((1, 2, 0)), 2), B=(np.zeros((1, 0, 2)), 1), C=(c, 2)) as ops:
        call(handle, "gemm", D, "plain", ops, 1, transA="N", transB="N", m=2, n=2, k=0, alpha=None, beta=3.0)
        np.testing.assert_array_equal(finish(ops, ("C",))["C"], 3 * c)


# --- symm, hemm ----------------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_symm_hemm(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap = data.draw(setup())
    routine = data.draw(st.sampled_from(("symm", "hemm") if p.is_complex else ("symm",)))
    side, uplo = data.draw(sides), data.draw(uplos)
    m, n = data.draw(small), data.draw(small)
    ka = m if side == "L" else n
    alpha, beta = data.draw(scalar(p)), data.draw(scalar(p))
    a, lda = data.draw(stack(p, batch, ka, ka))
    a = with_nan(a, triangle(ka, "L" if uplo == "U" else "U", strict=True))  # not to be read
    b, ldb = data.draw(stack(p, batch, m, n))
    c, ldc = data.draw(stack(p, batch, m, n))
    with operands(flavour, gap, A=(a, lda), B=(b, ldb), C=(c, ldc)) as ops:
        if beta == 0:
            ops["C"].poison()
        before = ops["C"].get()
        call(handle, routine, p, flavour, ops, batch, side=side, uplo=uplo, m=m, n=n, alpha=alpha, beta=beta)
        got = finish(ops, ("C",))["C"]
    if m == 0 or n == 0 or batch == 0 or (alpha == 0 and beta == 1):
        assert same_bits(got, before)
        return
    own = triangle(ka, uplo)
    full = np.where(own, wide(a), 0)
    mirror = np.swapaxes(np.where(own, full, 0), -1, -2)
    if routine == "hemm":
        full = full + mirror.conj() * ~np.eye(ka, dtype=bool)
        full[..., np.arange(ka), np.arange(ka)] = full[..., np.arange(ka), np.arange(ka)].real
    else:
        full = full + mirror * ~np.eye(ka, dtype=bool)
    product = full @ wide(b) if side == "L" else wide(b) @ full
    size = abs(alpha) * (np.abs(full) @ np.abs(b) if side == "L" else np.abs(b) @ np.abs(full))
    rt.assert_close(got, alpha * product + scaled(beta, c), p, "reduction", ka,
                    scale=bound(size + abs(scaled(beta, c))))


# --- syrk, herk, syr2k, her2k, syrkx, herkx ------------------------------------------------------

RANK_K = ("syrk", "herk", "syr2k", "her2k", "syrkx", "herkx")


def rank_k_reference(routine: str, trans: str, alpha: Any, beta: Any, a: np.ndarray, b: np.ndarray,
                     c: np.ndarray) -> np.ndarray:
    herm = routine.startswith("her")
    t = "C" if herm else "T"
    x = op(wide(a), "N" if trans == "N" else t)  # op(A), n x k
    y = op(wide(b), "N" if trans == "N" else t)
    if routine in ("syrk", "herk"):
        prod = alpha * (x @ op(x, t))
    elif routine in ("syrkx", "herkx"):
        prod = alpha * (x @ op(y, t))
    elif routine == "her2k":
        prod = alpha * (x @ op(y, "C")) + np.conj(alpha) * (y @ op(x, "C"))
    else:
        prod = alpha * (x @ op(y, "T") + y @ op(x, "T"))
    return prod + scaled(beta, c)


def check_rank_k(routine: str, p: Precision, uplo: str, got: np.ndarray, before: np.ndarray,
                 expected: np.ndarray, k: int, size: Any = None) -> None:
    n = got.shape[-1]
    own = triangle(n, uplo)
    assert same_bits(got[..., ~own], before[..., ~own]), "the other triangle of C changed"
    if routine.startswith("her"):
        assert np.all(np.diagonal(got, axis1=-2, axis2=-1).imag == 0), "the diagonal of C must be real"
        expected = expected.copy()
        expected[..., np.arange(n), np.arange(n)] = expected[..., np.arange(n), np.arange(n)].real
    rt.assert_close(np.where(own, got, 0), np.where(own, expected, 0), p, "reduction", 2 * k + 1,
                    scale=None if size is None else bound(size))


def rank_k_case(data: st.DataObject, routine: str, max_n: int = 6) -> dict[str, Any]:
    herm = routine.startswith("her")
    p, flavour, batch, gap = data.draw(setup((C, Z) if herm else SDCZ))
    trans_ops = "NC" if herm else ("NT" if p.is_complex else "NTC")
    trans, uplo = data.draw(st.sampled_from(trans_ops)), data.draw(uplos)
    n, k = data.draw(rt.sizes(max_value=max_n)), data.draw(small)
    alpha = data.draw(scalar(p.real if routine == "herk" else p))
    beta = data.draw(scalar(p.real if herm else p))
    shape = (n, k) if trans == "N" else (k, n)
    a, lda = data.draw(stack(p, batch, *shape))
    b, ldb = data.draw(stack(p, batch, *shape))
    c, ldc = data.draw(stack(p, batch, n, n))
    return dict(p=p, flavour=flavour, batch=batch, gap=gap, trans=trans, uplo=uplo, n=n, k=k, alpha=alpha,
                beta=beta, a=(a, lda), b=(b, ldb), c=(c, ldc))


def run_rank_k(handle: Any, routine: str, case: dict[str, Any], null: tuple[str, ...] = ()) -> None:
    p, flavour, batch = case["p"], case["flavour"], case["batch"]
    two = routine not in ("syrk", "herk")
    specs = dict(A=case["a"], C=case["c"], **({"B": case["b"]} if two else {}))
    with operands(flavour, case["gap"], **specs) as ops:
        if case["beta"] == 0:
            ops["C"].poison()
        before = ops["C"].get()
        trans_name = "trans" if two else "transA"
        call(handle, routine, p, flavour, ops, batch, null, uplo=case["uplo"], n=case["n"], k=case["k"],
             alpha=case["alpha"], beta=case["beta"], **{trans_name: case["trans"]})
        got = finish(ops, ("C",))["C"]
    n, k, alpha, beta = case["n"], case["k"], case["alpha"], case["beta"]
    if n == 0 or batch == 0 or (beta == 1 and (alpha == 0 or k == 0)):
        assert same_bits(got, before)
        return
    a, b = case["a"][0], case["b"][0]
    expected = rank_k_reference(routine, case["trans"], alpha, beta, a, b, before)
    size = rank_k_reference(routine, case["trans"], abs(alpha), abs(beta), np.abs(a), np.abs(b), np.abs(before))
    check_rank_k(routine, p, case["uplo"], got, before, expected, k, size)


@pytest.mark.parametrize("routine", RANK_K)
@settings(max_examples=rt.examples(20))
@given(data=st.data())
def test_rank_k(handle: Any, routine: str, data: st.DataObject) -> None:
    case = rank_k_case(data, routine)
    null = ("A", "B") if case["alpha"] == 0 and data.draw(st.booleans()) else ()
    run_rank_k(handle, routine, case, null)


@pytest.mark.parametrize("routine", ("syrkx", "herkx", "syrk"))
@pytest.mark.parametrize("uplo", "UL")
def test_rank_k_across_column_blocks(handle: Any, routine: str, uplo: str) -> None:
    # n beyond one column block of syrkx/herkx (the diagonal blocks are restored separately).
    n, k = k3.RANKX_BLOCK + 9, 3
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((1, n, k)) + 1j * rng.standard_normal((1, n, k))).astype(np.complex128)
    b = (rng.standard_normal((1, n, k)) + 1j * rng.standard_normal((1, n, k))).astype(np.complex128)
    c = (rng.standard_normal((1, n, n)) + 1j * rng.standard_normal((1, n, n))).astype(np.complex128)
    case = dict(p=Z, flavour="plain", batch=1, gap=0, trans="N", uplo=uplo, n=n, k=k, alpha=0.5 - 1j,
                beta=0.0 if routine == "syrkx" else 2.0, a=(a, n + 1), b=(b, n), c=(c, n + 2))
    if routine == "herkx":
        case["beta"] = 2.0
    run_rank_k(handle, routine, case)


# --- trmm, trsm, trtri ----------------------------------------------------------------------------


def triangular(data: st.DataObject, p: Precision, batch: int, n: int, uplo: str, diag: str) -> tuple[np.ndarray, int]:
    """A well-conditioned triangular A (diagonal of magnitude >= 2, small off-diagonal
    entries), NaN where it must not be read: the other triangle, and a unit diagonal."""
    a, lda = data.draw(stack(p, batch, n, n))
    a = a / max(n, 1)
    idx = np.arange(n)
    a[..., idx, idx] = np.where(a[..., idx, idx].real >= 0, 2, -2) + a[..., idx, idx]
    a = with_nan(a, triangle(n, "L" if uplo == "U" else "U", strict=True))
    if diag == "U":
        a[..., idx, idx] = np.nan
    return a, lda


def effective(a: np.ndarray, uplo: str, diag: str) -> np.ndarray:
    n = a.shape[-1]
    t = np.where(triangle(n, uplo), wide(a), 0)
    if diag == "U":
        t[..., np.arange(n), np.arange(n)] = 1
    return t


def tr_case(data: st.DataObject) -> tuple[Any, ...]:
    p, flavour, batch, gap = data.draw(setup())
    side, uplo, ta, diag = data.draw(sides), data.draw(uplos), data.draw(st.sampled_from("NTC")), data.draw(diags)
    m, n = data.draw(small), data.draw(small)
    ka = m if side == "L" else n
    a, lda = triangular(data, p, batch, ka, uplo, diag)
    b, ldb = data.draw(stack(p, batch, m, n))
    return p, flavour, batch, gap, side, uplo, ta, diag, m, n, ka, (a, lda), (b, ldb)


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_trmm(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, side, uplo, ta, diag, m, n, ka, a, b = tr_case(data)
    alpha = data.draw(scalar(p))
    in_place = data.draw(st.booleans())  # C is B (same pointer and leading dimension)
    c = (b[0], b[1]) if in_place else data.draw(stack(p, batch, m, n))
    null = ("A", "B") if alpha == 0 and not in_place and data.draw(st.booleans()) else ()
    specs = dict(A=a, B=b) if in_place else dict(A=a, B=b, C=c)
    with operands(flavour, gap, **specs) as ops:
        if not in_place:
            ops["C"].poison()  # trmm writes C without reading it
        before = ops["B" if in_place else "C"].get()
        extra = {}
        if in_place:
            extra = dict(C=ops["B"].arg, ldc=ops["B"].ld)
            if flavour == "strided":
                extra["stride_c"] = ops["B"].stride
        call(handle, "trmm", p, flavour, ops, batch, null, side=side, uplo=uplo, transA=ta, diag=diag, m=m, n=n,
             alpha=alpha, **extra)
        got = finish(ops, ("B",) if in_place else ("C",))["B" if in_place else "C"]
    if m == 0 or n == 0 or batch == 0:
        assert same_bits(got, before)
        return
    t = op(effective(a[0], uplo, diag), ta)
    expected = alpha * (t @ wide(b[0]) if side == "L" else wide(b[0]) @ t)
    size = abs(alpha) * (np.abs(t) @ np.abs(b[0]) if side == "L" else np.abs(b[0]) @ np.abs(t))
    rt.assert_close(got, expected, p, "reduction", ka, scale=bound(size))


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_trsm(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, side, uplo, ta, diag, m, n, ka, a, b = tr_case(data)
    alpha = data.draw(scalar(p))
    null = ("A",) if alpha == 0 and data.draw(st.booleans()) else ()
    with operands(flavour, gap, A=a, B=b) as ops:
        if alpha == 0:
            ops["B"].poison()  # alpha == 0 sets B to 0 without reading it
        before = ops["B"].get()
        call(handle, "trsm", p, flavour, ops, batch, null, side=side, uplo=uplo, transA=ta, diag=diag, m=m, n=n,
             alpha=alpha)
        got = finish(ops, ("B",))["B"]
    if m == 0 or n == 0 or batch == 0:
        assert same_bits(got, before)
        return
    if alpha == 0:
        np.testing.assert_array_equal(got, 0)
        return
    t = op(effective(a[0], uplo, diag), ta)
    rhs = alpha * wide(b[0])
    if side == "L":
        expected = np.linalg.solve(t, rhs)
    else:
        expected = np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(rhs, -1, -2)), -1, -2)
    rt.assert_close(got, expected, p, "factorization", ka)


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_trtri(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap = data.draw(setup())
    uplo, diag, n = data.draw(uplos), data.draw(diags), data.draw(rt.sizes(max_value=8))
    a, lda = triangular(data, p, batch, n, uplo, diag)
    inv, ldinv = data.draw(stack(p, batch, n, n))
    with operands(flavour, gap, A=(a, lda), invA=(inv, ldinv)) as ops:
        ops["invA"].poison()
        before = ops["invA"].get()
        call(handle, "trtri", p, flavour, ops, batch, uplo=uplo, diag=diag, n=n)
        got = finish(ops, ("invA",))["invA"]
    if n == 0 or batch == 0:
        assert same_bits(got, before)
        return
    expected = np.linalg.inv(effective(a, uplo, diag))
    expected[..., ~triangle(n, uplo)] = 0  # rocBLAS clears the other triangle
    rt.assert_close(got, expected, p, "factorization", n)


# --- scalar rules across routines --------------------------------------------------------------


def _data(p: Precision, *shape: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape) + (1j * rng.uniform(-1, 1, shape) if p.is_complex else 0)
    return x.astype(p.dtype)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("n", [5, 70])
def test_trtri_takes_a_zero_on_the_diagonal_as_one(handle: Any, p: Precision, n: int) -> None:
    # rocBLAS's trtri kernel takes a zero pivot's inverse as 1 and goes on (rocblas_trtri_device):
    # the result is the inverse of A with those diagonal entries 1, where LAPACK would stop.
    a = _data(p, 1, n, n)[0] / n + 2 * np.eye(n, dtype=p.dtype)
    a[1, 1] = a[n - 1, n - 1] = 0
    lower = np.tril(a)
    with operands("plain", A=(lower[None], n), invA=(np.zeros((1, n, n), p.dtype), n)) as ops:
        call(handle, "trtri", p, "plain", ops, 1, uplo="L", diag="N", n=n)
        got = finish(ops, ("invA",))["invA"][0]
    ones = lower.copy()
    ones[1, 1] = ones[n - 1, n - 1] = 1
    rt.assert_close(got, np.linalg.inv(wide(ones)), p, "factorization", n)


@pytest.mark.parametrize("routine", ("gemm", "symm", "hemm", *RANK_K))
def test_beta_zero_never_reads_c_and_alpha_zero_never_reads_a_b(handle: Any, routine: str) -> None:
    # alpha == 0 and beta == 0: the result is exactly 0 with A, B null and C all NaN.
    p = Z
    n = 3
    args: dict[str, Any] = dict(alpha=0, beta=0)  # Python ints: 0 is a value, not a null pointer
    if routine == "gemm":
        args.update(transA="N", transB="N", m=n, n=n, k=2)
    elif routine in ("symm", "hemm"):
        args.update(side="L", uplo="U", m=n, n=n)
    else:
        args.update(uplo="L", n=n, k=2, **{"transA" if routine in ("syrk", "herk") else "trans": "N"})
    with operands("plain", A=(_data(p, 1, n, n), n), B=(_data(p, 1, n, n), n), C=(_data(p, 1, n, n), n)) as ops:
        if routine in ("syrk", "herk"):
            ops.pop("B").close()
        ops["C"].poison()
        call(handle, routine, p, "plain", ops, 1, ("A", "B"), **args)
        got = finish(ops, ("C",))["C"][0]
    own = triangle(n, "L") if routine not in ("gemm", "symm", "hemm") else np.ones((n, n), bool)
    np.testing.assert_array_equal(got[own], 0)


@pytest.mark.parametrize("routine", ("trmm", "trsm"))
def test_alpha_zero_zeroes_the_output_without_reading(handle: Any, routine: str) -> None:
    p = D
    specs = dict(A=(_data(p, 1, 3, 3), 3), B=(_data(p, 1, 3, 2), 4))
    if routine == "trmm":
        specs["C"] = (_data(p, 1, 3, 2), 3)
    out = "C" if routine == "trmm" else "B"
    with operands("plain", **specs) as ops:
        ops[out].poison()
        null = ("A", "B") if routine == "trmm" else ("A",)
        call(handle, routine, p, "plain", ops, 1, null, side="L", uplo="U", transA="N", diag="N", m=3, n=2,
             alpha=0.0)
        np.testing.assert_array_equal(finish(ops, (out,))[out], 0)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_strided_stride_zero_shares_an_input(handle: Any, flavour: str) -> None:
    # stride_a == 0: every entry uses the same A (strided); batched entries may repeat a pointer.
    p, batch, m, n, k = D, 4, 3, 2, 3
    a = _data(p, 1, m, k, seed=1)
    b = _data(p, batch, k, n, seed=2)
    c = _data(p, batch, m, n, seed=3)
    with operands(flavour, B=(b, k), C=(c, m)) as ops, rt.poisoned_device_matrix(a[0], m + 1) as da:
        args = dict(transA="N", transB="N", m=m, n=n, k=k, alpha=1.0, beta=1.0, lda=m + 1)
        if flavour == "strided":
            args.update(A=da.ptr, stride_a=0)
        else:
            pointers = rm.to_device(np.full(batch, da.ptr, dtype=np.uint64))
            args.update(A=pointers)
        call(handle, "gemm", p, flavour, ops, batch, **args)
        got = finish(ops, ("C",))["C"]
        da.check_untouched(logical=True)
    rt.assert_close(got, a @ b + c, p, "reduction", k)


# --- device pointer mode ------------------------------------------------------------------------


@contextmanager
def device_mode(handle: Any) -> Iterator[None]:
    set_pointer_mode(handle, PointerMode.device)
    try:
        yield
    finally:
        set_pointer_mode(handle, PointerMode.host)


@pytest.mark.parametrize("routine", ("gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "syrkx", "herkx",
                                     "trmm", "trsm"))
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_device_pointer_mode(handle: Any, routine: str, flavour: str) -> None:
    p, n, batch = C, 3, 2
    herm = routine.startswith("her")
    alpha = np.array([0.5 if routine == "herk" else 0.5 - 0.25j], dtype=p.real.dtype if routine == "herk" else p.dtype)
    beta = np.array([2.0 if herm else 2 + 1j], dtype=p.real.dtype if herm else p.dtype)
    da, db = rm.to_device(alpha), rm.to_device(beta)
    a = _data(p, batch, n, n, seed=4)
    if routine in ("trmm", "trsm"):
        a = a / n + 2 * np.eye(n)
    b, c = _data(p, batch, n, n, seed=5), _data(p, batch, n, n, seed=6)
    specs = dict(A=(a.astype(p.dtype), n), B=(b, n + 1), C=(c, n))
    if routine in ("syrk", "herk", "trsm"):
        del specs["B" if routine != "trsm" else "C"]
    args: dict[str, Any] = dict(alpha=da.ptr)
    if routine not in ("trmm", "trsm"):
        args["beta"] = db.ptr
    if routine == "gemm":
        args.update(transA="N", transB="C", m=n, n=n, k=n)
    elif routine in ("symm", "hemm"):
        args.update(side="R", uplo="L", m=n, n=n)
    elif routine in ("trmm", "trsm"):
        args.update(side="L", uplo="U", transA="T", diag="N", m=n, n=n)
    else:
        args.update(uplo="U", n=n, k=n, **{"transA" if routine in ("syrk", "herk") else "trans": "N"})
    with operands(flavour, **specs) as ops:
        ops_before = {name: o.get() for name, o in ops.items()}
        with device_mode(handle):
            call(handle, routine, p, flavour, ops, batch, **args)
        out = "B" if routine == "trsm" else "C"
        got = finish(ops, (out,))[out]
    al, be = alpha[0], beta[0]
    a, b, c = (ops_before.get(x) for x in ("A", "B", "C"))
    if routine == "gemm":
        expected = al * wide(a) @ op(wide(b), "C") + be * wide(c)
    elif routine in ("symm", "hemm"):
        low, diagonal = np.tril(wide(a), -1), np.diagonal(wide(a), axis1=-2, axis2=-1)
        upper = np.swapaxes(low, -1, -2)
        if routine == "hemm":  # Hermitian: the imaginary parts of the diagonal are not read
            upper, diagonal = upper.conj(), diagonal.real
        full = low + upper + np.eye(n) * diagonal[..., None, :]
        expected = al * wide(b) @ full + be * wide(c)
    elif routine == "trmm":
        expected = al * op(np.triu(wide(a)), "T") @ wide(b)
    elif routine == "trsm":
        expected = np.linalg.solve(op(np.triu(wide(a)), "T"), al * wide(b))
    else:
        expected = rank_k_reference(routine, "N", al, be, a, b if b is not None else a, c)
        check_rank_k(routine, p, "U", got, c, expected, n)
        return
    rt.assert_close(got, expected, p, "factorization", n)


def test_device_mode_null_arrays_need_a_zero_alpha(handle: Any) -> None:
    # A null A with alpha == 0 on the device is fine (A is not read); a nonzero alpha is not.
    c = _data(D, 1, 2, 2)
    zero, one, two = rm.to_device(np.zeros(1)), rm.to_device(np.ones(1)), rm.to_device(np.full(1, 2.0))
    with operands("plain", C=(c, 2)) as ops, device_mode(handle):
        for routine, extra in (("syrk", dict(transA="N")), ("gemm", dict(transA="N", transB="N", m=2, B=None,
                                                                        ldb=3))):
            args = dict(uplo="U", n=2, k=3, A=None, lda=3, alpha=zero.ptr, beta=two.ptr, **extra)
            if routine == "gemm":
                del args["uplo"]
            call(handle, routine, D, "plain", ops, 1, **args)
            args["alpha"] = one.ptr
            with pytest.raises(RocblasInvalidPointerError) as err:
                call(handle, routine, D, "plain", ops, 1, **args)
            assert err.value.arg == "A"
        got = finish(ops, ("C",))["C"][0]
    expected = 4 * c[0]
    expected[1, 0] = 2 * c[0, 1, 0]  # syrk (upper) left the lower triangle alone
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("routine", RANK_K)
def test_device_mode_no_op_rank_k_with_a_null_c_succeeds(handle: Any, routine: str) -> None:
    # rocBLAS copies a device alpha and beta to the host (alpha as 0 when k == 0) and then checks
    # the arrays by the host rules: beta == 1 with k == 0 or alpha == 0 returns before C is
    # looked at (rocblas_syrk_herk_kernels.cpp, rocblas_syr2k_her2k_kernels.cpp).
    p = Z if routine.startswith("her") else D
    real = np.float64
    zero = rm.to_device(np.zeros(1, real if routine == "herk" else p.dtype))
    two = rm.to_device(np.full(1, 2.0, real if routine == "herk" else p.dtype))
    one = rm.to_device(np.ones(1, real if routine.startswith("her") else p.dtype))
    trans = {"syrk": "transA", "herk": "transA"}.get(routine, "trans")
    extra = {} if routine in ("syrk", "herk") else {"B": None, "ldb": 3}
    a = rm.to_device(np.zeros(9, p.dtype))
    fn = getattr(level3, f"{p.letter}{routine}")
    with device_mode(handle):
        for k, alpha in ((0, two), (3, zero)):
            fn(handle, **{"uplo": "U", trans: "N", "n": 3, "k": k, "alpha": alpha.ptr, "A": None, "lda": 3,
                          "beta": one.ptr, "C": None, "ldc": 3, **extra})
        with pytest.raises(RocblasInvalidPointerError) as err:  # a C to write: null is invalid
            fn(handle, **{"uplo": "U", trans: "N", "n": 3, "k": 3, "alpha": two.ptr, "A": a.ptr, "lda": 3,
                          "beta": one.ptr, "C": None, "ldc": 3, **({"B": a.ptr, "ldb": 3} if extra else {})})
        assert err.value.arg == "C"


# --- compilation -----------------------------------------------------------------------------------


def test_one_compiled_kernel_whatever_the_leading_dimensions(handle: Any) -> None:
    # The BLAS-calling kernels only see entry addresses: one compilation serves every
    # precision, leading dimension and flavour.  The loops for tiny gemm entries (gemm_small,
    # and gemm_cols for entries of at most 8 rows) compile once per precision, and so does the
    # kernel a lone entry (the plain flavour) launches, for gemm and trsm alike.
    for p in SDCZ:
        for ld in (k3.SMALL + 2, k3.SMALL + 3, k3.SMALL + 7):
            for flavour in FLAVOURS:
                batch = 1 if flavour == "plain" else 2
                m = k3.SMALL + 1  # past the tiny-gemm loops
                eye = np.repeat(np.eye(m, dtype=p.dtype)[None], batch, axis=0)
                with operands(flavour, A=(_data(p, batch, m, 2), ld), B=(_data(p, batch, 2, 3), ld),
                              C=(_data(p, batch, m, 3), ld)) as ops, operands(flavour, A=(eye, ld)) as tri:
                    for mm in (m, 3, 7, 12):
                        call(handle, "gemm", p, flavour, ops, batch, transA="N", transB="N", m=mm, n=3, k=2,
                             alpha=1, beta=1)
                    call(handle, "trsm", p, flavour, {"A": tri["A"], "B": ops["C"]}, batch, side="L", uplo="U",
                         transA="N", diag="N", m=m, n=3, alpha=1)
                    rm.device_synchronize()
    assert len(k3.gemm_entries.signatures) == 1, k3.gemm_entries.signatures
    assert len(k3.tr_entries.signatures) == 1, k3.tr_entries.signatures
    assert len(k3.gemm_small.signatures) == len(SDCZ), k3.gemm_small.signatures
    assert len(k3.gemm_cols.signatures) == len(SDCZ), k3.gemm_cols.signatures
    assert len(k3.one_entry.signatures) == len(SDCZ), k3.one_entry.signatures


# --- argument checking ------------------------------------------------------------------------------


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the
    exception class and the argument it names; C (and B) must stay untouched."""
    mats = {name: rt.poisoned_device_matrix(_data(D, 4, 4, seed=i), 4) for i, name in enumerate("ABC")}

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(transA="N", transB="N", trans="N", side="L", uplo="U", diag="N", m=4, n=4, k=4,
                                    alpha=1.0, beta=1.0, lda=4, ldb=4, ldc=4, ldinvA=4, batch_count=1,
                                    stride_a=16, stride_b=16, stride_c=16, stride_invA=16)
        for name, mat in mats.items():
            base[name] = mat.ptr
        base["invA"] = mats["C"].ptr
        f = fn(routine, D, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2  # its position in the C prototype (handle is #1)
        assert err.value.status == error.status  # type: ignore[attr-defined]
        for mat in mats.values():
            mat.check_untouched(logical=True)

    yield check
    for mat in mats.values():
        mat.close()


SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError

BAD_ARGUMENTS = [
    # gemm: trans, then sizes, then leading dimensions, then pointers (beta, alpha, A, B, C).
    ("gemm", VALUE, "transA", dict(transA="X")),
    ("gemm", VALUE, "transB", dict(transB=7)),
    ("gemm", SIZE, "m", dict(m=-1)),
    ("gemm", SIZE, "k", dict(k=-1)),
    ("gemm", SIZE, "lda", dict(lda=3)),
    ("gemm", SIZE, "lda", dict(transA="T", k=5)),
    ("gemm", SIZE, "ldb", dict(ldb=3)),
    ("gemm", SIZE, "ldc", dict(ldc=3)),
    ("gemm", POINTER, "beta", dict(beta=None)),
    ("gemm", POINTER, "alpha", dict(alpha=None)),
    ("gemm", POINTER, "A", dict(A=None)),
    ("gemm", POINTER, "B", dict(B=None)),
    ("gemm", POINTER, "C", dict(C=None)),
    ("gemm", POINTER, "C", dict(C=None, alpha=0.0, beta=2.0)),
    # symm/hemm
    ("symm", VALUE, "side", dict(side="B")),
    ("symm", VALUE, "uplo", dict(uplo="F")),
    ("symm", SIZE, "n", dict(n=-2)),
    ("symm", SIZE, "lda", dict(side="R", n=5, ldb=4, ldc=4)),
    ("symm", POINTER, "beta", dict(beta=None)),
    ("symm", POINTER, "alpha", dict(alpha=None)),
    ("symm", POINTER, "B", dict(B=None)),
    ("symm", POINTER, "C", dict(C=None)),
    # syrk-like: complex-only restrictions are tested below
    ("syrk", VALUE, "uplo", dict(uplo="F")),
    ("syrk", VALUE, "transA", dict(transA="Q")),
    ("syrk", SIZE, "k", dict(k=-1)),
    ("syrk", SIZE, "lda", dict(transA="T", k=5)),
    ("syrk", SIZE, "ldc", dict(ldc=3)),
    ("syrk", POINTER, "alpha", dict(alpha=None)),
    ("syrk", POINTER, "beta", dict(beta=None)),
    ("syrk", POINTER, "A", dict(A=None)),
    ("syrk", POINTER, "C", dict(C=None)),
    ("syr2k", SIZE, "ldb", dict(ldb=3)),
    ("syr2k", POINTER, "B", dict(B=None)),
    ("syrkx", SIZE, "ldb", dict(trans="T", lda=4, ldb=3)),
    ("syrkx", POINTER, "B", dict(B=None)),
    # trmm
    ("trmm", VALUE, "side", dict(side=0)),
    ("trmm", VALUE, "transA", dict(transA="X")),
    ("trmm", VALUE, "diag", dict(diag="X")),
    ("trmm", SIZE, "ldc", dict(ldc=2)),
    ("trmm", SIZE, "lda", dict(side="R", n=5, ldb=4, ldc=4)),
    ("trmm", POINTER, "alpha", dict(alpha=None)),
    ("trmm", POINTER, "C", dict(C=None)),
    ("trmm", POINTER, "A", dict(A=None)),
    ("trmm", POINTER, "B", dict(B=None)),
    # trsm
    ("trsm", VALUE, "uplo", dict(uplo="X")),
    ("trsm", SIZE, "m", dict(m=-1)),
    ("trsm", SIZE, "lda", dict(m=5, ldb=5)),
    ("trsm", SIZE, "ldb", dict(ldb=3)),
    ("trsm", POINTER, "alpha", dict(alpha=None)),
    ("trsm", POINTER, "B", dict(B=None)),
    ("trsm", POINTER, "A", dict(A=None)),
    # trtri
    ("trtri", VALUE, "diag", dict(diag="L")),
    ("trtri", SIZE, "n", dict(n=-1)),
    ("trtri", SIZE, "ldinvA", dict(ldinvA=3)),
    ("trtri", POINTER, "A", dict(A=None)),
    ("trtri", POINTER, "invA", dict(invA=None)),
    # check order: enum beats size beats pointer; sizes beat the quick return
    ("gemm", VALUE, "transB", dict(transB="X", m=-1, C=None)),
    ("gemm", SIZE, "n", dict(n=-1, ldc=0, C=None)),
    ("gemm", SIZE, "ldc", dict(m=0, ldc=-1, lda=0)),
    ("syrk", VALUE, "transA", dict(transA="X", n=-1)),
    ("trsm", VALUE, "side", dict(side="X", uplo="X", m=-1)),
    ("trsm", SIZE, "ldb", dict(ldb=3, A=None, alpha=None)),
    ("trmm", VALUE, "uplo", dict(uplo="X", transA="X", m=-1)),
    ("symm", SIZE, "ldc", dict(ldc=3, beta=None)),
]


@pytest.mark.parametrize(("routine", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}-{a}-{i}" for i, (r, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, "plain", error, arg, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_negative_batch_count_is_invalid_size(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("gemm", "symm", "syrk", "syr2k", "syrkx", "trmm", "trsm", "trtri"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, C=None)


@pytest.mark.parametrize(("routine", "trans"), [("csyrk", "C"), ("csyr2k", "C"), ("csyrkx", "C"), ("cherk", "T"),
                                                ("cher2k", "T"), ("zherkx", "T")])
def test_complex_rank_k_operations(handle: Any, routine: str, trans: str) -> None:
    # rocBLAS: complex symmetric rank-k takes N or T, Hermitian N or C.
    f = getattr(level3, routine)
    params = list(inspect.signature(f).parameters)[1:]
    args = {name: 1 for name in params}
    sizes = dict(uplo="U", n=2, k=2, lda=2, ldb=2, ldc=2)
    args.update({name: value for name, value in sizes.items() if name in params})
    args[params[1]] = trans
    with pytest.raises(RocblasInvalidValueError) as err:
        f(handle, **args)
    assert err.value.arg == params[1]


def test_trmm_in_place_needs_equal_leading_dimensions(handle: Any) -> None:
    with rt.poisoned_device_matrix(_data(D, 3, 3), 3) as a, rt.poisoned_device_matrix(_data(D, 3, 2), 4) as b:
        with pytest.raises(RocblasInvalidValueError) as err:
            level3.dtrmm(handle, "L", "U", "N", "N", 3, 2, 1.0, a.ptr, 3, b.ptr, 4, b.ptr, 3)
        assert err.value.arg == "ldc"
        b.check_untouched(logical=True)


@pytest.mark.parametrize("routine", ("gemm", "syrk", "trsm", "trtri"))
def test_quick_return_touches_nothing(handle: Any, routine: str) -> None:
    # m == 0 / n == 0 / batch_count == 0 succeed even with null pointers.
    f = fn(routine, D, "strided")
    params = list(inspect.signature(f).parameters)[1:]
    args: dict[str, Any] = {name: None for name in params}
    args.update({name: 1 for name in params if name.startswith(("ld", "stride", "m", "n", "k"))})
    args.update({name: "N" for name in ("transA", "transB", "diag") if name in params})
    args.update({name: "L" for name in ("side", "uplo") if name in params})
    args["batch_count"] = 0
    f(handle, **args)
    args["batch_count"] = 1
    args["n"] = 0
    f(handle, **args)


# --- large sizes -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("ta", "tb"), [("N", "N"), ("T", "C"), ("C", "N")])
def test_gemm_large(handle: Any, p: Precision, ta: str, tb: str) -> None:
    m, n, k = 301, 257, 283
    a = _data(p, 1, *((m, k) if ta == "N" else (k, m)), seed=1)
    b = _data(p, 1, *((k, n) if tb == "N" else (n, k)), seed=2)
    c = _data(p, 1, m, n, seed=3)
    with operands("plain", A=(a, a.shape[1] + 3), B=(b, b.shape[1]), C=(c, m + 1)) as ops:
        call(handle, "gemm", p, "plain", ops, 1, transA=ta, transB=tb, m=m, n=n, k=k, alpha=1.5, beta=-0.5)
        got = finish(ops, ("C",))["C"]
    rt.assert_close(got, 1.5 * op(wide(a), ta) @ op(wide(b), tb) - 0.5 * wide(c), p, "reduction", k)


@pytest.mark.slow
@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_large_batches_of_small_problems(handle: Any, flavour: str) -> None:
    p, batch, n = D, 3000, 5
    a, b, c = (_data(p, batch, n, n, seed=s) for s in (1, 2, 3))
    with operands(flavour, A=(a, n), B=(b, n + 1), C=(c, n)) as ops:
        call(handle, "gemm", p, flavour, ops, batch, transA="T", transB="N", m=n, n=n, k=n, alpha=1.0, beta=1.0)
        got = finish(ops, ("C",))["C"]
    rt.assert_close(got, op(a, "T") @ b + c, p, "reduction", n)


@pytest.mark.slow
@pytest.mark.parametrize("routine", RANK_K)
def test_rank_k_large(handle: Any, routine: str) -> None:
    n, k = 2 * k3.RANKX_BLOCK + 37, 150
    p = Z if routine.startswith("her") else D
    case = dict(p=p, flavour="plain", batch=1, gap=0, trans="N", uplo="L", n=n, k=k, alpha=0.75,
                beta=0.5, a=(_data(p, 1, n, k, seed=1), n), b=(_data(p, 1, n, k, seed=2), n + 5),
                c=(_data(p, 1, n, n, seed=3), n))
    run_rank_k(handle, routine, case)


@pytest.mark.slow
@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("side", "LR")
def test_trsm_trmm_trtri_large(handle: Any, p: Precision, side: str) -> None:
    m, n = 400, 300
    ka = m if side == "L" else n
    a = _data(p, 1, ka, ka, seed=1) / ka + 2 * np.eye(ka, dtype=p.dtype)
    b = _data(p, 1, m, n, seed=2)
    t = np.tril(wide(a[0]))
    with operands("plain", A=(a, ka), B=(b, m)) as ops:
        call(handle, "trsm", p, "plain", ops, 1, side=side, uplo="L", transA="C", diag="N", m=m, n=n, alpha=2.0)
        x = finish(ops, ("B",))["B"][0]
    th = t.conj().T
    residual = th @ x - 2 * wide(b[0]) if side == "L" else x @ th - 2 * wide(b[0])
    rt.assert_close(residual, np.zeros_like(residual), p, "factorization", ka, scale=2 * np.abs(b).max())
    with operands("plain", A=(a, ka), B=(b, m), C=(np.zeros_like(b), m)) as ops:
        call(handle, "trmm", p, "plain", ops, 1, side=side, uplo="L", transA="N", diag="U", m=m, n=n, alpha=1.0)
        got = finish(ops, ("C",))["C"][0]
    tu = np.tril(wide(a[0]), -1) + np.eye(ka)
    rt.assert_close(got, tu @ wide(b[0]) if side == "L" else wide(b[0]) @ tu, p, "reduction", ka)
    with operands("plain", A=(a, ka), invA=(np.zeros_like(a), ka + 1)) as ops:
        call(handle, "trtri", p, "plain", ops, 1, uplo="L", diag="N", n=ka)
        inv = finish(ops, ("invA",))["invA"][0]
    rt.assert_close(inv @ t, np.eye(ka), p, "factorization", ka)
