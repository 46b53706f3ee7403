"""rocmath.hip.hipsolver's sparse API (hipsolverSp*, rocmath/hip/_hipsolver_sp.py), as hipSOLVER's AMD backend has
it (hipsolver_sparse.cpp): csrlsvchol (device) and csrlsvcholHost in s and d, both index bases and every reorder
value, judged against SciPy's solve of the symmetric matrix built from the lower triangle (the upper one holds
arbitrary values and extra entries, which the factorization must ignore); the tolerance's drop in each variant;
the singularity (the host variant's first non-positive pivot, exact for the natural ordering; -1 from the device
variant whatever the matrix); the caller's arrays left as they were; the statuses of bad arguments in hipSOLVER's
order; keyword calls with hip-python's names; SetStream's ordering."""

from __future__ import annotations

import ctypes
import inspect
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from hip_util import check, to_device, to_host

from rocmath.hip import _hipsolver_sp, hip, hipsolver, hipsparse
from rocmath.hip._api import last_exception

S = hipsolver.hipsolverStatus_t
OK = (S.HIPSOLVER_STATUS_SUCCESS,)
IV, NI = (S.HIPSOLVER_STATUS_INVALID_VALUE,), (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
DTYPE = {"S": np.float32, "D": np.float64}
N = 30
PARAMS = "handle n nnzA descrA csrVal csrRowPtr csrColInd b tolerance reorder x singularity"


# --- fixtures and helpers ---------------------------------------------------------------------------------------------


class Env:
    """The handles, descriptors and device copies a test makes, released at its end."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []
        self.handles: list[Any] = []
        self.descrs: list[Any] = []

    def handle(self) -> Any:
        h = check(hipsolver.hipsolverSpCreate())
        self.handles.append(h)
        return h

    def descr(self, base: int = 0) -> Any:
        d = check(hipsparse.hipsparseCreateMatDescr())
        self.descrs.append(d)
        check(hipsparse.hipsparseSetMatIndexBase(d, hipsparse.hipsparseIndexBase_t(base)))
        return d

    def put(self, a: np.ndarray) -> Any:
        d = to_device(np.ascontiguousarray(a)) if a.nbytes else check(hip.hipMalloc(8))
        self.ptrs.append(d)
        return d

    def close(self) -> None:
        for h in self.handles:
            hipsolver.hipsolverSpDestroy(h)  # some tests destroy theirs
        for d in self.descrs:
            check(hipsparse.hipsparseDestroyMatDescr(d))
        for p in self.ptrs:
            check(hip.hipFree(p))


@pytest.fixture
def env() -> Iterator[Env]:
    e = Env()
    yield e
    e.close()


def lower_spd(n: int, seed: int) -> sp.csr_matrix:
    """The lower triangle of a sparse symmetric positive definite matrix (diagonally dominant)."""
    off = sp.tril(sp.random(n, n, density=0.12, random_state=seed, format="csr"), -1)
    off.data = 2 * off.data - 1
    sym = off + off.T
    low = sp.csr_matrix(off + sp.diags(np.abs(sym).sum(axis=1).A1 + 1.0))
    low.sort_indices()
    return low


def with_upper(low: sp.csr_matrix, seed: int, own: bool = True) -> sp.csr_matrix:
    """``low`` and an arbitrary upper triangle: the mirror pattern with random values, and (``own``) entries of
    its own."""
    rng = np.random.default_rng(seed)
    up = sp.triu(low.T, 1, format="csr")
    up.data = rng.uniform(-5, 5, up.nnz)
    n = low.shape[0]
    r = rng.integers(0, n - 1, 12 if own else 0)
    extra = sp.csr_matrix((rng.uniform(-5, 5, r.size), (r, rng.integers(r + 1, n))), shape=(n, n))
    full = sp.csr_matrix(low + up + extra)
    full.sum_duplicates()
    full.sort_indices()
    return full


def symmetric(stored: sp.csr_matrix) -> np.ndarray:
    """The matrix CHOLMOD factors: the stored lower triangle and its mirror."""
    low = sp.tril(stored).toarray()
    return low + np.tril(low, -1).T


def csr_arrays(m: sp.csr_matrix, letter: str, base: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (m.data.astype(DTYPE[letter]), (m.indptr + base).astype(np.int32), (m.indices + base).astype(np.int32))


def solve(env: Env, variant: str, letter: str, m: sp.csr_matrix, b: np.ndarray, *, base: int = 0,
          reorder: int = 0, tol: float = 0.0, handle: Any = None, x0: float = 0.0) -> dict[str, Any]:
    """One csrlsvchol call; returns its status, x, singularity and the caller's arrays afterwards."""
    n = m.shape[0]
    name = f"hipsolverSp{letter}csrlsvchol{'Host' if variant == 'host' else ''}"
    val, ptr, ind = csr_arrays(m, letter, base)
    b = b.astype(DTYPE[letter])
    x = np.full(n, x0, DTYPE[letter])
    sing = ctypes.c_int(7)
    handle = env.handle() if handle is None else handle
    descr = env.descr(base)
    if variant == "host":
        args = [val.copy(), ptr.copy(), ind.copy(), b.copy()]
        status = getattr(hipsolver, name)(handle, n, m.nnz, descr, *args, tol, reorder, x, sing)
        after = args
    else:
        dev = [env.put(a) for a in (val, ptr, ind, b, x)]
        status = getattr(hipsolver, name)(handle, n, m.nnz, descr, *dev[:4], tol, reorder, dev[4], sing)
        check(hip.hipDeviceSynchronize())
        after = [to_host(d, a) for d, a in zip(dev[:4], (val, ptr, ind, b), strict=True)]
        x = to_host(dev[4], x)
    untouched = all(np.array_equal(a, e) for a, e in zip(after, (val, ptr, ind, b), strict=True))
    return {"status": status, "x": x, "singularity": sing.value, "untouched": untouched}


def assert_solves(a: np.ndarray, x: np.ndarray, b: np.ndarray, letter: str) -> None:
    """x solves a x = b: against SciPy's solution and by its residual, at the precision's tolerance."""
    eps = float(np.finfo(DTYPE[letter]).eps)
    ref = sla.spsolve(sp.csc_matrix(a), b.astype(np.float64))
    scale = np.linalg.norm(a, 1) * np.linalg.norm(ref, np.inf)
    assert np.linalg.norm(a @ x - b.astype(DTYPE[letter]), np.inf) <= 20 * a.shape[0] * eps * scale
    cond = np.linalg.cond(a)
    assert np.abs(x - ref).max() <= 20 * a.shape[0] * eps * cond * np.abs(ref).max()


# --- the names --------------------------------------------------------------------------------------------------------


def test_names_and_parameters():
    for name in _hipsolver_sp.SP_NAMES:
        fn = getattr(hipsolver, name)
        assert callable(fn) and fn.__name__ == name and name in hipsolver.__all__
    assert len(_hipsolver_sp.SP_NAMES) == 7 and "hipsolverSpHandle_t" in hipsolver.__all__
    for letter in "SD":
        for host in ("", "Host"):
            assert " ".join(inspect.signature(getattr(hipsolver, f"hipsolverSp{letter}csrlsvchol{host}")).parameters) \
                == PARAMS
    assert not hasattr(hipsolver, "hipsolverSpCcsrlsvchol") and not hasattr(hipsolver, "hipsolverSpZcsrlsvcholHost")
    assert list(inspect.signature(hipsolver.hipsolverSpSetStream).parameters) == ["handle", "streamId"]


# --- solutions --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["host", "device"])
@pytest.mark.parametrize("letter", ["S", "D"])
@pytest.mark.parametrize("base", [0, 1])
@pytest.mark.parametrize("reorder", [0, 1, 2, 3])
def test_solution_ignores_the_upper_triangle(env, variant, letter, base, reorder):
    seed = 10 * reorder + base
    stored = with_upper(lower_spd(N, seed), seed + 1)
    b = np.random.default_rng(seed).standard_normal(N)
    r = solve(env, variant, letter, stored, b, base=base, reorder=reorder)
    assert r["status"] == OK and r["singularity"] == -1 and r["untouched"]
    assert_solves(symmetric(stored), r["x"], b, letter)


@pytest.mark.parametrize("letter", ["S", "D"])
@pytest.mark.parametrize("reorder", [0, 1, 2, 3])
def test_host_variant_with_the_lower_triangle_alone(env, letter, reorder):
    low = lower_spd(N, 40 + reorder)
    b = np.random.default_rng(reorder).standard_normal(N)
    r = solve(env, "host", letter, low, b, base=reorder % 2, reorder=reorder)
    assert r["status"] == OK and r["singularity"] == -1 and r["untouched"]
    assert_solves(symmetric(low), r["x"], b, letter)


@pytest.mark.parametrize("letter", ["S", "D"])
@pytest.mark.parametrize("reorder", [0, 1, 2, 3])
def test_device_variant_with_the_lower_triangle_alone(env, letter, reorder):
    # hipSOLVER's T misses fill here with reorder 1-3 (a wrong x); rocmath's T is L's pattern (its departure).
    low = lower_spd(N, 50 + reorder)
    b = np.random.default_rng(5).standard_normal(N)
    r = solve(env, "device", letter, low, b, base=1, reorder=reorder)
    assert r["status"] == OK and r["singularity"] == -1 and r["untouched"]
    assert_solves(symmetric(low), r["x"], b, letter)


def reference_pattern(a: np.ndarray, new2old: np.ndarray) -> set[tuple[int, int]]:
    """The nonzero pattern of the Cholesky factor of the permuted matrix (dense, from NumPy)."""
    low = np.linalg.cholesky(a[np.ix_(new2old, new2old)])
    return {(int(i), int(j)) for i, j in zip(*np.nonzero(low), strict=True)}


def t_pattern(stored: sp.csr_matrix, reorder: int) -> tuple[np.ndarray, set[tuple[int, int]]]:
    n = stored.shape[0]
    rows = np.repeat(np.arange(n), np.diff(stored.indptr))
    cols = stored.indices.astype(np.int64)
    s = _hipsolver_sp._symbolic(n, rows, cols, reorder, *_hipsolver_sp._mirrored(n, rows, cols))
    t_rows = np.repeat(np.arange(n), np.diff(s.ptrT))
    return s.new2old, {(int(i), int(j)) for i, j in zip(t_rows, s.indT, strict=True) if j <= i}


def test_t_pattern_is_the_factors_whatever_the_upper_triangle_holds():
    # T is L's pattern exactly for every ordering: from the full symmetric pattern, from one whose upper triangle
    # holds entries of its own (ignored), and from the lower triangle alone (where hipSOLVER's row scan misses fill
    # with a fill-reducing ordering: rocmath's departure).
    low = lower_spd(N, 60)
    a = symmetric(low)
    for reorder in (0, 1, 2, 3):
        for stored in (with_upper(low, 61, own=False), with_upper(low, 61), low):
            new2old, pattern = t_pattern(stored, reorder)
            assert sorted(new2old.tolist()) == list(range(N)) and pattern == reference_pattern(a, new2old)
    assert t_pattern(low, 2)[0].tolist() != list(range(N))
    # The minimum-degree ordering reduces the fill of a 2D Laplacian's factor.
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(7, 7))
    lap = sp.csr_matrix(sp.kronsum(t, t))
    assert len(t_pattern(lap, 1)[1]) < len(t_pattern(lap, 0)[1])


