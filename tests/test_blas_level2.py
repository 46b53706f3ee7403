"""rocmath.blas Level 2 against numpy references.

Every array lives in device memory with poisoned padding, gaps and margins (rocmath.testing):
rows ``m..lda-1``, increment gaps, strided-batch gaps and the margins must survive
bit-exactly.  The parts of a matrix a routine must not read (the other triangle, the unused
corners of band storage, a unit diagonal) hold the NaN sentinel too, so reading them shows
as NaN in the result; outputs that must not be read (y when beta == 0) are poisoned.

Accuracy tests draw routine, precision, flavour (plain, pointer-array batched, strided
batched), sizes (0 and 1 included), padding, increments of either sign, uplo/trans/diag,
alpha/beta (0 and 1 included) and the pointer mode with Hypothesis; bad-argument tests
check every bound name for the rocBLAS status, the argument named and untouched outputs.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.blas import _kernels_l2 as kl2
from rocmath.blas import level2 as L2
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
)
from rocmath.precision import BF16, C, D, H, Precision, S, Z, from_bfloat16

SDCZ = (S, D, C, Z)
FLAVOURS = ("", "_batched", "_strided_batched")


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


@pytest.fixture
def blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small entries done as large ones are: in column blocks with partial sums added in block
    order (entries of at most kl2.ENTRY_TASK_BYTES are otherwise one task each)."""
    monkeypatch.setattr(kl2, "ENTRY_TASK_BYTES", 0)


# --- device operands in every flavour ---------------------------------------------------------


class Operand:
    """One array argument of a call in one flavour, in device memory with poisoned padding.

    ``host`` is the logical data of every batch entry: ``(batch, rows, cols)`` for a matrix
    with leading dimension ``ld``, ``(batch, n)`` for a vector with increment ``inc``.
    """

    def __init__(self, name: str, host: np.ndarray, flavour: str, *, ld: int | None = None,
                 inc: int | None = None, pad: int = 0):
        self.name, self.flavour, self.host = name, flavour, host
        if inc is not None:
            per = abs(inc) * host.shape[1]

            def make(h: np.ndarray, **kw: Any) -> rt.PaddedDeviceMatrix:
                return rt.poisoned_device_vector(h, inc, **kw)
        else:
            assert ld is not None
            per = ld * host.shape[2]

            def make(h: np.ndarray, **kw: Any) -> rt.PaddedDeviceMatrix:
                return rt.poisoned_device_matrix(h, ld, **kw)
        self.stride = per + pad
        if flavour == "":
            assert host.shape[0] == 1
            self.parts = [make(host[0])]
        elif flavour == "_strided_batched":
            self.parts = [make(host, stride=self.stride)]
        else:
            self.parts = [make(h) for h in host]
            self.ptrs = rm.to_device(np.array([p.ptr for p in self.parts] or [0], dtype=np.uint64))

    def kwargs(self) -> dict[str, Any]:
        if self.flavour == "_batched":
            return {self.name: self.ptrs}
        kw: dict[str, Any] = {self.name: self.parts[0].ptr}
        if self.flavour == "_strided_batched":
            kw["stride_" + self.name.lower()] = self.stride
        return kw

    def get(self) -> np.ndarray:
        if self.flavour == "_batched":
            return np.stack([p.get() for p in self.parts]) if self.parts else self.host.copy()
        out = self.parts[0].get()
        return out[None] if self.flavour == "" else out

    def check(self, *, unchanged: bool = False) -> None:
        """Padding, gaps and margins intact (and, with ``unchanged``, the data too)."""
        for p in self.parts:
            p.check_untouched(logical=unchanged)


@contextmanager
def operands(*ops: Operand) -> Iterator[None]:
    try:
        yield
    finally:
        rm.device_synchronize()
        for op in ops:
            for p in op.parts:
                p.close()


def run(handle: Any, name: str, flavour: str, batch: int, device: bool, scalars: dict[str, tuple[Any, Any]],
        ints: dict[str, Any], ops: tuple[Operand, ...]) -> None:
    """Call ``name + flavour`` with the scalars (value, dtype) in the pointer mode, synchronously."""
    kw = dict(ints)
    keep = []
    for key, (value, dtype) in scalars.items():
        if device:
            keep.append(rm.to_device(np.array([value], dtype=dtype)))
            kw[key] = keep[-1].ptr
        else:
            kw[key] = value
    for op in ops:
        kw.update(op.kwargs())
    if flavour:
        kw["batch_count"] = batch
    with handle.use_pointer_mode(1 if device else 0):
        getattr(L2, name + flavour)(handle, **kw)
    rm.device_synchronize()


# --- storage layouts: where each logical element lives -----------------------------------------


def band_map(m: int, n: int, kl: int, ku: int) -> tuple[np.ndarray, np.ndarray]:
    """Logical (row, col) of each element of LAPACK band storage ``(kl+ku+1, n)``; -1 if unused."""
    r, j = np.indices((kl + ku + 1, n))
    i = r - ku + j
    used = (i >= 0) & (i < m)
    return np.where(used, i, -1), np.where(used, j, -1)


