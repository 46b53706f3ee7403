"""rocmath.hip.hipsolver beyond LU/Cholesky/QR/SVD/syevd: batched Cholesky, potri, orgqr/ormqr, the reductions,
sygvd, the Jacobi routines with their parameters objects, and the out-of-place gels/gesv -- hip-python programs
cross-checked with NumPy/SciPy.

Each routine family has one checker: the default tier runs most in double precision (one compiled kernel
per routine) and the others' hip-python calls without a kernel (queries, empty problems, bad sizes); the
slow tier runs every checker in the remaining precisions.
"""

from __future__ import annotations

import ctypes
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla
from hip_util import assert_runs_ok, check, hip_check_source, to_device, to_host

from rocmath.hip import hip, hipblas, hipsolver

S = hipsolver.hipsolverStatus_t
LOWER = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_LOWER
UPPER = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_UPPER
OP = hipblas.hipblasOperation_t
SIDE = hipblas.hipblasSideMode_t
VECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR
NOVECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_NOVECTOR
DTYPE = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}


@pytest.fixture(scope="module")
def handle():
    h = check(hipsolver.hipsolverCreate())
    yield h
    check(hipsolver.hipsolverDestroy(h))


# --- helpers ------------------------------------------------------------------------------------------------


class Dev:
    """Device copies of host arrays, freed together."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []

    def put(self, a: np.ndarray) -> Any:
        self.ptrs.append(to_device(np.asfortranarray(a)))
        return self.ptrs[-1]

    def empty(self, nbytes: int) -> Any:
        self.ptrs.append(check(hip.hipMalloc(max(nbytes, 1))))
        return self.ptrs[-1]

    def info(self, count: int = 1) -> Any:
        return self.put(np.full(count, -7, np.int32))  # not zero: the routine must write it

    def free(self) -> None:
        for p in self.ptrs:
            check(hip.hipFree(p))


def fn(letter: str, family: str, batched: str = "") -> Callable[..., tuple[Any, ...]]:
    """The hipSOLVER function of ``family`` in precision ``letter`` (``_bufferSize`` with ``batched='_bufferSize'``)."""
    fam = hipsolver.FAMILIES[family]
    return getattr(hipsolver, f"hipsolver{letter * (2 if fam.twice else 1)}{fam.ops[letter]}{batched}")


def rand(letter: str, *shape: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if letter in "CZ":
        a = a + 1j * rng.standard_normal(shape)
    return np.asfortranarray(a.astype(DTYPE[letter]))


def hpd(letter: str, n: int, seed: int = 0) -> np.ndarray:
    """A Hermitian positive definite matrix."""
    m = rand(letter, n, n, seed=seed)
    return np.asfortranarray((m @ m.conj().T + n * np.eye(n)).astype(DTYPE[letter]))


def hermitian(letter: str, n: int, seed: int = 0) -> np.ndarray:
    m = rand(letter, n, n, seed=seed)
    return np.asfortranarray(((m + m.conj().T) / 2).astype(DTYPE[letter]))


def tol(letter: str) -> float:
    return 2e-4 if letter in "SC" else 1e-11


def real(letter: str) -> type:
    return np.float32 if letter in "SC" else np.float64


def ctrans(letter: str) -> Any:
    return OP.HIPBLAS_OP_C if letter in "CZ" else OP.HIPBLAS_OP_T


def host(d: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return to_host(d, np.zeros(shape, dtype, order="F"))


def infos(d: Any, count: int = 1) -> np.ndarray:
    return to_host(d, np.zeros(count, np.int32))


# --- one checker per family ---------------------------------------------------------------------------------


def check_potrf_potrs_batched(h: Any, L: str) -> None:
    n, nrhs, count = 4, 2, 3
    dev = Dev()
    mats = [hpd(L, n, seed=b) for b in range(count)]
    mats[1] = np.asfortranarray(np.diag(np.r_[1.0, -1.0, 1.0, 1.0]).astype(DTYPE[L]))  # not definite: info 2
    rhs = [rand(L, n, nrhs, seed=10 + b) for b in range(count)]
    A, B = [dev.put(m) for m in mats], [dev.put(r) for r in rhs]
    dA, dB = dev.put(np.array([int(p) for p in A], np.uint64)), dev.put(np.array([int(p) for p in B], np.uint64))
    info = dev.info(count)
    lwork = ctypes.c_int(-1)
    check(fn(L, "potrfBatched", "_bufferSize")(h, LOWER, n, dA, n, lwork, count))
    assert fn(L, "potrfBatched", "_bufferSize")(h, LOWER, n, dA, n, count) == (S.HIPSOLVER_STATUS_SUCCESS,
                                                                                lwork.value)
    work = dev.empty(lwork.value)
    check(fn(L, "potrfBatched")(h, LOWER, n, dA, n, work, lwork.value, info, count))
    np.testing.assert_array_equal(infos(info, count), [0, 2, 0])
    for b in (0, 2):
        lo = np.tril(host(A[b], (n, n), DTYPE[L]))
        np.testing.assert_allclose(lo @ lo.conj().T, mats[b], rtol=tol(L), atol=tol(L) * n)
    size = check(fn(L, "potrsBatched", "_bufferSize")(h, LOWER, n, nrhs, dA, n, dB, n, count))
    check(fn(L, "potrsBatched")(h, LOWER, n, nrhs, dA, n, dB, n, None, 0, info, count))
    assert size >= 0
    np.testing.assert_array_equal(infos(info, count), 0)  # hipSOLVER zeroes one info per problem
    for b in (0, 2):
        np.testing.assert_allclose(host(B[b], (n, nrhs), DTYPE[L]), np.linalg.solve(mats[b], rhs[b]),
                                   rtol=50 * tol(L), atol=50 * tol(L))
    dev.free()


def check_potri(h: Any, L: str) -> None:
    n = 5
    dev = Dev()
    A = hpd(L, n, seed=1)
    dA, info = dev.put(A), dev.info()
    check(fn(L, "potrf")(h, UPPER, n, dA, n, None, 0, info))
    lwork = check(fn(L, "potri", "_bufferSize")(h, UPPER, n, dA, n))
    check(fn(L, "potri")(h, UPPER, n, dA, n, dev.empty(lwork), lwork, info))
    assert infos(info)[0] == 0
    up = np.triu(host(dA, (n, n), DTYPE[L]))
    inverse = up + np.triu(up, 1).conj().T
    np.testing.assert_allclose(inverse @ A, np.eye(n), atol=20 * tol(L))
    dev.free()


def _qr(h: Any, L: str, dev: Dev, m: int, n: int) -> tuple[np.ndarray, Any, Any, Any]:
    A = rand(L, m, n, seed=2)
    dA, tau, info = dev.put(A), dev.empty(16 * n), dev.info()
    check(fn(L, "geqrf")(h, m, n, dA, m, tau, None, 0, info))
    return A, dA, tau, info


def check_orgqr(h: Any, L: str) -> None:
    m, n = 7, 4
    dev = Dev()
    A, dA, tau, info = _qr(h, L, dev, m, n)
    R = np.triu(host(dA, (m, n), DTYPE[L])[:n])
    lwork = ctypes.c_int(-1)
    check(fn(L, "orgqr", "_bufferSize")(h, m, n, n, dA, m, tau, lwork))
    check(fn(L, "orgqr")(h, m, n, n, dA, m, tau, None, 0, info))
    Q = host(dA, (m, n), DTYPE[L])
    assert infos(info)[0] == 0
    np.testing.assert_allclose(Q.conj().T @ Q, np.eye(n), atol=10 * tol(L))
    np.testing.assert_allclose(Q @ R, A, atol=10 * tol(L) * np.abs(A).max())
    dev.free()


def check_ormqr(h: Any, L: str) -> None:
    """Q^H A = [R; 0] (left), A^H Q = [R^H 0] (right) with Q from geqrf's reflectors."""
    m, n = 6, 4
    dev = Dev()
    A, dA, tau, info = _qr(h, L, dev, m, n)
    R = np.triu(host(dA, (m, n), DTYPE[L])[:n])
    C, CH = dev.put(A), dev.put(A.conj().T)
    lwork = check(fn(L, "ormqr", "_bufferSize")(h, SIDE.HIPBLAS_SIDE_LEFT, ctrans(L), m, n, n, dA, m, tau, C, m))
    check(fn(L, "ormqr")(h, SIDE.HIPBLAS_SIDE_LEFT, ctrans(L), m, n, n, dA, m, tau, C, m, dev.empty(lwork), lwork,
                         info))
    scale = 10 * tol(L) * np.abs(A).max()
    np.testing.assert_allclose(host(C, (m, n), DTYPE[L]), np.vstack([R, np.zeros((m - n, n))]), atol=scale)
    check(fn(L, "ormqr")(h, SIDE.HIPBLAS_SIDE_RIGHT, OP.HIPBLAS_OP_N, n, m, n, dA, m, tau, CH, n, None, 0, info))
    np.testing.assert_allclose(host(CH, (n, m), DTYPE[L]), np.hstack([R.conj().T, np.zeros((n, m - n))]), atol=scale)
    assert infos(info)[0] == 0
    dev.free()