def test_device_variant_same_pattern_again_on_one_handle(env):
    # rocSOLVER's reuse policy keeps the first call's triangular-solve analyses: right for the same pattern.
    h = env.handle()
    stored = with_upper(lower_spd(N, 70), 71)
    b = np.random.default_rng(7).standard_normal(N)
    for scale in (1.0, 3.0):
        m = stored * scale
        r = solve(env, "device", "D", m, b, reorder=1, handle=h)
        assert r["status"] == OK
        assert_solves(symmetric(m), r["x"], b, "D")


# --- the tolerance ----------------------------------------------------------------------------------------------------


def small_entries(seed: int, tiny: float) -> sp.csr_matrix:
    """A matrix with lower off-diagonal entries of magnitude ``tiny`` (the rest well above it)."""
    stored = with_upper(lower_spd(N, seed), seed + 1)
    low = sp.tril(stored, -1, format="coo")
    pick = np.arange(0, low.nnz, 3)
    m = stored.tolil()
    for i, j in zip(low.row[pick], low.col[pick], strict=True):
        m[i, j] = tiny if (i + j) % 2 else -tiny
    out = sp.csr_matrix(m)
    out.sort_indices()
    return out


@pytest.mark.parametrize("letter", ["S", "D"])
def test_host_tolerance_drops_small_values(env, letter):
    m = small_entries(80, 1e-3)
    b = np.random.default_rng(8).standard_normal(N)
    r = solve(env, "host", letter, m, b, base=1, reorder=1, tol=1e-3)
    dropped = symmetric(m)
    dropped[np.abs(dropped) <= 1e-3] = 0
    assert r["status"] == OK and r["singularity"] == -1 and r["untouched"]
    assert_solves(dropped, r["x"], b, letter)
    assert np.abs(symmetric(m) @ r["x"].astype(np.float64) - b).max() > 1e-5  # not the undropped solution


