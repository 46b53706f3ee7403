"""rocmath as the per-chunk engine of dask.array: threaded scheduler and distributed LocalCluster."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask.array")  # installs without the [dask] extra skip this module

import dask
import dask.array as da

import rocmath
import rocmath.dask as rd


def _synchronize_every_device() -> None:
    """Chunks free their device memory stream-ordered on their own device's stream: before the
    devices are reconfigured, wait for all of them (the test thread's device is only one)."""
    current = rocmath.get_device()
    for device in range(rocmath.get_device_count()):
        rocmath.set_device(device)
        rocmath.device_synchronize()
    rocmath.set_device(current)


@pytest.fixture
def two_devices(configure):
    configure(count=2)
    with dask.config.set(scheduler="threads", num_workers=2):
        yield
    _synchronize_every_device()


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# --- batched calls ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_batched_matmul(two_devices, dtype):
    rng = _rng(1)
    A = rng.standard_normal((60, 5, 7)).astype(dtype)
    B = rng.standard_normal((60, 7, 4)).astype(dtype)
    got = rd.matmul(da.from_array(A, chunks=(16, 3, 7)), da.from_array(B, chunks=(25, 7, 2)))
    assert got.dtype == dtype and got.chunks[1:] == ((5,), (4,))
    tol = 1e-12 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(got.compute(), A @ B, rtol=tol, atol=tol)


def test_batched_results_do_not_depend_on_chunks_or_devices(two_devices):
    rng = _rng(2)
    A = rng.standard_normal((40, 6, 6))
    B = rng.standard_normal((40, 6, 6))
    one = rd.matmul(da.from_array(A, chunks=40), da.from_array(B, chunks=40)).compute(scheduler="sync")
    many = rd.matmul(da.from_array(A, chunks=(7, 6, 6)), da.from_array(B, chunks=(7, 6, 6))).compute()
    assert np.array_equal(one, many)


def test_batched_solve_cholesky_inv(two_devices):
    rng = _rng(3)
    A = rng.standard_normal((50, 6, 6)) + 6 * np.eye(6)
    B = rng.standard_normal((50, 6, 2))
    S = A @ A.transpose(0, 2, 1)
    a = da.from_array(A, chunks=(12, 6, 6))
    x = rd.solve(a, da.from_array(B, chunks=(20, 6, 2)))
    np.testing.assert_allclose(x.compute(), np.linalg.solve(A, B), rtol=1e-10, atol=1e-12)
    s = da.from_array(S, chunks=(15, 6, 6))
    np.testing.assert_allclose(rd.cholesky(s, lower=True).compute(), np.linalg.cholesky(S), rtol=1e-10,
                               atol=1e-12)
    u = rd.cholesky(s).compute()
    np.testing.assert_allclose(np.swapaxes(u, -1, -2) @ u, S, rtol=1e-10)
    np.testing.assert_allclose(rd.inv(a).compute(), np.linalg.inv(A), rtol=1e-9, atol=1e-11)


def test_solve_one_vector_and_integer_input(two_devices):
    A = np.array([[4, 1], [2, 3]])
    b = np.array([1, 2])
    x = rd.solve(da.from_array(A), da.from_array(b))
    assert x.shape == (2,) and x.dtype == np.float64
    np.testing.assert_allclose(x.compute(), np.linalg.solve(A, b))


def test_failures_raise_as_numpy(two_devices):
    A = np.zeros((4, 3, 3))
    A[:] = np.eye(3)
    A[2] = 0.0
    # One worker thread: on a failure the scheduler raises at once, and a chunk still running on
    # another thread would hold device memory past the test.
    with dask.config.set(num_workers=1), pytest.raises(np.linalg.LinAlgError):
        rd.solve(da.from_array(A, chunks=2), da.from_array(np.ones((4, 3, 1)), chunks=2)).compute()
    S = -np.broadcast_to(np.eye(3), (4, 3, 3))
    with dask.config.set(num_workers=1), pytest.raises(np.linalg.LinAlgError):
        rd.cholesky(da.from_array(S, chunks=2)).compute()
    with pytest.raises(ValueError, match="square"):
        rd.inv(da.zeros((3, 2, 4)))
    with pytest.raises(ValueError, match="batch shapes"):
        rd.matmul(da.zeros((3, 2, 2)), da.zeros((4, 2, 2)))
    with pytest.raises(ValueError, match="inner"):
        rd.matmul(da.zeros((3, 2)), da.zeros((3, 2)))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft"])
def test_transforms_along_a_chunked_axis(two_devices, name):
    rng = _rng(4)
    X = rng.standard_normal((20, 48))
    x = da.from_array(X, chunks=(6, 10))  # the transformed axis is rechunked whole
    got = getattr(rd, name)(x, norm="ortho")
    np.testing.assert_allclose(got.compute(), getattr(np.fft, name)(X, norm="ortho"), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(getattr(rd, name)(x.T, n=30, axis=0).compute(), getattr(np.fft, name)(X.T, n=30,
                               axis=0), rtol=1e-10, atol=1e-11)


def test_irfft_round_trip(two_devices):
    X = _rng(5).standard_normal((9, 32)).astype(np.float32)
    back = rd.irfft(rd.rfft(da.from_array(X, chunks=4)), n=32)
    assert back.dtype == np.float32
    np.testing.assert_allclose(back.compute(), X, rtol=1e-4, atol=1e-5)


# --- blocked algorithms ----------------------------------------------------------------------------


@pytest.mark.parametrize("chunks_a, chunks_b", [((40, 30), (30, 25)), ((50, 64), (20, 33)), (-1, -1)])
def test_blocked_gemm(two_devices, chunks_a, chunks_b):
    rng = _rng(6)
    A = rng.standard_normal((120, 90))
    B = rng.standard_normal((90, 70))
    got = rd.matmul(da.from_array(A, chunks=chunks_a), da.from_array(B, chunks=chunks_b))
    assert got.shape == (120, 70)
    np.testing.assert_allclose(got.compute(), A @ B, rtol=1e-12, atol=1e-12)


def test_blocked_gemm_is_the_same_on_every_scheduler(two_devices):
    rng = _rng(7)
    A = da.from_array(rng.standard_normal((64, 64)), chunks=16)
    C = rd.matmul(A, A)
    assert np.array_equal(C.compute(scheduler="sync"), C.compute())


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_tsqr(two_devices, dtype):
    rng = _rng(8)
    T = rng.standard_normal((300, 12)).astype(dtype)
    if dtype == np.complex128:
        T = T + 1j * rng.standard_normal((300, 12))
    q, r = rd.tsqr(da.from_array(T, chunks=(70, 5)))
    q, r = dask.compute(q, r)
    assert q.shape == (300, 12) and r.shape == (12, 12)
    np.testing.assert_allclose(q @ r, T, atol=1e-12)
    np.testing.assert_allclose(q.conj().T @ q, np.eye(12), atol=1e-12)
    assert np.array_equal(np.triu(r), r)
    # The same R as numpy's up to the signs of its rows.
    r_np = np.linalg.qr(T, mode="r")
    signs = np.diag(r_np) / np.diag(r)
    np.testing.assert_allclose(signs[:, None] * r, r_np, atol=1e-10)
    with pytest.raises(ValueError, match="rechunk"):
        rd.tsqr(da.from_array(T, chunks=(8, 12)))


def test_device_of_thread_spreads_threads(configure):
    import threading

    configure(count=2)
    seen = []

    def grab():
        seen.append(rd.device_of_thread())
        assert rocmath.get_device() == seen[-1]

    threads = [threading.Thread(target=grab) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == [0, 0, 1, 1]


# --- distributed ------------------------------------------------------------------------------------


def _distributed_run(processes: bool) -> None:
    distributed = pytest.importorskip("distributed")
    rng = _rng(9)
    A = rng.standard_normal((64, 6, 6)) + 6 * np.eye(6)
    B = rng.standard_normal((64, 6, 1))
    M = rng.standard_normal((80, 60))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        a = da.from_array(A, chunks=(16, 6, 6))
        x = rd.solve(a, da.from_array(B, chunks=(16, 6, 1)))
        mm = rd.matmul(da.from_array(M, chunks=(40, 20)), da.from_array(M.T, chunks=(20, 40)))
        f = rd.fft(da.from_array(M, chunks=(20, 60)))
        q, r = rd.tsqr(da.from_array(M[:, :8], chunks=(20, 8)))
        x, mm, f, q, r = client.compute([x, mm, f, q, r], sync=True)
    np.testing.assert_allclose(x, np.linalg.solve(A, B), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mm, M @ M.T, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f, np.fft.fft(M), rtol=1e-10, atol=1e-11)
    np.testing.assert_allclose(q @ r, M[:, :8], atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(8), atol=1e-12)
    assert np.array_equal(np.triu(r), r)


def test_distributed_local_cluster_threads(configure):
    configure(count=2)
    _distributed_run(processes=False)
    _synchronize_every_device()


def test_distributed_local_cluster_processes():
    _distributed_run(processes=True)
