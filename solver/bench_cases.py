"""Bench cases of rocmath.solver (discovered by ``rocmath.bench``): the LU family against scipy/numpy.

- many tiny matrices: ``dgetrf_strided_batched`` against a Python loop of
  ``scipy.linalg.lu_factor`` (the whole loop, every matrix), ``dgesv_strided_batched``
  against ``numpy.linalg.solve`` on the stacked arrays, ``dgetrs_strided_batched``
  against a Python loop of ``scipy.linalg.lu_solve``;
- one large matrix: ``dgetrf`` against ``scipy.linalg.lu_factor``.

The routines work in place.  For the batched cases, calls after the first factor
(or solve with) what the previous call left, which costs the same; only the first
call's result is compared with the reference (a full restore of 20,000 matrices
would cost more than the factorization).  The large getrf restores its matrix with
a device copy before each call, as ``lu_factor`` copies its input
(``overwrite_a=False``).  GFLOP/s count real flops (2n^3/3 for an LU, 2n^2 per
right-hand side for a solve).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import rocmath as rm
from rocmath.bench import Problem, bench_case, max_rel_error

SEED = 20240601


def _session() -> tuple[rm.Stream, Any, Any]:
    """A stream, a handle on it, and the teardown freeing both (after the queued work)."""
    from rocmath.blas import create_handle, destroy_handle, set_stream

    s = rm.Stream()
    h = create_handle()
    set_stream(h, s)

    def teardown() -> None:
        s.synchronize()
        destroy_handle(h)
        s.destroy()

    return s, h, teardown


def _restore(s: rm.Stream, *arrays: rm.DeviceArray) -> Any:
    """A Problem's ``restore`` for inputs the call overwrites: each of ``arrays`` gets its contents at
    this moment back (device copies, from a copy kept on the device)."""
    kept = [(a, a.copy(stream=s)) for a in arrays]  # (C-contiguous both: a copy of the bytes restores)
    s.synchronize()

    def restore() -> None:
        for a, pristine in kept:
            rm.memcpy_async(a.ptr, pristine.ptr, a.nbytes, rm.MemcpyKind.DeviceToDevice, stream=s)

    return restore


def _colmajor_stack(a: np.ndarray, s: rm.Stream) -> rm.DeviceArray:
    """A (count, n, n) stack on the device with entry e column-major (its transpose stored row-major)."""
    return rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)), s)


def _lu_check(actual: tuple[np.ndarray, np.ndarray], expected: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """Max relative error of the LU factors; inf unless every pivot is LAPACK's (0-based in scipy)."""
    lu = np.stack([e[0] for e in expected])
    piv = np.stack([e[1] for e in expected]) + 1
    return max_rel_error(actual[0], lu) if np.array_equal(actual[1], piv) else float("inf")


@bench_case("solver.getrf_strided_batched_d",
            sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16), (20000, 32), (20000, 64)]})
