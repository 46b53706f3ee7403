"""rocSOLVER's ILP64 API: the ``_64`` names (getf2/getrf (+ _npvt), getrs, potf2/potrf, potrs, geqr2/geqrf in
every flavour; larf, larfg, lacgv).

rocSOLVER's ``_64`` functions are its LP64 ``*_impl`` instantiated with ``I = int64_t``
(library/src/lapack/roclapack_getrf.cpp...): the same checks and algorithm, with int64 sizes
and int64 ``ipiv``/``info`` device arrays.  So each ``_64`` call here is run beside its LP64
twin on identical operands and must leave bitwise the same matrices, right-hand sides and
Householder scalars, and the same ``ipiv``/``info`` values written as int64: the integer
buffers start as a sentinel whose two halves differ from any value, so every byte of a written
entry must change and every entry not written (strided gaps, entries past ``batch_count``)
must keep its bytes.  Then the sizes (an LP64 name refuses what ``rocblas_int`` cannot hold,
naming it; a ``_64`` name takes int64 sizes, exercised where they cost no memory), int64
pivots that getrs must refuse, the workspace, and the logs (rocSOLVER logs a ``_64`` call as
its LP64 twin: same trace name, same bench line).
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
from rocmath import blas, solver
from rocmath.errors import MemoryAccessFault, RocblasInvalidSizeError, RocblasMemoryError, RocblasStatus
from rocmath.log import close_logs
from rocmath.precision import SDCZ, C, D, Precision, S, Z
from rocmath.solver import _api, _manifest
from rocmath.testing import examples

FLAVOURS = ("plain", "batched", "strided")
SUFFIX = {"plain": "", "batched": "_batched", "strided": "_strided_batched"}
#: The integer arrays' initial contents: no pivot or info equals either, and the halves of the int64 one
#: differ from each other's neighbours' (a half-written entry shows).
SENT32 = np.int32(0x7B7B7B7B)
SENT64 = np.int64(0x7C7C7C7C7D7D7D7D)
PAD = 1234.5  # matrix padding, strided gaps: what nobody may write
INT32_MAX = 2**31 - 1


def fixed(n: int) -> Any:
    """Hypothesis settings of ``n`` examples, derandomized: the same examples every run."""
    return settings(max_examples=examples(n), derandomize=True)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain", wide: bool = False) -> Callable[..., Any]:
    return getattr(solver, f"{p.letter}{routine}{SUFFIX[flavour]}{'_64' if wide else ''}")


def call(f: Callable[..., Any], h: Any, values: dict[str, Any]) -> Any:
    """``f`` with the arguments of its signature taken from ``values`` by their C names."""
    return f(h, **{n: values[n] for n in list(inspect.signature(f).parameters)[1:]})


def random(p: Precision, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal(shape)
    if p.is_complex:
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(p.dtype)


# --- operands --------------------------------------------------------------------------------------


class Stack:
    """A ``(batch, rows, cols)`` host stack as a matrix argument of ``flavour``: column-major entries
    with leading dimension ``ld``, ``gap`` elements between strided entries; padding and gaps hold PAD."""

    def __init__(self, host: np.ndarray, ld: int, flavour: str, gap: int = 0):
        batch, _, cols = host.shape
        per = ld * cols
        self.dtype = host.dtype
        self.stride = per + gap
        if flavour == "batched":
            self.arrays = [rm.to_device(self._entry(h, ld)) for h in host]
            self.arg: Any = rm.to_device(np.array([a.ptr for a in self.arrays] or [0], np.uint64))
        else:
            count = batch if flavour == "strided" else 1
            flat = np.full(max(self.stride * count, 1), PAD, host.dtype)
            for b in range(count):
                flat[b * self.stride:b * self.stride + per] = self._entry(host[b], ld)
            self.arrays = [rm.to_device(flat)]
            self.arg = self.arrays[0]

    @staticmethod
    def _entry(x: np.ndarray, ld: int) -> np.ndarray:
        rows, cols = x.shape
        e = np.full((cols, ld), PAD, x.dtype)
        e[:, :rows] = x.T
        return e.reshape(-1) if e.size else np.full(1, PAD, x.dtype)

    def raw(self) -> np.ndarray:
        """Every element of every allocation, padding included."""
        return np.concatenate([a.get() for a in self.arrays]) if self.arrays else np.zeros(0, self.dtype)


class Flat:
    """A plain device array (ipiv, info, tau, x...) of ``count`` elements, all ``fill``."""

    def __init__(self, count: int, dtype: Any, fill: Any = None, host: np.ndarray | None = None):
        data = np.full(max(count, 1), fill, dtype) if host is None else np.asarray(host, dtype).copy()
        self.arrays = [rm.to_device(data)]
        self.arg = self.arrays[0]

    def raw(self) -> np.ndarray:
        return self.arrays[0].get()


def ints(count: int, wide: bool, host: np.ndarray | None = None) -> Flat:
    """An integer array (ipiv, info) of the API: int64 (``_64``) or int32, SENT64/SENT32 where ``host``
    does not say otherwise."""
    dtype = np.int64 if wide else np.int32
    return Flat(count, dtype, SENT64 if wide else SENT32, None if host is None else host.astype(dtype))


def assert_widened(got64: np.ndarray, got32: np.ndarray) -> None:
    """The ``_64`` call's int64 array holds the LP64 call's int32 values, every byte of each written
    entry written (and SENT64 wherever the LP64 call left SENT32)."""
    assert got64.dtype == np.int64 and got32.dtype == np.int32 and got64.shape == got32.shape
    expected = np.where(got32 == SENT32, SENT64, got32.astype(np.int64))
    assert np.array_equal(got64.view(np.uint8), expected.view(np.uint8)), (got64, got32)


def run_twins(h: Any, routine: str, p: Precision, flavour: str,
              make: Callable[[bool], tuple[dict[str, Any], dict[str, Any]]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the LP64 function and its ``_64`` twin, each on operands ``make(wide)`` builds ((C argument
    values, {name: operand to read back})); returns what each call left in its operands."""
    out = []
    for wide in (False, True):
        values, operands = make(wide)
        call(fn(routine, p, flavour, wide), h, values)
        out.append({name: o.raw() for name, o in operands.items()})
    return out[0], out[1]