def check_sytrd(h: Any, L: str) -> None:
    n = 6
    dev = Dev()
    A = hermitian(L, n, seed=3)
    dA, D, E, tau, info = dev.put(A), dev.empty(8 * n), dev.empty(8 * n), dev.empty(16 * n), dev.info()
    lwork = check(fn(L, "sytrd", "_bufferSize")(h, LOWER, n, dA, n, D, E, tau))
    check(fn(L, "sytrd")(h, LOWER, n, dA, n, D, E, tau, dev.empty(lwork), lwork, info))
    d, e = host(D, (n,), real(L)), host(E, (n - 1,), real(L))
    T = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(np.linalg.eigvalsh(T), np.linalg.eigvalsh(A), atol=20 * tol(L))
    assert infos(info)[0] == 0
    dev.free()


def check_gebrd(h: Any, L: str) -> None:
    m, n = 6, 4
    dev = Dev()
    A = rand(L, m, n, seed=4)
    dA, D, E, tq, tp, info = (dev.put(A), dev.empty(8 * n), dev.empty(8 * n), dev.empty(16 * n), dev.empty(16 * n),
                              dev.info())
    lwork = ctypes.c_int(-1)
    check(fn(L, "gebrd", "_bufferSize")(h, m, n, lwork))
    check(fn(L, "gebrd")(h, m, n, dA, m, D, E, tq, tp, None, 0, info))
    d, e = host(D, (n,), real(L)), host(E, (n - 1,), real(L))
    bidiagonal = np.diag(d) + np.diag(e, 1)  # upper: m >= n
    np.testing.assert_allclose(np.linalg.svd(bidiagonal, compute_uv=False), np.linalg.svd(A, compute_uv=False),
                               atol=20 * tol(L))
    assert infos(info)[0] == 0
    dev.free()