def getrf_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dgetrf_strided_batched on many small matrices vs a Python loop of scipy.linalg.lu_factor (all of them)."""
    import scipy.linalg

    from .lu import dgetrf_strided_batched

    count, n = size
    a = np.random.default_rng(SEED).standard_normal((count, n, n))
    s, h, teardown = _session()
    da, ipiv, info = _colmajor_stack(a, s), rm.empty((count, n), np.int32), rm.empty(count, np.int32)

    def run() -> None:
        dgetrf_strided_batched(h, n, n, da, n, n * n, ipiv, n, info, count)

    def reference() -> list[tuple[np.ndarray, np.ndarray]]:
        return [scipy.linalg.lu_factor(x, check_finite=False) for x in a]

    return Problem(run=run, reference=reference, result=lambda _: (da.get().transpose(0, 2, 1), ipiv.get()),
                   check=_lu_check, flops=2.0 * count * n**3 / 3, bytes=2 * 8 * count * n * n,
                   stream=s, tol=1e-12, label=f"{count} x {n}x{n} f64", teardown=teardown, restore=_restore(s, da))


@bench_case("solver.gesv_strided_batched_d",
            sizes={"quick": [(2000, 8)],
                   "full": [(100, 8), (100, 16), (20000, 8), (20000, 16), (20000, 32), (20000, 64)]})
def gesv_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dgesv_strided_batched, one right-hand side each, vs numpy.linalg.solve on the (count, n, n) stack.
    A batch of 100 is a small launch: it runs on the calling thread, in the kernels' serial twins."""
    from .lu import dgesv_strided_batched

    count, n = size
    rng = np.random.default_rng(SEED)
    a, b = rng.standard_normal((count, n, n)), rng.standard_normal((count, n, 1))
    s, h, teardown = _session()
    da, db = _colmajor_stack(a, s), rm.to_device(b, s)
    ipiv, info = rm.empty((count, n), np.int32), rm.empty(count, np.int32)

    def run() -> None:
        dgesv_strided_batched(h, n, 1, da, n, n * n, ipiv, n, db, n, n, info, count)

    return Problem(run=run, reference=lambda: np.linalg.solve(a, b), result=lambda _: db.get(),
                   check=max_rel_error, flops=count * (2.0 * n**3 / 3 + 2.0 * n * n),
                   bytes=8 * count * (2 * n * n + 2 * n), stream=s, tol=1e-8, label=f"{count} x {n}x{n} f64",
                   teardown=teardown, restore=_restore(s, da, db))


@bench_case("solver.getrs_strided_batched_d", sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 64)]})
def getrs_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dgetrs_strided_batched N, one right-hand side each, vs a Python loop of scipy.linalg.lu_solve."""
    import scipy.linalg

    from .lu import dgetrs_strided_batched

    count, n = size
    rng = np.random.default_rng(SEED)
    a, b = rng.standard_normal((count, n, n)), rng.standard_normal((count, n))
    factors = [scipy.linalg.lu_factor(x) for x in a]
    lu = np.stack([f[0] for f in factors])
    s, h, teardown = _session()
    da = _colmajor_stack(lu, s)
    ipiv = rm.to_device(np.stack([f[1] for f in factors]).astype(np.int32) + 1, s)
    db = rm.to_device(b, s)

    def run() -> None:
        dgetrs_strided_batched(h, "N", n, 1, da, n, n * n, ipiv, n, db, n, n, count)

    def reference() -> list[np.ndarray]:
        return [scipy.linalg.lu_solve(f, x, check_finite=False) for f, x in zip(factors, b, strict=True)]

    return Problem(run=run, reference=reference, result=lambda _: db.get(),
                   check=lambda x, ref: max_rel_error(x, np.stack(ref)), flops=2.0 * count * n * n,
                   bytes=8 * count * (n * n + 2 * n), stream=s, tol=1e-8, label=f"{count} x {n}x{n} f64",
                   teardown=teardown, restore=_restore(s, db))


@bench_case("solver.getrf_d", sizes={"quick": [512], "full": [2048]})
def getrf_d(n: int) -> Problem:
    """dgetrf on one n x n matrix (restored by a device copy each call) vs scipy.linalg.lu_factor (which copies)."""
    import scipy.linalg

    from .lu import dgetrf

    a = np.asfortranarray(np.random.default_rng(SEED).standard_normal((n, n)))
    s, h, teardown = _session()
    pristine, da = rm.to_device(a, s), rm.empty((n, n), order="F")
    ipiv, info = rm.empty(n, np.int32), rm.empty(1, np.int32)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dgetrf(h, n, n, da, n, ipiv, info)

    def reference() -> list[tuple[np.ndarray, np.ndarray]]:
        return [scipy.linalg.lu_factor(a, check_finite=False)]

    return Problem(run=run, reference=reference, result=lambda _: (da.get()[None], ipiv.get()[None]),
                   check=_lu_check, flops=2.0 * n**3 / 3, bytes=2 * 8 * n * n, stream=s, tol=1e-12,
                   label=f"{n}x{n} f64", teardown=teardown)


# --- the Householder (QR) family --------------------------------------------------------------------


def _qr_check(actual: tuple[np.ndarray, np.ndarray], expected: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """Max relative error of the factored matrices and of the Householder scalars (both unique)."""
    return max(max_rel_error(actual[0], np.stack([e[0] for e in expected])),
               max_rel_error(actual[1], np.stack([e[1] for e in expected])))


@bench_case("solver.geqrf_strided_batched_d",
            sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16), (20000, 32)]})
def geqrf_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dgeqrf_strided_batched on many small matrices vs a Python loop of scipy.linalg.qr(mode='raw')."""
    import scipy.linalg

    from .qr import dgeqrf_strided_batched

    count, n = size
    a = np.random.default_rng(SEED).standard_normal((count, n, n))
    s, h, teardown = _session()
    da, tau = _colmajor_stack(a, s), rm.empty((count, n))

    def run() -> None:
        dgeqrf_strided_batched(h, n, n, da, n, n * n, tau, n, count)

    def reference() -> list[tuple[np.ndarray, np.ndarray]]:
        return [scipy.linalg.qr(x, mode="raw", check_finite=False)[0] for x in a]

    return Problem(run=run, reference=reference, result=lambda _: (da.get().transpose(0, 2, 1), tau.get()),
                   check=_qr_check, flops=4.0 * count * n**3 / 3, bytes=2 * 8 * count * n * n,
                   stream=s, tol=1e-12, label=f"{count} x {n}x{n} f64", teardown=teardown, restore=_restore(s, da))