def test_host_tolerance_is_a_c_float_in_the_s_function(env):
    # 0.1 as a C float (0.100000001) drops a stored 0.1f; compared as a double it would not.
    m = small_entries(81, float(np.float32(0.1)))
    b = np.random.default_rng(9).standard_normal(N)
    r = solve(env, "host", "S", m, b, tol=0.1)
    dropped = symmetric(m)
    dropped[np.abs(dropped) <= np.float32(0.1)] = 0
    assert r["status"] == OK
    assert_solves(dropped, r["x"], b, "S")


@pytest.mark.parametrize("letter", ["S", "D"])
@pytest.mark.parametrize("reorder", [0, 1])
def test_device_tolerance_drops_no_value(env, letter, reorder):
    # The drop runs on a pattern-only copy: zero-based, the values all stay.
    m = small_entries(82, 1e-3)
    b = np.random.default_rng(10).standard_normal(N)
    r = solve(env, "device", letter, m, b, tol=1e-3, reorder=reorder)
    assert r["status"] == OK and r["untouched"]
    assert_solves(symmetric(m), r["x"], b, letter)


def test_device_tolerance_one_based_reads_values_at_the_dropped_patterns_positions(env):
    # One-based, A's copies hold the dropped pattern (the upper triangle gone) while the values are still read
    # from csrVal at its positions, as hipSOLVER's: the matrix factored is (dropped pattern, csrVal[:nnz]).  Here
    # the last two rows are diagonal (5, 7) and row N - 3 stores an upper entry 9: they read 9 and 5.
    low = sp.block_diag([lower_spd(N - 2, 90), sp.diags([5.0, 7.0])], format="csr")
    stored = sp.csr_matrix(low + sp.csr_matrix(([9.0], ([N - 3], [N - 1])), shape=(N, N)))
    stored.sort_indices()
    b = np.random.default_rng(11).standard_normal(N)
    r = solve(env, "device", "D", stored, b, base=1, tol=1e-12)
    rows = np.repeat(np.arange(N), np.diff(stored.indptr))
    keep = stored.indices <= rows
    ptr = np.r_[0, np.cumsum(np.bincount(rows[keep], minlength=N))]
    shifted = sp.csr_matrix((stored.data[:keep.sum()], stored.indices[keep], ptr), shape=(N, N))
    assert r["status"] == OK and r["untouched"]
    assert np.array_equal(np.diag(symmetric(shifted))[-2:], [9.0, 5.0])
    assert_solves(symmetric(shifted), r["x"], b, "D")