def check_sygvd(h: Any, L: str) -> None:
    """A x = l B x: eigenvalues as SciPy's, B-orthonormal eigenvectors."""
    n = 5
    dev = Dev()
    A, B = hermitian(L, n, seed=5), hpd(L, n, seed=6)
    dA, dB, W, info = dev.put(A), dev.put(B), dev.empty(8 * n), dev.info()
    itype = hipsolver.hipsolverEigType_t.HIPSOLVER_EIG_TYPE_1
    lwork = check(fn(L, "sygvd", "_bufferSize")(h, itype, VECTOR, UPPER, n, dA, n, dB, n, W))
    assert lwork >= np.dtype(real(L)).itemsize * n  # rocSOLVER's E is part of it
    check(fn(L, "sygvd")(h, itype, VECTOR, UPPER, n, dA, n, dB, n, W, dev.empty(lwork), lwork, info))
    w, V = host(W, (n,), real(L)), host(dA, (n, n), DTYPE[L])
    np.testing.assert_allclose(w, sla.eigh(A, B, eigvals_only=True), rtol=20 * tol(L), atol=20 * tol(L))
    np.testing.assert_allclose(V.conj().T @ B @ V, np.eye(n), atol=50 * tol(L))
    np.testing.assert_allclose(A @ V, B @ V * w, atol=50 * tol(L) * np.abs(A).max())
    assert infos(info)[0] == 0
    dev.free()


def check_syevj(h: Any, L: str) -> None:
    n = 5
    dev = Dev()
    A = hermitian(L, n, seed=7)
    dA, W, info = dev.put(A), dev.empty(8 * n), dev.info()
    params = check(hipsolver.hipsolverCreateSyevjInfo())
    check(hipsolver.hipsolverXsyevjSetTolerance(params, 1e-12 if L in "DZ" else 1e-6))
    check(hipsolver.hipsolverXsyevjSetMaxSweeps(params, 30))
    lwork = check(fn(L, "syevj", "_bufferSize")(h, VECTOR, LOWER, n, dA, n, W, params))
    check(fn(L, "syevj")(h, VECTOR, LOWER, n, dA, n, W, dev.empty(lwork), lwork, info, params))
    w, V = host(W, (n,), real(L)), host(dA, (n, n), DTYPE[L])
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A), atol=20 * tol(L))
    np.testing.assert_allclose(A @ V, V * w, atol=50 * tol(L))
    residual, sweeps = ctypes.c_double(-1), ctypes.c_int(-1)
    check(hipsolver.hipsolverXsyevjGetResidual(h, params, residual))
    check(hipsolver.hipsolverXsyevjGetSweeps(h, params, sweeps))
    assert 0 <= residual.value < 1e-3 and 1 <= sweeps.value <= 30
    assert infos(info)[0] == 0
    check(hipsolver.hipsolverDestroySyevjInfo(params))
    dev.free()