def assert_twins(lp: dict[str, Any], ilp: dict[str, Any], ints_: tuple[str, ...] = ()) -> None:
    for name in lp:
        if name in ints_:
            assert_widened(ilp[name], lp[name])
        else:  # bitwise, NaNs and padding included
            assert lp[name].dtype == ilp[name].dtype
            assert np.array_equal(lp[name].view(np.uint8), ilp[name].view(np.uint8)), name


def shapes() -> Any:
    """(precision, flavour, batch, seed) of a batched problem (plain: one entry)."""
    return st.tuples(st.sampled_from(SDCZ), st.sampled_from(FLAVOURS), st.integers(0, 3), st.integers(0, 2**32 - 1))


# --- getrf, getf2, getrf_npvt, getf2_npvt -----------------------------------------------------------------


def lu_operands(a: np.ndarray, lda: int, flavour: str, gap: int, pgap: int, pivot: bool, strideP: int | None = None):
    """The operand builder of run_twins for getrf-like calls on the stack ``a``."""
    batch, m, n = a.shape
    k = min(m, n)
    sp = k + pgap if strideP is None else strideP
    count = batch if flavour != "plain" else 1

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A = Stack(a, lda, flavour, gap)
        info = ints(count + 2, wide)  # two entries past batch_count: never written
        ops: dict[str, Any] = {"A": A, "info": info}
        values = {"m": m, "n": n, "A": A.arg, "lda": lda, "strideA": A.stride, "info": info.arg,
                  "batch_count": batch}
        if pivot:
            ops["ipiv"] = ipiv = ints(sp * max(count - 1, 0) + k + 3, wide)
            values.update(ipiv=ipiv.arg, strideP=sp)
        return values, ops

    return make


@fixed(40)
@given(st.data())
def test_lu_factorizations_match_their_lp64_twins(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, seed = data.draw(shapes())
    if flavour == "plain":
        batch = 1
    routine = data.draw(st.sampled_from(("getrf", "getf2", "getrf_npvt", "getf2_npvt")))
    m, n = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 9))
    lda = m + data.draw(st.integers(0, 2))
    rng = np.random.default_rng(seed)
    a = random(p, (batch, m, n), rng)
    singular = data.draw(st.lists(st.booleans(), min_size=batch, max_size=batch))
    for b, s in enumerate(singular):  # a zero column among the first min(m, n): a zero pivot (info > 0)
        if s and min(m, n):
            a[b, :, rng.integers(min(m, n))] = 0
    pivot = not routine.endswith("npvt")
    make = lu_operands(a, lda, flavour, data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2)), pivot)
    lp, ilp = run_twins(handle, routine, p, flavour, make)
    assert_twins(lp, ilp, ("ipiv", "info"))
    if m and n and any(singular):
        info = ilp["info"][:batch]
        assert info.dtype == np.int64 and (info[np.array(singular)] > 0).all()


