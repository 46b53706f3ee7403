"""rocmath.blas Level 2: behaviours a mutation-testing pass found test_blas_level2.py leaving open.

- Rank updates (syr, syr2, her, her2, spr, spr2, hpr, hpr2, ger, gerc) past RANK_GROUP_ROWS rows,
  where four columns go at a time over the rows they share: exact against scipy.linalg.blas on
  small-integer data, with the other triangle and the padding rows holding a finite sentinel that
  must survive bit for bit (a NaN there would hide a write: NaN + anything is NaN).
- gbmv with m != n over several column blocks (partial sums per block, added in block order),
  against scipy.linalg.blas, any sign of increment, the gaps of y untouched.
- Device pointer mode with alpha == 0: the rank-update and product kernels never read A or x (NaN
  and inf there change nothing; y := beta*y, y not read when beta == 0).
- Host pointer mode with alpha == 0: rocBLAS's quick returns come before the array pointer checks
  (rank updates: any array may be null; products: A and x may be null, y is scaled by beta).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg.blas as sb
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.blas import _kernels_l2 as kl2

SENTINEL = -1234.5  # finite, exact in every precision, never a result of the small-integer data
NAN = float("nan")


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def ints(rng: np.random.Generator, shape: Any, dtype: Any, lo: int = -3, hi: int = 3) -> np.ndarray:
    """Small integers (complex: small integer parts): sums of their products are exact."""
    v = rng.integers(lo, hi + 1, shape).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.integers(lo, hi + 1, shape)
    return v.astype(dtype)


def strided(v: np.ndarray, inc: int, fill: Any) -> np.ndarray:
    """The storage of vector ``v`` with increment ``inc`` (reference BLAS: element 0 last for a
    negative one), ``fill`` in the gaps."""
    n = v.shape[0]
    out = np.full(1 + (n - 1) * abs(inc) if n else 0, fill, dtype=v.dtype)
    out[::abs(inc)] = v if inc > 0 else v[::-1]
    return out


def logical(storage: np.ndarray, n: int, inc: int) -> np.ndarray:
    v = storage[::abs(inc)][:n]
    return v if inc > 0 else v[::-1]


# --- rank updates past RANK_GROUP_ROWS: four columns a pass ---------------------------------------

# routine: (precision letter, storage, Hermitian, two vectors)
TALL_RANK = {"dsyr": ("d", "full", False, False), "dsyr2": ("d", "full", False, True),
             "zher": ("z", "full", True, False), "zher2": ("z", "full", True, True),
             "dspr": ("d", "packed", False, False), "dspr2": ("d", "packed", False, True),
             "zhpr": ("z", "packed", True, False), "zhpr2": ("z", "packed", True, True)}


def packed_indices(n: int, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the elements of packed storage, in storage order (column by column)."""
    i, j = np.indices((n, n))
    used = (i <= j) if upper else (i >= j)
    cols, rows = np.nonzero(used.T)
    return rows, cols


@pytest.mark.parametrize("upper", [True, False], ids=["U", "L"])
@pytest.mark.parametrize("routine", sorted(TALL_RANK))
def test_symmetric_rank_updates_past_the_four_column_rows(handle: Any, routine: str, upper: bool) -> None:
    # Columns sharing RANK_GROUP_ROWS rows or more go four at a time over those rows: exactly the
    # reference update on the uplo triangle, and nothing else written (full storage: the other
    # triangle and two padding rows; packed: nothing outside it exists, so a write past a column
    # lands in the next one and shows in the values).
    letter, storage, herm, two = TALL_RANK[routine]
    dtype = np.float64 if letter == "d" else np.complex128
    n = kl2.RANK_GROUP_ROWS + 9
    rng = np.random.default_rng(17)
    x, y = ints(rng, n, dtype), ints(rng, n, dtype)
    alpha = 2.0 if herm and not two else (2 - 1j if herm else -2.0)
    tri = ints(rng, (n, n), dtype)
    keep = np.triu(np.ones((n, n), bool)) if upper else np.tril(np.ones((n, n), bool))
    a = np.where(keep, tri, SENTINEL).astype(dtype)  # logical (row, col)
    if herm:
        np.fill_diagonal(a, np.diag(a).real)
    fn = getattr(blas, routine)
    uplo = "U" if upper else "L"
    ref = getattr(sb, routine)
    vecs = (x, y) if two else (x,)
    if storage == "full":
        lda = n + 2
        stored = np.full((n, lda), SENTINEL, dtype=dtype)  # column j, row i: column-major storage
        stored[:, :n] = a.T
        dA = rm.to_device(stored)
        args = [arg for v in vecs for arg in (rm.to_device(v), 1)]
        fn(handle, uplo, n, alpha, *args, dA, lda)
        want_logical = ref(alpha, *vecs, lower=int(not upper), a=np.asfortranarray(a))
        want = stored.copy()
        want[:, :n] = want_logical.T
    else:
        rows, cols = packed_indices(n, upper)
        ap = a[rows, cols].copy()
        dA = rm.to_device(ap)
        args = [arg for v in vecs for arg in (rm.to_device(v), 1)]
        fn(handle, uplo, n, alpha, *args, dA)
        want = ref(n, alpha, *vecs, ap.copy(), lower=int(not upper))
    rm.device_synchronize()
    got = dA.get()
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{routine} {uplo}: {len(bad)} elements differ, first at {bad[:3].tolist()}"