def check_syevj_batched(h: Any, L: str) -> None:
    """Two matrices lda * n apart; unsorted when the parameters say so (the eigenvalues are then a permutation)."""
    n, count = 4, 2
    dev = Dev()
    mats = [hermitian(L, n, seed=8 + b) for b in range(count)]
    W, info = dev.empty(8 * n * count), dev.info(count)
    params = check(hipsolver.hipsolverCreateSyevjInfo())
    for sort in (0, 1):
        check(hipsolver.hipsolverXsyevjSetSortEig(params, sort))
        dA = dev.put(np.hstack(mats))
        check(fn(L, "syevjBatched")(h, NOVECTOR, UPPER, n, dA, n, W, None, 0, info, params, count))
        w = host(W, (n, count), real(L))
        for b in range(count):
            got = w[:, b] if sort else np.sort(w[:, b])
            np.testing.assert_allclose(got, np.linalg.eigvalsh(mats[b]), atol=20 * tol(L))
        np.testing.assert_array_equal(infos(info, count), 0)
    # a batched run's residuals cannot be read back
    assert hipsolver.hipsolverXsyevjGetResidual(h, params) == (S.HIPSOLVER_STATUS_NOT_SUPPORTED, None)
    check(hipsolver.hipsolverDestroySyevjInfo(params))
    dev.free()


def check_gesvdj(h: Any, L: str) -> None:
    """A = U S V^H with V (not V^H) from hipSOLVER's gesvdj; economy or full vectors, alternating with the
    precision; the workspace given, so the scratch V^H comes from the front of work."""
    m, n = 6, 4
    econ = 1 if L in "DC" else 0
    ucols, vcols = (n, n) if econ else (m, n)
    dev = Dev()
    A = rand(L, m, n, seed=11)
    dA, Sd, U, V, info = dev.put(A), dev.empty(8 * n), dev.empty(16 * m * m), dev.empty(16 * n * n), dev.info()
    params = check(hipsolver.hipsolverCreateGesvdjInfo())
    lwork = check(fn(L, "gesvdj", "_bufferSize")(h, VECTOR, econ, m, n, dA, m, Sd, U, m, V, n, params))
    assert lwork >= np.dtype(DTYPE[L]).itemsize * n * n
    check(fn(L, "gesvdj")(h, VECTOR, econ, m, n, dA, m, Sd, U, m, V, n, dev.empty(lwork), lwork, info, params))
    s = host(Sd, (n,), real(L))
    u, v = host(U, (m, ucols), DTYPE[L]), host(V, (n, vcols), DTYPE[L])
    np.testing.assert_allclose(s, np.linalg.svd(A, compute_uv=False), rtol=20 * tol(L))
    np.testing.assert_allclose((u[:, :n] * s) @ v.conj().T, A, atol=50 * tol(L))
    np.testing.assert_allclose(u.conj().T @ u, np.eye(ucols), atol=50 * tol(L))
    np.testing.assert_array_equal(host(dA, (m, n), DTYPE[L]), A)  # A is not changed
    sweeps = check(hipsolver.hipsolverXgesvdjGetSweeps(h, params))
    assert sweeps >= 1 and infos(info)[0] == 0
    check(hipsolver.hipsolverDestroyGesvdjInfo(params))
    dev.free()


def check_gesvdj_batched(h: Any, L: str) -> None:
    m, n, count = 3, 4, 2
    dev = Dev()
    mats = [rand(L, m, n, seed=12 + b) for b in range(count)]
    k = min(m, n)
    dA, Sd, U, V, info = (dev.put(np.hstack(mats)), dev.empty(8 * k * count), dev.empty(16 * m * m * count),
                          dev.empty(16 * n * n * count), dev.info(count))
    params = check(hipsolver.hipsolverCreateGesvdjInfo())
    check(fn(L, "gesvdjBatched")(h, VECTOR, m, n, dA, m, Sd, U, m, V, n, None, 0, info, params, count))
    s = host(Sd, (k, count), real(L))
    u, v = host(U, (m, m * count), DTYPE[L]), host(V, (n, n * count), DTYPE[L])
    for b in range(count):
        ub, vb = u[:, b * m:(b + 1) * m], v[:, b * n:(b + 1) * n]
        np.testing.assert_allclose(s[:, b], np.linalg.svd(mats[b], compute_uv=False), rtol=20 * tol(L))
        np.testing.assert_allclose((ub * s[:, b]) @ vb[:, :k].conj().T, mats[b], atol=50 * tol(L))
        np.testing.assert_allclose(vb.conj().T @ vb, np.eye(n), atol=50 * tol(L))
    np.testing.assert_array_equal(infos(info, count), 0)
    assert hipsolver.hipsolverXgesvdjGetSweeps(h, params)[0] == S.HIPSOLVER_STATUS_NOT_SUPPORTED
    check(hipsolver.hipsolverDestroyGesvdjInfo(params))
    dev.free()