def full_map(n: int, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.indices((n, n))
    used = (i <= j) if upper else (i >= j)
    return np.where(used, i, -1), np.where(used, j, -1)


def packed_map(n: int, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """Packed storage: the triangle column by column."""
    i, j = np.indices((n, n))
    used = (i <= j) if upper else (i >= j)
    cols, rows = np.nonzero(used.T)  # column-major order of the triangle
    return rows, cols


def layout(kind: int, n: int, upper: bool, k: int) -> tuple[np.ndarray, np.ndarray]:
    if kind == kl2.FULL:
        return full_map(n, upper)
    if kind == kl2.PACKED:
        return packed_map(n, upper)
    return band_map(n, n, 0 if upper else k, k if upper else 0)


def dense(storage: np.ndarray, rows: np.ndarray, cols: np.ndarray, m: int, n: int) -> np.ndarray:
    """The logical ``(batch, m, n)`` matrices (zero outside the stored part), in double precision."""
    out = np.zeros((storage.shape[0], m, n), dtype=wide_dtype(storage))
    used = rows >= 0
    with np.errstate(invalid="ignore"):  # a poisoned (signaling NaN) unit diagonal
        out[:, rows[used], cols[used]] = storage[:, used]
    return out


def poison(storage: np.ndarray, where: np.ndarray, p: Precision) -> np.ndarray:
    out = storage.copy()
    out[:, where] = rt.sentinel_value(p)
    return out


def wide_dtype(a: Any) -> type:
    return np.complex128 if np.iscomplexobj(a) else np.float64


def opm(a: np.ndarray, trans: str) -> np.ndarray:
    """op(A) of a batch of matrices."""
    if trans == "N":
        return a
    t = np.swapaxes(a, -1, -2)
    return t.conj() if trans == "C" else t


def symmetric(tri: np.ndarray, herm: bool) -> np.ndarray:
    """The symmetric (Hermitian: real diagonal) matrices defined by stored triangles ``tri``."""
    n = tri.shape[-1]
    diag = np.eye(n, dtype=bool)
    strict = np.where(diag, 0, tri)
    d = np.where(diag, tri.real if herm else tri, 0)
    return strict + opm(strict, "C" if herm else "T") + d


def matvec_check(got: np.ndarray, y: np.ndarray, A: np.ndarray, x: np.ndarray, alpha: Any, beta: Any,
                 p: Precision, what: str) -> None:
    """got == alpha*A@x + beta*y per entry (beta == 0: y not read), to the rounding of sums."""
    a, b = complex(alpha) if p.is_complex else float(alpha), complex(beta) if p.is_complex else float(beta)
    want = a * np.einsum("bij,bj->bi", A, x)
    bound = abs(a) * np.einsum("bij,bj->bi", np.abs(A), np.abs(x))
    if b != 0:
        want = want + b * y.astype(wide_dtype(y))
        bound = bound + abs(b) * np.abs(y.astype(wide_dtype(y)))
    scale = float(bound.max()) if bound.size else 0.0
    rt.assert_close(got, want, p, "reduction", n=A.shape[-1] + 2, scale=scale, err_msg=what)


# --- strategies --------------------------------------------------------------------------------


@st.composite
def common(draw: st.DrawFn, precisions: tuple[Precision, ...] = SDCZ) -> dict[str, Any]:
    flavour = draw(st.sampled_from(FLAVOURS))
    return {"p": draw(st.sampled_from(precisions)), "flavour": flavour,
            "batch": 1 if flavour == "" else draw(st.integers(0, 3)), "device": draw(st.booleans()),
            "pad": draw(st.integers(0, 3))}


def host(draw: st.DrawFn, p: Precision, shape: tuple[int, ...]) -> np.ndarray:
    return draw(rt.host_arrays(p, shape, order="C"))


def y_operand(draw: st.DrawFn, c: dict[str, Any], n: int, inc: int, beta: Any) -> Operand:
    """y, poisoned when beta == 0 (rocBLAS must not read it)."""
    y = host(draw, c["p"], (c["batch"], n))
    if beta == 0:
        y = poison(y, np.ones(n, dtype=bool), c["p"])
    return Operand("y", y, c["flavour"], inc=inc, pad=c["pad"])


def unchanged_or_close(out: Operand, quick: bool, check: Any) -> None:
    got = out.get()
    if quick:  # a quick return: nothing written
        out.check(unchanged=True)
    else:
        out.check()
        rt.assert_written(got)
        check(got)


# --- general products: gemv, gbmv ---------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_gemv_gbmv(handle: Any, data: st.DataObject) -> None:
    d = data.draw
    c = d(common())
    p, flavour, batch = c["p"], c["flavour"], c["batch"]
    band = d(st.booleans())
    trans = d(st.sampled_from("NTC"))
    m, n = d(rt.sizes(max_value=9)), d(rt.sizes(max_value=9))
    kl = d(st.integers(0, 3)) if band else 0
    ku = d(st.integers(0, 3)) if band else 0
    rows = kl + ku + 1 if band else m
    lda = d(rt.leading_dimensions(rows, max_padding=3))
    incx, incy = d(rt.increments(max_abs=3)), d(rt.increments(max_abs=3))
    alpha, beta = d(rt.scalars(p, allow_nan=False)), d(rt.scalars(p, allow_nan=False))
    lenx, leny = (n, m) if trans == "N" else (m, n)
    a = host(d, p, (batch, rows, n))
    if band:
        r, cc = band_map(m, n, kl, ku)
        a = poison(a, r < 0, p)
        full = dense(a, r, cc, m, n)
    else:
        full = a.astype(wide_dtype(a))
    A = Operand("A", a, flavour, ld=lda, pad=c["pad"])
    x = Operand("x", host(d, p, (batch, lenx)), flavour, inc=incx, pad=c["pad"])
    y = y_operand(d, c, leny, incy, beta)
    name = f"{p.letter}{'gb' if band else 'ge'}mv"
    ints = {"trans": trans, "m": m, "n": n, "lda": lda, "incx": incx, "incy": incy}
    if band:
        ints.update(kl=kl, ku=ku)
    with operands(A, x, y):
        run(handle, name, flavour, batch, c["device"], {"alpha": (alpha, p.compute_dtype),
                                                        "beta": (beta, p.compute_dtype)}, ints, (A, x, y))
        A.check(unchanged=True)
        x.check(unchanged=True)
        quick = m == 0 or n == 0 or batch == 0 or (alpha == 0 and beta == 1)
        unchanged_or_close(y, quick, lambda got: matvec_check(got, y.host, opm(full, trans), x.host, alpha, beta, p,
                                                              name))


@contextmanager
def numba_threads(count: int) -> Iterator[None]:
    """The calling thread's numba thread count set to ``count`` inside the block (the kernels'
    bits must not depend on it), at most the pool's size (NUMBA_NUM_THREADS may be below it)."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(count, numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)


# --- symmetric and Hermitian products -----------------------------------------------------------

SYM_MV = {"symv": (kl2.FULL, False, SDCZ), "spmv": (kl2.PACKED, False, (S, D)), "sbmv": (kl2.BAND, False, (S, D)),
          "hemv": (kl2.FULL, True, (C, Z)), "hpmv": (kl2.PACKED, True, (C, Z)), "hbmv": (kl2.BAND, True, (C, Z))}


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_symmetric_hermitian_mv(handle: Any, data: st.DataObject) -> None:
    d = data.draw
    routine = d(st.sampled_from(sorted(SYM_MV)))
    kind, herm, precs = SYM_MV[routine]
    c = d(common(precs))
    p, flavour, batch = c["p"], c["flavour"], c["batch"]
    upper = d(st.booleans())
    n = d(rt.sizes(max_value=9))
    k = d(st.integers(0, 3)) if kind == kl2.BAND else max(n - 1, 0)
    incx, incy = d(rt.increments(max_abs=3)), d(rt.increments(max_abs=3))
    alpha, beta = d(rt.scalars(p, allow_nan=False)), d(rt.scalars(p, allow_nan=False))
    r, cc = layout(kind, n, upper, k)
    ints: dict[str, Any] = {"uplo": "U" if upper else "L", "n": n, "incx": incx, "incy": incy}
    a_name = "AP" if routine == "hpmv" else "A"
    if kind == kl2.PACKED:
        a = host(d, p, (batch, n * (n + 1) // 2))
        A = Operand(a_name, a, flavour, inc=1, pad=c["pad"])
    else:
        a = poison(host(d, p, (batch, *r.shape)), r < 0, p)
        ints["lda"] = d(rt.leading_dimensions(r.shape[0], max_padding=3))
        A = Operand(a_name, a, flavour, ld=ints["lda"], pad=c["pad"])
        if kind == kl2.BAND:
            ints["k"] = k
    full = symmetric(dense(a, r, cc, n, n), herm)
    x = Operand("x", host(d, p, (batch, n)), flavour, inc=incx, pad=c["pad"])
    y = y_operand(d, c, n, incy, beta)
    with operands(A, x, y):
        run(handle, p.letter + routine, flavour, batch, c["device"], {"alpha": (alpha, p.compute_dtype),
                                                                      "beta": (beta, p.compute_dtype)}, ints, (A, x, y))
        A.check(unchanged=True)
        x.check(unchanged=True)
        quick = n == 0 or batch == 0 or (alpha == 0 and beta == 1)
        unchanged_or_close(y, quick, lambda got: matvec_check(got, y.host, full, x.host, alpha, beta, p, routine))


@pytest.mark.usefixtures("blocks")
@pytest.mark.parametrize(("p", "herm"), [(D, False), (Z, False), (Z, True)], ids=["dsymv", "zsymv", "zhemv"])
@pytest.mark.parametrize("upper", [True, False], ids=["U", "L"])
def test_symv_hemv_past_several_column_blocks(handle: Any, p: Precision, herm: bool, upper: bool) -> None:
    # Full storage is read once in fixed blocks of columns (kl2.SYMV_CB), taken light and heavy in
    # turn: several blocks, two batch entries, the other triangle NaN (never read), and the same
    # bits on one thread as on two.
    n, batch, lda = 3 * kl2.SYMV_CB + 5, 2, 3 * kl2.SYMV_CB + 8
    rng = np.random.default_rng(5)

    def draw(*shape: int) -> np.ndarray:
        v = rng.standard_normal(shape)
        return (v + 1j * rng.standard_normal(shape)).astype(p.dtype) if p.is_complex else v.astype(p.dtype)

    a = draw(batch, lda, n)
    keep = np.triu(np.ones((lda, n), bool)) if upper else np.tril(np.ones((lda, n), bool))
    keep[n:] = False
    a[:, ~keep] = np.nan
    tri = np.where(keep[:n], a[:, :n], 0)
    strict = np.triu(tri, 1) if upper else np.tril(tri, -1)
    diag = np.einsum("bii->bi", tri)
    full = strict + np.conj(strict.transpose(0, 2, 1)) if herm else strict + strict.transpose(0, 2, 1)
    full = full + np.stack([np.diag(dg.real if herm else dg) for dg in diag])
    x, y = draw(batch, n), draw(batch, n)
    alpha, beta = p.dtype.type(0.75 - 0.5j if p.is_complex else 0.75), p.dtype.type(-1.25)
    want = alpha * np.einsum("bij,bj->bi", full, x) + beta * y
    fn = getattr(blas, f"{p.letter}{'hemv' if herm else 'symv'}_strided_batched")
    got = []
    for threads in (2, 1):
        dA = rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)))  # column-major entries
        dx, dy = rm.to_device(x), rm.to_device(y)
        with numba_threads(threads):
            with handle.use_pointer_mode(0):
                fn(handle, "U" if upper else "L", n, alpha, dA, lda, lda * n, dx, 1, n, beta, dy, 1, n, batch)
            rm.device_synchronize()
        got.append(dy.get())
    rt.assert_close(got[0], want, p, "reduction", n)
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.parametrize("routine", ["dsyr2", "zher", "zher2", "dger"])
@pytest.mark.parametrize("upper", [True, False], ids=["U", "L"])
@pytest.mark.parametrize("tall", [False, True], ids=["blocks", "four-columns"])
def test_rank_updates_past_several_column_blocks(handle: Any, routine: str, upper: bool, tall: bool) -> None:
    # Columns in blocks of kl2.CB_R, a triangle's taken light and heavy in turn: several blocks,
    # two entries, the other triangle (NaN) and the padding untouched, a Hermitian diagonal real,
    # and the same bits on one thread as on two.  Tall: columns that share RANK_GROUP_ROWS rows or
    # more go four at a time.
    p = Z if routine.startswith("z") else D
    n, batch = (kl2.RANK_GROUP_ROWS + 13, 1) if tall else (3 * kl2.CB_R + 5, 2)
    m = n + 3 if routine == "dger" else n
    lda = m + 2
    rng = np.random.default_rng(9)

    def draw(*shape: int) -> np.ndarray:
        v = rng.standard_normal(shape)
        return (v + 1j * rng.standard_normal(shape)).astype(p.dtype) if p.is_complex else v.astype(p.dtype)

    a = draw(batch, n, lda)  # entry b, column j, row i: column-major storage
    general = routine == "dger"
    rows = np.arange(lda)[None, :]
    cols = np.arange(n)[:, None]
    stored = ((rows < m) & (cols >= 0)) if general else ((rows <= cols) if upper else ((rows >= cols) & (rows < n)))
    a[:, ~stored] = np.nan
    x, y = draw(batch, m), draw(batch, n)
    alpha = p.dtype.type(0.5) if routine == "zher" else p.dtype.type(0.5 - 0.25j if p.is_complex else 0.5)
    logical = a.transpose(0, 2, 1)[:, :m, :]  # (batch, m, n)
    if general:
        outer = alpha * np.einsum("bi,bj->bij", x, y)
    elif routine == "zher":
        outer = alpha.real * np.einsum("bi,bj->bij", x, np.conj(x))
    elif routine == "zher2":
        outer = alpha * np.einsum("bi,bj->bij", x, np.conj(y)) + np.conj(alpha) * np.einsum("bi,bj->bij", y, np.conj(x))
    else:
        outer = alpha * (np.einsum("bi,bj->bij", x, y) + np.einsum("bi,bj->bij", y, x))
    want = logical + outer
    if routine.startswith("zher"):
        idx = np.arange(n)
        want[:, idx, idx] = logical[:, idx, idx].real + outer[:, idx, idx].real
    mask = stored.T[:m]  # (m, n)
    got = []
    for threads in (2, 1):
        dA, dx, dy = rm.to_device(a), rm.to_device(x), rm.to_device(y)
        with numba_threads(threads):
            with handle.use_pointer_mode(0):
                uplo = "U" if upper else "L"
                if general:
                    blas.dger_strided_batched(handle, m, n, alpha, dx, 1, m, dy, 1, n, dA, lda, lda * n, batch)
                elif routine == "zher":
                    blas.zher_strided_batched(handle, uplo, n, alpha.real, dx, 1, n, dA, lda, lda * n, batch)
                else:
                    getattr(blas, f"{routine}_strided_batched")(handle, uplo, n, alpha, dx, 1, n, dy, 1, n, dA, lda,
                                                               lda * n, batch)
            rm.device_synchronize()
        got.append(dA.get())
    out = got[0].transpose(0, 2, 1)
    rt.assert_close(out[:, :m][:, mask], want[:, mask], p, "elementwise", scale=8.0)
    assert np.isnan(out[:, ~stored.T]).all()  # the other triangle and the padding: never written
    if routine.startswith("zher"):
        assert (np.einsum("bii->bi", out[:, :n, :n]).imag == 0).all()
    assert got[0].tobytes() == got[1].tobytes()


# --- triangular products and solves --------------------------------------------------------------

TRIANGULAR = {"trmv": kl2.FULL, "tpmv": kl2.PACKED, "tbmv": kl2.BAND, "trsv": kl2.FULL, "tpsv": kl2.PACKED,
              "tbsv": kl2.BAND}


@settings(max_examples=rt.examples(60))
@given(st.data())
def test_triangular(handle: Any, data: st.DataObject) -> None:
    d = data.draw
    routine = d(st.sampled_from(sorted(TRIANGULAR)))
    kind, solve = TRIANGULAR[routine], routine.endswith("sv")
    c = d(common())
    p, flavour, batch = c["p"], c["flavour"], c["batch"]
    upper, trans, unit = d(st.booleans()), d(st.sampled_from("NTC")), d(st.booleans())
    n = d(rt.sizes(max_value=9))
    k = d(st.integers(0, 3)) if kind == kl2.BAND else max(n - 1, 0)
    incx = d(rt.increments(max_abs=3))
    r, cc = layout(kind, n, upper, k)
    a = host(d, p, (batch, *r.shape))
    diag = r == cc
    if solve:  # well conditioned: a dominant diagonal, small off-diagonal elements
        a = np.where(diag, a * 2 / np.abs(a), a / (2 * max(n, 1))).astype(p.dtype)
    a = poison(a, (r < 0) | (diag if unit else False), p)  # a unit diagonal must not be read
    tri = dense(a, r, cc, n, n)
    if unit:
        tri[:, np.arange(n), np.arange(n)] = 1
    ints: dict[str, Any] = {"uplo": "U" if upper else "L", "transA": trans, "diag": "U" if unit else "N", "n": n,
                            "incx": incx}
    if routine == "tbmv":
        ints["trans"] = ints.pop("transA")
    a_name = "AP" if routine == "tpsv" else "A"
    if kind == kl2.PACKED:
        A = Operand(a_name, a, flavour, inc=1, pad=c["pad"])
    else:
        ints["lda"] = d(rt.leading_dimensions(r.shape[0], max_padding=3))
        A = Operand(a_name, a, flavour, ld=ints["lda"], pad=c["pad"])
    if kind == kl2.BAND:
        ints["k"] = k
    x = Operand("x", host(d, p, (batch, n)), flavour, inc=incx, pad=c["pad"])
    with operands(A, x):
        run(handle, p.letter + routine, flavour, batch, c["device"], {}, ints, (A, x))
        A.check(unchanged=True)
        x.check()
        got = x.get()
        opa = opm(tri, trans)
        if solve:
            want = np.linalg.solve(opa, x.host.astype(opa.dtype)[..., None])[..., 0] if n and batch else x.host
            rt.assert_close(got, want, p, "factorization", n=n, scale=float(np.abs(want).max(initial=0)),
                            err_msg=routine)
        else:
            matvec_check(got, x.host, opa, x.host, 1, 0, p, routine)


def test_triangular_solve_singular_gives_inf_nan(handle: Any) -> None:
    # No singularity check: a zero diagonal divides by zero as on the device.
    for p in SDCZ:
        a = np.triu(np.ones((3, 3), dtype=p.dtype))
        a[1, 1] = 0
        A = Operand("A", a[None], "", ld=3)
        x = Operand("x", np.ones((1, 3), dtype=p.dtype), "", inc=1)
        with operands(A, x):
            run(handle, p.letter + "trsv", "", 1, False, {}, {"uplo": "U", "transA": "N", "diag": "N", "n": 3,
                                                            "lda": 3, "incx": 1}, (A, x))
            got = x.get()[0]
            assert got[2] == 1 and not np.isfinite(got[1]) and not np.isfinite(got[0])


# --- rank updates --------------------------------------------------------------------------------

# routine: (storage, Hermitian, two vectors, conjugate y, precisions)
RANK = {"ger": (None, False, False, False, (S, D)), "geru": (None, False, False, False, (C, Z)),
        "gerc": (None, False, False, True, (C, Z)), "syr": (kl2.FULL, False, False, False, SDCZ),
        "syr2": (kl2.FULL, False, True, False, SDCZ), "spr": (kl2.PACKED, False, False, False, SDCZ),
        "spr2": (kl2.PACKED, False, True, False, (S, D)), "her": (kl2.FULL, True, False, False, (C, Z)),
        "her2": (kl2.FULL, True, True, False, (C, Z)), "hpr": (kl2.PACKED, True, False, False, (C, Z)),
        "hpr2": (kl2.PACKED, True, True, False, (C, Z))}


@settings(max_examples=rt.examples(60))
@given(st.data())
def test_rank_updates(handle: Any, data: st.DataObject) -> None:
    d = data.draw
    routine = d(st.sampled_from(sorted(RANK)))
    kind, herm, two, conj_y, precs = RANK[routine]
    c = d(common(precs))
    p, flavour, batch = c["p"], c["flavour"], c["batch"]
    upper = d(st.booleans())
    n = d(rt.sizes(max_value=9))
    m = d(rt.sizes(max_value=9)) if kind is None else n
    incx, incy = d(rt.increments(max_abs=3)), d(rt.increments(max_abs=3))
    real_alpha = herm and not two
    alpha = d(rt.scalars(p.real if real_alpha else p, allow_nan=False))
    ints: dict[str, Any] = {"n": n, "incx": incx}
    if kind is None:
        r, cc = np.indices((m, n))
        ints["m"] = m
    else:
        r, cc = layout(kind, n, upper, n - 1)
        ints["uplo"] = "U" if upper else "L"
    a = poison(host(d, p, (batch, *r.shape)), r < 0, p)
    a_name = "AP" if kind == kl2.PACKED else "A"
    if kind == kl2.PACKED:
        A = Operand(a_name, a, flavour, inc=1, pad=c["pad"])
    else:
        ints["lda"] = d(rt.leading_dimensions(r.shape[0], max_padding=3))
        A = Operand(a_name, a, flavour, ld=ints["lda"], pad=c["pad"])
    x = Operand("x", host(d, p, (batch, m)), flavour, inc=incx, pad=c["pad"])
    ops = [x]
    if kind is None or two:
        y = Operand("y", host(d, p, (batch, n)), flavour, inc=incy, pad=c["pad"])
        ops.append(y)
        ints["incy"] = incy
        yh = y.host
    else:
        yh = x.host
    with operands(A, *ops):
        run(handle, p.letter + routine, flavour, batch, c["device"],
            {"alpha": (alpha, p.real.compute_dtype if real_alpha else p.compute_dtype)}, ints, (*ops, A))
        for op in ops:
            op.check(unchanged=True)
        if m == 0 or n == 0 or batch == 0 or alpha == 0:
            A.check(unchanged=True)
            return
        A.check()
        got = np.ascontiguousarray(A.get())
        used = r >= 0
        bits = got.view(np.uint8).reshape(*got.shape, -1)
        assert np.array_equal(bits[:, ~used], a.view(np.uint8).reshape(*a.shape, -1)[:, ~used]), \
            "the other triangle changed"
        al = complex(alpha) if p.is_complex else float(alpha)
        xw, yw = x.host.astype(wide_dtype(a)), yh.astype(wide_dtype(a))
        cy = yw.conj() if herm or conj_y else yw
        upd = al * xw[:, :, None] * cy[:, None, :]
        if two:
            upd = upd + (np.conj(al) if herm else al) * yw[:, :, None] * (xw.conj() if herm else xw)[:, None, :]
        with np.errstate(invalid="ignore"):  # the poisoned (signaling NaN) other triangle
            want = a.astype(wide_dtype(a))
        want[:, used] += upd[:, r[used], cc[used]]
        if herm:
            dg = used & (r == cc)
            want[:, dg] = want[:, dg].real
            assert np.all(got[:, dg].imag == 0), "a Hermitian update leaves a real diagonal"
        size = abs(al) * np.abs(xw)[:, :, None] * np.abs(yw)[:, None, :] * (1 + two)  # |update| bound
        bound = np.abs(want[:, used]) + size[:, r[used], cc[used]]
        rt.assert_close(got[:, used], want[:, used], p, "elementwise", n=2, scale=float(bound.max()),
                        err_msg=routine)


# --- mixed-precision gemv ------------------------------------------------------------------------


@settings(max_examples=rt.examples(12))
@given(st.data())
def test_gemv_mixed_precision(handle: Any, data: st.DataObject) -> None:
    d = data.draw
    prefix = d(st.sampled_from(["hsh", "hss", "tst", "tss"]))
    storage = BF16 if prefix[0] == "t" else H
    flavour = d(st.sampled_from(FLAVOURS[1:]))
    batch = d(st.integers(0, 3))
    trans = d(st.sampled_from("NTC"))
    m, n = d(rt.sizes(max_value=9)), d(rt.sizes(max_value=9))
    lda = d(rt.leading_dimensions(m, max_padding=2))
    incx, incy = d(rt.increments(max_abs=2)), d(rt.increments(max_abs=2))
    alpha, beta = d(rt.scalars(S, allow_nan=False)), d(rt.scalars(S, allow_nan=False))
    lenx, leny = (n, m) if trans == "N" else (m, n)
    out = storage if prefix in ("hsh", "tst") else S  # y's type

    def values(shape: tuple[int, ...], prec: Precision) -> np.ndarray:
        return d(rt.host_arrays(prec, shape, order="C"))

    A = Operand("A", values((batch, m, n), storage), flavour, ld=lda)
    x = Operand("x", values((batch, lenx), storage), flavour, inc=incx)
    y = Operand("y", values((batch, leny), out), flavour, inc=incy)
    with operands(A, x, y):
        run(handle, prefix + "gemv", flavour, batch, d(st.booleans()),
            {"alpha": (alpha, np.float32), "beta": (beta, np.float32)},
            {"trans": trans, "m": m, "n": n, "lda": lda, "incx": incx, "incy": incy}, (A, x, y))
        A.check(unchanged=True)
        y.check(unchanged=m == 0 or n == 0 or batch == 0 or (alpha == 0 and beta == 1))

        def widen(v: np.ndarray, prec: Precision) -> np.ndarray:
            return (from_bfloat16(v) if prec is BF16 else v).astype(np.float64)

        got = widen(y.get(), out)
        if m and n and batch and not (alpha == 0 and beta == 1):
            opa = opm(widen(A.host, storage), trans)
            xs = widen(x.host, storage)
            want = float(alpha) * np.einsum("bij,bj->bi", opa, xs)
            bound = abs(float(alpha)) * np.einsum("bij,bj->bi", np.abs(opa), np.abs(xs))
            if beta != 0:
                want += float(beta) * widen(y.host, out)
                bound += abs(float(beta)) * np.abs(widen(y.host, out))
            if out is S:  # float32 sums
                rt.assert_close(got, want, S, "reduction", n=max(m, n) + 2, scale=float(bound.max()), err_msg=prefix)
            else:  # float32 sums rounded once to half or bfloat16
                rt.assert_close(got, want, storage, "elementwise", scale=float(bound.max()), err_msg=prefix)


# --- the argument checks -------------------------------------------------------------------------

ENUM_DEFAULTS = {"trans": "N", "transA": "N", "uplo": "U", "diag": "N"}


def _problem(names: tuple[str, ...]) -> dict[str, Any]:
    """A small valid call (m = n = 3, k = kl = ku = 1) for a signature; arrays filled later."""
    v: dict[str, Any] = {}
    for name in names[1:]:
        if name in ENUM_DEFAULTS:
            v[name] = ENUM_DEFAULTS[name]
        elif name in ("m", "n"):
            v[name] = 3
        elif name in ("k", "kl", "ku", "incx", "incy"):
            v[name] = 1
        elif name == "batch_count":
            v[name] = 2
        elif name.startswith("stride_"):
            v[name] = 16
    if "lda" in names:
        v["lda"] = (v["kl"] + v["ku"] + 1 if "kl" in v else v["k"] + 1 if "k" in v else 3)
    return v


ARRAYS = ("A", "AP", "x", "y")


def _lda_min(v: dict[str, Any]) -> int:
    return v["kl"] + v["ku"] + 1 if "kl" in v else v["k"] + 1 if "k" in v else 3


@pytest.mark.parametrize("fname", sorted(L2.__all__))
def test_bad_arguments(handle: Any, fname: str) -> None:
    fn = getattr(L2, fname)
    names = tuple(inspect.signature(fn).parameters)
    base = _problem(names)
    batched = "batch_count" in names and not any(s.startswith("stride_") for s in names)
    arrays = [a for a in ARRAYS if a in names]
    scalars = [s for s in ("alpha", "beta") if s in names]
    bufs = {a: rm.to_device(np.arange(64, dtype=np.float64)) for a in arrays}  # never reached by a kernel
    ptr_arrays = {a: rm.to_device(np.array([bufs[a].ptr] * 2, dtype=np.uint64)) for a in arrays}

    def call(**over: Any) -> None:
        kw = dict(base)
        for a in arrays:
            kw[a] = ptr_arrays[a] if batched else bufs[a].ptr
        for s in scalars:
            kw[s] = 1.0 if s == "alpha" else 0.5
        kw.update(over)
        fn(handle, **kw)

    def expect(exc: type, arg: str, **over: Any) -> None:
        before = [rt.snapshot(b) for b in bufs.values()]
        with pytest.raises(exc) as info:
            call(**over)
        assert info.value.arg == arg, f"{fname}: {over} named {info.value.arg!r}, expected {arg!r}"
        assert info.value.index == names.index(arg) + 1
        rm.device_synchronize()
        for b in before:
            rt.assert_unchanged(b)

    for e in ("trans", "transA", "uplo", "diag"):
        if e in names:
            expect(RocblasInvalidValueError, e, **{e: 0})
            expect(RocblasInvalidValueError, e, **{e: "X"})
    if "uplo" in names:
        expect(RocblasInvalidValueError, "uplo", uplo="F")  # fill_full is no triangle
    if "diag" in names:
        expect(RocblasInvalidValueError, "diag", diag="T")
    for s in ("m", "n", "k", "kl", "ku"):
        if s in names:
            expect(RocblasInvalidSizeError, s, **{s: -1})
    if "lda" in names:
        expect(RocblasInvalidSizeError, "lda", lda=_lda_min(base) - 1)
    for s in ("incx", "incy"):
        if s in names:
            expect(RocblasInvalidSizeError, s, **{s: 0})
    if "batch_count" in names:
        expect(RocblasInvalidSizeError, "batch_count", batch_count=-1)
    for s in scalars:
        expect(RocblasInvalidPointerError, s, **{s: None})
    for a in arrays:
        expect(RocblasInvalidPointerError, a, **{a: None})
    # rocBLAS's order: enums before sizes before pointers; sizes are checked before the quick return.
    enum = next((e for e in ("uplo", "trans", "transA") if e in names), None)
    if enum:
        expect(RocblasInvalidValueError, enum, **{enum: 0, "n": -1, "incx": 0})
    expect(RocblasInvalidSizeError, "n", n=-1, **{a: None for a in arrays})
    expect(RocblasInvalidSizeError, "incx", n=0, incx=0)
    # Quick returns: a size 0 (or no batch entries) succeeds without touching anything, even null pointers.
    snaps = [rt.snapshot(b) for b in bufs.values()]
    call(n=0, **{a: None for a in arrays}, **{s: None for s in scalars})
    if "batch_count" in names:
        call(batch_count=0, **{a: None for a in arrays}, **{s: None for s in scalars})
    rm.device_synchronize()
    for snap in snaps:
        rt.assert_unchanged(snap)


@pytest.mark.parametrize("letter", ["s", "z"])
def test_gemv_scalar_rules(handle: Any, letter: str) -> None:
    p = Precision.from_letter(letter)
    y0 = np.array([[1, 2]], dtype=p.dtype)
    y = Operand("y", y0, "", inc=1)
    gemv = getattr(L2, letter + "gemv")
    with operands(y):
        base = {"trans": "N", "m": 2, "n": 2, "lda": 2, "incx": 1, "incy": 1}
        # alpha == 0 && beta == 1: quick return before any array is looked at
        gemv(handle, alpha=0, A=None, x=None, beta=1, y=None, **base)
        # alpha == 0: A and x are not read (may be null), y := beta*y
        gemv(handle, alpha=0, A=None, x=None, beta=2, y=y.parts[0].ptr, **base)
        rm.device_synchronize()
        np.testing.assert_array_equal(y.get(), 2 * y0)
        with pytest.raises(RocblasInvalidPointerError) as info:
            gemv(handle, alpha=1, A=None, x=None, beta=2, y=y.parts[0].ptr, **base)
        assert info.value.arg == "A"
        with pytest.raises(RocblasInvalidPointerError) as info:
            gemv(handle, alpha=0, A=None, x=None, beta=2, y=None, **base)
        assert info.value.arg == "y"


def test_signatures() -> None:
    assert tuple(inspect.signature(L2.dgemv_strided_batched).parameters) == (
        "handle", "trans", "m", "n", "alpha", "A", "lda", "stride_a", "x", "incx", "stride_x", "beta", "y", "incy",
        "stride_y", "batch_count")
    assert tuple(inspect.signature(L2.ctbsv_batched).parameters) == (
        "handle", "uplo", "transA", "diag", "n", "k", "A", "lda", "x", "incx", "batch_count")
    assert tuple(inspect.signature(L2.zhpr2).parameters) == ("handle", "uplo", "n", "alpha", "x", "incx", "y", "incy",
                                                             "AP")
    assert tuple(inspect.signature(L2.sgbmv).parameters) == (
        "handle", "trans", "m", "n", "kl", "ku", "alpha", "A", "lda", "x", "incx", "beta", "y", "incy")
    assert L2.hshgemv_batched.__name__ == "hshgemv_batched"
    # 25 routines x precisions x 3 flavours, and 8 mixed-precision gemv; each with its _64 twin
    assert len(L2.__all__) == 2 * 230
    assert L2.sgemv_64.__name__ == "sgemv_64"


def test_size_query(handle: Any) -> None:
    # trmv-like routines need a copy of x (n elements per entry), trsv an int per entry, as
    # rocBLAS's workspace; gemv none.
    # tbmv checks its pointers before it answers (rocblas_tbmv_imp.hpp): real arrays there.
    za, zx = rm.to_device(np.zeros(20, np.complex128)), rm.to_device(np.zeros(10, np.complex128))
    for fn, args, need in ((L2.strmv_strided_batched, ("U", "N", "N", 100, None, 100, 0, None, 1, 0, 3), 1200),
                           (L2.ztbmv, ("U", "N", "N", 10, 1, za, 2, zx, 1), 160),
                           (L2.dtrsv_batched, ("U", "N", "N", 10, None, 10, None, 1, 5), 20),
                           (L2.dgemv, ("N", 10, 10, 1, None, 10, None, 1, 0, None, 1), 0)):
        blas.start_device_memory_size_query(handle)
        try:
            fn(handle, *args)
        finally:
            got = blas.stop_device_memory_size_query(handle)
        assert got >= need if need else got == 0, (fn.__name__, got)


# --- larger problems: the blocked paths ----------------------------------------------------------


def test_gemv_blocks(handle: Any) -> None:
    # Sizes beyond one block in every direction, both operations; the result is bitwise
    # the same on a second run (fixed blocking, no order-dependent reductions).
    rng = np.random.default_rng(7)
    for trans, (m, n) in (("N", (kl2.RB_N * 2 + 3, kl2.CB_N * 2 + 5)), ("T", (kl2.RB_T + 17, 3)),
                          ("C", (70, kl2.CB_T * 3 + 1))):
        a = (rng.standard_normal((m, n)) + 1j * rng.standard_normal((m, n))).astype(np.complex64)
        lenx, leny = (n, m) if trans == "N" else (m, n)
        x = rng.standard_normal(lenx).astype(np.complex64)
        A = Operand("A", a[None], "", ld=m + 1)
        X = Operand("x", x[None], "", inc=1)
        outs = []
        with operands(A, X):
            for _ in range(2):
                Y = Operand("y", np.zeros((1, leny), np.complex64), "", inc=-1)
                with operands(Y):
                    run(handle, "cgemv", "", 1, False, {"alpha": (1, np.complex64), "beta": (0, np.complex64)},
                        {"trans": trans, "m": m, "n": n, "lda": m + 1, "incx": 1, "incy": -1}, (A, X, Y))
                    outs.append(Y.get())
        matvec_check(outs[0], np.zeros((1, leny)), opm(a[None].astype(np.complex128), trans), x[None], 1, 0, C,
                     trans)
        assert outs[0].tobytes() == outs[1].tobytes()


@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("p", [D, Z], ids=lambda p: p.letter)
@pytest.mark.parametrize(("m", "n", "batch", "lda"), [(37, 45, 5, 40), (7, 5, 3 * kl2.GEMV_CHUNKS + 11, 9)],
                         ids=["mid", "short-columns-many-chunks"])
def test_batched_gemv_of_mid_sized_entries(handle: Any, trans: str, p: Precision, m: int, n: int, batch: int,
                                           lda: int) -> None:
    # A batch goes one entry per iteration (kl2.gemv_batch) in chunks of entries: padded leading
    # dimension, strided x and y, beta != 0, and the same bits on one thread as on two; short
    # columns (dots in order) and several entries a chunk.
    incx, incy = 2, -3
    rng = np.random.default_rng(3)

    def draw(*shape: int) -> np.ndarray:
        v = rng.standard_normal(shape)
        return (v + 1j * rng.standard_normal(shape)).astype(p.dtype) if p.is_complex else v.astype(p.dtype)

    a = draw(batch, n, lda)  # column-major entries
    lenx, leny = (n, m) if trans == "N" else (m, n)
    x, y0 = draw(batch, lenx * incx), draw(batch, leny * abs(incy))
    alpha = p.dtype.type(0.5 - 0.25j if p.is_complex else 0.5)
    beta = p.dtype.type(-1.5)
    logical = a.transpose(0, 2, 1)[:, :m, :]
    op = logical if trans == "N" else logical.transpose(0, 2, 1)
    op = np.conj(op) if trans == "C" else op
    xs = x[:, ::incx]
    ys = y0[:, ::abs(incy)][:, ::-1] if incy < 0 else y0[:, ::incy]
    want = alpha * np.einsum("bij,bj->bi", op, xs) + beta * ys
    got = []
    for threads in (2, 1):
        dA, dx, dy = rm.to_device(a), rm.to_device(x), rm.to_device(y0)
        with numba_threads(threads):
            with handle.use_pointer_mode(0):
                getattr(blas, f"{p.letter}gemv_strided_batched")(handle, trans, m, n, alpha, dA, lda, lda * n, dx, incx,
                                                                 lenx * incx, beta, dy, incy, leny * abs(incy), batch)
            rm.device_synchronize()
        got.append(dy.get())
    out = got[0][:, ::abs(incy)][:, ::-1] if incy < 0 else got[0][:, ::incy]
    rt.assert_close(out, want, p, "reduction", max(m, n))
    gaps = np.ones(leny * abs(incy), bool)
    gaps[::abs(incy)] = False
    np.testing.assert_array_equal(got[0][:, gaps], y0[:, gaps])  # between y's elements: untouched
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.parametrize(("p", "trans"), [(D, "N"), (D, "T"), (Z, "N"), (Z, "C")], ids=str)
@pytest.mark.parametrize(("upper", "unit"), [(True, False), (False, False), (True, True), (False, True)])
@pytest.mark.parametrize("incx", [1, -2])
def test_trsv_of_one_large_matrix_blocked_keeps_each_bit(handle: Any, p: Precision, trans: str, upper: bool,
                                                          unit: bool, incx: int) -> None:
    # One large full triangle is solved by blocks (kl2.trsv_blocked), op N updating the rows beyond
    # each block in parallel, op T/C taking the dots of each block's columns with the rows solved
    # before in parallel: the bits must be those of the column-by-column solve a batch entry gets.
    n = 4 * kl2.TRSV_NB + 37
    rng = np.random.default_rng(21)

    def draw(*shape: int) -> np.ndarray:
        v = rng.standard_normal(shape)
        return (v + 1j * rng.standard_normal(shape)).astype(p.dtype) if p.is_complex else v.astype(p.dtype)

    a = draw(n, n) / np.sqrt(n) + 2 * np.eye(n, dtype=p.dtype)  # well conditioned
    a = np.triu(a) if upper else np.tril(a)
    a[~(np.triu(np.ones((n, n), bool)) if upper else np.tril(np.ones((n, n), bool)))] = np.nan  # never read
    col_major = np.ascontiguousarray(a.T)  # storage of the column-major matrix
    x = draw(n * abs(incx))
    uplo, diag = ("U" if upper else "L"), ("U" if unit else "N")
    dA, dx = rm.to_device(col_major), rm.to_device(x)
    with handle.use_pointer_mode(0):
        getattr(blas, f"{p.letter}trsv")(handle, uplo, trans, diag, n, dA, n, dx, incx)
        one = dx.get()
        both = rm.to_device(np.stack([col_major, col_major]))
        dxx = rm.to_device(np.stack([x, x]))
        getattr(blas, f"{p.letter}trsv_strided_batched")(handle, uplo, trans, diag, n, both, n, n * n, dxx, incx,
                                                          n * abs(incx), 2)
        batch = dxx.get()
    assert one.tobytes() == batch[0].tobytes() == batch[1].tobytes()
    logical = one[::abs(incx)][::-1] if incx < 0 else one
    rhs = x[::abs(incx)][::-1] if incx < 0 else x
    eff = np.where(np.isnan(a), 0, a)
    if unit:
        np.fill_diagonal(eff, 1)
    op = eff if trans == "N" else eff.T if trans == "T" else eff.conj().T
    rt.assert_close(op @ logical, rhs, p, "factorization", n)
    gaps = np.ones(n * abs(incx), bool)
    gaps[::abs(incx)] = False
    np.testing.assert_array_equal(one[gaps], x[gaps])


def structured_case(handle: Any, routine: str, p: Precision, n: int, upper: bool, trans: str, k: int,
                    unit: bool = False) -> np.ndarray:
    """One plain call of a symmetric/Hermitian product or a triangular product, against numpy;
    returns the result.  ``unit``: a triangular product with a unit diagonal, whose stored one is
    poisoned (never read)."""
    rng = np.random.default_rng(n)
    kind = {"sy": kl2.FULL, "he": kl2.FULL, "tr": kl2.FULL, "sb": kl2.BAND, "hb": kl2.BAND, "tb": kl2.BAND,
            "tp": kl2.PACKED, "hp": kl2.PACKED}[routine[:2]]
    r, cc = layout(kind, n, upper, k)
    a = rng.uniform(-1, 1, (1, *r.shape)) + (1j * rng.uniform(-1, 1, (1, *r.shape)) if p.is_complex else 0)
    a = poison(a.astype(p.dtype), (r < 0) | ((r == cc) & unit), p)
    tri = dense(a, r, cc, n, n)
    if unit:
        tri[:, np.arange(n), np.arange(n)] = 1
    x = rng.uniform(-1, 1, (1, n)).astype(p.dtype)
    ints: dict[str, Any] = {"uplo": "U" if upper else "L", "n": n, "incx": 1}
    if kind != kl2.PACKED:
        ints["lda"] = r.shape[0] + 1
    if kind == kl2.BAND:
        ints["k"] = k
    A = Operand("AP" if routine == "hpmv" else "A", a, "", ld=ints.get("lda"), inc=1 if kind == kl2.PACKED else None)
    X = Operand("x", x, "", inc=1)
    if routine[0] == "t":
        ints.update({"transA" if routine != "tbmv" else "trans": trans, "diag": "U" if unit else "N"})
        ops: tuple[Operand, ...] = (A, X)
        scalars = {}
        full, y0 = opm(tri, trans), X
    else:
        Y = Operand("y", np.zeros((1, n), p.dtype), "", inc=-1)
        ints["incy"] = -1
        ops = (A, X, Y)
        scalars = {"alpha": (1, p.compute_dtype), "beta": (0, p.compute_dtype)}
        full, y0 = symmetric(tri, routine[0] == "h"), Y
    with operands(*ops):
        run(handle, p.letter + routine, "", 1, False, scalars, ints, ops)
        got = y0.get()
        matvec_check(got, np.zeros((1, n)), full, x, 1, 0, p, routine)
    return got


@pytest.mark.usefixtures("blocks")
@pytest.mark.parametrize(("routine", "p", "upper", "trans", "k"), [
    ("symv", D, True, "N", 0), ("hemv", C, False, "N", 0), ("trmv", S, True, "T", 0), ("trmv", Z, False, "C", 0),
    ("tbmv", C, False, "C", 7), ("sbmv", S, True, "N", 9), ("tpmv", D, True, "N", 0), ("hpmv", Z, True, "N", 0)])
def test_structured_blocks(handle: Any, routine: str, p: Precision, upper: bool, trans: str, k: int) -> None:
    # Beyond one column block (CB_N): partial sums of the structured (per-column range) path.
    structured_case(handle, routine, p, kl2.CB_N + 45, upper, trans, k)


def test_entries_are_one_task_alone_and_in_batches_of_eight(handle: Any) -> None:
    # An entry of at most ENTRY_TASK_BYTES is one task when alone or in a batch of ENTRY_TASK_BATCH
    # or more (a fixed count: the same bits on every machine); fewer go by column blocks.
    assert kl2.task_bytes(1) == kl2.ENTRY_TASK_BYTES
    assert kl2.task_bytes(kl2.ENTRY_TASK_BATCH - 1) == 0
    assert kl2.task_bytes(kl2.ENTRY_TASK_BATCH) == kl2.ENTRY_TASK_BYTES
    # One task each: a batch's entries are the bits of the plain calls (dsbmv and dsymv of 300).
    n, k, nb = 300, 5, kl2.ENTRY_TASK_BATCH
    rng = np.random.default_rng(8)
    for name, rows, args in (("dsbmv", k + 1, (k,)), ("dsymv", n, ())):
        a, x = rng.standard_normal((nb, n, rows)), rng.standard_normal((nb, n))  # column-major entries
        da, dx, dy = rm.to_device(a), rm.to_device(x), rm.zeros((nb, n))
        with handle.use_pointer_mode(0):
            getattr(blas, f"{name}_strided_batched")(handle, "U", n, *args, 1.5, da, rows, n * rows, dx, 1, n, 0.0,
                                                     dy, 1, n, nb)
            batch = dy.get()
            for b in range(nb):
                one = rm.zeros(n)
                getattr(blas, name)(handle, "U", n, *args, 1.5, rm.to_device(a[b]), rows, rm.to_device(x[b]), 1, 0.0,
                                    one, 1)
                assert one.get().tobytes() == batch[b].tobytes()


@pytest.mark.usefixtures("blocks")
@pytest.mark.parametrize(("routine", "upper", "trans"), [("tbmv", True, "N"), ("tbmv", False, "T"),
                                                        ("sbmv", True, "N"), ("sbmv", False, "N")])
def test_a_narrow_band_past_a_row_block(handle: Any, routine: str, upper: bool, trans: str) -> None:
    # A band narrower than a row block runs as one (more would be tasks whose columns reach none of
    # their rows), and each column block keeps the partial sums of the rows it reaches only: past
    # RB_N rows, against numpy, the same bits on one thread as on two.
    got = []
    for threads in (2, 1):
        with numba_threads(threads):
            got.append(structured_case(handle, routine, D, kl2.RB_N + 300, upper, trans, 3))
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.parametrize("trans", [False, True])
def test_a_general_band_past_a_row_block_in_the_kernel_and_its_twin(trans: bool) -> None:
    # dgbmv's kernel with kl != ku past RB_N rows and several column blocks: the dense product, and
    # the serial twin's bits.
    n, kl, ku = kl2.RB_N + 300, 2, 3
    rng = np.random.default_rng(3)
    ab = np.asfortranarray(rng.standard_normal((kl + ku + 1, n)))
    x, y0 = rng.standard_normal(n), rng.standard_normal(n)
    a = np.zeros((n, n))
    for j in range(n):
        for i in range(max(0, j - ku), min(n, j + kl + 1)):
            a[i, j] = ab[ku + i - j, j]
    args = (trans, False, kl2.BAND, False, kl, ku, kl2.DIAG_STORED, np.array([1.5]), ab.reshape(1, kl + ku + 1, n),
            x.reshape(1, n))
    outs = []
    for entry in (kl2.matvec.entry_point, kl2.matvec.serial_entry_point):
        y = y0.copy().reshape(1, n)
        entry(*args, np.array([0.5]), y, 0, False)(*args, np.array([0.5]), y, 0, False)  # (0: column blocks)
        outs.append(y[0])
    assert outs[0].tobytes() == outs[1].tobytes()
    np.testing.assert_allclose(outs[0], 1.5 * (a.T if trans else a) @ x + 0.5 * y0, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("blocked", [True, False], ids=["blocks", "one-task"])
@pytest.mark.parametrize(("routine", "p", "upper", "trans", "k", "unit"), [
    ("tbmv", D, True, "N", 0, False), ("tbmv", D, False, "T", 0, False), ("tbmv", Z, True, "C", 0, False),
    ("sbmv", D, False, "N", 0, False), ("hbmv", C, True, "N", 0, False), ("tpmv", S, False, "N", 0, False),
    ("trmv", Z, True, "T", 0, False), ("trmv", D, False, "N", 9, False), ("trmv", D, True, "N", 0, True),
    ("trmv", D, False, "T", 0, True), ("tbmv", S, False, "N", 3, True), ("tpmv", C, True, "C", 0, True)])
def test_columns_eight_at_a_time(handle: Any, routine: str, p: Precision, upper: bool, trans: str, k: int,
                                 unit: bool, blocked: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Columns go eight at a time over the rows they share when those are GROUP_ROWS or more (bands
    # that wide, packed and full triangles), the rest of each column after, in pieces around the
    # shared rows and a unit diagonal (before or after them): against numpy, past several column
    # blocks, and the same bits on one thread as on two.  (k: the band's width beyond
    # GROUP_ROWS + 7, where eight columns start to share enough rows.)
    if blocked:  # (else each entry is one task: the passes over shared rows there too)
        monkeypatch.setattr(kl2, "ENTRY_TASK_BYTES", 0)
    n = kl2.CB_N + 45
    width = kl2.GROUP_ROWS + 7 + k if routine[1] == "b" else 0
    got = []
    for threads in (2, 1):
        with numba_threads(threads):
            got.append(structured_case(handle, routine, p, n, upper, trans, width, unit))
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.slow
@pytest.mark.parametrize(("routine", "p", "upper", "trans"), [("ssymv", S, True, "N"), ("chemv", C, False, "N"),
                                                               ("strmv", S, False, "T")], ids=str)
def test_structured_row_blocks(handle: Any, routine: str, p: Precision, upper: bool, trans: str) -> None:
    # Beyond one row block of the transposed pass (RB_T).
    structured_case(handle, routine[1:], p, kl2.RB_T + 100, upper, trans, 0)


@pytest.mark.slow
@pytest.mark.parametrize("p", [S, D, C, Z], ids=lambda p: p.letter)
def test_gemv_large(handle: Any, p: Precision) -> None:
    rng = np.random.default_rng(1)
    m, n = 3000, 2500
    a = rng.uniform(-1, 1, (m, n)).astype(p.dtype)
    for trans in "NT":
        lenx, leny = (n, m) if trans == "N" else (m, n)
        x = rng.uniform(-1, 1, lenx).astype(p.dtype)
        dA, dx, dy = rm.to_device(np.asfortranarray(a)), rm.to_device(x), rm.zeros(leny, p.dtype)
        getattr(L2, p.letter + "gemv")(handle, trans, m, n, 1, dA, m, dx, 1, 0, dy, 1)
        rt.assert_close(dy.get(), opm(a[None].astype(np.complex128), trans)[0] @ x, p, "reduction", n=max(m, n))
        del dA, dx, dy


@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("prefix, dtype", [("s", np.float32), ("d", np.float64), ("c", np.complex64),
                                           ("z", np.complex128)])
@pytest.mark.parametrize("beta", [0.0, 0.5])
@pytest.mark.parametrize("incx", [-2, 1])
def test_gemv_of_one_entry(prefix, dtype, trans, beta, incx):
    # A single gemv (batch count 1) has its own streaming kernel (parallel past 2 MiB: here all
    # but s): same semantics (padding, negative increment, beta == 0 not reading a NaN y); unit
    # increments hand it flat operands directly.
    import rocmath.blas.level2 as l2

    rng = np.random.default_rng(7)
    m, n, lda = 603, 481, 611  # a remainder of the 8-column steps, rows split unevenly
    a = rng.standard_normal((lda, n)) + (1j * rng.standard_normal((lda, n)) if np.dtype(dtype).kind == "c" else 0)
    a = a.astype(dtype)
    op = {"N": a[:m], "T": a[:m].T, "C": a[:m].conj().T}[trans]
    x = rng.standard_normal(abs(incx) * op.shape[1]).astype(dtype)
    h = rm.blas.create_handle()
    da, dx = rm.to_device(np.asfortranarray(a)), rm.to_device(x)
    y = np.full(op.shape[0], np.nan, dtype) if beta == 0 else rng.standard_normal(op.shape[0]).astype(dtype)
    dy = rm.to_device(y)
    getattr(l2, f"{prefix}gemv")(h, trans, m, n, 2.0, da, lda, dx, incx, beta, dy, 1)
    expect = 2.0 * op @ (x[0::2][::-1] if incx < 0 else x) + (beta * y if beta else 0)
    np.testing.assert_allclose(dy.get(), expect, rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-12,
                               atol=1e-4 * np.abs(expect).max())
    np.testing.assert_array_equal(da.get(), np.asfortranarray(a))  # padding rows untouched


@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("beta", [0.0, 2.0])
def test_one_gemv_with_a_device_alpha_of_zero_reads_neither_a_nor_x(handle: Any, trans: str, beta: float) -> None:
    # In device pointer mode alpha's value is known only when the kernel runs: 0 there scales y
    # by beta (0: zeros, even over a NaN y) and never reads A or x (NaN: they would spread).
    m, n = 37, 29
    lenx, leny = (n, m) if trans == "N" else (m, n)
    y0 = np.full(leny, np.nan) if beta == 0 else np.arange(1.0, leny + 1)
    dA, dx, dy = rm.to_device(np.full((n, m), np.nan)), rm.to_device(np.full(lenx, np.nan)), rm.to_device(y0)
    dalpha, dbeta = rm.to_device(np.zeros(1, np.complex128)), rm.to_device(np.array([beta], np.complex128))
    za = rm.to_device(np.full((n, m), np.nan + 0j))
    zx, zy = rm.to_device(np.full(lenx, np.nan + 0j)), rm.to_device(y0.astype(np.complex128))
    with handle.use_pointer_mode(1):
        blas.dgemv(handle, trans, m, n, rm.to_device(np.zeros(1)), dA, m, dx, 1, rm.to_device(np.array([beta])), dy, 1)
        blas.zgemv(handle, trans, m, n, dalpha, za, m, zx, 1, dbeta, zy, 1)
    rm.device_synchronize()
    want = np.zeros(leny) if beta == 0 else beta * y0
    np.testing.assert_array_equal(dy.get(), want)
    np.testing.assert_array_equal(zy.get(), want.astype(np.complex128))


#: Device-mode calls with alpha == 0 and null arrays rocBLAS's kernels never read (A and x; y too
#: when beta == 1): routine -> its arguments after the handle, given (alpha, beta, y) device pointers.
NULLS_UNREAD = {
    "dgemv": lambda a, b, y: ("N", 4, 3, a, None, 4, None, 1, b, y, 1),
    "dgbmv": lambda a, b, y: ("T", 3, 4, 1, 1, a, None, 3, None, 1, b, y, 1),
    "dsymv": lambda a, b, y: ("U", 4, a, None, 4, None, 1, b, y, 1),
    "zhpmv": lambda a, b, y: ("L", 4, a, None, None, 1, b, y, 1),
    "dsbmv": lambda a, b, y: ("U", 4, 1, a, None, 2, None, 1, b, y, 1),
    "dger": lambda a, b, y: (4, 4, a, None, 1, None, 1, None, 4),
    "zgerc": lambda a, b, y: (4, 4, a, None, 1, None, 1, None, 4),
    "dsyr": lambda a, b, y: ("U", 4, a, None, 1, None, 4),
    "zher": lambda a, b, y: ("U", 4, a, None, 1, None, 4),
    "dspr2": lambda a, b, y: ("L", 4, a, None, 1, None, 1, None),
}


@pytest.mark.parametrize("name", NULLS_UNREAD)
@pytest.mark.parametrize("beta", [1.0, 0.5])
def test_device_alpha_of_zero_with_null_arrays_it_never_reads_succeeds(handle: Any, name: str, beta: float) -> None:
    # rocBLAS checks no array in device mode; its kernels return before reading A and x (a rank
    # update: anything) when alpha == 0, so null arrays there are fine.  y is scaled by beta
    # (beta == 1: untouched, may be null).  A nonzero alpha needs the arrays (invalid: a fault).
    p = Z if name[0] == "z" else D
    real = np.float64 if name in ("zher",) else p.dtype
    y0 = np.arange(1.0, 5.0).astype(p.dtype)
    dy = rm.to_device(y0)
    zero, one = rm.to_device(np.zeros(1, real)), rm.to_device(np.ones(1, real))
    b = rm.to_device(np.full(1, beta, p.dtype))
    fn = getattr(blas, name)
    with handle.use_pointer_mode(1):
        fn(handle, *NULLS_UNREAD[name](zero, b, None if beta == 1 else dy))
        rm.device_synchronize()
        product = name[1:] in ("gemv", "gbmv", "symv", "hpmv", "sbmv")
        np.testing.assert_array_equal(dy.get(), beta * y0 if product else y0)
        with pytest.raises(rm.errors.HipError):  # (rocBLAS: a memory access fault)
            fn(handle, *NULLS_UNREAD[name](one, b, dy))
            rm.device_synchronize()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("n", [157, 100])  # two column panels; one (fewer than 2 * GEMV_PANEL_COLUMNS)
@pytest.mark.parametrize("trans", [0, 1])
def test_large_gemv_bits_do_not_depend_on_its_blocks(trans, n, dtype):
    # The large gemv runs one block per thread: each row's (column's) sum is the same whatever
    # the blocks, so results are the same bits on machines with other thread counts, and in the
    # serial twin small launches run.  Complex matrices go to the kernel compiled without contraction.
    from rocmath.blas import _kernels_l2 as k2

    rng = np.random.default_rng(11)
    m, lda = 203, 209
    flat = _std(rng, (n - 1) * lda + m, dtype)
    x = _std(rng, m if trans else n, dtype)
    one, zero = np.ones(1, dtype), np.zeros(1, dtype)
    kern = k2.gemv_flat_for(np.dtype(dtype))
    assert kern.dispatcher.targetoptions["fastmath"] == (False if np.dtype(dtype).kind == "c" else {"contract"})
    outs = []
    for blocks in (1, 2, 3, 7):
        for run in (kern, kern.serial_entry_point(trans, False, one, zero, flat, lda, m, n, x, x, blocks)):
            y = np.full(n if trans else m, np.nan, dtype)
            run(trans, False, one, zero, flat, lda, m, n, x, y, blocks)
            outs.append(y.tobytes())
    assert len(set(outs)) == 1
    size = np.dtype(dtype).itemsize
    a = np.lib.stride_tricks.as_strided(flat, (m, n), (size, size * lda))
    np.testing.assert_allclose(np.frombuffer(outs[0], dtype), (a.T if trans else a) @ x, rtol=1e-12, atol=1e-12)


def _std(rng, n, dtype):
    v = rng.standard_normal(n)
    return v + 1j * rng.standard_normal(n) if np.dtype(dtype).kind == "c" else v
