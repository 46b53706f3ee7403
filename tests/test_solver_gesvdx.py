"""rocSOLVER's partial SVD by range, gesvdx (plain, batched, strided batched; s, d, c, z), and its internal
variant gesvdx_notransv_strided_batched (V not transposed) that hipSOLVER's gesvdaStridedBatched calls.

Singular values are compared with SciPy's (the selected subset, within ``30 max(m, n) eps ||A||``), vectors by
the scale-free ratios ``||A V - U S||_1 / (||A||_1 max(m, n) eps)`` and ``||I - Q^H Q||_1 / (k eps)`` below 30,
``nsv`` exactly.  Every output lives in a poisoned buffer with one more entry than ``batch_count``: padding, the
gaps between entries, the entry past the batch, S and ifail past nsv must keep their bits.  Argument checks
follow rocSOLVER's order (library/src/lapack/roclapack_gesvdx.hpp), one case per check.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import _manifest
from rocmath.solver import gesvdx as gx

THRESHOLD = rt.RESIDUAL_THRESHOLD
SUFFIX = {"plain": "", "batched": "_batched", "strided": "_strided_batched"}
SINGULAR, NONE = 192, 194
ALL, VALUE, INDEX = 261, 262, 263
FILL = {"S": -1.0, "U": 99.0, "V": 77.0, "ifail": -7, "nsv": -7, "info": -7}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


class Stack:
    """``batch + 1`` column-major ``rows x cols`` entries (leading dimension ``ld``) in poisoned memory: one
    allocation, entries ``ld * cols + gap`` apart, or (``pointers``) one allocation each behind a device array of
    their addresses.  The last entry lies past ``batch_count``."""

    def __init__(self, host: np.ndarray, ld: int, gap: int = 0, pointers: bool = False):
        self.host, self.ld = host, ld
        cols = max(1, host.shape[2])
        if pointers:
            self.mats = [rt.poisoned_device_matrix(h, ld) for h in host]
            self.arg: Any = rm.to_device(np.array([m.ptr for m in self.mats], np.uint64))
            self.stride = 0
        else:
            self.mats = [rt.poisoned_device_matrix(host, ld, stride=ld * cols + gap)]
            self.arg, self.stride = self.mats[0].ptr, ld * cols + gap

    def get(self) -> np.ndarray:
        return np.stack([m.get() for m in self.mats]) if len(self.mats) > 1 else self.mats[0].get()

    def close(self) -> None:
        for m in self.mats:
            m.check_untouched()  # padding, gaps, margins
            m.close()


def run(handle: Any, p: Precision, flavour: str, a: np.ndarray, left: int, right: int, srange: int,
        vl: float = 0.0, vu: float = 0.0, il: int = 1, iu: int = 0, gap: int = 1, transv: bool = True,
        **override: Any) -> dict[str, np.ndarray]:
    """gesvdx (``transv=False``: gesvdx_notransv_strided_batched) on ``a`` (batch + 1 entries; the last one is past
    batch_count); returns every output, all batch + 1 entries."""
    total, m, n = a.shape
    batch = total - 1
    k = min(m, n)
    nmax = iu - il + 1 if srange == INDEX else k
    real = p.real.dtype
    vrows, vcols = (nmax, n) if transv else (n, nmax)
    ldu, ldv = m + 1, vrows + 1
    ops = {
        "A": Stack(a, m + 1, gap, pointers=flavour == "batched"),
        "S": Stack(np.full((total, max(k, 1), 1), FILL["S"], real), max(k, 1), gap),
        "U": Stack(np.full((total, m, nmax), FILL["U"], p.dtype), ldu, gap),
        "V": Stack(np.full((total, vrows, vcols), FILL["V"], p.dtype), ldv, gap),
        "ifail": Stack(np.full((total, max(k, 1), 1), FILL["ifail"], np.int32), max(k, 1), gap),
        "nsv": Stack(np.full((total, 1, 1), FILL["nsv"], np.int32), 1),
        "info": Stack(np.full((total, 1, 1), FILL["info"], np.int32), 1),
    }
    values: dict[str, Any] = dict(
        handle=handle, left_svect=left, right_svect=right, srange=srange, m=m, n=n, lda=m + 1, vl=vl, vu=vu, il=il,
        iu=iu, ldu=ldu, ldv=ldv, batch_count=batch, strideA=ops["A"].stride, strideS=ops["S"].stride,
        strideU=ops["U"].stride, strideV=ops["V"].stride, strideF=ops["ifail"].stride,
        **{name: op.arg for name, op in ops.items()})
    values.update(override)
    f = getattr(gx, f"{p.letter}gesvdx{SUFFIX[flavour]}" if transv else f"{p.letter}gesvdx_notransv_strided_batched")
    try:
        f(**{name: values[name] for name in inspect.signature(f).parameters})
        return {name: op.get() for name, op in ops.items()}
    finally:
        for op in ops.values():
            op.close()


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def random(p: Precision, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape)
    if p.is_complex:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(p.dtype)


def bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.uint8)


def check_entry(p: Precision, a: np.ndarray, out: dict[str, np.ndarray], e: int, first: int, count: int,
                left: bool, right: bool, transv: bool = True) -> None:
    """Entry e: nsv, the values (SciPy's first..first+count), S and ifail past nsv untouched, the vectors."""
    m, n = a.shape
    k = min(m, n)
    eps = p.real.eps
    s_ref = np.linalg.svd(wide(a), compute_uv=False)
    norm2 = s_ref[0] if k else 0.0
    assert out["nsv"][e, 0, 0] == count and out["info"][e, 0, 0] == 0
    s = out["S"][e, :, 0]
    assert np.all(np.abs(s[:count] - s_ref[first:first + count]) <= THRESHOLD * max(m, n) * eps * norm2)
    assert np.array_equal(bits(s[count:]), bits(np.full(len(s) - count, FILL["S"], s.dtype)))
    ifail = out["ifail"][e, :, 0]
    want = [0] * count + [FILL["ifail"]] * (len(ifail) - count) if left or right else [FILL["ifail"]] * len(ifail)
    assert ifail.tolist() == want
    u = out["U"][e][:, :count]
    vh = (out["V"][e][:count] if transv else out["V"][e][:, :count].conj().T)
    if left:
        assert not out["U"][e][:, count:].any()  # the rest of the m x nsv_max block: zero
        assert rt.orthogonality_ratio(u, precision=p) < THRESHOLD
    else:
        assert np.array_equal(bits(out["U"][e]), bits(np.full_like(out["U"][e], FILL["U"])))
    if right:
        assert not (out["V"][e][count:].any() if transv else out["V"][e][:, count:].any())
        assert rt.orthogonality_ratio(vh, precision=p) < THRESHOLD
    else:
        assert np.array_equal(bits(out["V"][e]), bits(np.full_like(out["V"][e], FILL["V"])))
    if left and right and count:
        resid = np.abs(wide(a) @ wide(vh).conj().T - wide(u) * s[:count]).sum(axis=0).max()
        assert resid / (max(np.abs(wide(a)).sum(axis=0).max(), 1e-300) * max(m, n) * eps) < THRESHOLD


def untouched_past_batch(out: dict[str, np.ndarray], batch: int) -> None:
    """The entry past batch_count keeps its fill."""
    for name, x in out.items():
        if name != "A":
            assert np.array_equal(bits(x[batch]), bits(np.full_like(x[batch], FILL[name]))), name


# --- results -------------------------------------------------------------------------------------------


#: (m, n, srange, left, right): every range, each side on and off, tall and wide.
CASES = [(7, 5, ALL, True, True), (5, 8, VALUE, True, False), (6, 6, INDEX, False, True), (4, 7, INDEX, True, True),
         (8, 3, VALUE, False, False)]


@pytest.mark.parametrize("flavour", ("plain", "batched", "strided"))
@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_gesvdx(handle: Any, p: Precision, flavour: str) -> None:
    batch = 1 if flavour == "plain" else 3
    for case, (m, n, srange, left, right) in enumerate(CASES):
        a = random(p, (batch + 1, m, n), seed=100 * case + ord(p.letter))
        k = min(m, n)
        refs = [np.linalg.svd(wide(x), compute_uv=False) for x in a[:batch]]
        vl = vu = 0.0
        il, iu = 2, k - 1
        if srange == VALUE:  # [vl, vu) between the 2nd/3rd and the 4th/5th values of entry 0 (well apart)
            s0 = refs[0]
            vl, vu = (s0[min(3, k - 1)] + s0[min(4, k - 1)]) / 2 if k > 4 else 0.0, (s0[1] + s0[2]) / 2
        out = run(handle, p, flavour, a, SINGULAR if left else NONE, SINGULAR if right else NONE, srange, vl, vu, il,
                  iu)
        for e in range(batch):
            s = refs[e]
            if srange == ALL:
                first, count = 0, k
            elif srange == INDEX:
                first, count = il - 1, iu - il + 1
            else:
                first, count = int((s >= vu).sum()), int(((s >= vl) & (s < vu)).sum())
            check_entry(p, a[e], out, e, first, count, left, right)
        untouched_past_batch(out, batch)


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
def test_notransv_is_gesvdx_with_v_not_transposed(handle: Any, p: Precision) -> None:
    """The same values, U and V^H (bitwise: the same computation), V as n x nsv columns (ldv >= n)."""
    m, n, batch = 6, 5, 2
    a = random(p, (batch + 1, m, n), seed=7)
    for srange, il, iu in ((INDEX, 1, 3), (ALL, 1, 0)):
        plain = run(handle, p, "strided", a, SINGULAR, SINGULAR, srange, il=il, iu=iu)
        nt = run(handle, p, "strided", a, SINGULAR, SINGULAR, srange, il=il, iu=iu, transv=False)
        for name in ("S", "U", "nsv", "ifail", "info"):
            assert np.array_equal(bits(plain[name]), bits(nt[name])), name
        assert np.array_equal(bits(plain["V"][:batch]), bits(np.ascontiguousarray(
            nt["V"][:batch].conj().transpose(0, 2, 1))))
        for e in range(batch):
            count = iu - il + 1 if srange == INDEX else min(m, n)
            check_entry(p, a[e], nt, e, il - 1 if srange == INDEX else 0, count, True, True, transv=False)
        untouched_past_batch(nt, batch)


def test_overlapping_outputs_keep_the_last_entry(handle: Any) -> None:
    """Strides 0 for S, U, V, ifail: entries run in order, so the last one's results remain."""
    a = random(Z, (3, 5, 4), seed=3)
    out = run(handle, Z, "strided", a, SINGULAR, SINGULAR, INDEX, il=1, iu=2, strideS=0, strideU=0, strideV=0,
              strideF=0)
    alone = run(handle, Z, "plain", a[1:], SINGULAR, SINGULAR, INDEX, il=1, iu=2)
    for name in ("S", "U", "V", "ifail"):
        assert np.array_equal(bits(out[name][0]), bits(alone[name][0])), name
    assert out["nsv"][:2, 0, 0].tolist() == [2, 2] and out["info"][:2, 0, 0].tolist() == [0, 0]


def test_not_finite_input_reports_every_selected_vector(handle: Any) -> None:
    a = random(D, (3, 5, 4), seed=4)
    a[1, 2, 1] = np.nan
    out = run(handle, D, "strided", a, SINGULAR, NONE, INDEX, il=2, iu=3)
    assert out["info"][:2, 0, 0].tolist() == [0, 2] and out["nsv"][:2, 0, 0].tolist() == [2, 2]
    assert out["ifail"][1, :, 0].tolist() == [1, 2, -7, -7]
    check_entry(D, a[0], out, 0, 1, 2, True, False)
    values = run(handle, D, "strided", a, NONE, NONE, VALUE, vl=0.0, vu=10.0)
    assert values["info"][:2, 0, 0].tolist() == [0, 1] and values["nsv"][:2, 0, 0].tolist() == [4, 0]
    assert (values["ifail"] == -7).all()


def test_rank_deficient_value_range(handle: Any) -> None:
    """A rank-2 matrix: [vl, vu) with vl above rounding level finds exactly the two nonzero values."""
    rng = np.random.default_rng(5)
    a = np.stack([rng.standard_normal((6, 2)) @ rng.standard_normal((2, 5)) for _ in range(2)])
    out = run(handle, D, "batched", a, SINGULAR, SINGULAR, VALUE, vl=1e-8, vu=1e8)
    check_entry(D, a[0], out, 0, 0, 2, True, True)


# --- quick returns and the workspace ------------------------------------------------------------------------


def test_quick_returns(handle: Any) -> None:
    # batch_count = 0: nothing is touched; info and nsv may be null (A, S, U, V, ifail may not: their checks
    # depend on the sizes alone)
    for flavour in ("batched", "strided"):
        out = run(handle, D, flavour, random(D, (1, 5, 4), seed=1), SINGULAR, SINGULAR, ALL, info=None, nsv=None)
        untouched_past_batch(out, 0)
    # m = 0: info and nsv := 0, nothing else (S, U, V, ifail not needed: nsv_max = 0)
    out = run(handle, Z, "strided", np.zeros((3, 0, 4), np.complex128), SINGULAR, SINGULAR, ALL)
    assert out["info"][:, 0, 0].tolist() == [0, 0, -7] and out["nsv"][:, 0, 0].tolist() == [0, 0, -7]
    for e in range(3):
        untouched_past_batch({k: v for k, v in out.items() if k not in ("info", "nsv")}, e)
    with rt.poisoned_device_vector(np.full(2, -7, np.int32)) as info, \
            rt.poisoned_device_vector(np.full(2, -7, np.int32)) as nsv:
        gx.sgesvdx_batched(handle, NONE, NONE, INDEX, 3, 0, None, 3, 0.0, 0.0, 1, 0, nsv.ptr, None, 1, None, 1, 1,
                           None, 1, 1, None, 1, info.ptr, 2)
        assert not info.get().any() and not nsv.get().any()


def test_size_query_and_user_workspace(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert gx.zgesvdx_batched(handle, SINGULAR, NONE, VALUE, 30, 20, None, 30, 0.5, 2.0, 0, 0, None, None, 20,
                                  None, 30, 600, None, 1, 1, None, 20, None, 3) is RocblasStatus.size_increased
        assert gx.dgesvdx(handle, NONE, NONE, ALL, 0, 5, None, 1, 0.0, 0.0, 1, 0, None, None, None, 1, None, 1, None,
                          None) is RocblasStatus.size_unchanged  # an empty problem: no workspace
        with pytest.raises(RocblasInvalidSizeError):  # sizes are still checked
            gx.dgesvdx(handle, NONE, NONE, ALL, 4, 4, None, 3, 0.0, 0.0, 1, 0, None, None, None, 1, None, 1, None,
                       None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == gx.workspace_bytes(30, 20, 3, True, False, 16, 8) > 0
    # a user workspace that is too small: memory_error before anything is written
    work = rm.malloc(64)
    blas.set_workspace(handle, work, 64)
    try:
        a = random(D, (2, 4, 3), seed=6)
        with pytest.raises(RocblasMemoryError):
            run(handle, D, "plain", a, SINGULAR, SINGULAR, ALL)
    finally:
        blas.set_workspace(handle, 0, 0)
        rm.free(work)


# --- names and argument checks -------------------------------------------------------------------------------


def test_names_and_signatures() -> None:
    names = {f"{p}gesvdx{f}" for p in "sdcz" for f in SUFFIX.values()}
    names |= {f"{p}gesvdx_notransv_strided_batched" for p in "sdcz"}
    assert set(gx.__all__) == names and len(names) == 16
    assert all(getattr(gx, n).__name__ == n and getattr(gx, n).__module__ == "rocmath.solver" for n in names)
    assert {n for n in names if "notransv" in n} == set(_manifest.UNDECLARED)

    def params(f: Callable[..., Any]) -> str:
        return " ".join(inspect.signature(f).parameters)

    assert params(gx.sgesvdx) == ("handle left_svect right_svect srange m n A lda vl vu il iu nsv S U ldu V ldv ifail "
                                  "info")
    assert params(gx.dgesvdx_batched) == ("handle left_svect right_svect srange m n A lda vl vu il iu nsv S strideS U "
                                          "ldu strideU V ldv strideV ifail strideF info batch_count")
    strided = ("handle left_svect right_svect srange m n A lda strideA vl vu il iu nsv S strideS U ldu strideU V ldv "
               "strideV ifail strideF info batch_count")
    assert params(gx.cgesvdx_strided_batched) == params(gx.zgesvdx_notransv_strided_batched) == strided


VAL, SIZE, PTR = RocblasInvalidValueError, RocblasInvalidSizeError, RocblasInvalidPointerError

#: One case per check of rocSOLVER's gesvdx_argCheck, in its order (changes to a valid 4x4 double call, srange all).
BAD = [
    (VAL, "left_svect", dict(left_svect=191, srange=260)),  # only singular or none; sides before the range
    (VAL, "right_svect", dict(right_svect=193, srange=260)),
    (VAL, "srange", dict(srange=260, n=-1)),  # values before sizes
    (SIZE, "n", dict(n=-1, m=-1)),
    (SIZE, "m", dict(m=-1, lda=-1)),
    (SIZE, "lda", dict(lda=3, ldu=0)),
    (SIZE, "ldu", dict(ldu=0, left_svect=NONE, ldv=0)),
    (SIZE, "ldv", dict(ldv=0, right_svect=NONE)),
    (SIZE, "ldu", dict(ldu=3, ldv=3, srange=VALUE, vl=-1.0)),  # ldu >= m for left vectors, before the range
    (SIZE, "ldv", dict(ldv=3, srange=VALUE, vl=-1.0)),  # ldv >= nsv_max = min(m, n)
    (SIZE, "ldv", dict(ldv=2, srange=INDEX, il=1, iu=3)),  # ldv >= nsv_max = iu - il + 1 ...
    (SIZE, "vl", dict(srange=VALUE, vl=-1.0, vu=1.0, A=None)),  # 0 <= vl < vu, before pointers
    (SIZE, "vu", dict(srange=VALUE, vl=1.0, vu=1.0)),
    # il >= 1 and iu >= 0, then iu <= min(m, n) and il <= iu (without right vectors: ldv >= iu - il + 1 comes first)
    (SIZE, "il", dict(srange=INDEX, il=0, iu=5, right_svect=NONE)),
    (SIZE, "iu", dict(srange=INDEX, il=1, iu=-1)),
    (SIZE, "iu", dict(srange=INDEX, il=1, iu=5, right_svect=NONE)),
    (SIZE, "il", dict(srange=INDEX, il=3, iu=2)),
    (PTR, "A", dict(A=None, S=None)),
    (PTR, "S", dict(S=None, info=None)),
    (PTR, "info", dict(info=None, nsv=None)),
    (PTR, "nsv", dict(nsv=None, ifail=None)),
    (PTR, "ifail", dict(ifail=None, U=None)),
    (PTR, "U", dict(U=None, V=None)),
    (PTR, "V", dict(V=None)),
    (PTR, "ifail", dict(ifail=None, left_svect=NONE)),  # needed for either side's vectors
]


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a double routine with valid 4x4 arguments but the given changes; expect the exception class and the
    argument it names (and its position); nothing may change."""
    bufs = {k: rt.poisoned_device_matrix(np.eye(4), 4) for k in ("A", "U", "V")}
    bufs.update({k: rt.poisoned_device_vector(np.zeros(4)) for k in ("S",)})
    bufs.update({k: rt.poisoned_device_vector(np.zeros(4, np.int32)) for k in ("ifail", "nsv", "info")})

    def check(name: str, error: type[Exception], arg: str, **changes: Any) -> None:
        base: dict[str, Any] = dict(left_svect=SINGULAR, right_svect=SINGULAR, srange=ALL, m=4, n=4, lda=4, vl=0.0,
                                    vu=1.0, il=1, iu=4, ldu=4, ldv=4, strideA=16, strideS=4, strideU=16, strideV=16,
                                    strideF=4, batch_count=1, **{k: v.ptr for k, v in bufs.items()})
        f = getattr(gx, name)
        params = list(inspect.signature(f).parameters)[1:]
        with pytest.raises(error) as err:
            f(handle, **{p: changes.get(p, base[p]) for p in params})
        assert err.value.arg == arg, f"{name}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in bufs.values():
            buf.check_untouched(logical=True)

    yield check
    for buf in bufs.values():
        buf.close()


@pytest.mark.parametrize(("error", "arg", "changes"), BAD, ids=[f"{i}-{a}" for i, (_, a, _) in enumerate(BAD)])
def test_bad_argument(bad: Callable[..., None], error: type[Exception], arg: str, changes: dict[str, Any]) -> None:
    bad("dgesvdx", error, arg, **changes)


def test_batched_and_notransv_checks(handle: Any, bad: Callable[..., None]) -> None:
    for name in ("zgesvdx_batched", "sgesvdx_strided_batched", "dgesvdx_notransv_strided_batched"):
        bad(name, SIZE, "batch_count", batch_count=-1)
        bad(name, PTR, "info", info=None, batch_count=1)
    # notransv: ldv >= n (not nsv_max) for the right vectors
    bad("dgesvdx_notransv_strided_batched", SIZE, "ldv", srange=INDEX, il=1, iu=1, ldv=3)
    # an index range with min(m, n) = 0 needs no S, U, V or ifail (nor A); vl is not looked at for it
    base = dict(left_svect=SINGULAR, right_svect=SINGULAR, srange=ALL, m=4, n=4, A=None, lda=4, vl=-1.0, vu=1.0,
                il=1, iu=4, S=None, U=None, ldu=4, V=None, ldv=4, ifail=None)
    with rt.poisoned_device_vector(np.full(1, 5, np.int32)) as info, \
            rt.poisoned_device_vector(np.full(1, 5, np.int32)) as nsv:
        changes = dict(m=0, srange=INDEX, il=1, iu=0, info=info.ptr, nsv=nsv.ptr)
        params = list(inspect.signature(gx.dgesvdx).parameters)[1:]
        gx.dgesvdx(handle, **{p: {**base, **changes}[p] for p in params})
        assert info.get()[0] == 0 and nsv.get()[0] == 0