def check_gels(h: Any, L: str) -> None:
    """Out of place (B kept, X the least squares solution), then in place (X is B)."""
    m, n, nrhs = 7, 3, 2
    dev = Dev()
    A, B = rand(L, m, n, seed=13), rand(L, m, nrhs, seed=14)
    want = np.linalg.lstsq(A.astype(np.complex128), B.astype(np.complex128), rcond=None)[0]
    dA, dB, dX, info = dev.put(A), dev.put(B), dev.put(np.full((n, nrhs), 9, DTYPE[L])), dev.info()
    lwork = ctypes.c_size_t(0)
    check(fn(L, "gels", "_bufferSize")(h, m, n, nrhs, dA, m, dB, m, dX, n, lwork))
    assert lwork.value >= np.dtype(DTYPE[L]).itemsize * m * nrhs  # the copy of B is part of it
    check(fn(L, "gels")(h, m, n, nrhs, dA, m, dB, m, dX, n, dev.empty(lwork.value), lwork.value, None, info))
    np.testing.assert_allclose(host(dX, (n, nrhs), DTYPE[L]), want, atol=50 * tol(L))
    np.testing.assert_array_equal(host(dB, (m, nrhs), DTYPE[L]), B)
    assert infos(info)[0] == 0
    dA2 = dev.put(A)
    check(fn(L, "gels")(h, m, n, nrhs, dA2, m, dB, m, dB, m, None, 0, None, info))
    np.testing.assert_allclose(host(dB, (m, nrhs), DTYPE[L])[:n], want, atol=50 * tol(L))
    dev.free()


def check_gesv(h: Any, L: str) -> None:
    n, nrhs = 5, 3
    dev = Dev()
    A, B = rand(L, n, n, seed=15) + 3 * np.eye(n, dtype=DTYPE[L]), rand(L, n, nrhs, seed=16)
    dA, dB, dX, ipiv, info = dev.put(A), dev.put(B), dev.empty(16 * n * nrhs), dev.empty(4 * n), dev.info()
    lwork = check(fn(L, "gesv", "_bufferSize")(h, n, nrhs, dA, n, ipiv, dB, n, dX, n))
    check(fn(L, "gesv")(h, n, nrhs, dA, n, ipiv, dB, n, dX, n, dev.empty(lwork), lwork, None, info))
    np.testing.assert_allclose(host(dX, (n, nrhs), DTYPE[L]), np.linalg.solve(A, B), atol=50 * tol(L))
    np.testing.assert_array_equal(host(dB, (n, nrhs), DTYPE[L]), B)
    P = sla.lu(A)[0]  # the pivots are getrf's: same permutation
    perm = np.arange(n)
    for i, p in enumerate(infos(ipiv, n) - 1):
        perm[[i, p]] = perm[[p, i]]
    np.testing.assert_array_equal(perm, np.argmax(P.T, axis=1))
    dA2 = dev.put(A)
    check(fn(L, "gesv")(h, n, nrhs, dA2, n, ipiv, dB, n, dB, n, None, 0, None, info))
    np.testing.assert_allclose(host(dB, (n, nrhs), DTYPE[L]), np.linalg.solve(A, B), atol=50 * tol(L))
    assert infos(info)[0] == 0
    dev.free()


CHECKS: dict[str, Callable[[Any, str], None]] = {
    "potrfBatched": check_potrf_potrs_batched, "potri": check_potri, "orgqr": check_orgqr, "ormqr": check_ormqr,
    "sytrd": check_sytrd, "gebrd": check_gebrd, "sygvd": check_sygvd, "syevj": check_syevj,
    "syevjBatched": check_syevj_batched, "gesvdj": check_gesvdj, "gesvdjBatched": check_gesvdj_batched,
    "gels": check_gels, "gesv": check_gesv,
}
#: Families whose numbers the slow tier checks (in every precision); the default tier runs their hip-python calls
#: without a kernel (:func:`test_calls_without_kernels`), compiling the kernels of the others only.
SLOW_NUMBERS = ("gebrd", "gesv", "orgqr", "ormqr", "potri", "sytrd")
#: The default tier's precision of the others: double, so that the file compiles one kernel per routine (the
#: complex paths -- gesvdj's conjugate transpose, the complex scratch sizes -- run in the slow tier).
DEFAULT = {family: "D" for family in CHECKS if family not in SLOW_NUMBERS}


@pytest.mark.parametrize("family", sorted(DEFAULT))
def test_family(handle, family):
    CHECKS[family](handle, DEFAULT[family])


@pytest.mark.slow
@pytest.mark.parametrize("family,letter", [(f, p) for f in sorted(CHECKS) for p in "SDCZ" if p != DEFAULT.get(f)])
def test_family_other_precisions(handle, family, letter):
    CHECKS[family](handle, letter)