@pytest.mark.parametrize("routine", ["dger", "zgerc", "zgeru"])
def test_general_rank_updates_past_the_four_column_rows_leave_padding(handle: Any, routine: str) -> None:
    # A general update of columns of RANK_GROUP_ROWS rows or more (four at a time): exact, and the
    # padding rows lda > m untouched.
    dtype = np.float64 if routine[0] == "d" else np.complex128
    m, n, lda = kl2.RANK_GROUP_ROWS + 5, 11, kl2.RANK_GROUP_ROWS + 8
    rng = np.random.default_rng(5)
    x, y = ints(rng, m, dtype), ints(rng, n, dtype)
    alpha = -2.0 if dtype == np.float64 else 1 + 2j
    stored = np.full((n, lda), SENTINEL, dtype=dtype)
    stored[:, :m] = ints(rng, (n, m), dtype)
    dA = rm.to_device(stored)
    getattr(blas, routine)(handle, m, n, alpha, rm.to_device(x), 1, rm.to_device(y), 1, dA, lda)
    rm.device_synchronize()
    want = stored.copy()
    want[:, :m] = getattr(sb, routine)(alpha, x, y, a=np.asfortranarray(stored[:, :m].T)).T
    np.testing.assert_array_equal(dA.get(), want)


PACKED_RANK = {"sspr": (np.float32, False, False), "dspr": (np.float64, False, False),
               "cspr": (np.complex64, False, False), "zspr": (np.complex128, False, False),
               "sspr2": (np.float32, False, True), "dspr2": (np.float64, False, True),
               "chpr": (np.complex64, True, False), "zhpr": (np.complex128, True, False),
               "chpr2": (np.complex64, True, True), "zhpr2": (np.complex128, True, True)}


def packed_reference(routine: str, n: int, alpha: Any, x: np.ndarray, y: np.ndarray, ap: np.ndarray,
                     upper: bool) -> np.ndarray:
    """The packed update by scipy.linalg.blas in double precision (exact for small integers); the
    complex symmetric ones, which scipy lacks, by numpy on the packed elements."""
    dt = np.complex128 if np.iscomplexobj(ap) else np.float64
    wide = [v.astype(dt) for v in (x, y, ap)]
    letter = "z" if dt == np.complex128 else "d"
    if routine[1:] in ("spr", "spr2") and dt == np.complex128:  # cspr, zspr: A += alpha x x^T
        rows, cols = packed_indices(n, upper)
        return wide[2] + alpha * wide[0][rows] * wide[0][cols]
    fn = getattr(sb, letter + routine[1:])
    vecs = wide[:2] if routine.endswith("2") else wide[:1]
    return fn(n, alpha, *vecs, wide[2], lower=int(not upper))