# --- singularity ------------------------------------------------------------------------------------------------------


def failing_at(k: int) -> sp.csr_matrix:
    """A 1D Laplacian (pivots (i + 2) / (i + 1)) whose diagonal entry k is 0.25: pivot k is negative."""
    a = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(N, N)).tolil()
    a[k, k] = 0.25
    out = sp.csr_matrix(a)
    out.sort_indices()
    return out


def first_failure(a: np.ndarray) -> int:
    """The first k whose leading k + 1 block is not positive definite (-1: none)."""
    for k in range(a.shape[0]):
        if np.linalg.eigvalsh(a[:k + 1, :k + 1]).min() <= 0:
            return k
    return -1


@pytest.mark.parametrize("letter", ["S", "D"])
@pytest.mark.parametrize("base", [0, 1])
def test_host_singularity_natural_ordering_is_the_failing_column(env, letter, base):
    k = 11
    m = failing_at(k)
    assert first_failure(m.toarray()) == k
    r = solve(env, "host", letter, m, np.ones(N), base=base, x0=5.0)
    assert r["status"] == OK and r["singularity"] == k and r["untouched"]
    assert np.all(r["x"] == 5.0)  # x untouched


@pytest.mark.parametrize("reorder", [1, 3])
def test_host_singularity_follows_the_ordering_used(env, reorder):
    m = failing_at(17)
    a = m.toarray()
    rows = np.repeat(np.arange(N), np.diff(m.indptr))
    new2old = _hipsolver_sp._ordering(N, rows, m.indices.astype(np.int64), reorder)
    expected = first_failure(a[np.ix_(new2old, new2old)])
    r = solve(env, "host", "D", m, np.ones(N), reorder=reorder, x0=5.0)
    assert r["status"] == OK and r["singularity"] == expected >= 0 and np.all(r["x"] == 5.0)


