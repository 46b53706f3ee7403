"""rocmath.hip.hipsolver: hipSOLVER's regular API through hip-python's conventions, cross-checked with NumPy."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from hip_util import assert_runs_ok, check, hip_check_source, to_device, to_host

from rocmath.errors import RocblasStatus
from rocmath.hip import hip, hipblas, hipsolver

S = hipsolver.hipsolverStatus_t
K = hip.hipMemcpyKind
LOWER = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_LOWER
NOTRANS = hipblas.hipblasOperation_t.HIPBLAS_OP_N


@pytest.fixture(scope="module")
def handle():
    h = check(hipsolver.hipsolverCreate())
    yield h
    check(hipsolver.hipsolverDestroy(h))


def test_manifest_enums_and_status_table():
    assert {f"hipsolver{p}{op}{q}" for p in "SDCZ" for op in ("getrf", "getrs", "potrf", "potrs", "geqrf", "gesvd")
            for q in ("", "_bufferSize")} <= set(hipsolver.MANIFEST)
    assert {"hipsolverSsyevd", "hipsolverZheevd_bufferSize"} <= set(hipsolver.MANIFEST)
    assert hipsolver.UNAVAILABLE == []
    assert (hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR, S.HIPSOLVER_STATUS_INVALID_ENUM) == (202, 10)
    assert hipsolver.hipsolverFillMode_t is hipblas.hipblasFillMode_t
    expected = {RocblasStatus.size_increased: S.HIPSOLVER_STATUS_SUCCESS,
                RocblasStatus.invalid_handle: S.HIPSOLVER_STATUS_NOT_INITIALIZED,
                RocblasStatus.invalid_pointer: S.HIPSOLVER_STATUS_INVALID_VALUE,
                RocblasStatus.memory_error: S.HIPSOLVER_STATUS_ALLOC_FAILED,
                RocblasStatus.perf_degraded: S.HIPSOLVER_STATUS_UNKNOWN}
    for status, want in expected.items():
        assert hipsolver.convert_status(status) == want


def test_getrf_getrs_with_buffer_query(handle):
    n, nrhs = 6, 2
    rng = np.random.default_rng(7)
    A = np.asfortranarray(rng.standard_normal((n, n)) + n * np.eye(n))
    B = np.asfortranarray(rng.standard_normal((n, nrhs)))
    dA, dB, ipiv, info = to_device(A), to_device(B), check(hip.hipMalloc(4 * n)), check(hip.hipMalloc(4))
    lwork = ctypes.c_int(-1)
    check(hipsolver.hipsolverDgetrf_bufferSize(handle, n, n, dA, n, lwork))
    assert lwork.value >= 0 and hipsolver.hipsolverDgetrf_bufferSize(handle, n, n, dA, n)[1] == lwork.value
    work = check(hip.hipMalloc(max(lwork.value, 64)))
    check(hipsolver.hipsolverDgetrf(handle, n, n, dA, n, work, lwork.value, ipiv, info))
    assert to_host(info, np.zeros(1, np.int32))[0] == 0
    check(hipsolver.hipsolverDgetrs(handle, NOTRANS, n, nrhs, dA, n, ipiv, dB, n, None, 0, info))
    np.testing.assert_allclose(to_host(dB, B), np.linalg.solve(A, B), rtol=1e-10)
    singular = to_device(np.zeros((3, 3), order="F"))
    check(hipsolver.hipsolverDgetrf(handle, 3, 3, singular, 3, None, 0, ipiv, info))
    assert to_host(info, np.zeros(1, np.int32))[0] == 1  # a zero pivot is data, not a status
    for d in (dA, dB, ipiv, info, work, singular):
        check(hip.hipFree(d))


def test_cholesky_qr_svd_and_eigen(handle):
    rng = np.random.default_rng(8)
    n = 5
    M = rng.standard_normal((n, n)).astype(np.float32)
    A = np.asfortranarray(M @ M.T + n * np.eye(n, dtype=np.float32))
    info = check(hip.hipMalloc(4))
    dA, dB = to_device(A), to_device(np.asfortranarray(np.ones((n, 1), np.float32)))
    check(hipsolver.hipsolverSpotrf(handle, LOWER, n, dA, n, None, 0, info))
    L = np.tril(to_host(dA, A))
    np.testing.assert_allclose(L @ L.T, A, rtol=1e-4)
    check(hipsolver.hipsolverSpotrs(handle, LOWER, n, 1, dA, n, dB, n, None, 0, info))
    np.testing.assert_allclose(to_host(dB, np.zeros((n, 1), np.float32))[:, 0], np.linalg.solve(A, np.ones(n)),
                               rtol=1e-4)
    G = np.asfortranarray(rng.standard_normal((7, 4)))
    dG, tau = to_device(G), check(hip.hipMalloc(8 * 4))
    check(hipsolver.hipsolverDgeqrf(handle, 7, 4, dG, 7, tau, None, 0, info))
    np.testing.assert_allclose(np.abs(np.triu(to_host(dG, G)[:4])), np.abs(np.linalg.qr(G)[1]), atol=1e-12)
    check(hip.hipFree(dG))
    dG = to_device(G)
    lwork = check(hipsolver.hipsolverDgesvd_bufferSize(handle, ord("N"), ord("N"), 7, 4))
    work = check(hip.hipMalloc(max(lwork, 64)))
    s = check(hip.hipMalloc(8 * 4))
    check(hipsolver.hipsolverDgesvd(handle, ord("N"), ord("N"), 7, 4, dG, 7, s, None, 1, None, 1, work, lwork, None,
                                    info))
    np.testing.assert_allclose(to_host(s, np.zeros(4)), np.linalg.svd(G, compute_uv=False), rtol=1e-12)
    H = rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))
    H = np.asfortranarray(H + H.conj().T)
    dH, w = to_device(H), check(hip.hipMalloc(8 * 4))
    vec = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR
    check(hipsolver.hipsolverZheevd(handle, vec, LOWER, 4, dH, 4, w, None, 0, info))
    np.testing.assert_allclose(to_host(w, np.zeros(4)), np.linalg.eigvalsh(H), rtol=1e-10, atol=1e-12)
    assert to_host(info, np.zeros(1, np.int32))[0] == 0
    for d in (info, dA, dB, dG, tau, work, s, dH, w):
        check(hip.hipFree(d))


def test_bad_arguments_map_to_hipsolver_statuses(handle):
    d = check(hip.hipMalloc(64))
    assert hipsolver.hipsolverSgetrf(None, 2, 2, d, 2, None, 0, d, d) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert hipsolver.hipsolverSgetrf_bufferSize(None, 2, 2, d, 2) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)
    assert hipsolver.hipsolverSgetrf(handle, -1, 2, d, 2, None, 0, d, d) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverSgetrf(handle, 4, 4, d, 2, None, 0, d, d) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # lda
    assert hipsolver.hipsolverSgetrs(handle, NOTRANS, 2, 1, d, 2, d, d, 2, None, 0, None) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # the devInfo hipSOLVER zeroes is NULL
    full = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_FULL
    assert hipsolver.hipsolverSpotrf(handle, full, 2, d, 2, None, 0, d) == (S.HIPSOLVER_STATUS_INVALID_ENUM,)
    assert hipsolver.hipsolverDgesvd_bufferSize(handle, ord("X"), ord("N"), 2, 2)[0] == S.HIPSOLVER_STATUS_INVALID_VALUE
    assert hipsolver.hipsolverSgetrf_bufferSize(handle, 2, 2, d, 2, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    with pytest.raises(TypeError, match="_hipblasFillMode_t__Base"):
        hipsolver.hipsolverSpotrf(handle, 122, 2, d, 2, None, 0, d)
    stream = check(hip.hipStreamCreate())
    check(hipsolver.hipsolverSetStream(handle, stream))
    ref = ctypes.c_void_p()
    check(hipsolver.hipsolverGetStream(handle, ref))
    assert ref.value == int(stream)
    check(hipsolver.hipsolverSetStream(handle, None))
    check(hip.hipStreamDestroy(stream))
    check(hip.hipFree(d))


PROGRAM = '''
import ctypes
import numpy as np
from hip import hip, hipsolver
''' + hip_check_source("hipsolver") + '''
n = 4
A = np.asfortranarray(np.random.rand(n, n).astype(np.float32) + n * np.eye(n, dtype=np.float32))
A_d = hip_check(hip.hipMalloc(A.nbytes))
hip_check(hip.hipMemcpy(A_d, A, A.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice))
ipiv_d = hip_check(hip.hipMalloc(n * 4))
info_d = hip_check(hip.hipMalloc(4))
handle = hip_check(hipsolver.hipsolverCreate())
lwork = ctypes.c_int(0)
hip_check(hipsolver.hipsolverSgetrf_bufferSize(handle, n, n, A_d, n, ctypes.addressof(lwork)))
work_d = hip_check(hip.hipMalloc(max(lwork.value, 4)))
hip_check(hipsolver.hipsolverSgetrf(handle, n, n, A_d, n, work_d, lwork.value, ipiv_d, info_d))
LU = np.empty_like(A)
info = np.zeros(1, np.int32)
hip_check(hip.hipMemcpy(LU, A_d, A.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
hip_check(hip.hipMemcpy(info, info_d, 4, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
assert info[0] == 0
ipiv = np.zeros(n, np.int32)
hip_check(hip.hipMemcpy(ipiv, ipiv_d, ipiv.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
L, U = np.tril(LU, -1) + np.eye(n), np.triu(LU)
P = np.eye(n)
for i, p in enumerate(ipiv - 1):
    P[[i, p]] = P[[p, i]]
assert np.allclose(P @ A, L @ U, atol=1e-5)
hip_check(hipsolver.hipsolverDestroy(handle))
for d in (A_d, ipiv_d, info_d, work_d):
    hip_check(hip.hipFree(d))
print("ok")
'''


def test_getrf_program_through_the_runner(tmp_path):
    assert_runs_ok(tmp_path, PROGRAM, name="solver_prog.py")