def test_calls_without_kernels(handle):
    """Per family of :data:`SLOW_NUMBERS`: its query, an empty problem (info zeroed or written) and a bad leading
    dimension (INVALID_VALUE, nothing touched)."""
    dev = Dev()
    n, A = 4, hpd("D", 4, seed=22)
    dA, vec, info = dev.put(A), dev.empty(8 * n), dev.info()
    left, nop = SIDE.HIPBLAS_SIDE_LEFT, OP.HIPBLAS_OP_N
    calls = {  # family -> (query arguments, an empty problem, a bad leading dimension)
        "potri": ((UPPER, n, dA, n), (UPPER, 0, dA, 1, None, 0, info), (UPPER, n, dA, n - 1, None, 0, info)),
        "orgqr": ((n, n, n, dA, n, vec), (0, 0, 0, dA, 1, vec, None, 0, info),
                  (n, n, n, dA, n - 1, vec, None, 0, info)),
        "ormqr": ((left, nop, n, 1, n, dA, n, vec, vec, n), (left, nop, 0, 0, 0, dA, 1, vec, vec, 1, None, 0, info),
                  (left, nop, n, 1, n, dA, n - 1, vec, vec, n, None, 0, info)),
        "sytrd": ((LOWER, n, dA, n, vec, vec, vec), (LOWER, 0, dA, 1, vec, vec, vec, None, 0, info),
                  (LOWER, n, dA, n - 1, vec, vec, vec, None, 0, info)),
        "gebrd": ((n, n), (0, 0, dA, 1, vec, vec, vec, vec, None, 0, info),
                  (n, n, dA, n - 1, vec, vec, vec, vec, None, 0, info)),
        "gesv": ((n, 1, dA, n, vec, vec, n, vec, n), (0, 1, dA, 1, vec, vec, 1, vec, 1, None, 0, None, info),
                 (n, 1, dA, n, vec, vec, n, dA, n - 1, None, 0, None, info)),
    }
    assert set(calls) == set(SLOW_NUMBERS)
    for family, (query, empty, bad) in calls.items():
        size = check(fn("D", family, "_bufferSize")(handle, *query))
        assert size >= 0, family
        check(hip.hipMemcpy(info, np.array([-7], np.int32), 4, hip.hipMemcpyKind.hipMemcpyHostToDevice))
        check(fn("D", family)(handle, *empty))
        assert infos(info)[0] == 0, family
        assert fn("D", family)(handle, *bad) == (S.HIPSOLVER_STATUS_INVALID_VALUE,), family
        np.testing.assert_array_equal(host(dA, (n, n), np.float64), A)
    dev.free()


def test_a_given_workspace_serves_one_call(handle):
    """A program may free its work buffer after the call: the next call without one still succeeds."""
    dev = Dev()
    n, A = 4, hpd("D", 4, seed=23)
    dA, info = dev.put(A), dev.info()
    lwork = check(hipsolver.hipsolverDpotrf_bufferSize(handle, LOWER, n, dA, n))
    work = check(hip.hipMalloc(max(lwork, 256)))
    check(hipsolver.hipsolverDpotrf(handle, LOWER, n, dA, n, work, max(lwork, 256), info))
    check(hip.hipFree(work))
    dB = dev.put(A)
    check(hipsolver.hipsolverDpotrf(handle, LOWER, n, dB, n, None, 0, info))
    np.testing.assert_array_equal(np.tril(host(dB, (n, n), np.float64)), np.tril(host(dA, (n, n), np.float64)))
    dev.free()


# --- the manifest and the parameters objects ---------------------------------------------------------------


def test_size_queries_check_the_handle_before_a_null_lwork(handle):
    # hipsolver.cpp's _bufferSize functions: !handle (NOT_INITIALIZED), then !lwork (INVALID_VALUE), then the rest.
    S = hipsolver.hipsolverStatus_t
    for name, args in (("hipsolverSgetrf_bufferSize", (4, 4, None, 4)), ("hipsolverDgeqrf_bufferSize", (4, 4, None, 4)),
                       ("hipsolverDnZgetrf_bufferSize", (4, 4, None, 4))):
        fn = getattr(hipsolver, name)
        assert fn(None, *args, 0) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,), name
        assert fn(handle, *args, 0) == (S.HIPSOLVER_STATUS_INVALID_VALUE,), name
        lwork = ctypes.c_int(-1)
        assert fn(handle, *args, lwork) == (S.HIPSOLVER_STATUS_SUCCESS,) and lwork.value >= 0, name