@pytest.mark.parametrize("letter", ["S", "D"])
def test_device_singularity_stays_minus_one(env, letter):
    r = solve(env, "device", letter, failing_at(11), np.ones(N))
    assert r["status"] == OK and r["singularity"] == -1 and r["untouched"]


def test_singularity_omitted_is_returned(env):
    m = failing_at(4)
    val, ptr, ind = csr_arrays(m, "D", 0)
    h, d = env.handle(), env.descr()
    x = np.zeros(N)
    assert hipsolver.hipsolverSpDcsrlsvcholHost(h, N, m.nnz, d, val, ptr, ind, np.ones(N), 0.0, 0, x) == (*OK, 4)
    assert hipsolver.hipsolverSpDcsrlsvcholHost(h, N, m.nnz, d, val, ptr, ind, np.ones(N), 0.0, 7, x) == (*IV, None)


# --- arguments and statuses -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["host", "device"])
def test_bad_arguments_in_hipsolvers_order(env, variant):
    m = failing_at(3)
    letter = "D"
    val, ptr, ind = csr_arrays(m, letter, 0)
    b = np.ones(N)
    h, d = env.handle(), env.descr()
    if variant == "device":
        val, ptr, ind, b = (env.put(a) for a in (val, ptr, ind, b))
        x = env.put(np.zeros(N))
    else:
        x = np.zeros(N)
    fn = getattr(hipsolver, f"hipsolverSpDcsrlsvchol{'Host' if variant == 'host' else ''}")
    sym = env.descr()
    check(hipsparse.hipsparseSetMatType(sym, hipsparse.hipsparseMatrixType_t.HIPSPARSE_MATRIX_TYPE_SYMMETRIC))
    good = {"handle": h, "n": N, "nnzA": m.nnz, "descrA": d, "csrVal": val, "csrRowPtr": ptr, "csrColInd": ind,
            "b": b, "tolerance": 0.0, "reorder": 0, "x": x}
    MT = (S.HIPSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED,)
    # Each case breaks one argument and every later one: the status and the argument named are the first's.
    later = {"n": -1, "descrA": None, "csrRowPtr": None, "csrColInd": None, "csrVal": None, "b": None, "x": None,
             "singularity": None, "reorder": 4}
    order = ["handle", "n", "descrA", "csrRowPtr", "csrColInd", "csrVal", "b", "x", "singularity", "reorder"]
    for i, arg in enumerate(order):
        bad = {**good, "singularity": ctypes.c_int(7), "descrA": sym}
        bad.update({a: later.get(a) for a in order[i:]})
        if arg == "handle":
            bad["handle"] = None
        assert fn(**bad) == (NI if arg == "handle" else IV), arg
        assert last_exception().arg == arg  # type: ignore[union-attr]
    assert fn(**{**good, "nnzA": -1}, singularity=ctypes.c_int(7)) == IV and last_exception().arg == "nnzA"
    assert fn(**{**good, "descrA": 12345}, singularity=ctypes.c_int(7)) == IV  # no live descriptor
    assert fn(**{**good, "handle": 12345}, singularity=ctypes.c_int(7)) == NI  # no live handle
    for reorder in (-1, 4):
        assert fn(**{**good, "reorder": reorder}, singularity=ctypes.c_int(7)) == IV
    sing = ctypes.c_int(7)
    assert fn(**{**good, "descrA": sym}, singularity=sing) == MT and sing.value == 7  # nothing written
    unsupported = env.descr()
    _hipsolver_sp.find(unsupported, hipsparse.hipsparseMatDescr_t).target.base = 2  # no API sets this
    assert fn(**{**good, "descrA": unsupported}, singularity=sing) == MT and sing.value == 7
    # Cython's conversions come first (their errors name the argument), n, nnzA, tolerance, reorder in turn.
    with pytest.raises(OverflowError, match="'n'"):
        fn(**{**good, "handle": None, "n": 2**31, "nnzA": "x"}, singularity=sing)
    with pytest.raises(TypeError, match="'nnzA'"):
        fn(**{**good, "nnzA": 2.0, "tolerance": "x"}, singularity=sing)
    with pytest.raises(TypeError, match="'tolerance'"):
        fn(**{**good, "tolerance": "x", "reorder": None}, singularity=sing)
    with pytest.raises(TypeError, match="'reorder'"):
        fn(**{**good, "reorder": 1.0}, singularity=sing)
    with pytest.raises(TypeError, match="unexpected"):
        fn(**good, singularity=sing, info=None)
    assert sing.value == 7
    assert fn(**good, singularity=sing) == OK and sing.value == (3 if variant == "host" else -1)


