"""rocSOLVER's block tridiagonal LU without pivoting: geblttrf_npvt and geblttrs_npvt.

Every precision and flavour (plain, _batched, _strided_batched, _interleaved_batched).  Results are
judged on the dense matrix M the blocks describe: the factors must rebuild it (``||M - L U|| / (n ||M||
eps)`` below 30) and the solve must have a small backward error (``||M X - R|| / (n ||M|| ||X|| eps)``
below 30) and agree with numpy.linalg.solve.  Operands live in buffers whose every element outside the
logical blocks (leading-dimension padding, gaps between entries, an entry past batch_count, margins)
holds a sentinel that must survive; read-only inputs must keep their values.  info names the first zero
pivot in M's rows.  Argument checks in rocSOLVER's order, quick returns and size queries at the end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _kernels_lu as kl
from rocmath.solver import blocktri as bt

FLAVOURS = ("plain", "batched", "strided", "interleaved")
SUFFIX = {"plain": "", "batched": "_batched", "strided": "_strided_batched", "interleaved": "_interleaved_batched"}
MARGIN = 3


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str) -> Callable[..., Any]:
    return getattr(bt, f"{p.letter}{routine}{SUFFIX[flavour]}")


def sentinel(dtype: np.dtype[Any]) -> Any:
    return np.dtype(dtype).type(1234.5 + 1234.5j if np.dtype(dtype).kind == "c" else 1234.5)


class Operand:
    """A (batch, rows, cols) stack of entries (blocks side by side) in device memory laid out as the
    flavour lays it out, one more entry than the call's batch_count, every other element a sentinel.

    plain: one entry, ld = rows + 2; strided: entries ``ld * cols + 1`` apart; interleaved: inc =
    batch + 1 (the entry past batch_count interleaved with the others), stride 1, ld = inc * rows + 1;
    batched: one buffer per entry and a pointer array."""

    def __init__(self, host: np.ndarray, flavour: str):
        self.host, self.flavour = host, flavour
        batch, rows, cols = host.shape
        self.dtype = host.dtype
        self.inc, self.stride = 1, 0
        if flavour == "interleaved":
            self.inc, self.stride = batch + 1, 1
            self.ld = self.inc * rows + 1
        else:
            self.ld = rows + 2
            if flavour == "strided":
                self.stride = self.ld * cols + 1
        self.entries = 1 if flavour in ("plain", "batched") else batch + 1
        i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
        self.offsets = [MARGIN + e * self.stride + i * self.inc + j * self.ld for e in range(batch)]
        size = MARGIN + self.entries * max(self.stride, 1) + rows * self.inc + cols * self.ld + MARGIN
        parts = [host] if flavour != "batched" else [host[e:e + 1] for e in range(batch)] + [host[:0]]
        self.images, self.bufs = [], []
        for part in parts:
            image = np.full(size, sentinel(self.dtype), self.dtype)
            for e in range(part.shape[0]):
                image[self.offsets[e]] = part[e]
            self.images.append(image)
            self.bufs.append(rm.to_device(image))
        isz = self.dtype.itemsize
        if flavour == "batched":
            self.ptrs = rm.to_device(np.array([b.ptr + MARGIN * isz for b in self.bufs], np.uint64))
            self.arg: Any = self.ptrs
        else:
            self.arg = self.bufs[0].ptr + MARGIN * isz

    def _images(self) -> list[np.ndarray]:
        return [b.get() for b in self.bufs]

    def get(self) -> np.ndarray:
        images = self._images()
        if self.flavour == "batched":
            return np.stack([images[e][self.offsets[0]] for e in range(self.host.shape[0])])
        return np.stack([images[0][off] for off in self.offsets]) if self.offsets else self.host[:0].copy()

    def check(self, written: bool = True) -> None:
        """Every element outside the logical entries (and, unless ``written``, inside too) unchanged."""
        for k, (now, before) in enumerate(zip(self._images(), self.images, strict=True)):
            keep = np.ones(now.size, bool)
            if written:
                if self.flavour != "batched":
                    for off in self.offsets:
                        keep[off] = False
                elif k < self.host.shape[0]:  # the entry's own buffer (the last one is past batch_count)
                    keep[self.offsets[0]] = False
            assert now[keep].tobytes() == before[keep].tobytes(), f"{self.flavour}: elements changed outside"


def info_array(count: int) -> rm.DeviceArray:
    """batch_count + 1 int32 values, all poisoned: the last must stay so."""
    return rm.to_device(np.full(count + 1, -77, np.int32))


def call(f: Callable[..., Any], handle: Any, batch: int, **args: Any) -> Any:
    """Call ``f`` by its parameter names: an Operand gives its pointer, ld, inc and stride."""
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for name, value in args.items():
        if isinstance(value, Operand):
            low = name.lower()
            values[name], values[f"ld{low}"] = value.arg, value.ld
            values[f"inc{low}"], values[f"stride{name}"] = value.inc, value.stride
        elif isinstance(value, rm.DeviceArray):
            values[name] = value.ptr
        else:
            values[name] = value
    return f(**{n: values[n] for n in inspect.signature(f).parameters})


# --- data and the dense matrix ---------------------------------------------------------------------------


def random(p: Precision, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(-1, 1, shape)
    if p.is_complex:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(p.dtype)


def blocks(p: Precision, batch: int, nb: int, nblocks: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """A, B, C of block diagonally dominant matrices (stable without pivoting)."""
    off = nb * (nblocks - 1)
    a, c = random(p, (batch, nb, off), rng), random(p, (batch, nb, off), rng)
    b = random(p, (batch, nb, nb * nblocks), rng) + (3 * nb + 1) * np.tile(np.eye(nb, dtype=p.dtype), nblocks)
    return a, b, c


def dense(a: np.ndarray, b: np.ndarray, c: np.ndarray, nb: int) -> np.ndarray:
    """The (batch, n, n) block tridiagonal matrices: B_k on the diagonal, A_k below, C_k above."""
    batch, _, cols = b.shape
    nblocks, n = cols // nb, cols
    m = np.zeros((batch, n, n), np.result_type(b, np.float64))
    for k in range(nblocks):
        s = slice(k * nb, (k + 1) * nb)
        m[:, s, s] = b[:, :, s]
        if k < nblocks - 1:
            t = slice((k + 1) * nb, (k + 2) * nb)
            m[:, t, s] = a[:, :, s]
            m[:, s, t] = c[:, :, s]
    return m


def factors(a: np.ndarray, bf: np.ndarray, cf: np.ndarray, nb: int) -> np.ndarray:
    """L U rebuilt from geblttrf's output: L has the S_k = (unit lower)(upper) of B's packed LU on its
    diagonal and the A_k below; U the identity on its diagonal and the U_k (over C) above."""
    batch, _, n = bf.shape
    lower = np.zeros((batch, n, n), np.result_type(bf, np.float64))
    upper = np.zeros_like(lower)
    upper[:] = np.eye(n)
    for k in range(n // nb):
        s = slice(k * nb, (k + 1) * nb)
        lu = bf[:, :, s].astype(lower.dtype)
        lower[:, s, s] = (np.tril(lu, -1) + np.eye(nb)) @ np.triu(lu)
        if (k + 1) * nb < n:
            t = slice((k + 1) * nb, (k + 2) * nb)
            lower[:, t, s] = a[:, :, s]
            upper[:, s, t] = cf[:, :, s]
    return lower @ upper


def to_rows(x: np.ndarray, nrhs: int) -> np.ndarray:
    """X's blocks side by side (batch, nb, nrhs * nblocks) -> stacked (batch, n, nrhs)."""
    nblocks = x.shape[2] // nrhs if nrhs else 0
    return np.concatenate([x[:, :, k * nrhs:(k + 1) * nrhs] for k in range(nblocks)], axis=1)