@bench_case("solver.geqrf_d", sizes={"quick": [512], "full": [2048]})
def geqrf_d(n: int) -> Problem:
    """dgeqrf on one n x n matrix (restored by a device copy each call) vs scipy.linalg.qr(mode='raw') (which
    copies)."""
    import scipy.linalg

    from .qr import dgeqrf

    a = np.asfortranarray(np.random.default_rng(SEED).standard_normal((n, n)))
    s, h, teardown = _session()
    pristine, da, tau = rm.to_device(a, s), rm.empty((n, n), order="F"), rm.empty(n)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dgeqrf(h, n, n, da, n, tau)

    def reference() -> list[tuple[np.ndarray, np.ndarray]]:
        return [scipy.linalg.qr(a, mode="raw", check_finite=False)[0]]

    return Problem(run=run, reference=reference, result=lambda _: (da.get()[None], tau.get()[None]),
                   check=_qr_check, flops=4.0 * n**3 / 3, bytes=2 * 8 * n * n, stream=s, tol=1e-10,
                   label=f"{n}x{n} f64", teardown=teardown)


# --- the Cholesky family ---------------------------------------------------------------------------
# Repeated calls factor what the previous call left.  The matrices are diagonally dominant by a
# factor 4, which the Hermitian matrix of a factor's triangle stays, so every call does the full
# (data-independent) work of a positive definite factorization; only the first result is checked.


def _dominant_spd(count: int, n: int) -> np.ndarray:
    """(count, n, n) symmetric matrices, diagonally dominant by a factor of 4."""
    x = np.random.default_rng(SEED).uniform(-1, 1, (count, n, n))
    return (x + x.transpose(0, 2, 1)) / 2 + 4 * n * np.eye(n)


def _lower_check(actual: np.ndarray, expected: Any) -> float:
    """Max relative error of the lower triangles (the other one holds the input, as cho_factor's)."""
    ref = np.stack([e[0] for e in expected]) if isinstance(expected, list) else expected
    return max_rel_error(np.tril(actual), np.tril(ref))


def _potrf_strided(count: int, n: int, reference: Any, what: str) -> Problem:
    from .cholesky import dpotrf_strided_batched

    a = _dominant_spd(count, n)
    s, h, teardown = _session()
    da, info = _colmajor_stack(a, s), rm.empty(count, np.int32)

    def run() -> None:
        dpotrf_strided_batched(h, "L", n, da, n, n * n, info, count)

    return Problem(run=run, reference=lambda: reference(a), result=lambda _: da.get().transpose(0, 2, 1),
                   check=_lower_check, flops=count * n**3 / 3, bytes=8 * count * n * (n + 1),
                   stream=s, tol=1e-12, label=f"{count} x {n}x{n} f64 {what}", teardown=teardown,
                   restore=_restore(s, da))