def test_bad_csr_offsets_and_columns_are_execution_failures(env):
    m = failing_at(3)
    val, ptr, ind = csr_arrays(m, "D", 0)
    h, d = env.handle(), env.descr()
    EF = (S.HIPSOLVER_STATUS_EXECUTION_FAILED,)
    for p, i in ((np.r_[ptr[:-1], m.nnz + 1], ind), (ptr[::-1].copy(), ind), (ptr, np.r_[ind[:-1], N])):
        args = (h, N, m.nnz, d, val, p.astype(np.int32), i.astype(np.int32), np.ones(N), 0.0, 0, np.zeros(N))
        assert hipsolver.hipsolverSpDcsrlsvcholHost(*args, ctypes.c_int()) == EF
        dev = [env.put(a) for a in args[4:8]]
        assert hipsolver.hipsolverSpDcsrlsvchol(*args[:4], *dev, 0.0, 0, env.put(np.zeros(N)), ctypes.c_int()) == EF


def test_empty_systems(env):
    d = env.descr()
    one = np.zeros(1, np.int32)
    sing = ctypes.c_int(7)
    h = env.handle()
    # Host: nothing to solve.  Device on a handle that never solved: hipSOLVER writes through unset pointers.
    assert hipsolver.hipsolverSpDcsrlsvcholHost(h, 0, 0, d, one, one, one, one, 0.0, 1, one, sing) == OK
    assert sing.value == -1
    x = env.put(np.zeros(1))
    assert hipsolver.hipsolverSpDcsrlsvchol(h, 0, 0, d, x, x, x, x, 0.0, 0, x, sing) == (
        S.HIPSOLVER_STATUS_INTERNAL_ERROR,)
    solve(env, "device", "D", failing_at(2), np.ones(N), handle=h)
    sing.value = 7
    assert hipsolver.hipsolverSpDcsrlsvchol(h, 0, 0, d, x, x, x, x, 0.0, 0, x, sing) == OK and sing.value == -1