def to_blocks(r: np.ndarray, nb: int) -> np.ndarray:
    nblocks = r.shape[1] // nb
    return np.concatenate([r[:, k * nb:(k + 1) * nb, :] for k in range(nblocks)], axis=2)


def eps(p: Precision) -> float:
    return float(np.finfo(p.dtype).eps)


def norm(x: np.ndarray) -> np.ndarray:
    return np.linalg.norm(x, axis=(-2, -1))


def factorize_and_solve(handle: Any, p: Precision, flavour: str, batch: int, nb: int, nblocks: int, nrhs: int,
                        rng: np.random.Generator) -> None:
    a, b, c = blocks(p, batch, nb, nblocks, rng)
    r = random(p, (batch, nb * nblocks, nrhs), rng)
    A, B, C, X = Operand(a, flavour), Operand(b, flavour), Operand(c, flavour), Operand(to_blocks(r, nb), flavour)
    info = info_array(batch)
    call(fn("geblttrf_npvt", p, flavour), handle, batch, nb=nb, nblocks=nblocks, A=A, B=B, C=C, info=info)
    A.check(written=False)
    B.check()
    C.check()
    got = info.get()
    assert got[batch] == -77 and not got[:batch].any()
    bf, cf = B.get(), C.get()
    m = dense(a, b, c, nb)
    n = nb * nblocks
    ratio = norm(m - factors(a, bf, cf, nb)) / (n * norm(m) * eps(p))
    assert (ratio < 30).all(), ratio
    call(fn("geblttrs_npvt", p, flavour), handle, batch, nb=nb, nblocks=nblocks, nrhs=nrhs, A=A, B=B, C=C, X=X)
    for op in (A, B, C):
        op.check(written=op is not A)
        assert np.array_equal(op.get(), {id(A): a, id(B): bf, id(C): cf}[id(op)])  # read only
    X.check()
    x = to_rows(X.get(), nrhs).astype(m.dtype)
    backward = norm(m @ x - r) / (n * norm(m) * norm(x) * eps(p))
    assert (backward < 30).all(), backward
    ref = np.linalg.solve(m, r.astype(m.dtype))
    assert (norm(x - ref) <= 30 * n * np.linalg.cond(m) * eps(p) * norm(ref)).all()