@settings(max_examples=rt.examples(40), deadline=None)
@given(data=st.data())
def test_packed_rank_updates_small(handle: Any, data: st.DataObject) -> None:
    # Small packed updates (every column of the triangle by the one-column path): exact against
    # the reference in every precision, both triangles, increments of either sign, x and y untouched.
    d = data.draw
    routine = d(st.sampled_from(sorted(PACKED_RANK)))
    dtype, herm, two = PACKED_RANK[routine]
    n = d(st.integers(1, 12))
    upper = d(st.booleans())
    incx, incy = d(st.sampled_from([1, 2, -1, -2])), d(st.sampled_from([1, 3, -1]))
    rng = np.random.default_rng(d(st.integers(0, 2**16)))
    real_alpha = herm and not two
    alpha = d(st.sampled_from([1.0, -2.0, 3.0] if real_alpha or np.dtype(dtype).kind == "f" else [1 + 1j, -2.0, 2j]))
    x, y = ints(rng, n, dtype), ints(rng, n, dtype)
    rows, cols = packed_indices(n, upper)
    ap = ints(rng, rows.shape[0], dtype)
    if herm:
        ap[rows == cols] = ap[rows == cols].real
    xs, ys = strided(x, incx, SENTINEL), strided(y, incy, SENTINEL)
    dx, dy, dA = rm.to_device(xs), rm.to_device(ys), rm.to_device(ap)
    vec_args = [dx, incx, dy, incy] if two else [dx, incx]
    getattr(blas, routine)(handle, "U" if upper else "L", n, alpha, *vec_args, dA)
    rm.device_synchronize()
    want = packed_reference(routine, n, alpha, x, y, ap, upper)
    np.testing.assert_array_equal(dA.get(), want.astype(dtype), err_msg=f"{routine} n={n} upper={upper}")
    np.testing.assert_array_equal(dx.get(), xs)
    np.testing.assert_array_equal(dy.get(), ys)


# --- gbmv with m != n over several column blocks --------------------------------------------------