def test_handles_and_streams(env):
    h = check(hipsolver.hipsolverSpCreate())
    assert isinstance(h, hipsolver.hipsolverSpHandle_t)
    assert hipsolver.hipsolverSpDestroy(None) == NI
    assert hipsolver.hipsolverSpSetStream(None, None) == NI
    assert hipsolver.hipsolverSpSetStream(h, 12345) == IV  # rocblas_set_stream: invalid_value
    stream = check(hip.hipStreamCreate())
    assert hipsolver.hipsolverSpSetStream(handle=h, streamId=stream) == OK
    target = _hipsolver_sp.find(h, hipsolver.hipsolverSpHandle_t).target
    assert target.blas.get_stream() is hip._as_stream(stream)
    assert hipsolver.hipsolverSpSetStream(h, None) == OK and target.blas.get_stream() is hip._as_stream(None)
    check(hip.hipStreamDestroy(stream))
    assert hipsolver.hipsolverSpDestroy(handle=h) == OK
    assert hipsolver.hipsolverSpDestroy(h) == NI  # no longer live
    assert hipsolver.hipsolverSpSetStream(int(h), None) == NI


def test_keyword_calls_and_stream_ordering(env):
    # The solve on a blocking stream: b, written there by work still queued when the call starts, is read after
    # it (hipSOLVER's copies are hipMemcpy: null stream), and x is ready for work queued there after the call.
    stored = with_upper(lower_spd(N, 100), 101)
    b = np.random.default_rng(12).standard_normal(N)
    val, ptr, ind = csr_arrays(stored, "D", 0)
    dval, dptr, dind = (env.put(a) for a in (val, ptr, ind))
    db, dx = env.put(np.zeros(N)), env.put(np.zeros(N))
    h, d = env.handle(), env.descr()
    stream = check(hip.hipStreamCreate())
    try:
        check(hipsolver.hipsolverSpSetStream(handle=h, streamId=stream))
        check(hip.hipLaunchHostFunc(stream, lambda _: time.sleep(0.05), None))
        check(hip.hipMemcpyAsync(db, b, b.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice, stream))
        sing = np.full(1, 7, np.int32)
        status = hipsolver.hipsolverSpDcsrlsvchol(
            handle=h, n=N, nnzA=stored.nnz, descrA=d, csrVal=dval, csrRowPtr=dptr, csrColInd=dind, b=db,
            tolerance=0.0, reorder=2, x=dx, singularity=sing)
        out = np.zeros(N)
        check(hip.hipMemcpyAsync(out, dx, out.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost, stream))
        check(hip.hipStreamSynchronize(stream))
    finally:
        check(hip.hipStreamDestroy(stream))
    assert status == OK and sing[0] == -1
    assert_solves(symmetric(stored), out, b, "D")
    x32 = np.zeros(N, np.float32)
    assert hipsolver.hipsolverSpScsrlsvcholHost(
        handle=h, n=N, nnzA=stored.nnz, descrA=d, csrVal=val.astype(np.float32), csrRowPtr=ptr, csrColInd=ind,
        b=b.astype(np.float32), tolerance=0.0, reorder=3, x=x32, singularity=sing) == OK
    assert_solves(symmetric(stored), x32, b, "S")
