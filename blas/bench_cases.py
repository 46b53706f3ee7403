"""Bench cases of rocmath.blas (discovered by ``rocmath.bench``): Level-3 against numpy/scipy.

Each case times the rocBLAS call on its handle's stream (plus the synchronize) against
the same operation on the same data on the host: ``np.matmul`` for gemm,
``scipy.linalg.solve_triangular`` for trsm.  GFLOP/s count real flops (2mnk for gemm,
m^2 n for a left trsm).  The quick sizes keep the quick suite fast; the full suite
reaches the sizes rocSOLVER's blocked factorizations work at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import rocmath as rm
from rocmath.bench import Problem, bench_case

from . import create_handle, destroy_handle, set_stream
from .level3 import dgemm, dgemm_strided_batched, dtrsm

SEED = 20240601


def _session() -> tuple[rm.Stream, Any, Any]:
    """A stream, a handle on it, and the teardown freeing both (after the queued work)."""
    s = rm.Stream()
    h = create_handle()
    set_stream(h, s)

    def teardown() -> None:
        s.synchronize()
        destroy_handle(h)
        s.destroy()

    return s, h, teardown


@bench_case("blas.gemm_d", sizes={"quick": [512], "full": [512, 1024, 2048]})
def gemm_d(n: int) -> Problem:
    """dgemm N N n x n x n, beta = 0 (column-major device data) vs np.matmul on the same host data."""
    rng = np.random.default_rng(SEED)
    a, b = np.asfortranarray(rng.standard_normal((n, n))), np.asfortranarray(rng.standard_normal((n, n)))
    s, h, teardown = _session()
    da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.empty((n, n), order="F")

    def run() -> rm.DeviceArray:
        dgemm(h, "N", "N", n, n, n, 1.0, da.ptr, n, db.ptr, n, 0.0, dc.ptr, n)
        return dc

    return Problem(run=run, reference=lambda: np.matmul(a, b), flops=2.0 * n**3, bytes=3 * 8 * n * n, stream=s,
                   tol=1e-12, label=f"{n}x{n}x{n} f64", teardown=teardown)


@bench_case("blas.gemm_strided_batched_d", sizes={"quick": [(10000, 8)], "full": [(10000, 8), (2000, 32)]})
def gemm_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dgemm_strided_batched N N of many small matrices vs np.matmul on the (batch, n, n) stack."""
    count, n = size
    rng = np.random.default_rng(SEED)
    a, b = rng.standard_normal((count, n, n)), rng.standard_normal((count, n, n))
    s, h, teardown = _session()
    # Entry e column-major on the device: store the transposes row-major.
    da = rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)), s)
    db = rm.to_device(np.ascontiguousarray(b.transpose(0, 2, 1)), s)
    dc = rm.empty((count, n, n))

    def run() -> rm.DeviceArray:
        dgemm_strided_batched(h, "N", "N", n, n, n, 1.0, da.ptr, n, n * n, db.ptr, n, n * n, 0.0, dc.ptr, n, n * n,
                              count)
        return dc

    return Problem(run=run, reference=lambda: np.matmul(a, b), result=lambda c: c.get().transpose(0, 2, 1),
                   flops=2.0 * count * n**3, bytes=3 * 8 * count * n * n, stream=s, tol=1e-12,
                   label=f"{count} x {n}x{n} f64", teardown=teardown)