@pytest.fixture
def blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry in column blocks with partial sums (as entries larger than ENTRY_TASK_BYTES)."""
    monkeypatch.setattr(kl2, "ENTRY_TASK_BYTES", 0)


@pytest.mark.usefixtures("blocks")
@settings(max_examples=rt.examples(12), deadline=None)
@given(data=st.data())
def test_gbmv_not_square_in_column_blocks(handle: Any, data: st.DataObject) -> None:
    # Past CB_N columns each column block keeps partial sums of the rows its columns reach, added
    # in block order: for m != n the rows the last block reaches end at min(m, n + kl).
    d = data.draw
    letter = d(st.sampled_from("dz"))
    dtype = np.float64 if letter == "d" else np.complex128
    n = d(st.integers(kl2.CB_N + 1, kl2.CB_N + 40))
    m = n + d(st.integers(-12, 12).filter(bool))
    kl, ku = d(st.integers(0, 5)), d(st.integers(0, 5))
    trans = d(st.sampled_from("NTC"))
    incx, incy = d(st.sampled_from([1, 2, -1, -3])), d(st.sampled_from([1, 2, -1, -2]))
    alpha = d(st.sampled_from([1.0, -2.0, 3.0]))
    beta = d(st.sampled_from([0.0, 1.0, -1.0, 2.0]))
    rng = np.random.default_rng(d(st.integers(0, 2**16)))
    lda = kl + ku + 1 + d(st.integers(0, 2))
    ab = ints(rng, (lda, n), dtype)  # band storage (lda, n), logical
    r, j = np.indices((lda, n))
    i = r - ku + j
    unused = (r > kl + ku) | (i < 0) | (i >= m)
    ref_ab = np.where(unused, 0, ab)
    ab = np.where(unused, NAN, ab).astype(dtype)  # never read
    lenx, leny = (n, m) if trans == "N" else (m, n)
    x = ints(rng, lenx, dtype)
    y0 = np.full(leny, NAN, dtype) if beta == 0 else ints(rng, leny, dtype)
    xs, ys = strided(x, incx, SENTINEL), strided(y0, incy, SENTINEL)
    dA, dx, dy = rm.to_device(np.ascontiguousarray(ab.T)), rm.to_device(xs), rm.to_device(ys)
    getattr(blas, letter + "gbmv")(handle, trans, m, n, kl, ku, alpha, dA, lda, dx, incx, beta, dy, incy)
    rm.device_synchronize()
    got = dy.get()
    want = getattr(sb, letter + "gbmv")(m, n, kl, ku, alpha, np.asfortranarray(ref_ab), x, beta=beta,
                                        y=np.where(np.isnan(y0), 0, y0), trans="NTC".index(trans))
    np.testing.assert_array_equal(logical(got, leny, incy), want)
    gaps = np.ones(got.shape[0], bool)
    gaps[::abs(incy)] = False
    np.testing.assert_array_equal(got[gaps], ys[gaps])  # between y's elements: untouched
    np.testing.assert_array_equal(dx.get(), xs)


# --- device pointer mode, alpha == 0: A and x never read ------------------------------------------

#: Rank updates of 4 x 4 entries: routine -> its keyword arguments besides the arrays and alpha.
RANK_CALLS: dict[str, dict[str, Any]] = {
    "dger": {"m": 4, "n": 4, "incx": 1, "incy": 1, "lda": 4},
    "zgerc": {"m": 4, "n": 4, "incx": 1, "incy": 1, "lda": 4},
    "zgeru": {"m": 4, "n": 4, "incx": 1, "incy": 1, "lda": 4},
    "dsyr": {"uplo": "U", "n": 4, "incx": 1, "lda": 4},
    "zsyr": {"uplo": "L", "n": 4, "incx": 1, "lda": 4},
    "dsyr2": {"uplo": "L", "n": 4, "incx": 1, "incy": 1, "lda": 4},
    "zher": {"uplo": "U", "n": 4, "incx": 1, "lda": 4},
    "zher2": {"uplo": "L", "n": 4, "incx": 1, "incy": 1, "lda": 4},
    "dspr": {"uplo": "U", "n": 4, "incx": 1},
    "dspr2": {"uplo": "L", "n": 4, "incx": 1, "incy": 1},
    "zhpr": {"uplo": "L", "n": 4, "incx": 1},
    "zhpr2": {"uplo": "U", "n": 4, "incx": 1, "incy": 1},
}


def rank_arrays(name: str) -> tuple[str, ...]:
    """The array arguments of a rank update: x, y for two-vector ones, A or AP."""
    two = "incy" in RANK_CALLS[name]
    return ("x", "y", "AP" if "sp" in name or "hp" in name else "A") if two else \
        ("x", "AP" if "sp" in name or "hp" in name else "A")


def flavoured(kw: dict[str, Any], arrays: tuple[str, ...], flavour: str) -> dict[str, Any]:
    """A plain call's keyword arguments for ``flavour`` (one entry): batch_count 1, and a stride
    per array for strided_batched."""
    if flavour == "_strided_batched":
        kw = {**kw, **{"stride_" + a.lower(): 16 for a in arrays}}
    return {**kw, "batch_count": 1} if flavour else kw


@pytest.mark.parametrize("flavour", ["", "_strided_batched"])
@pytest.mark.parametrize("name", sorted(RANK_CALLS))
def test_rank_update_device_alpha_zero_reads_nothing(handle: Any, name: str, flavour: str) -> None:
    # rocBLAS's rank-update kernels return at once when the device alpha is 0: NaN and inf in x and
    # y change nothing, and A (-0.0 among its elements: adding 0 would make them +0.0) keeps every bit.
    dtype = np.float64 if name[0] == "d" else np.complex128
    real = np.float64 if name in ("zher", "zhpr") else dtype
    arrays = rank_arrays(name)
    a0 = np.array([-0.0, 1, 2, -0.0] * 4, dtype)
    dev = {"x": rm.to_device(np.array([NAN, np.inf, 1, -np.inf], dtype)),
           "y": rm.to_device(np.array([np.inf, NAN, -1, 2], dtype)), "A": rm.to_device(a0)}
    dev["AP"] = dev["A"]
    kw = flavoured({**RANK_CALLS[name], **{a: dev[a] for a in arrays}}, arrays, flavour)
    with handle.use_pointer_mode(1):
        getattr(blas, name + flavour)(handle, alpha=rm.to_device(np.zeros(1, real)), **kw)
        rm.device_synchronize()
    assert dev["A"].get().tobytes() == a0.tobytes()
    assert np.isnan(dev["x"].get()[0]) and np.isnan(dev["y"].get()[1])  # (inputs: untouched)


#: Products y := alpha*op(A)*x + beta*y of 4 x 4 entries: routine -> (its matrix argument, its
#: keyword arguments besides the arrays and the scalars).
PRODUCT_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "dgbmv": ("A", {"trans": "N", "m": 4, "n": 4, "kl": 1, "ku": 2, "lda": 4, "incx": 1, "incy": 1}),
    "zgbmv": ("A", {"trans": "C", "m": 4, "n": 4, "kl": 2, "ku": 0, "lda": 4, "incx": -1, "incy": 1}),
    "dsymv": ("A", {"uplo": "U", "n": 4, "lda": 4, "incx": 1, "incy": 1}),
    "zhemv": ("A", {"uplo": "L", "n": 4, "lda": 4, "incx": 1, "incy": -1}),
    "dsbmv": ("A", {"uplo": "L", "n": 4, "k": 2, "lda": 4, "incx": 1, "incy": 1}),
    "zhbmv": ("A", {"uplo": "U", "n": 4, "k": 3, "lda": 4, "incx": 1, "incy": 1}),
    "dspmv": ("A", {"uplo": "U", "n": 4, "incx": 1, "incy": 1}),
    "zhpmv": ("AP", {"uplo": "L", "n": 4, "incx": 1, "incy": 1}),
    "zsymv": ("A", {"uplo": "L", "n": 4, "lda": 4, "incx": 1, "incy": 1}),
}


@pytest.mark.parametrize("beta", [0.0, 2.0])
@pytest.mark.parametrize("flavour", ["", "_strided_batched"])
@pytest.mark.parametrize("name", sorted(PRODUCT_CALLS))
def test_product_device_alpha_zero_reads_neither_a_nor_x(handle: Any, name: str, flavour: str,
                                                         beta: float) -> None:
    # A device alpha of 0: y := beta*y exactly, A and x (all NaN) never read; beta == 0 writes
    # zeros over a NaN y without reading it.
    dtype = np.float64 if name[0] == "d" else np.complex128
    a_name, kw = PRODUCT_CALLS[name]
    y0 = np.full(4, NAN, dtype) if beta == 0 else np.array([1, -2, 3, -4], dtype)
    dy = rm.to_device(y0)
    arrays = (a_name, "x", "y")
    kw = flavoured({**kw, a_name: rm.to_device(np.full(16, NAN, dtype)), "x": rm.to_device(np.full(4, NAN, dtype)),
                    "y": dy}, arrays, flavour)
    with handle.use_pointer_mode(1):
        getattr(blas, name + flavour)(handle, alpha=rm.to_device(np.zeros(1, dtype)),
                                      beta=rm.to_device(np.full(1, beta, dtype)), **kw)
        rm.device_synchronize()
    np.testing.assert_array_equal(dy.get(), np.zeros(4, dtype) if beta == 0 else beta * y0)


# --- host pointer mode, alpha == 0: the quick return before the pointer checks ---------------------


@pytest.mark.parametrize("flavour", ["", "_batched", "_strided_batched"])
@pytest.mark.parametrize("name", sorted(RANK_CALLS))
def test_rank_update_host_alpha_zero_returns_before_pointer_checks(handle: Any, name: str, flavour: str) -> None:
    # rocblas_ger_arg_check, rocblas_syr_arg_check, ...: in host mode *alpha == 0 returns success
    # before x, y and A are checked (null arrays are fine); a nonzero alpha needs them.
    arrays = rank_arrays(name)
    kw = flavoured({**RANK_CALLS[name], **{a: None for a in arrays}}, arrays, flavour)
    with handle.use_pointer_mode(0):
        getattr(blas, name + flavour)(handle, alpha=0.0, **kw)
        with pytest.raises(rm.errors.RocblasInvalidPointerError) as info:
            getattr(blas, name + flavour)(handle, alpha=1.0, **kw)
    assert info.value.arg == arrays[-1]  # (rocBLAS: A first)


@pytest.mark.parametrize("flavour", ["", "_strided_batched"])
@pytest.mark.parametrize("name", sorted(PRODUCT_CALLS))
def test_product_host_alpha_zero_needs_only_y(handle: Any, name: str, flavour: str) -> None:
    # rocblas_symv_arg_check and the others: in host mode alpha == 0 (beta != 1) scales y by beta
    # and never reads A or x, which may be null; y may not.
    dtype = np.float64 if name[0] == "d" else np.complex128
    a_name, kw = PRODUCT_CALLS[name]
    arrays = (a_name, "x", "y")
    y0 = np.array([1, -2, 3, -4], dtype)
    dy = rm.to_device(y0)
    kw = flavoured({**kw, a_name: None, "x": None}, arrays, flavour)
    with handle.use_pointer_mode(0):
        getattr(blas, name + flavour)(handle, alpha=0.0, beta=-3.0, y=dy, **kw)
        rm.device_synchronize()
        np.testing.assert_array_equal(dy.get(), -3 * y0)
        with pytest.raises(rm.errors.RocblasInvalidPointerError) as info:
            getattr(blas, name + flavour)(handle, alpha=0.0, beta=-3.0, y=None, **kw)
        assert info.value.arg == "y"
        with pytest.raises(rm.errors.RocblasInvalidPointerError) as info:
            getattr(blas, name + flavour)(handle, alpha=1.0, beta=-3.0, y=dy, **kw)
        assert info.value.arg == a_name