def test_manifest_covers_the_families():
    for family, fam in hipsolver.FAMILIES.items():
        for letter, op in fam.ops.items():
            name = f"hipsolver{letter * (2 if fam.twice else 1)}{op}"
            assert {name, f"{name}_bufferSize"} <= set(hipsolver.MANIFEST), family
            assert callable(getattr(hipsolver, name)) and name in hipsolver.__all__
    assert {"hipsolverCheevjBatched", "hipsolverZungqr", "hipsolverCunmqr", "hipsolverZhegvd", "hipsolverCCgels",
            "hipsolverSorgqr", "hipsolverDsytrd", "hipsolverChetrd"} <= set(hipsolver.MANIFEST)
    assert "hipsolverSungqr" not in hipsolver.MANIFEST and hipsolver.UNAVAILABLE == []
    assert set(CHECKS) | {"getrf", "getrs", "potrf", "potrs", "geqrf", "gesvd", "syevd", "potrsBatched",
                          "orgbr", "orgtr", "ormtr", "syevdx", "sygvdx", "sygvj", "sytrf"} == set(
        hipsolver.FAMILIES)


def test_jacobi_parameters_objects(handle):
    info = ctypes.c_void_p()
    check(hipsolver.hipsolverCreateGesvdjInfo(info))
    assert info.value
    p = check(hipsolver.hipsolverCreateSyevjInfo())
    for kind, obj in (("syevj", p), ("gesvdj", info)):
        api = {name: getattr(hipsolver, f"hipsolverX{kind}{name}") for name in
               ("SetMaxSweeps", "SetSortEig", "SetTolerance", "GetResidual", "GetSweeps")}
        check(api["SetMaxSweeps"](obj, 7))
        check(api["SetTolerance"](obj, 1e-9))
        check(api["SetSortEig"](obj, 0))
        assert api["SetMaxSweeps"](obj, 0) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
        assert api["SetMaxSweeps"](None, 5) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
        with pytest.raises(TypeError):
            api["SetTolerance"](obj, "tight")
        with pytest.raises(TypeError):
            api["SetMaxSweeps"](obj, 2.5)
        # nothing ran yet: no results to read; a null handle is HANDLE_IS_NULLPTR
        assert api["GetResidual"](handle, obj) == (S.HIPSOLVER_STATUS_INTERNAL_ERROR, None)
        assert api["GetSweeps"](None, obj) == (S.HIPSOLVER_STATUS_HANDLE_IS_NULLPTR, None)
        assert api["GetSweeps"](handle, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE, None)
        assert api["GetResidual"](handle, obj, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    target = hipsolver._params(p, "params")
    assert (target.max_sweeps, target.tolerance, target.sort_eig) == (7, 1e-9, False)
    check(hipsolver.hipsolverDestroySyevjInfo(p))
    check(hipsolver.hipsolverDestroyGesvdjInfo(info))
    assert hipsolver.hipsolverDestroySyevjInfo(p) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDestroyGesvdjInfo(None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    err = hipsolver.HipsolverStatusError(S.HIPSOLVER_STATUS_INVALID_ENUM, "bad", arg="uplo")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.status, back.message) == (hipsolver.HipsolverStatusError, err.status, "bad")


def test_bad_arguments_map_to_hipsolver_statuses(handle):
    dev = Dev()
    n = 4
    A = hermitian("D", n, seed=20)
    dA, W, info = dev.put(A), dev.empty(8 * n), dev.info()
    p = check(hipsolver.hipsolverCreateSyevjInfo())
    # the parameters object: NULL or anything else is INVALID_VALUE, checked before the enums are converted
    full = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_FULL
    assert hipsolver.hipsolverDsyevj(handle, VECTOR, LOWER, n, dA, n, W, None, 0, info, None) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDsyevj(handle, VECTOR, full, n, dA, n, W, None, 0, info, handle) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDsyevj(handle, VECTOR, full, n, dA, n, W, None, 0, info, p) == (
        S.HIPSOLVER_STATUS_INVALID_ENUM,)
    assert hipsolver.hipsolverDsyevj(None, VECTOR, LOWER, n, dA, n, W, None, 0, info, p) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert hipsolver.hipsolverDsyevj_bufferSize(handle, VECTOR, LOWER, n, dA, n - 1, W, p) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE, None)  # lda < n: rocSOLVER's invalid_size
    # hipSOLVER's conversions: side both and a full fill have no rocBLAS value; plain ints are TypeErrors
    both = SIDE.HIPBLAS_SIDE_BOTH
    assert hipsolver.hipsolverDormqr(handle, both, OP.HIPBLAS_OP_N, n, n, n, dA, n, W, dA, n, None, 0, info) == (
        S.HIPSOLVER_STATUS_INVALID_ENUM,)
    with pytest.raises(TypeError, match="_hipblasSideMode_t__Base"):
        hipsolver.hipsolverDormqr(handle, 141, OP.HIPBLAS_OP_N, n, n, n, dA, n, W, dA, n, None, 0, info)
    with pytest.raises(TypeError, match="_hipsolverEigType_t__Base"):
        hipsolver.hipsolverDsygvd(handle, 211, VECTOR, LOWER, n, dA, n, dA, n, W, None, 0, info)
    # sizes: the out-of-place gels/gesv checks are rocSOLVER's, and a failure touches nothing
    dB, dX = dev.put(np.ones((n, 1))), dev.put(np.full((n, 1), 5.0))
    assert hipsolver.hipsolverDDgels(handle, n, n, 1, dA, n, dB, n, dX, n - 1, None, 0, None, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDDgels_bufferSize(handle, n, n, 1, dA, n, dB, n - 1, dX, n) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE, None)
    assert hipsolver.hipsolverDDgesv(handle, n, 1, dA, n, None, dB, n, dX, n, None, 0, None, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # a NULL devIpiv
    np.testing.assert_array_equal(host(dA, (n, n), np.float64), A)
    np.testing.assert_array_equal(host(dX, (n, 1), np.float64), 5.0)
    # gesvdj's V has n rows (not V^H's min(m, n))
    Sd, U, V = dev.empty(8 * n), dev.empty(8 * n * n), dev.empty(8 * n * n)
    g = check(hipsolver.hipsolverCreateGesvdjInfo())
    assert hipsolver.hipsolverDgesvdj_bufferSize(handle, VECTOR, 1, 6, n, dA, 6, Sd, U, 6, V, n - 1, g)[0] == (
        S.HIPSOLVER_STATUS_INVALID_VALUE)
    assert hipsolver.hipsolverDgesvdj(handle, VECTOR, 1, n, n, dA, n, Sd, U, n, None, n, None, 0, info, g) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    # batched: a NULL handle; hipSOLVER zeroes the infos of a negative count (with a workspace given) and fails
    ptrs = dev.put(np.array([int(dA)], np.uint64))
    assert hipsolver.hipsolverDpotrfBatched(None, LOWER, n, ptrs, n, None, 0, info, 1) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    work = dev.empty(64)
    assert hipsolver.hipsolverDpotrsBatched(handle, LOWER, n, 1, ptrs, n, ptrs, n, work, 64, info, -1) == (
        S.HIPSOLVER_STATUS_INTERNAL_ERROR,)
    assert hipsolver.hipsolverDpotrsBatched(handle, LOWER, n, 1, ptrs, n, ptrs, n, None, 0, info, -1) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    np.testing.assert_array_equal(infos(info), -7)
    check(hipsolver.hipsolverDestroySyevjInfo(p))
    check(hipsolver.hipsolverDestroyGesvdjInfo(g))
    dev.free()


PROGRAM = '''
import ctypes
import numpy as np
from hip import hip, hipsolver
''' + hip_check_source("hipsolver") + '''
n = 5
M = np.random.default_rng(3).standard_normal((n, n))
A = np.asfortranarray((M + M.T) / 2)
A_d = hip_check(hip.hipMalloc(A.nbytes))
W_d = hip_check(hip.hipMalloc(n * 8))
info_d = hip_check(hip.hipMalloc(4))
hip_check(hip.hipMemcpy(A_d, A, A.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
handle = hip_check(hipsolver.hipsolverCreate())
params = hip_check(hipsolver.hipsolverCreateSyevjInfo())
hip_check(hipsolver.hipsolverXsyevjSetTolerance(params, 1e-12))
jobz = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR
uplo = hipsolver.hipsolverFillMode_t.HIPBLAS_FILL_MODE_LOWER
lwork = ctypes.c_int(0)
hip_check(hipsolver.hipsolverDsyevj_bufferSize(handle, jobz, uplo, n, A_d, n, W_d, ctypes.addressof(lwork), params))
work_d = hip_check(hip.hipMalloc(max(lwork.value, 8)))
hip_check(hipsolver.hipsolverDsyevj(handle, jobz, uplo, n, A_d, n, W_d, work_d, lwork.value, info_d, params))
W = np.empty(n)
hip_check(hip.hipMemcpy(W, W_d, W.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert np.allclose(W, np.linalg.eigvalsh(A), atol=1e-10), W
sweeps = hip_check(hipsolver.hipsolverXsyevjGetSweeps(handle, params))
assert sweeps >= 1, sweeps
hip_check(hipsolver.hipsolverDestroySyevjInfo(params))
hip_check(hipsolver.hipsolverDestroy(handle))
for d in (A_d, W_d, info_d, work_d):
    hip_check(hip.hipFree(d))
print("ok")
'''


def test_syevj_program_through_the_runner(tmp_path):
    assert_runs_ok(tmp_path, PROGRAM, name="syevj_prog.py")