@bench_case("blas.trsm_d", sizes={"quick": [256], "full": [256, 1024, 2048]})
def trsm_d(n: int) -> Problem:
    """dtrsm left lower n x n, n right-hand sides (B restored by a device copy each call) vs
    scipy.linalg.solve_triangular."""
    import scipy.linalg

    rng = np.random.default_rng(SEED)
    low = np.asfortranarray(np.tril(rng.standard_normal((n, n))) + n * np.eye(n))  # well conditioned
    rhs = np.asfortranarray(rng.standard_normal((n, n)))
    s, h, teardown = _session()
    dl, db = rm.to_device(low, s), rm.to_device(rhs, s)
    dx = rm.empty((n, n), order="F")

    def run() -> rm.DeviceArray:
        rm.memcpy_async(dx.ptr, db.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dtrsm(h, "L", "L", "N", "N", n, n, 1.0, dl.ptr, n, dx.ptr, n)
        return dx

    return Problem(run=run, reference=lambda: scipy.linalg.solve_triangular(low, rhs, lower=True),
                   flops=float(n) ** 3, bytes=3 * 8 * n * n, stream=s, tol=1e-10, label=f"{n}x{n} f64",
                   teardown=teardown)


#: Level-3 routines of the ``blas.level3_d`` case.
LEVEL3 = ("gemm", "symm", "syrk", "trmm", "trsm")


@bench_case("blas.level3_d", sizes={"quick": [("gemm", 32)], "full": [(name, n) for n in (32, 128) for name in LEVEL3]})
def level3_d(size: tuple[str, int]) -> Problem:
    """Level-3 routines on one n x n column-major matrix a call, where a call's fixed cost shows:
    dgemm N N, dsymm left upper, dsyrk upper N, dtrmm and dtrsm left upper N non-unit (alpha 1,
    beta 0) vs scipy.linalg.blas (OpenBLAS) on the same host data.  trsm overwrites B, restored
    (untimed) before each call; syrk's upper triangles are compared."""
    import scipy.linalg.blas as sblas

    from . import level3 as l3

    name, n = size
    rng = np.random.default_rng(SEED)
    a, b = rng.standard_normal((n, n)), np.asfortranarray(rng.standard_normal((n, n)))
    a = np.asfortranarray(np.triu(a) + n * np.eye(n) if name[:2] == "tr" else a + a.T if name == "symm" else a)
    s, h, teardown = _session()
    da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.to_device(np.zeros((n, n), order="F"), s)
    calls: dict[str, tuple[Any, Any]] = {
        "gemm": (lambda: l3.dgemm(h, "N", "N", n, n, n, 1.0, da, n, db, n, 0.0, dc, n), lambda: sblas.dgemm(1.0, a, b)),
        "symm": (lambda: l3.dsymm(h, "L", "U", n, n, 1.0, da, n, db, n, 0.0, dc, n), lambda: sblas.dsymm(1.0, a, b)),
        "syrk": (lambda: l3.dsyrk(h, "U", "N", n, n, 1.0, da, n, 0.0, dc, n), lambda: sblas.dsyrk(1.0, a)),
        "trmm": (lambda: l3.dtrmm(h, "L", "U", "N", "N", n, n, 1.0, da, n, db, n, dc, n),
                 lambda: sblas.dtrmm(1.0, a, b)),
        "trsm": (lambda: l3.dtrsm(h, "L", "U", "N", "N", n, n, 1.0, da, n, db, n), lambda: sblas.dtrsm(1.0, a, b)),
    }
    call, reference = calls[name]
    result = db if name == "trsm" else dc
    extra: dict[str, Any] = {}
    if name == "trsm":
        extra["restore"] = _restore(s, db)
    elif name == "syrk":
        extra["check"] = _first_only(np.triu)

    def run() -> rm.DeviceArray:
        call()
        return result

    return Problem(run=run, reference=reference, flops=(2.0 if name in ("gemm", "symm") else 1.0) * n**3,
                   bytes=3 * 8.0 * n * n, stream=s, tol=1e-10, label=f"{name} {n} f64", teardown=teardown, **extra)


# --- Level 1: memory bound, against the same numpy expression --------------------------------------


@bench_case("blas.axpy_d", sizes={"quick": [1 << 20], "full": [1 << 16, 1 << 20, 10**7]})
def axpy_d(n: int) -> Problem:
    """daxpy y := 2x + y (y restored by the reference's own copy) vs numpy ``y += 2 * x``."""
    from .level1 import daxpy

    rng = np.random.default_rng(SEED)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    s, h, teardown = _session()
    dx, dy = rm.to_device(x, s), rm.to_device(y, s)
    hy = y.copy()

    def run() -> rm.DeviceArray:
        daxpy(h, n, 2.0, dx, 1, dy, 1)
        return dy

    def reference() -> np.ndarray:
        hy[...] += 2.0 * x
        return hy

    # Both sides accumulate run after run; compare the first call of each (the runner checks the cold run).
    return Problem(run=run, reference=reference, flops=2.0 * n, bytes=3 * 8 * n, stream=s, tol=1e-12,
                   label=f"{n} f64", teardown=teardown, check=_first_only(), memory_bound=True)


def _first_only(view: Any = None) -> Any:
    """A check comparing only the first result pair (later ones accumulate differently), the
    rocmath result through ``view`` if given (the stored triangle of a symmetric update)."""
    from rocmath.bench import max_rel_error

    seen: list[float] = []

    def check(actual: Any, expected: Any) -> float:
        if not seen:
            pair = (actual, expected) if view is None else (view(actual), view(expected))
            seen.append(max_rel_error(*pair))
        return seen[0]

    return check


@bench_case("blas.saxpy_graph_replay", sizes={"quick": [100], "full": [100]})
def saxpy_graph_replay(calls: int) -> Problem:
    """Per-call overhead through a graph: ``calls`` saxpy on 16 elements captured once (rocmath.graph), the
    graph launched plus synchronize, vs as many scipy.linalg.blas.saxpy calls (compare blas.saxpy_tiny_overhead:
    a replay skips the argument checks and plan lookups)."""
    import scipy.linalg.blas as sblas

    from .level1 import saxpy

    n = 16
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    s, h, teardown = _session()
    dx, dy = rm.to_device(x, s), rm.to_device(y, s)
    s.synchronize()
    s.begin_capture()
    for _ in range(calls):
        saxpy(h, n, 2.0, dx, 1, dy, 1)
    replay = s.end_capture().instantiate()
    hy = [y.copy()]

    def reference() -> np.ndarray:
        for _ in range(calls):
            hy[0] = sblas.saxpy(x, hy[0], a=2.0)
        return hy[0]

    return Problem(run=lambda: (replay.launch(s), dy)[1], reference=reference, flops=2.0 * n * calls,
                   bytes=12.0 * n * calls, stream=s, tol=1e-5, label=f"{calls} x {n} f32", teardown=teardown,
                   check=_first_only())


@bench_case("blas.dot_d", sizes={"quick": [1 << 20], "full": [1 << 16, 1 << 20, 10**7]})
def dot_d(n: int) -> Problem:
    """ddot (host pointer mode: returns the value once computed, timed without a synchronize after it,
    as it is called) vs ``np.dot``."""
    return _dot_problem(n, np.dot)


@bench_case("blas.dot_d_vs_scipy_blas", sizes={"full": [1 << 20, 10**7]})
def dot_d_vs_scipy_blas(n: int) -> Problem:
    """ddot vs scipy.linalg.blas.ddot (OpenBLAS's ddot through SciPy's BLAS wrapper)."""
    import scipy.linalg.blas as sblas

    return _dot_problem(n, sblas.ddot)


def _dot_problem(n: int, reference: Callable[[np.ndarray, np.ndarray], Any]) -> Problem:
    from .level1 import ddot

    rng = np.random.default_rng(SEED)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    s, h, teardown = _session()
    dx, dy = rm.to_device(x, s), rm.to_device(y, s)
    return Problem(run=lambda: ddot(h, n, dx, 1, dy, 1), reference=lambda: reference(x, y), flops=2.0 * n,
                   bytes=2 * 8 * n, stream=s, tol=1e-12, label=f"{n} f64", teardown=teardown,
                   memory_bound=True, synchronous=True)


@bench_case("blas.nrm2_d", sizes={"quick": [1 << 20], "full": [1 << 16, 1 << 20, 10**7]})
def nrm2_d(n: int) -> Problem:
    """dnrm2 (overflow-safe: one pass, a scaled second one only if the sum of squares over- or
    underflows) vs ``np.linalg.norm``, the square root of a dot product (faster; infinite past 1e154)."""
    return _nrm2_problem(n, np.linalg.norm)


@bench_case("blas.nrm2_d_vs_scipy_blas", sizes={"full": [1 << 20, 10**7]})
def nrm2_d_vs_scipy_blas(n: int) -> Problem:
    """dnrm2 vs scipy.linalg.blas.dnrm2 (OpenBLAS's), the same overflow-safe norm."""
    import scipy.linalg.blas as sblas

    return _nrm2_problem(n, sblas.dnrm2)


def _nrm2_problem(n: int, reference: Callable[[np.ndarray], Any]) -> Problem:
    from .level1 import dnrm2

    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(n)
    s, h, teardown = _session()
    dx = rm.to_device(x, s)
    return Problem(run=lambda: dnrm2(h, n, dx, 1), reference=lambda: reference(x), flops=2.0 * n,
                   bytes=8 * n, stream=s, tol=1e-12, label=f"{n} f64", teardown=teardown,
                   memory_bound=True, synchronous=True)


@bench_case("blas.iamax_d", sizes={"quick": [1 << 20], "full": [1 << 20, 10**7]})
def iamax_d(n: int) -> Problem:
    """idamax (the first largest |x|, 1-based) vs scipy.linalg.blas.idamax (OpenBLAS), plus one."""
    import scipy.linalg.blas as sblas

    from .level1 import idamax

    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(n)
    s, h, teardown = _session()
    dx = rm.to_device(x, s)
    return Problem(run=lambda: idamax(h, n, dx, 1), reference=lambda: sblas.idamax(x) + 1, flops=0.0,
                   bytes=8 * n, stream=s, tol=0, label=f"{n} f64", teardown=teardown, memory_bound=True,
                   synchronous=True)


@bench_case("blas.gemm_s_vs_scipy_blas", sizes={"full": [1024, 2048]})
def gemm_s_vs_scipy_blas(n: int) -> Problem:
    """sgemm N N against scipy.linalg.blas.sgemm (OpenBLAS) on the same column-major data."""
    import scipy.linalg.blas as sblas

    from .level3 import sgemm

    rng = np.random.default_rng(SEED)
    a = np.asfortranarray(rng.standard_normal((n, n), dtype=np.float32))
    b = np.asfortranarray(rng.standard_normal((n, n), dtype=np.float32))
    s, h, teardown = _session()
    da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.empty((n, n), np.float32, order="F")

    def run() -> rm.DeviceArray:
        sgemm(h, "N", "N", n, n, n, 1.0, da, n, db, n, 0.0, dc, n)
        return dc

    return Problem(run=run, reference=lambda: sblas.sgemm(1.0, a, b), flops=2.0 * n**3, bytes=3 * 4 * n * n,
                   stream=s, tol=1e-4, label=f"{n}x{n}x{n} f32", teardown=teardown)


@bench_case("blas.gemm_strided_batched_small", sizes={"quick": [(100_000, 4)],
                                                      "full": [(100_000, 4), (100_000, 8), (100_000, 16),
                                                               (100_000, 32), (40_000, 64)]})
def gemm_strided_batched_small(size: tuple[int, int]) -> Problem:
    """sgemm_strided_batched of many small matrices vs np.matmul on the (batch, n, n) stack (64 x 64: 40,000
    entries, as 100,000 with the runner's result copies take more memory than this 24 GiB machine has)."""
    from .level3 import sgemm_strided_batched

    count, n = size
    rng = np.random.default_rng(SEED)
    a = rng.standard_normal((count, n, n), dtype=np.float32)
    b = rng.standard_normal((count, n, n), dtype=np.float32)
    s, h, teardown = _session()
    # Row-major entries are the transposes of column-major ones: C^T = B^T A^T.
    da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.empty((count, n, n), np.float32)

    def run() -> rm.DeviceArray:
        sgemm_strided_batched(h, "N", "N", n, n, n, 1.0, db, n, n * n, da, n, n * n, 0.0, dc, n, n * n, count)
        return dc

    return Problem(run=run, reference=lambda: np.matmul(a, b), flops=2.0 * count * n**3,
                   bytes=3 * 4 * count * n * n, stream=s, tol=1e-4, label=f"{count} x {n}x{n} f32",
                   teardown=teardown)


@bench_case("blas.gemv_d", sizes={"quick": [2048], "full": [2048, 3163, 4096]})  # 3163^2: 10^7 elements
def gemv_d(n: int) -> Problem:
    """dgemv N on an n x n column-major matrix vs numpy ``A @ x``."""
    from .level2 import dgemv

    rng = np.random.default_rng(SEED)
    a = np.asfortranarray(rng.standard_normal((n, n)))
    x = rng.standard_normal(n)
    s, h, teardown = _session()
    da, dx, dy = rm.to_device(a, s), rm.to_device(x, s), rm.empty(n)

    def run() -> rm.DeviceArray:
        dgemv(h, "N", n, n, 1.0, da, n, dx, 1, 0.0, dy, 1)
        return dy

    return Problem(run=run, reference=lambda: a @ x, flops=2.0 * n * n, bytes=8.0 * n * n, stream=s, tol=1e-10,
                   label=f"{n}x{n} f64", teardown=teardown, memory_bound=True)


#: Level-2 routines of the ``blas.level2_d`` case: name -> band width (None: full storage).
LEVEL2 = {"symv": None, "sbmv": 32, "trmv_N": None, "trmv_T": None, "trsv_N": None, "trsv_T": None,
          "gbmv": 32, "ger": None, "syr2": None}


@bench_case("blas.level2_d", sizes={"quick": [("symv", 1000), ("trsv_T", 1000)],
                                    "full": [(name, 3000) for name in LEVEL2]})
def level2_d(size: tuple[str, int]) -> Problem:
    """Level-2 routines on n x n column-major matrices (upper triangles, bands of 32 + 32
    diagonals) vs scipy.linalg.blas (OpenBLAS) on the same host data.  trmv and trsv overwrite
    x, restored (untimed) before each call; ger and syr2 accumulate into A on both sides (the
    first results are compared, syr2's upper triangles)."""
    import scipy.linalg.blas as sblas

    from . import level2 as l2

    name, n = size
    k = LEVEL2[name]
    rng = np.random.default_rng(SEED)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    if k is not None:  # LAPACK band storage: gbmv's kl + ku + 1 rows, sbmv's upper k + 1
        a = np.asfortranarray(rng.standard_normal((2 * k + 1 if name == "gbmv" else k + 1, n)))
    else:
        a = rng.standard_normal((n, n))
        a = np.asfortranarray(np.triu(a) + n * np.eye(n) if name[:2] == "tr" else a + a.T)
    s, h, teardown = _session()
    da, dx, dy = rm.to_device(a, s), rm.to_device(x, s), rm.to_device(y, s)
    ha = a.copy(order="F")  # what the updates accumulate into on the host
    lda, op, unit = a.shape[0], name[-1], "N"
    calls: dict[str, tuple[Any, Any]] = {
        "symv": (lambda: l2.dsymv(h, "U", n, 1.0, da, lda, dx, 1, 0.0, dy, 1), lambda: sblas.dsymv(1.0, a, x)),
        "sbmv": (lambda: l2.dsbmv(h, "U", n, k, 1.0, da, lda, dx, 1, 0.0, dy, 1), lambda: sblas.dsbmv(k, 1.0, a, x)),
        "gbmv": (lambda: l2.dgbmv(h, "N", n, n, k, k, 1.0, da, lda, dx, 1, 0.0, dy, 1),
                 lambda: sblas.dgbmv(n, n, k, k, 1.0, a, x)),
        "trmv": (lambda: l2.dtrmv(h, "U", op, unit, n, da, lda, dx, 1),
                 lambda: sblas.dtrmv(a, x, trans=int(op == "T"))),
        "trsv": (lambda: l2.dtrsv(h, "U", op, unit, n, da, lda, dx, 1),
                 lambda: sblas.dtrsv(a, x, trans=int(op == "T"))),
        "ger": (lambda: l2.dger(h, n, n, 1e-3, dx, 1, dy, 1, da, lda),
                lambda: sblas.dger(1e-3, x, y, a=ha, overwrite_a=1)),
        "syr2": (lambda: l2.dsyr2(h, "U", n, 1e-3, dx, 1, dy, 1, da, lda),
                 lambda: sblas.dsyr2(1e-3, x, y, a=ha, overwrite_a=1)),
    }
    call, reference = calls[name[:4]]
    result = {"tr": dx, "ge": da, "sy": da if name == "syr2" else dy}.get(name[:2], dy)
    extra: dict[str, Any] = {}
    if name[:2] == "tr":
        extra["restore"] = _restore(s, dx)
    elif name in ("ger", "syr2"):
        extra["check"] = _first_only(np.triu if name == "syr2" else None)

    def run() -> rm.DeviceArray:
        call()
        return result

    # Bytes: the matrix (the stored triangle or band) read once, and written too by the updates.
    stored = a.size / 2 if name in ("symv", "syr2") or name[:2] == "tr" else a.size
    moved = 8.0 * stored * (2 if name in ("ger", "syr2") else 1)
    return Problem(run=run, reference=reference, flops=2.0 * stored, bytes=moved,
                   stream=s, tol=1e-10, label=f"{name} {n} f64" + (f" k={k}" if k else ""), teardown=teardown,
                   memory_bound=True, **extra)


def _restore(s: rm.Stream, v: rm.DeviceArray) -> Any:
    """A Problem's ``restore``: ``v`` (a contiguous vector or matrix) gets its contents at this moment
    back (from a device copy in its own layout: the bytes are copied back as they are)."""
    pristine = v.copy(order="C" if v.c_contiguous else "F", stream=s)
    s.synchronize()
    return lambda: rm.memcpy_async(v.ptr, pristine.ptr, v.nbytes, rm.MemcpyKind.DeviceToDevice, stream=s)


@bench_case("blas.saxpy_tiny_overhead", sizes={"quick": [16], "full": [16]})
def saxpy_tiny_overhead(n: int) -> Problem:
    """Per-call overhead: saxpy on 16 elements plus synchronize vs scipy.linalg.blas.saxpy."""
    import scipy.linalg.blas as sblas

    from .level1 import saxpy

    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    s, h, teardown = _session()
    dx, dy = rm.to_device(x, s), rm.to_device(y, s)
    hy = y.copy()

    def run() -> rm.DeviceArray:
        saxpy(h, n, 2.0, dx, 1, dy, 1)
        return dy

    return Problem(run=run, reference=lambda: sblas.saxpy(x, hy, a=2.0), flops=2.0 * n, bytes=12.0 * n, stream=s,
                   tol=1e-5, label=f"{n} f32", teardown=teardown, check=_first_only())


@bench_case("blas.gemm_ex3_f8", sizes={"full": [1024, 2048]})
def gemm_ex3_f8(n: int) -> Problem:
    """gemm_ex3 of f8 (E4M3) matrices into f32, N N, beta = 0, against decoding the same codes to
    float32 and np.matmul: float8 in, float32 sums, as the device's MFMA units compute."""
    from rocmath.float8 import F8, from_f8, to_f8

    from ._types import ComputeType, Datatype
    from .beta import gemm_ex3

    f8, f32 = Datatype.f8_r, Datatype.f32_r
    rng = np.random.default_rng(SEED)
    a, b = (np.asfortranarray(to_f8(rng.standard_normal((n, n)), F8)) for _ in range(2))
    s, h, teardown = _session()
    da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.empty((n, n), np.float32, order="F")

    def run() -> rm.DeviceArray:
        gemm_ex3(h, "N", "N", n, n, n, 1.0, da, f8, n, db, f8, n, 0.0, dc, f32, n, dc, f32, n, ComputeType.f32, 0, 0, 0)
        return dc

    return Problem(run=run, reference=lambda: np.matmul(from_f8(a, F8), from_f8(b, F8)), flops=2.0 * n**3,
                   bytes=2 * n * n + 4 * n * n, stream=s, tol=1e-4, label=f"{n}x{n}x{n} f8->f32", teardown=teardown)