@pytest.mark.parametrize("routine", ("getrf", "getrf_npvt"))
def test_large_lu_goes_to_lapack_and_matches(handle: Any, routine: str) -> None:
    # Entries beyond the numba path (min(m, n) > 64): LAPACK (or the blocked LU without pivoting).
    a = random(D, (2, 75, 70), np.random.default_rng(5))
    a[1, :, 9] = 0
    lp, ilp = run_twins(handle, routine, D, "strided", lu_operands(a, 77, "strided", 3, 2, routine == "getrf"))
    assert_twins(lp, ilp, ("ipiv", "info"))
    assert ilp["info"][0] == 0 and 0 < ilp["info"][1] <= 10


@pytest.mark.parametrize("flavour", ("batched", "strided"))
def test_overlapping_pivots_keep_the_last_entry(handle: Any, flavour: str) -> None:
    # strideP = 0: every entry writes the same pivots, processed in entry order in both APIs.
    a = random(Z, (3, 4, 4), np.random.default_rng(7))
    lp, ilp = run_twins(handle, "getrf", Z, flavour, lu_operands(a, 4, flavour, 0, 0, True, strideP=0))
    assert_twins(lp, ilp, ("ipiv", "info"))
    assert (ilp["ipiv"][4:] == SENT64).all()


# --- getrs ---------------------------------------------------------------------------------------