@bench_case("solver.potrf_strided_batched_d",
            sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16), (20000, 32), (20000, 64)]})
def potrf_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dpotrf_strided_batched (lower) on many small matrices vs a Python loop of scipy.linalg.cho_factor."""
    import scipy.linalg

    return _potrf_strided(*size, lambda a: [scipy.linalg.cho_factor(x, lower=True, check_finite=False) for x in a],
                          "vs cho_factor loop")


@bench_case("solver.potrf_strided_batched_d_numpy",
            sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16), (20000, 32), (20000, 64)]})
def potrf_strided_batched_d_numpy(size: tuple[int, int]) -> Problem:
    """dpotrf_strided_batched (lower) vs numpy.linalg.cholesky on the (count, n, n) stack."""
    return _potrf_strided(*size, np.linalg.cholesky, "vs numpy")


@bench_case("solver.potrf_d", sizes={"quick": [512], "full": [2048]})
def potrf_d(n: int) -> Problem:
    """dpotrf (lower) on one n x n matrix (restored by a device copy each call) vs scipy.linalg.cholesky
    (which copies)."""
    import scipy.linalg

    from .cholesky import dpotrf

    a = np.asfortranarray(_dominant_spd(1, n)[0])
    s, h, teardown = _session()
    pristine, da, info = rm.to_device(a, s), rm.empty((n, n), order="F"), rm.empty(1, np.int32)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dpotrf(h, "L", n, da, n, info)

    return Problem(run=run, reference=lambda: scipy.linalg.cholesky(a, lower=True, check_finite=False),
                   result=lambda _: da.get(), check=_lower_check, flops=n**3 / 3, bytes=8 * n * (n + 1), stream=s,
                   tol=1e-12, label=f"{n}x{n} f64", teardown=teardown)


@bench_case("solver.potrs_strided_batched_d", sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 64)]})
def potrs_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dpotrs_strided_batched (lower), one right-hand side each, vs a Python loop of scipy.linalg.cho_solve."""
    import scipy.linalg

    from .cholesky import dpotrs_strided_batched

    count, n = size
    a = _dominant_spd(count, n)
    b = np.random.default_rng(SEED + 1).standard_normal((count, n))
    factors = [scipy.linalg.cho_factor(x, lower=True, check_finite=False) for x in a]
    s, h, teardown = _session()
    da, db = _colmajor_stack(np.stack([f[0] for f in factors]), s), rm.to_device(b, s)

    def run() -> None:
        dpotrs_strided_batched(h, "L", n, 1, da, n, n * n, db, n, n, count)

    def reference() -> list[np.ndarray]:
        return [scipy.linalg.cho_solve(f, x, check_finite=False) for f, x in zip(factors, b, strict=True)]

    return Problem(run=run, reference=reference, result=lambda _: db.get(),
                   check=lambda x, ref: max_rel_error(x, np.stack(ref)), flops=2.0 * count * n * n,
                   bytes=8 * count * (n * n / 2 + 2 * n), stream=s, tol=1e-8, label=f"{count} x {n}x{n} f64",
                   teardown=teardown, restore=_restore(s, db))


# --- the symmetric eigenvalue and SVD family ----------------------------------------------------------


def _symmetric(count: int, n: int) -> np.ndarray:
    x = np.random.default_rng(SEED + 2).standard_normal((count, n, n))
    return (x + x.transpose(0, 2, 1)) / 2


def _values_check(actual: np.ndarray, expected: Any) -> float:
    """Max relative error of the eigen/singular values (unique; the vectors are not)."""
    return max_rel_error(actual, expected[0] if isinstance(expected, tuple) else expected)