# --- results -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_factor_and_solve(handle: Any, p: Precision, flavour: str) -> None:
    rng = np.random.default_rng(7)
    batch = 1 if flavour == "plain" else 3
    factorize_and_solve(handle, p, flavour, batch, 3, 4, 2, rng)


@pytest.mark.parametrize(("nb", "nblocks", "nrhs"), [(1, 5, 3), (4, 1, 2), (2, 2, 1), (17, 3, 4)])
def test_shapes(handle: Any, nb: int, nblocks: int, nrhs: int) -> None:
    # one block (A and C are not read), 1 x 1 blocks, blocks past getrf's lane kernel (16)
    factorize_and_solve(handle, D, "strided", 2, nb, nblocks, nrhs, np.random.default_rng(nb))


@pytest.mark.parametrize("p", (D, Z), ids=lambda p: p.letter)
def test_large_blocks_take_the_lapack_path(handle: Any, p: Precision) -> None:
    factorize_and_solve(handle, p, "interleaved", 2, kl.SMALL + 3, 2, 3, np.random.default_rng(3))


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_info_is_the_first_zero_pivot_in_the_rows_of_the_matrix(handle: Any, p: Precision) -> None:
    nb, nblocks, batch = 3, 4, 5
    rng = np.random.default_rng(11)
    a, b, c = blocks(p, batch, nb, nblocks, rng)
    # A zero column of M (in B_k, the A_k below it and the C_{k-1} above it) leaves that column of the
    # Schur complement S_k zero: its pivot there is an exact zero.
    zero = {1: [(2, 1)], 2: [(0, 0)], 3: [(3, 2), (1, 1)], 4: [(1, 2), (1, 0)]}
    for e, cols in zero.items():
        for k, j in cols:
            b[e, :, k * nb + j] = 0
            if k < nblocks - 1:
                a[e, :, k * nb + j] = 0
            if k > 0:
                c[e, :, (k - 1) * nb + j] = 0
    expected = [0] + [min(k * nb + j + 1 for k, j in zero[e]) for e in range(1, batch)]
    assert expected == [0, 8, 1, 5, 4]
    for flavour in ("strided", "interleaved", "batched"):
        A, B, C = Operand(a, flavour), Operand(b, flavour), Operand(c, flavour)
        info = info_array(batch)
        call(fn("geblttrf_npvt", p, flavour), handle, batch, nb=nb, nblocks=nblocks, A=A, B=B, C=C, info=info)
        assert info.get().tolist() == [*expected, -77]
        for op in (A, B, C):
            op.check(written=op is not A)
        m, bf, cf = dense(a, b, c, nb), B.get(), C.get()
        ratio = norm(m[0] - factors(a[:1], bf[:1], cf[:1], nb)[0]) / (nb * nblocks * norm(m[0]) * eps(p))
        assert ratio < 30  # the regular entry is factored whatever its neighbours are
        # solving with the singular factors divides by their zero pivots (no error), the regular entry solves
        r = random(p, (batch, nb * nblocks, 1), rng)
        X = Operand(to_blocks(r, nb), flavour)
        call(fn("geblttrs_npvt", p, flavour), handle, batch, nb=nb, nblocks=nblocks, nrhs=1, A=A, B=B, C=C, X=X)
        X.check()
        x = to_rows(X.get(), 1)
        assert not np.isfinite(x[1:]).all(axis=(1, 2)).any()
        assert norm(m[0] @ x[0] - r[0]) / (nb * nblocks * norm(m[0]) * norm(x[0]) * eps(p)) < 30