def lu_factors(p: Precision, batch: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Packed LU-like factors (a dominant diagonal: no division by a tiny pivot) and valid pivots."""
    a = random(p, (batch, n, n), rng) + 4 * n * np.eye(n, dtype=p.dtype)
    piv = np.array([[rng.integers(j, n) + 1 for j in range(n)] for _ in range(batch)], np.int64).reshape(batch, n)
    return a, piv


@fixed(30)
@given(st.data())
def test_getrs_matches_its_lp64_twin(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, seed = data.draw(shapes())
    if flavour == "plain":
        batch = 1
    n, nrhs = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 3))
    trans = data.draw(st.sampled_from("NTC"))
    lda, ldb = n + data.draw(st.integers(0, 2)), n + data.draw(st.integers(0, 2))
    gap, pgap = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    rng = np.random.default_rng(seed)
    a, piv = lu_factors(p, batch, n, rng)
    b = random(p, (batch, n, nrhs), rng)
    sp = n + pgap

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A, B = Stack(a, lda, flavour, gap), Stack(b, ldb, flavour, gap)
        host = np.full(sp * max(batch - 1, 0) + n + 2, SENT64 if wide else SENT32, np.int64)
        for e in range(batch if flavour != "plain" else 1):
            host[e * sp:e * sp + n] = piv[e]
        ipiv = ints(host.size, wide, host)
        return ({"trans": trans, "n": n, "nrhs": nrhs, "A": A.arg, "lda": lda, "strideA": A.stride, "ipiv": ipiv.arg,
                 "strideP": sp, "B": B.arg, "ldb": ldb, "strideB": B.stride, "batch_count": batch},
                {"A": A, "B": B, "ipiv": ipiv})

    lp, ilp = run_twins(handle, "getrs", p, flavour, make)
    assert_twins(lp, ilp, ("ipiv",))  # A and ipiv are read only: as they were in both


def test_large_getrs_matches(handle: Any) -> None:
    rng = np.random.default_rng(11)
    a, piv = lu_factors(D, 2, 70, rng)
    b = random(D, (2, 70, 3), rng)

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A, B, ipiv = Stack(a, 70, "strided"), Stack(b, 71, "strided", 2), ints(140, wide, piv.reshape(-1))
        return ({"trans": "T", "n": 70, "nrhs": 3, "A": A.arg, "lda": 70, "strideA": A.stride, "ipiv": ipiv.arg,
                 "strideP": 70, "B": B.arg, "ldb": 71, "strideB": B.stride, "batch_count": 2}, {"B": B, "ipiv": ipiv})

    lp, ilp = run_twins(handle, "getrs", D, "strided", make)
    assert_twins(lp, ilp, ("ipiv",))


@pytest.mark.parametrize("bad", (0, 6, -1, 2**31, 2**40, -(2**40), 2**63 - 1))
def test_getrs_refuses_a_pivot_outside_the_matrix_before_narrowing_it(handle: Any, bad: int) -> None:
    # The LP64 kernel refuses a pivot outside 1..n (it would read outside the matrix); an int64 pivot
    # beyond int32's range is refused the same way, with its value, never wrapped into range.
    a, piv = lu_factors(D, 1, 5, np.random.default_rng(2))
    piv[0, 3] = bad
    A, B = Stack(a, 5, "plain"), Stack(random(D, (1, 5, 2), np.random.default_rng(3)), 5, "plain")
    before = B.raw()
    ipiv = ints(5, True, piv.reshape(-1))
    solver.dgetrs_64(handle, "N", 5, 2, A.arg, 5, ipiv.arg, B.arg, 5)
    with pytest.raises(MemoryAccessFault, match=rf"argument 'ipiv': entry 0, pivot 4 is {bad}, outside 1\.\.5"):
        rm.device_synchronize()
    assert np.array_equal(B.raw(), before)
    if -(2**31) <= bad <= INT32_MAX:  # the LP64 call says the same
        solver.dgetrs(handle, "N", 5, 2, A.arg, 5, ints(5, False, piv.reshape(-1)).arg, B.arg, 5)
        with pytest.raises(MemoryAccessFault, match=rf"argument 'ipiv': entry 0, pivot 4 is {bad}, outside 1\.\.5"):
            rm.device_synchronize()


# --- potf2, potrf, potrs ---------------------------------------------------------------------------------


def spd(p: Precision, batch: int, n: int, rng: np.random.Generator) -> np.ndarray:
    x = random(p, (batch, n, n), rng)
    return (x @ np.conj(np.swapaxes(x, 1, 2)) + n * np.eye(n)).astype(p.dtype)


@fixed(40)
@given(st.data())
def test_cholesky_factorizations_match_their_lp64_twins(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, seed = data.draw(shapes())
    if flavour == "plain":
        batch = 1
    routine = data.draw(st.sampled_from(("potrf", "potf2")))
    uplo = data.draw(st.sampled_from("UL"))
    n = data.draw(st.integers(0, 9))
    lda, gap = n + data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    rng = np.random.default_rng(seed)
    a = spd(p, batch, n, rng)
    bad = data.draw(st.lists(st.booleans(), min_size=batch, max_size=batch))
    for b, s in enumerate(bad):  # not positive definite: info = the order of the failing minor
        if s and n:
            j = rng.integers(n)
            a[b, j, j] = -1
    count = batch if flavour != "plain" else 1

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A, info = Stack(a, lda, flavour, gap), ints(count + 2, wide)
        return ({"uplo": uplo, "n": n, "A": A.arg, "lda": lda, "strideA": A.stride, "info": info.arg,
                 "batch_count": batch}, {"A": A, "info": info})

    lp, ilp = run_twins(handle, routine, p, flavour, make)
    assert_twins(lp, ilp, ("info",))
    if n and any(bad):
        assert (ilp["info"][:batch][np.array(bad)] > 0).all()


@fixed(30)
@given(st.data())
def test_potrs_matches_its_lp64_twin(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, seed = data.draw(shapes())
    if flavour == "plain":
        batch = 1
    uplo = data.draw(st.sampled_from("UL"))
    n, nrhs = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 3))
    lda, ldb, gap = n + data.draw(st.integers(0, 2)), n + data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    rng = np.random.default_rng(seed)
    f = random(p, (batch, n, n), rng) + 4 * n * np.eye(n, dtype=p.dtype)  # a factor: its uplo triangle is read
    b = random(p, (batch, n, nrhs), rng)

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A, B = Stack(f, lda, flavour, gap), Stack(b, ldb, flavour, gap)
        return ({"uplo": uplo, "n": n, "nrhs": nrhs, "A": A.arg, "lda": lda, "strideA": A.stride, "B": B.arg,
                 "ldb": ldb, "strideB": B.stride, "batch_count": batch}, {"A": A, "B": B})

    assert_twins(*run_twins(handle, "potrs", p, flavour, make))


# --- geqr2, geqrf, larfg, larf, lacgv ---------------------------------------------------------------------


@fixed(30)
@given(st.data())
def test_qr_factorizations_match_their_lp64_twins(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, seed = data.draw(shapes())
    if flavour == "plain":
        batch = 1
    routine = data.draw(st.sampled_from(("geqrf", "geqr2")))
    m, n = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 9))
    lda, gap, pgap = m + data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    k = min(m, n)
    sp = k + pgap

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        A = Stack(a, lda, flavour, gap)
        tau = Flat(sp * max(batch - 1, 0) + k + 2, p.dtype, PAD)  # "ipiv": the Householder scalars, type T
        return ({"m": m, "n": n, "A": A.arg, "lda": lda, "strideA": A.stride, "ipiv": tau.arg, "strideP": sp,
                 "batch_count": batch}, {"A": A, "ipiv": tau})

    assert_twins(*run_twins(handle, routine, p, flavour, make))


def strided(x: np.ndarray, inc: int) -> np.ndarray:
    """``x`` as a vector with increment ``inc`` (PAD between; reversed storage for a negative one)."""
    out = np.full(max(1 + (x.size - 1) * abs(inc), 1), PAD, x.dtype)
    out[::abs(inc)][:x.size] = x if inc > 0 else x[::-1]
    return out


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("n", (0, 1, 2, 7))
def test_larfg_matches_its_lp64_twin(handle: Any, p: Precision, n: int) -> None:
    rng = np.random.default_rng(n)
    x, alpha = random(p, (max(n - 1, 1),), rng), random(p, (1,), rng)

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        X, al, tau = Flat(0, p.dtype, host=strided(x, 2)), Flat(0, p.dtype, host=alpha), Flat(1, p.dtype, PAD)
        return {"n": n, "alpha": al.arg, "x": X.arg, "incx": 2, "tau": tau.arg}, {"x": X, "alpha": al, "tau": tau}

    assert_twins(*run_twins(handle, "larfg", p, "plain", make))


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("side", "LR")
@pytest.mark.parametrize("incx", (1, -2))
def test_larf_matches_its_lp64_twin(handle: Any, p: Precision, side: str, incx: int) -> None:
    rng = np.random.default_rng(4)
    m, n = 5, 4
    x, alpha, a = random(p, (m if side == "L" else n,), rng), random(p, (1,), rng), random(p, (1, m, n), rng)

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        X, al, A = Flat(0, p.dtype, host=strided(x, incx)), Flat(0, p.dtype, host=alpha), Stack(a, m + 2, "plain")
        return ({"side": side, "m": m, "n": n, "x": X.arg, "incx": incx, "alpha": al.arg, "A": A.arg, "lda": m + 2},
                {"A": A, "x": X})

    assert_twins(*run_twins(handle, "larf", p, "plain", make))


@pytest.mark.parametrize("p", (C, Z))
@pytest.mark.parametrize("incx", (1, 3, -2))
def test_lacgv_matches_its_lp64_twin(handle: Any, p: Precision, incx: int) -> None:
    x = random(p, (6,), np.random.default_rng(abs(incx)))

    def make(wide: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        X = Flat(0, p.dtype, host=strided(x, incx))
        return {"n": 6, "x": X.arg, "incx": incx}, {"x": X}

    lp, ilp = run_twins(handle, "lacgv", p, "plain", make)
    assert_twins(lp, ilp)
    assert np.array_equal(ilp["x"][::abs(incx)][:6], strided(x.conj(), incx)[::abs(incx)][:6])


# --- sizes: int32 for the LP64 names, int64 for the _64 ones -------------------------------------------------


#: A call of each family whose leading dimension ``ld`` (2**31 + 5 below) costs no memory: one column
#: (n = 1, so ld never multiplies anything), strideA/strideB = 3.  name -> (routine, its flavour, values).
HUGE_LD = 2**31 + 5


def one_column_calls(p: Precision, ld: int, wide: bool) -> dict[str, tuple[str, str, dict[str, Any], dict[str, Any]]]:
    rng = np.random.default_rng(9)
    col = random(p, (3, 1), rng)
    col[0] += 4
    one = random(p, (1, 1), rng) + 3
    out = {}
    for flavour in ("plain", "strided"):
        A, info, ipiv = Flat(0, p.dtype, host=col.reshape(-1)), ints(1, wide), ints(1, wide)
        out[f"getrf/{flavour}"] = ("getrf", flavour, {"m": 3, "n": 1, "A": A.arg, "lda": ld, "strideA": 3,
                                                      "ipiv": ipiv.arg, "strideP": 1, "info": info.arg,
                                                      "batch_count": 1}, {"A": A, "ipiv": ipiv, "info": info})
        A, info = Flat(0, p.dtype, host=one.reshape(-1).real.astype(p.dtype) + 1), ints(1, wide)
        out[f"potrf/{flavour}"] = ("potrf", flavour, {"uplo": "L", "n": 1, "A": A.arg, "lda": ld, "strideA": 3,
                                                      "info": info.arg, "batch_count": 1}, {"A": A, "info": info})
        A, tau = Flat(0, p.dtype, host=col.reshape(-1)), Flat(1, p.dtype, PAD)
        out[f"geqrf/{flavour}"] = ("geqrf", flavour, {"m": 3, "n": 1, "A": A.arg, "lda": ld, "strideA": 3,
                                                      "ipiv": tau.arg, "strideP": 1, "batch_count": 1},
                                   {"A": A, "ipiv": tau})
        A, B = Flat(0, p.dtype, host=one.reshape(-1)), Flat(0, p.dtype, host=col[:1, 0])
        ipiv = ints(1, wide, np.ones(1))
        out[f"getrs/{flavour}"] = ("getrs", flavour, {"trans": "N", "n": 1, "nrhs": 1, "A": A.arg, "lda": ld,
                                                      "strideA": 3, "ipiv": ipiv.arg, "strideP": 1, "B": B.arg,
                                                      "ldb": ld, "strideB": 3, "batch_count": 1}, {"B": B})
        A, B = Flat(0, p.dtype, host=one.reshape(-1)), Flat(0, p.dtype, host=col[:1, 0])
        out[f"potrs/{flavour}"] = ("potrs", flavour, {"uplo": "U", "n": 1, "nrhs": 1, "A": A.arg, "lda": ld,
                                                      "strideA": 3, "B": B.arg, "ldb": ld, "strideB": 3,
                                                      "batch_count": 1}, {"B": B})
    X, al, A = Flat(0, p.dtype, host=col.reshape(-1)), Flat(0, p.dtype, host=one[0]), Flat(0, p.dtype,
                                                                                         host=col.reshape(-1))
    out["larf/plain"] = ("larf", "plain", {"side": "L", "m": 3, "n": 1, "x": X.arg, "incx": 1, "alpha": al.arg,
                                           "A": A.arg, "lda": ld}, {"A": A})
    return out


@pytest.mark.parametrize("p", (S, Z))
def test_int64_leading_dimensions_run_and_match(handle: Any, p: Precision) -> None:
    # A _64 name takes lda = 2**31 + 5 (one column: nothing is multiplied by it) and gives what the LP64
    # name gives with lda = 3; the LP64 name refuses 2**31 + 5, naming lda.
    small, huge = one_column_calls(p, 3, False), one_column_calls(p, HUGE_LD, True)
    for key, (routine, flavour, values, ops) in small.items():
        call(fn(routine, p, flavour), handle, values)
        _, _, values64, ops64 = huge[key]
        call(fn(routine, p, flavour, wide=True), handle, values64)
        for name in ops:
            got32, got64 = ops[name].raw(), ops64[name].raw()
            if got32.dtype == np.int32:
                assert np.array_equal(got64, got32.astype(np.int64)), key
            else:
                assert np.array_equal(got64.view(np.uint8), got32.view(np.uint8)), (key, name)
        _, _, values32, _ = one_column_calls(p, HUGE_LD, False)[key]
        with pytest.raises(RocblasInvalidSizeError, match="rocblas_int") as e:
            call(fn(routine, p, flavour), handle, values32)
        assert e.value.arg == "lda", key  # (getrs, potrs: checked before ldb)


@pytest.mark.parametrize("wide", (False, True))
def test_int64_increments(handle: Any, wide: bool) -> None:
    # incx is int64_t in larfg_64, larf_64, lacgv_64: exercised with one element (never stepped over).
    inc = 2**31 + 1
    x, alpha, tau = rm.to_device(np.array([2 + 1j])), rm.to_device(np.array([3 + 0j])), rm.zeros(1, np.complex128)
    a = rm.to_device(np.array([1 + 2j]))
    calls = ((solver.zlacgv, (1, x, inc)), (solver.zlarfg, (1, alpha, None, inc, tau)),
             (solver.zlarf, ("L", 1, 1, x, inc, alpha, a, 1)))
    for f, args in calls:
        if wide:
            getattr(solver, f"{f.__name__}_64")(handle, *args)
        else:
            with pytest.raises(RocblasInvalidSizeError, match="rocblas_int") as e:
                f(handle, *args)
            assert e.value.arg == "incx"
    if wide:
        assert x.get()[0] == 2 - 1j and alpha.get()[0] == 3 and tau.get()[0] == 0
        np.testing.assert_allclose(a.get()[0], (1 - 3 * abs(2 - 1j) ** 2) * (1 + 2j))


def test_lp64_names_refuse_sizes_beyond_rocblas_int(handle: Any) -> None:
    info = rm.zeros(2, np.int32)
    for name, args in ((("m", 2), (2**31, 4, None, 2**31, None, info)),
                       (("n", 3), (4, 2**31, None, 4, None, info)),
                       (("lda", 5), (4, 4, None, 2**31, None, info))):
        with pytest.raises(RocblasInvalidSizeError, match="does not fit rocblas_int") as e:
            solver.dgetrf(handle, *args)
        assert (e.value.arg, e.value.index) == name
    with pytest.raises(RocblasInvalidSizeError) as e:
        solver.zgetrs_strided_batched(handle, "N", 0, 1, None, 1, 1, None, 1, None, 1, 1, 2**31)
    assert e.value.arg == "batch_count"
    with pytest.raises(RocblasInvalidSizeError) as e:
        solver.spotrf(handle, "U", -(2**31) - 1, None, 1, info)
    assert e.value.arg == "n"
    # Strides are rocblas_stride (int64) in both APIs: an LP64 call takes a stride beyond int32.
    solver.dgetrf_strided_batched(handle, 0, 0, None, 1, 2**40, None, 2**40, info, 2)
    assert info.get().tolist() == [0, 0]


def test_ilp64_names_take_int64_sizes_where_they_return_early(handle: Any) -> None:
    # Quick returns: an empty matrix (info := 0, every byte of each int64 entry) with lda = 2**33, and
    # batch counts beyond int32 with nothing to do.
    info = ints(4, True)
    solver.dgetrf_64(handle, 0, 5, None, 2**33, None, info.arg)
    solver.zpotrf_strided_batched_64(handle, "L", 0, None, 2**33, 2**40, info.arg, 2)
    got = info.raw()
    assert got.dtype == np.int64 and got[:2].tolist() == [0, 0] and (got[2:] == SENT64).all()
    solver.cgetrs_strided_batched_64(handle, "N", 0, 1, None, 2**33, 1, None, 1, None, 2**33, 1, 2**31 + 7)
    solver.sgeqrf_batched_64(handle, 0, 3, None, 2**32, None, 2**35, 2**40)
    solver.dpotrs_batched_64(handle, "U", 0, 5, None, 2**31, None, 2**31, 2**33)
    # ... but not beyond int64_t.
    with pytest.raises(RocblasInvalidSizeError, match="int64_t") as e:
        solver.dgetrf_64(handle, 0, 5, None, 2**63, None, info.arg)
    assert e.value.arg == "lda"
    with pytest.raises(RocblasInvalidSizeError) as e:
        solver.dgetrf_64(handle, -1, 5, None, 1, None, info.arg)
    assert e.value.arg == "m"


# --- workspace ---------------------------------------------------------------------------------------------


def test_workspace_holds_the_int32_copies(handle: Any) -> None:
    # The _64 kernels are the LP64 ones, on int32 copies of ipiv and info after their workspace: a size
    # query reports both; a user workspace the size of the LP64 call's is too small (memory_error before
    # anything is written); an empty problem needs none.
    def query(f: Callable[..., Any], *args: Any) -> int:
        h = blas.create_handle()
        try:
            blas.start_device_memory_size_query(h)
            status = f(h, *args)
            need = blas.stop_device_memory_size_query(h)
        finally:
            blas.destroy_handle(h)
        assert status in (RocblasStatus.size_increased, RocblasStatus.size_unchanged)
        return need

    m, n, batch = 7, 6, 3
    lp = query(solver.dgetrf_strided_batched, m, n, None, m, m * n, None, n, None, batch)
    ilp = query(solver.dgetrf_strided_batched_64, m, n, None, m, m * n, None, n, None, batch)
    assert ilp == lp + 64 * (-(-4 * batch * n // 64)) + 64 * (-(-4 * batch // 64))
    assert query(solver.dgetrf_strided_batched_64, 0, n, None, 1, 0, None, 0, None, batch) == 0
    assert query(solver.dpotrs_64, "U", 5, 2, None, 5, None, 5) == query(solver.dpotrs, "U", 5, 2, None, 5, None, 5)

    a = random(D, (batch, m, n), np.random.default_rng(1))
    h = blas.create_handle()
    ws = rm.malloc(ilp)
    try:
        make = lu_operands(a, m, "strided", 0, 0, True)
        values, ops = make(True)
        before = {k: o.raw() for k, o in ops.items()}
        blas.set_workspace(h, ws, lp)
        with pytest.raises(RocblasMemoryError):
            call(solver.dgetrf_strided_batched_64, h, values)
        for k, o in ops.items():
            assert np.array_equal(o.raw().view(np.uint8), before[k].view(np.uint8)), k
        blas.set_workspace(h, ws, ilp)
        call(solver.dgetrf_strided_batched_64, h, values)
        lp_values, lp_ops = make(False)
        call(solver.dgetrf_strided_batched, h, lp_values)
        assert_twins({k: o.raw() for k, o in lp_ops.items()}, {k: o.raw() for k, o in ops.items()}, ("ipiv", "info"))
    finally:
        blas.destroy_handle(h)
        rm.free(ws)


def test_int64_arrays_are_checked_against_their_allocations(handle: Any) -> None:
    # An int32-sized info (4 bytes an entry) is too small for a _64 call: refused before A is touched.
    a = random(D, (1, 4, 4), np.random.default_rng(3))
    A, ipiv, small = Stack(a, 4, "plain"), ints(4, True), Flat(2, np.int32, 0)  # 8 bytes: one int64
    before = A.raw()
    with pytest.raises(MemoryAccessFault, match="info"):
        solver.dgetrf_strided_batched_64(handle, 4, 4, A.arg, 4, 0, ipiv.arg, 0, small.arg, 2)
    assert np.array_equal(A.raw(), before)


# --- logging, the manifest, the bench ------------------------------------------------------------------------


def test_logged_as_the_lp64_twin(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    # rocSOLVER's _64 functions call the LP64 *_impl, whose ROCSOLVER_ENTER_TOP names the routine without
    # _64 (roclapack_getrf.cpp, rocauxiliary_larfg.cpp...): the same trace name and bench line.
    trace, bench = tmp_path / "trace.log", tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "3")
    monkeypatch.setenv("ROCSOLVER_LOG_TRACE_PATH", str(trace))
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    with pytest.raises(RocblasInvalidSizeError):  # logged before it is checked
        solver.dgetrf_strided_batched_64(handle, 4, 4, 0, 3, 16, 0, 4, 0, 2)
    with pytest.raises(RocblasInvalidSizeError):
        solver.dgetrf_strided_batched(handle, 4, 4, 0, 3, 16, 0, 4, 0, 2)
    solver.sgetrs_64(handle, "T", 0, 0, None, 2**33, None, None, 1)
    solver.zlarfg_64(handle, 0, None, None, 1, None)
    close_logs()
    assert trace.read_text().splitlines() == ["rocsolver_dgetrf_strided_batched,4,4,0,3,16,0,4,0,2",
                                              "rocsolver_dgetrf_strided_batched,4,4,0,3,16,0,4,0,2",
                                              "rocsolver_sgetrs,T,0,0,0,8589934592,0,0,1",
                                              "rocsolver_zlarfg,0,0,0,1,0"]
    assert bench.read_text().splitlines() == [
        "rocmath-bench solver -f getrf_strided_batched -r d -m 4 -n 4 --lda 3 --strideA 16 --strideP 4 "
        "--batch_count 2"] * 2 + [
        "rocmath-bench solver -f getrs -r s --trans T -n 0 --nrhs 0 --lda 8589934592 --ldb 1",
        "rocmath-bench solver -f larfg -r z -n 0 --incx 1"]


def test_profiled_as_the_lp64_twin(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    path = tmp_path / "profile.yaml"
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(tmp_path / "earlier.yaml"))
    _api.log_flush_profile()  # nothing left from earlier tests
    monkeypatch.setenv("ROCSOLVER_LAYER", "4")
    monkeypatch.setenv("ROCSOLVER_LOG_PROFILE_PATH", str(path))
    h = blas.create_handle()
    a = np.asfortranarray(np.eye(6) * 6 + 1).reshape(-1)
    solver.dpotrf(h, "L", 6, rm.to_device(a), 6, rm.zeros(1, np.int32))
    solver.dpotrf_64(h, "L", 6, rm.to_device(a), 6, rm.zeros(1, np.int64))
    blas.destroy_handle(h)
    _api.log_flush_profile()
    close_logs()
    lines = path.read_text().splitlines()
    assert len(lines) == 1 and "function: rocsolver_dpotrf, calls: 2," in lines[0], lines
    assert 'problem: "rocmath-bench solver -f potrf -r d --uplo L -n 6 --lda 6"' in lines[0]


def test_names_and_signatures() -> None:
    names = set(_manifest.ilp64_routines())
    assert len(names) == 130 and names <= _manifest.compute_routines()
    for name in names:
        f, twin = getattr(solver, name), getattr(solver, name[:-3])
        assert f.__name__ == name and f.__module__ == "rocmath.solver" and f.ilp64 and not twin.ilp64
        assert inspect.signature(f) == inspect.signature(twin)  # rocSOLVER's argument order
        assert f.__doc__.startswith(f"rocsolver_{name}(handle, ")
    assert "dgetri_64" not in dir(solver) and "dgesv_64" not in dir(solver) and "slaswp_64" not in dir(solver)


def test_bench_runs_the_ilp64_names() -> None:
    # rocsolver-bench's dispatcher takes the _64 names too (getf2_64, potrf_strided_batched_64...).
    from rocmath.bench.rocsolver_cli import main

    for args in (["-f", "getf2_strided_batched_64", "-r", "d", "-m", "6", "-n", "5", "--batch_count", "2"],
                 ["-f", "getrs_batched_64", "-r", "c", "-n", "5", "--nrhs", "2", "--batch_count", "2"],
                 ["-f", "potrf_64", "-r", "z", "-n", "6"]):
        out = io.StringIO()
        assert main([*args, "-i", "1", "-j", "0", "-v", "1"], out) == 0, out.getvalue()
        name = args[1]
        assert out.getvalue().startswith(f"{args[3]}{name} "), out.getvalue()
