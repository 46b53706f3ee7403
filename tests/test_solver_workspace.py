"""rocSOLVER's scratch memory comes from the handle's workspace (solver/_workspace.py).

For every family (LU, Cholesky, Householder, eigenvalues/SVD) the device-memory size
query reports what the kernels carve out of the workspace: a positive size, the same
on every repeat, growing with the problem; a user workspace of exactly that size runs
the routine (poisoned with NaN bytes first: the kernels never read scratch they did
not write) and gives SciPy's results; one byte less, or half, is memory_error before
anything is written.  Checking mode's poisoned managed workspace gives the same
results, and each kernel still compiles once per precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.linalg.lapack as lapack
from hypothesis import given
from hypothesis import strategies as st

import rocmath as rm
from rocmath import blas, solver
from rocmath.errors import RocblasMemoryError, RocblasStatus
from rocmath.memory import POISON_BYTE
from rocmath.solver import _kernels_chol, _kernels_eig, _kernels_lu, _kernels_qr

NRHS = 2
EV_ORIGINAL, ES_ASCENDING, SV_ALL, EF_AX, OUT_OF_PLACE = 211, 252, 191, 221, 201


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


# --- operands: column-major strided batches ---------------------------------------------------------


def dev(a: np.ndarray) -> rm.DeviceArray:
    """A (batch, rows, cols) host stack as column-major device entries (ld = rows)."""
    return rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)))


def host(x: rm.DeviceArray) -> np.ndarray:
    return x.get().transpose(0, 2, 1)


def spd(rng: np.random.Generator, batch: int, n: int) -> np.ndarray:
    a = rng.standard_normal((batch, n, n))
    return a @ a.transpose(0, 2, 1) + n * np.eye(n)


def general(rng: np.random.Generator, batch: int, m: int, n: int) -> np.ndarray:
    return rng.standard_normal((batch, m, n)) + 3 * np.eye(m, n)


@dataclass
class Problem:
    """Device operands of one call (``ops``: keyword -> DeviceArray; those the call may write are
    ``outputs``) and the check of its results against SciPy."""

    ops: dict[str, rm.DeviceArray]
    outputs: tuple[str, ...]
    check: Callable[[dict[str, rm.DeviceArray]], None]


@dataclass(frozen=True)
class Case:
    """One routine: ``call(handle, n, batch, ops)`` (ops missing -> null pointers, as in a size
    query) and ``make(n, batch, rng)`` building a Problem; ``batched`` False for routines
    rocSOLVER has unbatched only."""

    name: str
    call: Callable[..., Any]
    make: Callable[[int, int, np.random.Generator], Problem]
    batched: bool = True


def close(got: np.ndarray, want: np.ndarray, tol: float = 1e-9) -> None:
    assert np.allclose(got, want, rtol=tol, atol=tol), np.max(np.abs(got - want))


# --- LU ---------------------------------------------------------------------------------------------


def _getrf(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dgetrf_strided_batched(h, n, n, o.get("A"), n, n * n, o.get("ipiv"), n, o.get("info"), b)


def _make_getrf(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = general(rng, b, n, n)

    def check(o: dict[str, rm.DeviceArray]) -> None:
        for e in range(b):
            lu, piv = sl.lu_factor(a[e])
            close(host(o["A"])[e], lu)
            assert np.array_equal(o["ipiv"].get()[e], piv + 1)
        assert not o["info"].get().any()

    ops = {"A": dev(a), "ipiv": rm.empty((b, n), np.int32), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "ipiv", "info"), check)


def _lu_factored(n: int, b: int, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, rm.DeviceArray]]:
    a = general(rng, b, n, n)
    packed, pivots = zip(*(sl.lu_factor(a[e]) for e in range(b)), strict=True)
    return a, {"A": dev(np.array(packed)), "ipiv": rm.to_device(np.array(pivots, np.int32) + 1)}


def _getrs(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dgetrs_strided_batched(h, "N", n, NRHS, o.get("A"), n, n * n, o.get("ipiv"), n, o.get("B"), n,
                                         n * NRHS, b)


def _make_getrs(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, ops = _lu_factored(n, b, rng)
    rhs = rng.standard_normal((b, n, NRHS))
    ops["B"] = dev(rhs)
    return Problem(ops, ("B",), lambda o: close(host(o["B"]), np.linalg.solve(a, rhs)))


def _gesv(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dgesv_strided_batched(h, n, NRHS, o.get("A"), n, n * n, o.get("ipiv"), n, o.get("B"), n,
                                        n * NRHS, o.get("info"), b)


def _make_gesv(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, rhs = general(rng, b, n, n), rng.standard_normal((b, n, NRHS))
    ops = {"A": dev(a), "ipiv": rm.empty((b, n), np.int32), "B": dev(rhs), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "ipiv", "B", "info"), lambda o: close(host(o["B"]), np.linalg.solve(a, rhs)))


def _getri(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dgetri_strided_batched(h, n, o.get("A"), n, n * n, o.get("ipiv"), n, o.get("info"), b)


def _make_getri(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, ops = _lu_factored(n, b, rng)
    ops["info"] = rm.empty(b, np.int32)
    return Problem(ops, ("A", "info"), lambda o: close(host(o["A"]), np.linalg.inv(a)))


# --- Cholesky ---------------------------------------------------------------------------------------


def _potrf(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dpotrf_strided_batched(h, "L", n, o.get("A"), n, n * n, o.get("info"), b)


def _make_potrf(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = spd(rng, b, n)
    ops = {"A": dev(a), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "info"), lambda o: close(np.tril(host(o["A"])), np.linalg.cholesky(a)))


def _potrs(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dpotrs_strided_batched(h, "L", n, NRHS, o.get("A"), n, n * n, o.get("B"), n, n * NRHS, b)


def _make_potrs(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, rhs = spd(rng, b, n), rng.standard_normal((b, n, NRHS))
    ops = {"A": dev(np.linalg.cholesky(a)), "B": dev(rhs)}
    return Problem(ops, ("B",), lambda o: close(host(o["B"]), np.linalg.solve(a, rhs)))


def _posv(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dposv_strided_batched(h, "L", n, NRHS, o.get("A"), n, n * n, o.get("B"), n, n * NRHS,
                                        o.get("info"), b)


def _make_posv(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, rhs = spd(rng, b, n), rng.standard_normal((b, n, NRHS))
    ops = {"A": dev(a), "B": dev(rhs), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "B", "info"), lambda o: close(host(o["B"]), np.linalg.solve(a, rhs)))


def _potri(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dpotri_strided_batched(h, "L", n, o.get("A"), n, n * n, o.get("info"), b)


def _make_potri(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = spd(rng, b, n)
    ops = {"A": dev(np.linalg.cholesky(a)), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "info"), lambda o: close(np.tril(host(o["A"])), np.tril(np.linalg.inv(a))))


def _trtri(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dtrtri_strided_batched(h, "L", "N", n, o.get("A"), n, n * n, o.get("info"), b)


def _make_trtri(n: int, b: int, rng: np.random.Generator) -> Problem:
    t = np.tril(general(rng, b, n, n))
    ops = {"A": dev(t), "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "info"), lambda o: close(np.tril(host(o["A"])), np.linalg.inv(t)))


# --- Householder --------------------------------------------------------------------------------------


def _rows(n: int) -> int:
    return n + 2  # tall matrices: m > n


def _geqrf(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    return solver.dgeqrf_strided_batched(h, m, n, o.get("A"), m, m * n, o.get("ipiv"), n, b)


def _make_geqrf(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = general(rng, b, _rows(n), n)

    def check(o: dict[str, rm.DeviceArray]) -> None:
        for e in range(b):
            qr, tau, _, _ = lapack.dgeqrf(a[e])
            close(host(o["A"])[e], qr)
            close(o["ipiv"].get()[e], tau)

    return Problem({"A": dev(a), "ipiv": rm.empty((b, n), np.float64)}, ("A", "ipiv"), check)


def _gels(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    return solver.dgels_strided_batched(h, "N", m, n, NRHS, o.get("A"), m, m * n, o.get("B"), m, m * NRHS,
                                        o.get("info"), b)


def _make_gels(n: int, b: int, rng: np.random.Generator) -> Problem:
    m = _rows(n)
    a, rhs = general(rng, b, m, n), rng.standard_normal((b, m, NRHS))
    ops = {"A": dev(a), "B": dev(rhs), "info": rm.empty(b, np.int32)}
    want = np.array([np.linalg.lstsq(a[e], rhs[e], rcond=None)[0] for e in range(b)])
    return Problem(ops, ("A", "B", "info"), lambda o: close(host(o["B"])[:, :n], want))


def _householder(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    qr, tau, _, _ = lapack.dgeqrf(general(rng, 1, _rows(n), n)[0])
    return qr, tau


def _orgqr(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    return solver.dorgqr(h, m, n, n, o.get("A"), m, o.get("ipiv"))


def _make_orgqr(n: int, b: int, rng: np.random.Generator) -> Problem:
    qr, tau = _householder(n, rng)
    q = lapack.dorgqr(qr, tau)[0]
    ops = {"A": dev(qr[None]), "ipiv": rm.to_device(tau)}
    return Problem(ops, ("A",), lambda o: close(host(o["A"])[0], q))


def _ormqr(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    return solver.dormqr(h, "L", "T", m, NRHS, n, o.get("A"), m, o.get("ipiv"), o.get("C"), m)


def _make_ormqr(n: int, b: int, rng: np.random.Generator) -> Problem:
    qr, tau = _householder(n, rng)
    c = rng.standard_normal((_rows(n), NRHS))
    want = lapack.dormqr("L", "T", qr, tau, c, max(1, NRHS * 64))[0]
    ops = {"A": dev(qr[None]), "ipiv": rm.to_device(tau), "C": dev(c[None])}
    return Problem(ops, ("C",), lambda o: close(host(o["C"])[0], want))


# --- eigenvalues and SVD ------------------------------------------------------------------------------


def _syev(routine: str) -> Callable[..., Any]:
    def call(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
        return getattr(solver, f"d{routine}_strided_batched")(h, EV_ORIGINAL, "L", n, o.get("A"), n, n * n,
                                                             o.get("D"), n, o.get("E"), n, o.get("info"), b)

    return call


def _eigen_check(a: np.ndarray, b: np.ndarray | None = None) -> Callable[[dict[str, rm.DeviceArray]], None]:
    want = np.array([sl.eigh(a[e], None if b is None else b[e], eigvals_only=True) for e in range(len(a))])

    def check(o: dict[str, rm.DeviceArray]) -> None:
        close(o["D" if "D" in o else "W"].get(), want)
        vec = host(o["A"])
        for e in range(len(a)):  # A V = (B) V diag(w)
            rhs = vec[e] * want[e] if b is None else b[e] @ vec[e] * want[e]
            close(a[e] @ vec[e], rhs, 1e-8)
        assert not o["info"].get().any()

    return check


def _make_syev(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = spd(rng, b, n)
    ops = {"A": dev(a), "D": rm.empty((b, n), np.float64), "E": rm.empty((b, n), np.float64),
           "info": rm.empty(b, np.int32)}
    return Problem(ops, ("A", "D", "E", "info"), _eigen_check(a))


def _syevj(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dsyevj_strided_batched(h, ES_ASCENDING, EV_ORIGINAL, "L", n, o.get("A"), n, n * n, 0.0,
                                         o.get("residual"), 100, o.get("n_sweeps"), o.get("W"), n, o.get("info"), b)


def _make_syevj(n: int, b: int, rng: np.random.Generator) -> Problem:
    a = spd(rng, b, n)
    ops = {"A": dev(a), "residual": rm.empty(b, np.float64), "n_sweeps": rm.empty(b, np.int32),
           "W": rm.empty((b, n), np.float64), "info": rm.empty(b, np.int32)}
    return Problem(ops, tuple(ops), _eigen_check(a))


def _sygv(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    return solver.dsygv_strided_batched(h, EF_AX, EV_ORIGINAL, "L", n, o.get("A"), n, n * n, o.get("B"), n, n * n,
                                        o.get("D"), n, o.get("E"), n, o.get("info"), b)


def _make_sygv(n: int, b: int, rng: np.random.Generator) -> Problem:
    a, bm = spd(rng, b, n) - n * np.eye(n), spd(rng, b, n)
    ops = {"A": dev(a), "B": dev(bm), "D": rm.empty((b, n), np.float64), "E": rm.empty((b, n), np.float64),
           "info": rm.empty(b, np.int32)}
    return Problem(ops, tuple(ops), _eigen_check(a, bm))


def _gesvd(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    ldv = max(1, n)
    return solver.dgesvd_strided_batched(h, SV_ALL, SV_ALL, m, n, o.get("A"), m, m * n, o.get("S"), n, o.get("U"),
                                         m, m * m, o.get("V"), ldv, n * n, o.get("E"), n, OUT_OF_PLACE,
                                         o.get("info"), b)


def _gesvdj(h: Any, n: int, b: int, o: dict[str, Any]) -> Any:
    m = _rows(n)
    return solver.dgesvdj_strided_batched(h, SV_ALL, SV_ALL, m, n, o.get("A"), m, m * n, 0.0, o.get("residual"),
                                          100, o.get("n_sweeps"), o.get("S"), n, o.get("U"), m, m * m, o.get("V"),
                                          max(1, n), n * n, o.get("info"), b)


def _make_svd(jacobi: bool) -> Callable[[int, int, np.random.Generator], Problem]:
    def make(n: int, b: int, rng: np.random.Generator) -> Problem:
        m = _rows(n)
        a = general(rng, b, m, n)
        want = np.linalg.svd(a, compute_uv=False)

        def check(o: dict[str, rm.DeviceArray]) -> None:
            s, u, vt = o["S"].get(), host(o["U"]), host(o["V"])
            close(s, want)
            for e in range(b):  # A = U[:, :n] diag(S) V^T
                close(u[e][:, :n] * s[e] @ vt[e], a[e])
            assert not o["info"].get().any()

        ops = {"A": dev(a), "S": rm.empty((b, n), np.float64), "U": rm.empty((b, m, m), np.float64),
               "V": rm.empty((b, n, n), np.float64), "info": rm.empty(b, np.int32)}
        if jacobi:
            ops |= {"residual": rm.empty(b, np.float64), "n_sweeps": rm.empty(b, np.int32)}
        else:
            ops["E"] = rm.empty((b, n), np.float64)
        return Problem(ops, tuple(ops), check)

    return make


CASES = [
    Case("getrf", _getrf, _make_getrf), Case("getrs", _getrs, _make_getrs), Case("gesv", _gesv, _make_gesv),
    Case("getri", _getri, _make_getri),
    Case("potrf", _potrf, _make_potrf), Case("potrs", _potrs, _make_potrs), Case("posv", _posv, _make_posv),
    Case("potri", _potri, _make_potri), Case("trtri", _trtri, _make_trtri),
    Case("geqrf", _geqrf, _make_geqrf), Case("gels", _gels, _make_gels),
    Case("orgqr", _orgqr, _make_orgqr, batched=False), Case("ormqr", _ormqr, _make_ormqr, batched=False),
    Case("syev", _syev("syev"), _make_syev), Case("syevd", _syev("syevd"), _make_syev),
    Case("syevj", _syevj, _make_syevj), Case("sygv", _sygv, _make_sygv),
    Case("gesvd", _gesvd, _make_svd(False)), Case("gesvdj", _gesvdj, _make_svd(True)),
]
IDS = [c.name for c in CASES]
BY_NAME = {c.name: c for c in CASES}
#: The cases whose kernels the default tier runs (one or more per family; the Cholesky routines
#: share one kernel, syev and syevd another): the rest compile kernels of their own and run in the
#: slow tier (their size queries and memory errors, which run no kernel, are in the default tier).
QUICK = ("getrf", "potrf", "potrs", "posv", "potri", "trtri", "geqrf", "syev", "syevd", "gesvd")


def tiered(cases: list[Case]) -> list[Any]:
    return [pytest.param(c, id=c.name, marks=() if c.name in QUICK else pytest.mark.slow) for c in cases]


# --- size queries -----------------------------------------------------------------------------------


def query(h: Any, case: Case, n: int, batch: int) -> int:
    """The bytes one call asks for in a device-memory size query of its own (null pointers)."""
    blas.start_device_memory_size_query(h)
    try:
        status = case.call(h, n, batch, {})
        again = case.call(h, n, batch, {})
    finally:
        size = blas.stop_device_memory_size_query(h)
    assert status is (RocblasStatus.size_increased if size else RocblasStatus.size_unchanged)
    assert again is RocblasStatus.size_unchanged  # no more than the running maximum
    return size


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_size_query_is_positive_stable_and_grows_with_the_problem(handle: Any, case: Case) -> None:
    batches = (1, 3, 10, 100) if case.batched else (1,)
    # Sizes below the point where entries go to LAPACK one at a time (SERIAL_WORK multiply-adds)
    # or leave the numba kernels (n > 64): there the chunk count, or the algorithm, changes.
    sizes = (2, 5, 9, 17, 30)  # (n = 1 eigenproblems are scalars: no workspace)
    table = np.array([[query(handle, case, n, b) for n in sizes] for b in batches])
    assert (table > 0).all() and (table % 64 == 0).all()
    assert (np.diff(table, axis=0) >= 0).all(), table  # grows with the batch ...
    assert (np.diff(table, axis=1) >= 0).all(), table  # ... and with n
    assert table[-1, -1] > table[0, 0]
    assert query(handle, case, 17, batches[-1]) == table[-1, sizes.index(17)]  # the same on every repeat
    # An empty problem needs nothing.
    assert query(handle, case, 0, batches[-1]) == 0
    if case.batched:
        assert query(handle, case, 9, 0) == 0


@given(n=st.tuples(st.integers(1, 40), st.integers(1, 40)), batch=st.tuples(st.integers(1, 200),
                                                                             st.integers(1, 200)),
       case=st.sampled_from(["getrf", "gesv", "potrf", "gels", "syevd", "gesvdj"]))
def test_a_larger_problem_never_asks_for_less(handle: Any, n: tuple[int, int], batch: tuple[int, int],
                                              case: str) -> None:
    small, large = sorted(n), sorted(batch)
    c = BY_NAME[case]
    assert query(handle, c, small[0], large[0]) <= query(handle, c, small[1], large[1])


def test_large_problems_ask_for_their_lapack_workspace(handle: Any) -> None:
    # Entries beyond the numba kernels go to LAPACK: the workspace holds the argument cells and the
    # work arrays the routines are given (growing with n), not one matrix per chunk.  (Per batch the
    # size may drop where entries start to run one at a time, each threaded: one chunk's scratch.)
    for name in ("getrf", "potrf", "geqrf", "gels", "syevd", "gesvd"):
        c = BY_NAME[name]
        sizes = [query(handle, c, n, 1) for n in (70, 150, 300)]
        assert 0 < sizes[0] <= sizes[1] <= sizes[2], (name, sizes)
    # The running maximum of a query spans routines, as rocBLAS's does.
    blas.start_device_memory_size_query(handle)
    try:
        assert _getrf(handle, 30, 100, {}) is RocblasStatus.size_increased
        assert _getrf(handle, 5, 100, {}) is RocblasStatus.size_unchanged
        assert _syev("syevd")(handle, 400, 1, {}) is RocblasStatus.size_increased
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == max(query(handle, BY_NAME["getrf"], 30, 100), query(handle, BY_NAME["syevd"], 400, 1))


# --- user workspaces ----------------------------------------------------------------------------------


@pytest.fixture
def own_handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def poisoned(size: int) -> int:
    """``size`` bytes of device memory, every byte 0xFF (NaN in every floating type, -1 in int32)."""
    ptr = rm.malloc(size)
    rm.memset(ptr, POISON_BYTE, size)
    return ptr


def snapshot(problem: Problem) -> dict[str, bytes]:
    return {k: problem.ops[k].get().tobytes() for k in problem.outputs}


N, BATCH = 5, 3


@pytest.mark.parametrize("case", tiered(CASES))
def test_an_exactly_sized_poisoned_user_workspace_gives_scipys_results(own_handle: Any, case: Case) -> None:
    batch = BATCH if case.batched else 1
    size = query(own_handle, case, N, batch)
    ws = poisoned(size)
    try:
        blas.set_workspace(own_handle, ws, size)
        problem = case.make(N, batch, np.random.default_rng(1))
        first = {k: v.get() for k, v in problem.ops.items()}
        assert case.call(own_handle, N, batch, problem.ops) is None
        problem.check(problem.ops)
        result = snapshot(problem)
        # Again on the workspace the first call left behind (and on the same inputs): the same bits.
        for k, v in first.items():
            problem.ops[k].set(v)
        case.call(own_handle, N, batch, problem.ops)
        assert snapshot(problem) == result
        assert blas.get_device_memory_size(own_handle) == size
    finally:
        blas.set_workspace(own_handle, 0, 0)
        rm.free(ws)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_user_workspace_one_byte_short_is_a_memory_error_that_writes_nothing(own_handle: Any,
                                                                                case: Case) -> None:
    batch = BATCH if case.batched else 1
    size = query(own_handle, case, N, batch)
    ws = poisoned(size)
    try:
        problem = case.make(N, batch, np.random.default_rng(2))
        before = snapshot(problem)
        for short in (size - 1, size // 2):
            blas.set_workspace(own_handle, ws, short)
            with pytest.raises(RocblasMemoryError, match=f"needs {size}"):
                case.call(own_handle, N, batch, problem.ops)
            rm.device_synchronize()
            assert snapshot(problem) == before
        # Quick returns need no workspace: an empty problem runs with any.
        if case.batched:
            assert case.call(own_handle, N, 0, problem.ops) is None
    finally:
        blas.set_workspace(own_handle, 0, 0)
        rm.free(ws)


# --- managed workspace in checking mode ---------------------------------------------------------------


@pytest.mark.parametrize("cases", [pytest.param(QUICK, id="quick"),
                                   pytest.param(tuple(IDS), id="all", marks=pytest.mark.slow)])
def test_checking_modes_poisoned_managed_workspace_gives_the_same_results(cases: tuple[str, ...]) -> None:
    # Checking mode fills every new allocation, the workspace the handle grows included, with 0xFF:
    # a kernel reading scratch it did not write would give NaN or a wild pivot.
    rng = np.random.default_rng(3)
    with rm.checking():
        h = blas.create_handle()
        try:
            for case in (BY_NAME[c] for c in cases):
                problem = case.make(N, BATCH if case.batched else 1, rng)
                case.call(h, N, BATCH if case.batched else 1, problem.ops)
                problem.check(problem.ops)
            # Grown on demand: a larger problem gets a larger managed workspace.
            small = blas.get_device_memory_size(h)
            need = query(h, BY_NAME["getrf"], 40, 200)
            problem = _make_getrf(40, 200, rng)
            _getrf(h, 40, 200, problem.ops)
            problem.check(problem.ops)
            assert blas.get_device_memory_size(h) >= max(small, need)
        finally:
            blas.destroy_handle(h)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["getrf", "getri", "potrs", "geqrf", "gels", "orgqr", "syevd", "sygv", "gesvd"])
def test_large_entries_on_an_exactly_sized_poisoned_workspace(own_handle: Any, name: str) -> None:
    case = BY_NAME[name]
    n, batch = 70, 2 if case.batched else 1
    size = query(own_handle, case, n, batch)
    ws = poisoned(size)
    try:
        blas.set_workspace(own_handle, ws, size)
        problem = case.make(n, batch, np.random.default_rng(4))
        case.call(own_handle, n, batch, problem.ops)
        problem.check(problem.ops)
    finally:
        blas.set_workspace(own_handle, 0, 0)
        rm.free(ws)


# --- one compilation per precision ----------------------------------------------------------------------

#: The numba kernels the cases above run (small entries).
KERNELS = [
    _kernels_lu.getrf_small, _kernels_lu.getrs_small, _kernels_lu.gesv_small, _kernels_lu.getri_small,
    _kernels_chol.small_entries, _kernels_chol.potrf_group, _kernels_qr.factor_small, _kernels_qr.gels_small,
    _kernels_qr.generate_small, _kernels_qr.apply_small, _kernels_eig.syev_entries, _kernels_eig.syevj_entries,
    _kernels_eig.sygv_entries, _kernels_eig.gesvd_entries, _kernels_eig.gesvdj_entries,
]


@pytest.mark.parametrize("cases", [pytest.param(QUICK, id="quick"),
                                   pytest.param(tuple(IDS), id="all", marks=pytest.mark.slow)])
def test_each_kernel_compiles_once_per_precision(handle: Any, cases: tuple[str, ...]) -> None:
    # The workspace argument (bytes, any layout) and the scratch carved from it add no
    # specialisation: every family, in two precisions and on operands of other sizes, still has one
    # compiled version per element type.
    rng = np.random.default_rng(5)
    for case in (BY_NAME[c] for c in cases):
        for n in (3, 6):
            problem = case.make(n, 2 if case.batched else 1, rng)
            case.call(handle, n, 2 if case.batched else 1, problem.ops)
    a = rm.to_device(np.ascontiguousarray(general(rng, 2, 4, 4).astype(np.complex128).transpose(0, 2, 1)))
    solver.zgetrf_strided_batched(handle, 4, 4, a, 4, 16, rm.empty((2, 4), np.int32), 4, rm.empty(2, np.int32), 2)
    if len(cases) == len(CASES):
        # Entries that overlap (here B, shared) run one at a time: gesv_small, in two precisions.
        for dtype, gesv in ((np.float64, solver.dgesv_strided_batched), (np.complex128, solver.zgesv_strided_batched)):
            a = rm.to_device(np.tile((np.eye(3) * 4 + 1).astype(dtype).ravel(), 2))
            gesv(handle, 3, 1, a, 3, 9, rm.empty((2, 3), np.int32), 3, rm.to_device(np.ones(3, dtype)), 3, 0,
                 rm.empty(2, np.int32), 2)
    rm.device_synchronize()
    for k in KERNELS:
        if not k.signatures:  # a kernel of the slow tier's cases
            assert len(cases) < len(CASES), k.__name__
            continue
        arrays = [[t for t in sig if hasattr(t, "ndim")] for sig in k.signatures]
        dtypes = {str(a[0].dtype) for a in arrays}
        assert len(k.signatures) == len(dtypes), (k.__name__, k.signatures)
    assert len(_kernels_lu.getrf_small.signatures) >= 2  # float64 and complex128