def test_entries_sharing_elements_run_in_order(handle: Any) -> None:
    # strideB = strideC = 0: the second entry factors what the first left, as two plain calls do.
    nb, nblocks = 3, 3
    a, b, c = blocks(D, 1, nb, nblocks, np.random.default_rng(5))
    ops = [Operand(x, "plain") for x in (a, b, c)]
    info = info_array(1)
    for _ in range(2):
        call(fn("geblttrf_npvt", D, "plain"), handle, 1, nb=nb, nblocks=nblocks, A=ops[0], B=ops[1], C=ops[2],
             info=info)
    twice = [op.get() for op in ops[1:]]
    shared = [Operand(x, "plain") for x in (a, b, c)]
    info2 = info_array(2)
    solver_args = dict(nb=nb, nblocks=nblocks, info=info2)
    for name, op in zip("ABC", shared, strict=True):
        solver_args |= {name: op.arg, f"ld{name.lower()}": op.ld, f"stride{name}": 0}
    call(fn("geblttrf_npvt", D, "strided"), handle, 2, **solver_args)
    for got, want in zip((op.get() for op in shared[1:]), twice, strict=True):
        assert got.tobytes() == want.tobytes()
    # the solve likewise: strideX = 0 solves twice in place
    r = to_blocks(random(D, (1, nb * nblocks, 2), np.random.default_rng(6)), nb)
    once, both = Operand(r, "plain"), Operand(r, "plain")
    for _ in range(2):
        call(fn("geblttrs_npvt", D, "plain"), handle, 1, nb=nb, nblocks=nblocks, nrhs=2, A=ops[0], B=ops[1],
             C=ops[2], X=once)
    args = dict(nb=nb, nblocks=nblocks, nrhs=2, X=both.arg, ldx=both.ld, strideX=0)
    for name, op in zip("ABC", ops, strict=True):
        args |= {name: op.arg, f"ld{name.lower()}": op.ld, f"stride{name}": 0}
    call(fn("geblttrs_npvt", D, "strided"), handle, 2, **args)
    assert both.get().tobytes() == once.get().tobytes()


@pytest.mark.parametrize(("flavour", "inc", "ld", "stride", "serial"), [
    ("interleaved", 4, 12, 1, False),  # normal use: inc = batch_count, stride 1
    ("interleaved", 5, 16, 1, False),  # with gaps
    ("interleaved", 1, 3, 1, True),  # entries one element apart share elements
    ("interleaved", 4, 12, 4, True),  # entry 1 starts at entry 0's second row
    ("strided", 1, 3, 27, False),  # B: 3 x 9, 27 elements an entry
    ("strided", 1, 3, 26, True),
    ("strided", 1, 3, 0, True),
    ("batched", 1, 3, 0, False),  # pointer-array entries are gathered apart
])
def test_entries_sharing_elements_are_detected(monkeypatch: pytest.MonkeyPatch, handle: Any, flavour: str, inc: int,
                                               ld: int, stride: int, serial: bool) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(bt, "geblttrf_run", lambda *args, serial, **kw: seen.append(serial))
    nb, nblocks, batch = 3, 3, 4
    buf = rm.zeros(4096, np.float64)
    ptrs = rm.to_device(np.full(batch, buf.ptr, np.uint64))
    arg = ptrs.ptr if flavour == "batched" else buf.ptr
    args: dict[str, Any] = dict(nb=nb, nblocks=nblocks, info=rm.zeros(batch, np.int32))
    for name in "ABC":
        args |= {name: arg, f"inc{name.lower()}": inc, f"ld{name.lower()}": ld, f"stride{name}": stride}
    call(fn("geblttrf_npvt", D, flavour), handle, batch, **args)
    rm.device_synchronize()
    assert seen == [serial]