@bench_case("solver.syevd_d", sizes={"quick": [128], "full": [512]})
def syevd_d(n: int) -> Problem:
    """dsyevd with eigenvectors on one n x n matrix (restored by a device copy each call) vs scipy.linalg.eigh."""
    import scipy.linalg

    from .eig import dsyevd

    a = np.asfortranarray(_symmetric(1, n)[0])
    s, h, teardown = _session()
    pristine, da = rm.to_device(a, s), rm.empty((n, n), order="F")
    d, e, info = rm.empty(n), rm.empty(n), rm.empty(1, np.int32)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dsyevd(h, 211, "L", n, da, n, d, e, info)

    return Problem(run=run, reference=lambda: scipy.linalg.eigh(a, check_finite=False), result=lambda _: d.get(),
                   check=_values_check, flops=4.0 * n**3 / 3 + 2.0 * n**3, bytes=2 * 8 * n * n, stream=s, tol=1e-10,
                   label=f"{n}x{n} f64", teardown=teardown)


@bench_case("solver.gesvd_d", sizes={"quick": [128], "full": [512]})
def gesvd_d(n: int) -> Problem:
    """dgesvd, all left and right vectors, on one n x n matrix (restored each call) vs scipy.linalg.svd."""
    import scipy.linalg

    from .eig import dgesvd

    a = np.asfortranarray(np.random.default_rng(SEED + 3).standard_normal((n, n)))
    s, h, teardown = _session()
    pristine, da = rm.to_device(a, s), rm.empty((n, n), order="F")
    sv, u, v, e, info = rm.empty(n), rm.empty((n, n), order="F"), rm.empty((n, n), order="F"), rm.empty(n), \
        rm.empty(1, np.int32)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        dgesvd(h, 191, 191, n, n, da, n, sv, u, n, v, n, e, 201, info)

    return Problem(run=run, reference=lambda: scipy.linalg.svd(a, check_finite=False)[1], result=lambda _: sv.get(),
                   check=_values_check, flops=12.0 * n**3, bytes=4 * 8 * n * n, stream=s, tol=1e-10,
                   label=f"{n}x{n} f64", teardown=teardown)


def _batched_eigen(size: tuple[int, int], jacobi: bool) -> Problem:
    from .eig import dsyev_strided_batched, dsyevj_strided_batched

    count, n = size
    a = _symmetric(count, n)
    s, h, teardown = _session()
    pristine, da = _colmajor_stack(a, s), rm.empty((count, n, n))
    w, e, info = rm.empty((count, n)), rm.empty((count, n)), rm.empty(count, np.int32)
    res, sweeps = rm.empty(count), rm.empty(count, np.int32)

    def run() -> None:
        rm.memcpy_async(da.ptr, pristine.ptr, 8 * count * n * n, rm.MemcpyKind.DeviceToDevice, stream=s)
        if jacobi:
            dsyevj_strided_batched(h, 252, 211, "L", n, da, n, n * n, 0.0, res, 100, sweeps, w, n, info, count)
        else:
            dsyev_strided_batched(h, 211, "L", n, da, n, n * n, w, n, e, n, info, count)

    return Problem(run=run, reference=lambda: np.linalg.eigh(a), result=lambda _: w.get(), check=_values_check,
                   flops=count * 6.0 * n**3, bytes=2 * 8 * count * n * n, stream=s, tol=1e-10,
                   label=f"{count} x {n}x{n} f64", teardown=teardown)


@bench_case("solver.syev_strided_batched_d", sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16)]})
def syev_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dsyev_strided_batched with eigenvectors on many small matrices vs numpy.linalg.eigh on the stack."""
    return _batched_eigen(size, jacobi=False)


@bench_case("solver.syevj_strided_batched_d", sizes={"quick": [(2000, 8)], "full": [(20000, 8), (20000, 16)]})
def syevj_strided_batched_d(size: tuple[int, int]) -> Problem:
    """dsyevj_strided_batched (sorted, with eigenvectors) on many small matrices vs numpy.linalg.eigh."""
    return _batched_eigen(size, jacobi=True)
