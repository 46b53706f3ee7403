"""Bench cases of rocmath.sparse (discovered by ``rocmath.bench``) against scipy.sparse in the same run.

csrmv and the generic spmv on a 2D 5-point Laplacian and a random power-law graph (>= 10^7
nonzeros in the full suite) are memory bound: their rate is reported in GB/s of the bytes
the product must move (values, column indices, row pointers, x once, y written) and as a
fraction of the copy bandwidth.  ``csrmv_analysis_amortised`` times the analysis plus five
products.  spmm multiplies by 8 to 64 dense row-major columns.  csrgemm times its three stages
(buffer_size, nnz, compute, C allocated in between) for A A against scipy.sparse's ``A @ A``
(whose columns come out unsorted; rocSPARSE's, and so rocmath's, are sorted).  csr2csc transposes
the Laplacian and the graph (10^7 nonzeros) against scipy.sparse's ``tocsc``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

import rocmath as rm
from rocmath.bench import Problem, bench_case

from ._conversion import csr2csc_buffer_size, dcsr2csc
from ._descr import create_csr_descr, create_dnmat_descr, create_dnvec_descr
from ._extra import csrgemm_nnz, dcsrgemm, dcsrgemm_buffer_size
from ._generic import spmm, spmv
from ._handle import create_handle, create_mat_descr, create_mat_info, destroy_handle, set_stream
from ._level2 import dcsrmv, dcsrmv_analysis, spmv_bytes
from ._types import Action, Datatype, IndexType, Operation, Order, SpMMAlg, SpMMStage, SpMVAlg, SpMVStage

SEED = 20240601


def laplacian_2d(k: int) -> sp.csr_matrix:
    """The 5-point Laplacian of a k x k grid (k^2 rows, about 5 k^2 nonzeros)."""
    e = np.ones(k)
    t = sp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1])
    i = sp.identity(k)
    a = (sp.kron(i, t) + sp.kron(t, i)).tocsr()
    a.sort_indices()
    return a


def power_law_graph(n: int, avg_degree: int, seed: int = SEED) -> sp.csr_matrix:
    """A random directed graph whose out-degrees follow a power law (Pareto, exponent ~2.1), random targets."""
    rng = np.random.default_rng(seed)
    deg = np.minimum((rng.pareto(1.1, n) + 1) * (avg_degree / 10), n - 1).astype(np.int64)
    deg = np.maximum(1, (deg * (avg_degree * n / max(1, deg.sum()))).astype(np.int64))
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n, rows.size)
    a = sp.csr_matrix((rng.standard_normal(rows.size), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def _matrix(kind: str, nnz: int) -> sp.csr_matrix:
    if kind == "laplacian":
        return laplacian_2d(int(np.sqrt(nnz / 5)))
    return power_law_graph(nnz // 10, 10)


def _session() -> tuple[rm.Stream, Any, Any]:
    s = rm.Stream()
    h = create_handle()
    set_stream(h, s)

    def teardown() -> None:
        s.synchronize()
        destroy_handle(h)
        s.destroy()

    return s, h, teardown


def _csr_device(a: sp.csr_matrix) -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
    return rm.to_device(a.data), rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32))


_SPMV_SIZES = {"quick": [("laplacian", 10**6), ("graph", 10**6)],
               "full": [("laplacian", 10**7), ("graph", 10**7)]}


def _csrmv_case(size: tuple[str, int], analysed: bool) -> Problem:
    kind, nnz = size
    a = _matrix(kind, nnz)
    m, n = a.shape
    x = np.random.default_rng(SEED).standard_normal(n)
    s, h, teardown = _session()
    descr = create_mat_descr()
    dv, dp, dc = _csr_device(a)
    dx, dy = rm.to_device(x, s), rm.empty(m)
    info = None
    if analysed:
        info = create_mat_info()
        dcsrmv_analysis(h, Operation.none, m, n, a.nnz, descr, dv, dp, dc, info)

    def run() -> rm.DeviceArray:
        dcsrmv(h, Operation.none, m, n, a.nnz, 1.0, descr, dv, dp, dc, info, dx, 0.0, dy)
        return dy

    return Problem(run=run, reference=lambda: a @ x, bytes=spmv_bytes(m, n, a.nnz, 8, 4, False, False),
                   flops=2.0 * a.nnz, stream=s, tol=1e-12, label=f"{kind} {m}x{n} nnz={a.nnz} f64",
                   teardown=teardown, memory_bound=True)


@bench_case("sparse.csrmv_d", sizes=_SPMV_SIZES)
def csrmv_d(size: tuple[str, int]) -> Problem:
    """dcsrmv y := A x with csrmv_analysis (balanced row blocks) vs scipy.sparse A @ x."""
    return _csrmv_case(size, True)


@bench_case("sparse.csrmv_stream_d", sizes=_SPMV_SIZES)
def csrmv_stream_d(size: tuple[str, int]) -> Problem:
    """dcsrmv y := A x without analysis (rows split evenly) vs scipy.sparse A @ x."""
    return _csrmv_case(size, False)


@bench_case("sparse.csrmv_analysis_amortised_d", sizes={"quick": [("graph", 10**6)], "full": [("graph", 10**7)]})
def csrmv_analysis_amortised_d(size: tuple[str, int]) -> Problem:
    """csrmv_analysis + 5 analysed dcsrmv vs 5 scipy.sparse A @ x (the analysis must pay for itself)."""
    kind, nnz = size
    a = _matrix(kind, nnz)
    m, n = a.shape
    x = np.random.default_rng(SEED).standard_normal(n)
    s, h, teardown = _session()
    descr = create_mat_descr()
    dv, dp, dc = _csr_device(a)
    dx, dy = rm.to_device(x, s), rm.empty(m)

    def run() -> rm.DeviceArray:
        info = create_mat_info()
        dcsrmv_analysis(h, Operation.none, m, n, a.nnz, descr, dv, dp, dc, info)
        for _ in range(5):
            dcsrmv(h, Operation.none, m, n, a.nnz, 1.0, descr, dv, dp, dc, info, dx, 0.0, dy)
        return dy

    def reference() -> np.ndarray:
        for _ in range(4):
            a @ x
        return a @ x

    return Problem(run=run, reference=reference, bytes=5 * spmv_bytes(m, n, a.nnz, 8, 4, False, False),
                   flops=10.0 * a.nnz, stream=s, tol=1e-12, label=f"{kind} nnz={a.nnz} analysis+5",
                   teardown=teardown, memory_bound=True)


@bench_case("sparse.spmv_d", sizes=_SPMV_SIZES)
def spmv_d(size: tuple[str, int]) -> Problem:
    """generic spmv (CSR, default algorithm, preprocessed) y := A x vs scipy.sparse A @ x."""
    kind, nnz = size
    a = _matrix(kind, nnz)
    m, n = a.shape
    x = np.random.default_rng(SEED).standard_normal(n)
    s, h, teardown = _session()
    dv, dp, dc = _csr_device(a)
    dx, dy = rm.to_device(x, s), rm.empty(m)
    mat = create_csr_descr(m, n, a.nnz, dp, dc, dv, IndexType.i32, IndexType.i32, 0, Datatype.f64_r)
    vx, vy = create_dnvec_descr(n, dx, Datatype.f64_r), create_dnvec_descr(m, dy, Datatype.f64_r)
    args = (h, Operation.none, 1.0, mat, vx, 0.0, vy, Datatype.f64_r, SpMVAlg.default)
    size_b = spmv(*args, SpMVStage.buffer_size)
    tmp = rm.empty(max(1, size_b), np.uint8)
    spmv(*args, SpMVStage.preprocess, None, tmp)

    def run() -> rm.DeviceArray:
        spmv(*args, SpMVStage.compute, None, tmp)
        return dy

    return Problem(run=run, reference=lambda: a @ x, bytes=spmv_bytes(m, n, a.nnz, 8, 4, False, False),
                   flops=2.0 * a.nnz, stream=s, tol=1e-12, label=f"{kind} nnz={a.nnz} f64", teardown=teardown,
                   memory_bound=True)


@bench_case("sparse.spmm_d", sizes={"quick": [("laplacian", 10**6, 8)],
                                    "full": [("laplacian", 10**6, 8), ("laplacian", 10**6, 9),
                                             ("laplacian", 10**6, 64), ("graph", 10**6, 8),
                                             ("graph", 10**6, 9), ("graph", 10**6, 64)]})
def spmm_d(size: tuple[str, int, int]) -> Problem:
    """generic spmm C := A B with a row-major dense B of 8..64 columns (9: the panels overlap) vs scipy.sparse A @ B."""
    kind, nnz, ncols = size
    a = _matrix(kind, nnz)
    m, n = a.shape
    b = np.random.default_rng(SEED).standard_normal((n, ncols))
    s, h, teardown = _session()
    dv, dp, dc = _csr_device(a)
    dB, dC = rm.to_device(b, s), rm.empty((m, ncols))
    mat = create_csr_descr(m, n, a.nnz, dp, dc, dv, IndexType.i32, IndexType.i32, 0, Datatype.f64_r)
    mb = create_dnmat_descr(n, ncols, ncols, dB, Datatype.f64_r, Order.row)
    mc = create_dnmat_descr(m, ncols, ncols, dC, Datatype.f64_r, Order.row)
    args = (h, Operation.none, Operation.none, 1.0, mat, mb, 0.0, mc, Datatype.f64_r, SpMMAlg.default)

    def run() -> rm.DeviceArray:
        spmm(*args, SpMMStage.compute)
        return dC

    return Problem(run=run, reference=lambda: a @ b, flops=2.0 * a.nnz * ncols,
                   bytes=float(a.nnz * 12 + (n + m) * ncols * 8), stream=s, tol=1e-12,
                   label=f"{kind} nnz={a.nnz} x {ncols} cols f64", teardown=teardown)


def _csr_error(actual: Any, expected: sp.csr_matrix | sp.csc_matrix) -> float:
    """Max relative error of a (values, pointers, indices) result against a scipy CSR (or CSC) matrix (any
    index order within a row)."""
    val, ptr, ind = actual
    ref = expected.copy()
    ref.sort_indices()
    if not (np.array_equal(ptr, ref.indptr) and np.array_equal(ind, ref.indices)):
        return float("inf")
    return float(np.abs(val - ref.data).max() / max(np.abs(ref.data).max(), 1e-300)) if ref.nnz else 0.0


@bench_case("sparse.csrgemm_d", sizes={"quick": [("laplacian", 10**5), ("graph", 10**5)],
                                       "full": [("laplacian", 10**6), ("graph", 10**6)]})
def csrgemm_d(size: tuple[str, int]) -> Problem:
    """dcsrgemm C := A A (buffer_size, nnz, compute; sorted columns, as rocSPARSE's output) vs scipy.sparse
    A @ A with its columns sorted (scipy's product leaves them unsorted: the same result needs the sort)."""
    kind, nnz = size
    a = _matrix(kind, nnz)
    m = a.shape[0]
    s, h, teardown = _session()
    descr = create_mat_descr()
    dv, dp, dc = _csr_device(a)

    def run() -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
        info = create_mat_info()
        size_b = dcsrgemm_buffer_size(h, Operation.none, Operation.none, m, m, m, 1.0, descr, a.nnz, dp, dc, descr,
                                      a.nnz, dp, dc, None, descr, 0, None, None, info)
        tmp = rm.empty(max(1, size_b), np.uint8)
        cp = rm.empty(m + 1, np.int32)
        nnz_c = csrgemm_nnz(h, Operation.none, Operation.none, m, m, m, descr, a.nnz, dp, dc, descr, a.nnz, dp, dc,
                            descr, 0, None, None, descr, cp, None, info, tmp)
        cv, ci = rm.empty(nnz_c), rm.empty(nnz_c, np.int32)
        dcsrgemm(h, Operation.none, Operation.none, m, m, m, 1.0, descr, a.nnz, dv, dp, dc, descr, a.nnz, dv, dp, dc,
                 None, descr, 0, None, None, None, descr, cv, cp, ci, info, tmp)
        return cv, cp, ci

    products = float(np.diff(a.indptr)[a.indices].sum())
    return Problem(run=run, reference=lambda: (a @ a).sorted_indices(), check=_csr_error, flops=2.0 * products,
                   stream=s, tol=1e-12,
                   label=f"{kind} nnz={a.nnz} A*A f64", teardown=teardown)


@bench_case("sparse.csr2csc_d", sizes=_SPMV_SIZES)
def csr2csc_d(size: tuple[str, int]) -> Problem:
    """dcsr2csc (numeric: values, row indices and column pointers; buffer size asked and allocated
    once) vs scipy.sparse ``tocsc``."""
    kind, nnz = size
    a = _matrix(kind, nnz)
    m, n = a.shape
    s, h, teardown = _session()
    dv, dp, dc = _csr_device(a)
    tmp = rm.empty(max(1, csr2csc_buffer_size(h, m, n, a.nnz, dp, dc, Action.numeric)), np.uint8)
    cv, ci, cp = rm.empty(a.nnz), rm.empty(a.nnz, np.int32), rm.empty(n + 1, np.int32)

    def run() -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
        dcsr2csc(h, m, n, a.nnz, dv, dp, dc, cv, ci, cp, Action.numeric, 0, tmp)
        return cv, cp, ci

    return Problem(run=run, reference=lambda: a.tocsc(), check=_csr_error, stream=s, tol=0.0,
                   bytes=float(a.nnz * 2 * (8 + 4) + 4 * (m + n)), label=f"{kind} nnz={a.nnz} f64",
                   teardown=teardown)


# --- solvers ----------------------------------------------------------------------------------------


def _lower_problem(kind: str, nnz: int) -> sp.csr_matrix:
    """The lower triangle (diagonal included) of the Laplacian, or of a power-law graph with a dominant diagonal."""
    a = _matrix(kind, 2 * nnz)
    if kind != "laplacian":
        a = a + sp.diags(np.abs(a).sum(axis=1).A1 + 1.0)
    low = sp.tril(a).tocsr()
    low.sort_indices()
    return low


@bench_case("sparse.csrsv_d", sizes={"quick": [("laplacian", 10**5), ("graph", 10**5)],
                                     "full": [("laplacian", 10**6), ("graph", 10**6)]})
def csrsv_d(size: tuple[str, int]) -> Problem:
    """dcsrsv_solve (level-scheduled, analysed once beforehand) of a lower triangle vs
    scipy.sparse.linalg.spsolve_triangular."""
    from scipy.sparse.linalg import spsolve_triangular

    from ._solve import dcsrsv_analysis, dcsrsv_buffer_size, dcsrsv_solve
    from ._types import AnalysisPolicy, SolvePolicy

    kind, nnz = size
    a = _lower_problem(kind, nnz)
    m = a.shape[0]
    x = np.random.default_rng(SEED).standard_normal(m)
    s, h, teardown = _session()
    descr, info = create_mat_descr(), create_mat_info()
    dv, dp, dc = _csr_device(a)
    dx, dy = rm.to_device(x, s), rm.empty(m)
    tmp = rm.empty(max(1, dcsrsv_buffer_size(h, Operation.none, m, a.nnz, descr, dv, dp, dc, info)), np.uint8)
    dcsrsv_analysis(h, Operation.none, m, a.nnz, descr, dv, dp, dc, info, AnalysisPolicy.force, SolvePolicy.auto,
                    tmp)

    def run() -> rm.DeviceArray:
        dcsrsv_solve(h, Operation.none, m, a.nnz, 1.0, descr, dv, dp, dc, info, dx, dy, SolvePolicy.auto, tmp)
        return dy

    return Problem(run=run, reference=lambda: spsolve_triangular(a, x, lower=True), flops=2.0 * a.nnz,
                   bytes=float(a.nnz * 12 + m * 36), stream=s, tol=1e-10, teardown=teardown,
                   label=f"{kind} lower triangle n={m} nnz={a.nnz} f64")


@bench_case("sparse.gtsv_no_pivot_strided_batch_d", sizes={"quick": [(64, 2000), (100000, 4)],
                                                           "full": [(64, 20000), (512, 4000), (1000000, 4)]})
def gtsv_no_pivot_strided_batch_d(size: tuple[int, int]) -> Problem:
    """dgtsv_no_pivot_strided_batch (batch_count systems of size m) vs a loop of scipy.linalg.solve_banded."""
    from scipy.linalg import solve_banded

    from ._solve import dgtsv_no_pivot_strided_batch, dgtsv_no_pivot_strided_batch_buffer_size

    m, count = size
    rng = np.random.default_rng(SEED)
    dl, du = rng.standard_normal((count, m)), rng.standard_normal((count, m))
    d, x = rng.standard_normal((count, m)) + 5.0, rng.standard_normal((count, m))
    s, h, teardown = _session()
    ddl, dd, ddu = rm.to_device(dl, s), rm.to_device(d, s), rm.to_device(du, s)
    rhs = rm.to_device(x, s)
    tmp = rm.empty(max(1, dgtsv_no_pivot_strided_batch_buffer_size(h, m, ddl, dd, ddu, rhs, count, m)), np.uint8)
    bands = np.zeros((count, 3, m))
    bands[:, 0, 1:], bands[:, 1], bands[:, 2, :-1] = du[:, :-1], d, dl[:, 1:]

    def run() -> rm.DeviceArray:
        dx = rhs.copy(stream=s)  # solved in place: a fresh right-hand side each run (scipy copies too)
        dgtsv_no_pivot_strided_batch(h, m, ddl, dd, ddu, dx, count, m, tmp)
        return dx

    def reference() -> np.ndarray:
        return np.stack([solve_banded((1, 1), bands[b], x[b], check_finite=False) for b in range(count)])

    return Problem(run=run, reference=reference, flops=8.0 * m * count, bytes=float(6 * 8 * m * count), stream=s,
                   tol=1e-10, teardown=teardown, label=f"{count} systems of size {m} f64", memory_bound=True)


# --- the array layer ----------------------------------------------------------------------------------


@bench_case("sparse.coo_tocsr_d", sizes={"quick": [10**6], "full": [10**7]})
def coo_tocsr_d(nnz: int) -> Problem:
    """rocmath.sparse.coo_matrix.tocsr on the device (rows grouped, sorted and merged: duplicates summed) vs
    scipy.sparse's coo tocsr, on nnz entries at random positions of an (nnz / 10) square matrix, one in ten
    a duplicate of an earlier one."""
    from ._matrix import coo_matrix

    rng = np.random.default_rng(SEED)
    m = nnz // 10
    rows, cols = rng.integers(0, m, nnz).astype(np.int32), rng.integers(0, m, nnz).astype(np.int32)
    dup = rng.random(nnz) < 0.1
    source = rng.integers(0, nnz, int(dup.sum()))
    rows[dup], cols[dup] = rows[source], cols[source]
    val = rng.standard_normal(nnz)
    host = sp.coo_matrix((val, (rows, cols)), shape=(m, m))
    s = rm.Stream()
    with s:
        dev = coo_matrix((val, (rows, cols)), (m, m))

    def run() -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
        with s:
            c = dev.tocsr()
        return c.data, c.indptr, c.indices

    return Problem(run=run, reference=lambda: host.tocsr(), check=_csr_error, stream=s, tol=1e-12,
                   bytes=float(nnz * (4 + 4 + 8) * 3), label=f"{m}x{m} nnz={nnz} f64", teardown=s.destroy)