def test_interleaved_normal_use_matches_strided(handle: Any) -> None:
    # inc = batch_count, stride 1 (no gaps at all): the same bits as the strided flavour.
    nb, nblocks, batch, nrhs = 4, 3, 5, 2
    rng = np.random.default_rng(9)
    a, b, c = blocks(D, batch, nb, nblocks, rng)
    r = to_blocks(random(D, (batch, nb * nblocks, nrhs), rng), nb)
    results = []
    for flavour in ("strided", "interleaved"):
        ops = {"A": a, "B": b, "C": c, "X": r}
        devs, args = {}, {}
        for name, host in ops.items():
            if flavour == "strided":
                flat = np.ascontiguousarray(host.transpose(0, 2, 1)).reshape(-1)  # ld = nb, stride nb * cols
                ld, inc, stride = nb, 1, nb * host.shape[2]
            else:
                flat = np.ascontiguousarray(host.transpose(2, 1, 0)).reshape(-1)  # (j, i, entry)
                ld, inc, stride = nb * batch, batch, 1
            devs[name] = rm.to_device(flat)
            args |= {name: devs[name].ptr, f"ld{name.lower()}": ld, f"inc{name.lower()}": inc, f"stride{name}": stride}
        info = rm.to_device(np.full(batch, -1, np.int32))
        call(fn("geblttrf_npvt", D, flavour), handle, batch, nb=nb, nblocks=nblocks, info=info.ptr,
             **{k: v for k, v in args.items() if not k.endswith(("X", "x"))})
        call(fn("geblttrs_npvt", D, flavour), handle, batch, nb=nb, nblocks=nblocks, nrhs=nrhs, **args)
        assert not info.get().any()
        host = devs["X"].get()
        x = (host.reshape(batch, -1, nb).transpose(0, 2, 1) if flavour == "strided"
             else host.reshape(-1, nb, batch).transpose(2, 1, 0))
        results.append(x)
    assert results[0].tobytes() == results[1].tobytes()


# --- quick returns, size queries ---------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", ("strided", "interleaved"))
def test_quick_returns_touch_nothing_not_even_info(handle: Any, flavour: str) -> None:
    # rocSOLVER returns before its first getrf for nb, nblocks or batch_count 0: info is not written.
    nb, nblocks, batch = 2, 3, 2
    a, b, c = blocks(D, batch, nb, nblocks, np.random.default_rng(1))
    A, B, C = Operand(a, flavour), Operand(b, flavour), Operand(c, flavour)
    X = Operand(to_blocks(random(D, (batch, nb * nblocks, 1), np.random.default_rng(2)), nb), flavour)
    info = info_array(batch)
    trf, trs = fn("geblttrf_npvt", D, flavour), fn("geblttrs_npvt", D, flavour)
    for sizes in (dict(nb=0), dict(nblocks=0), dict(batch=0)):
        count = sizes.pop("batch", batch)
        base = dict(nb=nb, nblocks=nblocks) | sizes
        call(trf, handle, count, **base, A=A, B=B, C=C, info=info)
        call(trs, handle, count, **base, nrhs=1, A=A, B=B, C=C, X=X)
    call(trs, handle, batch, nb=nb, nblocks=nblocks, nrhs=0, A=A, B=B, C=C, X=X)
    for op in (A, B, C, X):
        op.check(written=False)
    assert (info.get() == -77).all()
    # null arrays are fine where the sizes do not need them
    args: dict[str, Any] = dict(A=None, inca=1, lda=1, strideA=0, B=None, incb=1, ldb=1, strideB=0, C=None, incc=1,
                                ldc=1, strideC=0, X=None, incx=1, ldx=1, strideX=0)
    call(trf, handle, 0, nb=0, nblocks=0, info=None, **{k: v for k, v in args.items() if not k.endswith(("X", "x"))})
    call(trs, handle, 3, nb=0, nblocks=2, nrhs=1, **args)


def test_one_block_needs_neither_a_nor_c(handle: Any) -> None:
    b = blocks(D, 1, 3, 1, np.random.default_rng(4))[1]
    B, info = Operand(b, "plain"), info_array(1)
    solver_trf = fn("geblttrf_npvt", D, "plain")
    solver_trf(handle, 3, 1, None, 3, B.arg, B.ld, None, 3, info.ptr)
    assert info.get()[0] == 0
    lu = B.get()[0]
    assert np.allclose((np.tril(lu, -1) + np.eye(3)) @ np.triu(lu), b[0])


def test_size_query(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert bt.dgeblttrf_npvt_strided_batched(handle, 8, 10, None, 8, 640, None, 8, 640, None, 8, 640, None,
                                                 100) is RocblasStatus.size_increased
        assert bt.zgeblttrs_npvt_interleaved_batched(handle, 8, 10, 1, None, 1, 8, 1, None, 1, 8, 1, None, 1, 8, 1,
                                                     None, 1, 8, 1, 1) is RocblasStatus.size_unchanged
        assert bt.dgeblttrf_npvt(handle, 0, 10, None, 1, None, 1, None, 1, None) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):  # sizes are checked before the query is answered
            bt.dgeblttrf_npvt(handle, 4, 2, None, 3, None, 4, None, 4, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    expected = max(bt.geblttrf_workspace(8, 10, 100, 8), bt.geblttrs_workspace(8, 10, 1, 1, 16))
    assert size == -(-expected // 64) * 64 and expected > 0
    assert bt.geblttrf_workspace(0, 3, 4, 8) == bt.geblttrs_workspace(2, 3, 0, 4, 8) == 0


def test_a_too_small_user_workspace_is_a_memory_error(handle: Any) -> None:
    nb, nblocks = 3, 2
    a, b, c = blocks(D, 1, nb, nblocks, np.random.default_rng(8))
    A, B, C, info = Operand(a, "plain"), Operand(b, "plain"), Operand(c, "plain"), info_array(1)
    need = bt.geblttrf_workspace(nb, nblocks, 1, 8)
    small_ws = rm.malloc(need)
    h = blas.create_handle()
    try:
        blas.set_workspace(h, small_ws, need - 8)
        with pytest.raises(RocblasMemoryError):
            call(fn("geblttrf_npvt", D, "plain"), h, 1, nb=nb, nblocks=nblocks, A=A, B=B, C=C, info=info)
        for op in (A, B, C):
            op.check(written=False)
        blas.set_workspace(h, small_ws, need)
        call(fn("geblttrf_npvt", D, "plain"), h, 1, nb=nb, nblocks=nblocks, A=A, B=B, C=C, info=info)
        assert info.get()[0] == 0
    finally:
        blas.destroy_handle(h)
        rm.free(small_ws)


# --- argument checking -------------------------------------------------------------------------------------


SIZE, POINTER = RocblasInvalidSizeError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid arguments (nb 2, 3 blocks, 2 entries) but the given changes;
    expect the exception, the argument it names and its position; nothing may change."""
    rng = np.random.default_rng(0)
    a, b, c = blocks(D, 2, 2, 3, rng)
    x = random(D, (2, 2, 6), rng)
    ops = {name: Operand(h, "strided") for name, h in zip("ABCX", (a, b, c, x), strict=True)}
    info = info_array(2)

    def check(routine: str, flavour: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(nb=2, nblocks=3, nrhs=2, batch_count=2, info=info.ptr)
        for name, op in ops.items():
            low = name.lower()
            base |= {name: op.arg, f"ld{low}": op.ld, f"inc{low}": 1, f"stride{name}": op.stride}
        f = fn(routine, D, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{name: changes.get(name, base[name]) for name in params})
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2  # its position in the C prototype (handle is #1)
        for op in ops.values():
            op.check(written=False)
        assert (info.get() == -77).all()

    yield check


TRF = "geblttrf_npvt"
TRS = "geblttrs_npvt"
BAD_ARGUMENTS = [
    # geblttrf: sizes (nb, nblocks, batch_count), then each matrix's ld (inc first, interleaved), then pointers
    (TRF, "plain", SIZE, "nb", dict(nb=-1)),
    (TRF, "plain", SIZE, "nblocks", dict(nblocks=-1)),
    (TRF, "plain", SIZE, "lda", dict(lda=1)),
    (TRF, "plain", SIZE, "ldb", dict(ldb=1)),
    (TRF, "plain", SIZE, "ldc", dict(ldc=1)),
    (TRF, "plain", SIZE, "lda", dict(nblocks=1, lda=1, A=None)),  # checked even where A is not used
    (TRF, "plain", POINTER, "A", dict(A=None)),
    (TRF, "plain", POINTER, "B", dict(B=None)),
    (TRF, "plain", POINTER, "C", dict(C=None)),
    (TRF, "plain", POINTER, "info", dict(info=None)),
    (TRF, "plain", POINTER, "info", dict(nb=0, A=None, B=None, C=None, info=None)),
    (TRF, "plain", POINTER, "B", dict(nblocks=1, A=None, B=None, C=None)),
    (TRF, "strided", SIZE, "batch_count", dict(batch_count=-1, lda=1)),  # sizes before leading dimensions
    (TRF, "batched", SIZE, "batch_count", dict(batch_count=-1, A=None)),
    (TRF, "batched", POINTER, "C", dict(C=None, batch_count=0)),  # the blocks are needed whatever the count
    (TRF, "interleaved", SIZE, "inca", dict(inca=0)),
    (TRF, "interleaved", SIZE, "lda", dict(inca=2, lda=3)),  # lda >= inca * nb
    (TRF, "interleaved", SIZE, "incb", dict(incb=-1)),
    (TRF, "interleaved", SIZE, "ldb", dict(incb=3, ldb=5)),
    (TRF, "interleaved", SIZE, "incc", dict(incc=0)),
    (TRF, "interleaved", SIZE, "ldb", dict(incc=0, ldb=1)),  # B's ld comes before C's inc
    (TRF, "interleaved", SIZE, "ldc", dict(incc=2, ldc=3)),
    (TRF, "interleaved", SIZE, "nblocks", dict(nblocks=-2, inca=0)),
    (TRF, "interleaved", POINTER, "A", dict(A=None, info=None)),
    (TRF, "interleaved", POINTER, "info", dict(info=None)),
    # geblttrs: nb, nblocks, nrhs, batch_count; lda, ldb, ldc, ldx; A, B, C, X
    (TRS, "plain", SIZE, "nb", dict(nb=-1, nrhs=-1)),
    (TRS, "plain", SIZE, "nrhs", dict(nrhs=-1, lda=0)),
    (TRS, "plain", SIZE, "ldx", dict(ldx=1)),
    (TRS, "plain", SIZE, "ldc", dict(ldc=1, ldx=1)),
    (TRS, "plain", POINTER, "A", dict(A=None, X=None)),
    (TRS, "plain", POINTER, "B", dict(B=None)),
    (TRS, "plain", POINTER, "C", dict(C=None)),
    (TRS, "plain", POINTER, "X", dict(X=None)),
    (TRS, "strided", SIZE, "batch_count", dict(batch_count=-1)),
    (TRS, "batched", POINTER, "X", dict(X=None, batch_count=0)),
    (TRS, "interleaved", SIZE, "incx", dict(incx=0)),
    (TRS, "interleaved", SIZE, "ldx", dict(incx=2, ldx=3)),
    (TRS, "interleaved", SIZE, "inca", dict(inca=0, incx=0)),
    (TRS, "interleaved", POINTER, "X", dict(X=None)),
]


@pytest.mark.parametrize(("routine", "flavour", "error", "arg", "changes"), BAD_ARGUMENTS,
                         ids=[f"{r}{SUFFIX[f]}-{a}-{i}" for i, (r, f, _, a, _) in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], routine: str, flavour: str, error: type[Exception], arg: str,
                      changes: dict[str, Any]) -> None:
    bad(routine, flavour, error, arg, **changes)


def test_invalid_handle() -> None:
    with pytest.raises(RocblasInvalidHandleError):
        bt.dgeblttrf_npvt(None, -1, 1, None, 1, None, 1, None, 1, None)  # the handle before anything else
    with pytest.raises(RocblasInvalidHandleError):
        bt.sgeblttrs_npvt_interleaved_batched(object(), 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1)


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(bt.dgeblttrf_npvt) == ["handle", "nb", "nblocks", "A", "lda", "B", "ldb", "C", "ldc", "info"]
    assert names(bt.sgeblttrf_npvt_batched) == ["handle", "nb", "nblocks", "A", "lda", "B", "ldb", "C", "ldc",
                                                "info", "batch_count"]
    assert names(bt.cgeblttrf_npvt_strided_batched) == [
        "handle", "nb", "nblocks", "A", "lda", "strideA", "B", "ldb", "strideB", "C", "ldc", "strideC", "info",
        "batch_count"]
    assert names(bt.zgeblttrf_npvt_interleaved_batched) == [
        "handle", "nb", "nblocks", "A", "inca", "lda", "strideA", "B", "incb", "ldb", "strideB", "C", "incc", "ldc",
        "strideC", "info", "batch_count"]
    assert names(bt.dgeblttrs_npvt) == ["handle", "nb", "nblocks", "nrhs", "A", "lda", "B", "ldb", "C", "ldc", "X",
                                        "ldx"]
    assert names(bt.sgeblttrs_npvt_batched) == ["handle", "nb", "nblocks", "nrhs", "A", "lda", "B", "ldb", "C",
                                                "ldc", "X", "ldx", "batch_count"]
    assert names(bt.cgeblttrs_npvt_strided_batched) == [
        "handle", "nb", "nblocks", "nrhs", "A", "lda", "strideA", "B", "ldb", "strideB", "C", "ldc", "strideC", "X",
        "ldx", "strideX", "batch_count"]
    assert names(bt.zgeblttrs_npvt_interleaved_batched) == [
        "handle", "nb", "nblocks", "nrhs", "A", "inca", "lda", "strideA", "B", "incb", "ldb", "strideB", "C", "incc",
        "ldc", "strideC", "X", "incx", "ldx", "strideX", "batch_count"]
    expected = {f"{p}{r}{f}" for p in "sdcz" for r in (TRF, TRS) for f in SUFFIX.values()}
    assert set(bt.__all__) == expected and len(expected) == 32
    for name in expected:
        f = getattr(bt, name)
        assert f.__name__ == name and f.__module__ == "rocmath.solver"
        assert f.__doc__.startswith(f"rocsolver_{name}(handle, ")
    assert "device arrays of device pointers" not in bt.dgeblttrs_npvt_interleaved_batched.__doc__
    assert "inca = batch_count" in bt.dgeblttrf_npvt_interleaved_batched.__doc__


def test_bench_log_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, handle: Any) -> None:
    from rocmath.log import close_logs

    bench = tmp_path / "bench.log"
    monkeypatch.setenv("ROCSOLVER_LAYER", "2")
    monkeypatch.setenv("ROCSOLVER_LOG_BENCH_PATH", str(bench))
    bt.dgeblttrf_npvt_interleaved_batched(handle, 0, 2, None, 3, 6, 1, None, 3, 6, 1, None, 3, 6, 1, None, 0)
    bt.sgeblttrs_npvt(handle, 2, 0, 1, None, 2, None, 2, None, 2, None, 2)
    close_logs()
    assert bench.read_text().splitlines() == [
        "rocmath-bench solver -f geblttrf_npvt_interleaved_batched -r d --nb 0 --nblocks 2 --inca 3 --lda 6 "
        "--strideA 1 --incb 3 --ldb 6 --strideB 1 --incc 3 --ldc 6 --strideC 1 --batch_count 0",
        "rocmath-bench solver -f geblttrs_npvt -r s --nb 2 --nblocks 0 --nrhs 1 --lda 2 --ldb 2 --ldc 2 --ldx 2"]
